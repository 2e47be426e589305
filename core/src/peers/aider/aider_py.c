/* Python string and difflib semantics for the aider profile (see aider_py.h). */
#include "aider_py.h"
#include "../../base/hash.h"
#include "../../base/str.h"
#include "../../base/sort.h"
#include <stdlib.h>
#include <string.h>

ec_error_code ec_py_list_push(ec_arena *a, ec_py_list *l, ec_str s) {
  if (!EC_ARENA_RESERVE(a, l->items, l->n, l->cap, 16)) return EC_OUT_OF_MEMORY;
  l->items[l->n++] = s;
  return EC_OK;
}

/* Section - lines and whitespace */

size_t ec_py_eol_len(const char *p, size_t rem) {
  unsigned char c = (unsigned char)p[0];
  if (c == '\r') return rem > 1 && p[1] == '\n' ? 2 : 1;
  if (c == '\n' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D || c == 0x1E) return 1;
  if (c == 0xC2 && rem > 1 && (unsigned char)p[1] == 0x85) return 2;
  if (c == 0xE2 && rem > 2 && (unsigned char)p[1] == 0x80 && ((unsigned char)p[2] == 0xA8 || (unsigned char)p[2] == 0xA9))
    return 3;
  return 0;
}

ec_error_code ec_py_splitlines(ec_arena *a, ec_str s, bool keepends, ec_py_list *out) {
  size_t start = 0, i = 0;
  while (i < s.len) {
    unsigned char c = (unsigned char)s.ptr[i];
    size_t e = (c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || (c >= 0x1C && c <= 0x1E) || c == 0xC2 || c == 0xE2)
                   ? ec_py_eol_len(s.ptr + i, s.len - i) : 0;
    if (!e) { i++; continue; }
    ec_str line = {s.ptr + start, (keepends ? i + e : i) - start};
    if (ec_py_list_push(a, out, line)) return EC_OUT_OF_MEMORY;
    i += e;
    start = i;
  }
  if (start < s.len && ec_py_list_push(a, out, ec_str_make(s.ptr + start, s.len - start))) return EC_OUT_OF_MEMORY;
  return EC_OK;
}

size_t ec_py_space_fwd(const char *p, size_t rem) {
  if (!rem) return 0;
  unsigned char c = (unsigned char)p[0];
  if ((c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20)) return 1;
  if (c < 0xC2 || rem < 2) return 0;
  unsigned char c1 = (unsigned char)p[1];
  if (c == 0xC2) return c1 == 0x85 || c1 == 0xA0 ? 2 : 0;
  if (rem < 3) return 0;
  unsigned char c2 = (unsigned char)p[2];
  if (c == 0xE1) return c1 == 0x9A && c2 == 0x80 ? 3 : 0;
  if (c == 0xE2) {
    if (c1 == 0x80) return (c2 >= 0x80 && c2 <= 0x8A) || c2 == 0xA8 || c2 == 0xA9 || c2 == 0xAF ? 3 : 0;
    return c1 == 0x81 && c2 == 0x9F ? 3 : 0;
  }
  if (c == 0xE3) return c1 == 0x80 && c2 == 0x80 ? 3 : 0;
  return 0;
}

size_t ec_py_space_back(const char *p, size_t len) {
  if (!len) return 0;
  unsigned char c = (unsigned char)p[len - 1];
  if (c < 0x80) return ec_py_space_fwd(p + len - 1, 1);
  if (len >= 2 && ec_py_space_fwd(p + len - 2, 2) == 2) return 2;
  if (len >= 3 && ec_py_space_fwd(p + len - 3, 3) == 3) return 3;
  return 0;
}

ec_str ec_py_lstrip(ec_str s) {
  size_t k;
  while (s.len && (k = ec_py_space_fwd(s.ptr, s.len)) != 0) { s.ptr += k; s.len -= k; }
  return s;
}

ec_str ec_py_rstrip(ec_str s) {
  size_t k;
  while (s.len && (k = ec_py_space_back(s.ptr, s.len)) != 0) s.len -= k;
  return s;
}

ec_str ec_py_strip(ec_str s) { return ec_py_rstrip(ec_py_lstrip(s)); }

ec_str ec_py_strip_chars(ec_str s, const char *chars, bool left, bool right) {
  while (left && s.len && strchr(chars, s.ptr[0]) && s.ptr[0]) { s.ptr++; s.len--; }
  while (right && s.len && strchr(chars, s.ptr[s.len - 1]) && s.ptr[s.len - 1]) s.len--;
  return s;
}

bool ec_py_blank(ec_str s) { return ec_py_lstrip(s).len == 0; }

bool ec_py_startswith(ec_str s, ec_str prefix) {
  return s.len >= prefix.len && (prefix.len == 0 || !memcmp(s.ptr, prefix.ptr, prefix.len));
}

