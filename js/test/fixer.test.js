// The fixer hook (src/fixer.js, docs/correction.md): applyRequest(request, { fixer, ... }) with a
// scripted model double — a deterministic function returning prepared replies and counting calls.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { applyRequest, correctionPrompt, correctionApply, createFixerCache, createHost, memoryAdapter } from '../src/index.js';

const APP = 'import os\n\n\ndef total(xs):\n    """Sum the values."""\n    return sum(xs)\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n';
const FIXED = APP.replace('return sum(xs)\n', 'return sum(xs, 0)\n');
const failedReplace = (files = { 'app.py': APP }) => ({
  format: 'replace', files,
  edit: { path: 'app.py', old_string: 'def total(values):\n    return sum(values)', new_string: 'def total(values):\n    return sum(values, 0)', instruction: 'Make total() start the sum at 0 explicitly.' },
});
const answer = (o) => JSON.stringify({ no_changes_required: false, explanation: 'the parameter is xs', ...o });
const GOOD = answer({ search: 'def total(xs):\n    """Sum the values."""\n    return sum(xs)', replace: 'def total(xs):\n    """Sum the values."""\n    return sum(xs, 0)' });
const LACKING = answer({ search: 'def total(values):\n    return sum(values)', replace: 'def total(values):\n    return sum(values, 0)', explanation: 'retyped' });

/** A model double: answers the prepared replies in order (the last one again once they run out). */
function model(...replies) {
  const double = async (prompt) => {
    double.prompts.push(prompt);
    return replies[Math.min(double.prompts.length - 1, replies.length - 1)];
  };
  double.prompts = [];
  return double;
}
const noCache = { cache: false };

test('success after one correction: the repaired edit, strategy llm, the explanation', async () => {
  const fixer = model(GOOD);
  const res = await applyRequest(failedReplace(), { fixer, ...noCache });
  assert.equal(res.status, 'success');
  assert.equal(res.data.files['app.py'].content, FIXED);
  assert.equal(res.data.files['app.py'].matches[0].strategy, 'llm');
  assert.equal(res.data.explanation, 'the parameter is xs');
  assert.deepEqual(res.fixer, { attempts: 1, calls: 1, cached: false, outcome: 'corrected' });
  assert.equal(fixer.prompts.length, 1);
  const p = fixer.prompts[0];
  assert.match(p.user, /# Intended change\nMake total\(\) start the sum at 0 explicitly\./);
  assert.match(p.user, / 4 \| def total\(xs\):/);
  assert.ok(p.system.length > 100 && p.schema.required.includes('search'));
});

test('an edit that applies, or fails with an error no model can repair, never calls the fixer', async () => {
  const fixer = model(GOOD);
  const ok = await applyRequest({ ...failedReplace(), edit: { path: 'app.py', old_string: 'return sum(xs)', new_string: 'return sum(xs, 0)' } }, { fixer, ...noCache });
  assert.equal(ok.status, 'success');
  assert.equal(ok.fixer, undefined);
  const missing = await applyRequest({ ...failedReplace(), files: {} }, { fixer, ...noCache });
  assert.equal(missing.status, 'error');
  assert.notEqual(missing.error.code, 'NO_MATCH');
  const stale = await applyRequest({ ...failedReplace(), options: { expected_hash: { 'app.py': '0'.repeat(64) } } }, { fixer, ...noCache });
  assert.equal(stale.error.code, 'CONFLICT');
  assert.equal(fixer.prompts.length, 0);
});

test('a correction naming code the file lacks is refused; the response is the refusal', async () => {
  const fixer = model(LACKING);
  const res = await applyRequest(failedReplace(), { fixer, ...noCache });
  assert.equal(res.status, 'error');
  assert.equal(res.error.code, 'NO_MATCH');
  assert.deepEqual(res.data.files, {});
  assert.equal(res.fixer.outcome, 'refused');
  assert.equal(fixer.prompts.length, 1);
});

test('malformed JSON is INVALID_REPLY', async () => {
  const res = await applyRequest(failedReplace(), { fixer: model('{"search": "def total(xs):", "replace": '), ...noCache });
  assert.equal(res.error.code, 'INVALID_REPLY');
  assert.equal(res.fixer.outcome, 'refused');
  const prose = await applyRequest(failedReplace(), { fixer: model('I could not find it, sorry.'), ...noCache });
  assert.equal(prose.error.code, 'INVALID_REPLY');
});

test('a reply wrapped in prose and a fence (trailing comma) is read', async () => {
  const reply = 'The parameter is `xs`:\n```json\n' + GOOD.replace(/}$/, ',}') + '\n```\nHope that helps.';
  const res = await applyRequest(failedReplace(), { fixer: model(reply), ...noCache });
  assert.equal(res.status, 'success');
  assert.equal(res.data.files['app.py'].content, FIXED);
});

