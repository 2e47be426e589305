/* A changed file's syntax report (ec_syntax_report): parse both sides, keep the new errors, place them. */
#include "syntax.h"
#include "wire.h"
#include "../base/buf.h"
#include "../base/str.h"

/* At most this many new errors are listed in a report (new_error_count counts them all). */
#define EC_SYN_LISTED 20
/* An ERROR node's text is quoted up to this many bytes of its first line. */
#define EC_SYN_QUOTE 60

/* Section - positions: byte offsets to 1-based lines and character columns */

typedef struct cursor {
  size_t off, line_start;
  uint32_t line;
} cursor;

static void locate(ec_str t, size_t off, cursor *c, uint32_t *line, uint32_t *col) {
  if (off > t.len) off = t.len;
  if (off < c->off) { c->off = c->line_start = 0; c->line = 1; }
  for (const char *p = t.ptr + c->off, *e = t.ptr + off; p < e && (p = memchr(p, '\n', (size_t)(e - p))); p++) {
    c->line++;
    c->line_start = (size_t)(p + 1 - t.ptr);
  }
  c->off = off;
  uint32_t chars = 1;
  for (size_t i = c->line_start; i < off; i++) chars += ((unsigned char)t.ptr[i] & 0xC0) != 0x80;
  *line = c->line;
  *col = chars;
}

/* The start of an ERROR node's text: its first line, trimmed, cut on a character boundary. */
static ec_str quote(ec_str t, const ec_syn_err *e) {
  size_t s = e->start, end = e->end < t.len ? e->end : t.len;
  while (s < end && ec_is_ws(t.ptr[s], EC_WS_ASCII)) s++;
  const char *lf = s < end ? memchr(t.ptr + s, '\n', end - s) : NULL;
  if (lf) end = (size_t)(lf - t.ptr);
  while (end > s && ec_is_ws(t.ptr[end - 1], EC_WS_ASCII)) end--;
  if (end - s > EC_SYN_QUOTE) {
    end = s + EC_SYN_QUOTE;
    while (end > s && ((unsigned char)t.ptr[end] & 0xC0) == 0x80) end--;
  }
  return ec_str_make(t.ptr + s, end - s);
}

/* Section - C and C++ preprocessor conditionals
 *
 * tree-sitter reads C and C++ with the preprocessor's conditionals in the tree, each branch as if
 * compiled, so code that balances its brackets across branches parses as broken though no
 * compiler sees an error: the `#ifdef __cplusplus / extern "C" { / #endif ... #ifdef __cplusplus /
 * } / #endif` guard of C headers is the common case (2 of 220 real C/C++ file edits of whole
 * commits, both that guard, read as new errors without this rule; BENCHMARKS.md "Syntax"). So in
 * those languages, when the file's brackets balance as a whole but not between two conditional
 * directives (#if, #ifdef, #ifndef, #elif, #else, #endif), an error whose lines hold such a
 * directive is not counted as new: the check says nothing there rather than blame a good edit.
 * A bracket dropped or doubled leaves the whole file unbalanced and still counts, guard or not. */

/* Whether every kind of bracket balances over the whole text but not over some stretch between
 * two directive lines (`at`: their offsets). Comments, strings and character literals are
 * skipped, roughly as C's lexer does. */
static bool split_across_conditionals(ec_str t, const size_t *at, size_t n) {
  long whole[3] = {0, 0, 0}, part[3] = {0, 0, 0};
  bool split = false;
  size_t next = 0;
  for (size_t i = 0; i < t.len; i++) {
    if (next < n && i == at[next]) {
      split |= part[0] || part[1] || part[2];
      part[0] = part[1] = part[2] = 0;
      next++;
    }
    char c = t.ptr[i];
    if (c == '/' && i + 1 < t.len && t.ptr[i + 1] == '/') {
      while (i + 1 < t.len && t.ptr[i + 1] != '\n') i++;
    } else if (c == '/' && i + 1 < t.len && t.ptr[i + 1] == '*') {
      for (i += 2; i + 1 < t.len && !(t.ptr[i] == '*' && t.ptr[i + 1] == '/'); i++) {}
      i++;
    } else if (c == '"' || c == '\'') {
      for (i++; i < t.len && t.ptr[i] != c && t.ptr[i] != '\n'; i++) if (t.ptr[i] == '\\') i++;
    } else {
      int k = c == '{' || c == '}' ? 0 : c == '(' || c == ')' ? 1 : c == '[' || c == ']' ? 2 : -1;
      if (k >= 0) {
        int d = c == '{' || c == '(' || c == '[' ? 1 : -1;
        whole[k] += d;
        part[k] += d;
      }
    }
  }
  split |= part[0] || part[1] || part[2];
  return split && !whole[0] && !whole[1] && !whole[2];
}

/* Offsets of the lines that are conditional directives, in order; their count in *n. */
static size_t *directive_lines(ec_arena *a, ec_str t, size_t *n) {
  size_t cap = 16, k = 0;
  size_t *at = ec_arena_alloc(a, cap * sizeof *at);
  for (size_t i = 0; at && i < t.len;) {
    size_t j = i;
    while (j < t.len && (t.ptr[j] == ' ' || t.ptr[j] == '\t')) j++;
    if (j < t.len && t.ptr[j] == '#') {
      j++;
      while (j < t.len && (t.ptr[j] == ' ' || t.ptr[j] == '\t')) j++;
      ec_str w = ec_str_make(t.ptr + j, t.len - j);
      if (ec_str_starts_with(w, "if") || ec_str_starts_with(w, "el") || ec_str_starts_with(w, "endif")) {
        if (k == cap) { at = ec_arena_grow(a, at, cap * sizeof *at, 2 * cap * sizeof *at); cap *= 2; }
        if (at) at[k++] = i;
      }
    }
    const char *lf = memchr(t.ptr + i, '\n', t.len - i);
    i = lf ? (size_t)(lf - t.ptr) + 1 : t.len;
  }
  *n = k;
  return at;
}

