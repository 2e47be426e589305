/*
 * The standard tools of SPEC §8.1: Edit (one unique exact replacement in an existing file), and
 * its companions Read and Write, all answering in the standard envelope:
 *
 *   {status, data: {...}, stats: {time_ms, ...}, context: {cwd, params_input, path_resolved},
 *    error: {code, message}}
 *
 * Edit's ten steps run in the SPEC's order: (1) arguments, in plan; (2) the path inside the root,
 * lexically in plan and through symlinks by the host; (3) missing / directory, (4) the optimistic
 * lock, (5) NUL bytes, (6)-(9) the engine (exact unless options.ladder; line endings detected,
 * matched as LF, restored), in run; (10) the write, by the host, its outcome in finish.
 */
#include "tool.h"
#include "../protocol/json_response.h"
#include "../base/num.h"
#include "../base/str.h"
#include "../request/result.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Section - the envelope */

static double elapsed(const ec_tool_call *c) {
  if (!c->t0 || !c->host || !c->host->clock_ms) return 0;
  double t = c->host->clock_ms(c->host->clock_user) - c->t0;
  return t > 0 ? t : 0;
}

static ec_str path_arg(const ec_tool_call *c) {
  const cJSON *p = c->args ? cJSON_GetObjectItemCaseSensitive(c->args, "path") : NULL;
  return cJSON_IsString(p) ? ec_json_reader_string(c->reader, p->valuestring) : ec_cstr("");
}

/* context: cwd, the arguments as received, and the real path when the host resolved one. */
static void write_context(ec_tool_call *c, ec_buf *b) {
  ec_buf_append_cstr(b, ",\"context\":{\"cwd\":");
  ec_jstr(b, ec_tool_cwd(c));
  ec_buf_append_cstr(b, ",\"params_input\":");
  ec_tool_write_json(c, b, c->args);
  ec_buf_append_cstr(b, ",\"path_resolved\":");
  ec_str rel = {0, 0};
  const ec_obs *o = NULL;
  ec_str p = path_arg(c);
  if (ec_tool_path_inside(c, p, &rel)) o = ec_tool_obs(c, rel);
  if (o && o->real_path.len) ec_jstr(b, o->real_path);
  else ec_buf_append_cstr(b, "null");
  ec_buf_append_char(b, '}');
}

static void standard_fail(ec_tool_call *c, const char *code, ec_str message) {
  ec_buf *b = &c->result;
  /* The envelope's codes are SPEC §8.1's: an edit the file's encoding does not allow is one the
   * model must send differently (ASCII text, other lines); the message says why. */
  if (!strcmp(code, "ENCODING")) code = "INVALID_PARAM";
  ec_buf_printf(b, "{\"status\":\"error\",\"data\":{\"applied\":false},\"stats\":{\"time_ms\":%.3f}", elapsed(c));
  write_context(c, b);
  ec_buf_append_cstr(b, ",\"error\":{\"code\":");
  ec_jstr(b, ec_cstr(code));
  ec_buf_append_cstr(b, ",\"message\":");
  ec_jstr(b, message);
  ec_buf_append_cstr(b, "}}");
}

/* Section - shared steps */

/* Step 2 (lexical half) and the read; false when the call is already answered. */
static bool plan_path(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str *rel) {
  if (!path.len) { ec_tool_failf(c, t, "INVALID_PARAM", "Parameter 'path' must not be empty."); return false; }
  if (!ec_tool_path_inside(c, path, rel) || !rel->len) {
    if (c->oom) return false;
    ec_tool_failf(c, t, "ACCESS_DENIED",
                  "Access denied: '%.*s' is outside the working directory. Give a path relative to the working directory, "
                  "without '..' leading out of it.", (int)path.len, path.ptr);
    return false;
  }
  ec_tool_read_path(c, *rel, true);
  return true;
}

