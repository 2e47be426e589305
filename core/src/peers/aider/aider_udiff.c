/*
 * Aider's unified-diff coder ("udiff"), as format unified_diff in profile aider. Behaviour as
 * observed in Aider-AI/aider udiff_coder.py + search_replace.py (see peers/aider_codex.md §1.7),
 * written anew here:
 *   - only ```diff fenced blocks are read; a block ends at the next line starting with ```
 *     (an unterminated block loses its last line, as in Aider); `--- `/`+++ ` at the top of a
 *     block name the file (`b/` dropped only when the `---` path has `a/` or is /dev/null); a new
 *     `---`/`+++` pair inside a block starts the next file (its name taken as written); hunks
 *     are split on lines starting with `@`, their numbers ignored; hunks without +/- dropped;
 *   - each hunk is normalised (whitespace-only lines emptied, re-diffed), duplicates dropped;
 *   - a hunk whose before-text is blank appends its after-text (creating the file); otherwise
 *     the before-text is replaced EVERYWHERE it occurs (Python str.replace), trying: as is,
 *     blank lines stripped at the ends, relative indentation, both; a before-text with fewer
 *     than 10 non-blank characters that occurs more than once is refused; failing that, each
 *     change section is applied with less and less surrounding context;
 *   - files are read as Aider reads them (line endings folded to LF) and written with LF;
 *     hunks that apply are written even when others fail (status partial), the failures are one
 *     NO_MATCH error holding Aider's "UnifiedDiffNoMatch" messages joined by blank lines.
 * Differences, known: Aider's make_new_lines_explicit step (a diff-match-patch pass before the
 * partial-hunk fallback) is not reproduced, the re-diff uses editcore's Myers diff instead of
 * difflib, and lines split on LF only (Python's splitlines also splits on \f, \v, U+2028...).
 */
#include "../../base/strmap.h"
#include "../../parse/udiff_parse.h"
#include "../../base/str.h"
#include "../../base/buf.h"
#include "../../diff/diff.h"
#include <string.h>

#define AIDER_WORK_BUDGET ((uint64_t)1 << 27)

typedef struct strv {
  ec_str *v;
  size_t n, cap;
} strv;

typedef struct aud {
  ec_ctx *ctx;
  ec_arena *a;
  uint64_t work;
  bool too_large;
  bool oom;
  bool crashed;       /* Aider would have raised an exception other than ValueError */
  const char *crash;
} aud;

/* Every pass over text is charged here: Aider's partial-hunk search retries each hunk with every
 * trimming of its context, so a long hunk on a big file is quadratic, and must stop in time. */
static bool budget(aud *u, uint64_t n) {
  u->work += n + 1;
  if (u->work > AIDER_WORK_BUDGET) u->too_large = true;
  return !u->too_large;
}

static bool push(aud *u, strv *l, ec_str s) {
  if (!EC_ARENA_RESERVE(u->a, l->v, l->n, l->cap, 16)) { u->oom = true; return false; }
  l->v[l->n++] = s;
  return true;
}

/* str.splitlines(keepends=True), on LF only. */
static strv split_keep(aud *u, ec_str t) {
  strv l = {0};
  size_t s = 0;
  if (!budget(u, t.len)) return l;
  for (size_t i = 0; i < t.len; i++)
    if (t.ptr[i] == '\n') { push(u, &l, ec_str_make(t.ptr + s, i + 1 - s)); s = i + 1; }
  if (s < t.len) push(u, &l, ec_str_make(t.ptr + s, t.len - s));
  return l;
}

static ec_str join(aud *u, const ec_str *v, size_t n) {
  size_t len = 0;
  for (size_t i = 0; i < n; i++) len += v[i].len;
  budget(u, len);
  char *p = ec_arena_alloc(u->a, len + 1);
  if (!p) { u->oom = true; return ec_str_make("", 0); }
  size_t w = 0;
  for (size_t i = 0; i < n; i++) { if (v[i].len) memcpy(p + w, v[i].ptr, v[i].len); w += v[i].len; }
  p[w] = 0;
  return ec_str_make(p, w);
}

