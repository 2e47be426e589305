/* The model's answer to a correction prompt, found in its raw reply and checked for shape. */
#ifndef EC_CORRECT_ANSWER_H
#define EC_CORRECT_ANSWER_H
#include "../base/arena.h"

typedef struct ec_cx_answer {
  ec_str search, replace, merged, explanation;
  bool has_search, has_replace, has_merged;
  bool no_changes_required;
} ec_cx_answer;

/**
 * Finds the first JSON object in `reply` that parses — inside a code fence or not, with prose
 * around it, trailing commas forgiven — and reads its fields (`noChangesRequired` is taken for
 * `no_changes_required`; other fields are ignored). EC_INVALID_REPLY with *message when there is
 * none or a field has the wrong type; EC_OUT_OF_MEMORY.
 */
ec_error_code ec_cx_parse_answer(ec_arena *a, ec_str reply, ec_cx_answer *out, ec_str *message);

#endif
