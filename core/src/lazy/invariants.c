#define _GNU_SOURCE 1 /* memmem */
/*
 * The invariants of the lazy merge, checked on every result R before it is reported (docs/lazy.md
 * tells the whole design; ACCURACY.md, "Lazy invariants", what each one costs and catches). The
 * placement rules (anchor.c, merge.c) are many and each was written for shapes seen; these four
 * are stated for every snippet, whatever placed its lines, so that a shape no rule foresaw ends in
 * a decline rather than in a wrong success:
 *
 *  (a) Adjacent lines stay adjacent. Between two consecutive lines of a segment no line of the
 *      file survives in R. Blank lines are lines too where they end new code: new lines, a blank
 *      line, then a marker say the new code ends at that blank line, so the file's lines that
 *      follow must start after it. When R keeps a file line right after such new lines (the
 *      snippet's blank line dropped as spacing: `clear(color)` kept after the drawing code put in
 *      its place), the snippet did not say whether that line goes or stays: declined. Where the
 *      last line before the blank is a line the file has (kept or edited in place) the blank line
 *      is only spacing: the file's own next line follows it anyway; so it is where the file's next
 *      line closes a block or sits shallower than the new lines (it ends the block they are in,
 *      they cannot stand for it), and where the new lines extend a list of the anchor line's kind
 *      (`use`, `import`, `#include` lines): they end that list.
 *  (b) One definition per name and scope. No name is defined twice in one scope of R (the same
 *      kind of definition: a function, a type, a constant or variable, a macro, an import), where the file
 *      defined it at most once there, unless the snippet itself writes it twice. A definition the
 *      snippet rewrites while the merge keeps the old one (a `const` table made an array under the
 *      same name) is declined. Languages with overloading (C++, Java, C#, Kotlin, Swift, Dart, Scala)
 *      compare parameter lists too; Python property setters and `@overload` stubs are left out.
 *      In JavaScript, TypeScript and Python an object's keys count too (`image:` twice in one
 *      object literal, `'port':` twice in one dict: key_of), and for them the snippet's own two
 *      writings count only under the same opener (a form's schema and its default values both
 *      have `image:`).
 *  (c) A new block has one place. A segment that is new code — its first line and every line at
 *      its outer level absent from the file (closing lines aside), its brackets balanced — between
 *      two markers is placed by the nearest anchored lines before and after it: R must hold it
 *      right after the segment before it or right before the one after it (a marker standing for
 *      nothing). A new block with file lines kept on both sides has no unique place: a line of its
 *      body that happens to match the file (`}`, a copied statement) placed it. Declined.
 *  (d) What parsed still parses. When the file parses and R does not, the merge is declined. Two
 *      halves: after the splice, the syntax layer's tree-sitter parse of the whole file
 *      (lazy_syntax_guard in formats/lazy_format.c: it needs the workspace's syntax report, a floor
 *      above this one); here, over lines, Python's indentation as Python's tokenizer reads it (the
 *      hook parser_for below), where no tree-sitter grammar reads the file (job->parse_lines: the
 *      format sets it; ec_lz_check_merge always) and options.syntax is not "off".
 * (e) is in notes.c; (f) and (g), what a snippet leaves out, in left_out.c; (h), an import goes
 * with its uses, in imports.c: verify.c calls (f), (g), then (e), then (h) after these.
 * Every check is linear in R and the file (a sort of R's definitions aside) with bounded work.
 */
#include "lazy.h"
#include "../base/hash.h"
#include "../base/str.h"
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- the file's language */

/* The file name's extension (after the last dot of its last component), lower case compared. */
static ec_str ext_of(ec_str path) {
  size_t b = path.len;
  while (b && path.ptr[b - 1] != '/' && path.ptr[b - 1] != '\\') b--;
  size_t d = path.len;
  while (d > b && path.ptr[d - 1] != '.') d--;
  return d > b ? ec_str_make(path.ptr + d, path.len - d) : ec_str_make("", 0);
}

static bool ext_is(ec_str ext, const char *const *list) {
  for (size_t i = 0; list[i]; i++) {
    size_t n = strlen(list[i]);
    if (n != ext.len) continue;
    size_t k = 0;
    while (k < n && (ext.ptr[k] | 32) == list[i][k]) k++;
    if (k == n) return true;
  }
  return false;
}

typedef struct lang_t {
  bool python;    /* indentation is syntax */
  bool overloads; /* one name may have several definitions with other parameter lists */
  bool rust;      /* `let` shadows: no definition */
  bool keys;      /* `name: value` lines are an object's (or an interface's) keys: JavaScript, TypeScript, Python */
} lang_t;

static lang_t lang_of(ec_str path) {
  static const char *const PY[] = {"py", "pyi", "pyw", NULL};
  static const char *const OVER[] = {"cc", "cpp", "cxx", "c++", "hh", "hpp", "hxx", "h", "ipp", "java", "cs", "kt", "kts", "swift",
                                     "dart", "scala", "sc", "m", "mm", NULL};
  static const char *const RS[] = {"rs", NULL};
  static const char *const KEYS[] = {"js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts", "py", "pyi", NULL};
  ec_str e = ext_of(path);
  return (lang_t){ext_is(e, PY), ext_is(e, OVER), ext_is(e, RS), ext_is(e, KEYS)};
}

bool ec_lz_offside(ec_str path) { return lang_of(path).python; }

/* ---------------------------------------------------------------- (a) adjacent lines */

/* Whether R line r is a line of a gap (a file line a marker keeps), not blank. */
static bool gap_text(const ec_lz_rview *v, size_t r) { return r < v->nr && !v->r[r].blank && v->rblk[r] == EC_LZ_NONE; }

/* The first word of a line (letters, digits, `_`, `#`, `@`): `use`, `import`, `#include`. */
static ec_str first_word(ec_str line) {
  ec_str t = ec_lz_trim(line);
  size_t k = 0;
  while (k < t.len && (ec_lz_name_char((unsigned char)t.ptr[k]) || t.ptr[k] == '#' || t.ptr[k] == '@')) k++;
  return ec_str_make(t.ptr, k);
}

