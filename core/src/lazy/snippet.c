/*
 * The snippet's lines: a surrounding code fence is dropped, blank lines at both ends are
 * dropped, markers are found (a marker-looking line the file itself holds is literal text),
 * and the literal runs between markers become segments. Diff style: when some line starts with
 * `+` and every other line is blank, a marker, a hunk header or starts with `+`, `-` or a space,
 * the snippet is a diff: the first character is the line's role, the rest its text.
 */
#define _GNU_SOURCE 1 /* memmem */
#include "lazy.h"
#include "../base/str.h"
#include "../base/buf.h"
#include <string.h>
#include <stdlib.h>

static bool is_fence(ec_str l) {
  ec_str t = ec_lz_trim(l);
  return t.len >= 3 && !memcmp(t.ptr, "```", 3);
}

static bool diff_header(ec_str l) {
  return (l.len >= 2 && !memcmp(l.ptr, "@@", 2)) || (l.len >= 4 && (!memcmp(l.ptr, "--- ", 4) || !memcmp(l.ptr, "+++ ", 4)));
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The file's line heads (ec_lz_head), hashed and sorted, for "does any file line share this
 * head?"; built once, on first need. */
typedef struct heads_t {
  uint64_t *h;
  size_t n;
  bool built;
} heads_t;

static bool file_has_head(ec_lz_job *job, heads_t *hd, ec_str head) {
  if (!hd->built) {
    hd->built = true;
    hd->h = ec_arena_alloc(job->a, (job->F.n + 1) * sizeof *hd->h);
    if (!hd->h) return true; /* out of memory: claim it is there (no expansion) */
    for (size_t i = 0; i < job->F.n; i++) {
      ec_str fh = ec_lz_head(job->F.line[i]);
      if (fh.len) hd->h[hd->n++] = ec_lz_key(fh);
    }
    qsort(hd->h, hd->n, sizeof *hd->h, cmp_u64);
  }
  if (!hd->h) return true;
  uint64_t k = ec_lz_key(head);
  return bsearch(&k, hd->h, hd->n, sizeof k, cmp_u64) != NULL;
}

/* Diff style: a block opened by a new line is new as a whole. A line the file does not have
 * (context, or a `+` we inferred), whose head (`fn name`, `private readonly name`) no file line shares, that opens a
 * block — more brackets opened than closed, or ending in `:` with deeper lines below — is new
 * together with every line down to the one closing its block, when the block ends inside its
 * part (no marker, no `-` line, no `+` the model wrote itself in it: that would be existing lines
 * wrapped in new code) and holds another line the file lacks: a model adding a
 * function between context lines leaves off its `+`s, and its body has lines that occur
 * elsewhere in the file (`}`, `return None`), which would otherwise be read as context.
 * Returns whether a line changed. Linear: each line's block end, and the counts inside a block,
 * come from tables built in one pass (nb_prepare). */
typedef struct nb_tables {
  size_t *end;      /* line -> the last line of the block it opens (SIZE_MAX: none, or crossed by a marker or `-` line) */
  uint32_t *absent; /* prefix counts: non-blank lines the file lacks */
  uint32_t *own;    /* prefix counts: `+` lines the model wrote itself */
  uint32_t *ctx;    /* prefix counts: non-blank context lines (rebuilt per pass: lines turn new) */
} nb_tables;

/* A line that opens an indented block with a colon (`def f(x):`), a `# comment` after the colon
 * aside (`def f(x) -> Graph:  # type: ignore[name-defined]`): the code ends at a `#` after
 * whitespace (a `#` in a string such as "#fff" has none before it). */
static bool colon_opener(ec_str t) {
  for (size_t i = 1; i < t.len; i++)
    if (t.ptr[i] == '#' && (t.ptr[i - 1] == ' ' || t.ptr[i - 1] == '\t')) t.len = i;
  t = ec_lz_trim(t);
  return t.len && t.ptr[t.len - 1] == ':';
}

static bool nb_prepare(ec_lz_job *job, const char *op, const uint8_t *mark, size_t n, nb_tables *T) {
  ec_lz_side *S = &job->S;
  ec_arena *a = job->a;
  T->end = ec_arena_alloc(a, (n + 1) * sizeof *T->end);
  T->absent = ec_arena_alloc(a, (n + 1) * sizeof *T->absent);
  T->own = ec_arena_alloc(a, (n + 1) * sizeof *T->own);
  T->ctx = ec_arena_alloc(a, (n + 1) * sizeof *T->ctx);
  int64_t *D = ec_arena_alloc(a, (n + 1) * sizeof *D);     /* D[k]: bracket depth before line k */
  size_t *nxt = ec_arena_alloc(a, (n + 1) * sizeof *nxt);  /* next q > k with D[q] <= D[k] */
  size_t *ind = ec_arena_alloc(a, (n + 1) * sizeof *ind);  /* next non-blank k' > k indented no deeper */
  size_t *stop = ec_arena_alloc(a, (n + 1) * sizeof *stop); /* next marker or `-` line after k */
  size_t *st = ec_arena_alloc(a, (n + 2) * sizeof *st);
  if (!T->end || !T->absent || !T->own || !T->ctx || !D || !nxt || !ind || !stop || !st) return false;
  D[0] = 0;
  T->absent[0] = T->own[0] = 0;
  for (size_t k = 0; k < n; k++) {
    D[k + 1] = D[k] + (mark[k] ? 0 : ec_lz_bracket_net(S->line[k]));
    uint32_t cnt = 1;
    if (!mark[k] && !(S->flags[k] & LZ_BLANK)) ec_lz_side_first(&job->F, S->key[k], &cnt);
    T->absent[k + 1] = T->absent[k] + (cnt == 0);
    T->own[k + 1] = T->own[k] + (op[k] == '+' && !(S->flags[k] & LZ_INFERRED) && !(S->flags[k] & LZ_BLANK));
  }
  size_t sp = 0;
  for (size_t q = n + 1; q-- > 0;) {
    while (sp && D[st[sp - 1]] > D[q]) sp--;
    nxt[q] = sp ? st[sp - 1] : SIZE_MAX;
    st[sp++] = q;
  }
  sp = 0;
  for (size_t k = n; k-- > 0;) {
    ind[k] = n;
    if (S->flags[k] & LZ_BLANK) continue;
    while (sp && S->indent[st[sp - 1]] > S->indent[k]) sp--;
    ind[k] = sp ? st[sp - 1] : n;
    st[sp++] = k;
  }
  size_t ns = n;
  for (size_t k = n; k-- > 0;) {
    stop[k] = ns;
    if (mark[k] || op[k] == '-') ns = k;
  }
  for (size_t i = 0; i < n; i++) {
    T->end[i] = SIZE_MAX;
    if (mark[i] || (S->flags[i] & LZ_BLANK)) continue;
    int32_t net = ec_lz_bracket_net(S->line[i]);
    ec_str t = ec_lz_trim(S->line[i]);
    if (net > 0) {
      /* Where the depth first comes back to the opener's own, exactly, with no marker or `-` line on the way. */
      size_t r = nxt[i];
      if (r == SIZE_MAX || r == 0 || D[r] != D[i] || stop[i] <= r - 1) continue;
      T->end[i] = r - 1;
    } else if (net == 0 && colon_opener(t)) {
      /* The deeper lines below, up to the next line (or a marker) no deeper; a deeper marker or a
       * `-` line on the way spoils it. */
      size_t E = ind[i];
      if (stop[i] < E || (E < n && !mark[E] && op[E] == '-')) continue;
      size_t e = E;
      while (e > i + 1 && (S->flags[e - 1] & LZ_BLANK)) e--;
      if (e <= i + 1) continue;
      T->end[i] = e - 1;
    }
  }
  return true;
}

static bool new_blocks(ec_lz_job *job, char *op, const uint8_t *mark, size_t n, heads_t *hd, nb_tables *T) {
  ec_lz_side *S = &job->S;
  bool changed = false;
  T->ctx[0] = 0;
  for (size_t k = 0; k < n; k++) T->ctx[k + 1] = T->ctx[k] + (op[k] == ' ' && !mark[k] && !(S->flags[k] & LZ_BLANK));
  for (size_t i = 0; i < n; i++) {
    size_t e = T->end[i];
    if (e == SIZE_MAX || op[i] == '-') continue;
    if (op[i] == '+' && !(S->flags[i] & LZ_INFERRED)) continue; /* the model's own `+`: it marks what is new itself */
    if (T->absent[i + 1] == T->absent[i]) continue;              /* the opener is a file line */
    /* Another line the file lacks inside; no `+` of the model's own there (existing lines wrapped
     * in new code); and something left to turn new. */
    if (T->absent[e + 1] == T->absent[i + 1] || T->own[e + 1] != T->own[i + 1]) continue;
    if (T->ctx[e + 1] == T->ctx[i + 1] && op[i] != ' ') continue;
    ec_str head = ec_lz_head(S->line[i]);
    if (!head.len || file_has_head(job, hd, head)) continue;
    for (size_t k = i; k <= e; k++)
      if (op[k] == ' ' && !mark[k]) { op[k] = '+'; S->flags[k] |= LZ_INFERRED; changed = true; }
    i = e;
  }
  return changed;
}

/* The file line that snippet line i is, reading from the nearest line that occurs once in the file
 * (walking by step, no marker crossed) and every line from there to i equal to the file's lines in
 * order, blank lines too; LZ_NIL when there is no such reading. Bounded at 64 lines. */
static uint32_t read_from_unique(ec_lz_job *job, const ec_str *lines, const uint8_t *mark, size_t n, size_t i, int step) {
  size_t k = i;
  for (unsigned walked = 0; walked < 64; walked++) {
    if (mark[k]) return LZ_NIL;
    uint32_t c = 0;
    uint32_t f = ec_lz_side_first(&job->F, ec_lz_key(lines[k]), &c);
    if (c == 1 && ec_lz_trim(lines[k]).len) {
      /* k is file line f: snippet lines lo..hi must be file lines first..first+(hi-lo) in order. */
      size_t d = step > 0 ? k - i : i - k, lo = step > 0 ? i : k;
      if (step > 0 ? f < d : (size_t)f + d >= job->F.n) return LZ_NIL;
      uint32_t first = step > 0 ? f - (uint32_t)d : f;
      for (size_t t = 0; t <= d; t++)
        if (job->F.key[first + t] != ec_lz_key(lines[lo + t])) return LZ_NIL;
      return first + (uint32_t)(i - lo);
    }
    if (step > 0 ? k + 1 >= n : k == 0) return LZ_NIL;
    k = step > 0 ? k + 1 : k - 1;
  }
  return LZ_NIL;
}

/* Whether the file has only blank lines between lines fa < fb, at most 63 of them (a snippet
 * repeating one pair of lines around its markers or notes must not read a long blank run at each;
 * past that, the run counts as code). */
static bool blank_run(const ec_lz_side *F, uint32_t fa, uint32_t fb) {
  if (fb - fa > 64) return false;
  for (uint32_t f = fa + 1; f < fb; f++)
    if (!(F->flags[f] & LZ_BLANK)) return false;
  return true;
}

/* A marker that stands for nothing by the file itself: read from the nearest lines that occur once
 * in the file, the snippet lines right before and after it (blank lines aside, no other marker
 * between) are file lines with only blank lines between them. Whatever the marker meant, its run
 * there holds no code, so it is dropped and the two sides join one segment: whole-file answers
 * that leave a stray `// ...existing code...` above code they then write out in full were cut at
 * it, and the second part placed alone was read against blocks it does not start (issue 30,
 * eleventh pass). Where the file has no line there, the blank lines on the side of it that shows
 * more stay, the others go (a blank line written above a stray marker is the snippet's spacing:
 * sixteenth pass); where the file has some, only as many as the snippet shows around it let the
 * marker alone go (else it stays).
 * Returns the new line count. */
/* Whether the file has more code lines between the nearest lines it has once above and below a
 * note (at most 64 snippet lines either way: lines[0..k) above, already compacted, lines[i+1..n)
 * below) than the snippet writes there in lines of its own: code lines of the file it does not
 * show cannot all be lines it rewrote, so the note may stand for them, in words. Read where the
 * note's place cannot be read from consecutive file lines (an edited or a new line beside it): a
 * JSX note "Other inputs remain the same" between an edited title input and a new one stands
 * for the price and stock inputs between them. Comments are no code it stands for (a note takes a
 * heading's place, above). False when no such line is near. */
static bool note_spans_code(ec_lz_job *job, const ec_str *lines, const uint8_t *mark, size_t k, size_t i, size_t n) {
  const ec_lz_side *F = &job->F;
  uint32_t f[2] = {LZ_NIL, LZ_NIL}; /* the nearest lines the file has once above and below */
  size_t end[2] = {k, i + 1};       /* the snippet's lines between them: [end[0], k) and [i + 1, end[1]) */
  for (int d = 0; d < 2; d++)
    for (size_t w = 0; w < 64 && f[d] == LZ_NIL; w++) {
      size_t t = d ? end[1] : end[0] - 1;
      if ((d ? t >= n : !end[0]) || mark[t]) break;
      uint32_t c = 0, at = ec_lz_side_first(F, ec_lz_key(lines[t]), &c);
      if (c == 1 && ec_lz_trim(lines[t]).len) f[d] = at;
      else if (d) end[1]++;
      else end[0]--;
    }
  if (f[0] == LZ_NIL || f[1] == LZ_NIL || f[1] <= f[0] || f[1] - f[0] > 128) return false;
  /* Past the job's work budget, the careful answer (the merge then stops at the budget). */
  job->work += (uint64_t)(f[1] - f[0]) * (k - end[0] + end[1] - i);
  if (job->work > job->work_cap) return true;
  /* Code lines of the file there that the snippet does not show, less the lines it writes of its own. */
  long more = 0;
  for (uint32_t g = f[0] + 1; g < f[1]; g++)
    if (!(F->flags[g] & LZ_BLANK) && !ec_lz_note_line(F->line[g])) {
      bool shown = false;
      for (size_t t = end[0] < k ? end[0] : i + 1; t < end[1] && !shown; t = t + 1 == k ? i + 1 : t + 1) shown = ec_lz_key(lines[t]) == F->key[g];
      more += !shown;
    }
  for (size_t t = end[0] < k ? end[0] : i + 1; t < end[1]; t = t + 1 == k ? i + 1 : t + 1) {
    if (!ec_lz_trim(lines[t]).len || ec_lz_note_line(lines[t])) continue;
    bool file = false;
    for (uint32_t g = f[0] + 1; g < f[1] && !file; g++) file = F->key[g] == ec_lz_key(lines[t]);
    more -= !file;
  }
  return more > 0;
}

static size_t drop_empty_markers(ec_lz_job *job, ec_str *lines, char *op, uint8_t *mark, uint32_t *src, size_t n) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (mark[i] == 2) {
      /* A note (ec_lz_parse) goes where the code it is about follows it: the next line past blank
       * lines and other notes (one written twice) is the file's, read from the nearest line the
       * file has once. Elsewhere it is a line of the answer (copied below). It is no misplaced
       * marker, except over code the file has at its place (below). */
      size_t r = i + 1, p = k;
      while (r < n && (mark[r] == 2 || (!mark[r] && !ec_lz_trim(lines[r]).len))) r++;
      /* Right above a marker (blank lines aside) it is that marker's wording, said twice: it goes
       * with the marker, which keeps or drops what it stands for. */
      if (r < n && mark[r] == 1) {
        mark[i] = 0;
        continue;
      }
      uint32_t fb = r < n && !mark[r] ? read_from_unique(job, lines, mark, n, r, +1) : LZ_NIL;
      /* Or the code it is about written out edited: the line after that one is the file's, and
       * that one an edited version of the file line above it (a state given a comment). */
      if (fb == LZ_NIL && r + 1 < n && !mark[r]) {
        uint32_t f1 = read_from_unique(job, lines, mark, n, r + 1, +1);
        if (f1 != LZ_NIL && f1 && ec_lz_edited(lines[r], job->F.line[f1 - 1])) fb = f1 - 1;
      }
      mark[i] = 0;
      if (fb == LZ_NIL) {
        /* New code after it: a line of the answer, unless it stands where the file has code the
         * snippet does not show. */
        if (note_spans_code(job, lines, mark, k, i, n)) mark[i] = 1;
        goto copy;
      }
      /* Over the file's heading of that code, whose words it repeats: the heading stays (as
       * invariant (i) reads a marker naming a heading), written where the note stands, right
       * above its code as in the file (blank lines between are the note's padding, a marker's).
       * The snippet did not write that line: the file's map is widened for it (once). */
      bool padded = true;
      for (size_t q = i + 1; q < r && padded; q++) padded = !mark[q];
      if (padded && fb && ec_lz_note_restates(lines[i], job->F.line[fb - 1]) && !ec_lz_side_map_all(job->a, &job->F)) {
        lines[k] = job->F.line[fb - 1];
        op[k] = op[i];
        mark[k] = 0;
        src[k++] = src[i];
        i = r - 1;
        continue;
      }
      /* Where the file has code between the line above (read from the file) and that line, the
       * note may be an elision in words ("Other helpers remain the same" for the helpers there):
       * it is a marker, which ec_lz_check_headings declines when it names the code after it. */
      while (p > 0 && !mark[p - 1] && !ec_lz_trim(lines[p - 1]).len) p--;
      uint32_t fa = p > 0 && !mark[p - 1] ? read_from_unique(job, lines, mark, k, p - 1, -1) : LZ_NIL;
      if (fa == LZ_NIL ? !note_spans_code(job, lines, mark, k, i, n) : fb <= fa || blank_run(&job->F, fa, fb)) continue;
      mark[i] = 1;
    } else if (mark[i]) {
      size_t p = k, q = i + 1;
      while (p > 0 && !mark[p - 1] && !ec_lz_trim(lines[p - 1]).len) p--;
      while (q < n && !mark[q] && !ec_lz_trim(lines[q]).len) q++;
      if (p > 0 && !mark[p - 1] && q < n && !mark[q]) {
        uint32_t fa = read_from_unique(job, lines, mark, k, p - 1, -1);
        uint32_t fb = fa == LZ_NIL ? LZ_NIL : read_from_unique(job, lines, mark, n, q, +1);
        /* lines[0..k) are already compacted; lines[q..n) are not yet touched. */
        bool blank_only = fb != LZ_NIL && fb > fa && blank_run(&job->F, fa, fb);
        /* Where the file has no line between, or blank lines as many as the snippet shows around
         * the marker (then the marker alone goes), it stands for nothing: dropped. */
        if (blank_only && (fb == fa + 1 || fb - fa - 1 == (k - p) + (q - i - 1))) {
          job->marker_dropped = true;
          job->label_dropped |= ec_lz_names_code(lines[i]);
          /* No line between: of the blank lines around the marker, the side showing more stays
           * (the snippet's spacing between the two lines, once). */
          if (fb == fa + 1) {
            if (q - i - 1 > k - p) k = p; /* those after it stay, copied as the walk goes on */
            else i = q - 1;               /* those before it stay (copied already), those after go */
          }
          continue;
        }
      }
    }
  copy:
    lines[k] = lines[i];
    op[k] = op[i];
    mark[k] = mark[i];
    src[k] = src[i];
    k++;
  }
  return k;
}

