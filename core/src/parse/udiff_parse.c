/* The tolerant unified-diff parser (see udiff_parse.h for what it accepts). */
#include "udiff_parse.h"
#include "../base/str.h"
#include <string.h>

typedef struct lines_view {
  ec_str *l;
  size_t n;
  size_t base;  /* empty lines before l[0] that have no entry: a reply's edit keeps its line numbers with them */
} lines_view;

/* 1-based line of edit.text that l[i] is. */
static uint32_t line_no(const lines_view *v, size_t i) { return (uint32_t)(v->base + i) + 1; }


static bool is_digit(char c) { return c >= '0' && c <= '9'; }

static ec_error_code fail(ec_arena *a, ec_ud_error *err, uint32_t line, ec_str msg) {
  err->line = line;
  err->message = msg.ptr ? msg : ec_cstr("malformed diff");
  (void)a;
  return EC_MALFORMED_EDIT;
}

/* A short, printable excerpt of a line for messages. */
static ec_str excerpt(ec_str s) {
  if (s.len > 80) s.len = 80;
  return s;
}

/* ---------- paths ---------- */

/* Strips a trailing timestamp written after spaces: " 2024-01-31 10:00:00.000 +0100" and the like. */
static ec_str strip_timestamp(ec_str s) {
  for (size_t i = s.len; i-- > 0;) {
    if (s.ptr[i] != ' ') continue;
    ec_str rest = ec_str_drop(s, i + 1);
    if (rest.len >= 10 && is_digit(rest.ptr[0]) && is_digit(rest.ptr[1]) && is_digit(rest.ptr[2]) && is_digit(rest.ptr[3]) &&
        rest.ptr[4] == '-' && is_digit(rest.ptr[5]) && is_digit(rest.ptr[6]) && rest.ptr[7] == '-' && is_digit(rest.ptr[8]) &&
        is_digit(rest.ptr[9])) {
      ec_str head = {s.ptr, i};
      return ec_str_trim_end(head, EC_WS_LINE);
    }
  }
  return s;
}

/* A path from a ---/+++ line or a rename line: C-quoted ("a/x\ty"), or up to a tab, timestamp cut. */
static ec_error_code parse_path(ec_arena *a, ec_str s, ec_str *out) {
  while (s.len && s.ptr[0] == ' ') s = ec_str_drop(s, 1);
  if (s.len && s.ptr[0] == '"') {
    char *buf = ec_arena_alloc(a, s.len + 1);
    if (!buf) return EC_OUT_OF_MEMORY;
    size_t w = 0, i = 1;
    for (; i < s.len && s.ptr[i] != '"'; i++) {
      char c = s.ptr[i];
      if (c == '\\' && i + 1 < s.len) {
        char e = s.ptr[++i];
        if (e >= '0' && e <= '7' && i + 2 < s.len) {
          int v = (e - '0') * 64 + (s.ptr[i + 1] - '0') * 8 + (s.ptr[i + 2] - '0');
          i += 2;
          c = (char)v;
        } else {
          c = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'a' ? '\a' : e == 'b' ? '\b' : e == 'f' ? '\f' : e == 'v' ? '\v' : e;
        }
      }
      buf[w++] = c;
    }
    if (i < s.len) {
      buf[w] = 0;
      out->ptr = buf;
      out->len = w;
      return EC_OK;
    }
    /* no closing quote: take it literally */
  }
  const char *tab = memchr(s.ptr, '\t', s.len);
  if (tab) s.len = (size_t)(tab - s.ptr);
  *out = strip_timestamp(ec_str_trim_end(s, EC_WS_LINE));
  return EC_OK;
}

/* `diff -N` (and `diff -ruN` trees) name a file that does not exist on that side with the epoch as
 * its time: "--- old/x\t1970-01-01 00:00:00.000000000 +0000" (or 1969-12-31 west of UTC). GNU
 * patch and git apply read such a side as absent, as /dev/null; so does this parser. Only a time
 * after a tab counts: a name that merely holds a date is a name. */
