// Seed corpora for the fuzzers, made from every conformance vector (ours and the peers').
// Fields are joined with 0xFF as the harnesses expect (fuzz/fuzz_common.h).
import { readFileSync, readdirSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
const dirs = [resolve(here, '../../shared/conformance'), resolve(here, '../tests/conformance/vectors')];
const FF = Buffer.from([0xff]);
const bytes = (p) => Buffer.from(typeof p === 'string' ? p : p == null ? '' : JSON.stringify(p));
const join3 = (...parts) => Buffer.concat(parts.flatMap((p, i) => (i ? [FF, bytes(p)] : [bytes(p)])));
let n = 0;
const put = (harness, name, buf) => {
  const d = join(out, harness);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, `${name}`), buf);
  n++;
};
for (const dir of dirs) {
  if (!existsSync(dir)) continue;
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.jsonl'))) {
    readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).forEach((line, i) => {
      const v = JSON.parse(line);
      const name = `${f.replace('.jsonl', '')}-${i}`;
      if (v.request_text !== undefined) { put('fuzz_json', name, Buffer.from(v.request_text)); return; } // the raw bad-input requests
      if (v.tool_request) { put('fuzz_json', name, Buffer.from(JSON.stringify(v.tool_request))); return; } // a tool call's phase
      if (!v.format || !v.files) return;
      const file = Object.values(v.files)[0] ?? '';
      const e = v.edit;
      put('fuzz_json', name, Buffer.from(JSON.stringify({ format: v.format, files: v.files, edit: e, profile: v.peer })));
      const sel = Buffer.from([i & 0xff, i & 3]);
      if (v.format === 'reply') {
        const names = Object.keys(v.files);
        const fields = [names[0] ?? 'a.py', v.files[names[0]] ?? '', names[1] ?? 'b.txt', v.files[names[1]] ?? '', e.text ?? ''];
        const flags = (e.parse_only ? 1 : 0) | ((['', 'auto', 'search_replace', 'unified_diff', 'codex_patch', 'whole_file'].indexOf(e.dialect ?? '') & 7) << 1) | (e.path ? 0x40 : 0);
        put('fuzz_reply', name, Buffer.concat([Buffer.from([flags]), join3(...fields)]));
      } else if (v.format === 'replace') {
        put('fuzz_replace', name, Buffer.concat([sel, join3(file, e.old_string, e.new_string)]));
        put('fuzz_strategy', name, Buffer.concat([Buffer.from([i & 0xff]), join3(file, e.old_string, e.new_string)]));
        put('fuzz_roundtrip', name, join3(file, e.old_string, e.new_string));
      } else if (e.text !== undefined) {
        put(`fuzz_${v.format}`, name, Buffer.concat([sel, join3(file, e.text)]));
      } else if (v.format === 'whole_file') {
        put('fuzz_whole_file', name, Buffer.concat([sel, join3(file, e.content)]));
      } else if (v.format === 'insert') {
        put('fuzz_insert', name, Buffer.concat([sel, join3(file, e.new_str, 'x'.repeat(Math.max(0, Number(e.insert_line) || 0)))]));
      } else if (v.format === 'lazy') {
        put('fuzz_lazy', name, Buffer.concat([sel, join3(file, e.snippet)]));
      }
      if (v.expect?.files) for (const after of Object.values(v.expect.files)) if (typeof after === 'string') put('fuzz_diff', name, join3(file, after));
    });
  }
}
mkdirSync(join(out, 'common'), { recursive: true });
writeFileSync(join(out, 'common', 'empty'), '');
console.log(`fuzz seeds: ${n} files in ${out}`);
