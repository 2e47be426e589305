/*
 * options.expected_hash (engine/lock.c) through the typed API: which errors a request gets, in
 * which order, with which paths — what a conformance vector, which looks for any matching error,
 * cannot pin down.
 */
#include "test_util.h"
#include "editcore.h"
#include "base/sha256.h"

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }

static ec_result *run(ec_file *hashes, size_t n_hashes) {
  static ec_file files[2];
  files[0] = (ec_file){S("a.py"), S("x = 1\n")};
  files[1] = (ec_file){S("b.py"), S("y = 2\n")};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = files;
  req.n_files = 2;
  req.edit.path = S("a.py");
  req.edit.old_string = S("x = 1");
  req.edit.new_string = S("x = 2");
  req.edit.has_old_string = req.edit.has_new_string = true;
  req.options.expected_hash = hashes;
  req.options.n_expected_hash = n_hashes;
  return ec_apply(&req, NULL);
}

int main(void) {
  char a_hash[65], b_hash[65], stale[65];
  ec_sha256_hex("x = 1\n", 6, a_hash);
  ec_sha256_hex("y = 2\n", 6, b_hash);
  ec_sha256_hex("x = 0\n", 6, stale);

  /* both match: applied */
  ec_file ok[2] = {{S("a.py"), S(a_hash)}, {S("b.py"), S(b_hash)}};
  ec_result *r = run(ok, 2);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_error_count(r) == 0);
  ec_result_free(r);

  /* a stale hash and a malformed one: the parameter error alone, no CONFLICT before it */
  ec_file bad[2] = {{S("a.py"), S(stale)}, {S("b.py"), S("not-a-hash")}};
  r = run(bad, 2);
  CHECK_MSG(r && ec_result_error_count(r) == 1 && ec_result_error(r, 0)->code == EC_INVALID_PARAM, "%zu errors, first %s",
            r ? ec_result_error_count(r) : 0, r && ec_result_error_count(r) ? ec_error_code_name(ec_result_error(r, 0)->code) : "-");
  ec_result_free(r);

  /* two stale files: one CONFLICT each, in request order, each with its path; nothing applied */
  ec_file two[2] = {{S("a.py"), S(stale)}, {S("b.py"), S(stale)}};
  r = run(two, 2);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error_count(r) == 2);
  if (r && ec_result_error_count(r) == 2) {
    const ec_error *e0 = ec_result_error(r, 0), *e1 = ec_result_error(r, 1);
    CHECK(e0->code == EC_CONFLICT && e0->path.len == 4 && !memcmp(e0->path.ptr, "a.py", 4));
    CHECK(e1->code == EC_CONFLICT && e1->path.len == 4 && !memcmp(e1->path.ptr, "b.py", 4));
  }
  CHECK(r && ec_result_file_count(r) == 0);
  ec_result_free(r);
  TEST_MAIN_END();
}
