/*
 * A file as the engine edits it. Matching sees `text`: the content with its BOM stripped and
 * every CRLF folded to LF. What was folded is remembered per line (`cr`), so rendering gives back
 * the file's own bytes: unchanged lines keep their own endings even in a mixed file, and lines an
 * edit writes take the file's dominant ending. A CRLF file stays CRLF after any edit.
 */
#ifndef EC_TEXT_DOC_H
#define EC_TEXT_DOC_H
#include "../base/arena.h"

typedef enum ec_eol_style { EC_EOL_NONE, EC_EOL_LF, EC_EOL_CRLF, EC_EOL_MIXED } ec_eol_style;

typedef struct ec_doc {
  char *text;          /* LF-normalised, no BOM, NUL-terminated */
  size_t len;
  uint8_t *cr;         /* cr[i] != 0: the i-th LF of text was a CRLF */
  size_t n_lf;
  size_t longest_line; /* bytes of the longest line (without its ending), as loaded */
  bool bom;
  bool crlf_dominant;  /* new lines are written with CRLF */
  ec_eol_style eol;
} ec_doc;

/** One replacement in a doc's normalised coordinates; text is LF-only. */
typedef struct ec_splice {
  size_t start, end;
  ec_str text;
} ec_splice;

/** EC_BINARY_FILE when content holds a NUL byte; EC_OUT_OF_MEMORY; else EC_OK. */
ec_error_code ec_doc_load(ec_arena *a, ec_str content, ec_doc *out);
/** Applies sorted, non-overlapping splices, producing a new doc in *out (may alias doc). */
ec_error_code ec_doc_splice(ec_arena *a, const ec_doc *doc, const ec_splice *sp, size_t n, ec_doc *out);
/**
 * Replaces doc bytes [start, end) (start at a line start) by `text`, splicing only from the first
 * to the last line that differs, so every unchanged line keeps its own line ending and the diff
 * has less to look at. *out may alias doc; equal text leaves it as it is.
 */
ec_error_code ec_doc_replace_lines(ec_arena *a, const ec_doc *doc, size_t start, size_t end, ec_str text, ec_doc *out);
/** The bytes to write: BOM and line endings restored; doc->text itself when there is nothing to restore. ptr NULL on OOM. */
ec_str ec_doc_render(ec_arena *a, const ec_doc *doc);
/** Folds CRLF to LF in an edit string (old/new text). Returns s itself when it holds no CR. */
ec_str ec_text_normalize_eol(ec_arena *a, ec_str s);
/** 1-based line number of a byte offset in LF text (counts LFs before it). */
uint32_t ec_text_line_of(const char *text, size_t off);

#endif