/* A part's first line written without its indentation (`function drawBird() {` for the file's
 * `    function drawBird() {`: the model copied from after the leading whitespace), while the line
 * that closes its bracket keeps its own (`    }`): when the file has that line (its first of that
 * text) at the closer's column, with the same whitespace, the part's line is the file's, as every
 * block's opener sits at its closer's column. Only a part's first line; a line the file lacks, or
 * has at another column, stays as written. Lines [i, j): the part, text in it. The line then
 * points into the file's text (no snippet line is located by its address). */
static void first_line_indent(ec_lz_job *job, size_t i, size_t j) {
  ec_lz_side *S = &job->S, *F = &job->F;
  while (S->flags[i] & LZ_BLANK) i++;
  int32_t depth = ec_lz_bracket_net(S->line[i]);
  uint32_t cnt, f = ec_lz_side_first(F, S->key[i], &cnt);
  size_t c = i;
  while (depth > 0 && ++c < j) depth += ec_lz_bracket_net(S->line[c]);
  if (!depth && c > i && f < F->n && S->indent[c] == F->indent[f] && !memcmp(S->line[c].ptr, F->line[f].ptr, F->indent[f]))
    S->line[i] = F->line[f], S->indent[i] = F->indent[f];
}

ec_error_code ec_lz_parse(ec_lz_job *job, ec_str snippet, bool *diff_style) {
  ec_arena *a = job->a;
  ec_lz_side raw;
  if (ec_lz_side_lines(a, snippet, &raw)) return EC_OUT_OF_MEMORY;
  size_t b = 0, e = raw.n;
  while (b < e && (raw.flags[b] & LZ_BLANK)) b++;
  while (e > b && (raw.flags[e - 1] & LZ_BLANK)) e--;
  job->lead_blanks = (uint32_t)b;
  /* A fence around the whole snippet (unless the file itself starts with one). */
  if (e - b >= 2 && is_fence(raw.line[b]) && is_fence(raw.line[e - 1]) &&
      !(job->F.n && is_fence(job->F.line[0]))) {
    job->lead_blanks = 0;
    b++;
    e--;
    while (b < e && (raw.flags[b] & LZ_BLANK)) b++;
    while (e > b && (raw.flags[e - 1] & LZ_BLANK)) e--;
  }
  size_t n = e - b;
  ec_str *lines = ec_arena_alloc(a, (n + 1) * sizeof *lines);
  char *op = ec_arena_alloc(a, n + 1);
  uint8_t *mark = ec_arena_calloc(a, n + 1, 1);
  uint32_t *src = ec_arena_alloc(a, (n + 1) * sizeof *src);
  if (!lines || !op || !mark || !src) return EC_OUT_OF_MEMORY;
  job->src = src;

  /* Markers: marker-looking lines the file does not hold. */
  for (size_t i = 0; i < n; i++) {
    ec_str l = raw.line[b + i];
    lines[i] = l;
    op[i] = ' ';
    src[i] = (uint32_t)(b + i + 1);
    if (ec_lz_is_marker(l, b + i ? &raw.line[b + i - 1] : &(ec_str){0})) {
      uint32_t cnt = 0;
      ec_lz_side_first(&job->F, raw.key[b + i], &cnt);
      if (!cnt) mark[i] = 1;
    }
  }

  /* Diff style? */
  bool plus = false, ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    ec_str l = lines[i];
    if (mark[i] || !ec_lz_trim(l).len) continue;
    if (diff_header(l)) continue;
    if (l.ptr[0] == '+') plus = true;
    else if (l.ptr[0] != '-' && l.ptr[0] != ' ') ok = false;
  }
  *diff_style = plus && ok;
  /* Loose diff style: `+` lines among plain lines (no space prefix on context). A line counts
   * only when the file has no such line, so real code starting with `+` stays code. */
  bool loose = false;
  if (!*diff_style) {
    for (size_t i = 0; i < n; i++) {
      ec_str l = lines[i];
      if (mark[i] || !l.len || l.ptr[0] != '+' || diff_header(l)) continue;
      uint32_t cnt = 0;
      ec_lz_side_first(&job->F, ec_lz_key(l), &cnt);
      if (!cnt) { loose = true; break; }
    }
  }
  if (loose) {
    for (size_t i = 0; i < n; i++) {
      ec_str l = lines[i];
      op[i] = ' ';
      if (mark[i] || !l.len) continue;
      if (l.ptr[0] == '+') { op[i] = '+'; lines[i] = ec_str_make(l.ptr + 1, l.len - 1); continue; }
      /* A context line written with a diff's one-space prefix (` const x = 1;` over the file's
       * `const x = 1;`) while the `+` lines lose theirs: left on, the space reads as a column, and
       * every `+` line is written one column shallower than the code around it. It is the prefix
       * when the file's first line of that text is the line byte for byte without it (a file
       * indented by one space keeps it). */
      uint32_t whole = 0, at = ec_lz_side_first(&job->F, ec_lz_key(l), &whole);
      ec_str rest = ec_str_make(l.ptr + 1, l.len - 1);
      if (l.ptr[0] == ' ' && whole && ec_str_eq(job->F.line[at], rest)) lines[i] = rest;
      if (l.ptr[0] == '-' && !(l.len >= 2 && l.ptr[1] == '-')) {
        uint32_t stripped = 0;
        ec_lz_side_first(&job->F, ec_lz_key(rest), &stripped);
        if (!whole && stripped) { op[i] = '-'; lines[i] = rest; }
      }
    }
    *diff_style = true;
  } else if (*diff_style) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
      ec_str l = lines[i];
      src[k] = src[i];
      if (!mark[i] && diff_header(l)) {
        if (l.ptr[0] == '@' || k) { lines[k] = l; op[k] = ' '; mark[k] = 1; k++; } /* a hunk break */
        continue;
      }
      if (mark[i] || !l.len) { lines[k] = l; op[k] = ' '; mark[k] = mark[i]; k++; continue; }
      op[k] = l.ptr[0] == '+' || l.ptr[0] == '-' ? l.ptr[0] : ' ';
      lines[k] = ec_str_make(l.ptr + 1, l.len - 1);
      mark[k] = 0;
      k++;
    }
    n = k;
    /* A `-` line of a line that itself starts with `-` (a Lua or SQL `--` comment) written with
     * one `-` only: its text without the prefix is not in the file, the whole line is, and a `+`
     * line of its change run is an edited version of the whole line — that file line is removed. */
    for (size_t i = 0; i < n; i++) {
      if (op[i] != '-' || mark[i]) continue;
      ec_str whole = ec_str_make(lines[i].ptr - 1, lines[i].len + 1);
      if (whole.ptr[0] != '-') continue;
      uint32_t cs = 0, cw = 0;
      ec_lz_side_first(&job->F, ec_lz_key(lines[i]), &cs);
      ec_lz_side_first(&job->F, ec_lz_key(whole), &cw);
      if (cs || !cw) continue;
      /* The edited version is looked for among the run's lines within DASH_REACH of this one:
       * a run of thousands of such lines, each compared with every `+` line, was quadratic (5,000
       * `-- ` lines and 5,000 `+` lines: 46 s). */
      enum { DASH_REACH = 64 };
      bool edited = false;
      for (size_t q = i + 1; q < n && q <= i + DASH_REACH && !mark[q] && op[q] != ' ' && !edited; q++)
        edited = op[q] == '+' && ec_lz_edited(lines[q], whole);
      for (size_t q = i; q-- > 0 && q + DASH_REACH >= i && !mark[q] && op[q] != ' ' && !edited;)
        edited = op[q] == '+' && ec_lz_edited(lines[q], whole);
      if (edited) lines[i] = whole;
    }
  }

  /* Over-escaped copies: a line the file does not have, which becomes a file line once its
   * escapes are undone (`match("^[%w]+=\")` for `match("^[%w]+=")`), is that file line — the
   * model's JSON escaping leaked into the code, it did not change the line (SPEC §4 unescape). */
  for (size_t i = 0; i < n; i++) {
    if (mark[i] || !lines[i].len || !memchr(lines[i].ptr, '\\', lines[i].len)) continue;
    uint32_t cnt = 0;
    ec_lz_side_first(&job->F, ec_lz_key(lines[i]), &cnt);
    if (cnt) continue;
    ec_str un;
    if (!ec_lz_unescape(a, lines[i], &un)) continue;
    uint32_t hit = ec_lz_side_first(&job->F, ec_lz_key(un), &cnt);
    if (cnt && hit != LZ_NIL) lines[i] = un;
  }
  if (!*diff_style) {
    /* Notes that the code they are about stays ("Other form fields remain the same" in a JSX
     * comment above those fields written out): dropped where they stand for nothing, as a
     * marker is; elsewhere lines of the answer (drop_empty_markers). */
    /* The next line past blank ones and notes is a marker: a note there is its wording, however long. */
    bool marker_below = false;
    for (size_t i = n; i-- > 0;) {
      uint32_t cnt = 1;
      if (!mark[i] && ec_lz_stays_note(lines[i], marker_below)) ec_lz_side_first(&job->F, ec_lz_key(lines[i]), &cnt);
      if (!cnt) mark[i] = 2;
      else if (mark[i] || ec_lz_trim(lines[i]).len) marker_below = mark[i] == 1;
    }
    n = drop_empty_markers(job, lines, op, mark, src, n);
  }
  if (ec_lz_side_from_lines(a, lines, n, &job->S)) return EC_OUT_OF_MEMORY;
  if (*diff_style) {
    /* New lines written without their `+`: a context line the file does not have at all, next
     * to `+` lines (blank lines between aside), or anywhere in a snippet whose context carries no
     * prefix, or in a part between markers with no `+` or `-` line at all (context the file lacks
     * cannot be context there), is new. Repeated until nothing changes, so a run of such lines
     * joins the `+` line it hangs from. */
    uint8_t *plain_part = ec_arena_calloc(a, n + 1, 1); /* line i is in a part with no +/- line */
    if (!plain_part) return EC_OUT_OF_MEMORY;
    for (size_t i = 0; i < n;) {
      if (mark[i]) { i++; continue; }
      size_t pe = i;
      bool change = false;
      while (pe < n && !mark[pe]) { if (op[pe] != ' ') change = true; pe++; }
      for (size_t q = i; q < pe; q++) plain_part[q] = !change;
      i = pe;
    }
    heads_t hd = {0};
    nb_tables nbt;
    if (!nb_prepare(job, op, mark, n, &nbt)) return EC_OUT_OF_MEMORY;
    bool changed = true;
    /* Each round walks down, then up: a run of such lines above the `+` line it hangs from joins
     * in one round, not one line per round (20,000 lines above a `+`: 2.8 s, quadratic). */
    while (changed) {
      changed = new_blocks(job, op, mark, n, &hd, &nbt);
      for (size_t t = 0; t < 2 * n; t++) {
        size_t i = t < n ? t : 2 * n - 1 - t;
        if (op[i] != ' ' || mark[i] || (job->S.flags[i] & LZ_BLANK)) continue;
        uint32_t cnt = 0;
        ec_lz_side_first(&job->F, job->S.key[i], &cnt);
        if (cnt) continue;
        size_t u = i, d = i + 1;
        while (u > 0 && !mark[u - 1] && (job->S.flags[u - 1] & LZ_BLANK)) u--;
        while (d < n && !mark[d] && (job->S.flags[d] & LZ_BLANK)) d++;
        /* Without prefixes on context (`+` lines among plain lines), any plain line the file
         * lacks is new: such snippets leave the `+` off whole new functions. */
        if (loose || plain_part[i] || (u > 0 && !mark[u - 1] && op[u - 1] == '+') || (d < n && !mark[d] && op[d] == '+')) {
          op[i] = '+';
          job->S.flags[i] |= LZ_INFERRED;
          changed = true;
        }
      }
    }
  }
  job->S.op = op;
  job->diff_style = *diff_style;
  for (size_t i = 0; i < n; i++)
    if (mark[i]) job->S.flags[i] |= LZ_MARKER;

  /* Segments: literal runs between markers; a run of blank lines only is dropped. */
  job->seg = ec_arena_alloc(a, (n / 2 + 2) * sizeof *job->seg);
  job->seg_of = ec_arena_alloc(a, (n + 1) * sizeof *job->seg_of);
  if (!job->seg || !job->seg_of) return EC_OUT_OF_MEMORY;
  job->nseg = 0;
  bool marker_pending = false;
  uint32_t marker_indent = 0;
  size_t i = 0;
  while (i < n) {
    if (mark[i]) {
      if (job->nseg) { job->seg[job->nseg - 1].marker_after = true; }
      if (!marker_pending) marker_indent = job->S.indent[i];
      marker_pending = true;
      if (job->nseg && !job->seg[job->nseg - 1].marker_after_indent) job->seg[job->nseg - 1].marker_after_indent = job->S.indent[i];
      if (!job->nseg) job->lead_marker = true;
      job->seg_of[i] = LZ_NIL;
      i++;
      continue;
    }
    size_t j = i;
    bool text = false;
    while (j < n && !mark[j]) {
      if (!(job->S.flags[j] & LZ_BLANK)) text = true;
      j++;
    }
    if (text) {
      ec_lz_seg *s = &job->seg[job->nseg];
      s->j0 = (uint32_t)i;
      s->j1 = (uint32_t)j;
      s->marker_before = marker_pending;
      s->marker_after = false;
      s->marker_after_indent = 0;
      s->drop_j = s->drop_i = s->drop_fo = LZ_NIL;
      for (size_t k = i; k < j; k++) job->seg_of[k] = (uint32_t)job->nseg;
      job->nseg++;
      if (!*diff_style) first_line_indent(job, i, j);
      marker_pending = false;
    } else {
      for (size_t k = i; k < j; k++) job->seg_of[k] = LZ_NIL;
    }
    i = j;
  }
  (void)marker_indent;
  job->trail_marker = marker_pending && job->nseg;
  if (!job->nseg) job->trail_marker = false;
  return EC_OK;
}

