/* ec_run_json and ec_result_to_json: the JSON protocol as a thin layer over ec_apply. */
#include "json_request.h"
#include "json_response.h"
#include "editcore_commit.h"
#include "../base/alloc.h"
#include "../request/result.h"
#include "../engine/apply.h"
#include "../base/str.h"
#include <string.h>

void ec_free(const ec_host *host, void *ptr) { ec_mem_free(host ? host->allocator : NULL, ptr); }

static char *to_json(const ec_result *r, const ec_host *host, size_t *json_len, bool splices) {
  ec_buf b;
  ec_buf_init(&b, host ? host->allocator : NULL);
  /* Room for the texts the response carries and an eighth more for their escapes, so the buffer
   * is not grown (copied) four or five times on the way to the usual size. */
  size_t room = 1024 + r->text.len;
  for (size_t i = 0; i < r->n_files; i++) {
    const ec_file_result *f = &r->files[i];
    room += 256 + f->path.len + f->diff.len + f->undo.len + (splices ? 0 : f->content.len);
  }
  ec_buf_reserve(&b, room < SIZE_MAX / 2 ? room + room / 8 : room);
  ec_json_write_result_as(&b, r, splices);
  return ec_buf_take(&b, json_len);
}

char *ec_json_bytes(const char *bytes, size_t len, const ec_host *host, size_t *json_len) {
  ec_buf b;
  ec_buf_init(&b, host ? host->allocator : NULL);
  ec_json_write_bytes(&b, ec_str_make(bytes, bytes ? len : 0));
  return ec_buf_take(&b, json_len);
}

char *ec_result_to_json(const ec_result *r, const ec_host *host, size_t *json_len) { return to_json(r, host, json_len, false); }

char *ec_result_to_json_splices(const ec_result *r, const ec_host *host, size_t *json_len) {
  return to_json(r, host, json_len, true);
}

bool ec_result_write_json(const ec_result *r, const ec_host *host, ec_json_writer write, void *user) {
  ec_buf b;
  ec_buf_init_sink(&b, host ? host->allocator : NULL, write, user);
  ec_json_write_result(&b, r);
  bool ok = ec_buf_flush(&b);
  ec_buf_free(&b);
  return ok;
}

/* A request's JSON text, its files' contents in it (beside == NULL) or beside it, with edit strings too. `owned`: the
 * request's buffer when the caller handed it over (ec_apply_json_take), freed as soon as the
 * request is parsed: nothing parsed points into it (every string is copied). */
static ec_result *apply_json(const char *request, size_t request_len, const ec_json_beside *beside, const ec_host *host,
                             char *owned) {
  const ec_file *files = beside ? beside->files : NULL;
  const size_t n_files = beside ? beside->n_files : 0;
  const unsigned how = beside ? beside->how : 0;
  const ec_allocator *alc = host ? host->allocator : NULL;
  ec_arena *a = ec_arena_new(alc);
  if (!a) { ec_mem_free(alc, owned); return NULL; }
  double t0 = host && host->clock_ms ? host->clock_ms(host->clock_user) : 0;
  ec_request req;
  ec_json_extras extras;
  ec_str message = {0, 0};
  ec_error_code rc = ec_json_parse_request_ex(a, request ? request : "", request ? request_len : 0,
                                              beside ? beside->edit : NULL, beside ? beside->n_edit : 0,
                                              (how & EC_FILES_BESIDE_IN_PLACE) != 0, &req, &extras, &message);
  if (ec_arena_failed(a)) rc = EC_OUT_OF_MEMORY; /* whatever the parser made of a failed allocation */
  ec_mem_free(alc, owned);
  if (!rc && (how & EC_FILES_SYNTAX_ON_DEMAND)) req.options.syntax = EC_SYNTAX_ON_DEMAND;
  if (!rc && (how & EC_FILES_CONTENT_AS_SPLICES)) req.options.content_as_splices = true;
  if (!rc && (how & EC_FILES_UNDO_ON_READ)) req.options.undo_on_read = true;
  if (!rc && files) {
    if (req.n_files) {
      rc = EC_INVALID_PARAM;
      message.ptr = "files: the files are given beside this request, so the request itself must not name any";
      message.len = strlen(message.ptr);
    } else {
      req.files = files;
      req.n_files = n_files;
    }
  }
  ec_result *r;
  if (rc == EC_OUT_OF_MEMORY) {
    r = ec_result_new(alc);
    if (r) ec_result_set_out_of_memory(r);
  } else if (rc) {
    r = ec_result_new(alc);
    if (r) {
      ec_result_add_error(r, rc, "%.*s", (int)message.len, message.ptr ? message.ptr : "invalid request");
      r->status = EC_STATUS_ERROR;
      r->text = ec_arena_printf(r->arena, "%s: %.*s", ec_error_code_name(rc), (int)message.len, message.ptr ? message.ptr : "");
      if (r->oom || !r->text.ptr) ec_result_set_out_of_memory(r);
    }
  } else if (extras.kind == EC_JSON_CORRECTION_PROMPT) {
    r = ec_correction_prompt(&req, &extras.correction, host);
  } else if (extras.kind == EC_JSON_CORRECTION_APPLY) {
    r = ec_correction_apply(&req, &extras.correction, host);
  } else {
    r = ec_apply_kept(&req, host); /* the request's arena is kept with the result just below */
  }
  /* The result points into the request's strings (paths, an edit's strings): keep them alive with the result. */
  if (r) r->request_arena = a;
  else ec_arena_free(a);
  if (r && host && host->clock_ms) r->stats.time_ms = host->clock_ms(host->clock_user) - t0;
  return r;
}

