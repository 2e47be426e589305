/* `editcore replace FILE (--old TEXT|--old-file F) (--new TEXT|--new-file F) [--all]`. */
#include "cli.h"
#include "sys.h"
#include "fixer.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The text of --old/--new, or of the file --old-file/--new-file names ("-" = stdin). That file is an
 * input like a command-line argument, not something editcore edits, so it is read as given. */
static char *arg_text(const char *text, const char *file, size_t *len, eh_err *err) {
  if (text) {
    *len = strlen(text);
    char *s = malloc(*len + 1);
    if (s) memcpy(s, text, *len + 1);
    return s;
  }
  FILE *f = strcmp(file, "-") ? fopen(file, "rb") : stdin;
  if (!f) { eh_fail_errno(err, errno, file, "open"); return NULL; }
  char *s = eh_read_stream(f, len);
  if (f != stdin) fclose(f);
  if (!s) eh_fail(err, EC_IO_ERROR, EH_EXIT_USAGE_IO, file, "could not read '%s'", file);
  return s;
}

int eh_cmd_replace(const eh_opts *o) {
  eh_err err = {0};
  if (o->n_pos != 1 || (!o->old_text == !o->old_file) || (!o->new_text == !o->new_file)) {
    fprintf(stderr, "usage: editcore replace FILE (--old TEXT|--old-file F) (--new TEXT|--new-file F) [--all]\n"
                    "       (editcore replace --help for more)\n");
    return 2;
  }
  size_t old_len = 0, new_len = 0;
  char *old_s = arg_text(o->old_text, o->old_file, &old_len, &err);
  char *new_s = old_s ? arg_text(o->new_text, o->new_file, &new_len, &err) : NULL;
  if (!old_s || !new_s) { free(old_s); free(new_s); return eh_report_err(&err, o); }
  eh_root root;
  eh_inputs in = {0};
  int status;
  if (eh_root_open(&root, o->root, &err) || eh_inputs_add(&in, &root, o->pos[0], strlen(o->pos[0]), true, NULL, &err) ||
      eh_inputs_finish(&in, o, &err)) {
    status = eh_report_err(&err, o);
  } else {
    ec_request req;
    ec_request_init(&req, EC_FORMAT_REPLACE);
    if (o->has_profile) req.profile = o->profile;
    req.files = in.files;
    req.n_files = in.n_files;
    req.edit.path = in.files[0].path;
    req.edit.old_string = (ec_str){old_s, old_len};
    req.edit.new_string = (ec_str){new_s, new_len};
    req.edit.has_old_string = req.edit.has_new_string = true;
    req.edit.replace_all = o->all;
    req.options.expected_hash = in.hashes;
    req.options.n_expected_hash = in.n_hashes;
    ec_result *r = eh_fix(ec_apply(&req, eh_core_host()), eh_correct_typed, &req, in.files, in.n_files, o);
    if (!r) {
      eh_fail(&err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory");
      status = eh_report_err(&err, o);
    } else if (ec_result_status(r) != EC_STATUS_ERROR && !o->dry_run && eh_write_result(r, &root, &in, &err)) {
      status = eh_report_err(&err, o);
    } else {
      status = eh_report(r, o);
    }
    ec_result_free(r);
  }
  eh_inputs_free(&in);
  eh_root_close(&root);
  free(old_s);
  free(new_s);
  return status;
}
