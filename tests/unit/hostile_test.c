/*
 * Hostile requests (issue 22), the cases a unit test checks better than a vector:
 *   - strict JSON in: invalid UTF-8 in strings, numbers, a BOM, NUL in keys -> INVALID_PARAM
 *     naming the byte offset; every response valid UTF-8 JSON;
 *   - limits a request may only lower, ceilings only the host sets (ec_host.ceilings);
 *   - max_files;
 *   - a Latin-1 file edited byte-exactly through the typed API;
 *   - OUT_OF_MEMORY: a host allocator that fails from its N-th allocation on, swept over N, on
 *     requests of every format; each answer is NULL (no memory for the result itself), the
 *     complete answer, or OUT_OF_MEMORY with nothing partial.
 * Time and memory bounds are the benchmark runner's (bench/hostile/), not a unit test's.
 */
#include "test_util.h"
#include "editcore.h"
#include "base/utf8.h"
#include <cjson/cJSON.h>
#include <stdlib.h>

static bool valid_utf8(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t k = ec_utf8_valid_len((const unsigned char *)s + i, n - i);
    if (!k) return false;
    i += k;
  }
  return true;
}

/* Runs JSON text; returns the parsed response (NULL if it is not UTF-8 JSON). */
static cJSON *run_bytes(const char *req, size_t len, const ec_host *host) {
  size_t n = 0;
  char *out = ec_run_json(req, len, host, &n);
  if (!out) return NULL;
  cJSON *j = valid_utf8(out, n) ? cJSON_ParseWithLength(out, n) : NULL;
  ec_free(host, out);
  return j;
}

static const char *str_at(cJSON *j, const char *a, const char *b) {
  cJSON *x = cJSON_GetObjectItemCaseSensitive(j, a);
  if (b) x = cJSON_GetObjectItemCaseSensitive(x, b);
  return cJSON_IsString(x) ? x->valuestring : "";
}

static void expect_json(const char *name, const char *req, size_t len, const ec_host *host, const char *code, const char *in_message) {
  cJSON *j = run_bytes(req, len ? len : strlen(req), host);
  CHECK_MSG(j != NULL, "%s: the response is not valid UTF-8 JSON", name);
  if (!j) return;
  const char *got = str_at(j, "error", "code"), *msg = str_at(j, "error", "message");
  if (!code) CHECK_MSG(!strcmp(str_at(j, "status", NULL), "success"), "%s: want success, got %s: %s", name, got, msg);
  else CHECK_MSG(!strcmp(got, code), "%s: want %s, got %s: %s", name, code, got, msg);
  if (in_message) CHECK_MSG(strstr(msg, in_message) != NULL, "%s: the message lacks '%s': %s", name, in_message, msg);
  cJSON_Delete(j);
}

#define REQ(old_new) "{\"format\":\"replace\",\"files\":{\"a\":\"x\\n\"},\"edit\":" old_new "}"

