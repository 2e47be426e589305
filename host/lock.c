#include "lock.h"
#include "sys.h"
#include "editcore_commit.h"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifndef __wasi__
#include <signal.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#define RECORD_MAX 16384

double eh_now_ms(void) { return eh_clock_ms(NULL); }

double eh_lock_wait_ms(void) {
  const char *s = getenv("EDITCORE_LOCK_WAIT_MS");
  double v = s && *s ? strtod(s, NULL) : 0;
  return v > 0 ? v : EC_LOCK_WAIT_MS;
}

static double wall_ms(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_REALTIME, &ts) != 0) return 0;
  return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static void sleep_ms(double ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)((ms - (double)(time_t)(ms / 1000) * 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

/* Section - who we are */

#ifndef __wasi__
/* A small text file's first line (no newline), or "" (the buffer is out[n]). */
static void first_line(const char *path, char *out, size_t n) {
  out[0] = '\0';
  FILE *f = fopen(path, "rb");
  if (!f) return;
  if (fgets(out, (int)n, f)) out[strcspn(out, "\n")] = '\0';
  fclose(f);
}
#endif

/* Field 22 of /proc/PID/stat (the start time in clock ticks since boot) and field 3 (the state).
 * Returns 0 when read, -1 when there is no such process, -2 when /proc cannot tell. */
static int proc_stat(long long pid, char *start, size_t n, char *state) {
  start[0] = '\0';
  *state = '?';
#ifdef __wasi__
  (void)pid;
  (void)n;
  return -2;
#else
  char path[64], buf[1024];
  snprintf(path, sizeof path, "/proc/%lld/stat", pid);
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (errno != ENOENT) return -2;
    return access("/proc/self/stat", R_OK) == 0 ? -1 : -2;
  }
  size_t got = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[got] = '\0';
  char *p = strrchr(buf, ')'); /* the command name (field 2) may hold spaces and parentheses */
  if (!p) return -2;
  p++;
  int field = 2;
  char *tok = strtok(p, " ");
  while (tok && field < 22) {
    field++;
    if (field == 3) *state = tok[0];
    if (field == 22) snprintf(start, n, "%s", tok);
    tok = strtok(NULL, " ");
  }
  return field == 22 ? 0 : -2;
#endif
}

const char *eh_owner_json(void) {
  static char *json;
  if (json) return json;
  cJSON *o = cJSON_CreateObject();
  char start[64] = "", boot[128] = "", pidns[128] = "", host[256] = "";
#ifdef __wasi__
  cJSON_AddNumberToObject(o, "pid", 0); /* a guest has no pid another process could check */
  cJSON_AddStringToObject(o, "kind", "wasi");
#else
  long long pid = (long long)getpid();
  char state;
  proc_stat(pid, start, sizeof start, &state);
  first_line("/proc/sys/kernel/random/boot_id", boot, sizeof boot);
  ssize_t n = readlink("/proc/self/ns/pid", pidns, sizeof pidns - 1);
  pidns[n > 0 ? n : 0] = '\0';
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  host[sizeof host - 1] = '\0';
  cJSON_AddNumberToObject(o, "pid", (double)pid);
  cJSON_AddStringToObject(o, "kind", "native");
#endif
  cJSON_AddStringToObject(o, "start", start);
  cJSON_AddStringToObject(o, "boot", boot);
  cJSON_AddStringToObject(o, "pidns", pidns);
  cJSON_AddStringToObject(o, "host", host);
  json = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  return json ? json : "{}";
}

cJSON *eh_commit_new(const char *what, const char *txn, bool with_owner) {
  cJSON *q = cJSON_CreateObject();
  cJSON_AddStringToObject(q, "commit", what);
  if (txn) cJSON_AddStringToObject(q, "txn", txn);
  if (with_owner) cJSON_AddItemToObject(q, "owner", cJSON_Parse(eh_owner_json()));
  return q;
}

cJSON *eh_commit_ask(cJSON *q) {
  char *req = cJSON_PrintUnformatted(q);
  cJSON_Delete(q);
  size_t n = 0;
  char *out = req ? ec_commit_json(req, strlen(req), eh_core_host(), &n) : NULL;
  free(req);
  if (!out) return NULL;
  cJSON *doc = cJSON_ParseWithLength(out, n);
  ec_free(eh_core_host(), out);
  return doc;
}

/* Section - looking at a lock */

/* Reads a lock file: its text (NUL-terminated, in buf) and age. 0, or -1 with errno (ENOENT: gone). */
static int read_lock(int dfd, const char *lock, char *buf, size_t cap, double *age_ms, ino_t *ino) {
  int fd = openat(dfd, lock, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  size_t n = 0;
  ssize_t got;
  while (n < cap - 1 && (got = read(fd, buf + n, cap - 1 - n)) != 0) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) { int e = errno; close(fd); errno = e; return -1; }
    n += (size_t)got;
  }
  buf[n] = '\0';
  int rc = fstat(fd, &st);
  close(fd);
  if (rc != 0) return -1;
  *age_ms = wall_ms() - ((double)st.st_mtim.tv_sec * 1000.0 + (double)st.st_mtim.tv_nsec / 1e6);
  *ino = st.st_ino;
  return 0;
}

