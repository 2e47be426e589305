// The page's handle on the engine in its web worker: apply(request) resolves to
// { response, ms } and never blocks the page. One worker, requests answered in order.
export function createEngine(workerUrl = new URL('./worker.js', import.meta.url)) {
  const worker = new Worker(workerUrl, { type: 'module' });
  const pending = new Map();
  let next = 1;
  worker.onmessage = ({ data }) => {
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.failure) p.reject(new Error(data.failure));
    else p.resolve({ response: data.response, ms: data.ms });
  };
  worker.onerror = (e) => {
    for (const p of pending.values()) p.reject(new Error(e.message || 'the editcore worker failed'));
    pending.clear();
  };
  return {
    apply(request) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, request });
      });
    },
    terminate() { worker.terminate(); },
  };
}
