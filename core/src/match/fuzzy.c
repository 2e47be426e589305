/*
 * Strategy `fuzzy`: windows of as many lines as old_text whose text (lines trimmed, joined by
 * LF) is at least options.fuzzy_threshold similar to old_text's (1 - edit distance / longer
 * length). Off by default in the editcore profile: it applies only when options.strategies names it.
 *
 * Bounded: each window is first screened in O(1) by length and by a character-histogram lower
 * bound of the edit distance (kept up to date as the window slides, so the screen costs one pass
 * over the file); the survivors get a banded edit distance whose band is the distance the
 * threshold still allows. All cells are counted against limits.fuzzy_work -> TOO_LARGE.
 * Every non-overlapping window at or above the threshold is returned, best first picked, in file
 * order (several make the format answer AMBIGUOUS); with options.line_hint only the best one
 * nearest the hint is kept.
 */
#include "lineutil.h"
#include "restore.h"
#include "../base/hash.h"
#include "../base/sort.h"
#include <stdlib.h>
#include <string.h>

typedef struct cand { size_t i; uint32_t sim; size_t dist; } cand;

static int by_rank(const void *a, const void *b) {
  const cand *x = a, *y = b;
  if (x->sim != y->sim) return x->sim > y->sim ? -1 : 1;
  if (x->dist != y->dist) return x->dist < y->dist ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}
static int by_pos(const void *a, const void *b) {
  const cand *x = a, *y = b;
  return x->i < y->i ? -1 : x->i > y->i;
}

static void hist_add(int32_t *d, uint64_t *pos, uint64_t *neg, ec_str s, int sign) {
  for (size_t k = 0; k < s.len; k++) {
    int32_t *c = &d[(unsigned char)s.ptr[k]];
    if (sign > 0) { if (*c >= 0) (*pos)++; else (*neg)--; (*c)++; }
    else { if (*c > 0) (*pos)--; else (*neg)++; (*c)--; }
  }
}

/* Trigram profile of a line (trigrams inside the line only), hashed into QBUCKETS counters; d is
 * window minus needle and *sum the L1 norm of d. Each edit operation changes at most Q trigrams
 * on either side, so edit distance >= sum / (2 Q): a second, sharper screen than the histogram. */
#define Q 3
#define QBITS 12
#define QBUCKETS (1u << QBITS)
static void qgram_add(int32_t *d, uint64_t *sum, ec_str s, int sign) {
  for (size_t k = 0; k + Q <= s.len; k++) {
    uint32_t g = ((uint32_t)(unsigned char)s.ptr[k] << 16) | ((uint32_t)(unsigned char)s.ptr[k + 1] << 8) |
                 (uint32_t)(unsigned char)s.ptr[k + 2];
    int32_t *c = &d[(uint32_t)(g * 2654435761u) >> (32 - QBITS)];
    if (sign > 0) { if (*c >= 0) (*sum)++; else (*sum)--; (*c)++; }
    else { if (*c > 0) (*sum)--; else (*sum)++; (*c)--; }
  }
}

