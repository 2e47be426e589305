/*
 * The unit of a failed edit that a correction repairs: one search/replace pair (a replace edit, a
 * SEARCH/REPLACE block, a diff hunk) or one lazy snippet, with the file it targets and, for
 * multi-block edits, every block so the corrected edit can be sent again whole.
 */
#ifndef EC_CORRECT_UNIT_H
#define EC_CORRECT_UNIT_H
#include "../base/arena.h"

typedef struct ec_cx_pair {
  ec_str path, search, replace;
} ec_cx_pair;

typedef struct ec_cx_unit {
  ec_str path;          /* the file the failing unit targets */
  ec_str search, replace; /* the failing pair (for lazy: replace = the snippet) */
  bool lazy;
  ec_cx_pair *pairs;    /* search_replace / unified_diff: every pair, in order */
  size_t n_pairs, failing; /* failing: index of the repaired pair in pairs */
} ec_cx_unit;

/**
 * Finds the failing unit of `failed` given the first error ec_apply reported for it (its path and
 * block). INVALID_PARAM with *message for a format that has no such unit (insert, whole_file,
 * codex_patch); OOM.
 */
ec_error_code ec_cx_find_unit(ec_arena *a, const ec_request *failed, const ec_host *host, const ec_error *err,
                              ec_cx_unit *out, ec_str *message);

#endif