bool ec_py_endswith(ec_str s, ec_str suffix) {
  return s.len >= suffix.len && (suffix.len == 0 || !memcmp(s.ptr + s.len - suffix.len, suffix.ptr, suffix.len));
}

bool ec_py_contains_char(ec_str s, char c) { return s.len && memchr(s.ptr, c, s.len) != NULL; }

/* Bytes of the UTF-8 sequence at p (1 for a stray byte). */
static size_t cp_bytes(const unsigned char *p, size_t rem) {
  unsigned char c = p[0];
  size_t n = c < 0x80 ? 1 : c >= 0xC2 && c < 0xE0 ? 2 : c >= 0xE0 && c < 0xF0 ? 3 : c >= 0xF0 && c < 0xF5 ? 4 : 1;
  if (n > rem) return 1;
  for (size_t k = 1; k < n; k++)
    if ((p[k] & 0xC0) != 0x80) return 1;
  return n;
}

size_t ec_py_cplen(ec_str s) {
  size_t n = 0;
  for (size_t i = 0; i < s.len; n++) i += cp_bytes((const unsigned char *)s.ptr + i, s.len - i);
  return n;
}

size_t ec_py_cp_offset(ec_str s, size_t n) {
  size_t i = 0;
  while (n-- && i < s.len) i += cp_bytes((const unsigned char *)s.ptr + i, s.len - i);
  return i;
}

ec_str ec_py_slice_to(ec_str s, int64_t end) {
  if (end < 0) {
    int64_t total = (int64_t)ec_py_cplen(s);
    end += total;
    if (end < 0) end = 0;
  }
  s.len = ec_py_cp_offset(s, (size_t)end);
  return s;
}

ec_str ec_py_basename(ec_str p) {
  while (p.len > 1 && p.ptr[p.len - 1] == '/') p.len--;
  size_t i = p.len;
  while (i && p.ptr[i - 1] != '/') i--;
  return ec_str_make(p.ptr + i, p.len - i);
}

ec_str ec_py_universal_newlines(ec_arena *a, ec_str s) {
  if (!s.len || !memchr(s.ptr, '\r', s.len)) return s;
  char *o = ec_arena_alloc(a, s.len + 1);
  if (!o) return ec_str_make(NULL, 0);
  size_t n = 0;
  for (size_t i = 0; i < s.len; i++) {
    if (s.ptr[i] != '\r') { o[n++] = s.ptr[i]; continue; }
    o[n++] = '\n';
    if (i + 1 < s.len && s.ptr[i + 1] == '\n') i++;
  }
  o[n] = 0;
  return ec_str_make(o, n);
}

size_t ec_py_find(ec_arena *a, ec_str hay, ec_str needle, size_t from, bool *oom) {
  *oom = false;
  if (from > hay.len) return SIZE_MAX;
  if (!needle.len) return from;
  if (needle.len > hay.len - from) return SIZE_MAX;
  size_t *fail = ec_arena_alloc(a, needle.len * sizeof *fail);
  if (!fail) { *oom = true; return SIZE_MAX; }
  fail[0] = 0;
  for (size_t i = 1, k = 0; i < needle.len; i++) {
    while (k && needle.ptr[i] != needle.ptr[k]) k = fail[k - 1];
    if (needle.ptr[i] == needle.ptr[k]) k++;
    fail[i] = k;
  }
  for (size_t i = from, k = 0; i < hay.len; i++) {
    while (k && hay.ptr[i] != needle.ptr[k]) k = fail[k - 1];
    if (hay.ptr[i] == needle.ptr[k]) k++;
    if (k == needle.len) return i + 1 - k;
  }
  return SIZE_MAX;
}

/* Section - interning */

ec_error_code ec_py_intern_init(ec_py_intern *t, ec_arena *a, size_t expect) {
  memset(t, 0, sizeof *t);
  t->arena = a;
  size_t slots = 64;
  while (slots < expect * 2 + 2) slots *= 2;
  t->slots = ec_arena_calloc(a, slots, sizeof *t->slots);
  if (!t->slots) return EC_OUT_OF_MEMORY;
  t->n_slots = slots;
  return EC_OK;
}

static ec_error_code intern_rehash(ec_py_intern *t) {
  size_t ns = t->n_slots * 2;
  uint32_t *s = ec_arena_calloc(t->arena, ns, sizeof *s);
  if (!s) return EC_OUT_OF_MEMORY;
  for (size_t id = 0; id < t->n; id++) {
    size_t h = (size_t)t->hashes[id] & (ns - 1);
    while (s[h]) h = (h + 1) & (ns - 1);
    s[h] = (uint32_t)id + 1;
  }
  t->slots = s;
  t->n_slots = ns;
  return EC_OK;
}

