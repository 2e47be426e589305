// The package's default path loads editcore-lite.wasm first and the full editcore.wasm only when
// a request needs it (src/engine.js). Its results must be the full module's, byte for byte
// (stats.time_ms aside): every conformance vector is run through the default path — on the lite
// module wherever it answers, on the full one where the lite one defers — and through the full
// module alone, in separate processes (the engine loads once per process). The synchronous API
// refuses a request that needs the absent full module with a TypeError; the async API, the
// worker and init({ full: true }) wait for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createWorkerClient } from '../src/worker.js';

const index = JSON.stringify(new URL('../src/index.js', import.meta.url).href);
const root = fileURLToPath(new URL('../..', import.meta.url));
const fullWasm = fileURLToPath(new URL('../dist/editcore.wasm', import.meta.url));
const liteWasm = fileURLToPath(new URL('../dist/editcore-lite.wasm', import.meta.url));
// Every syntax module, loaded before the synchronous runs (the async API loads them on demand).
const languages = JSON.stringify(readdirSync(new URL('../dist/syntax/', import.meta.url)).filter((f) => f.endsWith('.wasm')).map((f) => f.slice(0, -5)));

/** Runs `code` (an ES module body, `m` the package) in a fresh Node process; its stdout lines. */
function fresh(code) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${index});\n${code}`], { encoding: 'utf8', maxBuffer: 1 << 30 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n');
}

// Every vector's request text: editcore's own vectors, and the shared ones when EDITCORE_SHARED is set.
function requestTexts() {
  const dirs = [join(root, 'tests/conformance/vectors')];
  if (process.env.EDITCORE_SHARED) dirs.push(join(process.env.EDITCORE_SHARED, 'conformance'));
  const texts = [];
  for (const dir of dirs.filter(existsSync))
    for (const f of readdirSync(dir).sort().filter((f) => f.endsWith('.jsonl')))
      for (const line of readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.trim())) {
        const v = JSON.parse(line);
        texts.push(v.tool_request ? JSON.stringify({ tool: v.tool_request.tool, ...v.tool_request })
          : v.request_text ?? JSON.stringify({ format: v.format, files: v.files, edit: v.edit, profile: v.peer, ...(v.options ? { options: v.options } : {}) }));
      }
  return texts;
}

test('every conformance vector: the default path (lite, full on demand) answers as the full module alone', () => {
  const texts = requestTexts();
  assert.ok(texts.length > 300, `${texts.length} vectors`);
  const dir = mkdtempSync(join(tmpdir(), 'editcore-lite-'));
  try {
    const file = join(dir, 'requests.json');
    writeFileSync(file, JSON.stringify(texts));
    const prelude = `const texts = JSON.parse((await import('node:fs')).readFileSync(${JSON.stringify(file)}, 'utf8'));
      const untimed = (s) => s.replace(/"time_ms":[0-9.]+/, '"time_ms":0');\n`;
    // The full module alone.
    const [wantJson] = fresh(`${prelude}await m.init({ full: true }); await m.loadSyntax(${languages});
      console.log(JSON.stringify(texts.map((t) => untimed(m.applyJson(t)))));`);
    // The default path. First every request synchronously on the lite module (no await in the
    // loop, so the full module cannot arrive meanwhile): an answer, or the misuse error. Then the
    // deferred ones through the async API, which fetches the full module.
    const [gotJson, counts] = fresh(`${prelude}const low = await m.init(); await m.loadSyntax(${languages});
      if (typeof low._editcore_lite_needs_full !== 'function') throw new Error('init() did not load the lite module');
      const out = texts.map((t) => {
        try { return untimed(m.applyJson(t)); }
        catch (e) { if (e.code !== 'EDITCORE_NEEDS_FULL' || e.name !== 'TypeError') throw e; return null; }
      });
      const answered = out.filter((o) => o !== null).length;
      for (let i = 0; i < texts.length; i++) {
        if (out[i] !== null) continue;
        let request;
        try { request = JSON.parse(texts[i]); } catch { request = undefined; }
        // Text that is not a JSON object has no async form (applyRequest takes objects): the
        // synchronous function after the full module is in.
        if (request === null || typeof request !== 'object' || Array.isArray(request) || JSON.stringify(request) !== texts[i]) { await m.init({ full: true }); out[i] = untimed(m.applyJson(texts[i])); }
        else {
          // A request object's syntax default is on demand (docs/syntax.md): JSON's, named.
          if (request.options === undefined) request.options = { syntax: 'report' };
          else if (request.options && typeof request.options === 'object' && !Array.isArray(request.options) && !('syntax' in request.options)) request.options.syntax = 'report';
          out[i] = untimed(JSON.stringify(await m.applyRequest(request)));
        }
      }
      console.log(JSON.stringify(out));
      console.log(JSON.stringify({ answered, deferred: texts.length - answered }));`);
    const want = JSON.parse(wantJson), got = JSON.parse(gotJson);
    const { answered, deferred } = JSON.parse(counts);
    assert.ok(answered > 100 && deferred > 0, `lite answered ${answered}, deferred ${deferred}: both paths exercised`);
    // applyRequest's response is JSON.parse of the same text: compare as values.
    const differing = texts.map((t, i) => i).filter((i) => JSON.stringify(JSON.parse(got[i])) !== JSON.stringify(JSON.parse(want[i])));
    assert.deepEqual(differing.map((i) => texts[i].slice(0, 120)), []);
    // And as bytes, where the response came back as text (every one the lite module answered).
    assert.ok(got.filter((g, i) => g === want[i]).length >= answered);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const LAZY = `{ format: 'lazy', files: { f: 'a\\nb\\n' }, edit: { snippet: 'a\\n// ... existing code ...\\nc\\n' } }`;
const PLAIN = `{ format: 'replace', files: { f: 'a\\n' }, edit: { old_string: 'a', new_string: 'b' } }`;

test('the synchronous API: a request that needs the full module is a TypeError until init({ full: true })', () => {
  const out = fresh(`await m.init();
    console.log(m.applyRequestSync(${PLAIN}).status);
    try { m.applyRequestSync(${LAZY}); console.log('no error'); } catch (e) { console.log(e.name, e.code, /await init\\(\\{ full: true \\}\\)/.test(e.message), /async/.test(e.message)); }
    try { m.applyJson(JSON.stringify(${LAZY})); console.log('no error'); } catch (e) { console.log(e.name, e.code); }
    const full = await m.init({ full: true });
    console.log(typeof full._editcore_lite_needs_full, m.applyRequestSync(${LAZY}).status, m.applyRequestSync(${PLAIN}).status);`);
  assert.deepEqual(out, ['success', 'TypeError EDITCORE_NEEDS_FULL true true', 'TypeError EDITCORE_NEEDS_FULL', 'undefined success success']);
});

test('the async API waits for the full module; later runs go to it', () => {
  const out = fresh(`const low = await m.init();
    console.log(typeof low._editcore_lite_needs_full);
    console.log((await m.applyRequest(${LAZY})).status);
    console.log(m.applyRequestSync(${LAZY}).status); // the full module is in now
    console.log((await m.applyEdit({ f: 'x = 1\\n' }, { format: 'search_replace', text: 'f\\n------- SEARCH\\nx = 1\\n=======\\nx = 2\\n+++++++ REPLACE\\n' }, { profile: 'cline' })).status);`);
  assert.deepEqual(out, ['function', 'success', 'success', 'success']);
});

test('init({ wasm }) is the full module alone; init({ wasmLite, wasm }) loads lite now and wasm when needed', () => {
  const one = fresh(`const { readFileSync } = await import('node:fs');
    const low = await m.init({ wasm: readFileSync(${JSON.stringify(fullWasm)}) });
    console.log(typeof low._editcore_lite_needs_full, m.applyRequestSync(${LAZY}).status);`);
  assert.deepEqual(one, ['undefined success']);
  const two = fresh(`const { readFileSync } = await import('node:fs');
    let fetched = 0;
    const wasm = { then: (ok) => { fetched++; return Promise.resolve(readFileSync(${JSON.stringify(fullWasm)})).then(ok); } };
    const low = await m.init({ wasmLite: readFileSync(${JSON.stringify(liteWasm)}), wasm });
    console.log(typeof low._editcore_lite_needs_full, (await m.replace('a\\n', 'a', 'b')).status, fetched);
    console.log((await m.applyRequest(${LAZY})).status, fetched);`);
  assert.deepEqual(two, ['function success 0', 'success 1']);
});

test('the worker client: applyJson of a request that needs the full module waits for it', async () => {
  const WORKER = `import(${JSON.stringify(new URL('../src/worker.js', import.meta.url).href)})
    .then(({ serveWorker }) => serveWorker({}, require('node:worker_threads').parentPort));`;
  const w = new Worker(WORKER, { eval: true });
  const client = createWorkerClient({
    postMessage: (m) => w.postMessage(m),
    addEventListener: (type, fn) => w.on(type, type === 'message' ? (data) => fn({ data }) : (err) => fn({ message: err?.message, error: err })),
    terminate: () => w.terminate(),
  });
  try {
    // The worker runs the browser entry (src/browser.js), which in Node cannot fetch file: URLs:
    // both modules are handed over, the full one to be compiled only when needed.
    await client.init({ wasmLite: readFileSync(liteWasm), wasm: readFileSync(fullWasm) });
    const lazy = { format: 'lazy', files: { f: 'a\nb\n' }, edit: { snippet: 'a\n// ... existing code ...\nc\n' } };
    assert.equal(JSON.parse(await client.applyJson(JSON.stringify(lazy))).status, 'success');
    assert.equal((await client.applyRequest(lazy)).status, 'success');
  } finally {
    client.terminate();
  }
});