/* Steps 2 (symlink half, by the host) and 3; the observation of a readable file, or NULL. */
static const ec_obs *observed_file(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str rel, bool missing_ok) {
  const ec_obs *o = ec_tool_obs(c, rel);
  if (o->kind == EC_OBS_REFUSED) {
    const char *code = ec_str_eq_cstr(o->code, "ACCESS_DENIED") ? "ACCESS_DENIED"
                       : ec_str_eq_cstr(o->code, "PERMISSION_DENIED") ? "PERMISSION_DENIED" : "EXECUTION_ERROR";
    if (!strcmp(code, "ACCESS_DENIED"))
      ec_tool_failf(c, t, code, "Access denied: '%.*s' leads outside the working directory (through a symbolic link). "
                    "Only files inside it can be read or changed.", (int)path.len, path.ptr);
    else
      ec_tool_failf(c, t, code, "Could not read '%.*s'%s%.*s. Nothing was changed.", (int)path.len, path.ptr,
                    o->message.len ? ": " : "", (int)o->message.len, o->message.ptr);
    return NULL;
  }
  if (o->kind == EC_OBS_MISSING) {
    if (missing_ok) return o;
    ec_tool_failf(c, t, "NOT_FOUND", "File not found: '%.*s'. Check the path (relative to the working directory)%s.",
                  (int)path.len, path.ptr, !strcmp(t->id, "Edit") ? "; Edit changes existing files only, Write creates them" : "");
    return NULL;
  }
  if (o->kind == EC_OBS_DIRECTORY) {
    ec_tool_failf(c, t, "IS_DIRECTORY", "'%.*s' is a directory, not a file. Give the path of a file inside it.",
                  (int)path.len, path.ptr);
    return NULL;
  }
  return o;
}

/* Step 4: the optimistic lock. */
static bool lock_holds(ec_tool_call *c, const ec_tool *t, ec_str path, const ec_obs *o, bool has_mtime, int64_t mtime,
                       bool has_size, int64_t size) {
  if (!has_mtime && !has_size) return true;
  if (o->kind == EC_OBS_MISSING) {
    ec_tool_failf(c, t, "CONFLICT", "'%.*s' no longer exists, but expected_%s was given: it was deleted or moved since "
                  "you read it. Check the path and read the file again.", (int)path.len, path.ptr,
                  has_mtime ? "mtime_ms" : "size_bytes");
    return false;
  }
  bool mtime_differs = has_mtime && (o->mtime_ms < 0 || ec_i64_of_double(floor(o->mtime_ms)) != mtime);
  bool size_differs = has_size && (o->size < 0 || ec_i64_of_double(o->size) != size);
  if (!mtime_differs && !size_differs) return true;
  char detail[160];
  if (mtime_differs)
    snprintf(detail, sizeof detail, "its modification time is %lld ms, not %lld", (long long)ec_i64_of_double(floor(o->mtime_ms)), (long long)mtime);
  else
    snprintf(detail, sizeof detail, "its size is %lld bytes, not %lld", (long long)ec_i64_of_double(o->size), (long long)size);
  ec_tool_failf(c, t, "CONFLICT", "'%.*s' changed since you read it (%s). Nothing was changed. Read the file again and "
                "apply the change again to what it holds now.", (int)path.len, path.ptr, detail);
  return false;
}

/* Step 5. */
static bool is_text(ec_tool_call *c, const ec_tool *t, ec_str path, const ec_obs *o) {
  if (!ec_tool_decoded(c, t, path, o)) return false;
  if (!ec_str_has_nul(o->content)) return true;
  ec_tool_failf(c, t, "BINARY_FILE", "'%.*s' is a binary file (it holds NUL bytes); it cannot be read or edited as text.",
                (int)path.len, path.ptr);
  return false;
}

typedef struct lock_args {
  int64_t mtime, size;
  bool has_mtime, has_size;
} lock_args;

