#!/usr/bin/env node
// Threshold sweep: why each numeric threshold of the lazy merge (core/src/lazy/) and of the
// matching ladder (core/src/match/) stands where it does. For every threshold in THRESHOLDS below
// and every value tried, the repository's tracked files are copied once into a scratch directory
// (the core in this checkout is never altered), the one source line holding the threshold is
// patched there (the exact text must be found, as often as declared, or the sweep stops), the
// native CLI and the lazy/match unit tests are rebuilt incrementally (only the patched file
// recompiles), and the yardsticks run against that build:
//   real     node bench/lazy_real.mjs         right / ws-only / declined / wrong (wrong includes a
//                                             reviewed expectation-wrong case whose output changed)
//   variants node bench/lazy_variants.mjs     same / lost / gained / different success
//   conf     node tests/conformance/run.mjs --builds native   failures
//   unit     lazy_test, lazy_verify_test, lazy_owners_test, match_test   failures
// The value in force is marked `*`; its row is the unpatched build, measured once. Thresholds of
// the ladder alone (ladderOnly) skip the variants (the lazy merge does not use the ladder).
//
//   node bench/threshold_sweep.mjs [--check] [--only id,id] [--values 'id=v,v id=v'] [--jobs 2]
//        [--scratch DIR] [--no-variants] [--out bench/out/thresholds.json]
// Prints one Markdown table row per value, then what moved against the unpatched build (cases,
// variants, conformance vectors, unit checks by name), and writes every number to --out; ACCURACY.md
// ("Thresholds and why they stand where they do") is written from it, with the values that turn a
// rule off run through --values. --check only verifies that every patch still applies (run it after
// editing a line that holds a threshold). About 30 s a value on two shared cores; the whole table
// about 45 min. Needs EDITCORE_SHARED (the lazy set) like the benches.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, existsSync, symlinkSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
// --values 'id=v,v id=v': those values instead of the table's, for those thresholds only (e.g. a
// value that turns a rule off, to find which tests exercise it).
const VALUES = Object.fromEntries(opt('--values', '').split(/\s+/).filter(Boolean).map((x) => {
  const [id, vs] = x.split('=');
  return [id, vs.split(',').map(Number)];
}));
const ONLY = opt('--only', '') ? new Set(opt('--only', '').split(',')) : Object.keys(VALUES).length ? new Set(Object.keys(VALUES)) : null;
const SCRATCH = resolve(opt('--scratch', '/tmp/editcore-threshold-sweep'));
const JOBS = opt('--jobs', '2');
const VARIANTS = !argv.includes('--no-variants');
const OUT = resolve(opt('--out', join(root, 'bench/out/thresholds.json')));

