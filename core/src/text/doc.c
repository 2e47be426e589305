#include "doc.h"
#include "../base/str.h"
#include "../base/alloc.h"
#include "../base/scan.h"
#include <string.h>

static const char BOM[3] = {'\xEF', '\xBB', '\xBF'};

/* Whether any LF of the doc stands for a CRLF. A doc loaded without CRLF (eol LF or NONE) is not
 * CRLF-dominant, so no splice writes one: its cr[] stays all zero and need not be read. */
static bool has_crlf(const ec_doc *doc) { return doc->eol != EC_EOL_LF && doc->eol != EC_EOL_NONE; }

/* `copy`: the text is a block of its own; else it may be the content itself (ec_doc_view). */
static ec_error_code load(ec_arena *a, ec_str content, ec_doc *out, bool copy) {
  memset(out, 0, sizeof *out);
  const char *p = content.ptr;
  size_t n = content.len;
  if (n >= 3 && memcmp(p, BOM, 3) == 0) { out->bom = true; p += 3; n -= 3; }
  ec_text_scan sc = ec_scan_text(p, n);
  size_t n_lf = sc.n_lf, n_crlf = 0;
  if (sc.nul_or_cr) {
    if (memchr(p, 0, n)) { out->bom = false; return EC_BINARY_FILE; }
    for (const char *q = p, *end = p + n; (q = memchr(q, '\r', (size_t)(end - q))); q++) n_crlf += q + 1 < end && q[1] == '\n';
  }
  size_t w = 0, line = 0;
  if (!n_crlf && !copy) {
    /* Nothing to fold: the text is the content's own bytes (const to every reader of a doc:
     * only doc.c writes a doc's text, and only into blocks it made). */
    out->text = (char *)(uintptr_t)p;
    w = n;
  } else {
    /* Blocks of their own: an edit of 10,000 steps replaces the doc each time (ec_ws_replace_doc). */
    out->text = ec_arena_alloc_own(a, n + 1);
    if (!out->text) return EC_OUT_OF_MEMORY;
    if (!n_crlf) { /* nothing to fold: the text is the content, and no line needs its ending kept */
      if (n) memcpy(out->text, p, n);
      w = n;
    } else {
      out->cr = ec_arena_alloc_own(a, n_lf + 1);
      if (!out->cr) return EC_OUT_OF_MEMORY;
      for (size_t r = 0; r < n;) {
        const char *nl = memchr(p + r, '\n', n - r);
        size_t seg = nl ? (size_t)(nl - (p + r)) : n - r;
        bool crlf = nl && seg > 0 && p[r + seg - 1] == '\r';
        size_t keep = crlf ? seg - 1 : seg;
        memcpy(out->text + w, p + r, keep);
        w += keep;
        r += seg;
        if (nl) { out->text[w++] = '\n'; out->cr[line++] = crlf; r++; }
      }
    }
    out->text[w] = 0;
  }
  out->len = w;
  out->n_lf = n_lf;
  out->crlf_dominant = n_crlf > n_lf - n_crlf;
  out->eol = n_lf == 0 ? EC_EOL_NONE : n_crlf == 0 ? EC_EOL_LF : n_crlf == n_lf ? EC_EOL_CRLF : EC_EOL_MIXED;
  return EC_OK;
}

ec_error_code ec_doc_load(ec_arena *a, ec_str content, ec_doc *out) { return load(a, content, out, true); }

ec_error_code ec_doc_view(ec_arena *a, ec_str content, ec_doc *out) { return load(a, content, out, false); }

/* Section - the change log (what a chain of splices changed, for the diff: ec_ws_commit) */

/* Regions copied along one chain before tracking stops: a reply of thousands of blocks applied
 * one after another would otherwise copy a growing list per block (quadratic); past this the
 * file's diff is found by a whole diff, as for any untracked doc. 2^18 regions is 8 MB. */
#define EC_DOC_LOG_WORK ((size_t)1 << 18)

bool ec_doc_log_start(ec_arena *a, ec_doc *doc) {
  ec_doc_log *l = ec_arena_calloc(a, 1, sizeof *l);
  if (l) l->root = l;
  doc->log = l;
  return l != NULL;
}

