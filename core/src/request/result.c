#include "result.h"
#include "../syntax/syntax.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../base/alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

ec_result *ec_result_new(const ec_allocator *alc) {
  ec_arena *a = ec_arena_new(alc);
  if (!a) return NULL;
  ec_result *r = ec_arena_calloc(a, 1, sizeof *r);
  if (!r) { ec_arena_free(a); return NULL; }
  r->arena = a;
  return r;
}

/* Grows one of the result's arrays by one zeroed element (items points at the array pointer). */
static void *push(ec_result *r, void *items, size_t *n, size_t *cap, size_t size) {
  if (!ec_arena_reserve(r->arena, items, size, *n, cap, 4)) { r->oom = true; return NULL; }
  char *base;
  memcpy(&base, items, sizeof base);
  void *e = base + (*n)++ * size;
  memset(e, 0, size);
  return e;
}

ec_file_result *ec_result_add_file(ec_result *r) {
  return push(r, &r->files, &r->n_files, &r->cap_files, sizeof(ec_file_result));
}

ec_block *ec_result_add_block(ec_result *r) {
  r->has_blocks = true;
  return push(r, &r->blocks, &r->n_blocks, &r->cap_blocks, sizeof(ec_block));
}

ec_reply_edit *ec_result_add_edit(ec_result *r) {
  r->has_reply = true;
  return push(r, &r->edits, &r->n_edits, &r->cap_edits, sizeof(ec_reply_edit));
}

bool ec_result_add_path(ec_result *r, ec_str path) {
  r->has_reply = true;
  ec_str *p = push(r, &r->paths, &r->n_paths, &r->cap_paths, sizeof(ec_str));
  if (p) *p = path;
  return p != NULL;
}

ec_error *ec_result_add_error(ec_result *r, ec_error_code code, const char *fmt, ...) {
  ec_error *e = push(r, &r->errors, &r->n_errors, &r->cap_errors, sizeof(ec_error));
  if (!e) return NULL;
  e->code = code;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *m = n >= 0 ? ec_arena_alloc(r->arena, (size_t)n + 1) : NULL;
  if (m) {
    va_start(ap, fmt);
    vsnprintf(m, (size_t)n + 1, fmt, ap);
    va_end(ap);
    e->message.ptr = m;
    e->message.len = (size_t)n;
  } else {
    r->oom = true;
  }
  return e;
}

