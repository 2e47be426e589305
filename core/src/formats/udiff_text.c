/* The working text of a diff's hunks (udiff_text.h): splices over a base text, and its line index. */
#include "udiff_text.h"
#include "../base/hash.h"
#include "../base/str.h"
#include <string.h>

#define NO_SLOT UINT32_MAX

/* 1-based line in the file as given of line i (0-based) of T. */
int64_t ec_ud_text_orig(const ec_ud_text *t, size_t i) {
  if (!t->orig) return (int64_t)i + 1;
  if (i < t->n_lines) return t->orig[i];
  return t->n_lines ? (int64_t)t->orig[t->n_lines - 1] + (int64_t)(i - t->n_lines) + 1 : (int64_t)i + 1;
}

/* The first LF of T in [x, upto), or SIZE_MAX. */
static size_t t_find_lf(const ec_ud_text *t, size_t x, size_t upto) {
  size_t lim = upto < t->len ? upto : t->len;
  if (x < lim) {
    const char *q = memchr(t->p + x, '\n', lim - x);
    if (q) return (size_t)(q - t->p);
  }
  if (t->virt && x <= t->len && t->len < upto) return t->len;
  return SIZE_MAX;
}

static size_t t_count_lf(const ec_ud_text *t, size_t x, size_t upto) {
  size_t c = 0;
  for (size_t q; x < upto && (q = t_find_lf(t, x, upto)) != SIZE_MAX; x = q + 1) c++;
  return c;
}

static uint32_t line_key(uint64_t h) { return (uint32_t)(h >> 32) | 1u; }

static uint32_t slot_of(const ec_ud_text *t, uint64_t h) {
  uint32_t k = line_key(h);
  for (uint32_t s = (uint32_t)h & t->mask;; s = (s + 1) & t->mask) {
    if (t->key[s] == k) return s;
    if (!t->key[s]) return NO_SLOT;
  }
}

/* Lists the lines of a replacement's text under their keys (only keys T has: the others anchor nothing). */
static ec_error_code note_written(ec_ctx *ctx, ec_ud_text *t, size_t at, ec_str text) {
  for (size_t x = 0; x < text.len;) {
    const char *q = memchr(text.ptr + x, '\n', text.len - x);
    size_t e = q ? (size_t)(q - text.ptr) : text.len;
    uint32_t s = slot_of(t, ec_hash_bytes(text.ptr + x, e - x));
    if (s != NO_SLOT) {
      if (t->n_wl == t->cap_wl) {
        size_t nc = t->cap_wl ? t->cap_wl * 2 : 64;
        struct ec_ud_wline *p = ec_arena_grow(ctx->arena, t->wl, t->cap_wl * sizeof *p, nc * sizeof *p);
        if (!p || nc >= UINT32_MAX) return EC_OUT_OF_MEMORY;
        t->wl = p;
        t->cap_wl = nc;
      }
      t->wl[t->n_wl] = (struct ec_ud_wline){at, (uint32_t)x, t->written[s]};
      t->written[s] = (uint32_t)++t->n_wl;
    }
    x = e + 1;
  }
  return EC_OK;
}

void ec_ud_text_drop_index(ec_ctx *ctx, ec_ud_text *t) {
  void *blocks[] = {t->start, t->key, t->first, t->written, t->post, t->wl};
  for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
    if (blocks[i]) ec_arena_release(ctx->arena, blocks[i]);
  t->start = NULL;
  t->key = t->first = t->written = t->post = NULL;
  t->wl = NULL;
  t->n_wl = t->cap_wl = 0;
  t->indexed = false;
}

static ec_error_code build_index(ec_ctx *ctx, ec_ud_text *t) {
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
    size_t q = t_find_lf(t, x, ec_ud_text_size(t));
    size_t e = q == SIZE_MAX ? t->len : q;
    uint64_t h = ec_hash_bytes(t->p + x, (e < t->len ? e : t->len) - x);
    uint32_t k = line_key(h), s = (uint32_t)h & t->mask;
    while (t->key[s] && t->key[s] != k) s = (s + 1) & t->mask;
    t->key[s] = k;
    t->first[s]++;
    lslot[i] = s;
    t->start[i] = x;
    x = q == SIZE_MAX ? ec_ud_text_size(t) : q + 1;
  }
  t->start[n] = ec_ud_text_size(t);
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
static size_t splice_after(const ec_ud_text *t, uint32_t a) {
  size_t lo = 0, hi = t->n_sp;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->sp[mid].line1 > a) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/* Whether T's bytes [s, s + n) are the n bytes at q. */
static bool t_same(const ec_ud_text *t, size_t s, size_t n, const char *q) {
  size_t real = s < t->len ? (s + n < t->len ? n : t->len - s) : 0;
  if (real && memcmp(t->p + s, q, real)) return false;
  return real == n || (n == real + 1 && q[real] == '\n');
}

/* Whether T's bytes [s, e) are `want`. */
static bool t_equals(const ec_ud_text *t, size_t s, size_t e, ec_str want) {
  return e - s == want.len && t_same(t, s, want.len, want.ptr);
}

