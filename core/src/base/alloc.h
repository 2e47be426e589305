/* Host-replaceable memory: every allocation goes through the ec_allocator of the call. */
#ifndef EC_BASE_ALLOC_H
#define EC_BASE_ALLOC_H
#include "editcore.h"

void *ec_mem_malloc(const ec_allocator *a, size_t n);
void *ec_mem_realloc(const ec_allocator *a, void *p, size_t n);
void ec_mem_free(const ec_allocator *a, void *p);

#endif
