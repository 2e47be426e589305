/*
 * Format `lazy`: {path?, snippet} (SPEC §3). The snippet is the model's new version of the file
 * or of a region of it, with unchanged code left out behind marker lines; core/src/lazy/ does
 * the work (see lazy/lazy.h). editcore profile only: no peer applies these deterministically.
 * Each segment (the literal text between markers) is reported as one match: `exact`/`indent`/
 * `trim_end` when its lines were found as they are (up to whitespace), `anchor` when it was
 * placed by structure (a closing line at the end of its opener's block), by a changed first
 * line's counterpart, or at the top/end of the file.
 * Speed: the file's key map holds only the snippet's keys (one pass over the file), and the
 * merge hands back only the rewritten middle of the file, spliced in place.
 */
#include "formats.h"
#include "../lazy/lazy.h"
#include "../syntax/syntax.h"
#include "../messages/report.h"
#include "../base/str.h"
#include "../base/buf.h"
#include <stdio.h>

/* Everything before the merge proper: the snippet's escaped line breaks, the file's key map (only
 * the keys the snippet can ask for), the parsed snippet, indentation, the anchor tables. */
static ec_error_code lazy_setup(ec_ctx *ctx, ec_ws_file *f, ec_doc *doc, ec_str snippet, ec_lz_job *job, bool *diff_style) {
  memset(job, 0, sizeof *job);
  snippet = ec_lz_split_escaped_newlines(ctx->arena, snippet, ec_str_make(doc->text, doc->len));
  if (!snippet.ptr) return ec_fail_oom(ctx);
  job->ctx = ctx;
  job->f = f;
  job->a = ctx->arena;
  /* Invariant (d) over lines only where the syntax guard will not parse the result (no grammar
   * for the file's language) and parsing is not switched off; where it will, the guard goes first
   * and Python's indentation is read after it (ec_lz_python_after_guard). */
  ec_str lang_name;
  job->parse_lines = ctx->opt.syntax != EC_SYNTAX_OFF && !ec_syn_lang_for(f->path, ctx->req->edit.language, &lang_name);
  /* The placement's work (anchor candidates, alignments) is matching work: it spends the same
   * request budget as the fuzzy strategies, options.limits.fuzzy_work (200 M by default). */
  job->work_cap = ctx->opt.limits.fuzzy_work;
  job->offside = ec_lz_offside(f->path);
  job->file_final_lf = !doc->len || doc->text[doc->len - 1] == '\n';
  job->file_len = doc->len;
  job->out_head = 0;
  job->out_tail = doc->len; /* the diff-style path writes the whole text */
  /* The file's key map holds only what the snippet can ask: each snippet line's key, with and
   * without its first character (a diff-style `+`/`-`/space prefix). */
  ec_lz_side raw;
  if (ec_lz_side_lines(job->a, snippet, &raw)) return ec_fail_oom(ctx);
  uint64_t *qk = ec_arena_alloc(job->a, (3 * raw.n + 1) * sizeof *qk);
  if (!qk) return ec_fail_oom(ctx);
  size_t nq = 0;
  for (size_t j = 0; j < raw.n; j++) {
    qk[nq++] = raw.key[j];
    if (raw.line[j].len) qk[nq++] = ec_lz_key(ec_str_make(raw.line[j].ptr + 1, raw.line[j].len - 1));
    ec_str un; /* and the line with its escapes undone (an over-escaped copy of a file line) */
    if (ec_lz_unescape(job->a, raw.line[j], &un)) qk[nq++] = ec_lz_key(un);
  }
  if (ec_lz_side_build_keyed(job->a, ec_str_make(doc->text, doc->len), doc->n_lf, qk, nq, &job->F)) return ec_fail_oom(ctx);
  if (ec_lz_parse(job, snippet, diff_style)) return ec_fail_oom(ctx);
  job->nseg_parsed = job->nseg;
  ec_lz_indent_infer(&job->F, &job->fi);
  ec_lz_indent_infer(&job->S, &job->si);
  size_t literal = 0;
  for (size_t j = 0; j < job->S.n; j++)
    if (!(job->S.flags[j] & (LZ_MARKER | LZ_BLANK))) literal++;
  if (!literal)
    return ec_fail(ctx, EC_INVALID_PARAM, "edit.snippet holds no code, only markers or blank lines; send the changed code with `// ... existing code ...` lines for the parts left out");
  job->am = ec_arena_alloc(job->a, (job->S.n + 1) * sizeof *job->am);
  job->how = ec_arena_calloc(job->a, job->S.n + 1, 1);
  job->rep = ec_arena_calloc(job->a, job->S.n + 2, sizeof *job->rep);
  if (!job->am || !job->how || !job->rep) return ec_fail_oom(ctx);
  for (size_t j = 0; j < job->S.n; j++) job->am[j] = -1;

  return EC_OK;
}

