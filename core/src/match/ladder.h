/*
 * The matching ladder (SPEC §4). Each strategy is its own unit with one signature: find every
 * non-overlapping place where `old_text` matches the document under that strategy's forgiveness,
 * and say what to write there (new_text, adapted: re-indented, unescaped...). The ladder tries
 * strategies in the order asked and stops at the first that finds anything; deciding whether
 * that is one match, N matches or AMBIGUOUS is the format's and profile's business.
 */
#ifndef EC_MATCH_LADDER_H
#define EC_MATCH_LADDER_H
#include "../text/lines.h"
#include "../base/edit_distance.h"

typedef struct ec_found {
  size_t start, end;               /* bytes of the document's LF text */
  uint32_t start_line, end_line;   /* 1-based, inclusive */
  ec_strategy strategy;
  double confidence;
  ec_str replacement;              /* what replaces [start, end) (LF text) */
} ec_found;

typedef struct ec_found_list {
  ec_found *items;
  size_t n, cap;
  size_t limit;                    /* keep at most this many; 0 = 1000 */
  size_t total;                    /* every match found, kept or not */
  /* Optional: each match, kept or not, in order, as a strategy finds it with its final values, so
   * an edit of every place (replace_all) is built as it is found instead of from a list of them.
   * A code other than EC_OK stops the strategy with it. */
  ec_error_code (*each)(void *user, const ec_found *f);
  void *each_user;
} ec_found_list;

typedef struct ec_match_env {
  ec_arena *arena;
  const char *text;                /* the document (LF, no BOM) */
  size_t len;
  ec_lines lines;                  /* built on first use: ec_match_lines() */
  bool have_lines;
  const ec_options *opt;
  ec_profile profile;
  ec_str message;                  /* a strategy may explain a refusal here (e.g. TOO_LARGE) */
  uint64_t *norm_hash[2];          /* per-line hashes of trim_end / trimmed lines, built on first use */
  uint64_t work;                   /* comparison cells spent by anchor/fuzzy (bounded by limits.fuzzy_work) */
  uint32_t exact_searches;         /* exact searches run on this text (the second builds the line table) */
  /* ec_match_line_at without a line table: the last offset asked, the LFs before it, and the bytes
   * counted so far (past twice the text, the table is built and answers from then on). */
  size_t lf_off, lf_before, lf_counted;
  /* Strings found nowhere in the text (copies, most recent last): a string holding one is nowhere
   * either. trim_end and indent often look for the same line, anchor for another. */
  ec_str absent[4];
  uint32_t n_absent;
  ec_lev_rows lev_rows;            /* edit-distance rows, grown on demand */
  /* Set by a caller that takes every place through ec_found_list.each: the arena for what one
   * place hands over (its re-indented replacement), which that caller recycles as it goes. */
  ec_arena *scratch;
} ec_match_env;

/** Where a strategy allocates a place's replacement: the caller's recycled scratch arena when the
 *  places stream (out->each), else the env's arena (the list keeps them). */
static inline ec_arena *ec_place_arena(const ec_match_env *env, const ec_found_list *out) {
  return out->each && env->scratch ? env->scratch : env->arena;
}

typedef ec_error_code (*ec_strategy_fn)(ec_match_env *env, ec_str old_text, ec_str new_text,
                                        ec_found_list *out);

void ec_match_env_init(ec_match_env *env, ec_arena *a, const char *text, size_t len,
                       const ec_options *opt, ec_profile profile);
/** The document's line table, built once. NULL on OOM. */
const ec_lines *ec_match_lines(ec_match_env *env);
/** Appends a match (kept while under the limit; always counted). */
ec_error_code ec_found_push(ec_match_env *env, ec_found_list *l, const ec_found *f);
/** Fills start_line/end_line from byte offsets (a match ending in LF ends on that LF's line). */
void ec_found_set_lines(ec_match_env *env, ec_found *f);
/**
 * The 0-based line holding byte `off` (the LFs before it). From the line table once it is built;
 * before that counted a word at a time from the nearest offset asked before, so a strategy that
 * found its places by searching the text needs no table of the whole file for their line numbers.
 */
size_t ec_match_line_at(ec_match_env *env, size_t off);
/** The text's LF count, from a caller that knows it (a doc's n_lf): line numbers near the end
 *  are then counted back from there. */
void ec_match_env_lf_count(ec_match_env *env, size_t n_lf);
/** Whether s holds a string ec_match_note_absent recorded (then s is nowhere in the text). */
bool ec_match_known_absent(const ec_match_env *env, ec_str s);
/** Records that s (non-empty) is nowhere in the text; out of memory, nothing is recorded. */
void ec_match_note_absent(ec_match_env *env, ec_str s);

/** The implementation of a strategy; NULL when this build has none yet. */
ec_strategy_fn ec_strategy_impl(ec_strategy s);

/**
 * Tries `order` in turn; `*used` gets the strategy that matched. EC_OK with out->total == 0
 * when none did. Other codes (TOO_LARGE, OOM) stop the ladder, with env->message set.
 */
ec_error_code ec_ladder_find(ec_match_env *env, const ec_strategy *order, size_t n, ec_str old_text,
                             ec_str new_text, ec_found_list *out, ec_strategy *used);

/* The strategies, one file each (match/<name>.c). Every one returns all non-overlapping matches,
 * left to right, with the replacement adapted to the place it matched. */
ec_error_code ec_strategy_exact(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* The exact search, its matches tagged with another strategy's name and confidence (unescape). */
ec_error_code ec_find_exact_as(ec_match_env *env, ec_str old_text, ec_str new_text, ec_strategy s, double confidence,
                               ec_found_list *out);
/* Undo one level of model over-escaping (\\n \\t \\" \\' \\` \\\\) in old_text, match exactly, and repair
 * new_text the same way. */
ec_error_code ec_strategy_unescape(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* Whole lines, trailing whitespace ignored; new_text written as given. */
ec_error_code ec_strategy_trim_end(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* Whole lines, leading and trailing whitespace ignored; new_text re-indented (ec_reindent). */
ec_error_code ec_strategy_indent(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* Typographic quotes, dashes, ellipsis and Unicode spaces folded to ASCII on both sides. */
ec_error_code ec_strategy_unicode(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* `...` lines of old_text stand for unchanged runs, kept where new_text repeats them (each part unique, in order). */
ec_error_code ec_strategy_elision(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* >= 3 lines: first and last lines equal (trimmed), every middle line similar enough. */
ec_error_code ec_strategy_anchor(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* The token regex (matched directly, regex.c): tokens split on ( ) : [ ] { } > < = and whitespace, joined by \s*. */
ec_error_code ec_strategy_regex(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
/* Best window of as many lines by normalised similarity >= fuzzy_threshold (bounded work). */
ec_error_code ec_strategy_fuzzy(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);

#endif
