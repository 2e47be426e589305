// editcore-mcp answers or says why (issue 27 item 7), over real stdio: the server is a child
// process and the test writes raw lines to its stdin — the messages a buggy or hostile client
// sends, which the SDK's own transport drops in silence or dies on (a message over its 10 MiB
// buffer left it deaf, or exited it with status 0 and nothing on stderr).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const bin = join(dirname(fileURLToPath(import.meta.url)), '../bin/editcore-mcp.js');

/** The server as a child: send(lines), answer(id), and what it wrote to stderr and how it ended. */
function start(args, dir = realpathSync(mkdtempSync(join(tmpdir(), 'ec-stdio-')))) {
  const child = spawn(process.execPath, [bin, ...args, dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  const answers = [], waiting = [];
  let out = '', err = '';
  child.stdout.on('data', (d) => {
    out += d;
    let nl;
    while ((nl = out.indexOf('\n')) >= 0) {
      const msg = JSON.parse(out.slice(0, nl));
      out = out.slice(nl + 1);
      answers.push(msg);
      for (const w of [...waiting]) if (w.match(msg)) { waiting.splice(waiting.indexOf(w), 1); w.resolve(msg); }
    }
  });
  child.stderr.on('data', (d) => { err += d; });
  // 'close', not 'exit': it comes after the child's stdout and stderr are read to their end
  const exited = new Promise((res) => child.on('close', (code, signal) => res({ code, signal })));
  const s = {
    dir, child, answers, exited,
    get stderr() { return err; },
    send(...lines) { for (const l of lines) child.stdin.write((typeof l === 'string' ? l : JSON.stringify(l)) + '\n'); },
    /** The next answer matching `match` (already received or to come), or a rejection after `ms`. */
    answer(match, ms = 20000) {
      const f = typeof match === 'function' ? match : (m) => m.id === match;
      const done = answers.find(f);
      if (done) { answers.splice(answers.indexOf(done), 1); return Promise.resolve(done); }
      return new Promise((resolve, reject) => {
        const w = { match: f, resolve: (m) => { clearTimeout(t); answers.splice(answers.indexOf(m), 1); resolve(m); } };
        const t = setTimeout(() => { waiting.splice(waiting.indexOf(w), 1); reject(new Error(`no answer matching ${match} in ${ms} ms; stderr:\n${err}`)); }, ms);
        waiting.push(w);
      });
    },
    async initialize() {
      s.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      await s.answer('init');
      s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    },
    /** stderr once it matches `re`: stdout and stderr are two pipes, so a line the server wrote
     *  before an answer may be read after it. */
    async stderrMatching(re, ms = 5000) {
      for (const end = Date.now() + ms; !re.test(err) && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
      return err;
    },
    async alive(id) {
      s.send({ jsonrpc: '2.0', id, method: 'ping' });
      assert.deepEqual(await s.answer(id), { jsonrpc: '2.0', id, result: {} });
    },
    async stop() {
      child.stdin.end();
      const end = await exited;
      rmSync(dir, { recursive: true, force: true });
      return end;
    },
  };
  started.push(child);
  return s;
}

// a failed assertion must not leave a server running (the test process would wait for it)
const started = [];
after(() => { for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL'); });

const writeCall = (id, path, content) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'write_file', arguments: { path, content } } });

test('lines that are no JSON-RPC request get a JSON-RPC error, and the session goes on', async () => {
  const s = start([]);
  await s.initialize();
  const bare = ['{}', '[]', 'null', '5', '"x"', 'true', 'not json', '{"jsonrpc":"2.0"}', '[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    '{"jsonrpc":"1.0","id":"v1","method":"ping"}', '{"jsonrpc":"2.0","id":{},"method":"ping"}', '{"jsonrpc":"2.0","id":"m","method":5}'];
  for (const line of bare) s.send(line);
  const codes = [];
  for (const line of bare) {
    const a = await s.answer((m) => m.error && (m.id === null || m.id === 'v1' || m.id === 'm'));
    codes.push([line, a.error.code, a.id]);
    assert.ok(a.error.message.length > 10, `${line}: ${a.error.message}`);
  }
  assert.deepEqual(codes.map((c) => c[1]), [-32600, -32600, -32600, -32600, -32600, -32600, -32700, -32600, -32600, -32600, -32600, -32600]);
  assert.deepEqual(codes.map((c) => c[2]), [null, null, null, null, null, null, null, null, null, 'v1', null, 'm'], 'answered under the id when it has one');
  await s.alive('after');
  assert.equal((await s.stop()).code, 0);
});

test('tools/call whose params are not an object (null, 5, "x", []) gets -32602 under its id', async () => {
  const s = start([]);
  await s.initialize();
  const bad = [null, 5, 'x', [], true];
  bad.forEach((params, i) => s.send({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params }));
  for (let i = 0; i < bad.length; i++) {
    const a = await s.answer(i + 1);
    assert.equal(a.error?.code, -32602, JSON.stringify(a));
    assert.match(a.error.message, /params of tools\/call must be an object/);
  }
  // params of the wrong shape: no name, arguments not an object (the SDK would answer -32603 with a zod dump)
  s.send({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: {} }, { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'list_directory', arguments: [] } });
  const [noName, badArgs] = [await s.answer(10), await s.answer(11)];
  assert.deepEqual([noName.error?.code, badArgs.error?.code], [-32602, -32602]);
  assert.match(noName.error.message, /^Invalid params for tools\/call: .* at params\.name$/);
  assert.match(badArgs.error.message, /^Invalid params for tools\/call: .* at params\.arguments$/);
  s.send({ jsonrpc: '2.0', id: 12, method: 'no/such/method', params: {} });
  assert.equal((await s.answer(12)).error?.code, -32601);
  // an invalid notification cannot be answered: it is said on stderr, and nothing breaks
  s.send({ jsonrpc: '2.0', method: 'notifications/initialized', params: 5 });
  await s.alive('after');
  assert.match(await s.stderrMatching(/invalid notification was dropped/), /invalid notification was dropped/);
  await s.stop();
});

test('a message over the limit is refused under its id (-32600) and the session goes on; one at the limit is read', async () => {
  const limit = 65536;
  const s = start(['--max-message-bytes', String(limit)]);
  await s.initialize();
  // exactly `limit` bytes, then one more
  const sized = (id, n) => {
    const base = JSON.stringify(writeCall(id, 'f.txt', ''));
    return JSON.stringify(writeCall(id, 'f.txt', 'y'.repeat(n - base.length)));
  };
  assert.equal(Buffer.byteLength(sized(1, limit)), limit);
  s.send(sized(1, limit));
  assert.equal((await s.answer(1)).result?.content[0].text, 'Successfully wrote to f.txt');
  s.send(sized(2, limit + 1));
  const refused = await s.answer(2);
  assert.equal(refused.error?.code, -32600);
  assert.match(refused.error.message, new RegExp(`${limit + 1} bytes, over this server's limit of ${limit} bytes`));
  // a large one in many pieces, its id at the end (as the SDK's client writes it)
  s.send(JSON.stringify({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'write_file', arguments: { path: 'g.txt', content: 'z'.repeat(300000) } }, id: 'tail-id' }));
  assert.equal((await s.answer('tail-id')).error?.code, -32600);
  await s.alive('after');
  s.send(writeCall(3, 'small.txt', 'ok'));
  assert.equal((await s.answer(3)).result?.content[0].text, 'Successfully wrote to small.txt');
  assert.equal(readFileSync(join(s.dir, 'small.txt'), 'utf8'), 'ok');
  assert.match(await s.stderrMatching(/answered -32600 to request 2/), /answered -32600 to request 2/);
  await s.stop();
});

test('the default limit: a 12 MiB message (over the SDK\'s 10 MiB buffer) is read; 81 MiB is refused and the session goes on', async () => {
  const s = start([]);
  await s.initialize();
  const content = 'a'.repeat(12 * 2 ** 20);
  s.send(writeCall(1, 'big.txt', content));
  assert.equal((await s.answer(1, 60000)).result?.content[0].text, 'Successfully wrote to big.txt');
  assert.equal(readFileSync(join(s.dir, 'big.txt'), 'utf8').length, content.length);
  s.send(writeCall(2, 'huge.txt', 'b'.repeat(81 * 2 ** 20)));
  const a = await s.answer(2, 60000);
  assert.equal(a.error?.code, -32600);
  await s.alive('after');
  await s.stop();
});

test('nothing exits in silence: stdin closed, a signal, a bad option, no usable directory', async () => {
  const s = start([]);
  await s.initialize();
  assert.deepEqual(await s.stop(), { code: 0, signal: null });
  assert.match(s.stderr, /the client closed stdin/);
  assert.match(s.stderr, /exiting with status 0/);

  const t = start([]);
  await t.initialize();
  t.child.kill('SIGTERM');
  assert.deepEqual(await t.exited, { code: 0, signal: null });
  assert.match(t.stderr, /SIGTERM received; exiting with status 0/);

  const u = start(['--bogus']);
  assert.equal((await u.exited).code, 2);
  assert.match(u.stderr, /unknown option --bogus/);
  const v = start([], '/nonexistent/editcore-mcp-test');
  assert.equal((await v.exited).code, 1);
  assert.match(v.stderr, /None of the specified directories are accessible/);
});

test('calls sent together are answered one after the other: two edits of one file both land', async () => {
  const s = start([]);
  await s.initialize();
  s.send(writeCall('w', 'f.txt', 'a\nb\n'));
  await s.answer('w');
  const edit = (id, from, to) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'edit_file', arguments: { path: 'f.txt', edits: [{ oldText: from, newText: to }] } } });
  s.send(edit(1, 'a', 'A'), edit(2, 'b', 'B'));
  const [one, two] = [await s.answer(1), await s.answer(2)];
  assert.equal(one.result?.isError, undefined, JSON.stringify(one));
  assert.equal(two.result?.isError, undefined, JSON.stringify(two));
  assert.equal(readFileSync(join(s.dir, 'f.txt'), 'utf8'), 'A\nB\n');
  await s.stop();
});
