#!/usr/bin/env node
// The syntax check measured (issue 32; BENCHMARKS.md "Syntax", docs/syntax.md), through the native
// CLI (`editcore batch`: one process, JSON Lines):
//   1. false positives on real history: every distinct real edit of the accuracy corpus
//      (bench/out/accuracy/cases.jsonl, bench/accuracy/gen.mjs) as a whole-file edit from the
//      commit's parent to the commit; a file that parsed before must parse after;
//   2. the lazy sets (../shared/lazy/multi-turn.jsonl): each case with the default options and
//      with options.syntax "off"; what the guard changes (a merge turned into a SYNTAX_ERROR decline:
//      was it wrong, whitespace-only or right?);
//   3. fuzzed damage on the corpus's clean files (seeded): a closing bracket, a quote or a line
//      dropped or doubled; the catch rate (a new syntax error reported) per language and kind;
//   4. the cost of the check per MB (time_ms of the core with the report minus without, min of 5).
//
//   node bench/syntax_bench.mjs [--native build/native/editcore] [--cases bench/out/accuracy/cases.jsonl]
//        [--set ../shared/lazy/multi-turn.jsonl] [--seed 32] [--per-file 6] [--markdown]
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const NATIVE = resolve(opt('--native', join(root, 'build/native/editcore')));
const CASES = resolve(opt('--cases', join(root, 'bench/out/accuracy/cases.jsonl')));
const SET = resolve(opt('--set', process.env.EDITCORE_SHARED ? join(process.env.EDITCORE_SHARED, 'lazy/multi-turn.jsonl') : join(root, '../shared/lazy/multi-turn.jsonl')));
const SEED = Number(opt('--seed', '32'));
const PER_FILE = Number(opt('--per-file', '6'));

