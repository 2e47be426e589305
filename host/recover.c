#include "recover.h"
#include "files.h"
#include "lock.h"
#include "sys.h"
#include "editcore_commit.h"
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#define MAX_DEPTH 3
#define JOURNAL_MAX (64u << 20)

void eh_sync_dir(const eh_root *root, const char *dir) {
  int dfd = eh_dir_fd(root, dir);
  if (dfd >= 0) fsync(dfd); /* some file systems (and WASI preopens) refuse this on a directory: harmless */
}

bool eh_scan_dir(const eh_root *root, const char *dir, eh_dir_scan *s) {
  memset(s, 0, sizeof *s);
  s->dir = strdup(dir);
  int dfd = eh_dir_fd(root, dir);
  int lfd = dfd < 0 ? -1 : openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = lfd < 0 ? NULL : fdopendir(lfd);
  if (!d || !s->dir) {
    if (!d && lfd >= 0) close(lfd);
    if (d) closedir(d);
    return false;
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] != '.' || !strstr(e->d_name, ".editcore-")) continue;
    char **grown = realloc(s->names, (s->n + 1) * sizeof *grown);
    if (!grown) break;
    s->names = grown;
    if ((s->names[s->n] = strdup(e->d_name)) != NULL) s->n++;
  }
  closedir(d);
  return true;
}

void eh_scan_free(eh_dir_scan *s) {
  for (size_t i = 0; i < s->n; i++) free(s->names[i]);
  free(s->names);
  free(s->dir);
  memset(s, 0, sizeof *s);
}

void eh_remove_temps_scanned(const eh_root *root, const eh_dir_scan *s, const char *base) {
  /* The names that may be ours, for the core to say which are temporaries of base. */
  size_t bl = strlen(base) < 200 ? strlen(base) : 200;
  cJSON *names = NULL;
  for (size_t i = 0; i < s->n; i++) {
    if (strncmp(s->names[i] + 1, base, bl)) continue;
    if (!names) names = cJSON_CreateArray();
    cJSON_AddItemToArray(names, cJSON_CreateString(s->names[i]));
  }
  if (!names) return; /* the usual case: no call at all */
  cJSON *q = eh_commit_new("temps", NULL, false);
  cJSON_AddStringToObject(q, "base", base);
  cJSON_AddItemToObject(q, "names", names);
  cJSON *a = eh_commit_ask(q);
  const cJSON *t;
  int dfd = eh_dir_fd(root, s->dir);
  cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(a, "temps"))
    if (dfd >= 0 && cJSON_IsString(t)) unlinkat(dfd, t->valuestring, 0);
  cJSON_Delete(a);
}

void eh_remove_temps(const eh_root *root, const char *dir, const char *base) {
  eh_dir_scan s;
  if (eh_scan_dir(root, dir, &s)) eh_remove_temps_scanned(root, &s, base);
  eh_scan_free(&s);
}

/* The identity of `name` in `dir` as the core's observation (editcore_commit.h), or JSON null
 * when absent. A symlink or anything not a regular file matches no journal's identity. */