/* (a) at segment s's bottom edge: its last block line, blank lines, then a marker. */
static ec_error_code bottom_adjacent(ec_lz_job *job, const ec_lz_rview *v, size_t s) {
  const ec_lz_seg *sg = &job->seg[s];
  const ec_lz_side *S = &job->S, *F = &job->F;
  if (!sg->marker_after || v->rb[s] == SIZE_MAX) return EC_OK;
  uint32_t jl = v->nl[v->nl0[s + 1] - 1];
  if (jl + 1 >= sg->j1) return EC_OK; /* no blank line before the marker */
  for (uint32_t j = jl + 1; j < sg->j1; j++)
    if (!(S->flags[j] & LZ_BLANK)) return EC_OK; /* a diff-style `-` line: the diff says what goes */
  size_t r = v->re[s] + 1;
  if (!gap_text(v, r) || v->rfile[r] == EC_LZ_NONE) return EC_OK;
  /* The file line before the one kept: if R holds it in this block, the block's last lines were
   * inserted after it (new code); if not, they replaced it (edited in place) and the blank line
   * is spacing. */
  size_t f = v->rfile[r], p = f;
  while (p > 0 && (F->flags[p - 1] & LZ_BLANK)) p--;
  if (!p) return EC_OK;
  p--;
  size_t at = SIZE_MAX; /* R line of file line p in the block */
  for (size_t q = v->re[s] + 1; q-- > v->rb[s];) {
    job->work++;
    if (v->rfile[q] == p) { at = q; break; }
  }
  if (at == SIZE_MAX || at == v->re[s]) return EC_OK;
  /* A kept line that closes a block, or sits shallower than the new lines' last one, ends the
   * block they are in: they cannot stand for it, and the blank line is spacing before it. */
  size_t last = v->re[s];
  while (last > at && v->r[last].blank) last--;
  if (ec_lz_is_closing(v->r[r].line) || ec_lz_cols(v->r[r].line, job->fi.tab) < ec_lz_cols(v->r[last].line, job->fi.tab)) return EC_OK;
  /* New lines that extend a list of the kept line's kind end it: the blank line is spacing. */
  ec_str kind = first_word(v->r[at].line);
  bool list = kind.len >= 2;
  for (size_t q = at + 1; q <= v->re[s] && list; q++)
    if (!v->r[q].blank) list = ec_str_eq(first_word(v->r[q].line), kind);
  if (list) return EC_OK;
  size_t e = f;
  while (e + 1 < F->n && !(F->flags[e + 1] & LZ_BLANK)) e++;
  return ec_lz_fail_check(job, EC_AMBIGUOUS, s, (uint32_t)f + 1, (uint32_t)e + 1,
                          "its new lines end with a blank line before a marker, but the file's line right after their place is kept "
                          "between them and that blank line: do the new lines replace the file's lines up to its next blank line, or go "
                          "above them? (invariant a: between two consecutive snippet lines no line of the file survives)",
                          F->line[f]);
}

/* (a) at segment s's top edge: a marker, blank lines, then its first block line (written new). */
static ec_error_code top_adjacent(ec_lz_job *job, const ec_lz_rview *v, size_t s) {
  const ec_lz_seg *sg = &job->seg[s];
  const ec_lz_side *S = &job->S;
  if (!sg->marker_before || v->rb[s] == SIZE_MAX || !v->rb[s]) return EC_OK;
  uint32_t jf = v->nl[v->nl0[s]];
  if (jf == sg->j0) return EC_OK;
  for (uint32_t j = sg->j0; j < jf; j++)
    if (!(S->flags[j] & LZ_BLANK)) return EC_OK;
  size_t r = v->rb[s] - 1;
  if (!gap_text(v, r) || v->rfile[r] == EC_LZ_NONE || v->rfile[v->rb[s]] != EC_LZ_NONE) return EC_OK; /* the first line is a file line: spacing */
  /* The file line after the one kept: if R holds it in this block, the block's first lines were
   * inserted above it (new code); if not, they replaced it (edited in place): spacing. */
  const ec_lz_side *F = &job->F;
  size_t nx = v->rfile[r] + 1;
  while (nx < F->n && (F->flags[nx] & LZ_BLANK)) nx++;
  bool held = false;
  for (size_t q = v->rb[s]; q <= v->re[s] && !held; q++) {
    job->work++;
    held = v->rfile[q] == nx;
  }
  if (!held) return EC_OK;
  return ec_lz_fail_check(job, EC_AMBIGUOUS, s, v->rfile[r] + 1, v->rfile[r] + 1,
                          "a blank line stands between a marker and its new first lines, but the merge keeps a file line between that "
                          "blank line and them (invariant a: between two consecutive snippet lines no line of the file survives)",
                          v->r[r].line);
}

/* ---------------------------------------------------------------- (b) one definition per name */

static bool word_at(ec_str t, size_t *k, const char *w) {
  size_t n = strlen(w);
  if (*k + n > t.len || memcmp(t.ptr + *k, w, n)) return false;
  if (*k + n < t.len && ec_lz_name_char((unsigned char)t.ptr[*k + n])) return false;
  *k += n;
  while (*k < t.len && (t.ptr[*k] == ' ' || t.ptr[*k] == '\t')) (*k)++;
  return true;
}

/* A name at t[*k]: letters, digits, `_`, `$`, dots between parts (`M.run` in Lua, `self.x` in Ruby). */
static ec_str name_at(ec_str t, size_t *k) {
  size_t b = *k, e = b;
  if (e < t.len && t.ptr[e] >= '0' && t.ptr[e] <= '9') return ec_str_make(NULL, 0);
  while (e < t.len && (ec_lz_name_char((unsigned char)t.ptr[e]) || (t.ptr[e] == '.' && e > b && e + 1 < t.len && ec_lz_name_char((unsigned char)t.ptr[e + 1]))))
    e++;
  *k = e;
  return e > b ? ec_str_make(t.ptr + b, e - b) : ec_str_make(NULL, 0);
}

