#!/usr/bin/env python3
"""Writes tests/conformance/vectors/line-breaks.jsonl: the line breaks an edit starts and ends with
(core/src/match/line_breaks.h), for every strategy of the ladder, in the replace, search_replace and
unified_diff formats, with near misses.

    python3 tests/conformance/gen/line_breaks_vectors.py

The rule under test: old_string = A.X.B, new_string = A'.Y.B' (A, B: the blank lines each starts and
ends with). A loose match of X keeps the file's bytes above/below when |A| = |A'| (|B| = |B'|), adds
or removes the difference otherwise (removing whole blank lines only), and never joins two lines.
Each vector names the strategy it must be matched by, so a change of ladder shows up here.
"""
import json
import os

OUT = os.path.join(os.path.dirname(__file__), '..', 'vectors', 'line-breaks.jsonl')
SRC = 'editcore issue 30 item 1 (a blank line lost by a regex match of an old_string led by a line break)'

C = "int f(void)\n{\n    int i = 0;\n\n    for(i=0;i<10; i++)\n    {\n        g(i);\n    }\n    return i;\n}\n"
vectors = []


def vec(name, files, edit, expect, fmt='replace', options=None):
    v = {"id": f"line-breaks#{name}", "peer": "editcore", "source": SRC, "format": fmt, "files": files, "edit": edit, "expect": expect}
    if options:
        v["options"] = options
    vectors.append(v)


def ok(path, content, strategy=None):
    e = {"ok": True, "files": {path: content}}
    if strategy:
        e["strategy"] = strategy
    return e


def refused(kind, includes):
    return {"ok": False, "error_kind": kind, "message_includes": includes}


# ---- the reproduction: both start with a line break (context), regex -------------------
FOR_NEW = C.replace("for(i=0;i<10; i++)", "for (i = 0; i < 20; i++)")
vec("regex: old and new led by a line break keep the blank line above (the issue's reproduction)",
    {"a.c": C}, {"old_string": "\n    for(i = 0; i < 10; i++)\n    {", "new_string": "\n    for (i = 0; i < 20; i++)\n    {"},
    ok("a.c", FOR_NEW, "regex"))
vec("regex: old led by a line break that new drops removes the blank line above (the fix it came with)",
    {"a.c": C}, {"old_string": "\n    for(i = 0; i < 10; i++)\n    {", "new_string": "    for (i = 0; i < 20; i++)\n    {"},
    ok("a.c", FOR_NEW.replace("int i = 0;\n\n", "int i = 0;\n"), "regex"))
vec("regex: near miss: the line above is not blank, so dropping the leading break would join two lines: refused",
    {"a.c": C}, {"old_string": "\n    {\n        g( i );", "new_string": "    {\n        h(i);"},
    refused("no_match", "would join two lines"))
vec("regex: new adds a leading line break old lacks: one blank line added above",
    {"a.c": C}, {"old_string": "    for(i = 0; i < 10; i++)", "new_string": "\n    for (i = 0; i < 20; i++)"},
    ok("a.c", FOR_NEW.replace("int i = 0;\n\n", "int i = 0;\n\n\n"), "regex"))
vec("regex: old and new end with a line break and a blank line: the blank line below stays",
    {"a.c": "int a;\nint  b;\n\nint c;\n"}, {"old_string": "int b;\n\n", "new_string": "int bb;\n\n"},
    ok("a.c", "int a;\nint bb;\n\nint c;\n", "regex"))
vec("regex: old ends with a blank line new drops: the blank line below goes",
    {"a.c": "int a;\nint  b;\n\nint c;\n"}, {"old_string": "int b;\n\n", "new_string": "int bb;\n"},
    ok("a.c", "int a;\nint bb;\nint c;\n", "regex"))
vec("regex: near miss: old ends with a line break new drops and the next line has text: refused",
    {"a.c": "int a;\nint  b;\nint c;\n"}, {"old_string": "int b;\n", "new_string": "int bb;"},
    refused("no_match", "would join two lines"))
vec("regex: dropping the file's final line break joins nothing",
    {"a.c": "int a;\nint  b;\n"}, {"old_string": "int b;\n", "new_string": "int bb;"},
    ok("a.c", "int a;\nint bb;", "regex"))
vec("regex: a deletion led by a line break removes the line, not the break of the line above",
    {"a.c": "int a;\n\nint  b;\nint c;\n"}, {"old_string": "\nint b;\n", "new_string": ""},
    ok("a.c", "int a;\nint c;\n", "regex"))
vec("regex: old names two blank lines above, the file has none, new one: nothing above changes",
    {"a.c": "int a;\nint  b;\n"}, {"old_string": "\n\nint b;", "new_string": "\nint bb;"},
    ok("a.c", "int a;\nint bb;\n", "regex"))
vec("regex: old names one break above, the file has two blank lines, new none: the nearest blank line goes",
    {"a.c": "int a;\n\n\nint  b;\n"}, {"old_string": "\nint b;", "new_string": "int bb;"},
    ok("a.c", "int a;\n\nint bb;\n", "regex"))
