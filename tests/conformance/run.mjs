#!/usr/bin/env node
// Conformance runner: every vector through every build, checked against `expect`, and the
// builds' responses compared byte for byte (stats.time_ms aside).
//
//   node tests/conformance/run.mjs [--builds native,wasi,emscripten] [--native PATH]
//        [--wasi PATH] [--peer NAME] [--id SUBSTRING] [--verbose] [--shared DIR]
//        [--native-wrap 'valgrind --error-exitcode=99 -q']   (run the native CLI under a tool)
//
// Vectors: ../shared/conformance/*.jsonl (the peers' cases) and tests/conformance/vectors/*.jsonl
// (ours). A vector runs with profile = its `peer`. Vectors whose (format, profile) this build
// does not implement are skipped and counted. tests/conformance/known_failures.txt lists vectors
// that need later work (`id  # reason`); a listed vector that passes fails the run.
// A vector with `request_text` sends that text verbatim (truncated or ill-typed JSON: the
// bad-input catalogue, tests/conformance/vectors/bad-input.jsonl).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');

function parseArgs(argv) {
  const a = { builds: null, native: join(root, 'build/native/editcore'), wasi: join(root, 'build/wasi/editcore.wasm'),
    emscripten: join(root, 'js/src/index.js'), peer: null, id: null, verbose: false, wrap: [],
    shared: process.env.EDITCORE_SHARED || resolve(root, '../shared') };
  for (let i = 2; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--builds') a.builds = v().split(',');
    else if (k === '--native') a.native = resolve(v());
    else if (k === '--wasi') a.wasi = resolve(v());
    else if (k === '--emscripten') a.emscripten = resolve(v());
    else if (k === '--peer') a.peer = v();
    else if (k === '--id') a.id = v();
    else if (k === '--shared') a.shared = resolve(v());
    else if (k === '--verbose') a.verbose = true;
    else if (k === '--native-wrap') a.wrap = v().split(' ').filter(Boolean);
    else { console.error(`unknown argument ${k}`); process.exit(2); }
  }
  a.builds ??= ['native', 'wasi', 'emscripten'];
  return a;
}

function loadVectors(args) {
  const sources = [];
  const sharedDir = join(args.shared, 'conformance');
  if (existsSync(sharedDir)) {
    for (const f of readdirSync(sharedDir).sort()) if (f.endsWith('.jsonl')) sources.push(join(sharedDir, f));
  } else {
    console.error(`warning: ${sharedDir} not found; running only this repo's vectors`);
  }
  const own = join(here, 'vectors');
  if (existsSync(own)) for (const f of readdirSync(own).sort()) if (f.endsWith('.jsonl')) sources.push(join(own, f));
  const vectors = [];
  const seen = new Set();
  for (const file of sources) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!line.trim()) return;
      let v;
      try { v = JSON.parse(line); } catch (e) { throw new Error(`${file}:${i + 1}: ${e.message}`); }
      if (seen.has(v.id)) throw new Error(`${file}:${i + 1}: duplicate vector id ${v.id}`);
      seen.add(v.id);
      v._file = file.replace(root + '/', '').replace(args.shared + '/', 'shared/');
      vectors.push(v);
    });
  }
  return vectors.filter((v) => (!args.peer || v.peer === args.peer) && (!args.id || v.id.includes(args.id)));
}

function loadKnownFailures() {
  const p = join(here, 'known_failures.txt');
  const m = new Map();
  if (!existsSync(p)) return m;
  for (const line of readFileSync(p, 'utf8').split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const hash = t.indexOf('  #');
    const id = (hash >= 0 ? t.slice(0, hash) : t).trim();
    m.set(id, hash >= 0 ? t.slice(hash + 3).trim() : '');
  }
  return m;
}

// Section - the three builds, each a function request JSON text -> response JSON text

