#!/usr/bin/env node
// Robustness of the lazy merge: the same edits written differently (issue 21, "equally on real
// snippets you have not seen"). Every case of ../shared/lazy/multi-turn.jsonl (read at run time,
// never copied: its licence is unclear) is rewritten in ways other models write the same edit, and
// each variant goes through the native CLI (`editcore json`, format "lazy", as bench/lazy_real.mjs).
// A variant's result is compared with the unperturbed case's result (the base), modulo what the
// variant changed (line ends, the final newline, trailing whitespace):
//   same       — the same file
//   same-ws    — equal once lines are trimmed and blank lines dropped (a blank line the variant
//                added around a marker is written, say)
//   lost       — the base succeeded, the variant is declined (recall fragility; never wrong)
//   declined   — both declined
//   gained     — the base was declined, the variant succeeds and equals the expectation (mod ws)
//   different  — any other success: a wrong merge candidate, listed with its first differing line
// The variant kinds:
//   marker:<spelling>   every marker line respelled, its indentation kept: `// ... existing code ...`,
//                       `# ...`, `/* ... */`, `<!-- ... -->`, `-- ...`, `// ...`, `// ... rest of the
//                       code ...`, `// existing code unchanged`, `// … existing code …`,
//                       `{/* ... */}`, `# ...`, a bare `...` (the comment syntax need not be the
//                       file's: models put `//` markers in Python)
//   marker:unindented / marker:indent+4   every marker at column 0, or 4 columns deeper
//   blank:add / blank:remove   a blank line before and after every marker, or none beside any
//   blank:edges         a blank line before the snippet and after it
//   indent:dedented     the snippet's common indentation removed (a method written at column 0)
//   indent:tabs         the snippet indented with tabs, a level per tab (the file keeps spaces)
//   indent:file-tabs    the file indented with tabs, a level per tab, the snippet in spaces as the
//                       model wrote it (compared with the base's result in tabs)
//   marker:doubled      every marker written twice in a row
//   fence               the snippet in a Markdown code fence (```ext ... ```)
//   context:top-1 / context:bottom-1   one unchanged line less of context: the first line after
//                       each marker (the last before it) left to the marker, when it and the line
//                       next to it are lines the file has once, next to each other in the file
//                       and in the base result (so the dropped line witnessed no removal)
//   trailing-ws         two spaces after every non-blank snippet line
//   crlf:both / crlf:file / crlf:snippet   CRLF line ends in the file and the snippet, or only one
//                       (a host reading a Windows file while the model writes LF)
//   final-nl:snippet    the snippet's final newline toggled (most snippets have none)
//   final-nl:file       the file without its final newline
//   swap:<i>            segments i and i+1 (between markers) swapped: the same edit listed in
//                       another order (each segment keeps the markers around its slot)
//   no-instruction      the `instruction` field removed
// Excluded (the variant changes meaning there, so a different result is not a wrong merge):
//   - swap:<i> where either swapped segment has no line the file holds once (trimmed): such a
//     segment (new code, `}`, `return x`) is placed only by its order, so moving it moves the code;
//     and where either sits at the snippet's start or end with no marker there: an unmarked edge
//     means the file's own start or end, so a segment moved there or away changes place; and
//     where either changes nothing (every line a file line): unchanged code shown out of order
//     may be code the model means to move, which a lazy snippet cannot say (declined on purpose).
//   - indent:* in diff-style snippets: the indentation sits after a `+`/`-`/space prefix on some
//     lines and not on others, so re-indenting it is no one consistent way to write the snippet
//     (a context line in tabs beside `+` lines in spaces reads as another diff dialect).
//   - context:* where the dropped line and its neighbour are not next to each other in the file
//     and in the base result: the dropped line then witnesses lines the snippet removes between
//     them (leaving it to a marker keeps those lines).
//   - blank:remove where the base is declined by invariant (a) (new lines, a blank line, then a
//     marker, the file going on right there with a line of the same block): the blank line the
//     variant removes is what leaves the new lines' end open; without it the snippet says they go
//     above that line (docs/lazy.md, invariant a).
//   - marker:<spelling> where the base is declined by invariant (i) (a marker in words of its own,
//     sharing a word with the comment it stands in place of: that comment kept, or the marker its
//     new label?): the decline rests on the marker's words, which a respelling drops; with
//     `// ... existing code ...` there the marker standing for the comment is the usual sound
//     reading (wild batch 4's create-gateway/page.tsx: 16 respellings merged as main did before (i)).
// No marker spelling had to be excluded for a language: a marker-looking line the file itself
// holds is literal text to the engine, and no spelling above is a statement in any of the eight
// languages (`-- ...` is no C decrement, `# ...` no directive, `<!-- -->` a comment even in JS).
// `// ... helpers and setup` (an ellipsis, then words no marker uses) is a marker since issue 30's
// eighth pass (markers in other words and languages), unless it goes on from a comment line of the
// same syntax right above it (`// ...then validate` under `// Parse the input`): those stay lost.
// Markers in the set are never `+`/`-` prefixed, so diff-style snippets keep every marker kind.
//
//   node bench/lazy_variants.mjs [--set PATH [--reviewed JSON]] [--native PATH] [--kind SUBSTR]
//        [--declined-bases] [--id SUBSTR] [--show different,lost,gained,unread] [--dump DIR] [--markdown]
//
// Bases from another set (issue 30: snippets closer to what users send): `--set DIR/cases.jsonl`
// (a built set: bench/lazy-wild, bench/lazy-fresh, bench/lazy-heldout) with `--reviewed JSON`
// (its reviewed.json). Then a case is a base only where the engine's current output scores right
// or ws-only by bench/lazy_real.mjs's rules (bench/lazy_verdict.mjs): against the case's
// expectation where it has one (strict: a ws-only output with a blank line the snippet does not
// ask for is no base), else as reviewed.json records that exact output (its SHA-256). A declined,
// wrong, unread or exp-wrong base is left out (a variant of a wrong merge says nothing about
// precision), so `declined` and `gained` stay 0 there. Without --reviewed every case is a base.
// `--declined-bases` (with --reviewed) takes the cases the engine declines as bases too: a variant
// that succeeds there is `gained` or `different` against the case's expectation where it has one,
// else `unread` (no expectation: listed with --show unread, to be read by hand). A decline that a
// rewording slips past is a wrong-merge candidate of its own (a self-check read from the marker's
// indentation, evaded by a marker written at column 0, was found this way).
//
// --dump writes <id>__<kind>.{orig,snippet,base,got} for every listed variant. The exit status is
// 1 when any variant is a different success.
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs, readCases } from './lazy_set.mjs';
import { verdictOf, shortId } from './lazy_verdict.mjs';

