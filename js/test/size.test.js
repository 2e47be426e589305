// The browser's first download (issue 20: at most 250 KB raw and 90 KB gzip): editcore-lite.wasm,
// as the build leaves it in dist/. A size, not a timing: it only changes when the code does, and a
// core change that pulls more into the lite module should be seen here, not in a benchmark later.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const lite = readFileSync(new URL('../dist/editcore-lite.wasm', import.meta.url));

test('editcore-lite.wasm is at most 250 KB raw and 90 KB gzip -9', () => {
  const gz = gzipSync(lite, { level: 9 }).length;
  assert.ok(lite.length <= 250 * 1024, `raw ${lite.length} B`);
  assert.ok(gz <= 90 * 1024, `gzip ${gz} B`);
});