static bool plan_lock_args(ec_tool_call *c, const ec_tool *t, lock_args *l) {
  return ec_arg_int(c, t, "expected_mtime_ms", ARG_OPTIONAL, 0, (int64_t)9e15, &l->mtime, &l->has_mtime) &&
         ec_arg_int(c, t, "expected_size_bytes", ARG_OPTIONAL, 0, (int64_t)9e15, &l->size, &l->has_size);
}

/* Section - Edit */

extern const ec_tool ec_tool_std_edit, ec_tool_std_read, ec_tool_std_write;

typedef struct edit_args {
  ec_str path, rel, old_s, new_s;
  lock_args lock;
  bool dry_run;
} edit_args;

static bool edit_args_read(ec_tool_call *c, edit_args *e) {
  const ec_tool *t = &ec_tool_std_edit;
  static const char *const KNOWN[] = {"path", "old_string", "new_string", "expected_mtime_ms", "expected_size_bytes", "dry_run", NULL};
  memset(e, 0, sizeof *e);
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "path", ARG_REQUIRED, &e->path, NULL) &&
         ec_arg_string(c, t, "old_string", ARG_REQUIRED, &e->old_s, NULL) &&
         ec_arg_string(c, t, "new_string", ARG_REQUIRED, &e->new_s, NULL) && plan_lock_args(c, t, &e->lock) &&
         ec_arg_bool(c, t, "dry_run", &e->dry_run) && plan_path(c, t, e->path, &e->rel);
}

static void edit_plan(ec_tool_call *c) {
  edit_args e;
  edit_args_read(c, &e);
}

static void edit_refusal(ec_tool_call *c, const edit_args *e, const ec_error *err, ec_str content) {
  const ec_tool *t = &ec_tool_std_edit;
  if (err->code == EC_AMBIGUOUS && !c->ladder) {
    uint32_t lines[12];
    size_t n = ec_tool_exact_places(c, content, e->old_s, lines, 12);
    char list[160] = "";
    size_t w = 0;
    for (size_t i = 0; i < n && i < 12 && w < sizeof list - 16; i++)
      w += (size_t)snprintf(list + w, sizeof list - w, "%s%u", i ? ", " : "", lines[i]);
    if (n > 12) snprintf(list + w, sizeof list - w, ", ...");
    ec_tool_failf(c, t, "INVALID_PARAM", "old_string occurs %zu times in '%.*s' (lines %s); it must occur exactly once. "
                  "Nothing was changed. Add 2-5 lines of the surrounding context to old_string (and the same lines to "
                  "new_string) so that it matches one place only.", n, (int)e->path.len, e->path.ptr, list);
    return;
  }
  if (err->code == EC_NO_MATCH && !c->ladder) {
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(c->a));
    ec_buf_printf(&b, "old_string was not found in '%.*s' (it must match exactly, whitespace and indentation included). "
                  "Nothing was changed. Read the file again and copy old_string exactly from what it holds now, without "
                  "line numbers and without escaping newlines.", (int)e->path.len, e->path.ptr);
    if (err->n_candidates) {
      const ec_candidate *k = &err->candidates[0];
      ec_buf_printf(&b, " The most similar text is at line%s %u%s%.0u:\n%.*s", k->end_line > k->start_line ? "s" : "",
                    k->start_line, k->end_line > k->start_line ? "-" : "", k->end_line > k->start_line ? k->end_line : 0,
                    (int)(k->text.len > 2000 ? 2000 : k->text.len), k->text.ptr);
    }
    ec_str m = ec_buf_finish(&b, c->a);
    ec_tool_failf(c, t, "INVALID_PARAM", "%.*s", (int)m.len, m.ptr ? m.ptr : "");
    return;
  }
  const char *code = err->code == EC_BINARY_FILE ? "BINARY_FILE"
                     : err->code == EC_NO_MATCH || err->code == EC_AMBIGUOUS || err->code == EC_NOOP ||
                               err->code == EC_INVALID_PARAM || err->code == EC_COUNT_MISMATCH || err->code == EC_SYNTAX_ERROR ||
                               err->code == EC_ENCODING
                         ? "INVALID_PARAM"
                         : "EXECUTION_ERROR";
  ec_tool_failf(c, t, code, "%.*s", (int)err->message.len, err->message.ptr);
}

