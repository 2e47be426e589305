#include "encoding.h"
#include "../base/str.h"
#include "../base/utf8.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Section - UTF-8 */

size_t ec_utf8_first_invalid(ec_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t i = 0;
  while (i < s.len) {
    /* ASCII eight bytes at a time: most of every file. */
    while (i + 8 <= s.len) {
      uint64_t w;
      memcpy(&w, p + i, 8);
      if (w & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= s.len) break;
    size_t k = ec_utf8_valid_len(p + i, s.len - i);
    if (!k) return i;
    i += k;
  }
  return s.len;
}

/* The code point of the valid sequence of k bytes at p. */
static uint32_t code_point(const unsigned char *p, size_t k) {
  if (k == 1) return p[0];
  uint32_t cp = p[0] & (0x7F >> k);
  for (size_t i = 1; i < k; i++) cp = cp << 6 | (p[i] & 0x3F);
  return cp;
}

static size_t put_utf8(char *o, uint32_t cp) {
  if (cp < 0x80) { o[0] = (char)cp; return 1; }
  if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 63)); return 2; }
  if (cp < 0x10000) {
    o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | (cp >> 6 & 63)); o[2] = (char)(0x80 | (cp & 63));
    return 3;
  }
  o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | (cp >> 12 & 63)); o[2] = (char)(0x80 | (cp >> 6 & 63));
  o[3] = (char)(0x80 | (cp & 63));
  return 4;
}

/* Section - UTF-16 */

static ec_error_code utf16_decode(ec_arena *a, ec_str bytes, bool be, ec_str *text, ec_str *problem) {
  const unsigned char *p = (const unsigned char *)bytes.ptr;
  size_t n = bytes.len;
  if (n % 2) {
    *problem = ec_arena_printf(a, "its %zu bytes are an odd number, so they are not UTF-16", n);
    return problem->ptr ? EC_ENCODING : EC_OUT_OF_MEMORY;
  }
  /* Each 2-byte unit becomes at most 3 UTF-8 bytes (a pair of 4 bytes becomes 4). */
  char *o = ec_arena_alloc(a, n / 2 * 3 + 1);
  if (!o) return EC_OUT_OF_MEMORY;
  size_t w = 0;
  for (size_t i = 2; i < n; i += 2) {
    uint32_t u = be ? (uint32_t)p[i] << 8 | p[i + 1] : (uint32_t)p[i + 1] << 8 | p[i];
    if (u >= 0xD800 && u <= 0xDBFF && i + 3 < n) {
      uint32_t lo = be ? (uint32_t)p[i + 2] << 8 | p[i + 3] : (uint32_t)p[i + 3] << 8 | p[i + 2];
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        w += put_utf8(o + w, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
        i += 2;
        continue;
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) {
      *problem = ec_arena_printf(a, "it holds an unpaired UTF-16 surrogate (0x%04X) at byte %zu", (unsigned)u, i);
      return problem->ptr ? EC_ENCODING : EC_OUT_OF_MEMORY;
    }
    w += put_utf8(o + w, u);
  }
  o[w] = 0;
  *text = ec_str_make(o, w);
  return EC_OK;
}

static ec_error_code utf16_encode(ec_arena *a, ec_str text, bool be, ec_str *bytes) {
  if (ec_utf8_first_invalid(text) != text.len) return EC_ENCODING;
  /* Each UTF-8 byte becomes at most 2 bytes (a 4-byte sequence becomes 4), plus the BOM. */
  unsigned char *o = ec_arena_alloc(a, text.len * 2 + 3);
  if (!o) return EC_OUT_OF_MEMORY;
  size_t w = 0;
#define UNIT(u) (be ? (o[w] = (unsigned char)((u) >> 8), o[w + 1] = (unsigned char)(u)) \
                    : (o[w] = (unsigned char)(u), o[w + 1] = (unsigned char)((u) >> 8)), w += 2)
  UNIT(0xFEFFu);
  const unsigned char *p = (const unsigned char *)text.ptr;
  for (size_t i = 0; i < text.len;) {
    size_t k = ec_utf8_valid_len(p + i, text.len - i);
    uint32_t cp = code_point(p + i, k);
    i += k;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      UNIT(0xD800u + (cp >> 10));
      UNIT(0xDC00u + (cp & 0x3FF));
    } else UNIT(cp);
  }
