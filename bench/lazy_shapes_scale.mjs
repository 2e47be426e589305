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
// and the placement at scale (issue 27 item 5: near-linear in segments + lines; bench/hostile has
// the same shapes at one size each, with their CPU bounds):
//   new-between  n/4 new functions between markers over a file of n functions (counterparts looked up)
//   sig-body     n/4 functions with their signature and body changed (no line of them unique)
//   closers      n/2 markers each over a `}` line (each closing line's opener looked up)
//   edge-new     n new lines under one anchor (references and repeated-edge checks)
//   flat         one block of n statements, one changed, shown whole (enclosing lines)
//   py-defs      n/4 Python functions written new beside kept ones (invariants b, c, d)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let native = resolve(root, 'build/native/editcore');
let n0 = 4000, callgrind = false, only = null;
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--native') native = resolve(process.argv[++i]);
  else if (process.argv[i] === '--n') n0 = Number(process.argv[++i]);
  else if (process.argv[i] === '--callgrind') callgrind = true; // instructions (valgrind) instead of time: steady on a shared machine
  else if (process.argv[i] === '--only') only = process.argv[++i].split(',');
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
  'new-between': (n) => ({
    file: text(range(n).map((i) => `function f${i}(x) {\n  return x + ${i};\n}\n`)),
    snippet: text(['// ... existing code ...', ...range(n >> 2).map((k) => `function g${k}(x) {\n  return x - ${k};\n}\n// ... existing code ...`)]),
  }),
  'sig-body': (n) => ({
    file: text(range(n).map((i) => `function f${i}(x) {\n  return x + ${i};\n}\n`)),
    snippet: text(['// ... existing code ...', ...range(n >> 2).map((k) => `function f${4 * k}(x, y) {\n  return y * ${4 * k};\n}\n// ... existing code ...`)]),
  }),
  closers: (n) => ({
    file: text(range(n).map((i) => `function f${i}(x) {\n  return x + ${i};\n}\n`)),
    snippet: text([...range(n >> 1).flatMap(() => ['// ... existing code ...', '}']), '// ... existing code ...']),
  }),
  'edge-new': (n) => ({
    file: text(range(n >> 2).map((i) => `function f${i}(x) {\n  return x + ${i};\n}\n`)),
    snippet: text(['// ... existing code ...', 'function f1(x) {', ...range(n).map((i) => `  step${i}();`), '// ... existing code ...']),
  }),
  flat: (n) => ({
    file: text(['// head', 'function main() {', ...range(n).map((i) => `  step${i}();`), '}', '// tail']),
    snippet: text(['// ... existing code ...', 'function main() {', ...range(n).map((i) => i === n >> 1 ? '  changed();' : `  step${i}();`), '}', '// ... existing code ...']),
  }),
  'py-defs': (n) => ({
    path: 'f.py',
    file: text(range(n).map((i) => `def f${i}(x):\n    return x + ${i}\n\n`)),
    snippet: text(['# ... existing code ...', ...range(n >> 2).map((k) => `def f${4 * k}(x):\n    return x + ${4 * k}\n\n\ndef g${k}(values):\n    total = sum(values) + ${k}\n    return total\n# ... existing code ...`)]),
  }),
  'renamed-big': (n) => {
    const m = n >> 2, fields = range(200000).map((i) => `  field_${i} = value_${i}_long_enough;`);
    const seg = (k) => [`const top_${k} = ${k};`, `class Foo_${k} {`, ...[0, 1, 2].map((t) => fields[3 * k + t]), '}', '// ... existing code ...'];
    return {
      file: text(['class Big {', ...fields, '}', ...range(2 * m).map((k) => `const top_${k} = ${k};`)]),
      snippet: text(['// ... existing code ...', ...range(m).flatMap(seg)]),
    };
  },
};

function timeOf({ file, snippet, path = 'f.x' }) {
  const req = JSON.stringify({ format: 'lazy', files: { [path]: file }, edit: { path, snippet } });
  let best = Infinity;
  if (callgrind) {
    const out = join(tmpdir(), `lazy-scale-${process.pid}.cg`);
    spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, native, 'json'], { input: req, maxBuffer: 1 << 30 });
    const m = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'));
    rmSync(out, { force: true });
    return { ms: m ? Number(m[1]) / 1e6 : NaN, mb: (file.length + snippet.length) / (1 << 20) };
  }
  for (let r = 0; r < 3; r++) {
    const p = spawnSync(native, ['json'], { input: req, maxBuffer: 1 << 30 });
    best = Math.min(best, JSON.parse(p.stdout.toString()).stats.time_ms);
  }
  return { ms: best, mb: (file.length + snippet.length) / (1 << 20) };
}

const unit = callgrind ? 'M instr.' : 'time_ms';
console.log(`| shape | n | ${unit} | 2n | ${unit} | ratio (${callgrind ? 'instructions' : 'time'}) | ratio (bytes) |`);
console.log('|---|---:|---:|---:|---:|---:|---:|');
let worst = 0;
for (const [name, make] of Object.entries(shapes)) {
  if (only && !only.includes(name)) continue;
  const a = timeOf(make(n0)), b = timeOf(make(2 * n0));
  const rt = b.ms / Math.max(a.ms, 0.1), rb = b.mb / a.mb;
  worst = Math.max(worst, rt / rb);
  console.log(`| ${name} | ${n0} | ${a.ms.toFixed(1)} | ${2 * n0} | ${b.ms.toFixed(1)} | ${rt.toFixed(2)} | ${rb.toFixed(2)} |`);
}
console.log(`\nworst time ratio over byte ratio: ${worst.toFixed(2)} (linear: about 1; quadratic in the doubled lines: about 2 or more)`);
