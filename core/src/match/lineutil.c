#define _GNU_SOURCE 1
#include "lineutil.h"
#include "../base/hash.h"
#include "../base/buf.h"
#include "../base/str.h"
#include <string.h>

#define MAX_PAIRS 32

ec_str ec_line_indent(ec_str s) {
  size_t i = 0;
  while (i < s.len && (s.ptr[i] == ' ' || s.ptr[i] == '\t')) i++;
  return ec_str_make(s.ptr, i);
}

ec_error_code ec_split_lines(ec_arena *a, ec_str text, bool drop_final_lf, ec_split *out) {
  memset(out, 0, sizeof *out);
  if (drop_final_lf && text.len && text.ptr[text.len - 1] == '\n') {
    text.len--;
    out->final_lf = true;
  }
  size_t n = 1;
  for (size_t i = 0; i < text.len; i++) n += text.ptr[i] == '\n';
  out->line = ec_arena_alloc(a, n * sizeof *out->line);
  if (!out->line) return EC_OUT_OF_MEMORY;
  size_t k = 0, from = 0;
  for (size_t i = 0; i <= text.len; i++) {
    if (i == text.len || text.ptr[i] == '\n') {
      out->line[k].ptr = text.ptr ? text.ptr + from : "";
      out->line[k].len = i - from;
      k++;
      from = i + 1;
    }
  }
  out->n = k;
  return EC_OK;
}

const uint64_t *ec_match_norm_hashes(ec_match_env *env, ec_norm m) {
  if (env->norm_hash[m]) return env->norm_hash[m];
  const ec_lines *fl = ec_match_lines(env);
  if (!fl) return NULL;
  uint64_t *h = ec_arena_alloc(env->arena, (fl->n + 1) * sizeof *h);
  if (!h) return NULL;
  for (size_t i = 0; i < fl->n; i++) {
    ec_str t = ec_norm_apply(ec_lines_get(fl, i), m);
    h[i] = ec_hash_bytes(t.ptr, t.len);
  }
  env->norm_hash[m] = h;
  return h;
}

ec_error_code ec_push_window(ec_match_env *env, ec_found_list *out, const ec_lines *tl, size_t s, size_t m, bool final_lf,
                             ec_strategy st, double confidence, ec_str replacement) {
  ec_found f;
  memset(&f, 0, sizeof f);
  f.start = tl->start[s];
  f.end = tl->start[s + m - 1] + tl->len[s + m - 1];
  if (final_lf) {
    if (f.end < env->len) f.end++;
    else if (replacement.len && replacement.ptr[replacement.len - 1] == '\n') replacement.len--;
  }
  f.start_line = (uint32_t)(tl->first + s) + 1;
  f.end_line = (uint32_t)(tl->first + s + m);
  f.strategy = st;
  f.confidence = confidence;
  f.replacement = replacement;
  return ec_found_push(env, out, &f);
}

static size_t width(ec_str ind) {
  size_t w = 0;
  for (size_t i = 0; i < ind.len; i++) w = ind.ptr[i] == '\t' ? (w / 4 + 1) * 4 : w + 1;
  return w;
}

static bool blank(ec_str s) { return ec_norm_apply(s, EC_NORM_TRIM).len == 0; }

