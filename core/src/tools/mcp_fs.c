/*
 * The reference MCP filesystem server's editing tools (peers/mcp_filesystem.md), same names,
 * parameters, path rules, messages and result shapes (a CallToolResult: one text item and
 * structuredContent.content; isError on failure), with editcore's matching underneath:
 *   edit_file  each edit through the editcore ladder (exact first), in order, all or nothing;
 *              several matches are refused instead of taking the first, re-indentation keeps
 *              nested lines where they belong, CRLF files stay CRLF; the jsdiff-style fenced diff.
 *   read_text_file, write_file, list_allowed_directories  as the reference.
 * Paths: absolute, or relative to the allowed directories (roots); the plan names the resolved
 * absolute path, and the host reports the real path (symlinks) of what it found.
 */
#include "tool.h"
#include "../base/num.h"
#include "../base/str.h"
#include "../request/result.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const ec_tool ec_tool_mcp_read_text_file, ec_tool_mcp_write_file, ec_tool_mcp_edit_file,
    ec_tool_mcp_list_allowed_directories;

/* Section - results */

static void mcp_text(ec_tool_call *c, ec_str text, bool is_error) {
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

static void mcp_fail(ec_tool_call *c, const char *code, ec_str message) {
  (void)code;
  mcp_text(c, message, true);
}

/* Section - paths */

/* The allowed directories, as "a, b" (messages) or one a line. */
static ec_str roots_joined(ec_tool_call *c, const char *sep) {
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

static bool under(ec_str p, ec_str dir) {
  while (dir.len > 1 && dir.ptr[dir.len - 1] == '/') dir.len--;
  if (dir.len == 1 && dir.ptr[0] == '/') return true;
  return p.len >= dir.len && !memcmp(p.ptr, dir.ptr, dir.len) && (p.len == dir.len || p.ptr[dir.len] == '/');
}

static bool inside_any(ec_tool_call *c, ec_str p) {
  if (c->roots) {
    for (const cJSON *r = c->roots->child; r; r = r->next)
      if (cJSON_IsString(r) && under(p, ec_json_reader_string(c->reader, r->valuestring))) return true;
    return false;
  }
  return c->root.len && under(p, c->root);
}

static ec_str first_root(ec_tool_call *c) {
  if (c->roots && c->roots->child && cJSON_IsString(c->roots->child))
    return ec_json_reader_string(c->reader, c->roots->child->valuestring);
  return c->root;
}

/* The reference's validatePath, lexical half: the absolute path to read, or false (answered). */
static bool mcp_path(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str *abs) {
  if (path.len >= 2 && ((path.ptr[0] | 0x20) >= 'a' && (path.ptr[0] | 0x20) <= 'z') && path.ptr[1] == ':') {
    ec_tool_failf(c, t, "ACCESS_DENIED", "Access denied - Windows-style path received on a POSIX host: %.*s",
                  (int)path.len, path.ptr);
    return false;
  }
  if (memchr(path.ptr ? path.ptr : "", 0, path.len)) {
    ec_tool_failf(c, t, "ACCESS_DENIED", "Access denied - path outside allowed directories: %.*s not in %.*s",
                  (int)path.len, path.ptr, (int)roots_joined(c, ", ").len, roots_joined(c, ", ").ptr);
    return false;
  }
  ec_str p = {0, 0};
  if (path.len && path.ptr[0] == '/') p = resolve_abs(c, ec_cstr(""), path);
  else {
    /* Relative: against each allowed directory in turn; the first result inside one wins. */
    if (c->roots)
      for (const cJSON *r = c->roots->child; r && !p.ptr; r = r->next) {
        if (!cJSON_IsString(r)) continue;
        ec_str cand = resolve_abs(c, ec_json_reader_string(c->reader, r->valuestring), path);
        if (cand.ptr && inside_any(c, cand)) p = cand;
      }
    if (!p.ptr) p = resolve_abs(c, first_root(c), path);
  }
  if (!p.ptr) return false;
  if (!inside_any(c, p)) {
    ec_str dirs = roots_joined(c, ", ");
    ec_tool_failf(c, t, "ACCESS_DENIED", "Access denied - path outside allowed directories: %.*s not in %.*s", (int)p.len,
                  p.ptr, (int)dirs.len, dirs.ptr);
    return false;
  }
  *abs = p;
  ec_tool_read_path(c, p, true);
  return true;
}

/* What the host met at the path: false (answered) unless it is a file (or missing_ok and missing). */
static bool mcp_observed(ec_tool_call *c, const ec_tool *t, ec_str abs, const ec_obs **out, bool missing_ok, const char *op) {
  const ec_obs *o = ec_tool_obs(c, abs);
  *out = o;
  if (o->kind == EC_OBS_REFUSED) {
    ec_str dirs = roots_joined(c, ", ");
    if (ec_str_eq_cstr(o->code, "ACCESS_DENIED"))
      ec_tool_failf(c, t, "ACCESS_DENIED", "Access denied - symlink target outside allowed directories: %.*s not in %.*s",
                    (int)(o->real_path.len ? o->real_path.len : abs.len), o->real_path.len ? o->real_path.ptr : abs.ptr,
                    (int)dirs.len, dirs.ptr);
    else
      ec_tool_failf(c, t, "IO_ERROR", "%.*s", (int)o->message.len, o->message.ptr ? o->message.ptr : "");
    return false;
  }
  if (o->kind == EC_OBS_MISSING && !missing_ok) {
    ec_tool_failf(c, t, "NOT_FOUND", "ENOENT: no such file or directory, open '%.*s'", (int)abs.len, abs.ptr);
    return false;
  }
  if (o->kind == EC_OBS_DIRECTORY) {
    ec_tool_failf(c, t, "IS_DIRECTORY", "EISDIR: illegal operation on a directory, %s", op);
    return false;
  }
  return true;
}

static const cJSON *arg(const ec_tool_call *c, const char *key) {
  return c->args ? cJSON_GetObjectItemCaseSensitive(c->args, key) : NULL;
}

/* Section - read_text_file */

static bool read_args(ec_tool_call *c, ec_str *path, ec_str *abs, double *head, double *tail) {
  const ec_tool *t = &ec_tool_mcp_read_text_file;
  if (!ec_arg_string(c, t, "path", ARG_REQUIRED, path, NULL)) return false;
  const cJSON *h = arg(c, "head"), *tl = arg(c, "tail");
  if ((h && !cJSON_IsNumber(h) && !cJSON_IsNull(h)) || (tl && !cJSON_IsNumber(tl) && !cJSON_IsNull(tl))) {
    ec_tool_failf(c, t, "INVALID_PARAM", "MCP error -32602: Input validation error: Invalid arguments for tool "
                  "read_text_file: head and tail must be numbers");
    return false;
  }
  *head = cJSON_IsNumber(h) ? h->valuedouble : 0;
  *tail = cJSON_IsNumber(tl) ? tl->valuedouble : 0;
  if (!mcp_path(c, t, *path, abs)) return false;
  /* Tested for truthiness, as the reference does: 0 means not given. */
  if (*head && *tail) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Cannot specify both head and tail parameters simultaneously");
    return false;
  }
  return true;
}

static void read_plan(ec_tool_call *c) {
  ec_str path, abs;
  double head, tail;
  read_args(c, &path, &abs, &head, &tail);
}

static void read_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_read_text_file;
  ec_str path, abs;
  double head, tail;
  if (!read_args(c, &path, &abs, &head, &tail)) return;
  const ec_obs *o;
  if (!mcp_observed(c, t, abs, &o, false, "read") || !ec_tool_decoded(c, t, path, o)) return;
  ec_str s = o->content, out = s;
  if (head) {
    /* The first N pieces of split("\n"), joined with "\n" (no final newline). */
    size_t want = ec_size_of_double(head), pieces = 0, end = 0;
    if (want) {
      end = s.len;
      for (size_t i = 0; i < s.len; i++)
        if (s.ptr[i] == '\n' && ++pieces == want) { end = i; break; }
    }
    out = ec_str_make(s.ptr, end);
  } else if (tail) {
    /* CRLF -> LF, then the last N pieces of split("\n"). */
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(c->a));
    for (size_t i = 0; i < s.len; i++)
      if (!(s.ptr[i] == '\r' && i + 1 < s.len && s.ptr[i + 1] == '\n')) ec_buf_append_char(&b, s.ptr[i]);
    ec_str lf = ec_buf_finish(&b, c->a);
    if (!lf.ptr) { c->oom = true; return; }
    size_t want = ec_size_of_double(tail), pieces = 0, start = lf.len + 1;
    if (want) {
      start = 0;
      for (size_t i = lf.len; i-- > 0;)
        if (lf.ptr[i] == '\n' && ++pieces == want) { start = i + 1; break; }
    }
    out = start > lf.len ? ec_cstr("") : ec_str_make(lf.ptr + start, lf.len - start);
  }
  /* A file that is not UTF-8 is never answered as if it were: its bytes >= 0x80 shown as U+FFFD,
   * after a first line that says so (the reference decodes it silently, U+FFFD and all). */
  ec_str note;
  out = ec_tool_shown(c, o, out, path, &note);
  if (!out.ptr) return;
  if (note.len) out = ec_arena_printf(c->a, "[%.*s]\n%.*s", (int)note.len, note.ptr, (int)out.len, out.ptr);
  if (!out.ptr) { c->oom = true; return; }
  mcp_text(c, out, false);
  c->done = true;
}

