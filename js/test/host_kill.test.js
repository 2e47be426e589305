// Atomicity of the Node host: a process killed (SIGKILL) at a random moment while it writes a
// multi-file edit leaves every file wholly old or wholly new, never a mix or a truncated file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The child applies one multi-file patch to the large files under argv[1] through the Node host,
// saying "writing" before its first write and "done" at the end.
const CHILD = `
import { createHost, nodeAdapter } from ${JSON.stringify(new URL('../src/node.js', import.meta.url).href)};
const [root, n] = process.argv.slice(1);
const adapter = nodeAdapter(root);
const write = adapter.writeFile;
let told = false;
adapter.writeFile = (p, data) => {
  if (!told) { told = true; process.stdout.write('writing\\n'); }
  return write(p, data);
};
const hunks = Array.from({ length: Number(n) }, (_, i) => \`*** Update File: f\${i}.txt\\n@@\\n-MARK \${i} old\\n+MARK \${i} new\\n\`).join('');
const res = await createHost(adapter).applyEdit({ format: 'codex_patch', text: \`*** Begin Patch\\n\${hunks}*** End Patch\\n\` });
process.stdout.write(res.data.applied ? 'done\\n' : res.text + '\\n');
`;
const FILES = 3;
const filler = 'const value = compute(alpha, beta, gamma); // a line of filler text\n'.repeat(60000); // ~4 MB
const oldOf = (i) => `${filler}MARK ${i} old\n${filler}`;
const newOf = (i) => `${filler}MARK ${i} new\n${filler}`;

/** Runs the child; `killAfterMs` after it starts writing, SIGKILL. Resolves with its output and
 * how long the write phase lasted. */
function runChild(root, killAfterMs) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', CHILD, root, String(FILES)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '', writingAt = 0, timer = null;
    p.stdout.on('data', (d) => {
      out += d;
      if (!writingAt && out.includes('writing')) {
        writingAt = Date.now();
        if (killAfterMs !== null) timer = setTimeout(() => p.kill('SIGKILL'), killAfterMs);
      }
    });
    p.on('exit', () => { clearTimeout(timer); resolve({ out: out.trim(), writeMs: writingAt ? Date.now() - writingAt : 0 }); });
  });
}

test('SIGKILL at random moments: every file wholly old or wholly new (20 runs)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'editcore-kill-'));
  const reset = () => { for (let i = 0; i < FILES; i++) writeFileSync(join(root, `f${i}.txt`), oldOf(i)); };
  // One uninterrupted run measures the write phase; the kills are spread over it.
  reset();
  const full = await runChild(root, null);
  const span = Math.max(full.writeMs, 1);
  assert.equal(full.out, 'writing\ndone');
  for (let i = 0; i < FILES; i++) assert.equal(readFileSync(join(root, `f${i}.txt`), 'utf8'), newOf(i));
  const seen = { old: 0, new: 0 };
  for (let run = 0; run < 20; run++) {
    reset();
    await runChild(root, Math.floor(Math.random() * span * 1.1));
    for (let i = 0; i < FILES; i++) {
      const text = readFileSync(join(root, `f${i}.txt`), 'utf8');
      const state = text === oldOf(i) ? 'old' : text === newOf(i) ? 'new' : null;
      assert.ok(state, `run ${run}: f${i}.txt is neither old nor new (${text.length} bytes)`);
      seen[state]++;
    }
  }
  rmSync(root, { recursive: true, force: true });
  console.log(`# files seen old: ${seen.old}, new: ${seen.new} (write phase ${span} ms)`);
});
