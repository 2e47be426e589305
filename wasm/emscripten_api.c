/*
 * The Emscripten build's exports, called by js/. Bytes in, bytes out: the JS side copies the
 * request's UTF-8 into wasm memory, gets the response pointer and length, and frees it.
 * time_ms is filled by the JS side (it owns the clock), so the core's output is deterministic.
 */
#include "editcore.h"
#include <emscripten/emscripten.h>

EMSCRIPTEN_KEEPALIVE char *editcore_run(const char *request, size_t len, size_t *response_len) {
  return ec_run_json(request, len, NULL, response_len);
}

EMSCRIPTEN_KEEPALIVE void editcore_free(char *response) { ec_free(NULL, response); }

EMSCRIPTEN_KEEPALIVE const char *editcore_version(void) { return ec_version(); }
