/*
 * Diff-style snippets: lines prefixed `+` (new), `-` (old) or a space (context), hunks separated
 * by markers or `@@` lines. Each hunk's old side (context and `-` lines, compared trimmed) must
 * occur exactly once in the file below the previous hunk; `+` lines are re-indented like the
 * context line nearest above them (below, at the top of a hunk). A `+ ` prefix (plus and a
 * space) is recognised by where the lines would land: see the shift rule at the end.
 * When the hunks cannot be read so (place_fallback): hunks that each occur once and do not
 * overlap go to their places in any order (a model editing a later function first), and a hunk
 * with several places is placed between its neighbours — as the closing line of an opener shown
 * above it, or by its exact indentation. Inside a hunk a context line may be an edited version
 * of the file line it stands on (edited_context). Every result still passes the self-check.
 */
#include "lazy.h"
#include "../base/buf.h"
#include "../base/str.h"
#include <stdlib.h>

static ec_str lead_ws(ec_str l) {
  size_t k = 0;
  while (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
  return ec_str_make(l.ptr, k);
}

/* One located hunk: snippet lines [h0, h1), its old side old[ob, oe) at file lines
 * [start, start + flen) (blank lines need not agree: the span may hold more or fewer). */
typedef struct hunk_t {
  size_t h0, h1, ob, oe, old0, start, flen;
} hunk_t;

/* A line whose `+` was inferred (a context line the file does not have, next to `+` lines),
 * read again as context when its hunk is not in the file so (reread_inferred), standing where
 * the file has a line it reads as an edited version of (ec_lz_edited), between two old lines
 * that are the file's: the model edited the line and left off its `-`/`+` (`"w={} h={}",`
 * written `"w={} h={}{}",`). It takes that file line's place: the file line goes, the snippet's
 * line is written. Not an abbreviated copy (`...`), and never a context line away from `+`
 * lines (its `+` is not inferred: a mis-copied line there is declined, not written). A context
 * line next to a `+` line that the model mis-copied is written: it cannot be told from an edit
 * whose prefix was left off, and the hunk's other old lines still pin its place. */
static bool edited_context(const ec_lz_job *job, size_t j, size_t f) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  if (job->S.op[j] != ' ' || !(S->flags[j] & LZ_INFERRED) || (S->flags[j] & LZ_BLANK) || (F->flags[f] & LZ_BLANK) ||
      (F->flags[f] & LZ_WEAK))
    return false;
  uint32_t cnt;
  ec_lz_side_first(F, S->key[j], &cnt);
  if (cnt || !ec_lz_edited(S->line[j], F->line[f])) return false;
  /* An abbreviated copy (`foo(a, ...)`) is no edit to write. */
  return !ec_lz_has_ellipsis(S->line[j]) || ec_lz_has_ellipsis(F->line[f]);
}

/* Whether the old side ho[ob, oe), its line kk found at file line i, is consecutive file lines
 * there, blank lines aside on both sides (a blank line the snippet adds or leaves out in its
 * context is spacing); sets the file span [*start, *end). Inside the side (not at its ends), a
 * context line may be an edited version of the file line it stands on (edited_context), at most
 * one for every two old lines that are the file's. */
static bool old_side_at(const ec_lz_job *job, const uint32_t *ho, size_t ob, size_t oe, size_t kk, size_t i, size_t *start, size_t *end) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  size_t first = ob, last = oe; /* the side's first and last non-blank lines */
  while (first < oe && (S->flags[ho[first]] & LZ_BLANK)) first++;
  while (last > first && (S->flags[ho[last - 1]] & LZ_BLANK)) last--;
  size_t f = i, same = 1, edited = 0;
  for (size_t k = kk; k-- > ob;) {
    if (S->flags[ho[k]] & LZ_BLANK) continue;
    while (f > 0 && (F->flags[f - 1] & LZ_BLANK)) f--;
    if (!f) return false;
    if (F->key[f - 1] == S->key[ho[k]]) same++;
    else if (k > first && edited_context(job, ho[k], f - 1)) edited++;
    else return false;
    f--;
  }
  *start = f;
  f = i + 1;
  for (size_t k = kk + 1; k < oe; k++) {
    if (S->flags[ho[k]] & LZ_BLANK) continue;
    while (f < F->n && (F->flags[f] & LZ_BLANK)) f++;
    if (f >= F->n) return false;
    if (F->key[f] == S->key[ho[k]]) same++;
    else if (k + 1 < last && edited_context(job, ho[k], f)) edited++;
    else return false;
    f++;
  }
  *end = f;
  return 2 * edited <= same;
}

