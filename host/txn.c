#include "txn.h"
#include "sys.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TMP_TAG ".editcore-"
#define TMP_SUFFIX ".tmp"
#define TMP_HEX 8
#define TMP_BASE_MAX 200 /* keeps ".<name>.editcore-XXXXXXXX.tmp" under NAME_MAX */

typedef struct op {
  const eh_path *p;
  bool del;
  const char *content;
  size_t len;
  eh_stamp old;
  const char *old_bytes;
  size_t old_len;
  char *tmp;           /* staged temporary (full path), NULL when none */
  bool done;           /* renamed / deleted */
  char **made_dirs;    /* parent directories this op created, deepest last */
  size_t n_made;
} op;

struct eh_txn {
  op *ops;
  size_t n, cap;
};

eh_txn *eh_txn_new(void) { return calloc(1, sizeof(eh_txn)); }

void eh_txn_free(eh_txn *t) {
  if (!t) return;
  for (size_t i = 0; i < t->n; i++) {
    free(t->ops[i].tmp);
    for (size_t k = 0; k < t->ops[i].n_made; k++) free(t->ops[i].made_dirs[k]);
    free(t->ops[i].made_dirs);
  }
  free(t->ops);
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
  o->old = *old;
  o->old_bytes = old_bytes;
  o->old_len = old_len;
  return true;
}

/* Splits a full path into its directory (malloc'd, "." when none) and base name (pointer into it). */
static char *dir_of(const char *full, const char **base) {
  const char *slash = strrchr(full, '/');
  *base = slash ? slash + 1 : full;
  if (!slash) return strdup(".");
  if (slash == full) return strdup("/");
  return strndup(full, (size_t)(slash - full));
}

/* Whether `name` is one of our temporaries for base name `base`. */
static bool is_tmp_of(const char *name, const char *base) {
  size_t bl = strlen(base);
  if (bl > TMP_BASE_MAX) bl = TMP_BASE_MAX;
  size_t tl = strlen(TMP_TAG), sl = strlen(TMP_SUFFIX);
  if (strlen(name) != 1 + bl + tl + TMP_HEX + sl) return false;
  if (name[0] != '.' || strncmp(name + 1, base, bl) || strncmp(name + 1 + bl, TMP_TAG, tl)) return false;
  const char *h = name + 1 + bl + tl;
  for (int i = 0; i < TMP_HEX; i++)
    if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f'))) return false;
  return strcmp(h + TMP_HEX, TMP_SUFFIX) == 0;
}

/* Whether `name` looks like any of our temporaries ("." + name + TMP_TAG + hex + TMP_SUFFIX). */
static bool is_tmp(const char *name) {
  size_t n = strlen(name), tl = strlen(TMP_TAG), sl = strlen(TMP_SUFFIX);
  if (name[0] != '.' || n < 1 + tl + TMP_HEX + sl) return false;
  const char *tag = name + n - sl - TMP_HEX - tl;
  return !strncmp(tag, TMP_TAG, tl) && !strcmp(name + n - sl, TMP_SUFFIX);
}

/*
 * Temporaries seen in each directory, read once per process (a batch of 10 000 files in one
 * directory must not list it 10 000 times). Only a target's own temporaries are removed, when
 * that target is looked at: another live editcore may be writing other files of the directory.
 */
typedef struct dir_scan {
  char *dir;
  char **names;
  size_t n;
} dir_scan;
static dir_scan *scans;
static size_t n_scans;

static dir_scan *scan_of(const char *dir) {
  for (size_t i = 0; i < n_scans; i++)
    if (!strcmp(scans[i].dir, dir)) return &scans[i];
  dir_scan *grown = realloc(scans, (n_scans + 1) * sizeof *scans);
  if (!grown) return NULL;
  scans = grown;
  dir_scan *s = &scans[n_scans];
  memset(s, 0, sizeof *s);
  s->dir = strdup(dir);
  if (!s->dir) return NULL;
  n_scans++;
  DIR *d = opendir(dir);
  if (!d) return s;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!is_tmp(e->d_name)) continue;
    char **names = realloc(s->names, (s->n + 1) * sizeof *names);
    if (!names) break;
    s->names = names;
    if ((s->names[s->n] = strdup(e->d_name)) != NULL) s->n++;
  }
  closedir(d);
  return s;
}

