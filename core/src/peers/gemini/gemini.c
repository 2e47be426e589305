#include "gemini.h"
#include "../../match/lineutil.h"
#include "../../text/doc.h"
#include "../../base/buf.h"
#include "../../base/hash.h"
#include "../../base/str.h"
#include "../../base/sort.h"
#include <stdlib.h>
#include <string.h>

static ec_str lead_indent(ec_str s) {
  size_t i = 0;
  while (i < s.len && (s.ptr[i] == ' ' || s.ptr[i] == '\t')) i++;
  return ec_str_make(s.ptr, i);
}

/* A line of the document as JS's /.*(?:\n|$)/g sees it: with its LF. */
static ec_str js_line(const ec_lines *fl, size_t i) {
  ec_str s = {fl->text + fl->start[i], ec_lines_end_with_lf(fl, i) - fl->start[i]};
  return s;
}

/* applyIndentation(lines, target).join('\n') */
static void apply_indentation(ec_buf *b, const ec_split *lines, ec_str target) {
  ec_str ref = lines->n ? lead_indent(lines->line[0]) : ec_str_make("", 0);
  for (size_t k = 0; k < lines->n; k++) {
    if (k) ec_buf_append_char(b, '\n');
    ec_str l = lines->line[k];
    if (!ec_str_trim(l, EC_WS_ASCII).len) continue;
    ec_buf_append_str(b, target);
    if (l.len >= ref.len && !memcmp(l.ptr, ref.ptr, ref.len)) {
      ec_buf_append(b, l.ptr + ref.len, l.len - ref.len);
    } else {
      l = ec_str_trim_start(l, EC_WS_ASCII);
      ec_buf_append_str(b, l);
    }
  }
}

static bool ends_lf(ec_str s) { return s.len && s.ptr[s.len - 1] == '\n'; }

/* restoreTrailingNewline(original, modified) applied to a finished buffer. */
static ec_str finish(ec_match_env *env, ec_buf *b) {
  if (b->oom && !b->ptr) { ec_str none = {NULL, 0}; return none; } /* dropped past the limit */
  bool had = env->len && env->text[env->len - 1] == '\n';
  if (had && !(b->len && b->ptr[b->len - 1] == '\n')) ec_buf_append_char(b, '\n');
  else if (!had && b->len && b->ptr[b->len - 1] == '\n') b->len--;
  if (b->oom) { ec_buf_free(b); ec_str none = {NULL, 0}; return none; }
  ec_str r = ec_buf_finish(b, env->arena);
  if (!r.ptr) r = ec_arena_strdup(env->arena, "", 0);
  return r;
}

/* Whether the text being built passed what the new file may hold: then it is dropped (the answer is
 * TOO_LARGE in any case) and later appends to the freed buffer do nothing. */
static bool past_limit(ec_gemini_result *out, ec_buf *b) {
  if (b->oom || b->len <= out->max_len) return b->oom;
  out->too_large = b->len;
  ec_buf_free(b);
  b->oom = true;
  return true;
}

static ec_error_code record(ec_match_env *env, ec_gemini_result *out, size_t start_line, size_t end_line, ec_strategy s) {
  ec_found f;
  memset(&f, 0, sizeof f);
  f.start_line = (uint32_t)start_line;
  f.end_line = (uint32_t)(end_line < start_line ? start_line : end_line);
  f.strategy = s;
  f.confidence = s == EC_STRATEGY_EXACT ? 1.0 : s == EC_STRATEGY_INDENT ? 0.9 : s == EC_STRATEGY_REGEX ? 0.85 : 0.8;
  return ec_found_push(env, &out->applied, &f);
}

/* Every occurrence written into the new text as the search finds it (allow_multiple): no list of them. */
typedef struct exact_run {
  ec_match_env *env;
  ec_gemini_result *out;
  ec_buf b;
  ec_str new_text;
  size_t at;
} exact_run;

