/* Unit tests for the unified-diff parser (parse/udiff_parse.c) and format (formats/unified_diff.c). */
#include "parse/udiff_parse.h"
#include "base/str.h"
#include "editcore.h"
#include <stdio.h>
#include <string.h>

static int passed, failed;
#define CHECK(cond)                                                          \
  do {                                                                       \
    if (cond) passed++;                                                      \
    else { failed++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
  } while (0)

static ec_error_code parse(ec_arena *a, const char *text, ec_ud_patch *p, ec_ud_error *e) {
  return ec_udiff_parse(a, ec_cstr(text), 10000, p, e);
}

static void test_headers(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_ud_patch p;
  ec_ud_error e;
  CHECK(parse(a, "diff --git a/x y.c b/x y.c\nindex 1..2 100644\n--- a/x y.c\t2024-01-01 00:00:00\n+++ b/x y.c 2024-01-01 00:00:01\n"
                 "@@ -1,2 +1,2 @@ func\n ctx\n-old\n+new\n", &p, &e) == EC_OK);
  CHECK(p.n_files == 1 && p.files[0].git);
  CHECK(ec_str_eq_cstr(p.files[0].old_path, "a/x y.c"));
  CHECK(ec_str_eq_cstr(p.files[0].new_path, "b/x y.c"));
  CHECK(p.files[0].n_hunks == 1);
  const ec_ud_hunk *h = &p.files[0].hunks[0];
  CHECK(h->has_numbers && h->old_start == 1 && h->old_count == 2 && h->new_start == 1 && h->new_count == 2);
  CHECK(h->n_context == 1 && h->n_remove == 1 && h->n_add == 1 && h->line == 5);
  CHECK(ec_str_eq_cstr(h->lines[1].text, "old") && h->lines[1].kind == '-');

  CHECK(parse(a, "--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n\\ No newline at end of file\n", &p, &e) == EC_OK);
  CHECK(p.files[0].old_null && !p.files[0].new_null && p.files[0].hunks[0].new_no_eol && !p.files[0].hunks[0].old_no_eol);
  CHECK(p.files[0].hunks[0].has_numbers && p.files[0].hunks[0].new_count == 1);

  CHECK(parse(a, "--- \"a/t\\303\\251.txt\"\n+++ \"b/t\\303\\251.txt\"\n@@\n-a\n+b\n", &p, &e) == EC_OK);
  CHECK(ec_str_eq_cstr(p.files[0].new_path, "b/t\xc3\xa9.txt"));
  ec_arena_free(a);
}

static void test_hunk_headers(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_ud_patch p;
  ec_ud_error e;
  const char *variants[] = {"@@ ... @@\n", "@@ @@\n", "@@\n", "@@ -x,y +z @@\n"};
  for (size_t i = 0; i < 4; i++) {
    char buf[128];
    snprintf(buf, sizeof buf, "--- f\n+++ f\n%s-a\n+b\n", variants[i]);
    CHECK(parse(a, buf, &p, &e) == EC_OK);
    CHECK(p.n_hunks == 1 && !p.files[0].hunks[0].has_numbers && p.files[0].hunks[0].n_lines == 2);
  }
  /* Two hunks, wrong counts: each runs to the next @@. */
  CHECK(parse(a, "--- f\n+++ f\n@@ -1,1 +1,1 @@\n a\n-b\n+c\n d\n@@ -9,9 +9,9 @@\n-e\n+f\n", &p, &e) == EC_OK);
  CHECK(p.n_hunks == 2 && p.files[0].hunks[0].n_lines == 4 && p.files[0].hunks[1].n_lines == 2);
  ec_arena_free(a);
}

static void test_blank_lines(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_ud_patch p;
  ec_ud_error e;
  /* A blank line inside is context; blank lines at the end go unless the counts need them. */
  CHECK(parse(a, "--- f\n+++ f\n@@ ... @@\n a\n\n-b\n+c\n\n\n--- g\n+++ g\n@@\n-x\n+y\n", &p, &e) == EC_OK);
  CHECK(p.n_files == 2 && p.files[0].hunks[0].n_lines == 4 && p.files[0].hunks[0].lines[1].text.len == 0);
  CHECK(parse(a, "--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n\n", &p, &e) == EC_OK);
  CHECK(p.files[0].hunks[0].n_lines == 4);
  ec_arena_free(a);
}

static void test_malformed(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_ud_patch p;
  ec_ud_error e;
  CHECK(parse(a, "just words\n", &p, &e) == EC_MALFORMED_EDIT);
  CHECK(parse(a, "--- f\n+++ f\n@@\n a\nb\n-c\n+d\n", &p, &e) == EC_MALFORMED_EDIT && e.line == 5);
  CHECK(parse(a, "--- f\n+++ f\n@@\n a\n b\n", &p, &e) == EC_MALFORMED_EDIT && e.line == 3);
  CHECK(parse(a, "--- f\n+++ f\n@@\n\\ No newline at end of file\n", &p, &e) == EC_MALFORMED_EDIT && e.line == 4);
  /* prose after a hunk is fine */
  CHECK(parse(a, "--- f\n+++ f\n@@\n-a\n+b\nThat is all.\n", &p, &e) == EC_OK && p.files[0].hunks[0].n_lines == 2);
  CHECK(ec_udiff_parse(a, ec_cstr("@@\n-a\n+b\n@@\n-c\n+d\n"), 1, &p, &e) == EC_TOO_LARGE);
  ec_arena_free(a);
}

/* Runs a one-file request through the engine; returns the status and the new content. */
static ec_status run(const char *path, const char *content, const char *diff, ec_str *out, ec_error_code *code) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_UNIFIED_DIFF);
  ec_file f = {ec_cstr(path), ec_cstr(content)};
  req.files = &f;
  req.n_files = 1;
  req.edit.text = ec_cstr(diff);
  ec_result *r = ec_apply(&req, NULL);
  ec_status s = ec_result_status(r);
  static char buf[4096];
  out->ptr = NULL;
  out->len = 0;
  *code = ec_result_error_count(r) ? ec_result_error(r, 0)->code : EC_OK;
  if (ec_result_file_count(r)) {
    const ec_file_result *fr = ec_result_file(r, 0);
    size_t n = fr->content.len < sizeof buf ? fr->content.len : sizeof buf - 1;
    if (n) memcpy(buf, fr->content.ptr, n);
    buf[n] = 0;
    out->ptr = buf;
    out->len = n;
  }
  ec_result_free(r);
  return s;
}