vec("regex: the blank first line of a file removed (old led by its break, new not)",
    {"a.js": "\nvar  express = require('express');\nvar app = express();\n"},
    {"old_string": "\nvar express = require('express');", "new_string": "var express = require('express');"},
    ok("a.js", "var express = require('express');\nvar app = express();\n", "regex"))

# ---- trim_end: a leading line break read as a blank line; its spaces are the file's ---------------
T = "x = 1\n   \ny = 2  \nz = 3\n"
vec("trim_end: old and new led by a line break keep the file's blank line as it is (its spaces too)",
    {"a.py": T}, {"old_string": "\ny = 2\n", "new_string": "\ny = 20\n"},
    ok("a.py", "x = 1\n   \ny = 20\nz = 3\n", "trim_end"))
vec("trim_end: old led by a line break new drops: the blank line (spaces and all) goes",
    {"a.py": T}, {"old_string": "\ny = 2\n", "new_string": "y = 20\n"},
    ok("a.py", "x = 1\ny = 20\nz = 3\n", "trim_end"))
vec("trim_end: near miss: old ends with a line break new drops, next line has text: refused",
    {"a.py": T}, {"old_string": "y = 2\n", "new_string": "y = 20"},
    refused("no_match", "would join two lines"))

# ---- indent: re-indented lines ------------------------------------------------------------------
P = "def f():\n    a = 1\n\n    b = 2\n    return a\n"
vec("indent: old and new led by a line break (re-indented): the blank line above stays",
    {"a.py": P}, {"old_string": "\nb = 2\nreturn a\n", "new_string": "\nb = 3\nreturn a\n"},
    ok("a.py", "def f():\n    a = 1\n\n    b = 3\n    return a\n", "indent"))
vec("indent: old led by a line break new drops: the blank line above goes",
    {"a.py": P}, {"old_string": "\nb = 2\nreturn a\n", "new_string": "b = 3\nreturn a\n"},
    ok("a.py", "def f():\n    a = 1\n    b = 3\n    return a\n", "indent"))

# ---- unicode: typographic quotes; its line breaks are literal --------------------------------------
U = "a = 1\n\nb = \"x\"\nc = 3\n"
vec("unicode: old and new led by a line break: the blank line above stays",
    {"a.py": U}, {"old_string": "\nb = \u201cx\u201d\n", "new_string": "\nb = \u201cy\u201d\n"},
    ok("a.py", "a = 1\n\nb = \"y\"\nc = 3\n", "unicode"))
vec("unicode: near miss: dropping the break of a line with text (literal for exact) is refused for a loose match",
    {"a.py": "a = 1\nb = \"x\"\nc = 3\n"}, {"old_string": "\nb = \u201cx\u201d", "new_string": "b = \u201cy\u201d"},
    refused("no_match", "would join two lines"))

# ---- anchor: a middle line differs ------------------------------------------------------------------
A = "int g(void)\n{\n\n    int first = 1;\n    int second_value = 2;\n    return first;\n}\n"
vec("anchor: old and new end with a line break: the next line is untouched",
    {"a.c": A}, {"old_string": "    int first = 1;\n    int second_valeu = 2;\n    return first;\n",
                 "new_string": "    int first = 1;\n    return first;\n"},
    ok("a.c", "int g(void)\n{\n\n    int first = 1;\n    return first;\n}\n", "anchor"))
vec("anchor: near miss: old ends with a line break new drops, next line has text: refused",
    {"a.c": A}, {"old_string": "    int first = 1;\n    int second_valeu = 2;\n    return first;\n",
                 "new_string": "    int first = 1;\n    return first;"},
    refused("no_match", "would join two lines"))

# ---- elision: `...` stands for unchanged lines -------------------------------------------------------
E = "a = 1\n\nb = 2\nc = 3\nd = 4\ne = 5\n"
vec("elision: old and new led by a line break: the blank line above stays",
    {"a.py": E}, {"old_string": "\nb = 2\n...\ne = 5\n", "new_string": "\nb = 20\n...\ne = 5\n"},
    ok("a.py", "a = 1\n\nb = 20\nc = 3\nd = 4\ne = 5\n", "elision"))

# ---- fuzzy (named in options.strategies) ---------------------------------------------------------------
F = "alpha = compute(1, 2)\n\nbeta = compute(3, 4)\ngamma = 5\n"
vec("fuzzy: old and new led by a line break: the blank line above stays",
    {"a.py": F}, {"old_string": "\nbeta = compute(3, 5)\ngamma = 5\n", "new_string": "\nbeta = compute(3, 6)\ngamma = 5\n"},
    ok("a.py", "alpha = compute(1, 2)\n\nbeta = compute(3, 6)\ngamma = 5\n", "fuzzy"),
    options={"strategies": ["fuzzy"], "fuzzy_threshold": 0.8})

