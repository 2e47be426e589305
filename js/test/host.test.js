// createHost over the memory and Node adapters: the host duties of SPEC §7 (paths inside the
// root, binary refused, the optimistic lock, all-or-nothing across files, atomic writes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, symlinkSync, chmodSync, statSync, lstatSync, mkdirSync, existsSync, readdirSync, utimesSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, memoryAdapter, checkPath } from '../src/index.js';
import { createNodeHost } from '../src/node.js';

const patch = (...hunks) => `*** Begin Patch\n${hunks.join('')}*** End Patch\n`;
const update = (path, from, to) => `*** Update File: ${path}\n@@\n-${from}\n+${to}\n`;

test('a multi-file patch is read, applied and written; the response says applied', async () => {
  const fs = memoryAdapter({ 'src/a.py': 'x = 1\n', 'src/b.py': 'y = 1\n' });
  const res = await createHost(fs).applyEdit({ format: 'codex_patch', text: patch(update('src/a.py', 'x = 1', 'x = 2'), update('src/b.py', 'y = 1', 'y = 2')) });
  assert.equal(res.status, 'success', res.text);
  assert.equal(res.data.applied, true);
  assert.deepEqual(fs.snapshot(), { 'src/a.py': 'x = 2\n', 'src/b.py': 'y = 2\n' });
});

test('add, delete and move through the adapter; dry_run writes nothing', async () => {
  const fs = memoryAdapter({ 'old.txt': 'keep\n', 'gone.txt': 'bye\n' });
  const host = createHost(fs);
  const text = patch('*** Add File: new.txt\n+hello\n', '*** Delete File: gone.txt\n', '*** Update File: old.txt\n*** Move to: moved.txt\n@@\n-keep\n+kept\n');
  const dry = await host.applyEdit({ format: 'codex_patch', text }, { dry_run: true });
  assert.equal(dry.status, 'success', dry.text);
  assert.equal(dry.data.applied, false);
  assert.deepEqual(fs.snapshot(), { 'old.txt': 'keep\n', 'gone.txt': 'bye\n' });
  const res = await host.applyEdit({ format: 'codex_patch', text });
  assert.equal(res.data.applied, true, res.text);
  assert.deepEqual(fs.snapshot(), { 'new.txt': 'hello\n', 'moved.txt': 'kept\n' });
});

test('a file the engine would create is read first: an existing one is not overwritten', async () => {
  const fs = memoryAdapter({ 'exists.py': 'precious\n' });
  const res = await createHost(fs).applyEdit({ format: 'replace', path: 'exists.py', old_string: '', new_string: 'clobber\n' });
  assert.equal(res.status, 'error');
  assert.deepEqual(fs.snapshot(), { 'exists.py': 'precious\n' });
  const fresh = await createHost(fs).applyEdit({ format: 'whole_file', path: 'dir/new.py', content: 'n\n' });
  assert.equal(fresh.data.files['dir/new.py'].action, 'add');
  assert.equal(fs.snapshot()['dir/new.py'], 'n\n');
});

test('escape tricks are ACCESS_DENIED and touch nothing', async () => {
  const fs = memoryAdapter({ 'a.txt': 'a\n' });
  const host = createHost(fs);
  for (const path of ['../a.txt', '/etc/passwd', 'x/../../a.txt', '..\\..\\a.txt', 'C:\\Windows\\win.ini', 'a\u0000b', '.', 'x/..']) {
    const res = await host.applyEdit({ format: 'whole_file', path, content: 'pwned\n' });
    assert.equal(res.error?.code, 'ACCESS_DENIED', `${JSON.stringify(path)}: ${res.text}`);
  }
  const viaPatch = await host.applyEdit({ format: 'codex_patch', text: patch('*** Add File: ../../evil.txt\n+x\n') });
  assert.equal(viaPatch.error?.code, 'ACCESS_DENIED', viaPatch.text);
  assert.deepEqual(fs.snapshot(), { 'a.txt': 'a\n' });
  assert.equal(checkPath('./a//b/../c.txt'), 'a/c.txt');
});

