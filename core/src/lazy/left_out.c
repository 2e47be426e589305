#define _GNU_SOURCE 1 /* memmem */
/*
 * Two readings of what a snippet shows, checked on every result R after the invariants (issue 30,
 * ninth pass; docs/lazy.md, "Issue 30, ninth pass"). Each asks whether R keeps or removes file
 * lines the snippet said nothing about, where both answers are readings of the snippet:
 *
 *  - Comments left out. Two consecutive snippet lines are both lines of the file, and every file
 *    line R removes between them is a comment or a docstring (at least one, no code): the snippet
 *    shows the code as it is and only leaves the comments out (a function re-emitted whole without
 *    its 117-line docstring). Removed on purpose, or not shown? Declined.
 *  - Code moved into a helper, its old copy kept. A segment's new last line (first line) calls a
 *    function the snippet defines, and the line a marker keeps right after it (before it) is a
 *    line of that function's body, or an edited version of one (`setHtmlContentType(res);` over a
 *    kept `res.setHeader('Content-Type', 'text/html');`, the helper's body setting the same
 *    header): R would run it twice. Replace it or keep it? Declined.
 */
#include "lazy.h"
#include "../base/str.h"
#include <string.h>

/* ---------------------------------------------------------------- comments left out */

/* A `#` comment: `#` alone or before a space or another `#`. Not `#include`, `#define`, `#[derive]`
 * nor `#!`: a preprocessor line or an attribute is code. */
static bool comment_line(ec_str t) {
  if (t.len && t.ptr[0] == '#') return t.len == 1 || t.ptr[1] == ' ' || t.ptr[1] == '#';
  return ec_lz_owner_skip(t);
}

/* Where a triple quote (`"""`, `'''`) opens a string statement on trimmed line t (after an
 * `r`, `u`, `b` or `f` prefix), or 0 when the line does not start with one. */
static size_t docstring_open(ec_str t) {
  size_t k = 0;
  while (k < 2 && k < t.len && strchr("rRuUbBfF", t.ptr[k])) k++;
  if (k + 3 > t.len || (t.ptr[k] != '"' && t.ptr[k] != '\'')) return 0;
  return t.ptr[k + 1] == t.ptr[k] && t.ptr[k + 2] == t.ptr[k] ? k + 3 : 0;
}

/* Whether file lines (f1, f2) hold a non-blank line and every one of them is a comment or a line
 * of a docstring (a string statement opened by a triple quote at the line's start). */
static bool only_comments(ec_lz_job *job, size_t f1, size_t f2) {
  const ec_lz_side *F = &job->F;
  char quote = 0; /* inside a docstring opened with this quote character */
  bool any = false;
  for (size_t f = f1 + 1; f < f2; f++) {
    job->work++;
    ec_str t = ec_lz_trim(F->line[f]);
    if (!t.len) continue;
    any = true;
    size_t o = 0;
    if (!quote && !(o = docstring_open(t))) {
      if (!comment_line(t)) return false;
      continue;
    }
    char q = quote ? quote : t.ptr[o - 1];
    char close[4] = {q, q, q, 0};
    ec_str rest = ec_str_make(t.ptr + o, t.len - o);
    bool closed = false;
    for (size_t i = 0; i + 3 <= rest.len && !closed; i++) closed = !memcmp(rest.ptr + i, close, 3);
    quote = closed ? 0 : q;
  }
  return any && !quote;
}

/* Whether segment s writes a comment or docstring line (markers aside). */
static bool writes_comments(ec_lz_job *job, size_t s) {
  const ec_lz_side *S = &job->S;
  for (uint32_t j = job->seg[s].j0; j < job->seg[s].j1; j++) {
    ec_str t = ec_lz_trim(S->line[j]);
    if (t.len && !(S->flags[j] & LZ_MARKER) && (comment_line(t) || docstring_open(t))) return true;
  }
  return false;
}

static ec_error_code comments_left_out(ec_lz_job *job, const ec_lz_rview *v, const uint8_t *in_r) {
  for (size_t s = 0; s < job->nseg_parsed; s++) {
    /* A segment that writes comments of its own removes the others on purpose. */
    if (v->rb[s] == SIZE_MAX || writes_comments(job, s)) continue;
    size_t prev = SIZE_MAX; /* the segment's previous non-blank R line */
    for (size_t r = v->rb[s]; r <= v->re[s]; r++) {
      if (v->r[r].blank) continue;
      size_t p = prev;
      prev = r;
      if (p == SIZE_MAX || v->rfile[p] == EC_LZ_NONE || v->rfile[r] == EC_LZ_NONE || v->rfile[r] <= v->rfile[p] + 1) continue;
      size_t f1 = v->rfile[p], f2 = v->rfile[r], f = f1 + 1;
      while (f < f2 && !in_r[f]) f++;
      if (f < f2 || !only_comments(job, f1, f2)) continue;
      f = f1 + 1;
      while (job->F.flags[f] & LZ_BLANK) f++; /* the first comment line, to name */
      return ec_lz_fail_check(job, EC_AMBIGUOUS, s, (uint32_t)f1 + 2, (uint32_t)f2,
                              "two of its lines are the file's own, and the file's lines between them are only comments: removed, "
                              "or only not shown? Show them, or put a marker there",
                              job->F.line[f]);
    }
  }
  return EC_OK;
}

