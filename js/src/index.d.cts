// Types of the editcore package (the protocol of docs/protocol.md, as objects). This file serves
// require() (index.cjs); index.d.ts re-exports it for import, so the API is declared once.

export type Format = 'replace' | 'search_replace' | 'unified_diff' | 'codex_patch' | 'whole_file' | 'insert' | 'lazy' | 'reply';
export type Profile = 'editcore' | 'gemini' | 'cline' | 'aider' | 'roo' | 'codex' | 'claude' | 'openhands';
export type Strategy = 'exact' | 'unescape' | 'trim_end' | 'indent' | 'unicode' | 'elision' | 'anchor' | 'regex' | 'fuzzy';

/** `edit.options`: switches only peer profiles read. */
export interface PeerOptions {
  cline_version?: 'v1' | 'v2';
  fence?: [string, string];
  chat_files?: string[] | null;
  dry_run?: boolean;
  confirm?: boolean;
  raw_llm_text?: string;
  dialect?: string;
  fuzzy_threshold?: number;
  buffer_lines?: number;
}

/** The edit fields of each format (docs/protocol.md "Formats"). */
export interface EditFields {
  replace: { path?: string; old_string: string; new_string: string; expected_replacements?: number | null; replace_all?: boolean; instruction?: string; options?: PeerOptions };
  search_replace: { text: string; path?: string; dialect?: 'cline' | 'aider' | 'roo'; is_final?: boolean; parse_only?: boolean; valid_fnames?: string[]; options?: PeerOptions };
  unified_diff: { text: string; options?: PeerOptions };
  codex_patch: { text: string; options?: PeerOptions };
  whole_file: { path?: string; content: string | null; options?: PeerOptions };
  insert: { path?: string; insert_line: number; new_str: string; options?: PeerOptions };
  lazy: { path?: string; snippet: string; options?: PeerOptions };
  /** A model's raw reply (docs/reply.md); `path` names the file for blocks that name none. */
  reply: { text: string; dialect?: ReplyDialect; path?: string; parse_only?: boolean; options?: PeerOptions };
}
export type ReplyDialect = 'auto' | 'search_replace' | 'unified_diff' | 'codex_patch' | 'whole_file';

/** An edit with its format beside its fields (applyEdit, createHost): a union on `format`. */
export type Edit = { [F in Format]: { format: F } & EditFields[F] }[Format];
export type ReplaceEdit = Extract<Edit, { format: 'replace' }>;
export type SearchReplaceEdit = Extract<Edit, { format: 'search_replace' }>;
export type UnifiedDiffEdit = Extract<Edit, { format: 'unified_diff' }>;
export type CodexPatchEdit = Extract<Edit, { format: 'codex_patch' }>;
export type WholeFileEdit = Extract<Edit, { format: 'whole_file' }>;
export type InsertEdit = Extract<Edit, { format: 'insert' }>;
export type LazyEdit = Extract<Edit, { format: 'lazy' }>;
export type ReplyEditRequest = Extract<Edit, { format: 'reply' }>;

export interface Limits {
  max_input_bytes?: number; max_lines?: number; max_line_bytes?: number; max_blocks?: number;
  regex_match_limit?: number; regex_depth_limit?: number; fuzzy_work?: number; diff_work?: number;
}

/** Request options (docs/protocol.md "Options"). */
export interface Options {
  diff_context?: number;
  diff_max_bytes?: number;
  strategies?: Strategy[];
  fuzzy_threshold?: number;
  line_hint?: number;
  /** unified_diff and reply: leading path components dropped from diff headers (patch -pN). */
  strip?: number;
  /** unified_diff and reply: the diff applied backwards (patch -R). */
  reverse?: boolean;
  /** path -> SHA-256 of the bytes the host read (64 hex digits, `sha256:` allowed): the optimistic lock. */
  expected_hash?: Record<string, string>;
  limits?: Limits;
  /** The syntax check (docs/syntax.md): JSON text's default "report"; a request object's, on demand (nothing parsed). */
  syntax?: 'report' | 'refuse' | 'off';
}

/**
 * A file's content: a string, its bytes (a Uint8Array: applyRequest answers that file's content as
 * bytes too), or `{ base64 }` (RFC 4648), the JSON protocol's form of bytes that are not UTF-8
 * (docs/protocol.md, "Bytes"; the JSON path answers it for such a file, a string otherwise).
 */
export type Content = string | Uint8Array | { base64: string };
/** File contents by path; null (or absent) = the file does not exist. */
export type Files = Record<string, Content | null>;

