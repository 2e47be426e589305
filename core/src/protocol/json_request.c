#define _GNU_SOURCE 1 /* memmem */
#include "json_request.h"
#include "json_strict.h"
#include "json_numbers.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../base/strmap.h"
#include "../base/base64.h"
#include "../request/ctx.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef ec_json_reader parser;

/* String values at least this long are moved out of the cJSON tree as they are read (take_value). */
#define TAKE_AT ((size_t)1 << 16)

#define FAIL(p, ...) ((p)->message = ec_arena_printf((p)->a, __VA_ARGS__), EC_INVALID_PARAM)

/* Section - NUL escapes */

static int hex_digit(char h) {
  return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
}

/* The code point of a \uXXXX escape at json[i] (json[i] == '\\'), or -1. */
static long escape_at(const char *json, size_t len, size_t i) {
  if (i + 5 >= len || json[i + 1] != 'u') return -1;
  long cp = 0;
  for (int k = 2; k < 6; k++) {
    int d = hex_digit(json[i + k]);
    if (d < 0) return -1;
    cp = cp * 16 + d;
  }
  return cp;
}

/* Finds "\u0000" escapes; if any, picks a private-use code point the text never mentions and
 * rewrites the escapes to it (same length), so cJSON's C strings keep every character.
 * The common case (no NUL escape) costs two memchr scans. */
static ec_error_code prepare_text(parser *p, const char *json, size_t len, const char **out) {
  *out = json;
  /* RFC 8259 allows no raw control character but tab, LF and CR (between tokens); cJSON would
   * take the others as white space, or keep them inside strings, where JSON.parse refuses them. */
  for (size_t i = 0; i < len; i++) {
    /* Eight bytes at a time while none is below 0x20: this pass sees every byte of a 10 MB
     * request, and a byte loop was a fifth of the whole request's instructions. */
    while (i + 8 <= len) {
      uint64_t x;
      memcpy(&x, json + i, 8);
      if ((x - 0x2020202020202020ull) & ~x & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= len) break;
    unsigned char c = (unsigned char)json[i];
    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') continue;
    if (!c) return FAIL(p, "the request holds a raw NUL byte; JSON strings must escape it as \\u0000");
    return FAIL(p, "the request holds a raw control character (0x%02X at byte %zu); JSON strings must escape it as \\u%04X",
                c, i, c);
  }
  bool has_nul = false;
  const char *q = json, *end = json + len;
  while (!has_nul && (q = memchr(q, '\\', (size_t)(end - q)))) {
    has_nul = escape_at(json, len, (size_t)(q - json)) == 0;
    if (end - q < 2) break; /* a trailing backslash: nothing escaped after it */
    q += 2;
  }
  if (!has_nul) return EC_OK;
  uint8_t used[0x1900 / 8] = {0}; /* U+E000..U+F8FF seen as an escape or as raw UTF-8 */
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)json[i];
    long cp = -1;
    if ((c == 0xEE || c == 0xEF) && i + 2 < len)
      cp = (long)(((c & 0x0Fu) << 12) | (((unsigned char)json[i + 1] & 0x3Fu) << 6) | ((unsigned char)json[i + 2] & 0x3Fu));
    else if (c == '\\' && i + 1 < len)
      cp = escape_at(json, len, i++); /* skip the escaped character */
    if (cp >= 0xE000 && cp < 0xF900) used[(cp - 0xE000) / 8] |= (uint8_t)(1u << ((cp - 0xE000) % 8));
  }
  unsigned pick = 0;
  while (pick < 0x1900 && (used[pick / 8] >> (pick % 8) & 1)) pick++;
  if (pick == 0x1900) return FAIL(p, "the request uses every private-use code point and \\u0000; it cannot be read");
  unsigned cp = 0xE000 + pick;
  char *copy = ec_arena_alloc(p->a, len + 1);
  if (!copy) return EC_OUT_OF_MEMORY;
  memcpy(copy, json, len);
  copy[len] = 0;
  char hex[5];
  snprintf(hex, sizeof hex, "%04X", cp);
  for (size_t i = 0; i + 5 < len; i++) {
    if (copy[i] != '\\') continue;
    if (!memcmp(copy + i + 1, "u0000", 5)) memcpy(copy + i + 2, hex, 4);
    i++;
  }
  p->sentinel[0] = (char)(0xE0 | (cp >> 12));
  p->sentinel[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
  p->sentinel[2] = (char)(0x80 | (cp & 0x3F));
  *out = copy;
  return EC_OK;
}

