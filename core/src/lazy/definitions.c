#define _GNU_SOURCE 1 /* memmem */
/*
 * Invariant (j) of the lazy merge, a definition goes with its uses (docs/lazy.md, "The
 * invariants"; measured in docs/lazy-passes.md, issue 30, twelfth pass), checked on every result
 * R. Whole-file answers leave code out with no marker, and the merge takes what a snippet leaves
 * out between two of its adjacent lines for removed (the convention deletion prompts need). When
 * what went is a definition the result still uses (`interface Message` left out while the
 * snippet's own `history.forEach((msg: Message) => ...)` names it), the snippet did not mean a
 * removal: it only did not show the definition, and the merge leaves a file that no longer
 * compiles, reported as success. So R is declined when the file defines a name at the top level
 * (a line at column 0 that ec_lz_definition reads: a function, a type, a constant or variable; not
 * an import, which invariant (h) reads), R defines it nowhere (at any depth: a definition moved
 * into a function still binds it), and a line of R still names it in its code (a whole word, not
 * after a `.`, in the code before a comment: ec_lz_code_names, shared with invariant (h)).
 *
 * Methods too: a definition right inside a class body that R defines nowhere while R still calls
 * it on the object's own receiver (`self.name`, `this.name`).
 *
 * And a block's locals: a name a line inside a function binds (a definition ec_lz_definition reads,
 * or a destructuring written on one line: `const { user, isUserLoading } = useUser()`) that R
 * binds nowhere, that no line of the snippet names (a new parameter or binding of its own, or a
 * use it wrote knowing what it dropped), while a file line a marker keeps inside that same block
 * still names it: the guard `if (isUserLoading || user)` that a marker kept, where the snippet's
 * rewrite of the function above it dropped the hook.
 *
 * Near misses: a function removed together with every call of it; a definition renamed where
 * every use was renamed too; a definition moved (the snippet writes it elsewhere).
 * Bounded: at most 64 names read back against R, 64 methods and 64 locals.
 */
#include "lazy.h"
#include "../base/str.h"
#include <string.h>

/* Whether a line starts an import statement (invariant h's business). */
static bool import_start(ec_str t) {
  return (t.len > 7 && !memcmp(t.ptr, "import", 6) && !ec_lz_name_char((unsigned char)t.ptr[6])) ||
         (t.len > 5 && !memcmp(t.ptr, "from", 4) && t.ptr[4] == ' ');
}

/* The names a destructuring closed on line l binds: `const { a, b: c, ...d } = f()`,
 * `let [x, setX] = useState()`: every name between the brackets (not after a single `.`)
 * followed by `,`, `=` or a closing bracket (so `c`, not the key `b`), at most 8; then `=` or a
 * type's `:`. 0 for any other line (a single name bound is ec_lz_definition's). */
static size_t destructured(ec_str l, ec_str *out) {
  ec_str t = ec_lz_trim(l);
  size_t k = 0, n = 0;
  while (k < t.len && k < 6 && t.ptr[k] != ' ') k++;
  if (k + 2 >= t.len || !(k == 5 ? !memcmp(t.ptr, "const", 5) : k == 3 && (!memcmp(t.ptr, "let", 3) || !memcmp(t.ptr, "var", 3))) ||
      (t.ptr[++k] != '{' && t.ptr[k] != '['))
    return 0;
  for (int depth = 0; k < t.len; k++) {
    char c = t.ptr[k];
    if (c == '{' || c == '[') depth++;
    else if ((c == '}' || c == ']') && !--depth) break;
    else if (ec_lz_name_char((unsigned char)c) && !ec_lz_name_char((unsigned char)t.ptr[k - 1]) && (t.ptr[k - 1] != '.' || t.ptr[k - 2] == '.') &&
             (c < '0' || c > '9')) {
      size_t b = k;
      while (k + 1 < t.len && ec_lz_name_char((unsigned char)t.ptr[k + 1])) k++;
      size_t q = k + 1;
      while (q < t.len && t.ptr[q] == ' ') q++;
      if (n < 8 && q < t.len && (t.ptr[q] == ',' || t.ptr[q] == '=' || t.ptr[q] == '}' || t.ptr[q] == ']')) out[n++] = ec_str_make(t.ptr + b, k + 1 - b);
    }
  }
  while (++k < t.len && t.ptr[k] == ' ') {}
  return k < t.len && (t.ptr[k] == '=' || t.ptr[k] == ':') ? n : 0;
}

/* Whether R defines `name` on some line, at any depth. */
static bool r_defines(ec_lz_job *job, const ec_lz_rview *v, ec_str name) {
  for (size_t r = 0; r < v->nr; r++) {
    ec_str l = v->r[r].line, n;
    uint64_t key;
    job->work += 1 + l.len / 16;
    if (v->r[r].blank || l.len < name.len || !memmem(l.ptr, l.len, name.ptr, name.len)) continue;
    if (ec_lz_definition(job, l, v->rup[r] != LZ_NIL && ec_lz_class_opener(v->r[v->rup[r]].line), &n, &key) && ec_str_eq(n, name)) return true;
    ec_str b[8];
    for (size_t k = destructured(l, b); k--;)
      if (ec_str_eq(b[k], name)) return true;
  }
  return false;
}