bool ec_lz_unescape(ec_arena *a, ec_str line, ec_str *out) {
  if (!line.len || !memchr(line.ptr, '\\', line.len)) return false;
  char *u = ec_arena_alloc(a, line.len + 1);
  if (!u) return false;
  size_t k = 0;
  bool changed = false;
  for (size_t q = 0; q < line.len; q++) {
    char c = line.ptr[q];
    if (c == '\\' && q + 1 < line.len && strchr("\"'`\\", line.ptr[q + 1])) { c = line.ptr[++q]; changed = true; }
    u[k++] = c;
  }
  *out = ec_str_make(u, k);
  return changed;
}

/* Whether `part` (trimmed, not empty) is a whole line of `file`, up to whitespace around it. */
static bool whole_line_of(ec_str file, ec_str part) {
  ec_str t = ec_lz_trim(part);
  /* 4 characters: swept, 1-16 give the same results (no test reaches it; ACCURACY.md, "Thresholds"). */
  if (t.len < 4) return false;
  const char *p = file.ptr, *end = file.ptr + file.len;
  while (p < end) {
    const char *hit = memmem(p, (size_t)(end - p), t.ptr, t.len);
    if (!hit) return false;
    const char *b = hit, *e = hit + t.len;
    while (b > file.ptr && (b[-1] == ' ' || b[-1] == '\t')) b--;
    while (e < end && (*e == ' ' || *e == '\t' || *e == '\r')) e++;
    if ((b == file.ptr || b[-1] == '\n') && (e == end || *e == '\n')) return true;
    p = hit + 1;
  }
  return false;
}