/* Numbers of 64 characters or more, rewritten for cJSON (json_numbers.h) in the parser's own copy of
 * the text (made here when prepare_text made none); `longest`: the strict check's longest number. */
static ec_error_code shorten_long_numbers(parser *p, const char *json, size_t len, const char **text, size_t longest) {
  if (longest < EC_JSON_LONG_NUMBER) return EC_OK;
  if (*text == json) {
    char *copy = ec_arena_alloc(p->a, len + 1);
    if (!copy) return EC_OUT_OF_MEMORY;
    memcpy(copy, json, len);
    copy[len] = 0;
    *text = copy;
  }
  ec_json_shorten_numbers((char *)(uintptr_t)*text, len); /* the parser's copy */
  return EC_OK;
}

/* A copy (the cJSON tree dies after parsing) of a key or string value, with the sentinel turned
 * back into NUL bytes. ptr is NULL only when out of memory. */
static ec_str copy_of(parser *p, const char *cstr) {
  ec_str s = ec_cstr(cstr);
  if (!p->sentinel[0] || s.len < 3 || !memmem(s.ptr, s.len, p->sentinel, 3)) return ec_arena_strdup(p->a, s.ptr, s.len);
  char *o = ec_arena_alloc(p->a, s.len + 1);
  if (!o) { ec_str z = {0, 0}; return z; }
  size_t w = 0;
  for (size_t i = 0; i < s.len;) {
    if (i + 3 <= s.len && !memcmp(s.ptr + i, p->sentinel, 3)) { o[w++] = 0; i += 3; }
    else o[w++] = s.ptr[i++];
  }
  o[w] = 0;
  ec_str r = {o, w};
  return r;
}

/* A string value's copy, and the tree's own text of it freed at once when it is large: the tree
 * (parsed here, deleted when the request is read) and the request would otherwise hold every file
 * twice at the peak of parsing. The node keeps an empty string, so nothing can read freed text. */
static ec_str take_value(parser *p, const cJSON *it) {
  ec_str s = copy_of(p, it->valuestring);
  if (s.ptr && s.len >= TAKE_AT) {
    cJSON *node = (cJSON *)(uintptr_t)it; /* the tree is this parser's: see ec_json_parse_request_ex */
    cJSON_free(node->valuestring);
    node->valuestring = (char *)"";
    node->type |= cJSON_IsReference; /* cJSON_Delete must not free the literal */
  }
  return s;
}

/* Section - typed getters */

ec_error_code ec_json_reader_bytes(ec_json_reader *p, const cJSON *it, ec_str *out) {
  if (cJSON_IsString(it)) {
    *out = copy_of(p, it->valuestring);
    return out->ptr ? EC_OK : EC_OUT_OF_MEMORY;
  }
  const cJSON *b64 = cJSON_IsObject(it) ? it->child : NULL;
  if (!b64 || b64->next || strcmp(b64->string, "base64") || !cJSON_IsString(b64)) {
    p->message = ec_cstr("must be a string, or {\"base64\": \"...\"} for bytes that are not UTF-8");
    return EC_INVALID_PARAM;
  }
  size_t len = strlen(b64->valuestring), n = 0;
  unsigned char *o = ec_arena_alloc(p->a, len / 4 * 3 + 1);
  if (!o) return EC_OUT_OF_MEMORY;
  if (!ec_base64_decode_into(b64->valuestring, len, o, &n)) {
    p->message = ec_cstr("holds a base64 value that is not RFC 4648 base64 (the standard alphabet, '=' padding, no white space)");
    return EC_INVALID_PARAM;
  }
  o[n] = 0;
  *out = ec_str_make((const char *)o, n);
  return EC_OK;
}

static ec_error_code get_string(parser *p, const cJSON *it, const char *where, ec_str *out) {
  if (!cJSON_IsString(it)) return FAIL(p, "%s must be a string", where);
  *out = take_value(p, it);
  return out->ptr ? EC_OK : EC_OUT_OF_MEMORY;
}

/* An edit's string member, from beside the request when it was given there (ec_apply_json_beside:
 * the JSON then carries "" in its place, so every check on the member and its order stands). */
