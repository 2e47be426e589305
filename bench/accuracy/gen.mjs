#!/usr/bin/env node
// Accuracy corpus generator (issues 12, 30): real file histories turned into edit requests in the
// forms models actually send, each with its expected file (or expected error code), checked here at
// generation time.
//
//   node bench/accuracy/gen.mjs [--out bench/out/accuracy] [--pairs bench/out/corpus/pairs]
//                               [--per-source 40] [--seed 12] [--only id,id] [--mirrors /work/.mirror]
//
// The histories: the repositories of bench/accuracy/sources.json, fetched by fetch.mjs from Debian's
// source packages and npm (<pairs>/<id>.jsonl: each changed file before and after a real change);
// with --mirrors also the four GitHub repositories of the first corpus (issue 12), read from bare git
// mirrors brought by the search tool's fetch (CI has none). No code of theirs is committed.
// Output: <out>/cases.jsonl, one case a line (another engine's results can be scored on it: every
// case carries the file before, the file expected after, and its language):
//   {id, form, kind: "positive"|"refuse", repo, source, lang, heldout, commit, path, format, files, edit,
//    options?, expect: {content} | {code, lines: [file line numbers the message must name]}, notes}
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeCases } from './cases.mjs';
import { join, dirname, basename } from 'node:path';
import { tmpdir } from 'node:os';

const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const OUT = opt('--out', 'bench/out/accuracy');
const PER_REPO = Number(opt('--per-repo', '30'));
const PER_SOURCE = Number(opt('--per-source', '40'));
const SEED = Number(opt('--seed', '12'));
const MIRROR = opt('--mirrors', '');
const PAIRS = opt('--pairs', 'bench/out/corpus/pairs');
const ONLY = opt('--only', '') ? new Set(opt('--only', '').split(',')) : null;

// Pinned: repository, commit (history is read from there backwards), extensions, indent unit.
export const REPOS = [
  { name: 'junegunn/fzf', commit: '956562daaa82ddf55ea8f7aeab56883377b742c6', exts: ['.go'], unit: '\t', lang: 'go' },
  { name: 'axios/axios', commit: '23a25af0688d1db2c396deb09229d2271cc24f6c', exts: ['.js', '.ts'], unit: '  ', lang: 'javascript' },
  { name: 'psf/requests', commit: '1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e', exts: ['.py'], unit: '    ', lang: 'python' },
  { name: 'redis/hiredis', commit: '29ea2791c102fdffff350f1ea6e04d1f71903d0d', exts: ['.c', '.h'], unit: '    ', lang: 'c' },
];

export const POSITIVE_FORMS = ['exact', 'indent_level', 'indent_tabs', 'trailing_ws', 'over_escaped', 'ws_tokens',
  'middle_wrong', 'typographic', 'blank_missing', 'blank_extra', 'elided', 'fuzzy_middle',
  'lead_break', 'lead_break_ws', 'lead_break_drop', 'lead_break_drop_ws', 'trail_break', 'trail_break_ws', 'trail_break_drop',
  'trail_break_drop_ws', 'sr_aider', 'sr_cline', 'udiff_git', 'udiff_nolines', 'udiff_wrong_lines', 'codex_patch'];
export const REFUSE_FORMS = ['refuse_identifier', 'refuse_number', 'refuse_ambiguous', 'refuse_join'];

// ---- seeded PRNG (mulberry32) -----------------------------------------------------------------
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function hashStr(s) { let h = 2166136261; for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619); return h >>> 0; }
const pick = (r, a) => a[Math.floor(r() * a.length)];
function shuffle(r, a) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; }

// ---- git ------------------------------------------------------------------------------------
const gitDir = (repo) => join(MIRROR, repo.name.replace('/', '+'), 'repo');
const git = (repo, args, opts = {}) => execFileSync('git', ['--git-dir', gitDir(repo), ...args], { maxBuffer: 1 << 28, encoding: 'utf8', ...opts });

function singleFileCommits(repo) {
  const log = git(repo, ['log', '--no-merges', '--format=@%H %P', '--name-status', '-n', '4000', repo.commit]);
  const out = [];
  let cur = null;
  const flush = () => { if (cur && cur.files.length === 1 && cur.files[0].st === 'M' && cur.parents.length === 1) out.push(cur); };
  for (const line of log.split('\n')) {
    if (line.startsWith('@')) { flush(); const [h, ...p] = line.slice(1).split(' '); cur = { hash: h, parents: p.filter(Boolean), files: [] }; continue; }
    if (!line.trim() || !cur) continue;
    const [st, ...rest] = line.split('\t');
    cur.files.push({ st: st[0], path: rest[rest.length - 1] });
  }
  flush();
  return out.filter((c) => repo.exts.some((e) => c.files[0].path.endsWith(e))).map((c) => ({ hash: c.hash, parent: c.parents[0], path: c.files[0].path }));
}

// Hunks of `git diff -U0`: {os, oc, ns, nc, del: [lines], add: [lines]}.
function hunks(repo, c) {
  return parseHunks(git(repo, ['diff', '-U0', '--no-color', '--no-ext-diff', c.parent, c.hash, '--', c.path]));
}
function parseHunks(d) {
  const hs = [];
  let h = null;
  for (const line of d.split('\n')) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (m) { h = { os: +m[1], oc: m[2] === undefined ? 1 : +m[2], ns: +m[3], nc: m[4] === undefined ? 1 : +m[4], del: [], add: [] }; hs.push(h); continue; }
    if (!h) continue;
    if (line.startsWith('\\')) h.noeol = true;
    else if (line[0] === '-') h.del.push(line.slice(1));
    else if (line[0] === '+') h.add.push(line.slice(1));
  }
  return hs;
}

