/*
 * Format `reply` through the typed API (docs/reply.md): ec_result_path_count / ec_result_path and
 * ec_result_edit_count / ec_result_edit after parse_only, the host's two-step flow (ask for the
 * paths, read them, apply), error lines in the reply's numbering, all-or-nothing, and what the
 * accessors give for other requests and past the end.
 */
#include "test_util.h"
#include "editcore.h"
#include <stdlib.h>

static ec_str S(const char *s) { ec_str r = {s, strlen(s)}; return r; }
static bool eq(ec_str a, const char *b) { return a.len == strlen(b) && (!a.len || !memcmp(a.ptr, b, a.len)); }

static const char REPLY[] =
    "I'll make three changes.\n"              /* 1 */
    "\n"                                       /* 2 */
    "src/a.py\n"                               /* 3 */
    "```python\n"                              /* 4 */
    "<<<<<<< SEARCH\n"                         /* 5 */
    "A = 1\n"                                  /* 6 */
    "=======\n"                                /* 7 */
    "A = 2\n"                                  /* 8 */
    ">>>>>>> REPLACE\n"                        /* 9 */
    "```\n"                                    /* 10 */
    "\n"                                       /* 11 */
    "```\n"                                    /* 12 */
    "*** Begin Patch\n"                        /* 13 */
    "*** Update File: b.txt\n"                 /* 14 */
    "*** Move to: c.txt\n"                     /* 15 */
    "@@\n"                                     /* 16 */
    "-old\n"                                   /* 17 */
    "+new\n"                                   /* 18 */
    "*** Delete File: src/a.py.orig\n"         /* 19 */
    "*** End Patch\n"                          /* 20 */
    "```\n"                                    /* 21 */
    "\n"                                       /* 22 */
    "```diff\n"                                /* 23 */
    "--- /dev/null\n"                          /* 24 */
    "+++ b/docs/new.md\n"                      /* 25 */
    "@@ -0,0 +1 @@\n"                          /* 26 */
    "+# New\n"                                 /* 27 */
    "```\n";                                   /* 28 */

static ec_result *reply(const char *text, const ec_file *files, size_t n, bool parse_only) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLY);
  req.files = files;
  req.n_files = n;
  req.edit.text = S(text);
  req.edit.parse_only = parse_only;
  return ec_apply(&req, NULL);
}

static void test_parse_only(void) {
  ec_result *r = reply(REPLY, NULL, 0, true);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS);
  if (!r) return;
  static const char *const want_paths[] = {"src/a.py", "b.txt", "c.txt", "src/a.py.orig", "docs/new.md"};
  CHECK(ec_result_path_count(r) == 5);
  for (size_t i = 0; i < 5 && i < ec_result_path_count(r); i++)
    CHECK_MSG(eq(ec_result_path(r, i), want_paths[i]), "path %zu is '%.*s'", i, (int)ec_result_path(r, i).len, ec_result_path(r, i).ptr);
  ec_str past = ec_result_path(r, 5);
  CHECK(past.ptr == NULL && past.len == 0);

  CHECK(ec_result_edit_count(r) == 4);
  const ec_reply_edit *e = ec_result_edit(r, 0);
  CHECK(e && e->dialect == EC_FORMAT_SEARCH_REPLACE && eq(e->path, "src/a.py") && e->line == 5 && e->action == EC_ACTION_UPDATE &&
        eq(e->search, "A = 1\n") && eq(e->replace, "A = 2\n"));
  e = ec_result_edit(r, 1);
  CHECK(e && e->dialect == EC_FORMAT_CODEX_PATCH && eq(e->path, "b.txt") && e->line == 14 && e->action == EC_ACTION_MOVE &&
        eq(e->moved_to, "c.txt") && eq(e->text, "*** Update File: b.txt\n*** Move to: c.txt\n@@\n-old\n+new\n"));
  e = ec_result_edit(r, 2);
  CHECK(e && e->dialect == EC_FORMAT_CODEX_PATCH && eq(e->path, "src/a.py.orig") && e->line == 19 && e->action == EC_ACTION_DELETE);
  e = ec_result_edit(r, 3);
  CHECK(e && e->dialect == EC_FORMAT_UNIFIED_DIFF && eq(e->path, "docs/new.md") && e->line == 24 && e->action == EC_ACTION_ADD &&
        eq(e->text, "--- /dev/null\n+++ b/docs/new.md\n@@ -0,0 +1 @@\n+# New\n"));
  CHECK(ec_result_edit(r, 4) == NULL);
  CHECK(ec_result_file_count(r) == 0 && ec_result_block_count(r) == 0);
  ec_result_free(r);
}

