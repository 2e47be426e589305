// Every encoding kept, in every host and every tool (issue 27 items 1 and 8): the matrix of
// test/encodings_matrix.mjs (7 encodings x the tools x the native CLI, the WASI command under
// node:wasi and the Node host; the MCP server's in mcp/test), and the protocol's bytes form through the npm API.
// ~25 s in all, most of it the CLI's processes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { runMatrix, HOSTS, paths } from './encodings_matrix.mjs';
import { applyRequest, applyEdit, runTool, memoryAdapter } from '../src/index.js';
import { toProtocol, fromProtocol, toBase64, fromBase64 } from '../src/bytes.js';

// (the MCP server's column: mcp/test/encodings.test.js, where its SDK is installed)
for (const h of Object.keys(HOSTS).filter((h) => h !== 'mcp')) {
  const built = h === 'cli' ? existsSync(paths.cli) : h === 'wasi' ? existsSync(paths.wasm) : true;
  test(`every encoding through every tool: ${h}`, { skip: built ? false : `no ${h} build (cmake --preset ${h === 'cli' ? 'native' : 'wasi'}); scripts/test.sh builds it` }, async () => {
    const rows = await runMatrix([h]);
    const bad = rows.filter((r) => !r.ok).map((r) => `${r.enc} / ${r.call}: ${r.got}`);
    assert.ok(rows.length > 50, `only ${rows.length} cells ran`);
    assert.deepEqual(bad, [], `${bad.length} of ${rows.length} cells:\n${bad.join('\n')}`);
  });
}

test('bytes <-> the protocol form: UTF-8 as a string, anything else as base64, exactly', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  assert.deepEqual(fromBase64(toBase64(all)), all);
  const big = new Uint8Array(100003).map((_, i) => (i * 7) & 255); // across btoa's chunks, not a multiple of 3
  assert.equal(toBase64(big), Buffer.from(big).toString('base64'));
  assert.equal(toProtocol(new TextEncoder().encode('café\n')), 'café\n');
  assert.equal(toProtocol(new Uint8Array([0xef, 0xbb, 0xbf, 0x78])), '\ufeffx', 'a BOM is kept as a character');
  assert.deepEqual(toProtocol(new Uint8Array([99, 0xe9])), { base64: 'Y+k=' });
  assert.deepEqual(toProtocol(new Uint8Array([97, 0, 98])), { base64: 'YQBi' }, 'NUL goes as base64');
  assert.deepEqual(fromProtocol({ base64: 'Y+k=' }), new Uint8Array([99, 0xe9]));
  assert.throws(() => fromProtocol(3), TypeError);
});

