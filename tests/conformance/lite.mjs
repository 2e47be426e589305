#!/usr/bin/env node
// The two smaller Emscripten modules against the whole engine, editcore-tools.wasm: editcore-lite.wasm
// (wasm/lite_deferred.c) and editcore.wasm (wasm/tools_deferred.c). Every conformance vector is run
// through all three. Each smaller module must either answer byte for byte as the whole one does
// (stats.time_ms aside) or say that it needs a larger module (editcore_lite_needs_full,
// editcore_needs_tools); anything else is a mismatch and fails the run.
//
//   node tests/conformance/lite.mjs [--lite build/emscripten/editcore-lite.mjs] [--shared DIR]
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? resolve(process.argv[i + 1]) : dflt; };
const litePath = arg('--lite', join(root, 'build/emscripten/editcore-lite.mjs'));
const shared = arg('--shared', process.env.EDITCORE_SHARED || resolve(root, '../shared'));

function vectors() {
  const files = [];
  for (const dir of [join(shared, 'conformance'), join(here, 'vectors')]) {
    if (existsSync(dir)) for (const f of readdirSync(dir).sort()) if (f.endsWith('.jsonl')) files.push(join(dir, f));
  }
  return files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)));
}

/** A smaller module as a function request text -> { text, needsFull }; `flag` names its export
 *  that says a run is to be discarded. */
async function moduleRunner(path, flag) {
  const wasm = readFileSync(path.replace(/\.mjs$/, '.wasm'));
  const { default: create } = await import(pathToFileURL(path).href);
  const m = await create({
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasm, imports).then((r) => receive(r.instance));
      return {};
    },
  });
  m.editcoreSyntax = syntaxService; // the package's syntax service (js/src/syntax.js), as engine.js gives it
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  return (text) => {
    const bytes = enc.encode(text);
    const req = m._malloc(bytes.length + 1);
    const lenPtr = m._malloc(4);
    m.HEAPU8.set(bytes, req);
    const res = m._editcore_run(req, bytes.length, lenPtr);
    const out = dec.decode(m.HEAPU8.subarray(res, res + m.HEAPU32[lenPtr >> 2]));
    m._editcore_free(res);
    m._free(req);
    m._free(lenPtr);
    return { text: out, needsFull: m[flag]() !== 0 };
  };
}

if (!existsSync(litePath)) {
  console.error(`${litePath} is missing: cmake --build --preset emscripten`);
  process.exit(1);
}
const full = await import(pathToFileURL(join(root, 'js/src/index.js')).href);
await full.init({ full: true });
// Every syntax module, so both modules answer for every language (js/src/syntax.js).
const { service: syntaxService } = await import(pathToFileURL(join(root, 'js/src/syntax.js')).href);
const syntaxDir = join(root, 'js/dist/syntax');
if (existsSync(syntaxDir)) await full.loadSyntax(readdirSync(syntaxDir).filter((f) => f.endsWith('.wasm')).map((f) => f.slice(0, -5)));
const smaller = [
  ['editcore-lite', await moduleRunner(litePath, '_editcore_lite_needs_full'), 'a larger module'],
  ['editcore', await moduleRunner(litePath.replace(/editcore-lite\.mjs$/, 'editcore.mjs'), '_editcore_needs_tools'), 'editcore-tools.wasm'],
];
const untimed = (s) => s.replace(/"time_ms":[0-9.]+/, '"time_ms":0');

let failed = false;
const all = vectors();
for (const [name, lite, larger] of smaller) {
let same = 0, deferred = 0;
const mismatches = [];
const byPeer = {}; // peer -> [answered by this module, deferred]
for (const v of all) {
  // As run.mjs builds it: a tool call ("tool" first), the raw text, or the edit request.
  const text = v.tool_request ? JSON.stringify({ tool: v.tool_request.tool, ...v.tool_request })
    : v.request_text ?? JSON.stringify({ format: v.format, files: v.files, edit: v.edit, profile: v.peer, ...(v.options ? { options: v.options } : {}) });
  const want = untimed(full.applyJson(text));
  const got = lite(text);
  const counts = (byPeer[v.peer ?? 'editcore'] ??= [0, 0]);
  if (got.needsFull) { deferred++; counts[1]++; }
  else if (untimed(got.text) === want) { same++; counts[0]++; }
  else mismatches.push(v.id);
}
for (const id of mismatches) console.log(`MISMATCH ${name} ${id}`);
console.log(Object.entries(byPeer).map(([p, [a, d]]) => `${p} ${a}/${a + d}`).join(', ') + ` answered by ${name}.wasm`);
console.log(`${name}: ${same} answered byte-identically, ${deferred} deferred to ${larger}, ${mismatches.length} mismatches`);
if (mismatches.length || !same || !deferred) failed = true;
}
process.exit(failed ? 1 : 0);
