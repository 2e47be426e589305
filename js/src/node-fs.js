// The Node host's file I/O (editcore/node, the MCP server): paths resolved beneath the allowed
// roots without following links, and the write protocol every editcore host follows
// (core/include/editcore_commit.h, docs/cli.md): writer locks held across the byte-for-byte check
// and the renames, temporaries staged beside their targets, a journal for several files, and the
// next run finishing what a killed one left. The decisions (lock order, names, lock records, when
// a lock is stale, how a journal is finished) are the core's, asked over JSON; this file only
// does the calls.
//
// Node has no openat. On Linux the same effect comes from /proc/self/fd: a directory is opened
// (O_DIRECTORY | O_NOFOLLOW, one component at a time from the root's descriptor) and every later
// call names "/proc/self/fd/N/name", which the kernel resolves from that open directory, not from
// a path that could have been swapped for a symlink since. Without /proc (macOS, a sandbox
// without it), the same calls go through path strings, each component checked with lstat first:
// then a directory swapped for a link between that check and the call is followed (docs/cli.md
// states that window).
import * as fs from 'node:fs';
import { promisify } from 'node:util';
import { posix } from 'node:path';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { init, applyJson } from './engine.js';

const C = fs.constants;
const OPS = ['realpath', 'open', 'close', 'fstat', 'stat', 'lstat', 'readlink', 'rename', 'unlink', 'mkdir', 'rmdir', 'fsync', 'fchmod', 'link', 'lutimes', 'readdir', 'readFile', 'writeFile'];
const asyncIo = Object.fromEntries(OPS.map((n) => [n, promisify(fs[n])]));
const syncIo = Object.fromEntries(OPS.map((n) => [n, fs[`${n}Sync`]]));
const LINKS_MAX = 40;
const JOURNAL_MAX = 64 << 20;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Runs an io call (sync or async) and ignores its failure: clean-up steps that may find nothing to do. */
const quiet = async (f) => { try { return await f(); } catch { return undefined; } };
/** A file's identity for the journal (editcore_commit.h): "ino:size:mtime", as every host's stat gives it
 * (seconds floored, as C's timespec has them, so an mtime before 1970 reads alike too). */
const fileId = (st) => {
  let sec = st.mtimeNs / 1000000000n, ns = st.mtimeNs % 1000000000n;
  if (ns < 0n) { sec -= 1n; ns += 1000000000n; }
  return `${st.ino}:${st.size}:${sec}.${ns.toString().padStart(9, '0')}`;
};

/** Whether /proc/self/fd resolves from open descriptors here (Linux with /proc mounted).
 * EDITCORE_TEST_NO_PROCFD=1 takes the path-string way, to measure it (tests/host/race/swap.mjs). */
const procFd = (() => {
  if (process.platform !== 'linux' || process.env.EDITCORE_TEST_NO_PROCFD === '1') return false;
  let fd = -1;
  try {
    fd = fs.openSync('/', C.O_RDONLY | C.O_DIRECTORY);
    return fs.statSync(`/proc/self/fd/${fd}`).isDirectory();
  } catch { return false; } finally { if (fd >= 0) fs.closeSync(fd); }
})();

/** An error the hosts carry to the response under its code (ACCESS_DENIED, CONFLICT, IO_ERROR...). */
function hostError(code, message, extra = {}) {
  return Object.assign(new Error(message), { code, hostError: true }, extra);
}

// Section - the core's decisions

async function ask(request) {
  await init({ full: true }); // the write protocol is in editcore-tools.wasm, which full: true loads
  const res = JSON.parse(applyJson(JSON.stringify(request)));
  if (res.error) throw hostError('IO_ERROR', `editcore: ${res.error.message}`);
  return res;
}

/** This process as a lock owner (docs/cli.md "Locks"). */
const owner = (() => {
  const line = (p) => { try { return fs.readFileSync(p, 'utf8').split('\n')[0]; } catch { return ''; } };
  let ns = '';
  try { ns = fs.readlinkSync('/proc/self/ns/pid'); } catch {}
  return { pid: process.pid, start: procStat(process.pid).start ?? '', boot: line('/proc/sys/kernel/random/boot_id'), pidns: ns, host: hostname(), kind: 'node' };
})();

/** Field 3 (state) and 22 (start time) of /proc/PID/stat: {state, start}, {gone: true}, or {} when /proc cannot tell. */
function procStat(pid) {
  let text;
  try { text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); } catch (e) {
    if (e.code === 'ENOENT' && fs.existsSync('/proc/self/stat')) return { gone: true };
    return {};
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' '); // the name (field 2) may hold spaces
  return { state: fields[0], start: fields[19] };
}

function ownerState(pid) {
  const s = procStat(pid);
  if (s.gone || s.state === 'Z' || s.state === 'X') return { owner: 'dead' };
  if (s.state) return { owner: 'alive', owner_start: s.start ?? '' };
  try { process.kill(pid, 0); return { owner: 'alive' }; } catch (e) { return { owner: e.code === 'ESRCH' ? 'dead' : e.code === 'EPERM' ? 'alive' : 'unknown' }; }
}

// Section - paths beneath the roots

/**
 * One operation's view of the roots (`roots`: [{real}], their real absolute paths): directories
 * opened beneath a root, by link-free path, kept until close().
 */
class Beneath {
  constructor(roots, io) {
    this.roots = roots;
    this.io = io;
    this.dirs = new Map();
  }

