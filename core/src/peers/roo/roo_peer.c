/*
 * The `roo` dialect. In the `roo` profile it reproduces Roo Code's MultiSearchReplaceDiffStrategy
 * (src/core/diff/strategies/multi-search-replace.ts; see peers/roo_openhands_claude.md §1):
 *   - validateMarkerSequencing first (its messages, with the line);
 *   - blocks as Roo's regex finds them: `<<<<<<< SEARCH>?`, optional `:start_line:N`,
 *     `:end_line:N` (ignored) and `-------`, the SEARCH lines, `=======`, the new lines,
 *     `>>>>>>> REPLACE`; blank lines right after a marker are swallowed as its regex does;
 *   - `\<<<<<<<` `\=======` `\>>>>>>>` `\-------` `\:start_line:` `\:end_line:` unescaped;
 *   - blocks sorted by start line, applied in turn to a line array with a running delta;
 *   - similarity 1 - levenshtein / max length over whitespace-collapsed, punctuation-folded
 *     text (in UTF-16 code units, as JavaScript counts), window at the hint first, then a
 *     middle-out scan of [hint-41, hint+len+40) or of the whole file; threshold
 *     edit.options.fuzzy_threshold (default 1.0), window edit.options.buffer_lines (default 40);
 *   - re-indentation from the first matched line; line-number prefixes stripped;
 *   - each block succeeds or fails alone: some applied = partial with the failures, none = error.
 * Levenshtein is banded by the best score so far and every comparison is charged to
 * options.limits.fuzzy_work (TOO_LARGE past it). In any other profile the Roo grammar is parsed
 * the same way and applied by the strict transactional applier (sr_blocks.h).
 */
#include "../peers.h"
#include "../../parse/sr_blocks.h"
#include "../../request/ctx.h"
#include "../../base/buf.h"
#include "../../base/str.h"
#include "../../base/edit_distance.h"
#include <string.h>

/* Section - grammar */

typedef struct roo_block {
  ec_str search, replace;   /* without the final LF, as Roo's regex captures them */
  int64_t start_line;
  uint32_t line;            /* line of the SEARCH marker in the edit text */
} roo_block;

static bool starts(const char *p, const char *end, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}


/* `\s*\n` greedy: the position after the last LF of the white-space run at p, or NULL. */
static const char *ws_nl(const char *p, const char *end) {
  const char *last = NULL;
  while (p < end && ec_is_ws(*p, EC_WS_ASCII)) {
    if (*p == '\n') last = p + 1;
    p++;
  }
  return last;
}

/* The first line start >= from (from follows an LF) holding `lit` then `\s*\n` (sep) or LF/end (replace). */
static const char *find_marker_line(const char *from, const char *end, const char *lit, bool sep, const char **after) {
  for (const char *p = from; p < end;) {
    if (starts(p, end, lit)) {
      const char *q = p + strlen(lit);
      if (sep) {
        const char *r = ws_nl(q, end);
        if (r) { *after = r; return p; }
      } else if (q == end || *q == '\n') {
        *after = q;
        return p;
      }
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) break;
    p = nl + 1;
  }
  return NULL;
}

