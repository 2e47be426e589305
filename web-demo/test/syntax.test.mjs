// The syntax check in Chromium (docs/syntax.md): editcore.wasm holds no parser; a language's
// module (js/dist/syntax/<language>.wasm) is fetched the first time a request needs it, and only
// then; the answers are the native build's, byte for byte; the synchronous API says which module
// it lacks; a web worker (editcore/worker) loads its modules the same way.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { launch, repo } from './chromium.mjs';

const NATIVE = join(repo, 'build/native/editcore');
const untimed = (s) => s.replace(/"time_ms":[0-9.eE+-]+/g, '"time_ms":0');

let b;
let page;
const fetched = [];
before(async () => {
  b = await launch();
  page = await b.page();
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) fetched.push(new URL(r.url()).pathname); });
  await page.goto(b.server.url + 'web-demo/test/blank.html');
});
after(async () => { await b?.close(); });

const REQUESTS = {
  python: { format: 'replace', files: { 'stats.py': 'def mean(xs):\n    return sum(xs) / len(xs)\n' }, edit: { old_string: 'sum(xs) / len(xs)', new_string: 'sum(xs / len(xs)' } },
  rust: { format: 'replace', files: { 'main.rs': 'fn main() {\n    let x = f(1);\n}\n' }, edit: { old_string: 'let x = f(1);', new_string: 'let x = f(1;' } },
  text: { format: 'replace', files: { 'notes.txt': 'a (b\n' }, edit: { old_string: 'a (b', new_string: 'a (b c' } },
  ambiguous: { format: 'replace', files: { 'stats.py': 'def a():\n    x = 0\n\n\ndef b():\n    x = 0\n' }, edit: { old_string: 'x = 0', new_string: 'x = 1' } },
  lazy: { format: 'lazy', files: { 'm.py': 'def a():\n    return 1\n\n\ndef b():\n    return 2\n' }, edit: { snippet: '# ... existing code ...\ndef b()\n    return 2\n' } },
};

test('a language module is fetched when a request first needs it, and the answers are the native build\'s', async () => {
  const out = await page.evaluate(async (requests) => {
    const m = await import('/js/src/browser.js');
    await m.init({ full: true });
    const steps = {};
    const wasmNow = () => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm'));
    steps.afterInit = wasmNow();
    // The response text as the engine wrote it (applyRequest's object would print 1.0 as 1).
    const run = (name) => m.applyJsonAsync(JSON.stringify(requests[name]));
    steps.text = await run('text');
    steps.afterText = wasmNow();
    steps.python = await run('python');
    steps.afterPython = wasmNow();
    steps.ambiguous = await run('ambiguous');
    steps.lazy = await run('lazy');
    // The synchronous API before the Rust module, reports asked (a request object's default is
    // on demand: nothing parsed): the misuse error naming it (and the load starts).
    try { m.applyRequestSync({ ...requests.rust, options: { syntax: 'report' } }); steps.syncRust = 'answered'; } catch (e) { steps.syncRust = `${e.code} ${e.languages}`; }
    await m.loadSyntax(['rust']);
    steps.rust = m.applyJson(JSON.stringify(requests.rust));
    steps.afterRust = wasmNow();
    return steps;
  }, REQUESTS);
  const syntaxModules = (list) => list.filter((p) => p.includes('/dist/syntax/')).sort();
  assert.deepEqual(syntaxModules(out.afterInit), [], 'no syntax module at init');
  assert.deepEqual(syntaxModules(out.afterText), [], 'a .txt file needs none');
  assert.deepEqual(syntaxModules(out.afterPython), ['/js/dist/syntax/python.wasm'], 'python.wasm for the .py edit, nothing else');
  assert.deepEqual(syntaxModules(out.afterRust), ['/js/dist/syntax/python.wasm', '/js/dist/syntax/rust.wasm']);
  assert.equal(out.syncRust, 'EDITCORE_NEEDS_SYNTAX rust');
  const py = JSON.parse(out.python).data.files['stats.py'].syntax;
  assert.equal(py.language, 'python');
  assert.equal(py.parsed_before, true);
  assert.equal(py.parsed_after, false);
  assert.equal(JSON.parse(out.rust).data.files['main.rs'].syntax.new_errors[0].text, ')');
  assert.match(JSON.parse(out.ambiguous).error.message, /in 'def a\(\):'/);
  assert.equal(JSON.parse(out.lazy).error.code, 'SYNTAX_ERROR');
  // Byte for byte what the native CLI answers.
  if (existsSync(NATIVE)) {
    for (const name of Object.keys(REQUESTS)) {
      const r = spawnSync(NATIVE, ['json'], { input: JSON.stringify(REQUESTS[name]) });
      assert.equal(untimed(out[name]), untimed(r.stdout.toString('utf8').trimEnd()), name);
    }
  }
  assert.deepEqual(b.errors, []);
});

test('a web worker (editcore/worker) fetches the module it needs and answers the same', async () => {
  const before = fetched.length;
  const out = await page.evaluate(async (request) => {
    const { createWorkerClient } = await import('/js/src/worker.js');
    const client = createWorkerClient(new Worker('/js/src/worker-main.js', { type: 'module' }));
    try {
      return JSON.stringify(await client.applyRequest(request));
    } finally {
      client.terminate?.();
    }
  }, { format: 'replace', files: { 'app.go': 'package main\n\nfunc f(a int) int {\n\treturn g(a)\n}\n' }, edit: { old_string: 'return g(a)', new_string: 'return g(a' }, options: { syntax: 'report' } });
  const s = JSON.parse(out).data.files['app.go'].syntax;
  assert.deepEqual([s.language, s.parsed_before, s.parsed_after, s.new_errors[0].text], ['go', true, false, ')']);
  assert.ok(fetched.slice(before).includes('/js/dist/syntax/go.wasm'), `go.wasm fetched by the worker: ${fetched.slice(before)}`);
  assert.deepEqual(b.errors, []);
});