static cJSON *observe(const eh_root *root, const char *dir, const char *name) {
  int dfd = eh_dir_fd(root, dir);
  struct stat st;
  if (dfd < 0 || fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return errno == ENOENT ? cJSON_CreateNull() : cJSON_CreateString("unreadable");
  if (!S_ISREG(st.st_mode)) return cJSON_CreateString("not-a-regular-file");
  char id[EH_FILE_ID_MAX];
  eh_file_id(&st, id);
  return cJSON_CreateString(id);
}

typedef struct held {
  const char *dir, *lock, *record;
} held;

typedef struct held_set {
  const eh_root *root;
  held *h;
  size_t *n;
  double beat;
} held_set;

static void touch_held(void *ctx) {
  held_set *s = ctx;
  if (eh_now_ms() - s->beat < EC_LOCK_HEARTBEAT_MS / 2) return;
  s->beat = eh_now_ms();
  for (size_t i = 0; i < *s->n; i++) eh_lock_touch(s->root, s->h[i].dir, s->h[i].lock);
}

static void release_all(const eh_root *root, held *h, size_t n) {
  for (size_t i = n; i-- > 0;) eh_lock_release(root, h[i].dir, h[i].lock, h[i].record);
}

static cJSON *ask_recover(const char *text, const char *jdir, cJSON *observed) {
  cJSON *q = eh_commit_new("recover", NULL, true);
  cJSON_AddStringToObject(q, "journal", text);
  cJSON_AddStringToObject(q, "journal_dir", jdir);
  if (observed) cJSON_AddItemToObject(q, "observed", observed);
  return eh_commit_ask(q);
}

ec_error_code eh_recover(const eh_root *root, const char *journal, int depth, eh_err *err) {
  char *jdir = strdup(journal);
  if (!jdir) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, journal, "out of memory");
  char *slash = strrchr(jdir, '/');
  const char *jname = slash ? slash + 1 : jdir;
  if (slash) *slash = '\0';
  const char *jd = slash ? jdir : "";
  char *text = NULL;
  size_t len = 0;
  ec_error_code rc = EC_OK;
  cJSON *plan = NULL, *done = NULL;
  held *h = NULL;
  size_t n_held = 0;
  int jfd = eh_dir_fd(root, jd);
  if (jfd < 0 || eh_read_at(jfd, jname, JOURNAL_MAX, &text, &len, NULL) != 0) goto out; /* finished meanwhile */
  plan = ask_recover(text, jd, NULL);
  if (!plan) { rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, journal, "out of memory"); goto out; }
  if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(plan, "valid"))) {
    /* Cut short: its writer died before the commit point, so nothing was renamed. */
    jfd = eh_dir_fd(root, jd);
    if (jfd >= 0) unlinkat(jfd, jname, 0);
    goto out;
  }
  const char *txn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(plan, "txn"));
  const cJSON *files = cJSON_GetObjectItemCaseSensitive(plan, "files");
  size_t n = (size_t)cJSON_GetArraySize(files);
  h = calloc(n + 1, sizeof *h);
  if (!h) { rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, journal, "out of memory"); goto out; }
  /* The set's locks, in the journal's order (the one global order). */
  double deadline = eh_now_ms() + eh_lock_wait_ms();
  held_set beats = {root, h, &n_held, eh_now_ms()};
  for (int attempt = 0;; attempt++) {
    const cJSON *f;
    bool restart = false;
    cJSON_ArrayForEach(f, files) {
      eh_lock_req q = {cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "dir")),
                       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "lock")),
                       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "record")), txn,
                       cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "path")), touch_held, &beats};
      char *other = NULL;
      eh_take t = eh_lock_take(root, &q, deadline, &other, err);
      if (t == EH_TAKEN) { h[n_held++] = (held){q.dir, q.lock, q.record}; continue; }
      release_all(root, h, n_held);
      n_held = 0;
      if (t == EH_RECOVER && depth < MAX_DEPTH && attempt < 8) {
        /* Another dead edit's lock on one of these files: finish that one first, then start again. */
        rc = eh_recover(root, other, depth + 1, err);
        free(other);
        if (rc) goto out;
        restart = true;
        break;
      }
      free(other);
      if (t == EH_RECOVER)
        rc = eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, q.shown, "'%s' is held by a chain of unfinished edits; run again", q.shown);
      else
        rc = err->code ? err->code : EC_IO_ERROR;
      goto out;
    }
    if (!restart) break;
  }
  /* What is on disk now, for the core to decide each file's step. */
  cJSON *observed = cJSON_CreateArray();
  const cJSON *f;
  cJSON_ArrayForEach(f, files) {
    const char *dir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "dir"));
    const char *temp = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "temp"));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "target", observe(root, dir, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "base"))));
    cJSON_AddItemToObject(o, "temp", temp ? observe(root, dir, temp) : cJSON_CreateNull());
    cJSON_AddItemToArray(observed, o);
  }
  done = ask_recover(text, jd, observed);
  const cJSON *actions = cJSON_GetObjectItemCaseSensitive(done, "actions");
  if (!cJSON_IsArray(actions)) { rc = eh_fail(err, EC_IO_ERROR, EH_EXIT_USAGE_IO, journal, "could not plan the recovery of '%s'", journal); goto out; }
  const cJSON *a = actions ? actions->child : NULL;
  cJSON_ArrayForEach(f, files) {
    const char *dir = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "dir"));
    const char *base = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "base"));
    const char *temp = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "temp"));
    const char *what = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "do"));
    int dfd = eh_dir_fd(root, dir);
    if (dfd >= 0 && what && !strcmp(what, "rename") && renameat(dfd, temp, dfd, base) != 0)
      rc = eh_fail_errno(err, errno, base, "finish the interrupted edit of");
    if (dfd >= 0 && what && !strcmp(what, "delete") && unlinkat(dfd, base, 0) != 0 && errno != ENOENT)
      rc = eh_fail_errno(err, errno, base, "finish the interrupted deletion of");
    a = a ? a->next : NULL;
    touch_held(&beats);
  }
  if (rc) goto out; /* the journal stays: the next run tries again */
  cJSON_ArrayForEach(f, files) eh_sync_dir(root, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "dir")));
  jfd = eh_dir_fd(root, jd);
  if (jfd >= 0) unlinkat(jfd, jname, 0);
  eh_sync_dir(root, jd);
  /* Every temporary of these files is dead now (we hold their locks): the set's own and older ones. */
  cJSON_ArrayForEach(f, files)
    eh_remove_temps(root, cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "dir")),
                    cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "base")));
  const char *report = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(done, "text"));
  if (report) fprintf(stderr, "editcore: %s\n", report);
