/*
 * Shared by the libFuzzer harnesses. An input is split into fields at 0xFF bytes (never valid
 * UTF-8, so real text rarely holds one): e.g. "<selector><file>\xFF<edit text>".
 * Every harness checks the engine's invariants, aborting (a finding) when one breaks.
 */
#ifndef EDITCORE_FUZZ_COMMON_H
#define EDITCORE_FUZZ_COMMON_H
#include "editcore.h"
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, what)                                                  \
  do {                                                                          \
    if (!(cond)) {                                                              \
      fprintf(stderr, "invariant broken: %s (%s:%d)\n", what, __FILE__, __LINE__); \
      abort();                                                                  \
    }                                                                           \
  } while (0)

/* Returns the i-th 0xFF-separated field of data (empty when absent). */
static inline ec_str fuzz_field(const uint8_t *data, size_t size, int i) {
  const char *p = (const char *)data, *end = p + size;
  for (; i > 0 && p < end; i--) {
    const char *sep = memchr(p, 0xFF, (size_t)(end - p));
    if (!sep) { ec_str none = {"", 0}; return none; }
    p = sep + 1;
  }
  const char *sep = memchr(p, 0xFF, (size_t)(end - p));
  ec_str s = {p, sep ? (size_t)(sep - p) : (size_t)(end - p)};
  return s;
}

/* What every result must satisfy, whatever the input. */
static inline void fuzz_check_result(const ec_result *r, const ec_request *req) {
  FUZZ_CHECK(r != NULL, "ec_apply returned NULL");
  ec_status st = ec_result_status(r);
  if (st == EC_STATUS_ERROR) {
    FUZZ_CHECK(ec_result_error_count(r) >= 1, "an error result names its error");
    if (req->profile == EC_PROFILE_EDITCORE) FUZZ_CHECK(ec_result_file_count(r) == 0, "a failed editcore request changes no file");
  }
  for (size_t i = 0; i < ec_result_file_count(r); i++) {
    const ec_file_result *f = ec_result_file(r, i);
    FUZZ_CHECK(f->path.ptr != NULL, "file results have a path");
    FUZZ_CHECK(f->has_content == (f->action != EC_ACTION_DELETE), "only deleted files have no content");
    /* (UTF-16 holds NULs: a file with a UTF-16 BOM is written back in UTF-16) */
    bool utf16 = f->content.len >= 2 && ((f->content.ptr[0] == '\xFF' && f->content.ptr[1] == '\xFE') ||
                                         (f->content.ptr[0] == '\xFE' && f->content.ptr[1] == '\xFF'));
    if (f->has_content && !utf16) FUZZ_CHECK(!memchr(f->content.ptr, 0, f->content.len), "no NUL in written content");
  }
  size_t n = 0;
  char *json = ec_result_to_json(r, NULL, &n);
  FUZZ_CHECK(json != NULL, "the response serialises");
  cJSON *parsed = cJSON_ParseWithLength(json, n);
  FUZZ_CHECK(parsed != NULL, "the response is valid JSON");
  cJSON_Delete(parsed);
  ec_free(NULL, json);
}

/* Small limits keep each run fast while still exercising the limit paths. */
static inline void fuzz_limits(ec_request *req) {
  req->options.limits.max_input_bytes = 1 << 20;
  req->options.limits.max_blocks = 200;
  req->options.limits.fuzzy_work = 2000000;
  req->options.limits.diff_work = 2000000;
  req->options.limits.regex_match_limit = 100000;
}

#endif
