#!/usr/bin/env node
// Builds the held-out lazy sets (issue 30) from public sources into a directory outside the
// repository: their licences are unclear or absent, so nothing of theirs is committed here; this
// script and bench/lazy-heldout/run.mjs are. Each set is written as cases.jsonl in the format of
// ../shared/lazy/multi-turn.jsonl (id, files, edit {path, snippet, instruction}, expect, meta) plus
// `part` ("tune" or "held"), and MANIFEST.md names every source repository, commit and path.
//
//   node bench/lazy-heldout/build.mjs --out DIR --cab GITDIR [--kortix GITDIR]
//
// --cab: a clone of morphllm/coding-agent-bench (commit d5808d1f54e7, "final benchmark v1"): its
//   SINGLE-TURN run (results/benchmark_20250819_003007_single_turn): five frontier models each
//   wrote one `edit_file` call ({target_file, instructions, code_edit}) for 40 prompts over the 8
//   files of corpus/; workspace/<model>/<stem>/<query>_morph_single.<ext> is Morph's
//   (morph-v3-large) merge of that snippet: the expectation, as for ../shared/lazy (which holds the
//   same benchmark's MULTI-turn run: same files and prompts, other snippets). A snippet
//   byte-identical to one of ../shared/lazy/multi-turn.jsonl is left out (seen).
// --kortix: a clone of kmlaborat/pi-fa-merge (harness/cases.json: 20 rows of the test split of
//   Kortix/FastApply-dataset-v1.0, status "correct": original_code, update_snippet written by
//   Claude 3.5 Sonnet or GPT-4o, final_code the same model's merge).
//
// The split, fixed before any case was run: a case's group is hashed with SHA-256 (coding-agent-bench:
// "cab/<file stem>/<query>", so the five models' snippets for one prompt fall on one side;
// Kortix: "kortix/<case_id>"); Morph's and Kortix's merges are normalised as below (normalise). first byte even = "tune" (rules may be studied and tuned on it),
// odd = "held" (measured once, before any change made for these sets).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { root } from '../lazy_set.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i++) args[process.argv[i].replace(/^--/, '')] = resolve(process.argv[++i]);
if (!args.out || (!args.cab && !args.kortix)) { console.error('usage: build.mjs --out DIR --cab GITDIR [--kortix GITDIR]'); process.exit(2); }

const git = (dir, ...a) => execFileSync('git', ['--git-dir', dir.endsWith('.git') || existsSync(join(dir, 'HEAD')) ? dir : join(dir, '.git'), ...a], { maxBuffer: 1 << 28 }).toString('utf8');
const partOf = (group) => (createHash('sha256').update(group).digest()[0] % 2 === 0 ? 'tune' : 'held');
const MARKER = /^\s*(\/\/+|#+|--|\/\*+|<!--|\{\/\*|;+|%)\s*(\.\.\.|…|\[\.\.\.\]|(keep |rest of |other |existing |unchanged))/i;
function shapeOf(snippet) {
  const lines = snippet.replace(/^\n+|\n+$/g, '').split('\n');
  const m = lines.map((l) => MARKER.test(l));
  // Diff-style as ../shared/lazy counts it: `+` or `-` prefixed lines mixed with unprefixed context
  // (a `--` at column 0 is a Lua or SQL comment, not a removed line).
  const diff = lines.some((l) => /^\+(?!\+)/.test(l) || /^-(?!-)/.test(l));
  return { markers: m.filter(Boolean).length, leading_marker: m[0], trailing_marker: m[m.length - 1], diff_style: diff };
}
// Morph's merge normalised as ../shared/lazy's expectations are (its README): (1) the final newline
// the original has is restored; (2) a line Morph rewrote only in whitespace, where no snippet line
// equals its new version (trimmed), is reverted to the original line (Morph turns the untouched
// `//day is one of ...` into `// day is one of ...`). Lines are paired through a longest common
// subsequence; in each replaced stretch the k-th removed and k-th added lines are compared.
function normalise(orig, want, snippet) {
  const notes = [];
  if (orig.endsWith('\n') && !want.endsWith('\n')) { want += '\n'; notes.push('final newline restored'); }
  const a = orig.split('\n'), b = want.split('\n');
  const snip = new Set(snippet.split('\n').map((l) => l.trim()));
  const n = a.length, m = b.length, L = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out = [];
  let i = 0, j = 0, reverted = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { out.push(b[j]); i++; j++; continue; }
    const del = [], add = [];
    while (i < n && (j >= m || (a[i] !== b[j] && L[i + 1][j] >= L[i][j + 1]))) del.push(a[i++]);
    while (j < m && (i >= n || (a[i] !== b[j] && L[i][j + 1] > L[i + 1][j]))) add.push(b[j++]);
    add.forEach((l, k) => {
      const o = del[k];
      if (o !== undefined && o !== l && o.replace(/\s+/g, '') === l.replace(/\s+/g, '') && !snip.has(l.trim())) { out.push(o); reverted++; }
      else out.push(l);
    });
  }
  if (reverted) notes.push(`${reverted} whitespace-only rewrite(s) of lines the snippet does not hold reverted`);
  return { text: out.join('\n'), notes };
}
const manifest = ['# Held-out lazy sets (built by bench/lazy-heldout/build.mjs; not part of the repository)', ''];
const seen = new Set();
const sharedSet = [resolve(root, '../shared/lazy/multi-turn.jsonl'), resolve(root, '../../shared/lazy/multi-turn.jsonl')].find(existsSync);
if (sharedSet) for (const l of readFileSync(sharedSet, 'utf8').split('\n')) if (l.trim()) seen.add(JSON.parse(l).edit.snippet);

