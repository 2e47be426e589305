// Mutation probes of the lazy merge over real originals (issue 30): a snippet made from a real file by
// hiding 1-3 bracket-balanced regions behind markers (messy wordings and indentation half the time,
// a fragment with markers at both ends 40 % of the time) and making 1-2 clear edits elsewhere (a
// number or a string changed, a statement inserted, split or deleted, a new function), and, with
// --notes, a model's note over code the snippet writes out (it stands for nothing: the right merge
// drops it). The expected file is the original with the edits; a success that differs is WRONG.
// Usage: node bench/lazy_probes/mutations.mjs BIN --sets A.jsonl[,B.jsonl] [--n 400] [--seed 1]
//        [--notes] [--out DIR]   (the sets: any lazy case files, e.g. what bench/lazy-wild/build.mjs writes)
// Prints the counts, per edit kind [right, declined, wrong], and each wrong case's file in DIR.
import {spawnSync} from 'child_process';
import {readFileSync, writeFileSync, mkdirSync} from 'fs';

const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const bin = argv[0];
const N = +opt('--n', 400);
let seed = +opt('--seed', 1);
const NOTES = argv.includes('--notes');
const OUT = opt('--out', 'tmp/mutations');
const SETS = opt('--sets', '');
if (!bin || !SETS) { console.error('usage: mutations.mjs BIN --sets A.jsonl[,B.jsonl] [--n N] [--seed S] [--notes] [--out DIR]'); process.exit(2); }
const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
const pick = (n) => Math.floor(rnd() * n);

// Originals: every distinct code file of 40 lines or more (no CRLF, under 60 KB).
const originals = [];
for (const f of SETS.split(',')) {
  for (const l of readFileSync(f, 'utf8').split('\n')) {
    if (!l) continue;
    const d = JSON.parse(l);
    const p = Object.keys(d.files)[0];
    if (!/\.(tsx|ts|jsx|js|py|rs|cc|scala|lua)$/.test(p)) continue;
    const t = d.files[p];
    if (t.includes('\r') || t.length > 60000 || t.split('\n').length < 40) continue;
    if (!originals.some((o) => o.text === t)) originals.push({path: p, text: t});
  }
}
if (!originals.length) { console.error('no original of 40 lines or more in the sets'); process.exit(2); }

