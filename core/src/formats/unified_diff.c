/*
 * Format `unified_diff`: {text}. The diff is parsed tolerantly (parse/udiff_parse.h); then, in
 * the editcore profile, every hunk is located by its unchanged and removed lines, never by its
 * line numbers (models rarely get them right):
 *   - hunks of a file apply in order, each in the text its predecessors produced, so hunks whose
 *     context overlaps still apply; a match must start at a line start;
 *   - the ladder of the profile (or options.strategies) is climbed per hunk; a looser strategy's
 *     match keeps the file's own text on unchanged lines;
 *   - when the old lines fit several places, the one at the header's stated line is taken only
 *     when the stated line is exactly right (in the file's original numbering); otherwise
 *     AMBIGUOUS listing every place;
 *   - a hunk whose old lines are absent but whose new lines are present (once) is already
 *     applied and skipped; a diff that is entirely applied already is NOOP;
 *   - a hunk that only adds lines and has no unchanged line cannot be placed: MALFORMED_EDIT
 *     (unless the file is empty);
 *   - `--- /dev/null` creates, `+++ /dev/null` deletes (the removed lines must be the whole
 *     file), `rename from`/`rename to` moves; `\ No newline at end of file` on a hunk that reaches
 *     the end of the file sets whether the file ends in a newline, which is otherwise kept;
 *   - all or nothing: the first failing hunk fails the request, with error.path, error.block
 *     (the hunk's number in the whole diff) and error.line (its @@ line in the diff).
 */
#include "../match/line_breaks.h"
#include "formats.h"
#include "../request/profiles.h"
#include "../messages/report.h"
#include "../base/str.h"
#include "../base/buf.h"
#include "../parse/udiff_parse.h"
#include "udiff_text.h"
#include <string.h>

#define WORK_BUDGET ((uint64_t)1 << 30) /* bytes scanned over all hunks of a request */

typedef struct ud_run {
  ec_ctx *ctx;
  ec_strategy order[EC_STRATEGY__COUNT];
  const ec_strategy *ladder;
  size_t n_ladder;
  uint32_t hunk_no;     /* hunks seen so far, over the whole diff */
  size_t effective;     /* hunks and file operations that change something */
  size_t noop;          /* hunks found already applied */
  uint64_t work;
} ud_run;


static void set_where(ec_ctx *ctx, ec_str path, uint32_t block, uint32_t line) {
  ec_error *e = ec_last_error(ctx);
  if (!e) return;
  if (path.len) e->path = path;
  if (block) e->block = (int32_t)block;
  if (line) e->line = line;
}

/* ---------- paths ---------- */

static ec_ws_file *existing(ec_ctx *ctx, ec_str p) {
  if (!p.len) return NULL;
  ec_ws_file *f = ec_ws_find(ctx, p);
  return f && f->exists ? f : NULL;
}

/* The file a header path names: as written, then without ./ and without a git a/ or b/ prefix. */
static ec_ws_file *find_named(ec_ctx *ctx, const ec_ud_file *uf, ec_str raw) {
  if (uf->exact_paths) return existing(ctx, ec_ud_strip_dot(raw)); /* a strip level said what the name is */
  ec_ws_file *f = existing(ctx, raw);
  if (f) return f;
  ec_str s = ec_ud_strip_dot(raw);
  if ((f = existing(ctx, s))) return f;
  if (ec_str_starts_with(s, "a/") || ec_str_starts_with(s, "b/")) return existing(ctx, ec_ud_strip_dot(ec_str_drop(s, 2)));
  return NULL;
}

/* The name a new file gets: git's prefix dropped when the diff is git-style. */
static ec_str new_name(const ec_ud_file *uf, ec_str raw) {
  ec_str s = ec_ud_strip_dot(raw);
  if (uf->exact_paths) return s;
  bool gitty = uf->git || ec_str_starts_with(uf->old_path, "a/") || (uf->old_null && ec_str_starts_with(s, "b/"));
  if (gitty && (ec_str_starts_with(s, "b/") || ec_str_starts_with(s, "a/"))) s = ec_ud_strip_dot(ec_str_drop(s, 2));
  return s;
}

/* ---------- text helpers ---------- */

