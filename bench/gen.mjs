// Deterministic workload generator for the editcore benchmarks (issue 7).
//
//   node bench/gen.mjs [--out bench/out] [--sizes 10k,1m,10m] [--seed 7]
//
// Writes, per size, bench/out/<size>/:
//   file.js                      the source-like file (JS-style code, 2-space indentation)
//   after.js                     the file with 1 % of its lines changed, scattered (W4)
//   <W>.req.json                 the JSON request (SPEC §1) for the CLI / WASI / npm package
//   <W>.format, <W>.profile      one word each, for the C harness
//   <W>.old, <W>.new             replace: old_string / new_string
//   <W>.text                     search_replace / unified_diff / codex_patch: the edit text
//   <W>.content                  whole_file: the new content
//   <W>.expect                   the content every contender must produce (checked once)
//   codex.patch                  W5's patch (for `codex --codex-run-as-apply-patch`)
// and bench/out/manifest.json describing all of it. Same seed -> byte-identical output.
//
// Workloads (issue 7): W1 exact replace of a unique 5-line block near the end; W2 the same block
// with wrong indentation; W3 the block with collapsed whitespace (regex strategy); W4 a unified
// diff of before/after with 1 % of lines changed (W4a applies it, W4b computes it from the two
// versions via whole_file); W5 a 50-hunk Codex patch; W6 a 20-block SEARCH/REPLACE reply.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const OUT = opt('--out', join(here, 'out'));
const SIZES = opt('--sizes', '10k,1m,10m').split(',');
const SEED = Number(opt('--seed', '7'));
const BYTES = { '10k': 10 * 1024, '1m': 1024 * 1024, '10m': 10 * 1024 * 1024 };

// mulberry32: small, well-known, 32-bit integer only (identical everywhere).
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (arr) => arr[Math.floor(next() * arr.length)] };
}

const VERBS = ['parse', 'load', 'build', 'render', 'update', 'compute', 'resolve', 'fetch', 'merge', 'apply', 'check', 'format', 'encode', 'scan', 'collect'];
const NOUNS = ['Config', 'Item', 'Node', 'Request', 'Buffer', 'Token', 'Range', 'Entry', 'Record', 'Frame', 'Span', 'Patch', 'Index', 'Cache', 'Table'];
const VARS = ['items', 'options', 'ctx', 'state', 'input', 'result', 'entries', 'nodes', 'value', 'limit', 'offset', 'count', 'total', 'acc', 'row'];
const FIELDS = ['size', 'length', 'weight', 'start', 'end', 'depth', 'id', 'kind', 'flags', 'score'];
const CALLS = ['Math.max', 'Math.min', 'normalize', 'clamp', 'hashOf', 'toKey', 'merge', 'lookup', 'emit', 'visit'];

// One function of 6-20 lines; `id` makes its header line unique in the file.
function genFunction(r, id) {
  const name = r.pick(VERBS) + r.pick(NOUNS) + id;
  const a = r.pick(VARS), b = r.pick(VARS), f = r.pick(FIELDS), c = r.pick(CALLS);
  const n = 1 + r.int(97);
  const lines = [];
  const exported = r.int(3) === 0 ? 'export ' : '';
  lines.push(`${exported}function ${name}(${a}, ${b === a ? 'opts' : b}) {`);
  lines.push(`  const limit = ${a}.${f} ?? ${n};`);
  lines.push(`  let total = 0;`);
  const body = 1 + r.int(3);
  for (let k = 0; k < body; k++) {
    switch (r.int(5)) {
      case 0:
        lines.push(`  for (let i = 0; i < ${a}.length; i++) {`);
        lines.push(`    if (${a}[i].${r.pick(FIELDS)} > limit) {`);
        lines.push(`      total += ${c}(${a}[i], ${r.int(50)});`);
        lines.push(`    }`);
        lines.push(`  }`);
        break;
      case 1:
        lines.push(`  if (!${b} || ${b}.${r.pick(FIELDS)} === undefined) {`);
        lines.push(`    throw new Error('${name}: missing ${r.pick(FIELDS)}');`);
        lines.push(`  }`);
        break;
      case 2:
        lines.push(`  const ${r.pick(VARS)}${k} = ${c}(${a}, ${b}.${r.pick(FIELDS)} + ${r.int(1000)});`);
        break;
      case 3:
        lines.push(`  while (total < limit && ${a}.length > ${r.int(9)}) {`);
        lines.push(`    total = ${c}(total * 2, ${r.int(300)}) | 0;`);
        lines.push(`  }`);
        break;
      default:
        lines.push(`  // ${r.pick(VERBS)} the ${r.pick(NOUNS).toLowerCase()} before returning (${r.int(10000)})`);
        lines.push(`  ${b}.${r.pick(FIELDS)} = [${r.int(10)}, ${r.int(10)}, ${r.int(10)}].map((x) => x * total);`);
    }
  }
  lines.push(`  return { total, limit, name: '${name}' };`);
  lines.push(`}`);
  lines.push('');
  return lines;
}

