/*
 * Finishing what a killed run left (core/include/editcore_commit.h): a stale lock is broken and
 * its temporaries removed; a stale lock that names a journal is finished first — every file of
 * that edit's set rolled forward to its new content under the set's locks, as the core decides
 * from what is on disk — and what was done is reported on stderr.
 */
#ifndef EDITCORE_HOST_RECOVER_H
#define EDITCORE_HOST_RECOVER_H
#include "sandbox.h"

/** Rolls the journal at `journal` (a path from the root) forward; `depth` bounds nested recoveries. */
ec_error_code eh_recover(const eh_root *root, const char *journal, int depth, eh_err *err);
/**
 * Before a file is looked at (eh_resolve calls it, through the hook eh_main sets: eh_sandbox_before_look): when a stale lock lies beside it, finish what
 * its owner left (recover its journal, or break the lock and remove the file's temporaries).
 * Returns whether it changed anything. A live lock, or any failure, is left alone: the read goes
 * on, and a writer meets the lock when it commits.
 */
bool eh_settle(const eh_root *root, const char *dir, const char *name);
/** Removes every editcore temporary of file `base` in `dir` (call only while holding its lock). */
void eh_remove_temps(const eh_root *root, const char *dir, const char *base);

/** The names in one directory that may be editcore temporaries (read once for many files). */
typedef struct eh_dir_scan {
  char *dir;
  char **names;
  size_t n;
} eh_dir_scan;
/** Lists `dir` once into *s (names starting with "." and holding ".editcore-"); false on failure. */
bool eh_scan_dir(const eh_root *root, const char *dir, eh_dir_scan *s);
void eh_scan_free(eh_dir_scan *s);
/** eh_remove_temps over a scan of base's directory (nothing is listed again). */
void eh_remove_temps_scanned(const eh_root *root, const eh_dir_scan *s, const char *base);
/** fsync of a directory (its renames made durable); failures ignored (not every FS allows it). */
void eh_sync_dir(const eh_root *root, const char *dir);

#endif
