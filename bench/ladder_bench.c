/*
 * Matching-ladder benchmark (issue 3): "a 50-line search in a 10 MB file must finish each strategy
 * in well under a second natively".
 *
 * A deterministic (seeded) ~10 MB Python-like source file; a 50-line region in its middle; for
 * every strategy a needle mutated so that exactly that strategy is the first of the ladder to
 * match it (checked before timing), plus a needle nothing matches (NO_MATCH with diagnostics).
 * Two timings per case, each the median of --reps runs:
 *   strategy  the strategy's function alone on a fresh match environment (line tables and
 *             normalised hashes included, as the first strategy to need them pays for them);
 *   request   the whole ec_apply() request in the editcore profile: document load, the ladder
 *             from `exact` down to the strategy (every earlier one failing first), the splice
 *             and the unified diff (for the no-match case: the ladder and the diagnostics).
 *
 * Build against a native build directory B (bench/ladder_bench.sh does this):
 *   cc -O2 -std=c11 -Icore/include -Icore/src bench/ladder_bench.c B/libeditcore.a -lcjson -lm
 * Usage: ladder_bench [--mb N] [--reps N] [--only NAME] [--json] [--repetitive] [--keep-heap]
 *   --only NAME  run one case (a strategy name or "nomatch"), e.g. under callgrind
 *   --json       one JSON object per case on stdout instead of the table
 *   --keep-heap  (glibc) keep freed memory mapped, so request times leave out the page faults of
 *                fresh 10 MB blocks (they dominate request times in small VMs)
 *   --repetitive every function from one template, so that every 13th window is within ~10 % of
 *                the needle: fuzzy's worst case (it must stop at limits.fuzzy_work, not hang)
 * Exit status 1 when a needle is not matched by the strategy it was made for (the bench then
 * measures the wrong thing), 2 when a case takes a second or more.
 */
#define _POSIX_C_SOURCE 200809L
#include "editcore.h"
#include "match/ladder.h"
#include "base/arena.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Section - text building */

typedef struct sb { char *p; size_t n, cap; } sb;
static void put_n(sb *b, const char *s, size_t l) {
  if (b->n + l + 1 > b->cap) {
    b->cap = (b->n + l + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) { fprintf(stderr, "out of memory\n"); exit(3); }
  }
  memcpy(b->p + b->n, s, l);
  b->n += l;
  b->p[b->n] = 0;
}
static void put(sb *b, const char *s) { put_n(b, s, strlen(s)); }
static void putf(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(sb *b, const char *fmt, ...) {
  char t[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(t, sizeof t, fmt, ap);
  va_end(ap);
  put_n(b, t, n < 0 ? 0 : (size_t)n);
}

static unsigned long long rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned)(rng_state % n);
}

static const char *const WORDS[] = {"alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda",
                                    "theta", "zeta", "rho", "tau", "phi", "chi", "psi", "iota"};
#define N_WORDS (sizeof WORDS / sizeof WORDS[0])
static const char *const VERBS[] = {"load", "save", "parse", "render", "check", "merge", "split", "fetch", "store",
                                    "scan", "build", "drop", "sort", "count", "find", "apply"};
static const char *const NOUNS[] = {"user", "order", "item", "page", "token", "record", "entry", "node", "batch",
                                    "query", "config", "report", "cache", "event", "queue", "frame"};
#define PICK(a) a[rnd(sizeof a / sizeof a[0])]
static bool repetitive = false; /* --repetitive: every function from one template (fuzzy's worst case) */

