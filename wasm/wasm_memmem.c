/*
 * memmem for the three Emscripten modules, written for them: Knuth-Morris-Pratt in a few hundred
 * bytes instead of libc's two-way search (musl's, with its byte-shift table and its two-, three-
 * and four-byte loops: ~1.25 KB of each module's code). memmem's answer is defined (the first
 * occurrence, or NULL), so any correct search gives the same pointer, and the answers stay byte
 * for byte those of the native and WASI builds (tests/unit/wasm_memmem_test.c checks it against
 * a plain search; conformance checks every vector).
 *
 * Linear, as the core relies on (core/src/base/kernels.h: ec_find is memmem on whole files): each
 * step either moves on in the text or falls back along the needle's border table by less than
 * the steps that went forward. While nothing is matched, memchr skips to the needle's first byte.
 * The table is a word a needle byte: on the stack up to 256 bytes of needle (the core's lazy
 * searches for names and keywords), else malloc'd; should that fail, a plain search answers the
 * same, slower.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#ifdef EC_WASM_MEMMEM_TEST /* the native test calls it beside libc's own, and fails its malloc */
#define memmem ec_wasm_memmem
void *ec_wasm_memmem_malloc(size_t n);
#define malloc ec_wasm_memmem_malloc
#endif

void *memmem(const void *haystack, size_t n, const void *needle, size_t m) {
  const unsigned char *p = haystack, *end = p + n, *s = needle;
  if (!m) return (void *)p;
  if (m > n) return NULL;
  size_t small[256], *border = m <= 256 ? small : malloc(m * sizeof *border);
  if (!border) { /* out of memory: each candidate compared whole */
    for (; (p = memchr(p, s[0], (size_t)(end - p))) && (size_t)(end - p) >= m; p++)
      if (!memcmp(p, s, m)) return (void *)p;
    return NULL;
  }
  /* border[j]: the length of the longest proper prefix of s[0, j] that is also its suffix */
  border[0] = 0;
  for (size_t j = 1, k = 0; j < m; j++) {
    while (k && s[j] != s[k]) k = border[k - 1];
    if (s[j] == s[k]) k++;
    border[j] = k;
  }
  const unsigned char *hit = NULL;
  for (size_t k = 0;;) { /* k: the needle's bytes matched, ending at p */
    if (!k && !(p = memchr(p, s[0], (size_t)(end - p)))) break;
    if ((size_t)(end - p) < m - k) break; /* too little text left for the rest */
    if (*p == s[k]) {
      p++;
      if (++k == m) { hit = p - m; break; }
    } else {
      k = border[k - 1]; /* k > 0: with k == 0, memchr stopped on s[0] */
    }
  }
  if (border != small) free(border);
  return (void *)hit;
}
