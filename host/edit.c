/* The steps every editing command shares: read the files an edit names, write what it changed. */
#include "cli.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static ec_error_code oom(eh_err *err) { return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, NULL, "out of memory"); }

ssize_t eh_inputs_find(const eh_inputs *in, const char *shown, size_t len) {
  for (size_t i = 0; i < in->n; i++)
    if (strlen(in->paths[i].shown) == len && !memcmp(in->paths[i].shown, shown, len)) return (ssize_t)i;
  return -1;
}

/* Refuses to write over a read-only file or into a read-only directory, even as root (who could):
 * the user marked them so. WASI reports no permission bits, so there the OS decides alone. */
static ec_error_code check_writable(const eh_path *p, eh_err *err) {
#ifdef __wasi__
  (void)p;
  (void)err;
  return EC_OK;
#else
  int dfd = eh_dir_fd(p->root, p->dir);
  if (p->exists && (dfd < 0 || faccessat(dfd, p->name, W_OK, 0) != 0 || !(p->st.st_mode & S_IWUSR)))
    return eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, p->shown, "'%s' is read-only; editcore does not write over it", p->shown);
  char *dir = strdup(p->dir);
  if (!dir) return oom(err);
  /* The nearest existing directory is the one a new file or a temporary would be created in. */
  char *slash;
  while (*dir && eh_dir_fd(p->root, dir) < 0 && errno == ENOENT) {
    slash = strrchr(dir, '/');
    if (slash) *slash = '\0';
    else dir[0] = '\0';
  }
  struct stat st;
  ec_error_code rc = EC_OK;
  dfd = eh_dir_fd(p->root, dir);
  if (dfd >= 0 && fstat(dfd, &st) == 0 && S_ISDIR(st.st_mode) && (faccessat(dfd, ".", W_OK, 0) != 0 || !(st.st_mode & S_IWUSR)))
    rc = eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, p->shown, "the directory of '%s' is read-only; editcore does not write into it",
                 p->shown);
  free(dir);
  return rc;
#endif
}

ec_error_code eh_inputs_add(eh_inputs *in, const eh_root *root, const char *name, size_t len, bool must_exist, size_t *index,
                            eh_err *err) {
  eh_path p;
  ec_error_code rc = eh_resolve(root, name, len, &p, err);
  if (rc) return rc;
  ssize_t seen = eh_inputs_find(in, p.shown, strlen(p.shown));
  if (seen >= 0) {
    eh_path_free(&p);
    if (index) *index = (size_t)seen;
    return EC_OK;
  }
  if (in->n == in->cap) {
    size_t cap = in->cap ? in->cap * 2 : 8;
    eh_path *np = realloc(in->paths, cap * sizeof *np);
    if (np) in->paths = np;
    char **nd = realloc(in->data, cap * sizeof *nd);
    if (nd) in->data = nd;
    size_t *nl = realloc(in->len, cap * sizeof *nl);
    if (nl) in->len = nl;
    eh_stamp *ns = realloc(in->stamps, cap * sizeof *ns);
    if (ns) in->stamps = ns;
    if (!np || !nd || !nl || !ns) { eh_path_free(&p); return oom(err); }
    in->cap = cap;
  }
  /* Two names for one file (a symlink, a hard link) in one edit would be two edits of the same
   * bytes, the last write silently dropping the first: refuse instead. */
  for (size_t k = 0; k < in->n; k++) {
    const eh_path *q = &in->paths[k];
    bool same = !strcmp(q->real, p.real) ||
                (p.exists && q->exists && p.st.st_ino != 0 && q->st.st_dev == p.st.st_dev && q->st.st_ino == p.st.st_ino &&
                 S_ISREG(p.st.st_mode));
    if (!same) continue;
    rc = eh_fail(err, EC_INVALID_PARAM, EH_EXIT_NOT_APPLIED, p.shown,
                 "'%s' and '%s' are the same file (through a link); name it one way in one edit", q->shown, p.shown);
    eh_path_free(&p);
    return rc;
  }
  size_t i = in->n;
  in->data[i] = NULL;
  in->len[i] = 0;
  memset(&in->stamps[i], 0, sizeof in->stamps[i]);
  if (p.exists || must_exist) {
    rc = eh_read_file(&p, eh_input_limit(), &in->data[i], &in->len[i], &in->stamps[i], err);
    if (rc) { eh_path_free(&p); return rc; }
  }
  in->paths[i] = p;
  in->n++;
  if (index) *index = i;
  return EC_OK;
}

