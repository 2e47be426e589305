#!/usr/bin/env node
// Harness (a) of issue 27 item 2: two writers of one file at the same moment. Each pair resets the
// file, starts writer A (changes ALPHA) and writer B (changes BETA) a random 0-3 ms apart, and then
// looks at the file: a writer that said it applied its change while the change is not in the file
// is a lost update. A writer that failed because its temporary vanished (another writer's
// stale-temporary cleanup removed it) is counted apart. A writer may refuse (CONFLICT: the file
// changed under it): that is not a loss.
//
//   node tests/host/race/writers.mjs [--pairs N] [--only NAME,...] [--report]
//
// Pairs: cli×cli, cli×cli with --expect-hash, cli×node, cli×node with expected_hash, node×node
// (two edits in one process), node×mcp (the Node host against the MCP server's edit_file),
// node20×cli (the Node host applying a 20-file patch while the CLI edits one of the 20).
// Then `inplace`: a change made in place between the read and the write that keeps the file's
// size and mtime must still be caught by --expect-hash / expected_hash (CLI and Node host, through
// the EDITCORE_TEST_PAUSE hook). Exit status 1 when anything was lost (unless --report).
import { mkdtempSync, writeFileSync, readFileSync, rmSync, existsSync, openSync, writeSync, closeSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builds, runCli, nodeWorker, mcpServer, sha256, sleep, table } from './lib.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const PAIRS = Number(opt('--pairs', process.env.EDITCORE_LONG === '1' ? 1000 : 20));
const ONLY = opt('--only', null)?.split(',');
const REPORT = argv.includes('--report');
const b = builds(opt('--build', undefined));

const PAD = Array.from({ length: 400 }, (_, i) => `line ${i} = compute(${i}) # padding so a read takes a moment`).join('\n');
const ORIGINAL = `ALPHA = 0\nBETA = 0\n${PAD}\n`;

// Section - one writer of each host

const cliWriter = (which, { hash } = {}) => async (root) => {
  const [from, to] = which === 'A' ? ['ALPHA = 0', 'ALPHA = 1'] : ['BETA = 0', 'BETA = 1'];
  const args = ['replace', 'f.txt', '--old', from, '--new', to, '--quiet', '--root', root];
  if (hash) args.push('--expect-hash', `sha256:${sha256(ORIGINAL)}`);
  const r = await runCli(b.cli, args);
  return { applied: r.code === 0, why: r.code === 0 ? '' : (r.stderr + r.stdout).trim().split('\n')[0] };
};

let node = null, mcp = null;
const NODE_BODY = `
  if (cmd.op === 'replace') {
    const h = host.createNodeHost(cmd.root);
    const res = await h.applyEdit({ format: 'replace', path: cmd.path, old_string: cmd.from, new_string: cmd.to }, cmd.options ?? {});
    return { applied: res.data?.applied === true, why: res.error ? res.error.code + ': ' + res.error.message : '' };
  }
  if (cmd.op === 'patch') {
    const res = await host.createNodeHost(cmd.root).applyEdit({ format: 'codex_patch', text: cmd.text });
    return { applied: res.data?.applied === true, why: res.error ? res.error.code + ': ' + res.error.message : '' };
  }`;
const nodeWriter = (which, { hash } = {}) => async (root) => {
  const [from, to] = which === 'A' ? ['ALPHA = 0', 'ALPHA = 1'] : ['BETA = 0', 'BETA = 1'];
  const options = hash ? { expected_hash: { 'f.txt': sha256(ORIGINAL) } } : {};
  const a = await node.call({ op: 'replace', root, path: 'f.txt', from, to, options });
  return a.out ?? { applied: false, why: JSON.stringify(a) };
};
const mcpWriter = (which) => async (root) => {
  const [from, to] = which === 'A' ? ['ALPHA = 0', 'ALPHA = 1'] : ['BETA = 0', 'BETA = 1'];
  const r = await mcp.tool('edit_file', { path: join(root, 'f.txt'), edits: [{ oldText: from, newText: to }] });
  return { applied: !r.isError && !r.exited, why: r.isError ? mcp.text(r).split('\n')[0] : '' };
};