ec_error_code ec_py_intern_id(ec_py_intern *t, ec_str s, uint32_t *id) {
  uint64_t hv = ec_hash_bytes(s.ptr, s.len);
  size_t h = (size_t)hv & (t->n_slots - 1);
  while (t->slots[h]) {
    uint32_t k = t->slots[h] - 1;
    if (t->hashes[k] == hv && ec_str_eq(t->keys[k], s)) { *id = k; return EC_OK; }
    h = (h + 1) & (t->n_slots - 1);
  }
  if (t->n == t->cap_keys) {
    size_t nc = t->cap_keys ? t->cap_keys * 2 : 64;
    ec_str *k = ec_arena_grow(t->arena, t->keys, t->cap_keys * sizeof *k, nc * sizeof *k);
    uint64_t *hs = k ? ec_arena_grow(t->arena, t->hashes, t->cap_keys * sizeof *hs, nc * sizeof *hs) : NULL;
    if (!hs) return EC_OUT_OF_MEMORY;
    t->keys = k;
    t->hashes = hs;
    t->cap_keys = nc;
  }
  t->keys[t->n] = s;
  t->hashes[t->n] = hv;
  t->slots[h] = (uint32_t)t->n + 1;
  *id = (uint32_t)t->n++;
  if (t->n * 2 > t->n_slots) return intern_rehash(t);
  return EC_OK;
}

/* Section - difflib.SequenceMatcher */

void ec_py_matcher_init(ec_py_matcher *m, ec_arena *a) {
  memset(m, 0, sizeof *m);
  m->arena = a;
}

static int cmp_u64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

typedef struct mstate {
  ec_py_matcher *m;
  const uint32_t *a, *b;
  uint64_t *pairs;      /* (id << 32 | j), popular ids removed */
  size_t n_pairs;
  uint64_t *work, budget;
} mstate;

