#!/usr/bin/env node
// Runs the WASI command under node:wasi as Wasmtime would: stdin, stdout and stderr of this
// process, no preopened directories, the module's exit status passed through.
//   node wasm/run-wasi.mjs [build/wasi/editcore.wasm [--ceiling NAME=VALUE]...] < request.json > response.json
// Batch mode for test runners: a JSON array of request texts on stdin, a JSON array of
// response texts on stdout; each request runs in a fresh instance with its own stdio files.
// (node:wasi never closes the descriptors it is given, so keep batches to a few hundred.)
//   node wasm/run-wasi.mjs --batch [build/wasi/editcore.wasm] < requests.json
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
const batch = args[0] === '--batch';
if (batch) args.shift();
const path = args[0] ?? fileURLToPath(new URL('../build/wasi/editcore.wasm', import.meta.url));
const module = await WebAssembly.compile(readFileSync(path));

async function run(stdio) {
  const wasi = new WASI({ version: 'preview1', args: ['editcore', ...args.slice(1)], env: {}, returnOnExit: true, ...stdio });
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
