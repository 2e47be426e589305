#define _GNU_SOURCE 1
#include "ladder.h"
#include "../base/str.h"
#include <string.h>

void ec_match_env_init(ec_match_env *env, ec_arena *a, const char *text, size_t len,
                       const ec_options *opt, ec_profile profile) {
  memset(env, 0, sizeof *env);
  env->arena = a;
  env->text = text;
  env->len = len;
  env->opt = opt;
  env->profile = profile;
}

const ec_lines *ec_match_lines(ec_match_env *env) {
  if (!env->have_lines) {
    if (ec_lines_build(env->arena, env->text, env->len, &env->lines)) return NULL;
    env->have_lines = true;
  }
  return &env->lines;
}

ec_error_code ec_found_push(ec_match_env *env, ec_found_list *l, const ec_found *f) {
  size_t limit = l->limit ? l->limit : 1000;
  l->total++;
  if (l->each) {
    ec_error_code rc = l->each(l->each_user, f);
    if (rc) return rc;
  }
  if (l->n >= limit) return EC_OK;
  if (!EC_ARENA_RESERVE(env->arena, l->items, l->n, l->cap, 8)) return EC_OUT_OF_MEMORY;
  l->items[l->n++] = *f;
  return EC_OK;
}

void ec_match_env_lf_count(ec_match_env *env, size_t n_lf) {
  env->lf_off = env->len;
  env->lf_before = n_lf;
}

size_t ec_match_line_at(ec_match_env *env, size_t off) {
  if (off > env->len) off = env->len;
  if (env->have_lines) return ec_lines_index_of(&env->lines, off);
  size_t at = env->lf_off, before = env->lf_before, cost;
  if (off >= at) {
    cost = off - at;
    before += ec_count_lf(env->text + at, cost);
  } else if (at - off <= off) {
    cost = at - off;
    before -= ec_count_lf(env->text + off, cost);
  } else {
    cost = off;
    before = ec_count_lf(env->text, off);
  }
  env->lf_off = off;
  env->lf_before = before;
  env->lf_counted += cost;
  /* Questions all over the text (the blocks of one reply): the table answers each in log time,
   * and counting stays within a few passes over the text in all. Without memory, counting goes on. */
  if (env->lf_counted > 2 * env->len + 65536) (void)ec_match_lines(env);
  return before;
}

bool ec_match_known_absent(const ec_match_env *env, ec_str s) {
  for (uint32_t i = 0; i < env->n_absent; i++)
    if (env->absent[i].len <= s.len && ec_find(s.ptr, s.len, env->absent[i].ptr, env->absent[i].len)) return true;
  return false;
}

void ec_match_note_absent(ec_match_env *env, ec_str s) {
  if (!s.len) return;
  char *c = ec_arena_alloc(env->arena, s.len);
  if (!c) return;
  memcpy(c, s.ptr, s.len);
  uint32_t cap = sizeof env->absent / sizeof env->absent[0];
  if (env->n_absent == cap) memmove(env->absent, env->absent + 1, (cap - 1) * sizeof env->absent[0]);
  else env->n_absent++;
  env->absent[env->n_absent - 1] = ec_str_make(c, s.len);
}

void ec_found_set_lines(ec_match_env *env, ec_found *f) {
  size_t last = f->end > f->start ? f->end - 1 : f->start;
  size_t s = ec_match_line_at(env, f->start), e = ec_match_line_at(env, last);
  f->start_line = (uint32_t)s + 1;
  f->end_line = (uint32_t)(e < s ? s : e) + 1;
}

static const ec_strategy_fn STRATEGIES[EC_STRATEGY__COUNT] = {
    [EC_STRATEGY_EXACT] = ec_strategy_exact,
    [EC_STRATEGY_UNESCAPE] = ec_strategy_unescape,
    [EC_STRATEGY_TRIM_END] = ec_strategy_trim_end,
    [EC_STRATEGY_INDENT] = ec_strategy_indent,
    [EC_STRATEGY_UNICODE] = ec_strategy_unicode,
    [EC_STRATEGY_ELISION] = ec_strategy_elision,
    [EC_STRATEGY_ANCHOR] = ec_strategy_anchor,
    [EC_STRATEGY_REGEX] = ec_strategy_regex,
    [EC_STRATEGY_FUZZY] = ec_strategy_fuzzy,
};

ec_strategy_fn ec_strategy_impl(ec_strategy s) {
  return (unsigned)s < EC_STRATEGY__COUNT ? STRATEGIES[s] : NULL;
}

ec_error_code ec_ladder_find(ec_match_env *env, const ec_strategy *order, size_t n, ec_str old_text,
                             ec_str new_text, ec_found_list *out, ec_strategy *used) {
  for (size_t i = 0; i < n; i++) {
    ec_strategy_fn fn = ec_strategy_impl(order[i]);
    if (!fn) continue;
    out->n = out->total = 0; /* a strategy that finds nothing called no `each` */
    ec_error_code rc = fn(env, old_text, new_text, out);
    if (rc) return rc;
    if (out->total) { *used = order[i]; return EC_OK; }
  }
  out->n = out->total = 0;
  return EC_OK;
}