/* A `+` line's target columns relative to its reference (snippet line sref on file line fref). */
static long new_cols(ec_lz_job *job, size_t k, size_t sref, size_t fref) {
  long d = (long)ec_lz_cols(job->S.line[k], job->si.tab) - (long)ec_lz_cols(job->S.line[sref], job->si.tab);
  long t = (long)ec_lz_cols(job->F.line[fref], job->fi.tab) + ec_lz_map_delta(d, &job->si, &job->fi);
  return t < 0 ? 0 : t;
}

static void put_new(ec_lz_job *job, ec_buf *b, size_t k, size_t sref, size_t fref, long shift) {
  ec_str line = job->S.line[k];
  ec_str ws = lead_ws(line);
  ec_str body = ec_str_make(line.ptr + ws.len, line.len - ws.len);
  if (!ec_lz_trim(body).len) { ec_buf_append_char(b, '\n'); return; }
  ec_str sw = lead_ws(job->S.line[sref]), fw = lead_ws(job->F.line[fref]);
  bool pure = true; /* the line's indentation in one character, the file's */
  for (size_t i = 0; i < ws.len && pure; i++) pure = ws.ptr[i] == (fw.len ? fw.ptr[0] : ws.ptr[0]);
  if (!shift && pure && job->si.tabs == job->fi.tabs && ec_str_eq(sw, fw)) {
    ec_buf_append_line(b, line);
    return;
  }
  bool tabs = fw.len ? fw.ptr[0] == '\t' : job->fi.tabs;
  long t = new_cols(job, k, sref, fref) + shift;
  ec_lz_put_indent(b, t, tabs, job->fi.tab);
  ec_buf_append_line(b, body);
}

/* The references of a hunk's `+` lines: the old line (context or `-`) nearest above, or the
 * hunk's first old line at its top; calls fn(k, sref, fref, arg) for each non-blank `+` line. */
typedef struct shift_t {
  long grid;
  uint32_t n[2], off_plus[2], off_minus[2], plus_space[2], ref_space[2], cont[2];
} shift_t;

/* The `-` line a `+` line rewrites: in a run of `-` then `+` lines, the one at the same place among
 * the run's `-` lines, when the `+` line is that line or an edited version of it. Its own line is
 * then the `+` line's reference: a model that mis-indents one line of a run it rewrites line by
 * line (`-:root {` for the file's `    :root {`) mis-indents its `+` copy alike. visit() keeps
 * the run's place as it goes (m: that `-` line, or past the run's `-` lines), so each line costs
 * one step. */
static bool rewrites(const ec_lz_side *S, size_t m, size_t k) {
  return S->op[m] == '-' && (S->key[m] == S->key[k] || ec_lz_edited(S->line[k], S->line[m]));
}

