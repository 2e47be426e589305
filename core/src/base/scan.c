/* ec_scan_text (scan.h): LFs counted in per-byte counters summed every 255 steps, before a lane
 * can overflow; NUL and CR found by one minimum: min(v, v ^ CR) is 0 exactly where v is NUL or
 * CR, so the running minimum of it over the text is 0 when either occurs. */
#include "scan.h"
#include "kernels.h"
#include "str.h"
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define EC_SCAN_X86 1
#include <immintrin.h>
#endif

static ec_text_scan tail(const char *p, size_t i, size_t n, ec_text_scan s) {
  for (; i < n; i++) {
    s.n_lf += p[i] == '\n';
    s.nul_or_cr |= p[i] == 0 || p[i] == '\r';
  }
  return s;
}

#ifdef EC_SCAN_X86
static ec_text_scan scan_sse2(const char *p, size_t n) {
  ec_text_scan s = {0, false};
  size_t i = 0;
  const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
  __m128i low = _mm_set1_epi8((char)0xFF);
  while (n - i >= 16) {
    size_t steps = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
    __m128i acc = zero;
    for (size_t k = 0; k < steps; k++, i += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
      acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, lf));
      low = _mm_min_epu8(low, _mm_min_epu8(v, _mm_xor_si128(v, cr)));
    }
    __m128i sum = _mm_sad_epu8(acc, zero); /* two 64-bit lanes, each the sum of eight counters */
    s.n_lf += (size_t)_mm_cvtsi128_si32(sum) + (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sum, sum));
  }
  s.nul_or_cr = _mm_movemask_epi8(_mm_cmpeq_epi8(low, zero)) != 0;
  return tail(p, i, n, s);
}

__attribute__((target("avx2"))) static ec_text_scan scan_avx2(const char *p, size_t n) {
  ec_text_scan s = {0, false};
  size_t i = 0;
  const __m256i lf = _mm256_set1_epi8('\n'), cr = _mm256_set1_epi8('\r'), zero = _mm256_setzero_si256();
  __m256i low = _mm256_set1_epi8((char)0xFF);
  while (n - i >= 64) {
    size_t steps = (n - i) / 64 < 255 ? (n - i) / 64 : 255;
    __m256i acc0 = zero, acc1 = zero;
    for (size_t k = 0; k < steps; k++, i += 64) {
      __m256i v0 = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
      __m256i v1 = _mm256_loadu_si256((const __m256i *)(const void *)(p + i + 32));
      acc0 = _mm256_sub_epi8(acc0, _mm256_cmpeq_epi8(v0, lf));
      acc1 = _mm256_sub_epi8(acc1, _mm256_cmpeq_epi8(v1, lf));
      low = _mm256_min_epu8(low, _mm256_min_epu8(_mm256_min_epu8(v0, _mm256_xor_si256(v0, cr)),
                                                 _mm256_min_epu8(v1, _mm256_xor_si256(v1, cr))));
    }
    __m256i sum = _mm256_add_epi64(_mm256_sad_epu8(acc0, zero), _mm256_sad_epu8(acc1, zero));
    __m128i half = _mm_add_epi64(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s.n_lf += (size_t)_mm_cvtsi128_si32(half) + (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(half, half));
  }
  s.nul_or_cr = _mm256_movemask_epi8(_mm256_cmpeq_epi8(low, zero)) != 0;
  ec_text_scan rest = scan_sse2(p + i, n - i);
  s.n_lf += rest.n_lf;
  s.nul_or_cr |= rest.nul_or_cr;
  return s;
}
#endif

/* Eight bytes at a time: a byte equal to c is a zero byte of w ^ (c x 8), and "w has a zero
 * byte" is exactly (w - 0x01..) & ~w & 0x80.. != 0 (its false positives only ever sit above a
 * true zero byte). */
static ec_text_scan scan_swar(const char *p, size_t n) {
  ec_text_scan s = {0, false};
  size_t i = 0;
  const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
  uint64_t odd = 0;
  while (n - i >= 8) {
    size_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
    uint64_t sum = 0;
    for (size_t k = 0; k < words; k++, i += 8) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      uint64_t y = w ^ (ones * '\r');
      sum += ec_swar_lf_ones(w); /* the LF count of ec_count_lf's portable loop */
      odd |= ((w - ones) & ~w & high) | ((y - ones) & ~y & high);
    }
    s.n_lf += ec_swar_sum_bytes(sum);
  }
  s.nul_or_cr = odd != 0;
  return tail(p, i, n, s);
}

bool ec_scan_text_by(int kernel, const char *p, size_t n, ec_text_scan *out) {
  switch (kernel) {
    case 0: *out = scan_swar(p, n); return true;
#ifdef EC_SCAN_X86
    case 1: *out = scan_sse2(p, n); return true;
    case 2: if (!__builtin_cpu_supports("avx2")) return false; *out = scan_avx2(p, n); return true;
#endif
    default: return false;
  }
}

ec_text_scan ec_scan_text(const char *p, size_t n) {
#ifdef EC_SCAN_X86
  /* The CPU is asked once per call: cheap next to a pass worth choosing (small texts take SSE2). */
  if (n >= 4096 && __builtin_cpu_supports("avx2")) return scan_avx2(p, n);
  return scan_sse2(p, n);
#else
  ec_text_scan s;
  if (n >= EC_HOST_KERNEL_MIN && ec_kernels.scan_text && ec_kernels.scan_text(p, n, &s.n_lf, &s.nul_or_cr)) return s;
  return scan_swar(p, n);
#endif
}
