/*
 * Codex's sequence search (apply_patch's seek_sequence) on hashed line tables.
 *
 * A pattern of lines is looked for at or after a start line, level by level, each level over
 * the whole range before the next is tried (so an exact match further on beats a loose match
 * nearer): exact, trim_end, trim (Rust's Unicode whitespace), and trim plus Unicode punctuation
 * folding (dashes, curly quotes, odd spaces → ASCII). With `eof` only the last possible start
 * is tried. Each level keys every file line once (a 64-bit hash of its folded form) and slides a
 * polynomial window hash, so a search is linear in the range scanned, not range × pattern; a
 * window whose hash agrees is confirmed byte by byte. The positions scanned are counted against a
 * work budget, and the search stops with EC_TOO_LARGE beyond it.
 */
#ifndef EC_PARSE_CODEX_SEEK_H
#define EC_PARSE_CODEX_SEEK_H
#include "../base/arena.h"

typedef enum ec_seek_level {
  EC_SEEK_EXACT,
  EC_SEEK_TRIM_END,
  EC_SEEK_TRIM,
  EC_SEEK_UNICODE,
  EC_SEEK__LEVELS
} ec_seek_level;

typedef struct ec_seek_table {
  ec_arena *arena;
  const ec_str *lines;
  size_t n;
  uint64_t *key[EC_SEEK__LEVELS];     /* per line, built on first use of a level */
  uint64_t *prefix[EC_SEEK__LEVELS];  /* prefix[i] = window hash of lines [0, i) */
  uint64_t work, budget;              /* positions scanned so far, and the most allowed */
  char *scratch;                      /* folding buffer */
  size_t scratch_cap;
} ec_seek_table;

/** A table over `lines` (kept by reference). budget 0 = no limit. */
void ec_seek_init(ec_seek_table *t, ec_arena *a, const ec_str *lines, size_t n, uint64_t budget);

/**
 * The first start in [from, n - m] (with eof: only n - m, when from <= n - m) where pattern
 * matches at `level`.
 * *pos = SIZE_MAX when none. *next (may be NULL) = the second such start, or SIZE_MAX.
 * EC_TOO_LARGE past the budget, EC_OUT_OF_MEMORY.
 */
ec_error_code ec_seek_at_level(ec_seek_table *t, const ec_str *pat, size_t m, size_t from, bool eof,
                               ec_seek_level level, size_t *pos, size_t *next);

/**
 * Codex's seek_sequence: tries the levels in order; *pos = SIZE_MAX when none matched, else
 * the start and *level the level. An empty pattern matches at `from` (exact).
 */
ec_error_code ec_seek_find(ec_seek_table *t, const ec_str *pat, size_t m, size_t from, bool eof,
                           size_t *pos, ec_seek_level *level);

/** Whether two lines are equal at a level. */
bool ec_seek_line_eq(ec_seek_level level, ec_str a, ec_str b);

/** Rust's str::trim / trim_end / trim_start (char::is_whitespace), on UTF-8 bytes. */
ec_str ec_u8_trim(ec_str s);
ec_str ec_u8_trim_end(ec_str s);
ec_str ec_u8_trim_start(ec_str s);

/** The strategy name a level reports as (exact, trim_end, indent, unicode). */
ec_strategy ec_seek_level_strategy(ec_seek_level level);

#endif
