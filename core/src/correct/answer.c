/*
 * Models wrap JSON in fences and prose, and leave trailing commas. The answer is the first
 * balanced {...} in the reply (strings and escapes respected) that parses once trailing commas are
 * dropped; nothing in it is trusted beyond its shape: the caller re-checks every field against
 * the file.
 */
#include "answer.h"
#include "../base/str.h"
#include <cjson/cJSON.h>
#include <string.h>

/* The end (one past the '}') of the object starting at s[at] == '{', or 0 when unbalanced. */
static size_t object_end(ec_str s, size_t at) {
  int depth = 0;
  bool in_str = false;
  for (size_t i = at; i < s.len; i++) {
    char c = s.ptr[i];
    if (in_str) {
      if (c == '\\') i++;
      else if (c == '"') in_str = false;
    } else if (c == '"') in_str = true;
    else if (c == '{') depth++;
    else if (c == '}' && --depth == 0) return i + 1;
  }
  return 0;
}

/* A copy of the object's text without commas that only precede a '}' or ']'. */
static char *without_trailing_commas(ec_arena *a, ec_str obj) {
  char *o = ec_arena_alloc(a, obj.len + 1);
  if (!o) return NULL;
  size_t w = 0;
  bool in_str = false;
  for (size_t i = 0; i < obj.len; i++) {
    char c = obj.ptr[i];
    if (in_str) {
      o[w++] = c;
      if (c == '\\' && i + 1 < obj.len) o[w++] = obj.ptr[++i];
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    if (c == ',') {
      size_t j = i + 1;
      while (j < obj.len && (obj.ptr[j] == ' ' || obj.ptr[j] == '\t' || obj.ptr[j] == '\n' || obj.ptr[j] == '\r')) j++;
      if (j < obj.len && (obj.ptr[j] == '}' || obj.ptr[j] == ']')) continue;
    }
    o[w++] = c;
  }
  o[w] = 0;
  return o;
}

static ec_error_code read_string(ec_arena *a, const cJSON *obj, const char *name, ec_str *out, bool *has, ec_str *message) {
  const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, name);
  if (!it || cJSON_IsNull(it)) return EC_OK;
  if (!cJSON_IsString(it)) {
    *message = ec_arena_printf(a, "the answer's '%s' must be a string", name);
    return EC_INVALID_REPLY;
  }
  *out = ec_arena_strdup(a, it->valuestring, strlen(it->valuestring));
  if (!out->ptr) return EC_OUT_OF_MEMORY;
  if (has) *has = true;
  return EC_OK;
}

static ec_error_code read_answer(ec_arena *a, const cJSON *obj, ec_cx_answer *out, ec_str *message) {
  ec_error_code rc;
  if ((rc = read_string(a, obj, "search", &out->search, &out->has_search, message))) return rc;
  if ((rc = read_string(a, obj, "replace", &out->replace, &out->has_replace, message))) return rc;
  if ((rc = read_string(a, obj, "merged", &out->merged, &out->has_merged, message))) return rc;
  if ((rc = read_string(a, obj, "explanation", &out->explanation, NULL, message))) return rc;
  const cJSON *nc = cJSON_GetObjectItemCaseSensitive(obj, "no_changes_required");
  if (!nc) nc = cJSON_GetObjectItemCaseSensitive(obj, "noChangesRequired");
  if (nc && !cJSON_IsNull(nc)) {
    if (!cJSON_IsBool(nc)) {
      *message = ec_arena_printf(a, "the answer's 'no_changes_required' must be true or false");
      return EC_INVALID_REPLY;
    }
    out->no_changes_required = cJSON_IsTrue(nc);
  }
  return EC_OK;
}

ec_error_code ec_cx_parse_answer(ec_arena *a, ec_str reply, ec_cx_answer *out, ec_str *message) {
  memset(out, 0, sizeof *out);
  if (reply.len && memchr(reply.ptr, 0, reply.len)) {
    *message = ec_arena_printf(a, "the reply holds a NUL byte");
    return EC_INVALID_REPLY;
  }
  for (size_t at = 0; at < reply.len; at++) {
    const char *brace = memchr(reply.ptr + at, '{', reply.len - at);
    if (!brace) break;
    at = (size_t)(brace - reply.ptr);
    size_t end = object_end(reply, at);
    if (!end) break; /* an object that never closes: nothing after it can be a whole answer either */
    char *text = without_trailing_commas(a, ec_str_make(reply.ptr + at, end - at));
    if (!text) return EC_OUT_OF_MEMORY;
    /* A balanced object that does not parse is skipped whole: trying every '{' inside it again
     * made a reply of nested braces quadratic in time and in copies. */
    bool nul = strstr(text, "\\u0000") != NULL; /* cJSON's C strings would cut there */
    cJSON *obj = nul ? NULL : cJSON_Parse(text);
    ec_arena_release(a, text);
    if (!obj) { at = end - 1; continue; }
    ec_error_code rc = read_answer(a, obj, out, message); /* the first object that parses is the answer */
    cJSON_Delete(obj);
    return rc;
  }
  *message = ec_arena_printf(a, "the reply holds no JSON object (expected one object with the fields of the schema, "
                                "alone or in a ```json fence)");
  return EC_INVALID_REPLY;
}
