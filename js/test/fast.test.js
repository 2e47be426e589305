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