/* Whether a line opens a block: more brackets opened than closed, or a trailing `{` or `:`. */
static bool opens(ec_str t) {
  if (!t.len) return false;
  char c = t.ptr[t.len - 1];
  return c == '{' || c == ':' || ec_lz_bracket_net(t) > 0;
}

/* The definition a line makes, as (kind, qualifier, name[, parameters]) hashed into *key, its name
 * in *name; false when the line defines nothing this check knows. Kinds: f function, t type,
 * v constant or variable, m macro, i import. Control statements, calls, assignments and forward
 * declarations define nothing here. */
static bool def_of(ec_str line, const lang_t *lang, bool in_class, ec_str *name, uint64_t *key) {
  ec_str t = ec_lz_trim(line);
  if (t.len < 3) return false;
  size_t k = 0;
  char kind = 0;
  ec_str qual = ec_str_make("", 0);
  if (word_at(t, &k, "#define")) kind = 'm';
  else if (word_at(t, &k, "macro_rules!")) kind = 'm';
  /* An import binds its module's name, or its default export's (`import os`, `import Image from
   * "next/image"`): kind i. */
  else if (word_at(t, &k, "import")) kind = 'i';
  else {
    /* Modifiers that change no name. */
    static const char *const MOD[] = {"pub(crate)", "pub(super)", "pub(self)", "pub", "export", "default", "async", "public", "private",
                                      "protected", "internal", "final", "abstract", "override", "virtual", "inline", "unsafe",
                                      "open", "sealed", "data", "suspend", "local", "extern", NULL};
    for (bool more = true; more;) {
      more = false;
      for (size_t i = 0; MOD[i] && !more; i++) more = word_at(t, &k, MOD[i]);
      if (!more && lang->rust && k + 6 < t.len && !memcmp(t.ptr + k, "const fn", 8)) more = word_at(t, &k, "const");
    }
    static const char *const FN[] = {"def", "function*", "function", "fn", "fun", "sub", "proc", NULL};
    static const char *const TY[] = {"class", "struct", "enum", "trait", "interface", "union", "record", "object", NULL};
    static const char *const VAL[] = {"const", "static", "val", NULL};
    for (size_t i = 0; FN[i] && !kind; i++)
      if (word_at(t, &k, FN[i])) kind = 'f';
    if (!kind && word_at(t, &k, "func")) {
      kind = 'f';
      /* Go's receiver qualifies the name: `func (s *Server) Start()` and `func (c *Client) Start()`. */
      if (k < t.len && t.ptr[k] == '(') {
        size_t b = k;
        while (k < t.len && t.ptr[k] != ')') k++;
        if (k >= t.len) return false;
        k++;
        qual = ec_str_make(t.ptr + b, k - b);
        while (k < t.len && t.ptr[k] == ' ') k++;
      }
    }
    for (size_t i = 0; TY[i] && !kind; i++)
      if (word_at(t, &k, TY[i])) kind = 't';
    if (!kind && lang->rust && word_at(t, &k, "type")) kind = 't';
    for (size_t i = 0; VAL[i] && !kind; i++)
      if (word_at(t, &k, VAL[i])) kind = 'v';
    if (!kind && !lang->rust && !lang->python && (word_at(t, &k, "let") || word_at(t, &k, "var"))) kind = 'v';
    if (kind == 'f' && k < t.len && t.ptr[k] == '*') k++;
  }
  size_t nb = k;
  ec_str n = name_at(t, &k);
  if (!n.len) return false;
  if (kind == 'v') {
    /* `const NAME =`, `const NAME: T`, `static NAME: T`: a name, then its type or value. `const`
     * before a type (`const char *p = ...`) is C's qualifier, not this: the next word is no name
     * followed by `=` or `:`. */
    size_t q = k;
    while (q < t.len && t.ptr[q] == ' ') q++;
    if (lang->rust && ec_str_eq_cstr(n, "mut")) {
      while (k < t.len && t.ptr[k] == ' ') k++;
      n = name_at(t, &k);
      q = k;
      while (q < t.len && t.ptr[q] == ' ') q++;
    }
    if (!n.len || q >= t.len || (t.ptr[q] != '=' && t.ptr[q] != ':')) return false;
    if (q + 1 < t.len && t.ptr[q] == '=' && t.ptr[q + 1] == '=') return false;
  } else if (kind == 't') {
    /* A type defined here, not declared (`struct X;` in C, a reopened Ruby class has no `{` or `:`). */
    if (!opens(t) && !(lang->rust && (t.ptr[t.len - 1] == ';'))) return false;
  } else if (kind == 'f') {
    /* A keyword function defines when its line opens the block, or ends with its parameter list:
     * languages whose blocks end in `end` (Lua's `local function trim(s)`, Ruby's `def f(x)`) and
     * a brace on the next line. A signature ending in `;` (a TypeScript overload, a Rust trait
     * method) declares, it does not define. */
    char last = t.ptr[t.len - 1];
    if (!opens(t) && !(lang->python && last == ':') && !(last == ')' && !lang->python)) return false;
  } else if (kind == 0 && in_class && n.len && k < t.len && (t.ptr[k] == '(' || t.ptr[k] == ' ') && t.ptr[t.len - 1] == '{') {
    /* A method written bare in a class body (JavaScript, TypeScript: `f(x) {`, `get size() {`):
     * a name, its parameter list, a return type at most, then the block. `get` and `set`
     * qualify the name (a getter and a setter share it by design). */
    if (ec_str_eq_cstr(n, "get") || ec_str_eq_cstr(n, "set") || ec_str_eq_cstr(n, "static")) {
      qual = n;
      while (k < t.len && t.ptr[k] == ' ') k++;
      n = name_at(t, &k);
      if (!n.len) return false;
    }
    if (k >= t.len || t.ptr[k] != '(') return false;
    static const char *const CTRL[] = {"if", "for", "while", "switch", "catch", "return", "with", "function", NULL};
    for (size_t i = 0; CTRL[i]; i++)
      if (ec_str_eq_cstr(n, CTRL[i])) return false;
    int depth = 0;
    size_t c = k;
    for (; c < t.len; c++) {
      if (t.ptr[c] == '(') depth++;
      else if (t.ptr[c] == ')' && --depth == 0) break;
    }
    if (c >= t.len || memchr(t.ptr + c, '(', t.len - c) || memmem(t.ptr + c, t.len - c, "=>", 2)) return false;
    kind = 'f';
  } else if (kind == 0) {
    /* C-like: `Type name(params) ... {` — a name before a parenthesised list, a type word before
     * it, no `=` before it, the line opening a block. */
    if (!opens(t) || t.ptr[t.len - 1] == ':') return false;
    const char *open = memchr(t.ptr, '(', t.len);
    if (!open || memchr(t.ptr, '=', (size_t)(open - t.ptr))) return false;
    size_t e = (size_t)(open - t.ptr);
    while (e && t.ptr[e - 1] == ' ') e--;
    size_t b = e;
    while (b && (ec_lz_name_char((unsigned char)t.ptr[b - 1]) || t.ptr[b - 1] == ':' || t.ptr[b - 1] == '~')) b--;
    if (b == e || !b) return false; /* no name, or nothing before it (a call: `foo(x) {`) */
    n = ec_str_make(t.ptr + b, e - b);
    char before = t.ptr[b - 1];
    if (before != ' ' && before != '*' && before != '&' && before != '>') return false;
    static const char *const CTRL[] = {"if", "for", "while", "switch", "catch", "return", "else", "do", "sizeof", "new", "delete",
                                       "throw", "case", "elif", "foreach", "using", "lock", "synchronized", "with", NULL};
    for (size_t i = 0; CTRL[i]; i++)
      if (ec_str_eq_cstr(n, CTRL[i])) return false;
    /* The word before the name is a type or a modifier, not a keyword that makes this a statement. */
    size_t w = b - 1;
    while (w && t.ptr[w - 1] == ' ') w--;
    size_t wb = w;
    while (wb && ec_lz_name_char((unsigned char)t.ptr[wb - 1])) wb--;
    ec_str prev = ec_str_make(t.ptr + wb, w - wb);
    for (size_t i = 0; CTRL[i]; i++)
      if (ec_str_eq_cstr(prev, CTRL[i])) return false;
    if (ec_str_eq_cstr(prev, "else")) return false;
    kind = 'f';
    nb = b;
    k = e;
  }
  (void)nb;
  uint64_t h = ec_hash_bytes(&kind, 1);
  h ^= ec_hash_bytes(qual.ptr ? qual.ptr : "", qual.len) * 0x9E3779B97F4A7C15ull;
  h ^= ec_hash_bytes(n.ptr, n.len) * 0xC2B2AE3D27D4EB4Full;
  if (lang->overloads && kind == 'f') {
    /* The parameter list, spaces aside, tells overloads apart. */
    const char *open = memchr(t.ptr + k, '(', t.len - k);
    if (open) {
      int depth = 0;
      uint64_t ph = 1469598103934665603ull;
      for (const char *p = open; p < t.ptr + t.len; p++) {
        if (*p == '(') depth++;
        else if (*p == ')' && --depth == 0) break;
        if (*p != ' ' && *p != '\t') ph = (ph ^ (unsigned char)*p) * 1099511628211ull;
      }
      h ^= ph;
    }
  }
  *name = n;
  *key = h ? h : 1;
  return true;
}

