/* The MCP filesystem tools' shared parts (mcp_common.h). */
#include "mcp_common.h"
#include "../base/str.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Section - results */

void mcp_text(ec_tool_call *c, ec_str text, bool is_error) {
  ec_buf *b = &c->result;
  ec_buf_append_cstr(b, "{\"content\":[{\"type\":\"text\",\"text\":");
  ec_jstr(b, text);
  ec_buf_append_cstr(b, "}]");
  if (is_error) ec_buf_append_cstr(b, ",\"isError\":true}");
  else {
    ec_buf_append_cstr(b, ",\"structuredContent\":{\"content\":");
    ec_jstr(b, text);
    ec_buf_append_cstr(b, "}}");
  }
}

void mcp_fail(ec_tool_call *c, const char *code, ec_str message) {
  (void)code;
  mcp_text(c, message, true);
}

void mcp_textf(ec_tool_call *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ec_str m = ec_arena_vprintf(c->a, fmt, ap);
  va_end(ap);
  if (!m.ptr) { c->oom = true; return; }
  mcp_text(c, m, false);
}

/* Section - arguments */

const cJSON *mcp_arg(const ec_tool_call *c, const char *key) {
  return c->args ? cJSON_GetObjectItemCaseSensitive(c->args, key) : NULL;
}

ec_str mcp_arg_str(ec_tool_call *c, const char *key) {
  const cJSON *v = mcp_arg(c, key);
  return cJSON_IsString(v) ? ec_json_reader_string(c->reader, v->valuestring) : ec_cstr("");
}

double mcp_arg_num(ec_tool_call *c, const char *key) {
  const cJSON *v = mcp_arg(c, key);
  return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* zod's name for what it received. */
static const char *received(const cJSON *v) {
  if (!v) return "undefined";
  if (cJSON_IsNull(v)) return "null";
  if (cJSON_IsBool(v)) return "boolean";
  if (cJSON_IsNumber(v)) return "number";
  if (cJSON_IsString(v)) return "string";
  if (cJSON_IsArray(v)) return "array";
  return "object";
}

typedef struct issues {
  ec_buf b;
  size_t n;
} issues;

static void issue(issues *is, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void issue(issues *is, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (is->n++) ec_buf_append_char(&is->b, '\n');
  ec_buf_append_cstr(&is->b, msg);
}

static void expect_type(issues *is, const cJSON *v, bool ok, const char *want, const char *at) {
  if (!ok) issue(is, "Invalid input: expected %s, received %s at %s", want, received(v), at);
}

static void check_field(issues *is, const mcp_field *f, const cJSON *v) {
  const char *k = f->name;
  if (!v && !f->required) return; /* optional, or its default */
  switch (f->type) {
  case MCP_STRING: expect_type(is, v, cJSON_IsString(v), "string", k); break;
  case MCP_NUMBER: expect_type(is, v, cJSON_IsNumber(v), "number", k); break;
  case MCP_BOOLEAN: expect_type(is, v, cJSON_IsBool(v), "boolean", k); break;
  case MCP_ENUM: {
    bool ok = false;
    for (size_t i = 0; cJSON_IsString(v) && f->options[i] && !ok; i++) ok = !strcmp(v->valuestring, f->options[i]);
    if (!ok) {
      char list[200] = "";
      for (size_t i = 0, w = 0; f->options[i] && w < sizeof list - 40; i++)
        w += (size_t)snprintf(list + w, sizeof list - w, "%s\"%s\"", i ? "|" : "", f->options[i]);
      issue(is, "Invalid option: expected one of %s at %s", list, k);
    }
    break;
  }
  case MCP_STRINGS:
  case MCP_EDITS: {
    if (!cJSON_IsArray(v)) { expect_type(is, v, false, "array", k); break; }
    size_t i = 0, n = (size_t)cJSON_GetArraySize(v);
    for (const cJSON *it = v->child; it; it = it->next, i++) {
      char at[64];
      snprintf(at, sizeof at, "%s[%zu]", k, i);
      if (f->type == MCP_STRINGS) { expect_type(is, it, cJSON_IsString(it), "string", at); continue; }
      if (!cJSON_IsObject(it)) { expect_type(is, it, false, "object", at); continue; }
      static const char *const KEYS[] = {"oldText", "newText"};
      for (size_t j = 0; j < 2; j++) {
        char sub[96];
        snprintf(sub, sizeof sub, "%s.%s", at, KEYS[j]);
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(it, KEYS[j]);
        expect_type(is, x, cJSON_IsString(x), "string", sub);
      }
    }
    if (n < f->min_items) issue(is, "Too small: expected array to have >=%zu items at %s", f->min_items, k);
    break;
  }
  }
}

bool mcp_check_args(ec_tool_call *c, const ec_tool *t, const mcp_field *fields) {
  const char *name = strncmp(t->id, "mcp/", 4) ? t->id : t->id + 4;
  issues is;
  ec_buf_init(&is.b, ec_arena_allocator(c->a));
  is.n = 0;
  for (const mcp_field *f = fields; f->name; f++) check_field(&is, f, mcp_arg(c, f->name));
  if (!is.n) { ec_buf_free(&is.b); return true; }
  ec_str all = ec_buf_finish(&is.b, c->a);
  if (!all.ptr) { c->oom = true; return false; }
  ec_tool_failf(c, t, "INVALID_PARAM", "MCP error -32602: Input validation error: Invalid arguments for tool %s: %.*s", name,
                (int)all.len, all.ptr);
  return false;
}

/* Section - paths */

ec_str mcp_roots_joined(ec_tool_call *c, const char *sep) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  bool first = true;
  if (c->roots)
    for (const cJSON *r = c->roots->child; r; r = r->next) {
      if (!cJSON_IsString(r)) continue;
      if (!first) ec_buf_append_cstr(&b, sep);
      first = false;
      ec_buf_append_str(&b, ec_json_reader_string(c->reader, r->valuestring));
    }
  if (first) ec_buf_append_str(&b, c->root);
  ec_str s = ec_buf_finish(&b, c->a);
  if (!s.ptr) c->oom = true;
  return s;
}

bool mcp_path_quiet(ec_tool_call *c, ec_str path, ec_str *abs, ec_str *why, mcp_read how) {
  *why = ec_str_make(NULL, 0);
  /* `C:\x`, `C:/x` or `C:` on a POSIX host names no file here: refused rather than read as relative. */
  if (path.len >= 2 && ((path.ptr[0] | 0x20) >= 'a' && (path.ptr[0] | 0x20) <= 'z') && path.ptr[1] == ':' &&
      (path.len == 2 || path.ptr[2] == '/' || path.ptr[2] == '\\')) {
    *why = ec_arena_printf(c->a, "Access denied - Windows-style path received on a POSIX host: %.*s", (int)path.len, path.ptr);
    if (!why->ptr) c->oom = true;
    return false;
  }
  ec_str p;
  if (!ec_tool_resolve_in_roots(c, path, &p)) {
    if (c->oom) return false;
    /* appended, not printf'd: a path may hold a NUL byte, which the message shows */
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(c->a));
    ec_buf_append_cstr(&b, "Access denied - path outside allowed directories: ");
    ec_buf_append_str(&b, p);
    ec_buf_append_cstr(&b, " not in ");
    ec_buf_append_str(&b, mcp_roots_joined(c, ", "));
    *why = ec_buf_finish(&b, c->a);
    if (!why->ptr) c->oom = true;
    return false;
  }
  *abs = p;
  if (how == MCP_READ_LIST) ec_tool_list_path(c, p);
  else if (how == MCP_READ_BYTES) ec_tool_read_bytes(c, p);
  else ec_tool_read_path(c, p, how == MCP_READ_CONTENT);
  return true;
}

