#!/usr/bin/env node
// editcore-mcp: an MCP stdio server over the directories given as arguments, a drop-in for
// @modelcontextprotocol/server-filesystem (its fourteen tools, same names, parameters, answers and
// errors; docs/tools.md lists where editcore is deliberately stricter) plus editcore's `Edit` and
// `apply_edit`. The tools are the core's (src/server.js); this file reads the command line, starts
// the server on stdio (src/transport.js) and makes sure it never exits without saying why.
//   editcore-mcp [--no-fsync] [--max-message-bytes N] DIR [DIR...]
import { readFileSync } from 'node:fs';
import { createServer, allowedDirectories } from '../src/server.js';
import { StdioTransport } from '../src/transport.js';

const log = (text) => process.stderr.write(`${text}\n`);
const usage = 'usage: editcore-mcp [--no-fsync] [--max-message-bytes N] DIR [DIR...]   (the directories the tools may read and write)';
// A message longer than this is refused with a JSON-RPC error: the engine's input ceiling
// (max_input_bytes, 64 MiB, docs/limits.md) plus room for JSON's escapes and the envelope.
const DEFAULT_MAX_MESSAGE = 80 * 2 ** 20;

let exiting = false;
process.on('exit', (code) => { if (!exiting) log(`editcore-mcp: exiting with status ${code}`); });
const quit = (code, why) => {
  log(`editcore-mcp: ${why}; exiting with status ${code}`);
  exiting = true;
  process.exit(code);
};
process.on('uncaughtException', (e) => quit(1, `fatal error: ${e?.stack ?? e}`));
process.on('unhandledRejection', (e) => quit(1, `fatal error (unhandled rejection): ${e?.stack ?? e}`));
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => quit(0, `${sig} received`));
process.stdout.on('error', (e) => quit(e.code === 'EPIPE' ? 0 : 1, `stdout failed (${e.code ?? e.message}): the client is gone`));

const args = process.argv.slice(2);
let fsync = true, maxMessageBytes = DEFAULT_MAX_MESSAGE;
const given = [];
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--no-fsync') fsync = false;
  else if (a === '--max-message-bytes' || a.startsWith('--max-message-bytes=')) {
    const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
    maxMessageBytes = Number(v);
    if (!Number.isSafeInteger(maxMessageBytes) || maxMessageBytes < 1024) quit(2, `--max-message-bytes takes a number of bytes (at least 1024), not ${v}\n${usage}`);
  } else if (a === '--help' || a === '-h') { process.stdout.write(`${usage}\n`); process.exit(0); }
  else if (a === '--version') { process.stdout.write(`${version()}\n`); process.exit(0); }
  else if (a.startsWith('--')) quit(2, `unknown option ${a}\n${usage}`);
  else given.push(a);
}

function version() {
  return JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
}

if (!given.length) log(`${usage}\neditcore-mcp: no directory given: waiting for the client's roots`);
const dirs = await allowedDirectories(given, log);
if (given.length && !dirs.length) quit(1, 'Error: None of the specified directories are accessible');
const { server } = await createServer(dirs, { version: version(), fsync, log });
const transport = new StdioTransport({ maxMessageBytes, log });
transport.onclose = () => log('editcore-mcp: the client closed stdin; exiting once the calls in progress are answered');
transport.onerror = (e) => log(`editcore-mcp: ${e?.message ?? e}`);
await server.connect(transport); // the SDK chains its handlers after ours
log(`editcore-mcp ${version()}: serving ${dirs.join(', ') || '(no directory yet)'}; messages up to ${maxMessageBytes} bytes`);
