/*
 * The first stage of the codex_patch format: where each chunk of a `*** Update File` hunk goes.
 * Each chunk's @@ context lines are found in order, then its old lines (context and removed) with
 * Codex's sequence search (parse/codex_seek.h) forward from the previous chunk; the result is a
 * list of runs (file lines replaced by new lines) that formats/codex_patch.c writes out in the
 * Codex or the editcore way. The profile rules for finding are here: Codex's retry without a
 * trailing blank line, and editcore's refusals (a place that is not unique, chunks that overlap,
 * indentation that differs other than by one uniform shift) and its re-indenting of added lines.
 */
#include "codex_locate.h"
#include "../base/buf.h"
#include "../base/sort.h"
#include "../base/str.h"
#include "../match/lineutil.h"
#include "../messages/report.h"
#include <string.h>


void ec_cp_where(ec_ctx *ctx, ec_str path, size_t hunk, uint32_t line) {
  ec_error *e = ec_last_error(ctx);
  if (!e) return;
  e->path = path;
  e->block = (int32_t)hunk + 1;
  e->line = line;
}

static ec_error_code push_run(ec_cp_locator *st, size_t start, size_t old_len, ec_str *new_lines, size_t n_new) {
  if (!EC_ARENA_RESERVE(st->ctx->arena, st->runs, st->n_runs, st->cap_runs, 16)) return ec_fail_oom(st->ctx);
  ec_cp_run *r = &st->runs[st->n_runs];
  r->start = start;
  r->old_len = old_len;
  r->new_lines = new_lines;
  r->n_new = n_new;
  r->seq = st->n_runs++;
  return EC_OK;
}

static ec_error_code seek_fail(ec_cp_locator *st, ec_error_code rc, const ec_cp_chunk *c) {
  if (rc == EC_TOO_LARGE) {
    rc = ec_fail(st->ctx, EC_TOO_LARGE, "locating the chunks of '%.*s' took more than %u window comparisons; split the patch or give @@ context lines",
                 (int)st->path.len, st->path.ptr, EC_CP_SEEK_BUDGET);
    ec_cp_where(st->ctx, st->path, st->hunk, c->line);
    return rc;
  }
  return ec_fail_oom(st->ctx);
}

/*
 * editcore: the lines matched at the trim levels may be indented differently from the file. When
 * the difference is one uniform prefix change (patch prefix p → file prefix q on every non-blank
 * line), the added lines get the same change; otherwise NO_MATCH naming the first odd line.
 */
static ec_error_code reindent(ec_cp_locator *st, const ec_cp_chunk *c, const ec_cp_line *items, size_t n_items, size_t pos,
                              ec_str *news, size_t n_new, bool *changed) {
  *changed = false;
  ec_str p = {NULL, 0}, q = {NULL, 0};
  bool have = false, differs = false;
  size_t oi = 0;
  for (size_t k = 0; k < n_items; k++) {
    if (items[k].kind == '+') continue;
    ec_str pl = items[k].text, fl = st->lines[pos + oi++];
    if (!ec_u8_trim(pl).len) continue;
    ec_str pi = ec_line_indent(pl), fi = ec_line_indent(fl);
    if (!ec_str_eq(pi, fi)) differs = true;
    if (!have || pi.len < p.len) { p = pi; q = fi; have = true; }
  }
  if (!differs || !have) return EC_OK;
  oi = 0;
  for (size_t k = 0; k < n_items; k++) {
    if (items[k].kind == '+') continue;
    ec_str pl = items[k].text, fl = st->lines[pos + oi++];
    if (!ec_u8_trim(pl).len) continue;
    ec_str pi = ec_line_indent(pl), fi = ec_line_indent(fl);
    bool ok = pi.len >= p.len && memcmp(pi.ptr, p.ptr, p.len) == 0 && fi.len == q.len + (pi.len - p.len) &&
              memcmp(fi.ptr, q.ptr, q.len) == 0 && memcmp(fi.ptr + q.len, pi.ptr + p.len, pi.len - p.len) == 0;
    if (!ok) {
      ec_error_code rc = ec_fail(st->ctx, EC_NO_MATCH,
                                 "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: its lines match lines %zu-%zu of the file only with "
                                 "different indentation, and not by one uniform shift: the file's line %zu is '%.*s%s' where the patch has '%.*s%s'. "
                                 "Nothing was changed; copy the lines with the file's exact indentation.",
                                 st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, pos + 1, pos + oi, pos + oi,
                                 ec_echo_len(fl), fl.ptr, ec_echo_more(fl), ec_echo_len(pl), pl.ptr, ec_echo_more(pl));
      ec_cp_where(st->ctx, st->path, st->hunk, c->line);
      return rc;
    }
  }
  for (size_t k = 0; k < n_new; k++) {
    ec_str s = news[k];
    if (!ec_u8_trim(s).len || s.len < p.len || memcmp(s.ptr, p.ptr, p.len) != 0) continue;
    char *b = ec_arena_alloc(st->ctx->arena, q.len + s.len - p.len + 1);
    if (!b) return ec_fail_oom(st->ctx);
    memcpy(b, q.ptr, q.len);
    memcpy(b + q.len, s.ptr + p.len, s.len - p.len);
    b[q.len + s.len - p.len] = 0;
    news[k] = ec_str_make(b, q.len + s.len - p.len);
  }
  *changed = true;
  return EC_OK;
}