#undef UNIT
  o[w] = 0;
  *bytes = ec_str_make((const char *)o, w);
  return EC_OK;
}

/* Section - decode and encode */

/* c by d in s (same length): the CR <-> LF of lone-CR files. */
static ec_str swapped(ec_arena *a, ec_str s, char c, char d) {
  char *o = ec_arena_alloc(a, s.len + 1);
  if (!o) return ec_str_make(NULL, 0);
  if (s.len) memcpy(o, s.ptr, s.len);
  for (char *q = o, *end = o + s.len; (q = memchr(q, c, (size_t)(end - q))); q++) *q = d;
  o[s.len] = 0;
  return ec_str_make(o, s.len);
}

ec_error_code ec_text_decode(ec_arena *a, ec_str bytes, ec_str *text, ec_encoding *enc, ec_str *problem) {
  memset(enc, 0, sizeof *enc);
  *text = bytes;
  const unsigned char *p = (const unsigned char *)bytes.ptr;
  if (bytes.len >= 4 && ((p[0] == 0xFF && p[1] == 0xFE && !p[2] && !p[3]) || (!p[0] && !p[1] && p[2] == 0xFE && p[3] == 0xFF))) {
    *problem = ec_cstr("it starts with a UTF-32 byte-order mark, and editcore edits UTF-8 and UTF-16 only");
    return EC_ENCODING;
  }
  if (bytes.len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF))) {
    bool be = p[0] == 0xFE;
    ec_str decoded;
    ec_error_code rc = utf16_decode(a, bytes, be, &decoded, problem);
    if (rc) return rc;
    enc->utf16 = be ? EC_UTF16_BE : EC_UTF16_LE;
    *text = decoded;
  }
  /* No LF at all, but CRs: lone-CR line endings. (memchr finds an LF in an ordinary file's first line.) */
  if (text->len && !memchr(text->ptr, '\n', text->len) && memchr(text->ptr, '\r', text->len)) {
    ec_str lf = swapped(a, *text, '\r', '\n');
    if (!lf.ptr) return EC_OUT_OF_MEMORY;
    enc->cr = true;
    *text = lf;
  }
  return EC_OK;
}

ec_error_code ec_text_encode(ec_arena *a, ec_str text, const ec_encoding *enc, ec_str *bytes) {
  *bytes = text;
  if (enc->cr) {
    *bytes = swapped(a, text, '\n', '\r');
    if (!bytes->ptr) return EC_OUT_OF_MEMORY;
  }
  if (enc->utf16 != EC_UTF16_NONE) return utf16_encode(a, *bytes, enc->utf16 == EC_UTF16_BE, bytes);
  return EC_OK;
}

const char *ec_encoding_name(const ec_encoding *e) {
  return e->utf16 == EC_UTF16_LE ? "UTF-16 LE" : e->utf16 == EC_UTF16_BE ? "UTF-16 BE" : "UTF-8";
}

/* Section - the rule for files that are not UTF-8 */

/* The next run at or after *i (see encoding.h): [start, end); false when there is none. */
static bool next_run(ec_str s, size_t *i, size_t *start, size_t *end) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t k = *i;
  while (k < s.len) {
    while (k + 8 <= s.len) {
      uint64_t w;
      memcpy(&w, p + k, 8);
      if (w & 0x8080808080808080ull) break;
      k += 8;
    }
    if (k >= s.len || p[k] >= 0x80) break;
    k++;
  }
  if (k >= s.len) { *i = s.len; return false; }
  size_t e = k + 1;
  while (e < s.len && (p[e] >= 0x80 || (p[e] >= 0x30 && p[e] <= 0x7E && p[e - 1] >= 0x80))) e++;
  *start = k;
  *end = e;
  *i = e;
  return true;
}

