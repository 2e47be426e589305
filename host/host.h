/*
 * The host layer: editcore's commands over a project directory, written once over POSIX file
 * calls and compiled into both the native CLI (native/cli.c) and the WASI command
 * (wasm/wasi_main.c; wasi-libc provides the calls, a preopened directory is the root). The two
 * are the same program: same commands, same output, same exit codes.
 *
 * The host does I/O only: it resolves paths inside the root, reads, writes atomically and
 * reports. Every decision about an edit is the core's (core/include/editcore.h).
 */
#ifndef EDITCORE_HOST_H
#define EDITCORE_HOST_H

/**
 * Runs one command line (argv[0] is the program name). With no command, `no_command_is_json`
 * chooses between `editcore json` (the WASI command's historical behaviour: request on stdin)
 * and the usage text. Returns the exit status: 0 applied, 1 the edit did not apply,
 * 2 usage or I/O error.
 */
int eh_main(int argc, char **argv, int no_command_is_json);

#endif
