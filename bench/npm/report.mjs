#!/usr/bin/env node
// The npm-path benchmark's tables (issue 28) from one run's JSON lines: Node and Chromium side by
// side, the targets of issue 28 item 3 judged on the medians and on the minima, peak memory.
//
//   node bench/npm/report.mjs bench/out/results     (reads npm-node.jsonl, npm-chromium.jsonl, npm-meta.json)
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'bench/out/results';
const lines = (f) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);
const rows = [...lines('npm-node.jsonl'), ...lines('npm-chromium.jsonl')];
const meta = existsSync(join(dir, 'npm-meta.json')) ? JSON.parse(readFileSync(join(dir, 'npm-meta.json'), 'utf8')) : {};
const chromiumMeta = rows.find((r) => r.env === 'chromium' && r.kind === 'meta');
const ENVS = ['node', 'chromium'];
const SIZES = ['10k', '1m', '10m'];
const time = (env, size, w, c) => rows.find((r) => r.kind === 'time' && r.env === env && r.size === size && r.workload === w && r.contender === c);
const mem = (env, size, w, c) => rows.find((r) => r.kind === 'memory' && r.env === env && r.size === size && r.workload === w && r.contender === c);
const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toPrecision(2));
const cell = (r) => (!r ? '–' : `${ms(r.median_ms)} (${ms(r.min_ms)})${r.cold ? ' n=1' : ''}${r.ok ? '' : ' **WRONG**'}`);
const out = [];

out.push(`One run of \`bench/npm/run.sh\`: ${meta.date ?? '?'}, ${meta.runtime_s ?? '?'} s; Node ${meta.node ?? '?'}, ${chromiumMeta?.chromium ?? 'Chromium: not run'}`
  + ` (a dedicated module worker, the page cross-origin isolated: ${chromiumMeta?.cross_origin_isolated ? 'yes' : 'no'});`
  + ` load average ${meta.load_before ?? '?'} before, ${meta.load_after ?? '?'} after (2 cores).`, '');
out.push('Median ms (min); n=1: one cold run, too slow to repeat; every answer checked (content, and the diff where the contender makes one).', '');
out.push('| size | workload | contender | diff | Node | Chromium worker |', '|---|---|---|---|---:|---:|');
const seen = new Set();
for (const size of SIZES) {
  for (const r of rows.filter((x) => x.kind === 'time' && x.size === size)) {
    const key = `${size} ${r.workload} ${r.contender}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(`| ${size} | ${r.workload} | ${r.contender} | ${r.has_diff ? 'yes' : 'no'} | ${cell(time('node', size, r.workload, r.contender))} | ${cell(time('chromium', size, r.workload, r.contender))} |`);
  }
}

// Targets of issue 28 item 3: [workload, peer, goal(ratio) -> bool, how the ratio reads].
const TARGETS = [
  ['W1', 'v8 indexOf+slice', 'W1 ≤ 2× V8 indexOf+slice', (e, p) => e / p, (x) => x <= 2, (x) => `${x.toFixed(2)}×`],
  ['W1', 'gemini', 'W1 never slower than Gemini', (e, p) => e / p, (x) => x <= 1, (x) => `${x.toFixed(2)}×`],
  ['W2', 'gemini', 'W2 ≥ 3× faster than Gemini', (e, p) => p / e, (x) => x >= 3, (x) => `${x.toFixed(2)}× faster`],
  ['W3', 'gemini', 'W3 ≥ 3× faster than Gemini', (e, p) => p / e, (x) => x >= 3, (x) => `${x.toFixed(2)}× faster`],
  ['W4', 'jsdiff createTwoFilesPatch', 'W4 ≥ 2× faster than jsdiff', (e, p) => p / e, (x) => x >= 2, (x) => `${x.toFixed(2)}× faster`],
];
out.push('', 'Targets (issue 28 item 3): the ratio on medians (on minima); **met** when both meet it.', '');
out.push('| target | size | Node | Chromium worker |', '|---|---|---|---|');
for (const [w, peer, label, ratio, goal, show] of TARGETS) {
  for (const size of SIZES) {
    const cells = ENVS.map((env) => {
      const e = time(env, size, w, 'editcore'), p = time(env, size, w, peer);
      if (!e || !p) return '–';
      const a = ratio(e.median_ms, p.median_ms), b = ratio(e.min_ms, p.min_ms);
      // A minimum of 0: under the timer's resolution (5 µs in an isolated page): no ratio.
      if (!Number.isFinite(a) || !Number.isFinite(b) || a === 0 || b === 0) return `${Number.isFinite(a) && a ? show(a) : '–'} (under the timer's resolution)`;
      const verdict = goal(a) && goal(b) ? '**met**' : !goal(a) && !goal(b) ? '**missed**' : 'met on one of the two';
      return `${show(a)} (${show(b)}) ${verdict}`;
    });
    if (cells.some((c) => c !== '–')) out.push(`| ${label} | ${size} | ${cells.join(' | ')} |`);
  }
}

const mb = (n) => (n / 1048576).toFixed(1);
const times = (n, input) => `${mb(n)} MB (${(n / input).toFixed(2)}×)`;
const memCell = (r) => {
  if (!r) return '–';
  if (r.skipped) return `not probed (${r.skipped})`;
  let s = times(r.rss_peak_extra, r.input_bytes);
  if (r.wasm_before != null && r.wasm_after != null) s += `; wasm ${mb(r.wasm_before)}→${mb(r.wasm_after)} MB`;
  if (r.worker_live_extra !== undefined) s += `; live ${mb(r.worker_live_extra)} MB`;
  if (r.heap_after_extra !== undefined) s += `; heap ${mb(r.heap_after_extra)} MB`;
  return s + (r.ok ? '' : ' **WRONG**');
};
const memRows = rows.filter((r) => r.kind === 'memory');
if (memRows.length) {
  out.push('', 'Peak memory of one first run, over the resident set before it (× the input\'s bytes); target for editcore ≤ 2×.',
    'Node: the process\'s resident high-water mark (fresh process per contender), V8\'s heap growth while the answer is held,',
    'the wasm memory\'s size before→after. Chromium: the renderer\'s resident high-water mark (the worker runs there; a fresh',
    'worker per contender), the wasm memory, and measureUserAgentSpecificMemory\'s live bytes of the worker while the answer is held.', '');
  out.push('| size | workload | contender | Node | Chromium worker |', '|---|---|---|---|---|');
  const seenM = new Set();
  for (const r of memRows) {
    const key = `${r.size} ${r.workload} ${r.contender}`;
    if (seenM.has(key)) continue;
    seenM.add(key);
    out.push(`| ${r.size} | ${r.workload} | ${r.contender} | ${memCell(mem('node', r.size, r.workload, r.contender))} | ${memCell(mem('chromium', r.size, r.workload, r.contender))} |`);
  }
}
const errors = rows.filter((r) => r.kind === 'errors');
if (errors.length) out.push('', `Page errors: ${JSON.stringify(errors.flatMap((e) => e.errors))}`);
console.log(out.join('\n'));