bool ec_result_add_note(ec_result *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *m = n >= 0 ? ec_arena_alloc(r->arena, (size_t)n + 1) : NULL;
  ec_str *note = m ? push(r, &r->notes, &r->n_notes, &r->cap_notes, sizeof(ec_str)) : NULL;
  if (!note) { r->oom = true; return false; }
  va_start(ap, fmt);
  vsnprintf(m, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *note = ec_str_make(m, (size_t)n);
  return true;
}

void ec_result_clear_files(ec_result *r) { r->n_files = 0; }

void ec_result_set_out_of_memory(ec_result *r) {
  r->n_files = 0;
  r->n_blocks = 0;
  r->has_blocks = false;
  r->n_edits = r->n_paths = 0;
  r->has_reply = false;
  r->has_prompt = false;
  r->status = EC_STATUS_ERROR;
  r->stats.lines_added = r->stats.lines_removed = 0;
  r->stats.bytes_out = 0;
  memset(&r->oom_error, 0, sizeof r->oom_error);
  r->oom_error.code = EC_OUT_OF_MEMORY;
  r->oom_error.message.ptr = EC_OOM_MESSAGE;
  r->oom_error.message.len = sizeof EC_OOM_MESSAGE - 1;
  r->errors = &r->oom_error;
  r->n_errors = r->cap_errors = 1;
  r->text.ptr = "OUT_OF_MEMORY: " EC_OOM_MESSAGE;
  r->text.len = sizeof("OUT_OF_MEMORY: " EC_OOM_MESSAGE) - 1;
  r->oom = true;
}

ec_result *ec_result_new_error(ec_error_code code, ec_str path, ec_str message, const ec_host *host) {
  ec_result *r = ec_result_new(host ? host->allocator : NULL);
  if (!r) return NULL;
  r->status = EC_STATUS_ERROR;
  ec_error *e = ec_result_add_error(r, code, "%.*s", (int)message.len, message.ptr ? message.ptr : "");
  if (!e) { ec_result_free(r); return NULL; }
  e->path = ec_arena_strdup(r->arena, path.ptr ? path.ptr : "", path.len);
  r->text = e->message;
  if (!e->path.ptr || r->oom) { ec_result_free(r); return NULL; }
  return r;
}

void ec_result_set_applied(ec_result *r, bool applied) { r->applied = applied; }

/* Section - public accessors */

ec_status ec_result_status(const ec_result *r) { return r->status; }
size_t ec_result_file_count(const ec_result *r) { return r->n_files; }
const ec_file_result *ec_result_file(const ec_result *r, size_t i) { return i < r->n_files ? &r->files[i] : NULL; }

ec_str ec_result_splice_text(const ec_result *r, size_t i, size_t k) {
  ec_str none = {NULL, 0};
  const ec_file_result *f = ec_result_file(r, i);
  if (!f || k >= f->n_splices || !f->has_content) return none;
  if (f->splice_texts) return f->splice_texts[k];
  const ec_file_splice *s = &f->splices[k];
  return ec_str_make(f->content.ptr + s->new_start, s->new_end - s->new_start);
}
size_t ec_result_error_count(const ec_result *r) { return r->n_errors; }
const ec_error *ec_result_error(const ec_result *r, size_t i) { return i < r->n_errors ? &r->errors[i] : NULL; }
size_t ec_result_block_count(const ec_result *r) { return r->n_blocks; }
const ec_block *ec_result_block(const ec_result *r, size_t i) { return i < r->n_blocks ? &r->blocks[i] : NULL; }
size_t ec_result_edit_count(const ec_result *r) { return r->n_edits; }
const ec_reply_edit *ec_result_edit(const ec_result *r, size_t i) { return i < r->n_edits ? &r->edits[i] : NULL; }
size_t ec_result_path_count(const ec_result *r) { return r->n_paths; }
ec_str ec_result_path(const ec_result *r, size_t i) {
  ec_str none = {NULL, 0};
  return i < r->n_paths ? r->paths[i] : none;
}
ec_str ec_result_text(const ec_result *r) { return r->text; }
ec_stats ec_result_stats(const ec_result *r) { return r->stats; }
void ec_result_free(ec_result *r) {
  if (!r) return;
  ec_arena *req = r->request_arena;
  ec_arena_free(r->arena);
  ec_arena_free(req);
}

bool ec_result_prompt(const ec_result *r, ec_str *system, ec_str *user, ec_str *schema) {
  if (!r || !r->has_prompt) return false;
  if (system) *system = r->prompt_system;
  if (user) *user = r->prompt_user;
  if (schema) *schema = r->prompt_schema;
  return true;
}

ec_str ec_result_explanation(const ec_result *r) { return r->explanation; }

/* `open`, the bytes of s up to a NUL if it holds one (what printf's "%.*s" writes), then "'". */
static void quoted(ec_buf *b, const char *open, ec_str s) {
  ec_buf_append_cstr(b, open);
  const char *nul = s.len ? memchr(s.ptr, 0, s.len) : NULL;
  if (s.len) ec_buf_append(b, s.ptr, nul ? (size_t)(nul - s.ptr) : s.len);
  ec_buf_append_char(b, '\'');
}

/* The one-paragraph summary (r->text) of what the result holds: the error, the files changed and
 * how, or what was parsed. */
void ec_result_summarise(ec_result *r, bool preview) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(r->arena));
  if (r->status == EC_STATUS_ERROR && r->n_errors) {
    const ec_error *e = &r->errors[0];
    ec_buf_printf(&b, "%s: %.*s", ec_error_code_name(e->code), (int)e->message.len, e->message.ptr ? e->message.ptr : "");
  } else if (r->has_reply && !r->n_files) {
    ec_buf_printf(&b, "Found %zu edit%s naming %zu file%s:", r->n_edits, r->n_edits == 1 ? "" : "s", r->n_paths,
                  r->n_paths == 1 ? "" : "s");
    for (size_t i = 0; i < r->n_paths; i++)
      ec_buf_printf(&b, "%s '%.*s'", i ? "," : "", (int)r->paths[i].len, r->paths[i].ptr);
    ec_buf_append_char(&b, '.');
  } else if (preview && !r->n_files && !r->has_blocks) {
    ec_buf_append_cstr(&b, "Preview: nothing changes yet (the edit is still being written).");
  } else if (r->has_blocks && !r->n_files) {
    ec_buf_printf(&b, "Parsed %zu block%s.", r->n_blocks, r->n_blocks == 1 ? "" : "s");
  } else {
    /* Every successful call writes this line: appended piece by piece, not by printf (issue 28,
     * the 10 KB rows), with printf's bytes ("%.*s" stops at a NUL, as quoted() does). */
    ec_buf_append_cstr(&b, r->status == EC_STATUS_SUCCESS ? "Changed " : "Partly changed ");
    ec_buf_append_uint(&b, r->n_files);
    ec_buf_append_cstr(&b, r->n_files == 1 ? " file (+" : " files (+");
    ec_buf_append_uint(&b, r->stats.lines_added);
    ec_buf_append_cstr(&b, " -");
    ec_buf_append_uint(&b, r->stats.lines_removed);
    ec_buf_append_cstr(&b, " lines):");
    for (size_t i = 0; i < r->n_files; i++) {
      const ec_file_result *f = &r->files[i];
      ec_buf_append_cstr(&b, i ? "; " : " ");
      ec_buf_append_cstr(&b, ec_action_name(f->action));
      quoted(&b, " '", f->path);
      if (f->action == EC_ACTION_MOVE && f->moved_to.len) quoted(&b, " -> '", f->moved_to);
      if (f->n_matches) {
        ec_buf_append_cstr(&b, " (");
        ec_buf_append_uint(&b, f->replacements);
        ec_buf_append_cstr(&b, f->replacements == 1 ? " replacement, lines " : " replacements, lines ");
        ec_buf_append_uint(&b, f->matches[0].start_line);
        ec_buf_append_char(&b, '-');
        ec_buf_append_uint(&b, f->matches[0].end_line);
        ec_buf_append_cstr(&b, " by ");
        ec_buf_append_cstr(&b, ec_strategy_name(f->matches[0].strategy));
        ec_buf_append_char(&b, ')');
      }
    }
    ec_buf_append_char(&b, '.');
    /* The syntax check (docs/syntax.md): new errors are told, as Aider, OpenHands and SWE-agent
     * tell their model after an edit; files that were broken before are told only their new ones. */
    for (size_t i = 0; i < r->n_files; i++) {
      const ec_syntax_report *sx = r->files[i].syntax;
      if (!sx || !sx->checked || !sx->new_error_count) continue;
      ec_str where = ec_syn_describe(r->arena, sx, 3);
      ec_buf_printf(&b, " Syntax: '%.*s' now has %u syntax error%s it did not have (%.*s): %.*s.", (int)r->files[i].path.len,
                    r->files[i].path.ptr, sx->new_error_count, sx->new_error_count == 1 ? "" : "s",
                    (int)sx->language.len, sx->language.ptr, (int)where.len, where.ptr ? where.ptr : "");
    }
    for (size_t i = 0; i < r->n_notes; i++) ec_buf_printf(&b, " Note: %.*s", (int)r->notes[i].len, r->notes[i].ptr);
    for (size_t i = 0; i < r->n_errors; i++)
      ec_buf_printf(&b, " %s: %.*s", ec_error_code_name(r->errors[i].code), (int)r->errors[i].message.len,
                    r->errors[i].message.ptr ? r->errors[i].message.ptr : "");
    if (r->n_unlisted_errors)
      ec_buf_printf(&b, " (%zu more error%s not listed: at most %d are)", r->n_unlisted_errors, r->n_unlisted_errors == 1 ? "" : "s",
                    EC_MAX_ERRORS);
  }
  r->text = ec_buf_finish(&b, r->arena);
}
