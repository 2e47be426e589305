/*
 * Format `codex_patch`: OpenAI Codex's `*** Begin Patch` (dialects/codex_patch_parse.h), its
 * hunks applied in order through the workspace, each chunk located with Codex's sequence search
 * (dialects/codex_seek.h) forward from the previous chunk.
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
#include "../dialects/codex_patch_parse.h"
#include "../dialects/codex_seek.h"
#include "../match/report.h"
#include "../base/sort.h"
#include <stdlib.h>
#include <string.h>

#define SEEK_WORK_BUDGET 400000000u /* window positions scanned per request */

typedef struct cp_run {
  size_t start, old_len;     /* file lines replaced */
  ec_str *new_lines;
  size_t n_new;
  size_t seq;                /* creation order: ties keep patch order */
} cp_run;

typedef struct cp_state {
  ec_ctx *ctx;
  bool codex;
  size_t hunk;               /* 0-based, for messages */
  const ec_cp_hunk *h;
  ec_ws_file *f;
  ec_str path;
  const ec_str *lines;       /* the file's lines as matched */
  size_t n;
  ec_seek_table seek;
  cp_run *runs;
  size_t n_runs, cap_runs;
} cp_state;

static ec_error_code oom(ec_ctx *ctx) { return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory"); }

static void set_where(ec_ctx *ctx, ec_str path, size_t hunk, uint32_t line) {
  ec_error *e = ec_last_error(ctx);
  if (!e) return;
  e->path = path;
  e->block = (int32_t)hunk + 1;
  e->line = line;
}

static int echo_len(ec_str s) {
  if (s.len <= 120) return (int)s.len;
  size_t n = 120;
  while (n > 0 && ((unsigned char)s.ptr[n] & 0xC0) == 0x80) n--;
  return (int)n;
}
static const char *echo_more(ec_str s) { return s.len > 120 ? "..." : ""; }

/* Section - workspace paths (moves are kept as moved_to until another hunk names either path) */

static size_t file_index(ec_ctx *ctx, const ec_ws_file *f) { return (size_t)(f - ctx->files); }

static ec_error_code materialize(ec_ctx *ctx, size_t gi) {
  ec_str dest = ctx->files[gi].moved_to;
  ec_ws_file *d = ec_ws_get(ctx, dest);
  if (!d) return oom(ctx);
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
  if (create && !*out) return oom(ctx);
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

/* Section - locating chunks */

static ec_error_code push_run(cp_state *st, size_t start, size_t old_len, ec_str *new_lines, size_t n_new) {
  if (!EC_ARENA_RESERVE(st->ctx->arena, st->runs, st->n_runs, st->cap_runs, 16)) return oom(st->ctx);
  cp_run *r = &st->runs[st->n_runs];
  r->start = start;
  r->old_len = old_len;
  r->new_lines = new_lines;
  r->n_new = n_new;
  r->seq = st->n_runs++;
  return EC_OK;
}

static ec_error_code seek_fail(cp_state *st, ec_error_code rc, const ec_cp_chunk *c) {
  if (rc == EC_TOO_LARGE) {
    rc = ec_fail(st->ctx, EC_TOO_LARGE, "locating the chunks of '%.*s' took more than %u window comparisons; split the patch or give @@ context lines",
                 (int)st->path.len, st->path.ptr, SEEK_WORK_BUDGET);
    set_where(st->ctx, st->path, st->hunk, c->line);
    return rc;
  }
  return oom(st->ctx);
}

/* Leading whitespace of a line (ASCII spaces and tabs). */
static ec_str indent_of(ec_str s) {
  size_t i = 0;
  while (i < s.len && (s.ptr[i] == ' ' || s.ptr[i] == '\t')) i++;
  return ec_str_make(s.ptr, i);
}

/*
 * editcore: the lines matched at the trim levels may be indented differently from the file. When
 * the difference is one uniform prefix change (patch prefix p → file prefix q on every non-blank
 * line), the added lines get the same change; otherwise NO_MATCH naming the first odd line.
 */
static ec_error_code reindent(cp_state *st, const ec_cp_chunk *c, const ec_cp_line *items, size_t n_items, size_t pos,
                              ec_str *news, size_t n_new, bool *changed) {
  *changed = false;
  ec_str p = {NULL, 0}, q = {NULL, 0};
  bool have = false, differs = false;
  size_t oi = 0;
  for (size_t k = 0; k < n_items; k++) {
    if (items[k].kind == '+') continue;
    ec_str pl = items[k].text, fl = st->lines[pos + oi++];
    if (!ec_u8_trim(pl).len) continue;
    ec_str pi = indent_of(pl), fi = indent_of(fl);
    if (!ec_str_eq(pi, fi)) differs = true;
    if (!have || pi.len < p.len) { p = pi; q = fi; have = true; }
  }
  if (!differs || !have) return EC_OK;
  oi = 0;
  for (size_t k = 0; k < n_items; k++) {
    if (items[k].kind == '+') continue;
    ec_str pl = items[k].text, fl = st->lines[pos + oi++];
    if (!ec_u8_trim(pl).len) continue;
    ec_str pi = indent_of(pl), fi = indent_of(fl);
    bool ok = pi.len >= p.len && memcmp(pi.ptr, p.ptr, p.len) == 0 && fi.len == q.len + (pi.len - p.len) &&
              memcmp(fi.ptr, q.ptr, q.len) == 0 && memcmp(fi.ptr + q.len, pi.ptr + p.len, pi.len - p.len) == 0;
    if (!ok) {
      ec_error_code rc = ec_fail(st->ctx, EC_NO_MATCH,
                                 "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: its lines match lines %zu-%zu of the file only with "
                                 "different indentation, and not by one uniform shift: the file's line %zu is '%.*s%s' where the patch has '%.*s%s'. "
                                 "Nothing was changed; copy the lines with the file's exact indentation.",
                                 st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, pos + 1, pos + oi, pos + oi,
                                 echo_len(fl), fl.ptr, echo_more(fl), echo_len(pl), pl.ptr, echo_more(pl));
      set_where(st->ctx, st->path, st->hunk, c->line);
      return rc;
    }
  }
  for (size_t k = 0; k < n_new; k++) {
    ec_str s = news[k];
    if (!ec_u8_trim(s).len || s.len < p.len || memcmp(s.ptr, p.ptr, p.len) != 0) continue;
    char *b = ec_arena_alloc(st->ctx->arena, q.len + s.len - p.len + 1);
    if (!b) return oom(st->ctx);
    memcpy(b, q.ptr, q.len);
    memcpy(b + q.len, s.ptr + p.len, s.len - p.len);
    b[q.len + s.len - p.len] = 0;
    news[k] = ec_str_make(b, q.len + s.len - p.len);
  }
  *changed = true;
  return EC_OK;
}

static ec_str join_lines(ec_arena *a, const ec_str *ls, size_t n, bool final_lf) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = 0; i < n; i++) {
    ec_buf_append_str(&b, ls[i]);
    if (i + 1 < n || final_lf) ec_buf_append_char(&b, '\n');
  }
  return ec_buf_finish(&b, a);
}