// ---- text helpers ---------------------------------------------------------------------------
const count = (hay, needle) => { let n = 0, i = 0; if (!needle) return 0; while ((i = hay.indexOf(needle, i)) >= 0) { n++; i += 1; } return n; };
const squash = (s) => s.replace(/\s+/g, '');
const isText = (s) => !s.includes('\0') && !s.includes('\r') && !s.includes('\uFFFD');
// file lines without the empty element after a final newline
function fileLines(text) { const l = text.split('\n'); if (text.endsWith('\n')) l.pop(); return l; }
function joinFile(lines, eol) { return lines.join('\n') + (eol ? '\n' : ''); }
const lead = (l) => /^[ \t]*/.exec(l)[0];
const blank = (l) => l.trim() === '';
const substantive = (lines) => lines.some((l) => l.trim().replace(/[{}()[\];,]/g, '').length >= 3);

// Lines (1-based) where the line sequence `seg` starts in `lines` under a line comparison.
function placesOf(lines, seg, eq) {
  const out = [];
  if (!seg.length) return out;
  for (let i = 0; i + seg.length <= lines.length; i++) {
    let ok = true;
    for (let k = 0; k < seg.length && ok; k++) ok = eq(lines[i + k], seg[k]);
    if (ok) out.push(i + 1);
  }
  return out;
}

// 1-based lines where a window as long as `seg` has seg's first and last lines (trimmed): where the
// anchor strategy (and fuzzy, roughly) may place a text whose middle line is slightly wrong.
// Every middle line must be similar too (edit distance: each >= 50 %, on average >= 80 %, as SPEC §4
// describes the anchor strategy): another window like that is a place the text fits as well.
function lev(a, b) {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}
const similarity = (a, b) => { a = a.trim(); b = b.trim(); const m = Math.max(a.length, b.length); return m ? 1 - lev(a, b) / m : 1; };
function anchorPlaces(lines, seg) {
  const out = [], f = seg[0].trim(), l = seg[seg.length - 1].trim();
  for (let i = 0; i + seg.length <= lines.length; i++) {
    if (lines[i].trim() !== f || lines[i + seg.length - 1].trim() !== l) continue;
    const sims = seg.slice(1, -1).map((x, k) => similarity(x, lines[i + 1 + k]));
    if (sims.every((v) => v >= 0.5) && (!sims.length || sims.reduce((a, b) => a + b, 0) / sims.length >= 0.8)) out.push(i + 1);
  }
  return out;
}

// How many places a text fits once whitespace (except between two word characters) and
// typographic punctuation are forgiven, starting at a line start: > 1 means a loose match is
// ambiguous, whatever the engine.
const keyLine = (l) => l.replace(/[\u201c\u201d]/g, '"').replace(/[\u2018\u2019]/g, "'").replace(/[\u2013\u2014]/g, '-')
  .trim().replace(/\s+/g, ' ').replace(/ (?=\W)|(?<=\W) /g, '');
// the least each form's mistake needs forgiven
const FOLD = (l) => l.replace(/[\u201c\u201d]/g, '"').replace(/[\u2018\u2019]/g, "'").replace(/[\u2013\u2014]/g, '-');
const FORM_KEY = { trailing_ws: (l) => l.trimEnd(), indent_level: (l) => l.trim(), indent_tabs: (l) => l.trim(), typographic: FOLD };
function loosePlaces(orig, oldText, form) {
  const kf = FORM_KEY[form] ?? keyLine;
  const keep = FORM_KEY[form] ? () => true : Boolean;
  const f = fileLines(orig).map(kf).filter(keep).join('\n');
  const o = oldText.split('\n').map(kf).filter(keep).join('\n');
  // (the line-wise mistakes are matched as whole lines: the last line too; a token-level one may end mid-line)
  const whole = Boolean(FORM_KEY[form]);
  let n = 0;
  for (let i = f.indexOf(o); i >= 0; i = f.indexOf(o, i + 1))
    if ((i === 0 || f[i - 1] === '\n') && (!whole || i + o.length === f.length || f[i + o.length] === '\n')) n++;
  return n;
}
function placeLines(orig, oldText, form) {
  // 1-based file lines where a loose fit of oldText starts (first old line's key at a line start)
  const kf = FORM_KEY[form] ?? keyLine;
  const keep = FORM_KEY[form] ? () => true : Boolean;
  const lines = fileLines(orig), o = oldText.split('\n').map(kf).filter(keep);
  const out = [];
  const idx = lines.map((l, i) => [kf(l), i]).filter(([k]) => keep(k));
  for (let s = 0; s + o.length <= idx.length; s++) {
    let ok = true;
    for (let k = 0; k < o.length && ok; k++) ok = k === o.length - 1 && !FORM_KEY[form] ? idx[s + k][0].startsWith(o[k]) : idx[s + k][0] === o[k];
    if (ok) out.push(idx[s][1] + 1);
  }
  return out;
}
const LOOSE_FORMS = new Set(['indent_level', 'indent_tabs', 'trailing_ws', 'ws_tokens', 'typographic', 'blank_missing', 'blank_extra',
  'lead_break_ws', 'lead_break_drop_ws', 'trail_break_ws', 'trail_break_drop_ws', 'refuse_join']);

