/*
 * The WASI command: one JSON request on stdin, the JSON response on stdout. It opens no files,
 * so it runs under Wasmtime or node:wasi with no preopened directory. Exit status as the CLI's:
 * 0 success or partial, 1 the edit failed, 2 could not read or write.
 */
#define _POSIX_C_SOURCE 200809L
#include "editcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void *user) {
  (void)user;
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* --ceiling NAME=VALUE, as the native CLI's `json` (docs/limits.md). */
static int parse_ceiling(const char *arg, ec_limits *l) {
  const char *eq = strchr(arg, '=');
  char name[64];
  if (!eq || (size_t)(eq - arg) >= sizeof name) return 0;
  memcpy(name, arg, (size_t)(eq - arg));
  name[eq - arg] = 0;
  char *end = NULL;
  unsigned long long v = strtoull(eq + 1, &end, 10);
  if (!eq[1] || *end || eq[1] == '-') return 0;
  return ec_limits_set(l, name, v);
}

int main(int argc, char **argv) {
  ec_limits ceilings;
  memset(&ceilings, 0, sizeof ceilings);
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--ceiling") && i + 1 < argc && parse_ceiling(argv[i + 1], &ceilings)) { i++; continue; }
    fputs("usage: editcore.wasm [--ceiling NAME=VALUE]... < request.json\n", stderr);
    return 2;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n == cap) {
      char *p = realloc(buf, cap * 2);
      if (!p) { free(buf); buf = NULL; break; }
      buf = p;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, stdin);
    n += got;
    if (got == 0) break;
  }
  if (!buf) { fputs("editcore: could not read the request\n", stderr); return 2; }
  ec_host host = {NULL, now_ms, NULL, &ceilings};
  ec_result *r = ec_apply_json(buf, n, &host);
  free(buf);
  if (!r) { fputs("editcore: out of memory\n", stderr); return 2; }
  size_t len = 0;
  char *json = ec_result_to_json(r, NULL, &len);
  int status = ec_result_status(r) == EC_STATUS_ERROR ? 1 : 0;
  ec_result_free(r);
  if (!json) { fputs("editcore: out of memory\n", stderr); return 2; }
  size_t wrote = fwrite(json, 1, len, stdout);
  fputc('\n', stdout);
  ec_free(NULL, json);
  return wrote == len && fflush(stdout) == 0 ? status : 2;
}
