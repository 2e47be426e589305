/*
 * Agent tools (SPEC §8): each tool is written once, here, as pure functions over what the host
 * observed. A tool call runs in up to three phases, each one JSON request/response through
 * ec_run_json (docs/tools.md), so a host with an async file system never waits inside the core:
 *
 *   plan    the arguments alone: validate them (INVALID_PARAM first) and name the paths to read,
 *           or answer at once (a bad argument, list_allowed_directories, ...);
 *   run     what the host observed at those paths (content, size, mtime, kind, real path, or the
 *           refusal it met): the tool's answer, and the writes that answer assumes;
 *   finish  how each write went: the answer stands (with `applied`), or becomes the tool's own
 *           error (PERMISSION_DENIED / EXECUTION_ERROR) when a write failed.
 *
 * A tool is a table entry (ec_tool): its three functions and its error renderer, which the
 * framework also uses for refusals the host met before the tool saw anything.
 */
#ifndef EC_TOOLS_TOOL_H
#define EC_TOOLS_TOOL_H
#include "../base/buf.h"
#include "../protocol/json_request.h"
#include "../text/encoding.h"
#include <cjson/cJSON.h>

/** What the host saw at one path the plan named. */
typedef enum ec_obs_kind {
  EC_OBS_FILE,
  EC_OBS_DIRECTORY,
  EC_OBS_MISSING,   /* nothing there (a missing parent directory included) */
  EC_OBS_REFUSED    /* the host refused or failed: `code` says how (ACCESS_DENIED, PERMISSION_DENIED, ...) */
} ec_obs_kind;

/** When a file was made, changed or read, as the host's clock and time zone tell it. */
typedef struct ec_obs_time {
  double ms;              /* since the epoch; NaN = not reported */
  double offset_min;      /* the host's UTC offset at that moment (minutes east) */
  ec_str zone;            /* its time zone's name then, e.g. "Central European Summer Time"; may be empty */
} ec_obs_time;

typedef struct ec_obs {
  ec_str path;            /* as the plan named it */
  ec_obs_kind kind;
  ec_str content;         /* EC_OBS_FILE: its text — the bytes, decoded when they are UTF-16 or end
                             lines with lone CRs (text/encoding.h); writes to the path are encoded back */
  ec_str bytes;           /* EC_OBS_FILE: the bytes as the host read them (read_media_file sends these) */
  bool has_content;
  ec_encoding enc;        /* how content was decoded */
  ec_str enc_problem;     /* the bytes start with a UTF-16/32 BOM but are not that (content: the bytes) */
  double size, mtime_ms;  /* -1 = not reported */
  double mode;            /* permission and type bits (st_mode); -1 = not reported */
  ec_obs_time times[3];   /* EC_OBS_TIME_*: birth, modification, access */
  ec_str real_path;       /* the resolved path (context.path_resolved); may be empty */
  ec_str code, message;   /* EC_OBS_REFUSED: the host's code and its own words */
  const cJSON *entries;   /* EC_OBS_DIRECTORY: the entries, when the read asked to list (ec_tool_entry_at) */
} ec_obs;
enum { EC_OBS_TIME_BIRTH, EC_OBS_TIME_MODIFIED, EC_OBS_TIME_ACCESSED };

/** One entry of a listed directory, as the host reported it. */
typedef struct ec_tool_entry {
  ec_str name;
  enum { EC_ENTRY_FILE, EC_ENTRY_DIRECTORY, EC_ENTRY_SYMLINK, EC_ENTRY_OTHER } type; /* the entry itself (not followed) */
  double size;            /* followed through a link; -1 = unknown (a dangling link) */
  double mtime_ms;        /* -1 = unknown */
  ec_str real_path;       /* a link's resolved target; empty when it dangles */
} ec_tool_entry;

/** A read the plan asks for. */
typedef struct ec_tool_read {
  ec_str path;
  bool content;           /* false: kind/size/mtime are enough */
  bool list;              /* a directory's entries are wanted */
  bool bytes;             /* the content as bytes, whatever they are ({"base64": ...}) */
} ec_tool_read;

/** A write the run asks for: the whole new content (atomic), a deletion, a new directory or a move. */
typedef struct ec_tool_write {
  ec_str path;
  ec_str content;
  bool remove;
  bool create_dirs;
  bool mkdir;             /* create the directory `path` and its missing parents */
  ec_str move_from;       /* non-empty: rename move_from to path (never replacing what is there) */
  ec_str from;            /* a moved file's old path: its encoding and bytes are the ones kept (empty: path) */
} ec_tool_write;

typedef enum ec_tool_status { EC_TOOL_SUCCESS, EC_TOOL_PARTIAL, EC_TOOL_ERROR } ec_tool_status;

