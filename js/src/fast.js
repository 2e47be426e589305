// The object path of the npm package (issue 28): a request object's file contents enter wasm
// memory once, as bytes (a string through TextEncoder.encodeInto, a Uint8Array copied), beside
// the request's other members as JSON text (serialised once, read by the engine's own strict
// parser); the engine answers with each file's splices (which bytes of the original became
// which new bytes) and the new content is built from the caller's original and the new pieces,
// not decoded whole from wasm memory. The response object is the JSON path's (applyJson), member
// for member and in the same order: test/fast.test.js and tests/conformance/run.mjs compare them.
//
// On-demand members: a file result's `content` is built the first time it is read (and kept);
// the same mechanism (onDemand below) is how other computed members are added.

const encoder = new TextEncoder();
// ignoreBOM: a piece that starts with U+FEFF keeps it (the default decoder drops a leading one).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** Defines obj[key] as computed by `make` on first read, then kept; enumerable (JSON.stringify
 *  and spreading see it like any member), assignable.
 *  Why one getter and setter per member name, shared by every object, with the state in a hidden
 *  member: V8 gives an object whose accessors are fresh closures a hidden class of its own, and
 *  that class (old space) keeps the object, its closures and all they hold alive through every
 *  young-generation collection until a full one. Per call that was ~4 us of collection for a
 *  10 KB edit, a tenth of the call (BENCHMARKS.md, "The 10 KB rows, third pass"). */
const STATE = Symbol('editcore.onDemand');
const accessors = new Map();
export function onDemand(obj, key, make) {
  if (!Object.hasOwn(obj, STATE)) Object.defineProperty(obj, STATE, { value: {} });
  obj[STATE][key] = { make, value: undefined };
  let a = accessors.get(key);
  if (!a) {
    a = {
      enumerable: true, configurable: true,
      get() { const s = this[STATE][key]; if (s.make) { s.value = s.make(); s.make = null; } return s.value; },
      set(v) { const s = this[STATE][key]; s.make = null; s.value = v; },
    };
    accessors.set(key, a);
  }
  Object.defineProperty(obj, key, a);
}

const wellFormed = typeof String.prototype.isWellFormed === 'function' ? (s) => s.isWellFormed() : () => true;

/**
 * The files of `request` as the fast path takes them, or null when the request must go through
 * the JSON path (files that are not an object of strings, Uint8Arrays and nulls; a string with
 * a lone surrogate, which only JSON text can carry to the engine's refusal; a tool call).
 */
export function fastFiles(request) {
  if ('tool' in request || 'tool_definitions' in request) return null;
  const files = request.files;
  if (files === undefined) return [];
  if (files === null || typeof files !== 'object' || Array.isArray(files) || ArrayBuffer.isView(files)) return null;
  const out = [];
  for (const path of Object.keys(files)) {
    const c = files[path];
    if (c === null || c === undefined) continue; // an absent file, as in JSON
    if (typeof c === 'string') { if (!wellFormed(c) || !wellFormed(path)) return null; }
    else if (!(c instanceof Uint8Array)) return null;
    else if (!wellFormed(path)) return null;
    out.push([path, c]);
  }
  return out;
}

/** Writes `text`'s UTF-8 at a new block of wasm memory: [ptr, bytes, ascii]. */
function putString(m, text) {
  let cap = text.length + 8, p = m._malloc(cap);
  if (!p) throw new Error('editcore: out of memory');
  let r = encoder.encodeInto(text, m.HEAPU8.subarray(p, p + cap));
  if (r.read < text.length) {
    m._free(p);
    cap = text.length * 3 + 8;
    p = m._malloc(cap);
    if (!p) throw new Error('editcore: out of memory');
    r = encoder.encodeInto(text, m.HEAPU8.subarray(p, p + cap));
  }
  return [p, r.written, r.written === text.length];
}

function putBytes(m, bytes) {
  const p = m._malloc(bytes.length || 1);
  if (!p) throw new Error('editcore: out of memory');
  m.HEAPU8.set(bytes, p);
  return [p, bytes.length, false];
}

/** True when the request object names no options.syntax: the object path then answers with the
 *  typed API's default, the syntax report on demand (nothing parsed; send options.syntax "report"
 *  for JSON's reports: docs/syntax.md), so an exact edit of a large file pays no parse. */
export function syntaxOnDemand(request) {
  const o = request.options;
  return !(o !== null && typeof o === 'object' && !Array.isArray(o) && Object.hasOwn(o, 'syntax'));
}

/**
 * Runs a request on module m: `requestText` its members but `files` as JSON text, `files` the
 * fastFiles list, `onDemand` syntaxOnDemand's answer.
 * `check(m)` after the run: false discards the answer (the lite module reached a part it leaves
 * out) and run returns null. Returns the response object.
 */
