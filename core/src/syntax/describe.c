/* What a report means: whether the edit broke the file, and its new errors in words (syntax.h). */
#include "syntax.h"
#include "../base/buf.h"
#include "../base/str.h"

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

bool ec_syn_breaks(const ec_syntax_report *r) {
  return r && r->checked && r->parsed_before != 0 && r->new_error_count > 0;
}