const ec_tool ec_tool_mcp_read_text_file = {"mcp/read_text_file", read_plan, read_run, mcp_fail};

/* Section - write_file */

static bool write_args(ec_tool_call *c, ec_str *path, ec_str *abs, ec_str *content) {
  const ec_tool *t = &ec_tool_mcp_write_file;
  return ec_arg_string(c, t, "path", ARG_REQUIRED, path, NULL) && ec_arg_string(c, t, "content", ARG_REQUIRED, content, NULL) &&
         mcp_path(c, t, *path, abs);
}

static void write_plan(ec_tool_call *c) {
  ec_str path, abs, content;
  write_args(c, &path, &abs, &content);
}

static void write_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_write_file;
  ec_str path, abs, content;
  if (!write_args(c, &path, &abs, &content)) return;
  const ec_obs *o;
  if (!mcp_observed(c, t, abs, &o, true, "open")) return;
  if (o->kind == EC_OBS_MISSING && ec_str_eq_cstr(o->message, "parent missing")) {
    ec_tool_failf(c, t, "NOT_FOUND", "ENOENT: no such file or directory, open '%.*s'", (int)abs.len, abs.ptr);
    return;
  }
  ec_str msg = ec_arena_printf(c->a, "Successfully wrote to %.*s", (int)path.len, path.ptr);
  if (!msg.ptr) { c->oom = true; return; }
  mcp_text(c, msg, false);
  ec_tool_write_file(c, abs, content, false);
}