typedef struct verdict {
  int stale;          /* 1 stale, 0 live */
  char txn[32];
  char journal[PATH_MAX];
  char why[512];
} verdict;

/* The core's verdict on a lock's text, after looking at the owner's pid when it asks. */
static void judge(const char *text, double age_ms, verdict *v) {
  memset(v, 0, sizeof *v);
  const char *owner = NULL;
  char start[64] = "";
  for (int round = 0; round < 2; round++) {
    cJSON *q = eh_commit_new("lock", NULL, false);
    cJSON_AddStringToObject(q, "record", text);
    cJSON_AddItemToObject(q, "me", cJSON_Parse(eh_owner_json()));
    cJSON_AddNumberToObject(q, "age_ms", age_ms);
    if (owner) {
      cJSON_AddStringToObject(q, "owner", owner);
      cJSON_AddStringToObject(q, "owner_start", start);
    }
    cJSON *a = eh_commit_ask(q);
    if (!a) { snprintf(v->why, sizeof v->why, "out of memory"); return; }
    const cJSON *stale = cJSON_GetObjectItemCaseSensitive(a, "stale");
    const char *why = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "why"));
    const char *txn = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "txn"));
    const char *journal = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(a, "journal"));
    double pid = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(a, "pid"));
    snprintf(v->why, sizeof v->why, "%s", why ? why : "");
    snprintf(v->txn, sizeof v->txn, "%s", txn ? txn : "");
    snprintf(v->journal, sizeof v->journal, "%s", journal ? journal : "");
    v->stale = cJSON_IsTrue(stale);
    bool look = cJSON_IsNull(stale) && !owner;
    cJSON_Delete(a);
    if (!look) return;
    char state;
    int r = proc_stat((long long)pid, start, sizeof start, &state);
#ifndef __wasi__
    if (r == -2) r = kill((pid_t)pid, 0) == 0 || errno == EPERM ? 0 : errno == ESRCH ? -1 : -2;
#endif
    owner = r == -1 || state == 'Z' || state == 'X' ? "dead" : r == 0 ? "alive" : "unknown";
  }
}

bool eh_lock_is_stale(const eh_root *root, const char *dir, const char *lock) {
  int dfd = eh_dir_fd(root, dir);
  struct stat st;
  if (dfd < 0 || fstatat(dfd, lock, &st, AT_SYMLINK_NOFOLLOW) != 0) return false;
  char *buf = malloc(RECORD_MAX);
  double age = 0;
  ino_t ino;
  bool stale = false;
  if (buf && read_lock(dfd, lock, buf, RECORD_MAX, &age, &ino) == 0) {
    verdict v;
    judge(buf, age, &v);
    stale = v.stale;
  }
  free(buf);
  return stale;
}

/* Section - taking, breaking, releasing */

/*
 * Removes a stale lock whose text we judged: renamed aside first, so that if someone broke it and
 * took it again meanwhile, we find their record (not the one judged), put it back and leave it.
 */
