#include "sandbox.h"
#include "sys.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__) && !defined(__wasi__) && defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#define EH_HAVE_OPENAT2 1
#endif
#endif

#define MAX_LINKS 40
#define CACHE_MAX 48 /* open directories kept per root: enough for an edit's directories, far below any fd limit */

/* Set once by eh_main (sandbox.h): recovery lives above this floor. */
static eh_before_look_fn before_look;
void eh_sandbox_before_look(eh_before_look_fn fn) { before_look = fn; }

/* Section - paths as strings */

char *eh_join(const char *dir, const char *rel) {
  size_t a = strlen(dir), b = strlen(rel);
  while (a > 1 && dir[a - 1] == '/') a--;
  char *s = malloc(a + b + 2);
  if (!s) return NULL;
  memcpy(s, dir, a);
  size_t n = a;
  if (!(a == 1 && dir[0] == '/')) s[n++] = '/';
  memcpy(s + n, rel, b + 1);
  return s;
}

/* a + "/" + b where either may be empty, malloc'd. */

static char *cat_path(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  char *s = malloc(la + lb + 2);
  if (!s) return NULL;
  memcpy(s, a, la);
  size_t n = la;
  if (la && lb) s[n++] = '/';
  memcpy(s + n, b, lb + 1);
  return s;
}

char *eh_path_in(const char *dir, const char *name) { return cat_path(dir, name); }

/* ec_path_normalize into a fresh malloc'd string. */
static ec_error_code normalize(const char *p, size_t len, char **out) {
  *out = NULL;
  char *buf = malloc(len + 2);
  if (!buf) return EC_OUT_OF_MEMORY;
  size_t n = 0;
  ec_error_code rc = ec_path_normalize((ec_str){p, len}, buf, &n);
  if (rc != EC_OK) { free(buf); return rc; }
  buf[n] = '\0';
  *out = buf;
  return EC_OK;
}

/* Section - directories opened beneath the root */

struct eh_dir_cache {
  struct {
    char *dir;
    int fd;
    unsigned long long used;
  } e[CACHE_MAX];
  size_t n;
  unsigned long long tick;
};

