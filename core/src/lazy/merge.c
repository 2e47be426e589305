/*
 * The merge. Walking the segments in order with a cursor in the file:
 *  - a marker keeps the file's lines between the anchors around it;
 *  - inside a segment, the lines between two anchors replace the file's lines between them
 *    (declining when far more file lines would go than the snippet writes there: code vanishing
 *    where the snippet shows no marker);
 *  - a segment's edges (lines above its first anchor, below its last) are matched against the
 *    file next to the anchor: leading context lines that equal the file's lines there stay file
 *    lines; a changed line at the edge replaces its counterpart (same head, or one line extending
 *    the other) instead of leaving both, at the file's start too (a whole-file snippet's edited
 *    first lines); lines right above the anchor equal to the file's are those lines and new
 *    statements go above them; a Python-style tail deeper than its anchor replaces the anchor's
 *    block body (unless a bracket it opens stays open: then the marker after is inside); the
 *    rest is inserted, and must fit the file's block structure there (no statement at the
 *    opener's own indentation right inside a block);
 *  - a segment with no anchor goes to the top (first, before a marker) or the end (last, after
 *    a marker) only at the top level (no block of the snippet open around it); after a marker
 *    inside a block the snippet opened, to the end of that block's body; else it declines;
 *  - blank lines next to a marker are spacing: dropped where the file has its own blank line;
 *    a marker whose run is only blank lines between two lines the snippet writes writes nothing
 *    (the snippet's own blank line beside it, if it shows one);
 *  - inserted lines are re-indented relative to the nearest anchor in their segment, converting
 *    levels between a tab-indented side and a space-indented one (indent.c);
 *  - the output leaves the file's unchanged head and tail uncopied (job->out_head/out_tail).
 */
#include "lazy.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../messages/report.h"
#include <stdio.h>

/* The output: the file's first head_lines lines (not copied while nothing else was written),
 * then the buffer. ec_lz_merge leaves the file's tail uncopied too (ec_lz_job.out_*). */
typedef struct out_t {
  ec_buf b;
  size_t head_lines;
  bool head_open;
  /* A marker's run of only blank lines written right after a snippet line stands for no line of
   * the file: written from byte run_at (or counted into the head from line run_head), it is taken
   * back when the next line written is the snippet's too (run: nothing written since); after a
   * kept file line (run_new false) only for spacing the snippet shows beside the marker.
   * at_marker: the next file lines are a marker's run. */
  bool at_marker, after_new, run, run_new;
  size_t run_at, run_head;
} out_t;

static void emit_file(ec_lz_job *job, out_t *o, size_t from, size_t to) {
  if (from < to) {
    o->run = o->at_marker;
    o->run_new = o->after_new;
    o->run_head = o->head_lines;
    for (size_t i = from; o->run && i < to; i++) o->run = (job->F.flags[i] & LZ_BLANK) != 0;
    o->run_at = o->b.len;
    o->after_new = false;
  }
  o->at_marker = false;
  if (o->head_open && from == o->head_lines) {
    /* Still the file's own start: only count it (never the last line when it has no LF). */
    size_t lim = job->file_final_lf ? job->F.n : job->F.n - 1;
    size_t e = to < lim ? to : lim;
    if (e > from) o->head_lines = e;
    from = o->head_lines > from ? o->head_lines : from;
    if (from >= to) return;
  }
  o->head_open = false;
  if (to > from && !job->F.cr) {
    /* The file's lines are one run of text: copy it at once. */
    const char *b = job->F.line[from].ptr, *e = job->F.line[to - 1].ptr + job->F.line[to - 1].len;
    ec_buf_append(&o->b, b, (size_t)(e - b));
    ec_buf_append_char(&o->b, '\n');
    return;
  }
  for (size_t i = from; i < to; i++) {
    ec_buf_append_line(&o->b, job->F.line[i]);
  }
}

static ec_str lead_ws(ec_str l) {
  size_t k = 0;
  while (k < l.len && (l.ptr[k] == ' ' || l.ptr[k] == '\t')) k++;
  return ec_str_make(l.ptr, k);
}

/* The file columns snippet line j takes when re-indented relative to reference snippet line rj
 * sitting on file line ri: the reference's file indentation plus j's offset from the reference
 * in the snippet (in file levels when the two sides' units differ, indent.c). */
static long out_cols(ec_lz_job *job, size_t j, uint32_t rj, int64_t ri) {
  long sj = (long)ec_lz_cols(job->S.line[j], job->si.tab);
  if (rj == LZ_NIL || ri < 0) return ec_lz_map_delta(sj, &job->si, &job->fi);
  long t = (long)ec_lz_cols(job->F.line[ri], job->fi.tab) + ec_lz_map_delta(sj - (long)ec_lz_cols(job->S.line[rj], job->si.tab), &job->si, &job->fi);
  return t < 0 ? 0 : t;
}

/* Snippet line j re-indented relative to reference snippet line rj sitting on file line ri. */
static void put_line(ec_lz_job *job, out_t *o, size_t j, uint32_t rj, int64_t ri) {
  if (o->run) {
    /* The snippet's spacing there instead: a blank line when it shows one beside the marker.
     * After a kept file line the run is that line's own spacing, replaced only by spacing the
     * snippet shows there. */
    bool shown = false;
    for (size_t k = j; k-- && (job->S.flags[k] & (LZ_BLANK | LZ_MARKER));) shown |= (job->S.flags[k] & LZ_BLANK) != 0;
    if (o->run_new || shown) {
      o->b.len = o->run_at;
      o->head_lines = o->run_head; /* the run may have been the file's still uncopied head */
      if (shown && !(job->S.flags[j] & LZ_BLANK)) ec_buf_append_char(&o->b, '\n');
    }
  }
  o->run = o->at_marker = false;
  o->after_new = true;
  o->head_open = false;
  ec_str l = job->S.line[j];
  ec_str ws = lead_ws(l);
  ec_str body = ec_str_make(l.ptr + ws.len, l.len - ws.len);
  while (body.len && (body.ptr[body.len - 1] == ' ' || body.ptr[body.len - 1] == '\t')) body.len--;
  bool same_style = job->si.tabs == job->fi.tabs && !job->si.rescale; /* columns carry over as they are */
  if (!body.len) {
    /* A blank line written over a blank line of the file (its counterpart, one for one) is the
     * file's line as it is: spaces on it stay, the line is not touched. The snippet's own line
     * of spaces is written as it shows it where the file keeps such lines (its habit). */
    if (rj == j && ri >= 0 && (size_t)ri < job->F.n && (job->F.flags[ri] & LZ_BLANK)) ec_buf_append_str(&o->b, job->F.line[ri]);
    else if (job->F.spaced && same_style) ec_buf_append_str(&o->b, l);
    ec_buf_append_char(&o->b, '\n');
    return;
  }
  if ((rj == LZ_NIL || ri < 0) && same_style) {
    ec_buf_append_line(&o->b, l);
    return;
  }
  if (rj != LZ_NIL && ri >= 0) {
    ec_str sref = lead_ws(job->S.line[rj]), fref = lead_ws(job->F.line[ri]);
    if (ec_str_eq(sref, fref) && same_style) {
      ec_buf_append_line(&o->b, l);
      return;
    }
  }
  /* The file's own character: the reference line's, else the file's habit. */
  bool tabs = job->fi.tabs;
  if (rj != LZ_NIL && ri >= 0 && job->F.indent[ri]) tabs = job->F.line[ri].ptr[0] == '\t';
  ec_lz_put_indent(&o->b, out_cols(job, j, rj, ri), tabs, job->fi.tab);
  ec_buf_append_line(&o->b, body);
}

/* Whether snippet line j, written over file line i as an edited version of it, moves into another
 * block: in a language whose indentation is syntax, its depth relative to the anchored line ja
 * above it differs from the file's by a whole level or more. The snippet's depth is then the
 * change (`b()` taken out of an `if` by its indentation alone): kept at the file's, the line would
 * stay in the old block, and the merge answer NOOP or change what the code does. A line the file
 * continues from the line above (inside brackets, a string, after a `\`) keeps its column. */
static bool moved_depth(ec_lz_job *job, size_t j, size_t i, size_t ja) {
  if (!job->offside || j == ja || !job->fi.unit || (job->S.flags[j] & LZ_BLANK) || ec_lz_comment_only(job->S.line[j])) return false;
  long want = out_cols(job, j, (uint32_t)ja, job->am[ja]), have = (long)ec_lz_cols(job->F.line[i], job->fi.tab);
  if (want - have < (long)job->fi.unit && have - want < (long)job->fi.unit) return false;
  /* Line i begins a statement in the file (no open bracket, `\` or string going on above it). */
  if (!job->py_start) {
    job->py_start = ec_arena_calloc(job->a, job->F.n + 1, 1);
    if (!job->py_start) return false;
    ec_lz_python_scan(job->F.line, sizeof *job->F.line, job->F.n, job->a, job->py_start);
  }
  return job->py_start[i];
}

