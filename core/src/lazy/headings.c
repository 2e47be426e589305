/*
 * A comment stays over the line it heads (the lazy merge's invariant i; docs/lazy.md; measured in
 * docs/lazy-passes.md, issue 30, eleventh pass). A file's comment line with code right below it
 * (no blank line between) is that code's heading. Two results move a heading off its code or
 * keep one the snippet may have replaced, and in both the snippet's lines allow two readings:
 *
 *  - A marker named in words of its own (`// ... Step generation helpers ...`, none of the
 *    elision wordings: ec_lz_marker_label), written right above a segment whose first line is
 *    the file's, where the file has only comment lines between the previous segment and that
 *    line: the marker stands for that comment (kept), or it is the section's new label (the
 *    comment dropped with the others the snippet rewrote). Declined. The same for a marker in
 *    any wording that names code in words of its own, over a heading of one or two comment
 *    lines that it does not repeat, sharing a word with it or with the line it heads; and, when
 *    the segment opens with new comment lines (its own heading), for a label, or for the
 *    snippet's only marker naming code over such a short heading.
 *  - A snippet that ends with no marker, on new lines written right under a file comment whose
 *    code the result keeps below them (the fragment reading keeps the file past the snippet's
 *    unmarked end): `-- AlterTable`, then a new `ALTER TABLE` statement, with the file's own
 *    `ALTER TABLE` kept after the new lines and the index below them. The new lines replace the
 *    code that comment heads (the snippet ends there), or go above it: the snippet does not say.
 *    Declined.
 *  - A marker whose words say it keeps imports, standing for file lines that hold none and go on
 *    no import's list: its words and its place disagree. Declined.
 *  - In a snippet where a marker naming code stood for nothing (a label over code written out
 *    after it), another marker keeping one to three lines: one more label, or an elision?
 *    Declined, unless those lines are a comment the marker restates.
 *  - A snippet with no marker at either end that covers all of the file's code, leaving out one
 *    or two comment lines at the file's edges (a path comment, a stale note): a whole-file answer
 *    that drops them, or a fragment that keeps them? Declined.
 *  - The general form of the label shapes above: in an answer that strips a comment heading of
 *    the file (drops it whole, keeps the code under it, writes no comment in its place), a marker
 *    keeping nothing but comment lines that it does not restate: a label whose place holds a
 *    heading the answer drops like the others, or an elision of that heading? Declined. Only
 *    headings of the kept comment's form count (JSX sections for a JSX comment): an answer that
 *    rewrites a component's logic drops its `//` comments and keeps its JSX sections.
 * Near misses: a marker in the usual wording keeping a comment (`// ... existing code ...` over a
 * function's doc comment); a blank line between the comment and its code (a section heading);
 * a marker after the new lines (the snippet says the code stays); a kept run starting with
 * another comment.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "lazy.h"
#include <ctype.h>
#include <string.h>

/* A JSX comment filling its line: `{` + a block comment + `}` (a section heading inside JSX). */
static bool jsx_comment(ec_str line) {
  ec_str t = ec_lz_trim(line);
  return t.len >= 7 && !memcmp(t.ptr, "{/*", 3) && !memcmp(t.ptr + t.len - 3, "*/}", 3);
}

/* Whether file lines [from, to) hold a non-blank line and every one is a comment line. */
static bool only_comment_lines(const ec_lz_side *F, size_t from, size_t to) {
  bool any = false;
  for (size_t f = from; f < to; f++) {
    if (F->flags[f] & LZ_BLANK) continue;
    if (!ec_lz_comment_line(F->line[f]) && !jsx_comment(F->line[f])) return false;
    any = true;
  }
  return any;
}

/* The next word of t from *k on (letters only, lowercased into w, at most 15; a capital starts a
 * word unless it follows one: `generateStepsForStage` reads generate, steps, for, stage, and
 * `UTILITAIRES` one word); false at the end. */
static bool next_word(ec_str t, size_t *k, char *w, size_t *n) {
  while (*k < t.len && !isalpha((unsigned char)t.ptr[*k])) ++*k;
  if (*k >= t.len) return false;
  *n = 0;
  do {
    if (*n < 15) w[(*n)++] = (char)tolower((unsigned char)t.ptr[*k]);
    ++*k;
  } while (*k < t.len && (islower((unsigned char)t.ptr[*k]) ||
                          (isupper((unsigned char)t.ptr[*k]) && isupper((unsigned char)t.ptr[*k - 1]))));
  return true;
}

