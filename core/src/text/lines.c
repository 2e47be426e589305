#include "lines.h"
#include <string.h>

ec_error_code ec_lines_build(ec_arena *a, const char *text, size_t len, ec_lines *out) {
  memset(out, 0, sizeof *out);
  out->text = text;
  out->text_len = len;
  size_t n = 0;
  for (const char *q = text, *end = text + len; q < end; n++) {
    const char *nl = memchr(q, '\n', (size_t)(end - q));
    q = nl ? nl + 1 : end;
  }
  out->start = ec_arena_alloc(a, (n + 1) * sizeof *out->start);
  out->len = ec_arena_alloc(a, (n + 1) * sizeof *out->len);
  if (!out->start || !out->len) return EC_OUT_OF_MEMORY;
  size_t i = 0;
  for (const char *q = text, *end = text + len; q < end; i++) {
    const char *nl = memchr(q, '\n', (size_t)(end - q));
    size_t l = nl ? (size_t)(nl - q) : (size_t)(end - q);
    if (l > UINT32_MAX) return EC_TOO_LARGE;
    out->start[i] = (size_t)(q - text);
    out->len[i] = (uint32_t)l;
    q = nl ? nl + 1 : end;
  }
  out->start[n] = len;
  out->len[n] = 0;
  out->n = n;
  return EC_OK;
}

size_t ec_lines_index_of(const ec_lines *l, size_t off) {
  size_t lo = 0, hi = l->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (l->start[mid] + l->len[mid] < off) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