/* The anchored, non-blank line of the segment nearest to j (above first, then below), for j
 * rising from one call to the next (a walk over a range of lines): each line is looked at once.
 * Asked afresh for every line, a segment of 100,000 new lines under one anchor was quadratic. */
typedef struct ref_walk {
  size_t at;           /* the last j asked about (SIZE_MAX: none yet) */
  uint32_t above, below;
} ref_walk;

#define REF_WALK_INIT {SIZE_MAX, LZ_NIL, LZ_NIL}

static bool ref_line(const ec_lz_job *job, size_t k) { return job->am[k] >= 0 && !(job->S.flags[k] & LZ_BLANK); }

static uint32_t ref_of(ec_lz_job *job, const ec_lz_seg *s, size_t j, ref_walk *w) {
  if (w->at == SIZE_MAX) {
    for (size_t k = j + 1; k-- > s->j0 && w->above == LZ_NIL;)
      if (ref_line(job, k)) w->above = (uint32_t)k;
  } else {
    for (size_t k = w->at + 1; k <= j; k++)
      if (ref_line(job, k)) w->above = (uint32_t)k;
  }
  w->at = j;
  if (w->above != LZ_NIL) return w->above;
  if (w->below == LZ_NIL || w->below <= j) {
    w->below = LZ_NIL;
    for (size_t k = j + 1; k < s->j1 && w->below == LZ_NIL; k++)
      if (ref_line(job, k)) w->below = (uint32_t)k;
  }
  return w->below;
}

/* Inserts snippet lines [from, to), re-indented. Blank lines next to a marker are spacing, not
 * code: at the segment's start after a marker they are left out when the output already ends
 * in a blank line (or is empty); at its end before a marker, when the file resumes (line
 * `resume`) with a blank line or ends there. */
static void put_range_at(ec_lz_job *job, out_t *o, const ec_lz_seg *s, size_t from, size_t to, size_t resume) {
  if (from == s->j0 && s->marker_before) {
    size_t n = o->b.len;
    bool blank_before = n ? n >= 2 && o->b.ptr[n - 1] == '\n' && o->b.ptr[n - 2] == '\n'
                          : !o->head_lines || (job->F.flags[o->head_lines - 1] & LZ_BLANK);
    while (blank_before && from < to && (job->S.flags[from] & LZ_BLANK)) from++;
  }
  if (to == s->j1 && s->marker_after && resume != SIZE_MAX && (resume >= job->F.n || (job->F.flags[resume] & LZ_BLANK)))
    while (to > from && (job->S.flags[to - 1] & LZ_BLANK)) to--;
  ref_walk w = REF_WALK_INIT;
  for (size_t j = from; j < to; j++) {
    uint32_t rj = ref_of(job, s, j, &w);
    put_line(job, o, j, rj, rj == LZ_NIL ? -1 : job->am[rj]);
  }
}

static void put_range(ec_lz_job *job, out_t *o, const ec_lz_seg *s, size_t from, size_t to) {
  put_range_at(job, o, s, from, to, SIZE_MAX);
}

static bool strong_s(const ec_lz_side *s, size_t j) { return !(s->flags[j] & (LZ_WEAK | LZ_MARKER)); }

static const char *path_of(ec_lz_job *job, int *n) {
  *n = (int)job->f->path.len;
  return job->f->path.ptr;
}

/* The decline for lines a replacement would delete past what the snippet says (check_deletion's
 * bound, or a new block written over its look-alike siblings): where, how many, and what to send. */
static ec_error_code deletion_decline(ec_lz_job *job, size_t si, size_t removed_from, size_t removed, size_t written, const char *where) {
  int pn;
  const char *p = path_of(job, &pn);
  return ec_lz_decline(job, EC_NO_MATCH, si, (uint32_t)removed_from + 1, (uint32_t)(removed_from + removed),
                       "%s would delete lines %zu-%zu of '%.*s' (%zu lines) %s, where it writes only %zu; "
                       "nothing was changed. If that code stays, put a `// ... existing code ...` marker there; if it should go, "
                       "send the deletion as a search_replace block.",
                       ec_lz_seg_name(job, si), removed_from + 1, removed_from + removed, pn, p, removed, where, written);
}

/* Declines a replacement that drops many more file lines than the snippet writes in their place:
 * more than 2 x written + 10 (the same bound in rewrite.c's dense() and in verify.c). Swept
 * (bench/threshold_sweep.mjs; ACCURACY.md, "Thresholds"): + 0 declines 12 cases of the set that
 * delete a function by leaving it out (csvtools_delete_*, *_helper); + 5, or 1 x written, loses 2
 * variants more; + 20 gains 2 variants (one context line less in csvtools_delete_tojson) and no
 * bound at all fails lazy-decline-vanishing (a segment that would silently drop many functions).
 * 10 stays: it is what a snippet may delete unannounced, and + 20 buys 2 of 5,146 variants. */
static ec_error_code check_deletion(ec_lz_job *job, size_t si, size_t removed_from, size_t removed, size_t written, const char *where) {
  return removed <= 2 * written + 10 ? EC_OK : deletion_decline(job, si, removed_from, removed, written, where);
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
  ref_walk w = REF_WALK_INIT;
  for (size_t j = j_from; j < j_to; j++) {
    if (job->S.flags[j] & LZ_BLANK) continue;
    uint32_t rj = ref_of(job, s, j, &w);
    long c = out_cols(job, j, rj, rj == LZ_NIL ? -1 : job->am[rj]);
    if (min < 0 || c < min) min = c;
  }
  if (min < 0 || min > (long)ec_lz_cols(F->line[above], job->fi.tab)) return EC_OK;
  int pn;
  const char *p = path_of(job, &pn);
  ec_str t = ec_lz_echo(F->line[above]);
  return ec_lz_decline(job, EC_NO_MATCH, si, (uint32_t)above + 1, (uint32_t)below + 1,
                       "%s would put new code at the opener's own indentation just inside the block that "
                       "line %lld of '%.*s' opens ('%.*s'), so its anchor is probably the wrong place; nothing was changed. Include the "
                       "unchanged line right above the new code, or send search_replace blocks.",
                       ec_lz_seg_name(job, si), (long long)above + 1, pn, p, (int)t.len, t.ptr);
}

/* Whether weak context (P) plus replacement is backed by counterparts of the replaced lines. */
static bool pairs_counterparts(ec_lz_job *job, size_t j, size_t i, size_t r) {
  for (size_t k = 0; k < r; k++) {
    if (!strong_s(&job->S, j + k) || !strong_s(&job->F, i + k)) return false;
    if (!ec_lz_counterparts(job->S.line[j + k], job->F.line[i + k])) return false;
  }
  return true;
}

/* Whether the n snippet lines from j rewrite the r file lines from i, so that weak context (`}`,
 * `) {`) beyond them may be trusted as the file's next lines (docs/lazy.md, "the edge rewrite"):
 * each non-blank snippet line is, in order, its own file line there or an edited version of it,
 * at least one edited (the file lines between them are deleted: no marker stands between). */
static bool edge_rewrite(ec_lz_job *job, size_t j, size_t n, size_t i, size_t r) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  size_t f = i, edited = 0;
  for (size_t t = j; t < j + n; t++) {
    if (S->flags[t] & LZ_BLANK) continue;
    while (f < i + r && S->key[t] != F->key[f] && !(strong_s(S, t) && strong_s(F, f) && ec_lz_counterparts(S->line[t], F->line[f]))) f++;
    if (f < i + r && S->key[t] != F->key[f]) edited++;
    f++;
  }
  return edited && f <= i + r;
}

static bool any_strong(const ec_lz_side *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k++)
    if (strong_s(s, k)) return true;
  return false;
}

static bool any_nonblank(const ec_lz_side *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k++)
    if (!(s->flags[k] & LZ_BLANK)) return true;
  return false;
}

/* Whether the r snippet lines from j edit the r file lines from i one for one: each a blank line
 * facing a blank line, or an edited version of its file line (ec_lz_similar, loose). */
static bool replaced_in_place(ec_lz_job *job, size_t j, size_t i, size_t r) {
  if (!r) return false;
  for (size_t k = 0; k < r; k++) {
    bool bs = (job->S.flags[j + k] & LZ_BLANK) != 0, bf = (job->F.flags[i + k] & LZ_BLANK) != 0;
    if (bs != bf) return false;
    if (!bs && !ec_lz_similar(job->S.line[j + k], job->F.line[i + k], true)) return false;
  }
  return true;
}

/* Leading or trailing context of up to 16 lines equal to the file's next to an anchor is matched as
 * one run. Swept (bench/threshold_sweep.mjs; ACCURACY.md, "Thresholds"): 8-32 give the same
 * results; at 4 lazy-edge-two-equal-loops fails, at 2 three cases of the set merge WRONG (the
 * three models' sr_typing_backports, subgraph_rewriter.py) — 16 is twice the smallest safe value. */
#define EDGE_MAX 16

/* Whether snippet line j on file line i keeps the indentation it has relative to the anchor
 * (snippet line ja on file line ia): context found at another depth is another statement. */
