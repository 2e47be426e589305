/*
 * A model's merge of a lazy snippet (fast apply) is accepted only if it could be the merge the
 * snippet describes: it reads as the snippet's lines in order, each marker replaced by a
 * contiguous, unchanged run of the region's own lines (at least one), the runs in the region's
 * order; no marker text is left; and between two runs the region lines that disappear are no more
 * than the snippet's new lines there (a snippet that leaves code out between two markers does not
 * delete it: that is what a merge that drops a line it should keep looks like). Any reading that
 * passes is enough; the search is bounded, and past the bound the merge is not accepted.
 */
#include "merge_check.h"
#include "../lazy/lazy.h"
#include <string.h>

typedef struct line_list {
  ec_str *line;
  size_t n;
} line_list;

typedef struct checker {
  line_list region, snippet, merged;
  const bool *is_marker; /* per snippet line */
  bool has_markers;       /* without any, the snippet is the new text of its stretch, deletions included */
  size_t budget;
} checker;

static bool same(ec_str a, ec_str b) {
  return ec_str_eq(ec_str_trim_end(a, EC_WS_LINE), ec_str_trim_end(b, EC_WS_LINE));
}

static bool split(ec_arena *a, ec_str text, line_list *out) {
  size_t n = 0;
  for (size_t i = 0; i < text.len; i++) n += text.ptr[i] == '\n';
  out->line = ec_arena_calloc(a, n + 2, sizeof *out->line);
  if (!out->line) return false;
  out->n = 0;
  size_t at = 0;
  while (at < text.len) {
    const char *nl = memchr(text.ptr + at, '\n', text.len - at);
    size_t end = nl ? (size_t)(nl - text.ptr) : text.len;
    out->line[out->n++] = ec_str_make(text.ptr + at, end - at);
    at = end + 1;
  }
  return true;
}

/* The region lines [from, to) that disappear are at most the snippet's new lines [lit, lit_end). */
static bool stretch_ok(const checker *c, size_t from, size_t to, size_t lit, size_t lit_end) {
  if (!c->has_markers) return true;
  size_t removed = 0, added = 0;
  bool used[256] = {false};
  if (lit_end - lit > sizeof used) return false;
  for (size_t r = from; r < to; r++) {
    bool kept = false;
    for (size_t s = lit; s < lit_end && !kept; s++)
      if (!used[s - lit] && same(c->region.line[r], c->snippet.line[s])) { used[s - lit] = kept = true; }
    removed += !kept;
  }
  for (size_t s = lit; s < lit_end; s++) added += !used[s - lit];
  return removed <= added;
}

/* Snippet element i onwards against merged line j onwards; region lines before `rfrom` are spent;
 * `lit` is the snippet line where the current stretch of literal lines began. */
static bool walk(checker *c, size_t i, size_t j, size_t rfrom, size_t lit) {
  if (!c->budget) return false;
  c->budget--;
  if (i == c->snippet.n) {
    /* what follows the snippet's last line is the region's own tail, unchanged */
    size_t tail = c->merged.n - j;
    if (tail > c->region.n - rfrom) return false;
    size_t r = c->region.n - tail;
    for (size_t t = 0; t < tail; t++)
      if (!same(c->region.line[r + t], c->merged.line[j + t])) return false;
    return stretch_ok(c, rfrom, r, lit, i);
  }
  if (!c->is_marker[i]) {
    return j < c->merged.n && same(c->merged.line[j], c->snippet.line[i]) && walk(c, i + 1, j + 1, rfrom, lit);
  }
  /* a marker: a run merged[j, j+len) that is region[k, k+len) for some k >= rfrom */
  for (size_t len = 1; j + len <= c->merged.n; len++) {
    for (size_t k = rfrom; k + len <= c->region.n; k++) {
      size_t t = 0;
      while (t < len && same(c->region.line[k + t], c->merged.line[j + t])) t++;
      if (t < len) continue;
      if (stretch_ok(c, rfrom, k, lit, i) && walk(c, i + 1, j + len, k + len, i + 1)) return true;
      if (!c->budget) return false;
    }
  }
  return false;
}

ec_cx_merge_verdict ec_cx_check_merge(ec_arena *a, ec_str region, ec_str snippet, ec_str merged) {
  checker c;
  memset(&c, 0, sizeof c);
  if (!split(a, region, &c.region) || !split(a, snippet, &c.snippet) || !split(a, merged, &c.merged)) return EC_CX_MERGE_OOM;
  bool *marker = ec_arena_calloc(a, c.snippet.n + 1, sizeof *marker);
  if (!marker) return EC_CX_MERGE_OOM;
  for (size_t i = 0; i < c.snippet.n; i++) marker[i] = ec_lz_is_marker(c.snippet.line[i], i ? &c.snippet.line[i - 1] : &(ec_str){0});
  for (size_t j = 0; j < c.merged.n; j++)
    if (ec_lz_is_marker(c.merged.line[j], NULL)) {
      bool in_region = false;
      for (size_t r = 0; r < c.region.n && !in_region; r++) in_region = same(c.region.line[r], c.merged.line[j]);
      if (!in_region) return EC_CX_MERGE_HAS_MARKER;
    }
  c.is_marker = marker;
  for (size_t i = 0; i < c.snippet.n; i++) c.has_markers |= marker[i];
  c.budget = 200000;
  /* what comes before the snippet's first line is the region's own head, unchanged */
  size_t head = 0;
  while (head < c.region.n && head < c.merged.n && same(c.region.line[head], c.merged.line[head])) head++;
  for (size_t h = head + 1; h-- > 0;)
    if (walk(&c, 0, h, h, 0)) return EC_CX_MERGE_OK;
  return c.budget ? EC_CX_MERGE_MISMATCH : EC_CX_MERGE_TOO_HARD;
}