static void break_lock(int dfd, const char *lock, const char *judged) {
  char aside[NAME_MAX + 1], hex[9];
  eh_random_hex(hex, 8);
  hex[8] = '\0';
  if ((size_t)snprintf(aside, sizeof aside, "%.*s.broken-%s", NAME_MAX - 20, lock, hex) >= sizeof aside) return;
  if (renameat(dfd, lock, dfd, aside) != 0) return; /* gone already: someone else broke it */
  char *buf = malloc(RECORD_MAX);
  double age;
  ino_t ino;
  if (buf && read_lock(dfd, aside, buf, RECORD_MAX, &age, &ino) == 0 && strcmp(buf, judged) != 0)
    linkat(dfd, aside, dfd, lock, 0); /* a live owner's: back in place (unless yet another took the name) */
  unlinkat(dfd, aside, 0);
  free(buf);
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* The journal a stale record names, from the root (malloc'd in *out); false when it lies above
 * the root (this run cannot finish it). */
static bool journal_from_root(const char *dir, const char *journal, char **out) {
  *out = NULL;
  if (!*journal) return true;
  char *joined = eh_path_in(dir, journal);
  char *norm = joined ? malloc(strlen(joined) + 2) : NULL;
  size_t n = 0;
  ec_error_code rc = norm ? ec_path_normalize((ec_str){joined, strlen(joined)}, norm, &n) : EC_OUT_OF_MEMORY;
  free(joined);
  if (rc == EC_OK && norm[0] != '/') { norm[n] = '\0'; *out = norm; return true; }
  free(norm);
  return rc != EC_ACCESS_DENIED;
}

eh_take eh_lock_take(const eh_root *root, const eh_lock_req *q, double deadline_ms, char **journal, eh_err *err) {
  *journal = NULL;
  double nap = 1;
  char *buf = malloc(RECORD_MAX);
  if (!buf) { eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, q->shown, "out of memory"); return EH_FAILED; }
  eh_take result = EH_FAILED;
  for (int tries = 0;; tries++) {
    int dfd = eh_dir_fd(root, q->dir);
    if (dfd < 0) { eh_fail_errno(err, errno, q->shown, "open the directory of"); break; }
    int fd = openat(dfd, q->lock, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
      int bad = write_all(fd, q->record, strlen(q->record));
      int e = errno;
      if (close(fd) != 0 && !bad) bad = -1, e = errno;
      if (!bad) { result = EH_TAKEN; break; }
      unlinkat(dfd, q->lock, 0);
      eh_fail_errno(err, e, q->shown, "write the lock of");
      break;
    }
    if (errno != EEXIST) { eh_fail_errno(err, errno, q->shown, "create the lock of"); break; }
    double age = 0;
    ino_t ino;
    if (read_lock(dfd, q->lock, buf, RECORD_MAX, &age, &ino) != 0) {
      if (errno == ENOENT) continue; /* released between our create and our read */
      eh_fail_errno(err, errno, q->shown, "read the lock of");
      break;
    }
    verdict v;
    judge(buf, age, &v);
    if (v.stale) {
      char *j = NULL;
      if (strcmp(v.txn, q->own_txn ? q->own_txn : "") && !journal_from_root(q->dir, v.journal, &j)) {
        eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, q->shown,
                "'%s' is part of an edit a killed editcore left half-done, and its journal ('%s' from the file's directory) is outside this root; run editcore once from a root that holds it to finish that edit",
                q->shown, v.journal);
        result = EH_BUSY;
        break;
      }
      if (j) {
        char *jslash = strrchr(j, '/');
        if (jslash) *jslash = '\0';
        int jfd = eh_dir_fd(root, jslash ? j : "");
        struct stat st;
        bool there = jfd >= 0 && fstatat(jfd, jslash ? jslash + 1 : j, &st, AT_SYMLINK_NOFOLLOW) == 0;
        if (jslash) *jslash = '/';
        if (there) { *journal = j; result = EH_RECOVER; break; }
        free(j);
      }
      dfd = eh_dir_fd(root, q->dir); /* (looking for the journal may have asked for another directory) */
      if (dfd >= 0) break_lock(dfd, q->lock, buf);
      continue;
    }
    if (eh_now_ms() >= deadline_ms) {
      eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, q->shown,
              "'%s' is being written by another editcore (%s) and stayed locked for %.0f s; nothing was written. Try again later, or remove its lock file '%s' if no editcore runs",
              q->shown, v.why, eh_lock_wait_ms() / 1000.0, q->lock);
      result = EH_BUSY;
      break;
    }
    if (q->beat) q->beat(q->beat_ctx); /* ours must not look dead to others while we wait */
    sleep_ms(nap);
    if (nap < 50) nap *= 2;
  }
  free(buf);
  return result;
}

void eh_lock_release(const eh_root *root, const char *dir, const char *lock, const char *record) {
  int dfd = eh_dir_fd(root, dir);
  if (dfd < 0) return;
  char *buf = malloc(RECORD_MAX);
  double age;
  ino_t ino;
  /* Only our own record: a lock broken as stale (we were stopped too long) is someone else's now. */
  if (buf && read_lock(dfd, lock, buf, RECORD_MAX, &age, &ino) == 0 && !strcmp(buf, record)) unlinkat(dfd, lock, 0);
  free(buf);
}

void eh_lock_touch(const eh_root *root, const char *dir, const char *lock) {
  int dfd = eh_dir_fd(root, dir);
  if (dfd >= 0) utimensat(dfd, lock, NULL, AT_SYMLINK_NOFOLLOW);
}