static ec_str cat(aud *u, ec_str x, ec_str y) {
  ec_str v[2] = {x, y};
  return join(u, v, 2);
}

static ec_str rstrip_eol(ec_str s) {
  while (s.len && (s.ptr[s.len - 1] == '\n' || s.ptr[s.len - 1] == '\r')) s.len--;
  return s;
}

static size_t n_chars(ec_str s) {
  size_t c = 0;
  for (size_t i = 0; i < s.len; i++) c += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
  return c;
}

static const char *find(ec_str hay, size_t from, ec_str needle) {
  if (needle.len > hay.len - from) return NULL;
  const char *p = hay.ptr + from, *end = hay.ptr + hay.len - needle.len;
  while (p <= end) {
    const char *q = memchr(p, needle.ptr[0], (size_t)(end - p) + 1);
    if (!q) return NULL;
    if (!memcmp(q, needle.ptr, needle.len)) return q;
    p = q + 1;
  }
  return NULL;
}

/* str.count: non-overlapping occurrences (an empty needle: one more than the characters). */
static size_t py_count(aud *u, ec_str hay, ec_str needle) {
  if (!budget(u, hay.len)) return 0;
  if (!needle.len) return n_chars(hay) + 1;
  size_t c = 0, at = 0;
  const char *q;
  while (at <= hay.len && (q = find(hay, at, needle))) { c++; at = (size_t)(q - hay.ptr) + needle.len; }
  return c;
}

/* str.replace(a, b): every non-overlapping occurrence, left to right. */
static ec_str py_replace(aud *u, ec_str hay, ec_str a, ec_str b) {
  ec_buf out;
  ec_buf_init(&out, ec_arena_allocator(u->a));
  if (!a.len) {
    /* b between every two characters: charge the output before writing it */
    if (!budget(u, hay.len) || !budget(u, ((uint64_t)hay.len + 1) * b.len)) return ec_str_make("", 0);
    for (size_t i = 0; i < hay.len; i++) {
      if (((unsigned char)hay.ptr[i] & 0xC0) != 0x80) ec_buf_append_str(&out, b);
      ec_buf_append_char(&out, hay.ptr[i]);
    }
    ec_buf_append_str(&out, b);
  } else {
    size_t at = 0;
    const char *q;
    while (at <= hay.len && (q = find(hay, at, a))) {
      if (!budget(u, b.len)) break;
      ec_buf_append(&out, hay.ptr + at, (size_t)(q - hay.ptr) - at);
      ec_buf_append_str(&out, b);
      at = (size_t)(q - hay.ptr) + a.len;
    }
    ec_buf_append(&out, hay.ptr + at, hay.len - at);
  }
  ec_str r = ec_buf_finish(&out, u->a);
  if (!r.ptr) { if (out.oom) u->oom = true; r = ec_str_make("", 0); }
  return r;
}

/* ---------- hunks: lists of lines, each with its op character first ---------- */

/* hunk_to_before_after */
static void before_after(aud *u, const strv *h, strv *before, strv *after) {
  memset(before, 0, sizeof *before);
  memset(after, 0, sizeof *after);
  for (size_t i = 0; i < h->n; i++) {
    ec_str line = h->v[i];
    char op = ' ';
    if (line.len >= 2) { op = line.ptr[0]; line = ec_str_drop(line, 1); }
    if (op == ' ') { push(u, before, line); push(u, after, line); }
    else if (op == '-') push(u, before, line);
    else if (op == '+') push(u, after, line);
  }
}

static void before_after_text(aud *u, const strv *h, ec_str *b, ec_str *a) {
  strv bl, al;
  before_after(u, h, &bl, &al);
  *b = join(u, bl.v, bl.n);
  *a = join(u, al.v, al.n);
}

/* ---------- RelativeIndenter ---------- */

typedef struct marker {
  char s[4];
  size_t len;
} marker;

