// editcore-lite.wasm in Chromium (wasm/lite_deferred.c): it answers an edit that stays on the
// common path exactly as the full module does, and flags one that reaches a left-out part
// (the regex strategy, a peer dialect, the lazy format) for the full module instead.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, repo } from './chromium.mjs';

let b;
let page;
before(async () => {
  b = await launch({ mounts: { '/build-emscripten/': join(repo, 'build/emscripten') } });
  page = await b.page();
  await page.goto(b.server.url + 'web-demo/test/blank.html');
});
after(async () => { await b?.close(); });

test('the lite module answers as the full one, or asks for it', async () => {
  const results = await page.evaluate(async () => {
    const full = await import('/js/src/browser.js');
    await full.init({ full: true });
    await full.loadSyntax(['python']);
    const { default: create } = await import('/build-emscripten/editcore-lite.mjs');
    const m = await create({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiateStreaming(fetch('/build-emscripten/editcore-lite.wasm'), imports).then((x) => receive(x.instance));
        return {};
      },
    });
    const run = (request) => {
      const bytes = new TextEncoder().encode(JSON.stringify(request));
      const req = m._malloc(bytes.length);
      const lenPtr = m._malloc(4);
      m.HEAPU8.set(bytes, req);
      const res = m._editcore_run(req, bytes.length, lenPtr);
      const text = new TextDecoder().decode(m.HEAPU8.subarray(res, res + m.HEAPU32[lenPtr >> 2]));
      m._editcore_free(res);
      m._free(req);
      m._free(lenPtr);
      return { text, needsFull: m._editcore_lite_needs_full() === 1 };
    };
    const untimed = (s) => s.replace(/"time_ms":[0-9.]+/, '"time_ms":0');
    const file = 'def f(a, b):\n    return a + b\n';
    // A file of no known language: the lite module leaves a known language's syntax report to
    // the full one (wasm/lite_deferred.c), as the 'python' case shows.
    const cases = {
      exact: { format: 'replace', files: { 'a.txt': file }, edit: { old_string: 'return a + b', new_string: 'return a - b' } },
      indent: { format: 'replace', files: { 'a.txt': file }, edit: { old_string: 'def f(a, b):\nreturn a + b', new_string: 'def f(a, b):\nreturn b' } },
      diff: { format: 'unified_diff', files: { 'a.txt': file }, edit: { text: '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n def f(a, b):\n-    return a + b\n+    return a * b\n' } },
      python: { format: 'replace', files: { 'a.py': file }, edit: { old_string: 'return a + b', new_string: 'return a - b' } },
      regex: { format: 'replace', files: { 'a.py': file }, edit: { old_string: 'def f(a,b):', new_string: 'def f(a, b, c):' } },
      cline: { format: 'search_replace', profile: 'cline', files: { 'a.py': file }, edit: { text: '------- SEARCH\n    return a + b\n=======\n    return 0\n+++++++ REPLACE\n' } },
      lazy: { format: 'lazy', files: { 'a.py': file }, edit: { snippet: 'def f(a, b):\n    # ... existing code ...\n' } },
    };
    const out = {};
    for (const [name, request] of Object.entries(cases)) {
      const lite = run(request);
      out[name] = { needsFull: lite.needsFull, same: untimed(lite.text) === untimed(full.applyJson(JSON.stringify(request))) };
    }
    return out;
  });
  for (const name of ['exact', 'indent', 'diff']) assert.deepEqual(results[name], { needsFull: false, same: true }, name);
  for (const name of ['regex', 'cline', 'lazy', 'python']) assert.equal(results[name].needsFull, true, name);
  assert.deepEqual(b.errors, []);
});
