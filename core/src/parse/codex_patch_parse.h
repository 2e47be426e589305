/*
 * The `*** Begin Patch` grammar of OpenAI Codex's apply_patch, parsed into hunks.
 *
 *   *** Begin Patch
 *   *** Add File: <path>        then '+' lines (the new file's lines)
 *   *** Delete File: <path>
 *   *** Update File: <path>     then optionally '*** Move to: <path>', then chunks:
 *   @@ [context line]           (may be left out before the first chunk)
 *    context / -removed / +added lines; an empty line is an empty context line
 *   *** End of File             (the chunk's old lines end the file)
 *   *** End Patch
 *
 * Two modes. `codex` is Codex 0.169's lenient parser exactly: the text is trimmed, markers may be
 * padded, a heredoc wrapper (<<EOF, <<'EOF', <<"EOF" … EOF) is dropped, CRLF patch text parses,
 * and errors carry Codex's own wording and line numbers. `editcore` accepts the same and also:
 * consecutive `@@` lines (nested context: each narrows the search), unified-diff `@@ -a,b +c,d @@`
 * headers (their numbers ignored, the text after the second `@@` taken as context), a markdown
 * fence or any heredoc delimiter (optionally after `apply_patch`) around the patch, blank lines
 * between hunks, an indented `*** Move to:`, and `\ No newline at end of file` lines (ignored).
 * Its errors name the line of edit.text and what was expected there.
 */
#ifndef EC_PARSE_CODEX_PATCH_PARSE_H
#define EC_PARSE_CODEX_PATCH_PARSE_H
#include "../base/arena.h"

typedef enum ec_cp_op { EC_CP_ADD, EC_CP_DELETE, EC_CP_UPDATE } ec_cp_op;

typedef struct ec_cp_line {
  char kind;            /* ' ' context, '-' removed, '+' added */
  bool blank;           /* an empty patch line read as an empty context line */
  ec_str text;          /* without the prefix character */
} ec_cp_line;

typedef struct ec_cp_chunk {
  ec_str *contexts;     /* the `@@ text` lines leading to the chunk, outermost first */
  size_t n_contexts;
  ec_cp_line *lines;
  size_t n_lines;
  bool eof;             /* `*** End of File` */
  uint32_t line;        /* 1-based line of edit.text where the chunk starts */
} ec_cp_chunk;

typedef struct ec_cp_hunk {
  ec_cp_op op;
  ec_str path;
  ec_str move_to;       /* Update only; empty = no move */
  ec_str content;       /* Add only: every '+' line followed by LF */
  ec_cp_chunk *chunks;  /* Update only */
  size_t n_chunks;
  uint32_t line;        /* 1-based line of edit.text holding the hunk's header */
} ec_cp_hunk;

typedef struct ec_cp_patch {
  ec_cp_hunk *hunks;
  size_t n_hunks;
} ec_cp_patch;

typedef struct ec_cp_parse_error {
  ec_str message;       /* in the mode's wording */
  uint32_t line;        /* 1-based line of edit.text; 0 = the patch as a whole */
} ec_cp_parse_error;

/**
 * Parses `text`. EC_OK, EC_MALFORMED_EDIT with *err filled, or EC_OUT_OF_MEMORY.
 * Everything points into `text` or the arena.
 */
ec_error_code ec_cp_parse(ec_arena *a, ec_str text, bool editcore, ec_cp_patch *out, ec_cp_parse_error *err);

#endif
