#include "peer_text.h"
#include "../../base/buf.h"
#include "../../base/str.h"
#include <string.h>

/* Python's str.expandtabs(): tab stops every 8 columns, the column reset by \n and \r. */
ec_str ec_peer_expandtabs(ec_arena *a, ec_str s) {
  if (!s.len || !memchr(s.ptr, '\t', s.len)) return s;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  size_t col = 0;
  for (size_t i = 0; i < s.len; i++) {
    char c = s.ptr[i];
    if (c == '\t') { size_t n = 8 - col % 8; for (size_t k = 0; k < n; k++) ec_buf_append_char(&b, ' '); col += n; continue; }
    ec_buf_append_char(&b, c);
    if (c == '\n' || c == '\r') col = 0;
    else if (((unsigned char)c & 0xC0) != 0x80) col++;
  }
  if (b.oom) { ec_buf_free(&b); ec_str none = {NULL, 0}; return none; }
  return ec_buf_finish(&b, a);
}

ec_str ec_peer_read_text(ec_arena *a, const ec_doc *doc) {
  /* Python's universal newlines: CRLF (already folded) and lone CR both read as LF. */
  ec_str t = {doc->text, doc->len};
  if (!memchr(t.ptr ? t.ptr : "", '\r', t.len)) return t;
  char *p = ec_arena_alloc(a, t.len + 1);
  if (!p) { ec_str none = {NULL, 0}; return none; }
  for (size_t i = 0; i < t.len; i++) p[i] = t.ptr[i] == '\r' ? '\n' : t.ptr[i];
  p[t.len] = 0;
  return ec_str_make(p, t.len);
}


ec_error_code ec_peer_write(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc, ec_str text) {
  if (!doc->bom) return ec_ws_set_bytes(ctx, f, text);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  ec_buf_append(&b, "\xEF\xBB\xBF", 3);
  ec_buf_append_str(&b, text);
  if (b.oom) { ec_buf_free(&b); return ec_fail_oom(ctx); }
  return ec_ws_set_bytes(ctx, f, ec_buf_finish(&b, ctx->arena));
}

