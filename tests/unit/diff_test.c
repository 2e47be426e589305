/*
 * Unit tests for core/src/diff: exact output for the edge cases git users know (empty sides,
 * missing final newline, CRLF, context merging, truncation), and randomised checks that every
 * script and every diff text turns the old text into the new one and that scripts are minimal.
 * Prints timings for large inputs (informational; the assertions are on the results).
 */
#include "test_util.h"
#include "diff/diff.h"
#include "diff/diff_myers.h"
#include "diff/diff_prepare.h"
#include "base/buf.h"
#include "base/str.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>



static double now_ms(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }

/* ---- A strict patch applier: line numbers and counts must be exact. ---------------------- */

typedef struct tline { const char *p; size_t len; bool lf; } tline;

static size_t split_lines(const char *t, size_t n, tline *out) {
  size_t k = 0, i = 0;
  while (i < n) {
    const char *nl = memchr(t + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - t) : n;
    if (out) { out[k].p = t + i; out[k].len = e - i; out[k].lf = nl != NULL; }
    k++;
    i = nl ? e + 1 : n;
  }
  return k;
}

static bool parse_range(const char **q, char sign, size_t *l, size_t *s) {
  if (**q != sign) return false;
  (*q)++;
  char *end;
  *l = strtoul(*q, &end, 10);
  if (end == *q) return false;
  *q = end;
  *s = 1;
  if (**q == ',') {
    (*q)++;
    *s = strtoul(*q, &end, 10);
    if (end == *q) return false;
    *q = end;
  }
  return true;
}

static void put_line(ec_buf *b, const char *p, size_t len, bool lf) {
  ec_buf_append(b, p, len);
  if (lf) ec_buf_append_char(b, '\n');
}

/* Applies diff text d to old; false (with a message) when the diff does not fit exactly. */
static bool apply_diff(ec_str old, ec_str d, ec_buf *out, char *why, size_t why_n) {
  size_t on = split_lines(old.ptr, old.len, NULL);
  tline *ol = malloc((on + 1) * sizeof *ol);
  split_lines(old.ptr, old.len, ol);
  size_t dn = split_lines(d.ptr, d.len, NULL);
  tline *dl = malloc((dn + 1) * sizeof *dl);
  split_lines(d.ptr, d.len, dl);
  size_t opos = 0, k = 0, nlines = 0;
  bool ok = true;
  if (dn >= 2) k = 2; /* ---/+++ */
  while (ok && k < dn) {
    const char *q = dl[k].p;
    size_t l1, s1, l2, s2;
    if (strncmp(q, "@@ ", 3) != 0) { snprintf(why, why_n, "line %zu: no hunk header", k); ok = false; break; }
    q += 3;
    if (!parse_range(&q, '-', &l1, &s1) || *q++ != ' ' || !parse_range(&q, '+', &l2, &s2) ||
        strncmp(q, " @@", 3) != 0) { snprintf(why, why_n, "bad header"); ok = false; break; }
    size_t start = s1 ? l1 - 1 : l1;
    if (start < opos || start > on) { snprintf(why, why_n, "hunk start %zu out of order", start); ok = false; break; }
    size_t nstart = s2 ? l2 - 1 : l2;
    for (; opos < start; opos++, nlines++) put_line(out, ol[opos].p, ol[opos].len, ol[opos].lf);
    /* The new side's line count before this hunk must match the header. */
    if (nlines != nstart) { snprintf(why, why_n, "new start %zu, have %zu", nstart, nlines); ok = false; break; }
    k++;
    size_t c1 = 0, c2 = 0;
    while (k < dn && (c1 < s1 || c2 < s2)) {
      tline h = dl[k++];
      bool lf = true;
      if (k < dn && dl[k].len > 0 && dl[k].p[0] == '\\') { lf = false; k++; }
      if (h.len == 0) { snprintf(why, why_n, "empty diff line"); ok = false; break; }
      char t = h.p[0];
      if (t == ' ' || t == '-') {
        if (opos >= on || ol[opos].len != h.len - 1 || memcmp(ol[opos].p, h.p + 1, h.len - 1) != 0 || ol[opos].lf != lf) {
          snprintf(why, why_n, "old line %zu differs", opos + 1);
          ok = false;
          break;
        }
        opos++;
        c1++;
      }
      if (t == ' ' || t == '+') { put_line(out, h.p + 1, h.len - 1, lf); c2++; nlines++; }
      if (t != ' ' && t != '-' && t != '+') { snprintf(why, why_n, "bad line type %c", t); ok = false; break; }
    }
    if (ok && (c1 != s1 || c2 != s2)) { snprintf(why, why_n, "counts %zu/%zu vs %zu/%zu", c1, c2, s1, s2); ok = false; }
  }
  for (; ok && opos < on; opos++) put_line(out, ol[opos].p, ol[opos].len, ol[opos].lf);
  free(ol);
  free(dl);
  return ok;
}

