/* The tools' definitions as data: one entry per tool, its schema a JSON text (definitions.c). */
#ifndef EC_TOOLS_DEFINITIONS_H
#define EC_TOOLS_DEFINITIONS_H
#include <stddef.h>

typedef struct ec_tool_def {
  const char *id;          /* the dispatcher's name for it ("Edit", "mcp/edit_file", ...) */
  const char *name;        /* the name the model calls */
  const char *description; /* for the model */
  const char *schema;      /* JSON Schema of the arguments (JSON text) */
  const char *prompt;      /* system-prompt text that teaches the model the tool */
  /* MCP tools (NULL for the others): what tools/list says beside the above */
  const char *title;
  const char *annotations;   /* JSON object */
  const char *output_schema; /* JSON Schema of structuredContent; NULL: none */
} ec_tool_def;

extern const ec_tool_def ec_tool_defs[];
extern const size_t ec_n_tool_defs;
/* The MCP filesystem tools (mcp_definitions.c). */
extern const ec_tool_def ec_mcp_tool_defs[];
extern const size_t ec_n_mcp_tool_defs;

#endif
