/*
 * Diff stage 3: the edit script and the unified diff text, written the way `git diff` writes
 * them so that `patch -p1` and `git apply` take the output as is:
 *   - "--- a/<old>" / "+++ b/<new>", "/dev/null" for an absent side; a path with a space gets a
 *     trailing TAB and a path with a quote, backslash or control byte is C-quoted, both as git
 *     does (bytes >= 0x80 pass through, as with core.quotePath=false);
 *   - "@@ -l,s +l,s @@" with ",s" left out when s == 1 and, for an empty side, l the line before;
 *   - hunks whose context would overlap or touch are merged (gap <= 2 * context);
 *   - "\ No newline at end of file" right after the line that lacks it, on whichever side.
 * Numbers are formatted by hand (no printf, no locale), so the bytes are the same everywhere.
 */
#include "diff.h"
#include "diff_myers.h"
#include "diff_prepare.h"
#include "../base/buf.h"
#include <string.h>

#define NO_NEWLINE "\\ No newline at end of file\n"

/* ---- The edit script ----------------------------------------------------------------------- */

/* Runs of flagged lines between paired unchanged lines become changes. Written so that flags
 * out of step (which the algorithm never produces) still give a valid script: once one side
 * runs out, the rest of the other side is changed. */
static ec_error_code script_from_flags(ec_arena *ar, const uint8_t *ca, size_t n, const uint8_t *cb,
                                       size_t m, ec_diff_script *out) {
  out->changes = NULL;
  out->n = 0;
  for (int pass = 0; pass < 2; pass++) {
    size_t i = 0, j = 0, k = 0;
    while (i < n || j < m) {
      if (i < n && j < m && !ca[i] && !cb[j]) { i++; j++; continue; }
      size_t a0 = i, b0 = j;
      while (i < n && (ca[i] || j == m)) i++;
      while (j < m && (cb[j] || i == n)) j++;
      if (pass == 1) {
        ec_diff_change c = {a0, i - a0, b0, j - b0};
        out->changes[k] = c;
      }
      k++;
    }
    if (pass == 0) {
      if (k == 0) return EC_OK;
      out->changes = ec_arena_alloc(ar, k * sizeof *out->changes);
      if (!out->changes) return EC_OUT_OF_MEMORY;
    }
    out->n = k;
  }
  return EC_OK;
}

static ec_error_code diff_prepared(ec_arena *ar, ec_str old_text, ec_str new_text, size_t context,
                                   uint64_t budget, ec_diff_prep *p, ec_diff_script *out) {
  ec_error_code rc = ec_diff_prepare(ar, old_text, new_text, context, p);
  if (rc != EC_OK) return rc;
  uint8_t *ca = ec_arena_alloc(ar, p->a.wn + 1), *cb = ec_arena_alloc(ar, p->b.wn + 1);
  if (!ca || !cb) return EC_OUT_OF_MEMORY;
  rc = ec_diff_myers(ar, p, budget, 0, ca, cb);
  if (rc == EC_OK) rc = script_from_flags(ar, ca, p->a.wn, cb, p->b.wn, out);
  for (size_t k = 0; rc == EC_OK && k < out->n; k++) { /* window lines to line numbers */
    out->changes[k].a += p->w0;
    out->changes[k].b += p->w0;
  }
  ec_arena_release(ar, ca);
  ec_arena_release(ar, cb);
  return rc;
}

ec_error_code ec_diff_texts(ec_arena *a, ec_str old_text, ec_str new_text, uint64_t work_budget,
                            ec_diff_script *out) {
  ec_diff_prep p;
  out->changes = NULL;
  out->n = 0;
  return diff_prepared(a, old_text, new_text, 0, work_budget, &p, out);
}

/* ---- Text output ---------------------------------------------------------------------------- */

typedef struct emitter {
  ec_buf buf;
  size_t max; /* 0 = no limit */
  bool truncated;
} emitter;

