/*
 * Shared pieces of the SEARCH/REPLACE dialects: splitting the model's text into lines, the
 * marker shapes Cline accepts, JavaScript's notion of whitespace (the peers trim with
 * String.prototype.trim), the strict block parser of the `editcore` profile and its
 * transactional applier.
 *
 * The editcore profile (SPEC §4, precision before recall):
 *   - markers: `------- SEARCH` / `=======` / `+++++++ REPLACE` and the legacy `<<<<<<< SEARCH` /
 *     `>>>>>>> REPLACE` (3 or more marker characters, an optional `>` after the word, trailing
 *     whitespace forgiven); prose and code fences outside blocks are ignored;
 *   - a marker that is almost right (`-------SEARCH`, `<<-- SEARCH`, `------- =======`), a stray
 *     separator or REPLACE marker, a block left open: MALFORMED_EDIT with the line and what was
 *     expected; `is_final: false` instead drops an incomplete last line and previews the blocks
 *     written so far (status partial), never failing on the block still being written;
 *   - every block is matched in the file as it was, with the profile's ladder, and must land on
 *     whole lines at exactly one place (blocks with identical SEARCH text that match exactly as
 *     many places as there are such blocks take them in order); blocks may come in any order but
 *     may not overlap; any failure applies nothing and names the block (error.block);
 *   - an empty SEARCH creates an absent file or fills an empty one; on a file with content it is
 *     refused (it would silently discard the whole file);
 *   - a block with several separator-shaped lines (text with '===' underlines) is read every way
 *     it can be split. The one reading whose SEARCH is found is applied; when several are found,
 *     the one split at the only exact '=======' among them; otherwise the block is MALFORMED_EDIT
 *     (ambiguous), as it is past EC_SR_MAX_SEPARATORS such lines.
 */
#ifndef EC_PARSE_SR_BLOCKS_H
#define EC_PARSE_SR_BLOCKS_H
#include "../request/ctx.h"

/* One reading of a block that holds several separator-shaped lines: split at sep_line. */
typedef struct ec_sr_reading {
  ec_str search, replace;
  uint32_t sep_line;
  bool canonical;           /* the line is exactly '=======', the marker models are taught */
} ec_sr_reading;

/* A block whose text holds more separator-shaped lines than this is refused: each is a possible
 * reading to try, and that work must stay bounded. */
#define EC_SR_MAX_SEPARATORS 16

typedef struct ec_sr_block {
  ec_str search, replace;   /* LF text, every line followed by '\n' (empty when the section is) */
  uint32_t line;            /* 1-based line of the SEARCH marker in the edit text */
  uint32_t sep_line;        /* line of the separator; 0 = none yet */
  bool complete;            /* its REPLACE marker was seen */
  int64_t start_hint;       /* Roo's :start_line: (0 = none) */
  /* A '===' line is also a Markdown or reStructuredText heading underline, so a line of the
   * file's own text can look like the separator. search/replace above split at the first such
   * line (as every peer reads it); when there are several, `readings` holds every split (the
   * first one included) for the strict applier to choose from. */
  const ec_sr_reading *readings;
  uint32_t n_readings;
} ec_sr_block;

typedef struct ec_sr_lines {
  ec_str *items;            /* JavaScript split("\n"): n = number of LFs + 1 */
  size_t n;
  size_t base;              /* empty lines before items[0] that have no item (ec_sr_parse_strict) */
} ec_sr_lines;

/** Splits LF text into lines (JS split semantics: "a\n" gives "a", ""). */
ec_error_code ec_sr_split(ec_arena *a, ec_str text, ec_sr_lines *out);

/** JavaScript's String.prototype.trim / trimEnd / trimStart (ASCII and Unicode white space). */
ec_str ec_sr_trim(ec_str s);
ec_str ec_sr_trim_end(ec_str s);
ec_str ec_sr_trim_start(ec_str s);

/* Cline's marker shapes: /^[-]{3,} SEARCH>?$/, /^[<]{3,} SEARCH>?$/, /^[=]{3,}$/,
 * /^[+]{3,} REPLACE>?$/, /^[>]{3,} REPLACE>?$/. */
bool ec_sr_is_search_start(ec_str line);
bool ec_sr_is_separator(ec_str line);
bool ec_sr_is_replace_end(ec_str line);

/** Parses the editcore grammar. On failure the error (MALFORMED_EDIT, line, block) is recorded. */
ec_error_code ec_sr_parse_strict(ec_ctx *ctx, ec_str text, bool is_final, ec_sr_block **out, size_t *n_out);

/** Applies blocks to f all-or-nothing under the editcore rules above. */
ec_error_code ec_sr_apply_strict(ec_ctx *ctx, ec_ws_file *f, const ec_sr_block *blocks, size_t n);

/** parse_only: records the blocks as data.blocks with the given path. */
ec_error_code ec_sr_emit_blocks(ec_ctx *ctx, ec_str path, const ec_sr_block *blocks, size_t n);

/** Replaces f's whole content by LF `text` (creates f when absent), touching only what differs. */
ec_error_code ec_sr_set_text(ec_ctx *ctx, ec_ws_file *f, ec_str text);

/* Bytes all SEARCH blocks of one request may search (each searches the whole file): 4 GiB, under
 * a second natively (docs/limits.md). */
#define EC_SR_SCAN_BUDGET ((uint64_t)4 << 30)

#endif