function nativeRunner(path, wrap) {
  if (!existsSync(path)) return null;
  const [cmd, ...pre] = wrap.length ? wrap : [path];
  const argv = [...pre, ...(wrap.length ? [path] : []), 'json'];
  const answer = (status, stdout, stderr) => {
    if (status !== 0 && status !== 1) throw new Error(`native exited ${status}: ${stderr}`);
    return stdout.toString('utf8').trimEnd();
  };
  const done = new Map(); // text -> () => answer, when prepared
  const run = (text) => {
    if (done.has(text)) return done.get(text)();
    const r = spawnSync(cmd, argv, { input: text, maxBuffer: 1 << 30 });
    return answer(r.status, r.stdout, r.stderr);
  };
  // Under a tool (valgrind: ~0.4 s a request) the requests run one per core ahead of the checks;
  // each answer is the same process run as the unwrapped path's, only started earlier.
  if (wrap.length) {
    run.prepare = async (texts) => {
      const todo = [...new Set(texts)];
      const one = (text) => new Promise((resolveOne) => {
        const p = spawn(cmd, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
        const out = [], err = [];
        p.stdout.on('data', (d) => out.push(d));
        p.stderr.on('data', (d) => err.push(d));
        p.stdin.on('error', () => {});
        p.on('close', (status) => {
          const stdout = Buffer.concat(out), stderr = Buffer.concat(err).toString();
          done.set(text, () => answer(status, stdout, stderr));
          resolveOne();
        });
        p.stdin.end(text);
      });
      let next = 0;
      const worker = async () => { while (next < todo.length) await one(todo[next++]); };
      await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, worker));
    };
  }
  return run;
}

// WASI runs batched through wasm/run-wasi.mjs: a fresh node:wasi instance per request, a fresh
// process per batch (node:wasi keeps every descriptor it was given open until its process ends).
function wasiRunner(path) {
  if (!existsSync(path)) return null;
  const host = join(root, 'wasm/run-wasi.mjs');
  const done = new Map();
  const run = (text) => {
    if (!done.has(text)) throw new Error('wasi: request was not prepared');
    const out = done.get(text);
    if (out.startsWith('exit ')) throw new Error(`wasi ${out.slice(0, 200)}`);
    return out;
  };
  run.prepare = (texts) => {
    const todo = [...new Set(texts)].filter((t) => !done.has(t));
    for (let i = 0; i < todo.length; i += 200) {
      const chunk = todo.slice(i, i + 200);
      const r = spawnSync(process.execPath, [host, '--batch', path], { input: JSON.stringify(chunk), maxBuffer: 1 << 30 });
      if (r.status !== 0) throw new Error(`wasi batch exited ${r.status}: ${r.stderr}`);
      JSON.parse(r.stdout.toString('utf8')).forEach((out, k) => done.set(chunk[k], out));
    }
  };
  return run;
}

async function emscriptenRunner(path) {
  if (!existsSync(path)) return null;
  const pkg = await import(pathToFileURL(path).href);
  // The full module (init({ full: true })): the lite-first default is checked against it by
  // tests/conformance/lite.mjs and js/test/lite.test.js.
  try { await pkg.init({ full: true }); } catch (e) { console.error(`emscripten build unavailable: ${e.message}`); return null; }
  // Every syntax module too, so the synchronous functions answer for every language (the async
  // API loads them on demand: web-demo/test/syntax.test.mjs).
  const syntaxDir = join(dirname(path), '../dist/syntax');
  if (existsSync(syntaxDir)) await pkg.loadSyntax(readdirSync(syntaxDir).filter((f) => f.endsWith('.wasm')).map((f) => f.slice(0, -5)));
  const run = (text) => pkg.applyJson(text);
  // The package's object path (src/fast.js: the files' bytes beside the request, splices back,
  // the content built from the caller's strings) must give the same response object as the
  // JSON path, member for member: null when it does, else what differs. The object path's syntax
  // default is on demand (docs/syntax.md): the request is sent with JSON's default, "report",
  // named when it names no options.syntax (js/test/fast.test.js checks the default itself).
  run.object = (text) => {
    const norm = (o) => JSON.stringify({ ...o, stats: { ...o.stats, time_ms: 0 } });
    const request = JSON.parse(text);
    if (request && typeof request === 'object' && request.options === undefined) request.options = { syntax: 'report' };
    else if (request?.options && typeof request.options === 'object' && !Array.isArray(request.options) && !('syntax' in request.options))
      request.options = { ...request.options, syntax: 'report' };
    const want = norm(JSON.parse(pkg.applyJson(text))), got = norm(pkg.applyRequestSync(request));
    if (want === got) return null;
    let k = 0;
    while (k < want.length && want[k] === got[k]) k++;
    return `the object path (applyRequestSync) differs from applyJson at ${k}: ${want.slice(Math.max(0, k - 60), k + 60)} | ${got.slice(Math.max(0, k - 60), k + 60)}`;
  };
  return run;
}

// Section - checking a response against a vector's expectation

