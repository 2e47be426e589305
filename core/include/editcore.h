/*
 * editcore.h — apply an LLM-written code edit to file contents.
 *
 * editcore takes the contents of one or more files plus an edit in one of the dialects models
 * write (old/new strings, SEARCH/REPLACE blocks, unified diffs, Codex patches, whole files,
 * lazy snippets) and returns the new contents, a unified diff, statistics, the strategy that
 * matched and, when it fails, a precise error written for the model.
 *
 * The library does no I/O and keeps no global state: bytes in, bytes out. The host reads files,
 * passes their bytes in, and decides whether to write what comes back.
 *
 * Two ways in, with identical results:
 *   - the typed API (ec_request -> ec_apply -> ec_result), and
 *   - the JSON protocol (ec_run_json), a thin layer over the typed API, which is what the CLI,
 *     the WASI command and the npm package speak. The protocol's reference — every format's
 *     fields, every option, error code and profile, with examples — is docs/protocol.md (shipped
 *     in the repository and in the npm package).
 *
 * Ownership, in one rule: what you pass in stays yours and need only live for the call; what the
 * library returns belongs to the returned object (every string in it, paths included, is a copy
 * it owns) and dies with its one free function (ec_result_free, ec_free).
 *
 * Threads: the library keeps no global state, so any number of calls may run at once on
 * different threads, each with its own request and result. One result may be read from several
 * threads; it must not be freed while another thread reads it.
 *
 * Memory: every allocation a call makes goes through the host's ec_allocator when one is given
 * (the regex strategy's included), with one exception: the JSON entry points parse
 * the request text with cJSON, whose short-lived parse tree uses malloc/free (cJSON's hooks are
 * process-global, so setting them per call would break the thread rule above). The typed API
 * (ec_apply) never calls cJSON.
 */
#ifndef EDITCORE_H
#define EDITCORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(EDITCORE_SHARED)
#  ifdef EDITCORE_BUILDING
#    define EC_API __declspec(dllexport)
#  else
#    define EC_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) || defined(__clang__)
#  define EC_API __attribute__((visibility("default")))
#else
#  define EC_API
#endif

/****************************/
/* Section - Version        */
/****************************/

#define EDITCORE_VERSION_MAJOR 0
#define EDITCORE_VERSION_MINOR 1
#define EDITCORE_VERSION_PATCH 0
#define EDITCORE_VERSION_STRING "0.1.0"

/** The library's version at run time, e.g. "0.1.0" (EDITCORE_VERSION_STRING of the build that
 *  made it; compare with the macro to detect a header/library mismatch). Static storage. */
EC_API const char *ec_version(void);

/****************************/
/* Section - Host hooks     */
/****************************/

/**
 * Memory functions the host may supply. Every allocation the library makes for a request or a
 * result goes through them (the JSON parser's short-lived cJSON tree aside:
 * see the top of this file). Leave the pointer NULL to use malloc/realloc/free. A function that
 * returns NULL makes the request fail with EC_OUT_OF_MEMORY, never crash or half-apply.
 */
typedef struct ec_allocator {
  void *(*malloc)(void *user, size_t size);
  void *(*realloc)(void *user, void *ptr, size_t size);
  void (*free)(void *user, void *ptr);
  void *user;
} ec_allocator;

struct ec_limits;

/**
 * What a host lends the library for one call. Every member is optional. `clock_ms` is read
 * twice per request to fill `stats.time_ms`; without it time_ms is 0 (the core owns no clock).
 * `ceilings` caps what a request may ask for in `options.limits` (docs/limits.md): a request
 * may lower a limit, never raise it past its ceiling (INVALID_PARAM naming the ceiling), and a
 * limit the request leaves unset is its ceiling. NULL, or a zero member, means the build's
 * ceiling (the defaults listed in ec_limits). Only the host sets ceilings: whoever writes the
 * request (a model, a remote client) cannot.
 */
typedef struct ec_host {
  const ec_allocator *allocator;
  double (*clock_ms)(void *user);
  void *clock_user;
  const struct ec_limits *ceilings;
} ec_host;

/** Frees a buffer the library returned (ec_run_json, ec_result_to_json), through the same host's
 *  allocator it was made with. `ptr` may be NULL. */
EC_API void ec_free(const ec_host *host, void *ptr);

/****************************/
/* Section - Vocabulary     */
/****************************/

/** A byte string that need not be NUL-terminated. `ptr` may be NULL only when `len` is 0. */
typedef struct ec_str {
  const char *ptr;
  size_t len;
} ec_str;

typedef enum ec_format {
  EC_FORMAT_REPLACE,        /* {path?, old_string, new_string, expected_replacements?, replace_all?} */
  EC_FORMAT_SEARCH_REPLACE, /* {text, dialect?, is_final?, parse_only?} */
  EC_FORMAT_UNIFIED_DIFF,   /* {text} */
  EC_FORMAT_CODEX_PATCH,    /* {text}: *** Begin Patch ... *** End Patch */
  EC_FORMAT_WHOLE_FILE,     /* {path?, content} */
  EC_FORMAT_INSERT,         /* {path?, insert_line, new_str} */
  EC_FORMAT_LAZY,           /* {path?, snippet} */
  EC_FORMAT_REPLY,          /* {text, dialect?, path?, parse_only?}: a model's raw reply (docs/reply.md) */
  EC_FORMAT__COUNT
} ec_format;

