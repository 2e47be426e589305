/* `editcore json` and `editcore batch`: the JSON protocol, one request or one per line. */
#include "cli.h"
#include "sys.h"
#include "fixer.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* A correction step (fixer.h) over a JSON request: correction_prompt / correction_apply around it. */
static ec_result *correct_json(void *failed, const ec_str *reply) {
  const cJSON *doc = failed;
  cJSON *req = cJSON_CreateObject(), *edit = cJSON_CreateObject(), *f = cJSON_CreateObject();
  cJSON_AddStringToObject(req, "format", reply ? "correction_apply" : "correction_prompt");
  static const char *const copied[] = {"files", "profile", "options"};
  for (size_t i = 0; i < 3; i++) {
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, copied[i]);
    if (v) cJSON_AddItemToObject(req, copied[i], cJSON_Duplicate(v, true));
  }
  const cJSON *format = cJSON_GetObjectItemCaseSensitive(doc, "format"), *e = cJSON_GetObjectItemCaseSensitive(doc, "edit");
  if (format) cJSON_AddItemToObject(f, "format", cJSON_Duplicate(format, true));
  if (e) cJSON_AddItemToObject(f, "edit", cJSON_Duplicate(e, true));
  cJSON_AddItemToObject(edit, "failed", f);
  ec_result *r = NULL;
  char *text = NULL;
  if (reply) {
    char *rt = strndup(reply->ptr, reply->len); /* a reply with a NUL in it is cut there: no JSON answer holds one */
    if (rt) cJSON_AddStringToObject(edit, "reply", rt);
    free(rt);
  }
  cJSON_AddItemToObject(req, "edit", edit);
  text = cJSON_PrintUnformatted(req);
  if (text) r = ec_apply_json(text, strlen(text), eh_core_host());
  cJSON_free(text);
  cJSON_Delete(req);
  return r;
}

/*
 * json --files: the request names its files (`files` as an array of paths, or an object whose
 * values are ignored, or only `edit.path`) and the host reads them from the root, then writes
 * what changed unless --dry-run. Returns the result, or NULL with *err set.
 */
