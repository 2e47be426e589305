// Every encoding through every agent tool and every host (issue 27 items 1 and 8): a file that is
// not UTF-8 (Latin-1, Shift-JIS, GBK), UTF-16 LE/BE with a BOM, UTF-8 with a BOM, and `\r`-only
// line endings, edited, viewed and written whole by each tool through the native CLI
// (`editcore tool`), the WASI command under node:wasi, the Node host (runTool over nodeAdapter,
// createHost) and the MCP server (the SDK's Client over stdio). Each cell states what must happen:
// the exact bytes afterwards, a view that shows the file's text (or says plainly that it cannot),
// or a refusal that leaves the file byte-identical and says why (never "binary" for a file
// without NUL). Run alone it prints the table:
//   node test/encodings_matrix.mjs [--hosts cli,wasi,node,mcp]
// test/encodings.test.js asserts it.
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, realpathSync, existsSync, rmSync, openSync, closeSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const repo = fileURLToPath(new URL('../../', import.meta.url));
// (EDITCORE_CLI / EDITCORE_WASM: another build, e.g. build/asan/editcore)
export const paths = {
  cli: process.env.EDITCORE_CLI ?? join(repo, 'build/native/editcore'),
  wasm: process.env.EDITCORE_WASM ?? join(repo, 'build/wasi/editcore.wasm'),
  mcp: join(repo, 'mcp/bin/editcore-mcp.js'), // the editcore-mcp package; its SDK is in mcp/node_modules
};

// Section - the files: each encoding as a function of the lines after its first one

const latin1 = (s) => Buffer.from(s, 'latin1');
const cat = (...parts) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? latin1(p) : p)));
const utf16 = (s, be) => {
  const le = Buffer.from('\ufeff' + s, 'utf16le');
  if (be) for (let i = 0; i < le.length; i += 2) [le[i], le[i + 1]] = [le[i + 1], le[i]];
  return le;
};
const BOM8 = Buffer.from([0xef, 0xbb, 0xbf]);
const FIRST = 's = "é中"'; // the first line of the files that can hold it

// Each encoding: `make(lines)` is the file holding its own first line, then `lines` (ASCII, or
// any text where the encoding can hold it); `whole(text)` is a whole new content written to it;
// `view` is what a view of the file must show (a line of it), `wrong` what it must not.
const eightBit = (first, wrong) => ({
  kind: '8bit',
  make: (rest) => cat(first, '\n', rest.map((l) => l + '\n').join('')),
  wrong,
});
export const ENCODINGS = {
  // caf\xe9 = "na\xefve": bytes >= 0x80 followed by ASCII letters
  latin1: eightBit(latin1('caf\xe9 = "na\xefve"'), 'café'),
  // s = "表示" in Shift-JIS: 95 5C 8E A6 — its second byte is a backslash
  sjis: eightBit(cat('s = "', Buffer.from([0x95, 0x5c, 0x8e, 0xa6]), '"'), '表示'),
  // s = "中文丂" in GBK: D6 D0 CE C4, and 81 40 (second byte '@')
  gbk: eightBit(cat('s = "', Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x81, 0x40]), '"'), '中文'),
  // UTF-16 LE with CRLF endings, UTF-16 BE with LF
  utf16le: { kind: 'utf16', make: (rest) => utf16([FIRST, ...rest].map((l) => l + '\r\n').join('')), whole: (t, crlf) => utf16(crlf ? t.replace(/\n/g, '\r\n') : t), view: FIRST },
  utf16be: { kind: 'utf16', make: (rest) => utf16([FIRST, ...rest].map((l) => l + '\n').join(''), true), whole: (t) => utf16(t, true), view: FIRST },
  utf8bom: { kind: 'utf8', make: (rest) => cat(BOM8, Buffer.from([FIRST, ...rest].map((l) => l + '\n').join(''))), whole: (t) => cat(BOM8, Buffer.from(t)), view: FIRST },
  // a view splits it into lines (and shows no CR)
  cr: { kind: 'cr', make: (rest) => Buffer.from(['s = 0', ...rest].map((l) => l + '\r').join('')), whole: (t) => Buffer.from(t.replace(/\n/g, '\r')), view: /(^|\t)s = 0\n( +2\t)?def f\(\):\n/m },
};
const BEFORE = ['def f():', '    x = 1', '    return x'];
const REPLACED = ['def f():', '    x = 2', '    return x'];
const INSERTED = ['y = 0', 'def f():', '    x = 1', '    return x']; // after line 1
const NON_ASCII = ['def f():', "    x = 'é'", '    return x'];
const WHOLE = 'def f():\n    x = 9\n';
const NOT_UTF8 = /not UTF-8/;

