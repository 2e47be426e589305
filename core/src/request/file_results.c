/*
 * The request's end: every touched file turned into its file result (ec_ws_commit) — content,
 * diff and undo (from the tracked changes where the change log allows, else a whole-file diff),
 * splices, and under options.syntax report/refuse the file's syntax report (syntax_check.c).
 * A room of its own above ctx.c, which the formats use while they work.
 */
#include "ctx.h"
#include "../syntax/syntax.h"
#include "../base/str.h"
#include "../diff/diff.h"
#include "../base/sort.h"
#include <stdlib.h>
#include <string.h>

/* Whether a and b hold the same n bytes: glibc's memcmp natively; a word at a time in wasm,
 * where musl's memcmp compares byte by byte. */
static bool same_bytes(const char *a, const char *b, size_t n) {
#ifndef __wasm__
  return !n || memcmp(a, b, n) == 0;
#else
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    if (x != y) return false;
  }
  for (; i < n; i++) if (a[i] != b[i]) return false;
  return true;
#endif
}

/* Moves a (normalised position, rendered byte) cursor of one doc forward to normalised position
 * `to`: every CRLF passed adds its CR. `raw` is the doc as rendered (BOM and CRs included). */
typedef struct raw_cursor {
  ec_str raw;
  size_t pos, at; /* normalised position, its byte in raw */
  size_t cr;      /* the first CR at or after `at` (raw.len: none) */
} raw_cursor;

static void next_cr(raw_cursor *c) {
  const char *cr = c->at < c->raw.len ? memchr(c->raw.ptr + c->at, '\r', c->raw.len - c->at) : NULL;
  c->cr = cr ? (size_t)(cr - c->raw.ptr) : c->raw.len;
}

static size_t raw_at(raw_cursor *c, size_t to) {
  while (c->pos < to) {
    size_t shift = c->at - c->pos, q = c->cr;
    /* bytes up to the CR map one to one; a folded CR is skipped, a lone one is text */
    if (q == c->raw.len || to <= q - shift) { c->at = to + shift; c->pos = to; break; }
    bool folded = q + 1 < c->raw.len && c->raw.ptr[q + 1] == '\n';
    c->pos = q - shift + (folded ? 0 : 1);
    c->at = q + 1;
    next_cr(c);
  }
  return c->at;
}

/* Why the log can be trusted without re-reading the files: a doc's bytes are written only by
 * core/src/text/doc.c (ec_doc_load starts untracked, ec_doc_splice carries the log with every
 * splice added, or drops it past its budget); no other code assigns a doc's text, length, line
 * endings, BOM or log (checked by scripts/check_doc_writers.sh). So outside the logged regions a
 * doc whose log descends from its file's loaded doc (`lineage`) holds the loaded bytes.
 * Rendering is the identity plus the BOM when the file had no CRLF to fold (eol LF or NONE:
 * nothing folded on load, no splice writes a CR ending since the doc is not CRLF-dominant), so
 * a region maps to the raw bytes by adding the BOM's length. With CRLFs the regions are mapped
 * through the CRs of both sides and, that mapping being the subtle part, the bytes between them
 * are still compared. */

/* Whether f's current doc is tracked from its file as loaded. */
static bool tracked(const ec_ws_file *f) {
  const ec_doc_log *log = f->doc.log;
  return f->existed && f->exists && log && f->lineage && log->root == f->lineage;
}

/* Whether rendering f's doc is its text behind the BOM, as the loaded file was (no CRLF). */
static bool plain_endings(const ec_doc *d) { return d->eol == EC_EOL_LF || d->eol == EC_EOL_NONE; }

/* Whether a tracked, plain-ended f renders as its original: every logged region's new bytes
 * equal its old ones (a splice may write what was there). Only the regions are read. */
/* The new bytes of the i-th logged region of f: read from `now`, or from `fresh` (each region's
 * new bytes) when the text is not built (now.ptr NULL: options.content_as_splices). */
static const char *region_new(const ec_ws_file *f, ec_str now, const ec_str *fresh, size_t i) {
  return now.ptr ? now.ptr + (f->doc.bom ? 3 : 0) + f->doc.log->regions[i].new_start : fresh[i].ptr;
}

