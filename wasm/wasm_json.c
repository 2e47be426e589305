/*
 * The cJSON reader of editcore-lite.wasm and editcore.wasm: the few cJSON functions the request
 * parser calls (core/src/protocol/json_request.c), building the same tree as cJSON 1.7.15 from a
 * text that ec_json_strict_check has passed (RFC 8259: every string closed and UTF-8, escapes
 * and surrogate pairs whole, numbers of under 64 characters once ec_json_shorten_numbers has
 * run, nesting within 512 levels, nothing after the value but white space). On such a text
 * cJSON fails only for memory, so this reader checks nothing else: a third of cJSON's code.
 * The same nodes and strings are allocated in the same order and sizes (a node is malloc'd and
 * zeroed; a string's block is its escaped length less one byte an escape, plus its NUL), numbers
 * are read by the same strtod from the same characters, and a failed allocation frees what was
 * built and returns NULL, as cJSON does. The other module, editcore-tools.wasm, links cJSON
 * itself (its tool calls use more of it); conformance and tests/conformance/lite.mjs compare the
 * answers, and tests/unit/wasm_json_test.c compares the trees with cJSON's.
 * One text here is not valid: a number of 64 characters or more, which ec_json_shorten_numbers
 * prints with %.17g, comes as spaces, since this module's vsnprintf leaves %g to the whole engine
 * (the run is discarded and made again there). Such a value reads as a number 0 of no characters
 * and the reader stays inside the text (the parser's copy ends with a NUL).
 */
#ifdef EC_WASM_JSON_TEST /* the native test calls these beside cJSON's own */
#define cJSON_ParseWithLengthOpts ec_wasm_cJSON_ParseWithLengthOpts
#define cJSON_Delete ec_wasm_cJSON_Delete
#define cJSON_GetObjectItemCaseSensitive ec_wasm_cJSON_GetObjectItemCaseSensitive
#define cJSON_GetArraySize ec_wasm_cJSON_GetArraySize
#define cJSON_IsString ec_wasm_cJSON_IsString
#define cJSON_IsNumber ec_wasm_cJSON_IsNumber
#define cJSON_IsObject ec_wasm_cJSON_IsObject
#define cJSON_IsArray ec_wasm_cJSON_IsArray
#define cJSON_IsNull ec_wasm_cJSON_IsNull
#define cJSON_IsBool ec_wasm_cJSON_IsBool
#define cJSON_IsTrue ec_wasm_cJSON_IsTrue
#define cJSON_IsFalse ec_wasm_cJSON_IsFalse
#define cJSON_free ec_wasm_cJSON_free
#endif

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
  const unsigned char *at, *end;
} reader;

static void skip_ws(reader *r) {
  while (r->at < r->end && *r->at <= ' ') r->at++;
}

static unsigned hex4(const unsigned char *p) {
  unsigned v = 0;
  for (int k = 0; k < 4; k++) v = v * 16 + (p[k] <= '9' ? p[k] - '0' : (p[k] | 0x20) - 'a' + 10);
  return v;
}

/* The string whose opening quote is at r->at, unescaped into a block of its own; NULL when out
 * of memory. */
static char *string(reader *r) {
  const unsigned char *open = r->at, *q = open + 1;
  size_t skipped = 0;
  while (*q != '"') {
    if (*q == '\\') skipped++, q++;
    q++;
  }
  r->at = q + 1;
  unsigned char *out = malloc((size_t)(q - open) - skipped + 1), *w = out;
  if (!out) return NULL;
  for (const unsigned char *p = open + 1; p < q;) {
    if (*p != '\\') {
      *w++ = *p++;
      continue;
    }
    unsigned char e = p[1];
    p += 2;
    if (e != 'u') {
      *w++ = e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e;
      continue;
    }
    unsigned long cp = hex4(p);
    p += 4;
    if (cp >= 0xD800 && cp <= 0xDBFF) { /* the low half follows (the strict check saw it) */
      cp = 0x10000 + (((cp & 0x3FF) << 10) | (hex4(p + 2) & 0x3FF));
      p += 6;
    }
    int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (int k = n - 1; k > 0; k--) w[k] = (unsigned char)(0x80 | (cp & 0x3F)), cp >>= 6;
    w[0] = (unsigned char)(n > 1 ? cp | (0xF00u >> n & 0xFF) : cp);
    w += n;
  }
  *w = 0;
  return (char *)out;
}

static cJSON *new_item(void) {
  cJSON *it = malloc(sizeof *it);
  if (it) memset(it, 0, sizeof *it);
  return it;
}

