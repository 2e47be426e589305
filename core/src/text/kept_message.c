/* The rule for files that are not UTF-8 (encoding.h): the check, and the refusal of an edit it
 * does not allow in words for the model. Its own file: the browser's first module
 * (editcore-lite.wasm) leaves a file that is not UTF-8 to the full one (wasm/lite_deferred.c). */
#include "encoding.h"
#include "../base/str.h"
#include <stdio.h>
#include <string.h>

/* The next run at or after *i (see encoding.h): [start, end); false when there is none. */
static bool next_run(ec_str s, size_t *i, size_t *start, size_t *end) {
  const unsigned char *p = (const unsigned char *)s.ptr;
  size_t k = ec_ascii_end(p, *i, s.len);
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