static void strict_json(void) {
  expect_json("raw 0xFF", REQ("{\"old_string\":\"x\",\"new_string\":\"y\xFF\"}"), 0, NULL, "INVALID_PARAM", "not UTF-8 in a string (byte 80)");
  expect_json("overlong /", REQ("{\"old_string\":\"x\",\"new_string\":\"\xC0\xAF\"}"), 0, NULL, "INVALID_PARAM", "overlong UTF-8 encoding in a string (byte 79)");
  expect_json("overlong 3-byte", REQ("{\"old_string\":\"x\",\"new_string\":\"\xE0\x80\xAF\"}"), 0, NULL, "INVALID_PARAM", "overlong");
  expect_json("surrogate as UTF-8", REQ("{\"old_string\":\"x\",\"new_string\":\"\xED\xA0\x80\"}"), 0, NULL, "INVALID_PARAM", "surrogate encoded as UTF-8");
  expect_json("above U+10FFFF", REQ("{\"old_string\":\"x\",\"new_string\":\"\xF4\x90\x80\x80\"}"), 0, NULL, "INVALID_PARAM", "above U+10FFFF");
  expect_json("truncated sequence", REQ("{\"old_string\":\"x\",\"new_string\":\"y\xE2\x82\"}"), 0, NULL, "INVALID_PARAM", "truncated UTF-8");
  expect_json("truncated at the end", "{\"format\":\"replace\",\"edit\":{\"old_string\":\"\xE2", 0, NULL, "INVALID_PARAM", "truncated UTF-8");
  expect_json("Latin-1 file in JSON", "{\"format\":\"replace\",\"files\":{\"a\":\"caf\xE9\\n\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"}}", 0,
              NULL, "INVALID_PARAM", "truncated UTF-8 sequence in a string (byte 37)");
  expect_json("leading zero", REQ("{\"old_string\":\"x\",\"new_string\":\"y\",\"expected_replacements\":01}"), 0, NULL, "INVALID_PARAM", "leading zero in a number (byte 106)");
  expect_json("1.", REQ("{\"old_string\":\"x\",\"new_string\":\"y\",\"expected_replacements\":1.}"), 0, NULL, "INVALID_PARAM", "no digit after its decimal point");
  expect_json("1e", REQ("{\"old_string\":\"x\",\"new_string\":\"y\",\"expected_replacements\":1e}"), 0, NULL, "INVALID_PARAM", "no digit in its exponent");
  expect_json("-", REQ("{\"old_string\":\"x\",\"new_string\":\"y\",\"expected_replacements\":-}"), 0, NULL, "INVALID_PARAM", "without digits");
  expect_json("+1", REQ("{\"old_string\":\"x\",\"new_string\":\"y\",\"expected_replacements\":+1}"), 0, NULL, "INVALID_PARAM", "unexpected character");
  expect_json("BOM", "\xEF\xBB\xBF" REQ("{\"old_string\":\"x\",\"new_string\":\"y\"}"), 0, NULL, "INVALID_PARAM", "byte-order mark before the request (JSON text starts at its value) (byte 0)");
  expect_json("NUL in a files key", "{\"format\":\"replace\",\"files\":{\"a\\u0000b\":\"x\\n\"},\"edit\":{\"path\":\"a\",\"old_string\":\"x\",\"new_string\":\"y\"}}",
              0, NULL, "INVALID_PARAM", "NUL character (\\u0000) in an object key");
  expect_json("NUL in edit.path", "{\"format\":\"replace\",\"files\":{\"a\":\"x\\n\"},\"edit\":{\"path\":\"a\\u0000b\",\"old_string\":\"x\",\"new_string\":\"y\"}}",
              0, NULL, "INVALID_PARAM", "edit.path holds a NUL");
  expect_json("NUL in chat_files", "{\"format\":\"search_replace\",\"profile\":\"aider\",\"files\":{\"a\":\"x\\n\"},\"edit\":{\"text\":\"\",\"options\":{\"chat_files\":[\"a\\u0000\"]}}}",
              0, NULL, "INVALID_PARAM", "chat_files holds a NUL");
  expect_json("lone low surrogate escape", REQ("{\"old_string\":\"x\",\"new_string\":\"\\udc00\"}"), 0, NULL, "INVALID_PARAM", "lone UTF-16 surrogate");
  expect_json("high surrogate then text", REQ("{\"old_string\":\"x\",\"new_string\":\"\\ud800x\"}"), 0, NULL, "INVALID_PARAM", "lone UTF-16 surrogate");
  expect_json("duplicate expected_hash key",
              REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"expected_hash\":{\"a\":\"0\",\"a\":\"1\"}}"), 0, NULL,
              "INVALID_PARAM", "options.expected_hash: the field 'a' is given twice");
  expect_json("trailing comma", REQ("{\"old_string\":\"x\",\"new_string\":\"y\",}"), 0, NULL, "INVALID_PARAM", "expected an object key");
  expect_json("single quotes", "{'format':'replace'}", 0, NULL, "INVALID_PARAM", "object key");
  /* what stays valid: escapes, UTF-8 of every length, a surrogate pair, numbers in every form */
  expect_json("valid UTF-8 and escapes", REQ("{\"old_string\":\"x\",\"new_string\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\\ud83d\\ude00\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\",\"expected_replacements\":1}"),
              0, NULL, NULL, NULL);
  expect_json("numbers", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"fuzzy_threshold\":0.5e0,\"diff_context\":0,\"line_hint\":1E1}"), 0, NULL, NULL, NULL);
  /* 600 levels of nesting: refused by the strict pass at 512, at once */
  {
    char deep[1300];
    memset(deep, '[', 600);
    memset(deep + 600, ']', 600);
    deep[1200] = 0;
    expect_json("600 levels", deep, 0, NULL, "INVALID_PARAM", "deeper than 512 levels");
  }
}

