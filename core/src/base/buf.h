/*
 * A growable byte buffer on the host allocator. Appends never fail loudly: on out-of-memory the
 * buffer records it and later appends do nothing, so builders check once, at the end.
 */
#ifndef EC_BASE_BUF_H
#define EC_BASE_BUF_H
#include "arena.h"

/* What a streaming buffer hands its bytes to; false stops it (recorded as `failed`). */
typedef bool (*ec_buf_sink)(void *user, const char *bytes, size_t n);

typedef struct ec_buf {
  char *ptr;
  size_t len, cap;
  const ec_allocator *alc;
  bool oom;
  /* Streaming (ec_buf_init_sink): the buffer is a window of EC_BUF_WINDOW bytes that goes to the
   * sink whenever it fills, and appends larger than the window go straight through, so the whole
   * text is never held at once. */
  ec_buf_sink sink;
  void *sink_user;
} ec_buf;

#define EC_BUF_WINDOW ((size_t)1 << 16)

void ec_buf_init(ec_buf *b, const ec_allocator *alc);
/** A streaming buffer: bytes reach `sink` in order, in pieces; ec_buf_flush sends the rest.
 *  A sink that fails, or a failed allocation, sets `oom` and later appends do nothing. */
void ec_buf_init_sink(ec_buf *b, const ec_allocator *alc, ec_buf_sink sink, void *user);
/** Streaming: hands what the window holds to the sink. false when anything failed. */
bool ec_buf_flush(ec_buf *b);
/** Room for `extra` more bytes at ptr + len (and a NUL); a streaming buffer flushes first. */
bool ec_buf_reserve(ec_buf *b, size_t extra);
void ec_buf_append(ec_buf *b, const char *p, size_t n);
void ec_buf_append_str(ec_buf *b, ec_str s);
void ec_buf_append_cstr(ec_buf *b, const char *s);
void ec_buf_append_char(ec_buf *b, char c);
/** s, then a line feed: a line of a text being rebuilt. */
void ec_buf_append_line(ec_buf *b, ec_str s);
/** v in decimal: what "%llu" prints, without printf's cost (a response writes a dozen numbers). */
void ec_buf_append_uint(ec_buf *b, unsigned long long v);
void ec_buf_printf(ec_buf *b, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void ec_buf_free(ec_buf *b);
/** Hands the bytes (NUL-terminated) to the caller, who frees them with the buffer's allocator
 *  (ec_free for a host's); their length in *len when not NULL. NULL, the buffer freed, on OOM. */
char *ec_buf_take(ec_buf *b, size_t *len);
/** Hands the bytes (NUL-terminated) to the arena and resets the buffer. ptr NULL on OOM. */
ec_str ec_buf_finish(ec_buf *b, ec_arena *a);

#endif
