/*
 * The merge. Walking the segments in order with a cursor in the file:
 *  - a marker keeps the file's lines between the anchors around it;
 *  - inside a segment, the lines between two anchors replace the file's lines between them
 *    (declining when far more file lines would go than the snippet writes there: code vanishing
 *    where the snippet shows no marker);
 *  - a segment's edges (lines above its first anchor, below its last) are matched against the
 *    file next to the anchor: leading context lines that equal the file's lines there stay file
 *    lines; a changed line at the edge replaces its counterpart (same head) instead of leaving
 *    both; a Python-style tail deeper than its anchor replaces the anchor's block body; the rest
 *    is inserted, and must fit the file's block structure there (no statement at the opener's
 *    own indentation right inside a block);
 *  - a segment with no anchor goes to the top (first, before a marker) or the end (last, after
 *    a marker); between two markers its place is open, so it declines;
 *  - inserted lines are re-indented relative to the nearest anchor in their segment.
 */
#include "lazy.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../match/report.h"
#include <stdarg.h>
#include <stdio.h>

typedef struct out_t {
  ec_buf b;
} out_t;

static void emit_file(ec_lz_job *job, out_t *o, size_t from, size_t to) {
  for (size_t i = from; i < to; i++) {
    ec_buf_append_str(&o->b, job->F.line[i]);
    ec_buf_append_char(&o->b, '\n');
  }
}

