/* The definition around some lines, named by its own first line, for messages (syntax.h). */
#include "syntax.h"
#include "../base/str.h"

/* 1-based line of byte offset `off`, counting from a known (offset, line) pair at or before it. */
static uint32_t line_of(ec_str t, size_t from_off, uint32_t from_line, size_t off) {
  return from_line + (uint32_t)ec_count_lf(t.ptr + from_off, off - from_off);
}

ec_str ec_syn_enclosing(ec_arena *a, ec_str text, const ec_syn_side *side, uint32_t first, uint32_t last) {
  /* Definitions come outer before inner, in document order: the last one that encloses the
   * lines is the innermost. Their lines are counted in one forward pass over their starts. */
  size_t off = 0, best = SIZE_MAX;
  uint32_t line = 1, best_first = 0, best_last = 0;
  for (size_t i = 0; i < side->n_defs; i++) {
    const ec_syn_def *d = &side->defs[i];
    if (d->start < off) { off = 0; line = 1; }
    uint32_t l0 = line_of(text, off, line, d->start);
    off = d->start;
    line = l0;
    if (l0 > first) break; /* every later definition starts further down */
    size_t end = d->end && d->end <= text.len ? d->end - 1 : d->start;
    uint32_t l1 = l0 + (uint32_t)ec_count_lf(text.ptr + d->start, end > d->start ? end - d->start : 0);
    if (l1 >= last && l1 > l0) { best = i; best_first = l0; best_last = l1; }
  }
  if (best == SIZE_MAX) return ec_str_make("", 0);
  const ec_syn_def *d = &side->defs[best];
  const char *p = text.ptr + d->start, *e = text.ptr + text.len;
  const char *lf = memchr(p, '\n', (size_t)(e - p));
  ec_str head = ec_str_make(p, (size_t)((lf ? lf : e) - p));
  while (head.len && ec_is_ws(head.ptr[head.len - 1], EC_WS_LINE)) head.len--;
  return ec_arena_printf(a, "'%.*s%s' (lines %u-%u)", ec_echo_len(head), head.ptr, ec_echo_more(head), best_first, best_last);
}
