#!/usr/bin/env node
// Hostile-request runner (issue 22): every case of cases.mjs through the native CLI, the WASI
// command and the npm package, each in its own process under /usr/bin/time -v, asserting
//   - the response is valid UTF-8 JSON and carries the expected code,
//   - native: CPU time (user + system) <= 2 s and peak RSS <= 4 x input + 64 MB (the bound
//     docs/limits.md states; CPU, not wall time, because the machine is shared).
// The wasm builds' times and peaks are recorded (their peak includes Node's own ~45 MB).
//
//   node bench/hostile/run.mjs [--builds native,wasi,npm] [--id SUBSTRING] [--label NAME]
//        [--timeout SECONDS] [--native PATH] [--wasi PATH]
// Results: bench/hostile/out/<label>.jsonl; a summary table on stdout (markdown).
// Exit status 1 when a case fails its code or (native) its bound.
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync, appendFileSync, rmSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { cases } from './cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const args = { builds: ['native', 'wasi', 'npm'], id: null, label: 'latest', timeout: 60,
  native: join(root, 'build/native/editcore'), wasi: join(root, 'build/wasi/editcore.wasm') };
for (let i = 2; i < process.argv.length; i++) {
  const k = process.argv[i], v = () => process.argv[++i];
  if (k === '--builds') args.builds = v().split(',');
  else if (k === '--id') args.id = v();
  else if (k === '--label') args.label = v();
  else if (k === '--timeout') args.timeout = Number(v());
  else if (k === '--native') args.native = resolve(v());
  else if (k === '--wasi') args.wasi = resolve(v());
  else { console.error(`unknown argument ${k}`); process.exit(2); }
}
const AS_LIMIT = 6 << 30; // native runs get at most 6 GiB of address space: a runaway must not take the machine
const command = {
  native: (f) => ['prlimit', `--as=${AS_LIMIT}`, args.native, 'json'],
  wasi: (f) => [process.execPath, join(root, 'wasm/run-wasi.mjs'), args.wasi],
  npm: (f) => [process.execPath, join(here, 'npm_one.mjs'), f],
};

function measure(build, file) {
  const [cmd, ...rest] = command[build](file);
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...rest], { stdio: ['pipe', 'pipe', 'pipe'], input: build === 'npm' ? '' : undefined,
    maxBuffer: 1 << 30, timeout: args.timeout * 1000, killSignal: 'SIGKILL',
    ...(build === 'npm' ? {} : { input: undefined, stdio: [openIn(file), 'pipe', 'pipe'] }) });
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const err = r.stderr ? r.stderr.toString() : '';
  const rss = Number((err.match(/Maximum resident set size \(kbytes\): (\d+)/) || [])[1] || 0) * 1024;
  const el = (err.match(/Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)/) || []);
  const time = el.length ? (Number(el[1] || 0) * 3600 + Number(el[2]) * 60 + Number(el[3])) : wall;
  const cpu = Number((err.match(/User time \(seconds\): ([\d.]+)/) || [])[1] || 0) + Number((err.match(/System time \(seconds\): ([\d.]+)/) || [])[1] || 0);
  return { out: r.stdout ?? Buffer.alloc(0), status: r.status, signal: r.signal, timedOut: r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGKILL',
    time, cpu, rss, stderr: err.split('\n').filter((l) => !/^\t/.test(l) && !/Command (exited|being timed)/.test(l)).join('\n').trim().slice(0, 300) };
}
import { openSync, closeSync } from 'node:fs';
const opened = [];
function openIn(file) { const fd = openSync(file, 'r'); opened.push(fd); return fd; }

