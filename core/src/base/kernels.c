#define _GNU_SOURCE 1 /* memmem */
#include "kernels.h"
#include <string.h>

ec_host_kernels ec_kernels;

const char *ec_find(const char *h, size_t n, const char *s, size_t m) {
  if (n >= EC_HOST_KERNEL_MIN && ec_kernels.find) return ec_kernels.find(h, n, s, m);
  return memmem(h, n, s, m);
}
