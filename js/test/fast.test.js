// The object path (src/fast.js): files as bytes beside the request, splices back, the content
// built from the caller's original. Every conformance vector is also compared through it
// (tests/conformance/run.mjs); these are the cases vectors cannot express: byte contents,
// UTF-16 offsets of non-ASCII strings, on-demand members, the fall-back to JSON text.
import test from 'node:test';
import assert from 'node:assert/strict';
import { init, applyRequestSync, applyJson, applyRequest, loadSyntax } from '../src/index.js';

await init({ full: true });
await loadSyntax(['python', 'javascript']); // the synchronous functions check only languages already loaded (docs/syntax.md)
const viaJson = (req) => JSON.parse(applyJson(JSON.stringify(req)));
// A request object's syntax default is on demand, nothing parsed (docs/syntax.md): for an edit that
// is not lazy, the JSON path's answer with options.syntax "off".
const viaJsonOff = (req) => viaJson({ ...req, options: { ...req.options, syntax: 'off' } });
const same = (a, b) => {
  const norm = (o) => JSON.stringify({ ...o, stats: { ...o.stats, time_ms: 0 } });
  assert.equal(norm(a), norm(b));
};

test('a string file: the content is built when first read, and equals the JSON path', () => {
  const before = 'é😀 line one\n'.repeat(2000) + 'x = 1\n' + 'ü tail 😀\n'.repeat(2000);
  const req = { format: 'replace', files: { 'a.py': before }, edit: { old_string: 'x = 1', new_string: 'x = ☃ 2' } };
  const r = applyRequestSync(req);
  const desc = Object.getOwnPropertyDescriptor(r.data.files['a.py'], 'content');
  assert.equal(typeof desc.get, 'function', 'content is on demand');
  assert.equal(r.data.files['a.py'].content, before.replace('x = 1', 'x = ☃ 2'));
  same(r, viaJsonOff(req));
  same(applyRequestSync({ ...req, options: { syntax: 'report' } }), viaJson(req));
});

test('an on-demand content: one getter for every result (no hidden class per object), read once, kept, assignable, no extra member', () => {
  const req = (n) => ({ format: 'replace', files: { 'a.txt': `x\n${n}\ny\n` }, edit: { old_string: String(n), new_string: `${n}!` } });
  const a = applyRequestSync(req(1)).data.files['a.txt'], b = applyRequestSync(req(2)).data.files['a.txt'];
  const da = Object.getOwnPropertyDescriptor(a, 'content'), db = Object.getOwnPropertyDescriptor(b, 'content');
  // Fresh closures per object gave each result a hidden class of its own, which V8 keeps (with the
  // object and what it holds) through young-generation collections (BENCHMARKS.md).
  assert.equal(da.get, db.get, 'the same getter');
  assert.equal(da.set, db.set, 'the same setter');
  assert.equal(da.enumerable, true);
  assert.equal(a.content, 'x\n1!\ny\n');
  assert.equal(b.content, 'x\n2!\ny\n');
  assert.equal(a.content, a.content);
  assert.deepEqual(Object.keys(a), ['action', 'content', 'diff', 'diff_truncated', 'undo', 'lines_added', 'lines_removed', 'replacements', 'matches']);
  assert.deepEqual(Object.keys({ ...a }), Object.keys(a));
  assert.equal(JSON.parse(JSON.stringify(a)).content, 'x\n1!\ny\n');
  a.content = 'mine';
  assert.equal(a.content, 'mine');
  assert.equal(b.content, 'x\n2!\ny\n');
});

test('the syntax report is on demand in the object path: asked by options.syntax, else nothing is parsed', () => {
  // Rust's module is not loaded: a request that parses would throw EDITCORE_NEEDS_SYNTAX.
  const req = { format: 'replace', files: { 'main.rs': 'fn main() {\n    let x = f(1);\n}\n' }, edit: { old_string: 'let x = f(1);', new_string: 'let x = f(1;' } };
  const r = applyRequestSync(req);
  assert.equal(r.status, 'success');
  assert.equal('syntax' in r.data.files['main.rs'], false);
  assert.doesNotMatch(r.text, /Syntax:/);
  assert.throws(() => applyRequestSync({ ...req, options: { syntax: 'report' } }), { code: 'EDITCORE_NEEDS_SYNTAX' });
  assert.throws(() => applyRequestSync({ ...req, options: { diff_context: 3, syntax: 'refuse' } }), { code: 'EDITCORE_NEEDS_SYNTAX' });
  // A loaded language, reports asked: the JSON path's answer, report and sentence included.
  const py = { format: 'replace', files: { 's.py': 'def f():\n    return (1)\n' }, edit: { old_string: 'return (1)', new_string: 'return (1' }, options: { syntax: 'report' } };
  const rp = applyRequestSync(py);
  assert.equal(rp.data.files['s.py'].syntax.parsed_after, false);
  assert.match(rp.text, /Syntax: 's.py' now has/);
  same(rp, viaJson(py));
  // JSON text keeps JSON's default: the same request without options.syntax is reported there.
  const { options: _o, ...plain } = py;
  assert.equal(viaJson(plain).data.files['s.py'].syntax.parsed_after, false);
  assert.equal('syntax' in applyRequestSync(plain).data.files['s.py'], false);
});