# ---- exact is literal (near miss of the loose rule) ----------------------------------------------------
vec("exact: a literal old_string is applied as written, its leading break included (the loose rule does not apply)",
    {"a.c": "int a;\nint b;\n"}, {"old_string": "\nint b;", "new_string": " int bb;"},
    ok("a.c", "int a; int bb;\n", "exact"))

# ---- the same rule in SEARCH/REPLACE blocks and unified diffs -------------------------------------------
vec("search_replace: a SEARCH section led by a blank line, matched by regex, keeps the blank line (no second one added)",
    {"a.c": C}, {"path": "a.c", "text": "------- SEARCH\n\n    for(i = 0; i < 10; i++)\n    {\n=======\n\n    for (i = 0; i < 20; i++)\n    {\n+++++++ REPLACE\n"},
    ok("a.c", FOR_NEW, "regex"), fmt="search_replace")
vec("search_replace: a SEARCH section led by a blank line its REPLACE drops removes it",
    {"a.c": C}, {"path": "a.c", "text": "------- SEARCH\n\n    for(i = 0; i < 10; i++)\n    {\n=======\n    for (i = 0; i < 20; i++)\n    {\n+++++++ REPLACE\n"},
    ok("a.c", FOR_NEW.replace("int i = 0;\n\n", "int i = 0;\n"), "regex"), fmt="search_replace")
vec("unified_diff: a hunk whose first context line is blank, matched by regex, keeps the blank line (no second one added)",
    {"a.c": C}, {"text": "--- a.c\n+++ a.c\n@@ -3,4 +3,4 @@\n \n-    for(i = 0; i < 10; i++)\n+    for (i = 0; i < 20; i++)\n     {\n"},
    ok("a.c", FOR_NEW, "regex"), fmt="unified_diff")
vec("unified_diff: a hunk whose last context line is blank keeps the blank line below",
    {"a.c": "int a;\nint  b;\n\nint c;\n"}, {"text": "--- a.c\n+++ a.c\n@@ -2,2 +2,2 @@\n-int b;\n+int bb;\n \n"},
    ok("a.c", "int a;\nint bb;\n\nint c;\n", "regex"), fmt="unified_diff")

# ---- rule 5: blank lines inside the change that old_string does not show -------------------------------
B = "int a;\n\nint  b;\nint c;\n"
vec("regex: a blank line old_string leaves out, between two lines new_string keeps together, stays",
    {"a.c": B}, {"old_string": "int a;\nint b;\nint c;", "new_string": "int a;\nint b;\nint d;"},
    ok("a.c", "int a;\n\nint  b;\nint d;\n", "regex"))
vec("regex: a blank line old_string leaves out, next to a line new_string deletes, stays",
    {"a.c": B}, {"old_string": "int a;\nint b;\nint c;", "new_string": "int a;\nint c;"},
    ok("a.c", "int a;\n\nint c;\n", "regex"))
vec("regex: near miss: new lines go where the left-out blank line stands (above or below it?): refused",
    {"a.c": B}, {"old_string": "int a;\nint b;", "new_string": "int a;\nint x;\nint b;"},
    refused("ambiguous", "whether they go above or below it is not known"))
vec("regex: a blank line old_string shows and the file lacks is not added (new_string repeats it as context)",
    {"a.c": "int a;\nint  b;\nint c;\n"}, {"old_string": "int a;\n\nint b;\nint c;", "new_string": "int a;\n\nint b;\nint d;"},
    ok("a.c", "int a;\nint  b;\nint d;\n", "regex"))

# ---- context lines that differ only in whitespace are the file's own (anchor's precision rule) ---------
AN = "int f() {\n  int x = 1;\n  int y = 2;\n  return x;\n}\n"
vec("anchor: a repeated context line that differs from the file only in whitespace is written as the file has it",
    {"a.c": AN}, {"old_string": "int f() {\n  int x= 1;\n  int y = 2;\n  return x;\n}", "new_string": "int f() {\n  int x= 1;\n  int y = 3;\n  return x;\n}"},
    ok("a.c", "int f() {\n  int x = 1;\n  int y = 3;\n  return x;\n}\n", "anchor"))
vec("anchor: near miss: a repeated context line with another identifier is still refused (text the file never had)",
    {"a.c": AN}, {"old_string": "int f() {\n  int z = 1;\n  int y = 2;\n  return x;\n}", "new_string": "int f() {\n  int z = 1;\n  int y = 3;\n  return x;\n}"},
    refused("no_match", "never had"))

# ---- context restored when old and new also start with a line break -----------------------------------
W = "if (a) {\n  x();\n}\n\nif (b) {\n  y();\n}\n"
vec("regex: old and new led by a line break, a whitespace mistake on a repeated context line: the file's line is kept",
    {"a.js": W}, {"old_string": "\nif (b){\n  y();", "new_string": "\nif (b){\n  z();"},
    ok("a.js", W.replace("  y();", "  z();"), "regex"))

with open(OUT, 'w') as fh:
    for v in vectors:
        fh.write(json.dumps(v, ensure_ascii=False) + '\n')
print(f"{len(vectors)} vectors -> {OUT}")