/* A key a line writes into the object (or interface, or class body) around it: `name: value,`,
 * `'name': value,`, `name?: type;` at the line's start, hashed as kind k into *key. Not a key: a
 * line ending in `:` (Python's `else:`, a `case x:`), `default:`, a `::` path. Keys count as
 * definitions for (b) alone: two `image:` lines in one object literal are one name written twice
 * (the snippet's new key, the file's old one kept by a marker beside it). */
static bool key_of(ec_str line, const lang_t *lang, ec_str *name, uint64_t *key) {
  if (!lang->keys) return false;
  ec_str t = ec_lz_trim(line);
  if (t.len < 3 || t.ptr[t.len - 1] == ':') return false;
  size_t k = 0;
  ec_str n;
  if (t.ptr[0] == '\'' || t.ptr[0] == '"') {
    size_t e = 1;
    while (e < t.len && t.ptr[e] != t.ptr[0] && t.ptr[e] != '\\') e++;
    if (e >= t.len || t.ptr[e] != t.ptr[0] || e == 1) return false;
    n = ec_str_make(t.ptr + 1, e - 1);
    k = e + 1;
  } else {
    if (lang->python) return false; /* a Python dict's keys are quoted; `x: int` is an annotation */
    n = name_at(t, &k);
    if (!n.len || memchr(n.ptr, '.', n.len) || ec_str_eq_cstr(n, "default") || ec_str_eq_cstr(n, "case")) return false;
    if (k < t.len && t.ptr[k] == '?') k++;
  }
  if (k >= t.len || t.ptr[k] != ':' || (k + 1 < t.len && t.ptr[k + 1] == ':')) return false;
  uint64_t h = ec_hash_bytes("k", 1) ^ ec_hash_bytes(n.ptr, n.len) * 0xC2B2AE3D27D4EB4Full;
  *name = n;
  *key = h ? h : 1;
  return true;
}

/* def_of, or a key (key_of): what (b) compares. */
static bool def_or_key(ec_str line, const lang_t *lang, bool in_class, ec_str *name, uint64_t *key) {
  return def_of(line, lang, in_class, name, key) || key_of(line, lang, name, key);
}

typedef struct defn_t {
  uint64_t key;
  uint32_t scope; /* the R line enclosing it, EC_LZ_NONE at the top */
  uint32_t r;
} defn_t;

