/*
 * SHA-256 (base/sha256.c), the hash of options.expected_hash: the FIPS 180-2 example messages,
 * and every padding case around the block boundary (55/56/63/64 bytes fit the length in one
 * final block or need a second), checked against sha256sum.
 */
#include "test_util.h"
#include "base/sha256.h"
#include <stdlib.h>

static void check(const char *msg, size_t len, const char *want) {
  char got[65];
  ec_sha256_hex(msg, len, got);
  CHECK_MSG(!strcmp(got, want), "length %zu: got %s, want %s", len, got, want);
}

int main(void) {
  check("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  check(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  static const struct { size_t n; const char *hex; } as[] = {
      {55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
      {56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
      {63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"},
      {64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
      {119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"},
      {120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"},
      {1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
  };
  char *a = malloc(1000000);
  CHECK(a != NULL);
  if (a) {
    memset(a, 'a', 1000000);
    for (size_t i = 0; i < sizeof as / sizeof *as; i++) check(a, as[i].n, as[i].hex);
  }
  free(a);
  uint8_t raw[32];
  ec_sha256("abc", 3, raw);
  CHECK(raw[0] == 0xba && raw[31] == 0xad);
  TEST_MAIN_END();
}