static bool tracked_unchanged(const ec_ws_file *f, ec_str now, const ec_str *fresh) {
  const ec_doc_log *log = f->doc.log;
  size_t bom = f->doc.bom ? 3 : 0;
  if (now.len != f->original.len) return false;
  for (size_t i = 0; i < log->n; i++) {
    const ec_doc_region *r = &log->regions[i];
    if (r->old_end - r->old_start != r->new_end - r->new_start ||
        !same_bytes(f->original.ptr + bom + r->old_start, region_new(f, now, fresh, i), r->old_end - r->old_start))
      return false;
  }
  return true;
}

static bool all_ascii(const char *p, size_t n) {
  for (size_t i = 0; i < n; i++) if ((unsigned char)p[i] >= 0x80) return false;
  return true;
}

/* Whether a tracked, plain-ended f changed only ASCII, each change right after an ASCII byte
 * that belongs to no run (not >= 0x80, nor the 0x30-0x7E byte right after one): its runs
 * (text/encoding.h) are then the original's whatever its encoding — no run can grow into a change,
 * split or join — and the rule for files that are not UTF-8 holds without reading the file
 * through. Only the regions are read. (fuzz_encoding checks it against ec_text_keeps_bytes.) */
static bool tracked_ascii_only(const ec_ws_file *f, ec_str now, const ec_str *fresh) {
  const ec_doc_log *log = f->doc.log;
  const unsigned char *o = (const unsigned char *)f->original.ptr;
  size_t bom = f->doc.bom ? 3 : 0;
  for (size_t i = 0; i < log->n; i++) {
    const ec_doc_region *r = &log->regions[i];
    size_t at = bom + r->old_start;
    bool in_run = at && (o[at - 1] >= 0x80 || (o[at - 1] >= 0x30 && o[at - 1] <= 0x7E && at >= 2 && o[at - 2] >= 0x80));
    if (in_run || !all_ascii(f->original.ptr + at, r->old_end - r->old_start) ||
        !all_ascii(region_new(f, now, fresh, i), r->new_end - r->new_start))
      return false;
  }
  return true;
}

/* The tracked changes of f as stretches of the bytes given and the bytes rendered. false: diff
 * the whole files. */
static bool tracked_stretches(ec_ctx *ctx, const ec_ws_file *f, ec_str now, ec_diff_stretch **out, size_t *n) {
  if (!tracked(f)) return false;
  const ec_doc_log *log = f->doc.log;
  ec_diff_stretch *st = ec_arena_alloc(ctx->arena, (log->n ? log->n : 1) * sizeof *st);
  if (!st) return false;
  size_t bom = f->doc.bom ? 3 : 0;
  if (plain_endings(&f->doc)) {
    for (size_t i = 0; i < log->n; i++) {
      const ec_doc_region *r = &log->regions[i];
      ec_diff_stretch s = {r->old_start + bom, r->old_end + bom, r->new_start + bom, r->new_end + bom};
      if (s.old_end > f->original.len || s.new_end > now.len) return false; /* cannot happen; cheap */
      st[i] = s;
    }
    *out = st;
    *n = log->n;
    return true;
  }
  raw_cursor co = {f->original, 0, bom, 0}, cn = {now, 0, bom, 0};
  next_cr(&co);
  next_cr(&cn);
  size_t pa = bom, pb = bom; /* ends of the previous stretch */
  for (size_t i = 0; i < log->n; i++) {
    const ec_doc_region *r = &log->regions[i];
    ec_diff_stretch s;
    s.old_start = raw_at(&co, r->old_start);
    s.old_end = raw_at(&co, r->old_end);
    s.new_start = raw_at(&cn, r->new_start);
    s.new_end = raw_at(&cn, r->new_end);
    if (s.old_end > f->original.len || s.new_end > now.len || s.old_start - pa != s.new_start - pb ||
        !same_bytes(f->original.ptr + pa, now.ptr + pb, s.old_start - pa))
      return false;
    st[i] = s;
    pa = s.old_end;
    pb = s.new_end;
  }
  if (f->original.len - pa != now.len - pb || !same_bytes(f->original.ptr + pa, now.ptr + pb, now.len - pb) ||
      (bom && (f->original.len < 3 || now.len < 3 || !same_bytes(f->original.ptr, now.ptr, 3))))
    return false;
  *out = st;
  *n = log->n;
  return true;
}