/* Section - limits and ceilings */

static void limits(void) {
  expect_json("raise max_input_bytes", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"limits\":{\"max_input_bytes\":9000000000000000}}"),
              0, NULL, "INVALID_PARAM", "above its ceiling 67108864");
  expect_json("raise fuzzy_work", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"limits\":{\"fuzzy_work\":200000001}}"), 0, NULL,
              "INVALID_PARAM", "options.limits.fuzzy_work is above its ceiling 200000000");
  expect_json("lower fuzzy_work", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"limits\":{\"fuzzy_work\":1000}}"), 0, NULL, NULL, NULL);
  expect_json("at the ceiling", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"limits\":{\"max_files\":10000}}"), 0, NULL, NULL, NULL);
  expect_json("strategies []", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"strategies\":[]}"), 0, NULL, "INVALID_PARAM",
              "options.strategies is empty");
  /* a host's own ceilings: lower ones bind the request, higher ones let it ask for more */
  ec_limits low = {0};
  low.max_input_bytes = 10;
  ec_host h = {0};
  h.ceilings = &low;
  expect_json("host ceiling 10 bytes", "{\"format\":\"replace\",\"files\":{\"a\":\"0123456789abc\\n\"},\"edit\":{\"old_string\":\"0\",\"new_string\":\"1\"}}", 0, &h,
              "TOO_LARGE", "max_input_bytes) is 10");
  expect_json("request above the host's ceiling", REQ("{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"limits\":{\"max_input_bytes\":11}}"), 0, &h,
              "INVALID_PARAM", "above its ceiling 10");
  /* max_files: 10,001 files refused at once; a host may raise the ceiling */
  size_t n = 10001;
  ec_file *files = calloc(n, sizeof *files);
  char *names = malloc(n * 16);
  for (size_t i = 0; i < n; i++) {
    int len = snprintf(names + i * 16, 16, "f%zu", i);
    files[i].path = (ec_str){names + i * 16, (size_t)len};
    files[i].content = (ec_str){"x\n", 2};
  }
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = files;
  req.n_files = n;
  req.edit.path = files[7].path;
  req.edit.old_string = (ec_str){"x", 1};
  req.edit.new_string = (ec_str){"y", 1};
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error(r, 0)->code == EC_TOO_LARGE &&
        strstr(ec_result_error(r, 0)->message.ptr, "options.limits.max_files"));
  ec_result_free(r);
  ec_limits many = {0};
  many.max_files = 20000;
  ec_host hm = {0};
  hm.ceilings = &many;
  r = ec_apply(&req, &hm);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1);
  ec_result_free(r);
  /* a duplicate path among 10,000 is found (a hash set, not every pair) */
  req.n_files = 10000;
  files[9999].path = files[5].path;
  r = ec_apply(&req, NULL);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR && ec_result_error(r, 0)->code == EC_INVALID_PARAM &&
        strstr(ec_result_error(r, 0)->message.ptr, "'f5' is given twice"));
  ec_result_free(r);
  free(files);
  free(names);
}

