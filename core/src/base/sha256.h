/*
 * SHA-256 (FIPS 180-4), one shot: the content hash a host sends in options.expected_hash, the
 * one every platform has (`sha256sum`, node:crypto, SubtleCrypto), so hosts need nothing of ours.
 */
#ifndef EC_BASE_SHA256_H
#define EC_BASE_SHA256_H
#include <stddef.h>
#include <stdint.h>

/** The digest of data[0, len). */
void ec_sha256(const void *data, size_t len, uint8_t out[32]);
/** The digest as 64 lowercase hex digits and a NUL. */
void ec_sha256_hex(const void *data, size_t len, char out[65]);

#endif
