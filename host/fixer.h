/*
 * --fixer CMD: when an edit fails with an error the model can repair, the core's correction
 * prompt (docs/correction.md) goes to CMD (run by /bin/sh) as JSON {system, user, schema} on its
 * stdin, CMD prints the model's reply, and the core checks and applies that reply like any edit.
 * The host only runs the command and carries bytes; what is asked and what is accepted is the
 * core's. Native only: a WASI program cannot start processes (a usage error there).
 */
#ifndef EDITCORE_HOST_FIXER_H
#define EDITCORE_HOST_FIXER_H
#include "cli.h"

/** Whether this build can run a fixer command (false under WASI). */
bool eh_fixer_supported(void);

/**
 * One step of a correction over the failed request: the prompt (reply NULL) or the check and
 * apply of the model's reply. The result is the caller's (ec_result_free).
 */
typedef ec_result *(*eh_correct_step)(void *failed, const ec_str *reply);

/**
 * Given `r`, the failed edit's result: when o->fixer is set and the core builds a correction prompt
 * for the failure, runs the fixer and returns the correction's result (r freed); else returns r.
 * A result naming a file outside `files` is refused. Notes on the fixer's own failures go to stderr.
 */
ec_result *eh_fix(ec_result *r, eh_correct_step step, void *failed, const ec_file *files, size_t n_files, const eh_opts *o);

/** eh_correct_step over a typed request (replace, apply). */
ec_result *eh_correct_typed(void *failed_request, const ec_str *reply);

#endif
