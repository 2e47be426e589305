/* Strategy `exact`: byte-exact occurrences (the document and the edit are both LF-normalised). */
#define _GNU_SOURCE 1
#include "ladder.h"
#include "../base/str.h"
#include <string.h>

/* ec_find is memmem (linear in every libc we build with: glibc, musl in WASI and Emscripten), or
 * the host's kernel answering as it does (base/kernels.h). */
ec_error_code ec_strategy_exact(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  return ec_find_exact_as(env, old_text, new_text, EC_STRATEGY_EXACT, 1.0, out);
}

ec_error_code ec_find_exact_as(ec_match_env *env, ec_str old_text, ec_str new_text, ec_strategy s, double confidence,
                               ec_found_list *out) {
  if (!old_text.len || old_text.len > env->len) return EC_OK;
  /* Line numbers: one search counts LFs up to its matches; when several searches run on one
   * text (the blocks of one reply), counting from the top each time would add up to blocks x
   * file, so the line table is built once and each match is a binary search in it. */
  const ec_lines *table = NULL;
  if (env->have_lines || env->exact_searches++ > 0) {
    table = ec_match_lines(env);
    if (!table) return EC_OUT_OF_MEMORY;
  }
  const char *p = env->text, *end = env->text + env->len;
  const char *last_pos = env->text;
  uint32_t line = 1;
  while ((size_t)(end - p) >= old_text.len) {
    const char *hit = ec_find(p, (size_t)(end - p), old_text.ptr, old_text.len);
    if (!hit) break;
    ec_found f = {(size_t)(hit - env->text), (size_t)(hit - env->text) + old_text.len, 0, 0, s, confidence, new_text};
    if (table) {
      ec_found_set_lines(env, &f);
    } else {
      /* Count lines incrementally so many matches stay linear; the first from the nearest
       * offset whose line is known (the text's end when the caller gave its LF count: a block
       * near the end of a large file is counted back from there). */
      if (last_pos == env->text)
        line = (uint32_t)ec_match_line_at(env, (size_t)(hit - env->text)) + 1;
      else
        line += (uint32_t)ec_count_lf(last_pos, (size_t)(hit - last_pos));
      uint32_t end_line = line + (uint32_t)ec_count_lf(hit, old_text.len - 1);
      f.start_line = line;
      f.end_line = end_line;
    }
    ec_error_code rc = ec_found_push(env, out, &f);
    if (rc) return rc;
    last_pos = hit;
    p = hit + old_text.len;
  }
  return EC_OK;
}
