/*
 * The text-editor family: Anthropic's `str_replace_based_edit_tool` (text_editor_20250728: view
 * with view_range and max_characters, create, str_replace, insert; no undo_edit), the older
 * `str_replace_editor` (text_editor_20250124, with undo_edit), and OpenHands' `str_replace_editor`.
 * One implementation, three flavours. Parameters, messages and result shape are the peers'
 * ({content, is_error}: a tool_result's text); matching is exact and unique (editcore's engine,
 * exact strategy), so the peers' faults (tabs expanded, CRLF flattened) are not copied.
 * undo_edit's history is the opaque state the host keeps: {"history": {path: [older contents]}}.
 */
#include "tool.h"
#include "../base/num.h"
#include "../base/str.h"
#include "../request/result.h"
#include "../protocol/json_response.h"
#include <stdio.h>
#include <string.h>

extern const ec_tool ec_tool_claude_text_editor, ec_tool_claude_str_replace_editor, ec_tool_openhands_editor;

enum { HISTORY_MAX = 10 };

typedef struct ed_args {
  ec_str command, path, rel, file_text, old_str, new_str;
  bool has_file_text, has_old, has_new, has_insert_line, has_range;
  int64_t insert_line, range0, range1, max_chars;
  bool has_max_chars;
} ed_args;

static bool undo_allowed(const ec_tool *t) { return t != &ec_tool_claude_text_editor; }

static bool ed_read(ec_tool_call *c, const ec_tool *t, ed_args *e) {
  static const char *const KNOWN[] = {"command", "path", "file_text", "old_str", "new_str", "insert_line", "view_range",
                                      "max_characters", NULL};
  memset(e, 0, sizeof *e);
  if (!ec_args_only(c, t, KNOWN) || !ec_arg_string(c, t, "command", ARG_REQUIRED, &e->command, NULL) ||
      !ec_arg_string(c, t, "path", ARG_REQUIRED, &e->path, NULL) ||
      !ec_arg_string(c, t, "file_text", ARG_OPTIONAL, &e->file_text, &e->has_file_text) ||
      !ec_arg_string(c, t, "old_str", ARG_OPTIONAL, &e->old_str, &e->has_old) ||
      !ec_arg_string(c, t, "new_str", ARG_OPTIONAL, &e->new_str, &e->has_new) ||
      !ec_arg_int(c, t, "insert_line", ARG_OPTIONAL, -(int64_t)4e9, (int64_t)4e9, &e->insert_line, &e->has_insert_line) ||
      !ec_arg_int(c, t, "max_characters", ARG_OPTIONAL, 1, (int64_t)9e15, &e->max_chars, &e->has_max_chars))
    return false;
  const cJSON *vr = cJSON_GetObjectItemCaseSensitive(c->args, "view_range");
  if (vr && !cJSON_IsNull(vr)) {
    if (!cJSON_IsArray(vr) || cJSON_GetArraySize(vr) != 2 || !cJSON_IsNumber(vr->child) || !cJSON_IsNumber(vr->child->next)) {
      ec_tool_failf(c, t, "INVALID_PARAM", "Invalid `view_range`. It should be a list of two integers.");
      return false;
    }
    e->has_range = true;
    e->range0 = ec_i64_of_double(vr->child->valuedouble);
    e->range1 = ec_i64_of_double(vr->child->next->valuedouble);
  }
  bool known = ec_str_eq_cstr(e->command, "view") || ec_str_eq_cstr(e->command, "create") ||
               ec_str_eq_cstr(e->command, "str_replace") || ec_str_eq_cstr(e->command, "insert") ||
               (undo_allowed(t) && ec_str_eq_cstr(e->command, "undo_edit"));
  if (!known) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Unrecognized command %.*s. The allowed commands for the %s tool are: %s",
                  (int)e->command.len, e->command.ptr, t == &ec_tool_openhands_editor ? "str_replace_editor" : "text editor",
                  undo_allowed(t) ? "view, create, str_replace, insert, undo_edit" : "view, create, str_replace, insert");
    return false;
  }
  if (ec_str_eq_cstr(e->command, "create") && !e->has_file_text) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter `file_text` is required for command: create");
    return false;
  }
  if (ec_str_eq_cstr(e->command, "str_replace") && !e->has_old) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter `old_str` is required for command: str_replace");
    return false;
  }
  if (ec_str_eq_cstr(e->command, "insert") && (!e->has_insert_line || !e->has_new)) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Parameter `%s` is required for command: insert", e->has_insert_line ? "new_str" : "insert_line");
    return false;
  }
  if (!ec_tool_path_inside(c, e->path, &e->rel)) {
    if (!c->oom)
      ec_tool_failf(c, t, "ACCESS_DENIED", "The path %.*s is outside the workspace; only files under %.*s can be viewed or edited.",
                    (int)e->path.len, e->path.ptr, (int)c->root.len, c->root.ptr);
    return false;
  }
  /* Every command reads the file when it is there: create and undo_edit too, for its encoding
   * (what they write is written back in it) and its bytes (text/encoding.h). */
  ec_tool_read_path(c, e->rel, true);
  return true;
}