static void edit_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_std_edit;
  edit_args e;
  if (!edit_args_read(c, &e)) return;
  const ec_obs *o = observed_file(c, t, e.path, e.rel, false);
  if (!o || !lock_holds(c, t, e.path, o, e.lock.has_mtime, e.lock.mtime, e.lock.has_size, e.lock.size) ||
      !is_text(c, t, e.path, o))
    return;
  if (!e.old_s.len) {
    ec_tool_failf(c, t, "INVALID_PARAM", "old_string is empty. Edit replaces one existing snippet: copy it from the file "
                  "(with 2-5 lines of context to make it unique). To create or overwrite a whole file, use Write.");
    return;
  }
  ec_request req;
  ec_file f;
  ec_tool_request_file(&req, EC_FORMAT_REPLACE, &f, e.rel, &o->content);
  req.edit.old_string = e.old_s;
  req.edit.new_string = e.new_s;
  req.edit.has_old_string = req.edit.has_new_string = true;
  static const ec_strategy EXACT[] = {EC_STRATEGY_EXACT};
  if (!c->ladder) { req.options.strategies = EXACT; req.options.n_strategies = 1; }
  if (c->diff_max_bytes) req.options.diff_max_bytes = c->diff_max_bytes;
  ec_result *r = ec_tool_apply(c, &req);
  if (!r) { c->oom = true; return; }
  if (r->status == EC_STATUS_ERROR || !r->n_files) {
    if (r->n_errors) edit_refusal(c, &e, &r->errors[0], o->content);
    else ec_tool_failf(c, t, "EXECUTION_ERROR", "the edit could not be applied");
    ec_result_free(r);
    return;
  }
  const ec_file_result *fr = &r->files[0];
  bool dry = e.dry_run || c->dry_run;
  ec_str content = ec_arena_strdup(c->a, fr->content.ptr, fr->content.len);
  if (!content.ptr) { c->oom = true; ec_result_free(r); return; }
  c->status = dry || fr->diff_truncated ? EC_TOOL_PARTIAL : EC_TOOL_SUCCESS;
  ec_buf *b = &c->result;
  ec_buf_printf(b, "{\"status\":\"%s\",\"data\":{\"applied\":%s,\"diff_preview\":", c->status == EC_TOOL_SUCCESS ? "success" : "partial",
                dry ? "false" : "true");
  ec_jstr(b, fr->diff);
  ec_buf_printf(b, ",\"diff_truncated\":%s,\"replacements\":%u", fr->diff_truncated ? "true" : "false", fr->replacements);
  if (c->ladder && fr->n_matches) ec_buf_printf(b, ",\"strategy\":\"%s\"", ec_strategy_name(fr->matches[0].strategy));
  if (fr->syntax && fr->syntax->checked) {
    ec_buf_append_cstr(b, ",\"syntax\":"); /* the file's syntax before and after (docs/syntax.md) */
    ec_json_write_syntax(b, fr->syntax);
  }
  ec_buf_printf(b, "},\"stats\":{\"time_ms\":%.3f,\"bytes_written\":%zu,\"lines_added\":%u,\"lines_removed\":%u}", elapsed(c),
                dry ? (size_t)0 : content.len, fr->lines_added, fr->lines_removed);
  write_context(c, b);
  ec_buf_append_char(b, '}');
  ec_result_free(r);
  if (dry) { c->done = true; return; }
  ec_tool_write_file(c, e.rel, content, false);
}

const ec_tool ec_tool_std_edit = {"Edit", edit_plan, edit_run, standard_fail};

/* Section - Read */

typedef struct read_args {
  ec_str path, rel;
  int64_t offset, limit;
  bool has_offset, has_limit;
} read_args;