/* Whether n more bytes (whole lines) fit; the first refusal ends the output for good, so the
 * text always stops at a line end. */
static bool fits(emitter *e, size_t n) {
  if (e->truncated) return false;
  if (e->max && (e->buf.len > e->max || n > e->max - e->buf.len)) {
    e->truncated = true;
    return false;
  }
  return true;
}

static size_t fmt_uint(char *dst, size_t v) {
  char tmp[24];
  size_t n = 0;
  do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
  for (size_t i = 0; i < n; i++) dst[i] = tmp[n - 1 - i];
  return n;
}

/* One side of a hunk header: "-l" or "-l,s"; an empty side names the line before it. */
static size_t fmt_range(char *dst, char sign, size_t start, size_t count) {
  size_t k = 0;
  dst[k++] = sign;
  k += fmt_uint(dst + k, count ? start + 1 : start);
  if (count != 1) {
    dst[k++] = ',';
    k += fmt_uint(dst + k, count);
  }
  return k;
}

static void emit_hunk_header(emitter *e, size_t s1, size_t c1, size_t s2, size_t c2) {
  char line[128];
  size_t k = 0;
  memcpy(line, "@@ ", 3);
  k = 3;
  k += fmt_range(line + k, '-', s1, c1);
  line[k++] = ' ';
  k += fmt_range(line + k, '+', s2, c2);
  memcpy(line + k, " @@\n", 4);
  k += 4;
  if (fits(e, k)) ec_buf_append(&e->buf, line, k);
}

/* Line i (a line number) with its prefix; the no-newline marker goes with it, so a cut never
 * separates them. Every line printed is inside the window, which has room for the context. */
static void emit_line(emitter *e, char prefix, const ec_diff_prep *p, const ec_diff_side *s, size_t i) {
  bool lf;
  ec_str t = ec_diff_line(s, i - p->w0, &lf);
  size_t need = t.len + 2 + (lf ? 0 : sizeof NO_NEWLINE - 1);
  if (need < t.len || !fits(e, need)) return;
  ec_buf_append_char(&e->buf, prefix);
  ec_buf_append_str(&e->buf, t);
  ec_buf_append_char(&e->buf, '\n');
  if (!lf) ec_buf_append(&e->buf, NO_NEWLINE, sizeof NO_NEWLINE - 1);
}

static bool needs_quote(ec_str p) {
  for (size_t i = 0; i < p.len; i++) {
    unsigned char c = (unsigned char)p.ptr[i];
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') return true;
  }
  return false;
}

/* "--- a/<path>" etc.: prefix + path, C-quoted when needed, TAB-terminated when it has a space. */
static void emit_file_line(emitter *e, const char *marker, const char *prefix, ec_str path, bool absent) {
  ec_buf t;
  ec_buf_init(&t, e->buf.alc);
  ec_buf_append_cstr(&t, marker);
  if (absent) {
    ec_buf_append_cstr(&t, "/dev/null");
  } else {
    size_t label = t.len;
    if (*prefix && path.len && path.ptr[0] == '/') { path.ptr++; path.len--; } /* git: "a/x", not "a//x" */
    bool quote = needs_quote(path);
    if (quote) ec_buf_append_char(&t, '"');
    ec_buf_append_cstr(&t, prefix);
    for (size_t i = 0; i < path.len; i++) {
      unsigned char c = (unsigned char)path.ptr[i];
      const char *esc = NULL;
      switch (c) {
        case '"': esc = "\\\""; break;
        case '\\': esc = "\\\\"; break;
        case '\a': esc = "\\a"; break;
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\v': esc = "\\v"; break;
        default: break;
      }
      if (esc) {
        ec_buf_append_cstr(&t, esc);
      } else if (c < 0x20 || c == 0x7f) {
        char oct[4] = {'\\', (char)('0' + (c >> 6)), (char)('0' + ((c >> 3) & 7)), (char)('0' + (c & 7))};
        ec_buf_append(&t, oct, 4);
      } else {
        ec_buf_append_char(&t, (char)c);
      }
    }
    if (quote) ec_buf_append_char(&t, '"');
    if (!t.oom && memchr(t.ptr + label, ' ', t.len - label)) ec_buf_append_char(&t, '\t');
  }
  ec_buf_append_char(&t, '\n');
  if (t.oom) e->buf.oom = true;
  else if (fits(e, t.len)) ec_buf_append(&e->buf, t.ptr, t.len);
  ec_buf_free(&t);
}