bool ec_text_keeps_bytes(ec_str before, ec_str after, ec_kept *why) {
  memset(why, 0, sizeof *why);
  why->first_invalid = ec_utf8_first_invalid(before);
  if (why->first_invalid == before.len) return true;
  size_t ib = 0, ia = 0;
  for (;;) {
    size_t bs = 0, be = 0, as = 0, ae = 0;
    bool hb = next_run(before, &ib, &bs, &be), ha = next_run(after, &ia, &as, &ae);
    if (!hb && !ha) return true;
    if (hb && ha && be - bs == ae - as && !memcmp(before.ptr + bs, after.ptr + as, be - bs)) continue;
    /* The first difference: a new run (text the edit writes), or a run of before touched. */
    size_t common = 0;
    while (hb && ha && bs + common < be && as + common < ae && before.ptr[bs + common] == after.ptr[as + common]) common++;
    if (ha && !common && (!hb || ec_utf8_first_invalid(ec_str_make(after.ptr + as, ae - as)) == ae - as)) {
      why->fault = EC_KEPT_NEW_TEXT;
      why->at = as;
      why->at_len = ae - as;
    } else {
      why->fault = common ? EC_KEPT_NEXT_TO : EC_KEPT_CHANGED;
      why->at_before = hb ? bs + (common ? common - 1 : 0) : before.len;
    }
    return false;
  }
}

ec_str ec_text_kept_message(ec_arena *a, ec_str path, ec_str before, ec_str after, const ec_kept *why) {
  size_t bad = why->first_invalid;
  const unsigned char *b = (const unsigned char *)before.ptr;
  char what[200];
  if (why->fault == EC_KEPT_NEW_TEXT) {
    size_t n = why->at_len > 40 ? 40 : why->at_len;
    while (n < why->at_len && n && ((unsigned char)after.ptr[why->at + n] & 0xC0) == 0x80) n--; /* whole characters */
    snprintf(what, sizeof what, "write '%.*s%s' (text that is not ASCII) at line %zu", (int)n, after.ptr + why->at,
             n < why->at_len ? "..." : "", ec_count_lf(after.ptr, why->at) + 1);
  } else if (why->fault == EC_KEPT_NEXT_TO) {
    size_t at = why->at_before;
    snprintf(what, sizeof what, "change the text right after byte 0x%02X at line %zu (in Shift-JIS, GBK or Big5 that byte and "
             "the next form one character, whose second byte can look like ASCII)", b[at], ec_count_lf(before.ptr, at) + 1);
  } else {
    size_t at = why->at_before < before.len ? why->at_before : bad;
    snprintf(what, sizeof what, "change or remove byte 0x%02X at line %zu, which is not ASCII", b[at], ec_count_lf(before.ptr, at) + 1);
  }
  return ec_arena_printf(a, "'%.*s' is not UTF-8 (byte 0x%02X at line %zu is not), so editcore cannot tell its encoding: an edit "
                         "may change only its ASCII text, never a byte that is not ASCII nor the byte right after one. This "
                         "edit would %s. Nothing was changed. Write the new text in ASCII (an escape such as "
                         "\\u00e9 where the language has one), leave the lines holding such bytes as they are, or convert the "
                         "file to UTF-8 first.",
                         (int)path.len, path.ptr, b[bad], ec_count_lf(before.ptr, bad) + 1, what);
}

/* Section - views */

ec_str ec_text_shown(ec_arena *a, ec_str s, size_t *replaced) {
  *replaced = 0;
  size_t first = ec_utf8_first_invalid(s);
  if (first == s.len) return s;
  size_t high = 0;
  for (size_t i = 0; i < s.len; i++) high += (unsigned char)s.ptr[i] >= 0x80;
  char *o = ec_arena_alloc(a, s.len + high * 2 + 1);
  if (!o) return ec_str_make(NULL, 0);
  size_t w = 0;
  for (size_t i = 0; i < s.len; i++) {
    if ((unsigned char)s.ptr[i] < 0x80) { o[w++] = s.ptr[i]; continue; }
    memcpy(o + w, "\xEF\xBF\xBD", 3);
    w += 3;
  }
  o[w] = 0;
  *replaced = high;
  return ec_str_make(o, w);
}