static bool read_args_read(ec_tool_call *c, read_args *r) {
  const ec_tool *t = &ec_tool_std_read;
  static const char *const KNOWN[] = {"path", "offset", "limit", NULL};
  memset(r, 0, sizeof *r);
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "path", ARG_REQUIRED, &r->path, NULL) &&
         ec_arg_int(c, t, "offset", ARG_OPTIONAL, 1, (int64_t)4e9, &r->offset, &r->has_offset) &&
         ec_arg_int(c, t, "limit", ARG_OPTIONAL, 1, (int64_t)4e9, &r->limit, &r->has_limit) &&
         plan_path(c, t, r->path, &r->rel);
}

static void read_plan(ec_tool_call *c) {
  read_args r;
  read_args_read(c, &r);
}

static void read_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_std_read;
  read_args r;
  if (!read_args_read(c, &r)) return;
  const ec_obs *o = observed_file(c, t, r.path, r.rel, false);
  if (!o || !is_text(c, t, r.path, o)) return;
  ec_str s = o->content;
  size_t total = ec_tool_line_count(s);
  size_t first = r.has_offset ? (size_t)r.offset : 1, count = r.has_limit ? (size_t)r.limit : total;
  /* Byte range of lines [first, first + count). */
  size_t from = s.len, to = s.len, line = 1;
  if (first <= 1) from = 0;
  for (size_t i = 0; i < s.len && (from == s.len || to == s.len); i++) {
    if (s.ptr[i] != '\n') continue;
    line++;
    if (line == first) from = i + 1;
    if (line == first + count) { to = i + 1; break; }
  }
  if (first > total && total) {
    ec_tool_failf(c, t, "INVALID_PARAM", "offset %zu is past the end of '%.*s', which has %zu lines.", first,
                  (int)r.path.len, r.path.ptr, total);
    return;
  }
  if (from > to) from = to;
  size_t last = first + count - 1 < total ? first + count - 1 : total;
  ec_str note;
  ec_str shown = ec_tool_shown(c, o, ec_str_make(s.ptr + from, to - from), r.path, &note);
  if (!shown.ptr) return;
  ec_buf *b = &c->result;
  ec_buf_append_cstr(b, "{\"status\":\"success\",\"data\":{\"content\":");
  ec_jstr(b, shown);
  ec_buf_printf(b, ",\"start_line\":%zu,\"end_line\":%zu,\"total_lines\":%zu,\"truncated\":%s", total ? first : 0, last,
                total, last < total ? "true" : "false");
  /* What the content is, when it is not the file's UTF-8 bytes as they are. */
  if (note.len) {
    ec_buf_append_cstr(b, ",\"encoding\":\"unknown (not UTF-8)\",\"note\":");
    ec_jstr(b, note);
  } else if (o->enc.utf16 != EC_UTF16_NONE) ec_buf_printf(b, ",\"encoding\":\"%s\"", ec_encoding_name(&o->enc));
  ec_buf_append_char(b, '}');
  ec_buf_printf(b, ",\"stats\":{\"time_ms\":%.3f,\"file_mtime_ms\":", elapsed(c));
  ec_jnum(b, o->mtime_ms >= 0 ? floor(o->mtime_ms) : NAN);
  ec_buf_append_cstr(b, ",\"file_size_bytes\":");
  ec_jnum(b, o->size >= 0 ? o->size : NAN);
  ec_buf_append_char(b, '}');
  write_context(c, b);
  ec_buf_append_char(b, '}');
  c->done = true;
}

const ec_tool ec_tool_std_read = {"Read", read_plan, read_run, standard_fail};

/* Section - Write */

typedef struct write_args {
  ec_str path, rel, content;
  lock_args lock;
  bool dry_run;
} write_args;

static bool write_args_read(ec_tool_call *c, write_args *w) {
  const ec_tool *t = &ec_tool_std_write;
  static const char *const KNOWN[] = {"path", "content", "expected_mtime_ms", "expected_size_bytes", "dry_run", NULL};
  memset(w, 0, sizeof *w);
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "path", ARG_REQUIRED, &w->path, NULL) &&
         ec_arg_string(c, t, "content", ARG_REQUIRED, &w->content, NULL) && plan_lock_args(c, t, &w->lock) &&
         ec_arg_bool(c, t, "dry_run", &w->dry_run) && plan_path(c, t, w->path, &w->rel);
}

