/*
 * A region allocator: everything a request builds lives in one arena and dies with it, so
 * results have one free function and error paths need no cleanup. Large blocks are allocated
 * on their own (and can be handed back early with ec_arena_release) so a 10 MB file does not
 * pin a 10 MB chunk of slack.
 */
#ifndef EC_BASE_ARENA_H
#define EC_BASE_ARENA_H
#include <stdarg.h>
#include "editcore.h"

typedef struct ec_arena ec_arena;

ec_arena *ec_arena_new(const ec_allocator *alc);
void ec_arena_free(ec_arena *a);
/** The allocator to use for memory tied to this arena's work (buffers, scratch arenas): the
 *  host's, with every failure noted on the arena (ec_arena_failed). Lives as long as the arena. */
const ec_allocator *ec_arena_allocator(const ec_arena *a);
/** Whether any allocation through the arena or its allocator has failed. */
bool ec_arena_failed(const ec_arena *a);

/** 16-byte aligned, uninitialised; NULL when out of memory or when n overflows. */
void *ec_arena_alloc(ec_arena *a, size_t n);
/** Zeroed; count * size checked for overflow. */
void *ec_arena_calloc(ec_arena *a, size_t count, size_t size);
/** Grows an array allocated here (old contents copied). */
void *ec_arena_grow(ec_arena *a, void *old, size_t old_n, size_t new_n);
/**
 * Makes room for one more element in an arena array `items` of `n` used / `cap` allocated
 * elements, doubling it (to `first` when empty). On failure the array is left as it was.
 * Use through EC_ARENA_RESERVE(arena, items, n, cap, first), which is false when out of memory.
 */
bool ec_arena_reserve(ec_arena *a, void *items_ptr, size_t size, size_t n, size_t *cap, size_t first);
#define EC_ARENA_RESERVE(a, items, n, cap, first) \
  ec_arena_reserve((a), &(items), sizeof *(items), (n), &(cap), (first))
/** Takes ownership of a block from the arena's allocator; freed with the arena. false on OOM (block freed). */
bool ec_arena_adopt(ec_arena *a, void *block);
/** Frees a large block early (one that came from ec_arena_alloc above the chunk size, or adopted). */
void ec_arena_release(ec_arena *a, void *block);

/** Copies into the arena, NUL-terminated (the NUL is not counted in len). */
ec_str ec_arena_strdup(ec_arena *a, const char *p, size_t n);
/** printf into the arena; NULL-ptr str on OOM (or a format error). */
ec_str ec_arena_vprintf(ec_arena *a, const char *fmt, va_list ap);
ec_str ec_arena_printf(ec_arena *a, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
