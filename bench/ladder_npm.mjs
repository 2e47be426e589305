#!/usr/bin/env node
// Before/after of a W1-W3 replace through the npm package, against Gemini's calculateReplacement,
// in one Node process (issue 28 W2/W3; BENCHMARKS.md, "The loose strategies"): two copies of js/
// (each with its dist/) loaded side by side and Gemini, interleaved round by round after a checked
// warm-up, so a loaded machine slows all three alike. Prints min/median ms and Gemini ÷ editcore.
//
//   node bench/gen.mjs --out OUT --sizes 1m
//   cp -r js /tmp/js-before            # before the change, with its js/dist built
//   node bench/ladder_npm.mjs OUT 1m W2 40 /tmp/js-before js
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [OUT, SIZE, W, ROUNDS, BEFORE, AFTER] = process.argv.slice(2);
if (!AFTER) { console.error('usage: ladder_npm.mjs OUT SIZE W1|W2|W3 ROUNDS BEFORE_JS_DIR AFTER_JS_DIR'); process.exit(2); }
const rd = (n) => readFileSync(join(OUT, SIZE, n), 'utf8');
const file = rd('file.js'), old = rd(`${W}.old`), neu = rd(`${W}.new`), expect = rd(`${W}.expect`);
const load = async (dir) => {
  const api = await import(pathToFileURL(join(resolve(dir), 'src/index.js')).href);
  await api.init({ full: true });
  await api.loadSyntax(['javascript']);
  return api;
};
const before = await load(BEFORE), after = await load(AFTER);
const gemini = await import(pathToFileURL(join(root, 'bench/node_modules/@google/gemini-cli-core/dist/src/tools/edit.js')).href);
const request = { format: 'replace', files: { 'file.js': file }, edit: { path: 'file.js', old_string: old, new_string: neu } };
const cfg = { getUsageStatisticsEnabled: () => false, getSessionId: () => 'bench', getDebugMode: () => false };
const ctx = { currentContent: file, params: { file_path: 'file.js', old_string: old, new_string: neu } };
const viaPackage = (api) => () => { const f = api.applyRequestSync(request).data.files['file.js']; return { content: f.content, diff: f.diff }; };
const list = [
  ['editcore-before', viaPackage(before)],
  ['editcore-after', viaPackage(after)],
  ['gemini', async () => ({ content: (await gemini.calculateReplacement(cfg, ctx)).newContent })],
];
for (const [name, run] of list) {
  const r = await run();
  if (r.content !== expect || (r.diff !== undefined && !r.diff.includes('\n@@ -'))) throw new Error(`${name}: wrong answer`);
}
const times = list.map(() => []);
for (let r = 0; r < Number(ROUNDS); r++) {
  for (let j = 0; j < list.length; j++) {
    const i = (j + r) % list.length;
    const t0 = performance.now();
    const out = await list[i][1]();
    if (out.content.length && out.content.charCodeAt(out.content.length >> 1) < 0) throw new Error('unreachable');
    times[i].push(performance.now() - t0);
  }
}
const st = (a) => { const s = a.slice().sort((x, y) => x - y); return { min: s[0], med: s[s.length >> 1] }; };
const res = Object.fromEntries(list.map(([n], i) => [n, st(times[i])]));
const f = (x) => x.toPrecision(3);
console.log(`${SIZE} ${W} rounds=${ROUNDS} load=${loadavg()[0].toFixed(1)} ` + list.map(([n]) => `${n} ${f(res[n].min)}/${f(res[n].med)}`).join('  ') +
  `  gemini÷before ${f(res.gemini.min / res['editcore-before'].min)}/${f(res.gemini.med / res['editcore-before'].med)}` +
  `  gemini÷after ${f(res.gemini.min / res['editcore-after'].min)}/${f(res.gemini.med / res['editcore-after'].med)}`);