/** Whose semantics to reproduce (docs/protocol.md, Profiles). EDITCORE is ours: strict, transactional. */
typedef enum ec_profile {
  EC_PROFILE_EDITCORE,
  EC_PROFILE_GEMINI,
  EC_PROFILE_CLINE,
  EC_PROFILE_AIDER,
  EC_PROFILE_ROO,
  EC_PROFILE_CODEX,
  EC_PROFILE_CLAUDE,
  EC_PROFILE_OPENHANDS,
  EC_PROFILE__COUNT
} ec_profile;

/** The matching ladder, strict to loose (docs/protocol.md, replace). */
typedef enum ec_strategy {
  EC_STRATEGY_EXACT,
  EC_STRATEGY_UNESCAPE,
  EC_STRATEGY_TRIM_END,
  EC_STRATEGY_INDENT,
  EC_STRATEGY_UNICODE,
  EC_STRATEGY_ELISION,
  EC_STRATEGY_ANCHOR,
  EC_STRATEGY_REGEX,
  EC_STRATEGY_FUZZY,
  EC_STRATEGY__COUNT,
  /* Not a ladder step (never in options.strategies): the host's model corrected the edit and
   * the engine checked its correction (ec_correction_apply). Named "llm". */
  EC_STRATEGY_LLM = 64
} ec_strategy;

typedef enum ec_status {
  EC_STATUS_SUCCESS, /* every edit applied */
  EC_STATUS_PARTIAL, /* a preview, a truncated diff, or a peer profile that applied only some blocks */
  EC_STATUS_ERROR    /* nothing applied */
} ec_status;

typedef enum ec_error_code {
  EC_OK = 0,
  EC_INVALID_PARAM,
  EC_MALFORMED_EDIT,
  EC_NO_MATCH,
  EC_AMBIGUOUS,
  EC_COUNT_MISMATCH,
  EC_NOOP,
  EC_NOT_FOUND,
  EC_FILE_EXISTS,
  EC_BINARY_FILE,
  EC_CONFLICT,
  EC_TOO_LARGE,
  EC_ACCESS_DENIED, /* hosts only */
  EC_IO_ERROR,      /* hosts only */
  EC_OUT_OF_MEMORY,
  EC_INVALID_REPLY, /* self-correction: the model's reply holds no usable answer */
  EC_SYNTAX_ERROR,  /* the edit would break a file that parsed (options.syntax "refuse", lazy merges) */
  EC_ENCODING,      /* the file's encoding does not let this edit be made exactly (docs/protocol.md, "Encodings") */
  EC_ERROR__COUNT
} ec_error_code;

typedef enum ec_action {
  EC_ACTION_UPDATE,
  EC_ACTION_ADD,
  EC_ACTION_DELETE,
  EC_ACTION_MOVE
} ec_action;

/* Names as they appear in JSON. Each returns a static string ("unknown", or "UNKNOWN" for an error code, out of range). */
/** The format's JSON name: "replace", "search_replace", "unified_diff", ... */
EC_API const char *ec_format_name(ec_format f);
/** The profile's JSON name: "editcore", "gemini", "cline", ... */
EC_API const char *ec_profile_name(ec_profile p);
/** The strategy's JSON name: "exact", "unescape", "trim_end", ... */
EC_API const char *ec_strategy_name(ec_strategy s);
/** The error code's JSON name: "INVALID_PARAM", "NO_MATCH", ... ("OK" for EC_OK). */
EC_API const char *ec_error_code_name(ec_error_code c);
/** The action's JSON name: "update", "add", "delete", "move". */
EC_API const char *ec_action_name(ec_action a);
/** Reverse lookup of ec_format_name; false (and *out untouched) for an unknown name. */
EC_API bool ec_format_from_name(ec_str name, ec_format *out);
/** Reverse lookup of ec_profile_name; false (and *out untouched) for an unknown name. */
EC_API bool ec_profile_from_name(ec_str name, ec_profile *out);
/** Reverse lookup of ec_strategy_name; false (and *out untouched) for an unknown name. */
EC_API bool ec_strategy_from_name(ec_str name, ec_strategy *out);

/****************************/
/* Section - Request        */
/****************************/

/** One input file. A file that does not exist is simply not in the list. */
typedef struct ec_file {
  ec_str path;
  ec_str content;
} ec_file;

/**
 * Hard limits (docs/limits.md). A request that passes one gets TOO_LARGE naming the limit, never
 * a hang. Zero means "the ceiling": the host's (ec_host.ceilings) or, without one, the build's,
 * which are the defaults below (the same on every build so results stay identical). A value
 * above the ceiling is INVALID_PARAM: a request may only lower its limits.
 */
