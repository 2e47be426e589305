// The file adapter editcore-mcp's tools run on (runTool's host): paths relative to "/" (the core
// names absolute paths, already checked lexically against the allowed directories), each resolved
// as the reference server's validatePath resolves it on disk — the real path of what exists
// (refused when a link leads outside every allowed directory), and for what does not, the path
// under its deepest existing ancestor, a name matching in Unicode NFC where no name matches
// exactly ("Ambiguous Unicode path component" when two do). The system calls then go to that real
// path, and their errors are Node's own words, as the reference's. Writes go through editcore's
// Node host (atomic: a temporary beside the file, fsynced, renamed over it).
import { realpathSync, readdirSync, statSync, lstatSync, readFileSync, unlinkSync, mkdirSync, renameSync } from 'node:fs';
import { join, dirname, relative, sep } from 'node:path';
import { nodeAdapter } from 'editcore/node';

/**
 * `allowed()` gives the allowed directories (absolute, normalised; they may change when the
 * client sends roots). `fsync: false` skips the sync before the rename, as the reference does.
 */
export function mcpFiles(allowed, { fsync = true } = {}) {
  const writer = nodeAdapter('/', { fsync });
  const under = (p, d) => p === d || p.startsWith(d.endsWith(sep) ? d : d + sep);
  const inside = (p) => allowed().some((d) => under(p, d));
  const denied = (real) => Object.assign(new Error(`'${real}' is outside the allowed directories`), { code: 'ACCESS_DENIED', real_path: real });

  /** For a path that does not exist: where it would be, walking from the allowed directory that holds it. */
  function whereMissing(abs) {
    const dir = [...allowed()].sort((a, b) => b.length - a.length).find((d) => under(abs, d));
    if (!dir) return abs;
    let at = realpathSync.native(dir);
    const parts = relative(dir, abs).split(sep).filter(Boolean);
    for (let i = 0; i < parts.length; i++) {
      const want = parts[i];
      const names = readdirSync(at);
      const same = names.includes(want) ? [want] : names.filter((n) => n.normalize('NFC') === want.normalize('NFC'));
      if (same.length > 1) throw new Error(`Ambiguous Unicode path component: ${want}`);
      if (!same.length) return join(at, ...parts.slice(i));
      try {
        at = realpathSync.native(join(at, same[0]));
      } catch (e) {
        // a dangling link on the way: the reference's words
        if (e.code === 'ENOENT') throw new Error(`Parent directory does not exist: ${dirname(abs)}`);
        throw e;
      }
      if (!inside(at)) throw denied(at);
    }
    return at;
  }

  /** The real path of "/" + p (the reference's validatePath on disk). */
  function real(p) {
    const abs = '/' + p;
    let r;
    try {
      r = realpathSync.native(abs);
    } catch (e) {
      if (e.code !== 'ENOENT') throw e;
      return whereMissing(abs);
    }
    if (!inside(r)) throw denied(r);
    return r;
  }

  const typeOf = (s) => (s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : 'other');

  return {
    root: '/',
    async stat(p) {
      const r = real(p);
      let s;
      try { s = statSync(r); } catch (e) { if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null; throw e; }
      return { type: typeOf(s), size: s.size, mtime: s.mtimeMs, mode: s.mode, birthtime: s.birthtimeMs, atime: s.atimeMs, real: r, id: `${s.dev}:${s.ino}` };
    },
    async realpath(p) { return real(p); },
    async readFile(p) { return readFileSync(real(p)); },
    async writeFile(p, data) { await writer.writeFile(real(p).slice(1), data); },
    async delete(p) { unlinkSync(real(p)); },
    /** The entries of a directory: each as it is (a link is a link), its size and time followed, a link's target. */
    async list(p) {
      const r = real(p);
      return readdirSync(r, { withFileTypes: true }).map((d) => {
        const full = join(r, d.name);
        const e = { name: d.name, type: d.isDirectory() ? 'directory' : d.isSymbolicLink() ? 'symlink' : d.isFile() ? 'file' : 'other' };
        try { const s = statSync(full); e.size = s.size; e.mtime = s.mtimeMs; } catch { /* a dangling link: no size */ }
        if (e.type === 'symlink') try { e.real = realpathSync.native(full); } catch { /* dangling */ }
        return e;
      });
    },
    async mkdir(p) { mkdirSync(real(p), { recursive: true }); },
    /** Renames, never over an existing path (as the reference's move_file). */
    async move(from, to) {
      const src = real(from), dst = real(to);
      let exists = true;
      try { lstatSync(dst); } catch (e) { if (e.code !== 'ENOENT') throw e; exists = false; }
      if (exists) throw new Error(`Destination already exists: ${dst}`);
      renameSync(src, dst);
    },
  };
}
