/*
 * Aider's block parser, filename inference and replace_most_similar_chunk, reproduced from its
 * observed behaviour (editblock_coder.py): perfect match (first occurrence), missing leading
 * whitespace, a spurious leading blank line dropped, "..." elision; nothing fuzzier.
 * Line comparisons go through interned line ids and KMP so they stay linear; the only quadratic
 * step (windows that match but for indentation) is charged against a work budget.
 */
#include "aider_editblock.h"
#include "../../base/buf.h"
#include "../../base/str.h"
#include <stdio.h>

/* Section - markers */

static size_t run_of(ec_str s, char ch) {
  size_t n = 0;
  while (n < s.len && s.ptr[n] == ch) n++;
  return n;
}

/* HEAD = ^<{5,9} SEARCH>?\s*$ on line.strip() */
static bool is_head(ec_str line) {
  ec_str s = ec_py_strip(line);
  size_t r = run_of(s, '<');
  if (r < 5 || r > 9) return false;
  ec_str rest = ec_str_make(s.ptr + r, s.len - r);
  return ec_str_eq_cstr(rest, " SEARCH") || ec_str_eq_cstr(rest, " SEARCH>");
}

/* DIVIDER = ^={5,9}\s*$ */
static bool is_divider(ec_str line) {
  ec_str s = ec_py_strip(line);
  size_t r = run_of(s, '=');
  return r >= 5 && r <= 9 && r == s.len;
}

/* UPDATED = ^>{5,9} REPLACE\s*$ */
static bool is_updated(ec_str line) {
  ec_str s = ec_py_strip(line);
  size_t r = run_of(s, '>');
  return r >= 5 && r <= 9 && ec_str_eq_cstr(ec_str_make(s.ptr + r, s.len - r), " REPLACE");
}

static const char *const SHELL_STARTS[] = {"```bash", "```sh", "```shell", "```cmd", "```batch", "```powershell",
                                           "```ps1", "```zsh", "```fish", "```ksh", "```csh", "```tcsh"};

/* Section - filenames */

static ec_str strip_filename(ec_str line, const ec_str fence[2], bool *none) {
  *none = true;
  ec_str s = ec_py_strip(line);
  if (ec_str_eq_cstr(s, "...")) return s;
  ec_str tick = ec_cstr("```");
  for (int k = 0; k < 2; k++) {
    ec_str f = k ? tick : fence[0];
    if (ec_py_startswith(s, f)) {
      ec_str cand = ec_str_make(s.ptr + f.len, s.len - f.len);
      if (cand.len && (ec_py_contains_char(cand, '.') || ec_py_contains_char(cand, '/'))) *none = false;
      return cand;
    }
  }
  s = ec_py_strip_chars(s, ":", false, true);
  s = ec_py_strip_chars(s, "#", true, false);
  s = ec_py_strip(s);
  s = ec_py_strip_chars(s, "`", true, true);
  s = ec_py_strip_chars(s, "*", true, true);
  *none = s.len == 0;
  return s;
}

/* find_filename(lines[i-3:i], fence, valid_fnames); found=false when there is none. */
static ec_error_code find_filename(ec_arena *a, const ec_str *lines, size_t n, const ec_str fence[2],
                                   const ec_str *valid, size_t n_valid, ec_str *out, bool *found) {
  *found = false;
  ec_str names[3];
  size_t nn = 0;
  for (size_t k = 0; k < n && k < 3; k++) {
    ec_str line = lines[n - 1 - k];
    bool none;
    ec_str f = strip_filename(line, fence, &none);
    if (!none) names[nn++] = f;
    if (!ec_py_startswith(line, fence[0]) && !ec_py_startswith(line, ec_cstr("```"))) break;
  }
  if (!nn) return EC_OK;
  *found = true;
  for (size_t i = 0; i < nn; i++)
    for (size_t v = 0; v < n_valid; v++)
      if (ec_str_eq(names[i], valid[v])) { *out = names[i]; return EC_OK; }
  for (size_t i = 0; i < nn; i++)
    for (size_t v = 0; v < n_valid; v++)
      if (ec_str_eq(names[i], ec_py_basename(valid[v]))) { *out = valid[v]; return EC_OK; }
  for (size_t i = 0; i < nn; i++) {
    size_t best;
    if (ec_py_close_match(a, names[i], valid, n_valid, 4, 5, &best)) return EC_OUT_OF_MEMORY;
    if (best != SIZE_MAX) { *out = valid[best]; return EC_OK; }
  }
  for (size_t i = 0; i < nn; i++)
    if (ec_py_contains_char(names[i], '.')) { *out = names[i]; return EC_OK; }
  *out = names[0];
  return EC_OK;
}

