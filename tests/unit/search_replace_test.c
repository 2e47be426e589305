/* SEARCH/REPLACE dialects: helpers of parse/sr_blocks.h and whole requests in each profile. */
#include "parse/sr_blocks.h"
#include "editcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;
#define CHECK(cond, what)                                                         \
  do {                                                                            \
    if (cond) passed++;                                                           \
    else { failed++; fprintf(stderr, "FAIL %s:%d %s\n", __FILE__, __LINE__, what); } \
  } while (0)

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }
static bool eq(ec_str a, const char *b) { return a.len == strlen(b) && !memcmp(a.ptr, b, a.len); }

/* Runs one search_replace request on a single file named "file". */
static ec_result *run(const char *profile_name, const char *content, const char *text, bool is_final, const char *dialect) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_SEARCH_REPLACE);
  ec_profile_from_name(S(profile_name), &req.profile);
  static ec_file file;
  file.path = S("file");
  file.content = S(content);
  req.files = &file;
  req.n_files = 1;
  req.edit.text = S(text);
  req.edit.is_final = is_final;
  if (dialect) req.edit.dialect = S(dialect);
  return ec_apply(&req, NULL);
}

static bool content_is(ec_result *r, const char *want) {
  if (ec_result_status(r) == EC_STATUS_ERROR) return false;
  const ec_file_result *f = ec_result_file(r, 0);
  return f && eq(f->content, want);
}

static ec_error_code code_of(ec_result *r) {
  return ec_result_error_count(r) ? ec_result_error(r, 0)->code : EC_OK;
}

static void test_helpers(void) {
  CHECK(eq(ec_sr_trim(S("\xc2\xa0 x \t\xe3\x80\x80")), "x"), "JS trim folds NBSP and ideographic space");
  CHECK(eq(ec_sr_trim_end(S(" x \r")), " x"), "trimEnd");
  CHECK(ec_sr_is_search_start(S("------- SEARCH")) && ec_sr_is_search_start(S("<<< SEARCH>")), "search markers");
  CHECK(!ec_sr_is_search_start(S("-------SEARCH")) && !ec_sr_is_search_start(S("-- SEARCH")), "near-miss search markers");
  CHECK(ec_sr_is_separator(S("===")) && !ec_sr_is_separator(S("======= ")), "separator");
  CHECK(ec_sr_is_replace_end(S(">>>>>>> REPLACE")) && !ec_sr_is_replace_end(S("+++++++ REPLACE x")), "replace markers");
}

static void test_cline(void) {
  ec_result *r = run("cline", "a\n  b  \nc", "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE", true, NULL);
  CHECK(content_is(r, "a\nB\nc"), "cline line-trimmed fallback");
  ec_result_free(r);
  r = run("cline", "one\ntwo\nthree\n", "------- SEARCH\nthree\n=======\n3\n+++++++ REPLACE\n------- SEARCH\none\n=======\n1\n+++++++ REPLACE", true, NULL);
  CHECK(content_is(r, "1\ntwo\n3\n"), "cline v1 out-of-order blocks");
  ec_result_free(r);
  r = run("cline", "x\ny\nz\n", "------- SEARCH\ny\n=======\nY\n+++", false, NULL);
  CHECK(ec_result_status(r) == EC_STATUS_PARTIAL && content_is(r, "x\nY\n"), "cline streaming preview drops a partial marker");
  ec_result_free(r);
  r = run("cline", "x\n", "------- SEARCH\nq\n=======\nY\n+++++++ REPLACE", true, NULL);
  CHECK(code_of(r) == EC_NO_MATCH && ec_result_error(r, 0)->block == 1, "cline no match names block 1");
  ec_result_free(r);
}

static void test_editcore(void) {
  ec_result *r = run("editcore", "a\nb\na\n", "------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n", true, NULL);
  CHECK(code_of(r) == EC_AMBIGUOUS, "editcore refuses an ambiguous block");
  ec_result_free(r);
  r = run("editcore", "a\nb\nc\n", "<<<<<<< SEARCH\nc\n=======\nC\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nnope\n=======\nN\n>>>>>>> REPLACE\n", true, NULL);
  CHECK(code_of(r) == EC_NO_MATCH && ec_result_error(r, 0)->block == 2 && ec_result_file_count(r) == 0,
        "editcore is all-or-nothing and names block 2");
  ec_result_free(r);
  r = run("editcore", "a\n", "-------SEARCH\na\n=======\nb\n+++++++ REPLACE\n", true, NULL);
  CHECK(code_of(r) == EC_MALFORMED_EDIT && ec_result_error(r, 0)->line == 1, "near-miss marker is MALFORMED_EDIT at line 1");
  ec_result_free(r);
}

static void test_roo(void) {
  ec_result *r = run("roo", "function f() {\n\treturn 1\n}\n",
                     "<<<<<<< SEARCH\n:start_line:2\n-------\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE", true, NULL);
  CHECK(content_is(r, "function f() {\n\treturn 2\n}\n"), "roo re-indents from the matched line");
  ec_result_free(r);
  r = run("roo", "a\nb\n", "<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nzz\n=======\nZ\n>>>>>>> REPLACE", true, NULL);
  CHECK(ec_result_status(r) == EC_STATUS_PARTIAL && content_is(r, "a\nB\n") && code_of(r) == EC_NO_MATCH,
        "roo applies the blocks that match and reports the rest");
  ec_result_free(r);
  r = run("roo", "a\n", "<<<<<<< SEARCH\na\n=======\nb\n", true, NULL);
  CHECK(code_of(r) == EC_MALFORMED_EDIT, "roo pre-validation");
  ec_result_free(r);
}

/* Large inputs stay fast: line-trimmed matching on a big file, bounded fuzzy work. */
static void test_bounds(void) {
  size_t n = 200000;
  char *big = malloc(n * 8 + 64);
  size_t len = 0;
  for (size_t i = 0; i < n; i++) len += (size_t)sprintf(big + len, "  x%zu\n", i % 7);
  strcpy(big + len, "  tail\n");
  ec_result *r = run("cline", big, "------- SEARCH\ntail\n=======\nend\n+++++++ REPLACE", true, NULL);
  CHECK(ec_result_status(r) == EC_STATUS_SUCCESS, "cline line-trimmed on 200k lines");
  ec_result_free(r);
  r = run("roo", big, "<<<<<<< SEARCH\nno such line here\nnor this one\n=======\nB\n>>>>>>> REPLACE", true, NULL);
  CHECK(code_of(r) == EC_NO_MATCH || code_of(r) == EC_TOO_LARGE, "roo scan of 200k lines ends with NO_MATCH or TOO_LARGE");
  ec_result_free(r);
  free(big);
}

int main(void) {
  test_helpers();
  test_cline();
  test_editcore();
  test_roo();
  test_bounds();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
