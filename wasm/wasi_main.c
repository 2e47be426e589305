/*
 * The WASI command: the same program as the native CLI (host/), over wasi-libc's file calls;
 * the root is a preopened directory (`wasmtime run --dir=. editcore.wasm apply reply.md`).
 * With no arguments it is `editcore json` (request on stdin, response on stdout), as the WASI
 * command has always been, so it still runs with no preopened directory at all.
 */
#include "host.h"
#include <stdlib.h>

/*
 * For the component adapter (`jco new --wasi-command`, `wasm-tools component new`): when the
 * module exports cabi_realloc the adapter allocates its state through it. Without it the adapter
 * takes pages with memory.grow behind malloc's back, and malloc, which takes its heap to be
 * contiguous, later hands those pages out: the adapter's state is overwritten and it traps
 * ("assertion failed at adapter line ..."). Plain preview1 runtimes never call it.
 */
__attribute__((export_name("cabi_realloc"))) void *cabi_realloc(void *ptr, size_t old_size, size_t align, size_t new_size) {
  (void)old_size;
  if (new_size == 0) return (void *)align;
  void *p = realloc(ptr, new_size);
  if (!p) abort();
  return p;
}

int main(int argc, char **argv) { return eh_main(argc, argv, 1); }
