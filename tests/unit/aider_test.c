/* Unit tests of the aider profile's pieces: Python string/difflib semantics, the block parser,
 * replace_most_similar_chunk and strip_quoted_wrapping. Expected values come from CPython 3 and
 * Aider's editblock_coder.py run on the same inputs. */
#include "peers/aider/aider_editblock.h"
#include "peers/aider/aider_py.h"
#include "editcore.h"
#include <stdio.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond)                                                      \
  do {                                                                   \
    if (cond) passed++;                                                  \
    else { failed++; printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond); } \
  } while (0)

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }
static bool eq(ec_str a, const char *b) { return a.ptr && a.len == strlen(b) && !memcmp(a.ptr, b, a.len); }

static size_t match_count(ec_arena *a, const char *x, const char *y) {
  uint32_t *xa, *ya;
  size_t nx, ny, m = 0;
  ec_py_codepoints(a, S(x), &xa, &nx);
  ec_py_codepoints(a, S(y), &ya, &ny);
  ec_py_matcher mt;
  ec_py_matcher_init(&mt, a);
  uint64_t work = 0;
  ec_py_match_count(&mt, xa, nx, ya, ny, &work, UINT64_MAX, &m);
  return m;
}

static void test_python_strings(ec_arena *a) {
  ec_py_list l = {0};
  ec_py_splitlines(a, S("a\fb\r\nc\xC2\x85" "d\xE2\x80\xA8" "e"), true, &l);
  CHECK(l.n == 5);
  CHECK(l.n == 5 && eq(l.items[0], "a\f") && eq(l.items[1], "b\r\n") && eq(l.items[4], "e"));
  ec_py_list m = {0};
  ec_py_splitlines(a, S("x\n\n"), false, &m);
  CHECK(m.n == 2 && eq(m.items[1], ""));
  CHECK(eq(ec_py_strip(S(" \t\xC2\xA0hi \n")), "hi"));
  CHECK(eq(ec_py_lstrip(S("   \n")), ""));
  CHECK(eq(ec_py_slice_to(S("  foo\n"), -2), "  fo"));
  CHECK(eq(ec_py_basename(S("a/b/c.py")), "c.py"));
  CHECK(eq(ec_py_universal_newlines(a, S("a\r\nb\rc\n")), "a\nb\nc\n"));
}

static void test_difflib(ec_arena *a) {
  CHECK(match_count(a, "abcd", "bcde") == 3);
  CHECK(match_count(a, "private Thread currentThread;", "private volatile Thread currentThread;") == 29);
  /* autojunk: with 200+ elements, ones seen more than 1% + 1 times never start a match */
  char ab[301], ba[301];
  for (int i = 0; i < 300; i++) { ab[i] = i % 2 ? 'b' : 'a'; ba[i] = i % 2 ? 'a' : 'b'; }
  ab[300] = ba[300] = 0;
  CHECK(match_count(a, ab, ba) == 0);
  ec_str poss[] = {S("ape"), S("apple"), S("peach"), S("puppy")};
  size_t best;
  CHECK(!ec_py_close_match(a, S("appel"), poss, 4, 3, 5, &best) && best == 1);
  ec_str chat[] = {S("dir/file3.py"), S("file1.py"), S("file2.py"), S("\\windows\\__init__.py")};
  CHECK(!ec_py_close_match(a, S("file1_py"), chat, 4, 4, 5, &best) && best == 1);
  CHECK(!ec_py_close_match(a, S("\\windows__init__.py"), chat, 4, 4, 5, &best) && best == 3);
  CHECK(!ec_py_close_match(a, S("zzz"), chat, 4, 4, 5, &best) && best == SIZE_MAX);
}