/* One statement of a function body at indentation `ind` + `extra`. */
static void statement(sb *b, const char *ind, const char *extra, unsigned i) {
  const char *v = PICK(VERBS), *n = PICK(NOUNS), *w = PICK(WORDS);
  switch (rnd(10)) {
    case 0: putf(b, "%s%s%s_%s = %s_%s(%s, %u)\n", ind, extra, n, w, v, n, w, rnd(1000)); break;
    case 1: putf(b, "%s%sif %s.%s_count > %u:\n%s%s    return None\n", ind, extra, n, w, rnd(500), ind, extra); break;
    case 2: putf(b, "%s%slog.info(\"%s %s: %%s\", %s)\n", ind, extra, v, n, w); break;
    case 3: putf(b, "%s%s%s.append(%s[%u] * %u)\n", ind, extra, w, n, rnd(16), rnd(9) + 1); break;
    case 4: putf(b, "%s%s# %s the %s before the %s step (%u)\n", ind, extra, v, n, w, i); break;
    case 5: putf(b, "%s%sself.%s_%s += len(%s) - %u\n", ind, extra, n, v, w, rnd(64)); break;
    case 6: putf(b, "%s%sfor %s in self.%s_%s(%s):\n%s%s    %s.%s()\n", ind, extra, w, v, n, w, ind, extra, w, v); break;
    case 7: putf(b, "%s%s%s = {\"%s\": %s, \"n\": %u}\n", ind, extra, w, n, w, rnd(100000)); break;
    case 8: putf(b, "%s%sassert %s is not None, \"%s %s missing\"\n", ind, extra, w, n, w); break;
    default: putf(b, "%s%sreturn %s_%s(%s, limit=%u)\n", ind, extra, v, n, w, rnd(100)); break;
  }
}

/* One function, indented by `ind`; every one has its own name. */
static void function(sb *b, unsigned i, const char *ind) {
  const char *w1 = WORDS[rnd(N_WORDS)], *w2 = WORDS[rnd(N_WORDS)], *w3 = WORDS[rnd(N_WORDS)];
  if (!repetitive) {
    const char *v = PICK(VERBS), *n = PICK(NOUNS);
    putf(b, "%sdef %s_%s_%u(self, %s, %s=%u):\n", ind, v, n, i, w1, w2, rnd(100));
    if (rnd(2)) putf(b, "%s    \"\"\"%s the %s - %s variant %u.\"\"\"\n", ind, v, n, w3, i);
    unsigned k = 2 + rnd(8);
    for (unsigned j = 0; j < k; j++) statement(b, ind, "    ", i);
    if (rnd(3) == 0) {
      putf(b, "%s    try:\n", ind);
      for (unsigned j = 1 + rnd(3); j; j--) statement(b, ind, "        ", i);
      putf(b, "%s    except %sError as exc:\n%s        raise RuntimeError(\"%s failed\") from exc\n", ind, n[0] == 'q' ? "Key" : "Value", ind, v);
    }
    putf(b, "%s    return %s\n\n", ind, w1);
    return;
  }
  putf(b, "%sdef handler_%u(request, limit=%u):\n", ind, i, rnd(100));
  putf(b, "%s    \"\"\"Handle the \"%s\" case - number %u.\"\"\"\n", ind, w1, i);
  putf(b, "%s    result = []\n", ind);
  putf(b, "%s    for item in request.items_%u:\n", ind, i % 97);
  putf(b, "%s        if item.value > %u and item.name != \"%s\":\n", ind, rnd(1000), w2);
  putf(b, "%s            result.append(item.value * %u)\n", ind, rnd(10) + 1);
  putf(b, "%s        elif item.kind == '%s':\n", ind, w3);
  putf(b, "%s            result.append(-item.value)\n", ind);
  putf(b, "%s    total = sum(result) - %u\n", ind, rnd(50));
  putf(b, "%s    log.debug(\"handler_%u -> %%d\", total)\n", ind, i);
  putf(b, "%s    if total > limit: raise ValueError(\"too big: %%d\" %% total)\n", ind);
  putf(b, "%s    return {\"id\": %u, \"total\": total, \"items\": result}\n\n", ind, i);
}

static void make_file(sb *b, size_t bytes) {
  put(b, "import logging\nimport math\n\nlog = logging.getLogger(__name__)\n\n\n");
  unsigned i = 0;
  while (b->n < bytes) {
    if (i % 40 == 0) putf(b, "class Group%u:\n    \"\"\"Handlers %u to %u.\"\"\"\n\n", i / 40, i, i + 39);
    function(b, i, i % 40 < 20 ? "    " : "");
    i++;
  }
}

/* Section - needles */

typedef struct lines { const char **p; size_t *len; size_t n; } lines;

