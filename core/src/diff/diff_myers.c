/*
 * Myers' O(ND) difference algorithm in linear space (E. Myers, "An O(ND) Difference Algorithm and
 * Its Variations", 1986): find the middle snake of an optimal path by searching from both ends at
 * once, split there, and solve the two halves; an explicit stack instead of recursion keeps deep
 * splits off the C stack (wasm stacks are small).
 *
 * Around the search, the passes that make it fast on real edits:
 *   - the common prefix and suffix are trimmed first (and again in every sub-problem);
 *   - lines that occur on one side only cannot be part of any common subsequence, so they are
 *     marked changed and dropped before the search: a file where a few lines were rewritten
 *     usually reduces to nearly identical sequences;
 *   - a split that has searched sqrt(N) edit steps without meeting takes the furthest point
 *     either search reached (as git's xdiff does), so one split never costs more than about
 *     N * sqrt(N);
 *   - a global budget of steps: once spent, every region still to be solved becomes one
 *     replacement. The script stays valid, only coarser.
 * Afterwards, change groups are slid to a canonical position (ec_diff_compact).
 */
#include "diff_myers.h"
#include "diff_compact.h"
#include <string.h>

typedef struct myers {
  const uint32_t *a, *b; /* the sequences searched (class ids) */
  uint8_t *ca, *cb;      /* their change flags */
  ptrdiff_t *kf, *kb;    /* furthest x per diagonal k = x - y (forward, backward), valid for k in
                            [-(len b + 1), len a + 1] */
  uint64_t work, budget;
  ptrdiff_t mxcost;      /* edit steps per split before taking the furthest point reached */
} myers;

typedef struct range {
  ptrdiff_t off1, lim1, off2, lim2;
} range;

/* max(ceil(sqrt(v)), floor_), in 64-bit so that 32-bit builds compute the same. */
static ptrdiff_t isqrt_at_least(size_t v, ptrdiff_t floor_) {
  uint64_t r = 1;
  while (r * r < v) r <<= 1;             /* r >= sqrt(v); v < 2^62 */
  for (uint64_t lo = r / 2; r - lo > 1;) { /* bisect down to ceil(sqrt(v)) */
    uint64_t mid = lo + (r - lo) / 2;
    if (mid * mid >= v) r = mid; else lo = mid;
  }
  return (ptrdiff_t)r > floor_ ? (ptrdiff_t)r : floor_;
}

/* A split point must lie in the region and leave both halves smaller, or the loop never ends. */
static bool split_ok(const range *r, ptrdiff_t x, ptrdiff_t y) {
  if (x < r->off1 || x > r->lim1 || y < r->off2 || y > r->lim2) return false;
  if (x == r->off1 && y == r->off2) return false;
  if (x == r->lim1 && y == r->lim2) return false;
  return true;
}

/*
 * The cost cap was reached: split at the point, among all the furthest points of both searches,
 * that got furthest from its own corner (clamped into the region: a diagonal's value can step
 * just past an edge, where the snake loop stops it).
 */
static bool split_heuristic(const myers *m, const range *r, ptrdiff_t fmin, ptrdiff_t fmax,
                            ptrdiff_t bmin, ptrdiff_t bmax, ptrdiff_t *sx, ptrdiff_t *sy) {
  ptrdiff_t fbest = -1, fx = 0, bbest = PTRDIFF_MAX, bx = 0;
  for (ptrdiff_t d = fmax; d >= fmin; d -= 2) {
    ptrdiff_t x = m->kf[d] < r->lim1 ? m->kf[d] : r->lim1, y = x - d;
    if (y > r->lim2) { x = r->lim2 + d; y = r->lim2; }
    if (x + y > fbest) { fbest = x + y; fx = x; }
  }
  for (ptrdiff_t d = bmax; d >= bmin; d -= 2) {
    ptrdiff_t x = m->kb[d] > r->off1 ? m->kb[d] : r->off1, y = x - d;
    if (y < r->off2) { x = r->off2 + d; y = r->off2; }
    if (x + y < bbest) { bbest = x + y; bx = x; }
  }
  ptrdiff_t fgain = fbest - (r->off1 + r->off2), bgain = (r->lim1 + r->lim2) - bbest;
  ptrdiff_t first = fgain > bgain ? fx : bx, first_d = fgain > bgain ? fbest : bbest;
  ptrdiff_t second = fgain > bgain ? bx : fx, second_d = fgain > bgain ? bbest : fbest;
  /* x + y = s and x = first give y = s - x. */
  if (split_ok(r, first, first_d - first)) { *sx = first; *sy = first_d - first; return true; }
  if (split_ok(r, second, second_d - second)) { *sx = second; *sy = second_d - second; return true; }
  return false;
}

