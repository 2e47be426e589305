#!/usr/bin/env node
// The accuracy thresholds (issue 30) over one engine's results (results.jsonl of run.mjs): no wrong
// answer (a success with other content, positive or must-refuse), byte-identical on at least 99 % of
// the positive cases, every must-refuse case refused. Exit 1 when one fails.
//   node bench/accuracy/thresholds.mjs bench/out/accuracy-slice/results.jsonl [--engine editcore]
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const file = argv.find((a) => !a.startsWith('--'));
const engine = argv.includes('--engine') ? argv[argv.indexOf('--engine') + 1] : 'editcore';
const rs = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((r) => r.engine === engine);
const pos = rs.filter((r) => r.kind === 'positive'), ref = rs.filter((r) => r.kind === 'refuse');
const wrong = rs.filter((r) => r.outcome === 'wrong');
const exact = pos.filter((r) => r.outcome === 'correct').length, refused = ref.filter((r) => r.outcome === 'refused').length;
const pct = (a, b) => (b ? (100 * a / b).toFixed(2) : '0.00');
const checks = [
  [`no wrong answer (${wrong.length} of ${rs.length})`, rs.length > 0 && wrong.length === 0],
  [`byte-identical on >= 99 % of positives (${pct(exact, pos.length)} %: ${exact} of ${pos.length})`, pos.length > 0 && exact >= 0.99 * pos.length],
  [`every must-refuse case refused (${refused} of ${ref.length})`, ref.length > 0 && refused === ref.length],
];
for (const [what, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
for (const r of wrong.slice(0, 20)) console.log(`  wrong: ${r.id} (${r.form}, ${r.strategy ?? ''})`);
const failed = checks.filter(([, ok]) => !ok).length;
console.log(`accuracy: ${checks.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
