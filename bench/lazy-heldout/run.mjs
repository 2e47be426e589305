#!/usr/bin/env node
// Scores one part of the held-out lazy sets (built outside the repository by
// bench/lazy-heldout/build.mjs) with bench/lazy_real.mjs's rules: right, ws-only, declined, wrong
// (strict line: a blank line added or deleted that the snippet did not ask for is wrong),
// exp-wrong (an expectation read and found wrong: bench/lazy-heldout/reviewed.json, tied to the
// SHA-256 of our output).
//
//   node bench/lazy-heldout/run.mjs DIR --part tune|held|all [--set NAME] [lazy_real.mjs flags: --show, --dump, --markdown, --id, --native]
//
// DIR holds one folder per set (cab-single/, kortix/), each with cases.jsonl. The `held` part is
// the one measured once (issue 30); `tune` is the one rules may be studied on.
import { readdirSync, existsSync, readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const dir = argv[0] && !argv[0].startsWith('--') ? resolve(argv.shift()) : null;
let part = null, only = null;
const pass = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--part') part = argv[++i];
  else if (argv[i] === '--set') only = argv[++i];
  else pass.push(argv[i]);
}
if (!dir || !existsSync(dir) || !['tune', 'held', 'all'].includes(part)) {
  console.error('usage: run.mjs DIR --part tune|held|all [--set NAME] [lazy_real.mjs flags]');
  process.exit(2);
}
const sets = readdirSync(dir).filter((d) => existsSync(join(dir, d, 'cases.jsonl')) && (!only || d === only)).sort();
const lines = [];
for (const s of sets)
  for (const l of readFileSync(join(dir, s, 'cases.jsonl'), 'utf8').split('\n'))
    if (l.trim() && (part === 'all' || JSON.parse(l).part === part)) lines.push(l);
const tmp = mkdtempSync(join(tmpdir(), 'lazy-heldout-'));
writeFileSync(join(tmp, 'cases.jsonl'), lines.join('\n') + '\n');
console.log(`${sets.join(' + ')}, part ${part}: ${lines.length} cases`);
const r = spawnSync(process.execPath, [join(here, '../lazy_real.mjs'), '--set', join(tmp, 'cases.jsonl'),
  '--reviewed', join(here, 'reviewed.json'), ...pass], { stdio: 'inherit' });
rmSync(tmp, { recursive: true, force: true });
process.exit(r.status ?? 2);
