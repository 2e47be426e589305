/*
 * editcore-mcp's own apply_edit: a model's whole reply in any edit dialect (SEARCH/REPLACE
 * blocks, unified diffs, Codex patches, whole files in fences; the `reply` format, docs/reply.md)
 * applied to the files it names, all of them or none. Paths follow the MCP tools' rule: relative
 * to the allowed directories (the first that holds them), or absolute inside one of them.
 * Answers a CallToolResult: the engine's summary and the diffs, or "CODE: message" as isError.
 */
#include "mcp_common.h"
#include "../base/str.h"
#include "../request/result.h"
#include <stdio.h>
#include <string.h>

extern const ec_tool ec_tool_mcp_apply_edit;

static const mcp_field APPLY_FIELDS[] = {{"text", MCP_STRING, true, 0, NULL}, {"dryRun", MCP_BOOLEAN, false, 0, NULL}, {0}};

static void apply_fail(ec_tool_call *c, const char *code, ec_str message) {
  ec_str text = ec_arena_printf(c->a, "%s: %.*s", code, (int)message.len, message.ptr ? message.ptr : "");
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, true);
}

/* The files the reply names (parse_only), each resolved; NULL after answering. */
static ec_result *named(ec_tool_call *c, ec_str text, ec_str **abs_out) {
  const ec_tool *t = &ec_tool_mcp_apply_edit;
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLY);
  req.edit.text = text;
  req.edit.parse_only = true;
  ec_result *r = ec_apply(&req, c->host);
  if (!r) { c->oom = true; return NULL; }
  ec_str *abs = ec_arena_calloc(c->a, r->n_paths + 1, sizeof *abs);
  if (!abs) { c->oom = true; ec_result_free(r); return NULL; }
  for (size_t i = 0; i < r->n_paths; i++) {
    if (ec_tool_resolve_in_roots(c, r->paths[i], &abs[i])) continue;
    if (!c->oom) {
      ec_str dirs = mcp_roots_joined(c, ", ");
      ec_tool_failf(c, t, "ACCESS_DENIED", "Access denied - path outside allowed directories: %.*s not in %.*s; nothing was changed",
                    (int)abs[i].len, abs[i].ptr, (int)dirs.len, dirs.ptr);
    }
    ec_result_free(r);
    return NULL;
  }
  *abs_out = abs;
  return r;
}

static void apply_plan(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_apply_edit;
  if (!mcp_check_args(c, t, APPLY_FIELDS)) return;
  ec_str *abs;
  ec_result *r = named(c, mcp_arg_str(c, "text"), &abs);
  if (!r) return;
  for (size_t i = 0; i < r->n_paths; i++) ec_tool_read_path(c, abs[i], true);
  ec_result_free(r);
}

/* The resolved path of a name the reply uses (as parse_only listed it). */
static ec_str abs_of(const ec_result *names, const ec_str *abs, ec_str name) {
  for (size_t i = 0; i < names->n_paths; i++)
    if (ec_str_eq(names->paths[i], name)) return abs[i];
  return ec_str_make(NULL, 0);
}

static void apply_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_apply_edit;
  if (!mcp_check_args(c, t, APPLY_FIELDS)) return;
  ec_str text = mcp_arg_str(c, "text"), *abs;
  ec_result *names = named(c, text, &abs);
  if (!names) return;
  ec_file *files = ec_arena_calloc(c->a, names->n_paths + 1, sizeof *files);
  size_t n = 0;
  if (!files) { c->oom = true; ec_result_free(names); return; }
  for (size_t i = 0; i < names->n_paths; i++) {
    const ec_obs *o = ec_tool_obs(c, abs[i]);
    ec_str why = mcp_obs_problem(c, o, abs[i], NULL, "read");
    if (why.ptr) {
      ec_tool_failf(c, t, o && o->kind == EC_OBS_DIRECTORY ? "IS_DIRECTORY" : o && ec_str_eq_cstr(o->code, "ACCESS_DENIED") ? "ACCESS_DENIED" : "IO_ERROR",
                    "%.*s; nothing was changed", (int)why.len, why.ptr);
      ec_result_free(names);
      return;
    }
    if (o && o->kind == EC_OBS_FILE) {
      if (ec_str_has_nul(o->content)) {
        ec_tool_failf(c, t, "BINARY_FILE", "'%.*s' holds NUL bytes: a binary file is not edited; nothing was changed",
                      (int)names->paths[i].len, names->paths[i].ptr);
        ec_result_free(names);
        return;
      }
      ec_file f = {names->paths[i], o->content};
      files[n++] = f;
    }
  }
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLY);
  req.edit.text = text;
  req.files = files;
  req.n_files = n;
  ec_result *r = ec_apply(&req, c->host);
  if (!r) { c->oom = true; ec_result_free(names); return; }
  if (r->status == EC_STATUS_ERROR) {
    const ec_error *e = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, e ? ec_error_code_name(e->code) : "INVALID_REPLY", "%.*s", e ? (int)e->message.len : 0, e ? e->message.ptr : "");
  } else {
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(c->a));
    ec_buf_append_str(&b, r->text);
    ec_buf_append_cstr(&b, "\n\n");
    for (size_t i = 0; i < r->n_files; i++) ec_buf_append_str(&b, r->files[i].diff);
    ec_str answer = ec_buf_finish(&b, c->a);
    if (!answer.ptr) c->oom = true;
    else {
      mcp_text(c, answer, false);
      bool dry = cJSON_IsTrue(mcp_arg(c, "dryRun"));
      for (size_t i = 0; i < r->n_files && !dry && !c->oom; i++) {
        const ec_file_result *f = &r->files[i];
        ec_str at = abs_of(names, abs, f->path), to = f->action == EC_ACTION_MOVE ? abs_of(names, abs, f->moved_to) : at;
        if (!at.ptr || !to.ptr) continue; /* parse_only names every file the apply touches */
        if (f->action == EC_ACTION_DELETE) { ec_tool_delete_file(c, at); continue; }
        ec_str content = ec_arena_strdup(c->a, f->content.ptr, f->content.len);
        if (!content.ptr) { c->oom = true; break; }
        ec_tool_write_file(c, to, content, f->action != EC_ACTION_UPDATE);
        if (f->action == EC_ACTION_MOVE) ec_tool_delete_file(c, at);
      }
      if (dry || !c->n_writes) c->done = true;
    }
  }
  ec_result_free(r);
  ec_result_free(names);
}

const ec_tool ec_tool_mcp_apply_edit = {"mcp/apply_edit", apply_plan, apply_run, apply_fail, false};