/* Opens link-free `dir` (non-empty) relative to `from` without following any link. */
static int open_beneath(int from, const char *dir) {
#ifdef EH_HAVE_OPENAT2
  static int no_openat2; /* the kernel (or a seccomp filter) refused it once: per component from now on */
  if (!no_openat2) {
    struct open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd = syscall(SYS_openat2, from, dir, &how, sizeof how);
    if (fd >= 0) return (int)fd;
    if (errno != ENOSYS && errno != EPERM && errno != EINVAL && errno != E2BIG) return -1;
    no_openat2 = 1;
  }
#endif
  int cur = from;
  const char *p = dir;
  while (*p) {
    const char *slash = strchr(p, '/');
    size_t n = slash ? (size_t)(slash - p) : strlen(p);
    char comp[NAME_MAX + 1];
    if (n == 0 || n > NAME_MAX) {
      if (cur != from) close(cur);
      errno = n ? ENAMETOOLONG : ENOENT;
      return -1;
    }
    memcpy(comp, p, n);
    comp[n] = '\0';
#ifdef __wasi__
    /* node:wasi (uvwasi) follows a link even when asked not to (O_NOFOLLOW on a directory open);
     * look first, so at least a link already there is never walked through (Wasmtime honours it). */
    struct stat ls;
    if (fstatat(cur, comp, &ls, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(ls.st_mode)) {
      if (cur != from) close(cur);
      errno = S_ISLNK(ls.st_mode) ? ELOOP : ENOTDIR;
      return -1;
    }
#endif
    int next = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int e = errno;
    if (cur != from) close(cur);
    if (next < 0) { errno = e; return -1; }
    cur = next;
    p = slash ? slash + 1 : p + n;
  }
  return cur;
}

int eh_dir_fd(const eh_root *root, const char *dir) {
  if (!*dir) return root->fd;
  eh_dir_cache *c = root->dirs;
  if (!c) return open_beneath(root->fd, dir); /* (never: eh_root_open makes the cache) */
  for (size_t i = 0; i < c->n; i++)
    if (!strcmp(c->e[i].dir, dir)) { c->e[i].used = ++c->tick; return c->e[i].fd; }
  /* Start from the deepest directory already open, if any. */
  int from = root->fd;
  const char *rest = dir;
  size_t best = 0;
  for (size_t i = 0; i < c->n; i++) {
    size_t l = strlen(c->e[i].dir);
    if (l > best && !strncmp(c->e[i].dir, dir, l) && dir[l] == '/') { best = l; from = c->e[i].fd; rest = dir + l + 1; }
  }
  int fd = open_beneath(from, rest);
  if (fd < 0) return -1;
  char *copy = strdup(dir);
  if (!copy) { close(fd); errno = ENOMEM; return -1; }
  size_t slot = c->n;
  if (c->n == CACHE_MAX) { /* the least recently used goes */
    slot = 0;
    for (size_t i = 1; i < c->n; i++)
      if (c->e[i].used < c->e[slot].used) slot = i;
    close(c->e[slot].fd);
    free(c->e[slot].dir);
  } else {
    c->n++;
  }
  c->e[slot].dir = copy;
  c->e[slot].fd = fd;
  c->e[slot].used = ++c->tick;
  return fd;
}

int eh_dir_make(const eh_root *root, const char *dir, char ***made, size_t *n_made) {
  size_t len = strlen(dir);
  char *prefix = malloc(len + 1);
  if (!prefix) { errno = ENOMEM; return -1; }
  for (size_t end = 0; end <= len; end++) {
    if (end < len && dir[end] != '/') continue;
    memcpy(prefix, dir, end);
    prefix[end] = '\0';
    if (!end || eh_dir_fd(root, prefix) >= 0) continue;
    if (errno != ENOENT) { free(prefix); return -1; }
    /* Its parent was opened (or made) on the previous step: create this component inside it. */
    char *slash = strrchr(prefix, '/');
    const char *comp = slash ? slash + 1 : prefix;
    if (slash) *slash = '\0';
    int pfd = eh_dir_fd(root, slash ? prefix : "");
    if (slash) *slash = '/';
    if (pfd < 0 || (mkdirat(pfd, comp, 0777) != 0 && errno != EEXIST)) { free(prefix); return -1; }
    char **m = realloc(*made, (*n_made + 1) * sizeof *m);
    char *copy = strdup(prefix);
    if (!m || !copy) { free(m ? NULL : copy); if (m) *made = m; free(prefix); errno = ENOMEM; return -1; }
    *made = m;
    (*made)[(*n_made)++] = copy;
  }
  free(prefix);
  return 0;
}

/* Section - the root */

ec_error_code eh_root_open(eh_root *root, const char *dir, eh_err *err) {
  memset(root, 0, sizeof *root);
  root->fd = -1;
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOTDIR)
      return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, dir, "the root '%s' is not a directory", dir);
#ifdef __wasi__
    /* A guest reaches only its preopens: say how to give it one, as each runtime spells it. */
    if (errno == ENOTCAPABLE)
      return eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_USAGE_IO, dir,
                     "could not open the root directory '%s': it is not preopened (run with --dir . "
                     "[wasmtime run, node wasm/run-wasi.mjs], --jco-import wasm/jco-preopen.mjs [jco run], "
                     "or give --root a preopened directory)", dir);
#endif
    return eh_fail_errno(err, errno, dir, "open the root directory");
  }
  root->fd = fd;
  root->dir = strdup(dir);
  root->dirs = calloc(1, sizeof *root->dirs);
#ifdef __wasi__
  /* No realpath in WASI, and a guest's absolute paths name preopens, not the host's files: only
   * a root given as an absolute guest path (`--dir /src::/src ... --root /src`) has one. Without
   * it every absolute path, and every symlink to one, is outside the root, as natively. */
  char *abs = dir[0] == '/' ? strdup(dir) : NULL;
#else
  char *abs = realpath(dir, NULL);
#endif
  if (abs && abs[0] == '/') normalize(abs, strlen(abs), &root->abs);
  free(abs);
  if (!root->dir || !root->dirs) {
    eh_root_close(root);
    return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, dir, "out of memory");
  }
  return EC_OK;
}

void eh_root_forget_dirs(const eh_root *root) {
  if (!root->dirs) return;
  for (size_t i = 0; i < root->dirs->n; i++) {
    close(root->dirs->e[i].fd);
    free(root->dirs->e[i].dir);
  }
  root->dirs->n = 0;
}

