#include "files.h"
#include "sys.h"
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


void eh_stamp_of(const struct stat *st, eh_stamp *out) {
  memset(out, 0, sizeof *out);
  out->exists = true;
  out->dev = st->st_dev;
  out->ino = st->st_ino;
  out->size = st->st_size;
  out->mtime_ns = (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
  out->mode = st->st_mode;
}

bool eh_stamp_same(const eh_stamp *a, const eh_stamp *b) {
  if (a->exists != b->exists) return false;
  if (!a->exists) return true;
  return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}

size_t eh_input_limit(void) {
  ec_options o;
  ec_options_default(&o);
  return o.limits.max_input_bytes ? o.limits.max_input_bytes : (size_t)64 << 20;
}

ec_error_code eh_read_file(const eh_path *p, size_t limit, char **data, size_t *len, eh_stamp *stamp, eh_err *err) {
  *data = NULL;
  *len = 0;
  if (!p->exists) return eh_fail(err, EC_NOT_FOUND, EH_EXIT_USAGE_IO, p->shown, "'%s' does not exist", p->shown);
  if (S_ISDIR(p->st.st_mode))
    return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, p->shown, "'%s' is a directory, not a file", p->shown);
  if (!S_ISREG(p->st.st_mode))
    return eh_fail(err, EC_INVALID_PARAM, EH_EXIT_USAGE_IO, p->shown, "'%s' is not a regular file", p->shown);
  if ((unsigned long long)p->st.st_size > (unsigned long long)limit)
    return eh_fail(err, EC_TOO_LARGE, EH_EXIT_NOT_APPLIED, p->shown,
                   "'%s' holds %llu bytes; the limit (options.limits.max_input_bytes) is %llu", p->shown,
                   (unsigned long long)p->st.st_size, (unsigned long long)limit);
  int dfd = eh_dir_fd(p->root, p->dir);
  int fd = dfd < 0 ? -1 : openat(dfd, p->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ELOOP || errno == ENOTDIR || errno == EXDEV)
      return eh_fail(err, EC_ACCESS_DENIED, EH_EXIT_NOT_APPLIED, p->shown, "'%s' changed into a symlink while it was being opened; nothing was read", p->shown);
    return eh_fail_errno(err, errno, p->shown, "open");
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || st.st_ino != p->st.st_ino || st.st_dev != p->st.st_dev) {
    close(fd);
    return eh_fail(err, EC_CONFLICT, EH_EXIT_NOT_APPLIED, p->shown, "'%s' changed while it was being opened; run again", p->shown);
  }
  size_t want = (size_t)st.st_size, n = 0;
  char *buf = malloc(want + 1);
  if (!buf) { close(fd); return eh_fail(err, EC_OUT_OF_MEMORY, EH_EXIT_USAGE_IO, p->shown, "out of memory reading '%s'", p->shown); }
  while (n < want) {
    ssize_t got = read(fd, buf + n, want - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) { int e = errno; free(buf); close(fd); return eh_fail_errno(err, e, p->shown, "read"); }
    if (got == 0) break; /* shrank under us: the stamp check before writing will notice */
    n += (size_t)got;
  }
  close(fd);
  buf[n] = '\0';
  /* Bytes as they are, NULs included: the core decides what they are (UTF-16 with a BOM is
   * decoded and written back; other NULs make BINARY_FILE, once an edit touches the file). */
  eh_stamp_of(&st, stamp);
  if (n != want) stamp->size = (off_t)-1; /* never equal: a file that shrank mid-read is a conflict */
  *data = buf;
  *len = n;
  return EC_OK;
}

void eh_file_id(const struct stat *st, char out[EH_FILE_ID_MAX]) {
  snprintf(out, EH_FILE_ID_MAX, "%llu:%lld:%lld.%09ld", (unsigned long long)st->st_ino, (long long)st->st_size, (long long)st->st_mtim.tv_sec,
           (long)st->st_mtim.tv_nsec);
}

int eh_read_at(int dfd, const char *name, size_t limit, char **data, size_t *len, struct stat *st_out) {
  *data = NULL;
  *len = 0;
  int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  struct stat st;
  int bad = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? EISDIR : (unsigned long long)st.st_size > (unsigned long long)limit ? EFBIG : 0;
  if (bad) {
    close(fd);
    errno = bad;
    return -1;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  char *buf = malloc(cap);
  if (!buf) { close(fd); errno = ENOMEM; return -1; }
  for (;;) {
    if (n + 1 >= cap) {
      /* As large as fstat said: one more byte tells whether it grew meanwhile (rarely: then grow). */
      char probe;
      ssize_t more = read(fd, &probe, 1);
      if (more < 0 && errno == EINTR) continue;
      if (more <= 0) break;
      if (cap > limit) { free(buf); close(fd); errno = EFBIG; return -1; }
      char *grown = realloc(buf, cap * 2);
      if (!grown) { free(buf); close(fd); errno = ENOMEM; return -1; }
      buf = grown;
      cap *= 2;
      buf[n++] = probe;
      continue;
    }
    ssize_t got = read(fd, buf + n, cap - 1 - n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) { int e = errno; free(buf); close(fd); errno = e; return -1; }
    if (got == 0) break;
    n += (size_t)got;
  }
  close(fd);
  buf[n] = '\0';
  *data = buf;
  *len = n;
  if (st_out) *st_out = st;
  return 0;
}
