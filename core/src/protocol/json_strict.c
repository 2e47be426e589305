/* RFC 8259, strictly, in one pass (see json_strict.h). */
#include "json_strict.h"
#include <stdint.h>
#include <string.h>

typedef struct scan {
  const unsigned char *s;
  size_t len, i, longest; /* longest: the longest number's length so far */
  const char *what;
} scan;

static bool fail(scan *c, const char *what) { c->what = what; return false; }

static void skip_ws(scan *c) {
  while (c->i < c->len && (c->s[c->i] == ' ' || c->s[c->i] == '\t' || c->s[c->i] == '\n' || c->s[c->i] == '\r')) c->i++;
}

static int hex4(const unsigned char *p) {
  int v = 0;
  for (int k = 0; k < 4; k++) {
    unsigned char h = p[k];
    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/* One UTF-8 sequence starting at a byte >= 0x80 (RFC 3629: shortest form, no surrogates, at most
 * U+10FFFF, complete). Advances past it. */
static bool utf8_seq(scan *c) { /* the same rule as ec_utf8_valid_len (base/utf8.h), naming the fault */
  const unsigned char *s = c->s;
  size_t i = c->i, n = c->len;
  unsigned char b = s[i];
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF; /* the allowed range of the second byte */
  if (b >= 0xC2 && b <= 0xDF) need = 1;
  else if (b == 0xE0) need = 2, lo = 0xA0;
  else if (b == 0xED) need = 2, hi = 0x9F;           /* U+D800..U+DFFF are not characters */
  else if (b >= 0xE1 && b <= 0xEF) need = 2;
  else if (b == 0xF0) need = 3, lo = 0x90;
  else if (b == 0xF4) need = 3, hi = 0x8F;           /* nothing above U+10FFFF */
  else if (b >= 0xF1 && b <= 0xF3) need = 3;
  else return fail(c, b == 0xC0 || b == 0xC1 ? "an overlong UTF-8 encoding in a string" : "a byte that is not UTF-8 in a string");
  if (i + need >= n) return fail(c, "a truncated UTF-8 sequence in a string");
  if (s[i + 1] < lo || s[i + 1] > hi)
    return fail(c, s[i + 1] < 0x80 || s[i + 1] > 0xBF ? "a truncated UTF-8 sequence in a string"
                   : b == 0xED ? "a UTF-16 surrogate encoded as UTF-8 in a string"
                   : b == 0xF4 ? "a UTF-8 sequence above U+10FFFF in a string" : "an overlong UTF-8 encoding in a string");
  for (size_t k = 2; k <= need; k++)
    if (s[i + k] < 0x80 || s[i + k] > 0xBF) return fail(c, "a truncated UTF-8 sequence in a string");
  c->i = i + need + 1;
  return true;
}

/* A string from its opening quote; `key` refuses \u0000 (paths and field names hold no NUL). */
static bool string(scan *c, bool key) {
  const unsigned char *s = c->s;
  size_t n = c->len;
  c->i++; /* the opening quote */
  for (;;) {
    /* Plain ASCII runs, eight bytes at a time: strings are nearly all of a request's bytes. */
    while (c->i + 8 <= n) {
      uint64_t x;
      memcpy(&x, s + c->i, 8);
      uint64_t special = ((x ^ 0x2222222222222222ull) - 0x0101010101010101ull) & ~(x ^ 0x2222222222222222ull); /* '"' */
      special |= ((x ^ 0x5C5C5C5C5C5C5C5Cull) - 0x0101010101010101ull) & ~(x ^ 0x5C5C5C5C5C5C5C5Cull);        /* '\\' */
      special |= (x - 0x2020202020202020ull) & ~x;                                                             /* < 0x20 */
      special |= x;                                                                                             /* >= 0x80 */
      if (special & 0x8080808080808080ull) break;
      c->i += 8;
    }
    if (c->i >= n) return fail(c, "a string that is never closed");
    unsigned char b = s[c->i];
    if (b == '"') { c->i++; return true; }
    if (b < 0x20) return fail(c, "a raw control character in a string");
    if (b >= 0x80) { if (!utf8_seq(c)) return false; continue; }
    if (b != '\\') { c->i++; continue; }
    if (c->i + 1 >= n) return fail(c, "a string that is never closed");
    unsigned char e = s[c->i + 1];
    /* compared one by one: strchr on a constant is a memchr call, dear for one byte in wasm */
    if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't') { c->i += 2; continue; }
    if (e != 'u') return fail(c, "an invalid escape in a string");
    int cp = c->i + 6 <= n ? hex4(s + c->i + 2) : -1;
    if (cp < 0) return fail(c, "an invalid \\u escape in a string");
    if (cp == 0 && key) return fail(c, "a NUL character (\\u0000) in an object key (keys are paths and field names)");
    if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(c, "a lone UTF-16 surrogate escape in a string");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      int low = c->i + 12 <= n && s[c->i + 6] == '\\' && s[c->i + 7] == 'u' ? hex4(s + c->i + 8) : -1;
      if (low < 0xDC00 || low > 0xDFFF) return fail(c, "a lone UTF-16 surrogate escape in a string");
      c->i += 12;
      continue;
    }
    c->i += 6;
  }
}

