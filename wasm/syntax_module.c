/*
 * One language's syntax module for the browser (js/dist/syntax/<language>.wasm): the
 * tree-sitter runtime, that language's grammar and the same walker as the native build
 * (core/src/syntax/ts/walk.c), as a standalone wasm with a few exports and no JS glue. The npm
 * package loads it the first time a request needs the language (js/src/syntax.js) and serves
 * the engine's scans from it (wasm/syntax_import.c). EC_GRAMMAR is tree_sitter_<c name>,
 * set per module by wasm/CMakeLists.txt.
 */
#include "syntax/ts/walk.h"
#include <emscripten/emscripten.h>
#include <stdlib.h>

const TSLanguage *EC_GRAMMAR(void);

static size_t last_bytes;

EMSCRIPTEN_KEEPALIVE void *ec_sm_malloc(size_t n) { return malloc(n ? n : 1); }

EMSCRIPTEN_KEEPALIVE void ec_sm_free(void *p) { free(p); }

/** Scans a (and b as an edit of it, when has_b): the wire words (free with ec_sm_free), their size
 *  in ec_sm_bytes(); NULL when out of memory. */
EMSCRIPTEN_KEEPALIVE uint32_t *ec_sm_scan(const char *a, uint32_t a_len, const char *b, uint32_t b_len, int has_b,
                                          const char *def_types) {
  last_bytes = 0;
  return ec_ts_scan(EC_GRAMMAR(), a, a_len, has_b ? b : NULL, b_len, def_types, &last_bytes);
}

EMSCRIPTEN_KEEPALIVE size_t ec_sm_bytes(void) { return last_bytes; }