/** Self-correction (docs/correction.md): the failed edit, and for correction_apply the model's reply. */
export type CorrectableFormat = 'replace' | 'search_replace' | 'unified_diff' | 'lazy';
export interface CorrectionFields {
  failed: { [F in CorrectableFormat]: { format: F; edit: EditFields[F] } }[CorrectableFormat];
  reply?: string;
  mode?: 'search' | 'old_string' | 'new_string' | 'fast_apply';
  corrected_old_string?: string;
  instruction?: string;
  max_region_lines?: number;
  max_region_bytes?: number;
}
export type CorrectionFormat = 'correction_prompt' | 'correction_apply';

/** One request of the protocol: a union on `format`, so `edit` is checked against that format's fields. */
export type Request =
  | { [F in Format]: { format: F; files: Files; edit: EditFields[F]; profile?: Profile; options?: Options } }[Format]
  | { format: CorrectionFormat; files: Files; edit: CorrectionFields; profile?: Profile; options?: Options };

export interface Match { start_line: number; end_line: number; strategy: Strategy | string; confidence: number }
interface FileResultBase {
  /** a string, or { base64 } when it quotes lines that are not UTF-8 */
  diff: string | { base64: string };
  diff_truncated: boolean;
  undo: string | { base64: string };
  lines_added: number;
  lines_removed: number;
  replacements: number;
  matches: Match[];
}
/**
 * One file's result, a union on `action`: `content` is the file's new text wherever the action
 * writes one (`update`, `add`, and `move`, whose new path is `moved_to`); a `delete` has none.
 */
export type FileResult =
  | (FileResultBase & { action: 'update' | 'add'; content: Content; moved_to?: undefined })
  | (FileResultBase & { action: 'move'; content: Content; moved_to: string })
  | (FileResultBase & { action: 'delete'; content?: undefined; moved_to?: undefined });
export type ErrorCode =
  | 'INVALID_PARAM' | 'MALFORMED_EDIT' | 'NO_MATCH' | 'AMBIGUOUS' | 'COUNT_MISMATCH' | 'NOOP' | 'NOT_FOUND'
  | 'FILE_EXISTS' | 'BINARY_FILE' | 'CONFLICT' | 'TOO_LARGE' | 'ACCESS_DENIED' | 'IO_ERROR' | 'OUT_OF_MEMORY'
  | 'INVALID_REPLY' | 'SYNTAX_ERROR' | 'ENCODING';
export interface Candidate { start_line: number; end_line: number; similarity: number; text: string | { base64: string } }
export interface EditError {
  code: ErrorCode;
  message: string;
  path?: string;
  block?: number;
  line?: number;
  candidates?: Candidate[];
}
export interface Stats { time_ms: number; bytes_in: number; bytes_out: number; lines_added: number; lines_removed: number }
export interface Block { path: string; search: string; replace: string }
/** One edit found in a reply (format 'reply' with parse_only). */
export interface ReplyEdit {
  dialect: Exclude<ReplyDialect, 'auto'>;
  path: string;
  line: number;
  action: 'update' | 'add' | 'delete' | 'move';
  moved_to?: string;
  search?: string;
  replace?: string;
  text?: string;
  content?: string;
}
/** What a response carries beside its status (`files` is empty unless the edit applies). */
export interface ResponseData {
  /** A host wrote the files (createHost, editcore/node); the engine alone never writes. */
  applied: boolean;
  files: Record<string, FileResult>;
  /** search_replace with parse_only: the blocks parsed. */
  blocks?: Block[];
  /** reply with parse_only: the edits found and every file the reply names. */
  edits?: ReplyEdit[];
  paths?: string[];
  /** correction_prompt: the prompt for the host's model (docs/correction.md). */
  prompt?: CorrectionPrompt;
  /** correction_apply: the model's explanation of its correction. */
  explanation?: string;
}
interface ResponseBase {
  data: ResponseData;
  text: string;
  stats: Stats;
  /** applyRequest with a fixer, once the edit had failed: what the hook did (not part of the protocol). */
  fixer?: FixerReport;
}
/** Every edit applied. */
export interface SuccessResponse extends ResponseBase { status: 'success'; error?: undefined; errors?: undefined }
/** Some edits applied (peer profiles that keep going): `error` is the first failure, `errors` all of them when several. */
export interface PartialResponse extends ResponseBase { status: 'partial'; error?: EditError; errors?: EditError[] }
/** Nothing applied: `error` says why (and `errors` lists every failure when there are several). */
export interface ErrorResponse extends ResponseBase { status: 'error'; error: EditError; errors?: EditError[] }
/** A response, a union on `status`: `if (res.status === 'error') res.error.code` needs no `!`. */
export type Response = SuccessResponse | PartialResponse | ErrorResponse;

