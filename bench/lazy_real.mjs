#!/usr/bin/env node
// Lazy snippets as real models wrote them: every case of ../shared/lazy/multi-turn.jsonl through
// the native CLI (`editcore json`, format "lazy"), scored
//   right    — the merged file is byte-identical to the expectation
//   ws-only  — equal once every line is trimmed and blank lines are dropped (for a language whose
//              indentation is syntax — Python, YAML, Makefile, Haskell, F#, Nim — only trailing
//              whitespace is trimmed: a line moved into another block there is another program)
//   The strict line (issue 30): a blank line added or deleted that the snippet did not ask for
//   counts as wrong. A ws-only case whose blank lines differ from the expectation is ws-only
//   there only when, between every two neighbouring lines where the counts of blank lines differ,
//   ours is the count the snippet itself shows between those two lines (the expectation added or
//   dropped it), or, where the snippet's lines meet a marker's run (the last line before a marker
//   and the run's first line, or the run's last line and the first line after the marker), one of
//   the two readings of that place: the blank lines the snippet shows beside the marker, or those
//   the file has there (nothing added or deleted); otherwise it is wrong ("blank").
//   declined — any error (a decline is never wrong)
//   wrong    — any other success: the worst result (the model believes its code landed)
//   exp-wrong — a wrong whose expectation was reviewed and found wrong (bench/lazy_real_reviewed.json:
//              the case id, the SHA-256 of our output, and why: Morph dropped, moved or invented
//              code the snippet does not say to). Tied to that exact output: if the engine's output
//              changes, the case counts as wrong again until someone reviews it.
// per snippet shape, per model, per file, and split by the set's `checked` / `flagged` quality.
//
// The set's licence is unclear, so it is read at run time and never copied into this repository.
//
//   node bench/lazy_real.mjs [--set PATH] [--native PATH] [--no-instruction] [--only checked|flagged]
//        [--show wrong,declined,ws] [--id SUBSTRING] [--dump DIR] [--markdown] [--reviewed JSON]
//
// --show prints each listed case's verdict with the engine's message (or the first differing
// line); --dump writes <id>.{orig,snippet,want,got,msg} for reading; --markdown prints the tables
// for ACCURACY.md. The exit status is 1 when any case is wrong.
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, readCases } from './lazy_set.mjs';
import { VERDICTS, verdictOf, shortId } from './lazy_verdict.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = parseArgs({ instruction: true, only: null, reviewed: join(here, 'lazy_real_reviewed.json') }, {
  '--no-instruction': (a) => { a.instruction = false; },
  '--only': (a, next) => { a.only = next(); },
  '--reviewed': (a, next) => { a.reviewed = next(); },
});
const cases = readCases(args.set, args.id).filter((c) => !args.only || c.expect_quality === args.only);

// The shape a case is counted under: how the snippet places its markers.
function shapeOf(c) {
  const s = c.meta.shape;
  if (s.diff_style) return 'diff-style +/-';
  if (!s.markers) return 'no markers';
  if (s.leading_marker && s.trailing_marker) return 'markers top and bottom';
  if (s.leading_marker) return 'leading marker only';
  if (s.trailing_marker) return 'trailing marker only';
  return 'markers inside only';
}
const reviewed = existsSync(args.reviewed) ? JSON.parse(readFileSync(args.reviewed, 'utf8')) : {};

