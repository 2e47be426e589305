/*
 * The snippet's blocks by bracket depth: which snippet line opens the block a closing line ends.
 *
 * The rule (what the anchoring's structure pass asks): the opener of closing line j is the
 * nearest literal line k above j at j's indentation, with no literal line indented less between
 * them, that opens a block (more brackets opened than closed, or deeper lines below it; the line
 * right above j may be anything) and whose depth j brings back: the literal lines between keep it
 * open (never below its own depth, or below it plus one when it opens a bracket) and j closes it.
 * Markers stand for balanced code; blank lines say nothing.
 *
 * Walking up from every closing line made a snippet of 40,000 `}` lines between markers
 * quadratic (9 s). With D[k], the bracket depth before line k over the literal lines, "j closes
 * k" is D[k] == D[j + 1] and the least depth between them, min D[m + 1] over literal m in
 * (k, j), at least D[k] (plus one for a bracket opener). So the candidates are looked up, nearest
 * first, among the opening lines with j's indentation and depth D[j + 1] (a sorted table); the
 * least depth between comes from a segment tree; and once it falls below D[j + 1], no line higher
 * up can be the opener (it only falls further), which ends the search. The shallower line that
 * bounds the walk comes from one pass with a stack. O(n log n) to build, O(log n) a question in
 * the usual case; each answer is kept.
 */
#include "lazy.h"
#include <stdlib.h>

typedef struct cand_t {
  uint64_t key; /* indentation and depth */
  uint32_t line;
} cand_t;

struct ec_lz_sblocks {
  size_t n;
  int32_t *D;        /* D[k]: bracket depth before line k (literal lines only); n + 1 entries */
  uint32_t *shallow; /* line -> the nearest literal line above it indented less (LZ_NIL: none) */
  uint32_t *above;   /* line -> the nearest non-blank line above it (LZ_NIL: none) */
  cand_t *cand;      /* opening lines, sorted by (key, line) */
  size_t ncand;
  int32_t *tree;     /* segment tree over m: D[m + 1] for literal m, INT32_MAX otherwise */
  size_t size;       /* leaves */
  uint32_t *memo;    /* line -> opener + 2; 1: none; 0: not yet asked */
};

static bool literal_line(const ec_lz_side *S, size_t k) { return !(S->flags[k] & (LZ_MARKER | LZ_BLANK)); }

static uint64_t key_of(uint32_t indent, int32_t depth) { return (uint64_t)indent << 32 | (uint32_t)depth; }