/** diff(): the engine's unified diff between two texts; a union on `status` like Response. */
interface DiffBase {
  diff: string;
  diff_truncated: boolean;
  lines_added: number;
  lines_removed: number;
  stats: Stats;
}
export type DiffResult = (DiffBase & { status: 'success' | 'partial'; error?: undefined }) | (DiffBase & { status: 'error'; error: EditError });

/** Where init() finds editcore.wasm when the package cannot (bundles, CSP-strict pages, extensions). */
export type WasmSource = ArrayBuffer | ArrayBufferView | URL | string | globalThis.Response | PromiseLike<globalThis.Response> | WebAssembly.Module;
export interface InitOptions {
  /** editcore.wasm, the full edit engine. Given alone, it is the module loaded first (editcore-tools.wasm comes only for a tool call, the write protocol or self-correction). */
  wasm?: WasmSource;
  /** editcore-lite.wasm, the small first download: loaded now, `wasm` (or the package's own) when a request needs it. */
  wasmLite?: WasmSource;
  /** editcore-tools.wasm, the whole engine (agent tools, write protocol, self-correction too): fetched when a request needs it. */
  wasmTools?: WasmSource;
  /** Load now the module that answers every request (editcore-tools.wasm; editcore.wasm when `wasm` is given without `wasmTools`), for the synchronous functions. */
  full?: boolean;
}

/** The low-level Emscripten module (for diagnostics and benchmarks). */
export interface LowLevelModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _malloc(size: number): number;
  _free(ptr: number): void;
  _editcore_run(request: number, length: number, responseLength: number): number;
  _editcore_free(response: number): void;
  _editcore_version(): number;
  /** Only on the lite module: 1 when the last run needs the full module (clears the flag). */
  _editcore_lite_needs_full?(): number;
  _editcore_set_ceiling(name: number, value: number): number;
  _editcore_clear_ceilings(): void;
}

/**
 * Loads the engine once (later calls return the same promise): by default editcore-lite.wasm, the
 * full editcore.wasm fetched when a request first needs it; `{ wasm }` alone: the full module only;
 * `{ full: true }`: the full module now. Resolves to the module loaded first (the full one with `full`).
 */
export function init(options?: InitOptions): Promise<LowLevelModule>;
/**
 * Applies one request; a bad edit is a response with status "error", never an exception. Syntax
 * reports are on demand (nothing parsed) unless `options.syntax` is "report" or "refuse"
 * (applyJson's text keeps JSON's default, "report": docs/syntax.md).
 */
export function applyRequest(request: Request, options?: FixerOptions): Promise<Response>;
/**
 * applyRequest without the promise, after `await init()`. A request that needs the full module
 * (a peer dialect, the lazy or Codex format, the regex strategy) while only the lite one is loaded
 * throws a TypeError (code 'EDITCORE_NEEDS_FULL'): `await init({ full: true })` first, or use applyRequest.
 */
export function applyRequestSync(request: Request): Response;
/** The protocol as JSON text (or its UTF-8 bytes) in, JSON text out, after `await init()` (same TypeError as applyRequestSync). */
export function applyJson(request: string | ArrayBuffer | ArrayBufferView): string;
/** The host's ceilings for options.limits (docs/limits.md): a request may lower a limit, never
 *  raise it past its ceiling. `{}` restores the build's. After `await init()`. */
export function setCeilings(ceilings?: Partial<Record<'max_input_bytes' | 'max_lines' | 'max_line_bytes' | 'max_blocks' | 'regex_match_limit' | 'regex_depth_limit' | 'fuzzy_work' | 'diff_work' | 'max_files', number>>): void;

export interface ReplaceOptions extends Options {
  path?: string;
  expected_replacements?: number | null;
  replace_all?: boolean;
  instruction?: string;
  profile?: Profile;
}
/** One old/new string replacement in one file's content. */
export function replace(content: string, oldString: string, newString: string, options?: ReplaceOptions): Promise<Response>;

export interface ApplyOptions extends Options { profile?: Profile }
/** An edit of any format applied to `files`. */
export function applyEdit(files: Files, edit: Edit, options?: ApplyOptions): Promise<Response>;

export interface ReplyOptions extends ApplyOptions { dialect?: ReplyDialect; path?: string }
/** A model's raw reply (edits in any dialect, amid prose) applied to `files`, all or nothing. */
export function applyReply(files: Files, replyText: string, options?: ReplyOptions): Promise<Response>;

