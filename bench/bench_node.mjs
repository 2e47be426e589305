// Node harness of the editcore benchmarks (issue 7): editcore's two wasm builds and the
// JavaScript peers, measured in one process, interleaved, after warm-up.
//
//   node bench/bench_node.mjs [--out bench/out] [--sizes 10k,1m,10m] [--workloads W1,...]
//        [--em js/src/index.js] [--wasi build/h-bench-wasi/editcore.wasm] [--budget-ms 1500]
//        [--boundary] [--skip 10m:W4a,...] [--max-ms 5000]
//
// Prints one JSON line per (size, workload, contender), like bench_native:
//   editcore_em    the Emscripten build through the npm package (js/src/index.js applyJson:
//                  request JSON text in, response JSON text out — the same path as native
//                  editcore_json)
//   editcore_wasi  the WASI command under node:wasi (module compiled once; per run: a fresh
//                  instance reading the request from a file on stdin, writing the response)
//   gemini         @google/gemini-cli-core calculateReplacement (W1-W3; W6: 20 calls in a row)
//   jsdiff_create  jsdiff createTwoFilesPatch(before, after) (W4b; what Gemini CLI and Cline
//                  use to show a diff)
//   jsdiff_apply   jsdiff applyPatch(before, unifiedDiff) (W4a)
// With --boundary it also measures the JS<->wasm boundary for the 10 MB file.
import { readFileSync, openSync, closeSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { WASI } from 'node:wasi';
import { spawnSync } from 'node:child_process';
import { setFlagsFromString } from 'node:v8';
// node:wasi + memory growth can crash V8's incremental marking in Node 20 (see wasm/run-wasi.mjs).
setFlagsFromString('--no-incremental-marking');

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..');
const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
const OUT = resolve(opt('--out', join(here, 'out')));
const SIZES = opt('--sizes', '10k,1m,10m').split(',');
const WORKLOADS = opt('--workloads', 'W1,W2,W3,W4a,W4b,W5,W6').split(',');
const EM = resolve(opt('--em', join(root, 'js/src/index.js')));
const WASI_PATH = opt('--wasi', '');
const BUDGET = Number(opt('--budget-ms', '1500'));
const BOUNDARY = args.includes('--boundary');
const SKIP = new Set(opt('--skip', '').split(',').filter(Boolean)); // "10m:W4a"
const MAX_MS = Number(opt('--max-ms', '5000')); // slower first run: reported from that run alone

const emit = (o) => process.stdout.write(JSON.stringify(o) + '\n');
const quiet = (e) => String(e && e.message || e).slice(0, 300);

// ---- contenders -------------------------------------------------------------------------
const em = await import(pathToFileURL(EM).href);
const emMod = await em.init({ full: true });

let wasiModule = null;
if (WASI_PATH && existsSync(WASI_PATH)) wasiModule = await WebAssembly.compile(readFileSync(WASI_PATH));
const devnull = openSync('/dev/null', 'w');
function runWasi(reqPath, outFd = devnull) {
  const fd = openSync(reqPath, 'r');
  try {
    const wasi = new WASI({ version: 'preview1', args: ['editcore'], env: {}, stdin: fd, stdout: outFd, stderr: 2, returnOnExit: true });
    const inst = new WebAssembly.Instance(wasiModule, wasi.getImportObject());
    return wasi.start(inst);
  } finally { closeSync(fd); }
}

let gemini = null, jsdiff = null;
try { gemini = await import(pathToFileURL(join(here, 'node_modules/@google/gemini-cli-core/dist/src/tools/edit.js')).href); } catch (e) { emit({ warning: 'gemini-cli-core not loadable: ' + quiet(e) }); }
try { jsdiff = await import('diff'); } catch (e) { emit({ warning: 'jsdiff not loadable: ' + quiet(e) }); }
// Telemetry off: calculateReplacement logs a strategy event through this config.
const geminiConfig = { getUsageStatisticsEnabled: () => false, getSessionId: () => 'bench', getDebugMode: () => false };

function geminiStrategy(content, old, res) {
  if (res.strategy) return res.strategy;
  if (content.includes(old)) return 'exact';
  if (!res.occurrences) return 'none';
  // Its flexible step: some window of lines equal to old_string's lines, each trimmed.
  const o = old.split('\n').map((l) => l.trim()), f = content.split('\n').map((l) => l.trim());
  for (let i = 0; i + o.length <= f.length; i++) if (f[i] === o[0] && o.every((l, k) => f[i + k] === l)) return 'flexible';
  return 'regex';
}

// ---- measuring --------------------------------------------------------------------------
function stats(ts) {
  const s = ts.slice().sort((a, b) => a - b);
  const n = s.length;
  return { n, median_ms: n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2, min_ms: s[0], max_ms: s[n - 1] };
}

// contenders: [{name, run: () => void | Promise, ok, extra}] — rounds rotate the order.
async function measure(size, workload, contenders) {
  for (const c of contenders.filter((x) => x.run && x.first_ms > MAX_MS)) {
    emit({ size, workload, contender: c.name, ok: c.ok, n: 1, median_ms: c.first_ms, min_ms: c.first_ms, max_ms: c.first_ms, single_run: true, ...c.extra });
  }
  const active = contenders.filter((c) => c.run && !(c.first_ms > MAX_MS));
  let slowest = 0;
  for (let k = 0; k < 2; k++) {
    for (const c of active) {
      const t0 = performance.now();
      await c.run();
      const dt = performance.now() - t0;
      c.after?.();
      if (k === 1) slowest = Math.max(slowest, dt);
    }
  }
  const per = slowest * active.length || 1;
  const rounds = Math.max(3, Math.min(200, Math.floor(BUDGET / per)));
  const times = active.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < active.length; j++) {
      const i = (j + r) % active.length;
      const t0 = performance.now();
      await active[i].run();
      times[i].push(performance.now() - t0);
      active[i].after?.();
    }
  }
  active.forEach((c, i) => emit({ size, workload, contender: c.name, ok: c.ok, ...stats(times[i]), ...c.extra }));
  for (const c of contenders.filter((x) => !x.run)) emit({ size, workload, contender: c.name, ok: false, unavailable: true, ...c.extra });
}

