/* The pieces a JSON answer is written from: strings, a file's bytes, a syntax report. Used by the
 * response writer (json_response.c) and by the tools' answers; each written the same on every build. */
#ifndef EC_PROTOCOL_JSON_WRITE_H
#define EC_PROTOCOL_JSON_WRITE_H
#include "../base/buf.h"

/** Appends s as a JSON string literal (json_string.c), quotes included; a byte that is not UTF-8
 *  is written as U+FFFD (for prose: messages and views, never a file's bytes). */
void ec_json_write_string(ec_buf *b, ec_str s);
/** Appends a file's bytes in the protocol's form: the string literal when they are UTF-8 without
 *  NUL, else {"base64": "..."} (docs/protocol.md, "Bytes"). */
void ec_json_write_bytes(ec_buf *b, ec_str s);
/** Appends a file's syntax report as a JSON object (json_syntax.c; docs/syntax.md). */
void ec_json_write_syntax(ec_buf *b, const ec_syntax_report *r);

#endif
