/*
 * Which errors an edit introduced. Tree-sitter's error recovery reshapes what is near an edit,
 * so an old error is recognised by where it stands relative to the edit, not by identity:
 *   - an error wholly before the first changed byte, or starting after the last one, is old when
 *     the text before the edit has an error of the same kind at the same place (shifted by the
 *     edit's change in length for the part after it) — the text there did not change;
 *   - an error that starts inside the changed bytes (or spans into them) is old when an unused
 *     error of the text before, of the same kind (and, for MISSING, the same token), also
 *     touched the changed bytes: errors the edit region already had are matched one for one,
 *     in order.
 * Everything else is new. A file that parsed before has no old error, so every error after it
 * is new whatever its place; this matching only matters for files that were already broken,
 * where it keeps their old errors from being blamed on the edit.
 */
#include "syntax.h"
#include "wire.h"
#include "../base/str.h"

typedef struct span {
  size_t pre;      /* bytes equal at the start of both texts */
  size_t a_end;    /* where the changed part ends in before (exclusive) */
  size_t b_end;    /* and in after */
} span;

static span changed(ec_str a, ec_str b) {
  size_t most = a.len < b.len ? a.len : b.len, pre = 0, suf = 0;
  while (pre < most && a.ptr[pre] == b.ptr[pre]) pre++;
  while (suf < most - pre && a.ptr[a.len - 1 - suf] == b.ptr[b.len - 1 - suf]) suf++;
  span s = {pre, a.len - suf, b.len - suf};
  return s;
}

/* Where an error sits against the change: -1 wholly before it, 1 after it, 0 touching it. */
static int side_of(const ec_syn_err *e, size_t pre, size_t end) {
  if (e->end <= pre && e->start < pre) return -1;
  if (e->start >= end && !(e->start == pre && e->start == end)) return 1;
  return 0;
}

static bool same_kind(const ec_syn_err *x, const ec_syn_err *y) {
  return x->kind == y->kind && (x->kind != EC_SYN_KIND_MISSING || ec_str_eq(x->name, y->name));
}

size_t ec_syn_new_errors(ec_str before_text, const ec_syn_side *before, ec_str after_text, const ec_syn_side *after,
                         bool *out) {
  size_t fresh = 0;
  span s = before ? changed(before_text, after_text) : (span){0, 0, 0};
  /* used[k]: before's k-th error already accounts for an error after. At most
   * EC_SYN_WIRE_MAX_ERRORS are listed per side, so this stays on the stack. */
  bool used[EC_SYN_WIRE_MAX_ERRORS] = {false};
  size_t k_inside = 0; /* the next before-error inside the change not yet matched, in order */
  for (size_t i = 0; i < after->n_errors; i++) {
    const ec_syn_err *e = &after->errors[i];
    bool old = false;
    if (before && before->n_errors) {
      int where = side_of(e, s.pre, s.b_end);
      if (where) {
        /* An unchanged stretch: the same kind at the same (shifted) place. */
        size_t want = where < 0 ? e->start : e->start - s.b_end + s.a_end;
        for (size_t k = 0; k < before->n_errors && !old; k++) {
          const ec_syn_err *o = &before->errors[k];
          if (!used[k] && o->start == want && same_kind(o, e) && side_of(o, s.pre, s.a_end) == where) old = used[k] = true;
        }
      } else {
        for (size_t k = k_inside; k < before->n_errors && !old; k++) {
          const ec_syn_err *o = &before->errors[k];
          if (!used[k] && side_of(o, s.pre, s.a_end) == 0 && same_kind(o, e)) {
            old = used[k] = true;
            k_inside = k + 1;
          }
        }
      }
    }
    out[i] = !old;
    fresh += !old;
  }
  (void)after_text;
  return fresh;
}
