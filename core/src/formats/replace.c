/*
 * Format `replace`: {path?, old_string, new_string, expected_replacements?, replace_all?}.
 *
 * editcore: the profile's ladder (SPEC §4; fuzzy only when options.strategies names it). Exactly
 * one match by default (AMBIGUOUS lists every place), N with expected_replacements
 * (COUNT_MISMATCH otherwise), all with replace_all — except that anchor and fuzzy matches must be
 * unique even then. new_string is literal. A new_string that introduces an omission placeholder
 * (`// ... rest of code ...`) is refused (INVALID_PARAM); old absent but new present is NOOP.
 * gemini: formats/replace_gemini.c (the tool's count rule, messages, CRLF restore and
 * omission-placeholder check around peers/gemini/gemini.c's calculateReplacement).
 * claude / openhands: peers/claude_openhands/editor.c. aider: peers/aider/.
 */
#define _GNU_SOURCE 1
#include "formats.h"
#include "../request/profiles.h"
#include "../messages/report.h"
#include "placeholder.h"
#include "replace_gemini.h"
#include "../base/str.h"
#include "../base/buf.h"
#include "../peers/peers.h"
#include "../peers/claude_openhands/editor.h"
#include "../match/restore.h"
#include "../match/line_breaks.h"
#include <stdio.h>
#include <string.h>

/* Section - editcore */

static bool loose_must_be_unique(ec_strategy s) { return s == EC_STRATEGY_ANCHOR || s == EC_STRATEGY_FUZZY; }

static ec_error_code too_big(ec_ctx *ctx, const ec_ws_file *f, uint64_t out_len, size_t n) {
  char how[48];
  snprintf(how, sizeof how, "%zu replacements, ", n);
  return ec_fail_output(ctx, f->path, out_len, out_len, how);
}

/* Section - every place (replace_all, expected_replacements)
 *
 * The new file is built as the ladder finds the places, one place behind (a place's room ends
 * where the next one starts), so a million places need no list of them: what is held is the new
 * text alone. The checks that follow the search are the same, in the same order, on what was seen.
 * Building stops (and what was built is freed) once the new text passes what an edit may make
 * (max_input_bytes) or two places overlap: the answer is then an error in any case. */

typedef struct every {
  ec_ctx *ctx;
  const ec_doc *doc;
  ec_str old_text, new_text;
  size_t max_places;         /* limits.max_lines */
  uint64_t max_out;          /* what the new text may hold */
  uint64_t out_len;          /* the file's length with every place replaced as found (the format's measure) */
  ec_doc_builder out;
  bool building;
  uint64_t size_at_stop;     /* the new text's length when building stopped at max_out */
  ec_found pending;          /* the last place found, written when the next one (its room's end) is seen */
  bool has_pending;
  size_t written;            /* places written */
  size_t floor;              /* where the last written place ended */
  bool same;                 /* every place written so far gets the text it had */
  bool overlap;              /* two places overlap: the first such pair's lines */
  uint32_t overlap_lines[2];
  ec_error_code refused;     /* the first place whose line breaks cannot be framed (match/line_breaks.h) */
  uint32_t refused_line;
  ec_strategy refused_strategy;
  ec_str refused_why;
  ec_ws_file *f;
  /* What a place hands over (a re-indented replacement, a restored context) lives in env->scratch;
   * every SCRATCH_PLACES places it swaps with `spare`, emptied first: the pending place's memory
   * is in the other one, so nothing still needed is freed. */
  ec_match_env *env;
  ec_arena *spare;
  size_t since_swap;
} every;

#define SCRATCH_PLACES 4096

static bool restores_context(const ec_ctx *ctx, ec_strategy st) {
  return ctx->req->profile == EC_PROFILE_EDITCORE && (st == EC_STRATEGY_TRIM_END || st == EC_STRATEGY_INDENT ||
                                                      st == EC_STRATEGY_UNICODE || st == EC_STRATEGY_REGEX || st == EC_STRATEGY_ANCHOR);
}

static void stop_building(every *w) {
  if (!w->building) return;
  w->building = false;
  ec_doc_builder_drop(&w->out);
}

