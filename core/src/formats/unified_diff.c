/*
 * Format `unified_diff`: {text}. The diff is parsed tolerantly (dialects/udiff_parse.h); then, in
 * the editcore profile, every hunk is located by its unchanged and removed lines, never by its
 * line numbers (models rarely get them right):
 *   - hunks of a file apply in order, each in the text its predecessors produced, so hunks whose
 *     context overlaps still apply; a match must start at a line start;
 *   - the ladder of the profile (or options.strategies) is climbed per hunk; a looser strategy's
 *     match keeps the file's own text on unchanged lines;
 *   - when the old lines fit several places, the one at the header's stated line is taken only
 *     when the stated line is exactly right (in the file's original numbering); otherwise
 *     AMBIGUOUS listing every place;
 *   - a hunk whose old lines are absent but whose new lines are present (once) is already
 *     applied and skipped; a diff that is entirely applied already is NOOP;
 *   - a hunk that only adds lines and has no unchanged line cannot be placed: MALFORMED_EDIT
 *     (unless the file is empty);
 *   - `--- /dev/null` creates, `+++ /dev/null` deletes (the removed lines must be the whole
 *     file), `rename from`/`rename to` moves; `\ No newline at end of file` on a hunk that reaches
 *     the end of the file sets whether the file ends in a newline, which is otherwise kept;
 *   - all or nothing: the first failing hunk fails the request, with error.path, error.block
 *     (the hunk's number in the whole diff) and error.line (its @@ line in the diff).
 */
#include "formats.h"
#include "../engine/profiles.h"
#include "../match/report.h"
#include "../base/str.h"
#include "../base/buf.h"
#include "../base/hash.h"
#include "../dialects/udiff_parse.h"
#include <string.h>

#define WORK_BUDGET ((uint64_t)1 << 30) /* bytes scanned over all hunks of a request */

typedef struct ud_run {
  ec_ctx *ctx;
  ec_strategy order[EC_STRATEGY__COUNT];
  const ec_strategy *ladder;
  size_t n_ladder;
  uint32_t hunk_no;     /* hunks seen so far, over the whole diff */
  size_t effective;     /* hunks and file operations that change something */
  size_t noop;          /* hunks found already applied */
  uint64_t work;
} ud_run;

static ec_error_code oom(ec_ctx *ctx) { return ec_fail(ctx, EC_OUT_OF_MEMORY, "out of memory"); }

static void set_where(ec_ctx *ctx, ec_str path, uint32_t block, uint32_t line) {
  ec_error *e = ec_last_error(ctx);
  if (!e) return;
  if (path.len) e->path = path;
  if (block) e->block = (int32_t)block;
  if (line) e->line = line;
}

/* ---------- paths ---------- */

static ec_str strip_dot(ec_str s) {
  while (ec_str_starts_with(s, "./")) s = ec_str_drop(s, 2);
  return s;
}

static ec_ws_file *existing(ec_ctx *ctx, ec_str p) {
  if (!p.len) return NULL;
  ec_ws_file *f = ec_ws_find(ctx, p);
  return f && f->exists ? f : NULL;
}

/* The file a header path names: as written, then without ./ and without a git a/ or b/ prefix. */
static ec_ws_file *find_named(ec_ctx *ctx, ec_str raw) {
  ec_ws_file *f = existing(ctx, raw);
  if (f) return f;
  ec_str s = strip_dot(raw);
  if ((f = existing(ctx, s))) return f;
  if (ec_str_starts_with(s, "a/") || ec_str_starts_with(s, "b/")) return existing(ctx, strip_dot(ec_str_drop(s, 2)));
  return NULL;
}

/* The name a new file gets: git's prefix dropped when the diff is git-style. */
static ec_str new_name(const ec_ud_file *uf, ec_str raw) {
  ec_str s = strip_dot(raw);
  bool gitty = uf->git || ec_str_starts_with(uf->old_path, "a/") || (uf->old_null && ec_str_starts_with(s, "b/"));
  if (gitty && (ec_str_starts_with(s, "b/") || ec_str_starts_with(s, "a/"))) s = strip_dot(ec_str_drop(s, 2));
  return s;
}

/* ---------- text helpers ---------- */

/* One side of a hunk as text: the lines whose kind is not `skip`, each ending in LF. */
static ec_str side_text(ec_ctx *ctx, const ec_ud_hunk *h, char skip) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  for (size_t i = 0; i < h->n_lines; i++) {
    if (h->lines[i].kind == skip) continue;
    ec_buf_append_str(&b, h->lines[i].text);
    ec_buf_append_char(&b, '\n');
  }
  ec_str s = ec_buf_finish(&b, ctx->arena);
  if (!s.ptr && !b.oom) s.ptr = "";
  return s;
}

static size_t count_lf(const char *p, size_t n) {
  size_t c = 0;
  for (const char *q = p, *e = p + n; q < e && (q = memchr(q, '\n', (size_t)(e - q))); q++) c++;
  return c;
}

/* Splits LF-terminated text into lines (without LF); NULL when the count differs from want. */
static ec_str *split_exact(ec_arena *a, ec_str t, size_t want) {
  if (count_lf(t.ptr, t.len) != want || (t.len && t.ptr[t.len - 1] != '\n') || (!t.len && want)) return NULL;
  ec_str *l = ec_arena_alloc(a, (want + 1) * sizeof *l);
  if (!l) return NULL;
  size_t s = 0, k = 0;
  for (size_t i = 0; i < t.len; i++)
    if (t.ptr[i] == '\n') { l[k].ptr = t.ptr + s; l[k].len = i - s; k++; s = i + 1; }
  return l;
}

/*
 * After a loose match, unchanged lines keep the file's bytes: the replacement's lines that stand
 * for the hunk's ' ' lines are swapped for the matched lines. Left as is when the shapes differ.
 */
static ec_str keep_file_context(ec_ctx *ctx, const ec_ud_hunk *h, ec_str matched, ec_str repl) {
  size_t n_old = h->n_context + h->n_remove, n_new = h->n_context + h->n_add;
  ec_str *ml = split_exact(ctx->arena, matched, n_old), *rl = split_exact(ctx->arena, repl, n_new);
  if (!ml || !rl) return repl;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  size_t io = 0, in = 0;
  for (size_t i = 0; i < h->n_lines; i++) {
    char k = h->lines[i].kind;
    if (k == ' ') { ec_buf_append_str(&b, ml[io]); ec_buf_append_char(&b, '\n'); io++; in++; }
    else if (k == '-') io++;
    else { ec_buf_append_str(&b, rl[in]); ec_buf_append_char(&b, '\n'); in++; }
  }
  ec_str s = ec_buf_finish(&b, ctx->arena);
  return s.ptr ? s : repl;
}