ec_error_code ec_strategy_fuzzy(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  ec_split nd;
  if (ec_split_lines(env->arena, old_text, true, &nd)) return EC_OUT_OF_MEMORY;
  const ec_lines *fl = ec_match_lines(env);
  if (!fl) return EC_OUT_OF_MEMORY;
  size_t m = nd.n;
  if (!m || m > fl->n) return EC_OK;
  double thr = env->opt ? env->opt->fuzzy_threshold : 0.9;
  uint32_t thr_k = (uint32_t)(thr * 1000.0 + 0.5);
  if (thr_k > 1000) thr_k = 1000;
  /* The needle: trimmed lines joined by LF, and its histogram (window minus needle lives in d). */
  size_t nlen = m - 1;
  for (size_t k = 0; k < m; k++) nlen += ec_norm_apply(nd.line[k], EC_NORM_TRIM).len;
  if (!nlen || nlen == m - 1) return EC_OK;
  char *needle = ec_arena_alloc(env->arena, nlen + 1);
  if (!needle) return EC_OUT_OF_MEMORY;
  int32_t d[256];
  memset(d, 0, sizeof d);
  uint64_t pos = 0, neg = 0, qsum = 0;
  int32_t *qd = ec_arena_calloc(env->arena, QBUCKETS, sizeof *qd);
  if (!qd) return EC_OUT_OF_MEMORY;
  size_t w = 0;
  for (size_t k = 0; k < m; k++) {
    ec_str t = ec_norm_apply(nd.line[k], EC_NORM_TRIM);
    if (k) needle[w++] = '\n';
    if (t.len) memcpy(needle + w, t.ptr, t.len);
    w += t.len;
    hist_add(d, &pos, &neg, t, -1);
    qgram_add(qd, &qsum, t, -1);
  }
  uint64_t limit = ec_match_work_limit(env);
  char *buf = NULL;
  size_t buf_cap = 0, wlen = m - 1;
  cand *c = NULL;
  size_t n_c = 0, cap_c = 0;
  for (size_t k = 0; k < m; k++) {
    ec_str t = ec_norm_apply(ec_lines_get(fl, k), EC_NORM_TRIM);
    wlen += t.len;
    hist_add(d, &pos, &neg, t, 1);
    qgram_add(qd, &qsum, t, 1);
  }
  /* Line-hash prefilter: when some of old_text's lines occur in the file (trimmed), only the
   * windows those lines vote for are compared; otherwise every window goes through the screen. */
  const uint64_t *fh = ec_match_norm_hashes(env, EC_NORM_TRIM);
  uint32_t *votes = ec_arena_calloc(env->arena, fl->n + 1, sizeof *votes);
  if (!fh || !votes) return EC_OUT_OF_MEMORY;
  bool any_vote = false;
  {
    typedef struct hk { uint64_t h; size_t j; } hk;
    hk *nk = ec_arena_alloc(env->arena, m * sizeof *nk);
    if (!nk) return EC_OUT_OF_MEMORY;
    size_t nn = 0;
    for (size_t j = 0; j < m; j++) {
      ec_str t = ec_norm_apply(nd.line[j], EC_NORM_TRIM);
      if (t.len < 3) continue; /* "}" and blank lines say little about where a block is */
      nk[nn].h = ec_hash_bytes(t.ptr, t.len);
      nk[nn++].j = j;
    }
    /* Sorted by hash (insertion sort on the small needle), then one binary search per line. */
    for (size_t a = 1; a < nn; a++) {
      hk t = nk[a];
      size_t b = a;
      while (b && nk[b - 1].h > t.h) { nk[b] = nk[b - 1]; b--; }
      nk[b] = t;
      env->work += a - b;
    }
    for (size_t i = 0; i < fl->n && nn; i++) {
      size_t lo = 0, hi = nn;
      while (lo < hi) { size_t mid = (lo + hi) / 2; if (nk[mid].h < fh[i]) lo = mid + 1; else hi = mid; }
      for (size_t q = lo; q < nn && nk[q].h == fh[i]; q++) {
        if (i < nk[q].j || i - nk[q].j + m > fl->n) continue;
        votes[i - nk[q].j]++;
        any_vote = true;
      }
      env->work++;
    }
  }
  for (size_t i = 0; i + m <= fl->n; i++) {
    if (i) {
      ec_str gone = ec_norm_apply(ec_lines_get(fl, i - 1), EC_NORM_TRIM);
      ec_str come = ec_norm_apply(ec_lines_get(fl, i + m - 1), EC_NORM_TRIM);
      hist_add(d, &pos, &neg, gone, -1);
      hist_add(d, &pos, &neg, come, 1);
      qgram_add(qd, &qsum, gone, -1);
      qgram_add(qd, &qsum, come, 1);
      wlen = wlen - gone.len + come.len;
    }
    env->work += 1;
    if (any_vote && !votes[i]) continue;
    size_t maxlen = wlen > nlen ? wlen : nlen;
    size_t allowed = (size_t)((uint64_t)maxlen * (1000 - thr_k) / 1000);
    size_t diff = wlen > nlen ? wlen - nlen : nlen - wlen;
    uint64_t lower = pos > neg ? pos : neg;
    if (diff > allowed || lower > allowed || (qsum + 2 * Q - 1) / (2 * Q) > allowed) continue;
    if (buf_cap < wlen + 1) {
      size_t nc = (wlen + 1) * 2;
      buf = ec_arena_alloc(env->arena, nc);
      if (!buf) return EC_OUT_OF_MEMORY;
      buf_cap = nc;
    }
    size_t q = 0;
    for (size_t k = 0; k < m; k++) {
      ec_str t = ec_norm_apply(ec_lines_get(fl, i + k), EC_NORM_TRIM);
      if (k) buf[q++] = '\n';
      if (t.len) memcpy(buf + q, t.ptr, t.len);
      q += t.len;
    }
    size_t dist = ec_bounded_lev(env, buf, q, needle, nlen, allowed, limit); /* one window can cost more than the budget */
    if (dist == SIZE_MAX) return EC_OUT_OF_MEMORY;
    if (env->work > limit) {
      env->message = ec_arena_printf(env->arena, "fuzzy matching passed its work limit (options.limits.fuzzy_work = %llu) "
                                     "before finishing; send an old_string copied exactly from the file, or a line_hint",
                                     (unsigned long long)limit);
      return EC_TOO_LARGE;
    }
    if (dist > allowed) continue;
    uint32_t sim = (uint32_t)(1000 - (uint64_t)dist * 1000 / maxlen);
    if (sim < thr_k) continue;
    if (!EC_ARENA_RESERVE(env->arena, c, n_c, cap_c, 8)) return EC_OUT_OF_MEMORY;
    size_t hint = env->opt && env->opt->line_hint > 0 ? (size_t)env->opt->line_hint - 1 : 0;
    c[n_c].i = i;
    c[n_c].sim = sim;
    c[n_c].dist = env->opt && env->opt->line_hint > 0 ? (i > hint ? i - hint : hint - i) : 0;
    n_c++;
  }
  if (!n_c) return EC_OK;
  ec_sort(c, n_c, sizeof *c, by_rank);
  size_t kept = 0;
  for (size_t k = 0; k < n_c; k++) {
    bool overlap = false;
    for (size_t j = 0; j < kept && !overlap; j++)
      overlap = (c[j].i > c[k].i ? c[j].i - c[k].i : c[k].i - c[j].i) < m;
    if (!overlap) c[kept++] = c[k];
    if (kept >= 64) break;
  }
  if (env->opt && env->opt->line_hint > 0) kept = 1;
  ec_sort(c, kept, sizeof *c, by_pos);
  if (kept == 1) {
    ec_error_code rc = ec_check_repeated_belief(env, &nd, c[0].i, new_text);
    if (rc) return rc;
  }
  for (size_t k = 0; k < kept; k++) {
    ec_str no_base = {"", 0};
    ec_str rep = ec_reindent(env->arena, new_text, &nd, fl, c[k].i, m, no_base);
    if (!rep.ptr) return EC_OUT_OF_MEMORY;
    ec_error_code rc = ec_push_window(env, out, fl, c[k].i, m, nd.final_lf, EC_STRATEGY_FUZZY, (double)c[k].sim / 1000.0, rep);
    if (rc) return rc;
  }
  return EC_OK;
}
