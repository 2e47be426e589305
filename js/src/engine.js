// editcore for JavaScript: the C engine compiled by Emscripten, fed bytes, returning results.
// Works in Node, browsers and web workers. The engine does no I/O: you pass file contents in
// and decide what to do with the new contents that come back (or use createHost, src/host.js).
//
// Errors in an edit are values (a response with status "error"); only misuse of this API itself
// (a missing init, a request that is not an object, ...) throws a TypeError.
import createEditcore from '../dist/editcore.mjs';
import createEditcoreLite from '../dist/editcore-lite.mjs';
import createEditcoreTools from '../dist/editcore-tools.mjs';
import { platform } from './platform.js';
import { service as syntaxService, takeMissing, loadLanguages, setSyntaxSources } from './syntax.js';
import { fastFiles, besideEdit, runFiles, syntaxOnDemand } from './fast.js';
import { kernelsFor, memoryOf } from './kernels.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Section - loading the engine
//
// Three builds of one engine (wasm/CMakeLists.txt), each a subset of the next:
// editcore-lite.wasm (the first download), editcore.wasm (the full edit engine: every format,
// strategy and diagnosis) and editcore-tools.wasm (the whole core: the agent tools, the hosts'
// write protocol, self-correction and the peer profiles' own emulations too). A run on a smaller module that reaches a part it
// lacks raises a flag (editcore_lite_needs_full, editcore_needs_tools) naming the module that
// answers, and its response is discarded: the request is run again there, fetched then. A run that
// did not raise it is the whole engine's answer byte for byte (tests/conformance/lite.mjs,
// test/lite.test.js). The largest module loaded serves every run (one run per request, no second
// guess).

const LITE = 0, FULL = 1, TOOLS = 2; // the modules' places in `modules`, smallest first
const factories = [createEditcoreLite, createEditcore, createEditcoreTools];
const defaults = [() => platform.defaultLiteWasm(), () => platform.defaultWasm(), () => platform.defaultToolsWasm()];
const modules = [null, null, null]; // each Emscripten module, once loaded
const loading = [null, null, null]; // each one's promise, once asked for
let sources = [];      // init's wasmLite, wasm, wasmTools (undefined: the package's own file)
let ready = null;      // init()'s promise: the module loaded first
let needed = 0;        // the module the last run that was discarded needs (FULL or TOOLS)
let ceilings = {};     // setCeilings' values, given to each module as it loads

/** The module that serves now: the largest one loaded. */
const serving = () => modules[TOOLS] ?? modules[FULL] ?? modules[LITE];

/** Which larger module the last run on `m` needs (0: none, its answer stands); clears m's flag. */
function deferral(m) {
  if (m === modules[LITE]) {
    const flag = m._editcore_lite_needs_full(); // 1: editcore.wasm answers; 2: only editcore-tools.wasm
    return flag > 1 ? TOOLS : flag ? FULL : 0;
  }
  if (m === modules[FULL]) return m._editcore_needs_tools() ? TOOLS : 0;
  return 0;
}

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
    let wasm, memory = null;
    try { wasm = source(); } catch (e) { reject(e); return; }
    factory({
      instantiateWasm(imports, receive) {
        instantiate(wasm, imports).then((instance) => { memory = memoryOf(instance); receive(instance); }, reject);
        return {};
      },
    }).then((m) => { m.editcoreKernels = kernelsFor(memory); resolve(m); }, reject);
  });
}

/** Module `which` (LITE, FULL, TOOLS), loaded once (from init's source, else the package's file); a failed load may be retried. */
function loadModule(which) {
  if (!loading[which]) {
    const source = sources[which];
    loading[which] = load(factories[which], () => source ?? defaults[which]()).then((m) => { applyCeilings(m); return (modules[which] = withSyntax(m)); });
    loading[which].catch(() => { loading[which] = null; });
  }
  return loading[which];
}

/** What init({ full: true }) loads: the module that answers every request, editcore-tools.wasm,
 *  unless the host gave editcore.wasm alone (init({ wasm }) without wasmTools): then that one. */