// id, file, what it decides, the exact source text holding the value (`find`, found `count`
// times), `put(v)` the same text with value v, the values tried and the one in force.
const L = 'core/src/lazy/', M = 'core/src/match/';
const THRESHOLDS = [
  { id: 'close_edit.pct', file: L + 'anchor.c', what: 'counterpart pass: among several same-head file lines, the one "edited in a few characters" (shared start+end >= P % of the longer line)',
    find: '(pre + suf) * 5 >= max * 4', put: (v) => `(pre + suf) * 100 >= max * ${v}`, values: [60, 70, 80, 90, 100], now: 80 },
  { id: 'close_edit.slack', file: L + 'anchor.c', what: 'close_edit: characters outside the shared start+end at most N',
    find: 'pre + suf + 8 >= max', put: (v) => `pre + suf + ${v} >= max`, values: [4, 8, 16, 100000], now: 8 },
  { id: 'close_edit.minlen', file: L + 'anchor.c', what: 'close_edit: both lines (trimmed) at least N characters',
    find: 'if (ta.len < 12 || tb.len < 12 || ec_str_eq(ta, tb)) return false;', put: (v) => `if (ta.len < ${v} || tb.len < ${v} || ec_str_eq(ta, tb)) return false;`, values: [6, 12, 20], now: 12 },
  { id: 'mostly_same.pct', file: L + 'merge.c', what: 'expanded_statement: a one-line call rewritten as a block replaces the file line (shared start+end >= P % of the longer line)',
    find: 'return (pre + suf) * 5 >= max * 3;', put: (v) => `return (pre + suf) * 100 >= max * ${v};`, values: [40, 50, 60, 70, 80], now: 60 },
  { id: 'mostly_same.minlen', file: L + 'merge.c', what: 'mostly_same: both lines (trimmed) at least N characters',
    find: 'if (ta.len < 16 || tb.len < 16) return false;', put: (v) => `if (ta.len < ${v} || tb.len < ${v}) return false;`, values: [8, 16, 24], now: 16 },
  { id: 'marker.dots_words', file: L + 'marker.c', what: 'a comment "... any words ..." between two ellipses is a marker when it has at most N words',
    find: 'word_count(body) <= 8 && ends_with_dots(body)', put: (v) => `word_count(body) <= ${v} && ends_with_dots(body)`, values: [0, 4, 6, 8, 10, 12], now: 8 },
  { id: 'marker.plain_words', file: L + 'marker.c', what: 'a comment without dots is a marker only with at most N words (and a marker wording)',
    find: 'if (!dots && word_count(body) > 7) return false;', put: (v) => `if (!dots && word_count(body) > ${v}) return false;`, values: [5, 7, 9], now: 7 },
  { id: 'marker.max_words', file: L + 'marker.c', what: 'no comment of more than N words is a marker',
    find: '  if (word_count(body) > 12) return false;\n  /* Text between', put: (v) => `  if (word_count(body) > ${v}) return false;\n  /* Text between`, values: [8, 12, 16], now: 12 },
  { id: 'similar.pct', file: L + 'heads.c', what: 'ec_lz_similar (loose): a line is an edited version of another when shared start+end >= P % of the longer line',
    find: '(pre + suf) * 5 >= max * 3', put: (v) => `(pre + suf) * 100 >= max * ${v}`, values: [40, 50, 60, 70, 80], now: 60 },
  { id: 'similar.min', file: L + 'heads.c', what: 'ec_lz_similar (loose): shared start+end at least N characters',
    find: 'pre + suf >= 6 &&', put: (v) => `pre + suf >= ${v} &&`, values: [3, 6, 10], now: 6 },
  { id: 'edited.minlen', file: L + 'heads.c', what: 'ec_lz_edited: the loose similarity (shared start+end) is taken only for lines of N characters or more',
    find: 'return ta.len >= 16 && tb.len >= 16 && ec_lz_similar(a, b, true);', put: (v) => `return ta.len >= ${v} && tb.len >= ${v} && ec_lz_similar(a, b, true);`, values: [8, 12, 16, 24, 32], now: 16 },
  { id: 'deletion.slack', files: [[L + 'merge.c', 2], [L + 'rewrite.c', 1], [L + 'verify.c', 1]], what: 'deletion bound: a segment may drop at most 2 x written + N file lines between two of its lines (merge, rewrite, self-check alike)',
    find: '2 * written + 10', put: (v) => `2 * written + ${v}`, values: [0, 5, 10, 20, 100000], now: 10 },
  { id: 'deletion.factor', files: [[L + 'merge.c', 2], [L + 'rewrite.c', 1], [L + 'verify.c', 1]], what: 'deletion bound: F x written + 10',
    find: '2 * written + 10', put: (v) => `${v} * written + 10`, values: [1, 2, 3], now: 2 },
  { id: 'rename.share', file: L + 'rewrite.c', what: 'a renamed block is the file\'s block when it shares at least 1/D of its distinctive lines',
    find: 'return shared * 3 >= total;', put: (v) => `return shared * ${v} >= total;`, values: [2, 3, 4], now: 3 },
  { id: 'rename.min_lines', file: L + 'lazy.h', what: 'a renamed block must share at least N distinctive lines with the file\'s block',
    find: '#define EC_LZ_RENAME_MIN_LINES 3', put: (v) => `#define EC_LZ_RENAME_MIN_LINES ${v}`, values: [2, 3, 4], now: 3 },
  { id: 'distinct.len', file: L + 'lazy.h', what: 'a line is distinctive (counts toward a rename, toward a kept block) at N characters or more',
    find: '#define EC_LZ_DISTINCT_LEN 12', put: (v) => `#define EC_LZ_DISTINCT_LEN ${v}`, values: [8, 12, 16], now: 12 },
  { id: 'moved.len', file: L + 'anchor.c', what: 'a unique line found in another block declines the segment (moved or rewritten code?) when N characters or more; shorter, it is let go as a coincidence',
    find: 'if (t.len >= 24 && !others) {', put: (v) => `if (t.len >= ${v} && !others) {`, values: [12, 16, 24, 32, 100000], now: 24 },
  { id: 'moved.others_len', file: L + 'anchor.c', what: 'moved.len: another anchor of the segment counts when N characters or more',
    find: 'ec_lz_trim(S->line[q]).len >= 12;', put: (v) => `ec_lz_trim(S->line[q]).len >= ${v};`, values: [6, 12, 20], now: 12 },
  { id: 'run.strong', file: L + 'anchor.c', what: 'run pass: a run of matching lines places a segment with at least N strong lines (or covering it whole)',
    find: 'bool good = best_strong >= 2 || covered == nonblank;', put: (v) => `bool good = best_strong >= ${v} || covered == nonblank;`, values: [1, 2, 3, 4], now: 2 },
  { id: 'run.range', file: L + 'anchor.c', what: 'run pass: one strong line is enough inside a range closed by anchors of at most N file lines',
    find: 'hi - lo <= 200)', put: (v) => `hi - lo <= ${v})`, values: [0, 100, 200, 400], now: 200 },
  { id: 'run.line_len', file: L + 'anchor.c', what: 'run pass: that one strong line must be N characters or more',
    find: 'ec_lz_trim(S->line[q]).len >= 10) good = true;', put: (v) => `ec_lz_trim(S->line[q]).len >= ${v}) good = true;`, values: [5, 10, 16], now: 10 },
  { id: 'opener.range', file: L + 'anchor.c', what: 'edited_openers: an edited opener is looked for between anchors at most N file lines apart',
    find: 'if (hi < 0 || hi - lo > 64) continue;', put: (v) => `if (hi < 0 || hi - lo > ${v}) continue;`, values: [16, 64, 256], now: 64 },
  { id: 'section.shared', file: L + 'verify.c', what: 'self-check new_section: two section titles are different sections when they share fewer than N leading/trailing characters',
    find: 'return shared_words(s3[1], f3[1]) < 4;', put: (v) => `return shared_words(s3[1], f3[1]) < ${v};`, values: [2, 4, 6], now: 4 },
  { id: 'verify.opener_len', file: L + 'verify.c', what: 'self-check: a block opener written new while the file\'s only copy is kept by a marker is refused (moved or copied code) when N characters or more',
    find: '.len < 24 || !opens_block(S->line[A[a]])) continue;', put: (v) => `.len < ${v} || !opens_block(S->line[A[a]])) continue;`, values: [12, 16, 24, 32, 100000], now: 24 },
  { id: 'verify.credible_len', file: L + 'verify.c', what: 'self-check: a file line matched alone (no run) is credible when it occurs once and has N characters or more',
    find: 'if (!run && ec_lz_trim(F->line[B[q]]).len >= 24)', put: (v) => `if (!run && ec_lz_trim(F->line[B[q]]).len >= ${v})`, values: [12, 16, 24, 32, 100000], now: 24 },
  { id: 'verify.telling', file: L + 'verify.c', what: 'self-check: a weak line (punctuation, a keyword) tells where it is at N characters or more',
    find: 'ec_lz_trim(F->line[i]).len >= 6);', put: (v) => `ec_lz_trim(F->line[i]).len >= ${v});`, values: [3, 6, 10, 100000], now: 6 },
  { id: 'edge.max', file: L + 'merge.c', what: 'leading/trailing context: runs of up to N lines equal to the file\'s next to an anchor are matched',
    find: '#define EDGE_MAX 16', put: (v) => `#define EDGE_MAX ${v}`, values: [2, 4, 8, 16, 32], now: 16 },
  { id: 'edge.reach', files: [[L + 'merge.c', 2]], what: 'leading/trailing context may sit up to N file lines off the anchor',
    find: 'k < 8 ? k : 8;', put: (v) => `k < ${v} ? k : ${v};`, values: [1, 2, 4, 8, 16], now: 8 },
  { id: 'head.minlen', file: L + 'heads.c', what: 'a line\'s head (what it assigns, calls or defines: counterparts share it) counts at N characters or more',
    find: 'if (!alnum || h.len < 3) return ec_str_make(NULL, 0);', put: (v) => `if (!alnum || h.len < ${v}) return ec_str_make(NULL, 0);`, values: [1, 2, 3, 4, 6], now: 3 },
  { id: 'escape.minlen', file: L + 'snippet.c', what: 'a snippet line with literal `\\n` escapes is split into lines when its part before the first one is a whole file line of N characters or more',
    find: '  if (t.len < 4) return false;\n  const char *p = file.ptr', put: (v) => `  if (t.len < ${v}) return false;\n  const char *p = file.ptr`, values: [1, 2, 4, 8, 16], now: 4 },
  { id: 'anchor.line_min', file: M + 'anchor_match.c', what: 'ladder strategy `anchor`: every middle line at least N per mille similar',
    find: '#define LINE_MIN 500', put: (v) => `#define LINE_MIN ${v}`, values: [300, 500, 700], now: 500, ladderOnly: true },
  { id: 'anchor.mean_min', file: M + 'anchor_match.c', what: 'ladder strategy `anchor`: middle lines on average at least N per mille similar',
    find: '#define MEAN_MIN 800', put: (v) => `#define MEAN_MIN ${v}`, values: [600, 800, 900], now: 800, ladderOnly: true },
];

