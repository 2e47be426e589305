/*
 * The reference MCP filesystem server's file tools (peers/mcp_filesystem.md), same names,
 * parameters, path rules, messages and result shapes (a CallToolResult: one text item and
 * structuredContent.content; isError on failure), with editcore's matching underneath:
 *   edit_file  each edit through the editcore ladder (exact first), in order, all or nothing;
 *              several matches are refused instead of taking the first, re-indentation keeps
 *              nested lines where they belong, CRLF files stay CRLF; the jsdiff-style fenced diff.
 *   read_text_file (and its deprecated name read_file), write_file, list_allowed_directories
 *              as the reference.
 * Paths: absolute, or relative to the allowed directories (roots); the plan names the resolved
 * absolute path, and the host reports the real path (symlinks) of what it found (mcp_common.c).
 */
#include "mcp_common.h"
#include "../base/num.h"
#include "../base/str.h"
#include "../request/result.h"
#include "../syntax/syntax.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const ec_tool ec_tool_mcp_read_text_file, ec_tool_mcp_read_file, ec_tool_mcp_write_file, ec_tool_mcp_edit_file,
    ec_tool_mcp_list_allowed_directories;

/* Section - read_text_file, read_file */

static const mcp_field READ_FIELDS[] = {
    {"path", MCP_STRING, true, 0, NULL}, {"tail", MCP_NUMBER, false, 0, NULL}, {"head", MCP_NUMBER, false, 0, NULL}, {0}};

/* The arguments and the path; false: answered. `t` is read_text_file or its old name read_file. */
static bool read_args(ec_tool_call *c, const ec_tool *t, ec_str *abs, double *head, double *tail) {
  if (!mcp_path_args(c, t, READ_FIELDS, MCP_READ_CONTENT, abs)) return false;
  /* Tested for truthiness, as the reference does: 0 means not given. */
  *head = mcp_arg_num(c, "head");
  *tail = mcp_arg_num(c, "tail");
  if (*head && *tail) {
    ec_tool_failf(c, t, "INVALID_PARAM", "Cannot specify both head and tail parameters simultaneously");
    return false;
  }
  return true;
}

/* The first N lines joined with "\n", no final newline (the reference's headFile: the lines of
 * split("\n") without the empty piece after a last newline). */
static ec_str head_of(ec_str s, double head) {
  size_t want = ec_size_of_double(head), pieces = 0, end = 0;
  if (want) {
    end = s.len && s.ptr[s.len - 1] == '\n' ? s.len - 1 : s.len;
    for (size_t i = 0; i < end; i++)
      if (s.ptr[i] == '\n' && ++pieces == want) { end = i; break; }
  }
  return ec_str_make(s.ptr, end);
}

/* CRLF -> LF, then the last N pieces of split("\n"). */
static ec_str tail_of(ec_tool_call *c, ec_str s, double tail) {
  ec_str lf = ec_tool_lf(c, s);
  if (!lf.ptr) return lf;
  size_t want = ec_size_of_double(tail), pieces = 0, start = lf.len + 1;
  if (want) {
    start = 0;
    for (size_t i = lf.len; i-- > 0;)
      if (lf.ptr[i] == '\n' && ++pieces == want) { start = i + 1; break; }
  }
  return start > lf.len ? ec_cstr("") : ec_str_make(lf.ptr + start, lf.len - start);
}

static void read_plan_as(ec_tool_call *c, const ec_tool *t) {
  ec_str abs;
  double head, tail;
  read_args(c, t, &abs, &head, &tail);
}

static void read_run_as(ec_tool_call *c, const ec_tool *t) {
  ec_str abs;
  double head, tail;
  if (!read_args(c, t, &abs, &head, &tail)) return;
  const ec_obs *o = mcp_observed(c, t, abs, "open", "read");
  ec_str path = ec_json_reader_string(c->reader, mcp_arg(c, "path")->valuestring);
  if (!o || !ec_tool_decoded(c, t, path, o)) return;
  ec_str out = head ? head_of(o->content, head) : tail ? tail_of(c, o->content, tail) : o->content;
  if (!out.ptr) return;
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

static void read_plan(ec_tool_call *c) { read_plan_as(c, &ec_tool_mcp_read_text_file); }
static void read_run(ec_tool_call *c) { read_run_as(c, &ec_tool_mcp_read_text_file); }
static void read_old_plan(ec_tool_call *c) { read_plan_as(c, &ec_tool_mcp_read_file); }
static void read_old_run(ec_tool_call *c) { read_run_as(c, &ec_tool_mcp_read_file); }

const ec_tool ec_tool_mcp_read_text_file = {"mcp/read_text_file", read_plan, read_run, mcp_fail, true};
const ec_tool ec_tool_mcp_read_file = {"mcp/read_file", read_old_plan, read_old_run, mcp_fail, true};

/* Section - write_file */

static const mcp_field WRITE_FIELDS[] = {{"path", MCP_STRING, true, 0, NULL}, {"content", MCP_STRING, true, 0, NULL}, {0}};

static void write_plan(ec_tool_call *c) {
  ec_str abs;
  /* the content too: a write over a file keeps its encoding (tool_call.c, settle_writes) */
  mcp_path_args(c, &ec_tool_mcp_write_file, WRITE_FIELDS, MCP_READ_CONTENT, &abs);
}

static void write_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_write_file;
  ec_str abs;
  if (!mcp_path_args(c, t, WRITE_FIELDS, MCP_READ_CONTENT, &abs)) return;
  const ec_obs *o = mcp_observed(c, t, abs, NULL, "open");
  if (!o) return;
  if (o->kind == EC_OBS_MISSING && ec_str_eq_cstr(o->message, "parent missing")) {
    ec_str at = mcp_shown(o, abs);
    ec_tool_failf(c, t, "NOT_FOUND", "ENOENT: no such file or directory, open '%.*s'", (int)at.len, at.ptr);
    return;
  }
  ec_str path = mcp_arg_str(c, "path");
  mcp_textf(c, "Successfully wrote to %.*s", (int)path.len, path.ptr);
  ec_tool_write_file(c, abs, mcp_arg_str(c, "content"), false);
}

