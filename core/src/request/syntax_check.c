/*
 * The syntax check of a request's changed files (docs/syntax.md): a report per file whose
 * language is known (options.syntax report/refuse, the JSON default), and the refusal of an
 * edit that breaks a file which parsed (refuse; the lazy merge always, unless off).
 */
#include "ctx.h"
#include "../syntax/syntax.h"
#include "../base/str.h"

#define PAST_BUDGET "the request's files are past what one request may parse (2 MiB; docs/syntax.md)"

bool ec_ws_syntax_afford(ec_ctx *ctx, size_t cost) {
  if (cost > EC_SYN_REQUEST_BYTES - ctx->syntax_spent) return false;
  ctx->syntax_spent += cost;
  return true;
}

ec_error_code ec_ws_syntax(ec_ctx *ctx, ec_ws_file *f, ec_str now, const ec_syntax_report **out) {
  if (f->syntax && ec_str_eq(f->syntax_of, now)) {
    *out = f->syntax;
    return EC_OK;
  }
  ec_str name;
  const ec_syn_lang *lang = ec_syn_lang_for(f->moved_to.len ? f->moved_to : f->path, ctx->req->edit.language, &name);
  ec_syntax_report *r;
  const ec_str *before = f->existed ? &f->original : NULL;
  if (lang && !ec_ws_syntax_afford(ctx, ec_syn_cost(before, now))) {
    if (!(r = ec_syn_skipped(ctx->arena, name, PAST_BUDGET))) return ec_fail_oom(ctx);
  } else if (ec_syn_report(ctx->arena, lang, name, before, now, &r)) {
    return ec_fail_oom(ctx);
  }
  f->syntax = *out = r;
  f->syntax_of = now;
  return EC_OK;
}

ec_error_code ec_fail_syntax(ec_ctx *ctx, const ec_ws_file *f, const ec_syntax_report *r, const char *what, const char *next) {
  ec_str where = ec_syn_describe(ctx->arena, r, 5);
  if (!where.ptr) return ec_fail_oom(ctx);
  ec_str path = f->moved_to.len ? f->moved_to : f->path;
  ec_fail(ctx, EC_SYNTAX_ERROR, "%s would %s '%.*s' with %u syntax error%s%s (%.*s, parsed by tree-sitter): %.*s.%s Nothing was "
          "changed. %s",
          what, f->existed ? "leave" : "create", (int)path.len, path.ptr, r->new_error_count, r->new_error_count == 1 ? "" : "s",
          f->existed ? " it did not have" : "", (int)r->language.len, r->language.ptr, (int)where.len, where.ptr,
          f->existed ? " It parsed without errors before." : "", next);
  return ec_fail_at(ctx, f, EC_SYNTAX_ERROR);
}

/* Section - on demand (editcore.h: ec_result_syntax) */

const ec_syntax_report *ec_result_syntax(ec_result *r, size_t i, const ec_request *req, const ec_host *host) {
  (void)host; /* the report lives in the result's arena, on the allocator the result was made with */
  if (!r || !req || i >= r->n_files) return NULL;
  ec_file_result *f = &r->files[i];
  if (f->syntax || !f->has_content || !f->content.ptr) return f->syntax; /* not built: nothing to parse here */
  const ec_str *before = NULL;
  for (size_t k = 0; k < req->n_files && !before; k++)
    if (ec_str_eq(req->files[k].path, f->path)) before = &req->files[k].content;
  if (f->action == EC_ACTION_ADD) before = NULL;
  ec_str name;
  const ec_syn_lang *lang = ec_syn_lang_for(f->action == EC_ACTION_MOVE ? f->moved_to : f->path, req->edit.language, &name);
  ec_syntax_report *rep = NULL;
  if (lang && ec_syn_cost(before, f->content) > EC_SYN_REQUEST_BYTES) /* asked one file at a time: the file's own cost */
    rep = ec_syn_skipped(r->arena, name, PAST_BUDGET);
  else if (ec_syn_report(r->arena, lang, name, before, f->content, &rep))
    return NULL;
  f->syntax = rep;
  return rep;
}
