/* --fixer CMD (fixer.h): run the host's model command over the core's correction prompt. */
#include "fixer.h"
#include "sys.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#ifndef __wasi__
#include <sys/wait.h>
#include <unistd.h>
#endif

bool eh_fixer_supported(void) {
#ifdef __wasi__
  return false;
#else
  return true;
#endif
}

/* {"system": ..., "user": ..., "schema": {...}} of a correction_prompt result; NULL when it has none. */
static char *prompt_json(const ec_result *r) {
  ec_str system, user, schema;
  if (!ec_result_prompt(r, &system, &user, &schema)) return NULL;
  cJSON *o = cJSON_CreateObject();
  char *s = NULL, *u = NULL;
  if ((s = strndup(system.ptr, system.len)) && (u = strndup(user.ptr, user.len))) {
    cJSON_AddStringToObject(o, "system", s);
    cJSON_AddStringToObject(o, "user", u);
    cJSON_AddItemToObject(o, "schema", cJSON_ParseWithLength(schema.ptr, schema.len));
  }
  free(s);
  free(u);
  char *text = o ? cJSON_PrintUnformatted(o) : NULL;
  cJSON_Delete(o);
  return text;
}

/*
 * Runs `cmd` with /bin/sh -c, `in` on its stdin (from an unnamed temporary file, so a command that
 * prints before it reads cannot deadlock against us), and returns its stdout. Its stderr is ours.
 * NULL with a note in `why` when it could not run or did not exit 0.
 */
static char *run_command(const char *cmd, const char *in, size_t in_len, size_t *out_len, char *why, size_t why_len) {
#ifdef __wasi__
  (void)cmd; (void)in; (void)in_len; (void)out_len;
  snprintf(why, why_len, "a WASI program cannot run commands");
  return NULL;
#else
  FILE *tmp = tmpfile();
  if (!tmp || fwrite(in, 1, in_len, tmp) != in_len || fflush(tmp) != 0 || fseek(tmp, 0, SEEK_SET) != 0) {
    snprintf(why, why_len, "could not stage the prompt: %s", strerror(errno));
    if (tmp) fclose(tmp);
    return NULL;
  }
  int out[2];
  if (pipe(out) != 0) { snprintf(why, why_len, "pipe: %s", strerror(errno)); fclose(tmp); return NULL; }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    snprintf(why, why_len, "fork: %s", strerror(errno));
    close(out[0]); close(out[1]); fclose(tmp);
    return NULL;
  }
  if (pid == 0) {
    dup2(fileno(tmp), 0);
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  close(out[1]);
  fclose(tmp);
  FILE *from = fdopen(out[0], "rb");
  char *reply = from ? eh_read_stream(from, out_len) : NULL;
  if (from) fclose(from); else close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    if (WIFEXITED(status)) snprintf(why, why_len, "it exited with status %d", WEXITSTATUS(status));
    else snprintf(why, why_len, "it was killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    free(reply);
    return NULL;
  }
  if (!reply) snprintf(why, why_len, "its output could not be read");
  return reply;
#endif
}

/* The first file of `r` that `files` does not name (a move's destination counts), or NULL. */
static const ec_str *outside(const ec_result *r, const ec_file *files, size_t n_files) {
  for (size_t i = 0; i < ec_result_file_count(r); i++) {
    const ec_file_result *f = ec_result_file(r, i);
    const ec_str *names[2] = {&f->path, f->action == EC_ACTION_MOVE ? &f->moved_to : NULL};
    for (int k = 0; k < 2; k++) {
      if (!names[k]) continue;
      bool named = false;
      for (size_t j = 0; j < n_files && !named; j++)
        named = files[j].path.len == names[k]->len && !memcmp(files[j].path.ptr, names[k]->ptr, names[k]->len);
      if (!named) return names[k];
    }
  }
  return NULL;
}

ec_result *eh_fix(ec_result *r, eh_correct_step step, void *failed, const ec_file *files, size_t n_files, const eh_opts *o) {
  if (!o->fixer || !r || ec_result_status(r) != EC_STATUS_ERROR) return r;
  /* Which failures a model may repair is the core's call (the prompt step answers an error for the
   * others); NOOP, the edit already there, is never worth a model call (as in the npm hook). */
  const ec_error *e = ec_result_error_count(r) ? ec_result_error(r, 0) : NULL;
  if (e && e->code == EC_NOOP) return r;
  ec_result *prompt = step(failed, NULL);
  char *in = prompt && ec_result_status(prompt) == EC_STATUS_SUCCESS ? prompt_json(prompt) : NULL;
  ec_result_free(prompt);
  if (!in) return r; /* not the model's to repair (or out of memory): the edit's own error stands */
  char why[256] = "";
  size_t len = 0;
  char *reply = run_command(o->fixer, in, strlen(in), &len, why, sizeof why);
  cJSON_free(in);
  if (!reply) {
    fprintf(stderr, "editcore: --fixer: '%s' gave no reply (%s); the edit's own error follows\n", o->fixer, why);
    return r;
  }
  ec_str text = {reply, len};
  ec_result *fixed = step(failed, &text);
  free(reply);
  if (!fixed) return r;
  const ec_str *out = outside(fixed, files, n_files);
  if (out) {
    char msg[600];
    snprintf(msg, sizeof msg, "the correction names '%.*s', which the edit did not; nothing was written", (int)(out->len > 400 ? 400 : out->len), out->ptr);
    ec_result_free(fixed);
    fixed = ec_result_new_error(EC_INVALID_REPLY, *out, (ec_str){msg, strlen(msg)}, eh_core_host());
    if (!fixed) return r;
  }
  ec_result_free(r);
  return fixed;
}

ec_result *eh_correct_typed(void *failed_request, const ec_str *reply) {
  ec_correction c;
  memset(&c, 0, sizeof c);
  if (!reply) return ec_correction_prompt(failed_request, &c, eh_core_host());
  c.reply = *reply;
  return ec_correction_apply(failed_request, &c, eh_core_host());
}
