#!/usr/bin/env node
// The real-history part of ACCURACY.md (issues 12, 30), from bench/out/accuracy/{cases,results}.jsonl:
// written between the markers <!-- accuracy:real-history:begin --> and <!-- accuracy:real-history:end -->
// of ACCURACY.md (the rest of the file, other sections, is left as it is).
//   node bench/accuracy/report.mjs --out bench/out/accuracy [--before results-before.jsonl] [--write ACCURACY.md]
// Without --write the section goes to stdout.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCases } from './cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const arg = (k, d) => (argv.includes(k) ? argv[argv.indexOf(k) + 1] : d);
const OUT = arg('--out', 'bench/out/accuracy');
const BEFORE = arg('--before', '');
const WRITE = arg('--write', '');
const jsonl = (p) => readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const cases = loadCases(join(OUT, 'cases.jsonl'));
const results = jsonl(join(OUT, 'results.jsonl'));
const before = BEFORE && existsSync(BEFORE) ? jsonl(BEFORE).filter((r) => r.engine === 'editcore') : null;
const corpus = JSON.parse(readFileSync(join(OUT, 'corpus.json'), 'utf8'));
const versions = existsSync(join(OUT, 'versions.txt')) ? readFileSync(join(OUT, 'versions.txt'), 'utf8').trim().split('\n') : [];
const pkg = (p) => { try { return JSON.parse(readFileSync(join(here, 'node_modules', p, 'package.json'), 'utf8')).version; } catch { return '?'; } };
const byId = new Map(cases.map((c) => [c.id, c]));

const FORMS = ['exact', 'indent_level', 'indent_tabs', 'trailing_ws', 'over_escaped', 'ws_tokens', 'middle_wrong', 'fuzzy_middle',
  'typographic', 'blank_missing', 'blank_extra', 'elided', 'lead_break', 'lead_break_ws', 'lead_break_drop', 'lead_break_drop_ws',
  'trail_break', 'trail_break_ws', 'trail_break_drop', 'trail_break_drop_ws', 'sr_aider', 'sr_cline', 'udiff_git', 'udiff_nolines',
  'udiff_wrong_lines', 'codex_patch', 'refuse_identifier', 'refuse_number', 'refuse_ambiguous', 'refuse_join'];
const FORM_TEXT = {
  exact: 'exact replace, minimal unique context', indent_level: 're-indented by one level', indent_tabs: 'tabs vs spaces',
  trailing_ws: 'trailing whitespace', over_escaped: 'over-escaped (`\\n`, `\\"` as text)', ws_tokens: 'whitespace between tokens collapsed/added',
  middle_wrong: 'a middle (removed) line slightly wrong', fuzzy_middle: 'the same, under `strategies: [exact, fuzzy]`',
  typographic: 'typographic quotes and dashes', blank_missing: 'a blank line missing', blank_extra: 'an extra blank line',
  elided: '`...` for unchanged context lines', lead_break: 'old and new led by a line break', lead_break_ws: 'the same, with a whitespace mistake',
  lead_break_drop: 'old led by a line break new drops (the blank line above goes)', lead_break_drop_ws: 'the same, with a whitespace mistake',
  trail_break: 'old and new ending with a line break', trail_break_ws: 'the same, with a whitespace mistake',
  trail_break_drop: 'old ending with a blank line new drops', trail_break_drop_ws: 'the same, with a whitespace mistake',
  sr_aider: 'SEARCH/REPLACE, Aider', sr_cline: 'SEARCH/REPLACE, Cline', udiff_git: 'unified diff as `git diff` writes it',
  udiff_nolines: 'unified diff, `@@ ... @@`', udiff_wrong_lines: 'unified diff, wrong start lines and counts', codex_patch: 'Codex patch',
  refuse_identifier: 'MUST REFUSE: an identifier the file lacks', refuse_number: 'MUST REFUSE: a number the file lacks',
  refuse_ambiguous: 'MUST REFUSE: a loose text that fits two places', refuse_join: 'MUST REFUSE: a leading break dropped above a line with text',
};
const ENGINES = ['editcore', 'editcore-wasi', 'gemini', 'editcore:gemini', 'mcp_edit_file', 'codex_apply_patch', 'editcore:codex',
  'jsdiff', 'git_apply', 'git_apply --recount', 'gnu_patch', 'editcore:aider', 'editcore:cline'];
const present = ENGINES.filter((e) => results.some((r) => r.engine === e));
const pct = (a, b) => (b ? (100 * a / b).toFixed(1) + ' %' : '–');
const pct2 = (a, b) => (b ? (100 * a / b).toFixed(2) + ' %' : '–');