/* Rebuilds new from old with a script; checks that the lines it keeps really are equal. */
static bool apply_script(ec_str old, ec_str nw, const ec_diff_script *sc, char *why, size_t why_n) {
  size_t on = split_lines(old.ptr, old.len, NULL), nn = split_lines(nw.ptr, nw.len, NULL);
  tline *ol = malloc((on + 1) * sizeof *ol), *nl = malloc((nn + 1) * sizeof *nl);
  split_lines(old.ptr, old.len, ol);
  split_lines(nw.ptr, nw.len, nl);
  bool ok = true;
  size_t i = 0, j = 0;
  for (size_t k = 0; k <= sc->n && ok; k++) {
    size_t a = k < sc->n ? sc->changes[k].a : on, b = k < sc->n ? sc->changes[k].b : nn;
    if (k < sc->n && sc->changes[k].na == 0 && sc->changes[k].nb == 0) { snprintf(why, why_n, "empty change"); ok = false; break; }
    if (a < i || b < j || a - i != b - j) { snprintf(why, why_n, "change %zu misaligned", k); ok = false; break; }
    for (; i < a; i++, j++)
      if (ol[i].len != nl[j].len || ol[i].lf != nl[j].lf || memcmp(ol[i].p, nl[j].p, ol[i].len) != 0) {
        snprintf(why, why_n, "kept line %zu/%zu differs", i, j);
        ok = false;
        break;
      }
    if (k < sc->n) { i += sc->changes[k].na; j += sc->changes[k].nb; }
  }
  if (ok && (i != on || j != nn)) { snprintf(why, why_n, "script does not cover the texts"); ok = false; }
  free(ol);
  free(nl);
  return ok;
}

static size_t lcs_len(ec_str x, ec_str y) {
  size_t n = split_lines(x.ptr, x.len, NULL), m = split_lines(y.ptr, y.len, NULL);
  tline *a = malloc((n + 1) * sizeof *a), *b = malloc((m + 1) * sizeof *b);
  split_lines(x.ptr, x.len, a);
  split_lines(y.ptr, y.len, b);
  size_t *dp = calloc((n + 1) * (m + 1), sizeof *dp);
  for (size_t i = n; i-- > 0;)
    for (size_t j = m; j-- > 0;) {
      bool eq = a[i].len == b[j].len && a[i].lf == b[j].lf && memcmp(a[i].p, b[j].p, a[i].len) == 0;
      size_t v = eq ? dp[(i + 1) * (m + 1) + j + 1] + 1 : 0;
      size_t r = dp[(i + 1) * (m + 1) + j], d = dp[i * (m + 1) + j + 1];
      if (r > v) v = r;
      if (d > v) v = d;
      dp[i * (m + 1) + j] = v;
    }
  size_t res = dp[0];
  free(dp);
  free(a);
  free(b);
  return res;
}

/* ---- Exact outputs --------------------------------------------------------------------------- */

static void expect_diff(int line, const char *old, const char *nw, int ctx, const char *want, uint32_t add,
                        uint32_t rem) {
  ec_arena *a = ec_arena_new(NULL);
  ec_str os = old ? S(old) : S(""), ns = nw ? S(nw) : S("");
  ec_diff_opts o = {ctx, 0, 0};
  ec_diff_out out;
  ec_error_code rc = ec_diff_unified(a, S("f.txt"), S("f.txt"), old ? &os : NULL, nw ? &ns : NULL, &o, &out);
  bool same = rc == EC_OK && out.text.ptr && out.text.len == strlen(want) && memcmp(out.text.ptr, want, out.text.len) == 0;
  CHECK_MSG(same, "case at line %d: got rc %d\n----\n%.*s----\nwant\n----\n%s----", line, (int)rc,
        (int)out.text.len, out.text.ptr ? out.text.ptr : "", want);
  CHECK_MSG(out.added == add && out.removed == rem, "case at line %d: +%u -%u, want +%u -%u", line, out.added,
        out.removed, add, rem);
  CHECK_MSG(!out.truncated, "case at line %d: truncated", line);
  ec_arena_free(a);
}
#define EXPECT(old, nw, ctx, want, add, rem) expect_diff(__LINE__, old, nw, ctx, want, add, rem)

