/*
 * Each edit found in a reply, run through the format that reads it (reply.h).
 *
 * The formats read ctx->req->edit; for each edit a request of that format is made (same files,
 * profile and options, the edit's text) and put in ctx->req while the format runs, so every edit
 * lands in the one workspace of the request: later edits see what earlier ones did, and the
 * request commits all of them or none (ec_apply commits only when every format succeeded).
 *
 * The text a format gets is the reply's lines before the edit blanked out, then the edit: the
 * parsers skip blank lines, so every line number in their errors and messages is the reply's own
 * line. (Past a budget of blank bytes a reply with very many edits gets the bare slices, and
 * error.line is shifted instead.) Consecutive SEARCH/REPLACE blocks for one file go in one text,
 * so they are matched together as the search_replace format matches a block list.
 */
#include "reply.h"
#include "../formats/formats.h"
#include "../parse/udiff_parse.h"
#include "../parse/codex_patch_parse.h"
#include "../parse/sr_blocks.h"
#include "../base/str.h"

/* Blank bytes handed out over all edits of one reply. The parsers read each blank line, so this
 * bounds the extra work (4 MiB: ~0.1 s at worst; a reply of 2,000 lines and 50 edits uses 50 KB). */
#define PAD_BUDGET ((size_t)4 << 20)

typedef struct run {
  ec_ctx *ctx;
  const ec_rp_scan *s;
  bool parse_only;
  size_t padded;        /* blank bytes used so far */
  ec_reply_edit *edits; /* parse_only */
  size_t n_edits, cap_edits;
  ec_str (*also)[4];   /* per edit: other files it may edit (the names of a diff's ---, +++ lines) */
  size_t cap_also;
} run;


/* The reply's lines [first, end) as text, each followed by LF. */
static ec_str lines_text(const ec_rp_scan *s, size_t first, size_t end) {
  if (first >= end) return ec_str_make("", 0);
  const char *a = s->lines[first].ptr, *b = s->lines[end - 1].ptr + s->lines[end - 1].len;
  return ec_str_make(a, (size_t)(b - a));
}

/*
 * The text a format gets for lines [first, end): `head` (whole lines, e.g. diff headers) placed
 * just before them, and blank lines before that so the edit keeps its line numbers. *shift is
 * what to add to a line number in the result to get the reply's.
 */
static ec_str format_text(run *r, size_t first, size_t end, ec_str head, int64_t *shift) {
  ec_str body = lines_text(r->s, first, end);
  size_t head_lines = ec_count_lf(head.ptr, head.len);
  size_t pad = first >= head_lines ? first - head_lines : 0;
  if (r->padded + pad > PAD_BUDGET) pad = 0;
  r->padded += pad;
  *shift = (int64_t)first - (int64_t)(pad + head_lines);
  size_t len = pad + head.len + body.len + 1;
  char *p = ec_arena_alloc(r->ctx->arena, len + 1);
  if (!p) return ec_str_make(NULL, 0);
  memset(p, '\n', pad);
  memcpy(p + pad, head.ptr, head.len);
  memcpy(p + pad + head.len, body.ptr, body.len);
  p[len - 1] = '\n';
  p[len] = 0;
  return ec_str_make(p, len);
}

/* format_text for SEARCH/REPLACE regions [a, b) of one file: what lies between the blocks (prose,
 * fence lines, a code example with a '=======' underline) becomes blank lines, so the block
 * parser sees the blocks alone, at their own line numbers. */