typedef struct ec_limits {
  size_t max_input_bytes;      /* sum of all file contents and edit text; default 64 MiB (also what an edit may make: docs/limits.md) */
  size_t max_lines;            /* per file, per edit text, per file an edit makes; default 1 Mi lines */
  size_t max_line_bytes;       /* default 16 MiB */
  size_t max_blocks;           /* blocks/hunks/files in one edit; default 10000 */
  uint32_t regex_match_limit;  /* token comparisons of the `regex` strategy's search; default 10 M */
  uint32_t regex_depth_limit;  /* accepted for compatibility: the token matcher never backtracks (depth 1) */
  uint64_t fuzzy_work;         /* cells of fuzzy comparison (and the lazy merge's placement work); default 200 M */
  uint64_t diff_work;          /* Myers steps before a coarser diff; default 50 M */
  size_t max_files;            /* entries of files, expected_hash, chat_files, valid_fnames; default 10000 */
} ec_limits;

/**
 * Sets the limit called `name` ("max_input_bytes", "max_files", ... as in options.limits) in
 * *l to `value`. False for an unknown name or a value that does not fit. Hosts use it to fill
 * the ec_limits they give as ec_host.ceilings from their own flags (`editcore json --ceiling
 * max_files=20000`, the npm package's setCeilings).
 */
EC_API bool ec_limits_set(ec_limits *l, const char *name, uint64_t value);

/**
 * What the engine does with the syntax of the files an edit changes (docs/syntax.md): each file
 * whose language is known (from its path, or ec_edit.language) is parsed with tree-sitter before
 * and after the edit, and the errors the edit introduced are listed (ec_syntax_report).
 */
typedef enum ec_syntax_mode {
  EC_SYNTAX_ON_DEMAND, /* the typed API's default: nothing is parsed unless asked (ec_result_syntax);
                          lazy merges still decline one that breaks a file which parsed */
  EC_SYNTAX_REPORT,    /* every changed file gets its report (ec_file_result.syntax); JSON's default */
  EC_SYNTAX_REFUSE,    /* REPORT, and an edit that breaks a file which parsed is EC_SYNTAX_ERROR:
                          nothing applies, the message names the lines */
  EC_SYNTAX_OFF        /* nothing is parsed, not even for lazy merges */
} ec_syntax_mode;

/** Options (docs/protocol.md, Options). Initialise with ec_options_default(). */
typedef struct ec_options {
  int diff_context;             /* lines of context in hunks; default 3 */
  size_t diff_max_bytes;        /* a longer diff is cut and diff_truncated set; default 65536 */
  const ec_strategy *strategies;/* ladder order; NULL = the profile's own */
  size_t n_strategies;
  double fuzzy_threshold;       /* 0..1; default 0.9 */
  const ec_file *expected_hash; /* path -> SHA-256 (64 hex digits, "sha256:" allowed) of the bytes the host read;
                                   a different or missing file is CONFLICT and nothing applies */
  size_t n_expected_hash;
  int line_hint;                /* 1-based line near which to look first; 0 = none */
  ec_limits limits;
  /* How a unified diff's headers and sides are read (formats unified_diff and reply; other formats
   * refuse them), as `patch -pN -R` and `git apply -pN -R`; JSON options.strip and options.reverse. */
  bool has_strip;               /* false: git's a/ b/ and `diff -r`'s old/ new/ dropped (docs/cli.md, Patches) */
  int strip;                    /* with has_strip: leading components dropped from every header path (-pN), 0..4096 */
  bool reverse;                 /* the diff's sides swapped: what it adds is removed, a creation is a deletion */
  ec_syntax_mode syntax;        /* the syntax check (docs/syntax.md); ec_options_default: EC_SYNTAX_ON_DEMAND */
  /* For a host that builds the new contents itself, from the bytes it gave and each splice's new
   * bytes (the npm package): a file result's content may then be left unbuilt, content.ptr NULL
   * and content.len its length; read the new bytes with ec_result_splice_text. The engine's memory
   * then never holds a second copy of a file an edit splices. Such a content is "null" in
   * ec_result_to_json and has no on-demand syntax report. A content may also be the request's own
   * edit.content (whole_file), so the request's strings must live as long as the result (as
   * ec_apply_json_files_as keeps them). Not a JSON option. Default false. */
  bool content_as_splices;
  bool undo_on_read;            /* true: a file result's `undo` is left {NULL, 0} unless its diff is truncated,
                                   and ec_diff_undo(diff) gives it when read (the same bytes); default false */
} ec_options;

/** Peer switches (`edit.options` in JSON), used by peer profiles only. */
typedef struct ec_peer_options {
  ec_str cline_version;         /* "v1" | "v2" */
  ec_str fence_open, fence_close;/* Aider's forced fence pair */
  const ec_str *chat_files;     /* Aider: files in the chat; NULL with has_chat_files=false = all */
  size_t n_chat_files;
  bool has_chat_files;
  bool dry_run;                 /* Aider */
  bool confirm;                 /* Aider: answer to "create new file?"; default true */
  ec_str raw_llm_text;          /* Aider whole-file: the model's raw reply */
  ec_str dialect;               /* dialect named inside edit.options */
  double roo_fuzzy_threshold;   /* Roo: edit.options.fuzzy_threshold (0..1), when has_roo_fuzzy_threshold */
  bool has_roo_fuzzy_threshold; /* false = Roo's production default 1.0 */
  int64_t roo_buffer_lines;     /* Roo: edit.options.buffer_lines; -1 / 0 = default 40 */
} ec_peer_options;