/** Runs requests through `editcore batch`; the responses, in order. */
function batch(requests) {
  const out = [];
  for (let i = 0; i < requests.length; i += 500) {
    const chunk = requests.slice(i, i + 500);
    const r = spawnSync(NATIVE, ['batch'], { input: chunk.map((q) => JSON.stringify(q)).join('\n') + '\n', maxBuffer: 1 << 30 });
    if (r.status !== 0 && r.status !== 1) throw new Error(`batch exited ${r.status}: ${r.stderr}`);
    out.push(...r.stdout.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
  }
  return out;
}

const syntaxOf = (resp, path) => resp.data?.files?.[path]?.syntax;

// Section 1 - false positives on real history

function realEdits() {
  if (!existsSync(CASES)) { console.error(`${CASES} missing: node bench/accuracy/gen.mjs (ACCURACY.md)`); process.exit(2); }
  const seen = new Map();
  for (const line of readFileSync(CASES, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if (c.kind !== 'positive' || !c.expect?.content) continue;
    const key = `${c.repo}@${c.commit}:${c.path}`;
    if (!seen.has(key)) seen.set(key, { repo: c.repo, path: c.path, before: c.files[c.path], after: c.expect.content });
  }
  return [...seen.values()];
}

function falsePositives(edits) {
  const resps = batch(edits.map((e) => ({ format: 'whole_file', files: { [e.path]: e.before }, edit: { path: e.path, content: e.after } })));
  const byLang = {};
  const fps = [];
  resps.forEach((r, i) => {
    const s = syntaxOf(r, edits[i].path);
    if (!s) return;
    const row = (byLang[s.language] ??= { edits: 0, checked: 0, clean_before: 0, clean_after: 0, fp: 0, broken_before: 0, new_in_broken: 0 });
    row.edits++;
    if (!s.checked) return;
    row.checked++;
    if (s.parsed_before) {
      row.clean_before++;
      if (s.parsed_after) row.clean_after++;
      if (s.new_error_count > 0) { row.fp++; fps.push({ ...edits[i], s }); }
    } else {
      row.broken_before++;
      if (s.new_error_count > 0) row.new_in_broken++;
    }
  });
  return { byLang, fps };
}

/**
 * Whole commits of the corpus's pinned repositories (bench/accuracy/gen.mjs REPOS, read from the
 * bare mirrors): for the last `perRepo` commits that change a file of the repository's languages,
 * every such file from the parent's version to the commit's. The corpus's own cases are single
 * hunks of such commits, which need not leave a file that parses (a hunk without its partner).
 */
async function commitEdits(perRepo) {
  const { REPOS } = await import('./accuracy/gen.mjs');
  const mirror = process.env.ACCURACY_MIRROR || '/work/.mirror';
  const git = (repo, ...a) => {
    const r = spawnSync('git', ['-C', join(mirror, repo.replace('/', '+'), 'repo'), ...a], { maxBuffer: 1 << 28 });
    return r.status === 0 ? r.stdout.toString('utf8') : null;
  };
  const out = [];
  for (const repo of REPOS) {
    const specs = repo.exts.map((e) => `*${e}`);
    const log = git(repo.name, 'log', '--no-merges', `-n${perRepo}`, '--format=%H', repo.commit, '--', ...specs);
    if (!log) { console.error(`no mirror of ${repo.name} under ${mirror}`); continue; }
    for (const commit of log.split('\n').filter(Boolean)) {
      const names = git(repo.name, 'diff-tree', '--no-commit-id', '-r', '--diff-filter=M', '--name-only', commit, '--', ...specs) ?? '';
      for (const path of names.split('\n').filter(Boolean)) {
        const before = git(repo.name, 'show', `${commit}^:${path}`), after = git(repo.name, 'show', `${commit}:${path}`);
        if (before !== null && after !== null && before !== after) out.push({ repo: repo.name, commit, path, before, after });
      }
    }
  }
  return out;
}

// Section 2 - the lazy sets

const norm = (t) => t.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
const normKeep = (t) => t.split('\n').map((l) => l.trimEnd()).filter(Boolean).join('\n');
const indentIsSyntax = (p) => /\.(py|pyi|ya?ml|mk|hs|fs|fsx|nim|coffee)$|(^|\/)(Makefile|GNUmakefile)$/.test(p);

function verdict(c, resp) {
  const path = c.edit.path ?? Object.keys(c.files)[0];
  if (resp.status === 'error') return resp.error.code === 'SYNTAX_ERROR' ? 'syntax-declined' : 'declined';
  const got = resp.data?.files?.[path]?.content ?? c.files[path];
  const want = c.expect.files[path];
  if (got === want) return 'right';
  const n = indentIsSyntax(path) ? normKeep : norm;
  return n(got) === n(want) ? 'ws-only' : 'wrong';
}

function lazySet() {
  if (!existsSync(SET)) return null;
  const cases = readFileSync(SET, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
  const req = (c, off) => {
    const edit = { ...c.edit };
    delete edit.instruction;
    return { format: 'lazy', files: c.files, edit, profile: 'editcore', ...(off ? { options: { syntax: 'off' } } : {}) };
  };
  const on = batch(cases.map((c) => req(c, false)));
  const off = batch(cases.map((c) => req(c, true)));
  const moves = {};
  const totals = { on: {}, off: {} };
  cases.forEach((c, i) => {
    const a = verdict(c, off[i]), b = verdict(c, on[i]);
    totals.off[a] = (totals.off[a] ?? 0) + 1;
    totals.on[b] = (totals.on[b] ?? 0) + 1;
    if (a !== b) moves[`${a} -> ${b}`] = [...(moves[`${a} -> ${b}`] ?? []), c.id.replace(/^editcore\/lazy-public#/, '')];
  });
  return { n: cases.length, totals, moves };
}

// Section 3 - fuzzed damage

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KINDS = {
  'drop closing bracket': (t, r) => dropChar(t, r, /[)\]}]/g),
  'double closing bracket': (t, r) => doubleChar(t, r, /[)\]}]/g),
  'drop opening bracket': (t, r) => dropChar(t, r, /[([{]/g),
  'drop quote': (t, r) => dropChar(t, r, /["'`]/g),
  'drop line': (t, r) => lineOp(t, r, false),
  'double line': (t, r) => lineOp(t, r, true),
};

function pick(t, r, re) {
  const at = [...t.matchAll(re)].map((m) => m.index);
  return at.length ? at[Math.floor(r() * at.length)] : -1;
}
function dropChar(t, r, re) { const i = pick(t, r, re); return i < 0 ? null : t.slice(0, i) + t.slice(i + 1); }
function doubleChar(t, r, re) { const i = pick(t, r, re); return i < 0 ? null : t.slice(0, i + 1) + t[i] + t.slice(i + 1); }
function lineOp(t, r, twice) {
  const lines = t.split('\n');
  const code = lines.map((l, i) => [l, i]).filter(([l]) => l.trim().length > 1);
  if (!code.length) return null;
  const [, i] = code[Math.floor(r() * code.length)];
  lines.splice(i, twice ? 0 : 1, ...(twice ? [lines[i]] : []));
  return lines.join('\n');
}

function fuzz(edits, fpResult) {
  // the clean files after each real edit, one per distinct path and content
  const clean = [];
  const seen = new Set();
  const check = batch(edits.map((e) => ({ format: 'whole_file', files: {}, edit: { path: e.path, content: e.after } })));
  check.forEach((r, i) => {
    const s = syntaxOf(r, edits[i].path);
    if (s?.checked && s.parsed_after && !seen.has(edits[i].after)) { seen.add(edits[i].after); clean.push({ ...edits[i], lang: s.language }); }
  });
  const r = rng(SEED);
  const jobs = [];
  for (const f of clean)
    for (const [kind, damage] of Object.entries(KINDS))
      for (let k = 0; k < PER_FILE; k++) {
        const d = damage(f.after, r);
        if (d !== null && d !== f.after) jobs.push({ f, kind, d });
      }
  const resps = batch(jobs.map((j) => ({ format: 'whole_file', files: { [j.f.path]: j.f.after }, edit: { path: j.f.path, content: j.d } })));
  const table = {};
  resps.forEach((resp, i) => {
    const { f, kind } = jobs[i];
    const s = syntaxOf(resp, f.path);
    const row = ((table[f.lang] ??= {})[kind] ??= { n: 0, caught: 0 });
    row.n++;
    if (s?.new_error_count > 0) row.caught++;
  });
  return { files: clean.length, table };
}

// Section 4 - cost per MB

/**
 * ~1 MB of each language's corpus files end to end (Python, JavaScript, C: languages where files
 * concatenate into one that parses; Go's package clauses do not), with one unique comment line in
 * the middle. Three runs, each min of 5: that comment changed with options.syntax off; the same
 * with the report (one full parse of the original, one incremental reparse of the edit); and the
 * file changed at both ends (the edit spans the file: two full parses).
 */
function cost(edits) {
  const LANGS = { python: ['.py', '#'], javascript: ['.js', '//'], c: ['.c', '//'] };
  const rows = [];
  for (const [lang, [ext, comment]] of Object.entries(LANGS)) {
    const texts = [...new Set(edits.filter((e) => e.path.endsWith(ext)).map((e) => e.after))];
    if (!texts.length) continue;
    let parts = [], size = 0, k = 0;
    while (size < 1 << 20) { const t = texts[k++ % texts.length]; parts.push(t.endsWith('\n') ? t : `${t}\n`); size += t.length + 1; }
    const half = parts.length >> 1;
    const marker = `${comment} editcore-bench-marker`;
    const text = [...parts.slice(0, half), `${marker}\n`, ...parts.slice(half)].join('');
    const path = `big${ext}`;
    const reqs = [];
    for (let i = 0; i < 5; i++) {
      reqs.push({ format: 'replace', files: { [path]: text }, edit: { old_string: marker, new_string: `${marker} 2` }, options: { syntax: 'off' } });
      reqs.push({ format: 'replace', files: { [path]: text }, edit: { old_string: marker, new_string: `${marker} 2` } });
      reqs.push({ format: 'whole_file', files: { [path]: text }, edit: { path, content: `${comment} top\n${text}${comment} end\n` }, options: { syntax: 'off' } });
      reqs.push({ format: 'whole_file', files: { [path]: text }, edit: { path, content: `${comment} top\n${text}${comment} end\n` } });
    }
    const resps = batch(reqs);
    const t = (j) => Math.min(...resps.filter((_, i) => i % 4 === j).map((r) => r.stats.time_ms));
    const sx = resps[1].data?.files?.[path]?.syntax;
    rows.push({ lang, mb: text.length / (1 << 20), off: t(0), on: t(1), wholeOff: t(2), wholeOn: t(3), errors: sx?.errors_before, status: resps[1].status });
  }
  return rows;
}

// Section - report

const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '–');
const printFp = (r) => {
  console.log('| language | edits | parsed before | still parse after | false positives | broken before | new errors reported there |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [l, v] of Object.entries(r.byLang).sort())
    console.log(`| ${l} | ${v.edits} | ${v.clean_before} | ${v.clean_after} | **${v.fp}** | ${v.broken_before} | ${v.new_in_broken} |`);
  for (const f of r.fps.slice(0, 10)) console.log(`  new error: ${f.repo} ${f.commit?.slice(0, 8) ?? ''} ${f.path}: ${JSON.stringify(f.s.new_errors[0])}`);
};
const only = opt('--only', null);
if (only === 'cost') {
  const e = realEdits();
  console.log('| language | MB | errors | off | on | per MB | whole off | whole on | per MB |');
  for (const r of cost(e)) console.log(`| ${r.lang} | ${r.mb.toFixed(2)} | ${r.errors} | ${r.off.toFixed(1)} | ${r.on.toFixed(1)} | ${((r.on - r.off) / r.mb).toFixed(0)} ms | ${r.wholeOff.toFixed(1)} | ${r.wholeOn.toFixed(1)} | ${((r.wholeOn - r.wholeOff) / r.mb).toFixed(0)} ms |`);
  process.exit(0);
}
const commits = await commitEdits(Number(opt('--commits', '150')));
console.log(`\n## 1a. Real history: ${commits.length} file edits of whole commits (${new Set(commits.map((c) => c.commit)).size} commits)\n`);
printFp(falsePositives(commits));
if (only === 'history') process.exit(0);
const edits = realEdits();
const fp = falsePositives(edits);
console.log(`\n## 1b. The accuracy corpus's ${edits.length} distinct real edits (single hunks of commits)\n`);
printFp(fp);

const lz = lazySet();
if (lz) {
  console.log(`\n## 2. Lazy set: ${lz.n} real snippets (${SET})\n`);
  console.log(`options.syntax off: ${JSON.stringify(lz.totals.off)}`);
  console.log(`default (guard on): ${JSON.stringify(lz.totals.on)}`);
  for (const [m, ids] of Object.entries(lz.moves)) console.log(`  ${m}: ${ids.length} (${ids.slice(0, 6).join(', ')}${ids.length > 6 ? ', ...' : ''})`);
}

const fz = fuzz(edits, fp);
console.log(`\n## 3. Fuzzed damage: ${fz.files} clean files, ${PER_FILE} draws per kind (seed ${SEED})\n`);
const kinds = Object.keys(KINDS);
console.log(`| language | ${kinds.join(' | ')} |`);
console.log(`|---|${kinds.map(() => '---:').join('|')}|`);
for (const [l, row] of Object.entries(fz.table).sort())
  console.log(`| ${l} | ${kinds.map((k) => (row[k] ? `${pct(row[k].caught, row[k].n)} % of ${row[k].n}` : '–')).join(' | ')} |`);

console.log('\n## 4. Cost (core time_ms, min of 5, native)\n');
console.log('| language | MB | errors in the file | one line changed, syntax off | with the report (full parse + incremental) | per MB | both ends changed, off | with the report (two full parses) | per MB |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of cost(edits))
  console.log(`| ${r.lang} | ${r.mb.toFixed(2)} | ${r.errors} | ${r.off.toFixed(1)} | ${r.on.toFixed(1)} | ${((r.on - r.off) / r.mb).toFixed(0)} ms | ${r.wholeOff.toFixed(1)} | ${r.wholeOn.toFixed(1)} | ${((r.wholeOn - r.wholeOff) / r.mb).toFixed(0)} ms |`);
