// Browsers, web workers, bundlers (the `default` branch of the package's `#platform` import):
// no Node built-ins are reachable from here. The .wasm is the asset beside the glue, found by
// the `new URL(..., import.meta.url)` pattern that Vite and webpack 5 rewrite to the emitted file.
export function defaultWasm() {
  let url;
  try {
    url = new URL('../dist/editcore.wasm', import.meta.url);
  } catch {
    // esbuild `cjs`/`iife` output leaves import.meta empty: there is no address to start from.
    throw new TypeError("editcore: cannot locate editcore.wasm (import.meta.url is empty in this bundle, e.g. esbuild format 'cjs' or 'iife'); pass it: init({ wasm: bytes | URL | Response | WebAssembly.Module })");
  }
  return url;
}

/** No fast path outside Node: responses are decoded by TextDecoder. */
export const asciiDecoder = null;

/** SubtleCrypto where the page has it (secure contexts: https, localhost; workers of those). */
export const subtle = globalThis.crypto?.subtle ?? null;
