// Declarations of editcore/worker (declared once here; worker.d.ts re-exports them).
import type { Request, Response, ReplaceOptions, Files, Edit, ApplyOptions, DiffOptions, DiffResult, ReplyOptions, CorrectionOptions } from './index.cjs';

/** editcore.wasm in a form a worker can receive (cloned by postMessage). */
export type WorkerWasm = ArrayBuffer | ArrayBufferView | string | WebAssembly.Module;

/** A Worker, or anything that posts and receives messages like one. */
export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: string, listener: (event: any) => void): void;
  terminate?(): void;
}

/** The main API as promises, answered by the worker. */
export interface WorkerClient {
  readonly worker: WorkerLike;
  /** As init() on the main thread: `wasm` the full module, `wasmLite` the first download, `wasmTools` the whole engine, `full` to load it now. */
  init(options?: { wasm?: WorkerWasm; wasmLite?: WorkerWasm; wasmTools?: WorkerWasm; full?: boolean }): Promise<void>;
  applyRequest(request: Request): Promise<Response>;
  applyJson(request: string | ArrayBuffer | ArrayBufferView): Promise<string>;
  replace(content: string, oldString: string, newString: string, options?: ReplaceOptions): Promise<Response>;
  applyEdit(files: Files, edit: Edit, options?: ApplyOptions): Promise<Response>;
  applyReply(files: Files, replyText: string, options?: ReplyOptions): Promise<Response>;
  diff(before: string | null, after: string, options?: DiffOptions): Promise<DiffResult>;
  version(): Promise<string>;
  /** The self-correction steps (a fixer, being a function, stays on the page: call your model between them). */
  correctionPrompt(failed: Request, options?: CorrectionOptions): Promise<Response>;
  correctionApply(failed: Request, reply: string, options?: CorrectionOptions & { promptFiles?: Files }): Promise<Response>;
  /** Stops the worker; pending calls are rejected. */
  terminate(): void;
}

/** A client over `worker` (default: a module worker running editcore/worker-main). */
export function createWorkerClient(worker?: WorkerLike, options?: { wasm?: WorkerWasm; wasmTools?: WorkerWasm }): WorkerClient;

/** Inside a worker: answers a client's calls. `options.wasm` for bundles that carry the .wasm. */
export function serveWorker(
  options?: { wasm?: WorkerWasm; wasmTools?: WorkerWasm },
  scope?: { addEventListener(type: 'message', listener: (event: { data: any }) => void): void; postMessage(message: unknown): void },
): void;
