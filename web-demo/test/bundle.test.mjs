// The VS Code web-extension way, in a real browser: the package bundled by esbuild into one
// classic worker script (platform 'browser', format 'iife', the .wasm inlined by the binary
// loader, as the package README's recipe says), loaded in Chromium as a Worker and driven by
// createWorkerClient from the page. The bundle is left in build/web-demo/vscode-worker/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { launch, artifacts, repo } from './chromium.mjs';

const outDir = join(artifacts, 'vscode-worker');
let b;
let project;

before(async () => {
  // A project that depends on editcore (a link to js/, so the package's exports map decides
  // which files the bundle gets), with the worker entry an extension would write.
  project = mkdtempSync(join(tmpdir(), 'editcore-bundle-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(join(repo, 'js'), join(project, 'node_modules', 'editcore'), 'dir');
  writeFileSync(join(project, 'worker.js'),
    "import { serveWorker } from 'editcore/worker';\nimport wasm from 'editcore/editcore.wasm';\nserveWorker({ wasm });\n");
  mkdirSync(outDir, { recursive: true });
  const r = await esbuild.build({
    absWorkingDir: project, entryPoints: ['worker.js'], bundle: true, platform: 'browser', format: 'iife',
    outfile: join(outDir, 'worker.js'), loader: { '.wasm': 'binary' }, target: 'es2022', logLevel: 'silent',
  });
  assert.deepEqual(r.errors, []);
  b = await launch({ mounts: { '/bundle/': outDir } });
});
after(async () => {
  await b?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

test('the iife bundle holds no Node built-in and no import.meta', () => {
  const text = readFileSync(join(outDir, 'worker.js'), 'utf8');
  assert.doesNotMatch(text, /["'`]node:[a-z/]+["'`]/);
  assert.doesNotMatch(text, /import\.meta(\.url)?\s*[),;]/, 'no code reads import.meta (the error message naming it is fine)');
  assert.doesNotMatch(text, /^\s*(import|export)\s/m, 'a classic script, not a module');
});

test('loaded as a classic worker in Chromium, it applies edits for createWorkerClient', async () => {
  const page = await b.page();
  await page.goto(b.server.url + 'web-demo/test/blank.html');
  const result = await page.evaluate(async () => {
    const { createWorkerClient } = await import('/js/src/worker.js');
    const client = createWorkerClient(new Worker('/bundle/worker.js')); // classic: no { type: 'module' }
    const edit = await client.applyEdit({ 'a.py': 'def f():\n    return 1\n' },
      { format: 'search_replace', text: '<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n' });
    const miss = await client.replace('hello\n', 'goodbye', 'x');
    const version = await client.version();
    client.terminate();
    return { content: edit.data.files['a.py'].content, diff: edit.data.files['a.py'].diff, miss: miss.error.code, version };
  });
  assert.equal(result.content, 'def f():\n    return 2\n');
  assert.match(result.diff, /^-    return 1\n\+    return 2\n$/m);
  assert.equal(result.miss, 'NO_MATCH');
  assert.match(result.version, /^\d+\.\d+\.\d+$/);
  assert.deepEqual(b.errors, []);
});
