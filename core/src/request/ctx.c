#include "ctx.h"
#include "../syntax/syntax.h"
#include "../base/str.h"
#include "../diff/diff.h"
#include "../base/sort.h"
#include "../base/strmap.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The build's ceilings, which are also the defaults (docs/limits.md); a host may set its own
 * through ec_host.ceilings. The same numbers on every build, so results stay identical. */
static const ec_limits BUILD_CEILINGS = {
    .max_input_bytes = 64u << 20,
    .max_lines = 1u << 20, /* every line may cost ~50-90 bytes of tables (docs/limits.md: the memory bound) */
    .max_line_bytes = 16u << 20,
    .max_blocks = 10000,
    .regex_match_limit = 10000000,
    .regex_depth_limit = 10000,
    .fuzzy_work = 200000000,
    .diff_work = 50000000,
    .max_files = 10000,
};

/* Each limit: unset (0) is its ceiling; a request may lower it, never raise it. */
static ec_error_code resolve_limits(ec_ctx *ctx, const ec_limits *host) {
  ec_limits *l = &ctx->opt.limits;
#define LIMIT(name)                                                                                     \
  do {                                                                                                  \
    uint64_t ceiling = host && host->name ? (uint64_t)host->name : (uint64_t)BUILD_CEILINGS.name;       \
    if ((uint64_t)l->name > ceiling)                                                                    \
      return ec_fail(ctx, EC_INVALID_PARAM, "options.limits." #name " is above its ceiling %llu: a request may only " \
                     "lower its limits (the host sets the ceilings); leave it out to get %llu",          \
                     (unsigned long long)ceiling, (unsigned long long)ceiling);                         \
    if (!l->name) l->name = ceiling;                                                                    \
  } while (0)
  LIMIT(max_input_bytes);
  LIMIT(max_lines);
  LIMIT(max_line_bytes);
  LIMIT(max_blocks);
  LIMIT(regex_match_limit);
  LIMIT(regex_depth_limit);
  LIMIT(fuzzy_work);
  LIMIT(diff_work);
  LIMIT(max_files);
#undef LIMIT
  return EC_OK;
}

ec_error_code ec_fail(ec_ctx *ctx, ec_error_code code, const char *fmt, ...) {
  /* Past EC_MAX_ERRORS (a peer profile reporting each of 10,000 failed blocks) errors are counted,
   * not kept: the response stays a small multiple of the request. */
  if (ctx->res->n_errors >= EC_MAX_ERRORS) {
    ctx->res->n_unlisted_errors++;
    memset(&ctx->dropped, 0, sizeof ctx->dropped);
    ctx->dropped.code = code;
    ctx->last_dropped = true;
    return code;
  }
  ctx->last_dropped = false;
  char small[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) n = 0;
  if ((size_t)n < sizeof small) {
    ec_result_add_error(ctx->res, code, "%s", small);
  } else {
    char *big = ec_arena_alloc(ctx->arena, (size_t)n + 1);
    if (big) {
      va_start(ap, fmt);
      vsnprintf(big, (size_t)n + 1, fmt, ap);
      va_end(ap);
    }
    ec_result_add_error(ctx->res, code, "%s", big ? big : small);
  }
  return code;
}

uint64_t ec_ctx_max_output(const ec_ctx *ctx) {
  uint64_t limit = ctx->opt.limits.max_input_bytes, grown = ctx->input_bytes + limit / 2;
  return grown < limit ? grown : limit;
}

ec_error_code ec_fail_output(ec_ctx *ctx, ec_str path, uint64_t bytes, uint64_t all, const char *how) {
  uint64_t limit = ctx->opt.limits.max_input_bytes;
  ec_fail(ctx, EC_TOO_LARGE, "the edit would make '%.*s' %s%llu bytes (%s%llu in all); an edit may make its files %llu bytes "
                 "in all (the request's %llu bytes of text plus half of options.limits.max_input_bytes, never more than "
                 "max_input_bytes, %llu); nothing was changed. Change fewer places at once, or send the new content whole.",
                 (int)path.len, path.ptr, how ? "" : "more than ", (unsigned long long)bytes, how ? how : "more than ",
                 (unsigned long long)all,
                 (unsigned long long)ec_ctx_max_output(ctx), (unsigned long long)ctx->input_bytes, (unsigned long long)limit);
  ec_error *e = ec_last_error(ctx);
  if (e) e->path = path;
  return EC_TOO_LARGE;
}

ec_error *ec_last_error(ec_ctx *ctx) {
  if (ctx->last_dropped) return &ctx->dropped;
  return ctx->res->n_errors ? &ctx->res->errors[ctx->res->n_errors - 1] : NULL;
}