static ec_error_code edit_string(parser *p, const cJSON *it, const char *where, ec_str *out) {
  ec_error_code rc = get_string(p, it, where, out);
  for (size_t i = 0; !rc && i < p->n_beside; i++) {
    if (!ec_str_eq_cstr(p->beside[i].name, it->string)) continue;
    if (out->len) return FAIL(p, "%s is given beside the request, so the request must carry it as \"\"", where);
    ec_str v = p->beside[i].value;
    *out = p->beside_in_place && v.ptr ? v : ec_arena_strdup(p->a, v.ptr ? v.ptr : "", v.len);
    if (!out->ptr) return EC_OUT_OF_MEMORY;
    p->beside_used++;
    break;
  }
  return rc;
}

static ec_error_code get_bool(parser *p, const cJSON *it, const char *where, bool *out) {
  if (!cJSON_IsBool(it)) return FAIL(p, "%s must be true or false", where);
  *out = cJSON_IsTrue(it);
  return EC_OK;
}

static ec_error_code get_int(parser *p, const cJSON *it, const char *where, double lo, double hi, int64_t *out) {
  if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || floor(it->valuedouble) != it->valuedouble)
    return FAIL(p, "%s must be an integer", where);
  if (it->valuedouble < lo || it->valuedouble > hi) return FAIL(p, "%s must be between %.0f and %.0f", where, lo, hi);
  *out = (int64_t)it->valuedouble;
  return EC_OK;
}

/* A path: a string with no NUL (a C host would cut it there and write another file). */
static ec_error_code get_path(parser *p, const cJSON *it, const char *where, ec_str *out) {
  ec_error_code rc = get_string(p, it, where, out);
  if (!rc && ec_str_has_nul(*out)) return FAIL(p, "%s holds a NUL character (\\u0000); a path cannot", where);
  return rc;
}

static ec_error_code get_string_list(parser *p, const cJSON *it, const char *where, const ec_str **out, size_t *n) {
  if (cJSON_IsNull(it)) { *out = NULL; *n = 0; return EC_OK; }
  if (!cJSON_IsArray(it)) return FAIL(p, "%s must be an array of strings", where);
  size_t count = (size_t)cJSON_GetArraySize(it);
  ec_str *list = ec_arena_calloc(p->a, count + 1, sizeof *list);
  if (!list) return EC_OUT_OF_MEMORY;
  size_t i = 0;
  for (const cJSON *c = it->child; c; c = c->next, i++) {
    if (!cJSON_IsString(c)) return FAIL(p, "%s must be an array of strings", where);
    ec_error_code rc = get_path(p, c, where, &list[i]);
    if (rc) return rc;
  }
  *out = list;
  *n = count;
  return EC_OK;
}

static bool is_key(const cJSON *it, const char *k) { return !strcmp(it->string, k); }

/* Every key of an object once: a hash set, so an object of 100,000 keys costs linear time. */
static ec_error_code check_duplicates(parser *p, const cJSON *obj, const char *where) {
  ec_strmap seen;
  ec_strmap_init(&seen, p->a);
  for (const cJSON *a = obj->child; a; a = a->next) {
    int added = ec_strmap_add(&seen, ec_cstr(a->string), 0, NULL);
    if (added < 0) return EC_OUT_OF_MEMORY;
    if (!added) return FAIL(p, "%s: the field '%s' is given twice", where, a->string);
  }
  return EC_OK;
}

/* Section - sections of the request */

static ec_error_code parse_files(parser *p, const cJSON *obj, ec_request *req) {
  if (!cJSON_IsObject(obj)) return FAIL(p, "files must be an object mapping paths to contents");
  size_t count = (size_t)cJSON_GetArraySize(obj), n = 0;
  ec_file *files = ec_arena_calloc(p->a, count + 1, sizeof *files);
  if (!files) return EC_OUT_OF_MEMORY;
  ec_strmap seen;
  ec_strmap_init(&seen, p->a);
  for (const cJSON *it = obj->child; it; it = it->next) {
    if (cJSON_IsNull(it)) continue; /* an absent file, stated explicitly */
    if (!cJSON_IsString(it) && !cJSON_IsObject(it))
      return FAIL(p, "files['%s'] must be a string (the file's content), {\"base64\": \"...\"} (its bytes, when they are not "
                     "UTF-8) or null (absent)", it->string);
    files[n].path = copy_of(p, it->string);
    /* a large string is taken from the tree as it is copied (take_value); bytes as base64 are decoded */
    ec_error_code rc = EC_OK;
    if (cJSON_IsString(it)) files[n].content = take_value(p, it);
    else rc = ec_json_reader_bytes(p, it, &files[n].content);
    if (rc == EC_INVALID_PARAM) return FAIL(p, "files['%s'] %.*s", it->string, (int)p->message.len, p->message.ptr);
    if (rc || !files[n].path.ptr || !files[n].content.ptr) return EC_OUT_OF_MEMORY;
    int added = ec_strmap_add(&seen, files[n].path, n, NULL);
    if (added < 0) return EC_OUT_OF_MEMORY;
    if (!added) return FAIL(p, "files: the path '%s' is given twice", it->string);
    n++;
  }
  req->files = files;
  req->n_files = n;
  return EC_OK;
}