static ec_str blocks_text(run *r, size_t a, size_t b, int64_t *shift) {
  const ec_rp_region *R = r->s->regions;
  ec_str all = lines_text(r->s, R[a].first, R[b - 1].end);
  ec_str text = format_text(r, R[a].first, R[b - 1].end, ec_str_make("", 0), shift);
  if (!text.ptr || b - a < 2) return text;
  char *p = (char *)text.ptr + (text.len - all.len - 1); /* where line R[a].first starts */
  size_t line = R[a].first, k = a;
  const char *q = all.ptr, *end = all.ptr + all.len;
  while (q <= end && line < R[b - 1].end) {
    const char *nl = memchr(q, '\n', (size_t)(end - q));
    size_t len = nl ? (size_t)(nl - q) : (size_t)(end - q);
    while (k < b && R[k].end <= line) k++;
    bool keep = k < b && R[k].first <= line;
    if (keep) { memcpy(p, q, len); p += len; }
    *p++ = '\n';
    line++;
    q += len + 1;
  }
  size_t used = (size_t)(p - text.ptr);
  ((char *)text.ptr)[used] = 0;
  return ec_str_make(text.ptr, used);
}

/* A request of `format` for one edit, on the same files, profile and options. */
static void sub_request(const ec_ctx *ctx, ec_format format, ec_request *sub) {
  const ec_request *req = ctx->req;
  ec_request_init(sub, format);
  sub->profile = req->profile;
  sub->files = req->files;
  sub->n_files = req->n_files;
  sub->options = req->options;
  sub->edit.parse_only = req->edit.parse_only;
}

typedef ec_error_code (*format_fn)(ec_ctx *ctx);

/* Runs a format on `sub` inside ctx; the errors it records get the reply's line numbers. */
static ec_error_code run_format(run *r, format_fn fn, const ec_request *sub, int64_t shift, size_t at_line) {
  ec_ctx *ctx = r->ctx;
  const ec_request *saved = ctx->req;
  size_t errors_before = ctx->res->n_errors;
  ctx->req = sub;
  ec_error_code rc = fn(ctx);
  ctx->req = saved;
  for (size_t i = errors_before; i < ctx->res->n_errors; i++) {
    ec_error *e = &ctx->res->errors[i];
    int64_t line = e->line ? (int64_t)e->line + shift : (int64_t)at_line + 1;
    e->line = line > 0 ? (uint32_t)line : 1;
  }
  return rc;
}

static ec_reply_edit *new_edit(run *r, ec_format d, ec_str path, size_t line) {
  if (!EC_ARENA_RESERVE(r->ctx->arena, r->edits, r->n_edits, r->cap_edits, 8)) return NULL;
  if (!EC_ARENA_RESERVE(r->ctx->arena, r->also, r->n_edits, r->cap_also, 8)) return NULL;
  memset(r->also[r->n_edits], 0, sizeof r->also[r->n_edits]);
  ec_reply_edit *e = &r->edits[r->n_edits++];
  memset(e, 0, sizeof *e);
  e->dialect = d;
  e->path = path;
  e->line = (uint32_t)line;
  e->action = EC_ACTION_UPDATE;
  return e;
}

static ec_error_code unnamed(ec_ctx *ctx, const ec_rp_region *g, const char *what, const char *how) {
  ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT, "the %s at line %zu of the reply names no file, so it is not clear which file "
                             "it edits; nothing was changed. %s, or send the file's path as edit.path.",
                             what, g->first + 1, how);
  ec_last_error(ctx)->line = (uint32_t)g->first + 1;
  return rc;
}

static ec_str region_name(const ec_ctx *ctx, const ec_rp_region *g) {
  return g->name.len ? g->name : ec_rp_clean_path(ctx->req->edit.path);
}

/* Section - the four dialects */

