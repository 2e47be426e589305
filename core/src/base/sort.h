/* qsort for arrays that may be empty: qsort's base must not be NULL even for no element (C11
 * 7.22.5), and an empty arena array is NULL. */
#ifndef EC_BASE_SORT_H
#define EC_BASE_SORT_H
#include <stdlib.h>

static inline void ec_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp);
}

#endif
