/*
 * Line splitting and line classes for the diff.
 *
 * 1. The common prefix and suffix are compared as bytes and cut back to whole lines; those
 *    lines need offsets (for context and compaction) but no class.
 * 2. The old side's middle lines go into an open-addressing table keyed by ec_hash_bytes.
 *    Entries are confirmed by comparing bytes, so a hash collision can only cost a probe, never
 *    put two different lines in one class (which would produce a wrong diff).
 * 3. The new side's middle lines are first compared with the old line that follows the last
 *    match: in a file with scattered edits that guess is nearly always right and reads both texts
 *    in order, while a table probe is a cache miss. A miss falls back to the table and resyncs
 *    the guess to where the found line sits in the old text.
 */
#include "diff_prepare.h"
#include "../base/hash.h"
#include "../base/str.h"

/*
 * The table. A line's class is the reference to the first line of its class: 1 + k for the old
 * middle's line k and 1 + ma + k for the new middle's, so classes are below ma + mb + 1 and the
 * algorithm's per-class arrays are a byte a line (a slot's index as the class cost a byte a slot,
 * up to three a line). A slot holds that reference (0 = empty) and the line's 32-bit hash, which
 * picks the slot and rejects most mismatches without touching text; so the table grows by
 * moving slots, not by hashing lines again, and starts small: it is sized by the distinct lines
 * found (a code file has about half as many as lines, the new side adds few), not by all lines,
 * and any size will do (the hash scaled to it, not masked), so it is not rounded up to a power
 * of two either.
 */
typedef struct slot {
  uint32_t ref, hash;
} slot;

typedef struct class_table {
  slot *slots;
  size_t cap, used;
  bool failed; /* out of memory (classes then wrong, and the prepare fails) */
  ec_arena *ar;
  const ec_diff_side *a, *b;
  size_t mlo, ma;
} class_table;

static ec_str ref_line(const class_table *t, uint32_t ref) {
  size_t k = ref - 1;
  const ec_diff_side *s = t->a;
  if (k >= t->ma) { k -= t->ma; s = t->b; }
  size_t b = s->off[t->mlo + k];
  ec_str r = {s->text + b, s->off[t->mlo + k + 1] - b};
  return r;
}

/* The slot a hash starts probing at, in a table of cap slots; the next slot after i. */
static size_t home(uint32_t h32, size_t cap) { return (size_t)(((uint64_t)h32 * cap) >> 32); }
static size_t next(size_t i, size_t cap) { return i + 1 < cap ? i + 1 : 0; }

/* A table twice the size, the same slots moved over; false when out of memory. */
static bool grow(class_table *t) {
  size_t cap = 2 * t->cap;
  slot *s = ec_arena_calloc(t->ar, cap, sizeof *s);
  if (!s) return false;
  for (size_t i = 0; i < t->cap; i++) {
    slot o = t->slots[i];
    if (o.ref == 0) continue;
    size_t j = home(o.hash, cap);
    while (s[j].ref) j = next(j, cap);
    s[j] = o;
  }
  ec_arena_release(t->ar, t->slots);
  t->slots = s;
  t->cap = cap;
  return true;
}

/* Class of line [p, p + len): its class's first line when there is one, else `ref`, added.
 * Load factor <= 2/3, so a probe always meets an empty slot. */
static uint32_t class_of(class_table *t, const char *p, size_t len, uint32_t ref) {
  if (3 * t->used >= 2 * t->cap && !grow(t)) {
    t->failed = true;
    return ref;
  }
  uint32_t h32 = (uint32_t)(ec_hash_bytes(p, len) >> 32);
  for (size_t i = home(h32, t->cap);; i = next(i, t->cap)) {
    slot s = t->slots[i];
    if (s.ref == 0) {
      t->slots[i].ref = ref;
      t->slots[i].hash = h32;
      t->used++;
      return ref;
    }
    if (s.hash == h32) {
      ec_str r = ref_line(t, s.ref);
      if (r.len == len && memcmp(r.ptr, p, len) == 0) return s.ref;
    }
  }
}

/* Lines in p[0, n), a range that starts at a line start: its LFs, plus a last unterminated one
 * (counted a word at a time: one memchr a line cost more than the diff of a small window). */
static size_t count_lines(const char *p, size_t n) { return ec_count_lines(ec_str_make(p, n)); }

/* off[0..wn]: the offsets of wn lines of t starting at byte `from` (a line start); off[wn] ends the last of them. */
static void fill_offsets(size_t *off, ec_str t, size_t from, size_t wn) {
  const char *q = t.ptr + from, *end = t.ptr + t.len;
  for (size_t k = 0; k < wn; k++) {
    off[k] = (size_t)(q - t.ptr);
    const char *nl = memchr(q, '\n', (size_t)(end - q));
    q = nl ? nl + 1 : end;
  }
  off[wn] = (size_t)(q - t.ptr);
}