// Section - the calls

// Each call: `tool` (the id runTool and `editcore tool` take; `mcp`: the MCP server's name for it,
// when it serves it), `args(f)` for the file's path f, and `expect(enc)`: {bytes} (the file
// afterwards), {refuse: RegExp} (unchanged, an error matching it), or {view: fn(text) -> problem}.
const edit = (after) => (e) => ({ bytes: e.make(after) });
const eightBitRefused = (after) => (e) => (e.kind === '8bit' ? { refuse: NOT_UTF8 } : { bytes: e.make(after) });
const whole = (crlfKept) => (e, enc) => (e.kind === '8bit' ? { refuse: NOT_UTF8 } : { bytes: e.whole(WHOLE, crlfKept && enc === 'utf16le') });
// The text a host answered, its JSON strings joined (a result the CLI prints as JSON, the MCP server as text).
function strings(text) {
  let v;
  try { v = JSON.parse(text); } catch { return text; }
  const out = [];
  (function walk(x) { if (typeof x === 'string') out.push(x); else if (x && typeof x === 'object') Object.values(x).forEach(walk); })(v);
  return out.join('\n');
}
function shows(e) {
  return {
    view: (answer) => {
      const text = strings(answer);
      if (e.kind === 'cr') return e.view.test(text) && !text.includes('\r') ? null : 'the view does not show the lines';
      if (e.kind !== '8bit') return text.includes(e.view) ? null : `the view lacks ${JSON.stringify(e.view)}`;
      if (text.includes(e.wrong)) return `the view shows ${JSON.stringify(e.wrong)}, a guess at the file's text`;
      if (!NOT_UTF8.test(text)) return 'the view does not say the file is not UTF-8';
      return text.includes('\ufffd') && text.includes('def f():') ? null : 'the view lacks the marked text';
    },
  };
}
// Inside a multibyte character: the second byte of Shift-JIS 95 5C is '\', of GBK 81 40 is '@'.
const INSIDE = { sjis: ['\\', '/'], gbk: ['@', '#'] };
const insideRefused = () => ({ refuse: NOT_UTF8 });

