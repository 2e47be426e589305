#define _GNU_SOURCE 1 /* memmem */
/*
 * Invariants (f) and (g) of the lazy merge (docs/lazy.md, "The invariants"; measured in
 * docs/lazy-passes.md, issue 30, ninth pass), checked on every result R after (a)-(d). Each asks
 * whether R keeps or removes file lines the snippet said nothing about, where both answers are
 * readings of the snippet:
 *
 *  (f) Comments are not removed by leaving them out. Two consecutive snippet lines of a segment
 *      are both lines of the file, every file line R removes between them is a comment or a
 *      docstring line (at least one), and the segment writes no comment of its own: the snippet
 *      shows the code as it is with the comments left out (a function re-emitted whole without
 *      its 117-line docstring). Removed on purpose, or not shown? Declined.
 *  (g) Code moved into a helper leaves no copy beside the call. A segment's new last line calls a
 *      function the snippet defines, and the strong line a marker keeps right after it is a line
 *      of that function's body, or an edited version of one (`setHtmlContentType(res);` over a
 *      kept `res.setHeader('Content-Type', 'text/html');`, the helper's body setting the same
 *      header): R would run it twice. Replace it or keep it? Declined. (The same above a
 *      segment's new first line was left out: no case of any set, ~130 B of the size budget.)
 */
#include "lazy.h"
#include "../base/str.h"
#include <string.h>

/* Line i of a side past its indentation. */
static ec_str text_at(const ec_lz_side *X, size_t i) { return ec_str_make(X->line[i].ptr + X->indent[i], X->line[i].len - X->indent[i]); }

/* ---------------------------------------------------------------- comments left out */

static bool comment_line(const ec_lz_side *X, size_t i) { return ec_lz_comment_line(X->line[i]); }

/* Where a triple quote (`"""` or three single quotes) opens a string statement at the start of line i (after an
 * `r`, `u`, `b` or `f` prefix), or 0. */
static size_t docstring_open(const ec_lz_side *X, size_t i) {
  ec_str t = text_at(X, i);
  size_t k = 0;
  while (k < 2 && k < t.len && strchr("rRuUbBfF", t.ptr[k])) k++;
  if (k + 3 > t.len || (t.ptr[k] != '"' && t.ptr[k] != '\'')) return 0;
  return t.ptr[k + 1] == t.ptr[k] && t.ptr[k + 2] == t.ptr[k] ? k + 3 : 0;
}

/* Whether file lines (f1, f2) hold a non-blank line and every one is a comment or a line of a
 * docstring (opened by a triple quote at a line's start, closed by one at a line's end). */
static bool only_comments(ec_lz_job *job, size_t f1, size_t f2) {
  const ec_lz_side *F = &job->F;
  char q = 0; /* inside a docstring opened with this quote */
  bool any = false;
  for (size_t f = f1 + 1; f < f2; f++) {
    if (F->flags[f] & LZ_BLANK) continue;
    job->work++;
    any = true;
    ec_str e = ec_lz_trim(F->line[f]);
    size_t o = q ? 0 : docstring_open(F, f);
    if (!q && !o) {
      if (!comment_line(F, f)) return false;
      continue;
    }
    if (o) q = e.ptr[o - 1];
    if (e.len >= o + 3 && e.ptr[e.len - 1] == q && e.ptr[e.len - 2] == q && e.ptr[e.len - 3] == q) q = 0;
  }
  return any && !q;
}

/* Whether segment s writes a comment or docstring line (markers aside). */
static bool writes_comments(ec_lz_job *job, size_t s) {
  const ec_lz_side *S = &job->S;
  for (uint32_t j = job->seg[s].j0; j < job->seg[s].j1; j++)
    if (!(S->flags[j] & (LZ_BLANK | LZ_MARKER)) && (comment_line(S, j) || docstring_open(S, j))) return true;
  return false;
}

/* ---------------------------------------------------------------- an old copy kept beside the call */

