/*
 * Tool calls over JSON (docs/tools.md): reads one phase's request, runs the tool's function for
 * that phase, writes the phase's response. Everything a host needs to drive a tool to its end
 * is in the responses; the host keeps nothing between phases but what they told it to send back.
 */
#include "tool.h"
#include "../base/alloc.h"
#include "../base/num.h"
#include "../base/str.h"
#include "../protocol/json_response.h"
#include "../syntax/syntax.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Section - JSON helpers (the plain writers are json_out.c) */

void ec_tool_write_json(ec_tool_call *c, ec_buf *b, const cJSON *v) {
  if (!v || cJSON_IsNull(v)) ec_buf_append_cstr(b, "null");
  else if (cJSON_IsTrue(v)) ec_buf_append_cstr(b, "true");
  else if (cJSON_IsFalse(v)) ec_buf_append_cstr(b, "false");
  else if (cJSON_IsNumber(v)) ec_jnum(b, v->valuedouble);
  else if (cJSON_IsString(v)) ec_jstr(b, ec_json_reader_string(c->reader, v->valuestring));
  else if (cJSON_IsArray(v)) {
    ec_buf_append_char(b, '[');
    for (const cJSON *it = v->child; it; it = it->next) {
      if (it != v->child) ec_buf_append_char(b, ',');
      ec_tool_write_json(c, b, it);
    }
    ec_buf_append_char(b, ']');
  } else if (cJSON_IsObject(v)) {
    ec_buf_append_char(b, '{');
    for (const cJSON *it = v->child; it; it = it->next) {
      if (it != v->child) ec_buf_append_char(b, ',');
      ec_jstr(b, ec_json_reader_string(c->reader, it->string));
      ec_buf_append_char(b, ':');
      ec_tool_write_json(c, b, it);
    }
    ec_buf_append_char(b, '}');
  } else ec_buf_append_cstr(b, "null");
}

/* Section - helpers for tools */

static ec_tool_read *add_read(ec_tool_call *c, ec_str path) {
  for (size_t i = 0; i < c->n_reads; i++)
    if (ec_str_eq(c->reads[i].path, path)) return &c->reads[i];
  if (!EC_ARENA_RESERVE(c->a, c->reads, c->n_reads, c->cap_reads, 4)) { c->oom = true; return NULL; }
  ec_tool_read r = {path, false, false, false};
  c->reads[c->n_reads] = r;
  return &c->reads[c->n_reads++];
}

void ec_tool_read_path(ec_tool_call *c, ec_str path, bool content) {
  ec_tool_read *r = add_read(c, path);
  if (r) r->content |= content;
}

void ec_tool_list_path(ec_tool_call *c, ec_str path) {
  ec_tool_read *r = add_read(c, path);
  if (r) r->list = true;
}

void ec_tool_read_bytes(ec_tool_call *c, ec_str path) {
  ec_tool_read *r = add_read(c, path);
  if (r) r->content = r->bytes = true;
}

const ec_obs *ec_tool_obs_or_read(ec_tool_call *c, ec_str path, bool list) {
  const ec_obs *o = ec_tool_obs(c, path);
  if (o && (!list || o->kind != EC_OBS_DIRECTORY || o->entries)) return o;
  if (list) ec_tool_list_path(c, path);
  else ec_tool_read_path(c, path, false);
  return NULL;
}

static void add_write(ec_tool_call *c, ec_tool_write w) {
  if (!EC_ARENA_RESERVE(c->a, c->writes, c->n_writes, c->cap_writes, 4)) { c->oom = true; return; }
  c->writes[c->n_writes++] = w;
}

void ec_tool_write_file(ec_tool_call *c, ec_str path, ec_str content, bool create_dirs) {
  ec_tool_write w = {path, content, false, create_dirs, false, {0, 0}, {0, 0}};
  add_write(c, w);
}

void ec_tool_move_file(ec_tool_call *c, ec_str from, ec_str path, ec_str content) {
  ec_tool_write w = {path, content, false, true, false, {0, 0}, from};
  add_write(c, w);
}

void ec_tool_make_dir(ec_tool_call *c, ec_str path) {
  ec_tool_write w = {path, {0, 0}, false, false, true, {0, 0}};
  add_write(c, w);
}

void ec_tool_move(ec_tool_call *c, ec_str from, ec_str to) {
  ec_tool_write w = {to, {0, 0}, false, false, false, from};
  add_write(c, w);
}

bool ec_tool_entry_at(ec_tool_call *c, const cJSON *it, ec_tool_entry *e) {
  memset(e, 0, sizeof *e);
  e->size = e->mtime_ms = -1;
  if (cJSON_IsString(it)) { /* a bare name; "sub/" names a directory */
    e->name = ec_json_reader_string(c->reader, it->valuestring);
    if (e->name.len > 1 && e->name.ptr[e->name.len - 1] == '/') { e->name.len--; e->type = EC_ENTRY_DIRECTORY; }
    return e->name.len > 0;
  }
  if (!cJSON_IsObject(it)) return false;
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name"), *type = cJSON_GetObjectItemCaseSensitive(it, "type");
  const cJSON *size = cJSON_GetObjectItemCaseSensitive(it, "size"), *mtime = cJSON_GetObjectItemCaseSensitive(it, "mtime_ms");
  const cJSON *real = cJSON_GetObjectItemCaseSensitive(it, "real_path");
  if (!cJSON_IsString(name) || !name->valuestring[0]) return false;
  e->name = ec_json_reader_string(c->reader, name->valuestring);
  const char *ty = cJSON_IsString(type) ? type->valuestring : "file";
  e->type = !strcmp(ty, "directory") ? EC_ENTRY_DIRECTORY : !strcmp(ty, "symlink") ? EC_ENTRY_SYMLINK
            : !strcmp(ty, "file") ? EC_ENTRY_FILE : EC_ENTRY_OTHER;
  if (cJSON_IsNumber(size) && size->valuedouble >= 0) e->size = size->valuedouble;
  if (cJSON_IsNumber(mtime)) e->mtime_ms = mtime->valuedouble;
  if (cJSON_IsString(real)) e->real_path = ec_json_reader_string(c->reader, real->valuestring);
  return true;
}

