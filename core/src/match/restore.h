/*
 * Context restoration after a loose match (editcore profile). A model copies the lines around
 * its change into both old_string and new_string; when old_string matched only loosely (wrong
 * indentation, trailing or inner whitespace, typographic punctuation, a blank line missing or
 * extra), new_string repeats the model's version of those unchanged lines. "Unchanged" means
 * the file's own lines: this writes the matched region's text for the leading and trailing lines
 * that new_string repeats verbatim from old_string, and the strategy's replacement only for the
 * lines in between (the model's actual change). Blank lines of the file that old_string left out
 * next to those context lines are kept. Anything that does not line up, line for line, under the
 * forgiven differences leaves the replacement as the strategy made it.
 */
#ifndef EC_MATCH_RESTORE_H
#define EC_MATCH_RESTORE_H
#include "ladder.h"
#include "lineutil.h"

/** Rewrites f->replacement in place (arena memory) where context lines can be restored. */
ec_error_code ec_restore_context(ec_arena *a, const char *doc_text, ec_str old_text, ec_str new_text, ec_found *f);

/**
 * The editcore precision rule: a loose match may not write text the file never had. When a line
 * of old (trimmed) differs from the file line it was matched to, by more than what the loose
 * strategies forgive (whitespace between tokens, typographic punctuation: restoring context
 * writes the file's own line back there), and new_text repeats it, sets env->message naming both
 * and returns EC_NO_MATCH. Here, beside the restoring, so both read one line key.
 */
ec_error_code ec_check_repeated_belief(ec_match_env *env, const ec_split *old, size_t fs, ec_str new_text);

#endif
