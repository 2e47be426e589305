/*
 * The patch- and block-shaped peer tools, each over the engine format its peer writes:
 *   codex/apply_patch     Codex CLI: {input: "*** Begin Patch ... *** End Patch"} (codex_patch, codex profile);
 *                         answered {content, is_error} with Codex's "Success. Updated the following files:" list
 *   openai/apply_patch    OpenAI Responses built-in tool: one operation {type: create_file | update_file |
 *                         delete_file, path, diff} (a V4A per-file diff, no *** Begin Patch envelope);
 *                         answered {status: "completed" | "failed", output}
 *   cline/replace_in_file Cline: {path, diff} SEARCH/REPLACE blocks (search_replace, cline profile)
 *   cline/write_to_file   Cline: {path, content}
 *   cline/editor          Cline's newer editor: {path, old_text?, new_text, insert_line?}: replace the one
 *                         occurrence of old_text, or insert new_text *before* line insert_line (1-based)
 *   lazy/edit_file        Cursor/Morph style: {target_file, instructions, code_edit} (the lazy format);
 *                         a decline asks for a fuller snippet
 */
#include "tool.h"
#include "../base/str.h"
#include "../request/result.h"
#include <stdio.h>
#include <string.h>

extern const ec_tool ec_tool_codex_apply_patch, ec_tool_openai_apply_patch, ec_tool_cline_replace_in_file,
    ec_tool_cline_write_to_file, ec_tool_cline_editor, ec_tool_lazy_edit_file;

/* Section - shared */

static void openai_fail(ec_tool_call *c, const char *code, ec_str message) {
  (void)code;
  ec_buf_append_cstr(&c->result, "{\"status\":\"failed\",\"output\":");
  ec_jstr(&c->result, message);
  ec_buf_append_char(&c->result, '}');
}

/* A path a tool names: inside the root (lexically), then read. false: answered. */
static bool plan_one(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str *rel) {
  if (!path.len) { ec_tool_failf(c, t, "INVALID_PARAM", "Missing value for required parameter 'path'."); return false; }
  if (!ec_tool_path_inside(c, path, rel) || !rel->len) {
    if (!c->oom) ec_tool_failf(c, t, "ACCESS_DENIED", "Access denied: %.*s is outside the workspace.", (int)path.len, path.ptr);
    return false;
  }
  ec_tool_read_path(c, *rel, true);
  return true;
}

/* Refusals the host met; false: answered. */
static bool usable(ec_tool_call *c, const ec_tool *t, const ec_obs *o, ec_str path, bool missing_ok) {
  if (o->kind == EC_OBS_REFUSED) {
    ec_tool_failf(c, t, ec_str_eq_cstr(o->code, "ACCESS_DENIED") ? "ACCESS_DENIED" : "IO_ERROR", "%s %.*s%s%.*s",
                  ec_str_eq_cstr(o->code, "ACCESS_DENIED") ? "Access denied (a link leads outside the workspace):" : "Could not read",
                  (int)path.len, path.ptr, o->message.len ? ": " : "", (int)o->message.len, o->message.ptr);
    return false;
  }
  if (o->kind == EC_OBS_DIRECTORY) {
    ec_tool_failf(c, t, "IS_DIRECTORY", "%.*s is a directory, not a file.", (int)path.len, path.ptr);
    return false;
  }
  if (o->kind == EC_OBS_MISSING && !missing_ok) {
    ec_tool_failf(c, t, "NOT_FOUND", "File not found: %.*s", (int)path.len, path.ptr);
    return false;
  }
  if (o->kind == EC_OBS_FILE && !ec_tool_decoded(c, t, path, o)) return false;
  if (o->kind == EC_OBS_FILE && ec_str_has_nul(o->content)) {
    ec_tool_failf(c, t, "BINARY_FILE", "%.*s is a binary file; it cannot be edited as text.", (int)path.len, path.ptr);
    return false;
  }
  return true;
}