/* The log of a doc after `sp` (in the coordinates of the doc `prev` logs into) was applied:
 * the merge of two sorted lists, a splice joining every region it overlaps or touches. Outside
 * the regions, a position x of the newest doc is x - (the growth of the regions before it) in
 * the loaded one; that is how a group's ends map back. NULL: untracked (budget, memory). */
static const ec_doc_log *log_add(ec_arena *a, const ec_doc_log *prev, const ec_splice *sp, size_t n) {
  size_t work = prev->work + prev->n + n;
  if (work > EC_DOC_LOG_WORK) return NULL;
  ec_doc_log *l = ec_arena_alloc(a, sizeof *l);
  ec_doc_region *out = ec_arena_alloc_own(a, (prev->n + n + 1) * sizeof *out); /* released with the doc it logs */
  if (!l || !out) return NULL;
  const ec_doc_region *r = prev->regions;
  size_t i = 0, j = 0, k = 0;
  /* grown: (new - old) of the log's regions passed; shift: (after - before) of the splices passed */
  ptrdiff_t grown = 0, shift = 0;
  while (i < prev->n || j < n) {
    bool take_region = j == n || (i < prev->n && r[i].new_start <= sp[j].start);
    size_t gs = take_region ? r[i].new_start : sp[j].start, ge = gs;
    size_t old_start = take_region ? r[i].old_start : (size_t)((ptrdiff_t)gs - grown);
    ptrdiff_t g_grown = 0, g_shift = 0;
    for (;;) {
      if (i < prev->n && r[i].new_start <= ge) {
        if (r[i].new_end > ge) ge = r[i].new_end;
        g_grown += (ptrdiff_t)(r[i].new_end - r[i].new_start) - (ptrdiff_t)(r[i].old_end - r[i].old_start);
        i++;
      } else if (j < n && sp[j].start <= ge) {
        if (sp[j].end > ge) ge = sp[j].end;
        g_shift += (ptrdiff_t)sp[j].text.len - (ptrdiff_t)(sp[j].end - sp[j].start);
        j++;
      } else {
        break;
      }
    }
    ec_doc_region g;
    g.old_start = old_start;
    g.old_end = (size_t)((ptrdiff_t)ge - grown - g_grown);
    g.new_start = (size_t)((ptrdiff_t)gs + shift);
    g.new_end = (size_t)((ptrdiff_t)ge + shift + g_shift);
    out[k++] = g;
    grown += g_grown;
    shift += g_shift;
  }
  l->root = prev->root;
  l->regions = out;
  l->n = k;
  l->work = work;
  return l;
}

void ec_doc_measure_lines(ec_doc *doc) {
  size_t longest = 0, start = 0;
  for (const char *q = doc->text, *end = doc->text + doc->len; (q = memchr(q, '\n', (size_t)(end - q))); q++) {
    size_t at = (size_t)(q - doc->text);
    if (at - start > longest) longest = at - start;
    start = at + 1;
  }
  if (doc->len - start > longest) longest = doc->len - start;
  doc->longest_line = longest;
}

/* Section - building a doc from splices */

/* Room for `need` bytes: the first time the size hint (or more), then doubling. */
static bool grow_to(ec_doc_builder *b, void **buf, size_t *cap, size_t need, size_t first) {
  if (need <= *cap) return true;
  size_t nc = *cap ? *cap * 2 : first;
  if (nc < need) nc = need;
  void *p = ec_mem_realloc(b->alc, *buf, nc);
  if (!p) { b->oom = true; return false; }
  *buf = p;
  *cap = nc;
  return true;
}

static bool text_room(ec_doc_builder *b, size_t n) {
  void *t = b->text;
  if (b->oom || !grow_to(b, &t, &b->cap, b->len + n + 1, b->hint + 1)) return false;
  b->text = t;
  return true;
}