  /**
   * The path the system calls get for `name` in an opened directory: through its descriptor; or,
   * without /proc, its path string, after checking that the string still leads to that very
   * directory (realpath unchanged, same device and inode): what is left is the moment between
   * this check and the call.
   */
  async at(d, name) {
    if (procFd) return `/proc/self/fd/${d.fd}/${name}`;
    const [real, st, now] = await Promise.all([this.io.realpath(d.path), this.io.fstat(d.fd), this.io.lstat(d.path)]);
    if (real !== d.path || st.ino !== now.ino || st.dev !== now.dev)
      throw hostError('ACCESS_DENIED', `'${d.path}' changed while editcore was working in it (a directory swapped for a link?); nothing more was done there`);
    return `${d.path}/${name}`;
  }

  /** Directory `dir` (link-free, from root ri; '' the root), opened without following links. */
  async dir(ri, dir) {
    const key = `${ri}\0${dir}`;
    const have = this.dirs.get(key);
    if (have) return have;
    let d;
    if (!dir) {
      d = { fd: await this.io.open(this.roots[ri].real, C.O_RDONLY | C.O_DIRECTORY), path: this.roots[ri].real };
    } else {
      const cut = dir.lastIndexOf('/');
      const parent = await this.dir(ri, cut < 0 ? '' : dir.slice(0, cut));
      const name = dir.slice(cut + 1);
      const at = await this.at(parent, name);
      let seen = null;
      if (!procFd) {
        // Path strings: a link already there is never walked through, and what was opened is what was looked at.
        seen = await this.io.lstat(at);
        if (!seen.isDirectory()) throw Object.assign(new Error(`'${dir}' is not a directory`), { code: seen.isSymbolicLink() ? 'ELOOP' : 'ENOTDIR' });
      }
      d = { fd: await this.io.open(at, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW), path: `${parent.path}/${name}` };
      if (seen) {
        const st = await this.io.fstat(d.fd);
        if (st.ino !== seen.ino || st.dev !== seen.dev) {
          await quiet(() => this.io.close(d.fd));
          throw Object.assign(new Error(`'${dir}' changed while it was opened`), { code: 'ELOOP' });
        }
      }
    }
    this.dirs.set(key, d);
    return d;
  }

  async close() {
    for (const d of this.dirs.values()) await quiet(() => this.io.close(d.fd));
    this.dirs.clear();
  }

  /** The root holding absolute normalised `abs`, and the path below it; null when none does. */
  place(abs) {
    for (const [ri, r] of this.roots.entries()) {
      if (abs === r.real) return { ri, rel: '' };
      if (abs.startsWith(r.real.endsWith('/') ? r.real : `${r.real}/`)) return { ri, rel: abs.slice(r.real.length).replace(/^\/+/, '') };
    }
    return null;
  }

  /** A link's target, lexically, as a place beneath a root (else ACCESS_DENIED naming where it leads). */
  follow(ri, dir, target, rest, shown) {
    const abs = posix.normalize(target.startsWith('/') ? target : posix.join(this.roots[ri].real, dir, target));
    const at = this.place(abs);
    if (!at) throw hostError('ACCESS_DENIED', `'${shown}' goes through a symlink that leads outside the root (to '${target}')`, { real_path: abs, path: shown });
    return { ri: at.ri, todo: [at.rel, rest].filter(Boolean).join('/') };
  }

  /**
   * Resolves `rel` (normalised, from root ri) through links that stay beneath a root, never
   * through a link itself: {ri, real (link-free), dir, name, exists, st}.
   */
  async resolve(ri, rel, shown = rel) {
    let todo = rel;
    let links = 0;
    const hop = () => { if (++links > LINKS_MAX) throw hostError('ACCESS_DENIED', `'${shown}': too many levels of symlinks`, { path: shown }); };
    for (;;) {
      if (!todo) return { ri, real: '', dir: '', name: '.', exists: true, st: await this.io.fstat((await this.dir(ri, '')).fd) };
      const cut = todo.lastIndexOf('/');
      const dir = cut < 0 ? '' : todo.slice(0, cut);
      const name = todo.slice(cut + 1);
      let d = null;
      try { d = await this.dir(ri, dir); } catch (e) {
        if (!['ENOENT', 'ELOOP', 'ENOTDIR', 'EXDEV'].includes(e.code)) throw e;
      }
      if (!d) {
        // One component at a time, to find the link, or the missing or non-directory part.
        const parts = dir.split('/');
        let done = '', jump = null;
        for (let i = 0; i < parts.length; i++) {
          const next = done ? `${done}/${parts[i]}` : parts[i];
          try { await this.dir(ri, next); done = next; continue; } catch (e) {
            if (!['ENOENT', 'ELOOP', 'ENOTDIR', 'EXDEV'].includes(e.code)) throw e;
          }
          const parent = await this.dir(ri, done);
          let ls;
          try { ls = await this.io.lstat(await this.at(parent, parts[i])); } catch (e) {
            if (e.code === 'ENOENT') return { ri, real: todo, dir, name, exists: false };
            throw e;
          }
          if (ls.isSymbolicLink()) {
            hop();
            jump = this.follow(ri, done, await this.io.readlink(await this.at(parent, parts[i])), [...parts.slice(i + 1), name].join('/'), shown);
            break;
          }
          if (!ls.isDirectory()) throw hostError('NOT_FOUND', `'${shown}': a part of the path is not a directory`, { path: shown });
          throw hostError('CONFLICT', `'${shown}' changed while it was being resolved; run again`, { path: shown });
        }
        if (jump) { ({ ri, todo } = jump); continue; }
        d = await this.dir(ri, dir);
      }
      let st;
      try { st = await this.io.lstat(await this.at(d, name)); } catch (e) {
        if (e.code === 'ENOENT') return { ri, real: todo, dir, name, exists: false };
        throw e;
      }
      if (!st.isSymbolicLink()) return { ri, real: todo, dir, name, exists: true, st };
      hop();
      ({ ri, todo } = this.follow(ri, dir, await this.io.readlink(await this.at(d, name)), '', shown));
    }
  }

