/* What every command shares: the parsed common flags and the steps read → core → write → report. */
#ifndef EDITCORE_HOST_CLI_H
#define EDITCORE_HOST_CLI_H
#include "txn.h"
#include <stdio.h>
#include <sys/types.h>

typedef struct eh_hash_arg {
  const char *path; /* NULL: the command's one file; else path_len bytes (inside argv) */
  size_t path_len;
  const char *hash;
} eh_hash_arg;

typedef struct eh_opts {
  const char *root;       /* --root, default "." */
  bool dry_run, json, quiet, files, all, diff_human, help;
  int color;              /* 0 never, 1 always, -1 auto */
  bool has_profile;
  ec_profile profile;
  const char *format;     /* --format NAME (apply: the reply's dialect) */
  const char *path;       /* --path FILE (apply: the file for edits that name none) */
  const char *fixer;      /* --fixer CMD: the model command a failed edit's correction prompt goes to */
  const char *state_file; /* tool: --state FILE, the history undo_edit needs */
  bool has_strip;         /* apply: -p N / --strip=N (options.strip) */
  int strip;
  bool reverse;           /* apply: -R / --reverse (options.reverse) */
  bool check;             /* apply: --check, as git apply's: nothing written, nothing printed on success */
  const char *old_text, *old_file, *new_text, *new_file;
  eh_hash_arg hashes[64];
  size_t n_hashes;
  const char *pos[8];     /* positional arguments after the command */
  size_t n_pos;
} eh_opts;

/** The files one edit reads: resolved paths, their bytes and stamps, and the core's ec_file view. */
typedef struct eh_inputs {
  eh_path *paths;
  char **data;
  size_t *len;
  eh_stamp *stamps;
  size_t n, cap;
  ec_file *files;   /* the ones that exist, for ec_request.files */
  size_t n_files;
  ec_file *hashes;  /* options.expected_hash */
  size_t n_hashes;
} eh_inputs;

/**
 * Resolves and reads one file an edit names. A file that does not exist is kept as a path (so
 * the edit may create it) unless must_exist. The same shown path twice is read once.
 */
ec_error_code eh_inputs_add(eh_inputs *in, const eh_root *root, const char *name, size_t len, bool must_exist, size_t *index,
                            eh_err *err);
/** The input whose normalised path is `shown`, or -1. */
ssize_t eh_inputs_find(const eh_inputs *in, const char *shown, size_t len);
/** Builds in->files and in->hashes (from the --expect-hash flags) for the request. */
ec_error_code eh_inputs_finish(eh_inputs *in, const eh_opts *o, eh_err *err);
void eh_inputs_free(eh_inputs *in);

/** Writes what a successful result changed, all or nothing; marks the result applied. */
ec_error_code eh_write_result(ec_result *r, const eh_root *root, eh_inputs *in, eh_err *err);

/** Prints a result (human or --json) and returns the exit status. */
int eh_report(ec_result *r, const eh_opts *o);
/** Prints a host failure (human or --json) and returns its exit status. */
int eh_report_err(const eh_err *err, const eh_opts *o);
/** The result's JSON response and a newline on stdout, streamed; false (said on stderr) when it could not be written. */
bool eh_print_json(const ec_result *r);
/** Writes a unified diff to stdout, coloured when o asks for colour. */
void eh_print_diff(const char *text, size_t len, const eh_opts *o);
/** Whether colour is on for stdout. */
bool eh_color_on(const eh_opts *o);

/* The commands. */
int eh_cmd_json(const eh_opts *o);
int eh_cmd_replace(const eh_opts *o);
int eh_cmd_diff(const eh_opts *o);
int eh_cmd_batch(const eh_opts *o);
int eh_cmd_apply(const eh_opts *o);
int eh_cmd_tool(const eh_opts *o);

#endif
