/*
 * Strategy `elision` (SPEC §4 item 6, Aider's "..." made strict): a line of old_text that is only
 * `...` stands for a run of unchanged lines, and new_text's corresponding `...` line keeps that run.
 *
 * old_text is cut at its `...` lines into parts; every part (whole lines, trailing whitespace
 * ignored) must occur exactly once in the file, and the parts must come in order without
 * overlapping. The match spans from the first part to the last; the replacement is new_text's
 * parts with the file's own lines in place of each `...`. Refusals, with the ladder stopped:
 * - a different number of `...` lines in old_text and new_text (INVALID_PARAM): each `...` needs
 *   its counterpart to say where the kept lines go;
 * - new_text has `...` lines but old_text none (INVALID_PARAM): nothing says what they stand for;
 * - an empty part of old_text (before the first `...`, after the last, between two) whose new_text
 *   counterpart holds text (INVALID_PARAM): there is no place to put it;
 * - a part found at several places (AMBIGUOUS) or the parts found out of order (NO_MATCH).
 * A part found nowhere is an ordinary miss: the ladder goes on and NO_MATCH carries candidates.
 * Cost: one search of the file per part (ec_find_line_windows), linear in the file.
 */
#include "lineutil.h"
#include "../base/buf.h"
#include "../base/str.h"
#include <string.h>

#define MAX_LISTED 10

static bool is_dots(ec_str line) {
  ec_str t = ec_norm_apply(line, EC_NORM_TRIM);
  return t.len == 3 && !memcmp(t.ptr, "...", 3);
}

static bool all_blank(const ec_str *l, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (ec_norm_apply(l[k], EC_NORM_TRIM).len) return false;
  return true;
}

static bool blank_text(ec_str s) {
  for (size_t i = 0; i < s.len; i++)
    if (!ec_is_ws(s.ptr[i], EC_WS_HSPACE) && s.ptr[i] != '\n') return false;
  return true;
}

/* 1-based numbers of the `...` lines of a split text: "4, 9" (at most MAX_LISTED). */
static ec_str dots_lines(ec_arena *a, const ec_split *s) {
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(a));
  size_t shown = 0;
  for (size_t k = 0; k < s->n; k++) {
    if (!is_dots(s->line[k])) continue;
    if (shown++ == MAX_LISTED) { ec_buf_append_cstr(&b, ", ..."); break; }
    ec_buf_printf(&b, "%s%zu", shown > 1 ? ", " : "", k + 1);
  }
  ec_str r = ec_buf_finish(&b, a);
  return r.ptr ? r : ec_arena_strdup(a, "", 0);
}

/* "line 3" or "lines 3-5" (1-based, first line and count). */
static ec_str span(ec_arena *a, size_t first, size_t n) {
  return n == 1 ? ec_arena_printf(a, "line %zu", first + 1) : ec_arena_printf(a, "lines %zu-%zu", first + 1, first + n);
}

typedef struct part {
  size_t first, n;   /* lines of old_text (0-based) */
  ec_str repl;       /* new_text's counterpart, raw bytes (ends in LF unless empty or last) */
  size_t at;         /* where it matched: first file line (0-based) */
} part;

static ec_error_code refuse(ec_match_env *env, ec_error_code rc, ec_str msg) {
  env->message = msg;
  return msg.ptr ? rc : EC_OUT_OF_MEMORY;
}

