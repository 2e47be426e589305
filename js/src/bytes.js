// A file's bytes in the JSON protocol (docs/protocol.md, "Bytes"): a string when they are UTF-8
// without a NUL byte, else { base64 } (RFC 4648). The adapters read and write Uint8Array; these
// turn them into the protocol's form and back, in Node, browsers and workers alike (atob/btoa).
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // a BOM is kept, as bytes
const encoder = new TextEncoder();

/** bytes (Uint8Array) -> base64 text. */
export function toBase64(bytes) {
  let out = '';
  // btoa takes a "binary string", built in chunks (no argument list past the engine's limit) of a
  // multiple of 3 bytes, so only the last chunk pads
  const CHUNK = 3 * 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) out += btoa(String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK)));
  return out;
}

/** base64 text -> bytes (Uint8Array); throws a TypeError when it is not base64. */
export function fromBase64(text) {
  let bin;
  try { bin = atob(text); } catch { throw new TypeError('editcore: a {base64} value holds text that is not base64'); }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A file's bytes as the protocol carries them: the string when UTF-8 without NUL, else { base64 }. */
export function toProtocol(bytes) {
  if (!bytes.includes(0)) {
    try { return utf8.decode(bytes); } catch { /* not UTF-8: base64 below */ }
  }
  return { base64: toBase64(bytes) };
}

/** A file's bytes for applyRequest's object path (src/fast.js): the string when UTF-8, else the
 *  bytes themselves (they enter wasm memory as they are, and the file's content comes back as a
 *  Uint8Array), so only the JSON text path ever needs base64. */
export function forEngine(bytes) {
  try { return utf8.decode(bytes); } catch { return bytes; }
}

/** The bytes a file content stands for: a string's UTF-8, a Uint8Array itself, { base64 } decoded. */
export function fromProtocol(value) {
  if (typeof value === 'string') return encoder.encode(value);
  if (value instanceof Uint8Array) return value;
  if (value && typeof value.base64 === 'string') return fromBase64(value.base64);
  throw new TypeError('editcore: a file content must be a string, a Uint8Array or { base64 }');
}

/** Whether `value` is a file content the API takes: a string, a Uint8Array or { base64: string }. */
export function isContent(value) {
  return typeof value === 'string' || value instanceof Uint8Array || (value !== null && typeof value === 'object' && typeof value.base64 === 'string');
}