static size_t lower_bound(const uint64_t *p, size_t n, uint64_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static ec_error_code longest(mstate *s, size_t alo, size_t ahi, size_t blo, size_t bhi, size_t *bi, size_t *bj,
                             size_t *bk) {
  ec_py_matcher *m = s->m;
  size_t besti = alo, bestj = blo, bestsize = 0;
  m->stamp++;
  for (size_t i = alo; i < ahi; i++) {
    uint32_t row = ++m->stamp;
    uint32_t *cl = row & 1 ? m->len1 : m->len0, *cs = row & 1 ? m->st1 : m->st0;
    const uint32_t *pl = row & 1 ? m->len0 : m->len1, *ps = row & 1 ? m->st0 : m->st1;
    uint64_t key = (uint64_t)s->a[i] << 32;
    size_t p = lower_bound(s->pairs, s->n_pairs, key);
    *s->work += 1;
    for (; p < s->n_pairs && (s->pairs[p] >> 32) == s->a[i]; p++) {
      size_t j = (size_t)(s->pairs[p] & 0xFFFFFFFFu);
      *s->work += 1;
      if (j < blo) continue;
      if (j >= bhi) break;
      uint32_t k = (j > 0 && ps[j - 1] == row - 1) ? pl[j - 1] + 1 : 1;
      cl[j] = k;
      cs[j] = row;
      if (k > bestsize) { besti = i + 1 - k; bestj = j + 1 - k; bestsize = k; }
    }
    if (*s->work > s->budget) return EC_TOO_LARGE;
  }
  while (besti > alo && bestj > blo && s->a[besti - 1] == s->b[bestj - 1]) { besti--; bestj--; bestsize++; }
  while (besti + bestsize < ahi && bestj + bestsize < bhi && s->a[besti + bestsize] == s->b[bestj + bestsize]) bestsize++;
  *bi = besti;
  *bj = bestj;
  *bk = bestsize;
  return EC_OK;
}

ec_error_code ec_py_match_count(ec_py_matcher *m, const uint32_t *a, size_t la, const uint32_t *b, size_t lb,
                                uint64_t *work, uint64_t budget, size_t *matched) {
  *matched = 0;
  if (!la || !lb) return EC_OK;
  if (lb > m->cap || la + lb + 2 > m->cap) {
    size_t nc = (la + lb + 2) * 2;
    m->len0 = ec_arena_alloc(m->arena, nc * sizeof(uint32_t));
    m->len1 = ec_arena_alloc(m->arena, nc * sizeof(uint32_t));
    m->st0 = ec_arena_calloc(m->arena, nc, sizeof(uint32_t));
    m->st1 = ec_arena_calloc(m->arena, nc, sizeof(uint32_t));
    m->pairs = ec_arena_alloc(m->arena, nc * sizeof(uint64_t));
    m->stack = ec_arena_alloc(m->arena, nc * 4 * sizeof(size_t));
    if (!m->len0 || !m->len1 || !m->st0 || !m->st1 || !m->pairs || !m->stack) return EC_OUT_OF_MEMORY;
    m->cap = nc;
    m->stamp = 0;
  }
  if (m->stamp > 0xF0000000u) {
    memset(m->st0, 0, m->cap * sizeof(uint32_t));
    memset(m->st1, 0, m->cap * sizeof(uint32_t));
    m->stamp = 0;
  }
  uint64_t *pairs = m->pairs;
  for (size_t j = 0; j < lb; j++) pairs[j] = (uint64_t)b[j] << 32 | (uint64_t)j;
  ec_sort(pairs, lb, sizeof *pairs, cmp_u64);
  *work += lb;
  size_t n = lb;
  if (lb >= 200) { /* autojunk: drop elements seen more than 1% + 1 times */
    size_t ntest = lb / 100 + 1, w = 0;
    for (size_t r = 0; r < lb;) {
      size_t e = r;
      while (e < lb && (pairs[e] >> 32) == (pairs[r] >> 32)) e++;
      if (e - r <= ntest)
        for (size_t k = r; k < e; k++) pairs[w++] = pairs[k];
      r = e;
    }
    n = w;
  }
  mstate s = {m, a, b, pairs, n, work, budget};
  size_t top = 0, total = 0;
  size_t *st = m->stack;
  st[top++] = 0; st[top++] = la; st[top++] = 0; st[top++] = lb;
  while (top) {
    size_t bhi = st[--top], blo = st[--top], ahi = st[--top], alo = st[--top];
    size_t i, j, k;
    ec_error_code rc = longest(&s, alo, ahi, blo, bhi, &i, &j, &k);
    if (rc) return rc;
    if (!k) continue;
    total += k;
    if (alo < i && blo < j) { st[top++] = alo; st[top++] = i; st[top++] = blo; st[top++] = j; }
    if (i + k < ahi && j + k < bhi) { st[top++] = i + k; st[top++] = ahi; st[top++] = j + k; st[top++] = bhi; }
  }
  *matched = total;
  return EC_OK;
}

ec_error_code ec_py_codepoints(ec_arena *a, ec_str s, uint32_t **out, size_t *n) {
  uint32_t *cp = ec_arena_alloc(a, (s.len + 1) * sizeof *cp);
  if (!cp) return EC_OUT_OF_MEMORY;
  size_t k = 0;
  const unsigned char *p = (const unsigned char *)s.ptr;
  for (size_t i = 0; i < s.len;) {
    size_t b = cp_bytes(p + i, s.len - i);
    uint32_t c;
    if (b == 1) c = p[i] < 0x80 ? p[i] : 0x110000u + p[i];
    else if (b == 2) c = (uint32_t)(p[i] & 0x1F) << 6 | (p[i + 1] & 0x3F);
    else if (b == 3) c = (uint32_t)(p[i] & 0x0F) << 12 | (uint32_t)(p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F);
    else c = (uint32_t)(p[i] & 0x07) << 18 | (uint32_t)(p[i + 1] & 0x3F) << 12 | (uint32_t)(p[i + 2] & 0x3F) << 6 | (p[i + 3] & 0x3F);
    cp[k++] = c;
    i += b;
  }
  *out = cp;
  *n = k;
  return EC_OK;
}

static int str_cmp(ec_str a, ec_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  if (c) return c;
  return a.len < b.len ? -1 : a.len > b.len;
}

ec_error_code ec_py_close_match(ec_arena *a, ec_str word, const ec_str *poss, size_t n_poss, uint32_t num,
                                uint32_t den, size_t *best) {
  *best = SIZE_MAX;
  uint32_t *wb;
  size_t wn;
  if (ec_py_codepoints(a, word, &wb, &wn)) return EC_OUT_OF_MEMORY;
  ec_py_matcher m;
  ec_py_matcher_init(&m, a);
  uint64_t best_m = 0, best_t = 1;
  for (size_t i = 0; i < n_poss; i++) {
    uint32_t *xb;
    size_t xn, mt;
    if (ec_py_codepoints(a, poss[i], &xb, &xn)) return EC_OUT_OF_MEMORY;
    uint64_t work = 0;
    ec_error_code rc = ec_py_match_count(&m, xb, xn, wb, wn, &work, UINT64_MAX, &mt);
    if (rc) return rc;
    uint64_t t = xn + wn, twice = 2 * (uint64_t)mt;
    /* ratio = 2M/T (1.0 when both are empty) */
    if (!t) { twice = 1; t = 1; }
    if (twice * den < (uint64_t)num * t) continue;
    if (*best == SIZE_MAX || twice * best_t > best_m * t ||
        (twice * best_t == best_m * t && str_cmp(poss[i], poss[*best]) > 0)) {
      *best = i;
      best_m = twice;
      best_t = t;
    }
  }
  return EC_OK;
}