static void clean_stale(const char *dir, const char *base) {
  dir_scan *s = scan_of(dir);
  if (!s) return;
  for (size_t i = 0; i < s->n;) {
    if (!is_tmp_of(s->names[i], base)) { i++; continue; }
    char *full = eh_join(dir, s->names[i]);
    if (full) unlink(full);
    free(full);
    free(s->names[i]);
    s->names[i] = s->names[--s->n];
  }
}

void eh_clean_stale_for(const char *full) {
  const char *base;
  char *dir = dir_of(full, &base);
  if (dir) clean_stale(dir, base);
  free(dir);
}

static void sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  fsync(fd); /* some file systems (and WASI preopens) refuse this on a directory: harmless */
  close(fd);
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

/* Creates the missing parent directories of a new file (inside the root: the path was resolved). */
static ec_error_code make_parents(op *o, const char *dir, eh_err *err) {
  struct stat st;
  if (stat(dir, &st) == 0) return S_ISDIR(st.st_mode) ? EC_OK : eh_fail(err, EC_IO_ERROR, EH_EXIT_USAGE_IO, o->p->shown,
                                                                      "'%s': a part of the path is not a directory", o->p->shown);
  const char *base;
  char *parent = dir_of(dir, &base);
  if (!parent) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, o->p->shown, "out of memory");
  ec_error_code rc = strcmp(parent, dir) ? make_parents(o, parent, err) : EC_OK;
  free(parent);
  if (rc) return rc;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) return eh_fail_errno(err, errno, o->p->shown, "create the directory for");
  char **m = realloc(o->made_dirs, (o->n_made + 1) * sizeof *m);
  if (!m) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, o->p->shown, "out of memory");
  o->made_dirs = m;
  o->made_dirs[o->n_made++] = strdup(dir);
  return EC_OK;
}

/* Writes `bytes` to a fresh temporary beside `full`, mode `mode`, fsynced. *tmp_out: its path. */
static ec_error_code stage(const char *full, const char *shown, const char *bytes, size_t len, mode_t mode, bool keep_mode,
                           char **tmp_out, eh_err *err) {
  *tmp_out = NULL;
  const char *base;
  char *dir = dir_of(full, &base);
  if (!dir) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown, "out of memory");
  clean_stale(dir, base);
  size_t bl = strlen(base);
  if (bl > TMP_BASE_MAX) bl = TMP_BASE_MAX;
  ec_error_code rc = EC_OK;
  int fd = -1;
  char *tmp = NULL;
  for (int attempt = 0; attempt < 8 && fd < 0; attempt++) {
    char hex[TMP_HEX + 1];
    eh_random_hex(hex, TMP_HEX);
    hex[TMP_HEX] = '\0';
    char name[TMP_BASE_MAX + 64];
    snprintf(name, sizeof name, ".%.*s%s%s%s", (int)bl, base, TMP_TAG, hex, TMP_SUFFIX);
    free(tmp);
    tmp = eh_join(dir, name);
    if (!tmp) break;
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, keep_mode ? (mode & 0777) : 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  free(dir);
  if (!tmp) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown, "out of memory");
  if (fd < 0) { rc = eh_fail_errno(err, errno, shown, "create a temporary file beside"); free(tmp); return rc; }
  rc = write_all(fd, bytes, len, shown, err);
#ifndef __wasi__
  /* The old file's mode, exactly (open's mode passed through the umask). WASI has no modes. */
  if (!rc && keep_mode && fchmod(fd, mode & 07777) != 0) rc = eh_fail_errno(err, errno, shown, "set the mode of the new");
#endif
  if (!rc && fsync(fd) != 0 && errno != EINVAL && errno != ENOTSUP) rc = eh_fail_errno(err, errno, shown, "flush the new");
  if (close(fd) != 0 && !rc) rc = eh_fail_errno(err, errno, shown, "write the new");
  if (rc) { unlink(tmp); free(tmp); return rc; }
  *tmp_out = tmp;
  return EC_OK;
}

/* Test hook: with EDITCORE_TEST_PAUSE=<path>, create <path>.ready and wait (up to 20 s) for
 * <path>.go before the renames, so a test can change a file between our read and our write. */
