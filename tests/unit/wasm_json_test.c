/*
 * wasm/wasm_json.c (the cJSON reader of editcore-lite.wasm and editcore.wasm) against cJSON
 * itself: seeded random JSON texts that ec_json_strict_check passes (objects, arrays, every
 * escape, \u escapes of one, two and three UTF-8 bytes and surrogate pairs, raw UTF-8, numbers
 * of every shape, literals, white space), each read by both; the trees must be the same node for
 * node (type, key, string bytes, number bits, valueint, the order of the children and their prev
 * links), and the end each reports the same.
 */
#include "protocol/json_strict.h"
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

cJSON *ec_wasm_cJSON_ParseWithLengthOpts(const char *text, size_t len, const char **end, cJSON_bool nt);
void ec_wasm_cJSON_Delete(cJSON *item);
cJSON *ec_wasm_cJSON_GetObjectItemCaseSensitive(const cJSON *object, const char *name);
int ec_wasm_cJSON_GetArraySize(const cJSON *array);

static uint64_t state = 0x2545F4914F6CDD1Dull;
static unsigned next(unsigned bound) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return (unsigned)(state >> 11) % bound;
}

static char text[1 << 16];
static size_t len;
static void put(const char *s) {
  size_t n = strlen(s);
  if (len + n < sizeof text) memcpy(text + len, s, n), len += n;
}
static void ws(void) {
  static const char *const W[] = {"", "", "", " ", "\n", "\t", "\r\n  "};
  put(W[next(7)]);
}

static void str(void) {
  static const char *const PIECES[] = {"a", "b", "path/x.py", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t",
                                       "\\u0041", "\\u00e9", "\\u00E9", "\\u20AC", "\\uFFFF", "\\u0800", "\\u07ff", "\\uD83D\\uDE00",
                                       "\\udbff\\udfff", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\\u001f", "\\uE000", "x"};
  put("\"");
  for (unsigned n = next(6); n; n--) put(PIECES[next(sizeof PIECES / sizeof *PIECES)]);
  put("\"");
}

static void num(void) {
  static const char *const N[] = {"0", "-0", "1", "-1", "42", "0.5", "-0.25", "1e3", "1E-3", "2.5e+2", "123456789012345",
                                  "2147483647", "2147483648", "-2147483648", "-2147483649", "1e22", "1.5e-7", "3.14159",
                                  "9007199254740993", "0.1", "1e400", "-1e400", "4e-400", "12345678901234567890123"};
  put(N[next(sizeof N / sizeof *N)]);
}

static void value(int depth) {
  unsigned k = next(depth > 5 ? 5 : 7);
  if (k == 0) str();
  else if (k == 1) num();
  else if (k == 2) put("true");
  else if (k == 3) put("false");
  else if (k == 4) put("null");
  else {
    bool obj = k == 5;
    put(obj ? "{" : "[");
    ws();
    for (unsigned n = next(5), i = 0; i < n; i++) {
      if (i) put(","), ws();
      if (obj) str(), ws(), put(":"), ws();
      value(depth + 1);
      ws();
    }
    put(obj ? "}" : "]");
  }
}

static int failures;
static void same(const cJSON *a, const cJSON *b, const char *where) {
  for (; a || b; a = a->next, b = b->next) {
    const char *bad = NULL;
    if (!a || !b) bad = "a missing sibling";
    else if (a->type != b->type) bad = "type";
    else if ((a->string == NULL) != (b->string == NULL) || (a->string && strcmp(a->string, b->string))) bad = "key";
    else if ((a->valuestring == NULL) != (b->valuestring == NULL) || (a->valuestring && strcmp(a->valuestring, b->valuestring))) bad = "string";
    else if (memcmp(&a->valuedouble, &b->valuedouble, sizeof a->valuedouble) || a->valueint != b->valueint) bad = "number";
    else if ((a->prev == NULL) != (b->prev == NULL)) bad = "prev";
    if (bad) {
      if (failures++ < 10) fprintf(stderr, "FAIL %s: %s in %s\n", bad, where, text);
      return;
    }
    same(a->child, b->child, where);
  }
}

int main(void) {
  long runs = 0, compared = 0;
  for (int it = 0; it < 30000; it++, runs++) {
    len = 0;
    ws();
    value(next(3) ? 0 : 4);
    ws();
    text[len] = 0;
    size_t at;
    const char *what;
    if (!ec_json_strict_check(text, len, &at, &what)) continue; /* only what the request parser hands cJSON */
    if (at >= 64) continue;
    compared++;
    const char *e1 = NULL, *e2 = NULL;
    cJSON *a = cJSON_ParseWithLengthOpts(text, len, &e1, 0), *b = ec_wasm_cJSON_ParseWithLengthOpts(text, len, &e2, 0);
    if (!a || !b || e1 != e2) {
      if (failures++ < 10) fprintf(stderr, "FAIL parse (%p %p, end %td %td): %s\n", (void *)a, (void *)b, e1 ? e1 - text : -1, e2 ? e2 - text : -1, text);
    } else {
      same(a, b, "tree");
      if (a->child && cJSON_IsObject(a)) {
        const char *key = a->child->string;
        if (cJSON_GetObjectItemCaseSensitive(a, key) != a->child || ec_wasm_cJSON_GetObjectItemCaseSensitive(b, key) != b->child)
          if (failures++ < 10) fprintf(stderr, "FAIL lookup: %s\n", text);
      }
      if (cJSON_GetArraySize(a) != ec_wasm_cJSON_GetArraySize(b) && failures++ < 10) fprintf(stderr, "FAIL size: %s\n", text);
    }
    cJSON_Delete(a);
    ec_wasm_cJSON_Delete(b);
  }
  /* In the modules a number of 64 characters or more comes as spaces (ec_json_shorten_numbers prints
   * it with %.17g, which their vsnprintf leaves to editcore-tools.wasm: the run is discarded). The
   * reader must still stay inside the text: such a value reads as a number 0 of no characters. */
  static const char *const BLANKED[] = {"{\"a\":    }", "[ ,  1,   ]", "     ", "{\"a\": {\"b\":   , \"c\": [   ]}}"};
  for (size_t k = 0; k < sizeof BLANKED / sizeof *BLANKED; k++) {
    char copy[64];
    size_t n = strlen(BLANKED[k]);
    memcpy(copy, BLANKED[k], n + 1); /* NUL-terminated, as the parser's copy is */
    const char *end = NULL;
    cJSON *t = ec_wasm_cJSON_ParseWithLengthOpts(copy, n, &end, 0);
    if (!t || end < copy || end > copy + n + 1) {
      if (failures++ < 10) fprintf(stderr, "FAIL blanked number: %s\n", BLANKED[k]);
    }
    ec_wasm_cJSON_Delete(t);
  }
  printf("wasm_json: %ld of %ld texts against cJSON: %d passed, %d failed\n", compared, runs, failures ? 0 : 1, failures);
  return failures != 0;
}
