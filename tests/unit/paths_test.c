/* ec_path_normalize / ec_path_within (the hosts' lexical sandbox rules), ec_diff_text (diff -u
 * headers), ec_result_new_error and ec_result_set_applied (host envelopes). */
#include "editcore.h"
#include "test_util.h"
#include <stdlib.h>

static void norm(const char *in, ec_error_code want_rc, const char *want) {
  char out[256];
  size_t n = 0;
  ec_error_code rc = ec_path_normalize((ec_str){in, strlen(in)}, out, &n);
  CHECK_MSG(rc == want_rc, "'%s': rc %d, want %d", in, (int)rc, (int)want_rc);
  if (rc == EC_OK && want) CHECK_STR(out, n, want);
  CHECK_MSG(n <= strlen(in) || !*in, "'%s' grew", in);
}

static void within(const char *root, const char *path, bool want, const char *rest) {
  ec_str r = {0};
  bool got = ec_path_within((ec_str){root, strlen(root)}, (ec_str){path, strlen(path)}, &r);
  CHECK_MSG(got == want, "within(%s, %s)", root, path);
  if (got && rest) CHECK_STR(r.ptr, r.len, rest);
}

int main(void) {
  norm("a/b/c", EC_OK, "a/b/c");
  norm("./a//b/./c/", EC_OK, "a/b/c");
  norm("a/../b", EC_OK, "b");
  norm("a/b/../../c", EC_OK, "c");
  norm("a/..", EC_OK, ".");
  norm(".", EC_OK, ".");
  norm("..", EC_ACCESS_DENIED, NULL);
  norm("../a", EC_ACCESS_DENIED, NULL);
  norm("a/../../b", EC_ACCESS_DENIED, NULL);
  norm("a/./../..", EC_ACCESS_DENIED, NULL);
  norm("...", EC_OK, "...");
  norm("..a/b..", EC_OK, "..a/b..");
  norm("/etc/../x", EC_OK, "/x");
  norm("/../..", EC_OK, "/");
  norm("//a//b", EC_OK, "/a/b");
  norm("", EC_INVALID_PARAM, NULL);
  {
    char out[8];
    size_t n;
    CHECK(ec_path_normalize((ec_str){"a\0b", 3}, out, &n) == EC_INVALID_PARAM);
  }
  within("/r", "/r", true, ".");
  within("/r", "/r/a/b", true, "a/b");
  within("/r/", "/r/a", true, "a");
  within("/r", "/rr/a", false, NULL);
  within("/r", "/", false, NULL);
  within("/", "/a", true, "a");
  within("/r/s", "/r", false, NULL);

  size_t len = 0;
  char *d = ec_diff_text((ec_str){"a\nb\n", 4}, (ec_str){"a\nc\n", 4}, (ec_str){"x.txt", 5}, (ec_str){"/tmp/y", 6}, 3, NULL, &len);
  CHECK(d != NULL);
  if (d) CHECK_STR(d, len, "--- x.txt\n+++ /tmp/y\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n");
  ec_free(NULL, d);
  d = ec_diff_text((ec_str){"same", 4}, (ec_str){"same", 4}, (ec_str){"a", 1}, (ec_str){"b", 1}, -1, NULL, &len);
  CHECK(d != NULL && len == 0);
  ec_free(NULL, d);
  d = ec_diff_text((ec_str){"a", 1}, (ec_str){"b", 1}, (ec_str){"a", 1}, (ec_str){"b", 1}, 0, NULL, &len);
  if (d) CHECK_STR(d, len, "--- a\n+++ b\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n");
  ec_free(NULL, d);

  ec_result *r = ec_result_new_error(EC_ACCESS_DENIED, (ec_str){"../x", 4}, (ec_str){"'../x' leads outside the root", 29}, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error_count(r) == 1);
  if (r) {
    char *json = ec_result_to_json(r, NULL, &len);
    CHECK(json && strstr(json, "\"applied\":false") && strstr(json, "\"code\":\"ACCESS_DENIED\"") && strstr(json, "\"path\":\"../x\""));
    ec_free(NULL, json);
    ec_result_set_applied(r, true);
    json = ec_result_to_json(r, NULL, &len);
    CHECK(json && strstr(json, "\"applied\":true"));
    ec_free(NULL, json);
    ec_result_free(r);
  }
  TEST_MAIN_END();
}
