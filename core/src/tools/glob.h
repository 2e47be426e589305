/*
 * Glob patterns as the MCP filesystem reference matches them (minimatch with `dot: true`, in its
 * search_files and directory_tree): `*`, `?`, `[...]` classes (ranges, `!`/`^`, POSIX names),
 * `**` as a whole segment (any number of segments), `{a,b}` and `{1..3}` braces, the extglobs
 * `@(a|b)`, `?(...)`, `*(...)`, `+(...)`, `!(...)`, `\` escapes, a leading `!` negating and a
 * leading `#` matching nothing. Case-sensitive; `*` matches names that start with a dot.
 * Bounded: a pattern whose matching would backtrack without end stops and does not match.
 */
#ifndef EC_TOOLS_GLOB_H
#define EC_TOOLS_GLOB_H
#include "../base/arena.h"

/** Does the relative path `path` ("a/b/c.ts") match `pattern`? */
bool ec_glob_match(ec_arena *a, ec_str pattern, ec_str path);

#endif
