/*
 * The loose strategies find their places without a table of the file's lines where they can
 * (match/line_windows.c: windows found from the occurrences of the needle's longest line; line
 * numbers counted, ec_match_line_at; the window's own lines, ec_window_table). The table is still
 * there for what needs it, and both ways must give the same places. This test runs each
 * strategy twice on random documents: once on a fresh match environment (the searching way) and
 * once on one whose line table and line hashes were built first (the table way), and requires
 * the same places, line numbers, strategies and replacements, byte for byte. Documents come from
 * a few lines that repeat, with indentation and trailing whitespace of every kind (near misses are
 * common), and some from one line repeated, where the search gives up to the table mid-way.
 */
#include "match/ladder.h"
#include "match/lineutil.h"
#include "base/arena.h"
#include "base/str.h"
#include "test_util.h"
#include <stdint.h>
#include <stdlib.h>

static uint32_t rng = 88172645u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static const char *bodies[] = {"x = 1;", "return x;", "}", "if (a) {", "foo(a, b);", "", "y", "x = 1; // c",
                               "else {", "  nested();"};
static const char *indents[] = {"", "", "  ", "    ", "\t", " \t", "        "};
static const char *trails[] = {"", "", "", " ", "\t", "\r", " \v", "\f"};
#define PICK(a) a[next() % (sizeof a / sizeof a[0])]

static size_t put(char *o, size_t n, const char *s) {
  size_t l = strlen(s);
  memcpy(o + n, s, l);
  return n + l;
}

/* A document of `lines` lines; `one` makes every line the same body (the give-up case). */
static size_t random_doc(char *o, size_t lines, bool one) {
  size_t n = 0;
  for (size_t i = 0; i < lines; i++) {
    n = put(o, n, one ? "" : PICK(indents));
    n = put(o, n, one ? "x" : PICK(bodies));
    n = put(o, n, one ? "" : PICK(trails));
    if (i + 1 < lines || next() % 2) o[n++] = '\n';
  }
  return n;
}

/* old_text: a run of the document's lines, re-indented and re-trailed at random, some replaced. */
static size_t random_needle(char *o, const char *doc, size_t dlen, size_t max_lines) {
  size_t starts[4096], nl = 0;
  for (size_t i = 0; i < dlen && nl < 4096; i++)
    if (i == 0 || doc[i - 1] == '\n') starts[nl++] = i;
  if (!nl) return 0;
  size_t s = next() % nl, k = 1 + next() % max_lines, n = 0;
  unsigned mode = next() % 4; /* 0: as is, 1: indentation shifted, 2: trailing changed, 3: a line replaced */
  for (size_t j = 0; j < k && s + j < nl; j++) {
    const char *l = doc + starts[s + j];
    size_t ll = (s + j + 1 < nl ? starts[s + j + 1] - 1 : dlen) - starts[s + j];
    if (s + j + 1 == nl && ll && l[ll - 1] == '\n') ll--;
    if (j) o[n++] = '\n';
    if (mode == 3 && next() % 4 == 0) { n = put(o, n, PICK(bodies)); continue; }
    if (mode == 1) n = put(o, n, "    ");
    size_t e = ll;
    if (mode == 2) while (e && (l[e - 1] == ' ' || l[e - 1] == '\t' || l[e - 1] == '\r' || l[e - 1] == '\v' || l[e - 1] == '\f')) e--;
    memcpy(o + n, l, e);
    n += e;
    if (mode == 2) n = put(o, n, PICK(trails));
  }
  if (next() % 3 == 0) o[n++] = '\n';
  return n;
}

typedef struct run {
  ec_error_code rc;
  ec_found_list out;
} run;

/* way 0: a fresh environment; 1: its line table and hashes built first; 2: the LF count given. */
static run run_strategy(ec_arena *a, ec_strategy_fn fn, const char *doc, size_t len, ec_str old, ec_str neu, int way,
                        const ec_options *opt) {
  ec_match_env env;
  ec_match_env_init(&env, a, doc, len, opt, EC_PROFILE_EDITCORE);
  if (way == 2) ec_match_env_lf_count(&env, ec_count_lf(doc, len));
  if (way == 1) {
    (void)ec_match_norm_hashes(&env, EC_NORM_TRIM_END);
    (void)ec_match_norm_hashes(&env, EC_NORM_TRIM);
  }
  run r;
  memset(&r, 0, sizeof r);
  r.rc = fn(&env, old, neu, &r.out);
  return r;
}