test('already applied: no_changes_required becomes NOOP with the explanation', async () => {
  const files = { 'app.py': FIXED };
  const reply = answer({ search: '    return sum(xs, 0)', replace: '    return sum(xs, 0)', no_changes_required: true, explanation: 'total already starts at 0' });
  const res = await applyRequest(failedReplace(files), { fixer: model(reply), ...noCache });
  assert.equal(res.error.code, 'NOOP');
  assert.match(res.error.message, /total already starts at 0/);
  assert.equal(res.fixer.outcome, 'noop');
});

test('bounded retries: maxAttempts calls at most, the last refusal returned; a later good answer wins', async () => {
  const always = model(LACKING);
  const res = await applyRequest(failedReplace(), { fixer: always, maxAttempts: 3, ...noCache });
  assert.equal(always.prompts.length, 3);
  assert.equal(res.error.code, 'NO_MATCH');
  assert.deepEqual(res.fixer, { attempts: 3, calls: 3, cached: false, outcome: 'refused' });
  assert.equal(always.prompts[1].user, always.prompts[0].user); // the same prompt, a fresh answer

  const once = model(LACKING);
  await applyRequest(failedReplace(), { fixer: once, ...noCache }); // default: one call, as Gemini
  assert.equal(once.prompts.length, 1);

  const second = model('no json here', GOOD);
  const ok = await applyRequest(failedReplace(), { fixer: second, maxAttempts: 3, ...noCache });
  assert.equal(ok.status, 'success');
  assert.equal(second.prompts.length, 2);
});

test('cache: the same failure again costs no second model call; a refused answer is not kept', async () => {
  const cache = createFixerCache(2);
  const fixer = model(GOOD);
  const first = await applyRequest(failedReplace(), { fixer, cache });
  const again = await applyRequest(failedReplace(), { fixer, cache });
  assert.equal(fixer.prompts.length, 1);
  assert.deepEqual(again.fixer, { attempts: 1, calls: 0, cached: true, outcome: 'corrected' });
  assert.equal(again.data.files['app.py'].content, first.data.files['app.py'].content);
  // another file content is another key
  const other = APP.replace('import os', 'import sys');
  await applyRequest(failedReplace({ 'app.py': other }), { fixer, cache });
  assert.equal(fixer.prompts.length, 2);
  // refused answers are asked again
  const refusing = model(LACKING);
  const c2 = createFixerCache();
  await applyRequest(failedReplace(), { fixer: refusing, cache: c2 });
  await applyRequest(failedReplace(), { fixer: refusing, cache: c2 });
  assert.equal(refusing.prompts.length, 2);
  // LRU: size 2 keeps the last two
  const lru = createFixerCache(2);
  lru.set('a', '1'); lru.set('b', '2'); lru.get('a'); lru.set('c', '3');
  assert.equal(lru.get('b'), undefined);
  assert.equal(lru.get('a'), '1');
});

test('abort mid-call: the original error with a note, and the fixer sees its signal aborted', async () => {
  const ctrl = new AbortController();
  let seen = null;
  const fixer = (prompt, { signal }) => {
    seen = signal;
    setTimeout(() => ctrl.abort(), 5);
    return new Promise(() => {}); // a model that never answers
  };
  const res = await applyRequest(failedReplace(), { fixer, signal: ctrl.signal, ...noCache });
  assert.equal(res.error.code, 'NO_MATCH');
  assert.match(res.error.message, /old_string was not found/);
  assert.match(res.text, /self-correction: the model call was aborted; this is the original error/);
  assert.equal(res.fixer.outcome, 'aborted');
  assert.equal(seen.aborted, true);
  // aborted before: no call at all
  const calls = model(GOOD);
  const before = await applyRequest(failedReplace(), { fixer: calls, signal: AbortSignal.abort(), ...noCache });
  assert.equal(before.fixer.outcome, 'aborted');
  assert.equal(calls.prompts.length, 0);
});