void ec_doc_builder_init(ec_doc_builder *b, ec_arena *a, const ec_doc *from, size_t size_hint) {
  memset(b, 0, sizeof *b);
  b->from = from;
  b->alc = ec_arena_allocator(a);
  b->hint = size_hint;
  /* A doc without CRLF writes none (it is not CRLF-dominant): no endings to carry. */
  b->with_cr = has_crlf(from);
}

void ec_doc_builder_size(ec_doc_builder *b, size_t size_hint) {
  if (!b->cap) b->hint = size_hint;
}

/* The endings of `lfs` LFs: copied from `from` (keep) or the dominant one (lines an edit writes). */
static void put_cr(ec_doc_builder *b, const uint8_t *keep, size_t lfs) {
  void *c = b->cr;
  if (b->oom || !grow_to(b, &c, &b->cr_cap, b->n_lf + lfs + 1, b->from->n_lf + 1)) return;
  b->cr = c;
  if (keep) memcpy(b->cr + b->n_lf, keep, lfs);
  else memset(b->cr + b->n_lf, b->from->crlf_dominant, lfs);
  b->n_lf += lfs;
}

/* `from` up to byte `upto`, as it is. */
static void copy_upto(ec_doc_builder *b, size_t upto) {
  const ec_doc *d = b->from;
  size_t n = upto - b->r;
  if (!text_room(b, n)) return;
  if (n) memcpy(b->text + b->len, d->text + b->r, n);
  b->len += n;
  if (b->with_cr) { /* without endings to carry, unchanged text needs no counting (n_lf: see put) */
    size_t lfs = ec_count_lf(d->text + b->r, n);
    put_cr(b, d->cr + b->line_r, lfs);
    b->line_r += lfs;
  }
  b->r = upto;
}

/* The splice kept for the doc's change log (its text's length is all the log reads), up to the
 * log's budget: past it the new doc is untracked, as ec_doc_splice's would be. */
static void log_splice(ec_doc_builder *b, const ec_splice *sp) {
  if (!b->from->log || b->log_lost) return;
  if (b->n_logged == b->cap_logged) {
    size_t nc = b->cap_logged ? b->cap_logged * 2 : 16;
    void *p = nc <= EC_DOC_LOG_WORK ? ec_mem_realloc(b->alc, b->logged, nc * sizeof *b->logged) : NULL;
    if (!p) { b->log_lost = true; return; } /* untracked: a whole diff finds the changes */
    b->logged = p;
    b->cap_logged = nc;
  }
  ec_splice k = {sp->start, sp->end, {NULL, sp->text.len}};
  b->logged[b->n_logged++] = k;
}

bool ec_doc_builder_defer(ec_doc_builder *b) {
  if (b->with_cr || b->from->pending || b->len || b->oom) return false;
  b->defer = true;
  return true;
}

/* With defer: the splice and a copy of its text kept for the pending doc, nothing else copied. */
static void defer_splice(ec_doc_builder *b, const ec_splice *sp) {
  void *s = b->deferred, *t = b->texts;
  if (b->oom || !grow_to(b, &s, &b->cap_deferred, (b->n_deferred + 1) * sizeof *b->deferred, 16 * sizeof *b->deferred)) return;
  b->deferred = s;
  if (!grow_to(b, &t, &b->texts_cap, b->texts_len + sp->text.len + 1, sp->text.len + 256)) return;
  b->texts = t;
  ec_splice k = {sp->start, sp->end, {(const char *)(uintptr_t)b->texts_len, sp->text.len}}; /* an offset until finish */
  if (sp->text.len) memcpy(b->texts + b->texts_len, sp->text.ptr, sp->text.len);
  b->texts_len += sp->text.len;
  b->deferred[b->n_deferred++] = k;
  b->len += (sp->start - b->r) + sp->text.len;
}

