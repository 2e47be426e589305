// Run by the Emscripten build (wasm/CMakeLists.txt) on each engine module: reorders the
// functions of its text form (wasm-dis) for gzip, and writes the text back for wasm-opt to
// assemble. Only the order of the code section changes: a call names its function, and a
// function pointer is a slot of the table, whose entries name their functions too, so what the
// module computes is the same.
//
// Why an order matters, and how it is found: wasm/gzip_order.mjs (gzip -9 finds a repeat only
// within the last 32 KB; a greedy walk by shared 6-byte sequences). editcore.wasm: 153,570 B
// gzip -9 with the functions in order of size, 152,627 with this order (BENCHMARKS.md "Three
// modules").
//   node wasm/order_functions.mjs <in.wasm> <in.wat> <out.wat>   (the .wat is wasm-dis of the .wasm)
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipOrder } from './gzip_order.mjs';

const [wasmPath, input, output] = process.argv.slice(2);
if (!output) { console.error('usage: order_functions.mjs <in.wasm> <in.wat> <out.wat>'); process.exit(2); }

/* The code section's function bodies, in the module's order (the order wasm-dis prints them). */
function functionBodies(wasm) {
  const leb = (at) => { let v = 0, shift = 0, b; do { b = wasm[at.i++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80); return v; };
  const at = { i: 8 };
  while (at.i < wasm.length) {
    const id = wasm[at.i++], size = leb(at), end = at.i + size;
    if (id === 10) {
      const bodies = [];
      for (let n = leb(at); n > 0; n--) { const start = at.i, len = leb(at); at.i += len; bodies.push(wasm.subarray(start, at.i)); }
      return bodies;
    }
    at.i = end;
  }
  return [];
}

const bodies = functionBodies(readFileSync(wasmPath));
const n = bodies.length;
const order = gzipOrder(bodies);

// wasm-dis prints each function at the module's top level: ' (func $name ...' to its own ' )'.
const lines = readFileSync(input, 'utf8').split('\n');
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
if (open || !funcs.length || funcs.length !== n) {
  console.error(`order_functions: ${input} is not wasm-dis output of ${wasmPath} as expected`);
  process.exit(1);
}
writeFileSync(output, [...before, ...order.map((k) => funcs[k]).flat(), ...after].join('\n'));