/** The edit. Which members matter depends on the format (docs/protocol.md, Formats); the rest stay zero. */
typedef struct ec_edit {
  ec_str path;                  /* target in files; may be empty when files has one entry.
                                   reply: the file for edits that name none */
  /* replace */
  ec_str old_string, new_string, instruction;
  bool has_old_string, has_new_string;
  int64_t expected_replacements;/* -1 = not given */
  bool replace_all;
  /* search_replace, unified_diff, codex_patch, reply */
  ec_str text;
  ec_str dialect;               /* search_replace: "cline" | "aider" | "roo"; empty = the profile's.
                                   reply: "auto" (empty) | "search_replace" | "unified_diff" | "codex_patch" | "whole_file" */
  bool is_final;                /* default true */
  bool parse_only;              /* search_replace: data.blocks; reply: data.edits and data.paths; nothing applied */
  const ec_str *valid_fnames;   /* Aider's parser: known file names */
  size_t n_valid_fnames;
  /* whole_file */
  ec_str content;
  bool has_content;
  /* insert */
  int64_t insert_line;          /* -1 = not given */
  ec_str new_str;
  bool has_new_str;
  /* lazy */
  ec_str snippet;
  bool has_snippet;
  ec_peer_options peer;
  /* every format: the language of the files the edit changes, for the syntax check, overriding
     what their paths say ("python", "tsx", ...; VS Code's language ids are taken too). Empty:
     from each path. A name without a grammar is reported as such, never guessed. */
  ec_str language;
} ec_edit;

typedef struct ec_request {
  ec_format format;
  ec_profile profile;
  const ec_file *files;
  size_t n_files;
  ec_edit edit;
  ec_options options;
} ec_request;

/** Whether this build implements `format` under `profile` (docs/protocol.md, Profiles). */
EC_API bool ec_supports(ec_format format, ec_profile profile);

/** Fills the defaults: profile editcore, is_final true, counts unset, options at their defaults.
 *  Call it before setting fields: zero is not the default of every field. */
EC_API void ec_request_init(ec_request *req, ec_format format);
/** The default options alone (diff_context 3, diff_max_bytes 65536, fuzzy_threshold 0.9, the
 *  profile's ladder, default limits). ec_request_init calls it. */
EC_API void ec_options_default(ec_options *opt);

/****************************/
/* Section - Result         */
/****************************/

typedef struct ec_match_info {
  uint32_t start_line, end_line; /* 1-based, inclusive, in the file as it was */
  ec_strategy strategy;
  double confidence;             /* 1.0 for exact; lower for looser strategies */
} ec_match_info;

typedef struct ec_candidate {
  uint32_t start_line, end_line;
  double similarity;             /* 0..1 */
  ec_str text;                   /* the file's actual lines */
} ec_candidate;

/** One error an edit introduced (docs/syntax.md). Lines 1-based; columns 1-based, in characters. */
typedef struct ec_syntax_error {
  uint32_t line, column;         /* where the node starts */
  uint32_t end_line, end_column; /* where it ends (the column just past it) */
  bool missing;                  /* true: a token the parser had to assume, named by `text` (")");
                                    false: text it could not place, `text` its first characters */
  ec_str text;
} ec_syntax_error;

/** The syntax of one changed file before and after the edit (docs/syntax.md). */
typedef struct ec_syntax_report {
  ec_str language;               /* "python", "tsx", ...; "unknown" when neither the path nor
                                    ec_edit.language names a language */
  bool checked;                  /* both sides were parsed; false: an unknown language, or `skipped` */
  ec_str skipped;                /* why a known language was not checked (no grammar, too large,
                                    the parse's work budget, a deleted file); empty otherwise */
  int8_t parsed_before;          /* 1 parsed without errors, 0 with errors, -1 no file before / not checked */
  int8_t parsed_after;           /* 1, 0, or -1 when not checked */
  uint32_t errors_before, errors_after; /* ERROR and MISSING nodes of each side */
  uint32_t new_error_count;      /* the errors the edit introduced (old errors never count) */
  const ec_syntax_error *new_errors; /* the first of them, in document order (at most 20) */
  size_t n_new_errors;
} ec_syntax_report;

/**
 * One changed stretch of a file result, in bytes: the content the request gave, bytes
 * [old_start, old_end), became the result's content, bytes [new_start, new_end). Outside its
 * splices a result's content is the request's content byte for byte, so a host that holds the
 * original (the npm package: the caller's string) can build the new content from it and the new
 * pieces alone. Sorted and apart. An added file has one splice {0, 0, 0, len}, a deleted one
 * {0, len, 0, 0}. A located edit's splices are the stretches it wrote (a replaced block, whole);
 * whole_file's are the changed lines its diff found.
 */
typedef struct ec_file_splice {
  size_t old_start, old_end, new_start, new_end;
} ec_file_splice;