test('binary files are refused; a file that is not UTF-8 keeps its bytes or is refused; nothing is written on failure', async () => {
  const fs = memoryAdapter({ 'bin.dat': new Uint8Array([104, 0, 105, 10]), 'latin1.txt': new Uint8Array([99, 97, 102, 0xe9, 10, 120, 10]), 'ok.txt': 'ok\n' });
  const host = createHost(fs);
  const bin = await host.applyEdit({ format: 'replace', path: 'bin.dat', old_string: 'h', new_string: 'j' });
  assert.equal(bin.error.code, 'BINARY_FILE');
  // the file holds byte E9, not the UTF-8 of 'é': no match, and the other file is not written either
  const latin = await host.applyEdit({ format: 'codex_patch', text: patch(update('ok.txt', 'ok', 'OK'), update('latin1.txt', 'caf\u00e9', 'cafe')) });
  assert.equal(latin.error.code, 'NO_MATCH');
  assert.equal(fs.snapshot()['ok.txt'], 'ok\n');
  // UTF-8 text written into it would mix encodings: refused, saying why
  const mixed = await host.applyEdit({ format: 'replace', path: 'latin1.txt', old_string: 'x', new_string: 'caf\u00e9' });
  assert.equal(mixed.error.code, 'ENCODING');
  assert.match(mixed.error.message, /not UTF-8/);
  // an ASCII edit keeps every other byte
  const ascii = await host.applyEdit({ format: 'replace', path: 'latin1.txt', old_string: 'x', new_string: 'y' });
  assert.equal(ascii.data.applied, true, ascii.text);
  assert.deepEqual([...fs.files.get('latin1.txt')], [99, 97, 102, 0xe9, 10, 121, 10]);
  // its bytes went to the engine as bytes (applyRequest's object path), so they come back as bytes
  assert.deepEqual(ascii.data.files['latin1.txt'].content, new Uint8Array([99, 97, 102, 0xe9, 10, 121, 10]));
});

test('the optimistic lock: expected_hash, and a file changed while the edit ran', async () => {
  const fs = memoryAdapter({ 'a.txt': 'one\n' });
  const host = createHost(fs);
  const stale = await host.applyEdit({ format: 'replace', path: 'a.txt', old_string: 'one', new_string: 'two' }, { expected_hash: { 'a.txt': createHash('sha256').update('zero\n').digest('hex') } });
  assert.equal(stale.error.code, 'CONFLICT');
  const good = await host.applyEdit({ format: 'replace', path: 'a.txt', old_string: 'one', new_string: 'two' }, { expected_hash: { 'a.txt': createHash('sha256').update('one\n').digest('hex') } });
  assert.equal(good.data.applied, true, good.text);
  // Another writer changes the file between the host's read and its write.
  const racy = memoryAdapter({ 'a.txt': 'one\n' });
  const readFile = racy.readFile;
  racy.readFile = async (p) => { const b = await readFile(p); await racy.writeFile(p, new TextEncoder().encode('other\n')); return b; };
  const raced = await createHost(racy).applyEdit({ format: 'replace', path: 'a.txt', old_string: 'one', new_string: 'two' });
  assert.equal(raced.error.code, 'CONFLICT');
  assert.equal(racy.snapshot()['a.txt'], 'other\n');
});

test('all or nothing: a write that fails puts back the files already written', async () => {
  const fs = memoryAdapter({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
  const write = fs.writeFile;
  let n = 0;
  fs.writeFile = async (p, d) => { if (++n === 3) throw new Error('disk full'); return write(p, d); };
  const res = await createHost(fs).applyEdit({ format: 'codex_patch', text: patch(update('a.txt', 'a', 'A'), update('b.txt', 'b', 'B'), update('c.txt', 'c', 'C')) });
  assert.equal(res.error.code, 'IO_ERROR');
  assert.match(res.error.message, /disk full.*nothing was changed/);
  assert.deepEqual(fs.snapshot(), { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
});

test('misuse: an adapter without its methods, an edit without a format', async () => {
  assert.throws(() => createHost({ readFile() {} }), { name: 'TypeError', message: /adapter\.stat/ });
  await assert.rejects(createHost(memoryAdapter()).applyEdit({ path: 'a' }), TypeError);
});

// Section - the Node adapter

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'editcore-host-'));
  for (const [p, c] of Object.entries(files)) { mkdirSync(join(root, p, '..'), { recursive: true }); writeFileSync(join(root, p), c); }
  return root;
}

test('node: atomic write keeps the mode, leaves no temp file, and writes through an inside symlink', async () => {
  const root = tree({ 'run.sh': 'echo 1\n', 'real/target.txt': 't\n' });
  chmodSync(join(root, 'run.sh'), 0o751);
  symlinkSync('real/target.txt', join(root, 'link.txt'));
  const host = createNodeHost(root);
  const res = await host.applyEdit({ format: 'replace', path: 'run.sh', old_string: 'echo 1', new_string: 'echo 2' });
  assert.equal(res.data.applied, true, res.text);
  assert.equal(readFileSync(join(root, 'run.sh'), 'utf8'), 'echo 2\n');
  assert.equal(statSync(join(root, 'run.sh')).mode & 0o777, 0o751);
  const viaLink = await host.applyEdit({ format: 'replace', path: 'link.txt', old_string: 't', new_string: 'T' });
  assert.equal(viaLink.data.applied, true, viaLink.text);
  assert.ok(lstatSync(join(root, 'link.txt')).isSymbolicLink(), 'the symlink is kept');
  assert.equal(readFileSync(join(root, 'real/target.txt'), 'utf8'), 'T\n');
  assert.deepEqual(readdirSync(root).filter((n) => n.includes('editcore')), []);
});

test('node: a file and a symlink to it in one edit are refused, not written twice', async () => {
  const root = tree({ 'a.txt': 'alpha\nbeta\n' });
  symlinkSync('a.txt', join(root, 'l.txt'));
  const host = createNodeHost(root);
  const res = await host.applyEdit({ format: 'codex_patch', text: patch(update('a.txt', 'alpha', 'ALPHA'), update('l.txt', 'beta', 'BETA')) });
  assert.equal(res.status, 'error', res.text);
  assert.equal(res.error?.code, 'INVALID_PARAM', res.text);
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'alpha\nbeta\n', 'nothing was written');
});

