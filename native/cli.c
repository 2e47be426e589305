/*
 * editcore — the command-line host. The program is host/ (shared with the WASI command);
 * `editcore --help` lists the commands. Exit status: 0 applied, 1 the edit did not apply,
 * 2 usage or I/O error.
 */
#include "host.h"

int main(int argc, char **argv) { return eh_main(argc, argv, 0); }
