/* A fast 64-bit hash of byte strings, identical on every build (reads little-endian words). */
#ifndef EC_BASE_HASH_H
#define EC_BASE_HASH_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ec_hash_mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  h ^= h >> 33;
  return h;
}

static inline uint64_t ec_hash_bytes(const char *p, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)n;
  while (n >= 8) {
    uint64_t w;
    memcpy(&w, p, 8);
    h = (h ^ w) * 0x100000001b3ULL;
    h ^= h >> 29;
    p += 8;
    n -= 8;
  }
  /* The tail (under 8 bytes) with its length in the top byte: XORed into a seed that holds the
   * length too, the bytes alone could cancel it ("" and "\x01" hashed alike, so the lazy merge
   * took a line holding only U+0001 for a blank file line). */
  uint64_t w = (uint64_t)n << 56;
  for (size_t i = 0; i < n; i++) w |= (uint64_t)(unsigned char)p[i] << (8 * i);
  h = (h ^ w) * 0x100000001b3ULL;
  return ec_hash_mix(h);
}

#endif
