#include "diagnose.h"
#include "../match/lineutil.h"
#include "../base/buf.h"
#include "../base/str.h"
#include "../base/hash.h"
#include "../base/sort.h"
#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES 3
#define MAX_OCCURRENCES 64 /* a line found more often than this ("}", "") votes for nothing */

/* A line without its indentation and the blanks (a CR too) that end it. */
static ec_str trim(ec_str s) { return ec_str_trim_end(ec_str_trim_start(s, EC_WS_BLANK), EC_WS_LINE); }

/* Work (edit-distance cells) a NO_MATCH diagnosis may spend on each of its passes: the request's
 * fuzzy budget, at most 20 M (well under a second natively), since it only explains a failure. */
static uint64_t diagnosis_budget(const ec_match_env *env) {
  uint64_t cap = env->opt && env->opt->limits.fuzzy_work ? env->opt->limits.fuzzy_work : 200000000ull;
  return cap < 20000000ull ? cap : 20000000ull;
}

typedef struct vote { long long start; uint32_t n; } vote;

static int by_start(const void *a, const void *b) {
  long long x = ((const vote *)a)->start, y = ((const vote *)b)->start;
  return x < y ? -1 : x > y;
}

typedef struct line_key { uint64_t h; uint32_t i; } line_key;

static int by_hash(const void *a, const void *b) {
  const line_key *x = a, *y = b;
  if (x->h != y->h) return x->h < y->h ? -1 : 1;
  return x->i < y->i ? -1 : x->i > y->i;
}

/* Describes how a needle line and a file line differ, for the model. */
static ec_str describe(ec_arena *a, uint32_t line_no, ec_str want, ec_str have) {
  ec_str tw = trim(want), th = trim(have);
  if (ec_hash_bytes(tw.ptr, tw.len) == ec_hash_bytes(th.ptr, th.len) && tw.len == th.len &&
      (tw.len == 0 || memcmp(tw.ptr, th.ptr, tw.len) == 0)) {
    bool lead = (want.len - tw.len) && want.ptr[0] != have.ptr[0];
    return ec_arena_printf(a, "Line %u of the file differs from old_string only in %s whitespace: the file has '%.*s'. "
                           "Send old_string again copied exactly from the file (error.candidates[0].text), indentation included.",
                           line_no, lead || (have.len && (have.ptr[0] == ' ' || have.ptr[0] == '\t')) ? "leading" : "trailing",
                           (int)(have.len > 200 ? 200 : have.len), have.ptr);
  }
  return ec_arena_printf(a, "The closest place is near line %u, where the file has '%.*s' but old_string has '%.*s'. "
                         "Send old_string again copied exactly from the file (error.candidates[0].text holds those lines).",
                         line_no, (int)(have.len > 200 ? 200 : have.len), have.ptr,
                         (int)(want.len > 200 ? 200 : want.len), want.ptr);
}

