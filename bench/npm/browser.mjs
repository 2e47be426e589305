#!/usr/bin/env node
// The npm-path benchmark in Chromium (issue 28): Debian's chromium driven by playwright-core runs
// bench/npm/worker.mjs in a dedicated module worker, which imports the packed npm package and the
// peers' browser bundle (bench/npm/peers-browser.mjs) and times the same workloads as Node with
// the same loop (bench/npm/measure.mjs). The page is cross-origin isolated (COOP + COEP), so
// performance.measureUserAgentSpecificMemory is there. Prints JSON lines like node.mjs's.
//
//   node bench/npm/browser.mjs --pkg DIR [--out bench/out] [--sizes 10k,1m,10m] [--mem-sizes 1m,10m]
//                              [--budget-ms 1500] [--slow-ms 10000]
//
// Peak memory, one fresh worker per (size, workload, contender): the input read and every module
// loaded, warm-up runs on the 10 KB input (measure.mjs's WARM_RUNS), a gc (--js-flags=--expose-gc),
// then one run whose answer is kept while measuring: the
// renderer process's resident high-water mark over its resident set before the run (the worker
// runs in the page's renderer; /proc/PID/clear_refs resets the mark; bench/npm/procmem.mjs), the
// wasm memory's size before and after, and measureUserAgentSpecificMemory's bytes for the worker
// before and after (what is live then, not the peak). A contender too slow to time twice is not
// probed (its timing row says so: cold, n = 1).
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { launch, CHROMIUM } from '../../web-demo/test/chromium.mjs';
import * as esbuild from '../../web-demo/node_modules/esbuild/lib/main.js';
import { buildPeers } from './peers-browser.mjs';
import { contenderNames, WORKLOADS } from './workloads.mjs';
import { memOf, resetPeak, descendants } from './procmem.mjs';
import { root, opt, OUT, PKG } from './cli.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = opt('--sizes', '10k,1m,10m').split(',').filter(Boolean);
const MEM_SIZES = opt('--mem-sizes', '1m,10m').split(',').filter(Boolean);
const BUDGET = Number(opt('--budget-ms', '1500'));
const SLOW = Number(opt('--slow-ms', '10000'));
const emit = (row) => process.stdout.write(JSON.stringify({ env: 'chromium', ...row }) + '\n');

const peersDir = join(root, 'build/bench-npm/peers');
const peerNames = await buildPeers(esbuild, peersDir);
const version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
const b = await launch({
  mounts: { '/pkg/': PKG, '/bench-npm/': here, '/out/': OUT, '/peers/': peersDir },
  headers: { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' },
  args: ['--js-flags=--expose-gc', '--enable-blink-features=ForceEagerMeasureMemory'],
});
try {
  const page = await b.page();
  await page.goto(b.server.url + 'web-demo/test/blank.html');
  const isolated = await page.evaluate(() => globalThis.crossOriginIsolated && typeof performance.measureUserAgentSpecificMemory === 'function');
  await page.evaluate(() => {
    let next = 0;
    const waiting = new Map();
    globalThis.bench = {
      start() {
        this.worker?.terminate();
        this.worker = new Worker('/bench-npm/worker.mjs', { type: 'module' });
        this.worker.onmessage = ({ data }) => { const w = waiting.get(data.id); waiting.delete(data.id); w(data); };
        this.worker.onerror = (e) => { for (const w of waiting.values()) w({ ok: false, error: `worker: ${e.message}` }); waiting.clear(); };
      },
      call(msg) {
        return new Promise((ok) => { const id = ++next; waiting.set(id, ok); this.worker.postMessage({ ...msg, id }); });
      },
      // The worker's live bytes (every breakdown entry attributed to a dedicated worker).
      async workerBytes() {
        const m = await performance.measureUserAgentSpecificMemory();
        return m.breakdown.filter((e) => e.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope')).reduce((n, e) => n + e.bytes, 0);
      },
    };
  });
  const call = async (msg) => {
    const r = await page.evaluate((m) => globalThis.bench.call(m), msg);
    if (!r.ok) throw new Error(`${msg.cmd}: ${r.error}`);
    return r.value;
  };
  const start = async () => {
    await page.evaluate(() => globalThis.bench.start());
    return call({ cmd: 'setup' });
  };
  const loaded = await start();
  emit({ kind: 'meta', chromium: version, cross_origin_isolated: isolated, ...loaded });

  const slow = new Set();
  for (const size of SIZES) {
    const { rows } = await call({ cmd: 'time', size, budgetMs: BUDGET, slowMs: SLOW });
    for (const r of rows) {
      emit({ kind: 'time', size, ...r });
      if (r.cold) slow.add(`${size} ${r.workload} ${r.contender}`);
    }
  }

  for (const size of MEM_SIZES) {
    for (const w of WORKLOADS) {
      for (const name of contenderNames(w, peerNames)) {
        if (slow.has(`${size} ${w} ${name}`)) { emit({ kind: 'memory', size, workload: w, contender: name, skipped: `one run takes over ${SLOW / 1000} s` }); continue; }
        await start();
        const prep = await call({ cmd: 'prepare', size, workload: w, contender: name });
        const before = isolated ? await page.evaluate(() => globalThis.bench.workerBytes()) : null;
        const renderers = descendants(process.pid, '--type=renderer');
        const rss0 = renderers.map((p) => memOf(p)?.rss ?? 0);
        for (const p of renderers) { try { resetPeak(p); } catch { /* a spare renderer gone meanwhile */ } }
        const ran = await call({ cmd: 'run' });
        const peakExtra = renderers.reduce((n, p, i) => n + Math.max(0, (memOf(p)?.hwm ?? 0) - rss0[i]), 0);
        const after = isolated ? await page.evaluate(() => globalThis.bench.workerBytes()) : null;
        const { ok } = await call({ cmd: 'check' });
        emit({
          kind: 'memory', size, workload: w, contender: name, ok, input_bytes: prep.input_bytes, ms: ran.ms,
          renderers: renderers.length, rss_before: rss0.reduce((a, x) => a + x, 0), rss_peak_extra: peakExtra,
          ...(isolated ? { worker_bytes_before: before, worker_live_extra: after - before } : {}),
          ...(name === 'editcore' ? { wasm_before: prep.wasm_before, wasm_after: ran.wasm_after } : {}),
        });
      }
    }
  }
  await page.evaluate(() => globalThis.bench.worker?.terminate());
  if (b.errors.length) emit({ kind: 'errors', errors: b.errors });
} finally {
  await b.close();
}
