/*
 * Windows of whole lines equal to a needle's once normalised (trim_end, indent, elision's parts).
 *
 * Every window holds the needle's longest line, so the search starts from that line's occurrences
 * in the text (memmem): an occurrence that is a whole line under the normalisation is checked
 * against its neighbours, the needle's other lines, read from the text where they are. A search
 * that finds nothing costs one memmem, one that finds a window a memmem and the window's lines;
 * neither builds a table of the file's lines or hashes every line (a 1 MB file has 40,000 of
 * them, which cost more than the rest of the request together: BENCHMARKS.md, "The loose
 * strategies"). The windows are the same: every window contains an occurrence of the key line at
 * its place in the needle, the occurrences come in text order, and windows are taken left to
 * right, each after the one before it ends.
 *
 * Bound: the checks read at most one text's length more than memmem does; past that (a file of
 * one repeated line) the hashed scan over the line table finds the windows instead, in linear
 * time, with the same answer.
 */
#define _GNU_SOURCE 1
#include "lineutil.h"
#include "../base/hash.h"
#include "../base/str.h"
#include <string.h>

static bool hspace(char c) { return ec_is_ws(c, EC_WS_HSPACE); }

static bool same_line(ec_str file_line, ec_str want, ec_norm m) {
  ec_str a = ec_norm_apply(file_line, m);
  return a.len == want.len && (!a.len || !memcmp(a.ptr, want.ptr, a.len));
}

/* The hashed scan: the file's lines hashed under m, a KMP over them (linear in the file). */
static ec_error_code by_table(ec_match_env *env, ec_norm m, const ec_split *needle, const ec_str *want, ec_window **found,
                              size_t *n_out) {
  size_t nm = needle->n;
  const ec_lines *fl = ec_match_lines(env);
  const uint64_t *fh = ec_match_norm_hashes(env, m);
  if (!fl || !fh) return EC_OUT_OF_MEMORY;
  if (nm > fl->n) return EC_OK;
  uint64_t *nh = ec_arena_alloc(env->arena, nm * sizeof *nh);
  size_t *fail = ec_arena_alloc(env->arena, nm * sizeof *fail);
  if (!nh || !fail) return EC_OUT_OF_MEMORY;
  for (size_t j = 0; j < nm; j++) nh[j] = ec_hash_bytes(want[j].ptr, want[j].len);
  fail[0] = 0;
  for (size_t j = 1, k = 0; j < nm; j++) {
    while (k && nh[j] != nh[k]) k = fail[k - 1];
    if (nh[j] == nh[k]) k++;
    fail[j] = k;
  }
  ec_window *res = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0, j = 0; i < fl->n; i++) {
    while (j && fh[i] != nh[j]) j = fail[j - 1];
    if (fh[i] == nh[j]) j++;
    if (j < nm) continue;
    size_t s = i + 1 - nm;
    bool same = true;
    for (size_t k = 0; k < nm && same; k++) same = same_line(ec_lines_get(fl, s + k), want[k], m);
    if (!same) { j = fail[j - 1]; continue; }
    if (!EC_ARENA_RESERVE(env->arena, res, n, cap, 8)) return EC_OUT_OF_MEMORY;
    res[n].line = s;
    res[n++].start = fl->start[s];
    j = 0;
  }
  *found = res;
  *n_out = n;
  return EC_OK;
}

/* The search from the key line's occurrences. EC_OK with *gave_up set when the checks read more
 * than the budget allows (the caller then runs by_table). */