static void visit(ec_lz_job *job, const hunk_t *h, const uint32_t *old, shift_t *st, ec_buf *b, const long *shift) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t sref = old[h->old0 + h->ob], fref = h->start, fi = h->start, k_old = 0;
  bool seen_new = false;
  size_t last_new = h->h0, last_text = h->h0; /* after the hunk's last `+` line, its last non-blank line */
  for (size_t k = h->h0; k < h->h1; k++) {
    if (S->op[k] == '+') last_new = k + 1;
    if (!(S->flags[k] & LZ_BLANK)) last_text = k + 1;
  }
  size_t m = 0; /* the `-` line at this `+` line's place in its run (rewrites) */
  char prev_old = 0; /* the last non-blank old line's op */
  for (size_t k = h->h0; k < h->h1; k++) {
    if (S->op[k] == '+') {
      seen_new = true;
      if (k == h->h0 || S->op[k - 1] != '+') /* a run's first `+` line: the `-` lines right above it */
        for (m = k; m > h->h0 && S->op[m - 1] == '-';) m--;
      else m++;
      size_t rs = sref, rf = fref; /* this line's reference */
      if (m < k && rewrites(S, m, k) && job->am[m] >= 0) rs = m, rf = (size_t)job->am[m];
      int g = S->op[rs] == '-';
      /* A line whose `+` was inferred was written as context: its prefix is the context's. */
      bool as_context = (S->flags[k] & LZ_INFERRED) != 0;
      if (b) {
        /* A new blank line that ends the hunk, where the file's line after the hunk is blank too:
         * that spacing is there already (else two blank lines). */
        size_t fe = h->start + h->flen;
        if ((S->flags[k] & LZ_BLANK) && k >= last_text && fe < F->n && (F->flags[fe] & LZ_BLANK)) continue;
        put_new(job, b, k, rs, rf, (S->flags[k] & LZ_BLANK) || as_context ? 0 : shift[g]);
        continue;
      }
      if ((S->flags[k] & LZ_BLANK) || as_context) continue;
      /* A block comment's `*` line sits one column right of the line opening the comment: no evidence. */
      ec_str tk = ec_lz_trim(S->line[k]);
      if (tk.len && tk.ptr[0] == '*') continue;
      long t = new_cols(job, k, rs, rf), r = t % st->grid;
      st->n[g]++;
      size_t pk = k;
      while (pk > h->h0 && (S->flags[pk - 1] & LZ_BLANK)) pk--;
      if (pk > h->h0 && ec_lz_bracket_net(S->line[pk - 1]) > 0) st->cont[g]++; /* may be aligned to a bracket */
      if (r == 1) st->off_plus[g]++;
      if (r == st->grid - 1) st->off_minus[g]++;
      if (S->line[k].len && S->line[k].ptr[0] == ' ') st->plus_space[g]++;
      if (S->line[rs].len && S->line[rs].ptr[0] == ' ') st->ref_space[g]++;
      continue;
    }
    size_t idx = k_old++;
    if (idx < h->ob || idx >= h->oe) {
      /* Blank context between the hunk's new lines and its old lines (or between new lines) is
       * spacing the snippet writes there; at the hunk's outer ends the file's own spacing stays. */
      if (b && S->op[k] == ' ' && (idx < h->ob ? seen_new : k < last_new)) ec_buf_append_char(b, '\n');
      continue;
    }
    size_t fend = h->start + h->flen;
    if (S->flags[k] & LZ_BLANK) {
      /* A blank old line: the file's blank line there, or spacing the snippet adds. */
      if (fi < fend && (F->flags[fi] & LZ_BLANK)) {
        size_t fl = fi++;
        if (b && S->op[k] == ' ') { ec_buf_append_line(b, F->line[fl]); }
      } else if (b && S->op[k] == ' ') ec_buf_append_char(b, '\n');
      continue;
    }
    /* The file's own blank lines the snippet left out stay, but between two lines it removes:
     * they go with the run they stand in (`-` lines that skip a function's blank lines). */
    bool in_removed = S->op[k] == '-' && prev_old == '-';
    while (fi < fend && (F->flags[fi] & LZ_BLANK)) {
      if (b && !in_removed) { ec_buf_append_line(b, F->line[fi]); }
      fi++;
    }
    prev_old = S->op[k];
    size_t fl = fi++;
    job->am[k] = (int32_t)fl; /* the file line an old line stands on (am is no anchor map here) */
    if (b && S->op[k] == ' ') {
      if (S->key[k] != F->key[fl]) { /* an edited context line: the snippet's text, the file line's indentation */
        put_new(job, b, k, k, fl, 0);
        sref = k;
        fref = fl;
        continue;
      }
      ec_buf_append_line(b, F->line[fl]);
    }
    sref = k;
    fref = fl;
  }
}

/* One part of the snippet between markers: snippet lines [h0, h1), its old side (context and
 * `-` lines) old[old0, old0 + nold), searched without blank context at its ends: [ob, oe). */
typedef struct part_t {
  size_t h0, h1, old0, ob, oe;
  bool change;            /* holds a `+` or `-` line (else: context only, an anchor) */
  size_t hunk;            /* 0-based hunk number when change */
  size_t start, end;      /* placed file span [start, end); SIZE_MAX: not placed */
} part_t;

/* Where an old side occurs: spans lying inside [lo, hi). */
typedef struct where_t {
  size_t n, first, first_end, second, before;
} where_t;

/* Whether the old side placed at file line `start` has each non-blank line indented exactly as
 * the file line it stands for. */
static bool old_side_exact(const ec_lz_job *job, const uint32_t *ho, size_t ob, size_t oe, size_t start) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  size_t f = start;
  for (size_t k = ob; k < oe; k++) {
    if (S->flags[ho[k]] & LZ_BLANK) continue;
    while (f < F->n && (F->flags[f] & LZ_BLANK)) f++;
    if (f >= F->n || !ec_str_eq(lead_ws(S->line[ho[k]]), lead_ws(F->line[f]))) return false;
    f++;
  }
  return true;
}

/* Whether a placed part's first (or last) non-blank old line is indented exactly as its file line. */
static bool edge_exact(const ec_lz_job *job, const part_t *q, const uint32_t *old, bool last) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  const uint32_t *ho = old + q->old0;
  size_t k = last ? q->oe : q->ob, f = last ? q->end : q->start;
  if (last) {
    while (k > q->ob && (S->flags[ho[k - 1]] & LZ_BLANK)) k--;
    while (f > q->start && (F->flags[f - 1] & LZ_BLANK)) f--;
    if (k == q->ob || f == q->start) return false;
    k--;
    f--;
  } else {
    while (k < q->oe && (S->flags[ho[k]] & LZ_BLANK)) k++;
    while (f < q->end && (F->flags[f] & LZ_BLANK)) f++;
    if (k == q->oe || f == q->end) return false;
  }
  return ec_str_eq(lead_ws(S->line[ho[k]]), lead_ws(F->line[f]));
}

