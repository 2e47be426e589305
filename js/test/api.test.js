// The typed API over the protocol: applyEdit, diff, replace's options, misuse as TypeError,
// every way init() accepts the .wasm, and the CommonJS entry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init, applyEdit, applyRequest, applyRequestSync, applyJson, replace, diff } from '../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
await init();

test('applyEdit applies each format from {format, ...fields}', async () => {
  const files = { 'a.py': 'def f():\n    return 1\n' };
  const sr = await applyEdit(files, { format: 'search_replace', text: 'a.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n' }, { profile: 'aider' });
  assert.equal(sr.status, 'success', sr.text);
  assert.equal(sr.data.files['a.py'].content, 'def f():\n    return 2\n');
  const ud = await applyEdit(files, { format: 'unified_diff', text: '--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n def f():\n-    return 1\n+    return 3\n' }, { diff_context: 0 });
  assert.equal(ud.data.files['a.py'].content, 'def f():\n    return 3\n');
  const wf = await applyEdit({}, { format: 'whole_file', path: 'new.txt', content: 'hi\n' });
  assert.equal(wf.data.files['new.txt'].action, 'add');
});

test('self-correction requests go through applyRequest as they are (correction_prompt)', async () => {
  const res = await applyRequest({ format: 'correction_prompt', files: { 'a.py': 'def total(xs):\n    return sum(xs)\n' },
    edit: { failed: { format: 'replace', edit: { old_string: 'def total(values):', new_string: 'def total(values, start=0):' } } } });
  assert.equal(res.status, 'success', res.text);
  assert.equal(typeof res.data.prompt.system, 'string');
  assert.match(res.data.prompt.user, /def total\(xs\)/);
});

test('an unknown edit field is an INVALID_PARAM response naming the known fields', async () => {
  const res = await applyEdit({ f: 'a\n' }, { format: 'search_replace', content: 'x' });
  assert.equal(res.error.code, 'INVALID_PARAM');
  assert.match(res.error.message, /'edit\.content'.*known: .*text/);
});

test('diff: the engine\'s unified diff; identical texts give an empty one; binary is an error value', async () => {
  const d = await diff('a\nb\nc\n', 'a\nB\nc\n', { path: 'x.txt', diff_context: 0 });
  assert.deepEqual([d.status, d.diff, d.lines_added, d.lines_removed], ['success', '--- a/x.txt\n+++ b/x.txt\n@@ -2 +2 @@\n-b\n+B\n', 1, 1]);
  const same = await diff('a\n', 'a\n');
  assert.deepEqual([same.status, same.diff], ['success', '']);
  const created = await diff(null, 'new\n', { path: 'n.txt' });
  assert.match(created.diff, /^--- \/dev\/null\n\+\+\+ b\/n\.txt\n/);
  const bin = await diff('a\u0000\n', 'b\n');
  assert.equal(bin.status, 'error');
  assert.equal(bin.error.code, 'BINARY_FILE');
});

test('replace: edit fields, profile and request options are told apart', async () => {
  const all = await replace('x x x\n', 'x', 'y', { replace_all: true, diff_context: 0, path: 'p.txt' });
  assert.equal(all.data.files['p.txt'].content, 'y y y\n');
  const bad = await replace('x\n', 'x', 'y', { no_such_option: 1 });
  assert.equal(bad.error.code, 'INVALID_PARAM');
  assert.match(bad.error.message, /options\.no_such_option/);
});

