import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, applyRequest, applyRequestSync, applyJson, replace, version } from '../src/index.js';

await init();

test('replace applies one exact edit and returns a unified diff', async () => {
  const res = await applyRequest({ format: 'replace', files: { 'a.py': 'def f():\n    return 1\n' }, edit: { old_string: 'return 1', new_string: 'return 2' } });
  assert.equal(res.status, 'success');
  const f = res.data.files['a.py'];
  assert.equal(f.content, 'def f():\n    return 2\n');
  assert.match(f.diff, /^--- a\/a\.py\n\+\+\+ b\/a\.py\n@@ -1,2 \+1,2 @@\n def f\(\):\n-    return 1\n\+    return 2\n$/);
  assert.equal(f.lines_added, 1);
  assert.equal(f.lines_removed, 1);
  assert.deepEqual(f.matches, [{ start_line: 2, end_line: 2, strategy: 'exact', confidence: 1 }]);
});

test('CRLF files stay CRLF and new_string is literal', async () => {
  const res = await replace('a\r\nb\r\n', 'b', '$& $1 \\1');
  assert.equal(res.data.files.file.content, 'a\r\n$& $1 \\1\r\n');
});

test('ambiguous and missing matches are errors that say where and what to do', async () => {
  const amb = await replace('x\ny\nx\n', 'x', 'z');
  assert.equal(amb.status, 'error');
  assert.equal(amb.error.code, 'AMBIGUOUS');
  assert.match(amb.error.message, /1, 3/);
  const miss = await replace('hello\n', 'goodbye', 'x');
  assert.equal(miss.error.code, 'NO_MATCH');
  assert.deepEqual(miss.data.files, {});
});

test('malformed requests are INVALID_PARAM responses, not exceptions', () => {
  const res = JSON.parse(applyJson('{"format":'));
  assert.equal(res.error.code, 'INVALID_PARAM');
  const unknown = applyRequestSync({ format: 'replace', files: {}, edit: {}, bogus: 1 });
  assert.equal(unknown.error.code, 'INVALID_PARAM');
  assert.match(unknown.error.message, /bogus/);
});

test('NUL bytes survive the JSON boundary and are refused as binary', async () => {
  const res = await replace('a\u0000b\n', 'a', 'c');
  assert.equal(res.error.code, 'BINARY_FILE');
});

test('non-ASCII text round-trips byte for byte', async () => {
  const res = await replace('naïve “quotes” — 日本語 😀\n', '日本語', 'にほんご');
  assert.equal(res.data.files.file.content, 'naïve “quotes” — にほんご 😀\n');
});

test('a 10 MB file crosses the boundary intact', async () => {
  const line = 'const value = compute(alpha, beta); // filler\n';
  const big = line.repeat(Math.ceil((10 << 20) / line.length)) + 'TARGET\n';
  const res = await replace(big, 'TARGET', 'DONE');
  assert.equal(res.status, 'success');
  assert.equal(res.data.files.file.content.length, big.length - 2);
  assert.ok(res.data.files.file.content.endsWith('DONE\n'));
});

test('a session of 10 000 edits does not grow the wasm heap', async () => {
  const mod = await init();
  const file = 'line one\nline two\n'.repeat(50) + 'end\n';
  for (let i = 0; i < 100; i++) await replace(file, 'end', `end ${i}`); // warm up: the allocator settles
  const before = mod.HEAPU8.length;
  for (let i = 0; i < 10000; i++) {
    const res = applyRequestSync({ format: 'replace', files: { f: file }, edit: { old_string: 'end', new_string: `end ${i}` } });
    if (res.status !== 'success') assert.fail(res.text);
  }
  assert.equal(mod.HEAPU8.length, before);
});

test('version matches the package', async () => {
  assert.match(await version(), /^\d+\.\d+\.\d+$/);
});