/*
 * "segment N shares no line with the file" is what the merge says when no line of a segment
 * anchors it; but a line that occurs several times in the file cannot anchor either, and then
 * the model must be told that (its lines are there, too often), not that they are absent. The
 * decline is kept; its message is retold when one of the segment's first lines occurs twice
 * or more in the file (the first 16 non-blank lines are looked at: bounded work).
 */
static void retell_repeated_lines(ec_ctx *ctx, const ec_lz_job *job, const ec_ws_file *f) {
  ec_error *err = ec_last_error(ctx);
  if (!err || err->block < 1 || (size_t)err->block > job->nseg || !err->message.ptr) return;
  static const char NO_LINE[] = "shares no line with";
  const char *at = NULL;
  for (size_t i = 0; !at && i + sizeof NO_LINE - 1 <= err->message.len; i++)
    if (!memcmp(err->message.ptr + i, NO_LINE, sizeof NO_LINE - 1)) at = err->message.ptr + i;
  if (!at) return;
  const ec_lz_seg *seg = &job->seg[err->block - 1];
  size_t looked = 0, best_j = SIZE_MAX, best_n = 0, first_at[3] = {0};
  for (size_t j = seg->j0; j < seg->j1 && looked < 16; j++) {
    if (job->S.flags[j] & (LZ_BLANK | LZ_MARKER)) continue;
    looked++;
    size_t n = 0, where[3] = {0};
    ec_str t = ec_lz_trim(job->S.line[j]);
    for (size_t i = 0; i < job->F.n; i++) {
      if (job->F.key[i] != job->S.key[j] || !ec_str_eq(ec_lz_trim(job->F.line[i]), t)) continue;
      if (n < 3) where[n] = i + 1;
      n++;
    }
    if (n > best_n) { best_n = n; best_j = j; memcpy(first_at, where, sizeof where); }
  }
  if (best_n < 2) return;
  ec_str t = ec_lz_trim(job->S.line[best_j]);
  char third[32] = "";
  if (best_n == 3) snprintf(third, sizeof third, "%zu", first_at[2]);
  ec_str msg = ec_arena_printf(ctx->arena,
      "%s has no line that occurs only once in '%.*s': its line '%.*s%s' occurs "
      "%zu times there (lines %zu, %zu%s%s), so it could go in any of those places; nothing was changed. Include an unchanged "
      "line right above or below the new code that occurs once in the file, or send a search_replace block.",
      ec_lz_seg_name(job, (size_t)err->block - 1), (int)f->path.len, f->path.ptr, ec_echo_len(t), t.ptr, ec_echo_more(t), best_n,
      first_at[0], first_at[1], best_n > 2 ? ", " : "", best_n > 3 ? "..." : third);
  if (!msg.ptr) return;
  err->code = EC_AMBIGUOUS;
  err->message = msg;
}

/* The marker line nearest before snippet line j (dir < 0) or at or after it (dir > 0), across
 * blank lines only; an empty string when there is none. */
static ec_str marker_near(const ec_lz_side *S, size_t j, int dir) {
  if (dir < 0) {
    for (size_t k = j; k-- > 0;) {
      if (S->flags[k] & LZ_MARKER) return S->line[k];
      if (!(S->flags[k] & LZ_BLANK)) break;
    }
  } else {
    for (size_t k = j; k < S->n; k++) {
      if (S->flags[k] & LZ_MARKER) return S->line[k];
      if (!(S->flags[k] & LZ_BLANK)) break;
    }
  }
  return ec_str_make("", 0);
}

/* The snippet with its segments in job->order. Between two segments goes the marker that
 * followed the first of them in the snippet (it says whether the rest of a block or of the file
 * follows), else the one that preceded the second, else the snippet's first marker; at the ends,
 * a marker where the snippet has one or another segment now stands there. */
