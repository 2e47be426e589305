/*
 * The engine's own memory in one npm object-path call (BENCHMARKS.md, "W4's peak memory"): what
 * the host's allocator holds at most during ec_apply_json_beside + ec_result_to_json_splices, the
 * request's file and (with EC_FILES_BESIDE_IN_PLACE) its long edit string lent from outside, as
 * the package lends them from its own wasm blocks. Deterministic, unlike a process's resident set.
 * cJSON's parse tree (malloc, a few hundred bytes for these requests) is not counted.
 *
 *   gcc -O2 -o tmp/peak_mem bench/npm/peak_mem.c -Icore/include -Lbuild/native -leditcore -lm \
 *       -Wl,-rpath,$PWD/build/native
 *   tmp/peak_mem OUT/1m W4 [ways]     (W1, W2, W3: replace; W4: whole_file)
 *
 * In wasm32 (4-byte size_t and pointers, as the npm package runs), against the wasi preset's libraries:
 *
 *   clang-14 --target=wasm32-wasi --sysroot=/usr -O2 -Icore/include -o tmp/peak_mem.wasm bench/npm/peak_mem.c \
 *       build/wasi/libeditcore.a build/wasi/libeditcore_cjson.a build/wasi/libeditcore_ts_runtime.a -lm \
 *       -fuse-ld=lld -Wl,-z,stack-size=1048576 -Wl,--max-memory=2147483648
 *   node --no-warnings bench/npm/wasi-run.mjs tmp/peak_mem.wasm $PWD/OUT/1m W4
 *
 * ways: EC_FILES_* (default the package's: 1|2|4|8). Prints the peak in bytes and as a multiple
 * of the file's size, and the blocks of 64 KiB or more live at the peak.
 */
#include "editcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slurp.h"

/* Every block with its size in front; the live total, its peak, and the big blocks at the peak. */
enum { BIG = 64 * 1024, MAX_BIG = 64 };
static size_t live, peak, n_live_big, peak_big[MAX_BIG], n_peak_big;
static size_t *live_big[MAX_BIG];

static void note_peak(void) {
  if (live <= peak) return;
  peak = live;
  n_peak_big = 0;
  for (size_t i = 0; i < n_live_big; i++) peak_big[n_peak_big++] = *live_big[i];
}
static void big_add(size_t *h) { if (h[0] >= BIG && n_live_big < MAX_BIG) live_big[n_live_big++] = h; }
static void big_drop(size_t *h) {
  for (size_t i = 0; i < n_live_big; i++)
    if (live_big[i] == h) { live_big[i] = live_big[--n_live_big]; return; }
}
static void *t_malloc(void *u, size_t n) {
  (void)u;
  size_t *h = malloc(n + 16);
  if (!h) return NULL;
  h[0] = n;
  live += n;
  big_add(h);
  note_peak();
  return (char *)h + 16;
}
static void t_free(void *u, void *p) {
  (void)u;
  if (!p) return;
  size_t *h = (size_t *)((char *)p - 16);
  live -= h[0];
  big_drop(h);
  free(h);
}
static void *t_realloc(void *u, void *p, size_t n) {
  if (!p) return t_malloc(u, n);
  size_t *h = (size_t *)((char *)p - 16);
  size_t old = h[0];
  big_drop(h);
  size_t *g = realloc(h, n + 16);
  if (!g) { big_add(h); return NULL; }
  g[0] = n;
  live = live - old + n;
  big_add(g);
  note_peak();
  return (char *)g + 16;
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: %s OUT/SIZE W1|W2|W3|W4 [ways]\n", argv[0]); return 2; }
  char path[4096];
  const char *w = argv[2];
  unsigned ways = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 15u;
  size_t file_len, a_len, b_len;
  snprintf(path, sizeof path, "%s/file.js", argv[1]);
  char *file = slurp(path, &file_len);
  char *a = NULL, *b = NULL;
  ec_json_member edit[2];
  size_t n_edit;
  const char *req;
  if (!strcmp(w, "W4")) {
    snprintf(path, sizeof path, "%s/after.js", argv[1]);
    a = slurp(path, &a_len);
    edit[0] = (ec_json_member){{"content", 7}, {a, a_len}};
    n_edit = 1;
    req = "{\"format\":\"whole_file\",\"edit\":{\"path\":\"file.js\",\"content\":\"\"}}";
  } else {
    snprintf(path, sizeof path, "%s/%s.old", argv[1], w);
    a = slurp(path, &a_len);
    snprintf(path, sizeof path, "%s/%s.new", argv[1], w);
    b = slurp(path, &b_len);
    edit[0] = (ec_json_member){{"old_string", 10}, {a, a_len}};
    edit[1] = (ec_json_member){{"new_string", 10}, {b, b_len}};
    n_edit = 2;
    req = "{\"format\":\"replace\",\"edit\":{\"path\":\"file.js\",\"old_string\":\"\",\"new_string\":\"\"}}";
  }
  ec_file f = {{"file.js", 7}, {file, file_len}};
  ec_allocator alc = {t_malloc, t_realloc, t_free, NULL};
  ec_host host = {0};
  host.allocator = &alc;
  ec_json_beside beside = {&f, 1, edit, n_edit, ways};
  ec_result *r = ec_apply_json_beside(req, strlen(req), &beside, &host);
  size_t json_len = 0;
  char *json = r ? ec_result_to_json_splices(r, &host, &json_len) : NULL;
  if (!json) { fprintf(stderr, "out of memory\n"); return 1; }
  if (!strncmp(json, "{\"status\":\"error\"", 17)) { fprintf(stderr, "refused: %.300s\n", json); return 1; }
  printf("%s %s ways %u: peak %zu B = %.2fx the file (%zu B); blocks >= 64 KiB at the peak:", argv[1], w, ways, peak,
         (double)peak / (double)file_len, file_len);
  for (size_t i = 0; i < n_peak_big; i++) printf(" %zu", peak_big[i]);
  printf("\n");
  ec_free(&host, json);
  ec_result_free(r);
  free(file);
  free(a);
  free(b);
  return 0;
}
