/*
 * One banded Levenshtein distance for every caller that asks "are these two within `max` edits?"
 * (the anchor and fuzzy strategies, Gemini's fuzzy step). Only the cells within `max` of the
 * diagonal are computed, and a row whose every cell exceeds `max` ends the search, so a pair
 * that is far apart costs O(max * length), not O(length^2). Instantiated for bytes and for
 * UTF-16 code units (a JavaScript peer counts in those).
 */
#ifndef EC_BASE_EDIT_DISTANCE_H
#define EC_BASE_EDIT_DISTANCE_H
#include "arena.h"

/** Rows of the distance table, grown in an arena on demand and reused from call to call. */
typedef struct ec_lev_rows {
  uint32_t *cell;
  size_t cap;
} ec_lev_rows;

/**
 * The Levenshtein distance of x and y if it is <= max, else max + 1; SIZE_MAX when the rows
 * could not be grown (out of memory). *work grows by the cells computed, for the caller's budget;
 * once it passes work_cap the search stops (max + 1): one pair of long texts can cost more cells
 * than a whole budget, so a caller that checks its budget only between calls passes it here.
 */
size_t ec_edit_distance(ec_arena *a, ec_lev_rows *rows, const char *x, size_t nx, const char *y, size_t ny,
                        size_t max, uint64_t *work, uint64_t work_cap);
/** ec_edit_distance over UTF-16 code units. */
size_t ec_edit_distance_u16(ec_arena *a, ec_lev_rows *rows, const uint16_t *x, size_t nx, const uint16_t *y,
                            size_t ny, size_t max, uint64_t *work, uint64_t work_cap);

#endif
