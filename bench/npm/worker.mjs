// The Chromium side of the npm-path benchmark (issue 28): a dedicated module worker that imports
// the packed npm package unbundled (its `worker`/`browser` entry, src/browser.js, which finds its
// .wasm files by URL), the peers' browser bundle (bench/npm/peers-browser.mjs) and the same
// workloads and timing loop as Node. bench/npm/browser.mjs serves it and drives it by messages:
//   { cmd: 'setup' }                                   -> { gemini, jsdiff } (which peers loaded)
//   { cmd: 'time', size, budgetMs, slowMs }            -> { rows } (every workload of the size)
//   { cmd: 'prepare', size, workload, contender }      -> { wasm_before } (warm-up runs at 10 KB, a gc)
//   { cmd: 'run' }                                     -> { ms, wasm_after } (the answer is kept)
//   { cmd: 'check' }                                   -> { ok } (the kept answer checked, dropped)
import { contenders, loadInput, WORKLOADS } from './workloads.mjs';
import { timeWorkload, answerOk, touch, WARM_RUNS } from './measure.mjs';

let api, engine, peers = {};
const inputs = new Map(); // size -> input; the 10 KB one stays (warm-up), a larger one replaces the last
let pending = null, kept = null;

async function readInput(size) {
  if (inputs.has(size)) return inputs.get(size);
  if (size !== '10k') for (const k of inputs.keys()) if (k !== '10k') inputs.delete(k); // the last size's strings go first
  const names = ['file.js', 'after.js', ...['W1', 'W2', 'W3'].flatMap((w) => [`${w}.old`, `${w}.new`, `${w}.expect`])];
  const texts = await Promise.all(names.map(async (n) => {
    const r = await fetch(`/out/${size}/${n}`);
    if (!r.ok) throw new Error(`/out/${size}/${n}: ${r.status}`);
    return [n, await r.text()];
  }));
  const byName = new Map(texts);
  const input = loadInput((n) => byName.get(n));
  inputs.set(size, input);
  return input;
}

// init()'s module is for diagnostics (js/src/engine.js): without HEAPU8 the size is not reported.
const wasmBytes = () => engine?.HEAPU8?.buffer.byteLength ?? null;

const handlers = {
  async setup() {
    api = await import('/pkg/src/browser.js');
    engine = await api.init({ full: true });
    await api.loadSyntax(['javascript']);
    try { peers = await import('/peers/peers.js'); } catch (e) { peers = {}; console.error(`peers: ${e.message}`); }
    return { gemini: !!peers.gemini, jsdiff: !!peers.jsdiff, gc: typeof globalThis.gc === 'function' };
  },
  async time({ size, budgetMs, slowMs, workloads = WORKLOADS }) {
    const inp = await readInput(size);
    const rows = [];
    for (const w of workloads) {
      for (const r of await timeWorkload(contenders(w, inp, api, peers), inp[w].expect, { budgetMs, slowMs })) rows.push({ workload: w, ...r });
    }
    return { rows };
  },
  async prepare({ size, workload, contender }) {
    const inp = await readInput(size);
    const pick = (i) => contenders(workload, i, api, peers).find((x) => x.name === contender);
    const c = pick(inp);
    if (!c) throw new Error(`no contender ${contender} for ${workload}`);
    const warm = pick(await readInput('10k'));
    for (let i = 0; i < WARM_RUNS; i++) touch(await warm.run()); // compiled first: the peak below is the data's
    pending = { c, expect: inp[workload].expect, bytes: new TextEncoder().encode(inp.before).length };
    kept = null;
    if (globalThis.gc) { globalThis.gc(); globalThis.gc(); }
    return { wasm_before: wasmBytes(), input_bytes: pending.bytes };
  },
  async run() {
    const t0 = performance.now();
    kept = await pending.c.run();
    touch(kept);
    return { ms: performance.now() - t0, wasm_after: wasmBytes() };
  },
  async check() {
    const ok = answerOk(kept, pending.expect);
    kept = null; pending = null;
    return { ok };
  },
};

self.onmessage = async ({ data }) => {
  try {
    self.postMessage({ id: data.id, ok: true, value: await handlers[data.cmd](data) });
  } catch (e) {
    self.postMessage({ id: data.id, ok: false, error: String(e?.stack ?? e) });
  }
};
