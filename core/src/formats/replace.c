/*
 * Format `replace`: {path?, old_string, new_string, expected_replacements?, replace_all?}.
 * The editcore profile: exactly one match by default (AMBIGUOUS lists every place), N with
 * expected_replacements (COUNT_MISMATCH otherwise), all with replace_all. new_string is literal.
 */
#include "formats.h"
#include "../engine/profiles.h"
#include "../match/report.h"
#include "../base/str.h"
#include "../dialects/dialects.h"

ec_error_code ec_format_replace(ec_ctx *ctx) {
  if (ctx->req->profile == EC_PROFILE_AIDER) return ec_aider_replace(ctx);
  const ec_edit *e = &ctx->req->edit;
  if (!e->has_old_string) return ec_fail(ctx, EC_INVALID_PARAM, "edit.old_string is required for format 'replace'");
  if (!e->has_new_string) return ec_fail(ctx, EC_INVALID_PARAM, "edit.new_string is required for format 'replace'");
  if (ec_str_has_nul(e->old_string) || ec_str_has_nul(e->new_string))
    return ec_fail(ctx, EC_INVALID_PARAM, "old_string and new_string must be text: they may not hold NUL bytes");
  if (e->expected_replacements == 0 || e->expected_replacements < -1)
    return ec_fail(ctx, EC_INVALID_PARAM, "edit.expected_replacements must be a positive integer");
  ec_ws_file *f = ec_format_target(ctx);
  if (!f) return ec_last_error(ctx)->code;
  ec_str old_text = ec_text_normalize_eol(ctx->arena, e->old_string);
  ec_str new_text = ec_text_normalize_eol(ctx->arena, e->new_string);

  if (!f->exists) {
    if (old_text.len)
      return ec_fail(ctx, EC_NOT_FOUND, "'%.*s' does not exist. To create it, send an empty old_string with the whole content as new_string.",
                     (int)f->path.len, f->path.ptr);
    f->replacements = 1;
    return ec_ws_create(ctx, f, new_text);
  }
  if (!old_text.len)
    return ec_fail(ctx, EC_FILE_EXISTS, "'%.*s' already exists, so an empty old_string cannot create it. To change it, put the text to replace in old_string.",
                   (int)f->path.len, f->path.ptr);
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  if (ec_str_eq(old_text, new_text))
    return ec_fail(ctx, EC_NOOP, "old_string and new_string are identical, so the edit changes nothing in '%.*s'.",
                   (int)f->path.len, f->path.ptr);

  ec_strategy order[EC_STRATEGY__COUNT];
  const ec_strategy *ladder = ctx->opt.strategies;
  size_t n_ladder = ctx->opt.n_strategies;
  if (!ladder) { n_ladder = ec_profile_strategies(ctx->req->profile, order); ladder = order; }

  ec_match_env env;
  ec_match_env_init(&env, ctx->arena, doc->text, doc->len, &ctx->opt, ctx->req->profile);
  ec_found_list found = {0};
  found.limit = e->replace_all || e->expected_replacements > 0 ? ctx->opt.limits.max_lines : 1000;
  ec_strategy used = EC_STRATEGY_EXACT;
  rc = ec_ladder_find(&env, ladder, n_ladder, old_text, new_text, &found, &used);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail(ctx, rc, "out of memory");
  if (rc) return ec_fail(ctx, rc, "%.*s", (int)env.message.len, env.message.ptr ? env.message.ptr : "matching stopped");

  if (!found.total) {
    ec_found_list again = {0};
    if (new_text.len && !ec_strategy_exact(&env, new_text, old_text, &again) && again.total)
      return ec_fail(ctx, EC_NOOP, "old_string was not found in '%.*s', but new_string already is (line %u): the edit looks already applied.",
                     (int)f->path.len, f->path.ptr, again.items[0].start_line);
    return ec_report_no_match(ctx, &env, f, "old_string", old_text);
  }
  if (e->expected_replacements > 0 && found.total != (size_t)e->expected_replacements) {
    ec_str lines = ec_report_line_ranges(ctx->arena, &found);
    rc = ec_fail(ctx, EC_COUNT_MISMATCH, "expected %lld replacement%s but old_string matches %zu place%s in '%.*s' (lines %.*s); nothing was changed.",
                 (long long)e->expected_replacements, e->expected_replacements == 1 ? "" : "s", found.total,
                 found.total == 1 ? "" : "s", (int)f->path.len, f->path.ptr, (int)lines.len, lines.ptr ? lines.ptr : "");
    ec_last_error(ctx)->path = f->path;
    return rc;
  }
  if (e->expected_replacements < 0 && !e->replace_all && found.total > 1)
    return ec_report_ambiguous(ctx, f, "old_string", &found, used);
  if (found.total > found.n)
    return ec_fail(ctx, EC_TOO_LARGE, "old_string matches more than %zu places; the limit is options.limits.max_lines", found.n);

  ec_splice *sp = ec_arena_alloc(ctx->arena, found.n * sizeof *sp);
  if (!sp) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
  for (size_t i = 0; i < found.n; i++) {
    sp[i].start = found.items[i].start;
    sp[i].end = found.items[i].end;
    sp[i].text = found.items[i].replacement;
    if (i < 1000 && ec_ws_add_match(ctx, f, found.items[i].start_line, found.items[i].end_line,
                                    found.items[i].strategy, found.items[i].confidence))
      return EC_OUT_OF_MEMORY;
  }
  ec_doc next;
  if (ec_doc_splice(ctx->arena, doc, sp, found.n, &next)) return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory");
  ec_ws_set(ctx, f, &next);
  f->replacements = (uint32_t)found.n;
  return EC_OK;
}
