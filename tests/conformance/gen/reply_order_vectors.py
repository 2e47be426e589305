#!/usr/bin/env python3
"""Writes tests/conformance/vectors/reply-order.jsonl: how a raw reply's SEARCH/REPLACE blocks for one
file apply (docs/reply.md section 4, issue 30 item 3), with near misses.

    python3 tests/conformance/gen/reply_order_vectors.py

- a block whose SEARCH equals its REPLACE is skipped with a note (data.notes), the others apply;
  a reply of no-op blocks only is NOOP;
- blocks are read two ways: against the file as sent, and in reply order on the text the earlier
  blocks leave. Both place every block and agree: applied. Only the in-order reading does (a block
  edits lines an earlier block wrote): applied in order. Both do and disagree, or the in-order one
  finds a block twice: refused (AMBIGUOUS), naming the block. Neither does: the file-as-sent error;
- a block found nowhere keeps the reply all or nothing.
"""
import json
import os

OUT = os.path.join(os.path.dirname(__file__), '..', 'vectors', 'reply-order.jsonl')
SRC = 'editcore issue 30 item 3 (raw replies: no-op blocks skipped, blocks applied in order on the evolving text, as Aider and Cline do)'
vectors = []


def block(search, replace, name=None):
    head = f"{name}\n" if name else ""
    return f"{head}```\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n"


def vec(name, files, text, expect, **extra):
    v = {"id": f"reply-order#{name}", "peer": "editcore", "source": SRC, "format": "reply", "files": files,
         "edit": {"text": text, **extra}, "expect": expect}
    vectors.append(v)


F = {"app.py": "import os\n\ndef load(path):\n    return open(path).read()\n\ndef save(path, text):\n    open(path, 'w').write(text)\n"}

# ---- no-op blocks ----------------------------------------------------------------------------------
vec("a no-op block among others is skipped with a note; the others apply",
    F, "Two changes.\n\napp.py\n" + block("import os\n", "import os\nimport sys\n") + "\nand this one stays:\n\napp.py\n"
    + block("def load(path):\n", "def load(path):\n") + "\napp.py\n" + block("    open(path, 'w').write(text)\n", "    with open(path, 'w') as f:\n        f.write(text)\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n", "import os\nimport sys\n").replace("    open(path, 'w').write(text)\n", "    with open(path, 'w') as f:\n        f.write(text)\n")},
     "notes_include": ["Block 2 (line 17) of 'app.py' was skipped: its SEARCH and REPLACE sections are identical"]})
vec("near miss: a reply of no-op blocks only changes nothing: NOOP",
    F, "app.py\n" + block("import os\n", "import os\n") + "\napp.py\n" + block("def load(path):\n", "def load(path):\n"),
    {"ok": False, "error_kind": "noop", "message_includes": "SEARCH and REPLACE sections are identical"})
vec("a no-op block whose SEARCH is nowhere in the file is skipped too (it cannot change anything)",
    F, "app.py\n" + block("def missing():\n", "def missing():\n") + "\napp.py\n" + block("import os\n", "import os\nimport re\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n", "import os\nimport re\n")},
     "notes_include": ["Block 1 (line 3) of 'app.py' was skipped"]})
vec("near miss: no notes when no block is skipped",
    F, "app.py\n" + block("import os\n", "import os\nimport re\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n", "import os\nimport re\n")}, "notes_include": []})

# ---- blocks that build on each other ------------------------------------------------------------------
vec("a later block edits lines an earlier block wrote: applied in order",
    F, "app.py\n" + block("def load(path):\n    return open(path).read()\n", "def load(path):\n    with open(path) as f:\n        return f.read()\n")
    + "\nThen add an encoding:\n\napp.py\n" + block("    with open(path) as f:\n", "    with open(path, encoding='utf-8') as f:\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("    return open(path).read()\n", "    with open(path, encoding='utf-8') as f:\n        return f.read()\n")}})
vec("a later block's SEARCH overlaps an earlier block's lines and the lines it wrote: applied in order",
    F, "app.py\n" + block("import os\n", "import os\nimport json\n") + "\napp.py\n" + block("import json\n\ndef load(path):\n", "import json\n\n\ndef load(path):\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n\ndef load", "import os\nimport json\n\n\ndef load")}})
