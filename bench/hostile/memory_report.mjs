#!/usr/bin/env node
// The memory-bound table (issue 27 item 5) for BENCHMARKS.md: every `mem/` case of cases.mjs,
// before and after, on each build: code and peak MB (natively also CPU s, and the bound).
//   node bench/hostile/memory_report.mjs AFTER_LABEL BEFORE_LABEL...
// reads bench/hostile/out/<label>.jsonl (several before labels are merged: earlier first wins).
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
const find = (rows, id, b) => rows.find((r) => r.id === id && r.build === b);
const mb = (n) => (n / 1048576).toFixed(1);
const cell = (r, native) => r ? `${r.ok === false ? '✗ ' : ''}${r.code}, ${r.peak_mb.toFixed(0)}${native ? `, ${(r.cpu_s ?? r.time_s).toFixed(2)} s` : ''}` : '–';
console.log('| case | input MB | bound MB | native before | native after | wasi before → after MB | npm before → after MB |');
console.log('|---|---:|---:|---|---|---|---|');
for (const c of cases.filter((x) => x.id.startsWith('mem/'))) {
  const a = find(after, c.id, 'native');
  if (!a) continue;
  const bound = 4 * a.input_bytes + (64 << 20);
  // a before run judged by today's bound: over it is ✗
  const bn = find(before, c.id, 'native');
  const bnCell = bn ? `${bn.peak_mb * 1048576 > bound || !bn.ok ? '✗ ' : ''}${bn.code}, ${bn.peak_mb.toFixed(0)}, ${(bn.cpu_s ?? bn.time_s).toFixed(2)} s` : '–';
  const w = (b) => `${find(before, c.id, b)?.peak_mb.toFixed(0) ?? '–'} → ${find(after, c.id, b)?.peak_mb.toFixed(0) ?? '–'}`;
  console.log(`| ${c.id.slice(4)} | ${mb(a.input_bytes)} | ${mb(bound)} | ${bnCell} | ${cell(a, true)} | ${w('wasi')} | ${w('npm')} |`);
}
