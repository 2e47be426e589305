#!/usr/bin/env node
// The real-history corpus (issue 30): every repository of bench/accuracy/sources.json fetched from
// what CI reaches — Debian's source packages with `apt-get source --download-only` (a private apt
// configuration for bookworm and trixie deb-src, so the machine's own is left alone), npm packages
// with `npm pack` — each file checked against bench/accuracy/sources.lock.json (SHA-256 for Debian
// files, npm's SHA-512 integrity for tarballs), then turned into file histories: one line per
// changed file, {source, lang, step, path, before, after}, in <cache>/pairs/<id>.jsonl.
//
//   node bench/accuracy/fetch.mjs [--cache bench/out/corpus] [--only id,id] [--npm-versions N] [--pin]
//
// --npm-versions N: only the first N versions of each npm package (the CI slice: fewer downloads).
// --pin: record the checksums of what was fetched in sources.lock.json (a new or changed pin); without
// it a file whose checksum differs from its pin stops the run. Nothing fetched is committed: the cache
// is bench/out/ (git-ignored), and a second run reuses it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const argv = process.argv.slice(2);
const opt = (k, d) => { const i = argv.indexOf(k); return i >= 0 ? argv[i + 1] : d; };
const CACHE = resolve(opt('--cache', join(root, 'bench/out/corpus')));
const ONLY = opt('--only', '') ? new Set(opt('--only', '').split(',')) : null;
const NPM_VERSIONS = Number(opt('--npm-versions', '0')) || Infinity;
const PIN = argv.includes('--pin');
const MAX_FILE = 300_000; // bytes: a larger file is generated or vendored code, not an edit target

const manifest = JSON.parse(readFileSync(join(here, 'sources.json'), 'utf8'));
const lockPath = join(here, 'sources.lock.json');
const lock = existsSync(lockPath) ? JSON.parse(readFileSync(lockPath, 'utf8')) : {};
const log = (s) => process.stderr.write(s + '\n');
const sha256 = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');
const sha512 = (p) => 'sha512-' + createHash('sha512').update(readFileSync(p)).digest('base64');
let pinsChanged = false;

function checkPin(key, got) {
  if (lock[key] === got) return;
  if (PIN) { lock[key] = got; pinsChanged = true; return; }
  throw new Error(lock[key] ? `${key}: checksum ${got} differs from the pinned ${lock[key]}` : `${key}: not pinned (run with --pin once)`);
}

// ---- apt: a private configuration (bookworm + trixie deb-src), lists under the cache --------------
const APT = join(CACHE, 'apt');
const aptOpts = () => ['-o', `Dir::Etc::SourceList=/dev/null`, '-o', `Dir::Etc::SourceParts=${join(APT, 'parts')}`,
  '-o', `Dir::State::Lists=${join(APT, 'lists')}`, '-o', `Dir::Cache=${join(APT, 'cache')}`, '-o', 'APT::Sandbox::User=root'];
