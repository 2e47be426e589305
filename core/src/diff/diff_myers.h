/*
 * Diff stage 2 (private to core/src/diff): which lines changed. The result is one flag per window
 * line (see diff_prepare.h; lines outside the window are common and unchanged) on each side (1 = deleted from old / inserted into new); unflagged lines pair up in order and
 * are equal, which is all the emit stage needs.
 */
#ifndef EC_DIFF_MYERS_H
#define EC_DIFF_MYERS_H
#include "diff_prepare.h"

/* Default work budget (steps of the Myers search: diagonals visited plus snake steps). */
#define EC_DIFF_DEFAULT_BUDGET 50000000u

/* Flags for tests: turn off a pre- or post-pass to check the core search on its own. */
enum {
  EC_DIFF_NO_DISCARD = 1, /* keep lines that occur only on one side in the search */
  EC_DIFF_NO_COMPACT = 2, /* do not slide change groups */
};

/**
 * Fills chg_a[0..p->a.wn) and chg_b[0..p->b.wn) (caller-allocated, window lines). Minimal while the work stays
 * under work_budget (0 = default) and each split stays cheap; past that, coarser but valid.
 * The search is written over p's class arrays (p->a.cls, p->b.cls) and releases them (blocks of
 * `ar`): once per prep, and nothing reads them afterwards.
 */
ec_error_code ec_diff_myers(ec_arena *ar, const ec_diff_prep *p, uint64_t work_budget, unsigned flags,
                            uint8_t *chg_a, uint8_t *chg_b);

#endif
