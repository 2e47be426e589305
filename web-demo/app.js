// The demo page: builds a request from the form, applies it in the worker as you type, and
// shows the result; the same edit is also run under every profile, so you see at a glance how
// each tool would have handled it.
import { createWorkerClient } from '../js/src/worker.js';
import { SAMPLES } from './samples.js';
import { el, renderDiff, renderMatches, renderCandidates } from './render.js';

/** The edit's fields per format: [name, kind, label]. */
const FIELDS = {
  replace: [['old_string', 'text', 'old_string'], ['new_string', 'text', 'new_string']],
  search_replace: [['text', 'text', 'SEARCH/REPLACE blocks, as the model wrote them']],
  unified_diff: [['text', 'text', 'the unified diff']],
  codex_patch: [['text', 'text', 'the patch (*** Begin Patch … *** End Patch)']],
  whole_file: [['content', 'text', 'the new file']],
  insert: [['insert_line', 'number', 'insert after line (0 = top)'], ['new_str', 'text', 'text to insert']],
  lazy: [['snippet', 'text', 'the snippet, unchanged code left out behind "... existing code ..." lines']],
  reply: [['text', 'text', "the model's whole reply (prose, fences, SEARCH/REPLACE blocks, diffs, patches): the engine finds the edits in it"]],
};
const LARGE = 1 << 20;
const PROFILES = ['editcore', 'gemini', 'cline', 'aider', 'roo', 'codex', 'claude', 'openhands'];

const $ = (id) => document.getElementById(id);
const engine = createWorkerClient(); // editcore/worker: the package's own module worker
const values = {}; // format → { field: value }, kept when the format changes
let latest = 0;

function renderFields() {
  const format = $('format').value;
  values[format] ??= {};
  const box = $('edit-fields');
  box.replaceChildren();
  for (const [name, kind, label] of FIELDS[format]) {
    const input = kind === 'number' ? el('input') : el('textarea');
    if (kind === 'number') { input.type = 'number'; input.min = '0'; }
    input.id = `edit-${name}`;
    input.spellcheck = false;
    input.value = values[format][name] ?? (kind === 'number' ? '0' : '');
    input.addEventListener('input', () => { values[format][name] = input.value; schedule(); });
    box.append(el('label', `field ${kind}`, el('span', '', label), input));
  }
}

function buildRequest(profile = $('profile').value) {
  const format = $('format').value;
  const path = $('path').value.trim() || 'file';
  const edit = {};
  for (const [name, kind] of FIELDS[format]) {
    const v = values[format]?.[name] ?? '';
    edit[name] = kind === 'number' ? Number(v) : v;
  }
  if (format === 'reply') edit.path = path; // the file for edits that name none (Cline's and Roo's blocks)
  const content = $('content').value;
  // While typing, a file over 1 MB is not parsed for its syntax report (each keystroke would pay
  // a full parse: BENCHMARKS.md "Syntax"), as it is not run under the eight profiles either.
  return { format, files: { [path]: content }, edit, profile, ...(content.length > LARGE ? { options: { syntax: 'off' } } : {}) };
}

function loadSample(sample) {
  $('path').value = sample.path;
  $('content').value = sample.content;
  $('format').value = sample.format;
  values[sample.format] = Object.fromEntries(Object.entries(sample.edit).map(([k, v]) => [k, String(v)]));
  $('profile').value = 'editcore';
  for (const b of document.querySelectorAll('#samples button')) b.classList.toggle('active', b.dataset.sample === sample.id);
  renderFields();
  apply();
}

let timer = 0;
/** After an edit by hand: no sample is what is shown any more. Applies shortly after typing stops. */
function schedule() {
  for (const b of document.querySelectorAll('#samples button.active')) b.classList.remove('active');
  clearTimeout(timer);
  timer = setTimeout(apply, 120);
}

/** "success", "NO_MATCH", or "n/a" when the profile does not take this format. */
function outcome(r) {
  if (r.status !== 'error') return r.status;
  if (r.error.code === 'INVALID_PARAM' && /not supported in profile/.test(r.error.message)) return 'n/a';
  return r.error.code;
}

