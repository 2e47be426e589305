#!/usr/bin/env node
// Runs the WASI command under node:wasi as Wasmtime would: stdin, stdout and stderr of this
// process, no preopened directories, the module's exit status passed through.
//   node wasm/run-wasi.mjs [build/wasi/editcore.wasm [--ceiling NAME=VALUE]...] < request.json > response.json
// Batch mode for test runners: a JSON array of request texts on stdin, a JSON array of
// response texts on stdout; each request runs in a fresh instance with its own stdio files.
// (node:wasi never closes the descriptors it is given, so keep batches to a few hundred.)
//   node wasm/run-wasi.mjs --batch [build/wasi/editcore.wasm] < requests.json
// Commands with a preopened directory, as `wasmtime run --dir=HOST[::GUEST] editcore.wasm ARGS`:
//   node wasm/run-wasi.mjs --dir . [--dir /tmp/x::work] [build/wasi/editcore.wasm] [--] apply reply.md
// (a module path is recognised by its .wasm ending; everything after it, or after --, is argv).
import { readFileSync, writeFileSync, openSync, mkdtempSync, rmSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';

process.removeAllListeners('warning'); // node:wasi's ExperimentalWarning
// Node 20's V8 can crash in incremental GC marking while a WASI module grows its memory
// (seen on 10 MB requests: a fatal error in MarkCompactCollector under WasmMemoryGrow).
// Marking without increments avoids it; the cost is longer but rarer pauses.
setFlagsFromString('--no-incremental-marking');
const args = process.argv.slice(2);
let batch = false, path = null;
const preopens = {}, argv = [];
while (args.length) {
  const a = args.shift();
  if (a === '--batch') batch = true;
  else if (a === '--dir' || a.startsWith('--dir=')) {
    const spec = a === '--dir' ? args.shift() : a.slice(6);
    const [host, guest] = spec.split('::');
    preopens[guest ?? host] = host;
  } else if (a === '--') { argv.push(...args.splice(0)); }
  else if (path === null && argv.length === 0 && a.endsWith('.wasm')) path = a;
  else { argv.push(a, ...args.splice(0)); }
}
path ??= fileURLToPath(new URL('../build/wasi/editcore.wasm', import.meta.url));
const module = await WebAssembly.compile(readFileSync(path));

async function run(stdio) {
  const wasi = new WASI({ version: 'preview1', args: ['editcore', ...argv], env: {}, preopens, returnOnExit: true, ...stdio });
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  return wasi.start(instance);
}

if (!batch) {
  process.exitCode = await run({});
} else {
  const requests = JSON.parse(readFileSync(0, 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'editcore-wasi-'));
  const responses = [];
  try {
    for (const [i, text] of requests.entries()) {
      const inPath = join(dir, `${i}.in`), outPath = join(dir, `${i}.out`);
      writeFileSync(inPath, text);
      writeFileSync(outPath, '');
      const code = await run({ stdin: openSync(inPath, 'r'), stdout: openSync(outPath, 'w'), stderr: 2 });
      const out = readFileSync(outPath, 'utf8').trimEnd();
      responses.push(code === 0 || code === 1 ? out : `exit ${code}: ${out}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(responses));
}