/* Section - a Latin-1 file through the typed API */

#define S(lit) ((ec_str){lit, sizeof lit - 1})

static void latin1(void) {
  static const char file[] = "# caf\xE9 cr\xE8me\nname = 'Jos\xE9'\nx = 1\n";
  ec_file f = {{"l1.py", 5}, {file, sizeof file - 1}};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &f;
  req.n_files = 1;
  req.edit.old_string = S("name = 'Jos\xE9'");
  req.edit.new_string = S("name = 'Ren\xE9\xE9'");
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  CHECK_MSG(r && ec_result_status(r) == EC_STATUS_SUCCESS && ec_result_file_count(r) == 1, "%s",
            r && ec_result_error(r, 0) ? ec_result_error(r, 0)->message.ptr : "");
  if (r && ec_result_file_count(r) == 1) {
    const ec_file_result *out = ec_result_file(r, 0);
    CHECK_STR(out->content.ptr, out->content.len, "# caf\xE9 cr\xE8me\nname = 'Ren\xE9\xE9'\nx = 1\n");
    /* the JSON form of such a result stays UTF-8 JSON, and carries the bytes exactly: base64 */
    size_t n = 0;
    char *json = ec_result_to_json(r, NULL, &n);
    CHECK(json && valid_utf8(json, n));
    cJSON *j = json ? cJSON_ParseWithLength(json, n) : NULL;
    CHECK(j != NULL);
    const cJSON *b64 = cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "data"), "files"), "l1.py"), "content"), "base64");
    char back[64];
    size_t got = cJSON_IsString(b64) ? ec_base64_decode(b64->valuestring, strlen(b64->valuestring), back) : (size_t)-1;
    CHECK(got == out->content.len && !memcmp(back, out->content.ptr, got));
    cJSON_Delete(j);
    ec_free(NULL, json);
  }
  ec_result_free(r);
  /* a SEARCH/REPLACE block and a unified diff on the same bytes */
  req.format = EC_FORMAT_SEARCH_REPLACE;
  req.edit.text = S("<<<<<<< SEARCH\nx = 1\n=======\nx = '\xE9t\xE9'\n>>>>>>> REPLACE\n");
  r = ec_apply(&req, NULL);
  CHECK_MSG(r && ec_result_status(r) == EC_STATUS_SUCCESS, "%s", r && ec_result_error(r, 0) ? ec_result_error(r, 0)->message.ptr : "");
  if (r && ec_result_file_count(r) == 1)
    CHECK_STR(ec_result_file(r, 0)->content.ptr, ec_result_file(r, 0)->content.len, "# caf\xE9 cr\xE8me\nname = 'Jos\xE9'\nx = '\xE9t\xE9'\n");
  ec_result_free(r);
}

/* Section - OUT_OF_MEMORY, swept */

typedef struct failing {
  long left;   /* allocations that still succeed; < 0 = no limit */
  long count;  /* allocations made */
  bool once;   /* only the one allocation fails (a transient failure); else every one after it */
} failing;

static bool fails_now(failing *f) {
  f->count++;
  if (f->left == 0) {
    if (f->once) f->left = -1;
    return true;
  }
  if (f->left > 0) f->left--;
  return false;
}
static void *f_malloc(void *u, size_t n) { return fails_now(u) ? NULL : malloc(n); }
static void *f_realloc(void *u, void *p, size_t n) { return fails_now(u) ? NULL : realloc(p, n); }
static void f_free(void *u, void *p) { (void)u; free(p); }

typedef struct sweep_case {
  const char *name;
  const char *json;
} sweep_case;

