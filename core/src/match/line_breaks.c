/* The line breaks at the ends of an edit: see line_breaks.h. Linear in the edit's texts and the
 * matched region; the walks over the file stop after as many blank lines as old_string names. */
#include "line_breaks.h"
#include "../base/buf.h"
#include "../base/str.h"
#include <string.h>

bool ec_frame_applies(ec_strategy s) { return s != EC_STRATEGY_EXACT && s != EC_STRATEGY_UNESCAPE; }

static bool hspace(char c) { return c == ' ' || c == '\t'; }

/* The blank lines a text starts with: breaks counted, *after = where the text's first line with
 * text starts (its indentation is not part of the run). */
static size_t lead_run(ec_str s, size_t *after) {
  size_t p = 0, n = 0;
  for (;;) {
    size_t q = p;
    while (q < s.len && hspace(s.ptr[q])) q++;
    if (q < s.len && s.ptr[q] == '\n') { n++; p = q + 1; continue; }
    break;
  }
  *after = p;
  return n;
}

/* The blank lines a text ends with: breaks counted, *from = the break that ends its last line with
 * text (that line's trailing spaces stay with it). Spaces after the last break belong to the run. */
static size_t trail_run(ec_str s, size_t *from) {
  size_t p = s.len, n = 0;
  for (;;) {
    size_t q = p;
    while (q > 0 && hspace(s.ptr[q - 1])) q--;
    if (q > 0 && s.ptr[q - 1] == '\n') { n++; p = q - 1; continue; }
    break;
  }
  *from = n ? p : s.len;
  return n;
}

static bool all_blank(ec_str s) {
  for (size_t i = 0; i < s.len; i++)
    if (!hspace(s.ptr[i]) && s.ptr[i] != '\n') return false;
  return true;
}

/* Breaks kept after an edit that names `named` breaks where the file has `have`, and asks for
 * `want`: the difference applied when the file has them all; otherwise never more removed than
 * the model's fewer (rule 3). */
static size_t target(size_t have, size_t named, size_t want) {
  if (want >= named) return have + (want - named);
  if (have >= named) return have - (named - want);
  return have < want ? have : want;
}

typedef struct side {
  size_t have;        /* the file's breaks there (blank lines + the break of the line with text) */
  size_t blanks;      /* blank lines found (at most the walk's cap) */
  size_t *pos;        /* top: start of blank line k (1-based); bottom: just past its break */
  bool term;          /* top: a line with text above; bottom: the change's last line has its break */
  bool open;          /* top: the file's start; bottom: only blank text after (the file's end) */
  bool wall;          /* bottom: the walk stopped at the next match of replace_all */
} side;

/* Above a change starting at line start cs: blank lines (nearest first), then the line with text. */
static bool walk_up(ec_arena *a, const char *text, size_t cs, size_t floor, size_t cap, side *s) {
  memset(s, 0, sizeof *s);
  if (!(s->pos = ec_arena_alloc(a, (cap + 1) * sizeof *s->pos))) return false;
  size_t p = cs;
  while (s->blanks < cap) {
    if (p == 0) { s->open = true; break; }
    if (p <= floor) break; /* the room ends here: a wall, no break may be taken past it */
    size_t r = p - 1;      /* text[r] is the break that ends the line above */
    while (r > floor && hspace(text[r - 1])) r--;
    if (r == 0 || text[r - 1] == '\n') { s->pos[++s->blanks] = r; p = r; continue; }
    s->term = !hspace(text[r - 1]); /* a line with text; else the room ended inside a blank line */
    break;
  }
  s->have = s->blanks + (s->term ? 1 : 0);
  return true;
}

