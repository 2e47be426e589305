#!/usr/bin/env node
// The npm path against the runtime and the JS peers, in Node (issue 28). Two modes:
//
//   node bench/npm/node.mjs [--out bench/out] [--sizes 10k,1m,10m] [--mem-sizes 1m,10m] [--budget-ms 1500] [--pkg js]
//     times every (size, workload, contender) in this process (bench/npm/measure.mjs's loop);
//     one JSON line each: { env: "node", kind: "time", size, workload, contender, ok, n, median_ms, ... };
//     then, for --mem-sizes, runs itself with --memory once per contender (a fresh process each)
//   node --expose-gc bench/npm/node.mjs --memory --size 1m --workload W1 --contender editcore [...]
//     one contender's first run at the size in this (fresh) process, after WARM_RUNS on the 10 KB
//     input, and its peak memory: the resident set's high-water mark (VmHWM, reset through
//     /proc/self/clear_refs just before the run) over the resident set before it, V8's heap
//     before/after, the wasm memory's size before/after; one JSON line.
//
// Inputs: bench/gen.mjs's files in --out (bench/npm/run.sh writes them). --pkg: the npm package's
// folder (run.sh passes the packed tarball's contents; default js/). Contenders: bench/npm/workloads.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import v8 from 'node:v8';
import { spawnSync } from 'node:child_process';
import { contenders, contenderNames, loadInput, WORKLOADS } from './workloads.mjs';
import { timeWorkload, answerOk, touch, WARM_RUNS } from './measure.mjs';
import { memOf, resetPeak } from './procmem.mjs';
import { root, args, opt, OUT, PKG, loadPackage } from './cli.mjs';

const BUDGET = Number(opt('--budget-ms', '1500'));
const SLOW = Number(opt('--slow-ms', '10000'));

const { api, engine } = await loadPackage();
// A memory probe loads only the peer it measures (a faster start; the baseline is taken after loading).
const wanted = args.includes('--memory') ? opt('--contender') : 'gemini jsdiff';
const peers = {};
if (wanted.includes('gemini')) {
  try { peers.gemini = await import(pathToFileURL(join(root, 'bench/node_modules/@google/gemini-cli-core/dist/src/tools/edit.js')).href); } catch { /* absent: not measured */ }
}
if (/gemini|jsdiff/.test(wanted)) {
  try { peers.jsdiff = await import(pathToFileURL(join(root, 'bench/node_modules/diff/libesm/index.js')).href); } catch { /* absent */ }
}
const read = (size) => loadInput((name) => readFileSync(join(OUT, size, name), 'utf8'));

if (args.includes('--memory')) {
  const size = opt('--size'), w = opt('--workload'), name = opt('--contender');
  const input = read(size);
  const pick = (inp) => contenders(w, inp, api, peers).find((x) => x.name === name);
  const c = pick(input);
  if (!c) throw new Error(`no contender ${name} for ${w}`);
  // Warm on the 10 KB input first: the code it runs compiled and tiered up (V8 compiles wasm and
  // JS lazily, then again optimised), so the peak below is the data's, not the compiler's.
  const warm = pick(read('10k'));
  for (let i = 0; i < WARM_RUNS; i++) touch(await warm.run());
  // init()'s module is for diagnostics (js/src/engine.js): without HEAPU8 the size is not reported.
  const wasmBytes = () => engine?.HEAPU8?.buffer.byteLength ?? null;
  globalThis.gc(); globalThis.gc();
  const heap0 = v8.getHeapStatistics().used_heap_size, wasm0 = wasmBytes(), rss0 = memOf().rss;
  resetPeak(); // the high-water mark starts again at the current resident set
  const t0 = performance.now();
  const out = await c.run();
  touch(out);
  const ms = performance.now() - t0;
  const { hwm } = memOf();
  const heap1 = v8.getHeapStatistics().used_heap_size;
  const row = {
    env: 'node', kind: 'memory', size, workload: w, contender: name, ok: answerOk(out, input[w].expect),
    input_bytes: Buffer.byteLength(input.before), ms, rss_before: rss0, rss_peak_extra: hwm - rss0,
    heap_before: heap0, heap_after_extra: heap1 - heap0,
    ...(name === 'editcore' ? { wasm_before: wasm0, wasm_after: wasmBytes() } : {}),
  };
  process.stdout.write(JSON.stringify(row) + '\n');
} else {
  const SIZES = opt('--sizes', '10k,1m,10m').split(',').filter(Boolean);
  const MEM_SIZES = opt('--mem-sizes', '').split(',').filter(Boolean);
  const ONLY = opt('--workloads', WORKLOADS.join(',')).split(',');
  const slow = new Set();
  for (const size of SIZES) {
    const input = read(size);
    for (const w of WORKLOADS.filter((x) => ONLY.includes(x))) {
      const rows = await timeWorkload(contenders(w, input, api, peers), input[w].expect, { budgetMs: BUDGET, slowMs: SLOW });
      for (const r of rows) {
        process.stdout.write(JSON.stringify({ env: 'node', kind: 'time', size, workload: w, ...r }) + '\n');
        if (r.cold) slow.add(`${size} ${w} ${r.contender}`);
      }
    }
  }
  // Peak memory: each contender's first run in a fresh process (this file with --memory), so one
  // contender's garbage or grown wasm memory is not the next one's baseline.
  for (const size of MEM_SIZES) {
    for (const w of WORKLOADS.filter((x) => ONLY.includes(x))) {
      for (const name of contenderNames(w, Object.keys(peers))) {
        if (slow.has(`${size} ${w} ${name}`)) {
          process.stdout.write(JSON.stringify({ env: 'node', kind: 'memory', size, workload: w, contender: name, skipped: `one run takes over ${SLOW / 1000} s` }) + '\n');
          continue;
        }
        const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--memory', '--out', OUT, '--pkg', PKG,
          '--size', size, '--workload', w, '--contender', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
        if (child.status !== 0) throw new Error(`memory probe ${size} ${w} ${name}: exit ${child.status}`);
        process.stdout.write(child.stdout);
      }
    }
  }
}
