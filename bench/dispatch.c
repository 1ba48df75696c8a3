/* bench/dispatch.c - dispatch overhead of ctorch, side by side with libtorch.
 *
 * Times four calls, in ns per call (1-element float32 tensors):
 *   add (new out)    ct_add(a, b) + ct_release(result)
 *   add_out          ct_add_out(out, a, b)
 *   add_ (in-place)  ct_add_(a, b)
 *   zeros([4])       ct_zeros + ct_release: a factory (BackendSelect, empty, fill_)
 * Each is warmed up, then measured as BENCH_REPEATS repeats of BENCH_CALLS
 * calls; the figure is the median of the per-repeat ns/call. When built with
 * bench/dispatch_torch.cpp (libtorch), the libtorch repeats are interleaved
 * with ctorch's (ctorch repeat, libtorch repeat, ...) so that noise on a
 * shared machine hits both alike.
 *
 * Build: see bench/run.sh. -DCT_BENCH_NO_TORCH gives the ctorch-only variant.
 * Environment: BENCH_REPEATS (default 15), BENCH_CALLS (default 200000).
 */
#define _POSIX_C_SOURCE 200809L
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NOPS 4
static const char *const op_names[NOPS] = {"add (new out)", "add_out", "add_ (in-place)", "zeros([4])"};

#ifndef CT_BENCH_NO_TORCH
/* bench/dispatch_torch.cpp. The setup call makes the tensors and sets one
 * thread; each run call does `calls` calls of op (0 add, 1 add_out, 2 add_)
 * and returns the elapsed ns (negative on error; op 3: zeros({4})). */
extern int torch_dispatch_setup(void);
extern double torch_dispatch_run(int op, long calls);
extern const char *torch_dispatch_version(void);
#endif

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static ct_tensor *ta, *tb, *tout;
static volatile int sink; /* keeps the loop bodies observable */

static void die(const char *what) {
  fprintf(stderr, "bench_dispatch: %s failed: %s\n", what, ct_last_error_message());
  exit(1);
}

/* One repeat of `calls` calls of op; returns elapsed ns. */
static double ct_run(int op, long calls) {
  int bad = 0;
  double t0 = now_ns();
  switch (op) {
  case 0:
    for (long i = 0; i < calls; i++) {
      ct_tensor *r = ct_add(ta, tb);
      bad |= (r == NULL);
      ct_release(r);
    }
    break;
  case 1:
    for (long i = 0; i < calls; i++) bad |= (ct_add_out(tout, ta, tb) != CT_OK);
    break;
  case 2:
    for (long i = 0; i < calls; i++) bad |= (ct_add_(ta, tb) != CT_OK);
    break;
  default: /* a factory: BackendSelect, empty, fill_ */
    for (long i = 0; i < calls; i++) {
      ct_tensor *r = ct_zeros(CT_DIMS(4), CT_F32);
      bad |= (r == NULL);
      ct_release(r);
    }
    break;
  }
  double t1 = now_ns();
  if (bad) die(op_names[op]);
  sink = bad;
  return t1 - t0;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static long env_long(const char *name, long dflt) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  long v = strtol(s, NULL, 10);
  return v > 0 ? v : dflt;
}

int main(void) {
  int repeats = (int)env_long("BENCH_REPEATS", 15);
  long calls = env_long("BENCH_CALLS", 200000);
  long warm = calls / 4 > 1000 ? calls / 4 : 1000;
  int have_torch = 0;

  ta = ct_full(CT_DIMS(1), ct_float(1.0), CT_F32);
  tb = ct_full(CT_DIMS(1), ct_float(1e-7), CT_F32);
  tout = ct_empty(CT_DIMS(1), CT_F32);
  if (!ta || !tb || !tout) die("ct_full/ct_empty");

#ifndef CT_BENCH_NO_TORCH
  if (torch_dispatch_setup() != 0) {
    fprintf(stderr, "bench_dispatch: libtorch setup failed; ctorch only\n");
  } else {
    have_torch = 1;
  }
#endif

  double *ct_ns = malloc(sizeof(double) * (size_t)repeats * NOPS);
  double *th_ns = malloc(sizeof(double) * (size_t)repeats * NOPS);
  if (!ct_ns || !th_ns) return 1;

  for (int op = 0; op < NOPS; op++) {
    /* warm-up: allocator caches, branch predictors, lazy registration */
    ct_run(op, warm);
#ifndef CT_BENCH_NO_TORCH
    if (have_torch && torch_dispatch_run(op, warm) < 0) have_torch = 0;
#endif
    for (int r = 0; r < repeats; r++) {
      /* alternate which goes first so neither always follows the other */
      int torch_first = r & 1;
#ifndef CT_BENCH_NO_TORCH
      if (have_torch && torch_first) th_ns[op * repeats + r] = torch_dispatch_run(op, calls) / (double)calls;
#endif
      ct_ns[op * repeats + r] = ct_run(op, calls) / (double)calls;
#ifndef CT_BENCH_NO_TORCH
      if (have_torch && !torch_first) th_ns[op * repeats + r] = torch_dispatch_run(op, calls) / (double)calls;
#endif
      (void)torch_first;
    }
  }

  printf("dispatch overhead, 1-element f32, median of %d x %ld calls (ns/call)\n", repeats, calls);
#ifndef CT_BENCH_NO_TORCH
  if (have_torch) printf("libtorch %s, 1 thread, tensors not requiring grad\n", torch_dispatch_version());
#endif
  if (have_torch)
    printf("%-15s %8s %10s %17s\n", "op", "ctorch", "libtorch", "libtorch/ctorch");
  else
    printf("%-15s %8s\n", "op", "ctorch");
  int missed = 0;
  for (int op = 0; op < NOPS; op++) {
    double c = median(ct_ns + op * repeats, repeats);
    if (have_torch) {
      double t = median(th_ns + op * repeats, repeats);
      double ratio = t / c;
      if (op < 3 && ratio < 20.0) missed = 1; /* issue 17's target: add, add_out, add_ (zeros has none) */
      printf("%-15s %8.1f %10.1f %16.1fx\n", op_names[op], c, t, ratio);
    } else {
      printf("%-15s %8.1f\n", op_names[op], c);
    }
  }
  if (have_torch && missed) printf("note: target is libtorch/ctorch >= 20x for add, add_out and add_ (15x with grad: bench/autograd.c)\n");

  ct_release(ta);
  ct_release(tb);
  ct_release(tout);
  free(ct_ns);
  free(th_ns);
  return 0;
}
