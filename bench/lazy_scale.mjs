#!/usr/bin/env node
// The lazy merge's time against file size (issue 21, item 7: "the merge stays linear"): a JavaScript
// file of N MB (small functions), a snippet that edits three of them (near the start, the middle and
// the end) between `// ... existing code ...` markers, through the native CLI (`editcore json`);
// prints the engine's own `stats.time_ms`, best of 3, per size, and the ms per MB.
//
//   node bench/lazy_scale.mjs [--native build/native/editcore] [--sizes 1,5,10,20]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let native = resolve(root, 'build/native/editcore');
let sizes = [1, 5, 10, 20];
for (let i = 2; i < process.argv.length; i++) {
  if (process.argv[i] === '--native') native = resolve(process.argv[++i]);
  else if (process.argv[i] === '--sizes') sizes = process.argv[++i].split(',').map(Number);
}
if (!existsSync(native)) { console.error(`${native} not found: build the native preset first`); process.exit(2); }

function fileOf(mb) {
  const parts = [];
  let n = 0, bytes = 0;
  while (bytes < mb * 1024 * 1024) {
    const f = `function f${n}(x) {\n  const y = x * ${n % 97} + ${n};\n  return y - ${n % 13};\n}\n\n`;
    parts.push(f);
    bytes += f.length;
    n++;
  }
  return { text: parts.join(''), n };
}

function snippetOf(n) {
  const edit = (k) => `function f${k}(x) {\n  const y = x * ${k % 97} + ${k};\n  log(y);\n  return y - ${k % 13};\n}\n`;
  return ['// ... existing code ...', edit(3), '// ... existing code ...', edit(n >> 1), '// ... existing code ...',
    edit(n - 2), '// ... existing code ...', ''].join('\n');
}

console.log('| file | functions | time_ms (best of 3) | ms per MB |');
console.log('|---:|---:|---:|---:|');
for (const mb of sizes) {
  const { text, n } = fileOf(mb);
  const req = JSON.stringify({ format: 'lazy', files: { 'big.js': text }, edit: { snippet: snippetOf(n) } });
  let best = Infinity;
  for (let r = 0; r < 3; r++) {
    const p = spawnSync(native, ['json'], { input: req, maxBuffer: 1 << 30 });
    const res = JSON.parse(p.stdout.toString());
    if (res.status !== 'success') { console.error(`${mb} MB: ${res.text}`); process.exit(1); }
    best = Math.min(best, res.stats.time_ms);
  }
  console.log(`| ${mb} MB | ${n} | ${best.toFixed(1)} | ${(best / mb).toFixed(1)} |`);
}