export interface DiffOptions { path?: string; diff_context?: number; diff_max_bytes?: number }
/** The unified diff from `before` (null: absent) to `after`, computed by the engine. */
export function diff(before: string | null, after: string, options?: DiffOptions): Promise<DiffResult>;

/** The engine's version ("0.1.0"). */
export function version(): Promise<string>;

// Section - file hosts (createHost over an async adapter)

/**
 * What an adapter's stat() answers; null from stat() = the file does not exist. The optional
 * members serve the agent tools (runTool): `real` the resolved path, `mode`, `birthtime` and
 * `atime` (ms) for MCP's get_file_info.
 */
export interface FileStat {
  type?: 'file' | 'directory' | 'other';
  size: number;
  mtime: number;
  real?: string;
  mode?: number;
  birthtime?: number;
  atime?: number;
}
/** One entry of a directory (FileAdapter.list): the entry itself, not followed (a link is 'symlink'). */
export interface DirEntry {
  name: string;
  type: 'file' | 'directory' | 'symlink' | 'other';
  /** size and modification time of what it leads to (absent for a dangling link) */
  size?: number;
  mtime?: number;
  /** a link's resolved target */
  real?: string;
}
/**
 * The I/O a host needs, over any file system. Paths are relative to the adapter's root, already
 * checked (no `..` out of it, no absolute path), with `/` separators.
 */
export interface FileAdapter {
  stat(path: string): Promise<FileStat | null>;
  readFile(path: string): Promise<Uint8Array>;
  /** Should replace the file atomically where the medium allows (the Node adapter does). */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  delete(path: string): Promise<void>;
  /**
   * Optional: writes and deletes a set of files all or nothing, each checked under the adapter's
   * locks against `old` (the bytes read; null: must be absent; undefined: read at the commit). Rejects
   * with `code` CONFLICT when a file changed since it was read (docs/cli.md "Writes").
   */
  commit?(ops: { path: string; bytes: Uint8Array | null; old?: Uint8Array | null }[]): Promise<void>;
  /** For the agent tools that list, create or move (the MCP filesystem tools); optional elsewhere. */
  list?(path: string): Promise<DirEntry[]>;
  mkdir?(path: string): Promise<void>;
  move?(from: string, to: string): Promise<void>;
  /** The resolved path of `path`, existing or not (shown to the model as the real path). */
  realpath?(path: string): Promise<string>;
}
export interface HostOptions extends ApplyOptions {
  /** Plan and report (with diffs), write nothing. */
  dry_run?: boolean;
}
export type HostRequest = { [F in Format]: { format: F; edit: EditFields[F]; profile?: Profile; options?: HostOptions } }[Format];
export interface Host {
  /** Reads the files the edit names, applies it, writes every changed file or none. */
  applyEdit(edit: Edit, options?: HostOptions, hook?: FixerOptions): Promise<Response>;
  /** The protocol's request without `files` (the host reads them); `hook.fixer` corrects a failed edit. */
  applyRequest(request: HostRequest, hook?: FixerOptions): Promise<Response>;
  /** A model's raw reply applied to the files it names (the engine lists them). */
  applyReply(text: string, options?: ReplyOptions & { dry_run?: boolean }): Promise<Response>;
}
export function createHost(adapter: FileAdapter, defaults?: { profile?: Profile; options?: HostOptions }): Host;
export interface MemoryAdapter extends FileAdapter {
  files: Map<string, Uint8Array>;
  /** Every file as text. */
  snapshot(): Record<string, string>;
}
/** An adapter over a Map, for playgrounds and tests. */
export function memoryAdapter(initial?: Record<string, string | Uint8Array>): MemoryAdapter;
/** The host's lexical path rule: a relative path that stays inside the root, normalised; throws otherwise. */
export function checkPath(path: string): string;

// Section - self-correction with the host's model (docs/correction.md)

