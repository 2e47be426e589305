// Gives a WASI command run by `jco run` the directories Wasmtime's `--dir` would give it.
// jco run (1.35) has no --dir and preopens nothing, so every file command of editcore fails with
// "Capabilities insufficient". Load this module before the component starts:
//
//   jco run --jco-import wasm/jco-preopen.mjs editcore.component.wasm apply reply.md
//       the current directory preopened as ".", as `wasmtime run --dir=. editcore.wasm ...`
//   EDITCORE_JCO_DIRS='src,/tmp/x::work' jco run --jco-import wasm/jco-preopen.mjs ...
//       as `wasmtime run --dir=src --dir=/tmp/x::work`: HOST alone is seen by the guest under
//       the same path, HOST::GUEST under GUEST (entries separated by commas)
//
// Nothing else of the file system is reachable and the environment is empty, as under Wasmtime
// without --env. It changes the preview2 shim that `jco run` links the component to: jco puts
// that shim (a link to its own copy) in node_modules beside the _run.js it starts, which is the
// script this module is imported from.
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const runScript = process.argv[1]; // jco run's _run.js (it renames argv[1] only after imports)
const shim = join(dirname(runScript), 'node_modules/@bytecodealliance/preview2-shim/dist/nodejs');
const fs = await import(pathToFileURL(join(shim, 'filesystem.js')).href);
const cli = await import(pathToFileURL(join(shim, 'cli.js')).href);

const spec = process.env.EDITCORE_JCO_DIRS ?? '.';
const preopens = {};
for (const entry of spec.split(',').filter(Boolean)) {
  const at = entry.indexOf('::');
  const host = at < 0 ? entry : entry.slice(0, at);
  const guest = at < 0 ? entry : entry.slice(at + 2);
  if (!host || !guest) throw new Error(`EDITCORE_JCO_DIRS: '${entry}' is not HOST or HOST::GUEST`);
  preopens[guest] = resolve(host);
}
fs._setPreopens(preopens);
cli._setEnv({});
cli._setCwd(undefined);
