/*
 * The line that encloses a line by indentation: the nearest line above it that is neither blank
 * nor only a comment and is indented less (or, for a closing line, no deeper) — what the anchoring
 * asks to tell whether a unique line sits in the same block on both sides, and the self-check
 * asks of aligned lines. Walking up from each line made a flat block of 20,000 statements
 * quadratic (every line walked up to the block's opener); the walks were cut at 4,000 lines,
 * which then called a line deep inside a long block blockless (a sound merge declined). Here
 * each side's answers for every line come from one pass with a stack of the eligible lines above
 * (their indentation rising, or not falling, from the bottom up): a line that is eligible itself
 * pops the deeper lines it hides and is pushed; any line's answer is the topmost stack entry
 * indented less (no deeper), found by binary search. Built once per side and kind, on first need.
 */
#include "lazy.h"

void ec_lz_enclosing_of(const ec_lz_side *s, const uint32_t *idx, size_t n, bool or_equal, uint32_t *up, uint32_t *st) {
  size_t top = 0;
  for (size_t p = 0; p < n; p++) {
    size_t k = idx ? idx[p] : p;
    uint32_t d = s->indent[k];
    /* The topmost entry indented less (no deeper): entries rise (strictly for `less`) upward. */
    size_t lo = 0, hi = top;
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      uint32_t dm = s->indent[idx ? idx[st[mid]] : st[mid]];
      if (or_equal ? dm <= d : dm < d) lo = mid + 1;
      else hi = mid;
    }
    up[p] = lo ? st[lo - 1] : LZ_NIL;
    if ((s->flags[k] & LZ_BLANK) || ec_lz_comment_only(s->line[k])) continue;
    /* Pushed, it hides every entry it is no shallower than (`less`) or deeper than (`no deeper`). */
    while (top) {
      uint32_t dt = s->indent[idx ? idx[st[top - 1]] : st[top - 1]];
      if (or_equal ? dt <= d : dt < d) break;
      top--;
    }
    st[top++] = (uint32_t)p;
  }
}

uint32_t ec_lz_enclosing(ec_lz_job *job, bool file, size_t i, bool or_equal) {
  uint32_t **slot = &job->enclosing[file][or_equal];
  if (!*slot) {
    const ec_lz_side *s = file ? &job->F : &job->S;
    uint32_t *up = ec_arena_alloc(job->a, (s->n + 1) * sizeof *up), *st = ec_arena_alloc(job->a, (s->n + 1) * sizeof *st);
    if (!up || !st) return LZ_NIL;
    ec_lz_enclosing_of(s, NULL, s->n, or_equal, up, st);
    job->work += s->n;
    *slot = up;
  }
  return (*slot)[i];
}
