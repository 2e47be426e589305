// The hostile-request catalogue (issue 22): requests an attacker, a broken client or a runaway
// model could send, by category. Each case builds its request bytes and names the code the
// engine must answer (`expect`: an error code, or 'success' / 'partial').
// Sizes stay within the default input limits (64 MiB): what is tested is that such a request
// is answered in bounded time and memory, or refused early with TOO_LARGE naming the limit.
import { memoryCases } from './memory_cases.mjs';

const enc = (o) => Buffer.from(JSON.stringify(o), 'utf8');
const raw = (s) => Buffer.from(s, 'latin1'); // bytes exactly as written (\xNN escapes are bytes)
const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('');
const fileOf = (n) => lines(n, (i) => `line ${i} of the file: value_${i} = compute(${i}, "x${i % 97}")\n`);
// A 3,000-character line of 9 letters and spaces, the same for (i, salt) on every run.
const longLine = (i, salt) => {
  let x = (i * 7919 + salt * 104729 + 1) >>> 0, s = '';
  for (let k = 0; k < 3000; k++) { x = (Math.imul(x, 1103515245) + 12345) >>> 0; s += 'abcdefgh '[(x >>> 16) % 9]; }
  return s + '\n';
};
const manyFiles = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`src/dir${i % 100}/file${i}.py`, `x = ${i}\n`]));

