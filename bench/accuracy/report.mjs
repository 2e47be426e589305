#!/usr/bin/env node
// ACCURACY.md from bench/out/accuracy/{cases,results}.jsonl (issue 12).
//   node bench/accuracy/report.mjs --out bench/out/accuracy > ACCURACY.md
import { readFileSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const OUT = argv.includes('--out') ? argv[argv.indexOf('--out') + 1] : 'bench/out/accuracy';
const jsonl = (p) => readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const cases = jsonl(join(OUT, 'cases.jsonl'));
const results = jsonl(join(OUT, 'results.jsonl'));
const corpus = JSON.parse(readFileSync(join(OUT, 'corpus.json'), 'utf8'));
const versions = existsSync(join(OUT, 'versions.txt')) ? readFileSync(join(OUT, 'versions.txt'), 'utf8').trim().split('\n') : [];
const pkg = (p) => { try { return JSON.parse(readFileSync(join(here, 'node_modules', p, 'package.json'), 'utf8')).version; } catch { return '?'; } };

const FORMS = ['exact', 'indent_level', 'indent_tabs', 'trailing_ws', 'over_escaped', 'ws_tokens', 'middle_wrong', 'typographic',
  'blank_missing', 'blank_extra', 'sr_aider', 'sr_cline', 'udiff_git', 'udiff_nolines', 'udiff_wrong_lines', 'codex_patch',
  'refuse_identifier', 'refuse_number', 'refuse_ambiguous'];
const FORM_TEXT = {
  exact: 'exact replace, minimal unique context', indent_level: 're-indented by one level', indent_tabs: 'tabs vs spaces',
  trailing_ws: 'trailing whitespace', over_escaped: 'over-escaped (`\\n`, `\\"` as text)', ws_tokens: 'whitespace between tokens collapsed/added',
  middle_wrong: 'a middle (removed) line slightly wrong', typographic: 'typographic quotes and dashes', blank_missing: 'a blank line missing',
  blank_extra: 'an extra blank line', sr_aider: 'SEARCH/REPLACE, Aider', sr_cline: 'SEARCH/REPLACE, Cline', udiff_git: 'unified diff as `git diff` writes it',
  udiff_nolines: 'unified diff, `@@ ... @@`', udiff_wrong_lines: 'unified diff, wrong start lines and counts', codex_patch: 'Codex patch',
  refuse_identifier: 'MUST REFUSE: an identifier the file lacks', refuse_number: 'MUST REFUSE: a number the file lacks',
  refuse_ambiguous: 'MUST REFUSE: a loose text that fits two places',
};
const ENGINES = ['editcore', 'editcore-wasi', 'gemini', 'editcore:gemini', 'mcp_edit_file', 'codex_apply_patch', 'editcore:codex',
  'jsdiff', 'git_apply', 'git_apply --recount', 'gnu_patch', 'editcore:aider', 'editcore:cline'];
const present = ENGINES.filter((e) => results.some((r) => r.engine === e));

const cell = {};
for (const r of results) {
  const k = `${r.engine}|${r.form}`;
  cell[k] ??= { n: 0, correct: 0, correct_ws: 0, refused: 0, wrong: 0 };
  cell[k].n++;
  cell[k][r.outcome]++;
}
const pct = (a, b) => (b ? (100 * a / b).toFixed(1) + ' %' : '–');
function totals(engine, ids) {
  const t = { pos: 0, ok: 0, exact: 0, wrong_pos: 0, ref: 0, refused: 0, wrong_ref: 0 };
  for (const r of results) {
    if (r.engine !== engine || (ids && !ids.has(r.id))) continue;
    if (r.kind === 'positive') { t.pos++; if (r.outcome === 'correct' || r.outcome === 'correct_ws') t.ok++; if (r.outcome === 'correct') t.exact++; if (r.outcome === 'wrong') t.wrong_pos++; }
    else { t.ref++; if (r.outcome === 'refused') t.refused++; else t.wrong_ref++; }
  }
  return t;
}

const out = [];
const p = (s = '') => out.push(s);
p('# Accuracy on real edits');
p();
p('How often an edit engine applies the edit the model meant — and how often it reports success while');
p('writing something else. The cases are built from real one-file commits of four repositories (Go with');
p('tabs, JavaScript with 2 spaces, Python and C with 4 spaces), sent in the forms and with the mistakes');
p('models actually make, each with its expected file (or expected error) checked when it was generated.');
p('Every engine is run for real: editcore\'s CLI and WASI build, Gemini CLI\'s `calculateReplacement`, the');
p('MCP filesystem server\'s `edit_file` (`applyFileEdits`), Codex\'s `apply_patch` binary, jsdiff\'s');
p('`applyPatch`, `git apply` (with and without `--recount`) and GNU `patch`.');
p();
p('Outcomes: **correct** = byte-identical to the commit; **ws** = equal once all whitespace is removed');
p('(for Python a leading-whitespace difference is not harmless: read ws as "needs a look");');
p('**refused** = the engine reported an error and changed nothing; **wrong** = success reported with other');
p('content (the worst outcome: silent corruption). For the must-refuse cases, refused is the right answer');
p('and wrong means the engine wrote an edit the model did not mean. Recall = (correct + ws) / positive cases.');
p();
p('## Headline');
p();
p('Each engine on the cases of the forms it takes; "editcore, same cases" is the `editcore` profile on');
p('exactly those cases.');
p();
p('| engine | forms | positive cases | recall | byte-identical | wrong (positive) | must-refuse refused | wrong (must-refuse) | editcore, same cases: recall / wrong |');
p('|---|---|---:|---:|---:|---:|---:|---:|---:|');
for (const e of present) {
  const ids = new Set(results.filter((r) => r.engine === e).map((r) => r.id));
  const forms = [...new Set(results.filter((r) => r.engine === e).map((r) => r.form))];
  const t = totals(e, ids), ec = totals('editcore', ids);
  const fl = forms.length === FORMS.length ? 'all' : forms.every((f) => f.startsWith('udiff')) ? 'unified diffs' : forms.length === 1 ? forms[0] : forms.some((f) => f === 'exact') ? 'replace (old/new) forms' : forms.join(', ');
  p(`| ${e} | ${fl} | ${t.pos} | ${pct(t.ok, t.pos)} | ${pct(t.exact, t.pos)} | ${t.wrong_pos} (${pct(t.wrong_pos, t.pos)}) | ${t.ref ? `${t.refused}/${t.ref}` : '–'} | ${t.ref ? t.wrong_ref : '–'} | ${e === 'editcore' ? '' : `${pct(ec.ok, ec.pos)} / ${ec.wrong_pos + ec.wrong_ref}`} |`);
}
p();
p('## Per form');
p();
p('Cells: correct / ws / refused / **wrong** (counts). A blank cell: the engine does not take that form.');
p('`editcore:<peer>` is editcore running that peer\'s profile (SPEC §5), which reproduces the peer, faults included.');
p();
const cols = present;
p(`| form | n | ${cols.join(' | ')} |`);
p(`|---|---:|${cols.map(() => '---').join('|')}|`);
for (const f of FORMS) {
  const n = cases.filter((c) => c.form === f).length;
  if (!n) continue;
  const cells = cols.map((e) => {
    const c = cell[`${e}|${f}`];
    if (!c) return '';
    return `${c.correct} / ${c.correct_ws} / ${c.refused} / ${c.wrong ? `**${c.wrong}**` : 0}`;
  });
  p(`| ${FORM_TEXT[f]} | ${n} | ${cells.join(' | ')} |`);
}
p();

// editcore notes
const ecr = results.filter((r) => r.engine === 'editcore');
const notExact = ecr.filter((r) => r.kind === 'positive' && r.outcome !== 'correct');
const msgOff = ecr.filter((r) => r.kind === 'refuse' && r.outcome === 'refused' && !(r.code_ok && r.msg_ok));
const wasi = results.filter((r) => r.engine === 'editcore-wasi');
p('## editcore: where it is not byte-identical, and its refusals');
p();
const t = totals('editcore');
p(`- Positive cases: ${t.pos}; recall ${pct(t.ok, t.pos)}; byte-identical ${pct(t.exact, t.pos)}; wrong ${t.wrong_pos}.`);
p(`- Must-refuse cases: ${t.ref}; refused ${t.refused}; wrong ${t.wrong_ref}. With the expected code and a message naming the file's line (the differing one, or every matching place): ${t.refused - msgOff.length}/${t.ref}.`);
if (wasi.length) p(`- WASI build: ${wasi.length} responses, ${wasi.filter((r) => r.differs_from_native).length} differ from the native CLI's (\`stats\` aside).`);
const byForm = {};
for (const r of notExact) (byForm[r.form] ??= []).push(r);
const WHY = {
  blank_missing: 'the blank line the model left out sits inside the changed lines (not next to a context line new_string repeats), so the model\'s new text — without it — is written',
  indent_tabs: 'the model\'s tabs stand for 2 spaces in a 2-space file (or its spaces for a tab) and a changed line\'s relative indentation does not map one to one; the content is right, the indentation of the changed lines differs',
  indent_level: 'a changed line indented differently from any line of old_string; its relative indentation cannot be learnt from the matched lines',
  ws_tokens: 'the whitespace difference is on a line the model changes, so its version is written',
};
for (const [f, rs] of Object.entries(byForm)) {
  const outc = [...new Set(rs.map((r) => r.outcome))].join('/');
  p(`- ${FORM_TEXT[f]}: ${rs.length} ${outc}${WHY[f] ? ` — ${WHY[f]}` : ''}: ${rs.slice(0, 8).map((r) => '`' + r.id + '`').join(', ')}${rs.length > 8 ? ', …' : ''}`);
}
if (msgOff.length) p(`- Refused, but the message names old_string's line and another "closest place" rather than the file's line: ${msgOff.map((r) => '`' + r.id + '`').join(', ')}.`);
p();
p('## The corpus');
p();
p(`Seed ${corpus.seed}, ${corpus.per_repo} base edits per repository (one hunk of a one-file commit, old_string`);
p('extended by context lines until it is unique), then every form that applies to that edit:');
p();
p('| repository | pinned commit | indentation | base edits |');
p('|---|---|---|---:|');
const IND = { 'junegunn/fzf': 'Go, tabs', 'axios/axios': 'JavaScript, 2 spaces', 'psf/requests': 'Python, 4 spaces', 'redis/hiredis': 'C, 4 spaces' };
for (const r of corpus.repos) p(`| ${r.repo} | \`${r.commit.slice(0, 12)}\` | ${IND[r.repo] ?? ''} | ${r.base_edits} |`);
p();
p('How the mistakes are made (bench/accuracy/gen.mjs): indentation shifted one level (or less where every line has one) in');
p('old and new; leading tabs as 4 spaces, or spaces as tabs; trailing spaces/tabs on alternate old lines; old and new');
p('JSON-escaped once more; one line\'s whitespace around a punctuation token removed or added (repeated in new when');
p('the line is context); two letters swapped in a removed middle line; straight quotes and dashes made typographic;');
p('a blank line inside old left out, or one added (in new too when context). SEARCH/REPLACE blocks as Aider');
p('(filename, fence) and Cline write them; unified diffs from `git diff` (checked with `git apply`), the same hunk under');
p('`@@ ... @@`, and with start lines shifted by 3–32 and counts off by 1–2; Codex patches with a bare `@@`.');
p('Must refuse: an identifier renamed to one the file does not have, or a number changed, on a context line that');
p('new_string repeats (applying it would write a line the file never had); a 2–3 line block found at two or more');
p('places sent re-indented, and any whitespace-level mistake case whose old text then fits several places.');
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
p('bench/accuracy/run.sh          # corpus, every engine, this file (about 8 minutes on 2 cores)');
p('```');
p();
p('The four repositories are read from bare mirrors (`$ACCURACY_MIRROR/<owner>+<name>/repo`, default');
p('`/work/.mirror`); no code of theirs is committed — the cases are regenerated under `bench/out/accuracy/`');
p('(git-ignored). The peers are the devDependencies of `bench/accuracy/package.json`. One engine or form:');
p('`node bench/accuracy/run.mjs --engines editcore --form ws_tokens --verbose`.');
process.stdout.write(out.join('\n') + '\n');