static bool epoch_stamped(ec_str header) {
  const char *tab = memchr(header.ptr, '\t', header.len);
  if (!tab) return false;
  ec_str t = ec_str_make(tab + 1, header.len - (size_t)(tab + 1 - header.ptr));
  /* 1970-01-01 before 20:00 (UTC and east of it), or 1969-12-31 (west of it) */
  return ec_str_starts_with(t, "1969-12-31 ") || (ec_str_starts_with(t, "1970-01-01 ") && t.len > 11 && t.ptr[11] <= '1');
}

/* "diff --git a/x b/y": prefer the split where both names agree (paths may hold spaces). */
static void parse_git_line(ec_str rest, ec_str *old_p, ec_str *new_p) {
  ec_str best_a = {0, 0}, best_b = {0, 0};
  bool found = false;
  for (size_t i = 0; i + 3 <= rest.len; i++) {
    if (rest.ptr[i] != ' ' || rest.ptr[i + 1] != 'b' || rest.ptr[i + 2] != '/') continue;
    ec_str x = {rest.ptr, i}, y = ec_str_drop(rest, i + 1);
    if (!found) { best_a = x; best_b = y; found = true; }
    if (x.len >= 2 && y.len >= 2 && ec_str_eq(ec_str_drop(x, 2), ec_str_drop(y, 2))) { best_a = x; best_b = y; break; }
  }
  /* No " b/": one name alone (`diff --git a/x.py`, cut short) is both sides; anything else is
   * not a header git writes, and its names are unknown (empty): a ---/+++ pair after it names
   * the file, else the part names none and is refused. Splitting at the first space made a file
   * name up out of the rest of a garbled line. */
  if (!found) best_a = best_b = memchr(rest.ptr, ' ', ec_str_trim_end(rest, EC_WS_LINE).len) ? ec_str_make(rest.ptr, 0) : rest;
  *old_p = ec_str_trim_end(best_a, EC_WS_LINE);
  *new_p = ec_str_trim_end(best_b, EC_WS_LINE);
}

/* ---------- growing arrays ---------- */

static ec_ud_file *add_file(ec_arena *a, ec_ud_patch *p, uint32_t line) {
  if (!EC_ARENA_RESERVE(a, p->files, p->n_files, p->cap_files, 4)) return NULL;
  ec_ud_file *f = &p->files[p->n_files++];
  memset(f, 0, sizeof *f);
  f->line = line;
  return f;
}

static ec_ud_hunk *add_hunk(ec_arena *a, ec_ud_file *f) {
  if (!EC_ARENA_RESERVE(a, f->hunks, f->n_hunks, f->cap_hunks, 4)) return NULL;
  ec_ud_hunk *h = &f->hunks[f->n_hunks++];
  memset(h, 0, sizeof *h);
  return h;
}

/* ---------- hunks ---------- */

static bool parse_num(ec_str s, size_t *i, uint32_t *out) {
  if (*i >= s.len || !is_digit(s.ptr[*i])) return false;
  uint64_t v = 0;
  while (*i < s.len && is_digit(s.ptr[*i])) {
    v = v * 10 + (uint64_t)(s.ptr[*i] - '0');
    if (v > 0xFFFFFFFFu) v = 0xFFFFFFFFu;
    (*i)++;
  }
  *out = (uint32_t)v;
  return true;
}

/* "@@ -l[,s] +l[,s] @@ section": numbers are kept only when both sides parse. */
static void parse_hunk_header(ec_str s, ec_ud_hunk *h) {
  size_t i = 2;
  while (i < s.len && s.ptr[i] == ' ') i++;
  if (i >= s.len || s.ptr[i] != '-') return;
  i++;
  uint32_t os = 0, oc = 1, ns = 0, nc = 1;
  if (!parse_num(s, &i, &os)) return;
  if (i < s.len && s.ptr[i] == ',') { i++; if (!parse_num(s, &i, &oc)) return; }
  while (i < s.len && s.ptr[i] == ' ') i++;
  if (i >= s.len || s.ptr[i] != '+') return;
  i++;
  if (!parse_num(s, &i, &ns)) return;
  if (i < s.len && s.ptr[i] == ',') { i++; if (!parse_num(s, &i, &nc)) return; }
  h->has_numbers = true;
  h->old_start = os;
  h->old_count = oc;
  h->new_start = ns;
  h->new_count = nc;
}

