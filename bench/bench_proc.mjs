// Whole-process contenders of the editcore benchmarks (issue 7): peers that only exist as
// commands, timed as whole runs (spawn to exit), interleaved with editcore's CLI doing the same
// job, after warm-up.
//
//   node bench/bench_proc.mjs --cli build/h-bench/editcore [--out bench/out] [--sizes ...]
//        [--budget-ms 3000] [--skip 10m:W4a]
//
//   W4b  GNU `diff -u before after`, `git diff --no-index before after`, `editcore json` (W4b)
//   W4a  `editcore json` (W4a: apply the unified diff)
//   W5   `codex --codex-run-as-apply-patch PATCH` (@openai/codex's native binary, run directly,
//        not through its Node launcher; it reads and writes file.js in a scratch directory that
//        is restored between runs, untimed), `editcore json` (W5)
// Prints JSON lines like the other harnesses.
import { readFileSync, writeFileSync, mkdtempSync, openSync, closeSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const OUT = resolve(opt('--out', join(here, 'out')));
const SIZES = opt('--sizes', '10k,1m,10m').split(',');
const CLI = resolve(opt('--cli', join(here, '../build/native/editcore')));
const BUDGET = Number(opt('--budget-ms', '3000'));
const SKIP = new Set(opt('--skip', '').split(',').filter(Boolean)); // e.g. 10m:W4a
const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n');

function codexBinary() {
  const base = join(here, 'node_modules/@openai');
  if (!existsSync(base)) return null;
  for (const d of readdirSync(base)) {
    const vendor = join(base, d, 'vendor');
    if (!existsSync(vendor)) continue;
    for (const t of readdirSync(vendor)) {
      const p = join(vendor, t, 'bin', 'codex');
      if (existsSync(p)) return p;
    }
  }
  return null;
}
const CODEX = codexBinary();

function run(cmd, argv, { stdinPath, cwd } = {}) {
  const fd = stdinPath ? openSync(stdinPath, 'r') : 'ignore';
  try {
    const r = spawnSync(cmd, argv, { cwd, stdio: [fd, 'pipe', 'pipe'], maxBuffer: 1 << 30 });
    return r;
  } finally { if (stdinPath) closeSync(fd); }
}

function stats(ts) {
  const s = ts.slice().sort((a, b) => a - b);
  const n = s.length;
  return { n, median_ms: n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2, min_ms: s[0], max_ms: s[n - 1] };
}

// contenders: [{name, setup?, run, ok}]
function measure(size, workload, contenders) {
  let slowest = 0;
  for (let k = 0; k < 2; k++) {
    for (const c of contenders) {
      c.setup?.();
      const t0 = performance.now();
      c.run();
      const dt = performance.now() - t0;
      if (k === 1) slowest = Math.max(slowest, dt);
    }
  }
  const rounds = Math.max(3, Math.min(60, Math.floor(BUDGET / (slowest * contenders.length || 1))));
  const times = contenders.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < contenders.length; j++) {
      const i = (j + r) % contenders.length;
      contenders[i].setup?.();
      const t0 = performance.now();
      contenders[i].run();
      times[i].push(performance.now() - t0);
    }
  }
  contenders.forEach((c, i) => emit({ size, workload, contender: c.name, whole_run: true, ok: c.ok, ...stats(times[i]) }));
}

const cliOk = (size, w) => {
  const r = run(CLI, ['json'], { stdinPath: join(OUT, size, `${w}.req.json`) });
  if (r.status !== 0) return { ok: false, unavailable: true };
  const res = JSON.parse(r.stdout.toString('utf8'));
  return { ok: res.data?.files?.['file.js']?.content === readFileSync(join(OUT, size, `${w}.expect`), 'utf8') };
};
const cli = (size, w) => ({ name: 'editcore_cli', ...cliOk(size, w), run: () => run(CLI, ['json'], { stdinPath: join(OUT, size, `${w}.req.json`) }) });

const scratch = mkdtempSync(join(tmpdir(), 'editcore-bench-'));
try {
  for (const size of SIZES) {
    const dir = join(OUT, size);
    if (!existsSync(join(dir, 'file.js'))) continue;
    const a = join(dir, 'file.js'), b = join(dir, 'after.js');
    // W4b: diff generation.
    {
      const cs = [
        { name: 'gnu_diff_u', ok: run('diff', ['-u', a, b]).status === 1, run: () => run('diff', ['-u', a, b]) },
        { name: 'git_diff_no_index', ok: run('git', ['diff', '--no-index', '--no-color', a, b]).status === 1, run: () => run('git', ['diff', '--no-index', '--no-color', a, b]) },
      ];
      const c = cli(size, 'W4b');
      if (!c.unavailable) cs.push(c); else emit({ size, workload: 'W4b', contender: 'editcore_cli', whole_run: true, ok: false, unavailable: true });
      measure(size, 'W4b', cs);
    }
    // W4a: applying the diff (editcore's CLI only; jsdiff applyPatch is in bench_node).
    if (SKIP.has(`${size}:W4a`)) emit({ size, workload: 'W4a', contender: 'editcore_cli', whole_run: true, ok: false, skipped: true });
    else {
      const c = cli(size, 'W4a');
      if (!c.unavailable) measure(size, 'W4a', [c]); else emit({ size, workload: 'W4a', contender: 'editcore_cli', whole_run: true, ok: false, unavailable: true });
    }
    // W5: Codex's apply_patch vs editcore's CLI.
    {
      const cs = [];
      if (CODEX) {
        const original = readFileSync(a);
        const patch = readFileSync(join(dir, 'codex.patch'), 'utf8');
        const target = join(scratch, 'file.js');
        const setup = () => writeFileSync(target, original);
        setup();
        const r = run(CODEX, ['--codex-run-as-apply-patch', patch], { cwd: scratch });
        const ok = r.status === 0 && readFileSync(target, 'utf8') === readFileSync(join(dir, 'W5.expect'), 'utf8');
        if (!ok) emit({ size, workload: 'W5', note: 'codex apply_patch: ' + (r.stderr?.toString().slice(0, 300) || 'output differs from W5.expect') });
        cs.push({ name: 'codex_apply_patch', ok, setup, run: () => run(CODEX, ['--codex-run-as-apply-patch', patch], { cwd: scratch }) });
      } else emit({ size, workload: 'W5', contender: 'codex_apply_patch', ok: false, unavailable: true });
      const c = cli(size, 'W5');
      if (!c.unavailable) cs.push(c); else emit({ size, workload: 'W5', contender: 'editcore_cli', whole_run: true, ok: false, unavailable: true });
      if (cs.length) measure(size, 'W5', cs);
    }
  }
} finally { rmSync(scratch, { recursive: true, force: true }); }
