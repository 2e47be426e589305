/*
 * Format `replace` under the gemini profile: the Gemini CLI edit tool's replace around its
 * calculateReplacement (peers/gemini/gemini.c): the tool's omission-placeholder check, count rule,
 * messages and CRLF restore. Reached from formats/replace.c once the request is checked and its
 * file found. The browser's editcore.wasm and editcore-lite.wasm leave it to editcore-tools.wasm
 * with the other peers' emulations (wasm/tools_deferred.c).
 */
#include "replace_gemini.h"
#include "placeholder.h"
#include "../messages/report.h"
#include "../peers/gemini/gemini.h"
#include "../base/buf.h"
#include <string.h>

/* Gemini's normalizePlaceholder: "(rest of methods ...)", "// unchanged code ...". */
static const char *const GEMINI_PREFIXES[] = {"rest of", "rest of method", "rest of methods", "rest of code",
                                              "unchanged code", "unchanged method", "unchanged methods", NULL};

static bool gemini_placeholder(ec_str line, char *key, size_t cap) {
  ec_str t = ec_str_trim(line, EC_WS_ASCII);
  if (!t.len) return false;
  if (ec_str_starts_with(t, "//")) { t.ptr += 2; t.len -= 2; t = ec_str_trim(t, EC_WS_ASCII); }
  if (t.len >= 2 && t.ptr[0] == '(' && t.ptr[t.len - 1] == ')') { t.ptr++; t.len -= 2; t = ec_str_trim(t, EC_WS_ASCII); }
  const char *dots = NULL;
  for (size_t i = 0; i + 3 <= t.len && !dots; i++)
    if (!memcmp(t.ptr + i, "...", 3)) dots = t.ptr + i;
  if (!dots) return false;
  ec_str prefix = ec_str_trim(ec_str_make(t.ptr, (size_t)(dots - t.ptr)), EC_WS_ASCII);
  ec_str suffix = ec_str_trim(ec_str_make(dots + 3, t.len - (size_t)(dots - t.ptr) - 3), EC_WS_ASCII);
  if (!ec_placeholder_words(prefix, key, cap)) return false;
  bool known = false;
  for (size_t i = 0; GEMINI_PREFIXES[i] && !known; i++) known = !strcmp(key, GEMINI_PREFIXES[i]);
  if (!known) return false;
  for (size_t i = 0; i < suffix.len; i++) if (suffix.ptr[i] != '.') return false;
  return true;
}

