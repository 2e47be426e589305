/*
 * Format `codex_patch`: OpenAI Codex's `*** Begin Patch` (parse/codex_patch_parse.h), its
 * hunks applied in order through the workspace. Each chunk is located by formats/codex_locate.h
 * (Codex's sequence search, forward from the previous chunk); this file turns the located runs
 * into the new file, the Codex way or the editcore way, and handles Add, Delete and Move.
 *
 * Profile `codex` reproduces apply_patch 0.169: first match wins at each level; a pure addition
 * goes to the end of the file whatever its @@ context; changed lines are written as the patch
 * has them with the file's first line ending, context lines keep the file's text; the result
 * always ends with a newline; Add File and Move to overwrite; a hunk that fails leaves the earlier
 * hunks applied (status partial) — and the quirks: a move onto its own path deletes the file,
 * a UTF-8 BOM is part of line 1, a file that is not UTF-8 cannot be updated.
 *
 * Profile `editcore` applies all or nothing and refuses to guess: a chunk whose lines match more
 * than one place (at a loose level, or exactly with no @@ context to place it) is AMBIGUOUS; a
 * pure addition under an @@ context goes right after that context line; lines matched with
 * different indentation get the file's indentation on the added lines too (or a refusal when the
 * difference is not uniform); Add File onto an existing file and Move onto an existing path are
 * FILE_EXISTS; line endings, BOM and a missing final newline are kept (SPEC §2). Every failing
 * hunk is reported (error.block = hunk number, error.line = its line in the patch).
 */
#include "formats.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "codex_locate.h"
#include "../text/encoding.h"
#include <stdlib.h>
#include <string.h>


/* Section - workspace paths (moves are kept as moved_to until another hunk names either path) */

static size_t file_index(ec_ctx *ctx, const ec_ws_file *f) { return (size_t)(f - ctx->files); }

static ec_error_code materialize(ec_ctx *ctx, size_t gi) {
  ec_str dest = ctx->files[gi].moved_to;
  ec_ws_file *d = ec_ws_get(ctx, dest);
  if (!d) return ec_fail_oom(ctx);
  ec_ws_file *g = &ctx->files[gi];
  ec_doc doc = g->doc;
  g->moved_to.ptr = NULL;
  g->moved_to.len = 0;
  ec_ws_delete(ctx, g);
  ec_ws_set(ctx, d, &doc);
  return EC_OK;
}

/* The workspace entry for path after settling pending moves that involve it (NULL if none). */
static ec_error_code lookup(ec_ctx *ctx, ec_str path, bool create, ec_ws_file **out) {
  *out = NULL;
  if (!path.len) return EC_OK;
  for (size_t i = 0; i < ctx->n_files; i++) {
    ec_ws_file *g = &ctx->files[i];
    if (g->moved_to.len && (ec_str_eq(g->moved_to, path) || ec_str_eq(g->path, path))) {
      ec_error_code rc = materialize(ctx, i);
      if (rc) return rc;
    }
  }
  *out = create ? ec_ws_get(ctx, path) : ec_ws_find(ctx, path);
  if (create && !*out) return ec_fail_oom(ctx);
  return EC_OK;
}

/* A file of the request with the same base name, for "did you mean". */
static ec_str similar_path(ec_ctx *ctx, ec_str path) {
  ec_str none = {NULL, 0};
  const char *slash = NULL;
  for (size_t i = path.len; i-- > 0;) if (path.ptr[i] == '/') { slash = path.ptr + i; break; }
  ec_str base = slash ? ec_str_make(slash + 1, path.len - (size_t)(slash + 1 - path.ptr)) : path;
  for (size_t i = 0; i < ctx->n_files; i++) {
    ec_ws_file *g = &ctx->files[i];
    if (!g->exists || g->moved_to.len || ec_str_eq(g->path, path)) continue;
    ec_str p = g->path;
    if (p.len >= base.len && memcmp(p.ptr + p.len - base.len, base.ptr, base.len) == 0 &&
        (p.len == base.len || p.ptr[p.len - base.len - 1] == '/'))
      return p;
  }
  return none;
}

