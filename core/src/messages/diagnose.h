/*
 * What to tell the model when nothing matched: the best few regions of the file (by how many of
 * old_text's lines they share, whitespace aside) and, for the best one, the first line that
 * differs and how.
 */
#ifndef EC_MESSAGES_DIAGNOSE_H
#define EC_MESSAGES_DIAGNOSE_H
#include "../match/ladder.h"

typedef struct ec_diagnosis {
  ec_candidate *candidates;   /* best first, at most 3 */
  size_t n_candidates;
  ec_str detail;              /* one or two sentences naming what differs; may be empty */
} ec_diagnosis;

ec_error_code ec_diagnose_no_match(ec_match_env *env, ec_str old_text, ec_diagnosis *out);

#endif
