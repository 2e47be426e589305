// Run by the Emscripten build (wasm/CMakeLists.txt) on each engine module's text form (wasm-dis):
// puts the module's functions in order of size, smallest first, and writes the text back for
// wasm-opt to assemble. Only the order of the code section changes: a call names its function,
// and a function pointer is a slot of the table, whose entries name their functions too, so what
// the module computes is the same. What it buys is gzip: Emscripten's order leaves a small
// helper between two large bodies, and gzip -9 finds more repeats when the many small functions
// (accessors, wrappers, comparators) stand together and the large ones after them:
// editcore.wasm 153,405 -> 151,981 B gzip -9 (BENCHMARKS.md "Three modules").
//   node wasm/order_functions.mjs <in.wat> <out.wat>
import { readFileSync, writeFileSync } from 'node:fs';

const [input, output] = process.argv.slice(2);
if (!output) { console.error('usage: order_functions.mjs <in.wat> <out.wat>'); process.exit(2); }
const lines = readFileSync(input, 'utf8').split('\n');
// wasm-dis prints each function at the module's top level: ' (func $name ...' to its own ' )'.
const before = [], funcs = [], after = [];
let open = null;
for (const line of lines) {
  if (open) {
    open.push(line);
    if (line === ' )') open = null;
  } else if (line.startsWith(' (func ')) {
    open = [line];
    funcs.push(open);
  } else (funcs.length ? after : before).push(line);
}
if (open || !funcs.length) { console.error(`order_functions: ${input} is not wasm-dis output as expected`); process.exit(1); }
// A function's size: its lines of text (one instruction a line). Array.prototype.sort is stable,
// so functions of one size keep the order they had.
funcs.sort((a, b) => a.length - b.length);
writeFileSync(output, [...before, ...funcs.flat(), ...after].join('\n'));