static ec_error_code exact_place(void *user, const ec_found *f) {
  exact_run *x = user;
  ec_buf_append(&x->b, x->env->text + x->at, f->start - x->at);
  ec_buf_append_str(&x->b, x->new_text);
  x->at = f->end;
  past_limit(x->out, &x->b);
  return record(x->env, x->out, f->start_line, f->end_line, EC_STRATEGY_EXACT);
}

static ec_error_code exact(ec_match_env *env, ec_str old_text, ec_str new_text, bool allow, ec_gemini_result *out) {
  exact_run x = {env, out, {0}, new_text, 0};
  ec_buf_init(&x.b, ec_arena_allocator(env->arena));
  ec_found_list l = {0};
  l.limit = 1; /* the first place; every one is counted */
  if (allow) { l.each = exact_place; l.each_user = &x; }
  ec_error_code rc = ec_strategy_exact(env, old_text, new_text, &l);
  if (rc || !l.total || (!allow && l.total > 1)) {
    ec_buf_free(&x.b);
    if (!rc && l.total) { out->occurrences = l.total; out->strategy = EC_STRATEGY_EXACT; }
    return rc;
  }
  out->occurrences = l.total;
  out->strategy = EC_STRATEGY_EXACT;
  if (!allow) {
    rc = exact_place(&x, &l.items[0]);
    if (rc) { ec_buf_free(&x.b); return rc; }
  }
  ec_buf_append(&x.b, env->text + x.at, env->len - x.at);
  if (past_limit(out, &x.b)) return out->too_large ? EC_OK : EC_OUT_OF_MEMORY;
  out->content = finish(env, &x.b);
  return out->content.ptr || out->too_large ? EC_OK : EC_OUT_OF_MEMORY;
}

static ec_error_code flexible(ec_match_env *env, ec_str old_text, ec_str new_text, ec_str new_raw, ec_gemini_result *out) {
  const ec_lines *fl = ec_match_lines(env);
  ec_split sl, rl;
  if (!fl || ec_split_lines(env->arena, old_text, false, &sl) || ec_split_lines(env->arena, new_text, false, &rl))
    return EC_OUT_OF_MEMORY;
  size_t n = sl.n;
  if (n > fl->n) return EC_OK;
  uint64_t *sh = ec_arena_alloc(env->arena, n * sizeof *sh), *fh = ec_arena_alloc(env->arena, (fl->n + 1) * sizeof *fh);
  if (!sh || !fh) return EC_OUT_OF_MEMORY;
  for (size_t k = 0; k < n; k++) { sl.line[k] = ec_str_trim(sl.line[k], EC_WS_ASCII); sh[k] = ec_hash_bytes(sl.line[k].ptr, sl.line[k].len); }
  for (size_t i = 0; i < fl->n; i++) { ec_str t = ec_str_trim(ec_lines_get(fl, i), EC_WS_ASCII); fh[i] = ec_hash_bytes(t.ptr, t.len); }
  uint64_t limit = ec_match_work_limit(env);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(env->arena));
  size_t count = 0, i = 0;
  while (i + n <= fl->n) {
    bool match = true;
    for (size_t k = 0; k < n && match; k++) {
      env->work++;
      if (fh[i + k] != sh[k]) { match = false; break; }
      ec_str t = ec_str_trim(ec_lines_get(fl, i + k), EC_WS_ASCII);
      match = t.len == sl.line[k].len && (!t.len || !memcmp(t.ptr, sl.line[k].ptr, t.len));
    }
    if (env->work > limit) {
      ec_buf_free(&b);
      env->message = ec_arena_printf(env->arena, "flexible matching passed its work limit (options.limits.fuzzy_work)");
      return EC_TOO_LARGE;
    }
    if (!match) { ec_buf_append_str(&b, js_line(fl, i)); i++; continue; }
    count++;
    size_t before = b.len;
    apply_indentation(&b, &rl, lead_indent(ec_lines_get(fl, i)));
    bool rep_lf = b.len > before && b.ptr[b.len - 1] == '\n';
    if (new_raw.len && ends_lf(js_line(fl, i + n - 1)) && !rep_lf) ec_buf_append_char(&b, '\n');
    ec_error_code rc = record(env, out, i + 1, i + n, EC_STRATEGY_INDENT);
    if (rc) { ec_buf_free(&b); return rc; }
    past_limit(out, &b);
    i += n;
  }
  if (!count) { ec_buf_free(&b); return EC_OK; }
  for (; i < fl->n; i++) ec_buf_append_str(&b, js_line(fl, i));
  out->occurrences = count;
  out->strategy = EC_STRATEGY_INDENT;
  out->content = finish(env, &b);
  return out->content.ptr || out->too_large ? EC_OK : EC_OUT_OF_MEMORY;
}

