// Runs the WASI command once on a request file in its own process (bench_node.mjs uses it to
// check a workload before timing it in-process: node:wasi has crashed the whole process on
// large-memory runs). Exit status: the command's; 70 + message on stderr if it trapped.
//   node bench/wasi_run.mjs editcore.wasm request.json
import { readFileSync, openSync, closeSync } from 'node:fs';
import { WASI } from 'node:wasi';
import { setFlagsFromString } from 'node:v8';
// node:wasi + memory growth can crash V8's incremental marking in Node 20 (see wasm/run-wasi.mjs).
setFlagsFromString('--no-incremental-marking');
process.removeAllListeners('warning');
const [wasm, req] = process.argv.slice(2);
const fd = openSync(req, 'r'), out = openSync('/dev/null', 'w');
try {
  const wasi = new WASI({ version: 'preview1', args: ['editcore'], env: {}, stdin: fd, stdout: out, stderr: 2, returnOnExit: true });
  const inst = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(wasm)), wasi.getImportObject());
  const code = wasi.start(inst);
  closeSync(fd); closeSync(out);
  process.exitCode = code;
} catch (e) { console.error(String(e && e.message || e)); process.exitCode = 70; }