const args = parseArgs({ kind: null, show: new Set(['different']), reviewed: null }, {
  '--kind': (a, next) => { a.kind = next(); },
  '--reviewed': (a, next) => { a.reviewed = next(); },
  '--declined-bases': (a) => { a.declinedBases = true; },
});
const cases = readCases(args.set, args.id);
const reviewed = args.reviewed ? JSON.parse(readFileSync(args.reviewed, 'utf8')) : null;
const norm = (t) => t.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');

// ---- the variants ----------------------------------------------------------------------------
// A marker line: a comment whose text starts with dots (`// ... existing code ...`,
// `-- ... existing code ...`, `# ...`), that the file does not hold itself; or, where the base
// succeeded, any comment line that neither the file nor the base's result holds: the engine read
// it as a marker (`{/* Rest of the components remain the same */}` in the wild sets; no line of
// ../shared/lazy is one, its markers all start with dots).
const MARKER = /^(\/\/+|#+|--|\/\*+|<!--|\{\/\*)\s*(\.\.\.|…)/;
const COMMENT = /^(\/\/+|#+|--|\/\*+|<!--|\{\/\*)/;
function markerLines(lines, fileSet, baseGot) {
  const inBase = baseGot === undefined ? null : new Set(baseGot.split('\n').map((l) => l.trim()));
  return lines.map((l) => { const t = l.trim(); return !fileSet.has(t) && (MARKER.test(t) || (inBase !== null && COMMENT.test(t) && !inBase.has(t))); });
}
const indentOf = (l) => l.match(/^[ \t]*/)[0];
const SPELLINGS = {
  'marker://': '// ... existing code ...',
  'marker:#': '# ... existing code ...',
  'marker:/* */': '/* ... existing code ... */',
  'marker:<!-- -->': '<!-- ... existing code ... -->',
  'marker:--': '-- ... existing code ...',
  'marker:// ...': '// ...',
  'marker:rest of the code': '// ... rest of the code ...',
  'marker:no dots': '// existing code unchanged',
  'marker:…': '// … existing code …',
  'marker:{/* */}': '{/* ... existing code ... */}',
  'marker:# ...': '# ...',
  'marker:bare ...': '...',
  'marker:own words': '// ... helpers and setup ...',
  'marker:(snip)': '// ... (snip) ...',
  'marker:... words': '// ... helpers and setup',
  'marker:[...]': '// [...]',
};

// Leading spaces as tabs, `unit` columns a tab (a remainder stays spaces).
function toTabs(text, unit) {
  return text.split('\n').map((l) => { const w = l.match(/^ */)[0].length; return '\t'.repeat(Math.floor(w / unit)) + ' '.repeat(w % unit) + l.slice(w); }).join('\n');
}

// Split a snippet into marker lines and the segments between them.
function segmentsOf(lines, isMarker) {
  const parts = []; // {marker: true, line} | {marker: false, lines: []}
  for (let i = 0; i < lines.length; i++) {
    if (isMarker[i]) { parts.push({ marker: true, line: lines[i] }); continue; }
    const last = parts[parts.length - 1];
    if (last && !last.marker) last.lines.push(lines[i]);
    else parts.push({ marker: false, lines: [lines[i]] });
  }
  return parts;
}

function variantsOf(c, baseGot) {
  const path = c.edit.path ?? Object.keys(c.files)[0];
  const file = c.files[path];
  const snip = c.edit.snippet;
  const fileSet = new Set(file.split('\n').map((l) => l.trim()));
  const lines = snip.split('\n');
  const isM = markerLines(lines, fileSet, baseGot);
  const out = [];
  const withSnippet = (kind, s, extra = {}) => out.push({ kind, file, snippet: s, instruction: c.edit.instruction, ...extra });
  const anyMarker = isM.some(Boolean);
  if (anyMarker) {
    for (const [kind, sp] of Object.entries(SPELLINGS))
      withSnippet(kind, lines.map((l, i) => (isM[i] ? indentOf(l) + sp : l)).join('\n'));
    withSnippet('marker:doubled', lines.flatMap((l, i) => (isM[i] ? [l, l] : [l])).join('\n'));
    withSnippet('marker:unindented', lines.map((l, i) => (isM[i] ? l.trimStart() : l)).join('\n'));
    withSnippet('marker:indent+4', lines.map((l, i) => (isM[i] ? '    ' + l : l)).join('\n'));
    const add = [];
    lines.forEach((l, i) => {
      if (isM[i]) {
        if (add.length && add[add.length - 1].trim() !== '') add.push('');
        add.push(l);
        if (i + 1 < lines.length && lines[i + 1].trim() !== '') add.push('');
      } else add.push(l);
    });
    withSnippet('blank:add', add.join('\n'));
    // A run of blank lines next to a marker goes whole.
    const keep = lines.map(() => true);
    for (let i = 0; i < lines.length; i++) {
      if (!isM[i]) continue;
      for (let j = i - 1; j >= 0 && lines[j].trim() === '' && !isM[j]; j--) keep[j] = false;
      for (let j = i + 1; j < lines.length && lines[j].trim() === '' && !isM[j]; j++) keep[j] = false;
    }
    withSnippet('blank:remove', lines.filter((_, i) => keep[i]).join('\n'));
  }
  // The snippet's common indentation removed (a method written at column 0), or its indentation
  // in tabs (a level per tab, the snippet's unit the smallest indentation it has).
  const body = lines.filter((l, i) => l.trim() && !isM[i]);
  const common = body.length ? Math.min(...body.map((l) => indentOf(l).length)) : 0;
  const diffStyle = c.meta?.shape?.diff_style;
  if (!diffStyle && common > 0 && body.every((l) => !indentOf(l).includes('\t')))
    withSnippet('indent:dedented', lines.map((l, i) => (l.trim() && !isM[i] ? l.slice(common) : isM[i] ? l.trimStart() : l)).join('\n'));
  const widths = body.map((l) => indentOf(l)).filter((w) => w.length && !w.includes('\t')).map((w) => w.length);
  const unit = widths.length ? Math.min(...widths) : 0;
  if (!diffStyle && unit && widths.every((w) => w % unit === 0) && body.every((l) => !indentOf(l).includes('\t')))
    withSnippet('indent:tabs', lines.map((l) => { const w = indentOf(l).length; return '\t'.repeat(Math.floor(w / unit)) + ' '.repeat(w % unit) + l.slice(w); }).join('\n'));
  const ext = path.replace(/^.*\./, '');
  withSnippet('fence', `\`\`\`${ext}\n${snip.replace(/\n$/, '')}\n\`\`\``);
  // The file indented with tabs (a level per tab, its unit the smallest indentation it has),
  // the snippet as the model wrote it (spaces): the result compared with the base's in tabs.
  const fw = file.split('\n').map((l) => indentOf(l)).filter((w) => w.length && !w.includes('\t')).map((w) => w.length);
  const funit = fw.length ? Math.min(...fw) : 0;
  if (funit && !file.includes('\n\t') && fw.filter((w) => w % funit === 0).length === fw.length)
    out.push({ kind: 'indent:file-tabs', file: toTabs(file, funit), snippet: snip, instruction: c.edit.instruction, unit: funit });
  withSnippet('blank:edges', `\n${snip.replace(/\n$/, '')}\n\n`);
  // Less context: the first line of each segment after a marker (and the last before one) left
  // to the marker, when it is an unchanged line (once in the file, once in the base's result)
  // and the line next to it inside the segment is one too, so the segment still starts (ends)
  // with context.
  if (anyMarker && baseGot !== undefined) {
    const once = (text) => { const m = new Map(); for (const l of text.split('\n')) { const t = l.trim(); if (t) m.set(t, (m.get(t) ?? 0) + 1); } return m; };
    const inFile = once(file), inBase = once(baseGot);
    const kept = (l) => l !== undefined && l.trim() && !MARKER.test(l.trim()) && inFile.get(l.trim()) === 1 && inBase.get(l.trim()) === 1;
    // Whether line b follows line a (dir 1) or precedes it (-1) in a text, blank lines aside: a
    // dropped line must be context of its neighbour, not the witness of lines left out between.
    const nonBlank = (text) => text.split('\n').map((l) => l.trim()).filter(Boolean);
    const fileNB = nonBlank(file), baseNB = nonBlank(baseGot);
    const next = (nb, a, b, dir) => { const i = nb.indexOf(a.trim()); return i >= 0 && nb[i + dir] === b.trim(); };
    for (const [kind, dir] of [['context:top-1', 1], ['context:bottom-1', -1]]) {
      const drop = new Set();
      lines.forEach((l, i) => {
        if (!isM[i]) return;
        let a = i + dir;
        while (a >= 0 && a < lines.length && !lines[a].trim()) a += dir;
        let b = a + dir;
        while (b >= 0 && b < lines.length && !lines[b].trim()) b += dir;
        if (a >= 0 && a < lines.length && !isM[a] && kept(lines[a]) && b >= 0 && b < lines.length && !isM[b] && kept(lines[b]) &&
            next(fileNB, lines[a], lines[b], dir) && next(baseNB, lines[a], lines[b], dir))
          for (let k = i + dir; k !== b; k += dir) drop.add(k); // the line and the blank lines around it
      });
      if (drop.size) withSnippet(kind, lines.filter((_, i) => !drop.has(i)).join('\n'));
    }
  }
  withSnippet('trailing-ws', lines.map((l) => (l.trim() ? l + '  ' : l)).join('\n'));
  const crlf = (t) => t.replace(/\r?\n/g, '\r\n');
  out.push({ kind: 'crlf:both', file: crlf(file), snippet: crlf(snip), instruction: c.edit.instruction });
  out.push({ kind: 'crlf:file', file: crlf(file), snippet: snip, instruction: c.edit.instruction });
  out.push({ kind: 'crlf:snippet', file, snippet: crlf(snip), instruction: c.edit.instruction });
  withSnippet('final-nl:snippet', snip.endsWith('\n') ? snip.replace(/\n+$/, '') : snip + '\n');
  if (file.endsWith('\n'))
    out.push({ kind: 'final-nl:file', file: file.replace(/\n$/, ''), snippet: snip, instruction: c.edit.instruction });
  // Swaps of adjacent segments, each keeping the markers of its slot.
  const parts = segmentsOf(lines, isM);
  const segIdx = parts.map((p, i) => (p.marker ? -1 : i)).filter((i) => i >= 0);
  // A line the file holds once (trimmed, a diff prefix aside) places its segment on its own; a
  // segment without one (`}`, `Ok(())` and new code) is placed by its order, so a swap moves it.
  const fileCount = new Map();
  for (const l of file.split('\n')) { const t = l.trim(); if (t) fileCount.set(t, (fileCount.get(t) ?? 0) + 1); }
  const placedAlone = (seg) => seg.lines.some((l) => fileCount.get(l.replace(/^[+ -](?![+-])/, '').trim()) === 1);
  // A segment that changes nothing (every line a file line), listed out of order, may mean the
  // code moves, which markers cannot say: the engine declines that on purpose.
  const changes = (seg) => seg.lines.some((l) => { const t = l.replace(/^[+ -](?![+-])/, '').trim(); return t && !fileCount.has(t); }) ||
    seg.lines.some((l) => /^-(?!-)/.test(l));
  const bracketed = (pi) => pi > 0 && pi + 1 < parts.length; // a marker on both sides
  for (let k = 0; k + 1 < segIdx.length; k++) {
    const a = parts[segIdx[k]], b = parts[segIdx[k + 1]];
    if (!bracketed(segIdx[k]) || !bracketed(segIdx[k + 1]) || !placedAlone(a) || !placedAlone(b) || !changes(a) || !changes(b)) continue;
    const sw = parts.slice();
    sw[segIdx[k]] = b;
    sw[segIdx[k + 1]] = a;
    withSnippet(`swap:${k + 1}`, sw.flatMap((p) => (p.marker ? [p.line] : p.lines)).join('\n'));
  }
  out.push({ kind: 'no-instruction', file, snippet: snip, instruction: undefined });
  return out;
}

// ---- running ---------------------------------------------------------------------------------
function run(path, file, snippet, instruction) {
  const edit = { path, snippet };
  if (instruction !== undefined) edit.instruction = instruction;
  const req = JSON.stringify({ format: 'lazy', files: { [path]: file }, edit, profile: 'editcore' });
  const r = spawnSync(args.native, ['json'], { input: req, maxBuffer: 1 << 28 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`CLI exited ${r.status}: ${r.stderr}`);
  const resp = JSON.parse(r.stdout.toString('utf8'));
  if (resp.status === 'error') return { ok: false, msg: `${resp.error.code}: ${resp.error.message}` };
  return { ok: true, got: resp.data?.files?.[path]?.content ?? file };
}

// What the variant changed, undone on both sides before comparing.
function canon(kind, t) {
  if (kind.startsWith('crlf')) t = t.replace(/\r\n/g, '\n');
  if (kind.startsWith('final-nl')) t = t.replace(/\n$/, '');
  if (kind === 'trailing-ws') t = t.split('\n').map((l) => l.trimEnd()).join('\n');
  return t;
}
function firstDiff(want, got) {
  const a = want.split('\n'), b = got.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `line ${i + 1}: base ${JSON.stringify(a[i] ?? '<eof>')} got ${JSON.stringify(b[i] ?? '<eof>')} (base ${a.length} lines, got ${b.length})`;
}
// A CRLF file must come back CRLF throughout (a bare LF among CRLF lines is a defect of its own).
const eolMixed = (file, got) => file.includes('\r\n') && /(^|[^\r])\n/.test(got);

const CLASSES = ['same', 'same-ws', 'lost', 'declined', 'gained', 'different', ...(args.declinedBases ? ['unread'] : [])];
const table = new Map();
const perLang = new Map();
const listed = [];
let mixed = 0;
const baseVerdicts = new Map(); // with --reviewed: the bases' verdicts (only right and ws-only are used)
for (const c of cases) {
  const path = c.edit.path ?? Object.keys(c.files)[0];
  const base = run(path, c.files[path], c.edit.snippet, c.edit.instruction);
  const want = c.expect.files?.[path];
  if (reviewed) {
    const v = verdictOf(c, base.ok ? base.got : undefined, reviewed, base.msg);
    const key = v.blank ? 'ws-only (blank lines not asked: wrong)' : v.verdict;
    baseVerdicts.set(key, (baseVerdicts.get(key) ?? 0) + 1);
    const declinedBase = args.declinedBases && v.verdict === 'declined';
    if (!declinedBase && ((v.verdict !== 'right' && v.verdict !== 'ws-only') || v.blank)) continue;
  }
  for (const v of variantsOf(c, base.ok ? base.got : undefined)) {
    if (args.kind && !v.kind.includes(args.kind)) continue;
    if (v.kind === 'blank:remove' && !base.ok && /invariant a\b/.test(base.msg)) continue;
    if (SPELLINGS[v.kind] && !base.ok && /named in words of its own/.test(base.msg)) continue;
    const r = run(path, v.file, v.snippet, v.instruction);
    let cls, detail = '';
    if (!r.ok) { cls = base.ok ? 'lost' : 'declined'; detail = r.msg; }
    else {
      const g = canon(v.kind, r.got);
      if (eolMixed(v.file, r.got)) mixed++;
      if (base.ok) {
        const b = canon(v.kind, v.unit ? toTabs(base.got, v.unit) : base.got);
        if (g === b) cls = 'same';
        else if (norm(g) === norm(b)) cls = 'same-ws';
        else { cls = 'different'; detail = firstDiff(b, g); }
      } else if (want == null) {
        cls = 'unread'; detail = 'the base is declined and the case has no expectation: read it';
      } else {
        const w = canon(v.kind, v.unit ? toTabs(want, v.unit) : want);
        if (norm(g) === norm(w)) cls = 'gained';
        else { cls = 'different'; detail = `(base declined) vs expectation ${firstDiff(w, g)}`; }
      }
    }
    const group = v.kind.startsWith('swap:') ? 'swap' : v.kind;
    if (!table.has(group)) table.set(group, Object.fromEntries(CLASSES.map((x) => [x, 0])));
    table.get(group)[cls]++;
    const lang = path.replace(/^.*\./, '.');
    const lk = `${group} ${lang}`;
    if (!perLang.has(lk)) perLang.set(lk, Object.fromEntries(CLASSES.map((x) => [x, 0])));
    perLang.get(lk)[cls]++;
    if (args.show.has(cls)) {
      listed.push({ cls, id: shortId(c.id), kind: v.kind, detail });
      console.log(`${cls.padEnd(9)} ${v.kind.padEnd(22)} ${shortId(c.id)}\n          ${detail}`);
      if (args.dump) {
        mkdirSync(args.dump, { recursive: true });
        // The kind percent-encoded (`%` as `_`): `marker://` and `marker:#` must not share a file.
        const b = join(args.dump, `${shortId(c.id).replace(/\//g, '__')}__${encodeURIComponent(v.kind).replace(/%/g, '_')}`);
        writeFileSync(`${b}.orig`, v.file);
        writeFileSync(`${b}.snippet`, v.snippet);
        writeFileSync(`${b}.base`, base.ok ? base.got : `DECLINED ${base.msg}\n`);
        writeFileSync(`${b}.got`, r.ok ? r.got : `DECLINED ${r.msg}\n`);
        if (want != null) writeFileSync(`${b}.want`, want);
      }
    }
  }
}

const total = Object.fromEntries(CLASSES.map((x) => [x, 0]));
for (const v of table.values()) for (const x of CLASSES) total[x] += v[x];
if (args.markdown) {
  console.log(`\n| variant kind | variants | ${CLASSES.join(' | ')} |`);
  console.log(`|---|---:|${CLASSES.map(() => '---:').join('|')}|`);
  for (const [k, v] of [...table.entries(), ['**all**', total]]) {
    const n = CLASSES.reduce((s, x) => s + v[x], 0);
    const label = SPELLINGS[k] ? `marker \`${SPELLINGS[k]}\`` : k;
    console.log(`| ${label} | ${n} | ${CLASSES.map((x) => v[x]).join(' | ')} |`);
  }
} else {
  console.log(`\n${'variant kind'.padEnd(24)} variants ${CLASSES.map((x) => x.padStart(9)).join('')}`);
  for (const [k, v] of [...table.entries(), ['all', total]]) {
    const n = CLASSES.reduce((s, x) => s + v[x], 0);
    console.log(`${k.padEnd(24)} ${String(n).padStart(8)} ${CLASSES.map((x) => String(v[x]).padStart(9)).join('')}`);
  }
}
const n = CLASSES.reduce((s, x) => s + total[x], 0);
if (reviewed) console.log(`\nbases: ${[...baseVerdicts].map(([k, v]) => `${v} ${k}`).join(', ')} (only right and ws-only are bases${args.declinedBases ? ', and declined' : ''})`);
console.log(`\n${cases.length} cases, ${n} variants: ${total.same} same, ${total['same-ws']} same-ws, ${total.lost} lost (declined where the base succeeds), ` +
  `${total.declined} declined as the base, ${total.gained} gained, ${total.different} different success` +
  `${args.declinedBases ? `, ${total.unread} unread (a success where the base declines, no expectation)` : ''}; ${mixed} with mixed line ends in a CRLF file`);
process.exit(total.different ? 1 : 0);
