#!/usr/bin/env python3
"""Writes tests/conformance/vectors/encodings.jsonl: the core's handling of encodings (issue 27
items 1 and 8, docs/protocol.md "Bytes" and "Encodings"), the same bytes on every build.
A file's bytes that are not UTF-8 travel as {"base64": ...}; run.mjs compares contents as bytes.
Re-run after changing a case: python3 tests/conformance/gen/encodings_vectors.py"""
import base64, json, os

SRC = "editcore (issue 27: every encoding kept; lone-CR line endings)"
out = []

def b64(data):
    return {"base64": base64.b64encode(data).decode()}

def content(data):
    """The protocol's form of bytes: a string when UTF-8 without NUL, else base64."""
    if b"\0" not in data:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return b64(data)

def v(id, fmt, files, edit, expect, semantics, peer="editcore"):
    out.append({"id": "encodings/" + id, "peer": peer, "source": SRC, "format": fmt,
                "files": {p: content(d) if isinstance(d, bytes) else d for p, d in files.items()},
                "edit": edit, "expect": expect, "semantics": semantics})

def ok(files):
    return {"ok": True, "files": {p: content(d) for p, d in files.items()}}

def refused(kind, says):
    return {"ok": False, "error_kind": kind, "message_includes": says}

def tool(id, req, response, semantics, contains=None):
    e = {"response": response}
    if contains: e["contains"] = contains
    out.append({"id": "encodings/tool " + id, "peer": "tools", "source": SRC, "tool_request": req, "expect": e, "semantics": semantics})

L1 = b'caf\xe9 = "na\xefve"\nx = 1\n'           # Latin-1
SJIS = b's = "\x95\x5c\x8e\xa6"\nx = 1\n'       # Shift-JIS: 95 5C, its second byte '\'
GBK = b's = "\xd6\xd0\xce\xc4\x81\x40"\nx = 1\n'  # GBK: 81 40, its second byte '@'
GB18030 = b's = "\x81\x30\x81\x30"\nx = 1\n'     # GB18030: a four-byte character holding digits
NOT = "is not UTF-8"
SR = lambda old, new: "<<<<<<< SEARCH\n" + old + "\n=======\n" + new + "\n>>>>>>> REPLACE\n"

# --- files that are not UTF-8: ASCII edits keep every other byte, in every format
v("latin1 replace ascii", "replace", {"a.py": L1}, {"old_string": "x = 1", "new_string": "x = 2"},
  ok({"a.py": L1.replace(b"x = 1", b"x = 2")}), "only the matched ASCII changes; answered as base64")
v("latin1 search_replace", "search_replace", {"a.py": L1}, {"text": SR("x = 1", "x = 2\ny = 3")},
  ok({"a.py": L1.replace(b"x = 1", b"x = 2\ny = 3")}), "SEARCH/REPLACE on ASCII lines")
v("latin1 unified_diff", "unified_diff", {"a.py": L1}, {"text": "--- a/a.py\n+++ b/a.py\n@@ -2 +2 @@\n-x = 1\n+x = 2\n"},
  ok({"a.py": L1.replace(b"x = 1", b"x = 2")}), "a hunk whose lines are ASCII")
v("latin1 codex_patch", "codex_patch", {"a.py": L1}, {"text": "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"},
  ok({"a.py": L1.replace(b"x = 1", b"x = 2")}), "editcore's Codex patches take any bytes")
v("latin1 insert", "insert", {"a.py": L1}, {"insert_line": 1, "new_str": "y = 0"},
  ok({"a.py": L1.replace(b"\nx", b"\ny = 0\nx")}), "a line inserted after a line that is not UTF-8")
v("latin1 lazy", "lazy", {"a.py": L1 + b"def f():\n    return 1\n"}, {"snippet": "# ... existing code ...\ndef f():\n    return 2\n"},
  ok({"a.py": L1 + b"def f():\n    return 2\n"}), "a lazy snippet anchored on ASCII lines")
v("latin1 reply", "reply", {"a.py": L1}, {"text": "a.py\n```\n" + SR("x = 1", "x = 2") + "```\n"},
  ok({"a.py": L1.replace(b"x = 1", b"x = 2")}), "a model's reply")
v("sjis ascii beside a two-byte character", "replace", {"a.py": SJIS}, {"old_string": '"\nx = 1', "new_string": '"\nx = 2'},
  ok({"a.py": SJIS.replace(b"x = 1", b"x = 2")}), "the quote after 8E A6 is a character of its own (< 0x30)")

