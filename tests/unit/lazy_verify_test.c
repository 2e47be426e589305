/* The lazy merge checks itself (issue 21): core/src/lazy/verify.c run on results written by hand,
 * one faithful and one for each failure it must catch — whatever merge produced them. */
#include "test_util.h"
#include "lazy_check.h"
#include "editcore.h"
#include "request/ctx.h"
#include "request/result.h"
#include "formats/formats.h"
#include <stdio.h>
#include <string.h>

static const char *FILE_JS =
    "import { a } from \"./a\";\n"
    "\n"
    "export function alpha(x) {\n"
    "  const y = x + 1;\n"
    "  return y * 2;\n"
    "}\n"
    "\n"
    "export function beta(list) {\n"
    "  let total = 0;\n"
    "  for (const item of list) {\n"
    "    total += item;\n"
    "  }\n"
    "  return total;\n"
    "}\n"
    "\n"
    "export function gamma(s) {\n"
    "  return s.trim();\n"
    "}\n";

static const char *SNIPPET =
    "// ... existing code ...\n"
    "export function beta(list) {\n"
    "  let total = 0;\n"
    "  for (const item of list) {\n"
    "    total += item * 2;\n"
    "  }\n"
    "  return total;\n"
    "}\n"
    "// ... existing code ...\n";

/* Runs the check of `result` as the merge of `snippet` into FILE_JS; returns the error code and
 * copies the message (empty on success). */
static ec_error_code check(const char *snippet, const char *result, char *msg, size_t cap) {
  return lazy_check("a.js", FILE_JS, snippet, result, msg, cap);
}

/* FILE_JS with one substitution. */
static const char *with(const char *from, const char *to) {
  static char buf[4096];
  const char *p = strstr(FILE_JS, from);
  if (!p) return FILE_JS;
  snprintf(buf, sizeof buf, "%.*s%s%s", (int)(p - FILE_JS), FILE_JS, to, p + strlen(from));
  return buf;
}