/* Regions [a, b): SEARCH/REPLACE blocks for one file, in one text. */
static ec_error_code do_blocks(run *r, size_t a, size_t b) {
  ec_ctx *ctx = r->ctx;
  const ec_rp_region *g = &r->s->regions[a];
  ec_str path = region_name(ctx, g);
  if (!path.len)
    return unnamed(ctx, g, "SEARCH/REPLACE block", "Put the file's path alone on the line before the block (or before its fence)");
  int64_t shift;
  ec_str text = blocks_text(r, a, b, &shift);
  if (!text.ptr) return ec_fail_oom(ctx);
  ec_request sub;
  sub_request(ctx, EC_FORMAT_SEARCH_REPLACE, &sub);
  sub.edit.text = text;
  sub.edit.path = path;
  sub.edit.dialect = ec_cstr(g->roo ? "roo" : "cline");
  size_t blocks_before = ctx->res->n_blocks;
  ctx->reply_blocks = true; /* no-op blocks skipped, blocks in order on the evolving text (docs/reply.md §4) */
  ec_error_code rc = run_format(r, ec_format_search_replace, &sub, shift, g->first);
  ctx->reply_blocks = false;
  if (rc || !r->parse_only) return rc;
  for (size_t i = blocks_before; i < ctx->res->n_blocks; i++) {
    const ec_block *bk = &ctx->res->blocks[i];
    size_t k = a + (i - blocks_before);
    ec_reply_edit *e = new_edit(r, EC_FORMAT_SEARCH_REPLACE, path, (k < b ? r->s->regions[k].first : g->first) + 1);
    if (!e) return ec_fail_oom(ctx);
    e->search = bk->search;
    e->replace = bk->replace;
  }
  ctx->res->n_blocks = blocks_before;
  return EC_OK;
}

/* The path a diff's file part edits, by the rules of formats/unified_diff.c: ./ dropped, and git's
 * a/ b/ prefixes when the diff is git-style. */
static bool ud_gitty(const ec_ud_file *uf) {
  if (uf->exact_paths) return false;
  return uf->git || (ec_str_starts_with(uf->old_path, "a/") && (uf->new_null || ec_str_starts_with(uf->new_path, "b/"))) ||
         (uf->old_null && ec_str_starts_with(ec_ud_strip_dot(uf->new_path), "b/"));
}

static ec_str ud_path(const ec_ud_file *uf, ec_str raw) {
  ec_str s = ec_ud_strip_dot(raw);
  if (ud_gitty(uf) && (ec_str_starts_with(s, "a/") || ec_str_starts_with(s, "b/"))) s = ec_ud_strip_dot(ec_str_drop(s, 2));
  return s;
}

