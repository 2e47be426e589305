/*
 * Unified diffs with many hunks (formats/unified_diff.c): hunks are located through a line index
 * and applied as one batch, so a diff with thousands of hunks against a large file must succeed
 * (the old per-hunk whole-file search ran out of its work budget, TOO_LARGE), and the in-order
 * semantics must hold: each hunk in the text its predecessors produced, ambiguity and the stated
 * line judged in the file's own numbering, unchanged lines keeping their own line endings.
 */
#include "test_util.h"
#include "base/str.h"
#include "editcore.h"
#include <stdlib.h>

typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}
static void sb_cstr(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

typedef struct outcome {
  ec_status status;
  ec_error_code code;
  char *content;           /* malloc'd copy */
  size_t content_len;
  size_t n_matches;
  uint32_t *match_line;    /* start_line of each match */
  char *message;
} outcome;

static outcome run(const char *content, size_t content_len, const char *diff, size_t diff_len) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_UNIFIED_DIFF);
  ec_file f = {ec_cstr("f.txt"), {content, content_len}};
  req.files = &f;
  req.n_files = 1;
  req.edit.text = (ec_str){diff, diff_len};
  ec_result *r = ec_apply(&req, NULL);
  outcome o;
  memset(&o, 0, sizeof o);
  o.status = ec_result_status(r);
  if (ec_result_error_count(r)) {
    const ec_error *e = ec_result_error(r, 0);
    o.code = e->code;
    o.message = calloc(1, e->message.len + 1);
    if (e->message.len) memcpy(o.message, e->message.ptr, e->message.len);
  }
  if (ec_result_file_count(r)) {
    const ec_file_result *fr = ec_result_file(r, 0);
    o.content = malloc(fr->content.len + 1);
    if (fr->content.len) memcpy(o.content, fr->content.ptr, fr->content.len);
    o.content[fr->content.len] = 0;
    o.content_len = fr->content.len;
    o.n_matches = fr->n_matches;
    o.match_line = calloc(fr->n_matches + 1, sizeof *o.match_line);
    for (size_t i = 0; i < fr->n_matches; i++) o.match_line[i] = fr->matches[i].start_line;
  }
  ec_result_free(r);
  return o;
}

static outcome run_c(const char *content, const char *diff) { return run(content, strlen(content), diff, strlen(diff)); }

static void done(outcome *o) {
  free(o->content);
  free(o->match_line);
  free(o->message);
}

static bool content_is(const outcome *o, const char *want) {
  return o->content && o->content_len == strlen(want) && !memcmp(o->content, want, o->content_len);
}

/* Line i of the generated file: mostly distinct, with a brace and a blank line repeating often. */
static void gen_line(char *buf, size_t cap, size_t i, bool changed) {
  if (i % 5 == 4) snprintf(buf, cap, "}");
  else if (i % 7 == 6) buf[0] = 0;
  else snprintf(buf, cap, "%s  value_%zu = compute(%zu);", changed ? "CHANGED" : "", i, i % 97);
}

/*
 * n_lines lines, a hunk (3 lines of context each side, one line changed) every `every` lines; the
 * hunks in order or reversed; the file with or without its final newline.
 */
static void many_hunks(size_t n_lines, size_t every, bool reversed, bool final_eol) {
  sbuf file = {0}, want = {0}, diff = {0};
  char line[128];
  size_t n_hunks = 0;
  for (size_t i = 0; i < n_lines; i++) {
    bool changed = i % every == every / 2 && i >= 3 && i + 3 < n_lines && i % 5 != 4 && i % 7 != 6;
    gen_line(line, sizeof line, i, false);
    sb_cstr(&file, line);
    gen_line(line, sizeof line, i, changed);
    sb_cstr(&want, line);
    if (i + 1 < n_lines || final_eol) { sb_cstr(&file, "\n"); sb_cstr(&want, "\n"); }
    n_hunks += changed;
  }
  size_t *sites = calloc(n_hunks + 1, sizeof *sites), k = 0;
  for (size_t i = 0; i < n_lines; i++)
    if (i % every == every / 2 && i >= 3 && i + 3 < n_lines && i % 5 != 4 && i % 7 != 6) sites[k++] = i;
  sb_cstr(&diff, "--- a/f.txt\n+++ b/f.txt\n");
  for (size_t j = 0; j < n_hunks; j++) {
    size_t s = sites[reversed ? n_hunks - 1 - j : j];
    snprintf(line, sizeof line, "@@ -%zu,7 +%zu,7 @@\n", s - 2, s - 2);
    sb_cstr(&diff, line);
    for (size_t i = s - 3; i <= s + 3; i++) {
      gen_line(line, sizeof line, i, false);
      sb_cstr(&diff, i == s ? "-" : " ");
      sb_cstr(&diff, line);
      sb_cstr(&diff, "\n");
      if (i == s) {
        gen_line(line, sizeof line, i, true);
        sb_cstr(&diff, "+");
        sb_cstr(&diff, line);
        sb_cstr(&diff, "\n");
      }
    }
  }
  outcome o = run(file.p, file.n, diff.p, diff.n);
  CHECK(o.status != EC_STATUS_ERROR); /* PARTIAL when the result's diff is truncated */
  if (o.status == EC_STATUS_ERROR) fprintf(stderr, "  %zu lines, %zu hunks: status %d code %d %s\n", n_lines, n_hunks, (int)o.status, (int)o.code, o.message ? o.message : "");
  CHECK(o.content && o.content_len == want.n && !memcmp(o.content, want.p, want.n));
  CHECK(o.n_matches == n_hunks);
  bool lines_ok = o.n_matches == n_hunks;
  for (size_t j = 0; lines_ok && j < n_hunks; j++) lines_ok = o.match_line[j] == sites[reversed ? n_hunks - 1 - j : j] - 2;
  CHECK(lines_ok);
  done(&o);
  free(sites);
  free(file.p);
  free(want.p);
  free(diff.p);
}