static ec_str lead_ws(ec_str l) {
  size_t k = 0;
  while (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
  return ec_str_make(l.ptr, k);
}

static long cols(ec_str ws) {
  long c = 0;
  for (size_t i = 0; i < ws.len; i++) c += ws.ptr[i] == '\t' ? 4 : 1;
  return c;
}

/* Snippet line j re-indented relative to reference snippet line rj sitting on file line ri. */
static void put_line(ec_lz_job *job, out_t *o, size_t j, uint32_t rj, int64_t ri) {
  ec_str l = job->S.line[j];
  ec_str ws = lead_ws(l);
  ec_str body = ec_str_make(l.ptr + ws.len, l.len - ws.len);
  while (body.len && (body.ptr[body.len - 1] == ' ' || body.ptr[body.len - 1] == '\t')) body.len--;
  if (!body.len) { ec_buf_append_char(&o->b, '\n'); return; }
  if (rj == LZ_NIL || ri < 0) {
    ec_buf_append_str(&o->b, l);
    ec_buf_append_char(&o->b, '\n');
    return;
  }
  ec_str sref = lead_ws(job->S.line[rj]), fref = lead_ws(job->F.line[ri]);
  if (ec_str_eq(sref, fref)) {
    ec_buf_append_str(&o->b, l);
    ec_buf_append_char(&o->b, '\n');
    return;
  }
  long target = cols(fref) + (cols(ws) - cols(sref));
  if (target < 0) target = 0;
  char fc = fref.len ? fref.ptr[0] : (sref.len ? sref.ptr[0] : (ws.len ? ws.ptr[0] : ' '));
  if (fc == '\t') {
    for (long k = 0; k < target / 4; k++) ec_buf_append_char(&o->b, '\t');
    for (long k = 0; k < target % 4; k++) ec_buf_append_char(&o->b, ' ');
  } else {
    for (long k = 0; k < target; k++) ec_buf_append_char(&o->b, ' ');
  }
  ec_buf_append_str(&o->b, body);
  ec_buf_append_char(&o->b, '\n');
}

/* The indentation (file columns) line j will have once re-indented. */
static long out_cols(ec_lz_job *job, size_t j, uint32_t rj, int64_t ri) {
  ec_str ws = lead_ws(job->S.line[j]);
  if (rj == LZ_NIL || ri < 0) return cols(ws);
  long t = cols(lead_ws(job->F.line[ri])) + cols(ws) - cols(lead_ws(job->S.line[rj]));
  return t < 0 ? 0 : t;
}

/* The anchored, non-blank line of the segment nearest to j (above first, then below). */
static uint32_t ref_of(ec_lz_job *job, const ec_lz_seg *s, size_t j) {
  for (size_t k = j + 1; k-- > s->j0;)
    if (job->am[k] >= 0 && !(job->S.flags[k] & LZ_BLANK)) return (uint32_t)k;
  for (size_t k = j + 1; k < s->j1; k++)
    if (job->am[k] >= 0 && !(job->S.flags[k] & LZ_BLANK)) return (uint32_t)k;
  return LZ_NIL;
}

static void put_range(ec_lz_job *job, out_t *o, const ec_lz_seg *s, size_t from, size_t to) {
  for (size_t j = from; j < to; j++) {
    uint32_t rj = ref_of(job, s, j);
    put_line(job, o, j, rj, rj == LZ_NIL ? -1 : job->am[rj]);
  }
}

static bool strong_s(const ec_lz_side *s, size_t j) { return !(s->flags[j] & (LZ_WEAK | LZ_MARKER)); }

static const char *path_of(ec_lz_job *job, int *n) {
  *n = (int)job->f->path.len;
  return job->f->path.ptr;
}

/* Declines a replacement that drops many more file lines than the snippet writes in their place. */
static ec_error_code check_deletion(ec_lz_job *job, size_t si, size_t removed_from, size_t removed, size_t written, const char *where) {
  if (removed <= 2 * written + 10) return EC_OK;
  int pn;
  const char *p = path_of(job, &pn);
  return ec_lz_decline(job, EC_NO_MATCH, si, (uint32_t)removed_from + 1, (uint32_t)(removed_from + removed),
                       "segment %u of the lazy snippet would delete lines %zu-%zu of '%.*s' (%zu lines) %s, where it writes only %zu; "
                       "nothing was changed. If that code stays, put a `// ... existing code ...` marker there; if it should go, "
                       "send the deletion as a search_replace block.",
                       (unsigned)si + 1, removed_from + 1, removed_from + removed, pn, p, removed, where, written);
}

/* An insertion right after a block opener must be indented deeper than the opener. */
static ec_error_code check_structure(ec_lz_job *job, size_t si, const ec_lz_seg *s, size_t j_from, size_t j_to, int64_t above,
                                     int64_t below) {
  ec_lz_side *F = &job->F;
  while (above >= 0 && (F->flags[above] & LZ_BLANK)) above--;
  while (below >= 0 && (size_t)below < F->n && (F->flags[below] & LZ_BLANK)) below++;
  if (above < 0 || below < 0 || (size_t)below >= F->n) return EC_OK;
  if (F->indent[below] <= F->indent[above]) return EC_OK;
  long min = -1;
  for (size_t j = j_from; j < j_to; j++) {
    if (job->S.flags[j] & LZ_BLANK) continue;
    uint32_t rj = ref_of(job, s, j);
    long c = out_cols(job, j, rj, rj == LZ_NIL ? -1 : job->am[rj]);
    if (min < 0 || c < min) min = c;
  }
  if (min < 0 || min > cols(lead_ws(F->line[above]))) return EC_OK;
  int pn;
  const char *p = path_of(job, &pn);
  ec_str t = ec_lz_trim(F->line[above]);
  return ec_lz_decline(job, EC_NO_MATCH, si, (uint32_t)above + 1, (uint32_t)below + 1,
                       "segment %u of the lazy snippet would put new code at the opener's own indentation just inside the block that "
                       "line %lld of '%.*s' opens ('%.*s'), so its anchor is probably the wrong place; nothing was changed. Include the "
                       "unchanged line right above the new code, or send search_replace blocks.",
                       (unsigned)si + 1, (long long)above + 1, pn, p, (int)(t.len > 80 ? 80 : t.len), t.ptr);
}

/* Whether weak context (P) plus replacement is backed by counterparts of the replaced lines. */
static bool pairs_counterparts(ec_lz_job *job, size_t j, size_t i, size_t r) {
  for (size_t k = 0; k < r; k++) {
    if (!strong_s(&job->S, j + k) || !strong_s(&job->F, i + k)) return false;
    if (!ec_lz_counterparts(job->S.line[j + k], job->F.line[i + k])) return false;
  }
  return true;
}

static bool any_strong(const ec_lz_side *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k++)
    if (strong_s(s, k)) return true;
  return false;
}

#define EDGE_MAX 16

