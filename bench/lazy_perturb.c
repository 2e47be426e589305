/*
 * How much the lazy merge's self-check (core/src/lazy/verify.c) catches of a misplaced merge,
 * whatever produced it (issue 21). Given a file, a lazy snippet and a result the merge gave for
 * it (right, or right but for whitespace), every run of lines the result inserts (lines of the
 * result the file lacks, blank lines at the run's edges aside) is moved by one non-blank line:
 * above the line right above it, and below the line right below it — code landing one line too
 * early or too late, e.g. before a block's `end` instead of after it. Each moved result that
 * differs from the original result (lines trimmed, blank lines dropped) is a wrong merge; the
 * tool runs the check (ec_lz_check_merge) on it and counts what it declines. Three kinds of move:
 *   slide   — the run moved across the non-blank line next to it (up, then down);
 *   overlap — the same where that line reads as the run's own edge line (its last line when it
 *             moves up, its first when down): one copy is left out, as when a merge takes the
 *             file's `end` for the snippet's (the `end` then closes the new function, and the
 *             block above is left open);
 *   depth   — Python only: the run indented one level (four spaces) deeper or shallower.
 *   lazy_perturb PATH ORIG SNIPPET GOT
 *   lazy_perturb --check PATH ORIG SNIPPET RESULT   (the check's message on one result)
 * prints one line: `slide N C NB CB overlap N C NB CB depth N C` (moves, caught, and of those
 * the moves across a line that closes or continues a block — `end`, `fi`, `done`, `esac`, `else`,
 * a line opening with a closing bracket — or opens one with a trailing `:`), or `unchecked 1` when
 * the check declines the result itself (then no move says anything).
 * Used by bench/lazy_perturb.mjs over the cases of bench/lazy_real.mjs.
 */
#define _POSIX_C_SOURCE 200809L
#include "editcore.h"
#include "request/ctx.h"
#include "request/result.h"
#include "formats/formats.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *p; size_t n; } line_t;

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(b); return NULL; }
  fclose(f);
  b[n] = 0;
  *len = (size_t)n;
  return b;
}

static size_t split(const char *t, size_t len, line_t **out) {
  size_t n = 0, cap = 64;
  line_t *L = malloc(cap * sizeof *L);
  size_t i = 0;
  while (i < len) {
    const char *e = memchr(t + i, '\n', len - i);
    size_t le = e ? (size_t)(e - t) : len;
    if (n == cap) L = realloc(L, (cap *= 2) * sizeof *L);
    L[n++] = (line_t){t + i, le - i};
    i = le + 1;
  }
  *out = L;
  return n;
}

static line_t trim(line_t l) {
  while (l.n && isspace((unsigned char)l.p[0])) l.p++, l.n--;
  while (l.n && isspace((unsigned char)l.p[l.n - 1])) l.n--;
  return l;
}
static bool blank(line_t l) { return trim(l).n == 0; }
static bool eq(line_t a, line_t b) { return a.n == b.n && !memcmp(a.p, b.p, a.n); }

/* A line that closes or continues a block, or opens one with a trailing `:` (Python). */
static bool structural(line_t l) {
  line_t t = trim(l);
  if (!t.n) return false;
  if (t.p[0] == '}' || t.p[0] == ')' || t.p[0] == ']' || t.p[t.n - 1] == ':') return true;
  static const char *const W[] = {"end", "fi", "done", "esac", "else", "elif", "elsif", "elseif", "until", NULL};
  for (size_t k = 0; W[k]; k++) {
    size_t m = strlen(W[k]);
    if (t.n >= m && !memcmp(t.p, W[k], m) && (t.n == m || !(isalnum((unsigned char)t.p[m]) || t.p[m] == '_'))) return true;
  }
  return false;
}

static bool show_message;

static ec_error_code check(const char *path, const char *orig, size_t olen, const char *snip, size_t slen, const char *res_text, size_t rlen) {
  ec_request req;
  ec_request_init(&req, EC_FORMAT_LAZY);
  ec_file file = {{path, strlen(path)}, {orig, olen}};
  req.files = &file;
  req.n_files = 1;
  req.edit.snippet = (ec_str){snip, slen};
  req.edit.has_snippet = true;
  ec_result *res = ec_result_new(NULL);
  ec_ctx ctx;
  ec_error_code rc = ec_ctx_init(&ctx, &req, res, NULL);
  ec_ws_file *f = rc ? NULL : ec_format_target(&ctx);
  if (f) rc = ec_lz_check_merge(&ctx, f, (ec_str){snip, slen}, (ec_str){res_text, rlen});
  if (show_message) printf("%s\n", rc && res->n_errors ? res->errors[0].message.ptr : "passes");
  ec_result_free(res);
  return rc;
}