/* Whether line l calls a method of its own object by name: `self.name` or `this.name`, a whole
 * word, in the code before a comment. */
static bool calls_own_method(ec_str l, ec_str name, uint64_t *work) {
  char w[5 + 64];
  if (name.len > 64) return false;
  for (int k = 0; k < 2; k++) {
    memcpy(w, k ? "this." : "self.", 5);
    memcpy(w + 5, name.ptr, name.len);
    if (ec_lz_code_names(l, ec_str_make(w, 5 + name.len), work)) return true;
  }
  return false;
}

static ec_error_code decline(ec_lz_job *job, size_t i) {
  return ec_lz_fail_check(job, EC_NO_MATCH, EC_LZ_WHOLE, (uint32_t)i + 1, (uint32_t)i + 1,
                          "a definition the result still uses would be removed (invariant j): show it, or put a marker where it stands",
                          job->F.line[i]);
}

/* The locals file line i binds inside the block file line o opens (i not in R): declined when
 * one of them R binds nowhere and no snippet line names, while a file line a gap of R keeps
 * inside that block still names it. */
static ec_error_code check_locals(ec_lz_job *job, const ec_lz_rview *v, size_t i, size_t o, unsigned *asked) {
  ec_str names[8];
  uint64_t key;
  size_t k = destructured(job->F.line[i], names);
  if (!k && ec_lz_definition(job, job->F.line[i], false, names, &key)) k = 1;
  if (!k) return EC_OK; /* most dropped lines bind nothing: no block end to find */
  size_t last = ec_lz_block_last(job, o);
  while (k-- && *asked < 64) {
    ec_str name = names[k];
    if (name.len < 2) continue;
    ++*asked;
    if (r_defines(job, v, name)) continue;
    bool kept_use = false, snippet_names = false;
    for (size_t r = 0; r < v->nr && !snippet_names; r++) {
      ec_str rl = v->r[r].line;
      uint32_t f = v->rfile[r];
      if (v->r[r].blank || ec_lz_comment_only(rl) || ec_lz_comment_line(rl) || !ec_lz_code_names(rl, name, &job->work)) continue;
      if (v->rblk[r] != EC_LZ_NONE) snippet_names = true;
      else if (f != EC_LZ_NONE && f > o && f <= last) kept_use = true;
    }
    if (kept_use && !snippet_names) return decline(job, i);
  }
  return EC_OK;
}

ec_error_code ec_lz_check_definitions(ec_lz_job *job, const ec_lz_rview *v) {
  const ec_lz_side *F = &job->F;
  if (job->diff_style) return EC_OK;
  /* The file lines R keeps (a gap's, or a block line aligned with one). */
  bool *in_r = ec_arena_calloc(job->a, F->n + 1, 1);
  if (!in_r) return ec_fail_oom(job->ctx);
  for (size_t r = 0; r < v->nr; r++)
    if (v->rfile[r] != EC_LZ_NONE && v->rfile[r] < F->n) in_r[v->rfile[r]] = true;
  job->work += v->nr;
  /* Names asked about: top-level definitions [0], methods [1], locals [2], 64 each (none must
   * use up the bound the top-level check had alone). */
  unsigned asked[3] = {0, 0, 0};
  for (size_t i = 0; i < F->n && (asked[0] < 64 || asked[1] < 64 || asked[2] < 64); i++) {
    ec_str l = F->line[i], name;
    uint64_t key;
    job->work++;
    /* Kept lines first: most of the file, and nothing to ask about them. */
    if (in_r[i] || (F->flags[i] & (LZ_BLANK | LZ_MARKER)) || import_start(l)) continue;
    /* A method (a definition right inside a class body) goes with its calls on the object's own
     * receiver: `self._collect_trades_history()` kept beside the new call of the method that the
     * snippet renamed it to. */
    bool method = false;
    if (F->indent[i]) {
      uint32_t o = ec_lz_enclosing(job, true, i, false);
      if (o == LZ_NIL) continue;
      if (!ec_lz_class_opener(F->line[o])) {
        ec_error_code rc = check_locals(job, v, i, o, &asked[2]);
        if (rc) return rc;
        continue;
      }
      if (!ec_lz_definition(job, l, true, &name, &key) || name.len < 2 || memchr(name.ptr, '.', name.len)) continue;
      method = true;
    } else if (!ec_lz_definition(job, l, false, &name, &key) || name.len < 2 || memchr(name.ptr, '.', name.len))
      continue;
    if (asked[method]++ >= 64) continue;
    if (r_defines(job, v, name)) continue;
    for (size_t r = 0; r < v->nr; r++) {
      ec_str rl = v->r[r].line;
      if (v->r[r].blank || ec_lz_comment_only(rl) || ec_lz_comment_line(rl) ||
          !(method ? calls_own_method(rl, name, &job->work) : ec_lz_code_names(rl, name, &job->work)))
        continue;
      return decline(job, i);
    }
  }
  return EC_OK;
}