test('node: symlinks out of the root are ACCESS_DENIED, for files and directories', async () => {
  const outside = tree({ 'secret.txt': 's\n' });
  const root = tree({ 'in.txt': 'i\n' });
  symlinkSync(join(outside, 'secret.txt'), join(root, 'file-link.txt'));
  symlinkSync(outside, join(root, 'dir-link'));
  const host = createNodeHost(root);
  for (const path of ['file-link.txt', 'dir-link/secret.txt', 'dir-link/new.txt']) {
    const res = await host.applyEdit({ format: 'whole_file', path, content: 'pwned\n' });
    assert.equal(res.error?.code, 'ACCESS_DENIED', `${path}: ${res.text}`);
  }
  assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 's\n');
  assert.ok(!existsSync(join(outside, 'new.txt')));
});

test('node: a dangling symlink is followed like the C host does: inside, the target is created and the link kept; outside, ACCESS_DENIED', async () => {
  const outside = tree({ 'keep.txt': 'k\n' });
  const root = tree({ 'in.txt': 'i\n' });
  symlinkSync('later/made.txt', join(root, 'dangling-in.txt'));
  symlinkSync(join(outside, 'planted.txt'), join(root, 'dangling-out.txt'));
  const host = createNodeHost(root);
  const made = await host.applyEdit({ format: 'whole_file', path: 'dangling-in.txt', content: 'new\n' });
  assert.equal(made.data.applied, true, made.text);
  assert.ok(lstatSync(join(root, 'dangling-in.txt')).isSymbolicLink(), 'the link is kept, not replaced by a file');
  assert.equal(readFileSync(join(root, 'later/made.txt'), 'utf8'), 'new\n');
  const out = await host.applyEdit({ format: 'whole_file', path: 'dangling-out.txt', content: 'pwned\n' });
  assert.equal(out.error?.code, 'ACCESS_DENIED', out.text);
  assert.ok(lstatSync(join(root, 'dangling-out.txt')).isSymbolicLink(), 'the link is untouched');
  assert.ok(!existsSync(join(outside, 'planted.txt')));
});

test('node: a file changed on disk between read and write is a CONFLICT', async () => {
  const root = tree({ 'a.txt': 'one\n' });
  const { nodeAdapter } = await import('../src/node.js');
  const adapter = nodeAdapter(root);
  const read = adapter.readFile;
  adapter.readFile = async (p) => {
    const b = await read(p);
    writeFileSync(join(root, 'a.txt'), 'two!\n');
    utimesSync(join(root, 'a.txt'), new Date(), new Date(Date.now() + 5000));
    return b;
  };
  const res = await createHost(adapter).applyEdit({ format: 'replace', path: 'a.txt', old_string: 'one', new_string: 'uno' });
  assert.equal(res.error.code, 'CONFLICT');
  assert.equal(readFileSync(join(root, 'a.txt'), 'utf8'), 'two!\n');
});