/* Emits the script's hunks; `reverse` swaps the sides (the undo diff), so one script serves both. */
static void emit_hunks(emitter *e, const ec_diff_prep *p, const ec_diff_script *sc, size_t ctx, bool reverse) {
  const ec_diff_side *sa = reverse ? &p->b : &p->a, *sb = reverse ? &p->a : &p->b;
#define CA(c) (reverse ? (c).b : (c).a)
#define CNA(c) (reverse ? (c).nb : (c).na)
#define CB(c) (reverse ? (c).a : (c).b)
#define CNB(c) (reverse ? (c).na : (c).nb)
  const ec_diff_change *ch = sc->changes;
  for (size_t i = 0; i < sc->n && !e->truncated && !e->buf.oom;) {
    /* Gather the changes whose context overlaps or touches into one hunk. */
    size_t j = i;
    while (j + 1 < sc->n && CA(ch[j + 1]) - (CA(ch[j]) + CNA(ch[j])) <= 2 * ctx) j++;
    size_t lead = CA(ch[i]) < ctx ? CA(ch[i]) : ctx;
    size_t s1 = CA(ch[i]) - lead, s2 = CB(ch[i]) - lead;
    size_t e1 = CA(ch[j]) + CNA(ch[j]), e2 = CB(ch[j]) + CNB(ch[j]);
    size_t tail = sa->n - e1 < ctx ? sa->n - e1 : ctx;
    e1 += tail;
    e2 += tail;
    emit_hunk_header(e, s1, e1 - s1, s2, e2 - s2);
    size_t pos = s1;
    for (size_t k = i; k <= j; k++) {
      for (; pos < CA(ch[k]); pos++) emit_line(e, ' ', p, sa, pos);
      for (size_t x = 0; x < CNA(ch[k]); x++) emit_line(e, '-', p, sa, CA(ch[k]) + x);
      for (size_t x = 0; x < CNB(ch[k]); x++) emit_line(e, '+', p, sb, CB(ch[k]) + x);
      pos = CA(ch[k]) + CNA(ch[k]);
    }
    for (; pos < e1; pos++) emit_line(e, ' ', p, sa, pos);
    i = j + 1;
  }
#undef CA
#undef CNA
#undef CB
#undef CNB
}

static uint32_t sat_add(uint32_t acc, size_t v) {
  return v > (size_t)(UINT32_MAX - acc) ? UINT32_MAX : acc + (uint32_t)v;
}

static ec_error_code emit(ec_arena *a, ec_str old_path, ec_str new_path, bool old_absent, bool new_absent,
                          const ec_diff_prep *p, const ec_diff_script *sc, size_t ctx, size_t max, bool reverse,
                          bool labels, ec_diff_out *out) {
  if (sc->n == 0) {
    out->text = ec_arena_strdup(a, "", 0);
    return out->text.ptr ? EC_OK : EC_OUT_OF_MEMORY;
  }
  emitter e;
  memset(&e, 0, sizeof e);
  ec_buf_init(&e.buf, ec_arena_allocator(a));
  e.max = max;
  emit_file_line(&e, "--- ", labels ? "" : "a/", old_path, old_absent);
  emit_file_line(&e, "+++ ", labels ? "" : "b/", new_path, new_absent);
  emit_hunks(&e, p, sc, ctx, reverse);
  out->truncated = e.truncated;
  out->text = ec_buf_finish(&e.buf, a);
  return out->text.ptr ? EC_OK : EC_OUT_OF_MEMORY;
}

