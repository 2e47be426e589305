// The cases file of bench/accuracy (gen.mjs writes it, run.mjs, report.mjs and other engines' runners
// read it). A file's text is stored once, in blobs.jsonl ({id, text}: id = the first 16 hex digits of
// its SHA-1), and a case names it as {"$blob": id} where a text stands: files[path] (the file before)
// and expect.content (the file expected after). loadCases puts the texts back.
import { readFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, dirname } from 'node:path';

export function loadCases(casesPath) {
  const blobs = new Map();
  for (const l of readFileSync(join(dirname(casesPath), 'blobs.jsonl'), 'utf8').split('\n')) {
    if (!l) continue;
    const b = JSON.parse(l);
    blobs.set(b.id, b.text);
  }
  const text = (v) => (v && typeof v === 'object' && v.$blob ? blobs.get(v.$blob) : v);
  return readFileSync(casesPath, 'utf8').split('\n').filter(Boolean).map((l) => {
    const c = JSON.parse(l);
    for (const p of Object.keys(c.files)) c.files[p] = text(c.files[p]);
    if (c.expect?.content !== undefined) c.expect.content = text(c.expect.content);
    return c;
  });
}

export function writeCases(dir, cases) {
  const ids = new Map();
  const fb = openSync(join(dir, 'blobs.jsonl'), 'w');
  const ref = (t) => {
    let id = ids.get(t);
    if (!id) {
      id = createHash('sha1').update(t).digest('hex').slice(0, 16);
      ids.set(t, id);
      writeSync(fb, JSON.stringify({ id, text: t }) + '\n');
    }
    return { $blob: id };
  };
  const fc = openSync(join(dir, 'cases.jsonl'), 'w');
  for (const c of cases) {
    const files = Object.fromEntries(Object.entries(c.files).map(([p, t]) => [p, ref(t)]));
    const expect = c.expect.content !== undefined ? { ...c.expect, content: ref(c.expect.content) } : c.expect;
    writeSync(fc, JSON.stringify({ ...c, files, expect }) + '\n');
  }
  closeSync(fc);
  closeSync(fb);
}