/* Section - parser */

static ec_error_code push_block(ec_arena *a, ec_aider_blocks *l, ec_aider_block b) {
  if (!EC_ARENA_RESERVE(a, l->items, l->n, l->cap, 8)) return EC_OUT_OF_MEMORY;
  l->items[l->n++] = b;
  return EC_OK;
}

static ec_str join_lines(const ec_str *lines, size_t from, size_t to) {
  /* lines are consecutive slices of one text (keepends) */
  if (from >= to) return ec_str_make("", 0);
  const char *s = lines[from].ptr;
  return ec_str_make(s, (size_t)(lines[to - 1].ptr + lines[to - 1].len - s));
}

static ec_error_code parse_error(ec_arena *a, const ec_py_list *L, size_t i, const char *err, ec_aider_blocks *out) {
  size_t upto = i + 1 < L->n ? i + 1 : L->n;
  ec_str processed = join_lines(L->items, 0, upto);
  out->error = ec_arena_printf(a, "%.*s\n^^^ %s", (int)processed.len, processed.ptr ? processed.ptr : "", err);
  out->error_line = (uint32_t)(upto ? upto : 1);
  return out->error.ptr ? EC_MALFORMED_EDIT : EC_OUT_OF_MEMORY;
}

ec_error_code ec_aider_parse_blocks(ec_arena *a, ec_str text, const ec_str fence[2], const ec_str *valid,
                                    size_t n_valid, ec_aider_blocks *out) {
  memset(out, 0, sizeof *out);
  ec_py_list L = {0};
  if (ec_py_splitlines(a, text, true, &L)) return EC_OUT_OF_MEMORY;
  const ec_str *lines = L.items;
  size_t n = L.n, i = 0;
  ec_str current = {0, 0};
  bool have_current = false;
  while (i < n) {
    ec_str line = lines[i];
    ec_str st = ec_py_strip(line);
    bool shell = false;
    for (size_t k = 0; k < sizeof SHELL_STARTS / sizeof SHELL_STARTS[0] && !shell; k++)
      shell = ec_py_startswith(st, ec_cstr(SHELL_STARTS[k]));
    if (shell) {
      bool next_is_block = (i + 1 < n && is_head(lines[i + 1])) || (i + 2 < n && is_head(lines[i + 2]));
      if (!next_is_block) {
        size_t from = ++i;
        while (i < n && !ec_py_startswith(ec_py_strip(lines[i]), ec_cstr("```"))) i++;
        ec_aider_block b = {{0, 0}, join_lines(lines, from, i), {0, 0}, true};
        if (i < n) i++;
        if (push_block(a, out, b)) return EC_OUT_OF_MEMORY;
        continue;
      }
    }
    if (is_head(line)) {
      size_t lo = i >= 3 ? i - 3 : 0;
      bool new_file = i + 1 < n && is_divider(lines[i + 1]);
      ec_str fname;
      bool found;
      if (find_filename(a, lines + lo, i - lo, fence, new_file ? NULL : valid, new_file ? 0 : n_valid, &fname, &found))
        return EC_OUT_OF_MEMORY;
      if (!found) {
        if (!have_current) {
          char msg[200];
          snprintf(msg, sizeof msg, "Bad/missing filename. The filename must be alone on the line before the opening fence %.*s",
                   (int)(fence[0].len > 100 ? 100 : fence[0].len), fence[0].ptr ? fence[0].ptr : "");
          return parse_error(a, &L, i, msg, out);
        }
        fname = current;
      }
      current = fname;
      have_current = true;
      size_t s0 = ++i;
      while (i < n && !is_divider(lines[i])) i++;
      if (i >= n) return parse_error(a, &L, i, "Expected `=======`", out);
      size_t s1 = i;
      size_t r0 = ++i;
      while (i < n && !is_updated(lines[i]) && !is_divider(lines[i])) i++;
      if (i >= n) return parse_error(a, &L, i, "Expected `>>>>>>> REPLACE` or `=======`", out);
      ec_aider_block b = {fname, join_lines(lines, s0, s1), join_lines(lines, r0, i), false};
      if (push_block(a, out, b)) return EC_OUT_OF_MEMORY;
    }
    i++;
  }
  return EC_OK;
}

