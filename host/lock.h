/*
 * Writer locks (core/include/editcore_commit.h): ".NAME.editcore.lock" beside each file an edit
 * writes, created with O_EXCL in the file's own directory (opened beneath the root) and holding
 * its owner's record. The core says when a lock is stale; this file does the file calls: take,
 * wait, look at the owner's pid, break, refresh, release.
 */
#ifndef EDITCORE_HOST_LOCK_H
#define EDITCORE_HOST_LOCK_H
#include "sandbox.h"

/** This process as a lock owner, for the core's requests: {"pid", "start", "boot", "pidns", "host", "kind"}. */
const char *eh_owner_json(void);

typedef enum eh_take {
  EH_TAKEN,     /* the lock is ours */
  EH_BUSY,      /* a live owner held it past the deadline (err says who) */
  EH_RECOVER,   /* a stale lock names a journal: finish it first (*journal: its path from the root) */
  EH_FAILED     /* a system call failed (err says which) */
} eh_take;

typedef struct eh_lock_req {
  const char *dir;       /* the file's directory, from the root ("" the root) */
  const char *lock;      /* the lock's file name */
  const char *record;    /* the record to write */
  const char *own_txn;   /* stale locks of this transaction are broken without recovering it (the recovery itself) */
  const char *shown;     /* the file, for messages */
  void (*beat)(void *);  /* called while waiting: the caller refreshes the locks it already holds */
  void *beat_ctx;
} eh_lock_req;

/**
 * Takes one lock, waiting for a live owner until `deadline_ms` (eh_now_ms's clock). A stale lock
 * is broken (the caller, holding the lock now, removes the name's dead temporaries), unless it
 * names a journal that exists: then EH_RECOVER, *journal its path from the root (malloc'd).
 */
eh_take eh_lock_take(const eh_root *root, const eh_lock_req *q, double deadline_ms, char **journal, eh_err *err);
/** Removes our lock (only if the file still holds our record). */
void eh_lock_release(const eh_root *root, const char *dir, const char *lock, const char *record);
/** Refreshes a held lock's mtime: its heartbeat for owners who cannot check our pid. */
void eh_lock_touch(const eh_root *root, const char *dir, const char *lock);

/** Whether a lock file exists and is stale (nothing else is looked at when there is none). */
bool eh_lock_is_stale(const eh_root *root, const char *dir, const char *lock);

/** Monotonic milliseconds (deadlines, heartbeats). */
double eh_now_ms(void);
/** How long a writer waits for a live lock: EDITCORE_LOCK_WAIT_MS, else EC_LOCK_WAIT_MS. */
double eh_lock_wait_ms(void);

/** A request for ec_commit_json: {"commit": what}, with "txn" when txn is not NULL and "owner"
 *  (this process) when with_owner. Fill it, then eh_commit_ask. */
struct cJSON *eh_commit_new(const char *what, const char *txn, bool with_owner);
/** Sends `q` (consumed) to ec_commit_json and parses the answer (NULL when out of memory). */
struct cJSON *eh_commit_ask(struct cJSON *q);

#endif
