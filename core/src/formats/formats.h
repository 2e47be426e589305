/*
 * One entry point per edit format (SPEC §3). Each edits files only through the workspace of
 * ctx (request/ctx.h) and returns EC_OK to have its changes committed, or the error code it
 * recorded. A peer profile that applies blocks independently sets ctx->partial to commit what
 * did apply alongside its errors.
 */
#ifndef EC_FORMATS_FORMATS_H
#define EC_FORMATS_FORMATS_H
#include "../request/ctx.h"

ec_error_code ec_format_replace(ec_ctx *ctx);
ec_error_code ec_format_whole_file(ec_ctx *ctx);
ec_error_code ec_format_insert(ec_ctx *ctx);
ec_error_code ec_format_search_replace(ec_ctx *ctx);
ec_error_code ec_format_unified_diff(ec_ctx *ctx);
ec_error_code ec_format_codex_patch(ec_ctx *ctx);
ec_error_code ec_format_lazy(ec_ctx *ctx);
/** Checks `result` (the whole new text of file f) as a merge of the lazy `snippet` into f, by the
 * lazy merge's own self-check (lazy/verify.c): EC_OK, or a decline recorded on ctx naming the
 * segment, the line and the place. For tests, and for merges made elsewhere. */
ec_error_code ec_lz_check_merge(ec_ctx *ctx, ec_ws_file *f, ec_str snippet, ec_str result);

#endif