/* The host's flow: parse_only gives the paths; it reads those that exist and applies. */
static void test_host_flow(void) {
  ec_result *p = reply(REPLY, NULL, 0, true);
  CHECK(p != NULL);
  if (!p) return;
  ec_file files[5];
  size_t n = 0;
  for (size_t i = 0; i < ec_result_path_count(p); i++) {
    ec_str path = ec_result_path(p, i);
    /* the "disk": src/a.py, b.txt and src/a.py.orig exist */
    const char *content = eq(path, "src/a.py") ? "A = 1\n" : eq(path, "b.txt") ? "old\n" : eq(path, "src/a.py.orig") ? "A = 0\n" : NULL;
    if (content) files[n++] = (ec_file){path, S(content)};
  }
  CHECK(n == 3);
  ec_result *r = reply(REPLY, files, n, false);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS);
  if (r) {
    CHECK(ec_result_file_count(r) == 4);
    /* apply responses list files, not edits or paths */
    CHECK(ec_result_edit_count(r) == 0 && ec_result_path_count(r) == 0);
    bool moved = false, deleted = false, added = false, updated = false;
    for (size_t i = 0; i < ec_result_file_count(r); i++) {
      const ec_file_result *f = ec_result_file(r, i);
      if (f->action == EC_ACTION_MOVE) moved = eq(f->path, "b.txt") && eq(f->moved_to, "c.txt") && eq(f->content, "new\n");
      if (f->action == EC_ACTION_DELETE) deleted = eq(f->path, "src/a.py.orig") && !f->has_content;
      if (f->action == EC_ACTION_ADD) added = eq(f->path, "docs/new.md") && eq(f->content, "# New\n");
      if (f->action == EC_ACTION_UPDATE) updated = eq(f->path, "src/a.py") && eq(f->content, "A = 2\n");
    }
    CHECK(moved && deleted && added && updated);
  }
  ec_result_free(r);
  ec_result_free(p);
}

/* A failing edit: nothing applies, and the error's line is the reply's line. */
static void test_error_line(void) {
  ec_file files[] = {{S("src/a.py"), S("A = 1\n")}, {S("b.txt"), S("something else\n")}, {S("src/a.py.orig"), S("x\n")}};
  ec_result *r = reply(REPLY, files, 3, false);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_file_count(r) == 0);
  const ec_error *e = r ? ec_result_error(r, 0) : NULL;
  CHECK_MSG(e && e->code == EC_NO_MATCH && e->line >= 14 && e->line <= 18, "code %s line %u", e ? ec_error_code_name(e->code) : "-",
            e ? e->line : 0);
  ec_result_free(r);

  /* a block that names no file */
  r = reply("Sure:\n\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n", files, 3, false);
  e = r ? ec_result_error(r, 0) : NULL;
  CHECK(e && e->code == EC_MALFORMED_EDIT && e->line == 3 && strstr(e->message.ptr, "names no file"));
  ec_result_free(r);
}

static void test_no_edit(void) {
  ec_result *r = reply("You could write:\n\n```python\nprint(1)\n```\n", NULL, 0, true);
  const ec_error *e = r ? ec_result_error(r, 0) : NULL;
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && e && e->code == EC_MALFORMED_EDIT &&
        strstr(e->message.ptr, "no edit was found"));
  CHECK(r && ec_result_path_count(r) == 0 && ec_result_edit_count(r) == 0);
  ec_result_free(r);
}

/* The accessors on a request of another format. */
static void test_other_formats(void) {
  ec_file f = {S("a"), S("x\n")};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &f;
  req.n_files = 1;
  req.edit.old_string = S("x");
  req.edit.new_string = S("y");
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_path_count(r) == 0 && ec_result_edit_count(r) == 0 &&
        ec_result_path(r, 0).ptr == NULL && ec_result_edit(r, 0) == NULL);
  ec_result_free(r);
  CHECK(ec_supports(EC_FORMAT_REPLY, EC_PROFILE_EDITCORE) && !ec_supports(EC_FORMAT_REPLY, EC_PROFILE_CLINE));
  ec_format fmt;
  CHECK(ec_format_from_name(S("reply"), &fmt) && fmt == EC_FORMAT_REPLY && !strcmp(ec_format_name(EC_FORMAT_REPLY), "reply"));
}

/* The JSON protocol gives the same: data.edits and data.paths. */
static void test_json(void) {
  static const char REQ[] = "{\"format\":\"reply\",\"files\":{},\"edit\":{\"text\":\"a.py\\n<<<<<<< SEARCH\\nx\\n=======\\ny\\n"
                            ">>>>>>> REPLACE\\n\",\"parse_only\":true}}";
  size_t len = 0;
  char *out = ec_run_json(REQ, sizeof REQ - 1, NULL, &len);
  CHECK(out && strstr(out, "\"edits\":[{\"dialect\":\"search_replace\",\"path\":\"a.py\",\"line\":2,\"action\":\"update\","
                           "\"search\":\"x\\n\",\"replace\":\"y\\n\"}],\"paths\":[\"a.py\"]"));
  ec_free(NULL, out);
}

/* The result owns its edits and paths: the request's text may be wiped once ec_apply returns. */
static void test_ownership(void) {
  static const char SRC[] = "Update `src/x.py`:\n```python\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n```\n";
  char *text = malloc(sizeof SRC), *path = malloc(8);
  memcpy(text, SRC, sizeof SRC);
  memcpy(path, "dflt.py", 8);
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLY);
  req.edit.text = S(text);
  req.edit.path = S(path);
  req.edit.parse_only = true;
  ec_result *r = ec_apply(&req, NULL);
  memset(text, 'X', sizeof SRC - 1);
  memset(path, 'X', 7);
  free(text);
  free(path);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_path_count(r) == 1 && ec_result_edit_count(r) == 1);
  if (r && ec_result_edit_count(r) == 1) {
    CHECK(eq(ec_result_path(r, 0), "src/x.py"));
    const ec_reply_edit *e = ec_result_edit(r, 0);
    CHECK(eq(e->path, "src/x.py") && eq(e->search, "old\n") && eq(e->replace, "new\n"));
  }
  ec_result_free(r);
}

int main(void) {
  test_parse_only();
  test_ownership();
  test_host_flow();
  test_error_line();
  test_no_edit();
  test_other_formats();
  test_json();
  TEST_MAIN_END();
}