void ec_tool_request_file(ec_request *req, ec_format fmt, ec_file *slot, ec_str path, const ec_str *content) {
  ec_request_init(req, fmt);
  req->edit.path = path;
  if (!content) return;
  slot->path = path;
  slot->content = *content;
  req->files = slot;
  req->n_files = 1;
}

ec_result *ec_tool_apply(ec_tool_call *c, const ec_request *req) {
  ec_request r = *req;
  r.options.syntax = c->syntax;
  return ec_apply(&r, c->host);
}

ec_str ec_tool_syntax_note(ec_tool_call *c, const ec_file_result *f) {
  const ec_syntax_report *sx = f ? f->syntax : NULL;
  if (!sx || !sx->checked || !sx->new_error_count) return ec_str_make("", 0);
  ec_str where = ec_syn_describe(c->a, sx, 3);
  ec_str path = f->action == EC_ACTION_MOVE ? f->moved_to : f->path;
  return ec_arena_printf(c->a, " The edit left %.*s with %u syntax error%s it did not have (%.*s): %.*s. Fix %s with another edit.",
                         (int)path.len, path.ptr, sx->new_error_count, sx->new_error_count == 1 ? "" : "s", (int)sx->language.len,
                         sx->language.ptr, (int)where.len, where.ptr ? where.ptr : "", sx->new_error_count == 1 ? "it" : "them");
}

void ec_tool_text_answer(ec_tool_call *c, ec_str text, bool is_error) {
  ec_buf_append_cstr(&c->result, "{\"content\":");
  ec_jstr(&c->result, text);
  ec_buf_printf(&c->result, ",\"is_error\":%s}", is_error ? "true" : "false");
}

void ec_tool_text_fail(ec_tool_call *c, const char *code, ec_str message) {
  (void)code;
  ec_tool_text_answer(c, message, true);
}

void ec_tool_delete_file(ec_tool_call *c, ec_str path) {
  ec_tool_write w = {path, {0, 0}, true, false, false, {0, 0}, {0, 0}};
  add_write(c, w);
}

bool ec_tool_decoded(ec_tool_call *c, const ec_tool *t, ec_str path, const ec_obs *o) {
  if (!o || !o->enc_problem.len) return true;
  ec_tool_failf(c, t, "ENCODING", "'%.*s' cannot be read or edited as text: %.*s. Nothing was changed.", (int)path.len, path.ptr,
                (int)o->enc_problem.len, o->enc_problem.ptr);
  return false;
}

ec_str ec_tool_shown(ec_tool_call *c, const ec_obs *o, ec_str part, ec_str path, ec_str *note) {
  if (note) *note = ec_cstr("");
  size_t bad = ec_utf8_first_invalid(o->content);
  if (bad == o->content.len) return part;
  size_t replaced;
  ec_str shown = ec_text_shown(c->a, part, &replaced);
  if (!shown.ptr) { c->oom = true; return shown; }
  if (note) {
    *note = ec_arena_printf(c->a, "Note: '%.*s' is not UTF-8 (line %zu holds its first byte that is not), so its encoding is "
                            "unknown: every byte that is not ASCII is shown as \xEF\xBF\xBD (U+FFFD). Edits may change only its ASCII "
                            "text; a line holding such bytes can be kept as it is, not rewritten.",
                            (int)path.len, path.ptr, ec_count_lf(o->content.ptr, bad) + 1);
    if (!note->ptr) c->oom = true;
  }
  return shown;
}

const ec_obs *ec_tool_obs(const ec_tool_call *c, ec_str path) {
  for (size_t i = 0; i < c->n_obs; i++)
    if (ec_str_eq(c->obs[i].path, path)) return &c->obs[i];
  return NULL;
}

void ec_tool_failf(ec_tool_call *c, const ec_tool *t, const char *code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ec_str m = ec_arena_vprintf(c->a, fmt, ap);
  va_end(ap);
  if (!m.ptr) { c->oom = true; return; }
  ec_tool_fail(c, t, code, m);
}

void ec_tool_fail(ec_tool_call *c, const ec_tool *t, const char *code, ec_str message) {
  c->result.len = 0;
  c->n_writes = 0;
  c->state_out.len = 0; /* a call that fails leaves the history as it was */
  t->fail(c, code, message);
  c->status = EC_TOOL_ERROR;
  c->done = true;
}

static const cJSON *arg(const ec_tool_call *c, const char *key) {
  for (const cJSON *it = c->args ? c->args->child : NULL; it; it = it->next)
    if (!strcmp(it->string, key)) return it;
  return NULL;
}

bool ec_args_only(ec_tool_call *c, const ec_tool *t, const char *const *known) {
  for (const cJSON *it = c->args ? c->args->child : NULL; it; it = it->next) {
    bool ok = false;
    for (size_t i = 0; known[i] && !ok; i++) ok = !strcmp(known[i], it->string);
    if (ok) continue;
    ec_buf list;
    ec_buf_init(&list, ec_arena_allocator(c->a));
    for (size_t i = 0; known[i]; i++) ec_buf_printf(&list, "%s%s", i ? ", " : "", known[i]);
    ec_str l = ec_buf_finish(&list, c->a);
    ec_tool_failf(c, t, "INVALID_PARAM", "Unknown parameter '%s'. This tool takes: %.*s.", it->string,
                  (int)l.len, l.ptr ? l.ptr : "");
    return false;
  }
  return true;
}

