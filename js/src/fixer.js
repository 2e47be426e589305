// Self-correction with the host's model (docs/correction.md): when an edit fails with an error
// the model can repair (NO_MATCH, AMBIGUOUS, ...), ask the core for the correction prompt, hand it
// to the host's `fixer` (its model call), and run the reply back through the core, which checks it
// like any edit. The prompts, the reply parsing and every check live in the core; this file only
// sequences the two steps around the host's async call: attempts, abort and timeout, the cache of
// accepted replies, the file-type switch, the lock on the files the prompt saw.
import { applyRequest as run } from './engine.js'; // each run waits for the full module when it needs it (engine.js)
import { platform } from './platform.js';
import { isContent, fromProtocol } from './bytes.js';

const encoder = new TextEncoder();

/** A refused correction worth another attempt (a fresh answer from the model). */
const RETRYABLE = new Set(['NO_MATCH', 'AMBIGUOUS', 'COUNT_MISMATCH', 'INVALID_REPLY']);
const DEFAULT_SKIP = ['.json', '.ipynb'];
const DEFAULT_TIMEOUT_MS = 40000;
const DEFAULT_CACHE_SIZE = 50;

// Section - the cache

/**
 * An LRU map of accepted model replies, keyed by the SHA-256 of the files' contents, the failed
 * edit and its error. Only replies the core accepted (success or NOOP) are kept, so a retried
 * failure costs no second model call, and a refused answer is never replayed.
 */
export class FixerCache {
  constructor(size = DEFAULT_CACHE_SIZE) {
    if (!Number.isInteger(size) || size < 0) throw new TypeError('editcore: FixerCache(size) takes a whole number >= 0');
    this.size = size;
    this.map = new Map();
  }
  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value); // most recently used last
    return value;
  }
  set(key, value) {
    if (this.size === 0) return;
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.size) this.map.delete(this.map.keys().next().value);
  }
  clear() { this.map.clear(); }
}

/** A new LRU cache of `size` accepted replies (default 50), to share between applyRequest calls. */
export function createFixerCache(size = DEFAULT_CACHE_SIZE) {
  return new FixerCache(size);
}

const sharedCache = new FixerCache(DEFAULT_CACHE_SIZE); // the default: one per loaded package

// Section - hashing (SubtleCrypto: browsers, workers, Node's webcrypto)

function subtle() {
  return platform.subtle ?? globalThis.crypto?.subtle ?? null;
}

