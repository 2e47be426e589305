/* Open addressing with linear probing; the slot array doubles when half full (see strmap.h). */
#include "strmap.h"
#include "hash.h"
#include "str.h"

static uint64_t key_hash(ec_str key) {
  uint64_t h = ec_hash_bytes(key.ptr ? key.ptr : "", key.len);
  return h ? h : 1; /* 0 marks an empty slot */
}

static ec_strmap_slot *find(const ec_strmap *m, ec_str key, uint64_t h) {
  size_t mask = m->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    ec_strmap_slot *s = &m->slots[i];
    if (!s->hash || (s->hash == h && ec_str_eq(s->key, key))) return s;
  }
}

static bool grow(ec_strmap *m) {
  size_t cap = m->cap ? m->cap * 2 : 16;
  ec_strmap_slot *slots = ec_arena_calloc(m->arena, cap, sizeof *slots);
  if (!slots) return false;
  ec_strmap_slot *old = m->slots;
  size_t old_cap = m->cap;
  m->slots = slots;
  m->cap = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i].hash) *find(m, old[i].key, old[i].hash) = old[i];
  if (old) ec_arena_release(m->arena, old);
  return true;
}

bool ec_strmap_get(const ec_strmap *m, ec_str key, size_t *value) {
  if (!m->n) return false;
  const ec_strmap_slot *s = find(m, key, key_hash(key));
  if (!s->hash) return false;
  if (value) *value = s->value;
  return true;
}

int ec_strmap_add(ec_strmap *m, ec_str key, size_t value, size_t *old) {
  if ((m->n + 1) * 2 > m->cap && !grow(m)) return -1;
  uint64_t h = key_hash(key);
  ec_strmap_slot *s = find(m, key, h);
  if (s->hash) {
    if (old) *old = s->value;
    return 0;
  }
  s->hash = h;
  s->key = key;
  s->value = value;
  m->n++;
  return 1;
}

bool ec_strmap_put(ec_strmap *m, ec_str key, size_t value) {
  if ((m->n + 1) * 2 > m->cap && !grow(m)) return false;
  uint64_t h = key_hash(key);
  ec_strmap_slot *s = find(m, key, h);
  if (!s->hash) { s->hash = h; s->key = key; m->n++; }
  s->value = value;
  return true;
}