/* One side of a hunk as text: the lines whose kind is not `skip`, each ending in LF. */
static ec_str side_text(ec_ctx *ctx, const ec_ud_hunk *h, char skip) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  for (size_t i = 0; i < h->n_lines; i++) {
    if (h->lines[i].kind == skip) continue;
    ec_buf_append_line(&b, h->lines[i].text);
  }
  ec_str s = ec_buf_finish(&b, ctx->arena);
  if (!s.ptr && !b.oom) s.ptr = "";
  return s;
}

/* Splits LF-terminated text into lines (without LF); NULL when the count differs from want. */
static ec_str *split_exact(ec_arena *a, ec_str t, size_t want) {
  if (ec_count_lf(t.ptr, t.len) != want || (t.len && t.ptr[t.len - 1] != '\n') || (!t.len && want)) return NULL;
  ec_str *l = ec_arena_alloc(a, (want + 1) * sizeof *l);
  if (!l) return NULL;
  size_t s = 0, k = 0;
  for (size_t i = 0; i < t.len; i++)
    if (t.ptr[i] == '\n') { l[k].ptr = t.ptr + s; l[k].len = i - s; k++; s = i + 1; }
  return l;
}

/*
 * After a loose match, unchanged lines keep the file's bytes: the replacement's lines that stand
 * for the hunk's ' ' lines are swapped for the matched lines. Left as is when the shapes differ.
 */
static ec_str keep_file_context(ec_ctx *ctx, const ec_ud_hunk *h, ec_str matched, ec_str repl) {
  size_t n_old = h->n_context + h->n_remove, n_new = h->n_context + h->n_add;
  ec_str *ml = split_exact(ctx->arena, matched, n_old), *rl = split_exact(ctx->arena, repl, n_new);
  if (!ml || !rl) return repl;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  size_t io = 0, in = 0;
  for (size_t i = 0; i < h->n_lines; i++) {
    char k = h->lines[i].kind;
    if (k == ' ') { ec_buf_append_line(&b, ml[io]); io++; in++; }
    else if (k == '-') io++;
    else { ec_buf_append_line(&b, rl[in]); in++; }
  }
  ec_str s = ec_buf_finish(&b, ctx->arena);
  return s.ptr ? s : repl;
}

/* ---------- locating and applying hunks ---------- */

static ec_error_code over_budget(ud_run *r, ec_ws_file *f, const ec_ud_file *uf, const ec_ud_hunk *h, const ec_ud_text *t) {
  ec_error_code rc = ec_fail(r->ctx, EC_TOO_LARGE, "applying %zu hunks to '%.*s' (%zu bytes) would scan more than %llu bytes; split "
                             "the diff into smaller requests", uf->n_hunks, (int)f->path.len, f->path.ptr, ec_ud_text_size(t),
                             (unsigned long long)WORK_BUDGET);
  set_where(r->ctx, f->path, r->hunk_no, h->line);
  return rc;
}


/* Keeps the matches that start at a line start (exact matching is byte-wise). */
static size_t keep_aligned(const char *p, ec_found_list *l) {
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++) {
    size_t s = l->items[i].start;
    if (s == 0 || p[s - 1] == '\n') l->items[k++] = l->items[i];
  }
  l->n = k;
  l->total = k;
  return k;
}

/* The shared diagnosis speaks of old_string; in a diff it is the hunk. */
static void reword(ec_ctx *ctx) {
  ec_error *e = ec_last_error(ctx);
  if (!e || !e->message.ptr) return;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  ec_str m = e->message;
  static const char W[] = "old_string";
  for (size_t i = 0; i < m.len;) {
    if (m.len - i >= sizeof W - 1 && !memcmp(m.ptr + i, W, sizeof W - 1)) { ec_buf_append_cstr(&b, "the hunk"); i += sizeof W - 1; }
    else ec_buf_append_char(&b, m.ptr[i++]);
  }
  ec_str out = ec_buf_finish(&b, ctx->arena);
  if (out.ptr) e->message = out;
}