static void write_plan(ec_tool_call *c) {
  write_args w;
  write_args_read(c, &w);
}

static void write_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_std_write;
  write_args w;
  if (!write_args_read(c, &w)) return;
  const ec_obs *o = observed_file(c, t, w.path, w.rel, true);
  if (!o || !lock_holds(c, t, w.path, o, w.lock.has_mtime, w.lock.mtime, w.lock.has_size, w.lock.size)) return;
  bool exists = o->kind == EC_OBS_FILE;
  if (exists && !is_text(c, t, w.path, o)) return;
  bool dry = w.dry_run || c->dry_run;
  ec_str diff = ec_cstr(""), content = w.content;
  bool truncated = false;
  uint32_t added = 0, removed = 0;
  if (!exists || !ec_str_eq(o->content, w.content)) {
    ec_request req;
    ec_file f;
    ec_tool_request_file(&req, EC_FORMAT_WHOLE_FILE, &f, w.rel, exists ? &o->content : NULL);
    req.edit.content = w.content;
    req.edit.has_content = true;
    if (c->diff_max_bytes) req.options.diff_max_bytes = c->diff_max_bytes;
    ec_result *r = ec_tool_apply(c, &req);
    if (!r) { c->oom = true; return; }
    if (r->status == EC_STATUS_ERROR || !r->n_files) {
      const ec_error *err = r->n_errors ? &r->errors[0] : NULL;
      ec_error_code code = err ? err->code : EC_IO_ERROR;
      if (code == EC_NOOP) { ec_result_free(r); goto unchanged; } /* identical once line endings are the file's */
      ec_tool_failf(c, t, code == EC_BINARY_FILE ? "BINARY_FILE" : code == EC_IO_ERROR || code == EC_TOO_LARGE ? "EXECUTION_ERROR" : "INVALID_PARAM",
                    "%.*s", err ? (int)err->message.len : 0, err ? err->message.ptr : "");
      ec_result_free(r);
      return;
    }
    const ec_file_result *fr = &r->files[0];
    diff = ec_arena_strdup(c->a, fr->diff.ptr, fr->diff.len);
    content = ec_arena_strdup(c->a, fr->content.ptr, fr->content.len);
    truncated = fr->diff_truncated;
    added = fr->lines_added;
    removed = fr->lines_removed;
    ec_result_free(r);
    if (!diff.ptr || !content.ptr) { c->oom = true; return; }
  } else {
  unchanged:
    dry = true; /* nothing to write: the file already holds this content */
  }
  bool same = exists && ec_str_eq(content, o->content);
  if (same) dry = true;
  c->status = (dry && !same) || truncated ? EC_TOOL_PARTIAL : EC_TOOL_SUCCESS;
  ec_buf *b = &c->result;
  ec_buf_printf(b, "{\"status\":\"%s\",\"data\":{\"applied\":%s,\"created\":%s,\"diff_preview\":",
                c->status == EC_TOOL_SUCCESS ? "success" : "partial", dry ? "false" : "true", exists ? "false" : "true");
  ec_jstr(b, diff);
  ec_buf_printf(b, ",\"diff_truncated\":%s},\"stats\":{\"time_ms\":%.3f,\"bytes_written\":%zu,\"lines_added\":%u,\"lines_removed\":%u}",
                truncated ? "true" : "false", elapsed(c), dry ? (size_t)0 : content.len, added, removed);
  write_context(c, b);
  ec_buf_append_char(b, '}');
  if (dry) { c->done = true; return; }
  ec_tool_write_file(c, w.rel, content, true);
}

const ec_tool ec_tool_std_write = {"Write", write_plan, write_run, standard_fail};