static ec_error_code parse_peer_options(parser *p, const cJSON *obj, ec_peer_options *po) {
  if (!cJSON_IsObject(obj)) return FAIL(p, "edit.options must be an object");
  ec_error_code rc = check_duplicates(p, obj, "edit.options");
  for (const cJSON *it = obj->child; it && !rc; it = it->next) {
    if (is_key(it, "cline_version")) rc = get_string(p, it, "edit.options.cline_version", &po->cline_version);
    else if (is_key(it, "dry_run")) rc = get_bool(p, it, "edit.options.dry_run", &po->dry_run);
    else if (is_key(it, "confirm")) rc = get_bool(p, it, "edit.options.confirm", &po->confirm);
    else if (is_key(it, "raw_llm_text")) rc = get_string(p, it, "edit.options.raw_llm_text", &po->raw_llm_text);
    else if (is_key(it, "dialect")) rc = get_string(p, it, "edit.options.dialect", &po->dialect);
    else if (is_key(it, "fuzzy_threshold")) {
      if (!cJSON_IsNumber(it) || it->valuedouble < 0 || it->valuedouble > 1)
        rc = FAIL(p, "edit.options.fuzzy_threshold must be a number between 0 and 1");
      else { po->roo_fuzzy_threshold = it->valuedouble; po->has_roo_fuzzy_threshold = true; }
    } else if (is_key(it, "buffer_lines")) rc = get_int(p, it, "edit.options.buffer_lines", 0, 1e6, &po->roo_buffer_lines);
    else if (is_key(it, "chat_files")) {
      rc = get_string_list(p, it, "edit.options.chat_files", &po->chat_files, &po->n_chat_files);
      po->has_chat_files = !cJSON_IsNull(it);
    } else if (is_key(it, "fence")) {
      const ec_str *pair;
      size_t n;
      rc = get_string_list(p, it, "edit.options.fence", &pair, &n);
      if (!rc && n != 2) rc = FAIL(p, "edit.options.fence must be a pair of strings [open, close]");
      if (!rc) { po->fence_open = pair[0]; po->fence_close = pair[1]; }
    } else rc = FAIL(p, "unknown field 'edit.options.%s' (known: cline_version, fence, chat_files, dry_run, confirm, "
                        "raw_llm_text, dialect, fuzzy_threshold, buffer_lines)", it->string);
  }
  return rc;
}

/* Which edit fields each format takes; anything else is an error, not silently ignored. Each list
 * is written as the `unknown field` message names it ("a, b, c": a model fixes its call from it),
 * so the message quotes it as it is and no table of pointers is kept. */
static const char *edit_keys(ec_format f) {
  static const char *const BY_FORMAT[EC_FORMAT__COUNT] = {
      [EC_FORMAT_REPLACE] = "path, old_string, new_string, expected_replacements, replace_all, instruction, instructions, options, language",
      [EC_FORMAT_SEARCH_REPLACE] = "path, text, dialect, is_final, parse_only, valid_fnames, options, language",
      [EC_FORMAT_UNIFIED_DIFF] = "text, options, language",
      [EC_FORMAT_CODEX_PATCH] = "text, options, language",
      [EC_FORMAT_WHOLE_FILE] = "path, content, options, language",
      [EC_FORMAT_INSERT] = "path, insert_line, new_str, options, language",
      [EC_FORMAT_LAZY] = "path, snippet, instruction, instructions, options, language",
      [EC_FORMAT_REPLY] = "text, dialect, path, parse_only, options, language",
  };
  return BY_FORMAT[f];
}

/* Whether k is one of the names of edit_keys(f) (whole names: no name holds a comma). */
static bool edit_key_allowed(ec_format f, const char *k) {
  size_t n = strlen(k);
  for (const char *key = edit_keys(f); *key;) {
    size_t w = 0;
    while (key[w] && key[w] != ',') w++;
    if (w == n && !memcmp(key, k, n)) return true;
    key += w;
    if (*key) key += 2; /* ", " */
  }
  return false;
}

