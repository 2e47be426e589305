// Agent tools (SPEC §8, docs/tools.md): `runTool(name, args, { host })` runs one tool call on a
// file adapter (memoryAdapter, nodeAdapter, a vscode.workspace.fs adapter...) and answers the
// tool's own result. Every decision — argument checks, the order of the steps, messages, result
// shapes, undo history — is the core's, over the JSON phases plan -> run -> finish; this file only
// reads what the plan names, writes what the run asks and reports how it went. Async all the way:
// the core never waits on the adapter.
import { init, applyJsonAsync } from './engine.js';
import { toProtocol, fromProtocol } from './bytes.js';

async function core(request) {
  // "tool" (or "tool_definitions") first: that is how the JSON entry point knows a tool call.
  // A phase the lite module leaves to the full one, or that checks a language whose syntax module
  // is not loaded yet, is run again once they are (src/engine.js).
  const res = JSON.parse(await applyJsonAsync(JSON.stringify(request)));
  if (res.phase === 'error') throw new TypeError(`editcore: ${res.error?.message ?? 'bad tool call'}`);
  return res;
}

/**
 * The tools' definitions, from the core's one table: form 'openai' ({type: 'function', function:
 * {name, description, parameters}}), 'anthropic' ({name, description, input_schema}) or 'raw'
 * ({id, name, description, input_schema, prompt}). `ids` picks tools (default: all).
 */
export async function toolDefinitions(form = 'openai', ids) {
  await init();
  return (await core({ tool_definitions: form, ...(ids ? { tools: ids } : {}) })).tools;
}

const codeOf = (e) => (e?.code === 'ACCESS_DENIED' ? 'ACCESS_DENIED'
  : e?.code === 'EACCES' || e?.code === 'EPERM' || e?.code === 'EROFS' || e?.code === 'PERMISSION_DENIED' ? 'PERMISSION_DENIED' : 'IO_ERROR');

function parentOf(p) {
  const i = p.lastIndexOf('/');
  return i > 0 ? p.slice(0, i) : null;
}

/** `p` (absolute, or already relative) as the adapter names it: relative to `root`. */
const relTo = (root, p) => (p.startsWith('/') ? (p === root ? '.' : p.slice((root.endsWith('/') ? root : root + '/').length)) : p);

/** A time as the host's clock and zone tell it (get_file_info prints it as JavaScript's Date does). */
function timeOf(ms) {
  const d = new Date(ms);
  return { ms, offset_min: -d.getTimezoneOffset(), zone: /\(([^)]+)\)$/.exec(d.toString())?.[1] ?? '' };
}

/** A listed directory's entries, as the core reads them: {name, type, size?, mtime_ms?, real_path?}. */
async function listOf(adapter, rel) {
  if (typeof adapter.list !== 'function') throw Object.assign(new Error('this host cannot list directories'), { code: 'IO_ERROR' });
  return (await adapter.list(rel)).map((e) => ({ name: e.name, type: e.type,
    ...(e.size !== undefined ? { size: e.size } : {}), ...(e.mtime !== undefined ? { mtime_ms: e.mtime } : {}),
    ...(e.real !== undefined ? { real_path: e.real } : {}) }));
}

/** What is at one planned path, as the core's observation (docs/tools.md). `seen`: path ->
 * the bytes read (null: absent), for the commit's check that nothing changed since. */
async function observe(adapter, root, path, want, seen) {
  let rel = path;
  if (path.startsWith('/')) {
    const base = root.endsWith('/') ? root : root + '/';
    if (path === root) rel = '.';
    else if (path.startsWith(base)) rel = path.slice(base.length);
    else return { error: 'ACCESS_DENIED' };
  }
  try {
    const st = await adapter.stat(rel);
    const real = !st ? null : st.real ?? (adapter.realpath ? await adapter.realpath(rel) : `${root.replace(/\/$/, '')}/${rel}`);
    if (!st) {
      seen.set(path, null);
      const parent = parentOf(rel);
      const gone = parent && !(await adapter.stat(parent).catch(() => null));
      // where it would be (a link or an equivalent name on the way followed), when the adapter can tell
      const at = adapter.realpath ? await adapter.realpath(rel).catch(() => null) : null;
      return { kind: 'missing', ...(gone ? { message: 'parent missing' } : {}), ...(at ? { real_path: at } : {}) };
    }
    // what get_file_info reports: the permission bits and the three times, when the adapter gives them
    const more = { ...(typeof st.mode === 'number' ? { mode: st.mode } : {}),
      ...(st.birthtime !== undefined || st.atime !== undefined ? { times: Object.fromEntries(['birthtime', 'mtime', 'atime']
        .filter((k) => typeof st[k] === 'number').map((k) => [k, timeOf(st[k])])) } : {}) };
    if (st.type === 'directory') return { kind: 'directory', real_path: real, size: st.size, ...more, ...(want.list ? { entries: await listOf(adapter, rel) } : {}) };
    if (st.type && st.type !== 'file') return { error: 'IO_ERROR', message: `'${path}' is not a regular file` };
    const o = { kind: 'file', size: st.size, mtime_ms: Math.floor(st.mtime ?? 0), real_path: real, ...more };
    if (!want.content) return o;
    const bytes = await adapter.readFile(rel);
    seen.set(path, bytes);
    // Its bytes as they are: a string when UTF-8, else { base64 } (a read with `bytes`, for the
    // media tools, gets the same form); the core decides what they are.
    return { ...o, content: toProtocol(bytes), size: bytes.length };
  } catch (e) {
    return { error: codeOf(e), message: String(e?.message ?? e), ...(e?.real_path ? { real_path: e.real_path } : {}) };
  }
}

