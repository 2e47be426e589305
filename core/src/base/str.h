/* Small helpers over ec_str. */
#ifndef EC_BASE_STR_H
#define EC_BASE_STR_H
#include "editcore.h"
#include <string.h>
#include <stdint.h>
#include "kernels.h"

static inline ec_str ec_str_make(const char *p, size_t n) { ec_str s = {p, n}; return s; }
static inline ec_str ec_cstr(const char *p) { ec_str s = {p, p ? strlen(p) : 0}; return s; }
static inline bool ec_str_eq(ec_str a, ec_str b) {
  return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}
static inline bool ec_str_eq_cstr(ec_str a, const char *b) { return ec_str_eq(a, ec_cstr(b)); }
static inline bool ec_str_has_nul(ec_str s) { return s.len && memchr(s.ptr, 0, s.len) != NULL; }
static inline bool ec_str_starts_with(ec_str s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.len >= n && memcmp(s.ptr, prefix, n) == 0;
}
static inline bool ec_str_ends_with(ec_str s, const char *suffix) {
  size_t n = strlen(suffix);
  return s.len >= n && memcmp(s.ptr + s.len - n, suffix, n) == 0;
}

/*
 * ASCII whitespace by named set, so every trim says which one it means. The sets differ on
 * purpose: a peer's trim is reproduced byte for byte, and a line's own whitespace never
 * includes the LF that ends it.
 *   EC_WS_BLANK   ' ' '\t'                        indentation
 *   EC_WS_LINE    ' ' '\t' '\r'                   what ends a line before its LF (a CR of CRLF too)
 *   EC_WS_HSPACE  ' ' '\t' '\r' '\f' '\v'          whitespace inside a line (everything but LF)
 *   EC_WS_ASCII   ' ' '\t' '\n' '\r' '\f' '\v'     C's isspace; the ASCII part of JS trim()
 *   EC_WS_PYTHON  EC_WS_ASCII and 0x1C-0x1F           the ASCII part of Python's str.strip()
 */
typedef enum ec_ws { EC_WS_BLANK, EC_WS_LINE, EC_WS_HSPACE, EC_WS_ASCII, EC_WS_PYTHON } ec_ws;
static inline bool ec_is_ws(char c, ec_ws set) {
  switch (set) {
    case EC_WS_BLANK: return c == ' ' || c == '\t';
    case EC_WS_LINE: return c == ' ' || c == '\t' || c == '\r';
    case EC_WS_HSPACE: return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
    case EC_WS_ASCII: return c == ' ' || (c >= '\t' && c <= '\r');
    case EC_WS_PYTHON: return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
  }
  return false;
}
static inline ec_str ec_str_trim_start(ec_str s, ec_ws set) {
  while (s.len && ec_is_ws(s.ptr[0], set)) { s.ptr++; s.len--; }
  return s;
}
static inline ec_str ec_str_trim_end(ec_str s, ec_ws set) {
  while (s.len && ec_is_ws(s.ptr[s.len - 1], set)) s.len--;
  return s;
}
static inline ec_str ec_str_trim(ec_str s, ec_ws set) { return ec_str_trim_end(ec_str_trim_start(s, set), set); }
/** s without its first n bytes (n <= s.len). */
static inline ec_str ec_str_drop(ec_str s, size_t n) { ec_str r = {s.ptr + n, s.len - n}; return r; }
/* The number of LF bytes in p[0, n). Sixteen bytes at a time with SSE2 (every x86-64 build),
 * else eight at a time (SWAR): one memchr per line costs three times as much on source text
 * (short lines), natively and far more in wasm, and line numbers are counted over whole files
 * (matches, diff hunks). Per-byte counters are summed every 255 steps, before a lane can
 * overflow. */
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
/* The two SWAR helpers run once per eight bytes of a file: -Oz (the wasm builds) would make them
 * calls, which cost the portable load scan 4 % of a 1 MB JSON request; they are always inlined. */
