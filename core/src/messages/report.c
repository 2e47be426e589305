#include "report.h"
#include "enclosing.h"
#include "../base/buf.h"
#include "../base/str.h"

#define MAX_LISTED 50

/* "3-5, 10-12 and 4 more"; with `e`, each range followed by its definition: "3-5 in 'def a():'
 * (lines 1-6)". */
static ec_str ranges(ec_ctx *ctx, ec_arena *a, const ec_found_list *l, const ec_enclosing *e) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  size_t shown = l->n < MAX_LISTED ? l->n : MAX_LISTED;
  for (size_t i = 0; i < shown; i++) {
    const ec_found *f = &l->items[i];
    if (i) ec_buf_append_cstr(&b, ", ");
    if (f->start_line == f->end_line) ec_buf_printf(&b, "%u", f->start_line);
    else ec_buf_printf(&b, "%u-%u", f->start_line, f->end_line);
    ec_str def = e ? ec_enclosing_of(ctx, e, f->start_line, f->end_line) : ec_str_make("", 0);
    if (def.len) ec_buf_printf(&b, " in %.*s", (int)def.len, def.ptr);
  }
  if (l->total > shown) ec_buf_printf(&b, " and %zu more", l->total - shown);
  return ec_buf_finish(&b, a);
}

ec_str ec_report_line_ranges(ec_arena *a, const ec_found_list *l) { return ranges(NULL, a, l, NULL); }

/* " The nearest places are in: lines 40-44, in 'def mean(xs):' (lines 38-52); ..." for the first
 * candidates that lie inside a definition; "" when none does (or the language has no grammar). */
static ec_str candidates_in_defs(ec_ctx *ctx, ec_ws_file *f, const ec_candidate *c, size_t n) {
  ec_enclosing e;
  if (!n || !ec_enclosing_load(ctx, f, &e)) return ec_str_make("", 0);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  size_t named = 0;
  for (size_t i = 0; i < n && i < 3; i++) {
    ec_str def = ec_enclosing_of(ctx, &e, c[i].start_line, c[i].end_line);
    if (!def.len) continue;
    ec_buf_append_cstr(&b, named++ ? "; " : (n == 1 ? " The nearest place is " : " The nearest places are: "));
    if (c[i].start_line == c[i].end_line) ec_buf_printf(&b, "line %u", c[i].start_line);
    else ec_buf_printf(&b, "lines %u-%u", c[i].start_line, c[i].end_line);
    ec_buf_printf(&b, ", in %.*s", (int)def.len, def.ptr);
  }
  if (named) ec_buf_append_char(&b, '.');
  return ec_buf_finish(&b, ctx->arena);
}

ec_error_code ec_report_no_match(ec_ctx *ctx, ec_match_env *env, ec_ws_file *f, const char *what, ec_str old_text) {
  ec_diagnosis d;
  ec_error_code rc = ec_diagnose_no_match(env, old_text, &d);
  if (rc) return ec_fail(ctx, rc, "out of memory");
  ec_str where = candidates_in_defs(ctx, f, d.candidates, d.n_candidates);
  ec_fail(ctx, EC_NO_MATCH, "%s was not found in '%.*s'; nothing was changed. %.*s%s%.*s", what, (int)f->path.len, f->path.ptr,
          (int)d.detail.len, d.detail.ptr ? d.detail.ptr : "",
          d.detail.len ? "" : "Read the file again and copy the text to replace exactly as it is there, including whitespace and indentation.",
          (int)where.len, where.ptr ? where.ptr : "");
  ec_error *e = ec_last_error(ctx);
  if (e) {
    e->path = f->path;
    e->candidates = d.candidates;
    e->n_candidates = d.n_candidates;
  }
  return EC_NO_MATCH;
}

/* ec_report_line_ranges with each place's definition, when the language gives definitions. */
static ec_str places_in_defs(ec_ctx *ctx, ec_ws_file *f, const ec_found_list *l) {
  ec_enclosing e;
  return ranges(ctx, ctx->arena, l, ec_enclosing_load(ctx, f, &e) ? &e : NULL);
}

ec_error_code ec_report_ambiguous(ec_ctx *ctx, ec_ws_file *f, const char *what, const ec_found_list *l,
                                  ec_strategy used) {
  ec_str lines = places_in_defs(ctx, f, l);
  ec_fail(ctx, EC_AMBIGUOUS, "%s matches %zu places in '%.*s' (%s%s, lines %.*s); nothing was changed. Include more surrounding "
          "lines so it matches exactly one place, or set replace_all to change every place.",
          what, l->total, (int)f->path.len, f->path.ptr, used == EC_STRATEGY_EXACT ? "exactly" : "with strategy ",
          used == EC_STRATEGY_EXACT ? "" : ec_strategy_name(used), (int)lines.len, lines.ptr ? lines.ptr : "");
  ec_error *e = ec_last_error(ctx);
  if (e) e->path = f->path;
  return EC_AMBIGUOUS;
}
