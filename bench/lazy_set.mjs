// What the benchmarks over the real lazy snippets share: where the set is (../shared/lazy/, read at
// run time and never copied: its licence is unclear), their common flags, and reading the cases.
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The shared folder sits beside the repository (or beside the worktrees' folder); EDITCORE_SHARED
// names it otherwise, as for tests/conformance/run.mjs.
const shared = process.env.EDITCORE_SHARED ? resolve(process.env.EDITCORE_SHARED)
  : [resolve(root, '../shared'), resolve(root, '../../shared')].find((d) => existsSync(join(d, 'lazy'))) ?? resolve(root, '../shared');

/**
 * Parses argv into `{set, native, show, id, dump, markdown, ...extra}`. `extra` maps each script's
 * own flags to `(args, next) => void` (next() reads the flag's value); exits 2 on an unknown flag
 * or a missing set or binary.
 */
export function parseArgs(defaults, extra = {}) {
  const args = { set: join(shared, 'lazy/multi-turn.jsonl'), native: join(root, 'build/native/editcore'),
    show: new Set(), id: null, dump: null, markdown: false, ...defaults };
  for (let i = 2; i < process.argv.length; i++) {
    const k = process.argv[i];
    const next = () => process.argv[++i];
    if (k === '--set') args.set = resolve(next());
    else if (k === '--native') args.native = resolve(next());
    else if (k === '--show') args.show = new Set(next().split(','));
    else if (k === '--id') args.id = next();
    else if (k === '--dump') args.dump = resolve(next());
    else if (k === '--markdown') args.markdown = true;
    else if (extra[k]) extra[k](args, next);
    else { console.error(`unknown argument ${k}`); process.exit(2); }
  }
  if (!existsSync(args.set)) { console.error(`${args.set} not found (the set lives in ../shared/lazy/)`); process.exit(2); }
  if (!existsSync(args.native)) { console.error(`${args.native} not found: build the native preset first`); process.exit(2); }
  return args;
}

/** The set's cases (one JSON object a line), those whose id contains `id` when given. */
export function readCases(path, id) {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l))
    .filter((c) => !id || c.id.includes(id));
}