#if defined(__GNUC__) || defined(__clang__)
#define EC_HOT_INLINE static inline __attribute__((always_inline))
#else
#define EC_HOT_INLINE static inline
#endif

/* Eight bytes in a word (SWAR), shared by this count and base/scan.c's load scan: 1 in each byte
 * of w that is LF, else 0. Exact: x's low seven bits plus 0x7F carry into the high bit only
 * within its own byte. */
EC_HOT_INLINE uint64_t ec_swar_lf_ones(uint64_t w) {
  const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7F7F7F7F7F7F7F7FULL;
  uint64_t x = w ^ (ones * '\n');
  uint64_t nonzero = ((x & low7) + low7) | x; /* high bit of each byte: that byte is not LF */
  return (~nonzero >> 7) & ones;
}

/* The sum of a word's eight byte counters (each at most 255). */
EC_HOT_INLINE size_t ec_swar_sum_bytes(uint64_t sum) {
  const uint64_t lanes = 0x00FF00FF00FF00FFULL;
  sum = (sum & lanes) + ((sum >> 8) & lanes);
  return (size_t)((sum * 0x0001000100010001ULL) >> 48);
}

static inline size_t ec_count_lf(const char *p, size_t n) {
  if (n >= EC_HOST_KERNEL_MIN && ec_kernels.count_lf) {
    size_t k = ec_kernels.count_lf(p, n);
    if (k != SIZE_MAX) return k;
  }
  size_t c = 0, i = 0;
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();
  while (n - i >= 16) {
    size_t steps = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
    __m128i acc = zero;
    for (size_t k = 0; k < steps; k++, i += 16)
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(p + i)), lf));
    __m128i sum = _mm_sad_epu8(acc, zero); /* two 64-bit lanes, each the sum of eight counters */
    c += (size_t)_mm_cvtsi128_si32(sum) + (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
  }
#else
  while (n - i >= 8) {
    size_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
    uint64_t sum = 0;
    for (size_t k = 0; k < words; k++, i += 8) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      sum += ec_swar_lf_ones(w);
    }
    c += ec_swar_sum_bytes(sum);
  }
#endif
  for (; i < n; i++) c += p[i] == '\n';
  return c;
}

/* Where the line holding byte at - 1 starts, looking no further back than `floor`: just after
 * the last LF in p[floor, at), else floor. Eight bytes a step while they hold no LF (a diff's
 * window walks back a hundred lines of context this way). */
static inline size_t ec_line_start_before(const char *p, size_t floor, size_t at) {
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  while (at - floor >= 8) {
    uint64_t w;
    memcpy(&w, p + at - 8, 8);
    uint64_t x = w ^ (ones * '\n');
    if ((x - ones) & ~x & high) break; /* some byte of the eight is LF: find it below */
    at -= 8;
  }
  while (at > floor && p[at - 1] != '\n') at--;
  return at;
}

/** Lines of a text as a file has them: its LFs, and one more when it ends without one. */
static inline size_t ec_count_lines(ec_str s) {
  return ec_count_lf(s.ptr, s.len) + (s.len && s.ptr[s.len - 1] != '\n');
}
/* A line echoed in a message for the model: at most EC_ECHO_MAX bytes, cut on a UTF-8 character
 * boundary; print it as "%.*s%s" with ec_echo_len(s), s.ptr, ec_echo_more(s). */
#define EC_ECHO_MAX 120
static inline int ec_echo_len(ec_str s) {
  if (s.len <= EC_ECHO_MAX) return (int)s.len;
  size_t n = EC_ECHO_MAX;
  while (n > 0 && ((unsigned char)s.ptr[n] & 0xC0) == 0x80) n--;
  return (int)n;
}
static inline const char *ec_echo_more(ec_str s) { return s.len > EC_ECHO_MAX ? "..." : ""; }

#endif