static ec_error_code regex(ec_match_env *env, ec_str old_text, ec_str new_text, bool allow, ec_gemini_result *out) {
  ec_rx_match *m;
  size_t n;
  ec_error_code rc = ec_token_regex_find(env, old_text, false, &m, &n);
  if (rc || !n) return rc;
  ec_split rl;
  if (ec_split_lines(env->arena, new_text, false, &rl)) return EC_OUT_OF_MEMORY;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(env->arena));
  size_t at = 0, upto = allow ? n : 1;
  for (size_t i = 0; i < upto; i++) {
    ec_buf_append(&b, env->text + at, m[i].start - at);
    apply_indentation(&b, &rl, m[i].indent);
    at = m[i].end;
    ec_found f;
    memset(&f, 0, sizeof f);
    f.start = m[i].start;
    f.end = m[i].end;
    ec_found_set_lines(env, &f);
    if ((rc = record(env, out, f.start_line, f.end_line, EC_STRATEGY_REGEX))) { ec_buf_free(&b); return rc; }
    past_limit(out, &b);
  }
  ec_buf_append(&b, env->text + at, env->len - at);
  out->occurrences = n;
  out->strategy = EC_STRATEGY_REGEX;
  out->content = finish(env, &b);
  return out->content.ptr || out->too_large ? EC_OK : EC_OUT_OF_MEMORY;
}

/* Section - fuzzy (UTF-16 code units, as fast-levenshtein sees JS strings) */

typedef struct u16s { uint16_t *p; size_t n; } u16s;

static size_t utf16_len(ec_str s) {
  size_t n = 0;
  for (size_t i = 0; i < s.len; i++) {
    unsigned char c = (unsigned char)s.ptr[i];
    if ((c & 0xC0) != 0x80) n += c >= 0xF0 ? 2 : 1;
  }
  return n;
}

/* Appends the UTF-16 code units of s (lenient: stray bytes count as one unit each). */
static void to_u16(uint16_t *dst, size_t *w, ec_str s, bool strip_ws) {
  for (size_t i = 0; i < s.len;) {
    unsigned char c = (unsigned char)s.ptr[i];
    uint32_t cp = c;
    size_t l = 1;
    if (c >= 0xF0 && i + 3 < s.len) { cp = ((c & 7u) << 18) | ((s.ptr[i + 1] & 63u) << 12) | ((s.ptr[i + 2] & 63u) << 6) | (s.ptr[i + 3] & 63u); l = 4; }
    else if (c >= 0xE0 && i + 2 < s.len) { cp = ((c & 15u) << 12) | ((s.ptr[i + 1] & 63u) << 6) | (s.ptr[i + 2] & 63u); l = 3; }
    else if (c >= 0xC0 && i + 1 < s.len) { cp = ((c & 31u) << 6) | (s.ptr[i + 1] & 63u); l = 2; }
    i += l;
    if (strip_ws && (ec_is_ws((char)cp, EC_WS_ASCII) && cp < 0x80)) continue;
    if (strip_ws && (cp == 0xA0 || cp == 0xFEFF || cp == 0x2028 || cp == 0x2029 || cp == 0x3000 || (cp >= 0x2000 && cp <= 0x200A))) continue;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      dst[(*w)++] = (uint16_t)(0xD800 + (cp >> 10));
      dst[(*w)++] = (uint16_t)(0xDC00 + (cp & 0x3FF));
    } else {
      dst[(*w)++] = (uint16_t)cp;
    }
  }
}

