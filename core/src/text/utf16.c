/* UTF-16 with a BOM <-> UTF-8 (utf16.h). */
#include "utf16.h"
#include "encoding.h"
#include "../base/str.h"
#include "../base/utf8.h"
#include <stdint.h>
#include <string.h>

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

ec_error_code ec_utf16_decode(ec_arena *a, ec_str bytes, bool be, ec_str *text, ec_str *problem) {
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

ec_error_code ec_utf16_encode(ec_arena *a, ec_str text, bool be, ec_str *bytes) {
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