const read = (size, name) => readFileSync(join(OUT, size, name), 'utf8');
const has = (size, name) => existsSync(join(OUT, size, name));

for (const size of SIZES) {
  const before = read(size, 'file.js');
  for (const w of WORKLOADS) {
    if (!has(size, `${w}.req.json`)) continue;
    if (SKIP.has(`${size}:${w}`)) { emit({ size, workload: w, contender: 'editcore_em', ok: false, skipped: true }); continue; }
    const reqPath = join(OUT, size, `${w}.req.json`);
    const reqText = readFileSync(reqPath, 'utf8');
    const expect = read(size, `${w}.expect`);
    const contenders = [];

    // editcore, Emscripten via the npm package.
    {
      let res;
      const t0 = performance.now();
      try { res = JSON.parse(em.applyJson(reqText)); } catch (e) { res = { status: 'error', error: { message: quiet(e) } }; }
      const got = res.data?.files?.['file.js']?.content;
      const unavailable = res.status === 'error' && /not (yet )?(implemented|available|supported)/i.test(res.error?.message || '');
      contenders.push({
        name: 'editcore_em', ok: got === expect, first_ms: performance.now() - t0,
        run: unavailable ? null : () => { em.applyJson(reqText); },
        extra: { status: unavailable ? 'not yet available' : res.status, strategy: res.data?.files?.['file.js']?.matches?.[0]?.strategy ?? '', error: res.error ? `${res.error.code}: ${String(res.error.message).slice(0, 200)}` : '' },
      });
    }
    // editcore, WASI command.
    if (wasiModule) {
      // Checked in a child process first: node:wasi can take the whole process down.
      const child = spawnSync(process.execPath, ['--no-warnings', join(here, 'wasi_run.mjs'), WASI_PATH, reqPath], { encoding: 'utf8', timeout: 120000 });
      const t0 = performance.now();
      let code = child.status === 0 || child.status === 1 ? null : `crashed (${child.signal || 'exit ' + child.status}) ${String(child.stderr || '').trim().slice(0, 120)}`;
      if (code === null) { try { code = runWasi(reqPath); } catch (e) { code = quiet(e); } globalThis.gc?.(); }
      // Each run's instance reserves a wasm memory; collect them untimed or V8 runs out of address space.
      contenders.push({ name: 'editcore_wasi', after: globalThis.gc, ok: code === 0, first_ms: performance.now() - t0, run: code === 0 || code === 1 ? () => { runWasi(reqPath); } : null, extra: code === 0 || code === 1 ? {} : { status: `crashed: ${code}` } });
    }
    // Gemini's replacement function (W1-W3 one call; W6 20 calls in a row).
    if (gemini && ['W1', 'W2', 'W3'].includes(w)) {
      const old = read(size, `${w}.old`), neu = read(size, `${w}.new`);
      const ctx = { currentContent: before, params: { file_path: 'file.js', old_string: old, new_string: neu } };
      const t0 = performance.now();
      const res = await gemini.calculateReplacement(geminiConfig, ctx);
      contenders.push({ name: 'gemini', ok: res.occurrences === 1 && res.newContent === expect, first_ms: performance.now() - t0, run: () => gemini.calculateReplacement(geminiConfig, ctx), extra: { strategy: geminiStrategy(before, old, res), occurrences: res.occurrences } });
    }
    if (gemini && w === 'W6') {
      const pairs = JSON.parse(read(size, 'W6.pairs.json'));
      const seq = async () => {
        let content = before, n = 0;
        for (const p of pairs) {
          const r = await gemini.calculateReplacement(geminiConfig, { currentContent: content, params: { file_path: 'file.js', old_string: p.old, new_string: p.new } });
          if (r.occurrences === 1) { content = r.newContent; n++; }
        }
        return { content, n };
      };
      const t0 = performance.now();
      const r = await seq();
      contenders.push({ name: 'gemini', ok: r.content === expect, first_ms: performance.now() - t0, run: seq, extra: { strategy: `${pairs.length} calls`, occurrences: r.n } });
    }
    // jsdiff.
    if (jsdiff && w === 'W4b') {
      const after = read(size, 'after.js');
      const t0 = performance.now();
      jsdiff.createTwoFilesPatch('a/file.js', 'b/file.js', before, after);
      contenders.push({ name: 'jsdiff_create', ok: true, first_ms: performance.now() - t0, run: () => { jsdiff.createTwoFilesPatch('a/file.js', 'b/file.js', before, after); }, extra: {} });
    }
    if (jsdiff && w === 'W4a') {
      const patch = read(size, 'W4a.text');
      const t0 = performance.now();
      const got = jsdiff.applyPatch(before, patch);
      contenders.push({ name: 'jsdiff_apply', ok: got === expect, first_ms: performance.now() - t0, run: () => { jsdiff.applyPatch(before, patch); }, extra: {} });
    }
    await measure(size, w, contenders);
  }
}

