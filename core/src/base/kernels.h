/*
 * Faster kernels a host may plug in for the engine's three hot scans over whole files: the text
 * scan of loading (ec_scan_text), LF counting (ec_count_lf) and substring search (ec_find). The npm
 * package's Emscripten modules plug in WebAssembly SIMD ones (wasm/host_kernels.c, in a module of
 * their own so the engine still loads where the JS engine has no SIMD); native builds have SSE2
 * and AVX2 kernels of their own and plug in nothing.
 *
 * Each kernel must answer exactly as the portable code does (js/test/kernels.test.js holds the
 * npm package's to it), so a response never depends on which ran. They are asked only for
 * texts of EC_HOST_KERNEL_MIN bytes or more: below that the call costs more than it saves.
 */
#ifndef EC_BASE_KERNELS_H
#define EC_BASE_KERNELS_H
#include <stdbool.h>
#include <stddef.h>

#define EC_HOST_KERNEL_MIN 4096

typedef struct ec_host_kernels {
  /* ec_scan_text's answer (LFs; a NUL or CR anywhere) into *n_lf, *nul_or_cr; false: not answered */
  bool (*scan_text)(const char *p, size_t n, size_t *n_lf, bool *nul_or_cr);
  /* LF bytes of p[0, n), or SIZE_MAX: not answered */
  size_t (*count_lf)(const char *p, size_t n);
  /* memmem(h, n, s, m)'s answer, always */
  const char *(*find)(const char *h, size_t n, const char *s, size_t m);
} ec_host_kernels;

/** The kernels in use: all NULL until a host sets them (once, before its first request). */
extern ec_host_kernels ec_kernels;

/** memmem's answer: the first occurrence of s[0, m) in h[0, n), or NULL; the host's kernel for
 *  large texts. For the searches over a whole file. */
const char *ec_find(const char *h, size_t n, const char *s, size_t m);

#endif