  /** Creates the missing directories of `dir` beneath root ri; returns those it made (shallowest first). */
  async makeDirs(ri, dir) {
    const made = [];
    const parts = dir ? dir.split('/') : [];
    for (let i = 0; i < parts.length; i++) {
      const sub = parts.slice(0, i + 1).join('/');
      try { await this.dir(ri, sub); continue; } catch (e) { if (e.code !== 'ENOENT') throw e; }
      try { await this.io.mkdir(await this.at(await this.dir(ri, parts.slice(0, i).join('/')), parts[i]), 0o777); made.push(sub); } catch (e) { if (e.code !== 'EEXIST') throw e; }
    }
    return made;
  }

  /** Reads regular file `name` in directory d whole, not through a link; null when absent.
   * With `withId`: {bytes, id}, id the file's identity (fileId) as read. */
  async read(d, name, limit = Infinity, withId = false) {
    let fd;
    try { fd = await this.io.open(await this.at(d, name), C.O_RDONLY | C.O_NOFOLLOW); } catch (e) {
      if (e.code === 'ENOENT') return null;
      throw e;
    }
    try {
      const st = await this.io.fstat(fd, { bigint: true });
      if (!st.isFile()) throw Object.assign(new Error(`'${name}' is not a regular file`), { code: 'EISDIR' });
      if (st.size > limit) throw Object.assign(new Error(`'${name}' is too large`), { code: 'EFBIG' });
      const bytes = new Uint8Array(await this.io.readFile(fd));
      return withId ? { bytes, id: fileId(st) } : bytes;
    } finally { await this.io.close(fd); }
  }

  /** The identity of `name` in d (null: absent; a string no journal holds when it is not a regular file). */
  async id(d, name) {
    let st;
    try { st = await this.io.lstat(await this.at(d, name), { bigint: true }); } catch (e) {
      if (e.code === 'ENOENT') return null;
      return 'unreadable';
    }
    return st.isFile() ? fileId(st) : 'not-a-regular-file';
  }
}

// Section - locks

/** The lock file's text and age, or null when there is none. */
async function readLock(b, d, lock) {
  let fd;
  try { fd = await b.io.open(await b.at(d, lock), C.O_RDONLY | C.O_NOFOLLOW); } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
  try {
    const st = await b.io.fstat(fd);
    return { text: (await b.io.readFile(fd)).toString('utf8'), age: Date.now() - st.mtimeMs };
  } finally { await b.io.close(fd); }
}

/** The core's verdict on a lock, after looking at its owner's pid when it asks. */
async function judge(text, age) {
  const req = { commit: 'lock', record: text, me: owner, age_ms: age };
  let v = await ask(req);
  if (v.stale === null) v = await ask({ ...req, ...ownerState(v.pid) });
  return v;
}

/** The journal a stale record names, from root ri's top: undefined when none, null when above the root. */
function journalPath(dir, journal) {
  if (!journal) return undefined;
  const p = posix.normalize(posix.join('/', dir, journal));
  const up = posix.normalize(`${dir ? `${dir}/` : ''}${journal}`);
  return up.startsWith('../') || up === '..' ? null : p.slice(1);
}

/**
 * Takes one lock (q: {ri, dir, lock, record, own, shown}): waits for a live owner until
 * `deadline`; breaks a stale lock, unless it names a journal that exists: {recover: path} then.
 */
async function takeLock(b, q, deadline, held) {
  let nap = 1;
  const d = await b.dir(q.ri, q.dir);
  for (;;) {
    try {
      const fd = await b.io.open(await b.at(d, q.lock), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o644);
      try { await b.io.writeFile(fd, q.record); } catch (e) {
        await b.io.close(fd);
        await quiet(async () => b.io.unlink(await b.at(d, q.lock)));
        throw e;
      }
      await b.io.close(fd);
      return { taken: true };
    } catch (e) { if (e.code !== 'EEXIST') throw e; }
    const seen = await readLock(b, d, q.lock);
    if (!seen) continue; // released between our create and our read
    const v = await judge(seen.text, seen.age);
    if (v.stale) {
      if (v.txn !== q.own && v.journal) {
        const j = journalPath(q.dir, v.journal);
        if (j === null) {
          throw hostError('CONFLICT', `'${q.shown}' is part of an edit a killed editcore left half-done, and its journal ('${v.journal}' from the file's directory) is outside this root; run editcore once from a root that holds it to finish that edit`, { path: q.shown });
        }
        const cut = j.lastIndexOf('/');
        const there = await quiet(async () => b.io.lstat(await b.at(await b.dir(q.ri, cut < 0 ? '' : j.slice(0, cut)), j.slice(cut + 1))));
        if (there) return { recover: j };
      }
      await breakLock(b, d, q.lock, seen.text);
      continue;
    }
    if (Date.now() >= deadline) {
      throw hostError('CONFLICT', `'${q.shown}' is being written by another editcore (${v.why}) and stayed locked for ${Math.round(lockWaitMs() / 1000)} s; nothing was written. Try again later, or remove its lock file '${q.lock}' if no editcore runs`, { path: q.shown });
    }
    await held?.touch(); // ours must not look dead to others while we wait
    await sleep(nap);
    nap = Math.min(nap * 2, 50);
  }
}