bool mcp_path_args(ec_tool_call *c, const ec_tool *t, const mcp_field *fields, mcp_read how, ec_str *abs) {
  return mcp_check_args(c, t, fields) && mcp_path(c, t, mcp_arg_str(c, "path"), abs, how);
}

bool mcp_path(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str *abs, mcp_read how) {
  ec_str why;
  if (mcp_path_quiet(c, path, abs, &why, how)) return true;
  if (why.ptr) ec_tool_fail(c, t, "ACCESS_DENIED", why);
  return false;
}

ec_str mcp_shown(const ec_obs *o, ec_str abs) {
  return o && o->real_path.len ? o->real_path : abs;
}

ec_str mcp_obs_problem(ec_tool_call *c, const ec_obs *o, ec_str abs, const char *missing_op, const char *dir_op) {
  ec_str m = {0, 0};
  if (!o) return m;
  if (o->kind == EC_OBS_REFUSED) {
    if (ec_str_eq_cstr(o->code, "ACCESS_DENIED")) {
      ec_str dirs = mcp_roots_joined(c, ", "), at = mcp_shown(o, abs);
      m = ec_arena_printf(c->a, "Access denied - symlink target outside allowed directories: %.*s not in %.*s", (int)at.len,
                          at.ptr, (int)dirs.len, dirs.ptr);
    } else m = ec_arena_printf(c->a, "%.*s", (int)o->message.len, o->message.ptr ? o->message.ptr : "");
  } else if (o->kind == EC_OBS_MISSING && missing_op) {
    ec_str at = mcp_shown(o, abs);
    m = ec_arena_printf(c->a, "ENOENT: no such file or directory, %s '%.*s'", missing_op, (int)at.len, at.ptr);
  } else if (o->kind == EC_OBS_DIRECTORY && dir_op)
    m = ec_arena_printf(c->a, "EISDIR: illegal operation on a directory, %s", dir_op);
  else return m;
  if (!m.ptr) { c->oom = true; m = ec_cstr(""); }
  return m;
}

const ec_obs *mcp_observed(ec_tool_call *c, const ec_tool *t, ec_str abs, const char *missing_op, const char *dir_op) {
  const ec_obs *o = ec_tool_obs(c, abs);
  ec_str why = mcp_obs_problem(c, o, abs, missing_op, dir_op);
  if (!why.ptr) return o;
  const char *code = o->kind == EC_OBS_MISSING ? "NOT_FOUND" : o->kind == EC_OBS_DIRECTORY ? "IS_DIRECTORY"
                     : ec_str_eq_cstr(o->code, "ACCESS_DENIED") ? "ACCESS_DENIED" : "IO_ERROR";
  ec_tool_fail(c, t, code, why);
  return NULL;
}