/* Counts the occurrences of a part's old side lying inside file lines [lo, hi) (with `exact`:
 * only those indented exactly as the snippet writes them); `before`: one starting above lo. */
static ec_error_code locate(ec_lz_job *job, const part_t *p, const uint32_t *old, size_t lo, size_t hi, bool exact, where_t *w) {
  ec_lz_side *S = &job->S, *F = &job->F;
  const uint32_t *ho = old + p->old0;
  *w = (where_t){0, SIZE_MAX, 0, SIZE_MAX, SIZE_MAX};
  /* Candidates from the rarest line's chain. */
  size_t best_k = p->ob;
  uint32_t best_cnt = UINT32_MAX;
  for (size_t k = p->ob; k < p->oe; k++) {
    if (S->flags[ho[k]] & LZ_WEAK) continue;
    uint32_t cnt;
    ec_lz_side_first(F, S->key[ho[k]], &cnt);
    if (!cnt && S->op[ho[k]] == ' ') continue; /* perhaps an edited context line: no anchor */
    if (cnt < best_cnt) { best_cnt = cnt; best_k = k; }
  }
  uint32_t cnt;
  for (uint32_t i = ec_lz_side_first(F, S->key[ho[best_k]], &cnt); i != LZ_NIL; i = F->next[i]) {
    job->work += p->oe - p->ob;
    if (job->work > job->work_cap)
      return ec_fail(job->ctx, EC_TOO_LARGE, "the diff-style snippet's lines repeat too often in '%.*s' to place it within the "
                     "request's work budget (options.limits.fuzzy_work, %llu); send the edit as search_replace blocks instead",
                     (int)job->f->path.len, job->f->path.ptr, (unsigned long long)job->work_cap);
    size_t start, end;
    if (!old_side_at(job, ho, p->ob, p->oe, best_k, i, &start, &end)) continue;
    if (start < lo) { w->before = start; continue; }
    if (end > hi) continue;
    if (exact && !old_side_exact(job, ho, p->ob, p->oe, start)) continue;
    if (!w->n) { w->first = start; w->first_end = end; }
    else if (w->n == 1) w->second = start;
    w->n++;
  }
  return EC_OK;
}

/* A part read again with the lines whose `+` was inferred (context lines the file lacks, next to
 * `+` lines) as context (`as_context`), or back as new: when the part is not in the file as
 * inferred, those lines may be edited context lines instead (edited_context), each one standing
 * on the file line it edits. Returns whether the part had such lines. */
static bool reread_inferred(ec_lz_job *job, part_t *q, uint32_t *old, size_t *old_total, bool as_context) {
  ec_lz_side *S = &job->S;
  bool any = false;
  for (size_t k = q->h0; k < q->h1; k++)
    if ((S->flags[k] & LZ_INFERRED) && !(S->flags[k] & LZ_BLANK)) {
      S->op[k] = as_context ? ' ' : '+';
      any = true;
    }
  if (!any || !as_context) return any;
  size_t nold = 0, old0 = *old_total;
  uint32_t *ho = old + old0;
  for (size_t k = q->h0; k < q->h1; k++)
    if (S->op[k] != '+') ho[nold++] = (uint32_t)k;
  size_t ob = 0, oe = nold;
  while (ob < oe && (S->flags[ho[ob]] & LZ_BLANK) && S->op[ho[ob]] == ' ') ob++;
  while (oe > ob && (S->flags[ho[oe - 1]] & LZ_BLANK) && S->op[ho[oe - 1]] == ' ') oe--;
  *old_total += nold;
  q->old0 = old0;
  q->ob = ob;
  q->oe = oe;
  return true;
}

/* Placed hunks never overlap, so their starts differ. */
static int cmp_hunk_start(const void *a, const void *b) {
  /* Ties (two insertions at one line) in snippet order: every build's qsort then sorts alike. */
  const hunk_t *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->h0 < y->h0 ? -1 : x->h0 > y->h0;
}

/* A sort key and an index: ties broken by the index, so every build sorts alike. */
typedef struct keyed_t {
  size_t key, idx;
} keyed_t;

