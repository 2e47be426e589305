/* The refusal of an edit the rule for files that are not UTF-8 does not allow (encoding.h), in
 * words for the model. Its own file: the browser's first module (editcore-lite.wasm) leaves it
 * to the full one, which re-runs the (rare) refused request and says why. */
#include "encoding.h"
#include "../base/str.h"
#include <stdio.h>
#include <string.h>

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