test('misuse of the API throws a TypeError with a clear message; bad edits never throw', async () => {
  // What JSON can carry is the engine's to judge (issue 27 item 6): an INVALID_PARAM value, as
  // the same text gets from every build; only what no JSON holds is a misuse.
  await assert.rejects(applyRequest(undefined), { name: 'TypeError', message: /takes an object/ });
  assert.throws(() => applyRequestSync(() => 1), { name: 'TypeError', message: /takes an object/ });
  assert.equal((await applyRequest(null)).error.code, 'INVALID_PARAM');
  assert.equal((await applyRequest('{"format":"replace"}')).error.code, 'INVALID_PARAM');
  assert.equal(applyRequestSync([]).error.code, 'INVALID_PARAM');
  assert.equal(applyRequestSync(5).error.code, 'INVALID_PARAM');
  assert.throws(() => applyJson(42), { name: 'TypeError', message: /JSON string/ });
  await assert.rejects(replace(42, 'a', 'b'), { name: 'TypeError', message: /content as a string/ });
  await assert.rejects(applyEdit({ f: 1 }, { format: 'replace' }), { name: 'TypeError', message: /files\['f'\]/ });
  await assert.rejects(applyEdit({}, { old_string: 'a' }), { name: 'TypeError', message: /with its format/ });
  await assert.rejects(diff('a', 1), TypeError);
  await assert.rejects(init(5), TypeError);
  const res = await applyRequest({ format: 'nope', files: {}, edit: {} });
  assert.equal(res.status, 'error');
});

// init({ wasm }) in a fresh process per source (the engine loads once per process).
const wasmPath = fileURLToPath(new URL('../dist/editcore.wasm', import.meta.url));
const sources = {
  bytes: `new Uint8Array(readFileSync(${JSON.stringify(wasmPath)}))`,
  arrayBuffer: `new Uint8Array(readFileSync(${JSON.stringify(wasmPath)})).buffer`,
  module: `new WebAssembly.Module(readFileSync(${JSON.stringify(wasmPath)}))`,
  response: `new Response(readFileSync(${JSON.stringify(wasmPath)}), { headers: { 'content-type': 'application/wasm' } })`,
  'response promise': `Promise.resolve(new Response(readFileSync(${JSON.stringify(wasmPath)})))`,
  'data: URL': `new URL('data:application/wasm;base64,' + readFileSync(${JSON.stringify(wasmPath)}).toString('base64'))`,
};
for (const [name, expr] of Object.entries(sources)) {
  test(`init({ wasm: ${name} }) loads the engine`, () => {
    const code = `import { readFileSync } from 'node:fs';
      const m = await import(${JSON.stringify(new URL('../src/index.js', import.meta.url).href)});
      await m.init({ wasm: ${expr} });
      const r = await m.replace('a\\n', 'a', 'b');
      console.log(r.data.files.file.content === 'b\\n' ? 'OK' : JSON.stringify(r));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    assert.equal(r.stdout.trim(), 'OK', r.stderr);
  });
}

test('a failed load rejects init() with the reason, and a later init() can succeed', () => {
  const code = `const m = await import(${JSON.stringify(new URL('../src/index.js', import.meta.url).href)});
    await m.init({ wasm: new Uint8Array([0, 97, 115, 109, 9, 9, 9, 9]) }).then(() => console.log('resolved'), (e) => console.log('rejected'));
    await m.init();
    console.log((await m.replace('a\\n', 'a', 'b')).status);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.deepEqual(r.stdout.trim().split('\n'), ['rejected', 'success'], r.stderr);
});

test('the CommonJS entry: require() gives the same API', () => {
  const code = `const ec = require(${JSON.stringify(here + '../src/index.cjs')});
    try { ec.applyRequestSync({}); } catch (e) { console.log(e.name); }
    ec.applyEdit({ f: 'a\\n' }, { format: 'replace', old_string: 'a', new_string: 'b' }).then((r) => {
      console.log(r.data.files.f.content.trim());
      console.log(ec.applyRequestSync({ format: 'replace', files: { f: 'x\\n' }, edit: { old_string: 'x', new_string: 'y' } }).status);
    });`;
  const r = spawnSync(process.execPath, ['-e', code], { encoding: 'utf8' });
  assert.deepEqual(r.stdout.trim().split('\n'), ['TypeError', 'b', 'success'], r.stderr);
});

test('the package.json exports every entry with its types', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  assert.equal(pkg.exports['.'].import.types, './src/index.d.ts');
  assert.equal(pkg.exports['.'].require.default, './src/index.cjs');
});