async function apply() {
  const id = ++latest;
  document.body.dataset.state = 'applying'; // 'ready' once this edit and its profile chips are shown
  const request = buildRequest();
  const t0 = performance.now();
  let response;
  try {
    response = await engine.applyRequest(request);
  } catch (e) {
    showFailure(String(e.message ?? e));
    return;
  }
  if (id !== latest) return; // a newer edit is on its way
  show(request, response, performance.now() - t0);
  if (response.status === 'error') await offerCorrection(request, id);
  else hideCorrection();
  if (id !== latest) return;
  compareProfiles(request, id);
}

// Section - self-correction: the prompt for a model, its pasted reply checked by the engine

let correctionFor = null; // the failed request the prompt shown was built for
let replyTimer = 0;

function hideCorrection() {
  correctionFor = null;
  $('correction').hidden = true;
  document.body.dataset.correction = 'none';
}

/** Shows the correction prompt for a failed request, when the engine builds one for its error. */
async function offerCorrection(request, id) {
  const p = await engine.correctionPrompt(request).catch(() => null);
  if (id !== latest) return;
  if (!p || p.status !== 'success' || !p.data.prompt) { hideCorrection(); return; } // not a model's to repair
  const { system, user, schema } = p.data.prompt;
  if ($('prompt-user').textContent !== user) { // a new failure: the old reply does not belong to it
    $('correction-reply').value = '';
    $('correction-result').replaceChildren();
  }
  correctionFor = request;
  $('prompt-system').textContent = system;
  $('prompt-user').textContent = user;
  $('prompt-schema').textContent = JSON.stringify(schema, null, 2);
  $('correction').hidden = false;
  document.body.dataset.correction = 'offered';
  if ($('correction-reply').value.trim()) applyReply();
}

/** Runs the pasted reply through correction_apply in the worker and shows what it gives. */
async function applyReply() {
  const request = correctionFor;
  const reply = $('correction-reply').value;
  const box = $('correction-result');
  if (!request || !reply.trim()) { box.replaceChildren(); return; }
  document.body.dataset.correction = 'applying';
  let r;
  try {
    r = await engine.correctionApply(request, reply, { promptFiles: request.files });
  } catch (e) {
    box.replaceChildren(el('p', '', `engine failed: ${e.message ?? e}`));
    return;
  }
  if (request !== correctionFor || reply !== $('correction-reply').value) return; // superseded
  const failed = r.status === 'error';
  const badge = el('span', `badge ${r.status}`, failed ? `error · ${r.error.code}` : 'corrected');
  box.replaceChildren(badge, el('p', 'explanation', failed ? r.error.message : `The model: ${r.data.explanation ?? ''}`));
  document.body.dataset.correctionOutcome = failed ? r.error.code : 'success';
  if (!failed) {
    const table = el('table', 'matches', el('thead', '', el('tr', '', el('th', '', 'file'), el('th', '', 'lines'), el('th', '', 'strategy'), el('th', '', 'confidence'))), el('tbody'));
    renderMatches(table.tBodies[0], r.data.files);
    const diff = el('pre', 'diff');
    diff.id = 'correction-diff';
    renderDiff(diff, Object.values(r.data.files).map((f) => f.diff ?? '').join(''));
    const keep = el('button', '', 'Use it as the file');
    keep.type = 'button';
    const first = Object.values(r.data.files)[0];
    keep.addEventListener('click', () => { $('content').value = first.content; apply(); });
    box.append(table, diff, keep);
  }
  document.body.dataset.correction = 'done';
}

