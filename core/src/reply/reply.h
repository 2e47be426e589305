/*
 * Format `reply`: a model's raw answer read as an edit (docs/reply.md).
 *
 * The work is split by job, one file each:
 *   fence.c     Markdown fences and the lines around them (what opens, what closes, info strings);
 *   names.c     file names: the line before a block, a fence's info string, path-looking words;
 *   detect.c    the walk over the reply that finds each edit and tells its dialect (regions);
 *   dispatch.c  each region run through the existing format (search_replace, unified_diff,
 *               codex_patch, whole_file) over the request's one workspace; parse_only's edits and
 *               paths;
 *   peer_aider.c  profile aider: the reply handed whole to Aider's own coders.
 * The format's entry point is reply_format.c. Nothing here applies an edit itself: parsing and
 * applying stay with the formats, so a reply and the same edit sent directly behave alike.
 */
#ifndef EC_REPLY_REPLY_H
#define EC_REPLY_REPLY_H
#include "../request/ctx.h"
#include "../base/str.h"

/** The `reply` format's entry (reply_format.c): finds the edits and runs each through the
 *  formats below (formats/), all or nothing; engine/apply.c dispatches to it like any format. */
ec_error_code ec_format_reply(ec_ctx *ctx);

/* Section - fences (fence.c) */

typedef struct ec_rp_fence {
  char ch;            /* '`' or '~' */
  size_t count;       /* how many */
  size_t indent;      /* bytes of white space before it */
  ec_str info;        /* the info string, trimmed ("python", "diff", "src/a.py") */
} ec_rp_fence;

/** Whether `line` opens a fence (any indentation, 3+ backticks or tildes; a backtick fence's info
 * holds no backtick). */
bool ec_rp_fence_open(ec_str line, ec_rp_fence *out);
/** Whether `line` closes `f`: the same character, at least as many, no more indented, nothing after. */
bool ec_rp_fence_closes(ec_str line, const ec_rp_fence *f);
/** Whether the fence's language says its body is a diff (diff, patch, udiff). */
bool ec_rp_fence_is_diff(const ec_rp_fence *f);
/** A line with the white space around it trimmed (EC_WS_HSPACE: a CR of CRLF included). */
static inline ec_str ec_rp_trim(ec_str s) { return ec_str_trim(s, EC_WS_HSPACE); }

/* Section - names (names.c) */

/** Whether s reads as a file path: no white space, a '.' or '/', not a sentence's last word. */
bool ec_rp_path_like(ec_str s);
/** The file a line names on its own (`a.py`, `# a.py`, `**a.py**:`, "Update `a.py`:"); len 0 when none. */
ec_str ec_rp_line_name(ec_str line);
/** The path of a `<path>src/a.ts</path>` line (Cline's and Roo's tool calls); len 0 when none. */
ec_str ec_rp_xml_path(ec_str line);
/** The file a fence's info string names (```a.py, ```python a.py, ```python:a.py); len 0 when none. */
ec_str ec_rp_fence_name(const ec_rp_fence *f);
/** A path as the workspace keys it: leading "./" dropped. */
ec_str ec_rp_clean_path(ec_str s);

/* Section - detection (detect.c) */

typedef struct ec_rp_region {
  ec_format dialect;  /* SEARCH_REPLACE (one block), UNIFIED_DIFF, CODEX_PATCH, WHOLE_FILE */
  size_t first, end;  /* lines [first, end) of the reply, 0-based */
  ec_str name;        /* the file named for it (name line, fence info, inherited, edit.path); len 0 = none */
  bool roo;           /* SEARCH_REPLACE: Roo's markers (`:start_line:`, `-------` after SEARCH) */
  uint32_t fence;     /* the fenced block holding it, numbered from 1; 0 = outside any */
} ec_rp_region;

typedef struct ec_rp_scan {
  ec_str text;        /* the reply, CRLF folded to LF */
  ec_str *lines;      /* without their LF */
  size_t n_lines;
  ec_rp_region *regions;
  size_t n_regions, cap_regions;
  ec_str *named_fences; /* plain fenced blocks naming a file, not read as edits (auto) */
  size_t n_named_fences, cap_named_fences;
} ec_rp_scan;

typedef enum ec_rp_mode {
  EC_RP_AUTO,
  EC_RP_ONLY_SEARCH_REPLACE,
  EC_RP_ONLY_UNIFIED_DIFF,
  EC_RP_ONLY_CODEX_PATCH,
  EC_RP_ONLY_WHOLE_FILE
} ec_rp_mode;

/**
 * Finds the edits of the reply (ctx's edit.text) in order. Fails with MALFORMED_EDIT (a block
 * holding two dialects, a dialect other than edit.dialect, no edit at all), TOO_LARGE or
 * OUT_OF_MEMORY, the error recorded.
 */
ec_error_code ec_rp_detect(ec_ctx *ctx, ec_rp_mode mode, ec_rp_scan *out);

/* Section - dispatch (dispatch.c) */

/** Runs every region through its format over ctx's workspace (all or nothing), or, for
 * parse_only, records data.edits and data.paths. */
ec_error_code ec_rp_dispatch(ec_ctx *ctx, const ec_rp_scan *scan);

/* Section - profile aider (peer_aider.c) */

/** The reply handed whole to Aider's own coder for its dialect (auto: the detector picks it). */
ec_error_code ec_rp_aider(ec_ctx *ctx, ec_rp_mode mode);

#endif