static ec_error_code roo_parse(ec_ctx *ctx, ec_str text, roo_block **out, size_t *n_out) {
  const char *base = text.ptr, *end = text.ptr + text.len;
  size_t cap = 8, n = 0;
  roo_block *bl = ec_arena_calloc(ctx->arena, cap, sizeof *bl);
  if (!bl) return EC_OUT_OF_MEMORY;
  const char *pos = base, *line_from = base;
  uint32_t line_at = 1;
  size_t max_blocks = ctx->opt.limits.max_blocks ? ctx->opt.limits.max_blocks : 10000;
  for (;;) {
    /* next candidate: "<<<<<<< SEARCH" at the start of the text or after an LF at or past pos */
    const char *L = NULL;
    if (pos == base && starts(base, end, "<<<<<<< SEARCH")) L = base;
    else {
      for (const char *p = pos; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) break;
        if (starts(nl + 1, end, "<<<<<<< SEARCH")) { L = nl + 1; break; }
        p = nl + 1;
      }
    }
    if (!L) break;
    const char *q = L + 14;
    if (q < end && *q == '>') q++;
    const char *r = ws_nl(q, end);
    if (!r) { pos = L + 1; continue; }
    q = r;
    int64_t hint = 0;
    if (starts(q, end, ":start_line:")) {
      const char *d = q + 12;
      while (d < end && ec_is_ws(*d, EC_WS_ASCII)) d++;
      const char *d0 = d;
      int64_t v = 0;
      while (d < end && *d >= '0' && *d <= '9') { if (v < (int64_t)1 << 40) v = v * 10 + (*d - '0'); d++; }
      const char *e2 = d > d0 ? ws_nl(d, end) : NULL;
      if (e2) { hint = v; q = e2; }
    }
    if (starts(q, end, ":end_line:")) {
      const char *d = q + 10;
      while (d < end && ec_is_ws(*d, EC_WS_ASCII)) d++;
      const char *d0 = d;
      while (d < end && *d >= '0' && *d <= '9') d++;
      const char *e2 = d > d0 ? ws_nl(d, end) : NULL;
      if (e2) q = e2;
    }
    if (starts(q, end, "-------")) {
      const char *e2 = ws_nl(q + 7, end);
      if (e2) q = e2;
    }
    const char *after_sep, *after_rep;
    const char *S = find_marker_line(q, end, "=======", true, &after_sep);
    if (!S) break;
    const char *R = find_marker_line(after_sep, end, ">>>>>>> REPLACE", false, &after_rep);
    if (!R) break;
    if (n >= max_blocks) return ec_fail(ctx, EC_TOO_LARGE, "the diff has more than %zu blocks (options.limits.max_blocks)", max_blocks);
    if (n == cap) {
      roo_block *p = ec_arena_grow(ctx->arena, bl, cap * sizeof *p, cap * 2 * sizeof *p);
      if (!p) return EC_OUT_OF_MEMORY;
      bl = p;
      cap *= 2;
    }
    roo_block *b = &bl[n++];
    b->search = ec_str_make(q, S > q ? (size_t)(S - 1 - q) : 0);
    b->replace = ec_str_make(after_sep, R > after_sep ? (size_t)(R - 1 - after_sep) : 0);
    b->start_line = hint;
    /* lines counted from the previous block on, not from the start: 10,000 blocks stay linear */
    line_at += (uint32_t)ec_count_lf(line_from, (size_t)(L - line_from));
    line_from = L;
    b->line = line_at;
    pos = after_rep;
  }
  *out = bl;
  *n_out = n;
  return EC_OK;
}

/* Section - validateMarkerSequencing */

#define SEP "======="
#define REPL ">>>>>>> REPLACE"

static bool search_pat(ec_str m) { return ec_str_eq_cstr(m, "<<<<<<< SEARCH") || ec_str_eq_cstr(m, "<<<<<<< SEARCH>"); }

static ec_error_code vfail(ec_ctx *ctx, uint32_t line, ec_str msg) {
  ec_fail(ctx, EC_MALFORMED_EDIT, "%.*s", (int)msg.len, msg.ptr ? msg.ptr : "the diff is malformed");
  ec_error *e = ec_last_error(ctx);
  if (e) e->line = line;
  return EC_MALFORMED_EDIT;
}

static ec_error_code merge_conflict(ec_ctx *ctx, uint32_t line, ec_str found) {
  return vfail(ctx, line, ec_arena_printf(ctx->arena,
      "ERROR: Special marker '%.*s' found in your diff content at line %u:\n\nWhen removing merge conflict markers like '%.*s' "
      "from files, you MUST escape them\nin your SEARCH section by prepending a backslash (\\) at the beginning of the line:\n\n"
      "CORRECT FORMAT:\n\n<<<<<<< SEARCH\ncontent before\n\\%.*s    <-- Note the backslash here in this example\ncontent after\n"
      "=======\nreplacement content\n>>>>>>> REPLACE\n\nWithout escaping, the system confuses your content with diff syntax markers.\n"
      "You may use multiple diff blocks in a single diff request, but ANY of ONLY the following separators that occur within "
      "SEARCH or REPLACE content must be escaped, as follows:\n\\<<<<<<< SEARCH>?\n\\=======\n\\>>>>>>> REPLACE\n",
      (int)found.len, found.ptr, line, (int)found.len, found.ptr, (int)found.len, found.ptr));
}

static ec_error_code invalid_diff(ec_ctx *ctx, uint32_t line, const char *found, const char *expected) {
  return vfail(ctx, line, ec_arena_printf(ctx->arena,
      "ERROR: Diff block is malformed: marker '%s' found in your diff content at line %u. Expected: %s\n\nCORRECT FORMAT:\n\n"
      "<<<<<<< SEARCH\n:start_line: (required) The line number of original content where the search block starts.\n-------\n"
      "[exact content to find including whitespace]\n=======\n[new content to replace with]\n>>>>>>> REPLACE\n", found, line, expected));
}

