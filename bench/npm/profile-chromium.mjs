#!/usr/bin/env node
// Where the npm path's time goes in Chromium (issue 28: W1-W3 there): runs the workload's editcore
// contender (bench/npm/workloads.mjs, the content and diff read) `--runs` times in a page of
// Debian's chromium under the DevTools CPU profiler (100 µs sampling) and prints the self time by
// function, heaviest first. The page's main thread, not a worker: the same V8 and the same Blink
// TextEncoder the worker uses, and the one a DevTools session attaches to directly. The timing
// row of bench/npm/browser.mjs stays the benchmark; this says what bounds it.
//
//   node bench/npm/profile-chromium.mjs [--out bench/out] [--size 1m] [--workload W1] [--runs 300] [--pkg js]
import { join, basename } from 'node:path';
import { launch } from '../../web-demo/test/chromium.mjs';
import { root, opt, OUT, PKG } from './cli.mjs';

const SIZE = opt('--size', '1m');
const W = opt('--workload', 'W1');
const RUNS = Number(opt('--runs', '300'));

const b = await launch({ mounts: { '/pkg/': PKG, '/in/': join(OUT, SIZE), '/benchnpm/': join(root, 'bench/npm') } });
try {
  const page = await b.page();
  await page.goto(b.server.url + 'web-demo/test/blank.html');
  await page.evaluate(async (w) => {
    const api = await import('/pkg/src/browser.js');
    const { contenders, loadInput } = await import('/benchnpm/workloads.mjs');
    const { touch } = await import('/benchnpm/measure.mjs');
    await api.init({ full: true });
    await api.loadSyntax(['javascript']);
    const files = {};
    for (const n of ['file.js', 'after.js', 'W1.old', 'W1.new', 'W1.expect', 'W2.old', 'W2.new', 'W2.expect', 'W3.old', 'W3.new', 'W3.expect'])
      files[n] = await (await fetch('/in/' + n)).text();
    const c = contenders(w, loadInput((n) => files[n]), api, {}).find((x) => x.name === 'editcore');
    globalThis.runs = async (n) => { const t = performance.now(); for (let i = 0; i < n; i++) touch(await c.run()); return (performance.now() - t) / n; };
    await globalThis.runs(50); // compiled, tiered up, memory grown
  }, W);
  const plain = await page.evaluate((n) => globalThis.runs(n), RUNS);
  const cdp = await b.browser.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
  await cdp.send('Profiler.start');
  const profiled = await page.evaluate((n) => globalThis.runs(n), RUNS);
  const { profile } = await cdp.send('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') return;
    const name = `${f.functionName || '(anonymous)'}${f.url ? ` ${basename(f.url)}:${f.lineNumber + 1}` : ''}`;
    const t = (profile.timeDeltas[i] ?? 0) / 1000;
    self.set(name, (self.get(name) ?? 0) + t);
    total += t;
  });
  const out = [`${SIZE} ${W}, editcore in a Chromium page (applyRequestSync, content and diff read), ${RUNS} runs: ${plain.toFixed(2)} ms a run, ${profiled.toFixed(2)} profiled;`,
    `${total.toFixed(0)} ms of samples.`, '', '| function (self time) | self ms | share |', '|---|---:|---:|'];
  for (const [k, t] of [...self].sort((x, y) => y[1] - x[1]).slice(0, 15)) out.push(`| \`${k}\` | ${t.toFixed(0)} | ${((100 * t) / total).toFixed(1)} % |`);
  console.log(out.join('\n'));
} finally {
  await b.close();
}
