#include "txn.h"
#include "lock.h"
#include "recover.h"
#include "sys.h"
#include "editcore_commit.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


typedef struct op {
  const eh_path *p;
  bool del;
  const char *content;
  size_t len;
  eh_stamp old;
  const char *old_bytes;
  size_t old_len;
  const char *lock, *temp, *record; /* the plan's names and record (in the plan's cJSON tree) */
  char old_id[EH_FILE_ID_MAX];      /* the target under the lock (empty: absent), and the staged temporary */
  char new_id[EH_FILE_ID_MAX];
  bool locked, staged, done;
  char **made_dirs;    /* parent directories this op created, shallowest first */
  size_t n_made;
} op;

struct eh_txn {
  op *ops;
  size_t n, cap;
  size_t *order;       /* lock order: indices into ops */
  cJSON *plan;
  const char *txn, *jdir, *jname;
  bool journaled;
  double beat;         /* when the locks were last refreshed */
};

eh_txn *eh_txn_new(void) { return calloc(1, sizeof(eh_txn)); }

void eh_txn_free(eh_txn *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) {
    for (size_t k = 0; k < t->ops[i].n_made; k++) free(t->ops[i].made_dirs[k]);
    free(t->ops[i].made_dirs);
  }
  free(t->ops);
  free(t->order);
  cJSON_Delete(t->plan);
  free(t);
}

static op *push(eh_txn *t) {
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 8;
    op *o = realloc(t->ops, cap * sizeof *o);
    if (!o) return NULL;
    t->ops = o;
    t->cap = cap;
  }
  op *o = &t->ops[t->n++];
  memset(o, 0, sizeof *o);
  return o;
}

bool eh_txn_write(eh_txn *t, const eh_path *p, const char *content, size_t len, const eh_stamp *old,
                  const char *old_bytes, size_t old_len) {
  op *o = push(t);
  if (!o) return false;
  o->p = p;
  o->content = content;
  o->len = len;
  if (old) o->old = *old;
  o->old_bytes = old_bytes;
  o->old_len = old_len;
  return true;
}

bool eh_txn_delete(eh_txn *t, const eh_path *p, const eh_stamp *old, const char *old_bytes, size_t old_len) {
  op *o = push(t);
  if (!o) return false;
  o->p = p;
  o->del = true;
  if (old) o->old = *old;
  o->old_bytes = old_bytes;
  o->old_len = old_len;
  return true;
}

/* Section - test hooks */

/* EDITCORE_TEST_PAUSE=<path> (before the locks) and EDITCORE_TEST_HOLD=<path> (with the locks
 * held, before the check): create <path>.ready and wait (up to 20 s) for <path>.go, so a test can
 * change a file between our read and our check, or meet our locks. */
static void test_pause(const char *var) {
  const char *p = getenv(var);
  if (!p || !*p) return;
  char ready[1024], go[1024];
  snprintf(ready, sizeof ready, "%s.ready", p);
  snprintf(go, sizeof go, "%s.go", p);
  int fd = open(ready, O_WRONLY | O_CREAT, 0666);
  if (fd >= 0) close(fd);
  struct stat st;
  for (int i = 0; i < 2000 && stat(go, &st) != 0; i++) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

/* EDITCORE_TEST_RENAME_GAP_MS=<n> sleeps n ms between two renames, so the durability tests' kills
 * also land between the renames of one edit (a few microseconds apart otherwise). */
static void test_rename_gap(void) {
  const char *p = getenv("EDITCORE_TEST_RENAME_GAP_MS");
  long ms = p ? strtol(p, NULL, 10) : 0;
  if (ms <= 0) return;
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Section - steps */

static void heartbeat(eh_txn *t, bool force) {
  double now = eh_now_ms();
  if (!force && now - t->beat < EC_LOCK_HEARTBEAT_MS / 2) return;
  t->beat = now;
  for (size_t i = 0; i < t->n; i++)
    if (t->ops[i].locked) eh_lock_touch(t->ops[i].p->root, t->ops[i].p->dir, t->ops[i].lock);
}

static void heartbeat_cb(void *t) { heartbeat(t, false); }

/* The core's plan for these ops: lock order, names, records, the journal. */
static ec_error_code plan(eh_txn *t, eh_err *err) {
  char txn[17];
  eh_random_hex(txn, 16);
  txn[16] = '\0';
  cJSON *q = eh_commit_new("plan", txn, true);
  cJSON *ops = cJSON_AddArrayToObject(q, "ops");
  for (size_t i = 0; i < t->n; i++) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "path", t->ops[i].p->real);
    cJSON_AddStringToObject(j, "action", t->ops[i].del ? "delete" : "write");
    cJSON_AddItemToArray(ops, j);
  }
  t->plan = eh_commit_ask(q);
  const cJSON *files = cJSON_GetObjectItemCaseSensitive(t->plan, "files");
  if (!cJSON_IsArray(files) || (size_t)cJSON_GetArraySize(files) != t->n) {
    const char *msg = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t->plan, "error"), "message"));
    return eh_fail(err, msg ? EC_INVALID_PARAM : EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, t->ops[0].p->shown, "%s",
                   msg ? msg : "out of memory");
  }
  t->order = calloc(t->n, sizeof *t->order);
  if (!t->order) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory");
  size_t k = 0;
  const cJSON *f;
  cJSON_ArrayForEach(f, files) {
    size_t i = (size_t)cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(f, "op"));
    if (i >= t->n) return eh_fail(err, EC_IO_ERROR, EH_EXIT_USAGE_IO, NULL, "bad plan");
    t->order[k++] = i;
    t->ops[i].lock = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "lock"));
    t->ops[i].temp = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "temp"));
    t->ops[i].record = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "record"));
  }
  t->txn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(t->plan, "txn"));
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(t->plan, "journal");
  t->jdir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "dir"));
  t->jname = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "name"));
  return EC_OK;
}

