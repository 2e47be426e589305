/*
 * A strict RFC 8259 check of a request's text, run before cJSON (which is lenient: it takes
 * leading zeros, "1.", a BOM, invalid UTF-8 inside strings, and echoes them back). One linear
 * pass, no allocation, no recursion.
 */
#ifndef EC_PROTOCOL_JSON_STRICT_H
#define EC_PROTOCOL_JSON_STRICT_H
#include <stdbool.h>
#include <stddef.h>

/* Deeper nesting is refused (cJSON's own limit is 1000; the protocol needs four levels). */
#define EC_JSON_MAX_DEPTH 512

/**
 * True when json[0, len) is one JSON value (RFC 8259) with nothing but white space around it,
 * every string valid UTF-8 with valid escapes, and no object key holding \u0000 (keys are paths
 * and field names). Otherwise false, with *at the byte offset of the fault and *what a phrase
 * saying what is wrong there ("a leading zero in a number"). True: *at is the length of its
 * longest number (0: none), so json_numbers.h's rewriting of long numbers needs no pass of its own.
 */
bool ec_json_strict_check(const char *json, size_t len, size_t *at, const char **what);

#endif
