// The SIMD kernels (wasm/simd_kernels.c, js/src/kernels.js) answer exactly as the portable code
// they stand in for: each against a reference written here in plain JS on seeded random texts
// (the shapes that matter: LF-dense, CR and NUL at every position, needles at block edges, near
// misses that exhaust the search's budget), then whole requests with and without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, applyJson } from '../src/index.js';
import { kernelsFor } from '../src/kernels.js';

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

const refScan = (b) => [b.filter((x) => x === 10).length, b.some((x) => x === 0 || x === 13) ? 1 : 0];
const refFind = (h, s) => {
  outer: for (let i = 0; i + s.length <= h.length; i++) {
    for (let j = 0; j < s.length; j++) if (h[i + j] !== s[j]) continue outer;
    return i;
  }
  return -1;
};

function setup(size) {
  const memory = new WebAssembly.Memory({ initial: Math.ceil((size + 65536) / 65536) + 1 });
  const k = kernelsFor(memory);
  assert.ok(k, 'this Node runs WebAssembly SIMD, so the kernels load');
  return { k, heap: new Uint8Array(memory.buffer) };
}

test('scan_text and count_lf count every LF and see every NUL and CR', () => {
  const { k, heap } = setup(1 << 16);
  const r = rng(7);
  const base = 64; // texts start at odd offsets too: the kernels load unaligned
  for (let t = 0; t < 400; t++) {
    const n = t < 100 ? t : Math.floor(r() * 20000);
    const at = base + (t % 17);
    const alphabet = t % 3 === 0 ? [10, 97] : [10, 32, 97, 98, 200];
    for (let i = 0; i < n; i++) heap[at + i] = alphabet[Math.floor(r() * alphabet.length)];
    if (t % 4 === 1 && n) heap[at + Math.floor(r() * n)] = t % 8 === 1 ? 0 : 13;
    const out = at + n + 8 - ((at + n) % 4);
    k.scan_text(at, n, out);
    const want = refScan(heap.subarray(at, at + n));
    assert.deepEqual([heap[out] | heap[out + 1] << 8 | heap[out + 2] << 16, heap[out + 4]], want, `scan_text, text ${t} (${n} bytes)`);
    assert.equal(k.count_lf(at, n) >>> 0, want[0], `count_lf, text ${t}`);
  }
});

test('find gives memmem\'s first offset, or says where memmem must go on', () => {
  const { k, heap } = setup(1 << 16);
  const r = rng(11);
  for (let t = 0; t < 600; t++) {
    const n = Math.floor(r() * (t < 300 ? 200 : 30000));
    const m = 1 + Math.floor(r() * (t % 5 === 0 ? 40 : 6));
    const alphabet = t % 2 ? [97, 98] : [97, 98, 99, 10, 32];
    const h = 128, s = h + n + 16;
    for (let i = 0; i < n; i++) heap[h + i] = alphabet[Math.floor(r() * alphabet.length)];
    for (let j = 0; j < m; j++) heap[s + j] = alphabet[Math.floor(r() * alphabet.length)];
    if (t % 3 === 0 && n >= m) { const at = Math.floor(r() * (n - m + 1)); heap.copyWithin(h + at, s, s + m); }
    const want = refFind(heap.subarray(h, h + n), heap.subarray(s, s + m));
    const got = k.find(h, n, s, m);
    if (got >= -1) assert.equal(got, want, `find, case ${t} (${n} bytes, needle ${m})`);
    else assert.ok(want === -1 || want >= -2 - got, `find, case ${t}: gave up at ${-2 - got}, past the first occurrence ${want}`);
  }
});