typedef struct ec_file_result {
  ec_str path;
  ec_action action;
  ec_str moved_to;               /* for EC_ACTION_MOVE */
  ec_str content;                /* new content; has_content false for delete. With
                                    options.content_as_splices, ptr may be NULL (len set): the
                                    content is then the file's given bytes with each splice's
                                    new bytes (ec_result_splice_text) in place of its old ones */
  bool has_content;
  ec_str diff;                   /* unified diff, "--- a/path" / "+++ b/path" */
  bool diff_truncated;
  ec_str undo;                   /* unified diff that restores the original; {NULL, 0} under
                                    ec_options.undo_on_read: ec_diff_undo(diff) */
  uint32_t lines_added, lines_removed, replacements;
  const ec_match_info *matches;
  size_t n_matches;
  const ec_file_splice *splices; /* what changed, in bytes (owned by the result, like every member) */
  size_t n_splices;
  const ec_str *splice_texts;    /* with content.ptr NULL: splices[k]'s new bytes; else NULL */
  const ec_syntax_report *syntax; /* EC_SYNTAX_REPORT/REFUSE; NULL otherwise (ec_result_syntax) and
                                     for a deleted file */
} ec_file_result;

typedef struct ec_error {
  ec_error_code code;
  ec_str message;                /* what failed and what to send next, for the model */
  ec_str path;                   /* empty when not about one file */
  int32_t block;                 /* 1-based block/hunk number; 0 = none */
  uint32_t line;                 /* 1-based line in the edit text (MALFORMED_EDIT); 0 = none */
  const ec_candidate *candidates;
  size_t n_candidates;
} ec_error;

/** A parsed SEARCH/REPLACE block (parse_only). */
typedef struct ec_block {
  ec_str path, search, replace;
} ec_block;

/**
 * One edit found in a model's reply (format `reply`, parse_only). `dialect` is the format that
 * reads it: EC_FORMAT_SEARCH_REPLACE (one block), EC_FORMAT_UNIFIED_DIFF (one file's part of a
 * diff), EC_FORMAT_CODEX_PATCH (one Add/Delete/Update hunk) or EC_FORMAT_WHOLE_FILE.
 * `action` is what the edit says it does (update unless a /dev/null side, a rename or a Codex
 * Add/Delete/Move says otherwise), not what the files are.
 */
typedef struct ec_reply_edit {
  ec_format dialect;
  ec_str path;                   /* the file it edits, as the reply names it ("./" dropped) */
  ec_action action;
  ec_str moved_to;               /* EC_ACTION_MOVE only */
  uint32_t line;                 /* 1-based line of the reply where the edit starts */
  ec_str search, replace;        /* search_replace: the two sections, LF text */
  ec_str text;                   /* unified_diff / codex_patch: the edit's lines of the reply;
                                    whole_file: the new content */
} ec_reply_edit;

typedef struct ec_stats {
  double time_ms;
  uint64_t bytes_in, bytes_out;
  uint32_t lines_added, lines_removed;
} ec_stats;

typedef struct ec_result ec_result;

/**
 * Applies one edit. Never writes anything: the new contents are in the result.
 * Returns NULL only when memory for the result itself cannot be had; every other failure is a
 * result with status EC_STATUS_ERROR. The result owns all it points to (the request may be freed
 * as soon as the call returns). Free it with ec_result_free. `host` may be NULL.
 */
EC_API ec_result *ec_apply(const ec_request *req, const ec_host *host);

/* Reading a result. Every pointer these return is owned by the result and lives until
 * ec_result_free(r); none may be freed by the caller. */

/** success, partial or error (docs/protocol.md, Response). */
EC_API ec_status ec_result_status(const ec_result *r);
/** How many files the edit changed (0 on error). */
EC_API size_t ec_result_file_count(const ec_result *r);
/** Changed files, in the order the edit touched them. NULL past the end. */
EC_API const ec_file_result *ec_result_file(const ec_result *r, size_t i);
/** The new bytes of the i-th file's k-th splice (content [new_start, new_end)), whether the
 *  content was built or not (options.content_as_splices). {NULL, 0} past the end. */
EC_API ec_str ec_result_splice_text(const ec_result *r, size_t i, size_t k);
/** Errors: one for status error; one or more for partial results of peer profiles. */
EC_API size_t ec_result_error_count(const ec_result *r);
/** The i-th error; NULL past the end. */
EC_API const ec_error *ec_result_error(const ec_result *r, size_t i);
/** Parsed SEARCH/REPLACE blocks (only with edit.parse_only). */
EC_API size_t ec_result_block_count(const ec_result *r);
/** The i-th parsed block; NULL past the end. */
EC_API const ec_block *ec_result_block(const ec_result *r, size_t i);
/* Format `reply` with parse_only: the edits found, in reply order, and every file the reply
 * names (edited, created, deleted, or a move's destination), in first-mention order, without
 * duplicates — the files a host reads (when they exist) before it applies the reply. Both are
 * empty for any other request. The result owns every string and struct they give (copies),
 * which die with ec_result_free. */
/** The number of edits found (format reply, parse_only; 0 otherwise). */
EC_API size_t ec_result_edit_count(const ec_result *r);
/** The i-th edit found, owned by the result; NULL past the end. */
EC_API const ec_reply_edit *ec_result_edit(const ec_result *r, size_t i);
/** The number of files the reply names (format reply, parse_only; 0 otherwise). */
EC_API size_t ec_result_path_count(const ec_result *r);
/** The i-th file the reply names, owned by the result; {NULL, 0} past the end. */
EC_API ec_str ec_result_path(const ec_result *r, size_t i);
/** One-paragraph summary for a model or a person. */
EC_API ec_str ec_result_text(const ec_result *r);
/** Sizes, line counts and time_ms (measured with host->clock_ms; 0 without one). */
EC_API ec_stats ec_result_stats(const ec_result *r);
/** Frees the result and everything it owns. NULL is allowed. */
EC_API void ec_result_free(ec_result *r);

