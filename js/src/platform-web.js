// Browsers, web workers, bundlers (the `default` branch of the package's `#platform` import):
// no Node built-ins are reachable from here. Each .wasm is an asset beside its glue, found by
// the `new URL(..., import.meta.url)` pattern that Vite and webpack 5 rewrite to the emitted file
// (one literal per file, so bundlers see both).

// esbuild `cjs`/`iife` output leaves import.meta empty: there is no address to start from.
const unlocatable = (name) => new TypeError(`editcore: cannot locate ${name} (import.meta.url is empty in this bundle, e.g. esbuild format 'cjs' or 'iife'); pass it: init({ wasm: bytes | URL | Response | WebAssembly.Module })`);

export function defaultWasm() {
  try {
    return new URL('../dist/editcore.wasm', import.meta.url);
  } catch {
    throw unlocatable('editcore.wasm');
  }
}

export function defaultLiteWasm() {
  try {
    return new URL('../dist/editcore-lite.wasm', import.meta.url);
  } catch {
    throw unlocatable('editcore-lite.wasm');
  }
}

export function defaultToolsWasm() {
  try {
    return new URL('../dist/editcore-tools.wasm', import.meta.url);
  } catch {
    throw unlocatable('editcore-tools.wasm');
  }
}

/** A language's syntax module (docs/syntax.md), fetched when a request first needs it (Vite and
 *  webpack 5 emit every file the template can name: js/dist/syntax/*.wasm). */
export function syntaxWasm(language) {
  try {
    return new URL(`../dist/syntax/${language}.wasm`, import.meta.url);
  } catch {
    throw unlocatable(`the ${language} syntax module`);
  }
}

/** No fast path outside Node: responses are decoded by TextDecoder. */
export const asciiDecoder = null;

/** SubtleCrypto where the page has it (secure contexts: https, localhost; workers of those). */
export const subtle = globalThis.crypto?.subtle ?? null;
