// editcore for JavaScript: the C engine compiled by Emscripten, fed bytes, returning results.
// Works in Node, browsers and web workers. The engine does no I/O: you pass file contents in
// and decide what to do with the new contents that come back (or use createHost, src/host.js).
//
// Errors in an edit are values (a response with status "error"); only misuse of this API itself
// (a missing init, a request that is not an object, ...) throws a TypeError.
import createEditcore from '../dist/editcore.mjs';
import createEditcoreLite from '../dist/editcore-lite.mjs';
import { platform } from './platform.js';
import { service as syntaxService, takeMissing, loadLanguages, setSyntaxSources } from './syntax.js';
import { fastFiles, runFiles, syntaxOnDemand } from './fast.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Section - loading the engine
//
// Two builds of one engine (wasm/CMakeLists.txt): editcore-lite.wasm (~164 KB, the first
// download) and editcore.wasm (~358 KB, everything). The lite one lacks the regex strategy, the
// lazy and Codex formats and the peer dialects; a run that reaches one of them raises a flag
// (editcore_lite_needs_full) and its response is discarded: the request is run again on the full
// module, fetched then. A run that did not raise it is the full module's answer byte for byte
// (tests/conformance/lite.mjs, test/lite.test.js). Once the full module is loaded it serves every
// run (one run per request, no second guess).

let lite = null;       // the lite Emscripten module, once loaded
let full = null;       // the full one, once loaded
let ready = null;      // init()'s promise: the module loaded first
let fullReady = null;  // the full module's promise, once asked for
let fullSource;        // options.wasm of the init() that set the sources (undefined: the package's own)
let ceilings = {};     // setCeilings' values, given to each module as it loads

const isModule = (w) => typeof WebAssembly.Module === 'function' && w instanceof WebAssembly.Module;
const isBytes = (w) => w instanceof ArrayBuffer || ArrayBuffer.isView(w);
const isResponse = (w) => w != null && typeof w === 'object' && typeof w.arrayBuffer === 'function' && 'ok' in w;
const isUrl = (w) => typeof w === 'string' || (typeof URL === 'function' && w instanceof URL);
const isSource = (w) => isModule(w) || isBytes(w) || isResponse(w) || isUrl(w) || typeof w?.then === 'function';

async function fetchWasm(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`editcore: could not load ${url}: HTTP ${res.status}`);
  return res;
}

/** A WebAssembly.Instance of a .wasm from any of the sources init() accepts. */
async function instantiate(source, imports) {
  source = await source;
  if (isUrl(source)) source = await fetchWasm(source);
  if (isModule(source)) return WebAssembly.instantiate(source, imports);
  if (isResponse(source)) {
    if (!source.ok) throw new Error(`editcore: could not load ${source.url || 'editcore.wasm'}: HTTP ${source.status}`);
    const type = source.headers?.get?.('content-type') || '';
    if (typeof WebAssembly.instantiateStreaming === 'function' && type.startsWith('application/wasm')) {
      return (await WebAssembly.instantiateStreaming(source, imports)).instance;
    }
    source = await source.arrayBuffer();
  }
  if (isBytes(source)) return (await WebAssembly.instantiate(source, imports)).instance;
  throw new TypeError('editcore: init({ wasm }) takes bytes (ArrayBuffer, Uint8Array), a URL, a Response or a WebAssembly.Module');
}

/** One Emscripten module from its glue's factory and its .wasm (`source()` may throw: a rejection). */
function load(factory, source) {
  return new Promise((resolve, reject) => {
    let wasm;
    try { wasm = source(); } catch (e) { reject(e); return; }
    factory({
      instantiateWasm(imports, receive) {
        instantiate(wasm, imports).then((instance) => receive(instance), reject);
        return {};
      },
    }).then(resolve, reject);
  });
}

