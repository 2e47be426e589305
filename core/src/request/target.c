#include "ctx.h"

ec_ws_file *ec_format_target(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  if (e->path.len) {
    ec_ws_file *f = ec_ws_get(ctx, e->path);
    if (!f) ec_fail_oom(ctx);
    return f;
  }
  if (ctx->req->n_files == 1) return &ctx->files[0];
  ec_fail(ctx, EC_INVALID_PARAM, "edit.path is required when files holds %zu entries", ctx->req->n_files);
  return NULL;
}
