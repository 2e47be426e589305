// runTool over the npm package's adapters (memoryAdapter, nodeAdapter): every rule of SPEC §8.1
// through the JS path, the peer tools, the definitions; the same cases run through the native CLI's
// `editcore tool` (and WASI) in tests/unit/tools_cli_test.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, symlinkSync, mkdirSync, statSync, chmodSync, realpathSync, lstatSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool, toolDefinitions, memoryAdapter } from '../src/index.js';
import { nodeAdapter } from '../src/node.js';

const PY = 'def f():\n    x = 1\n    return x\n';
const edit = (a = {}) => ({ path: 'a.py', old_string: 'x = 1', new_string: 'x = 2', ...a });

function disk(files = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ec-tools-')));
  const root = join(base, 'root');
  mkdirSync(root);
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'outside', 'secret.py'), 'x = 1\n');
  for (const [p, c] of Object.entries(files)) { mkdirSync(join(root, p, '..'), { recursive: true }); writeFileSync(join(root, p), c); }
  return { base, root, host: nodeAdapter(root) };
}

test('Edit: unique success writes, the envelope says so', async () => {
  const host = memoryAdapter({ 'a.py': PY });
  const r = await runTool('Edit', edit(), { host, root: '/w' });
  assert.equal(r.status, 'success');
  assert.equal(r.result.data.applied, true);
  assert.equal(r.result.data.replacements, 1);
  assert.match(r.result.data.diff_preview, /-    x = 1\n\+    x = 2/);
  assert.equal(r.result.stats.bytes_written, 32);
  assert.deepEqual(r.result.context.params_input, edit());
  assert.equal(r.result.context.cwd, '/w');
  assert.equal(host.snapshot()['a.py'], 'def f():\n    x = 2\n    return x\n');
});

test('Edit: not found, several matches, empty old_string: INVALID_PARAM, file untouched', async () => {
  const host = memoryAdapter({ 'a.py': 'x = 1\ny\nx = 1\n' });
  let r = await runTool('Edit', edit({ old_string: 'x = 3' }), { host });
  assert.equal(r.result.error.code, 'INVALID_PARAM');
  assert.match(r.result.error.message, /Read the file again/);
  r = await runTool('Edit', edit(), { host });
  assert.match(r.result.error.message, /occurs 2 times in 'a.py' \(lines 1, 3\)/);
  r = await runTool('Edit', edit({ old_string: '' }), { host });
  assert.equal(r.result.error.code, 'INVALID_PARAM');
  assert.equal(host.snapshot()['a.py'], 'x = 1\ny\nx = 1\n');
});

test('Edit: CRLF kept; dry run is partial and writes nothing', async () => {
  const host = memoryAdapter({ 'a.py': PY.replaceAll('\n', '\r\n') });
  let r = await runTool('Edit', edit({ dry_run: true }), { host });
  assert.equal(r.status, 'partial');
  assert.equal(r.result.data.applied, false);
  r = await runTool('Edit', edit(), { host, dryRun: true });
  assert.equal(r.status, 'partial');
  assert.equal(host.snapshot()['a.py'], PY.replaceAll('\n', '\r\n'));
  r = await runTool('Edit', edit(), { host });
  assert.equal(host.snapshot()['a.py'], 'def f():\r\n    x = 2\r\n    return x\r\n');
});

test('Edit: CONFLICT on a stale mtime and on a stale size; the Read values pass', async () => {
  const { host } = disk({ 'a.py': PY });
  const read = await runTool('Read', { path: 'a.py' }, { host });
  const { file_mtime_ms, file_size_bytes } = read.result.stats;
  assert.equal(file_size_bytes, PY.length);
  let r = await runTool('Edit', edit({ expected_mtime_ms: file_mtime_ms - 5 }), { host });
  assert.equal(r.result.error.code, 'CONFLICT');
  r = await runTool('Edit', edit({ expected_size_bytes: file_size_bytes + 1 }), { host });
  assert.equal(r.result.error.code, 'CONFLICT');
  r = await runTool('Edit', edit({ expected_mtime_ms: file_mtime_ms, expected_size_bytes: file_size_bytes }), { host });
  assert.equal(r.status, 'success');
});