static bool same_runs(const run *x, const run *y) {
  if (x->rc != y->rc || x->out.total != y->out.total || x->out.n != y->out.n) return false;
  for (size_t i = 0; i < x->out.n; i++) {
    const ec_found *p = &x->out.items[i], *q = &y->out.items[i];
    if (p->start != q->start || p->end != q->end || p->start_line != q->start_line || p->end_line != q->end_line ||
        p->strategy != q->strategy || p->confidence != q->confidence || !ec_str_eq(p->replacement, q->replacement))
      return false;
  }
  return true;
}

int main(void) {
  static char doc[1 << 16], old[1 << 14], neu[1 << 14];
  ec_options opt;
  ec_options_default(&opt);
  static const struct { const char *name; ec_strategy_fn fn; } strategies[] = {
      {"trim_end", ec_strategy_trim_end}, {"indent", ec_strategy_indent}, {"anchor", ec_strategy_anchor},
      {"regex", ec_strategy_regex},       {"elision", ec_strategy_elision}};
  int compared = 0, with_places = 0;
  for (int round = 0; round < 3000; round++) {
    bool one = round % 10 == 9;
    size_t dlen = random_doc(doc, one ? 3000 : 1 + next() % 60, one);
    size_t olen = one ? (size_t)0 : random_needle(old, doc, dlen, 6);
    if (one) { /* 60 lines of the repeated body, then one the file lacks: every line is a candidate */
      for (int k = 0; k < 60; k++) olen = put(old, olen, "x\n");
      olen = put(old, olen, "z");
    }
    size_t nlen = random_needle(neu, doc, dlen, 4);
    if (round % 7 == 3 && olen > 4) { memcpy(old + olen / 2, "\n...\n", 5); memcpy(neu, "...\n", 4); } /* elision */
    for (size_t s = 0; s < sizeof strategies / sizeof strategies[0]; s++) {
      ec_arena *a = ec_arena_new(NULL);
      run x = run_strategy(a, strategies[s].fn, doc, dlen, (ec_str){old, olen}, (ec_str){neu, nlen}, 0, &opt);
      run y = run_strategy(a, strategies[s].fn, doc, dlen, (ec_str){old, olen}, (ec_str){neu, nlen}, 1, &opt);
      run z = run_strategy(a, strategies[s].fn, doc, dlen, (ec_str){old, olen}, (ec_str){neu, nlen}, 2, &opt);
      CHECK_MSG(same_runs(&x, &y) && same_runs(&x, &z), "round %d %s: rc %d/%d/%d, %zu/%zu/%zu places; old \"%.*s\"", round,
                strategies[s].name, x.rc, y.rc, z.rc, x.out.total, y.out.total, z.out.total, (int)olen, old);
      compared++;
      with_places += x.out.total > 0;
      ec_arena_free(a);
    }
  }
  /* Both outcomes often, or the comparison proves little. */
  CHECK_MSG(with_places > compared / 10 && with_places < compared - compared / 10, "%d of %d with places", with_places, compared);

  /* ec_match_line_at, asked in any order, is the line table's answer. */
  {
    ec_arena *a = ec_arena_new(NULL);
    size_t dlen = random_doc(doc, 500, false);
    ec_match_env env;
    ec_match_env_init(&env, a, doc, dlen, &opt, EC_PROFILE_EDITCORE);
    ec_lines fl;
    CHECK(ec_lines_build(a, doc, dlen, &fl) == EC_OK);
    bool same = true;
    for (int k = 0; k < 2000 && same; k++) {
      size_t off = next() % (dlen + 1);
      same = ec_match_line_at(&env, off) == ec_lines_index_of(&fl, off);
    }
    CHECK_MSG(same, "ec_match_line_at differs from the table");
    CHECK_MSG(env.have_lines, "counting all over the text must end in the table");
    ec_arena_free(a);
  }
  TEST_MAIN_END();
}
