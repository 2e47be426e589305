// The worker side of editcore/worker: answers the client's calls (src/worker-client.js) with the
// engine, off the page's thread. Runs as a module worker or bundled into a classic one
// (esbuild `iife`, webpack `webworker`): only relative imports, no Node built-ins.
import * as api from './browser.js';

const CALLS = new Set(['init', 'applyRequest', 'applyJson', 'replace', 'applyEdit', 'applyReply', 'diff', 'version', 'correctionPrompt', 'correctionApply']);

/**
 * Serves the engine to `createWorkerClient` over `scope`'s messages (default: the worker's
 * global). `options.wasm`: editcore.wasm for bundles that carry it themselves (e.g. esbuild
 * `loader: { '.wasm': 'binary' }`), `options.wasmTools` editcore-tools.wasm likewise (the agent
 * tools, self-correction); a client may also send them with its init().
 */
export function serveWorker(options = {}, scope = globalThis) {
  const { wasm, wasmTools } = options;
  if (wasm !== undefined || wasmTools !== undefined) api.init({ wasm, wasmTools }).catch(() => {}); // a client's init() reports the failure
  scope.addEventListener('message', async (event) => {
    const { id, call, args } = event.data ?? {};
    if (typeof id !== 'number' || !CALLS.has(call)) return; // not ours
    try {
      const a = Array.isArray(args) ? args : [];
      let value;
      // applyJson is synchronous in the engine but a promise here: a request that needs the full
      // module or a syntax module waits for it, as the other calls do, instead of failing.
      if (call === 'applyJson' && typeof a[0] === 'string') value = await api.applyJsonAsync(a[0]);
      else {
        if (call === 'applyJson') await api.init();
        try {
          value = await api[call](...a);
        } catch (e) {
          if (e?.code !== 'EDITCORE_NEEDS_FULL') throw e;
          await api.init({ full: true });
          value = await api[call](...a);
        }
      }
      if (call === 'init') value = undefined; // the low-level module stays in the worker
      scope.postMessage({ id, ok: true, value });
    } catch (e) {
      scope.postMessage({ id, ok: false, error: { name: e?.name ?? 'Error', message: String(e?.message ?? e) } });
    }
  });
}
