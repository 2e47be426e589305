/*
 * A deliberately small, strict applier for the unified diffs editcore emits, written
 * independently of the engine so the fuzzers can check the emitter against it: every context
 * and removed line must match exactly where the hunk header says.
 * Returns a malloc'd buffer (caller frees) or NULL when the diff does not apply.
 */
#ifndef EDITCORE_FUZZ_UDIFF_APPLY_H
#define EDITCORE_FUZZ_UDIFF_APPLY_H
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

typedef struct fz_line { const char *p; size_t n; } fz_line; /* n includes the '\n' when present */

static size_t fz_split(const char *t, size_t len, fz_line *out) {
  size_t k = 0;
  for (size_t i = 0; i < len;) {
    const char *nl = memchr(t + i, '\n', len - i);
    size_t n = nl ? (size_t)(nl - (t + i)) + 1 : len - i;
    if (out) { out[k].p = t + i; out[k].n = n; }
    k++;
    i += n;
  }
  return k;
}

static unsigned long fz_num(const char **p) {
  unsigned long v = 0;
  while (**p >= '0' && **p <= '9') v = v * 10 + (unsigned long)(*(*p)++ - '0');
  return v;
}

static char *fz_apply_udiff(const char *old, size_t old_len, const char *diff, size_t diff_len, size_t *out_len) {
  size_t no = fz_split(old, old_len, NULL), nd = fz_split(diff, diff_len, NULL);
  fz_line *ol = malloc((no + 1) * sizeof *ol), *dl = malloc((nd + 1) * sizeof *dl);
  char *out = malloc(old_len + diff_len + 1);
  size_t w = 0, pos = 0, i = 0;
  bool ok = ol && dl && out;
  if (ok) { fz_split(old, old_len, ol); fz_split(diff, diff_len, dl); }
  while (ok && i < nd && (dl[i].p[0] == '-' || dl[i].p[0] == '+') && dl[i].n >= 4 &&
         (!memcmp(dl[i].p, "--- ", 4) || !memcmp(dl[i].p, "+++ ", 4)))
    i++;
  while (ok && i < nd) {
    const char *h = dl[i].p;
    if (dl[i].n < 4 || memcmp(h, "@@ -", 4)) { ok = false; break; }
    h += 4;
    unsigned long a = fz_num(&h), b = 1;
    if (*h == ',') { h++; b = fz_num(&h); }
    size_t start = b == 0 ? a : a - 1; /* 0-based first old line of the hunk */
    if (a == 0 && b != 0) { ok = false; break; }
    if (start < pos || start > no) { ok = false; break; }
    for (; pos < start; pos++) { memcpy(out + w, ol[pos].p, ol[pos].n); w += ol[pos].n; }
    i++;
    size_t consumed = 0;
    char last_kind = 0;
    while (i < nd && dl[i].p[0] != '@') {
      char kind = dl[i].p[0];
      const char *c = dl[i].p + 1;
      size_t n = dl[i].n - 1;
      if (kind == '\\') { /* the previous line has no newline */
        if (last_kind == '+' || last_kind == ' ') { if (w && out[w - 1] == '\n') w--; else { ok = false; break; } }
        i++;
        continue;
      }
      bool no_nl = i + 1 < nd && dl[i + 1].p[0] == '\\';
      if (no_nl && n && c[n - 1] == '\n') n--;
      if (kind == ' ' || kind == '-') {
        if (pos >= no || ol[pos].n != n || memcmp(ol[pos].p, c, n)) { ok = false; break; }
        if (kind == ' ') { memcpy(out + w, c, n); w += n; if (no_nl) { last_kind = 0; } }
        pos++;
        consumed++;
      } else if (kind == '+') {
        memcpy(out + w, c, n);
        w += n;
      } else { ok = false; break; }
      last_kind = no_nl ? 0 : kind;
      i++;
    }
    (void)consumed;
  }
  for (; ok && pos < no; pos++) { memcpy(out + w, ol[pos].p, ol[pos].n); w += ol[pos].n; }
  free(ol);
  free(dl);
  if (!ok) { free(out); return NULL; }
  *out_len = w;
  return out;
}

#endif
