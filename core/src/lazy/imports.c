#define _GNU_SOURCE 1 /* memmem */
/*
 * Invariant (h) of the lazy merge, an import goes with its uses (docs/lazy.md, "The invariants";
 * measured in docs/lazy-passes.md, issue 30, tenth pass), checked on every result R. A snippet
 * often restates a file's imports, and models restate them from memory: the merge then reads the
 * restated lines against the file's, line by line, and two readings go wrong without breaking any
 * other rule:
 *  - the old import lines kept beside the new ones (the import block rewritten, the old lines
 *    taken for code a marker keeps): a name imported twice, which JavaScript refuses;
 *  - an import line the restated list leaves out taken for removed, while code the merge keeps
 *    still uses its name (`UserCog` dropped from the icons' import, `<UserCog />` kept under a
 *    marker): a name no longer bound.
 * Both leave a file that no longer compiles, reported as success. So R is declined when it binds
 * a name by two import lines where the file bound it at most once, or when it removes a file
 * import line binding a name that no import of R binds and that a line of R other than an import
 * or a comment still names.
 *
 * Imports read (one statement may span lines inside `{ }` or `( )`): JavaScript and TypeScript
 * `import a, { b, c as d } from "m"`, `import * as ns from "m"`, `import type { T } from "m"`;
 * Python `import a.b, c as d`, `from m import (a, b as c)`; CommonJS on one line,
 * `const { a, b: c } = require("m")` and `const m = require("m")` (`let`, `var`). The bound names
 * are those after `as` or a destructuring `:`, or the first part of a dotted module. Only a
 * statement starting at column 0 is read: an indented import (Python's `import json` inside a
 * function) binds in another scope.
 * Other languages bind nothing here.
 */
#include "lazy.h"
#include "../base/str.h"
#include <string.h>

enum { MAX_NAMES = 512 };

typedef struct bound {
  ec_str name;
  uint32_t line;
} bound;

typedef struct names {
  bound b[MAX_NAMES];
  uint32_t n;
} names;

static bool id_char(char c) { return ec_lz_name_char((unsigned char)c); }

static bool is_word(ec_str w, const char *s) { return ec_str_eq_cstr(w, s); }

/* Whether t starts with the word w. */
static bool starts_word(ec_str t, const char *w) {
  size_t n = strlen(w);
  return t.len > n && !memcmp(t.ptr, w, n) && !id_char(t.ptr[n]);
}

/* The names an import line binds, added to out (line index `at`). `*open`: the statement goes on
 * past this line inside brackets (carried from the previous line, updated). Returns whether the
 * line belongs to an import statement. */
static bool import_line(ec_str line, bool *open, names *out, uint32_t at) {
  ec_str t = ec_lz_trim(line);
  size_t i = 0;
  if (!*open) {
    /* A module's imports start at column 0; an indented one is local to its function. */
    if (t.ptr != line.ptr) return false;
    if (starts_word(t, "from")) {
      const char *p = memmem(t.ptr, t.len, " import ", 8);
      if (!p) return false;
      i = (size_t)(p - t.ptr) + 8;
    } else if (starts_word(t, "import")) {
      i = 6;
    } else if (memmem(t.ptr, t.len, "= require(", 10)) {
      /* CommonJS, one line: `const { a, b: c } = require("m")` binds a and c */
      static const char *const DECL[] = {"const", "let", "var", NULL};
      for (size_t k = 0; DECL[k] && !i; k++)
        if (starts_word(t, DECL[k])) i = strlen(DECL[k]);
      if (!i) return false;
    } else {
      return false;
    }
  }
  int depth = 0;
  for (size_t k = 0; k < t.len; k++) depth += (t.ptr[k] == '{' || t.ptr[k] == '(') - (t.ptr[k] == '}' || t.ptr[k] == ')');
  bool was_open = *open;
  *open = was_open ? depth >= 0 : depth > 0;
  while (i < t.len) {
    char c = t.ptr[i];
    if (c == '"' || c == '\'' || c == '`' || c == ';' || c == '#' || c == '=' || (c == '/' && i + 1 < t.len && t.ptr[i + 1] == '/')) break;
    if (!id_char(c) || (c >= '0' && c <= '9')) { i++; continue; }
    size_t e = i;
    while (e < t.len && id_char(t.ptr[e])) e++;
    ec_str w = ec_str_make(t.ptr + i, e - i);
    bool dotted = i && t.ptr[i - 1] == '.';
    i = e;
    if (is_word(w, "from")) break; /* JavaScript: the module follows */
    if (dotted || is_word(w, "type") || is_word(w, "typeof") || is_word(w, "as")) continue;
    /* `a as b` binds b, and so does `a: b` (a destructured require). */
    size_t q = e;
    while (q < t.len && t.ptr[q] == ' ') q++;
    if ((q + 2 < t.len && !memcmp(t.ptr + q, "as", 2) && !id_char(t.ptr[q + 2])) || (q < t.len && t.ptr[q] == ':')) continue;
    if (out->n < MAX_NAMES) out->b[out->n++] = (bound){w, at};
  }
  return true;
}