ec_error_code ec_strategy_elision(ec_match_env *env, ec_str old_text, ec_str new_text, ec_found_list *out) {
  ec_split od, nw;
  if (ec_split_lines(env->arena, old_text, true, &od) || ec_split_lines(env->arena, new_text, false, &nw))
    return EC_OUT_OF_MEMORY;
  size_t n_old = 0, n_new = 0;
  for (size_t k = 0; k < od.n; k++) n_old += is_dots(od.line[k]);
  for (size_t k = 0; k < nw.n; k++) n_new += is_dots(nw.line[k]);
  if (!n_old && !n_new) return EC_OK;
  if (n_old != n_new) {
    ec_str ol = dots_lines(env->arena, &od), nl = dots_lines(env->arena, &nw);
    if (!ol.ptr || !nl.ptr) return EC_OUT_OF_MEMORY;
    if (!n_old)
      return refuse(env, EC_INVALID_PARAM, ec_arena_printf(env->arena,
          "new_string has `...` line%s (line%s %.*s) but old_string has none, so nothing says which lines %s stand%s for; "
          "applying it would write a literal `...` or lose code. Write the full text in new_string (if `...` is meant "
          "literally, copy old_string exactly from the file).",
          n_new == 1 ? "" : "s", n_new == 1 ? "" : "s", (int)nl.len, nl.ptr, n_new == 1 ? "it" : "they", n_new == 1 ? "s" : ""));
    return refuse(env, EC_INVALID_PARAM, ec_arena_printf(env->arena,
        "old_string has %zu `...` line%s (line%s %.*s) but new_string has %zu%s%.*s%s: each `...` of old_string stands for "
        "unchanged lines, and new_string must repeat it, in the same order, to say where those lines go. Send both with "
        "the same `...` lines, or write the left-out lines in full.",
        n_old, n_old == 1 ? "" : "s", n_old == 1 ? "" : "s", (int)ol.len, ol.ptr, n_new, n_new ? " (line" : "",
        (int)nl.len, nl.ptr, n_new ? (n_new == 1 ? ")" : "s)") : ""));
  }
  /* Cut both texts at their `...` lines: n_old + 1 parts each. */
  size_t n_parts = n_old + 1;
  part *pt = ec_arena_calloc(env->arena, n_parts, sizeof *pt);
  if (!pt) return EC_OUT_OF_MEMORY;
  for (size_t k = 0, p = 0; k <= od.n; k++) {
    if (k == od.n || is_dots(od.line[k])) {
      pt[p].n = k - pt[p].first;
      if (++p < n_parts) pt[p].first = k + 1;
    }
  }
  const char *seg = new_text.ptr ? new_text.ptr : "";
  for (size_t k = 0, p = 0; k < nw.n; k++) {
    if (!is_dots(nw.line[k])) continue;
    pt[p++].repl = ec_str_make(seg, (size_t)(nw.line[k].ptr - seg));
    seg = k + 1 < nw.n ? nw.line[k + 1].ptr : new_text.ptr + new_text.len;
  }
  pt[n_parts - 1].repl = ec_str_make(seg, (size_t)(new_text.ptr + new_text.len - seg));

  /* Blank parts only say "more unchanged lines": their counterparts must be blank too. */
  size_t n_real = 0;
  for (size_t p = 0; p < n_parts; p++) {
    if (!all_blank(od.line + pt[p].first, pt[p].n)) { pt[n_real++] = pt[p]; continue; }
    if (blank_text(pt[p].repl)) continue;
    const char *where = p == 0 ? "before its first `...`" : p + 1 == n_parts ? "after its last `...`" : "between two `...` lines";
    size_t nl_line = (size_t)(pt[p].repl.ptr - (new_text.ptr ? new_text.ptr : "")), line = 1;
    for (size_t i = 0; i < nl_line; i++) line += new_text.ptr[i] == '\n';
    return refuse(env, EC_INVALID_PARAM, ec_arena_printf(env->arena,
        "old_string has nothing %s, but new_string has text there (line %zu of new_string), so there is no place in the "
        "file to put it. Put a line of the file's unchanged text next to each `...` in old_string to anchor it, and the "
        "same line in new_string.", where, line));
  }
  if (!n_real) return EC_OK;

  /* Each part: exactly one place in the file (whole lines, trailing whitespace aside). */
  const ec_lines *fl = ec_match_lines(env);
  if (!fl) return EC_OUT_OF_MEMORY;
  for (size_t p = 0; p < n_real; p++) {
    ec_split one = {od.line + pt[p].first, pt[p].n, false};
    ec_window *starts;
    size_t n;
    ec_error_code rc = ec_find_line_windows(env, EC_NORM_TRIM_END, &one, &starts, &n);
    if (rc) return rc;
    if (!n) return EC_OK;
    if (n > 1) {
      ec_buf b;
      ec_buf_init(&b, ec_arena_allocator(env->arena));
      for (size_t i = 0; i < n && i < MAX_LISTED; i++) {
        if (one.n == 1) ec_buf_printf(&b, "%s%zu", i ? ", " : "", starts[i].line + 1);
        else ec_buf_printf(&b, "%s%zu-%zu", i ? ", " : "", starts[i].line + 1, starts[i].line + one.n);
      }
      if (n > MAX_LISTED) ec_buf_printf(&b, " and %zu more", n - MAX_LISTED);
      ec_str places = ec_buf_finish(&b, env->arena), at = span(env->arena, pt[p].first, pt[p].n);
      if (!places.ptr || !at.ptr) return EC_OUT_OF_MEMORY;
      return refuse(env, EC_AMBIGUOUS, ec_arena_printf(env->arena,
          "old_string uses `...` elision, and its part at %.*s ('%.*s'%s) matches %zu places in the file (lines %.*s); "
          "with `...` every part must match exactly one place. Add lines of unchanged text to that part so it is unique.",
          (int)at.len, at.ptr, (int)(od.line[pt[p].first].len > 80 ? 80 : od.line[pt[p].first].len),
          od.line[pt[p].first].ptr, pt[p].n > 1 ? "..." : "", n, (int)places.len, places.ptr));
    }
    pt[p].at = starts[0].line;
  }
  for (size_t p = 1; p < n_real; p++) {
    if (pt[p].at >= pt[p - 1].at + pt[p - 1].n) continue;
    ec_str a1 = span(env->arena, pt[p - 1].first, pt[p - 1].n), f1 = span(env->arena, pt[p - 1].at, pt[p - 1].n);
    ec_str a2 = span(env->arena, pt[p].first, pt[p].n), f2 = span(env->arena, pt[p].at, pt[p].n);
    if (!a1.ptr || !f1.ptr || !a2.ptr || !f2.ptr) return EC_OUT_OF_MEMORY;
    return refuse(env, EC_NO_MATCH, ec_arena_printf(env->arena,
        "old_string uses `...` elision: its part at %.*s is at file %.*s, and its part at %.*s at file %.*s, which is not "
        "after it. `...` only stands for lines between parts in file order; read the file again and send the parts in "
        "the order they appear.", (int)a1.len, a1.ptr, (int)f1.len, f1.ptr, (int)a2.len, a2.ptr, (int)f2.len, f2.ptr));
  }

  /* new_text's parts with the file's lines in place of each `...`. */
  ec_buf b;
  ec_buf_init(&b, ec_arena_allocator(env->arena));
  for (size_t p = 0; p < n_real; p++) {
    ec_buf_append_str(&b, pt[p].repl);
    if (p + 1 < n_real) {
      size_t gs = fl->start[pt[p].at + pt[p].n], ge = fl->start[pt[p + 1].at];
      ec_buf_append(&b, env->text + gs, ge - gs);
    }
  }
  if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
  ec_str rep = ec_buf_finish(&b, env->arena);
  if (!rep.ptr) rep = ec_arena_strdup(env->arena, "", 0);
  if (!rep.ptr) return EC_OUT_OF_MEMORY;
  /* The last part takes its line's LF when old_text had more after it (a `...`) or ended in one. */
  const part *last = &pt[n_real - 1];
  bool final_lf = last->first + last->n < od.n || od.final_lf;
  size_t s = pt[0].at;
  return ec_push_window(env, out, fl, s, last->at + last->n - s, final_lf, EC_STRATEGY_ELISION, 0.9, rep);
}
