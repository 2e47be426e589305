/*
 * The tree-sitter side of a syntax scan: parse a text (and an edited copy of it, incrementally)
 * and write what the core needs in the wire form (../wire.h). The only file of the core that
 * sees tree-sitter's API, besides linked.c; built into the native and WASI engines and into
 * each of the browser's per-language modules (wasm/syntax_module.c), never into editcore.wasm.
 * Uses malloc/free, like the tree-sitter runtime under it (its allocator is process-wide:
 * docs/syntax.md).
 */
#ifndef EC_SYNTAX_TS_WALK_H
#define EC_SYNTAX_TS_WALK_H
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

/**
 * Scans `a` (and, when `b` is not NULL, `b` as an edited copy of `a`: one edit spanning the
 * bytes where they differ, reparsed from a's tree) with `lang` (NULL: no grammar). `def_types`
 * lists the node types that count as definitions, separated by spaces ("" for none; definitions
 * are only looked for when it is not empty, which walks the whole tree instead of only the
 * branches that hold errors). Returns the wire words (malloc'd; free with free()) and their
 * size in bytes in *bytes; NULL only when out of memory.
 */
uint32_t *ec_ts_scan(const TSLanguage *lang, const char *a, uint32_t a_len, const char *b, uint32_t b_len,
                     const char *def_types, size_t *bytes);

#endif