// Section - the pairs

const vanished = (why) => /NOT_FOUND|ENOENT|no such file/i.test(why) && !/CONFLICT/.test(why);

async function pairs(name, A, B, n, { setup, check } = {}) {
  const c = { pair: name, runs: n, 'A applied': 0, 'B applied': 0, both: 0, refused: 0, lost: 0, 'temp removed': 0, other: 0 };
  const base = mkdtempSync(join(tmpdir(), `ec-writers-${name.replace(/\W/g, '')}-`));
  let example = '';
  for (let i = 0; i < n; i++) {
    const root = join(base, String(i));
    mkdirSync(root);
    (setup ?? ((r) => writeFileSync(join(r, 'f.txt'), ORIGINAL)))(root);
    const offset = Math.random() * 3;
    const first = Math.random() < 0.5;
    const pa = first ? A(root) : sleep(offset).then(() => A(root));
    const pb = first ? sleep(offset).then(() => B(root)) : B(root);
    const [ra, rb] = await Promise.all([pa, pb]);
    const lost = (check ?? ((r, wa, wb) => {
      const text = readFileSync(join(r, 'f.txt'), 'utf8');
      return (wa.applied && !text.includes('ALPHA = 1') ? 1 : 0) + (wb.applied && !text.includes('BETA = 1') ? 1 : 0);
    }))(root, ra, rb);
    c['A applied'] += ra.applied; c['B applied'] += rb.applied; c.both += ra.applied && rb.applied;
    c.lost += lost;
    for (const r of [ra, rb]) {
      if (r.applied) continue;
      if (vanished(r.why)) c['temp removed']++;
      else if (/CONFLICT|changed on disk|appeared on disk|stayed locked/.test(r.why)) c.refused++;
      else { c.other++; if (!example) example = r.why; }
    }
    rmSync(root, { recursive: true, force: true });
  }
  rmSync(base, { recursive: true, force: true });
  if (example) c.example = example.slice(0, 120);
  return c;
}

// The 20-file patch of the Node host against the CLI editing file 7 of the 20.
const TWENTY = 20;
const twentySetup = (root) => {
  for (let i = 0; i < TWENTY; i++) writeFileSync(join(root, `f${i}.txt`), `MARK ${i} old\nOTHER = 0\n${PAD}\n`);
};
const twentyPatch = `*** Begin Patch\n${Array.from({ length: TWENTY }, (_, i) => `*** Update File: f${i}.txt\n@@\n-MARK ${i} old\n+MARK ${i} new\n`).join('')}*** End Patch\n`;
const node20 = async (root) => (await node.call({ op: 'patch', root, text: twentyPatch })).out;
const cliOn7 = async (root) => {
  const r = await runCli(b.cli, ['replace', 'f7.txt', '--old', 'OTHER = 0', '--new', 'OTHER = 1', '--quiet', '--root', root]);
  return { applied: r.code === 0, why: r.code === 0 ? '' : (r.stderr + r.stdout).trim() };
};
const twentyCheck = (root, wa, wb) => {
  const t = readFileSync(join(root, 'f7.txt'), 'utf8');
  return (wa.applied && !t.includes('MARK 7 new') ? 1 : 0) + (wb.applied && !t.includes('OTHER = 1') ? 1 : 0);
};

// Section - an in-place change that keeps size and mtime

