#!/usr/bin/env node
// Runs a WASI preview1 command in Node's node:wasi with the whole file system under / (for
// bench/npm/peak_mem.c built for wasm32-wasi: the engine's peak with the module's 4-byte size_t).
//   node --no-warnings bench/npm/wasi-run.mjs tmp/peak_mem.wasm $PWD/bench/out/1m W4
import { WASI } from 'node:wasi';
import { readFileSync } from 'node:fs';

const [wasm, ...rest] = process.argv.slice(2);
const wasi = new WASI({ version: 'preview1', args: [wasm, ...rest], preopens: { '/': '/' }, returnOnExit: true });
const { instance } = await WebAssembly.instantiate(readFileSync(wasm), wasi.getImportObject());
process.exitCode = wasi.start(instance);