/* Lines S[j0, ja) above the first anchor (file line i0); the file cursor is *c. */
static ec_error_code top_edge(ec_lz_job *job, out_t *o, size_t si, size_t ja, size_t *c) {
  ec_lz_seg *s = &job->seg[si];
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t j0 = s->j0, k = ja - j0, i0 = (size_t)job->am[ja];
  if (!k) { emit_file(job, o, *c, i0); *c = i0; return EC_OK; }
  size_t rmax = k < 8 ? k : 8;
  for (size_t r = 0; r <= rmax; r++) {
    if (i0 < r || i0 - r < *c) break;
    size_t p = i0 - r;
    size_t qmax = k - r < EDGE_MAX ? k - r : EDGE_MAX;
    for (size_t q = qmax; q >= 1; q--) {
      if (p < q || p - q < *c) continue;
      bool eq = true;
      for (size_t t = 0; t < q && eq; t++) eq = S->key[j0 + t] == F->key[p - q + t];
      if (!eq) continue;
      if (r && !any_strong(S, j0, j0 + q) && !pairs_counterparts(job, ja - r, p, r)) continue;
      if (q == k && r) continue; /* nothing new, but it would drop lines: not this */
      emit_file(job, o, *c, p);
      if (!r) {
        ec_error_code rc = check_structure(job, si, s, j0 + q, ja, (int64_t)p - 1, (int64_t)i0);
        if (rc) return rc;
      }
      put_range(job, o, s, j0 + q, ja);
      *c = i0;
      return EC_OK;
    }
  }
  /* A changed line at the segment's top edge (no unchanged line above it) replaces its
   * counterpart: walking up from the anchor, lines equal to the file's or counterparts of them,
   * up to the segment's first line, with at least one counterpart. */
  size_t r = 0, cp = 0;
  while (r < k && i0 >= r + 1 && i0 - r - 1 >= *c) {
    size_t js = ja - 1 - r, fi = i0 - 1 - r;
    if (S->key[js] == F->key[fi]) { r++; continue; }
    if (strong_s(S, js) && strong_s(F, fi) && ec_lz_counterparts(S->line[js], F->line[fi])) { r++; cp++; continue; }
    break;
  }
  if (r < k || !cp) r = 0;
  emit_file(job, o, *c, i0 - r);
  if (!r) {
    ec_error_code rc = check_structure(job, si, s, j0, ja, (int64_t)i0 - 1, (int64_t)i0);
    if (rc) return rc;
  }
  put_range(job, o, s, j0, ja);
  *c = i0;
  return EC_OK;
}

/* The end of the file block that line i opens (last non-blank line deeper than i), or i. */
static size_t block_end(ec_lz_job *job, size_t i) {
  ec_lz_side *F = &job->F;
  size_t e = i;
  for (size_t k = i + 1; k < F->n; k++) {
    if (F->flags[k] & LZ_BLANK) continue;
    if (F->indent[k] <= F->indent[i]) break;
    e = k;
  }
  return e;
}

/* Lines S(jb, j1) below the last anchor (file line ib); limit: the next segment's first anchor. */
static ec_error_code bottom_edge(ec_lz_job *job, out_t *o, size_t si, size_t jb, size_t limit, bool whole_file, size_t *c) {
  ec_lz_seg *s = &job->seg[si];
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t j1 = s->j1, k = j1 - jb - 1, ib = (size_t)job->am[jb];
  *c = ib + 1;
  if (!k) return EC_OK;
  size_t rmax = k < 8 ? k : 8;
  for (size_t r = 0; r <= rmax; r++) {
    size_t p = ib + 1 + r;
    size_t qmax = k - r < EDGE_MAX ? k - r : EDGE_MAX;
    for (size_t q = qmax; q >= 1; q--) {
      if (p + q > limit) continue;
      bool eq = true;
      for (size_t t = 0; t < q && eq; t++) eq = S->key[j1 - q + t] == F->key[p + t];
      if (!eq) continue;
      if (r && !any_strong(S, j1 - q, j1) && !pairs_counterparts(job, jb + 1, ib + 1, r)) continue;
      if (q == k && r) continue;
      if (!r) {
        ec_error_code rc = check_structure(job, si, s, jb + 1, j1 - q, (int64_t)ib, (int64_t)p);
        if (rc) return rc;
      }
      put_range(job, o, s, jb + 1, j1 - q);
      emit_file(job, o, p, p + q);
      *c = p + q;
      return EC_OK;
    }
  }
  size_t r = 0, cp = 0;
  while (r < k && ib + 1 + r < limit) {
    size_t js = jb + 1 + r, fi = ib + 1 + r;
    if (S->key[js] == F->key[fi]) { r++; continue; }
    if (strong_s(S, js) && strong_s(F, fi) && ec_lz_counterparts(S->line[js], F->line[fi])) { r++; cp++; continue; }
    break;
  }
  if (r < k || !cp) r = 0;
  if (!r) {
    /* A tail deeper than its anchor, with no marker inside the block: the block's new body. */
    bool deeper = true;
    for (size_t j = jb + 1; j < j1 && deeper; j++)
      if (!(S->flags[j] & LZ_BLANK) && S->indent[j] <= S->indent[jb]) deeper = false;
    bool marker_inside = s->marker_after && s->marker_after_indent > S->indent[jb];
    size_t be = block_end(job, ib);
    if (deeper && !marker_inside && be > ib && be < limit) {
      r = be - ib;
      ec_error_code rc = check_deletion(job, si, ib + 1, r, k, "in the block it rewrites");
      if (rc) return rc;
    } else if (whole_file) {
      size_t end = F->n;
      while (end > ib + 1 && (F->flags[end - 1] & LZ_BLANK)) end--;
      r = end - (ib + 1);
      ec_error_code rc = check_deletion(job, si, ib + 1, r, k, "at the end of the file, after its last line");
      if (rc) return rc;
    }
  }
  if (!r) {
    ec_error_code rc = check_structure(job, si, s, jb + 1, j1, (int64_t)ib, (int64_t)ib + 1);
    if (rc) return rc;
  }
  put_range(job, o, s, jb + 1, j1);
  *c = ib + 1 + r;
  return EC_OK;
}