ec_str ec_reindent(ec_arena *a, ec_str new_text, const ec_split *old, const ec_lines *fl, size_t fs, size_t fm,
                   ec_str base) {
  ec_str none = {NULL, 0};
  ec_split nw;
  if (ec_split_lines(a, new_text, false, &nw)) return none;
  /* The model's frame: old_text's least-indented line (new_text's when old has no text). */
  size_t old_min = SIZE_MAX, model_step = 0;
  for (size_t k = 0; k < old->n; k++)
    if (!blank(old->line[k])) { size_t w = width(ec_line_indent(old->line[k])); if (w < old_min) old_min = w; }
  if (old_min == SIZE_MAX)
    for (size_t k = 0; k < nw.n; k++)
      if (!blank(nw.line[k])) { size_t w = width(ec_line_indent(nw.line[k])); if (w < old_min) old_min = w; }
  if (old_min == SIZE_MAX) old_min = 0;
  /* The file's frame: the matched block's least-indented line. */
  ec_str fmin = base;
  bool tabs = memchr(base.ptr ? base.ptr : "", '\t', base.len) != NULL, have_fmin = fm == 0;
  for (size_t k = 0; k < fm; k++) {
    ec_str l = ec_lines_get(fl, fs + k);
    if (blank(l)) continue;
    ec_str ind = ec_line_indent(l);
    if (memchr(ind.ptr, '\t', ind.len)) tabs = true;
    if (!have_fmin || width(ind) < width(fmin)) { fmin = ind; have_fmin = true; }
  }
  size_t file_step = 0;
  for (size_t k = 0; k < fm; k++) {
    ec_str l = ec_lines_get(fl, fs + k);
    if (blank(l)) continue;
    size_t w = width(ec_line_indent(l)), d = w - width(fmin);
    if (d && (!file_step || d < file_step)) file_step = d;
  }
  for (int pass = 0; pass < 2; pass++) {
    const ec_split *sp = pass ? &nw : old;
    for (size_t k = 0; k < sp->n; k++) {
      if (blank(sp->line[k])) continue;
      size_t w = width(ec_line_indent(sp->line[k]));
      if (w > old_min && (!model_step || w - old_min < model_step)) model_step = w - old_min;
    }
  }
  /* What each relative width of the model became in the file, learnt from the matched pairs. */
  size_t pair_w[MAX_PAIRS];
  ec_str pair_s[MAX_PAIRS];
  size_t n_pairs = 0;
  /* Pairs are old's and the block's non-blank lines in order (a blank line one side lacks does
   * not shift them); none when their numbers differ (the lines do not correspond). */
  size_t nb_old = 0, nb_file = 0;
  for (size_t k = 0; k < old->n; k++) nb_old += !blank(old->line[k]);
  for (size_t k = 0; k < fm; k++) nb_file += !blank(ec_lines_get(fl, fs + k));
  for (size_t k = 0, j = 0; nb_old == nb_file && k < old->n && j < fm && n_pairs < MAX_PAIRS; k++, j++) {
    while (k < old->n && blank(old->line[k])) k++;
    while (j < fm && blank(ec_lines_get(fl, fs + j))) j++;
    if (k >= old->n || j >= fm) break;
    ec_str l = ec_lines_get(fl, fs + j);
    size_t w = width(ec_line_indent(old->line[k]));
    ec_str ind = ec_line_indent(l);
    if (w < old_min || ind.len < fmin.len || memcmp(ind.ptr, fmin.ptr, fmin.len)) continue;
    bool seen = false;
    for (size_t q = 0; q < n_pairs && !seen; q++) seen = pair_w[q] == w - old_min;
    if (seen) continue;
    pair_w[n_pairs] = w - old_min;
    pair_s[n_pairs++] = ec_str_make(ind.ptr + fmin.len, ind.len - fmin.len);
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t k = 0; k < nw.n; k++) {
    if (k) ec_buf_append_char(&b, '\n');
    ec_str l = nw.line[k];
    if (blank(l)) continue;
    ec_str ind = ec_line_indent(l);
    ec_str body = ec_str_make(l.ptr + ind.len, l.len - ind.len);
    size_t w = width(ind);
    if (w >= old_min) {
      size_t r = w - old_min;
      ec_buf_append_str(&b, fmin);
      bool mapped = false;
      for (size_t q = 0; q < n_pairs && !mapped; q++)
        if (pair_w[q] == r) { ec_buf_append_str(&b, pair_s[q]); mapped = true; }
      if (!mapped && r) {
        size_t levels = model_step ? r / model_step : 0, rem = model_step ? r % model_step : r;
        if (tabs) {
          for (size_t q = 0; q < levels; q++) ec_buf_append_char(&b, '\t');
        } else {
          size_t step = file_step ? file_step : (model_step ? model_step : 1);
          for (size_t q = 0; q < levels * step; q++) ec_buf_append_char(&b, ' ');
        }
        for (size_t q = 0; q < rem; q++) ec_buf_append_char(&b, ' ');
      }
    } else {
      /* Less indented than the model's block: take the difference off the file's indentation. */
      size_t r = old_min - w, step = model_step ? model_step : 4;
      size_t drop = tabs ? (r + step - 1) / step : (file_step ? (r + step - 1) / step * file_step : r);
      size_t keep = drop < fmin.len ? fmin.len - drop : 0;
      ec_buf_append(&b, fmin.ptr, keep);
    }
    ec_buf_append_str(&b, body);
  }
  if (b.oom) { ec_buf_free(&b); return none; }
  ec_str r = ec_buf_finish(&b, a);
  if (!r.ptr) r = ec_arena_strdup(a, "", 0);
  return r;
}

size_t ec_bounded_lev(ec_match_env *env, const char *x, size_t nx, const char *y, size_t ny, size_t max, uint64_t work_cap) {
  return ec_edit_distance(env->arena, &env->lev_rows, x, nx, y, ny, max, &env->work, work_cap);
}

uint32_t ec_line_similarity(ec_match_env *env, ec_str x, ec_str y) {
  x = ec_norm_apply(x, EC_NORM_TRIM);
  y = ec_norm_apply(y, EC_NORM_TRIM);
  if (x.len == y.len && (!x.len || !memcmp(x.ptr, y.ptr, x.len))) return 1000;
  size_t m = x.len > y.len ? x.len : y.len;
  if (m > 4000) return 0;
  size_t d = ec_bounded_lev(env, x.ptr, x.len, y.ptr, y.len, m, UINT64_MAX); /* <= 16 M cells */
  if (d == SIZE_MAX) return UINT32_MAX;
  return (uint32_t)(1000 - d * 1000 / m);
}

uint64_t ec_match_work_limit(const ec_match_env *env) {
  return env->opt && env->opt->limits.fuzzy_work ? env->opt->limits.fuzzy_work : 200000000ull;
}