/* Section - Codex output: its line model on the file's bytes */

typedef struct raw_line {
  ec_str text;
  uint8_t ending;            /* 0 none, 1 LF, 2 CRLF, 3 CR */
} raw_line;

/* Rust's Utf8Error text for the first invalid sequence, or NULL ptr when s is valid UTF-8. */
static ec_str utf8_error(ec_arena *a, ec_str s) {
  size_t i = ec_utf8_first_invalid(s);
  if (i == s.len) return ec_str_make(NULL, 0);
  const unsigned char *p = (const unsigned char *)s.ptr;
  unsigned c = p[i];
  size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  for (size_t k = 1; k < need; k++) {
    if (i + k >= s.len) return ec_arena_printf(a, "incomplete utf-8 byte sequence from index %zu", i);
    unsigned d = p[i + k];
    bool ok = (d & 0xC0) == 0x80;
    if (k == 1) {
      if (c == 0xE0) ok = d >= 0xA0 && d <= 0xBF;
      else if (c == 0xED) ok = d >= 0x80 && d <= 0x9F;
      else if (c == 0xF0) ok = d >= 0x90 && d <= 0xBF;
      else if (c == 0xF4) ok = d >= 0x80 && d <= 0x8F;
    }
    if (!ok) return ec_arena_printf(a, "invalid utf-8 sequence of %zu bytes from index %zu", k, i);
  }
  return ec_arena_printf(a, "invalid utf-8 sequence of 1 bytes from index %zu", i); /* a lead byte that starts nothing */
}

