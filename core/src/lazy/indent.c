/*
 * Block structure and indentation units.
 *  - Bracket depth: the net `( [ {` minus `) ] }` of a line, outside string literals closed on
 *    the same line and outside trailing `//` comments; a comment-only line (`#`, `//`, a block comment opener) counts 0.
 *    A closing line anchors only where indentation and bracket depth agree (anchor.c).
 *  - Indent units: whether a side indents with tabs or spaces and how many columns one level
 *    is, inferred from the deltas between consecutive non-blank lines (the most common positive
 *    delta of 1..8 columns). Re-indenting inserted code between a tab file and a space snippet
 *    (or the other way round) converts levels, not columns; so does a 2-space snippet written
 *    for a 4-space file (or the other way round), when its anchored lines bear that out: then a
 *    line one level under its reference lands one file level under it, not two columns.
 */
#include "lazy.h"
#include "../base/str.h"
#include "../base/buf.h"
#include <ctype.h>
#include <string.h>

bool ec_lz_comment_only(ec_str line) {
  ec_str t = ec_lz_trim(line);
  if ((t.len >= 1 && t.ptr[0] == '#') || (t.len >= 2 && t.ptr[0] == '/' && (t.ptr[1] == '/' || t.ptr[1] == '*'))) return true;
  /* A block comment's inner line as JSDoc, Javadoc, KDoc, Doxygen and C write it: a star alone,
   * a star, a space and text, or the comment's closing star-slash first. Its brackets are prose
   * (`a) Cover image`), not code. A dereference is no such line: `*p = 0;` has no space after
   * the star. */
  return t.len && t.ptr[0] == '*' && (t.len == 1 || t.ptr[1] == ' ' || t.ptr[1] == '/');
}

int32_t ec_lz_bracket_net(ec_str line) {
  int32_t lowest;
  return ec_lz_bracket_scan(line, &lowest);
}