/* The value at r->at into `item`; false when out of memory (what was linked in stays for
 * cJSON_Delete). */
static cJSON_bool value(reader *r, cJSON *item) {
  unsigned char c = *r->at;
  if (c == '{' || c == '[') {
    unsigned char close = c == '{' ? '}' : ']';
    item->type = c == '{' ? cJSON_Object : cJSON_Array;
    r->at++;
    skip_ws(r);
    if (*r->at == close) {
      r->at++;
      return 1;
    }
    cJSON **link = &item->child, *prev = NULL;
    for (;;) {
      cJSON *child = new_item();
      if (!child) return 0;
      *link = child;
      child->prev = prev;
      prev = child;
      link = &child->next;
      if (close == '}') {
        if (!(child->string = string(r))) return 0;
        skip_ws(r);
        r->at++; /* the colon */
        skip_ws(r);
      }
      if (!value(r, child)) return 0;
      skip_ws(r);
      if (*r->at != ',') break;
      r->at++;
      skip_ws(r);
    }
    item->child->prev = prev;
    r->at++; /* the closing bracket */
    return 1;
  }
  if (c == '"') {
    item->type = cJSON_String;
    return (item->valuestring = string(r)) != NULL;
  }
  if (c == 'n' || c == 't' || c == 'f') {
    item->type = c == 'n' ? cJSON_NULL : c == 't' ? cJSON_True : cJSON_False;
    item->valueint = c == 't';
    r->at += c == 'f' ? 5 : 4;
    return 1;
  }
  /* a number: its characters copied as cJSON copies them, and read by the same strtod */
  char digits[64], *after;
  size_t n = 0;
  for (; n < sizeof digits - 1 && r->at + n < r->end; n++) {
    unsigned char d = r->at[n];
    if (!((d >= '0' && d <= '9') || d == '+' || d == '-' || d == 'e' || d == 'E' || d == '.')) break;
    digits[n] = (char)d;
  }
  digits[n] = 0;
  double v = strtod(digits, &after);
  item->valuedouble = v;
  item->valueint = v >= 2147483647.0 ? 2147483647 : v <= -2147483648.0 ? (-2147483647 - 1) : (int)v;
  item->type = cJSON_Number;
  r->at += after - digits;
  return 1;
}

cJSON *cJSON_ParseWithLengthOpts(const char *text, size_t len, const char **end, cJSON_bool require_null_terminated) {
  (void)require_null_terminated; /* the request parser passes false and checks what follows itself */
  reader r = {(const unsigned char *)text, (const unsigned char *)text + len};
  cJSON *root = text && len ? new_item() : NULL;
  if (!root) return NULL;
  skip_ws(&r);
  if (!value(&r, root)) {
    cJSON_Delete(root);
    return NULL;
  }
  if (end) *end = (const char *)r.at;
  return root;
}

void cJSON_Delete(cJSON *item) {
  while (item) {
    cJSON *next = item->next;
    if (!(item->type & cJSON_IsReference)) {
      cJSON_Delete(item->child);
      free(item->valuestring);
    }
    if (!(item->type & cJSON_StringIsConst)) free(item->string);
    free(item);
    item = next;
  }
}

void cJSON_free(void *p) { free(p); }

cJSON *cJSON_GetObjectItemCaseSensitive(const cJSON *object, const char *name) {
  cJSON *it = object && name ? object->child : NULL;
  while (it && it->string && strcmp(name, it->string)) it = it->next;
  return it && it->string ? it : NULL;
}

int cJSON_GetArraySize(const cJSON *array) {
  int n = 0;
  for (const cJSON *it = array ? array->child : NULL; it; it = it->next) n++;
  return n;
}

#define IS(name, test) \
  cJSON_bool name(const cJSON *const item) { return item && (test); }
IS(cJSON_IsString, (item->type & 0xFF) == cJSON_String)
IS(cJSON_IsNumber, (item->type & 0xFF) == cJSON_Number)
IS(cJSON_IsObject, (item->type & 0xFF) == cJSON_Object)
IS(cJSON_IsArray, (item->type & 0xFF) == cJSON_Array)
IS(cJSON_IsNull, (item->type & 0xFF) == cJSON_NULL)
IS(cJSON_IsTrue, (item->type & 0xFF) == cJSON_True)
IS(cJSON_IsFalse, (item->type & 0xFF) == cJSON_False)
IS(cJSON_IsBool, (item->type & (cJSON_True | cJSON_False)) != 0)
