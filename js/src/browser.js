// The package's entry for browsers and web workers (the `browser`, `worker` and `import`
// conditions): the same API as index.js, with only relative imports, so it also runs unbundled
// (a page's <script type="module">, a module worker). The .wasm is found by URL unless init({ wasm }).
import * as web from './platform-web.js';
import { platform } from './platform.js';

Object.assign(platform, web);
export * from './engine.js';
export { createHost, memoryAdapter, checkPath } from './host.js';
export { applyRequest, correctionPrompt, correctionApply, createFixerCache } from './fixer.js'; // applyRequest with the fixer hook
export { runTool, toolDefinitions } from './tools.js';