static int cmp_defn(const void *a, const void *b) {
  const defn_t *x = a, *y = b;
  if (x->scope != y->scope) return x->scope < y->scope ? -1 : 1;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  return x->r < y->r ? -1 : x->r > y->r;
}

/* Python: a definition that shares its name by design (a property's setter, an `@overload` stub,
 * a `singledispatch` registration) has a decorator saying so right above it. */
static bool shares_by_design(const ec_lz_rview *v, size_t i, ec_str name) {
  for (size_t k = i; k-- > 0;) {
    if (v->r[k].blank) continue;
    ec_str t = ec_lz_trim(v->r[k].line);
    if (!t.len || t.ptr[0] != '@') return false;
    if (memmem(t.ptr, t.len, "overload", 8) || memmem(t.ptr, t.len, "register", 8) || memmem(t.ptr, t.len, name.ptr, name.len)) return true;
  }
  return false;
}

/* How many definitions with this key the file has directly in the block file line `scope` opens
 * (EC_LZ_NONE: at the top level), the lines naming `name` only. */
static size_t file_defs(ec_lz_job *job, const lang_t *lang, uint64_t key, ec_str name, uint32_t scope) {
  const ec_lz_side *F = &job->F;
  size_t n = 0;
  for (size_t i = 0; i < F->n; i++) {
    ec_str l = F->line[i];
    job->work += 1 + l.len / 16;
    if (l.len < name.len || !memmem(l.ptr, l.len, name.ptr, name.len)) continue;
    ec_str dn;
    uint64_t dk;
    uint32_t e = ec_lz_enclosing(job, true, i, false);
    if (!def_or_key(l, lang, e != LZ_NIL && ec_lz_class_opener(F->line[e]), &dn, &dk) || dk != key) continue;
    if ((e == LZ_NIL ? EC_LZ_NONE : e) == scope) n++;
  }
  return n;
}

/* Whether R line r sits directly in a class-like body (up: R's enclosing lines). */
static bool in_class(const ec_lz_rview *v, const uint32_t *up, size_t r) { return up[r] != LZ_NIL && ec_lz_class_opener(v->r[up[r]].line); }

/* Whether snippet line j sits directly in a class-like body the snippet shows. */
static bool snippet_in_class(ec_lz_job *job, size_t j) {
  uint32_t e = ec_lz_enclosing(job, false, j, false);
  return e != LZ_NIL && ec_lz_class_opener(job->S.line[e]);
}

static ec_error_code defined_once(ec_lz_job *job, const ec_lz_rview *v, const lang_t *lang) {
  const ec_lz_side *S = &job->S;
  /* Definitions the merge wrote, first: without one, R's definitions are the file's. */
  bool any = false;
  for (size_t r = 0; r < v->nr && !any; r++) {
    ec_str n;
    uint64_t key;
    any = v->rblk[r] != EC_LZ_NONE && v->rfile[r] == EC_LZ_NONE && def_or_key(v->r[r].line, lang, true, &n, &key);
  }
  if (!any) return EC_OK;
  const uint32_t *up = v->rup;
  defn_t *d = ec_arena_alloc(job->a, (v->nr + 1) * sizeof *d);
  if (!d) return ec_fail_oom(job->ctx);
  size_t nd = 0;
  for (size_t r = 0; r < v->nr; r++) {
    ec_str n;
    uint64_t key;
    if (v->r[r].blank || !def_or_key(v->r[r].line, lang, in_class(v, up, r), &n, &key)) continue;
    if (lang->python && shares_by_design(v, r, n)) continue;
    d[nd++] = (defn_t){key, up[r] == LZ_NIL ? EC_LZ_NONE : up[r], (uint32_t)r};
  }
  job->work += v->nr;
  qsort(d, nd, sizeof *d, cmp_defn);
  size_t asked = 0;
  for (size_t a = 0; a + 1 < nd && asked < 8; a++) {
    if (d[a].scope != d[a + 1].scope || d[a].key != d[a + 1].key) continue;
    size_t b = a + 1;
    while (b + 1 < nd && d[b + 1].scope == d[a].scope && d[b + 1].key == d[a].key) b++;
    /* One of them written by the merge (a pair the file has itself is the file's business). */
    bool written = false;
    for (size_t q = a; q <= b; q++) written = written || v->rfile[d[q].r] == EC_LZ_NONE;
    if (!written) { a = b; continue; }
    asked++;
    ec_str name;
    uint64_t key;
    bool is_key = !def_of(v->r[d[a].r].line, lang, in_class(v, up, d[a].r), &name, &key);
    if (is_key) key_of(v->r[d[a].r].line, lang, &name, &key);
    /* The snippet writes it twice itself: both are meant. A key counts where the snippet writes
     * it under the same opener (`image:` in a schema and in its default values are two objects). */
    uint64_t opener = d[a].scope == EC_LZ_NONE ? 0 : v->r[d[a].scope].key;
    size_t in_snippet = 0;
    for (size_t j = 0; j < S->n && in_snippet < 2; j++) {
      ec_str n2;
      uint64_t k2;
      if (!(S->flags[j] & (LZ_BLANK | LZ_MARKER)) && !(S->op && S->op[j] == '-') && def_or_key(S->line[j], lang, snippet_in_class(job, j), &n2, &k2) && k2 == key) {
        uint32_t e = is_key ? ec_lz_enclosing(job, false, j, false) : LZ_NIL;
        if (!is_key || (e == LZ_NIL ? 0 : S->key[e]) == opener) in_snippet++;
      }
    }
    job->work += S->n;
    if (in_snippet >= 2) { a = b; continue; }
    /* The scope as a file line: a scope the merge wrote new is the snippet's own. */
    uint32_t scope = d[a].scope;
    if (scope != EC_LZ_NONE && v->rfile[scope] == EC_LZ_NONE) { a = b; continue; }
    uint32_t fscope = scope == EC_LZ_NONE ? EC_LZ_NONE : v->rfile[scope];
    if (file_defs(job, lang, key, name, fscope) >= 2) { a = b; continue; }
    /* Name the kept one (a file line) and the one written. */
    size_t kept = d[a].r, made = d[b].r;
    for (size_t q = a; q <= b; q++) {
      if (v->rfile[d[q].r] != EC_LZ_NONE) kept = d[q].r;
      else made = d[q].r;
    }
    size_t seg = 0;
    for (size_t s = 0; s < job->nseg_parsed; s++)
      if (v->rb[s] != SIZE_MAX && v->rb[s] <= made) seg = s;
    uint32_t fl = v->rfile[kept] != EC_LZ_NONE ? v->rfile[kept] + 1 : 0;
    return ec_lz_fail_check(job, EC_NO_MATCH, seg, fl, fl,
                            "it writes a definition of a name the file defines once in that scope, and the merge keeps the file's "
                            "definition too: two definitions of one name in one scope (invariant b). Show the old definition's lines "
                            "in the snippet where the new one replaces it",
                            v->r[made].line);
  }
  return EC_OK;
}