export const cases = [
  // Section - malformed JSON: answered at once, INVALID_PARAM with the byte offset
  { id: 'json/nested-1M', cat: 'malformed JSON', expect: 'INVALID_PARAM', make: () => raw('['.repeat(1 << 20)) },
  { id: 'json/nested-object-1M', cat: 'malformed JSON', expect: 'INVALID_PARAM', make: () => raw('{"a":'.repeat(1 << 20)) },
  { id: 'json/leading-zero', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y","expected_replacements":01}}') },
  { id: 'json/number-dot', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y","expected_replacements":1.}}') },
  { id: 'json/bom-before-object', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('\xEF\xBB\xBF{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y"}}') },
  { id: 'json/raw-ff-in-string', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y\xFF"}}') },
  { id: 'json/overlong-slash', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"\xC0\xAF"}}') },
  { id: 'json/utf8-surrogate', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"\xED\xA0\x80"}}') },
  { id: 'json/truncated-sequence', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y\xE2\x82"}}') },
  { id: 'json/invalid-utf8-in-file', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"caf\xE9 x\\n"},"edit":{"old_string":"x","new_string":"y"}}') },
  { id: 'json/nul-in-path-key', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a\\u0000b":"x\\n"},"edit":{"path":"a\\u0000b","old_string":"x","new_string":"y"}}') },
  { id: 'json/dup-key-expected-hash', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw(`{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y"},"options":{"expected_hash":{"a":"${'0'.repeat(64)}","a":"${'1'.repeat(64)}"}}}`) },
  { id: 'json/unterminated-32MB-string', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"' + 'x'.repeat(32 << 20)) },
  { id: 'json/40k-duplicate-keys-deep', cat: 'malformed JSON', expect: 'INVALID_PARAM',
    make: () => raw('{"format":"replace","files":{"a":"x\\n"},"edit":{"old_string":"x","new_string":"y","options":{' + lines(40000, (i) => `"k${i}":1,`) + '"k0":1}}}') },

  // Section - size and count limits
  { id: 'size/40k-files', cat: 'size and count limits', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', files: manyFiles(40000), edit: { path: 'src/dir0/file0.py', old_string: 'x = 0', new_string: 'x = 1' } }) },
  { id: 'size/100k-files', cat: 'size and count limits', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', files: manyFiles(100000), edit: { path: 'src/dir0/file0.py', old_string: 'x = 0', new_string: 'x = 1' } }) },
  { id: 'size/10k-files-ok', cat: 'size and count limits', expect: 'success',
    make: () => enc({ format: 'replace', files: manyFiles(10000), edit: { path: 'src/dir0/file0.py', old_string: 'x = 0', new_string: 'x = 1' } }) },
  { id: 'size/40k-expected-hash', cat: 'size and count limits', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', files: { a: 'x\n' }, edit: { old_string: 'x', new_string: 'y' },
      options: { expected_hash: Object.fromEntries(Array.from({ length: 40000 }, (_, i) => [`f${i}`, '0'.repeat(64)])) } }) },
  { id: 'size/input-65MiB', cat: 'size and count limits', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', files: { a: 'x'.repeat(65 << 20) }, edit: { old_string: 'x', new_string: 'y' } }) },
  { id: 'size/raise-max-input-bytes', cat: 'size and count limits', expect: 'INVALID_PARAM',
    make: () => enc({ format: 'replace', files: { a: 'x\n' }, edit: { old_string: 'x', new_string: 'y' }, options: { limits: { max_input_bytes: 9e15 } } }) },
  { id: 'size/raise-fuzzy-work', cat: 'size and count limits', expect: 'INVALID_PARAM',
    make: () => enc({ format: 'replace', files: { a: 'x\n' }, edit: { old_string: 'x', new_string: 'y' }, options: { limits: { fuzzy_work: 9e15 } } }) },
  { id: 'size/replace-all-grows', cat: 'size and count limits', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', files: { a: 'ab'.repeat(1 << 20) }, edit: { old_string: 'a', new_string: 'x'.repeat(64), replace_all: true } }) },

  // Section - pathological matching
  { id: 'match/68KB-old-string-no-match', cat: 'pathological matching', expect: 'NO_MATCH',
    make: () => enc({ format: 'replace', files: { a: fileOf(20000) }, edit: { old_string: lines(1000, (i) => `nothing like this ${i} ever; + (x) [y] {z}\n`), new_string: 'y' } }) },
  { id: 'match/strategies-empty', cat: 'pathological matching', expect: 'INVALID_PARAM',
    make: () => enc({ format: 'replace', files: { a: 'x = 1\n' }, edit: { old_string: 'x = 1', new_string: 'x = 2' }, options: { strategies: [] } }) },
  { id: 'match/old-string-leading-bom', cat: 'pathological matching', expect: 'success',
    make: () => enc({ format: 'replace', files: { a: '\uFEFFx = 1\ny = 2\n' }, edit: { old_string: '\uFEFFx = 1\n', new_string: 'x = 3\n' } }) },
  { id: 'match/fuzzy-1MB', cat: 'pathological matching', expect: 'NO_MATCH',
    make: () => enc({ format: 'replace', files: { a: fileOf(14000) }, edit: { old_string: lines(40, (i) => `zzz ${i} qq\n`), new_string: 'y' }, options: { strategies: ['exact', 'fuzzy'] } }) },
  // Long lines: one edit distance of two long texts can cost more cells than the whole budget
  // (the fuzzy strategy and the NO_MATCH diagnosis compare windows and lines in one call each).
  { id: 'match/long-lines-no-line-in-common', cat: 'pathological matching', expect: 'NO_MATCH',
    make: () => enc({ format: 'replace', files: { a: lines(400, (i) => longLine(i, 0)) }, edit: { old_string: lines(300, (i) => longLine(i, 1)), new_string: 'y\n' } }) },
  { id: 'match/long-lines-some-in-common', cat: 'pathological matching', expect: 'NO_MATCH',
    make: () => enc({ format: 'replace', files: { a: lines(400, (i) => longLine(i, 0)) }, edit: { old_string: lines(300, (i) => longLine(i, i % 2)), new_string: 'y\n' } }) },
  { id: 'match/long-lines-fuzzy', cat: 'pathological matching', expect: ['NO_MATCH', 'TOO_LARGE'],
    make: () => enc({ format: 'replace', files: { a: lines(400, (i) => longLine(i, 0)) }, edit: { old_string: lines(300, (i) => longLine(i, 1)), new_string: 'y\n' }, options: { strategies: ['exact', 'fuzzy'], fuzzy_threshold: 0.5 } }) },
  { id: 'match/1M-identical-lines-ambiguous', cat: 'pathological matching', expect: 'AMBIGUOUS',
    make: () => enc({ format: 'replace', files: { a: 'x\n'.repeat(1 << 20) }, edit: { old_string: 'x\nx\n', new_string: 'y\n' } }) },
  { id: 'match/lazy-20k-markers-100k-lines', cat: 'pathological matching', expect: ['success', 'MALFORMED_EDIT', 'NO_MATCH', 'TOO_LARGE', 'AMBIGUOUS'],
    make: () => enc({ format: 'lazy', files: { a: fileOf(100000) }, edit: { snippet: lines(20000, (i) => `// ... existing code ...\nline ${i * 5} of the file: value_${i * 5} = compute(${i * 5}, "x${(i * 5) % 97}")${i === 19999 ? ' + 1' : ''}\n`) } }) },
  { id: 'match/lazy-lines-occur-ten-times', cat: 'pathological matching', expect: ['AMBIGUOUS', 'NO_MATCH'], message: /occur|times|places/,
    make: () => enc({ format: 'lazy', files: { a: lines(10, () => 'def f():\n    return 1\n\n') }, edit: { snippet: '# ... existing code ...\ndef f():\n    return 2\n# ... existing code ...\n' } }) },

  // Section - per-dialect extremes
  { id: 'dialect/sr-9999-trim-end', cat: 'per-dialect extremes', expect: ['success', 'partial'],
    make: () => enc({ format: 'search_replace', files: { a: lines(10000, (i) => `v${i} = ${i}   \n`) },
      edit: { text: lines(9999, (i) => `<<<<<<< SEARCH\nv${i} = ${i}\n=======\nv${i} = ${i + 1}\n>>>>>>> REPLACE\n`) } }) },
  { id: 'dialect/sr-9999-indent', cat: 'per-dialect extremes', expect: ['success', 'partial'],
    make: () => enc({ format: 'search_replace', files: { a: lines(10000, (i) => `        v${i} = ${i}\n        w${i} = 0\n`) },
      edit: { text: lines(9999, (i) => `<<<<<<< SEARCH\nv${i} = ${i}\nw${i} = 0\n=======\nv${i} = ${i + 1}\nw${i} = 0\n>>>>>>> REPLACE\n`) } }) },
  { id: 'dialect/sr-9999-indent-1MB', cat: 'per-dialect extremes', expect: 'TOO_LARGE',
    make: () => enc({ format: 'search_replace', files: { a: lines(10000, (i) => `        v${i} = compute_the_value(${i}, "padding text to make lines long ok")\n        w${i} = 0\n`) },
      edit: { text: lines(9999, (i) => `<<<<<<< SEARCH\nv${i} = compute_the_value(${i}, "padding text to make lines long ok")\nw${i} = 0\n=======\nv${i} = 1\nw${i} = 0\n>>>>>>> REPLACE\n`) } }) },
  { id: 'dialect/udiff-9999-devnull-creates', cat: 'per-dialect extremes', expect: 'success',
    make: () => enc({ format: 'unified_diff', files: {}, edit: { text: lines(9999, (i) => `--- /dev/null\n+++ b/new/f${i}.txt\n@@ -0,0 +1 @@\n+x${i}\n`) } }) },
  { id: 'dialect/udiff-10001-hunks', cat: 'per-dialect extremes', expect: 'TOO_LARGE',
    make: () => enc({ format: 'unified_diff', files: { a: fileOf(20002) }, edit: { text: '--- a/a\n+++ b/a\n' + lines(10001, (i) => `@@ -${2 * i + 1},1 +${2 * i + 1},1 @@\n-line ${2 * i} of the file: value_${2 * i} = compute(${2 * i}, "x${(2 * i) % 97}")\n+changed ${i}\n`) } }) },
  { id: 'dialect/codex-add-file-padded-path', cat: 'per-dialect extremes', expect: 'success', files: ['b'],
    make: () => enc({ format: 'codex_patch', files: {}, edit: { text: '*** Begin Patch\n*** Add File:   b\n+hello\n*** End Patch\n' } }) },
  { id: 'dialect/codex-9999-adds', cat: 'per-dialect extremes', expect: 'success',
    make: () => enc({ format: 'codex_patch', files: {}, edit: { text: '*** Begin Patch\n' + lines(9999, (i) => `*** Add File: d/f${i}.txt\n+x${i}\n`) + '*** End Patch\n' } }) },
  { id: 'dialect/sr-10001-blocks', cat: 'per-dialect extremes', expect: 'TOO_LARGE',
    make: () => enc({ format: 'search_replace', files: { a: 'x\n' }, edit: { text: lines(10001, () => '<<<<<<< SEARCH\nx\n=======\nx\n>>>>>>> REPLACE\n') } }) },

  // Section - per-profile extremes
  ...[100, 400, 9999].map((n) => ({ id: `profile/aider-${n}-failed-blocks-1MB`, cat: 'per-profile extremes', profile: 'aider',
    expect: n > 100 ? 'TOO_LARGE' : 'NO_MATCH',
    make: () => enc({ format: 'search_replace', profile: 'aider', files: { 'a.py': fileOf(14000) },
      edit: { dialect: 'aider', text: lines(n, (i) => `a.py\n\`\`\`\n<<<<<<< SEARCH\nnot in the file ${i}\n=======\nx\n>>>>>>> REPLACE\n\`\`\`\n\n`) } }) })),
  { id: 'profile/aider-40k-chat-files', cat: 'per-profile extremes', profile: 'aider', expect: 'TOO_LARGE',
    make: () => enc({ format: 'search_replace', profile: 'aider', files: { 'a.py': 'x = 1\n' },
      edit: { dialect: 'aider', text: 'a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n',
        options: { chat_files: ['a.py', ...Array.from({ length: 40000 }, (_, i) => `c/f${i}.py`)] } } }) },
  { id: 'profile/aider-udiff-chat-files-40k', cat: 'per-profile extremes', profile: 'aider', expect: 'TOO_LARGE',
    make: () => enc({ format: 'unified_diff', profile: 'aider', files: { 'a.py': 'x = 1\n' },
      edit: { text: '```diff\n--- a.py\n+++ a.py\n@@ @@\n-x = 1\n+x = 2\n```\n',
        options: { chat_files: ['a.py', ...Array.from({ length: 40000 }, (_, i) => `c/f${i}.py`)] } } }) },
  { id: 'profile/aider-udiff-removed-line-absent', cat: 'per-profile extremes', profile: 'aider', expect: ['NO_MATCH', 'MALFORMED_EDIT'],
    make: () => enc({ format: 'unified_diff', profile: 'aider', files: { 'a.py': 'x = 1\ny = 2\n' },
      edit: { text: '```diff\n--- a.py\n+++ a.py\n@@ @@\n-z = 9\n+z = 10\n```\n' } }) },
  { id: 'profile/gemini-68KB-no-match', cat: 'per-profile extremes', profile: 'gemini', expect: 'NO_MATCH',
    make: () => enc({ format: 'replace', profile: 'gemini', files: { a: fileOf(20000) }, edit: { old_string: lines(1000, (i) => `nothing like this ${i} ever; + (x) [y] {z}\n`), new_string: 'y' } }) },
  { id: 'profile/cline-9999-blocks', cat: 'per-profile extremes', profile: 'cline', expect: ['success', 'partial'],
    make: () => enc({ format: 'search_replace', profile: 'cline', files: { a: lines(10000, (i) => `v${i} = ${i}\n`) },
      edit: { dialect: 'cline', text: lines(9999, (i) => `------- SEARCH\nv${i} = ${i}\n=======\nv${i} = ${i + 1}\n+++++++ REPLACE\n`) } }) },
  { id: 'profile/roo-9999-fuzzy-blocks', cat: 'per-profile extremes', profile: 'roo', expect: ['NO_MATCH', 'TOO_LARGE', 'partial'],
    make: () => enc({ format: 'search_replace', profile: 'roo', files: { a: fileOf(14000) },
      edit: { dialect: 'roo', text: lines(9999, (i) => `<<<<<<< SEARCH\n:start_line:${i + 1}\n-------\nnot here ${i}\n=======\nx\n>>>>>>> REPLACE\n`), options: { fuzzy_threshold: 0.5 } } }) },
  { id: 'profile/roo-long-lines-block', cat: 'per-profile extremes', profile: 'roo', expect: ['NO_MATCH', 'TOO_LARGE'],
    make: () => enc({ format: 'search_replace', profile: 'roo', files: { a: lines(400, (i) => longLine(i, 0)) },
      edit: { dialect: 'roo', text: `<<<<<<< SEARCH\n-------\n${lines(300, (i) => longLine(i, 1))}=======\nx\n>>>>>>> REPLACE\n` } }) },
  { id: 'profile/codex-9999-hunks', cat: 'per-profile extremes', profile: 'codex', expect: ['success', 'partial'],
    make: () => enc({ format: 'codex_patch', profile: 'codex', files: { a: lines(10000, (i) => `v${i} = ${i}\n`) },
      edit: { text: '*** Begin Patch\n*** Update File: a\n' + lines(9999, (i) => `@@\n-v${i} = ${i}\n+v${i} = ${i + 1}\n`) + '*** End Patch\n' } }) },
  { id: 'profile/claude-40k-files', cat: 'per-profile extremes', profile: 'claude', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', profile: 'claude', files: manyFiles(40000), edit: { path: 'src/dir0/file0.py', old_string: 'x = 0', new_string: 'x = 1' } }) },
  // Section - lazy placement at scale (issue 27 item 5): every shape answered in near-linear time,
  // or refused early with TOO_LARGE naming options.limits.fuzzy_work. Before this section's fixes
  // (main at ab048e3): lazy/new-functions-between-markers 38 s (issue 27's 41.7 s shape), lazy/
  // signature-and-body-changed 54 s, lazy/80k-markers-over-closers 46 s, lazy/40k-closers 9 s,
  // lazy/100k-new-lines-one-anchor > 60 s, lazy/flat-python-block-100k 6 s (then a wrong decline).
  ...lazyScaleCases(),

  // Section - memory bounds (issue 27): memory_cases.mjs
  ...memoryCases,
];

// Files of small functions and snippets of thousands of segments (bench/hostile/README in
// BENCHMARKS.md, "Lazy placement at scale").
function lazyScaleCases() {
  const M = '// ... existing code ...\n';
  const jsfn = (i) => `function f${i}(x) {\n  return x + ${i};\n}\n`;
  const funcs = (n) => Array.from({ length: n }, (_, i) => jsfn(i)).join('\n');
  const lazy = (file, snippet, path = 'a.js') => enc({ format: 'lazy', files: { [path]: file }, edit: { path, snippet } });
  const OK = ['success', 'partial'];
  return [
    { id: 'lazy/new-functions-between-markers', cat: 'lazy placement at scale', expect: ['AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(funcs(20000), M + lines(5000, (k) => `function g${k}(x) {\n  return x - ${k};\n}\n` + M)) },
    { id: 'lazy/signature-and-body-changed', cat: 'lazy placement at scale', expect: [...OK, 'TOO_LARGE'],
      make: () => lazy(funcs(20000), M + lines(5000, (k) => `function f${4 * k}(x, y) {\n  return y * ${4 * k};\n}\n` + M)) },
    { id: 'lazy/body-changed', cat: 'lazy placement at scale', expect: OK,
      make: () => lazy(funcs(20000), M + lines(5000, (k) => `function f${4 * k}(x) {\n  return x * ${4 * k};\n}\n` + M)) },
    { id: 'lazy/40k-closers', cat: 'lazy placement at scale', expect: ['AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(funcs(20000), lines(40000, () => M + '}\n') + M) },
    { id: 'lazy/80k-markers-over-closers', cat: 'lazy placement at scale', expect: ['AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(funcs(20000), lines(80000, () => M + '}\n')) },
    { id: 'lazy/100k-new-lines-one-anchor', cat: 'lazy placement at scale', expect: [...OK, 'TOO_LARGE'],
      make: () => lazy(funcs(20000), M + 'function f100(x) {\n' + lines(100000, (i) => `  step${i}();\n`) + M) },
    { id: 'lazy/flat-block-100k', cat: 'lazy placement at scale', expect: [...OK, 'TOO_LARGE'],
      make: () => lazy('// head\nfunction main() {\n' + lines(100000, (i) => `  step${i}();\n`) + '}\n// tail\n',
        M + 'function main() {\n' + lines(100000, (i) => i === 50000 ? '  changed();\n' : `  step${i}();\n`) + '}\n' + M) },
    { id: 'lazy/flat-python-block-100k', cat: 'lazy placement at scale', expect: [...OK, 'TOO_LARGE'],
      make: () => lazy('import x\n\ndef main():\n' + lines(100000, (i) => `    step${i}()\n`) + '\n\ndef tail():\n    pass\n',
        '# ... existing code ...\ndef main():\n' + lines(100000, (i) => i === 50000 ? '    changed()\n' : `    step${i}()\n`) + '# ... existing code ...\n', 'a.py') },
    { id: 'lazy/same-head-40k', cat: 'lazy placement at scale', expect: ['AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(lines(40000, (i) => `value = compute(${i});\n`), lines(5000, (k) => M + `value = compute(${k}, extra);\n`) + M) },
    { id: 'lazy/segments-reversed', cat: 'lazy placement at scale', expect: [...OK, 'NO_MATCH', 'TOO_LARGE'],
      make: () => lazy(funcs(20000), M + lines(5000, (k) => `function f${4 * (4999 - k)}(x) {\n  return x * 2;\n}\n` + M)) },
    { id: 'lazy/python-new-functions-after-markers', cat: 'lazy placement at scale', expect: [...OK, 'AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(lines(20000, (i) => `def f${i}(x):\n    y = x + ${i}\n    return y\n\n\n`),
        '# ... existing code ...\n' + lines(5000, (k) => `    return y\n\n\ndef g${k}(x):\n    return x\n# ... existing code ...\n`), 'a.py') },
    { id: 'lazy/python-5000-new-definitions', cat: 'lazy placement at scale', expect: [...OK, 'NO_MATCH', 'TOO_LARGE'],
      make: () => lazy(lines(20000, (i) => `def f${i}(x):\n    return x + ${i}\n\n\n`),
        '# ... existing code ...\n' + lines(5000, (k) => `def f${4 * k}(x):\n    return x + ${4 * k}\n\n\ndef g${k}(values):\n    total = sum(values) + ${k}\n    return total\n# ... existing code ...\n`), 'a.py') },
    // Diff-style runs (issue 30, fifteenth pass's review): a `+` line's place in its run was found
    // by walking back over the run, and a `+` line's `-` twin by walking along its text's lines;
    // both quadratic, now one step a line. Native CPU before -> after: 60,000 `-` then `+` lines
    // 1.32 -> 0.12 s (80,000: 2.5 -> 0.13 s); 40,000 `+  x();` lines 2.15 -> 0.12 s (80,000:
    // 8.8 -> 0.25 s, but its peak, 113 MB on 720 KB, is over the bound: ~70 MB of it is the
    // syntax check's tree of the 80,000-line result).
    { id: 'lazy/diff-60k-minus-then-60k-plus', cat: 'lazy placement at scale', expect: ['success', 'NO_MATCH', 'AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(lines(60000, (i) => `x_${i} = ${i};\n`), lines(60000, (i) => `-x_${i} = ${i};\n`) + lines(60000, (i) => `+y_${i} = ${i};\n`)) },
    { id: 'lazy/diff-40k-plus-lines-one-text', cat: 'lazy placement at scale', expect: [...OK, 'NO_MATCH', 'AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy('start();\n' + lines(10, (i) => `v${i}();\n`) + 'end();\n', ' start();\n-v0();\n' + lines(40000, () => '+  x();\n') + ' v1();\n') },
    // A new opener over look-alike sibling openers (issue 30, seventeenth pass): compared with every
    // opener of every gap between two anchors, 250 gaps of 400 `if (...) {` lines took 17.3 s of
    // native CPU; the gap's first new opener only: 0.13 s.
    { id: 'lazy/look-alike-openers-250-gaps', cat: 'lazy placement at scale', expect: [...OK, 'NO_MATCH', 'AMBIGUOUS', 'TOO_LARGE'],
      make: () => lazy(lines(250, (k) => `anchor_${k}();\n` + lines(400, (i) => `  if (value_${k}_${i} > limit) {\n`)) + 'end();\n',
        lines(250, (k) => `anchor_${k}();\n` + lines(399, (i) => `  if (value_${k}_${i}x > limit) {\n`)) + 'end();\n') },
    // Notes restating the file's headings (issue 30, eighteenth pass, rule 19): each became the
    // file's heading line, a line the snippet never wrote, and every lookup of it scanned the file
    // (40,000 notes over 120,000 lines: 2.49 s of native CPU); the file's map widened once: 0.11 s.
    // The syntax guard off: its parse of 3.3 MB is measured by the other shapes.
    { id: 'lazy/notes-restating-40k-headings', cat: 'lazy placement at scale', expect: OK,
      make: () => enc({ format: 'lazy', options: { syntax: 'off' },
        files: { 'a.js': lines(40000, (i) => `// Section ${i} alpha\nf${i}();\n\n`) },
        edit: { path: 'a.js', snippet: lines(40000, (i) => `// Section ${i} alpha remains same\nf${i}();\n\n`) + 'g();\n' } }) },
    { id: 'lazy/lua-5000-segments', cat: 'lazy placement at scale', expect: OK,
      make: () => lazy(lines(25000, (i) => `local function f${i}(x)\n  local y = x + ${i}\n  return y\nend\n`),
        lines(2500, (k) => `-- ... existing code ...\nlocal function f${10 * k}(x)\n  local y = x * ${10 * k}\n  return y\nend\n`) + '-- ... existing code ...\n', 'a.lua') },
  ];
}
