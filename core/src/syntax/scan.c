/* One scan: the backend's words read back into errors and definitions (syntax.h, wire.h). */
#include "syntax.h"
#include "backend.h"
#include "wire.h"
#include "../base/str.h"

/* Files larger than this are not parsed (reported as skipped): tree-sitter's trees take about
 * 20 bytes of memory per byte of source at worst measured (docs/syntax.md), and the browser's
 * engine and its grammar module each hold a copy of the text. */
#define EC_SYN_MAX_BYTES (16u << 20)

typedef struct reader {
  const uint32_t *w;
  size_t n, at;
  bool bad;
} reader;

static uint32_t next(reader *r) {
  if (r->at >= r->n) { r->bad = true; return 0; }
  return r->w[r->at++];
}

/* One side's block; names are resolved after the string table is read. `shift` is added to every
 * offset (the BOM left out of the parse). */
static bool read_side(ec_arena *a, reader *r, uint32_t shift, ec_syn_side *s, uint32_t **name_idx) {
  memset(s, 0, sizeof *s);
  s->stopped = next(r) != 0;
  s->total = next(r);
  uint32_t ne = next(r), nd = next(r);
  if (r->bad || ne > EC_SYN_WIRE_MAX_ERRORS || nd > EC_SYN_WIRE_MAX_DEFS || (size_t)ne * 4 + (size_t)nd * 2 > r->n - r->at) {
    r->bad = true;
    return true;
  }
  s->errors = ec_arena_calloc(a, ne + 1, sizeof *s->errors);
  s->defs = ec_arena_calloc(a, nd + 1, sizeof *s->defs);
  *name_idx = ec_arena_calloc(a, ne + 1, sizeof **name_idx);
  if (!s->errors || !s->defs || !*name_idx) return false;
  s->n_errors = ne;
  s->n_defs = nd;
  for (uint32_t i = 0; i < ne; i++) {
    ec_syn_err *e = &s->errors[i];
    e->kind = next(r);
    e->start = next(r) + shift;
    e->end = next(r) + shift;
    (*name_idx)[i] = next(r);
  }
  for (uint32_t i = 0; i < nd; i++) {
    s->defs[i].start = next(r) + shift;
    s->defs[i].end = next(r) + shift;
  }
  return true;
}

static void name_errors(ec_syn_side *s, const uint32_t *idx, const ec_str *names, uint32_t n_names) {
  for (size_t i = 0; i < s->n_errors; i++)
    if (idx[i] < n_names) s->errors[i].name = names[idx[i]];
}

static ec_str without_bom(ec_str t, uint32_t *shift) {
  *shift = t.len >= 3 && !memcmp(t.ptr, "\xEF\xBB\xBF", 3) ? 3 : 0;
  return ec_str_make(t.ptr + *shift, t.len - *shift);
}

ec_error_code ec_syn_scan(ec_arena *a, const ec_syn_lang *lang, ec_str text_a, const ec_str *text_b, bool defs,
                          ec_syn_status *status, ec_syn_side *side_a, ec_syn_side *side_b) {
  memset(side_a, 0, sizeof *side_a);
  if (side_b) memset(side_b, 0, sizeof *side_b);
  if (text_a.len > EC_SYN_MAX_BYTES || (text_b && text_b->len > EC_SYN_MAX_BYTES)) {
    *status = EC_SYN_TOO_LARGE;
    return EC_OK;
  }
  uint32_t shift_a, shift_b = 0;
  ec_str ta = without_bom(text_a, &shift_a), tb = {NULL, 0};
  if (text_b) tb = without_bom(*text_b, &shift_b);
  size_t n = 0;
  const uint32_t *w = ec_syntax_backend_scan(a, lang->name, ta, text_b ? &tb : NULL, defs ? lang->def_types : "", &n);
  if (!w) return EC_OUT_OF_MEMORY;
  reader r = {w, n, 0, false};
  uint32_t magic = next(&r), version = next(&r), st = next(&r), sides = next(&r);
  if (r.bad || magic != EC_SYN_WIRE_MAGIC || version != EC_SYN_WIRE_VERSION || st != EC_SYN_WIRE_OK) {
    if (st == EC_SYN_WIRE_OOM) return EC_OUT_OF_MEMORY;
    *status = EC_SYN_UNAVAILABLE;
    return EC_OK;
  }
  uint32_t *idx_a = NULL, *idx_b = NULL;
  if (!read_side(a, &r, shift_a, side_a, &idx_a)) return EC_OUT_OF_MEMORY;
  if (sides == 2 && side_b && !read_side(a, &r, shift_b, side_b, &idx_b)) return EC_OUT_OF_MEMORY;
  uint32_t n_names = next(&r);
  ec_str *names = r.bad || n_names > 64 ? NULL : ec_arena_calloc(a, n_names + 1, sizeof *names);
  for (uint32_t i = 0; names && i < n_names && !r.bad; i++) {
    uint32_t len = next(&r);
    if (len > 4 * (r.n - r.at)) { r.bad = true; break; }
    names[i] = ec_str_make((const char *)(r.w + r.at), len);
    r.at += (len + 3) / 4;
  }
  if (r.bad || !names || sides != (text_b ? 2u : 1u)) {
    /* A module that answered in another form: nothing is known (never a crash, never a guess). */
    if (!r.bad && !names && n_names <= 64) return EC_OUT_OF_MEMORY;
    *status = EC_SYN_UNAVAILABLE;
    return EC_OK;
  }
  name_errors(side_a, idx_a, names, n_names);
  if (side_b && idx_b) name_errors(side_b, idx_b, names, n_names);
  *status = EC_SYN_SCANNED;
  return EC_OK;
}
