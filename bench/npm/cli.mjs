// What the npm benchmark's Node scripts share: their options (--out, --pkg, ...) and the package
// loaded the way every workload needs it.
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const args = process.argv.slice(2);
export const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : dflt; };
/** bench/gen.mjs's output folder. */
export const OUT = resolve(opt('--out', join(root, 'bench/out')));
/** The npm package's folder (bench/npm/run.sh passes the packed tarball's contents). */
export const PKG = resolve(opt('--pkg', join(root, 'js')));

/** The package in `dir` through its Node entry, the full module loaded now (the synchronous API
 *  needs it for W2/W3's strategies) and the javascript syntax module (the workloads' file is
 *  file.js; docs/syntax.md). Resolves to { api, engine } (engine: the Emscripten module, HEAPU8). */
export async function loadPackage(dir = PKG) {
  const api = await import(pathToFileURL(join(dir, 'src/index.js')).href);
  const engine = await api.init({ full: true });
  await api.loadSyntax(['javascript']);
  return { api, engine };
}