/* The result's lines, trimmed and without blank lines, compared. */
static bool same_ws(line_t *a, size_t na, line_t *b, size_t nb) {
  size_t i = 0, k = 0;
  for (;;) {
    while (i < na && blank(a[i])) i++;
    while (k < nb && blank(b[k])) k++;
    if (i >= na || k >= nb) return i >= na && k >= nb;
    if (!eq(trim(a[i]), trim(b[k]))) return false;
    i++, k++;
  }
}

int main(int argc, char **argv) {
  /* --check: the check's verdict on RESULT as it is. */
  if (argc == 6 && !strcmp(argv[1], "--check")) {
    show_message = true;
    argv++;
    argc--;
    size_t ol, sl, rl;
    char *o = slurp(argv[2], &ol), *sn = slurp(argv[3], &sl), *r = slurp(argv[4], &rl);
    if (!o || !sn || !r) { fprintf(stderr, "cannot read the inputs\n"); return 2; }
    return check(argv[1], o, ol, sn, sl, r, rl) == EC_OK ? 0 : 1;
  }
  if (argc != 5) { fprintf(stderr, "usage: lazy_perturb [--check] PATH ORIG SNIPPET GOT|RESULT\n"); return 2; }
  size_t ol, sl, gl;
  char *orig = slurp(argv[2], &ol), *snip = slurp(argv[3], &sl), *got = slurp(argv[4], &gl);
  if (!orig || !snip || !got) { fprintf(stderr, "cannot read the inputs\n"); return 2; }
  line_t *F, *G;
  size_t nf = split(orig, ol, &F), ng = split(got, gl, &G);
  /* Which result lines the file has: an LCS after the common prefix and suffix. */
  bool *kept = calloc(ng + 1, 1);
  size_t p = 0;
  while (p < nf && p < ng && eq(F[p], G[p])) kept[p] = true, p++;
  size_t sf = nf, sg = ng;
  while (sf > p && sg > p && eq(F[sf - 1], G[sg - 1])) sf--, sg--, kept[sg] = true;
  size_t ra = sf - p, rb = sg - p;
  if (ra && rb && (unsigned long long)(ra + 1) * (rb + 1) < 200000000ull) {
    size_t W = rb + 1;
    unsigned *T = calloc((ra + 1) * W, sizeof *T);
    for (size_t i = ra; i-- > 0;)
      for (size_t k = rb; k-- > 0;)
        T[i * W + k] = eq(F[p + i], G[p + k]) ? T[(i + 1) * W + k + 1] + 1
                       : T[(i + 1) * W + k] >= T[i * W + k + 1] ? T[(i + 1) * W + k] : T[i * W + k + 1];
    size_t i = 0, k = 0;
    while (i < ra && k < rb) {
      if (eq(F[p + i], G[p + k])) kept[p + k] = true, i++, k++;
      else if (T[(i + 1) * W + k] >= T[i * W + k + 1]) i++;
      else k++;
    }
    free(T);
  }
  /* The result as the engine gave it must pass, or the moves say nothing about the check. */
  if (check(argv[1], orig, ol, snip, sl, got, gl) != EC_OK) {
    printf("unchecked 1\n");
    return 0;
  }
  /* The file's indentation unit (Python only: there a run one level deeper is another block). */
  size_t plen = strlen(argv[1]);
  bool py = plen > 3 && !strcmp(argv[1] + plen - 3, ".py");
  unsigned n[3] = {0}, c[3] = {0}, nb_[3] = {0}, cb[3] = {0};
  line_t *M = malloc((ng + 1) * sizeof *M);
  char *buf = malloc(gl * 2 + 64 * ng + 2), *ind = malloc(gl * 2 + 64 * ng + 2);
  for (size_t a = 0; a < ng;) {
    if (kept[a] || blank(G[a])) { a++; continue; }
    size_t b = a;
    while (b < ng && (!kept[b] || blank(G[b]))) b++;
    while (b > a && blank(G[b - 1])) b--; /* the run [a, b): inserted lines, blank edges aside */
    /* fam 0: the run slid across the line next to it; fam 1: the same where that line reads as the
     * run's own edge line, which then stands for both (one copy dropped: the file's closer taken
     * for the run's own); fam 2 (Python): the run one indentation level deeper or shallower. */
    for (int fam = 0; fam < 3; fam++)
      for (int dir = -1; dir <= 1; dir += 2) {
        size_t x = SIZE_MAX; /* the line the run moves across */
        if (fam < 2) {
          if (dir < 0) {
            x = a;
            while (x > 0 && blank(G[x - 1])) x--;
            if (!x) continue;
            x--;
          } else {
            x = b;
            while (x < ng && blank(G[x])) x++;
            if (x >= ng) continue;
          }
        }
        if (fam == 1 && !eq(trim(G[x]), trim(G[dir < 0 ? b - 1 : a]))) continue;
        if (fam == 2 && !py) continue;
        size_t m = 0, il = 0;
        if (fam == 0 && dir < 0) { /* lines [0, x), the run, [x, a), [b, ng) */
          for (size_t i = 0; i < x; i++) M[m++] = G[i];
          for (size_t i = a; i < b; i++) M[m++] = G[i];
          for (size_t i = x; i < a; i++) M[m++] = G[i];
          for (size_t i = b; i < ng; i++) M[m++] = G[i];
        } else if (fam == 0) { /* lines [0, a), [b, x], the run, (x, ng) */
          for (size_t i = 0; i < a; i++) M[m++] = G[i];
          for (size_t i = b; i <= x; i++) M[m++] = G[i];
          for (size_t i = a; i < b; i++) M[m++] = G[i];
          for (size_t i = x + 1; i < ng; i++) M[m++] = G[i];
        } else if (fam == 1) { /* line x left out */
          for (size_t i = 0; i < ng; i++)
            if (i != x) M[m++] = G[i];
        } else { /* the run's lines with four spaces more, or four fewer (when all have them) */
          bool ok = true;
          for (size_t i = a; i < b && dir < 0; i++) ok = ok && (blank(G[i]) || (G[i].n >= 4 && !memcmp(G[i].p, "    ", 4)));
          if (!ok) continue;
          for (size_t i = 0; i < ng; i++) {
            if (i < a || i >= b || blank(G[i])) { M[m++] = G[i]; continue; }
            if (dir < 0) { M[m++] = (line_t){G[i].p + 4, G[i].n - 4}; continue; }
            memcpy(ind + il, "    ", 4);
            memcpy(ind + il + 4, G[i].p, G[i].n);
            M[m++] = (line_t){ind + il, G[i].n + 4};
            il += G[i].n + 4;
          }
        }
        if (fam < 2 && same_ws(M, m, G, ng)) continue;
        size_t len = 0;
        for (size_t i = 0; i < m; i++) {
          memcpy(buf + len, M[i].p, M[i].n);
          len += M[i].n;
          buf[len++] = '\n';
        }
        if (gl && got[gl - 1] != '\n' && len) len--;
        ec_error_code rc = check(argv[1], orig, ol, snip, sl, buf, len);
        bool st = x != SIZE_MAX && structural(G[x]);
        n[fam]++;
        c[fam] += rc != EC_OK;
        nb_[fam] += st;
        cb[fam] += st && rc != EC_OK;
        if (getenv("LAZY_PERTURB_VERBOSE") && rc == EC_OK)
          fprintf(stderr, "passed: family %d, run at line %zu (%zu lines) moved %s%s%.*s%s\n", fam, a + 1, b - a, dir < 0 ? "up" : "down",
                  x != SIZE_MAX ? " across '" : "", x != SIZE_MAX ? (int)G[x].n : 0, x != SIZE_MAX ? G[x].p : "", x != SIZE_MAX ? "'" : "");
      }
    a = b;
  }
  printf("slide %u %u %u %u overlap %u %u %u %u depth %u %u\n", n[0], c[0], nb_[0], cb[0], n[1], c[1], nb_[1], cb[1], n[2], c[2]);
  return 0;
}
