// editcore for JavaScript: the C engine compiled by Emscripten, fed bytes, returning results.
// Works in Node, browsers and web workers. The engine does no I/O: you pass file contents in
// and decide what to do with the new contents that come back.
import createEditcore from '../dist/editcore.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let ready = null;
// In Node: Buffer and isAscii (node:buffer). An ASCII response (most are: code is mostly ASCII) is
// decoded as Latin-1, a plain copy, ~50x faster there than UTF-8 decoding a 10 MB response.
let nodeBuffer = null;

async function wasmBytes(url) {
  if (typeof process !== 'undefined' && process.versions?.node && url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const res = await fetch(url);
  if (!res.ok) throw new Error(`editcore: could not load ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Loads the engine once. Optional `wasmBinary` (bytes) or `wasmUrl` (where editcore.wasm is
 * served) for hosts that bundle the file elsewhere. Resolves to the low-level module.
 */
export function init(options = {}) {
  if (!ready) {
    ready = (async () => {
      if (typeof process !== 'undefined' && process.versions?.node) {
        const b = await import('node:buffer').catch(() => null);
        if (b?.isAscii && b?.Buffer) nodeBuffer = b;
      }
      const binary = options.wasmBinary ?? await wasmBytes(options.wasmUrl ? new URL(options.wasmUrl, import.meta.url) : new URL('../dist/editcore.wasm', import.meta.url));
      mod = await createEditcore({ wasmBinary: binary });
      return mod;
    })();
    ready.catch(() => { ready = null; });
  }
  return ready;
}

let mod = null;

/** The response's bytes as a string: Latin-1 (a copy) when they are ASCII, else UTF-8. */
function decodeAt(m, p, len) {
  const view = m.HEAPU8.subarray(p, p + len);
  if (nodeBuffer && nodeBuffer.isAscii(view)) return nodeBuffer.Buffer.from(view.buffer, p, len).toString('latin1');
  return decoder.decode(view);
}

/** Runs a request string: UTF-8 encoded straight into wasm memory (no intermediate array). */
function runText(m, text) {
  let cap = text.length + 16; // enough when the text is ASCII
  let req = m._malloc(cap);
  const lenPtr = m._malloc(4);
  try {
    if (!req || !lenPtr) throw new Error('editcore: out of memory');
    let { read, written } = encoder.encodeInto(text, m.HEAPU8.subarray(req, req + cap));
    if (read < text.length) {
      m._free(req);
      cap = text.length * 3 + 16;
      req = m._malloc(cap);
      if (!req) throw new Error('editcore: out of memory');
      ({ written } = encoder.encodeInto(text, m.HEAPU8.subarray(req, req + cap)));
    }
    const res = m._editcore_run(req, written, lenPtr);
    if (!res) throw new Error('editcore: out of memory');
    const len = m.HEAPU32[lenPtr >> 2];
    const out = decodeAt(m, res, len);
    m._editcore_free(res);
    return out;
  } finally {
    if (req) m._free(req);
    if (lenPtr) m._free(lenPtr);
  }
}

/** Runs a request given as JSON text and returns the response JSON text (after init()). */
export function applyJson(text) {
  if (!mod) throw new Error('editcore: call await init() first');
  const t0 = performance.now();
  const out = runText(mod, String(text));
  const ms = Math.round((performance.now() - t0) * 1000) / 1000;
  // The stats object is near the end (only "error" may follow it): patch it there, without a
  // search through the whole response. Inside strings the quotes would be escaped, so this key is it.
  const at = out.lastIndexOf('"time_ms":0.000');
  return at < 0 ? out : out.slice(0, at) + `"time_ms":${ms.toFixed(3)}` + out.slice(at + 15);
}

/**
 * Applies one request (SPEC §1: {format, files, edit, profile?, options?}) and returns the
 * response object ({status, data: {files}, text, stats, error?}). Never throws for a bad edit:
 * that is a response with status "error".
 */
export async function applyRequest(request) {
  mod = mod ?? await init();
  return JSON.parse(applyJson(JSON.stringify(request)));
}

/** Synchronous form of applyRequest, for use after `await init()`. */
export function applyRequestSync(request) {
  return JSON.parse(applyJson(JSON.stringify(request)));
}

/** Convenience: one old/new string replacement in one file's content. */
export async function replace(content, oldString, newString, options = {}) {
  const { path = 'file', profile, ...edit } = options;
  const res = await applyRequest({ format: 'replace', files: { [path]: content }, edit: { path, old_string: oldString, new_string: newString, ...edit }, ...(profile ? { profile } : {}) });
  return res;
}

/**
 * Sets the host's ceilings for `options.limits` (docs/limits.md), after init(): e.g.
 * `setCeilings({ max_input_bytes: 256 * 2 ** 20, max_files: 50000 })`. A request may lower a
 * limit, never raise it past its ceiling; a name left out keeps the build's ceiling, and
 * `setCeilings({})` restores them all. Throws on an unknown name or a value that is not a
 * positive integer. Only the host calls this: whoever writes a request cannot.
 */
export function setCeilings(ceilings = {}) {
  if (!mod) throw new Error('editcore: call await init() first');
  mod._editcore_clear_ceilings();
  for (const [name, value] of Object.entries(ceilings)) {
    const bytes = encoder.encode(`${name}\0`);
    const p = mod._malloc(bytes.length);
    if (!p) throw new Error('editcore: out of memory');
    mod.HEAPU8.set(bytes, p);
    const ok = mod._editcore_set_ceiling(p, Number(value));
    mod._free(p);
    if (!ok) {
      mod._editcore_clear_ceilings();
      throw new Error(`editcore: setCeilings: '${name}' is not a limit, or ${value} is not a positive integer`);
    }
  }
}

/** The engine's version string. */
export async function version() {
  const m = mod ?? (mod = await init());
  const p = m._editcore_version();
  let end = p;
  while (m.HEAPU8[end]) end++;
  return decoder.decode(m.HEAPU8.subarray(p, end));
}
