/* The JSON protocol layer: strict parsing, NUL bytes across the boundary, the response shape. */
#include "test_util.h"
#include "editcore.h"
#include <cjson/cJSON.h>
#include <stdlib.h>
#include "base/buf.h"
#include "base/utf8.h"
#include "protocol/json_response.h"
#include "protocol/json_strict.h"

static cJSON *run(const char *req) {
  size_t n = 0;
  char *out = ec_run_json(req, strlen(req), NULL, &n);
  cJSON *j = out ? cJSON_ParseWithLength(out, n) : NULL;
  if (out && strlen(out) != n) { cJSON_Delete(j); j = NULL; }
  ec_free(NULL, out);
  return j;
}

static const char *code_of(cJSON *j) {
  cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");
  cJSON *c = cJSON_GetObjectItemCaseSensitive(e, "code");
  return cJSON_IsString(c) ? c->valuestring : "";
}

static const char *content_of(cJSON *j, const char *path) {
  cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "data"), "files"), path);
  cJSON *c = cJSON_GetObjectItemCaseSensitive(f, "content");
  return cJSON_IsString(c) ? c->valuestring : NULL;
}

#define EXPECT_CODE(req, want)                                  \
  do {                                                          \
    cJSON *j_ = run(req);                                       \
    CHECK(j_ != NULL);                                          \
    if (j_) { if (strcmp(code_of(j_), want)) fprintf(stderr, "  for %s: got %s\n", req, code_of(j_)); CHECK(!strcmp(code_of(j_), want)); } \
    cJSON_Delete(j_);                                           \
  } while (0)

/* The response writers' buffer (base/buf.c: appends under 16 bytes copied by hand, no reserve
 * call when the room is there): every length across every capacity boundary gives the bytes a
 * plain copy gives; a streaming buffer's sink gets them in order; after a failed growth, later
 * appends do nothing (buf.h), even ones that would fit. */
static void *grow_fail_realloc(void *user, void *p, size_t n) {
  int *left = user;
  return (*left)-- > 0 ? realloc(p, n) : NULL;
}
static void *plain_malloc(void *user, size_t n) { (void)user; return malloc(n); }
static void plain_free(void *user, void *p) { (void)user; free(p); }
static bool collect(void *user, const char *bytes, size_t n) {
  ec_buf *to = user;
  ec_buf_append(to, bytes, n);
  return !to->oom;
}

static void test_buf_appends(void) {
  char src[300], want[40000];
  for (size_t i = 0; i < sizeof src; i++) src[i] = (char)('a' + i * 7 % 26);
  ec_buf b, streamed, via_sink;
  ec_buf_init(&b, NULL);
  ec_buf_init(&streamed, NULL);
  ec_buf_init_sink(&via_sink, NULL, collect, &streamed);
  size_t len = 0;
  unsigned seed = 7;
  for (int k = 0; k < 400; k++) {
    seed = seed * 1103515245u + 12345u;
    size_t n = (seed >> 16) % (k % 3 ? 20 : 90), at = (seed >> 8) % 200;
    if (n == 1 && k % 2) { ec_buf_append_char(&b, src[at]); ec_buf_append_char(&via_sink, src[at]); }
    else { ec_buf_append(&b, src + at, n); ec_buf_append(&via_sink, src + at, n); }
    memcpy(want + len, src + at, n);
    len += n;
    CHECK(b.len == len && b.ptr[len] == 0);
  }
  CHECK(!b.oom && memcmp(b.ptr, want, len) == 0);
  CHECK(ec_buf_flush(&via_sink) && streamed.len == len && memcmp(streamed.ptr, want, len) == 0);
  ec_buf_free(&b);
  ec_buf_free(&streamed);
  ec_buf_free(&via_sink);

  int left = 1; /* the first allocation works, the first growth fails */
  ec_allocator fails = {plain_malloc, grow_fail_realloc, plain_free, &left};
  ec_buf_init(&b, &fails);
  ec_buf_append(&b, src, 200);
  CHECK(!b.oom && b.len == 200);
  ec_buf_append(&b, src, 100); /* needs more than the 256 B first block */
  CHECK(b.oom && b.len == 200);
  ec_buf_append(&b, "x", 1);
  ec_buf_append_char(&b, 'y');
  CHECK(b.len == 200);
  ec_buf_free(&b);
}

/* The strict check's escapes: exactly RFC 8259's eight letters and \u (each byte tried). */
static void test_strict_escapes(void) {
  for (int e = 1; e < 256; e++) {
    char text[8] = {'"', '\\', (char)e, '"', 0};
    size_t at = 0;
    const char *what = NULL;
    bool ok = ec_json_strict_check(text, 4, &at, &what);
    CHECK_MSG(ok == (strchr("\"\\/bfnrt", e) != NULL), "escape %d", e);
  }
}

