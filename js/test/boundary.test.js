// The JS boundary (src/index.js): requests are encoded straight into wasm memory, ASCII responses
// take a fast decode, and time_ms comes from the core's clock (ec_host.clock_ms), not from text patching.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, applyJson, applyRequestSync, loadSyntax } from '../src/index.js';

await init({ full: true }); // the byte boundary of the full module; test/lite.test.js covers the default (lite first) path
await loadSyntax(['python', 'javascript']); // the synchronous functions check only languages already loaded (test/syntax.test.js)

test('non-ASCII requests and responses round-trip (UTF-8 both ways)', () => {
  const content = 'naïve = "café"\nemoji = "😀"\n';
  const res = applyRequestSync({ format: 'replace', files: { 'é/ü.py': content }, edit: { old_string: 'café', new_string: 'thé ☕' } });
  assert.equal(res.status, 'success');
  assert.equal(res.data.files['é/ü.py'].content, 'naïve = "thé ☕"\nemoji = "😀"\n');
  // A request whose first bytes are ASCII and whose tail is not (the encoder's retry path).
  const big = 'x\n'.repeat(5000) + 'ünïcödé 😀\n';
  const r2 = applyRequestSync({ format: 'replace', files: { f: big }, edit: { old_string: 'ünïcödé 😀', new_string: 'ascii' } });
  assert.equal(r2.data.files.f.content, 'x\n'.repeat(5000) + 'ascii\n');
});

test('a large ASCII response decodes exactly', () => {
  const lines = Array.from({ length: 20000 }, (_, i) => `line ${i} \\ "quoted" \t tab`);
  const content = lines.join('\n') + '\n';
  const res = applyRequestSync({ format: 'replace', files: { f: content }, edit: { old_string: 'line 19999 ', new_string: 'last ' } });
  assert.equal(res.status, 'success');
  assert.equal(res.data.files.f.content, content.replace('line 19999 ', 'last '));
});

test('time_ms is measured by the core, and file text that looks like it is left alone', () => {
  const content = 'const s = \'"time_ms":0.000\';\n';
  const out = applyJson(JSON.stringify({ format: 'replace', files: { f: content }, edit: { old_string: 'const', new_string: 'let' } }));
  const res = JSON.parse(out);
  assert.equal(res.data.files.f.content, 'let s = \'"time_ms":0.000\';\n');
  assert.match(out, /"stats":\{"time_ms":\d+\.\d{3},/);
  // A real clock: a request that scans 8 MB of text takes a measurable time.
  const big = 'let x = compute(alpha, beta); // filler line\n'.repeat(180000) + 'END\n';
  const timed = applyRequestSync({ format: 'replace', files: { f: big }, edit: { old_string: 'END', new_string: 'DONE' } });
  assert.equal(timed.status, 'success');
  assert.ok(timed.stats.time_ms > 0, `time_ms ${timed.stats.time_ms}`);
  // An error response (stats followed by error) gets it too.
  const err = JSON.parse(applyJson(JSON.stringify({ format: 'replace', files: { f: 'a\n' }, edit: { old_string: 'zzz', new_string: 'y' } })));
  assert.equal(err.status, 'error');
  assert.equal(typeof err.stats.time_ms, 'number');
});

test('a request given as UTF-8 bytes gives the same response as its text', () => {
  const req = JSON.stringify({ format: 'replace', files: { 'é.py': 'naïve\n' }, edit: { old_string: 'naïve', new_string: 'ok' } });
  const a = JSON.parse(applyJson(req)), b = JSON.parse(applyJson(new TextEncoder().encode(req)));
  delete a.stats.time_ms; delete b.stats.time_ms;
  assert.deepEqual(b, a);
  assert.equal(b.data.files['é.py'].content, 'ok\n');
});