static ec_error_code line_marker_in_replace(ec_ctx *ctx, uint32_t line, const char *marker) {
  return vfail(ctx, line, ec_arena_printf(ctx->arena,
      "ERROR: Invalid line marker '%s' found in REPLACE section at line %u\n\nLine markers (:start_line: and :end_line:) are only "
      "allowed in SEARCH sections.\n\nCORRECT FORMAT:\n<<<<<<< SEARCH\n:start_line:5\ncontent to find\n=======\nreplacement content\n"
      ">>>>>>> REPLACE\n\nINCORRECT FORMAT:\n<<<<<<< SEARCH\ncontent to find\n=======\n:start_line:5    <-- Invalid location\n"
      "replacement content\n>>>>>>> REPLACE\n", marker, line));
}

static ec_error_code roo_validate(ec_ctx *ctx, const ec_sr_lines *l) {
  size_t nsearch = 0, nsep = 0, nrep = 0;
  for (size_t i = 0; i < l->n; i++) {
    ec_str m = ec_sr_trim(l->items[i]);
    nsearch += search_pat(m);
    nsep += ec_str_eq_cstr(m, SEP);
    nrep += ec_str_eq_cstr(m, REPL);
  }
  bool bad = nsearch != nrep || nsep < nsearch;
  enum { START, AFTER_SEARCH, AFTER_SEP } st = START;
  for (size_t i = 0; i < l->n; i++) {
    uint32_t ln = (uint32_t)i + 1;
    ec_str m = ec_sr_trim(l->items[i]);
    if (st == AFTER_SEP) {
      if (ec_str_starts_with(m, ":start_line:")) return line_marker_in_replace(ctx, ln, ":start_line:");
      if (ec_str_starts_with(m, ":end_line:")) return line_marker_in_replace(ctx, ln, ":end_line:");
    }
    switch (st) {
      case START:
        if (ec_str_eq_cstr(m, SEP)) return bad ? invalid_diff(ctx, ln, SEP, "<<<<<<< SEARCH>?") : merge_conflict(ctx, ln, m);
        if (ec_str_eq_cstr(m, REPL)) return invalid_diff(ctx, ln, REPL, "<<<<<<< SEARCH>?");
        if (ec_str_starts_with(m, ">>>>>>>")) return merge_conflict(ctx, ln, m);
        if (search_pat(m)) st = AFTER_SEARCH;
        else if (ec_str_starts_with(m, "<<<<<<<")) return merge_conflict(ctx, ln, m);
        break;
      case AFTER_SEARCH:
        if (search_pat(m)) return invalid_diff(ctx, ln, "^<<<<<<< SEARCH>?$", SEP);
        if (ec_str_starts_with(m, "<<<<<<<")) return merge_conflict(ctx, ln, m);
        if (ec_str_eq_cstr(m, REPL)) return invalid_diff(ctx, ln, REPL, SEP);
        if (ec_str_starts_with(m, ">>>>>>>")) return merge_conflict(ctx, ln, m);
        if (ec_str_eq_cstr(m, SEP)) st = AFTER_SEP;
        break;
      case AFTER_SEP:
        if (search_pat(m)) return invalid_diff(ctx, ln, "^<<<<<<< SEARCH>?$", REPL);
        if (ec_str_starts_with(m, "<<<<<<<")) return merge_conflict(ctx, ln, m);
        if (ec_str_eq_cstr(m, SEP)) return bad ? invalid_diff(ctx, ln, SEP, REPL) : merge_conflict(ctx, ln, m);
        if (ec_str_eq_cstr(m, REPL)) st = START;
        else if (ec_str_starts_with(m, ">>>>>>>")) return merge_conflict(ctx, ln, m);
        break;
    }
  }
  if (st != START)
    return vfail(ctx, (uint32_t)l->n, ec_arena_printf(ctx->arena, "ERROR: Unexpected end of sequence: Expected '%s' was not found.",
                                                     st == AFTER_SEARCH ? SEP : REPL));
  return EC_OK;
}

/* Section - content transforms */

/* Removes the backslash of escaped markers at line starts. */
static ec_str unescape_markers(ec_arena *a, ec_str s) {
  static const char *const M[] = {"\\<<<<<<<", "\\=======", "\\>>>>>>>", "\\-------", "\\:end_line:", "\\:start_line:"};
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  bool changed = false;
  size_t i = 0;
  while (i <= s.len) {
    const char *nl = i < s.len ? memchr(s.ptr + i, '\n', s.len - i) : NULL;
    size_t e = nl ? (size_t)(nl - s.ptr) : s.len;
    ec_str line = ec_str_make(s.ptr + i, e - i);
    size_t skip = 0;
    for (size_t k = 0; k < sizeof M / sizeof *M; k++)
      if (ec_str_starts_with(line, M[k])) { skip = 1; changed = true; break; }
    ec_buf_append(&b, line.ptr + skip, line.len - skip);
    if (!nl) break;
    ec_buf_append_char(&b, '\n');
    i = e + 1;
  }
  if (!changed) { ec_buf_free(&b); return s; }
  ec_str r = ec_buf_finish(&b, a);
  return r.ptr ? r : s;
}