/* The argument `key`, or NULL when it is absent (or null and optional): then *ok says whether that
 * is fine, a required one failing as INVALID_PARAM naming `what` it should be. */
static const cJSON *arg_given(ec_tool_call *c, const ec_tool *t, const char *key, ec_arg_need need, const char *what, bool *ok) {
  const cJSON *it = arg(c, key);
  *ok = true;
  if (it && !(cJSON_IsNull(it) && need == ARG_OPTIONAL)) return it;
  if (need != ARG_OPTIONAL) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Missing required parameter '%s' (%s).", key, what);
    *ok = false;
  }
  return NULL;
}

bool ec_arg_string(ec_tool_call *c, const ec_tool *t, const char *key, ec_arg_need need, ec_str *out, bool *present) {
  if (present) *present = false;
  bool ok;
  const cJSON *it = arg_given(c, t, key, need, "a string", &ok);
  if (!it) return ok;
  if (!cJSON_IsString(it)) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter '%s' must be a string.", key);
    return false;
  }
  *out = ec_json_reader_string(c->reader, it->valuestring);
  if (!out->ptr) { c->oom = true; return false; }
  if (present) *present = true;
  return true;
}

bool ec_arg_int(ec_tool_call *c, const ec_tool *t, const char *key, ec_arg_need need, int64_t lo, int64_t hi, int64_t *out,
                bool *present) {
  if (present) *present = false;
  bool ok;
  const cJSON *it = arg_given(c, t, key, need, "an integer", &ok);
  if (!it) return ok;
  if (!cJSON_IsNumber(it) || !isfinite(it->valuedouble) || floor(it->valuedouble) != it->valuedouble) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter '%s' must be an integer.", key);
    return false;
  }
  if (it->valuedouble < (double)lo || it->valuedouble > (double)hi) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter '%s' must be between %lld and %lld; it was %.0f.", key,
                  (long long)lo, (long long)hi, it->valuedouble);
    return false;
  }
  *out = (int64_t)it->valuedouble;
  if (present) *present = true;
  return true;
}

bool ec_arg_bool(ec_tool_call *c, const ec_tool *t, const char *key, bool *out) {
  const cJSON *it = arg(c, key);
  if (!it || cJSON_IsNull(it)) return true;
  if (!cJSON_IsBool(it)) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter '%s' must be true or false.", key);
    return false;
  }
  *out = cJSON_IsTrue(it);
  return true;
}

size_t ec_tool_line_count(ec_str s) {
  if (!s.len) return 0;
  size_t n = ec_count_lf(s.ptr, s.len);
  return s.ptr[s.len - 1] == '\n' ? n : n + 1;
}

ec_str ec_tool_lf(ec_tool_call *c, ec_str s) {
  if (!s.len || !memchr(s.ptr, '\r', s.len)) return s;
  char *o = ec_arena_alloc(c->a, s.len + 1);
  if (!o) { c->oom = true; return ec_str_make(NULL, 0); }
  size_t w = 0;
  for (size_t i = 0; i < s.len; i++)
    if (!(s.ptr[i] == '\r' && i + 1 < s.len && s.ptr[i + 1] == '\n')) o[w++] = s.ptr[i];
  o[w] = 0;
  return ec_str_make(o, w);
}

size_t ec_tool_exact_places(ec_tool_call *c, ec_str hay, ec_str needle, uint32_t *lines, size_t max) {
  hay = ec_tool_lf(c, hay);
  needle = ec_tool_lf(c, needle);
  if (!needle.len || !hay.ptr || !needle.ptr) return 0;
  size_t n = 0, line = 1;
  const char *from = hay.ptr, *end = hay.ptr + hay.len, *counted = hay.ptr;
  while ((size_t)(end - from) >= needle.len) {
    const char *hit = NULL;
    for (const char *q = from; (q = memchr(q, needle.ptr[0], (size_t)(end - q) - needle.len + 1)); q++)
      if (!memcmp(q, needle.ptr, needle.len)) { hit = q; break; }
    if (!hit) break;
    line += ec_count_lf(counted, (size_t)(hit - counted));
    counted = hit;
    if (n < max) lines[n] = (uint32_t)line;
    n++;
    from = hit + needle.len;
  }
  return n;
}

ec_str ec_tool_cat_n(ec_tool_call *c, ec_str s, size_t first, size_t last) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  size_t line = 1, i = 0;
  while (i < s.len && line <= last) {
    const char *nl = memchr(s.ptr + i, '\n', s.len - i);
    size_t end = nl ? (size_t)(nl - s.ptr) : s.len;
    if (line >= first) {
      ec_buf_printf(&b, "%6zu\t", line);
      ec_buf_append(&b, s.ptr + i, end - i);
      ec_buf_append_char(&b, '\n');
    }
    i = end + 1;
    line++;
  }
  ec_str r = ec_buf_finish(&b, c->a);
  if (!r.ptr) c->oom = true;
  return r;
}

/* Section - paths */

bool ec_tool_under(ec_str p, ec_str dir) {
  while (dir.len > 1 && dir.ptr[dir.len - 1] == '/') dir.len--;
  if (dir.len == 1 && dir.ptr[0] == '/') return p.len && p.ptr[0] == '/';
  return p.len >= dir.len && !memcmp(p.ptr, dir.ptr, dir.len) && (p.len == dir.len || p.ptr[dir.len] == '/');
}

