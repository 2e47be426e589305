/*
 * Test driver for the diff module: prints ec_diff_unified's output for two files, so the shell
 * test can hand it to `patch` and `git apply`.
 *
 *   diff_driver [-U n] OLD NEW [OLD_LABEL NEW_LABEL]
 *
 * A file that does not exist is an absent side (its header becomes /dev/null). Labels default
 * to the file names. Exit status: 0 when the texts are equal, 1 when they differ, 2 on error
 * (as diff(1) does).
 */
#include "diff/diff.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file; *absent when it does not exist. NULL (and not absent) on error. */
static char *read_file(const char *path, size_t *len, bool *absent) {
  *absent = false;
  FILE *f = fopen(path, "rb");
  if (!f) {
    *absent = errno == ENOENT;
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap) break;
    char *grown = realloc(buf, cap * 2);
    if (!grown) { free(buf); buf = NULL; break; }
    buf = grown;
    cap *= 2;
  }
  if (buf && ferror(f)) { free(buf); buf = NULL; }
  fclose(f);
  *len = n;
  return buf;
}

int main(int argc, char **argv) {
  int ctx = 3, i = 1;
  if (i + 1 < argc && strcmp(argv[i], "-U") == 0) {
    ctx = atoi(argv[i + 1]);
    i += 2;
  }
  if (argc - i != 2 && argc - i != 4) {
    fprintf(stderr, "usage: %s [-U n] OLD NEW [OLD_LABEL NEW_LABEL]\n", argv[0]);
    return 2;
  }
  const char *paths[2] = {argv[i], argv[i + 1]};
  const char *labels[2] = {argc - i == 4 ? argv[i + 2] : paths[0], argc - i == 4 ? argv[i + 3] : paths[1]};
  char *data[2] = {NULL, NULL};
  ec_str text[2];
  bool absent[2];
  for (int k = 0; k < 2; k++) {
    size_t len = 0;
    data[k] = read_file(paths[k], &len, &absent[k]);
    if (!data[k] && !absent[k]) {
      fprintf(stderr, "cannot read %s\n", paths[k]);
      return 2;
    }
    text[k].ptr = data[k];
    text[k].len = len;
  }
  ec_arena *a = ec_arena_new(NULL);
  if (!a) return 2;
  ec_diff_opts opts = {ctx, 0, 0};
  ec_diff_out out;
  ec_str l0 = {labels[0], strlen(labels[0])}, l1 = {labels[1], strlen(labels[1])};
  ec_error_code rc = ec_diff_unified(a, l0, l1, absent[0] ? NULL : &text[0], absent[1] ? NULL : &text[1], &opts, &out);
  int status = 2;
  if (rc == EC_OK) {
    fwrite(out.text.ptr, 1, out.text.len, stdout);
    status = out.text.len ? 1 : 0;
  } else {
    fprintf(stderr, "ec_diff_unified failed: %d\n", (int)rc);
  }
  ec_arena_free(a);
  free(data[0]);
  free(data[1]);
  return status;
}
