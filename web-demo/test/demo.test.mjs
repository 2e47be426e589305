// The demo in a real browser: Debian's chromium loads web-demo/ from the local server, every
// sample is applied through the web worker, and what the page renders is checked — the diff's
// lines, the strategy per match, the error with its candidates marked in the file — then a
// profile switch changes the outcome. A screenshot of each state is left in build/web-demo/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, artifacts } from './chromium.mjs';
import { SAMPLES } from '../samples.js';

let b;
let page;
before(async () => {
  b = await launch();
  page = await b.page();
  await page.goto(b.server.url + 'web-demo/');
});
after(async () => { await b?.close(); });

/** Clicks a sample and waits until the page shows its result and every profile's chip. */
async function apply(id) {
  await page.click(`button[data-sample="${id}"]`);
  await page.waitForFunction((sid) => {
    const active = document.querySelector('#samples button.active');
    return active?.dataset.sample === sid && document.body.dataset.state === 'ready';
  }, id);
  return page.evaluate(() => ({
    outcome: document.body.dataset.outcome,
    status: document.getElementById('status').textContent,
    diff: [...document.querySelectorAll('#diff .line')].map((l) => [l.className.replace('line ', ''), l.textContent.replace(/\n$/, '')]),
    strategies: [...document.querySelectorAll('#matches tbody tr')].map((r) => [...r.cells].map((c) => c.textContent)),
    error: document.getElementById('error').hidden ? null : document.getElementById('error-message').textContent,
    candidates: [...document.querySelectorAll('#candidates .row.cand')].map((r) => r.querySelector('.num').textContent.trim()),
    tags: [...document.querySelectorAll('#candidates .tag')].map((t) => t.textContent),
    chips: Object.fromEntries([...document.querySelectorAll('#profiles .chip')].map((c) => [c.dataset.profile, c.dataset.outcome])),
    content: document.getElementById('content-out').textContent,
  }));
}

/** What each successful sample must render: lines added and removed, and the strategies. */
const EXPECT = {
  replace: { add: ['        return 0.0', '    count = sum(item.qty for item in items)', '    return total(items) / count'],
    del: ['        return 0', '    return total(items) / len(items)'], strategies: [['cart.py', '19–21', 'indent', '0.9']] },
  search_replace: { add: ['    discount: float = 0.0', '        result += item.price * item.qty * (1 - item.discount)'],
    del: ['        result += item.price * item.qty'], strategies: [['cart.py', '7–8', 'exact', '1'], ['cart.py', '14', 'exact', '1']] },
  unified_diff: { add: ['    result = 0.0'], del: ['    result = 0'], strategies: [['cart.py', '11–13', 'exact', '1']] },
  codex_patch: { add: ['        raise ValueError("average of an empty cart")'], del: ['        return 0'], strategies: [['cart.py', '19–21', 'exact', '1']] },
  whole_file: { add: ['    return sum(item.price * item.qty for item in items)'],
    del: ['    result = 0', '    for item in items:', '        result += item.price * item.qty', '    return result'] },
  insert: { add: ['from typing import Iterable'], del: [] },
  lazy: { add: ['    """The cart\'s total price."""'], del: [], strategies: [['cart.py', '11–12', 'exact', '1']] },
};

test('the page loads the engine in a worker and shows a result without being asked', async () => {
  await page.waitForFunction(() => document.body.dataset.state === 'ready');
  assert.equal(await page.evaluate(() => document.getElementById('status').textContent), 'success');
});

for (const sample of SAMPLES.filter((s) => EXPECT[s.id])) {
  test(`sample ${sample.id}: the diff and the strategy per match are rendered`, async () => {
    const r = await apply(sample.id);
    const want = EXPECT[sample.id];
    assert.equal(r.outcome, 'success', r.status);
    assert.equal(r.error, null);
    assert.deepEqual(r.diff.slice(0, 2), [['hdr', '--- a/cart.py'], ['hdr', '+++ b/cart.py']]);
    assert.equal(r.diff[2][0], 'hunk');
    assert.deepEqual(r.diff.filter(([c]) => c === 'add').map(([, t]) => t.slice(1)), want.add);
    assert.deepEqual(r.diff.filter(([c]) => c === 'del').map(([, t]) => t.slice(1)), want.del);
    if (want.strategies) assert.deepEqual(r.strategies, want.strategies);
    for (const line of want.add) assert.ok(r.content.includes(line + '\n'), `new content has ${line}`);
    assert.equal(r.chips.editcore, 'success');
  });
}

