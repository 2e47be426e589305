/* ec_diff_text: the public two-text diff (`editcore diff A B`), over the same engine as results. */
#include "diff.h"
#include "../base/alloc.h"
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
