/*
 * Strategy `unicode`: typographic punctuation folded to ASCII on both sides — curly quotes to
 * ' and ", dashes and the minus sign to -, the ellipsis to ..., non-breaking and other Unicode
 * spaces to a space, zero-width spaces to nothing. Matching runs on the folded texts; a sparse
 * list of fold events maps folded offsets back to the document's bytes. The replacement keeps
 * new_string's characters, except that a typographic character the matched region never had is
 * written in ASCII (the model's curly quote does not leak into a file of straight quotes).
 */
#define _GNU_SOURCE 1
#include "ladder.h"
#include "../base/buf.h"
#include "../base/kernels.h"
#include <string.h>

/* Length of the foldable sequence at p (0 if none) and its ASCII replacement. */
static size_t fold_at(const unsigned char *p, size_t left, const char **rep) {
  if (left >= 2 && p[0] == 0xC2 && p[1] == 0xA0) { *rep = " "; return 2; }
  if (left >= 3 && p[0] == 0xE2 && p[1] == 0x80) {
    unsigned char c = p[2];
    if (c >= 0x80 && c <= 0x8A) { *rep = " "; return 3; }      /* en quad .. hair space */
    if (c == 0x8B) { *rep = ""; return 3; }                    /* zero-width space */
    if (c >= 0x90 && c <= 0x95) { *rep = "-"; return 3; }      /* hyphens and dashes */
    if (c >= 0x98 && c <= 0x9B) { *rep = "'"; return 3; }      /* single quotes */
    if (c >= 0x9C && c <= 0x9F) { *rep = "\""; return 3; }     /* double quotes */
    if (c == 0xA6) { *rep = "..."; return 3; }                 /* ellipsis */
    if (c == 0xAF) { *rep = " "; return 3; }                   /* narrow no-break space */
    if (c == 0xB2) { *rep = "'"; return 3; }                   /* prime */
    if (c == 0xB3) { *rep = "\""; return 3; }                  /* double prime */
  }
  if (left >= 3 && p[0] == 0xE2 && p[1] == 0x81 && p[2] == 0x9F) { *rep = " "; return 3; }
  if (left >= 3 && p[0] == 0xE2 && p[1] == 0x88 && p[2] == 0x92) { *rep = "-"; return 3; }
  if (left >= 3 && p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) { *rep = " "; return 3; }
  return 0;
}

typedef struct fold_ev { size_t fpos, flen, opos, olen; } fold_ev;

typedef struct folded {
  ec_str text;
  fold_ev *ev;
  size_t n_ev;
} folded;

/* Whether any byte is >= 0x80 (every foldable sequence starts with one); 8 bytes a step. */
static bool has_non_ascii(const char *p, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    if (w & 0x8080808080808080ULL) return true;
  }
  for (; i < n; i++)
    if ((unsigned char)p[i] >= 0x80) return true;
  return false;
}

static ec_error_code fold(ec_arena *a, ec_str s, bool events, folded *out) {
  memset(out, 0, sizeof *out);
  /* An ASCII text (most files) folds to itself: one cheap pass, no per-byte decoding. */
  if (!has_non_ascii(s.ptr, s.len)) { out->text = s; return EC_OK; }
  size_t n_fold = 0;
  for (size_t i = 0; i < s.len; i++) {
    const char *rep;
    if ((unsigned char)s.ptr[i] < 0xC2) continue;
    size_t l = fold_at((const unsigned char *)s.ptr + i, s.len - i, &rep);
    if (l) { n_fold++; i += l - 1; }
  }
  if (!n_fold) { out->text = s; return EC_OK; }
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  ec_buf_reserve(&b, s.len);
  if (events) {
    out->ev = ec_arena_alloc(a, n_fold * sizeof *out->ev);
    if (!out->ev) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
  }
  size_t from = 0;
  for (size_t i = 0; i < s.len; i++) {
    const char *rep;
    if ((unsigned char)s.ptr[i] < 0xC2) continue;
    size_t l = fold_at((const unsigned char *)s.ptr + i, s.len - i, &rep);
    if (!l) continue;
    ec_buf_append(&b, s.ptr + from, i - from);
    if (events) {
      fold_ev *e = &out->ev[out->n_ev++];
      e->fpos = b.len;
      e->flen = strlen(rep);
      e->opos = i;
      e->olen = l;
    }
    ec_buf_append_cstr(&b, rep);
    i += l - 1;
    from = i + 1;
  }
  ec_buf_append(&b, s.ptr + from, s.len - from);
  if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
  out->text = ec_buf_finish(&b, a);
  if (!out->text.ptr) out->text = ec_arena_strdup(a, "", 0);
  return out->text.ptr ? EC_OK : EC_OUT_OF_MEMORY;
}