/* Section - replace_most_similar_chunk */

typedef struct chunk_env {
  ec_arena *a;
  ec_py_intern ids;
  uint64_t work;
} chunk_env;

/* Python's prep(): append "\n" when missing, split with keepends. */
static ec_error_code prep(ec_arena *a, ec_str s, ec_str *out, ec_py_list *lines) {
  if (s.len && s.ptr[s.len - 1] != '\n') {
    char *p = ec_arena_alloc(a, s.len + 2);
    if (!p) return EC_OUT_OF_MEMORY;
    memcpy(p, s.ptr, s.len);
    p[s.len] = '\n';
    p[s.len + 1] = 0;
    s = ec_str_make(p, s.len + 1);
  }
  *out = s;
  memset(lines, 0, sizeof *lines);
  return ec_py_splitlines(a, s, true, lines);
}

static ec_error_code ids_of(chunk_env *e, const ec_str *lines, size_t n, bool lstrip, uint32_t **out) {
  uint32_t *ids = ec_arena_alloc(e->a, (n + 1) * sizeof *ids);
  if (!ids) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < n; i++)
    if (ec_py_intern_id(&e->ids, lstrip ? ec_py_lstrip(lines[i]) : lines[i], &ids[i])) return EC_OUT_OF_MEMORY;
  *out = ids;
  return EC_OK;
}

static size_t *kmp_table(ec_arena *a, const uint32_t *p, size_t m) {
  size_t *fail = ec_arena_alloc(a, (m + 1) * sizeof *fail);
  if (!fail) return NULL;
  fail[0] = 0;
  for (size_t i = 1, k = 0; i < m; i++) {
    while (k && p[i] != p[k]) k = fail[k - 1];
    if (p[i] == p[k]) k++;
    fail[i] = k;
  }
  return fail;
}

/* whole with lines [i, i+m) replaced by `repl` lines (each possibly prefixed by add). */
static ec_error_code splice_lines(ec_arena *a, ec_str whole, const ec_str *wl, size_t nw, size_t i, size_t m,
                                  const ec_str *rl, size_t nr, const ec_str *adds, ec_str *out) {
  size_t start = i < nw ? (size_t)(wl[i].ptr - whole.ptr) : whole.len;
  size_t end = i + m < nw ? (size_t)(wl[i + m].ptr - whole.ptr) : whole.len;
  if (m == 0) end = start;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  ec_buf_append(&b, whole.ptr, start);
  for (size_t k = 0; k < nr; k++) {
    if (adds && !ec_py_blank(rl[k])) ec_buf_append_str(&b, adds[0]);
    ec_buf_append_str(&b, rl[k]);
  }
  ec_buf_append(&b, whole.ptr + end, whole.len - end);
  if (b.len == 0) { ec_buf_free(&b); *out = ec_str_make(NULL, 0); return EC_OK; } /* "" is falsy */
  *out = ec_buf_finish(&b, a);
  return out->ptr ? EC_OK : EC_OUT_OF_MEMORY;
}

static ec_error_code perfect_replace(chunk_env *e, ec_str whole, const ec_str *wl, const uint32_t *wid, size_t nw,
                                     const ec_str *pl, size_t np, const ec_str *rl, size_t nr, ec_str *out) {
  *out = ec_str_make(NULL, 0);
  if (np > nw) return EC_OK;
  if (np == 0) return splice_lines(e->a, whole, wl, nw, 0, 0, rl, nr, NULL, out);
  uint32_t *pid;
  if (ids_of(e, pl, np, false, &pid)) return EC_OUT_OF_MEMORY;
  size_t *fail = kmp_table(e->a, pid, np);
  if (!fail) return EC_OUT_OF_MEMORY;
  e->work += nw + np;
  for (size_t i = 0, k = 0; i < nw; i++) {
    while (k && wid[i] != pid[k]) k = fail[k - 1];
    if (wid[i] == pid[k]) k++;
    if (k == np) return splice_lines(e->a, whole, wl, nw, i + 1 - np, np, rl, nr, NULL, out);
  }
  return EC_OK;
}