/*
 * Finds a point on an optimal path through the region (both ends trimmed, both sides non-empty).
 * false when the work budget ran out or no usable point was found: the caller then replaces the
 * whole region, which is always valid.
 */
static bool split(myers *m, const range *r, ptrdiff_t *sx, ptrdiff_t *sy) {
  const uint32_t *a = m->a, *b = m->b;
  ptrdiff_t *kf = m->kf, *kb = m->kb;
  const ptrdiff_t off1 = r->off1, lim1 = r->lim1, off2 = r->off2, lim2 = r->lim2;
  const ptrdiff_t dmin = off1 - lim2, dmax = lim1 - off2;
  const ptrdiff_t fmid = off1 - off2, bmid = lim1 - lim2;
  /* With an odd delta the searches meet while the forward one moves, else the backward one. */
  const bool odd = ((fmid - bmid) & 1) != 0;
  ptrdiff_t fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  kf[fmid] = off1;
  kb[bmid] = lim1;
  for (ptrdiff_t ec = 1;; ec++) {
    uint64_t work = 0;
    /* Widen the diagonal range by one each way, or narrow it to keep parity at the region's
     * edge. A new outermost diagonal's missing neighbour gets a sentinel that never wins. */
    if (fmin > dmin) kf[--fmin - 1] = -1; else ++fmin;
    if (fmax < dmax) kf[++fmax + 1] = -1; else --fmax;
    for (ptrdiff_t d = fmax; d >= fmin; d -= 2) {
      ptrdiff_t x = kf[d - 1] >= kf[d + 1] ? kf[d - 1] + 1 : kf[d + 1];
      ptrdiff_t x0 = x, y = x - d;
      while (x < lim1 && y < lim2 && a[x] == b[y]) { x++; y++; }
      work += (uint64_t)(x - x0) + 1;
      kf[d] = x;
      if (odd && bmin <= d && d <= bmax && kb[d] <= x) {
        *sx = x; *sy = y;
        m->work += work;
        return split_ok(r, x, y);
      }
    }
    if (bmin > dmin) kb[--bmin - 1] = PTRDIFF_MAX; else ++bmin;
    if (bmax < dmax) kb[++bmax + 1] = PTRDIFF_MAX; else --bmax;
    for (ptrdiff_t d = bmax; d >= bmin; d -= 2) {
      ptrdiff_t x = kb[d - 1] < kb[d + 1] ? kb[d - 1] : kb[d + 1] - 1;
      ptrdiff_t x0 = x, y = x - d;
      while (x > off1 && y > off2 && a[x - 1] == b[y - 1]) { x--; y--; }
      work += (uint64_t)(x0 - x) + 1;
      kb[d] = x;
      if (!odd && fmin <= d && d <= fmax && x <= kf[d]) {
        *sx = x; *sy = y;
        m->work += work;
        return split_ok(r, x, y);
      }
    }
    m->work += work;
    if (m->work > m->budget) return false;
    if (ec >= m->mxcost) return split_heuristic(m, r, fmin, fmax, bmin, bmax, sx, sy);
  }
}

static void mark(uint8_t *chg, ptrdiff_t from, ptrdiff_t to) {
  if (to > from) memset(chg + from, 1, (size_t)(to - from));
}

/* Solves the whole sequence pair, region by region, with an explicit stack. */
static ec_error_code run(ec_arena *ar, myers *m, ptrdiff_t n, ptrdiff_t nb) {
  size_t cap = 64, sp = 0;
  range *stack = ec_arena_alloc(ar, cap * sizeof *stack);
  if (!stack) return EC_OUT_OF_MEMORY;
  range top = {0, n, 0, nb};
  stack[sp++] = top;
  while (sp > 0) {
    range r = stack[--sp];
    while (r.off1 < r.lim1 && r.off2 < r.lim2 && m->a[r.off1] == m->b[r.off2]) { r.off1++; r.off2++; }
    while (r.off1 < r.lim1 && r.off2 < r.lim2 && m->a[r.lim1 - 1] == m->b[r.lim2 - 1]) { r.lim1--; r.lim2--; }
    ptrdiff_t x, y;
    if (r.off1 == r.lim1 || r.off2 == r.lim2 || m->work > m->budget || !split(m, &r, &x, &y)) {
      mark(m->ca, r.off1, r.lim1);
      mark(m->cb, r.off2, r.lim2);
      continue;
    }
    if (sp + 2 > cap) {
      range *grown = ec_arena_grow(ar, stack, cap * sizeof *stack, 2 * cap * sizeof *stack);
      if (!grown) return EC_OUT_OF_MEMORY;
      stack = grown;
      cap *= 2;
    }
    range hi = {x, r.lim1, y, r.lim2}, lo = {r.off1, x, r.off2, y};
    stack[sp++] = hi;
    stack[sp++] = lo;
  }
  ec_arena_release(ar, stack);
  return EC_OK;
}