/* /^\s*\d+\s+\|(?!\|)/ ; with `rest` the text after the pipe and one optional space. */
static bool numbered(ec_str line, ec_str *rest, bool aggressive) {
  size_t i = 0;
  while (i < line.len && ec_is_ws(line.ptr[i], EC_WS_ASCII)) i++;
  size_t d0 = i;
  while (i < line.len && line.ptr[i] >= '0' && line.ptr[i] <= '9') i++;
  if (aggressive) {
    /* /^\s*(?:\d+\s)?\|\s(.*)$/ */
    size_t j = i;
    if (i > d0 && i < line.len && ec_is_ws(line.ptr[i], EC_WS_ASCII)) j = i + 1;
    else j = d0;
    if (j < line.len && line.ptr[j] == '|' && j + 1 < line.len && ec_is_ws(line.ptr[j + 1], EC_WS_ASCII)) {
      if (rest) *rest = ec_str_make(line.ptr + j + 2, line.len - j - 2);
      return true;
    }
    if (j != d0 && d0 < line.len && line.ptr[d0] == '|' && d0 + 1 < line.len && ec_is_ws(line.ptr[d0 + 1], EC_WS_ASCII)) {
      if (rest) *rest = ec_str_make(line.ptr + d0 + 2, line.len - d0 - 2);
      return true;
    }
    return false;
  }
  if (i == d0) return false;
  size_t s0 = i;
  while (i < line.len && ec_is_ws(line.ptr[i], EC_WS_ASCII)) i++;
  if (i == s0 || i >= line.len || line.ptr[i] != '|') return false;
  if (i + 1 < line.len && line.ptr[i + 1] == '|') return false;
  i++;
  if (i < line.len && ec_is_ws(line.ptr[i], EC_WS_ASCII)) i++;
  if (rest) *rest = ec_str_make(line.ptr + i, line.len - i);
  return true;
}

static bool every_line_numbered(ec_arena *a, ec_str s) {
  ec_sr_lines l;
  if (ec_sr_split(a, s, &l)) return false;
  for (size_t i = 0; i < l.n; i++)
    if (!numbered(l.items[i], NULL, false)) return false;
  return true;
}

static ec_str strip_numbers(ec_arena *a, ec_str s, bool aggressive) {
  ec_sr_lines l;
  if (ec_sr_split(a, s, &l)) return s;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = 0; i < l.n; i++) {
    ec_str rest;
    if (i) ec_buf_append_char(&b, '\n');
    ec_buf_append_str(&b, numbered(l.items[i], &rest, aggressive) ? rest : l.items[i]);
  }
  if (s.len && s.ptr[s.len - 1] == '\n' && !(b.len && b.ptr[b.len - 1] == '\n')) ec_buf_append_char(&b, '\n');
  ec_str r = ec_buf_finish(&b, a);
  return r.ptr ? r : ec_str_make("", 0);
}

/* Section - similarity */

typedef struct u16s { uint16_t *p; size_t n, cap; } u16s;

static bool u16_push(ec_arena *a, u16s *s, uint16_t c) {
  if (!EC_ARENA_RESERVE(a, s->p, s->n, s->cap, 64)) return false;
  s->p[s->n++] = c;
  return true;
}

static bool js_space(uint32_t c) {
  return (c >= 9 && c <= 13) || c == 32 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) || c == 0x2028 ||
         c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
}

/* Decodes one UTF-8 sequence (U+FFFD for a bad byte). */
static uint32_t utf8_next(const unsigned char *p, size_t n, size_t *used) {
  unsigned char c = p[0];
  if (c < 0x80) { *used = 1; return c; }
  size_t k = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
  if (!k || k > n) { *used = 1; return 0xfffd; }
  uint32_t v = c & (0x7f >> k);
  for (size_t i = 1; i < k; i++) {
    if ((p[i] & 0xc0) != 0x80) { *used = 1; return 0xfffd; }
    v = (v << 6) | (p[i] & 0x3f);
  }
  *used = k;
  return v;
}

/* normalizeString of one line: quotes and dashes folded, white-space runs to one space, trimmed. */
static bool norm_append(ec_arena *a, u16s *out, ec_str s, bool *pending_space) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t i = 0;
  while (i < s.len) {
    size_t u;
    uint32_t c = utf8_next(p + i, s.len - i, &u);
    i += u;
    if (c == 0x201c || c == 0x201d) c = '"';
    else if (c == 0x2018 || c == 0x2019) c = '\'';
    else if (c == 0x2014 || c == 0x2013) c = '-';
    if (js_space(c)) { if (out->n) *pending_space = true; continue; }
    if (*pending_space) { if (!u16_push(a, out, ' ')) return false; *pending_space = false; }
    if (c == 0x2026) {
      for (int k = 0; k < 3; k++) if (!u16_push(a, out, '.')) return false;
    } else if (c >= 0x10000) {
      c -= 0x10000;
      if (!u16_push(a, out, (uint16_t)(0xd800 + (c >> 10))) || !u16_push(a, out, (uint16_t)(0xdc00 + (c & 0x3ff)))) return false;
    } else if (!u16_push(a, out, (uint16_t)c)) return false;
  }
  return true;
}

