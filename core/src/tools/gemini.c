/*
 * Gemini CLI's file tools: `replace` (file_path, instruction, old_string, new_string,
 * allow_multiple) and `write_file` (file_path, content), answered as Gemini's ToolResult
 * {llmContent, returnDisplay, error?: {message, type}}. Matching is the `gemini` profile of the
 * engine (exact, then Gemini's flexible and token-regex steps, as Gemini CLI itself does).
 */
#include "tool.h"
#include "../base/str.h"
#include "../request/result.h"
#include <stdio.h>
#include <string.h>

extern const ec_tool ec_tool_gemini_replace, ec_tool_gemini_write_file;

static const char *error_type(const char *code) {
  if (!strcmp(code, "NO_MATCH")) return "edit_no_occurrence_found";
  if (!strcmp(code, "AMBIGUOUS") || !strcmp(code, "COUNT_MISMATCH")) return "edit_expected_occurrence_mismatch";
  if (!strcmp(code, "NOOP")) return "edit_no_change";
  if (!strcmp(code, "FILE_EXISTS")) return "edit_file_exists";
  if (!strcmp(code, "NOT_FOUND")) return "file_not_found";
  if (!strcmp(code, "ACCESS_DENIED")) return "path_not_in_workspace";
  if (!strcmp(code, "INVALID_PARAM") || !strcmp(code, "ENCODING")) return "invalid_tool_params";
  return "execution_failed";
}

static void gemini_fail(ec_tool_call *c, const char *code, ec_str message) {
  ec_buf *b = &c->result;
  ec_buf_append_cstr(b, "{\"llmContent\":");
  ec_jstr(b, message);
  ec_buf_append_cstr(b, ",\"returnDisplay\":");
  ec_jstr(b, message);
  ec_buf_printf(b, ",\"error\":{\"message\":");
  ec_jstr(b, message);
  ec_buf_printf(b, ",\"type\":\"%s\"}}", error_type(code));
}

static void gemini_ok(ec_tool_call *c, ec_str llm, ec_str display) {
  ec_buf *b = &c->result;
  ec_buf_append_cstr(b, "{\"llmContent\":");
  ec_jstr(b, llm);
  ec_buf_append_cstr(b, ",\"returnDisplay\":");
  ec_jstr(b, display);
  ec_buf_append_char(b, '}');
}

static bool gemini_path(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str *rel) {
  if (!path.len) { ec_tool_failf(c, t, "INVALID_PARAM", "The 'file_path' parameter must be non-empty."); return false; }
  if (!ec_tool_path_inside(c, path, rel) || !rel->len) {
    if (!c->oom)
      ec_tool_failf(c, t, "ACCESS_DENIED", "File path must be within one of the workspace directories: %.*s", (int)c->root.len,
                    c->root.ptr);
    return false;
  }
  ec_tool_read_path(c, *rel, true);
  return true;
}

static bool refused(ec_tool_call *c, const ec_tool *t, const ec_obs *o, ec_str path) {
  if (o->kind == EC_OBS_REFUSED) {
    bool acc = ec_str_eq_cstr(o->code, "ACCESS_DENIED");
    ec_tool_failf(c, t, acc ? "ACCESS_DENIED" : "IO_ERROR", acc ? "File path must be within one of the workspace directories: %.*s"
                  : "Error accessing file %.*s", (int)(acc ? c->root.len : path.len), acc ? c->root.ptr : path.ptr);
    return true;
  }
  if (o->kind == EC_OBS_DIRECTORY) {
    ec_tool_failf(c, t, "IS_DIRECTORY", "Path is a directory, not a file: %.*s", (int)path.len, path.ptr);
    return true;
  }
  return false;
}

/* Section - replace */

typedef struct rep_args {
  ec_str path, rel, old_s, new_s, instruction;
  bool allow_multiple;
} rep_args;

static bool rep_read(ec_tool_call *c, rep_args *r) {
  const ec_tool *t = &ec_tool_gemini_replace;
  static const char *const KNOWN[] = {"file_path", "instruction", "old_string", "new_string", "allow_multiple",
                                      "expected_replacements", NULL};
  memset(r, 0, sizeof *r);
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "file_path", ARG_REQUIRED, &r->path, NULL) &&
         ec_arg_string(c, t, "instruction", ARG_OPTIONAL, &r->instruction, NULL) &&
         ec_arg_string(c, t, "old_string", ARG_REQUIRED, &r->old_s, NULL) &&
         ec_arg_string(c, t, "new_string", ARG_REQUIRED, &r->new_s, NULL) &&
         ec_arg_bool(c, t, "allow_multiple", &r->allow_multiple) && gemini_path(c, t, r->path, &r->rel);
}

static void rep_plan(ec_tool_call *c) {
  rep_args r;
  rep_read(c, &r);
}

