/* ec_result -> JSON response text (SPEC §1), written by hand so every build prints the same bytes. */
#ifndef EC_PROTOCOL_JSON_RESPONSE_H
#define EC_PROTOCOL_JSON_RESPONSE_H
#include "../base/buf.h"

void ec_json_write_result(ec_buf *b, const ec_result *r);
/** ec_json_write_result, or (splices) each file's content left out and its splices given instead
 *  (ec_result_to_json_splices). */
void ec_json_write_result_as(ec_buf *b, const ec_result *r, bool splices);
/** Appends s as a JSON string literal, quotes included; a byte that is not UTF-8 is written as
 *  U+FFFD (for prose: messages and views, never a file's bytes). */
void ec_json_write_string(ec_buf *b, ec_str s);
/** Appends a file's bytes in the protocol's form: the string literal when they are UTF-8 without
 *  NUL, else {"base64": "..."} (docs/protocol.md, "Bytes"). */
void ec_json_write_bytes(ec_buf *b, ec_str s);
/** Appends a file's syntax report as a JSON object (json_syntax.c; docs/syntax.md). */
void ec_json_write_syntax(ec_buf *b, const ec_syntax_report *r);

#endif
