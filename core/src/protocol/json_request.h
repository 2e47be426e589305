/*
 * JSON request -> ec_request (SPEC §1). Strict: unknown fields and ill-typed values are
 * INVALID_PARAM with a message naming the field. Strings keep every byte, NUL included
 * (cJSON cannot hold "\u0000" in a C string, so such escapes travel through cJSON as a
 * private-use code point absent from the request and are turned back into NUL here).
 */
#ifndef EC_PROTOCOL_JSON_REQUEST_H
#define EC_PROTOCOL_JSON_REQUEST_H
#include "../base/arena.h"

/** Parses into *req, allocating in `a`. On failure returns the code and sets *message. */
ec_error_code ec_json_parse_request(ec_arena *a, const char *json, size_t len, ec_request *req, ec_str *message);

#endif