/* path.resolve(base, p) for POSIX: absolute p or base + "/" + p, "." and ".." collapsed. */
static ec_str resolve_abs(ec_tool_call *c, ec_str base, ec_str p) {
  size_t cap = base.len + p.len + 3;
  char *joined = ec_arena_alloc(c->a, cap), *out = ec_arena_alloc(c->a, cap);
  if (!joined || !out) { c->oom = true; return ec_str_make(NULL, 0); }
  size_t n = 0;
  if (!(p.len && p.ptr[0] == '/')) {
    if (base.len) memcpy(joined, base.ptr, base.len); /* no root given: an empty base may have no pointer */
    n = base.len;
    joined[n++] = '/';
  }
  if (p.len) memcpy(joined + n, p.ptr, p.len);
  n += p.len;
  size_t w = 0;
  for (size_t i = 0; i <= n;) {
    size_t j = i;
    while (j < n && joined[j] != '/') j++;
    size_t seg = j - i;
    if (seg == 0 || (seg == 1 && joined[i] == '.')) {
    } else if (seg == 2 && joined[i] == '.' && joined[i + 1] == '.') {
      while (w && out[w - 1] != '/') w--;
      if (w) w--;
    } else {
      out[w++] = '/';
      memcpy(out + w, joined + i, seg);
      w += seg;
    }
    i = j + 1;
  }
  if (!w) out[w++] = '/';
  out[w] = 0;
  return ec_str_make(out, w);
}

static bool inside_roots(ec_tool_call *c, ec_str p) {
  if (c->roots) {
    for (const cJSON *r = c->roots->child; r; r = r->next)
      if (cJSON_IsString(r) && ec_tool_under(p, ec_json_reader_string(c->reader, r->valuestring))) return true;
    return false;
  }
  return c->root.len && ec_tool_under(p, c->root);
}

ec_str ec_tool_cwd(const ec_tool_call *c) {
  if (c->roots && c->roots->child && cJSON_IsString(c->roots->child))
    return ec_json_reader_string(c->reader, c->roots->child->valuestring);
  return c->root;
}

bool ec_tool_resolve_in_roots(ec_tool_call *c, ec_str path, ec_str *abs) {
  ec_str p = {0, 0};
  /* "~" and "~/x" name the home directory when the host gave one (as the reference expands them). */
  if (c->home.len && path.len && path.ptr[0] == '~' && (path.len == 1 || path.ptr[1] == '/'))
    p = resolve_abs(c, c->home, ec_str_drop(path, path.len == 1 ? 1 : 2));
  else if (path.len && path.ptr[0] == '/') p = resolve_abs(c, ec_cstr(""), path);
  else {
    if (c->roots)
      for (const cJSON *r = c->roots->child; r && !p.ptr && !c->oom; r = r->next) {
        if (!cJSON_IsString(r)) continue;
        ec_str cand = resolve_abs(c, ec_json_reader_string(c->reader, r->valuestring), path);
        if (cand.ptr && inside_roots(c, cand)) p = cand;
      }
    if (!p.ptr && !c->oom) p = resolve_abs(c, ec_tool_cwd(c), path);
  }
  if (!p.ptr) return false;
  *abs = p;
  return !memchr(path.ptr ? path.ptr : "", 0, path.len) && inside_roots(c, p);
}

bool ec_tool_path_inside(ec_tool_call *c, ec_str path, ec_str *rel) {
  /* Allowed directories place absolute paths only under an absolute root (a WASI guest's root
   * may be "."): otherwise the lexical rule below. */
  if (c->roots && c->root.len && c->root.ptr[0] == '/') {
    ec_str abs, root = c->root;
    if (!ec_tool_resolve_in_roots(c, path, &abs) || !root.len || root.ptr[0] != '/' || !ec_tool_under(abs, root)) return false;
    while (root.len > 1 && root.ptr[root.len - 1] == '/') root.len--;
    size_t skip = root.len == 1 ? 1 : abs.len == root.len ? root.len : root.len + 1;
    *rel = ec_str_make(abs.ptr + skip, abs.len - skip);
    return true;
  }
  ec_str p = path;
  if (p.len && p.ptr[0] == '/') {
    ec_str root = c->root;
    while (root.len > 1 && root.ptr[root.len - 1] == '/') root.len--;
    if (!root.len || root.ptr[0] != '/') return false; /* no absolute root: absolute paths cannot be placed */
    if (root.len == 1) p = ec_str_drop(p, 1);
    else if (p.len >= root.len && !memcmp(p.ptr, root.ptr, root.len) && (p.len == root.len || p.ptr[root.len] == '/'))
      p = ec_str_drop(p, root.len);
    else return false;
  }
  /* Normalise segment by segment: "." dropped, ".." pops, and popping past the root escapes. */
  char *out = ec_arena_alloc(c->a, p.len + 1);
  if (!out) { c->oom = true; return false; }
  size_t n = 0;
  size_t i = 0;
  while (i <= p.len) {
    size_t j = i;
    while (j < p.len && p.ptr[j] != '/') j++;
    size_t seg = j - i;
    if (seg == 0 || (seg == 1 && p.ptr[i] == '.')) {
      /* nothing */
    } else if (seg == 2 && p.ptr[i] == '.' && p.ptr[i + 1] == '.') {
      if (!n) return false;
      while (n && out[n - 1] != '/') n--;
      if (n) n--;
    } else {
      if (memchr(p.ptr + i, 0, seg)) return false;
      if (n) out[n++] = '/';
      memcpy(out + n, p.ptr + i, seg);
      n += seg;
    }
    i = j + 1;
  }
  out[n] = 0;
  *rel = ec_str_make(out, n);
  return true;
}

/* Section - reading a phase request */

typedef struct phase_req {
  const ec_tool *tool;
  ec_str phase;
  const cJSON *observed, *pending, *outcomes;
} phase_req;

static bool bad(ec_buf *out, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  ec_buf_append_cstr(out, "{\"phase\":\"error\",\"error\":{\"code\":\"INVALID_PARAM\",\"message\":");
  ec_jstr(out, ec_cstr(msg));
  ec_buf_append_cstr(out, "}}");
  return false;
}

