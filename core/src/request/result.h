/*
 * The result a request builds: changed files, errors, parsed blocks, summary. Everything lives
 * in the result's arena, freed by ec_result_free.
 */
#ifndef EC_REQUEST_RESULT_H
#define EC_REQUEST_RESULT_H
#include "../base/arena.h"

struct ec_result {
  ec_arena *arena;
  ec_arena *request_arena;  /* the parsed JSON request the result points into, if any */
  ec_status status;
  ec_file_result *files;
  size_t n_files, cap_files;
  ec_error *errors;
  size_t n_errors, cap_errors;
  ec_block *blocks;
  size_t n_blocks, cap_blocks;
  bool has_blocks;         /* parse_only: emit data.blocks even when empty */
  ec_reply_edit *edits;    /* format reply, parse_only: data.edits and data.paths */
  size_t n_edits, cap_edits;
  ec_str *paths;
  size_t n_paths, cap_paths;
  bool has_reply;          /* emit data.edits and data.paths */
  ec_str *notes;           /* what a success did not do, said in data.notes and the text (a skipped no-op block) */
  size_t n_notes, cap_notes;
  ec_str text;
  ec_str prompt_system, prompt_user, prompt_schema; /* ec_correction_prompt */
  bool has_prompt;
  ec_str explanation;      /* ec_correction_apply: the model's explanation */
  ec_stats stats;
  bool oom;
  size_t n_unlisted_errors; /* errors past EC_MAX_ERRORS: counted in the text, not listed */
  ec_error oom_error;      /* the one error of an out-of-memory result: needs no allocation */
  bool applied;            /* the host wrote the files (ec_result_set_applied) */
};

/* At most this many errors are listed in a result (docs/limits.md). */
#define EC_MAX_ERRORS 100

ec_result *ec_result_new(const ec_allocator *alc);
/** Appends a zeroed file result; NULL on OOM. */
ec_file_result *ec_result_add_file(ec_result *r);
/** Appends an error with a printf-formatted message; NULL on OOM. */
ec_error *ec_result_add_error(ec_result *r, ec_error_code code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
ec_block *ec_result_add_block(ec_result *r);
/** The message of OUT_OF_MEMORY: what happened and what to send instead (docs/limits.md). */
#define EC_OOM_MESSAGE                                                                                      \
  "out of memory: the host could not give this request the memory it needs, and nothing was applied. Send " \
  "less at once: only the files the edit touches, fewer blocks or hunks per request (split the edit), or a " \
  "shorter old_string or snippet; a host can also give the engine more memory"
/** Turns r into an OUT_OF_MEMORY error: no file, no block, no partial anything; allocates nothing. */
void ec_result_set_out_of_memory(ec_result *r);
/** Appends a zeroed reply edit / a path (format reply); NULL / false on OOM. */
ec_reply_edit *ec_result_add_edit(ec_result *r);
bool ec_result_add_path(ec_result *r, ec_str path);
/** Appends a printf-formatted note (data.notes); false on OOM. */
bool ec_result_add_note(ec_result *r, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/** Writes r->text from what r holds (`preview`: a dry run or streaming preview). Call it again
 *  after changing a result's files or matches. */
void ec_result_summarise(ec_result *r, bool preview);
/** Drops every file result (a transaction that failed applies nothing). */
void ec_result_clear_files(ec_result *r);

#endif