/** SHA-256 of a string's UTF-8 or of bytes (a Uint8Array), as hex. */
async function sha256Hex(text) {
  const s = subtle();
  if (!s) return null; // e.g. a page served over plain http: no cache, no lock (documented)
  const digest = new Uint8Array(await s.digest('SHA-256', typeof text === 'string' ? encoder.encode(text) : text));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** {path: sha256 hex} of the bytes of the files the prompt is built from (a string, or { base64 }:
 *  bytes that are not UTF-8); null without SubtleCrypto. */
async function hashFiles(files) {
  const out = {};
  for (const [path, content] of Object.entries(files)) {
    if (!isContent(content)) continue;
    const h = await sha256Hex(typeof content === 'string' ? content : fromProtocol(content));
    if (h === null) return null;
    out[path] = h;
  }
  return out;
}

// Section - requests

function checkRequest(request, fn) {
  if (request === null || typeof request !== 'object' || Array.isArray(request) || typeof request.format !== 'string')
    throw new TypeError(`editcore: ${fn}(request) takes the failed request {format, files, edit, profile?, options?}`);
}

const CORRECTION_FIELDS = ['mode', 'instruction', 'corrected_old_string', 'max_region_lines', 'max_region_bytes'];

/** The correction_prompt / correction_apply request around `failed` (docs/correction.md). */
function correctionRequest(format, failed, correction = {}, extra = {}) {
  const edit = { failed: { format: failed.format, edit: failed.edit } };
  for (const k of CORRECTION_FIELDS) if (correction[k] !== undefined) edit[k] = correction[k];
  Object.assign(edit, extra);
  const req = { format, files: failed.files ?? {}, edit };
  if (failed.profile !== undefined) req.profile = failed.profile;
  if (failed.options !== undefined) req.options = failed.options;
  return req;
}

function withExpectedHash(request, hashes) {
  if (!hashes) return request;
  const options = { ...(request.options ?? {}) };
  options.expected_hash = { ...hashes, ...(options.expected_hash ?? {}) }; // the caller's own lock wins
  return { ...request, options };
}

function checkCorrection(opts, fn) {
  if (opts === null || typeof opts !== 'object') throw new TypeError(`editcore: ${fn}'s options must be an object`);
  for (const k of Object.keys(opts))
    if (!CORRECTION_FIELDS.includes(k) && k !== 'promptFiles')
      throw new TypeError(`editcore: ${fn}: unknown option '${k}' (known: ${CORRECTION_FIELDS.join(', ')}, promptFiles)`);
}

/**
 * The correction prompt for a failed request: the core's correction_prompt response, whose
 * `data.prompt` is {system, user, schema}. `opts`: mode, instruction, corrected_old_string,
 * max_region_lines, max_region_bytes (docs/correction.md). An edit that applies, or whose error
 * is not the model's to repair, answers with an error (INVALID_PARAM, or the original error).
 */
export async function correctionPrompt(request, opts = {}) {
  checkRequest(request, 'correctionPrompt');
  checkCorrection(opts, 'correctionPrompt');
  return run(correctionRequest('correction_prompt', request, opts));
}

/**
 * Runs the model's raw `reply` to a correction prompt back through the core (correction_apply):
 * the answer is checked like any edit and answers like one (matches by strategy "llm",
 * `data.explanation`), or INVALID_REPLY / NO_MATCH / NOOP. `opts`: the same correction options as
 * correctionPrompt, and `promptFiles` — the files the prompt was built from: their SHA-256 go into
 * options.expected_hash, so a file that changed since the prompt is refused (CONFLICT).
 */
export async function correctionApply(request, reply, opts = {}) {
  checkRequest(request, 'correctionApply');
  if (typeof reply !== 'string') throw new TypeError('editcore: correctionApply(request, reply) takes the model\'s reply as a string');
  checkCorrection(opts, 'correctionApply');
  const { promptFiles, ...correction } = opts;
  let req = correctionRequest('correction_apply', request, correction, { reply });
  if (promptFiles !== undefined) req = withExpectedHash(req, await hashFiles(promptFiles));
  return run(req);
}

// Section - the hook

function checkHookOptions(o) {
  if (typeof o.fixer !== 'function') throw new TypeError('editcore: run(request, { fixer }): fixer must be an async function ({system, user, schema}) -> reply text');
  const maxAttempts = o.maxAttempts ?? 1;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new TypeError('editcore: maxAttempts must be a whole number >= 1');
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) throw new TypeError('editcore: timeoutMs must be a number > 0 (milliseconds)');
  if (o.signal !== undefined && (o.signal === null || typeof o.signal.aborted !== 'boolean' || typeof o.signal.addEventListener !== 'function'))
    throw new TypeError('editcore: signal must be an AbortSignal');
  let cache = o.cache;
  if (cache === undefined) cache = sharedCache;
  else if (typeof cache === 'number') cache = new FixerCache(cache);
  else if (cache !== false && (typeof cache?.get !== 'function' || typeof cache?.set !== 'function'))
    throw new TypeError('editcore: cache takes false, a size (a cache for this call only), or a cache from createFixerCache(size) (any {get, set})');
  let skip = o.skip ?? DEFAULT_SKIP;
  if (Array.isArray(skip)) {
    const exts = skip.map((e) => String(e).toLowerCase());
    skip = (path) => exts.some((e) => path.toLowerCase().endsWith(e));
  } else if (typeof skip !== 'function') throw new TypeError('editcore: skip takes a list of file endings (e.g. [".json"]) or a function (path) -> boolean');
  const correction = o.correction ?? {};
  checkCorrection(correction, 'applyRequest');
  return { fixer: o.fixer, maxAttempts, timeoutMs, signal: o.signal, cache: cache === false ? null : cache, skip, correction };
}

/** The file a failed request is about: the error's path, the edit's, or the only file. */
function failedPath(request, response) {
  if (typeof response.error?.path === 'string') return response.error.path;
  if (typeof request.edit?.path === 'string') return request.edit.path;
  const names = Object.keys(request.files ?? {});
  return names.length === 1 ? names[0] : null;
}

/** The original error, unchanged but for a note on why no correction was made. */
function withNote(response, outcome, note, info) {
  return { ...response, text: `${response.text}\n(self-correction: ${note}; this is the original error)`, fixer: { ...info, outcome, note } };
}

class Stop extends Error {
  constructor(outcome, note) { super(note); this.outcome = outcome; }
}