void ec_doc_builder_put(ec_doc_builder *b, const ec_splice *sp) {
  if (b->defer) {
    defer_splice(b, sp);
    size_t add = ec_count_lf(sp->text.ptr, sp->text.len), gone = ec_count_lf(b->from->text + sp->start, sp->end - sp->start);
    b->lf_delta += (ptrdiff_t)add - (ptrdiff_t)gone;
    b->r = sp->end;
    return; /* the recorded splices are the log's too (finish_deferred) */
  }
  copy_upto(b, sp->start);
  if (!text_room(b, sp->text.len)) return;
  if (sp->text.len) memcpy(b->text + b->len, sp->text.ptr, sp->text.len);
  b->len += sp->text.len;
  /* Each LF the splice writes takes the dominant ending; the LF that ends the splice's last line
   * is the original one (after sp->end) and keeps its own. */
  size_t add = ec_count_lf(sp->text.ptr, sp->text.len), gone = ec_count_lf(b->from->text + sp->start, sp->end - sp->start);
  if (b->with_cr) put_cr(b, NULL, add);
  else b->lf_delta += (ptrdiff_t)add - (ptrdiff_t)gone;
  b->line_r += gone;
  b->r = sp->end;
  log_splice(b, sp);
}

void ec_doc_builder_drop(ec_doc_builder *b) {
  ec_mem_free(b->alc, b->deferred);
  ec_mem_free(b->alc, b->texts);
  b->deferred = NULL;
  b->texts = NULL;
  ec_mem_free(b->alc, b->text);
  ec_mem_free(b->alc, b->cr);
  ec_mem_free(b->alc, b->logged);
  b->text = NULL;
  b->cr = NULL;
  b->logged = NULL;
  b->oom = true;
}

/* Gives a buffer's slack back when it is large (a guess that doubled), then hands it to the arena. */
static void *settle(ec_doc_builder *b, ec_arena *a, void *buf, size_t used, size_t cap) {
  if (cap - used > (used >> 3) + 4096) {
    void *p = ec_mem_realloc(b->alc, buf, used ? used : 1);
    if (p) buf = p;
  }
  return ec_arena_adopt(a, buf) ? buf : NULL;
}

/* finish for a deferring builder: the pending doc, its splices' texts moved to the arena. */
static ec_error_code finish_deferred(ec_doc_builder *b, ec_arena *a, ec_doc *out) {
  const ec_doc *from = b->from;
  b->len += from->len - b->r;
  b->r = from->len;
  ec_doc_pending *p = ec_arena_alloc(a, sizeof *p);
  size_t *at = ec_arena_alloc(a, (b->n_deferred + 1) * sizeof *at);
  char *texts = b->texts_len ? settle(b, a, b->texts, b->texts_len, b->texts_cap) : NULL;
  if (texts) b->texts = NULL;
  ec_splice *sp = b->n_deferred ? settle(b, a, b->deferred, b->n_deferred * sizeof *sp, b->cap_deferred) : NULL;
  if (sp) b->deferred = NULL;
  if (b->oom || !p || !at || (b->texts_len && !texts) || (b->n_deferred && !sp)) {
    ec_doc_builder_drop(b);
    return EC_OUT_OF_MEMORY;
  }
  ec_mem_free(b->alc, b->texts); /* texts of no bytes (splices that only delete) */
  b->texts = NULL;
  ptrdiff_t shift = 0;
  for (size_t i = 0; i < b->n_deferred; i++) {
    sp[i].text.ptr = texts ? texts + (uintptr_t)sp[i].text.ptr : "";
    at[i] = (size_t)((ptrdiff_t)sp[i].start + shift);
    shift += (ptrdiff_t)sp[i].text.len - (ptrdiff_t)(sp[i].end - sp[i].start);
  }
  p->from = *from;
  p->sp = sp;
  p->at = at;
  p->n = b->n_deferred;
  ec_doc d = *from;
  d.text = NULL;
  d.cr = NULL;
  d.pending = p;
  /* log_add reads only the splices' places and lengths, and stops tracking past its budget */
  if (d.log) d.log = log_add(a, d.log, sp, b->n_deferred);
  d.len = b->len;
  d.n_lf = (size_t)((ptrdiff_t)from->n_lf + b->lf_delta);
  *out = d;
  return EC_OK;
}

