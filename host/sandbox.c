#include "sandbox.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINKS 40

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

ec_error_code eh_root_open(eh_root *root, const char *dir, eh_err *err) {
  memset(root, 0, sizeof *root);
  struct stat st;
  if (stat(dir, &st) != 0) return eh_fail_errno(err, errno, dir, "open the root directory");
  if (!S_ISDIR(st.st_mode))
    return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, dir, "the root '%s' is not a directory", dir);
  root->dir = strdup(dir);
#ifdef __wasi__
  /* No realpath in WASI, and a guest's absolute paths name preopens, not the host's files: only
   * a root given as an absolute guest path (`--dir /src::/src ... --root /src`) has one. Without
   * it every absolute path, and every symlink to one, is outside the root, as natively. */
  char *abs = dir[0] == '/' ? strdup(dir) : NULL;
#else
  char *abs = realpath(dir, NULL);
#endif
  if (abs && abs[0] == '/') {
    normalize(abs, strlen(abs), &root->abs);
  }
  free(abs);
  if (!root->dir) return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, dir, "out of memory");
  return EC_OK;
}

void eh_root_close(eh_root *root) {
  free(root->dir);
  free(root->abs);
  memset(root, 0, sizeof *root);
}

void eh_path_free(eh_path *p) {
  free(p->shown);
  free(p->real);
  free(p->full);
  memset(p, 0, sizeof *p);
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

ec_error_code eh_resolve(const eh_root *root, const char *path, size_t len, eh_path *out, eh_err *err) {
  memset(out, 0, sizeof *out);
  char shown_c[512];
  snprintf(shown_c, sizeof shown_c, "%.*s", (int)(len < 400 ? len : 400), path);
  if (len && memchr(path, '\0', len))
    return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, shown_c, "a path holds a NUL byte");
  char *rel = NULL;
  ec_error_code rc = inside(root, path, len, shown_c, &rel, err);
  if (rc) return rc;
  out->shown = rel;
  /* Walk: `done` is resolved (no links), `todo` still to look at; both relative to the root. */
  char *done = strdup(""), *todo = strcmp(rel, ".") ? strdup(rel) : strdup("");
  int links = 0;
  bool exists = true;
  struct stat st;
  if (stat(root->dir, &st) != 0) { rc = eh_fail_errno(err, errno, root->dir, "look at the root"); goto fail; }
  while (done && todo && *todo) {
    char *slash = strchr(todo, '/');
    size_t clen = slash ? (size_t)(slash - todo) : strlen(todo);
    const char *rest = slash ? slash + 1 : "";
    char *comp = strndup(todo, clen);
    char *cand = comp ? cat_path(done, comp) : NULL;
    free(comp);
    char *full = cand ? eh_join(root->dir, cand) : NULL;
    if (!full) { free(cand); rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown_c, "out of memory"); goto fail; }
    if (lstat(full, &st) != 0) {
      int e = errno;
      free(full);
      if (e == ENOENT) { /* nothing below exists, so no link can lead anywhere */
        char *all = cat_path(cand, rest);
        free(cand);
        free(done);
        done = all;
        exists = false;
        break;
      }
      free(cand);
      if (e == ENOTDIR)
        rc = eh_fail(err, EC_NOT_FOUND, EH_EXIT_USAGE_IO, shown_c, "'%s': a part of the path is not a directory", shown_c);
      else
        rc = eh_fail_errno(err, e, shown_c, "look at");
      goto fail;
    }
    if (S_ISLNK(st.st_mode)) {
      char target[PATH_MAX + 1];
      ssize_t n = readlink(full, target, PATH_MAX);
      free(full);
      if (n < 0) { free(cand); rc = eh_fail_errno(err, errno, shown_c, "read the symlink"); goto fail; }
      target[n] = '\0';
      if (++links > MAX_LINKS) {
        free(cand);
        rc = eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, shown_c, "'%s': too many levels of symlinks", shown_c);
        goto fail;
      }
      /* A relative target is relative to the link's directory. */
      char *joined = target[0] == '/' ? strdup(target) : cat_path(done, target);
      free(cand);
      char *fromroot = NULL;
      if (!joined) { rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown_c, "out of memory"); goto fail; }
      eh_err sub = {0};
      rc = inside(root, joined, strlen(joined), joined, &fromroot, &sub);
      free(joined);
      if (rc) {
        if (rc == EC_ACCESS_DENIED)
          rc = eh_fail(err, rc, EH_EXIT_NOT_APPLIED, shown_c, "'%s' goes through a symlink that leads outside the root (to '%s')",
                       shown_c, target);
        else
          *err = sub;
        goto fail;
      }
      char *next = strcmp(fromroot, ".") ? cat_path(fromroot, rest) : strdup(rest);
      free(fromroot);
      free(todo);
      free(done);
      todo = next;
      done = strdup("");
      continue;
    }
    free(full);
    if (*rest && !S_ISDIR(st.st_mode)) {
      free(cand);
      rc = eh_fail(err, EC_NOT_FOUND, EH_EXIT_USAGE_IO, shown_c, "'%s': a part of the path is not a directory", shown_c);
      goto fail;
    }
    free(done);
    done = cand;
    char *next = strdup(rest);
    free(todo);
    todo = next;
  }
  if (!done || !todo) { rc = eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown_c, "out of memory"); goto fail; }
  free(todo);
  out->real = *done ? done : (free(done), strdup("."));
  out->full = out->real ? eh_join(root->dir, out->real) : NULL;
  if (!out->full) { eh_path_free(out); return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, shown_c, "out of memory"); }
  out->exists = exists;
  if (exists && lstat(out->full, &out->st) != 0) {
    int e = errno;
    eh_path_free(out);
    return eh_fail_errno(err, e, shown_c, "look at");
  }
  return EC_OK;
fail:
  free(done);
  free(todo);
  eh_path_free(out);
  return rc;
}