static bool seg_first_anchor(ec_lz_job *job, const ec_lz_seg *s, size_t *ja, size_t *jb) {
  bool any = false;
  for (size_t j = s->j0; j < s->j1; j++) {
    if (job->am[j] < 0) continue;
    if (!any) *ja = j;
    *jb = j;
    any = true;
  }
  return any;
}

static void report_seg(ec_lz_job *job, size_t si, uint32_t from, uint32_t to, bool placed_only) {
  ec_lz_seg *s = &job->seg[si];
  ec_lz_report *r = &job->rep[si];
  r->start_line = from;
  r->end_line = to < from ? from : to;
  bool loose = placed_only, ws = false, trail = false;
  for (size_t j = s->j0; j < s->j1; j++) {
    if (job->am[j] < 0) continue;
    if (job->how[j] == LZ_STRUCT || job->how[j] == LZ_COUNTERPART) { if (job->how[j] == LZ_COUNTERPART) loose = true; continue; }
    ec_str a = job->S.line[j], b = job->F.line[job->am[j]];
    if (ec_str_eq(a, b)) continue;
    ec_str la = lead_ws(a), lb = lead_ws(b);
    if (!ec_str_eq(la, lb)) ws = true;
    else trail = true;
  }
  bool any_unique = false;
  for (size_t j = s->j0; j < s->j1; j++)
    if (job->am[j] >= 0 && (job->how[j] == LZ_UNIQUE || job->how[j] == LZ_RUN)) any_unique = true;
  if (!any_unique) loose = true;
  r->strategy = loose ? EC_STRATEGY_ANCHOR : ws ? EC_STRATEGY_INDENT : trail ? EC_STRATEGY_TRIM_END : EC_STRATEGY_EXACT;
  r->confidence = loose ? 0.9 : 1.0;
}