static bool same_depth(ec_lz_job *job, size_t j, size_t i, size_t ja, size_t ia) {
  if ((job->S.flags[j] & LZ_BLANK) || (job->F.flags[i] & LZ_BLANK)) return true;
  long ds = (long)ec_lz_cols(job->S.line[j], job->si.tab) - (long)ec_lz_cols(job->S.line[ja], job->si.tab);
  long df = (long)ec_lz_cols(job->F.line[i], job->fi.tab) - (long)ec_lz_cols(job->F.line[ia], job->fi.tab);
  return ec_lz_map_delta(ds, &job->si, &job->fi) == df;
}

/* Another place in file lines [lo, hi) where snippet lines [j, j + q) occur, whose distance to
 * the anchor fits the m snippet lines written between them at least as well as the chosen
 * place's `r` replaced lines does; SIZE_MAX when none. `top`: context above the anchor at file
 * line `edge` (distance edge - (t + q)), else below the anchor's next line `edge` (t - edge). */
static size_t context_elsewhere(ec_lz_job *job, size_t j, size_t q, size_t lo, size_t hi, size_t at, bool top, size_t edge, size_t r, size_t m) {
  size_t best = r > m ? r - m : m - r;
  for (size_t t = lo; t + q <= hi; t++) {
    if (t == at) continue;
    job->work += q;
    size_t u = 0;
    while (u < q && job->S.key[j + u] == job->F.key[t + u]) u++;
    if (u < q) continue;
    if (top ? t + q > edge : t < edge) continue;
    size_t r2 = top ? edge - (t + q) : t - edge, d = r2 > m ? r2 - m : m - r2;
    if (d <= best) return t;
  }
  return SIZE_MAX;
}

static ec_error_code ambiguous_context(ec_lz_job *job, size_t si, size_t at, size_t other, size_t q) {
  int pn;
  const char *p = path_of(job, &pn);
  ec_lz_decline(job, EC_AMBIGUOUS, si, (uint32_t)at + 1, (uint32_t)(at + q),
                "%s starts or ends with %zu unchanged line(s) that occur at lines %zu and %zu of '%.*s', "
                "and which one it continues from decides which lines it replaces; nothing was changed. Include more unchanged "
                "lines (up to a line that occurs once), or send search_replace blocks.",
                ec_lz_seg_name(job, si), q, (other < at ? other : at) + 1, (other < at ? at : other) + 1, pn, p);
  ec_lz_add_candidate(job, (uint32_t)other + 1, (uint32_t)(other + q));
  return EC_AMBIGUOUS;
}

/* The file's start: whether the k snippet lines from j0 stand for the file's first k lines, each
 * the same line or an edited version of it (ec_lz_similar; `loose` also accepts a shared start
 * and end), at least one of them edited. */
static bool file_start_pairs(ec_lz_job *job, size_t j0, size_t k, bool loose) {
  ec_lz_side *S = &job->S, *F = &job->F;
  if (!k || k > F->n) return false;
  size_t edited = 0;
  for (size_t t = 0; t < k; t++) {
    if (S->key[j0 + t] == F->key[t]) continue;
    if ((S->flags[j0 + t] | F->flags[t]) & (LZ_BLANK | LZ_WEAK | LZ_MARKER)) return false;
    if (!ec_lz_similar(S->line[j0 + t], F->line[t], loose)) return false;
    edited++;
  }
  return edited > 0;
}

/* Whether the strong lines S[j0, j0 + k) and F[0, i0) each have an edited version (similar,
 * not equal) on the other side, blank lines aside and at least one on each side; weak lines
 * (`}`, `end`) are not asked about on either side. Bounded: EDGE_MAX lines on each side. */
static bool rewrites_file_start(ec_lz_job *job, size_t j0, size_t k, size_t i0) {
  ec_lz_side *S = &job->S, *F = &job->F;
  if (k > EDGE_MAX || i0 > EDGE_MAX) return false;
  size_t ns = 0, nf = 0;
  for (size_t j = j0; j < j0 + k; j++) {
    if (S->flags[j] & LZ_BLANK) continue;
    if (S->flags[j] & (LZ_WEAK | LZ_MARKER)) return false;
    bool any = false;
    for (size_t i = 0; i < i0 && !any; i++)
      any = !(F->flags[i] & (LZ_BLANK | LZ_WEAK)) && F->key[i] != S->key[j] && ec_lz_similar(S->line[j], F->line[i], false);
    if (!any) return false;
    ns++;
  }
  for (size_t i = 0; i < i0; i++) {
    if (F->flags[i] & LZ_BLANK) continue;
    if (F->flags[i] & LZ_WEAK) return false;
    bool any = false;
    for (size_t j = j0; j < j0 + k && !any; j++)
      any = !(S->flags[j] & LZ_BLANK) && F->key[i] != S->key[j] && ec_lz_similar(S->line[j], F->line[i], false);
    if (!any) return false;
    nf++;
  }
  return ns && nf;
}

/* Lines that are commonly added above others at a file's top (imports, includes). */
static bool prepend_line(ec_str l) {
  static const char *const KW[] = {"import", "from", "#include", "include", "use", "require", "using", "@import", NULL};
  ec_str t = ec_lz_trim(l);
  for (size_t i = 0; KW[i]; i++) {
    size_t n = strlen(KW[i]);
    if (t.len > n && !memcmp(t.ptr, KW[i], n) && (t.ptr[n] == ' ' || t.ptr[n] == '(' || t.ptr[n] == '<' || t.ptr[n] == '"')) return true;
  }
  return false;
}

/* Writes snippet lines [j0, j0 + k) over the file's first k lines: a line equal to the file's
 * keeps the file's text, an edited one is re-indented like its counterpart. */
static void put_file_start(ec_lz_job *job, out_t *o, size_t j0, size_t k) {
  for (size_t t = 0; t < k; t++) {
    if (job->S.key[j0 + t] == job->F.key[t]) emit_file(job, o, t, t + 1);
    else put_line(job, o, j0 + t, (uint32_t)(j0 + t), (int64_t)t);
  }
}

/* Whether new lines S[j0, jr) end inside a block one of them opens, which the closing line at jr
 * (`end`, `}`, `fi`: a weak line) closes: their last line is deeper than jr, and a line of theirs
 * above it is at jr's depth or shallower (`local function q()` ... `  return m` then `end`). The
 * closing line is theirs then, not the file's equal line before the anchor (that one closes the
 * file's previous block, which would be left open). The bracket count says this for braces;
 * this says it for keyword-closed blocks. Only a line that closes (`end...`, `fi`, `done`,
 * `esac`, more closing brackets than opening): a weak `return` or `pass` after an `if` body is
 * the file's own line. */
static bool closing_line(ec_str line) {
  ec_str t = ec_lz_trim(line);
  if (ec_lz_bracket_net(line) < 0) return true;
  return (t.len >= 3 && !memcmp(t.ptr, "end", 3)) || ec_str_eq_cstr(t, "fi") || ec_str_eq_cstr(t, "done") || ec_str_eq_cstr(t, "esac");
}

static bool new_lines_close_with(ec_lz_job *job, size_t j0, size_t jr) {
  ec_lz_side *S = &job->S;
  if ((S->flags[jr] & (LZ_BLANK | LZ_MARKER)) || !(S->flags[jr] & LZ_WEAK) || !closing_line(S->line[jr])) return false;
  size_t last = jr;
  while (last > j0 && (S->flags[last - 1] & LZ_BLANK)) last--;
  if (last == j0 || S->indent[last - 1] <= S->indent[jr]) return false;
  for (size_t j = last - 1; j-- > j0;)
    if (!(S->flags[j] & LZ_BLANK) && S->indent[j] <= S->indent[jr]) return true;
  return false;
}

/* The lines of segment s above its first anchor ja (spacing after a marker aside) as edited
 * versions of the file lines right above the anchor, one for one, at least one edited (the rest
 * equal), none above the cursor c: their count, else 0. */
static size_t edited_top(ec_lz_job *job, const ec_lz_seg *s, size_t ja, size_t c) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t i0 = (size_t)job->am[ja], r = 0, cp = 0, kk = ja - s->j0;
  while (kk && s->marker_before && (S->flags[ja - kk] & LZ_BLANK)) kk--; /* spacing after the marker */
  while (r < kk && i0 >= r + 1 && i0 - r - 1 >= c) {
    size_t js = ja - 1 - r, fi = i0 - 1 - r;
    if (!same_depth(job, js, fi, ja, i0)) break;
    if (S->key[js] == F->key[fi]) { r++; continue; }
    if (strong_s(S, js) && strong_s(F, fi) && ec_lz_edited(S->line[js], F->line[fi])) { r++; cp++; continue; }
    break;
  }
  return r < kk || !cp ? 0 : r;
}

/* Whether two lines go on one list: the same first word (`import`, `#include`, a key), or both
 * import lines, in one language's two forms (`import json` after `from typing import List`,
 * `require 'time'` after `require_relative 'item'`). */
static bool on_one_list(ec_str a, ec_str b) { return ec_lz_same_first_token(a, b) || (ec_lz_names_import(a) && ec_lz_names_import(b)); }

