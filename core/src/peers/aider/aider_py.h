/*
 * The few pieces of Python that Aider's edit code leans on, reproduced byte for byte so the aider
 * profile parses and matches exactly as Aider does: str.splitlines, str.strip/lstrip (Unicode
 * whitespace), universal-newline reading, difflib.SequenceMatcher's match count (with its
 * "popular element" autojunk rule) and difflib.get_close_matches. Ratios are kept as integer
 * fractions (2*M / T), so no floating point decides anything.
 */
#ifndef EC_PEERS_AIDER_AIDER_PY_H
#define EC_PEERS_AIDER_AIDER_PY_H
#include "../../base/arena.h"

/** A list of byte strings living in the request arena. */
typedef struct ec_py_list {
  ec_str *items;
  size_t n, cap;
} ec_py_list;

ec_error_code ec_py_list_push(ec_arena *a, ec_py_list *l, ec_str s);

/** Length of the line terminator str.splitlines() sees at p (0 when none). */
size_t ec_py_eol_len(const char *p, size_t rem);
/** str.splitlines(keepends) into *out (appended). */
ec_error_code ec_py_splitlines(ec_arena *a, ec_str s, bool keepends, ec_py_list *out);

/** Byte length of the Unicode whitespace character (str.isspace) starting at p, or 0. */
size_t ec_py_space_fwd(const char *p, size_t rem);
/** Byte length of the whitespace character ending at p + len, or 0. */
size_t ec_py_space_back(const char *p, size_t len);
ec_str ec_py_lstrip(ec_str s);
ec_str ec_py_rstrip(ec_str s);
ec_str ec_py_strip(ec_str s);
/** s.strip(chars) / lstrip / rstrip for a set of ASCII characters. */
ec_str ec_py_strip_chars(ec_str s, const char *chars, bool left, bool right);
/** True when s.strip() is empty. */
bool ec_py_blank(ec_str s);
bool ec_py_startswith(ec_str s, ec_str prefix);
bool ec_py_endswith(ec_str s, ec_str suffix);
bool ec_py_contains_char(ec_str s, char c);
/** Number of code points (UTF-8; a stray byte counts as one). */
size_t ec_py_cplen(ec_str s);
/** Byte offset of code point n (clamped to the end). */
size_t ec_py_cp_offset(ec_str s, size_t n);
/** Python's s[:end] with a possibly negative end, in code points. */
ec_str ec_py_slice_to(ec_str s, int64_t end);
/** Path(p).name: the part after the last '/', trailing slashes ignored. */
ec_str ec_py_basename(ec_str p);
/** open(..., newline=None).read(): CRLF and lone CR become LF. Returns s when it holds no CR. */
ec_str ec_py_universal_newlines(ec_arena *a, ec_str s);
/** First index >= from where needle occurs in hay (byte search, linear), or SIZE_MAX. */
size_t ec_py_find(ec_arena *a, ec_str hay, ec_str needle, size_t from, bool *oom);

/** Interns byte strings to dense ids (exact equality). */
typedef struct ec_py_intern {
  ec_arena *arena;
  ec_str *keys;
  uint64_t *hashes;
  uint32_t *slots;   /* id + 1; 0 = empty */
  size_t n, cap_keys, n_slots;
} ec_py_intern;
ec_error_code ec_py_intern_init(ec_py_intern *t, ec_arena *a, size_t expect);
ec_error_code ec_py_intern_id(ec_py_intern *t, ec_str s, uint32_t *id);

/**
 * difflib.SequenceMatcher(None, a, b): the number of matched elements M of
 * get_matching_blocks() (ratio = 2*M / (la + lb)). `*work` is charged per inner step; when it
 * passes `budget` the call stops with EC_TOO_LARGE.
 */
typedef struct ec_py_matcher {
  ec_arena *arena;
  size_t cap;
  uint64_t *pairs;               /* b2j as (id << 32 | j), sorted */
  uint32_t *len0, *len1, *st0, *st1;
  uint32_t stamp;
  size_t *stack;
} ec_py_matcher;
void ec_py_matcher_init(ec_py_matcher *m, ec_arena *a);
ec_error_code ec_py_match_count(ec_py_matcher *m, const uint32_t *a, size_t la, const uint32_t *b, size_t lb,
                                uint64_t *work, uint64_t budget, size_t *matched);

/** Decodes UTF-8 into code points (a stray byte b becomes 0x110000 + b). */
ec_error_code ec_py_codepoints(ec_arena *a, ec_str s, uint32_t **out, size_t *n);

/**
 * difflib.get_close_matches(word, possibilities, n=1, cutoff=num/den): the index of the best
 * possibility (highest ratio, ties to the greater string), or SIZE_MAX when none reaches cutoff.
 */
ec_error_code ec_py_close_match(ec_arena *a, ec_str word, const ec_str *poss, size_t n_poss, uint32_t num,
                                uint32_t den, size_t *best);

#endif