out:
  release_all(root, h, n_held);
  free(h);
  cJSON_Delete(plan);
  cJSON_Delete(done);
  free(text);
  free(jdir);
  return rc;
}

bool eh_settle(const eh_root *root, const char *dir, const char *name) {
  char lock[EC_COMMIT_NAME_MAX];
  if (!root || !strcmp(name, ".") || !ec_commit_lock_name_of(name, strlen(name), lock, sizeof lock)) return false;
  if (!eh_lock_is_stale(root, dir, lock)) return false; /* none (the usual case: one fstatat), or a live writer's */
  /* Take it (which breaks it, or finishes the journal it names first), clean up, let go. */
  char *record = NULL;
  char hex[17];
  eh_random_hex(hex, 16);
  hex[16] = '\0';
  cJSON *q = eh_commit_new("plan", hex, true);
  cJSON *ops = cJSON_AddArrayToObject(q, "ops"), *op = cJSON_CreateObject();
  char *path = eh_path_in(dir, name);
  cJSON_AddStringToObject(op, "path", path ? path : name);
  cJSON_AddStringToObject(op, "action", "delete"); /* (a record only: nothing is deleted) */
  cJSON_AddItemToArray(ops, op);
  free(path);
  cJSON *plan = eh_commit_ask(q);
  const cJSON *f = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(plan, "files"), 0);
  record = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(f, "record"));
  eh_err err = {0};
  for (int attempt = 0; record && attempt < 4; attempt++) {
    eh_lock_req lq = {dir, lock, record, hex, name, NULL, NULL};
    char *journal = NULL;
    eh_take t = eh_lock_take(root, &lq, eh_now_ms() + eh_lock_wait_ms(), &journal, &err);
    if (t == EH_TAKEN) {
      eh_remove_temps(root, dir, name);
      eh_lock_release(root, dir, lock, record);
      break;
    }
    if (t != EH_RECOVER) break;
    ec_error_code rc = eh_recover(root, journal, 1, &err);
    free(journal);
    if (rc) break;
  }
  if (err.code) fprintf(stderr, "editcore: could not finish what a killed run left beside '%s': %s\n", name, err.message);
  cJSON_Delete(plan);
  return true;
}