const everything = () => (sources[FULL] !== undefined && sources[TOOLS] === undefined ? FULL : TOOLS);

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
 * WebAssembly.Module; given alone, it is loaded first (no lite module). `options.wasmLite` (the same
 * forms) is editcore-lite.wasm: with it, the lite module is loaded now and `wasm` when needed.
 * `options.wasmTools` (the same forms) is editcore-tools.wasm, the whole engine, fetched the first
 * time a request needs what editcore.wasm leaves out (a tool call, the write protocol,
 * self-correction, the aider, roo, gemini, claude and openhands profiles). `options.full: true` loads now the module that answers every request
 * (editcore-tools.wasm; editcore.wasm when `wasm` is given without `wasmTools`), for the
 * synchronous functions. Resolves to the low-level Emscripten module that serves requests now
 * (HEAPU8, _malloc, ...), for diagnostics.
 */
export function init(options = {}) {
  if (options === null || typeof options !== 'object') return Promise.reject(new TypeError('editcore: init(options) takes an object, e.g. init({ wasm })'));
  const { wasm, wasmLite, wasmTools, full: eager, syntaxWasm } = options;
  if (syntaxWasm !== undefined) {
    try { setSyntaxSources(syntaxWasm); } catch (e) { return Promise.reject(e); }
  }
  if (wasm !== undefined && !isSource(wasm)) return Promise.reject(new TypeError(`editcore: init({ wasm }) takes ${WASM_TYPES}`));
  if (wasmLite !== undefined && !isSource(wasmLite)) return Promise.reject(new TypeError(`editcore: init({ wasmLite }) takes ${WASM_TYPES}`));
  if (wasmTools !== undefined && !isSource(wasmTools)) return Promise.reject(new TypeError(`editcore: init({ wasmTools }) takes ${WASM_TYPES}`));
  if (eager !== undefined && typeof eager !== 'boolean') return Promise.reject(new TypeError('editcore: init({ full }) takes a boolean'));
  for (const [which, source] of [[LITE, wasmLite], [FULL, wasm], [TOOLS, wasmTools]])
    if (source !== undefined && !loading[which]) sources[which] = source;
  if (!ready) {
    if (eager) ready = loadModule(everything());
    else if (wasm !== undefined && wasmLite === undefined) ready = loadModule(FULL);
    else ready = loadModule(LITE);
    ready.catch(() => {
      ready = null;
      for (const which of [LITE, FULL, TOOLS]) if (!loading[which]) sources[which] = undefined; // a later init() starts afresh
    });
  }
  return eager ? ready.then(() => loadModule(everything())) : ready;
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
  const name = needed === TOOLS ? 'the whole engine (editcore-tools.wasm: agent tools, write protocol, self-correction)' : 'the full engine (editcore.wasm)';
  const e = new TypeError(`editcore: this request needs ${name}, which is not loaded yet; `
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

/** The module that serves now, its flag cleared (a stale one, from a run that threw, must not send this run away). */
function servingNow() {
  const m = serving();
  if (!m) throw new TypeError('editcore: the engine is not loaded; call `await init()` first (the async functions do it for you)');
  deferral(m);
  return m;
}

/** True when the run just made on `m` is to be discarded; `needed` names the module that answers it. */
const discarded = (m) => (needed = deferral(m)) !== 0;

/**
 * Runs one request on the module that serves now (the largest loaded). Null when it reached a
 * part that module leaves out (its response is discarded; `needed` says which module answers).
 */
function runNow(cap, fill, retryCap) {
  const m = servingNow();
  const out = run(m, cap, fill, retryCap);
  return discarded(m) ? null : out;
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
    loadModule(needed).catch(() => {});
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
    while (out === null) {
      await loadModule(needed);
      out = runNow(cap, fill, retryCap);
    }
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
  const mods = modules.filter(Boolean);
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

const LONE_SURROGATE = /\\ud[89a-f]/;

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
  const [rest, members] = besideEdit(request);
  const text = serialise(rest);
  // A lone surrogate (JSON.stringify's \udXXX) is refused with its byte offset in the request
  // text: the whole request's, as JSON text gets it (a literal backslash before "ud8" only takes
  // this slower path too).
  if (LONE_SURROGATE.test(text)) {
    const out = runNow(...textArgs(serialise(request)));
    return out === null ? null : JSON.parse(out);
  }
  const onDemand = syntaxOnDemand(request);
  const m = servingNow();
  return runFiles(m, text, files, members, m === modules[TOOLS] ? null : (mm) => !discarded(mm), onDemand);
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
    while (out === null) {
      await loadModule(needed);
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