static ec_error_code not_found_lines(cp_state *st, const ec_cp_chunk *c, const ec_str *old, size_t m, const ec_str *news,
                                     size_t n_new, size_t from) {
  ec_ctx *ctx = st->ctx;
  ec_error_code rc;
  if (st->codex) {
    ec_str body = join_lines(ctx->arena, old, m, false);
    if (!body.ptr) return oom(ctx);
    rc = ec_fail(ctx, EC_NO_MATCH, "Failed to find expected lines in %.*s:\n%.*s", (int)st->path.len, st->path.ptr,
                 (int)body.len, body.ptr);
    set_where(ctx, st->path, st->hunk, c->line);
    return rc;
  }
  /* Already applied? The chunk's new lines stand where its old lines should be. */
  bool same = m == n_new;
  for (size_t k = 0; same && k < m; k++) same = ec_str_eq(old[k], news[k]);
  if (n_new && !same) {
    size_t pos;
    ec_seek_level lv;
    rc = ec_seek_find(&st->seek, news, n_new, from, c->eof, &pos, &lv);
    if (rc) return seek_fail(st, rc, c);
    if (pos != SIZE_MAX) {
      rc = ec_fail(ctx, EC_NOOP, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u looks already applied: its new lines are at "
                   "lines %zu-%zu and its old lines are not in the file. Nothing was changed; resend the patch without that chunk.",
                   st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, pos + 1, pos + n_new);
      set_where(ctx, st->path, st->hunk, c->line);
      return rc;
    }
  }
  ec_doc *doc;
  rc = ec_ws_doc(ctx, st->f, &doc);
  if (rc) return rc;
  ec_match_env env;
  ec_match_env_init(&env, ctx->arena, doc->text, doc->len, &ctx->opt, ctx->req->profile);
  ec_str old_text = join_lines(ctx->arena, old, m, true);
  if (!old_text.ptr) return oom(ctx);
  ec_diagnosis d;
  if (ec_diagnose_no_match(&env, old_text, &d)) return oom(ctx);
  ec_str where = c->eof ? ec_cstr(" at the end of the file (the chunk ends with '*** End of File')")
                 : from ? ec_arena_printf(ctx->arena, " after line %zu, where the previous chunk or @@ context left off (chunks must be in file order)", from)
                        : ec_cstr("");
  if (!where.ptr) return oom(ctx);
  rc = ec_fail(ctx, EC_NO_MATCH, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: its %zu old line%s (' ' and '-' lines) "
               "%s not found%.*s. Nothing was changed. %.*s%s",
               st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, m, m == 1 ? "" : "s", m == 1 ? "was" : "were",
               (int)where.len, where.ptr,
               (int)d.detail.len, d.detail.ptr ? d.detail.ptr : "",
               d.detail.len ? "" : "Read the file again and copy the context and removed lines exactly, in file order.");
  set_where(ctx, st->path, st->hunk, c->line);
  ec_error *e = ec_last_error(ctx);
  if (e) { e->candidates = d.candidates; e->n_candidates = d.n_candidates; }
  return EC_NO_MATCH;
}