/* Below a change whose text ends at ce (a break or the file's end): its break, then blank lines. */
static bool walk_down(ec_arena *a, const char *text, size_t len, size_t ce, size_t ceil, size_t cap, side *s) {
  memset(s, 0, sizeof *s);
  if (!(s->pos = ec_arena_alloc(a, (cap + 1) * sizeof *s->pos))) return false;
  if (ce >= ceil) { s->open = ce == len; s->wall = !s->open; return true; }
  s->term = true;
  size_t p = ce + 1;
  for (;;) {
    size_t r = p;
    while (r < ceil && hspace(text[r])) r++;
    if (r == len) { s->open = true; break; }
    if (r >= ceil) { s->wall = true; break; }
    if (text[r] != '\n' || s->blanks >= cap) break;
    s->pos[++s->blanks] = r + 1;
    p = r + 1;
  }
  s->have = s->blanks + 1;
  return true;
}

ec_error_code ec_frame_line_breaks(ec_arena *a, const char *text, size_t len, ec_str old_text, ec_str new_text,
                                   size_t floor, size_t ceil, size_t *start, size_t *end, ec_str *replacement,
                                   ec_str *why) {
  if (all_blank(old_text)) return EC_OK; /* only literal strategies find such a text */
  size_t o_lead_end, o_trail_from, n_lead_end = 0, n_trail_from = 0;
  size_t A = lead_run(old_text, &o_lead_end), B = trail_run(old_text, &o_trail_from);
  bool y_empty = all_blank(new_text);
  size_t A2, B2;
  if (y_empty) {
    size_t all = ec_count_lf(new_text.ptr, new_text.len);
    A2 = all < A ? all : A;
    B2 = all - A2;
  } else {
    A2 = lead_run(new_text, &n_lead_end);
    B2 = trail_run(new_text, &n_trail_from);
  }
  bool top = A || A2, bottom = B || B2;
  if (!top && !bottom) return EC_OK;

  /* The change's own text in the file (its blank lines at either end are the runs' business). */
  ec_str region = {text + *start, *end - *start};
  size_t r_lead_end, r_trail_from;
  lead_run(region, &r_lead_end);
  if (r_lead_end >= region.len) return EC_OK; /* a match of blank lines only: nothing to frame by */
  trail_run(ec_str_drop(region, r_lead_end), &r_trail_from);
  size_t cs = *start + r_lead_end, ce = cs + r_trail_from;
  top = top && (cs == 0 || text[cs - 1] == '\n');
  bottom = bottom && (ce == len || text[ce] == '\n');
  if (!top && !bottom) return EC_OK;

  /* The replacement's own text: its runs are rebuilt below. */
  ec_str mid = *replacement;
  if (y_empty) mid.len = 0;
  else {
    if (top) { size_t e; lead_run(mid, &e); mid = ec_str_drop(mid, e); }
    if (bottom) { size_t f; trail_run(mid, &f); mid.len = f; }
  }

  side up = {0}, down = {0};
  size_t new_start = *start, new_end = *end, ins_top = 0, ins_bottom = 0, cut_top = 0, cut_bottom = 0;
  if (top) {
    if (!walk_up(a, text, cs, floor, A, &up)) return EC_OUT_OF_MEMORY;
    size_t t = target(up.have, A, A2);
    if (t >= up.have) ins_top = t - up.have;
    else cut_top = up.have - t;
    new_start = cs;
  } else if (y_empty) {
    return EC_OK; /* a deletion framed on one side only would split its blank lines oddly */
  }
  if (bottom) {
    if (!walk_down(a, text, len, ce, ceil, B, &down)) return EC_OUT_OF_MEMORY;
    size_t u = target(down.have, B, B2);
    if (u >= down.have) ins_bottom = u - down.have;
    else cut_bottom = down.have - u;
    new_end = ce;
  } else if (y_empty) {
    return EC_OK;
  }

  /* Rule 4: removing the break of a line with text joins it to its neighbour. */
  bool top_joins = cut_top > up.blanks, bottom_joins = cut_bottom > down.blanks;
  /* (a deletion's next match, under replace_all, is deleted too: nothing is joined to it) */
  bool joins = y_empty ? (top_joins && bottom_joins && !down.open && !down.wall) : (top_joins || (bottom_joins && !down.open));
  if (top_joins && !up.term) joins = true; /* past this match's room (replace_all's neighbour) */
  if (joins) {
    uint32_t line = 1;
    for (size_t i = 0; i < cs && i < len; i++) line += text[i] == '\n';
    *why = top_joins && (!bottom_joins || !y_empty)
               ? ec_arena_printf(a, "old_string begins with %zu line break%s and new_string with %zu, so the edit removes the break above "
                                 "line %u; but %s, so removing it would join two lines. A loose match removes only blank lines: "
                                 "send the leading line breaks in both old_string and new_string, or in neither.",
                                 A, A == 1 ? "" : "s", A2, line,
                                 up.blanks ? "the file has fewer blank lines there than old_string names" : "the line above it is not blank")
               : ec_arena_printf(a, "old_string ends with %zu line break%s and new_string with %zu, so the edit removes the break after "
                                 "the matched lines (from line %u); but %s, so removing it would join two lines. A loose match "
                                 "removes only blank lines: send the trailing line breaks in both old_string and new_string, or in neither.",
                                 B, B == 1 ? "" : "s", B2, line,
                                 down.blanks ? "the file has fewer blank lines there than old_string names" : "the next line is not blank");
    return why->ptr ? EC_NO_MATCH : EC_OUT_OF_MEMORY;
  }
  if (cut_top) new_start = cut_top <= up.blanks ? up.pos[cut_top] : (up.blanks ? up.pos[up.blanks] : cs) - 1;
  bool reemit = false;
  if (cut_bottom) {
    if (cut_bottom <= down.blanks) { new_end = down.pos[cut_bottom]; reemit = true; }
    else new_end = down.blanks ? down.pos[down.blanks] : ce + 1;
  }

  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  ec_buf_reserve(&b, mid.len + ins_top + ins_bottom + 1);
  for (size_t i = 0; i < ins_top; i++) ec_buf_append_char(&b, '\n');
  ec_buf_append_str(&b, mid);
  if (reemit) ec_buf_append_char(&b, '\n');
  for (size_t i = 0; i < ins_bottom; i++) ec_buf_append_char(&b, '\n');
  if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
  ec_str out = ec_buf_finish(&b, a);
  if (!out.ptr) out = ec_str_make("", 0);
  *start = new_start;
  *end = new_end;
  *replacement = out;
  return EC_OK;
}

