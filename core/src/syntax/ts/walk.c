/* The tree-sitter walker: parse, reparse the edit incrementally, list errors and definitions (walk.h). */
#include "walk.h"
#include "../wire.h"
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Section - the growing word buffer */

typedef struct words {
  uint32_t *w;
  size_t n, cap;
  bool oom;
} words;

static size_t put(words *o, uint32_t v) {
  if (o->oom) return 0;
  if (o->n == o->cap) {
    size_t cap = o->cap ? o->cap * 2 : 256;
    uint32_t *w = realloc(o->w, cap * sizeof *w);
    if (!w) { o->oom = true; return 0; }
    o->w = w;
    o->cap = cap;
  }
  o->w[o->n] = v;
  return o->n++;
}

/* The names MISSING nodes carry (a grammar's static type strings), interned by pointer. */
typedef struct names {
  const char *s[64];
  size_t n;
} names;

static uint32_t name_index(names *t, const char *s) {
  for (size_t i = 0; i < t->n; i++)
    if (t->s[i] == s) return (uint32_t)i;
  if (t->n == sizeof t->s / sizeof t->s[0]) return EC_SYN_WIRE_NONE;
  t->s[t->n] = s;
  return (uint32_t)t->n++;
}

/* Section - parsing under a work budget */

typedef struct budget {
  uint64_t reports, limit;
} budget;

/* Called every 100 parser operations: true stops the parse. The count is the same on every
 * machine and build, so where a parse stops is too. */
static bool over_budget(TSParseState *state) {
  budget *b = state->payload;
  return ++b->reports > b->limit;
}

typedef struct source {
  const char *p;
  uint32_t len;
} source;

static const char *read_text(void *payload, uint32_t byte, TSPoint point, uint32_t *bytes_read) {
  (void)point;
  const source *s = payload;
  if (byte >= s->len) { *bytes_read = 0; return ""; }
  *bytes_read = s->len - byte;
  return s->p + byte;
}

static TSTree *parse(TSParser *parser, const TSTree *old, const char *text, uint32_t len, bool *stopped) {
  source s = {text, len};
  budget b = {0, EC_SYN_WORK_BASE + (uint64_t)len * EC_SYN_WORK_PER_BYTE};
  TSInput in = {&s, read_text, TSInputEncodingUTF8, NULL};
  TSParseOptions opts = {&b, over_budget};
  TSTree *t = ts_parser_parse_with_options(parser, old, in, opts);
  *stopped = t == NULL;
  ts_parser_reset(parser); /* a stopped parse would otherwise resume on the next call */
  return t;
}

/* Section - the edit between two texts */

/* Where a text's byte offset `off` is, as tree-sitter counts: row, and column in bytes. */
static TSPoint point_at(const char *text, uint32_t off) {
  TSPoint p = {0, 0};
  uint32_t line_start = 0;
  const char *q = text, *end = text + off;
  while ((q = memchr(q, '\n', (size_t)(end - q)))) {
    p.row++;
    q++;
    line_start = (uint32_t)(q - text);
  }
  p.column = off - line_start;
  return p;
}

/* The one edit that turns a into b: their common prefix and suffix stay, the middle changes.
 * The ends are moved off the middle of a UTF-8 sequence. */
static TSInputEdit edit_between(const char *a, uint32_t a_len, const char *b, uint32_t b_len) {
  uint32_t most = a_len < b_len ? a_len : b_len, pre = 0, suf = 0;
  while (pre < most && a[pre] == b[pre]) pre++;
  while (pre > 0 && ((unsigned char)a[pre] & 0xC0) == 0x80) pre--;
  while (suf < most - pre && a[a_len - 1 - suf] == b[b_len - 1 - suf]) suf++;
  while (suf > 0 && ((unsigned char)a[a_len - suf] & 0xC0) == 0x80) suf--;
  TSInputEdit e;
  e.start_byte = pre;
  e.old_end_byte = a_len - suf;
  e.new_end_byte = b_len - suf;
  e.start_point = point_at(a, pre);
  e.old_end_point = point_at(a, e.old_end_byte);
  e.new_end_point = point_at(b, e.new_end_byte);
  return e;
}

/* Section - listing errors and definitions */

typedef struct defset {
  TSSymbol sym[48];
  size_t n;
} defset;

static void defs_resolve(const TSLanguage *lang, const char *types, defset *d) {
  d->n = 0;
  while (types && *types) {
    while (*types == ' ') types++;
    size_t len = strcspn(types, " ");
    if (len && d->n < sizeof d->sym / sizeof d->sym[0]) {
      TSSymbol s = ts_language_symbol_for_name(lang, types, (uint32_t)len, true);
      if (s) d->sym[d->n++] = s;
    }
    types += len;
  }
}

