/*
 * Omission placeholders (the lazy-model guard of format `replace`): a line such as
 * `// ... rest of code ...` in new_string that old_string does not have stands for code the edit
 * would delete. editcore's rule is here; the gemini profile's (formats/replace_gemini.c) reads
 * lines by its own rule through the same search.
 */
#include "placeholder.h"
#include <string.h>

/* Words of s lowercased, single-spaced, into out (size cap); false if it does not fit. */
bool ec_placeholder_words(ec_str s, char *out, size_t cap) {
  size_t w = 0;
  bool pending = false;
  for (size_t i = 0; i < s.len; i++) {
    char c = s.ptr[i];
    if (ec_is_ws(c, EC_WS_ASCII)) { pending = w > 0; continue; }
    if (pending) { if (w + 1 >= cap) return false; out[w++] = ' '; pending = false; }
    if (w + 1 >= cap) return false;
    out[w++] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
  }
  out[w] = 0;
  return true;
}

/* editcore's wider net: any comment syntax, "..." or "…" around a phrase that means "code left out". */
static const char *const EDITCORE_PHRASES[] = {
    "rest of", "rest of code", "rest of the code", "rest of file", "rest of the file", "rest of method",
    "rest of methods", "rest of the method", "rest of function", "rest of the function", "rest of class",
    "rest of the class", "rest of implementation", "existing code", "existing code here", "unchanged code",
    "unchanged", "unchanged method", "unchanged methods", "remaining code", "the rest", "other code",
    "other methods", "previous code", "same as before", "keep existing code", "code unchanged", "etc", NULL};

/* Whether s holds "..." or "…": what a placeholder needs at least (most lines of code have neither). */
static bool has_ellipsis(ec_str s) {
  for (size_t i = 0; i + 3 <= s.len; i++) {
    if (s.ptr[i] == '.' && s.ptr[i + 1] == '.' && s.ptr[i + 2] == '.') return true;
    if (s.ptr[i] == '\xE2' && s.ptr[i + 1] == '\x80' && s.ptr[i + 2] == '\xA6') return true;
  }
  return false;
}

bool ec_editcore_placeholder(ec_str line, char *key, size_t cap) {
  /* The ellipsis is looked for in a part of the line below; without one in the whole line there
   * is none there either: decided without copying the line (every line of new_string is asked). */
  if (!has_ellipsis(line)) return false;
  ec_str t = ec_str_trim(line, EC_WS_ASCII);
  static const char *const OPEN[] = {"{/*", "/*", "<!--", "//", "#", "--", ";", "*", NULL};
  static const char *const CLOSE[] = {"*/}", "*/", "-->", NULL};
  for (size_t i = 0; OPEN[i]; i++) if (ec_str_starts_with(t, OPEN[i])) { t.ptr += strlen(OPEN[i]); t.len -= strlen(OPEN[i]); break; }
  for (size_t i = 0; CLOSE[i]; i++) if (ec_str_ends_with(t, CLOSE[i])) { t.len -= strlen(CLOSE[i]); break; }
  t = ec_str_trim(t, EC_WS_ASCII);
  if (t.len >= 2 && ((t.ptr[0] == '(' && t.ptr[t.len - 1] == ')') || (t.ptr[0] == '[' && t.ptr[t.len - 1] == ']'))) { t.ptr++; t.len -= 2; }
  /* Drop the ellipses; require at least one. */
  char buf[128];
  size_t w = 0;
  bool dots = false;
  for (size_t i = 0; i < t.len;) {
    if (i + 3 <= t.len && !memcmp(t.ptr + i, "...", 3)) { dots = true; i += 3; while (i < t.len && t.ptr[i] == '.') i++; if (w < sizeof buf) buf[w++] = ' '; continue; }
    if (i + 3 <= t.len && !memcmp(t.ptr + i, "\xE2\x80\xA6", 3)) { dots = true; i += 3; if (w < sizeof buf) buf[w++] = ' '; continue; }
    if (w >= sizeof buf) return false;
    buf[w++] = t.ptr[i++];
  }
  if (!dots || !ec_placeholder_words(ec_str_make(buf, w), key, cap)) return false;
  size_t kl = strlen(key);
  while (kl && (key[kl - 1] == ':' || key[kl - 1] == ',' || key[kl - 1] == ';')) key[--kl] = 0;
  for (size_t i = 0; EDITCORE_PHRASES[i]; i++) if (!strcmp(key, EDITCORE_PHRASES[i])) return true;
  return false;
}

/* First line of new_text whose placeholder key is not among old_text's; 0 when none. */
size_t ec_new_placeholder(ec_str old_text, ec_str new_text, ec_placeholder_fn *is_placeholder, ec_str *line_out) {
  size_t line_no = 0;
  for (size_t i = 0; i <= new_text.len;) {
    const char *nl = i < new_text.len ? memchr(new_text.ptr + i, '\n', new_text.len - i) : NULL;
    size_t e = nl ? (size_t)(nl - new_text.ptr) : new_text.len;
    ec_str l = ec_str_make(new_text.ptr + i, e - i);
    line_no++;
    char key[128];
    if (is_placeholder(l, key, sizeof key)) {
      bool in_old = false;
      for (size_t j = 0; j <= old_text.len && !in_old;) {
        const char *ol = j < old_text.len ? memchr(old_text.ptr + j, '\n', old_text.len - j) : NULL;
        size_t oe = ol ? (size_t)(ol - old_text.ptr) : old_text.len;
        char k2[128];
        if (is_placeholder(ec_str_make(old_text.ptr + j, oe - j), k2, sizeof k2))
          in_old = !strcmp(key, k2);
        if (!ol) break;
        j = oe + 1;
      }
      if (!in_old) { *line_out = ec_str_trim(l, EC_WS_ASCII); return line_no; }
    }
    if (!nl) break;
    i = e + 1;
  }
  return 0;
}

