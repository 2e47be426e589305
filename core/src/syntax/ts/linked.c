/*
 * The native and WASI backend (../backend.h): every grammar cmake/syntax.cmake built is linked
 * in, listed by the generated editcore_grammars.h as X(name, c_name) rows.
 */
#include "../backend.h"
#include "../wire.h"
#include "walk.h"
#include "editcore_grammars.h"
#include <stdlib.h>
#include <string.h>

#define DECLARE(name, c_name) const TSLanguage *tree_sitter_##c_name(void);
EC_TS_GRAMMARS(DECLARE)

typedef struct grammar {
  const char *name;
  const TSLanguage *(*language)(void);
} grammar;

#define ROW(name, c_name) {#name, tree_sitter_##c_name},
static const grammar GRAMMARS[] = {EC_TS_GRAMMARS(ROW){NULL, NULL}};

const uint32_t *ec_syntax_backend_scan(ec_arena *a, const char *lang, ec_str text_a, const ec_str *text_b,
                                       const char *def_types, size_t *n_words) {
  const TSLanguage *language = NULL;
  for (const grammar *g = GRAMMARS; g->name && !language; g++)
    if (!strcmp(g->name, lang)) language = g->language();
  size_t bytes = 0;
  uint32_t *w = ec_ts_scan(language, text_a.ptr ? text_a.ptr : "", (uint32_t)text_a.len,
                           text_b ? (text_b->ptr ? text_b->ptr : "") : NULL, text_b ? (uint32_t)text_b->len : 0, def_types, &bytes);
  if (!w) return NULL;
  uint32_t *copy = ec_arena_alloc(a, bytes);
  if (copy) memcpy(copy, w, bytes);
  free(w);
  *n_words = bytes / sizeof *copy;
  return copy;
}
