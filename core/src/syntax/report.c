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

/* Section - the report */

ec_error_code ec_syn_report(ec_arena *a, const ec_syn_lang *lang, ec_str name, const ec_str *before, ec_str after,
                            ec_syntax_report **out) {
  *out = NULL;
  if (!lang) {
    /* Unknown: "unknown" for a path no language claims; a name given without a grammar says so. */
    *out = ec_syn_skipped(a, name, ec_str_eq_cstr(name, "unknown") ? "" : "editcore has no grammar by that name");
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
    *out = ec_syn_skipped(a, name, why);
    return *out ? EC_OK : EC_OUT_OF_MEMORY;
  }
  ec_syntax_report *r = ec_syn_skipped(a, name, "");
  bool *fresh = ec_arena_calloc(a, sa.n_errors + 1, sizeof *fresh);
  ec_syntax_error *list = ec_arena_calloc(a, EC_SYN_LISTED, sizeof *list);
  if (!r || !fresh || !list) return EC_OUT_OF_MEMORY;
  r->checked = true;
  r->parsed_before = before ? sb.total == 0 : -1;
  r->parsed_after = sa.total == 0;
  r->errors_before = before ? sb.total : 0;
  r->errors_after = sa.total;
  size_t n_fresh = ec_syn_new_errors(before ? *before : ec_str_make("", 0), before ? &sb : NULL, after, &sa, fresh);
  if (lang->preprocessor && n_fresh && ec_syn_excuse_conditionals(a, after, &sa, fresh, &n_fresh)) return EC_OUT_OF_MEMORY;
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

