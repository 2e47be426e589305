/*
 * `editcore apply [--format NAME] [--path FILE] [FILE|-]`: a model's reply applied to the files
 * it names. The core reads the reply (format `reply`, docs/reply.md) and says which files it
 * names; the host resolves them inside the root (an escape is refused before anything is read),
 * reads those that exist, runs the reply over them and writes the result all or nothing.
 */
#include "cli.h"
#include "sys.h"
#include "fixer.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void request_for(ec_request *req, const eh_opts *o, ec_str reply, bool parse_only) {
  ec_request_init(req, EC_FORMAT_REPLY);
  if (o->has_profile) req->profile = o->profile;
  req->edit.text = reply;
  if (o->format) req->edit.dialect = (ec_str){o->format, strlen(o->format)};
  if (o->path) req->edit.path = (ec_str){o->path, strlen(o->path)};
  req->edit.parse_only = parse_only;
  req->options.has_strip = o->has_strip;
  req->options.strip = o->strip;
  req->options.reverse = o->reverse;
}

int eh_cmd_apply(const eh_opts *o) {
  if (o->n_pos > 1) {
    fprintf(stderr, "usage: editcore apply [--format NAME] [options] [FILE|-]   (editcore apply --help for more)\n");
    return 2;
  }
  eh_err err = {0};
  const char *src = o->n_pos ? o->pos[0] : "-";
  /* The reply is an input like an argument, not a file editcore edits: read as given. */
  FILE *f = strcmp(src, "-") ? fopen(src, "rb") : stdin;
  if (!f) { eh_fail_errno(&err, errno, src, "open the reply"); return eh_report_err(&err, o); }
  size_t len = 0;
  char *reply = eh_read_stream(f, &len);
  if (f != stdin) fclose(f);
  if (!reply) { eh_fail(&err, EC_IO_ERROR, EH_EXIT_USAGE_IO, src, "could not read the reply '%s'", src); return eh_report_err(&err, o); }

  eh_root root = {0};
  eh_inputs in = {0};
  ec_result *r = NULL;
  int status;
  ec_request req;
  if (eh_root_open(&root, o->root, &err)) { status = eh_report_err(&err, o); goto done; }
  /* 1. Which files does the reply name? */
  request_for(&req, o, (ec_str){reply, len}, true);
  r = ec_apply(&req, eh_core_host());
  if (!r) { eh_fail(&err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory"); status = eh_report_err(&err, o); goto done; }
  if (ec_result_status(r) == EC_STATUS_ERROR) { status = eh_report(r, o); goto done; }
  /* 2. Resolve and read them (those that exist; the others the reply may create). */
  ec_error_code rc = EC_OK;
  if (o->path) rc = eh_inputs_add(&in, &root, o->path, strlen(o->path), false, NULL, &err);
  for (size_t i = 0; i < ec_result_path_count(r) && !rc; i++) {
    ec_str p = ec_result_path(r, i);
    rc = eh_inputs_add(&in, &root, p.ptr, p.len, false, NULL, &err);
  }
  if (!rc) rc = eh_inputs_finish(&in, o, &err);
  /* --fixer: a reply whose edits are all of one dialect a correction repairs (SEARCH/REPLACE
   * blocks, or diffs) is corrected as that format over the reply's text. */
  ec_format fix_as = EC_FORMAT__COUNT;
  for (size_t i = 0; i < ec_result_edit_count(r); i++) {
    ec_format d = ec_result_edit(r, i)->dialect;
    if (i == 0 && (d == EC_FORMAT_SEARCH_REPLACE || d == EC_FORMAT_UNIFIED_DIFF)) fix_as = d;
    else if (d != fix_as) fix_as = EC_FORMAT__COUNT;
  }
  ec_result_free(r);
  r = NULL;
  if (rc) { status = eh_report_err(&err, o); goto done; }
  /* 3. Apply over what was read, then write it all or nothing. */
  request_for(&req, o, (ec_str){reply, len}, false);
  req.files = in.files;
  req.n_files = in.n_files;
  req.options.expected_hash = in.hashes;
  req.options.n_expected_hash = in.n_hashes;
  r = ec_apply(&req, eh_core_host());
  if (r && o->fixer && fix_as != EC_FORMAT__COUNT && ec_result_status(r) == EC_STATUS_ERROR) {
    ec_request failed = req;
    failed.format = fix_as;
    failed.edit.dialect = (ec_str){NULL, 0};
    r = eh_fix(r, eh_correct_typed, &failed, in.files, in.n_files, o);
  }
  if (!r) { eh_fail(&err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory"); status = eh_report_err(&err, o); goto done; }
  if (ec_result_status(r) != EC_STATUS_ERROR && !o->dry_run && eh_write_result(r, &root, &in, &err))
    status = eh_report_err(&err, o);
  else
    status = eh_report(r, o);
done:
  ec_result_free(r);
  eh_inputs_free(&in);
  eh_root_close(&root);
  free(reply);
  return status;
}
