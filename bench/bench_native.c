/*
 * bench_native — the native in-process harness of the editcore benchmarks (issue 7).
 *
 *   bench_native <outdir> <size> <workload> [--iters N] [--warmup N] [--budget-ms MS]
 *                [--max-ms MS] [--only editcore|json|memmem|load|none]
 *
 * Loads bench/out/<size>/<workload>.* (written by bench/gen.mjs), checks once that editcore's
 * result equals <workload>.expect, then times the contenders interleaved (one run of each per
 * round, after warm-up) and prints one JSON line per contender:
 *   {"size":"1m","workload":"W1","contender":"editcore","ok":true,"n":..,"median_ms":..,
 *    "min_ms":..,"max_ms":..,"strategy":"exact","status":"success"}
 * Contenders: editcore (typed API: ec_apply), editcore_json (ec_run_json over the request JSON,
 * the path every wasm build takes), memmem (W1 only: the physical limit — a memmem scan of the
 * whole file, which any correct tool needs to prove the block unique, plus a copy of the output).
 * --only runs one contender once without timing output noise (for callgrind / time -v); the
 * functions bench_once_* are the callgrind --toggle-collect targets. --only load just loads the
 * inputs (the memory baseline); --only none exits at once (the process baseline). A workload
 * whose first editcore run takes longer than --max-ms (default 10 s) is reported from that run.
 */
#define _GNU_SOURCE
#include "editcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct buf {
  char *p;
  size_t n;
  int ok;
} buf;

static buf slurp(const char *dir, const char *size, const char *w, const char *ext) {
  char path[4096];
  buf b = {NULL, 0, 0};
  if (w) snprintf(path, sizeof path, "%s/%s/%s.%s", dir, size, w, ext);
  else snprintf(path, sizeof path, "%s/%s/%s", dir, size, ext);
  FILE *f = fopen(path, "rb");
  if (!f) return b;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  b.p = malloc((size_t)len + 1);
  if (!b.p) { fclose(f); return b; }
  b.n = fread(b.p, 1, (size_t)len, f);
  b.p[b.n] = 0;
  b.ok = b.n == (size_t)len;
  fclose(f);
  return b;
}