/* A one-line body that holds only a marker comment (`const f = () => { ... };`, the dots in a
 * block comment) after an opener that is a whole line of the file: returns the offset just past the
 * opening bracket (the split point) and sets *close to where the matching closing bracket starts; 0
 * when the line is not one. */
static size_t inline_body_at(ec_str file, ec_str line, size_t *close, unsigned *tries) {
  const char *end = line.ptr + line.len, *c = memmem(line.ptr, line.len, "/*", 2), *e;
  if (!c || !(e = memmem(c, (size_t)(end - c), "*/", 2))) return 0;
  ec_str head = ec_str_trim_end(ec_str_make(line.ptr, (size_t)(c - line.ptr)), EC_WS_HSPACE);
  ec_str tail = ec_str_trim_start(ec_str_make(e + 2, (size_t)(end - e - 2)), EC_WS_HSPACE);
  const char *o = head.len ? strchr("{[(", head.ptr[head.len - 1]) : NULL;
  if (!o || !*o || !tail.len || tail.ptr[0] != "}])"[o - "{[("] /* the bracket that closes *o */ ||
      !ec_lz_looks_elided(ec_str_make(c, (size_t)(e + 2 - c))) || ++*tries > 64 || !whole_line_of(file, head))
    return 0;
  *close = (size_t)(tail.ptr - line.ptr);
  return head.len;
}

