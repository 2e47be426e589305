/*
 * All-or-nothing writes of one edit's files, by the write protocol every host follows
 * (core/include/editcore_commit.h; docs/cli.md "Writes"): the core plans (lock order, names,
 * lock records, the journal), this file does the calls, each in the target's own directory
 * opened beneath the root:
 *   1. lock every target, in the plan's order (waiting for live owners; a stale lock is broken,
 *      or the journal it names finished first);
 *   2. under the locks, re-read every target: each must be byte for byte what the edit was made
 *      from (or still absent), else CONFLICT and nothing is written;
 *   3. stage each new content in a temporary beside its target, given the old file's mode, fsynced;
 *   4. with two or more operations, write and fsync the journal: the edit is committed;
 *   5. rename the temporaries over their targets, delete what the edit deletes, fsync the
 *      directories, remove the journal, release the locks.
 * If a step fails before the journal, the temporaries go and nothing changed; after it, what was
 * renamed is put back from the bytes read. A process killed at any moment leaves every file
 * wholly old or wholly new, and its locks: the next run of any host that reads or writes one of
 * those files finishes the set (rolls the journal forward) or, without a journal, removes the
 * temporaries.
 */
#ifndef EDITCORE_HOST_TXN_H
#define EDITCORE_HOST_TXN_H
#include "files.h"

typedef struct eh_txn eh_txn;

eh_txn *eh_txn_new(void);
void eh_txn_free(eh_txn *t);
/**
 * Plans a write of `content` to `p` (borrowed: both must outlive the commit). `old` is what was
 * read (stamp and bytes, for the unchanged check and a roll-back), or NULL for a new file.
 */
bool eh_txn_write(eh_txn *t, const eh_path *p, const char *content, size_t len, const eh_stamp *old,
                  const char *old_bytes, size_t old_len);
/** Plans the deletion of `p` (read before, as `old`). */
bool eh_txn_delete(eh_txn *t, const eh_path *p, const eh_stamp *old, const char *old_bytes, size_t old_len);
/** Does it. On failure nothing is changed (as far as the system lets us put it back). */
ec_error_code eh_txn_commit(eh_txn *t, eh_err *err);

#endif