static void test_pause(void) {
  const char *p = getenv("EDITCORE_TEST_PAUSE");
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

/* Test hook: EDITCORE_TEST_RENAME_GAP_MS=<n> sleeps n ms between two renames, so the durability
 * test's kills also land between the renames of one edit (a few microseconds apart otherwise). */
static void test_rename_gap(void) {
  const char *p = getenv("EDITCORE_TEST_RENAME_GAP_MS");
  long ms = p ? strtol(p, NULL, 10) : 0;
  if (ms <= 0) return;
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

/* Puts one finished op back from the bytes read (best effort; reports what it could not). */
static void undo(op *o) {
  if (!o->done) return;
  if (o->old.exists) {
    char *tmp = NULL;
    eh_err ignored;
    if (stage(o->p->full, o->p->shown, o->old_bytes, o->old_len, o->old.mode, true, &tmp, &ignored) == EC_OK) {
      if (rename(tmp, o->p->full) != 0) unlink(tmp);
      free(tmp);
    }
  } else {
    unlink(o->p->full);
  }
  o->done = false;
}

static void remove_made_dirs(op *o) {
  for (size_t k = o->n_made; k-- > 0;) rmdir(o->made_dirs[k]);
}

ec_error_code eh_txn_commit(eh_txn *t, eh_err *err) {
  ec_error_code rc = EC_OK;
  size_t i;
  /* 1. Stage every write. */
  for (i = 0; i < t->n && !rc; i++) {
    op *o = &t->ops[i];
    if (o->del) continue;
    if (!o->old.exists) {
      const char *base;
      char *dir = dir_of(o->p->full, &base);
      if (!dir) { rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, o->p->shown, "out of memory"); break; }
      rc = make_parents(o, dir, err);
      free(dir);
      if (rc) break;
    }
    rc = stage(o->p->full, o->p->shown, o->content, o->len, o->old.mode, o->old.exists, &o->tmp, err);
  }
  /* 2. Nothing may have changed since we read it. */
  if (!rc) test_pause();
  for (i = 0; i < t->n && !rc; i++) {
    op *o = &t->ops[i];
    struct stat st;
    eh_stamp now = {0};
    if (lstat(o->p->full, &st) == 0) eh_stamp_of(&st, &now);
    if (!eh_stamp_same(&o->old, &now))
      rc = eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, o->p->shown,
                   o->old.exists ? "'%s' changed on disk after editcore read it; nothing was written. Read it again and re-apply the change"
                                 : "'%s' appeared on disk after editcore looked; nothing was written",
                   o->p->shown);
  }
  /* 3. Renames, then deletions. */
  for (i = 0; i < t->n && !rc; i++) {
    op *o = &t->ops[i];
    if (o->del) continue;
    if (i) test_rename_gap();
    if (rename(o->tmp, o->p->full) != 0) { rc = eh_fail_errno(err, errno, o->p->shown, "replace"); break; }
    free(o->tmp);
    o->tmp = NULL;
    o->done = true;
  }
  for (i = 0; i < t->n && !rc; i++) {
    op *o = &t->ops[i];
    if (!o->del) continue;
    if (unlink(o->p->full) != 0) { rc = eh_fail_errno(err, errno, o->p->shown, "delete"); break; }
    o->done = true;
  }
  if (rc) {
    for (i = t->n; i-- > 0;) {
      op *o = &t->ops[i];
      undo(o);
      if (o->tmp) { unlink(o->tmp); free(o->tmp); o->tmp = NULL; }
      remove_made_dirs(o);
    }
    return rc;
  }
  /* 4. Make the renames durable: fsync each directory touched (once). */
  for (i = 0; i < t->n; i++) {
    const char *base;
    char *dir = dir_of(t->ops[i].p->full, &base);
    if (!dir) continue;
    bool seen = false;
    for (size_t k = 0; k < i && !seen; k++) {
      char *d2 = dir_of(t->ops[k].p->full, &base);
      seen = d2 && !strcmp(d2, dir);
      free(d2);
    }
    if (!seen) sync_dir(dir);
    free(dir);
    /* A directory we created is an entry in its parent: that entry must be durable too, or a
     * crash can lose the new directory (and the file in it) after we reported success. */
    for (size_t k = 0; k < t->ops[i].n_made; k++) {
      char *parent = dir_of(t->ops[i].made_dirs[k], &base);
      if (parent) sync_dir(parent);
      free(parent);
    }
  }
  return EC_OK;
}
