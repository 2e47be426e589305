/*
 * Line diffs and unified-diff output, written for editcore (no external diff code).
 *
 * Stages, as in git's xdiff: prepare (split lines, give every distinct line an integer class so
 * later steps compare integers), the algorithm (Myers O(ND) in linear space, common prefix and
 * suffix trimmed first, a work budget past which it settles for a coarser but valid script), and
 * emit (hunks with context, `\ No newline at end of file`, truncation).
 */
#ifndef EC_DIFF_DIFF_H
#define EC_DIFF_DIFF_H
#include "../base/arena.h"
#include "../base/buf.h"

/** One run of the edit script: old lines [a, a+na) become new lines [b, b+nb). */
typedef struct ec_diff_change {
  size_t a, na, b, nb;
} ec_diff_change;

typedef struct ec_diff_script {
  ec_diff_change *changes; /* in order, non-overlapping, never both na and nb zero */
  size_t n;
} ec_diff_script;

typedef struct ec_diff_opts {
  int context;            /* context lines around each hunk (>= 0) */
  size_t max_bytes;       /* cut the text after this many bytes (at a line end); 0 = no limit */
  uint64_t work_budget;   /* Myers steps before falling back to a coarser valid diff; 0 = default */
  bool undo_on_read;      /* the undo is built only when the diff is truncated: otherwise it is
                             left {NULL, 0}, for ec_diff_reverse_into to read off the diff */
} ec_diff_opts;

/** A changed stretch of two texts: old bytes [old_start, old_end) became new bytes
 *  [new_start, new_end) (the public ec_file_splice). */
typedef ec_file_splice ec_diff_stretch;

typedef struct ec_diff_out {
  ec_str text;            /* the unified diff; empty when the texts are equal */
  bool truncated;
  uint32_t added, removed; /* counted over the whole diff, even when the text is truncated */
  ec_diff_stretch *stretches; /* a whole diff's changes as whole lines of bytes (ec_diff_unified*) */
  size_t n_stretches;
} ec_diff_out;

/**
 * Diffs two texts split on LF (a CR before the LF stays part of the line, so CRLF shows
 * faithfully). Either side may be absent (NULL): then its header is /dev/null.
 * Headers: "--- a/<old_path>" / "+++ b/<new_path>", hunks "@@ -l,s +l,s @@" as git writes them.
 */
ec_error_code ec_diff_unified(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text,
                              const ec_str *new_text, const ec_diff_opts *opts, ec_diff_out *out);

/**
 * Both directions from one diff: *out as ec_diff_unified, and *undo (when not NULL) the diff
 * that turns new_text back into old_text (paths swapped, never truncated).
 */
ec_error_code ec_diff_unified_pair(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text,
                                   const ec_str *new_text, const ec_diff_opts *opts, ec_diff_out *out,
                                   ec_diff_out *undo);

/**
 * ec_diff_unified_pair for two texts that are known to differ only in the stretches `st`
 * (sorted, apart; outside them the bytes are the same): the diff is run over a window of lines
 * around each group of stretches, not over the whole texts, and the hunks are numbered as in
 * the whole texts. The same hunks as a whole diff when the windows are apart (a window keeps
 * the context and the lines compaction may slide over, diff_prepare.h); both texts present.
 * `old_lf`: the number of LFs in old_text when the caller knows it (SIZE_MAX: not known); a
 * hunk's line number is then counted from whichever end of old_text is nearer.
 */
ec_error_code ec_diff_unified_stretches(ec_arena *a, ec_str old_path, ec_str new_path, ec_str old_text, ec_str new_text,
                                        size_t old_lf, const ec_diff_stretch *st, size_t n, const ec_diff_opts *opts,
                                        ec_diff_out *out, ec_diff_out *undo);

/** A text read a window at a time: `len` bytes; read(user, a, start, end) gives its bytes
 *  [start, end), in memory from `a` or the reader's own that lives until the diff returns (NULL:
 *  out of memory). For a new text that is not built (options.content_as_splices). */
typedef struct ec_text_reader {
  size_t len;
  const char *(*read)(void *user, ec_arena *a, size_t start, size_t end);
  void *user;
} ec_text_reader;

/** ec_diff_unified_stretches with the new text read through `new_text`, a window at a time:
 *  the same diff. */
ec_error_code ec_diff_unified_stretches_read(ec_arena *a, ec_str old_path, ec_str new_path, ec_str old_text,
                                             const ec_text_reader *new_text, size_t old_lf, const ec_diff_stretch *st,
                                             size_t n, const ec_diff_opts *opts, ec_diff_out *out, ec_diff_out *undo);

/**
 * As ec_diff_unified, but with `diff -u`'s headers: "--- <old_label>" / "+++ <new_label>", the
 * labels verbatim (no a/ b/ prefix), both sides present.
 */
ec_error_code ec_diff_labelled(ec_arena *a, ec_str old_label, ec_str new_label, ec_str old_text, ec_str new_text,
                               const ec_diff_opts *opts, ec_diff_out *out);

/**
 * Appends to b the undo of `diff`, a whole (not truncated) unified diff written by this file's
 * functions with a/ b/ headers: byte for byte what ec_diff_unified_pair gives as *undo for it.
 * An empty diff's undo is empty. false: not such a diff, or out of memory (b->oom).
 */
bool ec_diff_reverse_into(ec_buf *b, ec_str diff);

/** The edit script between two texts' lines (same splitting as above). */
ec_error_code ec_diff_texts(ec_arena *a, ec_str old_text, ec_str new_text, uint64_t work_budget,
                            ec_diff_script *out);

#endif
