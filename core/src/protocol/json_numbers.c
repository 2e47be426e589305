/* Long JSON numbers rewritten before cJSON reads them (see json_numbers.h). */
#include "json_numbers.h"
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool in_number(char c) { return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'; }

/* Past the string whose opening quote is json[i]; len when it is not closed. */
static size_t skip_string(const char *json, size_t len, size_t i) {
  for (i++; i < len;) {
    const char *q = memchr(json + i, '"', len - i);
    if (!q) return len;
    size_t at = (size_t)(q - json), bs = 0;
    while (at - bs > i && json[at - bs - 1] == '\\') bs++;
    i = at + 1;
    if (bs % 2 == 0) return i; /* not escaped */
  }
  return len;
}

/* Calls `each` for every number of EC_JSON_LONG_NUMBER characters or more; stops when it returns false. */
static void long_numbers(const char *json, size_t len, bool (*each)(void *user, size_t start, size_t end), void *user) {
  for (size_t i = 0; i < len;) {
    char c = json[i];
    if (c == '"') { i = skip_string(json, len, i); continue; }
    if (c != '-' && (c < '0' || c > '9')) { i++; continue; }
    size_t s = i;
    while (i < len && in_number(json[i])) i++;
    if (i - s >= EC_JSON_LONG_NUMBER && !each(user, s, i)) return;
  }
}

static bool shorten(void *user, size_t s, size_t e) {
  char *json = user;
  /* strtod reads the locale's decimal point, as cJSON's own reading does */
  const struct lconv *lc = localeconv();
  char point = lc && lc->decimal_point && lc->decimal_point[0] ? lc->decimal_point[0] : '.';
  char after = json[e];
  json[e] = 0;
  for (size_t k = s; k < e; k++) if (json[k] == '.') json[k] = point;
  double v = strtod(json + s, NULL);
  json[e] = after;
  char text[40];
  if (isinf(v)) snprintf(text, sizeof text, "%s", v < 0 ? "-1e999" : "1e999");
  else snprintf(text, sizeof text, "%.17g", v);
  size_t n = strlen(text);
  for (size_t k = 0; k < n; k++) /* JSON's point, whatever the locale printed */
    if (!(text[k] >= '0' && text[k] <= '9') && text[k] != '-' && text[k] != '+' && text[k] != 'e') text[k] = '.';
  memcpy(json + s, text, n);
  memset(json + s + n, ' ', e - s - n);
  return true;
}

void ec_json_shorten_numbers(char *json, size_t len) { long_numbers(json, len, shorten, json); }