const sh = (cmd, args, o = {}) => spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...o });

function prepare() {
  const src = join(SCRATCH, 'src'), build = join(SCRATCH, 'build');
  mkdirSync(src, { recursive: true });
  // The tracked files as they are in this checkout (uncommitted edits included).
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root }).toString().split('\0').filter((f) => f && existsSync(join(root, f)));
  // -m: the copies get the current time, so a file a killed or earlier sweep left patched is
  // rebuilt (kept times would leave its newer object file in the build, stale).
  const tar = sh('bash', ['-c', `tar --null -T - -cf - | tar -xmf - -C '${src}'`], { cwd: root, input: files.join('\0') });
  if (tar.status) throw new Error(`copy failed: ${tar.stderr}`);
  if (!existsSync(join(src, 'third_party'))) symlinkSync(join(root, 'third_party'), join(src, 'third_party'));
  if (!existsSync(join(build, 'CMakeCache.txt'))) {
    const c = sh('cmake', ['-S', src, '-B', build, '-DCMAKE_BUILD_TYPE=Release', '-DEDITCORE_WERROR=ON']);
    if (c.status) throw new Error(`configure failed: ${c.stderr}`);
  }
  return { src, build };
}

const UNITS = ['lazy_test', 'lazy_verify_test', 'lazy_owners_test', 'match_test'];
function buildIt(build) {
  const b = sh('cmake', ['--build', build, '-j', JOBS, '--target', 'editcore', ...UNITS]);
  if (b.status) return `build failed: ${(b.stdout + b.stderr).split('\n').filter((l) => /error/.test(l)).slice(0, 3).join(' | ')}`;
  return null;
}

