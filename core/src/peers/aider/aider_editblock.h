/*
 * Aider's SEARCH/REPLACE machinery (editblock_coder.py), shared by the search_replace dialect,
 * format `replace` in the aider profile and the unit tests.
 */
#ifndef EC_PEERS_AIDER_AIDER_EDITBLOCK_H
#define EC_PEERS_AIDER_AIDER_EDITBLOCK_H
#include "aider_py.h"

/** One block of find_original_update_blocks(); `shell` marks a shell-command fence (no edit). */
typedef struct ec_aider_block {
  ec_str path, search, replace;
  bool shell;
} ec_aider_block;

typedef struct ec_aider_blocks {
  ec_aider_block *items;
  size_t n, cap;
  ec_str error;       /* on MALFORMED_EDIT: Aider's message ("...\n^^^ Expected `=======`") */
  uint32_t error_line;/* 1-based line of the reply where parsing stopped */
} ec_aider_blocks;

/**
 * find_original_update_blocks(text, fence, valid_fnames). EC_MALFORMED_EDIT with out->error
 * set when the reply does not parse; EC_OUT_OF_MEMORY.
 */
ec_error_code ec_aider_parse_blocks(ec_arena *a, ec_str text, const ec_str fence[2], const ec_str *valid,
                                    size_t n_valid, ec_aider_blocks *out);

/** Work budget for one replace_most_similar_chunk / find_similar_lines (line comparisons). */
#define EC_AIDER_WORK_BUDGET 200000000u

/**
 * replace_most_similar_chunk(whole, part, replace): *out gets the new text, or ptr NULL when
 * nothing matched (Aider's None and its falsy ""). EC_TOO_LARGE past the work budget.
 */
ec_error_code ec_aider_replace_chunk(ec_arena *a, ec_str whole, ec_str part, ec_str replace, ec_str *out);

/** strip_quoted_wrapping(res, fname, fence); *crash when Aider would raise IndexError. */
ec_error_code ec_aider_strip_wrapping(ec_arena *a, ec_str res, ec_str fname, const ec_str fence[2], ec_str *out,
                                      bool *crash);

/**
 * find_similar_lines(search, content): the "Did you mean" text (len 0 when below 0.6 or over
 * the work budget), with the window's 1-based lines and ratio numerator/denominator.
 */
typedef struct ec_aider_similar {
  ec_str text;
  uint32_t start_line, end_line;
  uint64_t num, den;
} ec_aider_similar;
ec_error_code ec_aider_similar_lines(ec_arena *a, ec_str search, ec_str content, ec_aider_similar *out);

#endif
