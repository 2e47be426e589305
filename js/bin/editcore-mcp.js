#!/usr/bin/env node
// editcore-mcp: an MCP stdio server over the allowed directories given as arguments
// (`npx editcore-mcp DIR...`), a drop-in for @modelcontextprotocol/server-filesystem's editing tools
// — read_text_file (and its old name read_file), write_file, edit_file, list_allowed_directories —
// with the same names, parameters and result shapes, plus editcore's own `Edit` (SPEC §8.1) and
// `apply_edit` (a model's reply in any dialect). Every tool's behaviour is the core's (runTool);
// this file declares the tools to the SDK; src/node.js resolves paths and writes.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { promises as fs } from 'node:fs';
import { resolve } from 'node:path';
import { runTool, toolDefinitions, createHost } from '../src/index.js';
import { nodeAdapter, allowedAdapter } from '../src/node.js';

// --no-fsync: rename without syncing the new file first, as the reference server writes (atomic,
// not durable across a power cut). The default syncs (SPEC §7).
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')));
const given = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const f of flags) if (f !== '--no-fsync') { console.error(`editcore-mcp: unknown option ${f}`); process.exit(2); }
const FSYNC = !flags.has('--no-fsync');
if (!given.length) {
  console.error('usage: editcore-mcp [--no-fsync] DIR [DIR...]   (the directories the tools may read and write)');
  process.exit(2);
}
// Allowed directories: as given (absolute) and their real paths when those differ, as the reference keeps both.
const allowed = [];
for (const d of given) {
  const abs = resolve(d);
  const real = await fs.realpath(abs).catch(() => abs);
  for (const p of abs === real ? [real] : [abs, real]) if (!allowed.includes(p)) allowed.push(p);
}
// The tools' file I/O is editcore/node's (src/node-fs.js): paths resolved beneath the allowed
// directories without following links, the write protocol every editcore host shares (locks,
// a byte-for-byte check under them, a journal for several files), blocking calls (a stdio server
// answers one call at a time: no thread-pool hop per call).
const mcpAdapter = allowedAdapter(allowed, { fsync: FSYNC, sync: true });
const projectAdapter = nodeAdapter(allowed[0], { fsync: FSYNC, sync: true });

const defs = Object.fromEntries((await toolDefinitions('raw')).map((d) => [d.id, d]));
const server = new McpServer({ name: 'editcore-mcp', version: '0.1.0' }, { capabilities: { tools: {} } });
const textOut = { content: z.string() };

async function mcpTool(id, args) {
  const { result } = await runTool(id, args, { host: mcpAdapter, root: '/', roots: allowed });
  return result;
}

const READ = { path: z.string(), tail: z.number().optional().describe('If provided, returns only the last N lines of the file'),
  head: z.number().optional().describe('If provided, returns only the first N lines of the file') };
for (const name of ['read_file', 'read_text_file']) {
  server.registerTool(name, {
    title: name === 'read_file' ? 'Read File' : 'Read Text File',
    description: name === 'read_file' ? 'Read the complete contents of a file as text. DEPRECATED: use read_text_file.' : defs['mcp/read_text_file'].description,
    inputSchema: READ, outputSchema: textOut, annotations: { readOnlyHint: true, openWorldHint: false },
  }, (args) => mcpTool('mcp/read_text_file', args));
}
server.registerTool('write_file', {
  title: 'Write File', description: defs['mcp/write_file'].description,
  inputSchema: { path: z.string(), content: z.string() }, outputSchema: textOut,
  annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: true, openWorldHint: false },
}, (args) => mcpTool('mcp/write_file', args));
server.registerTool('edit_file', {
  title: 'Edit File', description: defs['mcp/edit_file'].description,
  inputSchema: {
    path: z.string(),
    edits: z.array(z.object({ oldText: z.string().describe('Text to search for - must match exactly'), newText: z.string().describe('Text to replace with') })),
    dryRun: z.boolean().default(false).describe('Preview changes using git-style diff format'),
  },
  outputSchema: textOut,
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
}, (args) => mcpTool('mcp/edit_file', args));
server.registerTool('list_allowed_directories', {
  title: 'List Allowed Directories', description: defs['mcp/list_allowed_directories'].description,
  inputSchema: {}, outputSchema: textOut, annotations: { readOnlyHint: true, openWorldHint: false },
}, () => mcpTool('mcp/list_allowed_directories', {}));

// editcore's own: the standard Edit, and a model's whole reply in any dialect.
const asText = (obj, isError) => ({ content: [{ type: 'text', text: JSON.stringify(obj) }], ...(isError ? { isError: true } : {}) });
server.registerTool('Edit', {
  title: 'Edit', description: defs.Edit.description,
  inputSchema: {
    path: z.string().describe('File path relative to the first allowed directory'),
    old_string: z.string(), new_string: z.string(),
    expected_mtime_ms: z.number().int().nullable().optional(), expected_size_bytes: z.number().int().nullable().optional(),
    dry_run: z.boolean().optional(),
  },
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
}, async (args) => {
  const { status, result } = await runTool('Edit', args, { host: projectAdapter, root: allowed[0] });
  return asText(result, status === 'error');
});
const project = createHost(projectAdapter);
server.registerTool('apply_edit', {
  title: 'Apply Edit',
  description: "Apply a model's edit reply as written — SEARCH/REPLACE blocks, unified diffs, Codex *** Begin Patch patches, " +
    'whole files in fences — to the files it names (relative to the first allowed directory); all files or none. ' +
    'Returns a summary and the diffs, or an error that says what to send next.',
  inputSchema: { text: z.string().describe("The model's reply, in any edit dialect"), dryRun: z.boolean().default(false).describe('Preview only') },
  annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: true, openWorldHint: false },
}, async ({ text, dryRun }) => {
  const res = await project.applyEdit({ format: 'reply', text }, { dry_run: dryRun });
  if (res.status === 'error') return { content: [{ type: 'text', text: `${res.error?.code}: ${res.error?.message}` }], isError: true };
  const diffs = Object.values(res.data?.files ?? {}).map((f) => f.diff).join('');
  return { content: [{ type: 'text', text: `${res.text}\n\n${diffs}` }] };
});

await server.connect(new StdioServerTransport());
console.error(`editcore-mcp: serving ${allowed.join(', ')}`);