/* Codex's retry: the last old line (empty) goes, and the last new line too when it is empty. */
static void drop_trailing_blank(ec_cp_line *items, size_t *n_items, bool new_blank) {
  size_t n = *n_items, lo = SIZE_MAX, ln = SIZE_MAX;
  for (size_t k = n; k-- > 0;) if (items[k].kind != '+') { lo = k; break; }
  if (new_blank)
    for (size_t k = n; k-- > 0;) if (items[k].kind != '-') { ln = k; break; }
  size_t drop[2], nd = 0;
  if (lo != SIZE_MAX) {
    if (lo == ln) { drop[nd++] = lo; ln = SIZE_MAX; }
    else if (items[lo].kind == ' ') items[lo].kind = '+';
    else drop[nd++] = lo;
  }
  if (ln != SIZE_MAX) {
    if (items[ln].kind == ' ') items[ln].kind = '-';
    else drop[nd++] = ln;
  }
  if (nd == 2 && drop[0] < drop[1]) { size_t t = drop[0]; drop[0] = drop[1]; drop[1] = t; }
  for (size_t k = 0; k < nd; k++) {
    memmove(&items[drop[k]], &items[drop[k] + 1], (n - drop[k] - 1) * sizeof *items);
    n--;
  }
  *n_items = n;
}

