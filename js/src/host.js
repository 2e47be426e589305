// File hosts over one async adapter (SPEC §7): createHost(adapter) applies an edit to the files it
// names, with the host duties — every path inside the root, binary refused, the optimistic lock,
// all-or-nothing across files. The adapter does the I/O (Node: src/node.js; memory: below; VS
// Code: ten lines over vscode.workspace.fs, see the README). What an edit means, which files it
// touches and what they become is the engine's answer; this file only reads, checks and writes.
import { applyRequest } from './engine.js';
import { applyWithFixer } from './fixer.js';
import { forEngine, fromProtocol } from './bytes.js';

const encoder = new TextEncoder();
const TEXT_FORMATS = new Set(['search_replace', 'unified_diff', 'codex_patch']);

// Section - errors as responses

function failure(code, message, path) {
  const error = path === undefined ? { code, message } : { code, message, path };
  return {
    status: 'error', data: { applied: false, files: {} }, text: `${code}: ${message}`,
    stats: { time_ms: 0, bytes_in: 0, bytes_out: 0, lines_added: 0, lines_removed: 0 }, error,
  };
}

/** An adapter's or the path check's refusal, carried to the response as its code. */
class HostError extends Error {
  constructor(code, message, path) { super(message); this.code = code; this.path = path; }
}

// Section - paths

/**
 * The lexical half of "inside the root": a relative path whose `..` never climbs above the root,
 * no absolute or drive paths, no NUL. Returns the normalised form ("a/./b//c" -> "a/b/c").
 * Symlinks are the adapter's half (the Node adapter resolves them and refuses an escape).
 * Kept small on purpose: when the core gains a path normaliser, this becomes a call to it.
 */
export function checkPath(path) {
  if (typeof path !== 'string' || path === '') throw new HostError('ACCESS_DENIED', 'an empty path names no file', path);
  if (path.includes('\0')) throw new HostError('ACCESS_DENIED', `the path '${path}' contains a NUL byte`, path);
  if (/^([\\/]|[A-Za-z]:)/.test(path)) throw new HostError('ACCESS_DENIED', `'${path}' is an absolute path; paths are relative to the root`, path);
  const out = [];
  for (const part of path.split(/[\\/]+/)) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (!out.length) throw new HostError('ACCESS_DENIED', `'${path}' leaves the root`, path);
      out.pop();
    } else out.push(part);
  }
  if (!out.length) throw new HostError('ACCESS_DENIED', `'${path}' names the root itself, not a file`, path);
  return out.join('/');
}

// Section - the in-memory adapter

/**
 * An adapter over a Map (playgrounds, tests): `memoryAdapter({ 'a.py': 'text' | bytes })`.
 * `adapter.files` is the Map (path -> Uint8Array); `adapter.snapshot()` gives {path: text}.
 */
export function memoryAdapter(initial = {}) {
  const files = new Map();
  const mtimes = new Map();
  let clock = 0;
  const put = (p, data) => { files.set(p, data); mtimes.set(p, ++clock); };
  for (const [p, v] of Object.entries(initial)) put(checkPath(p), typeof v === 'string' ? encoder.encode(v) : new Uint8Array(v));
  return {
    files,
    async stat(p) { return files.has(p) ? { type: 'file', size: files.get(p).length, mtime: mtimes.get(p) } : null; },
    async readFile(p) {
      if (!files.has(p)) throw new HostError('NOT_FOUND', `'${p}' does not exist`, p);
      return files.get(p);
    },
    async writeFile(p, data) { put(p, new Uint8Array(data)); },
    async delete(p) { files.delete(p); mtimes.delete(p); },
    snapshot() { return Object.fromEntries([...files].map(([p, b]) => [p, new TextDecoder().decode(b)])); },
  };
}

// Section - the host

/**
 * A host over `adapter`: { stat(path) -> {type, size, mtime} | null, readFile(path) -> bytes,
 * writeFile(path, bytes) (atomic per file where the medium allows), delete(path) }, and
 * optionally commit([{path, bytes | null, old}]) — all or nothing under the adapter's own locks,
 * each file checked against `old`, the bytes read (editcore/node has it). Paths given
 * to the adapter are relative to its root, checked, with "/" separators.
 * `defaults`: { profile, options } used by every call unless the call gives its own.
 */
