// Declarations for `import wasm from 'editcore/editcore.wasm'` (and editcore-lite.wasm): what a
// bundler makes of the file depends on its loader, which TypeScript cannot see — the emitted
// file's URL (Vite, webpack's asset modules, esbuild's `file` loader) or its bytes (esbuild's
// `binary` loader). The type is both, so either recipe type-checks (`new URL(wasm, import.meta.url)`,
// `init({ wasm })`, `serveWorker({ wasm })`); init() and serveWorker() take either at run time.
declare const wasm: string & Uint8Array;
export default wasm;
