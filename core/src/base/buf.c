#include "buf.h"
#include "alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Keeps a copying loop a loop (clang would make it a memcpy call: see ec_buf_append). */
#if defined(__clang__)
#define NO_BUILTIN_MEMCPY __attribute__((no_builtin("memcpy")))
#else
#define NO_BUILTIN_MEMCPY
#endif

void ec_buf_init(ec_buf *b, const ec_allocator *alc) {
  memset(b, 0, sizeof *b);
  b->alc = alc;
}

void ec_buf_init_sink(ec_buf *b, const ec_allocator *alc, ec_buf_sink sink, void *user) {
  ec_buf_init(b, alc);
  b->sink = sink;
  b->sink_user = user;
}

bool ec_buf_flush(ec_buf *b) {
  if (b->oom) return false;
  if (b->sink && b->len) {
    if (!b->sink(b->sink_user, b->ptr, b->len)) { b->oom = true; return false; }
    b->len = 0;
  }
  return true;
}

bool ec_buf_reserve(ec_buf *b, size_t extra) {
  if (b->oom) return false;
  if (b->sink && b->len + extra + 1 > b->cap && !ec_buf_flush(b)) return false;
  if (extra > SIZE_MAX - b->len - 1) { b->oom = true; return false; }
  size_t need = b->len + extra + 1;
  if (need <= b->cap) return true;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < need) cap = cap > SIZE_MAX / 2 ? need : cap * 2;
  char *p = ec_mem_realloc(b->alc, b->ptr, cap);
  if (!p) { b->oom = true; return false; }
  b->ptr = p;
  b->cap = cap;
  return true;
}

NO_BUILTIN_MEMCPY void ec_buf_append(ec_buf *b, const char *p, size_t n) {
  if (!n) return;
  /* Room for it and the NUL already (nothing streams, nothing failed): no reserve to call. */
  if (b->sink || b->oom || n >= b->cap - b->len) {
    if (b->sink && n >= EC_BUF_WINDOW) { /* a long run goes straight through */
      if (ec_buf_flush(b) && !b->sink(b->sink_user, p, n)) b->oom = true;
      return;
    }
    if (b->sink && !b->cap && !ec_buf_reserve(b, EC_BUF_WINDOW - 1)) return;
    if (!ec_buf_reserve(b, n)) return;
  }
  char *d = b->ptr + b->len;
  b->len += n;
  /* A few bytes are copied by hand: in wasm, memcpy is memory.copy, which V8 runs as a call out
   * of the module's code, dearer than such a copy (the response writers append hundreds a call:
   * BENCHMARKS.md, "The 10 KB rows, third pass"). no_builtin keeps the loop a loop. */
  if (n < 16) while (n--) *d++ = *p++;
  else memcpy(d, p, n);
  b->ptr[b->len] = 0;
}

void ec_buf_append_str(ec_buf *b, ec_str s) { ec_buf_append(b, s.ptr, s.len); }
void ec_buf_append_cstr(ec_buf *b, const char *s) { ec_buf_append(b, s, strlen(s)); }
void ec_buf_append_char(ec_buf *b, char c) { ec_buf_append(b, &c, 1); }

void ec_buf_append_line(ec_buf *b, ec_str s) {
  ec_buf_append_str(b, s);
  ec_buf_append_char(b, '\n');
}

void ec_buf_append_uint(ec_buf *b, unsigned long long v) {
  char d[20];
  size_t n = sizeof d;
  do { d[--n] = (char)('0' + v % 10); v /= 10; } while (v);
  ec_buf_append(b, d + n, sizeof d - n);
}

void ec_buf_printf(ec_buf *b, const char *fmt, ...) {
  char small[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n < sizeof small) { ec_buf_append(b, small, (size_t)n); return; }
  if (!ec_buf_reserve(b, (size_t)n)) return;
  va_start(ap, fmt);
  vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

void ec_buf_free(ec_buf *b) {
  ec_mem_free(b->alc, b->ptr);
  b->ptr = NULL;
  b->len = b->cap = 0;
}

char *ec_buf_take(ec_buf *b, size_t *len) {
  if (b->oom || !ec_buf_reserve(b, 0)) { ec_buf_free(b); return NULL; }
  if (len) *len = b->len;
  return b->ptr;
}

ec_str ec_buf_finish(ec_buf *b, ec_arena *a) {
  ec_str s = {0, 0};
  if (b->oom || !ec_buf_reserve(b, 0)) { ec_buf_free(b); return s; }
  b->ptr[b->len] = 0;
  if (b->len < EC_ARENA_SMALL) { /* into the arena's chunks: a malloc'd block of its own per small string (a */
    s = ec_arena_strdup(a, b->ptr, b->len); /* re-indented replacement per place) had cost 350 bytes each */
    ec_buf_free(b);
    return s;
  }
  if (b->cap - b->len > (b->len >> 3) + 4096) { /* what doubling left over goes back (a 100 MB undo had 128 MB) */
    char *p = ec_mem_realloc(b->alc, b->ptr, b->len + 1);
    if (p) { b->ptr = p; b->cap = b->len + 1; }
  }
  if (!ec_arena_adopt(a, b->ptr)) { b->ptr = NULL; b->len = b->cap = 0; return s; }
  s.ptr = b->ptr;
  s.len = b->len;
  b->ptr = NULL;
  b->len = b->cap = 0;
  return s;
}
