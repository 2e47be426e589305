// The workloads of the npm-path benchmark (issue 28), shared by the Node harness and the browser
// page: what each contender runs and how its answer is checked. Inputs come from bench/gen.mjs
// (seeded): the file, W1-W3's old/new strings, W4's after-file. Every contender leaves the new
// content and, where it makes one, the diff in the caller's hands (read, not just computed).

/** The contenders of one workload: [{ name, run() -> { content, diff? } }]. `api` is the npm
 *  package's module (init done), `peers` = { gemini?, jsdiff? } as loaded by the caller. */
export function contenders(w, input, api, peers) {
  const { before } = input;
  const list = [];
  if (w === 'W1' || w === 'W2' || w === 'W3') {
    const { old, neu } = input[w];
    const request = { format: 'replace', files: { 'file.js': before }, edit: { path: 'file.js', old_string: old, new_string: neu } };
    list.push({
      name: 'editcore', run: () => {
        const f = api.applyRequestSync(request).data.files['file.js'];
        return { content: f.content, diff: f.diff };
      },
    });
    if (peers.gemini) {
      const cfg = { getUsageStatisticsEnabled: () => false, getSessionId: () => 'bench', getDebugMode: () => false };
      const ctx = { currentContent: before, params: { file_path: 'file.js', old_string: old, new_string: neu } };
      list.push({ name: 'gemini', run: async () => ({ content: (await peers.gemini.calculateReplacement(cfg, ctx)).newContent }) });
      if (peers.jsdiff) {
        list.push({
          name: 'gemini+createPatch', run: async () => {
            const content = (await peers.gemini.calculateReplacement(cfg, ctx)).newContent;
            return { content, diff: peers.jsdiff.createTwoFilesPatch('a/file.js', 'b/file.js', before, content) };
          },
        });
      }
    }
    if (w === 'W1') {
      // The runtime's own limit: find the block, check it is unique, splice.
      list.push({
        name: 'v8 indexOf+slice', run: () => {
          const i = before.indexOf(old);
          if (i < 0 || before.indexOf(old, i + 1) >= 0) throw new Error('not unique');
          return { content: before.slice(0, i) + neu + before.slice(i + old.length) };
        },
      });
    }
  }
  if (w === 'W4') {
    const { after } = input;
    const request = { format: 'whole_file', files: { 'file.js': before }, edit: { path: 'file.js', content: after } };
    list.push({
      name: 'editcore', run: () => {
        const f = api.applyRequestSync(request).data.files['file.js'];
        return { content: f.content, diff: f.diff };
      },
    });
    if (peers.jsdiff) list.push({ name: 'jsdiff createTwoFilesPatch', run: () => ({ content: after, diff: peers.jsdiff.createTwoFilesPatch('a/file.js', 'b/file.js', before, after) }) });
  }
  return list;
}

/** The input of one size from the files gen.mjs wrote: `read(name)` returns a file's text. */
export function loadInput(read) {
  const input = { before: read('file.js'), after: read('after.js') };
  for (const w of ['W1', 'W2', 'W3']) input[w] = { old: read(`${w}.old`), neu: read(`${w}.new`), expect: read(`${w}.expect`) };
  input.W4 = { expect: input.after };
  return input;
}

export const WORKLOADS = ['W1', 'W2', 'W3', 'W4'];

/** The contenders' names of workload `w` when the peers named in `peers` (['gemini', 'jsdiff']) are there. */
export function contenderNames(w, peers) {
  const none = { old: '', neu: '', expect: '' };
  const input = { before: '', after: '', W1: none, W2: none, W3: none, W4: none };
  return contenders(w, input, null, Object.fromEntries(peers.map((p) => [p, {}]))).map((c) => c.name);
}
