/* The working text of the unified_diff format: where each hunk of a file is looked for. */
#ifndef EC_FORMATS_UDIFF_TEXT_H
#define EC_FORMATS_UDIFF_TEXT_H
#include "../request/ctx.h"
#include "../match/ladder.h"
#include "../parse/udiff_parse.h"

/*
 * The text a hunk is located in is the file with the hunks before it applied. It is kept as a
 * base text T (the file itself, or a copy made when a hunk needed the whole text,
 * `ec_ud_text_flush`) plus the replacements made since, sorted by their place in T; the file is
 * copied once at the end (one batch of splices), never per hunk. A hunk whose lines are found
 * exactly is located through a hash index of T's lines, built once per base text: the candidates
 * are the places of its rarest line, so a hunk costs its own size plus its candidates, however
 * large the file. Whenever that cannot decide by itself (no exact place, a candidate that runs
 * into an earlier replacement, a line an earlier hunk wrote, a ladder that does not start with
 * exact), the hunk takes the general path: the current text is materialised and the ladder
 * searches all of it, as for a single edit.
 */
typedef struct ec_ud_splice {
  size_t start, end;       /* bytes of T (end may take T's virtual final LF) */
  uint32_t line0, line1;   /* the lines of T it replaces, [line0, line1) */
  ec_str text;             /* what the current text has there instead */
} ec_ud_splice;

typedef struct ec_ud_text {
  const char *p;
  size_t len;              /* bytes at p; T is p plus one LF when virt */
  bool virt;               /* the file does not end in LF: T reads one there, as the hunk's lines do */
  bool is_doc;             /* p is the file's own text */
  bool owned;              /* p was made by ec_ud_text_flush (released by the next one) */
  bool dirty;              /* a replacement is not whole lines: materialise before an indexed search */
  uint32_t n_lines;        /* lines of T */
  uint32_t *orig;          /* line of T -> its 1-based line in the file as given; NULL: the same */
  ec_ud_splice *sp;
  size_t n_sp, cap_sp;
  /* the hash index of T's lines: slot s holds the lines post[first[s] .. first[s + 1]) */
  bool indexed;
  size_t *start;           /* byte offset of each line of T; start[n_lines] = T's length */
  uint32_t mask;
  uint32_t *key, *first, *post;
  uint32_t *written;       /* per slot: 1 + the last of the lines with that key that replacements wrote, 0: none */
  struct ec_ud_wline { size_t at; uint32_t off, next; } *wl; /* at: the replacement's start; off: the line in its text */
  size_t n_wl, cap_wl;
} ec_ud_text;

static inline size_t ec_ud_text_size(const ec_ud_text *t) { return t->len + (t->virt ? 1 : 0); }

/** 1-based line in the file as given of line i (0-based) of T. */
int64_t ec_ud_text_orig(const ec_ud_text *t, size_t i);

/** Makes T the current text (the replacements copied in once); EC_TOO_LARGE past 4 Gi lines. */
ec_error_code ec_ud_text_flush(ec_ctx *ctx, ec_ud_text *t);

/** Releases the line index (rebuilt on the next indexed search). */
void ec_ud_text_drop_index(ec_ctx *ctx, ec_ud_text *t);

/** Records a replacement of T's [start, end) (starting at line line0) by text, in order. */
ec_error_code ec_ud_text_add_splice(ec_ctx *ctx, ec_ud_text *t, size_t start, size_t end, uint32_t line0, ec_str text);

/**
 * The exact places of a hunk's old lines, through the index. *decided = false when the index
 * cannot tell (the general path then searches the whole current text); otherwise `found` holds
 * the places (non-overlapping, left to right, as the exact strategy gives them), at least one.
 * The caller's ladder must start with the exact strategy. Work is added to *work; past
 * budget_all the index is not built and the general path decides (and reports the budget).
 */
ec_error_code ec_ud_text_find_exact(ec_ctx *ctx, ec_ud_text *t, const ec_ud_hunk *h, ec_str old_text, ec_str new_text,
                                    uint64_t *work, uint64_t budget_all, ec_found_list *found, bool *decided);

#endif
