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

static const ec_host HOST = {NULL, clock_ms, NULL, NULL};

/* The ceilings this module's host (the npm package: setCeilings) set; zero members = the build's. */
static ec_limits ceilings;

EMSCRIPTEN_KEEPALIVE char *editcore_run(const char *request, size_t len, size_t *response_len) {
  ec_host host = HOST;
  host.ceilings = &ceilings;
  return ec_run_json(request, len, &host, response_len);
}

EMSCRIPTEN_KEEPALIVE void editcore_free(char *response) { ec_free(&HOST, response); }

EMSCRIPTEN_KEEPALIVE const char *editcore_version(void) { return ec_version(); }

/* The npm package's setCeilings: clear, then set each one given. */
EMSCRIPTEN_KEEPALIVE void editcore_clear_ceilings(void) {
  ec_limits none = {0};
  ceilings = none;
}

/* Sets one ceiling; 1 when the name and value (a positive integer) were taken. */
EMSCRIPTEN_KEEPALIVE int editcore_set_ceiling(const char *name, double value) {
  if (!(value >= 1 && value <= 9007199254740992.0) || value != (double)(uint64_t)value) return 0;
  return ec_limits_set(&ceilings, name, (uint64_t)value) ? 1 : 0;
}
