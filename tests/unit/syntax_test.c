/* The syntax check through the typed API (docs/syntax.md): on demand by default, a report when
 * asked, refuse and off; the matching of old errors; the language table. */
#include "editcore.h"
#include "syntax/syntax.h"
#include "test_util.h"
#include <stdlib.h>

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }

static ec_result *replace(const char *path, const char *content, const char *old_s, const char *new_s, ec_syntax_mode mode,
                          ec_request *req, ec_file *file) {
  ec_request_init(req, EC_FORMAT_REPLACE);
  file->path = S(path);
  file->content = S(content);
  req->files = file;
  req->n_files = 1;
  req->edit.old_string = S(old_s);
  req->edit.new_string = S(new_s);
  req->edit.has_old_string = req->edit.has_new_string = true;
  req->options.syntax = mode;
  return ec_apply(req, NULL);
}

static void typed_api(void) {
  ec_request req;
  ec_file f;
  /* The default is on demand: no report until asked, then the same one JSON gives. */
  ec_options o;
  ec_options_default(&o);
  CHECK(o.syntax == EC_SYNTAX_ON_DEMAND);
  ec_result *r = replace("a.py", "def f(x):\n    return g(x)\n", "return g(x)", "return g(x", EC_SYNTAX_ON_DEMAND, &req, &f);
  CHECK(ec_result_status(r) == EC_STATUS_SUCCESS);
  CHECK(ec_result_file(r, 0)->syntax == NULL);
  const ec_syntax_report *s = ec_result_syntax(r, 0, &req, NULL);
  CHECK(s && s->checked && s->parsed_before == 1 && s->parsed_after == 0 && s->new_error_count == 1);
  CHECK(ec_result_file(r, 0)->syntax == s);
  CHECK(ec_result_syntax(r, 0, &req, NULL) == s); /* kept, not made twice */
  CHECK(ec_result_syntax(r, 1, &req, NULL) == NULL);
  if (s && s->n_new_errors) {
    CHECK(s->new_errors[0].line == 2);
    CHECK(s->new_errors[0].column == 5);
    CHECK(!s->new_errors[0].missing);
  }
  ec_result_free(r);

  /* REPORT attaches it; REFUSE refuses clean-to-broken; OFF parses nothing. */
  r = replace("a.js", "f(1);\n", "f(1);", "f(1;", EC_SYNTAX_REPORT, &req, &f);
  s = ec_result_file(r, 0)->syntax;
  CHECK(s && s->new_error_count == 1 && s->n_new_errors == 1 && s->new_errors[0].missing);
  if (s && s->n_new_errors) CHECK_STR(s->new_errors[0].text.ptr, s->new_errors[0].text.len, ")");
  ec_result_free(r);
  r = replace("a.js", "f(1);\n", "f(1);", "f(1;", EC_SYNTAX_REFUSE, &req, &f);
  CHECK(ec_result_status(r) == EC_STATUS_ERROR && ec_result_error(r, 0)->code == EC_SYNTAX_ERROR);
  CHECK(ec_result_file_count(r) == 0);
  ec_result_free(r);
  r = replace("a.js", "f(1);\n", "f(1);", "f(1;", EC_SYNTAX_OFF, &req, &f);
  CHECK(ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file(r, 0)->syntax == NULL);
  ec_result_free(r);

  /* An unknown language is reported as such, never guessed. */
  r = replace("notes.txt", "a (b\n", "a (b", "a (b c", EC_SYNTAX_REPORT, &req, &f);
  s = ec_result_file(r, 0)->syntax;
  CHECK(s && !s->checked);
  if (s) CHECK_STR(s->language.ptr, s->language.len, "unknown");
  ec_result_free(r);
}

static void languages(void) {
  ec_str name;
  CHECK(ec_syn_lang_for(S("src/app.tsx"), S(""), &name) != NULL);
  CHECK_STR(name.ptr, name.len, "tsx");
  CHECK(ec_syn_lang_for(S("Gemfile"), S(""), &name) != NULL);
  CHECK_STR(name.ptr, name.len, "ruby");
  CHECK(ec_syn_lang_for(S("x/Gemfile.lock"), S(""), &name) == NULL); /* a whole name, not a prefix */
  CHECK(ec_syn_lang_for(S("a.py.txt"), S(""), &name) == NULL);
  CHECK(ec_syn_lang_for(S("file"), S("typescriptreact"), &name) != NULL);
  CHECK_STR(name.ptr, name.len, "tsx");
  CHECK(ec_syn_lang_for(S("a.py"), S("markdown"), &name) == NULL); /* the given name wins, unknown as it is */
  CHECK_STR(name.ptr, name.len, "markdown");
}

/* Old errors: an error before and after the changed bytes, at the same place, is old; a new one
 * inside the change is new; one inside the change matched by an old one there is old. */
