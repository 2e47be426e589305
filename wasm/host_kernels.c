/*
 * The Emscripten modules' host kernels (core/src/base/kernels.h): the SIMD scans of
 * editcore-kernels.wasm (wasm/simd_kernels.c), which the npm package instantiates on this
 * module's memory and hands over as Module.editcoreKernels (js/src/kernels.js) where the JS
 * engine runs WebAssembly SIMD. Where it does not, or before the package has set them, each
 * wrapper says "not answered" and the portable code runs: the same answers either way.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "base/kernels.h"
#include <emscripten/emscripten.h>
#include <stdint.h>
#include <string.h>

/* Each returns -1 when the kernels are not there. */
EM_JS(int, ec_js_scan_text, (const char *p, size_t n, uint32_t *out), {
  var k = Module["editcoreKernels"];
  if (!k) return -1;
  k.scan_text(p, n, out);
  return 0;
});

EM_JS(double, ec_js_count_lf, (const char *p, size_t n), {
  var k = Module["editcoreKernels"];
  return k ? k.count_lf(p, n) >>> 0 : -1;
});

/* The first offset, -1: none, or -2 - at: search on from `at` (simd_kernels.c's find). */
EM_JS(int, ec_js_find, (const char *h, size_t n, const char *s, size_t m), {
  var k = Module["editcoreKernels"];
  return k ? k.find(h, n, s, m) : -2;
});

static bool scan_text(const char *p, size_t n, size_t *n_lf, bool *nul_or_cr) {
  uint32_t out[2];
  if (ec_js_scan_text(p, n, out) < 0) return false;
  *n_lf = out[0];
  *nul_or_cr = out[1] != 0;
  return true;
}

static size_t count_lf(const char *p, size_t n) {
  double c = ec_js_count_lf(p, n);
  return c < 0 ? SIZE_MAX : (size_t)c;
}

static const char *find(const char *h, size_t n, const char *s, size_t m) {
  int r = ec_js_find(h, n, s, m);
  if (r >= 0) return h + r;
  if (r == -1) return NULL;
  size_t at = (size_t)(-2 - (int64_t)r);
  return memmem(h + at, n - at, s, m);
}

__attribute__((constructor)) static void plug_in(void) {
  ec_kernels.scan_text = scan_text;
  ec_kernels.count_lf = count_lf;
  ec_kernels.find = find;
}
