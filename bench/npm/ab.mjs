#!/usr/bin/env node
// Two builds of the npm package on one workload, interleaved in one process (A, B, A, B, ...),
// so the shared machine's load falls on both alike: for a build change's effect (a link flag, a
// core change) on the npm path. Each package folder is imported as its own module instance.
//
//   node bench/npm/ab.mjs --pkg A_DIR --pkg B_DIR [--out bench/out] [--size 10m] [--workload W1] [--runs 30]
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { contenders, loadInput } from './workloads.mjs';
import { answerOk, touch, stats } from './measure.mjs';
import { args, opt, OUT, loadPackage } from './cli.mjs';

const pkgs = args.flatMap((a, i) => (a === '--pkg' ? [resolve(args[i + 1])] : []));
if (pkgs.length !== 2) throw new Error('two --pkg folders, please');
const SIZE = opt('--size', '10m'), W = opt('--workload', 'W1'), RUNS = Number(opt('--runs', '30'));
const input = loadInput((n) => readFileSync(join(OUT, SIZE, n), 'utf8'));
const runs = [];
for (const p of pkgs) {
  const { api } = await loadPackage(p);
  const c = contenders(W, input, api, {}).find((x) => x.name === 'editcore');
  const out = await c.run();
  if (!answerOk(out, input[W].expect)) throw new Error(`${p}: wrong answer`);
  runs.push({ p, c, times: [] });
}
for (let r = 0; r < RUNS; r++) {
  for (const x of r % 2 ? [...runs].reverse() : runs) {
    const t0 = performance.now();
    touch(await x.c.run());
    x.times.push(performance.now() - t0);
  }
}
for (const x of runs) {
  const s = stats(x.times);
  // Three significant digits: a 10 KB call takes tens of microseconds.
  console.log(`${x.p}: ${SIZE} ${W} median ${s.median_ms.toPrecision(3)} ms, min ${s.min_ms.toPrecision(3)} ms (n=${s.n})`);
}