/* ---------------------------------------------------------------- a marker in a new block */

static bool holds_text(const ec_lz_rview *v, size_t r0, size_t r1);

/* Whether opener line o of the snippet heads a block the snippet writes new (no line of the file,
 * no marker) whose lines above marker jm show the start of the file's code (a strong line the file
 * has): the marker then stands for the rest of that code, moved into the block. A new block of
 * new lines (Kushal1250/v0-heart's `if (token) {`) is not moved code. */
static bool heads_moved_code(ec_lz_job *job, uint32_t o, uint32_t jm) {
  const ec_lz_side *S = &job->S;
  uint32_t cnt = 0, copied = 0;
  if (o == LZ_NIL || (S->flags[o] & LZ_MARKER)) return false;
  ec_lz_side_first(&job->F, S->key[o], &cnt);
  for (uint32_t j = o + 1; j < jm && !cnt && !copied; j++)
    if (!(S->flags[j] & (LZ_BLANK | LZ_WEAK | LZ_MARKER))) ec_lz_side_first(&job->F, S->key[j], &copied);
  return !cnt && copied;
}

/* A marker inside a block the snippet writes new, after lines of the block the file has elsewhere,
 * stands for the rest of the file's code moved into that block (`export async function f() {`,
 * the file's first lines, `// ... rest of your code ...`, `}` around code the file runs at the
 * top): when the merge makes it stand for no line, that code stays outside the block. No merge by
 * lines can move it: declined. A new block of new lines with a marker for what is still to write
 * (`// Rest of the token logic...`) is not this.
 * The block a marker sits in is read two ways, and either one declines: by the marker's own
 * indentation (the line above it indented less) and, when the next literal line closes a block,
 * as that block (its opener by brackets). Models indent markers as they please (at column 0, a
 * level deeper): a marker written unindented above the new function's `}` is still inside it
 * (the wild set's superPrint-O.ts, its marker at column 0 or 4 deeper, merged wrong). */
static ec_error_code marker_in_new_block(ec_lz_job *job, const ec_lz_rview *v) {
  const ec_lz_side *S = &job->S;
  size_t ns = job->nseg_parsed;
  for (size_t s = 0; s < ns; s++) {
    if (!job->seg[s].marker_after || v->rb[s] == SIZE_MAX) continue;
    size_t next = v->nr;
    for (size_t t = s + 1; t < ns && next == v->nr; t++)
      if (v->rb[t] != SIZE_MAX) next = v->rb[t];
    if (holds_text(v, v->re[s] + 1, next)) continue;
    uint32_t jm = job->seg[s].j1;
    while (jm < S->n && !(S->flags[jm] & LZ_MARKER)) jm++;
    if (jm >= S->n) continue;
    uint32_t o = ec_lz_enclosing(job, false, jm, false), closer = jm + 1;
    while (closer < S->n && (S->flags[closer] & (LZ_BLANK | LZ_MARKER))) closer++;
    uint32_t o2 = closer < S->n && ec_lz_is_closing(S->line[closer]) ? ec_lz_snippet_opener(job, closer) : LZ_NIL;
    uint32_t head = heads_moved_code(job, o, jm) ? o : o2 != o && heads_moved_code(job, o2, jm) ? o2 : LZ_NIL;
    if (head != LZ_NIL) return ec_lz_fail_check(job, EC_NO_MATCH, s, 0, 0, "a marker in its new block stands for nothing", S->line[head]);
  }
  return EC_OK;
}

/* ---------------------------------------------------------------- (c) one place for a new block */

/* Whether segment s is new code: its first line and every line at its outer indentation absent
 * from the file (closing lines aside), its brackets balanced (never below zero, back to zero). */
static bool new_block(ec_lz_job *job, size_t s) {
  const ec_lz_side *S = &job->S, *F = &job->F;
  const ec_lz_seg *sg = &job->seg[s];
  uint32_t outer = UINT32_MAX, first = LZ_NIL;
  for (uint32_t j = sg->j0; j < sg->j1; j++) {
    if (S->flags[j] & (LZ_BLANK | LZ_MARKER) || (S->op && S->op[j] == '-')) continue;
    if (first == LZ_NIL) first = j;
    if (S->indent[j] < outer) outer = S->indent[j];
  }
  if (first == LZ_NIL || S->indent[first] != outer || (S->flags[first] & LZ_WEAK)) return false;
  int64_t depth = 0;
  for (uint32_t j = sg->j0; j < sg->j1; j++) {
    if (S->flags[j] & (LZ_BLANK | LZ_MARKER) || (S->op && S->op[j] == '-')) continue;
    depth += ec_lz_bracket_net(S->line[j]);
    if (depth < 0) return false;
    if (S->indent[j] != outer || (S->flags[j] & LZ_WEAK)) continue;
    uint32_t cnt = 0;
    ec_lz_side_first(F, S->key[j], &cnt);
    if (cnt) return false;
  }
  return depth == 0;
}

