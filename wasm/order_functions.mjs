// Run by the Emscripten build (wasm/CMakeLists.txt) on each engine module: reorders the
// functions of its text form (wasm-dis) for gzip, and writes the text back for wasm-opt to
// assemble. Only the order of the code section changes: a call names its function, and a
// function pointer is a slot of the table, whose entries name their functions too, so what the
// module computes is the same.
//
// Why an order matters: gzip -9 finds a repeat only within the last 32 KB, so a function whose
// byte sequences also occur in a similar function far away is paid for in full. The order is
// built greedily: after the smallest function, the next one is, of those left, the one whose
// 6-byte sequences most occur in the last 32 KB placed (the greatest share of its distinct
// sequences, so a small helper like the last ones is not crowded out by a large body that merely
// shares more), ties to the lower index. Sequences, not a compressor, score it, so the order is
// the same whatever zlib the build machine has. editcore.wasm: 153,570 B gzip -9 with the
// functions in order of size, 152,627 with this order (BENCHMARKS.md "Three modules").
//   node wasm/order_functions.mjs <in.wasm> <in.wat> <out.wat>   (the .wat is wasm-dis of the .wasm)
import { readFileSync, writeFileSync } from 'node:fs';

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

const WINDOW = 32768, SEQ = 6;
const bodies = functionBodies(readFileSync(wasmPath));
const n = bodies.length;
// Each body's distinct 6-byte sequences, as exact numbers (48 bits), and which bodies hold each.
const seqs = bodies.map((b) => {
  const s = new Set();
  for (let i = 0; i + SEQ <= b.length; i++) s.add(b[i] + b[i + 1] * 2 ** 8 + b[i + 2] * 2 ** 16 + b[i + 3] * 2 ** 24 + b[i + 4] * 2 ** 32 + b[i + 5] * 2 ** 40);
  return [...s];
});
const holders = new Map();
seqs.forEach((list, k) => { for (const s of list) { const h = holders.get(s); if (h) h.push(k); else holders.set(s, [k]); } });

// The window: the functions placed last, at least 32 KB of them; `hits[k]` counts body k's
// sequences that occur in it, kept up to date as sequences enter and leave it.
const inWindow = new Map(), hits = new Int32Array(n), left = new Set(bodies.keys());
const window = [];
let windowBytes = 0;
const count = (k, d) => {
  for (const s of seqs[k]) {
    const c = (inWindow.get(s) || 0) + d;
    if (c) inWindow.set(s, c); else inWindow.delete(s);
    if (c === (d > 0 ? 1 : 0)) for (const h of holders.get(s)) hits[h] += d;
  }
};
const place = (k) => {
  order.push(k); left.delete(k);
  window.push(k); windowBytes += bodies[k].length; count(k, 1);
  while (windowBytes - bodies[window[0]].length >= WINDOW) { const old = window.shift(); windowBytes -= bodies[old].length; count(old, -1); }
};
const order = [];
let first = 0;
for (let k = 1; k < n; k++) if (bodies[k].length < bodies[first].length) first = k;
if (n) place(first);
while (left.size) {
  let best = -1;
  for (const k of left) // (hits + 1) / (sequences + 1), compared exactly
    if (best < 0 || (hits[k] + 1) * (seqs[best].length + 1) > (hits[best] + 1) * (seqs[k].length + 1)) best = k;
  place(best);
}

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