/** Removes a stale lock we judged: renamed aside first, so a live owner's lock taken meanwhile is put back. */
async function breakLock(b, d, lock, judged) {
  const aside = `${lock}.broken-${randomBytes(4).toString('hex')}`;
  try { await b.io.rename(await b.at(d, lock), await b.at(d, aside)); } catch { return; }
  try {
    const now = await readLock(b, d, aside);
    if (now && now.text !== judged) await quiet(async () => b.io.link(await b.at(d, aside), await b.at(d, lock)));
  } finally { await quiet(async () => b.io.unlink(await b.at(d, aside))); }
}

async function releaseLock(b, d, lock, record) {
  const now = await readLock(b, d, lock).catch(() => null);
  if (now?.text === record) await quiet(async () => b.io.unlink(await b.at(d, lock)));
}

function lockWaitMs() {
  const v = Number(process.env.EDITCORE_LOCK_WAIT_MS);
  return v > 0 ? v : 30000;
}

/** Every editcore temporary of `base` in directory d (call only while holding its lock). */
async function removeTemps(b, d, base, names) {
  names ??= await b.io.readdir(await b.at(d, '.'));
  const keep = Buffer.from(base).subarray(0, 200).toString('utf8').replace(/\uFFFD$/, '');
  const maybe = names.filter((n) => n.startsWith(`.${keep}`) && n.includes('.editcore-'));
  if (!maybe.length) return;
  const { temps } = await ask({ commit: 'temps', base, names: maybe });
  for (const t of temps) await quiet(async () => b.io.unlink(await b.at(d, t)));
}

// Section - test hooks (as the C host's: docs/cli.md)

async function testPause(name) {
  const p = process.env[name];
  if (!p) return;
  fs.writeFileSync(`${p}.ready`, '');
  for (let i = 0; i < 2000 && !fs.existsSync(`${p}.go`); i++) await sleep(10);
}

const renameGap = () => { const ms = Number(process.env.EDITCORE_TEST_RENAME_GAP_MS); return ms > 0 ? sleep(ms) : null; };

// Section - finishing what a killed run left

class Held {
  constructor(b) { this.b = b; this.locks = []; this.beat = Date.now(); }
  add(d, lock, record) { this.locks.push({ d, lock, record }); }
  async touch(force = false) {
    if (!force && Date.now() - this.beat < 500) return;
    this.beat = Date.now();
    const now = new Date();
    for (const l of this.locks) await quiet(async () => this.b.io.lutimes(await this.b.at(l.d, l.lock), now, now));
  }
  async release() {
    for (const l of this.locks.reverse()) await releaseLock(this.b, l.d, l.lock, l.record);
    this.locks = [];
  }
}

/** Rolls journal `jpath` (from root ri's top) forward under its set's locks; reports what it did. */
async function recover(b, ri, jpath, report, depth = 0) {
  const cut = jpath.lastIndexOf('/');
  const jdir = cut < 0 ? '' : jpath.slice(0, cut), jname = jpath.slice(cut + 1);
  const jd = await b.dir(ri, jdir);
  const bytes = await b.read(jd, jname, JOURNAL_MAX).catch(() => null);
  if (!bytes) return; // finished meanwhile
  const text = Buffer.from(bytes).toString('utf8');
  const plan = await ask({ commit: 'recover', journal: text, journal_dir: jdir, owner });
  if (!plan.valid) { await quiet(async () => b.io.unlink(await b.at(jd, jname))); return; } // cut short before its commit point
  const held = new Held(b);
  try {
    const deadline = Date.now() + lockWaitMs();
    for (let attempt = 0; ; attempt++) {
      let again = null;
      for (const f of plan.files) {
        const r = await takeLock(b, { ri, dir: f.dir, lock: f.lock, record: f.record, own: plan.txn, shown: f.path }, deadline, held);
        if (r.taken) { held.add(await b.dir(ri, f.dir), f.lock, f.record); continue; }
        again = r.recover;
        break;
      }
      if (!again) break;
      await held.release();
      if (depth >= 3 || attempt >= 8) throw hostError('CONFLICT', `'${jpath}': its files are held by a chain of unfinished edits; run again`);
      await recover(b, ri, again, report, depth + 1);
    }
    const observed = [];
    for (const f of plan.files) {
      const d = await b.dir(ri, f.dir);
      observed.push({ target: await b.id(d, f.base), temp: await b.id(d, f.temp) });
    }
    const done = await ask({ commit: 'recover', journal: text, journal_dir: jdir, owner, observed });
    for (const [i, f] of plan.files.entries()) {
      const d = await b.dir(ri, f.dir);
      const what = done.actions[i].do;
      if (what === 'rename') await b.io.rename(await b.at(d, f.temp), await b.at(d, f.base));
      if (what === 'delete') {
        try { await b.io.unlink(await b.at(d, f.base)); } catch (e) { if (e.code !== 'ENOENT') throw e; }
      }
      await held.touch();
    }
    for (const f of plan.files) await quiet(async () => b.io.fsync((await b.dir(ri, f.dir)).fd));
    await quiet(async () => b.io.unlink(await b.at(jd, jname)));
    await quiet(() => b.io.fsync(jd.fd));
    for (const f of plan.files) await removeTemps(b, await b.dir(ri, f.dir), f.base);
    report(done.text);
  } finally { await held.release(); }
}