vec("blocks in file order that do not touch each other: as before",
    F, "app.py\n" + block("import os\n", "import os, sys\n") + "\napp.py\n" + block("def save(path, text):\n", "def save(path, text, mode='w'):\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n", "import os, sys\n").replace("def save(path, text):", "def save(path, text, mode='w'):")}})
vec("blocks out of file order that do not touch each other: as before",
    F, "app.py\n" + block("def save(path, text):\n", "def save(path, text, mode='w'):\n") + "\napp.py\n" + block("import os\n", "import os, sys\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n", "import os, sys\n").replace("def save(path, text):", "def save(path, text, mode='w'):")}})
G = {"a.py": "x = 1\ny = 2\nx = 1\n"}
vec("blocks with one SEARCH text take its places in turn (as sent and in order alike)",
    G, "a.py\n" + block("x = 1\n", "x = 10\n") + "\na.py\n" + block("x = 1\n", "x = 11\n"),
    {"ok": True, "files": {"a.py": "x = 10\ny = 2\nx = 11\n"}})
vec("near miss: a later block whose SEARCH the earlier block made appear twice is refused, naming it",
    {"a.py": "a = 1\nb = 2\nc = 3\n"}, "a.py\n" + block("a = 1\n", "a = 1\nc = 3\n") + "\na.py\n" + block("c = 3\n", "c = 4\n"),
    {"ok": False, "error_kind": "ambiguous", "message_includes": "SEARCH block 2"})
vec("near miss: a later block found nowhere, as sent or in order, keeps the reply all or nothing",
    F, "app.py\n" + block("import os\n", "import os\nimport sys\n") + "\napp.py\n" + block("def remove(path):\n", "def remove(path, force):\n"),
    {"ok": False, "error_kind": "no_match", "message_includes": "SEARCH block 2"})
vec("near miss: a block whose lines an earlier block rewrote (found nowhere in order) stays refused as overlapping",
    F, "app.py\n" + block("def load(path):\n    return open(path).read()\n", "def read(path):\n    return open(path).read()\n")
    + "\napp.py\n" + block("def load(path):\n", "def load(path, mode):\n"),
    {"ok": False, "error_kind": "malformed", "message_includes": "overlap"})
vec("a later block that moves text the earlier one wrote, with a no-op block between: in order, with a note",
    F, "app.py\n" + block("import os\n", "import os\nimport sys\n") + "\napp.py\n" + block("import os\n", "import os\n")
    + "\napp.py\n" + block("import os\nimport sys\n", "import sys\nimport os\n"),
    {"ok": True, "files": {"app.py": F["app.py"].replace("import os\n", "import sys\nimport os\n")},
     "notes_include": ["Block 2 (line 13) of 'app.py' was skipped"]})

# ---- the search_replace format keeps its rules (the reply's are the reply's) ---------------------------------
vectors.append({"id": "reply-order#near miss: the search_replace format still refuses a no-op block (NOOP)", "peer": "editcore", "source": SRC,
                "format": "search_replace", "files": F,
                "edit": {"path": "app.py", "text": "------- SEARCH\nimport os\n=======\nimport os\nimport sys\n+++++++ REPLACE\n------- SEARCH\ndef load(path):\n=======\ndef load(path):\n+++++++ REPLACE\n"},
                "expect": {"ok": False, "error_kind": "noop", "message_includes": "identical"}})

# ---- parse_only still names every file an apply changes ---------------------------------------------------------
vec("parse_only lists the in-order blocks and their one file",
    F, "app.py\n" + block("import os\n", "import os\nimport json\n") + "\napp.py\n" + block("import json\n", "import json as j\n"),
    {"ok": True, "paths": ["app.py"], "edits": [{"path": "app.py", "search": "import os\n"}, {"path": "app.py", "search": "import json\n"}]},
    parse_only=True)

with open(OUT, 'w') as fh:
    for v in vectors:
        fh.write(json.dumps(v, ensure_ascii=False) + '\n')
print(f"{len(vectors)} vectors -> {OUT}")
