/* The syntax check through the typed API (docs/syntax.md): on demand by default, a report when
 * asked, refuse and off; the matching of old errors; the language table. */
#include "editcore.h"
#include "syntax/syntax.h"
#include "test_util.h"

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

int main(void) {
  typed_api();
  languages();
  old_errors();
  TEST_MAIN_END();
}
