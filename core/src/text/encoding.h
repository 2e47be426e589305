/*
 * A file's encoding, as far as editing needs it (docs/protocol.md, "Encodings"). Every format
 * and every tool edits UTF-8 text with LF (or CRLF) line endings; this file turns a file's bytes
 * into that text and back, exactly, and states what may change in a file that is not UTF-8.
 *
 *   UTF-16 with a BOM   decoded to UTF-8 for editing, encoded back with the same BOM and byte
 *                       order: every character outside the edit is written back as it was read.
 *                       Bytes after the BOM that are not UTF-16 (an odd length, an unpaired
 *                       surrogate) and UTF-32 BOMs are refused (ENCODING).
 *   lone CR endings     a file with CRs and no LF at all (classic Mac) is edited as LF text and
 *                       every LF is written back as CR, so its lines are lines for every format.
 *                       A lone CR in a file that has LFs stays a character of its line.
 *   not UTF-8           (Latin-1, Shift-JIS, GBK, ... : any other bytes, without NUL) edited as
 *                       they are, under the rule of ec_text_keeps_bytes.
 */
#ifndef EC_TEXT_ENCODING_H
#define EC_TEXT_ENCODING_H
#include "../base/arena.h"

typedef enum ec_utf16 { EC_UTF16_NONE, EC_UTF16_LE, EC_UTF16_BE } ec_utf16;

typedef struct ec_encoding {
  ec_utf16 utf16; /* the bytes were UTF-16 after that BOM */
  bool cr;        /* the line endings were lone CRs */
} ec_encoding;

static inline bool ec_encoding_plain(const ec_encoding *e) { return e->utf16 == EC_UTF16_NONE && !e->cr; }

/**
 * The text a file's bytes hold, and how to write it back. Plain files are returned as they are
 * (no copy). EC_ENCODING when the bytes start with a UTF-16 or UTF-32 BOM but cannot be decoded
 * exactly: *problem then says why ("an unpaired surrogate at byte 10"), *text is the bytes.
 */
ec_error_code ec_text_decode(ec_arena *a, ec_str bytes, ec_str *text, ec_encoding *enc, ec_str *problem);

/**
 * The bytes to write for `text` (ec_text_decode's inverse): decoding them gives `text` again.
 * EC_ENCODING when no bytes would, *why then a phrase for "the new text ... cannot be written
 * back: <why>": the text is not UTF-8 and the file is UTF-16; or the file's lines end in a lone CR
 * and the text holds a CR (written back it would end a line the edit and its diff do not have).
 */
ec_error_code ec_text_encode(ec_arena *a, ec_str text, const ec_encoding *enc, ec_str *bytes, const char **why);

/** "UTF-16 LE", "UTF-16 BE", or "UTF-8" (a plain file). */
const char *ec_encoding_name(const ec_encoding *e);

/** The first offset at or after i of a byte >= 0x80 in p[0, n) (n: none), eight bytes at a time. */
size_t ec_ascii_end(const unsigned char *p, size_t i, size_t n);

/** The offset of the first byte of s that is not part of valid UTF-8 (s.len when every byte is). */
size_t ec_utf8_first_invalid(ec_str s);

/*
 * The rule for a file that is not UTF-8 (its encoding is unknown): an edit may change only ASCII
 * text, and every byte >= 0x80 stays, in order, together with the ASCII byte right after it
 * (0x30-0x7E: in Shift-JIS, GBK and Big5 the second byte of a two-byte character can be '\\',
 * '|', '@' or a letter; in GB18030 a digit can sit inside a four-byte character). Formally: split
 * a text into "runs" — a byte >= 0x80, then while the next byte is >= 0x80, or is 0x30-0x7E right
 * after a byte >= 0x80, that byte too — and the runs of `after` must equal the runs of `before`,
 * one for one, in order. The bytes between runs are ASCII characters in every ASCII-compatible
 * encoding (Latin-1 and the other ISO 8859 and Windows code pages, Shift-JIS, EUC-*, GBK,
 * GB18030, Big5), so changing only them never splits or rewrites a character.
 * Near misses it refuses on purpose: a Latin-1 'ï' followed by 'v' is one run (the 'v' might be a
 * second byte elsewhere), so "ve" alone is not edited there; text written right after such a byte
 * joins its run; new non-ASCII text, even valid UTF-8, is never written. Stateful 7-bit encodings
 * (ISO-2022-JP, HZ, UTF-7) are indistinguishable from ASCII and are not covered.
 */
typedef enum ec_kept_fault {
  EC_KEPT_OK,
  EC_KEPT_NEW_TEXT,   /* after holds non-ASCII text before did not have (at `at`, `after` offsets) */
  EC_KEPT_NEXT_TO,    /* a byte right after a byte >= 0x80 changes (at `at_before`) */
  EC_KEPT_CHANGED     /* a byte >= 0x80 of before is changed or removed (at `at_before`) */
} ec_kept_fault;

typedef struct ec_kept {
  ec_kept_fault fault;
  size_t at, at_len;  /* the offending run in `after` (NEW_TEXT) */
  size_t at_before;   /* the run's first byte in `before` (NEXT_TO, CHANGED) */
  size_t first_invalid; /* before's first byte that is not UTF-8 */
} ec_kept;

/**
 * Whether `after` keeps every byte of `before` that the rule protects. True at once when before
 * is valid UTF-8 (the rule is for files that are not). Linear in both lengths.
 */
bool ec_text_keeps_bytes(ec_str before, ec_str after, ec_kept *why);

/** The refusal, for the model: what the file is, what the edit would do, what to send instead. */
ec_str ec_text_kept_message(ec_arena *a, ec_str path, ec_str before, ec_str after, const ec_kept *why);

/**
 * How a text that is not UTF-8 is shown to a model: every byte >= 0x80 as U+FFFD, ASCII as it is
 * (a valid-looking UTF-8 sequence in a GBK file would otherwise show as a character it is not).
 * Returns s itself when it is valid UTF-8; *replaced counts the bytes shown as U+FFFD.
 */
ec_str ec_text_shown(ec_arena *a, ec_str s, size_t *replaced);

#endif