static bool is_def(const defset *d, TSNode n) {
  if (!d->n || !ts_node_is_named(n)) return false;
  TSSymbol s = ts_node_symbol(n);
  for (size_t i = 0; i < d->n; i++)
    if (d->sym[i] == s) return true;
  return false;
}

/* One side's block: stopped, total_errors, n_errors, n_defs, the errors, the definitions. */
static void list_side(words *o, names *nm, const TSTree *t, const defset *d) {
  size_t head = put(o, t ? 0 : 1);
  put(o, 0);
  put(o, 0);
  put(o, 0);
  if (!t || o->oom) return;
  uint32_t total = 0, listed = 0;
  /* Errors first (the word layout lists them before the definitions), then definitions. */
  for (int pass = 0; pass < 2; pass++) {
    uint32_t ndefs = 0;
    if (pass == 1 && !d->n) break;
    TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(t));
    for (;;) {
      TSNode n = ts_tree_cursor_current_node(&c);
      bool descend;
      if (pass == 0) {
        bool err = ts_node_is_error(n), missing = !err && ts_node_is_missing(n);
        if (err || missing) {
          total++;
          if (listed < EC_SYN_WIRE_MAX_ERRORS) {
            listed++;
            put(o, err ? EC_SYN_KIND_ERROR : EC_SYN_KIND_MISSING);
            put(o, ts_node_start_byte(n));
            put(o, ts_node_end_byte(n));
            put(o, missing ? name_index(nm, ts_node_type(n)) : EC_SYN_WIRE_NONE);
          }
        }
        descend = !err && ts_node_has_error(n);
      } else {
        if (is_def(d, n) && ndefs < EC_SYN_WIRE_MAX_DEFS) {
          ndefs++;
          put(o, ts_node_start_byte(n));
          put(o, ts_node_end_byte(n));
        }
        descend = !ts_node_is_error(n);
      }
      if (descend && ts_tree_cursor_goto_first_child(&c)) continue;
      bool more = false;
      while (!(more = ts_tree_cursor_goto_next_sibling(&c)) && ts_tree_cursor_goto_parent(&c)) {}
      if (!more) break;
    }
    ts_tree_cursor_delete(&c);
    if (!o->oom && pass == 1) o->w[head + 3] = ndefs;
  }
  if (!o->oom) {
    o->w[head + 1] = total;
    o->w[head + 2] = listed;
  }
}

static void put_strings(words *o, const names *nm) {
  put(o, (uint32_t)nm->n);
  for (size_t i = 0; i < nm->n; i++) {
    size_t len = strlen(nm->s[i]);
    put(o, (uint32_t)len);
    for (size_t k = 0; k < len; k += 4) {
      uint32_t w = 0;
      memcpy(&w, nm->s[i] + k, len - k < 4 ? len - k : 4);
      put(o, w);
    }
  }
}

uint32_t *ec_ts_scan(const TSLanguage *lang, const char *a, uint32_t a_len, const char *b, uint32_t b_len,
                     const char *def_types, size_t *bytes) {
  words o = {0};
  names nm = {{0}, 0};
  put(&o, EC_SYN_WIRE_MAGIC);
  put(&o, EC_SYN_WIRE_VERSION);
  size_t status = put(&o, EC_SYN_WIRE_OK);
  put(&o, b ? 2 : 1);
  TSParser *parser = lang ? ts_parser_new() : NULL;
  if (!lang || !parser || !ts_parser_set_language(parser, lang)) {
    if (!o.oom) o.w[status] = EC_SYN_WIRE_NO_GRAMMAR;
  } else {
    defset d;
    defs_resolve(lang, def_types, &d);
    bool stopped_a = false, stopped_b = false;
    TSTree *ta = parse(parser, NULL, a, a_len, &stopped_a), *tb = NULL;
    if (b) {
      /* Incremental: the edited copy of a's tree lends b every subtree outside the edit. */
      TSTree *old = NULL;
      if (ta) {
        old = ts_tree_copy(ta);
        TSInputEdit e = edit_between(a, a_len, b, b_len);
        ts_tree_edit(old, &e);
      }
      tb = parse(parser, old, b, b_len, &stopped_b);
      if (old) ts_tree_delete(old);
    }
    list_side(&o, &nm, ta, &d);
    if (b) list_side(&o, &nm, tb, &d);
    if (ta) ts_tree_delete(ta);
    if (tb) ts_tree_delete(tb);
  }
  if (parser) ts_parser_delete(parser);
  put_strings(&o, &nm);
  if (o.oom) {
    free(o.w);
    return NULL;
  }
  *bytes = o.n * sizeof *o.w;
  return o.w;
}
