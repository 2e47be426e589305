/* Long JSON numbers rewritten before cJSON reads them (protocol/json_numbers.h): the same double,
 * the same length, strings untouched, whatever the locale. */
#include "protocol/json_numbers.h"
#include "protocol/json_strict.h"
#include "test_util.h"
#include <locale.h>
#include <math.h>
#include <stdlib.h>

/* The longest run of number characters outside strings (what a cJSON 1.7.15 buffer must hold). */
static size_t longest_number(const char *s) {
  size_t best = 0, run = 0;
  bool in_str = false;
  for (size_t i = 0; s[i]; i++) {
    char c = s[i];
    if (in_str) { if (c == '\\') i++; else if (c == '"') in_str = false; continue; }
    if (c == '"') { in_str = true; run = 0; continue; }
    bool num = (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    run = num ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/* Whether the valid JSON text t holds a number of 64+ characters: the strict check's longest. */
static bool has_long_number(const char *t, size_t n) {
  size_t longest = 0;
  const char *what = NULL;
  CHECK(ec_json_strict_check(t, n, &longest, &what));
  return longest >= EC_JSON_LONG_NUMBER;
}

static char *dup(const char *s) {
  size_t n = strlen(s);
  char *d = malloc(n + 1);
  memcpy(d, s, n + 1);
  return d;
}

/* Shortens `text`, then checks: same length, no number of 64+ characters left, and the number
 * at `at` (a byte offset) read back as `want`. */
static void check_one(const char *text, size_t at, double want) {
  char *t = dup(text);
  size_t n = strlen(t);
  CHECK(has_long_number(t, n));
  ec_json_shorten_numbers(t, n);
  CHECK(strlen(t) == n);
  CHECK_MSG(longest_number(t) < EC_JSON_LONG_NUMBER, "%s", t);
  CHECK(!has_long_number(t, n));
  char *end = NULL;
  double got = strtod(t + at, &end);
  CHECK_MSG(got == want && signbit(got) == signbit(want), "at %zu: got %.17g, want %.17g (%s)", at, got, want, t);
  CHECK(end && (*end == ' ' || *end == 0 || *end == ',' || *end == '}' || *end == ']'));
  free(t);
}

static void numbers(void) {
  char buf[1024];
  /* 63 characters: cJSON reads them itself, nothing to do */
  snprintf(buf, sizeof buf, "{\"n\":%s}", "111111111111111111111111111111111111111111111111111111111111111");
  CHECK(!has_long_number(buf, strlen(buf)));
  /* 64 digits */
  snprintf(buf, sizeof buf, "{\"n\":%s}", "1111111111111111111111111111111111111111111111111111111111111111");
  check_one(buf, 5, strtod("1111111111111111111111111111111111111111111111111111111111111111", NULL));
  /* negative, a fraction that is 1, an exponent written long, an infinity, an underflow to -0 */
  check_one("[-1111111111111111111111111111111111111111111111111111111111111111]", 1,
            -strtod("1111111111111111111111111111111111111111111111111111111111111111", NULL));
  check_one("[1.000000000000000000000000000000000000000000000000000000000000000000000]", 1, 1.0);
  check_one("[1e0000000000000000000000000000000000000000000000000000000000000000000001]", 1, 10.0);
  char inf[500] = "[1";
  for (int i = 0; i < 400; i++) strcat(inf, "0");
  strcat(inf, "]");
  check_one(inf, 1, INFINITY);
  check_one("[-0.000000000000000000000000000000000000000000000000000000000000000000000e-400]", 1, -0.0);
  check_one("{\"fuzzy_threshold\":0.5000000000000000000000000000000000000000000000000000000000000000000001}", 19, 0.5);
  /* digits inside strings (an escaped quote before them) are not numbers */
  const char *s = "{\"a\\\"11111111111111111111111111111111111111111111111111111111111111111\":\"222222222222222222222222222222222222222222222222222222222222222222\"}";
  CHECK(!has_long_number(s, strlen(s)));
  const char *bs = "{\"a\\\\\":11111111111111111111111111111111111111111111111111111111111111111}"; /* an escaped backslash ends the key */
  check_one(bs, 7, strtod("11111111111111111111111111111111111111111111111111111111111111111", NULL));
  /* a number at the very end, and two of them */
  check_one("11111111111111111111111111111111111111111111111111111111111111111", 0,
            strtod("11111111111111111111111111111111111111111111111111111111111111111", NULL));
  check_one("[2.0000000000000000000000000000000000000000000000000000000000000000000,3.0000000000000000000000000000000000000000000000000000000000000000000]",
            71, 3.0);
}

int main(void) {
  numbers();
  /* A locale whose decimal point is a comma: strtod and printf follow it, JSON does not. */
  if (setlocale(LC_NUMERIC, "de_DE.UTF-8") || setlocale(LC_NUMERIC, "fr_FR.UTF-8")) {
    char *t = dup("[1.5000000000000000000000000000000000000000000000000000000000000000000]");
    ec_json_shorten_numbers(t, strlen(t));
    setlocale(LC_NUMERIC, "C");
    CHECK_MSG(strtod(t + 1, NULL) == 1.5 && !strchr(t, ','), "%s", t);
    free(t);
  } else {
    printf("(no comma-decimal locale installed: the locale case is not run)\n");
  }
  TEST_MAIN_END();
}
