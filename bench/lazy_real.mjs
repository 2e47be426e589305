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
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs, readCases } from './lazy_set.mjs';

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
const sha = (t) => createHash('sha256').update(t).digest('hex').slice(0, 16);
const norm = (t) => t.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
const normKeepIndent = (t) => t.split('\n').map((l) => l.trimEnd()).filter(Boolean).join('\n');
const indentIsSyntax = (path) => /\.(py|pyi|ya?ml|mk|hs|fs|fsx|nim|coffee)$|(^|\/)(Makefile|GNUmakefile)$/.test(path);
const shortId = (id) => id.replace(/^editcore\/lazy-public#/, '');

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
  const want = c.expect.files?.[path];
  if (resp.status === 'error') return { verdict: 'declined', msg: `${resp.error.code}: ${resp.error.message}`, ms };
  const got = resp.data?.files?.[path]?.content ?? c.files[path];
  // A case with no expectation (bench/lazy-fresh's cab-early): its success is what a reviewer
  // read and recorded for this exact output; unread, it counts as wrong.
  if (want == null) {
    const rev = reviewed[shortId(c.id)];
    if (rev && rev.sha256_16 === sha(got) && VERDICTS.includes(rev.verdict)) return { verdict: rev.verdict, ms, got, msg: `reviewed: ${rev.reason}` };
    return { verdict: 'wrong', ms, got, msg: `no expectation and not reviewed (output sha256/16 ${sha(got)})` };
  }
  if (got === want) return { verdict: 'right', ms, got };
  if ((indentIsSyntax(path) ? normKeepIndent : norm)(got) === (indentIsSyntax(path) ? normKeepIndent : norm)(want)) {
    const bad = blankNotAsked(got, want, c.meta?.shape?.diff_style ? undiff(c.edit.snippet) : c.edit.snippet, c.files[path]);
    return { verdict: 'ws-only', ms, got, blank: bad, msg: bad ? `blank lines: ${bad}` : undefined };
  }
  const rev = reviewed[shortId(c.id)];
  if (rev && rev.sha256_16 === sha(got)) return { verdict: 'exp-wrong', ms, got, msg: `expectation reviewed as wrong: ${rev.reason}` };
  return { verdict: 'wrong', ms, got, msg: `${firstDiff(want, got)} (output sha256/16 ${sha(got)})` };
}

// A diff-style snippet as the lines it writes: `+` and context lines without their prefix, `-` lines left out.
const undiff = (t) => t.split('\n').filter((l) => !l.startsWith('-')).map((l) => /^[+ ]/.test(l) ? l.slice(1) : l).join('\n');
// The non-blank lines (trimmed) with the count of blank lines before each (and after the last).
function runsOf(text) {
  const out = [];
  let blanks = 0;
  for (const l of text.split('\n')) {
    if (!l.trim()) { blanks++; continue; }
    out.push({ t: l.trim(), before: blanks });
    blanks = 0;
  }
  out.push({ t: null, before: blanks });
  return out;
}
// Where got and want (the same non-blank lines) differ in blank lines that the snippet does not
// show as got has them: a description of the first such place, or null when there is none.
// A marker line as the set writes them (a comment whose text starts with an ellipsis).
const MARKER = /^(\/\/+|#+|--|\/\*+|<!--|\{\/\*)\s*(\.\.\.|…)/;
function blankNotAsked(got, want, snippet, orig) {
  const g = runsOf(got.replace(/\n$/, '')), w = runsOf(want.replace(/\n$/, '')), s = runsOf(snippet.replace(/\n$/, ''));
  if (g.length !== w.length) return 'the non-blank lines differ';
  const o = runsOf(orig.replace(/\n$/, ''));
  const key = (...p) => p.join('\u0000');
  const shown = new Set(), beforeMarker = new Set(), afterMarker = new Set();
  for (let k = 1; k < s.length; k++) {
    if (s[k - 1].t === null || s[k].t === null) continue;
    const m0 = MARKER.test(s[k - 1].t), m1 = MARKER.test(s[k].t);
    if (!m0 && !m1) shown.add(key(s[k - 1].t, s[k].before, s[k].t));
    if (!m0 && m1) beforeMarker.add(key(s[k - 1].t, s[k].before));
    if (m0 && !m1) afterMarker.add(key(s[k].before, s[k].t));
  }
  const fileBefore = new Set(), fileAfter = new Set();
  for (let k = 1; k < o.length; k++) {
    if (o[k].t !== null) fileBefore.add(key(o[k].before, o[k].t));
    if (o[k - 1].t !== null) fileAfter.add(key(o[k - 1].t, o[k].before));
  }
  for (let k = 0; k < g.length; k++) {
    if (g[k].before === w[k].before) continue;
    const prev = k ? g[k - 1].t : null, cur = g[k].t, n = g[k].before;
    if (prev !== null && cur !== null) {
      if (shown.has(key(prev, n, cur))) continue;
      // The snippet's last line before a marker, then the run's first line (a file line).
      const snippetToRun = [...beforeMarker].some((x) => x.startsWith(key(prev, ''))) && [...fileBefore].some((x) => x.endsWith(key('', cur)));
      if (snippetToRun && (beforeMarker.has(key(prev, n)) || fileBefore.has(key(n, cur)))) continue;
      // The run's last line (a file line), then the snippet's first line after the marker.
      const runToSnippet = [...afterMarker].some((x) => x.endsWith(key('', cur))) && [...fileAfter].some((x) => x.startsWith(key(prev, '')));
      if (runToSnippet && (afterMarker.has(key(n, cur)) || fileAfter.has(key(prev, n)))) continue;
    }
    return `${n} blank line(s) before ${JSON.stringify(cur ?? '<eof>')} where the expectation has ${w[k].before} and neither the snippet nor the file shows ${n} there`;
  }
  return null;
}

function firstDiff(want, got) {
  const a = want.split('\n'), b = got.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `first difference at line ${i + 1}: want ${JSON.stringify(a[i] ?? '<eof>')} got ${JSON.stringify(b[i] ?? '<eof>')} (want ${a.length} lines, got ${b.length})`;
}

const VERDICTS = ['right', 'ws-only', 'declined', 'wrong', 'exp-wrong'];
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