/* Section - a new text left unbuilt (options.content_as_splices) */

/* Whether f's new text can stay unbuilt to the end: the doc an edit left pending, tracked from
 * the file as given and without CRLF, so its log's regions are the rendered text's changes (BOM
 * aside); the file's encoding writes the text as it is; no syntax report reads it whole. */
static bool stays_unbuilt(const ec_ctx *ctx, const ec_ws_file *f) {
  return f->doc.pending && ctx->opt.content_as_splices && tracked(f) && plain_endings(&f->doc) && ec_encoding_plain(&f->enc) &&
         ctx->opt.syntax != EC_SYNTAX_REPORT && ctx->opt.syntax != EC_SYNTAX_REFUSE;
}

/* Each logged region's new bytes, read from the pending doc once (they are the splices' texts). */
static ec_error_code fresh_regions(ec_ctx *ctx, const ec_ws_file *f, const ec_str **out) {
  const ec_doc_log *log = f->doc.log;
  ec_str *fresh = ec_arena_alloc(ctx->arena, (log->n ? log->n : 1) * sizeof *fresh);
  if (!fresh) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < log->n; i++) {
    const ec_doc_region *r = &log->regions[i];
    char *t = ec_arena_alloc(ctx->arena, r->new_end - r->new_start + 1);
    if (!t) return EC_OUT_OF_MEMORY;
    ec_doc_read(&f->doc, r->new_start, r->new_end, t);
    fresh[i] = ec_str_make(t, r->new_end - r->new_start);
  }
  *out = fresh;
  return EC_OK;
}

/* ec_text_reader over an unbuilt file as rendered: its BOM, then its doc's text. */
static const char *read_unbuilt(void *user, ec_arena *a, size_t start, size_t end) {
  const ec_doc *d = user;
  char *w = ec_arena_alloc(a, end - start + 1);
  if (!w) return NULL;
  size_t bom = d->bom ? 3 : 0, at = start;
  for (; at < bom && at < end; at++) w[at - start] = "\xEF\xBB\xBF"[at];
  if (at < end) ec_doc_read(d, at - bom, end - bom, w + (at - start));
  return w;
}

/* Section - a file's result */

/* `now` is the file's rendered text (empty when it no longer exists; ptr NULL when not built,
 * with `fresh` its regions' new bytes); the content written is that text in the file's own
 * encoding (text/encoding.h). The diffs are of the texts. */
