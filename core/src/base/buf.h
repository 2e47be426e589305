/*
 * A growable byte buffer on the host allocator. Appends never fail loudly: on out-of-memory the
 * buffer records it and later appends do nothing, so builders check once, at the end.
 */
#ifndef EC_BASE_BUF_H
#define EC_BASE_BUF_H
#include "arena.h"

typedef struct ec_buf {
  char *ptr;
  size_t len, cap;
  const ec_allocator *alc;
  bool oom;
} ec_buf;

void ec_buf_init(ec_buf *b, const ec_allocator *alc);
bool ec_buf_reserve(ec_buf *b, size_t extra);
void ec_buf_append(ec_buf *b, const char *p, size_t n);
void ec_buf_append_str(ec_buf *b, ec_str s);
void ec_buf_append_cstr(ec_buf *b, const char *s);
void ec_buf_append_char(ec_buf *b, char c);
void ec_buf_printf(ec_buf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void ec_buf_free(ec_buf *b);
/** Hands the bytes (NUL-terminated) to the arena and resets the buffer. ptr NULL on OOM. */
ec_str ec_buf_finish(ec_buf *b, ec_arena *a);

#endif
