/*
 * JSON request -> ec_request (SPEC §1). Strict: unknown fields and ill-typed values are
 * INVALID_PARAM with a message naming the field. Strings keep every byte, NUL included
 * (cJSON cannot hold "\u0000" in a C string, so such escapes travel through cJSON as a
 * private-use code point absent from the request and are turned back into NUL here).
 */
#ifndef EC_PROTOCOL_JSON_REQUEST_H
#define EC_PROTOCOL_JSON_REQUEST_H
#include "../base/arena.h"

struct cJSON;

/** Reads JSON text into a cJSON tree, keeping NUL bytes ("\u0000") in strings. */
typedef struct ec_json_reader {
  ec_arena *a;
  char sentinel[4];     /* UTF-8 of the code point standing for NUL; empty when none is needed */
  ec_str message;       /* why the last read failed */
  const ec_json_member *beside; /* edit strings given beside the request (ec_apply_json_beside) */
  size_t n_beside, beside_used;
  bool beside_in_place; /* EC_FILES_BESIDE_IN_PLACE: the beside values are used, not copied */
} ec_json_reader;

/** Parses the whole text (nothing may follow the value). NULL with p->message set on failure
 *  (message empty: out of memory). Free the tree with cJSON_Delete. */
struct cJSON *ec_json_read(ec_json_reader *p, const char *json, size_t len);
/** A string of the tree (key or value) as bytes in the reader's arena, NUL bytes restored. */
ec_str ec_json_reader_string(ec_json_reader *p, const char *cstr);
/** A value that carries a file's bytes (docs/protocol.md, "Bytes"): a string, or {"base64": "..."}.
 *  EC_INVALID_PARAM with p->message a phrase ("must be a string, or ...") when it is neither. */
ec_error_code ec_json_reader_bytes(ec_json_reader *p, const struct cJSON *it, ec_str *out);

/** Parses into *req, allocating in `a`. On failure returns the code and sets *message. */
ec_error_code ec_json_parse_request(ec_arena *a, const char *json, size_t len, ec_request *req, ec_str *message);

/** What a request asks beyond ec_apply: the self-correction steps (docs/correction.md). */
typedef enum ec_json_kind { EC_JSON_APPLY, EC_JSON_CORRECTION_PROMPT, EC_JSON_CORRECTION_APPLY } ec_json_kind;
typedef struct ec_json_extras {
  ec_json_kind kind;
  ec_correction correction; /* for the correction kinds; *req is then the failed request */
} ec_json_extras;

/** ec_json_parse_request that also reads the correction formats into *extras, and takes the
 *  edit strings `beside` (n of them) in place of the "" the JSON carries for them (copied, or with
 *  `in_place` used where they are: EC_FILES_BESIDE_IN_PLACE). */
ec_error_code ec_json_parse_request_ex(ec_arena *a, const char *json, size_t len, const ec_json_member *beside, size_t n,
                                       bool in_place,
                                       ec_request *req, ec_json_extras *extras, ec_str *message);

#endif