/* Writes the pending place, whose room ends at `ceil` (the next place's start, or the file's end). */
static ec_error_code write_pending(every *w, size_t ceil) {
  ec_ctx *ctx = w->ctx;
  ec_found m = w->pending;
  w->has_pending = false;
  if (!w->building) return EC_OK;
  if (restores_context(ctx, m.strategy) &&
      ec_restore_context(w->env->scratch ? w->env->scratch : ctx->arena, w->doc->text, w->old_text, w->new_text, &m))
    return EC_OUT_OF_MEMORY;
  if (ctx->req->profile == EC_PROFILE_EDITCORE && ec_frame_applies(m.strategy)) {
    /* The line breaks old_string and new_string start and end with (match/line_breaks.h); never
     * into a neighbouring match of replace_all ([floor, ceil) is this place's room). */
    ec_arena *a = w->env->scratch ? w->env->scratch : ctx->arena;
    ec_str why = {NULL, 0};
    ec_error_code rc = ec_frame_line_breaks(a, w->doc->text, w->doc->len, w->old_text, w->new_text, w->floor, ceil,
                                            &m.start, &m.end, &m.replacement, &why);
    if (!rc)
      rc = ec_check_inner_blank_lines(a, ec_str_make(w->doc->text + m.start, m.end - m.start), w->old_text, w->new_text,
                                      m.replacement, &why);
    if (rc == EC_OUT_OF_MEMORY) return rc;
    if (rc) { /* reported after the search, as an overlap is: the first place that fails */
      w->refused = rc;
      w->refused_line = m.start_line;
      w->refused_strategy = m.strategy;
      w->refused_why = ec_arena_strdup(ctx->arena, why.ptr ? why.ptr : "", why.len);
      stop_building(w);
      return EC_OK;
    }
  }
  if (w->written && m.start < w->floor) { /* strategies return disjoint places in file order; a splice needs them so */
    w->overlap = true;
    w->overlap_lines[1] = m.start_line;
    stop_building(w);
    return EC_OK;
  }
  if (w->written < 1000 && ec_ws_add_match(ctx, w->f, m.start_line, m.end_line, m.strategy, m.confidence)) return EC_OUT_OF_MEMORY;
  w->same = w->same && ec_str_eq(m.replacement, ec_str_make(w->doc->text + m.start, m.end - m.start));
  ec_splice sp = {m.start, m.end, m.replacement};
  /* The new text's size, were this the only place: an edit of one place that grows the file fills
   * one buffer instead of outgrowing a guess at its end (a copy of the whole text in wasm). */
  if (!w->written) ec_doc_builder_size(&w->out, w->doc->len - (m.end - m.start) + m.replacement.len);
  ec_doc_builder_put(&w->out, &sp);
  w->overlap_lines[0] = m.start_line;
  w->floor = m.end;
  w->written++;
  if (ec_doc_builder_len(&w->out) > w->max_out) { /* the new text can only grow from here: refused in any case */
    w->size_at_stop = ec_doc_builder_len(&w->out);
    stop_building(w);
  }
  return EC_OK;
}

static ec_error_code on_place(void *user, const ec_found *f) {
  every *w = user;
  if (w->env->scratch && ++w->since_swap >= SCRATCH_PLACES) { /* f's memory is in env->scratch, which becomes the spare */
    ec_arena *next = w->spare;
    ec_arena_reset(next);
    w->spare = w->env->scratch;
    w->env->scratch = next;
    w->since_swap = 0;
  }
  w->out_len += w->new_text.len - (uint64_t)(f->end - f->start);
  if (w->written + w->has_pending >= w->max_places) stop_building(w); /* TOO_LARGE in any case */
  if (w->has_pending) {
    ec_error_code rc = write_pending(w, f->start);
    if (rc) return rc;
  }
  w->pending = *f;
  w->has_pending = w->building;
  return EC_OK;
}

static ec_error_code replace_places(ec_ctx *ctx, ec_ws_file *f, ec_match_env *env, every *w, bool at_file_start);