static void ed_plan(ec_tool_call *c, const ec_tool *t) {
  ed_args e;
  ed_read(c, t, &e);
}

/* Section - the history (undo_edit) */

static const cJSON *history_of(ec_tool_call *c, ec_str rel) {
  const cJSON *h = c->state ? cJSON_GetObjectItemCaseSensitive(c->state, "history") : NULL;
  for (const cJSON *it = h ? h->child : NULL; it; it = it->next)
    if (ec_str_eq(ec_json_reader_string(c->reader, it->string), rel) && cJSON_IsArray(it)) return it;
  return NULL;
}

/* New state: the old one with `rel`'s list pushed (push) or popped (!push). */
static void history_update(ec_tool_call *c, ec_str rel, bool push, ec_str content) {
  ec_buf *b = &c->state_out;
  ec_buf_append_cstr(b, "{\"history\":{");
  bool first = true, seen = false;
  const cJSON *h = c->state ? cJSON_GetObjectItemCaseSensitive(c->state, "history") : NULL;
  for (const cJSON *it = h ? h->child : NULL; it; it = it->next) {
    if (!cJSON_IsArray(it)) continue;
    bool mine = ec_str_eq(ec_json_reader_string(c->reader, it->string), rel);
    int n = cJSON_GetArraySize(it);
    if (mine) seen = true;
    if (mine && !push && n <= 1) continue;
    if (!first) ec_buf_append_char(b, ',');
    first = false;
    ec_jstr(b, ec_json_reader_string(c->reader, it->string));
    ec_buf_append_cstr(b, ":[");
    int k = 0, skip = mine && push && n >= HISTORY_MAX ? n - HISTORY_MAX + 1 : 0, keep = mine && !push ? n - 1 : n;
    bool f2 = true;
    for (const cJSON *v = it->child; v; v = v->next, k++) {
      if (k < skip || k >= keep) continue;
      if (!f2) ec_buf_append_char(b, ',');
      f2 = false;
      ec_tool_write_json(c, b, v);
    }
    if (mine && push) {
      if (!f2) ec_buf_append_char(b, ',');
      ec_json_write_bytes(b, content);
    }
    ec_buf_append_char(b, ']');
  }
  if (!seen && push) {
    if (!first) ec_buf_append_char(b, ',');
    ec_jstr(b, rel);
    ec_buf_append_cstr(b, ":[");
    ec_json_write_bytes(b, content);
    ec_buf_append_char(b, ']');
  }
  ec_buf_append_cstr(b, "}}");
}

/* Section - commands */