void eh_root_close(eh_root *root) {
  eh_root_forget_dirs(root);
  free(root->dirs);
  if (root->fd >= 0) close(root->fd);
  free(root->dir);
  free(root->abs);
  memset(root, 0, sizeof *root);
  root->fd = -1;
}

void eh_path_free(eh_path *p) {
  free(p->shown);
  free(p->real);
  free(p->full);
  free(p->dir);
  memset(p, 0, sizeof *p);
}

/* Section - resolving a path */

/* An absolute or relative path, normalised and made relative to the root; ACCESS_DENIED outside. */
static ec_error_code inside(const eh_root *root, const char *p, size_t len, const char *shown, char **out, eh_err *err) {
  char *norm = NULL;
  ec_error_code rc = normalize(p, len, &norm);
  if (rc == EC_ACCESS_DENIED)
    return eh_fail(err, rc, EH_EXIT_NOT_APPLIED, shown, "'%s' leads outside the root with '..'", shown);
  if (rc == EC_INVALID_PARAM)
    return eh_fail(err, rc, EH_EXIT_USAGE_IO, shown, "'%s' is not a usable path (empty, or holds a NUL byte)", shown);
  if (rc) return eh_fail(err, rc, EH_EXIT_USAGE_IO, shown, "out of memory");
  if (norm[0] != '/') { *out = norm; return EC_OK; }
  ec_str rest;
  if (!root->abs || !ec_path_within((ec_str){root->abs, strlen(root->abs)}, (ec_str){norm, strlen(norm)}, &rest)) {
    free(norm);
    return eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, shown, "'%s' is outside the root", shown);
  }
  *out = strndup(rest.ptr, rest.len);
  free(norm);
  return *out ? EC_OK : eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown, "out of memory");
}

/*
 * The walk's state: `done` components resolved (link-free, from the root), the rest in `todo`.
 * A symlink met at `done`/`name` replaces the walk by its target (lexically, from the root) and
 * what was left below it.
 */
static ec_error_code follow(const eh_root *root, int dirfd, const char *done, const char *name, const char *rest, const char *shown,
                            char **todo, eh_err *err) {
  char target[PATH_MAX + 1];
  ssize_t n = readlinkat(dirfd, name, target, PATH_MAX);
  if (n < 0) return eh_fail_errno(err, errno, shown, "read the symlink");
  target[n] = '\0';
  /* A relative target is relative to the link's directory. */
  char *joined = target[0] == '/' ? strdup(target) : cat_path(done, target);
  if (!joined) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown, "out of memory");
  char *fromroot = NULL;
  eh_err sub = {0};
  ec_error_code rc = inside(root, joined, strlen(joined), joined, &fromroot, &sub);
  free(joined);
  if (rc == EC_ACCESS_DENIED)
    return eh_fail(err, rc, EH_EXIT_NOT_APPLIED, shown, "'%s' goes through a symlink that leads outside the root (to '%s')", shown, target);
  if (rc) { *err = sub; return rc; }
  char *next = strcmp(fromroot, ".") ? cat_path(fromroot, rest) : strdup(rest);
  free(fromroot);
  if (!next) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown, "out of memory");
  free(*todo);
  *todo = next;
  return EC_OK;
}