/**
 * A result that carries one error and no files, for a host that fails before the engine runs
 * (a path outside the root, an unreadable file), so its answer has the same envelope and JSON
 * as the engine's. `path` and `message` are copied. NULL only when out of memory.
 * Free with ec_result_free.
 */
EC_API ec_result *ec_result_new_error(ec_error_code code, ec_str path, ec_str message, const ec_host *host);

/**
 * The syntax report of the i-th changed file, computed now when the request's mode did not
 * (EC_SYNTAX_ON_DEMAND: an exact edit of a large file pays no parse unless asked). `req` must be
 * the request `r` came from (its files are the "before" side). Stored in the result (the file
 * result's `syntax` points to it afterwards) and owned by it. NULL past the end, for a deleted
 * file, or when out of memory.
 */
EC_API const ec_syntax_report *ec_result_syntax(ec_result *r, size_t i, const ec_request *req, const ec_host *host);

/** Marks a result as written to disk by the host: its JSON then says `"applied":true`. */
EC_API void ec_result_set_applied(ec_result *r, bool applied);

/****************************/
/* Section - Paths (hosts)  */
/****************************/

/**
 * Lexical normalisation of a POSIX path, shared by every sandboxing host: repeated slashes
 * collapsed, "." components dropped, "x/.." pairs folded; "" or a path that folds to nothing
 * is "." (the root itself). An absolute path stays absolute ("/.." is "/"); whether it lies
 * inside the host's root is ec_path_within's question. Symlinks are not looked at: the host
 * walks the normalised path on disk and checks every link it meets.
 * `out` must hold path.len bytes (the result is never longer; no NUL is written).
 * Returns EC_OK, EC_ACCESS_DENIED when a relative path climbs above its start with "..",
 * or EC_INVALID_PARAM for an empty path or one holding a NUL byte.
 */
EC_API ec_error_code ec_path_normalize(ec_str path, char *out, size_t *out_len);

/**
 * Whether normalised absolute `path` is `root` or lies below it (component-wise: "/ab" is not
 * inside "/a"). On true, *rest (when not NULL) is the part below the root, "." for the root
 * itself; it points into `path`.
 */
EC_API bool ec_path_within(ec_str root, ec_str path, ec_str *rest);

/****************************/
/* Section - Diff           */
/****************************/

/**
 * The undo of a result's whole diff (ec_file_result.diff, diff_truncated false): byte for byte
 * the `undo` the engine builds with it, read off the diff (each change's sides and the headers'
 * paths swapped), for a caller that asked for it only when read (ec_options.undo_on_read).
 * Returns the NUL-terminated text (length in *undo_len when not NULL; "" for an empty diff), or
 * NULL when `diff` is not such a diff or out of memory. Free with ec_free(host, undo).
 */
EC_API char *ec_diff_undo(const char *diff, size_t diff_len, const ec_host *host, size_t *undo_len);

/**
 * A unified diff of two texts, as `diff -u` writes it: headers "--- <old_label>" and
 * "+++ <new_label>" taken verbatim (no a/ b/ prefixes, no timestamps), hunks with `context`
 * lines (negative = 3), "\ No newline at end of file" where a side ends without one. The same
 * diff engine as every result's `diff`. Equal texts give an empty string.
 * Returns the NUL-terminated text (length in *len when not NULL) or NULL when out of memory or
 * past the diff's limits. Free with ec_free(host, text).
 */
EC_API char *ec_diff_text(ec_str old_text, ec_str new_text, ec_str old_label, ec_str new_label, int context,
                          const ec_host *host, size_t *len);

/****************************/
/* Section - Self-correction */
/****************************/

/*
 * When an edit fails, the host may ask its own model to repair it (the core never calls a model).
 * Two pure steps (docs/correction.md): ec_correction_prompt builds the prompt — the failed edit,
 * the error and its nearest candidates, the relevant region of the file with line numbers, and
 * the JSON schema of the answer; ec_correction_apply checks the model's raw reply and re-runs
 * the corrected edit under the failed request's profile, so a correction is held to the same
 * matching rules as any edit (a correction that names code the file lacks is refused).
 */

/** What to ask for. Zero-initialise; every member is optional. */
typedef struct ec_correction {
  ec_str mode;                  /* "" (by the edit: "search", or "fast_apply" for lazy), "search",
                                   "old_string" (repair the search text only), "new_string" (adjust
                                   the replacement after old_string was corrected), "fast_apply" */
  ec_str reply;                 /* ec_correction_apply: the model's raw reply (prose and fences allowed) */
  ec_str corrected_old_string;  /* mode "new_string": the old_string as corrected */
  ec_str instruction;           /* the edit's intent, when the failed edit did not carry one */
  size_t max_region_lines;      /* lines of the file shown around the candidates; 0 = 80 */
  size_t max_region_bytes;      /* and at most these bytes; 0 = 12 KiB */
} ec_correction;

/**
 * Builds the correction prompt for `failed` (a request that fails with ec_apply: replace,
 * search_replace, unified_diff or lazy; the first failing block or hunk is the one repaired).
 * The result has status success and the prompt (ec_result_prompt), or status error: the failed
 * request's own parameter errors, or INVALID_PARAM when `failed` applies as it is. Free with
 * ec_result_free. `host` may be NULL.
 */
