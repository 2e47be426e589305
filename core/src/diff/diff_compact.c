/*
 * Diff stage 3 (private to core/src/diff): where each group of changed lines sits. A group that
 * can slide over equal lines is moved to where a reader expects it: facing a change on the other
 * side, else where git's indent heuristic scores best (blank lines and closing braces end up as
 * git places them). Sliding keeps the script valid and minimal.
 */
#include "diff_compact.h"
#include <string.h>

/* ---- Compaction ----------------------------------------------------------------------------
 * A group is a maximal run [start, end) of changed lines, possibly empty. Unchanged lines pair up
 * in order across the sides, so the k-th group of one side faces the k-th group of the other;
 * sliding a group moves its partner to the neighbouring gap. */

typedef struct group {
  size_t start, end;
} group;

static void group_first(const uint8_t *chg, size_t n, group *g) {
  g->start = g->end = 0;
  while (g->end < n && chg[g->end]) g->end++;
}

static bool group_next(const uint8_t *chg, size_t n, group *g) {
  if (g->end >= n) return false;
  g->start = g->end + 1;
  g->end = g->start;
  while (g->end < n && chg[g->end]) g->end++;
  return true;
}

static bool group_prev(const uint8_t *chg, group *g) {
  if (g->start == 0) return false;
  g->end = g->start - 1;
  g->start = g->end;
  while (g->start > 0 && chg[g->start - 1]) g->start--;
  return true;
}

/* Moving a non-empty group by one line keeps the text the same when the line it takes in equals
 * the line it gives up; the group then absorbs any group it touches. Groups stay out of the
 * window's guard lines, which are only there to be printed as context. */
static bool group_slide_down(const ec_diff_prep *p, const ec_diff_side *s, uint8_t *chg, group *g) {
  const size_t n = s->wn;
  if (g->end + p->guard_hi >= n || !ec_diff_line_eq(s, g->start, g->end)) return false;
  chg[g->start++] = 0;
  chg[g->end++] = 1;
  while (g->end < n && chg[g->end]) g->end++;
  return true;
}

static bool group_slide_up(const ec_diff_prep *p, const ec_diff_side *s, uint8_t *chg, group *g) {
  if (g->start <= p->guard_lo || !ec_diff_line_eq(s, g->start - 1, g->end - 1)) return false;
  chg[--g->start] = 1;
  chg[--g->end] = 0;
  while (g->start > 0 && chg[g->start - 1]) g->start--;
  return true;
}

/* ---- Where a group that can slide should sit: git's indent heuristic ------------------------
 * A group that can slide can be shown at several positions, all equally minimal; git (since 2.14,
 * by default) scores each position by the blank lines and indentation around the two cuts it
 * makes and picks the lowest score, which keeps whole functions and blocks together. These are
 * its rules and weights, so editcore's hunks read like git's. */

enum {
  MAX_INDENT = 200,  /* indentation beyond this counts as this */
  MAX_BLANKS = 20,   /* blank runs beyond this count as this (keep <= EC_DIFF_LOOK_MARGIN - 1) */
  MAX_SLIDING = 100, /* positions tried, upwards from the lowest (keep <= EC_DIFF_SLIDE_MARGIN) */
  START_OF_FILE_PENALTY = 1,
  END_OF_FILE_PENALTY = 21,
  TOTAL_BLANK_WEIGHT = -30,
  POST_BLANK_WEIGHT = 6,
  RELATIVE_INDENT_PENALTY = -4,
  RELATIVE_INDENT_WITH_BLANK_PENALTY = 10,
  RELATIVE_OUTDENT_PENALTY = 24,
  RELATIVE_OUTDENT_WITH_BLANK_PENALTY = 17,
  RELATIVE_DEDENT_PENALTY = 23,
  RELATIVE_DEDENT_WITH_BLANK_PENALTY = 17,
  INDENT_WEIGHT = 60,
};

/* Columns of leading whitespace (tabs to multiples of 8); -1 for a line of only whitespace. */
static int line_indent(const ec_diff_side *s, size_t k) {
  const char *t = s->text + s->off[k];
  size_t len = s->off[k + 1] - s->off[k];
  int ind = 0;
  for (size_t i = 0; i < len; i++) {
    char c = t[i];
    if (c == ' ') ind += 1;
    else if (c == '\t') ind += 8 - ind % 8;
    else if (c != '\n' && c != '\r' && c != '\v' && c != '\f') return ind;
    if (ind >= MAX_INDENT) return MAX_INDENT;
  }
  return -1;
}

typedef struct score {
  int indent, penalty;
} score;