static marker encode(uint32_t cp) {
  marker m;
  if (cp < 0x800) { m.s[0] = (char)(0xC0 | (cp >> 6)); m.s[1] = (char)(0x80 | (cp & 0x3F)); m.len = 2; }
  else if (cp < 0x10000) {
    m.s[0] = (char)(0xE0 | (cp >> 12)); m.s[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); m.s[2] = (char)(0x80 | (cp & 0x3F)); m.len = 3;
  } else {
    m.s[0] = (char)(0xF0 | (cp >> 18)); m.s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    m.s[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); m.s[3] = (char)(0x80 | (cp & 0x3F)); m.len = 4;
  }
  return m;
}

static bool in_any(aud *u, const ec_str *t, size_t n, marker m) {
  for (size_t i = 0; i < n; i++) {
    if (!budget(u, t[i].len)) return false;
    if (t[i].len >= m.len && find(t[i], 0, ec_str_make(m.s, m.len))) return true;
  }
  return false;
}

static marker choose_marker(aud *u, const ec_str *t, size_t n) {
  marker m = encode(0x2190); /* ← */
  for (uint32_t cp = 0x10FFFF; in_any(u, t, n, m) && cp > 0x10000; cp--) m = encode(cp);
  return m;
}

static ec_str make_relative(aud *u, ec_str text, marker m) {
  budget(u, text.len);
  strv lines = split_keep(u, text);
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(u->a));
  size_t prev = 0;
  for (size_t i = 0; i < lines.n; i++) {
    ec_str line = lines.v[i], body = rstrip_eol(line);
    size_t ind = 0;
    while (ind < body.len && ec_is_ws(body.ptr[ind], EC_WS_PYTHON)) ind++;
    if (ind > prev) ec_buf_append(&b, line.ptr + prev, ind - prev);  /* indent[-change:] */
    else for (size_t k = ind; k < prev; k++) ec_buf_append(&b, m.s, m.len);
    ec_buf_append_char(&b, '\n');
    ec_buf_append(&b, line.ptr + ind, line.len - ind);
    prev = ind;
  }
  ec_str r = ec_buf_finish(&b, u->a);
  if (!r.ptr) { if (b.oom) u->oom = true; r = ec_str_make("", 0); }
  return r;
}

/* Drops the last k characters (UTF-8) of s. */
static ec_str drop_chars(ec_str s, size_t k) {
  while (k && s.len) {
    s.len--;
    while (s.len && ((unsigned char)s.ptr[s.len] & 0xC0) == 0x80) s.len--;
    k--;
  }
  return s;
}

/* false: Aider raises (ValueError → the preproc fails; IndexError → a crash). */
static bool make_absolute(aud *u, ec_str text, marker m, ec_str *out) {
  strv lines = split_keep(u, text);
  if (lines.n % 2) { u->crashed = true; u->crash = "IndexError: list index out of range"; return false; }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(u->a));
  ec_str prev = ec_str_make("", 0);
  ec_str mk = ec_str_make(m.s, m.len);
  for (size_t i = 0; i < lines.n; i += 2) {
    ec_str dent = rstrip_eol(lines.v[i]), rest = lines.v[i + 1];
    ec_str cur;
    if (dent.len >= m.len && !memcmp(dent.ptr, m.s, m.len)) {
      cur = drop_chars(prev, n_chars(dent));
    } else {
      cur = cat(u, prev, dent);
    }
    if (rstrip_eol(rest).len) ec_buf_append_str(&b, cur);
    ec_buf_append_str(&b, rest);
    prev = cur;
  }
  ec_str r = ec_buf_finish(&b, u->a);
  if (!r.ptr) { if (b.oom) u->oom = true; return false; }
  if (r.len >= m.len && find(r, 0, mk)) return false;
  *out = r;
  return true;
}

/* ---------- search_and_replace with Aider's preprocessors ---------- */

static ec_str strip_nl_ends(aud *u, ec_str t) {
  while (t.len && t.ptr[0] == '\n') t = ec_str_drop(t, 1);
  while (t.len && t.ptr[t.len - 1] == '\n') t.len--;
  return cat(u, t, ec_str_make("\n", 1));
}