/* The writes a successful engine result asks for, each file under `rel_of(path)`. */
static void writes_from(ec_tool_call *c, const ec_result *r) {
  for (size_t i = 0; i < r->n_files; i++) {
    const ec_file_result *f = &r->files[i];
    ec_str rel, to;
    if (!ec_tool_path_inside(c, f->path, &rel)) continue;
    if (f->action == EC_ACTION_DELETE) { ec_tool_delete_file(c, rel); continue; }
    ec_str content = ec_arena_strdup(c->a, f->content.ptr, f->content.len);
    if (!content.ptr) { c->oom = true; return; }
    if (f->action == EC_ACTION_MOVE && ec_tool_path_inside(c, f->moved_to, &to)) {
      ec_tool_move_file(c, rel, to, content);
      ec_tool_delete_file(c, rel);
    } else ec_tool_write_file(c, rel, content, f->action == EC_ACTION_ADD);
  }
}

/* Section - patches: the paths a Codex patch names */

static void patch_paths(ec_tool_call *c, ec_str text, void (*each)(ec_tool_call *, ec_str, void *), void *user) {
  static const char *const HEADS[] = {"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "};
  size_t i = 0;
  while (i < text.len) {
    const char *nl = memchr(text.ptr + i, '\n', text.len - i);
    size_t end = nl ? (size_t)(nl - text.ptr) : text.len;
    ec_str line = ec_str_make(text.ptr + i, end - i);
    while (line.len && (line.ptr[line.len - 1] == '\r' || line.ptr[line.len - 1] == ' ')) line.len--;
    while (line.len && line.ptr[0] == ' ') line = ec_str_drop(line, 1);
    for (size_t k = 0; k < 4; k++)
      if (ec_str_starts_with(line, HEADS[k])) each(c, ec_str_drop(line, strlen(HEADS[k])), user);
    i = end + 1;
  }
}

typedef struct path_check {
  const ec_tool *t;
  bool bad;
} path_check;

static void plan_patch_path(ec_tool_call *c, ec_str p, void *user) {
  path_check *pc = user;
  ec_str rel;
  if (pc->bad) return;
  if (!ec_tool_path_inside(c, p, &rel) || !rel.len) {
    pc->bad = true;
    if (!c->oom) ec_tool_failf(c, pc->t, "ACCESS_DENIED", "Access denied: %.*s is outside the workspace; nothing was changed.", (int)p.len, p.ptr);
    return;
  }
  ec_tool_read_path(c, rel, true);
}

typedef struct patch_files {
  const ec_tool *t;
  ec_file *files;
  size_t n, cap;
  bool bad;
} patch_files;

static void collect_patch_file(ec_tool_call *c, ec_str p, void *user) {
  patch_files *pf = user;
  ec_str rel;
  if (pf->bad || !ec_tool_path_inside(c, p, &rel)) return;
  for (size_t i = 0; i < pf->n; i++) if (ec_str_eq(pf->files[i].path, p)) return;
  const ec_obs *o = ec_tool_obs(c, rel);
  if (!o) return;
  if (!usable(c, pf->t, o, p, true)) { pf->bad = true; return; }
  if (o->kind != EC_OBS_FILE) return;
  if (!EC_ARENA_RESERVE(c->a, pf->files, pf->n, pf->cap, 4)) { c->oom = true; pf->bad = true; return; }
  ec_file f = {p, o->content};
  pf->files[pf->n++] = f;
}

/* Runs a codex_patch text; on success fills the writes and returns the result (caller frees). */
static ec_result *run_patch(ec_tool_call *c, const ec_tool *t, ec_str text, ec_profile profile) {
  patch_files pf = {t, NULL, 0, 0, false};
  patch_paths(c, text, collect_patch_file, &pf);
  if (pf.bad) return NULL;
  ec_request req;
  ec_request_init(&req, EC_FORMAT_CODEX_PATCH);
  req.profile = profile;
  req.files = pf.files;
  req.n_files = pf.n;
  req.edit.text = text;
  ec_result *r = ec_tool_apply(c, &req);
  if (!r) c->oom = true;
  return r;
}

/* Section - codex/apply_patch */

static bool codex_args(ec_tool_call *c, ec_str *input) {
  const ec_tool *t = &ec_tool_codex_apply_patch;
  static const char *const KNOWN[] = {"input", NULL};
  if (!ec_args_only(c, t, KNOWN) || !ec_arg_string(c, t, "input", ARG_REQUIRED, input, NULL)) return false;
  path_check pc = {t, false};
  patch_paths(c, *input, plan_patch_path, &pc);
  return !pc.bad;
}

