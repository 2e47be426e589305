/*
 * The engine's part of one npm object-path call, natively, for instruction counts (BENCHMARKS.md,
 * "The 10 KB rows"): the request without its file as JSON text, the file beside it
 * (ec_apply_json_files_as with the package's ways), then the response in the splices form
 * (ec_result_to_json_splices), `runs` times on bench/gen.mjs's inputs of one size.
 *
 *   gcc -O2 -o /tmp/call_cost bench/npm/call_cost.c -Icore/include -Lbuild/native -leditcore -lm \
 *       -Wl,-rpath,$PWD/build/native
 *   valgrind --tool=callgrind /tmp/call_cost OUT/10k W1 200     (W1, W2, W3: replace; W4: whole_file)
 *
 * A fourth argument sets the ways (EC_FILES_*; default the package's: syntax on demand, contents
 * as splices); a fifth prints the first response.
 */
#include "editcore.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "slurp.h"

/* s as a JSON string literal (the inputs are UTF-8). */
static void json_string(FILE *o, const char *s, size_t n) {
  fputc('"', o);
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\') { fputc('\\', o); fputc(c, o); }
    else if (c == '\n') fputs("\\n", o);
    else if (c == '\t') fputs("\\t", o);
    else if (c == '\r') fputs("\\r", o);
    else if (c < 0x20) fprintf(o, "\\u%04x", c);
    else fputc(c, o);
  }
  fputc('"', o);
}

int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: call_cost DIR W1|W2|W3|W4 [runs] [ways] [print]\n"); return 2; }
  const char *dir = argv[1], *w = argv[2];
  int runs = argc > 3 ? atoi(argv[3]) : 200;
  unsigned ways = argc > 4 ? (unsigned)atoi(argv[4]) : EC_FILES_SYNTAX_ON_DEMAND | EC_FILES_CONTENT_AS_SPLICES;
  char path[1024];
  size_t file_len, a_len, b_len;
  snprintf(path, sizeof path, "%s/file.js", dir);
  char *file = slurp(path, &file_len);
  char *req = NULL;
  size_t req_len = 0;
  FILE *o = open_memstream(&req, &req_len);
  if (!strcmp(w, "W4")) {
    snprintf(path, sizeof path, "%s/after.js", dir);
    char *after = slurp(path, &a_len);
    fputs("{\"format\":\"whole_file\",\"edit\":{\"path\":\"file.js\",\"content\":", o);
    json_string(o, after, a_len);
    fputs("}}", o);
  } else {
    snprintf(path, sizeof path, "%s/%s.old", dir, w);
    char *old = slurp(path, &a_len);
    snprintf(path, sizeof path, "%s/%s.new", dir, w);
    char *neu = slurp(path, &b_len);
    fputs("{\"format\":\"replace\",\"edit\":{\"path\":\"file.js\",\"old_string\":", o);
    json_string(o, old, a_len);
    fputs(",\"new_string\":", o);
    json_string(o, neu, b_len);
    fputs("}}", o);
  }
  fclose(o);
  ec_file f = {{"file.js", 7}, {file, file_len}};
  for (int i = 0; i < runs; i++) {
    ec_result *r = ec_apply_json_files_as(req, req_len, &f, 1, ways, NULL);
    size_t json_len = 0;
    char *json = r ? ec_result_to_json_splices(r, NULL, &json_len) : NULL;
    if (!json) { fprintf(stderr, "out of memory\n"); return 1; }
    if (i == 0 && argc > 5) fwrite(json, 1, json_len, stdout);
    ec_free(NULL, json);
    ec_result_free(r);
  }
  return 0;
}
