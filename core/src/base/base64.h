/* Base64 (RFC 4648, the standard alphabet with padding): how bytes that are not text travel in
 * the JSON of the tool phases ({"base64": ...}) and in MCP's media results. */
#ifndef EC_BASE_BASE64_H
#define EC_BASE_BASE64_H
#include "buf.h"

/** Appends the encoding of p[0..n) to b. */
void ec_base64_encode(ec_buf *b, const char *p, size_t n);
/** Decodes s (whitespace ignored; padding optional) into the arena (NUL-terminated): 1, or 0 when
 *  s is not base64, or -1 when memory ran out; *out is set only on success. */
int ec_base64_decode(ec_arena *a, ec_str s, ec_str *out);

#endif
