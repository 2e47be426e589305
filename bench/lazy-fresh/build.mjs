#!/usr/bin/env node
// Builds the FRESH held-out lazy sets (issue 30, third round) from public sources into a directory
// outside the repository, as bench/lazy-heldout/build.mjs does for the second round: their licences
// are unclear or absent, so nothing of theirs is committed; MANIFEST.md names every source
// repository, commit and path. Each set is cases.jsonl in ../shared/lazy's format plus `part`.
// No rule of the engine was written while looking at these cases.
//
//   node bench/lazy-fresh/build.mjs --out DIR --cab GITDIR
//
// --cab: a clone of morphllm/coding-agent-bench. Its FINAL runs (commit d5808d1) are seen (the
//   multi-turn run is ../shared/lazy, the single-turn run bench/lazy-heldout). Its EARLIER runs are
//   not: results/logs/detailed_20250814_033202.json (commit e4ab1a3) and
//   results/logs/detailed_20250816_034617.json (commit f8437be) hold other `edit_file` snippets
//   ({target_file, instructions, code_edit}) that frontier models wrote for the same kind of
//   prompts, over corpus/ as it was at that commit (get_page_handler.ts is only there). Morph's
//   merges of these runs were not kept, so these cases have NO expectation: a decline is scored
//   from the engine alone; a success is read by hand once, at the one measurement, and its verdict
//   (right, ws-only or wrong, with the reason) is recorded in bench/lazy-fresh/reviewed.json, tied
//   to the SHA-256 of the output (lazy_real.mjs counts an unreviewed success as wrong). A snippet
//   byte-identical to one already seen (../shared/lazy, the final single-turn run) or to an earlier
//   case is left out.
// (Continue's lazy test examples, the other public source of lazy snippets with intended merges
// found, are not fresh: bench/lazy_continue.mjs already scores all of them, main line and branch.)
//
// The split, fixed before any case was run: SHA-256 of the case's group ("cab-early/<file
// stem>/<query>", so one prompt's snippets fall on one side): first byte < 96 = "held" (~3/8: the
// successes of the held part are read by hand, so it is kept to a size that can be read), else
// "tune" (studied for declines only: no rule may be written from its successes unread).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from '../lazy_set.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i++) args[process.argv[i].replace(/^--/, '')] = resolve(process.argv[++i]);
if (!args.out || !args.cab) { console.error('usage: build.mjs --out DIR --cab GITDIR'); process.exit(2); }

const gitDir = (dir) => (existsSync(join(dir, 'HEAD')) ? dir : join(dir, '.git'));
const git = (dir, ...a) => execFileSync('git', ['--git-dir', gitDir(dir), ...a], { maxBuffer: 1 << 28 }).toString('utf8');
const firstByte = (group) => createHash('sha256').update(group).digest()[0];
const MARKER = /^\s*(\/\/+|#+|--|\/\*+|<!--|\{\/\*|;+|%)\s*(\.\.\.|…|\[\.\.\.\]|(keep |rest of |other |existing |unchanged |same))/i;
function shapeOf(snippet) {
  const lines = snippet.replace(/^\n+|\n+$/g, '').split('\n');
  const m = lines.map((l) => MARKER.test(l));
  const diff = lines.some((l) => /^\+(?!\+)/.test(l) || /^-(?!-)/.test(l));
  return { markers: m.filter(Boolean).length, leading_marker: m[0], trailing_marker: m[m.length - 1], diff_style: diff };
}

const manifest = ['# Fresh held-out lazy sets (built by bench/lazy-fresh/build.mjs; not part of the repository)', ''];
function write(name, cases, lines) {
  const dir = join(args.out, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const held = cases.filter((c) => c.part === 'held').length;
  manifest.push(`## ${name}`, ...lines, `- cases: ${cases.length} (tune ${cases.length - held}, held ${held})`, '');
}

{
  // Every snippet already seen: ../shared/lazy and the final single-turn run.
  const seen = new Set();
  const sharedSet = [resolve(root, '../shared/lazy/multi-turn.jsonl'), resolve(root, '../../shared/lazy/multi-turn.jsonl')].find(existsSync);
  if (!sharedSet) { console.error('../shared/lazy/multi-turn.jsonl not found (needed to leave out seen snippets)'); process.exit(2); }
  for (const l of readFileSync(sharedSet, 'utf8').split('\n')) if (l.trim()) seen.add(JSON.parse(l).edit.snippet);
  const final = 'd5808d1f54e7251272f9a950ce6b4a7b4a5820ab';
  for (const r of JSON.parse(git(args.cab, 'show', `${final}:results/benchmark_20250819_003007_single_turn/logs/detailed_20250819_003007_single_turn.json`)))
    if (r.method === 'morph') seen.add(JSON.parse(r.response_data).code_edit);
  const runs = [
    ['e4ab1a3a6b3861332b784259b95e5c098eb97fc2', 'results/logs/detailed_20250814_033202.json'],
    ['f8437be262f4bf7e0d32d5c19a330de37b3264ff', 'results/logs/detailed_20250816_034617.json'],
  ];
  const cases = [], dropped = [];
  for (const [commit, log] of runs) {
    for (const r of JSON.parse(git(args.cab, 'show', `${commit}:${log}`))) {
      if (r.method !== 'morph') continue;
      let call;
      try { call = JSON.parse(r.response_data); } catch { dropped.push(`${r.model}/${r.query_id} (response_data not JSON)`); continue; }
      const base = r.file.split('/').pop(), stem = base.replace(/\.[^.]*$/, '');
      const id = `cab-early#${log.match(/2025\d+_\d+/)[0]}/${r.model}/${stem}/${r.query_id}`;
      if (typeof call.code_edit !== 'string' || !call.code_edit.trim()) { dropped.push(`${id} (no code_edit)`); continue; }
      if (seen.has(call.code_edit)) { dropped.push(`${id} (snippet seen)`); continue; }
      seen.add(call.code_edit);
      cases.push({
        id, peer: 'editcore', format: 'lazy', part: firstByte(`cab-early/${stem}/${r.query_id}`) < 96 ? 'held' : 'tune',
        source: `morphllm/coding-agent-bench @${commit} ${log}; corpus/${base} @${commit}`,
        files: { [base]: git(args.cab, 'show', `${commit}:corpus/${base}`) },
        edit: { path: base, snippet: call.code_edit, instruction: call.instructions },
        expect: { ok: true, files: null, by: 'hand review of the output (bench/lazy-fresh/reviewed.json)' },
        expect_quality: 'review', meta: { model: r.model, query: r.query_id, prompt: r.query_prompt, shape: shapeOf(call.code_edit) },
      });
    }
  }
  write('cab-early', cases, [`- source: morphllm/coding-agent-bench, runs ${runs.map(([c, l]) => `${l} @${c}`).join(' and ')} (records with method "morph"), corpus/* at the same commits`,
    '- licence: none stated (no licence file)', '- expectation: none kept by the source; successes reviewed by hand (bench/lazy-fresh/reviewed.json)',
    `- left out: ${dropped.length} (${dropped.filter((d) => d.endsWith('(snippet seen)')).length} seen or repeated snippets; ${dropped.filter((d) => !d.endsWith('(snippet seen)')).join('; ') || 'no other'})`]);
}

writeFileSync(join(args.out, 'MANIFEST.md'), manifest.join('\n'));
console.log(manifest.join('\n'));
