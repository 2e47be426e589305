// CommonJS entry (`require('editcore')`): the ES module loaded on first use by dynamic import()
// (Node >= 12 and every bundler support it), so the API is written once. The async functions
// work at once; the synchronous ones (applyJson, applyRequestSync) after `await init()`, as in ESM.
'use strict';
let esm = null;
let loading = null;
const load = () => (loading ??= import('./index.js').then((m) => (esm = m)));
const later = (name) => (...args) => load().then((m) => m[name](...args));
const now = (name) => (...args) => {
  if (!esm) throw new TypeError(`editcore: ${name}() is synchronous; call \`await init()\` first`);
  return esm[name](...args);
};

for (const name of ['init', 'applyRequest', 'replace', 'applyEdit', 'applyReply', 'diff', 'version', 'correctionPrompt', 'correctionApply', 'runTool', 'toolDefinitions']) exports[name] = later(name);
for (const name of ['applyJson', 'applyRequestSync', 'checkPath', 'createFixerCache', 'setCeilings']) exports[name] = now(name);
exports.memoryAdapter = (initial) => {
  if (!esm) throw new TypeError('editcore: memoryAdapter() is synchronous; call `await init()` first');
  return esm.memoryAdapter(initial);
};
/** A host whose methods wait for the ES module on their first call. */
exports.createHost = (adapter, defaults) => {
  for (const fn of ['stat', 'readFile', 'writeFile', 'delete'])
    if (typeof adapter?.[fn] !== 'function') throw new TypeError(`editcore: createHost(adapter) needs adapter.${fn}()`);
  const host = load().then((m) => m.createHost(adapter, defaults));
  return {
    applyEdit: (...args) => host.then((h) => h.applyEdit(...args)),
    applyRequest: (...args) => host.then((h) => h.applyRequest(...args)),
    applyReply: (...args) => host.then((h) => h.applyReply(...args)),
  };
};
