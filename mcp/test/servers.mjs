// Running MCP servers the way a client does, for the tests: the SDK's own Client over
// StdioClientTransport, a fresh layout of allowed directories per case, and a normalised record
// of every answer and of the directories afterwards, so that two servers can be compared.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, readdirSync, lstatSync, readFileSync, readlinkSync, realpathSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The servers' commands: node and their entry, then the allowed directories. */
export const SERVERS = {
  reference: [join(pkg, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')],
  editcore: [join(pkg, 'bin/editcore-mcp.js')],
};

const FIXED_TIME = new Date('2024-03-05T06:07:08Z');

/** Lays out a case under a fresh folder $B; returns $B and the allowed directories. */
export function layout(c) {
  const B = realpathSync(mkdtempSync(join(tmpdir(), 'ec-dropin-')));
  const sub = (s) => s.replaceAll('$B', B);
  const roots = (c.roots ?? ['root']).map((r) => join(B, r));
  for (const r of [...roots, join(B, 'outside')]) mkdirSync(r, { recursive: true });
  for (const d of c.dirs ?? []) mkdirSync(join(B, d), { recursive: true });
  for (const [p, text] of Object.entries(c.files ?? {})) {
    mkdirSync(dirname(join(B, p)), { recursive: true });
    writeFileSync(join(B, p), text);
  }
  for (const [p, target] of Object.entries(c.links ?? {})) {
    mkdirSync(dirname(join(B, p)), { recursive: true });
    symlinkSync(sub(target), join(B, p));
  }
  // every modification time fixed, so get_file_info's "modified" compares exactly
  const touch = (dir) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (lstatSync(p).isSymbolicLink()) continue;
      if (lstatSync(p).isDirectory()) touch(p);
      utimesSync(p, FIXED_TIME, FIXED_TIME);
    }
  };
  touch(B);
  return { B, roots, sub };
}

/** Every path under dir: file contents, links' targets, directories, with $B for the folder. */
export function snapshot(dir, B, out = {}) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name), rel = p.slice(B.length + 1), st = lstatSync(p);
    if (st.isSymbolicLink()) out[rel] = { link: readlinkSync(p).replaceAll(B, '$B') };
    else if (st.isDirectory()) { out[rel + '/'] = true; snapshot(p, B, out); }
    else out[rel] = readFileSync(p, 'latin1');
  }
  return out;
}

/** An answer with the folder as $B, and the times that cannot agree (creation, last access) blanked. */
export function normalise(result, B) {
  return JSON.parse(JSON.stringify(result).replaceAll(B, '$B').replaceAll(encodeURI(B), '$B')
    .replace(/(created|accessed): [A-Z][a-z]{2} [^\\"]*?(?=\\n|")/g, '$1: <time>'));
}

/** Runs `c` on `server`: {answers: [{call, result}], after: snapshot}. */
export async function runCase(c, server) {
  const { B, roots, sub } = layout(c);
  const client = new Client({ name: 'editcore-dropin', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [...SERVERS[server], ...roots], stderr: 'ignore' });
  const answers = [];
  try {
    await client.connect(transport);
    await client.listTools();
    for (const [name, args] of c.calls) {
      const sent = JSON.parse(sub(JSON.stringify(args)));
      let result;
      try {
        result = await client.callTool({ name, arguments: sent });
      } catch (e) {
        result = { thrown: e.message };
      }
      answers.push({ call: [name, args], result: normalise(result, B) });
    }
  } finally {
    await client.close().catch(() => {});
  }
  const after = snapshot(B, B);
  rmSync(B, { recursive: true, force: true });
  return { answers, after };
}
