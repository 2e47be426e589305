#include "base64.h"
#include "str.h"
#include <string.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void ec_base64_encode(ec_buf *b, const char *p, size_t n) {
  if (!ec_buf_reserve(b, (n + 2) / 3 * 4)) return;
  const unsigned char *u = (const unsigned char *)p;
  size_t i = 0;
  for (; i + 3 <= n; i += 3) {
    char q[4] = {ALPHABET[u[i] >> 2], ALPHABET[((u[i] & 3) << 4) | (u[i + 1] >> 4)],
                 ALPHABET[((u[i + 1] & 15) << 2) | (u[i + 2] >> 6)], ALPHABET[u[i + 2] & 63]};
    ec_buf_append(b, q, 4);
  }
  if (n - i == 1) {
    char q[4] = {ALPHABET[u[i] >> 2], ALPHABET[(u[i] & 3) << 4], '=', '='};
    ec_buf_append(b, q, 4);
  } else if (n - i == 2) {
    char q[4] = {ALPHABET[u[i] >> 2], ALPHABET[((u[i] & 3) << 4) | (u[i + 1] >> 4)], ALPHABET[(u[i + 1] & 15) << 2], '='};
    ec_buf_append(b, q, 4);
  }
}

static int value_of(char ch) {
  if (ch >= 'A' && ch <= 'Z') return ch - 'A';
  if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
  if (ch >= '0' && ch <= '9') return ch - '0' + 52;
  return ch == '+' ? 62 : ch == '/' ? 63 : -1;
}

int ec_base64_decode(ec_arena *a, ec_str s, ec_str *out) {
  char *o = ec_arena_alloc(a, s.len / 4 * 3 + 4);
  if (!o) return -1;
  size_t w = 0, pad = 0;
  unsigned acc = 0, bits = 0;
  for (size_t i = 0; i < s.len; i++) {
    char ch = s.ptr[i];
    if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') continue;
    if (ch == '=') { pad++; continue; }
    int v = value_of(ch);
    if (v < 0 || pad) return 0; /* a character outside the alphabet, or data after the padding */
    acc = (acc << 6) | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      o[w++] = (char)((acc >> bits) & 0xFF);
    }
  }
  if (pad > 2 || bits >= 6 || (acc & ((1u << bits) - 1))) return 0; /* a lone sextet, or stray low bits */
  o[w] = 0;
  *out = ec_str_make(o, w);
  return 1;
}
