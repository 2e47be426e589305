#!/usr/bin/env node
// Accuracy runner (issue 12): every case of cases.jsonl through every engine that takes its form,
// each outcome scored: correct (byte-identical), correct_ws (equal once all whitespace is
// removed), refused (error reported), wrong (success reported with other content). For the
// must-refuse cases the good outcome is `refused`; editcore's message is also checked for the
// line numbers it must name (the differing line, or every matching place).
//
//   node bench/accuracy/run.mjs --cases bench/out/accuracy/cases.jsonl --cli build/h-acc/editcore
//        [--wasi build/h-acc-wasi/editcore.wasm] [--engines a,b,...] [--form f] [--id substr]
// Writes <dir of cases>/results.jsonl (one line per case and engine) and prints a summary.
import { readFileSync, writeFileSync, mkdtempSync, mkdirSync, rmSync, existsSync, readdirSync } from 'node:fs';
import { spawnSync, spawn } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadCases } from './cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const CASES = opt('--cases', join(root, 'bench/out/accuracy/cases.jsonl'));
const CLI = resolve(opt('--cli', join(root, 'build/h-acc/editcore')));
const WASI = opt('--wasi', '');
const ONLY = opt('--engines', '') ? new Set(opt('--engines', '').split(',')) : null;
const FORM = opt('--form', '');
const IDSUB = opt('--id', '');
const VERBOSE = argv.includes('--verbose');

const REPLACE_FORMS = ['exact', 'indent_level', 'indent_tabs', 'trailing_ws', 'over_escaped', 'ws_tokens', 'middle_wrong',
  'typographic', 'blank_missing', 'blank_extra', 'elided', 'fuzzy_middle', 'lead_break', 'lead_break_ws', 'lead_break_drop',
  'lead_break_drop_ws', 'trail_break', 'trail_break_ws', 'trail_break_drop', 'trail_break_drop_ws',
  'refuse_identifier', 'refuse_number', 'refuse_ambiguous', 'refuse_join'];
const UDIFF_FORMS = ['udiff_git', 'udiff_nolines', 'udiff_wrong_lines'];

let cases = loadCases(CASES);
if (FORM) cases = cases.filter((c) => c.form === FORM);
if (IDSUB) cases = cases.filter((c) => c.id.includes(IDSUB));

// ws: the same lines, each equal once its whitespace is removed. A blank line added or deleted that
// the edit did not ask for changes the lines, so it is wrong, not ws (issue 30).
const squash = (s) => s.replace(/\s+/g, '');
export const sameLinesButWhitespace = (a, b) => {
  const x = a.split('\n'), y = b.split('\n');
  return x.length === y.length && x.every((l, i) => squash(l) === squash(y[i]));
};
function score(c, ok, content, extra = {}) {
  const orig = c.files[c.path];
  if (c.kind === 'refuse') return { outcome: ok && content !== orig ? 'wrong' : 'refused', ...extra };
  if (!ok) return { outcome: 'refused', ...extra };
  if (content === c.expect.content) return { outcome: 'correct', ...extra };
  if (sameLinesButWhitespace(content, c.expect.content)) return { outcome: 'correct_ws', ...extra };
  return { outcome: 'wrong', ...extra };
}

