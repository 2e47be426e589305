/* C and C++: errors a preprocessor conditional explains, not blamed on the edit (syntax.h). */
#include "syntax.h"
#include "../base/str.h"

/*
 * tree-sitter reads C and C++ with the preprocessor's conditionals in the tree, each branch as if
 * compiled, so code that balances its brackets across branches parses as broken though no
 * compiler sees an error: the `#ifdef __cplusplus / extern "C" { / #endif ... #ifdef __cplusplus /
 * } / #endif` guard of C headers is the common case (2 of 220 real C/C++ file edits of whole
 * commits, both that guard, read as new errors without this rule; BENCHMARKS.md "Syntax"). So in
 * those languages, when the file's brackets balance as a whole but not between two conditional
 * directives (#if, #ifdef, #ifndef, #elif, #else, #endif), an error whose lines hold such a
 * directive is not counted as new: the check says nothing there rather than blame a good edit.
 * A bracket dropped or doubled leaves the whole file unbalanced and still counts, guard or not. */

/* Whether every kind of bracket balances over the whole text but not over some stretch between
 * two directive lines (`at`: their offsets). Comments, strings and character literals are
 * skipped, roughly as C's lexer does. */
static bool split_across_conditionals(ec_str t, const size_t *at, size_t n) {
  long whole[3] = {0, 0, 0}, part[3] = {0, 0, 0};
  bool split = false;
  size_t next = 0;
  for (size_t i = 0; i < t.len; i++) {
    if (next < n && i == at[next]) {
      split |= part[0] || part[1] || part[2];
      part[0] = part[1] = part[2] = 0;
      next++;
    }
    char c = t.ptr[i];
    if (c == '/' && i + 1 < t.len && t.ptr[i + 1] == '/') {
      while (i + 1 < t.len && t.ptr[i + 1] != '\n') i++;
    } else if (c == '/' && i + 1 < t.len && t.ptr[i + 1] == '*') {
      for (i += 2; i + 1 < t.len && !(t.ptr[i] == '*' && t.ptr[i + 1] == '/'); i++) {}
      i++;
    } else if (c == '"' || c == '\'') {
      for (i++; i < t.len && t.ptr[i] != c && t.ptr[i] != '\n'; i++) if (t.ptr[i] == '\\') i++;
    } else {
      int k = c == '{' || c == '}' ? 0 : c == '(' || c == ')' ? 1 : c == '[' || c == ']' ? 2 : -1;
      if (k >= 0) {
        int d = c == '{' || c == '(' || c == '[' ? 1 : -1;
        whole[k] += d;
        part[k] += d;
      }
    }
  }
  split |= part[0] || part[1] || part[2];
  return split && !whole[0] && !whole[1] && !whole[2];
}

/* Offsets of the lines that are conditional directives, in order; their count in *n. */
static size_t *directive_lines(ec_arena *a, ec_str t, size_t *n) {
  size_t cap = 16, k = 0;
  size_t *at = ec_arena_alloc(a, cap * sizeof *at);
  for (size_t i = 0; at && i < t.len;) {
    size_t j = i;
    while (j < t.len && (t.ptr[j] == ' ' || t.ptr[j] == '\t')) j++;
    if (j < t.len && t.ptr[j] == '#') {
      j++;
      while (j < t.len && (t.ptr[j] == ' ' || t.ptr[j] == '\t')) j++;
      ec_str w = ec_str_make(t.ptr + j, t.len - j);
      if (ec_str_starts_with(w, "if") || ec_str_starts_with(w, "el") || ec_str_starts_with(w, "endif")) {
        if (k == cap) { at = ec_arena_grow(a, at, cap * sizeof *at, 2 * cap * sizeof *at); cap *= 2; }
        if (at) at[k++] = i;
      }
    }
    const char *lf = memchr(t.ptr + i, '\n', t.len - i);
    i = lf ? (size_t)(lf - t.ptr) + 1 : t.len;
  }
  *n = k;
  return at;
}

/* Whether a directive line starts within the lines of [start, end]. */
static bool spans_directive(ec_str t, const size_t *at, size_t n, uint32_t start, uint32_t end) {
  size_t from = start;
  while (from > 0 && t.ptr[from - 1] != '\n') from--;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (at[mid] < from) lo = mid + 1; else hi = mid;
  }
  return lo < n && at[lo] <= end;
}

bool ec_syn_excuse_conditionals(ec_arena *a, ec_str after, const ec_syn_side *side, bool *fresh, size_t *n_fresh) {
  size_t nd = 0;
  const size_t *dl = directive_lines(a, after, &nd);
  if (!dl) return true;
  if (!nd || !split_across_conditionals(after, dl, nd)) return false;
  for (size_t i = 0; i < side->n_errors; i++)
    if (fresh[i] && spans_directive(after, dl, nd, side->errors[i].start, side->errors[i].end)) {
      fresh[i] = false;
      --*n_fresh;
    }
  return false;
}