const ind = (l) => l.match(/^\s*/)[0];
// A whole statement on its line (not a comment, not a line that opens or closes a bracket's block).
const isStmt = (l) => (/;\s*$/.test(l) || (/^\s+[A-Za-z_][\w.]*(\(.*\)|\s*=\s*[^=].*)$/.test(l) && !/[{(\[:,]\s*$/.test(l))) &&
  !/^\s*(\/\/|\*|\/\*)/.test(l) && !/^\s*[}\])]/.test(l) && !/[{([]\s*;?\s*$/.test(l) && l.trim().length > 8;
const balanced = (L, x, y) => {
  let d = 0;
  for (const l of L.slice(x, y)) for (const c of l.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, '')) {
    if ('{(['.includes(c)) d++;
    if ('})]'.includes(c) && --d < 0) return false;
  }
  return d === 0;
};
const WORDS = ['... existing code ...', '... rest of the code ...', '... keep existing code', 'Rest of the component remains the same',
  '... (unchanged)', '...', 'Other fields remain unchanged', '... previous code ...', 'resto del código igual'];
// Notes a model writes over code it then writes out in full (the wild set's wrong merges).
const NOTE_WORDS = ['Rest of your component remains the same', '... (validation stays the same)', '... keep existing code (handlers)',
  'Other fields remain unchanged', '(same as your original - keep it as is)', '--- Helper functions remain the same ---',
  'Kept your existing UI', '... (a lógica continua igual) ...'];

const counts = {right: 0, ws: 0, declined: 0, wrong: 0};
const tally = {};
const wrongs = [];
mkdirSync(OUT, {recursive: true});
for (let n = 0, attempts = 0; n < N && attempts < 50 * N; n++, attempts++) {
  const o = originals[pick(originals.length)];
  const L = o.text.replace(/\n$/, '').split('\n');
  const py = o.path.endsWith('.py'), lua = o.path.endsWith('.lua'), jsxFile = /\.(tsx|jsx)$/.test(o.path);
  const comment = (i, w) => {
    const jsx = jsxFile && /^\s*[<{]/.test(L[i]) && /^\s*[<{]/.test(L[i - 1] || '');
    return py ? '# ' + w : lua ? '-- ' + w : jsx ? '{/* ' + w + ' */}' : '// ' + w;
  };
  // Marker regions: disjoint, balanced, starting on a line with text.
  const R = [];
  const nreg = 1 + pick(3);
  for (let t = 0; t < 40 && R.length < nreg; t++) {
    const len = 2 + pick(30), a = 1 + pick(Math.max(1, L.length - len - 2)), b = Math.min(L.length, a + len);
    if (L.slice(a, b).every((l) => !l.trim()) || !balanced(L, a, b) || !L[a].trim()) continue;
    if (R.some(([x, y]) => a <= y + 3 && b >= x - 3)) continue;
    R.push([a, b]);
  }
  if (!R.length) { n--; continue; }
  R.sort((x, y) => x[0] - y[0]);
  const frag = rnd() < 0.4;
  let cutA = 0, cutB = L.length;
  if (frag) {
    cutA = Math.max(0, R[0][0] - 3 - pick(15));
    cutB = Math.min(L.length, R[R.length - 1][1] + 3 + pick(15));
    if (cutA > 0 && !L[cutA].trim()) cutA++;
  }
  const adj = rnd() < 0.5;
  const inReg = (i, del) => R.some(([x, y]) => (adj && !del ? i >= x && i < y : i >= x - 1 && i <= y)) || i <= cutA || i >= cutB - 1;
  const messy = rnd() < 0.6, noLead = rnd() < 0.3;
  const mkFor = (i) => {
    const w = messy ? WORDS[pick(WORDS.length)] : '... existing code ...';
    let id = ind(L[i]);
    if (messy && rnd() < 0.3) id = [' ', '', '    ', id + '  '][pick(4)];
    return id + comment(i, w);
  };
  // Edits away from the regions.
  const kinds = [], ops = [], used = new Set();
  const k = 1 + pick(2);
  let ok = true;
  for (let e = 0, spins = 0; e < k; e++) {
    if (++spins > 200) { ok = false; break; }
    let i, tries = 0;
    do { i = 3 + pick(L.length - 6); tries++; } while (tries < 50 && (inReg(i, false) || used.has(i) || used.has(i - 1) || used.has(i + 1) || !L[i].trim()));
    if (tries >= 50) { ok = false; break; }
    used.add(i);
    const kind = [...['num', 'str', 'insert', 'delete', 'split', 'block'], ...(NOTES ? ['note', 'note'] : [])][pick(NOTES ? 8 : 6)];
    const line = L[i];
    const probe = (e2) => lua ? `print("probe-${n}-${e2}")` : /\.rs$/.test(o.path) ? `println!("probe-${n}-${e2}");` : /\.cc$/.test(o.path) ? `puts("probe-${n}-${e2}");`
      : /\.scala$/.test(o.path) ? `println("probe-${n}-${e2}")` : `console.log("probe-${n}-${e2}");`;
    if (kind === 'num' && /\b\d+\b/.test(line) && !/^\s*(import|from)/.test(line)) { ops.push([i, 'rep', line.replace(/\b(\d+)\b/, (m) => String(+m + 7))]); kinds.push(kind); }
    else if (kind === 'str' && /(["'])([A-Za-z][^"']{2,})\1/.test(line) && !/^\s*(import|from)|require\(/.test(line)) { ops.push([i, 'rep', line.replace(/(["'])([A-Za-z][^"']{2,})\1/, (m, q, s) => q + s + ' v2' + q)]); kinds.push(kind); }
    else if (kind === 'insert' && !py && (isStmt(line) || /\{\s*$/.test(line))) { ops.push([i, 'ins', (/\{\s*$/.test(line) ? ind(line) + '  ' : ind(line)) + probe(e)]); kinds.push(kind); }
    else if (kind === 'insert' && py && /:\s*$/.test(line)) { ops.push([i, 'ins', ind(line) + '    ' + `print("probe-${n}-${e}")`]); kinds.push(kind); }
    else if (kind === 'split' && !py && isStmt(line)) { ops.push([i, 'rep', line + '\n' + ind(line) + `track("probe-${n}-${e}");`]); kinds.push(kind); }
    else if (kind === 'block' && !py && /^[}]\)?;?\s*$/.test(line) && (i + 1 >= L.length || !L[i + 1].trim())) { ops.push([i, 'ins', `\nexport function probe${n}x${e}(v) {\n  if (!v) return null;\n  return String(v).trim();\n}`]); kinds.push(kind); }
    else if (kind === 'block' && py && /^\s/.test(line) && /^(def|class) /.test(L[i + 1] || '')) { ops.push([i, 'ins', `\ndef probe${n}x${e}(v):\n    return str(v).strip()\n`]); kinds.push(kind); }
    else if (kind === 'delete' && !inReg(i, true) && isStmt(line) && !/^\s*(export\s+)?(const|let|var|function|def|class|import|type|interface)\b/.test(line) && !used.has(i - 2) && !used.has(i + 2)) { ops.push([i, 'del']); kinds.push(kind); }
    // A note over a line the snippet writes out (only in the snippet; the expected file is without it).
    else if (kind === 'note' && !inReg(i, true) && !/^\s*[}\])<\/]/.test(line) && !/^\s*(\/\/|#|--|\*|\/\*|\{\/\*)/.test(L[i - 1] || '')) { ops.push([i, 'note', ind(line) + comment(i, NOTE_WORDS[pick(NOTE_WORDS.length)])]); kinds.push(kind); }
    else e--, used.delete(i);
  }
  if (!ok || !ops.length) { n--; continue; }
  const opAt = new Map(ops.map((x) => [x[0], x]));
  const E = [], S = [];
  if (cutA > 0 && !noLead) S.push(mkFor(cutA));
  for (let i = 0; i < L.length; i++) {
    const reg = R.find(([x, y]) => i >= x && i < y);
    const op = opAt.get(i);
    const line = op && op[1] === 'rep' ? op[2] : L[i];
    if (!(op && op[1] === 'del')) E.push(line);
    if (op && op[1] === 'ins') E.push(op[2]);
    if (i < cutA || i >= cutB) continue;
    if (reg) { if (i === reg[0]) S.push(mkFor(i)); continue; }
    if (op && op[1] === 'note') S.push(op[2]);
    if (!(op && op[1] === 'del')) S.push(line);
    if (op && op[1] === 'ins') S.push(op[2]);
  }
  if (cutB < L.length) S.push(mkFor(cutB));
  const snippet = S.join('\n') + '\n';
  const expected = E.join('\n') + (o.text.endsWith('\n') ? '\n' : '');
  const req = {format: 'lazy', files: {[o.path]: o.text}, edit: {path: o.path, snippet}, options: {}};
  const r = JSON.parse(spawnSync(bin, ['json'], {input: JSON.stringify(req), maxBuffer: 1 << 26}).stdout);
  for (const x of kinds) tally[x] = tally[x] || [0, 0, 0];
  if (r.status !== 'success') { counts.declined++; for (const x of kinds) tally[x][1]++; continue; }
  const got = r.data.files[o.path].content;
  if (got === expected) { counts.right++; for (const x of kinds) tally[x][0]++; continue; }
  // Whitespace-only: the same lines but for spaces at their ends and indentation; a blank line
  // added or lost is wrong (issue 30's strict reading).
  const lines = (t) => t.split('\n').map((l) => l.trim()).join('\n');
  if (lines(got) === lines(expected)) { counts.ws++; for (const x of kinds) tally[x][0]++; continue; }
  counts.wrong++;
  for (const x of kinds) tally[x][2]++;
  const f = `${OUT}/wrong-${n}.json`;
  writeFileSync(f, JSON.stringify({req, expected, got, kinds, regions: R, messy, noLead, frag}));
  wrongs.push(`${f} ${kinds.join(',')}`);
}
console.log(counts, JSON.stringify(tally));
if (wrongs.length) console.log(wrongs.join('\n'));
