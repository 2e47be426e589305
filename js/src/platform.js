// What the engine takes from its platform, set by the entry that loads it: index.js (through the
// package's `#platform` import: Node or web) or browser.js (web, by a relative import, so the
// package also runs unbundled in a page or a module worker, where `#...` imports do not resolve).
export const platform = {
  /** editcore.wasm in any form init() accepts, found without help from the host. */
  defaultWasm: null,
  /** editcore-lite.wasm likewise (the first download; the full module comes when a request needs it). */
  defaultLiteWasm: null,
  /** editcore-tools.wasm likewise (the whole engine: the agent tools, write protocol, self-correction). */
  defaultToolsWasm: null,
  /** A language's syntax module, dist/syntax/<language>.wasm, in any form init() accepts. */
  syntaxWasm: null,
  /** A fast decoder of ASCII responses, or null (TextDecoder is used). */
  asciiDecoder: null,
  /** SubtleCrypto for SHA-256 (the fixer's cache and lock), or null where there is none. */
  subtle: null,
};
