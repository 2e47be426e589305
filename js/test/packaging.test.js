// The packed tarball as a new user meets it (npm pack, then `npm install <tarball>` into fresh
// temporary projects): Node ESM and CommonJS apply an edit; TypeScript type-checks in ESM and
// CommonJS projects (and rejects a wrong field), responses narrow on `status`, and every example of
// README.md and js/README.md compiles in strict mode; Vite, esbuild (esm; cjs and iife as VS Code
// web extensions build) and webpack 5 (target webworker) bundle it with no Node built-in, and the
// esbuild cjs/iife outputs run with an empty import.meta when given the .wasm. ~1 min.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync, existsSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(pkgDir, 'node_modules', '.bin', name);
let work, tarball;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'editcore-pack-'));
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: pkgDir, encoding: 'utf8' });
  tarball = join(work, JSON.parse(out)[0].filename);
});
after(() => rmSync(work, { recursive: true, force: true }));

/**
 * A fresh project with `files`, the tarball installed into it. The package has no dependencies, so
 * this needs neither the registry nor a warm npm cache (CI runs with an empty one); should one be
 * added, --prefer-offline fetches it rather than failing with ENOTCACHED as --offline did.
 */
function project(name, files, type = 'module') {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type }));
  for (const [p, text] of Object.entries(files)) { mkdirSync(dirname(join(dir, p)), { recursive: true }); writeFileSync(join(dir, p), text); }
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: dir, stdio: 'pipe' });
  return dir;
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout.trim();
}

