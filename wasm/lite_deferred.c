/*
 * editcore-lite.wasm, the browser's first download: the same core and exports as editcore.wasm,
 * without the parts most edits never reach — the regex strategy (and with it PCRE2), the lazy
 * and Codex formats, the peer dialects of Aider, Cline and Roo, the agent tools (tool calls
 * and tool definitions, core/src/tools/: runTool) and self-correction (core/src/correct/: a
 * second model call's prompt and its checked answer, rare beside the edits themselves), the
 * diagnosis of an edit that matched nothing (messages/diagnose.c), the fuzzy strategy (asked for
 * by name), patch's -pN/-R and diff -ruN tree names (parse/udiff_orient.c), files in UTF-16, bytes in
 * base64 and files that are not UTF-8 (text/utf16.c, base/base64.c, text/kept_message.c). Each of
 * their entry points
 * is replaced here by a stub that only raises a flag (so the linker leaves the real objects and
 * everything only they use out of the module). A run that raised it is discarded by the host and
 * run again on the full editcore.wasm; a run that did not never came near the missing code, so
 * its response is the full build's, byte for byte (tests/conformance/lite.mjs checks every vector).
 */
#include "formats/formats.h"
#include "parse/udiff_parse.h"
#include "match/ladder.h"
#include "match/lineutil.h"
#include "request/result.h"
#include "messages/enclosing.h"
#include "messages/diagnose.h"
#include "syntax/syntax.h"
#include "base/str.h"
#include "text/encoding.h"
#include "text/utf16.h"
#include "base/base64.h"
#include <emscripten/emscripten.h>
#include <stdlib.h>
#include <string.h>

static int needs_full;

/* What the run needs: 1, editcore.wasm (the full edit engine); 2, editcore-tools.wasm (the agent
 * tools, the write protocol, self-correction: wasm/tools_deferred.c), so a tool call goes there
 * straight, not through editcore.wasm. A run that reaches both asks for the larger. */
static void defer(int module) {
  if (needs_full < module) needs_full = module;
}

/** Nonzero when the last run reached a part this module leaves out (its response is to be
 *  discarded): 1, editcore.wasm answers it; 2, only editcore-tools.wasm does. Clears the flag. */
EMSCRIPTEN_KEEPALIVE int editcore_lite_needs_full(void) {
  int r = needs_full;
  needs_full = 0;
  return r;
}

#define DEFERRED_FORMAT(name) \
  ec_error_code name(ec_ctx *ctx) { (void)ctx; defer(1); return EC_INVALID_PARAM; }

DEFERRED_FORMAT(ec_format_codex_patch)
DEFERRED_FORMAT(ec_format_lazy)
/* A model's raw reply (reply/: detection, names, dispatch, 28 KB raw and 12.5 KB gzip of this
 * module): its commonest content, SEARCH/REPLACE blocks, needs editcore.wasm anyway (the Cline
 * dialect below), so the reply format goes there whole. */
DEFERRED_FORMAT(ec_format_reply)

/* The Cline dialect, editcore's own search_replace reading, is in editcore.wasm; Aider's and
 * Roo's only in editcore-tools.wasm (wasm/tools_deferred.c). */
DEFERRED_FORMAT(ec_dialect_cline)

ec_error_code ec_strategy_regex(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  (void)env; (void)old_text; (void)new_text; (void)out;
  defer(1);
  return EC_INVALID_PARAM;
}

/* What only editcore-tools.wasm answers (wasm/tools_deferred.c, wasm/wasm_numbers.c). */
void ec_wasm_needs_whole(void) { defer(2); }

/* The fuzzy strategy is asked for by name (or reached by the gemini profile after the regex one,
 * which is deferred already). */
ec_error_code ec_strategy_fuzzy(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  (void)env; (void)old_text; (void)new_text; (void)out;
  defer(1);
  return EC_INVALID_PARAM;
}

/* `patch -pN` / `-R` (options.strip, options.reverse) and diff -ruN's timestamped tree names: a
 * diff without them is left as it is by the real one too, so it is answered here. */
ec_error_code ec_udiff_orient(ec_arena *a, ec_ud_patch *patch, bool has_strip, int strip, bool reverse, ec_ud_error *err) {
  (void)a; (void)strip; (void)err;
  bool plain = !has_strip && !reverse;
  for (size_t k = 0; plain && k < patch->n_files; k++)
    if (patch->files[k].has_header && !patch->files[k].git && patch->files[k].timestamped) plain = false;
  if (plain) return EC_OK;
  defer(1);
  return EC_INVALID_PARAM;
}

ec_error_code ec_token_regex_find(ec_match_env *env, ec_str old_text, bool strict, ec_rx_match **out, size_t *n) {
  (void)env; (void)old_text; (void)strict;
  *out = NULL;
  *n = 0;
  defer(1);
  return EC_INVALID_PARAM;
}