test('timeout: the original error with a note', async () => {
  const res = await applyRequest(failedReplace(), { fixer: () => new Promise(() => {}), timeoutMs: 20, ...noCache });
  assert.equal(res.error.code, 'NO_MATCH');
  assert.equal(res.fixer.outcome, 'timeout');
  assert.match(res.text, /timed out after 20 ms/);
});

test('a fixer that throws or answers no text gives the original error, never an exception', async () => {
  const threw = await applyRequest(failedReplace(), { fixer: async () => { throw new Error('HTTP 503'); }, ...noCache });
  assert.equal(threw.error.code, 'NO_MATCH');
  assert.equal(threw.fixer.outcome, 'fixer_error');
  assert.match(threw.text, /the fixer failed: HTTP 503/);
  const none = await applyRequest(failedReplace(), { fixer: async () => undefined, ...noCache });
  assert.equal(none.fixer.outcome, 'fixer_error');
});

test('skip by file type: .json and .ipynb by default, configurable', async () => {
  const fixer = model(answer({ search: '"a": 1', replace: '"a": 2' }));
  const json = { format: 'replace', files: { 'cfg.json': '{\n  "a": 1\n}\n' }, edit: { path: 'cfg.json', old_string: '"alpha": 1', new_string: '"alpha": 2' } };
  const skipped = await applyRequest(json, { fixer, ...noCache });
  assert.equal(skipped.error.code, 'NO_MATCH');
  assert.equal(skipped.fixer.outcome, 'skipped');
  assert.equal(fixer.prompts.length, 0);
  const allowed = await applyRequest(json, { fixer, skip: [], ...noCache });
  assert.equal(allowed.status, 'success');
  assert.equal(fixer.prompts.length, 1);
  const byFn = await applyRequest(failedReplace(), { fixer, skip: (p) => p.endsWith('.py'), ...noCache });
  assert.equal(byFn.fixer.outcome, 'skipped');
});

test('a file changed while the model was thinking is refused (CONFLICT), never written over', async () => {
  const request = failedReplace();
  const fixer = async () => { request.files['app.py'] = APP.replace('import os', 'import os, re'); return GOOD; };
  const res = await applyRequest(request, { fixer, ...noCache });
  assert.equal(res.error.code, 'CONFLICT');
});

test('createHost: the correction is written like any edit; a refusal writes nothing', async () => {
  const adapter = memoryAdapter({ 'app.py': APP, 'other.py': 'x = 1\n' });
  const host = createHost(adapter);
  const { files, ...failed } = failedReplace();
  const res = await host.applyRequest(failed, { fixer: model(GOOD), ...noCache });
  assert.equal(res.data.applied, true);
  assert.deepEqual(adapter.snapshot(), { 'app.py': FIXED, 'other.py': 'x = 1\n' });
  const refused = await createHost(memoryAdapter({ 'app.py': APP })).applyRequest(failed, { fixer: model(LACKING), ...noCache });
  assert.equal(refused.data.applied, false);
  assert.equal(refused.error.code, 'NO_MATCH');
});

const M = 'class A:\n    def f(self):\n        a = 1\n        b = 2\n        c = 3\n        return a + b + c\n\n    def g(self):\n        return 0\n\n\nclass B:\n    def f(self):\n        a = 1\n        b = 2\n        c = 3\n        return a + b + c\n\n    def g(self):\n        return 0\n';
const lazy = { format: 'lazy', files: { 'm.py': M }, edit: { path: 'm.py', snippet: '    def f(self):\n        a = 1\n        # ... existing code ...\n        return a + b + c + 1\n' } };
const MERGED = M.replace('return a + b + c\n', 'return a + b + c + 1\n');