/* ---------------------------------------------------------------- an old copy kept beside the call */

/* The snippet's definition lines (invariant (b)'s reading), found once per result when first
 * asked for: the check then costs one pass over the snippet, not one a segment. */
typedef struct defs_t {
  uint32_t *j;
  ec_str *name;
  size_t n;
  bool built;
} defs_t;

static bool build_defs(ec_lz_job *job, defs_t *d) {
  const ec_lz_side *S = &job->S;
  d->built = true;
  d->j = ec_arena_alloc(job->a, (S->n + 1) * sizeof *d->j);
  d->name = ec_arena_alloc(job->a, (S->n + 1) * sizeof *d->name);
  if (!d->j || !d->name) return false;
  uint64_t key;
  for (uint32_t j = 0; j < S->n; j++)
    if (!(S->flags[j] & (LZ_BLANK | LZ_MARKER)) && ec_lz_definition(job, S->line[j], false, &d->name[d->n], &key) && d->name[d->n].len)
      d->j[d->n++] = j;
  return true;
}

/* Whether `call` calls `name` (the name, not inside a longer one, right before a `(`). */
static bool calls(ec_str call, ec_str name) {
  for (const char *p = call.ptr, *e = call.ptr + call.len; (p = memmem(p, (size_t)(e - p), name.ptr, name.len)); p += name.len)
    if ((p == call.ptr || !ec_lz_name_char((unsigned char)p[-1])) && p + name.len < e && p[name.len] == '(') return true;
  return false;
}

/* Whether the body of the function snippet line j defines (the lines below j indented deeper)
 * holds `kept` or an edited version of it. */
static bool body_holds(ec_lz_job *job, uint32_t j, ec_str kept) {
  const ec_lz_side *S = &job->S;
  uint32_t col = ec_lz_cols(S->line[j], job->fi.tab);
  for (uint32_t b = j + 1; b < S->n; b++) {
    job->work++;
    if (S->flags[b] & LZ_BLANK) continue;
    if (ec_lz_cols(S->line[b], job->fi.tab) <= col) break;
    if (ec_str_eq(ec_lz_trim(S->line[b]), ec_lz_trim(kept)) || ec_lz_edited(S->line[b], kept)) return true;
  }
  return false;
}

/* Whether R line `call` (written new) calls a function the snippet defines whose body holds R
 * line `kept` (a strong file line a marker keeps) or an edited version of it. */
static bool moved_copy_kept(ec_lz_job *job, const ec_lz_rview *v, defs_t *d, size_t call, size_t kept) {
  if (v->rfile[call] != EC_LZ_NONE || kept >= v->nr || v->rblk[kept] != EC_LZ_NONE || v->rfile[kept] == EC_LZ_NONE ||
      (job->F.flags[v->rfile[kept]] & LZ_WEAK))
    return false;
  ec_str c = v->r[call].line;
  if (!memchr(c.ptr, '(', c.len) || (!d->built && !build_defs(job, d))) return false;
  for (size_t i = 0; i < d->n; i++)
    if (calls(c, d->name[i]) && !ec_str_eq(ec_lz_trim(job->S.line[d->j[i]]), ec_lz_trim(c)) && body_holds(job, d->j[i], v->r[kept].line))
      return true;
  return false;
}

static ec_error_code copy_kept_beside_call(ec_lz_job *job, const ec_lz_rview *v) {
  defs_t d = {0};
  for (size_t s = 0; s < job->nseg_parsed; s++) {
    if (v->rb[s] == SIZE_MAX) continue;
    size_t last = v->re[s], first = v->rb[s], after = v->re[s] + 1, before = v->rb[s];
    while (last > v->rb[s] && v->r[last].blank) last--;
    while (first < v->re[s] && v->r[first].blank) first++;
    while (after < v->nr && v->r[after].blank) after++;
    while (before > 0 && v->r[before - 1].blank) before--;
    size_t kept = SIZE_MAX;
    if (job->seg[s].marker_after && moved_copy_kept(job, v, &d, last, after)) kept = after;
    else if (job->seg[s].marker_before && before > 0 && moved_copy_kept(job, v, &d, first, before - 1)) kept = before - 1;
    if (kept != SIZE_MAX)
      return ec_lz_fail_check(job, EC_AMBIGUOUS, s, v->rfile[kept] + 1, v->rfile[kept] + 1,
                              "it calls a function it defines whose body holds (or edits) the file's line that its marker keeps "
                              "beside the call: is that line replaced by the call, or kept?",
                              v->r[kept].line);
  }
  if (d.built && (!d.j || !d.name)) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  return EC_OK;
}

ec_error_code ec_lz_check_left_out(ec_lz_job *job, const ec_lz_rview *v) {
  uint8_t *in_r = ec_arena_alloc(job->a, job->F.n + 1);
  if (!in_r) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  memset(in_r, 0, job->F.n + 1);
  for (size_t r = 0; r < v->nr; r++)
    if (v->rfile[r] != EC_LZ_NONE) in_r[v->rfile[r]] = 1;
  ec_error_code rc = comments_left_out(job, v, in_r);
  return rc ? rc : copy_kept_beside_call(job, v);
}