typedef struct fz { size_t i; double score; } fz;
static int by_score(const void *a, const void *b) {
  const fz *x = a, *y = b;
  if (x->score != y->score) return x->score < y->score ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}
static int by_index(const void *a, const void *b) {
  const fz *x = a, *y = b;
  return x->i < y->i ? -1 : x->i > y->i;
}

static ec_error_code fuzzy(ec_match_env *env, ec_str old_raw, ec_str old_text, ec_str new_text, ec_gemini_result *out) {
  size_t raw_len = utf16_len(old_raw);
  if (raw_len < 10) return EC_OK;
  const ec_lines *fl = ec_match_lines(env);
  if (!fl) return EC_OUT_OF_MEMORY;
  if ((double)fl->n * (double)raw_len * (double)raw_len > 400000000.0) return EC_OK;
  /* searchLines: old's lines (JS /.*(?:\n|$)/g), each trimEnd()ed. */
  ec_split sl;
  if (ec_split_lines(env->arena, old_text, true, &sl)) return EC_OUT_OF_MEMORY;
  if (!old_text.len) return EC_OK;
  size_t n = sl.n;
  if (n > fl->n) return EC_OK;
  size_t cap = 2 * old_text.len + 2;
  uint16_t *sb = ec_arena_alloc(env->arena, cap * sizeof *sb), *sbn = ec_arena_alloc(env->arena, cap * sizeof *sbn);
  if (!sb || !sbn) return EC_OUT_OF_MEMORY;
  size_t sbl = 0, sbnl = 0;
  for (size_t k = 0; k < n; k++) {
    if (k) { sb[sbl++] = '\n'; }
    to_u16(sb, &sbl, ec_str_trim_end(sl.line[k], EC_WS_ASCII), false);
    to_u16(sbn, &sbnl, ec_str_trim_end(sl.line[k], EC_WS_ASCII), true);
  }
  if (!sbl) return EC_OK;
  fz *c = NULL;
  size_t n_c = 0, cap_c = 0, wcap = 0;
  uint16_t *wt = NULL, *wn = NULL;
  for (size_t i = 0; i + n <= fl->n; i++) {
    size_t bytes = n;
    for (size_t k = 0; k < n; k++) bytes += fl->len[i + k];
    if (bytes * 2 + 2 > wcap) {
      wcap = bytes * 4 + 4;
      wt = ec_arena_alloc(env->arena, wcap * sizeof *wt);
      wn = ec_arena_alloc(env->arena, wcap * sizeof *wn);
      if (!wt || !wn) return EC_OUT_OF_MEMORY;
    }
    size_t wl = 0, wnl = 0;
    for (size_t k = 0; k < n; k++) {
      if (k) wt[wl++] = '\n';
      to_u16(wt, &wl, ec_str_trim_end(ec_lines_get(fl, i + k), EC_WS_ASCII), false);
    }
    double length_diff = wl > sbl ? (double)(wl - sbl) : (double)(sbl - wl);
    if (length_diff / (double)sbl > 0.1 / 0.1) continue;
    for (size_t k = 0; k < n; k++) to_u16(wn, &wnl, ec_str_trim_end(ec_lines_get(fl, i + k), EC_WS_ASCII), true);
    /* score <= 0.1 needs d_raw <= |search| and d_norm <= |search| / 9: past those, skip exactly. */
    size_t d_norm = ec_edit_distance_u16(env->arena, &env->lev_rows, wn, wnl, sbn, sbnl, sbl / 9 + 1, &env->work, UINT64_MAX);
    if (d_norm == SIZE_MAX) return EC_OUT_OF_MEMORY;
    if (d_norm > sbl / 9 + 1) continue;
    size_t d_raw = ec_edit_distance_u16(env->arena, &env->lev_rows, wt, wl, sb, sbl, sbl, &env->work, UINT64_MAX); /* bounded above: n * |search|^2 <= 4e8 */
    if (d_raw == SIZE_MAX) return EC_OUT_OF_MEMORY;
    if (d_raw > sbl) continue;
    double weighted = (double)d_norm + ((double)d_raw - (double)d_norm) * 0.1;
    double score = weighted / (double)sbl;
    if (!(score <= 0.1)) continue;
    if (!EC_ARENA_RESERVE(env->arena, c, n_c, cap_c, 8)) return EC_OUT_OF_MEMORY;
    c[n_c].i = i;
    c[n_c++].score = score;
  }
  if (!n_c) return EC_OK;
  ec_sort(c, n_c, sizeof *c, by_score);
  uint8_t *taken = ec_arena_calloc(env->arena, fl->n + 1, 1);
  if (!taken) return EC_OUT_OF_MEMORY;
  size_t kept = 0;
  for (size_t k = 0; k < n_c; k++) {
    size_t lo = c[k].i >= n - 1 ? c[k].i - (n - 1) : 0, hi = c[k].i + n - 1 < fl->n ? c[k].i + n - 1 : fl->n - 1;
    bool overlap = false;
    for (size_t j = lo; j <= hi && !overlap; j++) overlap = taken[j];
    if (overlap) continue;
    taken[c[k].i] = 1;
    c[kept++] = c[k];
  }
  ec_sort(c, kept, sizeof *c, by_index);
  ec_split rl;
  if (ec_split_lines(env->arena, new_text, false, &rl)) return EC_OUT_OF_MEMORY;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(env->arena));
  size_t at = 0;
  for (size_t k = 0; k < kept; k++) {
    size_t i = c[k].i;
    for (; at < i; at++) ec_buf_append_str(&b, js_line(fl, at));
    apply_indentation(&b, &rl, lead_indent(ec_lines_get(fl, i)));
    if (ends_lf(js_line(fl, i + n - 1))) ec_buf_append_char(&b, '\n');
    at = i + n;
    ec_error_code rc = record(env, out, i + 1, i + n, EC_STRATEGY_FUZZY);
    if (rc) { ec_buf_free(&b); return rc; }
    past_limit(out, &b);
  }
  for (; at < fl->n; at++) ec_buf_append_str(&b, js_line(fl, at));
  out->occurrences = kept;
  out->strategy = EC_STRATEGY_FUZZY;
  out->content = finish(env, &b);
  return out->content.ptr || out->too_large ? EC_OK : EC_OUT_OF_MEMORY;
}

ec_error_code ec_gemini_calculate(ec_match_env *env, ec_str old_raw, ec_str new_raw, bool allow_multiple, uint64_t max_len,
                                  ec_gemini_result *out) {
  memset(out, 0, sizeof *out);
  out->applied.limit = 1000; /* the places the result lists; every one is counted */
  out->max_len = max_len;
  ec_str old_text = ec_text_normalize_eol(env->arena, old_raw), new_text = ec_text_normalize_eol(env->arena, new_raw);
  if ((old_raw.len && !old_text.ptr) || (new_raw.len && !new_text.ptr)) return EC_OUT_OF_MEMORY;
  if (!old_text.len) return EC_OK;
  ec_error_code rc = exact(env, old_text, new_text, allow_multiple, out);
  if (rc || out->occurrences) return rc;
  if ((rc = flexible(env, old_text, new_text, new_raw, out)) || out->occurrences) return rc;
  if ((rc = regex(env, old_text, new_text, allow_multiple, out)) || out->occurrences) return rc;
  return fuzzy(env, old_raw, old_text, new_text, out);
}
