/*
 * qsort for the three Emscripten modules: a heapsort in a few hundred bytes instead of libc's
 * smoothsort (musl's, with its Leonardo-heap helpers: ~1.4 KB of each module's code). Every
 * comparator the core hands qsort orders its elements totally (ties broken by an index or a line,
 * or equal only for elements alike in every byte that is read later), so any correct sort gives
 * the same array, and the answers stay byte for byte those of the native and WASI builds (glibc's
 * merge sort, wasi-libc's smoothsort), which conformance checks on every vector. No allocation,
 * O(n log n) compares at worst.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

static void swap(char *a, char *b, size_t size) {
  if (!((size | (uintptr_t)a | (uintptr_t)b) & 3)) { /* the core's elements: words */
    for (uint32_t *x = (uint32_t *)(void *)a, *y = (uint32_t *)(void *)b; size; size -= 4, x++, y++) { uint32_t t = *x; *x = *y; *y = t; }
    return;
  }
  for (; size; size--, a++, b++) { char t = *a; *a = *b; *b = t; }
}

/* Moves element `root` down the max-heap of the first n elements to its place. */
static void sift(char *base, size_t root, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  for (size_t child; (child = 2 * root + 1) < n; root = child) {
    if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0) child++;
    if (cmp(base + root * size, base + child * size) >= 0) return;
    swap(base + root * size, base + child * size, size);
  }
}

void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *b = base;
  for (size_t i = n / 2; i > 0;) sift(b, --i, n, size, cmp);
  for (size_t end = n; end > 1;) {
    swap(b, b + --end * size, size);
    sift(b, 0, end, size, cmp);
  }
}