// ---- editcore (JSON protocol) -----------------------------------------------------------------
function request(c, profile) {
  // editcore reads an Aider-style reply as a raw reply (docs/reply.md); dialect "aider" asks for Aider's
  // own reading, which the aider profile (editcore:aider) measures
  if (c.form === 'sr_aider' && profile === 'editcore')
    return JSON.stringify({ format: 'reply', files: c.files, edit: { text: c.edit.text }, profile });
  const edit = { ...c.edit };
  if (c.format === 'replace' && profile === 'gemini') delete edit.path; // one file: path optional
  // Aider reads its udiff edits from a fenced ```diff block of the reply, as its prompt asks
  if (c.format === 'unified_diff' && profile === 'aider') edit.text = '```diff\n' + edit.text + '```\n';
  return JSON.stringify({ format: c.format, files: c.files, edit, profile, ...(c.options ? { options: c.options } : {}) });
}
function scoreEditcore(c, text) {
  let res;
  try { res = JSON.parse(text); } catch { return { outcome: 'refused', code: 'CRASH', message: String(text).slice(0, 200) }; }
  const ok = res.status === 'success';
  const f = res.data?.files?.[c.path];
  const content = f ? f.content : c.files[c.path];
  const extra = { code: res.error?.code ?? null, strategy: f?.matches?.map((m) => m.strategy).join(',') ?? null };
  if (!ok) extra.message = res.error?.message ?? '';
  if (c.kind === 'refuse' && !ok) {
    const msg = (res.error?.message ?? '') + ' ' + (res.errors ?? []).map((e) => e.message).join(' ');
    extra.code_ok = extra.code === c.expect.code;
    extra.msg_ok = c.expect.lines.every((n) => new RegExp(`\\b${n}\\b`).test(msg));
  }
  return score(c, ok, content, extra);
}
// spawn with stdin text; resolves {status, stdout, stderr}
function run(cmd, args, { input, cwd, timeout = 20000 } = {}) {
  return new Promise((res) => {
    const p = spawn(cmd, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [], err = [];
    const t = setTimeout(() => p.kill('SIGKILL'), timeout);
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => err.push(d));
    p.on('error', () => {});
    p.stdin.on('error', () => {});
    p.on('close', (status) => { clearTimeout(t); res({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }); });
    p.stdin.end(input ?? '');
  });
}
function editcoreNative(profile) {
  return async (c) => {
    const r = await run(CLI, ['json'], { input: request(c, profile) });
    const s = scoreEditcore(c, r.stdout);
    s.raw = r.stdout;
    return s;
  };
}
// Many requests through one `editcore batch` (JSON Lines in and out, in order): the same answers as
// one `editcore json` each, without a process per case.
async function editcoreBatch(profile, cs) {
  const out = [];
  for (let i = 0; i < cs.length; i += 500) {
    const part = cs.slice(i, i + 500);
    const r = await run(CLI, ['batch'], { input: part.map((c) => request(c, profile)).join('\n') + '\n', timeout: 600000 });
    const lines = r.stdout.split('\n').filter(Boolean);
    part.forEach((c, k) => { const s = scoreEditcore(c, lines[k] ?? ''); s.raw = lines[k] ?? ''; out.push(s); });
  }
  return out;
}

// ---- peers ------------------------------------------------------------------------------------
const nm = join(here, 'node_modules');
let gemini = null, jsdiff = null, mcp = null;
const wants = (...names) => !ONLY || names.some((n) => ONLY.has(n));
if (wants('gemini')) try { gemini = await import(pathToFileURL(join(nm, '@google/gemini-cli-core/dist/src/tools/edit.js')).href); } catch (e) { console.error('gemini-cli-core not loadable: ' + e.message); }
if (wants('jsdiff')) try { jsdiff = await import(pathToFileURL(join(nm, 'diff/libesm/index.js')).href); } catch { if (wants('jsdiff')) try { jsdiff = await import('diff'); } catch (e) { console.error('jsdiff not loadable: ' + e.message); } }
if (wants('mcp_edit_file')) try { mcp = await import(pathToFileURL(join(nm, '@modelcontextprotocol/server-filesystem/dist/lib.js')).href); } catch (e) { console.error('server-filesystem not loadable: ' + e.message); }
const geminiConfig = { getUsageStatisticsEnabled: () => false, getSessionId: () => 'accuracy', getDebugMode: () => false };
function codexBinary() {
  const base = join(nm, '@openai');
  if (!existsSync(base)) return null;
  for (const d of readdirSync(base)) {
    const vendor = join(base, d, 'vendor');
    if (!existsSync(vendor)) continue;
    for (const t of readdirSync(vendor)) { const p = join(vendor, t, 'bin', 'codex'); if (existsSync(p)) return p; }
  }
  return null;
}
const CODEX = codexBinary();
const TMP = mkdtempSync(join(tmpdir(), 'ec-acc-run-'));
let tmpN = 0;
function scratch(c) {
  const dir = join(TMP, String(tmpN++));
  mkdirSync(join(dir, dirname(c.path)), { recursive: true });
  writeFileSync(join(dir, c.path), c.files[c.path]);
  return dir;
}
const readBack = (dir, c) => readFileSync(join(dir, c.path), 'utf8');

