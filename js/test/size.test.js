// The two modules a browser downloads for edits (issue 28 item 4): editcore-lite.wasm, the first
// download, at most 150 KB raw and 70 KB gzip -9; editcore.wasm, the full edit engine fetched when
// the lite module defers, at most 350 KB and 150 KB (editcore-tools.wasm, the whole core with the
// agent tools, comes only for a tool call, the write protocol, self-correction or a peer dialect).
// Sizes, not timings: they only change when the code does, and a core change that pulls more
// into these modules should be seen here, not in a benchmark later. The margins are small (BENCHMARKS.md,
// "Three modules"): what pushes a module over is to be deferred or made smaller, not the budget raised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const lite = readFileSync(new URL('../dist/editcore-lite.wasm', import.meta.url));
const full = readFileSync(new URL('../dist/editcore.wasm', import.meta.url));

for (const [name, bytes, raw, gzip] of [['editcore-lite.wasm', lite, 150, 70], ['editcore.wasm', full, 350, 150]]) {
  test(`${name} is at most ${raw} KB raw and ${gzip} KB gzip -9`, () => {
    const gz = gzipSync(bytes, { level: 9 }).length;
    assert.ok(bytes.length <= raw * 1024, `raw ${bytes.length} B`);
    assert.ok(gz <= gzip * 1024, `gzip ${gz} B`);
  });
}

// The sizes the docs state (issue 28 item 4) are the built files': every "`editcore.wasm` (N KB,
// M KB gzip)" in the package's README and docs/, and the byte counts of BENCHMARKS.md's "Browser"
// table, within 3 % (node's gzip and GNU gzip -9 differ by a few bytes; a change to the core
// moves the modules by less than that, a stale statement by more).
const docs = ['../README.md', '../../README.md', '../../BENCHMARKS.md', ...readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md')).map((f) => `../../docs/${f}`)];
const built = {
  'editcore.wasm': full,
  'editcore-lite.wasm': lite,
  'editcore-tools.wasm': readFileSync(new URL('../dist/editcore-tools.wasm', import.meta.url)),
};
const actual = (name, kind) => (kind === 'raw' ? built[name].length : gzipSync(built[name], { level: 9 }).length);
const near = (stated, real) => Math.abs(stated - real) <= real * 0.03;

test('every size the docs state for the .wasm modules is the built file\'s, within 3 %', () => {
  const seen = new Set();
  for (const doc of docs) {
    const text = readFileSync(new URL(doc, import.meta.url), 'utf8');
    for (const m of text.matchAll(/`(editcore(?:-lite|-tools)?\.wasm)`\s+\((?:about\s+)?([\d,]+) KB,\s+([\d,]+) KB gzip\)/g)) {
      const [, name, raw, gz] = m;
      for (const [kind, kb] of [['raw', raw], ['gzip', gz]]) {
        const real = actual(name, kind);
        assert.ok(near(Number(kb.replace(/,/g, '')) * 1024, real), `${doc}: ${name} stated ${kb} KB ${kind}, built ${real} B`);
        seen.add(`${name} ${kind}`);
      }
    }
    for (const m of text.matchAll(/\| [^|]*js\/dist\/(editcore(?:-lite|-tools)?\.wasm)(?: \((?:full|whole)\))? (raw|gzip -9) \| ([\d,]+) B/g)) {
      const [, name, kind, bytes] = m;
      const real = actual(name, kind === 'raw' ? 'raw' : 'gzip');
      assert.ok(near(Number(bytes.replace(/,/g, '')), real), `${doc}: ${name} stated ${bytes} B ${kind}, built ${real} B`);
      seen.add(`${name} ${kind === 'raw' ? 'raw' : 'gzip'}`);
    }
  }
  // The check must have found each module's statements, or it proves nothing.
  for (const k of ['editcore.wasm raw', 'editcore.wasm gzip', 'editcore-lite.wasm raw', 'editcore-lite.wasm gzip', 'editcore-tools.wasm raw', 'editcore-tools.wasm gzip']) assert.ok(seen.has(k), `no statement of ${k} found`);
});