const ec_tool ec_tool_mcp_write_file = {"mcp/write_file", write_plan, write_run, mcp_fail, true};

/* Section - edit_file */

typedef struct edit_args {
  ec_str path, abs;
  const cJSON *edits;
  bool dry_run;
} edit_args;

static const mcp_field EDIT_FIELDS[] = {
    {"path", MCP_STRING, true, 0, NULL}, {"edits", MCP_EDITS, true, 0, NULL}, {"dryRun", MCP_BOOLEAN, false, 0, NULL}, {0}};

static bool edit_args_read(ec_tool_call *c, edit_args *e) {
  const ec_tool *t = &ec_tool_mcp_edit_file;
  memset(e, 0, sizeof *e);
  if (!mcp_check_args(c, t, EDIT_FIELDS)) return false;
  e->path = mcp_arg_str(c, "path");
  e->edits = mcp_arg(c, "edits");
  e->dry_run = cJSON_IsTrue(mcp_arg(c, "dryRun"));
  return mcp_path(c, t, e->path, &e->abs, MCP_READ_CONTENT);
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

/* The edited file's syntax (docs/syntax.md). The answer is the reference's diff; an edit that
 * leaves the file with syntax errors it did not have adds one sentence after it, as every other
 * tool's answer does, or is refused under options.syntax "refuse" (nothing written). Parsed
 * within the per-request budget, like ec_apply's own reports. False: refused (answer made). */
static bool edit_syntax(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str before, ec_str after, ec_str *note) {
  *note = ec_str_make("", 0);
  if (c->syntax == EC_SYNTAX_OFF || ec_str_eq(before, after)) return true;
  ec_str name;
  const ec_syn_lang *lang = ec_syn_lang_for(path, ec_str_make("", 0), &name);
  if (!lang || ec_syn_cost(&before, after) > EC_SYN_REQUEST_BYTES) return true;
  ec_syntax_report *rep = NULL;
  if (ec_syn_report(c->a, lang, name, &before, after, &rep)) { c->oom = true; return false; }
  ec_file_result fr;
  memset(&fr, 0, sizeof fr);
  fr.path = path;
  fr.action = EC_ACTION_UPDATE;
  fr.syntax = rep;
  if (c->syntax == EC_SYNTAX_REFUSE && ec_syn_breaks(rep)) {
    ec_str where = ec_syn_describe(c->a, rep, 5);
    ec_tool_failf(c, t, "SYNTAX_ERROR", "The edits would leave %.*s with %u syntax error%s it did not have (%.*s): %.*s. Nothing "
                  "was written. Send the edits again so that the file still parses.", (int)path.len, path.ptr, rep->new_error_count,
                  rep->new_error_count == 1 ? "" : "s", (int)rep->language.len, rep->language.ptr, (int)where.len,
                  where.ptr ? where.ptr : "");
    return false;
  }
  *note = ec_tool_syntax_note(c, &fr);
  return true;
}

static void edit_run(ec_tool_call *c) {
  const ec_tool *t = &ec_tool_mcp_edit_file;
  edit_args e;
  if (!edit_args_read(c, &e)) return;
  const ec_obs *o = mcp_observed(c, t, e.abs, "open", "read");
  if (!o || !ec_tool_decoded(c, t, e.path, o)) return;
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
  ec_str note;
  if (!edit_syntax(c, t, e.path, o->content, cur, &note)) return;
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
  if (note.len) ec_buf_append_str(&b, ec_str_make(note.ptr + 1, note.len - 1)); /* the note's leading space */
  ec_str text = ec_buf_finish(&b, c->a);
  if (!text.ptr) { c->oom = true; return; }
  mcp_text(c, text, false);
  if (e.dry_run || ec_str_eq(cur, o->content)) { c->done = true; return; }
  ec_tool_write_file(c, e.abs, cur, false);
}

const ec_tool ec_tool_mcp_edit_file = {"mcp/edit_file", edit_plan, edit_run, mcp_fail, true};

/* Section - list_allowed_directories */

static void list_plan(ec_tool_call *c) {
  ec_str dirs = mcp_roots_joined(c, "\n");
  if (!dirs.ptr) return;
  mcp_textf(c, "Allowed directories:\n%.*s", (int)dirs.len, dirs.ptr);
  c->done = true;
}

static void list_run(ec_tool_call *c) { list_plan(c); }

const ec_tool ec_tool_mcp_list_allowed_directories = {"mcp/list_allowed_directories", list_plan, list_run, mcp_fail, true};