ec_str ec_cp_join_lines(ec_arena *a, const ec_str *ls, size_t n, bool final_lf) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = 0; i < n; i++) {
    ec_buf_append_str(&b, ls[i]);
    if (i + 1 < n || final_lf) ec_buf_append_char(&b, '\n');
  }
  return ec_buf_finish(&b, a);
}

static ec_error_code not_found_lines(ec_cp_locator *st, const ec_cp_chunk *c, const ec_str *old, size_t m, const ec_str *news,
                                     size_t n_new, size_t from) {
  ec_ctx *ctx = st->ctx;
  ec_error_code rc;
  if (st->codex) {
    ec_str body = ec_cp_join_lines(ctx->arena, old, m, false);
    if (!body.ptr) return ec_fail_oom(ctx);
    rc = ec_fail(ctx, EC_NO_MATCH, "Failed to find expected lines in %.*s:\n%.*s", (int)st->path.len, st->path.ptr,
                 (int)body.len, body.ptr);
    ec_cp_where(ctx, st->path, st->hunk, c->line);
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
      ec_cp_where(ctx, st->path, st->hunk, c->line);
      return rc;
    }
  }
  ec_doc *doc;
  rc = ec_ws_doc(ctx, st->f, &doc);
  if (rc) return rc;
  ec_match_env env;
  ec_match_env_init(&env, ctx->arena, doc->text, doc->len, &ctx->opt, ctx->req->profile);
  ec_str old_text = ec_cp_join_lines(ctx->arena, old, m, true);
  if (!old_text.ptr) return ec_fail_oom(ctx);
  ec_diagnosis d;
  if (ec_diagnose_no_match(&env, old_text, &d)) return ec_fail_oom(ctx);
  ec_str where = c->eof ? ec_cstr(" at the end of the file (the chunk ends with '*** End of File')")
                 : from ? ec_arena_printf(ctx->arena, " after line %zu, where the previous chunk or @@ context left off (chunks must be in file order)", from)
                        : ec_cstr("");
  if (!where.ptr) return ec_fail_oom(ctx);
  rc = ec_fail(ctx, EC_NO_MATCH, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: its %zu old line%s (' ' and '-' lines) "
               "%s not found%.*s. Nothing was changed. %.*s%s",
               st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, m, m == 1 ? "" : "s", m == 1 ? "was" : "were",
               (int)where.len, where.ptr,
               (int)d.detail.len, d.detail.ptr ? d.detail.ptr : "",
               d.detail.len ? "" : "Read the file again and copy the context and removed lines exactly, in file order.");
  ec_cp_where(ctx, st->path, st->hunk, c->line);
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

/* Runs in file order; runs at one place keep the patch's order. */
static int by_start(const void *x, const void *y) {
  const ec_cp_run *a = x, *b = y;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

ec_error_code ec_cp_locate(ec_cp_locator *st) {
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
                       st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, ec_echo_len(x), x.ptr, ec_echo_more(x),
                       cursor ? " after line " : "", cursor);
        if (!st->codex && !cursor) {
          ec_error *e = ec_last_error(ctx);
          ec_str msg = ec_arena_printf(a, "hunk %zu ('*** Update File: %.*s'), chunk at patch line %u: the @@ context line '%.*s%s' is not a "
                                       "line of the file. Nothing was changed. The text after '@@ ' must be a line of the file (e.g. a "
                                       "function or class header) that comes before the chunk.",
                                       st->hunk + 1, (int)st->path.len, st->path.ptr, c->line, ec_echo_len(x), x.ptr, ec_echo_more(x));
          if (e && msg.ptr) e->message = msg;
        }
        ec_cp_where(ctx, st->path, st->hunk, c->line);
        return EC_NO_MATCH;
      }
      cursor = pos + 1;
    }
    /* old (context + removed) and new (context + added) line lists, as the chunk gives them */
    size_t n_items = c->n_lines;
    ec_cp_line *items = ec_arena_alloc(a, (n_items + 1) * sizeof *items);
    if (!items) return ec_fail_oom(ctx);
    if (n_items) memcpy(items, c->lines, n_items * sizeof *items);
    size_t m = 0, n_new = 0;
    for (size_t k = 0; k < n_items; k++) { m += items[k].kind != '+'; n_new += items[k].kind != '-'; }

    if (!m) {
      size_t at = st->codex || c->eof || !c->n_contexts ? st->n : cursor;
      ec_str *news = ec_arena_alloc(a, (n_new + 1) * sizeof *news);
      if (!news) return ec_fail_oom(ctx);
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
    if (!old || !news) return ec_fail_oom(ctx);
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
          ec_cp_where(ctx, st->path, st->hunk, c->line);
          return EC_AMBIGUOUS;
        }
      }
      if (pos < prev_end) goto overlap;
      if (lv >= EC_SEEK_TRIM) {
        /* re-indent the added lines only (context lines keep the file's text) */
        bool changed;
        ec_str *added = ec_arena_alloc(a, (n_items + 1) * sizeof *added);
        if (!added) return ec_fail_oom(ctx);
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
      if (!add) return ec_fail_oom(ctx);
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
    ec_cp_where(ctx, st->path, st->hunk, c->line);
    return EC_NO_MATCH;
  }
  ec_sort(st->runs, st->n_runs, sizeof *st->runs, by_start);
  return EC_OK;
}
