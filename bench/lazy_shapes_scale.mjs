#!/usr/bin/env node
// The lazy merge's time against the snippet's size, on the shapes where a rule walks lines around
// each line (issue 21, item 7: "the merge stays linear"; bench/lazy_scale.mjs measures file size).
// Each shape is built at n and 2n lines; the time (the engine's own stats.time_ms, best of 3) should
// about double, not quadruple. The outcome (merged or declined) does not matter here, only the time.
//
//   node bench/lazy_shapes_scale.mjs [--native build/native/editcore] [--n 4000]
//
// Shapes (each was quadratic or worse once; the review of the lazy work, branch h/review):
//   dash-run     diff style: n `--` comment lines removed with one `-` beside n unrelated `+` lines
//   inferred     diff style: n context lines the file lacks above the `+` line they hang from
//   deep         n nested blocks of one line each, a line added in the innermost (the file grows
//                with n², so its ratio is measured against the bytes too)
//   renamed-big  n segments, each renaming the same 200,000-line class around three of its lines
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let native = resolve(root, 'build/native/editcore');
let n0 = 4000;
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--native') native = resolve(process.argv[++i]);
  else if (process.argv[i] === '--n') n0 = Number(process.argv[++i]);
}
if (!existsSync(native)) { console.error(`${native} not found: build the native preset first`); process.exit(2); }

const range = (n) => Array.from({ length: n }, (_, k) => k);
const text = (lines) => lines.join('\n') + '\n';

const shapes = {
  'dash-run': (n) => {
    const notes = range(n).map((k) => `-- note number ${k} about the value of thing ${k * 7}`);
    return {
      file: text(['local M = {}', ...notes, 'return M']),
      snippet: text([' local M = {}', ...notes, ...range(n).map((k) => `+local other_${k} = compute(${k}, 'abc')`), ' return M']),
    };
  },
  inferred: (n) => {
    const body = range(4 * n).map((k) => `    x${k} = f(${k})`);
    return {
      file: text(['def main():', ...body, '    return 0']),
      snippet: text([' def main():', ' ' + body[0], ...range(n).map((k) => `     y${k} = g(${k})`), '+    z = 1', ' ' + body[1]]),
    };
  },
  deep: (n) => {
    const d = n >> 2, lines = [];
    for (let k = 0; k < d; k++) lines.push(' '.repeat(k) + 'if (a) {', ' '.repeat(k + 1) + `unique_call_${k}(x);`);
    const closers = range(d).reverse().map((k) => ' '.repeat(k) + '}');
    return {
      file: text([...lines, ...closers]),
      snippet: text(['// ... existing code ...', ...lines, ' '.repeat(d) + 'added();', '// ... existing code ...']),
    };
  },
  'renamed-big': (n) => {
    const m = n >> 2, fields = range(200000).map((i) => `  field_${i} = value_${i}_long_enough;`);
    const seg = (k) => [`const top_${k} = ${k};`, `class Foo_${k} {`, ...[0, 1, 2].map((t) => fields[3 * k + t]), '}', '// ... existing code ...'];
    return {
      file: text(['class Big {', ...fields, '}', ...range(2 * m).map((k) => `const top_${k} = ${k};`)]),
      snippet: text(['// ... existing code ...', ...range(m).flatMap(seg)]),
    };
  },
};

function timeOf({ file, snippet }) {
  const req = JSON.stringify({ format: 'lazy', files: { 'f.x': file }, edit: { path: 'f.x', snippet } });
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const p = spawnSync(native, ['json'], { input: req, maxBuffer: 1 << 30 });
    best = Math.min(best, JSON.parse(p.stdout.toString()).stats.time_ms);
  }
  return { ms: best, mb: (file.length + snippet.length) / (1 << 20) };
}

console.log(`| shape | n | time_ms | 2n | time_ms | ratio (time) | ratio (bytes) |`);
console.log('|---|---:|---:|---:|---:|---:|---:|');
let worst = 0;
for (const [name, make] of Object.entries(shapes)) {
  const a = timeOf(make(n0)), b = timeOf(make(2 * n0));
  const rt = b.ms / Math.max(a.ms, 0.1), rb = b.mb / a.mb;
  worst = Math.max(worst, rt / rb);
  console.log(`| ${name} | ${n0} | ${a.ms.toFixed(1)} | ${2 * n0} | ${b.ms.toFixed(1)} | ${rt.toFixed(2)} | ${rb.toFixed(2)} |`);
}
console.log(`\nworst time ratio over byte ratio: ${worst.toFixed(2)} (linear: about 1; quadratic in the doubled lines: about 2 or more)`);
