/*
 * Where a scan's parsing happens. One function, two implementations chosen at link time:
 *   ts/linked.c            native and WASI: the grammars are linked in (cmake/syntax.cmake);
 *   wasm/syntax_import.c   Emscripten: the engine asks its host, and the npm package answers
 *                          from the language's module (js/src/syntax.js), loaded on demand.
 * Both answer in the wire form (wire.h), so what the core reads is the same in every build.
 */
#ifndef EC_SYNTAX_BACKEND_H
#define EC_SYNTAX_BACKEND_H
#include "../base/arena.h"

/**
 * Scans `text_a` (and `text_b` as an edit of it, when not NULL) with the grammar called `lang`,
 * listing definitions of the node types in `def_types` ("" none). Returns the wire words,
 * allocated in `a` (their count in *n_words), with status EC_SYN_WIRE_NO_GRAMMAR when the
 * build or host has no such grammar (the browser package then loads it and runs the request
 * again); NULL only when out of memory.
 */
const uint32_t *ec_syntax_backend_scan(ec_arena *a, const char *lang, ec_str text_a, const ec_str *text_b,
                                       const char *def_types, size_t *n_words);

#endif
