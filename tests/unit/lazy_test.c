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

static bool marker(const char *s) { return ec_lz_is_marker(ec_cstr(s), &(ec_str){0}); }
/* The same line under another snippet line. */
static bool marker_under(const char *s, const char *above) {
  ec_str a = ec_cstr(above);
  return ec_lz_is_marker(ec_cstr(s), &a);
}

static char *run(const char *req) {
  size_t n = 0;
  return ec_run_json(req, strlen(req), NULL, &n);
}

int main(void) {
  /* Markers in every comment syntax, with and without indentation. */
  const char *yes[] = {"// ... existing code ...", "    # ... rest of the file ...", "/* ... */", "<!-- ... existing code -->",
                       "-- ...", "...", "\xE2\x80\xA6", "  // rest of the code unchanged", "{/* ... existing code ... */}",
                       "; ... same ...", "/// ... keep the rest ...", "# existing code", "// ... helpers and setup ...",
                       "  // ... (snip) ...", "# \xE2\x80\xA6 validation \xE2\x80\xA6", "// ...autres \xC3\xA9tats", "// ... then retry",
                       "{/* ... (Esquema y Types se mantienen igual) */}", NULL};
  const char *no[] = {"// Adds the given number to the result", "return x;", "# TODO: handle errors", "x = y ... z",
                      "// see the docs for more", "console.log('...')", "", "--", "//   ...options,", "// ...loadUser(id)",
                      "// ... a long sentence that explains at length what the code around here does ...", NULL};
  for (int i = 0; yes[i]; i++) CHECK(marker(yes[i]), yes[i]);
  for (int i = 0; no[i]; i++) CHECK(!marker(no[i]), no[i]);
  CHECK(!ec_lz_is_marker(ec_cstr("..."), NULL), "bare dots off");
  CHECK(!ec_lz_is_marker(ec_cstr("// ...autres"), NULL), "words after dots: in a snippet only");
  /* An ellipsis then words goes on from a comment line of the same syntax right above it. */
  CHECK(!marker_under("// ...and the bar still counts", "// Each tick moves the bar"), "a comment going on");
  CHECK(marker_under("// ...and the rest", "x = 1;"), "under code");
  CHECK(marker_under("// ... helpers and setup", "    # As we progressively replace nodes"), "under a # comment");
  CHECK(marker_under("// ... existing code ...", "// a comment"), "a usual wording under a comment");

  /* Labels (invariant i): a marker in words of its own, none of the elision wordings. */
  CHECK(ec_lz_marker_label(ec_cstr("  // ... Step generation helpers ...")), "a label");
  CHECK(ec_lz_marker_label(ec_cstr("// ... (snip) ...")), "words of its own");
  CHECK(!ec_lz_marker_label(ec_cstr("// ... existing code ...")), "the usual wording");
  CHECK(!ec_lz_marker_label(ec_cstr("// ... keep the rest of the helpers ...")), "an elision wording among others");
  CHECK(!ec_lz_marker_label(ec_cstr("// ...")), "dots alone");
  CHECK(!ec_lz_marker_label(ec_cstr("// Step generation helpers")), "no ellipsis");

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

  /* A check of the whole result (invariant h: an import removed while the result still uses its
   * name) names no segment: the message starts with the snippet, and the error has no block. */
  r = run("{\"format\":\"lazy\",\"files\":{\"App.jsx\":\"import { useState } from \\\"react\\\";\\nimport { Card } from \\\"./card\\\";\\n\\n"
          "export function App() {\\n  const [n, setN] = useState(0);\\n  return <Card n={n} />;\\n}\\n\"},"
          "\"edit\":{\"snippet\":\"import { useState } from \\\"react\\\";\\n\\nexport function App() {\\n  const [n, setN] = useState(1);\\n"
          "  return <Card n={n} />;\\n}\\n\"}}");
  CHECK(r && strstr(r, "\"message\":\"the lazy snippet: the merge failed its own check (a name the result still uses would lose its import") &&
            !strstr(r, "\"block\""), "a whole-result check names no segment");
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

  /* Bracket depth: strings and comments do not count. */
  CHECK(ec_lz_bracket_net(ec_cstr("function f(a) {")) == 1, "bracket opener");
  CHECK(ec_lz_bracket_net(ec_cstr("});")) == -2, "bracket closer");
  CHECK(ec_lz_bracket_net(ec_cstr("  s = \"{[(\" + '}'; // {")) == 0, "brackets in strings and comments");
  CHECK(ec_lz_bracket_net(ec_cstr("#if DEBUG {")) == 0, "comment-only line");
  CHECK(ec_lz_comment_only(ec_cstr("  // x")) && !ec_lz_comment_only(ec_cstr("x // y")), "comment-only");

  /* Indent units: spaces per level, or tabs. */
  {
    ec_arena *a = ec_arena_new(NULL);
    ec_lz_side sd;
    ec_lz_indent in;
    ec_lz_side_build(a, ec_cstr("def f():\n  if x:\n    y()\n  return 1\n"), &sd);
    ec_lz_indent_infer(&sd, &in);
    CHECK(!in.tabs && in.unit == 2, "unit 2");
    ec_lz_side_build(a, ec_cstr("func f() {\n\tif x {\n\t\ty()\n\t}\n}\n"), &sd);
    ec_lz_indent_infer(&sd, &in);
    CHECK(in.tabs && in.unit == 4, "tabs");
    ec_lz_indent sp = {false, 2, 4}, tb = {true, 4, 4};
    CHECK(ec_lz_map_delta(4, &sp, &tb) == 8 && ec_lz_map_delta(-2, &sp, &tb) == -4 && ec_lz_map_delta(3, &sp, &sp) == 3, "map delta");
    ec_arena_free(a);
  }

  /* Edited versions of a line. */
  CHECK(ec_lz_similar(ec_cstr("import { a } from './a';"), ec_cstr("import { a, c } from './a';"), false), "import extended");
  CHECK(!ec_lz_similar(ec_cstr("import { c } from './c';"), ec_cstr("import { a } from './a';"), false), "other import");
  CHECK(!ec_lz_similar(ec_cstr("x = 1"), ec_cstr("# helper"), true), "unrelated lines");
  CHECK(ec_lz_same_first_token(ec_cstr("<p>"), ec_cstr("<p className=\"x\">")) && !ec_lz_same_first_token(ec_cstr("one() {"), ec_cstr("two() {")),
        "first token");

  /* A 10 MB file: one region snippet near the end merges right (near-linear; timed in bench/lazy_bench.c). */
  {
    size_t nf = 45000, cap = nf * 240 + 4096;
    char *big = malloc(cap), *rq = malloc(cap * 2);
    size_t n = 0;
    n += (size_t)sprintf(big + n, "import { db } from './db';\\n\\n");
    for (size_t i = 0; i < nf; i++)
      n += (size_t)sprintf(big + n, "function handler%zu(req, res) {\\n  const result = [];\\n  for (const item of req.items%zu) {\\n    if (item.value > %zu) {\\n      result.push(item);\\n    }\\n  }\\n  res.send(result);\\n  return result;\\n}\\n\\n", i, i, i);
    sprintf(rq, "{\"format\":\"lazy\",\"files\":{\"a.js\":\"%s\"},\"edit\":{\"snippet\":\"// ...\\nfunction handler44000(req, res) {\\n  const result = [];\\n  for (const item of req.items44000) {\\n    if (item.value > 44000) {\\n      result.push(item.value * 2);\\n    }\\n  }\\n  res.send(result);\\n  return result;\\n}\\n// ...\\n\"}}", big);
    r = run(rq);
    CHECK(r && strstr(r, "\"status\":\"success\"") && strstr(r, "+      result.push(item.value * 2);") && strstr(r, "\"lines_removed\":1"), "10 MB merge");
    ec_free(NULL, r);
    free(big);
    free(rq);
  }

  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
