/* A whole file read into a NUL-terminated block the caller frees (exits on failure): the standalone
 * native drivers of bench/npm (call_cost.c, peak_mem.c) read bench/gen.mjs's inputs with it. */
#ifndef EDITCORE_BENCH_SLURP_H
#define EDITCORE_BENCH_SLURP_H
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(1); }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)len + 1);
  if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) { fprintf(stderr, "%s: read failed\n", path); exit(1); }
  b[len] = 0;
  fclose(f);
  *n = (size_t)len;
  return b;
}

#endif