static void release_locks(eh_txn *t) {
  for (size_t k = t->n; k-- > 0;) {
    op *o = &t->ops[t->order[k]];
    if (o->locked) eh_lock_release(o->p->root, o->p->dir, o->lock, o->record);
    o->locked = false;
  }
}

/* Every target locked, in the plan's order; a stale lock's journal finished first. */
static ec_error_code lock_all(eh_txn *t, eh_err *err) {
  double deadline = eh_now_ms() + eh_lock_wait_ms();
  for (int attempt = 0;; attempt++) {
    size_t k;
    for (k = 0; k < t->n; k++) {
      op *o = &t->ops[t->order[k]];
      const eh_root *root = o->p->root;
      if (!o->del && !o->old.exists && !o->n_made && eh_dir_make(root, o->p->dir, &o->made_dirs, &o->n_made) != 0)
        return eh_fail_errno(err, errno, o->p->shown, "create the directory for");
      eh_lock_req q = {o->p->dir, o->lock, o->record, t->txn, o->p->shown, heartbeat_cb, t};
      char *journal = NULL;
      eh_take r = eh_lock_take(root, &q, deadline, &journal, err);
      if (r == EH_TAKEN) {
        o->locked = true;
        heartbeat(t, false);
        continue;
      }
      release_locks(t);
      if (r != EH_RECOVER) return err->code ? err->code : EC_IO_ERROR;
      ec_error_code rc = attempt < 8 ? eh_recover(root, journal, 1, err)
                                     : eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, o->p->shown, "'%s' stays locked by unfinished edits; run again", o->p->shown);
      free(journal);
      if (rc) return rc;
      break; /* and start again from the first lock */
    }
    if (k == t->n) break;
  }
  /* Every temporary of a locked name is a dead writer's (a live one's exists only under its lock):
   * remove them, each directory listed once. */
  eh_dir_scan scans[8];
  memset(scans, 0, sizeof scans);
  size_t n_scans = 0, victim = 0;
  for (size_t k = 0; k < t->n; k++) {
    op *o = &t->ops[t->order[k]];
    eh_dir_scan *s = NULL;
    for (size_t i = 0; i < n_scans && !s; i++)
      if (!strcmp(scans[i].dir, o->p->dir)) s = &scans[i];
    if (!s && n_scans < 8) s = &scans[n_scans++];
    else if (!s) { s = &scans[victim]; victim = (victim + 1) % 8; eh_scan_free(s); }
    if (!s->dir) eh_scan_dir(o->p->root, o->p->dir, s);
    if (s->dir) eh_remove_temps_scanned(o->p->root, s, o->p->name);
    heartbeat(t, false);
  }
  for (size_t i = 0; i < n_scans; i++) eh_scan_free(&scans[i]);
  return EC_OK;
}

/* Under the locks: every target as the edit read it (the bytes themselves, not a stamp). */
static ec_error_code check_unchanged(eh_txn *t, eh_err *err) {
  for (size_t k = 0; k < t->n; k++) {
    op *o = &t->ops[t->order[k]];
    int dfd = eh_dir_fd(o->p->root, o->p->dir);
    char *now = NULL;
    size_t len = 0;
    struct stat st;
    int r = dfd < 0 ? -1 : eh_read_at(dfd, o->p->name, o->old.exists ? o->old_len + 1 : 0, &now, &len, &st);
    int e = errno;
    if (r == 0) eh_file_id(&st, o->old_id);
    bool same = o->old.exists ? r == 0 && len == o->old_len && (!len || !memcmp(now, o->old_bytes, len)) : r != 0 && e == ENOENT;
    free(now);
    heartbeat(t, false);
    if (!same && r != 0 && e != ENOENT && e != EFBIG && e != ELOOP && e != EISDIR) return eh_fail_errno(err, e, o->p->shown, "read again");
    if (!same)
      return eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, o->p->shown,
                     o->old.exists ? "'%s' changed on disk after editcore read it; nothing was written. Read it again and re-apply the change"
                                   : "'%s' appeared on disk after editcore looked; nothing was written",
                     o->p->shown);
  }
  return EC_OK;
}