/* Adds the cost of a cut just before window line `at` of side s. */
static void score_cut(const ec_diff_prep *p, const ec_diff_side *s, size_t at, score *sc) {
  const size_t n = s->wn;
  bool eof = at >= n && p->guard_hi == 0; /* the window ends at the file's end (else never here) */
  int indent = at >= n ? -1 : line_indent(s, at);
  int pre_blank = 0, pre_indent = -1, post_blank = 0, post_indent = -1;
  for (size_t i = at; i-- > 0;) {
    pre_indent = line_indent(s, i);
    if (pre_indent != -1) break;
    if (++pre_blank == MAX_BLANKS) { pre_indent = 0; break; }
  }
  for (size_t i = at + 1; i < n; i++) {
    post_indent = line_indent(s, i);
    if (post_indent != -1) break;
    if (++post_blank == MAX_BLANKS) { post_indent = 0; break; }
  }
  if (pre_indent == -1 && pre_blank == 0) sc->penalty += START_OF_FILE_PENALTY;
  if (eof) sc->penalty += END_OF_FILE_PENALTY;
  int post = indent == -1 ? 1 + post_blank : 0, total = pre_blank + post;
  sc->penalty += TOTAL_BLANK_WEIGHT * total + POST_BLANK_WEIGHT * post;
  int ind = indent != -1 ? indent : post_indent;
  bool blanks = total != 0;
  sc->indent += ind;
  if (ind == -1 || pre_indent == -1 || ind == pre_indent) return;
  if (ind > pre_indent) sc->penalty += blanks ? RELATIVE_INDENT_WITH_BLANK_PENALTY : RELATIVE_INDENT_PENALTY;
  else if (post_indent != -1 && post_indent > ind)
    sc->penalty += blanks ? RELATIVE_OUTDENT_WITH_BLANK_PENALTY : RELATIVE_OUTDENT_PENALTY;
  else sc->penalty += blanks ? RELATIVE_DEDENT_WITH_BLANK_PENALTY : RELATIVE_DEDENT_PENALTY;
}

static int score_cmp(score x, score y) {
  int ind = (x.indent > y.indent) - (x.indent < y.indent);
  return INDENT_WEIGHT * ind + (x.penalty - y.penalty);
}

/* The best end for a group of `size` lines that may end anywhere in [lowest, highest]. */
static size_t best_end(const ec_diff_prep *p, const ec_diff_side *s, size_t size, size_t lowest, size_t highest) {
  size_t from = lowest;
  if (highest > size + 1 && highest - size - 1 > from) from = highest - size - 1;
  if (highest > MAX_SLIDING && highest - MAX_SLIDING > from) from = highest - MAX_SLIDING;
  size_t best = highest;
  score best_sc = {0, 0};
  bool have = false;
  for (size_t end = from; end <= highest; end++) {
    score sc = {0, 0};
    score_cut(p, s, end, &sc);
    score_cut(p, s, end - size, &sc);
    if (!have || score_cmp(sc, best_sc) <= 0) {
      best_sc = sc;
      best = end;
      have = true;
    }
  }
  return best;
}

/* ---- Compaction ---------------------------------------------------------------------------- */

void ec_diff_compact(const ec_diff_prep *p, const ec_diff_side *s, uint8_t *chg, const ec_diff_side *o,
                     const uint8_t *ochg) {
  const size_t n = s->wn, on = o->wn;
  group g, go;
  group_first(chg, n, &g);
  group_first(ochg, on, &go);
  for (;;) {
    if (g.end > g.start) {
      size_t size, earliest_end, end_facing = SIZE_MAX;
      do {
        /* Up as far as possible, then down, merging with groups met on the way; again until the
         * group stops growing. Track the facing group to remember positions opposite a change. */
        size = g.end - g.start;
        while (group_slide_up(p, s, chg, &g))
          if (!group_prev(ochg, &go)) return; /* sides out of step: cannot happen; stay valid */
        earliest_end = g.end;
        end_facing = go.end > go.start ? g.end : SIZE_MAX;
        while (group_slide_down(p, s, chg, &g)) {
          if (!group_next(ochg, on, &go)) return;
          if (go.end > go.start) end_facing = g.end;
        }
      } while (size != g.end - g.start);
      /* Now at the lowest position. Prefer the lowest one facing a change on the other side, so
       * a replaced line reads as -old/+new rather than a deletion here and an insertion there;
       * failing that, the position git's indent heuristic likes best. */
      size_t target = g.end;
      if (g.end != earliest_end)
        target = end_facing != SIZE_MAX ? end_facing : best_end(p, s, size, earliest_end, g.end);
      while (g.end > target) {
        if (!group_slide_up(p, s, chg, &g) || !group_prev(ochg, &go)) return;
      }
    }
    if (!group_next(chg, n, &g)) break;
    if (!group_next(ochg, on, &go)) break;
  }
}