static lines split(const char *s, size_t n) {
  lines l = {0};
  size_t cap = 64;
  l.p = malloc(cap * sizeof *l.p);
  l.len = malloc(cap * sizeof *l.len);
  for (size_t i = 0; i < n;) {
    const char *nl = memchr(s + i, '\n', n - i);
    size_t e = nl ? (size_t)(nl - s) : n;
    if (l.n == cap) {
      cap *= 2;
      l.p = realloc(l.p, cap * sizeof *l.p);
      l.len = realloc(l.len, cap * sizeof *l.len);
    }
    l.p[l.n] = s + i;
    l.len[l.n++] = e - i;
    i = e + 1;
  }
  return l;
}

/* Replaces every occurrence of `from` in line (length n) by `to`, appending to b. */
static void put_replaced(sb *b, const char *line, size_t n, const char *from, const char *to) {
  size_t fl = strlen(from);
  for (size_t i = 0; i < n;) {
    if (i + fl <= n && !memcmp(line + i, from, fl)) { put(b, to); i += fl; }
    else put_n(b, line + i++, 1);
  }
}

typedef struct bench_case {
  const char *name;      /* the strategy name, or "nomatch" */
  ec_strategy strategy;  /* the one expected to match first */
  sb old_text, new_text;
  bool fuzzy;            /* the request must name fuzzy in options.strategies */
} bench_case;

#define REGION 50

