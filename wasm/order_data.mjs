// Run by the Emscripten build (wasm/CMakeLists.txt) on each engine module's LTO object (the
// wasm-ld --save-temps output, a relocatable wasm object: every string literal its own data
// segment): puts the string literals in an order for gzip, and the module is then linked again
// from this object. Only where each string lies in memory changes: every reference to a string
// is a relocation against its symbol, which the linker resolves to the new place, so what the
// module computes is the same.
//
// Why: the strings (about 51 KB in editcore.wasm, nearly all messages) come after the code, and
// the linker lays out mergeable strings in its own order (suffixes beside each other, for tail
// merging), so gzip -9 finds a message's phrases repeated only when a similar message happens to
// lie within its last 32 KB. Here the strings are placed greedily as the functions are
// (wasm/order_functions.mjs): after the shortest, the next one is, of those left, the one whose
// 6-byte sequences most occur in the last 32 KB placed (the greatest share of its distinct
// sequences), ties to the earlier segment. The linker's two savings are kept: equal strings are one
// (LTO merged them already) and a string that ends another is that string's tail (its symbol
// points into it), which is why the segments leave the linker unmerged (their strings flag off),
// in this order.
//   node wasm/order_data.mjs <in.o> <out.o>
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipOrder } from './gzip_order.mjs';

const [input, output] = process.argv.slice(2);
if (!output) { console.error('usage: order_data.mjs <in.o> <out.o>'); process.exit(2); }
const fail = (why) => { console.error(`order_data: ${input}: ${why}`); process.exit(1); };

const wasm = readFileSync(input);
let at = 0;
const uleb = () => { let v = 0, shift = 0, b; do { b = wasm[at++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80); return v; };
const sleb = () => { let v = 0, shift = 0, b; do { b = wasm[at++]; v += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80); return b & 0x40 ? v - 2 ** shift : v; };
const name = () => { const n = uleb(); const s = wasm.subarray(at, at + n).toString('utf8'); at += n; return s; };
const encU = (v) => { const o = []; do { let b = v % 128; v = Math.floor(v / 128); if (v) b |= 0x80; o.push(b); } while (v); return o; };
const encS = (v) => { const o = []; for (;;) { const b = ((v % 128) + 128) % 128; v = (v - b) / 128; if ((v === 0 && !(b & 0x40)) || (v === -1 && (b & 0x40))) { o.push(b); return o; } o.push(b | 0x80); } };
const encName = (s) => { const b = Buffer.from(s, 'utf8'); return [...encU(b.length), ...b]; };

if (wasm.readUInt32LE(0) !== 0x6d736100 || wasm.readUInt32LE(4) !== 1) fail('not a wasm module');
// The sections as they are: id, payload (name included for custom sections), custom name.
const sections = [];
at = 8;
while (at < wasm.length) {
  const id = wasm[at++], size = uleb(), start = at;
  const custom = id === 0 ? name() : null;
  sections.push({ id, custom, start, payload: wasm.subarray(start, start + size) });
  at = start + size;
}
const dataIndex = sections.findIndex((s) => s.id === 11);
const linking = sections.find((s) => s.custom === 'linking');
if (dataIndex < 0 || !linking) fail('no data section or no linking section (not an object file?)');

// Data segments: flags 0, an i32.const offset, then the bytes; `pos` is where the bytes start
// within the section's payload, as reloc.DATA counts.
const segs = [];
{
  const base = sections[dataIndex].start;
  at = base;
  for (let n = uleb(); n > 0; n--) {
    const flags = uleb();
    if (flags !== 0 || wasm[at] !== 0x41) fail('a data segment that is not active at an i32.const');
    at++; sleb();
    if (wasm[at++] !== 0x0b) fail('a data segment offset that is not one constant');
    const len = uleb();
    segs.push({ pos: at - base, bytes: wasm.subarray(at, at + len) });
    at += len;
  }
}

// The linking section: segment info (5) and the symbol table (8) are rewritten; the rest is kept.
const subs = [];
let symbols = null;
{
  at = linking.start;
  const end = at + linking.payload.length;
  name(); // "linking"
  if (uleb() !== 2) fail('linking section version is not 2');
  while (at < end) {
    const type = wasm[at++], len = uleb(), start = at;
    if (type === 5) {
      if (uleb() !== segs.length) fail('segment info does not list every data segment');
      segs.forEach((s) => { s.name = name(); s.align = uleb(); s.flags = uleb(); });
      subs.push({ type });
    } else if (type === 8) {
      symbols = [];
      for (let n = uleb(); n > 0; n--) {
        const kind = wasm[at++], flags = uleb(), sym = { kind, flags };
        const undefined_ = (flags & 0x10) !== 0, explicitName = (flags & 0x40) !== 0;
        if (kind === 1) { // data: name, then where it lies when defined
          sym.name = name();
          if (!undefined_) { sym.segment = uleb(); sym.offset = uleb(); sym.size = uleb(); }
        } else if (kind === 3) sym.index = uleb(); // a section
        else { sym.index = uleb(); if (!undefined_ || explicitName) sym.name = name(); }
        symbols.push(sym);
      }
      subs.push({ type });
    } else if (type === 7) fail('COMDAT info (which may name data segments) is not handled');
    else subs.push({ type, payload: wasm.subarray(start, start + len) });
    at = start + len;
  }
}
if (!symbols || segs.some((s) => s.name === undefined)) fail('no symbol table or no segment info');

// The strings: the segments the compiler marked mergeable (NUL-terminated, byte-aligned, in
// .rodata). Copies are one; a string that ends a longer one (a tail) lies inside it; the rest are
// ordered, in one run where the first of them was.
const isString = (s) => (s.flags & 1) && s.align === 0 && s.bytes.length && s.bytes[s.bytes.length - 1] === 0 && s.name.startsWith('.rodata.');
const strings = segs.filter(isString);
const texts = new Map(); // content -> first segment with it
for (const s of strings) {
  const t = s.bytes.toString('latin1');
  if (texts.has(t)) s.sameAs = texts.get(t); else texts.set(t, s);
}
// Tails: sorted by their reversed bytes, the strings that end with t come right after t; any of
// them holds t (the last of that run is taken), and a holder that is itself a tail is followed to
// the string that holds it (tailOf always names a longer string, so this ends).
const distinct = [...texts.values()];
const byReverse = distinct.map((s) => ({ s, r: s.bytes.toString('latin1').split('').reverse().join('') })).sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0));
for (let i = 0; i < byReverse.length; i++) {
  const t = byReverse[i];
  let host = null;
  for (let k = i + 1; k < byReverse.length && byReverse[k].r.startsWith(t.r); k++) host = byReverse[k].s;
  if (host) t.s.tailOf = host;
}
for (const s of distinct) { let h = s.tailOf; while (h && h.tailOf) h = h.tailOf; if (h) s.tailOf = h; }
const ordered = distinct.filter((s) => !s.tailOf);