EC_API ec_result *ec_correction_prompt(const ec_request *failed, const ec_correction *c, const ec_host *host);

/**
 * Checks the model's reply (c->reply) to the prompt ec_correction_prompt built for `failed` and
 * applies the correction: its files are the edit's result, each match's strategy EC_STRATEGY_LLM
 * and the model's explanation in ec_result_explanation. A reply without the JSON asked for is
 * INVALID_REPLY; a corrected search that does not match the file is refused like any edit;
 * `no_changes_required` is NOOP when the replacement is already in the file, else refused.
 */
EC_API ec_result *ec_correction_apply(const ec_request *failed, const ec_correction *c, const ec_host *host);

/** The prompt of an ec_correction_prompt result: false when `r` holds none. The strings are the
 *  result's (system and user prompt text; schema, the JSON Schema of the answer, as JSON text). */
EC_API bool ec_result_prompt(const ec_result *r, ec_str *system, ec_str *user, ec_str *schema);

/** The model's explanation carried by an ec_correction_apply result (empty otherwise). */
EC_API ec_str ec_result_explanation(const ec_result *r);

/****************************/
/* Section - JSON protocol  */
/****************************/

/**
 * Runs one JSON request (docs/protocol.md) and returns the JSON response, NUL-terminated, its
 * length in *response_len when that is not NULL. Malformed JSON is an INVALID_PARAM response, not
 * a NULL. Returns NULL only when out of memory. The caller owns the response: free it with
 * ec_free(host, response).
 */
EC_API char *ec_run_json(const char *request, size_t request_len, const ec_host *host,
                         size_t *response_len);

/**
 * Parses a JSON request and applies it, returning the typed result (a request that does not
 * parse gives an error result). NULL only when out of memory. Free with ec_result_free.
 */
EC_API ec_result *ec_apply_json(const char *request, size_t request_len, const ec_host *host);

/**
 * ec_apply_json for a host that hands the request's buffer over: `request` must come from the
 * host's allocator (malloc when host->allocator is NULL); the library frees it as soon as the
 * request is parsed, before the edit runs (and on every path), so a 60 MB request is not held
 * next to the parsed copy while the edit runs. The caller must not use `request` afterwards.
 */
EC_API ec_result *ec_apply_json_take(char *request, size_t request_len, const ec_host *host);

/** Serialises a result as the JSON response (NUL-terminated; length in *json_len when not NULL).
 *  The caller owns the text: free it with ec_free(host, json). NULL only when out of memory. */
EC_API char *ec_result_to_json(const ec_result *r, const ec_host *host, size_t *json_len);

/** Receives the response of ec_result_write_json piece by piece; returns false to stop. */
typedef bool (*ec_json_writer)(void *user, const char *bytes, size_t n);

/**
 * Writes the same bytes as ec_result_to_json (without the NUL) through `write`, in pieces of at
 * most 64 KiB plus long strings passed as they are, so a host that sends the response to a file
 * or a pipe never holds it whole (a 60 MB edit's response is ~3 x its file). Returns false when
 * `write` returned false or memory ran out; what was written then is a prefix of the response.
 */
EC_API bool ec_result_write_json(const ec_result *r, const ec_host *host, ec_json_writer write, void *user);

/**
 * ec_apply_json for a host that holds the files' bytes itself (the npm package): `request` is
 * a JSON request without file contents (no "files" member, or an empty one: INVALID_PARAM
 * otherwise) and `files` gives each file's path and bytes, which never pass through JSON (so
 * they need not be UTF-8). Everything else as ec_apply_json: the same strict parser, the same
 * answer. The files (paths and bytes) are the caller's and need only live for the call; the
 * result owns what it returns. Free with ec_result_free.
 */
EC_API ec_result *ec_apply_json_files(const char *request, size_t request_len, const ec_file *files, size_t n_files,
                                      const ec_host *host);

/**
 * ec_apply_json_files with the typed API's syntax default, EC_SYNTAX_ON_DEMAND (nothing is parsed
 * unless asked: ec_result_syntax), in place of JSON's "report": for a host whose request names no
 * options.syntax and whose caller holds objects, not JSON text (the npm package's object path:
 * an exact edit of a 1 MB file then pays no parse). A request that names options.syntax is to be
 * sent through ec_apply_json_files: this function's mode replaces whatever the request says.
 */
EC_API ec_result *ec_apply_json_files_on_demand(const char *request, size_t request_len, const ec_file *files,
                                                size_t n_files, const ec_host *host);

/** Ways of ec_apply_json_files_as (bits). */
#define EC_FILES_SYNTAX_ON_DEMAND 1u   /* as ec_apply_json_files_on_demand */
#define EC_FILES_CONTENT_AS_SPLICES 2u /* options.content_as_splices: contents may be left unbuilt */
#define EC_FILES_UNDO_ON_READ 4u       /* options.undo_on_read: undo built when read (ec_diff_undo) */
#define EC_FILES_BESIDE_IN_PLACE 8u    /* ec_apply_json_beside's edit strings are used where they are, not
                                          copied: each NUL-terminated (value.ptr[value.len] == 0) and left
                                          unchanged until the result is freed, which may point into them */