/* ---------- locating and applying hunks ---------- */

/*
 * The text a hunk is located in is the file with the hunks before it applied. It is kept as a base
 * text T (the file itself, or a copy made when a hunk needed the whole text, `ud_flush`) plus the
 * replacements made since, sorted by their place in T; the file is copied once at the end (one batch
 * of splices), never per hunk. A hunk whose lines are found exactly is located through a hash index
 * of T's lines, built once per base text: the candidates are the places of its rarest line, so a
 * hunk costs its own size plus its candidates, however large the file. Whenever that cannot decide
 * by itself (no exact place, a candidate that runs into an earlier replacement, a line an earlier
 * hunk wrote, a ladder that does not start with exact), the hunk takes the general path: the current
 * text is materialised and the ladder searches all of it, as for a single edit.
 */
typedef struct ud_splice {
  size_t start, end;       /* bytes of T (end may take T's virtual final LF) */
  uint32_t line0, line1;   /* the lines of T it replaces, [line0, line1) */
  ec_str text;             /* what the current text has there instead */
} ud_splice;

typedef struct ud_text {
  const char *p;
  size_t len;              /* bytes at p; T is p plus one LF when virt */
  bool virt;               /* the file does not end in LF: T reads one there, as the hunk's lines do */
  bool is_doc;             /* p is the file's own text */
  bool owned;              /* p was made by ud_flush (released by the next one) */
  bool dirty;              /* a replacement is not whole lines: materialise before an indexed search */
  uint32_t n_lines;        /* lines of T */
  uint32_t *orig;          /* line of T -> its 1-based line in the file as given; NULL: the same */
  ud_splice *sp;
  size_t n_sp, cap_sp;
  /* the hash index of T's lines: slot s holds the lines post[first[s] .. first[s + 1]) */
  bool indexed;
  size_t *start;           /* byte offset of each line of T; start[n_lines] = T's length */
  uint32_t mask;
  uint32_t *key, *first, *post;
  uint32_t *written;       /* per slot: 1 + the last of the lines with that key that replacements wrote, 0: none */
  struct ud_wline { size_t at; uint32_t off, next; } *wl; /* at: the replacement's start; off: the line in its text */
  size_t n_wl, cap_wl;
} ud_text;

#define NO_SLOT UINT32_MAX

static size_t t_size(const ud_text *t) { return t->len + (t->virt ? 1 : 0); }

/* 1-based line in the file as given of line i (0-based) of T. */
static int64_t t_orig(const ud_text *t, size_t i) {
  if (!t->orig) return (int64_t)i + 1;
  if (i < t->n_lines) return t->orig[i];
  return t->n_lines ? (int64_t)t->orig[t->n_lines - 1] + (int64_t)(i - t->n_lines) + 1 : (int64_t)i + 1;
}

/* The first LF of T in [x, upto), or SIZE_MAX. */
static size_t t_find_lf(const ud_text *t, size_t x, size_t upto) {
  size_t lim = upto < t->len ? upto : t->len;
  if (x < lim) {
    const char *q = memchr(t->p + x, '\n', lim - x);
    if (q) return (size_t)(q - t->p);
  }
  if (t->virt && x <= t->len && t->len < upto) return t->len;
  return SIZE_MAX;
}

static size_t t_count_lf(const ud_text *t, size_t x, size_t upto) {
  size_t c = 0;
  for (size_t q; x < upto && (q = t_find_lf(t, x, upto)) != SIZE_MAX; x = q + 1) c++;
  return c;
}

static uint32_t line_key(uint64_t h) { return (uint32_t)(h >> 32) | 1u; }

static uint32_t slot_of(const ud_text *t, uint64_t h) {
  uint32_t k = line_key(h);
  for (uint32_t s = (uint32_t)h & t->mask;; s = (s + 1) & t->mask) {
    if (t->key[s] == k) return s;
    if (!t->key[s]) return NO_SLOT;
  }
}

/* Lists the lines of a replacement's text under their keys (only keys T has: the others anchor nothing). */
static ec_error_code note_written(ec_ctx *ctx, ud_text *t, size_t at, ec_str text) {
  for (size_t x = 0; x < text.len;) {
    const char *q = memchr(text.ptr + x, '\n', text.len - x);
    size_t e = q ? (size_t)(q - text.ptr) : text.len;
    uint32_t s = slot_of(t, ec_hash_bytes(text.ptr + x, e - x));
    if (s != NO_SLOT) {
      if (t->n_wl == t->cap_wl) {
        size_t nc = t->cap_wl ? t->cap_wl * 2 : 64;
        struct ud_wline *p = ec_arena_grow(ctx->arena, t->wl, t->cap_wl * sizeof *p, nc * sizeof *p);
        if (!p || nc >= UINT32_MAX) return EC_OUT_OF_MEMORY;
        t->wl = p;
        t->cap_wl = nc;
      }
      t->wl[t->n_wl] = (struct ud_wline){at, (uint32_t)x, t->written[s]};
      t->written[s] = (uint32_t)++t->n_wl;
    }
    x = e + 1;
  }
  return EC_OK;
}

static void drop_index(ec_ctx *ctx, ud_text *t) {
  void *blocks[] = {t->start, t->key, t->first, t->written, t->post, t->wl};
  for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
    if (blocks[i]) ec_arena_release(ctx->arena, blocks[i]);
  t->start = NULL;
  t->key = t->first = t->written = t->post = NULL;
  t->wl = NULL;
  t->n_wl = t->cap_wl = 0;
  t->indexed = false;
}