ec_error_code ec_doc_builder_finish(ec_doc_builder *b, ec_arena *a, ec_doc *out) {
  if (b->defer) return finish_deferred(b, a, out);
  copy_upto(b, b->from->len);
  if (!text_room(b, 0)) { ec_doc_builder_drop(b); return EC_OUT_OF_MEMORY; }
  b->text[b->len] = 0;
  ec_doc d = *b->from;
  d.text = settle(b, a, b->text, b->len + 1, b->cap);
  d.cr = NULL;
  if (b->with_cr && d.text) {
    /* a doc with CRLF and no LF left still has its (empty) table */
    void *c = b->cr;
    if (grow_to(b, &c, &b->cr_cap, b->n_lf + 1, b->n_lf + 1)) {
      d.cr = settle(b, a, c, b->n_lf + 1, b->cr_cap);
      b->cr = NULL;
    }
    if (!d.cr) { ec_arena_release(a, d.text); d.text = NULL; }
  }
  ec_mem_free(b->alc, b->cr);
  b->text = NULL;
  b->cr = NULL;
  if (d.text && d.log) d.log = b->log_lost ? NULL : log_add(a, d.log, b->logged, b->n_logged);
  ec_mem_free(b->alc, b->logged);
  b->logged = NULL;
  if (!d.text) return EC_OUT_OF_MEMORY;
  d.len = b->len;
  d.n_lf = b->with_cr ? b->n_lf : (size_t)((ptrdiff_t)b->from->n_lf + b->lf_delta);
  *out = d;
  return EC_OK;
}

ec_error_code ec_doc_splice(ec_arena *a, const ec_doc *doc, const ec_splice *sp, size_t n, ec_doc *out) {
  size_t len = doc->len;
  for (size_t i = 0; i < n; i++) len = len - (sp[i].end - sp[i].start) + sp[i].text.len;
  ec_doc_builder b;
  ec_doc_builder_init(&b, a, doc, len);
  for (size_t i = 0; i < n; i++) ec_doc_builder_put(&b, &sp[i]);
  return ec_doc_builder_finish(&b, a, out);
}

ec_error_code ec_doc_with_text(ec_arena *a, const ec_doc *doc, ec_str text, ec_doc *out) {
  ec_splice sp = {0, doc->len, text};
  if (has_crlf(doc) || doc->pending) return ec_doc_splice(a, doc, &sp, 1, out);
  ec_doc d = *doc;
  d.text = (char *)(uintptr_t)text.ptr; /* read only, like a view's (ec_doc_view) */
  d.len = text.len;
  d.n_lf = ec_count_lf(text.ptr, text.len);
  d.cr = NULL;
  if (d.log) d.log = log_add(a, d.log, &sp, 1);
  *out = d;
  return EC_OK;
}

ec_error_code ec_doc_replace_lines(ec_arena *a, const ec_doc *doc, size_t start, size_t end, ec_str text, ec_doc *out) {
  const char *r = doc->text + start;
  size_t rl = end - start, max = rl < text.len ? rl : text.len;
  size_t pre = 0, suf = 0;
  while (pre + 64 <= max && !memcmp(r + pre, text.ptr + pre, 64)) pre += 64;
  while (pre < max && r[pre] == text.ptr[pre]) pre++;
  if (pre == rl && pre == text.len) { if (out != doc) *out = *doc; return EC_OK; }
  while (pre && r[pre - 1] != '\n') pre--; /* back to a line start */
  while (suf + 64 <= max - pre && !memcmp(r + rl - suf - 64, text.ptr + text.len - suf - 64, 64)) suf += 64;
  while (suf < max - pre && r[rl - 1 - suf] == text.ptr[text.len - 1 - suf]) suf++;
  /* The kept suffix must start a line; it may shrink to start right at pre, itself a line start. */
  while (suf && rl - suf > pre && r[rl - suf - 1] != '\n') suf--;
  ec_splice sp = {start + pre, end - suf, {text.ptr + pre, text.len - suf - pre}};
  return ec_doc_splice(a, doc, &sp, 1, out);
}

