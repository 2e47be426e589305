// Shared pieces of the race and kill harnesses (tests/host/race/*.mjs): where the builds are, and
// one way to drive each host — the native CLI (a process per call), the WASI command under
// node:wasi (an instance per call, in this process or a child), the Node host (a long-lived child
// taking commands on stdin) and the MCP server (a long-lived child spoken to in JSON-RPC).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, openSync, closeSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The builds the harnesses drive (any may be missing: callers say which they need). */
export function builds(buildDir = join(repo, 'build/native')) {
  const mcp = join(repo, 'mcp/bin/editcore-mcp.js'); // needs `npm ci` in mcp/
  return {
    cli: join(buildDir, 'editcore'),
    swap: join(buildDir, 'tests/swap_driver'),
    wasm: join(dirname(buildDir), 'wasi/editcore.wasm'),
    nodeHost: join(repo, 'js/src/node.js'),
    mcp: existsSync(mcp) ? mcp : null,
  };
}

/** Runs the native CLI; resolves {code, stdout, stderr}. */
export function runCli(bin, args, { cwd, env, input } = {}) {
  return new Promise((res) => {
    const p = spawn(bin, args, { cwd, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '', err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('close', (code, signal) => res({ code: code ?? signal, stdout: out, stderr: err }));
    p.stdin.on('error', () => {}); // a command that exits before reading its stdin
    p.stdin.end(input ?? '');
  });
}

/**
 * The WASI command under node:wasi, one instance per call in this process (synchronous: the
 * module runs to its end). `dir` is preopened as "." as `wasmtime run --dir DIR` would.
 */
export async function wasiRunner(wasmPath) {
  const { WASI } = await import('node:wasi');
  const { setFlagsFromString } = await import('node:v8');
  process.removeAllListeners('warning');
  // As wasm/run-wasi.mjs: Node 20's V8 can crash in incremental marking while instances grow
  // their memories (seen here as a segfault after some hundred instances).
  setFlagsFromString('--no-incremental-marking');
  const module = await WebAssembly.compile(readFileSync(wasmPath));
  const scratch = mkdtempSync(join(tmpdir(), 'ec-wasi-io-'));
  let n = 0;
  return {
    run(dir, args, input = '', env = {}) {
      const base = join(scratch, String(n++ % 4));
      writeFileSync(`${base}.in`, input);
      const fds = [openSync(`${base}.in`, 'r'), openSync(`${base}.out`, 'w'), openSync(`${base}.err`, 'w')];
      let code;
      try {
        const wasi = new WASI({ version: 'preview1', args: ['editcore', ...args], env, preopens: { '.': dir }, returnOnExit: true,
          stdin: fds[0], stdout: fds[1], stderr: fds[2] });
        const instance = new WebAssembly.Instance(module, wasi.getImportObject());
        code = wasi.start(instance);
      } catch (e) {
        code = `trap: ${e.message}`;
      } finally {
        for (const fd of fds) closeSync(fd);
      }
      return { code, stdout: readFileSync(`${base}.out`, 'utf8'), stderr: readFileSync(`${base}.err`, 'utf8') };
    },
    close() { rmSync(scratch, { recursive: true, force: true }); },
  };
}

/**
 * A long-lived child running `body` (an async function of one parsed command line, with
 * `host`, the editcore/node module, in scope) for each JSON line it reads; it answers one JSON
 * line per command. Commands may overlap (each runs as it arrives).
 */
export function nodeWorker(nodeHostPath, body, { env } = {}) {
  const src = `
import * as host from ${JSON.stringify(new URL(`file://${nodeHostPath}`).href)};
import { createInterface } from 'node:readline';
const handle = async (cmd) => { ${body} };
await host.init?.();
process.stdout.write('ready\\n');
createInterface({ input: process.stdin }).on('line', async (line) => {
  const cmd = JSON.parse(line);
  let out;
  try { out = await handle(cmd); } catch (e) { out = { thrown: String(e?.stack ?? e) }; }
  process.stdout.write(JSON.stringify({ id: cmd.id, out }) + '\\n');
});`;
  const p = spawn(process.execPath, ['--input-type=module', '-e', src], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  return lineChild(p, 'ready');
}

/** JSON lines over a child's stdio: call(obj) resolves with the answer carrying the same id. */
function lineChild(p, readyLine) {
  const waiting = new Map();
  let buf = '', id = 0, ready, exited = false;
  const readyP = new Promise((r) => { ready = r; });
  p.stdout.on('data', (d) => {
    buf += d;
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (readyLine && line === readyLine) { ready(); continue; }
      let msg;
      try { msg = JSON.parse(line); } catch { continue; }
      if (msg.id !== undefined && waiting.has(msg.id)) { waiting.get(msg.id)(msg); waiting.delete(msg.id); }
    }
  });
  p.on('exit', () => { exited = true; for (const w of waiting.values()) w({ exited: true }); waiting.clear(); ready(); });
  return {
    proc: p,
    ready: readyP,
    get exited() { return exited; },
    send(obj) { const my = ++id; p.stdin.write(JSON.stringify({ ...obj, id: my }) + '\n'); return my; },
    call(obj) {
      if (exited) return Promise.resolve({ exited: true });
      const my = ++id;
      const answer = new Promise((r) => waiting.set(my, r));
      p.stdin.write(JSON.stringify({ ...obj, id: my }) + '\n');
      return answer;
    },
    kill(sig = 'SIGTERM') { try { p.kill(sig); } catch {} },
  };
}

/** The MCP server over stdio, initialised: tool(name, args) resolves with the CallToolResult. */
export async function mcpServer(bin, dirs, { env } = {}) {
  const p = spawn(process.execPath, [bin, ...dirs], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  p.stderr.on('data', () => {});
  const c = lineChild(p, null);
  const rpc = async (method, params) => {
    const a = await c.call({ jsonrpc: '2.0', method, params });
    return a;
  };
  const init = await rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'race-harness', version: '1' } });
  if (!init.result) throw new Error(`MCP initialize failed: ${JSON.stringify(init)}`);
  p.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return {
    proc: p,
    get exited() { return c.exited; },
    async tool(name, args) {
      const a = await rpc('tools/call', { name, arguments: args });
      if (a.exited) return { exited: true };
      if (a.error) return { isError: true, content: [{ type: 'text', text: `rpc error ${a.error.code}: ${a.error.message}` }] };
      return a.result;
    },
    text: (r) => (r?.content ?? []).map((x) => x.text).join('\n'),
    kill(sig = 'SIGTERM') { try { p.kill(sig); } catch {} },
    closed: new Promise((r) => p.on('exit', r)),
  };
}

/** Builds a tiny C helper when the native build lacks it (older trees): cc is on every CI machine. */
export function ensureSwapDriver(b) {
  if (existsSync(b.swap)) return b.swap;
  const out = join(tmpdir(), `ec_swap_driver_${process.pid}`);
  const r = spawnSync('cc', ['-O2', '-o', out, join(repo, 'tests/unit/swap_driver.c')], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('could not build swap_driver');
  return out;
}

/** Counts and a fixed-width table line. */
export function table(rows, cols) {
  const w = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals) => `| ${vals.map((v, i) => String(v).padEnd(w[i])).join(' | ')} |`;
  return [line(cols), `|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`, ...rows.map((r) => line(cols.map((c) => r[c] ?? '')))].join('\n');
}