static void test_apply(void) {
  ec_str out;
  ec_error_code c;
  CHECK(run("f", "a\r\nb\r\nc\r\n", "--- a/f\n+++ b/f\n@@ -9 +9 @@\n a\n-b\n+B\n", &out, &c) == EC_STATUS_SUCCESS);
  CHECK(ec_str_eq_cstr(out, "a\r\nB\r\nc\r\n"));
  CHECK(run("f", "x\ny\nx\n", "@@\n-x\n+z\n", &out, &c) == EC_STATUS_ERROR && c == EC_AMBIGUOUS);
  CHECK(run("f", "x\ny\nx\n", "@@ -3 +3 @@\n-x\n+z\n", &out, &c) == EC_STATUS_SUCCESS && ec_str_eq_cstr(out, "x\ny\nz\n"));
  /* mid-line text is no match: hunks match whole lines */
  CHECK(run("f", "ab\n", "@@\n-b\n+c\n", &out, &c) == EC_STATUS_ERROR && c == EC_NO_MATCH);
  CHECK(run("f", "a\nb", "@@\n a\n-b\n+c\n", &out, &c) == EC_STATUS_SUCCESS && ec_str_eq_cstr(out, "a\nc"));
  CHECK(run("f", "a\nc\n", "@@\n a\n-b\n+c\n", &out, &c) == EC_STATUS_ERROR && c == EC_NOOP);
}

int main(void) {
  test_headers();
  test_hunk_headers();
  test_blank_lines();
  test_malformed();
  test_apply();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