static void make_cases(const char *file, size_t len, bench_case *c, size_t *n_cases) {
  lines fl = split(file, len);
  /* The region: 50 lines from the start of a function in the middle of the file. */
  size_t start = fl.n / 2;
  while (start < fl.n && strncmp(fl.p[start], "def ", 4) && strncmp(fl.p[start], "    def ", 8)) start++;
  /* ...and ending on a line with text (anchor needs its first and last lines). */
  while (start + REGION < fl.n && (!fl.len[start + REGION - 1] ||
                                   (strncmp(fl.p[start], "def ", 4) && strncmp(fl.p[start], "    def ", 8))))
    start++;
  const char **L = fl.p + start;
  const size_t *N = fl.len + start;
  size_t k = 0;
#define LINE(j) put_n(&cc->old_text, L[j], N[j])
#define NEW_DEFAULT() do { put(&cc->new_text, "# edited by ladder_bench\n"); put_n(&cc->new_text, L[0], N[0]); put(&cc->new_text, "\n    pass\n"); } while (0)
  bench_case *cc;

  cc = &c[k++]; cc->name = "exact"; cc->strategy = EC_STRATEGY_EXACT;
  for (size_t j = 0; j < REGION; j++) { LINE(j); put(&cc->old_text, "\n"); }
  NEW_DEFAULT();

  /* The model escaped its newlines and quotes once too often. */
  cc = &c[k++]; cc->name = "unescape"; cc->strategy = EC_STRATEGY_UNESCAPE;
  for (size_t j = 0; j < REGION; j++) { put_replaced(&cc->old_text, L[j], N[j], "\"", "\\\""); put(&cc->old_text, "\\n"); }
  NEW_DEFAULT();

  /* Trailing whitespace on every third line. */
  cc = &c[k++]; cc->name = "trim_end"; cc->strategy = EC_STRATEGY_TRIM_END;
  for (size_t j = 0; j < REGION; j++) { LINE(j); put(&cc->old_text, j % 3 ? "\n" : "   \n"); }
  NEW_DEFAULT();

  /* Every line four spaces deeper. */
  cc = &c[k++]; cc->name = "indent"; cc->strategy = EC_STRATEGY_INDENT;
  for (size_t j = 0; j < REGION; j++) { if (N[j]) put(&cc->old_text, "    "); LINE(j); put(&cc->old_text, "\n"); }
  NEW_DEFAULT();

  /* Typographic quotes and dashes. */
  cc = &c[k++]; cc->name = "unicode"; cc->strategy = EC_STRATEGY_UNICODE;
  for (size_t j = 0; j < REGION; j++) {
    sb t = {0};
    put_replaced(&t, L[j], N[j], " - ", " \xE2\x80\x93 ");
    put_replaced(&cc->old_text, t.p ? t.p : "", t.n, "\"", "\xE2\x80\x9D");
    free(t.p);
    put(&cc->old_text, "\n");
  }
  NEW_DEFAULT();

  /* Lines 10-19 and 30-39 left out behind `...`. */
  cc = &c[k++]; cc->name = "elision"; cc->strategy = EC_STRATEGY_ELISION;
  for (size_t j = 0; j < REGION; j++) {
    if ((j >= 10 && j < 20) || (j >= 30 && j < 40)) {
      if (j == 10 || j == 30) { put(&cc->old_text, "...\n"); put(&cc->new_text, "...\n"); }
      continue;
    }
    LINE(j);
    put(&cc->old_text, "\n");
    if (j == 2) put(&cc->new_text, "    result = list()");
    else put_n(&cc->new_text, L[j], N[j]);
    put(&cc->new_text, "\n");
  }

  /* First and last lines intact; a comment added to every fourth middle line. */
  cc = &c[k++]; cc->name = "anchor"; cc->strategy = EC_STRATEGY_ANCHOR;
  for (size_t j = 0; j < REGION; j++) {
    LINE(j);
    if (j && j + 1 < REGION && j % 4 == 1 && N[j]) put(&cc->old_text, "  # x");
    put(&cc->old_text, "\n");
  }
  put(&cc->new_text, "# replaced by ladder_bench\n");

  /* Whitespace between tokens changed on every line, the first and last included. */
  cc = &c[k++]; cc->name = "regex"; cc->strategy = EC_STRATEGY_REGEX;
  for (size_t j = 0; j < REGION; j++) {
    sb t = {0};
    put_replaced(&t, L[j], N[j], " = ", "=");
    put_replaced(&cc->old_text, t.p ? t.p : "", t.n, "(", "( ");
    free(t.p);
    put(&cc->old_text, "\n");
  }
  NEW_DEFAULT();

  /* A stray "zz" on the first line and on two more: only fuzzy (when asked) matches. */
  cc = &c[k++]; cc->name = "fuzzy"; cc->strategy = EC_STRATEGY_FUZZY; cc->fuzzy = true;
  for (size_t j = 0; j < REGION; j++) {
    if ((j == 0 || j == 20 || j == 35) && N[j]) {
      size_t ind = 0;
      while (ind < N[j] && L[j][ind] == ' ') ind++;
      put_n(&cc->old_text, L[j], ind);
      put(&cc->old_text, "zz");
      put_n(&cc->old_text, L[j] + ind, N[j] - ind);
    } else {
      LINE(j);
    }
    put(&cc->old_text, "\n");
  }
  put(&cc->new_text, "# replaced by ladder_bench\n");

  /* Nothing matches: "zz" put in front of every fifth line, the first included (NO_MATCH, candidates ranked). */
  cc = &c[k++]; cc->name = "nomatch"; cc->strategy = EC_STRATEGY__COUNT;
  for (size_t j = 0; j < REGION; j++) {
    if (j % 5 == 0 && N[j]) {
      size_t ind = 0;
      while (ind < N[j] && L[j][ind] == ' ') ind++;
      put_n(&cc->old_text, L[j], ind);
      put(&cc->old_text, "zz");
      put_n(&cc->old_text, L[j] + ind, N[j] - ind);
    } else {
      LINE(j);
    }
    put(&cc->old_text, "\n");
  }
  put(&cc->new_text, "# replaced by ladder_bench\n");
#undef LINE
#undef NEW_DEFAULT
  *n_cases = k;
  free(fl.p);
  free(fl.len);
}

/* Section - running */

static const ec_strategy FULL[] = {EC_STRATEGY_EXACT, EC_STRATEGY_UNESCAPE, EC_STRATEGY_TRIM_END, EC_STRATEGY_INDENT,
                                   EC_STRATEGY_UNICODE, EC_STRATEGY_ELISION, EC_STRATEGY_ANCHOR, EC_STRATEGY_REGEX,
                                   EC_STRATEGY_FUZZY};