/* Common prefix in bytes, cut back to the end of its last whole line (all of it if equal). */
static size_t prefix_bytes(ec_str x, ec_str y) {
  size_t n = x.len < y.len ? x.len : y.len, p = 0;
  while (p + 8 <= n) {
    uint64_t u, v;
    memcpy(&u, x.ptr + p, 8);
    memcpy(&v, y.ptr + p, 8);
    if (u != v) break;
    p += 8;
  }
  while (p < n && x.ptr[p] == y.ptr[p]) p++;
  if (p == x.len && p == y.len) return p;
  while (p > 0 && x.ptr[p - 1] != '\n') p--;
  return p;
}

/* Common suffix in bytes after `pre`, cut forward to start at a line start on both sides. */
static size_t suffix_bytes(ec_str x, ec_str y, size_t pre) {
  size_t n = (x.len < y.len ? x.len : y.len) - pre, q = 0;
  while (q + 8 <= n) {
    uint64_t u, v;
    memcpy(&u, x.ptr + x.len - q - 8, 8);
    memcpy(&v, y.ptr + y.len - q - 8, 8);
    if (u != v) break;
    q += 8;
  }
  while (q < n && x.ptr[x.len - 1 - q] == y.ptr[y.len - 1 - q]) q++;
  if (q == 0) return 0;
  size_t sa = x.len - q, sb = y.len - q;
  bool starts_a = sa == pre || x.ptr[sa - 1] == '\n', starts_b = sb == pre || y.ptr[sb - 1] == '\n';
  if (starts_a && starts_b) return q;
  const char *nl = memchr(x.ptr + sa, '\n', q);
  return nl ? x.len - (size_t)(nl - x.ptr) - 1 : 0;
}

/* Whether the line [p, p + n) is one of the lines of t[from, to) (whole lines, LFs included). */
static bool among_lines(const char *p, size_t n, const char *t, size_t from, size_t to) {
  while (from < to) {
    const char *nl = memchr(t + from, '\n', to - from);
    size_t end = nl ? (size_t)(nl - t) + 1 : to;
    if (end - from == n && memcmp(t + from, p, n) == 0) return true;
    from = end;
  }
  return false;
}

/*
 * Whether compaction may move a change group out of the middle (old [pre_b, mid_a), new
 * [pre_b, mid_b)). Groups start inside it (only middle lines are flagged), and a group moves
 * one line up only when the line above it equals its last line, one line down only when the
 * line below it equals its first (diff_compact.c). So the first group to cross the middle's top
 * edge does it past the line just before the middle, equal to one of its middle lines (its
 * bottom has not left the middle yet), and likewise at the bottom edge with the line just after
 * it. When neither neighbour equals any middle line of either side, no group leaves the middle:
 * the indent heuristic then scores cuts inside it only, reading at most MAX_BLANKS + 1 lines
 * beyond (within the look margin), and the window needs no slide room.
 */
static bool may_slide_out(ec_str o, ec_str n, size_t pre_b, size_t mid_a, size_t mid_b) {
  if (pre_b > 0) {
    size_t s = ec_line_start_before(o.ptr, 0, pre_b - 1);
    if (among_lines(o.ptr + s, pre_b - s, o.ptr, pre_b, mid_a) || among_lines(o.ptr + s, pre_b - s, n.ptr, pre_b, mid_b))
      return true;
  }
  if (mid_a < o.len) {
    const char *nl = memchr(o.ptr + mid_a, '\n', o.len - mid_a);
    size_t e = nl ? (size_t)(nl - o.ptr) + 1 : o.len;
    if (among_lines(o.ptr + mid_a, e - mid_a, o.ptr, pre_b, mid_a) || among_lines(o.ptr + mid_a, e - mid_a, n.ptr, pre_b, mid_b))
      return true;
  }
  return false;
}

