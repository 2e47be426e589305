/*
 * Format whole_file in the aider profile: WholeFileCoder. With edit.options.raw_llm_text the
 * model's reply is parsed as Aider does — a fence line opens or closes a file listing; the
 * name is the line before the opening fence (`**x**`, `x:`, `` `x` ``, `# x` cleaned; a bogus
 * directory prefix dropped when the basename is in the chat), else the last `chat_file` quoted
 * in the prose, else the only chat file; the same file named twice keeps the most reliable
 * source (block > saw > chat). Without it, edit.content is written to the target.
 */
#include "../peers.h"
#include "aider_coder.h"
#include "../../base/buf.h"
#include "../../base/str.h"
#include "../../request/ctx.h"

enum { SRC_BLOCK, SRC_SAW, SRC_CHAT };

typedef struct wf_edit {
  ec_str path;
  int source;
  size_t from, to;  /* content lines [from, to) */
} wf_edit;

static ec_str clean_name(ec_str s) {
  s = ec_py_strip(s);
  s = ec_py_strip_chars(s, "*", true, true);
  s = ec_py_strip_chars(s, ":", false, true);
  s = ec_py_strip_chars(s, "`", true, true);
  s = ec_py_strip_chars(s, "#", true, false);
  return ec_py_strip(s);
}

static ec_error_code write_one(ec_aider_coder *c, ec_str path, ec_str text, bool *wrote) {
  bool allowed;
  *wrote = false;
  if (ec_aider_allowed_to_edit(c, path, &allowed)) return EC_OUT_OF_MEMORY;
  if (!allowed) return EC_OK;
  ec_aider_file *f = ec_aider_file_at(c, path);
  if (!f || ec_aider_write(c, f, text)) return EC_OUT_OF_MEMORY;
  *wrote = true;
  return EC_OK;
}

static ec_error_code finish(ec_aider_coder *c) {
  size_t n;
  return ec_aider_flush(c, &n);
}

ec_error_code ec_aider_whole_file(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  const ec_peer_options *po = &e->peer;
  ec_aider_coder c;
  if (ec_aider_coder_init(&c, ctx)) return ec_fail_oom(ctx);
  if (c.dry_run) ctx->preview = true;
  bool wrote;

  if (!po->raw_llm_text.len) {
    if (!e->has_content) return ec_fail(ctx, EC_INVALID_PARAM, "edit.content (or edit.options.raw_llm_text) is required for format 'whole_file'");
    if (ec_str_has_nul(e->content)) return ec_fail(ctx, EC_BINARY_FILE, "edit.content holds NUL bytes; editcore writes only text");
    ec_ws_file *f = ec_format_target(ctx);
    if (!f) return ec_last_error(ctx)->code;
    if (write_one(&c, f->path, e->content, &wrote)) return ec_fail_oom(ctx);
    return finish(&c);
  }
  if (ec_str_has_nul(po->raw_llm_text)) return ec_fail(ctx, EC_INVALID_PARAM, "edit.options.raw_llm_text may not hold NUL bytes");

  ec_py_list L = {0};
  if (ec_py_splitlines(ctx->arena, po->raw_llm_text, true, &L)) return ec_fail_oom(ctx);
  wf_edit *edits = ec_arena_alloc(ctx->arena, (L.n / 2 + 2) * sizeof *edits);
  if (!edits) return ec_fail_oom(ctx);
  size_t n_edits = 0;
  ec_str saw = {0, 0}, fname = {0, 0};
  bool have_saw = false, in_block = false;
  int source = SRC_BLOCK;
  size_t from = 0;
  const ec_py_list *chat = &c.chat;
  for (size_t i = 0; i < L.n; i++) {
    ec_str line = L.items[i];
    if (ec_py_startswith(line, c.fence[0]) || ec_py_startswith(line, c.fence[1])) {
      if (in_block) { /* ending an existing block */
        have_saw = false;
        wf_edit ed = {fname, source, from, i};
        edits[n_edits++] = ed;
        in_block = false;
        continue;
      }
      fname = ec_str_make("", 0);
      if (i > 0) {
        source = SRC_BLOCK;
        fname = clean_name(L.items[i - 1]);
        if (fname.len > 250) fname.len = 0; /* Aider issue #1232 */
        if (fname.len && !ec_aider_in_chat(&c, fname) && ec_aider_in_chat(&c, ec_py_basename(fname)))
          fname = ec_py_basename(fname); /* a bogus directory prefix */
      }
      if (!fname.len) {
        if (have_saw) { fname = saw; source = SRC_SAW; }
        else if (chat->n == 1) { fname = chat->items[0]; source = SRC_CHAT; }
        else {
          ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT, "No filename provided before %.*s in file listing",
                                     (int)c.fence[0].len, c.fence[0].ptr);
          ec_last_error(ctx)->line = (uint32_t)i + 1;
          return rc;
        }
      }
      in_block = true;
      from = i + 1;
    } else if (!in_block) {
      /* a `chat_file` quoted in the prose names the next listing */
      ec_str s = ec_py_strip(line);
      size_t p = 0;
      while (p < s.len) {
        size_t k;
        while (p < s.len && (k = ec_py_space_fwd(s.ptr + p, s.len - p)) != 0) p += k;
        size_t q = p;
        while (q < s.len && ec_py_space_fwd(s.ptr + q, s.len - q) == 0) q++;
        if (q == p) break;
        ec_str word = ec_py_strip_chars(ec_str_make(s.ptr + p, q - p), ".:,;!", false, true);
        for (size_t k2 = 0; k2 < chat->n; k2++) {
          ec_str cf = chat->items[k2];
          if (word.len == cf.len + 2 && word.ptr[0] == '`' && word.ptr[word.len - 1] == '`' &&
              !memcmp(word.ptr + 1, cf.ptr, cf.len)) {
            saw = cf;
            have_saw = true;
          }
        }
        p = q;
      }
    }
  }
  if (in_block && fname.len) {
    wf_edit ed = {fname, source, from, L.n};
    edits[n_edits++] = ed;
  }

  /* most reliable filename first: block, then saw, then chat; the first edit of a file wins */
  for (int src = SRC_BLOCK; src <= SRC_CHAT; src++) {
    for (size_t i = 0; i < n_edits; i++) {
      if (edits[i].source != src) continue;
      bool dup = false;
      for (size_t j = 0; j < n_edits && !dup; j++)
        if (j != i && ec_str_eq(edits[j].path, edits[i].path) &&
            (edits[j].source < src || (edits[j].source == src && j < i)))
          dup = true;
      if (dup) continue;
      ec_str text = {"", 0};
      if (edits[i].to > edits[i].from) {
        const ec_str *a = &L.items[edits[i].from], *z = &L.items[edits[i].to - 1];
        text = ec_str_make(a->ptr, (size_t)(z->ptr + z->len - a->ptr));
      }
      if (write_one(&c, edits[i].path, text, &wrote)) return ec_fail_oom(ctx);
    }
  }
  return finish(&c);
}