/* Files in UTF-16 (decoded and encoded back, text/utf16.c) and the words of a refusal under the
 * rule for files that are not UTF-8 (text/kept_message.c): rare, and left to the full module. */
ec_error_code ec_utf16_decode(ec_arena *a, ec_str bytes, bool be, ec_str *text, ec_str *problem) {
  (void)a; (void)bytes; (void)be; (void)text;
  defer(1);
  *problem = (ec_str){"deferred", 8};
  return EC_ENCODING;
}

ec_error_code ec_utf16_encode(ec_arena *a, ec_str text, bool be, ec_str *bytes) {
  (void)a; (void)text; (void)be; (void)bytes;
  defer(1);
  return EC_ENCODING;
}

/* The rule for a file that is not UTF-8 (text/kept_message.c): such a file goes to the full
 * module; a UTF-8 one (nearly every file) is answered here. */
bool ec_text_keeps_bytes(ec_str before, ec_str after, ec_kept *why) {
  (void)after;
  memset(why, 0, sizeof *why);
  why->first_invalid = ec_utf8_first_invalid(before);
  if (why->first_invalid == before.len) return true;
  defer(1);
  return false;
}

ec_str ec_text_kept_message(ec_arena *a, ec_str path, ec_str before, ec_str after, const ec_kept *why) {
  (void)a; (void)path; (void)before; (void)after; (void)why;
  defer(1);
  return (ec_str){"deferred", 8};
}

/* Bytes that are not UTF-8 in JSON ({"base64": ...}, base/base64.c): the full module reads and
 * writes them. */
void ec_base64_append(ec_buf *b, const char *p, size_t n) {
  (void)p;
  defer(1);
  for (size_t i = 0; i < (n + 2) / 3 * 4; i++) ec_buf_append_char(b, 'A'); /* a valid response to discard */
}

bool ec_base64_decode_into(const char *text, size_t len, unsigned char *out, size_t *out_len) {
  (void)text; (void)len; (void)out;
  defer(1);
  *out_len = 0;
  return true;
}

/* Tool calls, the write protocol, self-correction and the peer profiles' emulations: the stubs of
 * wasm/tools_deferred.c, shared with editcore.wasm, call ec_wasm_needs_whole() below. */

/* The diagnosis of a NO_MATCH (messages/diagnose.c: the closest places and what differs at the
 * best one): only an edit that failed reaches it, and its explanation is worth the full module's
 * download; an edit that applies never does. */
ec_error_code ec_diagnose_no_match(ec_match_env *env, ec_str old_text, ec_diagnosis *out) {
  (void)env; (void)old_text;
  memset(out, 0, sizeof *out);
  defer(1);
  return EC_OUT_OF_MEMORY; /* the run is discarded: any error ends it soonest */
}

/* The syntax check's rarer paths (docs/syntax.md): naming the definition around a NO_MATCH or
 * AMBIGUOUS place, and the C/C++ preprocessor rule (a C or C++ file with new errors). The report
 * itself stays: most edits of a known language are answered here. */
bool ec_enclosing_load(ec_ctx *ctx, ec_ws_file *f, ec_enclosing *out) {
  (void)ctx; (void)f;
  memset(out, 0, sizeof *out);
  defer(1);
  return false;
}

bool ec_syn_excuse_conditionals(ec_arena *a, ec_str after, const ec_syn_side *side, bool *fresh, size_t *n_fresh) {
  (void)a; (void)after; (void)side; (void)fresh; (void)n_fresh;
  defer(1);
  return false;
}

ec_str ec_enclosing_of(ec_ctx *ctx, const ec_enclosing *e, uint32_t first, uint32_t last) {
  (void)ctx; (void)e; (void)first; (void)last;
  ec_str none = {"", 0};
  return none;
}

/* Words for new syntax errors: only an edit that broke a file's syntax reaches them. */
ec_str ec_syn_describe(ec_arena *a, const ec_syntax_report *r, size_t max) {
  (void)a; (void)r; (void)max;
  defer(1);
  ec_str none = {"", 0};
  return none;
}

bool ec_syn_breaks(const ec_syntax_report *r) { return r && r->checked && r->parsed_before != 0 && r->new_error_count > 0; }

/* The syntax report of a file in a known language (docs/syntax.md): parsing, matching old errors
 * and placing new ones stay in the full module, which keeps this one within its download budget
 * (js/test/size.test.js); a file of an unknown language is answered here, as the full module does. */
ec_error_code ec_syn_report(ec_arena *a, const ec_syn_lang *lang, ec_str name, const ec_str *before, ec_str after,
                            ec_syntax_report **out) {
  (void)before; (void)after;
  *out = NULL;
  if (lang) {
    defer(1);
    return EC_OUT_OF_MEMORY; /* the run is discarded: any error ends it soonest */
  }
  *out = ec_syn_skipped(a, name, ec_str_eq_cstr(name, "unknown") ? "" : "editcore has no grammar by that name");
  return *out ? EC_OK : EC_OUT_OF_MEMORY;
}