const ec_tool ec_tool_mcp_write_file = {"mcp/write_file", write_plan, write_run, mcp_fail};

/* Section - edit_file */

typedef struct edit_args {
  ec_str path, abs;
  const cJSON *edits;
  bool dry_run;
} edit_args;

static bool edit_args_read(ec_tool_call *c, edit_args *e) {
  const ec_tool *t = &ec_tool_mcp_edit_file;
  memset(e, 0, sizeof *e);
  if (!ec_arg_string(c, t, "path", ARG_REQUIRED, &e->path, NULL)) return false;
  e->edits = arg(c, "edits");
  const char *bad = NULL;
  if (!cJSON_IsArray(e->edits)) bad = "Invalid input: expected array, received undefined at edits";
  else
    for (const cJSON *it = e->edits->child; it && !bad; it = it->next)
      if (!cJSON_IsObject(it) || !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "oldText")) ||
          !cJSON_IsString(cJSON_GetObjectItemCaseSensitive(it, "newText")))
        bad = "Invalid input: each edit needs oldText and newText strings";
  if (bad) {
    ec_tool_failf(c, t, "INVALID_PARAM", "MCP error -32602: Input validation error: Invalid arguments for tool edit_file: %s", bad);
    return false;
  }
  if (!ec_arg_bool(c, t, "dryRun", &e->dry_run)) return false;
  return mcp_path(c, t, e->path, &e->abs);
}

static void edit_plan(ec_tool_call *c) {
  edit_args e;
  edit_args_read(c, &e);
}

