#include "copy.h"
#include <stdint.h>
#include <string.h>

#ifdef __wasm__
/* no_builtin: the compiler would otherwise see this loop for what it is and call memcpy. */
__attribute__((no_builtin("memcpy"))) void ec_copy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  size_t i = 0;
  for (; n - i >= 32; i += 32) {
    uint64_t a, b, c, e;
    __builtin_memcpy(&a, s + i, 8);
    __builtin_memcpy(&b, s + i + 8, 8);
    __builtin_memcpy(&c, s + i + 16, 8);
    __builtin_memcpy(&e, s + i + 24, 8);
    __builtin_memcpy(d + i, &a, 8);
    __builtin_memcpy(d + i + 8, &b, 8);
    __builtin_memcpy(d + i + 16, &c, 8);
    __builtin_memcpy(d + i + 24, &e, 8);
  }
  for (; n - i >= 8; i += 8) {
    uint64_t a;
    __builtin_memcpy(&a, s + i, 8);
    __builtin_memcpy(d + i, &a, 8);
  }
  for (; i < n; i++) d[i] = s[i];
}
#else
void ec_copy(void *dst, const void *src, size_t n) {
  if (n) memcpy(dst, src, n);
}
#endif
