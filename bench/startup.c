/* bench/startup.c - the cost of the first use of ctorch in a process.
 *
 * The first ctorch call of a process builds the operator registry (every
 * built-in op's schema, kernels and dispatch table). This program measures
 * it the way a user meets it: a fresh process, then the first use timed
 * (two 0-dim tensors over static data and their ct_add; the first ctorch
 * call initialises the library), then the add again for comparison.
 *
 * It re-runs itself BENCH_RUNS times (default 31; each run a new process
 * through posix_spawn, so every run starts cold in the library's state,
 * though the page cache and the CPU are warm) and prints the median, the
 * minimum and the maximum of the first-use time, and the median of the
 * second call. `bench_startup --once` is the child: it prints one line,
 * "first_ns second_ns".
 *
 * Build: see bench/run.sh (ctorch only; libtorch's start-up is not
 * comparable: its registry is built by static constructors before main).
 */
#define _POSIX_C_SOURCE 200809L
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The child: the first use (two tensors over static data, then ct_add),
 * timed from before the first ctorch call; then the add again. */
static int run_once(void) {
  static float a = 1.0f, b = 2.0f;
  ct_tensor *ta, *tb, *r1, *r2;
  double t0, t1, t2;
  t0 = now_ns();
  ta = ct_from_blob(&a, 0, NULL, NULL, CT_F32, NULL, NULL);
  tb = ct_from_blob(&b, 0, NULL, NULL, CT_F32, NULL, NULL);
  if (!ta || !tb) return fprintf(stderr, "bench_startup: from_blob failed: %s\n", ct_last_error_message()), 1;
  r1 = ct_add(ta, tb);
  t1 = now_ns();
  r2 = ct_add(ta, tb);
  t2 = now_ns();
  if (!r1 || !r2 || ct_get(r1, 0) != 3.0 || ct_get(r2, 0) != 3.0)
    return fprintf(stderr, "bench_startup: add failed: %s\n", ct_last_error_message()), 1;
  printf("%.0f %.0f\n", t1 - t0, t2 - t1);
  ct_release(r1);
  ct_release(r2);
  ct_release(ta);
  ct_release(tb);
  return 0;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

int main(int argc, char **argv) {
  int runs = getenv("BENCH_RUNS") ? atoi(getenv("BENCH_RUNS")) : 31, i, n = 0;
  double *first, *second;
  if (argc > 1 && !strcmp(argv[1], "--once")) return run_once();
  if (runs < 1) runs = 1;
  first = (double *)malloc(sizeof(double) * (size_t)runs);
  second = (double *)malloc(sizeof(double) * (size_t)runs);
  if (!first || !second) return 1;
  for (i = 0; i < runs; i++) {
    int fd[2], status = 0;
    char buf[128];
    ssize_t got;
    pid_t pid;
    posix_spawn_file_actions_t fa;
    char *child_argv[3];
    child_argv[0] = argv[0];
    child_argv[1] = (char *)"--once";
    child_argv[2] = NULL;
    if (pipe(fd) != 0) return perror("pipe"), 1;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    if (posix_spawn(&pid, argv[0], &fa, NULL, child_argv, environ) != 0) return perror("posix_spawn"), 1;
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    got = read(fd[0], buf, sizeof buf - 1);
    close(fd[0]);
    waitpid(pid, &status, 0);
    if (got <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return fprintf(stderr, "bench_startup: a run failed\n"), 1;
    buf[got] = 0;
    if (sscanf(buf, "%lf %lf", &first[n], &second[n]) == 2) n++;
  }
  qsort(first, (size_t)n, sizeof(double), cmp_double);
  qsort(second, (size_t)n, sizeof(double), cmp_double);
  printf("first use of ctorch in a process (ct_add, registry built on the way), %d processes:\n", n);
  printf("  median %.3f ms, min %.3f ms, max %.3f ms; the second call: median %.0f ns\n", first[n / 2] / 1e6, first[0] / 1e6,
         first[n - 1] / 1e6, second[n / 2]);
  free(first);
  free(second);
  return 0;
}