ec_error_code ec_gemini_replace(ec_ctx *ctx, ec_ws_file *f) {
  const ec_edit *e = &ctx->req->edit;
  ec_str ph;
  if (ec_new_placeholder(e->old_string, e->new_string, gemini_placeholder, &ph))
    return ec_fail(ctx, EC_INVALID_PARAM, "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide exact literal replacement text.");
  if (!f->exists) {
    if (e->old_string.len) {
      ec_fail(ctx, EC_NOT_FOUND, "File not found: %.*s. Cannot apply edit. Use an empty old_string to create a new file.", (int)f->path.len, f->path.ptr);
      return ec_fail_at(ctx, f, EC_NOT_FOUND);
    }
    f->replacements = 1;
    return ec_ws_set_bytes(ctx, f, e->new_string);
  }
  if (!e->old_string.len) {
    ec_fail(ctx, EC_FILE_EXISTS, "Failed to edit. Attempted to create a file that already exists: %.*s", (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_FILE_EXISTS);
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) return rc;
  bool allow = e->replace_all || e->expected_replacements > 1;
  ec_match_env env;
  ec_match_env_init(&env, ctx->arena, doc->text, doc->len, &ctx->opt, ctx->req->profile);
  ec_match_env_lf_count(&env, doc->n_lf);
  ec_gemini_result g;
  rc = ec_gemini_calculate(&env, e->old_string, e->new_string, allow, ec_ctx_max_output(ctx), &g);
  if (rc == EC_OUT_OF_MEMORY) return ec_fail_oom(ctx);
  if (rc) { ec_fail(ctx, rc, "%.*s", (int)env.message.len, env.message.ptr ? env.message.ptr : "matching stopped"); return ec_fail_at(ctx, f, rc); }
  if (!g.occurrences) {
    ec_str old_text = ec_text_normalize_eol(ctx->arena, e->old_string);
    ec_diagnosis d;
    if (ec_diagnose_no_match(&env, old_text, &d)) return ec_fail_oom(ctx);
    ec_fail(ctx, EC_NO_MATCH, "Could not find an exact match for 'old_string' in '%.*s'. If previous edits modified the file or you are "
            "modifying lines outside your recent read window, please use ReadFile to inspect the target lines before retrying with an exact 'old_string'.",
            (int)f->path.len, f->path.ptr);
    ec_error *er = ec_last_error(ctx);
    if (er) { er->path = f->path; er->candidates = d.candidates; er->n_candidates = d.n_candidates; }
    return EC_NO_MATCH;
  }
  if (e->expected_replacements > 0 && g.occurrences != (size_t)e->expected_replacements) {
    ec_fail(ctx, EC_COUNT_MISMATCH, "Failed to edit, expected %lld occurrence%s but found %zu for old_string in file: %.*s",
            (long long)e->expected_replacements, e->expected_replacements == 1 ? "" : "s", g.occurrences, (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_COUNT_MISMATCH);
  }
  if (!allow && g.occurrences != 1) {
    ec_fail(ctx, EC_COUNT_MISMATCH, "Failed to edit, Expected 1 occurrence but found %zu for old_string in file: %.*s. If you intended to "
            "replace multiple occurrences, set 'allow_multiple' to true.", g.occurrences, (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_COUNT_MISMATCH);
  }
  ec_str on = ec_text_normalize_eol(ctx->arena, e->old_string), nn = ec_text_normalize_eol(ctx->arena, e->new_string);
  if (ec_str_eq(on, nn)) {
    ec_fail(ctx, EC_NOOP, "No changes to apply. The old_string and new_string are identical in file: %.*s", (int)f->path.len, f->path.ptr);
    return ec_fail_at(ctx, f, EC_NOOP);
  }
  if (g.too_large) return ec_fail_output(ctx, f->path, g.too_large, g.too_large, NULL);
  /* The tool writes every line ending as CRLF when the file held any CRLF. */
  bool crlf = doc->eol == EC_EOL_CRLF || doc->eol == EC_EOL_MIXED;
  ec_str bytes = g.content;
  if (doc->bom || crlf) { /* else the new text is the bytes as they are: no copy of a file that may be 60 MB */
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(ctx->arena));
    if (doc->bom) ec_buf_append(&b, "\xEF\xBB\xBF", 3);
    size_t run = 0;
    for (size_t i = 0; i < g.content.len; i++) {
      if (g.content.ptr[i] != '\n' || !crlf || (i && g.content.ptr[i - 1] == '\r')) continue;
      ec_buf_append(&b, g.content.ptr + run, i - run);
      ec_buf_append_char(&b, '\r');
      run = i;
    }
    ec_buf_append(&b, g.content.ptr + run, g.content.len - run);
    if (b.oom) { ec_buf_free(&b); return ec_fail_oom(ctx); }
    bytes = ec_buf_finish(&b, ctx->arena);
    if (!bytes.ptr) bytes = ec_arena_strdup(ctx->arena, "", 0);
    ec_arena_release(ctx->arena, (void *)g.content.ptr);
  }
  /* The doc is a copy of the bytes; the bytes and the doc they replace go back at once. */
  ec_doc next;
  if (ec_doc_load(ctx->arena, bytes, &next) == EC_BINARY_FILE)
    return ec_fail(ctx, EC_BINARY_FILE, "the new content of '%.*s' holds NUL bytes", (int)f->path.len, f->path.ptr);
  if (!next.text) return ec_fail_oom(ctx);
  ec_arena_release(ctx->arena, (void *)bytes.ptr);
  ec_ws_replace_doc(ctx, f, &next);
  for (size_t i = 0; i < g.applied.n && i < 1000; i++)
    if (ec_ws_add_match(ctx, f, g.applied.items[i].start_line, g.applied.items[i].end_line, g.applied.items[i].strategy,
                        g.applied.items[i].confidence))
      return EC_OUT_OF_MEMORY;
  f->replacements = (uint32_t)g.applied.total;
  return EC_OK;
}