/* try_strategy(search_and_replace, preproc): NULL ptr when it fails (or yields ""). */
static ec_str try_preproc(aud *u, ec_str search, ec_str replace, ec_str original, bool strip_blank, bool relative) {
  ec_str none = {0, 0};
  if (strip_blank) {
    search = strip_nl_ends(u, search);
    replace = strip_nl_ends(u, replace);
    original = strip_nl_ends(u, original);
  }
  marker m = {{0}, 0};
  if (relative) {
    ec_str t[3] = {search, replace, original};
    m = choose_marker(u, t, 3);
    search = make_relative(u, search, m);
    replace = make_relative(u, replace, m);
    original = make_relative(u, original, m);
  }
  if (u->oom || u->too_large) return none;
  if (!py_count(u, original, search)) return none;
  ec_str res = py_replace(u, original, search, replace);
  if (!res.len || u->too_large) return none;
  if (relative && !make_absolute(u, res, m, &res)) return none;
  return res.len ? res : none;
}

static ec_str direct_in(aud *u, ec_str content, const strv *h);

/* directly_apply_hunk. Each try copies the whole file several times, and a partial hunk is tried
 * up to (context lines)^2 / 2 times: the copies live in a scratch arena freed after the try, so
 * memory stays at one try's worth; only the result is kept. */
static ec_str direct(aud *u, ec_str content, const strv *h) {
  ec_str none = {0, 0};
  if (u->crashed || u->oom || u->too_large) return none;
  ec_arena *keep = u->a, *scratch = ec_arena_new(ec_arena_allocator(keep));
  if (!scratch) { u->oom = true; return none; }
  u->a = scratch;
  ec_str r = direct_in(u, content, h);
  u->a = keep;
  if (r.ptr) {
    r = ec_arena_strdup(keep, r.ptr, r.len);
    if (!r.ptr) u->oom = true;
  }
  ec_arena_free(scratch);
  return r;
}

static ec_str direct_in(aud *u, ec_str content, const strv *h) {
  ec_str none = {0, 0};
  strv bl, al;
  before_after(u, h, &bl, &al);
  ec_str before = join(u, bl.v, bl.n), after = join(u, al.v, al.n);
  size_t nonblank = 0;
  for (size_t i = 0; i < bl.n; i++) nonblank += n_chars(ec_str_trim(bl.v[i], EC_WS_PYTHON));
  if (nonblank < 10 && py_count(u, content, before) > 1) return none;
  static const bool PRE[4][2] = {{false, false}, {true, false}, {false, true}, {true, true}};
  for (size_t i = 0; i < 4; i++) {
    ec_str r = try_preproc(u, before, after, content, PRE[i][0], PRE[i][1]);
    if (u->crashed) return none;
    if (r.ptr) return r;
  }
  return none;
}

static void concat3(aud *u, strv *out, const ec_str *a, size_t na, const ec_str *b, size_t nb, const ec_str *c, size_t nc) {
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < na; i++) push(u, out, a[i]);
  for (size_t i = 0; i < nb; i++) push(u, out, b[i]);
  for (size_t i = 0; i < nc; i++) push(u, out, c[i]);
}

/* apply_partial_hunk */
static ec_str partial(aud *u, ec_str content, const strv *prec, const strv *chg, const strv *foll) {
  ec_str none = {0, 0};
  size_t use_all = prec->n + foll->n;
  for (size_t dropn = 0; dropn < use_all; dropn++) {
    size_t use = use_all - dropn;
    for (size_t up = prec->n + 1; up-- > 0;) {
      if (up > use) continue;
      size_t uf = use - up;
      if (uf > foll->n) continue;
      strv h;
      /* the last `up` lines of prec (an empty list has no array: no pointer arithmetic on NULL) */
      const ec_str *tail = up ? prec->v + prec->n - up : NULL;
      ec_arena *keep = u->a, *scratch = ec_arena_new(ec_arena_allocator(keep));
      if (!scratch) { u->oom = true; return none; }
      u->a = scratch; /* this try's hunk dies with the try */
      budget(u, up + chg->n + uf);
      concat3(u, &h, tail, up, chg->v, chg->n, foll->v, uf);
      u->a = keep;
      ec_str r = direct(u, content, &h);
      ec_arena_free(scratch);
      if (r.ptr) return r;
      if (u->crashed || u->oom || u->too_large) return none;
    }
  }
  return none;
}