static void view(ec_tool_call *c, const ec_tool *t, const ed_args *e, const ec_obs *o) {
  if (o->kind == EC_OBS_DIRECTORY) {
    if (e->has_range) {
      ec_tool_failf(c, t, "INVALID_PARAM", "The `view_range` parameter is not allowed when `path` points to a directory.");
      return;
    }
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(c->a));
    ec_buf_printf(&b, "Here's the files and directories up to 2 levels deep in %.*s, excluding hidden items:\n", (int)e->path.len, e->path.ptr);
    for (const cJSON *it = o->entries ? o->entries->child : NULL; it; it = it->next)
      if (cJSON_IsString(it)) ec_buf_printf(&b, "%s\n", it->valuestring);
    ec_str s = ec_buf_finish(&b, c->a);
    if (!s.ptr) { c->oom = true; return; }
    ec_tool_text_answer(c, s, false);
    c->done = true;
    return;
  }
  if (!ec_tool_decoded(c, t, e->path, o)) return;
  if (ec_str_has_nul(o->content)) {
    ec_tool_failf(c, t, "BINARY_FILE", "The file %.*s is a binary file and cannot be viewed as text.", (int)e->path.len, e->path.ptr);
    return;
  }
  ec_str s = o->content;
  size_t total = ec_tool_line_count(s), first = 1, last = total;
  if (e->has_range) {
    if (e->range0 < 1 || (size_t)e->range0 > (total ? total : 1)) {
      ec_tool_failf(c, t, "INVALID_PARAM", "Invalid `view_range`: [%lld, %lld]. Its first element `%lld` should be within the "
                    "range of lines of the file: [1, %zu]", (long long)e->range0, (long long)e->range1, (long long)e->range0, total);
      return;
    }
    if (e->range1 != -1 && (e->range1 < e->range0 || (size_t)e->range1 > total)) {
      ec_tool_failf(c, t, "INVALID_PARAM", "Invalid `view_range`: [%lld, %lld]. Its second element `%lld` should be -1 or "
                    "within [%lld, %zu]", (long long)e->range0, (long long)e->range1, (long long)e->range1, (long long)e->range0, total);
      return;
    }
    first = (size_t)e->range0;
    last = e->range1 == -1 ? total : (size_t)e->range1;
  }
  ec_str note;
  ec_str body = ec_tool_cat_n(c, s, first, last);
  if (body.ptr) body = ec_tool_shown(c, o, body, e->path, &note);
  if (!body.ptr) return;
  bool cut = false;
  if (e->has_max_chars && body.len > (size_t)e->max_chars) {
    size_t n = (size_t)e->max_chars;
    while (n > 0 && ((unsigned char)body.ptr[n] & 0xC0) == 0x80) n--;
    body.len = n;
    cut = true;
  }
  ec_str text = ec_arena_printf(c->a, "%.*s%sHere's the result of running `cat -n` on %.*s:\n%.*s%s", (int)note.len, note.ptr,
                                note.len ? "\n" : "", (int)e->path.len, e->path.ptr, (int)body.len, body.ptr,
                                cut ? "\n<response clipped: the output passed max_characters; view a smaller view_range>" : "");
  if (!text.ptr) { c->oom = true; return; }
  ec_tool_text_answer(c, text, false);
  c->done = true;
}

/* `cat -n` of lines around [from, to] (1-based), 4 lines of context each side, of the new content
 * of the observed file `o`, shown as the file's text is (ec_tool_shown). */
static ec_str snippet(ec_tool_call *c, const ec_obs *o, ec_str content, size_t from, size_t to) {
  size_t first = from > 4 ? from - 4 : 1, last = to + 4;
  ec_str s = ec_tool_cat_n(c, content, first, last);
  return s.ptr ? ec_tool_shown(c, o, s, ec_cstr(""), NULL) : s;
}

