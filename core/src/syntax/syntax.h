/*
 * The syntax floor (docs/syntax.md): which language a file is in, what tree-sitter says of its
 * text before and after an edit, and which errors the edit introduced. It sits above text/ and
 * base/ only: the request (per-file reports), the lazy merge (its clean-to-broken decline) and
 * the messages (a candidate's enclosing definition) call it.
 *
 * The parsing itself is a backend (backend.h): linked in natively and under WASI (ts/), asked of
 * the host in the browser build (wasm/syntax_import.c), which serves it from a per-language
 * module. Both hand back the same words (wire.h), read here.
 */
#ifndef EC_SYNTAX_SYNTAX_H
#define EC_SYNTAX_SYNTAX_H
#include "../base/arena.h"

/* Section - languages (languages.c) */

typedef struct ec_syn_lang {
  const char *name;      /* "python", "tsx", ...: the grammar's name in every build */
  const char *def_types; /* node types that are definitions, for messages ("" none) */
  bool preprocessor;     /* C and C++: conditionals may split brackets (report.c) */
} ec_syn_lang;

/**
 * The language of `path`, or of `named` when it is not empty (a language name or a VS Code
 * language id, which wins over the path). NULL when unknown; then *name is what to report:
 * `named` as given, or "unknown" when neither names a language.
 */
const ec_syn_lang *ec_syn_lang_for(ec_str path, ec_str named, ec_str *name);

/* Section - scanning (scan.c) */

typedef struct ec_syn_err {
  uint32_t kind;       /* EC_SYN_KIND_ERROR / EC_SYN_KIND_MISSING */
  uint32_t start, end; /* byte offsets in the text as given */
  ec_str name;         /* MISSING: the token assumed */
} ec_syn_err;

typedef struct ec_syn_def {
  uint32_t start, end;
} ec_syn_def;

typedef struct ec_syn_side {
  bool stopped;        /* the parse ran out of its work budget: nothing is known */
  uint32_t total;      /* every error; errors[] lists the first ones */
  ec_syn_err *errors;
  size_t n_errors;
  ec_syn_def *defs;
  size_t n_defs;
} ec_syn_side;

typedef enum ec_syn_status {
  EC_SYN_SCANNED,
  EC_SYN_UNAVAILABLE, /* no grammar for the language in this build (or not loaded in the browser) */
  EC_SYN_TOO_LARGE
} ec_syn_status;

/**
 * Parses `a` (and `b`, when not NULL, as an edit of `a`) in `lang`; definitions are listed when
 * `defs` is set. A leading UTF-8 BOM is left out of the parse and offsets still count it.
 * Returns EC_OK or EC_OUT_OF_MEMORY; *status says whether anything was scanned.
 */
ec_error_code ec_syn_scan(ec_arena *a, const ec_syn_lang *lang, ec_str text_a, const ec_str *text_b, bool defs,
                          ec_syn_status *status, ec_syn_side *side_a, ec_syn_side *side_b);

/* Section - reports (report.c, compare.c) */

/*
 * What one request may parse, in bytes: a parse costs about 1-4 G instructions per MB (C 1.4,
 * C++ headers 2.0, JavaScript 1.3, Python 1.1, TypeScript declarations 4.0, measured with
 * callgrind; 0.45 s of CPU per MB at worst here), so 4 MiB keeps the syntax check within the
 * ~2 s a request may take (docs/limits.md). Counted in bytes, not time, so every build stops at
 * the same file. Past it, a file's report says `skipped`; nothing else changes.
 */
#define EC_SYN_REQUEST_BYTES ((size_t)4 << 20)

/**
 * What reporting the edit from `before` (NULL: a new file) to `after` costs against
 * EC_SYN_REQUEST_BYTES: a full parse of `before`, and a reparse of the bytes where the two
 * differ (tree-sitter reuses the rest of the tree); all of `after` for a new file.
 */
size_t ec_syn_cost(const ec_str *before, ec_str after);

/** A report of a known language that was not checked, saying why (`why`, a static string). NULL
 *  when out of memory. */
ec_syntax_report *ec_syn_skipped(ec_arena *a, ec_str name, const char *why);

/**
 * The report for a file whose content went from `before` (NULL: it did not exist) to `after`.
 * `lang` NULL: an unknown language, reported under `name`. The report lives in `a`.
 * Returns EC_OK or EC_OUT_OF_MEMORY.
 */
ec_error_code ec_syn_report(ec_arena *a, const ec_syn_lang *lang, ec_str name, const ec_str *before, ec_str after,
                            ec_syntax_report **out);

/** Whether the report is of an edit that broke a file that parsed (or created one that does not). */
bool ec_syn_breaks(const ec_syntax_report *r);

/** "line 3, column 9: missing ')'; line 7, column 1: unexpected 'else'" for the first `max` new
 *  errors (and "and N more"), in the arena; ptr NULL when out of memory. */
ec_str ec_syn_describe(ec_arena *a, const ec_syntax_report *r, size_t max);

/**
 * Which of the after-side errors are new: out[i] is true for errors[i] of `after` that no error
 * of `before` accounts for. Errors before and after the bytes where the texts differ are matched
 * by kind and place (shifted by the edit); those inside it by kind and name, one for one, in
 * order. Returns the count of new errors among the listed ones.
 */
size_t ec_syn_new_errors(ec_str before_text, const ec_syn_side *before, ec_str after_text, const ec_syn_side *after,
                         bool *out);

/**
 * C and C++ (conditionals.c): clears fresh[i] for the new errors a preprocessor conditional
 * explains (brackets balanced across #if branches, as the `extern "C"` guard does), counting
 * them off *n_fresh. True only when out of memory.
 */
bool ec_syn_excuse_conditionals(ec_arena *a, ec_str after, const ec_syn_side *side, bool *fresh, size_t *n_fresh);

/* Section - definitions (defs.c) */

/**
 * The innermost definition of `text` (scanned with defs) that encloses lines [first, last]
 * (1-based), as "'def mean(xs):' (lines 38-52)"; an empty string when none does. In the arena.
 */
ec_str ec_syn_enclosing(ec_arena *a, ec_str text, const ec_syn_side *side, uint32_t first, uint32_t last);

#endif