static void test_parser(ec_arena *a) {
  ec_str fence[2] = {S("```"), S("```")};
  ec_aider_blocks b;
  const char *reply = "Here:\n\n```python\nfoo.txt\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n\n"
                      "<<<<<<< SEARCH\nthree\n=======\nfour\n>>>>>>> REPLACE\n```\n\n```bash\nls\n```\n";
  CHECK(ec_aider_parse_blocks(a, S(reply), fence, NULL, 0, &b) == EC_OK);
  CHECK(b.n == 3);
  CHECK(b.n == 3 && eq(b.items[0].path, "foo.txt") && eq(b.items[0].search, "one\n") && eq(b.items[0].replace, "two\n"));
  CHECK(b.n == 3 && eq(b.items[1].path, "foo.txt") && eq(b.items[1].search, "three\n"));
  CHECK(b.n == 3 && b.items[2].shell && eq(b.items[2].search, "ls\n"));
  /* basename and fuzzy names resolve to chat files */
  ec_str valid[] = {S("src/deep/foo.txt")};
  CHECK(ec_aider_parse_blocks(a, S("foo.txt\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n"), fence, valid, 1, &b) == EC_OK);
  CHECK(b.n == 1 && eq(b.items[0].path, "src/deep/foo.txt"));
  /* ...but not for a new file (empty SEARCH) */
  CHECK(ec_aider_parse_blocks(a, S("foo.txt\n```\n<<<<<<< SEARCH\n=======\nb\n>>>>>>> REPLACE\n```\n"), fence, valid, 1, &b) == EC_OK);
  CHECK(b.n == 1 && eq(b.items[0].path, "foo.txt"));
  /* errors */
  CHECK(ec_aider_parse_blocks(a, S("foo.txt\n<<<<<<< SEARCH\na\n"), fence, NULL, 0, &b) == EC_MALFORMED_EDIT);
  CHECK(eq(b.error, "foo.txt\n<<<<<<< SEARCH\na\n\n^^^ Expected `=======`") && b.error_line == 3);
  CHECK(ec_aider_parse_blocks(a, S("```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"), fence, NULL, 0, &b) ==
        EC_MALFORMED_EDIT);
  CHECK(b.error.ptr && strstr(b.error.ptr, "Bad/missing filename. The filename must be alone on the line before the opening fence ```"));
  /* 10 '<' is not a HEAD: nothing parsed */
  CHECK(ec_aider_parse_blocks(a, S("f.py\n<<<<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"), fence, NULL, 0, &b) == EC_OK &&
        b.n == 0);
}

static const char *chunk(ec_arena *a, const char *whole, const char *part, const char *repl) {
  ec_str out;
  if (ec_aider_replace_chunk(a, S(whole), S(part), S(repl), &out)) return "ERROR";
  return out.ptr ? out.ptr : NULL;
}

static bool same(const char *x, const char *y) { return x && y ? !strcmp(x, y) : x == y; }

static void test_replace_chunk(ec_arena *a) {
  CHECK(same(chunk(a, "line1\nline2\nline1\nline3\n", "line1\n", "new_line\n"), "new_line\nline2\nline1\nline3\n"));
  CHECK(same(chunk(a, "    line1\n    line2\n    line3\n", " line1\n line2\n", " new_line1\n     new_line2\n"),
             "    new_line1\n        new_line2\n    line3\n"));
  CHECK(same(chunk(a, "    line1\n    line2\n    line3\n", "\n  line1\n  line2\n", "  new_line1\n  new_line2\n"),
             "    new_line1\n    new_line2\n    line3\n"));
  /* a file without a final newline gains one */
  CHECK(same(chunk(a, "a\nb", "b", "c"), "a\nc\n"));
  /* "..." elision: each piece must occur exactly once */
  CHECK(same(chunk(a, "def f():\n    a = 1\n    b = 2\n    c = 3\n", "def f():\n...\n    c = 3\n", "def g():\n...\n    c = 4\n"),
             "def g():\n    a = 1\n    b = 2\n    c = 4\n"));
  CHECK(same(chunk(a, "x\ny\nx\n", "x\n...\ny\n", "z\n...\ny\n"), NULL));
  /* no fuzzy matching, and a block cannot empty a file */
  CHECK(same(chunk(a, "This is a sample text.\n", "This is a sample text\n", "x\n"), NULL));
  CHECK(same(chunk(a, "only\n", "only\n", ""), NULL));
}

static void test_wrapping(ec_arena *a) {
  ec_str fence[2] = {S("```"), S("```")};
  ec_str out;
  bool crash;
  ec_aider_strip_wrapping(a, S("filename.ext\n```\nWe just want this content\nNot the filename and triple quotes\n```"),
                          S("/tmp/x/filename.ext"), fence, &out, &crash);
  CHECK(!crash && eq(out, "We just want this content\nNot the filename and triple quotes\n"));
  ec_aider_strip_wrapping(a, S("a\r\nb\n\n"), S("f.py"), fence, &out, &crash);
  CHECK(!crash && eq(out, "a\nb\n"));
  ec_aider_strip_wrapping(a, S("f.py\n"), S("f.py"), fence, &out, &crash);
  CHECK(crash);
}

int main(void) {
  ec_arena *a = ec_arena_new(NULL);
  test_python_strings(a);
  test_difflib(a);
  test_parser(a);
  test_replace_chunk(a);
  test_wrapping(a);
  ec_arena_free(a);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
