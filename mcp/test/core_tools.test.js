// The MCP tools' pieces that imitate JavaScript, checked against JavaScript itself with no server
// and no disk: runTool over an in-memory tree, and the reference's own helpers as the oracle —
//  - search_files' globs against minimatch (the reference's matcher, dot: true) on a grid of
//    patterns and paths;
//  - list_directory_with_sizes' name order against String.prototype.localeCompare, and its sizes
//    against the reference's formatSize;
//  - get_file_info's times against Date.prototype.toString in several time zones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minimatch } from 'minimatch';
import { formatSize } from '@modelcontextprotocol/server-filesystem/dist/lib.js';
import { runTool } from 'editcore';

/** An adapter over {path: size | null (a directory)} under /r, enough for the listing tools. */
function tree(spec, times = {}) {
  const entries = new Map([['r', []]]);
  const meta = new Map([['r', { type: 'directory', size: 4096 }]]);
  for (const [p, size] of Object.entries(spec)) {
    const parts = ('r/' + p).split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/'), full = parts.slice(0, i + 1).join('/');
      const isDir = i < parts.length - 1 || size === null;
      if (!meta.has(full)) {
        meta.set(full, { type: isDir ? 'directory' : 'file', size: isDir ? 4096 : size, ...times });
        entries.get(dir).push(parts[i]);
        if (isDir) entries.set(full, []);
      }
    }
  }
  return {
    root: '/',
    async stat(p) { const m = meta.get(p); return m ? { ...m, mtime: m.mtime ?? 0, real: '/' + p } : null; },
    async readFile(p) { return new Uint8Array(meta.get(p)?.size ?? 0); },
    async writeFile() { throw new Error('read-only'); },
    async delete() { throw new Error('read-only'); },
    async list(p) {
      return entries.get(p).map((name) => { const m = meta.get(`${p}/${name}`); return { name, type: m.type, size: m.size, mtime: 0 }; });
    },
  };
}

const call = async (host, name, args) => (await runTool(name, args, { host, root: '/', roots: ['/r'] })).result.content[0].text;

const PATHS = ['a.txt', 'b.TXT', '.hidden', '.git/config', 'src/app.ts', 'src/app.test.ts', 'src/lib/util.js', 'src/lib/deep/z.ts',
  'src/.env', 'docs/read me.md', 'x1.log', 'x2.log', 'xa.log', 'x10.log', 'a/b/c/d.md', 'a/b/c.md', 'a.b.c', 'foo', 'foobar', 'barfoo',
  'node_modules/pkg/index.js', 'café.md', 'ß', '[x].md', 'a{b}.md', 'star*.md', 'q?.md', '-dash', 'a-b', 'ab', 'a]b', 'a!b', '+(x)', 'a,b',
  '{}', '...', 'a/.b/c'];
const PATTERNS = ['*', '**', '*.txt', '*.TXT', '**/*.ts', '**/*.{js,ts}', 'src/**', 'src/*', 'src/**/*.ts', '**/lib/**', 'x?.log', 'x??.log',
  'x[0-9].log', 'x[!0-9].log', 'x[^0-9].log', 'x[[:digit:]].log', 'x[[:alpha:]].log', '{a,b}.*', '{x1,x2}.log', 'x{1..2}.log', 'x{1..10}.log',
  '*.{md,log}', '!(*.ts|*.js)', '*.!(ts)', '**/+(app|util).*', '**/@(app).ts', '**/app?(.test).ts', '**/*(a).txt', '#x', '!*.log', '!!*.log',
  '.*', '**/.*', '*/*', '*/*/*', 'a/**/d.md', 'a/**/c.md', '**/c/*', 'foo*', '*foo', '*o*', 'f?o', '\\[x\\].md', '[[]x].md', 'a\\{b\\}.md',
  'star\\*.md', 'q\\?.md', 'caf?.md', 'caf[é].md', '?', '??', 'a/b', './a.txt', 'src/./app.ts', '**/node_modules', '**/node_modules/**',
  '{src,docs}/**/*.{ts,md}', 'a.*', '*.*.*', '', 'src', '**/src/**', 'x{a,{1,2}}.log', '{,x}1.log', 'x{2..1}.log',
  // a second set, held out while the first was made to pass: 85 of 87 agreed on the first run ("//" in a
  // pattern, [[:lower:]] on ß), both fixed as rules (empty segments collapse; POSIX classes by Unicode category)
  '**/*', '*/**', '**/**', '**/*/**', 'a/**', 'a/**/*', '**/b/**', '[a-c]*', '[!a-c]*', '[]ab]*', '[a-]*', '*[-]*', '[\\]]b', 'a]b', 'a[]]b',
  '*!*', 'a!b', '+(x)', '\\+(x)', '{a,b}', '{a,b}*', '{a..c}*', '{a..c..2}*', '{01..03}', '{}', '{a}', 'a{,b}', '{,a}b', '@(a|b)', '@(a|b)*',
  '*(a|b)', '+(a|b)', '?(a|b)', '!(a)', '!(a|ab)', '*.!(md|txt)', '!(*.*)', '**/!(*.ts)', 'x+([0-9]).log', 'x*([0-9]).log', 'x?([0-9]).log',
  'x@(1|2).log', 'x!(1).log', 'src/@(app|lib)*', '**/{lib,deep}/**', '*.[mM][dD]', '**/[.]*', '[.]*', '*/.b/*', 'a/.b/*', 'a/*/c', '**/.b/**',
  '***', 'a**', '**a', 'a/b**', '**.md', '**/**.md', 'src//app.ts', '/src/app.ts', 'a.txt/', '[[:upper:]]*', '[[:lower:]]*', '[[:space:]]*',
  '*[[:punct:]]*', '\\a.txt', 'a\\.txt', '*\\*.md', 'x[1-9]*', 'x[9-1].log', '[a-z][a-z]', '?.*', '???', '!(foo)*', 'foo!(bar)', '*(foo|bar)',
  '?(foo)bar', '+(foo|bar)', '@(foo|bar)', '!(foo|bar)', '**/c/**', 'a/b/c/**', 'a/b/c/*.md', '.*/**', '.git/*', '.*/*'];