static ec_str reordered_snippet(ec_ctx *ctx, const ec_lz_job *job) {
  const ec_lz_side *S = &job->S;
  ec_str any = {0};
  for (size_t j = 0; j < S->n && !any.ptr; j++)
    if (S->flags[j] & LZ_MARKER) any = S->line[j];
  if (!any.ptr) return (ec_str){0};
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  size_t ns = job->nseg;
  for (size_t t = 0; t <= ns; t++) {
    const ec_lz_seg *prev = t ? &job->seg[job->order[t - 1]] : NULL, *next = t < ns ? &job->seg[job->order[t]] : NULL;
    bool want = prev && next ? true
              : !prev ? job->lead_marker || job->order[0] != 0
                      : job->trail_marker || job->order[ns - 1] != ns - 1;
    if (want) {
      ec_str m = prev ? marker_near(S, prev->j1, 1) : ec_str_make("", 0);
      if (!m.len && next) m = marker_near(S, next->j0, -1);
      if (!m.len) m = any;
      ec_buf_append_line(&b, m);
    }
    if (!next) break;
    for (uint32_t j = next->j0; j < next->j1; j++) {
      ec_buf_append_line(&b, S->line[j]);
    }
  }
  return ec_buf_finish(&b, ctx->arena);
}

/* The merge tried again with the segments in file order (job->order), checked by ec_lz_verify.
 * EC_OK with *again and *merged set; otherwise the errors this attempt recorded are dropped and
 * the first attempt's decline (the last error) is put back. */
static ec_error_code in_file_order(ec_ctx *ctx, ec_ws_file *f, ec_doc *doc, const ec_lz_job *job, ec_lz_job *again, ec_str *merged) {
  ec_result *res = ctx->res;
  size_t n0 = res->n_errors, unlisted = res->n_unlisted_errors;
  ec_error first = res->errors[n0 - 1];
  res->n_errors = n0 - 1;
  ec_str text = reordered_snippet(ctx, job);
  bool diff_style = false;
  ec_error_code rc = text.ptr ? lazy_setup(ctx, f, doc, text, again, &diff_style) : EC_NO_MATCH;
  if (!rc && diff_style) rc = EC_NO_MATCH;
  if (!rc) rc = ec_lz_anchor(again);
  if (!rc) {
    ec_lz_refine_unit(&again->S, &again->F, again->am, &again->si, &again->fi);
    rc = ec_lz_merge(again, merged);
  }
  if (!rc) rc = ec_lz_verify(again, *merged);
  if (!rc && res->n_errors == n0 - 1) return EC_OK;
  res->n_errors = n0 - 1;
  res->n_unlisted_errors = unlisted;
  ctx->last_dropped = false;
  res->errors[n0 - 1] = first;
  res->n_errors = n0;
  return rc ? rc : EC_NO_MATCH;
}

/* A snippet as the model sent it, as the merge reads it: line endings LF, and a UTF-8 byte-order
 * mark at its start dropped. That mark is the encoding's, copied with the file's text (a whole
 * file written over with its markers kept), not a character of the first line: read as one, the
 * first line matched no file line, or the file's own mark (kept by the doc) came out doubled
 * (issue 30, sixteenth pass: the wild set's eighth batch, two such files). */
static ec_str snippet_text(ec_ctx *ctx, ec_str s) {
  if (ec_str_starts_with(s, "\xEF\xBB\xBF")) s = ec_str_drop(s, 3);
  return ec_text_normalize_eol(ctx->arena, s);
}

/*
 * The merge's last check (issue 32, docs/syntax.md): a merge that leaves a file which parsed with
 * syntax errors it did not have is declined, whatever options.syntax says but "off". Its own
 * checks look at lines; this one sees what they cannot: a closing bracket dropped or doubled at
 * a segment's edge, a marker that swallowed the end of a block. The report is kept for the commit.
 */
static ec_error_code lazy_syntax_guard(ec_ctx *ctx, ec_ws_file *f, const ec_doc *merged, ec_str *rendered) {
  if (ctx->opt.syntax == EC_SYNTAX_OFF) return EC_OK;
  ec_str now = ec_doc_render(ctx->arena, merged);
  if (!now.ptr) return ec_fail_oom(ctx);
  *rendered = now;
  const ec_syntax_report *r;
  ec_error_code rc = ec_ws_syntax(ctx, f, now, &r);
  if (rc || !ec_syn_breaks(r)) return rc;
  return ec_fail_syntax(ctx, f, r, "The lazy merge",
                        "Either the snippet does not parse where it goes, or its markers and anchors placed it wrongly: send the "
                        "changed code with a few unchanged lines around it (or the whole function), or a search_replace block.");
}

