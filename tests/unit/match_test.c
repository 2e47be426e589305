/*
 * Unit tests for core/src/match: every strategy of the ladder on its own (what it forgives, what
 * it writes, where it says it matched), the ladder's order, the work limits, and a 1 MB synthetic
 * file on which every strategy must find the one right place (near-linear behaviour is asserted
 * through results and work counters, not times), plus the JSON path for fuzzy with options.
 */
#include "test_util.h"
#include "match/ladder.h"
#include "match/lineutil.h"
#include "base/buf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ec_arena *T; /* big test inputs live here */


static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }

typedef struct run {
  ec_arena *a;
  ec_options opt;
  ec_match_env env;
  ec_found_list out;
  ec_error_code rc;
  char *applied; /* the document with every kept match replaced */
} run;

static void apply_all(run *r) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(r->a));
  size_t at = 0;
  for (size_t i = 0; i < r->out.n; i++) {
    ec_buf_append(&b, r->env.text + at, r->out.items[i].start - at);
    ec_buf_append_str(&b, r->out.items[i].replacement);
    at = r->out.items[i].end;
  }
  ec_buf_append(&b, r->env.text + at, r->env.len - at);
  ec_str s = ec_buf_finish(&b, r->a);
  r->applied = (char *)(s.ptr ? s.ptr : "");
}

static run go(ec_strategy_fn fn, const char *text, size_t len, const char *old_text, const char *new_text,
              ec_profile p, void (*tweak)(ec_options *)) {
  run r;
  memset(&r, 0, sizeof r);
  r.a = ec_arena_new(NULL);
  ec_options_default(&r.opt);
  if (tweak) tweak(&r.opt);
  ec_match_env_init(&r.env, r.a, text, len, &r.opt, p);
  r.rc = fn(&r.env, S(old_text), S(new_text), &r.out);
  if (!r.rc) apply_all(&r);
  return r;
}
#define GO(fn, text, old, new) go(fn, text, strlen(text), old, new, EC_PROFILE_EDITCORE, NULL)

static void done(run *r) { ec_arena_free(r->a); }

static void test_exact(void) {
  run r = GO(ec_strategy_exact, "a\nb\na\n", "a", "c");
  CHECK_MSG(r.rc == EC_OK && r.out.total == 2, "total %zu", r.out.total);
  CHECK_MSG(r.out.n == 2 && r.out.items[1].start_line == 3, "line %u", r.out.n ? r.out.items[1].start_line : 0);
  CHECK_MSG(!strcmp(r.applied, "c\nb\nc\n"), "%s", r.applied);
  done(&r);
}

static void test_unescape(void) {
  run r = GO(ec_strategy_unescape, "print(\"a\")\nx = 1\n", "print(\\\"a\\\")\\nx = 1", "print(\\\"b\\\")\\nx = 2");
  CHECK_MSG(r.rc == EC_OK && r.out.total == 1, "total %zu", r.out.total);
  CHECK_MSG(r.out.n && r.out.items[0].strategy == EC_STRATEGY_UNESCAPE, "strategy");
  CHECK_MSG(!strcmp(r.applied, "print(\"b\")\nx = 2\n"), "%s", r.applied);
  done(&r);
  /* Nothing to unescape: the strategy stays silent (exact already answered). */
  r = GO(ec_strategy_unescape, "a\n", "b", "c");
  CHECK_MSG(r.rc == EC_OK && r.out.total == 0, "total %zu", r.out.total);
  done(&r);
}

static void test_trim_end(void) {
  run r = GO(ec_strategy_trim_end, "a = 1   \nb = 2\t\nc\n", "a = 1\nb = 2\n", "A\nB\n");
  CHECK_MSG(r.out.total == 1 && r.out.items[0].start_line == 1 && r.out.items[0].end_line == 2, "lines");
  CHECK_MSG(!strcmp(r.applied, "A\nB\nc\n"), "%s", r.applied);
  done(&r);
  /* Leading whitespace is not forgiven by trim_end. */
  r = GO(ec_strategy_trim_end, "  a\n", "a", "b");
  CHECK_MSG(r.out.total == 0, "total %zu", r.out.total);
  done(&r);
  /* Blank needles say nothing. */
  r = GO(ec_strategy_trim_end, "a\n\n\nb\n", "\n", "x");
  CHECK_MSG(r.out.total == 0, "total %zu", r.out.total);
  done(&r);
}