static ec_error_code parse_edit(parser *p, const cJSON *obj, ec_request *req) {
  if (!cJSON_IsObject(obj)) return FAIL(p, "edit must be an object");
  ec_edit *e = &req->edit;
  ec_error_code rc = check_duplicates(p, obj, "edit");
  for (const cJSON *it = obj->child; it && !rc; it = it->next) {
    if (!edit_key_allowed(req->format, it->string))
      return FAIL(p, "unknown field 'edit.%s' for format '%s' (known: %s)", it->string, ec_format_name(req->format),
                  edit_keys(req->format));
    if (is_key(it, "path")) rc = get_path(p, it, "edit.path", &e->path);
    else if (is_key(it, "old_string")) { rc = edit_string(p, it, "edit.old_string", &e->old_string); e->has_old_string = true; }
    else if (is_key(it, "new_string")) { rc = edit_string(p, it, "edit.new_string", &e->new_string); e->has_new_string = true; }
    else if (is_key(it, "instruction") || is_key(it, "instructions")) {
      /* The model's one-line intent (Morph's and Cursor's `edit_file` spell it `instructions`):
       * kept for the host's model, unused by the merge. One of the two spellings. */
      if (e->instruction.ptr) return FAIL(p, "edit.instruction and edit.instructions are the same field; send one");
      rc = get_string(p, it, is_key(it, "instruction") ? "edit.instruction" : "edit.instructions", &e->instruction);
    }
    else if (is_key(it, "expected_replacements")) {
      if (!cJSON_IsNull(it)) rc = get_int(p, it, "edit.expected_replacements", 1, 1e9, &e->expected_replacements);
    } else if (is_key(it, "replace_all")) rc = get_bool(p, it, "edit.replace_all", &e->replace_all);
    else if (is_key(it, "text")) rc = edit_string(p, it, "edit.text", &e->text);
    else if (is_key(it, "dialect")) rc = get_string(p, it, "edit.dialect", &e->dialect);
    else if (is_key(it, "is_final")) rc = get_bool(p, it, "edit.is_final", &e->is_final);
    else if (is_key(it, "parse_only")) rc = get_bool(p, it, "edit.parse_only", &e->parse_only);
    else if (is_key(it, "valid_fnames")) rc = get_string_list(p, it, "edit.valid_fnames", &e->valid_fnames, &e->n_valid_fnames);
    else if (is_key(it, "content")) {
      /* null = not given (Aider's whole-file replies carry the content in edit.options.raw_llm_text) */
      if (!cJSON_IsNull(it)) { rc = edit_string(p, it, "edit.content", &e->content); e->has_content = true; }
    }
    else if (is_key(it, "insert_line")) rc = get_int(p, it, "edit.insert_line", 0, 4e9, &e->insert_line);
    else if (is_key(it, "new_str")) { rc = edit_string(p, it, "edit.new_str", &e->new_str); e->has_new_str = true; }
    else if (is_key(it, "snippet")) { rc = edit_string(p, it, "edit.snippet", &e->snippet); e->has_snippet = true; }
    else if (is_key(it, "options")) rc = parse_peer_options(p, it, &e->peer);
    else if (is_key(it, "language")) rc = get_string(p, it, "edit.language", &e->language);
  }
  return rc;
}

static ec_error_code parse_limits(parser *p, const cJSON *obj, ec_limits *l) {
  if (!cJSON_IsObject(obj)) return FAIL(p, "options.limits must be an object");
  ec_error_code rc = check_duplicates(p, obj, "options.limits");
  for (const cJSON *it = obj->child; it && !rc; it = it->next) {
    int64_t v = 0;
    rc = get_int(p, it, it->string, 1, 9.0e15, &v);
    if (rc) break;
    if (!ec_limits_put(l, it->string, (uint64_t)v))
      rc = FAIL(p, "unknown field 'options.limits.%s' (known: max_input_bytes, max_lines, max_line_bytes, max_blocks, "
                      "regex_match_limit, regex_depth_limit, fuzzy_work, diff_work, max_files)", it->string);
  }
  return rc;
}

