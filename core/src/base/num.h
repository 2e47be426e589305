/* Doubles from JSON turned into integers without undefined behaviour: a C cast of a value out of
 * the target's range is undefined (UBSan reports it), and a request may send 1e300. */
#ifndef EDITCORE_BASE_NUM_H
#define EDITCORE_BASE_NUM_H
#include <stddef.h>
#include <stdint.h>

/** v as a size_t: 0 for negatives and NaN, SIZE_MAX at and above 2^63 (and SIZE_MAX on 32 bits). */
static inline size_t ec_size_of_double(double v) {
  if (!(v > 0)) return 0;
  if (v >= 9223372036854775808.0 || v >= (double)SIZE_MAX) return SIZE_MAX;
  return (size_t)v;
}

/** v as an int64_t, clamped to the type's range (NaN → 0). */
static inline int64_t ec_i64_of_double(double v) {
  if (v != v) return 0;
  if (v >= 9223372036854775807.0) return INT64_MAX;
  if (v <= -9223372036854775808.0) return INT64_MIN;
  return (int64_t)v;
}

#endif