export const CALLS = [
  // edits of ASCII text: every encoding keeps every other byte
  { id: 'Edit', tool: 'Edit', mcp: 'Edit', args: (f) => ({ path: f, old_string: 'x = 1', new_string: 'x = 2' }), expect: edit(REPLACED) },
  { id: 'text_editor str_replace', tool: 'str_replace_based_edit_tool', args: (f) => ({ command: 'str_replace', path: f, old_str: 'x = 1', new_str: 'x = 2' }), expect: edit(REPLACED) },
  { id: 'text_editor insert', tool: 'str_replace_based_edit_tool', args: (f) => ({ command: 'insert', path: f, insert_line: 1, new_str: 'y = 0' }), expect: edit(INSERTED) },
  { id: 'str_replace_editor str_replace', tool: 'str_replace_editor', args: (f) => ({ command: 'str_replace', path: f, old_str: 'x = 1', new_str: 'x = 2' }), expect: edit(REPLACED) },
  { id: 'openhands str_replace', tool: 'openhands/str_replace_editor', args: (f) => ({ command: 'str_replace', path: f, old_str: 'x = 1', new_str: 'x = 2' }), expect: edit(REPLACED) },
  { id: 'openhands insert', tool: 'openhands/str_replace_editor', args: (f) => ({ command: 'insert', path: f, insert_line: 1, new_str: 'y = 0' }), expect: edit(INSERTED) },
  { id: 'gemini/replace', tool: 'gemini/replace', args: (f) => ({ file_path: f, instruction: 'x to 2', old_string: 'x = 1', new_string: 'x = 2' }), expect: edit(REPLACED) },
  { id: 'cline/replace_in_file', tool: 'cline/replace_in_file', args: (f) => ({ path: f, diff: '------- SEARCH\n    x = 1\n=======\n    x = 2\n+++++++ REPLACE\n' }), expect: edit(REPLACED) },
  { id: 'cline/editor', tool: 'cline/editor', args: (f) => ({ path: f, old_text: 'x = 1', new_text: 'x = 2' }), expect: edit(REPLACED) },
  { id: 'mcp/edit_file', tool: 'mcp/edit_file', mcp: 'edit_file', args: (f) => ({ path: f, edits: [{ oldText: 'x = 1', newText: 'x = 2' }] }), expect: edit(REPLACED) },
  // Codex reads files as UTF-8 and stops on one that is not (its profile reproduces that)
  { id: 'codex/apply_patch', tool: 'codex/apply_patch', args: (f) => ({ input: `*** Begin Patch\n*** Update File: ${f}\n@@\n-    x = 1\n+    x = 2\n     return x\n*** End Patch\n` }), expect: (e) => (e.kind === '8bit' ? { refuse: /invalid utf-8/ } : { bytes: e.make(REPLACED) }) },
  { id: 'openai/apply_patch', tool: 'openai/apply_patch', args: (f) => ({ type: 'update_file', path: f, diff: '@@\n-    x = 1\n+    x = 2\n     return x\n' }), expect: edit(REPLACED) },
  { id: 'lazy/edit_file', tool: 'lazy/edit_file', args: (f) => ({ target_file: f, instructions: 'x to 2', code_edit: '# ... existing code ...\ndef f():\n    x = 2\n    return x\n' }), expect: edit(REPLACED) },
  // new text that is not ASCII: written into every file that can hold it, refused in one that is not UTF-8
  { id: 'Edit, new text not ASCII', tool: 'Edit', mcp: 'Edit', args: (f) => ({ path: f, old_string: 'x = 1', new_string: "x = 'é'" }), expect: eightBitRefused(NON_ASCII) },
  { id: 'text_editor, new text not ASCII', tool: 'str_replace_based_edit_tool', args: (f) => ({ command: 'str_replace', path: f, old_str: 'x = 1', new_str: "x = 'é'" }), expect: eightBitRefused(NON_ASCII) },
  { id: 'gemini/replace, new text not ASCII', tool: 'gemini/replace', args: (f) => ({ file_path: f, instruction: 'x', old_string: 'x = 1', new_string: "x = 'é'" }), expect: eightBitRefused(NON_ASCII) },
  { id: 'mcp/edit_file, new text not ASCII', tool: 'mcp/edit_file', mcp: 'edit_file', args: (f) => ({ path: f, edits: [{ oldText: 'x = 1', newText: "x = 'é'" }] }), expect: eightBitRefused(NON_ASCII) },
  // an ASCII match inside a two-byte character (Shift-JIS, GBK): refused, whatever the tool
  ...[['Edit', 'Edit', (f, [o, n]) => ({ path: f, old_string: o, new_string: n })],
    ['str_replace_based_edit_tool', null, (f, [o, n]) => ({ command: 'str_replace', path: f, old_str: o, new_str: n })],
    ['gemini/replace', null, (f, [o, n]) => ({ file_path: f, instruction: 'x', old_string: o, new_string: n })],
    ['mcp/edit_file', 'edit_file', (f, [o, n]) => ({ path: f, edits: [{ oldText: o, newText: n }] })],
    ['cline/editor', null, (f, [o, n]) => ({ path: f, old_text: o, new_text: n })]]
    .map(([tool, mcp, args]) => ({ id: `${tool}, inside a character`, tool, mcp, only: Object.keys(INSIDE), args: (f, enc) => args(f, INSIDE[enc]), expect: insideRefused })),
  // views: the file's text, or a marked rendering that says it is not UTF-8
  { id: 'Read', tool: 'Read', args: (f) => ({ path: f }), expect: shows },
  { id: 'text_editor view', tool: 'str_replace_based_edit_tool', args: (f) => ({ command: 'view', path: f }), expect: shows },
  { id: 'mcp/read_text_file', tool: 'mcp/read_text_file', mcp: 'read_text_file', args: (f) => ({ path: f }), expect: shows },
  { id: 'mcp/read_file', tool: 'mcp/read_file', mcp: 'read_file', args: (f) => ({ path: f }), expect: shows },
  { id: 'mcp/read_multiple_files', tool: 'mcp/read_multiple_files', mcp: 'read_multiple_files', args: (f) => ({ paths: [f] }), expect: shows },
  // the bytes themselves, whatever the encoding (base64 in MCP's media result)
  { id: 'mcp/read_media_file', tool: 'mcp/read_media_file', mcp: 'read_media_file', args: (f) => ({ path: f }),
    expect: (e) => ({ view: (answer) => (strings(answer).includes(e.make(BEFORE).toString('base64')) ? null : "the answer lacks the file's bytes as base64") }) },
  // whole contents: the file's encoding, BOM and lone-CR endings kept; refused over a file that is not UTF-8
  { id: 'Write', tool: 'Write', args: (f) => ({ path: f, content: WHOLE }), expect: whole(true) },
  { id: 'mcp/write_file', tool: 'mcp/write_file', mcp: 'write_file', args: (f) => ({ path: f, content: WHOLE }), expect: whole(false) },
  { id: 'gemini/write_file', tool: 'gemini/write_file', args: (f) => ({ file_path: f, content: WHOLE }), expect: whole(false) },
  { id: 'cline/write_to_file', tool: 'cline/write_to_file', args: (f) => ({ path: f, content: WHOLE }), expect: whole(false) },
  { id: 'text_editor create', tool: 'str_replace_based_edit_tool', args: (f) => ({ command: 'create', path: f, file_text: WHOLE }), expect: whole(false) },
  // the engine's formats through the hosts' own edit paths (createHost, apply_edit, the CLI commands)
  { id: 'replace format (host)', host: 'replace', expect: edit(REPLACED) },
  { id: 'reply format (host)', host: 'reply', mcp: 'apply_edit', expect: edit(REPLACED) },
  // undo_edit puts back every byte (the history carries them)
  { id: 'str_replace_editor undo_edit', host: 'undo', expect: (e) => ({ bytes: e.make(BEFORE) }) },
];