static ec_error_code parse_options(parser *p, const cJSON *obj, ec_options *o) {
  if (!cJSON_IsObject(obj)) return FAIL(p, "options must be an object");
  ec_error_code rc = check_duplicates(p, obj, "options");
  for (const cJSON *it = obj->child; it && !rc; it = it->next) {
    int64_t v = 0;
    if (is_key(it, "diff_context")) { rc = get_int(p, it, "options.diff_context", 0, 1e6, &v); o->diff_context = (int)v; }
    else if (is_key(it, "diff_max_bytes")) { rc = get_int(p, it, "options.diff_max_bytes", 0, 9.0e15, &v); o->diff_max_bytes = (size_t)v; }
    else if (is_key(it, "line_hint")) { rc = get_int(p, it, "options.line_hint", 0, 4e9, &v); o->line_hint = (int)v; }
    else if (is_key(it, "strip")) { rc = get_int(p, it, "options.strip", 0, 4096, &v); o->strip = (int)v; o->has_strip = true; }
    else if (is_key(it, "reverse")) rc = get_bool(p, it, "options.reverse", &o->reverse);
    else if (is_key(it, "fuzzy_threshold")) {
      if (!cJSON_IsNumber(it) || !(it->valuedouble >= 0 && it->valuedouble <= 1))
        rc = FAIL(p, "options.fuzzy_threshold must be a number between 0 and 1");
      else o->fuzzy_threshold = it->valuedouble;
    } else if (is_key(it, "strategies")) {
      const ec_str *names;
      size_t n;
      rc = get_string_list(p, it, "options.strategies", &names, &n);
      if (rc) break;
      ec_strategy *list = ec_arena_calloc(p->a, n + 1, sizeof *list);
      if (!list) return EC_OUT_OF_MEMORY;
      for (size_t i = 0; i < n; i++)
        if (!ec_strategy_from_name(names[i], &list[i]))
          return FAIL(p, "options.strategies: unknown strategy '%.*s' (known: exact, unescape, trim_end, indent, unicode, elision, anchor, regex, fuzzy)",
                      (int)names[i].len, names[i].ptr);
      o->strategies = list;
      o->n_strategies = n;
    } else if (is_key(it, "expected_hash")) {
      if (!cJSON_IsObject(it)) return FAIL(p, "options.expected_hash must be an object mapping paths to hashes");
      if ((rc = check_duplicates(p, it, "options.expected_hash"))) break;
      size_t n = (size_t)cJSON_GetArraySize(it), i = 0;
      ec_file *list = ec_arena_calloc(p->a, n + 1, sizeof *list);
      if (!list) return EC_OUT_OF_MEMORY;
      for (const cJSON *h = it->child; h; h = h->next, i++) {
        list[i].path = copy_of(p, h->string);
        if (get_string(p, h, "options.expected_hash values", &list[i].content)) return EC_INVALID_PARAM;
      }
      o->expected_hash = list;
      o->n_expected_hash = n;
    } else if (is_key(it, "limits")) rc = parse_limits(p, it, &o->limits);
    else if (is_key(it, "syntax")) {
      const char *m = cJSON_IsString(it) ? it->valuestring : "";
      if (!strcmp(m, "report")) o->syntax = EC_SYNTAX_REPORT;
      else if (!strcmp(m, "refuse")) o->syntax = EC_SYNTAX_REFUSE;
      else if (!strcmp(m, "off")) o->syntax = EC_SYNTAX_OFF;
      else rc = FAIL(p, "options.syntax must be \"report\" (the default), \"refuse\" or \"off\" (docs/syntax.md)");
    }
    else rc = FAIL(p, "unknown field 'options.%s' (known: diff_context, diff_max_bytes, strategies, fuzzy_threshold, "
                      "line_hint, expected_hash, limits, syntax, strip, reverse)", it->string);
  }
  return rc;
}

/* Section - self-correction: the failed request's format and edit travel in edit.failed; files,
 * profile and options are the failed request's own. */