static ec_error_code build_index(ec_ctx *ctx, ud_text *t) {
  size_t n = t->n_lines, cap = 16;
  while (cap < n + n / 4 + 1) cap *= 2;
  if (cap > ((size_t)1 << 31)) return EC_TOO_LARGE;
  t->mask = (uint32_t)(cap - 1);
  t->start = ec_arena_alloc(ctx->arena, (n + 1) * sizeof *t->start);
  t->key = ec_arena_calloc(ctx->arena, cap, sizeof *t->key);
  t->first = ec_arena_calloc(ctx->arena, cap + 1, sizeof *t->first);
  t->written = ec_arena_calloc(ctx->arena, cap, sizeof *t->written);
  t->post = ec_arena_alloc(ctx->arena, (n + 1) * sizeof *t->post);
  uint32_t *lslot = ec_arena_alloc(ctx->arena, (n + 1) * sizeof *lslot);
  if (!t->start || !t->key || !t->first || !t->written || !t->post || !lslot) return EC_OUT_OF_MEMORY;
  size_t x = 0;
  for (size_t i = 0; i < n; i++) {
    size_t q = t_find_lf(t, x, t_size(t));
    size_t e = q == SIZE_MAX ? t->len : q;
    uint64_t h = ec_hash_bytes(t->p + x, (e < t->len ? e : t->len) - x);
    uint32_t k = line_key(h), s = (uint32_t)h & t->mask;
    while (t->key[s] && t->key[s] != k) s = (s + 1) & t->mask;
    t->key[s] = k;
    t->first[s]++;
    lslot[i] = s;
    t->start[i] = x;
    x = q == SIZE_MAX ? t_size(t) : q + 1;
  }
  t->start[n] = t_size(t);
  uint32_t run = 0;
  for (size_t s = 0; s < cap; s++) { run += t->first[s]; t->first[s] = run; }
  t->first[cap] = run;
  for (size_t i = n; i-- > 0;) t->post[--t->first[lslot[i]]] = (uint32_t)i;
  ec_arena_release(ctx->arena, lslot);
  t->indexed = true;
  for (size_t j = 0; j < t->n_sp; j++)
    if (note_written(ctx, t, t->sp[j].start, t->sp[j].text)) return EC_OUT_OF_MEMORY;
  return EC_OK;
}

/* The first replacement whose lines end after line a (replacements are sorted and disjoint). */
static size_t splice_after(const ud_text *t, uint32_t a) {
  size_t lo = 0, hi = t->n_sp;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->sp[mid].line1 > a) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* Whether T's bytes [s, s + n) are the n bytes at q. */
static bool t_same(const ud_text *t, size_t s, size_t n, const char *q) {
  size_t real = s < t->len ? (s + n < t->len ? n : t->len - s) : 0;
  if (real && memcmp(t->p + s, q, real)) return false;
  return real == n || (n == real + 1 && q[real] == '\n');
}

/* Whether T's bytes [s, e) are `want`. */
static bool t_equals(const ud_text *t, size_t s, size_t e, ec_str want) {
  return e - s == want.len && t_same(t, s, want.len, want.ptr);
}

/* Piece q of the current text: q = 2i is T between replacements i - 1 and i, q = 2i + 1 replacement i's text. */
static size_t piece(const ud_text *t, size_t q, size_t *s, const char **x) {
  size_t i = q / 2;
  if (q % 2) { *x = t->sp[i].text.ptr; *s = 0; return t->sp[i].text.len; }
  *x = NULL;
  *s = i ? t->sp[i - 1].end : 0;
  return (i < t->n_sp ? t->sp[i].start : t_size(t)) - *s;
}

/* Whether the current text goes on with `want` from byte pos of piece q. */
static bool walk_forward(const ud_text *t, size_t q, size_t pos, ec_str want) {
  for (; want.len; q++, pos = 0) {
    if (q > 2 * t->n_sp) return false;
    size_t s;
    const char *x;
    size_t len = piece(t, q, &s, &x) - pos, n = len < want.len ? len : want.len;
    if (x ? memcmp(x + pos, want.ptr, n) != 0 : !t_same(t, s + pos, n, want.ptr)) return false;
    want.ptr += n;
    want.len -= n;
  }
  return true;
}

/* Whether the current text has `want` just before byte pos of piece q, starting at a line start.
 * (Every piece before the last holds real bytes of T: T's virtual LF ends T.) */
static bool walk_backward(const ud_text *t, size_t q, size_t pos, ec_str want) {
  size_t s;
  const char *x;
  for (;;) {
    piece(t, q, &s, &x);
    const char *base = x ? x : t->p + s;
    size_t n = pos < want.len ? pos : want.len;
    if (memcmp(base + pos - n, want.ptr + want.len - n, n)) return false;
    want.len -= n;
    if (!want.len) {
      if (n < pos) return base[pos - n - 1] == '\n';
      break;
    }
    if (!q) return false;
    pos = piece(t, --q, &s, &x);
  }
  while (q--) { /* the byte before the place: the last of the nearest non-empty piece */
    size_t len = piece(t, q, &s, &x);
    if (len) return (x ? x[len - 1] : t->p[s + len - 1]) == '\n';
  }
  return true;
}