static int cmp_cand(const void *a, const void *b) {
  const cand_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static struct ec_lz_sblocks *build(ec_lz_job *job) {
  const ec_lz_side *S = &job->S;
  size_t n = S->n;
  struct ec_lz_sblocks *b = ec_arena_calloc(job->a, 1, sizeof *b);
  if (!b) return NULL;
  b->n = n;
  b->D = ec_arena_alloc(job->a, (n + 1) * sizeof *b->D);
  b->shallow = ec_arena_alloc(job->a, (n + 1) * sizeof *b->shallow);
  b->above = ec_arena_alloc(job->a, (n + 1) * sizeof *b->above);
  b->cand = ec_arena_alloc(job->a, (n + 1) * sizeof *b->cand);
  b->memo = ec_arena_calloc(job->a, n + 1, sizeof *b->memo);
  size_t size = 1;
  while (size < n + 1) size <<= 1;
  b->size = size;
  b->tree = ec_arena_alloc(job->a, 2 * size * sizeof *b->tree);
  uint32_t *stack = ec_arena_alloc(job->a, (n + 1) * sizeof *stack);
  if (!b->D || !b->shallow || !b->above || !b->cand || !b->memo || !b->tree || !stack) return NULL;
  /* Depths; the tree's leaves. */
  int64_t d = 0;
  b->D[0] = 0;
  for (size_t k = 0; k < n; k++) {
    if (literal_line(S, k)) d += ec_lz_bracket_net(S->line[k]);
    /* A snippet cannot hold 2^31 brackets (the request is far smaller): kept in range anyway. */
    b->D[k + 1] = d > INT32_MAX / 2 ? INT32_MAX / 2 : d < -(INT32_MAX / 2) ? -(INT32_MAX / 2) : (int32_t)d;
  }
  for (size_t m = 0; m < size; m++) b->tree[size + m] = m < n && literal_line(S, m) ? b->D[m + 1] : INT32_MAX;
  for (size_t i = size; i-- > 1;) b->tree[i] = b->tree[2 * i] < b->tree[2 * i + 1] ? b->tree[2 * i] : b->tree[2 * i + 1];
  /* The nearest shallower literal line (a stack of literal lines with rising indentation), and
   * the nearest non-blank line above. */
  size_t top = 0;
  uint32_t last = LZ_NIL;
  for (size_t k = 0; k < n; k++) {
    b->above[k] = last;
    if (!(S->flags[k] & LZ_BLANK)) last = (uint32_t)k;
    b->shallow[k] = LZ_NIL;
    if (!literal_line(S, k)) continue;
    while (top && S->indent[stack[top - 1]] >= S->indent[k]) top--;
    b->shallow[k] = top ? stack[top - 1] : LZ_NIL;
    stack[top++] = (uint32_t)k;
  }
  /* Opening lines: literal, opening a bracket or followed by a deeper non-blank line. */
  uint32_t below = LZ_NIL;
  for (size_t k = n; k-- > 0;) {
    if (S->flags[k] & LZ_BLANK) continue;
    if (literal_line(S, k)) {
      int32_t net = b->D[k + 1] - b->D[k];
      if (net > 0 || (below != LZ_NIL && S->indent[below] > S->indent[k]))
        b->cand[b->ncand++] = (cand_t){key_of(S->indent[k], b->D[k]), (uint32_t)k};
    }
    below = (uint32_t)k;
  }
  qsort(b->cand, b->ncand, sizeof *b->cand, cmp_cand);
  job->work += n; /* the build: a few passes over the snippet and a sort */
  return b;
}

/* min D[m + 1] over literal m in [lo, hi) (INT32_MAX when none). */
static int32_t least(const struct ec_lz_sblocks *b, size_t lo, size_t hi) {
  int32_t r = INT32_MAX;
  for (lo += b->size, hi += b->size; lo < hi; lo >>= 1, hi >>= 1) {
    if (lo & 1) { if (b->tree[lo] < r) r = b->tree[lo]; lo++; }
    if (hi & 1) { hi--; if (b->tree[hi] < r) r = b->tree[hi]; }
  }
  return r;
}

/* Whether line k's block closes at line j (k above j, at j's indentation, not past j's shallower line). */
static bool closes(const struct ec_lz_sblocks *b, size_t k, size_t j, int32_t *between) {
  int32_t net = b->D[k + 1] - b->D[k];
  *between = least(b, k + 1, j);
  if (net < 0 || b->D[k] != b->D[j + 1]) return false;
  return *between == INT32_MAX || *between >= b->D[k] + (net > 0);
}

uint32_t ec_lz_snippet_opener(ec_lz_job *job, size_t j) {
  if (!job->sblocks) {
    job->sblocks = build(job);
    if (!job->sblocks) return LZ_NIL; /* out of memory: no opener (no anchor by structure) */
  }
  struct ec_lz_sblocks *b = job->sblocks;
  if (j >= b->n) return LZ_NIL;
  if (b->memo[j]) return b->memo[j] == 1 ? LZ_NIL : b->memo[j] - 2;
  const ec_lz_side *S = &job->S;
  uint32_t d = S->indent[j], lim = b->shallow[j], found = LZ_NIL;
  int32_t target = b->D[j + 1], between;
  /* The line right above j needs to open nothing itself. */
  uint32_t k0 = b->above[j];
  if (k0 != LZ_NIL && literal_line(S, k0) && (lim == LZ_NIL || k0 > lim) && S->indent[k0] == d && closes(b, k0, j, &between))
    found = k0;
  if (found == LZ_NIL) {
    /* The opening lines with j's indentation and depth, nearest first. */
    uint64_t key = key_of(d, target);
    size_t lo = 0, hi = b->ncand;
    while (lo < hi) { /* first entry past (key, j) */
      size_t mid = (lo + hi) / 2;
      if (b->cand[mid].key < key || (b->cand[mid].key == key && b->cand[mid].line < j)) lo = mid + 1;
      else hi = mid;
    }
    for (size_t t = lo; t-- > 0 && b->cand[t].key == key;) {
      uint32_t k = b->cand[t].line;
      job->work += 8;
      if (lim != LZ_NIL && k <= lim) break;
      if (closes(b, k, j, &between)) { found = k; break; }
      if (between < target) break; /* the depth between falls below j's: no line higher up closes at j */
      if (job->work > job->work_cap) break;
    }
  }
  b->memo[j] = found == LZ_NIL ? 1 : found + 2;
  return found;
}

bool ec_lz_snippet_block_shown(ec_lz_job *job, size_t j, size_t end) {
  const ec_lz_side *S = &job->S;
  int32_t depth = ec_lz_bracket_net(S->line[j]), need = depth > 0 ? 1 : 0;
  if (depth < 0) return false;
  for (size_t k = j + 1; k < end; k++) {
    job->work++;
    if (!literal_line(S, k)) continue;
    int32_t net = ec_lz_bracket_net(S->line[k]);
    if (S->indent[k] == S->indent[j] && depth + net == 0) return true;
    depth += net;
    if (depth < need) return false; /* closed before: no later line closes it */
  }
  return false;
}
