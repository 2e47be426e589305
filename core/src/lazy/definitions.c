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
 * Near misses: a function removed together with every call of it; a definition renamed where
 * every use was renamed too; a definition moved (the snippet writes it elsewhere).
 * Bounded: at most 64 names read back against R, and 64 methods.
 */
#include "lazy.h"
#include "../base/str.h"
#include <string.h>

/* Whether a line starts an import statement (invariant h's business). */
static bool import_start(ec_str t) {
  return (t.len > 7 && !memcmp(t.ptr, "import", 6) && !ec_lz_name_char((unsigned char)t.ptr[6])) ||
         (t.len > 5 && !memcmp(t.ptr, "from", 4) && t.ptr[4] == ' ');
}

/* Whether R defines `name` on some line, at any depth. */
static bool r_defines(ec_lz_job *job, const ec_lz_rview *v, ec_str name) {
  for (size_t r = 0; r < v->nr; r++) {
    ec_str l = v->r[r].line, n;
    uint64_t key;
    job->work += 1 + l.len / 16;
    if (v->r[r].blank || l.len < name.len || !memmem(l.ptr, l.len, name.ptr, name.len)) continue;
    if (ec_lz_definition(job, l, v->rup[r] != LZ_NIL && ec_lz_class_opener(v->r[v->rup[r]].line), &n, &key) && ec_str_eq(n, name)) return true;
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

ec_error_code ec_lz_check_definitions(ec_lz_job *job, const ec_lz_rview *v) {
  const ec_lz_side *F = &job->F;
  if (job->diff_style) return EC_OK;
  /* The file lines R keeps (a gap's, or a block line aligned with one). */
  bool *in_r = ec_arena_calloc(job->a, F->n + 1, 1);
  if (!in_r) return ec_fail_oom(job->ctx);
  for (size_t r = 0; r < v->nr; r++)
    if (v->rfile[r] != EC_LZ_NONE && v->rfile[r] < F->n) in_r[v->rfile[r]] = true;
  job->work += v->nr;
  /* Names asked about: top-level definitions [0], methods [1], 64 each (methods must not use
   * up the bound the top-level check had alone). */
  unsigned asked[2] = {0, 0};
  for (size_t i = 0; i < F->n && (asked[0] < 64 || asked[1] < 64); i++) {
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
      if (!ec_lz_definition(job, l, true, &name, &key) || name.len < 2 || memchr(name.ptr, '.', name.len)) continue;
      uint32_t o = ec_lz_enclosing(job, true, i, false);
      if (o == LZ_NIL || !ec_lz_class_opener(F->line[o])) continue;
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
      return ec_lz_fail_check(job, EC_NO_MATCH, EC_LZ_WHOLE, (uint32_t)i + 1, (uint32_t)i + 1,
                              "a definition the result still uses would be removed (invariant j): show it, or put a marker "
                              "where it stands",
                              l);
    }
  }
  return EC_OK;
}
