#include "sys.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double eh_clock_ms(void *user) {
  (void)user;
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* The ceilings of --ceiling NAME=VALUE (docs/limits.md); zero members are the build's. */
static ec_limits ceilings;

ec_limits *eh_ceilings(void) { return &ceilings; }

const ec_host *eh_core_host(void) {
  static const ec_host host = {NULL, eh_clock_ms, NULL, &ceilings};
  return &host;
}

char *eh_read_stream(FILE *in, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  for (;;) {
    if (n + 1 >= cap) {
      char *p = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
      if (!p) { free(buf); return NULL; }
      buf = p;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n - 1, in);
    n += got;
    if (got == 0) break;
  }
  if (ferror(in)) { free(buf); return NULL; }
  buf[n] = '\0';
  *len = n;
  return buf;
}

void eh_random_hex(char *out, size_t n) {
  static const char HEX[] = "0123456789abcdef";
  static uint64_t counter;
  unsigned char bytes[32];
  if (n > 2 * sizeof bytes) n = 2 * sizeof bytes;
  if (getentropy(bytes, (n + 1) / 2) != 0) {
    /* No entropy source: time and a counter still make clashes unlikely, and O_EXCL catches them. */
    uint64_t x = (uint64_t)(eh_clock_ms(NULL) * 1000.0) ^ (++counter * 0x9E3779B97F4A7C15ULL);
    for (size_t i = 0; i < sizeof bytes; i++) { x ^= x >> 29; x *= 0xBF58476D1CE4E5B9ULL; bytes[i] = (unsigned char)(x >> 56); }
  }
  for (size_t i = 0; i < n; i++) out[i] = HEX[(bytes[i / 2] >> ((i & 1) ? 0 : 4)) & 15];
}

int eh_stdout_is_tty(void) { return isatty(1); }
