/* Strategy `trim_end`: whole lines equal once trailing whitespace is ignored; new_text is written as given. */
#include "lineutil.h"

static ec_error_code run(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out, ec_norm m) {
  ec_split nd;
  if (ec_split_lines(env->arena, old_text, true, &nd)) return EC_OUT_OF_MEMORY;
  bool any = false;
  for (size_t k = 0; k < nd.n && !any; k++) any = ec_norm_apply(nd.line[k], EC_NORM_TRIM).len != 0;
  if (!any) return EC_OK; /* blank lines alone say nothing about where they belong */
  ec_window *found;
  size_t n;
  ec_error_code rc = ec_find_line_windows(env, m, &nd, &found, &n);
  if (rc || !n) return rc;
  for (size_t i = 0; i < n; i++) {
    ec_lines wl; /* the window's own lines: no table of the whole file is needed */
    if ((rc = ec_window_table(env, &found[i], nd.n, &wl))) return rc;
    ec_str rep = new_text, no_base = {"", 0};
    if (m == EC_NORM_TRIM) {
      rep = ec_reindent(ec_place_arena(env, out), new_text, &nd, &wl, 0, nd.n, no_base);
      if (!rep.ptr) return EC_OUT_OF_MEMORY;
    }
    rc = ec_push_window(env, out, &wl, 0, nd.n, nd.final_lf, m == EC_NORM_TRIM ? EC_STRATEGY_INDENT : EC_STRATEGY_TRIM_END,
                        m == EC_NORM_TRIM ? 0.9 : 0.95, rep);
    if (rc) return rc;
  }
  return EC_OK;
}

ec_error_code ec_strategy_trim_end(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  return run(env, old_text, new_text, out, EC_NORM_TRIM_END);
}

/* Strategy `indent` lives here too (same scan, other normalisation); see indent.c for its entry. */
ec_error_code ec_line_strategy_trimmed(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out);
ec_error_code ec_line_strategy_trimmed(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  return run(env, old_text, new_text, out, EC_NORM_TRIM);
}
