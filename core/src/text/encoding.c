#include "encoding.h"
#include "utf16.h"
#include "../base/str.h"
#include "../base/utf8.h"
#include <stdint.h>
#include <string.h>

/* Section - UTF-8 */

/* The first byte >= 0x80 at or after i (n: none): ASCII eight bytes at a time, most of every file. */
size_t ec_ascii_end(const unsigned char *p, size_t i, size_t n) {
  while (i + 8 <= n) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    if (w & 0x8080808080808080ull) break;
    i += 8;
  }
  while (i < n && p[i] < 0x80) i++;
  return i;
}

size_t ec_utf8_first_invalid(ec_str s) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t i = 0;
  while (i < s.len) {
    i = ec_ascii_end(p, i, s.len);
    if (i >= s.len) break;
    size_t k = ec_utf8_valid_len(p + i, s.len - i);
    if (!k) return i;
    i += k;
  }
  return s.len;
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
    ec_error_code rc = ec_utf16_decode(a, bytes, be, &decoded, problem);
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

ec_error_code ec_text_encode(ec_arena *a, ec_str text, const ec_encoding *enc, ec_str *bytes, const char **why) {
  *bytes = text;
  *why = NULL;
  if (enc->cr) {
    if (text.len && memchr(text.ptr, '\r', text.len)) {
      *why = "it holds a CR, and the file's lines end in a lone CR, so that CR would end a line the edit does not have";
      return EC_ENCODING;
    }
    *bytes = swapped(a, text, '\n', '\r');
    if (!bytes->ptr) return EC_OUT_OF_MEMORY;
  }
  if (enc->utf16 != EC_UTF16_NONE) {
    ec_error_code rc = ec_utf16_encode(a, *bytes, enc->utf16 == EC_UTF16_BE, bytes);
    if (rc == EC_ENCODING) *why = enc->utf16 == EC_UTF16_BE ? "it is not UTF-8, so it has no UTF-16 BE form" : "it is not UTF-8, so it has no UTF-16 LE form";
    return rc;
  }
  return EC_OK;
}

const char *ec_encoding_name(const ec_encoding *e) {
  return e->utf16 == EC_UTF16_LE ? "UTF-16 LE" : e->utf16 == EC_UTF16_BE ? "UTF-16 BE" : "UTF-8";
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