static bool read_obs(ec_tool_call *c, const cJSON *observed, ec_buf *out) {
  if (!observed) return true;
  if (!cJSON_IsObject(observed)) return bad(out, "observed must be an object mapping each planned path to what the host saw");
  size_t n = (size_t)cJSON_GetArraySize(observed), i = 0;
  c->obs = ec_arena_calloc(c->a, n + 1, sizeof *c->obs);
  if (!c->obs) { c->oom = true; return false; }
  for (const cJSON *o = observed->child; o; o = o->next, i++) {
    ec_obs *ob = &c->obs[i];
    ob->path = ec_json_reader_string(c->reader, o->string);
    ob->size = ob->mtime_ms = -1;
    if (!cJSON_IsObject(o)) return bad(out, "observed['%s'] must be an object", o->string);
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(o, "kind");
    const cJSON *err = cJSON_GetObjectItemCaseSensitive(o, "error");
    if (cJSON_IsString(err)) {
      ob->kind = EC_OBS_REFUSED;
      ob->code = ec_json_reader_string(c->reader, err->valuestring);
    } else if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "file")) ob->kind = EC_OBS_FILE;
    else if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "directory")) ob->kind = EC_OBS_DIRECTORY;
    else if (cJSON_IsString(kind) && !strcmp(kind->valuestring, "missing")) ob->kind = EC_OBS_MISSING;
    else return bad(out, "observed['%s'] needs kind file|directory|missing, or error", o->string);
    ob->mode = -1;
    for (int k = 0; k < 3; k++) ob->times[k].ms = NAN; /* not reported (any number is a time, -1 too) */
    for (const cJSON *f = o->child; f; f = f->next) {
      if (!strcmp(f->string, "content")) {
        ec_error_code rc = ec_json_reader_bytes(c->reader, f, &ob->content);
        if (rc == EC_INVALID_PARAM)
          return bad(out, "observed['%s'].content %.*s", o->string, (int)c->reader->message.len, c->reader->message.ptr);
        if (rc) { c->oom = true; return false; }
        ob->has_content = true;
      } else if (!strcmp(f->string, "mode") && cJSON_IsNumber(f)) ob->mode = f->valuedouble;
      else if (!strcmp(f->string, "times") && cJSON_IsObject(f)) {
        static const char *const NAMES[3] = {"birthtime", "mtime", "atime"};
        for (int k = 0; k < 3; k++) {
          const cJSON *t = cJSON_GetObjectItemCaseSensitive(f, NAMES[k]);
          const cJSON *ms = cJSON_GetObjectItemCaseSensitive(t, "ms"), *off = cJSON_GetObjectItemCaseSensitive(t, "offset_min");
          const cJSON *zone = cJSON_GetObjectItemCaseSensitive(t, "zone");
          if (!cJSON_IsNumber(ms)) continue;
          ob->times[k].ms = ms->valuedouble;
          ob->times[k].offset_min = cJSON_IsNumber(off) ? off->valuedouble : 0;
          if (cJSON_IsString(zone)) ob->times[k].zone = ec_json_reader_string(c->reader, zone->valuestring);
        }
      } else if (!strcmp(f->string, "size") && cJSON_IsNumber(f)) ob->size = f->valuedouble;
      else if (!strcmp(f->string, "mtime_ms") && cJSON_IsNumber(f)) ob->mtime_ms = f->valuedouble;
      else if (!strcmp(f->string, "real_path") && cJSON_IsString(f)) ob->real_path = ec_json_reader_string(c->reader, f->valuestring);
      else if (!strcmp(f->string, "message") && cJSON_IsString(f)) ob->message = ec_json_reader_string(c->reader, f->valuestring);
      else if (!strcmp(f->string, "entries") && cJSON_IsArray(f)) ob->entries = f;
    }
    if (ob->kind == EC_OBS_FILE && ob->has_content) {
      if (ob->size < 0) ob->size = (double)ob->content.len;
      ob->bytes = ob->content;
      /* Tools see text: UTF-16 decoded, lone-CR endings as LF; their writes are encoded back. */
      if (ec_text_decode(c->a, ob->content, &ob->content, &ob->enc, &ob->enc_problem) == EC_OUT_OF_MEMORY) { c->oom = true; return false; }
    }
  }
  c->n_obs = n;
  return true;
}

