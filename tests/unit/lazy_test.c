/* Lazy snippets: marker recognition, and merges/declines through the JSON entry point. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "editcore.h"
#include "lazy/lazy.h"
#include "base/str.h"

static int passed, failed;
#define CHECK(cond, what)                                                        \
  do {                                                                           \
    if (cond) passed++;                                                          \
    else { failed++; fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what); } \
  } while (0)

static bool marker(const char *s) { return ec_lz_is_marker(ec_cstr(s), true); }

static char *run(const char *req) {
  size_t n = 0;
  return ec_run_json(req, strlen(req), NULL, &n);
}

int main(void) {
  /* Markers in every comment syntax, with and without indentation. */
  const char *yes[] = {"// ... existing code ...", "    # ... rest of the file ...", "/* ... */", "<!-- ... existing code -->",
                       "-- ...", "...", "\xE2\x80\xA6", "  // rest of the code unchanged", "{/* ... existing code ... */}",
                       "; ... same ...", "/// ... keep the rest ...", "# existing code", NULL};
  const char *no[] = {"// Adds the given number to the result", "return x;", "# TODO: handle errors", "x = y ... z",
                      "// see the docs for more", "console.log('...')", "", "--", NULL};
  for (int i = 0; yes[i]; i++) CHECK(marker(yes[i]), yes[i]);
  for (int i = 0; no[i]; i++) CHECK(!marker(no[i]), no[i]);
  CHECK(!ec_lz_is_marker(ec_cstr("..."), false), "bare dots off");

  /* A merge: changed line inside a function between markers. */
  char *r = run("{\"format\":\"lazy\",\"files\":{\"a.js\":\"function f() {\\n  return 1;\\n}\\n\\nfunction g() {\\n  return 2;\\n}\\n\"},"
                "\"edit\":{\"snippet\":\"// ... existing code ...\\nfunction g() {\\n  return 3;\\n}\\n\"}}");
  CHECK(r && strstr(r, "\"status\":\"success\"") && strstr(r, "return 3") && strstr(r, "return 1"), "merge");
  CHECK(r && strstr(r, "\"strategy\":\""), "match reported");
  ec_free(NULL, r);

  /* Decline: the same lines in two places. */
  r = run("{\"format\":\"lazy\",\"files\":{\"a.js\":\"function f() {\\n  a();\\n  b();\\n}\\nfunction g() {\\n  a();\\n  b();\\n}\\n\"},"
          "\"edit\":{\"snippet\":\"// ...\\n  a();\\n  b();\\n  c();\\n// ...\\n\"}}");
  CHECK(r && strstr(r, "AMBIGUOUS") && strstr(r, "\"block\":1"), "ambiguous");
  ec_free(NULL, r);

  /* whole_file with markers answers with a hint. */
  r = run("{\"format\":\"whole_file\",\"files\":{\"a.py\":\"x = 1\\n\"},\"edit\":{\"content\":\"# ... existing code ...\\ny = 2\\n\"}}");
  CHECK(r && strstr(r, "INVALID_PARAM") && strstr(r, "format 'lazy'"), "whole_file hint");
  ec_free(NULL, r);

  /* Near-linear: a 2 MB file with a repeated body and one unique function. */
  size_t reps = 40000;
  char *file = malloc(reps * 60 + 200), *req = malloc(reps * 60 + 1000);
  size_t k = 0;
  for (size_t i = 0; i < reps; i++) k += (size_t)sprintf(file + k, "function f%zu() {\\n  return this;\\n}\\n", i);
  file[k] = 0;
  sprintf(req, "{\"format\":\"lazy\",\"files\":{\"a.js\":\"%s\"},\"edit\":{\"snippet\":\"// ...\\nfunction f39990() {\\n  return that;\\n}\\n// ...\\n\"}}", file);
  r = run(req);
  CHECK(r && strstr(r, "\"status\":\"success\"") && strstr(r, "return that"), "large file merge");
  ec_free(NULL, r);
  free(file);
  free(req);

  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
