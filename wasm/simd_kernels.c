/*
 * editcore-kernels.wasm: the engine's three hot scans in WebAssembly SIMD (128-bit), a module of
 * its own so the engine modules stay loadable where the JS engine has no SIMD (Safari before
 * 16.4): the npm package instantiates this one where WebAssembly.validate accepts it, on the
 * engine module's own memory (it imports that memory and nothing else), and the engine reaches it
 * through wasm/host_kernels.c. Each function answers exactly as the portable code it stands in
 * for (core/src/base/scan.c, ec_count_lf, memmem): js/test/kernels.test.js holds them to it.
 *
 * Built by clang --target=wasm32 -msimd128 -nostdlib (wasm/CMakeLists.txt), not by emcc: no libc,
 * no data segment and no stack use, since the memory is the engine's (js/scripts/build-kernels.mjs
 * refuses a build that has either).
 */
#include <stdint.h>
#include <wasm_simd128.h>

#define EXPORT(name) __attribute__((export_name(name)))

/* Counts of one byte, sixteen lanes at a time, summed every 255 steps before a lane overflows. */
static uint32_t lane_sum(v128_t acc) {
  v128_t s = wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(acc));
  return (uint32_t)(wasm_i32x4_extract_lane(s, 0) + wasm_i32x4_extract_lane(s, 1) + wasm_i32x4_extract_lane(s, 2) +
                    wasm_i32x4_extract_lane(s, 3));
}

/* ec_scan_text: out[0] the LF bytes of p[0, n), out[1] 1 when some byte is 0 or '\r', else 0.
 * NUL and CR by one minimum: min(v, v ^ CR) is 0 exactly where v is NUL or CR. */
EXPORT("scan_text") void scan_text(const uint8_t *p, uint32_t n, uint32_t *out) {
  const v128_t lf = wasm_i8x16_splat('\n'), cr = wasm_i8x16_splat('\r');
  v128_t low = wasm_i8x16_splat(-1);
  uint32_t i = 0, lfs = 0, odd = 0;
  while (n - i >= 16) {
    uint32_t steps = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
    v128_t acc = wasm_i8x16_splat(0);
    for (uint32_t k = 0; k < steps; k++, i += 16) {
      v128_t v = wasm_v128_load(p + i);
      acc = wasm_i8x16_sub(acc, wasm_i8x16_eq(v, lf));
      low = wasm_u8x16_min(low, wasm_u8x16_min(v, wasm_v128_xor(v, cr)));
    }
    lfs += lane_sum(acc);
  }
  odd = wasm_v128_any_true(wasm_i8x16_eq(low, wasm_i8x16_splat(0)));
  for (; i < n; i++) {
    lfs += p[i] == '\n';
    odd |= p[i] == 0 || p[i] == '\r';
  }
  out[0] = lfs;
  out[1] = odd;
}

/* ec_count_lf: the LF bytes of p[0, n). */
EXPORT("count_lf") uint32_t count_lf(const uint8_t *p, uint32_t n) {
  const v128_t lf = wasm_i8x16_splat('\n');
  uint32_t i = 0, lfs = 0;
  while (n - i >= 16) {
    uint32_t steps = (n - i) / 16 < 255 ? (n - i) / 16 : 255;
    v128_t acc = wasm_i8x16_splat(0);
    for (uint32_t k = 0; k < steps; k++, i += 16) acc = wasm_i8x16_sub(acc, wasm_i8x16_eq(wasm_v128_load(p + i), lf));
    lfs += lane_sum(acc);
  }
  for (; i < n; i++) lfs += p[i] == '\n';
  return lfs;
}

static int same(const uint8_t *a, const uint8_t *b, uint32_t n) {
  uint32_t i = 0;
  for (; i + 16 <= n; i += 16)
    if (!wasm_i8x16_all_true(wasm_i8x16_eq(wasm_v128_load(a + i), wasm_v128_load(b + i)))) return 0;
  for (; i < n; i++) if (a[i] != b[i]) return 0;
  return 1;
}

/* Lanes k where at[k + p1] and at[k + p2] are the needle's bytes there. */
static v128_t hits(const uint8_t *at, uint32_t p1, v128_t b1, uint32_t p2, v128_t b2) {
  return wasm_v128_and(wasm_i8x16_eq(wasm_v128_load(at + p1), b1), wasm_i8x16_eq(wasm_v128_load(at + p2), b2));
}

