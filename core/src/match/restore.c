/* Context restoration after a loose match, and the precision rule that reads the same line key
 * (a loose match may not write text the file never had): see restore.h. Linear in the sizes of
 * old_text, new_text and the matched region. */
#include "restore.h"
#include "lineutil.h"
#include "../base/buf.h"
#include "../base/hash.h"
#include "../base/str.h"
#include <string.h>

typedef struct lines_t { ec_str *l; size_t n; } lines_t;

/* Lines of s split on LF (a final LF does not start an empty line; *final_lf says it was there). */
static bool split(ec_arena *a, ec_str s, lines_t *out, bool *final_lf) {
  ec_split sp;
  if (ec_split_lines(a, s, true, &sp)) return false;
  out->l = sp.line;
  out->n = sp.n;
  *final_lf = sp.final_lf;
  return true;
}

static bool wordc(unsigned char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z') || c >= 0x80; }
static bool blank(ec_str s) { for (size_t i = 0; i < s.len; i++) if (!ec_is_ws(s.ptr[i], EC_WS_HSPACE)) return false; return true; }

/* ASCII fold of a typographic character at p (bytes consumed, 0 if none). */
static size_t fold(const unsigned char *p, size_t left, const char **rep) {
  if (left >= 2 && p[0] == 0xC2 && p[1] == 0xA0) { *rep = " "; return 2; }
  if (left >= 3 && p[0] == 0xE2 && p[1] == 0x80) {
    unsigned char c = p[2];
    if (c >= 0x80 && c <= 0x8A) { *rep = " "; return 3; }
    if (c == 0x8B) { *rep = ""; return 3; }
    if (c >= 0x90 && c <= 0x95) { *rep = "-"; return 3; }
    if (c >= 0x98 && c <= 0x9B) { *rep = "'"; return 3; }
    if (c >= 0x9C && c <= 0x9F) { *rep = "\""; return 3; }
    if (c == 0xA6) { *rep = "..."; return 3; }
  }
  return 0;
}

/* The line's key: typographic punctuation folded, whitespace dropped except one space between
 * two word characters. Two lines with equal keys differ only in what the loose strategies forgive. */
static ec_str key(ec_arena *a, ec_str s) {
  char *out = ec_arena_alloc(a, s.len * 3 + 1);
  if (!out) return ec_str_make(NULL, 0);
  size_t w = 0;
  bool pend = false;
  for (size_t i = 0; i < s.len;) {
    const char *rep = NULL;
    size_t l = (unsigned char)s.ptr[i] >= 0xC2 ? fold((const unsigned char *)s.ptr + i, s.len - i, &rep) : 0;
    const char *c = rep;
    size_t cl;
    if (l) { cl = strlen(rep); i += l; }
    else { c = s.ptr + i; cl = 1; i++; }
    for (size_t k = 0; k < cl; k++) {
      if (ec_is_ws(c[k], EC_WS_HSPACE)) { pend = w > 0; continue; }
      if (pend && wordc((unsigned char)out[w - 1]) && wordc((unsigned char)c[k])) out[w++] = ' ';
      pend = false;
      out[w++] = c[k];
    }
  }
  return ec_str_make(out, w);
}

static bool same_key(ec_arena *a, ec_str x, ec_str y) {
  ec_str kx = key(a, x), ky = key(a, y);
  return kx.ptr && ky.ptr && ec_str_eq(kx, ky);
}

/* Walks old lines [0, k) (fwd) or [n-k, n) (backwards) against region lines; returns how many
 * region lines they cover (with the file's blank lines old left out), or SIZE_MAX if they do not
 * line up. */
static size_t cover(ec_arena *a, const lines_t *o, size_t k, const lines_t *r, bool fwd) {
  size_t i = 0, j = 0;
#define O(x) (fwd ? o->l[(x)] : o->l[o->n - 1 - (x)])
#define R(x) (fwd ? r->l[(x)] : r->l[r->n - 1 - (x)])
  while (i < k) {
    if (j >= r->n) return SIZE_MAX;
    bool ob = blank(O(i)), rb = blank(R(j));
    if (ob && !rb) { i++; continue; }          /* a blank line the file does not have */
    if (rb && !ob) { j++; continue; }          /* a blank line old_string left out */
    if (!ob && !same_key(a, O(i), R(j))) return SIZE_MAX;
    i++;
    j++;
  }
  /* the file's blank lines right after the context, which old_string did not account for */
  while (j < r->n && blank(R(j)) && (k >= o->n || !blank(O(k)))) j++;
#undef O
#undef R
  return j;
}

/* The blank lines a text starts and ends with are the line breaks around the change, which
 * match/line_breaks.c frames: the walk lines up the lines with text (*lead, *trail: how many went). */
static void drop_blank_ends(lines_t *l, size_t *lead, size_t *trail) {
  *lead = *trail = 0;
  while (l->n && blank(l->l[0])) { l->l++; l->n--; (*lead)++; }
  while (l->n && blank(l->l[l->n - 1])) { l->n--; (*trail)++; }
}

/* Lines l[from, to) into b, an LF before each but the text's first (`parts`: lines written so far);
 * returns the count after them. */
static size_t put_lines(ec_buf *b, const ec_str *l, size_t from, size_t to, size_t parts) {
  for (size_t i = from; i < to; i++, parts++) {
    if (parts) ec_buf_append_char(b, '\n');
    ec_buf_append_str(b, l[i]);
  }
  return parts;
}

ec_error_code ec_restore_context(ec_arena *a, const char *doc_text, ec_str old_text, ec_str new_text, ec_found *f) {
  ec_str region = ec_str_make(doc_text + f->start, f->end - f->start);
  lines_t o, nw, rep, reg;
  bool olf, nlf, rlf, glf;
  if (!split(a, old_text, &o, &olf) || !split(a, new_text, &nw, &nlf) || !split(a, f->replacement, &rep, &rlf) ||
      !split(a, region, &reg, &glf))
    return EC_OUT_OF_MEMORY;
  size_t o_lead, o_trail, n_lead, n_trail, r_lead, r_trail, g_lead, g_trail;
  lines_t rep_all = rep;
  drop_blank_ends(&o, &o_lead, &o_trail);
  drop_blank_ends(&nw, &n_lead, &n_trail);
  drop_blank_ends(&rep, &r_lead, &r_trail);
  drop_blank_ends(&reg, &g_lead, &g_trail);
  (void)o_lead, (void)o_trail, (void)g_lead;
  if (n_lead != r_lead || n_trail != r_trail) return EC_OK; /* the replacement is not new_text line for line */
  if (r_trail || g_trail) rlf = glf; /* the breaks after the last line with text are framed apart */
  /* the replacement must be new_text line for line, and both ends must agree on the final LF */
  if (rep.n != nw.n || rlf != glf || !reg.n) return EC_OK;
  size_t pre = 0, suf = 0, lim = o.n < nw.n ? o.n : nw.n;
  while (pre < lim && ec_str_eq(o.l[pre], nw.l[pre])) pre++;
  while (suf + pre < lim && ec_str_eq(o.l[o.n - 1 - suf], nw.l[nw.n - 1 - suf])) suf++;
  if (pre == lim && o.n == nw.n) return EC_OK; /* nothing changed (NOOP is reported elsewhere) */
  if (!pre && !suf) return EC_OK;
  /* a blank context line at either end stays the model's: only non-blank lines anchor the walk */
  size_t cp = pre ? cover(a, &o, pre, &reg, true) : 0;
  size_t cs = suf ? cover(a, &o, suf, &reg, false) : 0;
  if (cp == SIZE_MAX || cs == SIZE_MAX || cp + cs > reg.n) return EC_OK;
  /* a region line restored as context must not also be one the change replaces */
  if (cp + cs == reg.n && pre + suf < o.n) {
    /* the model removes lines between the contexts, but they are all covered: line-up failed */
    return EC_OK;
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  ec_buf_reserve(&b, f->replacement.len + region.len);
  size_t parts = 0;
  parts = put_lines(&b, rep_all.l, 0, r_lead, parts);
  parts = put_lines(&b, reg.l, 0, cp, parts);
  parts = put_lines(&b, rep.l, pre, rep.n - suf, parts);
  parts = put_lines(&b, reg.l, reg.n - cs, reg.n, parts);
  put_lines(&b, rep_all.l, r_lead + rep.n, rep_all.n, parts);
  if (f->replacement.len && f->replacement.ptr[f->replacement.len - 1] == '\n') ec_buf_append_char(&b, '\n');
  if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
  ec_str out = ec_buf_finish(&b, a);
  if (!out.ptr) out = ec_str_make("", 0);
  f->replacement = out;
  return EC_OK;
}

ec_error_code ec_check_repeated_belief(ec_match_env *env, const ec_split *old, size_t fs, ec_str new_text) {
  if (env->profile != EC_PROFILE_EDITCORE) return EC_OK;
  const ec_lines *fl = ec_match_lines(env);
  ec_split nw;
  if (!fl || ec_split_lines(env->arena, new_text, false, &nw)) return EC_OUT_OF_MEMORY;
  for (size_t k = 0; k < old->n && fs + k < fl->n; k++) {
    ec_str a = ec_norm_apply(old->line[k], EC_NORM_TRIM), b = ec_norm_apply(ec_lines_get(fl, fs + k), EC_NORM_TRIM);
    if (!a.len || (a.len == b.len && !memcmp(a.ptr, b.ptr, a.len))) continue;
    /* whitespace between tokens or typographic punctuation only: the file's own line is written
     * back where new_string repeats it (ec_restore_context), so nothing the file never had */
    if (same_key(env->arena, a, b)) continue;
    uint64_t ha = ec_hash_bytes(a.ptr, a.len);
    for (size_t q = 0; q < nw.n; q++) {
      ec_str c = ec_norm_apply(nw.line[q], EC_NORM_TRIM);
      if (c.len != a.len || ec_hash_bytes(c.ptr, c.len) != ha || memcmp(c.ptr, a.ptr, a.len)) continue;
      env->message = ec_arena_printf(
          env->arena,
          "Line %zu of old_string ('%.*s') is not what line %zu of the file says ('%.*s'), and new_string repeats "
          "it, so applying the edit would write text the file never had. Read lines %zu-%zu again and send "
          "old_string copied exactly from the file.",
          k + 1, (int)(a.len > 200 ? 200 : a.len), a.ptr, fs + k + 1, (int)(b.len > 200 ? 200 : b.len), b.ptr,
          fs + 1, fs + old->n);
      return EC_NO_MATCH;
    }
  }
  return EC_OK;
}
