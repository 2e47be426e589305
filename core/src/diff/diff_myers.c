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
  ptrdiff_t *kf, *kb;    /* furthest x per diagonal d = x - y (forward, backward): a split's diagonal
                            d at kf[d - fo], kb[d - bo] (V arrays of SPAN entries) */
  ptrdiff_t fo, bo;      /* the current split's diagonals at index 0 */
  uint64_t work, budget;
  ptrdiff_t mxcost;      /* edit steps per split before taking the furthest point reached */
} myers;

typedef struct range {
  ptrdiff_t off1, lim1, off2, lim2;
} range;

/* max(ceil(sqrt(v)), floor_), in 64-bit so that 32-bit builds compute the same; counted up, as the
 * search it sizes takes v steps anyway. */
static ptrdiff_t isqrt_at_least(size_t v, ptrdiff_t floor_) {
  uint64_t r = (uint64_t)floor_;
  while (r * r < v) r++;
  return (ptrdiff_t)r;
}

/*
 * A split's diagonals: the forward search's reach d in [fmid - ec, fmid + ec] after ec steps
 * (and its sentinels one beyond), and ec stops at mxcost (split_heuristic then); the backward
 * one's likewise around bmid. So a V array needs 2 * mxcost + 3 entries, whatever the problem's
 * size, not one a diagonal of the whole problem (545 for W4's 1 MB file, not 72,611), with a
 * split's diagonal d at index d - (mid - mxcost - 1).
 */
