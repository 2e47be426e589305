/*
 * Strategy `anchor` (Cline's block anchor, made strict): for an old_text of at least 3 lines, a
 * window of as many lines whose first and last lines equal old_text's once trimmed, and whose
 * every middle line is similar enough (each >= 50 %, on average >= 80 %, by edit distance of the
 * trimmed lines). Candidates come from the trimmed-line hash table (one pass over the file); the
 * middle comparisons are counted against limits.fuzzy_work. Several windows are all returned
 * (the format says AMBIGUOUS); a single one that would make new_string repeat a line the file
 * does not have is refused (ec_check_repeated_belief).
 */
#define _GNU_SOURCE 1
#include "lineutil.h"
#include "restore.h"
#include "../base/hash.h"
#include "../base/kernels.h"
#include <string.h>

/* Per mille. Swept (bench/threshold_sweep.mjs; ACCURACY.md, "Thresholds"): LINE_MIN 300-700 give
 * the same results on conformance and match_test (only identical middles: 2 ladder vectors and 3
 * match_test checks fail); MEAN_MIN 600 the same, 900 fails the "anchor changed comment" vector and
 * 3 match_test checks (a changed comment line). No test fails below 800 / 500: the precision side is
 * unmeasured here (bench/accuracy's middle_wrong form on real commits is the yardstick for that). */
#define LINE_MIN 500
#define MEAN_MIN 800

ec_error_code ec_strategy_anchor(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  ec_split nd;
  if (ec_split_lines(env->arena, old_text, true, &nd)) return EC_OUT_OF_MEMORY;
  size_t m = nd.n;
  if (m < 3) return EC_OK;
  ec_str first = ec_norm_apply(nd.line[0], EC_NORM_TRIM), last = ec_norm_apply(nd.line[m - 1], EC_NORM_TRIM);
  if (!first.len || !last.len) return EC_OK;
  /* A window's first and last lines, trimmed, are in the text as they are: when either is not,
   * nothing matches, and two memmem save the file's line table and its hashes (the ladder runs
   * this strategy on every edit the earlier ones did not place). */
  if (!env->len || ec_match_known_absent(env, first) || ec_match_known_absent(env, last)) return EC_OK;
  if (!ec_find(env->text, env->len, first.ptr, first.len)) { ec_match_note_absent(env, first); return EC_OK; }
  if (!ec_find(env->text, env->len, last.ptr, last.len)) { ec_match_note_absent(env, last); return EC_OK; }
  const ec_lines *fl = ec_match_lines(env);
  const uint64_t *fh = ec_match_norm_hashes(env, EC_NORM_TRIM);
  if (!fl || !fh) return EC_OUT_OF_MEMORY;
  if (m > fl->n) return EC_OK;
  uint64_t hf = ec_hash_bytes(first.ptr, first.len), hl = ec_hash_bytes(last.ptr, last.len);
  uint64_t limit = ec_match_work_limit(env);
  size_t *win = NULL, n_win = 0, cap = 0;
  uint32_t *score = NULL;
  for (size_t i = 0; i + m <= fl->n; i++) {
    if (fh[i] != hf || fh[i + m - 1] != hl) continue;
    ec_str a = ec_norm_apply(ec_lines_get(fl, i), EC_NORM_TRIM), b = ec_norm_apply(ec_lines_get(fl, i + m - 1), EC_NORM_TRIM);
    if (a.len != first.len || memcmp(a.ptr, first.ptr, a.len) || b.len != last.len || memcmp(b.ptr, last.ptr, b.len))
      continue;
    if (n_win && win[n_win - 1] + m > i) continue; /* overlaps the previous window */
    uint64_t sum = 0;
    bool ok = true;
    for (size_t k = 1; k + 1 < m && ok && env->work <= limit; k++) { /* limit checked per line: one can cost 16 M cells */
      uint32_t s = ec_line_similarity(env, nd.line[k], ec_lines_get(fl, i + k));
      if (s == UINT32_MAX) return EC_OUT_OF_MEMORY;
      ok = s >= LINE_MIN;
      sum += s;
    }
    if (env->work > limit) {
      env->message = ec_arena_printf(env->arena, "the anchor strategy passed its work limit (options.limits.fuzzy_work = %llu); "
                                     "send an old_string copied exactly from the file", (unsigned long long)limit);
      return EC_TOO_LARGE;
    }
    uint32_t mean = (uint32_t)(sum / (m - 2));
    if (!ok || mean < MEAN_MIN) continue;
    if (n_win == cap) {
      size_t nc = cap ? cap * 2 : 4;
      size_t *p = ec_arena_grow(env->arena, win, cap * sizeof *p, nc * sizeof *p);
      uint32_t *q = ec_arena_grow(env->arena, score, cap * sizeof *q, nc * sizeof *q);
      if (!p || !q) return EC_OUT_OF_MEMORY;
      win = p;
      score = q;
      cap = nc;
    }
    win[n_win] = i;
    score[n_win++] = mean;
  }
  if (n_win == 1) {
    ec_error_code rc = ec_check_repeated_belief(env, &nd, win[0], new_text);
    if (rc) return rc;
  }
  for (size_t w = 0; w < n_win; w++) {
    ec_str no_base = {"", 0};
    ec_str rep = ec_reindent(env->arena, new_text, &nd, fl, win[w], m, no_base);
    if (!rep.ptr) return EC_OUT_OF_MEMORY;
    /* Confidence in thousandths so it prints the same everywhere. */
    ec_error_code rc = ec_push_window(env, out, fl, win[w], m, nd.final_lf, EC_STRATEGY_ANCHOR,
                                      (double)(score[w] * 9 / 10) / 1000.0, rep);
    if (rc) return rc;
  }
  return EC_OK;
}