static ec_error_code ambiguous(ud_run *r, ec_ws_file *f, const ec_ud_hunk *h, const ec_found_list *l, ec_strategy used,
                               const ec_ud_text *t) {
  ec_ctx *ctx = r->ctx;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  size_t shown = l->n < 20 ? l->n : 20;
  for (size_t i = 0; i < shown; i++) {
    int64_t s = ec_ud_text_orig(t, l->items[i].start_line - 1);
    int64_t e = s + (int64_t)(l->items[i].end_line - l->items[i].start_line);
    if (i) ec_buf_append_cstr(&b, ", ");
    if (s == e) ec_buf_printf(&b, "%lld", (long long)s);
    else ec_buf_printf(&b, "%lld-%lld", (long long)s, (long long)e);
  }
  if (l->n > shown) ec_buf_printf(&b, " and %zu more", l->n - shown);
  ec_str places = ec_buf_finish(&b, ctx->arena);
  ec_str stated = h->has_numbers ? ec_arena_printf(ctx->arena, " The header says line %u, which is none of them.", h->old_start)
                                 : ec_cstr("");
  ec_fail(ctx, EC_AMBIGUOUS,
          "hunk %u (line %u of the diff) fits %zu places in '%.*s' (%s%s, lines %.*s); nothing was changed.%.*s Add unchanged "
          "lines around the change so the hunk fits one place only, or give its exact line numbers in the @@ header.",
          r->hunk_no, h->line, l->n, (int)f->path.len, f->path.ptr, used == EC_STRATEGY_EXACT ? "exactly" : "with strategy ",
          used == EC_STRATEGY_EXACT ? "" : ec_strategy_name(used), (int)places.len, places.ptr ? places.ptr : "",
          (int)stated.len, stated.ptr ? stated.ptr : "");
  set_where(ctx, f->path, r->hunk_no, h->line);
  return EC_AMBIGUOUS;
}

/* Drops the whole lines a replacement keeps at its start and end (they keep their own line endings). */
static void trim_kept_lines(const ec_doc *doc, ec_splice *s) {
  for (;;) {
    const char *a = memchr(doc->text + s->start, '\n', s->end - s->start);
    if (!a) break;
    size_t n = (size_t)(a - (doc->text + s->start)) + 1;
    if (n > s->text.len || memcmp(doc->text + s->start, s->text.ptr, n)) break;
    s->start += n;
    s->text.ptr += n;
    s->text.len -= n;
  }
  while (s->end > s->start && s->text.len) {
    size_t ls = s->end - 1;
    while (ls > s->start && doc->text[ls - 1] != '\n') ls--;
    size_t n = s->end - ls;
    if (n > s->text.len || memcmp(doc->text + ls, s->text.ptr + s->text.len - n, n)) break;
    if (s->text.len > n && s->text.ptr[s->text.len - n - 1] != '\n') break;
    s->end = ls;
    s->text.len -= n;
  }
}