/* parse_only: one edit per file part of the diff. */
static ec_error_code list_diff(run *r, ec_str text, int64_t shift, ec_str fallback) {
  ec_ctx *ctx = r->ctx;
  ec_ud_patch patch;
  ec_ud_error perr;
  ec_error_code rc = ec_udiff_read(ctx, text, &patch, &perr);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) {
    rc = ec_fail(ctx, rc, "%.*s", (int)perr.message.len, perr.message.ptr);
    int64_t line = (int64_t)perr.line + shift;
    ec_last_error(ctx)->line = line > 0 ? (uint32_t)line : 1;
    return rc;
  }
  ec_sr_lines tl;
  if (ec_sr_split(ctx->arena, text, &tl)) return ec_fail_oom(ctx);
  for (size_t i = 0; i < patch.n_files; i++) {
    const ec_ud_file *uf = &patch.files[i];
    ec_str path = !uf->has_header ? fallback
                  : uf->rename_to.len ? ud_path(uf, uf->rename_from.len ? uf->rename_from : uf->old_path)
                  : !uf->old_null && uf->old_path.len ? ud_path(uf, uf->old_path) : ud_path(uf, uf->new_path);
    size_t first = uf->line ? uf->line : (uf->n_hunks ? uf->hunks[0].line : 1);
    if (!path.len) {
      rc = ec_fail(ctx, EC_MALFORMED_EDIT, "the diff's file part at line %lld of the reply names no file (both sides /dev/null, or "
                   "empty names); nothing was changed. Give it '--- a/path' and '+++ b/path' lines.", (long long)((int64_t)first + shift));
      ec_last_error(ctx)->line = (uint32_t)((int64_t)first + shift);
      return rc;
    }
    ec_reply_edit *e = new_edit(r, EC_FORMAT_UNIFIED_DIFF, path, (size_t)((int64_t)first + shift));
    if (!e) return ec_fail_oom(ctx);
    /* formats/unified_diff.c looks a name up as written, then without its a/ or b/: when the diff is
     * not git-style, a file named either way may be the one it edits. */
    if (uf->has_header) {
      ec_str *also = r->also[r->n_edits - 1];
      size_t na = 0;
      bool gitty = ud_gitty(uf);
      for (int side = 0; side < 2; side++) {
        ec_str raw = side ? uf->new_path : uf->old_path;
        if ((side ? uf->new_null : uf->old_null) || !raw.len) continue;
        ec_str s0 = ec_ud_strip_dot(raw);
        bool prefixed = ec_str_starts_with(s0, "a/") || ec_str_starts_with(s0, "b/");
        if (!gitty || !prefixed || uf->exact_paths) also[na++] = s0;
        if (prefixed && !uf->exact_paths) also[na++] = ec_ud_strip_dot(ec_str_drop(s0, 2));
      }
    }
    if (uf->old_null) e->action = EC_ACTION_ADD;
    else if (uf->new_null) e->action = EC_ACTION_DELETE;
    else if (uf->rename_to.len) { e->action = EC_ACTION_MOVE; e->moved_to = ec_ud_strip_dot(uf->rename_to); }
    /* Its lines: from its header to the next file's, trailing prose and blank lines left out. */
    size_t from = first - 1, to = i + 1 < patch.n_files && patch.files[i + 1].line ? patch.files[i + 1].line - 1 : tl.n;
    if (to > tl.n) to = tl.n;
    while (to > from + 1) {
      ec_str l = tl.items[to - 1];
      if (l.len && strchr(" +-@\\", l.ptr[0])) break;
      to--;
    }
    if (from >= to) continue;
    ec_str a = tl.items[from], b = tl.items[to - 1];
    e->text = ec_arena_printf(ctx->arena, "%.*s\n", (int)(b.ptr + b.len - a.ptr), a.ptr);
    if (!e->text.ptr) return ec_fail_oom(ctx);
  }
  return EC_OK;
}

