/*
 * The tool registry and the tools' definitions: name, description, JSON schema and prompt text,
 * written once here as JSON strings, exported in both function-calling forms:
 *   {"tool_definitions": "openai"}     -> {"tools": [{"type": "function", "function": {name, description, parameters}}]}
 *   {"tool_definitions": "anthropic"}  -> {"tools": [{name, description, input_schema}]}
 *   {"tool_definitions": "raw"}        -> {"tools": [{id, name, description, input_schema, prompt}]}
 *   {"tool_definitions": "mcp"}        -> {"tools": [{id, name, title, description, inputSchema, outputSchema?,
 *                                          annotations, execution}]}: MCP's tools/list, for the tools MCP serves
 * with an optional "tools": [ids] choosing which (default: every tool).
 */
#include "tool.h"
#include "definitions.h"
#include "../base/str.h"
#include <string.h>

extern const ec_tool ec_tool_std_edit, ec_tool_std_read, ec_tool_std_write;
extern const ec_tool ec_tool_mcp_read_file, ec_tool_mcp_read_text_file, ec_tool_mcp_read_media_file,
    ec_tool_mcp_read_multiple_files, ec_tool_mcp_write_file, ec_tool_mcp_edit_file, ec_tool_mcp_create_directory,
    ec_tool_mcp_list_directory, ec_tool_mcp_list_directory_with_sizes, ec_tool_mcp_directory_tree, ec_tool_mcp_move_file,
    ec_tool_mcp_search_files, ec_tool_mcp_get_file_info, ec_tool_mcp_list_allowed_directories, ec_tool_mcp_apply_edit;
extern const ec_tool ec_tool_claude_text_editor, ec_tool_claude_str_replace_editor, ec_tool_openhands_editor;
extern const ec_tool ec_tool_gemini_replace, ec_tool_gemini_write_file;
extern const ec_tool ec_tool_codex_apply_patch, ec_tool_openai_apply_patch, ec_tool_cline_replace_in_file,
    ec_tool_cline_write_to_file, ec_tool_cline_editor, ec_tool_lazy_edit_file;

const ec_tool *const ec_tools[] = {
    &ec_tool_std_edit, &ec_tool_std_read, &ec_tool_std_write,
    /* the MCP filesystem reference's fourteen, in its order, then editcore's apply_edit */
    &ec_tool_mcp_read_file, &ec_tool_mcp_read_text_file, &ec_tool_mcp_read_media_file, &ec_tool_mcp_read_multiple_files,
    &ec_tool_mcp_write_file, &ec_tool_mcp_edit_file, &ec_tool_mcp_create_directory, &ec_tool_mcp_list_directory,
    &ec_tool_mcp_list_directory_with_sizes, &ec_tool_mcp_directory_tree, &ec_tool_mcp_move_file, &ec_tool_mcp_search_files,
    &ec_tool_mcp_get_file_info, &ec_tool_mcp_list_allowed_directories, &ec_tool_mcp_apply_edit,
    &ec_tool_claude_text_editor, &ec_tool_claude_str_replace_editor, &ec_tool_openhands_editor,
    &ec_tool_gemini_replace, &ec_tool_gemini_write_file,
    &ec_tool_cline_replace_in_file, &ec_tool_cline_write_to_file, &ec_tool_cline_editor,
    &ec_tool_codex_apply_patch, &ec_tool_openai_apply_patch, &ec_tool_lazy_edit_file,
};
const size_t ec_n_tools = sizeof ec_tools / sizeof ec_tools[0];

const ec_tool *ec_tool_find(ec_str id) {
  for (size_t i = 0; i < ec_n_tools; i++)
    if (ec_str_eq_cstr(id, ec_tools[i]->id)) return ec_tools[i];
  return NULL;
}

static const ec_tool_def *def_of(const char *id) {
  for (size_t i = 0; i < ec_n_tool_defs; i++)
    if (!strcmp(ec_tool_defs[i].id, id)) return &ec_tool_defs[i];
  for (size_t i = 0; i < ec_n_mcp_tool_defs; i++)
    if (!strcmp(ec_mcp_tool_defs[i].id, id)) return &ec_mcp_tool_defs[i];
  return NULL;
}