int main(void) {
  test_buf_appends();
  test_strict_escapes();
  /* malformed and ill-typed requests */
  EXPECT_CODE("", "INVALID_PARAM");
  EXPECT_CODE("{", "INVALID_PARAM");
  EXPECT_CODE("[]", "INVALID_PARAM");
  EXPECT_CODE("null", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\"}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"nope\",\"edit\":{}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":7,\"edit\":{}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"edit\":{},\"extra\":1}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"edit\":[]}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":1},\"edit\":{\"old_string\":\"a\",\"new_string\":\"b\"}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"diff_context\":-1}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"diff_context\":1.5}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"strategies\":[\"warp\"]}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"fuzzy_threshold\":2}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"},\"options\":{\"limits\":{\"bogus\":1}}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\",\"a\":\"y\"},\"edit\":{\"path\":\"a\",\"old_string\":\"x\",\"new_string\":\"y\"}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"edit\":{\"old_string\":\"x\",\"old_string\":\"x\",\"new_string\":\"y\"}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"profile\":\"vim\",\"edit\":{}}", "INVALID_PARAM");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\",\"expected_replacements\":-3}}", "INVALID_PARAM");
  /* a raw NUL byte inside the JSON text */
  {
    const char raw[] = "{\"format\":\"replace\",\"files\":{\"a\":\"x\0\"},\"edit\":{}}";
    size_t n = 0;
    char *out = ec_run_json(raw, sizeof raw - 1, NULL, &n);
    CHECK(out && strstr(out, "INVALID_PARAM"));
    ec_free(NULL, out);
  }
  /* a request ending in a backslash (found by fuzz_json) */
  {
    const char raw[] = "{\"format\":\"replace\",\"edit\":{}}\\";
    char *heap = malloc(sizeof raw - 1);
    memcpy(heap, raw, sizeof raw - 1);
    size_t n = 0;
    char *out = ec_run_json(heap, sizeof raw - 1, NULL, &n);
    CHECK(out && strstr(out, "INVALID_PARAM"));
    ec_free(NULL, out);
    free(heap);
  }
  /* \u0000 survives: a file with NUL is binary, a path with NUL is still a path */
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"x\\u0000y\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"z\"}}", "BINARY_FILE");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"a\":\"xy\"},\"edit\":{\"old_string\":\"x\\u0000\",\"new_string\":\"z\"}}", "INVALID_PARAM");
  /* the private-use code point chosen as the NUL stand-in never collides with real text */
  {
    cJSON *j = run("{\"format\":\"replace\",\"files\":{\"a\":\"\\ue000 \xee\x80\x81 \\uE002 x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\\u0000\"}}");
    CHECK(j && !strcmp(code_of(j), "INVALID_PARAM"));
    cJSON_Delete(j);
    j = run("{\"format\":\"replace\",\"files\":{\"a\":\"\\ue000 \xee\x80\x81 x\"},\"edit\":{\"old_string\":\"x\",\"new_string\":\"y\"}}");
    CHECK(j && content_of(j, "a") && !strcmp(content_of(j, "a"), "\xee\x80\x80 \xee\x80\x81 y"));
    cJSON_Delete(j);
  }
  /* escapes in output: control characters and quotes round-trip */
  {
    cJSON *j = run("{\"format\":\"replace\",\"files\":{\"q\\\"\\\\\":\"a\\u0001\\t\\\"b\\\"\\n\"},\"edit\":{\"old_string\":\"b\",\"new_string\":\"\\u001f\\\\\"}}");
    CHECK(j && content_of(j, "q\"\\") && !strcmp(content_of(j, "q\"\\"), "a\x01\t\"\x1f\\\"\n"));
    cJSON_Delete(j);
  }
  /* the envelope */
  {
    cJSON *j = run("{\"format\":\"replace\",\"files\":{\"f\":\"a\\nb\\n\"},\"edit\":{\"old_string\":\"b\",\"new_string\":\"c\"},\"options\":{\"diff_context\":0}}");
    CHECK(j != NULL);
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring, "success"));
    cJSON *data = cJSON_GetObjectItemCaseSensitive(j, "data");
    CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(data, "applied")));
    cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(data, "files"), "f");
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(f, "diff")->valuestring, "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+c\n"));
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(f, "undo")->valuestring, "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-c\n+b\n"));
    CHECK(cJSON_GetObjectItemCaseSensitive(f, "replacements")->valueint == 1);
    cJSON *stats = cJSON_GetObjectItemCaseSensitive(j, "stats");
    CHECK(cJSON_GetObjectItemCaseSensitive(stats, "bytes_in")->valueint == 4);
    CHECK(cJSON_GetObjectItemCaseSensitive(stats, "bytes_out")->valueint == 4);
    CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "text")));
    CHECK(cJSON_GetObjectItemCaseSensitive(j, "error") == NULL);
    cJSON_Delete(j);
  }
  /* diff truncation makes the result partial */
  {
    cJSON *j = run("{\"format\":\"whole_file\",\"files\":{\"f\":\"a\\nb\\nc\\n\"},\"edit\":{\"content\":\"x\\ny\\nz\\n\"},\"options\":{\"diff_max_bytes\":30}}");
    CHECK(j && !strcmp(cJSON_GetObjectItemCaseSensitive(j, "status")->valuestring, "partial"));
    cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "data"), "files"), "f");
    CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "diff_truncated")));
    CHECK(strlen(cJSON_GetObjectItemCaseSensitive(f, "diff")->valuestring) <= 30);
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(f, "content")->valuestring, "x\ny\nz\n"));
    cJSON_Delete(j);
  }
  /* limits */
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"f\":\"abcdef\"},\"edit\":{\"old_string\":\"a\",\"new_string\":\"b\"},\"options\":{\"limits\":{\"max_input_bytes\":4}}}", "TOO_LARGE");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"f\":\"a\\nb\\nc\\n\"},\"edit\":{\"old_string\":\"a\",\"new_string\":\"b\"},\"options\":{\"limits\":{\"max_lines\":2}}}", "TOO_LARGE");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"f\":\"short\\nmuch longer line\\n\"},\"edit\":{\"old_string\":\"short\",\"new_string\":\"b\"},\"options\":{\"limits\":{\"max_line_bytes\":8}}}", "TOO_LARGE");
  EXPECT_CODE("{\"format\":\"replace\",\"files\":{\"f\":\"a\\nb\\n\"},\"edit\":{\"old_string\":\"a\",\"new_string\":\"c\"},\"options\":{\"limits\":{\"max_lines\":2,\"max_line_bytes\":1}}}", "");
  /* a null file is absent */
  {
    cJSON *j = run("{\"format\":\"replace\",\"files\":{\"n\":null},\"edit\":{\"path\":\"n\",\"old_string\":\"\",\"new_string\":\"hi\"}}");
    CHECK(j && content_of(j, "n") && !strcmp(content_of(j, "n"), "hi"));
    cJSON *f = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(j, "data"), "files"), "n");
    CHECK(!strcmp(cJSON_GetObjectItemCaseSensitive(f, "action")->valuestring, "add"));
    CHECK(!strncmp(cJSON_GetObjectItemCaseSensitive(f, "diff")->valuestring, "--- /dev/null\n+++ b/n\n", 22));
    cJSON_Delete(j);
  }
  /* The string writer (a word at a time) round-trips any UTF-8 but NUL through a JSON parser;
   * a byte that is not UTF-8 comes out as U+FFFD, so the response stays UTF-8 JSON text. */
  {
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    int bad = 0;
    for (int round = 0; round < 3000; round++) {
      char text[200];
      size_t n = (size_t)(round % 199);
      for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned v = (unsigned)(seed >> 33);
        /* mostly printable, with quotes, backslashes, controls and high bytes mixed in */
        unsigned char c = (v & 7) == 0 ? (unsigned char)(1 + v % 31) : (v & 7) == 1 ? '"' : (v & 7) == 2 ? '\\' : (unsigned char)(32 + (v >> 3) % 224);
        text[i] = (char)(c ? c : 'x');
      }
      ec_buf b;
      ec_buf_init(&b, NULL);
      ec_json_write_string(&b, (ec_str){text, n});
      ec_buf_append_char(&b, 0);
      char want[600];
      size_t w = 0;
      for (size_t i = 0; i < n;) {
        size_t k = ec_utf8_valid_len((const unsigned char *)text + i, n - i);
        if (k) { memcpy(want + w, text + i, k); w += k; i += k; }
        else { memcpy(want + w, "\xEF\xBF\xBD", 3); w += 3; i++; }
      }
      cJSON *j = cJSON_Parse(b.ptr);
      if (!j || !cJSON_IsString(j) || strlen(j->valuestring) != w || memcmp(j->valuestring, want, w)) bad++;
      cJSON_Delete(j);
      ec_buf_free(&b);
    }
    CHECK(bad == 0);
  }
  TEST_MAIN_END();
}