function genFile(r, bytes) {
  const lines = ["'use strict';", "import { normalize, clamp, hashOf, toKey, merge, lookup, emit, visit } from './util.js';", ''];
  const funcStarts = [];
  let size = lines.reduce((s, l) => s + l.length + 1, 0);
  let id = 0;
  while (size < bytes) {
    funcStarts.push(lines.length);
    for (const l of genFunction(r, id++)) { lines.push(l); size += l.length + 1; }
  }
  return { lines, funcStarts };
}

// The 5-line block of W1-W3: the first 5 lines of the function at ~95 % of the file.
function blockAt(lines, start) { return lines.slice(start, start + 5); }

function collapse(line) {
  // Collapsed whitespace, as a model that retypes code sometimes writes it: no indentation and
  // no spaces around the token delimiters ( ) [ ] { } : < > = (the regex strategy's tokens).
  return line.trim().replace(/\s*([()[\]{}:<>=])\s*/g, '$1');
}

function unifiedDiff(path, a, b, changed) {
  // Hunks with 3 lines of context around the changed line indices (same line count both sides).
  const out = [`--- a/${path}`, `+++ b/${path}`];
  const C = 3;
  let i = 0;
  while (i < changed.length) {
    let j = i;
    while (j + 1 < changed.length && changed[j + 1] - changed[j] <= 2 * C) j++;
    const s = Math.max(0, changed[i] - C), e = Math.min(a.length, changed[j] + C + 1);
    const body = [];
    const set = new Set(changed.slice(i, j + 1));
    for (let k = s; k < e; k++) {
      if (set.has(k)) { body.push('-' + a[k]); body.push('+' + b[k]); } else body.push(' ' + a[k]);
    }
    out.push(`@@ -${s + 1},${e - s} +${s + 1},${e - s} @@`);
    out.push(...body);
    i = j + 1;
  }
  return out.join('\n') + '\n';
}

function codexPatch(path, lines, sites, edit) {
  // One `@@` hunk per site: 3 lines of context, the changed header line, 3 lines of context.
  const out = ['*** Begin Patch', `*** Update File: ${path}`];
  for (const s of sites) {
    out.push('@@');
    for (let k = Math.max(0, s - 3); k < s; k++) out.push(' ' + lines[k]);
    out.push('-' + lines[s]);
    out.push('+' + edit(lines[s]));
    for (let k = s + 1; k <= s + 3 && k < lines.length; k++) out.push(' ' + lines[k]);
  }
  out.push('*** End Patch');
  return out.join('\n') + '\n';
}

function spread(funcStarts, n, from, to) {
  // n function starts evenly spread over [from, to) of the function list, distinct, ascending.
  const a = Math.floor(funcStarts.length * from), b = Math.floor(funcStarts.length * to);
  const count = Math.min(n, Math.max(1, Math.floor((b - a) / 2)));
  const out = [];
  for (let k = 0; k < count; k++) out.push(funcStarts[a + Math.floor(((b - a) * k) / count)]);
  return out;
}

const PATH = 'file.js';
const manifest = { seed: SEED, path: PATH, sizes: {} };

