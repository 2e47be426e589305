/*
 * What each tool looks like to a model: name, description, argument schema and prompt text.
 * One source for every host (CLI, WASI, npm, MCP): registry.c exports it in the OpenAI and
 * Anthropic function-calling forms. Peer tools keep their peer's names and parameters (checked
 * against the peers' current sources, docs/tools.md); descriptions are ours. The MCP filesystem
 * tools are in mcp_definitions.c.
 */
#include "definitions.h"

#define LOCK_PROPS                                                                                              \
  "\"expected_mtime_ms\":{\"type\":[\"integer\",\"null\"],\"description\":\"The file's stats.file_mtime_ms from "   \
  "your last Read; the call fails with CONFLICT if the file changed since.\"},"                                  \
  "\"expected_size_bytes\":{\"type\":[\"integer\",\"null\"],\"description\":\"The file's stats.file_size_bytes from " \
  "your last Read; the call fails with CONFLICT if the file changed since.\"}"

const ec_tool_def ec_tool_defs[] = {
    {"Edit", "Edit",
     "Replace one unique snippet in an existing file. old_string must occur exactly once in the file, copied "
     "exactly (whitespace and indentation included). Does not create files: use Write for that.",
     "{\"type\":\"object\",\"properties\":{"
     "\"path\":{\"type\":\"string\",\"description\":\"File path relative to the working directory (POSIX separators).\"},"
     "\"old_string\":{\"type\":\"string\",\"description\":\"The exact text to replace; it must occur exactly once.\"},"
     "\"new_string\":{\"type\":\"string\",\"description\":\"The text to put in its place.\"}," LOCK_PROPS ","
     "\"dry_run\":{\"type\":\"boolean\",\"default\":false,\"description\":\"Preview the diff without writing.\"}},"
     "\"required\":[\"path\",\"old_string\",\"new_string\"],\"additionalProperties\":false}",
     "To change a file, Read it right before editing, then call Edit with old_string copied exactly from the Read "
     "output: the same indentation and whitespace, without line numbers, with real newlines (never escaped \\n). "
     "old_string must match exactly one place: include 2-5 lines of surrounding context to make it unique. Pass "
     "expected_mtime_ms and expected_size_bytes from the Read. If the answer is CONFLICT, the file changed since "
     "you read it: Read it again and re-apply your change to what it holds now.",
     /* MCP (editcore-mcp): relative paths start at the first allowed directory */
     "Edit", "{\"readOnlyHint\":false,\"destructiveHint\":true,\"idempotentHint\":false,\"openWorldHint\":false}", NULL},
    {"Read", "Read",
     "Read a text file. Returns its text (optionally only some lines) and stats.file_mtime_ms / "
     "stats.file_size_bytes, to pass to Edit and Write as expected_mtime_ms / expected_size_bytes.",
     "{\"type\":\"object\",\"properties\":{"
     "\"path\":{\"type\":\"string\",\"description\":\"File path relative to the working directory.\"},"
     "\"offset\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"First line to return (1-based).\"},"
     "\"limit\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"How many lines to return.\"}},"
     "\"required\":[\"path\"],\"additionalProperties\":false}",
     "Read a file before you edit it, and keep its stats.file_mtime_ms and stats.file_size_bytes for the edit."},
    {"Write", "Write",
     "Create a file or replace its whole content (parent directories are created). The write is atomic.",
     "{\"type\":\"object\",\"properties\":{"
     "\"path\":{\"type\":\"string\",\"description\":\"File path relative to the working directory.\"},"
     "\"content\":{\"type\":\"string\",\"description\":\"The complete new content of the file.\"}," LOCK_PROPS ","
     "\"dry_run\":{\"type\":\"boolean\",\"default\":false,\"description\":\"Preview the diff without writing.\"}},"
     "\"required\":[\"path\",\"content\"],\"additionalProperties\":false}",
     "Use Write to create a file or to rewrite one completely; give the whole content, never a placeholder such as "
     "'... rest unchanged ...'. For changes to part of a file, use Edit."},

    /* Anthropic's text editor, text_editor_20250728 (no undo_edit), and the older one with undo_edit. */
    {"str_replace_based_edit_tool", "str_replace_based_edit_tool",
     "View, create and edit files: view shows a file with line numbers (or a directory's entries), create writes a "
     "new file, str_replace replaces one unique occurrence of old_str, insert adds new_str after line insert_line.",
     "{\"type\":\"object\",\"properties\":{"
     "\"command\":{\"type\":\"string\",\"enum\":[\"view\",\"create\",\"str_replace\",\"insert\"]},"
     "\"path\":{\"type\":\"string\",\"description\":\"Absolute path to the file or directory.\"},"
     "\"file_text\":{\"type\":\"string\",\"description\":\"create: the content of the file.\"},"
     "\"old_str\":{\"type\":\"string\",\"description\":\"str_replace: the exact text to replace (must be unique).\"},"
     "\"new_str\":{\"type\":\"string\",\"description\":\"str_replace: the replacement; insert: the text to insert.\"},"
     "\"insert_line\":{\"type\":\"integer\",\"description\":\"insert: the line after which new_str goes (0 = top).\"},"
     "\"view_range\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"},\"description\":\"view: [start, end] lines, 1-based; end -1 = to the end.\"}},"
     "\"required\":[\"command\",\"path\"]}",
     "Use view before editing. str_replace needs old_str to match exactly one place in the file, whitespace "
     "included."},
    {"str_replace_editor", "str_replace_editor",
     "View, create and edit files (Anthropic text_editor_20250124): view, create, str_replace, insert, and "
     "undo_edit, which reverts the last edit made to a file.",
     "{\"type\":\"object\",\"properties\":{"
     "\"command\":{\"type\":\"string\",\"enum\":[\"view\",\"create\",\"str_replace\",\"insert\",\"undo_edit\"]},"
     "\"path\":{\"type\":\"string\",\"description\":\"Absolute path to the file or directory.\"},"
     "\"file_text\":{\"type\":\"string\"},\"old_str\":{\"type\":\"string\"},\"new_str\":{\"type\":\"string\"},"
     "\"insert_line\":{\"type\":\"integer\"},\"view_range\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}},"
     "\"required\":[\"command\",\"path\"]}",
     "Use view before editing. str_replace needs old_str to match exactly one place; undo_edit reverts your last "
     "edit of a file."},
    {"openhands/str_replace_editor", "str_replace_editor",
     "Custom editing tool for viewing, creating and editing files (OpenHands): view, create, str_replace, insert, "
     "undo_edit. State is persistent across calls.",
     "{\"type\":\"object\",\"properties\":{"
     "\"command\":{\"type\":\"string\",\"enum\":[\"view\",\"create\",\"str_replace\",\"insert\",\"undo_edit\"]},"
     "\"path\":{\"type\":\"string\",\"description\":\"Absolute path to file or directory.\"},"
     "\"file_text\":{\"type\":\"string\"},\"old_str\":{\"type\":\"string\"},\"new_str\":{\"type\":\"string\"},"
     "\"insert_line\":{\"type\":\"integer\"},\"view_range\":{\"type\":\"array\",\"items\":{\"type\":\"integer\"}}},"
     "\"required\":[\"command\",\"path\"]}",
     "old_str must match exactly one place in the file, including whitespace; include enough context to make it "
     "unique."},

    /* Gemini CLI. */
    {"gemini/replace", "replace",
     "Replace text within a file. By default old_string must match exactly one place; set allow_multiple to replace "
     "every occurrence. old_string must be the literal text of the file, whitespace and indentation included, with "
     "enough context (at least 3 lines around the change) to be unique.",
     "{\"type\":\"object\",\"properties\":{"
     "\"file_path\":{\"type\":\"string\",\"description\":\"The path to the file to modify.\"},"
     "\"instruction\":{\"type\":\"string\",\"description\":\"A clear semantic description of the change.\"},"
     "\"old_string\":{\"type\":\"string\",\"description\":\"The exact literal text to replace.\"},"
     "\"new_string\":{\"type\":\"string\",\"description\":\"The exact literal text to put in its place.\"},"
     "\"allow_multiple\":{\"type\":\"boolean\",\"description\":\"Replace every occurrence instead of requiring one.\"}},"
     "\"required\":[\"file_path\",\"old_string\",\"new_string\"]}",
     ""},
    {"gemini/write_file", "write_file",
     "Write content to a file, creating it (and its parent directories) or overwriting it.",
     "{\"type\":\"object\",\"properties\":{"
     "\"file_path\":{\"type\":\"string\",\"description\":\"The path to the file to write to.\"},"
     "\"content\":{\"type\":\"string\",\"description\":\"The content to write.\"}},"
     "\"required\":[\"file_path\",\"content\"]}",
     ""},

    /* Cline. */
    {"cline/replace_in_file", "replace_in_file",
     "Replace sections of an existing file with SEARCH/REPLACE blocks: each block's SEARCH text must match the file "
     "exactly (whitespace included) and is replaced by its REPLACE text; several blocks go in file order.",
     "{\"type\":\"object\",\"properties\":{"
     "\"path\":{\"type\":\"string\",\"description\":\"The path of the file to modify, relative to the working directory.\"},"
     "\"diff\":{\"type\":\"string\",\"description\":\"One or more blocks: ------- SEARCH / exact text / ======= / new text / +++++++ REPLACE.\"}},"
     "\"required\":[\"path\",\"diff\"]}",
     "Each SEARCH section must match the file character for character; keep blocks short and in the order they "
     "appear in the file."},
    {"cline/write_to_file", "write_to_file",
     "Write a whole file (created, with its directories, or overwritten). Give the complete content.",
     "{\"type\":\"object\",\"properties\":{"
     "\"path\":{\"type\":\"string\",\"description\":\"The path of the file, relative to the working directory.\"},"
     "\"content\":{\"type\":\"string\",\"description\":\"The complete content of the file.\"}},"
     "\"required\":[\"path\",\"content\"]}",
     ""},
    {"cline/editor", "editor",
     "Edit a file: replace the one occurrence of old_text with new_text, or (with insert_line instead of old_text) "
     "insert new_text before line insert_line (1-based; one past the last line appends).",
     "{\"type\":\"object\",\"properties\":{"
     "\"path\":{\"type\":\"string\"},"
     "\"old_text\":{\"type\":\"string\",\"description\":\"The exact text to replace; it must occur once.\"},"
     "\"new_text\":{\"type\":\"string\",\"description\":\"The replacement, or the text to insert.\"},"
     "\"insert_line\":{\"type\":\"integer\",\"minimum\":1,\"description\":\"Insert before this line instead of replacing.\"}},"
     "\"required\":[\"path\",\"new_text\"]}",
     ""},

    /* Codex CLI, and the OpenAI Responses built-in apply_patch (one operation per call). */
    {"codex/apply_patch", "apply_patch",
     "Edit files with a patch: *** Begin Patch, then *** Add File: / *** Update File: / *** Delete File: sections "
     "(@@ context lines, then lines starting with space, - or +; *** Move to: renames), then *** End Patch. "
     "All files or none.",
     "{\"type\":\"object\",\"properties\":{"
     "\"input\":{\"type\":\"string\",\"description\":\"The whole patch, from *** Begin Patch to *** End Patch.\"}},"
     "\"required\":[\"input\"],\"additionalProperties\":false}",
     "Paths in the patch are relative to the working directory. Give 3 lines of context around each change and an "
     "@@ line naming the function or class when the context alone is not unique."},
    {"openai/apply_patch", "apply_patch",
     "One file operation: create_file (diff: the new file's lines, each starting with +), update_file (diff: @@ "
     "context sections with space, - and + lines, no *** Begin Patch envelope) or delete_file.",
     "{\"type\":\"object\",\"properties\":{"
     "\"type\":{\"type\":\"string\",\"enum\":[\"create_file\",\"update_file\",\"delete_file\"]},"
     "\"path\":{\"type\":\"string\"},"
     "\"diff\":{\"type\":\"string\",\"description\":\"create_file and update_file: the per-file diff.\"}},"
     "\"required\":[\"type\",\"path\"],\"additionalProperties\":false}",
     ""},

    /* The lazy-snippet edit_file of Cursor- and Morph-style agents, applied deterministically. */
    {"lazy/edit_file", "edit_file",
     "Propose an edit to a file: code_edit holds the changed code with the unchanged parts left out behind comments "
     "such as // ... existing code ..., with enough unchanged lines around each change to place it.",
     "{\"type\":\"object\",\"properties\":{"
     "\"target_file\":{\"type\":\"string\",\"description\":\"The file to edit, relative to the working directory.\"},"
     "\"instructions\":{\"type\":\"string\",\"description\":\"One sentence saying what the edit does.\"},"
     "\"code_edit\":{\"type\":\"string\",\"description\":\"The edited code, unchanged spans as // ... existing code ... comments.\"}},"
     "\"required\":[\"target_file\",\"instructions\",\"code_edit\"]}",
     "Show only the lines you change, each with 2-3 unchanged lines around it copied exactly, and mark every unchanged "
     "span you leave out with a comment in the file's language, e.g. // ... existing code .... Never leave out code "
     "without a marker: it would be deleted."},
};
const size_t ec_n_tool_defs = sizeof ec_tool_defs / sizeof ec_tool_defs[0];
