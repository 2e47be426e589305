/*
 * What one syntax scan hands back, as 32-bit words: the errors (tree-sitter ERROR and MISSING
 * nodes) and the definitions of one text, or of two (a file before and after an edit). One
 * flat form for every build: natively and under WASI the walker (ts/walk.c) writes it in the
 * same process; in the browser a per-language module writes it in its own memory and the
 * package copies the words into the engine's (js/src/syntax.js), so the core reads the same
 * bytes everywhere (wire_read.c). No pointers, no padding, host byte order (both sides of a
 * copy are one machine).
 *
 *   header   MAGIC, VERSION, status (EC_SYN_WIRE_*), n_sides (1 or 2)
 *   per side stopped (1: the work budget ran out, nothing listed), total_errors, n_errors, n_defs,
 *            n_errors x {kind (EC_SYN_KIND_*), start_byte, end_byte, name (string index or NONE)},
 *            n_defs   x {start_byte, end_byte}
 *   strings  n_strings, then per string: byte length, bytes padded to a multiple of 4
 *
 * Byte offsets are into the text as scanned. Errors are listed in document order, at most
 * EC_SYN_WIRE_MAX_ERRORS per side (total_errors counts them all); an ERROR node's descendants
 * are not listed (its extent covers them). Definitions are listed in document order (outer
 * before inner), at most EC_SYN_WIRE_MAX_DEFS.
 */
#ifndef EC_SYNTAX_WIRE_H
#define EC_SYNTAX_WIRE_H

#define EC_SYN_WIRE_MAGIC 0x59534345u /* "ECSY" */
#define EC_SYN_WIRE_VERSION 1u
#define EC_SYN_WIRE_NONE 0xffffffffu

/* header status */
#define EC_SYN_WIRE_OK 0u
#define EC_SYN_WIRE_NO_GRAMMAR 1u /* this build (or this module) has no grammar by that name */
#define EC_SYN_WIRE_OOM 2u

/* error kinds */
#define EC_SYN_KIND_ERROR 0u   /* text the parser could not place */
#define EC_SYN_KIND_MISSING 1u /* a token the parser had to assume (name: the token, e.g. ")") */

#define EC_SYN_WIRE_MAX_ERRORS 256u
#define EC_SYN_WIRE_MAX_DEFS 65536u

/* Work budget: the parser reports progress every 100 of its operations; a scan stops (and says
 * so) after EC_SYN_WORK_BASE + bytes * EC_SYN_WORK_PER_BYTE reports. Measured: real files take
 * fewer than one report per 8 bytes (docs/syntax.md); the budget is 16 times that, so it only
 * stops an input that sends error recovery exploring. Deterministic on every build: the count
 * of operations does not depend on the machine. */
#define EC_SYN_WORK_BASE 100000u
#define EC_SYN_WORK_PER_BYTE 2u

#endif
