// Runs the MCP tool-call vectors (../shared/conformance/tools/*.jsonl, schema in its README) against
// an MCP stdio server, through the SDK's own Client over StdioClientTransport: one fresh directory
// and one server per case, the result and the whole directory tree checked afterwards.
//   node test/mcp_compat.mjs --server reference|editcore [--verbose]     (prints a report)
// and imported by test/mcp.test.js.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mkdtempSync, mkdirSync, writeFileSync, symlinkSync, readdirSync, lstatSync, readFileSync, readlinkSync, realpathSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '..');
export const SERVERS = {
  reference: (root) => ({ command: process.execPath, args: [join(pkg, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'), root] }),
  editcore: (root) => ({ command: process.execPath, args: [join(pkg, 'bin/editcore-mcp.js'), root] }),
};

/** The shared folder: $EDITCORE_SHARED, or ../shared beside the repository. */
export function sharedDir() {
  for (const d of [process.env.EDITCORE_SHARED, resolve(pkg, '../../shared')]) if (d && existsSync(join(d, 'conformance/tools'))) return d;
  return null;
}

export function loadCases(file = join(sharedDir() ?? '', 'conformance/tools/mcp-filesystem.jsonl')) {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

const subst = (v, m) => (typeof v === 'string' ? v.replaceAll('$ROOT', m.ROOT).replaceAll('$OUTSIDE', m.OUTSIDE)
  : Array.isArray(v) ? v.map((x) => subst(x, m)) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, subst(x, m)])) : v);

function tree(dir, base = dir, out = {}) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name), rel = p.slice(base.length + 1), st = lstatSync(p);
    if (st.isSymbolicLink()) out[rel] = { link: readlinkSync(p) };
    else if (st.isDirectory()) tree(p, base, out);
    else out[rel] = readFileSync(p, 'latin1');
  }
  return out;
}

function layout(c) {
  const B = realpathSync(mkdtempSync(join(tmpdir(), 'ec-mcp-')));
  const m = { ROOT: join(B, 'root'), OUTSIDE: join(B, 'outside') };
  mkdirSync(m.ROOT);
  mkdirSync(m.OUTSIDE);
  const put = (dir, files) => { for (const [p, s] of Object.entries(files ?? {})) { mkdirSync(dirname(join(dir, p)), { recursive: true }); writeFileSync(join(dir, p), s); } };
  put(m.ROOT, c.files);
  put(m.OUTSIDE, c.outside);
  for (const [p, t] of Object.entries(c.symlinks ?? {})) { mkdirSync(dirname(join(m.ROOT, p)), { recursive: true }); symlinkSync(subst(t, m), join(m.ROOT, p)); }
  return { B, m };
}

/** One case against one server: null when it passes, else the reason. Also returns the text. */
export async function runCase(c, server) {
  const { B, m } = layout(c);
  const before = { root: tree(m.ROOT), outside: tree(m.OUTSIDE) };
  const client = new Client({ name: 'editcore-compat', version: '1.0.0' });
  const transport = new StdioClientTransport({ ...SERVERS[server](m.ROOT), stderr: 'ignore' });
  let problem = null, text = '';
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === c.tool);
    const args = subst(c.args, m);
    if (!tool) problem = `${c.tool} is not in tools/list`;
    for (const k of Object.keys(args)) if (!problem && !(k in (tool.inputSchema.properties ?? {}))) problem = `argument ${k} is not in ${c.tool}'s inputSchema`;
    if (!problem) {
      const res = await client.callTool({ name: c.tool, arguments: args });
      text = (res.content ?? []).filter((x) => x.type === 'text').map((x) => x.text).join('\n');
      const ok = res.isError !== true, e = c.expect;
      if (ok !== e.ok) problem = `expected ${e.ok ? 'success' : 'isError'}, got ${ok ? 'success' : 'isError'}: ${text.slice(0, 300)}`;
      for (const want of e.text_contains ?? []) if (!problem && !text.includes(subst(want, m))) problem = `text lacks ${JSON.stringify(subst(want, m)).slice(0, 200)}; got ${JSON.stringify(text).slice(0, 400)}`;
      if (!problem && e.text_equals !== undefined && text !== subst(e.text_equals, m)) problem = `text ${JSON.stringify(text).slice(0, 300)} != ${JSON.stringify(subst(e.text_equals, m)).slice(0, 300)}`;
      if (!problem && ok && tool.outputSchema && res.structuredContent?.content !== text) problem = 'structuredContent.content must equal the text';
      if (!problem) {
        const want = { ...before.root };
        for (const [p, s] of Object.entries(e.files ?? {})) { if (s === null) delete want[p]; else want[p] = Buffer.from(s, 'utf8').toString('latin1'); }
        const got = tree(m.ROOT);
        if (JSON.stringify(Object.entries(got).sort()) !== JSON.stringify(Object.entries(want).sort()))
          problem = `the directory afterwards differs:\n    want ${JSON.stringify(want).slice(0, 300)}\n    got  ${JSON.stringify(got).slice(0, 300)}`;
        if (!problem && JSON.stringify(tree(m.OUTSIDE)) !== JSON.stringify(before.outside)) problem = '$OUTSIDE changed';
      }
    }
  } catch (err) {
    problem = `protocol failure: ${err.message}`;
  } finally {
    await client.close().catch(() => {});
    rmSync(B, { recursive: true, force: true });
  }
  return { problem, text };
}

/** Every case against one server: {passed, failed: [{id, quirk, problem}]}. */
export async function runAll(server, cases = loadCases()) {
  const failed = [];
  let passed = 0;
  for (const c of cases) {
    const { problem } = await runCase(c, server);
    if (problem) failed.push({ id: c.id, quirk: c.quirk, problem });
    else passed++;
  }
  return { passed, failed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--server');
  const server = at > 0 ? process.argv[at + 1] : 'editcore';
  const r = await runAll(server);
  for (const f of r.failed) console.log(`${f.quirk ? 'DIFFERS (quirk)' : 'FAIL'} ${f.id}: ${f.problem}${f.quirk ? `\n    reference quirk: ${f.quirk}` : ''}`);
  console.log(`${server}: ${r.passed} agree, ${r.failed.filter((f) => f.quirk).length} deliberate differences (quirk cases), ${r.failed.filter((f) => !f.quirk).length} failures`);
  process.exit(r.failed.some((f) => !f.quirk) ? 1 : 0);
}