/* Blank lines strictly between the first and the last line with text. */
static size_t inner_blanks(ec_str s) {
  size_t n = 0, pending = 0;
  bool seen = false;
  for (size_t i = 0; i <= s.len;) {
    const char *nl = i < s.len ? memchr(s.ptr + i, '\n', s.len - i) : NULL;
    size_t e = nl ? (size_t)(nl - s.ptr) : s.len;
    bool blank = true;
    for (size_t k = i; k < e && blank; k++) blank = hspace(s.ptr[k]);
    if (!blank) { if (seen) n += pending; pending = 0; seen = true; }
    else if (seen) pending++;
    if (!nl) break;
    i = e + 1;
  }
  return n;
}

ec_error_code ec_check_inner_blank_lines(ec_arena *a, ec_str region, ec_str old_text, ec_str new_text, ec_str replacement,
                                         ec_str *why) {
  size_t f = inner_blanks(region), o = inner_blanks(old_text), n = inner_blanks(new_text), r = inner_blanks(replacement);
  size_t want = target(f, o, n); /* as at the ends: the difference, never a blank line the file lacks */
  if (r == want) return EC_OK;
  *why = ec_arena_printf(a, "the matched lines hold %zu blank line%s between their first and last line with text and old_string "
                         "%zu, and the edit would leave %zu where new_string asks for %zu: a blank line old_string does not show "
                         "stands where the new lines go, so whether they go above or below it is not known. Send old_string "
                         "with the blank lines as the file has them.",
                         f, f == 1 ? "" : "s", o, r, want);
  return why->ptr ? EC_AMBIGUOUS : EC_OUT_OF_MEMORY;
}