/** The full module, loaded once (from init's `wasm`, else the package's editcore.wasm); a failed load may be retried. */
function loadFull() {
  if (!fullReady) {
    const source = fullSource;
    fullReady = load(createEditcore, () => source ?? platform.defaultWasm()).then((m) => { applyCeilings(m); return (full = withSyntax(m)); });
    fullReady.catch(() => { fullReady = null; });
  }
  return fullReady;
}

/** An engine module, given the syntax service its syntax checks call (wasm/syntax_import.c). */
function withSyntax(m) {
  m.editcoreSyntax = syntaxService;
  return m;
}

const WASM_TYPES = 'bytes (ArrayBuffer, Uint8Array), a URL, a Response or a WebAssembly.Module';

/**
 * Loads the engine; later calls return the same promise. Without options the package finds its
 * files itself (Node: beside the glue; elsewhere: by URL) and loads editcore-lite.wasm; the full
 * editcore.wasm is fetched the first time a request needs it (the async functions wait for it).
 * `options.wasm` is editcore.wasm itself, for CSP-strict hosts, extensions and bundles that ship
 * the file elsewhere: bytes, a URL (string or URL), a Response (or a promise of one) or a compiled
 * WebAssembly.Module; given alone, only the full module is used. `options.wasmLite` (the same
 * forms) is editcore-lite.wasm: with it, the lite module is loaded now and `wasm` when needed.
 * `options.full: true` loads the full module now (before the synchronous functions, whatever the
 * request). Resolves to the low-level Emscripten module that serves requests now (HEAPU8,
 * _malloc, ...), for diagnostics.
 */
export function init(options = {}) {
  if (options === null || typeof options !== 'object') return Promise.reject(new TypeError('editcore: init(options) takes an object, e.g. init({ wasm })'));
  const { wasm, wasmLite, full: eager, syntaxWasm } = options;
  if (syntaxWasm !== undefined) {
    try { setSyntaxSources(syntaxWasm); } catch (e) { return Promise.reject(e); }
  }
  if (wasm !== undefined && !isSource(wasm)) return Promise.reject(new TypeError(`editcore: init({ wasm }) takes ${WASM_TYPES}`));
  if (wasmLite !== undefined && !isSource(wasmLite)) return Promise.reject(new TypeError(`editcore: init({ wasmLite }) takes ${WASM_TYPES}`));
  if (eager !== undefined && typeof eager !== 'boolean') return Promise.reject(new TypeError('editcore: init({ full }) takes a boolean'));
  if (wasm !== undefined && !fullReady) fullSource = wasm;
  if (!ready) {
    if (eager || (wasm !== undefined && wasmLite === undefined)) {
      ready = loadFull();
    } else {
      ready = load(createEditcoreLite, () => wasmLite ?? platform.defaultLiteWasm()).then((m) => { applyCeilings(m); return (lite = withSyntax(m)); });
    }
    ready.catch(() => {
      ready = null;
      if (!full && !fullReady) fullSource = undefined; // a later init() starts afresh
    });
  }
  return eager ? ready.then(() => loadFull()) : ready;
}

function needsSyntaxError(languages) {
  const e = new TypeError(`editcore: this request checks the syntax of ${languages.join(', ')}, whose module (dist/syntax/${languages[0]}.wasm) is not loaded yet; `
    + `\`await loadSyntax(${JSON.stringify(languages)})\` before the synchronous functions (applyJson, applyRequestSync), use the async ones (applyRequest, ...), which load it when needed, or send options.syntax "off"`);
  e.code = 'EDITCORE_NEEDS_SYNTAX';
  e.languages = languages;
  return e;
}

/**
 * Loads the syntax modules of `languages` ("python", "tsx", ... as data.files[path].syntax.language
 * names them), so the synchronous functions can check those files; the async functions load what
 * a request needs by themselves. Resolves when all are loaded.
 */
export async function loadSyntax(languages) {
  if (!Array.isArray(languages) || languages.some((l) => typeof l !== 'string'))
    throw new TypeError('editcore: loadSyntax(languages) takes an array of language names, e.g. ["python", "tsx"]');
  await loadLanguages(languages, true);
}

