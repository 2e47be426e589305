// The demo's static server serves web-demo/ and js/ only, on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../serve.mjs';

test('serves the page and the engine, with the types a browser needs', async () => {
  const s = await startServer();
  try {
    assert.match(s.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const root = await fetch(s.url, { redirect: 'manual' });
    assert.equal(root.status, 302);
    assert.equal(root.headers.get('location'), '/web-demo/');
    const page = await fetch(s.url + 'web-demo/');
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(await page.text(), /<title>editcore/);
    const wasm = await fetch(s.url + 'js/dist/editcore.wasm');
    assert.equal(wasm.status, 200);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.equal((await fetch(s.url + 'web-demo/app.js')).headers.get('content-type'), 'text/javascript; charset=utf-8');
  } finally { await s.close(); }
});

test('nothing outside its two folders is reachable', async () => {
  const s = await startServer();
  try {
    for (const path of ['README.md', 'web-demo/../README.md', 'web-demo/%2e%2e/README.md', 'js/..%2fREADME.md',
      'web-demo/node_modules/playwright-core/package.json', 'core/include/editcore.h', 'js/%00']) {
      const res = await fetch(s.url + path);
      assert.equal(res.status, 404, path);
    }
    assert.equal((await fetch(s.url + 'web-demo/app.js', { method: 'POST' })).status, 405);
  } finally { await s.close(); }
});
