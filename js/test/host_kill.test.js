// Atomicity of the Node host: a process killed (SIGKILL) at a random moment while it writes a
// multi-file edit leaves every file wholly old or wholly new, never a truncated file; and the next
// run (here a dry run of the same patch) finishes the set from its journal: all old or all new,
// never a mix, and no temporary, lock or journal left. (tests/host/race/kill.mjs is the long form.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The child applies one multi-file patch to the large files under argv[1] through the Node host,
// saying "writing" before its first write and "done" at the end.
const CHILD = `
import { createHost, nodeAdapter } from ${JSON.stringify(new URL('../src/node.js', import.meta.url).href)};
const [root, n, dry] = process.argv.slice(1);
const adapter = nodeAdapter(root, { onRecover: () => process.stdout.write('recovered\\n') });
const commit = adapter.commit;
adapter.commit = (ops) => { process.stdout.write('writing\\n'); return commit(ops); };
const hunks = Array.from({ length: Number(n) }, (_, i) => \`*** Update File: f\${i}.txt\\n@@\\n-MARK \${i} old\\n+MARK \${i} new\\n\`).join('');
const res = await createHost(adapter).applyEdit({ format: 'codex_patch', text: \`*** Begin Patch\\n\${hunks}*** End Patch\\n\` }, { dry_run: dry === 'dry' });
process.stdout.write(res.data.applied ? 'done\\n' : res.text + '\\n');
`;
const FILES = 3;
const filler = 'const value = compute(alpha, beta, gamma); // a line of filler text\n'.repeat(60000); // ~4 MB
const oldOf = (i) => `${filler}MARK ${i} old\n${filler}`;
const newOf = (i) => `${filler}MARK ${i} new\n${filler}`;

/** Runs the child; `killAfterMs` after it starts writing, SIGKILL. Resolves with its output and
 * how long the write phase lasted. */
function runChild(root, killAfterMs, dry = false) {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--input-type=module', '-e', CHILD, root, String(FILES), dry ? 'dry' : ''], { stdio: ['ignore', 'pipe', 'inherit'] });
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

test('SIGKILL at random moments: every file wholly old or wholly new, and the set whole after the next run (20 runs)', async () => {
  const root = mkdtempSync(join(tmpdir(), 'editcore-kill-'));
  const reset = () => { for (let i = 0; i < FILES; i++) writeFileSync(join(root, `f${i}.txt`), oldOf(i)); };
  // One uninterrupted run measures the write phase; the kills are spread over it.
  reset();
  const full = await runChild(root, null);
  const span = Math.max(full.writeMs, 1);
  assert.equal(full.out, 'writing\ndone');
  for (let i = 0; i < FILES; i++) assert.equal(readFileSync(join(root, `f${i}.txt`), 'utf8'), newOf(i));
  const seen = { old: 0, new: 0 }, sets = { mixed: 0, recovered: 0, unfinished: 0 };
  const states = (run) => Array.from({ length: FILES }, (_, i) => {
    const text = readFileSync(join(root, `f${i}.txt`), 'utf8');
    const state = text === oldOf(i) ? 'old' : text === newOf(i) ? 'new' : null;
    assert.ok(state, `run ${run}: f${i}.txt is neither old nor new (${text.length} bytes)`);
    return state;
  });
  for (let run = 0; run < 20; run++) {
    reset();
    await runChild(root, Math.floor(Math.random() * span * 1.1));
    const after = states(run);
    for (const s of after) seen[s]++;
    if (new Set(after).size > 1) sets.mixed++;
    const next = await runChild(root, null, true);
    if (next.out.includes('recovered')) sets.recovered++;
    assert.equal(new Set(states(run)).size, 1, `run ${run}: the next run left a mixed set`);
    const debris = () => readdirSync(root).filter((n) => n.includes('editcore'));
    let left = debris();
    // A kill between a lock's creation and its record leaves a lock no one can judge by its owner:
    // it is live until its heartbeat (mtime) is EC_LOCK_STALE_MS (10 s) old, since a writer stopped
    // right there may still go on (the C host's durability test allows the same). Such a lock may
    // survive the next run; made 11 s old (the time passing), it must not survive the one after.
    if (left.length && left.every((n) => n.endsWith('.editcore.lock') && !readFileSync(join(root, n), 'utf8').endsWith('}\n'))) {
      sets.unfinished++;
      const past = new Date(Date.now() - 11000);
      for (const n of left) utimesSync(join(root, n), past, past);
      await runChild(root, null, true);
      left = debris();
    }
    assert.deepEqual(left, [], `run ${run}: debris after the next run`);
  }
  rmSync(root, { recursive: true, force: true });
  console.log(`# files seen old: ${seen.old}, new: ${seen.new}; sets mixed by a kill: ${sets.mixed}, finished by the next run: ${sets.recovered}; unfinished lock records aged out: ${sets.unfinished} (write phase ${span} ms)`);
});
