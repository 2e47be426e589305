// The package's entry for Node and for bundlers given the package's `#platform` import (Node:
// the .wasm read from disk; elsewhere: found by URL). The same API as browser.js: the engine
// (src/engine.js) and the file host over an async adapter (src/host.js). Node-only code is
// reached only through the `node` condition of `#platform` and through `editcore/node`.
import * as fromPlatform from '#platform';
import { platform } from './platform.js';

Object.assign(platform, fromPlatform);
export * from './engine.js';
export { createHost, memoryAdapter, checkPath } from './host.js';
export { applyRequest, correctionPrompt, correctionApply, createFixerCache } from './fixer.js'; // applyRequest with the fixer hook
export { runTool, toolDefinitions } from './tools.js';