test('several splices, a CRLF file with a BOM, and whole_file: the same as the JSON path', async () => {
  const crlf = '\ufeffa\r\nb\r\nc\r\n'.repeat(300);
  const cases = [
    { format: 'replace', files: { f: crlf }, edit: { old_string: 'b', new_string: 'B\nB2', replace_all: true } },
    { format: 'whole_file', files: { f: 'a\nb\nc\n'.repeat(500) }, edit: { content: 'a\nB\nc\n'.repeat(250) + 'a\nb\nc\n'.repeat(250) } },
    { format: 'search_replace', files: { f: 'one\ntwo\nthree\n', g: 'x\n' }, edit: { text: 'f\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n' } },
    { format: 'whole_file', files: {}, edit: { path: 'new.txt', content: 'fresh\n' } },
  ];
  for (const req of cases) {
    same(applyRequestSync(req), viaJsonOff(req));
    same(await applyRequest(req), viaJsonOff(req));
  }
});

test('bytes in, bytes out: a Uint8Array file keeps every byte outside the edit (not UTF-8 either)', () => {
  const latin1 = Uint8Array.from([...'caf', 0xe9, ...' = 1\nna', 0xef, ...'ve = 2\n'].map((c) => typeof c === 'string' ? c.charCodeAt(0) : c));
  const r = applyRequestSync({ format: 'replace', files: { 'a.py': latin1 }, edit: { old_string: '= 2', new_string: '= 3' } });
  assert.equal(r.status, 'success', r.text);
  const out = r.data.files['a.py'].content;
  assert.ok(out instanceof Uint8Array);
  const want = latin1.slice();
  want[want.length - 2] = '3'.charCodeAt(0);
  assert.deepEqual([...out], [...want]);
});

test('what only JSON text can carry goes as JSON text: a lone surrogate gets the JSON path\'s answer', () => {
  const req = { format: 'replace', files: { 'a.py': 'x = 1\ud800\n' }, edit: { old_string: 'x = 1', new_string: 'x = 2' } };
  same(applyRequestSync(req), JSON.parse(applyJson(JSON.stringify(req))));
});

test('bad requests are values from the engine, as the same text gets everywhere', async () => {
  assert.equal(applyRequestSync({ format: 'replace', files: { a: 5 }, edit: {} }).error.code, 'INVALID_PARAM');
  assert.equal(applyRequestSync({ format: 'nope', files: { a: 'x' }, edit: {} }).error.code, 'INVALID_PARAM');
  const deep = [];
  let d = deep;
  for (let i = 0; i < 100000; i++) { const n = []; d.push(n); d = n; }
  assert.equal(applyRequestSync({ format: 'replace', files: {}, edit: {}, options: { x: deep } }).error.code, 'INVALID_PARAM');
  assert.equal((await applyRequest('{"format":"replace","files":{},"edit":{},"options":{"diff_context":1e400}}')).error.code, 'INVALID_PARAM');
});

test('an edit string only JSON text can carry (a lone surrogate) sends the whole request as JSON text: the same refusal, byte offset included', () => {
  const file = 'line\n'.repeat(100);
  const req = { format: 'whole_file', files: { f: file }, edit: { path: 'f', content: 'new\n'.repeat(50) + '\ud800' } };
  const r = applyRequestSync(req);
  assert.equal(r.error.code, 'INVALID_PARAM');
  same(r, viaJsonOff(req));
});

