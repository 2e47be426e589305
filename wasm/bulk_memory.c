/*
 * memcpy, memmove and memset as the wasm bulk-memory instructions (memory.copy, memory.fill),
 * for the three Emscripten modules.
 *
 * Why: linked at -Oz, Emscripten 3.1.6 takes its libc's size-optimised memcpy, which copies one
 * byte per loop turn (EMSCRIPTEN_OPTIMIZE_FOR_OZ in system/lib/libc/emscripten_memcpy.c). Loading a
 * document and splicing the answer copy the whole file, so that loop was 58 % of a 10 MB exact
 * replace through the npm package (bench/findings.md). memory.copy is one instruction the
 * engine runs at memcpy speed, and smaller than any loop. libc's definitions are weak aliases:
 * these strong ones replace them. This file alone is compiled with -mbulk-memory, so the
 * builtins below lower to the instructions (never to a call back here). Every runtime the
 * package supports has bulk memory (Node >= 12.5, Chrome 75, Firefox 79, Safari 15).
 */
#include <stddef.h>

#if !defined(__wasm_bulk_memory__)
#error "wasm/bulk_memory.c must be compiled with -mbulk-memory"
#endif

void *memcpy(void *restrict dest, const void *restrict src, size_t n) { return __builtin_memcpy(dest, src, n); }

void *memmove(void *dest, const void *src, size_t n) { return __builtin_memmove(dest, src, n); }

void *memset(void *dest, int c, size_t n) { return __builtin_memset(dest, c, n); }
