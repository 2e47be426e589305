#!/usr/bin/env python3
"""Writes tests/conformance/vectors/tools.jsonl: one phase of a tool call per vector (docs/tools.md).
Each expectation is a subset of the response (run.mjs checkTool). Re-run after changing a case."""
import json, os

R = "/r"
out = []

def v(id, req, response=None, contains=None, absent=None, semantics=""):
    e = {}
    if response is not None: e["response"] = response
    if contains: e["contains"] = contains
    if absent: e["absent"] = absent
    out.append({"id": "tools/" + id, "peer": "tools", "source": "editcore agent tools (SPEC 8, docs/tools.md)",
                "tool_request": req, "expect": e, "semantics": semantics})

def f(content, mtime=1700000000123, real=None, path="a.py"):
    return {path: {"kind": "file", "content": content, "size": len(content.encode()), "mtime_ms": mtime,
                   "real_path": real or f"{R}/{path}"}}

PY = "def f():\n    x = 1\n    return x\n"
E = lambda **a: {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2", **a}
def err(code): return {"phase": "done", "status": "error", "result": {"status": "error", "data": {"applied": False}, "error": {"code": code}}}

# --- Edit: SPEC 8.1, step by step
v("Edit#plan names the file", {"tool": "Edit", "args": E(), "root": R}, {"phase": "read", "reads": [{"path": "a.py", "content": True}]}, semantics="plan: the arguments alone; the file to read")
v("Edit#plan absolute inside root", {"tool": "Edit", "args": E(path=R + "/src/../a.py"), "root": R}, {"phase": "read", "reads": [{"path": "a.py", "content": True}]}, semantics="an absolute path inside the root is taken, normalised relative to it")
v("Edit#missing old_string", {"tool": "Edit", "args": {"path": "a.py", "new_string": "x"}, "root": R}, err("INVALID_PARAM"), {"result.error.message": "old_string"}, semantics="step 1: required field")
v("Edit#ill-typed new_string", {"tool": "Edit", "args": {"path": "a.py", "old_string": "x", "new_string": 3}, "root": R}, err("INVALID_PARAM"), semantics="step 1: types")
v("Edit#unknown parameter", {"tool": "Edit", "args": E(replace_all=True), "root": R}, err("INVALID_PARAM"), {"result.error.message": "Unknown parameter 'replace_all'"}, semantics="step 1: unknown parameters are refused")
v("Edit#invalid before access", {"tool": "Edit", "args": {"path": "../x", "old_string": 1, "new_string": "y"}, "root": R}, err("INVALID_PARAM"), semantics="step 1 comes before step 2")
v("Edit#dotdot escape", {"tool": "Edit", "args": E(path="../outside/a.py"), "root": R}, err("ACCESS_DENIED"), semantics="step 2: .. leading out")
v("Edit#absolute outside", {"tool": "Edit", "args": E(path="/etc/passwd"), "root": R}, err("ACCESS_DENIED"), semantics="step 2: absolute path outside the root")
v("Edit#absolute with a relative root", {"tool": "Edit", "args": E(path="/etc/hostname"), "root": "."}, err("ACCESS_DENIED"), semantics="step 2: a root known only as '.' places no absolute path")
v("Edit#root prefix is not inside", {"tool": "Edit", "args": E(path="/r2/a.py"), "root": R}, err("ACCESS_DENIED"), semantics="step 2: /r2 is not under /r")
v("Edit#symlink escape", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": {"a.py": {"error": "ACCESS_DENIED", "real_path": "/outside/a.py"}}}, err("ACCESS_DENIED"), semantics="step 2: the host found a symlink leading out")
v("Edit#not found", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": {"a.py": {"kind": "missing"}}}, err("NOT_FOUND"), {"result.error.message": "Write creates them"}, semantics="step 3: missing file")
v("Edit#is directory", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": {"a.py": {"kind": "directory"}}}, err("IS_DIRECTORY"), semantics="step 3: a directory")
v("Edit#stale mtime", {"tool": "Edit", "phase": "run", "args": E(expected_mtime_ms=1700000000000), "root": R, "observed": f(PY)}, err("CONFLICT"), {"result.error.message": "Read the file again"}, semantics="step 4: mtime differs")
v("Edit#stale size", {"tool": "Edit", "phase": "run", "args": E(expected_size_bytes=5), "root": R, "observed": f(PY)}, err("CONFLICT"), semantics="step 4: size differs")
v("Edit#lock holds", {"tool": "Edit", "phase": "run", "args": E(expected_mtime_ms=1700000000123, expected_size_bytes=len(PY)), "root": R, "observed": f(PY)}, {"phase": "write"}, semantics="step 4: matching mtime and size")
v("Edit#lock before binary", {"tool": "Edit", "phase": "run", "args": E(expected_size_bytes=1), "root": R, "observed": f("x = 1\u0000")}, err("CONFLICT"), semantics="step 4 before step 5")
v("Edit#binary", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": f("x = 1\u0000\n")}, err("BINARY_FILE"), semantics="step 5: NUL byte")
v("Edit#empty old_string", {"tool": "Edit", "phase": "run", "args": E(old_string=""), "root": R, "observed": f(PY)}, err("INVALID_PARAM"), {"result.error.message": "use Write"}, semantics="step 7: empty old_string")
v("Edit#zero matches", {"tool": "Edit", "phase": "run", "args": E(old_string="x = 3"), "root": R, "observed": f(PY)}, err("INVALID_PARAM"), {"result.error.message": "Read the file again"}, semantics="step 7: no match; with the nearest text")
v("Edit#zero matches shows nearest", {"tool": "Edit", "phase": "run", "args": E(old_string="    x = 3\n    return x"), "root": R, "observed": f(PY)}, err("INVALID_PARAM"), {"result.error.message": "    x = 1\n    return x"}, semantics="step 7: the most similar text is quoted")
v("Edit#exact only", {"tool": "Edit", "phase": "run", "args": E(old_string="x = 1  "), "root": R, "observed": f(PY)}, err("INVALID_PARAM"), semantics="exact matching is the contract: trailing spaces do not match")
v("Edit#several matches", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": f("x = 1\ny = 2\nx = 1\n")}, err("INVALID_PARAM"), {"result.error.message": "occurs 2 times in 'a.py' (lines 1, 3)"}, semantics="step 7: several matches, counted with their lines, ask for context")
v("Edit#unique success", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": f(PY)},
  {"phase": "write", "writes": [{"path": "a.py", "content": "def f():\n    x = 2\n    return x\n", "create_dirs": False}],
   "pending": {"status": "success", "result": {"status": "success", "data": {"applied": True, "diff_preview": "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n def f():\n-    x = 1\n+    x = 2\n     return x\n", "diff_truncated": False, "replacements": 1},
     "stats": {"bytes_written": 32, "lines_added": 1, "lines_removed": 1}, "context": {"cwd": R, "params_input": E(), "path_resolved": R + "/a.py"}}}},
  absent=["pending.result.error", "pending.result.data.strategy"], semantics="steps 6-10: one match replaced; the write and the envelope it will answer")
v("Edit#crlf kept", {"tool": "Edit", "phase": "run", "args": E(old_string="x = 1\n    return x", new_string="x = 2\n    return x + 1"), "root": R, "observed": f(PY.replace("\n", "\r\n"))},
  {"phase": "write", "writes": [{"path": "a.py", "content": "def f():\r\n    x = 2\r\n    return x + 1\r\n", "create_dirs": False}]}, semantics="steps 6, 9: matched as LF, written back CRLF")
v("Edit#dry run", {"tool": "Edit", "phase": "run", "args": E(dry_run=True), "root": R, "observed": f(PY)},
  {"phase": "done", "status": "partial", "result": {"status": "partial", "data": {"applied": False, "replacements": 1}, "stats": {"bytes_written": 0}}}, absent=["writes"], semantics="dry_run: partial, nothing written")
v("Edit#host dry run", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "dry_run": True, "observed": f(PY)},
  {"phase": "done", "status": "partial", "result": {"status": "partial", "data": {"applied": False}}}, semantics="the host's dry run (runTool {dryRun}) as well")
v("Edit#truncated preview", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "options": {"diff_max_bytes": 10}, "observed": f(PY)},
  {"phase": "write", "pending": {"status": "partial", "result": {"status": "partial", "data": {"applied": True, "diff_truncated": True}}}}, semantics="a truncated preview is partial, though written")
v("Edit#ladder opt-in", {"tool": "Edit", "phase": "run", "args": E(old_string="x = 1\nreturn x", new_string="x = 2\nreturn x"), "root": R, "options": {"ladder": True}, "observed": f(PY)},
  {"phase": "write", "writes": [{"path": "a.py", "content": "def f():\n    x = 2\n    return x\n"}], "pending": {"result": {"data": {"strategy": "indent"}}}}, semantics="options.ladder: editcore's ladder, the strategy reported")
v("Edit#no ladder by default", {"tool": "Edit", "phase": "run", "args": E(old_string="x = 1\nreturn x", new_string="x = 2\nreturn x"), "root": R, "observed": f(PY)}, err("INVALID_PARAM"), semantics="without options.ladder the indentation must match exactly")
v("Edit#observed lacks the file", {"tool": "Edit", "phase": "run", "args": E(), "root": R, "observed": {}}, {"phase": "error", "error": {"code": "INVALID_PARAM"}}, semantics="a host that did not report a planned path is a protocol error, not a model's")
fin = {"status": "success", "result": {"status": "success", "data": {"applied": True}}, "real_paths": {"a.py": R + "/a.py"}}
v("Edit#finish written", {"tool": "Edit", "phase": "finish", "args": E(), "root": R, "pending": fin, "outcomes": [{"path": "a.py", "ok": True}]},
  {"phase": "done", "status": "success", "result": {"status": "success", "data": {"applied": True}}}, semantics="step 10: the write went through")
v("Edit#finish permission denied", {"tool": "Edit", "phase": "finish", "args": E(), "root": R, "pending": fin, "outcomes": [{"path": "a.py", "error": "PERMISSION_DENIED", "message": "EACCES: permission denied"}]},
  {"phase": "done", "status": "error", "result": {"status": "error", "data": {"applied": False}, "error": {"code": "PERMISSION_DENIED"}, "context": {"path_resolved": R + "/a.py"}}}, {"result.error.message": "nothing was changed"}, semantics="the OS refused the write: PERMISSION_DENIED, nothing changed")
v("Edit#finish io error", {"tool": "Edit", "phase": "finish", "args": E(), "root": R, "pending": fin, "outcomes": [{"path": "a.py", "error": "IO_ERROR", "message": "ENOSPC"}]},
  err("EXECUTION_ERROR"), semantics="another write failure: EXECUTION_ERROR")

# --- Read and Write
RD = "l1\nl2\nl3\nl4\n"
v("Read#whole", {"tool": "Read", "phase": "run", "args": {"path": "a.py"}, "root": R, "observed": f(RD, path="a.py")},
  {"phase": "done", "status": "success", "result": {"status": "success", "data": {"content": RD, "start_line": 1, "end_line": 4, "total_lines": 4, "truncated": False}, "stats": {"file_mtime_ms": 1700000000123, "file_size_bytes": 12}}}, semantics="Read: text plus the two lock values")
v("Read#offset limit", {"tool": "Read", "phase": "run", "args": {"path": "a.py", "offset": 2, "limit": 2}, "root": R, "observed": f(RD)},
  {"result": {"data": {"content": "l2\nl3\n", "start_line": 2, "end_line": 3, "truncated": True}}}, semantics="offset (1-based) and limit in lines")
v("Read#binary", {"tool": "Read", "phase": "run", "args": {"path": "a.py"}, "root": R, "observed": f("\u0000")}, err("BINARY_FILE"), semantics="Read refuses binary files")
v("Read#fractional mtime", {"tool": "Read", "phase": "run", "args": {"path": "a.py"}, "root": R, "observed": f("x\n", mtime=1700000000123.75)},
  {"result": {"stats": {"file_mtime_ms": 1700000000123}}}, semantics="mtime in whole milliseconds, as Edit compares it")
v("Write#create", {"tool": "Write", "phase": "run", "args": {"path": "new/b.txt", "content": "hi\n"}, "root": R, "observed": {"new/b.txt": {"kind": "missing"}}},
  {"phase": "write", "writes": [{"path": "new/b.txt", "content": "hi\n", "create_dirs": True}], "pending": {"result": {"data": {"applied": True, "created": True}, "stats": {"bytes_written": 3}}}}, semantics="Write creates the file and its parent directories")
v("Write#overwrite keeps crlf", {"tool": "Write", "phase": "run", "args": {"path": "a.py", "content": "a\nb\n"}, "root": R, "observed": f("x\r\ny\r\n")},
  {"phase": "write", "writes": [{"path": "a.py", "content": "a\r\nb\r\n"}]}, semantics="a CRLF file stays CRLF")
v("Write#stale", {"tool": "Write", "phase": "run", "args": {"path": "a.py", "content": "a\n", "expected_size_bytes": 1}, "root": R, "observed": f("xyz\n")}, err("CONFLICT"), semantics="Write honours the lock")
v("Write#expected but gone", {"tool": "Write", "phase": "run", "args": {"path": "a.py", "content": "a\n", "expected_mtime_ms": 5}, "root": R, "observed": {"a.py": {"kind": "missing"}}}, err("CONFLICT"), semantics="a file expected to exist was deleted")
v("Write#directory", {"tool": "Write", "phase": "run", "args": {"path": "a.py", "content": "a\n"}, "root": R, "observed": {"a.py": {"kind": "directory"}}}, err("IS_DIRECTORY"), semantics="Write onto a directory")
v("Write#lazy placeholder refused", {"tool": "Write", "phase": "run", "args": {"path": "a.py", "content": "def f():\n    # ... rest of the code ...\n"}, "root": R, "observed": f(PY)}, err("INVALID_PARAM"), semantics="a whole file with an omission marker would delete code")

# --- MCP filesystem tools
M = lambda tool, args, **k: {"tool": "mcp/" + tool, "args": args, "root": R, "roots": [R], **k}
text = lambda t: {"content": [{"type": "text", "text": t}], "structuredContent": {"content": t}}
v("mcp/edit_file#plan absolute path", M("edit_file", {"path": "a.txt", "edits": []}), {"phase": "read", "reads": [{"path": R + "/a.txt", "content": True}]}, semantics="relative paths resolve against the allowed directory")
v("mcp/edit_file#exact", {**M("edit_file", {"path": "a.txt", "edits": [{"oldText": "foo", "newText": "FOO"}]}), "phase": "run", "observed": f("hello world\nfoo\nbar\n", path=R + "/a.txt", real=R + "/a.txt")},
  {"phase": "write", "writes": [{"path": R + "/a.txt", "content": "hello world\nFOO\nbar\n"}], "pending": {"result": text(f"```diff\nIndex: {R}/a.txt\n===================================================================\n--- {R}/a.txt\toriginal\n+++ {R}/a.txt\tmodified\n@@ -1,3 +1,3 @@\n hello world\n-foo\n+FOO\n bar\n```\n\n")}}, semantics="the reference's fenced jsdiff text")
v("mcp/edit_file#ambiguous refused", {**M("edit_file", {"path": "a.txt", "edits": [{"oldText": "x = 1", "newText": "x = 9"}]}), "phase": "run", "observed": f("x = 1\ny\nx = 1\n", path=R + "/a.txt")},
  {"phase": "done", "status": "error", "result": {"isError": True}}, {"result.content.0.text": "more than one place"}, semantics="better than the reference: no silent first-of-many")
v("mcp/edit_file#nested indent kept", {**M("edit_file", {"path": "a.py", "edits": [{"oldText": "if x:\n    return 1", "newText": "if y:\n    return 2"}]}), "phase": "run", "observed": f("def f():\n    if x:\n        return 1\n", path=R + "/a.py")},
  {"phase": "write", "writes": [{"path": R + "/a.py", "content": "def f():\n    if y:\n        return 2\n"}]}, semantics="better than the reference: nested lines keep their depth")
v("mcp/edit_file#crlf kept", {**M("edit_file", {"path": "w.txt", "edits": [{"oldText": "two", "newText": "2"}]}), "phase": "run", "observed": f("one\r\ntwo\r\n", path=R + "/w.txt")},
  {"phase": "write", "writes": [{"path": R + "/w.txt", "content": "one\r\n2\r\n"}]}, {"pending.result.content.0.text": "-two\n+2\n"}, semantics="better than the reference: CRLF stays; the diff shows LF lines as the reference's does")
v("mcp/edit_file#no match", {**M("edit_file", {"path": "a.txt", "edits": [{"oldText": "a", "newText": "A"}, {"oldText": "nope", "newText": "X"}]}), "phase": "run", "observed": f("a\nb\n", path=R + "/a.txt")},
  {"phase": "done", "status": "error", "result": {"isError": True}}, {"result.content.0.text": "Could not find exact match for edit:\nnope"}, semantics="the reference's message, then which edit and the nearest text; nothing written")
v("mcp/edit_file#dry run", {**M("edit_file", {"path": "a.txt", "edits": [{"oldText": "b", "newText": "B"}], "dryRun": True}), "phase": "run", "observed": f("a\nb\n", path=R + "/a.txt")},
  {"phase": "done", "status": "success"}, {"result.content.0.text": "-b\n+B\n"}, absent=["writes"], semantics="dryRun: the diff, nothing written")
v("mcp/edit_file#outside", M("edit_file", {"path": "../outside/secret.txt", "edits": []}), {"phase": "done", "result": {"content": [{"type": "text", "text": "Access denied - path outside allowed directories: /outside/secret.txt not in /r"}], "isError": True}}, semantics="the reference's access message")
v("mcp/edit_file#missing", {**M("edit_file", {"path": "nope.txt", "edits": []}), "phase": "run", "observed": {R + "/nope.txt": {"kind": "missing"}}},
  {"result": {"content": [{"type": "text", "text": "ENOENT: no such file or directory, open '/r/nope.txt'"}], "isError": True}}, semantics="the reference's missing-file text")
v("mcp/read_text_file#head", {**M("read_text_file", {"path": "a.txt", "head": 2}), "phase": "run", "observed": f("1\n2\n3\n", path=R + "/a.txt")}, {"result": text("1\n2")}, semantics="head: first N lines, no final newline")
v("mcp/read_text_file#tail", {**M("read_text_file", {"path": "a.txt", "tail": 2}), "phase": "run", "observed": f("1\n2\n3\n4\n5\n", path=R + "/a.txt")}, {"result": text("5\n")}, semantics="tail as the reference counts it")
v("mcp/read_text_file#both", M("read_text_file", {"path": "a.txt", "head": 1, "tail": 1}), {"result": {"content": [{"type": "text", "text": "Cannot specify both head and tail parameters simultaneously"}], "isError": True}}, semantics="head and tail together")
v("mcp/write_file#create", {**M("write_file", {"path": "new.txt", "content": "hello\r\nworld"}), "phase": "run", "observed": {R + "/new.txt": {"kind": "missing"}}},
  {"phase": "write", "writes": [{"path": R + "/new.txt", "content": "hello\r\nworld", "create_dirs": False}], "pending": {"result": text("Successfully wrote to new.txt")}}, semantics="content byte for byte; the path as sent")
v("mcp/list_allowed_directories#root", M("list_allowed_directories", {}), {"phase": "done", "result": text("Allowed directories:\n/r")}, semantics="answered in plan, no reads")

# --- Anthropic / OpenHands text editors
C = lambda tool, args, **k: {"tool": tool, "args": args, "root": R, **k}
CF = "a\nb\nc\n"
v("str_replace_based_edit_tool#str_replace", {**C("str_replace_based_edit_tool", {"command": "str_replace", "path": R + "/a.txt", "old_str": "b", "new_str": "B"}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"phase": "write", "writes": [{"path": "a.txt", "content": "a\nB\nc\n"}], "pending": {"result": {"is_error": False}}}, {"pending.result.content": "has been edited"}, absent=["pending.state"], semantics="20250728: no history kept")
v("str_replace_based_edit_tool#no match", {**C("str_replace_based_edit_tool", {"command": "str_replace", "path": "a.txt", "old_str": "z", "new_str": "B"}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"result": {"content": "No replacement was performed, old_str `z` did not appear verbatim in a.txt.", "is_error": True}}, semantics="the reference's wording")
v("str_replace_based_edit_tool#multiple", {**C("str_replace_based_edit_tool", {"command": "str_replace", "path": "a.txt", "old_str": "x", "new_str": "y"}), "phase": "run", "observed": f("x\nb\nx\n", path="a.txt")},
  {"result": {"content": "No replacement was performed. Multiple occurrences of old_str `x` in lines [1, 3]. Please ensure it is unique", "is_error": True}}, semantics="lines of each occurrence")
v("str_replace_based_edit_tool#no undo", C("str_replace_based_edit_tool", {"command": "undo_edit", "path": "a.txt"}), {"result": {"is_error": True}}, {"result.content": "view, create, str_replace, insert"}, semantics="text_editor_20250728 has no undo_edit")
v("str_replace_based_edit_tool#view range", {**C("str_replace_based_edit_tool", {"command": "view", "path": "a.txt", "view_range": [2, -1]}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"result": {"content": "Here's the result of running `cat -n` on a.txt:\n     2\tb\n     3\tc\n", "is_error": False}}, semantics="view_range, -1 to the end")
v("str_replace_based_edit_tool#view max_characters", {**C("str_replace_based_edit_tool", {"command": "view", "path": "a.txt", "max_characters": 9}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"result": {"is_error": False}}, {"result.content": "<response clipped"}, semantics="max_characters clips the view")
v("str_replace_based_edit_tool#insert after", {**C("str_replace_based_edit_tool", {"command": "insert", "path": "a.txt", "insert_line": 1, "new_str": "X"}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"phase": "write", "writes": [{"path": "a.txt", "content": "a\nX\nb\nc\n"}]}, semantics="insert after line N")
v("str_replace_editor#history kept", {**C("str_replace_editor", {"command": "str_replace", "path": "a.txt", "old_str": "b", "new_str": "B"}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"phase": "write", "pending": {"state": {"history": {"a.txt": [CF]}}}}, semantics="the older tool keeps what undo_edit needs, as opaque state")
v("str_replace_editor#undo", {**C("str_replace_editor", {"command": "undo_edit", "path": "a.txt"}), "phase": "run", "state": {"history": {"a.txt": [CF]}}, "observed": {"a.txt": {"kind": "file", "content": "a\nB\nc\n", "real_path": R + "/a.txt"}}},
  {"phase": "write", "writes": [{"path": "a.txt", "content": CF}], "pending": {"state": {"history": {}}}}, {"pending.result.content": "undone successfully"}, semantics="undo_edit writes the last saved content back")
v("str_replace_editor#undo nothing", {**C("str_replace_editor", {"command": "undo_edit", "path": "a.txt"}), "phase": "run", "observed": {"a.txt": {"kind": "file", "content": "a\nb\nc\n"}}},
  {"result": {"content": "No edit history found for a.txt.", "is_error": True}}, semantics="no history")
v("openhands/str_replace_editor#same strings", {**C("openhands/str_replace_editor", {"command": "str_replace", "path": "a.txt", "old_str": "b", "new_str": "b"}), "phase": "run", "observed": f(CF, path="a.txt")},
  {"result": {"is_error": True}}, {"result.content": "must be different"}, semantics="OpenHands refuses new == old")

# --- Gemini
G = lambda tool, args, **k: {"tool": "gemini/" + tool, "args": args, "root": R, **k}
v("gemini/replace#one", {**G("replace", {"file_path": "a.py", "instruction": "bump", "old_string": "x = 1", "new_string": "x = 2"}), "phase": "run", "observed": f(PY)},
  {"phase": "write", "writes": [{"path": "a.py", "content": "def f():\n    x = 2\n    return x\n"}], "pending": {"result": {"llmContent": "Successfully modified file: a.py (1 replacements)."}}}, semantics="replace one occurrence")
v("gemini/replace#several refused", {**G("replace", {"file_path": "a.py", "old_string": "x", "new_string": "y"}), "phase": "run", "observed": f("x\nx\n")},
  {"result": {"error": {"type": "edit_expected_occurrence_mismatch"}}}, {"result.llmContent": "expected 1 occurrence but found 2"}, semantics="one occurrence unless allow_multiple")
v("gemini/replace#allow_multiple", {**G("replace", {"file_path": "a.py", "old_string": "x", "new_string": "y", "allow_multiple": True}), "phase": "run", "observed": f("x\nx\n")},
  {"phase": "write", "writes": [{"path": "a.py", "content": "y\ny\n"}]}, semantics="allow_multiple replaces every occurrence")
v("gemini/replace#zero", {**G("replace", {"file_path": "a.py", "old_string": "zz", "new_string": "y"}), "phase": "run", "observed": f("x\n")},
  {"result": {"error": {"type": "edit_no_occurrence_found"}}}, {"result.llmContent": "0 occurrences found"}, semantics="not found")
v("gemini/replace#create with empty old", {**G("replace", {"file_path": "n.py", "old_string": "", "new_string": "hi\n"}), "phase": "run", "observed": {"n.py": {"kind": "missing"}}},
  {"phase": "write", "writes": [{"path": "n.py", "content": "hi\n", "create_dirs": True}]}, semantics="empty old_string on a missing file creates it")
v("gemini/write_file#overwrite", {**G("write_file", {"file_path": "a.py", "content": "z\n"}), "phase": "run", "observed": f(PY)},
  {"phase": "write", "writes": [{"path": "a.py", "content": "z\n"}], "pending": {"result": {"llmContent": "Successfully overwrote file: a.py."}}}, semantics="write_file")

# --- Cline, Codex, OpenAI apply_patch, lazy edit_file
M2 = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
v("codex/apply_patch#plan names every file", {"tool": "codex/apply_patch", "args": {"input": "*** Begin Patch\n*** Update File: m.py\n@@\n-x\n+y\n*** Add File: n/new.py\n+z\n*** Delete File: old.py\n*** End Patch"}, "root": R},
  {"phase": "read", "reads": [{"path": "m.py", "content": True}, {"path": "n/new.py", "content": True}, {"path": "old.py", "content": True}]}, semantics="the plan reads every file the patch names")
v("codex/apply_patch#escape", {"tool": "codex/apply_patch", "args": {"input": "*** Begin Patch\n*** Add File: ../evil.py\n+x\n*** End Patch"}, "root": R},
  {"phase": "done", "status": "error", "result": {"is_error": True}}, {"result.content": "outside the workspace"}, semantics="a patch path leading out is refused before anything is read")
v("codex/apply_patch#update and add", {"tool": "codex/apply_patch", "phase": "run", "args": {"input": "*** Begin Patch\n*** Update File: m.py\n@@ def g():\n-    return 2\n+    return 3\n*** Add File: n/new.py\n+x = 1\n*** End Patch\n"}, "root": R,
  "observed": {**f(M2, path="m.py"), "n/new.py": {"kind": "missing"}}},
  {"phase": "write", "writes": [{"path": "m.py", "content": M2.replace("return 2", "return 3"), "create_dirs": False}, {"path": "n/new.py", "content": "x = 1\n", "create_dirs": True}],
   "pending": {"result": {"content": "Success. Updated the following files:\nM m.py\nA n/new.py\n", "is_error": False}}}, semantics="Codex's success text, one write per file")
v("codex/apply_patch#context missing", {"tool": "codex/apply_patch", "phase": "run", "args": {"input": "*** Begin Patch\n*** Update File: m.py\n@@\n-    return 9\n+    return 3\n*** End Patch\n"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "done", "status": "error", "result": {"is_error": True}}, absent=["writes"], semantics="a chunk that does not match: an error, nothing written")
v("openai/apply_patch#update", {"tool": "openai/apply_patch", "phase": "run", "args": {"type": "update_file", "path": "m.py", "diff": "@@ def f():\n-    return 1\n+    return 10\n"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "write", "writes": [{"path": "m.py", "content": M2.replace("return 1", "return 10")}], "pending": {"result": {"status": "completed", "output": "Updated m.py"}}}, semantics="update_file: a V4A diff without the envelope")
v("openai/apply_patch#create", {"tool": "openai/apply_patch", "phase": "run", "args": {"type": "create_file", "path": "a/b.py", "diff": "+x = 1\n+y = 2\n"}, "root": R, "observed": {"a/b.py": {"kind": "missing"}}},
  {"phase": "write", "writes": [{"path": "a/b.py", "content": "x = 1\ny = 2\n", "create_dirs": True}], "pending": {"result": {"status": "completed"}}}, semantics="create_file: + lines")
v("openai/apply_patch#delete", {"tool": "openai/apply_patch", "phase": "run", "args": {"type": "delete_file", "path": "m.py"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "write", "writes": [{"path": "m.py", "delete": True}], "pending": {"result": {"status": "completed", "output": "Deleted m.py"}}}, semantics="delete_file")
v("openai/apply_patch#failed", {"tool": "openai/apply_patch", "phase": "run", "args": {"type": "update_file", "path": "m.py", "diff": "@@\n-nope\n+x\n"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "done", "status": "error", "result": {"status": "failed"}}, semantics="answered {status: failed, output}")
v("cline/replace_in_file#block", {"tool": "cline/replace_in_file", "phase": "run", "args": {"path": "m.py", "diff": "------- SEARCH\n    return 1\n=======\n    return 11\n+++++++ REPLACE\n"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "write", "writes": [{"path": "m.py", "content": M2.replace("return 1", "return 11")}]}, {"pending.result.content": "<final_file_content path=\"m.py\">"}, semantics="Cline's SEARCH/REPLACE blocks; the final content echoed")
v("cline/editor#insert before", {"tool": "cline/editor", "phase": "run", "args": {"path": "m.py", "new_text": "# top\n", "insert_line": 1}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "write", "writes": [{"path": "m.py", "content": "# top\n" + M2}]}, semantics="insert_line inserts before that line")
v("cline/editor#both", {"tool": "cline/editor", "args": {"path": "m.py", "new_text": "x", "insert_line": 1, "old_text": "y"}, "root": R},
  {"phase": "done", "status": "error"}, semantics="old_text and insert_line exclude each other")
v("lazy/edit_file#merge", {"tool": "lazy/edit_file", "phase": "run", "args": {"target_file": "m.py", "instructions": "g returns 4", "code_edit": "# ... existing code ...\ndef g():\n    return 4\n"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "write", "writes": [{"path": "m.py", "content": M2.replace("return 2", "return 4")}]}, semantics="the lazy format merges the snippet")
v("lazy/edit_file#decline asks for more", {"tool": "lazy/edit_file", "phase": "run", "args": {"target_file": "m.py", "instructions": "x", "code_edit": "# ... existing code ...\n    return 5\n# ... existing code ...\n"}, "root": R, "observed": f(M2, path="m.py")},
  {"phase": "done", "status": "error", "result": {"is_error": True}}, {"result.content": "Send code_edit again"}, semantics="a snippet that cannot be placed is declined with a request for a fuller one")

# --- definitions and protocol
v("definitions#anthropic", {"tool_definitions": "anthropic", "tools": ["Edit"]},
  {"tools": [{"name": "Edit", "input_schema": {"required": ["path", "old_string", "new_string"]}}]}, semantics="Anthropic form")
v("definitions#openai", {"tool_definitions": "openai", "tools": ["gemini/replace"]},
  {"tools": [{"type": "function", "function": {"name": "replace", "parameters": {"required": ["file_path", "old_string", "new_string"]}}}]}, semantics="OpenAI form; the peer's own name")
v("protocol#unknown tool", {"tool": "nope", "args": {}}, {"phase": "error", "error": {"code": "INVALID_PARAM"}}, semantics="an unknown tool is a protocol error")
v("protocol#unknown field", {"tool": "Edit", "args": {}, "colour": 1}, {"phase": "error", "error": {"code": "INVALID_PARAM"}}, semantics="unknown fields are refused")

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "vectors", "tools.jsonl"), "w") as fh:
    for x in out:
        fh.write(json.dumps(x, ensure_ascii=False) + "\n")
print(len(out), "vectors")