static ec_error_code by_key(ec_match_env *env, ec_norm m, const ec_split *needle, const ec_str *want, size_t key,
                            ec_window **found, size_t *n_out, bool *gave_up) {
  const char *t = env->text;
  size_t len = env->len, nm = needle->n;
  ec_str k = want[key];
  uint64_t read = 0, budget = (uint64_t)len + 4096;
  ec_window *res = NULL;
  size_t n = 0, cap = 0;
  size_t from = 0;   /* always a line start: one occurrence per line is looked at */
  size_t floor = 0;  /* where the last window taken ends (just past its last line's LF) */
  *gave_up = false;
  if (ec_match_known_absent(env, k)) return EC_OK;
  while (from < len) {
    const char *hit = ec_find(t + from, len - from, k.ptr, k.len);
    if (!hit && !from) ec_match_note_absent(env, k);
    if (!hit) break;
    size_t h = (size_t)(hit - t), ls = h, le = h + k.len;
    /* The first occurrence on a line is the one at its (indentation's) end, if any is: the key
     * starts with a byte the normalisation keeps. Whatever it shows, the line is done. */
    if (m == EC_NORM_TRIM)
      while (ls > from && hspace(t[ls - 1])) ls--;
    while (le < len && t[le] != '\n' && hspace(t[le])) le++;
    bool whole = (ls == 0 || t[ls - 1] == '\n') && (le == len || t[le] == '\n');
    if (!whole) {
      const char *nl = memchr(t + le, '\n', len - le);
      from = nl ? (size_t)(nl - t) + 1 : len;
      continue;
    }
    from = le < len ? le + 1 : len;
    /* The needle's lines before the key, read backwards from the key line's start. */
    size_t ws = ls;
    bool ok = true;
    for (size_t j = key; j-- > 0 && ok;) {
      if (!ws) { ok = false; break; }
      size_t pe = ws - 1, ps = pe; /* pe: the LF ending the line before */
      while (ps > 0 && t[ps - 1] != '\n') ps--;
      read += pe - ps + 1;
      ok = read <= budget && same_line(ec_str_make(t + ps, pe - ps), want[j], m);
      ws = ps;
    }
    /* And after it. A text ending in LF has no empty line after that LF. */
    size_t p = from;
    for (size_t j = key + 1; j < nm && ok; j++) {
      if (p >= len) { ok = false; break; }
      const char *nl = memchr(t + p, '\n', len - p);
      size_t l = nl ? (size_t)(nl - (t + p)) : len - p;
      read += l + 1;
      ok = read <= budget && same_line(ec_str_make(t + p, l), want[j], m);
      p = nl ? p + l + 1 : len;
    }
    if (read > budget) { *gave_up = true; return EC_OK; }
    if (!ok || ws < floor) continue;
    if (!EC_ARENA_RESERVE(env->arena, res, n, cap, 8)) return EC_OUT_OF_MEMORY;
    res[n].line = ec_match_line_at(env, ws);
    res[n++].start = ws;
    floor = p;
  }
  *found = res;
  *n_out = n;
  return EC_OK;
}

ec_error_code ec_find_line_windows(ec_match_env *env, ec_norm m, const ec_split *needle, ec_window **found,
                                   size_t *n_out) {
  *found = NULL;
  *n_out = 0;
  size_t nm = needle->n;
  if (!nm) return EC_OK;
  ec_str *want = ec_arena_alloc(env->arena, nm * sizeof *want);
  if (!want) return EC_OUT_OF_MEMORY;
  size_t key = 0;
  for (size_t j = 0; j < nm; j++) {
    want[j] = ec_norm_apply(needle->line[j], m);
    if (want[j].len > want[key].len) key = j;
  }
  /* A window's normalised lines are slices of the file's lines, so each occurs in the text. */
  if (want[key].len && !env->len) return EC_OK;
  /* Blank lines alone (nothing to search for), or the line hashes already built: the table. */
  if (!want[key].len || env->norm_hash[m]) return by_table(env, m, needle, want, found, n_out);
  bool gave_up;
  ec_error_code rc = by_key(env, m, needle, want, key, found, n_out, &gave_up);
  if (rc || !gave_up) return rc;
  return by_table(env, m, needle, want, found, n_out);
}

ec_error_code ec_window_table(ec_match_env *env, const ec_window *w, size_t m, ec_lines *out) {
  if (env->have_lines) {
    *out = ec_lines_from(&env->lines, w->line);
    return EC_OK;
  }
  memset(out, 0, sizeof *out);
  out->text = env->text;
  out->text_len = env->len;
  out->first = w->line;
  out->start = ec_arena_alloc(env->arena, (m + 1) * sizeof *out->start);
  out->len = ec_arena_alloc(env->arena, (m + 1) * sizeof *out->len);
  if (!out->start || !out->len) return EC_OUT_OF_MEMORY;
  size_t p = w->start;
  for (size_t i = 0; i < m; i++) {
    const char *nl = p < env->len ? memchr(env->text + p, '\n', env->len - p) : NULL;
    size_t l = nl ? (size_t)(nl - (env->text + p)) : env->len - p;
    if (l > UINT32_MAX) return EC_TOO_LARGE;
    out->start[i] = p;
    out->len[i] = (uint32_t)l;
    p = nl ? p + l + 1 : env->len;
  }
  out->start[m] = p;
  out->len[m] = 0;
  out->n = m;
  return EC_OK;
}