/* Whether R line `call`, written new, calls a function the snippet defines (its name right before a
 * `(`) whose body (the lines below the definition indented deeper) holds R line `kept`, a strong
 * file line a marker keeps, or an edited version of it. The snippet is read once for each segment
 * that ends on a new line with a strong kept line after it, within *budget lines read in all
 * (ec_lz_check_left_out's): past it the question is not asked. */
static bool moved_copy_kept(ec_lz_job *job, const ec_lz_rview *v, size_t call, size_t kept, size_t *budget) {
  const ec_lz_side *S = &job->S;
  if (v->rfile[call] != EC_LZ_NONE || kept >= v->nr || v->rblk[kept] != EC_LZ_NONE || v->rfile[kept] == EC_LZ_NONE) return false;
  uint32_t f = v->rfile[kept];
  ec_str c = v->r[call].line, name;
  uint64_t key;
  if (job->F.flags[f] & LZ_WEAK) return false;
  for (uint32_t d = 0; d < S->n && *budget; d++) {
    job->work++;
    --*budget;
    if ((S->flags[d] & (LZ_BLANK | LZ_MARKER)) || S->key[d] == v->r[call].key || !ec_lz_definition(job, S->line[d], false, &name, &key) || !name.len)
      continue;
    const char *p = memmem(c.ptr, c.len, name.ptr, name.len);
    if (!p || p + name.len >= c.ptr + c.len || p[name.len] != '(' || (p > c.ptr && ec_lz_name_char((unsigned char)p[-1]))) continue;
    for (uint32_t b = d + 1; b < S->n && *budget && ((S->flags[b] & LZ_BLANK) || S->indent[b] > S->indent[d]); b++, --*budget)
      if (!(S->flags[b] & LZ_BLANK) && (S->key[b] == job->F.key[f] || ec_lz_edited(S->line[b], job->F.line[f]))) return true;
  }
  return false;
}

ec_error_code ec_lz_check_left_out(ec_lz_job *job, const ec_lz_rview *v) {
  /* (g) reads the snippet once for each segment it asks about: 4 readings' worth in all (and 64 Ki
   * lines), so a snippet of thousands of segments stays linear; past it the question is not asked. */
  size_t budget = 4 * (size_t)job->S.n + 65536;
  for (size_t s = 0; s < job->nseg_parsed; s++) {
    if (v->rb[s] == SIZE_MAX) continue;
    /* (f) A segment that writes comments of its own removes the others on purpose. */
    size_t prev = SIZE_MAX; /* the segment's previous non-blank R line */
    bool writes = writes_comments(job, s);
    for (size_t r = v->rb[s]; r <= v->re[s] && !writes; r++) {
      if (v->r[r].blank) continue;
      size_t p = prev;
      prev = r;
      /* The file lines between two block lines are in no other place of R: blocks and gaps rise
       * through the file. */
      if (p == SIZE_MAX || v->rfile[p] == EC_LZ_NONE || v->rfile[r] == EC_LZ_NONE || !only_comments(job, v->rfile[p], v->rfile[r])) continue;
      size_t f = v->rfile[p] + 1;
      while (job->F.flags[f] & LZ_BLANK) f++; /* the first comment line, to name */
      return ec_lz_fail_check(job, EC_AMBIGUOUS, s, (uint32_t)f + 1, v->rfile[r],
                              "between two of its lines the file has only comments: removed, or not shown?", job->F.line[f]);
    }
    /* (g) The segment's last line and the line a marker keeps right after it. */
    size_t last = v->re[s], kept = v->re[s] + 1;
    while (last > v->rb[s] && v->r[last].blank) last--;
    while (kept < v->nr && v->r[kept].blank) kept++;
    if (job->seg[s].marker_after && moved_copy_kept(job, v, last, kept, &budget))
      return ec_lz_fail_check(job, EC_AMBIGUOUS, s, v->rfile[kept] + 1, v->rfile[kept] + 1,
                              "a line its marker keeps beside a call is in the called helper's body: replaced, or kept?", v->r[kept].line);
  }
  return EC_OK;
}
