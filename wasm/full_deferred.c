/*
 * What editcore.wasm leaves to editcore-tools.wasm beyond wasm/tools_deferred.c's parts, which
 * editcore-lite.wasm leaves out as well (wasm/lite_deferred.c sends those runs here first):
 * the fuzzy strategy, asked for by name (`strategies: [..., "fuzzy"]`; the gemini profile that
 * reaches it is deferred already) and, in the NO_MATCH diagnosis, the ranking of windows when the
 * edit shares no line with the file. The stub raises the module's flag (wasm/full_flag.c); the
 * host discards the run and makes it again on editcore-tools.wasm, so the response is the whole
 * engine's, byte for byte (tests/conformance/lite.mjs runs every vector on all three modules).
 */
#include "match/ladder.h"

void ec_wasm_needs_whole(void);

ec_error_code ec_strategy_fuzzy(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  (void)env; (void)old_text; (void)new_text; (void)out;
  ec_wasm_needs_whole();
  return EC_INVALID_PARAM;
}
