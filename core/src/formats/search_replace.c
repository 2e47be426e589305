/*
 * Format `search_replace`: SEARCH/REPLACE blocks in raw model output. The dialect comes from
 * edit.dialect, else edit.options.dialect, else the profile (cline, aider, roo; editcore reads
 * the Cline markers, which include the legacy <<<<<<< SEARCH form that Aider also uses).
 */
#include "formats.h"
#include "../base/str.h"
#include "../peers/peers.h"

ec_error_code ec_format_search_replace(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  ec_str d = e->dialect.len ? e->dialect : e->peer.dialect;
  if (!d.len) {
    switch (ctx->req->profile) {
      case EC_PROFILE_AIDER: return ec_dialect_aider(ctx);
      case EC_PROFILE_ROO: return ec_dialect_roo(ctx);
      default: return ec_dialect_cline(ctx);
    }
  }
  if (ec_str_eq_cstr(d, "cline")) return ec_dialect_cline(ctx);
  if (ec_str_eq_cstr(d, "aider")) return ec_dialect_aider(ctx);
  if (ec_str_eq_cstr(d, "roo")) return ec_dialect_roo(ctx);
  return ec_fail(ctx, EC_INVALID_PARAM, "edit.dialect must be cline, aider or roo, not '%.*s'", (int)d.len, d.ptr);
}