/* Piece q of the current text: q = 2i is T between replacements i - 1 and i, q = 2i + 1 replacement i's text. */
static size_t piece(const ec_ud_text *t, size_t q, size_t *s, const char **x) {
  size_t i = q / 2;
  if (q % 2) { *x = t->sp[i].text.ptr; *s = 0; return t->sp[i].text.len; }
  *x = NULL;
  *s = i ? t->sp[i - 1].end : 0;
  return (i < t->n_sp ? t->sp[i].start : ec_ud_text_size(t)) - *s;
}

/* Whether the current text goes on with `want` from byte pos of piece q. */
static bool walk_forward(const ec_ud_text *t, size_t q, size_t pos, ec_str want) {
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
static bool walk_backward(const ec_ud_text *t, size_t q, size_t pos, ec_str want) {
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
static size_t splice_at(const ec_ud_text *t, size_t at) {
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
ec_error_code ec_ud_text_flush(ec_ctx *ctx, ec_ud_text *t) {
  t->dirty = false;
  if (!t->n_sp && !t->virt) return EC_OK;
  size_t total = ec_ud_text_size(t), out_len = total;
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
  size_t nl = ec_count_lf(o, out_len) + (out_len && o[out_len - 1] != '\n' ? 1 : 0);
  if (nl >= UINT32_MAX) return EC_TOO_LARGE;
  uint32_t *om = ec_arena_alloc(ctx->arena, (nl + 1) * sizeof *om);
  if (!om) return EC_OUT_OF_MEMORY;
  size_t k = 0, tl = 0;
  bool at_start = true;
  r = 0;
  for (size_t i = 0; i <= t->n_sp; i++) {
    size_t upto = i < t->n_sp ? t->sp[i].start : total;
    for (size_t x = r; x < upto;) {
      if (at_start && k < nl) om[k++] = (uint32_t)ec_ud_text_orig(t, tl);
      size_t q = t_find_lf(t, x, upto);
      if (q == SIZE_MAX) { at_start = false; break; }
      tl++;
      x = q + 1;
      at_start = true;
    }
    if (i == t->n_sp) break;
    const ec_ud_splice *sp = &t->sp[i];
    int64_t base = ec_ud_text_orig(t, tl);
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
  ec_ud_text_drop_index(ctx, t);
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
ec_error_code ec_ud_text_add_splice(ec_ctx *ctx, ec_ud_text *t, size_t start, size_t end, uint32_t line0, ec_str text) {
  bool whole_end = end == ec_ud_text_size(t) || (end > start && (end > t->len || t->p[end - 1] == '\n'));
  bool whole_text = !text.len || text.ptr[text.len - 1] == '\n';
  uint32_t n_old = (uint32_t)t_count_lf(t, start, end);
  ec_ud_splice s = {start, end, line0, line0 + n_old + (whole_end ? 0 : 1), text};
  if (!whole_end || !whole_text) t->dirty = true;
  if (!EC_ARENA_RESERVE(ctx->arena, t->sp, t->n_sp, t->cap_sp, 16)) return EC_OUT_OF_MEMORY;
  size_t at = t->n_sp;
  while (at && t->sp[at - 1].start > start) at--;
  memmove(t->sp + at + 1, t->sp + at, (t->n_sp - at) * sizeof *t->sp);
  t->sp[at] = s;
  t->n_sp++;
  return t->indexed ? note_written(ctx, t, start, text) : EC_OK;
}

ec_error_code ec_ud_text_find_exact(ec_ctx *ctx, ec_ud_text *t, const ec_ud_hunk *h, ec_str old_text, ec_str new_text,
                                    uint64_t *work, uint64_t budget_all, ec_found_list *found, bool *decided) {
  *decided = false;
  if (t->dirty || !old_text.len) return EC_OK;
  if (!t->indexed) {
    *work += ec_ud_text_size(t);
    if (*work > budget_all) return EC_OK; /* the general path reports it */
    ec_error_code rc = build_index(ctx, t);
    if (rc) return rc;
  }
  /* The rarest of the hunk's old lines anchors the candidates. */
  size_t m = (size_t)h->n_context + h->n_remove, anchor = 0;
  size_t *off = ec_arena_alloc(ctx->arena, (m + 1) * sizeof *off); /* where each old line starts in old_text */
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
  *work += old_text.len;
  if (!best_n) return EC_OK;
  size_t budget = ec_ud_text_size(t), spent = 0;
  uint32_t last_end = 0;
  ec_match_env env; /* ec_found_push only takes the arena from it */
  ec_match_env_init(&env, ctx->arena, t->p, t->len, &ctx->opt, ctx->req->profile);
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
    const struct ec_ud_wline *wl = &t->wl[w - 1];
    size_t q = 2 * splice_at(t, wl->at) + 1;
    spent += old_text.len;
    if (spent > budget) { found->n = found->total = 0; return EC_OK; }
    if (walk_forward(t, q, wl->off, (ec_str){old_text.ptr + off[anchor], old_text.len - off[anchor]}) &&
        walk_backward(t, q, wl->off, (ec_str){old_text.ptr, off[anchor]})) {
      found->n = found->total = 0;
      return EC_OK; /* only the whole current text can tell */
    }
  }
  *work += spent;
  *decided = found->total > 0;
  return EC_OK;
}