static bool digits(scan *c) {
  size_t start = c->i;
  while (c->i < c->len && c->s[c->i] >= '0' && c->s[c->i] <= '9') c->i++;
  return c->i > start;
}

static bool number(scan *c) {
  size_t start = c->i;
  if (c->s[c->i] == '-') c->i++;
  if (c->i >= c->len || c->s[c->i] < '0' || c->s[c->i] > '9') return fail(c, "a number without digits");
  if (c->s[c->i] == '0') {
    c->i++;
    if (c->i < c->len && c->s[c->i] >= '0' && c->s[c->i] <= '9') { c->i--; return fail(c, "a leading zero in a number"); }
  } else {
    digits(c);
  }
  if (c->i < c->len && c->s[c->i] == '.') {
    c->i++;
    if (!digits(c)) return fail(c, "a number with no digit after its decimal point");
  }
  if (c->i < c->len && (c->s[c->i] == 'e' || c->s[c->i] == 'E')) {
    c->i++;
    if (c->i < c->len && (c->s[c->i] == '+' || c->s[c->i] == '-')) c->i++;
    if (!digits(c)) return fail(c, "a number with no digit in its exponent");
  }
  if (c->i - start > c->longest) c->longest = c->i - start;
  return true;
}

static bool literal(scan *c, const char *word) {
  size_t n = strlen(word);
  if (c->len - c->i < n || memcmp(c->s + c->i, word, n)) return fail(c, "an unexpected character");
  c->i += n;
  return true;
}

bool ec_json_strict_check(const char *json, size_t len, size_t *at, const char **what) {
  scan c = {(const unsigned char *)json, len, 0, 0, NULL};
  char stack[EC_JSON_MAX_DEPTH];
  size_t depth = 0;
  bool ok = true;
  if (len >= 3 && !memcmp(json, "\xEF\xBB\xBF", 3)) { ok = fail(&c, "a byte-order mark before the request (JSON text starts at its value)"); goto done; }
  skip_ws(&c);
  if (c.i >= len) { ok = fail(&c, "it is empty"); goto done; }
  for (;;) {
    /* a value */
    skip_ws(&c);
    if (c.i >= len) { ok = fail(&c, "it ends where a value should be"); goto done; }
    unsigned char b = c.s[c.i];
    if (b == '{' || b == '[') {
      if (depth == EC_JSON_MAX_DEPTH) { ok = fail(&c, "arrays or objects nested deeper than 512 levels"); goto done; }
      stack[depth++] = (char)b;
      c.i++;
      skip_ws(&c);
      if (c.i < len && c.s[c.i] == (b == '{' ? '}' : ']')) { c.i++; depth--; goto after_value; }
      if (b == '[') continue;
      goto key;
    }
    if (b == '"') ok = string(&c, false);
    else if (b == '-' || (b >= '0' && b <= '9')) ok = number(&c);
    else if (b == 't') ok = literal(&c, "true");
    else if (b == 'f') ok = literal(&c, "false");
    else if (b == 'n') ok = literal(&c, "null");
    else ok = fail(&c, "an unexpected character where a value should be");
    if (!ok) goto done;
  after_value:
    skip_ws(&c);
    if (!depth) break;
    if (c.i >= len) { ok = fail(&c, "it ends inside an array or object"); goto done; }
    b = c.s[c.i];
    char top = stack[depth - 1];
    if (b == (top == '{' ? '}' : ']')) { c.i++; depth--; goto after_value; }
    if (b != ',') { ok = fail(&c, top == '{' ? "expected ',' or '}'" : "expected ',' or ']'"); goto done; }
    c.i++;
    if (top == '[') continue;
    skip_ws(&c);
  key:
    if (c.i >= len || c.s[c.i] != '"') { ok = fail(&c, "expected an object key (a string)"); goto done; }
    if (!(ok = string(&c, true))) goto done;
    skip_ws(&c);
    if (c.i >= len || c.s[c.i] != ':') { ok = fail(&c, "expected ':' after an object key"); goto done; }
    c.i++;
  }
  if (c.i < len) ok = fail(&c, "unexpected text after it");
done:
  if (!ok) { *at = c.i; *what = c.what; }
  else *at = c.longest;
  return ok;
}
