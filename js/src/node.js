// `editcore/node`: the engine's API plus the Node file adapters. Every path is resolved beneath
// its root without following links (symlinks inside the root are followed lexically and stay
// links; one leading out is ACCESS_DENIED), and every write follows the write protocol all
// editcore hosts share (src/node-fs.js, docs/cli.md): writer locks, a byte-for-byte check under
// them, temporaries beside the targets, a journal for several files. A process killed at any
// moment leaves each file wholly old or wholly new, and the next run finishes the set.
import { promises as fs } from 'node:fs';
import { resolve, posix } from 'node:path';
import { createHost } from './host.js';
import { beneathAdapter, hostError } from './node-fs.js';

export * from './index.js';

/**
 * The Node adapter over the directory `root` (for createHost and runTool). Paths arrive checked
 * and relative (src/host.js). Options: `fsync` (default true: new contents and renames are made
 * durable), `sync` (blocking file calls, for a server answering one call at a time),
 * `onRecover(text)` (what to do with the report of an edit a killed run left half-done and this
 * one finished; default: a process warning).
 */
export function nodeAdapter(root, options = {}) {
  if (typeof root !== 'string' && !(root instanceof URL)) throw new TypeError('editcore: nodeAdapter(root) takes the root directory (a path or file: URL)');
  const real = fs.realpath(root instanceof URL ? root : resolve(root));
  real.catch(() => {});
  const place = (p, b) => {
    const n = posix.normalize(p).replace(/\/+$/, '');
    const at = n.startsWith('/') ? b.place(n) : n === '..' || n.startsWith('../') ? null : { ri: 0, rel: n === '.' ? '' : n };
    if (!at) throw hostError('ACCESS_DENIED', `'${p}' resolves outside the root`, { path: p });
    return at;
  };
  return { root, ...beneathAdapter([real], place, options) };
}

/**
 * The adapter of the MCP server: absolute paths (given without their leading "/", as the core's
 * MCP tools name them) beneath any of the allowed directories `dirs` — as given or as their real
 * paths, as the reference server keeps both. Options as nodeAdapter's.
 */
export function allowedAdapter(dirs, options = {}) {
  const reals = dirs.map((d) => fs.realpath(resolve(d)).catch(() => resolve(d)));
  let aliases = null; // [given absolute, root index] for given paths that differ from their real ones
  Promise.all(reals).then((r) => { aliases = dirs.map((d, i) => [resolve(d), i]).filter(([d, i]) => d !== r[i]); }, () => {});
  const place = (p, b) => {
    const abs = posix.normalize(`/${p}`);
    const at = b.place(abs);
    if (at) return at;
    for (const [given, ri] of aliases ?? []) {
      if (abs === given) return { ri, rel: '' };
      if (abs.startsWith(`${given}/`)) return { ri, rel: abs.slice(given.length + 1) };
    }
    throw hostError('ACCESS_DENIED', `'${abs}' leads outside the allowed directories`, { real_path: abs, path: abs });
  };
  const adapter = beneathAdapter(reals, place, options);
  return { root: '/', ...adapter, realpath: async (p) => (await adapter.stat(p))?.real ?? posix.normalize(`/${p}`) };
}

/** createHost over nodeAdapter(root): `await createNodeHost('.').applyEdit({format, ...})`. */
export function createNodeHost(root, defaults) {
  return createHost(nodeAdapter(root), defaults);
}