ec_error_code eh_inputs_finish(eh_inputs *in, const eh_opts *o, eh_err *err) {
  free(in->files);
  in->files = calloc(in->n + 1, sizeof *in->files);
  if (!in->files) return oom(err);
  in->n_files = 0;
  for (size_t i = 0; i < in->n; i++) {
    if (!in->stamps[i].exists) continue;
    in->files[in->n_files++] = (ec_file){{in->paths[i].shown, strlen(in->paths[i].shown)}, {in->data[i], in->len[i]}};
  }
  free(in->hashes);
  in->hashes = calloc(o->n_hashes + 1, sizeof *in->hashes);
  if (!in->hashes) return oom(err);
  in->n_hashes = 0;
  for (size_t k = 0; k < o->n_hashes; k++) {
    const eh_hash_arg *h = &o->hashes[k];
    const char *shown = NULL;
    if (!h->path) {
      if (in->n != 1)
        return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, NULL,
                       "--expect-hash without a path needs an edit of exactly one file (this one names %zu); use --expect-hash PATH=sha256:...",
                       in->n);
      shown = in->paths[0].shown;
    } else {
      size_t pl = h->path_len;
      char *norm = malloc(pl + 2);
      size_t nl = 0;
      if (!norm) return oom(err);
      if (ec_path_normalize((ec_str){h->path, pl}, norm, &nl) != EC_OK) {
        free(norm);
        return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, NULL, "--expect-hash: '%.*s' is not a path inside the root", (int)pl, h->path);
      }
      ssize_t at = eh_inputs_find(in, norm, nl);
      free(norm);
      if (at < 0)
        return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, NULL, "--expect-hash names '%.*s', which the edit does not touch", (int)pl,
                       h->path);
      shown = in->paths[at].shown;
    }
    in->hashes[in->n_hashes++] = (ec_file){{shown, strlen(shown)}, {h->hash, strlen(h->hash)}};
  }
  return EC_OK;
}

void eh_inputs_free(eh_inputs *in) {
  for (size_t i = 0; i < in->n; i++) {
    eh_path_free(&in->paths[i]);
    free(in->data[i]);
  }
  free(in->paths);
  free(in->data);
  free(in->len);
  free(in->stamps);
  free(in->files);
  free(in->hashes);
  memset(in, 0, sizeof *in);
}

/* The input for a result's path, resolving (and remembering, unread) a path the edit creates. */
static ec_error_code input_for(eh_inputs *in, const eh_root *root, ec_str path, size_t *at, eh_err *err) {
  size_t before = in->n;
  ec_error_code rc = eh_inputs_add(in, root, path.ptr, path.len, false, at, err);
  if (rc || *at < before) return rc;
  /* Not read before: a file there now is one the edit did not see. */
  if (in->stamps[*at].exists || in->paths[*at].exists)
    return eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, in->paths[*at].shown,
                   "'%s' exists but the edit was made without it; nothing was written", in->paths[*at].shown);
  return EC_OK;
}

ec_error_code eh_write_result(ec_result *r, const eh_root *root, eh_inputs *in, eh_err *err) {
  size_t nf = ec_result_file_count(r);
  /* Resolve everything first (this may grow in->paths), then plan: the plan borrows the paths. */
  size_t *at = calloc(nf + 1, sizeof *at), *to = calloc(nf + 1, sizeof *to);
  if (!at || !to) { free(at); free(to); return oom(err); }
  ec_error_code rc = EC_OK;
  for (size_t i = 0; i < nf && !rc; i++) {
    const ec_file_result *f = ec_result_file(r, i);
    rc = input_for(in, root, f->path, &at[i], err);
    if (!rc && f->action == EC_ACTION_MOVE) rc = input_for(in, root, f->moved_to, &to[i], err);
  }
  eh_txn *t = rc ? NULL : eh_txn_new();
  if (!rc && !t) rc = oom(err);
  for (size_t i = 0; i < nf && !rc; i++) {
    const ec_file_result *f = ec_result_file(r, i);
    size_t k = at[i];
    const eh_stamp *old = in->stamps[k].exists ? &in->stamps[k] : NULL;
    bool ok = true;
    switch (f->action) {
      case EC_ACTION_UPDATE:
      case EC_ACTION_ADD:
        rc = check_writable(&in->paths[k], err);
        if (!rc) ok = eh_txn_write(t, &in->paths[k], f->content.ptr, f->content.len, old, in->data[k], in->len[k]);
        break;
      case EC_ACTION_DELETE:
        rc = check_writable(&in->paths[k], err);
        if (!rc && !old) rc = eh_fail(err, EC_NOT_FOUND, EH_EXIT_NOT_APPLIED, in->paths[k].shown, "'%s' is not there to delete", in->paths[k].shown);
        if (!rc) ok = eh_txn_delete(t, &in->paths[k], old, in->data[k], in->len[k]);
        break;
      case EC_ACTION_MOVE:
        rc = check_writable(&in->paths[k], err);
        if (!rc) rc = check_writable(&in->paths[to[i]], err);
        if (!rc) ok = eh_txn_write(t, &in->paths[to[i]], f->content.ptr, f->content.len, NULL, NULL, 0);
        if (!rc && ok && old) ok = eh_txn_delete(t, &in->paths[k], old, in->data[k], in->len[k]);
        break;
    }
    if (!ok && !rc) rc = oom(err);
  }
  if (!rc) rc = eh_txn_commit(t, err);
  if (!rc) ec_result_set_applied(r, true);
  eh_txn_free(t);
  free(at);
  free(to);
  return rc;
}