/* The replacement that starts at byte `at` of T. */
static size_t splice_at(const ud_text *t, size_t at) {
  size_t lo = 0, hi = t->n_sp;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->sp[mid].start < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/*
 * Makes T the current text: the replacements copied in once, and each line's original number
 * carried over (lines a hunk wrote count from the first line it replaced, as the file had them).
 */
static ec_error_code ud_flush(ec_ctx *ctx, ud_text *t) {
  t->dirty = false;
  if (!t->n_sp && !t->virt) return EC_OK;
  size_t total = t_size(t), out_len = total;
  for (size_t i = 0; i < t->n_sp; i++) out_len = out_len - (t->sp[i].end - t->sp[i].start) + t->sp[i].text.len;
  char *o = ec_arena_alloc(ctx->arena, out_len + 1);
  if (!o) return EC_OUT_OF_MEMORY;
  size_t w = 0, r = 0;
  for (size_t i = 0; i <= t->n_sp; i++) {
    size_t upto = i < t->n_sp ? t->sp[i].start : total;
    size_t real = upto < t->len ? upto : t->len;
    if (real > r) { memcpy(o + w, t->p + r, real - r); w += real - r; }
    if (t->virt && r <= t->len && t->len < upto) o[w++] = '\n';
    if (i == t->n_sp) break;
    if (t->sp[i].text.len) memcpy(o + w, t->sp[i].text.ptr, t->sp[i].text.len);
    w += t->sp[i].text.len;
    r = t->sp[i].end;
  }
  o[out_len] = 0;
  size_t nl = count_lf(o, out_len) + (out_len && o[out_len - 1] != '\n' ? 1 : 0);
  if (nl >= UINT32_MAX) return EC_TOO_LARGE;
  uint32_t *om = ec_arena_alloc(ctx->arena, (nl + 1) * sizeof *om);
  if (!om) return EC_OUT_OF_MEMORY;
  size_t k = 0, tl = 0;
  bool at_start = true;
  r = 0;
  for (size_t i = 0; i <= t->n_sp; i++) {
    size_t upto = i < t->n_sp ? t->sp[i].start : total;
    for (size_t x = r; x < upto;) {
      if (at_start && k < nl) om[k++] = (uint32_t)t_orig(t, tl);
      size_t q = t_find_lf(t, x, upto);
      if (q == SIZE_MAX) { at_start = false; break; }
      tl++;
      x = q + 1;
      at_start = true;
    }
    if (i == t->n_sp) break;
    const ud_splice *sp = &t->sp[i];
    int64_t base = t_orig(t, tl);
    tl += t_count_lf(t, sp->start, sp->end);
    for (size_t x = 0, j = 0; x < sp->text.len; j++) {
      if (at_start && k < nl) om[k++] = (uint32_t)(base + (int64_t)j);
      const char *q = memchr(sp->text.ptr + x, '\n', sp->text.len - x);
      if (!q) { at_start = false; break; }
      x = (size_t)(q - sp->text.ptr) + 1;
      at_start = true;
    }
    r = sp->end;
  }
  while (k < nl) { om[k] = k ? om[k - 1] + 1 : 1; k++; }
  if (t->owned) ec_arena_release(ctx->arena, (void *)t->p);
  if (t->orig) ec_arena_release(ctx->arena, t->orig);
  drop_index(ctx, t);
  t->p = o;
  t->len = out_len;
  t->virt = false;
  t->is_doc = false;
  t->owned = true;
  t->n_lines = (uint32_t)nl;
  t->orig = om;
  t->n_sp = 0;
  return EC_OK;
}

/* Records a replacement of T's [start, end) (starting at line line0) by text, in order. */
static ec_error_code add_splice(ec_ctx *ctx, ud_text *t, size_t start, size_t end, uint32_t line0, ec_str text) {
  bool whole_end = end == t_size(t) || (end > start && (end > t->len || t->p[end - 1] == '\n'));
  bool whole_text = !text.len || text.ptr[text.len - 1] == '\n';
  uint32_t n_old = (uint32_t)t_count_lf(t, start, end);
  ud_splice s = {start, end, line0, line0 + n_old + (whole_end ? 0 : 1), text};
  if (!whole_end || !whole_text) t->dirty = true;
  if (!EC_ARENA_RESERVE(ctx->arena, t->sp, t->n_sp, t->cap_sp, 16)) return EC_OUT_OF_MEMORY;
  size_t at = t->n_sp;
  while (at && t->sp[at - 1].start > start) at--;
  memmove(t->sp + at + 1, t->sp + at, (t->n_sp - at) * sizeof *t->sp);
  t->sp[at] = s;
  t->n_sp++;
  return t->indexed ? note_written(ctx, t, start, text) : EC_OK;
}

static ec_error_code over_budget(ud_run *r, ec_ws_file *f, const ec_ud_file *uf, const ec_ud_hunk *h, const ud_text *t) {
  ec_error_code rc = ec_fail(r->ctx, EC_TOO_LARGE, "applying %zu hunks to '%.*s' (%zu bytes) would scan more than %llu bytes; split "
                             "the diff into smaller requests", uf->n_hunks, (int)f->path.len, f->path.ptr, t_size(t),
                             (unsigned long long)WORK_BUDGET);
  set_where(r->ctx, f->path, r->hunk_no, h->line);
  return rc;
}

/*
 * The exact places of a hunk's old lines, through the index. *decided = false when the index
 * cannot tell (the general path then searches the whole current text); otherwise `found` holds
 * the places (non-overlapping, left to right, as the exact strategy gives them), at least one.
 */
static ec_error_code find_indexed(ud_run *r, ud_text *t, const ec_ud_hunk *h, ec_str old_text, ec_str new_text,
                                  ec_found_list *found, bool *decided) {
  *decided = false;
  if (t->dirty || !r->n_ladder || r->ladder[0] != EC_STRATEGY_EXACT || !old_text.len) return EC_OK;
  if (!t->indexed) {
    r->work += t_size(t);
    if (r->work > WORK_BUDGET) return EC_OK; /* the general path reports it */
    ec_error_code rc = build_index(r->ctx, t);
    if (rc) return rc;
  }
  /* The rarest of the hunk's old lines anchors the candidates. */
  size_t m = (size_t)h->n_context + h->n_remove, anchor = 0;
  size_t *off = ec_arena_alloc(r->ctx->arena, (m + 1) * sizeof *off); /* where each old line starts in old_text */
  if (!off) return EC_OUT_OF_MEMORY;
  uint32_t best = NO_SLOT, best_n = UINT32_MAX;
  bool written = false; /* the rarest line is also one a replacement wrote */
  for (size_t i = 0, j = 0, o = 0; i < h->n_lines; i++) {
    if (h->lines[i].kind == '+') continue;
    off[j] = o;
    o += h->lines[i].text.len + 1;
    uint32_t s = slot_of(t, ec_hash_bytes(h->lines[i].text.ptr, h->lines[i].text.len));
    uint32_t c = s == NO_SLOT ? 0 : t->first[s + 1] - t->first[s];
    bool w = c && t->written[s];
    /* A line no replacement wrote is found only among T's own lines: prefer those. */
    if (best == NO_SLOT || (written && !w) || (written == w && c < best_n)) { best_n = c; best = s; anchor = j; written = w; }
    j++;
  }
  off[m] = old_text.len;
  r->work += old_text.len;
  if (!best_n) return EC_OK;
  size_t budget = t_size(t), spent = 0;
  uint32_t last_end = 0;
  ec_match_env env; /* ec_found_push only takes the arena from it */
  ec_match_env_init(&env, r->ctx->arena, t->p, t->len, &r->ctx->opt, r->ctx->req->profile);
  for (uint32_t k = t->first[best]; k < t->first[best + 1]; k++) {
    uint32_t p = t->post[k];
    if (p < anchor) continue;
    uint32_t a = p - (uint32_t)anchor, b = a + (uint32_t)m;
    if (b > t->n_lines) break;
    size_t j = splice_after(t, a);
    if (j < t->n_sp && t->sp[j].line0 < b) {
      size_t jj = splice_after(t, p);
      if (jj < t->n_sp && t->sp[jj].line0 <= p) continue; /* a replaced line: not in the current text */
      /* The place runs into a replacement. The lines around p up to the replacements either side
       * are next to it in the current text too: when they differ, this is no place. */
      uint32_t lo = jj ? t->sp[jj - 1].line1 : 0, hi = jj < t->n_sp ? t->sp[jj].line0 : t->n_lines;
      uint32_t x = a > lo ? a : lo, y = b < hi ? b : hi;
      spent += old_text.len;
      if (!t_equals(t, t->start[x], t->start[y], (ec_str){old_text.ptr + off[x - a], off[y - a] - off[x - a]})) continue;
      if (y < b && !walk_forward(t, 2 * jj + 1, 0, (ec_str){old_text.ptr + off[y - a], old_text.len - off[y - a]})) continue;
      if (x > a && !walk_backward(t, 2 * jj - 1, t->sp[jj - 1].text.len, (ec_str){old_text.ptr, off[x - a]})) continue;
      found->n = found->total = 0;
      return EC_OK; /* only the whole current text can tell */
    }
    if (a < last_end) continue;
    spent += old_text.len;
    if (spent > budget) { found->n = found->total = 0; return EC_OK; }
    if (!t_equals(t, t->start[a], t->start[b], old_text)) continue;
    ec_found fd = {t->start[a], t->start[b], a + 1, a + (uint32_t)m, EC_STRATEGY_EXACT, 1.0, new_text};
    if (ec_found_push(&env, found, &fd)) return EC_OUT_OF_MEMORY;
    last_end = b;
  }
  /* The anchor line is also one a replacement wrote: a place through it would run into that replacement. */
  for (uint32_t w = written ? t->written[best] : 0; w; w = t->wl[w - 1].next) {
    const struct ud_wline *wl = &t->wl[w - 1];
    size_t q = 2 * splice_at(t, wl->at) + 1;
    spent += old_text.len;
    if (spent > budget) { found->n = found->total = 0; return EC_OK; }
    if (walk_forward(t, q, wl->off, (ec_str){old_text.ptr + off[anchor], old_text.len - off[anchor]}) &&
        walk_backward(t, q, wl->off, (ec_str){old_text.ptr, off[anchor]})) {
      found->n = found->total = 0;
      return EC_OK; /* only the whole current text can tell */
    }
  }
  r->work += spent;
  *decided = found->total > 0;
  return EC_OK;
}

/* Keeps the matches that start at a line start (exact matching is byte-wise). */
static size_t keep_aligned(const char *p, ec_found_list *l) {
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++) {
    size_t s = l->items[i].start;
    if (s == 0 || p[s - 1] == '\n') l->items[k++] = l->items[i];
  }
  l->n = k;
  l->total = k;
  return k;
}