static void test_indent(void) {
  run r = GO(ec_strategy_indent, "def f():\n\tif x:\n\t\treturn 1\n", "    if x:\n        return 1",
             "    if x:\n        log()\n        return 2");
  CHECK_MSG(r.out.total == 1 && r.out.items[0].strategy == EC_STRATEGY_INDENT, "total %zu", r.out.total);
  CHECK_MSG(!strcmp(r.applied, "def f():\n\tif x:\n\t\tlog()\n\t\treturn 2\n"), "%s", r.applied);
  done(&r);
  r = GO(ec_strategy_indent, "class A:\n    def f(self):\n        return 1\n", "def f(self):\n    return 1\n",
         "def f(self):\n    if x:\n        return 2\n    return 1\n");
  CHECK_MSG(!strcmp(r.applied, "class A:\n    def f(self):\n        if x:\n            return 2\n        return 1\n"), "%s", r.applied);
  done(&r);
  /* Relative to the least-indented line, not the first. */
  r = GO(ec_strategy_indent, "x:\n        b\n    a\n", "    b\na", "    B\na\n    c");
  CHECK_MSG(!strcmp(r.applied, "x:\n        B\n    a\n        c\n"), "%s", r.applied);
  done(&r);
  /* Two places: both reported. */
  r = GO(ec_strategy_indent, "if a:\n    x = 1\nif b:\n  x = 1\n", "x = 1", "x = 2");
  CHECK_MSG(r.out.total == 2, "total %zu", r.out.total);
  done(&r);
}

static void test_unicode(void) {
  run r = GO(ec_strategy_unicode, "s = \xE2\x80\x9Cq\xE2\x80\x9D \xE2\x80\x94 done\xE2\x80\xA6\nnext\n", "s = \"q\" - done...",
             "s = \"q\" - over...");
  CHECK_MSG(r.out.total == 1, "total %zu", r.out.total);
  CHECK_MSG(r.out.n && r.out.items[0].start == 0 && r.out.items[0].end == 23, "range %zu-%zu", r.out.n ? r.out.items[0].start : 0,
        r.out.n ? r.out.items[0].end : 0);
  CHECK_MSG(!strcmp(r.applied, "s = \"q\" - over...\nnext\n"), "%s", r.applied);
  done(&r);
  /* Curly quotes in the model's text, straight quotes in the file: the file keeps straight ones. */
  r = GO(ec_strategy_unicode, "msg = \"hi\"\n", "msg = \xE2\x80\x9Chi\xE2\x80\x9D", "msg = \xE2\x80\x9Cho\xE2\x80\x9D");
  CHECK_MSG(!strcmp(r.applied, "msg = \"ho\"\n"), "%s", r.applied);
  done(&r);
  /* A match after a fold maps back past the multi-byte character. */
  r = GO(ec_strategy_unicode, "a\xC2\xA0" "b c\n", "b c", "X");
  CHECK_MSG(r.out.total == 1, "folds in the file alone are enough to run: %zu", r.out.total);
  done(&r);
  r = GO(ec_strategy_unicode, "a\xC2\xA0" "b\xC2\xA0" "c\n", "b c", "X");
  CHECK_MSG(r.out.total == 1 && !strcmp(r.applied, "a\xC2\xA0X\n"), "%s", r.applied);
  done(&r);
}

