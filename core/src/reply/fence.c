/* Markdown fences as models write them around code, diffs and patches (reply.h). */
#include "reply.h"
#include "../base/str.h"

/* Models indent fences inside list items, so any indentation opens one; a closing fence may not
 * be indented more than its opening one, so a diff's context line " ```" stays inside. */
bool ec_rp_fence_open(ec_str line, ec_rp_fence *out) {
  size_t i = line.len - ec_str_trim_start(line, EC_WS_BLANK).len; /* indentation */
  if (i >= line.len || (line.ptr[i] != '`' && line.ptr[i] != '~')) return false;
  char ch = line.ptr[i];
  size_t n = 0;
  while (i + n < line.len && line.ptr[i + n] == ch) n++;
  if (n < 3) return false;
  ec_str info = ec_rp_trim(ec_str_make(line.ptr + i + n, line.len - i - n));
  if (ch == '`' && info.len && memchr(info.ptr, '`', info.len)) return false; /* inline code, not a fence */
  out->ch = ch;
  out->count = n;
  out->indent = i;
  out->info = info;
  return true;
}

bool ec_rp_fence_closes(ec_str line, const ec_rp_fence *f) {
  size_t i = line.len - ec_str_trim_start(line, EC_WS_BLANK).len;
  if (i > f->indent) return false;
  size_t n = 0;
  while (i + n < line.len && line.ptr[i + n] == f->ch) n++;
  if (n < f->count) return false;
  return ec_rp_trim(ec_str_make(line.ptr + i + n, line.len - i - n)).len == 0;
}

bool ec_rp_fence_is_diff(const ec_rp_fence *f) {
  ec_str w = f->info;
  for (size_t i = 0; i < w.len; i++)
    if (ec_is_ws(w.ptr[i], EC_WS_HSPACE) || w.ptr[i] == ':') { w.len = i; break; }
  return ec_str_eq_cstr(w, "diff") || ec_str_eq_cstr(w, "patch") || ec_str_eq_cstr(w, "udiff");
}