function needsFullError() {
  const e = new TypeError('editcore: this request needs the full engine (editcore.wasm), which is not loaded yet; '
    + '`await init({ full: true })` before the synchronous functions (applyJson, applyRequestSync), or use the async ones (applyRequest, ...), which load it when needed');
  e.code = 'EDITCORE_NEEDS_FULL';
  return e;
}

// Section - the byte boundary

/** The response's bytes as a string: the ASCII fast path where the platform has one, else UTF-8. */
function decodeAt(m, p, len) {
  const view = m.HEAPU8.subarray(p, p + len);
  return (platform.asciiDecoder && platform.asciiDecoder(view)) ?? decoder.decode(view);
}

/**
 * Runs one request whose UTF-8 is written into wasm memory by `fill(dst) -> bytes written`
 * (or -1 when `cap` was too small). The response is decoded straight from wasm memory and freed.
 */
function run(m, cap, fill, retryCap) {
  const lenPtr = m._malloc(4);
  let req = m._malloc(cap);
  try {
    if (!req || !lenPtr) throw new Error('editcore: out of memory');
    let written = fill(m.HEAPU8.subarray(req, req + cap));
    if (written < 0) {
      m._free(req);
      req = m._malloc(retryCap);
      if (!req) throw new Error('editcore: out of memory');
      written = fill(m.HEAPU8.subarray(req, req + retryCap));
    }
    const res = m._editcore_run(req, written, lenPtr);
    if (!res) throw new Error('editcore: out of memory');
    const out = decodeAt(m, res, m.HEAPU32[lenPtr >> 2]);
    m._editcore_free(res);
    return out;
  } finally {
    if (req) m._free(req);
    if (lenPtr) m._free(lenPtr);
  }
}

/**
 * Runs one request on the module that serves now: the full one once loaded, else the lite one.
 * Null when the lite module reached a part it leaves out (its response is discarded).
 */
function runNow(cap, fill, retryCap) {
  if (full) return run(full, cap, fill, retryCap);
  if (!lite) throw new TypeError('editcore: the engine is not loaded; call `await init()` first (the async functions do it for you)');
  lite._editcore_lite_needs_full(); // a stale flag (a run that threw) must not send this one away
  const out = run(lite, cap, fill, retryCap);
  return lite._editcore_lite_needs_full() ? null : out;
}

/**
 * runNow for the synchronous API: a request that needs the absent full module, or a syntax module
 * not loaded yet, is a misuse error (and starts loading what it needs).
 */
function runSync(cap, fill, retryCap) {
  takeMissing(); // a stale note (a run that threw) must not send this one away
  return syncAnswer(runNow(cap, fill, retryCap));
}

/** A synchronous run's answer, or the misuse error for what it lacked (the full module, null; a
 *  syntax module, noted by src/syntax.js), whose load starts now (a later attempt reports a failure). */
function syncAnswer(out) {
  if (out === null) {
    loadFull().catch(() => {});
    throw needsFullError();
  }
  const languages = takeMissing();
  if (languages.length) {
    loadLanguages(languages).catch(() => {});
    throw needsSyntaxError(languages);
  }
  return out;
}

/**
 * runNow for the async API: waits for the engine, for the full module when the request needs it,
 * and for the syntax modules of the languages it checks; a run that met a module not yet loaded
 * is discarded and made again once it is (js/src/syntax.js), so the answer is the native build's.
 */
async function runAsync(cap, fill, retryCap) {
  await init();
  for (;;) {
    takeMissing();
    let out = runNow(cap, fill, retryCap);
    if (out === null) out = run(await loadFull(), cap, fill, retryCap);
    const languages = takeMissing();
    if (!languages.length) return out;
    await loadLanguages(languages);
  }
}

/** A request string's UTF-8 written straight into wasm memory (no intermediate array): run's arguments. */
function textArgs(text) {
  const fill = (dst) => {
    const { read, written } = encoder.encodeInto(text, dst);
    return read < text.length ? -1 : written;
  };
  return [text.length + 16, fill, text.length * 3 + 16];
}

