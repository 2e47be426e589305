// Cold start of the npm package in a fresh Node process: import + init() (fetching and compiling
// editcore.wasm) + the first edit (W1 on the 10 KB file). Prints one JSON line. bench/run.sh runs
// it several times, each in a new process, and reports the median.
//   node bench/cold.mjs [--em js/src/index.js] [--out bench/out]
const t0 = performance.now();
const { resolve, join, dirname } = await import('node:path');
const { pathToFileURL, fileURLToPath } = await import('node:url');
const { readFileSync } = await import('node:fs');
const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : d; };
const req = readFileSync(join(resolve(opt('--out', join(here, 'out'))), '10k', 'W1.req.json'), 'utf8');
const t1 = performance.now();
const em = await import(pathToFileURL(resolve(opt('--em', join(here, '../js/src/index.js')))).href);
await em.init();
const t2 = performance.now();
const res = JSON.parse(em.applyJson(req));
const t3 = performance.now();
console.log(JSON.stringify({ cold: true, node_start_ms: t0, init_ms: t2 - t1, first_edit_ms: t3 - t2, init_plus_first_edit_ms: t3 - t1, status: res.status }));
