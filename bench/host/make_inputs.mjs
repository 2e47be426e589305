#!/usr/bin/env node
// Inputs for the host benchmarks (bench/host/run.sh), deterministic:
//   big/src/big.py      a 10 MB Python file; big/reply.md a reply (one SEARCH/REPLACE block near
//                       the middle) for `editcore apply`; big/request.json the same reply as a
//                       format-"reply" JSON request with the file's content, for `editcore json`
//   batch.jsonl         10 000 replace requests over 1 KB files, one per line (`editcore batch`)
//   node bench/host/make_inputs.mjs OUT_DIR [N_REQUESTS]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] ?? 'bench/out/host';
const n = Number(process.argv[3] ?? 10000);
mkdirSync(join(out, 'big/src'), { recursive: true });

let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const words = ['value', 'count', 'total', 'name', 'items', 'result', 'index', 'buffer', 'offset', 'limit'];
const w = () => words[Math.floor(rnd() * words.length)];

// 10 MB: functions of a few lines each, every one unique by its number.
const parts = [];
let size = 0, k = 0;
while (size < 10 * 1024 * 1024) {
  const f = `def func_${k}(${w()}, ${w()}):\n    ${w()} = ${w()} + ${k}\n    if ${w()} > ${k % 97}:\n        return ${w()}\n    return None\n\n\n`;
  parts.push(f);
  size += f.length;
  k++;
}
const big = parts.join('');
writeFileSync(join(out, 'big/src/big.py'), big);
const mid = Math.floor(k / 2);
const block = parts[mid].split('\n').slice(0, 2).join('\n');
const reply = `Rename the local in func_${mid}.\n\nsrc/big.py\n\`\`\`python\n<<<<<<< SEARCH\n${block}\n=======\n${block.replace(/\n    (\w+) =/, '\n    renamed_$1 =')}\n>>>>>>> REPLACE\n\`\`\`\n`;
writeFileSync(join(out, 'big/reply.md'), reply);
writeFileSync(join(out, 'big/request.json'), JSON.stringify({ format: 'reply', files: { 'src/big.py': big }, edit: { text: reply } }));

// Batch: 1 KB files, each request replacing one line of its own file.
const lines = [];
for (let i = 0; i < n; i++) {
  let body = '';
  let j = 0;
  while (body.length < 1000) body += `line_${i}_${j++} = ${w()}(${Math.floor(rnd() * 1000)})\n`;
  const target = `line_${i}_${Math.floor(j / 2)} = `;
  const at = body.indexOf(target);
  const old = body.slice(at, body.indexOf('\n', at));
  lines.push(JSON.stringify({ format: 'replace', files: { [`f${i}.py`]: body }, edit: { old_string: old, new_string: old + ' + 1' } }));
}
writeFileSync(join(out, 'batch.jsonl'), lines.join('\n') + '\n');
console.log(`${out}: big.py ${big.length} bytes (${k} functions), batch.jsonl ${n} requests`);
