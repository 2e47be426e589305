#!/usr/bin/env node
// The write protocol across hosts (core/include/editcore_commit.h, docs/cli.md "Writes"), one
// scenario at a time, each asserting what every host must do: honour another host's lock while
// its owner lives, break it once the owner is provably dead (or, where the owner cannot be
// checked, once its heartbeat is older than 10 s), finish another host's journal, refuse what
// it cannot finish. Hosts: the native CLI, the WASI command under node:wasi, the Node host.
//
//   node tests/host/race/protocol.mjs          (about 20 s; part of scripts/test.sh)
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, existsSync, rmSync, utimesSync, mkdirSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builds, runCli, wasiRunner, mcpServer, sleep } from './lib.mjs';

const b = builds();
let passed = 0, failed = 0;
const check = (ok, what) => { if (ok) passed++; else { failed++; console.log(`FAIL ${what}`); } };
const waitFor = async (p, ms = 10000) => { for (let t = 0; t < ms / 10 && !existsSync(p); t++) await sleep(10); return existsSync(p); };
const debris = (dir) => readdirSync(dir).filter((n) => n.includes('editcore'));
const node = await import(new URL(`file://${b.nodeHost}`).href);
const wasi = existsSync(b.wasm) ? await wasiRunner(b.wasm) : null;
const aged = (p) => { const t = new Date(Date.now() - 60000); utimesSync(p, t, t); };
const fresh = () => {
  const root = mkdtempSync(join(tmpdir(), 'ec-protocol-'));
  writeFileSync(join(root, 'a.txt'), 'ALPHA = 0\n');
  writeFileSync(join(root, 'b.txt'), 'BETA = 0\n');
  return root;
};
const twoFilePatch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-ALPHA = 0\n+ALPHA = 1\n*** Update File: b.txt\n@@\n-BETA = 0\n+BETA = 1\n*** End Patch\n';