static void codex_plan(ec_tool_call *c) {
  ec_str input;
  if (codex_args(c, &input) && !c->n_reads && !c->done) {
    ec_tool_failf(c, &ec_tool_codex_apply_patch, "MALFORMED_EDIT", "Invalid patch: it names no file (expected *** Add File:, "
                  "*** Update File: or *** Delete File: lines between *** Begin Patch and *** End Patch).");
  }
}

static void codex_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_codex_apply_patch;
  ec_str input;
  if (!codex_args(c, &input)) return;
  ec_result *r = run_patch(c, t, input, EC_PROFILE_CODEX);
  if (!r) return;
  if (r->status == EC_STATUS_ERROR) {
    const ec_error *e = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, e ? ec_error_code_name(e->code) : "MALFORMED_EDIT", "%.*s", e ? (int)e->message.len : 0, e ? e->message.ptr : "");
    ec_result_free(r);
    return;
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  ec_buf_append_cstr(&b, "Success. Updated the following files:\n");
  for (size_t i = 0; i < r->n_files; i++) {
    const ec_file_result *f = &r->files[i];
    char k = f->action == EC_ACTION_ADD ? 'A' : f->action == EC_ACTION_DELETE ? 'D' : 'M';
    ec_str p = f->action == EC_ACTION_MOVE ? f->moved_to : f->path;
    ec_buf_printf(&b, "%c %.*s\n", k, (int)p.len, p.ptr);
  }
  for (size_t i = 0; i < r->n_files; i++) {
    ec_str note = ec_tool_syntax_note(c, &r->files[i]);
    if (note.len) ec_buf_printf(&b, "%.*s\n", (int)note.len - 1, note.ptr + 1);
  }
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; ec_result_free(r); return; }
  ec_tool_text_answer(c, text, false);
  writes_from(c, r);
  ec_result_free(r);
}

const ec_tool ec_tool_codex_apply_patch = {"codex/apply_patch", codex_plan, codex_run, ec_tool_text_fail};

/* Section - openai/apply_patch */

typedef struct op_args {
  ec_str type, path, rel, diff;
  bool has_diff;
} op_args;

static bool op_read(ec_tool_call *c, op_args *a) {
  const ec_tool *t = &ec_tool_openai_apply_patch;
  static const char *const KNOWN[] = {"type", "path", "diff", NULL};
  memset(a, 0, sizeof *a);
  if (!ec_args_only(c, t, KNOWN) || !ec_arg_string(c, t, "type", ARG_REQUIRED, &a->type, NULL) ||
      !ec_arg_string(c, t, "path", ARG_REQUIRED, &a->path, NULL) || !ec_arg_string(c, t, "diff", ARG_OPTIONAL, &a->diff, &a->has_diff))
    return false;
  bool del = ec_str_eq_cstr(a->type, "delete_file");
  if (!del && !ec_str_eq_cstr(a->type, "create_file") && !ec_str_eq_cstr(a->type, "update_file")) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Unknown operation type '%.*s' (create_file, update_file or delete_file).", (int)a->type.len, a->type.ptr);
    return false;
  }
  if (!del && !a->has_diff) {
    ec_tool_failf(c, t, "INVALID_PARAM", "%.*s needs a diff.", (int)a->type.len, a->type.ptr);
    return false;
  }
  return plan_one(c, t, a->path, &a->rel);
}

static void op_plan(ec_tool_call *c) {
  op_args a;
  op_read(c, &a);
}