test('applyRequest: a file given as { base64 } is edited byte for byte and answered the same way', async () => {
  const latin1 = Buffer.from('caf\xe9 = 1\nx = 1\n', 'latin1');
  const res = await applyEdit({ 'a.py': { base64: latin1.toString('base64') } }, { format: 'replace', old_string: 'x = 1', new_string: 'x = 2' });
  assert.equal(res.status, 'success', res.text);
  const f = res.data.files['a.py'];
  assert.deepEqual(Buffer.from(f.content.base64, 'base64'), Buffer.from('caf\xe9 = 1\nx = 2\n', 'latin1'));
  assert.ok(f.diff.base64 && f.undo.base64, 'the diffs quote the bytes: base64 too');
  const refused = await applyEdit({ 'a.py': { base64: latin1.toString('base64') } }, { format: 'replace', old_string: 'x = 1', new_string: 'x = "é"' });
  assert.equal(refused.error.code, 'ENCODING');
  assert.match(refused.error.message, /'a\.py' is not UTF-8 \(byte 0xE9 at line 1/);
  const bad = await applyRequest({ format: 'replace', files: { a: { base64: 'not base64!' } }, edit: { old_string: 'a', new_string: 'b' } });
  assert.equal(bad.error.code, 'INVALID_PARAM');
  assert.match(bad.error.message, /files\['a'\] holds a base64 value that is not RFC 4648/);
  await assert.rejects(applyEdit({ a: 3 }, { format: 'replace', old_string: 'a', new_string: 'b' }), TypeError);
});

test('UTF-16 through the protocol: decoded, edited, encoded back; the diff is text', async () => {
  const le = Buffer.from('\ufeffname = "Zoë"\r\nx = 1\r\n', 'utf16le');
  const res = await applyEdit({ 'a.txt': { base64: le.toString('base64') } }, { format: 'search_replace', text: '<<<<<<< SEARCH\nx = 1\n=======\nx = "中"\n>>>>>>> REPLACE\n' });
  assert.equal(res.status, 'success', res.text);
  const f = res.data.files['a.txt'];
  assert.deepEqual(Buffer.from(f.content.base64, 'base64'), Buffer.from('\ufeffname = "Zoë"\r\nx = "中"\r\n', 'utf16le'));
  assert.match(f.diff, /\n-x = 1\r\n\+x = "中"\r\n/);
});

test('MCP read_text_file of a Latin-1 file no longer answers "\\u0000"; Read says what it shows', async () => {
  const host = memoryAdapter({ 'l1.txt': new Uint8Array([99, 97, 102, 0xe9, 10]) });
  const r = await runTool('mcp/read_text_file', { path: '/w/l1.txt' }, { host, root: '/w', roots: ['/w'] });
  assert.equal(r.status, 'success');
  const text = r.result.content[0].text;
  assert.ok(!text.includes('\u0000'));
  assert.match(text, /^\[Note: '\/w\/l1\.txt' is not UTF-8 \(line 1 holds its first byte that is not\)/);
  assert.ok(text.endsWith('\ncaf\ufffd\n'));
  const read = await runTool('Read', { path: 'l1.txt' }, { host, root: '/w' });
  assert.equal(read.result.data.content, 'caf\ufffd\n');
  assert.equal(read.result.data.encoding, 'unknown (not UTF-8)');
  assert.match(read.result.data.note, /every byte that is not ASCII is shown as/);
});

test('applyRequest with bytes (the object path): UTF-16, lone-CR and Latin-1 files come back as the right bytes', async () => {
  const run = (bytes, edit) => applyRequest({ format: 'replace', files: { f: bytes }, edit });
  const le = new Uint8Array(Buffer.from('\ufeffname = "Zoë"\r\nx = 1\r\n', 'utf16le'));
  let res = await run(le, { old_string: 'x = 1', new_string: 'x = "中"' });
  assert.equal(res.status, 'success', res.text);
  assert.ok(res.data.files.f.content instanceof Uint8Array);
  assert.deepEqual(Buffer.from(res.data.files.f.content), Buffer.from('\ufeffname = "Zoë"\r\nx = "中"\r\n', 'utf16le'), 'UTF-16: the whole file is the splice');
  const cr = new TextEncoder().encode('a = 0\rx = 1\ry = 2\r');
  res = await run(cr, { old_string: 'x = 1', new_string: 'x = 2\nz = 3' });
  assert.equal(new TextDecoder().decode(res.data.files.f.content), 'a = 0\rx = 2\rz = 3\ry = 2\r');
  const l1 = new Uint8Array(Buffer.from('caf\xe9 = 1\nx = 1\n', 'latin1'));
  res = await run(l1, { old_string: 'x = 1', new_string: 'x = 2' });
  assert.deepEqual(Buffer.from(res.data.files.f.content), Buffer.from('caf\xe9 = 1\nx = 2\n', 'latin1'));
  assert.ok(res.data.files.f.diff.base64, 'the diff quotes a line that is not UTF-8: base64');
  res = await run(l1, { old_string: 'x = 1', new_string: 'x = "é"' });
  assert.equal(res.error.code, 'ENCODING');
});
