/*
 * editcore-lite.wasm, the browser's first download: the same core and exports as editcore.wasm,
 * without the parts most edits never reach — the regex strategy (and with it PCRE2), the lazy
 * and Codex formats, and the peer dialects of Aider, Cline and Roo. Each of their entry points
 * is replaced here by a stub that only raises a flag (so the linker leaves the real objects and
 * everything only they use out of the module). A run that raised it is discarded by the host and
 * run again on the full editcore.wasm; a run that did not never came near the missing code, so
 * its response is the full build's, byte for byte (tests/conformance/lite.mjs checks every vector).
 */
#include "formats/formats.h"
#include "parse/udiff_parse.h"
#include "peers/peers.h"
#include "match/ladder.h"
#include "match/lineutil.h"
#include <emscripten/emscripten.h>

static int needs_full;

/** 1 when the last run reached a part this module leaves out (its response is to be discarded); clears the flag. */
EMSCRIPTEN_KEEPALIVE int editcore_lite_needs_full(void) {
  int r = needs_full;
  needs_full = 0;
  return r;
}

#define DEFERRED_FORMAT(name) \
  ec_error_code name(ec_ctx *ctx) { (void)ctx; needs_full = 1; return EC_INVALID_PARAM; }

DEFERRED_FORMAT(ec_format_codex_patch)
DEFERRED_FORMAT(ec_format_lazy)
DEFERRED_FORMAT(ec_dialect_cline)
DEFERRED_FORMAT(ec_dialect_aider)
DEFERRED_FORMAT(ec_dialect_roo)
DEFERRED_FORMAT(ec_aider_replace)
DEFERRED_FORMAT(ec_aider_udiff)
DEFERRED_FORMAT(ec_aider_whole_file)

ec_error_code ec_strategy_regex(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  (void)env; (void)old_text; (void)new_text; (void)out;
  needs_full = 1;
  return EC_INVALID_PARAM;
}

ec_error_code ec_token_regex_find(ec_match_env *env, ec_str old_text, bool strict, ec_rx_match **out, size_t *n) {
  (void)env; (void)old_text; (void)strict;
  *out = NULL;
  *n = 0;
  needs_full = 1;
  return EC_INVALID_PARAM;
}
