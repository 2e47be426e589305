#!/usr/bin/env node
// Summarises hostile-runner results as the markdown BENCHMARKS.md carries:
//   node bench/hostile/report.mjs AFTER_LABEL [BEFORE_LABEL...]
// reads bench/hostile/out/<label>.jsonl (several BEFORE labels are merged, e.g. a native and a
// wasm run) and prints (1) the worst case per category and build, (2) each case before -> after.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cases } from './cases.mjs';

const out = join(dirname(fileURLToPath(import.meta.url)), 'out');
const load = (label) => {
  const p = join(out, `${label}.jsonl`);
  return existsSync(p) ? readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
};
const [afterLabel, ...beforeLabels] = process.argv.slice(2);
const after = load(afterLabel), before = beforeLabels.flatMap(load);
const builds = [...new Set(after.map((r) => r.build))];
const cats = [...new Set(after.map((r) => r.cat))];
const size = (n) => n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(0)} KB` : `${n} B`;
const cpu = (r) => r.cpu_s ?? r.time_s;

console.log(`| category | cases | build | codes right | worst CPU s (case) | worst wall s | worst peak MB (case) |`);
console.log(`|---|---:|---|---:|---|---:|---|`);
for (const c of cats) {
  for (const b of builds) {
    const rs = after.filter((r) => r.cat === c && r.build === b);
    if (!rs.length) continue;
    const t = rs.reduce((m, r) => (cpu(r) > cpu(m) ? r : m)), p = rs.reduce((m, r) => (r.peak_mb > m.peak_mb ? r : m));
    const w = Math.max(...rs.map((r) => r.time_s));
    console.log(`| ${c} | ${rs.length} | ${b} | ${rs.filter((r) => r.ok).length}/${rs.length} | ${cpu(t).toFixed(2)} (${t.id.split('/')[1]}) | ${w.toFixed(2)} | ${p.peak_mb.toFixed(0)} (${p.id.split('/')[1]}) |`);
  }
}
if (!before.length) process.exit(0);
console.log(`\n| case | input | build | before: code, wall s, peak MB | after: code, CPU s, wall s, peak MB |`);
console.log(`|---|---:|---|---|---|`);
for (const r of after) {
  const o = before.find((x) => x.id === r.id && x.build === r.build);
  // judged again by today's expectation (a before run may have expected less)
  const want = [].concat(cases.find((c) => c.id === r.id)?.expect ?? []);
  const wasOk = o && want.includes(o.code);
  const was = o ? `${wasOk ? '' : '✗ '}${o.code}, ${o.time_s.toFixed(2)}, ${o.peak_mb.toFixed(0)}` : '–';
  console.log(`| ${r.id} | ${size(r.input_bytes)} | ${r.build} | ${was} | ${r.ok ? '' : '✗ '}${r.code}, ${cpu(r).toFixed(2)}, ${r.time_s.toFixed(2)}, ${r.peak_mb.toFixed(0)} |`);
}
