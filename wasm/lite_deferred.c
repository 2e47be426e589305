/*
 * editcore-lite.wasm, the browser's first download: the same core and exports as editcore.wasm,
 * without the parts most edits never reach — the regex strategy (and with it PCRE2), the lazy
 * and Codex formats, the peer dialects of Aider, Cline and Roo, the agent tools (tool calls
 * and tool definitions, core/src/tools/: runTool) and self-correction (core/src/correct/: a
 * second model call's prompt and its checked answer, rare beside the edits themselves), files in
 * UTF-16, bytes in base64 and the words of an encoding refusal (text/utf16.c, base/base64.c,
 * text/kept_message.c). Each of
 * their entry points
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
#include "request/result.h"
#include "text/encoding.h"
#include "text/utf16.h"
#include "base/base64.h"
#include <emscripten/emscripten.h>
#include <stdlib.h>
#include <string.h>

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

/* Files in UTF-16 (decoded and encoded back, text/utf16.c) and the words of a refusal under the
 * rule for files that are not UTF-8 (text/kept_message.c): rare, and left to the full module. */
ec_error_code ec_utf16_decode(ec_arena *a, ec_str bytes, bool be, ec_str *text, ec_str *problem) {
  (void)a; (void)bytes; (void)be; (void)text;
  needs_full = 1;
  *problem = (ec_str){"deferred", 8};
  return EC_ENCODING;
}

ec_error_code ec_utf16_encode(ec_arena *a, ec_str text, bool be, ec_str *bytes) {
  (void)a; (void)text; (void)be; (void)bytes;
  needs_full = 1;
  return EC_ENCODING;
}

ec_str ec_text_kept_message(ec_arena *a, ec_str path, ec_str before, ec_str after, const ec_kept *why) {
  (void)a; (void)path; (void)before; (void)after; (void)why;
  needs_full = 1;
  return (ec_str){"deferred", 8};
}

/* Bytes that are not UTF-8 in JSON ({"base64": ...}, base/base64.c): the full module reads and
 * writes them. */
void ec_base64_encode(const unsigned char *bytes, size_t n, char *out) {
  (void)bytes;
  needs_full = 1;
  memset(out, 'A', (n + 2) / 3 * 4); /* a valid response to discard */
}

bool ec_base64_decode_into(const char *text, size_t len, unsigned char *out, size_t *out_len) {
  (void)text; (void)len; (void)out;
  needs_full = 1;
  *out_len = 0;
  return true;
}

/* A tool call or a definitions request (the JSON entry point's other branch): the whole of tools/
 * stays in the full module. The response must still be one editcore_free can free; it is discarded. */
char *ec_tool_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  (void)request; (void)request_len; (void)host;
  needs_full = 1;
  char *out = malloc(3);
  if (!out) return NULL;
  memcpy(out, "{}", 3);
  if (response_len) *response_len = 2;
  return out;
}

/* Self-correction (correction_prompt, correction_apply): the result only has to be one the host
 * can serialise and free; it is discarded. */
ec_result *ec_correction_prompt(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  (void)failed; (void)c;
  needs_full = 1;
  return ec_result_new(host ? host->allocator : NULL);
}

ec_result *ec_correction_apply(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  (void)failed; (void)c;
  needs_full = 1;
  return ec_result_new(host ? host->allocator : NULL);
}