/* How many of line a's words of 4 letters or more are among line b's, read by their first 4
 * (`steps` and `Step`, `generation` and `generate`); *na counts a's. */
static size_t words_in(ec_str a, ec_str b, size_t *na) {
  char wa[16], wb[16];
  size_t ka = 0, n, found = 0;
  *na = 0;
  while (next_word(a, &ka, wa, &n)) {
    if (n < 4) continue;
    ++*na;
    size_t kb = 0, nb;
    bool hit = false;
    while (!hit && next_word(b, &kb, wb, &nb)) hit = nb >= 4 && !memcmp(wa, wb, 4);
    found += hit;
  }
  return found;
}

/* Whether line a and line b share a word of 4 letters or more. */
static bool share_word(ec_str a, ec_str b) {
  size_t n;
  return words_in(a, b, &n) > 0;
}

bool ec_lz_names_code(ec_str marker) {
  char w[16];
  size_t k = 0, n;
  while (next_word(marker, &k, w, &n))
    if (n >= 4 && !ec_lz_elision_word(w)) return true;
  return false;
}

bool ec_lz_note_restates(ec_str note, ec_str heading) {
  size_t n;
  return (ec_lz_comment_line(heading) || jsx_comment(heading)) && words_in(heading, note, &n) == n && n;
}

/* Whether a marker names the code line b opens by a name of its own (4 characters or more, no
 * elision wording) that is a whole name in b's head, not after a `.` (`interface` in `interface
 * FilePreviewProps {`; not `initial` in `initialState`, nor `error` in `setError(new Error("...
 * error."))`). A closing line (`</tbody>`, `}`) has no head. */
static bool names_line(ec_str marker, ec_str b) {
  ec_str head = ec_lz_head(b);
  uint64_t work = 0;
  for (size_t k = 0, e; head.len && k < marker.len; k = e + 1) {
    for (e = k; e < marker.len && ec_lz_name_char((unsigned char)marker.ptr[e]); e++) {}
    ec_str w = {marker.ptr + k, e - k};
    char lead[4];
    for (size_t i = 0; i < 4 && i < w.len; i++) lead[i] = (char)tolower((unsigned char)w.ptr[i]);
    if (w.len >= 4 && !ec_lz_elision_word(lead) && ec_lz_code_names(head, w, &work)) return true;
  }
  return false;
}

/* A heading of one or two comment lines that a marker naming code in its own words stands over,
 * without repeating it (`// Helper functions (unchanged)` over `// Helper functions` names that
 * comment: it stays). Longer comment runs (a file's header, a doc comment) are what markers are
 * written for. */
static bool short_unnamed_heading(const ec_lz_side *F, size_t gx, size_t gy, ec_str marker) {
  size_t lines = 0;
  for (size_t f = gx; f < gy; f++) {
    if (F->flags[f] & LZ_BLANK) continue;
    size_t n;
    if (++lines > 2 || (words_in(F->line[f], marker, &n) == n && n)) return false;
  }
  return lines > 0;
}

/* Whether a comment names imports: `import` lowercased in its words (`// ... existing imports`,
 * `// ...autres imports`, `# ... imports ...`). */
static bool says_imports(ec_str m) {
  char w[16];
  size_t k = 0, n;
  while (next_word(m, &k, w, &n))
    if (n >= 6 && !memcmp(w, "import", 6)) return true;
  return false;
}

bool ec_lz_names_import(ec_str l) {
  ec_str t = ec_lz_trim(l);
  return memmem(t.ptr, t.len, "import", 6) || memmem(t.ptr, t.len, "require", 7) || memmem(t.ptr, t.len, "include", 7) ||
         (t.len > 4 && !memcmp(t.ptr, "use ", 4)) || (t.len > 6 && !memcmp(t.ptr, "using ", 6));
}

/* Whether file lines [from, to) may be imports: one of them names an import, or they go on a
 * multi-line import's list (the nearest line above them that is no list item, ending with `,`
 * or opening with a quote as Go's `"fmt"` does, names an import; 256 lines up at most, so one
 * walk per marker stays bounded). */
static bool may_hold_imports(const ec_lz_side *F, size_t from, size_t to) {
  for (size_t f = from; f < to; f++)
    if (ec_lz_names_import(F->line[f])) return true;
  for (size_t stop = from > 256 ? from - 256 : 0; from-- > stop;) {
    ec_str t = ec_lz_trim(F->line[from]);
    if (t.len && t.ptr[t.len - 1] != ',' && t.ptr[0] != '"' && t.ptr[0] != '\'') return ec_lz_names_import(t);
  }
  return false;
}