static void op_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_openai_apply_patch;
  op_args a;
  if (!op_read(c, &a)) return;
  const ec_obs *o = ec_tool_obs(c, a.rel);
  bool create = ec_str_eq_cstr(a.type, "create_file"), del = ec_str_eq_cstr(a.type, "delete_file");
  if (!usable(c, t, o, a.path, create)) return;
  if (create && o->kind == EC_OBS_FILE) {
    ec_tool_failf(c, t, "FILE_EXISTS", "%.*s already exists; use update_file to change it.", (int)a.path.len, a.path.ptr);
    return;
  }
  /* The operation as one Codex patch: the envelope and the file header around the model's diff. */
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(c->a));
  ec_buf_printf(&b, "*** Begin Patch\n*** %s File: %.*s\n", create ? "Add" : del ? "Delete" : "Update", (int)a.rel.len, a.rel.ptr);
  if (!del) {
    ec_buf_append_str(&b, a.diff);
    if (a.diff.len && a.diff.ptr[a.diff.len - 1] != '\n') ec_buf_append_char(&b, '\n');
  }
  ec_buf_append_cstr(&b, "*** End Patch\n");
  ec_str patch = ec_buf_finish(&b, c->a);
  if (!patch.ptr) { c->oom = true; return; }
  ec_result *r = run_patch(c, t, patch, EC_PROFILE_EDITCORE);
  if (!r) return;
  if (r->status == EC_STATUS_ERROR || !r->n_files) {
    const ec_error *e = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, e ? ec_error_code_name(e->code) : "MALFORMED_EDIT", "%.*s", e ? (int)e->message.len : 0, e ? e->message.ptr : "");
    ec_result_free(r);
    return;
  }
  ec_buf_append_cstr(&c->result, "{\"status\":\"completed\",\"output\":");
  ec_str out = ec_arena_printf(c->a, "%s %.*s", create ? "Created" : del ? "Deleted" : "Updated", (int)a.path.len, a.path.ptr);
  ec_jstr(&c->result, out);
  ec_buf_append_char(&c->result, '}');
  writes_from(c, r);
  ec_result_free(r);
}

const ec_tool ec_tool_openai_apply_patch = {"openai/apply_patch", op_plan, op_run, openai_fail};

/* Section - Cline */

static ec_str final_content_text(ec_tool_call *c, const ec_obs *o, ec_str path, ec_str content) {
  /* shown as the file's text is: a file that is not UTF-8 with its bytes >= 0x80 as U+FFFD */
  if (o && o->kind == EC_OBS_FILE) content = ec_tool_shown(c, o, content, path, NULL);
  if (!content.ptr) return content;
  ec_str s = ec_arena_printf(c->a, "The content was successfully saved to %.*s.\n\nHere is the full, updated content of the file "
                             "that was saved:\n\n<final_file_content path=\"%.*s\">\n%.*s\n</final_file_content>\n\nIMPORTANT: "
                             "For any future changes to this file, use the final_file_content shown above as your reference.",
                             (int)path.len, path.ptr, (int)path.len, path.ptr, (int)content.len, content.ptr);
  if (!s.ptr) c->oom = true;
  return s;
}

static bool rif_read(ec_tool_call *c, ec_str *path, ec_str *rel, ec_str *diff) {
  const ec_tool *t = &ec_tool_cline_replace_in_file;
  static const char *const KNOWN[] = {"path", "diff", "task_progress", NULL};
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "path", ARG_REQUIRED, path, NULL) &&
         ec_arg_string(c, t, "diff", ARG_REQUIRED, diff, NULL) && plan_one(c, t, *path, rel);
}

static void rif_plan(ec_tool_call *c) {
  ec_str p, r, d;
  rif_read(c, &p, &r, &d);
}

static void engine_single(ec_tool_call *c, const ec_tool *t, ec_request *req, ec_str path, ec_str rel) {
  ec_result *r = ec_tool_apply(c, req);
  if (!r) { c->oom = true; return; }
  if (r->status == EC_STATUS_ERROR || !r->n_files) {
    const ec_error *e = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, e ? ec_error_code_name(e->code) : "NOOP", "%.*s", e ? (int)e->message.len : 0,
                  e ? e->message.ptr : "the edit changes nothing");
    ec_result_free(r);
    return;
  }
  ec_str content = ec_arena_strdup(c->a, r->files[0].content.ptr, r->files[0].content.len);
  bool add = r->files[0].action == EC_ACTION_ADD;
  ec_str note = ec_tool_syntax_note(c, &r->files[0]);
  ec_result_free(r);
  if (!content.ptr) { c->oom = true; return; }
  ec_str text = final_content_text(c, ec_tool_obs(c, rel), path, content);
  if (!text.ptr) return;
  if (note.len) text = ec_arena_printf(c->a, "%.*s\n\n%.*s", (int)text.len, text.ptr, (int)note.len - 1, note.ptr + 1);
  if (!text.ptr) { c->oom = true; return; }
  ec_tool_text_answer(c, text, false);
  ec_tool_write_file(c, rel, content, add);
}

