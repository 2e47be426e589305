// Memory-bound shapes (issue 27 item 5): requests within every limit whose peak memory had
// passed 4 x input + 64 MB (docs/limits.md), and the sweep for others like them: many matches,
// whole files, many files, many blocks over several files, many small edits, long lines, many
// hunks and chunks. Each is answered natively within the bound (bench/hostile/run.mjs asserts
// it) or refused early with TOO_LARGE naming the limit.
const enc = (o) => Buffer.from(JSON.stringify(o), 'utf8');
const lines = (n, f) => Array.from({ length: n }, (_, i) => f(i)).join('');
const codeLine = (i) => `line ${i}: value_${i} = compute(${i}, "x${i % 97}")\n`;
const padded = (f, i) => `v${f}_${i} = compute(${i}, "x${i % 97}")   # some padding text\n`;
const block = (search, replace) => `<<<<<<< SEARCH\n${search}=======\n${replace}>>>>>>> REPLACE\n`;
const jsLine = (tag) => (i) => `export const value_${i} = compute_${tag}(${i}, "padding text here"); // c\n`;
const cat = 'memory bounds';
const multi = ['success', 'partial']; // partial: a diff past diff_max_bytes is cut (the edit applied)

export const memoryCases = [
  // Many matches: replace_all kept one record per match (88 bytes) next to the new file.
  { id: 'mem/replace-all-1M-matches', cat, expect: multi,
    make: () => enc({ format: 'replace', files: { a: lines(1 << 20, codeLine) }, edit: { old_string: 'compute', new_string: 'calc', replace_all: true } }) },
  { id: 'mem/replace-all-1M-one-byte-matches', cat, expect: multi,
    make: () => enc({ format: 'replace', files: { a: 'ab'.repeat(1 << 20) }, edit: { old_string: 'a', new_string: 'c', replace_all: true } }) },
  { id: 'mem/replace-all-2M-places-past-max-lines', cat, expect: 'TOO_LARGE', message: /max_lines/,
    make: () => enc({ format: 'replace', files: { a: 'ab'.repeat(2 << 20) }, edit: { old_string: 'a', new_string: 'c', replace_all: true } }) },
  { id: 'mem/replace-all-expected-1M', cat, expect: multi,
    make: () => enc({ format: 'replace', files: { a: lines(1 << 20, codeLine) }, edit: { old_string: 'compute', new_string: 'calc', expected_replacements: 1 << 20 } }) },
  { id: 'mem/gemini-replace-all-1M', cat, profile: 'gemini', expect: multi,
    make: () => enc({ format: 'replace', profile: 'gemini', files: { a: lines(1 << 20, codeLine) }, edit: { old_string: 'compute', new_string: 'calc', expected_replacements: 1 << 20 } }) },
  // Amplification: refused before the matches or the new file are built.
  { id: 'mem/replace-all-amplify-1M', cat, expect: 'TOO_LARGE', message: /max_input_bytes/,
    make: () => enc({ format: 'replace', files: { a: 'ab'.repeat(1 << 20) }, edit: { old_string: 'a', new_string: 'x'.repeat(40), replace_all: true } }) },
  { id: 'mem/replace-all-amplify-8M', cat, expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', files: { a: 'ab'.repeat(8 << 20) }, edit: { old_string: 'a', new_string: 'x'.repeat(64), replace_all: true } }) },
  { id: 'mem/gemini-amplify-1M', cat, profile: 'gemini', expect: 'TOO_LARGE',
    make: () => enc({ format: 'replace', profile: 'gemini', files: { a: 'ab'.repeat(1 << 20) }, edit: { old_string: 'a', new_string: 'x'.repeat(40), expected_replacements: 1 << 20 } }) },
  // Whole files: a 30 MB rewrite, a 30 MB file created, every line changed.
  { id: 'mem/whole-file-30MB-rewrite', cat, expect: multi,
    make: () => { const old = lines(600000, codeLine); return enc({ format: 'whole_file', files: { a: old }, edit: { path: 'a', content: old.replaceAll('compute', 'calc') } }); } },
  { id: 'mem/whole-file-30MB-create', cat, expect: multi,
    make: () => enc({ format: 'whole_file', files: {}, edit: { path: 'a', content: lines(600000, codeLine) } }) },
  { id: 'mem/whole-file-15MB-each', cat, expect: multi,
    make: () => { const old = lines(250000, codeLine); return enc({ format: 'whole_file', files: { a: old }, edit: { path: 'a', content: old.replaceAll('value', 'v') } }); } },
  // Replies: 10,000 files; 9,990 blocks over ten 400 KB files (each block its own step).
  { id: 'mem/reply-10k-files', cat, expect: multi,
    make: () => enc({ format: 'reply', files: Object.fromEntries(Array.from({ length: 10000 }, (_, i) => [`src/f${i}.py`, `x = ${i}\n`])),
      edit: { text: lines(10000, (i) => `src/f${i}.py\n\`\`\`\n${block(`x = ${i}\n`, `x = ${i + 1}\n`)}\`\`\`\n\n`) } }) },
  { id: 'mem/reply-9990-blocks-10-files', cat, expect: multi,
    make: () => { const files = {}; for (let f = 0; f < 10; f++) files[`f${f}.py`] = lines(8000, (i) => padded(f, i));
      return enc({ format: 'reply', files, edit: { text: lines(9990, (i) => { const f = i % 10, k = Math.floor(i / 10) * 8;
        return `f${f}.py\n\`\`\`\n${block(padded(f, k), `v${f}_${k} = 1\n`)}\`\`\`\n\n`; }) } }); } },
  { id: 'mem/reply-9999-diffs', cat, expect: multi,
    make: () => enc({ format: 'reply', files: Object.fromEntries(Array.from({ length: 9999 }, (_, i) => [`src/f${i}.py`, `x = ${i}\n`])),
      edit: { text: lines(9999, (i) => `Change ${i}:\n\`\`\`diff\n--- a/src/f${i}.py\n+++ b/src/f${i}.py\n@@ -1 +1 @@\n-x = ${i}\n+x = ${i + 1}\n\`\`\`\n\n`) } }) },
  { id: 'mem/reply-9999-codex-patches', cat, expect: multi,
    make: () => enc({ format: 'reply', files: Object.fromEntries(Array.from({ length: 9999 }, (_, i) => [`src/f${i}.py`, `x = ${i}\n`])),
      edit: { text: lines(9999, (i) => `*** Begin Patch\n*** Update File: src/f${i}.py\n@@\n-x = ${i}\n+x = ${i + 1}\n*** End Patch\n\n`) } }) },
  // Many small edits: 9,999 blocks alternating over two 15 KB CRLF files (each block a step).
  { id: 'mem/reply-9999-blocks-2-small-crlf-files', cat, expect: multi,
    make: () => { const ln = (f, k, j) => `v${f}_${k} = ${j}   # some padding text to make the line longer\n`, files = {};
      for (let f = 0; f < 2; f++) files[`f${f}.py`] = lines(300, (k) => ln(f, k, 0).replace('\n', '\r\n'));
      return enc({ format: 'reply', files, edit: { text: lines(9999, (i) => { const f = i % 2, k = (i >> 1) % 300, j = Math.floor(i / 600);
        return `f${f}.py\n\`\`\`\n${block(ln(f, k, j), ln(f, k, j + 1))}\`\`\`\n\n`; }) } }); } },
  // Several large files: one diff changing every 10th line of four 14 MB files.
  { id: 'mem/udiff-4-files-14MB', cat, expect: multi,
    make: () => { const files = {}; let text = '';
      for (let f = 0; f < 4; f++) {
        files[`f${f}.txt`] = lines(280000, codeLine);
        text += `--- a/f${f}.txt\n+++ b/f${f}.txt\n` + lines(2500, (h) => { const i = h * 100 + 50;
          return `@@ -${i + 1},1 +${i + 1},1 @@\n-${codeLine(i)}+changed ${i}\n`; });
      }
      return enc({ format: 'unified_diff', files, edit: { text } }); } },
  // Many hunks and chunks on one file.
  { id: 'mem/udiff-9999-hunks', cat, expect: multi,
    make: () => enc({ format: 'unified_diff', files: { a: lines(20000, codeLine) }, edit: { text: '--- a/a\n+++ b/a\n' +
      lines(9999, (i) => `@@ -${2 * i + 1},1 +${2 * i + 1},1 @@\n-${codeLine(2 * i)}+changed ${i}\n`) } }) },
  { id: 'mem/codex-9999-chunks-400KB', cat, expect: multi,
    make: () => enc({ format: 'codex_patch', files: { a: lines(10000, (i) => padded(0, i)) }, edit: { text: '*** Begin Patch\n*** Update File: a\n' +
      lines(9999, (i) => `@@\n-${padded(0, i)}+${padded(0, i).replace('#', '#!')}`) + '*** End Patch\n' } }) },
  // Many short lines: each line costs tables (line index, hashes, diff classes) far beyond its
  // 2 or 3 bytes, so a file or an edit text has at most max_lines (1 Mi) lines.
  { id: 'mem/512K-short-lines-indent-replace-all', cat, expect: multi,
    make: () => enc({ format: 'replace', files: { a: 'x\n'.repeat(1 << 19) }, edit: { old_string: ' x', new_string: 'w', replace_all: true } }) },
  { id: 'mem/1M-line-file-created-by-a-diff', cat, expect: multi,
    make: () => enc({ format: 'unified_diff', files: {}, edit: { text: `--- /dev/null\n+++ b/a\n@@ -0,0 +1,${(1 << 20) - 4} @@\n` + '+\n'.repeat((1 << 20) - 4) } }) },
  { id: 'mem/4M-short-lines-file', cat, expect: 'TOO_LARGE', message: /max_lines/,
    make: () => enc({ format: 'replace', files: { a: 'x\n'.repeat(4 << 20) + 'y\n' }, edit: { old_string: 'y\n', new_string: 'z\n' } }) },
  { id: 'mem/5M-line-diff-text', cat, expect: 'TOO_LARGE', message: /max_lines/,
    make: () => enc({ format: 'unified_diff', files: {}, edit: { text: '--- /dev/null\n+++ b/a\n@@ -0,0 +1,5000000 @@\n' + '+\n'.repeat(5000000) } }) },
  { id: 'mem/replace-all-makes-4M-lines', cat, expect: 'TOO_LARGE', message: /max_lines/,
    make: () => enc({ format: 'replace', files: { a: 'a'.repeat(4 << 20) }, edit: { old_string: 'a', new_string: '\n', replace_all: true } }) },
  // Long lines: one 16 MB line edited once and everywhere.
  { id: 'mem/long-line-16MB-replace', cat, expect: multi,
    make: () => enc({ format: 'replace', files: { a: 'abcdefgh'.repeat(2 << 20) + '\nend\n' }, edit: { old_string: 'end', new_string: 'END' } }) },
  { id: 'mem/long-line-4MB-replace-all', cat, expect: multi,
    make: () => enc({ format: 'replace', files: { a: 'abcdefgh'.repeat(1 << 19) + '\n' }, edit: { old_string: 'c', new_string: 'C', replace_all: true } }) },
  // Syntax reports (issue 32) parse both sides of a file of a known language, up to 16 MiB a side:
  // a 30 MB .js is past it (not parsed); under it, tree-sitter's trees cost far more than the text
  // (BENCHMARKS.md, "Memory bounds": recorded, over the bound).
  { id: 'mem/syntax-js-30MB-whole-file', cat, expect: multi,
    make: () => enc({ format: 'whole_file', files: { 'big.js': lines(420000, jsLine('a')) }, edit: { path: 'big.js', content: lines(420000, jsLine('b')) } }) },
  { id: 'mem/syntax-js-1.9MB-whole-file', cat, expect: multi,
    make: () => enc({ format: 'whole_file', files: { 'big.js': lines(27000, jsLine('a')) }, edit: { path: 'big.js', content: lines(27000, jsLine('b')) } }) },
];