$('correction-reply').addEventListener('input', () => { clearTimeout(replyTimer); replyTimer = setTimeout(applyReply, 120); });
$('copy-prompt').addEventListener('click', async () => {
  const text = `${$('prompt-system').textContent}\n\n${$('prompt-user').textContent}`;
  try {
    await navigator.clipboard.writeText(text);
    $('copy-prompt').textContent = 'Copied';
  } catch {
    const range = document.createRange(); // no clipboard permission: select it for Ctrl+C instead
    range.selectNodeContents($('prompt-user'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $('copy-prompt').textContent = 'Select and copy (the clipboard is not available here)';
  }
  setTimeout(() => { $('copy-prompt').textContent = 'Copy the prompt (system + user)'; }, 2000);
});

function showFailure(message) {
  $('status').textContent = 'engine failed';
  $('status').className = 'badge error';
  $('summary').textContent = message;
}

function show(request, r, roundTripMs) {
  const status = $('status');
  status.textContent = r.status === 'error' ? `error · ${r.error.code}` : r.status;
  status.className = `badge ${r.status}`;
  const engineMs = r.stats.time_ms < 0.1 ? '< 0.1' : r.stats.time_ms.toFixed(2); // the browser's clock is coarse
  $('timing').textContent = `${engineMs} ms in the engine (${roundTripMs.toFixed(1)} ms round trip to the worker) · profile ${request.profile}`;
  const failed = r.status === 'error';
  $('summary').textContent = failed ? '' : r.text; // an error's text is its message, shown below
  $('error').hidden = !failed;
  $('success').hidden = failed;
  document.body.dataset.outcome = outcome(r);
  if (failed) {
    $('error-message').textContent = r.error.message;
    const path = r.error.path ?? Object.keys(request.files)[0];
    $('candidates-title').hidden = !r.error.candidates?.length;
    renderCandidates($('candidates'), request.files[path] ?? '', r.error.candidates);
    return;
  }
  const files = r.data.files;
  renderMatches($('matches').tBodies[0], files);
  renderDiff($('diff'), Object.values(files).map((f) => f.diff ?? '').join(''));
  const first = Object.values(files)[0];
  $('content-out').textContent = first?.content ?? '';
  $('keep').disabled = !first || first.content === undefined;
}

/** The same request under every profile: one chip each, the current one marked. */
async function compareProfiles(request, id) {
  const box = $('profiles');
  if (request.files[Object.keys(request.files)[0]].length > LARGE) { // eight more runs of a big file: not while typing
    box.replaceChildren(el('span', 'label', 'Under each profile: not compared for files over 1 MB (pick one above).'));
    document.body.dataset.state = 'ready';
    return;
  }
  const results = await Promise.all(PROFILES.map((profile) =>
    engine.applyRequest({ ...request, profile }).catch(() => null)));
  if (id !== latest) return;
  box.replaceChildren(el('span', 'label', 'Under each profile:'));
  PROFILES.forEach((profile, i) => {
    const r = results[i];
    const o = r ? outcome(r) : 'failed';
    const chip = el('button', `chip ${o === 'success' ? 'ok' : o === 'n/a' ? 'na' : 'bad'}`, `${profile}: ${o}`);
    chip.type = 'button';
    chip.dataset.profile = profile;
    chip.dataset.outcome = o;
    if (profile === request.profile) chip.classList.add('current');
    chip.title = o === 'n/a' ? `${profile} does not take the ${request.format} format` : r?.text ?? '';
    chip.disabled = o === 'n/a';
    chip.addEventListener('click', () => { $('profile').value = profile; apply(); });
    box.append(chip);
  });
  document.body.dataset.state = 'ready';
}

/**
 * Whether this engine reads a model's whole reply (format "reply"): asked once, so the page
 * offers "detect" exactly when the engine it runs has it.
 */
async function readsReplies() {
  const r = await engine.applyRequest({ format: 'reply', files: {}, edit: { text: '', parse_only: true } }).catch(() => null);
  return !!r && !(r.status === 'error' && /format must be one of/.test(r.error.message));
}

// Wiring.
const replies = await readsReplies();
document.body.dataset.replies = String(replies);
if (replies) $('format').prepend(new Option("detect: the model's whole reply", 'reply'));
for (const s of SAMPLES.filter((x) => replies || x.format !== 'reply')) {
  const b = el('button', 'sample', s.label);
  b.type = 'button';
  b.dataset.sample = s.id;
  b.addEventListener('click', () => loadSample(s));
  $('samples').append(b);
}
$('format').addEventListener('change', () => { renderFields(); apply(); });
$('profile').addEventListener('change', apply);
$('content').addEventListener('input', schedule);
$('path').addEventListener('input', schedule);
$('load').addEventListener('change', async () => {
  const file = $('load').files[0];
  if (!file) return;
  $('path').value = file.name;
  $('content').value = await file.text();
  schedule();
});
$('keep').addEventListener('click', () => {
  $('content').value = $('content-out').textContent;
  apply();
});

loadSample(SAMPLES[0]);