#define N_FULL (sizeof FULL / sizeof FULL[0])

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The strategy alone. Returns the number of matches (-1 on error), fills *ms. */
static long run_strategy(const char *file, size_t len, const bench_case *c, ec_strategy s, double *ms, uint64_t *work) {
  ec_options opt;
  ec_options_default(&opt);
  ec_arena *a = ec_arena_new(NULL);
  if (!a) return -1;
  ec_str old_text = {c->old_text.p, c->old_text.n}, new_text = {c->new_text.p, c->new_text.n};
  double t0 = now_ms();
  ec_match_env env;
  ec_match_env_init(&env, a, file, len, &opt, EC_PROFILE_EDITCORE);
  ec_found_list out = {0};
  ec_error_code rc = ec_strategy_impl(s)(&env, old_text, new_text, &out);
  *ms = now_ms() - t0;
  if (work) *work = env.work;
  ec_arena_free(a);
  return rc ? -1 : (long)out.total;
}

/* The strategy the ladder picks (EC_STRATEGY__COUNT: none). */
static ec_strategy ladder_pick(const char *file, size_t len, const bench_case *c) {
  ec_options opt;
  ec_options_default(&opt);
  ec_arena *a = ec_arena_new(NULL);
  ec_match_env env;
  ec_match_env_init(&env, a, file, len, &opt, EC_PROFILE_EDITCORE);
  ec_found_list out = {0};
  ec_strategy used = EC_STRATEGY__COUNT;
  ec_str old_text = {c->old_text.p, c->old_text.n}, new_text = {c->new_text.p, c->new_text.n};
  /* The editcore default ladder (fuzzy only where the request names it, as run_request does). */
  ec_error_code rc = ec_ladder_find(&env, FULL, c->fuzzy ? N_FULL : N_FULL - 1, old_text, new_text, &out, &used);
  ec_arena_free(a);
  return rc || !out.total ? EC_STRATEGY__COUNT : used;
}

/* The whole request. Returns the status and the strategy of its first match. */
static ec_status run_request(const char *file, size_t len, const bench_case *c, double *ms, ec_strategy *used,
                             ec_error_code *err, size_t *n_cand) {
  ec_file f = {{"big.py", 6}, {file, len}};
  ec_request req;
  ec_request_init(&req, EC_FORMAT_REPLACE);
  req.profile = EC_PROFILE_EDITCORE;
  req.files = &f;
  req.n_files = 1;
  req.edit.path = f.path;
  req.edit.old_string = (ec_str){c->old_text.p, c->old_text.n};
  req.edit.new_string = (ec_str){c->new_text.p, c->new_text.n};
  req.edit.has_old_string = req.edit.has_new_string = true;
  if (c->fuzzy) { req.options.strategies = FULL; req.options.n_strategies = N_FULL; }
  double t0 = now_ms();
  ec_result *r = ec_apply(&req, NULL);
  *ms = now_ms() - t0;
  ec_status st = ec_result_status(r);
  *used = EC_STRATEGY__COUNT;
  *err = EC_OK;
  *n_cand = 0;
  if (ec_result_file_count(r) && ec_result_file(r, 0)->n_matches) *used = ec_result_file(r, 0)->matches[0].strategy;
  if (ec_result_error_count(r)) {
    *err = ec_result_error(r, 0)->code;
    *n_cand = ec_result_error(r, 0)->n_candidates;
  }
  ec_result_free(r);
  return st;
}