static size_t leading_cps(ec_str s) { return ec_py_cplen(s) - ec_py_cplen(ec_py_lstrip(s)); }

static ec_error_code missing_leading_ws(chunk_env *e, ec_str whole, const ec_str *wl, const uint32_t *wlid, size_t nw,
                                        const ec_str *pl_in, size_t np, const ec_str *rl_in, size_t nr, ec_str *out) {
  *out = ec_str_make(NULL, 0);
  if (np == 0 || np > nw) return EC_OK;
  size_t min = SIZE_MAX;
  for (size_t k = 0; k < np; k++)
    if (!ec_py_blank(pl_in[k])) { size_t l = leading_cps(pl_in[k]); if (l < min) min = l; }
  for (size_t k = 0; k < nr; k++)
    if (!ec_py_blank(rl_in[k])) { size_t l = leading_cps(rl_in[k]); if (l < min) min = l; }
  ec_str *pl = ec_arena_alloc(e->a, (np + nr + 1) * sizeof *pl), *rl = pl + np;
  if (!pl) return EC_OUT_OF_MEMORY;
  for (size_t k = 0; k < np + nr; k++) {
    ec_str s = k < np ? pl_in[k] : rl_in[k - np];
    if (min != SIZE_MAX && min && !ec_py_blank(s)) {
      size_t off = ec_py_cp_offset(s, min);
      s = ec_str_make(s.ptr + off, s.len - off);
    }
    pl[k] = s;
  }
  uint32_t *pid;
  if (ids_of(e, pl, np, true, &pid)) return EC_OUT_OF_MEMORY;
  size_t *fail = kmp_table(e->a, pid, np);
  if (!fail) return EC_OUT_OF_MEMORY;
  e->work += nw + np;
  for (size_t i = 0, k = 0; i < nw; i++) {
    while (k && wlid[i] != pid[k]) k = fail[k - 1];
    if (wlid[i] == pid[k]) k++;
    if (k < np) continue;
    size_t at = i + 1 - np;
    k = fail[k - 1];
    /* are they all offset the same? */
    ec_str add = {0, 0};
    bool have = false, same = true;
    for (size_t q = 0; q < np && same; q++) {
      ec_str w = wl[at + q];
      if (ec_py_blank(w)) continue;
      int64_t d = (int64_t)ec_py_cplen(w) - (int64_t)ec_py_cplen(pl[q]);
      ec_str one = ec_py_slice_to(w, d);
      if (!have) { add = one; have = true; }
      else same = ec_str_eq(add, one);
    }
    e->work += np;
    if (e->work > EC_AIDER_WORK_BUDGET) return EC_TOO_LARGE;
    if (!have || !same) continue;
    return splice_lines(e->a, whole, wl, nw, at, np, rl, nr, &add, out);
  }
  return EC_OK;
}

static ec_error_code perfect_or_whitespace(chunk_env *e, ec_str whole, const ec_py_list *wl, const uint32_t *wid,
                                           const uint32_t *wlid, const ec_str *pl, size_t np, const ec_py_list *rl,
                                           ec_str *out) {
  ec_error_code rc = perfect_replace(e, whole, wl->items, wid, wl->n, pl, np, rl->items, rl->n, out);
  if (rc || out->ptr) return rc;
  return missing_leading_ws(e, whole, wl->items, wlid, wl->n, pl, np, rl->items, rl->n, out);
}

