/*
 * The `cline` dialect: in every profile but `cline`, editcore's own strict reading of the Cline
 * markers (parse/sr_blocks.h); in the `cline` profile, Cline's own constructNewFileContent
 * (cline_peer.c), apart so the browser's editcore.wasm can leave that emulation to
 * editcore-tools.wasm with the other peers' (wasm/tools_deferred.c).
 */
#include "../peers.h"
#include "../../parse/sr_blocks.h"
#include "../../request/ctx.h"
#include "../../base/str.h"

ec_error_code ec_dialect_cline(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  ec_str text;
  ec_ws_file *f = ec_dialect_input(ctx, &text);
  if (!f) return ec_last_error(ctx)->code;
  if (ctx->req->profile == EC_PROFILE_CLINE && !e->parse_only) return ec_cline_peer(ctx, f, text);
  ec_sr_block *blocks;
  size_t n;
  ec_error_code rc = ec_sr_parse_strict(ctx, text, e->is_final, &blocks, &n);
  if (rc) {
    ec_error *er = ec_last_error(ctx);
    if (er && !er->path.len) er->path = f->path;
    return rc;
  }
  if (e->parse_only) return ec_sr_emit_blocks(ctx, f->path, blocks, n);
  if (!e->is_final) ctx->preview = true;
  return ec_sr_apply_strict(ctx, f, blocks, n);
}