// ---- the base edit: one hunk of a real commit, with minimal unique context --------------------
// Returns {orig, lines, eol, a, b, oldSeg, newSeg, expected, hunkDelFrom, hunkDelTo}
function baseEdit(orig, h, minLines = 1) {
  const lines = fileLines(orig), eol = orig.endsWith('\n');
  // deleted range [d0, d1) in 0-based line indices; for a pure insertion, d0 == d1 == os
  const d0 = h.oc === 0 ? h.os : h.os - 1, d1 = d0 + h.oc;
  for (let k = 0; k <= 10; k++) {
    const splits = [];
    for (let before = 0; before <= k; before++) splits.push([before, k - before]);
    // prefer balanced context, then more after than before
    splits.sort((x, y) => Math.abs(x[0] - x[1]) - Math.abs(y[0] - y[1]) || x[0] - y[0]);
    for (const [bf, af] of splits) {
      const a = d0 - bf, b = d1 + af;
      if (a < 0 || b > lines.length || b - a < Math.max(1, minLines)) continue;
      const oldSeg = lines.slice(a, b);
      if (!substantive(oldSeg) || blank(oldSeg[0]) || blank(oldSeg[oldSeg.length - 1])) continue;
      if (count(orig, oldSeg.join('\n')) !== 1) continue;
      const newSeg = [...lines.slice(a, d0), ...h.add, ...lines.slice(d1, b)];
      // a pure deletion needs a context line: an empty new_string would leave an empty line behind
      if (!newSeg.length) continue;
      const expLines = [...lines.slice(0, a), ...newSeg, ...lines.slice(b)];
      return { orig, lines, eol, a, b, d0, d1, bf, af, oldSeg, newSeg, expected: joinFile(expLines, eol) };
    }
  }
  return null;
}

// ---- forms ----------------------------------------------------------------------------------
const esc = (s) => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/"/g, '\\"');
function reindent(lines, f) { return lines.map((l) => (blank(l) ? l : f(l))); }

// Applies a line mutation to old, and to the same context line in new (the model repeats its belief).
function mutateLine(base, idx, mutated) {
  const oldSeg = base.oldSeg.slice(); oldSeg[idx] = mutated;
  const newSeg = base.newSeg.slice();
  const ctxLine = idx < base.bf ? idx : idx >= base.oldSeg.length - base.af ? newSeg.length - (base.oldSeg.length - idx) : -1;
  if (ctxLine >= 0) newSeg[ctxLine] = mutated;
  return { oldSeg, newSeg, repeated: ctxLine >= 0 };
}
const isCtx = (base, idx) => idx < base.bf || idx >= base.oldSeg.length - base.af;

