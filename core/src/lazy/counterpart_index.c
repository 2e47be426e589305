/*
 * Which file lines can be a snippet line's counterpart (heads.c: the same head, or one line
 * extending the other by 12 characters or more), without scanning the file: the anchoring's
 * counterpart pass asks this for every segment still unplaced, over the range its neighbours'
 * anchors leave open — up to the whole file. Scanning that range per segment made 5,000
 * segments over 20,000 small functions cost 40 s of CPU (issue 27).
 *
 * Two lines are counterparts only when their heads are equal (and not empty) or when they share
 * their first EC_LZ_EXTEND_MIN trimmed characters (the shorter, at least that long, starts the
 * longer). So each strong file line is filed under its head's hash and under the hash of its
 * first EC_LZ_EXTEND_MIN characters, in one table sorted by (hash, line); a question looks up
 * both hashes, and walks only the lines in its range (binary search to the range's start): a
 * superset of the counterparts, in file order, each then checked with ec_lz_counterparts.
 */
#include "lazy.h"
#include "../base/hash.h"
#include <stdlib.h>

typedef struct entry_t {
  uint64_t key;
  uint32_t line;
} entry_t;

struct ec_lz_cpindex {
  entry_t *e;
  size_t n;
};

/* The head's hash and the start's hash are kept apart (a start that happens to read like a head). */
static uint64_t head_key(ec_str head) { return ec_hash_bytes(head.ptr, head.len) | 1; }
static uint64_t start_key(ec_str t) { return ec_hash_bytes(t.ptr, EC_LZ_EXTEND_MIN) & ~(uint64_t)1; }

static int cmp_entry(const void *a, const void *b) {
  const entry_t *x = a, *y = b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static struct ec_lz_cpindex *build(ec_lz_job *job) {
  const ec_lz_side *F = &job->F;
  struct ec_lz_cpindex *x = ec_arena_calloc(job->a, 1, sizeof *x);
  if (!x || F->n > UINT32_MAX / 2) return NULL;
  x->e = ec_arena_alloc(job->a, (2 * F->n + 1) * sizeof *x->e);
  if (!x->e) return NULL;
  for (size_t i = 0; i < F->n; i++) {
    if (F->flags[i] & (LZ_WEAK | LZ_MARKER)) continue;
    ec_str h = ec_lz_job_head(job, true, i), t = ec_lz_trim(F->line[i]);
    if (h.len) x->e[x->n++] = (entry_t){head_key(h), (uint32_t)i};
    if (t.len >= EC_LZ_EXTEND_MIN) x->e[x->n++] = (entry_t){start_key(t), (uint32_t)i};
  }
  qsort(x->e, x->n, sizeof *x->e, cmp_entry);
  job->work += F->n;
  return x;
}

/* First entry at or after (key, line). */
static size_t lower(const struct ec_lz_cpindex *x, uint64_t key, uint32_t line) {
  size_t lo = 0, hi = x->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (x->e[mid].key < key || (x->e[mid].key == key && x->e[mid].line < line)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

bool ec_lz_counterpart_iter_init(ec_lz_job *job, ec_str line, int64_t lo, int64_t hi, ec_lz_cp_iter *it) {
  memset(it, 0, sizeof *it);
  if (!job->cpindex) {
    job->cpindex = build(job);
    if (!job->cpindex) return false;
  }
  const struct ec_lz_cpindex *x = job->cpindex;
  it->x = x;
  it->hi = hi < 0 ? 0 : (uint64_t)hi;
  uint32_t from = lo < 0 ? 0 : (uint32_t)(lo + 1);
  ec_str h = ec_lz_head(line), t = ec_lz_trim(line);
  if (h.len) {
    it->ka = head_key(h);
    it->a = lower(x, it->ka, from);
  } else it->a = x->n;
  if (t.len >= EC_LZ_EXTEND_MIN) {
    it->kb = start_key(t);
    it->b = lower(x, it->kb, from);
  } else it->b = x->n;
  return true;
}

uint32_t ec_lz_counterpart_next(ec_lz_cp_iter *it) {
  const struct ec_lz_cpindex *x = it->x;
  uint32_t la = it->a < x->n && x->e[it->a].key == it->ka && x->e[it->a].line < it->hi ? x->e[it->a].line : LZ_NIL;
  uint32_t lb = it->b < x->n && x->e[it->b].key == it->kb && x->e[it->b].line < it->hi ? x->e[it->b].line : LZ_NIL;
  if (la == LZ_NIL && lb == LZ_NIL) return LZ_NIL;
  uint32_t l = la < lb ? la : lb;
  if (la == l) it->a++;
  if (lb == l) it->b++;
  return l;
}