ec_result *ec_apply_json(const char *request, size_t request_len, const ec_host *host) {
  return apply_json(request, request_len, NULL, host, NULL);
}

ec_result *ec_apply_json_take(char *request, size_t request_len, const ec_host *host) {
  return apply_json(request, request_len, NULL, host, request);
}

ec_result *ec_apply_json_files(const char *request, size_t request_len, const ec_file *files, size_t n_files,
                               const ec_host *host) {
  return ec_apply_json_files_as(request, request_len, files, n_files, 0, host);
}

ec_result *ec_apply_json_files_on_demand(const char *request, size_t request_len, const ec_file *files, size_t n_files,
                                         const ec_host *host) {
  return ec_apply_json_files_as(request, request_len, files, n_files, EC_FILES_SYNTAX_ON_DEMAND, host);
}

ec_result *ec_apply_json_files_as(const char *request, size_t request_len, const ec_file *files, size_t n_files,
                                  unsigned how, const ec_host *host) {
  ec_json_beside b = {files, n_files, NULL, 0, how};
  return ec_apply_json_beside(request, request_len, &b, host);
}

ec_result *ec_apply_json_beside(const char *request, size_t request_len, const ec_json_beside *beside, const ec_host *host) {
  static const ec_file none = {{"", 0}, {"", 0}};
  ec_json_beside b = *beside;
  if (!b.files) b.files = &none, b.n_files = 0;
  return apply_json(request, request_len, &b, host, NULL);
}

/* A tool call or a definitions request starts with its "tool" / "tool_definitions" member
 * (docs/tools.md): decided from the first key, so edit requests pay nothing for the check. */
/* Where an object's first member starts (after "{" and white space); len when not an object. */
static size_t first_member(const char *request, size_t len) {
  size_t i = 0;
  while (i < len && (request[i] == ' ' || request[i] == '\t' || request[i] == '\n' || request[i] == '\r')) i++;
  if (i >= len || request[i] != '{') return len;
  i++;
  while (i < len && (request[i] == ' ' || request[i] == '\t' || request[i] == '\n' || request[i] == '\r')) i++;
  return i;
}

bool ec_json_is_tool_call(const char *request, size_t len) {
  size_t i = first_member(request, len);
  return len - i >= 6 && !memcmp(request + i, "\"tool", 5) && (request[i + 5] == '"' || request[i + 5] == '_');
}

/* A write-protocol request (editcore_commit.h) starts with its "commit" member. */
bool ec_json_is_commit(const char *request, size_t len) {
  size_t i = first_member(request, len);
  return len - i >= 8 && !memcmp(request + i, "\"commit\"", 8);
}

char *ec_run_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len) {
  if (request && ec_json_is_tool_call(request, request_len)) return ec_tool_json(request, request_len, host, response_len);
  if (request && ec_json_is_commit(request, request_len)) return ec_commit_json(request, request_len, host, response_len);
  ec_result *r = ec_apply_json(request, request_len, host);
  if (!r) return NULL;
  char *out = ec_result_to_json(r, host, response_len);
  ec_result_free(r);
  return out;
}
