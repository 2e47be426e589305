/*
 * Diff-style snippets: lines prefixed `+` (new), `-` (old) or a space (context), hunks separated
 * by markers or `@@` lines. Each hunk's old side (context and `-` lines, compared trimmed) must
 * occur exactly once in the file below the previous hunk; `+` lines are re-indented like the
 * context line nearest above them (below, at the top of a hunk). A `+ ` prefix (plus and a
 * space) is recognised by where the lines would land: see the shift rule at the end.
 */
#include "lazy.h"
#include "../base/buf.h"
#include "../base/str.h"

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

/* Whether the old side ho[ob, oe), its line kk found at file line i, is consecutive file lines
 * there, blank lines aside on both sides (a blank line the snippet adds or leaves out in its
 * context is spacing); sets the file span [*start, *end). */
static bool old_side_at(const ec_lz_job *job, const uint32_t *ho, size_t ob, size_t oe, size_t kk, size_t i, size_t *start, size_t *end) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  size_t f = i;
  for (size_t k = kk; k-- > ob;) {
    if (S->flags[ho[k]] & LZ_BLANK) continue;
    while (f > 0 && (F->flags[f - 1] & LZ_BLANK)) f--;
    if (!f || F->key[f - 1] != S->key[ho[k]]) return false;
    f--;
  }
  *start = f;
  f = i + 1;
  for (size_t k = kk + 1; k < oe; k++) {
    if (S->flags[ho[k]] & LZ_BLANK) continue;
    while (f < F->n && (F->flags[f] & LZ_BLANK)) f++;
    if (f >= F->n || F->key[f] != S->key[ho[k]]) return false;
    f++;
  }
  *end = f;
  return true;
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
    ec_buf_append_str(b, line);
    ec_buf_append_char(b, '\n');
    return;
  }
  bool tabs = fw.len ? fw.ptr[0] == '\t' : job->fi.tabs;
  long t = new_cols(job, k, sref, fref) + shift;
  ec_lz_put_indent(b, t, tabs, job->fi.tab);
  ec_buf_append_str(b, body);
  ec_buf_append_char(b, '\n');
}

/* The references of a hunk's `+` lines: the old line (context or `-`) nearest above, or the
 * hunk's first old line at its top; calls fn(k, sref, fref, arg) for each non-blank `+` line. */
typedef struct shift_t {
  long grid;
  uint32_t n[2], off_plus[2], off_minus[2], plus_space[2], ref_space[2], cont[2];
} shift_t;

static void visit(ec_lz_job *job, const hunk_t *h, const uint32_t *old, shift_t *st, ec_buf *b, const long *shift) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t sref = old[h->old0 + h->ob], fref = h->start, fi = h->start, k_old = 0;
  for (size_t k = h->h0; k < h->h1; k++) {
    if (S->op[k] == '+') {
      int g = S->op[sref] == '-';
      if (b) {
        put_new(job, b, k, sref, fref, (S->flags[k] & LZ_BLANK) ? 0 : shift[g]);
        continue;
      }
      if (S->flags[k] & LZ_BLANK) continue;
      long t = new_cols(job, k, sref, fref), r = t % st->grid;
      st->n[g]++;
      size_t pk = k;
      while (pk > h->h0 && (S->flags[pk - 1] & LZ_BLANK)) pk--;
      if (pk > h->h0 && ec_lz_bracket_net(S->line[pk - 1]) > 0) st->cont[g]++; /* may be aligned to a bracket */
      if (r == 1) st->off_plus[g]++;
      if (r == st->grid - 1) st->off_minus[g]++;
      if (S->line[k].len && S->line[k].ptr[0] == ' ') st->plus_space[g]++;
      if (S->line[sref].len && S->line[sref].ptr[0] == ' ') st->ref_space[g]++;
      continue;
    }
    size_t idx = k_old++;
    if (idx < h->ob || idx >= h->oe) continue;
    size_t fend = h->start + h->flen;
    if (S->flags[k] & LZ_BLANK) {
      /* A blank old line: the file's blank line there, or spacing the snippet adds. */
      if (fi < fend && (F->flags[fi] & LZ_BLANK)) {
        size_t fl = fi++;
        if (b && S->op[k] == ' ') { ec_buf_append_str(b, F->line[fl]); ec_buf_append_char(b, '\n'); }
      } else if (b && S->op[k] == ' ') ec_buf_append_char(b, '\n');
      continue;
    }
    while (fi < fend && (F->flags[fi] & LZ_BLANK)) { /* the file's own blank lines the snippet left out */
      if (b) { ec_buf_append_str(b, F->line[fi]); ec_buf_append_char(b, '\n'); }
      fi++;
    }
    size_t fl = fi++;
    if (b && S->op[k] == ' ') {
      ec_buf_append_str(b, F->line[fl]);
      ec_buf_append_char(b, '\n');
    }
    sref = k;
    fref = fl;
  }
}

