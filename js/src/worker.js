// `editcore/worker`: createWorkerClient (the page side) and serveWorker (the worker side).
export { createWorkerClient } from './worker-client.js';
export { serveWorker } from './worker-serve.js';
