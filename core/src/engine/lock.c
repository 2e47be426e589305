#include "lock.h"
#include "../base/sha256.h"
#include "../base/str.h"
#include <string.h>

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c = (char)(c | 32);
  return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The 64 hex digits of a hash as given ("sha256:" prefix and case ignored), lowercased into out. */
static bool parse_hash(ec_str h, char out[65]) {
  if (h.len == 71 && (h.ptr[0] | 32) == 's' && (h.ptr[1] | 32) == 'h' && (h.ptr[2] | 32) == 'a' &&
      memcmp(h.ptr + 3, "256:", 4) == 0) {
    h.ptr += 7;
    h.len -= 7;
  }
  if (h.len != 64) return false;
  for (size_t i = 0; i < 64; i++) {
    int v = hex_value(h.ptr[i]);
    if (v < 0) return false;
    out[i] = "0123456789abcdef"[v];
  }
  out[64] = 0;
  return true;
}

ec_error_code ec_check_expected_hashes(ec_ctx *ctx) {
  const ec_options *o = &ctx->req->options;
  char want[65], have[65];
  /* A malformed hash is a parameter error, reported alone: check them all before any content. */
  for (size_t i = 0; i < o->n_expected_hash; i++) {
    ec_str path = o->expected_hash[i].path, given = o->expected_hash[i].content;
    if (!parse_hash(given, want))
      return ec_fail(ctx, EC_INVALID_PARAM, "options.expected_hash['%.*s'] must be the SHA-256 of the file's bytes as 64 hex digits "
                     "(optionally prefixed 'sha256:'); got '%.*s%s'", (int)path.len, path.ptr,
                     (int)(given.len > 80 ? 80 : given.len), given.ptr, given.len > 80 ? "..." : "");
  }
  ec_error_code rc = EC_OK;
  for (size_t i = 0; i < o->n_expected_hash; i++) {
    ec_str path = o->expected_hash[i].path;
    parse_hash(o->expected_hash[i].content, want);
    const ec_file *f = NULL;
    for (size_t k = 0; k < ctx->req->n_files && !f; k++)
      if (ec_str_eq(ctx->req->files[k].path, path)) f = &ctx->req->files[k];
    if (!f) {
      ec_fail(ctx, EC_CONFLICT, "'%.*s' was read as sha256:%s (options.expected_hash), but files holds no '%.*s': it was deleted or "
              "moved since it was read. Nothing was changed; list the files again and redo the edit.",
              (int)path.len, path.ptr, want, (int)path.len, path.ptr);
    } else {
      ec_sha256_hex(f->content.ptr, f->content.len, have);
      if (!memcmp(have, want, 64)) continue;
      ec_fail(ctx, EC_CONFLICT, "'%.*s' changed since it was read: its content hashes to sha256:%s, and options.expected_hash says "
              "sha256:%s. Nothing was changed; read the file again and redo the edit on its current content.",
              (int)path.len, path.ptr, have, want);
    }
    ec_error *e = ec_last_error(ctx);
    if (e) e->path = path;
    rc = EC_CONFLICT;
  }
  return rc;
}