/* The shared diagnosis speaks of old_string; in a diff it is the hunk. */
static void reword(ec_ctx *ctx) {
  ec_error *e = ec_last_error(ctx);
  if (!e || !e->message.ptr) return;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  ec_str m = e->message;
  static const char W[] = "old_string";
  for (size_t i = 0; i < m.len;) {
    if (m.len - i >= sizeof W - 1 && !memcmp(m.ptr + i, W, sizeof W - 1)) { ec_buf_append_cstr(&b, "the hunk"); i += sizeof W - 1; }
    else ec_buf_append_char(&b, m.ptr[i++]);
  }
  ec_str out = ec_buf_finish(&b, ctx->arena);
  if (out.ptr) e->message = out;
}

static ec_error_code ambiguous(ud_run *r, ec_ws_file *f, const ec_ud_hunk *h, const ec_found_list *l, ec_strategy used,
                               const ud_text *t) {
  ec_ctx *ctx = r->ctx;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  size_t shown = l->n < 20 ? l->n : 20;
  for (size_t i = 0; i < shown; i++) {
    int64_t s = t_orig(t, l->items[i].start_line - 1);
    int64_t e = s + (int64_t)(l->items[i].end_line - l->items[i].start_line);
    if (i) ec_buf_append_cstr(&b, ", ");
    if (s == e) ec_buf_printf(&b, "%lld", (long long)s);
    else ec_buf_printf(&b, "%lld-%lld", (long long)s, (long long)e);
  }
  if (l->n > shown) ec_buf_printf(&b, " and %zu more", l->n - shown);
  ec_str places = ec_buf_finish(&b, ctx->arena);
  ec_str stated = h->has_numbers ? ec_arena_printf(ctx->arena, " The header says line %u, which is none of them.", h->old_start)
                                 : ec_cstr("");
  ec_fail(ctx, EC_AMBIGUOUS,
          "hunk %u (line %u of the diff) fits %zu places in '%.*s' (%s%s, lines %.*s); nothing was changed.%.*s Add unchanged "
          "lines around the change so the hunk fits one place only, or give its exact line numbers in the @@ header.",
          r->hunk_no, h->line, l->n, (int)f->path.len, f->path.ptr, used == EC_STRATEGY_EXACT ? "exactly" : "with strategy ",
          used == EC_STRATEGY_EXACT ? "" : ec_strategy_name(used), (int)places.len, places.ptr ? places.ptr : "",
          (int)stated.len, stated.ptr ? stated.ptr : "");
  set_where(ctx, f->path, r->hunk_no, h->line);
  return EC_AMBIGUOUS;
}

/* Drops the whole lines a replacement keeps at its start and end (they keep their own line endings). */
static void trim_kept_lines(const ec_doc *doc, ec_splice *s) {
  for (;;) {
    const char *a = memchr(doc->text + s->start, '\n', s->end - s->start);
    if (!a) break;
    size_t n = (size_t)(a - (doc->text + s->start)) + 1;
    if (n > s->text.len || memcmp(doc->text + s->start, s->text.ptr, n)) break;
    s->start += n;
    s->text.ptr += n;
    s->text.len -= n;
  }
  while (s->end > s->start && s->text.len) {
    size_t ls = s->end - 1;
    while (ls > s->start && doc->text[ls - 1] != '\n') ls--;
    size_t n = s->end - ls;
    if (n > s->text.len || memcmp(doc->text + ls, s->text.ptr + s->text.len - n, n)) break;
    if (s->text.len > n && s->text.ptr[s->text.len - n - 1] != '\n') break;
    s->end = ls;
    s->text.len -= n;
  }
}