/* apply_hunk */
static ec_str apply_hunk(aud *u, ec_str content, const strv *h) {
  ec_str r = direct(u, content, h);
  if (r.ptr || u->crashed || u->oom || u->too_large) return r;
  /* sections alternate: context, change, context, ... */
  strv *sec = ec_arena_calloc(u->a, h->n + 3, sizeof *sec);
  if (!sec) { u->oom = true; return r; }
  size_t ns = 0;
  char cur = ' ';
  for (size_t i = 0; i < h->n; i++) {
    char op = h->v[i].len ? h->v[i].ptr[0] : ' ';
    if (op == '-' || op == '+') op = 'x';
    if (op == '\n') op = ' ';
    if (op != cur) { ns++; cur = op; }
    push(u, &sec[ns], h->v[i]);
  }
  ns++;
  if (cur != ' ') ns++;
  for (size_t i = 2; i < ns; i += 2) {
    r = partial(u, content, &sec[i - 2], &sec[i - 1], &sec[i]);
    if (!r.ptr) return r;
    content = r;
  }
  return content;
}

/* normalize_hunk: whitespace-only lines emptied, then re-diffed as one hunk with full context. */
static strv normalize(aud *u, const strv *h) {
  strv out = {0}, bl, al;
  before_after(u, h, &bl, &al);
  strv *sides[2] = {&bl, &al};
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < sides[s]->n; i++) {
      ec_str l = sides[s]->v[i];
      if (!ec_str_trim(l, EC_WS_PYTHON).len) {
        size_t eol = l.len - rstrip_eol(l).len;
        /* line[-eol]: the last character, or the first when there is no line end */
        sides[s]->v[i] = eol ? ec_str_make(l.ptr + l.len - 1, 1) : ec_str_make(l.ptr, l.len ? 1 : 0);
      }
    }
  ec_str bt = join(u, bl.v, bl.n), at = join(u, al.v, al.n);
  if (ec_str_eq(bt, at)) return out;
  ec_diff_script sc;
  if (ec_diff_texts(u->a, bt, at, 0, &sc)) { u->oom = true; return out; }
  size_t ia = 0, ib = 0;
  for (size_t c = 0; c <= sc.n; c++) {
    size_t a_to = c < sc.n ? sc.changes[c].a : bl.n;
    for (; ia < a_to && ia < bl.n; ia++, ib++) push(u, &out, cat(u, ec_str_make(" ", 1), bl.v[ia]));
    if (c == sc.n) break;
    for (size_t k = 0; k < sc.changes[c].na && ia < bl.n; k++, ia++) push(u, &out, cat(u, ec_str_make("-", 1), bl.v[ia]));
    for (size_t k = 0; k < sc.changes[c].nb && ib < al.n; k++, ib++) push(u, &out, cat(u, ec_str_make("+", 1), al.v[ib]));
  }
  return out;
}

/* ---------- find_diffs ---------- */

typedef struct raw_edit {
  ec_str path;
  bool has_path;
  strv hunk;
} raw_edit;

typedef struct edits {
  raw_edit *v;
  size_t n, cap;
} edits;

static bool add_edit(aud *u, edits *e, ec_str path, bool has_path, strv hunk) {
  if (!EC_ARENA_RESERVE(u->a, e->v, e->n, e->cap, 8)) { u->oom = true; return false; }
  e->v[e->n].path = path;
  e->v[e->n].has_path = has_path;
  e->v[e->n].hunk = hunk;
  e->n++;
  return true;
}

