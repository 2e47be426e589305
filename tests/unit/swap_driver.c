/*
 * swap_driver A B [SECONDS]: exchanges the names A and B with renameat2(RENAME_EXCHANGE) as fast
 * as it can, until killed or SECONDS pass (default 600), then prints how many swaps it made.
 * The swap-race harness (tests/host/race/swap.mjs) uses it to turn a directory inside the root
 * into a symlink leading out and back, millions of times a second, while a host edits below it.
 * Linux only: elsewhere it exits 77 (the harness reports the race as not run).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <fcntl.h>
#include <sys/syscall.h>
#endif

static volatile sig_atomic_t stop;
static void on_signal(int sig) { (void)sig; stop = 1; }

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: swap_driver A B [SECONDS]\n");
    return 2;
  }
#if defined(__linux__) && defined(SYS_renameat2)
  double seconds = argc > 3 ? atof(argv[3]) : 600;
  signal(SIGTERM, on_signal);
  signal(SIGINT, on_signal);
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned long long swaps = 0;
  fprintf(stdout, "swapping\n");
  fflush(stdout);
  while (!stop) {
    if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 2 /* RENAME_EXCHANGE */) != 0) {
      perror("renameat2");
      return 1;
    }
    /* Always stop on an even count: the names end as they began. */
    if (++swaps % 4096 == 0) {
      clock_gettime(CLOCK_MONOTONIC, &now);
      if ((double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9 > seconds) break;
    }
  }
  if (swaps % 2) syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 2), swaps++;
  printf("%llu swaps\n", swaps);
  return 0;
#else
  fprintf(stderr, "swap_driver: no renameat2 on this platform\n");
  return 77;
#endif
}