/* Applies the hunks of uf to f, in order. */
static ec_error_code apply_hunks(ud_run *r, ec_ws_file *f, const ec_ud_file *uf) {
  ec_ctx *ctx = r->ctx;
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) { set_where(ctx, f->path, 0, 0); return rc; }
  bool final_eol = doc->len == 0 || doc->text[doc->len - 1] == '\n';
  const bool final_eol0 = final_eol;
  ud_text t;
  memset(&t, 0, sizeof t);
  t.p = doc->text;
  t.len = doc->len;
  t.virt = !final_eol;
  t.is_doc = true;
  size_t n_lf = count_lf(doc->text, doc->len);
  if (n_lf + 1 >= UINT32_MAX) return ec_fail(ctx, EC_TOO_LARGE, "'%.*s' has too many lines", (int)f->path.len, f->path.ptr);
  t.n_lines = (uint32_t)(n_lf + (t.virt ? 1 : 0));
  size_t before_effective = r->effective;

  for (size_t k = 0; k < uf->n_hunks; k++) {
    const ec_ud_hunk *h = &uf->hunks[k];
    r->hunk_no++;
    ec_str old_text = side_text(ctx, h, '+'), new_text = side_text(ctx, h, '-');
    if (!old_text.ptr || !new_text.ptr) return oom(ctx);

    ec_found_list found = {0};
    found.limit = ctx->opt.limits.max_lines;
    ec_strategy used = EC_STRATEGY_EXACT;
    bool decided;
    if ((rc = find_indexed(r, &t, h, old_text, new_text, &found, &decided))) return rc == EC_OUT_OF_MEMORY ? oom(ctx) : over_budget(r, f, uf, h, &t);
    if (r->work > WORK_BUDGET) return over_budget(r, f, uf, h, &t);
    size_t n_ok = found.n;

    if (!decided) {
      /* The general path: the whole current text, the whole ladder. */
      if ((rc = ud_flush(ctx, &t))) return rc == EC_OUT_OF_MEMORY ? oom(ctx) : over_budget(r, f, uf, h, &t);
      r->work += t.len + 1;
      if (r->work > WORK_BUDGET) return over_budget(r, f, uf, h, &t);
      if (!old_text.len) {
        /* Only added lines and no unchanged line: placeable only in an empty file. */
        if (t.len) {
          rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                       "hunk %u (line %u of the diff) only adds lines and has no unchanged line to show where they go in '%.*s'; "
                       "nothing was changed. Include 2-3 unchanged lines (prefixed with a space) above or below the added lines.",
                       r->hunk_no, h->line, (int)f->path.len, f->path.ptr);
          set_where(ctx, f->path, r->hunk_no, h->line);
          return rc;
        }
        if (h->new_no_eol || h->old_no_eol) final_eol = !h->new_no_eol;
        if (ec_ws_add_match(ctx, f, 1, h->n_add ? h->n_add : 1, EC_STRATEGY_EXACT, 1.0)) return EC_OUT_OF_MEMORY;
        drop_index(ctx, &t);
        t.p = new_text.ptr;
        t.len = new_text.len;
        t.virt = t.is_doc = t.owned = false;
        t.n_lines = (uint32_t)count_lf(new_text.ptr, new_text.len);
        t.orig = NULL;
        r->effective++;
        f->replacements++;
        continue;
      }
      ec_match_env env;
      ec_match_env_init(&env, ctx->arena, t.p, t.len, &ctx->opt, ctx->req->profile);
      found.n = found.total = 0;
      rc = ec_ladder_find(&env, r->ladder, r->n_ladder, old_text, new_text, &found, &used);
      if (rc == EC_OUT_OF_MEMORY) return oom(ctx);
      if (rc) {
        rc = ec_fail(ctx, rc, "%.*s", (int)env.message.len, env.message.ptr ? env.message.ptr : "matching stopped");
        set_where(ctx, f->path, r->hunk_no, h->line);
        return rc;
      }
      if (found.total > found.n) {
        rc = ec_fail(ctx, EC_TOO_LARGE, "hunk %u fits more than %zu places; the limit is options.limits.max_lines", r->hunk_no, found.n);
        set_where(ctx, f->path, r->hunk_no, h->line);
        return rc;
      }
      n_ok = keep_aligned(t.p, &found);
      if (!n_ok) {
        /* Already applied? The new lines are there, once, and they say something the old did not. */
        if (new_text.len && (h->n_add || h->n_context >= 2)) {
          ec_found_list again = {0};
          if (ec_strategy_exact(&env, new_text, old_text, &again)) return oom(ctx);
          if (keep_aligned(t.p, &again) == 1) {
            r->noop++;
            continue;
          }
        }
        ec_str what = ec_arena_printf(ctx->arena, "hunk %u (line %u of the diff: its unchanged and removed lines)", r->hunk_no, h->line);
        rc = ec_report_no_match(ctx, &env, f, what.ptr ? what.ptr : "a hunk", old_text);
        set_where(ctx, f->path, r->hunk_no, h->line);
        reword(ctx);
        return rc;
      }
    } else if (found.total > found.n) {
      rc = ec_fail(ctx, EC_TOO_LARGE, "hunk %u fits more than %zu places; the limit is options.limits.max_lines", r->hunk_no, found.n);
      set_where(ctx, f->path, r->hunk_no, h->line);
      return rc;
    }

    size_t pick = 0;
    if (n_ok > 1) {
      size_t hits = 0;
      if (h->has_numbers && h->old_start > 0)
        for (size_t i = 0; i < n_ok; i++)
          if (t_orig(&t, found.items[i].start_line - 1) == (int64_t)h->old_start) { pick = i; hits++; }
      if (hits != 1) return ambiguous(r, f, h, &found, used, &t);
    }
    ec_found m = found.items[pick];
    ec_str matched = decided ? old_text : (ec_str){t.p + m.start, m.end - m.start};
    ec_str repl = m.replacement;
    if (m.strategy != EC_STRATEGY_EXACT) repl = keep_file_context(ctx, h, matched, repl);
    if ((h->old_no_eol || h->new_no_eol) && m.end == t_size(&t)) final_eol = !h->new_no_eol;

    uint32_t m_old = (uint32_t)count_lf(matched.ptr, matched.len);
    int64_t orig = t_orig(&t, m.start_line - 1);
    if (ec_ws_add_match(ctx, f, (uint32_t)(orig > 0 ? orig : 1), (uint32_t)(orig > 0 ? orig : 1) + (m_old ? m_old - 1 : 0),
                        m.strategy, m.confidence))
      return EC_OUT_OF_MEMORY;
    if (!ec_str_eq(matched, repl)) r->effective++;
    f->replacements++;
    if (add_splice(ctx, &t, m.start, m.end, m.start_line - 1, repl)) return oom(ctx);
  }

  bool direct = t.is_doc && final_eol == final_eol0 && (!t.n_sp || t.sp[t.n_sp - 1].end <= doc->len);
  if (direct) {
    /* Every hunk in the file's own text: one batch of splices, the unchanged lines untouched. */
    ec_splice *sp = ec_arena_alloc(ctx->arena, (t.n_sp + 1) * sizeof *sp);
    if (!sp) return oom(ctx);
    size_t n = 0;
    for (size_t i = 0; i < t.n_sp; i++) {
      ec_splice s = {t.sp[i].start, t.sp[i].end, t.sp[i].text};
      if (ec_str_eq((ec_str){doc->text + s.start, s.end - s.start}, s.text)) continue;
      if (!t.dirty) trim_kept_lines(doc, &s);
      sp[n++] = s;
    }
    if (!n) return EC_OK;
    ec_doc next;
    if (ec_doc_splice(ctx->arena, doc, sp, n, &next)) return oom(ctx);
    ec_ws_set(ctx, f, &next);
    if (r->effective == before_effective) r->effective++;
    drop_index(ctx, &t);
    return EC_OK;
  }

  if ((rc = ud_flush(ctx, &t))) return rc == EC_OUT_OF_MEMORY ? oom(ctx) : rc;
  drop_index(ctx, &t);
  ec_str w = {t.p, t.len};
  if (!final_eol && w.len && w.ptr[w.len - 1] == '\n') w.len--;
  if (w.len == doc->len && !memcmp(w.ptr, doc->text, w.len)) return EC_OK;
  /* Splice only the changed lines, so untouched lines keep their endings. */
  ec_doc next;
  if (ec_doc_replace_lines(ctx->arena, doc, 0, doc->len, w, &next)) return oom(ctx);
  ec_ws_set(ctx, f, &next);
  if (r->effective == before_effective) r->effective++; /* only the final newline changed */
  return EC_OK;
}