/** Every file under dir (recursively) with its text. */
function outputs(dir) {
  const all = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) all.push(join(e.parentPath ?? e.path, e.name));
  return all;
}
function assertNoNodeBuiltins(dir) {
  for (const f of outputs(dir).filter((f) => /\.(m?js|cjs)$/.test(f))) {
    const text = readFileSync(f, 'utf8');
    assert.doesNotMatch(text, /["'`]node:[a-z/]+["'`]/, `${f} refers to a Node built-in`);
    assert.doesNotMatch(text, /require\(["'](fs|path|buffer|crypto)["']\)/, `${f} requires a Node module`);
  }
}

test('editcore has no runtime dependencies: installed from its tarball, it is the one package in node_modules', () => {
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  assert.deepEqual([pkg.dependencies, pkg.peerDependencies, pkg.optionalDependencies, pkg.bin], [undefined, undefined, undefined, undefined]);
  const dir = project('alone', {});
  assert.deepEqual(readdirSync(join(dir, 'node_modules')).filter((n) => !n.startsWith('.')), ['editcore']);
});

test('the tarball ships the entries, types, glue, .wasm and README, and nothing of the tests', () => {
  const list = run('tar', ['-tzf', tarball], work).split('\n');
  for (const f of ['package/README.md', 'package/docs/protocol.md', 'package/dist/editcore.wasm', 'package/dist/editcore.mjs', 'package/dist/editcore-lite.wasm', 'package/dist/editcore-lite.mjs', 'package/dist/editcore-tools.wasm', 'package/dist/editcore-tools.mjs', 'package/dist/editcore-kernels.mjs', 'package/src/index.js', 'package/src/index.cjs',
    'package/src/index.d.ts', 'package/src/index.d.cts', 'package/src/browser.js', 'package/src/node.js', 'package/src/worker.js', 'package/src/worker-main.js'])
    assert.ok(list.includes(f), `${f} in the tarball`);
  assert.ok(!list.some((f) => f.includes('/test/') || f.includes('node_modules')), 'no tests or dependencies');
});

const EDIT = `{ 'a.py': 'def f():\\n    return 1\\n' }, { format: 'search_replace', text: 'a.py\\n<<<<<<< SEARCH\\n    return 1\\n=======\\n    return 2\\n>>>>>>> REPLACE\\n' }`;

test('Node ESM: import applies an edit; editcore/node writes a file', () => {
  const dir = project('node-esm', {
    'main.js': `import { applyEdit } from 'editcore';
import { createNodeHost } from 'editcore/node';
import { writeFileSync, readFileSync } from 'node:fs';
const r = await applyEdit(${EDIT});
writeFileSync('x.txt', 'one\\n');
const h = await createNodeHost('.').applyEdit({ format: 'replace', path: 'x.txt', old_string: 'one', new_string: 'two' });
console.log(JSON.stringify([r.data.files['a.py'].content, h.data.applied, readFileSync('x.txt', 'utf8')]));`,
  });
  assert.deepEqual(JSON.parse(run(process.execPath, ['main.js'], dir)), ['def f():\n    return 2\n', true, 'two\n']);
});

test('Node CommonJS: require applies an edit; editcore/node writes a file', () => {
  const dir = project('node-cjs', {
    'main.js': `const { applyEdit, init, applyRequestSync } = require('editcore');
const { createNodeHost } = require('editcore/node');
const fs = require('node:fs');
(async () => {
  const r = await applyEdit(${EDIT});
  await init();
  const s = applyRequestSync({ format: 'replace', files: { f: 'a\\n' }, edit: { old_string: 'a', new_string: 'b' } });
  fs.writeFileSync('x.txt', 'one\\n');
  const h = await createNodeHost('.').applyEdit({ format: 'replace', path: 'x.txt', old_string: 'one', new_string: 'two' });
  console.log(JSON.stringify([r.data.files['a.py'].content, s.data.files.f.content, h.data.applied, fs.readFileSync('x.txt', 'utf8')]));
})();`,
  }, 'commonjs');
  assert.deepEqual(JSON.parse(run(process.execPath, ['main.js'], dir)), ['def f():\n    return 2\n', 'b\n', true, 'two\n']);
});

// TypeScript: the same source checked as ESM and as CommonJS, under each module resolution users
// have (node16 ESM/CJS; bundler; module commonjs as the VS Code extension template sets it).
const TS_SOURCE = `import { init, applyEdit, applyRequest, applyReply, replace, diff, createHost, memoryAdapter, correctionPrompt, correctionApply, createFixerCache, type Response, type Edit, type Fixer } from 'editcore';
import { createNodeHost } from 'editcore/node';
import { createWorkerClient, serveWorker } from 'editcore/worker';
export async function main(): Promise<string> {
  await init({ wasm: new Uint8Array(0) });
  await init({ wasm: fetch('/editcore.wasm') });
  await init({ wasm: await fetch(new URL('https://example.com/editcore.wasm')) });
  await init({ wasm: new WebAssembly.Module(new Uint8Array(0)) });
  await init({ wasmLite: '/editcore-lite.wasm', wasm: new URL('https://example.com/editcore.wasm') });
  const full = await init({ full: true });
  void full._editcore_lite_needs_full;
  const r: Response = await applyEdit({ 'a.py': 'x\\n' }, { format: 'replace', path: 'a.py', old_string: 'x', new_string: 'y' }, { profile: 'gemini', diff_context: 1 });
  const e: Edit = { format: 'lazy', snippet: '// ... existing code ...' };
  await applyRequest({ format: 'unified_diff', files: {}, edit: { text: '' } });
  const cp = await applyRequest({ format: 'correction_prompt', files: {}, edit: { failed: { format: 'replace', edit: { old_string: 'a', new_string: 'b' } } } });
  void cp.data.prompt?.system;
  const fixer: Fixer = async ({ system, user }, { signal }) => (signal.aborted ? '' : system + user);
  const fixed = await applyRequest({ format: 'replace', files: {}, edit: { old_string: 'a', new_string: 'b' } },
    { fixer, maxAttempts: 2, signal: new AbortController().signal, timeoutMs: 1000, cache: createFixerCache(10), skip: ['.json'] });
  void fixed.fixer?.outcome;
  void fixed.data.explanation;
  await correctionApply({ format: 'replace', files: {}, edit: { old_string: 'a', new_string: 'b' } }, 'reply', { promptFiles: {}, mode: 'search' });
  await correctionPrompt({ format: 'lazy', files: {}, edit: { snippet: 's' } }, { max_region_lines: 40 });
  // @ts-expect-error: the fixer's reply is text
  await applyRequest({ format: 'unified_diff', files: {}, edit: { text: '' } }, { fixer: async () => 42 });
  // @ts-expect-error: search_replace edits have no 'content' field
  await applyEdit({}, { format: 'search_replace', content: 'x' });
  // @ts-expect-error: a replace request's edit needs new_string
  await applyRequest({ format: 'replace', files: {}, edit: { old_string: 'x' } });
  // @ts-expect-error: not a format
  await applyEdit({}, { format: 'patch', text: '' });
  const d = await diff('a', 'b', { path: 'p' });
  const host = createHost(memoryAdapter({ 'a.py': 'x\\n' }));
  await host.applyEdit(e, { dry_run: true });
  await host.applyReply('reply', { dialect: 'auto' });
  await applyReply({ 'a.py': 'x' }, 'reply', { path: 'a.py' });
  // @ts-expect-error: not a reply dialect
  await applyReply({}, 'reply', { dialect: 'aider' });
  await createNodeHost('.').applyRequest({ format: 'codex_patch', edit: { text: '' } });
  const client = createWorkerClient(undefined, { wasm: new ArrayBuffer(0) });
  await client.replace('a', 'a', 'b', { replace_all: true });
  void serveWorker;
  return r.status + d.diff + (await replace('a', 'a', 'b')).text;
}
`;
const tsconfigs = {
  'ts-esm-node16': ['module', { module: 'node16', moduleResolution: 'node16' }],
  'ts-cjs-node16': ['commonjs', { module: 'node16', moduleResolution: 'node16' }],
  'ts-esm-bundler': ['module', { module: 'esnext', moduleResolution: 'bundler' }],
  'ts-cjs-commonjs': ['commonjs', { module: 'commonjs' }], // the VS Code extension template's setting
};
for (const [name, [type, opts]] of Object.entries(tsconfigs)) {
  test(`TypeScript (${name}): tsc --noEmit passes, and wrong fields are compile errors`, () => {
    const compilerOptions = { ...opts, target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, types: [], skipLibCheck: false };
    const dir = project(name, { 'tsconfig.json': JSON.stringify({ compilerOptions, files: ['main.ts'] }), 'main.ts': TS_SOURCE }, type);
    run(bin('tsc'), ['-p', '.'], dir);
    // The checks bite: without the @ts-expect-error lines, the wrong fields are reported.
    writeFileSync(join(dir, 'main.ts'), TS_SOURCE.replace(/\/\/ @ts-expect-error.*\n/g, ''));
    const r = spawnSync(bin('tsc'), ['-p', '.'], { cwd: dir, encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stdout, /'content' does not exist/);
    assert.match(r.stdout, /new_string/);
    assert.match(r.stdout, /"patch"/);
  });
}

// Types that narrow (issue 29): a response is a union on `status` (error has `error`), a file's
// `content` is a string where its action writes one, and the .wasm subpaths have declarations —
// in strict mode, without `!`.
const NARROWING = `import { applyEdit, diff, init, type Response, type FileResult, type Content } from 'editcore';
import wasm from 'editcore/editcore.wasm';
import lite from 'editcore/editcore-lite.wasm';
export async function main(): Promise<string> {
  await init({ wasmLite: new URL(lite, 'https://example.com/'), wasm });
  const r: Response = await applyEdit({ 'a.py': 'x\\n' }, { format: 'replace', path: 'a.py', old_string: 'x', new_string: 'y' });
  if (r.status === 'error') return r.error.code + r.error.message;           // no '!': error is there
  const f: FileResult | undefined = r.data.files['a.py'];
  if (f === undefined) return '';
  const c: Content = f.action === 'delete' ? '' : f.content;                 // content: there wherever the action writes one
  const text: string = typeof c === 'string' ? c : '';                        // a string, or bytes where the file is not UTF-8
  const moved: string = f.action === 'move' ? f.moved_to : '';
  const d = await diff('a', 'b');
  return text + moved + (d.status === 'error' ? d.error.message : d.diff);
}
export function wrong(r: Response, f: FileResult): void {
  // @ts-expect-error: without the status check, error may be absent
  void r.error.code;
  // @ts-expect-error: a deleted file has no content
  const s: string = f.content;
  void s;
}
`;
for (const [name, [type, opts]] of Object.entries({ 'narrow-esm': ['module', { module: 'node16', moduleResolution: 'node16' }], 'narrow-cjs': ['commonjs', { module: 'commonjs' }] })) {
  test(`TypeScript (${name}): responses narrow on status, content is a string where it is written, .wasm imports type-check`, () => {
    const compilerOptions = { ...opts, target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true, types: [], esModuleInterop: true };
    const dir = project(name, { 'tsconfig.json': JSON.stringify({ compilerOptions, files: ['main.ts'] }), 'main.ts': NARROWING }, type);
    run(bin('tsc'), ['-p', '.'], dir);
    // and the checks bite: without the @ts-expect-error lines both are errors
    writeFileSync(join(dir, 'main.ts'), NARROWING.replace(/\/\/ @ts-expect-error.*\n/g, ''));
    const r = spawnSync(bin('tsc'), ['-p', '.'], { cwd: dir, encoding: 'utf8' });
    assert.match(r.stdout, /TS18048|possibly 'undefined'/);
    assert.match(r.stdout, /TS2322|not assignable to type 'string'/);
  });
}

// Every example of README.md and js/README.md, compiled as a strict TypeScript program against the
// installed tarball, so the examples keep compiling through any rewrite. The convention:
//  - a fenced block whose info string starts with js, javascript, ts or typescript is an example
//    (JavaScript is checked as such: allowJs, checkJs);
//  - `no-check` after the language (```js no-check) leaves out a block that is not a program;
//  - `<!-- check: DECLARATIONS -->` alone on the line before a block gives the TypeScript
//    declarations of names the example assumes (not rendered);
//  - every example may use editcore's functions without importing them, and the names PRELUDE
//    declares (a model's reply, your model call, a file's text...);
//  - no example needs `!` (a non-null assertion): responses narrow without it.
const PRELUDE = `// the names README examples assume
type Exports = typeof import('editcore/node');
declare global {
  ${['applyEdit', 'applyJson', 'applyReply', 'applyRequest', 'applyRequestSync', 'checkPath', 'correctionApply', 'correctionPrompt', 'createFixerCache',
    'createHost', 'createNodeHost', 'diff', 'init', 'memoryAdapter', 'nodeAdapter', 'replace', 'runTool', 'setCeilings', 'toolDefinitions', 'version']
    .map((n) => `const ${n}: Exports['${n}'];`).join('\n  ')}
  const source: string, oldText: string, newText: string, modelDiff: string, modelReply: string, modelAnswer: string;
  const patchFromModel: string, diffFromModel: string, snippet: string, MODEL_URL: string, liteUrl: string, fullUrl: string, toolsUrl: string;
  const files: import('editcore').Files, bytes: Uint8Array, compiledModule: WebAssembly.Module, controller: AbortController;
  const request: import('editcore').Request, failedRequest: import('editcore').Request, host: import('editcore').Host;
  function myModel(prompt: unknown): Promise<string>;
  /** your LLM client: a reply with tool calls */
  function callYourModel(messages: unknown[], tools: unknown[]): Promise<{ content: Array<{ type: string; id: string; name: string; input: Record<string, unknown> }> }>;
  const messages: unknown[];
}
export {};
`;

/** The examples of a Markdown file: {file, line, lang, code, declarations}. */
function examples(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(.*)$/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end])) end++;
    const lang = open[1].toLowerCase(), words = open[2].trim().split(/\s+/);
    const declared = /^<!--\s*check:([\s\S]*?)-->\s*$/.exec(lines[i - 1] ?? '');
    if (['js', 'javascript', 'ts', 'typescript'].includes(lang) && !words.includes('no-check'))
      out.push({ file, line: i + 2, ts: lang.startsWith('t'), code: lines.slice(i + 1, end).join('\n'), declarations: declared?.[1].trim() ?? '' });
    i = end;
  }
  return out;
}

/** Code without comments and string contents (to look for `!` assertions). */
const codeOnly = (code) => code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/(['"`])(?:\\.|(?!\1)[^\\\n])*\1/g, '""');

test('every example of README.md and js/README.md compiles in strict mode, without `!`', () => {
  const found = [join(pkgDir, '../README.md'), join(pkgDir, 'README.md')].filter(existsSync).flatMap(examples);
  assert.ok(found.length >= 20, `examples found: ${found.length}`);
  const files = { 'prelude.d.ts': PRELUDE };
  const where = {};
  found.forEach((ex, k) => {
    const name = `ex${String(k).padStart(2, '0')}.${ex.ts ? 'ts' : 'js'}`;
    // a block's own declarations: in TypeScript beside it, for JavaScript in a declaration file of its own
    if (ex.declarations && !ex.ts) files[`ex${k}.d.ts`] = `declare global {\n${ex.declarations}\n}\nexport {};\n`;
    const head = ex.ts && ex.declarations ? ex.declarations + '\n' : '';
    files[name] = `${head}${ex.code}\nexport {};\n`;
    where[name] = { ...ex, offset: head.split('\n').length - 1 };
    assert.doesNotMatch(codeOnly(ex.code), /[\w)\]]!(?!=)/, `${ex.file}:${ex.line}: an example uses '!'`);
  });
  const compilerOptions = { module: 'node16', moduleResolution: 'node16', target: 'es2022', lib: ['es2022', 'dom'], strict: true, noEmit: true,
    allowJs: true, checkJs: true, types: ['node'], skipLibCheck: true };
  const dir = project('readme-examples', { ...files, 'tsconfig.json': JSON.stringify({ compilerOptions, include: ['*.ts', '*.js'] }) });
  symlinkSync(join(pkgDir, 'node_modules/@types'), join(dir, 'node_modules/@types'));
  const r = spawnSync(bin('tsc'), ['-p', '.'], { cwd: dir, encoding: 'utf8' });
  // each error at its README line
  const errors = r.stdout.replace(/^(ex\d+\.[jt]s)\((\d+),(\d+)\)/gm, (m, f, l, c) => {
    const w = where[f];
    return w ? `${w.file.slice(pkgDir.length - 3)}:${w.line + Number(l) - 1 - w.offset}:${c}` : m;
  });
  assert.equal(r.status, 0, errors);
});

test('Vite: a page using the engine and the worker client builds, the .wasm emitted, no Node built-in', async () => {
  const { build } = await import('vite');
  const dir = project('vite-page', {
    'index.html': '<!doctype html><script type="module" src="./main.js"></script>',
    'main.js': `import { applyEdit } from 'editcore';
import { createWorkerClient } from 'editcore/worker';
const r = await applyEdit(${EDIT});
document.body.textContent = r.data.files['a.py'].content;
const client = createWorkerClient();
client.replace('a\\n', 'a', 'b').then((w) => { document.title = w.status; });`,
  });
  await build({ root: dir, logLevel: 'silent', build: { outDir: 'dist', target: 'es2022' }, worker: { format: 'es' } });
  const files = outputs(join(dir, 'dist'));
  // Both modules: the lite one loaded first, the full one when a request needs it.
  for (const re of [/\/editcore-lite-[^/]*\.wasm$/, /\/editcore-(?!lite-)[^/]*\.wasm$/])
    assert.ok(files.some((f) => re.test(f)), `${re} among ${files.map((f) => f.slice(dir.length)).join(', ')}`);
  assert.ok(files.filter((f) => f.endsWith('.js')).length >= 2, 'the page and the worker');
  assertNoNodeBuiltins(join(dir, 'dist'));
});

test('esbuild esm (platform browser): bundles with no Node built-in', async () => {
  const esbuild = await import('esbuild');
  const dir = project('esbuild-esm', { 'main.js': `import { applyEdit } from 'editcore';\nconsole.log((await applyEdit(${EDIT})).status);` });
  const r = await esbuild.build({ absWorkingDir: dir, entryPoints: ['main.js'], bundle: true, format: 'esm', platform: 'browser', outdir: 'out', logLevel: 'silent' });
  assert.deepEqual(r.errors, []);
  assertNoNodeBuiltins(join(dir, 'out'));
  assert.match(readFileSync(join(dir, 'out/main.js'), 'utf8'), /new URL\("\.\.\/dist\/editcore\.wasm", import\.meta\.url\)/);
  assert.match(readFileSync(join(dir, 'out/main.js'), 'utf8'), /new URL\("\.\.\/dist\/editcore-lite\.wasm", import\.meta\.url\)/);
  // The README's recipe: the .wasm imported with the `file` loader is emitted beside the bundle.
  writeFileSync(join(dir, 'page.js'), `import { init } from 'editcore';\nimport wasmUrl from 'editcore/editcore.wasm';\nawait init({ wasm: new URL(wasmUrl, import.meta.url) });`);
  const r2 = await esbuild.build({ absWorkingDir: dir, entryPoints: ['page.js'], bundle: true, format: 'esm', platform: 'browser', outdir: 'out2', loader: { '.wasm': 'file' }, logLevel: 'silent' });
  assert.deepEqual(r2.errors, []);
  assert.ok(readdirSync(join(dir, 'out2')).some((f) => f.endsWith('.wasm')));
});

/** A web worker's global, enough for a classic worker bundle: messages in, messages out. */
function workerScope() {
  const listeners = [], posted = [];
  const scope = {
    WebAssembly, TextEncoder, TextDecoder, URL, performance, console, setTimeout, clearTimeout, queueMicrotask, Promise, Uint8Array, ArrayBuffer, Response,
    addEventListener: (type, fn) => { if (type === 'message') listeners.push(fn); },
    postMessage: (m) => posted.push(m),
  };
  scope.self = scope;
  scope.globalThis = scope;
  return { scope, listeners, posted };
}

test('esbuild iife worker (the VS Code web extension way): builds with no Node built-in and serves edits with an empty import.meta', async () => {
  const esbuild = await import('esbuild');
  const dir = project('esbuild-iife', {
    'worker.js': `import { serveWorker } from 'editcore/worker';\nimport wasm from 'editcore/editcore.wasm';\nserveWorker({ wasm });`,
  });
  const r = await esbuild.build({ absWorkingDir: dir, entryPoints: ['worker.js'], bundle: true, format: 'iife', platform: 'browser', outfile: 'out/worker.js', loader: { '.wasm': 'binary' }, target: 'es2022', logLevel: 'silent' });
  assert.deepEqual(r.errors, []);
  assertNoNodeBuiltins(join(dir, 'out'));
  const { scope, listeners, posted } = workerScope();
  vm.runInNewContext(readFileSync(join(dir, 'out/worker.js'), 'utf8'), scope);
  const ask = async (id, call, args) => {
    listeners.forEach((fn) => fn({ data: { id, call, args } }));
    for (let i = 0; i < 500 && !posted.some((m) => m.id === id); i++) await new Promise((res) => setTimeout(res, 10));
    return posted.find((m) => m.id === id);
  };
  const answer = await ask(1, 'applyEdit', [{ 'a.py': 'x = 1\n' }, { format: 'replace', old_string: 'x = 1', new_string: 'x = 2' }]);
  assert.equal(answer?.ok, true, JSON.stringify(answer));
  assert.equal(answer.value.data.files['a.py'].content, 'x = 2\n');
});

test('esbuild cjs (platform browser, an extension module): runs with an empty import.meta when given the .wasm', async () => {
  const esbuild = await import('esbuild');
  const dir = project('esbuild-cjs', {
    'extension.js': `import { init, applyEdit } from 'editcore';
import wasm from 'editcore/editcore.wasm';
export async function activate() {
  await init({ wasm });
  return (await applyEdit(${EDIT})).data.files['a.py'].content;
}
export async function withoutWasm() { return import('editcore').then((m) => m.applyEdit({ f: 'a' }, { format: 'whole_file', content: 'b' })); }`,
  });
  const r = await esbuild.build({ absWorkingDir: dir, entryPoints: ['extension.js'], bundle: true, format: 'cjs', platform: 'browser', outfile: 'out/extension.js', loader: { '.wasm': 'binary' }, target: 'es2022', logLevel: 'silent' });
  assert.deepEqual(r.errors, []);
  assertNoNodeBuiltins(join(dir, 'out'));
  const { scope } = workerScope();
  const module = { exports: {} };
  vm.runInNewContext(readFileSync(join(dir, 'out/extension.js'), 'utf8'), Object.assign(scope, { module, exports: module.exports }));
  assert.equal(await module.exports.activate(), 'def f():\n    return 2\n');
});

test('esbuild cjs without the .wasm given: init() rejects with a TypeError that says to pass it', async () => {
  const esbuild = await import('esbuild');
  const dir = project('esbuild-cjs-nowasm', { 'ext.js': `import { init } from 'editcore';\nexport const start = () => init();` });
  await esbuild.build({ absWorkingDir: dir, entryPoints: ['ext.js'], bundle: true, format: 'cjs', platform: 'browser', outfile: 'out/ext.js', logLevel: 'silent' });
  const { scope } = workerScope();
  const module = { exports: {} };
  vm.runInNewContext(readFileSync(join(dir, 'out/ext.js'), 'utf8'), Object.assign(scope, { module, exports: module.exports }));
  await assert.rejects(module.exports.start(), (e) => e.name === 'TypeError' && /pass it: init\(\{ wasm/.test(e.message));
});

test('webpack 5 target webworker: a worker bundle builds, the .wasm emitted as an asset, no Node built-in', async () => {
  const { default: webpack } = await import('webpack');
  const dir = project('webpack-worker', { 'src/worker.js': `import { serveWorker } from 'editcore/worker';\nserveWorker();` });
  const stats = await new Promise((resolve, reject) => webpack({
    context: dir, mode: 'production', target: 'webworker', entry: './src/worker.js',
    output: { path: join(dir, 'out'), filename: 'worker.js' }, performance: { hints: false },
  }, (err, s) => (err ? reject(err) : resolve(s))));
  const info = stats.toJson({ all: false, errors: true, warnings: true, assets: true });
  assert.deepEqual(info.errors.map((e) => e.message), []);
  // The three engine modules (lite, full, tools), and every syntax module (the template URL of platform-web.js: each is
  // emitted, and fetched only when a request needs its language).
  const syntaxModules = readdirSync(new URL('../dist/syntax/', import.meta.url)).filter((f) => f.endsWith('.wasm')).length;
  assert.ok(syntaxModules >= 10, `${syntaxModules} syntax modules in dist/syntax`);
  assert.equal(info.assets.filter((a) => a.name.endsWith('.wasm')).length, 3 + syntaxModules, `the modules among the assets: ${info.assets.map((a) => a.name)}`);
  assertNoNodeBuiltins(join(dir, 'out'));
  assert.ok(existsSync(join(dir, 'out/worker.js')));
});
