/*
 * The line breaks at the ends of an edit (every strategy of the ladder but the literal ones).
 *
 * old_string = A·X·B and new_string = A'·Y·B', where A and B (A' and B') are the runs of blank
 * lines old_string (new_string) starts and ends with: line breaks, with only spaces and tabs
 * between them; |A| counts the breaks. A strategy matches X, the text; the breaks around it are
 * not forgiven like text is, they say how the lines above and below the change move:
 *
 *  1. |A| = |A'| (|B| = |B'|): the file's own bytes above (below) the matched lines stay as
 *     they are. No blank line appears or disappears there, whatever the strategy matched or
 *     re-indented (the token regex skips line breaks; a line strategy reads a leading break as a
 *     blank line: neither may write or drop one the edit did not ask for).
 *  2. |A'| > |A| (|B'| > |B|): that many line breaks are added right above (below) the change.
 *  3. |A'| < |A| (|B'| < |B|): that many are removed, nearest first, and a removed break takes
 *     its whole blank line (spaces included). When the file has fewer blank lines there than
 *     old_string names, the result has min(file's, |A'|) breaks: the model wanted fewer, and a
 *     blank line it believed in but the file lacks is not taken from elsewhere.
 *  4. A loose match never joins two lines: a removal that would take the break after a line
 *     with text (above the change) or after the change's last line (below it, with text after)
 *     is refused (NO_MATCH with the reason). Removing the file's final line break, or the breaks
 *     around a change whose new text is empty (a deletion), joins nothing.
 *  When new_string is only line breaks (or empty), its |N'| breaks are read as A' = min(N', |A|)
 *  and B' = the rest.
 *
 * exact and unescape match the line breaks literally and are applied as written (the contract of
 * a literal old_string); every other strategy's match goes through ec_frame_line_breaks.
 */
#ifndef EC_MATCH_LINE_BREAKS_H
#define EC_MATCH_LINE_BREAKS_H
#include "ladder.h"

/** Whether matches of strategy s are framed (every strategy but exact and unescape). */
bool ec_frame_applies(ec_strategy s);

/**
 * Reframes one match [*start, *end) of `text` and its *replacement (arena memory) by the rules
 * above. [floor, ceil) is the room the match may grow into (a neighbouring match of replace_all
 * bounds it). EC_OK (maybe unchanged), EC_OUT_OF_MEMORY, or EC_NO_MATCH with *why set (rule 4).
 */
ec_error_code ec_frame_line_breaks(ec_arena *a, const char *text, size_t len, ec_str old_text, ec_str new_text,
                                   size_t floor, size_t ceil, size_t *start, size_t *end, ec_str *replacement,
                                   ec_str *why);

/**
 * Rule 5 (inside the change): the blank lines between the first and the last line with text move
 * by what new_string's differ from old_string's (counted as at the ends: when the file has fewer than
 * old_string shows, min(file's, new_string's) remain). A loose match that forgave blank lines the file
 * has and old_string does not (the token regex spans them) must keep them; when the replacement
 * has not (the model's new lines go where such a blank line stands, so whether above or below it
 * is not known), AMBIGUOUS with *why set. `region` is the file's matched text.
 */
ec_error_code ec_check_inner_blank_lines(ec_arena *a, ec_str region, ec_str old_text, ec_str new_text, ec_str replacement,
                                         ec_str *why);

#endif
