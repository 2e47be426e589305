/*
 * Line tables: every line of an LF text as (offset, length), built once per document (a
 * strategy that compares lines hashes them in the form it needs: ec_match_norm_hashes).
 * Line i covers text[start[i], start[i] + len[i]) without its LF. A text ending in LF has no
 * extra empty last line; an empty text has no lines.
 */
#ifndef EC_TEXT_LINES_H
#define EC_TEXT_LINES_H
#include "../base/arena.h"

typedef struct ec_lines {
  const char *text;
  size_t text_len;
  size_t n;
  size_t *start;
  uint32_t *len;
  size_t first;     /* the text's line number (0-based) of entry 0: 0 for a whole text's table */
} ec_lines;

ec_error_code ec_lines_build(ec_arena *a, const char *text, size_t len, ec_lines *out);
/** 0-based index of the line holding byte offset off (off == text_len gives n). */
size_t ec_lines_index_of(const ec_lines *l, size_t off);
static inline ec_str ec_lines_get(const ec_lines *l, size_t i) {
  ec_str s = {l->text + l->start[i], l->len[i]};
  return s;
}
/** Lines [i, n) of l as a table of their own (entry 0 is line i): a view, nothing copied. */
static inline ec_lines ec_lines_from(const ec_lines *l, size_t i) {
  ec_lines v = *l;
  v.start += i;
  v.len += i;
  v.n -= i;
  v.first += i;
  return v;
}
/** Offset just past line i's LF (or end of text). */
static inline size_t ec_lines_end_with_lf(const ec_lines *l, size_t i) {
  size_t e = l->start[i] + l->len[i];
  return e < l->text_len ? e + 1 : e;
}

#endif
