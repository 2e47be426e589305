/*
 * editcore.wasm's flag: the full edit engine without what wasm/tools_deferred.c stubs out and
 * without the numbers libc alone reads or prints exactly (wasm/wasm_numbers.c). A run that
 * reached one of those is discarded by the host and made again on editcore-tools.wasm, as
 * editcore-lite.wasm's runs are sent on (wasm/lite_deferred.c).
 */
#include <emscripten/emscripten.h>

static int needs_tools;

void ec_wasm_needs_whole(void) { needs_tools = 1; }

/** 1 when the last run reached a part this module leaves out (its response is to be discarded); clears the flag. */
EMSCRIPTEN_KEEPALIVE int editcore_needs_tools(void) {
  int r = needs_tools;
  needs_tools = 0;
  return r;
}
