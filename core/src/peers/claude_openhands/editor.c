/*
 * The str_replace and insert commands of the Python editors (Claude's reference text editor,
 * OpenHands' str_replace_editor), as formats `replace` and `insert` in the claude and openhands
 * profiles: exact-only and unique, their messages and quirks (see editor.h).
 */
#define _GNU_SOURCE 1
#include "editor.h"
#include "peer_text.h"
#include "../../base/buf.h"
#include "../../base/str.h"
#include <string.h>

/* Non-overlapping occurrences of needle (Python's str.count / re.finditer); empty: every position. */
static size_t occurrences(ec_str hay, ec_str needle, size_t *first, ec_buf *lines, bool start_lines) {
  size_t n = 0;
  if (!needle.len) {
    *first = 0;
    if (lines) {
      uint32_t line = 1;
      for (size_t i = 0; i <= hay.len; i++) {
        if (!i || hay.ptr[i - 1] == '\n') ec_buf_printf(lines, "%s%u", lines->len > 1 ? ", " : "", line);
        if (i < hay.len && hay.ptr[i] == '\n') line++;
      }
    }
    return hay.len + 1;
  }
  uint32_t line = 1, last_listed = 0;
  size_t at = 0;
  for (size_t i = 0; i + needle.len <= hay.len;) {
    const char *hit = memmem(hay.ptr + i, hay.len - i, needle.ptr, needle.len);
    if (!hit) break;
    size_t pos = (size_t)(hit - hay.ptr);
    for (const char *q = hay.ptr + at; (q = memchr(q, '\n', (size_t)(hit - q))); q++) line++;
    at = pos;
    if (!n) *first = pos;
    n++;
    if (lines && start_lines && line != last_listed) {
      ec_buf_printf(lines, "%s%u", lines->len > 1 ? ", " : "", line);
      last_listed = line;
    }
    i = pos + needle.len;
  }
  return n;
}

/* Claude's list: the lines of split('\n') that contain needle. */
static void containing_lines(ec_str hay, ec_str needle, ec_buf *lines) {
  uint32_t line = 1;
  for (size_t i = 0; i <= hay.len;) {
    const char *nl = i < hay.len ? memchr(hay.ptr + i, '\n', hay.len - i) : NULL;
    size_t e = nl ? (size_t)(nl - hay.ptr) : hay.len;
    if (!needle.len || (e - i >= needle.len && memmem(hay.ptr + i, e - i, needle.ptr, needle.len)))
      ec_buf_printf(lines, "%s%u", lines->len > 1 ? ", " : "", line);
    line++;
    if (!nl) break;
    i = e + 1;
  }
}

