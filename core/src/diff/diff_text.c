/* ec_diff_text: the public two-text diff (`editcore diff A B`), over the same engine as results;
 * ec_diff_undo: a result's undo read off its diff (diff_reverse.c). */
#include "diff.h"
#include "../base/alloc.h"
#include "../base/str.h"
#include <string.h>

char *ec_diff_text(ec_str old_text, ec_str new_text, ec_str old_label, ec_str new_label, int context,
                   const ec_host *host, size_t *len) {
  const ec_allocator *alc = host ? host->allocator : NULL;
  ec_arena *a = ec_arena_new(alc);
  if (!a) return NULL;
  ec_diff_opts opts = {context < 0 ? 3 : context, 0, 0};
  ec_diff_out out;
  char *text = NULL;
  if (ec_diff_labelled(a, old_label, new_label, old_text, new_text, &opts, &out) == EC_OK) {
    text = ec_mem_malloc(alc, out.text.len + 1);
    if (text) {
      memcpy(text, out.text.ptr, out.text.len);
      text[out.text.len] = '\0';
      if (len) *len = out.text.len;
    }
  }
  ec_arena_free(a);
  return text;
}

char *ec_diff_undo(const char *diff, size_t diff_len, const ec_host *host, size_t *undo_len) {
  const ec_allocator *alc = host ? host->allocator : NULL;
  ec_buf b;
  ec_buf_init(&b, alc);
  if (!ec_buf_reserve(&b, diff_len + 1) || !ec_diff_reverse_into(&b, ec_str_make(diff, diff ? diff_len : 0)) ||
      b.oom) {
    ec_buf_free(&b);
    return NULL;
  }
  b.ptr[b.len] = '\0'; /* an empty undo has had nothing appended */
  if (undo_len) *undo_len = b.len;
  return b.ptr;
}
