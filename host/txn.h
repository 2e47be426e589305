/*
 * All-or-nothing writes of one edit's files. Every new content is first staged in a temporary
 * file beside its target (same directory, so the rename cannot cross file systems), written,
 * given the old file's mode and fsynced; only then are the targets checked unchanged since they
 * were read and the temporaries renamed over them, the deletions done last and the directories
 * fsynced (with the parents of any directory created for a new file). If a step fails part-way, what was already renamed or deleted is put back from the
 * bytes read, so the files end as they began. A process killed mid-way leaves every file wholly
 * old or wholly new (rename is atomic) and perhaps temporaries, which are named
 * ".<name>.editcore-<8 hex>.tmp" and removed by the next run that writes <name>.
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
/**
 * Removes the temporaries a killed run left beside `full` (a resolved path). Every run calls it
 * for each file it looks at, so the debris of a killed run is gone after the next run that
 * names the same files, whatever that run then does.
 */
void eh_clean_stale_for(const char *full);
/** Does it. On failure nothing is changed (as far as the system lets us put it back). */
ec_error_code eh_txn_commit(eh_txn *t, eh_err *err);

#endif