ec_str ec_lz_split_escaped_newlines(ec_arena *a, ec_str snippet, ec_str file) {
  /* Most snippets hold neither form: no copy of them then. */
  if (!snippet.len || (!memmem(snippet.ptr, snippet.len, "\\n", 2) && !memmem(snippet.ptr, snippet.len, "/*", 2))) return snippet;
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  size_t i = 0;
  /* Each one-line body looked up scans the file once: at most 64 per snippet (thousands, in hostile
   * input, would make the setup quadratic; real snippets have a handful); past that they stay lines. */
  unsigned tries = 0;
  bool any = false;
  while (i < snippet.len) {
    const char *nl = memchr(snippet.ptr + i, '\n', snippet.len - i);
    size_t le = nl ? (size_t)(nl - snippet.ptr) : snippet.len;
    ec_str line = ec_str_make(snippet.ptr + i, le - i);
    const char *esc = memmem(line.ptr, line.len, "\\n", 2);
    size_t close, open;
    if (esc && !whole_line_of(file, line) && whole_line_of(file, ec_str_make(line.ptr, (size_t)(esc - line.ptr)))) {
      /* Split at every `\\n` of the line. */
      size_t k = 0;
      while (k < line.len) {
        const char *e2 = memmem(line.ptr + k, line.len - k, "\\n", 2);
        size_t ke = e2 ? (size_t)(e2 - line.ptr) : line.len;
        ec_buf_append(&b, line.ptr + k, ke - k);
        if (e2) ec_buf_append_char(&b, '\n');
        k = e2 ? ke + 2 : line.len;
      }
      any = true;
    } else if ((open = inline_body_at(file, line, &close, &tries))) {
      /* The same snippet written on three lines: the opener, a marker for the file's body, the
       * closing line at the opener's indentation (it anchors at the end of the opener's block). */
      size_t ind = 0;
      while (line.ptr[ind] == ' ' || line.ptr[ind] == '\t') ind++;
      ec_buf_append(&b, line.ptr, open);
      for (int part = 0; part < 2; part++) {
        ec_buf_append_char(&b, '\n');
        ec_buf_append(&b, line.ptr, ind);
        if (!part) ec_buf_append_cstr(&b, "// ...");
      }
      ec_buf_append(&b, line.ptr + close, line.len - close);
      any = true;
    } else {
      ec_buf_append_str(&b, line);
    }
    if (nl) ec_buf_append_char(&b, '\n');
    i = le + 1;
  }
  if (!any) { ec_buf_free(&b); return snippet; }
  return ec_buf_finish(&b, a);
}