/**
 * Runs a request given as JSON text (or its UTF-8 bytes) and returns the response JSON text.
 * Synchronous: call after `await init()`. A request that needs the full module (a peer profile's
 * dialect, the lazy or Codex format, the regex strategy) while only the lite one is loaded throws
 * a TypeError (code EDITCORE_NEEDS_FULL): `await init({ full: true })` first, or use the async API.
 */
export function applyJson(text) {
  if (isBytes(text)) return runSync(...bytesArgs(text));
  if (typeof text !== 'string') throw new TypeError('editcore: applyJson(text) takes the request as a JSON string or its UTF-8 bytes');
  return runSync(...textArgs(text));
}

/**
 * applyJson for callers that can wait (the agent tools, the worker): the full module and the
 * syntax modules a request needs are loaded first, as applyRequest does. Resolves to the
 * response JSON text.
 */
export async function applyJsonAsync(text) {
  if (typeof text !== 'string') throw new TypeError('editcore: applyJsonAsync(text) takes the request as a JSON string');
  return runAsync(...textArgs(text));
}

// Section - the protocol as objects

/**
 * The request as the engine is to read it: an object goes by objectNow; a JSON text (string or
 * UTF-8 bytes) goes to the engine's strict parser as it is, never through JSON.parse; any other
 * JSON value (a number, an array, null) is serialised once and the engine says what is wrong
 * with it (INVALID_PARAM), as for the same text. Only what no JSON can carry (undefined, a
 * function) is a misuse of this API (TypeError).
 */
function requestForm(request) {
  if (typeof request === 'string' || isBytes(request)) return { text: request };
  if (request !== null && typeof request === 'object' && !Array.isArray(request)) return { object: request };
  if (request === null || typeof request === 'number' || typeof request === 'boolean' || Array.isArray(request)) return { text: serialise(request) };
  throw new TypeError('editcore: applyRequest(request) takes an object {format, files, edit, profile?, options?} or its JSON text');
}

/** JSON.stringify, except that a value nested too deep for it (a RangeError) becomes a text the
 *  engine refuses for the same reason: nested deeper than its parser reads (512 levels). */
function serialise(value) {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    if (e instanceof RangeError) return '['.repeat(513);
    throw e;
  }
}

function textNow(text) {
  return isBytes(text) ? runNow(...bytesArgs(text)) : runNow(...textArgs(text));
}

function bytesArgs(text) {
  const bytes = text instanceof Uint8Array ? text : new Uint8Array(ArrayBuffer.isView(text) ? text.buffer : text, text.byteOffset ?? 0, text.byteLength);
  return [bytes.length + 1, (dst) => { dst.set(bytes); return bytes.length; }, 0];
}

/**
 * Sets the host's ceilings for `options.limits` (docs/limits.md), after init(): e.g.
 * `setCeilings({ max_input_bytes: 256 * 2 ** 20, max_files: 50000 })`. A request may lower a
 * limit, never raise it past its ceiling; a name left out keeps the build's ceiling, and
 * `setCeilings({})` restores them all. Throws on an unknown name or a value that is not a
 * positive integer (and then restores the build's ceilings). Only the host calls this: whoever
 * writes a request cannot. The ceilings hold for both modules, the full one loaded later too.
 */
export function setCeilings(values = {}) {
  const mods = [lite, full].filter(Boolean);
  if (!mods.length) throw new TypeError('editcore: the engine is not loaded; call `await init()` first (the async functions do it for you)');
  ceilings = { ...(values ?? {}) };
  for (const m of mods) {
    const bad = applyCeilings(m);
    if (bad) {
      ceilings = {};
      for (const m2 of mods) applyCeilings(m2);
      throw new TypeError(`editcore: setCeilings: '${bad[0]}' is not a limit, or ${bad[1]} is not a positive integer`);
    }
  }
}

