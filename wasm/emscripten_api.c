/*
 * The Emscripten build's exports, called by js/. Bytes in, bytes out: the JS side copies the
 * request's UTF-8 into wasm memory, gets the response pointer and length, and frees it.
 * The host lends the core a clock (performance.now() through emscripten_get_now), so
 * stats.time_ms is measured by the core itself, as on the native and WASI builds.
 */
#include "editcore.h"
#include <emscripten/emscripten.h>

static double clock_ms(void *user) {
  (void)user;
  return emscripten_get_now();
}

static const ec_host HOST = {NULL, clock_ms, NULL};

EMSCRIPTEN_KEEPALIVE char *editcore_run(const char *request, size_t len, size_t *response_len) {
  return ec_run_json(request, len, &HOST, response_len);
}

EMSCRIPTEN_KEEPALIVE void editcore_free(char *response) { ec_free(&HOST, response); }

EMSCRIPTEN_KEEPALIVE const char *editcore_version(void) { return ec_version(); }
