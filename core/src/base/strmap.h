/*
 * A hash map from byte strings to indices, in an arena: the set of paths a request names (files,
 * workspace entries, Aider's chat), so checking for a duplicate or finding a file is O(1) and a
 * request with many files costs linear time, never a comparison of every pair.
 * Keys are not copied: they must live as long as the map (they point into the request's arena).
 */
#ifndef EC_BASE_STRMAP_H
#define EC_BASE_STRMAP_H
#include "arena.h"

typedef struct ec_strmap_slot {
  ec_str key;
  size_t value;
  uint64_t hash; /* 0 = empty slot */
} ec_strmap_slot;

typedef struct ec_strmap {
  ec_arena *arena;
  ec_strmap_slot *slots;
  size_t cap, n; /* cap is 0 or a power of two; kept at most half full */
} ec_strmap;

static inline void ec_strmap_init(ec_strmap *m, ec_arena *a) { m->arena = a; m->slots = NULL; m->cap = m->n = 0; }
/** True when `key` is in the map; its value in *value when value is not NULL. */
bool ec_strmap_get(const ec_strmap *m, ec_str key, size_t *value);
/** Adds key -> value, or sets the value of a key already there. false when out of memory. */
bool ec_strmap_put(ec_strmap *m, ec_str key, size_t value);
/**
 * Adds key -> value unless the key is there. 1 = added, 0 = already there (its value in *old
 * when old is not NULL; the map is unchanged), -1 = out of memory.
 */
int ec_strmap_add(ec_strmap *m, ec_str key, size_t value, size_t *old);

#endif
