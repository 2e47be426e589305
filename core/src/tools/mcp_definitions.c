/*
 * The MCP filesystem tools as a model and an MCP client see them: the reference server's fourteen
 * (@modelcontextprotocol/server-filesystem 2026.8.31, its tools/list: names, titles, descriptions,
 * input and output schemas, annotations), then editcore's apply_edit. edit_file's description says
 * what editcore does differently (ambiguity refused, indentation and CRLF kept). registry.c
 * exports them with the other tools, and in the MCP form (tools/list) with their titles.
 */
#include "definitions.h"

#define MCP_TEXT_OUTPUT                                                                                       \
  "{\"type\":\"object\",\"properties\":{\"content\":{\"type\":\"string\"}},\"required\":[\"content\"],"     \
  "\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"additionalProperties\":false}"

const ec_tool_def ec_mcp_tool_defs[] = {
    {"mcp/read_file", "read_file",
     "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"tail\":{\"description\":\"If provided,"
     " returns only the last N lines of the file\",\"type\":\"number\"},\"head\":{\"description\":\"If provided, "
     "returns only the first N lines of the file\",\"type\":\"number\"}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Read File (Deprecated)",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/read_text_file", "read_text_file",
     "Read the complete contents of a file from the file system as text. Handles various text encodings and "
     "provides detailed error messages if the file cannot be read. Use this tool when you need to examine the "
     "contents of a single file. Use the 'head' parameter to read only the first N lines of a file, or the 'tail' "
     "parameter to read only the last N lines of a file. Operates on the file as text regardless of extension. "
     "Only works within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"tail\":{\"description\":\"If provided,"
     " returns only the last N lines of the file\",\"type\":\"number\"},\"head\":{\"description\":\"If provided, "
     "returns only the first N lines of the file\",\"type\":\"number\"}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Read Text File",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/read_media_file", "read_media_file",
     "Read a file and return it as a base64-encoded content block with its MIME type. Image and audio files are "
     "returned as image/audio content; any other file type is returned as an embedded resource. Only works within "
     "allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Read Media File",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     "{\"type\":\"object\",\"properties\":{\"content\":{\"type\":\"array\",\"items\":{\"anyOf\":[{\"type\":\"objec"
     "t\",\"properties\":{\"type\":{\"type\":\"string\",\"enum\":[\"image\",\"audio\"]},"
     "\"data\":{\"type\":\"string\"},\"mimeType\":{\"type\":\"string\"}},\"required\":[\"type\",\"data\","
     "\"mimeType\"],\"additionalProperties\":false},{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"stri"
     "ng\",\"const\":\"resource\"},\"resource\":{\"type\":\"object\",\"properties\":{\"uri\":{\"type\":\"string\"}"
     ",\"mimeType\":{\"type\":\"string\"},\"blob\":{\"type\":\"string\"}},\"required\":[\"uri\",\"blob\"],"
     "\"additionalProperties\":false}},\"required\":[\"type\",\"resource\"],\"additionalProperties\":false}]}}},"
     "\"required\":[\"content\"],\"$schema\":\"http://json-schema.org/draft-07/schema#\","
     "\"additionalProperties\":false}"},
    {"mcp/read_multiple_files", "read_multiple_files",
     "Read the contents of multiple files simultaneously. This is more efficient than reading files one by one "
     "when you need to analyze or compare multiple files. Each file's content is returned with its path as a "
     "reference. Failed reads for individual files won't stop the entire operation. Only works within allowed "
     "directories.",
     "{\"type\":\"object\",\"properties\":{\"paths\":{\"minItems\":1,\"type\":\"array\","
     "\"items\":{\"type\":\"string\"},\"description\":\"Array of file paths to read. Each path must be a string "
     "pointing to a valid file within allowed directories.\"}},\"required\":[\"paths\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Read Multiple Files",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/write_file", "write_file",
     "Create a new file or completely overwrite an existing file with new content. Use with caution as it will "
     "overwrite existing files without warning. Handles text content with proper encoding. Only works within "
     "allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}},"
     "\"required\":[\"path\",\"content\"],\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Write File",
     "{\"readOnlyHint\":false,\"destructiveHint\":true,\"idempotentHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/edit_file", "edit_file",
     "Make edits to a text file: each edit replaces one exact text sequence with new content; the edits apply in "
     "order and all or nothing. Returns a git-style diff of the changes. An oldText that matches several places "
     "is refused (add context) rather than applied at the first; whitespace at the ends of lines is forgiven, "
     "nested indentation and CRLF line endings are kept. Only works within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"edits\":{\"type\":\"array\","
     "\"items\":{\"type\":\"object\",\"properties\":{\"oldText\":{\"type\":\"string\",\"description\":\"Text to "
     "search for - must match exactly\"},\"newText\":{\"type\":\"string\",\"description\":\"Text to replace "
     "with\"}},\"required\":[\"oldText\",\"newText\"]}},\"dryRun\":{\"default\":false,\"description\":\"Preview "
     "changes using git-style diff format\",\"type\":\"boolean\"}},\"required\":[\"path\",\"edits\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Edit File",
     "{\"readOnlyHint\":false,\"destructiveHint\":true,\"idempotentHint\":false,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/create_directory", "create_directory",
     "Create a new directory or ensure a directory exists. Can create multiple nested directories in one "
     "operation. If the directory already exists, this operation will succeed silently. Perfect for setting up "
     "directory structures for projects or ensuring required paths exist. Only works within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Create Directory",
     "{\"readOnlyHint\":false,\"destructiveHint\":false,\"idempotentHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/list_directory", "list_directory",
     "Get a detailed listing of all files and directories in a specified path. Results clearly distinguish "
     "between files and directories with [FILE] and [DIR] prefixes. This tool is essential for understanding "
     "directory structure and finding specific files within a directory. Only works within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "List Directory",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/list_directory_with_sizes", "list_directory_with_sizes",
     "Get a detailed listing of all files and directories in a specified path, including sizes. Results clearly "
     "distinguish between files and directories with [FILE] and [DIR] prefixes. This tool is useful for "
     "understanding directory structure and finding specific files within a directory. Only works within allowed "
     "directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"sortBy\":{\"default\":\"name\","
     "\"description\":\"Sort entries by name or size\",\"type\":\"string\",\"enum\":[\"name\",\"size\"]}},"
     "\"required\":[\"path\"],\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "List Directory with Sizes",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/directory_tree", "directory_tree",
     "Get a recursive tree view of files and directories as a JSON structure. Each entry includes 'name', 'type' "
     "(file/directory), and 'children' for directories. Files have no children array, while directories always "
     "have a children array (which may be empty). The output is formatted with 2-space indentation for "
     "readability. Only works within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"excludePatterns\":{\"default\":[],"
     "\"type\":\"array\",\"items\":{\"type\":\"string\"}}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Directory Tree",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/move_file", "move_file",
     "Move or rename files and directories. Can move files between directories and rename them in a single "
     "operation. If the destination exists, the operation will fail. Works across different directories and can "
     "be used for simple renaming within the same directory. Both source and destination must be within allowed "
     "directories.",
     "{\"type\":\"object\",\"properties\":{\"source\":{\"type\":\"string\"},\"destination\":{\"type\":\"string\"}}"
     ",\"required\":[\"source\",\"destination\"],\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Move File",
     "{\"readOnlyHint\":false,\"destructiveHint\":true,\"idempotentHint\":false,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/search_files", "search_files",
     "Recursively search for files and directories matching a pattern. The patterns should be glob-style patterns "
     "that match paths relative to the working directory. Use pattern like '*.ext' to match files in current "
     "directory, and '**/*.ext' to match files in all subdirectories. Returns full paths to all matching items. "
     "Great for finding files when you don't know their exact location. Only searches within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"pattern\":{\"type\":\"string\"},"
     "\"excludePatterns\":{\"default\":[],\"type\":\"array\",\"items\":{\"type\":\"string\"}}},"
     "\"required\":[\"path\",\"pattern\"],\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Search Files",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/get_file_info", "get_file_info",
     "Retrieve detailed metadata about a file or directory. Returns comprehensive information including size, "
     "creation time, last modified time, permissions, and type. This tool is perfect for understanding file "
     "characteristics without reading the actual content. Only works within allowed directories.",
     "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"],"
     "\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Get File Info",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/list_allowed_directories", "list_allowed_directories",
     "Returns the list of directories that this server is allowed to access. Subdirectories within these allowed "
     "directories are also accessible. Use this to understand which directories and their nested paths are "
     "available before trying to access files.",
     "{\"type\":\"object\",\"properties\":{},\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "List Allowed Directories",
     "{\"readOnlyHint\":true,\"openWorldHint\":false}",
     MCP_TEXT_OUTPUT},
    {"mcp/apply_edit", "apply_edit",
     "Apply a model's edit reply as written - SEARCH/REPLACE blocks, unified diffs, Codex *** Begin Patch patches,"
     " whole files in fences - to the files it names (relative to the allowed directories, or absolute inside "
     "them); all files or none. Returns a summary and the diffs, or an error that says what to send next.",
     "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\",\"description\":\"The model's reply, in "
     "any edit dialect\"},\"dryRun\":{\"default\":false,\"description\":\"Preview only\",\"type\":\"boolean\"}},"
     "\"required\":[\"text\"],\"$schema\":\"http://json-schema.org/draft-07/schema#\"}",
     "", "Apply Edit",
     "{\"readOnlyHint\":false,\"destructiveHint\":true,\"idempotentHint\":false,\"openWorldHint\":false}",
     NULL},
};
const size_t ec_n_mcp_tool_defs = sizeof ec_mcp_tool_defs / sizeof ec_mcp_tool_defs[0];
