// Both wasm builds cap their memory at 2 GiB (issue 8: a cap on wasm memory growth): read the
// limits from each module's memory section, as an engine would before instantiating it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TWO_GIB_PAGES = 32768; // 64 KiB pages

function leb(bytes, at) {
  let value = 0, shift = 0, b;
  do { b = bytes[at++]; value += (b & 0x7f) * 2 ** shift; shift += 7; } while (b & 0x80);
  return [value, at];
}

// The limits of the module's own memory (section 5) or of an imported one (section 2).
function memoryLimits(bytes) {
  assert.deepEqual([...bytes.subarray(0, 4)], [0, 0x61, 0x73, 0x6d], 'a wasm binary');
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (id === 5) {
      let count, p = at;
      [count, p] = leb(bytes, p);
      assert.equal(count, 1, 'one memory');
      const flags = bytes[p++];
      let min, max;
      [min, p] = leb(bytes, p);
      if (flags & 1) [max] = leb(bytes, p);
      return { min, max };
    }
    if (id === 2) {
      let count, p = at;
      [count, p] = leb(bytes, p);
      for (let i = 0; i < count; i++) {
        for (let k = 0; k < 2; k++) { let n; [n, p] = leb(bytes, p); p += n; } // module, field
        const kind = bytes[p++];
        if (kind === 2) {
          const flags = bytes[p++];
          let min, max;
          [min, p] = leb(bytes, p);
          if (flags & 1) [max] = leb(bytes, p);
          return { min, max };
        }
        if (kind === 0) [, p] = leb(bytes, p);
        else if (kind === 1) { p++; const f = bytes[p++]; [, p] = leb(bytes, p); if (f & 1) [, p] = leb(bytes, p); }
        else if (kind === 3) p += 2;
      }
    }
    at = end;
  }
  return null;
}

const builds = {
  emscripten: fileURLToPath(new URL('../dist/editcore.wasm', import.meta.url)),
  wasi: fileURLToPath(new URL('../../build/wasi/editcore.wasm', import.meta.url)),
};

for (const [name, path] of Object.entries(builds)) {
  test(`${name} module: memory grows to at most 2 GiB`, { skip: existsSync(path) ? false : `${path} not built` }, () => {
    const limits = memoryLimits(readFileSync(path));
    assert.ok(limits, 'the module has a memory');
    assert.equal(limits.max, TWO_GIB_PAGES);
    assert.ok(limits.min < TWO_GIB_PAGES);
  });
}