export function runFiles(m, requestText, files, check, onDemand) {
  const blocks = [];
  const alloc = (n) => { const p = m._malloc(n); if (!p) throw new Error('editcore: out of memory'); blocks.push(p); return p; };
  let result = 0;
  try {
    const [reqPtr, reqLen] = putString(m, requestText);
    blocks.push(reqPtr);
    const rows = alloc(16 * files.length + 4);
    const originals = [];
    files.forEach(([path, content], i) => {
      const [pp, pl] = putString(m, path);
      blocks.push(pp);
      const [cp, cl, ascii] = typeof content === 'string' ? putString(m, content) : putBytes(m, content);
      blocks.push(cp);
      m.HEAPU32.set([pp, pl, cp, cl], (rows >> 2) + 4 * i);
      originals.push({ path, content, ptr: cp, bytes: cl, ascii });
    });
    result = m._editcore_run_files(reqPtr, reqLen, rows, files.length, onDemand ? 1 : 0);
    if (!result) throw new Error('editcore: out of memory');
    if (check && !check(m)) return null;
    const lenPtr = alloc(4);
    const json = m._editcore_result_json(result, lenPtr);
    if (!json) throw new Error('editcore: out of memory');
    const text = decoder.decode(m.HEAPU8.subarray(json, json + m.HEAPU32[lenPtr >> 2]));
    m._editcore_free(json);
    const res = JSON.parse(text);
    const byPath = new Map(originals.map((o) => [o.path, o]));
    const files2 = res.data?.files ?? {};
    for (const path of Object.keys(files2)) files2[path] = fileResult(m, result, files2[path], byPath.get(path), lenPtr);
    return res;
  } finally {
    if (result) m._editcore_result_free(result);
    for (const p of blocks) m._free(p);
  }
}

/** One file's response object, member for member as the JSON path writes it. */
function fileResult(m, result, f, original, lenPtr) {
  const out = { action: f.action };
  if (f.moved_to !== undefined) out.moved_to = f.moved_to;
  if (f.has_content) {
    const sp = f.splices;
    const asBytes = original && typeof original.content !== 'string';
    const ranges = original && f.action !== 'add' ? oldRanges(m, original, sp) : null;
    if (!ranges) {
      // No original to build from (an added file): the whole content, decoded now.
      const at = m._editcore_result_content(result, f.index, lenPtr);
      const whole = m.HEAPU8.subarray(at, at + m.HEAPU32[lenPtr >> 2]);
      out.content = asBytes ? whole.slice() : decoder.decode(whole);
    } else {
      // The splices' new bytes leave wasm memory now (small; the engine may not have built the
      // whole content at all); the content is assembled when read.
      const pieces = [];
      for (let k = 0; k < sp.length; k += 4) {
        const at = m._editcore_result_splice_text(result, f.index, k >> 2, lenPtr);
        const view = m.HEAPU8.subarray(at, at + m.HEAPU32[lenPtr >> 2]);
        pieces.push(asBytes ? view.slice() : decoder.decode(view));
      }
      onDemand(out, 'content', () => assemble(original.content, ranges, pieces, asBytes));
    }
  }
  out.diff = f.diff;
  out.diff_truncated = f.diff_truncated;
  out.undo = f.undo;
  out.lines_added = f.lines_added;
  out.lines_removed = f.lines_removed;
  out.replacements = f.replacements;
  out.matches = f.matches;
  if (f.syntax !== undefined) out.syntax = f.syntax;
  return out;
}

/** The splices' old ranges in the original's own units: bytes for a Uint8Array; UTF-16 code
 *  units for a string (the same numbers when it is ASCII, else counted from its UTF-8 in wasm
 *  memory, which the file's bytes still occupy). */
function oldRanges(m, original, sp) {
  const r = [];
  for (let k = 0; k < sp.length; k += 4) r.push(sp[k], sp[k + 1]);
  if (typeof original.content !== 'string' || original.ascii) return r;
  const heap = m.HEAPU8, base = original.ptr;
  let byte = 0, unit = 0;
  for (let k = 0; k < r.length; k++) {
    const to = r[k];
    for (; byte < to; byte++) {
      const b = heap[base + byte];
      if ((b & 0xC0) !== 0x80) unit += b >= 0xF0 ? 2 : 1;
    }
    r[k] = unit;
  }
  return r;
}

function assemble(original, ranges, pieces, asBytes) {
  if (!asBytes) {
    let s = '', at = 0;
    for (let k = 0; k < pieces.length; k++) { s += original.slice(at, ranges[2 * k]) + pieces[k]; at = ranges[2 * k + 1]; }
    return s + original.slice(at);
  }
  let len = original.length;
  for (let k = 0; k < pieces.length; k++) len += pieces[k].length - (ranges[2 * k + 1] - ranges[2 * k]);
  const out = new Uint8Array(len);
  let at = 0, w = 0;
  for (let k = 0; k < pieces.length; k++) {
    out.set(original.subarray(at, ranges[2 * k]), w); w += ranges[2 * k] - at;
    out.set(pieces[k], w); w += pieces[k].length;
    at = ranges[2 * k + 1];
  }
  out.set(original.subarray(at), w);
  return out;
}