ec_error_code ec_diagnose_no_match(ec_match_env *env, ec_str old_text, ec_diagnosis *out) {
  memset(out, 0, sizeof *out);
  const ec_lines *fl = ec_match_lines(env);
  if (!fl) return EC_OUT_OF_MEMORY;
  ec_lines ol;
  if (ec_lines_build(env->arena, old_text.ptr, old_text.len, &ol)) return EC_OUT_OF_MEMORY;
  if (!ol.n || !fl->n) return EC_OK;
  /* Sorted (trimmed hash, line) keys of the file let each needle line find its twins in log time. */
  line_key *keys = ec_arena_alloc(env->arena, fl->n * sizeof *keys);
  vote *votes = NULL;
  size_t n_votes = 0, cap_votes = 0;
  if (!keys) return EC_OUT_OF_MEMORY;
  for (size_t i = 0; i < fl->n; i++) {
    ec_str t = trim(ec_lines_get(fl, i));
    keys[i].h = ec_hash_bytes(t.ptr, t.len);
    keys[i].i = (uint32_t)i;
  }
  ec_sort(keys, fl->n, sizeof *keys, by_hash);
  size_t nonblank = 0;
  for (size_t j = 0; j < ol.n; j++) {
    ec_str t = trim(ec_lines_get(&ol, j));
    if (!t.len) continue;
    nonblank++;
    uint64_t h = ec_hash_bytes(t.ptr, t.len);
    size_t lo = 0, hi = fl->n;
    while (lo < hi) { size_t m = (lo + hi) / 2; if (keys[m].h < h) lo = m + 1; else hi = m; }
    size_t cnt = 0;
    while (lo + cnt < fl->n && keys[lo + cnt].h == h) cnt++;
    if (cnt > MAX_OCCURRENCES) continue;
    for (size_t k = 0; k < cnt; k++) {
      if (!EC_ARENA_RESERVE(env->arena, votes, n_votes, cap_votes, 64)) return EC_OUT_OF_MEMORY;
      votes[n_votes].start = (long long)keys[lo + k].i - (long long)j;
      votes[n_votes++].n = 1;
    }
  }
  if (!n_votes && nonblank) {
    /* No line in common: rank windows by edit distance instead (bounded fuzzy pass). */
    ec_options o;
    if (env->opt) o = *env->opt;
    else memset(&o, 0, sizeof o);
    o.fuzzy_threshold = 0.6;
    o.line_hint = 0;
    o.limits.fuzzy_work = env->work + diagnosis_budget(env);
    const ec_options *saved = env->opt;
    ec_profile saved_p = env->profile;
    env->opt = &o;
    env->profile = EC_PROFILE__COUNT; /* no precision refusal while only ranking */
    ec_found_list fz = {0};
    fz.limit = 64;
    ec_str none = {"", 0};
    ec_error_code frc = ec_strategy_fuzzy(env, old_text, none, &fz);
    env->opt = saved;
    env->profile = saved_p;
    if (frc == EC_OUT_OF_MEMORY) return frc;
    if (!frc && fz.n) {
      out->candidates = ec_arena_calloc(env->arena, MAX_CANDIDATES, sizeof *out->candidates);
      if (!out->candidates) return EC_OUT_OF_MEMORY;
      for (size_t c = 0; c < MAX_CANDIDATES; c++) {
        size_t best = fz.n;
        for (size_t i = 0; i < fz.n; i++)
          if (fz.items[i].strategy == EC_STRATEGY_FUZZY && (best == fz.n || fz.items[i].confidence > fz.items[best].confidence)) best = i;
        if (best == fz.n) break;
        ec_found *b = &fz.items[best];
        ec_candidate *cd = &out->candidates[out->n_candidates++];
        cd->start_line = b->start_line;
        cd->end_line = b->end_line;
        cd->similarity = b->confidence;
        size_t from = fl->start[b->start_line - 1], to = fl->start[b->end_line - 1] + fl->len[b->end_line - 1];
        cd->text = ec_arena_strdup(env->arena, fl->text + from, to - from);
        b->strategy = EC_STRATEGY_EXACT; /* taken */
      }
    }
    env->message.ptr = NULL;
    env->message.len = 0;
    out->detail = ec_arena_printf(env->arena, "None of old_string's %zu non-blank line%s occurs in the file, even ignoring whitespace%s: check "
                                  "that this is the right file, read it again and copy old_string from what it holds now.",
                                  nonblank, nonblank == 1 ? "" : "s",
                                  out->n_candidates ? " (error.candidates holds the most similar places)" : "");
    if (out->n_candidates && out->detail.ptr) {
      /* Name the most similar place's first differing line, the file's text and the model's. */
      const ec_candidate *cd = &out->candidates[0];
      for (size_t j = 0; j < ol.n && cd->start_line + j <= cd->end_line; j++) {
        ec_str a = ec_lines_get(&ol, j), l = ec_lines_get(fl, cd->start_line - 1 + j);
        if (a.len == l.len && !memcmp(a.ptr, l.ptr, a.len)) continue;
        ec_str d = describe(env->arena, (uint32_t)(cd->start_line + j), a, l);
        if (d.ptr) out->detail = ec_arena_printf(env->arena, "%.*s %.*s", (int)out->detail.len, out->detail.ptr, (int)d.len, d.ptr);
        if (!out->detail.ptr) return EC_OUT_OF_MEMORY;
        break;
      }
    }
    return EC_OK;
  }
  if (!n_votes || !nonblank) return EC_OK;
  ec_sort(votes, n_votes, sizeof *votes, by_start);
  size_t w = 0; /* merge equal starts */
  for (size_t i = 0; i < n_votes; i++) {
    if (w && votes[w - 1].start == votes[i].start) votes[w - 1].n++;
    else votes[w++] = votes[i];
  }
  out->candidates = ec_arena_calloc(env->arena, MAX_CANDIDATES, sizeof *out->candidates);
  if (!out->candidates) return EC_OUT_OF_MEMORY;
  /* The similarities below are edit distances of whole lines (up to 4,000 bytes squared each):
   * without a bound, a long old_string of long lines would take minutes to explain a NO_MATCH. */
  uint64_t sim_budget = diagnosis_budget(env), sim_from = env->work;
  for (size_t c = 0; c < MAX_CANDIDATES; c++) {
    size_t best = w;
    for (size_t i = 0; i < w; i++)
      if (votes[i].n && (best == w || votes[i].n > votes[best].n)) best = i;
    if (best == w) break;
    long long s = votes[best].start;
    votes[best].n = 0;
    if (s < 0) s = 0;
    size_t e = (size_t)s + ol.n;
    if (e > fl->n) e = fl->n;
    if ((size_t)s >= e) continue;
    ec_candidate *cd = &out->candidates[out->n_candidates++];
    cd->start_line = (uint32_t)s + 1;
    cd->end_line = (uint32_t)e;
    size_t from = fl->start[s], to = fl->start[e - 1] + fl->len[e - 1];
    cd->text = ec_arena_strdup(env->arena, fl->text + from, to - from);
    /* Per-line similarity (exact 1000, whitespace-only 950, else by edit distance), averaged
     * over old_text's lines, in thousandths so the JSON is identical on every build. A pair
     * whose distance would pass the budget counts 0, as a line over 4,000 bytes does. */
    uint64_t sum = 0;
    for (size_t j = 0; j < ol.n && (size_t)s + j < fl->n; j++) {
      ec_str a = ec_lines_get(&ol, j), b = ec_lines_get(fl, (size_t)s + j);
      if (a.len == b.len && !memcmp(a.ptr, b.ptr, a.len)) { sum += 1000; continue; }
      if ((uint64_t)a.len * b.len > sim_budget - (env->work - sim_from)) continue;
      uint32_t sim = ec_line_similarity(env, a, b);
      if (sim == UINT32_MAX) return EC_OUT_OF_MEMORY;
      sum += sim == 1000 ? 950 : sim;
    }
    cd->similarity = (double)(sum / ol.n) / 1000.0;
    if (c == 0) {
      ec_buf b;
      ec_buf_init(&b, ec_arena_allocator(env->arena));
      /* Lines of old_text that occur nowhere in the file: the model's belief is wrong there. */
      size_t missing = 0;
      for (size_t j = 0; j < ol.n && missing < 2; j++) {
        ec_str t = trim(ec_lines_get(&ol, j));
        if (!t.len) continue;
        uint64_t h = ec_hash_bytes(t.ptr, t.len);
        size_t lo = 0, hi = fl->n;
        while (lo < hi) { size_t m = (lo + hi) / 2; if (keys[m].h < h) lo = m + 1; else hi = m; }
        if (lo < fl->n && keys[lo].h == h) continue;
        ec_buf_printf(&b, "Line %zu of old_string ('%.*s') does not occur anywhere in the file. ", j + 1,
                      (int)(t.len > 160 ? 160 : t.len), t.ptr);
        missing++;
      }
      /* Name a line that differs in its text first; whitespace-only differences after. */
      bool said = false;
      for (int pass = 0; pass < 2 && !said; pass++)
        for (size_t j = 0; j < ol.n && (size_t)s + j < fl->n && !said; j++) {
          ec_str a = ec_lines_get(&ol, j), l = ec_lines_get(fl, (size_t)s + j);
          if (a.len == l.len && !memcmp(a.ptr, l.ptr, a.len)) continue;
          ec_str ta = trim(a), tl = trim(l);
          bool ws_only = ta.len == tl.len && (!ta.len || !memcmp(ta.ptr, tl.ptr, ta.len));
          if (ws_only != (pass == 1)) continue;
          ec_buf_append_str(&b, describe(env->arena, (uint32_t)(s + (long long)j + 1), a, l));
          said = true;
        }
      if (b.oom) { ec_buf_free(&b); return EC_OUT_OF_MEMORY; }
      out->detail = ec_buf_finish(&b, env->arena);
    }
  }
  return EC_OK;
}
