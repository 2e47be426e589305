/* UTF-8 validity (RFC 3629: shortest form, no surrogates, at most U+10FFFF), one sequence at a time. */
#ifndef EC_BASE_UTF8_H
#define EC_BASE_UTF8_H
#include <stddef.h>

/** The length (1-4) of the valid UTF-8 sequence at s[0] (n > 0 bytes available), or 0 when the
 *  bytes there are not one. */
static inline size_t ec_utf8_valid_len(const unsigned char *s, size_t n) {
  unsigned char b = s[0];
  if (b < 0x80) return 1;
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b >= 0xC2 && b <= 0xDF) need = 1;
  else if (b == 0xE0) need = 2, lo = 0xA0;
  else if (b == 0xED) need = 2, hi = 0x9F;
  else if (b >= 0xE1 && b <= 0xEF) need = 2;
  else if (b == 0xF0) need = 3, lo = 0x90;
  else if (b == 0xF4) need = 3, hi = 0x8F;
  else if (b >= 0xF1 && b <= 0xF3) need = 3;
  else return 0;
  if (need >= n || s[1] < lo || s[1] > hi) return 0;
  for (size_t k = 2; k <= need; k++)
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  return need + 1;
}

#endif