/** Before a file is looked at: a stale lock beside it is dealt with (its journal finished, or
 * broken and its temporaries removed). Returns whether it did anything. */
async function settle(b, ri, dir, name, report) {
  if (name === '.') return false;
  const d = await b.dir(ri, dir).catch(() => null);
  if (!d) return false;
  const { lock } = await lockName(name);
  const seen = await readLock(b, d, lock).catch(() => null);
  if (!seen || !(await judge(seen.text, seen.age)).stale) return false; // none (the usual case), or a live writer's
  const txn = randomBytes(8).toString('hex');
  const plan = await ask({ commit: 'plan', txn, owner, ops: [{ path: dir ? `${dir}/${name}` : name, action: 'delete', old: null }] });
  const { record } = plan.files[0];
  try {
    for (let attempt = 0; attempt < 4; attempt++) {
      const r = await takeLock(b, { ri, dir, lock, record, own: txn, shown: name }, Date.now() + lockWaitMs());
      if (r.taken) {
        try { await removeTemps(b, d, name); } finally { await releaseLock(b, d, lock, record); }
        return true;
      }
      await recover(b, ri, r.recover, report);
    }
  } catch (e) {
    report(`could not finish what a killed run left beside '${name}': ${e.message}`);
  }
  return true;
}

const lockNames = new Map();
async function lockName(base) {
  let n = lockNames.get(base);
  if (!n) {
    n = await ask({ commit: 'names', base });
    if (lockNames.size > 4096) lockNames.clear();
    lockNames.set(base, n);
  }
  return n;
}

// Section - the commit

/**
 * Takes the locks of `files` (the plan's, in its order; each {dir, lock, record, it: {at: {shown}}},
 * and `ri` where it is below another root than `ri`) into `held`; `prepare(f)` runs before each. A stale lock whose journal exists: that edit is
 * finished first, then every lock taken again.
 */
async function lockAll(b, ri, files, txn, held, report, prepare = async () => {}) {
  const deadline = Date.now() + lockWaitMs();
  for (let attempt = 0; ; attempt++) {
    let again = null;
    for (const f of files) {
      await prepare(f);
      const fri = f.ri ?? ri;
      const r = await takeLock(b, { ri: fri, dir: f.dir, lock: f.lock, record: f.record, own: txn, shown: f.it.at.shown }, deadline, held);
      if (r.taken) { held.add(await b.dir(fri, f.dir), f.lock, f.record); await held.touch(); continue; }
      again = { ri: fri, journal: r.recover };
      break;
    }
    if (!again) return;
    await held.release();
    if (attempt >= 8) throw hostError('CONFLICT', `'${files[0].it.at.shown}' stays locked by unfinished edits; run again`);
    await recover(b, again.ri, again.journal, report);
  }
}

/**
 * Writes a set of files all or nothing by the write protocol. `ops`: [{at: {ri, rel, shown},
 * bytes: Uint8Array | null (delete), old: Uint8Array | null (must be absent) | undefined (not
 * read before: read now)}]. Throws a hostError (CONFLICT when a file changed since it was read,
 * or stayed locked).
 */