/* Applies the hunks of uf to f, in order. */
static ec_error_code apply_hunks(ud_run *r, ec_ws_file *f, const ec_ud_file *uf) {
  ec_ctx *ctx = r->ctx;
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) { set_where(ctx, f->path, 0, 0); return rc; }
  bool final_eol = doc->len == 0 || doc->text[doc->len - 1] == '\n';
  const bool final_eol0 = final_eol;
  ec_ud_text t;
  memset(&t, 0, sizeof t);
  t.p = doc->text;
  t.len = doc->len;
  t.virt = !final_eol;
  t.is_doc = true;
  size_t n_lf = ec_count_lf(doc->text, doc->len);
  if (n_lf + 1 >= UINT32_MAX) return ec_fail(ctx, EC_TOO_LARGE, "'%.*s' has too many lines", (int)f->path.len, f->path.ptr);
  t.n_lines = (uint32_t)(n_lf + (t.virt ? 1 : 0));
  size_t before_effective = r->effective;

  for (size_t k = 0; k < uf->n_hunks; k++) {
    const ec_ud_hunk *h = &uf->hunks[k];
    r->hunk_no++;
    ec_str old_text = side_text(ctx, h, '+'), new_text = side_text(ctx, h, '-');
    if (!old_text.ptr || !new_text.ptr) return ec_fail_oom(ctx);
    /* A diff of a file that starts with a UTF-8 BOM quotes it as the first bytes of line 1 (git,
     * patch and editcore's own diff and undo see the file's bytes); the doc holds the BOM apart
     * from the text, so a hunk at line 1 whose two sides both start with it is read without it.
     * One side only would add or remove the BOM, which the doc cannot say: refused, as before. */
    if (doc->bom && h->old_start <= 1 && ec_str_starts_with(old_text, "\xEF\xBB\xBF") && ec_str_starts_with(new_text, "\xEF\xBB\xBF")) {
      old_text = ec_str_drop(old_text, 3);
      new_text = ec_str_drop(new_text, 3);
    }

    ec_found_list found = {0};
    found.limit = ctx->opt.limits.max_lines;
    ec_strategy used = EC_STRATEGY_EXACT;
    bool decided;
    if (r->n_ladder && r->ladder[0] == EC_STRATEGY_EXACT &&
        (rc = ec_ud_text_find_exact(ctx, &t, h, old_text, new_text, &r->work, WORK_BUDGET, &found, &decided)))
      return rc == EC_OUT_OF_MEMORY ? ec_fail_oom(ctx) : over_budget(r, f, uf, h, &t);
    if (r->work > WORK_BUDGET) return over_budget(r, f, uf, h, &t);
    size_t n_ok = found.n;

    if (!decided) {
      /* The general path: the whole current text, the whole ladder. */
      if ((rc = ec_ud_text_flush(ctx, &t))) return rc == EC_OUT_OF_MEMORY ? ec_fail_oom(ctx) : over_budget(r, f, uf, h, &t);
      r->work += t.len + 1;
      if (r->work > WORK_BUDGET) return over_budget(r, f, uf, h, &t);
      if (!old_text.len) {
        /* Only added lines and no unchanged line: placeable only in an empty file. */
        if (t.len) {
          rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                       "hunk %u (line %u of the diff) only adds lines and has no unchanged line to show where they go in '%.*s'; "
                       "nothing was changed. Include 2-3 unchanged lines (prefixed with a space) above or below the added lines.",
                       r->hunk_no, h->line, (int)f->path.len, f->path.ptr);
          set_where(ctx, f->path, r->hunk_no, h->line);
          return rc;
        }
        if (h->new_no_eol || h->old_no_eol) final_eol = !h->new_no_eol;
        if (ec_ws_add_match(ctx, f, 1, h->n_add ? h->n_add : 1, EC_STRATEGY_EXACT, 1.0)) return EC_OUT_OF_MEMORY;
        ec_ud_text_drop_index(ctx, &t);
        t.p = new_text.ptr;
        t.len = new_text.len;
        t.virt = t.is_doc = t.owned = false;
        t.n_lines = (uint32_t)ec_count_lf(new_text.ptr, new_text.len);
        t.orig = NULL;
        r->effective++;
        f->replacements++;
        continue;
      }
      ec_match_env env;
      ec_match_env_init(&env, ctx->arena, t.p, t.len, &ctx->opt, ctx->req->profile);
      found.n = found.total = 0;
      rc = ec_ladder_find(&env, r->ladder, r->n_ladder, old_text, new_text, &found, &used);
      if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
      if (rc) {
        rc = ec_fail(ctx, rc, "%.*s", (int)env.message.len, env.message.ptr ? env.message.ptr : "matching stopped");
        set_where(ctx, f->path, r->hunk_no, h->line);
        return rc;
      }
      if (found.total > found.n) {
        rc = ec_fail(ctx, EC_TOO_LARGE, "hunk %u fits more than %zu places; the limit is options.limits.max_lines", r->hunk_no, found.n);
        set_where(ctx, f->path, r->hunk_no, h->line);
        return rc;
      }
      n_ok = keep_aligned(t.p, &found);
      if (!n_ok) {
        /* Already applied? The new lines are there, once, and they say something the old did not. */
        if (new_text.len && (h->n_add || h->n_context >= 2)) {
          ec_found_list again = {0};
          if (ec_strategy_exact(&env, new_text, old_text, &again)) return ec_fail_oom(ctx);
          if (keep_aligned(t.p, &again) == 1) {
            r->noop++;
            continue;
          }
        }
        ec_str what = ec_arena_printf(ctx->arena, "hunk %u (line %u of the diff: its unchanged and removed lines)", r->hunk_no, h->line);
        rc = ec_report_no_match(ctx, &env, f, what.ptr ? what.ptr : "a hunk", old_text);
        set_where(ctx, f->path, r->hunk_no, h->line);
        reword(ctx);
        return rc;
      }
    } else if (found.total > found.n) {
      rc = ec_fail(ctx, EC_TOO_LARGE, "hunk %u fits more than %zu places; the limit is options.limits.max_lines", r->hunk_no, found.n);
      set_where(ctx, f->path, r->hunk_no, h->line);
      return rc;
    }

    size_t pick = 0;
    if (n_ok > 1) {
      size_t hits = 0;
      if (h->has_numbers && h->old_start > 0)
        for (size_t i = 0; i < n_ok; i++)
          if (ec_ud_text_orig(&t, found.items[i].start_line - 1) == (int64_t)h->old_start) { pick = i; hits++; }
      if (hits != 1) return ambiguous(r, f, h, &found, used, &t);
    }
    ec_found m = found.items[pick];
    ec_str matched = decided ? old_text : (ec_str){t.p + m.start, m.end - m.start};
    ec_str repl = m.replacement;
    if (m.strategy != EC_STRATEGY_EXACT) repl = keep_file_context(ctx, h, matched, repl);
    if (!decided && ctx->req->profile == EC_PROFILE_EDITCORE && ec_frame_applies(m.strategy)) {
      /* A blank context line at either end of the hunk (match/line_breaks.h) */
      ec_str why = {NULL, 0};
      rc = ec_frame_line_breaks(ctx->arena, t.p, t.len, old_text, new_text, 0, t.len, &m.start, &m.end, &repl, &why);
      if (!rc) rc = ec_check_inner_blank_lines(ctx->arena, (ec_str){t.p + m.start, m.end - m.start}, old_text, new_text, repl, &why);
      if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
      if (rc) {
        rc = ec_fail(ctx, rc, "hunk %u (line %u of the diff) matches by %s, but %.*s Nothing was changed.", r->hunk_no, h->line,
                     ec_strategy_name(m.strategy), (int)why.len, why.ptr);
        set_where(ctx, f->path, r->hunk_no, h->line);
        return rc;
      }
      matched = (ec_str){t.p + m.start, m.end - m.start};
    }
    if ((h->old_no_eol || h->new_no_eol) && m.end == ec_ud_text_size(&t)) final_eol = !h->new_no_eol;

    uint32_t m_old = (uint32_t)ec_count_lf(matched.ptr, matched.len);
    int64_t orig = ec_ud_text_orig(&t, m.start_line - 1);
    if (ec_ws_add_match(ctx, f, (uint32_t)(orig > 0 ? orig : 1), (uint32_t)(orig > 0 ? orig : 1) + (m_old ? m_old - 1 : 0),
                        m.strategy, m.confidence))
      return EC_OUT_OF_MEMORY;
    if (!ec_str_eq(matched, repl)) r->effective++;
    f->replacements++;
    if (ec_ud_text_add_splice(ctx, &t, m.start, m.end, m.start_line - 1, repl)) return ec_fail_oom(ctx);
  }

  bool direct = t.is_doc && final_eol == final_eol0 && (!t.n_sp || t.sp[t.n_sp - 1].end <= doc->len);
  if (direct) {
    /* Every hunk in the file's own text: one batch of splices, the unchanged lines untouched. */
    ec_splice *sp = ec_arena_alloc(ctx->arena, (t.n_sp + 1) * sizeof *sp);
    if (!sp) return ec_fail_oom(ctx);
    size_t n = 0;
    for (size_t i = 0; i < t.n_sp; i++) {
      ec_splice s = {t.sp[i].start, t.sp[i].end, t.sp[i].text};
      if (ec_str_eq((ec_str){doc->text + s.start, s.end - s.start}, s.text)) continue;
      if (!t.dirty) trim_kept_lines(doc, &s);
      sp[n++] = s;
    }
    if (!n) return EC_OK;
    ec_doc next;
    if (ec_doc_splice(ctx->arena, doc, sp, n, &next)) return ec_fail_oom(ctx);
    ec_ud_text_drop_index(ctx, &t);
    ec_ws_replace_doc(ctx, f, &next); /* t reads the old doc no more */
    if (r->effective == before_effective) r->effective++;
    return EC_OK;
  }

  if ((rc = ec_ud_text_flush(ctx, &t))) return rc == EC_OUT_OF_MEMORY ? ec_fail_oom(ctx) : rc;
  ec_ud_text_drop_index(ctx, &t);
  ec_str w = {t.p, t.len};
  if (!final_eol && w.len && w.ptr[w.len - 1] == '\n') w.len--;
  if (w.len == doc->len && !memcmp(w.ptr, doc->text, w.len)) return EC_OK;
  /* Splice only the changed lines, so untouched lines keep their endings. */
  ec_doc next;
  if (ec_doc_replace_lines(ctx->arena, doc, 0, doc->len, w, &next)) return ec_fail_oom(ctx);
  ec_ws_set(ctx, f, &next);
  if (r->effective == before_effective) r->effective++; /* only the final newline changed */
  return EC_OK;
}

