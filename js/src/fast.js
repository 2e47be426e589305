// The object path of the npm package (issue 28): a request object's file contents enter wasm
// memory once, as bytes (a string through TextEncoder.encodeInto, a Uint8Array copied), beside
// the request's other members as JSON text (serialised once, read by the engine's own strict
// parser); the engine answers with each file's splices (which bytes of the original became
// which new bytes) and the new content is built from the caller's original and the new pieces,
// not decoded whole from wasm memory. The response object is the JSON path's (applyJson), member
// for member and in the same order: test/fast.test.js and tests/conformance/run.mjs compare them.
//
// On-demand members: a file result's `content` is built the first time it is read (and kept);
// the same mechanism (onDemand below) is how other computed members are added. `undo` is one:
// the engine leaves a whole diff's undo unbuilt (EC_FILES_UNDO_ON_READ) and, when it is read, the
// core reads it off the diff (editcore_diff_undo: the same bytes it would have built).

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

// Edit strings at least this long go beside the JSON too (the JSON carries "" in their place):
// escaping, encoding and parsing a string costs the engine ~40 instructions a byte, writing it
// beside one copy; shorter ones are not worth their own block (10 KB W1's 200-byte strings
// measured 3 % faster beside, interleaved). A member goes by its place in this list, the one
// editcore_run_files names them by (wasm/emscripten_api.c).
const BESIDE_AT = 64;
const BESIDE_MEMBERS = ['old_string', 'new_string', 'content', 'text', 'snippet', 'new_str'];

/**
 * The request's members but `files`, with its edit's long strings left out: [rest, members],
 * `rest` to be serialised (its edit a copy with "" for each member moved, in its place), and
 * `members` [[member's place in BESIDE_MEMBERS, string], ...] to go beside (editcore_run_files). Correction requests, whose
 * edit is read otherwise, and strings only JSON can carry (a lone surrogate) stay in the JSON.
 */
export function besideEdit(request) {
  const { files: _given, ...rest } = request;
  const edit = rest.edit, members = [];
  // Only a plain edit whose members JSON.stringify would write as they are (own, enumerable, no toJSON).
  if (edit === null || typeof edit !== 'object' || Array.isArray(edit) || typeof edit.toJSON === 'function'
      || typeof rest.format !== 'string' || rest.format.startsWith('correction_')) return [rest, members];
  let copy = null;
  for (const name of BESIDE_MEMBERS) {
    const v = Object.prototype.propertyIsEnumerable.call(edit, name) ? edit[name] : undefined;
    if (typeof v !== 'string' || v.length < BESIDE_AT || !wellFormed(v)) continue;
    copy ??= { ...edit };
    copy[name] = '';
    members.push([BESIDE_MEMBERS.indexOf(name), v]);
  }
  if (copy) rest.edit = copy;
  return [rest, members];
}

/** Writes `text`'s UTF-8 at a new block of wasm memory, a NUL after it (EC_FILES_BESIDE_IN_PLACE
 *  takes edit strings so): [ptr, bytes, ascii]. `first`: the block's size tried first (ASCII's),
 *  then three bytes a unit. */
