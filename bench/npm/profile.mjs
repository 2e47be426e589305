#!/usr/bin/env node
// Where the npm path's time goes on one workload (issue 28: the 10 MB W1): runs the workload's
// editcore contender (bench/npm/workloads.mjs: applyRequestSync, the content and the diff read)
// `--runs` times in a child `node --cpu-prof` and prints the self time by function, heaviest first,
// and by kind (wasm, JS of the package, V8 built-ins and GC).
//
//   node bench/npm/profile.mjs [--out bench/out] [--size 10m] [--workload W1] [--runs 40] [--pkg js]
//
// Needs bench/gen.mjs's inputs for the size (bench/npm/run.sh makes them). Wasm functions carry
// their names only if the module has a name section (a --profiling-funcs link); otherwise V8
// shows them as wasm-function[N] and the kind table still holds.
import { readFileSync, readdirSync, mkdirSync, rmSync } from 'node:fs';
import { join, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { contenders, loadInput } from './workloads.mjs';
import { touch } from './measure.mjs';
import { root, args, opt, OUT, loadPackage } from './cli.mjs';

const SIZE = opt('--size', '10m');
const W = opt('--workload', 'W1');
const RUNS = Number(opt('--runs', '40'));

if (args.includes('--child')) {
  const { api } = await loadPackage();
  const input = loadInput((n) => readFileSync(join(OUT, SIZE, n), 'utf8'));
  const c = contenders(W, input, api, {}).find((x) => x.name === 'editcore');
  touch(await c.run()); // warm: compiled, memory grown
  const t0 = performance.now();
  for (let i = 0; i < RUNS; i++) touch(await c.run());
  process.stdout.write(`${((performance.now() - t0) / RUNS).toFixed(2)}\n`);
} else {
  const dir = join(root, 'build/bench-npm/prof');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const child = spawnSync(process.execPath, ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100',
    fileURLToPath(import.meta.url), '--child', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (child.status !== 0) throw new Error(`profiled run: exit ${child.status}`);
  const prof = JSON.parse(readFileSync(join(dir, readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))), 'utf8'));
  // Self time per node: the samples' time deltas attributed to the node sampled.
  const self = new Map();
  prof.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0) / 1000));
  // Only the runs: the nodes under the contender's run() (bench/npm/workloads.mjs) and GC.
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isRun = (f) => f.functionName === 'run' && f.url.endsWith('/workloads.mjs');
  const inRun = (id) => { for (let q = id; q !== undefined; q = parent.get(q)) if (isRun(byId.get(q).callFrame)) return true; return false; };
  const fn = new Map(), kind = new Map(), callers = new Map(); // name -> Map(caller name -> ms)
  let total = 0;
  for (const [id, t] of self) {
    const { callFrame: f } = byId.get(id);
    const gc = f.functionName === '(garbage collector)';
    if (!gc && !inRun(id)) continue;
    const k = gc ? 'GC' : f.url.startsWith('wasm://') || /^(\$|wasm-function)/.test(f.functionName) ? 'wasm' : f.url ? `JS ${basename(f.url)}` : 'V8 built-ins';
    const name = `${f.functionName || '(anonymous)'} ${f.url ? `${basename(f.url)}:${f.lineNumber + 1}` : ''}`.trim();
    fn.set(name, (fn.get(name) ?? 0) + t);
    const up = parent.get(id) !== undefined ? byId.get(parent.get(id)).callFrame.functionName || '(anonymous)' : '';
    if (!callers.has(name)) callers.set(name, new Map());
    callers.get(name).set(up, (callers.get(name).get(up) ?? 0) + t);
    kind.set(k, (kind.get(k) ?? 0) + t);
    total += t;
  }
  const pct = (t) => `${((100 * t) / total).toFixed(1)} %`;
  const out = [`${SIZE} ${W}, editcore (applyRequestSync, content and diff read), ${RUNS} runs: ${child.stdout.trim()} ms a run (profiled, 100 µs sampling);`,
    `${total.toFixed(0)} ms of samples in the runs and GC.`, '', '| kind | self ms | share |', '|---|---:|---:|'];
  for (const [k, t] of [...kind].sort((a, b) => b[1] - a[1])) out.push(`| ${k} | ${t.toFixed(0)} | ${pct(t)} |`);
  out.push('', '| function (self time) | self ms | share | called from (share of its time) |', '|---|---:|---:|---|');
  for (const [k, t] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    const from = [...callers.get(k)].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([c, x]) => `${c} ${((100 * x) / t).toFixed(0)} %`).join(', ');
    out.push(`| \`${k}\` | ${t.toFixed(0)} | ${pct(t)} | ${from} |`);
  }
  console.log(out.join('\n'));
}
