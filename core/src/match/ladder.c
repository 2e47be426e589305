#include "ladder.h"
#include <string.h>

void ec_match_env_init(ec_match_env *env, ec_arena *a, const char *text, size_t len,
                       const ec_options *opt, ec_profile profile) {
  memset(env, 0, sizeof *env);
  env->arena = a;
  env->text = text;
  env->len = len;
  env->n_lf = SIZE_MAX;
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

void ec_found_set_lines(ec_match_env *env, ec_found *f) {
  const ec_lines *ln = ec_match_lines(env);
  if (!ln) return;
  size_t s = ec_lines_index_of(ln, f->start);
  size_t last = f->end > f->start ? f->end - 1 : f->start;
  size_t e = ec_lines_index_of(ln, last);
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
