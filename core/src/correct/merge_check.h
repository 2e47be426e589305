/* Whether a model's merge of a lazy snippet into a region is one the snippet allows. */
#ifndef EC_CORRECT_MERGE_CHECK_H
#define EC_CORRECT_MERGE_CHECK_H
#include "../base/arena.h"
#include "../base/str.h"

typedef enum ec_cx_merge_verdict {
  EC_CX_MERGE_OK,
  EC_CX_MERGE_HAS_MARKER, /* the merge still holds a marker line */
  EC_CX_MERGE_MISMATCH,   /* no reading of the snippet gives this merge */
  EC_CX_MERGE_TOO_HARD,   /* the search for a reading ran out of budget */
  EC_CX_MERGE_OOM
} ec_cx_merge_verdict;

/** Checks `merged` (the model's region after the change) against the region and the snippet. */
ec_cx_merge_verdict ec_cx_check_merge(ec_arena *a, ec_str region, ec_str snippet, ec_str merged);

#endif
