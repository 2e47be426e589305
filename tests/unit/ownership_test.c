/* editcore.h promises that a result owns every string it hands out, paths included: the request's
 * buffers may be scribbled over and freed as soon as ec_apply returns. Each case builds its
 * request in heap copies, applies it, wipes and frees them, then reads the result. (Under the
 * asan preset a borrowed pointer is also a use-after-free report.) Also: every
 * allocation goes through the host's allocator (a counting allocator sees the regex strategy's). */
#include "editcore.h"
#include "test_util.h"
#include <stdlib.h>

static char *dup_of(const char *s) {
  size_t n = strlen(s);
  char *p = malloc(n + 1);
  memcpy(p, s, n + 1);
  return p;
}

static void wipe(char *p) {
  memset(p, 'X', strlen(p));
  free(p);
}

static ec_str str_of(const char *p) {
  ec_str s = {p, strlen(p)};
  return s;
}

static void check_replace_paths(void) {
  char *path = dup_of("src/app.py"), *content = dup_of("def f():\n    return 1\n");
  char *old_s = dup_of("return 2"), *new_s = dup_of("return 3");
  ec_file file = {str_of(path), str_of(content)};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &file;
  req.n_files = 1;
  req.edit.old_string = str_of(old_s);
  req.edit.new_string = str_of(new_s);
  req.edit.has_old_string = req.edit.has_new_string = true;
  ec_result *r = ec_apply(&req, NULL);
  wipe(path); wipe(content); wipe(old_s); wipe(new_s);
  CHECK(r && ec_result_status(r) == EC_STATUS_ERROR);
  const ec_error *e = ec_result_error(r, 0);
  CHECK(e && e->code == EC_NO_MATCH);
  if (e) {
    CHECK_STR(e->path.ptr, e->path.len, "src/app.py");
    CHECK(e->n_candidates >= 1);
    if (e->n_candidates) CHECK_STR(e->candidates[0].text.ptr, e->candidates[0].text.len, "    return 1");
  }
  ec_result_free(r);
}

static void check_whole_file_add(void) {
  char *path = dup_of("new/notes.md"), *content = dup_of("hello\n");
  ec_request req;
  ec_request_init(&req, EC_FORMAT_WHOLE_FILE);
  req.edit.path = str_of(path);
  req.edit.content = str_of(content);
  req.edit.has_content = true;
  ec_result *r = ec_apply(&req, NULL);
  wipe(path); wipe(content);
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS);
  const ec_file_result *f = ec_result_file(r, 0);
  CHECK(f != NULL);
  if (f) {
    CHECK_STR(f->path.ptr, f->path.len, "new/notes.md");
    CHECK_STR(f->content.ptr, f->content.len, "hello\n");
  }
  ec_result_free(r);
}

static void check_parse_only_blocks(void) {
  char *text = dup_of("a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n");
  char *path = dup_of("a.py"), *content = dup_of("x = 1\n");
  ec_file file = {str_of(path), str_of(content)};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_SEARCH_REPLACE);
  req.files = &file;
  req.n_files = 1;
  req.edit.text = str_of(text);
  req.edit.parse_only = true;
  ec_result *r = ec_apply(&req, NULL);
  wipe(text); wipe(path); wipe(content);
  CHECK(r && ec_result_block_count(r) == 1);
  const ec_block *b = r ? ec_result_block(r, 0) : NULL;
  if (b) {
    CHECK_STR(b->path.ptr, b->path.len, "a.py");
    CHECK_STR(b->search.ptr, b->search.len, "x = 1\n");
    CHECK_STR(b->replace.ptr, b->replace.len, "x = 2\n");
  }
  ec_result_free(r);
}

/* Every allocation goes through the host's allocator (editcore.h), the regex strategy's included. On glibc
 * the test defines malloc itself (an executable's definition wins over libc's, for shared
 * libraries too) and counts the calls made while ec_apply runs with a host
 * allocator: there must be none. Sanitizers bring their own malloc, so there the check is off. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EC_TEST_ASAN 1
#endif
#endif
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(EC_TEST_ASAN)
#define COUNT_LIBC 1
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
static int watching;
static size_t libc_calls, host_calls;
void *malloc(size_t n) { libc_calls += watching; return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { libc_calls += watching; return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { libc_calls += watching; return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
static void *host_malloc(void *u, size_t n) { (void)u; host_calls++; return __libc_malloc(n); }
static void *host_realloc(void *u, void *p, size_t n) { (void)u; host_calls++; return __libc_realloc(p, n); }
static void host_free(void *u, void *p) { (void)u; __libc_free(p); }

static void check_all_allocations_through_host(void) {
  static const ec_strategy WITH_REGEX[] = {EC_STRATEGY_EXACT, EC_STRATEGY_REGEX};
  ec_allocator alc = {host_malloc, host_realloc, host_free, NULL};
  ec_host host = {&alc, NULL, NULL};
  ec_file file = {str_of("f.c"), str_of("int main( void ) {\n  return f( a,b );\n}\n")};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.files = &file;
  req.n_files = 1;
  req.edit.old_string = str_of("return f(a, b);");
  req.edit.new_string = str_of("return g(a, b);");
  req.edit.has_old_string = req.edit.has_new_string = true;
  req.options.strategies = WITH_REGEX;
  req.options.n_strategies = 2;
  watching = 1;
  ec_result *r = ec_apply(&req, &host);
  watching = 0;
  CHECK(r && ec_result_status(r) == EC_STATUS_SUCCESS);
  const ec_file_result *f = r ? ec_result_file(r, 0) : NULL;
  CHECK(f && f->n_matches == 1 && f->matches[0].strategy == EC_STRATEGY_REGEX);
  CHECK(host_calls > 0);
  CHECK_MSG(libc_calls == 0, "%zu allocations bypassed the host's allocator", libc_calls);
  ec_result_free(r);
}
#endif

int main(void) {
  check_replace_paths();
  check_whole_file_add();
  check_parse_only_blocks();
#ifdef COUNT_LIBC
  check_all_allocations_through_host();
#endif
  TEST_MAIN_END();
}
