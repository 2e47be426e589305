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

/* options.content_as_splices answers as the usual mode does: the same status and files, the
 * same splices form of the response byte for byte, and each content is the given bytes with the
 * splices' new bytes (ec_result_splice_text) — whether the engine built it or left it unbuilt. */
static inline void fuzz_check_splices_mode(ec_request *req, const ec_result *usual) {
  bool was = req->options.content_as_splices;
  req->options.content_as_splices = true;
  ec_result *r = ec_apply(req, NULL);
  req->options.content_as_splices = was;
  FUZZ_CHECK(r != NULL, "ec_apply returned NULL (content as splices)");
  size_t n1 = 0, n2 = 0;
  char *j1 = ec_result_to_json_splices(usual, NULL, &n1), *j2 = ec_result_to_json_splices(r, NULL, &n2);
  FUZZ_CHECK(j1 && j2, "the splices form serialises");
  /* time_ms differs between runs: compare up to the stats */
  char *s1 = strstr(j1, ",\"stats\":"), *s2 = strstr(j2, ",\"stats\":");
  size_t c1 = s1 ? (size_t)(s1 - j1) : n1, c2 = s2 ? (size_t)(s2 - j2) : n2;
  FUZZ_CHECK(c1 == c2 && !memcmp(j1, j2, c1), "content as splices gives the same answer");
  FUZZ_CHECK(ec_result_file_count(r) == ec_result_file_count(usual), "the same files");
  for (size_t i = 0; i < ec_result_file_count(r); i++) {
    const ec_file_result *u = ec_result_file(usual, i), *g = ec_result_file(r, i);
    if (!u->has_content) continue;
    FUZZ_CHECK(g->content.len == u->content.len, "the same content length");
    const ec_str *orig = NULL;
    for (size_t k = 0; k < req->n_files && !orig; k++)
      if (req->files[k].path.len == u->path.len && !memcmp(req->files[k].path.ptr, u->path.ptr, u->path.len)) orig = &req->files[k].content;
    if (!orig || u->action == EC_ACTION_ADD || u->action == EC_ACTION_MOVE) { FUZZ_CHECK(g->content.ptr, "a new file's content is built"); continue; }
    size_t r0 = 0, w = 0;
    for (size_t k = 0; k < g->n_splices; k++) {
      const ec_file_splice *sp = &g->splices[k];
      FUZZ_CHECK(sp->old_start >= r0 && sp->old_end <= orig->len && sp->new_start == w + (sp->old_start - r0), "splices in order");
      FUZZ_CHECK(!memcmp(orig->ptr + r0, u->content.ptr + w, sp->old_start - r0), "unchanged bytes between splices");
      w += sp->old_start - r0;
      ec_str t = ec_result_splice_text(r, i, k);
      FUZZ_CHECK(t.len == sp->new_end - sp->new_start && (!t.len || !memcmp(t.ptr, u->content.ptr + w, t.len)), "a splice's new bytes");
      w += t.len;
      r0 = sp->old_end;
    }
    FUZZ_CHECK(w + (orig->len - r0) == u->content.len && !memcmp(orig->ptr + r0, u->content.ptr + w, orig->len - r0), "the tail");
  }
  ec_free(NULL, j1);
  ec_free(NULL, j2);
  ec_result_free(r);
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