static bool read_request(ec_tool_call *c, const cJSON *root, phase_req *pr, ec_buf *out) {
  if (!cJSON_IsObject(root)) return bad(out, "a tool call must be a JSON object");
  const cJSON *options = NULL;
  for (const cJSON *it = root->child; it; it = it->next) {
    const char *k = it->string;
    if (!strcmp(k, "tool")) {
      if (!cJSON_IsString(it)) return bad(out, "tool must be a string");
      pr->tool = ec_tool_find(ec_cstr(it->valuestring));
      if (!pr->tool) return bad(out, "unknown tool '%.200s' (the list: {\"tool_definitions\": \"raw\"})", it->valuestring);
    } else if (!strcmp(k, "phase")) {
      if (!cJSON_IsString(it)) return bad(out, "phase must be plan, run or finish");
      pr->phase = ec_cstr(it->valuestring);
    } else if (!strcmp(k, "args")) c->args = it;
    else if (!strcmp(k, "root")) {
      if (!cJSON_IsString(it)) return bad(out, "root must be a string");
      c->root = ec_json_reader_string(c->reader, it->valuestring);
    } else if (!strcmp(k, "roots")) {
      if (!cJSON_IsArray(it)) return bad(out, "roots must be an array of strings");
      c->roots = it;
    } else if (!strcmp(k, "home")) {
      if (!cJSON_IsString(it)) return bad(out, "home must be a string");
      c->home = ec_json_reader_string(c->reader, it->valuestring);
    } else if (!strcmp(k, "dry_run")) {
      if (!cJSON_IsBool(it)) return bad(out, "dry_run must be true or false");
      c->dry_run = cJSON_IsTrue(it);
    } else if (!strcmp(k, "options")) options = it;
    else if (!strcmp(k, "state")) c->state = it;
    else if (!strcmp(k, "observed")) pr->observed = it;
    else if (!strcmp(k, "pending")) pr->pending = it;
    else if (!strcmp(k, "outcomes")) pr->outcomes = it;
    else return bad(out, "unknown field '%.100s' in a tool call (known: tool, phase, args, root, roots, home, dry_run, options, state, observed, pending, outcomes)", k);
  }
  if (!pr->tool) return bad(out, "a tool call needs 'tool'");
  if (!c->args) return bad(out, "a tool call needs 'args' (an object: the arguments the model sent)");
  if (!pr->phase.len) pr->phase = ec_cstr("plan");
  if (options) {
    if (!cJSON_IsObject(options)) return bad(out, "options must be an object");
    for (const cJSON *it = options->child; it; it = it->next) {
      if (!strcmp(it->string, "ladder") && cJSON_IsBool(it)) c->ladder = cJSON_IsTrue(it);
      else if (!strcmp(it->string, "diff_max_bytes") && cJSON_IsNumber(it) && it->valuedouble >= 0)
        c->diff_max_bytes = ec_size_of_double(it->valuedouble);
      else if (!strcmp(it->string, "syntax") && cJSON_IsString(it) && !strcmp(it->valuestring, "report")) c->syntax = EC_SYNTAX_REPORT;
      else if (!strcmp(it->string, "syntax") && cJSON_IsString(it) && !strcmp(it->valuestring, "refuse")) c->syntax = EC_SYNTAX_REFUSE;
      else if (!strcmp(it->string, "syntax") && cJSON_IsString(it) && !strcmp(it->valuestring, "off")) c->syntax = EC_SYNTAX_OFF;
      else return bad(out, "unknown or ill-typed option '%.100s' (known: ladder, diff_max_bytes, syntax: \"report\" | \"refuse\" | \"off\")", it->string);
    }
  }
  return read_obs(c, pr->observed, out);
}

/* Section - writing a phase response */

static const char *status_name(ec_tool_status s) {
  return s == EC_TOOL_SUCCESS ? "success" : s == EC_TOOL_PARTIAL ? "partial" : "error";
}

static void write_done(ec_buf *out, ec_tool_call *c, const cJSON *state_json) {
  ec_buf_printf(out, "{\"phase\":\"done\",\"status\":\"%s\",\"result\":", status_name(c->status));
  ec_buf_append(out, c->result.ptr, c->result.len);
  if (c->state_out.len) {
    ec_buf_append_cstr(out, ",\"state\":");
    ec_buf_append(out, c->state_out.ptr, c->state_out.len);
  } else if (state_json) {
    ec_buf_append_cstr(out, ",\"state\":");
    ec_tool_write_json(c, out, state_json);
  }
  ec_buf_append_char(out, '}');
}

/* Whether read r still lacks (part of) its observation. */
static bool unobserved(const ec_tool_call *c, const ec_tool_read *r) {
  const ec_obs *o = ec_tool_obs(c, r->path);
  return !o || (r->list && o->kind == EC_OBS_DIRECTORY && !o->entries);
}

/* The reads still to make (all of them in plan, where nothing is observed yet). */
static void write_reads(ec_buf *out, ec_tool_call *c) {
  ec_buf_append_cstr(out, "{\"phase\":\"read\",\"reads\":[");
  bool first = true;
  for (size_t i = 0; i < c->n_reads; i++) {
    const ec_tool_read *r = &c->reads[i];
    if (!unobserved(c, r)) continue;
    ec_buf_append_cstr(out, first ? "{\"path\":" : ",{\"path\":");
    first = false;
    ec_jstr(out, r->path);
    ec_buf_printf(out, ",\"content\":%s", r->content ? "true" : "false");
    if (r->list) ec_buf_append_cstr(out, ",\"list\":true");
    if (r->bytes) ec_buf_append_cstr(out, ",\"bytes\":true");
    ec_buf_append_char(out, '}');
  }
  ec_buf_append_cstr(out, "]}");
}

static void write_writes(ec_buf *out, ec_tool_call *c) {
  ec_buf_append_cstr(out, "{\"phase\":\"write\",\"writes\":[");
  for (size_t i = 0; i < c->n_writes; i++) {
    const ec_tool_write *w = &c->writes[i];
    ec_buf_append_cstr(out, i ? ",{\"path\":" : "{\"path\":");
    ec_jstr(out, w->path);
    if (w->remove) ec_buf_append_cstr(out, ",\"delete\":true");
    else if (w->mkdir) ec_buf_append_cstr(out, ",\"mkdir\":true");
    else if (w->move_from.len) {
      ec_buf_append_cstr(out, ",\"move_from\":");
      ec_jstr(out, w->move_from);
    } else {
      ec_buf_append_cstr(out, ",\"content\":");
      ec_json_write_bytes(out, w->content);
      ec_buf_printf(out, ",\"create_dirs\":%s", w->create_dirs ? "true" : "false");
    }
    ec_buf_append_char(out, '}');
  }
  ec_buf_printf(out, "],\"pending\":{\"status\":\"%s\",\"result\":", status_name(c->status));
  ec_buf_append(out, c->result.ptr, c->result.len);
  if (c->state_out.len) {
    ec_buf_append_cstr(out, ",\"state\":");
    ec_buf_append(out, c->state_out.ptr, c->state_out.len);
  }
  /* What the error renderer may need in finish, without the contents. */
  ec_buf_append_cstr(out, ",\"real_paths\":{");
  bool first = true;
  for (size_t i = 0; i < c->n_obs; i++) {
    if (!c->obs[i].real_path.len) continue;
    ec_buf_append_cstr(out, first ? "" : ",");
    first = false;
    ec_jstr(out, c->obs[i].path);
    ec_buf_append_char(out, ':');
    ec_jstr(out, c->obs[i].real_path);
  }
  ec_buf_append_cstr(out, "}}}");
}

