// editcore/worker: createWorkerClient's promise API mirrors the main one, answered by
// serveWorker in a worker thread (a web worker in browsers; worker_threads here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { createWorkerClient } from '../src/worker.js';
import { init, applyRequest, diff } from '../src/index.js';

// The worker side under test is the same serveWorker a web worker runs; only the port differs.
const WORKER = `import(${JSON.stringify(new URL('../src/worker.js', import.meta.url).href)})
  .then(({ serveWorker }) => serveWorker({}, require('node:worker_threads').parentPort));`;
const wasm = readFileSync(new URL('../dist/editcore.wasm', import.meta.url));
const wasmTools = readFileSync(new URL('../dist/editcore-tools.wasm', import.meta.url)); // self-correction's module

/** A worker_threads Worker shaped like a web Worker (message events carry .data). */
function webLike(w) {
  return {
    postMessage: (m) => w.postMessage(m),
    addEventListener: (type, fn) => w.on(type, type === 'message' ? (data) => fn({ data }) : (err) => fn({ message: err?.message, error: err })),
    terminate: () => w.terminate(),
  };
}

test('the worker client gives the same responses as the main thread', async () => {
  const client = createWorkerClient(webLike(new Worker(WORKER, { eval: true })), { wasm, wasmTools });
  try {
    // A worker bundle finds dist/syntax/<language>.wasm by URL; under Node's worker_threads that
    // is a file: URL fetch() cannot read, so the host hands the module over, as an extension would.
    await client.init({ syntaxWasm: { python: readFileSync(new URL('../dist/syntax/python.wasm', import.meta.url)) } });
    await init();
    const req = { format: 'replace', files: { 'a.py': 'x = 1\n' }, edit: { old_string: 'x = 1', new_string: 'x = 2' } };
    const [w, m] = [await client.applyRequest(req), await applyRequest(req)];
    delete w.stats.time_ms; delete m.stats.time_ms;
    assert.deepEqual(w, m);
    assert.equal((await client.replace('a\n', 'a', 'b')).data.files.file.content, 'b\n');
    assert.equal((await client.applyEdit({ f: 'a\n' }, { format: 'whole_file', path: 'f', content: 'c\n' })).data.files.f.content, 'c\n');
    const d = await client.diff('a\n', 'b\n');
    const dm = await diff('a\n', 'b\n');
    assert.equal(d.diff, dm.diff);
    assert.match(await client.version(), /^\d+\.\d+\.\d+$/);
    assert.equal(JSON.parse(await client.applyJson('{"format":')).error.code, 'INVALID_PARAM');
    const big = 'line of text\n'.repeat(400000) + 'END\n';
    assert.equal((await client.replace(big, 'END', 'DONE')).data.files.file.content.length, big.length + 1);
    assert.equal((await client.applyRequest(null)).error.code, 'INVALID_PARAM');
    // Self-correction through the worker: the two steps; a fixer function cannot cross.
    const failed = { format: 'replace', files: { 'a.py': 'x = 1\n' }, edit: { path: 'a.py', old_string: 'x = 3', new_string: 'x = 2' } };
    const prompt = await client.correctionPrompt(failed);
    assert.match(prompt.data.prompt.user, /# Failed search text/);
    const fixed = await client.correctionApply(failed, '{"search": "x = 1", "replace": "x = 2", "no_changes_required": false, "explanation": "x is 1"}', { promptFiles: failed.files });
    assert.equal(fixed.data.files['a.py'].content, 'x = 2\n');
    await assert.rejects(client.applyRequest(failed, { fixer: async () => '' }), { name: 'TypeError', message: /cannot be sent to the worker/ });
    // Calls in flight when the worker stops are rejected, not left hanging.
    const inflight = client.replace(big, 'END', 'DONE');
    client.terminate();
    await assert.rejects(inflight, /terminated/);
    await assert.rejects(client.version(), /terminated/);
  } finally {
    client.terminate();
  }
});

test('createWorkerClient refuses what is not a worker, and needs one where there is no Worker', () => {
  assert.throws(() => createWorkerClient({}), { name: 'TypeError', message: /takes a Worker/ });
  assert.throws(() => createWorkerClient(), { name: 'TypeError', message: /needs a Worker/ });
});