static ec_error_code emit_file(ec_ctx *ctx, ec_ws_file *f, ec_str now, const ec_str *fresh) {
  ec_str bytes = now;
  if (f->exists && !ec_encoding_plain(&f->enc)) {
    const char *why;
    ec_error_code erc = ec_text_encode(ctx->arena, now, &f->enc, &bytes, &why);
    if (erc == EC_ENCODING)
      return ec_fail_at(ctx, f, ec_fail(ctx, EC_ENCODING, "the new text of '%.*s' cannot be written back: %s; nothing was changed",
                                        (int)f->path.len, f->path.ptr, why));
    if (erc) return ec_fail(ctx, erc, "out of memory");
  }
  ec_file_result *out = ec_result_add_file(ctx->res);
  if (!out) return ec_fail_oom(ctx);
  out->path = f->path;
  out->matches = f->matches;
  out->n_matches = f->n_matches;
  out->replacements = f->replacements;
  if (f->exists) {
    out->content = bytes;
    out->has_content = true;
  }
  out->action = !f->exists ? EC_ACTION_DELETE : !f->existed ? EC_ACTION_ADD : f->moved_to.len ? EC_ACTION_MOVE : EC_ACTION_UPDATE;
  out->moved_to = f->moved_to;
  ec_str new_path = f->moved_to.len ? f->moved_to : f->path;
  ec_diff_opts o = {ctx->opt.diff_context, ctx->opt.diff_max_bytes, ctx->opt.limits.diff_work, ctx->opt.undo_on_read};
  ec_diff_out d, u;
  ec_diff_stretch *st = NULL;
  size_t n_st = 0;
  ec_error_code rc;
  if (!now.ptr && f->exists) {
    /* Not built (stays_unbuilt): tracked, plain endings, so the log's regions are the stretches. */
    if (!tracked_stretches(ctx, f, now, &st, &n_st)) return ec_fail_oom(ctx);
    ec_text_reader r = {now.len, read_unbuilt, &f->doc};
    rc = ec_diff_unified_stretches_read(ctx->arena, f->path, new_path, f->original, &r, f->original_lf, st, n_st, &o, &d, &u);
    out->splice_texts = fresh;
  } else if (tracked_stretches(ctx, f, now, &st, &n_st)) {
    /* A located edit: the diff of the lines around what it spliced, not of the whole files. */
    rc = ec_diff_unified_stretches(ctx->arena, f->path, new_path, f->original, now, f->original_lf, st, n_st, &o, &d, &u);
  } else {
    const ec_str *before = f->existed ? &f->original : NULL, *after = f->exists ? &now : NULL;
    rc = ec_diff_unified_pair(ctx->arena, f->path, new_path, before, after, &o, &d, &u);
    st = d.stretches;
    n_st = d.n_stretches;
  }
  if (rc) return ec_fail(ctx, rc, "could not build the diff of '%.*s'", (int)f->path.len, f->path.ptr);
  if (f->existed && f->exists && f->enc.utf16 != EC_UTF16_NONE) {
    /* The stretches are of the text; its UTF-16 bytes are another length: in bytes, the whole
     * file is the splice. (Lone-CR files map byte for byte, CR for LF: their stretches stand.) */
    st = ec_arena_alloc(ctx->arena, sizeof *st);
    if (!st) return ec_fail_oom(ctx);
    st->old_start = st->new_start = 0;
    st->old_end = f->bytes.len;
    st->new_end = bytes.len;
    n_st = 1;
  }
  out->splices = st;
  out->n_splices = n_st;
  out->diff = d.text;
  out->diff_truncated = d.truncated;
  out->undo = u.text;
  out->lines_added = d.added;
  out->lines_removed = d.removed;
  ctx->res->stats.lines_added += d.added;
  ctx->res->stats.lines_removed += d.removed;
  ctx->res->stats.bytes_out += bytes.len;
  if (f->exists && (ctx->opt.syntax == EC_SYNTAX_REPORT || ctx->opt.syntax == EC_SYNTAX_REFUSE)) {
    rc = ec_ws_syntax(ctx, f, now, &out->syntax);
    if (rc) return rc;
    if (ctx->opt.syntax == EC_SYNTAX_REFUSE && ec_syn_breaks(out->syntax))
      return ec_fail_syntax(ctx, f, out->syntax, "The edit",
                            "Correct the edit so the file still parses, or send it with options.syntax \"report\" to apply it as it is.");
  }
  return EC_OK;
}

static int by_touch(const void *x, const void *y) {
  uint32_t a = (*(ec_ws_file *const *)x)->touch_seq, b = (*(ec_ws_file *const *)y)->touch_seq;
  return a < b ? -1 : a > b;
}