/** Gives module `m` the ceilings set so far; [name, value] of the first one it refuses, else null. */
function applyCeilings(m) {
  m._editcore_clear_ceilings();
  for (const [name, value] of Object.entries(ceilings)) {
    const bytes = encoder.encode(`${name}\0`);
    const p = m._malloc(bytes.length);
    if (!p) throw new Error('editcore: out of memory');
    m.HEAPU8.set(bytes, p);
    const ok = m._editcore_set_ceiling(p, Number(value));
    m._free(p);
    if (!ok) return [name, value];
  }
  return null;
}

/**
 * A request object on the module that serves now (runNow's rules for the lite module): its
 * files' bytes beside the rest of it as JSON text (src/fast.js) when they can go that way,
 * else the whole request as JSON text. Null: the lite module cannot answer it.
 */
function objectNow(request) {
  const form = requestForm(request);
  if (form.text !== undefined) {
    const out = textNow(form.text);
    return out === null ? null : JSON.parse(out);
  }
  const files = fastFiles(request);
  if (files === null) {
    const out = runNow(...textArgs(serialise(request)));
    return out === null ? null : JSON.parse(out);
  }
  const { files: _given, ...rest } = request;
  const text = serialise(rest);
  const onDemand = syntaxOnDemand(request);
  if (full) return runFiles(full, text, files, null, onDemand);
  if (!lite) throw new TypeError('editcore: the engine is not loaded; call `await init()` first (the async functions do it for you)');
  lite._editcore_lite_needs_full();
  return runFiles(lite, text, files, (m) => !m._editcore_lite_needs_full(), onDemand);
}

/**
 * Synchronous form of applyRequest, for use after `await init()`; a request that needs the full
 * module before it is loaded throws a TypeError (see applyJson).
 */
export function applyRequestSync(request) {
  takeMissing();
  return syncAnswer(objectNow(request));
}

/**
 * Applies one request (SPEC §1: {format, files, edit, profile?, options?}) and returns the
 * response object ({status, data: {files}, text, stats, error?}). A bad edit is a response with
 * status "error", never an exception. The package exports the form that also takes the fixer
 * hook (src/fixer.js, a layer above this one); this is the engine's own run. `files` values are
 * strings or Uint8Arrays (bytes in, bytes out: that file's `content` is then a Uint8Array), or
 * null for an absent file; a file's content is assembled from the original and the changed
 * pieces the first time it is read. Syntax reports are on demand (the typed API's default: nothing
 * is parsed) unless options.syntax names "report" or "refuse" (docs/syntax.md).
 */
export async function applyRequest(request) {
  requestForm(request); // a misuse throws before anything loads
  await init();
  // As runAsync: a run that met a syntax module not yet loaded is made again once it is.
  for (;;) {
    takeMissing();
    let out = objectNow(request);
    if (out === null) {
      await loadFull();
      out = objectNow(request);
    }
    const languages = takeMissing();
    if (!languages.length) return out;
    await loadLanguages(languages);
  }
}

function checkFiles(files, fn) {
  if (files === null || typeof files !== 'object' || Array.isArray(files))
    throw new TypeError(`editcore: ${fn}(files, ...) takes an object mapping paths to contents (string, bytes, or null for an absent file)`);
  for (const [path, content] of Object.entries(files))
    if (content !== null && typeof content !== 'string' && !(content instanceof Uint8Array) && typeof content?.base64 !== 'string')
      throw new TypeError(`editcore: files['${path}'] must be a string, a Uint8Array, { base64 } or null, not ${typeof content}`);
}

function withOptions(request, options, fn) {
  if (options === null || typeof options !== 'object') throw new TypeError(`editcore: ${fn}'s options must be an object`);
  const { profile, ...rest } = options;
  if (profile !== undefined) request.profile = profile;
  if (Object.keys(rest).length) request.options = rest;
  return request;
}

/**
 * One old/new string replacement in one file's content. `options`: the edit's `path` (default
 * "file"), `expected_replacements`, `replace_all`, `instruction`; `profile`; the rest are request
 * options (diff_context, strategies, ...).
 */