const ERROR_KINDS = {
  no_match: ['NO_MATCH'], ambiguous: ['AMBIGUOUS'], count_mismatch: ['COUNT_MISMATCH', 'AMBIGUOUS'],
  malformed: ['MALFORMED_EDIT'], file_missing: ['NOT_FOUND'], file_exists: ['FILE_EXISTS'], noop: ['NOOP'],
  // editcore's own vectors also use:
  invalid_param: ['INVALID_PARAM'], binary: ['BINARY_FILE'], too_large: ['TOO_LARGE'], conflict: ['CONFLICT'],
  invalid_reply: ['INVALID_REPLY'], syntax_error: ['SYNTAX_ERROR'], encoding: ['ENCODING'],
};

// Syntax vectors (vectors/syntax.jsonl): `syntax` maps a path to the fields its
// data.files[path].syntax must have (compared as subset() does); `text_includes` a substring of
// the response's text. null: the file has no syntax report.
function checkSyntax(resp, exp) {
  for (const [path, want] of Object.entries(exp.syntax ?? {})) {
    const got = resp.data?.files?.[path]?.syntax;
    if (want === null) { if (got !== undefined) return `${path} should have no syntax report, got ${JSON.stringify(got)}`; continue; }
    const p = subset(want, got, `data.files[${path}].syntax`);
    if (p) return p;
  }
  if (exp.text_includes && !resp.text?.includes(exp.text_includes)) return `text should include ${JSON.stringify(exp.text_includes)}, got: ${resp.text}`;
  return null;
}

// Self-correction vectors (vectors/correction.jsonl): the prompt's text, and the strategy the
// corrected edit's matches report.
function checkPrompt(resp, want) {
  const p = resp.data?.prompt;
  if (!p || typeof p.system !== 'string' || !p.system || typeof p.user !== 'string' || typeof p.schema !== 'object')
    return 'expected data.prompt with system, user and schema';
  for (const s of want) if (!p.user.includes(s)) return `the prompt's user text lacks ${JSON.stringify(s)}:\n${p.user.slice(0, 600)}`;
  return null;
}

function checkStrategy(resp, want) {
  const got = Object.values(resp.data?.files ?? {}).flatMap((f) => f.matches.map((m) => m.strategy));
  return got.includes(want) ? null : `expected a match by '${want}', got [${got.join(', ')}]`;
}

function resultingFiles(vector, resp) {
  // What the host would have on disk after applying the response.
  const out = { ...vector.files };
  for (const [path, f] of Object.entries(resp.data?.files ?? {})) {
    if (f.action === 'delete') delete out[path];
    else if (f.action === 'move') { delete out[path]; out[f.moved_to] = f.content; }
    else out[path] = f.content;
  }
  return out;
}

// A file's content as bytes: a string, or {base64} (docs/protocol.md, "Bytes").
const bytesOf = (c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : c && typeof c.base64 === 'string' ? Buffer.from(c.base64, 'base64') : null);
const sameContent = (a, b) => a === b || (bytesOf(a) !== null && bytesOf(b) !== null && Buffer.compare(bytesOf(a), bytesOf(b)) === 0);

function checkFiles(vector, resp, expected) {
  const now = resultingFiles(vector, resp);
  for (const [path, want] of Object.entries(expected)) {
    if (want === null) { if (path in now) return `${path} should be deleted`; continue; }
    if (!(path in now)) return `${path} missing`;
    if (!sameContent(now[path], want)) return `${path} differs:\n  want ${JSON.stringify(want).slice(0, 400)}\n  got  ${JSON.stringify(now[path]).slice(0, 400)}`;
  }
  for (const [path, content] of Object.entries(now)) {
    if (path in expected) continue;
    if (!sameContent(vector.files[path], content)) return `${path} changed but the vector expects it unchanged`;
  }
  return null;
}

// A tool vector's expectation: every key of `response` is in the response with the same value
// (objects compared key by key, arrays element by element at the same length, recursively);
// `contains`: dotted path -> substring; `absent`: dotted paths that must not be there.
function subset(want, got, at) {
  if (Array.isArray(want)) {
    if (!Array.isArray(got) || got.length !== want.length) return `${at}: want ${JSON.stringify(want)?.slice(0, 300)}\n  got  ${JSON.stringify(got)?.slice(0, 300)}`;
    for (let i = 0; i < want.length; i++) {
      const p = subset(want[i], got[i], `${at}[${i}]`);
      if (p) return p;
    }
    return null;
  }
  if (want && typeof want === 'object' && !Array.isArray(want)) {
    if (!got || typeof got !== 'object') return `${at}: expected an object, got ${JSON.stringify(got)?.slice(0, 200)}`;
    for (const [k, w] of Object.entries(want)) {
      const p = subset(w, got[k], `${at}.${k}`);
      if (p) return p;
    }
    return null;
  }
  return JSON.stringify(want) === JSON.stringify(got) ? null : `${at}: want ${JSON.stringify(want)?.slice(0, 300)}\n  got  ${JSON.stringify(got)?.slice(0, 300)}`;
}

