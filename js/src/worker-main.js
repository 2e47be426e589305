// `editcore/worker-main`: a ready worker. `new Worker(new URL('editcore/worker-main', ...), { type:
// 'module' })`, or let createWorkerClient() start it. It finds editcore.wasm by URL, or takes it
// from the client's init({ wasm }).
import { serveWorker } from './worker-serve.js';

serveWorker();