async function commitOps(b, ops, { fsync = true, report }) {
  if (!ops.length) return;
  const ri = ops[0].at.ri;
  if (ops.some((o) => o.at.ri !== ri)) throw hostError('INVALID_PARAM', 'one edit writes below one allowed directory at a time');
  // Where each file really is (links inside the root followed), and what it was.
  const items = [];
  for (const o of ops) {
    const r = await b.resolve(ri, o.at.rel, o.at.shown);
    if (r.real === '') throw hostError('INVALID_PARAM', `'${o.at.shown}' names the root itself, not a file`);
    if (r.ri !== ri) throw hostError('INVALID_PARAM', `'${o.at.shown}' leads into another allowed directory; edit it there`);
    if (r.exists && !r.st.isFile()) throw hostError('IO_ERROR', `'${o.at.shown}' is not a regular file`, { path: o.at.shown });
    // Not read before (a plain write, a deletion): read now, so the journal knows its old content
    // and the check under the lock still catches a writer who came between.
    const old = o.old !== undefined ? o.old : r.exists ? await b.read(await b.dir(r.ri, r.dir), r.name) : null;
    items.push({ ...o, old, r, mode: r.exists ? r.st.mode & 0o7777 : null });
  }
  const txn = randomBytes(8).toString('hex');
  const plan = await ask({ commit: 'plan', txn, owner, ops: items.map((it) => ({ path: it.r.real, action: it.bytes ? 'write' : 'delete' })) });
  const order = plan.files.map((f) => ({ ...f, it: items[f.op] }));
  await testPause('EDITCORE_TEST_PAUSE');
  const held = new Held(b);
  const made = [], staged = [], done = [];
  let journaled = null;
  try {
    // 1. The locks, in the plan's order (a stale lock's journal finished first, then start again).
    await lockAll(b, ri, order, txn, held, report, async (f) => {
      if (f.it.bytes && !f.it.r.exists && !f.made) { f.made = await b.makeDirs(ri, f.dir); made.push(...f.made); }
    });
    await testPause('EDITCORE_TEST_HOLD');
    // 2. Under the locks: every file byte for byte what the edit was made from. Dead writers' temporaries go.
    const listed = new Map();
    for (const f of order) {
      const d = await b.dir(ri, f.dir);
      let now;
      try {
        const got = await b.read(d, f.base, f.it.old ? f.it.old.length : 0, true);
        now = got && got.bytes;
        f.oldId = got ? got.id : null;
      } catch (e) {
        if (!['EFBIG', 'ELOOP', 'EISDIR'].includes(e.code)) throw e;
        now = false;
      }
      const same = f.it.old === null ? now === null : now && Buffer.compare(now, f.it.old) === 0;
      if (!same) {
        throw hostError('CONFLICT', f.it.old ? `'${f.it.at.shown}' changed on disk while the edit was applied; nothing was changed, read it again`
          : `'${f.it.at.shown}' appeared on disk while the edit was applied; nothing was changed`, { path: f.it.at.shown });
      }
      if (!listed.has(f.dir)) listed.set(f.dir, (await b.io.readdir(await b.at(d, '.'))).filter((n) => n.includes('.editcore-')));
      await removeTemps(b, d, f.base, listed.get(f.dir));
      await held.touch();
    }
    // 3. Stage every new content beside its target, mode kept, fsynced.
    for (const f of order) {
      if (!f.it.bytes) continue;
      const d = await b.dir(ri, f.dir);
      const mode = f.it.mode ?? (0o666 & ~process.umask());
      const fd = await b.io.open(await b.at(d, f.temp), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, mode);
      staged.push(f);
      try {
        await b.io.writeFile(fd, f.it.bytes);
        await b.io.fchmod(fd, mode); // the umask must not narrow the file's own mode
        if (fsync) await b.io.fsync(fd);
        f.newId = fileId(await b.io.fstat(fd, { bigint: true }));
      } finally { await b.io.close(fd); }
      await held.touch();
    }
    // 4. Two or more operations: the journal, fsynced — the commit point.
    if (plan.journal) {
      const { text } = await ask({ commit: 'journal', txn, ops: order.map((f) => ({ path: f.it.r.real, action: f.it.bytes ? 'write' : 'delete', old: f.oldId, ...(f.it.bytes ? { new: f.newId } : {}) })) });
      const jd = await b.dir(ri, plan.journal.dir);
      const fd = await b.io.open(await b.at(jd, plan.journal.name), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, 0o644);
      journaled = { jd, name: plan.journal.name };
      try { await b.io.writeFile(fd, text); if (fsync) await b.io.fsync(fd); } finally { await b.io.close(fd); }
      if (fsync) await quiet(() => b.io.fsync(jd.fd));
    }
    // 5. Renames, then deletions, in the plan's order.
    let first = true;
    for (const f of order.filter((x) => x.it.bytes)) {
      if (!first) await renameGap();
      first = false;
      const d = await b.dir(ri, f.dir);
      await b.io.rename(await b.at(d, f.temp), await b.at(d, f.base));
      staged.splice(staged.indexOf(f), 1);
      done.push(f);
      await held.touch();
    }
    for (const f of order.filter((x) => !x.it.bytes)) {
      const d = await b.dir(ri, f.dir);
      await b.io.unlink(await b.at(d, f.base));
      done.push(f);
      await held.touch();
    }
    // The renames made durable: each directory touched, once.
    for (const dir of new Set(order.map((f) => f.dir))) await quiet(async () => b.io.fsync((await b.dir(ri, dir)).fd));
  } catch (e) {
    // Put back what was done from the bytes read, remove what was staged (under the locks still held).
    const lost = [];
    for (const f of done.reverse()) {
      const d = await b.dir(ri, f.dir);
      try {
        if (f.it.old) {
          const fd = await b.io.open(await b.at(d, f.temp), C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, f.it.mode ?? 0o644);
          try { await b.io.writeFile(fd, f.it.old); await b.io.fsync(fd); } finally { await b.io.close(fd); }
          await b.io.rename(await b.at(d, f.temp), await b.at(d, f.base));
        } else {
          await b.io.unlink(await b.at(d, f.base));
        }
      } catch { lost.push(f.it.at.shown); }
    }
    for (const f of staged) await quiet(async () => b.io.unlink(await b.at(await b.dir(ri, f.dir), f.temp)));
    if (journaled) await quiet(async () => b.io.unlink(await b.at(journaled.jd, journaled.name)));
    journaled = null;
    await held.release();
    for (const dir of made.reverse()) {
      const cut = dir.lastIndexOf('/');
      await quiet(async () => b.io.rmdir(await b.at(await b.dir(ri, cut < 0 ? '' : dir.slice(0, cut)), dir.slice(cut + 1))));
    }
    if (e.hostError) throw e;
    const msg = `writing failed (${e?.message ?? e})`;
    // PERMISSION_DENIED: the OS refused (createHost answers it as ACCESS_DENIED, the tools as PERMISSION_DENIED)
    throw hostError(e.code === 'EACCES' || e.code === 'EPERM' || e.code === 'EROFS' ? 'PERMISSION_DENIED' : 'IO_ERROR',
      lost.length ? `${msg}; restoring ${lost.join(', ')} failed too` : `${msg}; nothing was changed`, { cause: e });
  }
  if (journaled) {
    await quiet(async () => b.io.unlink(await b.at(journaled.jd, journaled.name)));
    if (fsync) await quiet(() => b.io.fsync(journaled.jd.fd));
  }
  await held.release();
}

