/*
 * Strategy `unescape`: models sometimes escape their strings one level too many (a JSON string
 * inside a JSON string), so old_string arrives with `\n`, `\t`, `\"`, `\'`, `` \` `` and `\\` as two
 * characters. One level is undone (never more: a real `\n` in a C string stays `\n` once the
 * level is removed), old is matched exactly, and new_string is repaired the same way.
 */
#include "ladder.h"
#include <string.h>

static ec_str unescape(ec_arena *a, ec_str s, bool *changed) {
  ec_str none = {NULL, 0};
  *changed = false;
  if (!s.len || !memchr(s.ptr, '\\', s.len)) return s;
  char *o = ec_arena_alloc(a, s.len + 1);
  if (!o) return none;
  size_t w = 0;
  for (size_t i = 0; i < s.len; i++) {
    char c = s.ptr[i], d = i + 1 < s.len ? s.ptr[i + 1] : 0;
    if (c == '\\') {
      char r = 0;
      switch (d) {
        case 'n': r = '\n'; break;
        case 't': r = '\t'; break;
        case '"': case '\'': case '`': case '\\': r = d; break;
        default: break;
      }
      if (r) { o[w++] = r; i++; *changed = true; continue; }
    }
    o[w++] = c;
  }
  o[w] = 0;
  ec_str r = {o, w};
  return r;
}

ec_error_code ec_strategy_unescape(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  bool changed, new_changed;
  ec_str old_u = unescape(env->arena, old_text, &changed);
  if (!old_u.ptr && old_text.len) return EC_OUT_OF_MEMORY;
  if (!changed) return EC_OK;
  ec_str new_u = unescape(env->arena, new_text, &new_changed);
  if (!new_u.ptr && new_text.len) return EC_OUT_OF_MEMORY;
  return ec_find_exact_as(env, old_u, new_u, EC_STRATEGY_UNESCAPE, 0.95, out);
}