ec_error_code ec_fail_at(ec_ctx *ctx, const ec_ws_file *f, ec_error_code rc) {
  ec_error *e = ec_last_error(ctx);
  if (e) e->path = f->path;
  return rc;
}

static ec_ws_file *ws_push(ec_ctx *ctx) {
  if (!EC_ARENA_RESERVE(ctx->arena, ctx->files, ctx->n_files, ctx->cap_files, 8)) return NULL;
  ec_ws_file *f = &ctx->files[ctx->n_files++];
  memset(f, 0, sizeof *f);
  return f;
}

bool ec_limits_set(ec_limits *l, const char *name, uint64_t value) {
  if (!l || !name || !value) return false;
#define SET(field, type, max)                             \
  if (!strcmp(name, #field)) {                            \
    if (value > (uint64_t)(max)) return false;            \
    l->field = (type)value;                               \
    return true;                                          \
  }
  SET(max_input_bytes, size_t, SIZE_MAX)
  SET(max_lines, size_t, SIZE_MAX)
  SET(max_line_bytes, size_t, SIZE_MAX)
  SET(max_blocks, size_t, SIZE_MAX)
  SET(regex_match_limit, uint32_t, UINT32_MAX)
  SET(regex_depth_limit, uint32_t, UINT32_MAX)
  SET(fuzzy_work, uint64_t, UINT64_MAX)
  SET(diff_work, uint64_t, UINT64_MAX)
  SET(max_files, size_t, SIZE_MAX)
#undef SET
  return false;
}

/* A list the request gives, capped by max_files before anything walks it. */
static ec_error_code check_count(ec_ctx *ctx, size_t n, const char *what) {
  if (n <= ctx->opt.limits.max_files) return EC_OK;
  return ec_fail(ctx, EC_TOO_LARGE, "%s names %zu files; the limit (options.limits.max_files) is %zu: send the files "
                 "the edit touches, in several requests if need be", what, n, ctx->opt.limits.max_files);
}

ec_error_code ec_ctx_init(ec_ctx *ctx, const ec_request *req, ec_result *res, const ec_limits *ceilings) {
  memset(ctx, 0, sizeof *ctx);
  ctx->req = req;
  ctx->res = res;
  ctx->arena = res->arena;
  ctx->opt = req->options;
  ec_strmap_init(&ctx->index, ctx->arena);
  ec_error_code lrc = resolve_limits(ctx, ceilings);
  if (lrc) return lrc;
  if (ctx->opt.strategies && !ctx->opt.n_strategies)
    return ec_fail(ctx, EC_INVALID_PARAM, "options.strategies is empty: name at least one strategy (exact, unescape, trim_end, "
                   "indent, unicode, elision, anchor, regex, fuzzy), or leave it out for the profile's own ladder");
  const ec_peer_options *po = &req->edit.peer;
  if ((lrc = check_count(ctx, req->n_files, "files")) || (lrc = check_count(ctx, req->options.n_expected_hash, "options.expected_hash")) ||
      (lrc = check_count(ctx, po->n_chat_files, "edit.options.chat_files")) ||
      (lrc = check_count(ctx, req->edit.n_valid_fnames, "edit.valid_fnames")))
    return lrc;
  if (ctx->opt.diff_context < 0) return ec_fail(ctx, EC_INVALID_PARAM, "options.diff_context must be >= 0");
  if ((ctx->opt.has_strip || ctx->opt.reverse) && req->format != EC_FORMAT_UNIFIED_DIFF && req->format != EC_FORMAT_REPLY)
    return ec_fail(ctx, EC_INVALID_PARAM, "options.strip and options.reverse read unified diffs: they apply to formats unified_diff "
                   "and reply only");
  if ((ctx->opt.has_strip || ctx->opt.reverse) && req->profile != EC_PROFILE_EDITCORE)
    return ec_fail(ctx, EC_INVALID_PARAM, "options.strip and options.reverse are editcore's reading of diffs: a peer profile reads "
                   "them as its peer does, which has neither; use profile editcore");
  if (ctx->opt.has_strip && (ctx->opt.strip < 0 || ctx->opt.strip > 4096))
    return ec_fail(ctx, EC_INVALID_PARAM, "options.strip must be between 0 and 4096");
  if (!(ctx->opt.fuzzy_threshold >= 0.0 && ctx->opt.fuzzy_threshold <= 1.0))
    return ec_fail(ctx, EC_INVALID_PARAM, "options.fuzzy_threshold must be between 0 and 1");
  uint64_t total = 0;
  for (size_t i = 0; i < req->n_files; i++) total += req->files[i].content.len + req->files[i].path.len;
  const ec_edit *e = &req->edit;
  total += e->old_string.len + e->new_string.len + e->text.len + e->content.len + e->new_str.len +
           e->snippet.len + e->peer.raw_llm_text.len;
  ctx->input_bytes = total;
  if (total > ctx->opt.limits.max_input_bytes)
    return ec_fail(ctx, EC_TOO_LARGE, "the request holds %llu bytes of text; the limit (options.limits.max_input_bytes) is %llu",
                   (unsigned long long)total, (unsigned long long)ctx->opt.limits.max_input_bytes);
  /* An edit's text is split into lines like a file (its hunks, blocks, the file it creates), and
   * each line costs tables: it has the files' line limit, checked before anything is split.
   * The rule for files that are not UTF-8 guards them from text written in UTF-8 (every JSON
   * request and tool call); an edit whose own text is not UTF-8 speaks the file's encoding. */
  const struct { const char *name; ec_str s; } texts[] = {
      {"edit.text", e->text}, {"edit.content", e->content}, {"edit.new_string", e->new_string},
      {"edit.old_string", e->old_string}, {"edit.snippet", e->snippet}, {"edit.new_str", e->new_str},
      {"edit.options.raw_llm_text", e->peer.raw_llm_text}};
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    size_t lines = ec_count_lines(texts[i].s);
    if (lines > ctx->opt.limits.max_lines)
      return ec_fail(ctx, EC_TOO_LARGE, "%s has %zu lines; the limit (options.limits.max_lines) is %zu: send the change in several "
                     "requests, or fewer lines at once", texts[i].name, lines, ctx->opt.limits.max_lines);
    if (!ctx->edit_not_utf8) ctx->edit_not_utf8 = ec_utf8_first_invalid(texts[i].s) != texts[i].s.len;
  }
  for (size_t i = 0; i < req->n_files; i++) {
    const ec_file *in = &req->files[i];
    if (!in->path.len) return ec_fail(ctx, EC_INVALID_PARAM, "files: a file has an empty path");
    if (ec_str_has_nul(in->path)) return ec_fail(ctx, EC_INVALID_PARAM, "files: a path holds a NUL character");
    int added = ec_strmap_add(&ctx->index, in->path, ctx->n_files, NULL);
    if (added < 0) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
    if (!added) return ec_fail(ctx, EC_INVALID_PARAM, "files: the path '%.*s' is given twice", (int)in->path.len, in->path.ptr);
    ec_ws_file *f = ws_push(ctx);
    if (!f) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
    f->path = in->path;
    f->existed = f->exists = true;
    f->bytes = in->content;
    ec_error_code drc = ec_text_decode(ctx->arena, in->content, &f->original, &f->enc, &f->enc_problem);
    if (drc == EC_OUT_OF_MEMORY) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
  }
  return EC_OK;
}