typedef struct ec_tool_call {
  const struct ec_tool *tool;
  ec_arena *a;
  ec_json_reader *reader;
  const cJSON *args;      /* the arguments as the model sent them (an object) */
  ec_str root;            /* the sandbox root the host resolves in (context.cwd); may be empty */
  const cJSON *roots;     /* optional array: every allowed directory (MCP) */
  ec_str home;            /* optional: the user's home directory, for MCP paths "~" and "~/..." */
  bool dry_run;           /* host-level dry run: answer as if, write nothing */
  bool ladder;            /* options.ladder: editcore's matching ladder instead of exact */
  size_t diff_max_bytes;  /* options.diff_max_bytes; 0 = default */
  ec_syntax_mode syntax;  /* options.syntax: report (default), refuse or off (docs/syntax.md) */
  const cJSON *state;     /* the opaque history the host kept (undo_edit); NULL = none */
  double t0;              /* clock at the start of this phase */
  const ec_host *host;
  ec_obs *obs;
  size_t n_obs;
  /* outputs */
  ec_tool_read *reads;
  size_t n_reads, cap_reads;
  ec_tool_write *writes;
  size_t n_writes, cap_writes;
  ec_buf result;          /* the tool's answer, in its own shape (a JSON value) */
  bool done;              /* the answer is final: no reads (plan) or no writes (run) */
  ec_tool_status status;
  ec_buf state_out;       /* new state (JSON) when the writes succeed; empty = unchanged */
  bool oom;
} ec_tool_call;

typedef struct ec_tool {
  const char *id;         /* what the dispatcher is called with, e.g. "Edit", "mcp/edit_file" */
  /* Validates c->args; asks for reads (ec_tool_read_path) or answers (done). */
  void (*plan)(ec_tool_call *c);
  /* With c->obs filled: answers, with writes or done. Observations of refused paths are
   * answered by the framework (fail) before run is called. */
  void (*run)(ec_tool_call *c);
  /* Renders the tool's error answer for `code` with `message` (status error, done). */
  void (*fail)(ec_tool_call *c, const char *code, ec_str message);
  /* A failed write answers the host's own message, as the peer's tool leaks its runtime's
   * (the MCP reference's Node errors); otherwise the framework's "Could not write ..." words. */
  bool host_write_errors;
} ec_tool;

/* Section - helpers for tools */

/** The tool registry, in the order tool_definitions lists them. */
const ec_tool *ec_tool_find(ec_str id);
extern const ec_tool *const ec_tools[];
extern const size_t ec_n_tools;

void ec_tool_read_path(ec_tool_call *c, ec_str path, bool content);
/** Asks for a directory's entries (EC_OBS_DIRECTORY with `entries`), or what else is there. */
void ec_tool_list_path(ec_tool_call *c, ec_str path);
/** Asks for a file's bytes, whatever they are (the host sends them as {"base64": ...}). */
void ec_tool_read_bytes(ec_tool_call *c, ec_str path);
/**
 * For tools that walk (run asks again): the observation of `path`, or NULL after asking for it
 * (listed when `list`). The framework answers with another read phase when a run asked for more;
 * the run then starts again with every observation so far.
 */
const ec_obs *ec_tool_obs_or_read(ec_tool_call *c, ec_str path, bool list);
void ec_tool_write_file(ec_tool_call *c, ec_str path, ec_str content, bool create_dirs);
/** A write of the file observed at `from`, moved to `path` (its encoding goes with it). */
void ec_tool_move_file(ec_tool_call *c, ec_str from, ec_str path, ec_str content);
void ec_tool_delete_file(ec_tool_call *c, ec_str path);
void ec_tool_make_dir(ec_tool_call *c, ec_str path);
void ec_tool_move(ec_tool_call *c, ec_str from, ec_str to);
/** The i-th entry of a listed directory (false past the end or for a malformed one, skipped). */
bool ec_tool_entry_at(ec_tool_call *c, const cJSON *item, ec_tool_entry *out);
/**
 * Starts `req` as a `fmt` edit of the one file `path`: holding `content`, or absent (a file to
 * create) when `content` is NULL. `slot` becomes the request's file entry: it must outlive `req`.
 */
void ec_tool_request_file(ec_request *req, ec_format fmt, ec_file *slot, ec_str path, const ec_str *content);
/** ec_apply under the call's options.syntax: the edits of every tool run through here. */
ec_result *ec_tool_apply(ec_tool_call *c, const ec_request *req);
/**
 * What a tool tells its model of the syntax errors its edit introduced (as Aider, OpenHands and
 * SWE-agent do after an edit): " The edit left 'a.py' with 1 syntax error it did not have
 * (python): line 2, column 5: missing ')'. Fix it with another edit."; "" when there are none.
 */
