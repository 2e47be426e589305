/*
 * wasm/wasm_numbers.c (the small strtod and printf of editcore-lite.wasm and editcore.wasm)
 * against the native libc's: every value it reads or prints itself must come out byte for byte as
 * libc's does; every one it cannot must raise the flag that sends the run to editcore-tools.wasm.
 * Values: edge cases (ties of %.3f and %.0f, -0, subnormals, 2^53, 2^64, 15 and 16 digits,
 * 10^+-22 and 10^+-23) and 200,000 seeded random ones.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double ec_wasm_strtod(const char *s, char **end);
int ec_wasm_snprintf(char *out, size_t cap, const char *fmt, ...);

static int deferred, failures;
void ec_wasm_needs_whole(void) { deferred = 1; }

static void fail(const char *what, const char *got, const char *want) {
  if (failures++ < 20) fprintf(stderr, "FAIL %s: got '%s', libc '%s'\n", what, got, want);
}

static void check_fixed(double v) {
  static const char *fmts[] = {"%.3f", "%.0f", "%.1f", "%.2f", "%8.3f", "%010.2f"};
  for (size_t k = 0; k < sizeof fmts / sizeof *fmts; k++) {
    char got[400], want[400], what[80];
    deferred = 0;
    ec_wasm_snprintf(got, sizeof got, fmts[k], v);
    if (deferred) {
      if (!isinf(v) && !isnan(v) && fabs(v) < 0x1p64) { snprintf(what, sizeof what, "%s of %a deferred", fmts[k], v); fail(what, got, ""); }
      continue;
    }
    snprintf(want, sizeof want, fmts[k], v);
    snprintf(what, sizeof what, "%s of %a", fmts[k], v);
    if (strcmp(got, want)) fail(what, got, want);
  }
}

static void check_read(const char *text) {
  char *e1, *e2;
  deferred = 0;
  double got = ec_wasm_strtod(text, &e1);
  if (deferred) return;
  double want = strtod(text, &e2);
  if (memcmp(&got, &want, sizeof got) || e1 != e2) {
    char g[64], w[64];
    snprintf(g, sizeof g, "%a +%td", got, e1 - text);
    snprintf(w, sizeof w, "%a +%td", want, e2 - text);
    fail(text, g, w);
  }
}

static void check_ints(void) {
  char got[200], want[200];
  struct { const char *fmt; long long v; } cases[] = {
    {"%d", 0}, {"%d", -2147483647 - 1}, {"%5d|", -42}, {"%05d", -42}, {"%.3d", 5}, {"%.0d", 0}, {"%X", 48879},
    {"%04X", 171}, {"%02X", 10}, {"%u", 4000000000LL}, {"%c", 'q'}, {"%3c|", 'q'}, {"%%%d%%", 9},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    deferred = 0;
    ec_wasm_snprintf(got, sizeof got, cases[k].fmt, (int)cases[k].v);
    snprintf(want, sizeof want, cases[k].fmt, (int)cases[k].v);
    if (deferred || strcmp(got, want)) fail(cases[k].fmt, got, want);
  }
  long long big[] = {0, -1, 9223372036854775807LL, -9223372036854775807LL - 1, 1234567890123LL};
  for (size_t k = 0; k < 5; k++) {
    deferred = 0;
    ec_wasm_snprintf(got, sizeof got, "%lld %llu %02lld %04lld %03llu %zu %zd %lu %6zu|%04ld", big[k], (unsigned long long)big[k], big[k], big[k],
                     (unsigned long long)big[k], (size_t)big[k], (ptrdiff_t)big[k], (unsigned long)big[k], (size_t)k, (long)k);
    snprintf(want, sizeof want, "%lld %llu %02lld %04lld %03llu %zu %zd %lu %6zu|%04ld", big[k], (unsigned long long)big[k], big[k], big[k],
             (unsigned long long)big[k], (size_t)big[k], (ptrdiff_t)big[k], (unsigned long)big[k], (size_t)k, (long)k);
    if (deferred || strcmp(got, want)) fail("64-bit integers", got, want);
  }
  deferred = 0;
  ec_wasm_snprintf(got, sizeof got, "[%s|%.*s|%.5s|%8s|%.0u]", "abc", 2, "xyz", "abcdefgh", "r", 0u);
  snprintf(want, sizeof want, "[%s|%.*s|%.5s|%8s|%.0u]", "abc", 2, "xyz", "abcdefgh", "r", 0u);
  if (deferred || strcmp(got, want)) fail("strings", got, want);
  /* truncation and the returned length */
  char small[5];
  int n = ec_wasm_snprintf(small, sizeof small, "%s-%d", "abcdef", 12);
  if (n != 9 || strcmp(small, "abcd")) fail("truncation", small, "abcd (9)");
  /* what it leaves to libc: conversions, flags and sizes no format of the core uses */
  const char *deferring[] = {"%g", "%.17g", "%e", "%a", "%p", "%#x", "%.4f", "%Lf", "%x", "%o", "%i", "%-5d", "%+d", "% d",
                             "%*d", "%hd", "%hhu", "%jd", "%td", "%-8s", "%+.3f"};
  for (size_t k = 0; k < sizeof deferring / sizeof *deferring; k++) {
    deferred = 0;
    ec_wasm_snprintf(got, sizeof got, deferring[k], 1.5);
    if (!deferred) fail(deferring[k], "not deferred", "deferred");
  }
}

