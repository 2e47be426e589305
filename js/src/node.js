// `editcore/node`: the engine's API plus the Node file adapter — every path resolved inside a
// root (symlinks followed and kept inside it), atomic writes (a temp file in the same directory,
// fsync, rename over the file, its mode kept, the directory fsynced). A process killed at any
// moment leaves each file wholly old or wholly new.
import { promises as fs, constants } from 'node:fs';
import { dirname, basename, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createHost } from './host.js';

export * from './index.js';

function denied(path, why) {
  const e = new Error(`'${path}' ${why}`);
  e.code = 'ACCESS_DENIED';
  return Object.assign(e, { path });
}

/**
 * The real path of `full`, or of its deepest existing ancestor joined with the rest. A dangling
 * symlink on the way is followed to where its target would be (as the C host does), so a write
 * creates the target — refused by the caller when that lies outside the root — and never
 * replaces the link with a file.
 */
async function realOf(full, hops = 0) {
  const rest = [];
  let at = full;
  for (;;) {
    try { return join(await fs.realpath(at), ...rest.reverse()); } catch (e) {
      if (e.code !== 'ENOENT' && e.code !== 'ENOTDIR') throw e;
      const link = await fs.lstat(at).then((s) => s.isSymbolicLink(), () => false);
      if (link) {
        if (hops >= 40) throw Object.assign(new Error(`'${full}': too many levels of symlinks`), { code: 'ELOOP' });
        const target = resolve(dirname(at), await fs.readlink(at));
        return realOf(join(target, ...rest.reverse()), hops + 1);
      }
      const up = dirname(at);
      if (up === at) throw e;
      rest.push(basename(at));
      at = up;
    }
  }
}

/**
 * The Node adapter over the directory `root` (for createHost). Paths arrive checked and relative
 * (src/host.js); here each is resolved through symlinks and refused if it lands outside the root.
 * `options.fsync: false` renames without syncing the new file first (atomic, not durable across a
 * power cut: the MCP reference server's way, for editcore-mcp --no-fsync).
 */
export function nodeAdapter(root, { fsync = true } = {}) {
  if (typeof root !== 'string' && !(root instanceof URL)) throw new TypeError('editcore: nodeAdapter(root) takes the root directory (a path or file: URL)');
  const rootReal = fs.realpath(root instanceof URL ? root : resolve(root));
  rootReal.catch(() => {});
  const locate = async (p) => {
    const base = await rootReal;
    const real = await realOf(join(base, p));
    if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep)) throw denied(p, 'resolves outside the root (through a symlink)');
    return real;
  };
  return {
    root,
    async stat(p) {
      const real = await locate(p);
      try {
        const s = await fs.stat(real);
        // `id`: the file itself (device and inode), so two names for one file are told apart from two files
        return { type: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size, mtime: s.mtimeMs, mode: s.mode,
          real, id: `${s.dev}:${s.ino}` };
      } catch (e) {
        if (e.code === 'ENOENT') return null;
        throw e;
      }
    },
    async readFile(p) { return fs.readFile(await locate(p)); },
    async writeFile(p, data) {
      const real = await locate(p);
      const dir = dirname(real);
      let mode = 0o666 & ~process.umask();
      try { mode = (await fs.stat(real)).mode & 0o7777; } catch (e) { if (e.code !== 'ENOENT') throw e; }
      await fs.mkdir(dir, { recursive: true });
      const tmp = join(dir, `.${basename(real)}.editcore-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
      const fh = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
      try {
        await fh.writeFile(data);
        await fh.chmod(mode); // the umask must not narrow the file's own mode
        if (fsync) await fh.sync();
        await fh.close();
        await fs.rename(tmp, real);
      } catch (e) {
        await fh.close().catch(() => {});
        await fs.unlink(tmp).catch(() => {});
        throw e;
      }
      // The rename itself is durable once the directory is synced (best effort: not every FS allows it).
      const d = fsync ? await fs.open(dir, 'r').catch(() => null) : null;
      if (d) { await d.sync().catch(() => {}); await d.close(); }
    },
    async delete(p) { await fs.unlink(await locate(p)); },
  };
}

/** createHost over nodeAdapter(root): `await createNodeHost('.').applyEdit({format, ...})`. */
export function createNodeHost(root, defaults) {
  return createHost(nodeAdapter(root), defaults);
}
