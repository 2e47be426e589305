/*
 * Glob matching as minimatch does it with `dot: true` (glob.h): braces expanded first, then each
 * pattern matched segment by segment, `**` standing for any number of segments. A segment is
 * matched by backtracking over its characters (code points, as `?` and classes see them), with a
 * step budget so that a hostile pattern ("*(*(*(a)))b" against a long name) ends as no match.
 */
#include "glob.h"
#include "../base/str.h"
#include <stdint.h>
#include <string.h>

#define GLOB_STEPS 200000    /* backtracking steps per match; a real pattern needs a few hundred */
#define GLOB_DEPTH 200       /* nested calls (stars, extglobs, segments): well inside a 1 MiB wasm stack */
#define GLOB_PATTERNS 1024   /* patterns a brace expansion may make */

typedef struct glob_ctx {
  long steps;
  int depth;
} glob_ctx;

/* Enters one nested call: false (and no more steps) past GLOB_DEPTH. */
static bool enter(glob_ctx *g) {
  if (g->depth >= GLOB_DEPTH) { g->steps = -1; return false; }
  g->depth++;
  return true;
}

/* Section - characters */

/* The code point at s (< se) and its length in bytes; a stray byte counts as one character. */
static size_t cp_at(const char *s, const char *se, uint32_t *cp) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = u[0] < 0x80 ? 1 : u[0] >= 0xF0 ? 4 : u[0] >= 0xE0 ? 3 : u[0] >= 0xC0 ? 2 : 1;
  if ((size_t)(se - s) < n) n = 1;
  for (size_t i = 1; i < n; i++)
    if ((u[i] & 0xC0) != 0x80) n = 1;
  uint32_t v = n == 1 ? u[0] : n == 2 ? (u[0] & 0x1Fu) : n == 3 ? (u[0] & 0x0Fu) : (u[0] & 0x07u);
  for (size_t i = 1; i < n; i++) v = (v << 6) | (u[i] & 0x3Fu);
  *cp = v;
  return n;
}

/* The POSIX class `name` as minimatch reads it (Unicode categories: [:lower:] is \p{Ll}, ...),
 * exact for ASCII and Latin-1; any other character counts as a letter of no case. */
static bool posix_class(const char *name, size_t n, uint32_t c) {
#define IS(lit) (n == sizeof lit - 1 && !memcmp(name, lit, n))
  bool lower = (c >= 'a' && c <= 'z') || c == 0xAA || c == 0xB5 || c == 0xBA || (c >= 0xDF && c <= 0xFF && c != 0xF7);
  bool upper = (c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7);
  bool letter = lower || upper || c >= 0x100, digit = c >= '0' && c <= '9';
  bool control = c < 0x20 || (c >= 0x7F && c <= 0x9F), space = c == ' ' || c == 0xA0 || (c >= 9 && c <= 13);
  bool punct = (c < 0x80 && strchr("!\"#%&'()*,-./:;?@[\\]_{}", (int)c) && c) || c == 0xA1 || c == 0xA7 || c == 0xAB || c == 0xB6 ||
               c == 0xB7 || c == 0xBB || c == 0xBF;
  if (IS("alpha")) return letter;
  if (IS("alnum")) return letter || digit;
  if (IS("digit")) return digit;
  if (IS("lower")) return lower;
  if (IS("upper")) return upper;
  if (IS("xdigit")) return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  if (IS("space")) return space;
  if (IS("blank")) return c == ' ' || c == '\t';
  if (IS("word")) return letter || digit || c == '_';
  if (IS("punct")) return punct;
  if (IS("cntrl")) return control;
  if (IS("print")) return !control;
  if (IS("graph")) return !control && !space;
  return false;
#undef IS
}

/* The class "[...]" at p: its end (after ']') and whether c is in it; NULL when p starts no class
 * (an unclosed '[' is a literal character). */
static const char *class_at(const char *p, const char *pe, uint32_t c, bool *hit) {
  const char *q = p + 1;
  bool negate = q < pe && (*q == '!' || *q == '^'), in = false, first = true;
  if (negate) q++;
  while (q < pe) {
    if (*q == ']' && !first) {
      *hit = negate ? !in : in;
      return q + 1;
    }
    first = false;
    if (*q == '[' && q + 1 < pe && q[1] == ':') {
      const char *name = q + 2, *close = name;
      while (close + 1 < pe && !(close[0] == ':' && close[1] == ']')) close++;
      if (close + 1 < pe) {
        in |= posix_class(name, (size_t)(close - name), c);
        q = close + 2;
        continue;
      }
    }
    if (*q == '\\' && q + 1 < pe) q++;
    uint32_t lo, hi;
    q += cp_at(q, pe, &lo);
    hi = lo;
    if (q + 1 < pe && *q == '-' && q[1] != ']') {
      q++;
      if (*q == '\\' && q + 1 < pe) q++;
      q += cp_at(q, pe, &hi);
    }
    in |= c >= lo && c <= hi;
  }
  return NULL;
}