static size_t fenced_block(aud *u, const strv *lines, size_t start, edits *out) {
  if (start >= lines->n) { u->crashed = true; u->crash = "UnboundLocalError: local variable 'line_num' referenced before assignment"; return lines->n; }
  size_t ln = start;
  for (; ln < lines->n; ln++)
    if (ec_str_starts_with(lines->v[ln], "```")) break;
  if (ln == lines->n) ln = lines->n - 1; /* the loop variable keeps its last value */
  strv block = {0};
  for (size_t i = start; i < ln; i++) push(u, &block, lines->v[i]);
  push(u, &block, ec_cstr("@@ @@"));
  ec_str fname = {0, 0};
  bool has = false;
  size_t from = 0;
  if (block.n >= 2 && ec_str_starts_with(block.v[0], "--- ") && ec_str_starts_with(block.v[1], "+++ ")) {
    ec_str a = ec_str_trim(ec_str_drop(block.v[0], 4), EC_WS_PYTHON), b = ec_str_trim(ec_str_drop(block.v[1], 4), EC_WS_PYTHON);
    fname = ((ec_str_starts_with(a, "a/") || ec_str_eq_cstr(a, "/dev/null")) && ec_str_starts_with(b, "b/")) ? ec_str_drop(b, 2) : b;
    has = true;
    from = 2;
  }
  bool keeper = false;
  strv hunk = {0};
  for (size_t i = from; i < block.n; i++) {
    ec_str line = block.v[i];
    push(u, &hunk, line);
    if (line.len < 2) continue;
    if (ec_str_starts_with(line, "+++ ")) {
      if (hunk.n < 2) { u->crashed = true; u->crash = "IndexError: list index out of range"; return ln + 1; }
      if (ec_str_starts_with(hunk.v[hunk.n - 2], "--- ")) {
        if (hunk.n < 3) { u->crashed = true; u->crash = "IndexError: list index out of range"; return ln + 1; }
        hunk.n -= ec_str_eq_cstr(hunk.v[hunk.n - 3], "\n") ? 3 : 2;
        add_edit(u, out, fname, has, hunk);
        memset(&hunk, 0, sizeof hunk);
        keeper = false;
        fname = ec_str_trim(ec_str_drop(line, 4), EC_WS_PYTHON);
        has = true;
        continue;
      }
    }
    char op = line.ptr[0];
    if (op == '-' || op == '+') { keeper = true; continue; }
    if (op != '@') continue;
    if (!keeper) { memset(&hunk, 0, sizeof hunk); continue; }
    hunk.n--;
    add_edit(u, out, fname, has, hunk);
    memset(&hunk, 0, sizeof hunk);
    keeper = false;
  }
  return ln + 1;
}

static void find_diffs(aud *u, ec_str content, edits *out) {
  if (!content.len || content.ptr[content.len - 1] != '\n') content = cat(u, content, ec_str_make("\n", 1));
  strv lines = split_keep(u, content);
  size_t i = 0;
  while (i < lines.n && !u->crashed && !u->oom) {
    if (ec_str_starts_with(lines.v[i], "```diff")) i = fenced_block(u, &lines, i + 1, out);
    else i++;
  }
}

/* ---------- files as Aider sees them ---------- */

typedef struct afile {
  ec_str path;
  bool exists;        /* on Aider's disk */
  ec_str content;     /* as read: LF, BOM kept as text */
  bool written;
} afile;

typedef struct afiles {
  afile *v;
  size_t n, cap;
} afiles;

static afile *get_file(aud *u, afiles *fs, ec_str path) {
  for (size_t i = 0; i < fs->n; i++)
    if (ec_str_eq(fs->v[i].path, path)) return &fs->v[i];
  if (!EC_ARENA_RESERVE(u->a, fs->v, fs->n, fs->cap, 8)) { u->oom = true; return NULL; }
  afile *f = &fs->v[fs->n++];
  memset(f, 0, sizeof *f);
  f->path = path;
  ec_ws_file *w = ec_ws_find(u->ctx, path);
  if (w && w->exists) {
    ec_doc *doc;
    if (ec_ws_doc(u->ctx, w, &doc)) return NULL;
    f->exists = true;
    f->content = doc->bom ? cat(u, ec_str_make("\xEF\xBB\xBF", 3), ec_str_make(doc->text, doc->len))
                          : ec_str_make(doc->text, doc->len);
  }
  return f;
}

