#!/usr/bin/env node
// The examples in docs/*.md are run, so the protocol reference says what the engine answers.
// A ```json request block is sent to the native CLI (`editcore json`); the ```json response
// block after it must equal the response (as JSON values; stats.time_ms aside, which the host
// measures). `--write` fills every response block from the engine instead (time_ms shown as 0.05).
//
//   node tests/docs/examples.mjs [--write] [--native build/native/editcore] [docs/protocol.md ...]
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const write = args.includes('--write');
const ni = args.indexOf('--native');
const native = ni >= 0 ? resolve(args[ni + 1]) : join(root, 'build/native/editcore');
let docs = args.filter((a, i) => a.endsWith('.md') && args[i - 1] !== '--native');
if (!docs.length) docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(root, 'docs', f));

function run(request) {
  const r = spawnSync(native, ['json'], { input: request, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) throw r.error;
  return JSON.parse(r.stdout);
}

const withoutTime = (o) => ({ ...o, stats: { ...o.stats, time_ms: 0.05 } });
// One field per line at the top, the files and error objects one line each: readable, and the
// long strings stay JSON-escaped as the protocol sends them.
function pretty(o) {
  // Backticks are written as \u0060 so a fence inside a string cannot close the Markdown block.
  const inner = Object.entries(o).map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v).replace(/`/g, '\\u0060')}`);
  return `{\n${inner.join(',\n')}\n}`;
}

const BLOCK = /```json (request|response)\n([\s\S]*?)```/g;
let passed = 0, failed = 0;
for (const doc of docs) {
  const text = readFileSync(doc, 'utf8');
  let pending = null, out = '', last = 0;
  for (const m of text.matchAll(BLOCK)) {
    if (m[1] === 'request') { pending = m[2].trim(); continue; }
    if (pending === null) { console.error(`${doc}: a response block with no request before it`); failed++; continue; }
    const got = withoutTime(run(pending));
    if (write) {
      out += text.slice(last, m.index) + '```json response\n' + pretty(got) + '\n```';
      last = m.index + m[0].length;
    } else {
      let want = null;
      try { want = withoutTime(JSON.parse(m[2])); } catch { /* an empty or broken block fails below */ }
      if (want && isDeepStrictEqual(want, got)) passed++;
      else { failed++; console.error(`FAIL ${doc}: the response to ${pending.slice(0, 100)}... differs; run with --write and review`); }
    }
    pending = null;
  }
  if (write) { writeFileSync(doc, out + text.slice(last)); console.log(`wrote ${doc}`); }
}
if (!write) {
  console.log(`docs examples: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
