/*
 * The Gemini CLI's calculateReplacement (packages/core/src/tools/edit.ts, @google/gemini-cli-core
 * 0.61.0), reproduced for the `gemini` profile: exact (split/replaceAll) -> flexible (windows of
 * trimmed lines, re-indented by the first matched line) -> token regex -> fuzzy (weighted
 * Levenshtein over UTF-16 code units, score <= 0.1, inside its own complexity cap), then
 * restoreTrailingNewline. Quirks kept: exact with several occurrences and no allow_multiple
 * stops the ladder; flexible and regex count every occurrence but regex replaces only the first
 * without allow_multiple; blank replacement lines lose their whitespace; a trailing newline the
 * file did not have is dropped. JS trim() is approximated by ASCII whitespace.
 */
#ifndef EC_PEERS_GEMINI_GEMINI_H
#define EC_PEERS_GEMINI_GEMINI_H
#include "../../match/ladder.h"

typedef struct ec_gemini_result {
  size_t occurrences;   /* Gemini's count (0: nothing matched) */
  ec_str content;       /* the new LF text when something was replaced; ptr NULL otherwise */
  ec_strategy strategy; /* exact, indent (Gemini's "flexible"), regex or fuzzy */
  ec_found_list applied;/* where replacements landed (lines in the file as it was) */
  uint64_t max_len;     /* what the new text may hold (the caller's limit) */
  uint64_t too_large;   /* past max_len: the length at which building stopped; content is then NULL */
} ec_gemini_result;

/** `max_len`: the new text may hold at most this many bytes; past it building stops (the count of
 *  occurrences is still made) and out->too_large says where. */
ec_error_code ec_gemini_calculate(ec_match_env *env, ec_str old_raw, ec_str new_raw, bool allow_multiple, uint64_t max_len,
                                  ec_gemini_result *out);

#endif
