#!/usr/bin/env node
// Two builds of the npm package on one workload, interleaved in one process (A, B, A, B, ...),
// so the shared machine's load falls on both alike: for a build change's effect (a link flag, a
// core change) on the npm path. Each package folder is imported as its own module instance.
//
//   node bench/npm/ab.mjs --pkg A_DIR --pkg B_DIR [--out bench/out] [--size 10m] [--workload W1] [--runs 30]
//        [--apart ROUNDS]
//
// In one process both packages share one JavaScript heap, so garbage that one package's calls
// leave for the collector (or keep alive longer) slows the other's collections too, and a call's
// minimum never includes a collection. `--apart ROUNDS` runs each package in a process of its own
// instead, ROUNDS processes each, alternating (A, B, B, A, ...), `--runs` calls split among them;
// the median and the mean per call (total time / calls, collections included) then show a change
// in what a call allocates (on a loaded machine the mean also carries the load's pauses).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { contenders, loadInput } from './workloads.mjs';
import { answerOk, touch, stats } from './measure.mjs';
import { args, opt, OUT, loadPackage } from './cli.mjs';

const pkgs = args.flatMap((a, i) => (a === '--pkg' ? [resolve(args[i + 1])] : []));
const child = args.includes('--child');
if (pkgs.length !== (child ? 1 : 2)) throw new Error('two --pkg folders, please');
const SIZE = opt('--size', '10m'), W = opt('--workload', 'W1'), RUNS = Number(opt('--runs', '30'));
const APART = Number(opt('--apart', '0'));
const input = loadInput((n) => readFileSync(join(OUT, SIZE, n), 'utf8'));

/** The package's editcore contender, its answer checked. */
async function contender(p) {
  const { api } = await loadPackage(p);
  const c = contenders(W, input, api, {}).find((x) => x.name === 'editcore');
  if (!answerOk(await c.run(), input[W].expect)) throw new Error(`${p}: wrong answer`);
  return c;
}

const line = (p, times) => {
  const s = stats(times), mean = times.reduce((a, b) => a + b, 0) / times.length;
  // Three significant digits: a 10 KB call takes tens of microseconds.
  return `${p}: ${SIZE} ${W} median ${s.median_ms.toPrecision(3)} ms, min ${s.min_ms.toPrecision(3)} ms, mean ${mean.toPrecision(3)} ms (n=${s.n})`;
};

if (child) {
  // One package alone: warm (3,000 calls: compiled and tiered up, memory grown), then RUNS timed calls as JSON.
  const c = await contender(pkgs[0]);
  for (let i = 0; i < 3000; i++) touch(await c.run());
  const times = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    touch(await c.run());
    times.push(performance.now() - t0);
  }
  process.stdout.write(JSON.stringify(times));
} else if (APART) {
  const all = pkgs.map(() => []);
  const per = Math.ceil(RUNS / APART);
  for (let r = 0; r < APART; r++) {
    for (const k of r % 2 ? [1, 0] : [0, 1]) {
      const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', '--pkg', pkgs[k], '--out', OUT,
        '--size', SIZE, '--workload', W, '--runs', String(per)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
      if (out.status !== 0) throw new Error(`${pkgs[k]}: exit ${out.status}`);
      all[k].push(...JSON.parse(out.stdout));
    }
  }
  pkgs.forEach((p, k) => console.log(line(p, all[k])));
} else {
  const runs = [];
  for (const p of pkgs) runs.push({ p, c: await contender(p), times: [] });
  for (let r = 0; r < RUNS; r++) {
    for (const x of r % 2 ? [...runs].reverse() : runs) {
      const t0 = performance.now();
      touch(await x.c.run());
      x.times.push(performance.now() - t0);
    }
  }
  for (const x of runs) console.log(line(x.p, x.times));
}