static bool is_fence(ec_str s) { return ec_str_starts_with(s, "```") || ec_str_starts_with(s, "~~~"); }

/* A ---/+++ pair at i that starts a file's header (followed by @@, a header, a fence or the end). */
static bool header_pair_at(const lines_view *v, size_t i) {
  if (i + 1 >= v->n || !ec_str_starts_with(v->l[i], "--- ") || !ec_str_starts_with(v->l[i + 1], "+++ ")) return false;
  if (i + 2 >= v->n) return true;
  ec_str nx = v->l[i + 2];
  return ec_str_starts_with(nx, "@@") || ec_str_starts_with(nx, "diff --git ") || is_fence(nx) || ec_str_trim_end(nx, EC_WS_LINE).len == 0;
}

/* Lines that end a hunk's body whatever the counts say. */
static bool ends_hunk(const lines_view *v, size_t i) {
  ec_str s = v->l[i];
  return ec_str_starts_with(s, "@@") || ec_str_starts_with(s, "diff --git ") || is_fence(s) || header_pair_at(v, i);
}

static uint32_t count_kind(const ec_ud_line *l, size_t n, char k) {
  uint32_t c = 0;
  for (size_t i = 0; i < n; i++) c += l[i].kind == k;
  return c;
}

static bool counts_fit(const ec_ud_hunk *h, const ec_ud_line *l, size_t n) {
  uint32_t c = count_kind(l, n, ' '), r = count_kind(l, n, '-'), ad = count_kind(l, n, '+');
  return h->has_numbers && h->old_count == c + r && h->new_count == c + ad;
}

/*
 * Reads the body of the hunk whose header is line `at`; returns the index of the first line
 * after it. Blank lines inside a hunk are blank context lines (models drop the space); blank
 * lines at its end belong to it only when the header's counts say so.
 */
static ec_error_code parse_hunk(ec_arena *a, const lines_view *v, size_t at, ec_ud_hunk *h, size_t *next, ec_ud_error *err) {
  parse_hunk_header(v->l[at], h);
  h->line = line_no(v, at);
  size_t j = at + 1, cap = 0, n = 0, bare_tail = 0;
  ec_ud_line *ls = NULL;
  char last_kind = 0;
  while (j < v->n && !ends_hunk(v, j)) {
    ec_str s = v->l[j];
    char k;
    if (!s.len || (s.len == 1 && s.ptr[0] == '\r')) {
      k = ' ';
      s.len = 0;
    } else if (s.ptr[0] == ' ' || s.ptr[0] == '-' || s.ptr[0] == '+') {
      k = s.ptr[0];
      s = ec_str_drop(s, 1);
    } else if (s.ptr[0] == '\\') {
      if (!last_kind)
        return fail(a, err, line_no(v, j), ec_cstr("a '\\ No newline at end of file' line must follow a hunk line"));
      if (last_kind != '+') h->old_no_eol = true;
      if (last_kind != '-') h->new_no_eol = true;
      j++;
      continue;
    } else {
      /* Not a hunk line: the hunk ended and prose follows, or a hunk line lost its prefix. */
      size_t kept = n - bare_tail;
      bool fits = counts_fit(h, ls, kept) || counts_fit(h, ls, n);
      if (!fits) {
        for (size_t q = j + 1; q < v->n && !ends_hunk(v, q); q++) {
          ec_str t = v->l[q];
          if (t.len >= 2 && (t.ptr[0] == '+' || t.ptr[0] == '-' || t.ptr[0] == ' ') && ec_str_trim_end(t, EC_WS_LINE).len > 1) {
            ec_str ex = excerpt(s);
            return fail(a, err, line_no(v, j),
                        ec_arena_printf(a, "line %zu of the diff ('%.*s') is inside the hunk that starts at line %zu but does not "
                                           "start with ' ' (unchanged), '-' (removed) or '+' (added). Every line of a hunk needs "
                                           "one of these prefixes: put a space before each unchanged line.",
                                        (size_t)line_no(v, j), (int)ex.len, ex.ptr, (size_t)line_no(v, at)));
          }
        }
      }
      break;
    }
    if (!EC_ARENA_RESERVE(a, ls, n, cap, 16)) return EC_OUT_OF_MEMORY;
    ls[n].kind = k;
    ls[n].text = s;
    n++;
    bare_tail = !v->l[j].len ? bare_tail + 1 : 0;
    last_kind = k;
    j++;
  }
  /* Trailing bare blank lines: keep them only when the counts need them. */
  if (bare_tail && !(counts_fit(h, ls, n) && !counts_fit(h, ls, n - bare_tail))) n -= bare_tail;
  h->lines = ls;
  h->n_lines = n;
  h->n_context = count_kind(ls, n, ' ');
  h->n_remove = count_kind(ls, n, '-');
  h->n_add = count_kind(ls, n, '+');
  *next = j;
  return EC_OK;
}