test('undo is built when read: on demand, the JSON path\'s bytes; a cut diff\'s undo, and a non-UTF-8 one, come built', () => {
  const before = 'def f():\n    return 1\n'.repeat(300) + 'x = 1\n' + '# tail\n'.repeat(300);
  const req = { format: 'replace', files: { 'a.py': before }, edit: { old_string: 'x = 1', new_string: 'x = 2\ny = 3' } };
  const r = applyRequestSync(req);
  const f = r.data.files['a.py'];
  assert.equal(typeof Object.getOwnPropertyDescriptor(f, 'undo').get, 'function', 'undo is on demand');
  assert.match(f.undo, /^--- a\/a\.py\n\+\+\+ b\/a\.py\n@@ -598,8 \+598,7 @@\n(?: .*\n){3}-x = 2\n-y = 3\n\+x = 1\n/);
  same(r, viaJsonOff(req));
  // Read off the diff the engine wrote, whatever the caller did with `diff` meanwhile.
  const r2 = applyRequestSync(req);
  r2.data.files['a.py'].diff = 'changed by the caller';
  assert.equal(r2.data.files['a.py'].undo, f.undo);
  // A diff cut by diff_max_bytes cannot give its undo: the engine builds it whole.
  const big = { format: 'whole_file', files: { g: 'a\nb\n'.repeat(400) }, edit: { content: 'A\nb\n'.repeat(400) }, options: { diff_max_bytes: 200 } };
  const rb = applyRequestSync(big);
  assert.equal(rb.data.files.g.diff_truncated, true);
  assert.equal(typeof Object.getOwnPropertyDescriptor(rb.data.files.g, 'undo').get, 'undefined', 'built, not on demand');
  same(rb, viaJsonOff(big));
  // A file whose diff is not UTF-8 (bytes in): the diff travels as base64, and so does its undo.
  const bytes = Uint8Array.from([...'x = 1\n', 0xff, ...'\n'].map((c) => typeof c === 'string' ? c.charCodeAt(0) : c));
  const rn = applyRequestSync({ format: 'replace', files: { h: bytes }, edit: { old_string: 'x = 1', new_string: 'x = 2' } });
  assert.equal(typeof rn.data.files.h.diff, 'object');
  assert.equal(typeof rn.data.files.h.undo, 'object');
  assert.equal(Buffer.from(rn.data.files.h.undo.base64, 'base64').toString('latin1'), '--- a/h\n+++ b/h\n@@ -1,2 +1,2 @@\n-x = 2\n+x = 1\n \xff\n');
});

test('long edit strings go beside the JSON: the same answers, errors and order of checks as in JSON text', () => {
  const file = 'line\n'.repeat(100) + 'target block\n'.repeat(3) + 'end\n';
  const long = 'new content ☃\n'.repeat(50);
  const cases = [
    { format: 'whole_file', files: { f: file }, edit: { path: 'f', content: long } },
    { format: 'whole_file', files: { f: file }, edit: { path: 'f', content: 'nul \u0000 inside\n'.repeat(20) } },
    { format: 'replace', files: { f: file }, edit: { old_string: 'target block\n'.repeat(3), new_string: long } },
    { format: 'replace', files: { f: file }, edit: { old_string: 'absent\n'.repeat(20), new_string: long } },
    // content is not a member of replace: JSON's 'unknown field' error, before options' own.
    { format: 'replace', files: { f: file }, edit: { old_string: 'end', new_string: 'x', content: long }, options: { diff_context: 'x' } },
    { format: 'correction_prompt', files: { f: file }, edit: { content: long } },
    { format: 'whole_file', files: { f: file }, edit: { path: 'f', content: long + '\ud800' } }, // a lone surrogate: JSON text
  ];
  for (const req of cases) same(applyRequestSync(req), viaJsonOff(req));
  // A member JSON.stringify would not write stays unwritten.
  const hidden = { path: 'f', content: 'shown\n' };
  Object.defineProperty(hidden, 'old_string', { value: long, enumerable: false });
  const req = { format: 'whole_file', files: { f: file }, edit: hidden };
  same(applyRequestSync(req), viaJsonOff(req));
});

test("one block for a call's inputs: every size around a slot's and the own-block bound, ASCII or not, as the JSON path answers", () => {
  // fast.js's Inputs: short inputs share one block in ASCII-sized slots; a non-ASCII string that
  // does not fit its slot, and any input of 64K units or more, gets a block of its own.
  const grow = (unit, n) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  let checked = 0;
  for (const n of [0, 1, 63, 64, 65535, 65536, 70000]) {
    for (const unit of ['ab\n', 'é😀\n']) {
      const tail = grow(unit, n);
      const file = `head\nx = 1\n${tail}`;
      const path = unit === 'ab\n' ? 'dir/a.py' : 'dir/é.py';
      for (const edit of [{ old_string: 'x = 1', new_string: `x = 2${unit.trim()}` },
        { old_string: `x = 1\n${tail}`, new_string: `y = 1\n${tail}` }]) {
        const req = { format: 'replace', files: { [path]: file, 'other.txt': unit.repeat(3) }, edit: { path, ...edit } };
        const r = applyRequestSync(req);
        assert.equal(r.status, 'success', `${n} ${JSON.stringify(unit)}`);
        assert.equal(r.data.files[path].content, file.replace(edit.old_string, edit.new_string));
        same(r, viaJsonOff(req));
        const bytes = new TextEncoder().encode(file);
        const rb = applyRequestSync({ ...req, files: { [path]: bytes } });
        assert.equal(new TextDecoder().decode(rb.data.files[path].content), file.replace(edit.old_string, edit.new_string));
        checked++;
      }
    }
  }
  assert.equal(checked, 28);
});
