#include "doc.h"
#include "../base/str.h"
#include <string.h>

static const char BOM[3] = {'\xEF', '\xBB', '\xBF'};

/* Whether any LF of the doc stands for a CRLF. A doc loaded without CRLF (eol LF or NONE) is not
 * CRLF-dominant, so no splice writes one: its cr[] stays all zero and need not be read. */
static bool has_crlf(const ec_doc *doc) { return doc->eol != EC_EOL_LF && doc->eol != EC_EOL_NONE; }

ec_error_code ec_doc_load(ec_arena *a, ec_str content, ec_doc *out) {
  memset(out, 0, sizeof *out);
  const char *p = content.ptr;
  size_t n = content.len;
  if (n && memchr(p, 0, n)) return EC_BINARY_FILE;
  if (n >= 3 && memcmp(p, BOM, 3) == 0) { out->bom = true; p += 3; n -= 3; }
  /* The LFs are counted a word at a time, and CRLFs looked for only when there is a CR: a
   * memchr per line was most of a 1 MB replace. The longest line is measured on demand. */
  size_t n_lf = ec_count_lf(p, n), n_crlf = 0;
  if (memchr(p, '\r', n))
    for (const char *q = p, *end = p + n; (q = memchr(q, '\r', (size_t)(end - q))); q++) n_crlf += q + 1 < end && q[1] == '\n';
  out->text = ec_arena_alloc(a, n + 1);
  out->cr = ec_arena_alloc(a, n_lf + 1);
  if (!out->text || !out->cr) return EC_OUT_OF_MEMORY;
  size_t w = 0, line = 0;
  if (!n_crlf) { /* nothing to fold: the text is the content */
    if (n) memcpy(out->text, p, n);
    memset(out->cr, 0, n_lf);
    w = n;
  } else {
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
  out->len = w;
  out->n_lf = n_lf;
  out->crlf_dominant = n_crlf > n_lf - n_crlf;
  out->eol = n_lf == 0 ? EC_EOL_NONE : n_crlf == 0 ? EC_EOL_LF : n_crlf == n_lf ? EC_EOL_CRLF : EC_EOL_MIXED;
  return EC_OK;
}

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
  ec_doc_region *out = ec_arena_alloc(a, (prev->n + n + 1) * sizeof *out);
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

ec_error_code ec_doc_splice(ec_arena *a, const ec_doc *doc, const ec_splice *sp, size_t n, ec_doc *out) {
  size_t len = doc->len, n_lf = doc->n_lf;
  for (size_t i = 0; i < n; i++) {
    len = len - (sp[i].end - sp[i].start) + sp[i].text.len;
    n_lf = n_lf - ec_count_lf(doc->text + sp[i].start, sp[i].end - sp[i].start) + ec_count_lf(sp[i].text.ptr, sp[i].text.len);
  }
  char *text = ec_arena_alloc(a, len + 1);
  uint8_t *cr = ec_arena_alloc(a, n_lf + 1);
  if (!text || !cr) return EC_OUT_OF_MEMORY;
  /* Lines before a splice keep their endings; each LF the splice writes takes the dominant
   * ending; the LF that ends the splice's last line is the original one and keeps its own.
   * Without CRLF there are no endings to carry: bytes are copied without counting lines. */
  bool any_cr = has_crlf(doc);
  size_t r = 0, w = 0, line_r = 0, line_w = 0;
  uint8_t dom = doc->crlf_dominant;
  for (size_t i = 0; i <= n; i++) {
    size_t upto = i < n ? sp[i].start : doc->len;
    memcpy(text + w, doc->text + r, upto - r);
    if (any_cr) {
      size_t lfs = ec_count_lf(doc->text + r, upto - r);
      memcpy(cr + line_w, doc->cr + line_r, lfs);
      line_w += lfs; line_r += lfs;
    }
    w += upto - r; r = upto;
    if (i == n) break;
    if (sp[i].text.len) memcpy(text + w, sp[i].text.ptr, sp[i].text.len);
    if (any_cr) {
      line_r += ec_count_lf(doc->text + sp[i].start, sp[i].end - sp[i].start);
      size_t add = ec_count_lf(sp[i].text.ptr, sp[i].text.len);
      memset(cr + line_w, dom, add);
      line_w += add;
    }
    w += sp[i].text.len; r = sp[i].end;
  }
  if (!any_cr) {
    memset(cr, 0, n_lf);
    line_w = n_lf;
  }
  text[w] = 0;
  ec_doc d = *doc;
  d.text = text;
  d.len = w;
  d.cr = cr;
  d.n_lf = line_w;
  d.log = doc->log ? log_add(a, doc->log, sp, n) : NULL;
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

ec_str ec_doc_render(ec_arena *a, const ec_doc *doc) {
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
    memcpy(o + w, doc->text, doc->len);
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
