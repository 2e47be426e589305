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
  ec_allocator alc;
  bool has_alc;
  chunk *chunks;
  big *bigs;
};

static const ec_allocator *alc_of(const ec_arena *a) { return a->has_alc ? &a->alc : NULL; }
const ec_allocator *ec_arena_allocator(const ec_arena *a) { return alc_of(a); }

ec_arena *ec_arena_new(const ec_allocator *alc) {
  ec_arena *a = ec_mem_malloc(alc, sizeof *a);
  if (!a) return NULL;
  memset(a, 0, sizeof *a);
  if (alc) { a->alc = *alc; a->has_alc = true; }
  return a;
}

void ec_arena_free(ec_arena *a) {
  if (!a) return;
  const ec_allocator *alc = alc_of(a);
  for (big *b = a->bigs; b;) { big *n = b->next; ec_mem_free(alc, b->block); b = n; }
  for (chunk *c = a->chunks; c;) { chunk *n = c->next; ec_mem_free(alc, c); c = n; }
  ec_allocator copy = a->alc;
  ec_mem_free(a->has_alc ? &copy : NULL, a);
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
  if (n > SIZE_MAX - 64) return NULL;
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
  if (size && count > SIZE_MAX / size) return NULL;
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
