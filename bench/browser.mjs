#!/usr/bin/env node
// Browser numbers for BENCHMARKS.md ("Browser"), in Debian's chromium driven by playwright-core
// (install it first: `cd web-demo && npm ci`). Needs the Emscripten build in js/dist/.
//
//   node bench/browser.mjs [--runs 15]
//
// - first edit: a fresh page imports the package (js/src/browser.js, its browser entry, served over 127.0.0.1 with
//   caching off), loads the engine and applies one small edit; median over fresh pages.
// - 1 MB edit: one replace in the middle of a 1 MB file, applied on the page's thread
//   (applyRequestSync: JSON out, engine, JSON back) and through editcore/worker's
//   createWorkerClient (the request posted, applied there, the response posted back); medians.
// - the .wasm's size, raw and gzip -9.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { launch, repo } from '../web-demo/test/browser.mjs';

const i = process.argv.indexOf('--runs');
const runs = i > 0 ? Number(process.argv[i + 1]) : 15;
const { loadavg } = await import('node:os');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };

const wasm = readFileSync(join(repo, 'js/dist/editcore.wasm'));
const b = await launch();
try {
  const first = [];
  for (let r = 0; r < runs; r++) {
    const page = await b.page();
    await page.goto(b.server.url + 'web-demo/test/blank.html');
    first.push(await page.evaluate(async () => {
      const t0 = performance.now();
      const m = await import('/js/src/browser.js');
      const t1 = performance.now();
      await m.init();
      const t2 = performance.now();
      const res = m.applyRequestSync({ format: 'replace', files: { 'a.py': 'x = 1\n' }, edit: { old_string: 'x = 1', new_string: 'x = 2' } });
      if (res.status !== 'success') throw new Error(res.text);
      const t3 = performance.now();
      return { total: t3 - t0, importMs: t1 - t0, initMs: t2 - t1, editMs: t3 - t2 };
    }));
    await page.close();
  }

  const page = await b.page();
  await page.goto(b.server.url + 'web-demo/test/blank.html');
  const big = await page.evaluate(async (n) => {
    const { init, applyRequestSync } = await import('/js/src/browser.js');
    const { createWorkerClient } = await import('/js/src/worker.js');
    await init();
    const engine = createWorkerClient();
    await engine.init();
    const lines = [];
    for (let k = 0; lines.join('\n').length < 1 << 20; k += 1000) {
      for (let j = k; j < k + 1000; j++) lines.push(`    value_${j} = compute(item_${j}, factor=${j % 7})  # step ${j}`);
    }
    const content = lines.join('\n') + '\n';
    const mid = lines[lines.length >> 1];
    const request = { format: 'replace', files: { 'big.py': content }, edit: { old_string: mid, new_string: mid.replace('compute', 'compute_fast') } };
    const main = [];
    const worker = [];
    for (let r = 0; r < n; r++) {
      let t0 = performance.now();
      const a = applyRequestSync(request);
      main.push(performance.now() - t0);
      t0 = performance.now();
      const response = await engine.applyRequest(request);
      worker.push(performance.now() - t0);
      if (a.status !== 'success' || response.data.files['big.py'].content !== a.data.files['big.py'].content) throw new Error('results differ');
    }
    engine.terminate();
    return { bytes: content.length, main, worker };
  }, runs);
  await page.close();

  const row = (label, v) => console.log(`| ${label} | ${v} |`);
  console.log(`chromium ${b.browser.browser()?.version() ?? ''}, ${runs} runs, medians; load average ${loadavg()[0].toFixed(1)}`);
  console.log('| measure | value |\n|---|---:|');
  const part = (k) => `${median(first.map((f) => f[k])).toFixed(1)} ms`;
  row('import → engine loaded → first edit (fresh page)', part('total'));
  row('… of which: import of the package\'s modules', part('importMs'));
  row('… of which: init() (fetch, compile, instantiate the .wasm)', part('initMs'));
  row('… of which: the first edit', part('editMs'));
  row(`${(big.bytes / 1048576).toFixed(2)} MB replace, page thread (applyRequestSync)`, `${median(big.main).toFixed(1)} ms`);
  row(`${(big.bytes / 1048576).toFixed(2)} MB replace, through the web worker (round trip)`, `${median(big.worker).toFixed(1)} ms`);
  row('worker / page thread', `${(median(big.worker) / median(big.main)).toFixed(2)}×`);
  row('editcore.wasm raw', `${wasm.length} B (${(wasm.length / 1024).toFixed(0)} KB)`);
  row('editcore.wasm gzip -9', `${gzipSync(wasm, { level: 9 }).length} B (${(gzipSync(wasm, { level: 9 }).length / 1024).toFixed(0)} KB)`);
  if (b.errors.length) console.log('page errors:', b.errors);
} finally {
  await b.close();
}
