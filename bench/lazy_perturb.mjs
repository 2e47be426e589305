#!/usr/bin/env node
// The self-check against misplaced merges, on the real set: every case bench/lazy_real.mjs scores
// right or ws-only is dumped, and build/native/lazy_perturb moves each run of inserted lines of
// the engine's result one line up and one line down (across the line next to it) and runs the
// check (ec_lz_check_merge) on each moved result, which is a wrong merge. Prints how many moved
// results the check declines, in all and for moves across a line that closes, continues or (with
// a trailing `:`) opens a block, per file.
//   node bench/lazy_perturb.mjs [--tool PATH] [--keep DIR]
import { readFileSync, readdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let tool = join(root, 'build/native/lazy_perturb'), keep = null;
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--tool') tool = resolve(process.argv[++i]);
  else if (process.argv[i] === '--keep') keep = resolve(process.argv[++i]);
  else { console.error(`unknown argument ${process.argv[i]}`); process.exit(2); }
}
if (!existsSync(tool)) { console.error(`${tool} not found: build the native preset first`); process.exit(2); }
const dir = keep ?? mkdtempSync(join(tmpdir(), 'lazy-perturb-'));
const bench = spawnSync(process.execPath, [join(root, 'bench/lazy_real.mjs'), '--dump', dir], { encoding: 'utf8' });
if (bench.status === 2) { process.stderr.write(bench.stderr); process.exit(2); }
const FAMS = ['slide', 'overlap', 'depth'];
const zero = () => ({ cases: 0, unchecked: 0, slide: [0, 0, 0, 0], overlap: [0, 0, 0, 0], depth: [0, 0] });
const per = new Map();
const total = zero();
for (const v of readdirSync(dir).filter((n) => n.endsWith('.verdict')).sort()) {
  const base = join(dir, v.slice(0, -'.verdict'.length));
  const verdict = readFileSync(join(dir, v), 'utf8').split(/\s/)[0];
  if (verdict !== 'right' && verdict !== 'ws-only') continue;
  const file = v.split('__')[1];
  const r = spawnSync(tool, [file, `${base}.orig`, `${base}.snippet`, `${base}.got`], { encoding: 'utf8' });
  const row = per.get(file) ?? zero();
  per.set(file, row);
  if (/unchecked/.test(r.stdout)) { row.unchecked++; total.unchecked++; continue; }
  const m = /slide (\d+) (\d+) (\d+) (\d+) overlap (\d+) (\d+) (\d+) (\d+) depth (\d+) (\d+)/.exec(r.stdout);
  if (!m) { console.error(`${v}: ${r.stdout}${r.stderr}`); process.exit(2); }
  const k = m.slice(1).map(Number);
  for (const t of [row, total]) {
    t.cases++;
    for (let i = 0; i < 4; i++) { t.slide[i] += k[i]; t.overlap[i] += k[4 + i]; }
    for (let i = 0; i < 2; i++) t.depth[i] += k[8 + i];
  }
  if (process.env.LAZY_PERTURB_VERBOSE && (k[0] > k[1] || k[4] > k[5] || k[8] > k[9]))
    console.log(`${v.slice(0, -8)}: passed slide ${k[0] - k[1]}, overlap ${k[4] - k[5]}, depth ${k[8] - k[9]}`);
}
const cell = (t, f) => `${t[f][1]}/${t[f][0]}` + (f !== 'depth' ? ` (${t[f][3]}/${t[f][2]})` : '');
console.log('caught / misplaced results (in brackets: moves across a line that closes, continues or opens a block)');
console.log('file'.padEnd(24), 'cases'.padStart(5), ...FAMS.map((f) => f.padStart(18)));
for (const [f, t] of [...per].sort()) console.log(f.padEnd(24), String(t.cases).padStart(5), ...FAMS.map((x) => cell(t, x).padStart(18)));
console.log('all'.padEnd(24), String(total.cases).padStart(5), ...FAMS.map((x) => cell(total, x).padStart(18)));
const caught = total.slide[1] + total.overlap[1] + total.depth[1], n = total.slide[0] + total.overlap[0] + total.depth[0];
console.log(`\n${total.cases} right or ws-only cases (${total.unchecked} more whose own result the check declines), ${n} misplaced results: the check declines ${caught}, lets ${n - caught} pass`);
if (!keep) rmSync(dir, { recursive: true, force: true });