static ec_error_code update_codex(ec_cp_locator *st, ec_str *out) {
  ec_ctx *ctx = st->ctx;
  ec_arena *a = ctx->arena;
  ec_ws_file *f = st->f;
  ec_str bytes = f->loaded ? ec_doc_render(a, &f->doc) : f->original;
  if (!bytes.ptr && bytes.len) return ec_fail_oom(ctx);
  ec_str bad = utf8_error(a, bytes);
  if (bad.ptr) {
    /* Codex reads the file as UTF-8 and stops here; the code says why (no NUL byte is involved). */
    ec_error_code rc = ec_fail(ctx, EC_ENCODING, "Failed to read file to update %.*s: %.*s", (int)st->path.len, st->path.ptr,
                               (int)bad.len, bad.ptr);
    ec_cp_where(ctx, st->path, st->hunk, st->h->line);
    return rc;
  }
  /* Codex 0.169 ends a line at LF, CRLF or a lone CR; each line keeps its own ending. */
  bool any_cr = bytes.len && memchr(bytes.ptr, '\r', bytes.len); /* without CR, memchr finds every end */
  size_t n = 0;
  if (!any_cr) n = ec_count_lf(bytes.ptr, bytes.len);
  for (size_t i = 0; any_cr && i < bytes.len; i++)
    n += bytes.ptr[i] == '\n' || (bytes.ptr[i] == '\r' && (i + 1 == bytes.len || bytes.ptr[i + 1] != '\n'));
  if (bytes.len && bytes.ptr[bytes.len - 1] != '\n' && bytes.ptr[bytes.len - 1] != '\r') n++;
  raw_line *L = ec_arena_alloc(a, (n + 1) * sizeof *L);
  ec_str *texts = ec_arena_alloc(a, (n + 1) * sizeof *texts);
  if (!L || !texts) return ec_fail_oom(ctx);
  size_t at = 0;
  uint8_t preferred = 0;
  for (size_t i = 0; i < n; i++) {
    size_t e = at;
    if (!any_cr) {
      const char *nl = memchr(bytes.ptr + at, '\n', bytes.len - at);
      e = nl ? (size_t)(nl - bytes.ptr) : bytes.len;
    }
    while (e < bytes.len && bytes.ptr[e] != '\n' && bytes.ptr[e] != '\r') e++;
    L[i].text = ec_str_make(bytes.ptr + at, e - at);
    if (e == bytes.len) { L[i].ending = 0; at = e; }
    else if (bytes.ptr[e] == '\n') { L[i].ending = 1; at = e + 1; }
    else if (e + 1 < bytes.len && bytes.ptr[e + 1] == '\n') { L[i].ending = 2; at = e + 2; }
    else { L[i].ending = 3; at = e + 1; }
    if (!preferred && L[i].ending) preferred = L[i].ending;
    texts[i] = L[i].text;
  }
  if (!preferred) preferred = 1;
  st->lines = texts;
  st->n = n;
  ec_seek_init(&st->seek, a, texts, n, EC_CP_SEEK_BUDGET);
  ec_error_code rc = ec_cp_locate(st);
  if (rc) return rc;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  /* room for the whole output at once: the file, every new line and its ending (no doubling) */
  size_t room = bytes.len + 2 * n + 2;
  for (size_t r = 0; r < st->n_runs; r++)
    for (size_t k = 0; k < st->runs[r].n_new; k++) room += st->runs[r].new_lines[k].len + 2;
  ec_buf_reserve(&b, room);
  const char *eol[4] = {"", "\n", "\r\n", "\r"};
  size_t src = 0;
  bool exhausted = false;
  for (size_t r = 0; r < st->n_runs; r++) {
    const ec_cp_run *run = &st->runs[r];
    /* Codex copies start - src lines; a start before src wraps around and copies them all. */
    size_t upto = run->start < src || exhausted ? n : run->start;
    for (; src < upto && src < n; src++) {
      ec_buf_append_str(&b, L[src].text);
      ec_buf_append_cstr(&b, eol[L[src].ending ? L[src].ending : preferred]);
    }
    if (upto == n) exhausted = true;
    for (size_t k = 0; k < run->n_new; k++) {
      ec_buf_append_str(&b, run->new_lines[k]);
      ec_buf_append_cstr(&b, eol[preferred]);
    }
    if (!exhausted) src = run->start + run->old_len;
  }
  for (; src < n; src++) {
    ec_buf_append_str(&b, L[src].text);
    ec_buf_append_cstr(&b, eol[L[src].ending ? L[src].ending : preferred]);
  }
  *out = ec_buf_finish(&b, a);
  ec_arena_release(a, L); /* the line tables served only this hunk: a large file's go back now */
  ec_arena_release(a, texts);
  if (!out->ptr) return ec_fail_oom(ctx);
  return EC_OK;
}

/* Section - editcore output: splices on the workspace doc */

static ec_error_code update_editcore(ec_cp_locator *st, ec_doc *next) {
  ec_ctx *ctx = st->ctx;
  ec_arena *a = ctx->arena;
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, st->f, &doc);
  if (rc) { ec_cp_where(ctx, st->path, st->hunk, st->h->line); return rc; }
  size_t n = doc->n_lf;
  bool unterminated = doc->len && doc->text[doc->len - 1] != '\n';
  if (unterminated) n++;
  ec_str *texts = ec_arena_alloc(a, (n + 1) * sizeof *texts);
  size_t *starts = ec_arena_alloc(a, (n + 1) * sizeof *starts);
  if (!texts || !starts) return ec_fail_oom(ctx);
  size_t at = 0;
  for (size_t i = 0; i < n; i++) {
    const char *nl = memchr(doc->text + at, '\n', doc->len - at);
    size_t len = nl ? (size_t)(nl - (doc->text + at)) : doc->len - at;
    starts[i] = at;
    texts[i] = ec_str_make(doc->text + at, len);
    at += len + 1;
  }
  starts[n] = doc->len;
  st->lines = texts;
  st->n = n;
  ec_seek_init(&st->seek, a, texts, n, EC_CP_SEEK_BUDGET);
  rc = ec_cp_locate(st);
  if (rc) return rc;
  ec_splice *sp = ec_arena_alloc(a, (st->n_runs + 1) * sizeof *sp);
  if (!sp) return ec_fail_oom(ctx);
  size_t ns = 0, last_end = 0;
  for (size_t r = 0; r < st->n_runs; r++) {
    const ec_cp_run *run = &st->runs[r];
    size_t s = starts[run->start], e = starts[run->start + run->old_len];
    bool at_end = run->start + run->old_len == n;
    ec_str text;
    if (unterminated && at_end && run->old_len) {
      /* the run replaces the unterminated last line: keep it unterminated */
      text = ec_cp_join_lines(a, run->new_lines, run->n_new, false);
      if (!run->n_new && s > 0 && s - 1 >= last_end) s--;
    } else if (unterminated && at_end && !run->old_len) {
      ec_buf b;
      ec_buf_init(&b, ec_arena_allocator(a));
      for (size_t k = 0; k < run->n_new; k++) {
        ec_buf_append_char(&b, '\n');
        ec_buf_append_str(&b, run->new_lines[k]);
      }
      text = ec_buf_finish(&b, a);
    } else {
      text = ec_cp_join_lines(a, run->new_lines, run->n_new, true);
    }
    if (!text.ptr) return ec_fail_oom(ctx);
    sp[ns].start = s;
    sp[ns].end = e;
    sp[ns].text = text;
    ns++;
    last_end = e;
  }
  if (ec_doc_splice(a, doc, sp, ns, next)) return ec_fail_oom(ctx);
  ec_arena_release(a, texts); /* served only this hunk */
  ec_arena_release(a, starts);
  return EC_OK;
}