ec_ws_file *ec_ws_find(ec_ctx *ctx, ec_str path) {
  if (!path.len) return ctx->n_files == 1 ? &ctx->files[0] : NULL;
  size_t i;
  return ec_strmap_get(&ctx->index, path, &i) && i < ctx->n_files ? &ctx->files[i] : NULL;
}

ec_ws_file *ec_ws_get(ec_ctx *ctx, ec_str path) {
  ec_ws_file *f = ec_ws_find(ctx, path);
  if (f || !path.len) return f;
  if (!ec_strmap_put(&ctx->index, path, ctx->n_files)) return NULL;
  f = ws_push(ctx);
  if (!f) return NULL; /* the index names an entry past the end: ec_ws_find checks */
  f->path = path;
  return f;
}

static void touch(ec_ctx *ctx, ec_ws_file *f) {
  if (!f->touched) { f->touched = true; f->touch_seq = ctx->next_seq++; }
}

ec_error_code ec_ws_doc(ec_ctx *ctx, ec_ws_file *f, ec_doc **out) {
  if (!f->exists) return ec_fail(ctx, EC_NOT_FOUND, "the file '%.*s' does not exist", (int)f->path.len, f->path.ptr);
  if (!f->loaded) {
    if (f->enc_problem.len) {
      ec_error_code rc = ec_fail(ctx, EC_ENCODING, "'%.*s' cannot be edited: %.*s. Nothing was changed.", (int)f->path.len,
                                 f->path.ptr, (int)f->enc_problem.len, f->enc_problem.ptr);
      return ec_fail_at(ctx, f, rc);
    }
    ec_error_code rc = ec_doc_load(ctx->arena, f->original, &f->doc);
    if (rc == EC_BINARY_FILE) {
      rc = ec_fail(ctx, EC_BINARY_FILE, "'%.*s' holds NUL bytes: it looks binary, and editcore edits only text files",
                   (int)f->path.len, f->path.ptr);
      ec_last_error(ctx)->path = f->path;
      return rc;
    }
    if (rc) return ec_fail(ctx, rc, "out of memory loading '%.*s'", (int)f->path.len, f->path.ptr);
    const ec_limits *lim = &ctx->opt.limits;
    size_t lines = f->doc.n_lf + (f->doc.len && f->doc.text[f->doc.len - 1] != '\n');
    /* No line is longer than the file: only a file longer than the limit is measured */
    if (f->doc.len > lim->max_line_bytes) ec_doc_measure_lines(&f->doc);
    if (lines > lim->max_lines || f->doc.longest_line > lim->max_line_bytes) {
      rc = ec_fail(ctx, EC_TOO_LARGE, "'%.*s' has %zu lines, the longest %zu bytes; the limits (options.limits.max_lines, max_line_bytes) are %zu and %zu",
                   (int)f->path.len, f->path.ptr, lines, f->doc.longest_line, lim->max_lines, lim->max_line_bytes);
      ec_last_error(ctx)->path = f->path;
      return rc;
    }
    f->loaded = true;
    f->original_lf = f->doc.n_lf; /* folding CRLF and the BOM keep every LF */
    /* Its changes are tracked from here, for a diff made from them (emit_file) */
    if (f->existed && ec_doc_log_start(ctx->arena, &f->doc)) f->lineage = f->doc.log;
  }
  *out = &f->doc;
  return EC_OK;
}