test('the failing sample shows the error and its nearest candidate marked in the file', async () => {
  const r = await apply('fail');
  assert.equal(r.outcome, 'NO_MATCH');
  assert.equal(r.status, 'error · NO_MATCH');
  assert.match(r.error, /^SEARCH block 1 was not found in 'cart\.py'; nothing was changed\./);
  assert.match(r.error, /the file has ' {4}for item in items:' but old_string has ' {4}for it in items:'/);
  assert.deepEqual(r.candidates, ['11', '12', '13', '14', '15']);
  assert.deepEqual(r.tags, ['#1 · 0.874']);
  const marked = await page.locator('#candidates .row.cand').first().textContent();
  assert.match(marked, /11 def total\(items\):/);
  // Cline and Aider would have applied it — over the real loop — where editcore refuses.
  assert.equal(r.chips.editcore, 'NO_MATCH');
  assert.equal(r.chips.cline, 'success');
  assert.equal(r.chips.aider, 'success');
  assert.equal(r.chips.gemini, 'n/a');
  await page.screenshot({ path: join(artifacts, 'demo-failing-edit.png'), fullPage: true });
});

test("a profile switch shows the other tool's outcome for the same edit", async () => {
  await apply('fail');
  await page.selectOption('#profile', 'cline');
  await page.waitForFunction(() => document.body.dataset.state === 'ready' &&
    document.querySelector('#profiles .chip.current')?.dataset.profile === 'cline');
  assert.equal(await page.evaluate(() => document.body.dataset.outcome), 'success');
  const diff = await page.locator('#diff').textContent();
  assert.match(diff, /^-        result \+= item\.price \* item\.qty$/m);
  assert.match(diff, /^\+        result \+= it\.cost \* it\.qty$/m, 'Cline writes the misremembered loop');
  assert.match(await page.locator('#timing').textContent(), /profile cline/);

  // And the other way round: Claude Code's exact-only replace refuses the re-indented sample.
  await apply('replace');
  await page.click('#profiles .chip[data-profile="claude"]');
  await page.waitForFunction(() => document.body.dataset.state === 'ready' &&
    document.querySelector('#profiles .chip.current')?.dataset.profile === 'claude');
  assert.equal(await page.evaluate(() => document.body.dataset.outcome), 'NO_MATCH');
  assert.equal(await page.inputValue('#profile'), 'claude');
  await page.screenshot({ path: join(artifacts, 'demo-profile-claude.png'), fullPage: true });
});

test('a file typed by hand is applied as it changes (the worker answers each version)', async () => {
  await apply('replace');
  await page.selectOption('#profile', 'editcore');
  await page.fill('#content', 'x = 1\ny = 2\n');
  await page.selectOption('#format', 'replace');
  await page.fill('#edit-old_string', 'y = 2');
  await page.fill('#edit-new_string', 'y = 3');
  await page.waitForFunction(() => document.getElementById('content-out').textContent === 'x = 1\ny = 3\n');
  assert.equal(await page.evaluate(() => document.body.dataset.outcome), 'success');
  await page.screenshot({ path: join(artifacts, 'demo-typed.png'), fullPage: true });
});

test('"detect" (format reply) is offered exactly when the engine reads replies, and applies a pasted reply', async () => {
  const state = await page.evaluate(() => ({
    replies: document.body.dataset.replies,
    option: !!document.querySelector('#format option[value="reply"]'),
    sample: !!document.querySelector('button[data-sample="reply"]'),
  }));
  assert.ok(state.replies === 'true' || state.replies === 'false', 'the page asked the engine');
  const replies = state.replies === 'true';
  assert.equal(state.option, replies);
  assert.equal(state.sample, replies);
  if (!replies) return; // this engine predates format "reply" (h/reply): nothing offered, checked above
  const r = await apply('reply');
  assert.equal(r.outcome, 'success', r.status);
  assert.deepEqual(r.diff.filter(([c]) => c === 'add').map(([, t]) => t.slice(1)), ['        return 0.0']);
  assert.deepEqual(r.diff.filter(([c]) => c === 'del').map(([, t]) => t.slice(1)), ['        return 0']);
  assert.equal(r.chips.editcore, 'success');
  assert.equal(r.chips.cline, 'n/a');
});

