// Node (the `node` branch of the package's `#platform` import): the .wasm files are read from the
// package directory, and ASCII responses take Buffer's Latin-1 decode (a plain copy, ~50x faster
// than UTF-8 decoding a 10 MB response). Bundles for browsers and workers never reach this file.
import { readFile } from 'node:fs/promises';
import * as buffer from 'node:buffer';
import { webcrypto } from 'node:crypto';

export function defaultWasm() {
  return readFile(new URL('../dist/editcore.wasm', import.meta.url));
}

export function defaultLiteWasm() {
  return readFile(new URL('../dist/editcore-lite.wasm', import.meta.url));
}

export function defaultToolsWasm() {
  return readFile(new URL('../dist/editcore-tools.wasm', import.meta.url));
}

/** A language's syntax module (docs/syntax.md), read when a request first needs it. */
export function syntaxWasm(language) {
  return readFile(new URL(`../dist/syntax/${language}.wasm`, import.meta.url));
}

/** Decodes `view` (a Uint8Array) when it is ASCII; null otherwise (the caller uses UTF-8). */
export const asciiDecoder = typeof buffer.isAscii === 'function'
  ? (view) => (buffer.isAscii(view) ? buffer.Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('latin1') : null)
  : null;

/** Node's WebCrypto (global `crypto` only from Node 19 on). */
export const subtle = webcrypto.subtle;
