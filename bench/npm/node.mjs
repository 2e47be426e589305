#!/usr/bin/env node
// The npm path against the runtime and the JS peers, in Node (issue 28): one process, every
// contender of a workload interleaved round by round after warm-up; medians (min-max) in ms.
//
//   node bench/npm/node.mjs [--out bench/out] [--sizes 10k,1m,10m] [--budget-ms 1500] [--json]
//
// Inputs: bench/gen.mjs's files in --out (bench/npm/run.sh writes them). Contenders and checks:
// bench/npm/workloads.mjs. Prints one JSON line per (size, workload, contender).
import { readFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { contenders, loadInput, WORKLOADS } from './workloads.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const OUT = resolve(opt('--out', join(root, 'bench/out')));
const SIZES = opt('--sizes', '10k,1m,10m').split(',');
const ONLY = opt('--workloads', WORKLOADS.join(',')).split(',');
const BUDGET = Number(opt('--budget-ms', '1500'));

const api = await import(pathToFileURL(join(root, 'js/src/index.js')).href);
await api.init({ full: true });
// The workloads' file is file.js: its syntax module loaded before the synchronous runs (docs/syntax.md).
await api.loadSyntax(['javascript']);
const peers = {};
try { peers.gemini = await import(pathToFileURL(join(root, 'bench/node_modules/@google/gemini-cli-core/dist/src/tools/edit.js')).href); } catch { /* absent: not measured */ }
try { peers.jsdiff = await import(pathToFileURL(join(root, 'bench/node_modules/diff/libesm/index.js')).href); } catch {
  try { peers.jsdiff = await import('diff'); } catch { /* absent */ }
}

const stats = (ts) => {
  const s = ts.slice().sort((a, b) => a - b), n = s.length;
  return { n, median_ms: n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2, min_ms: s[0], max_ms: s[n - 1] };
};

for (const size of SIZES) {
  const input = loadInput((name) => readFileSync(join(OUT, size, name), 'utf8'));
  for (const w of WORKLOADS.filter((x) => ONLY.includes(x))) {
    const list = contenders(w, input, api, peers);
    const expect = input[w].expect;
    for (const c of list) {
      const r = await c.run();
      c.ok = r.content === expect && (r.diff === undefined || (typeof r.diff === 'string' && r.diff.includes('\n@@ -')));
    }
    let slowest = 0;
    for (const c of list) { const t0 = performance.now(); await c.run(); slowest = Math.max(slowest, performance.now() - t0); }
    const rounds = Math.max(5, Math.min(300, Math.floor(BUDGET / (slowest * list.length || 1))));
    const times = list.map(() => []);
    for (let r = 0; r < rounds; r++) {
      for (let j = 0; j < list.length; j++) {
        const i = (j + r) % list.length;
        const t0 = performance.now();
        const out = await list[i].run();
        // Reading the content forces a rope string flat as a caller's use would (a write, a search).
        if (out.content.length && out.content.charCodeAt(out.content.length >> 1) < 0) throw new Error('unreachable');
        times[i].push(performance.now() - t0);
      }
    }
    list.forEach((c, i) => process.stdout.write(JSON.stringify({ env: 'node', size, workload: w, contender: c.name, ok: c.ok, ...stats(times[i]) }) + '\n'));
  }
}