static ec_result *run_with_files(const char *req, size_t len, const eh_opts *o, const eh_root *root, eh_err *err) {
  cJSON *doc = cJSON_ParseWithLength(req, len);
  if (!doc || !cJSON_IsObject(doc)) {
    cJSON_Delete(doc);
    return ec_apply_json(req, len, eh_core_host()); /* the engine words the parse error */
  }
  eh_inputs in = {0};
  const char *names[1024];
  size_t idx[1024], n = 0;
  ec_error_code rc = EC_OK;
  cJSON *files = cJSON_GetObjectItemCaseSensitive(doc, "files");
  cJSON *edit = cJSON_GetObjectItemCaseSensitive(doc, "edit");
  cJSON *epath = edit ? cJSON_GetObjectItemCaseSensitive(edit, "path") : NULL;
  cJSON *it;
  if (files && !cJSON_IsArray(files) && !cJSON_IsObject(files))
    rc = eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, NULL, "with --files, `files` is an array of paths or an object keyed by path");
  cJSON_ArrayForEach(it, files) {
    if (rc) break;
    const char *name = cJSON_IsArray(files) ? cJSON_GetStringValue(it) : it->string;
    if (!name) { rc = eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, NULL, "with --files, `files` lists paths (strings)"); break; }
    if (n == sizeof names / sizeof *names) { rc = eh_fail(err, EC_TOO_LARGE, EH_EXIT_NOT_APPLIED, NULL, "more than 1024 files"); break; }
    names[n] = name;
    rc = eh_inputs_add(&in, root, name, strlen(name), false, &idx[n], err);
    n++;
  }
  if (!rc && n == 0 && cJSON_IsString(epath)) {
    names[n] = epath->valuestring;
    rc = eh_inputs_add(&in, root, names[n], strlen(names[n]), false, &idx[n], err);
    n++;
  }
  ec_result *r = NULL;
  cJSON *detached = NULL;
  if (!rc) {
    /* The request again, with the contents read, keyed by the names as the request wrote them. */
    cJSON *obj = cJSON_CreateObject();
    for (size_t i = 0; obj && i < n; i++) {
      if (!in.stamps[idx[i]].exists || cJSON_GetObjectItemCaseSensitive(obj, names[i])) continue;
      char *bytes = ec_json_bytes(in.data[idx[i]], in.len[idx[i]], NULL, NULL); /* a string, or {"base64": ...} */
      if (!bytes) { rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory"); break; }
      cJSON_AddRawToObject(obj, names[i], bytes);
      ec_free(NULL, bytes);
    }
    /* names[] point into the old `files`: keep it alive (detached) until the end. */
    if (files) detached = cJSON_DetachItemFromObjectCaseSensitive(doc, "files");
    cJSON_AddItemToObject(doc, "files", obj);
    if (o->has_profile) {
      cJSON_DeleteItemFromObjectCaseSensitive(doc, "profile");
      cJSON_AddStringToObject(doc, "profile", ec_profile_name(o->profile));
    }
    if (o->n_hashes) {
      cJSON *opts = cJSON_GetObjectItemCaseSensitive(doc, "options");
      if (!opts) opts = cJSON_AddObjectToObject(doc, "options");
      cJSON *eh = cJSON_CreateObject();
      for (size_t k = 0; k < o->n_hashes && !rc; k++) {
        ssize_t at = -1;
        if (!o->hashes[k].path) {
          if (n == 1) at = 0;
        } else {
          size_t pl = o->hashes[k].path_len, nl = 0;
          char *norm = malloc(pl + 2);
          if (norm && ec_path_normalize((ec_str){o->hashes[k].path, pl}, norm, &nl) == EC_OK) {
            ssize_t want = eh_inputs_find(&in, norm, nl);
            for (size_t i = 0; i < n && want >= 0; i++)
              if ((ssize_t)idx[i] == want) { at = (ssize_t)i; break; }
          }
          free(norm);
        }
        if (at < 0)
          rc = eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, NULL,
                       "--expect-hash: say which file (PATH=sha256:...), one the request names");
        else
          cJSON_AddStringToObject(eh, names[at], o->hashes[k].hash);
      }
      if (opts) {
        cJSON_DeleteItemFromObjectCaseSensitive(opts, "expected_hash");
        cJSON_AddItemToObject(opts, "expected_hash", eh);
      } else {
        cJSON_Delete(eh);
      }
    }
    char *text = rc ? NULL : cJSON_PrintUnformatted(doc);
    if (!rc && !text) rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory");
    if (text) {
      r = ec_apply_json(text, strlen(text), eh_core_host());
      cJSON_free(text);
      if (r && o->fixer && ec_result_status(r) == EC_STATUS_ERROR) {
        ec_file named[1024];
        size_t n_named = 0;
        for (size_t i = 0; i < n; i++) named[n_named++] = (ec_file){{names[i], strlen(names[i])}, {NULL, 0}};
        r = eh_fix(r, correct_json, doc, named, n_named, o);
      }
      if (!r) rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory");
    }
  }
  cJSON_Delete(doc);
  cJSON_Delete(detached);
  if (!rc && ec_result_status(r) != EC_STATUS_ERROR && !o->dry_run) {
    rc = eh_write_result(r, root, &in, err);
    if (rc) { ec_result_free(r); r = NULL; }
  }
  eh_inputs_free(&in);
  return rc ? NULL : r;
}

/* Today's `editcore json --diff`: the summary on stderr, each changed file's diff on stdout. */
static int print_human(ec_result *r, const eh_opts *o) {
  int status = ec_result_status(r) == EC_STATUS_ERROR ? 1 : 0;
  ec_str text = ec_result_text(r);
  fprintf(stderr, "%.*s\n", (int)text.len, text.ptr);
  for (size_t i = 0; i < ec_result_file_count(r); i++) {
    const ec_file_result *f = ec_result_file(r, i);
    eh_print_diff(f->diff.ptr, f->diff.len, o);
  }
  return fflush(stdout) == 0 ? status : 2;
}