/* Whether a directive line starts within the lines of [start, end]. */
static bool spans_directive(ec_str t, const size_t *at, size_t n, uint32_t start, uint32_t end) {
  size_t from = start;
  while (from > 0 && t.ptr[from - 1] != '\n') from--;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (at[mid] < from) lo = mid + 1; else hi = mid;
  }
  return lo < n && at[lo] <= end;
}

/* Section - the report */

static ec_syntax_report *unchecked(ec_arena *a, ec_str name, const char *why) {
  ec_syntax_report *r = ec_arena_calloc(a, 1, sizeof *r);
  if (!r) return NULL;
  r->language = name;
  r->skipped = ec_cstr(why);
  r->parsed_before = r->parsed_after = -1;
  return r;
}

ec_error_code ec_syn_report(ec_arena *a, const ec_syn_lang *lang, ec_str name, const ec_str *before, ec_str after,
                            ec_syntax_report **out) {
  *out = NULL;
  if (!lang) {
    /* Unknown: "unknown" for a path no language claims; a name given without a grammar says so. */
    *out = unchecked(a, name, ec_str_eq_cstr(name, "unknown") ? "" : "editcore has no grammar by that name");
    return *out ? EC_OK : EC_OUT_OF_MEMORY;
  }
  ec_syn_status st;
  ec_syn_side sb, sa;
  ec_error_code rc = before ? ec_syn_scan(a, lang, *before, &after, false, &st, &sb, &sa)
                            : ec_syn_scan(a, lang, after, NULL, false, &st, &sa, NULL);
  if (rc) return rc;
  const char *why = st == EC_SYN_UNAVAILABLE ? "no grammar for the language is available here"
                  : st == EC_SYN_TOO_LARGE  ? "a side is larger than 16 MiB, past the syntax check's limit"
                  : (before && sb.stopped) || sa.stopped ? "the parse ran past its work budget (docs/syntax.md)"
                  : NULL;
  if (why) {
    *out = unchecked(a, name, why);
    return *out ? EC_OK : EC_OUT_OF_MEMORY;
  }
  ec_syntax_report *r = unchecked(a, name, "");
  bool *fresh = ec_arena_calloc(a, sa.n_errors + 1, sizeof *fresh);
  ec_syntax_error *list = ec_arena_calloc(a, EC_SYN_LISTED, sizeof *list);
  if (!r || !fresh || !list) return EC_OUT_OF_MEMORY;
  r->checked = true;
  r->parsed_before = before ? sb.total == 0 : -1;
  r->parsed_after = sa.total == 0;
  r->errors_before = before ? sb.total : 0;
  r->errors_after = sa.total;
  size_t n_fresh = ec_syn_new_errors(before ? *before : ec_str_make("", 0), before ? &sb : NULL, after, &sa, fresh);
  if (lang->preprocessor && n_fresh) {
    size_t nd = 0;
    const size_t *dl = directive_lines(a, after, &nd);
    if (!dl) return EC_OUT_OF_MEMORY;
    for (size_t i = 0; i < sa.n_errors && nd && split_across_conditionals(after, dl, nd); i++)
      if (fresh[i] && spans_directive(after, dl, nd, sa.errors[i].start, sa.errors[i].end)) { fresh[i] = false; n_fresh--; }
  }
  /* Errors past the listed ones (a side with more than EC_SYN_WIRE_MAX_ERRORS) are matched by count. */
  uint32_t unlisted_after = sa.total - (uint32_t)sa.n_errors, unlisted_before = before ? sb.total - (uint32_t)sb.n_errors : 0;
  r->new_error_count = (uint32_t)n_fresh + (unlisted_after > unlisted_before ? unlisted_after - unlisted_before : 0);
  cursor c = {0, 0, 1};
  for (size_t i = 0; i < sa.n_errors && r->n_new_errors < EC_SYN_LISTED; i++) {
    if (!fresh[i]) continue;
    const ec_syn_err *e = &sa.errors[i];
    ec_syntax_error *x = &list[r->n_new_errors++];
    locate(after, e->start, &c, &x->line, &x->column);
    locate(after, e->end, &c, &x->end_line, &x->end_column);
    x->missing = e->kind == EC_SYN_KIND_MISSING;
    x->text = x->missing ? e->name : quote(after, e);
  }
  r->new_errors = list;
  *out = r;
  return EC_OK;
}

bool ec_syn_breaks(const ec_syntax_report *r) {
  return r && r->checked && r->parsed_before != 0 && r->new_error_count > 0;
}

ec_str ec_syn_describe(ec_arena *a, const ec_syntax_report *r, size_t max) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  size_t shown = r->n_new_errors < max ? r->n_new_errors : max;
  for (size_t i = 0; i < shown; i++) {
    const ec_syntax_error *e = &r->new_errors[i];
    ec_buf_printf(&b, "%sline %u, column %u: ", i ? "; " : "", e->line, e->column);
    if (e->missing) ec_buf_printf(&b, "missing '%.*s'", ec_echo_len(e->text), e->text.ptr);
    else if (e->text.len) ec_buf_printf(&b, "cannot parse '%.*s%s'", ec_echo_len(e->text), e->text.ptr, ec_echo_more(e->text));
    else ec_buf_append_cstr(&b, "a syntax error");
  }
  if (r->new_error_count > shown) ec_buf_printf(&b, "%sand %u more", shown ? "; " : "", r->new_error_count - (uint32_t)shown);
  return ec_buf_finish(&b, a);
}