/* Locates every chunk of the hunk on st->lines, filling st->runs. */
static ec_error_code locate(cp_state *st) {
  ec_ctx *ctx = st->ctx;
  ec_arena *a = ctx->arena;
  size_t cursor = 0;
  size_t prev_end = 0;
  for (size_t ci = 0; ci < st->h->n_chunks; ci++) {
    const ec_cp_chunk *c = &st->h->chunks[ci];
    ec_error_code rc;
    for (size_t k = 0; k < c->n_contexts; k++) {
      size_t pos;
      ec_seek_level lv;
      rc = ec_seek_find(&st->seek, &c->contexts[k], 1, cursor, false, &pos, &lv);
      if (rc) return seek_fail(st, rc, c);
      if (pos == SIZE_MAX) {
        ec_str x = c->contexts[k];
        if (st->codex)
          rc = ec_fail(ctx, EC_NO_MATCH, "Failed to find context '%.*s' in %.*s", (int)x.len, x.ptr, (int)st->path.len, st->path.ptr);
        else
          rc = ec_fail(ctx, EC_NO_MATCH, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: the @@ context line '%.*s%s' was not found "
                       "in the file%s%zu. Nothing was changed. The text after '@@ ' must be a line of the file (e.g. a function or class "
                       "header) that comes before the chunk and after the previous one.",
                       st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, echo_len(x), x.ptr, echo_more(x),
                       cursor ? " after line " : "", cursor);
        if (!st->codex && !cursor) {
          ec_error *e = ec_last_error(ctx);
          ec_str msg = ec_arena_printf(a, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: the @@ context line '%.*s%s' is not a "
                                       "line of the file. Nothing was changed. The text after '@@ ' must be a line of the file (e.g. a "
                                       "function or class header) that comes before the chunk.",
                                       st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, echo_len(x), x.ptr, echo_more(x));
          if (e && msg.ptr) e->message = msg;
        }
        set_where(ctx, st->path, st->hunk, c->line);
        return EC_NO_MATCH;
      }
      cursor = pos + 1;
    }
    /* old (context + removed) and new (context + added) line lists, as the chunk gives them */
    size_t n_items = c->n_lines;
    ec_cp_line *items = ec_arena_alloc(a, (n_items + 1) * sizeof *items);
    if (!items) return oom(ctx);
    if (n_items) memcpy(items, c->lines, n_items * sizeof *items);
    size_t m = 0, n_new = 0;
    for (size_t k = 0; k < n_items; k++) { m += items[k].kind != '+'; n_new += items[k].kind != '-'; }

    if (!m) {
      size_t at = st->codex || c->eof || !c->n_contexts ? st->n : cursor;
      ec_str *news = ec_arena_alloc(a, (n_new + 1) * sizeof *news);
      if (!news) return oom(ctx);
      for (size_t k = 0; k < n_items; k++) news[k] = items[k].text;
      rc = push_run(st, at, 0, news, n_new);
      if (rc) return rc;
      if (!st->codex) {
        if (at < prev_end) goto overlap;
        prev_end = at;
        cursor = at;
      }
      continue;
    }

    size_t pos = SIZE_MAX;
    ec_seek_level lv = EC_SEEK_EXACT;
    ec_str *old = ec_arena_alloc(a, (m + 1) * sizeof *old);
    ec_str *news = ec_arena_alloc(a, (n_new + 1) * sizeof *news);
    if (!old || !news) return oom(ctx);
    for (int attempt = 0; attempt < 2; attempt++) {
      m = n_new = 0;
      for (size_t k = 0; k < n_items; k++) {
        if (items[k].kind != '+') old[m++] = items[k].text;
        if (items[k].kind != '-') news[n_new++] = items[k].text;
      }
      rc = ec_seek_find(&st->seek, old, m, cursor, c->eof, &pos, &lv);
      if (rc) return seek_fail(st, rc, c);
      if (pos != SIZE_MAX || attempt) break;
      /* Codex: old lines ending in an empty line are tried once more without it (and without
       * a trailing empty new line). editcore first drops trailing blank context lines. */
      if (!m || old[m - 1].len) break;
      size_t before = n_items;
      if (!st->codex)
        while (n_items && items[n_items - 1].kind == ' ' && items[n_items - 1].blank) n_items--;
      if (n_items == before) drop_trailing_blank(items, &n_items, n_new && !news[n_new - 1].len);
      size_t mm = 0;
      for (size_t k = 0; k < n_items; k++) mm += items[k].kind != '+';
      if (!mm && !st->codex) break;
    }
    if (pos == SIZE_MAX) {
      if (st->codex) { /* Codex names the old lines as the patch gave them, before the retry */
        m = n_new = 0;
        for (size_t k = 0; k < c->n_lines; k++) {
          if (c->lines[k].kind != '+') old[m++] = c->lines[k].text;
          if (c->lines[k].kind != '-') news[n_new++] = c->lines[k].text;
        }
      }
      return not_found_lines(st, c, old, m, news, n_new, cursor);
    }

    if (!st->codex) {
      /* editcore: the place must be unique at the level that found it, unless it was found
       * exactly under an @@ context that placed it. */
      if (lv != EC_SEEK_EXACT || !c->n_contexts) {
        size_t first, second;
        rc = ec_seek_at_level(&st->seek, old, m, cursor, c->eof, lv, &first, &second);
        if (rc) return seek_fail(st, rc, c);
        if (second != SIZE_MAX) {
          rc = ec_fail(ctx, EC_AMBIGUOUS, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: its old lines match more than one place "
                       "(%s line%s %zu-%zu and %zu-%zu%s). Nothing was changed. Add an '@@ <line>' context naming the function or class "
                       "the chunk is in, or more context lines, so that it matches one place.",
                       st->hunk + 1, (int)st->path.len, st->path.ptr, c->line,
                       lv == EC_SEEK_EXACT ? "exactly at" : lv == EC_SEEK_TRIM_END ? "ignoring trailing whitespace at"
                       : lv == EC_SEEK_TRIM ? "ignoring indentation at" : "folding Unicode punctuation at", "s",
                       first + 1, first + m, second + 1, second + m, cursor ? ", searching after the previous chunk" : "");
          set_where(ctx, st->path, st->hunk, c->line);
          return EC_AMBIGUOUS;
        }
      }
      if (pos < prev_end) goto overlap;
      if (lv >= EC_SEEK_TRIM) {
        /* re-indent the added lines only (context lines keep the file's text) */
        bool changed;
        ec_str *added = ec_arena_alloc(a, (n_items + 1) * sizeof *added);
        if (!added) return oom(ctx);
        size_t na = 0;
        for (size_t k = 0; k < n_items; k++) if (items[k].kind == '+') added[na++] = items[k].text;
        rc = reindent(st, c, items, n_items, pos, added, na, &changed);
        if (rc) return rc;
        na = 0;
        if (changed)
          for (size_t k = 0; k < n_items; k++) if (items[k].kind == '+') items[k].text = added[na++];
      }
    }
    /* runs: each stretch of removed/added lines between context lines */
    size_t oi = 0, k = 0;
    while (k < n_items) {
      if (items[k].kind == ' ') { oi++; k++; continue; }
      size_t run_start = oi, n_del = 0, n_add = 0, k0 = k;
      while (k < n_items && items[k].kind != ' ') {
        if (items[k].kind == '-') n_del++;
        else n_add++;
        k++;
      }
      ec_str *add = ec_arena_alloc(a, (n_add + 1) * sizeof *add);
      if (!add) return oom(ctx);
      size_t w = 0;
      for (size_t j = k0; j < k; j++) if (items[j].kind == '+') add[w++] = items[j].text;
      rc = push_run(st, pos + run_start, n_del, add, n_add);
      if (rc) return rc;
      oi += n_del;
    }
    if (ec_ws_add_match(ctx, st->f, (uint32_t)pos + 1, (uint32_t)(pos + m), ec_seek_level_strategy(lv), 1.0))
      return EC_OUT_OF_MEMORY;
    cursor = pos + m;
    prev_end = pos + m;
    continue;
  overlap:
    rc = ec_fail(ctx, EC_NO_MATCH, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u lands on lines an earlier chunk already "
                 "changes ('*** End of File' places it at the end of the file). Nothing was changed; merge the two chunks.",
                 st->hunk + 1, (int)st->path.len, st->path.ptr, c->line);
    set_where(ctx, st->path, st->hunk, c->line);
    return EC_NO_MATCH;
  }
  return EC_OK;
}