int main(void) {
  char msg[1024];
  /* The faithful merge passes. */
  CHECK_MSG(check(SNIPPET, with("    total += item;\n", "    total += item * 2;\n"), msg, sizeof msg) == EC_OK, "%s\n", msg);

  /* A snippet line missing from the result (the change never landed). */
  CHECK(check(SNIPPET, FILE_JS, msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "segment 1") && strstr(msg, "total += item"), "%s\n", msg);

  /* Code a marker keeps, deleted (gamma gone). */
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", with("    total += item;\n", "    total += item * 2;\n"));
  char *g = strstr(buf, "\nexport function gamma");
  if (g) g[1] = 0;
  CHECK(check(SNIPPET, buf, msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "segment 1") != NULL, "%s\n", msg);

  /* Marker text written into the file. */
  CHECK(check(SNIPPET, with("    total += item;\n", "    total += item * 2;\n  // ... existing code ...\n"), msg, sizeof msg) == EC_NO_MATCH);
  CHECK(strstr(msg, "marker") != NULL);

  /* A line the snippet never wrote, in the middle of its segment. */
  CHECK(check(SNIPPET, with("    total += item;\n", "    total += item * 2;\n    console.log(item);\n"), msg, sizeof msg) == EC_NO_MATCH);

  /* A line kept by a marker, changed (alpha's body). */
  snprintf(buf, sizeof buf, "%s", with("    total += item;\n", "    total += item * 2;\n"));
  char *y = strstr(buf, "y * 2");
  if (y) y[4] = '3';
  CHECK(check(SNIPPET, buf, msg, sizeof msg) == EC_NO_MATCH);
  CHECK(strstr(msg, "unchanged") != NULL);

  /* The segment written over the first half of another function, its second half left after
   * the new closing brace: brackets do not balance. */
  const char *over =
      "// ... existing code ...\n"
      "export function beta(list) {\n"
      "  return list.length;\n"
      "}\n"
      "// ... existing code ...\n";
  CHECK(check(over, with("  let total = 0;\n  for (const item of list) {\n", "  return list.length;\n}\n  for (const item of list) {\n"), msg, sizeof msg) ==
        EC_NO_MATCH);

  /* A removal between two lines the snippet shows next to each other is inside its span. */
  const char *drop =
      "// ... existing code ...\n"
      "export function beta(list) {\n"
      "  let total = 0;\n"
      "  return total;\n"
      "}\n"
      "// ... existing code ...\n";
  CHECK_MSG(check(drop, with("  for (const item of list) {\n    total += item;\n  }\n", ""), msg, sizeof msg) == EC_OK, "%s\n", msg);

  /* New lines that open a block and close it, right before the file's own `}` a marker keeps:
   * the new `}` closes the new block (not the kept line written twice). */
  const char *own =
      "// ... existing code ...\n"
      "    total += item;\n"
      "    if (item > 9) {\n"
      "      big++;\n"
      "    }\n"
      "// ... existing code ...\n";
  CHECK_MSG(check(own, with("    total += item;\n", "    total += item;\n    if (item > 9) {\n      big++;\n    }\n"), msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Precision: a `}` written new that closes no new block, before the kept `}` (the loop closed
   * twice) is still refused. */
  const char *stray =
      "// ... existing code ...\n"
      "    total += item;\n"
      "    count++;\n"
      "  }\n"
      "// ... existing code ...\n";
  CHECK(check(stray, with("    total += item;\n", "    total += item;\n    count++;\n  }\n"), msg, sizeof msg) == EC_NO_MATCH);

  /* Blocks closed by keywords (Lua `end`): the new function written right, after `a`'s `end`,
   * passes; the same lines with the file's `end` taken for the new function's (so `helper` sits
   * inside `a`, whose `end` now closes `helper`) are refused, though every line is there in order
   * and no bracket is unbalanced. */
  const char *lua = "local function a(x)\n  return x + 1\nend\n\nlocal function b(y)\n  return y * 2\nend\n";
  const char *lua_snip = "-- ... existing code ...\nlocal function helper(z)\n  return z - 1\nend\n\nlocal function b(y)\n-- ... existing code ...\n";
  CHECK_MSG(lazy_check("m.lua", lua, lua_snip,
                     "local function a(x)\n  return x + 1\nend\n\nlocal function helper(z)\n  return z - 1\nend\n\nlocal function b(y)\n  return y * 2\nend\n",
                     msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  CHECK(lazy_check("m.lua", lua, lua_snip,
                 "local function a(x)\n  return x + 1\nlocal function helper(z)\n  return z - 1\nend\n\nlocal function b(y)\n  return y * 2\nend\n", msg,
                 sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "close another block"), "%s\n", msg);
  /* A new `else` above a kept `end`: the `end` still closes its `if` (the `else` continues it). */
  CHECK_MSG(lazy_check("r.lua", "local function run(x)\n  if x then\n    start()\n  end\n  return x\nend\n",
                     "-- ... existing code ...\n  if x then\n    start()\n  else\n    stop()\n  end\n-- ... existing code ...\n",
                     "local function run(x)\n  if x then\n    start()\n  else\n    stop()\n  end\n  return x\nend\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Python, indentation only: a new top-level function one level too deep (inside the class the
   * snippet shows it after) is refused; at the top level it passes. */
  const char *py = "class P:\n    a: int\n\n\ndef f(x):\n    return x\n";
  const char *py_snip = "# ... existing code ...\nclass P:\n    a: int\n\n\ndef helper(y):\n    return y\n# ... existing code ...\n";
  CHECK_MSG(lazy_check("m.py", py, py_snip, "class P:\n    a: int\n\n\ndef helper(y):\n    return y\n\n\ndef f(x):\n    return x\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  CHECK(lazy_check("m.py", py, py_snip, "class P:\n    a: int\n\n\n    def helper(y):\n        return y\n\n\ndef f(x):\n    return x\n", msg, sizeof msg) ==
        EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "another block than the snippet writes it in"), "%s\n", msg);
  /* The lines of a multi-line string take no part: text at column 0 inside a Lua long string
   * written new under an indented call is no line one level too shallow. */
  const char *ls = "local function usage()\n  io.write([[\nold text\n]])\nend\n";
  CHECK_MSG(lazy_check("u.lua", ls, "-- ... existing code ...\n  io.write([[\nnew text\n]])\nend\n", "local function usage()\n  io.write([[\nnew text\n]])\nend\n", msg,
                     sizeof msg) == EC_OK,
            "%s\n", msg);

  /* A body rewritten with only short lines kept and a new function written right after it, one
   * segment: the file's closing `}` is the rewritten function's (the closer at its opener's
   * column), so the removed body lines lie inside what the snippet spans. (Before: refused, the
   * common suffix paired the file's `}` with the new function's.) */
  const char *go = "package q\n\nfunc (q *Q) Len() int {\n\tn := 0\n\tfor range q.items {\n\t\tn++\n\t}\n\treturn n\n}\n\nfunc (q *Q) Cap() int {\n\treturn cap(q.items)\n}\n";
  const char *go_snip = "// ... existing code ...\n\nfunc (q *Q) Len() int {\n\treturn len(q.items)\n}\n\nfunc (q *Q) Empty() bool {\n\treturn q.Len() == 0\n}\n\n// ... existing code ...\n";
  const char *go_res = "package q\n\nfunc (q *Q) Len() int {\n\treturn len(q.items)\n}\n\nfunc (q *Q) Empty() bool {\n\treturn q.Len() == 0\n}\n\nfunc (q *Q) Cap() int {\n\treturn cap(q.items)\n}\n";
  CHECK_MSG(lazy_check("q.go", go, go_snip, go_res, msg, sizeof msg) == EC_OK, "%s\n", msg);
  /* Precision: the same new function written inside the old body's place with the file's loop
   * left after it (the old body's second half kept) is still refused. */
  CHECK(lazy_check("q.go", go, go_snip,
                 "package q\n\nfunc (q *Q) Len() int {\n\treturn len(q.items)\n}\n\nfunc (q *Q) Empty() bool {\n\treturn q.Len() == 0\n}\n\treturn n\n}\n\nfunc (q *Q) Cap() int {\n\treturn cap(q.items)\n}\n",
                 msg, sizeof msg) == EC_NO_MATCH);

  /* A renamed copy beside its kept original: the call `paintSky()` rewritten as `paintNight()`, a
   * new `paintNight` written after the caller, the old `paintSky` kept behind the marker and
   * called nowhere now: refused by its own rule (replace the old one or add beside it?). */
  const char *js = "function frame() {\n  clear();\n  paintSky();\n}\n\nfunction paintSky() {\n  fill(\"#8cf\");\n}\n\nfunction clear() {\n  wipe();\n}\n";
  const char *js_snip = "// ... existing code ...\nfunction frame() {\n  clear();\n  paintNight();\n}\n\nfunction paintNight() {\n  fill(\"#013\");\n  stars();\n}\n// ... existing code ...\n";
  const char *js_res = "function frame() {\n  clear();\n  paintNight();\n}\n\nfunction paintNight() {\n  fill(\"#013\");\n  stars();\n}\n\nfunction paintSky() {\n  fill(\"#8cf\");\n}\n\nfunction clear() {\n  wipe();\n}\n";
  CHECK(lazy_check("f.js", js, js_snip, js_res, msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "renamed copy"), "%s\n", msg);
  /* ...but not when the old function is still called elsewhere in the result: a sibling. */
  const char *js2 = "function frame() {\n  clear();\n  paintSky();\n}\n\nfunction paintSky() {\n  fill(\"#8cf\");\n}\n\nfunction clear() {\n  wipe();\n  paintSky();\n}\n";
  const char *js2_res = "function frame() {\n  clear();\n  paintNight();\n}\n\nfunction paintNight() {\n  fill(\"#013\");\n  stars();\n}\n\nfunction paintSky() {\n  fill(\"#8cf\");\n}\n\nfunction clear() {\n  wipe();\n  paintSky();\n}\n";
  lazy_check("f.js", js2, js_snip, js2_res, msg, sizeof msg);
  CHECK_MSG(!strstr(msg, "renamed copy"), "%s\n", msg);

  TEST_MAIN_END();
}
