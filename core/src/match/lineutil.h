/*
 * Shared machinery of the line-level strategies (trim_end, indent, anchor, fuzzy, regex's
 * re-indentation): needles split into lines, windows of whole lines found from a needle line's
 * occurrences (line_windows.c; per-line normalised hashes of the document and a KMP scan over
 * them where that does not pay), and re-indentation of a replacement into the matched block's
 * own indentation characters.
 */
#ifndef EC_MATCH_LINEUTIL_H
#define EC_MATCH_LINEUTIL_H
#include "ladder.h"
#include "../base/str.h"

typedef enum ec_norm { EC_NORM_TRIM_END = 0, EC_NORM_TRIM = 1 } ec_norm;

/** A needle split on every LF; one trailing LF is dropped first and remembered in final_lf. */
typedef struct ec_split {
  ec_str *line;
  size_t n;
  bool final_lf;
} ec_split;

/** A line under m: whitespace other than LF trimmed from its end (and its start for EC_NORM_TRIM). */
static inline ec_str ec_norm_apply(ec_str s, ec_norm m) {
  if (m == EC_NORM_TRIM) s = ec_str_trim_start(s, EC_WS_HSPACE);
  return ec_str_trim_end(s, EC_WS_HSPACE);
}
/** Leading spaces and tabs of a line. */
ec_str ec_line_indent(ec_str s);
ec_error_code ec_split_lines(ec_arena *a, ec_str text, bool drop_final_lf, ec_split *out);
/** Per-line hashes of the document's lines under m; NULL on OOM. */
const uint64_t *ec_match_norm_hashes(ec_match_env *env, ec_norm m);
/** A window of whole document lines: its first line (0-based) and the byte that line starts at. */
typedef struct ec_window {
  size_t line, start;
} ec_window;
/**
 * Every non-overlapping window (left to right) whose normalised lines equal the needle's
 * (line_windows.c). Found from the occurrences of the needle's longest line in the text, each
 * checked against its neighbours, so no table of the file's lines is built; the hashed scan of
 * the whole table takes over when those checks pass a pass over the text.
 */
ec_error_code ec_find_line_windows(ec_match_env *env, ec_norm m, const ec_split *needle, ec_window **found,
                                   size_t *n);
/** The m lines of window w as a table whose entry 0 is w's first line (its `first` is w->line):
 *  a view into the file's table when that is built, else a table of these lines alone. */
ec_error_code ec_window_table(ec_match_env *env, const ec_window *w, size_t m, ec_lines *out);
/** Pushes a match covering entries [i, i+m) of table tl (plus the last LF when final_lf). */
ec_error_code ec_push_window(ec_match_env *env, ec_found_list *out, const ec_lines *tl, size_t i, size_t m, bool final_lf,
                             ec_strategy st, double confidence, ec_str replacement);
/**
 * new_text re-indented for a block matched at document lines [fs, fs+fm) from the model's `old`
 * lines: each line keeps its indentation relative to the least-indented line, expressed in the
 * file's own characters (tabs stay tabs). With fm == 0 only `base` (the indentation the first
 * line landed on) is known. ptr NULL on OOM.
 */
ec_str ec_reindent(ec_arena *a, ec_str new_text, const ec_split *old, const ec_lines *fl, size_t fs, size_t fm,
                   ec_str base);
/** Levenshtein distance of x and y if it is <= max, else max + 1 (SIZE_MAX on OOM); cells go to
 * env->work, and the search stops (max + 1) once env->work passes work_cap. */
size_t ec_bounded_lev(ec_match_env *env, const char *x, size_t nx, const char *y, size_t ny, size_t max, uint64_t work_cap);
/** Similarity of two lines in thousandths (1000 = equal after trimming); UINT32_MAX on OOM. */
uint32_t ec_line_similarity(ec_match_env *env, ec_str x, ec_str y);
uint64_t ec_match_work_limit(const ec_match_env *env);

/** One match of the token regex: [start, end) in the document; the captured indentation. */
typedef struct ec_rx_match {
  size_t start, end;
  ec_str indent;
} ec_rx_match;
/**
 * The token regex of old_text (Gemini's: split on ( ) : [ ] { } > < = and whitespace, escape,
 * join with \s*, `^([ \t]*)` in front, multi-line) run over the document: every non-overlapping
 * match, left to right. `strict` (editcore) joins two word tokens the model separated by
 * whitespace with \s+ instead, so `return x` never matches `returnx`. No tokens: no matches.
 * TOO_LARGE (env->message set) past limits.regex_match_limit token comparisons in all.
 */
ec_error_code ec_token_regex_find(ec_match_env *env, ec_str old_text, bool strict, ec_rx_match **out, size_t *n);

#endif