static ec_error_code parse_correction(parser *p, const cJSON *obj, ec_request *req, ec_json_extras *x) {
  if (!cJSON_IsObject(obj)) return FAIL(p, "edit must be an object");
  ec_error_code rc = check_duplicates(p, obj, "edit");
  const cJSON *failed = NULL;
  ec_correction *c = &x->correction;
  for (const cJSON *it = obj->child; it && !rc; it = it->next) {
    int64_t v = 0;
    if (is_key(it, "failed")) failed = it;
    else if (is_key(it, "mode")) rc = get_string(p, it, "edit.mode", &c->mode);
    else if (is_key(it, "reply") && x->kind == EC_JSON_CORRECTION_APPLY) rc = get_string(p, it, "edit.reply", &c->reply);
    else if (is_key(it, "corrected_old_string")) rc = get_string(p, it, "edit.corrected_old_string", &c->corrected_old_string);
    else if (is_key(it, "instruction")) rc = get_string(p, it, "edit.instruction", &c->instruction);
    else if (is_key(it, "max_region_lines")) { rc = get_int(p, it, "edit.max_region_lines", 1, 1e6, &v); c->max_region_lines = (size_t)v; }
    else if (is_key(it, "max_region_bytes")) { rc = get_int(p, it, "edit.max_region_bytes", 64, 64e6, &v); c->max_region_bytes = (size_t)v; }
    else
      rc = FAIL(p, "unknown field 'edit.%s' for format '%s' (known: failed, mode, %sinstruction, corrected_old_string, "
                   "max_region_lines, max_region_bytes)", it->string,
                x->kind == EC_JSON_CORRECTION_APPLY ? "correction_apply" : "correction_prompt",
                x->kind == EC_JSON_CORRECTION_APPLY ? "reply, " : "");
  }
  if (rc) return rc;
  if (x->kind == EC_JSON_CORRECTION_APPLY && !c->reply.ptr) return FAIL(p, "correction_apply needs edit.reply: the model's reply text");
  if (!cJSON_IsObject(failed)) return FAIL(p, "edit.failed must be the failed edit: {\"format\": ..., \"edit\": {...}}");
  const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(failed, "format"), *edit = cJSON_GetObjectItemCaseSensitive(failed, "edit");
  ec_format f;
  if (!cJSON_IsString(fmt) || !ec_format_from_name(ec_cstr(fmt->valuestring), &f))
    return FAIL(p, "edit.failed.format must be the failed edit's format (replace, search_replace, unified_diff or lazy)");
  for (const cJSON *it = failed->child; it; it = it->next)
    if (!is_key(it, "format") && !is_key(it, "edit"))
      return FAIL(p, "unknown field 'edit.failed.%s' (known: format, edit)", it->string);
  if ((rc = check_duplicates(p, failed, "edit.failed"))) return rc;
  if (!edit) return FAIL(p, "edit.failed needs the failed 'edit' object");
  ec_request outer = *req; /* files and profile, parsed already */
  ec_request_init(req, f);
  req->profile = outer.profile;
  req->files = outer.files;
  req->n_files = outer.n_files;
  return parse_edit(p, edit, req);
}

ec_error_code ec_json_parse_request(ec_arena *a, const char *json, size_t len, ec_request *req, ec_str *message) {
  return ec_json_parse_request_ex(a, json, len, NULL, 0, false, req, NULL, message);
}