/* One tool as MCP's tools/list gives it (the SDK's field order), with the dispatcher's id. */
static void write_mcp_tool(ec_buf *out, const ec_tool_def *d) {
  ec_buf_append_cstr(out, "{\"id\":");
  ec_jstr(out, ec_cstr(d->id));
  ec_buf_append_cstr(out, ",\"name\":");
  ec_jstr(out, ec_cstr(d->name));
  ec_buf_append_cstr(out, ",\"title\":");
  ec_jstr(out, ec_cstr(d->title));
  ec_buf_append_cstr(out, ",\"description\":");
  ec_jstr(out, ec_cstr(d->description));
  ec_buf_printf(out, ",\"inputSchema\":%s", d->schema);
  if (d->output_schema) ec_buf_printf(out, ",\"outputSchema\":%s", d->output_schema);
  ec_buf_printf(out, ",\"annotations\":%s,\"execution\":{\"taskSupport\":\"forbidden\"}}", d->annotations);
}

static bool wanted(const cJSON *only, const char *id) {
  if (!only) return true;
  for (const cJSON *it = only->child; it; it = it->next)
    if (cJSON_IsString(it) && !strcmp(it->valuestring, id)) return true;
  return false;
}

char *ec_tool_definitions_json(ec_tool_call *c, const cJSON *root, ec_buf *out);

char *ec_tool_definitions_json(ec_tool_call *c, const cJSON *root, ec_buf *out) {
  (void)c;
  const cJSON *form = cJSON_GetObjectItemCaseSensitive(root, "tool_definitions");
  const cJSON *only = cJSON_GetObjectItemCaseSensitive(root, "tools");
  int kind = !cJSON_IsString(form) ? -1 : !strcmp(form->valuestring, "openai") ? 0
             : !strcmp(form->valuestring, "anthropic") ? 1 : !strcmp(form->valuestring, "raw") ? 2
             : !strcmp(form->valuestring, "mcp") ? 3 : -1;
  if (kind < 0 || (only && !cJSON_IsArray(only))) {
    ec_buf_append_cstr(out, "{\"phase\":\"error\",\"error\":{\"code\":\"INVALID_PARAM\",\"message\":\"tool_definitions must be "
                            "openai, anthropic, raw or mcp; tools (optional) an array of tool ids\"}}");
    return NULL;
  }
  ec_buf_append_cstr(out, "{\"tools\":[");
  bool first = true;
  if (kind == 3) {
    /* MCP's tools/list: the tools with an MCP title, the MCP filesystem ones first */
    for (int pass = 0; pass < 2; pass++)
      for (size_t i = 0; i < ec_n_tools; i++) {
        const ec_tool_def *d = def_of(ec_tools[i]->id);
        if (!d || !d->title || !wanted(only, d->id) || (pass == 0) != !strncmp(d->id, "mcp/", 4)) continue;
        if (!first) ec_buf_append_char(out, ',');
        first = false;
        write_mcp_tool(out, d);
      }
    ec_buf_append_cstr(out, "]}");
    return NULL;
  }
  for (size_t i = 0; i < ec_n_tools; i++) {
    const ec_tool_def *d = def_of(ec_tools[i]->id);
    if (!d || !wanted(only, d->id)) continue;
    if (!first) ec_buf_append_char(out, ',');
    first = false;
    if (kind == 0) {
      ec_buf_append_cstr(out, "{\"type\":\"function\",\"function\":{\"name\":");
      ec_jstr(out, ec_cstr(d->name));
      ec_buf_append_cstr(out, ",\"description\":");
      ec_jstr(out, ec_cstr(d->description));
      ec_buf_printf(out, ",\"parameters\":%s}}", d->schema);
    } else if (kind == 1) {
      ec_buf_append_cstr(out, "{\"name\":");
      ec_jstr(out, ec_cstr(d->name));
      ec_buf_append_cstr(out, ",\"description\":");
      ec_jstr(out, ec_cstr(d->description));
      ec_buf_printf(out, ",\"input_schema\":%s}", d->schema);
    } else {
      ec_buf_append_cstr(out, "{\"id\":");
      ec_jstr(out, ec_cstr(d->id));
      ec_buf_append_cstr(out, ",\"name\":");
      ec_jstr(out, ec_cstr(d->name));
      ec_buf_append_cstr(out, ",\"description\":");
      ec_jstr(out, ec_cstr(d->description));
      ec_buf_printf(out, ",\"input_schema\":%s,\"prompt\":", d->schema);
      ec_jstr(out, ec_cstr(d->prompt));
      ec_buf_append_char(out, '}');
    }
  }
  ec_buf_append_cstr(out, "]}");
  return NULL;
}