static void old_errors(void) {
  ec_syn_err b_errs[2] = {{0, 2, 3, {0, 0}}, {0, 20, 21, {0, 0}}};
  ec_syn_side before = {false, 2, b_errs, 2, NULL, 0};
  ec_str bt = S("a ? b\nccccc\nddddd\ne ? f\n"), at = S("a ? b\ncXXXc\nddddd\ne ? f\n");
  /* after: the same two old errors (the change keeps the length) and a new one at 8 */
  ec_syn_err a_errs[3] = {{0, 2, 3, {0, 0}}, {0, 8, 9, {0, 0}}, {0, 20, 21, {0, 0}}};
  ec_syn_side after = {false, 3, a_errs, 3, NULL, 0};
  bool fresh[3];
  CHECK(ec_syn_new_errors(bt, &before, at, &after, fresh) == 1);
  CHECK(!fresh[0] && fresh[1] && !fresh[2]);
  /* The change one byte longer: the error after it is found one byte further on, still old. */
  ec_str at2 = S("a ? b\ncXXXXc\nddddd\ne ? f\n");
  ec_syn_err a2[2] = {{0, 2, 3, {0, 0}}, {0, 21, 22, {0, 0}}};
  ec_syn_side after2 = {false, 2, a2, 2, NULL, 0};
  CHECK(ec_syn_new_errors(bt, &before, at2, &after2, fresh) == 0);
  /* ... but at the unshifted place it is another error. */
  a2[1].start = 20, a2[1].end = 21;
  CHECK(ec_syn_new_errors(bt, &before, at2, &after2, fresh) == 1);
  /* No file before: every error is new. */
  CHECK(ec_syn_new_errors(S(""), NULL, at, &after, fresh) == 3);
}

/* A Python file of about `bytes` bytes that parses, ending in "x = 0\n" (its one unique line). */
static char *python_of(size_t bytes) {
  static const char unit[] = "def f(a, b):\n    return a + b\n\n";
  size_t n = bytes / (sizeof unit - 1) + 1, len = n * (sizeof unit - 1);
  char *t = malloc(len + 7);
  for (size_t i = 0; i < n; i++) memcpy(t + i * (sizeof unit - 1), unit, sizeof unit - 1);
  memcpy(t + len, "x = 0\n", 7);
  return t;
}

/* What one request may parse (EC_SYN_REQUEST_BYTES): a full parse of each original and the bytes
 * an edit changed, counted in request order; past it a file is skipped, and nothing else changes. */
static void budget(void) {
  const size_t mib = (size_t)1 << 20;
  CHECK(ec_syn_cost(NULL, S("abc")) == 3);
  ec_str was = S("a = 1\nb = 2\n"), now = S("a = 1\nb = 22\n");
  CHECK(ec_syn_cost(&was, now) == was.len + 1);
  CHECK(ec_syn_cost(&was, was) == was.len);

  char *big = python_of(3 * mib), *small = python_of(3 * mib / 2);
  ec_request req;
  ec_file f[2];
  ec_request_init(&req, EC_FORMAT_REPLACE);
  /* One 3 MiB file, one line changed: 3 MiB + 1 byte, within the budget: checked. */
  ec_result *r = replace("big.py", big, "x = 0", "x = 1", EC_SYNTAX_REPORT, &req, &f[0]);
  const ec_syntax_report *s = ec_result_file(r, 0)->syntax;
  CHECK(ec_result_status(r) == EC_STATUS_SUCCESS && s && s->checked && s->parsed_after == 1);
  ec_result_free(r);
  /* A 5 MiB file: past the budget by itself. Skipped, the edit applied as without the check. */
  char *huge = python_of(5 * mib);
  r = replace("huge.py", huge, "x = 0", "x = 1", EC_SYNTAX_REFUSE, &req, &f[0]);
  s = ec_result_file(r, 0)->syntax;
  CHECK(ec_result_status(r) == EC_STATUS_SUCCESS && s && !s->checked && strstr(s->skipped.ptr, "4 MiB"));
  ec_result_free(r);
  /* On demand (the typed API's default): the file's own cost, the same answer. */
  r = replace("huge.py", huge, "x = 0", "x = 1", EC_SYNTAX_ON_DEMAND, &req, &f[0]);
  s = ec_result_syntax(r, 0, &req, NULL);
  CHECK(s && !s->checked && strstr(s->skipped.ptr, "4 MiB"));
  ec_result_free(r);
  free(huge);

  /* Two files in one reply, 3 MiB and 1.5 MiB: together past the budget. The one the reply edits
   * first is checked and the other skipped, whichever order the request lists them in. */
  for (int order = 0; order < 2; order++) {
    const char *first = order ? "small.py" : "big.py", *second = order ? "big.py" : "small.py";
    char reply[256];
    snprintf(reply, sizeof reply,
             "%s\n```\n<<<<<<< SEARCH\nx = 0\n=======\nx = 1\n>>>>>>> REPLACE\n```\n\n"
             "%s\n```\n<<<<<<< SEARCH\nx = 0\n=======\nx = 2\n>>>>>>> REPLACE\n```\n", first, second);
    ec_request_init(&req, EC_FORMAT_REPLY);
    f[0].path = S("big.py"), f[0].content = S(big);
    f[1].path = S("small.py"), f[1].content = S(small);
    req.files = f;
    req.n_files = 2;
    req.edit.text = S(reply);
    req.options.syntax = EC_SYNTAX_REPORT;
    r = ec_apply(&req, NULL);
    CHECK(ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 2);
    for (size_t i = 0; i < ec_result_file_count(r) && i < 2; i++) {
      const ec_file_result *fr = ec_result_file(r, i);
      bool is_big = fr->path.len == 6;
      bool expect_checked = is_big == (order == 0);
      CHECK(fr->syntax && fr->syntax->checked == expect_checked);
    }
    ec_result_free(r);
  }
  free(big);
  free(small);
}

int main(void) {
  typed_api();
  budget();
  languages();
  old_errors();
  TEST_MAIN_END();
}
