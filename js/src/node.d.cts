// Declarations of editcore/node: everything of 'editcore' plus the Node file adapter.
export * from './index.cjs';
import type { FileAdapter, Host, Profile, HostOptions } from './index.cjs';
export interface NodeAdapterOptions {
  /** fsync new contents, the journal and the directories (default true; false: atomic, not durable
   *  across a power cut, the MCP reference server's way, for editcore-mcp --no-fsync). */
  fsync?: boolean;
  /** Blocking file calls (a server answering one call at a time). */
  sync?: boolean;
  /** The report of an edit a killed run left half-done and this one finished (default: a process warning). */
  onRecover?(text: string): void;
}
/**
 * The Node adapter over the directory `root`: paths resolved beneath it without following links
 * (links inside it followed lexically), writes by editcore's write protocol: locks, a
 * byte-for-byte check under them, a journal for several files (docs/cli.md "Writes").
 */
export function nodeAdapter(root: string | URL, options?: NodeAdapterOptions): FileAdapter & { root: string | URL; commit: NonNullable<FileAdapter['commit']> };
/** The MCP server's adapter: absolute paths (without their leading "/") beneath any of `dirs`. */
export function allowedAdapter(dirs: string[], options?: NodeAdapterOptions): FileAdapter & { root: '/'; commit: NonNullable<FileAdapter['commit']>; realpath(path: string): Promise<string> };
/** createHost(nodeAdapter(root), defaults). */
export function createNodeHost(root: string | URL, defaults?: { profile?: Profile; options?: HostOptions }): Host;