/* Section - hunks */

static ec_error_code do_update(ec_ctx *ctx, const ec_cp_hunk *h, size_t hi, bool codex) {
  ec_ws_file *f;
  ec_error_code rc = lookup(ctx, h->path, false, &f);
  if (rc) return rc;
  if (!f || !f->exists) {
    if (codex) {
      rc = ec_fail(ctx, EC_NOT_FOUND, "Failed to read file to update %.*s: No such file or directory (os error 2)", (int)h->path.len, h->path.ptr);
    } else {
      ec_str sim = similar_path(ctx, h->path);
      rc = ec_fail(ctx, EC_NOT_FOUND, "hunk %zu: '*** Update File: %.*s' names a file that does not exist%s%.*s%s. Nothing was changed. "
                   "To create it use '*** Add File: %.*s' with '+' lines.",
                   hi + 1, (int)h->path.len, h->path.ptr, sim.len ? " (did you mean '" : "", (int)sim.len, sim.ptr ? sim.ptr : "",
                   sim.len ? "'?)" : "", (int)h->path.len, h->path.ptr);
    }
    ec_cp_where(ctx, h->path, hi, h->line);
    return rc;
  }
  size_t fi = file_index(ctx, f);
  if (!codex && h->move_to.len && !ec_str_eq(h->move_to, h->path)) {
    ec_ws_file *d = ec_ws_find(ctx, h->move_to);
    if (d && d->exists) {
      rc = ec_fail(ctx, EC_FILE_EXISTS, "hunk %zu: '*** Move to: %.*s' would overwrite an existing file. Nothing was changed. Delete it first "
                   "with '*** Delete File: %.*s', or move to another path.",
                   hi + 1, (int)h->move_to.len, h->move_to.ptr, (int)h->move_to.len, h->move_to.ptr);
      ec_cp_where(ctx, h->path, hi, h->line);
      return rc;
    }
  }
  ec_cp_locator st;
  memset(&st, 0, sizeof st);
  st.ctx = ctx;
  st.codex = codex;
  st.hunk = hi;
  st.h = h;
  st.f = f;
  st.path = h->path;
  ec_doc next;
  if (codex) {
    ec_str out;
    rc = update_codex(&st, &out);
    if (rc) return rc;
    ec_error_code lrc = ec_doc_load(ctx->arena, out, &next);
    ec_arena_release(ctx->arena, (void *)out.ptr); /* the doc holds its own copy */
    if (lrc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
    if (lrc) {
      rc = ec_fail(ctx, EC_BINARY_FILE, "the new content of '%.*s' holds NUL bytes", (int)h->path.len, h->path.ptr);
      ec_cp_where(ctx, h->path, hi, h->line);
      return rc;
    }
  } else {
    rc = update_editcore(&st, &next);
    if (rc) return rc;
  }
  f = &ctx->files[fi];
  f->replacements += (uint32_t)h->n_chunks;
  if (!h->move_to.len) {
    ec_ws_replace_doc(ctx, f, &next);
    return EC_OK;
  }
  if (ec_str_eq(h->move_to, h->path)) {
    ec_ws_set(ctx, f, &next);
    if (codex) ec_ws_delete(ctx, f); /* Codex writes the destination, then removes the source: the file is gone */
    return EC_OK;
  }
  ec_ws_file *d;
  rc = lookup(ctx, h->move_to, false, &d);
  if (rc) return rc;
  f = &ctx->files[fi];
  if (!d) {
    ec_ws_set(ctx, f, &next);
    f->moved_to = h->move_to;
    return EC_OK;
  }
  size_t di = file_index(ctx, d);
  ec_ws_delete(ctx, &ctx->files[fi]);
  ec_ws_set(ctx, &ctx->files[di], &next);
  return EC_OK;
}

static ec_error_code do_hunk(ec_ctx *ctx, const ec_cp_hunk *h, size_t hi, bool codex) {
  ec_ws_file *f;
  ec_error_code rc;
  if (h->op == EC_CP_UPDATE) return do_update(ctx, h, hi, codex);
  if (h->op == EC_CP_DELETE) {
    rc = lookup(ctx, h->path, false, &f);
    if (rc) return rc;
    if (!f || !f->exists) {
      if (codex) rc = ec_fail(ctx, EC_NOT_FOUND, "Failed to delete file %.*s", (int)h->path.len, h->path.ptr);
      else {
        ec_str sim = similar_path(ctx, h->path);
        rc = ec_fail(ctx, EC_NOT_FOUND, "hunk %zu: '*** Delete File: %.*s' names a file that does not exist%s%.*s%s. Nothing was changed.",
                     hi + 1, (int)h->path.len, h->path.ptr, sim.len ? " (did you mean '" : "", (int)sim.len, sim.ptr ? sim.ptr : "",
                     sim.len ? "'?)" : "");
      }
      ec_cp_where(ctx, h->path, hi, h->line);
      return rc;
    }
    ec_ws_delete(ctx, f);
    return EC_OK;
  }
  rc = lookup(ctx, h->path, true, &f);
  if (rc) return rc;
  if (!codex && f->exists) {
    rc = ec_fail(ctx, EC_FILE_EXISTS, "hunk %zu: '*** Add File: %.*s' names a file that already exists. Nothing was changed. To change it "
                 "use '*** Update File: %.*s' with @@ chunks; to replace it whole, delete it first with '*** Delete File: %.*s'.",
                 hi + 1, (int)h->path.len, h->path.ptr, (int)h->path.len, h->path.ptr, (int)h->path.len, h->path.ptr);
    ec_cp_where(ctx, h->path, hi, h->line);
    return rc;
  }
  rc = ec_ws_set_bytes(ctx, f, h->content);
  if (rc) ec_cp_where(ctx, h->path, hi, h->line);
  else f->replacements = 1;
  return rc;
}

static bool names(const ec_cp_hunk *h, ec_str path) {
  return ec_str_eq(h->path, path) || (h->move_to.len && ec_str_eq(h->move_to, path));
}

ec_error_code ec_format_codex_patch(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  bool codex = ctx->req->profile == EC_PROFILE_CODEX;
  if (ec_str_has_nul(e->text))
    return ec_fail(ctx, EC_INVALID_PARAM, "edit.text must be text: it may not hold NUL bytes");
  ec_cp_patch patch;
  ec_cp_parse_error perr;
  ec_error_code rc = ec_cp_parse(ctx->arena, e->text, !codex, &patch, &perr);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) {
    rc = ec_fail(ctx, EC_MALFORMED_EDIT, "%.*s", (int)perr.message.len, perr.message.ptr);
    ec_error *er = ec_last_error(ctx);
    if (er) er->line = perr.line;
    return rc;
  }
  if (!patch.n_hunks) {
    if (codex) return ec_fail(ctx, EC_NOOP, "No files were modified.");
    return ec_fail(ctx, EC_NOOP, "The patch holds no hunks, so nothing was changed. Put '*** Update File: <path>' (or Add/Delete File) "
                                 "hunks between '*** Begin Patch' and '*** End Patch'.");
  }
  if (patch.n_hunks > ctx->opt.limits.max_blocks)
    return ec_fail(ctx, EC_TOO_LARGE, "the patch holds %zu hunks; the limit (options.limits.max_blocks) is %u", patch.n_hunks,
                   (unsigned)ctx->opt.limits.max_blocks);
  if (codex) {
    for (size_t i = 0; i < patch.n_hunks; i++) {
      rc = do_hunk(ctx, &patch.hunks[i], i, true);
      if (rc == EC_OUT_OF_MEMORY) return rc;
      if (rc) {
        ctx->partial = i > 0; /* Codex leaves the hunks before the failing one applied */
        return rc;
      }
    }
    return EC_OK;
  }
  /* editcore: all or nothing; report every failing hunk, skipping later hunks on a failed file. */
  size_t n_failed = 0;
  ec_error_code first_rc = EC_OK;
  size_t *failed = ec_arena_alloc(ctx->arena, (patch.n_hunks + 1) * sizeof *failed);
  if (!failed) return ec_fail_oom(ctx);
  for (size_t i = 0; i < patch.n_hunks; i++) {
    const ec_cp_hunk *h = &patch.hunks[i];
    bool skip = false;
    for (size_t k = 0; k < n_failed && !skip; k++) {
      const ec_cp_hunk *g = &patch.hunks[failed[k]];
      skip = names(h, g->path) || (g->move_to.len && names(h, g->move_to));
    }
    if (skip) continue;
    rc = do_hunk(ctx, h, i, false);
    if (rc == EC_OUT_OF_MEMORY || rc == EC_TOO_LARGE) return rc;
    if (rc) {
      if (!n_failed) first_rc = rc;
      failed[n_failed++] = i;
    }
  }
  if (n_failed) {
    if (patch.n_hunks > 1 && ctx->res->n_errors) {
      ec_buf b;
      ec_buf_init(&b, ec_arena_allocator(ctx->arena));
      ec_error *first = &ctx->res->errors[0];
      ec_buf_append_str(&b, first->message);
      ec_buf_printf(&b, " (%zu of %zu hunks failed: hunk", n_failed, patch.n_hunks);
      if (n_failed > 1) ec_buf_append_char(&b, 's');
      for (size_t k = 0; k < n_failed && k < 20; k++) ec_buf_printf(&b, "%s %zu", k ? "," : "", failed[k] + 1);
      if (n_failed > 20) ec_buf_append_cstr(&b, ", ...");
      ec_buf_append_cstr(&b, "; the others would apply. Resend the whole patch with the failing hunks fixed.)");
      ec_str msg = ec_buf_finish(&b, ctx->arena);
      if (msg.ptr) first->message = msg;
    }
    return first_rc;
  }
  bool changed = false;
  for (size_t i = 0; i < ctx->n_files && !changed; i++) {
    ec_ws_file *f = &ctx->files[i];
    if (!f->touched) continue;
    if (f->existed != f->exists || f->moved_to.len) { changed = true; break; }
    if (!f->exists) continue;
    ec_str now = ec_doc_render(ctx->arena, &f->doc);
    if (!now.ptr) return ec_fail_oom(ctx);
    changed = !ec_str_eq(now, f->original);
  }
  if (!changed)
    return ec_fail(ctx, EC_NOOP, "The patch changes nothing: every file would stay as it is (its '+' lines equal its '-' lines). "
                                 "Nothing was changed.");
  return EC_OK;
}