static void rep_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_gemini_replace;
  rep_args r;
  if (!rep_read(c, &r)) return;
  const ec_obs *o = ec_tool_obs(c, r.rel);
  if (refused(c, t, o, r.path)) return;
  bool exists = o->kind == EC_OBS_FILE;
  if (!exists && r.old_s.len) {
    ec_tool_failf(c, t, "NOT_FOUND", "File not found. Cannot apply edit. Use an empty old_string to create a new file.");
    return;
  }
  if (exists && !r.old_s.len) {
    ec_tool_failf(c, t, "FILE_EXISTS", "Failed to edit. Attempted to create a file that already exists.");
    return;
  }
  ec_request req;
  ec_file f;
  ec_tool_request_file(&req, EC_FORMAT_REPLACE, &f, r.rel, exists ? &o->content : NULL);
  req.profile = EC_PROFILE_GEMINI;
  req.edit.old_string = r.old_s;
  req.edit.new_string = r.new_s;
  req.edit.instruction = r.instruction;
  req.edit.has_old_string = req.edit.has_new_string = true;
  req.edit.replace_all = r.allow_multiple;
  ec_result *res = ec_tool_apply(c, &req);
  if (!res) { c->oom = true; return; }
  if (res->status == EC_STATUS_ERROR || !res->n_files) {
    const ec_error *err = res->n_errors ? &res->errors[0] : NULL;
    const char *code = err ? ec_error_code_name(err->code) : "NO_MATCH";
    if (err && err->code == EC_NO_MATCH)
      ec_tool_failf(c, t, code, "Failed to edit, 0 occurrences found for old_string in %.*s. Ensure you're not escaping content "
                    "incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.",
                    (int)r.path.len, r.path.ptr);
    else if (err && (err->code == EC_AMBIGUOUS || err->code == EC_COUNT_MISMATCH)) {
      uint32_t lines[1];
      size_t n = ec_tool_exact_places(c, o->content, r.old_s, lines, 1);
      ec_tool_failf(c, t, code, "Failed to edit, expected 1 occurrence but found %zu for old_string in file: %.*s. Set "
                    "allow_multiple to replace every occurrence, or add context to old_string.", n, (int)r.path.len, r.path.ptr);
    } else if (err && err->code == EC_NOOP)
      ec_tool_failf(c, t, code, "No changes to apply. The old_string and new_string are identical in file: %.*s",
                    (int)r.path.len, r.path.ptr);
    else
      ec_tool_failf(c, t, code, "Failed to edit %.*s: %.*s", (int)r.path.len, r.path.ptr, err ? (int)err->message.len : 0,
                    err ? err->message.ptr : "");
    ec_result_free(res);
    return;
  }
  const ec_file_result *fr = &res->files[0];
  ec_str content = ec_arena_strdup(c->a, fr->content.ptr, fr->content.len);
  ec_str diff = ec_arena_strdup(c->a, fr->diff.ptr, fr->diff.len);
  uint32_t n = fr->replacements;
  ec_str note = ec_tool_syntax_note(c, fr);
  ec_result_free(res);
  if (!content.ptr || !diff.ptr) { c->oom = true; return; }
  ec_str llm = exists ? ec_arena_printf(c->a, "Successfully modified file: %.*s (%u replacements).%.*s", (int)r.path.len, r.path.ptr, n,
                                       (int)note.len, note.ptr ? note.ptr : "")
                      : ec_arena_printf(c->a, "Created new file: %.*s with provided content.%.*s", (int)r.path.len, r.path.ptr,
                                        (int)note.len, note.ptr ? note.ptr : "");
  if (!llm.ptr) { c->oom = true; return; }
  gemini_ok(c, llm, diff);
  ec_tool_write_file(c, r.rel, content, true);
}

const ec_tool ec_tool_gemini_replace = {"gemini/replace", rep_plan, rep_run, gemini_fail};

/* Section - write_file */

static bool wf_read(ec_tool_call *c, ec_str *path, ec_str *rel, ec_str *content) {
  const ec_tool *t = &ec_tool_gemini_write_file;
  static const char *const KNOWN[] = {"file_path", "content", NULL};
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "file_path", ARG_REQUIRED, path, NULL) &&
         ec_arg_string(c, t, "content", ARG_REQUIRED, content, NULL) && gemini_path(c, t, *path, rel);
}

static void wf_plan(ec_tool_call *c) {
  ec_str p, r, k;
  wf_read(c, &p, &r, &k);
}

static void wf_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_gemini_write_file;
  ec_str path, rel, content;
  if (!wf_read(c, &path, &rel, &content)) return;
  const ec_obs *o = ec_tool_obs(c, rel);
  if (refused(c, t, o, path)) return;
  bool exists = o->kind == EC_OBS_FILE;
  ec_str llm = exists ? ec_arena_printf(c->a, "Successfully overwrote file: %.*s.", (int)path.len, path.ptr)
                      : ec_arena_printf(c->a, "Successfully created and wrote to new file: %.*s.", (int)path.len, path.ptr);
  if (!llm.ptr) { c->oom = true; return; }
  gemini_ok(c, llm, llm);
  ec_tool_write_file(c, rel, content, true);
}

const ec_tool ec_tool_gemini_write_file = {"gemini/write_file", wf_plan, wf_run, gemini_fail};
