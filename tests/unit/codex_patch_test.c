/*
 * Unit tests for parse/codex_patch_parse (both modes: Codex's exact grammar and messages,
 * editcore's leniencies) and parse/codex_seek (levels, order, EOF anchoring, budget).
 */
#include "test_util.h"
#include "parse/codex_patch_parse.h"
#include "parse/codex_seek.h"
#include "editcore.h"
#include <stdio.h>
#include <string.h>



static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }
static bool EQ(ec_str a, const char *b) { return a.len == strlen(b) && memcmp(a.ptr, b, a.len) == 0; }
static bool HAS(ec_str a, const char *b) {
  size_t n = strlen(b);
  for (size_t i = 0; i + n <= a.len; i++)
    if (memcmp(a.ptr + i, b, n) == 0) return true;
  return false;
}

static ec_error_code parse(ec_arena *a, const char *text, bool editcore, ec_cp_patch *p, ec_cp_parse_error *e) {
  return ec_cp_parse(a, S(text), editcore, p, e);
}

static void test_grammar(ec_arena *a) {
  ec_cp_patch p;
  ec_cp_parse_error e;
  const char *t = "*** Begin Patch\n*** Add File: path/add.py\n+abc\n+def\n*** Delete File: path/delete.py\n"
                  "*** Update File: path/update.py\n*** Move to: path/update2.py\n@@ def f():\n-    pass\n+    return 123\n"
                  "*** End Patch";
  for (int mode = 0; mode < 2; mode++) {
    CHECK_MSG(parse(a, t, mode, &p, &e) == EC_OK, "mode %d: %.*s", mode, (int)e.message.len, e.message.ptr);
    CHECK_MSG(p.n_hunks == 3, "%zu", p.n_hunks);
    if (p.n_hunks != 3) continue;
    CHECK_MSG(p.hunks[0].op == EC_CP_ADD && EQ(p.hunks[0].path, "path/add.py") && EQ(p.hunks[0].content, "abc\ndef\n"), "add");
    CHECK_MSG(p.hunks[1].op == EC_CP_DELETE && EQ(p.hunks[1].path, "path/delete.py") && p.hunks[1].line == 5, "delete");
    const ec_cp_hunk *u = &p.hunks[2];
    CHECK_MSG(u->op == EC_CP_UPDATE && EQ(u->move_to, "path/update2.py") && u->n_chunks == 1, "update");
    CHECK_MSG(u->chunks[0].n_contexts == 1 && EQ(u->chunks[0].contexts[0], "def f():"), "context");
    CHECK_MSG(u->chunks[0].n_lines == 2 && u->chunks[0].lines[0].kind == '-' && EQ(u->chunks[0].lines[1].text, "    return 123"), "lines");
    CHECK_MSG(u->chunks[0].line == 8, "%u", u->chunks[0].line);
  }
  /* first chunk without @@, blank line = empty context line, End of File, CRLF patch */
  CHECK_MSG(parse(a, "*** Begin Patch\r\n*** Update File: f\r\n import foo\r\n\r\n+bar\r\n*** End of File\r\n*** End Patch\r\n", false, &p, &e) == EC_OK, "crlf");
  CHECK_MSG(p.n_hunks == 1 && p.hunks[0].n_chunks == 1 && p.hunks[0].chunks[0].n_lines == 3 && p.hunks[0].chunks[0].eof, "chunk shape");
  CHECK_MSG(p.hunks[0].chunks[0].lines[1].blank && p.hunks[0].chunks[0].lines[1].kind == ' ', "blank context");
  /* "@@ " with blanks = no context; context keeps leading blanks, loses trailing ones */
  CHECK_MSG(parse(a, "*** Begin Patch\n*** Update File: f\n@@   \n-a\n@@   b  \n-c\n*** End Patch", false, &p, &e) == EC_OK, "ctx");
  CHECK_MSG(p.hunks[0].chunks[0].n_contexts == 0 && EQ(p.hunks[0].chunks[1].contexts[0], "  b"), "ctx trim");
  /* padded markers and headers; heredoc */
  CHECK_MSG(parse(a, " *** Begin Patch \n  *** Update File: f\n@@\n-a\n+b\n *** End Patch ", false, &p, &e) == EC_OK, "padded");
  CHECK_MSG(parse(a, "<<'EOF'\n*** Begin Patch\n*** Delete File: f\n*** End Patch\nEOF\n", false, &p, &e) == EC_OK, "heredoc");
  CHECK_MSG(p.n_hunks == 1 && p.hunks[0].line == 3, "heredoc line %u", p.hunks[0].line);
  CHECK_MSG(parse(a, "*** Begin Patch\n*** End Patch", false, &p, &e) == EC_OK && p.n_hunks == 0, "empty patch");
}