typedef struct roo_run {
  ec_ctx *ctx;
  ec_str *lines;            /* the file as a line array (LF split) */
  size_t n, cap;
  double threshold;
  int64_t buffer;
  uint64_t work, max_work;
  u16s win, srch;
  ec_lev_rows rows;         /* the edit distance's scratch rows, reused */
} roo_run;

/* Normalised text of lines [s, s + m) (clamped to the array). */
static bool window_norm(roo_run *r, int64_t s, size_t m, u16s *out) {
  out->n = 0;
  bool sp = false;
  if (s < 0) s = 0;
  for (size_t i = (size_t)s; i < r->n && i < (size_t)s + m; i++) {
    if (i > (size_t)s && out->n) sp = true;
    if (!norm_append(r->ctx->arena, out, r->lines[i], &sp)) return false;
    r->work += r->lines[i].len;
  }
  return true;
}

/* getSimilarity, reporting only scores above `best` (others give -1). */
static ec_error_code similarity(roo_run *r, const u16s *a, const u16s *b, double best, double *out) {
  *out = -1;
  if (a->n == b->n && (a->n == 0 || memcmp(a->p, b->p, a->n * sizeof *a->p) == 0)) { *out = 1; return EC_OK; }
  size_t M = a->n > b->n ? a->n : b->n;
  /* largest d with 1 - d / M > best */
  if (best < 0) best = -1;
  int64_t k = best < 0 ? (int64_t)M : (int64_t)((1.0 - best) * (double)M) + 1;
  while (k >= 0 && !(1.0 - (double)k / (double)M > best)) k--;
  if (k < 0) return EC_OK;
  if (k > (int64_t)M) k = (int64_t)M;
  /* The shorter text as rows; the search stops once the budget is spent (one pair of long
   * blocks with a wide band costs more than the whole budget). */
  const u16s *x = a->n <= b->n ? a : b, *y = a->n <= b->n ? b : a;
  size_t d = ec_edit_distance_u16(r->ctx->arena, &r->rows, x->p, x->n, y->p, y->n, (size_t)k, &r->work, r->max_work);
  if (d == SIZE_MAX) return EC_OUT_OF_MEMORY;
  if (d <= (size_t)k) *out = 1.0 - (double)d / (double)M;
  if (r->work > r->max_work) return EC_TOO_LARGE;
  return EC_OK;
}

static ec_error_code score_at(roo_run *r, int64_t idx, size_t m, double best, double *out) {
  if (!window_norm(r, idx, m, &r->win)) return EC_OUT_OF_MEMORY;
  return similarity(r, &r->win, &r->srch, best, out);
}

/* fuzzySearch: middle-out over [s, e) for a window of m lines. */
static ec_error_code fuzzy_search(roo_run *r, size_t m, int64_t s, int64_t e, double *best, int64_t *best_idx) {
  *best = 0;
  *best_idx = -1;
  int64_t mid = (s + e) / 2, left = mid, right = mid + 1;
  while (left >= s || right <= e - (int64_t)m) {
    if (left >= s) {
      double v;
      ec_error_code rc = score_at(r, left, m, *best, &v);
      if (rc) return rc;
      if (v > *best) { *best = v; *best_idx = left; }
      left--;
    }
    if (right <= e - (int64_t)m) {
      double v;
      ec_error_code rc = score_at(r, right, m, *best, &v);
      if (rc) return rc;
      if (v > *best) { *best = v; *best_idx = right; }
      right++;
    }
  }
  return EC_OK;
}

/* Section - applying */

static void add_numbered(ec_buf *b, ec_str *lines, size_t s, size_t e, size_t first) {
  size_t width = 1;
  for (size_t v = first + (e > s ? e - s - 1 : 0); v >= 10; v /= 10) width++;
  for (size_t i = s; i < e; i++) ec_buf_printf(b, "%*zu | %.*s\n", (int)width, first + i - s, (int)lines[i].len, lines[i].ptr);
}

static size_t indent_len(ec_str s) {
  size_t i = 0;
  while (i < s.len && (s.ptr[i] == ' ' || s.ptr[i] == '\t')) i++;
  return i;
}

static ec_error_code split_lines(ec_arena *a, ec_str s, ec_sr_lines *out) {
  if (!s.len) { out->items = NULL; out->n = 0; return EC_OK; }
  return ec_sr_split(a, s, out);
}