ec_error_code ec_doc_settle(ec_arena *a, ec_doc *doc) {
  const ec_doc_pending *p = doc->pending;
  if (!p) return EC_OK;
  ec_doc from = p->from, built;
  from.log = NULL; /* the pending doc's log already holds these splices */
  ec_error_code rc = ec_doc_splice(a, &from, p->sp, p->n, &built);
  if (rc) return rc;
  built.log = doc->log;
  *doc = built;
  return EC_OK;
}

/* Copies the part of new-text stretch [lo, lo + n) (bytes src) that lies in [start, end). */
static void read_part(char *dst, size_t start, size_t end, size_t lo, const char *src, size_t n) {
  size_t s = lo > start ? lo : start, e = lo + n < end ? lo + n : end;
  if (s < e) memcpy(dst + (s - start), src + (s - lo), e - s);
}

void ec_doc_read(const ec_doc *doc, size_t start, size_t end, char *dst) {
  const ec_doc_pending *p = doc->pending;
  if (start >= end) return;
  if (!p) { memcpy(dst, doc->text + start, end - start); return; }
  /* The first splice whose text ends after `start`; the unchanged text before it starts where
   * the previous splice's text ended. */
  size_t lo = 0, hi = p->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->at[mid] + p->sp[mid].text.len <= start) lo = mid + 1;
    else hi = mid;
  }
  size_t i = lo;
  size_t r = i ? p->sp[i - 1].end : 0, at = i ? p->at[i - 1] + p->sp[i - 1].text.len : 0;
  for (;; i++) {
    size_t upto = i < p->n ? p->sp[i].start : p->from.len;
    read_part(dst, start, end, at, p->from.text + r, upto - r);
    at += upto - r;
    if (i == p->n || at >= end) break;
    read_part(dst, start, end, at, p->sp[i].text.ptr, p->sp[i].text.len);
    at += p->sp[i].text.len;
    r = p->sp[i].end;
    if (at >= end) break;
  }
}

ec_str ec_doc_render(ec_arena *a, const ec_doc *doc) {
  if (doc->pending) {
    ec_doc built = *doc;
    if (ec_doc_settle(a, &built)) { ec_str z = {0, 0}; return z; }
    return ec_doc_render(a, &built);
  }
  size_t extra = doc->bom ? 3 : 0;
  if (has_crlf(doc))
    for (size_t i = 0; i < doc->n_lf; i++) extra += doc->cr[i];
  ec_str s = {0, 0};
  if (!extra) { /* the bytes are the text itself: no copy of the whole file */
    s.ptr = doc->text;
    s.len = doc->len;
    return s;
  }
  char *o = ec_arena_alloc(a, doc->len + extra + 1);
  if (!o) return s;
  size_t w = 0;
  if (doc->bom) { memcpy(o, BOM, 3); w = 3; }
  if (extra == w) {
    if (doc->len) memcpy(o + w, doc->text, doc->len);
    w += doc->len;
  } else {
    size_t r = 0, line = 0;
    while (r < doc->len) {
      const char *nl = memchr(doc->text + r, '\n', doc->len - r);
      size_t seg = nl ? (size_t)(nl - (doc->text + r)) : doc->len - r;
      memcpy(o + w, doc->text + r, seg);
      w += seg; r += seg;
      if (nl) { if (doc->cr[line++]) o[w++] = '\r'; o[w++] = '\n'; r++; }
    }
  }
  o[w] = 0;
  s.ptr = o;
  s.len = w;
  return s;
}

ec_str ec_text_normalize_eol(ec_arena *a, ec_str s) {
  if (!s.len || !memchr(s.ptr, '\r', s.len)) return s;
  char *o = ec_arena_alloc(a, s.len + 1);
  if (!o) { ec_str z = {0, 0}; return z; }
  size_t w = 0;
  for (size_t i = 0; i < s.len; i++) {
    if (s.ptr[i] == '\r' && i + 1 < s.len && s.ptr[i + 1] == '\n') continue;
    o[w++] = s.ptr[i];
  }
  o[w] = 0;
  ec_str r = {o, w};
  return r;
}

uint32_t ec_text_line_of(const char *text, size_t off) {
  return (uint32_t)(ec_count_lf(text, off) + 1);
}
