/*
 * The state of one request while it runs: the resolved options, the result being built, and the
 * workspace — every file the request may touch, as it was and as it is now. Formats edit files
 * only through the workspace; when a format succeeds, ec_ws_commit turns each touched file into
 * a file result (new content, diff, undo diff, counts), in the order the edit touched them.
 * A failed transaction simply never commits, so nothing half-applied can escape.
 */
#ifndef EC_REQUEST_CTX_H
#define EC_REQUEST_CTX_H
#include "../text/doc.h"
#include "../text/encoding.h"
#include "result.h"
#include "../base/strmap.h"

typedef struct ec_ws_file {
  ec_str path;
  bool existed;           /* present in the request's files */
  ec_str bytes;           /* the bytes given (existed only) */
  ec_str original;        /* their text: the bytes, decoded when they are UTF-16 or end lines with
                             lone CRs (text/encoding.h) */
  ec_encoding enc;        /* how `original` was decoded, and how the new content is written back */
  ec_str enc_problem;     /* why the bytes could not be decoded (loading the file then fails) */
  bool exists;            /* present now */
  bool loaded;
  ec_doc doc;             /* current content, valid when exists && loaded */
  size_t original_lf;        /* LFs in original (set when it is loaded) */
  const ec_doc_log *lineage; /* the log the loaded original started: a doc whose log has this
                                root descends from the original by tracked splices */
  bool touched;
  uint32_t touch_seq;
  ec_action action;
  ec_str moved_to;
  ec_match_info *matches;
  size_t n_matches, cap_matches;
  uint32_t replacements;
  const ec_syntax_report *syntax; /* the last report made (ec_ws_syntax), for the text in syntax_of */
  ec_str syntax_of;
} ec_ws_file;

typedef struct ec_ctx {
  const ec_request *req;
  ec_options opt;          /* request options with defaults filled in */
  ec_result *res;
  ec_arena *arena;         /* = res->arena */
  ec_ws_file *files;
  size_t n_files, cap_files;
  ec_strmap index;         /* path -> index in files */
  uint32_t next_seq;
  bool partial;            /* commit what applied even though the format failed (peer profiles) */
  bool preview;            /* a dry run or streaming preview: status partial */
  uint64_t input_bytes;    /* the request's text: file contents, paths, edit strings (max_input_bytes counts it) */
  bool reply_blocks;       /* SEARCH/REPLACE blocks of a raw reply: no-op blocks skipped, blocks in order (docs/reply.md) */
  size_t syntax_spent;     /* bytes parsed so far, against EC_SYN_REQUEST_BYTES (ec_ws_syntax_afford) */
  bool edit_not_utf8;      /* the edit's own text holds bytes that are not UTF-8 (a typed-API caller
                              writing in the file's encoding): ec_text_keeps_bytes does not apply */
  ec_error dropped;        /* the last error past EC_MAX_ERRORS (counted, not listed) */
  bool last_dropped;
} ec_ctx;

/** options.limits' member `name` set to `value`, saturated to the field's width (a value past
 * size_t on wasm32 stays above every ceiling); false when no limit has that name. */
bool ec_limits_put(ec_limits *l, const char *name, uint64_t value);

/** Sets up ctx for req, its limits resolved against the host's ceilings (NULL = the build's);
 * fails with INVALID_PARAM/TOO_LARGE/OOM (error already recorded). */
ec_error_code ec_ctx_init(ec_ctx *ctx, const ec_request *req, ec_result *res, const ec_limits *ceilings);

/**
 * What the files an edit makes may hold in all: max_input_bytes, and at most half of it more than
 * the request's own text (docs/limits.md). Only replace_all multiplies text the request sent, and
 * an answer holds the new files and their undo diffs: this keeps every answer within the memory
 * bound (4 x the request + 64 MB at the build's ceilings) instead of 4 x max_input_bytes.
 */