/* The engine's unified diff ("--- a/p", "@@ -1 +1 @@") in jsdiff's createTwoFilesPatch form. */
static ec_str jsdiff_form(ec_tool_call *c, ec_str diff, ec_str real) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  ec_buf_printf(&b, "Index: %.*s\n===================================================================\n--- %.*s\toriginal\n+++ %.*s\tmodified\n",
                (int)real.len, real.ptr, (int)real.len, real.ptr, (int)real.len, real.ptr);
  size_t i = 0;
  while (i < diff.len) {
    const char *nl = memchr(diff.ptr + i, '\n', diff.len - i);
    size_t end = nl ? (size_t)(nl - diff.ptr) + 1 : diff.len;
    ec_str line = ec_str_make(diff.ptr + i, end - i);
    i = end;
    if (ec_str_starts_with(line, "--- ") || ec_str_starts_with(line, "+++ ")) continue;
    if (ec_str_starts_with(line, "@@ ")) {
      unsigned long a = 0, an = 1, b2 = 0, bn = 1;
      const char *p = line.ptr + 4;
      char *q;
      a = strtoul(p, &q, 10);
      if (*q == ',') an = strtoul(q + 1, &q, 10);
      while (*q == ' ' || *q == '+') q++;
      b2 = strtoul(q, &q, 10);
      if (*q == ',') bn = strtoul(q + 1, &q, 10);
      ec_buf_printf(&b, "@@ -%lu,%lu +%lu,%lu @@\n", a, an, b2, bn);
      continue;
    }
    /* The reference diffs CRLF-normalised text: show lines without their CR. */
    if (line.len >= 2 && line.ptr[line.len - 1] == '\n' && line.ptr[line.len - 2] == '\r') {
      ec_buf_append(&b, line.ptr, line.len - 2);
      ec_buf_append_char(&b, '\n');
    } else ec_buf_append_str(&b, line);
  }
  ec_str s = ec_buf_finish(&b, c->a);
  if (!s.ptr) c->oom = true;
  return s;
}