test('Edit: ACCESS_DENIED for .., absolute and symlink escapes; IS_DIRECTORY; NOT_FOUND; BINARY_FILE', async () => {
  const { base, root, host } = disk({ 'a.py': PY, 'd/x.py': 'x\n', 'bin.py': 'x = 1\0\n' });
  symlinkSync(join(base, 'outside', 'secret.py'), join(root, 'link.py'));
  const code = async (a) => (await runTool('Edit', edit(a), { host, root })).result.error?.code;
  assert.equal(await code({ path: '../outside/secret.py' }), 'ACCESS_DENIED');
  assert.equal(await code({ path: join(base, 'outside', 'secret.py') }), 'ACCESS_DENIED');
  assert.equal(await code({ path: 'link.py' }), 'ACCESS_DENIED');
  assert.equal(await code({ path: 'd' }), 'IS_DIRECTORY');
  assert.equal(await code({ path: 'nope.py' }), 'NOT_FOUND');
  assert.equal(await code({ path: 'bin.py' }), 'BINARY_FILE');
  assert.equal(await code({ colour: 'red' }), 'INVALID_PARAM');
  assert.equal(readFileSync(join(base, 'outside', 'secret.py'), 'utf8'), 'x = 1\n');
});

test('Edit: a symlink inside the root edits its target and stays a link; the mode survives', async () => {
  const { root, host } = disk({ 'a.py': PY });
  chmodSync(join(root, 'a.py'), 0o640);
  symlinkSync('a.py', join(root, 'l.py'));
  const r = await runTool('Edit', edit({ path: 'l.py' }), { host, root });
  assert.equal(r.status, 'success');
  assert.ok(lstatSync(join(root, 'l.py')).isSymbolicLink());
  assert.equal(readFileSync(join(root, 'a.py'), 'utf8'), 'def f():\n    x = 2\n    return x\n');
  assert.equal(statSync(join(root, 'a.py')).mode & 0o777, 0o640);
});

test('Edit: options.ladder opts in to the ladder and names the strategy', async () => {
  const host = memoryAdapter({ 'a.py': PY });
  const e = edit({ old_string: 'x = 1\nreturn x', new_string: 'x = 2\nreturn x' });
  assert.equal((await runTool('Edit', e, { host })).status, 'error');
  const r = await runTool('Edit', e, { host, ladder: true });
  assert.equal(r.result.data.strategy, 'indent');
  assert.equal(host.snapshot()['a.py'], 'def f():\n    x = 2\n    return x\n');
});

test('Write creates parent directories; Read offset/limit', async () => {
  const { root, host } = disk({});
  const w = await runTool('Write', { path: 'n/e/w.txt', content: 'a\nb\nc\n' }, { host, root });
  assert.equal(w.result.data.created, true);
  assert.equal(readFileSync(join(root, 'n/e/w.txt'), 'utf8'), 'a\nb\nc\n');
  const r = await runTool('Read', { path: 'n/e/w.txt', offset: 2, limit: 1 }, { host, root });
  assert.equal(r.result.data.content, 'b\n');
});

test('a failed write is PERMISSION_DENIED / EXECUTION_ERROR and nothing changes', async () => {
  const host = memoryAdapter({ 'a.py': PY });
  const writeFile = host.writeFile;
  host.writeFile = async () => { const e = new Error('EACCES: permission denied'); e.code = 'EACCES'; throw e; };
  let r = await runTool('Edit', edit(), { host });
  assert.equal(r.result.error.code, 'PERMISSION_DENIED');
  host.writeFile = async () => { throw new Error('ENOSPC'); };
  r = await runTool('Edit', edit(), { host });
  assert.equal(r.result.error.code, 'EXECUTION_ERROR');
  host.writeFile = writeFile;
  assert.equal(host.snapshot()['a.py'], PY);
});

