#include "edit_distance.h"

#define BIG (UINT32_MAX / 2)

static uint32_t *grow(ec_arena *a, ec_lev_rows *rows, size_t n) {
  if (rows->cap < n) {
    size_t nc = n < 256 ? 256 : n * 2;
    uint32_t *p = ec_arena_alloc(a, nc * sizeof *p);
    if (!p) return NULL;
    rows->cell = p;
    rows->cap = nc;
  }
  return rows->cell;
}

/* Two rows (previous, current) of ny + 2 cells; cells outside the band hold BIG. */
#define BANDED_DISTANCE(T)                                                           \
  size_t diff = nx > ny ? nx - ny : ny - nx;                                         \
  if (diff > max) return max + 1;                                                    \
  if (!nx) return ny;                                                                \
  if (!ny) return nx;                                                                \
  if (max > BIG / 2) max = BIG / 2;                                                  \
  uint32_t *prev = grow(a, rows, 2 * (ny + 2));                                      \
  if (!prev) return SIZE_MAX;                                                        \
  uint32_t *cur = prev + ny + 2;                                                     \
  for (size_t j = 0; j <= ny; j++) prev[j] = j <= max ? (uint32_t)j : BIG;           \
  for (size_t i = 1; i <= nx; i++) {                                                 \
    size_t lo = i > max ? i - max : 1, hi = i + max < ny ? i + max : ny;             \
    cur[lo - 1] = lo == 1 ? (uint32_t)i : BIG;                                       \
    uint32_t row_min = cur[lo - 1];                                                  \
    for (size_t j = lo; j <= hi; j++) {                                              \
      uint32_t v = prev[j - 1] + ((T)x[i - 1] != (T)y[j - 1]);                       \
      if (prev[j] + 1 < v) v = prev[j] + 1;                                          \
      if (cur[j - 1] + 1 < v) v = cur[j - 1] + 1;                                    \
      cur[j] = v;                                                                    \
      if (v < row_min) row_min = v;                                                  \
    }                                                                                \
    if (hi + 1 <= ny) cur[hi + 1] = BIG;                                             \
    *work += hi - lo + 1;                                                            \
    if (row_min > max || *work > work_cap) return max + 1;                           \
    uint32_t *t = prev; prev = cur; cur = t;                                         \
  }                                                                                  \
  return prev[ny] > max ? max + 1 : prev[ny];

size_t ec_edit_distance(ec_arena *a, ec_lev_rows *rows, const char *x, size_t nx, const char *y, size_t ny,
                        size_t max, uint64_t *work, uint64_t work_cap) {
  BANDED_DISTANCE(char)
}

size_t ec_edit_distance_u16(ec_arena *a, ec_lev_rows *rows, const uint16_t *x, size_t nx, const uint16_t *y,
                            size_t ny, size_t max, uint64_t *work, uint64_t work_cap) {
  BANDED_DISTANCE(uint16_t)
}