function aptReady() {
  for (const d of ['parts', 'lists/partial', 'cache/archives/partial']) mkdirSync(join(APT, d), { recursive: true });
  const a = manifest.apt;
  writeFileSync(join(APT, 'parts', 'corpus.sources'),
    `Types: deb-src\nURIs: ${a.uri}\nSuites: ${a.suites.join(' ')}\nComponents: main\nSigned-By: ${a.signed_by}\n`);
  if (readdirSync(join(APT, 'lists')).some((f) => f.endsWith('_Sources') || f.includes('_Sources.'))) return;
  log('apt-get update (deb-src ' + a.suites.join(', ') + ', private lists)');
  execFileSync('apt-get', [...aptOpts(), 'update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
// The files of one source package version, downloaded (and checked) into <cache>/debian.
function debFiles(pkg, version, names) {
  const dir = join(CACHE, 'debian');
  mkdirSync(dir, { recursive: true });
  const missing = () => names.filter((n) => !existsSync(join(dir, n)));
  for (let attempt = 0; attempt < 2 && missing().length; attempt++) {
    aptReady();
    // the whole package is asked for; a file the mirror lacks (the .dsc of another suite) is no matter
    // as long as the ones named here arrive, and each is checked against its pin below
    spawnSync('apt-get', [...aptOpts(), 'source', '--download-only', '-qq', `${pkg}=${version}`], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  }
  if (missing().length) throw new Error(`apt-get source ${pkg}=${version} did not bring ${missing().join(', ')}`);
  for (const n of names) checkPin(`debian/${n}`, sha256(join(dir, n)));
  return names.map((n) => join(dir, n));
}

// ---- npm ---------------------------------------------------------------------------------------
// The tarballs of several versions of one package: one `npm pack` for all that are missing (each
// npm start costs seconds), each checked against its pin.
function npmTarballs(pkg, versions) {
  const dir = join(CACHE, 'npm');
  mkdirSync(dir, { recursive: true });
  const file = (v) => join(dir, `${pkg.replace(/^@/, '').replace('/', '-')}-${v}.tgz`);
  const missing = versions.filter((v) => !existsSync(file(v)));
  if (missing.length) execFileSync('npm', ['pack', ...missing.map((v) => `${pkg}@${v}`), '--json', '--pack-destination', dir, '--silent'], { encoding: 'utf8' });
  for (const v of versions) {
    if (!existsSync(file(v))) throw new Error(`npm pack ${pkg}@${v} wrote no ${file(v)}`);
    checkPin(`npm/${pkg}@${v}`, sha512(file(v)));
  }
  return versions.map(file);
}

// ---- trees -------------------------------------------------------------------------------------
function extract(tarball, into) {
  if (existsSync(join(into, '.done'))) return into;
  rmSync(into, { recursive: true, force: true });
  mkdirSync(into, { recursive: true });
  execFileSync('tar', ['-xf', tarball, '-C', into, '--strip-components=1', '--no-same-owner'], { stdio: ['ignore', 'ignore', 'inherit'] });
  writeFileSync(join(into, '.done'), '');
  return into;
}
function walk(dir, base = dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, base, out);
    else if (e.isFile()) out.push(relative(base, p));
  }
  return out;
}
const readText = (p) => {
  if (!existsSync(p) || statSync(p).size > MAX_FILE) return null;
  const t = readFileSync(p, 'utf8');
  return t.includes('\0') || t.includes('\uFFFD') ? null : t;
};
// Every file matching `include` changed between two trees (present in both).
function treePairs(src, step, a, b, out) {
  const inc = new RegExp(src.include);
  for (const rel of walk(a).filter((f) => inc.test(f)).sort()) {
    const before = readText(join(a, rel)), after = readText(join(b, rel));
    if (before !== null && after !== null && before !== after) out.push({ source: src.id, lang: src.lang, step, path: rel, before, after });
  }
}

// debian/patches applied one by one: the files each patch changes, before and after it.
function patchPairs(src, origTree, debTar, out) {
  const work = join(CACHE, 'trees', src.id, 'patched');
  rmSync(work, { recursive: true, force: true });
  execFileSync('cp', ['-a', origTree, work]);
  const deb = join(CACHE, 'trees', src.id, 'debian');
  rmSync(deb, { recursive: true, force: true });
  mkdirSync(deb, { recursive: true });
  execFileSync('tar', ['-xf', debTar, '-C', deb, '--no-same-owner']);
  const pdir = join(deb, 'debian', 'patches');
  const series = readFileSync(join(pdir, 'series'), 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim().split(/\s+/)[0]).filter(Boolean);
  const inc = new RegExp(src.include);
  for (const name of series) {
    const patch = readFileSync(join(pdir, name), 'utf8');
    const paths = [...patch.matchAll(/^\+\+\+ (\S+)/gm)].map((m) => m[1].split('/').slice(1).join('/')).filter((p) => inc.test(p));
    const before = new Map(paths.map((p) => [p, readText(join(work, p))]));
    const r = spawnSync('patch', ['-p1', '-s', '--batch', '-N', '-i', join(pdir, name)], { cwd: work, encoding: 'utf8' });
    if (r.status !== 0) { log(`  ${src.id}: ${name} does not apply (${(r.stdout + r.stderr).trim().split('\n')[0]}); the series stops here`); break; }
    for (const p of [...new Set(paths)]) {
      const b = before.get(p), a = readText(join(work, p));
      if (b && a && a !== b) out.push({ source: src.id, lang: src.lang, step: name, path: p, before: b, after: a });
    }
  }
}

function fetchSource(src) {
  const out = [];
  const trees = join(CACHE, 'trees', src.id);
  if (src.kind === 'npm') {
    const vs = src.versions.slice(0, Math.max(2, Math.min(NPM_VERSIONS, src.versions.length)));
    const tarballs = npmTarballs(src.package, vs);
    const dirs = vs.map((v, i) => extract(tarballs[i], join(trees, v)));
    for (let i = 0; i + 1 < vs.length; i++) treePairs(src, `${vs[i]}→${vs[i + 1]}`, dirs[i], dirs[i + 1], out);
  } else if (src.kind === 'debian-versions') {
    const [a] = debFiles(src.package, src.from.version, [src.from.orig]);
    const [b] = debFiles(src.package, src.to.version, [src.to.orig]);
    treePairs(src, `${src.from.version}→${src.to.version}`, extract(a, join(trees, src.from.version)), extract(b, join(trees, src.to.version)), out);
  } else if (src.kind === 'debian-patches') {
    const [orig, debTar] = debFiles(src.package, src.version, [src.orig, src.debian]);
    patchPairs(src, extract(orig, join(trees, 'orig')), debTar, out);
  } else throw new Error(`${src.id}: unknown kind ${src.kind}`);
  return out;
}

const t0 = Date.now();
mkdirSync(join(CACHE, 'pairs'), { recursive: true });
let failed = 0;
for (const src of manifest.sources) {
  if (ONLY && !ONLY.has(src.id)) continue;
  const ts = Date.now();
  try {
    const pairs = fetchSource(src);
    writeFileSync(join(CACHE, 'pairs', `${src.id}.jsonl`), pairs.map((p) => JSON.stringify(p)).join('\n') + (pairs.length ? '\n' : ''));
    log(`${src.id} (${src.lang}, ${src.kind}): ${pairs.length} changed files, ${Date.now() - ts} ms`);
  } catch (e) {
    failed++;
    log(`${src.id}: NOT FETCHED: ${e.message.split('\n')[0]}`);
  }
}
if (pinsChanged) writeFileSync(lockPath, JSON.stringify(Object.fromEntries(Object.entries(lock).sort()), null, 1) + '\n');
log(`fetch: ${failed ? `${failed} source(s) not fetched, ` : ''}${Date.now() - t0} ms -> ${join(CACHE, 'pairs')}`);
process.exit(failed ? 1 : 0);
