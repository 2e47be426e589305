/*
 * The unicode strategy's pre-checks (match/unicode.c): an ASCII file is never folded, an ASCII
 * old_text in an ASCII file finds nothing (exact already said no), and a single foldable character
 * anywhere in a long file (first byte, inside an 8-byte step, in the tail) is still seen.
 */
#include "test_util.h"
#include "match/ladder.h"
#include "base/str.h"

static size_t count(const char *text, size_t len, const char *old_text, const char *new_text, ec_str *repl) {
  ec_arena *a = ec_arena_new(NULL);
  ec_options opt;
  ec_options_default(&opt);
  ec_match_env env;
  ec_match_env_init(&env, a, text, len, &opt, EC_PROFILE_EDITCORE);
  ec_found_list out = {0};
  ec_error_code rc = ec_strategy_unicode(&env, ec_cstr(old_text), ec_cstr(new_text), &out);
  size_t n = rc ? (size_t)-1 : out.total;
  static char buf[256];
  if (repl && out.n && out.items[0].replacement.len < sizeof buf) {
    memcpy(buf, out.items[0].replacement.ptr, out.items[0].replacement.len);
    repl->ptr = buf;
    repl->len = out.items[0].replacement.len;
  }
  ec_arena_free(a);
  return n;
}

int main(void) {
  char text[512];
  /* ASCII on both sides: nothing to find that exact did not. */
  const char *ascii = "int main(void) {\n  return compute(1, 2);\n}\n";
  CHECK(count(ascii, strlen(ascii), "return compute(1,2);", "x", NULL) == 0);
  CHECK(count(ascii, strlen(ascii), "return compute(1, 2);", "x", NULL) == 0); /* exact's business */
  /* A non-ASCII but unfoldable file and an ASCII old_text: nothing either. */
  const char *accent = "caf\xC3\xA9 = 'latte'\nname = 'x'\n";
  CHECK(count(accent, strlen(accent), "name = \"x\"", "y", NULL) == 0);
  /* Curly quotes from the model, straight ones in an ASCII file: found, written straight. */
  ec_str repl = {0, 0};
  CHECK(count("say \"hi\" now\n", 13, "say \xE2\x80\x9Chi\xE2\x80\x9D now", "say \xE2\x80\x9C" "bye\xE2\x80\x9D now", &repl) == 1);
  CHECK_STR(repl.ptr, repl.len, "say \"bye\" now");
  /* One non-breaking space at every offset of a long ASCII line: always found. */
  for (size_t at = 0; at + 2 <= 40; at++) {
    size_t n = 0;
    for (size_t i = 0; i < 40; i++) {
      if (i == at) { text[n++] = '\xC2'; text[n++] = '\xA0'; i++; }
      else text[n++] = (char)('a' + i % 26);
    }
    text[n++] = '\n';
    char want[64];
    size_t w = 0;
    for (size_t i = 0; i < 40; i++) {
      if (i == at) { want[w++] = ' '; i++; }
      else want[w++] = (char)('a' + i % 26);
    }
    want[w] = 0;
    CHECK(count(text, n, want, "X", NULL) == 1);
  }
  TEST_MAIN_END();
}