/* Section - the phases */

/* Paths one call may observe, over all its rounds: a walk of a huge tree ends with TOO_LARGE
 * rather than growing the observations every round without bound. */
#define EC_TOOL_MAX_READS 100000

/*
 * Every write over a file the run observed, in that file's terms: a file that is not UTF-8 keeps
 * the bytes its unknown encoding may need (text/encoding.h) — whichever tool writes, by the
 * engine or whole — a UTF-8 BOM stays, and a decoded file (UTF-16, lone CRs) is encoded back.
 * A refusal replaces the answer (the tool's own error, code ENCODING); false only when out of memory.
 */
static bool settle_writes(ec_tool_call *c) {
  for (size_t i = 0; i < c->n_writes; i++) {
    ec_tool_write *w = &c->writes[i];
    const ec_obs *o = ec_tool_obs(c, w->from.len ? w->from : w->path);
    if (w->remove || w->mkdir || w->move_from.len || !o || o->kind != EC_OBS_FILE || !o->has_content) continue;
    ec_kept why;
    if (!ec_text_keeps_bytes(o->content, w->content, &why)) {
      ec_str m = ec_text_kept_message(c->a, w->path, o->content, w->content, &why);
      if (!m.ptr) { c->oom = true; return false; }
      ec_tool_failf(c, c->tool, "ENCODING", "%.*s", (int)m.len, m.ptr);
      return !c->oom;
    }
    /* A UTF-8 BOM stays (a tool that writes a whole content, not through the engine, never has it). */
    if (ec_str_starts_with(o->content, "\xEF\xBB\xBF") && !ec_str_starts_with(w->content, "\xEF\xBB\xBF")) {
      char *with = ec_arena_alloc(c->a, w->content.len + 4);
      if (!with) { c->oom = true; return false; }
      memcpy(with, "\xEF\xBB\xBF", 3);
      if (w->content.len) memcpy(with + 3, w->content.ptr, w->content.len);
      with[w->content.len + 3] = 0;
      w->content = ec_str_make(with, w->content.len + 3);
    }
    if (ec_encoding_plain(&o->enc)) continue;
    const char *why_not;
    ec_error_code rc = ec_text_encode(c->a, w->content, &o->enc, &w->content, &why_not);
    if (rc == EC_ENCODING) {
      ec_tool_failf(c, c->tool, "ENCODING", "The new text of '%.*s' cannot be written back: %s. Nothing was changed.",
                    (int)w->path.len, w->path.ptr, why_not);
      return !c->oom;
    }
    if (rc) { c->oom = true; return false; }
  }
  return true;
}

static void finish(ec_tool_call *c, const phase_req *pr, ec_buf *out) {
  const cJSON *p = pr->pending;
  if (!cJSON_IsObject(p)) { bad(out, "finish needs 'pending', as the run phase returned it"); return; }
  if (!cJSON_IsArray(pr->outcomes)) { bad(out, "finish needs 'outcomes': one {path, ok | error, message} per write"); return; }
  const cJSON *real = cJSON_GetObjectItemCaseSensitive(p, "real_paths");
  size_t n = real ? (size_t)cJSON_GetArraySize(real) : 0, i = 0;
  c->obs = ec_arena_calloc(c->a, n + 1, sizeof *c->obs);
  if (!c->obs) { c->oom = true; return; }
  for (const cJSON *r = real ? real->child : NULL; r; r = r->next) {
    if (!cJSON_IsString(r)) continue;
    c->obs[i].path = ec_json_reader_string(c->reader, r->string);
    c->obs[i].real_path = ec_json_reader_string(c->reader, r->valuestring);
    c->obs[i].kind = EC_OBS_FILE;
    c->obs[i].size = c->obs[i].mtime_ms = -1;
    i++;
  }
  c->n_obs = i;
  for (const cJSON *o = pr->outcomes->child; o; o = o->next) {
    const cJSON *ok = cJSON_GetObjectItemCaseSensitive(o, "ok");
    if (cJSON_IsTrue(ok)) continue;
    const cJSON *path = cJSON_GetObjectItemCaseSensitive(o, "path");
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(o, "error");
    const cJSON *msg = cJSON_GetObjectItemCaseSensitive(o, "message");
    ec_str ps = cJSON_IsString(path) ? ec_json_reader_string(c->reader, path->valuestring) : ec_cstr("?");
    const char *cs = cJSON_IsString(code) ? code->valuestring : "IO_ERROR";
    bool perm = !strcmp(cs, "PERMISSION_DENIED") || !strcmp(cs, "EACCES") || !strcmp(cs, "EPERM");
    ec_str ms = cJSON_IsString(msg) ? ec_json_reader_string(c->reader, msg->valuestring) : ec_cstr("");
    const char *fcode = perm ? "PERMISSION_DENIED" : "EXECUTION_ERROR";
    if (pr->tool->host_write_errors && ms.len) ec_tool_failf(c, pr->tool, fcode, "%.*s", (int)ms.len, ms.ptr);
    else
      ec_tool_failf(c, pr->tool, fcode, "Could not write '%.*s'%s%.*s. The file was left as it was: nothing was changed.",
                    (int)ps.len, ps.ptr, ms.len ? ": " : "", (int)ms.len, ms.ptr);
    write_done(out, c, NULL);
    return;
  }
  const cJSON *status = cJSON_GetObjectItemCaseSensitive(p, "status");
  const cJSON *result = cJSON_GetObjectItemCaseSensitive(p, "result");
  const cJSON *state = cJSON_GetObjectItemCaseSensitive(p, "state");
  /* the host sends back what run said; only the three statuses are written, never its bytes raw */
  const char *st = cJSON_IsString(status) ? status->valuestring : "success";
  if (strcmp(st, "success") && strcmp(st, "partial") && strcmp(st, "error")) st = "error";
  ec_buf_printf(out, "{\"phase\":\"done\",\"status\":\"%s\",\"result\":", st);
  ec_tool_write_json(c, out, result);
  if (state) {
    ec_buf_append_cstr(out, ",\"state\":");
    ec_tool_write_json(c, out, state);
  }
  ec_buf_append_char(out, '}');
}

