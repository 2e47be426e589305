/*
 * JSON numbers read the same on every build.
 *
 * cJSON 1.7.15 as released copies a number into a 64-byte buffer and fails on a longer one
 * (CVE-2023-26819); Debian's package, which the native build links, allocates instead. So a
 * request with a number of 64 or more characters was read natively and failed in the wasm builds,
 * where the failure (after the strict check had passed) was taken for out of memory. Before cJSON
 * reads a text, each such number is rewritten as a short text of the same double (strtod, correctly
 * rounded in glibc and musl alike), padded with spaces to its length so byte offsets stay right:
 * what a field gets never depends on which cJSON reads it.
 */
#ifndef EC_PROTOCOL_JSON_NUMBERS_H
#define EC_PROTOCOL_JSON_NUMBERS_H
#include <stdbool.h>
#include <stddef.h>

/* Numbers this long or longer are rewritten (cJSON 1.7.15 reads at most 63 characters). Whether a
 * text holds one is told by ec_json_strict_check, which reports its longest number (json_strict.h). */
#define EC_JSON_LONG_NUMBER 64

/** Rewrites every such number of a NUL-terminated, writable JSON text in place, as the shortest
 *  round-trip text of its double ("1e999" for an infinity) followed by spaces. */
void ec_json_shorten_numbers(char *json, size_t len);

#endif