/* Lines S[j0, ja) above the first anchor (file line i0); the file cursor is *c. */
static ec_error_code top_edge(ec_lz_job *job, out_t *o, size_t si, size_t ja, size_t *c) {
  ec_lz_seg *s = &job->seg[si];
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t j0 = s->j0, k = ja - j0, i0 = (size_t)job->am[ja];
  /* Blank lines between a marker and the line the file has there (kept, or edited in place) are
   * the marker's spacing: the file's own lines above that line stay as they are (a comment kept
   * right above a method does not get a blank line under it). */
  if (k && s->marker_before && !any_nonblank(S, j0, ja)) k = 0;
  if (!k) {
    /* A snippet written from the file's start (no leading marker, its first line the file's first
     * non-blank one) with fewer blank lines above it than the file has there: the file keeps the
     * snippet's count. None above it, or over a file starting with code, they are padding. */
    size_t keep = i0;
    if (si == 0 && !job->lead_marker && !job->diff_style && *c == 0 && job->lead_blanks && !any_nonblank(F, 0, i0))
      keep = job->lead_blanks < i0 ? job->lead_blanks : i0;
    emit_file(job, o, *c, keep);
    *c = i0;
    return EC_OK;
  }
  /* A whole-file snippet whose first lines are edited versions of the file's first lines (as
   * many lines above the same anchor): they replace them, like a changed line at any edge. */
  if (si == 0 && !job->lead_marker && *c == 0 && k == i0 && file_start_pairs(job, j0, k, true)) {
    put_file_start(job, o, j0, k);
    *c = i0;
    return EC_OK;
  }
  /* The same when the counts differ (seven imports consolidated into two): every line above the
   * anchor, on either side, is an edited version of a line above it on the other side, so the
   * snippet's lines there are the file's first lines rewritten, not lines added under them (kept,
   * each would stand beside its own replacement: invariant a). */
  if (si == 0 && !job->lead_marker && *c == 0 && i0 && k != i0 && rewrites_file_start(job, j0, k, i0)) {
    /* Blank lines at the file's very start are not among the rewritten lines (the snippet's own
     * leading blank lines were dropped as padding): they stay, as they do when the snippet's
     * first line is the file's own. */
    size_t fb = 0;
    while (fb < i0 && (F->flags[fb] & LZ_BLANK)) fb++;
    emit_file(job, o, 0, fb);
    put_range(job, o, s, j0, ja);
    *c = i0;
    return EC_OK;
  }
  /* New lines between leading context and a run of lines right above the anchor, both equal
   * to the file's consecutive lines there (`}`, `} else {`, new, `f(x);`, anchor): inserted
   * between them, nothing replaced. */
  size_t emax = 0; /* the longest run */
  while (emax + 2 < k && emax < EDGE_MAX && i0 >= emax + 1 && i0 - emax - 1 >= *c && S->key[ja - emax - 1] == F->key[i0 - emax - 1] &&
         job->am[ja - emax - 1] < 0 && same_depth(job, ja - emax - 1, i0 - emax - 1, ja, i0))
    emax++;
  for (size_t e = emax; e >= 1 && e == emax; e--) { /* the whole run: a shorter one would call a file line new */
    size_t js = ja - e, fi = i0 - e;
    for (size_t q = k - e - 1 < EDGE_MAX ? k - e - 1 : EDGE_MAX; q >= 1; q--) {
      if (fi < q || fi - q < *c) continue;
      bool eq = true;
      for (size_t t = 0; t < q && eq; t++) eq = S->key[j0 + t] == F->key[fi - q + t] && same_depth(job, j0 + t, fi - q + t, ja, i0);
      if (!eq || (!any_strong(S, j0, j0 + q) && !any_strong(S, js, ja))) continue;
      if (any_strong(S, j0, j0 + q)) {
        size_t w = 64 + 2 * k, lo = fi - q > *c + w ? fi - q - w : *c;
        size_t other = context_elsewhere(job, j0, q, lo, fi, fi - q, true, fi, 0, js - j0 - q);
        if (other != SIZE_MAX) return ambiguous_context(job, si, fi - q, other, q);
      }
      for (size_t t = 0; t < e; t++) {
        job->am[js + t] = (int32_t)(fi + t);
        job->how[js + t] = LZ_RUN;
      }
      emit_file(job, o, *c, fi);
      ec_error_code rc = check_structure(job, si, s, j0 + q, js, (int64_t)fi - 1, (int64_t)fi);
      if (rc) return rc;
      put_range(job, o, s, j0 + q, js);
      emit_file(job, o, fi, i0);
      *c = i0;
      return EC_OK;
    }
  }
  /* Up to 8 file lines between the context and the anchor edited in place (r). Swept: 1-16 give
   * the same results on the set, its variants, conformance and unit tests (none edits more than
   * one line there); 8 is a bound on the work, not a tuned value. */
  size_t rmax = k < 8 ? k : 8;
  for (size_t r = 0; r <= rmax; r++) {
    if (i0 < r || i0 - r < *c) break;
    size_t p = i0 - r;
    size_t qmax = k - !!r < EDGE_MAX ? k - !!r : EDGE_MAX; /* r: one new line at least; q + r > k: edge_rewrite */
    for (size_t q = qmax; q >= 1; q--) {
      if (p < q || p - q < *c) continue;
      bool eq = true;
      for (size_t t = 0; t < q && eq; t++) eq = S->key[j0 + t] == F->key[p - q + t] && same_depth(job, j0 + t, p - q + t, ja, i0);
      if (!eq) continue;
      if (q + r > k ? !edge_rewrite(job, j0 + q, k - q, p, r) : r && !any_strong(S, j0, j0 + q) && !pairs_counterparts(job, ja - r, p, r)) continue;
      /* Spacing after a marker is no context when the lines under it edit the file's lines
       * above the anchor one for one (a renamed wrapper over an unchanged next section): blank
       * lines alone do not say the new lines go below them rather than over those lines. */
      if (s->marker_before && !any_nonblank(S, j0, j0 + q) && edited_top(job, s, ja, *c)) continue;
      if (any_strong(S, j0, j0 + q)) {
        /* Context is trusted only where no other place near the anchor fits what the snippet
         * writes as well (two equal loops in a row). */
        size_t w = 64 + 2 * k, lo = p - q > *c + w ? p - q - w : *c;
        size_t other = context_elsewhere(job, j0, q, lo, i0, p - q, true, i0, r, ja - j0 - q);
        if (other != SIZE_MAX) return ambiguous_context(job, si, p - q, other, q);
      }
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
  size_t r = edited_top(job, s, ja, *c);
  if (!r) {
    /* The segment's first line is an edited version of a file line a few lines above the anchor
     * (a signature changed, with new lines added under it): the snippet's lines replace the
     * file's from that line to the anchor, each file line between found among them in order. */
    size_t jf = j0;
    while (jf < ja && (S->flags[jf] & LZ_BLANK)) jf++;
    if (jf < ja && strong_s(S, jf)) {
      size_t found = SIZE_MAX, nfound = 0;
      for (size_t p = i0; p-- > *c && i0 - p <= ja - jf;) {
        if (!strong_s(F, p) || S->key[jf] == F->key[p] || !same_depth(job, jf, p, ja, i0) || !ec_lz_edited(S->line[jf], F->line[p])) continue;
        if (!nfound) found = p;
        nfound++;
      }
      if (nfound == 1) {
        size_t jj = jf + 1;
        bool all = true;
        for (size_t fi = found + 1; fi < i0 && all; fi++) {
          if (F->flags[fi] & LZ_BLANK) continue;
          while (jj < ja && S->key[jj] != F->key[fi]) jj++;
          if (jj >= ja) all = false;
          else jj++;
        }
        if (all) {
          emit_file(job, o, *c, found);
          put_line(job, o, jf, (uint32_t)jf, (int64_t)found);
          put_range(job, o, s, jf + 1, ja);
          *c = i0;
          return EC_OK;
        }
      }
    }
    /* Lines right above the anchor that equal the file's lines right above it are those lines
     * (`res.send(x); return x;` before the closing `}`); the new lines go above them. */
    size_t e = 0;
    while (e < k && i0 >= e + 1 && i0 - e - 1 >= *c && S->key[ja - 1 - e] == F->key[i0 - 1 - e] && job->am[ja - 1 - e] < 0 &&
           same_depth(job, ja - 1 - e, i0 - 1 - e, ja, i0))
      e++;
    size_t e0 = e, jn = j0;
    while (e && (S->flags[ja - e] & LZ_BLANK)) e--; /* a blank line at the run's top belongs to the new code */
    /* Unless the run is blank lines only and the new lines go on the list the marker's run ends
     * with (`import json` after the file's `import sys`, then a blank line and the anchor): the
     * snippet's blank lines are the file's, below the new lines, not more under them. */
    while (jn < ja && (S->flags[jn] & LZ_BLANK)) jn++;
    if (!e && e0 && e0 < k && i0 > e0 && on_one_list(S->line[jn], F->line[i0 - e0 - 1])) e = e0;
    /* Only when the new lines are whole statements next to the run, not a block the run ends
     * (`exp() {` + body above a `return this; }` that equals the previous method's end):
     * their brackets balance and the run is no deeper than they are. */
    if (e && e < k) {
      uint32_t run_max = 0, new_min = UINT32_MAX;
      int32_t net = 0;
      for (size_t j = ja - e; j < ja; j++)
        if (!(S->flags[j] & LZ_BLANK) && S->indent[j] > run_max) run_max = S->indent[j];
      for (size_t j = j0; j < ja - e; j++) {
        if (S->flags[j] & LZ_BLANK) continue;
        if (S->indent[j] < new_min) new_min = S->indent[j];
        net += ec_lz_bracket_net(S->line[j]);
      }
      /* Nothing above the run but spacing after the marker: the segment starts with lines the
       * file has right above the anchor (a decorator over an unchanged `def`), no new line. */
      if (new_min == UINT32_MAX && s->marker_before) {
        for (size_t t = 1; t <= e; t++) {
          job->am[ja - t] = (int32_t)(i0 - t);
          job->how[ja - t] = LZ_RUN;
        }
        /* Blank lines after a marker standing for no line (the cursor is at the run) are the
         * snippet's own, between its lines: put_range keeps them unless the output already ends
         * in a blank line (as below, for lines edited in place). */
        if (*c + e == i0) put_range(job, o, s, j0, ja - e);
        emit_file(job, o, *c, i0);
        *c = i0;
        return EC_OK;
      }
      if (net || new_min == UINT32_MAX || run_max > new_min) e = 0;
    }
    if (e && e < k && new_lines_close_with(job, j0, ja - e)) e = 0;
    if (e && e < k) {
      for (size_t t = 1; t <= e; t++) {
        job->am[ja - t] = (int32_t)(i0 - t);
        job->how[ja - t] = LZ_RUN;
      }
      emit_file(job, o, *c, i0 - e);
      ec_error_code rc = check_structure(job, si, s, j0, ja - e, (int64_t)(i0 - e) - 1, (int64_t)(i0 - e));
      if (rc) return rc;
      put_range(job, o, s, j0, ja - e);
      emit_file(job, o, i0 - e, i0);
      *c = i0;
      return EC_OK;
    }
  }
  emit_file(job, o, *c, i0 - r);
  if (!r) {
    ec_error_code rc = check_structure(job, si, s, j0, ja, (int64_t)i0 - 1, (int64_t)i0);
    if (rc) return rc;
  }
  /* Lines that edit the file's lines in place take those lines' places; the blank lines between
   * them and the marker above are its spacing (as above a kept line). Not when the marker stands
   * for no line (the cursor is at the edited lines): then they separate the snippet's own lines,
   * and put_range keeps them unless the output already ends in a blank line. */
  size_t from = j0;
  if (r && s->marker_before && *c + r < i0)
    while (from < ja && (S->flags[from] & LZ_BLANK)) from++;
  put_range(job, o, s, from, ja);
  *c = i0;
  return EC_OK;
}

/* Whether snippet lines [j0, j1) are comments only (ec_lz_note_line; one at least, blank lines
 * and bare brackets or closing tags such as `</div>` aside) where file lines [f0, f1) hold code:
 * a block shown with such a body (the JSX comment `Your full implementation here` between a kept
 * `<div>` and its `</div>`) holds a placeholder for that code, not a new body. */
static bool placeholder(ec_lz_job *job, size_t j0, size_t j1, size_t f0, size_t f1) {
  bool note = false, code = false;
  for (size_t j = j0; j < j1; j++) {
    ec_str t = ec_lz_trim(job->S.line[j]);
    if ((job->S.flags[j] & (LZ_BLANK | LZ_WEAK)) || (t.len > 3 && !memcmp(t.ptr, "</", 2) && t.ptr[t.len - 1] == '>')) continue;
    if (!ec_lz_note_line(t)) return false;
    note = true;
  }
  for (size_t f = f0; f < f1 && !code; f++) code = !(job->F.flags[f] & LZ_BLANK) && !ec_lz_note_line(job->F.line[f]);
  return note && code;
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

/* Whether two lines share a start and an end covering 60 % of the longer one (both 16 characters
 * or more), the start holding a call's first argument: the same statement with a later argument
 * rewritten. Swept (bench/threshold_sweep.mjs; ACCURACY.md, "Thresholds"): 40-80 % and 8-24
 * characters give the same results on the set, its variants, conformance and unit tests; the shape
 * (a call rewritten as a block below the last anchor, a marker after it) is rare there. 60 % stays:
 * "most of the line", the same bar as ec_lz_similar's. */
static bool mostly_same(ec_str a, ec_str b) {
  ec_str ta = ec_lz_trim(a), tb = ec_lz_trim(b);
  if (ta.len < 16 || tb.len < 16) return false;
  size_t pre, suf, max = ec_lz_common_ends(ta, tb, &pre, &suf);
  /* The shared start holds the call's first argument whole (`on('resize', `): the same call on
   * the same thing, not merely the same function (`items.forEach(log);` beside a new
   * `items.forEach((x) => {`). */
  const char *open = memchr(ta.ptr, '(', pre);
  if (!open || !memchr(open, ',', pre - (size_t)(open - ta.ptr))) return false;
  return (pre + suf) * 5 >= max * 3;
}

/* A one-line statement right below the last anchor rewritten as a block (the first tail line is
 * an edited version of the file line there, and opens brackets a later tail line closes:
 * `on('x', f);` made `on('x', () => {`, body, `});`), with a marker after the tail: it replaces
 * that file line (1), rather than being inserted above it (0). */
static size_t expanded_statement(ec_lz_job *job, size_t jb, size_t j1, size_t ib, size_t limit) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t js = jb + 1, fi = ib + 1;
  if (js >= j1 || fi >= limit || fi >= F->n || !strong_s(S, js) || !strong_s(F, fi) || S->key[js] == F->key[fi]) return 0;
  int32_t lowest, net_f = ec_lz_bracket_scan(F->line[fi], &lowest);
  if (net_f || lowest < 0 || !same_depth(job, js, fi, jb, ib) || !mostly_same(S->line[js], F->line[fi])) return 0;
  int32_t depth = ec_lz_bracket_scan(S->line[js], &lowest);
  if (depth <= 0 || lowest < 0) return 0;
  for (size_t j = js + 1; j < j1; j++) {
    if (S->flags[j] & (LZ_BLANK | LZ_MARKER)) continue;
    depth += ec_lz_bracket_net(S->line[j]);
    if (depth <= 0) return depth == 0 ? 1 : 0;
  }
  return 0;
}

/* The file lines a definition starting at file line f spans: to where its brackets close (a
 * `const` table over several lines, a function's body), or its indented block (Python); f alone
 * for a one-line definition. SIZE_MAX when it does not end before `limit`. */
static size_t definition_end(ec_lz_job *job, size_t f, size_t limit) {
  ec_lz_side *F = &job->F;
  int64_t depth = 0;
  for (size_t i = f; i < limit && i < F->n; i++) {
    job->work++;
    if (F->flags[i] & LZ_BLANK) continue;
    depth += ec_lz_bracket_net(F->line[i]);
    if (depth <= 0) {
      ec_str t = ec_lz_trim(F->line[i]);
      if (i == f && t.len && t.ptr[t.len - 1] == ':') { size_t e = block_end(job, f); return e < limit ? e : SIZE_MAX; }
      return i;
    }
  }
  return SIZE_MAX;
}

/* A definition rewritten in place (invariant b, docs/lazy.md): the new lines below the last
 * anchor define a name (at the anchor's depth relative to the file's next line) that the file's
 * next non-blank line defines too, the same kind of definition. Two definitions of one name in one
 * scope are never what a snippet means, and the old one is right where the new one goes: the new
 * lines replace it (its whole extent, its brackets closed). Returns the file lines replaced from
 * ib + 1 (blank lines before the definition included), 0 when not so. */
static size_t redefined(ec_lz_job *job, size_t jb, size_t j1, size_t ib, size_t limit) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t f = ib + 1;
  while (f < limit && (F->flags[f] & LZ_BLANK)) f++;
  if (f >= limit || f >= F->n) return 0;
  ec_str fname;
  uint64_t fkey;
  uint32_t fe = ec_lz_enclosing(job, true, f, false);
  if (!ec_lz_definition(job, F->line[f], fe != LZ_NIL && ec_lz_class_opener(F->line[fe]), &fname, &fkey)) return 0;
  for (size_t j = jb + 1; j < j1; j++) {
    ec_str n;
    uint64_t key;
    job->work++;
    if (S->flags[j] & LZ_BLANK) continue;
    uint32_t se = ec_lz_enclosing(job, false, j, false);
    if (!ec_lz_definition(job, S->line[j], se != LZ_NIL && ec_lz_class_opener(S->line[se]), &n, &key) || key != fkey || !same_depth(job, j, f, jb, ib)) continue;
    size_t e = definition_end(job, f, limit);
    return e == SIZE_MAX ? 0 : e - ib;
  }
  return 0;
}

/* Lines edited in place below the anchor (they replace the file's lines one for one), then new
 * lines [j, je) that leave those lines' block: the first of them indented less than the last
 * edited line, and the file's block ending right there too (its next non-blank line, f on, no
 * deeper than that new line): a method's last statement edited and a top-level function written
 * after it (Python closes blocks by indentation, so nothing of the file's would be left between
 * them — invariant a). The new lines then go right after the edited ones. */
static bool ends_block_after_edits(ec_lz_job *job, size_t jb, size_t j, size_t je, size_t f, size_t limit) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t last = j;
  while (last > jb + 1 && (S->flags[last - 1] & LZ_BLANK)) last--;
  if (last <= jb + 1) return false;
  last--;
  while (j < je && (S->flags[j] & LZ_BLANK)) j++;
  if (j >= je || S->indent[j] >= S->indent[last]) return false;
  while (f < limit && f < F->n && (F->flags[f] & LZ_BLANK)) f++;
  if (f < F->n && f < limit) {
    /* The file's next line at the new line's depth or shallower (its blocks end there). */
    long ds = (long)ec_lz_cols(S->line[j], job->si.tab) - (long)ec_lz_cols(S->line[jb], job->si.tab);
    long df = (long)ec_lz_cols(F->line[f], job->fi.tab) - (long)ec_lz_cols(F->line[jb == SIZE_MAX ? 0 : (size_t)job->am[jb]], job->fi.tab);
    if (df > ec_lz_map_delta(ds, &job->si, &job->fi)) return false;
  }
  return true;
}

