/*
 * Format `insert`: {path?, insert_line, new_str} — insert new_str after line insert_line (0 = at
 * the top).
 *
 * editcore: lines are the file's lines (a final newline does not make an extra one), so the range
 * is [0, n]; new_str is inserted as whole lines (a missing final newline is supplied), and the
 * file keeps its line endings and its final-newline state. An empty new_str is NOOP.
 * claude / openhands: peers/claude_openhands/editor.c.
 */
#include "formats.h"
#include "../peers/claude_openhands/editor.h"
#include "../base/buf.h"
#include "../base/str.h"
#include <string.h>

static ec_error_code editcore_insert(ec_ctx *ctx, ec_ws_file *f, ec_doc *doc, int64_t k) {
  const ec_edit *e = &ctx->req->edit;
  ec_str nw = ec_text_normalize_eol(ctx->arena, e->new_str);
  if (e->new_str.len && !nw.ptr) return ec_fail_oom(ctx);
  size_t lf = 0;
  for (size_t i = 0; i < doc->len; i++) lf += doc->text[i] == '\n';
  bool final_lf = doc->len && doc->text[doc->len - 1] == '\n';
  size_t n = lf + (doc->len && !final_lf);
  if (k > (int64_t)n) {
    ec_fail(ctx, EC_INVALID_PARAM, "insert_line %lld is past the end of '%.*s', which has %zu line%s: use a number from 0 (insert at the top) to %zu (append at the end).",
            (long long)k, (int)f->path.len, f->path.ptr, n, n == 1 ? "" : "s", n);
    ec_last_error(ctx)->path = f->path;
    return EC_INVALID_PARAM;
  }
  if (!nw.len) {
    ec_fail(ctx, EC_NOOP, "new_str is empty, so inserting it changes nothing in '%.*s'.", (int)f->path.len, f->path.ptr);
    ec_last_error(ctx)->path = f->path;
    return EC_NOOP;
  }
  size_t at = 0;
  for (int64_t line = 0; line < k && at < doc->len; line++) {
    const char *nl = memchr(doc->text + at, '\n', doc->len - at);
    at = nl ? (size_t)(nl - doc->text) + 1 : doc->len;
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  bool nw_lf = nw.ptr[nw.len - 1] == '\n';
  if (at == doc->len && doc->len && !final_lf) {
    /* Appending after a last line without newline: the file keeps ending without one. */
    ec_buf_append_char(&b, '\n');
    ec_buf_append(&b, nw.ptr, nw_lf ? nw.len - 1 : nw.len);
  } else {
    ec_buf_append_str(&b, nw);
    if (!nw_lf) ec_buf_append_char(&b, '\n');
  }
  if (b.oom) { ec_buf_free(&b); return ec_fail_oom(ctx); }
  ec_splice sp = {at, at, ec_buf_finish(&b, ctx->arena)};
  if (!sp.text.ptr) return ec_fail_oom(ctx);
  ec_doc next;
  if (ec_doc_splice(ctx->arena, doc, &sp, 1, &next)) return ec_fail_oom(ctx);
  ec_ws_set(ctx, f, &next);
  f->replacements = 1;
  return EC_OK;
}

ec_error_code ec_format_insert(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  if (e->insert_line < 0) return ec_fail(ctx, EC_INVALID_PARAM, "edit.insert_line is required for format 'insert' (0 inserts at the top)");
  if (!e->has_new_str) return ec_fail(ctx, EC_INVALID_PARAM, "edit.new_str is required for format 'insert'");
  if (ec_str_has_nul(e->new_str)) return ec_fail(ctx, EC_INVALID_PARAM, "new_str must be text: it may not hold NUL bytes");
  ec_ws_file *f = ec_format_target(ctx);
  if (!f) return ec_last_error(ctx)->code;
  if (!f->exists) {
    ec_error_code rc = ctx->req->profile == EC_PROFILE_EDITCORE
        ? ec_fail(ctx, EC_NOT_FOUND, "'%.*s' does not exist; insert edits an existing file. To create it, use format 'whole_file'.", (int)f->path.len, f->path.ptr)
        : ec_fail(ctx, EC_NOT_FOUND, "The path %.*s does not exist. Please provide a valid path.", (int)f->path.len, f->path.ptr);
    ec_last_error(ctx)->path = f->path;
    return rc;
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  if (ctx->req->profile == EC_PROFILE_CLAUDE || ctx->req->profile == EC_PROFILE_OPENHANDS)
    return ec_peer_editor_insert(ctx, f, doc, e->insert_line);
  return editcore_insert(ctx, f, doc, e->insert_line);
}