/* The last fold event at or before folded offset p, or NULL. */
static const fold_ev *event_at(const folded *f, size_t p) {
  size_t lo = 0, hi = f->n_ev; /* first event with fpos > p */
  while (lo < hi) {
    size_t m = (lo + hi) / 2;
    if (f->ev[m].fpos <= p) lo = m + 1; else hi = m;
  }
  return lo ? &f->ev[lo - 1] : NULL;
}

/* Document offset where folded offset p starts (a position inside an expansion takes its start). */
static size_t orig_start(const folded *f, size_t p) {
  const fold_ev *e = event_at(f, p);
  if (!e) return p;
  if (p < e->fpos + e->flen) return e->opos;
  return p - (e->fpos + e->flen) + e->opos + e->olen;
}

/* Document offset just past the folded text ending at fe (an expansion is taken whole). */
static size_t orig_end(const folded *f, size_t fe) {
  if (!fe) return 0;
  size_t q = fe - 1;
  const fold_ev *e = event_at(f, q);
  if (!e) return fe;
  if (q < e->fpos + e->flen) return e->opos + e->olen;
  return q - (e->fpos + e->flen) + e->opos + e->olen + 1;
}

ec_error_code ec_strategy_unicode(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  if (!old_text.len) return EC_OK;
  folded fo, fd;
  ec_str doc = {env->text, env->len};
  if (fold(env->arena, old_text, false, &fo)) return EC_OUT_OF_MEMORY;
  /* Nothing to fold in old_text and an ASCII file: exact already said no. */
  if (fo.text.ptr == old_text.ptr && !has_non_ascii(doc.ptr, doc.len)) return EC_OK;
  if (fold(env->arena, doc, true, &fd)) return EC_OUT_OF_MEMORY;
  if (fo.text.ptr == old_text.ptr && !fd.n_ev) return EC_OK; /* nothing to fold: exact already said no */
  if (!fo.text.len) return EC_OK;
  const char *p = fd.text.ptr, *end = fd.text.ptr + fd.text.len;
  while ((size_t)(end - p) >= fo.text.len) {
    const char *hit = ec_find(p, (size_t)(end - p), fo.text.ptr, fo.text.len);
    if (!hit) break;
    size_t fs = (size_t)(hit - fd.text.ptr), fe = fs + fo.text.len;
    ec_found f;
    memset(&f, 0, sizeof f);
    f.start = orig_start(&fd, fs);
    f.end = orig_end(&fd, fe);
    /* Fold the replacement's typographic characters the matched region does not use. */
    ec_arena *pa = ec_place_arena(env, out);
    ec_buf b;
    ec_buf_init(&b, ec_arena_allocator(pa));
    for (size_t i = 0; i < new_text.len; i++) {
      const char *rep;
      size_t l = (unsigned char)new_text.ptr[i] >= 0xC2
                     ? fold_at((const unsigned char *)new_text.ptr + i, new_text.len - i, &rep) : 0;
      if (l && !memmem(env->text + f.start, f.end - f.start, new_text.ptr + i, l)) {
        ec_buf_append_cstr(&b, rep);
        i += l - 1;
      } else {
        ec_buf_append_char(&b, new_text.ptr[i]);
      }
    }
    if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
    f.replacement = ec_buf_finish(&b, pa);
    if (!f.replacement.ptr) f.replacement = ec_arena_strdup(pa, "", 0);
    f.strategy = EC_STRATEGY_UNICODE;
    f.confidence = 0.9;
    ec_found_set_lines(env, &f);
    ec_error_code rc = ec_found_push(env, out, &f);
    if (rc) return rc;
    p = hit + fo.text.len;
  }
  return EC_OK;
}