function judge(c, m, inputBytes, build) {
  if (m.timedOut) return { code: 'TIMEOUT', problem: `no answer within ${args.timeout} s` };
  let text;
  try { text = new TextDecoder('utf-8', { fatal: true }).decode(m.out); } catch { return { code: '?', problem: 'response is not valid UTF-8' }; }
  let resp;
  try { resp = JSON.parse(text); } catch { return { code: '?', problem: `response is not JSON (exit ${m.status} ${m.signal ?? ''}): ${text.slice(0, 120)} ${m.stderr}` }; }
  const code = resp.status === 'error' ? resp.error?.code : resp.status;
  const want = [].concat(c.expect);
  let problem = want.includes(code) ? null : `expected ${want.join('|')}, got ${code}: ${(resp.error?.message ?? resp.text ?? '').slice(0, 160)}`;
  if (!problem && c.message && !c.message.test(resp.error?.message ?? '')) problem = `message does not match ${c.message}: ${resp.error?.message?.slice(0, 160)}`;
  if (!problem && c.files) for (const p of c.files) if (!(p in (resp.data?.files ?? {}))) problem = `expected file '${p}' in the response, got ${Object.keys(resp.data?.files ?? {}).slice(0, 3)}`;
  if (!problem && resp.status === 'success' && !Object.keys(resp.data?.files ?? {}).length && !resp.data?.blocks) problem = 'success with no change';
  if (!problem && build === 'native') {
    const bound = 4 * inputBytes + (64 << 20);
    // CPU time (user + system), not wall time: the machine is shared, and a loaded machine
    // stretches the wall clock of a request whose work is bounded.
    if (m.cpu > 2) problem = `native used ${m.cpu.toFixed(2)} s of CPU (bound 2 s)`;
    else if (m.rss > bound) problem = `native peak ${(m.rss / 1048576).toFixed(0)} MB (bound ${(bound / 1048576).toFixed(0)} MB)`;
  }
  return { code, problem, message: (resp.error?.message ?? '').slice(0, 200) };
}

const outDir = join(here, 'out');
mkdirSync(outDir, { recursive: true });
const resFile = join(outDir, `${args.label}.jsonl`);
writeFileSync(resFile, '');
const tmp = join(tmpdir(), `editcore-hostile-${process.pid}`);
mkdirSync(tmp, { recursive: true });
let failures = 0;
const rows = [];
for (const c of cases) {
  if (args.id && !c.id.includes(args.id)) continue;
  const bytes = c.make();
  const file = join(tmp, 'request.json');
  writeFileSync(file, bytes);
  for (const b of args.builds) {
    const m = measure(b, file);
    while (opened.length) closeSync(opened.pop());
    const j = judge(c, m, bytes.length, b);
    if (j.problem) failures++;
    const row = { id: c.id, cat: c.cat, build: b, input_bytes: bytes.length, time_s: +m.time.toFixed(3), cpu_s: +m.cpu.toFixed(3), peak_mb: +(m.rss / 1048576).toFixed(1),
      code: j.code, ok: !j.problem, problem: j.problem ?? undefined, message: j.message || undefined };
    rows.push(row);
    appendFileSync(resFile, JSON.stringify(row) + '\n');
    console.error(`${j.problem ? 'FAIL' : 'ok  '} [${b.padEnd(6)}] ${c.id.padEnd(40)} ${String(j.code).padEnd(14)} ${m.time.toFixed(2).padStart(6)} s ${m.cpu.toFixed(2).padStart(6)} cpu ${(m.rss / 1048576).toFixed(0).padStart(5)} MB${j.problem ? '  ' + j.problem : ''}`);
  }
}
rmSync(tmp, { recursive: true, force: true });
console.log(`| case | category | input | ${args.builds.map((b) => `${b} code | ${b} CPU s | ${b} MB`).join(' | ')} |`);
console.log(`|---|---|---:|${args.builds.map(() => '---|---:|---:').join('|')}|`);
const ids = [...new Set(rows.map((r) => r.id))];
const size = (n) => n >= 1048576 ? `${(n / 1048576).toFixed(1)} MB` : n >= 1024 ? `${(n / 1024).toFixed(0)} KB` : `${n} B`;
for (const id of ids) {
  const rs = rows.filter((r) => r.id === id);
  console.log(`| ${id} | ${rs[0].cat} | ${size(rs[0].input_bytes)} | ${args.builds.map((b) => { const r = rs.find((x) => x.build === b); return r ? `${r.ok ? '' : '✗ '}${r.code} | ${r.cpu_s.toFixed(2)} | ${r.peak_mb.toFixed(0)}` : '– | – | –'; }).join(' | ')} |`);
}
console.log(`\n${rows.length - failures} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
