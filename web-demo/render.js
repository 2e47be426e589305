// Rendering the engine's response: a highlighted unified diff, the matches table, and a failing
// edit's candidates shown in place in the file (line numbers, the candidate lines marked).

/** A DOM element with a class and text (or children). */
export function el(tag, className, ...children) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  for (const c of children) e.append(c);
  return e;
}

/** One span per diff line, classed by its role (header, hunk, added, removed, context). */
export function renderDiff(pre, diff) {
  pre.replaceChildren();
  const lines = diff.endsWith('\n') ? diff.slice(0, -1).split('\n') : diff.split('\n');
  for (const line of lines) {
    let cls = 'ctx';
    if (line.startsWith('+++') || line.startsWith('---')) cls = 'hdr';
    else if (line.startsWith('@@')) cls = 'hunk';
    else if (line.startsWith('+')) cls = 'add';
    else if (line.startsWith('-')) cls = 'del';
    else if (line.startsWith('\\')) cls = 'note';
    pre.append(el('span', `line ${cls}`, line + '\n'));
  }
}

/** Rows of (file, lines, strategy, confidence) for every match of every changed file. */
export function renderMatches(tbody, files) {
  tbody.replaceChildren();
  for (const [path, f] of Object.entries(files)) {
    for (const m of f.matches ?? []) {
      const lines = m.start_line === m.end_line ? `${m.start_line}` : `${m.start_line}–${m.end_line}`;
      const row = el('tr', '', el('td', '', path), el('td', '', lines),
        el('td', 'strategy', m.strategy), el('td', '', String(m.confidence)));
      tbody.append(row);
    }
    if (!f.matches?.length) {
      tbody.append(el('tr', 'quiet', el('td', '', path), el('td', '', '—'),
        el('td', 'strategy', f.action === 'update' ? '(no match list)' : f.action), el('td', '', '')));
    }
  }
}

/**
 * The file around each candidate, with line numbers; the candidate's lines are marked and
 * labelled with their similarity. `context` lines are shown on either side; gaps are elided.
 */
export function renderCandidates(box, content, candidates, context = 3) {
  box.replaceChildren();
  if (!candidates?.length) return; // this error (or this profile) names no candidates
  const lines = content.replace(/\r\n/g, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const marked = new Map(); // line number → candidate index
  const shown = new Set();
  candidates.forEach((c, i) => {
    for (let n = c.start_line; n <= c.end_line; n++) if (!marked.has(n)) marked.set(n, i);
    for (let n = Math.max(1, c.start_line - context); n <= Math.min(lines.length, c.end_line + context); n++) shown.add(n);
  });
  const pre = el('pre', 'listing');
  let last = 0;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (last && n > last + 1) pre.append(el('span', 'gap', '⋯\n'));
    const i = marked.get(n);
    const row = el('span', i === undefined ? 'row' : 'row cand', el('span', 'num', String(n).padStart(4)), ' ', lines[n - 1] + '\n');
    if (i !== undefined && n === candidates[i].start_line) {
      row.dataset.candidate = String(i + 1);
      row.title = `candidate ${i + 1}: lines ${candidates[i].start_line}–${candidates[i].end_line}, similarity ${candidates[i].similarity}`;
      row.prepend(el('span', 'tag', `#${i + 1} · ${candidates[i].similarity}`));
    }
    pre.append(row);
    last = n;
  }
  box.append(pre);
}
