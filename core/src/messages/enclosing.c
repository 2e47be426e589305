/*
 * Where a place is, said in the code's own terms (issue 32): "lines 40-44, in 'def mean(xs):'
 * (lines 38-52)". A NO_MATCH candidate or an AMBIGUOUS place is easier for a model to tell apart
 * by the function or class around it than by line numbers alone. The file is parsed once per
 * message (only when one is written, never on success), with its language's definition node
 * types (syntax/languages.c); a language without a grammar or without definitions adds nothing.
 */
#include "enclosing.h"
#include "../syntax/syntax.h"
#include "../base/buf.h"
#include "../base/str.h"

bool ec_enclosing_load(ec_ctx *ctx, ec_ws_file *f, ec_enclosing *out) {
  memset(out, 0, sizeof *out);
  if (ctx->opt.syntax == EC_SYNTAX_OFF) return false;
  ec_str name;
  const ec_syn_lang *lang = ec_syn_lang_for(f->path, ctx->req->edit.language, &name);
  if (!lang || !*lang->def_types) return false;
  ec_doc *doc;
  if (ec_ws_doc(ctx, f, &doc)) return false;
  ec_syn_status st;
  out->text = ec_str_make(doc->text, doc->len);
  if (!ec_ws_syntax_afford(ctx, doc->len)) return false;
  if (ec_syn_scan(ctx->arena, lang, out->text, NULL, true, &st, &out->side, NULL) || st != EC_SYN_SCANNED || out->side.stopped)
    return false;
  out->ok = out->side.n_defs > 0;
  return out->ok;
}

ec_str ec_enclosing_of(ec_ctx *ctx, const ec_enclosing *e, uint32_t first, uint32_t last) {
  if (!e->ok) return ec_str_make("", 0);
  return ec_syn_enclosing(ctx->arena, e->text, &e->side, first, last);
}