export async function replace(content, oldString, newString, options = {}) {
  if (typeof content !== 'string') throw new TypeError('editcore: replace(content, old, new) takes the content as a string');
  if (typeof oldString !== 'string' || typeof newString !== 'string') throw new TypeError('editcore: replace(content, old, new) takes old and new as strings');
  const { path = 'file', expected_replacements, replace_all, instruction, ...rest } = options ?? {};
  const edit = { path, old_string: oldString, new_string: newString };
  if (expected_replacements !== undefined) edit.expected_replacements = expected_replacements;
  if (replace_all !== undefined) edit.replace_all = replace_all;
  if (instruction !== undefined) edit.instruction = instruction;
  return applyRequest(withOptions({ format: 'replace', files: { [path]: content }, edit }, rest, 'replace'));
}

/**
 * Applies an edit of any format to `files` ({path: content}). `edit` is the protocol's edit
 * object with its `format` beside the fields: {format: 'search_replace', text}, ...
 * `options`: `profile` and the request options.
 */
export async function applyEdit(files, edit, options = {}) {
  checkFiles(files, 'applyEdit');
  if (edit === null || typeof edit !== 'object' || typeof edit.format !== 'string')
    throw new TypeError("editcore: applyEdit(files, edit) takes an edit object with its format, e.g. { format: 'search_replace', text }");
  const { format, ...fields } = edit;
  return applyRequest(withOptions({ format, files, edit: fields }, options, 'applyEdit'));
}

/**
 * The unified diff from `before` to `after` (null: the file is absent on that side), computed by
 * the engine as a whole-file edit. Resolves to {status, diff, lines_added, lines_removed,
 * diff_truncated, stats, error?}; identical inputs give status "success" and an empty diff.
 * `options`: `path` (the name in the diff headers, default "file"), diff_context, diff_max_bytes.
 */
export async function diff(before, after, options = {}) {
  if ((before !== null && typeof before !== 'string') || typeof after !== 'string')
    throw new TypeError('editcore: diff(before, after) takes two strings (before may be null for a new file)');
  const { path = 'file', ...rest } = options ?? {};
  const files = before === null ? {} : { [path]: before };
  const res = await applyRequest(withOptions({ format: 'whole_file', files, edit: { path, content: after } }, rest, 'diff'));
  const f = res.data?.files?.[path];
  if (before === after && res.error?.code === 'NOOP')
    return { status: 'success', diff: '', diff_truncated: false, lines_added: 0, lines_removed: 0, stats: res.stats };
  if (!f) return { status: 'error', diff: '', diff_truncated: false, lines_added: 0, lines_removed: 0, stats: res.stats, error: res.error };
  return { status: res.status, diff: f.diff, diff_truncated: f.diff_truncated, lines_added: f.lines_added, lines_removed: f.lines_removed, stats: res.stats };
}

/**
 * A model's raw reply — prose with edits in any dialect (SEARCH/REPLACE blocks, unified diffs,
 * Codex patches, whole files in fences) — applied to `files` all or nothing (format "reply",
 * docs/reply.md). `options`: `dialect` (default "auto"), `path` (the file for blocks that name
 * none), `profile` and the request options.
 */
export async function applyReply(files, replyText, options = {}) {
  checkFiles(files, 'applyReply');
  if (typeof replyText !== 'string') throw new TypeError('editcore: applyReply(files, replyText) takes the reply as a string');
  const { dialect, path, ...rest } = options ?? {};
  const edit = { text: replyText };
  if (dialect !== undefined) edit.dialect = dialect;
  if (path !== undefined) edit.path = path;
  return applyRequest(withOptions({ format: 'reply', files, edit }, rest, 'applyReply'));
}

/** The engine's version string. */
export async function version() {
  const m = await init();
  const p = m._editcore_version();
  let end = p;
  while (m.HEAPU8[end]) end++;
  return decoder.decode(m.HEAPU8.subarray(p, end));
}