function measure(build, variants) {
  const cli = join(build, 'editcore'), r = {};
  const real = sh('node', [join(root, 'bench/lazy_real.mjs'), '--native', cli, '--show', 'ws,wrong,declined']).stdout;
  let m = real.match(/(\d+) cases: (\d+) right, (\d+) ws-only, (\d+) declined, (\d+) wrong, (\d+) whose/);
  r.real = m ? { right: +m[2], ws: +m[3], declined: +m[4], wrong: +m[5], expWrong: +m[6] } : { error: real.slice(-300) };
  // Each case's verdict (a case not listed is right or a reviewed expectation-wrong), to name what moved.
  r.cases = {};
  for (const l of real.split('\n')) {
    const c = l.match(/^(ws-only|wrong|declined)\s+(?:checked|flagged)\s+(\S+)/);
    if (c) r.cases[c[2]] = c[1];
  }
  if (VARIANTS && variants) {
    const v = sh('node', [join(root, 'bench/lazy_variants.mjs'), '--native', cli, '--show', 'different,lost,gained']).stdout;
    r.variantCases = v.split('\n').map((l) => l.match(/^(different|lost|gained)\s+(\S+)\s+(\S+)/)).filter(Boolean).map((c) => `${c[1]} ${c[2]} ${c[3]}`);
    m = v.match(/(\d+) variants: (\d+) same, (\d+) same-ws, (\d+) lost.*?, (\d+) declined as the base, (\d+) gained, (\d+) different/);
    r.variants = m ? { n: +m[1], same: +m[2], sameWs: +m[3], lost: +m[4], declined: +m[5], gained: +m[6], different: +m[7] } : { error: v.slice(-300) };
  }
  const c = sh('node', [join(root, 'tests/conformance/run.mjs'), '--builds', 'native', '--native', cli]).stdout;
  m = c.match(/conformance: (\d+) passed, (\d+) failed/);
  r.conf = m ? { passed: +m[1], failed: +m[2] } : { error: c.slice(-300) };
  r.confFailed = [...c.matchAll(/^FAIL \[native\] (.+?) \(([^)]*)\)$/gm)].map((f) => `${f[2]}:${f[1]}`);
  r.unit = 0;
  r.unitFailed = [];
  for (const u of UNITS) {
    const t = sh(join(build, 'tests', u), [], { cwd: join(build, 'tests') });
    const k = (t.stdout || '').match(/(\d+) passed, (\d+) failed/g);
    const last = k && k[k.length - 1].match(/(\d+) passed, (\d+) failed/);
    r.unit += last ? +last[2] : 1; // no summary line (a crash): one failure
    if (t.status && last && !+last[2]) r.unit += 1;
    for (const l of ((t.stdout || '') + (t.stderr || '')).split('\n')) if (/^FAIL/.test(l)) r.unitFailed.push(`${u}: ${l.trim().slice(0, 100)}`);
  }
  return r;
}

