/*
 * The undo diff read off the diff itself (ec_diff_reverse_into): what diff_emit.c writes for
 * `undo` (the same script emitted with the sides swapped), rebuilt from the forward text alone, so
 * a caller that rarely reads the undo (the npm object path, EC_FILES_UNDO_ON_READ) need not have it
 * built, escaped and carried on every call.
 *
 * Why the text is enough. The emitter's undo is the forward script with every change's sides
 * swapped, so, line for line:
 *   - the file lines swap labels and their a/ b/ prefixes ("--- a/OLD", "+++ b/NEW" become
 *     "--- a/NEW", "+++ b/OLD"; /dev/null stays; a quoted label keeps its quotes, and its TAB,
 *     whose rule reads the path, not the prefix);
 *   - a hunk's "-l,s" and "+l,s" swap (both are formatted by the same rule);
 *   - context lines are the same bytes (a line's identity includes its LF, diff_prepare.h, so
 *     lines paired as unchanged are byte-equal), and hunks group the same changes (the gaps
 *     between changes are common lines, as long on either side; so are a hunk's lead and tail);
 *   - a change is written as its removed lines, then its added lines, and two changes are always
 *     apart by a common line: each run of +/- lines between context lines is one change, whose
 *     '+' lines become its '-' lines and its '-' lines its '+' lines, in their order;
 *   - "\ No newline at end of file" follows the line it is about, on whichever side.
 * A truncated diff lacks lines: its undo cannot come from it (the emitter builds that one).
 * diff_test checks the identity on random texts; the conformance suite, every vector's undo
 * through the npm object path against the JSON path's.
 */
#include "diff.h"
#include "../base/str.h"
#include <string.h>

/* The line of d starting at `at`, its LF included (a last line without one ends at d.len). */
static ec_str line_at(ec_str d, size_t at) {
  const char *nl = memchr(d.ptr + at, '\n', d.len - at);
  return ec_str_make(d.ptr + at, nl ? (size_t)(nl - d.ptr) + 1 - at : d.len - at);
}

/* A file line's label ("a/x", "\"b/x\"", "/dev/null", ...) with its a/ or b/ turned to `to`. */
static void put_label(ec_buf *b, ec_str label, char to) {
  size_t q = label.len && label.ptr[0] == '"' ? 1 : 0;
  if (label.len >= q + 2 && (label.ptr[q] == 'a' || label.ptr[q] == 'b') && label.ptr[q + 1] == '/') {
    ec_buf_append(b, label.ptr, q);
    ec_buf_append_char(b, to);
    ec_buf_append(b, label.ptr + q + 1, label.len - q - 1);
  } else {
    ec_buf_append_str(b, label); /* /dev/null */
  }
}

/* A line and the "\ No newline" line right after it, if any: the unit a change moves. */
static size_t with_marker(ec_str d, size_t at) {
  size_t end = at + line_at(d, at).len;
  if (end < d.len && d.ptr[end] == '\\') end += line_at(d, end).len;
  return end;
}

/* One change: the lines [from, to) of d, its '-' lines then its '+' lines, written swapped. */
static void put_change(ec_buf *b, ec_str d, size_t from, size_t to) {
  for (int pass = 0; pass < 2; pass++) {
    const char want = pass ? '-' : '+';
    for (size_t at = from; at < to;) {
      size_t end = with_marker(d, at);
      if (d.ptr[at] == want) {
        ec_buf_append_char(b, want == '+' ? '-' : '+');
        ec_buf_append(b, d.ptr + at + 1, end - at - 1);
      }
      at = end;
    }
  }
}

/* "@@ -R1 +R2 @@\n" as "@@ -R2 +R1 @@\n". false: not a hunk header this engine writes. */
static bool put_hunk_header(ec_buf *b, ec_str h) {
  if (h.len < 12 || memcmp(h.ptr, "@@ -", 4) != 0) return false;
  const char *r1 = h.ptr + 4, *end = h.ptr + h.len;
  const char *sp = memchr(r1, ' ', (size_t)(end - r1));
  if (!sp || end - sp < 6 || sp[1] != '+') return false;
  const char *r2 = sp + 2, *sp2 = memchr(r2, ' ', (size_t)(end - r2));
  if (!sp2 || (size_t)(end - sp2) != 4 || memcmp(sp2, " @@\n", 4) != 0) return false;
  ec_buf_append(b, "@@ -", 4);
  ec_buf_append(b, r2, (size_t)(sp2 - r2));
  ec_buf_append(b, " +", 2);
  ec_buf_append(b, r1, (size_t)(sp - r1));
  ec_buf_append(b, " @@\n", 4);
  return true;
}

bool ec_diff_reverse_into(ec_buf *b, ec_str d) {
  if (d.len == 0) return true;
  if (!d.ptr) return false;
  ec_str l1 = line_at(d, 0);
  if (l1.len >= d.len) return false;
  ec_str l2 = line_at(d, l1.len);
  if (l1.len < 5 || l2.len < 5 || memcmp(l1.ptr, "--- ", 4) != 0 || memcmp(l2.ptr, "+++ ", 4) != 0) return false;
  ec_buf_append(b, "--- ", 4);
  put_label(b, ec_str_make(l2.ptr + 4, l2.len - 4), 'a');
  ec_buf_append(b, "+++ ", 4);
  put_label(b, ec_str_make(l1.ptr + 4, l1.len - 4), 'b');
  size_t at = l1.len + l2.len, change = SIZE_MAX; /* where the run of +/- lines being read began */
  while (at < d.len) {
    ec_str l = line_at(d, at);
    char c = l.ptr[0];
    if (c == '-' || c == '+') {
      if (change == SIZE_MAX) change = at;
      at = with_marker(d, at);
      continue;
    }
    if (change != SIZE_MAX) { put_change(b, d, change, at); change = SIZE_MAX; }
    if (c == '@') {
      if (!put_hunk_header(b, l)) return false;
      at += l.len;
    } else if (c == ' ') {
      size_t end = with_marker(d, at);
      ec_buf_append(b, d.ptr + at, end - at);
      at = end;
    } else {
      return false;
    }
  }
  if (change != SIZE_MAX) put_change(b, d, change, at);
  return !b->oom;
}
