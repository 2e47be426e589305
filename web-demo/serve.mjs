#!/usr/bin/env node
// A tiny static server for the demo: `node web-demo/serve.mjs [--port 8080]`, then open the
// address it prints. It serves only two folders of the repository, web-demo/ (the page) and js/
// (the npm package and its built engine, js/dist/), on 127.0.0.1 — nothing else is reachable.
// The browser tests start the same server (startServer) on a free port, with extra mounts for
// what they build.
import { createServer } from 'node:http';
import { createReadStream, statSync, existsSync } from 'node:fs';
import { join, resolve, extname, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(new URL('..', import.meta.url)));

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8', '.wasm': 'application/wasm',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** URL prefix → folder on disk. Longer prefixes win. */
function defaultMounts() {
  return { '/web-demo/': join(repo, 'web-demo'), '/js/': join(repo, 'js') };
}

/** The file a URL path names under the mounts, or null (outside every mount, or not a file). */
function resolvePath(mounts, urlPath) {
  let path;
  try { path = decodeURIComponent(urlPath); } catch { return null; }
  if (path.includes('\0')) return null;
  const prefix = Object.keys(mounts).sort((a, b) => b.length - a.length).find((p) => path.startsWith(p));
  if (!prefix) return null;
  const base = resolve(mounts[prefix]);
  let file = resolve(base, '.' + path.slice(prefix.length - 1));
  if (file !== base && !file.startsWith(base + sep)) return null; // ../ tricks
  if (file.split(sep).includes('node_modules')) return null;
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    return statSync(file).isFile() ? file : null;
  } catch { return null; }
}

/**
 * Starts the server. Resolves to { url, port, close() }. `mounts` adds URL prefixes
 * ('/bundle/' → a folder); `port` 0 picks a free one; `headers` are added to every file's answer
 * (the npm benchmark's cross-origin isolation: COOP and COEP).
 */
export function startServer({ port = 0, host = '127.0.0.1', mounts = {}, headers = {} } = {}) {
  const all = { ...defaultMounts(), ...mounts };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (req.method !== 'GET' && req.method !== 'HEAD') { res.writeHead(405).end(); return; }
    if (url.pathname === '/') { res.writeHead(302, { Location: '/web-demo/' }).end(); return; }
    const file = resolvePath(all, url.pathname);
    if (!file) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n'); return; }
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      'Content-Length': statSync(file).size,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    });
    if (req.method === 'HEAD') { res.end(); return; }
    createReadStream(file).pipe(res);
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      const { port: p } = server.address();
      ok({ port: p, url: `http://${host}:${p}/`, close: () => new Promise((c) => server.close(c)) });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--port');
  const port = i > 0 ? Number(process.argv[i + 1]) : 8080;
  if (!existsSync(join(repo, 'js/dist/editcore.wasm'))) {
    console.error('js/dist/editcore.wasm is missing: build the engine first\n' +
      '  cmake --preset emscripten && cmake --build --preset emscripten');
    process.exit(1);
  }
  const { url } = await startServer({ port });
  console.log(`editcore demo: ${url}web-demo/  (Ctrl-C stops)`);
}