static void edit_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_edit_file;
  edit_args e;
  if (!edit_args_read(c, &e)) return;
  const ec_obs *o;
  if (!mcp_observed(c, t, e.abs, &o, false, "read") || !ec_tool_decoded(c, t, e.path, o)) return;
  if (ec_str_has_nul(o->content)) {
    ec_tool_failf(c, t, "BINARY_FILE", "%.*s is a binary file (it holds NUL bytes); edit_file edits text files only.",
                  (int)e.path.len, e.path.ptr);
    return;
  }
  ec_str cur = o->content, single_diff = {0, 0};
  size_t n_edits = (size_t)cJSON_GetArraySize(e.edits), k = 0;
  for (const cJSON *it = e.edits->child; it; it = it->next, k++) {
    ec_str old_s = ec_json_reader_string(c->reader, cJSON_GetObjectItemCaseSensitive(it, "oldText")->valuestring);
    ec_str new_s = ec_json_reader_string(c->reader, cJSON_GetObjectItemCaseSensitive(it, "newText")->valuestring);
    ec_request req;
    ec_file f;
    ec_tool_request_file(&req, EC_FORMAT_REPLACE, &f, ec_cstr("file"), &cur);
    req.edit.old_string = old_s;
    req.edit.new_string = new_s;
    req.edit.has_old_string = req.edit.has_new_string = true;
    /* The reference forgives whitespace at the ends of lines (exact, then line-trimmed): so do
     * these, with editcore's re-indentation and uniqueness; nothing looser. */
    static const ec_strategy LINES[] = {EC_STRATEGY_EXACT, EC_STRATEGY_TRIM_END, EC_STRATEGY_INDENT};
    req.options.strategies = LINES;
    req.options.n_strategies = 3;
    /* With one edit its own diff is the call's (the reference's 4 lines of context, never cut). */
    req.options.diff_context = 4;
    req.options.diff_max_bytes = SIZE_MAX;
    ec_result *r = ec_tool_apply(c, &req);
    if (!r) { c->oom = true; return; }
    if (r->status == EC_STATUS_ERROR || !r->n_files) {
      const ec_error *err = r->n_errors ? &r->errors[0] : NULL;
      const char *code = err ? ec_error_code_name(err->code) : "NO_MATCH";
      if (!old_s.len)
        ec_tool_failf(c, t, "INVALID_PARAM", "Edit %zu of %zu has an empty oldText, which matches nowhere in particular; nothing "
                      "was written. Put the text to replace in oldText (to add text, include the line it goes next to).", k + 1, n_edits);
      else if (err && err->code == EC_AMBIGUOUS) {
        /* Where the reference edits the first place silently, say every place and ask for context. */
        uint32_t lines[16];
        size_t n = ec_tool_exact_places(c, cur, old_s, lines, 16);
        char list[200] = "";
        for (size_t i = 0, w = 0; i < n && i < 16 && w < sizeof list - 16; i++)
          w += (size_t)snprintf(list + w, sizeof list - w, "%s%u", i ? ", " : "", lines[i]);
        if (n >= 2)
          ec_tool_failf(c, t, code, "Edit %zu of %zu matches more than one place (%zu times, at lines %s), so nothing was "
                        "written:\n%.*s\n\nInclude more of the surrounding lines in oldText so that it matches one place only.",
                        k + 1, n_edits, n, list, (int)old_s.len, old_s.ptr);
        else
          ec_tool_failf(c, t, code, "Edit %zu of %zu matches more than one place once whitespace at the ends of lines is "
                        "ignored, so nothing was written:\n%.*s\n\n%.*s", k + 1, n_edits, (int)old_s.len, old_s.ptr,
                        (int)err->message.len, err->message.ptr);
      }
      else if (err && err->code != EC_NO_MATCH)
        ec_tool_failf(c, t, code, "Edit %zu of %zu was not applied, so nothing was written: %.*s", k + 1, n_edits,
                      (int)err->message.len, err->message.ptr);
      else /* the reference's words exactly: clients match on them */
        ec_tool_failf(c, t, code, "Could not find exact match for edit:\n%.*s", (int)old_s.len, old_s.ptr);
      ec_result_free(r);
      return;
    }
    cur = ec_arena_strdup(c->a, r->files[0].content.ptr, r->files[0].content.len);
    if (n_edits == 1) {
      single_diff = ec_arena_strdup(c->a, r->files[0].diff.ptr, r->files[0].diff.len);
      if (!single_diff.ptr) c->oom = true;
    }
    ec_result_free(r);
    if (!cur.ptr) { c->oom = true; return; }
  }
  /* One diff, original to final, in the reference's form (4 lines of context). */
  ec_str diff = single_diff.ptr ? single_diff : ec_cstr("");
  if (!single_diff.ptr && !ec_str_eq(cur, o->content)) {
    ec_request req;
    ec_file f;
    ec_tool_request_file(&req, EC_FORMAT_WHOLE_FILE, &f, ec_cstr("file"), &o->content);
    req.edit.content = cur;
    req.edit.has_content = true;
    req.options.diff_context = 4;
    req.options.diff_max_bytes = SIZE_MAX;
    ec_result *r = ec_tool_apply(c, &req);
    if (!r) { c->oom = true; return; }
    if (r->n_files) diff = ec_arena_strdup(c->a, r->files[0].diff.ptr, r->files[0].diff.len);
    ec_result_free(r);
    if (!diff.ptr) { c->oom = true; return; }
  }
  ec_str real = o->real_path.len ? o->real_path : e.abs;
  ec_str body = jsdiff_form(c, diff, real);
  if (!body.ptr) return;
  /* Fence: the smallest run of >= 3 backticks the diff does not contain. */
  size_t longest = 0, run = 0;
  for (size_t i = 0; i < body.len; i++) {
    run = body.ptr[i] == '`' ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  size_t fence = longest < 3 ? 3 : longest + 1;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  for (size_t i = 0; i < fence; i++) ec_buf_append_char(&b, '`');
  ec_buf_append_cstr(&b, "diff\n");
  ec_buf_append_str(&b, body);
  for (size_t i = 0; i < fence; i++) ec_buf_append_char(&b, '`');
  ec_buf_append_cstr(&b, "\n\n");
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  if (e.dry_run || ec_str_eq(cur, o->content)) { c->done = true; return; }
  ec_tool_write_file(c, e.abs, cur, false);
}

const ec_tool ec_tool_mcp_edit_file = {"mcp/edit_file", edit_plan, edit_run, mcp_fail};

/* Section - list_allowed_directories */

static void list_plan(ec_tool_call *c) {
  ec_str dirs = roots_joined(c, "\n");
  ec_str text = ec_arena_printf(c->a, "Allowed directories:\n%.*s", (int)dirs.len, dirs.ptr ? dirs.ptr : "");
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  c->done = true;
}

static void list_run(ec_tool_call *c) { list_plan(c); }

const ec_tool ec_tool_mcp_list_allowed_directories = {"mcp/list_allowed_directories", list_plan, list_run, mcp_fail};
