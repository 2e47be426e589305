#!/usr/bin/env node
// Builds the STRAY lazy set (issue 30, fifth pass) from public sources into a directory outside the
// repository, as bench/lazy-fresh/build.mjs does: nothing of theirs is committed, MANIFEST.md names
// every source repository, commit and path. cases.jsonl is in ../shared/lazy's format plus `part`.
//
//   node bench/lazy-stray/build.mjs --out DIR --cab GITDIR
//
// --cab: a clone of morphllm/coding-agent-bench. A third source of real snippets was looked for and
//   not found (docs/lazy.md, fifth pass). What its history still holds unused: the two small runs
//   that no set took, results/logs/detailed_20250813_234506.json (commit fbdeaa0, claude-4) and
//   results/logs/detailed_20250816_022923.json (commit f8437be, gemini-flash-2.5 and
//   gemini-pro-2.5), over corpus/ at those commits: six `edit_file` snippets, of which those
//   byte-identical to a snippet already used (../shared/lazy, the final single-turn run, the fresh
//   set's runs) are left out. Morph's merges were not kept: like the fresh set, a success is read by
//   hand once, at the one measurement (bench/lazy-stray/reviewed.json, tied to the output's SHA-256).
//
// The split: too few cases to tune on, so every case is "held" (measured once; no rule is written
// from it). Fixed here, committed before any run.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from '../lazy_set.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i++) args[process.argv[i].replace(/^--/, '')] = resolve(process.argv[++i]);
if (!args.out || !args.cab) { console.error('usage: build.mjs --out DIR --cab GITDIR'); process.exit(2); }
const gitDir = (dir) => (existsSync(join(dir, 'HEAD')) ? dir : join(dir, '.git'));
const git = (dir, ...a) => execFileSync('git', ['--git-dir', gitDir(dir), ...a], { maxBuffer: 1 << 28 }).toString('utf8');
const morph = (commit, log) => JSON.parse(git(args.cab, 'show', `${commit}:${log}`)).filter((r) => r.method === 'morph');

const seen = new Set();
const sharedSet = [resolve(root, '../shared/lazy/multi-turn.jsonl'), resolve(root, '../../shared/lazy/multi-turn.jsonl')].find(existsSync);
if (!sharedSet) { console.error('../shared/lazy/multi-turn.jsonl not found (needed to leave out seen snippets)'); process.exit(2); }
for (const l of readFileSync(sharedSet, 'utf8').split('\n')) if (l.trim()) seen.add(JSON.parse(l).edit.snippet);
for (const [c, l] of [
  ['d5808d1f54e7251272f9a950ce6b4a7b4a5820ab', 'results/benchmark_20250819_003007_single_turn/logs/detailed_20250819_003007_single_turn.json'],
  ['e4ab1a3a6b3861332b784259b95e5c098eb97fc2', 'results/logs/detailed_20250814_033202.json'],
  ['f8437be262f4bf7e0d32d5c19a330de37b3264ff', 'results/logs/detailed_20250816_034617.json'],
]) for (const r of morph(c, l)) seen.add(JSON.parse(r.response_data).code_edit);

const runs = [
  ['fbdeaa057fa0564081098742acf906fc58b86af4', 'results/logs/detailed_20250813_234506.json'],
  ['f8437be262f4bf7e0d32d5c19a330de37b3264ff', 'results/logs/detailed_20250816_022923.json'],
];
const cases = [], dropped = [];
for (const [commit, log] of runs) {
  for (const r of morph(commit, log)) {
    const call = JSON.parse(r.response_data);
    const base = r.file.split('/').pop(), stem = base.replace(/\.[^.]*$/, '');
    const id = `cab-stray#${log.match(/2025\d+_\d+/)[0]}/${r.model}/${stem}/${r.query_id}`;
    if (seen.has(call.code_edit)) { dropped.push(`${id} (snippet seen)`); continue; }
    seen.add(call.code_edit);
    cases.push({
      id, peer: 'editcore', format: 'lazy', part: 'held',
      source: `morphllm/coding-agent-bench @${commit} ${log}; corpus/${base} @${commit}`,
      files: { [base]: git(args.cab, 'show', `${commit}:corpus/${base}`) },
      edit: { path: base, snippet: call.code_edit, instruction: call.instructions },
      expect: { ok: true, files: null, by: 'hand review of the output (bench/lazy-stray/reviewed.json)' },
      expect_quality: 'review', meta: { model: r.model, query: r.query_id, prompt: r.query_prompt,
        shape: { diff_style: call.code_edit.split('\n').some((x) => /^\+(?!\+)/.test(x) || /^-(?!-)/.test(x)) } },
    });
  }
}
const dir = join(args.out, 'cab-stray');
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
const manifest = ['# Stray lazy set (built by bench/lazy-stray/build.mjs; not part of the repository)', '', '## cab-stray',
  `- source: morphllm/coding-agent-bench, runs ${runs.map(([c, l]) => `${l} @${c.slice(0, 7)}`).join(' and ')} (records with method "morph"), corpus/* at the same commits`,
  '- licence: none stated (no licence file)', '- expectation: none kept by the source; successes reviewed by hand (bench/lazy-stray/reviewed.json)',
  `- left out: ${dropped.length} (${dropped.join('; ') || 'none'})`, `- cases: ${cases.length} (all held)`, ''];
writeFileSync(join(args.out, 'MANIFEST.md'), manifest.join('\n'));
console.log(manifest.join('\n'));