static void test_codex_errors(ec_arena *a) {
  ec_cp_patch p;
  ec_cp_parse_error e;
  struct { const char *text, *msg; uint32_t line; } cases[] = {
      {"bad", "Invalid patch: The first line of the patch must be '*** Begin Patch'", 1},
      {"", "Invalid patch: The last line of the patch must be '*** End Patch'", 0},
      {"*** Begin Patch\nbad", "Invalid patch: The last line of the patch must be '*** End Patch'", 2},
      {"<<\"EOF'\n*** Begin Patch\n*** Delete File: f\n*** End Patch\nEOF", "The first line of the patch must be", 1},
      {"*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch",
       "Invalid patch hunk on line 2: '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: "
       "'*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", 2},
      {"*** Begin Patch\n*** Update File: test.py\n*** End Patch", "Invalid patch hunk on line 2: Update file hunk for path 'test.py' is empty", 2},
      {"*** Begin Patch\n*** Update File: f\n@@\nbad\n*** End Patch",
       "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'bad'. Every line should start with ' ' (context line), "
       "'+' (added line), or '-' (removed line)", 4},
      {"*** Begin Patch\n*** Update File: f\nbad\n*** End Patch", "Invalid patch hunk on line 4: Unexpected line found in update hunk: 'bad'", 3},
      {"*** Begin Patch\n*** Update File: f\n@@\n*** End of File\n*** End Patch", "Invalid patch hunk on line 4: Update hunk does not contain any lines", 4},
      {"*** Begin Patch\n*** Update File: f\n-y\n+Y\n@@\n*** End Patch", "Invalid patch hunk on line 6: Update hunk does not contain any lines", 5},
      {"*** Begin Patch\n*** Update File: f\n@@ a\n@@ b\n-x\n*** End Patch", "on line 4: Unexpected line found in update hunk: '@@ b'", 4},
      {"*** Begin Patch\n*** Update File: f\n-a\n*** End of File\nx\n*** End Patch",
       "Invalid patch hunk on line 5: Expected update hunk to start with a @@ context marker, got: 'x'", 5},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    ec_error_code rc = parse(a, cases[i].text, false, &p, &e);
    CHECK_MSG(rc == EC_MALFORMED_EDIT, "case %zu: rc %d", i, (int)rc);
    CHECK_MSG(HAS(e.message, cases[i].msg), "case %zu: got '%.*s'", i, (int)e.message.len, e.message.ptr);
    CHECK_MSG(e.line == cases[i].line, "case %zu: line %u", i, e.line);
  }
}