/* ---------- file operations ---------- */

static bool only_adds(const ec_ud_file *uf) {
  for (size_t k = 0; k < uf->n_hunks; k++)
    if (uf->hunks[k].n_context || uf->hunks[k].n_remove) return false;
  return true;
}

static ec_error_code create_file(ud_run *r, const ec_ud_file *uf, ec_str name) {
  ec_ctx *ctx = r->ctx;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  bool no_eol = false;
  for (size_t k = 0; k < uf->n_hunks; k++) {
    const ec_ud_hunk *h = &uf->hunks[k];
    for (size_t i = 0; i < h->n_lines; i++) {
      ec_buf_append_line(&b, h->lines[i].text);
    }
    no_eol = h->new_no_eol;
  }
  r->hunk_no += (uint32_t)uf->n_hunks;
  ec_str text = ec_buf_finish(&b, ctx->arena);
  if (!text.ptr) {
    if (b.oom) return ec_fail_oom(ctx);
    text = ec_cstr("");
  }
  if (no_eol && text.len) text.len--;
  ec_ws_file *f = ec_ws_get(ctx, name);
  if (!f) return ec_fail_oom(ctx);
  ec_error_code rc = ec_ws_set_bytes(ctx, f, text);
  if (rc) return rc;
  f->replacements = 1;
  r->effective++;
  return EC_OK;
}

