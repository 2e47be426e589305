// The JS peers bundled for a browser worker (bench/npm/worker.mjs imports the result): jsdiff as
// it is, and Gemini CLI's calculateReplacement, which cannot be bundled for a browser as it is.
//
// Why not as it is: calculateReplacement lives in @google/gemini-cli-core's tools/edit.js, whose
// module graph (the edit tool, its telemetry, OAuth, the IDE client, undici, the policy engine,
// ...) imports Node built-ins: esbuild `platform: 'browser'` stops at 1,003 unresolved imports
// (node:fs, node:path, node:os, node:crypto, node:child_process, node:events, node:util, ...), and
// the graph's top-level code reads `process` and `Buffer`. calculateReplacement itself calls none
// of them: its exact, flexible and regex steps are string work, and its telemetry call
// (logEditStrategy) skips Clearcut with usage statistics off and queues a closure in a buffer while
// telemetry is not started, as it does in Node.
//
// What is used instead: the same module, bundled with every Node built-in replaced by an inert
// stand-in that has the built-in's export names (read from this Node) and answers every call with
// itself, `events` by an EventEmitter that does nothing, `buffer` and the `process` / `Buffer`
// globals by stand-ins just large enough for the graph's top-level code. Gemini's own code is not changed; the bundle is
// checked by the benchmark like every contender (its answers must equal the expected content).
import { builtinModules, createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

const INERT = `const f = function () { return p; };
const p = new Proxy(f, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => '' : k === 'then' ? undefined : k === 'prototype' ? f.prototype : p),
  apply: () => p, construct: () => ({}),
});
class Stub {}
`;
const EVENTS = `class EventEmitter {
  on() { return this; } once() { return this; } off() { return this; } addListener() { return this; }
  removeListener() { return this; } removeAllListeners() { return this; } setMaxListeners() { return this; }
  emit() { return false; } listenerCount() { return 0; } listeners() { return []; }
}
module.exports = EventEmitter; module.exports.EventEmitter = EventEmitter; module.exports.default = EventEmitter;
module.exports.once = async () => [];
`;
const GLOBALS = `const noop = () => {};
const stream = { write: () => true, on: noop, once: noop, isTTY: false, columns: 80 };
export const process = {
  env: {}, argv: [], execArgv: [], platform: 'browser', arch: 'x64', pid: 1, title: 'browser', release: {},
  version: 'v20.0.0', versions: { node: '20.0.0' }, cwd: () => '/', umask: () => 0, uptime: () => 0, getuid: () => 0,
  hrtime: Object.assign(() => [0, 0], { bigint: () => 0n }), memoryUsage: () => ({}),
  on: noop, off: noop, once: noop, removeListener: noop, listeners: () => [], emitWarning: noop, exit: noop,
  nextTick: (fn, ...a) => queueMicrotask(() => fn(...a)), stdout: stream, stderr: stream, stdin: stream,
};
class BufferStandIn extends Uint8Array {
  static from(x, enc) {
    if (typeof x !== 'string') return new BufferStandIn(x);
    return new BufferStandIn(enc === 'base64' ? Uint8Array.from(atob(x), (ch) => ch.charCodeAt(0)) : new TextEncoder().encode(x));
  }
  static alloc(n) { return new BufferStandIn(n); }
  static allocUnsafe(n) { return new BufferStandIn(n); }
  static isBuffer(x) { return x instanceof BufferStandIn; }
  static byteLength(s) { return new TextEncoder().encode(String(s)).length; }
  static concat(list) {
    const out = new BufferStandIn(list.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of list) { out.set(b, at); at += b.length; }
    return out;
  }
  toString() { return new TextDecoder().decode(this); }
}
export { BufferStandIn as Buffer };
`;

const standIns = (dir) => ({
  name: 'node-built-ins-inert',
  setup(b) {
    const builtins = new Set(builtinModules);
    b.onResolve({ filter: /.*/ }, (a) => {
      const name = a.path.replace(/^node:/, '');
      return a.path.startsWith('node:') || builtins.has(name) ? { path: name, namespace: 'inert', pluginData: dir } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'inert' }, (a) => {
      if (a.path === 'events') return { contents: EVENTS, loader: 'js' };
      if (a.path === 'buffer') return { contents: "export { Buffer } from './globals.js';", loader: 'js', resolveDir: a.pluginData };
      let real = {};
      try { real = require(a.path); } catch { /* a built-in this Node lacks (node:sqlite): no names */ }
      const names = Object.keys(real).filter((k) => k !== 'default');
      // Capitalised names are classes (extended at top level, e.g. `class X extends Writable`).
      const body = names.map((k) => `${JSON.stringify(k)}: ${/^[A-Z]/.test(k) ? 'Stub' : 'p'}`).join(', ');
      return { contents: `${INERT}module.exports = { ${body} };\n`, loader: 'js' };
    });
  },
});

/** Writes `<dir>/peers.js` (one ES module: `gemini` = { calculateReplacement }, `jsdiff`), bundled
 *  with `esbuild` (the module object). Resolves to the peers it holds, e.g. ['gemini', 'jsdiff']. */
export async function buildPeers(esbuild, dir) {
  mkdirSync(dir, { recursive: true });
  const nm = join(root, 'bench/node_modules');
  const edit = join(nm, '@google/gemini-cli-core/dist/src/tools/edit.js');
  const jsdiff = join(nm, 'diff/libesm/index.js');
  writeFileSync(join(dir, 'globals.js'), GLOBALS);
  writeFileSync(join(dir, 'entry.js'), [
    `export * as jsdiff from ${JSON.stringify(jsdiff)};`,
    `import { calculateReplacement } from ${JSON.stringify(edit)};`,
    'export const gemini = { calculateReplacement };',
  ].join('\n') + '\n');
  await esbuild.build({
    entryPoints: [join(dir, 'entry.js')], outfile: join(dir, 'peers.js'), bundle: true, format: 'esm',
    // `node` too: packages whose browser build lacks what Gemini imports (unicorn-magic's toPath).
    platform: 'browser', conditions: ['node'], loader: { '.wasm': 'empty' },
    inject: [join(dir, 'globals.js')], define: { global: 'globalThis' }, plugins: [standIns(dir)], logLevel: 'error',
  });
  return ['gemini', 'jsdiff'];
}
