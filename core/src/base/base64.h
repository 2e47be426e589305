/*
 * RFC 4648 base64 (the standard alphabet, with '=' padding): how the JSON protocol carries a
 * file's bytes when they are not UTF-8 (docs/protocol.md, "Bytes"). Strict on input: only the
 * alphabet, padding only at the end and only where the length needs it, no white space, and the
 * unused bits of the last character zero, so every byte string has exactly one encoding.
 */
#ifndef EC_BASE_BASE64_H
#define EC_BASE_BASE64_H
#include "buf.h"
#include <stdbool.h>
#include <stddef.h>

/** Characters ec_base64_encode writes for n bytes (padding included, no terminator). */
static inline size_t ec_base64_len(size_t n) { return (n + 2) / 3 * 4; }

/** Writes the base64 of bytes[0, n) into out (room for ec_base64_len(n) characters). */
void ec_base64_encode(const unsigned char *bytes, size_t n, char *out);

/** Appends the base64 of p[0, n) to b (MCP's media results). */
void ec_base64_append(ec_buf *b, const char *p, size_t n);

/** Decodes text[0, len) into out (room for len / 4 * 3 bytes); false when it is not canonical
 *  base64 as above. *out_len gets the bytes written. */
bool ec_base64_decode_into(const char *text, size_t len, unsigned char *out, size_t *out_len);

#endif