/* re.split(r"(^\s*\.\.\.\n)", s, flags=MULTILINE|DOTALL): pieces and separators alternate. */
static ec_error_code split_dots(ec_arena *a, ec_str s, ec_py_list *out) {
  size_t last = 0;
  for (size_t p = 0; p < s.len; p++) {
    if (p && s.ptr[p - 1] != '\n') continue;
    size_t q = p, k;
    while (q < s.len && (k = ec_py_space_fwd(s.ptr + q, s.len - q)) != 0) q += k;
    if (q + 4 > s.len || memcmp(s.ptr + q, "...\n", 4)) continue;
    if (ec_py_list_push(a, out, ec_str_make(s.ptr + last, p - last))) return EC_OUT_OF_MEMORY;
    if (ec_py_list_push(a, out, ec_str_make(s.ptr + p, q + 4 - p))) return EC_OUT_OF_MEMORY;
    last = q + 4;
    p = last - 1;
  }
  return ec_py_list_push(a, out, ec_str_make(s.ptr + last, s.len - last));
}

static ec_error_code try_dotdotdots(chunk_env *e, ec_str whole, ec_str part, ec_str replace, ec_str *out) {
  *out = ec_str_make(NULL, 0);
  ec_py_list pp = {0}, rp = {0};
  if (split_dots(e->a, part, &pp) || split_dots(e->a, replace, &rp)) return EC_OUT_OF_MEMORY;
  if (pp.n != rp.n || pp.n == 1) return EC_OK; /* "Unpaired ..." (swallowed) or no dots */
  for (size_t i = 1; i < pp.n; i += 2)
    if (!ec_str_eq(pp.items[i], rp.items[i])) return EC_OK; /* "Unmatched ..." (swallowed) */
  ec_arena *a = e->a;
  for (size_t i = 0; i < pp.n; i += 2) {
    ec_str p = pp.items[i], r = rp.items[i];
    if (!p.len && !r.len) continue;
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(a));
    if (!p.len) {
      ec_buf_append_str(&b, whole);
      if (!whole.len || whole.ptr[whole.len - 1] != '\n') ec_buf_append_char(&b, '\n');
      ec_buf_append_str(&b, r);
    } else {
      bool oom;
      size_t at = ec_py_find(a, whole, p, 0, &oom);
      if (oom) return EC_OUT_OF_MEMORY;
      if (at == SIZE_MAX) return EC_OK;
      size_t again = ec_py_find(a, whole, p, at + p.len, &oom);
      if (oom) return EC_OUT_OF_MEMORY;
      if (again != SIZE_MAX) return EC_OK;
      e->work += whole.len / 64 + 1;
      if (e->work > EC_AIDER_WORK_BUDGET) return EC_TOO_LARGE;
      ec_buf_append(&b, whole.ptr, at);
      ec_buf_append_str(&b, r);
      ec_buf_append(&b, whole.ptr + at + p.len, whole.len - at - p.len);
    }
    whole = ec_buf_finish(&b, a);
    if (!whole.ptr) return EC_OUT_OF_MEMORY;
  }
  if (whole.len) *out = whole;
  return EC_OK;
}

ec_error_code ec_aider_replace_chunk(ec_arena *a, ec_str whole, ec_str part, ec_str replace, ec_str *out) {
  *out = ec_str_make(NULL, 0);
  chunk_env e = {a, {0}, 0};
  ec_py_list wl, pl, rl;
  if (prep(a, whole, &whole, &wl) || prep(a, part, &part, &pl) || prep(a, replace, &replace, &rl))
    return EC_OUT_OF_MEMORY;
  if (ec_py_intern_init(&e.ids, a, wl.n * 2 + pl.n * 2)) return EC_OUT_OF_MEMORY;
  uint32_t *wid, *wlid;
  if (ids_of(&e, wl.items, wl.n, false, &wid) || ids_of(&e, wl.items, wl.n, true, &wlid)) return EC_OUT_OF_MEMORY;
  ec_error_code rc = perfect_or_whitespace(&e, whole, &wl, wid, wlid, pl.items, pl.n, &rl, out);
  if (rc || out->ptr) return rc;
  /* drop a leading blank line, GPT sometimes adds them spuriously (Aider issue #25) */
  if (pl.n > 2 && ec_py_blank(pl.items[0])) {
    rc = perfect_or_whitespace(&e, whole, &wl, wid, wlid, pl.items + 1, pl.n - 1, &rl, out);
    if (rc || out->ptr) return rc;
  }
  return try_dotdotdots(&e, whole, part, replace, out);
}