function write(name, cases, lines) {
  const dir = join(args.out, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const tune = cases.filter((c) => c.part === 'tune').length;
  manifest.push(`## ${name}`, ...lines, `- cases: ${cases.length} (tune ${tune}, held ${cases.length - tune})`, '');
}

if (args.cab) {
  const commit = git(args.cab, 'rev-parse', 'HEAD').trim();
  const run = 'results/benchmark_20250819_003007_single_turn';
  const log = JSON.parse(git(args.cab, 'show', `HEAD:${run}/logs/detailed_20250819_003007_single_turn.json`));
  const cases = [], dropped = [];
  for (const r of log) {
    if (r.method !== 'morph') continue;
    const call = JSON.parse(r.response_data);
    const base = r.file.split('/').pop(), stem = base.replace(/\.[^.]*$/, ''), ext = base.split('.').pop();
    const id = `cab-single#${r.model}/${stem}/${r.query_id}`;
    if (seen.has(call.code_edit)) { dropped.push(`${id} (byte-identical to a ../shared/lazy snippet)`); continue; }
    const ws = `${run}/workspace/${r.model}/${stem}/${r.query_id}_morph_single.${ext}`;
    const original = git(args.cab, 'show', `HEAD:corpus/${base}`);
    const want = normalise(original, git(args.cab, 'show', `HEAD:${ws}`), call.code_edit);
    cases.push({
      id, peer: 'editcore', format: 'lazy', part: partOf(`cab/${stem}/${r.query_id}`),
      source: `morphllm/coding-agent-bench @${commit} ${run}/logs/detailed_20250819_003007_single_turn.json; corpus/${base}; ${ws}`,
      files: { [base]: original },
      edit: { path: base, snippet: call.code_edit, instruction: call.instructions },
      expect: { ok: true, files: { [base]: want.text } },
      expect_quality: 'morph', meta: { model: r.model, query: r.query_id, shape: shapeOf(call.code_edit), normalizations: want.notes },
    });
  }
  write('cab-single', cases, [`- source: morphllm/coding-agent-bench @${commit}`, `- paths: ${run}/logs/detailed_20250819_003007_single_turn.json (records with method "morph"), corpus/*, ${run}/workspace/*/*/*_morph_single.*`,
    '- licence: none stated (no licence file)', `- left out: ${dropped.length ? dropped.join('; ') : 'none'}`]);
}

if (args.kortix) {
  const commit = git(args.kortix, 'rev-parse', 'HEAD').trim();
  const rows = JSON.parse(git(args.kortix, 'show', 'HEAD:harness/cases.json'));
  const cases = rows.map((r) => {
    const want = normalise(r.original_code, r.final_code, r.update_snippet);
    const base = r.file_name ? r.file_name.split('/').pop() : `case${r.case_id}.txt`; // two rows have no file name
    return {
      id: `kortix#${r.case_id}/${base}`, peer: 'editcore', format: 'lazy', part: partOf(`kortix/${r.case_id}`),
      source: `kmlaborat/pi-fa-merge @${commit} harness/cases.json case ${r.case_id} (Kortix/FastApply-dataset-v1.0 test split, ${r.file_name})`,
      files: { [base]: r.original_code }, edit: { path: base, snippet: r.update_snippet },
      expect: { ok: true, files: { [base]: want.text } },
      expect_quality: 'kortix', meta: { model: 'claude-3.5-sonnet or gpt-4o', query: String(r.case_id), shape: shapeOf(r.update_snippet), normalizations: want.notes },
    };
  });
  write('kortix', cases, [`- source: kmlaborat/pi-fa-merge @${commit} harness/cases.json (a stratified sample of Kortix/FastApply-dataset-v1.0's test split)`,
    '- licence: the dataset card on Hugging Face; pi-fa-merge states none for the sample file']);
}
writeFileSync(join(args.out, 'MANIFEST.md'), manifest.join('\n'));
console.log(manifest.join('\n'));