/**
 * ec_apply_json_files with the ways `how` names (EC_FILES_*; 0 is ec_apply_json_files). The npm
 * package's object path sends EC_FILES_CONTENT_AS_SPLICES, and EC_FILES_SYNTAX_ON_DEMAND when the
 * request names no options.syntax, and reads the answer with ec_result_to_json_splices and
 * ec_result_splice_text.
 */
EC_API ec_result *ec_apply_json_files_as(const char *request, size_t request_len, const ec_file *files, size_t n_files,
                                         unsigned how, const ec_host *host);

/** A string member of a request's `edit` given beside its JSON text: `name` is one of old_string,
 *  new_string, content, text, snippet, new_str, and the JSON carries it as "" in its place. */
typedef struct ec_json_member {
  ec_str name, value; /* the caller's; value need not be NUL-terminated (it is copied), but under
                         EC_FILES_BESIDE_IN_PLACE */
} ec_json_member;

/** What ec_apply_json_beside takes beside the request's JSON text. */
typedef struct ec_json_beside {
  const ec_file *files;       /* every file (the JSON names none), as ec_apply_json_files */
  size_t n_files;
  const ec_json_member *edit; /* edit members whose text is here, not in the JSON (a long
                                 whole_file content need not be escaped and parsed) */
  size_t n_edit;
  unsigned how;               /* EC_FILES_*, as ec_apply_json_files_as */
} ec_json_beside;

/**
 * ec_apply_json_files_as with long edit strings beside the JSON too: the same answer as the
 * whole request in JSON (under the ways `how` names). A member
 * given beside that the JSON's edit does not carry as "" is INVALID_PARAM.
 */
EC_API ec_result *ec_apply_json_beside(const char *request, size_t request_len, const ec_json_beside *beside,
                                       const ec_host *host);

/**
 * ec_result_to_json with every file's "content" left out and, in its place, "has_content"
 * (bool) and "splices": [old_start, old_end, new_start, new_end, ...] (ec_file_result.splices,
 * flat, in bytes), and "index" first (the file's i for ec_result_file): the response for a host that builds the new contents from the bytes it
 * gave and the new pieces (ec_result_splice_text). Every other member is the
 * JSON response's, byte for byte, but "undo" where it was not built (ec_options.undo_on_read) and
 * the diff is a JSON string: left out, for the host to get with ec_diff_undo from "diff".
 * (ec_result_to_json writes it either way.) Free with ec_free(host, json); NULL only when out of memory.
 */
EC_API char *ec_result_to_json_splices(const ec_result *r, const ec_host *host, size_t *json_len);

/*
 * Bytes in JSON. Wherever the protocol carries a file's bytes (request `files` values, a tool
 * call's `observed[*].content` and `writes[*].content`, a response's `content`, `diff`, `undo`,
 * candidates' `text`), they travel as a JSON string when they are UTF-8 without a NUL byte, and
 * otherwise as {"base64": "<RFC 4648>"}; either form is accepted on the way in. These two helpers
 * are that form for hosts written in C (docs/protocol.md, "Bytes").
 */

/** The JSON value for `len` bytes, as above (NUL-terminated; its length in *json_len when not
 *  NULL). The caller owns it: free it with ec_free(host, json). NULL only when out of memory. */
EC_API char *ec_json_bytes(const char *bytes, size_t len, const ec_host *host, size_t *json_len);

/** Decodes base64 text (RFC 4648, padded, nothing else) into `out`, which has room for len / 4 * 3
 *  bytes; returns the bytes written, or (size_t)-1 when `text` is not such base64. */
EC_API size_t ec_base64_decode(const char *text, size_t len, char *out);

/****************************/
/* Section - Agent tools    */
/****************************/

/**
 * One phase of an agent tool call (SPEC §8, docs/tools.md), JSON in and out:
 *   {"tool": "Edit", "phase": "plan" | "run" | "finish", "args": {...}, "root": "/abs",
 *    "observed": {...}, "pending": {...}, "outcomes": [...], "state": ..., "dry_run": false}
 * answers {"phase": "read", "reads": [...]} | {"phase": "write", "writes": [...], "pending": {...}}
 * | {"phase": "done", "status": ..., "result": <the tool's own result>, "state"?: ...}
 * | {"phase": "error", "error": {code, message}} (a malformed call: the host's fault, not the model's).
 * {"tool_definitions": "openai" | "anthropic" | "raw", "tools"?: [ids]} answers the definitions.
 * ec_run_json routes here when the request's first member is "tool" or "tool_definitions".
 * The core never touches a file: the host resolves, reads and writes as the phases ask.
 * Returns NULL only when out of memory. Free the response with ec_free(host, response).
 */
EC_API char *ec_tool_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len);

/** Whether a JSON request is a tool call (its first member is "tool" or "tool_definitions"). */
EC_API bool ec_json_is_tool_call(const char *request, size_t request_len);

/** Whether a tool-call response is a failure: a malformed call, or a final answer with status
 *  error (the CLI's and WASI command's exit status 1). */
EC_API bool ec_tool_response_failed(const char *response, size_t response_len);

#ifdef __cplusplus
}
#endif

#endif /* EDITCORE_H */