/* Section - segments */

static bool seg_match(glob_ctx *g, const char *p, const char *pe, const char *s, const char *se);

/* The end (after ')') of the extglob whose '(' is at open, or NULL when it is not closed. */
static const char *group_end(const char *open, const char *pe) {
  int depth = 0;
  for (const char *q = open; q < pe; q++) {
    if (*q == '\\') { q++; continue; }
    if (*q == '(') depth++;
    else if (*q == ')' && --depth == 0) return q + 1;
  }
  return NULL;
}

/* Does [s, se) match one of the '|'-separated alternatives of [in, ine)? */
static bool alt_match(glob_ctx *g, const char *in, const char *ine, const char *s, const char *se) {
  const char *start = in;
  int depth = 0;
  for (const char *q = in; q <= ine; q++) {
    if (q < ine && *q == '\\') { q++; continue; }
    if (q < ine && *q == '(') depth++;
    else if (q < ine && *q == ')') depth--;
    else if (q == ine || (*q == '|' && depth == 0)) {
      if (seg_match(g, start, q, s, se)) return true;
      start = q + 1;
    }
  }
  return false;
}

static const char *next_cp(const char *s, const char *se) {
  uint32_t cp;
  return s + cp_at(s, se, &cp);
}

/* Zero or more alternatives from s, then the rest of the pattern. */
static bool ext_star(glob_ctx *g, const char *in, const char *ine, const char *rest, const char *pe, const char *s, const char *se) {
  if (--g->steps < 0 || !enter(g)) return false;
  bool hit = seg_match(g, rest, pe, s, se);
  for (const char *k = s; k < se && !hit && g->steps >= 0;) {
    k = next_cp(k, se);
    hit = alt_match(g, in, ine, s, k) && ext_star(g, in, ine, rest, pe, k, se);
  }
  g->depth--;
  return hit;
}

/* The extglob `kind`(in) at s, followed by [rest, pe). */
static bool ext_match(glob_ctx *g, char kind, const char *in, const char *ine, const char *rest, const char *pe, const char *s,
                      const char *se) {
  switch (kind) {
  case '*': return ext_star(g, in, ine, rest, pe, s, se);
  case '?':
  case '@':
  case '+':
    if (kind == '?' && seg_match(g, rest, pe, s, se)) return true; /* ?(...): none, or exactly one as @(...) */
    for (const char *k = s;; k = next_cp(k, se)) {
      if (alt_match(g, in, ine, s, k) && (kind == '+' ? ext_star(g, in, ine, rest, pe, k, se) : seg_match(g, rest, pe, k, se)))
        return true;
      if (k >= se || g->steps < 0) return false;
    }
  default: { /* '!': anything the rest can follow, unless one alternative followed by the rest matches here */
    bool rest_fits = false;
    for (const char *k = s; !rest_fits; k = next_cp(k, se)) {
      rest_fits = seg_match(g, rest, pe, k, se);
      if (k >= se || g->steps < 0) break;
    }
    if (!rest_fits) return false;
    for (const char *k = s;; k = next_cp(k, se)) {
      if (alt_match(g, in, ine, s, k) && seg_match(g, rest, pe, k, se)) return false;
      if (k >= se || g->steps < 0) return g->steps >= 0;
    }
  }
  }
}

static bool seg_match_in(glob_ctx *g, const char *p, const char *pe, const char *s, const char *se);

static bool seg_match(glob_ctx *g, const char *p, const char *pe, const char *s, const char *se) {
  if (!enter(g)) return false;
  bool hit = seg_match_in(g, p, pe, s, se);
  g->depth--;
  return hit;
}

static bool seg_match_in(glob_ctx *g, const char *p, const char *pe, const char *s, const char *se) {
  while (p < pe) {
    if (--g->steps < 0) return false;
    char c = *p;
    if (strchr("@?*+!", c) && p + 1 < pe && p[1] == '(') {
      const char *end = group_end(p + 1, pe);
      if (end) return ext_match(g, c, p + 2, end - 1, end, pe, s, se);
    }
    if (c == '*') {
      p++; /* this star (an unclosed "*(" included), then any plain ones after it */
      while (p < pe && *p == '*' && !(p + 1 < pe && p[1] == '(')) p++;
      if (p == pe) return true;
      for (const char *k = s;; k = next_cp(k, se)) {
        if (seg_match(g, p, pe, k, se)) return true;
        if (k >= se || g->steps < 0) return false;
      }
    }
    if (s >= se) return false;
    uint32_t cp;
    size_t n = cp_at(s, se, &cp);
    if (c == '?') { p++; s += n; continue; }
    if (c == '[') {
      bool hit;
      const char *q = class_at(p, pe, cp, &hit);
      if (q) {
        if (!hit) return false;
        p = q;
        s += n;
        continue;
      }
    }
    if (c == '\\' && p + 1 < pe) p++;
    if (*p != *s) return false;
    p++;
    s++;
  }
  return s == se;
}

