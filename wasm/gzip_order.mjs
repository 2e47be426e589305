// The order in which gzip -9 compresses a list of byte blobs best, as far as a greedy walk can tell
// (used by order_functions.mjs for a module's function bodies and by order_data.mjs for its string
// literals). gzip finds a repeat only within the last 32 KB, so a blob whose byte sequences also
// occur in a similar blob far away is paid for in full. After the smallest blob, the next one is,
// of those left, the one whose 6-byte sequences most occur in the last 32 KB placed (the greatest
// share of its distinct sequences, so a small blob is not crowded out by a large one that merely
// shares more), ties to the lower index. Sequences, not a compressor, score it, so the order is the
// same whatever zlib the build machine has.
//   gzipOrder(blobs: Uint8Array[]) -> number[]  (indices into blobs, each once)

const WINDOW = 32768, SEQ = 6;

export function gzipOrder(blobs) {
  const n = blobs.length;
  // Each blob's distinct 6-byte sequences, as exact numbers (48 bits), and which blobs hold each.
  const seqs = blobs.map((b) => {
    const s = new Set();
    for (let i = 0; i + SEQ <= b.length; i++) s.add(b[i] + b[i + 1] * 2 ** 8 + b[i + 2] * 2 ** 16 + b[i + 3] * 2 ** 24 + b[i + 4] * 2 ** 32 + b[i + 5] * 2 ** 40);
    return [...s];
  });
  const holders = new Map();
  seqs.forEach((list, k) => { for (const s of list) { const h = holders.get(s); if (h) h.push(k); else holders.set(s, [k]); } });

  // The window: the blobs placed last, at least 32 KB of them; `hits[k]` counts blob k's sequences
  // that occur in it, kept up to date as sequences enter and leave it.
  const inWindow = new Map(), hits = new Int32Array(n), left = new Set(blobs.keys()), window = [], order = [];
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
    window.push(k); windowBytes += blobs[k].length; count(k, 1);
    while (windowBytes - blobs[window[0]].length >= WINDOW) { const old = window.shift(); windowBytes -= blobs[old].length; count(old, -1); }
  };
  if (n) {
    let first = 0;
    for (let k = 1; k < n; k++) if (blobs[k].length < blobs[first].length) first = k;
    place(first);
  }
  while (left.size) {
    let best = -1;
    for (const k of left) // (hits + 1) / (sequences + 1), compared exactly
      if (best < 0 || (hits[k] + 1) * (seqs[best].length + 1) > (hits[best] + 1) * (seqs[k].length + 1)) best = k;
    place(best);
  }
  return order;
}