/**
 * commitOps over allowed directories: one directory's ops all or nothing by its own journal. Ops
 * in two or more directories are committed one directory after the other; when a later part
 * fails, the earlier parts are put back from the bytes they replaced. A kill between two parts
 * leaves the first directory's part written (docs/cli.md): no journal spans two roots.
 */
async function commitAcross(b, ops, opts) {
  const parts = new Map();
  for (const o of ops) parts.set(o.at.ri, [...(parts.get(o.at.ri) ?? []), o]);
  if (parts.size <= 1) return commitOps(b, ops, opts);
  const done = [];
  for (const part of parts.values()) {
    for (const o of part) {
      if (o.old !== undefined) continue;
      // what it holds now: the check under the locks compares against it, and a put-back restores it
      const r = await b.resolve(o.at.ri, o.at.rel, o.at.shown);
      o.old = !r.exists ? null : r.st.isFile() ? await b.read(await b.dir(r.ri, r.dir), r.name) : undefined;
    }
    try {
      await commitOps(b, part, opts);
      done.push(part);
    } catch (e) {
      const lost = [];
      for (const p of done.reverse()) {
        try { await commitOps(b, p.map((o) => ({ at: o.at, bytes: o.old, old: o.bytes })), opts); } catch { lost.push(...p.map((o) => o.at.shown)); }
      }
      if (lost.length) e.message += `; putting back ${lost.join(', ')} failed too`;
      throw e;
    }
  }
}

// Section - directories made, paths moved, directories listed (the MCP filesystem tools)

/** Where `r` (a resolve() result) is, as an absolute real path. */
const realOf = (b, r) => (r.real ? `${b.roots[r.ri].real.replace(/\/$/, '')}/${r.real}` : b.roots[r.ri].real);
/** An error worded as Node's own for `call` on `path` (the MCP reference server answers those). */
const nodeError = (code, words, call, path) => Object.assign(new Error(`${code}: ${words}, ${call} '${path}'`), { code });

/** mkdir -p of `at` beneath its root: each directory made in its opened parent, never through a link. */
async function mkdirOp(b, at) {
  const r = await b.resolve(at.ri, at.rel, at.shown);
  if (r.exists) {
    if (!r.st.isDirectory()) throw nodeError('EEXIST', 'file already exists', 'mkdir', realOf(b, r));
    return;
  }
  await b.makeDirs(r.ri, r.real);
}

/**
 * Renames `from` to `to` (never over an existing path), each beneath its root, under the write
 * protocol's locks of both names: the source checked to be still there (as a file or as a
 * directory, as resolved) and the destination still absent under them, the rename made between
 * the opened directories.
 */
async function moveOp(b, from, to, report) {
  const rf = await b.resolve(from.ri, from.rel, from.shown), rt = await b.resolve(to.ri, to.rel, to.shown);
  if (!rf.exists || !rf.real) throw nodeError('ENOENT', 'no such file or directory', 'rename', `${realOf(b, rf)}' -> '${realOf(b, rt)}`);
  if (rt.exists) throw new Error(`Destination already exists: ${realOf(b, rt)}`);
  const txn = randomBytes(8).toString('hex');
  // Both names' locks (a move between two allowed directories: each below its own root).
  let order;
  if (rf.ri === rt.ri) {
    const plan = await ask({ commit: 'plan', txn, owner, ops: [{ path: rf.real, action: 'delete' }, { path: rt.real, action: 'write' }] });
    order = plan.files.map((f) => ({ ...f, it: { at: f.op === 0 ? from : to } }));
  } else {
    // Two roots: each name planned below its own, taken in the order of their absolute paths.
    const one = async (r, action, at) => ({ ...(await ask({ commit: 'plan', txn, owner, ops: [{ path: r.real, action }] })).files[0], ri: r.ri, it: { at }, abs: realOf(b, r) });
    order = [await one(rf, 'delete', from), await one(rt, 'write', to)].sort((x, y) => (x.abs < y.abs ? -1 : 1));
  }
  const held = new Held(b);
  try {
    try { await b.dir(rt.ri, rt.dir); } catch (e) {
      if (e.code === 'ENOENT') throw nodeError('ENOENT', 'no such file or directory', 'rename', `${realOf(b, rf)}' -> '${realOf(b, rt)}`);
      throw e;
    }
    await lockAll(b, rf.ri, order, txn, held, report);
    const df = await b.dir(rf.ri, rf.dir), dt = await b.dir(rt.ri, rt.dir);
    // The source's latest content moves (a writer that came between has finished: nothing lost).
    const now = await quiet(async () => b.io.lstat(await b.at(df, rf.name)));
    if (!now || now.isDirectory() !== rf.st.isDirectory()) throw hostError('CONFLICT', `'${from.shown}' was removed or replaced while it was being moved; nothing was moved`, { path: from.shown });
    if (await quiet(async () => b.io.lstat(await b.at(dt, rt.name)))) throw new Error(`Destination already exists: ${realOf(b, rt)}`);
    await b.io.rename(await b.at(df, rf.name), await b.at(dt, rt.name));
    for (const d of new Set([df, dt])) await quiet(() => b.io.fsync(d.fd));
  } finally {
    await held.release();
  }
}

