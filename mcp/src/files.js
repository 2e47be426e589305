// The file adapter editcore-mcp's tools run on (runTool's host): paths relative to "/" (the core
// names absolute paths, already checked lexically against the allowed directories), each resolved
// as the reference server's validatePath resolves it on disk — the real path of what exists
// (refused when a link leads outside every allowed directory), and for what does not, the path
// under its deepest existing ancestor, a name matching in Unicode NFC where no name matches
// exactly ("Ambiguous Unicode path component" when two do). The system calls then go to that real
// path, and their errors are the reference's words. Every system call on a file then goes through
// editcore's Node host (allowedAdapter): that real path resolved again beneath the allowed
// directories by descriptors, never through a link (a directory swapped for a link meanwhile is
// refused, not followed), and every write by editcore's write protocol — writer locks, a
// byte-for-byte check under them, a journal for several files, a move under both names' locks
// (docs/cli.md "Writes").
import { realpathSync, readdirSync } from 'node:fs';
import { join, dirname, relative, sep } from 'node:path';
import { allowedAdapter } from 'editcore/node';

/**
 * `allowed()` gives the allowed directories (absolute, normalised; they may change when the
 * client sends roots). `fsync: false` skips the sync before the rename, as the reference does.
 */
export function mcpFiles(allowed, { fsync = true } = {}) {
  // The adapter doing the I/O, for the allowed directories as they are now (the client may change them).
  let held = null, heldFor = '';
  const io = () => {
    const key = JSON.stringify(allowed());
    if (key !== heldFor) { held = allowedAdapter(allowed(), { fsync, sync: true }); heldFor = key; }
    return held;
  };
  /** "/" + p's real path, as io() names it (without the leading "/"). */
  const at = (p) => real(p).slice(1);
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

  return {
    root: '/',
    async stat(p) {
      const r = at(p);
      try { return await io().stat(r); } catch (e) { if (e.code === 'ENOENT' || e.code === 'ENOTDIR' || e.code === 'NOT_FOUND') return null; throw e; }
    },
    async realpath(p) { return real(p); },
    async readFile(p) { return io().readFile(at(p)); },
    async writeFile(p, data) { return io().writeFile(at(p), data); },
    async delete(p) { return io().delete(at(p)); },
    /** A set of writes and deletions, all or nothing (runTool's commit). */
    async commit(ops) { return io().commit(ops.map((o) => ({ ...o, path: at(o.path) }))); },
    async list(p) { return io().list(at(p)); },
    async mkdir(p) { return io().mkdir(at(p)); },
    /** Renames, never over an existing path (as the reference's move_file). */
    async move(from, to) { return io().move(at(from), at(to)); },
  };
}
