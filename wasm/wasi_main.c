/*
 * The WASI command: the same program as the native CLI (host/), over wasi-libc's file calls;
 * the root is a preopened directory (`wasmtime run --dir=. editcore.wasm apply reply.md`).
 * With no arguments it is `editcore json` (request on stdin, response on stdout), as the WASI
 * command has always been, so it still runs with no preopened directory at all.
 */
#include "host.h"

int main(int argc, char **argv) { return eh_main(argc, argv, 1); }