/* Whether line l is a comment line in one of the forms a heading takes. */
static bool heading_line(ec_str l) { return ec_lz_comment_line(l) || jsx_comment(l); }

/* Whether R drops a comment heading of the file whole, keeping the code right below it, with no
 * comment written new in its place: the answer strips the file's comments (a whole-file answer
 * rewritten without its section headings). A heading rewritten (a new comment between the kept
 * lines around it), cut short (a line of it kept) or removed with its code is not stripped. Only
 * headings of one form count, `jsx` (JSX comments) or not (line comments). One walk over R: each
 * kept code line looks up at the comment lines right above it in the file. */
static bool strips_a_heading(const ec_lz_side *F, const ec_lz_rview *v, bool jsx) {
  size_t last = SIZE_MAX, fresh = 0; /* the file line R kept last; comment lines R wrote since */
  for (size_t r = 0; r < v->nr; r++) {
    size_t c = v->rfile[r], e = c, h;
    if (c == EC_LZ_NONE) {
      fresh += !v->r[r].blank && heading_line(v->r[r].line);
      continue;
    }
    while (e > 0 && (F->flags[e - 1] & LZ_BLANK)) e--;
    for (h = e; h > 0 && !(F->flags[h - 1] & LZ_BLANK) && heading_line(F->line[h - 1]); h--) {}
    if (!fresh && h < e && jsx_comment(F->line[e - 1]) == jsx && !(F->flags[c] & LZ_BLANK) && !heading_line(F->line[c]) &&
        (last == SIZE_MAX || last < h))
      return true;
    last = c, fresh = 0;
  }
  return false;
}

