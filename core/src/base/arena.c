#include "arena.h"
#include "alloc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
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
  /* block -> its big node, so ec_arena_release is O(1): it is called for every doc a step
   * replaces, and a walk of the list made 9,999 created files quadratic (1.7 s of 1.75). */
  struct bslot { void *block; big *node; } *table;
  size_t table_cap, table_n;  /* cap 0 or a power of two, at most half full */
};

static size_t slot_of(const ec_arena *a, const void *block) {
  uint64_t h = (uint64_t)(uintptr_t)block * 0x9E3779B97F4A7C15ULL;
  return (size_t)(h >> 17) & (a->table_cap - 1);
}

static bool table_put(ec_arena *a, void *block, big *node);

static bool table_grow(ec_arena *a) {
  size_t cap = a->table_cap ? a->table_cap * 2 : 64;
  struct bslot *old = a->table;
  size_t old_cap = a->table_cap;
  struct bslot *t = ec_mem_malloc(a->has_host ? &a->host : NULL, cap * sizeof *t);
  if (!t) { a->failed = true; return false; }
  memset(t, 0, cap * sizeof *t);
  a->table = t;
  a->table_cap = cap;
  a->table_n = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].block) table_put(a, old[i].block, old[i].node);
  ec_mem_free(a->has_host ? &a->host : NULL, old);
  return true;
}

static bool table_put(ec_arena *a, void *block, big *node) {
  if ((a->table_n + 1) * 2 > a->table_cap && !table_grow(a)) return false;
  size_t i = slot_of(a, block);
  while (a->table[i].block) i = (i + 1) & (a->table_cap - 1);
  a->table[i].block = block;
  a->table[i].node = node;
  a->table_n++;
  return true;
}

/* Removes block's slot (backward-shift deletion keeps every probe chain whole); its node or NULL. */
static big *table_take(ec_arena *a, const void *block) {
  if (!a->table_n) return NULL;
  size_t mask = a->table_cap - 1, i = slot_of(a, block);
  while (a->table[i].block && a->table[i].block != block) i = (i + 1) & mask;
  if (!a->table[i].block) return NULL;
  big *node = a->table[i].node;
  for (size_t j = (i + 1) & mask; a->table[j].block; j = (j + 1) & mask) {
    size_t home = slot_of(a, a->table[j].block);
    /* move j back to i when its home is not in (i, j] (cyclically) */
    if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
      a->table[i] = a->table[j];
      i = j;
    }
  }
  a->table[i].block = NULL;
  a->table[i].node = NULL;
  a->table_n--;
  return node;
}

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
  ec_mem_free(alc, a->table);
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
  if (!b || !table_put(a, block, b)) { ec_mem_free(alc_of(a), block); return false; }
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
  big *b = block ? table_take(a, block) : NULL;
  if (!b) return; /* not a large block of this arena: it stays until the arena goes */
  if (b->prev) b->prev->next = b->next; else a->bigs = b->next;
  if (b->next) b->next->prev = b->prev;
  ec_mem_free(alc_of(a), block);
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

ec_str ec_arena_vprintf(ec_arena *a, const char *fmt, va_list ap) {
  ec_str s = {0, 0};
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *d = n >= 0 ? ec_arena_alloc(a, (size_t)n + 1) : NULL;
  if (d) {
    vsnprintf(d, (size_t)n + 1, fmt, again);
    s.ptr = d;
    s.len = (size_t)n;
  }
  va_end(again);
  return s;
}

ec_str ec_arena_printf(ec_arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ec_str s = ec_arena_vprintf(a, fmt, ap);
  va_end(ap);
  return s;
}
