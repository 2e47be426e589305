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
#include "../base/str.h"
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
  ec_error_code rc = ec_diff_prepare(ar, old_text, new_text, context, true, p);
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
  ec_buf_append_line(&e->buf, t);
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
    /* A path that needs no quotes has nothing to escape: one append (a byte at a time looked each
     * byte up, four header lines a call: BENCHMARKS.md, "The 10 KB rows, third pass"). */
    if (!quote) ec_buf_append_str(&t, path);
    for (size_t i = 0; quote && i < path.len; i++) {
      unsigned char c = (unsigned char)path.ptr[i];
      /* git's C escapes: the byte, then the letter after its backslash */
      static const char ESC[] = "\"\"\\\\\aa\bb\ff\nn\rr\tt\vv";
      const char *esc = c ? memchr(ESC, c, sizeof ESC - 1) : NULL;
      if (esc && (esc - ESC) % 2 == 0) {
        char two[2] = {'\\', esc[1]};
        ec_buf_append(&t, two, 2);
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

/* One diffed window of the two texts: its prep and script, and the line numbers (0-based) of its
 * first line on each side, added to the hunk headers. A whole-text diff is one part at 0, 0. */
typedef struct part {
  ec_diff_prep p;
  ec_diff_script sc;
  size_t la, lb;
} part;

/* Emits the script's hunks; `reverse` swaps the sides (the undo diff), so one script serves both. */
static void emit_hunks(emitter *e, const part *pt, size_t ctx, bool reverse) {
  const ec_diff_prep *p = &pt->p;
  const ec_diff_script *sc = &pt->sc;
  const size_t la = reverse ? pt->lb : pt->la, lb = reverse ? pt->la : pt->lb;
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
    emit_hunk_header(e, la + s1, e1 - s1, lb + s2, e2 - s2);
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
                          const part *parts, size_t n_parts, size_t ctx, size_t max, bool reverse, bool labels,
                          ec_diff_out *out) {
  size_t changes = 0;
  for (size_t i = 0; i < n_parts; i++) changes += parts[i].sc.n;
  if (changes == 0) {
    out->text = ec_arena_strdup(a, "", 0);
    return out->text.ptr ? EC_OK : EC_OUT_OF_MEMORY;
  }
  emitter e;
  memset(&e, 0, sizeof e);
  ec_buf_init(&e.buf, ec_arena_allocator(a));
  e.max = max;
  emit_file_line(&e, "--- ", labels ? "" : "a/", old_path, old_absent);
  emit_file_line(&e, "+++ ", labels ? "" : "b/", new_path, new_absent);
  for (size_t i = 0; i < n_parts && !e.truncated && !e.buf.oom; i++) emit_hunks(&e, &parts[i], ctx, reverse);
  out->truncated = e.truncated;
  out->text = ec_buf_finish(&e.buf, a);
  return out->text.ptr ? EC_OK : EC_OUT_OF_MEMORY;
}

/* More context than lines changes nothing; the cap keeps 2 * ctx from overflowing. */
static size_t context_of(const ec_diff_opts *opts, size_t total) {
  size_t ctx = (size_t)opts->context;
  if (ctx > total) ctx = total;
  if (ctx > SIZE_MAX / 4) ctx = SIZE_MAX / 4;
  return ctx;
}

/* Counts, the diff and (when asked) the undo diff of diffed parts. */
static ec_error_code emit_both(ec_arena *a, ec_str old_path, ec_str new_path, bool old_absent, bool new_absent,
                               const part *parts, size_t n_parts, size_t ctx, const ec_diff_opts *opts, bool labels,
                               ec_diff_out *out, ec_diff_out *undo) {
  for (size_t k = 0; k < n_parts; k++)
    for (size_t i = 0; i < parts[k].sc.n; i++) {
      out->removed = sat_add(out->removed, parts[k].sc.changes[i].na);
      out->added = sat_add(out->added, parts[k].sc.changes[i].nb);
    }
  ec_error_code rc = emit(a, old_path, new_path, old_absent, new_absent, parts, n_parts, ctx, opts->max_bytes, false,
                          labels, out);
  if (rc || !undo) return rc;
  undo->added = out->removed;
  undo->removed = out->added;
  if (opts->undo_on_read && !out->truncated) return EC_OK; /* read off the diff when asked (diff_reverse.c) */
  /* The undo patch is only useful whole: no size limit. */
  return emit(a, new_path, old_path, new_absent, old_absent, parts, n_parts, ctx, 0, true, labels, undo);
}

/* The changed stretches of a whole diff in bytes, for a caller that rebuilds the new text from
 * the old one (ec_file_result.splices): each change's lines on both sides. */
static ec_error_code stretches_of(ec_arena *a, const part *pt, ec_diff_out *out) {
  const ec_diff_prep *p = &pt->p;
  out->stretches = pt->sc.n ? ec_arena_alloc(a, pt->sc.n * sizeof *out->stretches) : NULL;
  if (pt->sc.n && !out->stretches) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < pt->sc.n; i++) {
    const ec_diff_change *c = &pt->sc.changes[i];
    size_t a0 = c->a - p->w0, b0 = c->b - p->w0;
    ec_diff_stretch s = {p->a.off[a0], p->a.off[a0 + c->na], p->b.off[b0], p->b.off[b0 + c->nb]};
    out->stretches[i] = s;
  }
  out->n_stretches = pt->sc.n;
  return EC_OK;
}

static ec_error_code unified_pair(ec_arena *a, ec_str old_path, ec_str new_path, const ec_str *old_text,
                                  const ec_str *new_text, const ec_diff_opts *opts, bool labels, ec_diff_out *out,
                                  ec_diff_out *undo) {
  memset(out, 0, sizeof *out);
  if (undo) memset(undo, 0, sizeof *undo);
  ec_diff_opts defaults = {3, 0, 0};
  if (!opts) opts = &defaults;
  if (opts->context < 0) return EC_INVALID_PARAM;
  ec_str none = {"", 0};
  const ec_str ot = old_text ? *old_text : none, nt = new_text ? *new_text : none;
  size_t ctx = context_of(opts, ot.len + nt.len);
  part pt = {.la = 0, .lb = 0};
  /* Line tables, classes and the script (20-60 bytes a line) live only while the texts are
   * written: a result of many files, or of a file of a million lines, would otherwise keep them. */
  ec_arena *work = ec_arena_new(ec_arena_allocator(a));
  if (!work) return EC_OUT_OF_MEMORY;
  ec_error_code rc = diff_prepared(work, ot, nt, ctx, opts->work_budget, &pt.p, &pt.sc);
  if (rc == EC_OK) rc = stretches_of(a, &pt, out);
  if (rc == EC_OK) rc = emit_both(a, old_path, new_path, old_text == NULL, new_text == NULL, &pt, 1, ctx, opts, labels, out, undo);
  ec_arena_free(work);
  return rc;
}

/* Section - the diff of known changed stretches (ec_diff_unified_stretches) */

/* Lines of common text kept around a window's changes: the context, what compaction may read
 * and slide over (diff_prepare.h), and one more, so the window's own prepare keeps its guard
 * lines as a whole-text diff would. Windows closer than this are diffed together. A window is
 * first cut without the slide room: most changes cannot slide out of their lines
 * (ec_diff_prep.slides_out), and then the lines past the look margin are never read. */
#define WINDOW_MARGIN(ctx) ((ctx) + EC_DIFF_LOOK_MARGIN + EC_DIFF_SLIDE_MARGIN + 2)

/* The start of the line holding byte `at`, then `lines` lines further back (not before `floor`,
 * the end of the window before, so common text is walked once). */
static size_t back_lines(const char *t, size_t at, size_t lines, size_t floor) {
  at = ec_line_start_before(t, floor, at);
  for (size_t k = 0; k < lines && at > floor; k++) at = ec_line_start_before(t, floor, at - 1);
  return at;
}

/* Whether p[0, n) holds at least `k` LFs (reads no further than the k-th). */
static bool lines_at_least(const char *p, size_t n, size_t k) {
  const char *e = p + n;
  for (size_t c = 0; c < k; c++) {
    const char *nl = p < e ? memchr(p, '\n', (size_t)(e - p)) : NULL;
    if (!nl) return false;
    p = nl + 1;
  }
  return true;
}

/* The end of the line holding byte `at - 1` (at itself when it starts a line), then `lines` more. */
static size_t forward_lines(const char *t, size_t len, size_t at, size_t lines) {
  for (size_t k = 0; k <= lines && at < len; k++) {
    if (k == 0 && (at == 0 || t[at - 1] == '\n')) continue;
    const char *nl = memchr(t + at, '\n', len - at);
    at = nl ? (size_t)(nl - t) + 1 : len;
  }
  return at;
}

static const char *read_whole(void *user, ec_arena *a, size_t start, size_t end) {
  (void)a;
  (void)end;
  return (const char *)user + start;
}

ec_error_code ec_diff_unified_stretches(ec_arena *a, ec_str old_path, ec_str new_path, ec_str old_text, ec_str new_text,
                                        size_t old_lf, const ec_diff_stretch *st, size_t n, const ec_diff_opts *opts,
                                        ec_diff_out *out, ec_diff_out *undo) {
  ec_text_reader r = {new_text.len, read_whole, (void *)(uintptr_t)(new_text.ptr ? new_text.ptr : "")};
  return ec_diff_unified_stretches_read(a, old_path, new_path, old_text, &r, old_lf, st, n, opts, out, undo);
}

ec_error_code ec_diff_unified_stretches_read(ec_arena *a, ec_str old_path, ec_str new_path, ec_str old_text,
                                             const ec_text_reader *new_text, size_t old_lf, const ec_diff_stretch *st,
                                             size_t n, const ec_diff_opts *opts, ec_diff_out *out, ec_diff_out *undo) {
  memset(out, 0, sizeof *out);
  if (undo) memset(undo, 0, sizeof *undo);
  ec_diff_opts defaults = {3, 0, 0};
  if (!opts) opts = &defaults;
  if (opts->context < 0) return EC_INVALID_PARAM;
  if (!old_text.ptr) old_text.ptr = "";
  size_t ctx = context_of(opts, old_text.len + new_text->len);
  size_t margin = ctx > SIZE_MAX / 8 ? SIZE_MAX / 8 : WINDOW_MARGIN(ctx), tight = margin - EC_DIFF_SLIDE_MARGIN;
  ec_arena *work = ec_arena_new(ec_arena_allocator(a)); /* the windows' tables: as in unified_pair */
  if (!work) return EC_OUT_OF_MEMORY;
  ec_error_code rc = EC_OK;
  part *parts = NULL;
  size_t np = 0, cap = 0, counted_to = 0, lf_before = 0, prev_hi = 0;
  ptrdiff_t lines_grown = 0; /* new lines minus old lines of the windows so far */
  for (size_t i = 0; i < n;) {
    /* One window: this stretch and every next one fewer than two margins of lines away. Text
     * outside the stretches is common, so a position moved through it keeps its offset between
     * the sides; windows apart by more than that cannot meet. */
    size_t j = i;
    while (j + 1 < n && !lines_at_least(old_text.ptr + st[j].old_end, st[j + 1].old_start - st[j].old_end, 2 * margin + 4)) j++;
    if (!EC_ARENA_RESERVE(work, parts, np, cap, 4)) { rc = EC_OUT_OF_MEMORY; break; }
    part *pt = &parts[np++];
    size_t a_lo, a_hi;
    /* Tight first only where it may stand: splices spanning this many lines mostly leave a
     * middle past EC_DIFF_TIGHT_LINES, which gets the slide room anyway (whole_file's scattered
     * changes): the tight cut would be prepared for nothing. */
    bool wide = lines_at_least(old_text.ptr + st[i].old_start, st[j].old_end - st[i].old_start, EC_DIFF_TIGHT_LINES / 2);
    for (size_t m = wide ? margin : tight;; m = margin) {
      a_lo = back_lines(old_text.ptr, st[i].old_start, m, prev_hi);
      a_hi = forward_lines(old_text.ptr, old_text.len, st[j].old_end, m);
      size_t b_lo = st[i].new_start - (st[i].old_start - a_lo), b_hi = st[j].new_end + (a_hi - st[j].old_end);
      ec_str ow = {old_text.ptr + a_lo, a_hi - a_lo}, nw = {new_text->read(new_text->user, work, b_lo, b_hi), b_hi - b_lo};
      if (!nw.ptr) { rc = EC_OUT_OF_MEMORY; break; }
      if ((rc = diff_prepared(work, ow, nw, ctx, opts->work_budget, &pt->p, &pt->sc)) != EC_OK) break;
      /* The same middle either way (outside the stretches the text is common): the tight cut
       * stands when no change can slide out of it. */
      if (m == margin || !pt->p.slides_out) break;
    }
    if (rc != EC_OK) break;
    prev_hi = a_hi;
    /* The LFs before the window, counted from the nearer of the last count and the text's end
     * (an edit near the end of a big file reads the few lines after it, not all before it). */
    if (old_lf != SIZE_MAX && old_text.len - a_lo < a_lo - counted_to)
      lf_before = old_lf - ec_count_lf(old_text.ptr + a_lo, old_text.len - a_lo);
    else
      lf_before += ec_count_lf(old_text.ptr + counted_to, a_lo - counted_to);
    counted_to = a_lo;
    pt->la = lf_before;
    pt->lb = (size_t)((ptrdiff_t)lf_before + lines_grown);
    lines_grown += (ptrdiff_t)pt->p.b.n - (ptrdiff_t)pt->p.a.n;
    i = j + 1;
  }
  if (rc == EC_OK) rc = emit_both(a, old_path, new_path, false, false, parts, np, ctx, opts, false, out, undo);
  ec_arena_free(work);
  return rc;
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
