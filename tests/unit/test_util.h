/* A minimal test harness: CHECK records failures; TEST_MAIN prints "N passed, N failed". */
#ifndef EDITCORE_TEST_UTIL_H
#define EDITCORE_TEST_UTIL_H
#include <stdio.h>
#include <string.h>

static int tu_passed, tu_failed;

#define CHECK(cond)                                                            \
  do {                                                                         \
    if (cond) tu_passed++;                                                     \
    else { tu_failed++; fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } \
  } while (0)

#define CHECK_STR(got_ptr, got_len, want)                                      \
  do {                                                                         \
    const char *w_ = (want);                                                   \
    size_t wl_ = strlen(w_);                                                   \
    if ((size_t)(got_len) == wl_ && memcmp((got_ptr), w_, wl_) == 0) tu_passed++; \
    else { tu_failed++; fprintf(stderr, "%s:%d: got \"%.*s\", want \"%s\"\n", __FILE__, __LINE__, (int)(got_len), (const char *)(got_ptr), w_); } \
  } while (0)

/* CHECK with a printf-style explanation printed when it fails. */
#define CHECK_MSG(cond, ...)                                                   \
  do {                                                                         \
    if (cond) tu_passed++;                                                     \
    else {                                                                     \
      tu_failed++;                                                             \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
    }                                                                          \
  } while (0)

#define TEST_MAIN_END()                                                        \
  do {                                                                         \
    printf("%d passed, %d failed\n", tu_passed, tu_failed);                    \
    return tu_failed ? 1 : 0;                                                  \
  } while (0)

#endif