test('Claude text editors: str_replace, insert, view_range; undo_edit through the state', async () => {
  const host = memoryAdapter({ 'a.txt': 'a\nb\nc\n' });
  let r = await runTool('str_replace_based_edit_tool', { command: 'view', path: '/a.txt', view_range: [2, 3] }, { host });
  assert.equal(r.result.content, "Here's the result of running `cat -n` on /a.txt:\n     2\tb\n     3\tc\n");
  r = await runTool('str_replace_based_edit_tool', { command: 'insert', path: '/a.txt', insert_line: 0, new_str: 'top' }, { host });
  assert.equal(host.snapshot()['a.txt'], 'top\na\nb\nc\n');
  r = await runTool('str_replace_editor', { command: 'str_replace', path: '/a.txt', old_str: 'b', new_str: 'B' }, { host });
  assert.equal(host.snapshot()['a.txt'], 'top\na\nB\nc\n');
  r = await runTool('str_replace_editor', { command: 'undo_edit', path: '/a.txt' }, { host, state: r.state });
  assert.equal(r.result.is_error, false);
  assert.equal(host.snapshot()['a.txt'], 'top\na\nb\nc\n');
  r = await runTool('str_replace_based_edit_tool', { command: 'undo_edit', path: '/a.txt' }, { host });
  assert.equal(r.result.is_error, true);
});

test('Gemini replace / write_file', async () => {
  const host = memoryAdapter({ 'a.py': 'x\nx\n' });
  let r = await runTool('gemini/replace', { file_path: 'a.py', instruction: 'rename', old_string: 'x', new_string: 'y' }, { host });
  assert.equal(r.result.error.type, 'edit_expected_occurrence_mismatch');
  r = await runTool('gemini/replace', { file_path: 'a.py', instruction: 'rename', old_string: 'x', new_string: 'y', allow_multiple: true }, { host });
  assert.match(r.result.llmContent, /Successfully modified file: a.py \(2 replacements\)/);
  r = await runTool('gemini/write_file', { file_path: 'b.py', content: 'z\n' }, { host });
  assert.equal(host.snapshot()['b.py'], 'z\n');
});

test('definitions in both function-calling forms, from one table', async () => {
  const oa = await toolDefinitions('openai');
  const an = await toolDefinitions('anthropic');
  assert.equal(oa.length, an.length);
  for (let i = 0; i < oa.length; i++) {
    assert.equal(oa[i].type, 'function');
    assert.equal(oa[i].function.name, an[i].name);
    assert.deepEqual(oa[i].function.parameters, an[i].input_schema);
  }
  const raw = await toolDefinitions('raw', ['Edit']);
  assert.match(raw[0].prompt, /2-5 lines/);
});

test('Codex apply_patch, OpenAI apply_patch, Cline, lazy edit_file', async () => {
  const M = 'def f():\n    return 1\n\n\ndef g():\n    return 2\n';
  const host = memoryAdapter({ 'm.py': M });
  let r = await runTool('codex/apply_patch', { input: '*** Begin Patch\n*** Update File: m.py\n@@ def g():\n-    return 2\n+    return 3\n*** Add File: n.py\n+x\n*** End Patch\n' }, { host });
  assert.equal(r.result.content, 'Success. Updated the following files:\nM m.py\nA n.py\n');
  r = await runTool('openai/apply_patch', { type: 'delete_file', path: 'n.py' }, { host });
  assert.deepEqual(r.result, { status: 'completed', output: 'Deleted n.py' });
  assert.equal('n.py' in host.snapshot(), false);
  r = await runTool('openai/apply_patch', { type: 'update_file', path: 'm.py', diff: '@@\n-nope\n+x\n' }, { host });
  assert.equal(r.result.status, 'failed');
  r = await runTool('cline/editor', { path: 'm.py', new_text: '# top\n', insert_line: 1 }, { host });
  assert.ok(host.snapshot()['m.py'].startsWith('# top\ndef f()'));
  r = await runTool('lazy/edit_file', { target_file: 'm.py', instructions: 'g', code_edit: '# ... existing code ...\ndef g():\n    return 4\n' }, { host });
  assert.match(host.snapshot()['m.py'], /return 4\n$/);
  r = await runTool('lazy/edit_file', { target_file: 'm.py', instructions: 'x', code_edit: '# ... existing code ...\n    return 5\n# ... existing code ...\n' }, { host });
  assert.equal(r.result.is_error, true);
  assert.match(r.result.content, /Send code_edit again/);
});