static ec_error_code write_all(int fd, const char *p, size_t n, const char *shown, eh_err *err) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return eh_fail_errno(err, errno, shown, "write a temporary file for");
    p += w;
    n -= (size_t)w;
  }
  return EC_OK;
}

/* Writes `bytes` to the temporary `name` in `dir`, mode `mode` (kept exactly when keep_mode), fsynced. */
static ec_error_code stage(const eh_root *root, const char *dir, const char *name, const char *shown, const char *bytes, size_t len,
                           mode_t mode, bool keep_mode, eh_err *err) {
  int dfd = eh_dir_fd(root, dir);
  int fd = dfd < 0 ? -1 : openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, keep_mode ? (mode & 0777) : 0666);
  if (fd < 0) return eh_fail_errno(err, errno, shown, "create a temporary file beside");
  ec_error_code rc = write_all(fd, bytes, len, shown, err);
#ifndef __wasi__
  /* The old file's mode, exactly (open's mode passed through the umask). WASI has no modes. */
  if (!rc && keep_mode && fchmod(fd, mode & 07777) != 0) rc = eh_fail_errno(err, errno, shown, "set the mode of the new");
#endif
  if (!rc && fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP) rc = eh_fail_errno(err, errno, shown, "flush the new");
  if (close(fd) != 0 && !rc) rc = eh_fail_errno(err, errno, shown, "write the new");
  if (rc) {
    dfd = eh_dir_fd(root, dir);
    if (dfd >= 0) unlinkat(dfd, name, 0);
  }
  return rc;
}

/* The journal's text, from the core, once every identity is known. */
static char *journal_text(eh_txn *t) {
  cJSON *q = eh_commit_new("journal", t->txn, false);
  cJSON *ops = cJSON_AddArrayToObject(q, "ops");
  for (size_t i = 0; i < t->n; i++) {
    op *o = &t->ops[i];
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "path", o->p->real);
    cJSON_AddStringToObject(j, "action", o->del ? "delete" : "write");
    if (o->old_id[0]) cJSON_AddStringToObject(j, "old", o->old_id);
    else cJSON_AddNullToObject(j, "old");
    if (!o->del) cJSON_AddStringToObject(j, "new", o->new_id);
    cJSON_AddItemToArray(ops, j);
  }
  cJSON *a = eh_commit_ask(q);
  const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "text"));
  char *copy = text ? strdup(text) : NULL;
  cJSON_Delete(a);
  return copy;
}

static ec_error_code write_journal(eh_txn *t, eh_err *err) {
  const eh_root *root = t->ops[0].p->root;
  char *text = journal_text(t);
  if (!text) return eh_fail(err, EC_IO_ERROR, EH_EXIT_USAGE_IO, t->jname, "could not write the journal");
  int dfd = eh_dir_fd(root, t->jdir);
  int fd = dfd < 0 ? -1 : openat(dfd, t->jname, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) { free(text); return eh_fail_errno(err, errno, t->jname, "create the journal"); }
  ec_error_code rc = write_all(fd, text, strlen(text), t->jname, err);
  free(text);
  if (!rc && fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP) rc = eh_fail_errno(err, errno, t->jname, "flush the journal");
  if (close(fd) != 0 && !rc) rc = eh_fail_errno(err, errno, t->jname, "write the journal");
  if (rc) {
    dfd = eh_dir_fd(root, t->jdir);
    if (dfd >= 0) unlinkat(dfd, t->jname, 0);
    return rc;
  }
  eh_sync_dir(root, t->jdir); /* the journal's name is durable before the first rename */
  t->journaled = true;
  return EC_OK;
}

static void drop_journal(eh_txn *t) {
  if (!t->journaled) return;
  const eh_root *root = t->ops[0].p->root;
  int dfd = eh_dir_fd(root, t->jdir);
  if (dfd >= 0) unlinkat(dfd, t->jname, 0);
  eh_sync_dir(root, t->jdir);
  t->journaled = false;
}