# --- and refused, saying why, where the edit would touch what the encoding needs
v("latin1 new text not ascii", "replace", {"a.py": L1}, {"old_string": "x = 1", "new_string": "x = 'é'"},
  refused("encoding", NOT), "UTF-8 text written into a file that is not UTF-8 would mix encodings")
v("latin1 whole_file", "whole_file", {"a.py": L1}, {"content": 'cafe = "naive"\nx = 2\n'},
  refused("encoding", "change or remove byte 0xE9 at line 1"), "a whole new content would drop bytes no model can write back")
v("latin1 joining two runs", "replace", {"a.py": b"caf\xe9z\n\xe9t\xe9\n"}, {"old_string": "z\n", "new_string": "z"},
  refused("encoding", NOT), "removing the LF would join two runs: the 'z' after 0xE9 would become a second byte")
v("sjis match inside a character", "replace", {"a.py": SJIS}, {"old_string": "\\", "new_string": "/"},
  refused("encoding", "right after byte 0x95"), "the '\\' is the second byte of 95 5C")
v("gbk match inside a character", "replace", {"a.py": GBK}, {"old_string": "@", "new_string": "#"},
  refused("encoding", "right after byte 0x81"), "the '@' is the second byte of 81 40")
v("gb18030 digits", "replace", {"a.py": GB18030}, {"old_string": "x = 1", "new_string": "x = 0"},
  ok({"a.py": GB18030.replace(b"x = 1", b"x = 0")}), "digits outside the character are free")
v("codex profile refuses", "codex_patch", {"a.py": L1}, {"text": "*** Begin Patch\n*** Update File: a.py\n@@\n-x = 1\n+x = 2\n*** End Patch\n"},
  refused("encoding", "invalid utf-8"), "Codex reads files as UTF-8 and stops: ENCODING, not BINARY_FILE", peer="codex")

# --- UTF-16 with a BOM: decoded, edited as UTF-8, encoded back byte for byte
def u16(text, be=False):
    return ("\ufeff" + text).encode("utf-16-be" if be else "utf-16-le")
LE = u16('name = "Zoë"\r\nx = 1\r\n')
BE = u16('name = "中"\nx = 1\n', True)
v("utf16le replace", "replace", {"a.txt": LE}, {"old_string": "x = 1", "new_string": "x = 'é'"},
  ok({"a.txt": u16('name = "Zoë"\r\nx = \'é\'\r\n')}), "UTF-16 LE with CRLF: any text, CRLF kept")
v("utf16be search_replace", "search_replace", {"a.txt": BE}, {"text": SR("x = 1", "x = 2\ny = 😀")},
  ok({"a.txt": u16('name = "中"\nx = 2\ny = 😀\n', True)}), "UTF-16 BE; a character beyond the BMP becomes a surrogate pair")
v("utf16le unified_diff", "unified_diff", {"a.txt": LE}, {"text": "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n name = \"Zoë\"\n-x = 1\n+x = 2\n"},
  ok({"a.txt": u16('name = "Zoë"\r\nx = 2\r\n')}), "a diff's context lines match the decoded text")
v("utf16le whole_file", "whole_file", {"a.txt": LE}, {"content": "new\n"},
  ok({"a.txt": u16("new\r\n")}), "a whole new content keeps the encoding (and the CRLF)")
v("utf16 odd length", "replace", {"a.txt": LE[:-1]}, {"old_string": "x", "new_string": "y"},
  refused("encoding", "not UTF-16"), "a BOM, then bytes that are not UTF-16")
v("utf16 unpaired surrogate", "replace", {"a.txt": b"\xff\xfex\x00\x00\xd8\n\x00"}, {"old_string": "x", "new_string": "y"},
  refused("encoding", "unpaired UTF-16 surrogate"), "not decodable exactly: refused")
v("utf32 bom", "replace", {"a.txt": b"\xff\xfe\x00\x00x\x00\x00\x00"}, {"old_string": "x", "new_string": "y"},
  refused("encoding", "UTF-32"), "UTF-32 is named, not called binary")

# --- UTF-8 with a BOM
BOM = b"\xef\xbb\xbf"
v("utf8 bom replace", "replace", {"a.txt": BOM + b"x = 1\n"}, {"old_string": "x = 1", "new_string": "x = 2"},
  ok({"a.txt": BOM + b"x = 2\n"}), "the BOM stays")
