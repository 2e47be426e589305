/* Reading the files an edit needs: regular files only, within the engine's limit. */
#ifndef EDITCORE_HOST_FILES_H
#define EDITCORE_HOST_FILES_H
#include "sandbox.h"

/** Enough of a file's identity to notice it changed between our read and our write. */
typedef struct eh_stamp {
  bool exists;
  dev_t dev;
  ino_t ino;
  off_t size;
  long long mtime_ns;
  mode_t mode;
} eh_stamp;

void eh_stamp_of(const struct stat *st, eh_stamp *out);
bool eh_stamp_same(const eh_stamp *a, const eh_stamp *b);

/**
 * Reads a resolved path whole into *data (malloc'd, NUL-terminated, not counted), its bytes as
 * they are (NULs and any encoding: the core judges them). Refused: a directory or other
 * non-regular file, a file over `limit` bytes (before reading it). *stamp describes what was read.
 */
ec_error_code eh_read_file(const eh_path *p, size_t limit, char **data, size_t *len, eh_stamp *stamp, eh_err *err);

/**
 * Reads regular file `name` in directory `dfd` whole, without following a link (malloc'd,
 * NUL-terminated; *st, when not NULL, its fstat): what a commit compares with what it read
 * before, under its lock. 0, or -1 with errno (ENOENT: absent; ELOOP: a symlink; EISDIR: not a
 * regular file; EFBIG: over limit).
 */
int eh_read_at(int dfd, const char *name, size_t limit, char **data, size_t *len, struct stat *st);

/** Room for a file identity. */
#define EH_FILE_ID_MAX 96
/** A file's identity for the journal (editcore_commit.h): "ino:size:mtime", mtime in seconds with
 *  9 decimals — what every host's stat gives alike (not the device: a WASI component sees 1). */
void eh_file_id(const struct stat *st, char out[EH_FILE_ID_MAX]);

/** The engine's default input limit (options.limits.max_input_bytes), which the host enforces first. */
size_t eh_input_limit(void);

#endif
