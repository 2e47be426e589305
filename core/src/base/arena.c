#include "arena.h"
#include "alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CHUNK_SIZE (64 * 1024)
#define BIG_THRESHOLD (16 * 1024)

typedef struct chunk {
  struct chunk *next;
  size_t used, size;
  max_align_t align_[]; /* payload follows */
} chunk;

typedef struct big {
  struct big *next, *prev;
  void *block;
} big;

struct ec_arena {
  ec_allocator host;  /* the allocator the arena was made with */
  bool has_host;
  ec_allocator alc;   /* what the arena and its users allocate through: the host's, noting failures */
  bool failed;        /* an allocation through alc failed (ec_arena_failed) */
  chunk *chunks;
  big *bigs;
};

/* Every allocation made for a request goes through its arena's allocator (the arena's own, the
 * growable buffers', the scratch arenas made from it), so one flag here sees every failure, even
 * one a caller forgot to check: the request then answers OUT_OF_MEMORY, never a wrong result. */
static const ec_allocator *host_of(const ec_arena *a) { return a->has_host ? &a->host : NULL; }
static void *noting_malloc(void *user, size_t n) {
  ec_arena *a = user;
  void *p = ec_mem_malloc(host_of(a), n);
  if (!p) a->failed = true;
  return p;
}
static void *noting_realloc(void *user, void *old, size_t n) {
  ec_arena *a = user;
  void *p = ec_mem_realloc(host_of(a), old, n);
  if (!p) a->failed = true;
  return p;
}
static void noting_free(void *user, void *p) { ec_mem_free(host_of((ec_arena *)user), p); }

static const ec_allocator *alc_of(const ec_arena *a) { return &a->alc; }
const ec_allocator *ec_arena_allocator(const ec_arena *a) { return alc_of(a); }
bool ec_arena_failed(const ec_arena *a) { return a->failed; }

ec_arena *ec_arena_new(const ec_allocator *alc) {
  ec_arena *a = ec_mem_malloc(alc, sizeof *a);
  if (!a) return NULL;
  memset(a, 0, sizeof *a);
  if (alc) { a->host = *alc; a->has_host = true; }
  a->alc.malloc = noting_malloc;
  a->alc.realloc = noting_realloc;
  a->alc.free = noting_free;
  a->alc.user = a;
  return a;
}

void ec_arena_free(ec_arena *a) {
  if (!a) return;
  const ec_allocator *alc = host_of(a);
  for (big *b = a->bigs; b;) { big *n = b->next; ec_mem_free(alc, b->block); b = n; }
  for (chunk *c = a->chunks; c;) { chunk *n = c->next; ec_mem_free(alc, c); c = n; }
  ec_allocator copy = a->host;
  ec_mem_free(a->has_host ? &copy : NULL, a);
}

static void *small_alloc(ec_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  chunk *c = a->chunks;
  if (!c || c->size - c->used < n) {
    c = ec_mem_malloc(alc_of(a), sizeof(chunk) + CHUNK_SIZE);
    if (!c) return NULL;
    c->used = 0;
    c->size = CHUNK_SIZE;
    c->next = a->chunks;
    a->chunks = c;
  }
  void *p = (char *)(c + 1) + c->used;
  c->used += n;
  return p;
}

bool ec_arena_adopt(ec_arena *a, void *block) {
  big *b = small_alloc(a, sizeof *b);
  if (!b) { ec_mem_free(alc_of(a), block); return false; }
  b->block = block;
  b->prev = NULL;
  b->next = a->bigs;
  if (a->bigs) a->bigs->prev = b;
  a->bigs = b;
  return true;
}

void *ec_arena_alloc(ec_arena *a, size_t n) {
  if (n > SIZE_MAX - 64) { a->failed = true; return NULL; }
  if (n < BIG_THRESHOLD) return small_alloc(a, n ? n : 1);
  void *block = ec_mem_malloc(alc_of(a), n);
  if (!block) return NULL;
  return ec_arena_adopt(a, block) ? block : NULL;
}

void ec_arena_release(ec_arena *a, void *block) {
  for (big *b = a->bigs; b; b = b->next) {
    if (b->block != block) continue;
    if (b->prev) b->prev->next = b->next; else a->bigs = b->next;
    if (b->next) b->next->prev = b->prev;
    ec_mem_free(alc_of(a), block);
    return;
  }
}

void *ec_arena_calloc(ec_arena *a, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) { a->failed = true; return NULL; }
  void *p = ec_arena_alloc(a, count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void *ec_arena_grow(ec_arena *a, void *old, size_t old_n, size_t new_n) {
  void *p = ec_arena_alloc(a, new_n);
  if (p && old && old_n) memcpy(p, old, old_n < new_n ? old_n : new_n);
  if (p && old && old_n >= BIG_THRESHOLD) ec_arena_release(a, old);
  return p;
}

bool ec_arena_reserve(ec_arena *a, void *items_ptr, size_t size, size_t n, size_t *cap, size_t first) {
  if (n < *cap) return true;
  size_t nc = *cap ? *cap * 2 : first;
  if (nc < *cap || (size && nc > SIZE_MAX / size)) return false;
  void *old;
  memcpy(&old, items_ptr, sizeof old); /* items_ptr is a T**; object pointers share one representation */
  void *p = ec_arena_grow(a, old, *cap * size, nc * size);
  if (!p) return false;
  memcpy(items_ptr, &p, sizeof p);
  *cap = nc;
  return true;
}

ec_str ec_arena_strdup(ec_arena *a, const char *p, size_t n) {
  ec_str s = {0, 0};
  char *d = ec_arena_alloc(a, n + 1);
  if (!d) return s;
  if (n) memcpy(d, p, n);
  d[n] = 0;
  s.ptr = d;
  s.len = n;
  return s;
}

ec_str ec_arena_printf(ec_arena *a, const char *fmt, ...) {
  ec_str s = {0, 0};
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return s;
  char *d = ec_arena_alloc(a, (size_t)n + 1);
  if (!d) return s;
  va_start(ap, fmt);
  vsnprintf(d, (size_t)n + 1, fmt, ap);
  va_end(ap);
  s.ptr = d;
  s.len = (size_t)n;
  return s;
}
