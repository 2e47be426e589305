#!/usr/bin/env node
// One request through the npm package (js/src/index.js): `node npm_one.mjs request.json`.
// Valid UTF-8 goes through applyJson, as a JavaScript caller sends it (the full engine loaded when
// the request needs it); bytes that are not UTF-8 cannot be a JavaScript string, so they go to the
// module's run export as they are.
import { readFileSync, writeSync } from 'node:fs';
import { init, applyJson, loadSyntax } from '../../js/src/index.js';

const bytes = readFileSync(process.argv[2]);
const m = await init();
let text = null;
try { text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes); } catch { /* not UTF-8 */ }
if (text !== null) {
  let out;
  // The lite engine answers the common formats; a request for the others asks for the full one,
  // and a request whose files have a known language for its syntax module, as a caller of the
  // synchronous API loads them (docs: `await init({ full: true })`, `await loadSyntax([...])`).
  for (;;) {
    try { out = applyJson(text); break; } catch (e) {
      if (e.code === 'EDITCORE_NEEDS_FULL') await init({ full: true });
      else if (e.code === 'EDITCORE_NEEDS_SYNTAX') await loadSyntax(e.languages);
      else throw e;
    }
  }
  writeSync(1, out);
} else {
  const req = m._malloc(bytes.length + 1), lenPtr = m._malloc(4);
  m.HEAPU8.set(bytes, req);
  const res = m._editcore_run(req, bytes.length, lenPtr);
  if (!res) { console.error('editcore: out of memory'); process.exit(3); }
  writeSync(1, Buffer.from(m.HEAPU8.subarray(res, res + m.HEAPU32[lenPtr >> 2])));
}