static void test_anchor(void) {
  run r = GO(ec_strategy_anchor, "def f():\n    a = 1\n    # old comment\n    return a\n",
             "def f():\n    a = 1\n    # a comment\n    return a", "def f():\n    a = 2\n    return a");
  CHECK_MSG(r.rc == EC_OK && r.out.total == 1, "total %zu rc %d", r.out.total, r.rc);
  CHECK_MSG(!strcmp(r.applied, "def f():\n    a = 2\n    return a\n"), "%s", r.applied);
  done(&r);
  r = GO(ec_strategy_anchor, "def f():\n    a = 1\n    b = compute(a)\n    return a\n",
         "def f():\n    a = 1\n    b = compute(x)\n    return a", "def f():\n    a = 2\n    b = compute(x)\n    return a");
  CHECK_MSG(r.rc == EC_NO_MATCH && r.env.message.len, "rc %d", r.rc);
  done(&r);
  /* A middle too different: no match. */
  r = GO(ec_strategy_anchor, "{\n  totally different stuff here\n}\n", "{\n  x = 1\n}", "{\n}");
  CHECK_MSG(r.rc == EC_OK && r.out.total == 0, "total %zu", r.out.total);
  done(&r);
}

static void test_regex(void) {
  run r = GO(ec_strategy_regex, "  function  myFunc( a, b ) {\n    return a + b;\n  }", "function myFunc(a, b) {",
             "const yourFunc = (a, b) => {");
  CHECK_MSG(r.out.total == 1, "total %zu", r.out.total);
  CHECK_MSG(!strcmp(r.applied, "  const yourFunc = (a, b) => {\n    return a + b;\n  }"), "%s", r.applied);
  done(&r);
  r = GO(ec_strategy_regex, "returnx;\n", "return x;", "return y;");
  CHECK_MSG(r.out.total == 0, "editcore never merges words: %zu", r.out.total);
  done(&r);
  r = go(ec_strategy_regex, "returnx;\n", 9, "return x;", "return y;", EC_PROFILE_GEMINI, NULL);
  CHECK_MSG(r.out.total == 1, "gemini's \\s* does: %zu", r.out.total);
  done(&r);
  /* Only lines that start with the first token are tried: the token earlier on a line (and a
   * line where it follows other text) is no start; tabs before it are; a match can span lines
   * and the next one starts on a later line. */
  r = GO(ec_strategy_regex, "x = f(a)\n\tf( a )\ny f(a)\nf(a)\n  f\n  (a)\n", "f(a)", "g(b)");
  CHECK_MSG(r.out.total == 3, "total %zu", r.out.total);
  CHECK_MSG(!strcmp(r.applied, "x = f(a)\n\tg(b)\ny f(a)\ng(b)\n  g(b)\n"), "%s", r.applied);
  done(&r);
  r = GO(ec_strategy_regex, "ab ab ab\nab ab\n", "ab  ab", "X");
  CHECK_MSG(r.out.total == 2, "one match per line start: %zu", r.out.total);
  done(&r);
  r = GO(ec_strategy_regex, "no match here\n", "zz", "X");
  CHECK_MSG(r.out.total == 0, "total %zu", r.out.total);
  done(&r);
}

static void fuzzy_on(ec_options *o) { o->fuzzy_threshold = 0.9; }
static void tiny_work(ec_options *o) { o->limits.fuzzy_work = 1000; }
static void hint_line5(ec_options *o) { o->line_hint = 5; }