ec_error_code ec_diff_prepare(ec_arena *ar, ec_str old_text, ec_str new_text, size_t context, bool tight,
                              ec_diff_prep *out) {
  memset(out, 0, sizeof *out);
  if (!old_text.ptr) old_text.ptr = ""; /* an empty text may come as {NULL, 0} */
  if (!new_text.ptr) new_text.ptr = "";
  ec_diff_side *a = &out->a, *b = &out->b;
  a->text = old_text.ptr;
  b->text = new_text.ptr;
  const size_t pre_b = prefix_bytes(old_text, new_text), suf_b = suffix_bytes(old_text, new_text, pre_b);
  const size_t mid_a = old_text.len - suf_b, mid_b = new_text.len - suf_b; /* middles end here */
  const size_t pre = count_lines(old_text.ptr, pre_b), suf = count_lines(old_text.ptr + mid_a, suf_b);
  a->mn = count_lines(old_text.ptr + pre_b, mid_a - pre_b);
  b->mn = count_lines(new_text.ptr + pre_b, mid_b - pre_b);
  /* Classes and line numbers are 32-bit in the algorithm to halve the memory it walks. */
  if ((uint64_t)pre + suf + a->mn + b->mn > UINT32_MAX - 1) return EC_TOO_LARGE;
  a->n = pre + a->mn + suf;
  b->n = pre + b->mn + suf;

  /* The window: the middle and up to `margin` common lines each side of it. */
  const size_t guard = (context > SIZE_MAX / 4 ? SIZE_MAX / 4 : context) + EC_DIFF_LOOK_MARGIN;
  out->slides_out = !tight || a->mn + b->mn > EC_DIFF_TIGHT_LINES || may_slide_out(old_text, new_text, pre_b, mid_a, mid_b);
  const size_t margin = guard + (out->slides_out ? EC_DIFF_SLIDE_MARGIN : 0);
  const size_t before = pre < margin ? pre : margin, after = suf < margin ? suf : margin;
  /* The window's first line: `before` lines back from the middle, or pre - before lines on from
   * the text's start when that is fewer (a window of a diff of stretches starts a line or two
   * into its own text). */
  size_t from = pre_b;
  if (pre - before < before) {
    from = 0;
    for (size_t k = 0; k < pre - before; k++) from = (size_t)((const char *)memchr(old_text.ptr + from, '\n', pre_b - from) - old_text.ptr) + 1;
  } else {
    for (size_t k = 0; k < before; k++) from = ec_line_start_before(old_text.ptr, 0, from - 1); /* the line before */
  }
  out->w0 = pre - before;
  out->mlo = before;
  out->guard_lo = out->w0 > 0 ? guard : 0;
  out->guard_hi = after < suf ? guard : 0;
  a->wn = before + a->mn + after;
  b->wn = before + b->mn + after;
  a->off = ec_arena_alloc(ar, (a->wn + 1) * sizeof *a->off);
  b->off = ec_arena_alloc(ar, (b->wn + 1) * sizeof *b->off);
  const size_t ma = a->mn, mb = b->mn;
  if (a->off && b->off) {
    fill_offsets(a->off, old_text, from, a->wn);
    /* The new side's common lines are the old side's bytes: the prefix's at the same offsets,
     * the suffix's shifted by the middles' difference; only its middle is searched for LFs. */
    memcpy(b->off, a->off, before * sizeof *b->off);
    fill_offsets(b->off + before, new_text, pre_b, mb);
    for (size_t k = 1; k <= after; k++) b->off[before + mb + k] = a->off[before + ma + k] - mid_a + mid_b;
  }
  a->cls = ec_arena_alloc(ar, (ma ? ma : 1) * sizeof *a->cls);
  b->cls = ec_arena_alloc(ar, (mb ? mb : 1) * sizeof *b->cls);
  if (!a->off || !b->off || !a->cls || !b->cls) return EC_OUT_OF_MEMORY;
  if (ma + mb == 0) return EC_OK;

  /* The first size holds a quarter of the lines distinct (a code file's edit has fewer); more grow it. */
  const size_t cap = 16 + (ma + mb) / 4 + (ma + mb) / 8;
  class_table t = {ec_arena_calloc(ar, cap, sizeof(slot)), cap, 0, false, ar, a, b, out->mlo, ma};
  if (!t.slots) return EC_OUT_OF_MEMORY;

  /* Middle lines are window lines lo .. lo + m - 1. */
  const size_t lo = out->mlo, hia = lo + ma, hib = lo + mb;
  for (size_t i = lo; i < hia; i++) {
    size_t s = a->off[i];
    a->cls[i - lo] = class_of(&t, old_text.ptr + s, a->off[i + 1] - s, (uint32_t)(1 + i - lo));
  }
  size_t guess = lo;
  for (size_t j = lo; j < hib; j++) {
    const char *p = new_text.ptr + b->off[j];
    size_t len = b->off[j + 1] - b->off[j];
    if (guess < hia && a->off[guess + 1] - a->off[guess] == len &&
        memcmp(old_text.ptr + a->off[guess], p, len) == 0) {
      b->cls[j - lo] = a->cls[guess - lo];
      guess++;
      continue;
    }
    uint32_t c = b->cls[j - lo] = class_of(&t, p, len, (uint32_t)(1 + ma + j - lo));
    if (c <= ma) guess = lo + c; /* found in the old middle: guess the line after it */
  }
  out->nclasses = ma + mb + 1;
  /* The table is only needed here; hand its block back before the algorithm runs. */
  ec_arena_release(ar, t.slots);
  return t.failed ? EC_OUT_OF_MEMORY : EC_OK;
}
