/* ec_hash_bytes: the lazy merge takes two lines with one key for the same line (table.c), so
 * short strings must never share a hash. Before the tail carried its length, "" and "\x01"
 * hashed alike (the seed's length and the tail's byte cancelled) and a control-character line
 * was merged as a blank one (fuzz_lazy, 2026-11-28). */
#include "test_util.h"
#include "base/hash.h"
#include <stdint.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* Counts equal neighbours after sorting: 0 when every hash is distinct. */
static size_t collisions(uint64_t *h, size_t n) {
  qsort(h, n, sizeof *h, cmp_u64);
  size_t c = 0;
  for (size_t i = 1; i < n; i++) c += h[i] == h[i - 1];
  return c;
}

int main(void) {
  CHECK(ec_hash_bytes("", 0) != ec_hash_bytes("\x01", 1));
  CHECK(ec_hash_bytes("a", 1) == ec_hash_bytes("a", 1));

  /* every string of 0, 1 or 2 bytes: 1 + 256 + 65,536 hashes, all distinct */
  size_t n = 0, cap = 1 + 256 + 65536;
  uint64_t *h = malloc(cap * sizeof *h);
  CHECK(h != NULL);
  if (!h) return 1;
  h[n++] = ec_hash_bytes("", 0);
  for (int a = 0; a < 256; a++) {
    char s[2] = {(char)a, 0};
    h[n++] = ec_hash_bytes(s, 1);
  }
  for (int a = 0; a < 256; a++)
    for (int b = 0; b < 256; b++) {
      char s[2] = {(char)a, (char)b};
      h[n++] = ec_hash_bytes(s, 2);
    }
  CHECK_MSG(collisions(h, n) == 0, "%zu collisions among strings of up to 2 bytes\n", collisions(h, n));

  /* runs of one byte (0x00, 0x01, ' ', 0xFF) of every length to 64, across the 8-byte words */
  static const char fill[] = {0x00, 0x01, ' ', (char)0xFF};
  char buf[64];
  n = 0;
  for (size_t f = 0; f < sizeof fill; f++) {
    memset(buf, fill[f], sizeof buf);
    for (size_t len = 1; len <= 64; len++) h[n++] = ec_hash_bytes(buf, len);
  }
  h[n++] = ec_hash_bytes("", 0);
  CHECK_MSG(collisions(h, n) == 0, "%zu collisions among runs of one byte\n", collisions(h, n));
  free(h);
  TEST_MAIN_END();
}
