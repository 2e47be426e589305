// The page side of editcore/worker: the main API as promises answered by a worker that runs the
// engine (src/worker-serve.js), so a 10 MB edit never blocks the page's or the extension's thread.

/**
 * A client over `worker` (default: a module worker running editcore/worker-main, which Vite and
 * webpack 5 bundle from the `new Worker(new URL(...), { type: 'module' })` pattern below).
 * `options.wasm`: editcore.wasm to hand the worker (bytes, a URL string, a WebAssembly.Module;
 * bytes and modules are cloned, not re-fetched). The methods mirror the main API and resolve
 * with the same values; a TypeError from misuse is rejected as a TypeError.
 */
export function createWorkerClient(worker, options = {}) {
  if (worker === undefined) {
    if (typeof Worker !== 'function') throw new TypeError('editcore: createWorkerClient() needs a Worker (none in this environment); pass one: createWorkerClient(worker)');
    worker = new Worker(new URL('./worker-main.js', import.meta.url), { type: 'module' });
  }
  if (typeof worker?.postMessage !== 'function' || typeof worker?.addEventListener !== 'function')
    throw new TypeError('editcore: createWorkerClient(worker) takes a Worker (or anything with postMessage and addEventListener)');
  const pending = new Map();
  let next = 1;
  let broken = null;
  const fail = (err) => { broken = err; for (const { reject } of pending.values()) reject(err); pending.clear(); };
  worker.addEventListener('message', (event) => {
    const { id, ok, value, error } = event.data ?? {};
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (ok) p.resolve(value);
    else p.reject(Object.assign(error?.name === 'TypeError' ? new TypeError(error.message) : new Error(error?.message), {}));
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault?.();
    fail(new Error(`editcore: the worker failed: ${event.message ?? event.error?.message ?? 'unknown error'}`));
  });
  worker.addEventListener('messageerror', () => fail(new Error('editcore: a message from the worker could not be read')));

  const call = (name) => (...args) => {
    if (broken) return Promise.reject(broken);
    return new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      try { worker.postMessage({ id, call: name, args }); } catch (e) { pending.delete(id); reject(e); }
    });
  };
  const client = {
    worker,
    init: (opts = {}) => call('init')(opts),
    // A fixer is a function and cannot cross to the worker: drive the two steps instead.
    applyRequest: (request, options) => (options?.fixer !== undefined
      ? Promise.reject(new TypeError('editcore: a fixer cannot be sent to the worker; use client.correctionPrompt and client.correctionApply around your model call'))
      : call('applyRequest')(request)),
    applyJson: call('applyJson'),
    replace: call('replace'),
    applyEdit: call('applyEdit'),
    applyReply: call('applyReply'),
    diff: call('diff'),
    version: call('version'),
    correctionPrompt: call('correctionPrompt'),
    correctionApply: call('correctionApply'),
    /** Stops the worker; pending calls are rejected. */
    terminate() { fail(new Error('editcore: the worker was terminated')); worker.terminate?.(); },
  };
  // editcore.wasm, and editcore-tools.wasm for the agent tools and self-correction (src/engine.js).
  const { wasm, wasmTools } = options;
  if (wasm !== undefined || wasmTools !== undefined) client.init({ wasm, wasmTools }).catch(() => {}); // later calls report it
  return client;
}
