/* The lazy merge's invariants (core/src/lazy/invariants.c, docs/lazy.md) checked on results
 * written by hand — whatever merge produced them: each invariant declines its violation, and its
 * near misses (the same shape, read soundly) pass. Also invariant (d)'s Python reading on programs
 * Python accepts and on programs it refuses for their indentation. */
#include "test_util.h"
#include "lazy_check.h"
#include "editcore.h"
#include "request/ctx.h"
#include "request/result.h"
#include "formats/formats.h"
#include "lazy/lazy.h"
#include "base/arena.h"
#include <stdio.h>
#include <string.h>

/* Python's indentation as invariant (d) reads it: the first line that does not fit (1-based), 0
 * when all do. */
static size_t py_unparsed(const char *text) {
  ec_str lines[256];
  size_t n = 0;
  const char *p = text;
  while (*p && n < 256) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    lines[n++] = (ec_str){p, len};
    p += len + (e ? 1 : 0);
  }
  ec_arena *a = ec_arena_new(NULL);
  size_t r = ec_lz_python_unparsed(lines, sizeof *lines, n, a);
  ec_arena_free(a);
  return r == SIZE_MAX ? 0 : r + 1;
}

static const char *CPP =
    "class R {\n"
    "public:\n"
    "    void frame(const Color& c) {\n"
    "        clear(c);\n"
    "\n"
    "        drawScene();\n"
    "        present();\n"
    "    }\n"
    "};\n";

static const char *PY =
    "import os\n"
    "\n"
    "\n"
    "def load(path):\n"
    "    return open(path).read()\n"
    "\n"
    "\n"
    "def parse(text):\n"
    "    return text.split()\n"
    "\n"
    "\n"
    "def main():\n"
    "    print(parse(load(os.environ['F'])))\n";