int32_t ec_lz_bracket_scan(ec_str line, int32_t *lowest) {
  *lowest = 0;
  if (ec_lz_comment_only(line)) return 0;
  int32_t d = 0;
  size_t i = 0, n = line.len;
  const char *p = line.ptr;
  while (i < n) {
    char c = p[i];
    if (c == '"' || c == '\'' || c == '`') {
      /* A literal closed on this line is skipped; an unclosed quote is just a character. */
      size_t k = i + 1;
      while (k < n && p[k] != c) k += p[k] == '\\' ? 2 : 1;
      if (k < n) { i = k + 1; continue; }
      i++;
      continue;
    }
    if (c == '/' && i + 1 < n && p[i + 1] == '/') break;
    if (c == '/' && i + 1 < n && p[i + 1] == '*') {
      size_t k = i + 2;
      while (k + 1 < n && !(p[k] == '*' && p[k + 1] == '/')) k++;
      i = k + 2;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') d++;
    else if (c == ')' || c == ']' || c == '}') {
      d--;
      if (d < *lowest) *lowest = d;
    }
    i++;
  }
  return d;
}

/* Columns of leading whitespace with tabs `tab` wide. */
uint32_t ec_lz_cols(ec_str l, uint32_t tab) {
  uint32_t c = 0;
  for (size_t i = 0; i < l.len; i++) {
    if (l.ptr[i] == '\t') c += tab - c % tab;
    else if (l.ptr[i] == ' ') c++;
    else break;
  }
  return c;
}

/* A line after which the next one is a continuation (hanging or aligned), not a new level. */
static bool continues(ec_str line) {
  size_t n = line.len;
  while (n && (line.ptr[n - 1] == ' ' || line.ptr[n - 1] == '\t' || line.ptr[n - 1] == '\r')) n--;
  if (!n) return false;
  char c = line.ptr[n - 1];
  return c == '(' || c == '[' || c == ',' || c == '\\';
}

void ec_lz_indent_infer(const ec_lz_side *s, ec_lz_indent *out) {
  uint32_t tabs = 0, spaces = 0, hist[9] = {0};
  size_t n = s->n < 50000 ? s->n : 50000; /* a sample is enough; keeps huge files cheap */
  for (size_t i = 0; i < n; i++) {
    if (s->flags[i] & (LZ_BLANK | LZ_MARKER) || !s->indent[i]) continue;
    if (s->line[i].ptr[0] == '\t') tabs++;
    else spaces++;
  }
  out->tabs = tabs > spaces;
  out->tab = 4;
  out->unit = 0;
  out->rescale = false;
  if (out->tabs) {
    out->unit = out->tab;
    return;
  }
  uint32_t prev = UINT32_MAX;
  bool cont = false;
  for (size_t i = 0; i < n; i++) {
    if (s->flags[i] & (LZ_BLANK | LZ_MARKER)) continue;
    uint32_t c = ec_lz_cols(s->line[i], out->tab);
    if (prev != UINT32_MAX && c > prev && c - prev <= 8 && !cont) hist[c - prev]++;
    prev = c;
    cont = continues(s->line[i]);
  }
  uint32_t best = 0;
  for (uint32_t d = 1; d <= 8; d++)
    if (hist[d] > hist[best]) best = d;
  out->unit = best;
}

/* A column delta of the snippet in the file's columns: the same when both sides indent with the
 * same character; levels converted (snippet unit -> file unit) between tabs and spaces. */
long ec_lz_map_delta(long delta, const ec_lz_indent *si, const ec_lz_indent *fi) {
  if (si->tabs == fi->tabs && !si->rescale) return delta;
  long us = si->unit ? (long)si->unit : 4, uf = fi->unit ? (long)fi->unit : 4;
  long a = delta < 0 ? -delta : delta;
  long r = a / us * uf + a % us;
  return delta < 0 ? -r : r;
}

void ec_lz_put_indent(ec_buf *b, long target, bool tabs, uint32_t tab) {
  if (target <= 0) return;
  if (tabs) {
    for (long k = 0; k < target / (long)tab; k++) ec_buf_append_char(b, '\t');
    target %= (long)tab;
  }
  for (long k = 0; k < target; k++) ec_buf_append_char(b, ' ');
}

/* Whether every new level the snippet opens (continuation lines aside) is a whole number of its
 * own unit: then that unit is how it indents. */
static bool levels_fit(const ec_lz_side *S, uint32_t unit, uint32_t tab) {
  uint32_t prev = UINT32_MAX;
  bool cont = false;
  for (size_t j = 0; j < S->n; j++) {
    if (S->flags[j] & (LZ_BLANK | LZ_MARKER)) continue;
    uint32_t c = ec_lz_cols(S->line[j], tab);
    if (prev != UINT32_MAX && c > prev && !cont && (c - prev) % unit) return false;
    prev = c;
    cont = continues(S->line[j]);
  }
  return true;
}

/* Calls fn with the column steps (snippet ds, file df) between consecutive anchored lines. */
typedef void (*step_fn)(long ds, long df, void *arg);
static void each_step(const ec_lz_side *S, const ec_lz_side *F, const int32_t *am, const ec_lz_indent *si,
                      const ec_lz_indent *fi, step_fn fn, void *arg) {
  int64_t pj = -1;
  for (size_t j = 0; j < S->n; j++) {
    if (am[j] < 0 || (S->flags[j] & LZ_BLANK)) continue;
    if (pj >= 0)
      fn((long)ec_lz_cols(S->line[j], si->tab) - (long)ec_lz_cols(S->line[pj], si->tab),
         (long)ec_lz_cols(F->line[am[j]], fi->tab) - (long)ec_lz_cols(F->line[am[pj]], fi->tab), arg);
    pj = (int64_t)j;
  }
}

typedef struct tally {
  const ec_lz_indent *si, *fi;
  size_t as_is, converted;
} tally;

static void tally_step(long ds, long df, void *arg) {
  tally *t = arg;
  if (!ds && !df) return;
  ec_lz_indent on = *t->si;
  on.rescale = true;
  t->as_is += ds == df;
  t->converted += ec_lz_map_delta(ds, &on, t->fi) == df;
}

typedef struct unit_votes {
  uint32_t uf, n[17];
} unit_votes;

static void vote_step(long ds, long df, void *arg) {
  unit_votes *v = arg;
  if (!df || df % (long)v->uf) return;
  long lv = df / (long)v->uf;
  if (ds % lv == 0 && ds / lv >= 1 && ds / lv <= 16) v->n[ds / lv]++;
}

/* Two space sides with different units (a snippet's unit comes from its own few lines): rescale
 * when the anchored lines' relative indentation is explained by the conversion at least as often
 * as by the columns as they are, and by it at least once. Lines the snippet moved into a new
 * block (wrapped in an `if`) fit neither, so they do not decide. With no anchored pair at two
 * depths, the snippet's own unit decides when all its levels fit it (a 2-space body under a
 * 4-space file's `def` is one level, not half of one). */
static void decide_rescale(const ec_lz_side *S, const ec_lz_side *F, const int32_t *am, ec_lz_indent *si, const ec_lz_indent *fi) {
  si->rescale = false;
  if (si->tabs || fi->tabs || !si->unit || !fi->unit || si->unit == fi->unit) return;
  tally t = {si, fi, 0, 0};
  each_step(S, F, am, si, fi, tally_step, &t);
  if (t.as_is || t.converted) si->rescale = t.converted >= t.as_is;
  else si->rescale = levels_fit(S, si->unit, si->tab);
}

void ec_lz_refine_unit(const ec_lz_side *S, const ec_lz_side *F, const int32_t *am, ec_lz_indent *si, const ec_lz_indent *fi) {
  if (si->tabs == fi->tabs) { decide_rescale(S, F, am, si, fi); return; }
  unit_votes v = {fi->unit ? fi->unit : 4, {0}};
  each_step(S, F, am, si, fi, vote_step, &v);
  uint32_t best = 0;
  for (uint32_t u = 1; u <= 16; u++)
    if (v.n[u] > v.n[best]) best = u;
  if (best) si->unit = best;
}

bool ec_lz_class_opener(ec_str line) {
  ec_str t = ec_lz_trim(line);
  if (!t.len || t.ptr[t.len - 1] != '{') {
    if (!t.len || t.ptr[t.len - 1] != ':') return false; /* Python: `class X(Base):` */
  }
  static const char *const KW[] = {"class ", "struct ", "interface ", "object ", "trait ", "impl ", NULL};
  for (size_t i = 0; i + 6 <= t.len; i++) {
    if (i && (isalnum((unsigned char)t.ptr[i - 1]) || t.ptr[i - 1] == '_')) continue;
    for (size_t k = 0; KW[k]; k++) {
      size_t n = strlen(KW[k]);
      if (i + n <= t.len && !memcmp(t.ptr + i, KW[k], n)) return true;
    }
  }
  return false;
}