/* Puts one finished op back from the bytes read (best effort), under its lock still held. */
static void undo(op *o) {
  if (!o->done) return;
  const eh_root *root = o->p->root;
  if (o->old.exists) {
    eh_err ignored;
    if (stage(root, o->p->dir, o->temp, o->p->shown, o->old_bytes, o->old_len, o->old.mode, true, &ignored) == EC_OK) {
      int dfd = eh_dir_fd(root, o->p->dir);
      if (dfd >= 0 && renameat(dfd, o->temp, dfd, o->p->name) != 0) unlinkat(dfd, o->temp, 0);
    }
  } else {
    int dfd = eh_dir_fd(root, o->p->dir);
    if (dfd >= 0) unlinkat(dfd, o->p->name, 0);
  }
  o->done = false;
}

static void remove_made_dirs(op *o) {
  for (size_t k = o->n_made; k-- > 0;) {
    char *slash = strrchr(o->made_dirs[k], '/');
    if (slash) *slash = '\0';
    int pfd = eh_dir_fd(o->p->root, slash ? o->made_dirs[k] : "");
    if (pfd >= 0) unlinkat(pfd, slash ? slash + 1 : o->made_dirs[k], AT_REMOVEDIR);
    if (slash) *slash = '/';
  }
}

ec_error_code eh_txn_commit(eh_txn *t, eh_err *err) {
  if (!t->n) return EC_OK;
  ec_error_code rc = plan(t, err);
  if (rc) return rc;
  test_pause("EDITCORE_TEST_PAUSE");
  rc = lock_all(t, err);
  if (!rc) test_pause("EDITCORE_TEST_HOLD");
  if (!rc) rc = check_unchanged(t, err);
  /* Stage every write; then, with two or more operations, the journal: the commit point. */
  for (size_t k = 0; k < t->n && !rc; k++) {
    op *o = &t->ops[t->order[k]];
    if (o->del) continue;
    rc = stage(o->p->root, o->p->dir, o->temp, o->p->shown, o->content, o->len, o->old.mode, o->old.exists, err);
    o->staged = !rc;
    int dfd = o->staged ? eh_dir_fd(o->p->root, o->p->dir) : -1;
    struct stat st;
    if (dfd >= 0 && fstatat(dfd, o->temp, &st, AT_SYMLINK_NOFOLLOW) == 0) eh_file_id(&st, o->new_id);
    else if (!rc) rc = eh_fail_errno(err, errno, o->p->shown, "look at the temporary file for");
    heartbeat(t, false);
  }
  if (!rc && t->jname) rc = write_journal(t, err);
  /* Renames, then deletions, in the plan's order. */
  bool first = true;
  for (size_t k = 0; k < t->n && !rc; k++) {
    op *o = &t->ops[t->order[k]];
    if (o->del) continue;
    if (!first) test_rename_gap();
    first = false;
    int dfd = eh_dir_fd(o->p->root, o->p->dir);
    if (dfd < 0 || renameat(dfd, o->temp, dfd, o->p->name) != 0) { rc = eh_fail_errno(err, errno, o->p->shown, "replace"); break; }
    o->staged = false;
    o->done = true;
    heartbeat(t, false);
  }
  for (size_t k = 0; k < t->n && !rc; k++) {
    op *o = &t->ops[t->order[k]];
    if (!o->del) continue;
    int dfd = eh_dir_fd(o->p->root, o->p->dir);
    if (dfd < 0 || unlinkat(dfd, o->p->name, 0) != 0) { rc = eh_fail_errno(err, errno, o->p->shown, "delete"); break; }
    o->done = true;
    heartbeat(t, false);
  }
  if (rc) {
    for (size_t k = t->n; k-- > 0;) {
      op *o = &t->ops[t->order[k]];
      undo(o);
      if (o->staged) {
        int dfd = eh_dir_fd(o->p->root, o->p->dir);
        if (dfd >= 0) unlinkat(dfd, o->temp, 0);
        o->staged = false;
      }
    }
    drop_journal(t);
    release_locks(t);
    for (size_t i = 0; i < t->n; i++) remove_made_dirs(&t->ops[i]); /* (emptied of their locks first) */
    return rc;
  }
  /* Make the renames durable: fsync each directory touched (once), and the parents of the
   * directories we created (their entries too, or a crash could lose the new file). */
  for (size_t i = 0; i < t->n; i++) {
    bool seen = false;
    for (size_t k = 0; k < i && !seen; k++) seen = !strcmp(t->ops[k].p->dir, t->ops[i].p->dir);
    if (!seen) eh_sync_dir(t->ops[i].p->root, t->ops[i].p->dir);
    for (size_t k = 0; k < t->ops[i].n_made; k++) {
      char *slash = strrchr(t->ops[i].made_dirs[k], '/');
      if (slash) *slash = '\0';
      eh_sync_dir(t->ops[i].p->root, slash ? t->ops[i].made_dirs[k] : "");
      if (slash) *slash = '/';
    }
  }
  drop_journal(t);
  release_locks(t);
  return EC_OK;
}
