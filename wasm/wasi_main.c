/*
 * The WASI command: one JSON request on stdin, the JSON response on stdout. It opens no files,
 * so it runs under Wasmtime or node:wasi with no preopened directory. Exit status as the CLI's:
 * 0 success or partial, 1 the edit failed, 2 could not read or write.
 */
#define _POSIX_C_SOURCE 200809L
#include "editcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ms(void *user) {
  (void)user;
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

int main(void) {
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
  ec_host host = {NULL, now_ms, NULL};
  if (ec_json_is_tool_call(buf, n)) { /* a tool call's phase (docs/tools.md) */
    size_t len = 0;
    char *out = ec_tool_json(buf, n, &host, &len);
    free(buf);
    if (!out) { fputs("editcore: out of memory\n", stderr); return 2; }
    int failed = ec_tool_response_failed(out, len);
    size_t wrote = fwrite(out, 1, len, stdout);
    fputc('\n', stdout);
    ec_free(NULL, out);
    return wrote == len && fflush(stdout) == 0 ? failed : 2;
  }
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