function totals(rs) {
  const t = { n: rs.length, pos: 0, ok: 0, exact: 0, ws: 0, refused_pos: 0, wrong_pos: 0, ref: 0, refused: 0, wrong_ref: 0 };
  for (const r of rs) {
    if (r.kind === 'positive') {
      t.pos++;
      if (r.outcome === 'correct' || r.outcome === 'correct_ws') t.ok++;
      if (r.outcome === 'correct') t.exact++;
      if (r.outcome === 'correct_ws') t.ws++;
      if (r.outcome === 'refused') t.refused_pos++;
      if (r.outcome === 'wrong') t.wrong_pos++;
    } else { t.ref++; if (r.outcome === 'refused') t.refused++; else t.wrong_ref++; }
  }
  return t;
}
const ec = results.filter((r) => r.engine === 'editcore');
const line = (t) => `${t.pos} | ${pct2(t.exact, t.pos)} | ${t.ws} | ${t.refused_pos} | **${t.wrong_pos}** | ${t.refused}/${t.ref} | **${t.wrong_ref}**`;

const out = [];
const p = (s = '') => out.push(s);
p('<!-- accuracy:real-history:begin (written by bench/accuracy/report.mjs; run bench/accuracy/run.sh) -->');
p('# Accuracy on real edits');
p();
p('How often an edit engine applies the edit the model meant, and how often it reports success while writing');
p(`something else. **${corpus.sources.length} repositories in ${new Set(corpus.sources.map((s) => s.lang)).size} languages** (issue 30):`);
p('their real history (each changed file before and after a real change) is fetched from what CI reaches, Debian\'s');
p('source packages and npm (`bench/accuracy/sources.json`, pinned), and each change is sent in the forms and with');
p('the mistakes models make, with its expected file (or expected error) checked when the case is generated.');
p(`${cases.length.toLocaleString('en')} requests. Every engine is run for real: editcore\'s CLI and WASI build, Gemini CLI\'s`);
p('`calculateReplacement`, the MCP filesystem server\'s `edit_file` (`applyFileEdits`), Codex\'s `apply_patch`, jsdiff\'s');
p('`applyPatch`, `git apply` (with and without `--recount`) and GNU `patch`.');
p();
p('Outcomes: **correct** = byte-identical to the expected file; **ws** = the same lines, each equal once its whitespace is');
p('removed (a blank line added or deleted that the edit did not ask for is **wrong**, not ws; for Python read ws as "needs');
p('a look"); **refused** = an error, nothing changed; **wrong** = success reported with other content (silent corruption).');
p('For the must-refuse cases refused is the right answer. Recall = (correct + ws) / positive cases.');
p();
p('## editcore');
p();
p('| cases | positive | byte-identical | ws | refused | wrong | must-refuse refused | wrong (must-refuse) |');
p('|---|---:|---:|---:|---:|---:|---:|---:|');
const tuned = ec.filter((r) => !r.heldout), held = ec.filter((r) => r.heldout);
if (before) {
  const ids = new Set(ec.map((r) => r.id));
  p(`| before (main at ${versions[5] ?? 'the branch point'}), all | ${line(totals(before.filter((r) => ids.has(r.id))))} |`);
  p(`| before, tuning sources | ${line(totals(before.filter((r) => ids.has(r.id) && !byId.get(r.id)?.heldout)))} |`);
  p(`| before, held-out sources | ${line(totals(before.filter((r) => ids.has(r.id) && byId.get(r.id)?.heldout)))} |`);
}
p(`| **now, tuning sources** | ${line(totals(tuned))} |`);
p(`| **now, held-out sources** (${[...new Set(held.map((r) => r.source))].join(', ')}) | ${line(totals(held))} |`);
p(`| **now, all** | ${line(totals(ec))} |`);
p();
p('The held-out repositories were not used to write the rules (issue 30\'s blank-line rules, the generator\'s fixes):');
p('every case looked at to find a cause came from the tuning repositories. `before` is the engine before issue 30 on the');
p('same requests, scored the same way (a deleted blank line counts as wrong).');
p();
const wasi = results.filter((r) => r.engine === 'editcore-wasi');
if (wasi.length) {
  const nat = new Map(ec.map((r) => [r.id, r.outcome]));
  const d = wasi.filter((r) => r.differs_from_native), dOut = wasi.filter((r) => r.outcome !== nat.get(r.id));
  p(`WASI build: ${wasi.length} responses, ${d.length} differ in bytes from the native CLI's (\`stats\` aside), ${dOut.length} in outcome.`);
}
p();
p('## Every engine');
p();
p('Each engine on the cases of the forms it takes; "editcore, same cases" is the `editcore` profile on exactly those cases.');
p();
p('| engine | positive cases | recall | byte-identical | wrong (positive) | must-refuse refused | wrong (must-refuse) | editcore, same cases: recall / wrong |');
p('|---|---:|---:|---:|---:|---:|---:|---:|');
for (const e of present) {
  const mine = results.filter((r) => r.engine === e);
  const ids = new Set(mine.map((r) => r.id));
  const t = totals(mine), o = totals(ec.filter((r) => ids.has(r.id)));
  p(`| ${e} | ${t.pos} | ${pct(t.ok, t.pos)} | ${pct(t.exact, t.pos)} | ${t.wrong_pos} (${pct(t.wrong_pos, t.pos)}) | ${t.ref ? `${t.refused}/${t.ref}` : '–'} | ${t.ref ? t.wrong_ref : '–'} | ${e === 'editcore' ? '' : `${pct(o.ok, o.pos)} / ${o.wrong_pos + o.wrong_ref}`} |`);
}
p();
p('## Per form');
p();
p('Cells: correct / ws / refused / **wrong**. A blank cell: the engine does not take that form. `editcore:<peer>` is');
p('editcore running that peer\'s profile (SPEC §5), which reproduces the peer, faults included.');
p();
const cell = {};
for (const r of results) { const k = `${r.engine}|${r.form}`; cell[k] ??= { correct: 0, correct_ws: 0, refused: 0, wrong: 0 }; cell[k][r.outcome]++; }
p(`| form | n | ${present.join(' | ')} |`);
p(`|---|---:|${present.map(() => '---').join('|')}|`);
for (const f of FORMS) {
  const n = cases.filter((c) => c.form === f).length;
  if (!n) continue;
  p(`| ${FORM_TEXT[f]} | ${n} | ${present.map((e) => { const c = cell[`${e}|${f}`]; return c ? `${c.correct} / ${c.correct_ws} / ${c.refused} / ${c.wrong ? `**${c.wrong}**` : 0}` : ''; }).join(' | ')} |`);
}
p();
p('## editcore by strategy of the ladder');
p();
p('Which strategy placed each successful edit (the `matches` of the answer; SEARCH/REPLACE, diffs and patches included):');
p();
const strat = {};
for (const r of ec) {
  if (r.outcome === 'refused') continue;
  for (const s of new Set((r.strategy || 'none').split(',').filter(Boolean))) { strat[s] ??= { correct: 0, correct_ws: 0, wrong: 0 }; strat[s][r.outcome]++; }
}
p('| strategy | correct | ws | wrong |');
p('|---|---:|---:|---:|');
for (const s of ['exact', 'unescape', 'trim_end', 'indent', 'unicode', 'elision', 'anchor', 'regex', 'fuzzy', 'none'])
  if (strat[s]) p(`| ${s} | ${strat[s].correct} | ${strat[s].correct_ws} | ${strat[s].wrong} |`);