static ec_error_code delete_file(ud_run *r, const ec_ud_file *uf, ec_ws_file *f) {
  ec_ctx *ctx = r->ctx;
  for (size_t k = 0; k < uf->n_hunks; k++) {
    if (uf->hunks[k].n_add) {
      ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                                 "hunk %u (line %u of the diff) adds lines to '%.*s', but the header '+++ /dev/null' deletes the file. "
                                 "To change the file, name it in the +++ line; to delete it, list its lines with '-' only.",
                                 r->hunk_no + (uint32_t)k + 1, uf->hunks[k].line, (int)f->path.len, f->path.ptr);
      set_where(ctx, f->path, r->hunk_no + (uint32_t)k + 1, uf->hunks[k].line);
      return rc;
    }
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) { set_where(ctx, f->path, 0, 0); return rc; }
  if (uf->n_hunks) {
    /* The removed lines must be the whole file. */
    size_t li = 0, di = 0; /* line number, byte offset in doc */
    for (size_t k = 0; k < uf->n_hunks; k++) {
      const ec_ud_hunk *h = &uf->hunks[k];
      for (size_t i = 0; i < h->n_lines; i++) {
        ec_str dl = {doc->text + di, 0};
        const char *lf = di < doc->len ? memchr(doc->text + di, '\n', doc->len - di) : NULL;
        dl.len = lf ? (size_t)(lf - dl.ptr) : doc->len - di;
        li++;
        if (di >= doc->len || !ec_str_eq(dl, h->lines[i].text)) {
          ec_str want = h->lines[i].text;
          if (want.len > 80) want.len = 80;
          if (dl.len > 80) dl.len = 80;
          if (di >= doc->len)
            rc = ec_fail(ctx, EC_NO_MATCH, "the diff deletes '%.*s', but hunk %zu removes more lines than the file has (%zu); "
                         "nothing was changed. Read the file again and list exactly its lines.",
                         (int)f->path.len, f->path.ptr, r->hunk_no + k + 1, li - 1);
          else
            rc = ec_fail(ctx, EC_NO_MATCH, "the diff deletes '%.*s', but its removed lines differ from the file at line %zu "
                         "(the file has '%.*s', the diff '%.*s'); nothing was changed. Read the file again and list exactly its lines.",
                         (int)f->path.len, f->path.ptr, li, (int)dl.len, dl.ptr, (int)want.len, want.ptr);
          set_where(ctx, f->path, r->hunk_no + (uint32_t)k + 1, h->line);
          return rc;
        }
        di += dl.len + (lf ? 1 : 0);
      }
    }
    if (di < doc->len) {
      rc = ec_fail(ctx, EC_NO_MATCH, "the diff deletes '%.*s', but removes only its first %zu lines; the file goes on after "
                   "them. Nothing was changed. To delete the file, list every line with '-'.",
                   (int)f->path.len, f->path.ptr, li);
      set_where(ctx, f->path, r->hunk_no + (uint32_t)uf->n_hunks, uf->hunks[uf->n_hunks - 1].line);
      return rc;
    }
  }
  r->hunk_no += (uint32_t)uf->n_hunks;
  ec_ws_delete(ctx, f);
  f->replacements = 1;
  r->effective++;
  return EC_OK;
}

