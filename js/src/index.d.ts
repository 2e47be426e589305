export type Format = 'replace' | 'search_replace' | 'unified_diff' | 'codex_patch' | 'whole_file' | 'insert' | 'lazy';
export type Profile = 'editcore' | 'gemini' | 'cline' | 'aider' | 'roo' | 'codex' | 'claude' | 'openhands';
export interface Request {
  format: Format;
  files: Record<string, string | null>;
  edit: Record<string, unknown>;
  profile?: Profile;
  options?: Record<string, unknown>;
}
export interface Match { start_line: number; end_line: number; strategy: string; confidence: number }
export interface FileResult {
  action: 'update' | 'add' | 'delete' | 'move';
  moved_to?: string;
  content?: string;
  diff: string;
  diff_truncated: boolean;
  undo: string;
  lines_added: number;
  lines_removed: number;
  replacements: number;
  matches: Match[];
}
export interface EditError {
  code: string;
  message: string;
  path?: string;
  block?: number;
  line?: number;
  candidates?: { start_line: number; end_line: number; similarity: number; text: string }[];
}
export interface Response {
  status: 'success' | 'partial' | 'error';
  data: { applied: boolean; files: Record<string, FileResult>; blocks?: { path: string; search: string; replace: string }[] };
  text: string;
  stats: { time_ms: number; bytes_in: number; bytes_out: number; lines_added: number; lines_removed: number };
  error?: EditError;
  errors?: EditError[];
}
export function init(options?: { wasmBinary?: Uint8Array; wasmUrl?: string | URL }): Promise<unknown>;
export function applyRequest(request: Request): Promise<Response>;
export function applyRequestSync(request: Request): Response;
export function applyJson(text: string): string;
export function replace(content: string, oldString: string, newString: string, options?: Record<string, unknown>): Promise<Response>;
export function version(): Promise<string>;

/** Sets the host's ceilings for options.limits (docs/limits.md); `{}` restores the build's. After init(). */
export function setCeilings(ceilings?: Partial<Record<'max_input_bytes' | 'max_lines' | 'max_line_bytes' | 'max_blocks' | 'regex_match_limit' | 'regex_depth_limit' | 'fuzzy_work' | 'diff_work' | 'max_files', number>>): void;