static void rif_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_cline_replace_in_file;
  ec_str path, rel, diff;
  if (!rif_read(c, &path, &rel, &diff)) return;
  const ec_obs *o = ec_tool_obs(c, rel);
  if (!usable(c, t, o, path, false)) return;
  ec_request req;
  ec_file f;
  ec_tool_request_file(&req, EC_FORMAT_SEARCH_REPLACE, &f, rel, &o->content);
  req.profile = EC_PROFILE_CLINE;
  req.edit.text = diff;
  req.edit.dialect = ec_cstr("cline");
  engine_single(c, t, &req, path, rel);
}

const ec_tool ec_tool_cline_replace_in_file = {"cline/replace_in_file", rif_plan, rif_run, ec_tool_text_fail};

static bool wtf_read(ec_tool_call *c, ec_str *path, ec_str *rel, ec_str *content) {
  const ec_tool *t = &ec_tool_cline_write_to_file;
  static const char *const KNOWN[] = {"path", "content", "task_progress", NULL};
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "path", ARG_REQUIRED, path, NULL) &&
         ec_arg_string(c, t, "content", ARG_REQUIRED, content, NULL) && plan_one(c, t, *path, rel);
}

static void wtf_plan(ec_tool_call *c) {
  ec_str p, r, k;
  wtf_read(c, &p, &r, &k);
}

static void wtf_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_cline_write_to_file;
  ec_str path, rel, content;
  if (!wtf_read(c, &path, &rel, &content)) return;
  const ec_obs *o = ec_tool_obs(c, rel);
  if (!usable(c, t, o, path, true)) return;
  ec_str text = final_content_text(c, NULL, path, content);
  if (!text.ptr) return;
  ec_tool_text_answer(c, text, false);
  ec_tool_write_file(c, rel, content, true);
}

const ec_tool ec_tool_cline_write_to_file = {"cline/write_to_file", wtf_plan, wtf_run, ec_tool_text_fail};

typedef struct ced_args {
  ec_str path, rel, old_text, new_text;
  bool has_old;
  int64_t insert_line;
  bool has_insert;
} ced_args;

static bool ced_read(ec_tool_call *c, ced_args *a) {
  const ec_tool *t = &ec_tool_cline_editor;
  static const char *const KNOWN[] = {"path", "old_text", "new_text", "insert_line", NULL};
  memset(a, 0, sizeof *a);
  if (!ec_args_only(c, t, KNOWN) || !ec_arg_string(c, t, "path", ARG_REQUIRED, &a->path, NULL) ||
      !ec_arg_string(c, t, "old_text", ARG_OPTIONAL, &a->old_text, &a->has_old) ||
      !ec_arg_string(c, t, "new_text", ARG_REQUIRED, &a->new_text, NULL) ||
      !ec_arg_int(c, t, "insert_line", ARG_OPTIONAL, 1, (int64_t)4e9, &a->insert_line, &a->has_insert))
    return false;
  if (a->has_old == a->has_insert) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Give either old_text (the text to replace) or insert_line (new_text goes before that "
                  "line), not %s.", a->has_old ? "both" : "neither");
    return false;
  }
  return plan_one(c, t, a->path, &a->rel);
}

static void ced_plan(ec_tool_call *c) {
  ced_args a;
  ced_read(c, &a);
}

