/*
 * The browser build's syntax backend (core/src/syntax/backend.h): editcore.wasm carries no
 * parser; it asks its host. The npm package (js/src/syntax.js) answers from the language's own
 * module (runtime + grammar + the same walker as the native build, wasm/syntax_module.c),
 * copying the text there and the wire words back, so the core reads the same words as natively.
 * A language whose module is not loaded yet is answered "no grammar" and noted by the package,
 * which loads the module and runs the request again (js/src/engine.js): that first response is
 * never seen, and every response a caller gets is the one the native build gives.
 */
#include "syntax/backend.h"
#include "syntax/wire.h"
#include <emscripten/emscripten.h>
#include <string.h>

/* Scans in the host; the answer's size in bytes, held by the host until taken, or -1 when the
 * language's module is not loaded (the host notes which). */
EM_JS(int, ec_syntax_host_scan, (const char *lang, const char *a, size_t a_len, const char *b, size_t b_len, int has_b,
                                 const char *defs), {
  var s = Module["editcoreSyntax"];
  return s ? s.scan(Module, lang, a, a_len, b, b_len, has_b, defs) : -1;
});

/* Copies the answer held by the host to dst (NULL: drops it). */
EM_JS(void, ec_syntax_host_take, (uint32_t *dst), {
  Module["editcoreSyntax"].take(Module, dst);
});

const uint32_t *ec_syntax_backend_scan(ec_arena *a, const char *lang, ec_str text_a, const ec_str *text_b,
                                       const char *def_types, size_t *n_words) {
  int n = ec_syntax_host_scan(lang, text_a.ptr ? text_a.ptr : "", text_a.len, text_b && text_b->ptr ? text_b->ptr : "",
                              text_b ? text_b->len : 0, text_b != NULL, def_types);
  if (n < 0) {
    static const uint32_t NONE[] = {EC_SYN_WIRE_MAGIC, EC_SYN_WIRE_VERSION, EC_SYN_WIRE_NO_GRAMMAR, 0};
    uint32_t *w = ec_arena_alloc(a, sizeof NONE);
    if (w) memcpy(w, NONE, sizeof NONE);
    *n_words = sizeof NONE / sizeof NONE[0];
    return w;
  }
  uint32_t *w = ec_arena_alloc(a, (size_t)n);
  ec_syntax_host_take(w);
  *n_words = (size_t)n / sizeof *w;
  return w;
}