// The order (wasm/gzip_order.mjs, as functions are ordered).
const order = gzipOrder(ordered.map((s) => s.bytes));

// The new segment list: the ordered strings where the first string segment was, the other
// segments (tables, .data, .bss) in their order around them; tails and copies are dropped.
const firstString = segs.indexOf(strings[0]);
const kept = [];
segs.forEach((s, i) => {
  if (i === firstString) for (const k of order) kept.push(ordered[k]);
  if (!isString(s)) kept.push(s);
});
kept.forEach((s, i) => { s.newIndex = i; });
// Where each old segment's bytes now lie: (new segment, offset in it).
for (const s of segs) {
  if (!isString(s)) { s.to = s; s.shift = 0; continue; }
  let host = s.sameAs || s;
  if (host.tailOf) { s.to = host.tailOf; s.shift = host.tailOf.bytes.length - host.bytes.length; } else { s.to = host; s.shift = 0; }
}

// Section bytes.
const out = [];
const section = (id, bytes) => { out.push(id, ...encU(bytes.length)); for (const b of bytes) out.push(b); };
const dataBytes = [...encU(kept.length)];
let address = 0;
for (const s of kept) {
  const a = 2 ** s.align;
  address = Math.ceil(address / a) * a;
  dataBytes.push(0, 0x41, ...encS(address), 0x0b, ...encU(s.bytes.length));
  s.newPos = dataBytes.length;
  for (const b of s.bytes) dataBytes.push(b);
  address += s.bytes.length;
}
const linkingBytes = [...encName('linking'), ...encU(2)];
for (const sub of subs) {
  let body;
  if (sub.type === 5) {
    body = [...encU(kept.length)];
    for (const s of kept) body.push(...encName(s.name), ...encU(s.align), ...encU(isString(s) ? s.flags & ~1 : s.flags));
  } else if (sub.type === 8) {
    body = [...encU(symbols.length)];
    for (const sym of symbols) {
      body.push(sym.kind, ...encU(sym.flags));
      if (sym.kind === 1) {
        body.push(...encName(sym.name));
        if (sym.segment !== undefined) {
          const s = segs[sym.segment];
          if (!s) fail('a data symbol in no segment');
          body.push(...encU(s.to.newIndex), ...encU(sym.offset + s.shift), ...encU(sym.size));
        }
      } else if (sym.kind === 3) body.push(...encU(sym.index));
      else { body.push(...encU(sym.index)); if (sym.name !== undefined) body.push(...encName(sym.name)); }
    }
  } else body = [...sub.payload];
  linkingBytes.push(sub.type, ...encU(body.length), ...body);
}
// reloc.DATA: offsets into the data section's payload, moved with their segment.
const WITH_ADDEND = new Set([3, 4, 5, 8, 9, 11, 14, 15, 16, 17, 21, 22, 23, 25]);
const relocData = (sec) => {
  at = sec.start;
  name();
  const target = uleb(), entries = [];
  const starts = segs.map((s) => s.pos);
  for (let n = uleb(); n > 0; n--) {
    const type = wasm[at++], offset = uleb(), index = uleb(), addend = WITH_ADDEND.has(type) ? sleb() : null;
    let lo = 0, hi = segs.length - 1; // the segment whose bytes hold the offset
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (starts[mid] <= offset) lo = mid; else hi = mid - 1; }
    const s = segs[lo];
    if (offset < s.pos || offset >= s.pos + s.bytes.length || isString(s)) fail('a data relocation outside a table segment');
    entries.push({ type, offset: s.newPos + (offset - s.pos), index, addend });
  }
  entries.sort((a, b) => a.offset - b.offset);
  const body = [...encName('reloc.DATA'), ...encU(target), ...encU(entries.length)];
  for (const e of entries) { body.push(e.type, ...encU(e.offset), ...encU(e.index)); if (e.addend !== null) body.push(...encS(e.addend)); }
  return body;
};

for (const s of sections) {
  if (s.id === 11) section(11, dataBytes);
  else if (s.id === 12) section(12, encU(kept.length));
  else if (s.custom === 'linking') section(0, linkingBytes);
  else if (s.custom === 'reloc.DATA') section(0, relocData(s));
  else section(s.id, s.payload);
}
writeFileSync(output, Buffer.concat([wasm.subarray(0, 8), Buffer.from(out)]));