static void ced_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_cline_editor;
  ced_args a;
  if (!ced_read(c, &a)) return;
  const ec_obs *o = ec_tool_obs(c, a.rel);
  if (!usable(c, t, o, a.path, false)) return;
  ec_request req;
  ec_file f;
  if (a.has_insert) {
    size_t total = ec_tool_line_count(o->content);
    if ((size_t)a.insert_line > total + 1) {
      ec_tool_failf(c, t, "INVALID_PARAM", "insert_line %lld is past the end of %.*s (%zu lines; %zu appends).",
                    (long long)a.insert_line, (int)a.path.len, a.path.ptr, total, total + 1);
      return;
    }
    ec_tool_request_file(&req, EC_FORMAT_INSERT, &f, a.rel, &o->content);
    req.edit.insert_line = a.insert_line - 1; /* before line N = after line N-1 */
    req.edit.new_str = a.new_text;
    req.edit.has_new_str = true;
  } else {
    ec_tool_request_file(&req, EC_FORMAT_REPLACE, &f, a.rel, &o->content);
    req.edit.old_string = a.old_text;
    req.edit.new_string = a.new_text;
    req.edit.has_old_string = req.edit.has_new_string = true;
  }
  engine_single(c, t, &req, a.path, a.rel);
}

const ec_tool ec_tool_cline_editor = {"cline/editor", ced_plan, ced_run, ec_tool_text_fail};

/* Section - lazy/edit_file */

typedef struct lz_args {
  ec_str path, rel, instructions, code_edit;
} lz_args;

static bool lz_read(ec_tool_call *c, lz_args *a) {
  const ec_tool *t = &ec_tool_lazy_edit_file;
  static const char *const KNOWN[] = {"target_file", "instructions", "code_edit", NULL};
  memset(a, 0, sizeof *a);
  return ec_args_only(c, t, KNOWN) && ec_arg_string(c, t, "target_file", ARG_REQUIRED, &a->path, NULL) &&
         ec_arg_string(c, t, "instructions", ARG_OPTIONAL, &a->instructions, NULL) &&
         ec_arg_string(c, t, "code_edit", ARG_REQUIRED, &a->code_edit, NULL) && plan_one(c, t, a->path, &a->rel);
}

static void lz_plan(ec_tool_call *c) {
  lz_args a;
  lz_read(c, &a);
}

static void lz_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_lazy_edit_file;
  lz_args a;
  if (!lz_read(c, &a)) return;
  const ec_obs *o = ec_tool_obs(c, a.rel);
  if (!usable(c, t, o, a.path, true)) return;
  ec_request req;
  ec_file f;
  if (o->kind == EC_OBS_FILE) {
    ec_tool_request_file(&req, EC_FORMAT_LAZY, &f, a.rel, &o->content);
    req.edit.snippet = a.code_edit;
    req.edit.has_snippet = true;
  } else { /* a new file: the snippet is its content */
    ec_tool_request_file(&req, EC_FORMAT_WHOLE_FILE, &f, a.rel, NULL);
    req.edit.content = a.code_edit;
    req.edit.has_content = true;
  }
  ec_result *r = ec_tool_apply(c, &req);
  if (!r) { c->oom = true; return; }
  if (r->status == EC_STATUS_ERROR || !r->n_files) {
    const ec_error *e = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, e ? ec_error_code_name(e->code) : "NOOP", "The edit to %.*s was not applied: %.*s\nSend code_edit again "
                  "with more of the unchanged lines around each change (at least 2-3 on each side, copied exactly), so "
                  "every part can be placed in the file unambiguously.", (int)a.path.len, a.path.ptr,
                  e ? (int)e->message.len : 0, e ? e->message.ptr : "");
    ec_result_free(r);
    return;
  }
  ec_str diff = ec_arena_strdup(c->a, r->files[0].diff.ptr, r->files[0].diff.len);
  if (!diff.ptr) { c->oom = true; ec_result_free(r); return; }
  ec_str note = ec_tool_syntax_note(c, &r->files[0]);
  ec_str text = ec_arena_printf(c->a, "The apply model made the following changes to %.*s:\n\n%.*s%s%.*s", (int)a.path.len, a.path.ptr,
                                (int)diff.len, diff.ptr, note.len ? "\n" : "", note.len ? (int)note.len - 1 : 0, note.len ? note.ptr + 1 : "");
  if (!text.ptr) { c->oom = true; ec_result_free(r); return; }
  ec_tool_text_answer(c, text, false);
  writes_from(c, r);
  ec_result_free(r);
}

const ec_tool ec_tool_lazy_edit_file = {"lazy/edit_file", lz_plan, lz_run, ec_tool_text_fail};
