/* Aider's Coder state for one reply: disk, chat files, fence, confirmations (see aider_coder.h). */
#include "aider_coder.h"
#include "../../base/str.h"

static int path_cmp(ec_str a, ec_str b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
  if (c) return c;
  return a.len < b.len ? -1 : a.len > b.len;
}

ec_aider_file *ec_aider_file_at(ec_aider_coder *c, ec_str path) {
  size_t at;
  if (ec_strmap_get(&c->index, path, &at)) return &c->files[at];
  if (!EC_ARENA_RESERVE(c->arena, c->files, c->n_files, c->cap_files, 8)) return NULL;
  if (!ec_strmap_put(&c->index, path, c->n_files)) return NULL;
  ec_aider_file *f = &c->files[c->n_files++];
  memset(f, 0, sizeof *f);
  f->path = path;
  ec_ws_file *w = ec_ws_find(c->ctx, path);
  if (w && w->exists) {
    f->exists = true;
    f->text = ec_py_universal_newlines(c->arena, w->original);
    if (!f->text.ptr && w->original.len) return NULL;
  }
  return f;
}

/* The first place in the sorted chat whose name is not below path. */
static size_t chat_lower_bound(const ec_aider_coder *c, ec_str path) {
  size_t lo = 0, hi = c->chat.n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (path_cmp(c->chat.items[mid], path) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

bool ec_aider_in_chat(const ec_aider_coder *c, ec_str path) {
  size_t i = chat_lower_bound(c, path);
  return i < c->chat.n && !path_cmp(c->chat.items[i], path);
}

ec_error_code ec_aider_chat_add(ec_aider_coder *c, ec_str path) {
  size_t i = chat_lower_bound(c, path);
  if (i < c->chat.n && !path_cmp(c->chat.items[i], path)) return EC_OK;
  if (ec_py_list_push(c->arena, &c->chat, path)) return EC_OUT_OF_MEMORY;
  memmove(c->chat.items + i + 1, c->chat.items + i, (c->chat.n - 1 - i) * sizeof *c->chat.items);
  c->chat.items[i] = path;
  return EC_OK;
}

static const char *const FENCES[][2] = {
    {"```", "```"}, {"````", "````"}, {"<source>", "</source>"}, {"<code>", "</code>"},
    {"<pre>", "</pre>"}, {"<codeblock>", "</codeblock>"}, {"<sourcecode>", "</sourcecode>"},
};

/* Coder.choose_fence: the first pair no line of a chat file starts with. */
static ec_error_code choose_fence(ec_aider_coder *c) {
  ec_py_list lines = {0};
  for (size_t i = 0; i < c->chat.n; i++) {
    ec_aider_file *f = ec_aider_file_at(c, c->chat.items[i]);
    if (!f) return EC_OUT_OF_MEMORY;
    if (f->exists && ec_py_splitlines(c->arena, f->text, false, &lines)) return EC_OUT_OF_MEMORY;
  }
  size_t nf = sizeof FENCES / sizeof FENCES[0];
  for (size_t k = 0; k < nf; k++) {
    ec_str o = ec_cstr(FENCES[k][0]), cl = ec_cstr(FENCES[k][1]);
    bool bad = false;
    for (size_t i = 0; i < lines.n && !bad; i++)
      bad = ec_py_startswith(lines.items[i], o) || ec_py_startswith(lines.items[i], cl);
    if (!bad) {
      c->fence[0] = o;
      c->fence[1] = cl;
      return EC_OK;
    }
  }
  c->fence[0] = ec_cstr(FENCES[0][0]);
  c->fence[1] = ec_cstr(FENCES[0][1]);
  return EC_OK;
}

ec_error_code ec_aider_coder_init(ec_aider_coder *c, ec_ctx *ctx) {
  memset(c, 0, sizeof *c);
  c->ctx = ctx;
  c->arena = ctx->arena;
  ec_strmap_init(&c->index, c->arena);
  const ec_peer_options *po = &ctx->req->edit.peer;
  c->dry_run = po->dry_run;
  c->confirm = po->confirm;
  if (po->has_chat_files) {
    for (size_t i = 0; i < po->n_chat_files; i++)
      if (po->chat_files[i].len && ec_aider_chat_add(c, po->chat_files[i])) return EC_OUT_OF_MEMORY;
  } else {
    for (size_t i = 0; i < ctx->req->n_files; i++)
      if (ec_aider_chat_add(c, ctx->req->files[i].path)) return EC_OUT_OF_MEMORY;
  }
  if (po->fence_open.len || po->fence_close.len) {
    c->fence[0] = po->fence_open;
    c->fence[1] = po->fence_close;
    return EC_OK;
  }
  return choose_fence(c);
}

ec_error_code ec_aider_write(ec_aider_coder *c, ec_aider_file *f, ec_str text) {
  if (c->dry_run) return EC_OK;
  /* the previous version, if this request wrote it, is nobody's now: hand a large one back */
  if (f->written && f->text.ptr && f->text.ptr != text.ptr) ec_arena_release(c->arena, (void *)f->text.ptr);
  if (!f->written) f->seq = c->next_seq++;
  f->exists = true;
  f->text = text;
  f->written = true;
  f->replacements++;
  return EC_OK;
}

ec_error_code ec_aider_allowed_to_edit(ec_aider_coder *c, ec_str path, bool *allowed) {
  *allowed = false;
  if (ec_aider_in_chat(c, path)) { *allowed = true; return EC_OK; }
  ec_aider_file *f = ec_aider_file_at(c, path);
  if (!f) return EC_OUT_OF_MEMORY;
  if (!c->confirm) return EC_OK; /* "Create new file?" / "Allow edits to file ...?" answered no */
  if (!f->exists && !c->dry_run) { /* touch */
    if (!f->written) f->seq = c->next_seq++;
    f->exists = true;
    f->text = ec_str_make("", 0);
    f->written = true;
  }
  if (ec_aider_chat_add(c, path)) return EC_OUT_OF_MEMORY;
  *allowed = true;
  return EC_OK;
}

ec_error_code ec_aider_flush(ec_aider_coder *c, size_t *n_written) {
  *n_written = 0;
  for (uint32_t seq = 0; seq < c->next_seq; seq++) { /* in the order Aider wrote them */
    ec_aider_file *f = NULL;
    for (size_t i = 0; i < c->n_files && !f; i++)
      if (c->files[i].written && c->files[i].seq == seq) f = &c->files[i];
    if (!f) continue;
    ec_ws_file *w = ec_ws_get(c->ctx, f->path);
    if (!w) return ec_fail_oom(c->ctx);
    ec_error_code rc = ec_ws_set_bytes(c->ctx, w, f->text);
    if (rc) {
      ec_last_error(c->ctx)->path = f->path;
      return rc;
    }
    if (f->replacements) w->replacements = f->replacements;
    (*n_written)++;
  }
  return EC_OK;
}

ec_error_code ec_aider_fail(ec_aider_coder *c, ec_error_code code, ec_str path, int32_t block, ec_str message) {
  ec_fail(c->ctx, code, "%.*s", (int)message.len, message.ptr ? message.ptr : "");
  ec_error *e = ec_last_error(c->ctx);
  if (e) {
    e->path = path;
    e->block = block;
  }
  return code;
}