static ec_error_code editcore_replace(ec_ctx *ctx, ec_ws_file *f) {
  const ec_edit *e = &ctx->req->edit;
  ec_str old_text = ec_text_normalize_eol(ctx->arena, e->old_string);
  ec_str new_text = ec_text_normalize_eol(ctx->arena, e->new_string);

  if (!f->exists) {
    if (old_text.len) {
      ec_fail(ctx, EC_NOT_FOUND, "'%.*s' does not exist. To create it, send an empty old_string with the whole content as new_string.",
              (int)f->path.len, f->path.ptr);
      return ec_fail_at(ctx, f, EC_NOT_FOUND);
    }
    f->replacements = 1;
    return ec_ws_set_bytes(ctx, f, new_text);
  }
  if (!old_text.len) {
    ec_fail(ctx, EC_FILE_EXISTS, "'%.*s' already exists, so an empty old_string cannot create it. To change it, put the text to replace in old_string.",
            (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_FILE_EXISTS);
  }
  ec_str ph;
  size_t ph_line = ec_new_placeholder(old_text, new_text, ec_editcore_placeholder, &ph);
  if (ph_line) {
    ec_fail(ctx, EC_INVALID_PARAM, "Line %zu of new_string ('%.*s') is an omission placeholder that old_string does not have: applying it "
            "would delete the code it stands for. Send new_string with the full literal text of that part.",
            ph_line, (int)(ph.len > 200 ? 200 : ph.len), ph.ptr);
    return ec_fail_at(ctx, f, EC_INVALID_PARAM);
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  ec_match_env env;
  ec_match_env_init(&env, ctx->arena, doc->text, doc->len, &ctx->opt, ctx->req->profile);
  ec_match_env_lf_count(&env, doc->n_lf);
  /* A leading byte-order mark in old_string (copied from a file read with its BOM) says where the
   * text stands: at the very start of the file. The doc keeps the file's BOM apart from its text,
   * so the mark is dropped here (from new_string too when it also has one; the file keeps its own
   * BOM or none) and the match must begin the file. Only a U+FEFF the text itself holds mid-file
   * (a zero-width no-break space) is matched literally. */
  bool at_file_start = false;
  if (ec_str_starts_with(old_text, "\xEF\xBB\xBF")) {
    ec_found_list literal = {0};
    rc = ec_strategy_exact(&env, old_text, new_text, &literal);
    if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
    if (!literal.total) {
      at_file_start = true;
      old_text = ec_str_drop(old_text, 3);
      if (ec_str_starts_with(new_text, "\xEF\xBB\xBF")) new_text = ec_str_drop(new_text, 3);
      if (!old_text.len) {
        ec_fail(ctx, EC_INVALID_PARAM, "old_string is only a byte-order mark (U+FEFF); put the text to replace in old_string.");
        return ec_fail_at(ctx, f, EC_INVALID_PARAM);
      }
    }
  }
  if (ec_str_eq(old_text, new_text)) {
    ec_fail(ctx, EC_NOOP, "old_string and new_string are identical, so the edit changes nothing in '%.*s'.", (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_NOOP);
  }

  every w;
  memset(&w, 0, sizeof w);
  w.ctx = ctx;
  w.f = f;
  w.doc = doc;
  w.old_text = old_text;
  w.new_text = new_text;
  w.max_places = ctx->opt.limits.max_lines;
  w.max_out = ec_ctx_max_output(ctx);
  w.out_len = doc->len;
  w.same = w.building = true;
  ec_doc_builder_init(&w.out, ctx->arena, doc, doc->len);
  if (ctx->opt.content_as_splices) ec_doc_builder_defer(&w.out); /* the host builds the content itself */
  w.env = &env;
  env.scratch = ec_arena_new(ec_arena_allocator(ctx->arena));
  w.spare = ec_arena_new(ec_arena_allocator(ctx->arena));
  rc = env.scratch && w.spare ? replace_places(ctx, f, &env, &w, at_file_start) : ec_fail_oom(ctx);
  stop_building(&w);
  ec_arena_free(env.scratch);
  ec_arena_free(w.spare);
  env.scratch = NULL;
  return rc;
}

/* The search and what follows it; every return after the builder exists goes through the caller's cleanup. */
static ec_error_code replace_places(ec_ctx *ctx, ec_ws_file *f, ec_match_env *env, every *w, bool at_file_start) {
  const ec_edit *e = &ctx->req->edit;
  const ec_doc *doc = w->doc;
  ec_str old_text = w->old_text, new_text = w->new_text;
  ec_strategy order[EC_STRATEGY__COUNT];
  const ec_strategy *ladder = ctx->opt.strategies;
  size_t n_ladder = ctx->opt.n_strategies;
  if (!ladder) { n_ladder = ec_profile_strategies(ctx->req->profile, order); ladder = order; }

  /* Every place is written as it is found when every place is to be replaced; otherwise the one
   * place (or the one that begins the file) after the checks. */
  bool every_place = (e->replace_all || e->expected_replacements > 0) && !at_file_start;
  ec_found_list found = {0};
  found.limit = 1000; /* kept for the messages; every place is counted */
  if (every_place) { found.each = on_place; found.each_user = w; }
  ec_strategy used = EC_STRATEGY_EXACT;
  ec_error_code rc = ec_ladder_find(env, ladder, n_ladder, old_text, new_text, &found, &used);
  if (!rc && w->has_pending) rc = write_pending(w, doc->len);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) {
    ec_fail(ctx, rc, "%.*s", (int)env->message.len, env->message.ptr ? env->message.ptr : "matching stopped");
    return ec_fail_at(ctx, f, rc);
  }
  if (at_file_start && found.total && found.items[0].start != 0) {
    ec_fail(ctx, EC_NO_MATCH, "old_string begins with a byte-order mark (U+FEFF), which stands only at the start of a file, but the "
            "rest of it matches line %u of '%.*s', not the file's start; nothing was changed. Send old_string without the mark.",
            found.items[0].start_line, (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_NO_MATCH);
  }
  if (at_file_start && found.total > 1) found.total = found.n = 1; /* only one match can begin the file */

  if (!found.total) {
    ec_found_list again = {0};
    if (new_text.len && !ec_strategy_exact(env, new_text, old_text, &again) && again.total) {
      ec_fail(ctx, EC_NOOP, "old_string was not found in '%.*s', but new_string already is (line %u): the edit looks already applied, so nothing was changed.",
              (int)f->path.len, f->path.ptr, again.items[0].start_line);
      return ec_fail_at(ctx, f, EC_NOOP);
    }
    return ec_report_no_match(ctx, env, f, "old_string", old_text);
  }
  if (found.total > 1 && loose_must_be_unique(used))
    return ec_report_ambiguous(ctx, f, "old_string", &found, used);
  if (e->expected_replacements > 0 && found.total != (size_t)e->expected_replacements) {
    ec_str lines = ec_report_line_ranges(ctx->arena, &found);
    ec_fail(ctx, EC_COUNT_MISMATCH, "expected %lld replacement%s but old_string matches %zu place%s in '%.*s' (lines %.*s); nothing was changed.",
            (long long)e->expected_replacements, e->expected_replacements == 1 ? "" : "s", found.total,
            found.total == 1 ? "" : "s", (int)f->path.len, f->path.ptr, (int)lines.len, lines.ptr ? lines.ptr : "");
    return ec_fail_at(ctx, f, EC_COUNT_MISMATCH);
  }
  if (e->expected_replacements < 0 && !e->replace_all && found.total > 1)
    return ec_report_ambiguous(ctx, f, "old_string", &found, used);
  if (found.total > w->max_places)
    return ec_fail(ctx, EC_TOO_LARGE, "old_string matches more than %zu places; the limit is options.limits.max_lines", w->max_places);

  /* replace_all multiplies new_string: refuse before building a file the commit (ec_ws_commit)
   * would refuse anyway (while every place is written as found, building stopped at that size) */
  if (!every_place)
    for (size_t i = 0; i < found.n; i++) w->out_len += new_text.len - (uint64_t)(found.items[i].end - found.items[i].start);
  uint64_t out_len = w->out_len > w->size_at_stop ? w->out_len : w->size_at_stop;
  if (out_len > w->max_out) return too_big(ctx, f, out_len, found.total);
  if (!every_place) {
    for (size_t i = 0; i < found.n && !(rc = on_place(w, &found.items[i])); i++) {}
    if (!rc && w->has_pending) rc = write_pending(w, doc->len);
    if (rc) return ec_fail_oom(ctx);
  }
  if (w->refused) {
    ec_fail(ctx, w->refused, "old_string matches line %u of '%.*s' by %s, but %.*s Nothing was changed.", w->refused_line,
            (int)f->path.len, f->path.ptr, ec_strategy_name(w->refused_strategy), (int)w->refused_why.len, w->refused_why.ptr);
    return ec_fail_at(ctx, f, w->refused);
  }
  if (w->overlap) {
    ec_fail(ctx, EC_AMBIGUOUS, "old_string's matches at lines %u and %u of '%.*s' overlap, so they cannot all be replaced; nothing was changed.",
            w->overlap_lines[0], w->overlap_lines[1], (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_AMBIGUOUS);
  }
  /* An edit that asks for a change never succeeds with none: new_string differs from old_string,
   * so text the match forgave (whitespace, escapes, punctuation) is what the model changed. */
  if (w->same) {
    ec_fail(ctx, EC_NOOP, "old_string matches line %u of '%.*s' by %s, and new_string writes the same text there, so nothing would change: "
            "old_string and new_string differ only in what that match forgives. Send old_string exactly as the file has it, with "
            "the change in new_string.",
            found.items[0].start_line, (int)f->path.len, f->path.ptr, ec_strategy_name(found.items[0].strategy));
    return ec_fail_at(ctx, f, EC_NOOP);
  }
  ec_doc next;
  w->building = false; /* finish frees the builder when it fails */
  if (ec_doc_builder_finish(&w->out, ctx->arena, &next)) return ec_fail_oom(ctx);
  ec_ws_replace_doc(ctx, f, &next);
  f->replacements = (uint32_t)found.total;
  return EC_OK;
}

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
  switch (ctx->req->profile) {
    case EC_PROFILE_GEMINI: return ec_gemini_replace(ctx, f);
    case EC_PROFILE_CLAUDE:
    case EC_PROFILE_OPENHANDS: return ec_peer_editor_replace(ctx, f);
    default: return editcore_replace(ctx, f);
  }
}
