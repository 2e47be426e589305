// editcore-mcp as a drop-in for @modelcontextprotocol/server-filesystem (issue 31): both servers,
// driven by the MCP SDK's own Client over stdio, get the same calls on the same files
// (test/dropin_cases.mjs), and every answer and the directories afterwards must be the same —
// except where editcore is deliberately stricter, each such case listed here and in
// docs/tools.md. ~30 s (two servers per case, side by side).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CASES } from './dropin_cases.mjs';
import { runCase } from './servers.mjs';

// Cases whose answers differ on purpose: none among these (the edit_file quirks are in
// test/mcp.test.js's recorded cases).
const DELIBERATE = new Map();

test('tools/list: the reference\'s fourteen tools, same names, schemas, titles and annotations, in its order', async () => {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const { SERVERS, layout } = await import('./servers.mjs');
  const { roots } = layout({});
  const lists = {};
  for (const server of ['reference', 'editcore']) {
    const client = new Client({ name: 'editcore-dropin', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [...SERVERS[server], ...roots], stderr: 'ignore' }));
    lists[server] = (await client.listTools()).tools;
    await client.close();
  }
  const ours = new Map(lists.editcore.map((t) => [t.name, t]));
  assert.deepEqual(lists.editcore.slice(0, 14).map((t) => t.name), lists.reference.map((t) => t.name));
  for (const ref of lists.reference) {
    const mine = ours.get(ref.name);
    // edit_file's description says what editcore does differently; everything else is the reference's
    const { description: d1, ...rest1 } = ref, { description: d2, ...rest2 } = mine;
    assert.deepEqual(rest2, rest1, ref.name);
    if (ref.name !== 'edit_file') assert.equal(d2, d1, ref.name);
  }
  assert.deepEqual(lists.editcore.slice(14).map((t) => t.name), ['apply_edit', 'Edit'], "editcore's own after the reference's");
});

for (const c of CASES) {
  test(`same answers as the reference: ${c.name}`, async () => {
    const [ref, ours] = await Promise.all([runCase(c, 'reference'), runCase(c, 'editcore')]);
    const differs = [];
    for (let i = 0; i < c.calls.length; i++) {
      try {
        assert.deepEqual(ours.answers[i].result, ref.answers[i].result);
      } catch {
        differs.push({ call: c.calls[i], reference: ref.answers[i].result, editcore: ours.answers[i].result });
      }
    }
    const want = DELIBERATE.get(c.name) ?? [];
    assert.deepEqual(differs.map((d) => JSON.stringify(d.call)), want.map((w) => JSON.stringify(w)),
      `answers differ:\n${differs.map((d) => JSON.stringify(d, null, 1)).join('\n')}`);
    assert.deepEqual(ours.after, ref.after, 'the directories afterwards');
  });
}