static ec_error_code do_diff(run *r, const ec_rp_region *g) {
  ec_ctx *ctx = r->ctx;
  /* A diff without ---/+++ headers (```diff fences with bare @@ hunks): the fence names the file. */
  bool headerless = true;
  for (size_t i = g->first; i < g->end && headerless; i++) {
    ec_str l = r->s->lines[i];
    if (ec_str_starts_with(l, "--- ") || ec_str_starts_with(l, "diff --git ")) headerless = false;
    else if (ec_str_starts_with(l, "@@")) break;
  }
  ec_str head = ec_str_make("", 0), path = region_name(ctx, g);
  if (headerless) {
    if (!path.len) return unnamed(ctx, g, "diff", "Give it '--- a/path' and '+++ b/path' lines before its hunks");
    head = ec_arena_printf(ctx->arena, "--- %.*s\n+++ %.*s\n", (int)path.len, path.ptr, (int)path.len, path.ptr);
    if (!head.ptr) return ec_fail_oom(ctx);
  }
  int64_t shift;
  ec_str text = format_text(r, g->first, g->end, head, &shift);
  if (!text.ptr) return ec_fail_oom(ctx);
  if (r->parse_only) return list_diff(r, text, shift, path);
  if (!path.len) {
    /* A part without headers edits the file the reply names; with none named, parse_only cannot
     * say which file it edits, so neither may the apply (the format would take the only file given). */
    ec_ud_patch patch;
    ec_ud_error perr;
    ec_error_code prc = ec_udiff_read(ctx, text, &patch, &perr);
    if (prc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
    for (size_t i = 0; !prc && i < patch.n_files; i++)
      if (!patch.files[i].has_header) return unnamed(ctx, g, "diff", "Give it '--- a/path' and '+++ b/path' lines before its hunks");
  }
  ec_request sub;
  sub_request(ctx, EC_FORMAT_UNIFIED_DIFF, &sub);
  sub.edit.text = text;
  sub.edit.path = path; /* the file a part without headers edits (list_diff's fallback) */
  return run_format(r, ec_format_unified_diff, &sub, shift, g->first);
}

static ec_error_code do_patch(run *r, const ec_rp_region *g) {
  ec_ctx *ctx = r->ctx;
  int64_t shift;
  ec_str text = format_text(r, g->first, g->end, ec_str_make("", 0), &shift);
  if (!text.ptr) return ec_fail_oom(ctx);
  if (!r->parse_only) {
    ec_request sub;
    sub_request(ctx, EC_FORMAT_CODEX_PATCH, &sub);
    sub.edit.text = text;
    return run_format(r, ec_format_codex_patch, &sub, shift, g->first);
  }
  ec_cp_patch patch;
  ec_cp_parse_error perr;
  ec_error_code rc = ec_cp_parse(ctx->arena, text, true, &patch, &perr);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) {
    rc = ec_fail(ctx, EC_MALFORMED_EDIT, "%.*s", (int)perr.message.len, perr.message.ptr);
    int64_t line = perr.line ? (int64_t)perr.line + shift : (int64_t)g->first + 1;
    ec_last_error(ctx)->line = line > 0 ? (uint32_t)line : 1;
    return rc;
  }
  if (!patch.n_hunks) {
    rc = ec_fail(ctx, EC_NOOP, "The patch at line %zu of the reply holds no hunks, so nothing was changed. Put '*** Update File: "
                 "<path>' (or Add/Delete File) hunks between '*** Begin Patch' and '*** End Patch'.", g->first + 1);
    ec_last_error(ctx)->line = (uint32_t)g->first + 1;
    return rc;
  }
  for (size_t i = 0; i < patch.n_hunks; i++) {
    const ec_cp_hunk *h = &patch.hunks[i];
    ec_reply_edit *e = new_edit(r, EC_FORMAT_CODEX_PATCH, h->path, (size_t)((int64_t)h->line + shift));
    if (!e) return ec_fail_oom(ctx);
    e->action = h->op == EC_CP_ADD ? EC_ACTION_ADD : h->op == EC_CP_DELETE ? EC_ACTION_DELETE
                : h->move_to.len ? EC_ACTION_MOVE : EC_ACTION_UPDATE;
    e->moved_to = h->move_to;
    /* Its lines: from its header to the next hunk's (or the end of the patch). */
    size_t from = (size_t)((int64_t)h->line + shift) - 1;
    size_t to = i + 1 < patch.n_hunks ? (size_t)((int64_t)patch.hunks[i + 1].line + shift) - 1 : g->end;
    while (to > from + 1 && (ec_str_eq_cstr(ec_rp_trim(r->s->lines[to - 1]), "*** End Patch") || !ec_rp_trim(r->s->lines[to - 1]).len ||
                             ec_rp_fence_open(r->s->lines[to - 1], &(ec_rp_fence){0})))
      to--;
    if (from < to && to <= r->s->n_lines) {
      ec_str t = lines_text(r->s, from, to);
      e->text = ec_arena_printf(ctx->arena, "%.*s\n", (int)t.len, t.ptr);
      if (!e->text.ptr) return ec_fail_oom(ctx);
    }
  }
  return EC_OK;
}

static ec_error_code do_whole(run *r, const ec_rp_region *g) {
  ec_ctx *ctx = r->ctx;
  ec_str body = lines_text(r->s, g->first, g->end);
  ec_str content = g->first < g->end ? ec_arena_printf(ctx->arena, "%.*s\n", (int)body.len, body.ptr) : ec_str_make("", 0);
  if (!content.ptr) return ec_fail_oom(ctx);
  if (r->parse_only) {
    ec_reply_edit *e = new_edit(r, EC_FORMAT_WHOLE_FILE, g->name, g->first); /* the fence's line */
    if (!e) return ec_fail_oom(ctx);
    e->text = content;
    return EC_OK;
  }
  ec_request sub;
  sub_request(ctx, EC_FORMAT_WHOLE_FILE, &sub);
  sub.edit.path = g->name;
  sub.edit.content = content;
  sub.edit.has_content = true;
  return run_format(r, ec_format_whole_file, &sub, 0, g->first ? g->first - 1 : 0);
}

