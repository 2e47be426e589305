/*
 * editcore.wasm, the full edit engine: every format, strategy and diagnosis, without the Aider
 * and Roo dialects (those profiles' own readings of the formats), the agent tools (tool calls and tool definitions, core/src/tools/: runTool and the MCP server's
 * tools), the hosts' write protocol (core/src/commit/: only file hosts ask it) and
 * self-correction (core/src/correct/: a second model call's prompt and its checked answer).
 * Those take 40 % of the engine's bytes and none of an edit in editcore's own formats; they are in
 * editcore-tools.wasm, the same core whole (the module editcore.wasm was before this split).
 * Their entry points are replaced here by stubs that raise a flag, so the linker leaves the
 * real code out; a run that raised it is discarded by the host and run again on
 * editcore-tools.wasm (js/src/engine.js), exactly as editcore-lite.wasm defers to this module
 * (wasm/lite_deferred.c). A run that did not raise it never came near the missing code, so its
 * response is the whole engine's, byte for byte (tests/conformance/lite.mjs checks every vector).
 */
#include "formats/formats.h"
#include "peers/peers.h"
#include "request/result.h"
#include "editcore_commit.h"
#include <emscripten/emscripten.h>
#include <stdlib.h>
#include <string.h>

static int needs_tools;

/** 1 when the last run reached a part this module leaves out (its response is to be discarded); clears the flag. */
EMSCRIPTEN_KEEPALIVE int editcore_needs_tools(void) {
  int r = needs_tools;
  needs_tools = 0;
  return r;
}

/* The Aider and Roo dialects (core/src/peers/: a request under the aider or roo profile, or naming
 * that dialect, answered as that tool would), for requests that ask to be another tool. The Cline
 * dialect stays: it is editcore's own search_replace reading. */
#define DEFERRED_DIALECT(name) \
  ec_error_code name(ec_ctx *ctx) { (void)ctx; needs_tools = 1; return EC_INVALID_PARAM; }

DEFERRED_DIALECT(ec_dialect_aider)
DEFERRED_DIALECT(ec_dialect_roo)
DEFERRED_DIALECT(ec_aider_replace)
DEFERRED_DIALECT(ec_aider_udiff)
DEFERRED_DIALECT(ec_aider_whole_file)

/* A number libc alone reads or prints exactly (wasm/wasm_numbers.c). */
void ec_wasm_needs_whole(void) { needs_tools = 1; }

/* A tool call or a definitions request (the JSON entry point's other branch). The response must
 * still be one editcore_free can free; it is discarded. */
char *ec_tool_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  (void)request; (void)request_len; (void)host;
  needs_tools = 1;
  char *out = malloc(3);
  if (!out) return NULL;
  memcpy(out, "{}", 3);
  if (response_len) *response_len = 2;
  return out;
}

/* The write protocol's decisions (editcore_commit.h): the Node host asks them. */
char *ec_commit_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  return ec_tool_json(request, request_len, host, response_len);
}

/* Self-correction (correction_prompt, correction_apply): the result only has to be one the host
 * can serialise and free; it is discarded. */
ec_result *ec_correction_prompt(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  (void)failed; (void)c;
  needs_tools = 1;
  return ec_result_new(host ? host->allocator : NULL);
}

ec_result *ec_correction_apply(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  (void)failed; (void)c;
  needs_tools = 1;
  return ec_result_new(host ? host->allocator : NULL);
}