static void str_replace(ec_tool_call *c, const ec_tool *t, const ed_args *e, const ec_obs *o) {
  bool oh = t == &ec_tool_openhands_editor;
  if (oh && e->has_new && ec_str_eq(e->old_str, e->new_str)) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Invalid `new_str` parameter: %.*s. No replacement was performed. `new_str` and "
                  "`old_str` must be different.", (int)e->new_str.len, e->new_str.ptr);
    return;
  }
  uint32_t lines[64];
  size_t n = e->old_str.len ? ec_tool_exact_places(c, o->content, e->old_str, lines, 64) : 0;
  if (n == 0) {
    ec_tool_failf(c, t, "NO_MATCH", "No replacement was performed, old_str `%.*s` did not appear verbatim in %.*s.",
                  (int)e->old_str.len, e->old_str.ptr, (int)e->path.len, e->path.ptr);
    return;
  }
  if (n > 1) {
    char list[400] = "[";
    size_t w = 1;
    uint32_t prev = 0;
    for (size_t i = 0; i < n && i < 64 && w < sizeof list - 16; i++) {
      if (i && lines[i] == prev) continue;
      w += (size_t)snprintf(list + w, sizeof list - w, "%s%u", w > 1 ? ", " : "", lines[i]);
      prev = lines[i];
    }
    snprintf(list + w, sizeof list - w, "]");
    ec_tool_failf(c, t, "AMBIGUOUS", "No replacement was performed. Multiple occurrences of old_str `%.*s` in lines %s. "
                  "Please ensure it is unique%s", (int)e->old_str.len, e->old_str.ptr, list, oh ? "." : "");
    return;
  }
  ec_request req;
  ec_file f;
  ec_tool_request_file(&req, EC_FORMAT_REPLACE, &f, e->rel, &o->content);
  req.edit.old_string = e->old_str;
  req.edit.new_string = e->has_new ? e->new_str : ec_cstr("");
  req.edit.has_old_string = req.edit.has_new_string = true;
  static const ec_strategy EXACT[] = {EC_STRATEGY_EXACT};
  req.options.strategies = EXACT;
  req.options.n_strategies = 1;
  ec_result *r = ec_tool_apply(c, &req);
  if (!r) { c->oom = true; return; }
  if (r->status == EC_STATUS_ERROR || !r->n_files) {
    const ec_error *err = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, err ? ec_error_code_name(err->code) : "NO_MATCH", "No replacement was performed: %.*s",
                  err ? (int)err->message.len : 0, err ? err->message.ptr : "");
    ec_result_free(r);
    return;
  }
  const ec_file_result *fr = &r->files[0];
  ec_str content = ec_arena_strdup(c->a, fr->content.ptr, fr->content.len);
  size_t at = fr->n_matches ? fr->matches[0].start_line : lines[0];
  ec_str note = ec_tool_syntax_note(c, fr);
  ec_result_free(r);
  if (!content.ptr) { c->oom = true; return; }
  size_t new_lines = ec_count_lf(req.edit.new_string.ptr ? req.edit.new_string.ptr : "", req.edit.new_string.len);
  ec_str snip = snippet(c, o, content, at, at + new_lines);
  if (!snip.ptr) return;
  ec_str text = ec_arena_printf(c->a, "The file %.*s has been edited. Here's the result of running `cat -n` on a snippet of %.*s:\n"
                                "%.*sReview the changes and make sure they are as expected. Edit the file again if necessary.%.*s",
                                (int)e->path.len, e->path.ptr, (int)e->path.len, e->path.ptr, (int)snip.len, snip.ptr,
                                (int)note.len, note.ptr ? note.ptr : "");
  if (!text.ptr) { c->oom = true; return; }
  ec_tool_text_answer(c, text, false);
  if (undo_allowed(t)) history_update(c, e->rel, true, o->content);
  ec_tool_write_file(c, e->rel, content, false);
}