ec_error_code ec_lz_merge_diff(ec_lz_job *job, ec_str *out) {
  ec_lz_side *S = &job->S, *F = &job->F;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(job->a));
  uint32_t *old = ec_arena_alloc(job->a, (S->n + 1) * sizeof *old);
  hunk_t *hs = ec_arena_alloc(job->a, (S->n + 1) * sizeof *hs);
  if (!old || !hs) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  size_t c = 0, hunk = 0, j = 0, old_total = 0;
  int pn = (int)job->f->path.len;
  const char *p = job->f->path.ptr;
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
    /* Blank context at the hunk's ends says nothing; drop it from the search. */
    size_t ob = 0, oe = nold;
    while (ob < oe && (S->flags[ho[ob]] & LZ_BLANK) && S->op[ho[ob]] == ' ') ob++;
    while (oe > ob && (S->flags[ho[oe - 1]] & LZ_BLANK) && S->op[ho[oe - 1]] == ' ') oe--;
    if (!change) continue;
    old_total += nold;
    hunk++;
    if (oe == ob)
      return ec_lz_decline(job, EC_NO_MATCH, hunk - 1, 0, 0,
                           "hunk %zu of the diff-style snippet has only `+` lines, so nothing says where they go in '%.*s'; include an unchanged "
                           "line from the file (with a leading space) above or below them.", hunk, pn, p);
    /* Occurrences of the old side below the cursor: candidates from the rarest line's chain. */
    size_t best_k = ob;
    uint32_t best_cnt = UINT32_MAX;
    for (size_t k = ob; k < oe; k++) {
      if (S->flags[ho[k]] & LZ_WEAK) continue;
      uint32_t cnt;
      ec_lz_side_first(F, S->key[ho[k]], &cnt);
      if (cnt < best_cnt) { best_cnt = cnt; best_k = k; }
    }
    uint32_t cnt;
    size_t found = SIZE_MAX, found_end = 0, nfound = 0, before = SIZE_MAX, second = SIZE_MAX;
    for (uint32_t i = ec_lz_side_first(F, S->key[ho[best_k]], &cnt); i != LZ_NIL; i = F->next[i]) {
      job->work += oe - ob;
      if (job->work > job->work_cap)
        return ec_fail(job->ctx, EC_TOO_LARGE, "the diff-style snippet's lines repeat too often in '%.*s' to place it within the work budget", pn, p);
      size_t start, end;
      if (!old_side_at(job, ho, ob, oe, best_k, i, &start, &end)) continue;
      if (start < c) { before = start; continue; }
      if (!nfound) { found = start; found_end = end; }
      else if (nfound == 1) second = start;
      nfound++;
    }
    if (nfound > 1) {
      ec_lz_decline(job, EC_AMBIGUOUS, hunk - 1, (uint32_t)found + 1, (uint32_t)(found + oe - ob),
                    "hunk %zu of the diff-style snippet matches %zu places in '%.*s' (lines %zu, %zu...); nothing was changed. Include "
                    "more unchanged lines around the change.", hunk, nfound, pn, p, found + 1, second + 1);
      ec_lz_add_candidate(job, (uint32_t)second + 1, (uint32_t)(second + oe - ob));
      return EC_AMBIGUOUS;
    }
    if (!nfound) {
      if (before != SIZE_MAX)
        return ec_lz_decline(job, EC_NO_MATCH, hunk - 1, (uint32_t)before + 1, (uint32_t)(before + oe - ob),
                             "hunk %zu of the diff-style snippet matches line %zu of '%.*s', above the previous hunk: send the hunks in file order.",
                             hunk, before + 1, pn, p);
      /* Name the first old line that is not in the file. */
      size_t miss = ob;
      for (size_t k = ob; k < oe; k++) {
        uint32_t cc;
        if (S->flags[ho[k]] & LZ_BLANK) continue; /* blank lines need not be in the file */
        ec_lz_side_first(F, S->key[ho[k]], &cc);
        if (!cc) { miss = k; break; }
      }
      ec_str t = ec_lz_trim(S->line[ho[miss]]);
      return ec_lz_decline(job, EC_NO_MATCH, hunk - 1, 0, 0,
                           "hunk %zu of the diff-style snippet does not match '%.*s': its context and `-` lines must be consecutive lines "
                           "of the file (line '%.*s' is not found there or not in that order). Read the file again and copy them exactly.",
                           hunk, pn, p, (int)(t.len > 80 ? 80 : t.len), t.ptr);
    }
    hs[hunk - 1] = (hunk_t){h0, h1, ob, oe, old0, found, found_end - found};
    c = found_end;
    if (hunk <= job->nseg + 1 && job->rep) {
      job->rep[hunk - 1].start_line = (uint32_t)found + 1;
      job->rep[hunk - 1].end_line = (uint32_t)found_end;
      job->rep[hunk - 1].strategy = EC_STRATEGY_INDENT;
      job->rep[hunk - 1].confidence = 1.0;
    }
  }
  if (!hunk) return ec_fail(job->ctx, EC_NOOP, "the diff-style snippet has no `+` or `-` lines, so it changes nothing in '%.*s'", pn, p);
  /* The `+` prefix width, decided once for the snippet: when every `+` line written after a
   * reference of one kind (context or `-`) lands one column off the file's indentation grid the
   * same way, and the prefix explains it (`+ ` with a space, or a `- ` reference), the width
   * was two, not one. */
  long shift[2] = {0, 0};
  shift_t st;
  memset(&st, 0, sizeof st);
  st.grid = job->fi.tabs ? (long)job->fi.tab : (long)job->fi.unit;
  if (st.grid >= 2) {
    for (size_t h = 0; h < hunk; h++) visit(job, &hs[h], old, &st, NULL, shift);
    for (int g = 0; g < 2; g++) {
      if (!st.n[g] || (st.n[g] == 1 && st.cont[g])) continue; /* one line after an open bracket: alignment, not a prefix */
      if (st.off_plus[g] == st.n[g] && st.plus_space[g] == st.n[g]) shift[g] = -1;
      else if (st.off_minus[g] == st.n[g] && st.ref_space[g] == st.n[g] && st.plus_space[g] == 0) shift[g] = 1;
    }
  }
  c = 0;
  for (size_t h = 0; h < hunk; h++) {
    for (size_t i = c; i < hs[h].start; i++) { ec_buf_append_str(&b, F->line[i]); ec_buf_append_char(&b, '\n'); }
    visit(job, &hs[h], old, &st, &b, shift);
    c = hs[h].start + hs[h].flen;
  }
  for (size_t i = c; i < F->n; i++) { ec_buf_append_str(&b, F->line[i]); ec_buf_append_char(&b, '\n'); }
  ec_str res = ec_buf_finish(&b, job->a);
  if (!res.ptr) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  if (!job->file_final_lf && res.len && res.ptr[res.len - 1] == '\n') res.len--;
  *out = res;
  job->nseg = hunk;
  return EC_OK;
}