static void test_many_hunks(void) {
  /* ~2.3 MB and 5,000 hunks: searching the whole file per hunk would scan ~11 GB (budget 1 GiB). */
  many_hunks(100000, 20, false, true);
  many_hunks(100000, 20, true, true);
  many_hunks(3000, 10, false, false);
  many_hunks(3000, 10, true, false);
}

static void test_sequence(void) {
  /* The second hunk's context holds a line the first added. */
  outcome o = run_c("1\n2\n3\n4\n5\n", "@@ -1,3 +1,4 @@\n 1\n 2\n+2.5\n 3\n@@ -3,2 +4,2 @@\n 2.5\n 3\n-4\n+FOUR\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "1\n2\n2.5\n3\nFOUR\n5\n"));
  CHECK(o.n_matches == 2 && o.match_line[0] == 1 && o.match_line[1] == 3);
  done(&o);
  /* A hunk that only fits across what the one before wrote. */
  o = run_c("a\nb\nc\nd\ne\n", "@@\n a\n-b\n+B\n+X\n c\n@@\n B\n X\n c\n-d\n+D\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "a\nB\nX\nc\nD\ne\n"));
  done(&o);
  /* Line numbers stay the file's own after a deletion above. */
  o = run_c("b\nb\nL3\nL4\n", "@@\n-b\n b\n@@\n-b\n L3\n@@\n-L4\n+L4!\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "L3\nL4!\n"));
  CHECK(o.n_matches == 3 && o.match_line[2] == 4);
  done(&o);
  /* The first copy of a block no longer fits once an earlier hunk changed it: the second one does. */
  o = run_c("A\nB\nC\nD\nx\ny\nA\nB\nC\nD\n", "@@ -2,3 +2,3 @@\n B\n-C\n+C1\n D\n@@\n A\n B\n C\n-D\n+D2\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "A\nB\nC1\nD\nx\ny\nA\nB\nC\nD2\n"));
  done(&o);
  /* Hunks out of order. */
  o = run_c("p\nq\nr\ns\nt\nu\n", "@@\n t\n-u\n+U\n@@\n-p\n+P\n q\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "P\nq\nr\ns\nt\nU\n"));
  done(&o);
}

static void test_ambiguity(void) {
  /* Two places; the header names the second in the file's own numbering although a hunk above
   * added two lines. */
  const char *file = "head\nx\ny\nx\nz\n";
  outcome o = run_c(file, "@@ -1 +1,3 @@\n head\n+n1\n+n2\n@@ -4 +6 @@\n-x\n+w\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "head\nn1\nn2\nx\ny\nw\nz\n"));
  CHECK(o.n_matches == 2 && o.match_line[1] == 4);
  done(&o);
  o = run_c(file, "@@ -1 +1,3 @@\n head\n+n1\n+n2\n@@ -6 +6 @@\n-x\n+w\n");
  CHECK(o.status == EC_STATUS_ERROR && o.code == EC_AMBIGUOUS);
  CHECK(o.message && strstr(o.message, "lines 2, 4"));
  done(&o);
  /* A second place that only exists in the text an earlier hunk wrote still makes it ambiguous. */
  o = run_c("k\nm\nq\n", "@@\n k\n+m\n m\n@@\n-m\n+M\n");
  CHECK(o.status == EC_STATUS_ERROR && o.code == EC_AMBIGUOUS);
  done(&o);
}

static void test_endings_and_noop(void) {
  /* Unchanged lines between two hunks keep their own endings in a mixed file. */
  outcome o = run_c("a\r\nb\nc\r\nd\ne\r\nf\n", "@@\n a\n-b\n+B\n c\n@@\n d\n-e\n+E\n f\n");
  CHECK(o.status == EC_STATUS_SUCCESS);
  CHECK(o.content && !strncmp(o.content, "a\r\n", 3) && strstr(o.content, "\nc\r\nd\n"));
  done(&o);
  /* A hunk already applied after others that apply. */
  o = run_c("a\nb\nc\nd\n", "@@\n-a\n+A\n b\n@@\n c\n-x\n+d\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "A\nb\nc\nd\n"));
  done(&o);
  /* The last hunk sets the missing final newline. */
  o = run_c("a\nb\nc", "@@\n a\n-b\n+B\n@@\n-c\n\\ No newline at end of file\n+C\n");
  CHECK(o.status == EC_STATUS_SUCCESS && content_is(&o, "a\nB\nC\n"));
  done(&o);
}

int main(void) {
  test_many_hunks();
  test_sequence();
  test_ambiguity();
  test_endings_and_noop();
  TEST_MAIN_END();
}
