// Loaded by `jco run --jco-import jco-preopen.mjs` before the component starts, so the command
// sees what `wasmtime run --dir=. editcore.wasm` gives it: the current directory preopened as
// ".", nothing else of the file system, no environment. (jco run alone preopens the host's "/".)
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL, fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
// The shim instance jco run links the component to: jco's own copy when npm nested one.
const nested = join(here, 'node_modules/@bytecodealliance/jco/node_modules/@bytecodealliance/preview2-shim');
const shim = existsSync(nested) ? nested : join(here, 'node_modules/@bytecodealliance/preview2-shim');
const fs = await import(pathToFileURL(join(shim, 'dist/nodejs/filesystem.js')).href);
const cli = await import(pathToFileURL(join(shim, 'dist/nodejs/cli.js')).href);
fs._setPreopens({ '.': process.cwd() });
cli._setEnv({});
cli._setCwd(undefined);
