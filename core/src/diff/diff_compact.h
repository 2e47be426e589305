/* Diff stage 3 (private to core/src/diff): sliding change groups (see diff_compact.c). */
#ifndef EC_DIFF_COMPACT_H
#define EC_DIFF_COMPACT_H
#include "diff_prepare.h"

/**
 * Slides each group of changed lines as far down as equal lines allow, preferring a position
 * facing a change on the other side, so ambiguous insertions (blank lines, closing braces) are
 * placed as git places them without its indent heuristic. Keeps the script valid and minimal.
 */
void ec_diff_compact(const ec_diff_prep *p, const ec_diff_side *s, uint8_t *chg, const ec_diff_side *o,
                     const uint8_t *ochg);

#endif