static ec_error_code not_found(ud_run *r, const ec_ud_file *uf, ec_str name) {
  ec_ctx *ctx = r->ctx;
  ec_error_code rc = ec_fail(ctx, EC_NOT_FOUND,
                             "the diff edits '%.*s' (header at line %u), which is not among the files given; nothing was changed. "
                             "Check the path in the ---/+++ lines, or use '--- /dev/null' to create a new file.",
                             (int)name.len, name.ptr, uf->line);
  set_where(ctx, name, r->hunk_no + 1, uf->line);
  return rc;
}

static ec_error_code one_file(ud_run *r, const ec_ud_file *uf) {
  ec_ctx *ctx = r->ctx;
  if (!uf->has_header) {
    /* A reply's diff names its file outside the diff (a file-name line, the fence): the reply
     * passes it as edit.path, and a file part without headers edits that file, as its
     * parse_only listing says, never whichever single file happens to be given. */
    ec_str named = ctx->req->edit.path;
    if (named.len) {
      ec_ws_file *f = existing(ctx, named);
      if (f) return apply_hunks(r, f, uf);
      ec_error_code rc = ec_fail(ctx, EC_NOT_FOUND, "the diff's hunk at line %u has no ---/+++ header and edits '%.*s', the file named "
                                 "before the diff, which is not among the files given; nothing was changed.",
                                 uf->line, (int)named.len, named.ptr);
      set_where(ctx, named, r->hunk_no + 1, uf->line);
      return rc;
    }
    if (ctx->req->n_files != 1) {
      ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                                 "the hunk at line %u of the diff has no '--- a/path' / '+++ b/path' header, and files holds %zu "
                                 "entries, so it is not clear which file it edits. Put the header before the hunks.",
                                 uf->line, ctx->req->n_files);
      set_where(ctx, (ec_str){0, 0}, r->hunk_no + 1, uf->line);
      return rc;
    }
    return apply_hunks(r, &ctx->files[0], uf);
  }

  /* A header that names no file (a `diff --git` line git would not write, with no ---/+++ pair). */
  if (!uf->old_path.len && !uf->new_path.len && !uf->rename_to.len) {
    ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT, "the diff's file part at line %u names no file (its 'diff --git' line has no "
                               "'a/path b/path' and no ---/+++ lines follow); nothing was changed. Give it '--- a/path' and "
                               "'+++ b/path' lines.", uf->line);
    set_where(ctx, (ec_str){0, 0}, r->hunk_no + 1, uf->line);
    return rc;
  }

  /* Rename (git). */
  if (uf->rename_to.len && !uf->new_null) {
    ec_str from = uf->rename_from.len ? uf->rename_from : uf->old_path;
    ec_ws_file *f = find_named(ctx, uf, from);
    if (!f && !uf->rename_from.len) f = find_named(ctx, uf, ec_ud_strip_dot(from));
    if (!f) return not_found(r, uf, from);
    ec_str to = ec_ud_strip_dot(uf->rename_to);
    if (existing(ctx, to)) {
      ec_error_code rc = ec_fail(ctx, EC_FILE_EXISTS, "the diff renames '%.*s' to '%.*s', which already exists; nothing was changed.",
                                 (int)f->path.len, f->path.ptr, (int)to.len, to.ptr);
      set_where(ctx, to, 0, uf->line);
      return rc;
    }
    ec_error_code rc = apply_hunks(r, f, uf);
    if (rc) return rc;
    ec_doc *doc;
    if ((rc = ec_ws_doc(ctx, f, &doc))) return rc;
    ec_doc copy = *doc;
    ec_ws_set(ctx, f, &copy);
    f->moved_to = to;
    r->effective++;
    return EC_OK;
  }

  if (uf->new_null) {
    ec_str name = uf->old_path.len ? uf->old_path : uf->new_path;
    ec_ws_file *f = find_named(ctx, uf, name);
    if (!f) {
      ec_error_code rc = ec_fail(ctx, EC_NOT_FOUND, "the diff deletes '%.*s' (header at line %u), which is not among the files given "
                                 "(already deleted?); nothing was changed.", (int)name.len, name.ptr, uf->line);
      set_where(ctx, name, 0, uf->line);
      return rc;
    }
    return delete_file(r, uf, f);
  }

  ec_ws_file *f = NULL;
  if (!uf->old_null) f = find_named(ctx, uf, uf->old_path);
  if (!f) f = find_named(ctx, uf, uf->new_path);
  if (!f && uf->old_null) {
    ec_str name = new_name(uf, uf->new_path);
    if (!name.len) return not_found(r, uf, uf->new_path);
    if (!only_adds(uf)) {
      ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                                 "the diff creates '%.*s' ('--- /dev/null' at line %u) but its hunks have unchanged or removed "
                                 "lines; a new file's hunk has only '+' lines. Nothing was changed.",
                                 (int)name.len, name.ptr, uf->line);
      set_where(ctx, name, r->hunk_no + 1, uf->line);
      return rc;
    }
    return create_file(r, uf, name);
  }
  if (!f) {
    /* A file that is not there, and hunks that only add: the model means a new file. */
    if (uf->n_hunks && only_adds(uf)) {
      ec_str name = new_name(uf, uf->new_path.len ? uf->new_path : uf->old_path);
      if (name.len) return create_file(r, uf, name);
    }
    return not_found(r, uf, uf->old_path.len ? uf->old_path : uf->new_path);
  }
  if (uf->old_null && only_adds(uf)) {
    /* "--- /dev/null" for a file that exists: fine when it is empty or already has that content. */
    ec_doc *doc;
    ec_error_code rc = ec_ws_doc(ctx, f, &doc);
    if (rc) return rc;
    if (doc->len) {
      ec_buf b;
      ec_buf_init(&b, ec_arena_allocator(ctx->arena));
      for (size_t k = 0; k < uf->n_hunks; k++)
        for (size_t i = 0; i < uf->hunks[k].n_lines; i++) {
          ec_buf_append_line(&b, uf->hunks[k].lines[i].text);
        }
      ec_str want = ec_buf_finish(&b, ctx->arena);
      ec_str have = {doc->text, doc->len};
      bool same = want.ptr && (ec_str_eq(want, have) || (want.len == have.len + 1 && !memcmp(want.ptr, have.ptr, have.len)));
      if (same) {
        r->hunk_no += (uint32_t)uf->n_hunks;
        r->noop += uf->n_hunks;
        return EC_OK;
      }
      rc = ec_fail(ctx, EC_FILE_EXISTS, "the diff creates '%.*s' ('--- /dev/null' at line %u), but it already exists; nothing was "
                   "changed. To change it, send hunks with its current lines as context under '--- a/%.*s'.",
                   (int)f->path.len, f->path.ptr, uf->line, (int)f->path.len, f->path.ptr);
      set_where(ctx, f->path, r->hunk_no + 1, uf->line);
      return rc;
    }
  }
  return apply_hunks(r, f, uf);
}