function run(c) {
  const edit = { ...c.edit };
  if (!args.instruction) delete edit.instruction;
  const req = JSON.stringify({ format: 'lazy', files: c.files, edit, profile: 'editcore' });
  const t0 = process.hrtime.bigint();
  const r = spawnSync(args.native, ['json'], { input: req, maxBuffer: 1 << 28 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${c.id}: CLI exited ${r.status}: ${r.stderr}`);
  const resp = JSON.parse(r.stdout.toString('utf8'));
  const path = c.edit.path ?? Object.keys(c.files)[0];
  if (resp.status === 'error') return { ...verdictOf(c, undefined, reviewed, `${resp.error.code}: ${resp.error.message}`), ms };
  const got = resp.data?.files?.[path]?.content ?? c.files[path];
  return { ...verdictOf(c, got, reviewed), ms, got };
}

const tables = { shape: new Map(), model: new Map(), file: new Map(), quality: new Map() };
const add = (t, k, v) => { if (!t.has(k)) t.set(k, Object.fromEntries(VERDICTS.map((x) => [x, 0]))); t.get(k)[v]++; };
const total = Object.fromEntries(VERDICTS.map((x) => [x, 0]));
let blankWrong = 0; // ws-only cases whose blank lines the snippet does not ask for (wrong in the strict line)
let maxMs = 0;
const results = [];
for (const c of cases) {
  const r = run(c);
  results.push({ c, r });
  total[r.verdict]++;
  if (r.blank) blankWrong++;
  maxMs = Math.max(maxMs, r.ms);
  add(tables.shape, shapeOf(c), r.verdict);
  add(tables.model, c.meta.model, r.verdict);
  add(tables.file, Object.keys(c.files)[0], r.verdict);
  add(tables.quality, c.expect_quality, r.verdict);
  if (args.show.has(r.verdict) || (args.show.has('ws') && r.verdict === 'ws-only'))
    console.log(`${r.verdict.padEnd(8)} ${c.expect_quality.padEnd(7)} ${shortId(c.id)}${r.msg ? `\n         ${r.msg.replace(/\n/g, '\n         ')}` : ''}`);
  if (args.dump) {
    mkdirSync(args.dump, { recursive: true });
    const base = join(args.dump, shortId(c.id).replace(/\//g, '__'));
    const path = c.edit.path ?? Object.keys(c.files)[0];
    writeFileSync(`${base}.orig`, c.files[path]);
    writeFileSync(`${base}.snippet`, c.edit.snippet);
    if (c.expect.files) writeFileSync(`${base}.want`, c.expect.files[path]);
    if (r.got !== undefined) writeFileSync(`${base}.got`, r.got);
    writeFileSync(`${base}.verdict`, `${r.verdict} ${c.expect_quality}\n${r.msg ?? ''}\n${JSON.stringify(c.meta, null, 1)}\n`);
  }
}

const pct = (n, d) => (d ? (100 * n / d).toFixed(1) : '0.0');
function print(title, t) {
  const rows = [...t.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  if (args.markdown) {
    console.log(`\n| ${title} | cases | right | ws-only | declined | wrong | expectation wrong | right or ws-only |`);
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
    for (const [k, v] of rows) {
      const n = VERDICTS.reduce((s, x) => s + v[x], 0);
      console.log(`| ${k} | ${n} | ${v.right} | ${v['ws-only']} | ${v.declined} | ${v.wrong} | ${v['exp-wrong']} | ${pct(v.right + v['ws-only'], n)} % |`);
    }
    return;
  }
  console.log(`\n${title.padEnd(26)} cases  right  ws-only  declined  wrong  exp-wrong`);
  for (const [k, v] of rows) {
    const n = VERDICTS.reduce((s, x) => s + v[x], 0);
    console.log(`${k.padEnd(26)} ${String(n).padStart(5)}  ${String(v.right).padStart(5)}  ${String(v['ws-only']).padStart(7)}  ${String(v.declined).padStart(8)}  ${String(v.wrong).padStart(5)}  ${String(v['exp-wrong']).padStart(9)}`);
  }
}
print('quality', tables.quality);
print('shape', tables.shape);
print('model', tables.model);
print('file', tables.file);
const n = cases.length;
const fair = n - total['exp-wrong'];
console.log(`\n${n} cases: ${total.right} right, ${total['ws-only']} ws-only, ${total.declined} declined, ${total.wrong} wrong, ` +
  `${total['exp-wrong']} whose expectation is wrong (reviewed) — right or ws-only ${pct(total.right + total['ws-only'], n)} % of all, ` +
  `${pct(total.right + total['ws-only'], fair)} % of the ${fair} with a sound expectation; slowest case ${maxMs.toFixed(1)} ms (process included)`);
const wsStrict = total['ws-only'] - blankWrong, wrongStrict = total.wrong + blankWrong;
console.log(`strict (a blank line the snippet does not ask for is wrong): ${total.right} right, ${wsStrict} ws-only, ${total.declined} declined, ` +
  `${wrongStrict} wrong (${blankWrong} of them for blank lines), ${total['exp-wrong']} whose expectation is wrong — right or ws-only ` +
  `${pct(total.right + wsStrict, n)} % of all, ${pct(total.right + wsStrict, fair)} % of the ${fair} with a sound expectation`);
process.exit(total.wrong ? 1 : 0);