test('search_files: each glob matches what minimatch matches (dot: true)', async () => {
  const host = tree(Object.fromEntries(PATHS.map((p) => [p, 1])));
  const all = new Set();
  for (const p of PATHS) { const parts = p.split('/'); for (let i = 1; i <= parts.length; i++) all.add(parts.slice(0, i).join('/')); }
  const wrong = [];
  for (const pattern of PATTERNS) {
    const text = await call(host, 'mcp/search_files', { path: '/r', pattern });
    const got = text === 'No matches found' ? [] : text.split('\n').map((l) => l.slice('/r/'.length)).sort();
    const want = [...all].filter((p) => minimatch(p, pattern, { dot: true })).sort();
    if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${JSON.stringify(pattern)}: editcore ${JSON.stringify(got)}, minimatch ${JSON.stringify(want)}`);
  }
  assert.deepEqual(wrong, []);
});

test('search_files and directory_tree: a hostile pattern ends (no match) instead of backtracking for ever', async () => {
  const host = tree({ ['a'.repeat(60)]: 1 });
  const t0 = performance.now();
  assert.equal(await call(host, 'mcp/search_files', { path: '/r', pattern: '*(*(*(a)))b' + '*'.repeat(40) + 'c' }), 'No matches found');
  assert.ok(performance.now() - t0 < 20000);
});

test('list_directory_with_sizes: names in localeCompare order, sizes as the reference formats them', async () => {
  // names: every printable ASCII character somewhere, case pairs, Latin-1 letters
  const names = new Set(['a', 'A', 'b', 'B', 'ab', 'Ab', 'aB', 'AB', 'a b', 'a-b', 'a_b', 'a.b', 'a,b', '10', '9', '1a', 'é', 'e', 'E', 'É', 'f',
    'ss', 'ß', 'ae', 'æ', 'o', 'ø', 'ö', 'y', 'ÿ', 'z', 'Z', 'résumé', 'resume', 'Résumé']);
  for (let c = 0x21; c < 0x7f; c++) if (c !== 0x2f) { names.add(String.fromCharCode(c) + 'x'); names.add('x' + String.fromCharCode(c)); }
  let seed = 7;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const alphabet = 'aAbB_-.9 zZ~éÉ';
  for (let i = 0; i < 200; i++) { let s = ''; for (let k = 1 + rnd(5); k > 0; k--) s += alphabet[rnd(alphabet.length)]; if (s.trim() === s && s !== '.' && s !== '..') names.add(s); }
  const host = tree(Object.fromEntries([...names].map((n, i) => [n, i * 37])));
  const text = await call(host, 'mcp/list_directory_with_sizes', { path: '/r' });
  const got = text.split('\n\n')[0].split('\n').map((l) => l.replace(/^\[FILE\] /, '').replace(/ +\S+ \S+$/, '').replace(/ +$/, ''));
  const want = [...names].sort().sort((x, y) => x.localeCompare(y)).map((n) => n.trim());
  assert.deepEqual(got, want);
  // each size as formatSize gives it, and the total
  const sizes = text.split('\n\n')[0].split('\n').map((l) => l.slice(-10).trim());
  assert.deepEqual(sizes, [...names].sort().sort((x, y) => x.localeCompare(y)).map((n) => formatSize([...names].indexOf(n) * 37)));
});

test('formatSize: boundaries and ties as the reference rounds them', async () => {
  const sizes = [0, 1, 1023, 1024, 1025, 1152, 1536, 2047, 1048575, 1048576, 1048576 * 1.5, 1073741823, 1073741824, 1099511627776, 1099511627776 * 1024,
    1000, 1005, 1029, 10240 + 5, 3 * 1024 ** 3 + 5 * 1024 ** 2];
  const host = tree(Object.fromEntries(sizes.map((s, i) => [`f${String(i).padStart(2, '0')}`, s])));
  const text = await call(host, 'mcp/list_directory_with_sizes', { path: '/r' });
  const got = text.split('\n\n')[0].split('\n').map((l) => l.slice(-10).trim());
  assert.deepEqual(got, sizes.map(formatSize));
  assert.match(text, new RegExp(`Combined size: ${formatSize(sizes.reduce((a, b) => a + b, 0)).replace('.', '\\.')}$`));
});

test('get_file_info: the times as Date.prototype.toString prints them, in several time zones', async () => {
  const zone = process.env.TZ;
  try {
    for (const tz of ['UTC', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Europe/Berlin']) {
      process.env.TZ = tz;
      for (const ms of [0, 1709618828123, 1719795600000, -86400000 * 365 * 30 + 1234, 253402300799000, 1e12 + 0.75]) {
        const host = tree({ f: 5 }, { birthtime: ms, mtime: ms + 1000, atime: ms + 86400000 * 200 });
        const text = await call(host, 'mcp/get_file_info', { path: '/r/f' });
        const [created, modified, accessed] = ['created', 'modified', 'accessed'].map((k) => new RegExp(`^${k}: (.*)$`, 'm').exec(text)[1]);
        assert.deepEqual([created, modified, accessed], [ms, ms + 1000, ms + 86400000 * 200].map((t) => new Date(t).toString()), `${tz} ${ms}`);
      }
    }
  } finally {
    if (zone === undefined) delete process.env.TZ; else process.env.TZ = zone;
  }
});