ec_error_code ec_format_unified_diff(ec_ctx *ctx) {
  if (ctx->req->profile == EC_PROFILE_AIDER) return ec_aider_udiff(ctx);
  const ec_edit *e = &ctx->req->edit;
  if (!e->text.len) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text (the unified diff) is required for format 'unified_diff'");
  if (ec_str_has_nul(e->text)) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text may not hold NUL bytes");
  ec_str text = ec_text_normalize_eol(ctx->arena, e->text);
  if (!text.ptr) return ec_fail_oom(ctx);
  ec_ud_patch patch;
  ec_ud_error perr;
  ec_error_code rc = ec_udiff_read(ctx, text, &patch, &perr);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) {
    rc = ec_fail(ctx, rc, "%.*s", (int)perr.message.len, perr.message.ptr);
    set_where(ctx, (ec_str){0, 0}, 0, perr.line);
    return rc;
  }
  ud_run r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.ladder = ctx->opt.strategies;
  r.n_ladder = ctx->opt.n_strategies;
  if (!r.ladder) { r.n_ladder = ec_profile_strategies(ctx->req->profile, r.order); r.ladder = r.order; }
  for (size_t i = 0; i < patch.n_files; i++) {
    rc = one_file(&r, &patch.files[i]);
    if (rc) return rc;
  }
  if (!r.effective) {
    if (r.noop)
      return ec_fail(ctx, EC_NOOP, "the diff looks already applied: the removed lines of its %zu hunk%s are absent and the "
                     "added lines present. Nothing was changed.", r.noop, r.noop == 1 ? "" : "s");
    return ec_fail(ctx, EC_NOOP, "the diff changes nothing: its removed and added lines are the same.");
  }
  return EC_OK;
}