function putString(m, text, first = text.length + 8) {
  let cap = first, p = m._malloc(cap);
  if (!p) throw new Error('editcore: out of memory');
  let r = encoder.encodeInto(text, m.HEAPU8.subarray(p, p + cap - 1));
  if (r.read < text.length) {
    m._free(p);
    cap = text.length * 3 + 8;
    p = m._malloc(cap);
    if (!p) throw new Error('editcore: out of memory');
    r = encoder.encodeInto(text, m.HEAPU8.subarray(p, p + cap - 1));
  }
  m.HEAPU8[p + r.written] = 0;
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

// editcore_run_files' ways (editcore.h: EC_FILES_SYNTAX_ON_DEMAND, EC_FILES_UNDO_ON_READ,
// EC_FILES_BESIDE_IN_PLACE: the edit strings beside stay in their blocks until the result is freed).
const SYNTAX_ON_DEMAND = 1, UNDO_ON_READ = 4, BESIDE_IN_PLACE = 8;

// Inputs at least this long get blocks of their own (putString, putBytes): a slot reserved for
// ASCII that a non-ASCII file does not fit would stay unused beside its own block.
const OWN_BLOCK_AT = 1 << 16;

/**
 * A call's inputs in one block of wasm memory: the rows first (u32, the block's alignment), then
 * each short string's UTF-8 and a NUL in a slot sized for ASCII (its length + 1). A string that
 * does not fit its slot (it has non-ASCII characters), and any input of OWN_BLOCK_AT units or
 * more, gets a block of its own. Why one block: every malloc and free is a call into wasm, and a
 * 10 KB edit made sixteen of them.
 */
class Inputs {
  constructor(m, rowBytes, strings) {
    let bytes = (rowBytes + 7) & ~7;
    for (const s of strings) if (s.length < OWN_BLOCK_AT) bytes += s.length + 1;
    this.m = m;
    this.own = [];
    this.base = m._malloc(bytes);
    if (!this.base) throw new Error('editcore: out of memory');
    this.rows = this.base;
    this.at = this.base + ((rowBytes + 7) & ~7);
  }

  /** `text`'s UTF-8 with a NUL after it: [ptr, bytes, ascii]. */
  string(text) {
    if (text.length >= OWN_BLOCK_AT) return this.owned(putString(this.m, text));
    const slot = this.at;
    this.at += text.length + 1;
    const r = encoder.encodeInto(text, this.m.HEAPU8.subarray(slot, slot + text.length));
    if (r.read === text.length) {
      this.m.HEAPU8[slot + r.written] = 0;
      return [slot, r.written, r.written === text.length];
    }
    return this.owned(putString(this.m, text, text.length * 3 + 8)); // not ASCII: room for any UTF-8
  }

  /** A Uint8Array's bytes (its slot: length + 1): [ptr, bytes, false]. */
  bytes(b) {
    if (b.length >= OWN_BLOCK_AT) return this.owned(putBytes(this.m, b));
    const p = this.at;
    this.at += b.length + 1;
    this.m.HEAPU8.set(b, p);
    return [p, b.length, false];
  }

  owned(put) {
    this.own.push(put[0]);
    return put;
  }

  free() {
    for (const p of this.own) this.m._free(p);
    this.m._free(this.base);
  }
}

/**
 * Runs a request on module m: `requestText` its members but `files` as JSON text, `files` the
 * fastFiles list, `members` besideEdit's edit strings, `onDemand` syntaxOnDemand's answer.
 * `check(m)` after the run: false discards the answer (the lite module reached a part it leaves
 * out) and run returns null. Returns the response object.
 */
export function runFiles(m, requestText, files, members, check, onDemand) {
  // Rows: the files' (16 B each), the edit strings' (12 B each), then a u32 for lengths.
  const editRowsAt = 16 * files.length, lenAt = editRowsAt + 12 * members.length;
  const strings = [requestText];
  for (const [path, content] of files) strings.push(path, content);
  for (const [, value] of members) strings.push(value);
  const inputs = new Inputs(m, lenAt + 4, strings);
  let result = 0;
  try {
    const [reqPtr, reqLen] = inputs.string(requestText);
    const rows = inputs.rows, editRows = rows + editRowsAt, lenPtr = rows + lenAt;
    const originals = [];
    const given = new Map(); // an edit string's block -> [its bytes, the caller's string]
    files.forEach(([path, content], i) => {
      const [pp, pl] = inputs.string(path);
      const [cp, cl, ascii] = typeof content === 'string' ? inputs.string(content) : inputs.bytes(content);
      m.HEAPU32.set([pp, pl, cp, cl], (rows >> 2) + 4 * i);
      originals.push({ path, content, ptr: cp, bytes: cl, ascii });
    });
    members.forEach(([which, value], i) => {
      const [vp, vl] = inputs.string(value);
      given.set(vp, [vl, value]);
      m.HEAPU32.set([which, vp, vl], (editRows >> 2) + 3 * i);
    });
    result = m._editcore_run_files(reqPtr, reqLen, rows, files.length, editRows, members.length,
      (onDemand ? SYNTAX_ON_DEMAND : 0) | UNDO_ON_READ | BESIDE_IN_PLACE);
    if (!result) throw new Error('editcore: out of memory');
    if (check && !check(m)) return null;
    const json = m._editcore_result_json(result, lenPtr);
    if (!json) throw new Error('editcore: out of memory');
    const text = decoder.decode(m.HEAPU8.subarray(json, json + m.HEAPU32[lenPtr >> 2]));
    m._editcore_free(json);
    const res = JSON.parse(text);
    const byPath = new Map(originals.map((o) => [o.path, o]));
    const files2 = res.data?.files ?? {};
    for (const path of Object.keys(files2)) files2[path] = fileResult(m, result, files2[path], byPath.get(path), lenPtr, given);
    return res;
  } finally {
    if (result) m._editcore_result_free(result);
    inputs.free();
  }
}

/** One file's response object, member for member as the JSON path writes it. `given`: the edit
 *  strings beside the request by block; new bytes that are one of them, where it lies (whole_file's
 *  content: the engine used it in place), are the caller's string itself, not a decoded copy. */
function fileResult(m, result, f, original, lenPtr, given) {
  const text = (at, view) => { const g = given.get(at); return g && g[0] === view.length ? g[1] : decoder.decode(view); };
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
      out.content = asBytes ? whole.slice() : text(at, whole);
    } else {
      // The splices' new bytes leave wasm memory now (small; the engine may not have built the
      // whole content at all); the content is assembled when read.
      const pieces = [];
      for (let k = 0; k < sp.length; k += 4) {
        const at = m._editcore_result_splice_text(result, f.index, k >> 2, lenPtr);
        const view = m.HEAPU8.subarray(at, at + m.HEAPU32[lenPtr >> 2]);
        pieces.push(asBytes ? view.slice() : text(at, view));
      }
      onDemand(out, 'content', () => assemble(original.content, ranges, pieces, asBytes));
    }
  }
  out.diff = f.diff;
  out.diff_truncated = f.diff_truncated;
  if (f.undo !== undefined) out.undo = f.undo;
  else { const diff = f.diff; onDemand(out, 'undo', () => undoOf(m, diff)); }
  out.lines_added = f.lines_added;
  out.lines_removed = f.lines_removed;
  out.replacements = f.replacements;
  out.matches = f.matches;
  if (f.syntax !== undefined) out.syntax = f.syntax;
  return out;
}

/** The undo of a whole diff (a string: the response gives a non-UTF-8 diff's undo itself). */
function undoOf(m, diff) {
  if (diff === '') return '';
  const blocks = [];
  try {
    const [p, len] = putString(m, diff);
    blocks.push(p);
    const lenPtr = m._malloc(4);
    if (!lenPtr) throw new Error('editcore: out of memory');
    blocks.push(lenPtr);
    const u = m._editcore_diff_undo(p, len, lenPtr);
    if (!u) throw new Error('editcore: out of memory');
    const text = decoder.decode(m.HEAPU8.subarray(u, u + m.HEAPU32[lenPtr >> 2]));
    m._editcore_free(u);
    return text;
  } finally {
    for (const p of blocks) m._free(p);
  }
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