static int by_start(const void *x, const void *y) {
  const cp_run *a = x, *b = y;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Section - Codex output: its line model on the file's bytes */

typedef struct raw_line {
  ec_str text;
  uint8_t ending;            /* 0 none, 1 LF, 2 CRLF, 3 CR */
} raw_line;

/* Rust's Utf8Error text for the first invalid sequence, or NULL ptr when s is valid UTF-8. */
static ec_str utf8_error(ec_arena *a, ec_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  ec_str none = {NULL, 0};
  size_t i = 0;
  while (i < s.len) {
    unsigned c = p[i];
    if (c < 0x80) { i++; continue; }
    size_t need = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!need) return ec_arena_printf(a, "invalid utf-8 sequence of 1 bytes from index %zu", i);
    size_t k = 1;
    for (; k < need; k++) {
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
    i += need;
  }
  return none;
}

static ec_error_code update_codex(cp_state *st, ec_str *out) {
  ec_ctx *ctx = st->ctx;
  ec_arena *a = ctx->arena;
  ec_ws_file *f = st->f;
  ec_str bytes = f->loaded ? ec_doc_render(a, &f->doc) : f->original;
  if (!bytes.ptr && bytes.len) return oom(ctx);
  ec_str bad = utf8_error(a, bytes);
  if (bad.ptr) {
    ec_error_code rc = ec_fail(ctx, EC_BINARY_FILE, "Failed to read file to update %.*s: %.*s", (int)st->path.len, st->path.ptr,
                               (int)bad.len, bad.ptr);
    set_where(ctx, st->path, st->hunk, st->h->line);
    return rc;
  }
  /* Codex 0.169 ends a line at LF, CRLF or a lone CR; each line keeps its own ending. */
  size_t n = 0;
  for (size_t i = 0; i < bytes.len; i++)
    n += bytes.ptr[i] == '\n' || (bytes.ptr[i] == '\r' && (i + 1 == bytes.len || bytes.ptr[i + 1] != '\n'));
  if (bytes.len && bytes.ptr[bytes.len - 1] != '\n' && bytes.ptr[bytes.len - 1] != '\r') n++;
  raw_line *L = ec_arena_alloc(a, (n + 1) * sizeof *L);
  ec_str *texts = ec_arena_alloc(a, (n + 1) * sizeof *texts);
  if (!L || !texts) return oom(ctx);
  size_t at = 0;
  uint8_t preferred = 0;
  for (size_t i = 0; i < n; i++) {
    size_t e = at;
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
  ec_seek_init(&st->seek, a, texts, n, SEEK_WORK_BUDGET);
  ec_error_code rc = locate(st);
  if (rc) return rc;
  ec_sort(st->runs, st->n_runs, sizeof *st->runs, by_start);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  const char *eol[4] = {"", "\n", "\r\n", "\r"};
  size_t src = 0;
  bool exhausted = false;
  for (size_t r = 0; r < st->n_runs; r++) {
    const cp_run *run = &st->runs[r];
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
  if (!out->ptr) return oom(ctx);
  return EC_OK;
}

/* Section - editcore output: splices on the workspace doc */

static ec_error_code update_editcore(cp_state *st, ec_doc *next) {
  ec_ctx *ctx = st->ctx;
  ec_arena *a = ctx->arena;
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, st->f, &doc);
  if (rc) { set_where(ctx, st->path, st->hunk, st->h->line); return rc; }
  size_t n = 0;
  for (size_t i = 0; i < doc->len; i++) n += doc->text[i] == '\n';
  bool unterminated = doc->len && doc->text[doc->len - 1] != '\n';
  if (unterminated) n++;
  ec_str *texts = ec_arena_alloc(a, (n + 1) * sizeof *texts);
  size_t *starts = ec_arena_alloc(a, (n + 1) * sizeof *starts);
  if (!texts || !starts) return oom(ctx);
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
  ec_seek_init(&st->seek, a, texts, n, SEEK_WORK_BUDGET);
  rc = locate(st);
  if (rc) return rc;
  ec_sort(st->runs, st->n_runs, sizeof *st->runs, by_start);
  ec_splice *sp = ec_arena_alloc(a, (st->n_runs + 1) * sizeof *sp);
  if (!sp) return oom(ctx);
  size_t ns = 0, last_end = 0;
  for (size_t r = 0; r < st->n_runs; r++) {
    const cp_run *run = &st->runs[r];
    size_t s = starts[run->start], e = starts[run->start + run->old_len];
    bool at_end = run->start + run->old_len == n;
    ec_str text;
    if (unterminated && at_end && run->old_len) {
      /* the run replaces the unterminated last line: keep it unterminated */
      text = join_lines(a, run->new_lines, run->n_new, false);
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
      text = join_lines(a, run->new_lines, run->n_new, true);
    }
    if (!text.ptr) return oom(ctx);
    sp[ns].start = s;
    sp[ns].end = e;
    sp[ns].text = text;
    ns++;
    last_end = e;
  }
  if (ec_doc_splice(a, doc, sp, ns, next)) return oom(ctx);
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
    set_where(ctx, h->path, hi, h->line);
    return rc;
  }
  size_t fi = file_index(ctx, f);
  if (!codex && h->move_to.len && !ec_str_eq(h->move_to, h->path)) {
    ec_ws_file *d = ec_ws_find(ctx, h->move_to);
    if (d && d->exists) {
      rc = ec_fail(ctx, EC_FILE_EXISTS, "hunk %zu: '*** Move to: %.*s' would overwrite an existing file. Nothing was changed. Delete it first "
                   "with '*** Delete File: %.*s', or move to another path.",
                   hi + 1, (int)h->move_to.len, h->move_to.ptr, (int)h->move_to.len, h->move_to.ptr);
      set_where(ctx, h->path, hi, h->line);
      return rc;
    }
  }
  cp_state st;
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
    if (ec_doc_load(ctx->arena, out, &next)) {
      rc = ec_fail(ctx, EC_BINARY_FILE, "the new content of '%.*s' holds NUL bytes", (int)h->path.len, h->path.ptr);
      set_where(ctx, h->path, hi, h->line);
      return rc;
    }
  } else {
    rc = update_editcore(&st, &next);
    if (rc) return rc;
  }
  f = &ctx->files[fi];
  f->replacements += (uint32_t)h->n_chunks;
  if (!h->move_to.len) {
    ec_ws_set(ctx, f, &next);
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
      set_where(ctx, h->path, hi, h->line);
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
    set_where(ctx, h->path, hi, h->line);
    return rc;
  }
  rc = ec_ws_set_bytes(ctx, f, h->content);
  if (rc) set_where(ctx, h->path, hi, h->line);
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
  if (rc == EC_OUT_OF_MEMORY) return oom(ctx);
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
  if (!failed) return oom(ctx);
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
    if (!now.ptr) return oom(ctx);
    changed = !ec_str_eq(now, f->original);
  }
  if (!changed)
    return ec_fail(ctx, EC_NOOP, "The patch changes nothing: every file would stay as it is (its '+' lines equal its '-' lines). "
                                 "Nothing was changed.");
  return EC_OK;
}