int main(void) {
  check_ints();
  double edges[] = {0.0, -0.0, 0.5, 1.5, 2.5, -0.5, 0.0005, 0.0015, 0.0025, 0.1245, 0.125, 0.375, 1.0005, 2.675, 999.9995, 1e-300, 5e-324,
                    -5e-324, 0x1p52, 0x1p53, 0x1p53 + 2, 0x1p63, 0x1p64 - 2048, 0x1p64, 1e19, 1e20, INFINITY, -INFINITY, NAN, 123456.789, 0.001, 0.0004999};
  for (size_t k = 0; k < sizeof edges / sizeof *edges; k++) check_fixed(edges[k]);
  uint64_t x = 88172645463325252ull;
  for (int i = 0; i < 200000; i++) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    double v;
    if (i % 4 == 0) { memcpy(&v, &x, sizeof v); if (isnan(v)) continue; } /* any bit pattern */
    else if (i % 4 == 1) v = (double)(x % 100000000) / 1000.0; /* times in ms */
    else if (i % 4 == 2) v = (double)(x % 2000000) / 2000.0;  /* many exact ties */
    else v = ldexp((double)(x >> 11), (int)(x % 80) - 60);
    check_fixed(v);
    char text[64];
    switch (i % 5) {
    case 0: snprintf(text, sizeof text, "%llu", (unsigned long long)(x >> (x % 64))); break;
    case 1: snprintf(text, sizeof text, "%.*g", (int)(x % 17) + 1, v); break;
    case 2: snprintf(text, sizeof text, "-%llu.%llue%d", (unsigned long long)(x % 1000000), (unsigned long long)(x >> 40), (int)(x % 50) - 25); break;
    case 3: snprintf(text, sizeof text, "%.*f", (int)(x % 12), (double)(x % 1000000007) / 977.0); break;
    default: snprintf(text, sizeof text, "0.%015llu", (unsigned long long)(x % 1000000000000000ull)); break;
    }
    check_read(text);
  }
  const char *reads[] = {"0", "-0", "1e22", "1e23", "1e-22", "1e-23", "123456789012345", "1234567890123456", "0.000000000000000000001",
                         "9007199254740993", "1.5e+3", "2E-2", "12abc", "-", ".5", "5.", "1e", "1e+", "00012", "0.30000000000000004",
                         "1234567890123456789012345678901234567890123456789012345678901234"};
  for (size_t k = 0; k < sizeof reads / sizeof *reads; k++) check_read(reads[k]);
  printf("wasm_numbers: strtod and snprintf against libc: %d passed, %d failed\n", failures ? 0 : 1, failures);
  return failures != 0;
}