for (const size of SIZES) {
  const r = rng(SEED * 1000003 + BYTES[size]);
  const { lines, funcStarts } = genFile(r, BYTES[size]);
  const text = lines.join('\n');                  // last element is '' -> ends with one '\n'
  const dir = join(OUT, size);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, PATH), text);
  const W = {};
  const put = (name, o) => {
    W[name] = { format: o.format, profile: o.profile, what: o.what, bytes_in: 0 };
    writeFileSync(join(dir, `${name}.format`), o.format + '\n');
    writeFileSync(join(dir, `${name}.profile`), o.profile + '\n');
    // Text formats name their files inside the text (or target the only file): no edit.path.
    const edit = ['replace', 'whole_file'].includes(o.format) ? { path: PATH } : {};
    for (const k of ['old', 'new', 'text', 'content']) {
      if (o[k] === undefined) continue;
      writeFileSync(join(dir, `${name}.${k}`), o[k]);
      edit[{ old: 'old_string', new: 'new_string', text: 'text', content: 'content' }[k]] = o[k];
    }
    writeFileSync(join(dir, `${name}.expect`), o.expect);
    // Diffs are not truncated (a 10 MB W4 diff is far past the 64 KiB default).
    const req = { format: o.format, profile: o.profile, files: { [PATH]: text }, edit, options: { diff_max_bytes: 1 << 30 } };
    writeFileSync(join(dir, `${name}.req.json`), JSON.stringify(req));
    W[name].bytes_in = Buffer.byteLength(text) + ['old', 'new', 'text', 'content'].reduce((s, k) => s + (o[k] ? Buffer.byteLength(o[k]) : 0), 0);
    W[name].bytes_out = Buffer.byteLength(o.expect);
  };

  // W1-W3: the block at ~95 %.
  const bStart = funcStarts[Math.floor(funcStarts.length * 0.95)];
  const block = blockAt(lines, bStart);
  const newBlock = [block[0], block[1].replace('const limit', 'const maxLimit').replace(/;$/, ' + 1;'), '  const seen = new Set();', ...block.slice(2)];
  const joinL = (ls) => ls.join('\n');
  const expectBlock = lines.slice(0, bStart).concat(newBlock, lines.slice(bStart + 5)).join('\n');
  put('W1', { format: 'replace', profile: 'editcore', what: 'exact replace of a unique 5-line block near the end', old: joinL(block), new: joinL(newBlock), expect: expectBlock });
  const shift = (ls) => ls.map((l) => (l ? '    ' + l : l));
  put('W2', { format: 'replace', profile: 'editcore', what: 'the same block with wrong indentation (+4 spaces)', old: joinL(shift(block)), new: joinL(shift(newBlock)), expect: expectBlock });
  put('W3', { format: 'replace', profile: 'editcore', what: 'the block with collapsed whitespace (regex strategy)', old: joinL(block.map(collapse)), new: joinL(newBlock), expect: expectBlock });

  // W4: 1 % of lines changed, scattered (non-empty lines; a trailing comment appended).
  const after = lines.slice();
  const nChange = Math.max(1, Math.floor((lines.length - 1) * 0.01));
  const chosen = new Set();
  while (chosen.size < nChange) {
    const k = 3 + r.int(lines.length - 4);
    if (lines[k] !== '') chosen.add(k);
  }
  const changed = [...chosen].sort((x, y) => x - y);
  for (const k of changed) after[k] = lines[k] + ` // rev ${k}`;
  const afterText = after.join('\n');
  writeFileSync(join(dir, 'after.js'), afterText);
  put('W4a', { format: 'unified_diff', profile: 'editcore', what: 'apply a unified diff, 1 % of lines changed, scattered', text: unifiedDiff(PATH, lines, after, changed), expect: afterText });
  put('W4b', { format: 'whole_file', profile: 'editcore', what: 'compute the unified diff of before/after (1 % of lines changed)', content: afterText, expect: afterText });

  // W5: a 50-hunk Codex patch (fewer where the file has too few functions).
  const sites5 = spread(funcStarts, 50, 0.02, 0.98);
  const ed5 = (l) => l.replace('(', 'V2(');
  const exp5 = lines.slice();
  for (const s of sites5) exp5[s] = ed5(lines[s]);
  const patch = codexPatch(PATH, lines, sites5, ed5);
  writeFileSync(join(dir, 'codex.patch'), patch);
  put('W5', { format: 'codex_patch', profile: 'codex', what: `a ${sites5.length}-hunk Codex patch`, text: patch, expect: exp5.join('\n') });

  // W6: a 20-block SEARCH/REPLACE reply (Cline markers, as in replace_in_file), editcore profile.
  const sites6 = spread(funcStarts, 20, 0.01, 0.99);
  const exp6 = lines.slice();
  const blocks = [];
  for (const s of sites6) {
    const old = lines.slice(s, s + 3);
    const neu = [old[0], old[1], '  const started = Date.now();', old[2]];
    blocks.push(['------- SEARCH', ...old, '=======', ...neu, '+++++++ REPLACE'].join('\n'));
    exp6[s + 2] = '  const started = Date.now();\n' + lines[s + 2];
  }
  const reply = blocks.join('\n') + '\n';   // a Cline replace_in_file `diff` argument
  put('W6', { format: 'search_replace', profile: 'editcore', what: `a ${sites6.length}-block SEARCH/REPLACE reply`, text: reply, expect: exp6.join('\n') });
  // W6 blocks for peers that take one old/new pair at a time (Gemini's calculateReplacement x N).
  writeFileSync(join(dir, 'W6.pairs.json'), JSON.stringify(sites6.map((s) => {
    const old = lines.slice(s, s + 3);
    return { old: old.join('\n'), new: [old[0], old[1], '  const started = Date.now();', old[2]].join('\n') };
  })));

  manifest.sizes[size] = { bytes: Buffer.byteLength(text), lines: lines.length - 1, changed_w4: changed.length, workloads: W };
}
writeFileSync(join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`gen: ${SIZES.join(', ')} -> ${OUT}`);
