// The timing loop of the npm-path benchmark (issue 28), shared by Node (bench/npm/node.mjs) and
// the Chromium worker (bench/npm/worker.mjs) so both environments measure the same way: every
// contender of a workload runs once (cold: checked), once more (warm: the probe that sizes the
// rounds), then all of them interleaved round by round, so a burst of load on the shared machine
// hits every contender alike. A contender whose cold run takes longer than `slowMs` (jsdiff on a
// 10 MB whole-file diff: about a minute) is not run again: its row is that one run (n = 1, cold),
// which keeps the whole command near 10 minutes.

/** The answer is right: the expected content and, where the contender makes one, a unified diff. */
export function answerOk(out, expect) {
  return out.content === expect && (out.diff === undefined || (typeof out.diff === 'string' && out.diff.includes('\n@@ -')));
}

/** What a caller does with an answer: the content flattened by a read (a rope string becomes a
 *  flat one, as a write or a search would make it) and the diff's text read. */
export function touch(out) {
  const { content, diff } = out;
  let sum = content.length ? content.charCodeAt(content.length >> 1) : 0;
  if (typeof diff === 'string' && diff.length) sum += diff.charCodeAt(diff.length >> 1);
  return sum;
}

/** The memory probes' warm-up runs on the 10 KB input before the measured one (enough for V8 to
 *  compile and tier up what the run calls: the peak is then the data's, not the compiler's). */
export const WARM_RUNS = 50;

export function stats(ts) {
  const s = ts.slice().sort((a, b) => a - b), n = s.length;
  return { n, median_ms: n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2, min_ms: s[0], max_ms: s[n - 1] };
}

/** Times the contenders of one workload ([{ name, run() }], bench/npm/workloads.mjs). Resolves to
 *  one row per contender: { contender, ok, has_diff, cold, n, median_ms, min_ms, max_ms }. */
export async function timeWorkload(list, expect, { budgetMs = 1500, slowMs = 10000, minRounds = 10, maxRounds = 300 } = {}) {
  const now = () => performance.now();
  let sink = 0;
  const cold = [];
  for (const c of list) {
    const t0 = now();
    const out = await c.run();
    sink += touch(out);
    cold.push(now() - t0);
    c.ok = answerOk(out, expect);
    c.hasDiff = typeof out.diff === 'string';
  }
  const fast = list.map((c, i) => i).filter((i) => cold[i] <= slowMs);
  let warmSum = 0;
  for (const i of fast) {
    const t0 = now();
    sink += touch(await list[i].run());
    warmSum += now() - t0;
  }
  const rounds = Math.max(minRounds, Math.min(maxRounds, Math.floor(budgetMs / (warmSum || 1))));
  const times = list.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < fast.length; j++) {
      const i = fast[(j + r) % fast.length];
      const t0 = now();
      sink += touch(await list[i].run());
      times[i].push(now() - t0);
    }
  }
  if (sink < 0) throw new Error('unreachable');
  return list.map((c, i) => ({
    contender: c.name, ok: c.ok, has_diff: c.hasDiff, cold: !fast.includes(i),
    ...stats(fast.includes(i) ? times[i] : [cold[i]]),
  }));
}
