/*
 * What the MCP filesystem tools share (the reference @modelcontextprotocol/server-filesystem,
 * ../shared/peers/mcp_filesystem.md): its argument validation, worded as its zod schemas word it;
 * its path rule over every allowed directory; the observations it refuses; its CallToolResult
 * shape. Each tool (mcp_fs.c, mcp_read.c, mcp_dirs.c, mcp_apply.c) is built from these.
 */
#ifndef EC_TOOLS_MCP_COMMON_H
#define EC_TOOLS_MCP_COMMON_H
#include "tool.h"

/* Section - arguments */

typedef enum mcp_type {
  MCP_STRING,
  MCP_NUMBER,
  MCP_BOOLEAN,
  MCP_STRINGS,   /* an array of strings */
  MCP_ENUM,      /* one of `options` */
  MCP_EDITS      /* edit_file's array of {oldText, newText} */
} mcp_type;

typedef struct mcp_field {
  const char *name;
  mcp_type type;
  bool required;              /* absent (or null) is an issue; optional fields with a default accept absence only */
  size_t min_items;           /* MCP_STRINGS */
  const char *const *options; /* MCP_ENUM, NULL-terminated */
} mcp_field;

/**
 * Checks c->args against `fields` (terminated by a NULL name) as the reference's zod schema does:
 * every issue, in the schema's order, one a line ("Invalid input: expected string, received
 * number at path"), in the SDK's "MCP error -32602: Input validation error: Invalid arguments for
 * tool NAME: ..." answer (NAME: the tool's id without "mcp/"). Unknown keys are ignored, as zod
 * strips them. false: answered.
 */
bool mcp_check_args(ec_tool_call *c, const ec_tool *t, const mcp_field *fields);
/** A string argument checked by mcp_check_args (empty when absent). */
ec_str mcp_arg_str(ec_tool_call *c, const char *key);
/** A number argument (0 when absent, as the reference tests them for truthiness). */
double mcp_arg_num(ec_tool_call *c, const char *key);
/** The argument itself (NULL when absent). */
const cJSON *mcp_arg(const ec_tool_call *c, const char *key);

/* Section - paths */

/** The allowed directories joined with `sep` (", " in messages, "\n" in the listing). */
ec_str mcp_roots_joined(ec_tool_call *c, const char *sep);

/** How the plan reads a validated path. */
typedef enum mcp_read { MCP_READ_KIND, MCP_READ_CONTENT, MCP_READ_BYTES, MCP_READ_LIST } mcp_read;

/**
 * The reference's validatePath, lexical half, for `path` as sent: the absolute path (into *abs)
 * and the read, or false after answering its refusal (a Windows drive path, a path outside every
 * allowed directory). `how`: what the host is to report about it.
 */
bool mcp_path(ec_tool_call *c, const ec_tool *t, ec_str path, ec_str *abs, mcp_read how);
/** The arguments (mcp_check_args), then the argument `path` (mcp_path): the plan of most tools. */
bool mcp_path_args(ec_tool_call *c, const ec_tool *t, const mcp_field *fields, mcp_read how, ec_str *abs);
/** The same check without answering: the refusal's message in *why (read_multiple_files lists it). */
bool mcp_path_quiet(ec_tool_call *c, ec_str path, ec_str *abs, ec_str *why, mcp_read how);

/**
 * What the host met at `abs`, as the reference words it: NULL after answering — a link leading
 * out, the host's refusal in its own words, nothing there (Node's "ENOENT: no such file or
 * directory, <missing_op> '<path>'") or a directory ("EISDIR: illegal operation on a directory,
 * <dir_op>"). A NULL op accepts that case.
 */
const ec_obs *mcp_observed(ec_tool_call *c, const ec_tool *t, ec_str abs, const char *missing_op, const char *dir_op);
/** mcp_observed's message for an observation (ptr NULL when it is acceptable). */
ec_str mcp_obs_problem(ec_tool_call *c, const ec_obs *o, ec_str abs, const char *missing_op, const char *dir_op);
/** The path the reference names in messages about `abs`: the host's real path when it has one. */
ec_str mcp_shown(const ec_obs *o, ec_str abs);

/* Section - results */

/** A CallToolResult: one text item, and structuredContent.content on success (the outputSchema). */
void mcp_text(ec_tool_call *c, ec_str text, bool is_error);
/** The renderer of every MCP tool's failures: the message as an isError result. */
void mcp_fail(ec_tool_call *c, const char *code, ec_str message);
/** mcp_text with a printf message, success. */
void mcp_textf(ec_tool_call *c, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