static int cmp_keyed(const void *a, const void *b) {
  const keyed_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* The parsed segments put in file order, for the self-check (each hunk's lines stay together and
 * in order; only the order between hunks, each placed on its own, is the file's). The edges of a
 * reordered snippet count as facing markers: nothing is removed there freely. */
static bool reorder_segments(ec_lz_job *job, const part_t *P, size_t np) {
  size_t ns = job->nseg_parsed;
  keyed_t *ks = ec_arena_alloc(job->a, (ns + 1) * sizeof *ks);
  ec_lz_seg *sg = ec_arena_alloc(job->a, (ns + 1) * sizeof *sg);
  if (!ks || !sg) return false;
  /* Parts and segments come in the same (snippet) order. */
  for (size_t s = 0, i = 0; s < ns; s++) {
    while (i < np && P[i].h0 < job->seg[s].j0) i++;
    ks[s] = (keyed_t){i < np && P[i].h0 == job->seg[s].j0 ? P[i].start : SIZE_MAX, s};
  }
  qsort(ks, ns, sizeof *ks, cmp_keyed);
  for (size_t s = 0; s < ns; s++) sg[s] = job->seg[ks[s].idx];
  memcpy(job->seg, sg, ns * sizeof *sg);
  job->lead_marker = job->trail_marker = true;
  return true;
}

/* The file line of a placed part's old line ho[k] (blank lines aside on both sides, as
 * old_side_at reads them); SIZE_MAX when none. */
static size_t file_line_of(const ec_lz_job *job, const part_t *q, const uint32_t *old, size_t k) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  const uint32_t *ho = old + q->old0;
  size_t f = q->start;
  for (size_t x = q->ob; x < q->oe && f < q->end; x++) {
    if (S->flags[ho[x]] & LZ_BLANK) continue;
    while (f < q->end && (F->flags[f] & LZ_BLANK)) f++;
    if (x == k) return f < q->end ? f : SIZE_MAX;
    f++;
  }
  return SIZE_MAX;
}

/* A part that starts with a closing line (`}`, `end`) right after a marker, below an opener
 * the part above shows (the nearest old line above at the closer's indentation, none shallower
 * between, with deeper lines after it or, last in its part, a bracket left open): the closer is the file line closing that
 * opener's block (ec_lz_file_closer). Returns its occurrence starting there, inside [lo, hi),
 * or SIZE_MAX. */
static size_t closer_place(ec_lz_job *job, const part_t *P, size_t i, const uint32_t *old, size_t lo, size_t hi, size_t *end) {
  ec_lz_side *S = &job->S, *F = &job->F;
  const part_t *q = &P[i];
  const uint32_t *ho = old + q->old0;
  size_t k0 = q->ob;
  while (k0 < q->oe && (S->flags[ho[k0]] & LZ_BLANK)) k0++;
  if (k0 >= q->oe || S->op[ho[k0]] != ' ') return SIZE_MAX;
  size_t j = ho[k0];
  if (!(S->flags[j] & LZ_WEAK) || ec_lz_bracket_net(S->line[j]) > 0 || j == 0 || !(S->flags[j - 1] & LZ_MARKER)) return SIZE_MAX;
  uint32_t d = S->indent[j];
  if (!i) return SIZE_MAX;
  const part_t *a = &P[i - 1]; /* the opener is in the part right above (one walk per part: linear) */
  const uint32_t *ha = old + a->old0;
  size_t below = SIZE_MAX; /* indentation of the next non-blank old line after the one looked at */
  for (size_t x = a->oe; x-- > a->ob;) {
    size_t k = ha[x];
    if ((S->flags[k] & LZ_BLANK) || S->op[k] != ' ') continue;
    if (S->indent[k] < d) return SIZE_MAX;
    if (S->indent[k] == d) {
      /* An opener: deeper lines follow it, or it ends its part (a marker next) with a bracket open. */
      bool opens = below != SIZE_MAX ? below > d : x + 1 == a->oe && ec_lz_bracket_net(S->line[k]) > 0;
      if (!opens || a->start == SIZE_MAX) return SIZE_MAX;
      size_t o = file_line_of(job, a, old, x);
      if (o == SIZE_MAX) return SIZE_MAX;
      size_t c = ec_lz_file_closer(job, o);
      if (job->work > job->work_cap || c >= F->n || c < lo || F->key[c] != S->key[j]) return SIZE_MAX;
      size_t st, en;
      if (!old_side_at(job, ho, q->ob, q->oe, k0, c, &st, &en) || st != c || en > hi) return SIZE_MAX;
      *end = en;
      return st;
    }
    below = S->indent[k];
  }
  return SIZE_MAX;
}

/* For each part, the next part after it that occurs once in the file (np when none). */
static size_t *next_unique(ec_lz_job *job, const where_t *g, size_t np) {
  size_t *nx = ec_arena_alloc(job->a, (np + 1) * sizeof *nx);
  if (!nx) return NULL;
  size_t k = np;
  for (size_t i = np; i-- > 0;) {
    nx[i] = k;
    if (g[i].n == 1) k = i;
  }
  return nx;
}

/* When the hunks cannot be placed one below the other in snippet order, the parts are placed
 * another way, or not at all (*ok false):
 *  - every part (context-only ones too) occurs exactly once in the file and no two overlap: each
 *    goes to its place, in file order (a model editing a later function first);
 *  - else the parts that occur once are in snippet order, and each other part is placed by its
 *    neighbours: its one occurrence between the end of the part placed above it and the start
 *    of the next part that occurs once — or, when the snippet copies the file's indentation
 *    verbatim (every part placed so far), its one occurrence there indented as written (a `}`
 *    at column 0 is a top-level closer, not a nested one). A context-only part that cannot be
 *    placed so only bounds nothing.
 * *permuted: the file order differs from the snippet's. */
static ec_error_code place_fallback(ec_lz_job *job, part_t *P, size_t np, const uint32_t *old, bool *ok, bool *permuted) {
  ec_lz_side *F = &job->F;
  *ok = false;
  *permuted = false;
  where_t *g = ec_arena_alloc(job->a, (np + 1) * sizeof *g);
  keyed_t *ord = ec_arena_alloc(job->a, (np + 1) * sizeof *ord);
  if (!g || !ord) return ec_fail_oom(job->ctx);
  bool all_unique = true;
  for (size_t i = 0; i < np; i++) {
    P[i].start = P[i].end = SIZE_MAX;
    ec_error_code rc = locate(job, &P[i], old, 0, F->n, false, &g[i]);
    if (rc) return rc;
    if (g[i].n != 1) all_unique = false;
  }
  if (all_unique) {
    /* In file order. */
    for (size_t i = 0; i < np; i++) ord[i] = (keyed_t){g[i].first, i};
    qsort(ord, np, sizeof *ord, cmp_keyed);
    for (size_t k = 0; k + 1 < np; k++)
      if (g[ord[k].idx].first_end > g[ord[k + 1].idx].first) return EC_OK; /* two parts overlap */
    for (size_t i = 0; i < np; i++) {
      P[i].start = g[i].first;
      P[i].end = g[i].first_end;
      if (ord[i].idx != i) *permuted = true;
    }
    *ok = true;
    return EC_OK;
  }
  /* The parts that occur once, in snippet order and apart. */
  size_t last_end = 0;
  for (size_t i = 0; i < np; i++) {
    if (g[i].n != 1) continue;
    if (g[i].first < last_end) return EC_OK;
    last_end = g[i].first_end;
    P[i].start = g[i].first;
    P[i].end = g[i].first_end;
  }
  size_t *next1 = next_unique(job, g, np); /* the next part that occurs once (np: none) */
  if (!next1) return ec_fail_oom(job->ctx);
  size_t lo = 0, above = SIZE_MAX;
  for (size_t i = 0; i < np; i++) {
    if (g[i].n == 1) {
      lo = P[i].end;
      above = i;
      continue;
    }
    size_t below = next1[i] < np ? next1[i] : SIZE_MAX, hi = below != SIZE_MAX ? g[below].first : F->n;
    /* The snippet's indentation is the file's here when the lines of the parts placed right
     * around this one are indented as in the file. */
    bool verbatim = (above != SIZE_MAX || below != SIZE_MAX) && (above == SIZE_MAX || edge_exact(job, &P[above], old, true)) &&
                    (below == SIZE_MAX || edge_exact(job, &P[below], old, false));
    where_t w;
    ec_error_code rc = locate(job, &P[i], old, lo, hi, false, &w);
    if (rc) return rc;
    if (w.n > 1) {
      size_t ce, cs = closer_place(job, P, i, old, lo, hi, &ce);
      if (cs != SIZE_MAX) w = (where_t){1, cs, ce, SIZE_MAX, SIZE_MAX};
    }
    if (w.n > 1 && verbatim) {
      rc = locate(job, &P[i], old, lo, hi, true, &w);
      if (rc) return rc;
    }
    if (w.n == 1) {
      P[i].start = w.first;
      P[i].end = lo = w.first_end;
      above = i;
      continue;
    }
    if (P[i].change) return EC_OK;
  }
  *ok = true;
  return EC_OK;
}

/* Hunk h (1-based) found nowhere as the file's consecutive lines; `line`: one of its old lines
 * the file lacks, or its first, named so the agent can check it. */
static ec_error_code hunk_mismatch(ec_lz_job *job, size_t h, uint32_t from, uint32_t to, ec_str line) {
  ec_str t = ec_lz_echo(line);
  return ec_lz_decline(job, EC_NO_MATCH, h - 1, from, to,
                       "hunk %zu of the diff-style snippet does not match '%.*s': its context and `-` lines must be consecutive lines "
                       "of the file (line '%.*s' is not found there or not in that order). Read the file again and copy them exactly.",
                       h, (int)job->f->path.len, job->f->path.ptr, (int)t.len, t.ptr);
}

ec_error_code ec_lz_merge_diff(ec_lz_job *job, ec_str *out) {
  ec_lz_side *S = &job->S, *F = &job->F;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(job->a));
  uint32_t *old = ec_arena_alloc(job->a, (2 * S->n + 1) * sizeof *old); /* room for one re-read of each part */
  part_t *P = ec_arena_alloc(job->a, (S->n + 1) * sizeof *P);
  hunk_t *hs = ec_arena_alloc(job->a, (S->n + 1) * sizeof *hs);
  if (!old || !P || !hs) return ec_fail_oom(job->ctx);
  size_t np = 0, hunk = 0, j = 0, old_total = 0;
  int pn = (int)job->f->path.len;
  const char *p = job->f->path.ptr;
  /* The parts: hunks (with a `+` or `-` line) and context-only parts (anchors). */
  while (j < S->n) {
    if (S->flags[j] & LZ_MARKER) { j++; continue; }
    size_t h0 = j;
    while (j < S->n && !(S->flags[j] & LZ_MARKER)) j++;
    size_t h1 = j, nold = 0, old0 = old_total;
    uint32_t *ho = old + old0;
    bool change = false;
    for (size_t k = h0; k < h1; k++) {
      if (S->op[k] != '+') ho[nold++] = (uint32_t)k;
      if (S->op[k] != ' ') change = true;
    }
    /* Blank context at the part's ends says nothing; drop it from the search. */
    size_t ob = 0, oe = nold;
    while (ob < oe && (S->flags[ho[ob]] & LZ_BLANK) && S->op[ho[ob]] == ' ') ob++;
    while (oe > ob && (S->flags[ho[oe - 1]] & LZ_BLANK) && S->op[ho[oe - 1]] == ' ') oe--;
    if (!change && oe == ob) continue;
    old_total += nold;
    if (change) hunk++;
    if (oe == ob)
      return ec_lz_decline(job, EC_NO_MATCH, hunk - 1, 0, 0,
                           "hunk %zu of the diff-style snippet has only `+` lines, so nothing says where they go in '%.*s'; include an unchanged "
                           "line from the file (with a leading space) above or below them.", hunk, pn, p);
    P[np++] = (part_t){h0, h1, old0, ob, oe, change, change ? hunk - 1 : SIZE_MAX, SIZE_MAX, SIZE_MAX};
  }
  if (!hunk) return ec_fail(job->ctx, EC_NOOP, "the diff-style snippet has no `+` or `-` lines, so it changes nothing in '%.*s'", pn, p);
  /* First reading: each hunk at its one occurrence below the previous hunk (context-only parts
   * aside). */
  size_t c = 0, fail = SIZE_MAX;
  where_t fw = {0};
  for (size_t i = 0; i < np && fail == SIZE_MAX; i++) {
    if (!P[i].change) continue;
    ec_error_code rc = locate(job, &P[i], old, c, F->n, false, &fw);
    if (rc) return rc;
    if (!fw.n && fw.before == SIZE_MAX) {
      /* Not in the file: perhaps the lines whose `+` was inferred are edited context lines. */
      part_t keep = P[i];
      if (reread_inferred(job, &P[i], old, &old_total, true)) {
        rc = locate(job, &P[i], old, c, F->n, false, &fw);
        if (rc) return rc;
        if (fw.n != 1) {
          reread_inferred(job, &P[i], old, &old_total, false);
          P[i] = keep;
          rc = locate(job, &P[i], old, c, F->n, false, &fw);
          if (rc) return rc;
        }
      }
    }
    if (fw.n != 1) { fail = i; break; }
    P[i].start = fw.first;
    P[i].end = c = fw.first_end;
  }
  bool permuted = false;
  if (fail != SIZE_MAX) {
    bool ok;
    ec_error_code rc = place_fallback(job, P, np, old, &ok, &permuted);
    if (rc) return rc;
    if (!ok) {
      /* The first reading's reason. */
      const part_t *q = &P[fail];
      size_t h = q->hunk + 1, width = q->oe - q->ob;
      if (fw.n > 1) {
        ec_lz_decline(job, EC_AMBIGUOUS, h - 1, (uint32_t)fw.first + 1, (uint32_t)(fw.first + width),
                      "hunk %zu of the diff-style snippet matches %zu places in '%.*s' (lines %zu, %zu...); nothing was changed. Include "
                      "more unchanged lines around the change.", h, fw.n, pn, p, fw.first + 1, fw.second + 1);
        ec_lz_add_candidate(job, (uint32_t)fw.second + 1, (uint32_t)(fw.second + width));
        return EC_AMBIGUOUS;
      }
      if (fw.before != SIZE_MAX)
        return ec_lz_decline(job, EC_NO_MATCH, h - 1, (uint32_t)fw.before + 1, (uint32_t)(fw.before + width),
                             "hunk %zu of the diff-style snippet matches line %zu of '%.*s', above the previous hunk, and the hunks cannot "
                             "be placed apart in another order: send the hunks in file order.",
                             h, fw.before + 1, pn, p);
      /* Name the first old line that is not in the file. */
      const uint32_t *ho = old + q->old0;
      size_t miss = q->ob;
      for (size_t k = q->ob; k < q->oe; k++) {
        uint32_t cc;
        if (S->flags[ho[k]] & LZ_BLANK) continue; /* blank lines need not be in the file */
        ec_lz_side_first(F, S->key[ho[k]], &cc);
        if (!cc) { miss = k; break; }
      }
      return hunk_mismatch(job, h, 0, 0, S->line[ho[miss]]);
    }
  }
  /* The hunks in file order. */
  size_t nh = 0;
  for (size_t i = 0; i < np; i++) {
    if (!P[i].change) continue;
    hs[nh++] = (hunk_t){P[i].h0, P[i].h1, P[i].ob, P[i].oe, P[i].old0, P[i].start, P[i].end - P[i].start};
    /* Every non-blank old line stands on a non-blank file line of the span (visit writes over
     * them in order): a span placed with fewer is no reading of the hunk (fuzz_lazy found a
     * control character read as the file's blank line; visit then read past the file's end). */
    size_t want = 0, have = 0;
    for (size_t k = P[i].ob; k < P[i].oe; k++) want += !(S->flags[old[P[i].old0 + k]] & LZ_BLANK);
    for (size_t f = P[i].start; f < P[i].end; f++) have += !(F->flags[f] & LZ_BLANK);
    if (want > have)
      return hunk_mismatch(job, P[i].hunk + 1, (uint32_t)P[i].start + 1, (uint32_t)P[i].end, S->line[old[P[i].old0 + P[i].ob]]);
    size_t h = P[i].hunk;
    if (h <= job->nseg && job->rep) {
      job->rep[h].start_line = (uint32_t)P[i].start + 1;
      job->rep[h].end_line = (uint32_t)P[i].end;
      job->rep[h].strategy = EC_STRATEGY_INDENT;
      job->rep[h].confidence = 1.0;
    }
  }
  if (permuted) {
    qsort(hs, nh, sizeof *hs, cmp_hunk_start);
    if (!reorder_segments(job, P, np)) return ec_fail_oom(job->ctx);
  }
  /* The `+` prefix width, decided once for the snippet: when every `+` line written after a
   * reference of one kind (context or `-`) lands one column off the file's indentation grid the
   * same way, and the prefix explains it (`+ ` with a space, or a `- ` reference), the width
   * was two, not one. */
  long shift[2] = {0, 0};
  shift_t st;
  memset(&st, 0, sizeof st);
  st.grid = job->fi.tabs ? (long)job->fi.tab : (long)job->fi.unit;
  if (st.grid >= 2) {
    for (size_t h = 0; h < nh; h++) visit(job, &hs[h], old, &st, NULL, shift);
    for (int g = 0; g < 2; g++) {
      if (!st.n[g] || (st.n[g] == 1 && st.cont[g])) continue; /* one line after an open bracket: alignment, not a prefix */
      if (st.off_plus[g] == st.n[g] && st.plus_space[g] == st.n[g]) shift[g] = -1;
      else if (st.off_minus[g] == st.n[g] && st.ref_space[g] == st.n[g] && st.plus_space[g] == 0) shift[g] = 1;
    }
  }
  c = 0;
  for (size_t h = 0; h < nh; h++) {
    for (size_t i = c; i < hs[h].start; i++) { ec_buf_append_line(&b, F->line[i]); }
    visit(job, &hs[h], old, &st, &b, shift);
    c = hs[h].start + hs[h].flen;
  }
  for (size_t i = c; i < F->n; i++) { ec_buf_append_line(&b, F->line[i]); }
  ec_str res = ec_buf_finish(&b, job->a);
  if (!res.ptr) return ec_fail_oom(job->ctx);
  if (!job->file_final_lf && res.len && res.ptr[res.len - 1] == '\n') res.len--;
  *out = res;
  job->nseg = hunk;
  return EC_OK;
}
