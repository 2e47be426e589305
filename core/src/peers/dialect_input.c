/*
 * What every search_replace dialect reads first (cline/, roo/): edit.text as text (no NUL byte),
 * the target file, and the text with its line ends normalised to LF.
 */
#include "peers.h"
#include "../request/ctx.h"
#include "../base/str.h"

ec_ws_file *ec_dialect_input(ec_ctx *ctx, ec_str *text) {
  const ec_edit *e = &ctx->req->edit;
  if (ec_str_has_nul(e->text)) {
    ec_fail(ctx, EC_INVALID_PARAM, "edit.text must be text: it may not hold NUL bytes");
    return NULL;
  }
  ec_ws_file *f = ec_format_target(ctx);
  if (!f) return NULL;
  *text = ec_text_normalize_eol(ctx->arena, e->text);
  if (!text->ptr && e->text.len) {
    ec_fail_oom(ctx);
    return NULL;
  }
  if (!text->ptr) *text = ec_str_make("", 0);
  return f;
}