/* Section - strip_quoted_wrapping */

ec_error_code ec_aider_strip_wrapping(ec_arena *a, ec_str res, ec_str fname, const ec_str fence[2], ec_str *out,
                                      bool *crash) {
  *crash = false;
  *out = res;
  if (!res.len) return EC_OK;
  ec_py_list L = {0};
  if (ec_py_splitlines(a, res, false, &L)) return EC_OUT_OF_MEMORY;
  size_t from = 0, to = L.n;
  if (to == 0) { *crash = true; return EC_OK; }
  if (fname.len && ec_py_endswith(ec_py_strip(L.items[0]), ec_py_basename(fname))) from++;
  if (from >= to) { *crash = true; return EC_OK; } /* res[0] on an empty list: IndexError */
  if (ec_py_startswith(L.items[from], fence[0]) && ec_py_startswith(L.items[to - 1], fence[1])) {
    from++;
    if (to > 0) to--;
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = from; i < to; i++) {
    if (i > from) ec_buf_append_char(&b, '\n');
    ec_buf_append_str(&b, L.items[i]);
  }
  if (b.len && b.ptr[b.len - 1] != '\n') ec_buf_append_char(&b, '\n');
  if (!b.len) { ec_buf_free(&b); *out = ec_str_make("", 0); return EC_OK; }
  *out = ec_buf_finish(&b, a);
  return out->ptr ? EC_OK : EC_OUT_OF_MEMORY;
}

/* Section - find_similar_lines */

ec_error_code ec_aider_similar_lines(ec_arena *a, ec_str search, ec_str content, ec_aider_similar *out) {
  memset(out, 0, sizeof *out);
  ec_py_list sl = {0}, cl = {0};
  if (ec_py_splitlines(a, search, false, &sl) || ec_py_splitlines(a, content, false, &cl)) return EC_OUT_OF_MEMORY;
  size_t m = sl.n, n = cl.n;
  if (!m || m > n) return EC_OK; /* (Aider raises IndexError for an empty search; we just omit it) */
  ec_py_intern ids;
  if (ec_py_intern_init(&ids, a, m + n)) return EC_OUT_OF_MEMORY;
  uint32_t *sid = ec_arena_alloc(a, (m + n) * sizeof *sid), *cid = sid + m;
  if (!sid) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < m; i++) if (ec_py_intern_id(&ids, sl.items[i], &sid[i])) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < n; i++) if (ec_py_intern_id(&ids, cl.items[i], &cid[i])) return EC_OUT_OF_MEMORY;
  ec_py_matcher mt;
  ec_py_matcher_init(&mt, a);
  uint64_t work = 0;
  size_t best_m = 0, best_i = 0;
  bool have = false;
  for (size_t i = 0; i + m <= n; i++) {
    size_t got;
    ec_error_code rc = ec_py_match_count(&mt, sid, m, cid + i, m, &work, EC_AIDER_WORK_BUDGET / 10, &got);
    if (rc == EC_TOO_LARGE) return EC_OK;
    if (rc) return rc;
    if (got > best_m) { best_m = got; best_i = i; have = true; }
  }
  /* best ratio 2M/2m < 0.6 -> nothing */
  if (!have || 5 * best_m < 3 * m) return EC_OK;
  size_t lo = best_i, hi = best_i + m;
  if (!(cid[best_i] == sid[0] && cid[best_i + m - 1] == sid[m - 1])) {
    lo = best_i >= 5 ? best_i - 5 : 0;
    hi = best_i + m + 5 < n ? best_i + m + 5 : n;
  }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  for (size_t i = lo; i < hi; i++) {
    if (i > lo) ec_buf_append_char(&b, '\n');
    ec_buf_append_str(&b, cl.items[i]);
  }
  out->text = ec_buf_finish(&b, a);
  if (!out->text.ptr) return EC_OUT_OF_MEMORY;
  out->start_line = (uint32_t)lo + 1;
  out->end_line = (uint32_t)hi;
  out->num = 2 * (uint64_t)best_m;
  out->den = 2 * (uint64_t)m;
  return EC_OK;
}
