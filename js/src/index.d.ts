export type Format = 'replace' | 'search_replace' | 'unified_diff' | 'codex_patch' | 'whole_file' | 'insert' | 'lazy' | 'reply';
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
export interface ReplyEdit {
  dialect: 'search_replace' | 'unified_diff' | 'codex_patch' | 'whole_file';
  path: string;
  line: number;
  action: 'update' | 'add' | 'delete' | 'move';
  moved_to?: string;
  search?: string;
  replace?: string;
  text?: string;
  content?: string;
}
export interface Response {
  status: 'success' | 'partial' | 'error';
  data: {
    applied: boolean;
    files: Record<string, FileResult>;
    blocks?: { path: string; search: string; replace: string }[];
    /** format 'reply' with parse_only: the edits found and the files the reply names (docs/reply.md) */
    edits?: ReplyEdit[];
    paths?: string[];
  };
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
