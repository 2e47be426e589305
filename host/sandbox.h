/*
 * The sandbox root: every path a command or an edit names is resolved inside it before any file
 * is opened. Lexical rules are the core's (ec_path_normalize, ec_path_within); this file walks
 * the normalised path on disk, component by component, and follows each symlink it meets only
 * when the link's target is inside the root too. A link that leads out is ACCESS_DENIED.
 */
#ifndef EDITCORE_HOST_SANDBOX_H
#define EDITCORE_HOST_SANDBOX_H
#include "err.h"
#include <stdbool.h>
#include <sys/types.h>
#include <sys/stat.h>

typedef struct eh_root {
  char *dir;  /* as given ("." by default): the prefix of every path the host opens */
  char *abs;  /* its absolute, symlink-free path when the platform can tell; NULL otherwise */
} eh_root;

typedef struct eh_path {
  char *shown;  /* normalised, relative to the root: the name the core and the output use */
  char *real;   /* the same file with every symlink followed, relative to the root */
  char *full;   /* root dir + "/" + real: what the system calls get */
  bool exists;
  struct stat st; /* lstat of full when exists (never a symlink: links were followed) */
} eh_path;

ec_error_code eh_root_open(eh_root *root, const char *dir, eh_err *err);
void eh_root_close(eh_root *root);

/** Resolves `path` (as named by the user or an edit) inside the root. */
ec_error_code eh_resolve(const eh_root *root, const char *path, size_t len, eh_path *out, eh_err *err);
void eh_path_free(eh_path *p);
/** root dir + "/" + rel, malloc'd. */
char *eh_join(const char *dir, const char *rel);

#endif