test('a file loaded from disk becomes the file the edit applies to', async () => {
  await apply('replace');
  await page.setInputFiles('#load', { name: 'hello.js', mimeType: 'text/javascript', buffer: Buffer.from('let a = 1;\nlet b = 2;\n') });
  await page.waitForFunction(() => document.getElementById('path').value === 'hello.js' && document.body.dataset.state === 'ready');
  assert.equal(await page.inputValue('#content'), 'let a = 1;\nlet b = 2;\n');
  await page.fill('#edit-old_string', 'let b = 2;');
  await page.fill('#edit-new_string', 'const b = 2;');
  await page.waitForFunction(() => document.getElementById('content-out').textContent === 'let a = 1;\nconst b = 2;\n');
  assert.match(await page.locator('#diff').textContent(), /^--- a\/hello\.js\n\+\+\+ b\/hello\.js\n/);
});

test('a file over 1 MB is applied without the eight-profile comparison', async () => {
  await apply('replace');
  const big = 'x = 0\n'.repeat(200000) + 'y = 1\n';
  await page.evaluate((text) => { const c = document.getElementById('content'); c.value = text; c.dispatchEvent(new Event('input')); }, big);
  await page.fill('#edit-old_string', 'y = 1');
  await page.fill('#edit-new_string', 'y = 2');
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.getElementById('content-out').textContent.endsWith('y = 2\n'));
  assert.match(await page.locator('#profiles').textContent(), /not compared for files over 1 MB/);
  assert.deepEqual(await page.evaluate(() => [...document.querySelectorAll('#matches tbody td')].map((c) => c.textContent)), ['cart.py', '200001', 'exact', '1']);
});

test('self-correction: a failed edit shows the prompt; a pasted reply is checked and its diff shown', async () => {
  await apply('replace');
  await page.selectOption('#profile', 'editcore');
  await page.fill('#edit-old_string', '    if not items:\n        return None');
  await page.fill('#edit-new_string', '    if not items:\n        return 0.0');
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.correction === 'offered' &&
    document.getElementById('prompt-user').textContent.includes('return None'));
  assert.equal(await page.evaluate(() => document.body.dataset.outcome), 'NO_MATCH');
  const user = await page.locator('#prompt-user').textContent();
  assert.match(user, /# Failed search text\n```\n {4}if not items:\n {8}return None\n```/);
  assert.match(user, /\n20 \| {9}return 0\n/, 'the file region, numbered');
  assert.match(await page.locator('#prompt-system').textContent(), /^You repair a failed code edit\./);
  assert.ok(await page.locator('#copy-prompt').isVisible());

  // A correction that names code the file lacks: refused, nothing shown as applied.
  await page.fill('#correction-reply', '{"search": "    if not items:\\n        return None", "replace": "x", "no_changes_required": false, "explanation": "guess"}');
  await page.waitForFunction(() => document.body.dataset.correction === 'done' && document.body.dataset.correctionOutcome !== 'success');
  assert.equal(await page.evaluate(() => document.body.dataset.correctionOutcome), 'NO_MATCH');
  assert.equal(await page.locator('#correction-diff').count(), 0);

  // The model's real answer, in prose and a fence: applied, strategy llm, the diff shown.
  const reply = 'The file returns 0, not None:\n```json\n{"search": "    if not items:\\n        return 0", "replace": "    if not items:\\n        return 0.0", "no_changes_required": false, "explanation": "the function returns 0 for an empty cart"}\n```';
  await page.fill('#correction-reply', reply);
  await page.waitForFunction(() => document.body.dataset.correction === 'done' && document.body.dataset.correctionOutcome === 'success');
  const diff = [...await page.locator('#correction-diff .line').allTextContents()].map((t) => t.replace(/\n$/, ''));
  assert.deepEqual(diff.filter((l) => /^[-+][^-+]/.test(l)), ['-        return 0', '+        return 0.0']);
  assert.deepEqual(await page.locator('#correction-result td.strategy').allTextContents(), ['llm']);
  assert.match(await page.locator('#correction-result .explanation').textContent(), /returns 0 for an empty cart/);
  await page.screenshot({ path: join(artifacts, 'demo-correction.png'), fullPage: true });

  // An edit that applies offers no correction.
  await page.fill('#edit-old_string', '    if not items:\n        return 0');
  await page.waitForFunction(() => document.body.dataset.state === 'ready' && document.body.dataset.outcome === 'success');
  assert.equal(await page.locator('#correction').isVisible(), false);
});

test('the page raised no errors', () => {
  assert.deepEqual(b.errors, []);
});
