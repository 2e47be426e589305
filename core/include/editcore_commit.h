/*
 * editcore_commit.h — the write protocol every host follows (SPEC §7, docs/cli.md "Writing"):
 * how an edit's files are locked, staged, journaled and renamed, and how the next run finishes
 * what a killed one left. The decisions are here, as pure functions over what a host observed;
 * the hosts (the C host of the CLI and the WASI command, the Node host, the MCP server) only do
 * the file calls, so every host names its files alike, honours the others' locks and finishes
 * the others' journals.
 *
 * The protocol, for one edit of files F1..Fn (real paths below the root, sorted bytewise):
 *   1. lock each Fi in that order: create ".NAME.editcore.lock" beside it with O_EXCL, holding
 *      the owner's record (ec_commit_json "plan" writes it). A lock that exists is waited for,
 *      or broken when "lock" says it is stale (its owner is provably dead, or, where the owner
 *      cannot be checked, its heartbeat is older than EC_LOCK_STALE_MS);
 *   2. under the locks, check each Fi is byte for byte what the edit was made from;
 *   3. stage each new content in ".NAME.editcore-TXN.tmp" beside its target, fsynced;
 *   4. with two or more operations, write the journal ".editcore-TXN.journal" in the files'
 *      deepest common directory ("journal" writes it), fsynced: from here the edit is committed.
 *      It names each file's identity before (under the lock) and its staged temporary's after:
 *      "ino:size:mtime" (decimal; mtime in seconds with 9 decimals), as stat(2) gives them on
 *      every host (not the device: a WASI component sees a made-up one). The inode tells the
 *      staged temporary from the file it replaces even where timestamps are coarse (Linux's are
 *      a few milliseconds apart). No content is hashed: the journal costs a few stat calls,
 *      whatever the files' size;
 *   5. rename the temporaries over their targets, delete what the edit deletes, fsync the
 *      directories, remove the journal, then the locks.
 * A holder refreshes its locks' mtime at least every EC_LOCK_HEARTBEAT_MS. A temporary exists
 * only while its writer holds the target's lock, so whoever holds (or breaks) a lock may remove
 * every temporary of that name. Whoever breaks a stale lock whose journal exists rolls that
 * journal forward ("recover"): every file of the set ends new, or is left as someone else
 * changed it since, and is named in the report.
 *
 * One entry point, JSON in and out, like the tools (ec_run_json routes requests whose first
 * member is "commit" here):
 *   {"commit":"plan", "txn":"<16 hex>", "owner":{...}, "ops":[{"path","action":"write"|"delete"}]}
 *     -> {"txn", "files":[{"op", "path", "dir", "base", "lock", "temp", "record"}] (lock order),
 *         "journal": null | {"dir", "name", "path"}}
 *   {"commit":"journal", "txn", "ops":[{"path", "action", "old":"<identity>"|null, "new":"<identity>"}]}
 *     -> {"text"} (the journal, in lock order, its paths from its directory)
 *   {"commit":"lock", "record":"<a lock file's text>", "me":{"boot","pidns","host"}, "age_ms":N,
 *     "owner"?: "alive"|"dead"|"unknown", "owner_start"?: "..."}
 *     -> {"valid", "txn", "pid", "kind", "journal"|null, "check":"pid"|"age", "stale":bool|null, "why"}
 *     ("stale" is null when check is "pid" and "owner" was not given: look, and ask again)
 *   {"commit":"recover", "journal":"<text>", "journal_dir":"<dir of the journal, from the root>",
 *     "owner":{...}, "observed"?: [{"target":"<identity>"|null, "temp":"<identity>"|null}] (one per file)}
 *     -> {"valid", "txn", "files":[...as plan, records naming this journal],
 *         "actions"?: [{"path", "do":"rename"|"delete"|"none"|"leave", "why"}], "text"?}
 *   {"commit":"temps", "base":"<file name>", "names":["<names in its directory>"]}
 *     -> {"temps":[the names that are editcore temporaries of base]}
 *   {"commit":"names", "base":"<file name>", "txn"?:"<16 hex>"} -> {"lock", "temp"|null}
 * An owner is {"pid":N (0 unknown), "start":"<start time as /proc/PID/stat field 22>", "boot":
 * "<boot id>", "pidns":"<pid namespace>", "host":"<host name>", "kind":"native"|"wasi"|"node"}.
 * A request the protocol does not allow answers {"error":{"code":"INVALID_PARAM","message"}}.
 * Returns NULL only when out of memory; free the response with ec_free(host, response).
 */
#ifndef EDITCORE_COMMIT_H
#define EDITCORE_COMMIT_H
#include "editcore.h"

#ifdef __cplusplus
extern "C" {
#endif

/** How long a lock whose owner cannot be checked (another machine, another boot, a WASI guest)
 *  may go without a heartbeat before it counts as stale. */
#define EC_LOCK_STALE_MS 10000
/** How often a lock's holder refreshes its mtime (at most; more often is harmless). */
#define EC_LOCK_HEARTBEAT_MS 1000
/** How long a writer waits for a live lock before giving up with CONFLICT (hosts may lower it). */
#define EC_LOCK_WAIT_MS 30000

EC_API char *ec_commit_json(const char *request, size_t request_len, const ec_host *host, size_t *response_len);

/** Whether a JSON request is for ec_commit_json (its first member is "commit"). */
EC_API bool ec_json_is_commit(const char *request, size_t request_len);

/* The answer a C host needs on every file it looks at, without a JSON round trip (the same
 * function ec_commit_json uses): */

/** Room for any name this protocol makes (NAME_MAX and a NUL). */
#define EC_COMMIT_NAME_MAX 256
/** The lock file's name for file name `base` (".NAME.editcore.lock", NAME cut to 200 bytes at a
 *  character boundary) into out[cap], NUL-terminated; returns its length, 0 when cap is too small. */
EC_API size_t ec_commit_lock_name_of(const char *base, size_t base_len, char *out, size_t cap);

#ifdef __cplusplus
}
#endif

#endif /* EDITCORE_COMMIT_H */
