#!/usr/bin/env node
// Builds the WILD lazy set (issue 30, sixth pass) from public GitHub histories into a directory
// outside the repository, as bench/lazy-fresh/build.mjs and bench/lazy-stray/build.mjs do:
// nothing of theirs is committed; manifest.jsonl names every repository, commit, parent and path.
//
//   node bench/lazy-wild/build.mjs --out DIR [--mirrors DIR] [--manifest FILE]
//
// --manifest: another batch's manifest (manifest2.jsonl: the second batch, all held out).
//
// --mirrors: where the repositories' git directories are, as OWNER+NAME/repo (the layout the
//   session's `fetch github:OWNER/NAME` leaves in /work/.mirror, the default). A missing one is
//   named and left out (the build says how many cases it could not make).
//
// A case: a commit in which a code file that existed in the parent gained a lazy marker line
// (`// ... existing code ...`, `{/* ... keep existing code (form) */}`, `# ... rest of`) while the
// parent's file had none (bench/lazy-wild/scan.py finds them; README.md says how they were
// chosen). The committed file is the model's lazy snippet, written whole over the file; the
// parent commit's file is the original. cases.jsonl is in ../shared/lazy's format plus `part`.
// Nobody kept the intended merge: like the fresh set, a success is read by hand
// (bench/lazy-wild/reviewed.json, tied to the SHA-256 of the output; an unread success counts as
// wrong). Where a later commit removed the marker again (the repair), that file is written beside
// the cases (repairs/<id>) as a hint for the reader, not as an expectation.
//
// The split is in manifest.jsonl (`part`), fixed before any case was run: SHA-256 of
// "lazy-wild/<repo>/<path>" (so every snippet of one file falls on one side), first byte < 102
// = "held" (~40 %, measured once by the lead with the final engine), else "tune".
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = { mirrors: '/work/.mirror' };
for (let i = 2; i < process.argv.length; i++) args[process.argv[i].replace(/^--/, '')] = resolve(process.argv[++i]);
if (!args.out) { console.error('usage: build.mjs --out DIR [--mirrors DIR] [--manifest FILE]'); process.exit(2); }

const gitDir = (repo) => join(args.mirrors, repo.replace('/', '+'), 'repo');
const show = (repo, commit, path) =>
  execFileSync('git', ['--git-dir', gitDir(repo), 'show', `${commit}:${path}`], { maxBuffer: 1 << 28 }).toString('utf8');
const MARKER = /^\s*(\/\/+|#+|--|\/\*+|<!--|\{\s*\/\*+|;+|%)\s*\(?\s*(\.\.\.|…|(keep |rest of |remaining |existing |unchanged |other ))/i;
function shapeOf(snippet) {
  const lines = snippet.replace(/^\n+|\n+$/g, '').split('\n');
  const m = lines.map((l) => MARKER.test(l));
  return { markers: m.filter(Boolean).length, leading_marker: m[0], trailing_marker: m[m.length - 1], diff_style: false };
}
const safe = (id) => id.replace(/[^A-Za-z0-9._-]+/g, '__');

const rows = readFileSync(args.manifest || join(here, 'manifest.jsonl'), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const dir = join(args.out, 'wild');
mkdirSync(join(dir, 'repairs'), { recursive: true });
const cases = [], missing = new Set();
for (const r of rows) {
  if (!existsSync(gitDir(r.repo))) { missing.add(r.repo); continue; }
  const orig = show(r.repo, r.parent, r.path), snippet = show(r.repo, r.commit, r.path);
  if (r.repair) writeFileSync(join(dir, 'repairs', safe(r.id)), show(r.repo, r.repair, r.path));
  cases.push({
    id: r.id, peer: 'editcore', format: 'lazy', part: r.part,
    source: `github.com/${r.repo} @${r.commit} ${r.path} (original: @${r.parent})`,
    files: { [r.path]: orig },
    edit: { path: r.path, snippet },
    expect: { ok: true, files: null, by: 'hand review of the output (bench/lazy-wild/reviewed.json)' },
    expect_quality: 'review',
    meta: { model: r.tool, query: r.marker, repair: r.repair, licence: r.licence, shape: shapeOf(snippet) },
  });
}
writeFileSync(join(dir, 'cases.jsonl'), cases.map((c) => JSON.stringify(c)).join('\n') + '\n');
const held = cases.filter((c) => c.part === 'held').length;
const manifest = ['# Wild lazy set (built by bench/lazy-wild/build.mjs; not part of the repository)', '', '## wild',
  `- source: ${new Set(rows.map((r) => r.repo)).size} public GitHub repositories (bench/lazy-wild/manifest.jsonl: repository, commit, parent, path, marker, repair, licence)`,
  '- expectation: none kept by the source; successes reviewed by hand (bench/lazy-wild/reviewed.json); repairs/ holds the later commit that removed the marker, where there is one (a hint)',
  `- cases: ${cases.length} (tune ${cases.length - held}, held ${held})`,
  missing.size ? `- NOT BUILT (repository not under --mirrors; fetch github:OWNER/NAME): ${[...missing].join(', ')}` : '- every case built', ''];
writeFileSync(join(args.out, 'MANIFEST.md'), manifest.join('\n'));
console.log(manifest.join('\n'));
if (missing.size) process.exit(1);