/** Calls the fixer once, bounded by the caller's signal and the timeout; its own signal is passed on. */
function callFixer(fixer, prompt, signal, timeoutMs) {
  const ctrl = new AbortController();
  let timer = null;
  let onAbort = null;
  const stopped = new Promise((_, reject) => {
    onAbort = () => { ctrl.abort(signal.reason); reject(new Stop('aborted', 'the model call was aborted')); };
    if (signal) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    timer = setTimeout(() => {
      ctrl.abort(new Error('timeout'));
      reject(new Stop('timeout', `the model call timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const call = Promise.resolve().then(() => fixer(prompt, { signal: ctrl.signal }));
  call.catch(() => {}); // a late rejection after a stop is nobody's business
  return Promise.race([call, stopped]).then(
    (reply) => {
      if (typeof reply !== 'string') throw new Stop('fixer_error', `the fixer returned ${reply === null ? 'null' : typeof reply}, not the model's reply text`);
      return reply;
    },
    (e) => { throw e instanceof Stop ? e : new Stop('fixer_error', `the fixer failed: ${e?.message ?? e}`); },
  ).finally(() => {
    clearTimeout(timer);
    if (signal) signal.removeEventListener('abort', onAbort);
  });
}

/** The response names only files the request named (a move's destination must be named too). */
function namesOnlyRequestFiles(request, response) {
  const named = new Set(Object.keys(request.files ?? {}));
  if (typeof request.edit?.path === 'string') named.add(request.edit.path);
  for (const [path, f] of Object.entries(response.data?.files ?? {})) {
    if (!named.has(path)) return path;
    if (f?.moved_to !== undefined && !named.has(f.moved_to)) return f.moved_to;
  }
  return null;
}

/**
 * applyRequest(request, { fixer, ... }): the edit, and when it fails with an error the model can
 * repair, up to `maxAttempts` corrections by the host's model (docs/correction.md, js/README.md).
 * Every outcome is a response; only misuse of the options throws.
 */
export async function applyWithFixer(request, options) {
  const o = checkHookOptions(options);
  const original = await run(request);
  const info = { attempts: 0, calls: 0, cached: false };
  // Which failures a model may repair is the core's call (correction_prompt answers an error for
  // the others: NOT_FOUND, CONFLICT, ...); NOOP (the edit is already there) is never worth a call.
  if (original.status !== 'error' || original.error?.code === 'NOOP') return original;
  const path = failedPath(request, original);
  if (path !== null && o.skip(path)) return withNote(original, 'skipped', `not attempted for '${path}' (skipped file type)`, info);
  if (o.signal?.aborted) return withNote(original, 'aborted', 'aborted before the model was asked', info);

  const seen = { ...(request.files ?? {}) }; // the contents the prompt is built from
  const promptResponse = await run(correctionRequest('correction_prompt', request, o.correction));
  if (promptResponse.status !== 'success' || !promptResponse.data?.prompt) return original; // not the model's to repair
  const prompt = promptResponse.data.prompt;

  const hashes = await hashFiles(seen);
  const key = hashes && o.cache
    // everything the accepted reply depended on: the files (absent ones by name), the edit, its
    // profile and options (strategies, limits: a reply accepted under one ladder may not fit another)
    ? await sha256Hex(JSON.stringify([hashes, Object.keys(seen).filter((p) => seen[p] === null || seen[p] === undefined), request.format,
      request.edit, request.profile ?? null, request.options ?? null, original.error.code, original.error.message, o.correction]))
    : null;

  let last = null;
  for (let attempt = 1; attempt <= o.maxAttempts; attempt++) {
    info.attempts = attempt;
    let reply = key !== null && attempt === 1 ? o.cache.get(key) : undefined;
    info.cached = reply !== undefined;
    if (reply === undefined) {
      info.calls++;
      try {
        reply = await callFixer(o.fixer, prompt, o.signal, o.timeoutMs);
      } catch (e) {
        return withNote(original, e.outcome, e.message, info);
      }
    }
    // The host's files now (it may have changed them while the model thought), locked to the prompt's.
    const applyReq = withExpectedHash(correctionRequest('correction_apply', request, o.correction, { reply }), hashes);
    last = await applyChecked(request, applyReq);
    const code = last.error?.code;
    if (last.status !== 'error' || code === 'NOOP') {
      if (key !== null && !info.cached) o.cache.set(key, reply);
      return { ...last, fixer: { ...info, outcome: code === 'NOOP' ? 'noop' : 'corrected' } };
    }
    if (!RETRYABLE.has(code)) break;
  }
  return { ...last, fixer: { ...info, outcome: 'refused' } };
}

async function applyChecked(request, applyReq) {
  const res = await run(applyReq);
  const outside = namesOnlyRequestFiles(request, res);
  if (outside === null) return res;
  const message = `the correction names '${outside}', which the request did not name; nothing was changed`;
  return {
    status: 'error', data: { applied: false, files: {} }, text: `INVALID_REPLY: ${message}`,
    stats: res.stats, error: { code: 'INVALID_REPLY', message, path: outside },
  };
}

/**
 * Applies one request (SPEC §1: {format, files, edit, profile?, options?}) and returns the
 * response object ({status, data: {files}, text, stats, error?}). A bad edit is a response with
 * status "error", never an exception. With `hook.fixer` (the host's model call), an edit that
 * fails with an error the model can repair is corrected through it (docs/correction.md):
 * `{ fixer, maxAttempts, signal, timeoutMs, cache, skip, correction }`. Without it, the engine's
 * own run (src/engine.js).
 */
export async function applyRequest(request, hook) {
  if (request === null || typeof request !== 'object') return run(request); // the engine says what is wrong with it
  if (hook !== undefined && hook !== null) {
    if (typeof hook !== 'object') throw new TypeError('editcore: applyRequest(request, options) takes options as an object, e.g. { fixer }');
    if (hook.fixer !== undefined) return applyWithFixer(request, hook);
  }
  return run(request);
}