/* ---------- file operations ---------- */

static bool only_adds(const ec_ud_file *uf) {
  for (size_t k = 0; k < uf->n_hunks; k++)
    if (uf->hunks[k].n_context || uf->hunks[k].n_remove) return false;
  return true;
}

static ec_error_code create_file(ud_run *r, const ec_ud_file *uf, ec_str name) {
  ec_ctx *ctx = r->ctx;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(ctx->arena));
  bool no_eol = false;
  for (size_t k = 0; k < uf->n_hunks; k++) {
    const ec_ud_hunk *h = &uf->hunks[k];
    for (size_t i = 0; i < h->n_lines; i++) {
      ec_buf_append_str(&b, h->lines[i].text);
      ec_buf_append_char(&b, '\n');
    }
    no_eol = h->new_no_eol;
  }
  r->hunk_no += (uint32_t)uf->n_hunks;
  ec_str text = ec_buf_finish(&b, ctx->arena);
  if (!text.ptr) {
    if (b.oom) return oom(ctx);
    text = ec_cstr("");
  }
  if (no_eol && text.len) text.len--;
  ec_ws_file *f = ec_ws_get(ctx, name);
  if (!f) return oom(ctx);
  ec_error_code rc = ec_ws_set_bytes(ctx, f, text);
  if (rc) return rc;
  f->replacements = 1;
  r->effective++;
  return EC_OK;
}

static ec_error_code delete_file(ud_run *r, const ec_ud_file *uf, ec_ws_file *f) {
  ec_ctx *ctx = r->ctx;
  for (size_t k = 0; k < uf->n_hunks; k++) {
    if (uf->hunks[k].n_add) {
      ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                                 "hunk %u (line %u of the diff) adds lines to '%.*s', but the header '+++ /dev/null' deletes the file. "
                                 "To change the file, name it in the +++ line; to delete it, list its lines with '-' only.",
                                 r->hunk_no + (uint32_t)k + 1, uf->hunks[k].line, (int)f->path.len, f->path.ptr);
      set_where(ctx, f->path, r->hunk_no + (uint32_t)k + 1, uf->hunks[k].line);
      return rc;
    }
  }
  ec_doc *doc;
  ec_error_code rc = ec_ws_doc(ctx, f, &doc);
  if (rc) { set_where(ctx, f->path, 0, 0); return rc; }
  if (uf->n_hunks) {
    /* The removed lines must be the whole file. */
    size_t li = 0, di = 0; /* line number, byte offset in doc */
    for (size_t k = 0; k < uf->n_hunks; k++) {
      const ec_ud_hunk *h = &uf->hunks[k];
      for (size_t i = 0; i < h->n_lines; i++) {
        ec_str dl = {doc->text + di, 0};
        const char *lf = di < doc->len ? memchr(doc->text + di, '\n', doc->len - di) : NULL;
        dl.len = lf ? (size_t)(lf - dl.ptr) : doc->len - di;
        li++;
        if (di >= doc->len || !ec_str_eq(dl, h->lines[i].text)) {
          ec_str want = h->lines[i].text;
          if (want.len > 80) want.len = 80;
          if (dl.len > 80) dl.len = 80;
          if (di >= doc->len)
            rc = ec_fail(ctx, EC_NO_MATCH, "the diff deletes '%.*s', but hunk %zu removes more lines than the file has (%zu); "
                         "nothing was changed. Read the file again and list exactly its lines.",
                         (int)f->path.len, f->path.ptr, r->hunk_no + k + 1, li - 1);
          else
            rc = ec_fail(ctx, EC_NO_MATCH, "the diff deletes '%.*s', but its removed lines differ from the file at line %zu "
                         "(the file has '%.*s', the diff '%.*s'); nothing was changed. Read the file again and list exactly its lines.",
                         (int)f->path.len, f->path.ptr, li, (int)dl.len, dl.ptr, (int)want.len, want.ptr);
          set_where(ctx, f->path, r->hunk_no + (uint32_t)k + 1, h->line);
          return rc;
        }
        di += dl.len + (lf ? 1 : 0);
      }
    }
    if (di < doc->len) {
      rc = ec_fail(ctx, EC_NO_MATCH, "the diff deletes '%.*s', but removes only its first %zu lines; the file goes on after "
                   "them. Nothing was changed. To delete the file, list every line with '-'.",
                   (int)f->path.len, f->path.ptr, li);
      set_where(ctx, f->path, r->hunk_no + (uint32_t)uf->n_hunks, uf->hunks[uf->n_hunks - 1].line);
      return rc;
    }
  }
  r->hunk_no += (uint32_t)uf->n_hunks;
  ec_ws_delete(ctx, f);
  f->replacements = 1;
  r->effective++;
  return EC_OK;
}

static ec_error_code not_found(ud_run *r, const ec_ud_file *uf, ec_str name) {
  ec_ctx *ctx = r->ctx;
  ec_error_code rc = ec_fail(ctx, EC_NOT_FOUND,
                             "the diff edits '%.*s' (header at line %u), which is not among the files given; nothing was changed. "
                             "Check the path in the ---/+++ lines, or use '--- /dev/null' to create a new file.",
                             (int)name.len, name.ptr, uf->line);
  set_where(ctx, name, r->hunk_no + 1, uf->line);
  return rc;
}

