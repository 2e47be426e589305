// The MCP server: tools/list is the core's MCP tool table ({"tool_definitions": "mcp"}: the
// reference server's fourteen tools, editcore's apply_edit and the standard Edit), and tools/call
// runs the named tool through runTool on the file adapter (src/files.js). Every answer — argument
// errors included, in the reference's zod words — is the core's; this file only routes calls and
// keeps the allowed directories (the command line's, or the client's roots when it offers them,
// as the reference does).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { runTool, toolDefinitions } from 'editcore';
import { homedir } from 'node:os';
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mcpFiles } from './files.js';

/**
 * The directories of `given` that exist (as given and as their real paths, when those differ, as
 * the reference keeps both), with a warning for each one skipped.
 */
export async function allowedDirectories(given, log) {
  const out = [];
  for (const d of given) {
    const abs = normalise(resolve(d === '~' || d.startsWith('~/') ? homedir() + d.slice(1) : d));
    const real = await realpath(abs).then(normalise, () => abs);
    for (const p of abs === real ? [abs] : [abs, real]) {
      const st = await stat(p).catch(() => null);
      if (!st) log(`Warning: Cannot access directory ${p}, skipping`);
      else if (!st.isDirectory()) log(`Warning: ${p} is not a directory, skipping`);
      else if (!out.includes(p)) out.push(p);
    }
  }
  return out;
}

const normalise = (p) => p.replace(/\/+/g, '/').replace(/(?<!^)\/$/, '');

/** MCP roots (file:// URIs or paths) as allowed directories: the ones that are directories. */
async function fromRoots(roots, log) {
  const out = [];
  for (const r of roots ?? []) {
    try {
      const p = normalise(await realpath(resolve(String(r.uri).startsWith('file://') ? fileURLToPath(r.uri) : String(r.uri))));
      if ((await stat(p)).isDirectory()) { if (!out.includes(p)) out.push(p); } else log(`Skipping non-directory root: ${p}`);
    } catch {
      log(`Skipping invalid directory: ${r?.uri} (not found or not accessible)`);
    }
  }
  return out;
}

/**
 * The server over `dirs` (allowed directories, checked). options: `version`, `fsync` (false:
 * --no-fsync), `log(text)`.
 */
export async function createServer(dirs, { version = '0.0.0', fsync = true, log = () => {} } = {}) {
  let allowed = [...dirs];
  const files = mcpFiles(() => allowed, { fsync });
  const defs = await toolDefinitions('mcp');
  const byName = new Map(defs.map((d) => [d.name, d]));
  const tools = defs.map(({ id, ...tool }) => tool);
  const server = new Server({ name: 'editcore-mcp', version }, { capabilities: { tools: { listChanged: true } } });

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  // One call at a time: a client that sends several at once (the SDK dispatches them together)
  // must not have two edits of one file read before either writes.
  let queue = Promise.resolve();
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const turn = queue.then(() => call(request));
    queue = turn.catch(() => {});
    return turn;
  });
  async function call(request) {
    const { name, arguments: args = {} } = request.params;
    const def = byName.get(name);
    const error = (text) => ({ content: [{ type: 'text', text }], isError: true });
    if (!def) return error(`MCP error -32602: Tool ${name} not found`);
    if (!allowed.length) return error('No allowed directories: start editcore-mcp with the directories it may use (editcore-mcp DIR...), or use a client that sends MCP roots.');
    try {
      const { status, result } = await runTool(def.id, args, { host: files, root: '/', roots: allowed, home: homedir() });
      // the MCP filesystem tools answer a CallToolResult; Edit its envelope, as JSON text
      if (def.id.startsWith('mcp/')) return result;
      return { content: [{ type: 'text', text: JSON.stringify(result) }], ...(status === 'error' ? { isError: true } : {}) };
    } catch (e) {
      log(`editcore-mcp: ${name} failed: ${e?.stack ?? e}`);
      return error(`editcore-mcp could not run ${name}: ${e?.message ?? e}`);
    }
  }

  // The client's roots replace the command line's directories, as in the reference server.
  const takeRoots = async () => {
    try {
      const dirsFromRoots = await fromRoots((await server.listRoots()).roots, log);
      if (dirsFromRoots.length) {
        allowed = dirsFromRoots;
        log(`editcore-mcp: allowed directories from the client's roots: ${allowed.join(', ')}`);
      } else log('editcore-mcp: the client sent no usable root; keeping the directories given');
    } catch (e) {
      log(`editcore-mcp: asking the client for its roots failed: ${e?.message ?? e}`);
    }
  };
  server.oninitialized = () => {
    if (server.getClientCapabilities()?.roots) takeRoots();
    else if (!allowed.length) log('editcore-mcp: no allowed directories and the client offers no roots: every tool call will be refused');
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, takeRoots);
  return { server, allowed: () => allowed };
}