/* The chat's files (edit.options.chat_files, else every file given) as a set: one lookup per hunk. */
static bool chat_set(const ec_ctx *ctx, ec_strmap *set) {
  const ec_peer_options *po = &ctx->req->edit.peer;
  ec_strmap_init(set, ctx->arena);
  size_t n = po->has_chat_files ? po->n_chat_files : ctx->req->n_files;
  for (size_t i = 0; i < n; i++)
    if (ec_strmap_add(set, po->has_chat_files ? po->chat_files[i] : ctx->req->files[i].path, i, NULL) < 0) return false;
  return true;
}

static ec_error_code finish(aud *u, afiles *fs, ec_buf *errors, size_t n_errors) {
  ec_ctx *ctx = u->ctx;
  ec_str msg = ec_buf_finish(errors, ctx->arena); /* the arena owns it now, whichever way we leave */
  bool wrote = false;
  for (size_t i = 0; i < fs->n; i++) {
    afile *f = &fs->v[i];
    if (!f->written) continue;
    ec_ws_file *w = ec_ws_get(ctx, f->path);
    if (!w) return ec_fail_oom(ctx);
    ec_error_code rc = ec_ws_set_bytes(ctx, w, f->content);
    if (rc) return rc;
    w->replacements = 1;
    wrote = true;
  }
  if (u->oom) return ec_fail_oom(ctx);
  ec_error_code rc = EC_OK;
  if (u->too_large)
    rc = ec_fail(ctx, EC_TOO_LARGE, "applying the diff the way Aider does would take too long (more than %llu bytes scanned)",
                 (unsigned long long)AIDER_WORK_BUDGET);
  else if (u->crashed)
    rc = ec_fail(ctx, EC_MALFORMED_EDIT, "Exception while updating files:\n%s", u->crash);
  else if (n_errors)
    rc = ec_fail(ctx, EC_NO_MATCH, "%.*s", (int)msg.len, msg.ptr ? msg.ptr : "");
  else if (!wrote && !ctx->req->edit.peer.dry_run)
    /* Aider would say nothing and change nothing; an edit is never a success that changed
     * nothing (SPEC §1): every hunk was empty, a duplicate, or for a file not allowed. */
    rc = ec_fail(ctx, EC_NOOP, "the diff changes nothing: each of its hunks was empty, repeated another, or named a file outside the "
                 "chat that was not confirmed (edit.options.confirm); nothing was changed");
  if (rc && wrote) ctx->partial = true;
  return rc;
}