/* Whether segment s's block was inserted, replacing nothing: every non-blank file line between
 * the file lines R keeps right before and right after it is in R (inside the block). A block
 * that rewrites lines (a changed signature, an edited line) is placed by what it replaces. */
static bool inserted(ec_lz_job *job, const ec_lz_rview *v, size_t s) {
  const ec_lz_side *F = &job->F;
  size_t fa = SIZE_MAX, fb = F->n, in = 0;
  for (size_t r = v->rb[s]; r-- > 0;)
    if (v->rfile[r] != EC_LZ_NONE) { fa = v->rfile[r]; break; }
  for (size_t r = v->re[s] + 1; r < v->nr; r++)
    if (v->rfile[r] != EC_LZ_NONE) { fb = v->rfile[r]; break; }
  for (size_t r = v->rb[s]; r <= v->re[s]; r++)
    if (v->rfile[r] != EC_LZ_NONE) in++;
  size_t between = 0;
  for (size_t f = fa == SIZE_MAX ? 0 : fa + 1; f < fb && between <= in; f++) {
    job->work++;
    if (!(F->flags[f] & LZ_BLANK)) between++;
  }
  return between == in;
}

/* Whether R lines [r0, r1) hold a non-blank line. */
static bool holds_text(const ec_lz_rview *v, size_t r0, size_t r1) {
  for (size_t r = r0; r < r1; r++)
    if (!v->r[r].blank) return true;
  return false;
}

static ec_error_code one_place(ec_lz_job *job, const ec_lz_rview *v) {
  size_t ns = job->nseg_parsed, prev_end = 0; /* R line after the previous block */
  for (size_t s = 0; s < ns; s++) {
    if (v->rb[s] == SIZE_MAX) continue;
    size_t next = v->nr;
    for (size_t t = s + 1; t < ns; t++)
      if (v->rb[t] != SIZE_MAX) { next = v->rb[t]; break; }
    const ec_lz_seg *sg = &job->seg[s];
    size_t here = prev_end;
    prev_end = v->re[s] + 1;
    if (!sg->marker_before || !sg->marker_after) continue;
    job->work += sg->j1 - sg->j0;
    if (!holds_text(v, here, v->rb[s]) || !holds_text(v, v->re[s] + 1, next) || !inserted(job, v, s) || !new_block(job, s)) continue;
    uint32_t from = LZ_NIL, to = LZ_NIL; /* the file lines the two markers leave open */
    for (size_t r = here; r < next; r++)
      if (v->rfile[r] != EC_LZ_NONE && v->rblk[r] == EC_LZ_NONE) {
        if (from == LZ_NIL) from = v->rfile[r];
        to = v->rfile[r];
      }
    return ec_lz_fail_check(job, EC_AMBIGUOUS, s, from == LZ_NIL ? 0 : from + 1, to == LZ_NIL ? 0 : to + 1,
                            "it is new code between two markers, and the file has lines on both sides of the place the merge found "
                            "for it, so the markers leave its place open (invariant c: a new block is placed by the nearest unchanged "
                            "lines around it, and only where that place is unique). Include the unchanged line right above or below it",
                            job->S.line[v->nl[v->nl0[s]]]);
  }
  return EC_OK;
}

/* ---------------------------------------------------------------- (d) what parsed still parses */

/* Python's tokenizer on indentation: logical lines (brackets, strings, `\` continuations and
 * comments accounted for), a stack of indentation columns; an indented block must follow a line
 * ending in `:`, no line may be indented deeper than its block without one, and a dedent must
 * return to a column on the stack. Returns the first line (0-based) that breaks that, SIZE_MAX
 * when none. Lines are at base + i * stride (an ec_str each). `starts` (n entries, zeroed; may be
 * NULL): set for each line that begins a logical line with code, up to the first that breaks the
 * rules. Linear. */