static char *result_digest(const ec_result *r) {
  /* status, then each file's path and content: what a host would write */
  size_t cap = 64;
  for (size_t i = 0; i < ec_result_file_count(r); i++) cap += ec_result_file(r, i)->path.len + ec_result_file(r, i)->content.len + 4;
  char *d = malloc(cap), *w = d;
  w += sprintf(w, "%d:", (int)ec_result_status(r));
  for (size_t i = 0; i < ec_result_file_count(r); i++) {
    const ec_file_result *f = ec_result_file(r, i);
    memcpy(w, f->path.ptr, f->path.len), w += f->path.len, *w++ = '=';
    if (f->content.len) memcpy(w, f->content.ptr, f->content.len), w += f->content.len;
    *w++ = ';';
  }
  *w = 0;
  return d;
}

static void sweep(const sweep_case *c, bool once) {
  failing fl = {-1, 0, false};
  ec_allocator alc = {f_malloc, f_realloc, f_free, &fl};
  ec_host host = {0};
  host.allocator = &alc;
  ec_result *r = ec_apply_json(c->json, strlen(c->json), &host);
  CHECK_MSG(r != NULL, "%s: no result without a failure", c->name);
  if (!r) return;
  char *want = result_digest(r);
  ec_status want_status = ec_result_status(r);
  ec_result_free(r);
  long total = fl.count, step = total > 1500 ? total / 1500 : 1;
  int bad = 0, ooms = 0;
  for (long k = 0; k <= total && bad < 5; k += step) {
    fl.left = k;
    fl.count = 0;
    fl.once = once;
    r = ec_apply_json(c->json, strlen(c->json), &host);
    if (!r) continue; /* no memory for the result itself: the documented NULL */
    bool ok;
    const ec_error *e = ec_result_error(r, 0);
    if (e && e->code == EC_OUT_OF_MEMORY) {
      ooms++;
      ok = ec_result_status(r) == EC_STATUS_ERROR && ec_result_file_count(r) == 0 && ec_result_block_count(r) == 0 &&
           ec_result_error_count(r) == 1 && strstr(e->message.ptr, "Send less at once");
    } else {
      char *got = result_digest(r);
      ok = ec_result_status(r) == want_status && !strcmp(got, want);
      if (!ok) fprintf(stderr, "  %s, failing from allocation %ld: got %.200s (error %s), want %.200s\n", c->name, k, got,
                       e ? ec_error_code_name(e->code) : "-", want);
      free(got);
    }
    /* the JSON response of whatever came back is UTF-8 JSON, or NULL for lack of memory */
    fl.left = -1;
    fl.once = false;
    size_t n = 0;
    char *json = ec_result_to_json(r, &host, &n);
    if (json) {
      cJSON *j = cJSON_ParseWithLength(json, n);
      ok = ok && j != NULL;
      cJSON_Delete(j);
      ec_free(&host, json);
    }
    ec_result_free(r);
    if (!ok) bad++;
  }
  CHECK_MSG(bad == 0, "%s (%s): %d answers were neither complete nor a clean OUT_OF_MEMORY (of %ld allocations swept)", c->name,
            once ? "one failure" : "failing from then on", bad, total);
  CHECK_MSG(ooms > 0, "%s: no OUT_OF_MEMORY seen over %ld allocations", c->name, total);
  free(want);
}

