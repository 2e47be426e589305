#include "codex_seek.h"
#include "../base/hash.h"
#include <stdint.h>
#include <string.h>

#define WINDOW_BASE 0x100000001b3ULL

/* Section - UTF-8 */

/* The code point at p (n bytes left) and its length; an invalid byte is 0x110000 + byte, length 1. */
static uint32_t u8_decode(const unsigned char *p, size_t n, size_t *len) {
  unsigned c = p[0];
  *len = 1;
  if (c < 0x80) return c;
  size_t need = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 ? 2 : 0;
  if (!need || need > n) return 0x110000u + c;
  uint32_t cp = need == 2 ? (c & 0x1F) : need == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t i = 1; i < need; i++) {
    unsigned d = p[i];
    if ((d & 0xC0) != 0x80) return 0x110000u + c;
    if (i == 1 && ((c == 0xE0 && d < 0xA0) || (c == 0xED && d > 0x9F) || (c == 0xF0 && d < 0x90) || (c == 0xF4 && d > 0x8F)))
      return 0x110000u + c;
    cp = (cp << 6) | (d & 0x3F);
  }
  *len = need;
  return cp;
}

static bool is_space(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

ec_str ec_u8_trim_start(ec_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t i = 0, len;
  while (i < s.len) {
    uint32_t c = u8_decode(p + i, s.len - i, &len);
    if (!is_space(c)) break;
    i += len;
  }
  ec_str r = {s.ptr + i, s.len - i};
  return r;
}

ec_str ec_u8_trim_end(ec_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t end = s.len;
  while (end) {
    if (p[end - 1] < 0x80) {
      if (!is_space(p[end - 1])) break;
      end--;
      continue;
    }
    size_t st = end - 1, back = 0;
    while (st > 0 && back < 3 && (p[st] & 0xC0) == 0x80) { st--; back++; }
    size_t len;
    uint32_t c = u8_decode(p + st, end - st, &len);
    if (st + len != end || !is_space(c)) break;
    end = st;
  }
  ec_str r = {s.ptr, end};
  return r;
}

ec_str ec_u8_trim(ec_str s) { return ec_u8_trim_start(ec_u8_trim_end(s)); }

static uint32_t fold(uint32_t c) {
  if ((c >= 0x2010 && c <= 0x2015) || c == 0x2212) return '-';
  if (c >= 0x2018 && c <= 0x201B) return '\'';
  if (c >= 0x201C && c <= 0x201F) return '"';
  if (c == 0xA0 || (c >= 0x2002 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000) return ' ';
  return c;
}

/* Section - levels */

static ec_str level_view(ec_seek_level level, ec_str s) {
  if (level == EC_SEEK_TRIM_END) return ec_u8_trim_end(s);
  if (level >= EC_SEEK_TRIM) return ec_u8_trim(s);
  return s;
}

static bool folded_eq(ec_str a, ec_str b) {
  const unsigned char *p = (const unsigned char *)a.ptr, *q = (const unsigned char *)b.ptr;
  size_t i = 0, j = 0, la, lb;
  while (i < a.len && j < b.len) {
    if (fold(u8_decode(p + i, a.len - i, &la)) != fold(u8_decode(q + j, b.len - j, &lb))) return false;
    i += la;
    j += lb;
  }
  return i == a.len && j == b.len;
}

bool ec_seek_line_eq(ec_seek_level level, ec_str a, ec_str b) {
  a = level_view(level, a);
  b = level_view(level, b);
  if (level == EC_SEEK_UNICODE) return folded_eq(a, b);
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

ec_strategy ec_seek_level_strategy(ec_seek_level level) {
  switch (level) {
    case EC_SEEK_EXACT: return EC_STRATEGY_EXACT;
    case EC_SEEK_TRIM_END: return EC_STRATEGY_TRIM_END;
    case EC_SEEK_TRIM: return EC_STRATEGY_INDENT;
    default: return EC_STRATEGY_UNICODE;
  }
}

/* The key of one line at a level; EC_OUT_OF_MEMORY leaves *out unset. */
static ec_error_code line_key(ec_seek_table *t, ec_seek_level level, ec_str s, uint64_t *out) {
  s = level_view(level, s);
  if (level != EC_SEEK_UNICODE) { *out = ec_hash_bytes(s.ptr, s.len); return EC_OK; }
  if (t->scratch_cap < s.len + 1) {
    size_t nc = s.len + 64;
    char *p = ec_arena_grow(t->arena, t->scratch, t->scratch_cap, nc);
    if (!p) return EC_OUT_OF_MEMORY;
    t->scratch = p;
    t->scratch_cap = nc;
  }
  /* Folding only shortens (every folded character is multi-byte and becomes one ASCII byte). */
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t w = 0, len;
  for (size_t i = 0; i < s.len; i += len) {
    uint32_t c = u8_decode(p + i, s.len - i, &len);
    uint32_t f = fold(c);
    if (f != c) t->scratch[w++] = (char)f;
    else { memcpy(t->scratch + w, s.ptr + i, len); w += len; }
  }
  *out = ec_hash_bytes(t->scratch, w);
  return EC_OK;
}

static ec_error_code build_level(ec_seek_table *t, ec_seek_level level) {
  if (t->prefix[level]) return EC_OK;
  uint64_t *key = ec_arena_alloc(t->arena, (t->n + 1) * sizeof *key);
  uint64_t *pre = ec_arena_alloc(t->arena, (t->n + 1) * sizeof *pre);
  if (!key || !pre) return EC_OUT_OF_MEMORY;
  pre[0] = 0;
  for (size_t i = 0; i < t->n; i++) {
    if (line_key(t, level, t->lines[i], &key[i])) return EC_OUT_OF_MEMORY;
    pre[i + 1] = pre[i] * WINDOW_BASE + key[i];
  }
  t->key[level] = key;
  t->prefix[level] = pre;
  return EC_OK;
}

static uint64_t pow_base(size_t m) {
  uint64_t r = 1, b = WINDOW_BASE;
  while (m) {
    if (m & 1) r *= b;
    b *= b;
    m >>= 1;
  }
  return r;
}

void ec_seek_init(ec_seek_table *t, ec_arena *a, const ec_str *lines, size_t n, uint64_t budget) {
  memset(t, 0, sizeof *t);
  t->arena = a;
  t->lines = lines;
  t->n = n;
  t->budget = budget;
}

ec_error_code ec_seek_at_level(ec_seek_table *t, const ec_str *pat, size_t m, size_t from, bool eof,
                               ec_seek_level level, size_t *pos, size_t *next) {
  *pos = SIZE_MAX;
  if (next) *next = SIZE_MAX;
  if (m > t->n) return EC_OK;
  size_t last = t->n - m;
  if (eof && from < last) from = last; /* only the last start, and never before `from` */
  if (from > last) return EC_OK;
  if (!m) { *pos = from; if (next && from < last) *next = from + 1; return EC_OK; }
  ec_error_code rc = build_level(t, level);
  if (rc) return rc;
  uint64_t want = 0, first_key = 0;
  for (size_t k = 0; k < m; k++) {
    uint64_t h;
    if (line_key(t, level, pat[k], &h)) return EC_OUT_OF_MEMORY;
    if (!k) first_key = h;
    want = want * WINDOW_BASE + h;
  }
  const uint64_t *pre = t->prefix[level], *key = t->key[level];
  uint64_t bm = pow_base(m);
  size_t found = 0;
  for (size_t i = from; i <= last; i++) {
    if (t->budget && ++t->work > t->budget) return EC_TOO_LARGE;
    if (key[i] != first_key || pre[i + m] - pre[i] * bm != want) continue;
    size_t k = 0;
    while (k < m && ec_seek_line_eq(level, t->lines[i + k], pat[k])) k++;
    if (k < m) continue;
    if (!found++) {
      *pos = i;
      if (!next) return EC_OK;
    } else {
      *next = i;
      return EC_OK;
    }
  }
  return EC_OK;
}

ec_error_code ec_seek_find(ec_seek_table *t, const ec_str *pat, size_t m, size_t from, bool eof,
                           size_t *pos, ec_seek_level *level) {
  *pos = SIZE_MAX;
  *level = EC_SEEK_EXACT;
  if (!m) { *pos = from; return EC_OK; }
  for (int l = 0; l < EC_SEEK__LEVELS; l++) {
    ec_error_code rc = ec_seek_at_level(t, pat, m, from, eof, (ec_seek_level)l, pos, NULL);
    if (rc) return rc;
    if (*pos != SIZE_MAX) { *level = (ec_seek_level)l; return EC_OK; }
  }
  return EC_OK;
}