/**
 * Runs one tool call. `name` is a tool id (toolDefinitions('raw') lists them: Edit, Read, Write,
 * str_replace_based_edit_tool, gemini/replace, mcp/edit_file, ...); `args` the arguments as the
 * model sent them. Options: `host` — a file adapter {stat, readFile, writeFile, delete, root?,
 * realpath?} (or createHost's host when it carries `.adapter`); `dryRun`; `root` (shown to the
 * model as the working directory; default adapter.root or "/"); `roots` (MCP: every allowed
 * directory); `state` (the history undo_edit needs, as the last call returned it); `ladder`.
 * Resolves to { status: 'success' | 'partial' | 'error', result, state }: `result` in the tool's
 * own shape (the standard envelope for Edit/Read/Write, a CallToolResult for mcp/*, ...).
 */
export async function runTool(name, args, options = {}) {
  const { host, dryRun = false, state, ladder, roots, home, diffMaxBytes } = options;
  const adapter = host?.adapter ?? host;
  for (const fn of ['stat', 'readFile', 'writeFile', 'delete'])
    if (typeof adapter?.[fn] !== 'function') throw new TypeError(`editcore: runTool(name, args, { host }) needs a file adapter with ${fn}() (memoryAdapter, nodeAdapter, ...)`);
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new TypeError('editcore: runTool(name, args) takes the arguments as an object');
  await init();
  const root = options.root ?? (typeof adapter.root === 'string' && adapter.root.startsWith('/') ? adapter.root : '/');
  const base = { tool: name, args, root, dry_run: !!dryRun };
  if (roots) base.roots = roots;
  if (home !== undefined) base.home = home;
  if (state !== undefined) base.state = state;
  if (ladder !== undefined || diffMaxBytes !== undefined) base.options = { ...(ladder !== undefined ? { ladder } : {}), ...(diffMaxBytes !== undefined ? { diff_max_bytes: diffMaxBytes } : {}) };
  let res = await core({ ...base, phase: 'plan' });
  // A tool that walks (directory_tree, search_files) asks again for the next level; the core
  // bounds how many paths one call may read.
  const observed = {}, seen = new Map();
  while (res.phase === 'read') {
    for (const r of res.reads) observed[r.path] = await observe(adapter, root, r.path, r, seen);
    res = await core({ ...base, phase: 'run', observed });
  }
  const relOf = (p) => relTo(root, p);
  // Files written or deleted: all or nothing under the adapter's locks, each checked against what
  // was observed. (A directory made or a path moved goes through the adapter's own mkdir/move.)
  if (res.phase === 'write' && adapter.commit && res.writes.every((w) => !w.mkdir && w.move_from === undefined)) {
    let outcomes;
    try {
      await adapter.commit(res.writes.map((w) => ({ path: relOf(w.path), bytes: w.delete ? null : fromProtocol(w.content), old: seen.get(w.path) })));
      outcomes = res.writes.map((w) => ({ path: w.path, ok: true }));
    } catch (e) {
      const code = e?.code === 'PERMISSION_DENIED' ? 'PERMISSION_DENIED' : codeOf(e);
      outcomes = res.writes.map((w) => ({ path: w.path, error: code, message: String(e?.message ?? e) }));
    }
    res = await core({ ...base, phase: 'finish', pending: res.pending, outcomes });
  }
  if (res.phase === 'write') {
    const outcomes = await writeAll(adapter, root, res.writes);
    res = await core({ ...base, phase: 'finish', pending: res.pending, outcomes });
  }
  return { status: res.status, result: res.result, state: res.state ?? state };
}

/**
 * Does the writes the run asked for, in order; when one fails, the files already written are
 * put back as they were (all or nothing across files, as far as an adapter allows), and the
 * outcomes say so.
 */
async function writeAll(adapter, root, writes) {
  const relOf = (p) => relTo(root, p);
  const outcomes = [], undo = [];
  let failed = false;
  for (const w of writes) {
    if (failed) { outcomes.push({ path: w.path, error: 'IO_ERROR', message: 'not attempted after an earlier write failed' }); continue; }
    const rel = relOf(w.path);
    try {
      if (w.mkdir) {
        if (typeof adapter.mkdir !== 'function') throw Object.assign(new Error('this host cannot create directories'), { code: 'IO_ERROR' });
        await adapter.mkdir(rel);
      } else if (w.move_from !== undefined) {
        if (typeof adapter.move !== 'function') throw Object.assign(new Error('this host cannot move files'), { code: 'IO_ERROR' });
        await adapter.move(relOf(w.move_from), rel);
      } else {
        // what to put back if a later write fails (only a set of writes needs it)
        if (writes.length > 1) {
          const st = await adapter.stat(rel).catch(() => null);
          undo.push([rel, st?.type === 'file' || (st && !st.type) ? await adapter.readFile(rel) : null]);
        }
        if (w.delete) await adapter.delete(rel);
        else await adapter.writeFile(rel, fromProtocol(w.content));
      }
      outcomes.push({ path: w.path, ok: true });
    } catch (e) {
      failed = true;
      if (writes.length > 1 && undo.length && undo[undo.length - 1][0] === rel) undo.pop(); // this one was not written
      const lost = [];
      for (const [p, bytes] of undo.reverse()) {
        try { if (bytes) await adapter.writeFile(p, bytes); else await adapter.delete(p); } catch { lost.push(p); }
      }
      const message = String(e?.message ?? e) + (lost.length ? `; restoring ${lost.join(', ')} failed too` : '');
      outcomes.push({ path: w.path, error: codeOf(e), message });
    }
  }
  return outcomes;
}