size_t ec_lz_python_scan(const void *base, size_t stride, size_t n, ec_arena *a, uint8_t *starts) {
#define LINE(i) (*(const ec_str *)((const char *)base + (size_t)(i) * stride))
  uint32_t *stack = ec_arena_alloc(a, (n + 2) * sizeof *stack);
  if (!stack) return SIZE_MAX; /* out of memory: no verdict */
  size_t top = 0;
  stack[top++] = 0;
  int depth = 0;         /* brackets open across lines */
  char quote = 0;        /* a triple-quoted string open across lines: its quote character */
  char squote = 0;       /* a one-quote string continued by a `\` at the line's end: its quote */
  bool cont = false;     /* the previous line ended in `\` */
  bool want_indent = false;
  for (size_t i = 0; i < n; i++) {
    ec_str l = LINE(i);
    size_t p = 0;
    bool logical_start = !quote && !squote && !depth && !cont;
    if (logical_start) {
      uint32_t col = 0;
      while (p < l.len && (l.ptr[p] == ' ' || l.ptr[p] == '\t' || l.ptr[p] == '\f')) {
        col = l.ptr[p] == '\t' ? (col / 8 + 1) * 8 : l.ptr[p] == '\f' ? 0 : col + 1;
        p++;
      }
      bool empty = p >= l.len || l.ptr[p] == '#' || l.ptr[p] == '\r';
      if (!empty) {
        if (want_indent) {
          if (col <= stack[top - 1]) return i; /* expected an indented block */
          stack[top++] = col;
        } else if (col > stack[top - 1]) {
          return i; /* unexpected indent */
        } else {
          while (col < stack[top - 1]) top--;
          if (col != stack[top - 1]) return i; /* unindent does not match any outer level */
        }
        want_indent = false;
        if (starts) starts[i] = 1;
      } else {
        continue;
      }
    }
    cont = false;
    char last = 0; /* the last character outside strings and comments */
    if (squote) { /* the continued string, to its closing quote */
      for (; p < l.len && l.ptr[p] != squote; p++)
        if (l.ptr[p] == '\\') p++;
      if (p >= l.len) continue; /* continued again (or unclosed: no verdict on it) */
      squote = 0;
      p++;
    }
    for (; p < l.len; p++) {
      char c = l.ptr[p];
      if (quote) {
        if (c == '\\') { p++; continue; }
        if (c == quote && p + 2 < l.len && l.ptr[p + 1] == quote && l.ptr[p + 2] == quote) { quote = 0; p += 2; last = c; }
        continue;
      }
      if (c == '#') break;
      if (c == '"' || c == '\'') {
        if (p + 2 < l.len && l.ptr[p + 1] == c && l.ptr[p + 2] == c) {
          quote = c;
          p += 2;
          continue;
        }
        /* A one-line string: to its closing quote; a `\` at the line's end continues it on the
         * next line (an unclosed one ends at the line's end). */
        for (p++; p < l.len && l.ptr[p] != c; p++)
          if (l.ptr[p] == '\\') {
            if (p + 1 == l.len || (p + 2 == l.len && l.ptr[p + 1] == '\r')) { squote = c; break; }
            p++;
          }
        if (squote) break;
        last = c;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') depth++;
      else if ((c == ')' || c == ']' || c == '}') && depth > 0) depth--;
      if (c != ' ' && c != '\t' && c != '\r') last = c;
    }
    if (quote || squote) continue;
    if (last == '\\') { cont = true; continue; }
    if (!depth && last == ':') want_indent = true;
  }
  return SIZE_MAX;
#undef LINE
}

size_t ec_lz_python_unparsed(const void *base, size_t stride, size_t n, ec_arena *a) { return ec_lz_python_scan(base, stride, n, a, NULL); }

/* The parse check over lines: which parser reads this file (a function over lines returning the
 * first line that does not parse, or SIZE_MAX), NULL when none reads it soundly. Python's
 * indentation is a parse in itself; for bracket languages a line-based scanner is not (strings and
 * comments across lines): tree-sitter reads them after the splice (lazy_syntax_guard). */
typedef size_t (*line_parser)(const void *base, size_t stride, size_t n, ec_arena *a);

static line_parser parser_for(const lang_t *lang) { return lang->python ? ec_lz_python_unparsed : NULL; }

static ec_error_code still_parses(ec_lz_job *job, const ec_lz_rview *v, const lang_t *lang) {
  line_parser parse = job->parse_lines ? parser_for(lang) : NULL;
  if (!parse) return EC_OK;
  job->work += job->F.n + v->nr;
  size_t bad = parse(&v->r[0].line, sizeof *v->r, v->nr, job->a);
  if (bad == SIZE_MAX) return EC_OK;
  if (parse(job->F.line, sizeof *job->F.line, job->F.n, job->a) != SIZE_MAX) return EC_OK; /* it did not parse before either */
  size_t seg = 0;
  for (size_t s = 0; s < job->nseg_parsed; s++)
    if (v->rb[s] != SIZE_MAX && v->rb[s] <= bad) seg = s;
  uint32_t fl = 0;
  for (size_t r = bad + 1; r-- > 0 && !fl;)
    if (v->rfile[r] != EC_LZ_NONE) fl = v->rfile[r] + 1;
  return ec_lz_fail_check(job, EC_NO_MATCH, seg, fl, fl,
                          "the file would no longer parse: this line's indentation does not fit the blocks around it in the result, "
                          "where the file parsed before (invariant d)",
                          v->r[bad].line);
}

/* Invariant (d) after the syntax guard, for a file a grammar reads: tree-sitter's Python grammar
 * accepts a `def f():` followed by a line at its own column, which Python refuses
 * (IndentationError); Python's indentation is read over the spliced result's lines here. */
ec_error_code ec_lz_python_after_guard(ec_lz_job *job, ec_str text) {
  lang_t lang = lang_of(job->f->path);
  if (!lang.python) return EC_OK;
  size_t n = 1;
  for (size_t i = 0; i < text.len; i++)
    if (text.ptr[i] == '\n') n++;
  ec_str *L = ec_arena_alloc(job->a, n * sizeof *L);
  if (!L) return ec_fail_oom(job->ctx);
  size_t k = 0, start = 0;
  for (size_t i = 0; i <= text.len; i++)
    if (i == text.len || text.ptr[i] == '\n') {
      L[k++] = ec_str_make(text.ptr + start, i - start);
      start = i + 1;
    }
  job->work += job->F.n + k;
  size_t bad = ec_lz_python_unparsed(L, sizeof *L, k, job->a);
  if (bad == SIZE_MAX) return EC_OK;
  if (ec_lz_python_unparsed(job->F.line, sizeof *job->F.line, job->F.n, job->a) != SIZE_MAX) return EC_OK; /* it did not parse before either */
  return ec_lz_fail_check(job, EC_NO_MATCH, EC_LZ_WHOLE, 0, 0, /* the line is the result's: no file line to name */
                          "the file would no longer parse: this line's indentation does not fit the blocks around it in the result, "
                          "where the file parsed before (invariant d)",
                          L[bad]);
}

bool ec_lz_definition(ec_lz_job *job, ec_str line, bool in_class, ec_str *name, uint64_t *key) {
  lang_t lang = lang_of(job->f->path);
  return def_of(line, &lang, in_class, name, key);
}

ec_error_code ec_lz_check_invariants(ec_lz_job *job, const ec_lz_rview *v) {
  if (!v->nr) return EC_OK;
  lang_t lang = lang_of(job->f->path);
  ec_error_code rc = EC_OK;
  for (size_t s = 0; s < job->nseg_parsed && !rc; s++) {
    rc = bottom_adjacent(job, v, s);
    if (!rc) rc = top_adjacent(job, v, s);
  }
  if (!rc) rc = defined_once(job, v, &lang);
  if (!rc) rc = marker_in_new_block(job, v);
  if (!rc) rc = one_place(job, v);
  return rc ? rc : still_parses(job, v, &lang);
}