const WS_RULES = [
  [/, (?=\S)/, ','], [/ = /, '='], [/ == /, '=='], [/\((?=\S)/, '( '], [/(?<=\S)\)/, ' )'], [/ \{$/, '{'], [/:(?=\S)/, ': '],
  [/ \+ /, '+'], [/(?<=\w)\(/, ' ('], [/ && /, '&&'],
];
function wsTokens(r, line) {
  if (/^\s*(#|\/\/|\*|\/\*)/.test(line)) return null; // comments: whitespace there is not between tokens
  const rules = shuffle(r, WS_RULES.slice());
  for (const [re, rep] of rules) {
    const body = line.slice(lead(line).length);
    if (!re.test(body)) continue;
    // outside string literals only (a rough check: no quote before the match)
    const m = re.exec(body);
    const pre = body.slice(0, m.index);
    if (/["'`]/.test(pre)) continue;
    return lead(line) + body.slice(0, m.index) + rep + body.slice(m.index + m[0].length);
  }
  return null;
}
function typographic(line) {
  let q = 0;
  let out = line.replace(/"/g, () => (q++ % 2 === 0 ? '\u201c' : '\u201d')).replace(/'/g, '\u2019');
  out = out.replace(/ -- /g, ' \u2014 ').replace(/ - /g, ' \u2013 ');
  return out === line ? null : out;
}
function typo(r, line) {
  // a slight change in one word of >= 5 letters: two inner letters swapped
  const words = [...line.matchAll(/[A-Za-z]{5,}/g)];
  if (!words.length) return null;
  const w = pick(r, words), s = w[0], i = 1 + Math.floor(r() * (s.length - 3));
  if (s[i] === s[i + 1]) return null;
  const t = s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2);
  return line.slice(0, w.index) + t + line.slice(w.index + s.length);
}
const KEYWORDS = new Set('return const function import export from package func struct type interface default while break continue static unsigned sizeof typedef elif else class self None True False async await error string nil void char int'.split(' '));
function misIdent(r, line, fileText) {
  const ids = [...line.matchAll(/\b[A-Za-z_][A-Za-z0-9_]{3,}\b/g)].filter((m) => !KEYWORDS.has(m[0]));
  if (!ids.length) return null;
  const m = pick(r, ids), id = m[0];
  const variants = [id + 's', id.endsWith('s') ? id.slice(0, -1) : id + 'Value', /[a-z][A-Z]/.test(id) ? id.replace(/([a-z])([A-Z])/, '$1_$2').toLowerCase() : id + '_', 'get' + id[0].toUpperCase() + id.slice(1)];
  for (const v of shuffle(r, variants)) {
    if (new RegExp('\\b' + v + '\\b').test(fileText)) continue;
    return { line: line.slice(0, m.index) + v + line.slice(m.index + id.length), from: id, to: v };
  }
  return null;
}
function misNumber(r, line) {
  const body = line.replace(/\/\/.*|#.*/, '');
  const nums = [...body.matchAll(/(?<![\w.])\d+(?![\w.])/g)];
  if (!nums.length) return null;
  const m = pick(r, nums), n = +m[0];
  const to = String(n === 0 ? 1 : n === 1 ? 2 : n < 10 ? n + 1 : n * 2);
  return { line: line.slice(0, m.index) + to + line.slice(m.index + m[0].length), from: m[0], to };
}

// ---- diffs ----------------------------------------------------------------------------------
let TMP = null;
function gitDiff(path, before, after) {
  const dir = mkdtempSync(join(TMP, 'd'));
  for (const [p, t] of [['a', before], ['b', after]]) { mkdirSync(join(dir, p, dirname(path)), { recursive: true }); writeFileSync(join(dir, p, path), t); }
  let out = '';
  try { execFileSync('git', ['diff', '--no-index', '--no-color', '--no-ext-diff', '--no-prefix', '-U3', join('a', path), join('b', path)], { cwd: dir, encoding: 'utf8' }); }
  catch (e) { out = e.stdout; } // exit 1: differences
  rmSync(dir, { recursive: true, force: true });
  // --no-prefix with a/ b/ directories: exactly the headers `git diff` writes in a repository
  return out;
}
function checkGitApply(path, before, patch, expected) {
  const dir = mkdtempSync(join(TMP, 'c'));
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  writeFileSync(join(dir, path), before);
  writeFileSync(join(dir, 'x.patch'), patch);
  let ok = false;
  try { execFileSync('git', ['apply', 'x.patch'], { cwd: dir, stdio: 'ignore' }); ok = execFileSync('cat', [join(dir, path)], { encoding: 'utf8' }) === expected; } catch { ok = false; }
  rmSync(dir, { recursive: true, force: true });
  return ok;
}
function hunkBodies(diff) {
  // [{header, body:[lines with prefix]}] of a one-file diff
  const hs = [];
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) hs.push({ header: line, body: [] });
    else if (hs.length && /^[ +\-\\]/.test(line)) hs[hs.length - 1].body.push(line);
  }
  return hs;
}

// ---- building the cases of one base edit ------------------------------------------------------
function casesFor(repo, c, orig, h, r, hunkNo) {
  const out = [];
  const id0 = `${repo.name.split('/')[1]}-${c.hash.slice(0, 8)}-h${hunkNo}`;
  const base = baseEdit(orig, h);
  if (!base || base.expected === orig) return out;
  const path = c.path;
  const files = { [path]: orig };
  const mk = (form, format, edit, expect, notes = {}, options = undefined) => {
    // a whitespace-level mistake that makes old_string fit several places must be refused
    if (LOOSE_FORMS.has(form) && loosePlaces(orig, edit.old_string, form) > 1) {
      const places = placeLines(orig, edit.old_string, form);
      if (places.length < 2) return;
      out.push({ id: `${id0}-${form}-ambiguous`, form: 'refuse_ambiguous', kind: 'refuse', repo: repo.name, commit: c.hash, path, format, files, edit, expect: { code: 'AMBIGUOUS', lines: places }, notes: { ...notes, from_form: form, places } });
      return;
    }
    out.push({ id: `${id0}-${form}`, form, kind: REFUSE_FORMS.includes(form) ? 'refuse' : 'positive', repo: repo.name, commit: c.hash, path, format, files, edit, ...(options ? { options } : {}), expect, notes });
  };
  const rep = (oldSeg, newSeg) => ({ path, old_string: oldSeg.join('\n'), new_string: newSeg.join('\n') });
  const notExact = (seg) => count(orig, seg.join('\n')) === 0;
  const positive = { content: base.expected };

  // exact replace with minimal unique context
  mk('exact', 'replace', rep(base.oldSeg, base.newSeg), positive, { lines: [base.a + 1, base.b] });

  // wrong indentation: one level more, or one level less where every line has one
  {
    const u = repo.unit;
    const canDedent = base.oldSeg.every((l) => blank(l) || l.startsWith(u)) && base.newSeg.every((l) => blank(l) || l.startsWith(u));
    const dedent = canDedent && r() < 0.5;
    const f = dedent ? (l) => l.slice(u.length) : (l) => u + l;
    const o = reindent(base.oldSeg, f), n = reindent(base.newSeg, f);
    if (notExact(o)) mk('indent_level', 'replace', rep(o, n), positive, { change: dedent ? 'one level less' : 'one level more' });
  }
  // tabs vs spaces
  {
    const toSp = (l) => l.replace(/^\t+/, (t) => '    '.repeat(t.length));
    const toTab = (l) => { const m = lead(l); if (m.includes('\t')) return l; const n = Math.floor(m.length / repo.unit.length); return '\t'.repeat(n) + ' '.repeat(m.length % repo.unit.length) + l.slice(m.length); };
    const f = repo.unit === '\t' ? toSp : toTab;
    const o = reindent(base.oldSeg, f), n = reindent(base.newSeg, f);
    if (o.join('\n') !== base.oldSeg.join('\n') && notExact(o)) mk('indent_tabs', 'replace', rep(o, n), positive, { change: repo.unit === '\t' ? 'tabs as 4 spaces' : 'spaces as tabs' });
  }
  // trailing whitespace on old lines
  {
    const o = base.oldSeg.map((l, i) => (i % 2 === 0 || base.oldSeg.length === 1 ? l + pick(r, [' ', '  ', '\t', ' ']) : l));
    if (notExact(o)) mk('trailing_ws', 'replace', rep(o, base.newSeg), positive);
  }
  // over-escaped strings: newlines, tabs, quotes and backslashes as escape text (JSON escaped twice)
  {
    const o = esc(base.oldSeg.join('\n')), n = esc(base.newSeg.join('\n'));
    if (o !== base.oldSeg.join('\n') && count(orig, o) === 0) mk('over_escaped', 'replace', { path, old_string: o, new_string: n }, positive);
  }
  // whitespace collapsed or added between tokens, on one line (repeated in new if it is context)
  {
    const idxs = shuffle(r, base.oldSeg.map((_, i) => i));
    for (const i of idxs) {
      const m = wsTokens(r, base.oldSeg[i]);
      if (!m) continue;
      const mu = mutateLine(base, i, m);
      if (notExact(mu.oldSeg)) { mk('ws_tokens', 'replace', rep(mu.oldSeg, mu.newSeg), positive, { line: base.a + i + 1, model_line: m, repeated_in_new: mu.repeated }); break; }
    }
  }
  // a middle line slightly wrong: a removed line (not repeated in new) with two letters swapped,
  // first and last lines right
  {
    const delIdx = [];
    for (let i = base.d0; i < base.d1; i++) delIdx.push(i - base.a);
    const b2 = delIdx.length ? baseEditAround(orig, h, base) : null;
    if (b2) {
      const mids = shuffle(r, delIdx.map((i) => i + (base.a - b2.a)).filter((i) => i > 0 && i < b2.oldSeg.length - 1 && !blank(b2.oldSeg[i])));
      for (const i of mids) {
        const m = typo(r, b2.oldSeg[i]);
        if (!m) continue;
        const o = b2.oldSeg.slice(); o[i] = m;
        if (b2.newSeg.includes(m) || !notExact(o)) continue;
        // first and last lines found at several places as a window of as many lines: the mistake makes
        // the text fit more than one place, so a loose match must refuse it
        const places = anchorPlaces(b2.lines, o);
        if (places.length > 1) {
          out.push({ id: `${id0}-middle_wrong-ambiguous`, form: 'refuse_ambiguous', kind: 'refuse', repo: repo.name, commit: c.hash, path, format: 'replace', files, edit: rep(o, b2.newSeg), expect: { code: 'AMBIGUOUS', lines: places }, notes: { from_form: 'middle_wrong', places } });
          break;
        }
        mk('middle_wrong', 'replace', rep(o, b2.newSeg), { content: b2.expected }, { line: b2.a + i + 1, model_line: m });
        // the same mistake under the fuzzy strategy, which a request names in options.strategies
        mk('fuzzy_middle', 'replace', rep(o, b2.newSeg), { content: b2.expected }, { line: b2.a + i + 1, model_line: m }, { strategies: ['exact', 'fuzzy'] });
        break;
      }
    }
  }
  // typographic quotes and dashes on one line
  {
    for (const i of shuffle(r, base.oldSeg.map((_, k) => k))) {
      const m = typographic(base.oldSeg[i]);
      if (!m) continue;
      const mu = mutateLine(base, i, m);
      if (notExact(mu.oldSeg)) { mk('typographic', 'replace', rep(mu.oldSeg, mu.newSeg), positive, { line: base.a + i + 1, repeated_in_new: mu.repeated }); break; }
    }
  }
  // a missing blank line (a blank line inside old left out; left out of new too, as it is context).
  // A blank line the commit removes is not left out: the model's edit cannot then say whether it
  // goes (the file expected would not follow from the edit sent).
  {
    // Nor one right next to the changed lines when new_string adds lines: whether they go above or
    // below it is not said by the edit either.
    const b2 = baseEditWithBlank(orig, h);
    const nextToChange = (b) => b.blankIdx === b.bf - 1 || b.blankIdx === b.oldSeg.length - b.af;
    if (b2 && isCtx(b2, b2.blankIdx) && !(h.add.length && nextToChange(b2))) {
      const i = b2.blankIdx;
      const o = b2.oldSeg.filter((_, k) => k !== i);
      let n = b2.newSeg;
      if (isCtx(b2, i)) { const j = i < b2.bf ? i : n.length - (b2.oldSeg.length - i); n = n.filter((_, k) => k !== j); }
      if (notExact(o)) mk('blank_missing', 'replace', rep(o, n), { content: b2.expected }, { line: b2.a + i + 1, repeated_in_new: isCtx(b2, i) });
    }
  }
  // an extra blank line between two non-blank lines of old (and of new when both are context)
  {
    const cands = [];
    for (let i = 1; i < base.oldSeg.length; i++) if (!blank(base.oldSeg[i - 1]) && !blank(base.oldSeg[i])) cands.push(i);
    if (cands.length) {
      const i = pick(r, cands);
      // right next to the changed lines where the commit adds a blank line: the model's extra blank
      // line and the added one cannot be told apart
      const adjacent = i === base.bf || i === base.oldSeg.length - base.af;
      const o = [...base.oldSeg.slice(0, i), '', ...base.oldSeg.slice(i)];
      let n = base.newSeg;
      const inBefore = i < base.bf, inAfter = i - 1 >= base.oldSeg.length - base.af;
      if (inBefore) n = [...n.slice(0, i), '', ...n.slice(i)];
      else if (inAfter) { const j = n.length - (base.oldSeg.length - i); n = [...n.slice(0, j), '', ...n.slice(j)]; }
      if (notExact(o) && !(adjacent && h.add.some(blank))) mk('blank_extra', 'replace', rep(o, n), positive, { after_line: base.a + i, repeated_in_new: inBefore || inAfter });
    }
  }
  // SEARCH/REPLACE blocks
  {
    const fence = '```';
    const aider = `${path}\n${fence}${repo.lang}\n<<<<<<< SEARCH\n${base.oldSeg.join('\n')}\n=======\n${base.newSeg.join('\n')}\n>>>>>>> REPLACE\n${fence}\n`;
    mk('sr_aider', 'search_replace', { text: aider, dialect: 'aider' }, positive);
    const cline = `------- SEARCH\n${base.oldSeg.join('\n')}\n=======\n${base.newSeg.join('\n')}\n+++++++ REPLACE\n`;
    mk('sr_cline', 'search_replace', { text: cline, dialect: 'cline' }, positive);
  }
  // unified diffs
  {
    const d = gitDiff(path, orig, base.expected);
    const hb = hunkBodies(d);
    // (without its line numbers a hunk must fit one place: its unchanged and removed lines unique)
    const hunkOld = (b) => b.filter((l) => l[0] !== '+' && l[0] !== '\\').map((l) => l.slice(1)).join('\n');
    if (d && hb.length === 1 && !d.includes('\\ No newline') && checkGitApply(path, orig, d, base.expected)) {
      mk('udiff_git', 'unified_diff', { text: d }, positive);
      const unique = count(orig, hunkOld(hb[0].body)) === 1;
      const head = `--- ${path}\n+++ ${path}\n`;
      if (unique) mk('udiff_nolines', 'unified_diff', { text: head + '@@ ... @@\n' + hb[0].body.join('\n') + '\n' }, positive);
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/.exec(hb[0].header);
      const shift = (r() < 0.5 ? -1 : 1) * (3 + Math.floor(r() * 30));
      const os = Math.max(1, +m[1] + shift), ns = Math.max(1, +m[3] + shift + (r() < 0.5 ? 1 : 0));
      const oc = Math.max(1, (m[2] === undefined ? 1 : +m[2]) + pick(r, [-1, 1, 2])), nc = Math.max(1, (m[4] === undefined ? 1 : +m[4]) + pick(r, [-2, -1, 1]));
      if (unique) mk('udiff_wrong_lines', 'unified_diff', { text: `--- a/${path}\n+++ b/${path}\n@@ -${os},${oc} +${ns},${nc} @@${m[5]}\n` + hb[0].body.join('\n') + '\n' }, positive, { true_header: hb[0].header });
      // Codex patch: the same hunk under a bare @@
      const body = hb[0].body.map((l) => (l[0] === ' ' ? ' ' + l.slice(1) : l));
      const seg = hb[0].body.filter((l) => l[0] !== '+').map((l) => l.slice(1)).join('\n');
      if (count(orig, seg) === 1) mk('codex_patch', 'codex_patch', { text: `*** Begin Patch\n*** Update File: ${path}\n@@\n${body.join('\n')}\n*** End Patch\n` }, positive);
    }
  }
  // must refuse: an identifier / a number the file does not have, on a line new repeats
  {
    for (const [form, fn] of [['refuse_identifier', (l) => misIdent(r, l, orig)], ['refuse_number', (l) => misNumber(r, l)]]) {
      const b2 = base.bf + base.af > 0 ? base : baseEditAround(orig, h, base);
      if (!b2) continue;
      const ctx = shuffle(r, b2.oldSeg.map((_, i) => i).filter((i) => isCtx(b2, i) && !blank(b2.oldSeg[i])));
      for (const i of ctx) {
        const m = fn(b2.oldSeg[i]);
        if (!m) continue;
        const mu = mutateLine(b2, i, m.line);
        // nothing in the file may equal the model's old text even with every whitespace removed
        const sq = squash(mu.oldSeg.join('\n'));
        if (squash(orig).includes(sq)) continue;
        mk(form, 'replace', rep(mu.oldSeg, mu.newSeg), { code: 'NO_MATCH', lines: [b2.a + i + 1] }, { line: b2.a + i + 1, from: m.from, to: m.to });
        break;
      }
    }
  }
  // `...` for unchanged context lines before the change (the elision strategy): the first line,
  // `...`, then the lines from just before the change on; each part unique in the file
  {
    const L = base.lines;
    for (let k = 3; k <= 6; k++) {
      const a = base.d0 - k;
      if (a < 0) break;
      const first = L[a], last = L[base.d0 - 1];
      if (blank(first) || blank(last) || !substantive([first]) || /^\s*\.\.\.\s*$/.test(first)) continue;
      if (L.filter((x) => x.trimEnd() === first.trimEnd()).length !== 1) continue;
      const tail = L.slice(base.d0 - 1, base.b);
      if (count(orig, tail.join('\n')) !== 1 || tail.some((x) => /^\s*\.\.\.\s*$/.test(x))) continue;
      const newTail = [last, ...h.add, ...L.slice(base.d1, base.b)];
      mk('elided', 'replace', rep([first, '...', ...tail], [first, '...', ...newTail]), positive, { kept_lines: `${a + 2}-${base.d0 - 1}` });
      break;
    }
  }
  // old_string and new_string that start or end with line breaks (issue 30): both the same (the lines
  // around are context), or old with one more (the blank line there goes); as sent exactly and with a
  // whitespace mistake between tokens (a loose match, mostly the token regex)
  {
    const L = base.lines, J = (seg) => seg.join('\n');
    let ws = null;
    for (const i of shuffle(r, base.oldSeg.map((_, k) => k))) {
      const m = wsTokens(r, base.oldSeg[i]);
      if (!m) continue;
      const mu = mutateLine(base, i, m);
      if (notExact(mu.oldSeg)) { ws = mu; break; }
    }
    const above = base.a > 0 ? L[base.a - 1] : null, below = base.b < L.length ? L[base.b] : null;
    const lastHasEol = base.b < L.length || base.eol, belowHasEol = base.b + 1 < L.length || base.eol;
    const dropAbove = above === '' ? joinFile([...L.slice(0, base.a - 1), ...base.newSeg, ...L.slice(base.b)], base.eol) : null;
    const dropBelow = below === '' && belowHasEol ? joinFile([...L.slice(0, base.a), ...base.newSeg, ...L.slice(base.b + 1)], base.eol) : null;
    // (new_string's own first and last lines have text: a blank one would be a line break of its own)
    const ends = (seg) => seg.length && !blank(seg[0]) && !blank(seg[seg.length - 1]);
    for (const [suf, o, n] of [['', base.oldSeg, base.newSeg], ['_ws', ws?.oldSeg, ws?.newSeg]]) {
      if (!o || !ends(n)) continue;
      const fits = (old) => (suf ? count(orig, old) === 0 : count(orig, old) === 1);
      if (above !== null && fits('\n' + J(o))) mk(`lead_break${suf}`, 'replace', { path, old_string: '\n' + J(o), new_string: '\n' + J(n) }, positive);
      if (dropAbove && fits('\n' + J(o))) mk(`lead_break_drop${suf}`, 'replace', { path, old_string: '\n' + J(o), new_string: J(n) }, { content: dropAbove });
      if (lastHasEol && fits(J(o) + '\n')) mk(`trail_break${suf}`, 'replace', { path, old_string: J(o) + '\n', new_string: J(n) + '\n' }, positive);
      if (dropBelow && fits(J(o) + '\n\n')) mk(`trail_break_drop${suf}`, 'replace', { path, old_string: J(o) + '\n\n', new_string: J(n) + '\n' }, { content: dropBelow });
    }
    // must refuse: the leading line break dropped where the line above has text (a loose match would
    // join the two lines)
    if (ws && ends(ws.newSeg) && above !== null && !blank(above) && count(orig, '\n' + J(ws.oldSeg)) === 0)
      mk('refuse_join', 'replace', { path, old_string: '\n' + J(ws.oldSeg), new_string: J(ws.newSeg) }, { code: 'NO_MATCH', lines: [base.a + 1] }, { above_line: base.a });
  }
  return out;
}
// base edit with the changed lines strictly inside (one context line each side at least)
function baseEditAround(orig, h, base) {
  const lines = base.lines;
  for (let extra = 0; extra < 4; extra++) {
    const bf = Math.max(base.bf, 1) + extra, af = Math.max(base.af, 1) + extra;
    const a = base.d0 - bf, b = base.d1 + af;
    if (a < 0 || b > lines.length) return null;
    const oldSeg = lines.slice(a, b);
    if (blank(oldSeg[0]) || blank(oldSeg[oldSeg.length - 1])) continue;
    if (count(orig, oldSeg.join('\n')) !== 1) continue;
    const newSeg = [...lines.slice(a, base.d0), ...h.add, ...lines.slice(base.d1, b)];
    return { ...base, a, b, bf, af, oldSeg, newSeg, expected: joinFile([...lines.slice(0, a), ...newSeg, ...lines.slice(b)], base.eol) };
  }
  return null;
}
// base edit whose old text holds a blank line strictly inside, between non-blank lines
function baseEditWithBlank(orig, h) {
  const base = baseEdit(orig, h);
  if (!base) return null;
  const lines = base.lines;
  for (let bf = base.bf; bf <= base.bf + 4; bf++) for (let af = base.af; af <= base.af + 4; af++) {
    const a = base.d0 - bf, b = base.d1 + af;
    if (a < 0 || b > lines.length) continue;
    const oldSeg = lines.slice(a, b);
    if (blank(oldSeg[0]) || blank(oldSeg[oldSeg.length - 1])) continue;
    const bi = oldSeg.findIndex((l, i) => i > 0 && i < oldSeg.length - 1 && l === '' && !blank(oldSeg[i - 1]) && !blank(oldSeg[i + 1]));
    if (bi < 0 || count(orig, oldSeg.join('\n')) !== 1) continue;
    const newSeg = [...lines.slice(a, base.d0), ...h.add, ...lines.slice(base.d1, b)];
    return { ...base, a, b, bf, af, oldSeg, newSeg, blankIdx: bi, expected: joinFile([...lines.slice(0, a), ...newSeg, ...lines.slice(b)], base.eol) };
  }
  return null;
}

// must refuse: a loose text that fits two places (2-3 lines found at >= 2 places, sent re-indented)
function ambiguousCase(repo, c, orig, r) {
  const lines = fileLines(orig);
  const byKey = new Map();
  for (let len = 3; len >= 2; len--) {
    byKey.clear();
    for (let i = 0; i + len <= lines.length; i++) {
      const seg = lines.slice(i, i + len);
      if (seg.some(blank) || !substantive(seg) || squash(seg.join('')).length < 24) continue;
      const k = seg.map((l) => l.trim()).join('\n');
      if (!byKey.has(k)) byKey.set(k, []);
      byKey.get(k).push(i);
    }
    const multi = [...byKey.entries()].filter(([, v]) => v.length >= 2 && v.length <= 4);
    if (!multi.length) continue;
    const [, at] = pick(r, multi.sort((x, y) => (x[0] < y[0] ? -1 : 1)));
    const seg = lines.slice(at[0], at[0] + len);
    const o = seg.map((l) => repo.unit + l);
    if (count(orig, o.join('\n')) !== 0) continue;
    // the whitespace-free text must fit exactly these places and no others
    const places = placesOf(lines, o, (x, y) => x.trim() === y.trim());
    if (places.length < 2) continue;
    const n = [...o.slice(0, len - 1), o[len - 1] + (repo.lang === 'python' ? '  # checked' : ' // checked')];
    return { id: `${repo.name.split('/')[1]}-${c.hash.slice(0, 8)}-refuse_ambiguous`, form: 'refuse_ambiguous', kind: 'refuse', repo: repo.name, commit: c.hash, path: c.path, format: 'replace', files: { [c.path]: orig }, edit: { path: c.path, old_string: o.join('\n'), new_string: n.join('\n') }, expect: { code: 'AMBIGUOUS', lines: places }, notes: { places } };
  }
  return null;
}

// ---- histories ------------------------------------------------------------------------------
// A hunk a base edit can be made of: small, a real change (not whitespace only), no CR.
const usableHunk = (h) => !h.noeol && h.del.length <= 8 && h.add.length <= 14 && h.del.length + h.add.length > 0 &&
  squash(h.del.join('')) !== squash(h.add.join('')) && [...h.del, ...h.add].every((l) => !l.includes('\r'));
// The -U0 hunks between two states of a file.
function hunksOf(before, after) {
  const dir = mkdtempSync(join(TMP, 'h'));
  writeFileSync(join(dir, 'a'), before);
  writeFileSync(join(dir, 'b'), after);
  let out = '';
  try { execFileSync('git', ['diff', '--no-index', '--no-color', '--no-ext-diff', '-U0', 'a', 'b'], { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }); }
  catch (e) { out = e.stdout; }
  rmSync(dir, { recursive: true, force: true });
  return parseHunks(out);
}
// The file's indentation unit: a tab, 2 or 4 spaces (what most of its indented lines use).
function inferUnit(text) {
  let tabs = 0, spaces = 0, two = 0;
  for (const l of text.split('\n')) {
    const m = /^[ \t]+/.exec(l);
    if (!m || !l.trim()) continue;
    if (m[0][0] === '\t') tabs++;
    else { spaces++; if (m[0].length % 4 === 2) two++; }
  }
  return tabs > spaces ? '\t' : two > spaces * 0.2 ? '  ' : '    ';
}
const EXT_LANG = { rb: 'ruby', kt: 'kotlin', ts: 'typescript', py: 'python', go: 'go', rs: 'rust', java: 'java', js: 'javascript', cc: 'cpp', cpp: 'cpp', c: 'c' };

// The corpus of sources.json (fetch.mjs): every changed file's hunks, shuffled; base edits taken
// until PER_SOURCE (at most 2 from one file at one step, so one big file does not fill a source).
function corpusCases(all, meta) {
  const manifest = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'sources.json'), 'utf8'));
  const missing = [];
  for (const src of manifest.sources) {
    if (ONLY && !ONLY.has(src.id)) continue;
    const file = join(PAIRS, `${src.id}.jsonl`);
    if (!existsSync(file)) { missing.push(src.id); continue; }
    const pairs = readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const r = rng(SEED ^ hashStr(src.id));
    const cands = [];
    for (const [pi, p] of pairs.entries()) {
      if (!isText(p.before) || p.before.length < 200) continue;
      hunksOf(p.before, p.after).forEach((h, hi) => { if (usableHunk(h)) cands.push({ pi, hi, h }); });
    }
    shuffle(r, cands);
    const perFile = new Map();
    let taken = 0, ambiguous = 0;
    for (const cd of cands) {
      if (taken >= PER_SOURCE) break;
      const p = pairs[cd.pi], key = `${p.step} ${p.path}`;
      if ((perFile.get(key) ?? 0) >= 2) continue;
      const lang = EXT_LANG[p.path.split('.').pop()] ?? src.lang;
      const repo = { name: `corpus/${src.id}`, unit: inferUnit(p.before), lang };
      const c = { hash: hashStr(`${src.id} ${key} ${cd.hi}`).toString(16).padStart(8, '0'), path: p.path };
      const cs = casesFor(repo, c, p.before, cd.h, r, cd.hi);
      if (cs.length < 8) continue;
      if (ambiguous < Math.ceil(PER_SOURCE / 4)) { const a = ambiguousCase(repo, c, p.before, r); if (a) { cs.push(a); ambiguous++; } }
      for (const x of cs) Object.assign(x, { source: src.id, lang, heldout: !!src.heldout, step: p.step });
      all.push(...cs);
      perFile.set(key, (perFile.get(key) ?? 0) + 1);
      taken++;
    }
    meta.push({ source: src.id, lang: src.lang, kind: src.kind, package: src.package, heldout: !!src.heldout,
      history: src.kind === 'npm' ? `${src.versions[0]} … ${src.versions[src.versions.length - 1]} (${src.versions.length} versions)`
        : src.kind === 'debian-patches' ? `${src.version}: debian/patches` : `${src.from.version} → ${src.to.version}`,
      changed_files: pairs.length, base_edits: taken });
  }
  if (missing.length) throw new Error(`no history for ${missing.join(', ')}: run bench/accuracy/fetch.mjs first`);
}

// The first corpus (issue 12): one-file commits of four GitHub repositories, from bare mirrors.
function mirrorCases(all, meta) {
  for (const repo of REPOS) {
    const r = rng(SEED ^ hashStr(repo.name));
    const commits = shuffle(r, singleFileCommits(repo));
    let taken = 0, ambiguous = 0;
    for (const c of commits) {
      if (taken >= PER_REPO) break;
      let orig;
      try { orig = git(repo, ['show', `${c.parent}:${c.path}`]); } catch { continue; }
      if (!isText(orig) || orig.length > 300_000 || orig.length < 200) continue;
      const hs = hunks(repo, c).filter(usableHunk);
      if (!hs.length) continue;
      const hi = Math.floor(r() * hs.length);
      const cs = casesFor(repo, c, orig, hs[hi], r, hi);
      if (cs.length < 8) continue;
      if (ambiguous < Math.ceil(PER_REPO / 2)) { const a = ambiguousCase(repo, c, orig, r); if (a) cs.push(a); ambiguous += !!a; }
      for (const x of cs) Object.assign(x, { source: repo.name, lang: repo.lang, heldout: false });
      all.push(...cs);
      taken++;
    }
    meta.push({ source: repo.name, lang: repo.lang, kind: 'git', heldout: false, history: `one-file commits before ${repo.commit.slice(0, 12)}`, base_edits: taken });
  }
}

// ---- main -----------------------------------------------------------------------------------
function main() {
  TMP = mkdtempSync(join(tmpdir(), 'ec-acc-'));
  mkdirSync(OUT, { recursive: true });
  const all = [];
  const meta = [];
  corpusCases(all, meta);
  if (MIRROR) mirrorCases(all, meta);
  rmSync(TMP, { recursive: true, force: true });
  writeCases(OUT, all);
  writeFileSync(join(OUT, 'corpus.json'), JSON.stringify({ seed: SEED, per_source: PER_SOURCE, sources: meta, cases: all.length }, null, 1) + '\n');
  const byForm = {};
  for (const x of all) byForm[x.form] = (byForm[x.form] || 0) + 1;
  process.stderr.write(`${all.length} cases -> ${join(OUT, 'cases.jsonl')}\n${JSON.stringify(byForm)}\n`);
}
main();