// What moved against the unpatched build: lazy cases whose verdict changed, variants newly
// different, lost or gained, conformance failures.
function moved(r) {
  const out = [];
  const ids = new Set([...Object.keys(base.cases || {}), ...Object.keys(r.cases || {})]);
  for (const id of ids) {
    const a = base.cases[id] || 'right', b = r.cases[id] || 'right';
    if (a !== b) out.push(`${id} ${a}->${b}`);
  }
  if (r.variantCases && base.variantCases) {
    const was = new Set(base.variantCases);
    const now = r.variantCases.filter((x) => !was.has(x));
    const gone = base.variantCases.filter((x) => !new Set(r.variantCases).has(x));
    if (now.length) out.push(`variants newly ${now.length}: ${now.slice(0, 6).join('; ')}${now.length > 6 ? '; ...' : ''}`);
    if (gone.length) out.push(`variants no longer ${gone.length}: ${gone.slice(0, 6).join('; ')}${gone.length > 6 ? '; ...' : ''}`);
  }
  if (r.conf && r.conf.failed) out.push(`${r.conf.failed} conformance failed (${(r.confFailed || []).slice(0, 4).join(', ')})`);
  if (r.unit) out.push(`${r.unit} unit failed (${r.unitFailed.slice(0, 3).join('; ')})`);
  return out.length ? out.join(', ') : 'nothing moved';
}
const details = [];

function cell(r) {
  if (r.buildError) return `| ${r.buildError} | | | |`;
  const a = r.real, v = r.variants;
  const real = a.error ? 'error' : `${a.right} / ${a.ws} / ${a.declined} / **${a.wrong}**`;
  const vars = !v ? '—' : v.error ? 'error' : `${v.lost} lost, ${v.gained} gained, **${v.different}** different`;
  return `| ${real} | ${vars} | ${r.conf.error ? 'error' : r.conf.failed} | ${r.unit} |`;
}

// Every patch must apply before anything is built (--check: only that, on this checkout).
function checkPatches(dir) {
  for (const t of THRESHOLDS)
    for (const [f, n] of t.files || [[t.file, 1]]) {
      const found = readFileSync(join(dir, f), 'utf8').split(t.find).length - 1;
      if (found !== n) throw new Error(`${t.id}: '${t.find}' found ${found} times in ${f}, expected ${n}: update THRESHOLDS`);
    }
}
if (argv.includes('--check')) {
  checkPatches(root);
  console.log(`${THRESHOLDS.length} thresholds, every patch applies`);
  process.exit(0);
}
const { src, build } = prepare();
checkPatches(src);
const results = existsSync(OUT) ? JSON.parse(readFileSync(OUT, 'utf8')) : {};
// The unpatched build once: the row of every value in force (each patch for the value in force is
// the same arithmetic written with that value, e.g. `* 100 >= max * 80` for `* 5 >= max * 4`).
const baseErr = buildIt(build);
if (baseErr) throw new Error(baseErr);
const base = measure(build, true);
results['(unpatched)'] = base;
console.log('| threshold | value | real: right / ws-only / declined / **wrong** | variants | conformance failed | unit failed |');
console.log('|---|---|---|---|---|---|');
for (const t of THRESHOLDS) {
  if (ONLY && !ONLY.has(t.id)) continue;
  const targets = t.files || [[t.file, 1]];
  const pristine = targets.map(([f]) => readFileSync(join(src, f), 'utf8'));
  results[t.id] = { what: t.what, now: t.now, values: {} };
  for (const v of VALUES[t.id] || t.values) {
    targets.forEach(([f], k) => writeFileSync(join(src, f), pristine[k].split(t.find).join(t.put(v))));
    let r = base;
    if (v !== t.now) {
      const err = buildIt(build);
      r = err ? { buildError: err } : measure(build, !t.ladderOnly);
    }
    results[t.id].values[v] = r;
    console.log(`| ${t.id} | ${v}${v === t.now ? ' *' : ''} ${cell(r)}`);
    if (r !== base && !r.buildError) details.push(`${t.id} = ${v}: ${moved(r)}`);
  }
  targets.forEach(([f], k) => writeFileSync(join(src, f), pristine[k]));
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, JSON.stringify(results, null, 1));
}
console.log('\n' + details.join('\n'));