export function createHost(adapter, defaults = {}) {
  for (const fn of ['stat', 'readFile', 'writeFile', 'delete'])
    if (typeof adapter?.[fn] !== 'function') throw new TypeError(`editcore: createHost(adapter) needs adapter.${fn}(path${fn === 'writeFile' ? ', bytes' : ''})`);

  /** Reads one file for the engine: null when absent; directories refused. Its bytes go as they
   *  are (a string when UTF-8, else the bytes): the engine judges NULs and encodings. */
  async function read(path, seen) {
    const disk = checkPath(path);
    for (const [other, f] of seen)
      if (f.disk === disk) throw new HostError('INVALID_PARAM', `'${path}' and '${other}' name the same file; name it one way`, path);
    const st = await adapter.stat(disk);
    if (!st) { seen.set(path, { disk, stat: null, bytes: null, text: null }); return; }
    // A symlink and its target (or two hard links) are one file: edited under both names, the
    // second write would undo the first. Adapters that can tell (editcore/node) give `id`.
    if (st.id !== undefined)
      for (const [other, f] of seen)
        if (f.stat?.id === st.id) throw new HostError('INVALID_PARAM', `'${path}' and '${other}' are the same file; name it one way`, path);
    if (st.type && st.type !== 'file') throw new HostError('IO_ERROR', `'${path}' is a ${st.type}, not a file`, path);
    const bytes = await adapter.readFile(disk);
    seen.set(path, { disk, stat: st, bytes, text: forEngine(bytes) });
  }

  /** The files the edit names, as the engine reads them (null: ask the engine by NOT_FOUND). */
  async function namedPaths(format, fields) {
    if (format === 'reply') {
      const probe = await applyRequest({ format, files: {}, edit: { ...fields, parse_only: true } });
      return Array.isArray(probe.data?.paths) ? probe.data.paths : [];
    }
    if (!TEXT_FORMATS.has(format)) return typeof fields.path === 'string' ? [fields.path] : [];
    const probe = await applyRequest({ format: 'reply', files: {}, edit: { text: fields.text, dialect: format, parse_only: true } });
    if (Array.isArray(probe.data?.paths)) return probe.data.paths;
    if (format === 'search_replace' && typeof fields.text === 'string') {
      const blocks = await applyRequest({ format, files: {}, edit: { ...fields, parse_only: true } });
      if (Array.isArray(blocks.data?.blocks)) return [...new Set(blocks.data.blocks.map((b) => b.path).filter(Boolean))];
    }
    return [];
  }

  /** Runs the engine until every file it touches or asks for has been read (bounded). */
  async function plan(request, seen) {
    for (let round = 0; round < 256; round++) {
      const files = {};
      for (const [p, f] of seen) if (f.text !== null) files[p] = f.text;
      const res = await applyRequest({ ...request, files });
      const wanted = new Set();
      for (const e of [res.error, ...(res.errors ?? [])])
        if (e?.code === 'NOT_FOUND' && typeof e.path === 'string' && !seen.has(e.path)) wanted.add(e.path);
      for (const [p, f] of Object.entries(res.data?.files ?? {})) {
        if (!seen.has(p)) wanted.add(p);
        if (f.moved_to && !seen.has(f.moved_to)) wanted.add(f.moved_to);
      }
      if (!wanted.size) return res;
      for (const p of wanted) await read(p, seen);
    }
    throw new HostError('INVALID_PARAM', 'the edit names too many files');
  }

  /** Writes every changed file, or none: on a failure the files already written are put back. */
  async function commit(res, seen) {
    // The optimistic lock against changes made while the engine ran: every file is as it was read.
    for (const [p, f] of seen) {
      const now = await adapter.stat(f.disk);
      const same = now === null ? f.stat === null : f.stat !== null && now.size === f.stat.size && now.mtime === f.stat.mtime;
      if (!same) throw new HostError('CONFLICT', `'${p}' changed on disk while the edit was applied; nothing was changed, read it again`, p);
    }
    const writes = [], deletes = [];
    for (const [p, r] of Object.entries(res.data.files)) {
      if (r.action === 'delete') deletes.push(seen.get(p).disk);
      else if (r.action === 'move') { writes.push([seen.get(r.moved_to).disk, r.content]); deletes.push(seen.get(p).disk); }
      else writes.push([seen.get(p).disk, r.content]);
    }
    if (adapter.commit) {
      // The write protocol (editcore/node): locked, checked byte for byte against what was read, all or nothing.
      const old = (disk) => [...seen.values()].find((f) => f.disk === disk)?.bytes ?? null;
      await adapter.commit([...writes.map(([disk, content]) => ({ path: disk, bytes: fromProtocol(content), old: old(disk) })),
        ...deletes.map((disk) => ({ path: disk, bytes: null, old: old(disk) }))]);
      return;
    }
    const done = [];
    try {
      for (const [disk, content] of writes) { await adapter.writeFile(disk, fromProtocol(content)); done.push(disk); }
      for (const disk of deletes) { await adapter.delete(disk); done.push(disk); }
    } catch (e) {
      const lost = [];
      for (const disk of done.reverse()) {
        const old = [...seen.values()].find((f) => f.disk === disk);
        try {
          if (old?.bytes) await adapter.writeFile(disk, old.bytes);
          else await adapter.delete(disk);
        } catch { lost.push(disk); }
      }
      const msg = `writing failed (${e?.message ?? e})`;
      throw new HostError('IO_ERROR', lost.length ? `${msg}; restoring ${lost.join(', ')} failed too` : `${msg}; nothing was changed`);
    }
  }

  /**
   * Applies `edit` ({format, ...fields}) to the files it names. `options`: `profile`, `dry_run`
   * (plan and report, write nothing) and the request options (expected_hash, diff_context, ...).
   * Resolves to the engine's response with data.applied true when the files were written.
   * `hook`: { fixer, ... } as for applyRequest — a failed edit is corrected by the host's model
   * over the files read, and the correction is written like any edit (only files the edit named).
   */
  async function applyEdit(edit, options = {}, hook = undefined) {
    if (edit === null || typeof edit !== 'object' || typeof edit.format !== 'string')
      throw new TypeError("editcore: host.applyEdit(edit) takes an edit object with its format, e.g. { format: 'search_replace', text }");
    const { format, ...fields } = edit;
    const { profile = defaults.profile, dry_run = false, ...rest } = { ...defaults.options, ...options };
    const request = { format, edit: fields };
    if (profile !== undefined) request.profile = profile;
    if (Object.keys(rest).length) request.options = rest;
    const seen = new Map();
    try {
      for (const p of await namedPaths(format, fields)) await read(p, seen);
      let res = await plan(request, seen);
      if (res.status === 'error' && hook?.fixer !== undefined) {
        const files = {};
        for (const [p, f] of seen) files[p] = f.text;
        res = await applyWithFixer({ ...request, files }, hook);
      }
      if (res.status === 'error' || dry_run || !Object.keys(res.data.files).length) return res;
      await commit(res, seen);
      res.data.applied = true;
      return res;
    } catch (e) {
      if (e instanceof HostError || e?.hostError || e?.code === 'ACCESS_DENIED') return failure(e.code === 'PERMISSION_DENIED' ? 'ACCESS_DENIED' : e.code, e.message, e.path);
      if (e instanceof TypeError && String(e.message).startsWith('editcore:')) throw e;
      return failure('IO_ERROR', `reading the files failed: ${e?.message ?? e}; nothing was changed`);
    }
  }

  return {
    applyEdit,
    /**
     * A model's raw reply applied to the files it names (format "reply"): the engine lists them
     * (parse_only), the host reads them, then the reply applies all or nothing. `options`:
     * `dialect`, `path` (for blocks that name no file), `profile`, `dry_run`, request options.
     */
    applyReply(text, options = {}) {
      if (typeof text !== 'string') throw new TypeError('editcore: host.applyReply(text) takes the reply as a string');
      const { dialect, path, ...rest } = options ?? {};
      return applyEdit({ format: 'reply', text, ...(dialect !== undefined ? { dialect } : {}), ...(path !== undefined ? { path } : {}) }, rest);
    },
    /** The protocol's request without `files`: {format, edit, profile?, options?}. */
    applyRequest(request, hook) {
      if (request === null || typeof request !== 'object') throw new TypeError('editcore: host.applyRequest(request) takes {format, edit, profile?, options?}');
      const { format, edit, profile, options } = request;
      return applyEdit({ ...edit, format }, { ...options, ...(profile !== undefined ? { profile } : {}) }, hook);
    },
  };
}
