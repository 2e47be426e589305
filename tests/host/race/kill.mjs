#!/usr/bin/env node
// Harness (c) of issue 27 item 4: SIGKILL aimed at the renames of a multi-file apply. Twenty files
// of 1 MB under a root, one Codex patch changing the first and the last line of each; a host
// applies it and is killed at a random moment of its rename phase (found by watching the
// directory: the first rename onto a target starts it; a calibration run measures how long it
// lasts; the EDITCORE_TEST_RENAME_GAP_MS hook spaces the renames 5 ms apart where a host has it).
// Then the same host runs again (a dry run of the same patch: the "next run"), and the set is
// examined: every file old or every file new, or a mixed set; and what editcore left behind
// (temporaries, locks, journals).
//
//   node tests/host/race/kill.mjs [--runs N] [--hosts cli,node,mcp] [--report]
//
// Exit status 1 on a torn file, a mixed set after the next run, or debris after it (unless --report).
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync, readdirSync, watch, existsSync, realpathSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builds, runCli, mcpServer, sha256, sleep, table } from './lib.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : dflt; };
const RUNS = Number(opt('--runs', process.env.EDITCORE_LONG === '1' ? 200 : 4));
const HOSTS = opt('--hosts', 'cli,node,mcp').split(',');
const REPORT = argv.includes('--report');
const N = Number(opt('--files', 20)), MB = Number(opt('--mb', 1));
const GAP = opt('--gap', '5');
const b = builds(opt('--build', undefined));

const LINE = 'const value = compute(alpha, beta, gamma); // filler\n';
const body = LINE.repeat(Math.floor((MB * 1024 * 1024) / LINE.length));
const oldOf = (i) => `first line of file ${i}\n${body}last line of file ${i}\n`;
const newOf = (i) => `FIRST LINE OF FILE ${i} (new)\n${body}LAST LINE OF FILE ${i} (new)\n`;
const OLD = Array.from({ length: N }, (_, i) => sha256(oldOf(i)));
const NEW = Array.from({ length: N }, (_, i) => sha256(newOf(i)));
const patch = `*** Begin Patch\n${Array.from({ length: N }, (_, i) => `*** Update File: f${i}.txt\n@@\n-first line of file ${i}\n+FIRST LINE OF FILE ${i} (new)\n@@\n-last line of file ${i}\n+LAST LINE OF FILE ${i} (new)\n`).join('')}*** End Patch\n`;
const isTarget = (name) => /^f\d+\.txt$/.test(name ?? '');
const debris = (root) => readdirSync(root).filter((n) => n.includes('editcore'));

/** The state of the set: 'old', 'new', 'mixed' or 'torn' (a file neither old nor new). */
function state(root) {
  let o = 0, n = 0;
  for (let i = 0; i < N; i++) {
    const h = sha256(readFileSync(join(root, `f${i}.txt`)));
    if (h === OLD[i]) o++;
    else if (h === NEW[i]) n++;
    else return 'torn';
  }
  return o === N ? 'old' : n === N ? 'new' : 'mixed';
}

// Section - the hosts: start an apply (returning its process) and run the next run to its end

