/* Format `whole_file`: {path?, content}: replace or create the file. */
#include "formats.h"
#include "../base/str.h"
#include "../peers/peers.h"
#include "../lazy/lazy.h"

ec_error_code ec_format_whole_file(ec_ctx *ctx) {
  if (ctx->req->profile == EC_PROFILE_AIDER) return ec_aider_whole_file(ctx);
  const ec_edit *e = &ctx->req->edit;
  if (!e->has_content) return ec_fail(ctx, EC_INVALID_PARAM, "edit.content is required for format 'whole_file'");
  if (ec_str_has_nul(e->content)) return ec_fail(ctx, EC_BINARY_FILE, "edit.content holds NUL bytes; editcore writes only text");
  ec_ws_file *f = ec_format_target(ctx);
  if (!f) return ec_last_error(ctx)->code;
  /* Markers like `// ... existing code ...` would be written into the file and lose the code. */
  if (ctx->req->profile == EC_PROFILE_EDITCORE && ec_lz_text_has_markers(ctx->arena, e->content, f->exists ? f->original : ec_str_make(NULL, 0)))
    return ec_fail(ctx, EC_INVALID_PARAM, "edit.content holds lazy markers (lines like `// ... existing code ...`) that would be written into '%.*s' "
                   "in place of the code they stand for. Send it with format 'lazy' and edit.snippet to merge it into the file, or send "
                   "the complete content.", (int)f->path.len, f->path.ptr);
  if (!f->exists) return ec_ws_set_bytes(ctx, f, e->content);
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  /* The new text takes the file's line-ending style and BOM, like any other edit. */
  ec_str text = ec_text_normalize_eol(ctx->arena, e->content);
  if (text.len >= 3 && !memcmp(text.ptr, "\xEF\xBB\xBF", 3)) { text.ptr += 3; text.len -= 3; }
  ec_doc next;
  ec_splice sp = {0, doc->len, text};
  /* With contents as splices the request's strings live as long as the result (editcore.h), so
   * the new doc may read edit.content itself rather than a copy of it. */
  ec_error_code rc2 = ctx->opt.content_as_splices ? ec_doc_with_text(ctx->arena, doc, text, &next)
                                                  : ec_doc_splice(ctx->arena, doc, &sp, 1, &next);
  if (rc2) return ec_fail_oom(ctx);
  if (ec_str_eq(ec_str_make(next.text, next.len), ec_str_make(doc->text, doc->len)))
    return ec_fail(ctx, EC_NOOP, "the new content of '%.*s' is identical to the current one.", (int)f->path.len, f->path.ptr);
  ec_ws_set(ctx, f, &next);
  f->replacements = 1;
  return EC_OK;
}