v("utf8 bom whole_file", "whole_file", {"a.txt": BOM + b"x = 1\n"}, {"content": "y\n"},
  ok({"a.txt": BOM + b"y\n"}), "the BOM stays under a whole new content")

# --- lone-CR line endings (item 8): lines for every format, written back as CR
CR = b"a = 0\rx = 1\ry = 2\r"
v("cr search_replace", "search_replace", {"a.txt": CR}, {"text": SR("x = 1", "x = 9\nz = 3")},
  ok({"a.txt": b"a = 0\rx = 9\rz = 3\ry = 2\r"}), "the issue's case: the block's line is found; new lines end in CR")
v("cr replace", "replace", {"a.txt": CR}, {"old_string": "x = 1\ny = 2", "new_string": "x = 1\ny = 3"},
  ok({"a.txt": b"a = 0\rx = 1\ry = 3\r"}), "old_string across lines, as LF")
v("cr unified_diff", "unified_diff", {"a.txt": CR}, {"text": "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n a = 0\n-x = 1\n+x = 2\n y = 2\n"},
  ok({"a.txt": b"a = 0\rx = 2\ry = 2\r"}), "a hunk with context")
v("cr codex_patch", "codex_patch", {"a.txt": CR}, {"text": "*** Begin Patch\n*** Update File: a.txt\n@@\n a = 0\n-x = 1\n+x = 2\n*** End Patch\n"},
  ok({"a.txt": b"a = 0\rx = 2\ry = 2\r"}), "a Codex patch")
v("cr insert", "insert", {"a.txt": CR}, {"insert_line": 1, "new_str": "b = 5"},
  ok({"a.txt": b"a = 0\rb = 5\rx = 1\ry = 2\r"}), "insert after line 1")
v("cr whole_file", "whole_file", {"a.txt": CR}, {"content": "p\nq\n"},
  ok({"a.txt": b"p\rq\r"}), "a whole new content takes the file's CR endings")
v("cr no final newline", "replace", {"a.txt": b"a\rb"}, {"old_string": "b", "new_string": "c\nd"},
  ok({"a.txt": b"a\rc\rd"}), "no final line ending stays none")
v("lone cr in an lf file stays a character", "replace", {"a.txt": b"a\rb\nc\n"}, {"old_string": "c", "new_string": "d"},
  ok({"a.txt": b"a\rb\nd\n"}), "a file with LFs: a lone CR is part of its line, as git reads it")

# --- the bytes form itself
out.append({"id": "encodings/base64 not canonical", "peer": "editcore", "source": SRC,
            "request_text": json.dumps({"format": "replace", "files": {"a": {"base64": "Zg="}}, "edit": {"old_string": "f", "new_string": "g"}}),
            "expect": {"ok": False, "error_kind": "invalid_param", "message_includes": "files['a'] holds a base64 value that is not"},
            "semantics": "RFC 4648 with padding, nothing else"})
out.append({"id": "encodings/bytes object with another key", "peer": "editcore", "source": SRC,
            "request_text": json.dumps({"format": "replace", "files": {"a": {"base64": "Zg==", "x": 1}}, "edit": {"old_string": "f", "new_string": "g"}}),
            "expect": {"ok": False, "error_kind": "invalid_param", "message_includes": "must be a string, or {\"base64\""},
            "semantics": "only {\"base64\": ...}"})
out.append({"id": "encodings/base64 that is UTF-8", "peer": "editcore", "source": SRC, "format": "replace",
            "files": {"a": b64(b"f\n")}, "edit": {"old_string": "f", "new_string": "g"},
            "expect": {"ok": True, "files": {"a": "g\n"}}, "semantics": "base64 is taken for any bytes; the answer is a string when it can be"})

# --- tool calls: observed bytes in, writes out, views
R = "/r"
def obs(data, path="a.py"):
    return {path: {"kind": "file", "content": content(data), "size": len(data), "mtime_ms": 1, "real_path": f"{R}/{path}"}}