async function geminiRun(c) {
  const p = { file_path: c.path, old_string: c.edit.old_string, new_string: c.edit.new_string };
  try {
    const res = await gemini.calculateReplacement(geminiConfig, { currentContent: c.files[c.path], params: p });
    const err = gemini.getErrorReplaceResult(p, res.occurrences, res.finalOldString, res.finalNewString);
    return score(c, !err, res.newContent, { code: err ? err.type : null });
  } catch (e) { return { outcome: 'refused', code: 'THREW', message: String(e.message).slice(0, 200) }; }
}
async function mcpRun(c) {
  const dir = scratch(c);
  try {
    await mcp.applyFileEdits(join(dir, c.path), [{ oldText: c.edit.old_string, newText: c.edit.new_string }], false);
    return score(c, true, readBack(dir, c));
  } catch (e) { return { outcome: 'refused', message: String(e.message).slice(0, 120) }; }
}
function jsdiffRun(c) {
  try {
    const out = jsdiff.applyPatch(c.files[c.path], c.edit.text);
    return score(c, out !== false, out === false ? '' : out);
  } catch (e) { return { outcome: 'refused', message: String(e.message).slice(0, 120) }; }
}
async function procRun(cmd, args, c, input) {
  const dir = scratch(c);
  if (input !== undefined) writeFileSync(join(dir, '.edit.patch'), input);
  const r = await run(cmd, args, { cwd: dir });
  return score(c, r.status === 0, readBack(dir, c), { code: r.status === 0 ? null : `exit ${r.status}`, message: (r.stderr || r.stdout || '').slice(0, 160) });
}
const pLevel = (t) => (/^--- a\//m.test(t) ? '-p1' : '-p0');

// engine name -> {forms, run}
const ENGINES = {
  editcore: { forms: null, run: editcoreNative('editcore'), batch: (cs) => editcoreBatch('editcore', cs) },
  'editcore:gemini': { forms: REPLACE_FORMS, run: editcoreNative('gemini'), batch: (cs) => editcoreBatch('gemini', cs) },
  'editcore:cline': { forms: ['sr_cline'], run: editcoreNative('cline'), batch: (cs) => editcoreBatch('cline', cs) },
  'editcore:aider': { forms: ['sr_aider', ...UDIFF_FORMS], run: editcoreNative('aider'), batch: (cs) => editcoreBatch('aider', cs) },
  'editcore:codex': { forms: ['codex_patch'], run: editcoreNative('codex'), batch: (cs) => editcoreBatch('codex', cs) },
  gemini: gemini && { forms: REPLACE_FORMS, run: geminiRun },
  mcp_edit_file: mcp && { forms: REPLACE_FORMS, run: mcpRun },
  codex_apply_patch: CODEX && { forms: ['codex_patch'], run: (c) => procRun(CODEX, ['--codex-run-as-apply-patch', c.edit.text], c) },
  jsdiff: jsdiff && { forms: UDIFF_FORMS, run: jsdiffRun },
  git_apply: { forms: UDIFF_FORMS, run: (c) => procRun('git', ['apply', '.edit.patch'], c, c.edit.text) },
  'git_apply --recount': { forms: UDIFF_FORMS, run: (c) => procRun('git', ['apply', '--recount', '.edit.patch'], c, c.edit.text) },
  gnu_patch: { forms: UDIFF_FORMS, run: (c) => procRun('patch', ['--batch', '--forward', '--no-backup-if-mismatch', '-r', '-', pLevel(c.edit.text), '-i', '.edit.patch'], c, c.edit.text) },
};

const results = [];
const t0 = Date.now();
for (const [name, e] of Object.entries(ENGINES)) {
  if (!e || (ONLY && !ONLY.has(name))) continue;
  const te = Date.now();
  const mine = cases.filter((c) => !e.forms || e.forms.includes(c.form));
  let got = new Array(mine.length);
  if (e.batch) {
    // two processes, each half the cases
    const half = Math.ceil(mine.length / 2);
    const [a, b] = await Promise.all([e.batch(mine.slice(0, half)), e.batch(mine.slice(half))]);
    got = [...a, ...b];
  } else {
    let next = 0;
    const worker = async () => { while (next < mine.length) { const k = next++; got[k] = await e.run(mine[k]); } };
    await Promise.all(Array.from({ length: 4 }, worker));
  }
  mine.forEach((c, k) => {
    const r = got[k];
    const raw = r.raw; delete r.raw;
    results.push({ id: c.id, form: c.form, kind: c.kind, source: c.source, lang: c.lang, heldout: c.heldout, engine: name, ...r });
    if (name === 'editcore') c._native = raw;
  });
  console.error(`${name}: ${Date.now() - te} ms`);
}

// editcore through the WASI build: same requests, responses compared with native's
if (WASI && (!ONLY || ONLY.has('editcore-wasi'))) {
  const te = Date.now();
  const strip = (t) => { try { const o = JSON.parse(t); delete o.stats; return JSON.stringify(o); } catch { return t; } };
  let mismatches = 0;
  for (let i = 0; i < cases.length; i += 150) {
    const batch = cases.slice(i, i + 150);
    const r = spawnSync('node', [join(root, 'wasm/run-wasi.mjs'), '--batch', WASI], { input: JSON.stringify(batch.map((c) => request(c, 'editcore'))), encoding: 'utf8', maxBuffer: 1 << 30 });
    let outs = [];
    try { outs = JSON.parse(r.stdout); } catch { console.error('wasi batch failed: ' + r.stderr.slice(0, 300)); }
    batch.forEach((c, k) => {
      const s = scoreEditcore(c, outs[k] ?? '');
      if (c._native !== undefined && strip(outs[k] ?? '') !== strip(c._native)) { mismatches++; s.differs_from_native = true; }
      results.push({ id: c.id, form: c.form, kind: c.kind, source: c.source, lang: c.lang, heldout: c.heldout, engine: "editcore-wasi", ...s });
    });
  }
  console.error(`editcore-wasi: ${Date.now() - te} ms, ${mismatches} responses differ from native`);
}
rmSync(TMP, { recursive: true, force: true });

const outPath = join(dirname(CASES), 'results.jsonl');
writeFileSync(outPath, results.map((r) => JSON.stringify(r)).join('\n') + '\n');

// summary: engine x form -> counts
const tab = {};
for (const r of results) {
  const k = `${r.engine}\t${r.form}`;
  tab[k] ??= { correct: 0, correct_ws: 0, refused: 0, wrong: 0, msg_bad: 0 };
  tab[k][r.outcome]++;
  if (r.kind === 'refuse' && r.outcome === 'refused' && r.engine === 'editcore' && !(r.code_ok && r.msg_ok)) tab[k].msg_bad++;
}
for (const [k, v] of Object.entries(tab)) console.log(`${k}\t${v.correct}\t${v.correct_ws}\t${v.refused}\t${v.wrong}${v.msg_bad ? `\tmsg/code off: ${v.msg_bad}` : ''}`);
if (VERBOSE) for (const r of results) if (r.engine === 'editcore' && ((r.kind === 'positive' && r.outcome !== 'correct') || r.outcome === 'wrong' || (r.kind === 'refuse' && !(r.code_ok && r.msg_ok)))) console.log(JSON.stringify(r));
console.error(`${results.length} results -> ${outPath} (${Date.now() - t0} ms)`);
