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

/** Rewrites f->replacement in place (arena memory) where context lines can be restored. */
ec_error_code ec_restore_context(ec_arena *a, const char *doc_text, ec_str old_text, ec_str new_text, ec_found *f);

/** Whether two lines differ only in what the loose strategies forgive (whitespace other than between
 *  two word characters, typographic punctuation): restoring context writes the file's own one. */
bool ec_restore_same_line(ec_arena *a, ec_str x, ec_str y);

#endif