const REPLY = (f) => `${f}\n\`\`\`\n<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n>>>>>>> REPLACE\n\`\`\`\n`;

// Section - the hosts: each runs one call on `dir` (f the file's path as the host names it) and
// answers {error: bool, text}

// The native CLI as a process; the WASI command under node:wasi in this process (compiled once,
// a fresh instance per call, the directory preopened as ".", as wasm/run-wasi.mjs --dir . does).
let wasiModule;
async function wasiExec(dir, args, input = '') {
  const { WASI } = await import('node:wasi');
  if (!wasiModule) {
    // As wasm/run-wasi.mjs: Node 20's V8 can crash in incremental marking while a WASI module
    // grows its memory (seen here as a SIGSEGV with the whole suite running in parallel).
    (await import('node:v8')).setFlagsFromString('--no-incremental-marking');
  }
  wasiModule ??= await WebAssembly.compile(readFileSync(paths.wasm));
  const io = mkdtempSync(join(tmpdir(), 'ec-enc-io-'));
  try {
    writeFileSync(join(io, 'in'), input);
    const fds = [openSync(join(io, 'in'), 'r'), openSync(join(io, 'out'), 'w'), openSync(join(io, 'err'), 'w')];
    const wasi = new WASI({ version: 'preview1', args: ['editcore', ...args], env: {}, preopens: { '.': dir }, returnOnExit: true, stdin: fds[0], stdout: fds[1], stderr: fds[2] });
    const status = wasi.start(await WebAssembly.instantiate(wasiModule, wasi.getImportObject()));
    fds.forEach((fd) => closeSync(fd));
    return { status, out: readFileSync(join(io, 'out')), err: readFileSync(join(io, 'err')) };
  } finally {
    rmSync(io, { recursive: true, force: true });
  }
}