ec_error_code ec_lz_check_headings(ec_lz_job *job, const ec_lz_rview *v) {
  const ec_lz_side *F = &job->F, *S = &job->S;
  size_t ns = job->nseg_parsed, last = SIZE_MAX, markers = 0;
  if (job->diff_style) return EC_OK;
  /* The markers that name code in words of its own (ec_lz_names_code): one in the usual wording
   * (`// ... existing content ...`) says nothing of what the snippet writes out (twenty-third
   * pass). Marker lines next to each other (blank lines between aside) are one marker: a model
   * that writes its marker twice still leaves one place out. */
  for (size_t q = 0, after = 0; q < S->n; q++) {
    if (S->flags[q] & LZ_BLANK) continue;
    markers += (S->flags[q] & LZ_MARKER) && !after && ec_lz_names_code(S->line[q]);
    after = S->flags[q] & LZ_MARKER;
  }
  /* A snippet with no marker at either end whose lines run from the file's first code line to its
   * last: a whole-file answer that leaves out only one or two comment lines at the file's edges
   * (a path comment `// src/pages/CitasPage.tsx`, a stale note of an earlier answer) dropped them,
   * or is a fragment that keeps them: declined. Swept: 1 line declines one of the wild set's two
   * such merges, 2-4 both and nothing else; at 5 a Rust file's 5-line header, which the benchmark
   * keeps, is declined in three sets. */
  if (!job->lead_marker && !job->trail_marker) {
    size_t comments = 0, edge[2] = {0, ns};
    bool code = false;
    for (size_t e = 0; e < (ns ? 2 : 1) && !code; e++) /* the file lines kept above the first segment, then below the last */
      for (size_t f = v->gx[edge[e]]; v->gx[edge[e]] != SIZE_MAX && f < v->gy[edge[e]] && !code; f++)
        if (!(F->flags[f] & LZ_BLANK)) {
          code = !ec_lz_comment_line(F->line[f]) && !jsx_comment(F->line[f]);
          comments++;
        }
    if (comments && comments <= 2 && !code)
      return ec_lz_fail_check(job, EC_AMBIGUOUS, 0, 1, 1,
                              "a whole file but for a comment line or two at its edges, with no marker there: are they dropped, or kept?",
                              F->line[v->gx[0] != SIZE_MAX && v->gx[0] < v->gy[0] ? v->gx[0] : v->gx[ns]]);
  }
  /* Markers written as labels: where one naming code in words of its own stood for nothing
   * (snippet.c dropped it, the code it is about written out right after it), another keeping one
   * to three file lines (blank lines aside) may be one more label whose place happens to hold a
   * line or two (a debug log, an old comment) as well as an elision of them; not when they are a
   * comment whose words it repeats (the heading it names, kept as a note over it is). Swept: 1-3
   * lines give the same results; at 5 a ws-only merge of the first wild batch declines; with no
   * bound 7 right or ws-only ones. */
  for (size_t g = 0; g < ns && job->label_dropped; g++) {
    uint32_t j0 = job->seg[g].j0;
    size_t gx = v->gx[g], gy = v->gy[g], kept = 0;
    if (gx == SIZE_MAX || gx >= gy || !j0 || !(S->flags[j0 - 1] & LZ_MARKER)) continue;
    for (size_t f = gx; f < gy && kept < 4; f++)
      if (!(F->flags[f] & LZ_BLANK)) kept += ec_lz_note_restates(S->line[j0 - 1], F->line[f]) ? 4 : 1;
    if (kept && kept < 4)
      return ec_lz_fail_check(job, EC_AMBIGUOUS, g, (uint32_t)gx + 1, (uint32_t)gy,
                              "its markers are labels over code written out, and this one keeps only a line or two: left out, or one "
                              "more label?",
                              F->line[gx]);
  }
  for (size_t g = 0; g < ns; g++) {
    if (v->rb[g] == SIZE_MAX) continue;
    last = g;
    uint32_t j0 = job->seg[g].j0;
    size_t gx = v->gx[g], gy = v->gy[g];
    /* A marker naming code (a label, or any wording with words of its own) right above the
     * segment, standing only for the comment heading the segment's first file line; for a
     * label, the segment may start with new comment lines, the snippet's own heading
     * for that line (then the file's heading may end on a blank line, and the marker or the new
     * heading shares a word with any of its lines). */
    if (gx == SIZE_MAX || gx >= gy || !j0 || !(S->flags[j0 - 1] & LZ_MARKER)) continue;
    ec_str m = S->line[j0 - 1];
    /* A marker that says it keeps imports, standing where the file has none (the seventh wild
     * batch's `// ... existing imports` after the routes, keeping two routes the snippet wrote
     * again under new verbs): its words and its place disagree. */
    if (says_imports(m) && !may_hold_imports(F, gx, gy))
      return ec_lz_fail_check(job, EC_AMBIGUOUS, g, (uint32_t)gx + 1, (uint32_t)gy,
                              "its marker says it keeps imports, but the file lines it stands for hold none", F->line[gx]);
    if (!only_comment_lines(F, gx, gy)) {
      /* A marker worded as a note that code stays (ec_lz_stays_note), naming the code of the
       * segment's first line, which is the file's line right after the code it would keep: by
       * its words it stands for nothing there, so that code is removed by the snippet or kept by
       * the marker (the ninth wild batch's FilePreview.tsx: an import the answer drops, kept). */
      size_t r0 = v->rb[g];
      while (r0 < v->re[g] && v->r[r0].blank) r0++;
      if (r0 < v->re[g] && ec_lz_stays_note(m, false) && v->rfile[r0] != EC_LZ_NONE && names_line(m, v->r[r0].line)) {
        size_t f = gy;
        while (f < F->n && (F->flags[f] & LZ_BLANK)) f++;
        if (v->rfile[r0] == f)
          return ec_lz_fail_check(job, EC_AMBIGUOUS, g, (uint32_t)gx + 1, (uint32_t)gy,
                                  "its marker names the code after it as unchanged: the lines before that code kept, or not?",
                                  F->line[gx]);
      }
      continue;
    }
    bool label = ec_lz_marker_label(m), named = label || ec_lz_names_code(m);
    if (!named) continue;
    size_t r = v->rb[g];
    while (r < v->re[g] && v->rfile[r] == EC_LZ_NONE && (v->r[r].blank || ec_lz_comment_line(v->r[r].line))) r++;
    size_t f = gy;
    while (r > v->rb[g] && f < F->n && (F->flags[f] & LZ_BLANK)) f++;
    if (v->rfile[r] != f) continue;
    if (r == v->rb[g]) {
      if (F->flags[gy - 1] & LZ_BLANK) continue;
      bool shared = share_word(m, F->line[gy - 1]) || share_word(m, F->line[gy]);
      /* The snippet's only marker: everything else is written out, so a marker over nothing but
       * a short heading may stand for nothing at all (a whole-file answer's stray label). */
      bool shortly = short_unnamed_heading(F, gx, gy, m);
      if (!(shared && (label || shortly)) && !(markers == 1 && shortly)) continue;
    } else {
      if (!label && !(markers == 1 && short_unnamed_heading(F, gx, gy, m))) continue;
      bool shared = false;
      for (size_t k = gx; k < gy && !shared; k++)
        shared = share_word(S->line[j0 - 1], F->line[k]) || share_word(v->r[v->rb[g]].line, F->line[k]);
      if (!shared) continue;
    }
    return ec_lz_fail_check(job, EC_AMBIGUOUS, g, (uint32_t)gx + 1, (uint32_t)gy,
                            "its marker, named in words of its own, stands where the file has only the comment heading the "
                            "segment's first line: that comment kept, or the marker its new label?",
                            F->line[gy - 1]);
  }
  /* A marker keeping nothing but comment lines, in an answer that strips the file's comment
   * headings elsewhere (strips_a_heading): the marker is one more label over code written out,
   * whose place happens to hold a heading the answer drops like the others, or it stands for that
   * heading. Declined, unless its words restate the comment. Only headings of the kept comment's
   * form count: an answer rewriting a component's logic drops its `//` comments and keeps its JSX
   * sections (the wild set's twenty-second batch's Checkout.jsx). The general form of the shapes
   * the thirteenth, twenty-second and twenty-third passes met one by one (the wild batches'
   * Hero.tsx, MovieCard.tsx, VendorDashboard.tsx, firestore.rules: a JSX note that the rest of the
   * Hero component remains the same, over the file's section comment "Content Container", the
   * answer dropping its other section comments): on its own it declines 16 of the wild set's cases
   * those rules decline, 7 of them read as wrong when first measured, and no output of any set
   * changes (issue 30, twenty-fourth pass). */
  int stripped[2] = {-1, -1}; /* strips_a_heading for line comments and JSX ones, read once when a marker first asks */
  for (size_t g = 0; g <= ns; g++) {
    size_t gx = v->gx[g], gy = v->gy[g], k = g < ns ? job->seg[g].j0 - 1u : (ns ? job->seg[ns - 1].j1 : S->n), f = gx;
    if (gx == SIZE_MAX || gx >= gy || k >= S->n || !(S->flags[k] & LZ_MARKER) || !only_comment_lines(F, gx, gy)) continue;
    while (f < gy && ((F->flags[f] & LZ_BLANK) || !ec_lz_note_restates(S->line[k], F->line[f]))) f++;
    if (f < gy) continue; /* its words restate the comment: it names what it keeps */
    while (F->flags[f - 1] & LZ_BLANK) f--; /* the comment's last line: a JSX one, or not */
    bool jsx = jsx_comment(F->line[f - 1]);
    if (stripped[jsx] < 0) stripped[jsx] = strips_a_heading(F, v, jsx);
    if (stripped[jsx])
      return ec_lz_fail_check(job, EC_AMBIGUOUS, g < ns ? g : ns - 1, (uint32_t)gx + 1, (uint32_t)gy,
                              "its marker keeps only a comment, where the snippet drops the file's other headings over code it "
                              "keeps: kept, or dropped too?",
                              F->line[gx]);
  }
  if (last == SIZE_MAX || job->trail_marker || v->gx[ns] == SIZE_MAX || v->gx[ns] >= v->gy[ns]) return EC_OK;
  /* The snippet's unmarked end: its last line new, the last line it shows of the file a comment
   * whose code the result keeps right after the new lines. */
  size_t r = v->re[last], a;
  while (r > v->rb[last] && v->r[r].blank) r--;
  if (v->rfile[r] != EC_LZ_NONE) return EC_OK;
  for (a = r; a > v->rb[last] && (v->r[a].blank || v->rfile[a] == EC_LZ_NONE); a--) {}
  size_t f = v->gx[ns];
  while (f < v->gy[ns] && (F->flags[f] & LZ_BLANK)) f++;
  if (v->rfile[a] == EC_LZ_NONE || v->rfile[a] + 1 != f || f >= v->gy[ns] || !ec_lz_comment_line(F->line[v->rfile[a]]) ||
      ec_lz_comment_line(F->line[f]))
    return EC_OK;
  return ec_lz_fail_check(job, EC_AMBIGUOUS, last, (uint32_t)f + 1, (uint32_t)f + 1,
                          "it ends with no marker on new lines written under a comment of the file, and the line that comment "
                          "heads would stay after them: replaced by them, or kept?",
                          F->line[f]);
}
