/*
 * editcore — the command-line host.
 *
 *   editcore json [--diff]   request JSON on stdin; the response JSON on stdout, or with --diff
 *                            the summary and each changed file's unified diff (for people)
 *   editcore capabilities    the formats and profiles this build implements, as JSON
 *   editcore version
 *
 * Exit status: 0 success or partial, 1 the edit failed (the response says why), 2 usage or I/O.
 * This CLI never touches the files named in a request: the host duties (sandbox root, atomic
 * writes, optimistic locks) are a later layer.
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
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static char *read_all(FILE *in, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  if (!buf) return NULL;
  for (;;) {
    if (n == cap) {
      char *p = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
      if (!p) { free(buf); return NULL; }
      buf = p;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, in);
    n += got;
    if (got == 0) break;
  }
  if (ferror(in)) { free(buf); return NULL; }
  *len = n;
  return buf;
}

static int print_capabilities(void) {
  printf("{\"version\":\"%s\",\"supports\":{", ec_version());
  for (int p = 0; p < EC_PROFILE__COUNT; p++) {
    printf("%s\"%s\":[", p ? "," : "", ec_profile_name((ec_profile)p));
    int first = 1;
    for (int f = 0; f < EC_FORMAT__COUNT; f++) {
      if (!ec_supports((ec_format)f, (ec_profile)p)) continue;
      printf("%s\"%s\"", first ? "" : ",", ec_format_name((ec_format)f));
      first = 0;
    }
    printf("]");
  }
  printf("}}\n");
  return 0;
}

static int run_json(int human, const ec_limits *ceilings) {
  size_t len = 0;
  char *req = read_all(stdin, &len);
  if (!req) { fprintf(stderr, "editcore: could not read the request from stdin\n"); return 2; }
  ec_host host = {NULL, now_ms, NULL, ceilings};
  ec_result *r = ec_apply_json(req, len, &host);
  free(req);
  if (!r) { fprintf(stderr, "editcore: out of memory\n"); return 2; }
  int status = ec_result_status(r) == EC_STATUS_ERROR ? 1 : 0;
  if (human) {
    ec_str text = ec_result_text(r);
    fprintf(stderr, "%.*s\n", (int)text.len, text.ptr);
    for (size_t i = 0; i < ec_result_file_count(r); i++) {
      const ec_file_result *f = ec_result_file(r, i);
      fwrite(f->diff.ptr, 1, f->diff.len, stdout);
    }
  } else {
    size_t n = 0;
    char *json = ec_result_to_json(r, NULL, &n);
    if (!json) { ec_result_free(r); fprintf(stderr, "editcore: out of memory\n"); return 2; }
    fwrite(json, 1, n, stdout);
    fputc('\n', stdout);
    ec_free(NULL, json);
  }
  ec_result_free(r);
  if (fflush(stdout) != 0) return 2;
  return status;
}

/* --ceiling NAME=VALUE: the host's ceiling for options.limits.NAME (docs/limits.md). */
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

static int usage(void) {
  fprintf(stderr, "usage: editcore json [--diff] [--ceiling NAME=VALUE]... < request.json\n"
                  "         (--ceiling: the most options.limits.NAME a request may ask for; see docs/limits.md)\n"
                  "       editcore capabilities\n"
                  "       editcore version\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage();
  if (!strcmp(argv[1], "json")) {
    int human = 0;
    ec_limits ceilings;
    memset(&ceilings, 0, sizeof ceilings);
    for (int i = 2; i < argc; i++) {
      if (!strcmp(argv[i], "--diff")) human = 1;
      else if (!strcmp(argv[i], "--ceiling") && i + 1 < argc && parse_ceiling(argv[i + 1], &ceilings)) i++;
      else return usage();
    }
    return run_json(human, &ceilings);
  }
  if (!strcmp(argv[1], "capabilities") && argc == 2) return print_capabilities();
  if (!strcmp(argv[1], "version") && argc == 2) { printf("%s\n", ec_version()); return 0; }
  return usage();
}