static void test_editcore_mode(ec_arena *a) {
  ec_cp_patch p;
  ec_cp_parse_error e;
  /* nested @@, unified header, blank lines between hunks, fence, indented Move to, \ No newline */
  const char *t = "```diff\n*** Begin Patch\n\n*** Update File: f\n   *** Move to: g\n@@ class B:\n@@   def f():\n-x\n+y\n"
                  "\\ No newline at end of file\n@@ -10,2 +10,2 @@ def h():\n-z\n+Z\n\n*** Delete File: q\n*** End Patch\n```\n";
  CHECK_MSG(parse(a, t, true, &p, &e) == EC_OK, "%.*s", (int)e.message.len, e.message.ptr);
  CHECK_MSG(p.n_hunks == 2, "%zu", p.n_hunks);
  if (p.n_hunks == 2) {
    const ec_cp_hunk *u = &p.hunks[0];
    CHECK_MSG(EQ(u->move_to, "g") && u->n_chunks == 2 && u->line == 4, "update");
    CHECK_MSG(u->chunks[0].n_contexts == 2 && EQ(u->chunks[0].contexts[1], "  def f():") && u->chunks[0].n_lines == 2, "nested");
    CHECK_MSG(u->chunks[1].n_contexts == 1 && EQ(u->chunks[1].contexts[0], "def h():"), "unified header");
  }
  CHECK_MSG(parse(a, "*** Begin Patch\n*** Update File: f\n@@ -1,2 +1,2 @@\n-a\n+b\n*** End Patch", true, &p, &e) == EC_OK &&
            p.hunks[0].chunks[0].n_contexts == 0, "bare unified header");
  CHECK_MSG(parse(a, "apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: f\n*** End Patch\nPATCH", true, &p, &e) == EC_OK, "heredoc word");
  CHECK_MSG(parse(a, "*** Begin Patch\n*** Add File: n\n+1\n\n+3\n\n*** End Patch", true, &p, &e) == EC_OK && EQ(p.hunks[0].content, "1\n\n3\n"),
        "add with blank line");
  /* errors name the line of edit.text, counting lines before the trimmed patch */
  CHECK_MSG(parse(a, "\n\n*** Begin Patch\n*** Update File: f\n@@\n-a\n+b\n", true, &p, &e) == EC_MALFORMED_EDIT && e.line == 7 &&
            HAS(e.message, "line 7") && HAS(e.message, "'*** End Patch'"), "line %u %.*s", e.line, (int)e.message.len, e.message.ptr);
  CHECK_MSG(parse(a, "*** Begin Patch\n*** Update File:\n@@\n-a\n*** End Patch", true, &p, &e) == EC_MALFORMED_EDIT && HAS(e.message, "names no file"),
        "%.*s", (int)e.message.len, e.message.ptr);
  CHECK_MSG(parse(a, "*** Begin Patch\n+stray\n*** End Patch", true, &p, &e) == EC_MALFORMED_EDIT && HAS(e.message, "outside an Update File"),
        "%.*s", (int)e.message.len, e.message.ptr);
}

static void test_seek(ec_arena *a) {
  ec_str lines[] = {S("foo   "), S("  bar\t"), S("x \xE2\x80\x93 y"), S("foo"), S("bar"), S("\xC2\xA0q\xE3\x80\x80")};
  ec_seek_table t;
  ec_seek_init(&t, a, lines, 6, 0);
  ec_str pat[] = {S("foo"), S("bar")};
  size_t pos;
  ec_seek_level lv;
  CHECK_MSG(ec_seek_find(&t, pat, 2, 0, false, &pos, &lv) == EC_OK && pos == 3 && lv == EC_SEEK_EXACT, "exact later beats loose earlier %zu", pos);
  CHECK_MSG(ec_seek_find(&t, pat, 2, 0, false, &pos, &lv) == EC_OK && pos == 3, "again");
  ec_str pat2[] = {S("foo"), S("  bar")};
  CHECK_MSG(ec_seek_find(&t, pat2, 2, 0, false, &pos, &lv) == EC_OK && pos == 0 && lv == EC_SEEK_TRIM_END, "trim_end %zu %d", pos, (int)lv);
  ec_str pat3[] = {S("bar"), S("x - y")};
  CHECK_MSG(ec_seek_find(&t, pat3, 2, 0, false, &pos, &lv) == EC_OK && pos == 1 && lv == EC_SEEK_UNICODE, "unicode %zu %d", pos, (int)lv);
  ec_str pat4[] = {S("q")};
  CHECK_MSG(ec_seek_find(&t, pat4, 1, 0, false, &pos, &lv) == EC_OK && pos == 5 && lv == EC_SEEK_TRIM, "unicode trim %zu %d", pos, (int)lv);
  ec_str pat5[] = {S("foo")};
  CHECK_MSG(ec_seek_find(&t, pat5, 1, 1, false, &pos, &lv) == EC_OK && pos == 3, "forward from start");
  CHECK_MSG(ec_seek_find(&t, pat5, 1, 0, true, &pos, &lv) == EC_OK && pos == SIZE_MAX, "eof tries only the last line");
  ec_str pat6[] = {S("\xC2\xA0q\xE3\x80\x80")};
  CHECK_MSG(ec_seek_find(&t, pat6, 1, 0, true, &pos, &lv) == EC_OK && pos == 5, "eof last");
  ec_str big[7] = {S("a"), S("a"), S("a"), S("a"), S("a"), S("a"), S("a")};
  CHECK_MSG(ec_seek_find(&t, big, 7, 0, false, &pos, &lv) == EC_OK && pos == SIZE_MAX, "longer than file");
  size_t first, second;
  ec_str pat7[] = {S("foo")};
  CHECK_MSG(ec_seek_at_level(&t, pat7, 1, 0, false, EC_SEEK_TRIM_END, &first, &second) == EC_OK && first == 0 && second == 3, "second match");
  CHECK_MSG(ec_seek_line_eq(EC_SEEK_UNICODE, S("\xE2\x80\x9Chi\xE2\x80\x9D"), S("\"hi\"")), "quotes");
  CHECK_MSG(!ec_seek_line_eq(EC_SEEK_UNICODE, S("a\xE2\x80\xA6"), S("a...")), "ellipsis is not folded");
  CHECK_MSG(!ec_seek_line_eq(EC_SEEK_TRIM, S("a  b"), S("a b")), "inner whitespace counts");
  CHECK_MSG(EQ(ec_u8_trim(S("\xE2\x80\x81 x\xE2\x80\xA8")), "x"), "unicode trim");
  CHECK_MSG(EQ(ec_u8_trim(S("\xEF\xBB\xBFx")), "\xEF\xBB\xBFx"), "BOM is not whitespace");
  /* the budget stops a long scan */
  enum { N = 20000 };
  static ec_str many[N];
  for (size_t i = 0; i < N; i++) many[i] = S("x");
  ec_seek_table t2;
  ec_seek_init(&t2, a, many, N, 1000);
  ec_str pat8[] = {S("x"), S("y")};
  CHECK_MSG(ec_seek_find(&t2, pat8, 2, 0, false, &pos, &lv) == EC_TOO_LARGE, "budget");
  ec_seek_init(&t2, a, many, N, 0);
  CHECK_MSG(ec_seek_find(&t2, pat8, 2, 0, false, &pos, &lv) == EC_OK && pos == SIZE_MAX, "no budget: linear scan");
}