static int print_json_line(ec_result *r) {
  size_t n = 0;
  char *json = ec_result_to_json(r, NULL, &n);
  if (!json) { fputs("editcore: out of memory\n", stderr); return 2; }
  fwrite(json, 1, n, stdout);
  fputc('\n', stdout);
  ec_free(NULL, json);
  return ec_result_status(r) == EC_STATUS_ERROR ? 1 : 0;
}

int eh_cmd_json(const eh_opts *o) {
  size_t len = 0;
  char *req = eh_read_stream(stdin, &len);
  if (!req) { fprintf(stderr, "editcore: could not read the request from stdin\n"); return 2; }
  ec_result *r = NULL;
  eh_err err = {0};
  eh_root root = {0};
  if (o->files) {
    if (eh_root_open(&root, o->root, &err) == EC_OK) r = run_with_files(req, len, o, &root, &err);
    eh_root_close(&root);
  } else if (ec_json_is_tool_call(req, len)) { /* one phase of a tool call (docs/tools.md) */
    size_t n = 0;
    char *out = ec_tool_json(req, len, eh_core_host(), &n);
    free(req);
    if (!out) { fputs("editcore: out of memory\n", stderr); return 2; }
    int failed = ec_tool_response_failed(out, n);
    fwrite(out, 1, n, stdout);
    fputc('\n', stdout);
    ec_free(NULL, out);
    return fflush(stdout) != 0 ? 2 : failed;
  } else {
    r = ec_apply_json(req, len, eh_core_host());
    if (!r) eh_fail(&err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory");
  }
  free(req);
  if (!r) {
    eh_opts jo = *o;
    jo.json = !o->diff_human;
    return eh_report_err(&err, &jo);
  }
  int status = o->diff_human ? print_human(r, o) : print_json_line(r);
  ec_result_free(r);
  if (fflush(stdout) != 0) return 2;
  return status;
}

int eh_cmd_batch(const eh_opts *o) {
  size_t len = 0;
  char *all = eh_read_stream(stdin, &len);
  if (!all) { fprintf(stderr, "editcore: could not read the requests from stdin\n"); return 2; }
  eh_root root = {0};
  eh_err err = {0};
  if (o->files && eh_root_open(&root, o->root, &err) != EC_OK) {
    free(all);
    eh_opts jo = *o;
    jo.json = false;
    return eh_report_err(&err, &jo);
  }
  int worst = 0;
  size_t i = 0;
  while (i < len) {
    char *nl = memchr(all + i, '\n', len - i);
    size_t e = nl ? (size_t)(nl - all) : len;
    size_t s = i;
    i = e + 1;
    size_t n = e - s;
    if (n && all[s + n - 1] == '\r') n--;
    bool blank = true;
    for (size_t k = s; k < s + n && blank; k++) blank = all[k] == ' ' || all[k] == '\t';
    if (blank) continue; /* blank lines carry no request and get no answer */
    ec_result *r;
    memset(&err, 0, sizeof err);
    if (o->files) {
      r = run_with_files(all + s, n, o, &root, &err);
      eh_root_forget_dirs(&root);
    } else {
      r = ec_apply_json(all + s, n, eh_core_host());
      if (!r) eh_fail(&err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory");
    }
    int st;
    if (!r) {
      eh_opts jo = *o;
      jo.json = true;
      st = eh_report_err(&err, &jo);
    } else {
      st = print_json_line(r);
      ec_result_free(r);
    }
    if (st > worst) worst = st;
  }
  free(all);
  eh_root_close(&root);
  if (fflush(stdout) != 0) return 2;
  return worst;
}
