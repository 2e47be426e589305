/* Locating the chunks of a Codex `*** Update File` hunk: the first stage of the codex_patch format. */
#ifndef EC_FORMATS_CODEX_LOCATE_H
#define EC_FORMATS_CODEX_LOCATE_H
#include "../request/ctx.h"
#include "../parse/codex_patch_parse.h"
#include "../parse/codex_seek.h"

#define EC_CP_SEEK_BUDGET 400000000u /* window positions scanned per request */

/** File lines [start, start + old_len) replaced by new_lines. */
typedef struct ec_cp_run {
  size_t start, old_len;
  ec_str *new_lines;
  size_t n_new;
  size_t seq;                /* creation order: ties keep patch order */
} ec_cp_run;

/** One hunk being located: the caller fills everything above `runs` and initialises seek on lines. */
typedef struct ec_cp_locator {
  ec_ctx *ctx;
  bool codex;                /* profile codex (else editcore) */
  size_t hunk;               /* 0-based, for messages */
  const ec_cp_hunk *h;
  ec_ws_file *f;
  ec_str path;
  const ec_str *lines;       /* the file's lines as matched */
  size_t n;
  ec_seek_table seek;
  ec_cp_run *runs;           /* out: sorted by start */
  size_t n_runs, cap_runs;
} ec_cp_locator;

/**
 * Locates every chunk of st->h on st->lines and fills st->runs, sorted by start (runs at one place
 * in patch order). On failure the error is recorded (NO_MATCH, AMBIGUOUS, NOOP for a chunk already
 * applied, TOO_LARGE past EC_CP_SEEK_BUDGET) with the hunk and the chunk's line in the patch.
 */
ec_error_code ec_cp_locate(ec_cp_locator *st);

/** Sets the path, block (hunk + 1) and patch line of the last recorded error. */
void ec_cp_where(ec_ctx *ctx, ec_str path, size_t hunk, uint32_t line);

/** The lines joined by LF, plus a final LF when final_lf; a NULL ptr when out of memory. */
ec_str ec_cp_join_lines(ec_arena *a, const ec_str *ls, size_t n, bool final_lf);

#endif
