// Run by the Emscripten build (wasm/CMakeLists.txt) on each engine module after wasm-opt: puts its
// functions in an order for gzip (order_functions.mjs) and assembles the module again, several
// times over, keeping the smallest under gzip -9. Each round renumbers the calls, which changes
// the bytes the next order reads, so the same code lands within a spread of about 250 B gzip
// (editcore.wasm: 153,586 to 153,831 over five rounds, BENCHMARKS.md "Room in editcore.wasm,
// fifth pass"); the smallest of the rounds takes that spread off the budget. Only the code
// section's order changes, so what the module computes is the same. The rounds are the same on
// every run; the choice among them is node's zlib's, the one the size test measures with.
//   node wasm/best_order.mjs <module.wasm> <rounds> <wasm-opt> <wasm-dis> <feature flags...>
import { execFileSync } from 'node:child_process';
import { readFileSync, copyFileSync, renameSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const [wasm, rounds, wasmOpt, wasmDis, ...features] = process.argv.slice(2);
if (!features.length) { console.error('usage: best_order.mjs <module.wasm> <rounds> <wasm-opt> <wasm-dis> <feature flags...>'); process.exit(2); }
const orderScript = fileURLToPath(new URL('./order_functions.mjs', import.meta.url));
// Scratch files beside the module: the text, the round's result, the smallest so far.
const wat = `${wasm}.wat`, round = `${wasm}.round.wasm`, best = `${wasm}.best.wasm`;
const size = (f) => gzipSync(readFileSync(f), { level: 9 }).length;
let bestSize = Infinity;
copyFileSync(wasm, round);
for (let r = 0; r < Number(rounds); r++) {
  execFileSync(wasmDis, [round, '-o', wat]);
  execFileSync(process.execPath, [orderScript, round, wat, wat]);
  execFileSync(wasmOpt, [...features, '--shrink-level', '2', '--generate-stack-ir', '--optimize-stack-ir', wat, '-o', round]);
  const s = size(round);
  if (s < bestSize) { bestSize = s; copyFileSync(round, best); }
}
renameSync(best, wasm);
rmSync(round);
rmSync(wat);
