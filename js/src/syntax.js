// The syntax service of the browser build (docs/syntax.md). editcore.wasm holds no parser: when
// the engine checks a file's syntax it calls its host (wasm/syntax_import.c), and this file
// answers from that language's module — js/dist/syntax/<language>.wasm: the tree-sitter runtime,
// the grammar and the same walker the native build links, compiled to a standalone wasm with four
// exports (wasm/syntax_module.c). A module is fetched the first time a request needs its
// language, so a user who never edits Rust never downloads rust.wasm.
//
// A scan of a language whose module is not loaded yet is answered "no grammar" and the language
// is noted (`missing`); engine.js then discards that response, loads the modules and runs the
// request again, so every response a caller sees is the native build's, byte for byte.
import { platform } from './platform.js';

const decoder = new TextDecoder();

const modules = new Map();   // language -> { exports, memory }, once instantiated
const loading = new Map();   // language -> its promise, while it loads
const sources = new Map();   // language -> a source given by the host (syntaxWasm option)
/** Languages a scan asked for whose module was not loaded (cleared by takeMissing). */
const missing = new Set();
/** Languages whose module could not be had (not locatable in this bundle, HTTP error, not wasm):
 *  answered "no grammar" from then on, so edits still apply, their reports saying "skipped". */
const unavailable = new Map();
let pending = null;          // the last scan's wire bytes, until the engine takes them

// The few imports a standalone module has: tree-sitter's logging and its clock (neither is used
// by the walker: no logger, no timeout) and Emscripten's memory-growth notice.
const IMPORTS = {
  wasi_snapshot_preview1: {
    clock_time_get: () => 0,
    fd_write: () => 0,
    fd_close: () => 0,
    fd_seek: () => 0,
    proc_exit: (code) => { throw new Error(`editcore: a syntax module stopped (exit ${code})`); },
  },
  env: { emscripten_notify_memory_growth: () => {} },
};

function cString(m, p) {
  let end = p;
  while (m.HEAPU8[end]) end++;
  return decoder.decode(m.HEAPU8.subarray(p, end));
}

/** The host side of wasm/syntax_import.c, given to each engine module as Module.editcoreSyntax. */
export const service = {
  scan(m, langPtr, a, aLen, b, bLen, hasB, defsPtr) {
    const lang = cString(m, langPtr);
    const mod = modules.get(lang);
    if (!mod) {
      if (!unavailable.has(lang)) missing.add(lang);
      return -1;
    }
    const defs = m.HEAPU8.subarray(defsPtr, m.HEAPU8.indexOf(0, defsPtr) + 1);
    const { exports: x } = mod;
    const size = aLen + (hasB ? bLen : 0) + defs.length;
    const p = x.ec_sm_malloc(size);
    if (!p) throw new Error(`editcore: out of memory in the ${lang} syntax module`);
    try {
      const heap = new Uint8Array(x.memory.buffer);
      heap.set(m.HEAPU8.subarray(a, a + aLen), p);
      if (hasB) heap.set(m.HEAPU8.subarray(b, b + bLen), p + aLen);
      heap.set(defs, p + aLen + (hasB ? bLen : 0));
      const w = x.ec_sm_scan(p, aLen, p + aLen, hasB ? bLen : 0, hasB, p + aLen + (hasB ? bLen : 0));
      if (!w) throw new Error(`editcore: out of memory in the ${lang} syntax module`);
      const bytes = x.ec_sm_bytes();
      pending = new Uint8Array(x.memory.buffer, w, bytes).slice();
      x.ec_sm_free(w);
      return bytes;
    } finally {
      x.ec_sm_free(p);
    }
  },
  take(m, dst) {
    if (dst && pending) m.HEAPU8.set(pending, dst);
    pending = null;
  },
};

/** The languages the last runs asked for without their module loaded; clears the list. */
export function takeMissing() {
  const list = [...missing];
  missing.clear();
  return list;
}

async function instantiate(source) {
  source = await source;
  if (typeof source === 'string' || (typeof URL === 'function' && source instanceof URL)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`editcore: could not load ${source}: HTTP ${res.status}`);
    source = res;
  }
  if (source && typeof source.arrayBuffer === 'function' && 'ok' in source) {
    if (!source.ok) throw new Error(`editcore: could not load ${source.url}: HTTP ${source.status}`);
    source = await source.arrayBuffer();
  }
  const { instance } = source instanceof WebAssembly.Module
    ? { instance: await WebAssembly.instantiate(source, IMPORTS) }
    : await WebAssembly.instantiate(source, IMPORTS);
  instance.exports._initialize?.();
  return instance.exports;
}

/**
 * Loads the modules of `languages` (names as the engine reports them: "python", "tsx", ...).
 * A module that cannot be had is not an error of the edit: its language is marked unavailable
 * (reports say "skipped"; the reason goes to console.warn once) and the promise still resolves.
 * `strict` (loadSyntax) rejects instead, with the reason.
 */
export function loadLanguages(languages, strict = false) {
  return Promise.all(languages.map((lang) => {
    if (modules.has(lang)) return undefined;
    if (!loading.has(lang)) {
      const p = (async () => instantiate(sources.get(lang) ?? platform.syntaxWasm(lang)))().then((exports) => {
        modules.set(lang, { exports });
        unavailable.delete(lang);
        loading.delete(lang);
        return null;
      }, (e) => {
        loading.delete(lang);
        if (!unavailable.has(lang)) console.warn(`editcore: no syntax check for ${lang}: ${e.message}`);
        unavailable.set(lang, e);
        return e;
      });
      loading.set(lang, p);
    }
    return loading.get(lang).then((e) => { if (e && strict) throw e; });
  }));
}

/** Whether `lang`'s module is loaded (the synchronous API can only check what is). */
export function isLoaded(lang) {
  return modules.has(lang);
}

/**
 * Where the host serves the syntax modules from, for bundles and CSP-strict pages that ship
 * them elsewhere: a function language -> source (bytes, a URL, a Response or a
 * WebAssembly.Module, or a promise of one), or an object mapping languages to sources.
 */
export function setSyntaxSources(given) {
  if (typeof given === 'function') {
    platform.syntaxWasm = given;
  } else if (given && typeof given === 'object') {
    for (const [lang, src] of Object.entries(given)) sources.set(lang, src);
  } else {
    throw new TypeError('editcore: syntaxWasm takes a function (language) => source, or an object {language: source}');
  }
}
