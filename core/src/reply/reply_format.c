/*
 * Format `reply`: {text, dialect?, path?, parse_only?}: the text a model answered, read as an
 * edit (docs/reply.md). reply/detect.c finds the edits and their dialects; reply/dispatch.c runs
 * each through the format that reads it (search_replace, unified_diff, codex_patch, whole_file)
 * over the one workspace, so the reply applies all or nothing. parse_only lists the edits and the
 * files the reply names (data.edits, data.paths) without applying anything.
 */
#include "reply.h"
#include "../base/str.h"

ec_error_code ec_format_reply(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  if (!e->text.len) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text (the model's reply) is required for format 'reply'");
  if (ec_str_has_nul(e->text)) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text must be text: it may not hold NUL bytes");
  static const struct { const char *name; ec_rp_mode mode; } MODES[] = {
      {"", EC_RP_AUTO}, {"auto", EC_RP_AUTO}, {"search_replace", EC_RP_ONLY_SEARCH_REPLACE},
      {"unified_diff", EC_RP_ONLY_UNIFIED_DIFF}, {"codex_patch", EC_RP_ONLY_CODEX_PATCH}, {"whole_file", EC_RP_ONLY_WHOLE_FILE}};
  size_t m = 0;
  while (m < sizeof MODES / sizeof *MODES && !ec_str_eq_cstr(e->dialect, MODES[m].name)) m++;
  if (m == sizeof MODES / sizeof *MODES)
    return ec_fail(ctx, EC_INVALID_PARAM, "edit.dialect must be auto, search_replace, unified_diff, codex_patch or whole_file, not '%.*s'",
                   ec_echo_len(e->dialect), e->dialect.ptr);
  ec_rp_scan scan;
  ec_error_code rc;
  if (ctx->req->profile == EC_PROFILE_AIDER) {
    rc = ec_rp_aider(ctx, MODES[m].mode);
  } else {
    rc = ec_rp_detect(ctx, MODES[m].mode, &scan);
    if (!rc) rc = ec_rp_dispatch(ctx, &scan);
  }
  /* The search_replace format lists blocks as data.blocks under parse_only; a reply lists them as data.edits. */
  ctx->res->has_blocks = false;
  ctx->res->n_blocks = 0;
  return rc;
}