static void insert(ec_tool_call *c, const ec_tool *t, const ed_args *e, const ec_obs *o) {
  size_t total = ec_tool_line_count(o->content);
  if (e->insert_line < 0 || (size_t)e->insert_line > total) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Invalid `insert_line` parameter: %lld. It should be within the range of %s: [0, %zu]",
                  (long long)e->insert_line, t == &ec_tool_openhands_editor ? "allowed values" : "lines of the file", total);
    return;
  }
  ec_request req;
  ec_file f;
  ec_tool_request_file(&req, EC_FORMAT_INSERT, &f, e->rel, &o->content);
  req.edit.insert_line = e->insert_line;
  req.edit.new_str = e->new_str;
  req.edit.has_new_str = true;
  ec_result *r = ec_tool_apply(c, &req);
  if (!r) { c->oom = true; return; }
  if (r->status == EC_STATUS_ERROR || !r->n_files) {
    const ec_error *err = r->n_errors ? &r->errors[0] : NULL;
    ec_tool_failf(c, t, err ? ec_error_code_name(err->code) : "INVALID_PARAM", "%.*s", err ? (int)err->message.len : 0,
                  err ? err->message.ptr : "");
    ec_result_free(r);
    return;
  }
  ec_str content = ec_arena_strdup(c->a, r->files[0].content.ptr, r->files[0].content.len);
  ec_str note = ec_tool_syntax_note(c, &r->files[0]);
  ec_result_free(r);
  if (!content.ptr) { c->oom = true; return; }
  size_t from = (size_t)e->insert_line + 1, to = from + ec_count_lf(e->new_str.ptr ? e->new_str.ptr : "", e->new_str.len);
  ec_str snip = snippet(c, o, content, from, to);
  if (!snip.ptr) return;
  ec_str text = ec_arena_printf(c->a, "The file %.*s has been edited. Here's the result of running `cat -n` on a snippet of the "
                                "edited file:\n%.*sReview the changes and make sure they are as expected (correct indentation, "
                                "no duplicate lines, etc). Edit the file again if necessary.%.*s",
                                (int)e->path.len, e->path.ptr, (int)snip.len, snip.ptr, (int)note.len, note.ptr ? note.ptr : "");
  if (!text.ptr) { c->oom = true; return; }
  ec_tool_text_answer(c, text, false);
  if (undo_allowed(t)) history_update(c, e->rel, true, o->content);
  ec_tool_write_file(c, e->rel, content, false);
}

