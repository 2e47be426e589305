// The demo's engine, off the page's thread: a module worker that loads editcore (the npm
// package in js/) and answers {id, request} messages with {id, response, ms}, where ms is the
// engine's own time in the worker. (A stopgap until the package ships its ready worker,
// editcore/worker, on which engine.js will sit.)
import { init, applyRequestSync } from '../js/src/index.js';

const ready = init();

self.onmessage = async ({ data: { id, request } }) => {
  try {
    await ready;
    const t0 = performance.now();
    const response = applyRequestSync(request);
    self.postMessage({ id, response, ms: performance.now() - t0 });
  } catch (e) {
    self.postMessage({ id, failure: String(e?.message ?? e) });
  }
};
