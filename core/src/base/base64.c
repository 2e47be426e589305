#include "base64.h"
#include "editcore.h"
#include <stdint.h>

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void ec_base64_encode(const unsigned char *b, size_t n, char *out) {
  size_t i = 0, w = 0;
  for (; i + 3 <= n; i += 3) {
    uint32_t v = (uint32_t)b[i] << 16 | (uint32_t)b[i + 1] << 8 | b[i + 2];
    out[w++] = ALPHABET[v >> 18];
    out[w++] = ALPHABET[v >> 12 & 63];
    out[w++] = ALPHABET[v >> 6 & 63];
    out[w++] = ALPHABET[v & 63];
  }
  if (i < n) {
    uint32_t v = (uint32_t)b[i] << 16 | (i + 1 < n ? (uint32_t)b[i + 1] << 8 : 0);
    out[w++] = ALPHABET[v >> 18];
    out[w++] = ALPHABET[v >> 12 & 63];
    out[w++] = i + 1 < n ? ALPHABET[v >> 6 & 63] : '=';
    out[w++] = '=';
  }
}

void ec_base64_append(ec_buf *b, const char *p, size_t n) {
  size_t len = ec_base64_len(n);
  if (!ec_buf_reserve(b, len + 1)) return;
  ec_base64_encode((const unsigned char *)p, n, b->ptr + b->len);
  b->len += len;
  b->ptr[b->len] = 0;
}

static int value_of(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

bool ec_base64_decode_into(const char *text, size_t len, unsigned char *out, size_t *out_len) {
  const unsigned char *t = (const unsigned char *)text;
  *out_len = 0;
  if (len % 4) return false;
  size_t w = 0;
  for (size_t i = 0; i < len; i += 4) {
    bool last = i + 4 == len;
    int pad = last ? (t[i + 3] == '=') + (t[i + 2] == '=') : 0;
    if (pad == 1 && t[i + 2] == '=') return false; /* "x=y=" */
    int v[4];
    for (int k = 0; k < 4 - pad; k++)
      if ((v[k] = value_of(t[i + k])) < 0) return false;
    uint32_t bits = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (pad < 2 ? (uint32_t)v[2] << 6 : 0) | (pad < 1 ? (uint32_t)v[3] : 0);
    if ((pad == 2 && (bits & 0xFFFF)) || (pad == 1 && (bits & 0xFF))) return false; /* bits past the bytes */
    out[w++] = (unsigned char)(bits >> 16);
    if (pad < 2) out[w++] = (unsigned char)(bits >> 8);
    if (pad < 1) out[w++] = (unsigned char)bits;
  }
  *out_len = w;
  return true;
}

size_t ec_base64_decode(const char *text, size_t len, char *out) {
  size_t n = 0;
  if (!text && len) return (size_t)-1;
  return ec_base64_decode_into(text ? text : "", len, (unsigned char *)out, &n) ? n : (size_t)-1;
}
