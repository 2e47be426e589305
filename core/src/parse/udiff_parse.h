/*
 * Unified diffs as models write them: a tolerant parser for the `unified_diff` format, and
 * Aider's own reading of them (profile aider).
 *
 * The parser accepts one or several files; `---`/`+++` headers with or without `a/` `b/`
 * prefixes, with timestamps (after a tab, or a trailing `YYYY-MM-DD ...`) and C-quoted names;
 * `diff --git` lines and git's extended headers (new/deleted file mode, rename from/to, index);
 * `/dev/null` for additions and deletions; `@@ -l,s +l,s @@` headers whose numbers or counts are
 * wrong or missing (`@@ -l +l @@`, `@@ ... @@`, `@@ @@`, bare `@@`); `\ No newline at end of file`;
 * blank context lines written without their leading space; prose and ``` fences around the diff.
 * Counts are never trusted to delimit a hunk: a hunk runs until the next `@@`, file header,
 * `diff --git` or fence. A line inside a hunk that starts with none of ' ', '-', '+', '\' is
 * MALFORMED_EDIT (with its line number) unless only prose follows it.
 */
#ifndef EC_PARSE_UDIFF_PARSE_H
#define EC_PARSE_UDIFF_PARSE_H
#include "../request/ctx.h"

typedef struct ec_ud_line {
  char kind;                 /* ' ' unchanged, '-' removed, '+' added */
  ec_str text;               /* without its LF */
} ec_ud_line;

typedef struct ec_ud_hunk {
  ec_ud_line *lines;
  size_t n_lines;
  uint32_t n_context, n_remove, n_add;
  bool has_numbers;          /* the header gave -l and +l */
  uint32_t old_start, old_count, new_start, new_count;
  bool old_no_eol, new_no_eol; /* `\ No newline at end of file` after the old / new side's last line */
  uint32_t line;             /* 1-based line of the @@ header in the edit text */
} ec_ud_hunk;

typedef struct ec_ud_file {
  ec_str old_path, new_path; /* as written (a/ b/ kept), timestamps and quotes removed */
  bool has_header;           /* a ---/+++ pair or a diff --git line named the file */
  bool old_null, new_null;   /* /dev/null */
  bool git;                  /* started by `diff --git` */
  bool new_file, deleted_file;
  ec_str rename_from, rename_to;
  bool old_epoch, new_epoch;   /* that side's header time is the epoch: `diff -N`'s absent file */
  bool timestamped;          /* both ---/+++ lines carry a time after a tab, as diff(1) writes them */
  bool exact_paths;          /* the paths are final (a strip level applied): no a/ b/ guessing */
  uint32_t line;             /* 1-based line where the file's header starts */
  ec_ud_hunk *hunks;
  size_t n_hunks, cap_hunks;
} ec_ud_file;

typedef struct ec_ud_patch {
  ec_ud_file *files;
  size_t n_files, cap_files;
  size_t n_hunks;            /* over every file */
} ec_ud_patch;

/** Where and why a diff does not parse. */
typedef struct ec_ud_error {
  uint32_t line;
  ec_str message;
} ec_ud_error;

/**
 * Parses LF text (fold CRLF first). EC_MALFORMED_EDIT with *err filled, EC_TOO_LARGE past
 * max_hunks, EC_OUT_OF_MEMORY, else EC_OK. A diff with no hunk and no file operation is
 * MALFORMED_EDIT.
 */
ec_error_code ec_udiff_parse(ec_arena *a, ec_str text, size_t max_hunks, ec_ud_patch *out, ec_ud_error *err);

/**
 * Orients a parsed diff as `patch -pN -R` would: with has_strip, `strip` leading components
 * dropped from every header path (git's rename from/to one less, as git apply) and the paths
 * marked exact; without, a `diff -r old new` pair (top directories that differ, the rest equal) loses
 * its top directory. reverse swaps the sides: paths, /dev/null, creations and deletions, each
 * hunk's '-' and '+' lines, counts and no-newline marks. MALFORMED_EDIT (err filled) when a path
 * has too few components.
 */
ec_error_code ec_udiff_orient(ec_arena *a, ec_ud_patch *patch, bool has_strip, int strip, bool reverse, ec_ud_error *err);

/** ec_udiff_parse then ec_udiff_orient with ctx's options (strip, reverse): every reader of a diff
 *  that applies it goes through here, so a reply and the unified_diff format read alike. */
ec_error_code ec_udiff_read(ec_ctx *ctx, ec_str text, ec_ud_patch *out, ec_ud_error *err);

/** A header path without its leading "./" (each of them): the name the unified_diff format and a
 *  reply's diffs look a file up by. */
ec_str ec_ud_strip_dot(ec_str s);

/** Aider's udiff coder (find_diffs, normalize_hunk, do_replace), as format unified_diff in profile aider. */
ec_error_code ec_aider_udiff(ec_ctx *ctx);

#endif
