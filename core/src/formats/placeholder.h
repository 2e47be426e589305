/*
 * Omission placeholders in edit text (formats/placeholder.c): a line's key when the line is one.
 */
#ifndef EC_FORMATS_PLACEHOLDER_H
#define EC_FORMATS_PLACEHOLDER_H
#include "../base/str.h"

/** Whether `line` is an omission placeholder; if so its key (NUL-terminated, at most cap bytes)
 *  in `key`: two placeholders with the same key stand for the same thing. */
typedef bool ec_placeholder_fn(ec_str line, char *key, size_t cap);

/** editcore's rule: any comment syntax, "..." or "…" around a phrase meaning "code left out". */
bool ec_editcore_placeholder(ec_str line, char *key, size_t cap);
/** The words of s lowercased and single-spaced into out (size cap); false if they do not fit. */
bool ec_placeholder_words(ec_str s, char *out, size_t cap);
/** The first line (1-based) of new_text that is a placeholder by `is_placeholder` whose key no
 *  line of old_text has, that line trimmed in *line_out; 0 when there is none. */
size_t ec_new_placeholder(ec_str old_text, ec_str new_text, ec_placeholder_fn *is_placeholder, ec_str *line_out);

#endif