int main(int argc, char **argv) {
  size_t mb = 10;
  int reps = 5;
  const char *only = NULL;
  bool json = false;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--mb") && i + 1 < argc) mb = (size_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!strcmp(argv[i], "--json")) json = true;
    else if (!strcmp(argv[i], "--repetitive")) repetitive = true;
    else if (!strcmp(argv[i], "--keep-heap")) {
#ifdef __GLIBC__
      /* Freed memory stays mapped: request times without the first-touch page faults of fresh
       * 10 MB blocks (what a long-running host sees once warm). */
      mallopt(M_MMAP_THRESHOLD, 256 << 20);
      mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
    }
    else { fprintf(stderr, "usage: %s [--mb N] [--reps N] [--only NAME] [--json] [--repetitive] [--keep-heap]\n", argv[0]); return 64; }
  }
  if (reps < 1) reps = 1;
  sb file = {0};
  make_file(&file, mb * 1000 * 1000);
  size_t n_lines = 0;
  for (size_t i = 0; i < file.n; i++) n_lines += file.p[i] == '\n';
  bench_case cases[16];
  memset(cases, 0, sizeof cases);
  size_t n_cases = 0;
  make_cases(file.p, file.n, cases, &n_cases);
  if (!json)
    printf("ladder_bench: %zu bytes, %zu lines, %d-line needles, median of %d runs (%s)\n\n"
           "%-10s %12s %12s %14s  %s\n", file.n, n_lines, REGION, reps, ec_version(), "case", "strategy ms",
           "request ms", "work cells", "result");
  int status = 0;
  double *ts = malloc((size_t)reps * sizeof *ts), *tr = malloc((size_t)reps * sizeof *tr);
  for (size_t k = 0; k < n_cases; k++) {
    const bench_case *c = &cases[k];
    if (only && strcmp(only, c->name)) continue;
    /* The needle must be matched first by its own strategy (none for nomatch). */
    ec_strategy picked = ladder_pick(file.p, file.n, c);
    bool right = picked == c->strategy;
    uint64_t work = 0;
    long n_found = -1;
    for (int r = 0; r < reps; r++) {
      if (c->strategy < EC_STRATEGY__COUNT) n_found = run_strategy(file.p, file.n, c, c->strategy, &ts[r], &work);
      else ts[r] = 0;
    }
    ec_strategy used = EC_STRATEGY__COUNT;
    ec_error_code err = EC_OK;
    size_t n_cand = 0;
    ec_status st = EC_STATUS_SUCCESS;
    for (int r = 0; r < reps; r++) st = run_request(file.p, file.n, c, &tr[r], &used, &err, &n_cand);
    bool bounded = false;
    if (repetitive && c->fuzzy && n_found < 0 && err == EC_TOO_LARGE) {
      bounded = true; /* the worst case: fuzzy must stop at its work limit, under a second */
      right = true;
    } else if (c->strategy < EC_STRATEGY__COUNT) {
      right = right && n_found == 1 && st == EC_STATUS_SUCCESS && used == c->strategy;
    } else {
      right = right && err == EC_NO_MATCH && n_cand > 0;
    }
    double ms_s = median(ts, reps), ms_r = median(tr, reps);
    if (!right) status = 1;
    else if ((ms_s >= 1000 || ms_r >= 1000) && !status) status = 2;
    char what[160];
    if (bounded)
      snprintf(what, sizeof what, "ok: stopped at limits.fuzzy_work (TOO_LARGE), as designed for this input");
    else if (c->strategy < EC_STRATEGY__COUNT)
      snprintf(what, sizeof what, "%s: ladder picked %s, %ld match%s", right ? "ok" : "WRONG",
               picked < EC_STRATEGY__COUNT ? ec_strategy_name(picked) : "nothing", n_found, n_found == 1 ? "" : "es");
    else
      snprintf(what, sizeof what, "%s: %s with %zu candidate%s", right ? "ok" : "WRONG", ec_error_code_name(err), n_cand,
               n_cand == 1 ? "" : "s");
    if (json)
      printf("{\"case\":\"%s\",\"bytes\":%zu,\"lines\":%zu,\"reps\":%d,\"strategy_ms\":%.3f,\"request_ms\":%.3f,"
             "\"work\":%llu,\"ok\":%s}\n", c->name, file.n, n_lines, reps, ms_s, ms_r, (unsigned long long)work,
             right ? "true" : "false");
    else if (c->strategy < EC_STRATEGY__COUNT)
      printf("%-10s %12.2f %12.2f %14llu  %s\n", c->name, ms_s, ms_r, (unsigned long long)work, what);
    else
      printf("%-10s %12s %12.2f %14s  %s\n", c->name, "-", ms_r, "-", what);
  }
  if (!json) printf("\n%s\n", status == 0 ? "every case under a second" : status == 1 ? "a needle did not match as designed"
                                                                                      : "a case took a second or more");
  free(ts);
  free(tr);
  for (size_t k = 0; k < n_cases; k++) { free(cases[k].old_text.p); free(cases[k].new_text.p); }
  free(file.p);
  return status;
}