// ---- the JS<->wasm boundary with a 10 MB file --------------------------------------------
if (BOUNDARY) {
  const size = SIZES.includes('10m') ? '10m' : SIZES[SIZES.length - 1];
  const text = read(size, 'W1.req.json');
  const enc = new TextEncoder(), dec = new TextDecoder();
  const t = { encode: [], copy_in: [], decode: [], total: [] };
  for (let k = 0; k < 12; k++) {
    let t0 = performance.now();
    const bytes = enc.encode(text);
    t.encode.push(performance.now() - t0);
    t0 = performance.now();
    const p = emMod._malloc(bytes.length);
    emMod.HEAPU8.set(bytes, p);
    t.copy_in.push(performance.now() - t0);
    t0 = performance.now();
    dec.decode(emMod.HEAPU8.subarray(p, p + bytes.length));
    t.decode.push(performance.now() - t0);
    emMod._free(p);
  }
  for (const k of Object.keys(t)) if (k !== 'total') t[k] = stats(t[k].slice(2)).median_ms;
  t.total = t.encode + t.copy_in + t.decode;
  emit({ size, boundary: true, bytes: Buffer.byteLength(text), encode_ms: t.encode, copy_in_ms: t.copy_in, decode_ms: t.decode, total_ms: t.total });
}
closeSync(devnull);
