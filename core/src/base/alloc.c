#include "alloc.h"
#include <stdlib.h>

void *ec_mem_malloc(const ec_allocator *a, size_t n) {
  if (n == 0) n = 1;
  return a && a->malloc ? a->malloc(a->user, n) : malloc(n);
}

void *ec_mem_realloc(const ec_allocator *a, void *p, size_t n) {
  if (n == 0) n = 1;
  return a && a->realloc ? a->realloc(a->user, p, n) : realloc(p, n);
}

void ec_mem_free(const ec_allocator *a, void *p) {
  if (!p) return;
  if (a && a->free) a->free(a->user, p);
  else free(p);
}