/* The Codex profile reads the file as UTF-8 (Rust's String): the first bad sequence is named by
 * its byte index, after ASCII runs long enough to be skipped a word at a time. */
static const char *codex_update(const char *content, size_t len, ec_error_code *code) {
  static char msg[512];
  ec_request req;
  ec_request_init(&req, EC_FORMAT_CODEX_PATCH);
  req.profile = EC_PROFILE_CODEX;
  ec_file f = {{"f", 1}, {content, len}};
  req.files = &f;
  req.n_files = 1;
  req.edit.text = S("*** Begin Patch\n*** Update File: f\n@@\n-abcdefghijklmnop\n+X\n*** End Patch\n");
  ec_result *r = ec_apply(&req, NULL);
  const ec_error *e = r ? ec_result_error(r, 0) : NULL;
  *code = e ? e->code : EC_OK;
  snprintf(msg, sizeof msg, "%.*s", e ? (int)e->message.len : 0, e ? e->message.ptr : "");
  ec_result_free(r);
  return msg;
}

static void test_codex_utf8(void) {
  ec_error_code code;
  const char *m = codex_update("abcdefghijklmnop\nrest of it \xFF\n", 30, &code);
  CHECK_MSG(code == EC_ENCODING && strstr(m, "invalid utf-8 sequence of 1 bytes from index 28"), "%d %s", code, m);
  m = codex_update("abcdefghijklmnop\n0123456789\xE2\x82", 29, &code);
  CHECK_MSG(code == EC_ENCODING && strstr(m, "incomplete utf-8 byte sequence from index 27"), "%d %s", code, m);
  m = codex_update("abcdefghijklmnop\n01234567\xED\xA0\x80\n", 29, &code);
  CHECK_MSG(code == EC_ENCODING && strstr(m, "invalid utf-8 sequence of 1 bytes from index 25"), "%d %s", code, m);
  m = codex_update("abcdefghijklmnop\ncaf\xC3\xA9 na\xC3\xAFve text\n", 35, &code);
  CHECK_MSG(code == EC_OK, "valid UTF-8 applies: %d %s", code, m);
}

int main(void) {
  ec_arena *a = ec_arena_new(NULL);
  test_codex_utf8();
  test_grammar(a);
  test_codex_errors(a);
  test_editcore_mode(a);
  test_seek(a);
  ec_arena_free(a);
  printf("%d passed, %d failed\n", tu_passed, tu_failed);
  return tu_failed ? 1 : 0;
}
