/* A host failure: the core's error code, the exit status it maps to, a message for people. */
#ifndef EDITCORE_HOST_ERR_H
#define EDITCORE_HOST_ERR_H
#include "editcore.h"

enum { EH_EXIT_OK = 0, EH_EXIT_NOT_APPLIED = 1, EH_EXIT_USAGE_IO = 2 };

typedef struct eh_err {
  ec_error_code code;   /* EC_OK when nothing failed */
  int exit;             /* EH_EXIT_NOT_APPLIED for refusals, EH_EXIT_USAGE_IO for I/O and usage */
  char path[512];       /* the path as the user or the edit named it; empty when none */
  char message[1024];
} eh_err;

/** Records a failure (printf-style message) and returns its code. */
ec_error_code eh_fail(eh_err *e, ec_error_code code, int exit, const char *path, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/** Records an errno failure on `path` doing `what` (EACCES/EPERM/EROFS become ACCESS_DENIED). */
ec_error_code eh_fail_errno(eh_err *e, int err, const char *path, const char *what);

#endif
