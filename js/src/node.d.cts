// Declarations of editcore/node: everything of 'editcore' plus the Node file adapter.
export * from './index.cjs';
import type { FileAdapter, Host, Profile, HostOptions } from './index.cjs';
/** The Node adapter over the directory `root`: symlinks resolved inside it, atomic writes
 *  (`fsync: false`: not synced before the rename). */
export function nodeAdapter(root: string | URL, options?: { fsync?: boolean }): FileAdapter & { root: string | URL };
/** createHost(nodeAdapter(root), defaults). */
export function createNodeHost(root: string | URL, defaults?: { profile?: Profile; options?: HostOptions }): Host;