static void test_exact(void) {
  EXPECT("a\nb\n", "a\nb\n", 3, "", 0, 0);
  EXPECT(NULL, NULL, 3, "", 0, 0);
  EXPECT("", "", 3, "", 0, 0);
  EXPECT("a", "a", 3, "", 0, 0);
  /* add to an empty or absent file */
  EXPECT(NULL, "a\nb\nc\n", 3, "--- /dev/null\n+++ b/f.txt\n@@ -0,0 +1,3 @@\n+a\n+b\n+c\n", 3, 0);
  EXPECT("", "a\n", 3, "--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1 @@\n+a\n", 1, 0);
  EXPECT("", "a", 3, "--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n", 1, 0);
  /* delete everything */
  EXPECT("a\nb\nc\n", NULL, 3, "--- a/f.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n", 0, 3);
  EXPECT("a\nb\nc\n", "", 3, "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n", 0, 3);
  /* final newline added, removed, missing on both sides */
  EXPECT("a\nb", "a\nb\n", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n", 1, 1);
  EXPECT("a\nb\n", "a\nb", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n", 1, 1);
  EXPECT("a\nb", "a\nc", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n"
         "\\ No newline at end of file\n", 1, 1);
  EXPECT("a\nb\nc", "x\nb\nc", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n-a\n+x\n b\n c\n\\ No newline at end of file\n", 1, 1);
  EXPECT("a\nb", "a\nb\nc", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,3 @@\n a\n-b\n\\ No newline at end of file\n+b\n+c\n"
         "\\ No newline at end of file\n", 2, 1);
  /* CRLF: the CR is line content */
  EXPECT("a\r\nb\r\n", "a\r\nc\r\n", 3, "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n", 1, 1);
  EXPECT("a\r\nb\r\n", "a\r\nb\n", 3, "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+b\n", 1, 1);
  /* context 0 */
  EXPECT("a\nb\nc\n", "a\nx\nc\n", 0, "--- a/f.txt\n+++ b/f.txt\n@@ -2 +2 @@\n-b\n+x\n", 1, 1);
  EXPECT("a\nc\n", "a\nb\nc\n", 0, "--- a/f.txt\n+++ b/f.txt\n@@ -1,0 +2 @@\n+b\n", 1, 0);
  EXPECT("a\nb\nc\n", "a\nc\n", 0, "--- a/f.txt\n+++ b/f.txt\n@@ -2 +1,0 @@\n-b\n", 0, 1);
  EXPECT("a\nb\nc\nd\n", "x\nb\nc\ny\n", 0, "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-a\n+x\n@@ -4 +4 @@\n-d\n+y\n", 2, 2);
  /* context merging: a gap of 2 * context lines merges, one more splits */
  EXPECT("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nB\n3\n4\n5\n6\n7\n8\nI\n10\n", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,10 +1,10 @@\n 1\n-2\n+B\n 3\n 4\n 5\n 6\n 7\n 8\n-9\n+I\n 10\n", 2, 2);
  EXPECT("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\nB\n3\n4\n5\n6\n7\n8\n9\nJ\n", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,5 +1,5 @@\n 1\n-2\n+B\n 3\n 4\n 5\n@@ -7,4 +7,4 @@\n 7\n 8\n 9\n-10\n+J\n", 2, 2);
  EXPECT("1\n2\n3\n", "1\n2\n3\n4\n", 1, "--- a/f.txt\n+++ b/f.txt\n@@ -3 +3,2 @@\n 3\n+4\n", 1, 0);
  /* ambiguous insertions slide down like git's: the new block goes after the old closing brace */
  EXPECT("f() {\n}\n", "f() {\n}\n\ng() {\n}\n", 3,
         "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,5 @@\n f() {\n }\n+\n+g() {\n+}\n", 3, 0);
  EXPECT("a\n\nb\n", "a\n\n\nb\n", 3, "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n a\n \n+\n b\n", 1, 0);
}

static void test_paths(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_str o = S("x\n"), n = S("y\n");
  ec_diff_out out;
  CHECK_MSG(ec_diff_unified(a, S("dir/my file.c"), S("q\"t"), &o, &n, NULL, &out) == EC_OK, "rc");
  const char *want = "--- a/dir/my file.c\t\n+++ \"b/q\\\"t\"\n@@ -1 +1 @@\n-x\n+y\n";
  CHECK_MSG(out.text.len == strlen(want) && memcmp(out.text.ptr, want, out.text.len) == 0, "got %s", out.text.ptr);
  ec_diff_opts neg = {-1, 0, 0};
  CHECK_MSG(ec_diff_unified(a, S("f"), S("f"), &o, &n, &neg, &out) == EC_INVALID_PARAM, "negative context");
  ec_arena_free(a);
}

static void test_truncation(void) {
  ec_arena *a = ec_arena_new(NULL);
  ec_buf ob, nb;
  ec_buf_init(&ob, NULL);
  ec_buf_init(&nb, NULL);
  for (int i = 0; i < 200; i++) {
    ec_buf_printf(&ob, "line %d\n", i);
    ec_buf_printf(&nb, i % 10 == 3 ? "changed %d\n" : "line %d\n", i);
  }
  ec_str os = {ob.ptr, ob.len}, ns = {nb.ptr, nb.len};
  ec_diff_out full, cut;
  ec_diff_opts o = {3, 0, 0};
  CHECK_MSG(ec_diff_unified(a, S("f"), S("f"), &os, &ns, &o, &full) == EC_OK, "full");
  CHECK_MSG(!full.truncated && full.added == 20 && full.removed == 20, "full +%u -%u", full.added, full.removed);
  size_t limits[] = {1, 10, 17, 100, 333, 1000, full.text.len - 1, full.text.len, full.text.len + 5};
  for (size_t k = 0; k < sizeof limits / sizeof *limits; k++) {
    o.max_bytes = limits[k];
    CHECK_MSG(ec_diff_unified(a, S("f"), S("f"), &os, &ns, &o, &cut) == EC_OK, "cut");
    bool should = limits[k] < full.text.len;
    CHECK_MSG(cut.truncated == should, "limit %zu: truncated %d", limits[k], cut.truncated);
    CHECK_MSG(cut.added == 20 && cut.removed == 20, "counts over whole diff");
    CHECK_MSG(cut.text.len <= limits[k] && memcmp(cut.text.ptr, full.text.ptr, cut.text.len) == 0, "prefix");
    CHECK_MSG(cut.text.len == 0 || cut.text.ptr[cut.text.len - 1] == '\n', "ends at a line end");
    if (should) { /* the next whole line would not have fitted */
      const char *nl = memchr(full.text.ptr + cut.text.len, '\n', full.text.len - cut.text.len);
      size_t next = (size_t)(nl - full.text.ptr) + 1;
      CHECK_MSG(next > limits[k], "limit %zu: cut at %zu, but %zu fits", limits[k], cut.text.len, next);
    }
  }
  ec_buf_free(&ob);
  ec_buf_free(&nb);
  ec_arena_free(a);
}

/* ---- Randomised --------------------------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s) {
  uint64_t x = *s;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}
static unsigned rnd(uint64_t *s, unsigned n) { return (unsigned)(rng_next(s) % n); }

static const char *const alphabet[] = {"a\n", "b\n", "c\n", "\n", "}\n", "a\r\n", "  x\n", "d\n"};

static void random_text(uint64_t *s, ec_buf *b, unsigned nlines, unsigned nalpha) {
  for (unsigned i = 0; i < nlines; i++) ec_buf_append_cstr(b, alphabet[rnd(s, nalpha)]);
}

static void mutate(uint64_t *s, const ec_buf *src, ec_buf *dst, unsigned nalpha) {
  size_t n = split_lines(src->ptr ? src->ptr : "", src->len, NULL);
  tline *l = malloc((n + 1) * sizeof *l);
  split_lines(src->ptr ? src->ptr : "", src->len, l);
  for (size_t i = 0; i <= n; i++) {
    unsigned r = rnd(s, 10);
    if (r == 0) random_text(s, dst, 1 + rnd(s, 3), nalpha); /* insert */
    if (i == n) break;
    if (r == 1) continue;                                   /* delete */
    if (r == 2) { random_text(s, dst, 1, nalpha); continue; } /* replace */
    put_line(dst, l[i].p, l[i].len, l[i].lf);
  }
  free(l);
}

static void drop_final_lf(uint64_t *s, ec_buf *b) {
  if (b->len && b->ptr[b->len - 1] == '\n' && rnd(s, 3) == 0) b->len--;
}

/* A random old text of up to max_lines lines and a new one (a fresh text, or the old one mutated),
 * into two initialised buffers the caller frees. */
static void random_pair(uint64_t *s, ec_buf *ob, ec_buf *nb, unsigned max_lines) {
  unsigned nalpha = 2 + rnd(s, 7);
  ec_buf_init(ob, NULL);
  ec_buf_init(nb, NULL);
  random_text(s, ob, rnd(s, max_lines), nalpha);
  if (rnd(s, 4) == 0) random_text(s, nb, rnd(s, 14), nalpha);
  else mutate(s, ob, nb, nalpha);
  drop_final_lf(s, ob);
  drop_final_lf(s, nb);
}

static void check_pair(ec_str os, ec_str ns, uint64_t *s, int iter) {
  ec_arena *a = ec_arena_new(NULL);
  char why[200] = "";
  /* The script: valid and minimal (discard and compaction keep minimality). */
  ec_diff_script sc;
  CHECK_MSG(ec_diff_texts(a, os, ns, 0, &sc) == EC_OK, "rc");
  bool ok = apply_script(os, ns, &sc, why, sizeof why);
  CHECK_MSG(ok, "iter %d: script: %s", iter, why);
  size_t cost = 0;
  for (size_t k = 0; k < sc.n; k++) cost += sc.changes[k].na + sc.changes[k].nb;
  size_t on = split_lines(os.ptr, os.len, NULL), nn = split_lines(ns.ptr, ns.len, NULL);
  size_t lcs = lcs_len(os, ns);
  CHECK_MSG(cost == on + nn - 2 * lcs, "iter %d: cost %zu, minimal %zu", iter, cost, on + nn - 2 * lcs);

  /* The bare search (no discard, no compaction) is minimal too. */
  ec_diff_prep p;
  CHECK_MSG(ec_diff_prepare(a, os, ns, 0, false, &p) == EC_OK, "prep");
  uint8_t *ca = ec_arena_alloc(a, p.a.wn + 1), *cb = ec_arena_alloc(a, p.b.wn + 1);
  CHECK_MSG(ec_diff_myers(a, &p, 0, EC_DIFF_NO_DISCARD | EC_DIFF_NO_COMPACT, ca, cb) == EC_OK, "myers");
  size_t bare = 0, keep_a = 0, keep_b = 0;
  for (size_t i = 0; i < p.a.wn; i++) { bare += ca[i]; keep_a += !ca[i]; }
  for (size_t i = 0; i < p.b.wn; i++) { bare += cb[i]; keep_b += !cb[i]; }
  CHECK_MSG(bare == on + nn - 2 * lcs && keep_a == keep_b, "iter %d: bare cost %zu, minimal %zu", iter, bare,
        on + nn - 2 * lcs);

  /* A starved budget still gives a valid script. */
  ec_diff_script coarse;
  CHECK_MSG(ec_diff_texts(a, os, ns, 1 + rnd(s, 20), &coarse) == EC_OK, "rc");
  ok = apply_script(os, ns, &coarse, why, sizeof why);
  CHECK_MSG(ok, "iter %d: budget script: %s", iter, why);

  /* The text: applying it to old gives new, byte for byte, whatever the context. */
  ec_diff_opts o = {(int)rnd(s, 4), 0, 0};
  ec_diff_out out;
  bool absent_old = os.len == 0 && rnd(s, 2), absent_new = ns.len == 0 && rnd(s, 2);
  CHECK_MSG(ec_diff_unified(a, S("f"), S("f"), absent_old ? NULL : &os, absent_new ? NULL : &ns, &o, &out) == EC_OK, "rc");
  CHECK_MSG((out.text.len == 0) == (sc.n == 0), "iter %d: empty diff iff equal", iter);
  ec_buf res;
  ec_buf_init(&res, NULL);
  ok = apply_diff(os, out.text, &res, why, sizeof why);
  CHECK_MSG(ok && res.len == ns.len && (ns.len == 0 || memcmp(res.ptr, ns.ptr, ns.len) == 0),
        "iter %d: diff does not apply (%s)\nold:\n%.*s\nnew:\n%.*s\ndiff:\n%.*s", iter, why, (int)os.len, os.ptr,
        (int)ns.len, ns.ptr, (int)out.text.len, out.text.ptr);
  ec_buf_free(&res);
  ec_arena_free(a);
}

static void test_random(void) {
  uint64_t s = 0x9E3779B97F4A7C15ULL;
  int before = tu_failed;
  for (int iter = 0; iter < 2000; iter++) {
    ec_buf ob, nb;
    random_pair(&s, &ob, &nb, 14);
    ec_str os = {ob.ptr ? ob.ptr : "", ob.len}, ns = {nb.ptr ? nb.ptr : "", nb.len};
    check_pair(os, ns, &s, iter);
    ec_buf_free(&ob);
    ec_buf_free(&nb);
    if (tu_failed - before > 20) break; /* enough to debug with */
  }
  /* Larger pairs, where the sqrt(N) split cap comes into play: valid, if not always minimal. */
  for (int iter = 0; iter < 30; iter++) {
    ec_buf ob, nb;
    ec_buf_init(&ob, NULL);
    ec_buf_init(&nb, NULL);
    random_text(&s, &ob, 2000 + rnd(&s, 3000), 3 + rnd(&s, 5));
    if (iter % 2) random_text(&s, &nb, 2000 + rnd(&s, 3000), 3 + rnd(&s, 5));
    else mutate(&s, &ob, &nb, 8);
    ec_str os = {ob.ptr, ob.len}, ns = {nb.ptr, nb.len};
    ec_arena *a = ec_arena_new(NULL);
    char why[200] = "";
    ec_diff_script sc;
    CHECK_MSG(ec_diff_texts(a, os, ns, iter % 3 == 0 ? 100000 : 0, &sc) == EC_OK, "rc");
    CHECK_MSG(apply_script(os, ns, &sc, why, sizeof why), "large %d: %s", iter, why);
    ec_diff_out out;
    CHECK_MSG(ec_diff_unified(a, S("f"), S("f"), &os, &ns, NULL, &out) == EC_OK, "rc");
    ec_buf res;
    ec_buf_init(&res, NULL);
    bool ok = apply_diff(os, out.text, &res, why, sizeof why);
    CHECK_MSG(ok && res.len == ns.len && memcmp(res.ptr, ns.ptr, ns.len) == 0, "large %d: %s", iter, why);
    ec_buf_free(&res);
    ec_arena_free(a);
    ec_buf_free(&ob);
    ec_buf_free(&nb);
  }
}

/* ---- Out of memory: every allocation failure is reported, nothing crashes or leaks -------- */

typedef struct failing { long left, live; } failing;
static void *f_malloc(void *u, size_t n) {
  failing *f = u;
  if (f->left-- <= 0) return NULL;
  void *p = malloc(n);
  if (p) f->live++;
  return p;
}
static void *f_realloc(void *u, void *p, size_t n) {
  failing *f = u;
  if (f->left-- <= 0) return NULL;
  void *q = realloc(p, n);
  if (q && !p) f->live++;
  return q;
}
static void f_free(void *u, void *p) {
  failing *f = u;
  if (p) { f->live--; free(p); }
}

/* `distinct` lines of 3000 on each side: 700 leaves the line classes' table at its first size,
 * 3000 makes it grow (diff_prepare.c sizes it for a quarter of all lines distinct), so an
 * allocation failure there is met too. */
static void test_oom(int distinct) {
  ec_buf ob, nb;
  ec_buf_init(&ob, NULL);
  ec_buf_init(&nb, NULL);
  for (int i = 0; i < 3000; i++) {
    ec_buf_printf(&ob, "line %d\n", i % distinct);
    ec_buf_printf(&nb, i % 50 == 7 ? "other %d\n" : "line %d\n", i % distinct);
  }
  ec_str os = {ob.ptr, ob.len}, ns = {nb.ptr, nb.len};
  bool ok_seen = false, all_clean = true, all_codes = true;
  for (long budget = 0; budget < 400 && !ok_seen; budget++) {
    failing f = {budget, 0};
    ec_allocator alc = {f_malloc, f_realloc, f_free, &f};
    ec_arena *a = ec_arena_new(&alc);
    if (a) {
      ec_diff_out out;
      ec_error_code rc = ec_diff_unified(a, S("f"), S("f"), &os, &ns, NULL, &out);
      if (rc == EC_OK) ok_seen = out.text.len > 0;
      else if (rc != EC_OUT_OF_MEMORY) all_codes = false;
      ec_arena_free(a);
    }
    if (f.live != 0) all_clean = false;
  }
  CHECK_MSG(ok_seen, "never succeeded with up to 400 allocations");
  CHECK_MSG(all_codes, "an allocation failure gave another error than EC_OUT_OF_MEMORY");
  CHECK_MSG(all_clean, "memory leaked after an allocation failure");
  ec_buf_free(&ob);
  ec_buf_free(&nb);
}

/* ---- Large inputs ----------------------------------------------------------------------------- */

/* Code-like text: mostly distinct lines, with the blank lines and braces real code repeats. */
static void code_line(uint64_t *s, ec_buf *b, size_t i) {
  switch (rnd(s, 8)) {
    case 0: ec_buf_append_cstr(b, "\n"); break;
    case 1: ec_buf_append_cstr(b, "  }\n"); break;
    default: ec_buf_printf(b, "    value_%zu = compute(%zu, %u);\n", i, i * 7, rnd(s, 1000)); break;
  }
}

static void code_text(uint64_t seed, size_t nlines, ec_buf *b) {
  uint64_t s = seed;
  for (size_t i = 0; i < nlines; i++) code_line(&s, b, i);
}

/* Changes about per_mille / 1000 of the lines: replacements, deletions, insertions (some blank). */
static void scatter(uint64_t *s, const ec_buf *src, ec_buf *dst, unsigned per_mille) {
  size_t n = split_lines(src->ptr, src->len, NULL);
  tline *l = malloc((n + 1) * sizeof *l);
  split_lines(src->ptr, src->len, l);
  for (size_t i = 0; i < n; i++) {
    if (rnd(s, 1000) < per_mille) {
      switch (rnd(s, 4)) {
        case 0: ec_buf_printf(dst, "    edited_%zu();\n", i); continue;
        case 1: continue;
        case 2: ec_buf_printf(dst, "    inserted_%zu();\n", i); break;
        default: ec_buf_append_cstr(dst, "\n"); break;
      }
    }
    put_line(dst, l[i].p, l[i].len, l[i].lf);
  }
  free(l);
}

/* Times ec_diff_unified on a pair (first call, then best of three: the first pays for faulting
 * in fresh memory, which is slow on some VMs) and checks that the diff applies. */
static void time_pair(const char *label, const ec_buf *ob, const ec_buf *nb) {
  ec_str os = {ob->ptr, ob->len}, ns = {nb->ptr, nb->len};
  double first = 0, best = 0;
  for (int rep = 0; rep < 3; rep++) {
    ec_arena *a = ec_arena_new(NULL);
    double t0 = now_ms();
    ec_diff_out out;
    ec_error_code rc = ec_diff_unified(a, S("f"), S("f"), &os, &ns, NULL, &out);
    double t = now_ms() - t0;
    if (rep == 0) first = best = t;
    if (t < best) best = t;
    if (rep == 0) {
      CHECK_MSG(rc == EC_OK, "%s: rc %d", label, (int)rc);
      char why[200] = "";
      ec_buf res;
      ec_buf_init(&res, NULL);
      bool ok = apply_diff(os, out.text, &res, why, sizeof why);
      CHECK_MSG(ok && res.len == ns.len && memcmp(res.ptr, ns.ptr, ns.len) == 0, "%s: %s", label, why);
      ec_buf_free(&res);
      printf("  %-42s (%zu -> %zu bytes, +%u -%u, diff %zu bytes)\n", label, ob->len, nb->len, out.added,
             out.removed, out.text.len);
    }
    ec_arena_free(a);
  }
  printf("  %-42s first %7.1f ms, best of 3 %7.1f ms\n", "", first, best);
}

static void test_large(void) {
  const size_t N = 300000;
  ec_buf ob, nb;
  ec_buf_init(&ob, NULL);
  ec_buf_init(&nb, NULL);
  code_text(42, N, &ob);
  /* One line changed in the middle. */
  size_t n = split_lines(ob.ptr, ob.len, NULL);
  tline *l = malloc((n + 1) * sizeof *l);
  split_lines(ob.ptr, ob.len, l);
  const size_t target = 123457;
  for (size_t i = 0; i < n; i++) {
    if (i == target) ec_buf_append_cstr(&nb, "    the_one_change();\n");
    else put_line(&nb, l[i].p, l[i].len, l[i].lf);
  }
  free(l);
  ec_arena *a = ec_arena_new(NULL);
  ec_str os = {ob.ptr, ob.len}, ns = {nb.ptr, nb.len};
  ec_diff_script sc;
  CHECK_MSG(ec_diff_texts(a, os, ns, 0, &sc) == EC_OK, "rc");
  CHECK_MSG(sc.n == 1 && sc.changes[0].a == target && sc.changes[0].na == 1 && sc.changes[0].b == target &&
            sc.changes[0].nb == 1,
        "one change expected, got %zu", sc.n);
  ec_arena_free(a);
  printf("timings (informational):\n");
  time_pair("one-line change, 300k lines (9.4 MB)", &ob, &nb);

  uint64_t s = 7;
  ec_buf sb;
  ec_buf_init(&sb, NULL);
  scatter(&s, &ob, &sb, 10);
  time_pair("1% scattered, 300k lines (9.4 MB)", &ob, &sb);
  ec_buf_free(&sb);

  ec_buf small, small2;
  ec_buf_init(&small, NULL);
  ec_buf_init(&small2, NULL);
  code_text(43, N / 10, &small);
  scatter(&s, &small, &small2, 10);
  time_pair("1% scattered, 30k lines (0.9 MB)", &small, &small2);
  ec_buf_free(&small2);
  ec_buf_init(&small2, NULL);
  scatter(&s, &small, &small2, 300);
  time_pair("30% scattered, 30k lines", &small, &small2);
  ec_buf_free(&small2);
  ec_buf_init(&small2, NULL);
  code_text(44, N / 10, &small2);
  time_pair("unrelated texts, 30k lines", &small, &small2);
  ec_buf_free(&small2);
  ec_buf_free(&small);

  /* Worst case for Myers: two unrelated texts over a tiny alphabet (nothing is discarded). */
  ec_buf w1, w2;
  ec_buf_init(&w1, NULL);
  ec_buf_init(&w2, NULL);
  random_text(&s, &w1, 200000, 4);
  random_text(&s, &w2, 200000, 4);
  time_pair("unrelated, 4-line alphabet, 200k lines", &w1, &w2);
  ec_buf_free(&w1);
  ec_buf_free(&w2);
  ec_buf_free(&ob);
  ec_buf_free(&nb);
}

/* nb = ob with [*o0, *o1) replaced by mid: a stretch at any byte, not only at line starts, of
 * up to `span` bytes. */
static void splice_at_random(uint64_t *s, const ec_buf *ob, const ec_buf *mid, unsigned span, ec_buf *nb, size_t *o0,
                             size_t *o1) {
  *o0 = ob->len ? rnd(s, (unsigned)ob->len + 1) : 0;
  *o1 = *o0 + (ob->len - *o0 ? rnd(s, (unsigned)(ob->len - *o0) % span + 1) : 0);
  if (*o1 > ob->len) *o1 = ob->len;
  ec_buf_append(nb, ob->ptr ? ob->ptr : "", *o0);
  ec_buf_append(nb, mid->ptr ? mid->ptr : "", mid->len);
  ec_buf_append(nb, (ob->ptr ? ob->ptr : "") + *o1, ob->len - *o1);
}

/* The diff of known stretches (ec_diff_unified_stretches: windows of lines around them) gives
 * the whole texts' diff and undo, byte for byte: one stretch of random lines replaced in a text
 * of repetitive lines (compaction slides over them) of 0 to 600 lines, with or without a final
 * LF, the line count known or not. What the windows compute (line counts, the walk back to a
 * window's first line, the new side's offsets taken from the old side's) must not show. */
static void check_reverse(ec_str diff, ec_str undo, const char *what, int iter);

static void test_stretches(void) {
  uint64_t s = 0x243F6A8885A308D3ULL;
  int before = tu_failed;
  for (int iter = 0; iter < 3000; iter++) {
    unsigned nalpha = 2 + rnd(&s, 7);
    ec_buf ob, mid, nb;
    ec_buf_init(&ob, NULL);
    ec_buf_init(&mid, NULL);
    ec_buf_init(&nb, NULL);
    random_text(&s, &ob, rnd(&s, 600), nalpha);
    drop_final_lf(&s, &ob);
    random_text(&s, &mid, rnd(&s, 6), nalpha);
    if (mid.len && rnd(&s, 4) == 0) mid.len -= 1 + rnd(&s, (unsigned)mid.len); /* a cut inside a line */
    size_t o0, o1;
    splice_at_random(&s, &ob, &mid, 80, &nb, &o0, &o1);
    ec_str os = {ob.ptr ? ob.ptr : "", ob.len}, ns = {nb.ptr ? nb.ptr : "", nb.len};
    if (os.len == ns.len && !memcmp(os.ptr, ns.ptr, os.len)) goto next;
    {
      ec_diff_stretch st = {o0, o1, o0, o0 + mid.len};
      ec_arena *a = ec_arena_new(NULL);
      ec_diff_out w, wu, x, xu;
      size_t lf = rnd(&s, 2) ? ec_count_lf(os.ptr, os.len) : SIZE_MAX;
      ec_diff_opts opts = {(int)rnd(&s, 5), 0, 0};
      ec_str path = {"f", 1};
      CHECK(ec_diff_unified_pair(a, path, path, &os, &ns, &opts, &w, &wu) == EC_OK);
      CHECK(ec_diff_unified_stretches(a, path, path, os, ns, lf, &st, 1, &opts, &x, &xu) == EC_OK);
      CHECK_MSG(w.text.len == x.text.len && !memcmp(w.text.ptr, x.text.ptr, w.text.len), "stretch diff %d: %.*s\n---- vs whole ----\n%.*s",
                iter, (int)x.text.len, x.text.ptr, (int)w.text.len, w.text.ptr);
      CHECK_MSG(wu.text.len == xu.text.len && !memcmp(wu.text.ptr, xu.text.ptr, wu.text.len), "stretch undo %d", iter);
      check_reverse(x.text, xu.text, "stretch", iter);
      ec_arena_free(a);
    }
  next:
    ec_buf_free(&ob);
    ec_buf_free(&mid);
    ec_buf_free(&nb);
    if (tu_failed - before > 20) break;
  }
}

/* The window without slide room (ec_diff_prepare's `tight`, taken when no change can slide out
 * of the middle) gives the changes of the window with it, line for line, on texts of few
 * distinct lines (where changes slide most) with a change cut anywhere; and both kinds occur. */
static void changed_lines(const ec_diff_prep *p, const uint8_t *chg, size_t wn, ec_buf *out) {
  for (size_t k = 0; k < wn; k++)
    if (chg[k]) { size_t line = p->w0 + k; ec_buf_append(out, (const char *)&line, sizeof line); }
}

static void test_tight(void) {
  uint64_t s = 0x452821E638D01377ULL;
  int before = tu_failed, tight = 0, roomy = 0;
  for (int iter = 0; iter < 4000; iter++) {
    unsigned nalpha = 2 + rnd(&s, 7);
    ec_buf ob, mid, nb;
    ec_buf_init(&ob, NULL);
    ec_buf_init(&mid, NULL);
    ec_buf_init(&nb, NULL);
    if (iter % 2) { /* code-like lines, mostly distinct: where changes seldom slide */
      code_text(rng_next(&s), rnd(&s, 500), &ob);
      code_text(rng_next(&s), rnd(&s, 8), &mid);
    } else {
      random_text(&s, &ob, rnd(&s, 500), nalpha);
      random_text(&s, &mid, rnd(&s, 8), nalpha);
    }
    drop_final_lf(&s, &ob);
    size_t o0, o1;
    splice_at_random(&s, &ob, &mid, 100, &nb, &o0, &o1);
    ec_str os = {ob.ptr ? ob.ptr : "", ob.len}, ns = {nb.ptr ? nb.ptr : "", nb.len};
    ec_arena *a = ec_arena_new(NULL);
    size_t ctx = rnd(&s, 6);
    ec_buf got[2][2];
    for (int t = 0; t < 2; t++) {
      ec_diff_prep p;
      CHECK(ec_diff_prepare(a, os, ns, ctx, t == 1, &p) == EC_OK);
      uint8_t *ca = ec_arena_alloc(a, p.a.wn + 1), *cb = ec_arena_alloc(a, p.b.wn + 1);
      CHECK(ec_diff_myers(a, &p, 0, 0, ca, cb) == EC_OK);
      if (t == 1) { if (p.slides_out) roomy++; else tight++; }
      ec_buf_init(&got[t][0], NULL);
      ec_buf_init(&got[t][1], NULL);
      changed_lines(&p, ca, p.a.wn, &got[t][0]);
      changed_lines(&p, cb, p.b.wn, &got[t][1]);
    }
    for (int side = 0; side < 2; side++) {
      CHECK_MSG(got[0][side].len == got[1][side].len && (!got[0][side].len || !memcmp(got[0][side].ptr, got[1][side].ptr, got[0][side].len)),
                "tight %d: side %d's changes differ", iter, side);
      ec_buf_free(&got[0][side]);
      ec_buf_free(&got[1][side]);
    }
    ec_arena_free(a);
    ec_buf_free(&ob);
    ec_buf_free(&mid);
    ec_buf_free(&nb);
    if (tu_failed - before > 20) break;
  }
  CHECK_MSG(tight > 500 && roomy > 500, "tight %d, with slide room %d: both kinds must be tried", tight, roomy);
}

/* The undo read off the diff (ec_diff_reverse_into, ec_diff_undo) is the undo the emitter builds,
 * byte for byte: random pairs, every context, absent sides, paths that are quoted, TAB-ended or
 * different on the two sides, whole-text and stretch diffs; under undo_on_read the undo is left
 * unbuilt exactly when the diff is whole. */
static void check_reverse(ec_str diff, ec_str undo, const char *what, int iter) {
  ec_buf b;
  ec_buf_init(&b, NULL);
  bool ok = ec_diff_reverse_into(&b, diff);
  CHECK_MSG(ok && b.len == undo.len && (!undo.len || !memcmp(b.ptr, undo.ptr, undo.len)),
            "%s %d: reversed\n%.*s\n---- built ----\n%.*s\n---- diff ----\n%.*s", what, iter, (int)b.len, b.ptr,
            (int)undo.len, undo.ptr, (int)diff.len, diff.ptr);
  ec_buf_free(&b);
}

static void test_reverse(void) {
  static const char *const paths[] = {"f", "dir/my file.c", "q\"t", "/abs/x", "a/b", "tab\tname", "\xc3\xa9t\xc3\xa9"};
  uint64_t s = 0xB7E151628AED2A6BULL;
  int before = tu_failed;
  for (int iter = 0; iter < 3000; iter++) {
    ec_buf ob, nb;
    random_pair(&s, &ob, &nb, iter % 3 ? 14 : 300);
    ec_str os = {ob.ptr ? ob.ptr : "", ob.len}, ns = {nb.ptr ? nb.ptr : "", nb.len};
    ec_arena *a = ec_arena_new(NULL);
    ec_str op = S(paths[rnd(&s, 7)]), np = rnd(&s, 3) ? op : S(paths[rnd(&s, 7)]);
    bool absent_old = os.len == 0 && rnd(&s, 2), absent_new = ns.len == 0 && !absent_old && rnd(&s, 2);
    ec_diff_opts eager = {(int)rnd(&s, 5), 0, 0, false}, lazy = eager;
    lazy.undo_on_read = true;
    ec_diff_out d, u, ld, lu;
    CHECK(ec_diff_unified_pair(a, op, np, absent_old ? NULL : &os, absent_new ? NULL : &ns, &eager, &d, &u) == EC_OK);
    check_reverse(d.text, u.text, "whole", iter);
    CHECK(ec_diff_unified_pair(a, op, np, absent_old ? NULL : &os, absent_new ? NULL : &ns, &lazy, &ld, &lu) == EC_OK);
    CHECK_MSG(lu.text.ptr == NULL && lu.added == u.added && lu.removed == u.removed, "lazy %d: undo built", iter);
    CHECK(ld.text.len == d.text.len && !memcmp(ld.text.ptr, d.text.ptr, d.text.len));
    size_t n;
    char *viaapi = ec_diff_undo(d.text.ptr, d.text.len, NULL, &n);
    CHECK_MSG(viaapi && n == u.text.len && !memcmp(viaapi, u.text.ptr, n) && viaapi[n] == 0, "ec_diff_undo %d", iter);
    ec_free(NULL, viaapi);
    /* A diff cut short cannot give its undo: under undo_on_read it is built. */
    if (d.text.len > 40) {
      ec_diff_opts cut = lazy;
      cut.max_bytes = d.text.len / 2;
      CHECK(ec_diff_unified_pair(a, op, np, absent_old ? NULL : &os, absent_new ? NULL : &ns, &cut, &ld, &lu) == EC_OK);
      CHECK_MSG(ld.truncated && lu.text.ptr && lu.text.len == u.text.len && !memcmp(lu.text.ptr, u.text.ptr, u.text.len),
                "truncated %d: undo not built whole", iter);
    }
    ec_arena_free(a);
    ec_buf_free(&ob);
    ec_buf_free(&nb);
    if (tu_failed - before > 20) break;
  }
  /* Not a diff of this engine: refused, nothing invented. */
  static const char *const bad[] = {"x\n", "--- a/f\n", "--- a/f\n+++ b/f\n@@ bad @@\n", "--- a/f\n+++ b/f\n?x\n",
                                    "--- a/f\n+++ b/f\n@@ -1 +1 @@x\n"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    size_t n = 7;
    CHECK_MSG(ec_diff_undo(bad[i], strlen(bad[i]), NULL, &n) == NULL && n == 7, "bad %zu taken", i);
  }
  size_t n = 7;
  char *empty = ec_diff_undo("", 0, NULL, &n);
  CHECK_MSG(empty && n == 0 && empty[0] == 0, "empty diff's undo");
  ec_free(NULL, empty);
}

int main(void) {
  test_exact();
  test_paths();
  test_truncation();
  test_random();
  test_stretches();
  test_tight();
  test_reverse();
  test_oom(700);
  test_oom(3000);
  test_large();
  printf("%d passed, %d failed\n", tu_passed, tu_failed);
  return tu_failed ? 1 : 0;
}