/* A failed part: recorded as an error with its block number. */
static ec_error_code part_fail(roo_run *r, size_t bi, const roo_block *b, ec_error_code code, ec_str msg, ec_ws_file *f) {
  ec_fail(r->ctx, code, "%.*s", (int)msg.len, msg.ptr ? msg.ptr : "the block could not be applied");
  ec_error *e = ec_last_error(r->ctx);
  if (e) {
    e->block = (int32_t)bi + 1;
    e->line = b->line;
    e->path = f->path;
  }
  return code;
}

static ec_error_code roo_peer(ec_ctx *ctx, ec_ws_file *f, ec_str text) {
  ec_arena *a = ctx->arena;
  ec_sr_lines dl;
  if (ec_sr_split(a, text, &dl)) return ec_fail_oom(ctx);
  ec_error_code rc = roo_validate(ctx, &dl);
  if (rc) { ec_last_error(ctx)->path = f->path; return rc; }
  roo_block *bl;
  size_t nb;
  if ((rc = roo_parse(ctx, text, &bl, &nb))) return rc == EC_OUT_OF_MEMORY ? ec_fail(ctx, rc, "out of memory") : rc;
  if (!nb)
    return ec_fail(ctx, EC_MALFORMED_EDIT, "Invalid diff format - missing required sections\n\nDebug Info:\n- Expected Format: "
                   "<<<<<<< SEARCH\\n:start_line: start line\\n-------\\n[search content]\\n=======\\n[replace content]\\n>>>>>>> REPLACE\n"
                   "- Tip: Make sure to include start_line/SEARCH/=======/REPLACE sections with correct markers on new lines");
  if (!f->exists)
    return ec_fail(ctx, EC_NOT_FOUND, "File does not exist at path: %.*s", (int)f->path.len, f->path.ptr);
  ec_doc *doc;
  if ((rc = ec_ws_doc(ctx, f, &doc))) return rc;

  roo_run r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  const ec_peer_options *po = &ctx->req->edit.peer;
  r.threshold = po->has_roo_fuzzy_threshold ? po->roo_fuzzy_threshold : 1.0;
  r.buffer = po->roo_buffer_lines > 0 ? po->roo_buffer_lines : 40;
  r.max_work = ctx->opt.limits.fuzzy_work ? ctx->opt.limits.fuzzy_work : 200000000ULL;
  ec_sr_lines fl;
  if (ec_sr_split(a, ec_str_make(doc->text, doc->len), &fl)) return ec_fail_oom(ctx);
  r.lines = fl.items;
  r.n = r.cap = fl.n;

  /* stable sort by start line */
  size_t *order = ec_arena_alloc(a, nb * sizeof *order);
  if (!order) return ec_fail_oom(ctx);
  for (size_t i = 0; i < nb; i++) {
    size_t j = i;
    while (j > 0 && bl[order[j - 1]].start_line > bl[i].start_line) { order[j] = order[j - 1]; j--; }
    order[j] = i;
  }
  int64_t delta = 0;
  size_t applied = 0;
  ec_error_code last_fail = EC_OK;
  for (size_t oi = 0; oi < nb; oi++) {
    size_t bi = order[oi];
    const roo_block *b = &bl[bi];
    int64_t start = b->start_line + (b->start_line == 0 ? 0 : delta);
    ec_str search = unescape_markers(a, b->search), replace = unescape_markers(a, b->replace);
    bool sn = every_line_numbered(a, search);
    bool all = (sn && every_line_numbered(a, replace)) || (sn && ec_sr_trim(replace).len == 0);
    if (all && start == 0) {
      ec_str first = search;
      const char *bar = memchr(first.ptr, '|', first.len);
      ec_str num = ec_sr_trim(ec_str_make(first.ptr, bar ? (size_t)(bar - first.ptr) : first.len));
      int64_t v = 0;
      for (size_t i = 0; i < num.len && num.ptr[i] >= '0' && num.ptr[i] <= '9'; i++) v = v * 10 + (num.ptr[i] - '0');
      start = v;
    }
    if (all) {
      search = strip_numbers(a, search, false);
      replace = strip_numbers(a, replace, false);
    }
    if (ec_str_eq(search, replace)) {
      last_fail = part_fail(&r, bi, b, EC_NOOP, ec_cstr("Search and replace content are identical - no changes would be made\n\n"
          "Debug Info:\n- Search and replace must be different to make changes\n- Use read_file to verify the content you want to change"), f);
      continue;
    }
    ec_sr_lines sl, rl;
    if (split_lines(a, search, &sl) || split_lines(a, replace, &rl)) return ec_fail_oom(ctx);
    if (!sl.n) {
      last_fail = part_fail(&r, bi, b, EC_MALFORMED_EDIT, ec_cstr("Empty search content is not allowed\n\nDebug Info:\n- Search content "
          "cannot be empty\n- For insertions, provide a specific line using :start_line: and include content to search for\n- For "
          "example, match a single line to insert before/after it"), f);
      continue;
    }
    int64_t end_line = b->start_line + (int64_t)sl.n - 1;
    int64_t match = -1;
    double best = 0;
    int64_t s0 = 0, e0 = (int64_t)r.n;
    size_t m = sl.n;
    bool sp = false;
    r.srch.n = 0;
    if (!norm_append(a, &r.srch, search, &sp)) return ec_fail_oom(ctx);
    if (start) {
      int64_t xs = start - 1;
      double v = 0;
      if (xs >= 0) {
        rc = score_at(&r, xs, m, -1, &v);
        if (rc) goto work_fail;
      }
      if (v >= r.threshold && xs >= 0) { match = xs; best = v; }
      else {
        s0 = start - (r.buffer + 1) > 0 ? start - (r.buffer + 1) : 0;
        e0 = start + (int64_t)m + r.buffer < (int64_t)r.n ? start + (int64_t)m + r.buffer : (int64_t)r.n;
      }
    }
    if (match == -1) {
      rc = fuzzy_search(&r, m, s0, e0, &best, &match);
      if (rc) goto work_fail;
    }
    if (match == -1 || best < r.threshold) {
      ec_str as = strip_numbers(a, search, true), ar = strip_numbers(a, replace, true);
      bool found = false;
      if (!ec_str_eq(as, search)) {
        ec_sr_lines asl;
        if (split_lines(a, as, &asl)) return ec_fail_oom(ctx);
        r.srch.n = 0;
        sp = false;
        if (!norm_append(a, &r.srch, as, &sp)) return ec_fail_oom(ctx);
        double b2;
        int64_t i2;
        rc = fuzzy_search(&r, asl.n ? asl.n : 1, s0, e0, &b2, &i2);
        if (rc) goto work_fail;
        if (i2 != -1 && b2 >= r.threshold) {
          found = true;
          match = i2;
          best = b2;
          search = as;
          replace = ar;
          sl = asl;
          if (split_lines(a, replace, &rl)) return ec_fail_oom(ctx);
        }
      }
      if (!found) {
        ec_buf mb;
        ec_buf_init(&mb, ec_arena_allocator(a));
        int pct = (int)(best * 100), need = (int)(r.threshold * 100);
        ec_buf_printf(&mb, "No sufficiently similar match found");
        if (start) ec_buf_printf(&mb, " at line: %lld", (long long)start);
        ec_buf_printf(&mb, " (%d%% similar, needs %d%%)\n\nDebug Info:\n- Similarity Score: %d%%\n- Required Threshold: %d%%\n- Search Range: ",
                      pct, need, pct, need);
        if (start) ec_buf_printf(&mb, "starting at line %lld", (long long)start);
        else ec_buf_append_cstr(&mb, "start to end");
        ec_buf_append_cstr(&mb, "\n- Tried both standard and aggressive line number stripping\n- Tip: Use the read_file tool to get the "
                           "latest content of the file before attempting to use the apply_diff tool again, as the file content may have changed\n\nSearch Content:\n");
        ec_buf_append_str(&mb, search);
        ec_buf_append_cstr(&mb, "\n\nBest Match Found:\n");
        if (match >= 0 && best > 0) add_numbered(&mb, r.lines, (size_t)match, (size_t)match + m < r.n ? (size_t)match + m : r.n, (size_t)match + 1);
        else ec_buf_append_cstr(&mb, "(no match)");
        int64_t os = start - 1 - r.buffer, oe = end_line + r.buffer;
        if (os < 0) os = 0;
        if (oe > (int64_t)r.n) oe = (int64_t)r.n;
        ec_buf_append_cstr(&mb, "\n\nOriginal Content:\n");
        if (oe > os) add_numbered(&mb, r.lines, (size_t)os, (size_t)oe, start - r.buffer > 1 ? (size_t)(start - r.buffer) : 1);
        ec_str msg = ec_buf_finish(&mb, a);
        last_fail = part_fail(&r, bi, b, EC_NO_MATCH, msg, f);
        continue;
      }
    }
    /* replace lines [match, match + m) with the re-indented replacement */
    size_t ms = (size_t)match, me = ms + sl.n < r.n ? ms + sl.n : r.n;
    ec_str matched_indent = ms < r.n ? ec_str_make(r.lines[ms].ptr, indent_len(r.lines[ms])) : ec_str_make("", 0);
    size_t base = indent_len(sl.items[0]);
    size_t nn = r.n - (me - ms) + rl.n;
    ec_str *nl = ec_arena_alloc(a, (nn ? nn : 1) * sizeof *nl);
    if (!nl) return ec_fail_oom(ctx);
    memcpy(nl, r.lines, ms * sizeof *nl);
    for (size_t j = 0; j < rl.n; j++) {
      ec_str line = rl.items[j];
      size_t cur = indent_len(line);
      ec_buf lb;
      ec_buf_init(&lb, ec_arena_allocator(a));
      if (cur < base) {
        size_t cut = base - cur;
        ec_buf_append(&lb, matched_indent.ptr, matched_indent.len > cut ? matched_indent.len - cut : 0);
      } else {
        ec_buf_append_str(&lb, matched_indent);
        ec_buf_append(&lb, line.ptr + base, cur - base);
      }
      ec_buf_append_str(&lb, ec_sr_trim(line));
      nl[ms + j] = ec_buf_finish(&lb, a);
      if (!nl[ms + j].ptr) nl[ms + j] = ec_str_make("", 0);
    }
    memcpy(nl + ms + rl.n, r.lines + me, (r.n - me) * sizeof *nl);
    r.lines = nl;
    r.n = nn;
    delta = delta - (int64_t)(me - ms) + (int64_t)rl.n;
    applied++;
    if (ec_ws_add_match(ctx, f, (uint32_t)ms + 1, (uint32_t)(me > ms ? me : ms + 1), best >= 1.0 ? EC_STRATEGY_EXACT : EC_STRATEGY_FUZZY, best))
      return EC_OUT_OF_MEMORY;
    continue;
  work_fail:
    if (rc == EC_OUT_OF_MEMORY) return ec_fail(ctx, rc, "out of memory");
    ec_fail(ctx, EC_TOO_LARGE, "block %zu: fuzzy matching would take more than options.limits.fuzzy_work (%llu) comparisons; "
            "give a :start_line: hint or a shorter SEARCH section", bi + 1, (unsigned long long)r.max_work);
    ec_last_error(ctx)->block = (int32_t)bi + 1;
    return EC_TOO_LARGE;
  }
  if (!applied) return last_fail;
  ec_buf ob;
  ec_buf_init(&ob, ec_arena_allocator(a));
  for (size_t i = 0; i < r.n; i++) {
    if (i) ec_buf_append_char(&ob, '\n');
    ec_buf_append_str(&ob, r.lines[i]);
  }
  ec_str out = ec_buf_finish(&ob, a);
  if (!out.ptr) out = ec_str_make("", 0);
  if ((rc = ec_sr_set_text(ctx, f, out))) return rc;
  f->replacements = (uint32_t)applied;
  if (last_fail) {
    ctx->partial = true;
    return last_fail;
  }
  return EC_OK;
}