ec_error_code ec_lz_merge(ec_lz_job *job, ec_str *out) {
  ec_lz_side *S = &job->S, *F = &job->F;
  out_t o;
  ec_buf_init(&o.b, ec_arena_allocator(job->a));
  size_t guess = job->F.n ? (size_t)(job->F.line[job->F.n - 1].ptr - job->F.line[0].ptr) + job->F.line[job->F.n - 1].len : 0;
  ec_buf_reserve(&o.b, guess + guess / 8 + 4096);
  size_t c = 0;
  int pn;
  const char *p = path_of(job, &pn);
  /* Whole-file shape: no leading marker and the first literal line is the file's first line. */
  bool whole_file = false;
  if (!job->lead_marker && job->nseg) {
    size_t j = job->seg[0].j0;
    size_t f0 = 0;
    while (f0 < F->n && (F->flags[f0] & LZ_BLANK)) f0++;
    whole_file = job->am[j] == (int32_t)f0;
  }
  ec_error_code rc = EC_OK;
  for (size_t si = 0; si < job->nseg && !rc; si++) {
    ec_lz_seg *s = &job->seg[si];
    size_t ja = 0, jb = 0;
    if (!seg_first_anchor(job, s, &ja, &jb)) {
      bool last = si + 1 == job->nseg;
      if (si == 0 && !s->marker_before && s->marker_after) {
        put_range(job, &o, s, s->j0, s->j1);
        report_seg(job, si, 1, 1, true);
        continue;
      }
      if (last && s->marker_before && !s->marker_after) {
        emit_file(job, &o, c, F->n);
        c = F->n;
        put_range(job, &o, s, s->j0, s->j1);
        report_seg(job, si, (uint32_t)F->n, (uint32_t)F->n, true);
        continue;
      }
      if (job->nseg == 1 && !s->marker_before && !s->marker_after) {
        rc = EC_NO_MATCH; /* the caller reports it with candidates */
        break;
      }
      size_t next = F->n;
      for (size_t j = s->j1; j < S->n; j++)
        if (job->am[j] >= 0) { next = (size_t)job->am[j]; break; }
      rc = ec_lz_decline(job, EC_AMBIGUOUS, si, (uint32_t)c + 1, (uint32_t)next,
                         "segment %u of the lazy snippet (snippet lines %u-%u) shares no line with '%.*s', and markers or the other "
                         "segments leave its place open anywhere between lines %zu and %zu; nothing was changed. Include the unchanged "
                         "line right above or below the new code.",
                         (unsigned)si + 1, s->j0 + 1, s->j1, pn, p, c + 1, next);
      break;
    }
    size_t before = c;
    rc = top_edge(job, &o, si, ja, &c);
    if (rc) break;
    /* Anchors and the gaps between them. */
    size_t prev_j = ja;
    for (size_t j = ja; j <= jb && !rc; j++) {
      if (job->am[j] < 0) continue;
      size_t i = (size_t)job->am[j];
      if (j != ja) {
        size_t ip = (size_t)job->am[prev_j];
        rc = check_deletion(job, si, ip + 1, i - ip - 1, j - prev_j - 1, "between two of its lines that stand next to each other in the snippet");
        if (rc) break;
        put_range(job, &o, s, prev_j + 1, j);
      }
      if (job->how[j] == LZ_COUNTERPART) put_line(job, &o, j, (uint32_t)j, (int64_t)i);
      else emit_file(job, &o, i, i + 1);
      prev_j = j;
    }
    if (rc) break;
    size_t limit = F->n;
    for (size_t j = s->j1; j < S->n; j++)
      if (job->am[j] >= 0) { limit = (size_t)job->am[j]; break; }
    bool last = si + 1 == job->nseg;
    rc = bottom_edge(job, &o, si, jb, limit, last && !job->trail_marker && whole_file, &c);
    if (rc) break;
    (void)before;
    report_seg(job, si, (uint32_t)job->am[ja] + 1, (uint32_t)c, false);
  }
  if (rc) {
    ec_buf_free(&o.b);
    return rc;
  }
  emit_file(job, &o, c, F->n);
  ec_str res = ec_buf_finish(&o.b, job->a);
  if (!res.ptr) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  if (!job->file_final_lf && res.len && res.ptr[res.len - 1] == '\n') res.len--;
  *out = res;
  return EC_OK;
}

ec_error_code ec_lz_decline(ec_lz_job *job, ec_error_code code, size_t seg, uint32_t cand_from, uint32_t cand_to,
                            const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ec_str msg = {0};
  {
    va_list aq;
    va_copy(aq, ap);
    char tmp[1];
    int n = vsnprintf(tmp, 1, fmt, aq);
    va_end(aq);
    if (n >= 0) {
      char *buf = ec_arena_alloc(job->a, (size_t)n + 1);
      if (buf) {
        vsnprintf(buf, (size_t)n + 1, fmt, ap);
        msg = ec_str_make(buf, (size_t)n);
      }
    }
  }
  va_end(ap);
  if (!msg.ptr) return ec_fail(job->ctx, EC_OUT_OF_MEMORY, "out of memory");
  ec_fail(job->ctx, code, "%.*s", (int)msg.len, msg.ptr);
  ec_error *e = ec_last_error(job->ctx);
  if (e) {
    e->path = job->f->path;
    e->block = (int32_t)seg + 1;
  }
  if (cand_from) ec_lz_add_candidate(job, cand_from, cand_to);
  return code;
}

void ec_lz_add_candidate(ec_lz_job *job, uint32_t from, uint32_t to) {
  ec_error *e = ec_last_error(job->ctx);
  if (!e || !from || from > job->F.n) return;
  if (to < from) to = from;
  if (to > job->F.n) to = (uint32_t)job->F.n;
  if (to - from > 40) to = from + 40;
  ec_candidate *c = ec_arena_alloc(job->a, (e->n_candidates + 1) * sizeof *c);
  if (!c) return;
  if (e->n_candidates) memcpy(c, e->candidates, e->n_candidates * sizeof *c);
  const char *b = job->F.line[from - 1].ptr;
  const char *en = job->F.line[to - 1].ptr + job->F.line[to - 1].len;
  c[e->n_candidates] = (ec_candidate){from, to, 1.0, ec_str_make(b, (size_t)(en - b))};
  e->candidates = c;
  e->n_candidates++;
}
