/*
 * Format `reply` in the aider profile. Aider reads a model's raw reply itself, with the coder of
 * the edit format the session uses (editblock, udiff, whole), and that code is already here
 * (peers/aider/): the reply is handed whole to the matching format in the aider profile,
 * so it behaves as Aider does (names resolved against the chat files, blocks applied one by one,
 * what applied kept when a later block fails). With dialect "auto" the editcore detector picks
 * the coder, and a reply that mixes dialects is refused (an Aider session reads one format).
 * parse_only is Aider's block parser (SEARCH/REPLACE only).
 */
#include "reply.h"
#include "../formats/formats.h"
#include "../base/str.h"

static ec_error_code unsupported(ec_ctx *ctx, const char *what) {
  return ec_fail(ctx, EC_INVALID_PARAM, "profile 'aider' does not read %s: send the reply in profile 'editcore'", what);
}

ec_error_code ec_rp_aider(ec_ctx *ctx, ec_rp_mode mode) {
  const ec_request *req = ctx->req;
  ec_rp_scan scan;
  memset(&scan, 0, sizeof scan);
  bool scanned = false;
  if (mode == EC_RP_AUTO || req->edit.parse_only) {
    size_t errors = ctx->res->n_errors;
    ec_error_code rc = ec_rp_detect(ctx, EC_RP_AUTO, &scan);
    if (rc && mode == EC_RP_AUTO) return rc;
    if (rc) ctx->res->n_errors = errors; /* with an explicit dialect Aider's own parser decides */
    scanned = !rc;
  }
  if (mode == EC_RP_AUTO) {
    ec_format d = scan.regions[0].dialect;
    for (size_t i = 1; i < scan.n_regions; i++)
      if (scan.regions[i].dialect != d)
        return ec_fail(ctx, EC_MALFORMED_EDIT, "the reply holds more than one kind of edit (line %zu and line %zu); Aider reads one "
                       "edit format per reply: send edit.dialect, or the reply in profile 'editcore'",
                       scan.regions[0].first + 1, scan.regions[i].first + 1);
    mode = d == EC_FORMAT_SEARCH_REPLACE ? EC_RP_ONLY_SEARCH_REPLACE : d == EC_FORMAT_UNIFIED_DIFF ? EC_RP_ONLY_UNIFIED_DIFF
                                                                                                    : EC_RP_ONLY_CODEX_PATCH;
  }
  if (mode == EC_RP_ONLY_CODEX_PATCH) return unsupported(ctx, "Codex patches");
  if (req->edit.parse_only && mode != EC_RP_ONLY_SEARCH_REPLACE)
    return unsupported(ctx, "with parse_only anything but SEARCH/REPLACE blocks");
  ec_request sub;
  ec_request_init(&sub, mode == EC_RP_ONLY_SEARCH_REPLACE ? EC_FORMAT_SEARCH_REPLACE
                        : mode == EC_RP_ONLY_UNIFIED_DIFF ? EC_FORMAT_UNIFIED_DIFF : EC_FORMAT_WHOLE_FILE);
  sub.profile = req->profile;
  sub.files = req->files;
  sub.n_files = req->n_files;
  sub.options = req->options;
  sub.edit.peer = req->edit.peer;
  sub.edit.parse_only = req->edit.parse_only;
  sub.edit.text = req->edit.text;
  if (mode == EC_RP_ONLY_SEARCH_REPLACE) sub.edit.dialect = ec_cstr("aider");
  if (mode == EC_RP_ONLY_WHOLE_FILE) sub.edit.peer.raw_llm_text = req->edit.text;
  ctx->req = &sub;
  ec_error_code rc = mode == EC_RP_ONLY_SEARCH_REPLACE ? ec_format_search_replace(ctx)
                     : mode == EC_RP_ONLY_UNIFIED_DIFF ? ec_format_unified_diff(ctx)
                                                        : ec_format_whole_file(ctx);
  ctx->req = req;
  if (rc || !req->edit.parse_only) return rc;
  /* Aider's blocks as data.edits (their lines from the detector when it saw the same blocks). */
  ec_result *res = ctx->res;
  if (!res->n_blocks)
    return ec_fail(ctx, EC_MALFORMED_EDIT, "no edit was found in the reply: Aider's parser read no SEARCH/REPLACE block in it.");
  bool lines = scanned && scan.n_regions == res->n_blocks;
  for (size_t i = 0; i < res->n_blocks; i++) {
    ec_reply_edit *e = ec_result_add_edit(res);
    if (!e) return ec_fail_oom(ctx);
    e->dialect = EC_FORMAT_SEARCH_REPLACE;
    e->action = EC_ACTION_UPDATE;
    e->path = res->blocks[i].path;
    e->search = res->blocks[i].search;
    e->replace = res->blocks[i].replace;
    e->line = lines ? (uint32_t)scan.regions[i].first + 1 : 0;
    bool seen = false;
    for (size_t k = 0; k < res->n_paths && !seen; k++) seen = ec_str_eq(res->paths[k], e->path);
    if (!seen && e->path.len && !ec_result_add_path(res, e->path)) return ec_fail_oom(ctx);
  }
  res->has_reply = true;
  return EC_OK;
}