function checkTool(vector, resp) {
  const exp = vector.expect;
  const p = exp.response ? subset(exp.response, resp, 'response') : null;
  if (p) return p;
  for (const [path, sub] of Object.entries(exp.contains ?? {})) {
    const v = path.split('.').reduce((o, k) => (o == null ? o : o[k]), resp);
    if (typeof v !== 'string' || !v.includes(sub)) return `${path} should contain ${JSON.stringify(sub)}, got ${JSON.stringify(v)?.slice(0, 400)}`;
  }
  for (const path of exp.absent ?? []) {
    const v = path.split('.').reduce((o, k) => (o == null ? o : o[k]), resp);
    if (v !== undefined) return `${path} should be absent, got ${JSON.stringify(v)?.slice(0, 200)}`;
  }
  return null;
}

function check(vector, resp) {
  if (vector.tool_request || vector.tool_request_text !== undefined) return checkTool(vector, resp);
  const exp = vector.expect;
  if (exp.ok) {
    if (resp.status === 'error') return `expected success, got ${resp.error?.code}: ${resp.error?.message}`;
    if (exp.paths || exp.edits) {
      // format reply, parse_only: data.paths exactly; data.edits by the fields the vector lists
      if (exp.paths && JSON.stringify(resp.data.paths) !== JSON.stringify(exp.paths)) return `paths differ:\n  want ${JSON.stringify(exp.paths)}\n  got  ${JSON.stringify(resp.data.paths)}`;
      const got = resp.data.edits ?? [];
      if (exp.edits && got.length !== exp.edits.length) return `expected ${exp.edits.length} edits, got ${got.length}: ${JSON.stringify(got).slice(0, 400)}`;
      for (const [i, want] of (exp.edits ?? []).entries())
        for (const [k, v] of Object.entries(want))
          if (JSON.stringify(got[i][k]) !== JSON.stringify(v)) return `edit ${i + 1}: ${k} is ${JSON.stringify(got[i][k])}, expected ${JSON.stringify(v)}`;
      return null;
    }
    if (exp.blocks) {
      const got = (resp.data.blocks ?? []).map((b) => ({ path: b.path, search: b.search, replace: b.replace }));
      const want = exp.blocks.map((b) => ({ path: b.path, search: b.search, replace: b.replace }));
      return JSON.stringify(got) === JSON.stringify(want) ? null : `blocks differ:\n  want ${JSON.stringify(want).slice(0, 400)}\n  got  ${JSON.stringify(got).slice(0, 400)}`;
    }
    if (exp.prompt_includes) return checkPrompt(resp, exp.prompt_includes);
    // data.notes: as many as listed, each including its text (no notes expected: none given)
    const notes = resp.data.notes ?? [];
    if (exp.notes_include && (notes.length !== exp.notes_include.length || exp.notes_include.some((n, i) => !notes[i].includes(n))))
      return `notes: want ${JSON.stringify(exp.notes_include)}, got ${JSON.stringify(notes).slice(0, 400)}`;
    return checkFiles(vector, resp, exp.files ?? {}) ?? (exp.strategy ? checkStrategy(resp, exp.strategy) : null) ?? checkSyntax(resp, exp);
  }
  const codes = ERROR_KINDS[exp.error_kind];
  const errors = [resp.error, ...(resp.errors ?? [])].filter(Boolean);
  if (!errors.length) return `expected ${exp.error_kind}, got status ${resp.status}`;
  if (codes && !errors.some((e) => codes.includes(e.code))) return `expected ${codes.join('|')}, got ${errors.map((e) => e.code).join(',')}: ${errors[0].message}`;
  if (exp.files && vector.peer !== 'editcore') return checkFiles(vector, resp, exp.files);
  if (resp.status !== 'error' && vector.peer === 'editcore') return `editcore must apply nothing on failure, got status ${resp.status}`;
  if (resp.status === 'error' && Object.keys(resp.data?.files ?? {}).length) return 'an error response lists changed files';
  if (exp.message_includes && !errors.some((e) => e.message.includes(exp.message_includes)))
    return `expected a message including '${exp.message_includes}', got: ${errors[0].message}`;
  return null;
}

