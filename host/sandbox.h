/*
 * The sandbox root: every path a command or an edit names is resolved inside it before any file
 * is opened. Lexical rules are the core's (ec_path_normalize, ec_path_within); this file walks
 * the normalised path on disk from a descriptor of the root, one component at a time, opening
 * each directory relative to the last without following links (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS where the kernel has it, else openat O_NOFOLLOW | O_DIRECTORY). A symlink
 * met on the way is read (readlinkat), its target resolved lexically, and followed only when
 * that target is inside the root: the walk starts again from the root with the target spelled
 * out, never through the link. A link that leads out is ACCESS_DENIED.
 *
 * A resolved path is link-free (eh_path.real). Every later call on it (read, lock, stage, rename,
 * delete) goes through eh_dir_fd, which opens its directory beneath the root again without
 * following any link, so a directory swapped for a symlink between two calls is refused, not
 * walked through: nothing is ever read or written outside the root by a race.
 */
#ifndef EDITCORE_HOST_SANDBOX_H
#define EDITCORE_HOST_SANDBOX_H
#include "err.h"
#include <stdbool.h>
#include <sys/types.h>
#include <sys/stat.h>

typedef struct eh_dir_cache eh_dir_cache;

typedef struct eh_root {
  char *dir;  /* as given ("." by default): shown in messages */
  char *abs;  /* its absolute, symlink-free path when the platform can tell; NULL otherwise */
  int fd;     /* the root directory, opened once: every walk starts here */
  eh_dir_cache *dirs; /* directories below the root opened beneath it, by link-free path */
} eh_root;

/**
 * What the host does before the last component of a path is looked at (eh_resolve): recover.c's
 * eh_settle, which finishes what a killed writer left beside the file. Set once by eh_main (the
 * layer above both), so this floor does not call up into recovery; NULL (the default): nothing.
 */
typedef bool (*eh_before_look_fn)(const eh_root *root, const char *dir, const char *name);
void eh_sandbox_before_look(eh_before_look_fn fn);

typedef struct eh_path {
  const eh_root *root;
  char *shown;      /* normalised, relative to the root: the name the core and the output use */
  char *real;       /* the same file with every symlink followed, relative to the root, link-free */
  char *full;       /* root dir + "/" + real: for messages only (no system call takes it) */
  char *dir;        /* real's directory, relative to the root ("" for the root itself) */
  const char *name; /* real's last component (in real); "." for the root */
  bool exists;
  struct stat st;   /* of the file itself (never a symlink: links were followed) when exists */
} eh_path;

ec_error_code eh_root_open(eh_root *root, const char *dir, eh_err *err);
void eh_root_close(eh_root *root);
/** Closes the directories kept open, so the next call looks again (between a batch's requests:
 *  a directory moved meanwhile is not written through its old descriptor). */
void eh_root_forget_dirs(const eh_root *root);

/** Resolves `path` (as named by the user or an edit) inside the root. */
ec_error_code eh_resolve(const eh_root *root, const char *path, size_t len, eh_path *out, eh_err *err);
void eh_path_free(eh_path *p);
/** root dir + "/" + rel, malloc'd. */
char *eh_join(const char *dir, const char *rel);

/**
 * A descriptor of directory `dir` (link-free, relative to the root; "" is the root), opened
 * beneath the root without following links. Borrowed: it stays open until the root is closed
 * (or until more than a few dozen other directories were asked for); do not close it, and use
 * it before asking for another. -1 with errno set when it cannot be opened: ENOENT missing,
 * ELOOP / ENOTDIR a component is (now) a symlink or a file.
 */
int eh_dir_fd(const eh_root *root, const char *dir);
/**
 * Creates the missing directories of `dir` (mkdirat, one component at a time, beneath the root),
 * appending each one it made to *made (malloc'd copies; *n_made counts them) so a failed edit
 * can remove them again. Returns 0, or -1 with errno set.
 */
int eh_dir_make(const eh_root *root, const char *dir, char ***made, size_t *n_made);
/** "dir/name" (or "name" when dir is empty), malloc'd. */
char *eh_path_in(const char *dir, const char *name);

#endif