ec_str ec_tool_syntax_note(ec_tool_call *c, const ec_file_result *f);
/** Answers with a tool_result `{content, is_error}` (Anthropic's editors, Cline, Codex, lazy edit_file). */
void ec_tool_text_answer(ec_tool_call *c, ec_str text, bool is_error);
/** The failure renderer of the tools answering tool_results: the message as an is_error result. */
void ec_tool_text_fail(ec_tool_call *c, const char *code, ec_str message);
/** The observation for `path` (as the plan named it), or NULL. */
const ec_obs *ec_tool_obs(const ec_tool_call *c, ec_str path);
/** Fails through the tool's renderer: the answer is `message` (any bytes), status error, done. */
void ec_tool_fail(ec_tool_call *c, const ec_tool *t, const char *code, ec_str message);
/** Fails through the tool's renderer with a printf message. */
void ec_tool_failf(ec_tool_call *c, const ec_tool *t, const char *code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Argument access: each returns false after rendering INVALID_PARAM through t->fail. */
typedef enum { ARG_OPTIONAL, ARG_REQUIRED } ec_arg_need;
bool ec_arg_string(ec_tool_call *c, const ec_tool *t, const char *key, ec_arg_need need, ec_str *out, bool *present);
bool ec_arg_int(ec_tool_call *c, const ec_tool *t, const char *key, ec_arg_need need, int64_t lo, int64_t hi, int64_t *out, bool *present);
bool ec_arg_bool(ec_tool_call *c, const ec_tool *t, const char *key, bool *out);
/** Every key of args must be one of `known` (NULL-terminated); else INVALID_PARAM. */
bool ec_args_only(ec_tool_call *c, const ec_tool *t, const char *const *known);

/** Writes a cJSON value as JSON (strings through the reader, so NUL bytes survive). */
void ec_tool_write_json(ec_tool_call *c, ec_buf *b, const cJSON *v);
/** JSON helpers over ec_buf. */
void ec_jstr(ec_buf *b, ec_str s);
void ec_jkey(ec_buf *b, bool *first, const char *key);
void ec_jnum(ec_buf *b, double v);

/**
 * Lexical path check inside the root: a relative path (POSIX separators; "." and ".." resolved
 * without touching the disk), or an absolute one under c->root. Returns the normalised path
 * relative to the root ("" for the root itself); false for an escape (ACCESS_DENIED).
 * With `roots` (every allowed directory) and an absolute root, paths follow the MCP rule
 * (ec_tool_resolve_in_roots) and must land in one of them, and under c->root (the MCP server's
 * is "/").
 */
bool ec_tool_path_inside(ec_tool_call *c, ec_str path, ec_str *rel);

/**
 * The MCP filesystem reference's rule (its validatePath, lexical half): an absolute path is
 * normalised ("." and ".." collapsed, trailing "/" dropped); a relative one is resolved against
 * each allowed directory in turn and the first result inside one of them wins, else against the
 * first. *abs gets the result; returns whether it lies inside an allowed directory.
 */
bool ec_tool_resolve_in_roots(ec_tool_call *c, ec_str path, ec_str *abs);
/** The directory relative paths start from: the first allowed directory, else the root. */
ec_str ec_tool_cwd(const ec_tool_call *c);
/** `path` equals `dir` or lies under it (both absolute and normalised). */
bool ec_tool_under(ec_str path, ec_str dir);

/** Lines (1-based) where `needle` starts in `hay`, both compared with CRLF as LF, non-overlapping;
 *  returns how many (only the first `max` stored). */
size_t ec_tool_exact_places(ec_tool_call *c, ec_str hay, ec_str needle, uint32_t *lines, size_t max);
/** A CRLF-free copy (CRLF -> LF); s itself when it has no CR. ptr NULL on OOM. */
ec_str ec_tool_lf(ec_tool_call *c, ec_str s);
/** `cat -n` of lines [first, last] (1-based, inclusive) of s: "%6d\t" + line + "\n" each. */
ec_str ec_tool_cat_n(ec_tool_call *c, ec_str s, size_t first, size_t last);

/**
 * Fails through t (code ENCODING) and returns false when the observed file's bytes start with a
 * UTF-16 or UTF-32 byte-order mark but could not be decoded exactly: the tool neither shows nor
 * edits it. Tools call it before their own NUL check (such bytes usually hold NULs).
 */
bool ec_tool_decoded(ec_tool_call *c, const ec_tool *t, ec_str path, const ec_obs *o);

/**
 * `part` of the observed file `o` as a model is shown it: as it is when the file is UTF-8 (or was
 * decoded), else each byte >= 0x80 as U+FFFD (text/encoding.h: the file's encoding is unknown,
 * and no guess is shown as its text). *note (may be NULL) is set to the sentence that says so for
 * such a file, empty otherwise. ptr NULL on OOM.
 */
ec_str ec_tool_shown(ec_tool_call *c, const ec_obs *o, ec_str part, ec_str path, ec_str *note);

/** Counts lines the way the engine's diff does ("a\nb" and "a\nb\n" both 2). */
size_t ec_tool_line_count(ec_str s);

#endif