static size_t count(const names *x, ec_str w) {
  size_t n = 0;
  for (uint32_t k = 0; k < x->n; k++) n += ec_str_eq(x->b[k].name, w);
  return n;
}

ec_error_code ec_lz_check_imports(ec_lz_job *job, const ec_lz_rview *v) {
  const ec_lz_side *F = &job->F;
  names *fn = ec_arena_alloc(job->a, sizeof *fn), *rn = ec_arena_alloc(job->a, sizeof *rn);
  bool *imp = ec_arena_alloc(job->a, v->nr + 1);
  if (!fn || !rn || !imp) return ec_fail_oom(job->ctx);
  fn->n = rn->n = 0;
  bool open = false;
  for (size_t i = 0; i < F->n; i++) import_line(F->line[i], &open, fn, (uint32_t)i);
  job->work += v->nr + F->n;
  if (!fn->n) return EC_OK; /* a file that imports nothing: neither question arises */
  open = false;
  for (size_t r = 0; r < v->nr; r++) imp[r] = import_line(v->r[r].line, &open, rn, (uint32_t)r);
  /* A name bound twice in R, by two lines, where the file bound it at most once. */
  for (uint32_t a = 0; a < rn->n; a++)
    for (uint32_t b = a + 1; b < rn->n; b++) {
      job->work++;
      if (rn->b[b].line == rn->b[a].line || !ec_str_eq(rn->b[a].name, rn->b[b].name) || count(fn, rn->b[a].name) >= 2) continue;
      return ec_lz_fail_check(job, EC_NO_MATCH, EC_LZ_WHOLE, 0, 0,
                              "a name imported twice where the file imports it once (invariant h): show the import lines whole",
                              v->r[rn->b[b].line].line);
    }
  /* A name the file imports and no import of R binds (its line removed or rewritten), still named
   * by a line of R that is no import. */
  for (uint32_t k = 0, asked = 0; k < fn->n && asked < 64; k++) { /* bounded: 64 scans of R */
    ec_str w = fn->b[k].name;
    if (count(rn, w)) continue;
    asked++;
    for (size_t r = 0; r < v->nr; r++) {
      job->work += 1 + v->r[r].line.len / 16;
      if (imp[r] || v->r[r].line.len < w.len || ec_lz_comment_only(v->r[r].line) || !ec_lz_code_names(v->r[r].line, w, &job->work)) continue;
      uint32_t f = fn->b[k].line + 1;
      return ec_lz_fail_check(job, EC_NO_MATCH, EC_LZ_WHOLE, f, f,
                              "a name the result still uses would lose its import (invariant h)",
                              w);
    }
  }
  return EC_OK;
}