static void ed_run(ec_tool_call *c, const ec_tool *t) {
  ed_args e;
  if (!ed_read(c, t, &e)) return;
  const ec_obs *o = ec_tool_obs(c, e.rel);
  if (o->kind == EC_OBS_REFUSED) {
    if (ec_str_eq_cstr(o->code, "ACCESS_DENIED"))
      ec_tool_failf(c, t, "ACCESS_DENIED", "The path %.*s leads outside the workspace (a symbolic link); it cannot be viewed or edited.",
                    (int)e.path.len, e.path.ptr);
    else
      ec_tool_failf(c, t, "IO_ERROR", "Could not access %.*s%s%.*s", (int)e.path.len, e.path.ptr, o->message.len ? ": " : "",
                    (int)o->message.len, o->message.ptr);
    return;
  }
  bool create = ec_str_eq_cstr(e.command, "create");
  if (create) {
    if (o->kind == EC_OBS_DIRECTORY) {
      ec_tool_failf(c, t, "IS_DIRECTORY", "The path %.*s is a directory; `create` needs a file path.", (int)e.path.len, e.path.ptr);
      return;
    }
    if (o->kind == EC_OBS_FILE && t == &ec_tool_openhands_editor) {
      ec_tool_failf(c, t, "FILE_EXISTS", "Invalid `path` parameter: %.*s. File already exists at: %.*s. Cannot overwrite files "
                    "using command `create`.", (int)e.path.len, e.path.ptr, (int)e.path.len, e.path.ptr);
      return;
    }
    ec_str text = ec_arena_printf(c->a, "File created successfully at: %.*s", (int)e.path.len, e.path.ptr);
    if (!text.ptr) { c->oom = true; return; }
    ec_tool_text_answer(c, text, false);
    if (undo_allowed(t) && o->kind == EC_OBS_FILE && o->has_content) history_update(c, e.rel, true, o->content);
    ec_tool_write_file(c, e.rel, e.file_text, true);
    return;
  }
  if (o->kind == EC_OBS_MISSING) {
    ec_tool_failf(c, t, "NOT_FOUND", "The path %.*s does not exist. Please provide a valid path.", (int)e.path.len, e.path.ptr);
    return;
  }
  if (ec_str_eq_cstr(e.command, "view")) { view(c, t, &e, o); return; }
  if (o->kind == EC_OBS_DIRECTORY) {
    ec_tool_failf(c, t, "IS_DIRECTORY", "The path %.*s is a directory and only the `view` command can be used on directories",
                  (int)e.path.len, e.path.ptr);
    return;
  }
  if (ec_str_eq_cstr(e.command, "undo_edit")) {
    const cJSON *h = history_of(c, e.rel);
    if (!h || !h->child) {
      ec_tool_failf(c, t, "NOT_FOUND", "No edit history found for %.*s.", (int)e.path.len, e.path.ptr);
      return;
    }
    const cJSON *lastv = h->child;
    while (lastv->next) lastv = lastv->next;
    ec_str prev = ec_cstr("");
    ec_error_code rc = ec_json_reader_bytes(c->reader, lastv, &prev);
    if (rc == EC_OUT_OF_MEMORY) { c->oom = true; return; }
    if (rc) {
      ec_tool_failf(c, t, "INVALID_PARAM", "The edit history of %.*s is not one this tool wrote; it cannot be undone.",
                    (int)e.path.len, e.path.ptr);
      return;
    }
    ec_str body = ec_tool_cat_n(c, prev, 1, (size_t)-1);
    if (body.ptr) body = ec_tool_shown(c, o, body, e.path, NULL);
    if (!body.ptr) return;
    ec_str text = ec_arena_printf(c->a, "Last edit to %.*s undone successfully. Here's the result of running `cat -n` on %.*s:\n%.*s",
                                  (int)e.path.len, e.path.ptr, (int)e.path.len, e.path.ptr, (int)body.len, body.ptr);
    if (!text.ptr) { c->oom = true; return; }
    ec_tool_text_answer(c, text, false);
    history_update(c, e.rel, false, ec_cstr(""));
    ec_tool_write_file(c, e.rel, prev, false);
    return;
  }
  if (!ec_tool_decoded(c, t, e.path, o)) return;
  if (ec_str_has_nul(o->content)) {
    ec_tool_failf(c, t, "BINARY_FILE", "The file %.*s is a binary file and cannot be edited as text.", (int)e.path.len, e.path.ptr);
    return;
  }
  if (ec_str_eq_cstr(e.command, "str_replace")) str_replace(c, t, &e, o);
  else insert(c, t, &e, o);
}

static void claude_plan(ec_tool_call *c) { ed_plan(c, &ec_tool_claude_text_editor); }
static void claude_run(ec_tool_call *c) { ed_run(c, &ec_tool_claude_text_editor); }
static void claude_old_plan(ec_tool_call *c) { ed_plan(c, &ec_tool_claude_str_replace_editor); }
static void claude_old_run(ec_tool_call *c) { ed_run(c, &ec_tool_claude_str_replace_editor); }
static void oh_plan(ec_tool_call *c) { ed_plan(c, &ec_tool_openhands_editor); }
static void oh_run(ec_tool_call *c) { ed_run(c, &ec_tool_openhands_editor); }

const ec_tool ec_tool_claude_text_editor = {"str_replace_based_edit_tool", claude_plan, claude_run, ec_tool_text_fail};
const ec_tool ec_tool_claude_str_replace_editor = {"str_replace_editor", claude_old_plan, claude_old_run, ec_tool_text_fail};
const ec_tool ec_tool_openhands_editor = {"openhands/str_replace_editor", oh_plan, oh_run, ec_tool_text_fail};