const NODE_CHILD = (dry) => `
import { createNodeHost } from ${JSON.stringify(new URL(`file://${b.nodeHost}`).href)};
import { readFileSync } from 'node:fs';
const res = await createNodeHost(process.argv[1]).applyEdit({ format: 'codex_patch', text: readFileSync(process.argv[2], 'utf8') }, { dry_run: ${dry} });
process.stdout.write((res.data?.applied ? 'applied' : res.status + ' ' + (res.error?.code ?? '')) + '\\n');`;

const hosts = {
  cli: {
    start: (root, patchFile, env) => spawn(b.cli, ['apply', '--quiet', '--root', root, patchFile], { env: { ...process.env, ...env }, stdio: 'ignore' }),
    next: (root, patchFile) => runCli(b.cli, ['apply', '--quiet', '--dry-run', '--root', root, patchFile]),
  },
  node: {
    start: (root, patchFile, env) => spawn(process.execPath, ['--input-type=module', '-e', NODE_CHILD(false), root, patchFile], { env: { ...process.env, ...env }, stdio: 'ignore' }),
    next: (root, patchFile) => new Promise((res) => {
      const p = spawn(process.execPath, ['--input-type=module', '-e', NODE_CHILD(true), root, patchFile], { stdio: 'ignore' });
      p.on('exit', res);
    }),
  },
  mcp: {
    // The server is the process killed: a fresh one per run, started before the clock.
    async prepare(root, env) { return mcpServer(b.mcp, [root], { env }); },
    start: (root, patchFile, env, server) => { server.tool('apply_edit', { text: readFileSync(patchFile, 'utf8') }); return server.proc; },
    async next(root, patchFile) {
      const s = await mcpServer(b.mcp, [root]);
      await s.tool('apply_edit', { text: readFileSync(patchFile, 'utf8'), dryRun: true });
      s.kill();
      await s.closed;
    },
  },
};

/** One apply; kill `killAt` ms after the first rename onto a target (null: let it finish). */
async function once(h, root, patchFile, killAt) {
  const env = { EDITCORE_TEST_RENAME_GAP_MS: GAP };
  const server = h.prepare ? await h.prepare(root, env) : null;
  let first = 0, timer = null;
  const t0 = Date.now();
  const p = h.start(root, patchFile, env, server);
  const exited = new Promise((r) => p.on('exit', r));
  const w = watch(root, (ev, name) => {
    if (first || !isTarget(name) || ev !== 'rename') return;
    first = Date.now();
    if (killAt !== null) timer = setTimeout(() => p.kill('SIGKILL'), killAt);
  });
  if (server) {
    // The server does not exit on its own: end it once the set is new (or it died).
    const poll = (async () => { while (!server.exited) { if (state(root) === 'new') { await sleep(20); server.kill(); break; } await sleep(5); } })();
    await Promise.race([exited, poll]);
  }
  await exited;
  clearTimeout(timer);
  w.close();
  return { span: first ? Date.now() - first : 0, total: Date.now() - t0 };
}

async function campaign(kind) {
  const h = hosts[kind];
  const base = realpathSync(mkdtempSync(join(tmpdir(), `ec-kill-${kind}-`)));
  const root = join(base, 'root');
  const patchFile = join(base, 'patch.txt');
  writeFileSync(patchFile, patch);
  const reset = () => {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root);
    for (let i = 0; i < N; i++) writeFileSync(join(root, `f${i}.txt`), oldOf(i));
  };
  // Calibration: how long the rename phase lasts when nothing stops it.
  reset();
  const cal = await once(h, root, patchFile, null);
  const calState = state(root);
  const c = { host: kind, runs: RUNS, 'rename phase ms': cal.span, 'killed: old': 0, 'killed: new': 0, 'killed: mixed': 0, torn: 0,
    'debris after kill': 0, 'next run: mixed': 0, 'next run: debris': 0 };
  if (calState !== 'new') { c.note = `the uninterrupted run left the set ${calState}`; return c; }
  for (let run = 0; run < RUNS; run++) {
    reset();
    await once(h, root, patchFile, Math.random() * Math.max(cal.span, 1) * 1.05);
    const s = state(root);
    if (s === 'torn') c.torn++;
    else c[`killed: ${s}`]++;
    if (debris(root).length) c['debris after kill']++;
    await h.next(root, patchFile);
    const after = state(root);
    if (after === 'torn') c.torn++;
    if (after === 'mixed') c['next run: mixed']++;
    if (debris(root).length) { c['next run: debris']++; c.example ??= debris(root).slice(0, 2).join(' '); }
  }
  rmSync(base, { recursive: true, force: true });
  return c;
}

const rows = [];
for (const kind of HOSTS) {
  if (kind === 'cli' && !existsSync(b.cli)) { rows.push({ host: kind, note: 'NOT RUN: no native build' }); continue; }
  if (kind === 'mcp' && !b.mcp) { rows.push({ host: kind, note: 'NOT RUN: no MCP server' }); continue; }
  rows.push(await campaign(kind));
}
console.log(`${N} files × ${MB} MB, renames ${GAP} ms apart where the host has the hook; SIGKILL at a random moment of the rename phase`);
console.log(table(rows, ['host', 'runs', 'rename phase ms', 'killed: old', 'killed: new', 'killed: mixed', 'torn', 'debris after kill', 'next run: mixed', 'next run: debris', 'example', 'note']));
const bad = rows.reduce((s, r) => s + (r.torn ?? 0) + (r['next run: mixed'] ?? 0) + (r['next run: debris'] ?? 0) + (r.note ? 1 : 0), 0);
console.log(bad ? `\nkill: ${bad} runs left a torn file, a mixed set or debris after the next run` : '\nkill: every set whole after the next run, nothing left behind');
process.exit(bad && !REPORT ? 1 : 0);