static void test_fuzzy(void) {
  const char *doc = "x = 1\ncall(alpha, beta, gamma)\ny = 2\n";
  run r = go(ec_strategy_fuzzy, doc, strlen(doc), "call(alpha, beta, gamna)", "call(alpha, beta, delta)", EC_PROFILE_EDITCORE, fuzzy_on);
  CHECK_MSG(r.rc == EC_OK && r.out.total == 1 && r.out.items[0].confidence > 0.9, "total %zu", r.out.total);
  CHECK_MSG(!strcmp(r.applied, "x = 1\ncall(alpha, beta, delta)\ny = 2\n"), "%s", r.applied);
  done(&r);
  r = go(ec_strategy_fuzzy, doc, strlen(doc), "call(alpha, beta, gamna)", "call(alpha, beta, gamna)\nz", EC_PROFILE_EDITCORE, fuzzy_on);
  CHECK_MSG(r.rc == EC_NO_MATCH, "repeated wrong line refused: rc %d", r.rc);
  done(&r);
  r = go(ec_strategy_fuzzy, doc, strlen(doc), "something else entirely", "x", EC_PROFILE_EDITCORE, fuzzy_on);
  CHECK_MSG(r.rc == EC_OK && r.out.total == 0, "total %zu", r.out.total);
  done(&r);
  /* Two equally good windows; a hint picks the nearer. */
  const char *two = "f(aaaa, bbbb)\nq\nq\nq\nf(aaaa, bbbb)\n";
  r = go(ec_strategy_fuzzy, two, strlen(two), "f(aaaa, bbbc)", "g()", EC_PROFILE_EDITCORE, fuzzy_on);
  CHECK_MSG(r.out.total == 2, "both windows: %zu", r.out.total);
  done(&r);
  r = go(ec_strategy_fuzzy, two, strlen(two), "f(aaaa, bbbc)", "g()", EC_PROFILE_EDITCORE, hint_line5);
  CHECK_MSG(r.out.total == 1 && r.out.items[0].start_line == 5, "hint: %zu", r.out.total);
  done(&r);
  /* The work limit stops it with TOO_LARGE. */
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(T));
  for (int i = 0; i < 2000; i++) ec_buf_printf(&b, "call(alpha, beta, gamm%d)\n", i % 10);
  ec_str big = ec_buf_finish(&b, T);
  r = go(ec_strategy_fuzzy, big.ptr, big.len, "call(alpha, beta, gammX)", "x", EC_PROFILE_EDITCORE, tiny_work);
  CHECK_MSG(r.rc == EC_TOO_LARGE && r.env.message.len, "rc %d", r.rc);
  done(&r);
}

static void test_ladder_order(void) {
  ec_strategy order[] = {EC_STRATEGY_EXACT, EC_STRATEGY_TRIM_END, EC_STRATEGY_INDENT};
  ec_arena *a = ec_arena_new(NULL);
  ec_options o;
  ec_options_default(&o);
  ec_match_env env;
  const char *doc = "  a = 1  \n";
  ec_match_env_init(&env, a, doc, strlen(doc), &o, EC_PROFILE_EDITCORE);
  ec_found_list out = {0};
  ec_strategy used = EC_STRATEGY_EXACT;
  ec_error_code rc = ec_ladder_find(&env, order, 3, S("a = 1\n"), S("b\n"), &out, &used);
  CHECK_MSG(rc == EC_OK && out.total == 1 && used == EC_STRATEGY_INDENT, "used %d", (int)used);
  ec_arena_free(a);
}

/* Section - 1 MB synthetic file */

/* A deterministic pseudo-random word per line, so windows differ in more than digits. */
static const char *word(unsigned i) {
  static char w[13];
  uint32_t x = i * 2654435761u + 12345u;
  for (int k = 0; k < 12; k++) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; w[k] = (char)('a' + x % 26); }
  w[12] = 0;
  return w;
}