async function inplace(n) {
  const rows = [];
  for (const host of ['cli', 'node']) {
    const c = { host, runs: n, caught: 0, missed: 0, 'no hook': 0 };
    for (let i = 0; i < n; i++) {
      const root = mkdtempSync(join(tmpdir(), 'ec-inplace-'));
      const f = join(root, 'f.txt');
      writeFileSync(f, ORIGINAL);
      const ref = join(root, '..', `${root.split('/').pop()}.ref`);
      spawnSync('touch', ['-r', f, ref]);
      const pause = join(root, '..', `${root.split('/').pop()}.pause`);
      const env = { EDITCORE_TEST_PAUSE: pause };
      let done;
      if (host === 'cli') {
        done = runCli(b.cli, ['replace', 'f.txt', '--old', 'BETA = 0', '--new', 'BETA = 1', '--quiet', '--root', root,
          '--expect-hash', `sha256:${sha256(ORIGINAL)}`], { env }).then((r) => ({ applied: r.code === 0 }));
      } else {
        const w = nodeWorker(b.nodeHost, NODE_BODY, { env });
        await w.ready;
        done = w.call({ op: 'replace', root, path: 'f.txt', from: 'BETA = 0', to: 'BETA = 1', options: { expected_hash: { 'f.txt': sha256(ORIGINAL) } } })
          .then((a) => { w.kill(); return a.out; });
      }
      let t = 0;
      while (!existsSync(`${pause}.ready`) && t++ < 300) await sleep(10);
      if (!existsSync(`${pause}.ready`)) {
        c['no hook']++;
      } else {
        const fd = openSync(f, 'r+');
        writeSync(fd, 'ALPHA = 9', 0); // same size, in place (same inode)
        closeSync(fd);
        spawnSync('touch', ['-r', ref, f]); // and the old mtime back
      }
      writeFileSync(`${pause}.go`, '');
      const r = await done;
      const text = readFileSync(f, 'utf8');
      if (existsSync(`${pause}.ready`)) {
        if (!r.applied && text.startsWith('ALPHA = 9')) c.caught++;
        else c.missed++;
      }
      for (const p of [ref, `${pause}.ready`, `${pause}.go`]) rmSync(p, { force: true });
      rmSync(root, { recursive: true, force: true });
    }
    rows.push(c);
  }
  return rows;
}

// Section - main

const want = (name) => !ONLY || ONLY.includes(name);
const rows = [];
if (!existsSync(b.cli)) { console.error(`no native CLI at ${b.cli}`); process.exit(2); }
node = nodeWorker(b.nodeHost, NODE_BODY);
await node.ready;
if (b.mcp && (want('node×mcp'))) {
  mcp = await mcpServer(b.mcp, [tmpdir()]);
}
if (want('cli×cli')) rows.push(await pairs('cli×cli', cliWriter('A'), cliWriter('B'), PAIRS));
if (want('cli×cli-hash')) rows.push(await pairs('cli×cli-hash', cliWriter('A', { hash: true }), cliWriter('B', { hash: true }), PAIRS));
if (want('cli×node')) rows.push(await pairs('cli×node', cliWriter('A'), nodeWriter('B'), PAIRS));
if (want('cli×node-hash')) rows.push(await pairs('cli×node-hash', cliWriter('A', { hash: true }), nodeWriter('B', { hash: true }), PAIRS));
if (want('node×node')) rows.push(await pairs('node×node', nodeWriter('A'), nodeWriter('B'), PAIRS));
if (mcp) rows.push(await pairs('node×mcp', nodeWriter('A'), mcpWriter('B'), PAIRS));
else if (want('node×mcp')) rows.push({ pair: 'node×mcp', runs: 0, example: 'NOT RUN: no MCP server found' });
if (want('node20×cli')) rows.push(await pairs('node20×cli', node20, cliOn7, Math.max(10, Math.floor(PAIRS / 5)), { setup: twentySetup, check: twentyCheck }));
node.kill();
mcp?.kill();
console.log(table(rows, ['pair', 'runs', 'A applied', 'B applied', 'both', 'refused', 'lost', 'temp removed', 'other', 'example']));
let inRows = [];
if (want('inplace')) {
  inRows = await inplace(process.env.EDITCORE_LONG === '1' ? 20 : 3);
  console.log('\nin-place change keeping size and mtime, between the read and the write, with the expected hash given:');
  console.log(table(inRows, ['host', 'runs', 'caught', 'missed', 'no hook']));
}
const bad = rows.reduce((s, r) => s + (r.lost ?? 0) + (r['temp removed'] ?? 0), 0) + inRows.reduce((s, r) => s + r.missed, 0);
console.log(bad ? `\nwriters: ${bad} lost or broken` : '\nwriters: nothing lost');
process.exit(bad && !REPORT ? 1 : 0);