const stripTime = (s) => s.replace(/"time_ms":[0-9.eE+-]+/, '"time_ms":0');

async function main() {
  const args = parseArgs(process.argv);
  const vectors = loadVectors(args);
  const known = loadKnownFailures();
  const runners = {};
  for (const b of args.builds) {
    const r = b === 'native' ? nativeRunner(args.native, args.wrap) : b === 'wasi' ? wasiRunner(args.wasi)
      : b === 'emscripten' ? await emscriptenRunner(args.emscripten) : null;
    if (!r) { console.error(`build '${b}' not found; build it first (see README)`); process.exit(2); }
    runners[b] = r;
  }
  const capsPath = args.native;
  const caps = existsSync(capsPath) ? JSON.parse(spawnSync(capsPath, ['capabilities']).stdout.toString()).supports : null;
  const tally = {}; // build -> peer -> {passed, failed, skipped, known}
  const bump = (b, peer, k) => { ((tally[b] ??= {})[peer] ??= { passed: 0, failed: 0, skipped: 0, known: 0 })[k]++; };
  let failures = 0, mismatches = 0, staleKnown = 0;
  // Tool vectors (vectors/tools.jsonl) send one phase of a tool call, "tool" first (docs/tools.md).
  // `tool_request_text`: a tool call sent verbatim (numbers JSON.stringify cannot write), checked as a tool vector.
  const requestOf = (v) => v.tool_request ? JSON.stringify({ tool: v.tool_request.tool, ...v.tool_request }) : v.tool_request_text ?? v.request_text ?? JSON.stringify({ format: v.format, files: v.files, edit: v.edit, profile: v.peer, ...(v.options ? { options: v.options } : {}) });
  const supported = (v) => !caps || v.tool_request || v.tool_request_text !== undefined || v.request_text !== undefined || (caps[v.peer] ?? []).includes(v.format);
  const runnable = vectors.filter(supported);
  for (const r of Object.values(runners)) await r.prepare?.(runnable.map(requestOf));
  for (const v of vectors) {
    if (!supported(v)) { for (const b in runners) bump(b, v.peer, 'skipped'); continue; }
    const text = requestOf(v);
    const responses = {};
    for (const [b, run] of Object.entries(runners)) {
      let raw, problem = null;
      try { raw = await run(text); } catch (e) { problem = `crashed: ${e.message}`; }
      let resp = null;
      if (!problem) { try { resp = JSON.parse(raw); } catch { problem = `response is not JSON: ${String(raw).slice(0, 200)}`; } }
      if (!problem) problem = check(v, resp);
      if (!problem && run.object && v.request_text === undefined && v.tool_request_text === undefined && !v.tool_request) {
        try { problem = run.object(text); } catch (e) { problem = `the object path crashed: ${e.message}`; }
      }
      responses[b] = raw;
      const isKnown = known.has(v.id);
      if (problem && isKnown) bump(b, v.peer, 'known');
      else if (problem) {
        bump(b, v.peer, 'failed'); failures++;
        console.log(`FAIL [${b}] ${v.id} (${v._file})\n  ${problem}`);
      } else if (isKnown) {
        bump(b, v.peer, 'failed'); staleKnown++; failures++;
        console.log(`PASSES BUT LISTED [${b}] ${v.id}: remove it from known_failures.txt`);
      } else {
        bump(b, v.peer, 'passed');
        if (args.verbose) console.log(`ok   [${b}] ${v.id}`);
      }
    }
    const names = Object.keys(responses);
    for (const b of names.slice(1)) {
      if (responses[b] !== undefined && responses[names[0]] !== undefined && stripTime(responses[b]) !== stripTime(responses[names[0]])) {
        mismatches++;
        console.log(`MISMATCH ${v.id}: ${names[0]} and ${b} responses differ`);
      }
    }
  }
  let total = { passed: 0, failed: 0, skipped: 0, known: 0 };
  for (const [b, peers] of Object.entries(tally)) {
    for (const [peer, t] of Object.entries(peers).sort()) {
      console.log(`${b.padEnd(10)} ${peer.padEnd(16)} ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped${t.known ? `, ${t.known} known failures` : ''}`);
      for (const k in total) total[k] += t[k];
    }
  }
  console.log(`builds compared byte for byte: ${Object.keys(runners).join(', ')}; ${mismatches} mismatches`);
  if (mismatches) { total.failed += mismatches; }
  console.log(`conformance: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  process.exit(total.failed ? 1 : 0);
}

main().catch((e) => { console.error(e); process.exit(2); });