ec_error_code ec_dialect_roo(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  ec_str text;
  ec_ws_file *f = ec_dialect_input(ctx, &text);
  if (!f) return ec_last_error(ctx)->code;
  if (ctx->req->profile == EC_PROFILE_ROO && !e->parse_only) return roo_peer(ctx, f, text);
  /* editcore (and other profiles): Roo's grammar, strict application */
  ec_sr_lines dl;
  if (ec_sr_split(ctx->arena, text, &dl)) return ec_fail_oom(ctx);
  ec_error_code rc = roo_validate(ctx, &dl);
  if (rc) { ec_last_error(ctx)->path = f->path; return rc; }
  roo_block *bl;
  size_t nb;
  if ((rc = roo_parse(ctx, text, &bl, &nb))) return rc == EC_OUT_OF_MEMORY ? ec_fail(ctx, rc, "out of memory") : rc;
  ec_sr_block *blocks = ec_arena_calloc(ctx->arena, nb ? nb : 1, sizeof *blocks);
  if (!blocks) return ec_fail_oom(ctx);
  for (size_t i = 0; i < nb; i++) {
    ec_str s = unescape_markers(ctx->arena, bl[i].search), r = unescape_markers(ctx->arena, bl[i].replace);
    blocks[i].search = s.len ? ec_arena_printf(ctx->arena, "%.*s\n", (int)s.len, s.ptr) : s;
    blocks[i].replace = r.len ? ec_arena_printf(ctx->arena, "%.*s\n", (int)r.len, r.ptr) : r;
    if ((s.len && !blocks[i].search.ptr) || (r.len && !blocks[i].replace.ptr)) return ec_fail_oom(ctx);
    blocks[i].line = bl[i].line;
    blocks[i].complete = true;
    blocks[i].start_hint = bl[i].start_line;
  }
  if (e->parse_only) return ec_sr_emit_blocks(ctx, f->path, blocks, nb);
  return ec_sr_apply_strict(ctx, f, blocks, nb);
}
