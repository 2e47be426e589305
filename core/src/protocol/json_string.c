/* JSON string literals and a file's bytes in the protocol's form (json_write.h). Below the
 * response writer and the syntax writer, which both use it. */
#include "json_write.h"
#include "../base/utf8.h"
#include "../base/base64.h"
#include "../text/encoding.h"
#include <string.h>

/* Whether any of the 8 bytes needs a look: < 0x20, '"' or '\\' (escaped), or >= 0x80 (checked
 * as UTF-8) (exact, SWAR). */
static bool word_needs_escape(uint64_t w) {
  const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  uint64_t q = w ^ (ones * '"'), bs = w ^ (ones * '\\');
  uint64_t lt20 = (w - ones * 0x20) & ~w;
  uint64_t zq = (q - ones) & ~q, zb = (bs - ones) & ~bs;
  return ((lt20 | zq | zb | w) & highs) != 0;
}

/* The JSON string literal of s. `bytes`: s is a file's bytes, and a byte that a JSON string
 * cannot carry exactly (not UTF-8, or NUL, which C hosts' strings end at) stops the writing:
 * false, with b as it was. Otherwise such a byte is shown as U+FFFD (prose: messages, views). */
static bool write_string(ec_buf *b, ec_str s, bool bytes) {
  static const char HEX[] = "0123456789abcdef";
  /* A streaming buffer cannot take back what it already sent: there, a file's bytes are checked
   * first (one more pass), and written as a string only when a string can carry them. */
  if (bytes && b->sink) {
    if (s.len && (memchr(s.ptr, 0, s.len) || ec_utf8_first_invalid(s) != s.len)) return false;
    bytes = false; /* nothing below can fail now */
  }
  size_t start = b->len;
  /* Room for the whole string at once, unless the buffer streams (a 70 MB undo would be held whole). */
  if (!ec_buf_reserve(b, b->sink ? 2 : s.len + 2)) return true;
  ec_buf_append_char(b, '"');
  size_t run = 0; /* bytes copied in one go until something needs escaping */
  for (size_t i = 0; i < s.len; i++) {
    /* Most text needs no escaping: skip it a word at a time. */
    while (i + 8 <= s.len) {
      uint64_t w;
      memcpy(&w, s.ptr + i, 8);
      if (word_needs_escape(w)) break;
      i += 8;
    }
    if (i >= s.len) break;
    unsigned char c = (unsigned char)s.ptr[i];
    if (c >= 0x80) {
      /* Every response is UTF-8 JSON text: bytes that are not UTF-8 go as base64 (bytes), or
       * as U+FFFD in prose, which renders a file for a model and is never written back. */
      size_t k = ec_utf8_valid_len((const unsigned char *)s.ptr + i, s.len - i);
      if (k) { i += k - 1; continue; }
      if (bytes) { b->len = start; return false; }
      ec_buf_append(b, s.ptr + run, i - run);
      run = i + 1;
      ec_buf_append(b, "\\ufffd", 6);
      continue;
    }
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    ec_buf_append(b, s.ptr + run, i - run);
    run = i + 1;
    char esc[7] = {'\\', 0};
    switch (c) {
      case '"': esc[1] = '"'; break;
      case '\\': esc[1] = '\\'; break;
      case '\n': esc[1] = 'n'; break;
      case '\r': esc[1] = 'r'; break;
      case '\t': esc[1] = 't'; break;
      case '\b': esc[1] = 'b'; break;
      case '\f': esc[1] = 'f'; break;
      default:
        if (!c && bytes) { b->len = start; return false; }
        memcpy(esc + 1, "u00", 3);
        esc[4] = HEX[c >> 4];
        esc[5] = HEX[c & 15];
        ec_buf_append(b, esc, 6);
        continue;
    }
    ec_buf_append(b, esc, 2);
  }
  /* An empty string may have no pointer at all (ptr NULL): no arithmetic on it. */
  if (s.len > run) ec_buf_append(b, s.ptr + run, s.len - run);
  ec_buf_append_char(b, '"');
  return true;
}

void ec_json_write_string(ec_buf *b, ec_str s) { write_string(b, s, false); }

void ec_json_write_bytes(ec_buf *b, ec_str s) {
  if (write_string(b, s, true)) return;
  if (!ec_buf_reserve(b, b->sink ? 14 : ec_base64_len(s.len) + 14)) return;
  ec_buf_append_cstr(b, "{\"base64\":\"");
  ec_base64_append(b, s.ptr, s.len);
  ec_buf_append_cstr(b, "\"}");
}