static ec_error_code one_file(ud_run *r, const ec_ud_file *uf) {
  ec_ctx *ctx = r->ctx;
  if (!uf->has_header) {
    if (ctx->req->n_files != 1) {
      ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                                 "the hunk at line %u of the diff has no '--- a/path' / '+++ b/path' header, and files holds %zu "
                                 "entries, so it is not clear which file it edits. Put the header before the hunks.",
                                 uf->line, ctx->req->n_files);
      set_where(ctx, (ec_str){0, 0}, r->hunk_no + 1, uf->line);
      return rc;
    }
    return apply_hunks(r, &ctx->files[0], uf);
  }

  /* Rename (git). */
  if (uf->rename_to.len && !uf->new_null) {
    ec_str from = uf->rename_from.len ? uf->rename_from : uf->old_path;
    ec_ws_file *f = find_named(ctx, from);
    if (!f && !uf->rename_from.len) f = find_named(ctx, strip_dot(from));
    if (!f) return not_found(r, uf, from);
    ec_str to = strip_dot(uf->rename_to);
    if (existing(ctx, to)) {
      ec_error_code rc = ec_fail(ctx, EC_FILE_EXISTS, "the diff renames '%.*s' to '%.*s', which already exists; nothing was changed.",
                                 (int)f->path.len, f->path.ptr, (int)to.len, to.ptr);
      set_where(ctx, to, 0, uf->line);
      return rc;
    }
    ec_error_code rc = apply_hunks(r, f, uf);
    if (rc) return rc;
    ec_doc *doc;
    if ((rc = ec_ws_doc(ctx, f, &doc))) return rc;
    ec_doc copy = *doc;
    ec_ws_set(ctx, f, &copy);
    f->moved_to = to;
    r->effective++;
    return EC_OK;
  }

  if (uf->new_null) {
    ec_str name = uf->old_path.len ? uf->old_path : uf->new_path;
    ec_ws_file *f = find_named(ctx, name);
    if (!f) {
      ec_error_code rc = ec_fail(ctx, EC_NOT_FOUND, "the diff deletes '%.*s' (header at line %u), which is not among the files given "
                                 "(already deleted?); nothing was changed.", (int)name.len, name.ptr, uf->line);
      set_where(ctx, name, 0, uf->line);
      return rc;
    }
    return delete_file(r, uf, f);
  }

  ec_ws_file *f = NULL;
  if (!uf->old_null) f = find_named(ctx, uf->old_path);
  if (!f) f = find_named(ctx, uf->new_path);
  if (!f && uf->old_null) {
    ec_str name = new_name(uf, uf->new_path);
    if (!name.len) return not_found(r, uf, uf->new_path);
    if (!only_adds(uf)) {
      ec_error_code rc = ec_fail(ctx, EC_MALFORMED_EDIT,
                                 "the diff creates '%.*s' ('--- /dev/null' at line %u) but its hunks have unchanged or removed "
                                 "lines; a new file's hunk has only '+' lines. Nothing was changed.",
                                 (int)name.len, name.ptr, uf->line);
      set_where(ctx, name, r->hunk_no + 1, uf->line);
      return rc;
    }
    return create_file(r, uf, name);
  }
  if (!f) {
    /* A file that is not there, and hunks that only add: the model means a new file. */
    if (uf->n_hunks && only_adds(uf)) {
      ec_str name = new_name(uf, uf->new_path.len ? uf->new_path : uf->old_path);
      if (name.len) return create_file(r, uf, name);
    }
    return not_found(r, uf, uf->old_path.len ? uf->old_path : uf->new_path);
  }
  if (uf->old_null && only_adds(uf)) {
    /* "--- /dev/null" for a file that exists: fine when it is empty or already has that content. */
    ec_doc *doc;
    ec_error_code rc = ec_ws_doc(ctx, f, &doc);
    if (rc) return rc;
    if (doc->len) {
      ec_buf b;
      ec_buf_init(&b, ec_arena_allocator(ctx->arena));
      for (size_t k = 0; k < uf->n_hunks; k++)
        for (size_t i = 0; i < uf->hunks[k].n_lines; i++) {
          ec_buf_append_str(&b, uf->hunks[k].lines[i].text);
          ec_buf_append_char(&b, '\n');
        }
      ec_str want = ec_buf_finish(&b, ctx->arena);
      ec_str have = {doc->text, doc->len};
      bool same = want.ptr && (ec_str_eq(want, have) || (want.len == have.len + 1 && !memcmp(want.ptr, have.ptr, have.len)));
      if (same) {
        r->hunk_no += (uint32_t)uf->n_hunks;
        r->noop += uf->n_hunks;
        return EC_OK;
      }
      rc = ec_fail(ctx, EC_FILE_EXISTS, "the diff creates '%.*s' ('--- /dev/null' at line %u), but it already exists; nothing was "
                   "changed. To change it, send hunks with its current lines as context under '--- a/%.*s'.",
                   (int)f->path.len, f->path.ptr, uf->line, (int)f->path.len, f->path.ptr);
      set_where(ctx, f->path, r->hunk_no + 1, uf->line);
      return rc;
    }
  }
  return apply_hunks(r, f, uf);
}

ec_error_code ec_format_unified_diff(ec_ctx *ctx) {
  if (ctx->req->profile == EC_PROFILE_AIDER) return ec_aider_udiff(ctx);
  const ec_edit *e = &ctx->req->edit;
  if (!e->text.len) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text (the unified diff) is required for format 'unified_diff'");
  if (ec_str_has_nul(e->text)) return ec_fail(ctx, EC_INVALID_PARAM, "edit.text may not hold NUL bytes");
  ec_str text = ec_text_normalize_eol(ctx->arena, e->text);
  if (!text.ptr) return oom(ctx);
  ec_ud_patch patch;
  ec_ud_error perr;
  ec_error_code rc = ec_udiff_parse(ctx->arena, text, ctx->opt.limits.max_blocks, &patch, &perr);
  if (rc == EC_OUT_OF_MEMORY) return oom(ctx);
  if (rc) {
    rc = ec_fail(ctx, rc, "%.*s", (int)perr.message.len, perr.message.ptr);
    set_where(ctx, (ec_str){0, 0}, 0, perr.line);
    return rc;
  }
  ud_run r;
  memset(&r, 0, sizeof r);
  r.ctx = ctx;
  r.ladder = ctx->opt.strategies;
  r.n_ladder = ctx->opt.n_strategies;
  if (!r.ladder) { r.n_ladder = ec_profile_strategies(ctx->req->profile, r.order); r.ladder = r.order; }
  for (size_t i = 0; i < patch.n_files; i++) {
    rc = one_file(&r, &patch.files[i]);
    if (rc) return rc;
  }
  if (!r.effective) {
    if (r.noop)
      return ec_fail(ctx, EC_NOOP, "the diff looks already applied: the removed lines of its %zu hunk%s are absent and the "
                     "added lines present. Nothing was changed.", r.noop, r.noop == 1 ? "" : "s");
    return ec_fail(ctx, EC_NOOP, "the diff changes nothing: its removed and added lines are the same.");
  }
  return EC_OK;
}
