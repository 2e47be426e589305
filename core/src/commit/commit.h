/*
 * The write protocol's decisions (editcore_commit.h): the names of locks, temporaries and
 * journals; the lock record and when a lock is stale; the journal and how a killed edit is
 * finished. Pure functions over strings: the hosts do every file call.
 */
#ifndef EC_COMMIT_COMMIT_H
#define EC_COMMIT_COMMIT_H
#include "../base/buf.h"
#include "../protocol/json_request.h"
#include "editcore_commit.h"

/** Who holds a lock: enough for another process to tell whether it still runs. */
typedef struct ec_owner {
  long long pid;   /* 0: not known (a WASI guest has no pid) */
  ec_str start;    /* the process's start time, as /proc/PID/stat field 22 gives it; may be empty */
  ec_str boot;     /* the machine's boot id; empty when unknown */
  ec_str pidns;    /* the pid namespace the pid means something in */
  ec_str host;     /* the host name */
  ec_str kind;     /* "native", "wasi", "node" */
} ec_owner;

/** A lock file's text, read back. */
typedef struct ec_lock_info {
  bool valid;      /* false: empty, partial or not ours (a writer caught between create and write) */
  ec_str txn;
  ec_owner owner;
  ec_str journal;  /* the journal's path from the lock's directory; empty when the edit had none */
} ec_lock_info;

/** One operation of an edit, or one entry of a journal. */
typedef struct ec_commit_op {
  ec_str path;     /* relative, normalised (plan: from the root; journal: from the journal's directory) */
  bool remove;     /* delete, rather than write */
  ec_str old_id;   /* the identity of the file the edit was made from; empty: the file was absent */
  ec_str new_id;   /* the identity of the staged new content (writes) */
} ec_commit_op;

/* Section - names */

/** How many bytes of a file name its lock and temporary names keep (they must fit NAME_MAX). */
size_t ec_commit_base_keep(ec_str base);
ec_str ec_commit_lock_name(ec_arena *a, ec_str base);
ec_str ec_commit_temp_name(ec_arena *a, ec_str base, ec_str txn);
ec_str ec_commit_journal_name(ec_arena *a, ec_str txn);
/** Whether `name` is a temporary editcore writes for `base`: this protocol's, and the older
 *  ".NAME.editcore-<hex>.tmp" / ".NAME.editcore-<pid>-<hex>.tmp" forms. */
bool ec_commit_is_temp_of(ec_str name, ec_str base);
/** Whether `txn` is a transaction id: 16 lowercase hex digits. */
bool ec_commit_txn_ok(ec_str txn);

/* Section - locks */

/** Appends the lock record (one line of JSON and a newline). */
void ec_commit_write_record(ec_buf *b, const ec_owner *o, ec_str txn, ec_str journal);
/** Reads a lock record; *out points into the reader's arena. */
void ec_commit_read_record(ec_json_reader *r, ec_str text, ec_lock_info *out);

typedef enum ec_owner_state { EC_OWNER_NOT_LOOKED, EC_OWNER_ALIVE, EC_OWNER_DEAD, EC_OWNER_UNKNOWN } ec_owner_state;
typedef enum ec_stale { EC_STALE_NO, EC_STALE_YES, EC_STALE_LOOK } ec_stale;

/** Whether the owner's pid can be checked from `me` (same machine, boot and pid namespace). */
bool ec_commit_pid_checkable(const ec_lock_info *lock, const ec_owner *me);
/**
 * The rule for breaking a lock. With a checkable pid: stale when the owner is dead, or when the
 * pid now belongs to a process started at another time; EC_STALE_LOOK when the host has not
 * looked yet. Otherwise (or when the host could not look): stale when the lock's mtime is more
 * than EC_LOCK_STALE_MS old, which a live holder never lets happen (it refreshes it). *why: a
 * sentence for messages (in `a`).
 */
ec_stale ec_commit_lock_stale(ec_arena *a, const ec_lock_info *lock, const ec_owner *me, ec_owner_state state, ec_str owner_start,
                              double age_ms, ec_str *why);

/* Section - plans and journals */

/** The deepest directory holding every path ("" for the root). */
ec_str ec_commit_common_dir(ec_arena *a, const ec_commit_op *ops, size_t n);
/** `target` (a directory under `from`'s ancestors) written relative to directory `from`: "../../x". */
ec_str ec_commit_relative_up(ec_arena *a, ec_str from, ec_str target);
void ec_commit_write_journal(ec_buf *b, ec_str txn, const ec_commit_op *ops, size_t n, const ec_str *temps);
/** Reads a journal; false when it is not a whole journal (a writer killed while writing it). */
bool ec_commit_read_journal(ec_json_reader *r, ec_str text, ec_str *txn, ec_commit_op **ops, ec_str **temps, size_t *n);

typedef enum ec_redo { EC_REDO_NONE, EC_REDO_RENAME, EC_REDO_DELETE, EC_REDO_LEAVE } ec_redo;
/** Whether `id` can be a file identity (editcore_commit.h: "ino:size:mtime"). */
bool ec_commit_id_ok(ec_str id);
/**
 * What finishing one journal entry takes, from the target's identity now (absent: !target_exists)
 * and the temporary's: nothing (already done), the rename, the deletion, or leaving the file as
 * it is (it is neither the old nor the new file: changed since, by someone who did not honour
 * the lock — or its staged content is gone). *why says which, for the report.
 */
ec_redo ec_commit_redo(const ec_commit_op *op, ec_str target_id, bool target_exists, ec_str temp_id, bool temp_exists,
                       const char **why);

#endif