/* A C preprocessor line (`#include <map>`, `#define N 4`): code that opens with the `#` of a
 * comment in Python, shell or Ruby. Read by its word right after the `#`. (Elsewhere it is read
 * as a comment on purpose: at column 0 inside a function, it must not end the block.) */
static bool directive(ec_str line) {
  static const char *const WORD[] = {"include", "define", "undef", "if", "ifdef", "ifndef", "elif", "else", "endif", "pragma", "import", NULL};
  ec_str t = ec_lz_trim(line);
  size_t n = 1;
  while (n < t.len && t.ptr[n] >= 'a' && t.ptr[n] <= 'z') n++;
  for (size_t k = 0; WORD[k]; k++)
    if (strlen(WORD[k]) == n - 1 && !memcmp(t.ptr + 1, WORD[k], n - 1)) return true;
  return false;
}

/* Lines S(jb, j1) below the last anchor (file line ib); limit: the next segment's first anchor. */
static ec_error_code bottom_edge(ec_lz_job *job, out_t *o, size_t si, size_t jb, size_t jn, bool whole_file, size_t *c) {
  ec_lz_seg *s = &job->seg[si];
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t limit = jn < S->n ? (size_t)job->am[jn] : F->n; /* the next anchor's file line */
  size_t j1 = s->j1, ib = (size_t)job->am[jb];
  /* Blank lines before the marker after are spacing, not context to find in the file. */
  if (s->marker_after)
    while (j1 > jb + 1 && (S->flags[j1 - 1] & LZ_BLANK)) j1--;
  size_t k = j1 - jb - 1;
  *c = ib + 1;
  if (!k) return EC_OK;
  /* A run of lines right below the anchor, new lines, then trailing context, both equal to the
   * file's consecutive lines there: the new lines go between them. */
  size_t emax = 0;
  while (emax + 2 < k && emax < EDGE_MAX && ib + emax + 1 < limit && S->key[jb + emax + 1] == F->key[ib + emax + 1] &&
         same_depth(job, jb + emax + 1, ib + emax + 1, jb, ib))
    emax++;
  for (size_t e = emax; e >= 1 && e == emax; e--) { /* the whole run: a shorter one would call a file line new */
    size_t fi = ib + e;
    size_t p = fi + 1;
    for (size_t q = k - e - 1 < EDGE_MAX ? k - e - 1 : EDGE_MAX; q >= 1; q--) {
      if (p + q > limit) continue;
      bool eq = true;
      for (size_t t = 0; t < q && eq; t++) eq = S->key[j1 - q + t] == F->key[p + t] && same_depth(job, j1 - q + t, p + t, jb, ib);
      if (!eq || (!any_strong(S, j1 - q, j1) && !any_strong(S, jb + 1, jb + 1 + e))) continue;
      if (any_strong(S, j1 - q, j1)) {
        size_t w = 64 + 2 * k, hi = limit - p > w ? p + q + w : limit;
        size_t other = context_elsewhere(job, j1 - q, q, p, hi, p, false, p, 0, j1 - q - (jb + 1 + e));
        if (other != SIZE_MAX) return ambiguous_context(job, si, p, other, q);
      }
      /* The run's last line opens the block the context goes on in (a doc comment's opening line
       * above the next member's text): no new line goes between them. When the snippet writes the
       * run's lines again right above the context (the same text either way), the run is the
       * context's, and the new lines go above it. */
      size_t sh = 0, nn = j1 - q - (jb + 1 + e);
      if (nn >= e && !(F->flags[fi] & LZ_BLANK) && F->indent[p] > F->indent[fi])
        while (sh < e && S->key[jb + 1 + sh] == S->key[j1 - q - e + sh]) sh++;
      if (sh < e) sh = 0;
      size_t at = p - sh;
      emit_file(job, o, ib + 1, at);
      ec_error_code rc = check_structure(job, si, s, jb + 1 + e - sh, j1 - q - sh, (int64_t)at - 1, (int64_t)at);
      if (rc) return rc;
      put_range(job, o, s, jb + 1 + e - sh, j1 - q - sh);
      emit_file(job, o, at, p + q);
      *c = p + q;
      return EC_OK;
    }
  }
  size_t rmax = k < 8 ? k : 8; /* as at the leading edge (swept there) */
  for (size_t r = 0; r <= rmax; r++) {
    size_t p = ib + 1 + r;
    size_t qmax = k - !!r < EDGE_MAX ? k - !!r : EDGE_MAX; /* r: one new line at least; q + r > k: edge_rewrite */
    for (size_t q = qmax; q >= 1; q--) {
      if (p + q > limit) continue;
      bool eq = true;
      for (size_t t = 0; t < q && eq; t++) eq = S->key[j1 - q + t] == F->key[p + t] && same_depth(job, j1 - q + t, p + t, jb, ib);
      if (!eq) continue;
      if (q + r > k ? !edge_rewrite(job, jb + 1, k - q, ib + 1, r) : r && !any_strong(S, j1 - q, j1) && !pairs_counterparts(job, jb + 1, ib + 1, r)) continue;
      if (any_strong(S, j1 - q, j1)) {
        size_t w = 64 + 2 * k, hi = limit - p > w ? p + q + w : limit;
        size_t other = context_elsewhere(job, j1 - q, q, ib + 1, hi, p, false, ib + 1, r, j1 - q - jb - 1);
        if (other != SIZE_MAX) return ambiguous_context(job, si, p, other, q);
      }
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
  size_t r = 0, cp = 0, kk = k;
  while (kk && s->marker_after && (S->flags[jb + kk] & LZ_BLANK)) kk--; /* spacing before the marker */
  while (r < kk && ib + 1 + r < limit) {
    size_t js = jb + 1 + r, fi = ib + 1 + r;
    if (!same_depth(job, js, fi, jb, ib)) break;
    if (S->key[js] == F->key[fi]) { r++; continue; }
    if (strong_s(S, js) && strong_s(F, fi) && ec_lz_edited(S->line[js], F->line[fi])) { r++; cp++; continue; }
    break;
  }
  if (r < kk && cp) {
    /* Blank lines that ended the edited run are the new lines' spacing, not the file's blank
     * lines replaced: those stay after the new lines. */
    while (r && (S->flags[jb + r] & LZ_BLANK)) r--;
    if (!ends_block_after_edits(job, jb, jb + 1 + r, jb + 1 + kk, ib + 1 + r, limit)) r = 0;
  }
  if (!cp) r = 0;
  if (!r && s->marker_after) r = expanded_statement(job, jb, j1, ib, limit);
  if (!r && s->marker_after) {
    r = redefined(job, jb, j1, ib, limit);
    if (r) {
      ec_error_code rc = check_deletion(job, si, ib + 1, r, k, "in the definition it rewrites");
      if (rc) return rc;
    }
  }
  if (!r) {
    /* A tail deeper than its anchor, with no marker inside the block: the block's new body. */
    bool deeper = true;
    for (size_t j = jb + 1; j < j1 && deeper; j++)
      if (!(S->flags[j] & LZ_BLANK) && S->indent[j] <= S->indent[jb]) deeper = false;
    bool marker_inside = s->marker_after && s->marker_after_indent > S->indent[jb];
    /* A bracket the anchor opens and the tail leaves open (`import (` without its `)`): the
     * marker after stands for the rest of that block, whatever its indentation. */
    int32_t open = ec_lz_bracket_net(S->line[jb]);
    for (size_t j = jb + 1; j < j1; j++)
      if (!(S->flags[j] & LZ_BLANK)) open += ec_lz_bracket_net(S->line[j]);
    if (s->marker_after && open > 0) marker_inside = true;
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
  if (!r && s->marker_after) {
    /* A comment the snippet writes right before a marker introduces the code the marker keeps
     * (a header over the file's next lines): where the file goes on with blank lines and then
     * code, the trailing comment lines go after those blank lines, right above that code; new
     * code above them stays where it is (the file's blank lines stand for the snippet's between). */
    size_t f = ib + 1;
    while (f < limit && f < F->n && (F->flags[f] & LZ_BLANK)) f++;
    size_t t = j1; /* the trailing comment lines start at t */
    while (t > jb + 1 && ((S->flags[t - 1] & LZ_BLANK) || (ec_lz_comment_only(S->line[t - 1]) && !directive(S->line[t - 1])))) t--;
    while (t < j1 && (S->flags[t] & LZ_BLANK)) t++;
    /* (Not when a blank line stands between the comment and the marker: then the comment ends
     * the new lines, and the marker's code begins after that blank line — invariant a.) */
    if (t < j1 && j1 == s->j1 && f > ib + 1 && f < limit && f < F->n) {
      size_t head = t;
      while (head > jb + 1 && (S->flags[head - 1] & LZ_BLANK)) head--;
      if (head > jb + 1) {
        ec_error_code rc = check_structure(job, si, s, jb + 1, head, (int64_t)ib, (int64_t)ib + 1);
        if (rc) return rc;
        put_range(job, o, s, jb + 1, head);
      }
      emit_file(job, o, ib + 1, f);
      put_range(job, o, s, t, j1);
      *c = f;
      return EC_OK;
    }
  }
  /* The new lines rewrite the line right below their anchor, the first the marker would keep: a
   * whole statement (its brackets closed on it, no `}`) that one of them extends (`window_.clear();`
   * written with new drawing code right under `void draw() {`, whose next line is
   * `window_.clear(cfg_.bg);`). Kept, it would stay beside its own replacement and win, later in
   * the file; the snippet shows that line's place as the new lines', so they replace it and the
   * marker's run starts after it (invariant a). */
  if (!r && s->marker_after && ib + 1 < limit && strong_s(F, ib + 1) && ec_lz_bracket_net(F->line[ib + 1]) == 0 &&
      !ec_lz_comment_only(F->line[ib + 1]))
    for (size_t j = jb + 1; j < j1 && !r; j++)
      if (strong_s(S, j) && !(S->flags[j] & LZ_BLANK) && S->key[j] != F->key[ib + 1] && ec_lz_rewrites_line(S->line[j], F->line[ib + 1])) r = 1;
  /* A marker standing for no line (the next segment's anchor right after, the lines the snippet
   * writes above that anchor after the marker aside where they are the file's lines right above
   * it: `return (` over its JSX): the blank lines the snippet shows before it end the new lines
   * (invariant a) and stay. */
  size_t lim = limit, ja = jn;
  while (ja > s->j1 + 1 && lim > ib + 1 + r && !(S->flags[ja - 1] & LZ_MARKER) && S->key[ja - 1] == F->key[lim - 1]) ja--, lim--;
  put_range_at(job, o, s, jb + 1, ib + 1 + r == lim && limit < F->n ? s->j1 : j1, ib + 1 + r);
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

/* For an unanchored last segment after a marker: when it and the marker are indented deeper
 * than the anchored snippet line above them, the file line after the end of that line's block
 * (its last deeper line; comment-only lines do not end it), else SIZE_MAX. */
static size_t block_tail(ec_lz_job *job, const ec_lz_seg *s, size_t cursor) {
  ec_lz_side *S = &job->S, *F = &job->F;
  size_t jp = s->j0;
  while (jp-- > 0 && job->am[jp] < 0) {}
  if (jp == SIZE_MAX || (S->flags[jp] & LZ_BLANK)) return SIZE_MAX;
  for (size_t j = jp + 1; j < s->j1; j++)
    if (!(S->flags[j] & LZ_BLANK) && S->indent[j] <= S->indent[jp]) return SIZE_MAX;
  size_t o = (size_t)job->am[jp], e = o;
  for (size_t c = o + 1; c < F->n; c++) {
    if ((F->flags[c] & LZ_BLANK) || ec_lz_comment_only(F->line[c])) continue;
    if (F->indent[c] <= F->indent[o]) break;
    e = c;
  }
  if (e == o || e + 1 < cursor) return SIZE_MAX;
  return e + 1;
}

/* Whether an unanchored segment stands at the file's top level: no block of the snippet is
 * open around it (bracket depth 0 before it, never below 0 inside it), it starts at column 0,
 * and the markers next to it are at column 0. Only then may it go to the top or the end of the
 * file; code inside a block the snippet opened belongs inside that block. */
static bool top_level(ec_lz_job *job, const ec_lz_seg *s) {
  ec_lz_side *S = &job->S;
  int32_t depth = 0;
  for (size_t j = 0; j < s->j0; j++)
    if (!(S->flags[j] & (LZ_MARKER | LZ_BLANK))) depth += ec_lz_bracket_net(S->line[j]);
  if (depth) return false;
  bool first = true;
  for (size_t j = s->j0; j < s->j1; j++) {
    if (S->flags[j] & LZ_BLANK) continue;
    if (first && S->indent[j]) return false;
    first = false;
    depth += ec_lz_bracket_net(S->line[j]);
    if (depth < 0) return false;
  }
  if (s->marker_after && s->marker_after_indent) return false;
  for (size_t j = s->j0; j-- > 0;) {
    if (S->flags[j] & LZ_BLANK) continue;
    if ((S->flags[j] & LZ_MARKER) && S->indent[j]) return false;
    break;
  }
  return true;
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
  out_t o = {0};
  ec_buf_init(&o.b, ec_arena_allocator(job->a));
  o.head_open = !F->cr && F->n > 0;

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
    size_t ja = 0, jb = 0;
    if (!whole_file && seg_first_anchor(job, &job->seg[0], &ja, &jb) && (size_t)job->am[ja] == ja - j &&
        file_start_pairs(job, j, ja - j, true))
      whole_file = true;
  }
  ec_error_code rc = EC_OK;
  for (size_t si = 0; si < job->nseg && !rc; si++) {
    ec_lz_seg *s = &job->seg[si];
    size_t ja = 0, jb = 0;
    o.at_marker = s->marker_before;
    if (!seg_first_anchor(job, s, &ja, &jb)) {
      bool last = si + 1 == job->nseg;
      if (si == 0 && !s->marker_before && s->marker_after && top_level(job, s)) {
        /* New first lines that extend the file's first lines (an import gaining a name)
         * replace them; anything else goes above them. */
        size_t k = s->j1 - s->j0;
        while (k && (S->flags[s->j0 + k - 1] & LZ_BLANK)) k--;
        if (file_start_pairs(job, s->j0, k, false)) {
          put_file_start(job, &o, s->j0, k);
          c = k; /* blank lines before the marker are the file's own */
          report_seg(job, si, 1, (uint32_t)k, true);
          continue;
        }
        /* Lines added above the file's first line (an import) are new only if none of them is
         * an edited version of one of the file's first lines (`import a, { b } from 'a'` over
         * `import { b } from 'a'`, or the first line pairing with line 1 as the file's start):
         * put above, the edited line would stay beside its own replacement (invariant a);
         * whether it replaces it is not said. */
        /* Bounded: the first EDGE_MAX new lines against the file's first EDGE_MAX + 2 strong
         * lines, found once. */
        size_t kk = k < EDGE_MAX ? k : EDGE_MAX, first[EDGE_MAX + 2], nfirst = 0, hj = SIZE_MAX, ht = 0;
        if (k && !prepend_line(S->line[s->j0]) && file_start_pairs(job, s->j0, 1, true)) hj = s->j0;
        for (size_t t = 0; t < F->n && nfirst < kk + 2; t++)
          if (!(F->flags[t] & (LZ_BLANK | LZ_WEAK))) first[nfirst++] = t;
        for (size_t j = s->j0; j < s->j0 + kk && hj == SIZE_MAX; j++) {
          if (S->flags[j] & (LZ_BLANK | LZ_WEAK | LZ_MARKER)) continue;
          for (size_t q = 0; q < nfirst && hj == SIZE_MAX; q++)
            if (F->key[first[q]] != S->key[j] && ec_lz_similar(S->line[j], F->line[first[q]], false)) hj = j, ht = first[q];
        }
        if (hj != SIZE_MAX) {
          ec_str a = ec_lz_echo(S->line[hj]), b = ec_lz_echo(F->line[ht]);
          rc = ec_lz_decline(job, EC_AMBIGUOUS, si, (uint32_t)ht + 1, (uint32_t)ht + 1,
                             "%s shares no line with '%.*s' and comes before a marker; its line '%.*s' looks like "
                             "an edited version of line %zu ('%.*s'), so it could replace that line or go above it; nothing was changed. "
                             "Include the unchanged line that follows it, or send a search_replace block.",
                             ec_lz_seg_name(job, si), pn, p, (int)a.len, a.ptr, ht + 1, (int)b.len, b.ptr);
          break;
        }
        put_range(job, &o, s, s->j0, s->j1);
        report_seg(job, si, 1, 1, true);
        continue;
      }
      if (last && s->marker_before && !s->marker_after && top_level(job, s)) {
        emit_file(job, &o, c, F->n);
        c = F->n;
        put_range_at(job, &o, s, s->j0, s->j1, F->n);
        report_seg(job, si, (uint32_t)F->n, (uint32_t)F->n, true);
        continue;
      }
      if (last && s->marker_before && !s->marker_after) {
        /* New lines after a marker inside a block the snippet opened (`def f():`, a deeper
         * marker, deeper new lines, nothing after): the end of that block's body. */
        size_t at = block_tail(job, s, c);
        if (at != SIZE_MAX) {
          emit_file(job, &o, c, at);
          c = at;
          size_t jp = s->j0;
          while (jp-- > 0 && job->am[jp] < 0) {}
          for (size_t j = s->j0; j < s->j1; j++) put_line(job, &o, j, (uint32_t)jp, job->am[jp]);
          report_seg(job, si, (uint32_t)at, (uint32_t)at, true);
          continue;
        }
      }
      if (job->nseg == 1 && !s->marker_before && !s->marker_after) {
        rc = EC_NO_MATCH; /* the caller reports it with candidates */
        break;
      }
      if (s->drop_j != LZ_NIL) {
        ec_str t = ec_lz_echo(S->line[s->drop_j]), a = ec_lz_echo(F->line[s->drop_fo]);
        rc = ec_lz_decline(job, EC_NO_MATCH, si, s->drop_fo + 1, s->drop_i + 1,
                           "%s has no place in '%.*s': its only line found there, '%.*s' "
                           "(line %u), sits inside '%.*s' (line %u), a block the snippet does not put it in; nothing was changed. Include "
                           "the unchanged line right above or below the new code.",
                           ec_lz_seg_name(job, si), pn, p, (int)t.len, t.ptr, s->drop_i + 1, (int)a.len, a.ptr, s->drop_fo + 1);
        break;
      }
      size_t next = F->n;
      for (size_t j = s->j1; j < S->n; j++)
        if (job->am[j] >= 0) { next = (size_t)job->am[j]; break; }
      /* The markers around it stand for nothing: the previous segment ends right where the next
       * one's anchor is (blank lines aside), so its place is that one. */
      bool closed = next >= c && s->marker_before && s->marker_after;
      for (size_t i = c; closed && i < next; i++) closed = (F->flags[i] & LZ_BLANK) != 0;
      if (closed) {
        put_range(job, &o, s, s->j0, s->j1);
        report_seg(job, si, (uint32_t)c + 1, (uint32_t)c + 1, true);
        continue;
      }
      rc = ec_lz_decline(job, EC_AMBIGUOUS, si, (uint32_t)c + 1, (uint32_t)next,
                         "%s shares no line with '%.*s', and markers or the other "
                         "segments leave its place open anywhere between lines %zu and %zu; nothing was changed. Include the unchanged "
                         "line right above or below the new code.",
                         ec_lz_seg_name(job, si), pn, p, c + 1, next);
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
        /* Whole blocks between two lines the snippet shows next to each other: removed by
         * leaving them out (the snippet writes nothing in their place). Not in a snippet with a
         * marker that stood for nothing where it was put (dropped in snippet.c): its writer leaves
         * kept code out behind markers and misplaced one, so a block it leaves out may be what
         * that marker meant; past the deletion bound that is declined like any large deletion. */
        size_t removed = i - ip - 1, written = j - prev_j - 1; /* as check_deletion takes them */
        /* The gap's own edges: snippet lines at either end of it that are the file's lines at that
         * end (the `end`, `}` and blank lines no anchor took) are kept, not written, so the whole-
         * block test reads what the gap really removes. */
        size_t kl = 0, kt = 0;
        if (removed > 2 * written + 10) {
          while (kl < written && kl < removed && S->key[prev_j + 1 + kl] == F->key[ip + 1 + kl]) kl++;
          while (kt < written - kl && kt < removed - kl && S->key[j - 1 - kt] == F->key[i - 1 - kt]) kt++;
        }
        bool only_blank = true;
        for (size_t q = prev_j + 1 + kl; q + kt < j && only_blank; q++) only_blank = (S->flags[q] & LZ_BLANK) != 0;
        /* Only a deletion check_deletion would refuse is looked at more closely: the block test
         * walks the segment, and doing it for every pair of anchors made one segment quadratic. */
        if (removed > 2 * written + 10 && !(only_blank && !job->marker_dropped && ec_lz_whole_blocks(F, ip + 1 + kl, i - kt, i) == 1) &&
            ((only_blank && job->marker_dropped) || placeholder(job, prev_j + 1, j, ip + 1, i) || !ec_lz_in_shown_block(job, si, ip + 1, i)))
          rc = check_deletion(job, si, ip + 1, removed, written, "between two of its lines that stand next to each other in the snippet");
        if (rc) break;
        /* A new block's opener (a line the file lacks, opening brackets) written in place of file
         * lines that hold two or more openers it looks like an edited version of, at its own depth
         * from the anchor above, one of them a whole block the replacement removes: which sibling
         * the new block rewrites, or whether it is new beside them, is open (a new tab written from
         * a sibling's markup anchors on that sibling's lines and swallows the tabs between).
         * The gap's first new opener only, against at most 400 file lines, within the job's work
         * budget (block ends are read for it): every opener of every gap made a snippet of 25
         * such gaps of 400 lines take 2 s. */
        for (size_t q = prev_j + 1; q < j && removed > written && removed <= 400 && job->work <= job->work_cap; q++) {
          uint32_t cnt = 0;
          ec_lz_side_first(F, S->key[q], &cnt);
          if (cnt || (S->flags[q] & (LZ_BLANK | LZ_WEAK)) || ec_lz_bracket_net(S->line[q]) <= 0) continue;
          size_t hits = 0, whole = 0;
          for (size_t f = ip + 1; f < i; f++)
            if (!(F->flags[f] & (LZ_BLANK | LZ_WEAK)) && ec_lz_bracket_net(F->line[f]) > 0 && ec_lz_edited(S->line[q], F->line[f]) &&
                (long)F->indent[f] - (long)F->indent[ip] == (long)S->indent[q] - (long)S->indent[prev_j])
              hits++, whole = whole || ec_lz_file_closer(job, f) < i;
          if (hits >= 2 && whole)
            rc = deletion_decline(job, si, ip + 1, removed, written, "in place of blocks that its new opener looks like an edited version of, "
                                  "two or more: which one it rewrites, or whether it is new beside them, is open");
          break;
        }
        if (rc) break;
        if (i - ip == j - prev_j && replaced_in_place(job, prev_j + 1, ip + 1, j - prev_j - 1)) {
          /* Lines edited in place keep their file lines' indentation (a line inside a multi-line
           * string keeps its column whatever the snippet's indentation around it), unless the
           * snippet moves one into another block where indentation is syntax. */
          for (size_t k = 1; k < j - prev_j; k++) {
            bool moved = moved_depth(job, prev_j + k, ip + k, prev_j);
            put_line(job, &o, prev_j + k, (uint32_t)(moved ? prev_j : prev_j + k), (int64_t)(moved ? ip : ip + k));
          }
        } else put_range(job, &o, s, prev_j + 1, j);
      }
      if (job->how[j] == LZ_COUNTERPART) put_line(job, &o, j, (uint32_t)j, (int64_t)i);
      else emit_file(job, &o, i, i + 1);
      prev_j = j;
    }
    if (rc) break;
    size_t jn = s->j1; /* the next anchored snippet line (S->n: none) */
    while (jn < S->n && job->am[jn] < 0) jn++;
    bool last = si + 1 == job->nseg;
    rc = bottom_edge(job, &o, si, jb, jn, last && !job->trail_marker && whole_file, &c);
    if (rc) break;
    (void)before;
    report_seg(job, si, (uint32_t)job->am[ja] + 1, (uint32_t)c, false);
  }
  if (rc) {
    ec_buf_free(&o.b);
    return rc;
  }
  /* The file's tail from line c stays where it is, unless the file's last line has no LF and
   * the tail is that line alone or the merge wrote nothing yet (then it is copied). */
  const char *base = F->n ? F->line[0].ptr : NULL;
  size_t tail = c;
  if (F->cr || !F->n) tail = F->n;
  emit_file(job, &o, c, tail);
  ec_str res = ec_buf_finish(&o.b, job->a);
  if (!res.ptr) return ec_fail_oom(job->ctx);
  size_t head_off = o.head_lines ? (size_t)(F->line[o.head_lines - 1].ptr - base) + F->line[o.head_lines - 1].len + 1 : 0;
  size_t tail_off = tail < F->n ? (size_t)(F->line[tail].ptr - base) : job->file_len;
  if (tail >= F->n && !job->file_final_lf) {
    if (res.len && res.ptr[res.len - 1] == '\n') res.len--;
    else if (!res.len && head_off) head_off--;
  }
  job->out_head = head_off;
  job->out_tail = tail_off;
  *out = res;
  return EC_OK;
}