/** The entries of directory `at`: each as it is (a link is a link), its size and time followed, a link's target. */
async function listOp(b, at) {
  const r = await b.resolve(at.ri, at.rel, at.shown);
  if (!r.exists) throw nodeError('ENOENT', 'no such file or directory', 'scandir', realOf(b, r));
  if (!r.st.isDirectory()) throw nodeError('ENOTDIR', 'not a directory', 'scandir', realOf(b, r));
  const d = await b.dir(r.ri, r.real);
  const out = [];
  for (const name of await b.io.readdir(await b.at(d, '.'))) {
    const full = await b.at(d, name);
    let ls;
    try { ls = await b.io.lstat(full); } catch { continue; } // gone meanwhile
    const e = { name, type: ls.isDirectory() ? 'directory' : ls.isSymbolicLink() ? 'symlink' : ls.isFile() ? 'file' : 'other' };
    if (e.type !== 'symlink') { e.size = ls.size; e.mtime = ls.mtimeMs; } else {
      // what the link leads to: metadata only, never content
      try { const s = await b.io.stat(full); e.size = s.size; e.mtime = s.mtimeMs; } catch { /* dangling */ }
      try { e.real = await b.io.realpath(full); } catch { /* dangling */ }
    }
    out.push(e);
  }
  return out;
}

// Section - the adapters

const defaultReport = (text) => process.emitWarning(text, { code: 'EDITCORE_RECOVERED' });

/**
 * A file adapter over allowed directories (`roots`: their real absolute paths) for createHost and
 * runTool: stat, readFile, writeFile, delete, and commit (the write protocol, all or nothing).
 * `place(p)` maps an adapter path to {ri, rel} beneath a root, or throws ACCESS_DENIED.
 * Options: `fsync` (default true), `sync` (blocking calls: no thread-pool hop per call),
 * `onRecover(text)` (default: a process warning).
 */
export function beneathAdapter(roots, place, { fsync = true, sync = false, onRecover = defaultReport } = {}) {
  const io = sync ? syncIo : asyncIo;
  const rootsReal = Promise.all(roots.map(async (r) => ({ real: await r })));
  rootsReal.catch(() => {});
  const withBeneath = async (fn) => {
    const b = new Beneath(await rootsReal, io);
    try { return await fn(b); } finally { await b.close(); }
  };
  const locate = async (b, p) => { const at = place(p, b); return { ...at, shown: p }; };
  return {
    async stat(p) {
      return withBeneath(async (b) => {
        const at = await locate(b, p);
        let r = await b.resolve(at.ri, at.rel, p);
        // A stale lock beside it: what its killed owner left is finished before anyone looks.
        if (r.real && await settle(b, r.ri, r.dir, r.name, onRecover)) r = await b.resolve(at.ri, at.rel, p);
        if (!r.exists) return null;
        const s = r.st;
        const real = realOf(b, r);
        // `id`: the file itself (device and inode), so two names for one file are told apart from two files
        return { type: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size, mtime: s.mtimeMs, mode: s.mode,
          birthtime: s.birthtimeMs, atime: s.atimeMs, real, id: `${s.dev}:${s.ino}` };
      });
    },
    async readFile(p) {
      return withBeneath(async (b) => {
        const at = await locate(b, p);
        const r = await b.resolve(at.ri, at.rel, p);
        if (!r.exists) throw Object.assign(new Error(`ENOENT: no such file, open '${p}'`), { code: 'ENOENT' });
        await settle(b, r.ri, r.dir, r.name, onRecover);
        const bytes = await b.read(await b.dir(r.ri, r.dir), r.name);
        if (!bytes) throw Object.assign(new Error(`ENOENT: no such file, open '${p}'`), { code: 'ENOENT' });
        return bytes;
      });
    },
    async writeFile(p, data) {
      return withBeneath(async (b) => commitOps(b, [{ at: await locate(b, p), bytes: new Uint8Array(data), old: undefined }], { fsync, report: onRecover }));
    },
    async delete(p) {
      return withBeneath(async (b) => commitOps(b, [{ at: await locate(b, p), bytes: null, old: undefined }], { fsync, report: onRecover }));
    },
    /** [{path, bytes (null: delete), old (bytes read; null: was absent; undefined: read now)}], all or nothing. */
    async commit(ops) {
      return withBeneath(async (b) => {
        const list = [];
        for (const o of ops) list.push({ at: await locate(b, o.path), bytes: o.bytes === null ? null : new Uint8Array(o.bytes), old: o.old === undefined ? undefined : o.old === null ? null : new Uint8Array(o.old) });
        return commitAcross(b, list, { fsync, report: onRecover });
      });
    },
    /** mkdir -p beneath the root. */
    async mkdir(p) { return withBeneath(async (b) => mkdirOp(b, await locate(b, p))); },
    /** Renames, never over an existing path, under both names' locks. */
    async move(from, to) { return withBeneath(async (b) => moveOp(b, await locate(b, from), await locate(b, to), onRecover)); },
    /** A directory's entries: [{name, type, size?, mtime?, real? (a link's target)}]. */
    async list(p) { return withBeneath(async (b) => listOp(b, await locate(b, p))); },
  };
}

export { hostError };