/* How rarely a byte occurs in source text, roughly (higher: rarer), to pick the needle bytes the
 * search filters on: filtering on a space and a letter passes most offsets of code; on a '{' and
 * a digit, few. Code, not a table: the module may not have a data segment. */
static int rarity(uint8_t b) {
  if (b == ' ') return 0;
  if (b == '\n' || b == 'e' || b == 't' || b == 'a' || b == 'o' || b == 'i' || b == 'n' || b == 's' || b == 'r') return 1;
  if (b >= 'a' && b <= 'z') return 2;
  if (b == '(' || b == ')' || b == ';' || b == ',' || b == '.' || b == '=' || b == '_' || b == '\t') return 3;
  if ((b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')) return 4;
  return b < 0x80 ? 5 : 6;
}

/*
 * memmem's answer for needle s[0, m) in h[0, n): the first offset, or -1 when there is none; or
 * -2 - at: "no occurrence starts before `at`; search the rest with memmem". Candidate offsets
 * are those where two of the needle's bytes, the rarest two by `rarity`, sit where the needle has
 * them, found sixty-four offsets a step (one test for "none" per step: most steps have none, and
 * that halved the time of a 1 MB search against sixteen a step); each is compared whole. That is linear unless the text is
 * full of near misses (a needle of "aaa...b" in "aaaa..."): the bytes compared are capped at
 * n + 4096, past which the caller's memmem (linear in every case) takes over from the offset
 * reached.
 */
EXPORT("find") int32_t find(const uint8_t *h, uint32_t n, const uint8_t *s, uint32_t m) {
  if (m == 0) return 0;
  if (m > n) return -1;
  /* p1 != p2 when m > 1 (both 0 when m == 1); the rarer first, so the first compare fails most */
  uint32_t p1 = 0, p2 = m - 1;
  int r1 = -1, r2 = -1;
  for (uint32_t j = 0; j < m; j++) {
    int r = rarity(s[j]);
    if (r > r1) { p2 = p1; r2 = r1; p1 = j; r1 = r; }
    else if (r > r2) { p2 = j; r2 = r; }
  }
  if (m > 1 && p2 == p1) p2 = p1 ? 0 : m - 1;
  const v128_t b1 = wasm_i8x16_splat((int8_t)s[p1]), b2 = wasm_i8x16_splat((int8_t)s[p2]);
  uint32_t end = n - m + 1; /* candidate offsets: [0, end) */
  uint32_t budget = n > UINT32_MAX - 4096 ? UINT32_MAX : n + 4096, spent = 0;
  uint32_t i = 0;
  for (; end - i >= 64; i += 64) {
    /* p1, p2 <= m - 1, so h[i + 63 + p] < n: every load stays inside the text */
    v128_t c0 = hits(h + i, p1, b1, p2, b2), c1 = hits(h + i + 16, p1, b1, p2, b2);
    v128_t c2 = hits(h + i + 32, p1, b1, p2, b2), c3 = hits(h + i + 48, p1, b1, p2, b2);
    if (!wasm_v128_any_true(wasm_v128_or(wasm_v128_or(c0, c1), wasm_v128_or(c2, c3)))) continue;
    uint64_t mask = (uint64_t)(uint32_t)wasm_i8x16_bitmask(c0) | (uint64_t)(uint32_t)wasm_i8x16_bitmask(c1) << 16 |
                    (uint64_t)(uint32_t)wasm_i8x16_bitmask(c2) << 32 | (uint64_t)(uint32_t)wasm_i8x16_bitmask(c3) << 48;
    for (; mask; mask &= mask - 1) {
      uint32_t at = i + (uint32_t)__builtin_ctzll(mask);
      if (same(h + at, s, m)) return (int32_t)at;
      if ((spent += m) > budget) return -2 - (int32_t)i;
    }
  }
  for (; i < end; i++) { /* the last < 64 offsets */
    if (h[i + p1] != s[p1] || h[i + p2] != s[p2]) continue;
    if (same(h + i, s, m)) return (int32_t)i;
    if ((spent += m) > budget) return -2 - (int32_t)i;
  }
  return -1;
}
