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

/** What a request asks beyond ec_apply: the self-correction steps (docs/correction.md). */
typedef enum ec_json_kind { EC_JSON_APPLY, EC_JSON_CORRECTION_PROMPT, EC_JSON_CORRECTION_APPLY } ec_json_kind;
typedef struct ec_json_extras {
  ec_json_kind kind;
  ec_correction correction; /* for the correction kinds; *req is then the failed request */
} ec_json_extras;

/** ec_json_parse_request that also reads the correction formats into *extras. */
ec_error_code ec_json_parse_request_ex(ec_arena *a, const char *json, size_t len, ec_request *req, ec_json_extras *extras,
                                       ec_str *message);

#endif
