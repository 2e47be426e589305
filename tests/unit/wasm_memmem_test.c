/*
 * wasm/wasm_memmem.c (the Emscripten modules' memmem) against a plain search and this libc's
 * memmem: seeded random texts and needles over alphabets of one to four letters (many near
 * misses, periodic needles), needles cut from the text and not, both sides of the 256-byte stack
 * table, and the plain search it falls back to when malloc fails.
 */
#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *ec_wasm_memmem(const void *h, size_t n, const void *s, size_t m);

static int fail_malloc;
void *ec_wasm_memmem_malloc(size_t n) { return fail_malloc ? NULL : malloc(n); }

static uint64_t state = 0x9E3779B97F4A7C15ull;
static unsigned next(unsigned bound) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return (unsigned)(state >> 11) % bound;
}

static const char *plain(const char *h, size_t n, const char *s, size_t m) {
  for (size_t i = 0; i + m <= n; i++)
    if (!memcmp(h + i, s, m)) return h + i;
  return NULL;
}

int main(void) {
  static char h[2048], s[2048];
  int passed = 0, failed = 0;
  for (int round = 0; round < 200000; round++) {
    unsigned letters = 1 + next(4);
    size_t n = next(round % 10 ? 64 : 2048), m;
    for (size_t i = 0; i < n; i++) h[i] = (char)('a' + next(letters));
    if (n && next(2)) { /* cut from the text, perhaps changed in one byte */
      size_t at = next((unsigned)n);
      m = next((unsigned)(n - at) + 1);
      if (round % 7 == 0 && n - at > 256) m = 200 + next((unsigned)(n - at - 199));
      memcpy(s, h + at, m);
      if (m && next(3) == 0) s[next((unsigned)m)] = (char)('a' + next(letters + 1));
    } else {
      m = next(round % 5 ? 12 : 600);
      for (size_t i = 0; i < m; i++) s[i] = (char)('a' + next(letters));
    }
    fail_malloc = round % 3 == 0;
    const char *want = plain(h, n, s, m), *got = ec_wasm_memmem(h, n, s, m);
    if (got == want && (!m || got == memmem(h, n, s, m))) passed++;
    else if (failed++ < 10)
      fprintf(stderr, "round %d: n %zu m %zu: got %td, want %td\n", round, n, m, got ? got - h : -1, want ? want - h : -1);
  }
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
