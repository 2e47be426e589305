// editcore-mcp as a user installs it before it is published: both packages packed (npm pack in
// js/ and mcp/), the two tarballs installed into a fresh project (its dependencies from the npm
// registry, or the cache when it has them), and the installed bin driven by the MCP SDK's Client.
// Reports the install footprint (packages and bytes) of editcore alone and with editcore-mcp.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, statSync, realpathSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const mcpDir = fileURLToPath(new URL('..', import.meta.url));
const jsDir = join(mcpDir, '../js');
let work, tarballs;

const pack = (dir) => join(work, JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: dir, encoding: 'utf8' }))[0].filename);

before(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'editcore-mcp-pack-')));
  tarballs = { editcore: pack(jsDir), mcp: pack(mcpDir) };
});
after(() => rmSync(work, { recursive: true, force: true }));

/** A fresh project with `tgz` installed (dependencies from the registry or the cache, whichever has them). */
function install(name, ...tgz) {
  const dir = join(work, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tgz], { cwd: dir, stdio: 'pipe' });
  return dir;
}

/** Packages under node_modules (each folder with a package.json, scoped and nested ones included) and their bytes. */
function footprint(dir) {
  let packages = 0, bytes = 0;
  const walk = (d, inModules) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isSymbolicLink()) continue;
      if (e.isDirectory()) {
        if (inModules && !e.name.startsWith('@') && !e.name.startsWith('.') && existsSync(join(p, 'package.json'))) packages++;
        walk(p, e.name === 'node_modules' || (inModules && e.name.startsWith('@')));
      } else bytes += statSync(p).size;
    }
  };
  walk(join(dir, 'node_modules'), true);
  return { packages, bytes };
}

test('the mcp tarball ships the server and nothing of the tests', () => {
  const list = execFileSync('tar', ['-tzf', tarballs.mcp], { encoding: 'utf8' }).trim().split('\n').sort();
  assert.deepEqual(list, ['package/README.md', 'package/bin/editcore-mcp.js', 'package/package.json', 'package/src/files.js', 'package/src/server.js', 'package/src/transport.js']);
  const pkg = JSON.parse(execFileSync('tar', ['-xzOf', tarballs.mcp, 'package/package.json'], { encoding: 'utf8' }));
  assert.deepEqual(Object.keys(pkg.dependencies).sort(), ['@modelcontextprotocol/sdk', 'editcore']);
  assert.equal(pkg.dependencies.editcore, `^${JSON.parse(readFileSync(join(jsDir, 'package.json'), 'utf8')).version}`, 'a registry range, never a path');
  assert.deepEqual(pkg.bin, { 'editcore-mcp': './bin/editcore-mcp.js' });
});

test('installed from the two tarballs, editcore-mcp serves its tools; the footprint of each package', async (t) => {
  const alone = footprint(install('editcore-alone', tarballs.editcore));
  assert.equal(alone.packages, 1, 'editcore has no dependencies');
  const dir = install('with-mcp', tarballs.editcore, tarballs.mcp);
  const both = footprint(dir);
  t.diagnostic(`npm install editcore: ${alone.packages} package, ${alone.bytes} bytes; editcore + editcore-mcp: ${both.packages} packages, ${both.bytes} bytes`);

  const root = join(work, 'project');
  mkdirSync(root);
  const client = new Client({ name: 'editcore-pack', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: join(dir, 'node_modules/.bin/editcore-mcp'), args: [root], stderr: 'ignore' }));
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 16);
    let r = await client.callTool({ name: 'write_file', arguments: { path: 'a.txt', content: 'one\n' } });
    assert.equal(r.content[0].text, 'Successfully wrote to a.txt');
    r = await client.callTool({ name: 'edit_file', arguments: { path: 'a.txt', edits: [{ oldText: 'one', newText: 'two' }] } });
    assert.equal(r.isError, undefined);
    assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'two\n');
    r = await client.callTool({ name: 'list_directory', arguments: { path: '.' } });
    assert.equal(r.content[0].text, '[FILE] a.txt');
  } finally {
    await client.close();
  }
});
