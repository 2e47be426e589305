/*
 * Diff-style snippets: lines prefixed `+` (new), `-` (old) or a space (context), hunks separated
 * by markers or `@@` lines. Each hunk's old side (context and `-` lines, compared trimmed) must
 * occur exactly once in the file below the previous hunk; `+` lines are re-indented like the
 * context line nearest above them (below, at the top of a hunk).
 */
#include "lazy.h"
#include "../base/buf.h"
#include "../base/str.h"

static ec_str lead_ws(ec_str l) {
  size_t k = 0;
  while (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
  return ec_str_make(l.ptr, k);
}

static void put_new(ec_buf *b, ec_str line, ec_str sref, ec_str fref) {
  ec_str ws = lead_ws(line);
  ec_str body = ec_str_make(line.ptr + ws.len, line.len - ws.len);
  if (!ec_lz_trim(body).len) { ec_buf_append_char(b, '\n'); return; }
  if (ec_str_eq(sref, fref) || (!sref.len && !fref.len)) {
    ec_buf_append_str(b, line);
    ec_buf_append_char(b, '\n');
    return;
  }
  /* Keep the line's indentation relative to the reference, in the file's characters. */
  long rel = (long)ws.len - (long)sref.len;
  if (rel >= 0) {
    ec_buf_append_str(b, fref);
    for (long k = 0; k < rel; k++) ec_buf_append_char(b, fref.len ? fref.ptr[0] : ' ');
  } else {
    long keep = (long)fref.len + rel;
    if (keep > 0) ec_buf_append(b, fref.ptr, (size_t)keep);
  }
  ec_buf_append_str(b, body);
  ec_buf_append_char(b, '\n');
}

ec_error_code ec_lz_merge_diff(ec_lz_job *job, ec_str *out) {
  ec_lz_side *S = &job->S, *F = &job->F;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(job->a));
  uint32_t *old = ec_arena_alloc(job->a, (S->n + 1) * sizeof *old);
  if (!old) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  size_t c = 0, hunk = 0, j = 0;
  int pn = (int)job->f->path.len;
  const char *p = job->f->path.ptr;
  while (j < S->n) {
    if (S->flags[j] & LZ_MARKER) { j++; continue; }
    size_t h0 = j;
    while (j < S->n && !(S->flags[j] & LZ_MARKER)) j++;
    size_t h1 = j, nold = 0;
    bool change = false;
    for (size_t k = h0; k < h1; k++) {
      if (S->op[k] != '+') old[nold++] = (uint32_t)k;
      if (S->op[k] != ' ') change = true;
    }
    /* Blank context at the hunk's ends says nothing; drop it from the search. */
    size_t ob = 0, oe = nold;
    while (ob < oe && (S->flags[old[ob]] & LZ_BLANK) && S->op[old[ob]] == ' ') ob++;
    while (oe > ob && (S->flags[old[oe - 1]] & LZ_BLANK) && S->op[old[oe - 1]] == ' ') oe--;
    if (!change) continue;
    hunk++;
    if (oe == ob)
      return ec_lz_decline(job, EC_NO_MATCH, hunk - 1, 0, 0,
                           "hunk %zu of the diff-style snippet has only `+` lines, so nothing says where they go in '%.*s'; include an unchanged "
                           "line from the file (with a leading space) above or below them.", hunk, pn, p);
    /* Occurrences of the old side below the cursor: candidates from the rarest line's chain. */
    size_t best_k = ob;
    uint32_t best_cnt = UINT32_MAX;
    for (size_t k = ob; k < oe; k++) {
      if (S->flags[old[k]] & LZ_WEAK) continue;
      uint32_t cnt;
      ec_lz_side_first(F, S->key[old[k]], &cnt);
      if (cnt < best_cnt) { best_cnt = cnt; best_k = k; }
    }
    uint32_t cnt;
    size_t found = SIZE_MAX, nfound = 0, before = SIZE_MAX, second = SIZE_MAX;
    for (uint32_t i = ec_lz_side_first(F, S->key[old[best_k]], &cnt); i != LZ_NIL; i = F->next[i]) {
      if (i < best_k - ob) continue;
      size_t start = i - (best_k - ob);
      if (start + (oe - ob) > F->n) break;
      job->work += oe - ob;
      if (job->work > job->work_cap)
        return ec_fail(job->ctx, EC_TOO_LARGE, "the diff-style snippet's lines repeat too often in '%.*s' to place it within the work budget", pn, p);
      bool eq = true;
      for (size_t k = ob; k < oe && eq; k++) eq = S->key[old[k]] == F->key[start + k - ob];
      if (!eq) continue;
      if (start < c) { before = start; continue; }
      if (!nfound) found = start;
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
        ec_lz_side_first(F, S->key[old[k]], &cc);
        if (!cc) { miss = k; break; }
      }
      ec_str t = ec_lz_trim(S->line[old[miss]]);
      return ec_lz_decline(job, EC_NO_MATCH, hunk - 1, 0, 0,
                           "hunk %zu of the diff-style snippet does not match '%.*s': its context and `-` lines must be consecutive lines "
                           "of the file (line '%.*s' is not found there or not in that order). Read the file again and copy them exactly.",
                           hunk, pn, p, (int)(t.len > 80 ? 80 : t.len), t.ptr);
    }
    /* Emit: file up to the hunk, then the hunk's new side. */
    size_t start = found;
    for (size_t i = c; i < start; i++) { ec_buf_append_str(&b, F->line[i]); ec_buf_append_char(&b, '\n'); }
    size_t fi = start;
    ec_str sref = {0}, fref = {0};
    bool have_ref = false;
    /* Reference for `+` lines before any context: the first old line. */
    sref = lead_ws(S->line[old[ob]]);
    fref = lead_ws(F->line[start]);
    have_ref = true;
    size_t k_old = 0;
    for (size_t k = h0; k < h1; k++) {
      if (S->op[k] == '+') {
        put_new(&b, S->line[k], sref, fref);
        continue;
      }
      /* old line: inside [ob, oe) it maps to a file line; blank context outside is dropped */
      size_t idx = k_old++;
      if (idx < ob || idx >= oe) continue;
      size_t fl = fi++;
      if (S->op[k] == ' ') {
        ec_buf_append_str(&b, F->line[fl]);
        ec_buf_append_char(&b, '\n');
      }
      if (!(S->flags[k] & LZ_BLANK) && have_ref) {
        sref = lead_ws(S->line[k]);
        fref = lead_ws(F->line[fl]);
      }
    }
    c = fi;
    if (job->rep) {
      /* reported by the caller per hunk */
    }
    if (hunk <= job->nseg + 1 && job->rep) {
      job->rep[hunk - 1].start_line = (uint32_t)start + 1;
      job->rep[hunk - 1].end_line = (uint32_t)(start + (oe - ob));
      job->rep[hunk - 1].strategy = EC_STRATEGY_INDENT;
      job->rep[hunk - 1].confidence = 1.0;
    }
  }
  if (!hunk) return ec_fail(job->ctx, EC_NOOP, "the diff-style snippet has no `+` or `-` lines, so it changes nothing in '%.*s'", pn, p);
  for (size_t i = c; i < F->n; i++) { ec_buf_append_str(&b, F->line[i]); ec_buf_append_char(&b, '\n'); }
  ec_str res = ec_buf_finish(&b, job->a);
  if (!res.ptr) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  if (!job->file_final_lf && res.len && res.ptr[res.len - 1] == '\n') res.len--;
  *out = res;
  job->nseg = hunk;
  return EC_OK;
}
