/* Context restoration after a loose match (match/restore.c), through the JSON protocol: the
 * lines new_string repeats unchanged from old_string are written as the file has them. */
#include "editcore.h"
#include "test_util.h"
#include <stdlib.h>

static int has(const char *resp, const char *want) { return resp && strstr(resp, want) != NULL; }

static char *run(const char *req) { return ec_run_json(req, strlen(req), NULL, NULL); }

int main(void) {
  /* a blank line left out next to the context: kept; the changed line keeps the file's tab */
  char *r = run("{\"format\":\"replace\",\"files\":{\"a.go\":\"func X() int {\\n\\treturn f(a)\\n}\\n\\nfunc Y() bool {\\n\\treturn true\\n}\\n\"},"
                "\"edit\":{\"old_string\":\"\\treturn f(a)\\n}\\nfunc Y() bool {\",\"new_string\":\"\\treturn g(a)\\n}\\nfunc Y() bool {\"}}");
  CHECK(has(r, "\"status\":\"success\""));
  CHECK(has(r, "\"content\":\"func X() int {\\n\\treturn g(a)\\n}\\n\\nfunc Y() bool {\\n\\treturn true\\n}\\n\""));
  ec_free(NULL, r);

  /* whitespace between tokens: the context line is written as the file has it */
  r = run("{\"format\":\"replace\",\"files\":{\"a.js\":\"call(a, b);\\nx = 1;\\n\"},"
          "\"edit\":{\"old_string\":\"call(a,b);\\nx = 1;\",\"new_string\":\"call(a,b);\\nx = 2;\"}}");
  CHECK(has(r, "\"content\":\"call(a, b);\\nx = 2;\\n\""));
  ec_free(NULL, r);

  /* typographic quotes on a context line: the file's straight quotes stay */
  r = run("{\"format\":\"replace\",\"files\":{\"a.py\":\"s = \\\"hi\\\"\\nn = 1\\n\"},"
          "\"edit\":{\"old_string\":\"s = \xe2\x80\x9chi\xe2\x80\x9d\\nn = 1\",\"new_string\":\"s = \xe2\x80\x9chi\xe2\x80\x9d\\nn = 2\"}}");
  CHECK(has(r, "\"content\":\"s = \\\"hi\\\"\\nn = 2\\n\""));
  ec_free(NULL, r);

  /* a whitespace-only change the model means (after a loose match) is not undone */
  r = run("{\"format\":\"replace\",\"files\":{\"a.c\":\"  f(a,b);\\n  g();\\n\"},"
          "\"edit\":{\"old_string\":\"f(a,b);  \\ng();\",\"new_string\":\"f(a, b);\\ng();\"}}");
  CHECK(has(r, "\"content\":\"  f(a, b);\\n  g();\\n\""));
  ec_free(NULL, r);
  TEST_MAIN_END();
}
