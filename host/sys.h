/* Small platform services shared by the commands: clock, whole-stream reads, random names. */
#ifndef EDITCORE_HOST_SYS_H
#define EDITCORE_HOST_SYS_H
#include "editcore.h"
#include <fcntl.h>
#include <stdio.h>

/* Flags some platforms lack (they then mean nothing, as there). */
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOFOLLOW
#define O_NOFOLLOW 0
#endif

/** Monotonic milliseconds, the core's ec_host clock. */
double eh_clock_ms(void *user);
/** The ec_host every command lends the core. */
const ec_host *eh_core_host(void);
/** The ceilings eh_core_host lends the core, set from --ceiling NAME=VALUE (docs/limits.md). */
ec_limits *eh_ceilings(void);
/** Reads a stream to its end into a malloc'd buffer (NUL-terminated, not counted); NULL on error. */
char *eh_read_stream(FILE *in, size_t *len);
/** n random lowercase hex digits (no NUL) for temporary names. */
void eh_random_hex(char *out, size_t n);
/** Whether stdout is a terminal (colour in --color=auto). */
int eh_stdout_is_tty(void);

#endif
