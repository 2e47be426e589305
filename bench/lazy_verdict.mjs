// How a lazy merge's output is scored against a case (bench/lazy_real.mjs's rules, shared with
// bench/lazy_variants.mjs, which takes as bases only the cases whose output scores right or
// ws-only): the verdict of one output, with the strict line for blank lines.
import { createHash } from 'node:crypto';

export const VERDICTS = ['right', 'ws-only', 'declined', 'wrong', 'exp-wrong'];
export const sha = (t) => createHash('sha256').update(t).digest('hex').slice(0, 16);
export const shortId = (id) => id.replace(/^editcore\/lazy-public#/, '');
const norm = (t) => t.split('\n').map((l) => l.trim()).filter(Boolean).join('\n');
const normKeepIndent = (t) => t.split('\n').map((l) => l.trimEnd()).filter(Boolean).join('\n');
const indentIsSyntax = (path) => /\.(py|pyi|ya?ml|mk|hs|fs|fsx|nim|coffee)$|(^|\/)(Makefile|GNUmakefile)$/.test(path);

/**
 * The verdict of `got` (the merged file, undefined for a decline with `msg`) for case `c`:
 * `{verdict, msg, blank}`. A case with no expectation (the wild and fresh sets) is right or
 * ws-only only as `reviewed` records it for this exact output (its SHA-256); unread, it is wrong.
 */
export function verdictOf(c, got, reviewed, msg) {
  if (got === undefined) return { verdict: 'declined', msg };
  const path = c.edit.path ?? Object.keys(c.files)[0];
  const want = c.expect.files?.[path];
  if (want == null) {
    const rev = reviewed[shortId(c.id)];
    if (rev && rev.sha256_16 === sha(got) && VERDICTS.includes(rev.verdict)) return { verdict: rev.verdict, msg: `reviewed: ${rev.reason}` };
    return { verdict: 'wrong', msg: `no expectation and not reviewed (output sha256/16 ${sha(got)})` };
  }
  if (got === want) return { verdict: 'right' };
  const n = indentIsSyntax(path) ? normKeepIndent : norm;
  if (n(got) === n(want)) {
    const bad = blankNotAsked(got, want, c.meta?.shape?.diff_style ? undiff(c.edit.snippet) : c.edit.snippet, c.files[path]);
    return { verdict: 'ws-only', blank: bad, msg: bad ? `blank lines: ${bad}` : undefined };
  }
  const rev = reviewed[shortId(c.id)];
  if (rev && rev.sha256_16 === sha(got)) return { verdict: 'exp-wrong', msg: `expectation reviewed as wrong: ${rev.reason}` };
  return { verdict: 'wrong', msg: `${firstDiff(want, got)} (output sha256/16 ${sha(got)})` };
}

// A diff-style snippet as the lines it writes: `+` and context lines without their prefix, `-` lines left out.
const undiff = (t) => t.split('\n').filter((l) => !l.startsWith('-')).map((l) => /^[+ ]/.test(l) ? l.slice(1) : l).join('\n');
// The non-blank lines (trimmed) with the count of blank lines before each (and after the last).
function runsOf(text) {
  const out = [];
  let blanks = 0;
  for (const l of text.split('\n')) {
    if (!l.trim()) { blanks++; continue; }
    out.push({ t: l.trim(), before: blanks });
    blanks = 0;
  }
  out.push({ t: null, before: blanks });
  return out;
}
// A marker line as the set writes them (a comment whose text starts with an ellipsis).
const MARKER = /^(\/\/+|#+|--|\/\*+|<!--|\{\/\*)\s*(\.\.\.|…)/;
// Where got and want (the same non-blank lines) differ in blank lines that the snippet does not
// show as got has them: a description of the first such place, or null when there is none.
function blankNotAsked(got, want, snippet, orig) {
  const g = runsOf(got.replace(/\n$/, '')), w = runsOf(want.replace(/\n$/, '')), s = runsOf(snippet.replace(/\n$/, ''));
  if (g.length !== w.length) return 'the non-blank lines differ';
  const o = runsOf(orig.replace(/\n$/, ''));
  const key = (...p) => p.join('\u0000');
  const shown = new Set(), beforeMarker = new Set(), afterMarker = new Set();
  for (let k = 1; k < s.length; k++) {
    if (s[k - 1].t === null || s[k].t === null) continue;
    const m0 = MARKER.test(s[k - 1].t), m1 = MARKER.test(s[k].t);
    if (!m0 && !m1) shown.add(key(s[k - 1].t, s[k].before, s[k].t));
    if (!m0 && m1) beforeMarker.add(key(s[k - 1].t, s[k].before));
    if (m0 && !m1) afterMarker.add(key(s[k].before, s[k].t));
  }
  const fileBefore = new Set(), fileAfter = new Set();
  for (let k = 1; k < o.length; k++) {
    if (o[k].t !== null) fileBefore.add(key(o[k].before, o[k].t));
    if (o[k - 1].t !== null) fileAfter.add(key(o[k - 1].t, o[k].before));
  }
  for (let k = 0; k < g.length; k++) {
    if (g[k].before === w[k].before) continue;
    const prev = k ? g[k - 1].t : null, cur = g[k].t, n = g[k].before;
    if (prev !== null && cur !== null) {
      if (shown.has(key(prev, n, cur))) continue;
      // The snippet's last line before a marker, then the run's first line (a file line).
      const snippetToRun = [...beforeMarker].some((x) => x.startsWith(key(prev, ''))) && [...fileBefore].some((x) => x.endsWith(key('', cur)));
      if (snippetToRun && (beforeMarker.has(key(prev, n)) || fileBefore.has(key(n, cur)))) continue;
      // The run's last line (a file line), then the snippet's first line after the marker.
      const runToSnippet = [...afterMarker].some((x) => x.endsWith(key('', cur))) && [...fileAfter].some((x) => x.startsWith(key(prev, '')));
      if (runToSnippet && (afterMarker.has(key(n, cur)) || fileAfter.has(key(prev, n)))) continue;
    }
    return `${n} blank line(s) before ${JSON.stringify(cur ?? '<eof>')} where the expectation has ${w[k].before} and neither the snippet nor the file shows ${n} there`;
  }
  return null;
}

export function firstDiff(want, got) {
  const a = want.split('\n'), b = got.split('\n');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `first difference at line ${i + 1}: want ${JSON.stringify(a[i] ?? '<eof>')} got ${JSON.stringify(b[i] ?? '<eof>')} (want ${a.length} lines, got ${b.length})`;
}