function cliHost(kind) {
  const exec = async (dir, args, input) => {
    const r = kind === 'cli' ? spawnSync(paths.cli, args, { cwd: dir, input }) : await wasiExec(dir, args, input);
    const status = r.status, text = (r.stdout ?? r.out).toString('utf8') + (r.stderr ?? r.err).toString('utf8');
    if (status !== 0 && status !== 1) return { error: true, text: `exit ${status}: ${text}` };
    return { error: status === 1, text };
  };
  return {
    name: kind,
    available: () => existsSync(paths.cli) && (kind === 'cli' || existsSync(paths.wasm)),
    // node:wasi runs the command in its preopened ".": the MCP tools' absolute roots are not there
    serves: (call) => !(kind === 'wasi' && call.tool?.startsWith('mcp/')),
    async tool(dir, tool, args) { return exec(dir, ['tool', tool], JSON.stringify(args)); },
    async host(dir, what, f) {
      if (what === 'replace') return exec(dir, ['replace', f, '--old', 'x = 1', '--new', 'x = 2']);
      if (what === 'reply') return exec(dir, ['apply', '-'], REPLY(f));
      const st = ['--state', '.state.json'];
      const r = await exec(dir, ['tool', 'str_replace_editor', ...st], JSON.stringify({ command: 'str_replace', path: f, old_str: 'x = 1', new_str: 'x = 2' }));
      return r.error ? r : exec(dir, ['tool', 'str_replace_editor', ...st], JSON.stringify({ command: 'undo_edit', path: f }));
    },
  };
}

function nodeHost() {
  let mod;
  const load = async () => (mod ??= { ...(await import('../src/index.js')), ...(await import('../src/node.js')) });
  const run = async (dir, tool, args, state) => {
    const r = await mod.runTool(tool, args, { host: mod.nodeAdapter(dir), root: dir, roots: [dir], state });
    return { error: r.status === 'error', text: JSON.stringify(r.result), state: r.state };
  };
  return {
    name: 'node',
    available: () => true,
    serves: () => true,
    async tool(dir, tool, args) { await load(); return run(dir, tool, args); },
    async host(dir, what, f) {
      await load();
      if (what === 'undo') {
        const r = await run(dir, 'str_replace_editor', { command: 'str_replace', path: f, old_str: 'x = 1', new_str: 'x = 2' });
        return r.error ? r : run(dir, 'str_replace_editor', { command: 'undo_edit', path: f }, r.state);
      }
      const host = mod.createNodeHost(dir);
      const res = what === 'replace' ? await host.applyEdit({ format: 'replace', path: f, old_string: 'x = 1', new_string: 'x = 2' })
        : await host.applyReply(REPLY(f));
      return { error: res.status === 'error', text: JSON.stringify(res) };
    },
  };
}

function mcpHost() {
  let client;
  return {
    name: 'mcp',
    available: () => existsSync(paths.mcp) && existsSync(join(repo, 'mcp/node_modules/@modelcontextprotocol/sdk')),
    serves: (call) => !!call.mcp,
    async start(root) {
      const fromMcp = createRequire(join(repo, 'mcp/package.json'));
      const { Client } = await import(pathToFileURL(fromMcp.resolve('@modelcontextprotocol/sdk/client/index.js')));
      const { StdioClientTransport } = await import(pathToFileURL(fromMcp.resolve('@modelcontextprotocol/sdk/client/stdio.js')));
      client = new Client({ name: 'editcore-encodings', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [paths.mcp, root], stderr: 'ignore' }));
    },
    async tool(dir, tool, args) {
      const r = await client.callTool({ name: tool, arguments: args });
      return { error: r.isError === true, text: r.content.map((c) => c.text ?? c.data ?? c.resource?.blob).join('\n') };
    },
    async host(dir, what, f) {
      const r = await client.callTool({ name: 'apply_edit', arguments: { text: REPLY(f) } });
      return { error: r.isError === true, text: r.content.map((c) => c.text).join('\n') };
    },
    async stop() { await client?.close(); },
  };
}

export const HOSTS = { cli: cliHost('cli'), wasi: cliHost('wasi'), node: nodeHost(), mcp: mcpHost() };

// Section - the matrix

