#!/usr/bin/env node
// Continue's lazy-apply examples (continuedev/continue, core/edit/lazy/test-examples/*.diff: the
// original file, `---`, a lazy snippet, `---`, the expected result written as the file with `+`
// and `-` lines) through the native CLI (`editcore json`, format "lazy"), scored as
// bench/lazy_real.mjs scores the model set: right (byte-identical but for the final newline),
// ws-only (equal once each line is trimmed; blank lines still count), declined, wrong. The
// examples are hand-written by Continue's developers (not model output); their licence is
// Apache-2.0, but they are read at run time from a checkout and not copied here.
//
//   node bench/lazy_continue.mjs --dir DIR [--native PATH] [--skip NAME,NAME] [--show wrong,declined]
//
// DIR holds the *.diff files (e.g. `git show <commit>:core/edit/lazy/test-examples/<name>` of a
// continuedev/continue checkout). A case whose expected part does not rebuild the original (its
// context and `-` lines) is reported as unparsed and left out. The file's language is guessed
// from the name (`calculator-exp.js.diff`) or, failing that, from the content.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = { dir: null, native: join(root, 'build/native/editcore'), skip: new Set(), show: new Set() };
for (let i = 2; i < process.argv.length; i++) {
  const k = process.argv[i], v = () => process.argv[++i];
  if (k === '--dir') args.dir = resolve(v());
  else if (k === '--native') args.native = resolve(v());
  else if (k === '--skip') args.skip = new Set(v().split(','));
  else if (k === '--show') args.show = new Set(v().split(','));
  else { console.error(`unknown argument ${k}`); process.exit(2); }
}
if (!args.dir || !existsSync(args.dir)) { console.error('--dir DIR (the *.diff examples) is required'); process.exit(2); }

function guessPath(name, text) {
  const m = /\.(js|ts|tsx|jsx|py|rs|go|java|md)\.diff$/.exec(name);
  if (m) return `file.${m[1]}`;
  if (/^#{1,6} /m.test(text) && !/[{};]\s*$/m.test(text)) return 'file.md';
  if (/^\s*(def |from \S+ import|import \S+$)/m.test(text) && /:\s*$/m.test(text)) return 'file.py';
  if (/^\s*(fn |use |impl |pub fn )/m.test(text)) return 'file.rs';
  if (/<\/?[A-Z][A-Za-z]*[ />]/.test(text) || /React/.test(text)) return 'file.tsx';
  if (/:\s*(string|number|boolean)\b|interface \w+|^import .* from /m.test(text)) return 'file.ts';
  return 'file.js';
}

// The expected file from the third part: context lines as they are, `+` lines added, `-` lines
// removed, walking the original alongside (a line equal to the original's next one is context,
// even when it starts with `-` or `+`, as a Markdown list item does; a `+` line's text is taken as
// written, so a stray space after the `+` makes at most a ws-only difference). null when it does
// not fit.
function expected(original, part) {
  const o = original.split('\n'), d = part.split('\n'), out = [];
  let i = 0;
  for (const line of d) {
    if (i < o.length && line === o[i]) { out.push(line); i++; continue; }
    /* `-` then the line, or `- ` then it (the examples write both) */
    if (line.startsWith('-') && i < o.length && (line.slice(1) === o[i] || (line[1] === ' ' && line.slice(2) === o[i]))) { i++; continue; }
    if (line.startsWith('+')) { out.push(line.slice(1)); continue; }
    if (line === '' && (i >= o.length || o[i] !== '')) continue; // a trailing empty line of the part
    return null;
  }
  while (i < o.length && o[i] === '') i++;
  return i === o.length ? out.join('\n') : null;
}

const norm = (t) => t.replace(/\n+$/, '');
const trimLines = (t) => norm(t).split('\n').map((l) => l.trim()).join('\n');
const total = { right: 0, 'ws-only': 0, declined: 0, wrong: 0, unparsed: 0 };
for (const name of readdirSync(args.dir).filter((n) => n.endsWith('.diff')).sort()) {
  if (args.skip.has(name.replace(/\.diff$/, ''))) continue;
  const text = readFileSync(join(args.dir, name), 'utf8');
  const parts = text.split('\n---\n');
  if (parts.length < 3) { total.unparsed++; console.log(`unparsed ${name}`); continue; }
  const [original, snippet] = [parts[0], parts[1]];
  const want = expected(original, parts.slice(2).join('\n---\n').replace(/^\n/, ''));
  if (want === null) { total.unparsed++; console.log(`unparsed ${name}`); continue; }
  const path = guessPath(name, original);
  const file = original.endsWith('\n') ? original : original + '\n';
  const req = JSON.stringify({ format: 'lazy', files: { [path]: file }, edit: { path, snippet: snippet.replace(/^\n+/, '') } });
  const r = spawnSync(args.native, ['json'], { input: req, maxBuffer: 1 << 28 });
  const resp = JSON.parse(r.stdout.toString('utf8'));
  let verdict, msg = '';
  if (resp.status === 'error') { verdict = 'declined'; msg = `${resp.error.code}: ${resp.error.message.slice(0, 300)}`; }
  else {
    const got = resp.data?.files?.[path]?.content ?? file;
    verdict = norm(got) === norm(want) ? 'right' : trimLines(got) === trimLines(want) ? 'ws-only' : 'wrong';
    if (verdict === 'wrong') {
      const a = norm(want).split('\n'), b = norm(got).split('\n');
      let k = 0;
      while (k < a.length && a[k] === b[k]) k++;
      msg = `line ${k + 1}: want ${JSON.stringify(a[k] ?? '<eof>')} got ${JSON.stringify(b[k] ?? '<eof>')}`;
    }
  }
  total[verdict]++;
  if (args.show.has(verdict)) console.log(`${verdict.padEnd(8)} ${name} (${path})${msg ? `\n         ${msg}` : ''}`);
}
const n = total.right + total['ws-only'] + total.declined + total.wrong;
console.log(`${n} examples: ${total.right} right, ${total['ws-only']} ws-only, ${total.declined} declined, ${total.wrong} wrong` +
  `${total.unparsed ? `, ${total.unparsed} unparsed (left out)` : ''}`);
process.exit(total.wrong ? 1 : 0);