void ec_ws_set(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc) {
  touch(ctx, f);
  f->doc = *doc;
  f->loaded = f->exists = true;
}

void ec_ws_replace_doc(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc) {
  ec_doc old = f->doc;
  bool release = f->exists && f->loaded && old.text && old.text != doc->text && !ctx->res->n_errors;
  for (size_t i = 0; release && i < ctx->n_files; i++)
    if (&ctx->files[i] != f && (ctx->files[i].doc.text == old.text || (old.cr && ctx->files[i].doc.cr == old.cr))) release = false;
  ec_ws_set(ctx, f, doc);
  if (!release) return;
  ec_arena_release(ctx->arena, old.text); /* a small block stays with the arena */
  if (old.cr != doc->cr) ec_arena_release(ctx->arena, old.cr);
  /* The change log's regions are copied at each step (the new log holds them all): the old copy
   * goes too, or 10,000 steps keep every intermediate list (80 MB for 9,990 blocks). */
  if (old.log && doc->log != old.log && (!doc->log || doc->log->regions != old.log->regions))
    ec_arena_release(ctx->arena, (void *)old.log->regions);
}

ec_error_code ec_ws_set_bytes(ec_ctx *ctx, ec_ws_file *f, ec_str text) {
  ec_doc d;
  if (ec_doc_load(ctx->arena, text, &d) == EC_BINARY_FILE)
    return ec_fail(ctx, EC_BINARY_FILE, "the new content of '%.*s' holds NUL bytes", (int)f->path.len, f->path.ptr);
  if (!d.text) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
  ec_ws_set(ctx, f, &d);
  return EC_OK;
}

void ec_ws_delete(ec_ctx *ctx, ec_ws_file *f) {
  touch(ctx, f);
  f->exists = false;
  f->loaded = false;
}

ec_error_code ec_ws_add_match(ec_ctx *ctx, ec_ws_file *f, uint32_t start_line, uint32_t end_line,
                              ec_strategy s, double confidence) {
  if (!EC_ARENA_RESERVE(ctx->arena, f->matches, f->n_matches, f->cap_matches, 4)) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
  ec_match_info *m = &f->matches[f->n_matches++];
  m->start_line = start_line;
  m->end_line = end_line;
  m->strategy = s;
  m->confidence = confidence;
  return EC_OK;
}

