#include "err.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

ec_error_code eh_fail(eh_err *e, ec_error_code code, int exit, const char *path, const char *fmt, ...) {
  e->code = code;
  e->exit = exit;
  snprintf(e->path, sizeof e->path, "%s", path ? path : "");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->message, sizeof e->message, fmt, ap);
  va_end(ap);
  return code;
}

ec_error_code eh_fail_errno(eh_err *e, int err, const char *path, const char *what) {
  ec_error_code code = EC_IO_ERROR;
  if (err == EACCES || err == EPERM || err == EROFS) code = EC_ACCESS_DENIED;
  else if (err == ENOENT) code = EC_NOT_FOUND;
  else if (err == ENOMEM) code = EC_OUT_OF_MEMORY;
  return eh_fail(e, code, EH_EXIT_USAGE_IO, path, "could not %s '%s': %s", what, path ? path : "", strerror(err));
}