/** Starts the CLI holding its locks (EDITCORE_TEST_HOLD) on `args`; resolves once it holds them. */
async function cliHolding(root, args, extraEnv = {}) {
  const hold = join(root, '..', `${root.split('/').pop()}.hold`);
  const p = spawn(b.cli, [...args, '--root', root], { env: { ...process.env, EDITCORE_TEST_HOLD: hold, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d) => { out += d; });
  p.stderr.on('data', (d) => { out += d; });
  const done = new Promise((r) => p.on('exit', (code) => r({ code, out })));
  const ok = await waitFor(`${hold}.ready`);
  return { p, done, ok, go: () => writeFileSync(`${hold}.go`, ''), clean: () => { rmSync(`${hold}.ready`, { force: true }); rmSync(`${hold}.go`, { force: true }); } };
}

// 1. A live native lock: the Node host waits for it, then finds the file changed (CONFLICT), and
//    nothing is lost.
{
  const root = fresh();
  const cli = await cliHolding(root, ['replace', 'a.txt', '--old', 'ALPHA = 0', '--new', 'ALPHA = 1', '--quiet']);
  check(cli.ok, '1: the CLI reached its hold with its lock taken');
  const lock = readFileSync(join(root, '.a.txt.editcore.lock'), 'utf8');
  check(/"editcore_lock":1/.test(lock) && lock.includes(`"pid":${cli.p.pid}`) && lock.includes('"kind":"native"'), `1: the lock names its owner: ${lock}`);
  let nodeDone = false;
  const nodeEdit = node.createNodeHost(root).applyEdit({ format: 'replace', path: 'a.txt', old_string: 'ALPHA = 0', new_string: 'ALPHA = 2' })
    .then((r) => { nodeDone = true; return r; });
  await sleep(400);
  check(!nodeDone, '1: the Node host waits while the CLI holds the lock');
  cli.go();
  const [c, n] = [await cli.done, await nodeEdit];
  const text = readFileSync(join(root, 'a.txt'), 'utf8');
  check(c.code === 0 && text === 'ALPHA = 1\n', `1: the CLI's edit is written (${c.code}: ${c.out})`);
  check(n.error?.code === 'CONFLICT' && !n.data.applied, `1: the Node host read the old file and is refused: ${n.text}`);
  check(!debris(root).length, `1: nothing left: ${debris(root)}`);
  cli.clean();
  rmSync(root, { recursive: true, force: true });
}

// 1b. The MCP server's move_file (a write of the reference's tools) honours a live native lock on
//     its source: it waits, then moves the CLI's new content; nothing lost, nothing left.
{
  const root = fresh();
  const mcp = await mcpServer(b.mcp, [root]);
  const cli = await cliHolding(root, ['replace', 'a.txt', '--old', 'ALPHA = 0', '--new', 'ALPHA = 1', '--quiet']);
  check(cli.ok, '1b: the CLI reached its hold with its lock taken');
  let moved = false;
  const move = mcp.tool('move_file', { source: join(root, 'a.txt'), destination: join(root, 'c.txt') }).then((r) => { moved = true; return r; });
  await sleep(400);
  check(!moved && existsSync(join(root, 'a.txt')), '1b: move_file waits while the CLI holds the lock');
  cli.go();
  const [c, m] = [await cli.done, await move];
  check(c.code === 0 && !m.isError, `1b: both done (${c.code}: ${c.out}; ${mcp.text(m)})`);
  check(!existsSync(join(root, 'a.txt')) && readFileSync(join(root, 'c.txt'), 'utf8') === 'ALPHA = 1\n', '1b: the CLI\'s content moved');
  const made = await mcp.tool('create_directory', { path: join(root, 'd/e') });
  check(!made.isError && readdirSync(join(root, 'd')).join() === 'e', `1b: create_directory made d/e: ${mcp.text(made)}`);
  check(!debris(root).length, `1b: nothing left: ${debris(root)}`);
  mcp.kill();
  cli.clean();
  rmSync(root, { recursive: true, force: true });
}

// 2. A dead native owner (SIGKILL while holding): the Node host breaks its lock at once and
//    removes the file's dead temporaries.
{
  const root = fresh();
  const cli = await cliHolding(root, ['replace', 'a.txt', '--old', 'ALPHA = 0', '--new', 'ALPHA = 1', '--quiet']);
  cli.p.kill('SIGKILL');
  await cli.done;
  writeFileSync(join(root, '.a.txt.editcore-0badc0de.tmp'), 'half');
  check(existsSync(join(root, '.a.txt.editcore.lock')), '2: the killed CLI left its lock');
  const t0 = Date.now();
  const n = await node.createNodeHost(root).applyEdit({ format: 'replace', path: 'a.txt', old_string: 'ALPHA = 0', new_string: 'ALPHA = 2' });
  check(n.data?.applied && Date.now() - t0 < 5000, `2: the Node host broke the dead owner's lock without waiting (${Date.now() - t0} ms): ${n.text}`);
  check(readFileSync(join(root, 'a.txt'), 'utf8') === 'ALPHA = 2\n' && !debris(root).length, `2: written, nothing left: ${debris(root)}`);
  cli.clean();
  rmSync(root, { recursive: true, force: true });
}

// 3. The CLI killed between the renames of a two-file edit: a read by the Node host finishes the
//    set from the journal (both files new), and says so.
{
  const root = fresh();
  const p = spawn(b.cli, ['apply', '--quiet', '--format', 'codex_patch', '--root', root, '-'], { env: { ...process.env, EDITCORE_TEST_RENAME_GAP_MS: '5000' }, stdio: ['pipe', 'ignore', 'ignore'] });
  p.stdin.end(twoFilePatch);
  for (let t = 0; t < 1000 && readFileSync(join(root, 'a.txt'), 'utf8') !== 'ALPHA = 1\n'; t++) await sleep(10);
  p.kill('SIGKILL');
  await new Promise((r) => p.on('exit', r));
  check(readFileSync(join(root, 'a.txt'), 'utf8') === 'ALPHA = 1\n' && readFileSync(join(root, 'b.txt'), 'utf8') === 'BETA = 0\n', '3: the kill left a mixed set');
  check(debris(root).some((n) => n.endsWith('.journal')), `3: and its journal: ${debris(root)}`);
  const reports = [];
  const r = await node.runTool('Read', { path: 'b.txt' }, { host: node.nodeAdapter(root, { onRecover: (t) => reports.push(t) }) });
  check(JSON.stringify(r.result).includes('BETA = 1'), `3: the Node host's read sees the finished set: ${JSON.stringify(r.result).slice(0, 200)}`);
  check(readFileSync(join(root, 'b.txt'), 'utf8') === 'BETA = 1\n' && !debris(root).length, `3: both files new, nothing left: ${debris(root)}`);
  check(reports.length === 1 && /finished an edit of 2 files .* 1 already written, 1 written now/.test(reports[0]), `3: reported: ${reports}`);
  rmSync(root, { recursive: true, force: true });
}

// 4. The Node host killed between the renames: the CLI's next read (`editcore diff`) finishes it.
{
  const root = fresh();
  const child = `
import { createNodeHost } from ${JSON.stringify(new URL(`file://${b.nodeHost}`).href)};
await createNodeHost(process.argv[1]).applyEdit({ format: 'codex_patch', text: process.argv[2] });`;
  const p = spawn(process.execPath, ['--input-type=module', '-e', child, root, twoFilePatch], { env: { ...process.env, EDITCORE_TEST_RENAME_GAP_MS: '5000' }, stdio: 'ignore' });
  for (let t = 0; t < 1000 && readFileSync(join(root, 'a.txt'), 'utf8') !== 'ALPHA = 1\n'; t++) await sleep(10);
  p.kill('SIGKILL');
  await new Promise((r) => p.on('exit', r));
  check(readFileSync(join(root, 'b.txt'), 'utf8') === 'BETA = 0\n' && debris(root).some((n) => n.endsWith('.journal')), '4: the kill left a mixed set and its journal');
  const d = await runCli(b.cli, ['diff', 'a.txt', 'b.txt', '--root', root]);
  check(d.stdout.includes('+BETA = 1') && /editcore: finished an edit of 2 files/.test(d.stderr), `4: the CLI finished it before reading, and said so: ${d.stderr}`);
  check(!debris(root).length, `4: nothing left: ${debris(root)}`);
  rmSync(root, { recursive: true, force: true });
}

// 5. WASI (no pid it can check): a stale native lock is broken once its heartbeat is older than
//    10 s; a fresh one is waited for; a journal is finished like natively.
if (wasi) {
  const root = fresh();
  const cli = await cliHolding(root, ['replace', 'a.txt', '--old', 'ALPHA = 0', '--new', 'ALPHA = 1', '--quiet']);
  // a live (fresh) native lock: the WASI command waits, then gives up (a short wait for the test)
  let r = wasi.run(root, ['replace', 'a.txt', '--old', 'ALPHA = 0', '--new', 'ALPHA = 3'], '', { EDITCORE_LOCK_WAIT_MS: '600' });
  check(r.code === 1 && /CONFLICT.*being written by another editcore/.test(r.stderr), `5: WASI waits for a live lock, then refuses: ${r.stderr}`);
  cli.p.kill('SIGKILL');
  await cli.done;
  aged(join(root, '.a.txt.editcore.lock'));
  r = wasi.run(root, ['replace', 'a.txt', '--old', 'ALPHA = 0', '--new', 'ALPHA = 3']);
  check(r.code === 0 && readFileSync(join(root, 'a.txt'), 'utf8') === 'ALPHA = 3\n' && !debris(root).length, `5: WASI breaks a lock 60 s without heartbeat: ${r.code} ${r.stderr}`);
  cli.clean();
  // a journal left by a killed native run, its locks aged: WASI finishes it
  writeFileSync(join(root, 'a.txt'), 'ALPHA = 0\n');
  const p = spawn(b.cli, ['apply', '--quiet', '--format', 'codex_patch', '--root', root, '-'], { env: { ...process.env, EDITCORE_TEST_RENAME_GAP_MS: '5000' }, stdio: ['pipe', 'ignore', 'ignore'] });
  p.stdin.end(twoFilePatch);
  for (let t = 0; t < 1000 && readFileSync(join(root, 'a.txt'), 'utf8') !== 'ALPHA = 1\n'; t++) await sleep(10);
  p.kill('SIGKILL');
  await new Promise((x) => p.on('exit', x));
  for (const n of debris(root).filter((x) => x.endsWith('.lock'))) aged(join(root, n));
  r = wasi.run(root, ['diff', 'a.txt', 'b.txt']);
  check(r.stdout.includes('+BETA = 1') && /finished an edit of 2 files/.test(r.stderr) && !debris(root).length, `5: WASI finishes a native journal: ${r.stderr} ${debris(root)}`);
  rmSync(root, { recursive: true, force: true });
} else {
  console.log('NOT RUN: scenario 5 (no WASI build)');
}

// 6. What a run cannot finish it refuses: a journal above its root; a journal cut short is no
//    journal (the set stays old, the debris goes); a lock of an owner this host cannot check
//    (another machine) is waited for while its heartbeat is fresh.
{
  const top = fresh();
  mkdirSync(join(top, 'sub'));
  writeFileSync(join(top, 'sub/c.txt'), 'GAMMA = 0\n');
  const patch = '*** Begin Patch\n*** Update File: a.txt\n@@\n-ALPHA = 0\n+ALPHA = 1\n*** Update File: sub/c.txt\n@@\n-GAMMA = 0\n+GAMMA = 1\n*** End Patch\n';
  const p = spawn(b.cli, ['apply', '--quiet', '--format', 'codex_patch', '--root', top, '-'], { env: { ...process.env, EDITCORE_TEST_RENAME_GAP_MS: '5000' }, stdio: ['pipe', 'ignore', 'ignore'] });
  p.stdin.end(patch);
  for (let t = 0; t < 1000 && readFileSync(join(top, 'a.txt'), 'utf8') !== 'ALPHA = 1\n'; t++) await sleep(10);
  p.kill('SIGKILL');
  await new Promise((x) => p.on('exit', x));
  let r = await runCli(b.cli, ['replace', 'c.txt', '--old', 'GAMMA = 0', '--new', 'GAMMA = 2', '--root', join(top, 'sub')]);
  check(r.code === 1 && /journal .* is outside this root/.test(r.stderr) && readFileSync(join(top, 'sub/c.txt'), 'utf8') === 'GAMMA = 0\n',
    `6: a root below the journal refuses to write the file: ${r.stderr}`);
  r = await runCli(b.cli, ['diff', 'a.txt', 'sub/c.txt', '--root', top]);
  check(r.stdout.includes('+GAMMA = 1') && !debris(top).length && !debris(join(top, 'sub')).length, `6: the wider root finishes it: ${r.stderr}`);
  // a journal cut short, with its owner's stale locks and temporaries
  const rec = (txn, dir) => `{"editcore_lock":1,"txn":"${txn}","pid":0,"start":"","boot":"","pidns":"","host":"elsewhere","kind":"wasi","journal":"${dir}.editcore-${txn}.journal"}\n`;
  writeFileSync(join(top, 'b.txt'), 'BETA = 0\n');
  writeFileSync(join(top, '.editcore-00000000000000aa.journal'), '{"editcore_journal":1,"txn":"00000000000000aa","entries":[{"pa');
  writeFileSync(join(top, '.b.txt.editcore.lock'), rec('00000000000000aa', ''));
  writeFileSync(join(top, '.b.txt.editcore-00000000000000aa.tmp'), 'BETA = 9\n');
  aged(join(top, '.b.txt.editcore.lock'));
  r = await runCli(b.cli, ['replace', 'b.txt', '--old', 'BETA = 0', '--new', 'BETA = 1', '--quiet', '--root', top]);
  check(r.code === 0 && readFileSync(join(top, 'b.txt'), 'utf8') === 'BETA = 1\n' && !debris(top).length, `6: a journal cut short is dropped with its debris: ${r.stderr} ${debris(top)}`);
  // a fresh lock of an owner on another machine: waited for, then refused
  writeFileSync(join(top, '.b.txt.editcore.lock'), rec('00000000000000bb', ''));
  r = await runCli(b.cli, ['replace', 'b.txt', '--old', 'BETA = 1', '--new', 'BETA = 2', '--root', top], { env: { EDITCORE_LOCK_WAIT_MS: '500' } });
  check(r.code === 1 && /held by an editcore this process cannot check/.test(r.stderr), `6: a fresh foreign lock is honoured: ${r.stderr}`);
  process.env.EDITCORE_LOCK_WAIT_MS = '500';
  const n = await node.createNodeHost(top).applyEdit({ format: 'replace', path: 'b.txt', old_string: 'BETA = 1', new_string: 'BETA = 2' });
  delete process.env.EDITCORE_LOCK_WAIT_MS;
  check(n.error?.code === 'CONFLICT' && /cannot check/.test(n.error.message), `6: by the Node host too: ${n.text}`);
  rmSync(top, { recursive: true, force: true });
}

wasi?.close();
console.log(`protocol: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