uint64_t ec_ctx_max_output(const ec_ctx *ctx);
/** The TOO_LARGE of an edit that would make `path` `bytes` bytes (`all` over every file), past ec_ctx_max_output.
 *  `how` starts the parenthesis ("" or "N replacements, "); NULL: building stopped there, the edit makes more. */
ec_error_code ec_fail_output(ec_ctx *ctx, ec_str path, uint64_t bytes, uint64_t all, const char *how);

/** Records an error on the result and returns its code (for `return ec_fail(...)`). */
ec_error_code ec_fail(ec_ctx *ctx, ec_error_code code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/** Records OUT_OF_MEMORY ("out of memory") and returns its code: one call, not a printf's, at the
 *  ~200 places an allocation can fail. */
ec_error_code ec_fail_oom(ec_ctx *ctx);
/** The last error recorded (to add path, block, candidates). */
ec_error *ec_last_error(ec_ctx *ctx);
/** Names file f as the path of the last error recorded; returns rc (for `return ec_fail_at(...)`). */
ec_error_code ec_fail_at(ec_ctx *ctx, const ec_ws_file *f, ec_error_code rc);

/* Section - workspace */

/** The file named `path`, or NULL. An empty path names the only file when there is one. */
ec_ws_file *ec_ws_find(ec_ctx *ctx, ec_str path);
/** The file named `path`, adding an absent entry when the request did not give it. */
ec_ws_file *ec_ws_get(ec_ctx *ctx, ec_str path);
/** Current content as a doc (loads it on first use); BINARY_FILE is recorded with the path. */
ec_error_code ec_ws_doc(ec_ctx *ctx, ec_ws_file *f, ec_doc **out);
/** Replaces the current content. */
void ec_ws_set(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc);
/**
 * ec_ws_set, and the previous doc's large blocks go back to the allocator at once, so a large file
 * costs one working copy at commit, not one per step. Only for a caller that keeps no pointer
 * into the previous doc. Nothing is released once an error is recorded (its candidates quote
 * the file) or while another workspace entry (a moved file) shares the doc.
 */
void ec_ws_replace_doc(ec_ctx *ctx, ec_ws_file *f, const ec_doc *doc);
/** Sets a file's content from raw bytes (its line endings and BOM as given), creating it when absent. */
ec_error_code ec_ws_set_bytes(ec_ctx *ctx, ec_ws_file *f, ec_str text);
void ec_ws_delete(ec_ctx *ctx, ec_ws_file *f);
/** Records where a match landed (for data.files[path].matches). */
ec_error_code ec_ws_add_match(ec_ctx *ctx, ec_ws_file *f, uint32_t start_line, uint32_t end_line,
                              ec_strategy s, double confidence);
/** The file a single-file edit targets: edit.path, or the only file. Records INVALID_PARAM. */
ec_ws_file *ec_format_target(ec_ctx *ctx);
/** Turns every touched file into a file result (file_results.c), with, under options.syntax
 *  report or refuse, its syntax report (syntax_check.c). */
ec_error_code ec_ws_commit(ec_ctx *ctx);

/* Section - syntax (syntax_check.c) */

/** The syntax report of file f going from its original to `now` (its rendered new content),
 *  made once per text: a second call for the same bytes (the lazy merge's check, then the
 *  commit) reuses it. */
ec_error_code ec_ws_syntax(ec_ctx *ctx, ec_ws_file *f, ec_str now, const ec_syntax_report **out);
/** Whether the request's parse budget (EC_SYN_REQUEST_BYTES) still has `cost` bytes; spends them
 *  when it has. Every parse of a request goes through it, in the request's own order, so every
 *  build checks the same files. */
bool ec_ws_syntax_afford(ec_ctx *ctx, size_t cost);
/** Records EC_SYNTAX_ERROR for file f: `what` (what would break it, e.g. "the edit") and the new
 *  errors' places, then `next` (what to send instead). Returns EC_SYNTAX_ERROR. */
ec_error_code ec_fail_syntax(ec_ctx *ctx, const ec_ws_file *f, const ec_syntax_report *r, const char *what, const char *next);

#endif