ec_error_code eh_resolve(const eh_root *root, const char *path, size_t len, eh_path *out, eh_err *err) {
  memset(out, 0, sizeof *out);
  out->root = root;
  char shown_c[512];
  snprintf(shown_c, sizeof shown_c, "%.*s", (int)(len < 400 ? len : 400), path);
  if (len && memchr(path, '\0', len))
    return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, shown_c, "a path holds a NUL byte");
  char *rel = NULL;
  ec_error_code rc = inside(root, path, len, shown_c, &rel, err);
  if (rc) return rc;
  out->shown = rel;
  char *todo = strcmp(rel, ".") ? strdup(rel) : strdup("");
  char *done = NULL;
  int links = 0;
  bool exists = true;
  struct stat st;
  memset(&st, 0, sizeof st);
  if (!todo) goto oom;
  for (;;) {
    if (!*todo) { /* the root itself */
      free(done);
      done = strdup("");
      if (!done) goto oom;
      if (fstat(root->fd, &st) != 0) { rc = eh_fail_errno(err, errno, shown_c, "look at"); goto fail; }
      break;
    }
    /* The directories first: all at once when none is a link or missing (the usual case). */
    char *last = strrchr(todo, '/');
    free(done);
    done = last ? strndup(todo, (size_t)(last - todo)) : strdup("");
    if (!done) goto oom;
    const char *name = last ? last + 1 : todo;
    bool restart = false, missing = false;
    if (*done && eh_dir_fd(root, done) < 0) {
      if (errno != ENOENT && errno != ELOOP && errno != ENOTDIR && errno != EXDEV) { rc = eh_fail_errno(err, errno, shown_c, "look at"); goto fail; }
      /* One component at a time, to find the link (or the missing or non-directory part). */
      size_t at = 0, dl = strlen(done);
      for (;;) {
        size_t end = at;
        while (end < dl && done[end] != '/') end++;
        char *prefix = strndup(done, end), *parent = strndup(done, at ? at - 1 : 0), *comp = strndup(done + at, end - at);
        if (!prefix || !parent || !comp) { free(prefix), free(parent), free(comp); goto oom; }
        int ok = eh_dir_fd(root, prefix) >= 0, e = errno;
        if (!ok) {
          int pfd = eh_dir_fd(root, parent);
          struct stat ls;
          int se = pfd < 0 ? errno : fstatat(pfd, comp, &ls, AT_SYMLINK_NOFOLLOW) != 0 ? errno : 0;
          if (e == ENOENT || se == ENOENT) {
            missing = true; /* nothing below exists, so no link can lead anywhere */
          } else if (se) {
            rc = eh_fail_errno(err, se, shown_c, "look at");
          } else if (S_ISLNK(ls.st_mode)) {
            if (++links > MAX_LINKS)
              rc = eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, shown_c, "'%s': too many levels of symlinks", shown_c);
            else
              rc = follow(root, pfd, parent, comp, todo + end + 1, shown_c, &todo, err);
            restart = !rc;
          } else if (!S_ISDIR(ls.st_mode)) {
            rc = eh_fail(err, EC_NOT_FOUND, EH_EXIT_USAGE_IO, shown_c, "'%s': a part of the path is not a directory", shown_c);
          } else {
            rc = eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, shown_c, "'%s' changed while it was being resolved; run again", shown_c);
          }
        }
        free(prefix), free(parent), free(comp);
        if (rc) goto fail;
        if (!ok || end >= dl) break;
        at = end + 1;
      }
      if (restart) continue;
    }
    if (missing) { exists = false; break; }
    /* Then the last component, without following it. */
    int dfd = eh_dir_fd(root, done);
    if (dfd < 0) { rc = eh_fail_errno(err, errno, shown_c, "look at"); goto fail; }
    /* A stale lock beside it: what its killed owner left is finished before anyone looks. */
    if (before_look) before_look(root, done, name);
    dfd = eh_dir_fd(root, done);
    if (dfd < 0 || fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (dfd >= 0 && errno != ENOENT) { rc = eh_fail_errno(err, errno, shown_c, "look at"); goto fail; }
      if (dfd < 0) { rc = eh_fail_errno(err, errno, shown_c, "look at"); goto fail; }
      exists = false;
      break;
    }
    if (!S_ISLNK(st.st_mode)) break;
    if (++links > MAX_LINKS) {
      rc = eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, shown_c, "'%s': too many levels of symlinks", shown_c);
      goto fail;
    }
    rc = follow(root, dfd, done, name, "", shown_c, &todo, err);
    if (rc) goto fail;
  }
  /* todo is now the link-free path from the root ("" for the root), done its directory. */
  out->real = *todo ? todo : (free(todo), strdup("."));
  todo = NULL;
  if (!out->real) goto oom;
  if (!strcmp(out->real, ".")) {
    out->dir = strdup("");
    out->name = out->real;
  } else {
    char *slash = strrchr(out->real, '/');
    out->dir = slash ? strndup(out->real, (size_t)(slash - out->real)) : strdup("");
    out->name = slash ? slash + 1 : out->real;
  }
  out->full = eh_join(root->dir, out->real);
  free(done);
  if (!out->dir || !out->full) { eh_path_free(out); return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown_c, "out of memory"); }
  out->root = root;
  out->exists = exists;
  if (exists) out->st = st;
  return EC_OK;
oom:
  rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown_c, "out of memory");
fail:
  free(done);
  free(todo);
  eh_path_free(out);
  return rc;
}