static void chomp(buf *b) {
  while (b->n && (b->p[b->n - 1] == '\n' || b->p[b->n - 1] == '\r')) b->p[--b->n] = 0;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static ec_str S(const buf *b) { ec_str s = {b->p, b->n}; return s; }

typedef struct work {
  buf file, old, neu, text, content, expect, req;
  ec_format format;
  ec_profile profile;
  ec_file f;
  ec_request rq;
} work;

/* One editcore apply through the typed API. Returns the result (caller frees) for checking. */
__attribute__((noinline)) static ec_result *bench_once_editcore(const work *w) {
  return ec_apply(&w->rq, NULL);
}

__attribute__((noinline)) static char *bench_once_json(const work *w, size_t *len) {
  return ec_run_json(w->req.p, w->req.n, NULL, len);
}

/* memmem + copy: count occurrences over the whole file (uniqueness), splice into a new buffer. */
__attribute__((noinline)) static char *bench_once_memmem(const work *w, size_t *out_len) {
  const char *hay = w->file.p, *hit = NULL;
  size_t n = w->file.n, count = 0;
  const char *p = hay;
  for (;;) {
    const char *q = memmem(p, n - (size_t)(p - hay), w->old.p, w->old.n);
    if (!q) break;
    if (!count) hit = q;
    count++;
    p = q + 1;
  }
  if (count != 1) return NULL;
  size_t pre = (size_t)(hit - hay), post = n - pre - w->old.n;
  char *out = malloc(pre + w->neu.n + post + 1);
  if (!out) return NULL;
  memcpy(out, hay, pre);
  memcpy(out + pre, w->neu.p, w->neu.n);
  memcpy(out + pre + w->neu.n, hit + w->old.n, post);
  *out_len = pre + w->neu.n + post;
  return out;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void json_escape_print(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') printf("\\%c", c);
    else if (c < 0x20) printf("\\u%04x", c);
    else putchar(c);
  }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_native <outdir> <size> <workload> [--iters N] [--warmup N] [--budget-ms MS] [--only C]\n");
    return 2;
  }
  const char *dir = argv[1], *size = argv[2], *wl = argv[3], *only = NULL;
  int iters = 0, warmup = 2;
  double budget = 1500, max_ms = 10000;
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--iters")) iters = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--warmup")) warmup = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--budget-ms")) budget = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--only")) only = argv[i + 1];
    else if (!strcmp(argv[i], "--max-ms")) max_ms = atof(argv[i + 1]);
  }
  if (only && !strcmp(only, "none")) return 0; /* the process-only memory baseline */

  work w;
  memset(&w, 0, sizeof w);
  buf fmt = slurp(dir, size, wl, "format"), prof = slurp(dir, size, wl, "profile");
  if (!fmt.ok || !prof.ok) { fprintf(stderr, "bench_native: no workload %s/%s/%s\n", dir, size, wl); return 2; }
  chomp(&fmt);
  chomp(&prof);
  w.file = slurp(dir, size, NULL, "file.js");
  w.old = slurp(dir, size, wl, "old");
  w.neu = slurp(dir, size, wl, "new");
  w.text = slurp(dir, size, wl, "text");
  w.content = slurp(dir, size, wl, "content");
  w.req = slurp(dir, size, wl, "req.json");
  if (!only) w.expect = slurp(dir, size, wl, "expect");
  if (!ec_format_from_name(S(&fmt), &w.format) || !ec_profile_from_name(S(&prof), &w.profile)) return 2;

  ec_request_init(&w.rq, w.format);
  w.rq.profile = w.profile;
  w.f.path.ptr = "file.js";
  w.f.path.len = 7;
  w.f.content = S(&w.file);
  w.rq.files = &w.f;
  w.rq.n_files = 1;
  if (w.format == EC_FORMAT_REPLACE || w.format == EC_FORMAT_WHOLE_FILE) w.rq.edit.path = w.f.path;
  w.rq.options.diff_max_bytes = (size_t)1 << 30;
  if (w.old.ok) { w.rq.edit.old_string = S(&w.old); w.rq.edit.has_old_string = true; }
  if (w.neu.ok) { w.rq.edit.new_string = S(&w.neu); w.rq.edit.has_new_string = true; }
  if (w.text.ok) w.rq.edit.text = S(&w.text);
  if (w.content.ok) { w.rq.edit.content = S(&w.content); w.rq.edit.has_content = true; }

  if (only) {
    if (!strcmp(only, "load")) return 0;
    if (!strcmp(only, "editcore")) {
      ec_result *r = bench_once_editcore(&w);
      int ok = r && ec_result_status(r) == EC_STATUS_SUCCESS;
      ec_result_free(r);
      return ok ? 0 : 1;
    }
    if (!strcmp(only, "json")) {
      size_t len = 0;
      char *j = bench_once_json(&w, &len);
      ec_free(NULL, j);
      return j ? 0 : 1;
    }
    if (!strcmp(only, "memmem")) {
      size_t len = 0;
      char *o = bench_once_memmem(&w, &len);
      free(o);
      return o ? 0 : 1;
    }
    return 2;
  }

  /* Check once: editcore must produce exactly the expected content. */
  const char *names[3] = {"editcore", "editcore_json", "memmem"};
  int active[3] = {1, 1, w.format == EC_FORMAT_REPLACE && !strcmp(wl, "W1")};
  int ok[3] = {0, 0, 0};
  char status[32] = "", strategy[32] = "", err[512] = "";
  if (!ec_supports(w.format, w.profile)) {
    printf("{\"size\":\"%s\",\"workload\":\"%s\",\"contender\":\"editcore\",\"ok\":false,\"unavailable\":true,"
           "\"status\":\"not yet available (%s under profile %s)\"}\n",
           size, wl, ec_format_name(w.format), ec_profile_name(w.profile));
    return 0;
  }
  double check_ms;
  {
    double t0 = now_ms();
    ec_result *r = ec_apply(&w.rq, NULL);
    check_ms = now_ms() - t0;
    ec_status st = r ? ec_result_status(r) : EC_STATUS_ERROR;
    snprintf(status, sizeof status, "%s", st == EC_STATUS_SUCCESS ? "success" : st == EC_STATUS_PARTIAL ? "partial" : "error");
    const ec_file_result *fr = r ? ec_result_file(r, 0) : NULL;
    if (fr && fr->has_content && fr->content.len == w.expect.n && !memcmp(fr->content.ptr, w.expect.p, w.expect.n)) ok[0] = 1;
    if (fr && fr->n_matches) snprintf(strategy, sizeof strategy, "%s", ec_strategy_name(fr->matches[0].strategy));
    if (r && ec_result_error_count(r)) {
      const ec_error *e = ec_result_error(r, 0);
      snprintf(err, sizeof err, "%s: %.*s", ec_error_code_name(e->code), (int)(e->message.len > 400 ? 400 : e->message.len), e->message.ptr);
    }
    ec_result_free(r);
    size_t len = 0;
    char *j = ec_run_json(w.req.p, w.req.n, NULL, &len);
    ok[1] = j && strstr(j, "\"status\":\"success\"") != NULL;
    ec_free(NULL, j);
    if (active[2]) {
      char *o = bench_once_memmem(&w, &len);
      ok[2] = o && len == w.expect.n && !memcmp(o, w.expect.p, len);
      free(o);
    }
  }

  /* A contender slower than --max-ms on its first run is reported from that one run (n = 1). */
  if (check_ms > max_ms) {
    printf("{\"size\":\"%s\",\"workload\":\"%s\",\"contender\":\"editcore\",\"ok\":%s,\"n\":1,\"median_ms\":%.5f,\"min_ms\":%.5f,"
           "\"max_ms\":%.5f,\"status\":\"%s\",\"strategy\":\"%s\",\"error\":\"",
           size, wl, ok[0] ? "true" : "false", check_ms, check_ms, check_ms, status, strategy);
    json_escape_print(err, strlen(err));
    printf("\",\"single_run\":true}\n");
    return 0;
  }

  /* Warm-up, then choose the round count from the slowest contender to fit the budget. */
  double slowest = 0;
  for (int k = 0; k < warmup + 1; k++) {
    for (int c = 0; c < 3; c++) {
      if (!active[c]) continue;
      double t0 = now_ms();
      size_t len = 0;
      if (c == 0) ec_result_free(bench_once_editcore(&w));
      else if (c == 1) ec_free(NULL, bench_once_json(&w, &len));
      else free(bench_once_memmem(&w, &len));
      double dt = now_ms() - t0;
      if (k == warmup && dt > slowest) slowest = dt;
    }
  }
  if (iters <= 0) {
    double per_round = slowest * (active[2] ? 3 : 2);
    iters = per_round > 0 ? (int)(budget / per_round) : 200;
    if (iters < 5) iters = 5;
    if (iters > 300) iters = 300;
  }
  double *t[3];
  for (int c = 0; c < 3; c++) t[c] = calloc((size_t)iters, sizeof(double));
  for (int k = 0; k < iters; k++) {
    for (int j = 0; j < 3; j++) {
      int c = (j + k) % 3; /* rotate the order every round */
      if (!active[c]) continue;
      size_t len = 0;
      double t0 = now_ms();
      if (c == 0) ec_result_free(bench_once_editcore(&w));
      else if (c == 1) ec_free(NULL, bench_once_json(&w, &len));
      else free(bench_once_memmem(&w, &len));
      t[c][k] = now_ms() - t0;
    }
  }
  for (int c = 0; c < 3; c++) {
    if (!active[c]) continue;
    qsort(t[c], (size_t)iters, sizeof(double), cmp_d);
    double med = iters % 2 ? t[c][iters / 2] : (t[c][iters / 2 - 1] + t[c][iters / 2]) / 2;
    printf("{\"size\":\"%s\",\"workload\":\"%s\",\"contender\":\"%s\",\"ok\":%s,\"n\":%d,\"median_ms\":%.5f,\"min_ms\":%.5f,\"max_ms\":%.5f",
           size, wl, names[c], ok[c] ? "true" : "false", iters, med, t[c][0], t[c][iters - 1]);
    if (c < 2) {
      printf(",\"status\":\"%s\",\"strategy\":\"%s\",\"error\":\"", status, strategy);
      json_escape_print(err, strlen(err));
      printf("\"");
    }
    printf("}\n");
    free(t[c]);
  }
  return 0;
}