tool("Edit latin1", {"tool": "Edit", "phase": "run", "args": {"path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}, "root": R, "observed": obs(L1)},
     {"phase": "write", "writes": [{"path": "a.py", "content": content(L1.replace(b"x = 1", b"x = 2"))}]},
     "the write carries the bytes (base64): no U+FFFD")
tool("Edit latin1 not ascii", {"tool": "Edit", "phase": "run", "args": {"path": "a.py", "old_string": "x = 1", "new_string": "x = 'é'"}, "root": R, "observed": obs(L1)},
     {"phase": "done", "status": "error", "result": {"error": {"code": "INVALID_PARAM"}}}, "refused in the envelope's words",
     {"result.error.message": NOT})
tool("mcp/write_file over latin1", {"tool": "mcp/write_file", "phase": "run", "args": {"path": "/r/a.py", "content": "x\n"}, "roots": [R], "observed": obs(L1, "/r/a.py")},
     {"phase": "done", "status": "error", "result": {"isError": True}}, "a whole content over a file that is not UTF-8",
     {"result.content.0.text": "change or remove byte 0xE9"})
tool("Edit utf16", {"tool": "Edit", "phase": "run", "args": {"path": "a.py", "old_string": "x = 1", "new_string": "x = 'é'"}, "root": R, "observed": obs(LE)},
     {"phase": "write", "writes": [{"path": "a.py", "content": content(u16('name = "Zoë"\r\nx = \'é\'\r\n'))}]},
     "decoded for the tool, encoded back for the write")
tool("str_replace cr", {"tool": "str_replace_based_edit_tool", "phase": "run", "args": {"command": "insert", "path": "a.py", "insert_line": 1, "new_str": "b"}, "root": R, "observed": obs(CR)},
     {"phase": "write", "writes": [{"path": "a.py", "content": "a = 0\rb\rx = 1\ry = 2\r"}]}, "lone-CR lines are lines for the tools too")
tool("write_file keeps the BOM", {"tool": "mcp/write_file", "phase": "run", "args": {"path": "/r/a.py", "content": "y\n"}, "roots": [R], "observed": obs(BOM + b"x\n", "/r/a.py")},
     {"phase": "write", "writes": [{"path": "/r/a.py", "content": "\ufeffy\n"}]}, "every tool keeps a UTF-8 BOM")
tool("view latin1", {"tool": "str_replace_based_edit_tool", "phase": "run", "args": {"command": "view", "path": "a.py"}, "root": R, "observed": obs(L1)},
     {"phase": "done", "status": "success"}, "a marked rendering, never a guess",
     {"result.content": "     1\tcaf\ufffd = \"na\ufffdve\"\n"})
tool("view says so", {"tool": "str_replace_based_edit_tool", "phase": "run", "args": {"command": "view", "path": "a.py"}, "root": R, "observed": obs(L1)},
     {"phase": "done", "status": "success"}, "the view says the file is not UTF-8", {"result.content": "Note: 'a.py' is not UTF-8"})
tool("read_text_file utf16", {"tool": "mcp/read_text_file", "phase": "run", "args": {"path": "/r/a.py"}, "roots": [R], "observed": obs(BE, "/r/a.py")},
     {"phase": "done", "status": "success", "result": {"content": [{"type": "text", "text": 'name = "中"\nx = 1\n'}]}}, "UTF-16 read as its text")
tool("undo keeps bytes", {"tool": "str_replace_editor", "phase": "run", "args": {"command": "undo_edit", "path": "a.py"}, "root": R,
      "state": {"history": {"a.py": [b64(L1)]}}, "observed": obs(L1.replace(b"x = 1", b"x = 2"))},
     {"phase": "write", "writes": [{"path": "a.py", "content": content(L1)}]}, "the history carries bytes as base64")
tool("codex move utf16", {"tool": "codex/apply_patch", "phase": "run", "root": R,
      "args": {"input": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x = 1\n+x = 2\n*** End Patch\n"},
      "observed": {**obs(LE, "a.txt"), "b.txt": {"kind": "missing"}}},
     {"phase": "write", "writes": [{"path": "b.txt", "content": content(u16('name = "Zoë"\r\nx = 2\r\n'))}, {"path": "a.txt", "delete": True}]},
     "a moved file keeps its encoding")
tool("Edit utf16 bad", {"tool": "Edit", "phase": "run", "args": {"path": "a.py", "old_string": "x", "new_string": "y"}, "root": R, "observed": obs(LE[:-1])},
     {"phase": "done", "status": "error"}, "a UTF-16 BOM over bytes that are not UTF-16: named, not binary",
     {"result.error.message": "not UTF-16"})
path = os.path.join(os.path.dirname(__file__), "..", "vectors", "encodings.jsonl")
with open(path, "w", encoding="utf-8") as fh:
    for x in out:
        fh.write(json.dumps(x, ensure_ascii=False) + "\n")
print(len(out), "vectors")