static void run_phase(ec_tool_call *c, const phase_req *pr, ec_buf *out) {
  const ec_tool *t = pr->tool;
  c->tool = t;
  if (ec_str_eq_cstr(pr->phase, "finish")) { finish(c, pr, out); return; }
  bool run = ec_str_eq_cstr(pr->phase, "run");
  if (!run && !ec_str_eq_cstr(pr->phase, "plan")) { bad(out, "phase must be plan, run or finish"); return; }
  t->plan(c);
  if (c->oom) return;
  if (c->done) { write_done(out, c, c->state); return; }
  if (!run) { write_reads(out, c); return; }
  for (size_t i = 0; i < c->n_reads; i++) {
    const ec_tool_read *r = &c->reads[i];
    const ec_obs *o = ec_tool_obs(c, r->path);
    if (!o) {
      bad(out, "observed lacks '%.*s', which the plan asked for", (int)r->path.len, r->path.ptr);
      return;
    }
    if (r->content && o->kind == EC_OBS_FILE && !o->has_content) {
      bad(out, "observed['%.*s'] needs its content", (int)r->path.len, r->path.ptr);
      return;
    }
    if (r->list && o->kind == EC_OBS_DIRECTORY && !cJSON_IsArray(o->entries)) {
      bad(out, "observed['%.*s'] needs its entries (the read asked to list the directory)", (int)r->path.len, r->path.ptr);
      return;
    }
  }
  size_t planned = c->n_reads;
  c->t0 = c->host && c->host->clock_ms ? c->host->clock_ms(c->host->clock_user) : 0;
  t->run(c);
  if (c->oom) return;
  /* A walking tool asked for more (the next level of a tree): read them, then run again. */
  if (!c->done) {
    bool more = false;
    for (size_t i = planned; i < c->n_reads && !more; i++) more = unobserved(c, &c->reads[i]);
    if (more) {
      if (c->n_reads > EC_TOOL_MAX_READS) {
        ec_tool_failf(c, t, "TOO_LARGE", "The tool would read more than %d paths in one call; narrow it (a deeper "
                      "directory, or exclude patterns).", EC_TOOL_MAX_READS);
        write_done(out, c, c->state);
        return;
      }
      c->n_writes = 0;
      write_reads(out, c);
      return;
    }
  }
  if (!settle_writes(c)) return;
  if (c->dry_run && c->n_writes) { c->n_writes = 0; c->done = true; }
  if (c->done || !c->n_writes) { write_done(out, c, c->state); return; }
  write_writes(out, c);
}

/* Section - entry point */

char *ec_tool_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len);
char *ec_tool_definitions_json(ec_tool_call *c, const cJSON *root, ec_buf *out);

char *ec_tool_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  const ec_allocator *alc = host ? host->allocator : NULL;
  ec_arena *a = ec_arena_new(alc);
  if (!a) return NULL;
  ec_json_reader reader = {a, {0}, {0, 0}};
  ec_tool_call c;
  memset(&c, 0, sizeof c);
  c.a = a;
  c.syntax = EC_SYNTAX_REPORT;
  c.reader = &reader;
  c.host = host;
  ec_buf_init(&c.result, alc);
  ec_buf_init(&c.state_out, alc);
  ec_buf out;
  ec_buf_init(&out, alc);
  cJSON *root = ec_json_read(&reader, request ? request : "", request ? request_len : 0);
  if (!root) {
    if (reader.message.len) bad(&out, "%.*s", (int)reader.message.len, reader.message.ptr);
    else c.oom = true;
  } else if (cJSON_IsObject(root) && cJSON_GetObjectItemCaseSensitive(root, "tool_definitions")) {
    ec_tool_definitions_json(&c, root, &out);
  } else {
    phase_req pr;
    memset(&pr, 0, sizeof pr);
    if (read_request(&c, root, &pr, &out)) run_phase(&c, &pr, &out);
  }
  if (root) cJSON_Delete(root);
  bool oom = c.oom || c.result.oom || c.state_out.oom || out.oom || ec_arena_failed(a); /* a copy that failed unchecked */
  ec_buf_free(&c.result);
  ec_buf_free(&c.state_out);
  ec_arena_free(a);
  if (oom) {
    out.len = 0;
    out.oom = false;
    ec_buf_append_cstr(&out, "{\"phase\":\"error\",\"error\":{\"code\":\"OUT_OF_MEMORY\",\"message\":\"out of memory\"}}");
  }
  return ec_buf_take(&out, response_len);
}

bool ec_tool_response_failed(const char *response, size_t response_len) {
  static const char ERR[] = "{\"phase\":\"error\"", DONE_ERR[] = "{\"phase\":\"done\",\"status\":\"error\"";
  return (response_len >= sizeof ERR - 1 && !memcmp(response, ERR, sizeof ERR - 1)) ||
         (response_len >= sizeof DONE_ERR - 1 && !memcmp(response, DONE_ERR, sizeof DONE_ERR - 1));
}