static const sweep_case SWEEPS[] = {
    {"replace", "{\"format\":\"replace\",\"files\":{\"a.py\":\"def f():\\n    return 1\\n\\ndef g():\\n    return 2\\n\"},"
                "\"edit\":{\"old_string\":\"def g():\\n  return 2\",\"new_string\":\"def g():\\n    return 3\"}}"},
    {"replace no match", "{\"format\":\"replace\",\"files\":{\"a.py\":\"def f():\\n    return 1\\n\"},\"edit\":{\"old_string\":\"def h():\",\"new_string\":\"x\"}}"},
    {"search_replace", "{\"format\":\"search_replace\",\"files\":{\"a\":\"a\\nb\\nc\\nd\\n\"},\"edit\":{\"text\":\"<<<<<<< SEARCH\\nb\\n=======\\nB\\n>>>>>>> REPLACE\\n"
                       "<<<<<<< SEARCH\\nd\\n=======\\nD\\n>>>>>>> REPLACE\\n\"}}"},
    {"unified_diff", "{\"format\":\"unified_diff\",\"files\":{\"a\":\"a\\nb\\nc\\n\"},\"edit\":{\"text\":\"--- a/a\\n+++ b/a\\n@@ -1,3 +1,3 @@\\n a\\n-b\\n+B\\n c\\n"
                     "--- /dev/null\\n+++ b/n\\n@@ -0,0 +1 @@\\n+new\\n\"}}"},
    {"codex_patch", "{\"format\":\"codex_patch\",\"files\":{\"a\":\"a\\nb\\nc\\n\"},\"edit\":{\"text\":\"*** Begin Patch\\n*** Update File: a\\n@@\\n a\\n-b\\n+B\\n"
                    "*** Add File: n\\n+x\\n*** End Patch\\n\"}}"},
    {"lazy", "{\"format\":\"lazy\",\"files\":{\"a.py\":\"import os\\n\\ndef f():\\n    return 1\\n\\ndef g():\\n    return 2\\n\"},"
             "\"edit\":{\"snippet\":\"# ... existing code ...\\ndef g():\\n    return 3\\n\"}}"},
    {"whole_file", "{\"format\":\"whole_file\",\"files\":{\"a\":\"a\\nb\\n\"},\"edit\":{\"content\":\"a\\nc\\n\"}}"},
    {"insert", "{\"format\":\"insert\",\"files\":{\"a\":\"a\\nb\\n\"},\"edit\":{\"insert_line\":1,\"new_str\":\"x\"}}"},
    {"aider partial", "{\"format\":\"search_replace\",\"profile\":\"aider\",\"files\":{\"a.py\":\"x = 1\\ny = 2\\n\"},\"edit\":{\"dialect\":\"aider\","
                      "\"text\":\"a.py\\n```\\n<<<<<<< SEARCH\\nx = 1\\n=======\\nx = 2\\n>>>>>>> REPLACE\\n```\\n\\na.py\\n```\\n<<<<<<< SEARCH\\nz = 1\\n=======\\nz = 2\\n>>>>>>> REPLACE\\n```\\n\"}}"},
    {"aider udiff", "{\"format\":\"unified_diff\",\"profile\":\"aider\",\"files\":{\"a.py\":\"x = 1\\ny = 2\\n\"},\"edit\":{\"text\":\"```diff\\n--- a.py\\n+++ a.py\\n@@ @@\\n-x = 1\\n+x = 3\\n```\\n\"}}"},
    {"roo", "{\"format\":\"search_replace\",\"profile\":\"roo\",\"files\":{\"a\":\"a\\nb\\nc\\n\"},\"edit\":{\"dialect\":\"roo\",\"text\":\"<<<<<<< SEARCH\\n:start_line:2\\n-------\\nb\\n=======\\nB\\n>>>>>>> REPLACE\"}}"},
    {"gemini", "{\"format\":\"replace\",\"profile\":\"gemini\",\"files\":{\"a\":\"  a = 1\\n  b = 2\\n\"},\"edit\":{\"old_string\":\"a = 1\\nb = 2\",\"new_string\":\"a = 3\\nb = 4\"}}"},
    {"expected_hash conflict", "{\"format\":\"replace\",\"files\":{\"a\":\"x\\n\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"expected_hash\":{\"a\":\"0000000000000000000000000000000000000000000000000000000000000000\"}}}"},
};

int main(void) {
  strict_json();
  limits();
  latin1();
  for (size_t i = 0; i < sizeof SWEEPS / sizeof SWEEPS[0]; i++) {
    sweep(&SWEEPS[i], false);
    sweep(&SWEEPS[i], true);
  }
  TEST_MAIN_END();
}
