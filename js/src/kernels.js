// The SIMD kernels (wasm/simd_kernels.c, carried as base64 in dist/editcore-kernels.mjs): where the
// JS engine runs WebAssembly SIMD, each engine module gets an instance on its own memory as
// Module.editcoreKernels, and its loading, LF counting and substring search over large files run
// sixteen bytes a step (wasm/host_kernels.c). Elsewhere (Safari before 16.4) nothing is set and
// the engine's portable code runs: the same answers, more slowly.
import kernelBytes from '../dist/editcore-kernels.mjs';

let compiled; // undefined: not tried yet; null: this JS engine cannot run it

function decode(base64) {
  const bin = atob(base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function kernelModule() {
  if (compiled === undefined) {
    try {
      const bytes = decode(kernelBytes);
      compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    } catch {
      compiled = null; // a host that forbids compiling (CSP without wasm-unsafe-eval) also loads no engine
    }
  }
  return compiled;
}

/** The kernels' exports on `memory` (a WebAssembly.Memory), or null where they cannot run. */
export function kernelsFor(memory) {
  const mod = memory instanceof WebAssembly.Memory ? kernelModule() : null;
  return mod ? new WebAssembly.Instance(mod, { env: { memory } }).exports : null;
}

/** The memory an instance exports (Emscripten minifies its name). */
export function memoryOf(instance) {
  return Object.values(instance.exports).find((v) => v instanceof WebAssembly.Memory) ?? null;
}