/* ---------- the whole diff ---------- */

static bool git_ext_header(ec_str s) {
  static const char *const H[] = {"new file mode", "deleted file mode", "old mode", "new mode", "similarity index",
                                  "dissimilarity index", "index ", "copy from ", "copy to ", "rename from ", "rename to ",
                                  "new file", "deleted file"};
  for (size_t i = 0; i < sizeof H / sizeof H[0]; i++)
    if (ec_str_starts_with(s, H[i])) return true;
  return false;
}

ec_error_code ec_udiff_parse(ec_arena *a, ec_str text, size_t max_hunks, ec_ud_patch *out, ec_ud_error *err) {
  memset(out, 0, sizeof *out);
  memset(err, 0, sizeof *err);
  /* Split into lines; the empty lines it starts with are only counted (4 MiB of them, a reply's
   * padding, had made a 64 MB table). */
  lines_view v;
  v.base = 0;
  while (v.base < text.len && text.ptr[v.base] == '\n') v.base++;
  text = ec_str_drop(text, v.base);
  size_t n = 0;
  for (size_t i = 0; i < text.len; i++) n += text.ptr[i] == '\n';
  v.l = ec_arena_alloc(a, (n + 1) * sizeof *v.l);
  if (!v.l) return EC_OUT_OF_MEMORY;
  v.n = 0;
  size_t s0 = 0;
  for (size_t i = 0; i <= text.len; i++) {
    if (i == text.len || text.ptr[i] == '\n') {
      if (i == text.len && i == s0) break;
      v.l[v.n].ptr = text.ptr + s0;
      v.l[v.n].len = i - s0;
      v.n++;
      s0 = i + 1;
    }
  }

  ec_ud_file *cur = NULL;      /* the file hunks go to */
  bool cur_open = false;       /* a diff --git record still waiting for its ---/+++ pair */
  size_t i = 0;
  while (i < v.n) {
    ec_str s = v.l[i];
    if (ec_str_starts_with(s, "diff --git ")) {
      cur = add_file(a, out, line_no(&v, i));
      if (!cur) return EC_OUT_OF_MEMORY;
      cur->git = cur->has_header = true;
      parse_git_line(ec_str_drop(s, 11), &cur->old_path, &cur->new_path);
      cur_open = true;
      i++;
      continue;
    }
    if (cur_open && cur && !cur->n_hunks && git_ext_header(s)) {
      ec_error_code rc = EC_OK;
      if (ec_str_starts_with(s, "new file")) cur->new_file = true;
      else if (ec_str_starts_with(s, "deleted file")) cur->deleted_file = true;
      else if (ec_str_starts_with(s, "rename from ")) rc = parse_path(a, ec_str_drop(s, 12), &cur->rename_from);
      else if (ec_str_starts_with(s, "rename to ")) rc = parse_path(a, ec_str_drop(s, 10), &cur->rename_to);
      if (rc) return rc;
      i++;
      continue;
    }
    if (ec_str_starts_with(s, "Binary files ") || ec_str_starts_with(s, "GIT binary patch"))
      return fail(a, err, line_no(&v, i), ec_cstr("binary patches are not supported: send the new file as text instead"));
    if (header_pair_at(&v, i)) {
      if (!(cur_open && cur && !cur->n_hunks)) {
        cur = add_file(a, out, line_no(&v, i));
        if (!cur) return EC_OUT_OF_MEMORY;
      }
      cur_open = false;
      cur->has_header = true;
      ec_error_code rc = parse_path(a, ec_str_drop(s, 4), &cur->old_path);
      if (!rc) rc = parse_path(a, ec_str_drop(v.l[i + 1], 4), &cur->new_path);
      if (rc) return rc;
      cur->old_epoch = epoch_stamped(s);
      cur->new_epoch = epoch_stamped(v.l[i + 1]);
      cur->timestamped = memchr(s.ptr, '\t', s.len) && memchr(v.l[i + 1].ptr, '\t', v.l[i + 1].len);
      i += 2;
      continue;
    }
    if (ec_str_starts_with(s, "@@")) {
      if (!cur) {
        cur = add_file(a, out, line_no(&v, i));
        if (!cur) return EC_OUT_OF_MEMORY;
      }
      cur_open = false;
      if (out->n_hunks >= max_hunks) {
        err->line = line_no(&v, i);
        err->message = ec_arena_printf(a, "the diff has more than %zu hunks (options.limits.max_blocks)", max_hunks);
        return EC_TOO_LARGE;
      }
      ec_ud_hunk *h = add_hunk(a, cur);
      if (!h) return EC_OUT_OF_MEMORY;
      out->n_hunks++;
      size_t next;
      ec_error_code rc = parse_hunk(a, &v, i, h, &next, err);
      if (rc) return rc;
      if (!h->n_remove && !h->n_add)
        return fail(a, err, h->line,
                    ec_arena_printf(a, "the hunk at line %u of the diff has no '-' or '+' lines, so it changes nothing. Mark removed "
                                       "lines with '-' and added lines with '+'.",
                                    h->line));
      i = next;
      continue;
    }
    i++; /* prose, fences, Index: lines */
  }
  /* Resolve /dev/null. */
  for (size_t k = 0; k < out->n_files; k++) {
    ec_ud_file *f = &out->files[k];
    if (ec_str_eq_cstr(f->old_path, "/dev/null")) { f->old_null = true; f->old_path.len = 0; }
    if (ec_str_eq_cstr(f->new_path, "/dev/null")) { f->new_null = true; f->new_path.len = 0; }
    if (f->deleted_file && !f->n_hunks) f->new_null = true;
    /* An epoch side is absent when its one hunk says so (old -0,0 / new +0,0). */
    if (f->old_epoch && !f->old_null && f->n_hunks == 1 && f->hunks[0].has_numbers && !f->hunks[0].old_start && !f->hunks[0].old_count)
      f->old_null = true;
    if (f->new_epoch && !f->new_null && f->n_hunks == 1 && f->hunks[0].has_numbers && !f->hunks[0].new_start && !f->hunks[0].new_count)
      f->new_null = true;
    if (f->new_file) f->old_null = true;
  }
  bool any = false;
  for (size_t k = 0; k < out->n_files; k++)
    any |= out->files[k].n_hunks || out->files[k].new_null || out->files[k].rename_to.len || out->files[k].old_null;
  if (!any)
    return fail(a, err, v.base + v.n ? 1 : 0,
                ec_cstr("no hunk found: expected a unified diff with '--- a/path' and '+++ b/path' lines, then '@@ ... @@' "
                        "hunks whose lines start with ' ' (unchanged), '-' (removed) or '+' (added)"));
  return EC_OK;
}

ec_error_code ec_udiff_read(ec_ctx *ctx, ec_str text, ec_ud_patch *out, ec_ud_error *err) {
  ec_error_code rc = ec_udiff_parse(ctx->arena, text, ctx->opt.limits.max_blocks, out, err);
  if (rc) return rc;
  return ec_udiff_orient(ctx->arena, out, ctx->opt.has_strip, ctx->opt.strip, ctx->opt.reverse, err);
}

ec_str ec_ud_strip_dot(ec_str s) {
  while (ec_str_starts_with(s, "./")) s = ec_str_drop(s, 2);
  return s;
}