int main(void) {
  char msg[2048];

  /* ---- (a) Adjacent snippet lines stay adjacent. New lines, a blank line and a marker: the
   * file's `clear(c);` kept between the new line and that blank line is declined. */
  const char *a_snip = "// ... existing code ...\n    void frame(const Color& c) {\n        drawGradient(c);\n\n        // ... existing code ...\n";
  CHECK(lazy_check("r.cpp", CPP, a_snip,
              "class R {\npublic:\n    void frame(const Color& c) {\n        drawGradient(c);\n        clear(c);\n\n        drawScene();\n        present();\n    }\n};\n",
              msg, sizeof msg) == EC_AMBIGUOUS);
  CHECK_MSG(strstr(msg, "invariant a"), "%s\n", msg);
  /* Near misses: the blank line written after the new line (the literal reading) passes... */
  CHECK_MSG(lazy_check("r.cpp", CPP, a_snip,
                  "class R {\npublic:\n    void frame(const Color& c) {\n        drawGradient(c);\n\n        clear(c);\n\n        drawScene();\n        present();\n    }\n};\n",
                  msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* ...the same without the blank line in the snippet (the new line goes above) passes... */
  CHECK_MSG(lazy_check("r.cpp", CPP, "// ... existing code ...\n    void frame(const Color& c) {\n        drawGradient(c);\n        // ... existing code ...\n",
                  "class R {\npublic:\n    void frame(const Color& c) {\n        drawGradient(c);\n        clear(c);\n\n        drawScene();\n        present();\n    }\n};\n",
                  msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* ...and a line edited in place, then a blank line and a marker: the blank line is spacing. */
  CHECK_MSG(lazy_check("r.cpp", CPP, "// ... existing code ...\n    void frame(const Color& c) {\n        clear(c, true);\n\n        // ... existing code ...\n",
                  "class R {\npublic:\n    void frame(const Color& c) {\n        clear(c, true);\n\n        drawScene();\n        present();\n    }\n};\n",
                  msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Imports extended, a blank line, then a marker: a list ended, the blank line is spacing. */
  CHECK_MSG(lazy_check("m.py", PY, "import os\nimport sys\n\n# ... existing code ...\n",
                  "import os\nimport sys\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef parse(text):\n    return text.split()\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n",
                  msg, sizeof msg) == EC_OK,
            "%s\n", msg);

  /* ---- (b) One definition per name and scope: `parse` written again after `main`, the file's
   * kept behind the marker. */
  const char *b_snip = "# ... existing code ...\ndef main():\n    print(parse(load(os.environ['F'])))\n\n\ndef parse(text):\n    return text.split(',')\n";
  const char *b_res =
      "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef parse(text):\n    return text.split()\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n\n\ndef parse(text):\n    return text.split(',')\n";
  CHECK(lazy_check("m.py", PY, b_snip, b_res, msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "invariant b"), "%s\n", msg);
  /* Near miss: the snippet writes both definitions itself. */
  const char *b2_snip =
      "# ... existing code ...\ndef parse(text):\n    return text.split()\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n\n\ndef parse(text):\n    return text.split(',')\n";
  CHECK_MSG(lazy_check("m.py", PY, b2_snip, b_res, msg, sizeof msg) == EC_OK, "%s\n", msg);
  /* Near miss: a C++ overload (another parameter list) beside the kept one. */
  const char *cc = "struct S {\n    int f(int x) {\n        return x;\n    }\n};\n";
  CHECK_MSG(lazy_check("s.cc", cc, "struct S {\n    int f(int x) {\n        return x;\n    }\n\n    int f(double x) {\n        return (int)x;\n    }\n};\n",
                  "struct S {\n    int f(int x) {\n        return x;\n    }\n\n    int f(double x) {\n        return (int)x;\n    }\n};\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* ...but in JavaScript (no overloading) the same is two definitions of one name. */
  const char *js = "class S {\n  f(x) {\n    return x;\n  }\n\n  g() {\n    return 1;\n  }\n}\n";
  CHECK(lazy_check("s.js", js, "// ... existing code ...\n  g() {\n    return 1;\n  }\n\n  f(x, y) {\n    return x + y;\n  }\n// ... existing code ...\n",
              "class S {\n  f(x) {\n    return x;\n  }\n\n  g() {\n    return 1;\n  }\n\n  f(x, y) {\n    return x + y;\n  }\n}\n", msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "invariant b"), "%s\n", msg);
  /* A Lua function (its block ends in `end`, its line opens nothing) written again after others:
   * two definitions of `trim` in one scope. */
  const char *lua = "local M = {}\n\nlocal function trim(s)\n  return s\nend\n\nfunction M.join(c)\n  return c\nend\n\nreturn M\n";
  CHECK(lazy_check("m.lua", lua, "-- ... existing code ...\nfunction M.join(c)\n  return c\nend\n\nlocal function trim(s)\n  return (s:gsub(\"^%s+\", \"\"))\nend\n\n-- ... existing code ...\n",
              "local M = {}\n\nlocal function trim(s)\n  return s\nend\n\nfunction M.join(c)\n  return c\nend\n\nlocal function trim(s)\n  return (s:gsub(\"^%s+\", \"\"))\nend\n\nreturn M\n",
              msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "invariant b"), "%s\n", msg);
  /* Near miss: TypeScript overload signatures (ending in `;`) declare; only the body defines. */
  const char *ts = "export function f(a: any) {\n  return a;\n}\n";
  CHECK_MSG(lazy_check("f.ts", ts, "export function f(a: string): string;\nexport function f(a: number): number;\n// ... existing code ...\n",
                  "export function f(a: string): string;\nexport function f(a: number): number;\nexport function f(a: any) {\n  return a;\n}\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Near miss: a Python property's setter shares its getter's name by design. */
  const char *prop = "class P:\n    @property\n    def x(self):\n        return self._x\n";
  CHECK_MSG(lazy_check("p.py", prop, "# ... existing code ...\n        return self._x\n\n    @x.setter\n    def x(self, v):\n        self._x = v\n",
                  "class P:\n    @property\n    def x(self):\n        return self._x\n\n    @x.setter\n    def x(self, v):\n        self._x = v\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Near miss: Go methods of one name on two receivers. */
  const char *go = "package p\n\nfunc (a *A) Len() int {\n\treturn 1\n}\n";
  CHECK_MSG(lazy_check("p.go", go, "// ... existing code ...\n\treturn 1\n}\n\nfunc (b *B) Len() int {\n\treturn 2\n}\n",
                  "package p\n\nfunc (a *A) Len() int {\n\treturn 1\n}\n\nfunc (b *B) Len() int {\n\treturn 2\n}\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Near miss: the same name in two scopes (a method and a function). */
  const char *py2 = "class C:\n    def run(self):\n        return 1\n";
  CHECK_MSG(lazy_check("c.py", py2, "# ... existing code ...\n        return 1\n\n\ndef run():\n    return C().run()\n",
                  "class C:\n    def run(self):\n        return 1\n\n\ndef run():\n    return C().run()\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);

  /* ---- (c) A new block between two markers has one place: written in the middle of the file
   * with file lines kept on both sides, declined; right after the segment before it (the marker
   * between them standing for nothing), it passes. */
  const char *c_snip = "# ... existing code ...\ndef load(path):\n    return open(path).read()\n# ... existing code ...\ndef helper(x):\n    return x * 2\n# ... existing code ...\n";
  CHECK(lazy_check("m.py", PY, c_snip,
              "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef parse(text):\n    return text.split()\n\n\ndef helper(x):\n    return x * 2\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n",
              msg, sizeof msg) == EC_AMBIGUOUS);
  CHECK_MSG(strstr(msg, "invariant c"), "%s\n", msg);
  CHECK_MSG(lazy_check("m.py", PY, c_snip,
                  "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef helper(x):\n    return x * 2\n\n\ndef parse(text):\n    return text.split()\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n",
                  msg, sizeof msg) == EC_OK,
            "%s\n", msg);
  /* Near miss: a block that rewrites a line (a changed signature) is placed by what it replaces. */
  CHECK_MSG(lazy_check("m.py", PY, "# ... existing code ...\ndef parse(text, sep=None):\n    return text.split(sep)\n# ... existing code ...\n",
                  "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef parse(text, sep=None):\n    return text.split(sep)\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n",
                  msg, sizeof msg) == EC_OK,
            "%s\n", msg);

  /* ---- (d) What parsed still parses: a top-level function landed one level deep, its body at
   * the def's column. */
  CHECK(lazy_check("m.py", PY, "# ... existing code ...\n    return text.split()\n\n\ndef count(text):\n    return len(parse(text))\n# ... existing code ...\n",
              "import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef parse(text):\n    return text.split()\n\n\n    def count(text):\n    return len(parse(text))\n\n\ndef main():\n    print(parse(load(os.environ['F'])))\n",
              msg, sizeof msg) == EC_NO_MATCH);
  CHECK_MSG(strstr(msg, "invariant d") || strstr(msg, "another block"), "%s\n", msg);
  /* Near miss: a file that did not parse before is no reason to decline. */
  const char *broken = "def f():\nreturn 1\n\n\ndef g():\n    return 2\n";
  CHECK_MSG(lazy_check("b.py", broken, "# ... existing code ...\ndef g():\n    return 3\n", "def f():\nreturn 1\n\n\ndef g():\n    return 3\n", msg, sizeof msg) == EC_OK,
            "%s\n", msg);

  /* ---- (d)'s Python reading. Accepted by Python: */
  CHECK(py_unparsed("def f(x):\n    if x:\n        return (1,\n  2)\n    return 0\n") == 0);
  CHECK(py_unparsed("s = '''\nnot code:\n      at all\n'''\nclass A:\n    pass\n") == 0);
  CHECK(py_unparsed("x = 1 + \\\n        2\nif x:\n    y = \"a\\\nb\"\n    # comment at any column\n            # another\n    z = 3\n") == 0);
  CHECK(py_unparsed("def f():\n\tif 1:\n\t\treturn 2\n\treturn 3\n") == 0);
  CHECK(py_unparsed("d = {\n    'a': 1,\n}\nfor k in d: print(k)\nelse:\n    pass\n") == 0);
  /* Refused by Python (IndentationError), found at the line Python names: */
  CHECK(py_unparsed("def f():\nreturn 1\n") == 2);                        /* expected an indented block */
  CHECK(py_unparsed("x = 1\n    y = 2\n") == 2);                          /* unexpected indent */
  CHECK(py_unparsed("if x:\n        a = 1\n    b = 2\n") == 3);           /* unindent does not match */
  CHECK(py_unparsed("class A:\n    def f(self):\n        pass\n  x = 1\n") == 4);

  TEST_MAIN_END();
}