/* Section - the paths a host reads */

static ec_error_code add_path(run *r, ec_str p) {
  if (!p.len) return EC_OK;
  ec_result *res = r->ctx->res;
  for (size_t i = 0; i < res->n_paths; i++)
    if (ec_str_eq(res->paths[i], p)) return EC_OK;
  return ec_result_add_path(res, p) ? EC_OK : ec_fail_oom(r->ctx);
}

static ec_error_code publish(run *r) {
  ec_result *res = r->ctx->res;
  res->has_reply = true;
  res->has_blocks = false;
  for (size_t i = 0; i < r->n_edits; i++) {
    ec_reply_edit *e = ec_result_add_edit(res);
    if (!e) return ec_fail_oom(r->ctx);
    *e = r->edits[i];
    if (!e->path.len) { /* every edit names its file: a host reads it before applying */
      ec_error_code rc = ec_fail(r->ctx, EC_MALFORMED_EDIT, "the edit at line %u of the reply names no file; nothing was changed.", e->line);
      ec_last_error(r->ctx)->line = e->line;
      return rc;
    }
    ec_error_code rc = add_path(r, e->path);
    if (!rc && e->action == EC_ACTION_MOVE) rc = add_path(r, e->moved_to);
    for (int k = 0; k < 4 && !rc; k++) rc = add_path(r, r->also[i][k]);
    if (rc) return rc;
  }
  return EC_OK;
}

ec_error_code ec_rp_dispatch(ec_ctx *ctx, const ec_rp_scan *s) {
  run r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.s = s;
  r.parse_only = ctx->req->edit.parse_only;
  ec_error_code rc = EC_OK;
  /* A strip level or a reversal reads diffs (patch -pN -R): any other edit would be applied as
   * written, against what the caller asked, so the reply is refused. */
  for (size_t i = 0; i < s->n_regions && (ctx->opt.has_strip || ctx->opt.reverse); i++)
    if (s->regions[i].dialect != EC_FORMAT_UNIFIED_DIFF) {
      rc = ec_fail(ctx, EC_INVALID_PARAM, "options.%s reads unified diffs, but line %zu of the reply starts an edit of another "
                   "kind; nothing was changed. Send the diffs alone, or leave the option out.",
                   ctx->opt.reverse ? "reverse" : "strip", s->regions[i].first + 1);
      ec_last_error(ctx)->line = (uint32_t)s->regions[i].first + 1;
      return rc;
    }
  for (size_t i = 0; i < s->n_regions && !rc;) {
    const ec_rp_region *g = &s->regions[i];
    size_t next = i + 1;
    switch (g->dialect) {
      case EC_FORMAT_SEARCH_REPLACE:
        if (!g->roo) /* Roo's parser reads a text of blocks only, so its blocks go one by one */
          while (next < s->n_regions && s->regions[next].dialect == EC_FORMAT_SEARCH_REPLACE && !s->regions[next].roo &&
                 ec_str_eq(s->regions[next].name, g->name))
            next++;
        rc = do_blocks(&r, i, next);
        break;
      case EC_FORMAT_UNIFIED_DIFF: rc = do_diff(&r, g); break;
      case EC_FORMAT_CODEX_PATCH: rc = do_patch(&r, g); break;
      default: rc = do_whole(&r, g); break;
    }
    i = next;
  }
  if (rc) return rc;
  return r.parse_only ? publish(&r) : EC_OK;
}
