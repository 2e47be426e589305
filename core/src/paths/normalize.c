/*
 * Lexical path normalisation for sandboxing hosts (the CLI, the WASI command, the Node helpers):
 * one definition of what "a/./b/../c" means, so every host agrees on which paths stay inside
 * the root before it looks at the disk. Pure string work: symlinks are the host's to walk.
 */
#include "editcore.h"
#include <string.h>

ec_error_code ec_path_normalize(ec_str path, char *out, size_t *out_len) {
  *out_len = 0;
  if (path.len == 0 || memchr(path.ptr, '\0', path.len)) return EC_INVALID_PARAM;
  bool absolute = path.ptr[0] == '/';
  size_t n = 0;
  if (absolute) out[n++] = '/';
  const size_t base = n; /* components start here; ".." never pops past it */
  size_t i = 0;
  while (i < path.len) {
    while (i < path.len && path.ptr[i] == '/') i++;
    size_t s = i;
    while (i < path.len && path.ptr[i] != '/') i++;
    size_t len = i - s;
    if (len == 0 || (len == 1 && path.ptr[s] == '.')) continue;
    if (len == 2 && path.ptr[s] == '.' && path.ptr[s + 1] == '.') {
      if (n == base) {
        if (absolute) continue; /* "/.." is "/" (POSIX) */
        return EC_ACCESS_DENIED; /* climbs above where it started */
      }
      while (n > base && out[n - 1] != '/') n--;
      if (n > base) n--; /* the slash before the dropped component */
      continue;
    }
    if (n > base) out[n++] = '/';
    memcpy(out + n, path.ptr + s, len);
    n += len;
  }
  if (n == 0) out[n++] = '.';
  *out_len = n;
  return EC_OK;
}

bool ec_path_within(ec_str root, ec_str path, ec_str *rest) {
  while (root.len > 1 && root.ptr[root.len - 1] == '/') root.len--;
  if (root.len == 1 && root.ptr[0] == '/') { /* everything is inside "/" */
    if (path.len == 0 || path.ptr[0] != '/') return false;
    size_t skip = 1;
    if (rest) *rest = path.len > skip ? (ec_str){path.ptr + skip, path.len - skip} : (ec_str){".", 1};
    return true;
  }
  if (path.len < root.len || memcmp(path.ptr, root.ptr, root.len) != 0) return false;
  if (path.len == root.len) {
    if (rest) *rest = (ec_str){".", 1};
    return true;
  }
  if (path.ptr[root.len] != '/') return false;
  if (rest) *rest = (ec_str){path.ptr + root.len + 1, path.len - root.len - 1};
  return true;
}