/* Section - the file results: diffs from the tracked changes */

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
static bool tracked_unchanged(const ec_ws_file *f, ec_str now) {
  const ec_doc_log *log = f->doc.log;
  size_t bom = f->doc.bom ? 3 : 0;
  if (now.len != f->original.len) return false;
  for (size_t i = 0; i < log->n; i++) {
    const ec_doc_region *r = &log->regions[i];
    if (r->old_end - r->old_start != r->new_end - r->new_start ||
        !same_bytes(f->original.ptr + bom + r->old_start, now.ptr + bom + r->new_start, r->old_end - r->old_start))
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
static bool tracked_ascii_only(const ec_ws_file *f, ec_str now) {
  const ec_doc_log *log = f->doc.log;
  const unsigned char *o = (const unsigned char *)f->original.ptr;
  size_t bom = f->doc.bom ? 3 : 0;
  for (size_t i = 0; i < log->n; i++) {
    const ec_doc_region *r = &log->regions[i];
    size_t at = bom + r->old_start;
    bool in_run = at && (o[at - 1] >= 0x80 || (o[at - 1] >= 0x30 && o[at - 1] <= 0x7E && at >= 2 && o[at - 2] >= 0x80));
    if (in_run || !all_ascii(f->original.ptr + at, r->old_end - r->old_start) ||
        !all_ascii(now.ptr + bom + r->new_start, r->new_end - r->new_start))
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

/* `now` is the file's rendered text (empty when it no longer exists); the content written is
 * that text in the file's own encoding (text/encoding.h). The diffs are of the texts. */
static ec_error_code emit_file(ec_ctx *ctx, ec_ws_file *f, ec_str now) {
  ec_str bytes = now;
  if (f->exists && !ec_encoding_plain(&f->enc)) {
    ec_error_code erc = ec_text_encode(ctx->arena, now, &f->enc, &bytes);
    if (erc == EC_ENCODING)
      return ec_fail_at(ctx, f, ec_fail(ctx, EC_ENCODING, "the new text of '%.*s' is not UTF-8, so it cannot be written back as "
                                        "%s, the file's encoding; nothing was changed", (int)f->path.len, f->path.ptr,
                                        ec_encoding_name(&f->enc)));
    if (erc) return ec_fail(ctx, erc, "out of memory");
  }
  ec_file_result *out = ec_result_add_file(ctx->res);
  if (!out) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
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
  ec_diff_opts o = {ctx->opt.diff_context, ctx->opt.diff_max_bytes, ctx->opt.limits.diff_work};
  ec_diff_out d, u;
  ec_diff_stretch *st = NULL;
  size_t n_st = 0;
  ec_error_code rc;
  if (tracked_stretches(ctx, f, now, &st, &n_st)) {
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
    if (!st) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
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
    size_t lines = f->doc.n_lf + (f->doc.len && f->doc.text[f->doc.len - 1] != '\n');
    if (lines > ctx->opt.limits.max_lines) {
      ec_fail(ctx, EC_TOO_LARGE, "the edit would make '%.*s' %zu lines; the limit (options.limits.max_lines) is %zu; nothing was "
              "changed", (int)f->path.len, f->path.ptr, lines, ctx->opt.limits.max_lines);
      ec_last_error(ctx)->path = f->path;
      return EC_TOO_LARGE;
    }
  }
  /* Touch order, not request order: the result reads as the edit was written. */
  ec_ws_file **order = ec_arena_alloc(ctx->arena, (ctx->n_files + 1) * sizeof *order);
  if (!order) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
  size_t n = 0;
  for (size_t i = 0; i < ctx->n_files; i++)
    if (ctx->files[i].touched) order[n++] = &ctx->files[i];
  ec_sort(order, n, sizeof *order, by_touch);
  for (size_t i = 0; i < n; i++) {
    ec_ws_file *f = order[i];
    if (!f->existed && !f->exists) continue;
    ec_str now = {"", 0};
    if (f->exists) {
      now = ec_doc_render(ctx->arena, &f->doc);
      if (!now.ptr) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
      /* a file the request did not change is not listed */
      if (f->existed && !f->moved_to.len &&
          (tracked(f) && plain_endings(&f->doc) ? tracked_unchanged(f, now) : ec_str_eq(now, f->original)))
        continue;
      /* A file that is not UTF-8 keeps every byte its unknown encoding may need (text/encoding.h);
       * an edit of ASCII away from such bytes keeps them whatever the file is (the common case:
       * no need to read the file through). */
      ec_kept why;
      bool ascii_edit = tracked(f) && plain_endings(&f->doc) && tracked_ascii_only(f, now);
      if (f->existed && !ctx->edit_not_utf8 && !ascii_edit && !ec_text_keeps_bytes(f->original, now, &why)) {
        ec_str m = ec_text_kept_message(ctx->arena, f->path, f->original, now, &why);
        ec_error_code erc = ec_fail_at(ctx, f, ec_fail(ctx, EC_ENCODING, "%.*s", (int)m.len, m.ptr ? m.ptr : "out of memory"));
        if (!ctx->partial) return erc;
        continue; /* a peer that applies blocks one by one: this file stays as it was */
      }
    }
    ec_error_code rc = emit_file(ctx, f, now);
    if (rc) return rc;
  }
  return EC_OK;
}