/*
 * The search over ca[0..n) and cb[0..nb) (the classed middle lines), flags into chg_a / chg_b:
 * trim, drop one-sided lines, run Myers on what is left, map the flags back.
 */
static ec_error_code search(ec_arena *ar, const uint32_t *ca, size_t n, const uint32_t *cb, size_t nb,
                            size_t nclasses, uint64_t budget, bool discard, uint8_t *chg_a, uint8_t *chg_b) {
  size_t pre = 0, suf = 0;
  while (pre < n && pre < nb && ca[pre] == cb[pre]) pre++;
  while (suf < n - pre && suf < nb - pre && ca[n - 1 - suf] == cb[nb - 1 - suf]) suf++;
  const size_t la = n - pre - suf, lb = nb - pre - suf;
  if (la == 0 || lb == 0) {
    mark(chg_a, (ptrdiff_t)pre, (ptrdiff_t)(pre + la));
    mark(chg_b, (ptrdiff_t)pre, (ptrdiff_t)(pre + lb));
    return EC_OK;
  }

  /* The sequences to search: the middles, without lines the other middle never has. */
  uint32_t *ra = ec_arena_alloc(ar, la * sizeof *ra), *rb = ec_arena_alloc(ar, lb * sizeof *rb);
  uint8_t *in_a = ec_arena_calloc(ar, nclasses, 1), *in_b = ec_arena_calloc(ar, nclasses, 1);
  if (!ra || !rb || !in_a || !in_b) return EC_OUT_OF_MEMORY;
  for (size_t i = pre; i < pre + la; i++) in_a[ca[i]] = 1;
  for (size_t i = pre; i < pre + lb; i++) in_b[cb[i]] = 1;
  size_t rn = 0, rm = 0;
  for (size_t i = pre; i < pre + la; i++) {
    if (discard && !in_b[ca[i]]) chg_a[i] = 1;
    else ra[rn++] = ca[i];
  }
  for (size_t i = pre; i < pre + lb; i++) {
    if (discard && !in_a[cb[i]]) chg_b[i] = 1;
    else rb[rm++] = cb[i];
  }

  myers m;
  memset(&m, 0, sizeof m);
  m.a = ra;
  m.b = rb;
  m.ca = ec_arena_calloc(ar, rn + 1, 1);
  m.cb = ec_arena_calloc(ar, rm + 1, 1);
  /* Diagonals run from -rm to rn; one sentinel slot beyond each end. */
  ptrdiff_t *kf = ec_arena_alloc(ar, (rn + rm + 3) * sizeof *kf);
  ptrdiff_t *kb = ec_arena_alloc(ar, (rn + rm + 3) * sizeof *kb);
  if (!m.ca || !m.cb || !kf || !kb) return EC_OUT_OF_MEMORY;
  m.kf = kf + rm + 1;
  m.kb = kb + rm + 1;
  m.budget = budget;
  m.mxcost = isqrt_at_least(rn + rm + 3, 256);
  ec_error_code rc = run(ar, &m, (ptrdiff_t)rn, (ptrdiff_t)rm);
  if (rc != EC_OK) return rc;
  /* Back to the middle's lines: the kept ones, in order, are the searched ones. */
  for (size_t i = pre, k = 0; i < pre + la; i++)
    if (!discard || in_b[ca[i]]) chg_a[i] = m.ca[k++];
  for (size_t i = pre, k = 0; i < pre + lb; i++)
    if (!discard || in_a[cb[i]]) chg_b[i] = m.cb[k++];
  void *temps[] = {kf, kb, ra, rb, in_a, in_b, m.ca, m.cb};
  for (size_t t = 0; t < sizeof temps / sizeof *temps; t++) ec_arena_release(ar, temps[t]);
  return EC_OK;
}

ec_error_code ec_diff_myers(ec_arena *ar, const ec_diff_prep *p, uint64_t work_budget, unsigned flags,
                            uint8_t *chg_a, uint8_t *chg_b) {
  if (p->a.wn) memset(chg_a, 0, p->a.wn);
  if (p->b.wn) memset(chg_b, 0, p->b.wn);
  /* Only the middle lines can change; only they have classes. */
  ec_error_code rc = search(ar, p->a.cls, p->a.mn, p->b.cls, p->b.mn, p->nclasses,
                            work_budget ? work_budget : EC_DIFF_DEFAULT_BUDGET, !(flags & EC_DIFF_NO_DISCARD),
                            chg_a + p->mlo, chg_b + p->mlo);
  if (rc != EC_OK) return rc;
  if (!(flags & EC_DIFF_NO_COMPACT)) {
    ec_diff_compact(p, &p->a, chg_a, &p->b, chg_b);
    ec_diff_compact(p, &p->b, chg_b, &p->a, chg_a);
  }
  return EC_OK;
}