ec_error_code ec_aider_udiff(ec_ctx *ctx) {
  aud u;
  memset(&u, 0, sizeof u);
  u.ctx = ctx;
  u.a = ctx->arena;
  const ec_edit *e = &ctx->req->edit;
  ec_str text = ec_text_normalize_eol(ctx->arena, e->text);
  edits raw = {0};
  find_diffs(&u, text, &raw);
  afiles fs = {0};
  ec_buf errors;
  ec_buf_init(&errors, ec_arena_allocator(ctx->arena));
  size_t n_errors = 0;
  if (u.crashed || u.oom) return finish(&u, &fs, &errors, 0);
  if (!raw.n)
    /* Aider would find no edit and change nothing, silently (find_diffs reads ```diff fences only) */
    return ec_fail(ctx, EC_MALFORMED_EDIT, "no diff found: Aider reads a unified diff only inside a ```diff fence (a line starting "
                   "```diff, the hunks, then a line starting ```), and this text has none; nothing was changed. Send the diff "
                   "inside ```diff ... ```");
  if (raw.n > ctx->opt.limits.max_blocks)
    return ec_fail(ctx, EC_TOO_LARGE, "the reply holds %zu hunks; the limit (options.limits.max_blocks) is %zu", raw.n,
                   ctx->opt.limits.max_blocks);

  /* get_edits: a hunk without a path takes the last path seen. */
  ec_str last = {0, 0};
  bool have_last = false;
  for (size_t i = 0; i < raw.n; i++) {
    if (raw.v[i].has_path) { last = raw.v[i].path; have_last = true; }
    else if (have_last) { raw.v[i].path = last; raw.v[i].has_path = true; }
  }
  /* prepare_to_edit: files outside the chat need the user's yes; new ones are created empty. */
  const ec_peer_options *po = &e->peer;
  ec_strmap chat;
  if (!chat_set(ctx, &chat)) return ec_fail_oom(ctx);
  size_t kept = 0;
  for (size_t i = 0; i < raw.n; i++) {
    raw_edit *r = &raw.v[i];
    if (!r->has_path) { raw.v[kept++] = *r; continue; }
    afile *f = get_file(&u, &fs, r->path);
    if (!f) return u.oom ? finish(&u, &fs, &errors, 0) : ec_last_error(ctx)->code;
    if (!ec_strmap_get(&chat, r->path, NULL)) {
      if (!po->confirm) continue;
      if (!f->exists && !po->dry_run) { f->exists = true; f->content = ec_str_make("", 0); f->written = true; }
    }
    raw.v[kept++] = *r;
  }
  raw.n = kept;

  /* apply_edits: normalise, drop duplicates, apply each hunk to the file as it now is. */
  for (size_t i = 0; i < raw.n; i++) {
    raw_edit *r = &raw.v[i];
    if (!r->has_path) { u.crashed = true; u.crash = "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'"; break; }
    strv h = normalize(&u, &r->hunk);
    if (u.oom) break;
    r->hunk = h;
    if (!h.n) { r->has_path = false; continue; }
    bool dup = false;
    for (size_t j = 0; j < i && !dup; j++) {
      const raw_edit *o = &raw.v[j];
      if (!o->has_path || !ec_str_eq(o->path, r->path) || o->hunk.n != h.n) continue;
      dup = true;
      for (size_t k = 0; k < h.n && dup; k++) dup = ec_str_eq(o->hunk.v[k], h.v[k]);
    }
    if (dup) { r->has_path = false; continue; }
  }
  for (size_t i = 0; i < raw.n && !u.crashed && !u.oom && !u.too_large; i++) {
    raw_edit *r = &raw.v[i];
    if (!r->has_path) continue;
    afile *f = get_file(&u, &fs, r->path);
    if (!f) break;
    ec_str before, after;
    before_after_text(&u, &r->hunk, &before, &after);
    ec_str res = {0, 0};
    if (!f->exists && !ec_str_trim(before, EC_WS_PYTHON).len) { f->exists = true; f->content = ec_str_make("", 0); f->written = true; }
    if (f->exists) {
      if (!ec_str_trim(before, EC_WS_PYTHON).len) res = cat(&u, f->content, after);
      else res = apply_hunk(&u, f->content, &r->hunk);
    }
    if (u.crashed || u.oom || u.too_large) break;
    if (!res.ptr || !res.len) {
      if (n_errors) ec_buf_append_cstr(&errors, "\n\n");
      size_t nl = 0;
      for (size_t k = 0; k < before.len; k++) nl += before.ptr[k] == '\n';
      if (before.len && before.ptr[before.len - 1] != '\n') nl++;
      ec_buf_printf(&errors,
                    "UnifiedDiffNoMatch: hunk failed to apply!\n\n%.*s does not contain lines that match the diff you provided!\n"
                    "Try again.\nDO NOT skip blank lines, comments, docstrings, etc!\nThe diff needs to apply cleanly to the lines in "
                    "%.*s!\n\n%.*s does not contain these %zu exact lines in a row:\n```\n%.*s```\n",
                    (int)r->path.len, r->path.ptr, (int)r->path.len, r->path.ptr, (int)r->path.len, r->path.ptr, nl,
                    (int)before.len, before.ptr);
      n_errors++;
      continue;
    }
    if (!po->dry_run) {
      f->content = res;
      f->written = true;
    }
  }
  return finish(&u, &fs, &errors, n_errors);
}