test('find gives up on near misses after a linear budget, never past an occurrence', () => {
  const { k, heap } = setup(1 << 20);
  const n = 200000, m = 300, h = 0, s = n + 64;
  // "abab...": every other offset is a candidate of "abab...aa", which fails only at its end
  for (let i = 0; i < n; i++) heap[h + i] = i % 2 ? 98 : 97;
  for (let j = 0; j < m; j++) heap[s + j] = j % 2 ? 98 : 97;
  heap[s + m - 1] = 97;
  heap.copyWithin(h + n - m, s, s + m); // the one occurrence, at the end
  const got = k.find(h, n, s, m);
  assert.ok(got <= -2, `a text of near misses exhausts the budget (got ${got})`);
  assert.ok(-2 - got <= n - m, 'and names where memmem goes on');
  assert.equal(refFind(heap.subarray(h, h + n), heap.subarray(s, s + m)), n - m, 'the occurrence is past where it gave up');
});

test('whole requests answer the same with and without the kernels', async () => {
  const m = await init({ full: true });
  const k = m.editcoreKernels;
  assert.ok(k, 'the engine module has its kernels');
  const calls = { scan_text: 0, count_lf: 0, find: 0 };
  const counted = Object.fromEntries(Object.keys(calls).map((name) => [name, (...a) => { calls[name]++; return k[name](...a); }]));
  const r = rng(3);
  const lines = [];
  for (let i = 0; i < 3000; i++) lines.push(`  const v${i} = f(${Math.floor(r() * 1e6)}); // ${'x'.repeat(i % 40)}`);
  const text = lines.join('\n') + '\n';
  const requests = [
    { format: 'replace', files: { 'a.txt': text }, edit: { old_string: lines[2900], new_string: 'changed' } },
    { format: 'replace', files: { 'a.txt': text }, edit: { old_string: lines[10].trim() + '\n' + lines[11].trim(), new_string: 'x\ny' } },
    { format: 'replace', files: { 'a.txt': text }, edit: { old_string: lines[2000].replace(/ +/g, ' '), new_string: 'ws' } },
    { format: 'replace', files: { 'a.txt': text.replace(/\n/g, '\r\n') }, edit: { old_string: lines[5], new_string: 'crlf' } },
    { format: 'replace', files: { 'a.txt': text + '\0' }, edit: { old_string: lines[5], new_string: 'nul' } },
    { format: 'replace', files: { 'a.txt': text }, edit: { old_string: 'not in the file at all', new_string: 'x' } },
    { format: 'replace', files: { 'a.txt': text }, edit: { old_string: '= f(', new_string: '= g(', replace_all: true } },
    { format: 'search_replace', files: { 'a.txt': text }, edit: `a.txt\n<<<<<<< SEARCH\n${lines[1500]}\n${lines[1501].replace('const', 'let')}\n=======\nz\n>>>>>>> REPLACE\n` },
  ];
  // ... and seeded ones: a slice of the text as it is, re-indented, whitespace collapsed, or
  // with a changed character (found nowhere), under every format that searches a whole file
  for (let t = 0; t < 60; t++) {
    const a = Math.floor(r() * (text.length - 400)), slice = text.slice(a, a + 20 + Math.floor(r() * 300));
    const old = [slice, slice.replace(/^ {2}/gm, '    '), slice.replace(/ +/g, ' '), slice.replace(/[0-9]/, 'Z')][t % 4];
    requests.push(t % 5 === 4
      ? { format: 'search_replace', files: { 'a.txt': text }, edit: `a.txt\n<<<<<<< SEARCH\n${old}\n=======\nnew\n>>>>>>> REPLACE\n` }
      : { format: 'replace', files: { 'a.txt': t % 7 ? text : text.replace(/\n/g, '\r\n') }, edit: { old_string: old, new_string: 'new', replace_all: t % 3 === 0 } });
  }
  const noTime = (s) => s.replace(/"time_ms":[^,}]*/, '');
  try {
    for (const [i, req] of requests.entries()) {
      const json = JSON.stringify(req);
      m.editcoreKernels = null; // none: the portable code answers
      const plain = noTime(applyJson(json));
      m.editcoreKernels = counted;
      assert.equal(noTime(applyJson(json)), plain, `request ${i}`);
    }
  } finally {
    m.editcoreKernels = k;
  }
  for (const [name, n] of Object.entries(calls)) assert.ok(n > 0, `the requests ran ${name} (${n} calls)`);
});
