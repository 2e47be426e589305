/*
 * What only editcore-tools.wasm (the whole core) has: the agent tools (tool calls and tool
 * definitions, core/src/tools/: runTool and the MCP server's tools), the hosts' write protocol
 * (core/src/commit/: only file hosts ask it), self-correction (core/src/correct/: a second model
 * call's prompt and its checked answer) and the peers' own edit emulations (core/src/peers/: a
 * request under the aider, roo, gemini, claude, openhands or cline profile, or naming the aider
 * or roo dialect, answered as that tool would; the Cline dialect outside the cline profile is
 * editcore's own search_replace reading and stays). Together over 40 % of the engine's bytes and none of an edit in
 * editcore's own formats and profile.
 *
 * editcore.wasm and editcore-lite.wasm link these stubs instead, so the linker leaves the real
 * code out. Each calls ec_wasm_needs_whole(), which raises the module's flag
 * (wasm/full_flag.c: editcore_needs_tools; wasm/lite_deferred.c: editcore_lite_needs_full = 2);
 * the host discards the run and makes it again on editcore-tools.wasm (js/src/engine.js). A run
 * that raised no flag never came near the missing code, so its response is the whole engine's,
 * byte for byte (tests/conformance/lite.mjs checks every vector).
 */
#include "formats/formats.h"
#include "peers/peers.h"
#include "formats/replace_gemini.h"
#include "reply/reply.h"
#include "peers/claude_openhands/editor.h"
#include "request/result.h"
#include "editcore_commit.h"
#include <stdlib.h>
#include <string.h>

void ec_wasm_needs_whole(void);

/* A tool call or a definitions request (the JSON entry point's other branch). The response must
 * still be one editcore_free can free; it is discarded. */
char *ec_tool_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  (void)request; (void)request_len; (void)host;
  ec_wasm_needs_whole();
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
  ec_wasm_needs_whole();
  return ec_result_new(host ? host->allocator : NULL);
}

ec_result *ec_correction_apply(const ec_request *failed, const ec_correction *c, const ec_host *host) {
  (void)failed; (void)c;
  ec_wasm_needs_whole();
  return ec_result_new(host ? host->allocator : NULL);
}

#define DEFERRED_DIALECT(name) \
  ec_error_code name(ec_ctx *ctx) { (void)ctx; ec_wasm_needs_whole(); return EC_INVALID_PARAM; }

DEFERRED_DIALECT(ec_dialect_aider)
DEFERRED_DIALECT(ec_dialect_roo)
DEFERRED_DIALECT(ec_aider_replace)
DEFERRED_DIALECT(ec_aider_udiff)
DEFERRED_DIALECT(ec_aider_whole_file)

/* The cline profile's search_replace (peers/cline/cline_peer.c: Cline's constructNewFileContent,
 * v1 and v2, its own matching and messages). */
ec_error_code ec_cline_peer(ec_ctx *ctx, ec_ws_file *f, ec_str text) {
  (void)ctx; (void)f; (void)text;
  ec_wasm_needs_whole();
  return EC_INVALID_PARAM;
}

/* A reply in the aider profile (reply/peer_aider.c): Aider's own coders read it, all deferred
 * above, so the detection and refusals around them go there too. */
ec_error_code ec_rp_aider(ec_ctx *ctx, ec_rp_mode mode) {
  (void)ctx; (void)mode;
  ec_wasm_needs_whole();
  return EC_INVALID_PARAM;
}

/* The gemini profile's replace (formats/replace_gemini.c: the Gemini CLI edit tool's checks,
 * messages and calculateReplacement) and the Claude / OpenHands text editors' str_replace and
 * insert (their profiles' replace and insert): 12 KB raw, 5.8 KB gzip of editcore.wasm, which a
 * user of those profiles fetches with the tools they come with. */
ec_error_code ec_gemini_replace(ec_ctx *ctx, ec_ws_file *f) {
  (void)ctx; (void)f;
  ec_wasm_needs_whole();
  return EC_INVALID_PARAM;
}

ec_error_code ec_peer_editor_replace(ec_ctx *ctx, ec_ws_file *f) {
  (void)ctx; (void)f;
  ec_wasm_needs_whole();
  return EC_INVALID_PARAM;
}

ec_error_code ec_peer_editor_insert(ec_ctx *ctx, ec_ws_file *f, ec_doc *doc, int64_t k) {
  (void)ctx; (void)f; (void)doc; (void)k;
  ec_wasm_needs_whole();
  return EC_INVALID_PARAM;
}
