/*
 * What loading a file needs to know of its bytes, in one pass: how many LFs it has, and whether
 * it holds a NUL byte or a CR at all. Loading a 1 MB file once took three passes for these (a
 * memchr for NUL, one for CR, a LF count) and a copy (issue 28); the answer is the same whatever
 * the machine: the pass only goes faster where the CPU allows (SSE2 on every x86-64 build, AVX2
 * chosen at run time where the CPU has it, eight bytes at a time elsewhere, wasm included, and
 * sixteen in the npm package's wasm where the JS engine runs SIMD: base/kernels.h).
 */
#ifndef EC_BASE_SCAN_H
#define EC_BASE_SCAN_H
#include <stdbool.h>
#include <stddef.h>

typedef struct ec_text_scan {
  size_t n_lf;    /* LF bytes */
  bool nul_or_cr; /* some byte is 0 or '\r' (which, and where: memchr, in the rare file that has one) */
} ec_text_scan;

ec_text_scan ec_scan_text(const char *p, size_t n);
/** The same answer by one kernel, for the test that holds them to each other: 0 eight bytes at a
 *  time (the wasm builds'), 1 SSE2, 2 AVX2. false when this build or CPU has no such kernel. */
bool ec_scan_text_by(int kernel, const char *p, size_t n, ec_text_scan *out);

#endif