const hex = (b) => b.toString('hex').slice(0, 96);

function judge(want, before, after, res) {
  const same = Buffer.compare(before, after) === 0;
  const fffd = !before.includes(Buffer.from([0xef, 0xbf, 0xbd])) && after.includes(Buffer.from([0xef, 0xbf, 0xbd]));
  const what = () => (same ? (res.error ? `refused: ${res.text.slice(0, 200)}` : 'unchanged, no error')
    : `${fffd ? 'CORRUPTED (U+FFFD written)' : 'changed'}${res.error ? ' with an error' : ''}: ${hex(after)}`);
  if (want.bytes) {
    if (Buffer.compare(after, want.bytes) === 0 && !res.error) return { ok: true, got: 'exact' };
    return { ok: false, got: same || fffd ? what() : `WRONG BYTES${res.error ? ' with an error' : ''}: ${hex(after)} (want ${hex(want.bytes)})` };
  }
  if (want.refuse) {
    if (!same || !res.error) return { ok: false, got: what() };
    if (/BINARY_FILE|binary file|NUL bytes/i.test(res.text)) return { ok: false, got: `called binary: ${res.text.slice(0, 200)}` };
    return want.refuse.test(res.text) ? { ok: true, got: `refused: ${res.text.slice(0, 140)}` } : { ok: false, got: `refused, but not saying why: ${res.text.slice(0, 200)}` };
  }
  if (!same) return { ok: false, got: `a view changed the file: ${what()}` };
  if (res.error) return { ok: false, got: `the view failed: ${res.text.slice(0, 200)}` };
  const problem = want.view(res.text);
  return problem ? { ok: false, got: `${problem}: ${res.text.slice(0, 200)}` } : { ok: true, got: 'shown' };
}

/** Runs every (encoding, call) on each host; rows {host, enc, call, ok, got} (or {host, skipped}). */
export async function runMatrix(hostNames = Object.keys(HOSTS)) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ec-enc-')));
  const rows = [];
  try {
    for (const h of hostNames) {
      const host = HOSTS[h];
      if (!host.available()) { rows.push({ host: h, skipped: true }); continue; }
      const hostDir = join(base, h);
      mkdirSync(hostDir);
      await host.start?.(hostDir);
      try {
        let n = 0;
        for (const enc of Object.keys(ENCODINGS)) {
          for (const call of CALLS) {
            if (!host.serves(call) || (call.only && !call.only.includes(enc))) continue;
            const sub = `c${n++}`, dir = join(hostDir, sub);
            mkdirSync(dir);
            const e = ENCODINGS[enc];
            const before = e.make(BEFORE);
            writeFileSync(join(dir, 'f.txt'), before);
            const f = h === 'mcp' ? `${sub}/f.txt` : 'f.txt'; // the MCP server serves hostDir
            let res;
            try {
              res = call.host ? await host.host(dir, call.host, f)
                : await host.tool(dir, h === 'mcp' ? call.mcp : call.tool, call.args(f, enc));
            } catch (err) { res = { error: true, text: `threw: ${err.stack}` }; }
            const d = judge(call.expect(e, enc), before, readFileSync(join(dir, 'f.txt')), res);
            rows.push({ host: h, enc, call: call.id, ...d });
          }
        }
      } finally {
        await host.stop?.();
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return rows;
}

// Run alone (not when `node --test test/` picks this file up as one of its own: NODE_TEST_CONTEXT).
if (process.argv[1] === fileURLToPath(import.meta.url) && !process.env.NODE_TEST_CONTEXT) {
  const i = process.argv.indexOf('--hosts');
  const rows = await runMatrix(i > 0 ? process.argv[i + 1].split(',') : undefined);
  let bad = 0;
  for (const r of rows) {
    if (r.skipped) { console.log(`${r.host}: not available (build it first)`); continue; }
    if (!r.ok) bad++;
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.host.padEnd(5)} ${r.enc.padEnd(8)} ${r.call.padEnd(36)} ${r.got}`);
  }
  console.log(`${rows.filter((r) => !r.skipped).length - bad} as expected, ${bad} not`);
  process.exit(bad ? 1 : 0);
}