ec_error_code ec_peer_editor_replace(ec_ctx *ctx, ec_ws_file *f) {
  const ec_edit *e = &ctx->req->edit;
  bool claude = ctx->req->profile == EC_PROFILE_CLAUDE;
  if (!f->exists) {
    ec_fail(ctx, EC_NOT_FOUND, "The path %.*s does not exist. Please provide a valid path.", (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_NOT_FOUND);
  }
  ec_str old_s = e->old_string, new_s = e->new_string;
  if (!claude && ec_str_eq(old_s, new_s)) {
    ec_fail(ctx, EC_NOOP, "Invalid `new_str` parameter: %.*s. No replacement was performed. `new_str` and `old_str` must be different.",
            (int)new_s.len, new_s.ptr ? new_s.ptr : "");
    return ec_fail_at(ctx, f, EC_NOOP);
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  ec_str text = ec_peer_read_text(ctx->arena, doc);
  if (claude) {
    text = ec_peer_expandtabs(ctx->arena, text);
    old_s = ec_peer_expandtabs(ctx->arena, old_s);
    new_s = ec_peer_expandtabs(ctx->arena, new_s);
  }
  if ((doc->len && !text.ptr) || (e->old_string.len && !old_s.ptr) || (e->new_string.len && !new_s.ptr))
    return ec_fail_oom(ctx);
  ec_buf lines;
  ec_buf_init(&lines, ec_arena_allocator(ctx->arena));
  ec_buf_append_char(&lines, '[');
  size_t first = 0;
  size_t n = occurrences(text, old_s, &first, claude ? NULL : &lines, true);
  if (!n && !claude) {
    old_s = ec_str_trim(old_s, EC_WS_PYTHON);
    new_s = ec_str_trim(new_s, EC_WS_PYTHON);
    n = occurrences(text, old_s, &first, &lines, true);
  }
  if (!n) {
    ec_buf_free(&lines);
    ec_fail(ctx, EC_NO_MATCH, "No replacement was performed, old_str `%.*s` did not appear verbatim in %.*s.", (int)old_s.len,
            old_s.ptr ? old_s.ptr : "", (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_NO_MATCH);
  }
  if (n > 1) {
    if (claude) containing_lines(text, old_s, &lines);
    ec_buf_append_char(&lines, ']');
    ec_str l = ec_buf_finish(&lines, ctx->arena);
    ec_fail(ctx, EC_AMBIGUOUS, "No replacement was performed. Multiple occurrences of old_str `%.*s` in lines %.*s. Please ensure it is unique%s",
            (int)old_s.len, old_s.ptr ? old_s.ptr : "", (int)l.len, l.ptr ? l.ptr : "[]", claude ? "" : ".");
    return ec_fail_at(ctx, f, EC_AMBIGUOUS);
  }
  ec_buf_free(&lines);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  ec_buf_append(&b, text.ptr, first);
  ec_buf_append_str(&b, new_s);
  ec_buf_append(&b, text.ptr + first + old_s.len, text.len - first - old_s.len);
  if (b.oom) { ec_buf_free(&b); return ec_fail_oom(ctx); }
  ec_str out = ec_buf_finish(&b, ctx->arena);
  if (!out.ptr) out = ec_arena_strdup(ctx->arena, "", 0);
  if ((rc = ec_peer_write(ctx, f, doc, out))) return rc;
  uint32_t start_line = 1;
  for (size_t i = 0; i < first; i++) start_line += text.ptr[i] == '\n';
  uint32_t end_line = start_line;
  for (size_t i = 0; i + 1 < old_s.len; i++) end_line += old_s.ptr[i] == '\n';
  if (ec_ws_add_match(ctx, f, start_line, end_line, EC_STRATEGY_EXACT, 1.0)) return EC_OUT_OF_MEMORY;
  f->replacements = 1;
  if (claude && !old_s.len && !text.len) {
    /* The peer wrote the file, then its snippet code raised ValueError: reported with the change. */
    ctx->partial = true;
    ec_fail(ctx, EC_INVALID_PARAM, "empty separator: the file was written, but the tool failed while building its snippet (ValueError)");
    return ec_fail_at(ctx, f, EC_INVALID_PARAM);
  }
  return EC_OK;
}

ec_error_code ec_peer_editor_insert(ec_ctx *ctx, ec_ws_file *f, ec_doc *doc, int64_t k) {
  bool claude = ctx->req->profile == EC_PROFILE_CLAUDE;
  const ec_edit *e = &ctx->req->edit;
  ec_str text = ec_peer_read_text(ctx->arena, doc);
  ec_str nw = e->new_str;
  if (claude) { text = ec_peer_expandtabs(ctx->arena, text); nw = ec_peer_expandtabs(ctx->arena, nw); }
  if ((doc->len && !text.ptr) || (e->new_str.len && !nw.ptr)) return ec_fail_oom(ctx);
  size_t lf = 0;
  for (size_t i = 0; i < text.len; i++) lf += text.ptr[i] == '\n';
  /* claude: pieces of split('\n'); openhands: lines as a file iterates them. */
  size_t n = claude ? lf + 1 : lf + (text.len && text.ptr[text.len - 1] != '\n');
  if (k > (int64_t)n) {
    ec_fail(ctx, EC_INVALID_PARAM, "Invalid `insert_line` parameter: %lld. It should be within the range of %s: [0, %zu]", (long long)k,
            claude ? "lines of the file" : "allowed values", n);
    ec_last_error(ctx)->path = f->path;
    return EC_INVALID_PARAM;
  }
  /* Offset where line k+1 starts (text.len when past the end). */
  size_t at = 0;
  for (int64_t line = 0; line < k && at < text.len; line++) {
    const char *nl = memchr(text.ptr + at, '\n', text.len - at);
    at = nl ? (size_t)(nl - text.ptr) + 1 : text.len;
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  if (claude) {
    /* Joining lines[:k] + new + lines[k:] with '\n' = the text before line k+1, new, '\n', the rest;
     * at the very end (k == n) the separator goes before new instead. */
    if ((size_t)k == n) {
      ec_buf_append_line(&b, text);
      ec_buf_append_str(&b, nw);
    } else {
      ec_buf_append(&b, text.ptr, at);
      ec_buf_append_line(&b, nw);
      ec_buf_append(&b, text.ptr + at, text.len - at);
    }
  } else {
    ec_buf_append(&b, text.ptr, at);
    for (size_t i = 0; i <= nw.len;) {
      const char *nl = i < nw.len ? memchr(nw.ptr + i, '\n', nw.len - i) : NULL;
      size_t end = nl ? (size_t)(nl - nw.ptr) : nw.len;
      ec_buf_append(&b, nw.ptr + i, end - i);
      ec_buf_append_char(&b, '\n');
      if (!nl) break;
      i = end + 1;
    }
    ec_buf_append(&b, text.ptr + at, text.len - at);
  }
  if (b.oom) { ec_buf_free(&b); return ec_fail_oom(ctx); }
  ec_str out = ec_buf_finish(&b, ctx->arena);
  if (!out.ptr) out = ec_arena_strdup(ctx->arena, "", 0);
  ec_error_code rc = ec_peer_write(ctx, f, doc, out);
  if (rc) return rc;
  f->replacements = 1;
  return EC_OK;
}
