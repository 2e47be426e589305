// A model's raw reply (format "reply", docs/reply.md): applyReply over contents, and the host,
// which asks the engine which files a reply (or a diff, or a patch) names before reading them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyReply, applyRequest, createHost, memoryAdapter } from '../src/index.js';

// Format "reply" comes from the core (core/src/reply/); until an engine has it, these tests say so.
const probe = await applyRequest({ format: 'reply', files: {}, edit: { text: '', parse_only: true } });
const skip = /unknown format|format must be/i.test(probe.error?.message ?? '') ? 'this engine has no format "reply" (core/src/reply/ not merged yet)' : false;

const REPLY = `Here is the fix.

app.py
\`\`\`python
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE
\`\`\`

And a new helper:

\`\`\`diff
--- /dev/null
+++ b/util.py
@@ -0,0 +1 @@
+def helper(): pass
\`\`\`
`;

test('applyReply applies every edit of a reply to the contents given', { skip }, async () => {
  const res = await applyReply({ 'app.py': 'x = 1\n' }, REPLY);
  assert.equal(res.status, 'success', res.text);
  assert.equal(res.data.files['app.py'].content, 'x = 2\n');
  assert.equal(res.data.files['util.py'].action, 'add');
  await assert.rejects(applyReply({}, 42), TypeError);
});

test('host.applyReply reads the files the reply names and writes them all', { skip }, async () => {
  const fs = memoryAdapter({ 'app.py': 'x = 1\n' });
  const res = await createHost(fs).applyReply(REPLY);
  assert.equal(res.data.applied, true, res.text);
  assert.deepEqual(fs.snapshot(), { 'app.py': 'x = 2\n', 'util.py': 'def helper(): pass\n' });
});

test('host: a unified diff with a/ and b/ names reaches the file (the engine lists the names)', { skip }, async () => {
  const fs = memoryAdapter({ 'src/x.py': 'a\n' });
  const res = await createHost(fs).applyEdit({ format: 'unified_diff', text: '--- a/src/x.py\n+++ b/src/x.py\n@@ -1 +1 @@\n-a\n+b\n' });
  assert.equal(res.data.applied, true, res.text);
  assert.deepEqual(fs.snapshot(), { 'src/x.py': 'b\n' });
});

test('host: a reply that names a path out of the root is ACCESS_DENIED and writes nothing', { skip }, async () => {
  const fs = memoryAdapter({ 'app.py': 'x = 1\n' });
  const res = await createHost(fs).applyReply(REPLY.replace('/dev/null', '/dev/null').replace('b/util.py', 'b/../../evil.py'));
  assert.equal(res.error?.code, 'ACCESS_DENIED', res.text);
  assert.deepEqual(fs.snapshot(), { 'app.py': 'x = 1\n' });
});
