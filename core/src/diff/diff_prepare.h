/*
 * Diff stage 1 (private to core/src/diff): split both texts into lines and give every distinct
 * line an integer class, so the algorithm compares integers instead of bytes.
 *
 * A line's identity includes its LF: "b" at the end of a text without a final newline is a
 * different line from "b\n", which is what makes a change that only adds or removes the final
 * newline show up in the diff (as git does). A CR before the LF is ordinary line content.
 *
 * The common prefix and suffix are found on the bytes first. Their lines are only counted; the
 * lines between them (the middle) get classes, and offsets are kept for a window of the middle
 * plus a margin on each side (room for compaction to slide and for context lines; no slide room
 * when no change can leave the middle, which a small middle is checked for). So a
 * one-line change in a 10 MB file costs a memcmp and a line count, not 600k table probes and
 * megabytes of offset arrays.
 */
#ifndef EC_DIFF_PREPARE_H
#define EC_DIFF_PREPARE_H
#include "../base/arena.h"
#include <string.h>

/* How far compaction may slide a change group out of the middle into the common lines, and how
 * many lines beyond a group it may read to score a position (see ec_diff_compact). */
#define EC_DIFF_SLIDE_MARGIN 100
#define EC_DIFF_LOOK_MARGIN 24

typedef struct ec_diff_side {
  const char *text;
  size_t n;       /* lines in the whole text; a final LF adds no empty line */
  size_t wn;      /* lines in the window (window line k is line w0 + k of the text) */
  size_t *off;    /* wn + 1 offsets: window line k is text[off[k], off[k+1]), its LF included */
  size_t mn;      /* lines in the middle: window lines mlo .. mlo + mn - 1 */
  uint32_t *cls;  /* class of window line mlo + k at cls[k] (until ec_diff_myers spends it) */
} ec_diff_side;

typedef struct ec_diff_prep {
  ec_diff_side a, b; /* old, new */
  size_t w0;         /* the window's first line (the same line number on both sides) */
  size_t mlo;        /* the middle's first window line (same on both sides) */
  size_t guard_lo, guard_hi; /* window lines at each end that changes must not slide into: they
                                are there to be read (context, scoring) only; 0 at a file edge */
  size_t nclasses;   /* classes are below nclasses (not all used); equal classes <=> equal lines.
                        ec_diff_myers spends the class arrays: after it they are gone */
  bool slides_out;   /* compaction may move a change out of the middle (the window then has the
                        slide room; false only when that was ruled out: EC_DIFF_TIGHT_LINES) */
} ec_diff_prep;

/* Middles of at most this many lines (both sides) are checked for whether a change can slide out
 * of them; when none can, the window leaves out the slide room (EC_DIFF_SLIDE_MARGIN). */
#define EC_DIFF_TIGHT_LINES 256

/**
 * context: how many context lines the caller will print around changes (0 for a script).
 * tight: leave out the slide room when no change can slide out of the middle (slides_out false);
 * the script is the same either way (diff_test checks it).
 * EC_TOO_LARGE past UINT32_MAX lines in all; EC_OUT_OF_MEMORY.
 */
ec_error_code ec_diff_prepare(ec_arena *ar, ec_str old_text, ec_str new_text, size_t context, bool tight,
                              ec_diff_prep *out);

/** Window line k of a side without its LF, and whether it had one (only a last line may not). */
static inline ec_str ec_diff_line(const ec_diff_side *s, size_t k, bool *has_lf) {
  size_t b = s->off[k], e = s->off[k + 1];
  bool lf = e > b && s->text[e - 1] == '\n';
  if (has_lf) *has_lf = lf;
  ec_str r = {s->text + b, e - b - (lf ? 1 : 0)};
  return r;
}

/** Whether window lines i and j of one side are equal, by their bytes (the classes are gone when
 *  compaction asks, and it asks once a slide step). */
static inline bool ec_diff_line_eq(const ec_diff_side *s, size_t i, size_t j) {
  size_t li = s->off[i + 1] - s->off[i], lj = s->off[j + 1] - s->off[j];
  return li == lj && memcmp(s->text + s->off[i], s->text + s->off[j], li) == 0;
}

#endif