test('lazy fast apply: the merged region accepted; a merge that drops a kept line refused', async () => {
  const direct = await applyRequest(lazy);
  assert.equal(direct.status, 'error'); // two places fit: the engine declines
  const good = model(JSON.stringify({ merged: MERGED, explanation: 'the change is in class A' }));
  const res = await applyRequest(lazy, { fixer: good, ...noCache });
  assert.equal(res.status, 'success');
  assert.equal(res.data.files['m.py'].content, MERGED);
  assert.match(good.prompts[0].user, /# Snippet/);
  const dropped = MERGED.replace('        c = 3\n        return a + b + c + 1', '        return a + b + c + 1');
  const bad = model(JSON.stringify({ merged: dropped, explanation: 'class A' }));
  const refused = await applyRequest(lazy, { fixer: bad, ...noCache });
  assert.equal(refused.error.code, 'INVALID_REPLY');
  assert.match(refused.error.message, /not a merge of the snippet/);
  assert.deepEqual(refused.data.files, {});
});

test('the two steps directly: correctionPrompt, correctionApply with promptFiles', async () => {
  const req = failedReplace();
  const p = await correctionPrompt(req);
  assert.equal(p.status, 'success');
  assert.ok(p.data.prompt.user.includes('# Failed search text'));
  const res = await correctionApply(req, GOOD, { promptFiles: req.files });
  assert.equal(res.data.files['app.py'].content, FIXED);
  const changed = await correctionApply(failedReplace({ 'app.py': APP + '\n' }), GOOD, { promptFiles: req.files });
  assert.equal(changed.error.code, 'CONFLICT');
  const nothing = await correctionPrompt({ ...req, edit: { path: 'app.py', old_string: 'import os', new_string: 'import sys' } });
  assert.equal(nothing.error.code, 'INVALID_PARAM');
});

test('misuse throws: a fixer that is not a function, bad maxAttempts, timeoutMs, cache, skip', async () => {
  await assert.rejects(applyRequest(failedReplace(), { fixer: 'gpt' }), TypeError);
  await assert.rejects(applyRequest(failedReplace(), { fixer: model(GOOD), maxAttempts: 0 }), TypeError);
  await assert.rejects(applyRequest(failedReplace(), { fixer: model(GOOD), timeoutMs: -1 }), TypeError);
  await assert.rejects(applyRequest(failedReplace(), { fixer: model(GOOD), cache: 'big' }), TypeError);
  await assert.rejects(applyRequest(failedReplace(), { fixer: model(GOOD), skip: '.json' }), TypeError);
  await assert.rejects(applyRequest(failedReplace(), { fixer: model(GOOD), signal: {} }), TypeError);
  await assert.rejects(correctionApply(failedReplace(), 42), TypeError);
});

// The hook's final response is the core's correction_apply answer: the same bytes as the native CLI
// gives for that request (the conformance vectors prove native = WASI = Emscripten for the core).
const cli = fileURLToPath(new URL('../../build/native/editcore', import.meta.url));
test('the hook\'s response equals correction_apply through the native CLI (editcore json)', { skip: !existsSync(cli) && 'build/native/editcore not built' }, async () => {
  const req = failedReplace();
  const res = await applyRequest(req, { fixer: model(GOOD), ...noCache });
  const { fixer, ...hooked } = res;
  assert.equal(fixer.outcome, 'corrected');
  // A request object's syntax report is on demand (docs/syntax.md), JSON text's is "report": the
  // CLI is asked for none, so both answers hold the same fields.
  const applyReq = { format: 'correction_apply', files: req.files, edit: { failed: { format: req.format, edit: req.edit }, reply: GOOD }, options: { syntax: 'off' } };
  const native = JSON.parse(execFileSync(cli, ['json'], { input: JSON.stringify(applyReq) }).toString());
  const strip = (r) => ({ ...r, stats: { ...r.stats, time_ms: 0 } });
  assert.deepEqual(strip(JSON.parse(JSON.stringify(hooked))), strip(native)); // content is a getter on the object path
  assert.equal(JSON.stringify(strip(hooked)), JSON.stringify(strip(native)));
});