static ec_error_code emit_both(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text, const ec_str *new_text,
                               const ec_diff_opts *opts, bool labels, const ec_diff_prep *p, const ec_diff_script *sc,
                               size_t ctx, ec_diff_out *out, ec_diff_out *undo);

static ec_error_code unified_pair(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text,
                                  const ec_str *new_text, const ec_diff_opts *opts, bool labels, ec_diff_out *out,
                                  ec_diff_out *undo) {
  memset(out, 0, sizeof *out);
  if (undo) memset(undo, 0, sizeof *undo);
  ec_diff_opts defaults = {3, 0, 0};
  if (!opts) opts = &defaults;
  if (opts->context < 0) return EC_INVALID_PARAM;
  ec_str none = {"", 0};
  ec_diff_prep p;
  ec_diff_script sc;
  /* More context than lines changes nothing; the cap keeps 2 * ctx from overflowing. */
  const ec_str ot = old_text ? *old_text : none, nt = new_text ? *new_text : none;
  size_t ctx = (size_t)opts->context;
  if (ctx > ot.len + nt.len) ctx = ot.len + nt.len;
  if (ctx > SIZE_MAX / 4) ctx = SIZE_MAX / 4;
  /* Line tables, classes and the script (~40 bytes a line) live only while the texts are written:
   * a result with many files or a file of millions of lines would otherwise keep them all. */
  ec_arena *work = ec_arena_new(ec_arena_allocator(a));
  if (!work) return EC_OUT_OF_MEMORY;
  ec_error_code rc = diff_prepared(work, ot, nt, ctx, opts->work_budget, &p, &sc);
  if (rc == EC_OK) rc = emit_both(a, old_path, new_path, old_text, new_text, opts, labels, &p, &sc, ctx, out, undo);
  ec_arena_free(work);
  return rc;
}

/* The diff and (when asked) the undo diff, from one script. */
static ec_error_code emit_both(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text, const ec_str *new_text,
                               const ec_diff_opts *opts, bool labels, const ec_diff_prep *p, const ec_diff_script *sc,
                               size_t ctx, ec_diff_out *out, ec_diff_out *undo) {
  for (size_t i = 0; i < sc->n; i++) {
    out->removed = sat_add(out->removed, sc->changes[i].na);
    out->added = sat_add(out->added, sc->changes[i].nb);
  }
  ec_error_code rc = emit(a, old_path, new_path, old_text == NULL, new_text == NULL, p, sc, ctx, opts->max_bytes, false,
                          labels, out);
  if (rc || !undo) return rc;
  undo->added = out->removed;
  undo->removed = out->added;
  /* The undo patch is only useful whole: no size limit. */
  return emit(a, new_path, old_path, new_text == NULL, old_text == NULL, p, sc, ctx, 0, true, labels, undo);
}

ec_error_code ec_diff_unified_pair(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text,
                                   const ec_str *new_text, const ec_diff_opts *opts, ec_diff_out *out,
                                   ec_diff_out *undo) {
  return unified_pair(a, old_path, new_path, old_text, new_text, opts, false, out, undo);
}

ec_error_code ec_diff_labelled(ec_arena *a, ec_str old_label, ec_str new_label, ec_str old_text, ec_str new_text,
                               const ec_diff_opts *opts, ec_diff_out *out) {
  return unified_pair(a, old_label, new_label, &old_text, &new_text, opts, true, out, NULL);
}

ec_error_code ec_diff_unified(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text,
                              const ec_str *new_text, const ec_diff_opts *opts, ec_diff_out *out) {
  return ec_diff_unified_pair(a, old_path, new_path, old_text, new_text, opts, out, NULL);
}