static void test_large(void) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(T));
  size_t target = 0;
  for (int i = 0; b.len < (1u << 20); i++) {
    if (i == 20000) target = (size_t)i;
    ec_buf_printf(&b, "    value_%d = compute(%d, \"%s\")\n", i, i * 7, word((unsigned)i));
  }
  ec_str doc = ec_buf_finish(&b, T);
  /* The needle: 20 lines at line 20001, written by the model with different indentation,
   * trailing spaces and (for the regex) squeezed whitespace. */
  ec_buf n1, n2;
  ec_buf_init(&n1, ec_arena_allocator(T));
  ec_buf_init(&n2, ec_arena_allocator(T));
  for (size_t k = 0; k < 20; k++) {
    size_t i = target + k;
    ec_buf_printf(&n1, "value_%zu = compute(%zu, \"%s\")  \n", i, i * 7, word((unsigned)i));
    ec_buf_printf(&n2, "value_%zu=compute( %zu, \"%s\" )\n", i, i * 7, word((unsigned)i));
  }
  ec_str indent_needle = ec_buf_finish(&n1, T), regex_needle = ec_buf_finish(&n2, T);
  struct { ec_strategy_fn fn; const char *name; ec_str needle; } cases[] = {
      {ec_strategy_indent, "indent", indent_needle},
      {ec_strategy_anchor, "anchor", indent_needle},
      {ec_strategy_regex, "regex", regex_needle},
      {ec_strategy_fuzzy, "fuzzy", indent_needle},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    run r = go(cases[c].fn, doc.ptr, doc.len, cases[c].needle.ptr, "X\n", EC_PROFILE_EDITCORE, NULL);
    CHECK_MSG(r.rc == EC_OK && r.out.total == 1, "%s: rc %d total %zu", cases[c].name, r.rc, r.out.total);
    CHECK_MSG(r.out.n && r.out.items[0].start_line == target + 1, "%s: line %u", cases[c].name, r.out.n ? r.out.items[0].start_line : 0);
    /* Near-linear: the comparison work stays a small multiple of the file, not lines x needle. */
    CHECK_MSG(r.env.work < 40ull * doc.len, "%s: work %llu", cases[c].name, (unsigned long long)r.env.work);
    done(&r);
  }
  /* Unicode: the model's curly quotes against the file's straight ones. */
  char uni_needle[128];
  snprintf(uni_needle, sizeof uni_needle, "value_15000 = compute(105000, \xE2\x80\x9C%s\xE2\x80\x9D)", word(15000));
  run r = go(ec_strategy_unicode, doc.ptr, doc.len, uni_needle, "Y",
             EC_PROFILE_EDITCORE, NULL);
  CHECK_MSG(r.out.total == 1 && r.out.items[0].start_line == 15001, "unicode: %zu", r.out.total);
  done(&r);
  /* Many identical anchor candidates ("{" ... "}"): bounded, no hang. */
  ec_buf br;
  ec_buf_init(&br, ec_arena_allocator(T));
  for (int i = 0; i < 60000; i++) ec_buf_printf(&br, "{\n  body_%d();\n}\n", i);
  ec_str braces = ec_buf_finish(&br, T);
  r = go(ec_strategy_anchor, braces.ptr, braces.len, "{\n  body_x();\n}", "{\n}", EC_PROFILE_EDITCORE, NULL);
  CHECK_MSG(r.rc == EC_OK || r.rc == EC_TOO_LARGE, "rc %d", r.rc);
  CHECK_MSG(r.rc == EC_TOO_LARGE || r.out.total >= 1, "anchor on braces: %zu", r.out.total);
  done(&r);
}

/* Section - JSON path (options reach the ladder) */

static void test_json_fuzzy(void) {
  const char *req = "{\"format\":\"replace\",\"files\":{\"file\":\"x = 1\\ncall(alpha, beta, gamma)\\ny = 2\\n\"},"
                    "\"edit\":{\"old_string\":\"call(alpha, beta, gamna)\",\"new_string\":\"call(alpha, beta, delta)\"},"
                    "\"options\":{\"strategies\":[\"exact\",\"fuzzy\"]}}";
  size_t n;
  char *resp = ec_run_json(req, strlen(req), NULL, &n);
  CHECK_MSG(resp && strstr(resp, "\"status\":\"success\"") && strstr(resp, "\"strategy\":\"fuzzy\""), "%s", resp ? resp : "(null)");
  ec_free(NULL, resp);
  const char *req2 = "{\"format\":\"replace\",\"files\":{\"file\":\"x = 1\\ncall(alpha, beta, gamma)\\ny = 2\\n\"},"
                     "\"edit\":{\"old_string\":\"call(alpha, beta, gamna)\",\"new_string\":\"call(alpha, beta, delta)\"}}";
  resp = ec_run_json(req2, strlen(req2), NULL, &n);
  CHECK_MSG(resp && strstr(resp, "\"NO_MATCH\"") && strstr(resp, "\"candidates\""), "%s", resp ? resp : "(null)");
  ec_free(NULL, resp);
}

int main(void) {
  T = ec_arena_new(NULL);
  test_exact();
  test_unescape();
  test_trim_end();
  test_indent();
  test_unicode();
  test_anchor();
  test_regex();
  test_fuzzy();
  test_ladder_order();
  test_large();
  test_json_fuzzy();
  ec_arena_free(T);
  printf("%d passed, %d failed\n", tu_passed, tu_failed);
  return tu_failed ? 1 : 0;
}