/* Section - paths */

typedef struct seg_list {
  ec_str *v;
  size_t n, cap;
} seg_list;

/* The segments of s between '/' ("." segments stay: minimatch matches them literally; in a
 * pattern, "//" inside is one slash, as minimatch reads it). */
static bool split(ec_arena *a, ec_str s, seg_list *out, bool pattern) {
  out->n = 0;
  size_t i = 0;
  for (;;) {
    size_t j = i;
    while (j < s.len && s.ptr[j] != '/') j++;
    if (!(pattern && j == i && i > 0 && j < s.len)) {
      if (!EC_ARENA_RESERVE(a, out->v, out->n, out->cap, 8)) return false;
      out->v[out->n++] = ec_str_make(s.ptr + i, j - i);
    }
    if (j >= s.len) return true;
    i = j + 1;
  }
}

/* As minimatch's matchOne: a pattern left when the path is done does not match (a pattern "src"
 * followed by a globstar segment does not match the path "src"); a last globstar takes every
 * remaining segment; one in the middle takes none or more, the rest of the pattern then matching
 * what is left (never nothing). */
static bool parts_match(glob_ctx *g, const seg_list *pat, size_t i, const seg_list *path, size_t j) {
  /* segment by segment without recursion, except to try where a globstar ends */
  for (;; i++, j++) {
    if (--g->steps < 0) return false;
    if (i == pat->n) return j == path->n;
    if (j == path->n) return false;
    ec_str ps = pat->v[i];
    if (ps.len == 2 && ps.ptr[0] == '*' && ps.ptr[1] == '*') {
      if (i + 1 == pat->n) return true;
      if (!enter(g)) return false;
      bool hit = false;
      for (size_t k = j; k < path->n && !hit && g->steps >= 0; k++) hit = parts_match(g, pat, i + 1, path, k);
      g->depth--;
      return hit;
    }
    if (!seg_match(g, ps.ptr, ps.ptr + ps.len, path->v[j].ptr, path->v[j].ptr + path->v[j].len)) return false;
  }
}

/* Section - braces */

typedef struct pattern_list {
  ec_str *v;
  size_t n, cap;
} pattern_list;

static bool push(ec_arena *a, pattern_list *out, ec_str s) {
  if (out->n >= GLOB_PATTERNS) return true;
  if (!EC_ARENA_RESERVE(a, out->v, out->n, out->cap, 8)) return false;
  out->v[out->n++] = s;
  return true;
}

static ec_str concat3(ec_arena *a, ec_str x, ec_str y, ec_str z) {
  char *m = ec_arena_alloc(a, x.len + y.len + z.len + 1);
  if (!m) return ec_str_make(NULL, 0);
  memcpy(m, x.ptr, x.len);
  memcpy(m + x.len, y.ptr, y.len);
  memcpy(m + x.len + y.len, z.ptr, z.len);
  m[x.len + y.len + z.len] = 0;
  return ec_str_make(m, x.len + y.len + z.len);
}

static bool expand(ec_arena *a, ec_str p, pattern_list *out, int depth);

static bool parse_int(ec_str s, long *v) {
  size_t i = s.len && s.ptr[0] == '-' ? 1 : 0;
  if (i == s.len || s.len - i > 9) return false;
  long x = 0;
  for (size_t k = i; k < s.len; k++) {
    if (s.ptr[k] < '0' || s.ptr[k] > '9') return false;
    x = x * 10 + (s.ptr[k] - '0');
  }
  *v = i ? -x : x;
  return true;
}

/* A "{a..b}" or "{a..b..step}" body (numbers, zero-padded when either end is, or single
 * letters), expanded between pre and post: 1, or 0 when the body is no sequence, -1 on OOM. */
