// The SIMD kernels (wasm/simd_kernels.c) in Chromium, as a page or worker loads the package: they
// load (Chromium runs WebAssembly SIMD) and every answer over a large file is the one the portable
// code gives (js/test/kernels.test.js holds each kernel to a reference in Node).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './chromium.mjs';

let b;
let page;
before(async () => {
  b = await launch();
  page = await b.page();
  await page.goto(b.server.url + 'web-demo/test/blank.html');
});
after(async () => { await b?.close(); });

test('the SIMD kernels load in Chromium and answer as the portable code', async () => {
  const out = await page.evaluate(async () => {
    const api = await import('/js/src/browser.js');
    const m = await api.init({ full: true });
    const k = m.editcoreKernels;
    const lines = [];
    for (let i = 0; i < 5000; i++) lines.push(`    value_${i} = compute(${(i * 7919) % 10007}, "${'y'.repeat(i % 30)}")`);
    const text = lines.join('\n') + '\n';
    const requests = [
      { format: 'replace', files: { 'a.txt': text }, edit: { old_string: lines[4000], new_string: 'x' } },
      { format: 'replace', files: { 'a.txt': text }, edit: { old_string: lines[100].trim() + '\n' + lines[101].trim(), new_string: 'y' } },
      { format: 'replace', files: { 'a.txt': text }, edit: { old_string: lines[2500].replace(/ +/g, ' '), new_string: 'z' } },
      { format: 'replace', files: { 'a.txt': text.replace(/\n/g, '\r\n') }, edit: { old_string: lines[7], new_string: 'w' } },
      { format: 'replace', files: { 'a.txt': text }, edit: { old_string: 'compute(', new_string: 'calc(', replace_all: true } },
      { format: 'replace', files: { 'a.txt': text }, edit: { old_string: 'nowhere in it', new_string: 'v' } },
    ];
    const untimed = (s) => s.replace(/"time_ms":[^,}]*/, '');
    const same = [];
    for (const r of requests) {
      const json = JSON.stringify(r);
      m.editcoreKernels = null;
      const plain = untimed(api.applyJson(json));
      m.editcoreKernels = k;
      same.push(untimed(api.applyJson(json)) === plain);
    }
    return { loaded: !!k && typeof k.find === 'function', same };
  });
  assert.ok(out.loaded, 'the kernels are instantiated on the engine module');
  assert.deepEqual(out.same, out.same.map(() => true));
});