p();
p('## editcore by repository');
p();
p('| repository | language | history | held out | base edits | cases | byte-identical (positive) | refused (positive) | wrong |');
p('|---|---|---|---|---:|---:|---:|---:|---:|');
for (const s of corpus.sources) {
  const rs = ec.filter((r) => r.source === s.source), t = totals(rs);
  const name = s.kind === 'npm' ? `npm \`${s.package}\`` : s.kind === 'git' ? s.source : `Debian \`${s.package}\``;
  p(`| ${name} | ${s.lang} | ${s.history} | ${s.heldout ? 'yes' : ''} | ${s.base_edits} | ${rs.length} | ${pct(t.exact, t.pos)} | ${t.refused_pos} | ${t.wrong_pos + t.wrong_ref} |`);
}
p();
const notExact = ec.filter((r) => r.kind === 'positive' && r.outcome !== 'correct');
const byForm = {};
for (const r of notExact) (byForm[r.form] ??= []).push(r);
p('## editcore: where it is not byte-identical');
p();
for (const [f, rs] of Object.entries(byForm).sort((a, b) => b[1].length - a[1].length)) {
  const oc = {};
  for (const r of rs) oc[r.outcome] = (oc[r.outcome] ?? 0) + 1;
  const codes = {};
  for (const r of rs.filter((x) => x.outcome === 'refused')) codes[r.code] = (codes[r.code] ?? 0) + 1;
  p(`- ${FORM_TEXT[f]}: ${Object.entries(oc).map(([k, v]) => `${v} ${k}`).join(', ')}${Object.keys(codes).length ? ` (${Object.entries(codes).map(([k, v]) => `${k} ${v}`).join(', ')})` : ''}: ${rs.slice(0, 4).map((r) => '`' + r.id + '`').join(', ')}${rs.length > 4 ? ', …' : ''}`);
}
p();
p('## The corpus');
p();
p(`Seed ${corpus.seed}; at most ${corpus.per_source} base edits a repository (one hunk of a real change, old_string extended by`);
p('context lines until it is unique; at most 2 from one file at one step), then every form that applies to it. The');
p('histories: `debian-versions`, the orig tarball of a package in Debian 12 (bookworm) against the one in Debian 13');
p('(trixie): every file of the upstream\'s own code that changed; `debian-patches`, the package\'s `debian/patches` applied');
p('one by one to its orig tarball (each a real upstream commit or fix); `npm`, consecutive published versions.');
p();
p('How the mistakes are made (bench/accuracy/gen.mjs): indentation shifted one level in old and new; leading tabs as 4');
p('spaces or spaces as tabs; trailing spaces/tabs on alternate old lines; old and new JSON-escaped once more; one line\'s');
p('whitespace around a punctuation token removed or added (repeated in new when the line is context); two letters swapped in');
p('a removed middle line (also under `fuzzy`); straight quotes and dashes made typographic; a blank context line left out');
p('(never one right next to lines new_string adds, nor one the change removes: the edit would not say where it goes), or');
p('one added; `...` for three or more unchanged lines; old and new led or ended by line breaks, equal or one more in old');
p('(where that blank line is in the file), as sent and with a whitespace mistake. SEARCH/REPLACE blocks as Aider (filename,');
p('fence: editcore reads them as a raw reply, `editcore:aider` with Aider\'s own coder) and Cline write them; unified diffs');
p('from `git diff` (checked with `git apply`), the same hunk under `@@ ... @@` and with start lines and counts off (only');
p('when its lines are unique in the file); Codex patches with a bare `@@`. Must refuse: an identifier renamed or a number');
p('changed on a context line new_string repeats; a text that fits two places once its mistake is forgiven (whole lines');
p('for the line-wise mistakes); a leading line break dropped where the line above has text (a loose match never joins lines).');
p();
p('Another engine\'s output can be scored on the same cases: `cases.jsonl` holds one request a line with `files` (before),');
p('`expect.content` (after) or `expect.code`, `lang`, `source`, `heldout`; the texts are in `blobs.jsonl`, named');
p('`{"$blob": id}` (`bench/accuracy/cases.mjs` `loadCases` puts them back).');
p();
p('## Versions');
p();
p(`- editcore ${versions[0] ?? ''} (commit ${versions[1] ?? '?'}), native CLI and WASI build`);
p(`- @google/gemini-cli-core ${pkg('@google/gemini-cli-core')} (\`calculateReplacement\`: exact, flexible, regex, fuzzy recovery; the tool\'s LLM self-correction is not run)`);
p(`- @modelcontextprotocol/server-filesystem ${pkg('@modelcontextprotocol/server-filesystem')} (\`applyFileEdits\` from dist/lib.js)`);
p(`- @openai/codex ${pkg('@openai/codex')} (\`codex --codex-run-as-apply-patch PATCH\` in a scratch directory)`);
p(`- diff (jsdiff) ${pkg('diff')} (\`applyPatch\`)`);
p(`- ${versions[3] ?? 'git'} (\`git apply\`, \`git apply --recount\`), ${versions[4] ?? 'GNU patch'} (\`patch --batch --forward -p1\`)`);
p(`- Node ${versions[2] ?? ''}`);
p();
p('## Reproduce');
p();
p('```sh');
p('bench/accuracy/run.sh          # fetch, corpus, every engine, this section of ACCURACY.md');
p('bench/accuracy/slice.sh        # the sampled slice scripts/test.sh runs, with its thresholds');
p('node bench/accuracy/run.mjs --cases bench/out/accuracy/cases.jsonl --engines editcore --form ws_tokens --verbose');
p('```');
p();
p('`fetch.mjs` downloads into `bench/out/corpus/` (git-ignored; about 27 MB of packages and 21 MB of Debian source indices,');
p('in a private apt configuration that leaves the machine\'s alone) and checks every file against');
p('`bench/accuracy/sources.lock.json`. The first corpus of issue 12 (four GitHub repositories, 1,724 requests) is replaced');
p('by this one; it still runs with `gen.mjs --mirrors DIR` where bare mirrors of those repositories exist (CI has none).');
p('<!-- accuracy:real-history:end -->');

const section = out.join('\n') + '\n';
if (!WRITE) process.stdout.write(section);
else {
  const doc = existsSync(WRITE) ? readFileSync(WRITE, 'utf8') : '';
  const a = doc.indexOf('<!-- accuracy:real-history:begin'), b = doc.indexOf('<!-- accuracy:real-history:end -->');
  const next = a >= 0 && b > a ? doc.slice(0, a) + section + doc.slice(b + '<!-- accuracy:real-history:end -->\n'.length) : section + '\n' + doc;
  writeFileSync(WRITE, next);
}