ec_error_code ec_ws_commit(ec_ctx *ctx) {
  /* Output is bounded like input: replace_all of a short old_string by a long new_string grows a
   * 16 KB file to 158 MB, and the diff and the response would grow with it. */
  uint64_t out = 0, biggest = 0;
  const ec_ws_file *big = NULL;
  for (size_t i = 0; i < ctx->n_files; i++) {
    const ec_ws_file *f = &ctx->files[i];
    if (!f->touched || !f->exists || !f->loaded) continue;
    out += f->doc.len;
    if (f->doc.len >= biggest) biggest = f->doc.len, big = f;
  }
  if (big && out > ec_ctx_max_output(ctx)) return ec_fail_output(ctx, big->path, biggest, out, "");
  /* A file the edit makes has the line limit of a file it is given (the diff splits it into lines). */
  for (size_t i = 0; i < ctx->n_files; i++) {
    const ec_ws_file *f = &ctx->files[i];
    if (!f->touched || !f->exists || !f->loaded) continue;
    char last = '\n';
    if (f->doc.len) ec_doc_read(&f->doc, f->doc.len - 1, f->doc.len, &last);
    size_t lines = f->doc.n_lf + (last != '\n');
    if (lines > ctx->opt.limits.max_lines) {
      ec_fail(ctx, EC_TOO_LARGE, "the edit would make '%.*s' %zu lines; the limit (options.limits.max_lines) is %zu; nothing was "
              "changed", (int)f->path.len, f->path.ptr, lines, ctx->opt.limits.max_lines);
      ec_last_error(ctx)->path = f->path;
      return EC_TOO_LARGE;
    }
  }
  /* Touch order, not request order: the result reads as the edit was written. */
  ec_ws_file **order = ec_arena_alloc(ctx->arena, (ctx->n_files + 1) * sizeof *order);
  if (!order) return ec_fail_oom(ctx);
  size_t n = 0;
  for (size_t i = 0; i < ctx->n_files; i++)
    if (ctx->files[i].touched) order[n++] = &ctx->files[i];
  ec_sort(order, n, sizeof *order, by_touch);
  for (size_t i = 0; i < n; i++) {
    ec_ws_file *f = order[i];
    if (!f->existed && !f->exists) continue;
    ec_str now = {"", 0};
    const ec_str *fresh = NULL;
    if (f->exists) {
      bool unbuilt = stays_unbuilt(ctx, f);
      if (unbuilt) {
        if (fresh_regions(ctx, f, &fresh)) return ec_fail_oom(ctx);
        now.ptr = NULL;
        now.len = (f->doc.bom ? 3 : 0) + f->doc.len;
      } else {
        if (ec_doc_settle(ctx->arena, &f->doc)) return ec_fail_oom(ctx);
        now = ec_doc_render(ctx->arena, &f->doc);
        if (!now.ptr) return ec_fail_oom(ctx);
      }
      /* a file the request did not change is not listed */
      if (f->existed && !f->moved_to.len &&
          (tracked(f) && plain_endings(&f->doc) ? tracked_unchanged(f, now, fresh) : ec_str_eq(now, f->original)))
        continue;
      /* A file that is not UTF-8 keeps every byte its unknown encoding may need (text/encoding.h);
       * an edit of ASCII away from such bytes keeps them whatever the file is (the common case:
       * no need to read the file through). */
      ec_kept why;
      bool ascii_edit = tracked(f) && plain_endings(&f->doc) && tracked_ascii_only(f, now, fresh);
      if (unbuilt && !ascii_edit && f->existed && !ctx->edit_not_utf8 && ec_utf8_first_invalid(f->original) < f->original.len) {
        /* A file that is not UTF-8, changed beyond ASCII: the rule reads the whole new text, which
         * is built after all (for a UTF-8 file the rule holds from the original alone). */
        if (ec_doc_settle(ctx->arena, &f->doc)) return ec_fail_oom(ctx);
        now = ec_doc_render(ctx->arena, &f->doc);
        if (!now.ptr) return ec_fail_oom(ctx);
        fresh = NULL;
      }
      if (f->existed && !ctx->edit_not_utf8 && !ascii_edit && !ec_text_keeps_bytes(f->original, now, &why)) {
        ec_str m = ec_text_kept_message(ctx->arena, f->path, f->original, now, &why);
        ec_error_code erc = ec_fail_at(ctx, f, ec_fail(ctx, EC_ENCODING, "%.*s", (int)m.len, m.ptr ? m.ptr : "out of memory"));
        if (!ctx->partial) return erc;
        continue; /* a peer that applies blocks one by one: this file stays as it was */
      }
    }
    ec_error_code rc = emit_file(ctx, f, now, fresh);
    if (rc) return rc;
  }
  return EC_OK;
}
