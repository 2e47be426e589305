#include "ctx.h"
#include "../base/str.h"
#include "../base/strmap.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

/* The limits by name, in ec_limits's order: each field's place and width (a size_t, uint32_t or
 * uint64_t), read and written through limit_get / limit_put. */
static const struct {
  unsigned char off, size;
  const char *name;
} LIMITS[] = {
#define FIELD(name) {offsetof(ec_limits, name), sizeof(((ec_limits *)0)->name), #name}
    FIELD(max_input_bytes), FIELD(max_lines),  FIELD(max_line_bytes), FIELD(max_blocks), FIELD(regex_match_limit),
    FIELD(regex_depth_limit), FIELD(fuzzy_work), FIELD(diff_work),     FIELD(max_files),
#undef FIELD
};

static uint64_t limit_get(const ec_limits *l, size_t i) {
  const unsigned char *p = (const unsigned char *)l + LIMITS[i].off;
  if (LIMITS[i].size == sizeof(uint64_t)) {
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
  }
  uint32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* `value` fits the field's width (the callers check it). */
static void limit_put(ec_limits *l, size_t i, uint64_t value) {
  unsigned char *p = (unsigned char *)l + LIMITS[i].off;
  if (LIMITS[i].size == sizeof(uint64_t)) {
    memcpy(p, &value, sizeof value);
  } else {
    uint32_t v = (uint32_t)value;
    memcpy(p, &v, sizeof v);
  }
}

/* Each limit: unset (0) is its ceiling; a request may lower it, never raise it. */
static ec_error_code resolve_limits(ec_ctx *ctx, const ec_limits *host) {
  ec_limits *l = &ctx->opt.limits;
  for (size_t i = 0; i < sizeof LIMITS / sizeof LIMITS[0]; i++) {
    uint64_t ceiling = host && limit_get(host, i) ? limit_get(host, i) : limit_get(&BUILD_CEILINGS, i);
    if (limit_get(l, i) > ceiling)
      return ec_fail(ctx, EC_INVALID_PARAM, "options.limits.%s is above its ceiling %llu: a request may only "
                     "lower its limits (the host sets the ceilings); leave it out to get %llu",
                     LIMITS[i].name, (unsigned long long)ceiling, (unsigned long long)ceiling);
    if (!limit_get(l, i)) limit_put(l, i, ceiling);
  }
  return EC_OK;
}

ec_error_code ec_fail_oom(ec_ctx *ctx) { return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory"); }

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

static size_t limit_index(const char *name) {
  size_t i = 0;
  while (i < sizeof LIMITS / sizeof LIMITS[0] && strcmp(name, LIMITS[i].name)) i++;
  return i;
}

bool ec_limits_set(ec_limits *l, const char *name, uint64_t value) {
  if (!l || !name || !value) return false;
  size_t i = limit_index(name);
  if (i == sizeof LIMITS / sizeof LIMITS[0]) return false;
  if (LIMITS[i].size < sizeof(uint64_t) && value > UINT32_MAX) return false; /* the field's width */
  limit_put(l, i, value);
  return true;
}

bool ec_limits_put(ec_limits *l, const char *name, uint64_t value) {
  size_t i = limit_index(name);
  if (i == sizeof LIMITS / sizeof LIMITS[0]) return false;
  /* saturating: a value past size_t (on wasm32) stays above every ceiling, never wraps below one */
  if (LIMITS[i].size < sizeof(uint64_t) && value > UINT32_MAX) value = UINT32_MAX;
  limit_put(l, i, value);
  return true;
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
    if (added < 0) return ec_fail_oom(ctx);
    if (!added) return ec_fail(ctx, EC_INVALID_PARAM, "files: the path '%.*s' is given twice", (int)in->path.len, in->path.ptr);
    ec_ws_file *f = ws_push(ctx);
    if (!f) return ec_fail_oom(ctx);
    f->path = in->path;
    f->existed = f->exists = true;
    f->bytes = in->content;
    ec_error_code drc = ec_text_decode(ctx->arena, in->content, &f->original, &f->enc, &f->enc_problem);
    if (drc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
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
    ec_error_code rc = ec_doc_view(ctx->arena, f->original, &f->doc);
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
  /* A doc an edit left unbuilt (options.content_as_splices) is built once another edit reads it. */
  if (f->doc.pending && ec_doc_settle(ctx->arena, &f->doc)) return ec_fail_oom(ctx);
  *out = &f->doc;
  return EC_OK;
}

void ec_ws_set(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc) {
  touch(ctx, f);
  f->doc = *doc;
  f->loaded = f->exists = true;
}

/* The text a doc reads: its own, or for a pending doc the text it is made from. */
static const char *text_read(const ec_doc *d) { return d->pending ? d->pending->from.text : d->text; }

void ec_ws_replace_doc(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc) {
  ec_doc old = f->doc;
  bool release = f->exists && f->loaded && old.text && old.text != text_read(doc) && !ctx->res->n_errors;
  for (size_t i = 0; release && i < ctx->n_files; i++)
    if (&ctx->files[i] != f && (text_read(&ctx->files[i].doc) == old.text || (old.cr && ctx->files[i].doc.cr == old.cr))) release = false;
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
  if (!d.text) return ec_fail_oom(ctx);
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
  if (!EC_ARENA_RESERVE(ctx->arena, f->matches, f->n_matches, f->cap_matches, 4)) return ec_fail_oom(ctx);
  ec_match_info *m = &f->matches[f->n_matches++];
  m->start_line = start_line;
  m->end_line = end_line;
  m->strategy = s;
  m->confidence = confidence;
  return EC_OK;
}