/** What the core asks the host's model: send `system` and `user`, ask for JSON fitting `schema`. */
export interface CorrectionPrompt { system: string; user: string; schema: unknown }
/** The host's model call: resolves to the model's raw reply text. `signal` aborts on timeout or the caller's abort. */
export type Fixer = (prompt: CorrectionPrompt, context: { signal: AbortSignal }) => Promise<string>;
/** The correction options of docs/correction.md. */
export interface CorrectionOptions {
  mode?: 'search' | 'old_string' | 'new_string' | 'fast_apply';
  instruction?: string;
  corrected_old_string?: string;
  max_region_lines?: number;
  max_region_bytes?: number;
}
/** An LRU of accepted replies (createFixerCache); any {get, set} will do. */
export interface FixerCache { get(key: string): string | undefined; set(key: string, reply: string): void }
export interface FixerOptions {
  /** The host's model call. Without it applyRequest is the plain engine call. */
  fixer?: Fixer;
  /** Model calls at most (default 1, as Gemini CLI); a refused answer is asked again with the same prompt. */
  maxAttempts?: number;
  /** Aborts a pending model call: the response is then the original error with a note. */
  signal?: AbortSignal;
  /** Per model call, in ms (default 40000, as Gemini CLI). */
  timeoutMs?: number;
  /** false: none; a number: a cache of that size for this call; default: the package's own (50 replies). */
  cache?: false | number | FixerCache;
  /** Files the model is never asked about: endings (default ['.json', '.ipynb']) or a predicate. */
  skip?: string[] | ((path: string) => boolean);
  /** Passed to correction_prompt/correction_apply. */
  correction?: CorrectionOptions;
}
export interface FixerReport {
  outcome: 'corrected' | 'noop' | 'refused' | 'skipped' | 'aborted' | 'timeout' | 'fixer_error';
  /** Attempts made, model calls made (a cache hit makes none), and whether the reply came from the cache. */
  attempts: number;
  calls: number;
  cached: boolean;
  /** Why the original error is returned (skipped, aborted, timeout, fixer_error). */
  note?: string;
}
/** The correction prompt for a failed request (the core's correction_prompt response; `data.prompt`). */
export function correctionPrompt(failed: Request, options?: CorrectionOptions): Promise<Response>;
/**
 * The model's raw reply checked and applied (correction_apply). `promptFiles`: the files the prompt
 * was built from; a file changed since is refused (CONFLICT).
 */
export function correctionApply(failed: Request, reply: string, options?: CorrectionOptions & { promptFiles?: Files }): Promise<Response>;
/** A cache of `size` accepted replies (default 50) to share between applyRequest calls. */
export function createFixerCache(size?: number): FixerCache;

// Agent tools (docs/tools.md)
export type ToolId = 'Edit' | 'Read' | 'Write' | 'str_replace_based_edit_tool' | 'str_replace_editor' | 'openhands/str_replace_editor'
  | 'gemini/replace' | 'gemini/write_file'
  | 'mcp/read_file' | 'mcp/read_text_file' | 'mcp/read_media_file' | 'mcp/read_multiple_files' | 'mcp/write_file' | 'mcp/edit_file'
  | 'mcp/create_directory' | 'mcp/list_directory' | 'mcp/list_directory_with_sizes' | 'mcp/directory_tree' | 'mcp/move_file'
  | 'mcp/search_files' | 'mcp/get_file_info' | 'mcp/list_allowed_directories' | 'mcp/apply_edit'
  | 'cline/replace_in_file' | 'cline/write_to_file' | 'cline/editor' | 'codex/apply_patch' | 'openai/apply_patch' | 'lazy/edit_file';
export interface ToolOptions {
  /** The file adapter the tool works on (memoryAdapter, nodeAdapter, ...). */
  host: FileAdapter | { adapter: FileAdapter };
  /** Answer as if, write nothing. */
  dryRun?: boolean;
  /** Shown to the model as the working directory (absolute); default the adapter's root or "/". */
  root?: string;
  /** Every allowed directory (MCP tools; every tool then takes paths inside any of them). */
  roots?: string[];
  /** The home directory, for MCP paths "~" and "~/..." (as the reference server expands them). */
  home?: string;
  /** The history undo_edit needs, as the previous call returned it. */
  state?: unknown;
  /** Edit: editcore's matching ladder instead of exact matching. */
  ladder?: boolean;
  diffMaxBytes?: number;
}
/** One tool call's outcome: `result` in the tool's own shape (see docs/tools.md); `state` to pass to the next call. */
export interface ToolRun { status: 'success' | 'partial' | 'error'; result: any; state?: unknown }
/** Runs one agent tool call; the result is in the tool's own shape. */
export function runTool(name: ToolId | string, args: Record<string, unknown>, options: ToolOptions): Promise<ToolRun>;
/** The tools' definitions in OpenAI or Anthropic function-calling form (or 'raw', with prompts; or
 *  'mcp': MCP's tools/list entries, with titles, annotations and output schemas, and each one's id). */
export function toolDefinitions(form?: 'openai' | 'anthropic' | 'raw' | 'mcp', ids?: string[]): Promise<any[]>;