static int sequence(ec_arena *a, ec_str body, ec_str pre, ec_str post, pattern_list *out, int depth) {
  ec_str part[3];
  size_t np = 0, i = 0;
  while (np < 3) {
    const char *dd = NULL;
    for (size_t k = i; k + 1 < body.len; k++)
      if (body.ptr[k] == '.' && body.ptr[k + 1] == '.') { dd = body.ptr + k; break; }
    size_t end = dd ? (size_t)(dd - body.ptr) : body.len;
    part[np++] = ec_str_make(body.ptr + i, end - i);
    if (!dd) break;
    i = end + 2;
    if (np == 3) return 0; /* a third ".." */
  }
  if (np < 2) return 0;
  long lo, hi, step = 1;
  bool letters = part[0].len == 1 && part[1].len == 1 && !(part[0].ptr[0] >= '0' && part[0].ptr[0] <= '9');
  if (letters) { lo = (unsigned char)part[0].ptr[0]; hi = (unsigned char)part[1].ptr[0]; }
  else if (!parse_int(part[0], &lo) || !parse_int(part[1], &hi)) return 0;
  if (np == 3 && (!parse_int(part[2], &step) || !step)) return 0;
  if (step < 0) step = -step;
  size_t width = 0;
  if (!letters)
    for (int k = 0; k < 2; k++) {
      ec_str d = part[k].len && part[k].ptr[0] == '-' ? ec_str_drop(part[k], 1) : part[k];
      if (d.len > 1 && d.ptr[0] == '0' && d.len > width) width = d.len;
    }
  for (long v = lo; lo <= hi ? v <= hi : v >= hi; v += lo <= hi ? step : -step) {
    char buf[32];
    ec_str item;
    if (letters) { buf[0] = (char)v; item = ec_str_make(buf, 1); }
    else item = ec_arena_printf(a, "%s%0*ld", v < 0 ? "-" : "", (int)width, v < 0 ? -v : v);
    if (!item.ptr) return -1;
    ec_str whole = concat3(a, pre, item, post);
    if (!whole.ptr || !expand(a, whole, out, depth + 1)) return -1;
    if (out->n >= GLOB_PATTERNS) break;
  }
  return 1;
}

/* Appends the brace expansions of p to out (brace-expansion's rules: a "{...}" with a top-level
 * comma or a sequence expands; any other stays literal). */
static bool expand(ec_arena *a, ec_str p, pattern_list *out, int depth) {
  if (depth > 32) return push(a, out, p);
  for (size_t open = 0; open < p.len; open++) {
    if (p.ptr[open] == '\\') { open++; continue; }
    if (p.ptr[open] != '{') continue;
    size_t close = 0;
    int nest = 0;
    bool comma = false;
    for (size_t k = open; k < p.len && !close; k++) {
      if (p.ptr[k] == '\\') { k++; continue; }
      if (p.ptr[k] == '{') nest++;
      else if (p.ptr[k] == '}' && --nest == 0) close = k;
      else if (p.ptr[k] == ',' && nest == 1) comma = true;
    }
    if (!close) continue;
    ec_str pre = ec_str_make(p.ptr, open), body = ec_str_make(p.ptr + open + 1, close - open - 1);
    ec_str post = ec_str_make(p.ptr + close + 1, p.len - close - 1);
    if (!comma) {
      int seq = sequence(a, body, pre, post, out, depth);
      if (seq) return seq > 0;
      continue; /* "{a}" is literal; a brace inside it may still expand */
    }
    size_t start = 0;
    int nest2 = 0;
    for (size_t k = 0; k <= body.len; k++) {
      if (k < body.len && body.ptr[k] == '\\') { k++; continue; }
      if (k < body.len && body.ptr[k] == '{') nest2++;
      else if (k < body.len && body.ptr[k] == '}') nest2--;
      else if (k == body.len || (body.ptr[k] == ',' && nest2 == 0)) {
        ec_str whole = concat3(a, pre, ec_str_make(body.ptr + start, k - start), post);
        if (!whole.ptr || !expand(a, whole, out, depth + 1)) return false;
        if (out->n >= GLOB_PATTERNS) return true;
        start = k + 1;
      }
    }
    return true;
  }
  return push(a, out, p);
}

/* Section - entry */

bool ec_glob_match(ec_arena *a, ec_str pattern, ec_str path) {
  if (pattern.len && pattern.ptr[0] == '#') return false; /* a comment */
  bool negate = false;
  while (pattern.len && pattern.ptr[0] == '!') {
    negate = !negate;
    pattern = ec_str_drop(pattern, 1);
  }
  pattern_list pats = {NULL, 0, 0};
  seg_list segs = {NULL, 0, 0}, names = {NULL, 0, 0};
  if (!expand(a, pattern, &pats, 0) || !split(a, path, &names, false)) return false;
  glob_ctx g = {GLOB_STEPS, 0};
  bool hit = false;
  for (size_t i = 0; i < pats.n && !hit; i++) {
    if (!split(a, pats.v[i], &segs, true)) return false;
    hit = parts_match(&g, &segs, 0, &names, 0);
  }
  return negate ? !hit : hit;
}