ec_error_code ec_format_lazy(ec_ctx *ctx) {
  const ec_edit *e = &ctx->req->edit;
  if (!e->has_snippet) return ec_fail(ctx, EC_INVALID_PARAM, "edit.snippet is required for format 'lazy'");
  if (ec_str_has_nul(e->snippet)) return ec_fail(ctx, EC_INVALID_PARAM, "edit.snippet must be text: it may not hold NUL bytes");
  ec_ws_file *f = ec_format_target(ctx);
  if (!f) return ec_last_error(ctx)->code;
  ec_str snippet = snippet_text(ctx, e->snippet);
  if (!f->exists)
    return ec_fail(ctx, EC_NOT_FOUND, "'%.*s' does not exist, so a lazy snippet has nothing to merge into. To create it, send the whole content with format 'whole_file'.",
                   (int)f->path.len, f->path.ptr);
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;

  ec_lz_job job;
  bool diff_style = false;
  rc = lazy_setup(ctx, f, doc, snippet, &job, &diff_style);
  if (rc) return rc;
  ec_str merged;
  if (diff_style) {
    rc = ec_lz_merge_diff(&job, &merged);
    if (rc) return rc;
  } else {
    rc = ec_lz_anchor(&job);
    if (rc == EC_NO_MATCH && job.order && ctx->res->n_errors && !ctx->last_dropped) {
      /* Segments listed out of file order, each placeable on its own: merged in file order, the
       * result checked as usual; if that fails too, the out-of-order decline stands. */
      ec_lz_job again;
      if (!in_file_order(ctx, f, doc, &job, &again, &merged)) {
        job = again;
        goto verified;
      }
      if (ctx->res->oom) return EC_OUT_OF_MEMORY;
    }
    if ((rc == EC_NO_MATCH || rc == EC_AMBIGUOUS) && ctx->res->n_errors) {
      retell_repeated_lines(ctx, &job, f);
      return ec_last_error(ctx)->code;
    }
    if (rc) return rc;
    ec_lz_refine_unit(&job.S, &job.F, job.am, &job.si, &job.fi);
    rc = ec_lz_merge(&job, &merged);
    if ((rc == EC_NO_MATCH || rc == EC_AMBIGUOUS) && ctx->res->n_errors) {
      retell_repeated_lines(ctx, &job, f);
      return ec_last_error(ctx)->code;
    }
    if (rc == EC_NO_MATCH && !ctx->res->n_errors) {
      ec_match_env env;
      ec_match_env_init(&env, ctx->arena, doc->text, doc->len, &ctx->opt, ctx->req->profile);
      ec_str lit = snippet;
      rc = ec_report_no_match(ctx, &env, f, "no line of the lazy snippet", lit);
      ec_error *err = ec_last_error(ctx);
      if (err) err->block = 1;
      return rc;
    }
    if (rc) return rc;
  }
  /* The merge checks itself before it answers: a result that is no faithful reading of the
   * snippet is a decline (lazy/verify.c). */
  rc = ec_lz_verify(&job, merged);
  if (rc) return rc;
verified:;
  /* The merge rewrote the file's bytes [r0, r1) as `merged`. */
  size_t r0 = job.out_head, r1 = job.out_tail, rl = r1 - r0;
  if (merged.len == rl && !memcmp(merged.ptr, doc->text + r0, rl))
    return ec_fail(ctx, EC_NOOP, "the lazy snippet matches '%.*s' as it is: the change looks already applied, or the snippet holds no change (outside "
                   "Python a line's indentation alone is no change here: send a search_replace block to re-indent).",
                   (int)f->path.len, f->path.ptr);
  for (size_t si = 0; si < job.nseg; si++) {
    const ec_lz_report *r = &job.rep[si];
    if (!r->start_line) continue;
    if (ec_ws_add_match(ctx, f, r->start_line, r->end_line, r->strategy, r->confidence)) return EC_OUT_OF_MEMORY;
  }
  /* Splice only the lines that changed: unchanged lines keep their own line endings. */
  ec_doc next;
  if (ec_doc_replace_lines(ctx->arena, doc, r0, r1, merged, &next)) return ec_fail_oom(ctx);
  ec_ws_set(ctx, f, &next);
  f->replacements = (uint32_t)job.nseg;
  ec_str now = {0};
  rc = lazy_syntax_guard(ctx, f, &next, &now);
  if (rc || job.parse_lines || !now.ptr) return rc;
  /* tree-sitter read the result and found nothing new; its Python grammar accepts a `def f():`
   * followed by a line at its own column, which Python refuses: read the indentation as Python
   * does (invariant d). */
  return ec_lz_python_after_guard(&job, now);
}

ec_error_code ec_lz_check_merge(ec_ctx *ctx, ec_ws_file *f, ec_str snippet, ec_str result) {
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  ec_lz_job job;
  bool diff_style = false;
  rc = lazy_setup(ctx, f, doc, snippet_text(ctx, snippet), &job, &diff_style);
  if (rc) return rc;
  job.parse_lines = true; /* no syntax guard follows this check: invariant (d) reads lines */
  return ec_lz_verify(&job, ec_text_normalize_eol(ctx->arena, result));
}