ec_error_code ec_json_parse_request_ex(ec_arena *a, const char *json, size_t len, const ec_json_member *beside, size_t n,
                                       bool in_place, ec_request *req, ec_json_extras *extras, ec_str *message) {
  parser p = {a, {0}, {0, 0}, beside, n, 0, in_place};
  ec_json_extras none;
  ec_json_extras *x = extras ? extras : &none;
  memset(x, 0, sizeof *x);
  const char *text;
  ec_error_code rc = prepare_text(&p, json, len, &text);
  if (rc) { *message = p.message; return rc; }
  /* cJSON is lenient (leading zeros, "1.", a BOM, invalid UTF-8 echoed back raw): the strict
   * check runs first, on the text as sent, so every string that reaches the engine is UTF-8. */
  size_t bad_at = 0;
  const char *what = NULL;
  if (!ec_json_strict_check(json, len, &bad_at, &what)) {
    *message = ec_arena_printf(a, "the request is not valid JSON: %s (byte %zu)", what, bad_at);
    return message->ptr ? EC_INVALID_PARAM : EC_OUT_OF_MEMORY;
  }
  if ((rc = shorten_long_numbers(&p, json, len, &text, bad_at))) { *message = p.message; return rc; }
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
  if (!root) {
    /* The strict check passed and no number is too long for any cJSON (json_numbers.h), so cJSON
     * failed for memory (its tree uses malloc). */
    *message = ec_cstr("out of memory");
    return EC_OUT_OF_MEMORY;
  }
  /* Text after the object is a second request or a corrupted stream; applying the first part
   * would act on something the caller did not send as a whole. */
  for (const char *q = end; q && q < text + len; q++) {
    if (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') continue;
    cJSON_Delete(root);
    *message = ec_arena_printf(a, "the request is not valid JSON: unexpected text after it (byte %zu)", (size_t)(q - text));
    return EC_INVALID_PARAM;
  }
  const cJSON *format = NULL, *files = NULL, *edit = NULL, *profile = NULL, *options = NULL;
  if (!cJSON_IsObject(root)) rc = FAIL(&p, "the request must be a JSON object");
  else rc = check_duplicates(&p, root, "request");
  for (const cJSON *it = root->child; it && !rc && cJSON_IsObject(root); it = it->next) {
    if (is_key(it, "format")) format = it;
    else if (is_key(it, "files")) files = it;
    else if (is_key(it, "edit")) edit = it;
    else if (is_key(it, "profile")) profile = it;
    else if (is_key(it, "options")) options = it;
    else if (is_key(it, "tool"))
      rc = FAIL(&p, "a tool call must start with its \"tool\" member ({\"tool\": NAME, \"args\": {...}, ...}; docs/tools.md)");
    else rc = FAIL(&p, "unknown field '%s' in the request (known: format, files, edit, profile, options)", it->string);
  }
  ec_format fmt = EC_FORMAT_REPLACE;
  if (!rc && !format) rc = FAIL(&p, "the request needs a 'format'");
  if (!rc && extras && cJSON_IsString(format) && !strcmp(format->valuestring, "correction_prompt")) x->kind = EC_JSON_CORRECTION_PROMPT;
  if (!rc && extras && cJSON_IsString(format) && !strcmp(format->valuestring, "correction_apply")) x->kind = EC_JSON_CORRECTION_APPLY;
  if (!rc && !x->kind && (!cJSON_IsString(format) || !ec_format_from_name(ec_cstr(format->valuestring), &fmt)))
    rc = FAIL(&p, "format must be one of replace, search_replace, unified_diff, codex_patch, whole_file, insert, lazy, reply, "
                  "correction_prompt, correction_apply (docs/protocol.md)");
  if (!rc) ec_request_init(req, fmt);
  if (!rc && !edit) rc = FAIL(&p, "the request needs an 'edit' object");
  if (!rc && profile && (!cJSON_IsString(profile) || !ec_profile_from_name(ec_cstr(profile->valuestring), &req->profile)))
    rc = FAIL(&p, "profile must be one of editcore, gemini, cline, aider, roo, codex, claude, openhands");
  if (!rc && files) rc = parse_files(&p, files, req);
  if (!rc) rc = x->kind ? parse_correction(&p, edit, req, x) : parse_edit(&p, edit, req);
  if (!rc && p.beside_used < p.n_beside) rc = FAIL(&p, "an edit string given beside the request is not one of its edit's members");
  /* JSON answers with every changed file's syntax report unless options.syntax says otherwise
   * (the typed API's default is on demand: docs/syntax.md). */
  if (!rc) req->options.syntax = EC_SYNTAX_REPORT;
  if (!rc && options) rc = parse_options(&p, options, &req->options);
  cJSON_Delete(root);
  if (rc == EC_OUT_OF_MEMORY && !p.message.len) p.message = ec_cstr("out of memory");
  *message = p.message;
  return rc;
}

/* Section - the reader, shared with the tool calls (tools/tool_call.c) */

cJSON *ec_json_read(ec_json_reader *p, const char *json, size_t len) {
  const char *text;
  if (prepare_text(p, json, len, &text)) return NULL;
  /* Strict, as for edit requests: a file's bytes that are not UTF-8 travel as base64, never raw. */
  size_t bad_at = 0;
  const char *what = NULL;
  if (!ec_json_strict_check(json, len, &bad_at, &what)) {
    p->message = ec_arena_printf(p->a, "the request is not valid JSON: %s (byte %zu)", what, bad_at);
    return NULL;
  }
  if (shorten_long_numbers(p, json, len, &text, bad_at)) return NULL;
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
  if (!root) {
    size_t at = end && end >= text ? (size_t)(end - text) : 0;
    p->message = ec_arena_printf(p->a, "the request is not valid JSON (error near byte %zu)", at);
    return NULL;
  }
  /* Text after the object is a second request or a corrupted stream; applying the first part
   * would act on something the caller did not send as a whole. */
  for (const char *q = end; q && q < text + len; q++) {
    if (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r') continue;
    cJSON_Delete(root);
    p->message = ec_arena_printf(p->a, "the request is not valid JSON: unexpected text after it (byte %zu)", (size_t)(q - text));
    return NULL;
  }
  return root;
}

ec_str ec_json_reader_string(ec_json_reader *p, const char *cstr) { return copy_of(p, cstr); }
