// The package's main entry (`editcore`): the engine's API (src/engine.js) and the file host over
// an async adapter (src/host.js). Node-only code lives behind the `node` condition (`#platform`)
// and in `editcore/node`; nothing reachable from here imports a Node built-in in a browser or
// worker bundle.
export * from './engine.js';
export { createHost, memoryAdapter, checkPath } from './host.js';