#define SPAN(m) (2 * (size_t)(m)->mxcost + 3)

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
  const ptrdiff_t *kf = m->kf, *kb = m->kb;
  const ptrdiff_t fo = m->fo, bo = m->bo;
  for (ptrdiff_t d = fmax; d >= fmin; d -= 2) {
    ptrdiff_t x = kf[d - fo] < r->lim1 ? kf[d - fo] : r->lim1, y = x - d;
    if (y > r->lim2) { x = r->lim2 + d; y = r->lim2; }
    if (x + y > fbest) { fbest = x + y; fx = x; }
  }
  for (ptrdiff_t d = bmax; d >= bmin; d -= 2) {
    ptrdiff_t x = kb[d - bo] > r->off1 ? kb[d - bo] : r->off1, y = x - d;
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
  const ptrdiff_t fo = m->fo = fmid - m->mxcost - 1, bo = m->bo = bmid - m->mxcost - 1;
  /* With an odd delta the searches meet while the forward one moves, else the backward one. */
  const bool odd = ((fmid - bmid) & 1) != 0;
  ptrdiff_t fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  kf[fmid - fo] = off1;
  kb[bmid - bo] = lim1;
  for (ptrdiff_t ec = 1;; ec++) {
    uint64_t work = 0;
    /* Widen the diagonal range by one each way, or narrow it to keep parity at the region's
     * edge. A new outermost diagonal's missing neighbour gets a sentinel that never wins. */
    if (fmin > dmin) kf[--fmin - 1 - fo] = -1; else ++fmin;
    if (fmax < dmax) kf[++fmax + 1 - fo] = -1; else --fmax;
    for (ptrdiff_t d = fmax; d >= fmin; d -= 2) {
      ptrdiff_t x = kf[d - 1 - fo] >= kf[d + 1 - fo] ? kf[d - 1 - fo] + 1 : kf[d + 1 - fo];
      ptrdiff_t x0 = x, y = x - d;
      while (x < lim1 && y < lim2 && a[x] == b[y]) { x++; y++; }
      work += (uint64_t)(x - x0) + 1;
      kf[d - fo] = x;
      if (odd && bmin <= d && d <= bmax && kb[d - bo] <= x) {
        *sx = x; *sy = y;
        m->work += work;
        return split_ok(r, x, y);
      }
    }
    if (bmin > dmin) kb[--bmin - 1 - bo] = PTRDIFF_MAX; else ++bmin;
    if (bmax < dmax) kb[++bmax + 1 - bo] = PTRDIFF_MAX; else --bmax;
    for (ptrdiff_t d = bmax; d >= bmin; d -= 2) {
      ptrdiff_t x = kb[d - 1 - bo] < kb[d + 1 - bo] ? kb[d - 1 - bo] : kb[d + 1 - bo] - 1;
      ptrdiff_t x0 = x, y = x - d;
      while (x > off1 && y > off2 && a[x - 1] == b[y - 1]) { x--; y--; }
      work += (uint64_t)(x0 - x) + 1;
      kb[d - bo] = x;
      if (!odd && fmin <= d && d <= fmax && x <= kf[d - fo]) {
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
 * trim, drop one-sided lines, run Myers on what is left, map the flags back. The sequences
 * searched are written over ca and cb (nothing reads the classes after this), so the search adds
 * a byte a line to what prepare built, not a copy of the classes.
 */
static ec_error_code search(ec_arena *ar, uint32_t *ca, size_t n, uint32_t *cb, size_t nb,
                            size_t nclasses, uint64_t budget, bool discard, uint8_t *chg_a, uint8_t *chg_b) {
  size_t pre = 0, suf = 0;
  while (pre < n && pre < nb && ca[pre] == cb[pre]) pre++;
  while (suf < n - pre && suf < nb - pre && ca[n - 1 - suf] == cb[nb - 1 - suf]) suf++;
  const size_t la = n - pre - suf, lb = nb - pre - suf; /* one may be 0: run marks the other */

  /* The sequences to search: the middles, without lines the other middle never has (marked
   * changed here; the kept lines' flags are still 0). in[class]: bit 1 on the old side, 2 new. */
  size_t rn = 0, rm = 0;
  uint8_t *in = ec_arena_calloc(ar, nclasses, 1);
  if (!in) return EC_OUT_OF_MEMORY;
  for (size_t i = pre; i < pre + la; i++) in[ca[i]] |= 1;
  for (size_t i = pre; i < pre + lb; i++) in[cb[i]] |= 2;
  for (size_t i = pre; i < pre + la; i++) {
    if (discard && !(in[ca[i]] & 2)) chg_a[i] = 1;
    else ca[rn++] = ca[i]; /* rn <= i: read before written */
  }
  for (size_t i = pre; i < pre + lb; i++) {
    if (discard && !(in[cb[i]] & 1)) chg_b[i] = 1;
    else cb[rm++] = cb[i];
  }
  ec_arena_release(ar, in);

  myers m;
  memset(&m, 0, sizeof m);
  m.a = ca;
  m.b = cb;
  m.ca = ec_arena_calloc(ar, rn + rm + 2, 1); /* both sides' flags in one block */
  m.budget = budget;
  m.mxcost = isqrt_at_least(rn + rm + 3, 256);
  /* Both V arrays in one block of its own, so it is freed below even when small (a diff of
   * many windows searches many times). */
  m.kf = ec_arena_alloc_own(ar, 2 * SPAN(&m) * sizeof *m.kf);
  if (!m.ca || !m.kf) return EC_OUT_OF_MEMORY;
  m.cb = m.ca + rn + 1;
  m.kb = m.kf + SPAN(&m);
  ec_error_code rc = run(ar, &m, (ptrdiff_t)rn, (ptrdiff_t)rm);
  if (rc != EC_OK) return rc;
  /* Back to the middle's lines: the kept ones (flag still 0), in order, are the searched ones. */
  for (size_t i = pre, k = 0; i < pre + la; i++)
    if (!chg_a[i]) chg_a[i] = m.ca[k++];
  for (size_t i = pre, k = 0; i < pre + lb; i++)
    if (!chg_b[i]) chg_b[i] = m.cb[k++];
  ec_arena_release(ar, m.kf);
  ec_arena_release(ar, m.ca);
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
  ec_arena_release(ar, p->a.cls); /* spent: what follows reads the flags and the lines' bytes */
  ec_arena_release(ar, p->b.cls);
  if (rc != EC_OK) return rc;
  if (!(flags & EC_DIFF_NO_COMPACT)) {
    ec_diff_compact(p, &p->a, chg_a, &p->b, chg_b);
    ec_diff_compact(p, &p->b, chg_b, &p->a, chg_a);
  }
  return EC_OK;
}
