/* Block owners by indentation (core/src/lazy/owners.c): what the lazy self-check reads as the
 * block each line belongs to, for blocks closed by keywords or by indentation alone. */
#include "test_util.h"
#include "lazy/lazy.h"
#include <stdint.h>
#include <string.h>

#define MAXL 64

/* Owners of the lines of `text` (split at '\n'), all from line 0. */
static size_t owners_of(const char *text, uint32_t *own) {
  static ec_str lines[MAXL];
  static uint32_t stack[2 * MAXL + 2];
  size_t n = 0;
  const char *p = text;
  while (*p && n < MAXL) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    lines[n++] = (ec_str){p, len};
    p += len + (e ? 1 : 0);
  }
  size_t seed;
  ec_lz_owners(lines, sizeof *lines, n, 0, n, 4, own, stack, &seed);
  return n;
}

int main(void) {
  uint32_t o[MAXL];
  /* Lua: `end` closes its function; a body line belongs to it; the next function is top level. */
  owners_of("local function a()\n  x()\nend\n\nlocal function b()\nend\n", o);
  CHECK(o[0] == EC_LZ_NONE && o[1] == 0 && o[2] == 0 && o[3] == EC_LZ_SKIP && o[4] == EC_LZ_NONE && o[5] == 4);
  /* `else` continues its `if`: the line under it and the `end` belong to the `if`. */
  owners_of("if x then\n  a()\nelse\n  b()\nend\n", o);
  CHECK(o[2] == 0 && o[3] == 0 && o[4] == 0);
  /* `} else {` likewise (brace languages), and Python's `elif`/`else`. */
  owners_of("if (x) {\n  a();\n} else {\n  b();\n}\n", o);
  CHECK(o[2] == 0 && o[3] == 0 && o[4] == 0);
  owners_of("def f(x):\n    if x:\n        a()\n    elif y:\n        b()\n    return x\n", o);
  CHECK(o[1] == 0 && o[3] == 1 && o[4] == 1 && o[5] == 0);
  /* A line closing a bracket later on it (`2)`, a call's hanging argument) is no closing line. */
  owners_of("def main():\n    v = fn(1,\n           2)\n    return v\n", o);
  CHECK(o[2] == 1 && o[3] == 0);
  /* Shell: `fi` closes its `if`, `done` its loop. */
  owners_of("main() {\n  if [ -d x ]; then\n    rm x\n  fi\n  for f in a b; do\n    echo $f\n  done\n}\n", o);
  CHECK(o[3] == 1 && o[6] == 4 && o[7] == 0);
  /* Multi-line strings are text: a Lua long string, a docstring, a heredoc (closing lines too). */
  owners_of("local function u()\n  io.write([[\nusage: x\n]])\n  return 1\nend\n", o);
  CHECK(o[2] == EC_LZ_SKIP && o[3] == EC_LZ_SKIP && o[4] == 0 && o[5] == 0);
  owners_of("def f():\n    \"\"\"Doc.\nMore at column 0.\n    \"\"\"\n    return 1\n", o);
  CHECK(o[2] == EC_LZ_SKIP && o[3] == EC_LZ_SKIP && o[4] == 0);
  owners_of("main() {\n  cat <<EOF\nusage\nEOF\n  exit 1\n}\n", o);
  CHECK(o[2] == EC_LZ_SKIP && o[3] == EC_LZ_SKIP && o[4] == 0 && o[5] == 0);
  /* A nested list's `[[` inside a line opens no string. */
  owners_of("x = [[1, 2],\n     [3, 4]]\ny = 1\n", o);
  CHECK(o[1] == 0 && o[2] == EC_LZ_NONE);
  /* Comments take no part, `--` ones too. */
  owners_of("function f()\n-- note at column 0\n  x()\nend\n", o);
  CHECK(o[1] == EC_LZ_SKIP && o[2] == 0 && o[3] == 0);
  TEST_MAIN_END();
}
