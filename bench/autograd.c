/* bench/autograd.c - autograd overhead of ctorch, side by side with libtorch.
 *
 * float32, grad mode, one thread; three cases, each timed per iteration:
 *   add (grad)       ct_add(a, b) on 1-element leaves that require grad, then
 *                    ct_release(result): records and frees an autograd node
 *   mlp step, B=1    one training step of a tiny MLP at batch 1
 *   mlp step, B=64   the same step at batch 64
 * The MLP is 32 -> 64 -> 64 -> 8 with ReLU between the layers; parameters
 * W1 [32,64], b1 [64], W2 [64,64], b2 [64], W3 [64,8], b3 [8] are leaves that
 * require grad, initialised uniform(-0.1, 0.1) from a fixed xorshift PRNG;
 * x [B,32] and t [B,8] are fixed, uniform(-1, 1). One step, in CT_SCOPE:
 *   h1 = relu(mm(x, W1) + b1); h2 = relu(mm(h1, W2) + b2); y = mm(h2, W3) + b3
 *   d = y - t; loss = mean(d * d); ct_backward(loss)
 *   CT_NO_GRAD: for each parameter p: p += -0.01 * grad(p); grad(p) = NULL
 * Both batch sizes train the same parameters. bench/autograd_torch.cpp does
 * the same work with libtorch (its init draws differ, so its losses do too).
 *
 * Each case is calibrated (which warms it up) to an iteration count that
 * makes the slower side's repeat take about BENCH_TARGET_MS, then measured as
 * BENCH_REPEATS repeats; the figure is the median of the per-repeat time per
 * iteration. With libtorch the repeats are interleaved (ctorch, libtorch,
 * then libtorch, ctorch, ...) so that noise on a shared machine hits both
 * alike. Also printed: ctorch's system allocations per iteration over all
 * timed repeats (0 in steady state when the caching allocator does its job),
 * and, as a sanity check before timing each training case, the loss before
 * and after BENCH_TRAIN_STEPS steps; the program fails if ctorch's loss does
 * not decrease. Every ctorch call is checked: a failure prints the error and
 * exits with status 1.
 *
 * Build: see bench/run.sh. -DCT_BENCH_NO_TORCH gives the ctorch-only variant.
 * Environment: BENCH_REPEATS (default 15), BENCH_TARGET_MS (default 200),
 * BENCH_ITERS (fixed iterations per repeat for every case, skipping the
 * calibration), BENCH_TRAIN_STEPS (default 300).
 */
#define _POSIX_C_SOURCE 200809L
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NCASES 3
static const char *const case_names[NCASES] = {"add (grad)", "mlp step, B=1", "mlp step, B=64"};
/* add is reported in ns/iter, the training steps in us/iter */
static const char *const case_units[NCASES] = {"ns", "us", "us"};
static const double case_scale[NCASES] = {1.0, 1e-3, 1e-3};

#ifndef CT_BENCH_NO_TORCH
/* bench/autograd_torch.cpp. The setup call makes the tensors and sets one
 * thread; each run call does `iters` iterations of which (0 add, 1 step at
 * batch 1, 2 step at batch 64) and returns the elapsed ns (negative on
 * error); the loss call runs one step and returns its loss (negative on
 * error). */
extern int torch_autograd_setup(void);
extern double torch_autograd_run(int which, long iters);
extern double torch_autograd_loss(int which);
extern const char *torch_autograd_version(void);
extern const char *torch_autograd_blas(void);
#endif

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static const double lr = 0.01;
static const int64_t batch[2] = {1, 64};
static ct_tensor *ta, *tb;        /* which 0 */
static ct_tensor *params[6];      /* W1, b1, W2, b2, W3, b3 */
static ct_tensor *xs[2], *ts[2];  /* inputs/targets at batch 1 and batch 64 */
static volatile int sink;         /* keeps the loop bodies observable */

static void die(const char *what) {
  fprintf(stderr, "bench_autograd: %s failed: %s (%s)\n", what, ct_last_error_message(),
          ct_status_name(ct_last_error()));
  exit(1);
}

static ct_tensor *chk(ct_tensor *t, const char *what) {
  if (!t) die(what);
  return t;
}

static void chk_status(ct_status s, const char *what) {
  if (s != CT_OK) die(what);
}

/* xorshift64*: a fixed, simple PRNG for the initial values */
static uint64_t rng_state = 20240601u;
static double rng_uniform(double lo, double hi) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  uint64_t r = rng_state * 2685821657736338717ull;
  return lo + (hi - lo) * ((double)(r >> 11) * (1.0 / 9007199254740992.0));
}

static ct_tensor *uniform_tensor(int ndim, const int64_t *sizes, double lo, double hi, bool requires_grad) {
  int64_t n = 1;
  for (int i = 0; i < ndim; i++) n *= sizes[i];
  float *buf = malloc(sizeof(float) * (size_t)n);
  if (!buf) {
    fprintf(stderr, "bench_autograd: out of memory\n");
    exit(1);
  }
  for (int64_t i = 0; i < n; i++) buf[i] = (float)rng_uniform(lo, hi);
  ct_tensor *t = chk(ct_from_array(ndim, sizes, CT_F32, buf), "ct_from_array");
  free(buf);
  if (requires_grad) chk_status(ct_set_requires_grad(t, true), "ct_set_requires_grad");
  return t;
}

static void setup(void) {
  ta = chk(ct_full(CT_DIMS(1), ct_float(1.0), CT_F32), "ct_full");
  tb = chk(ct_full(CT_DIMS(1), ct_float(1e-7), CT_F32), "ct_full");
  chk_status(ct_set_requires_grad(ta, true), "ct_set_requires_grad");
  chk_status(ct_set_requires_grad(tb, true), "ct_set_requires_grad");

  static const int64_t shapes[6][2] = {{32, 64}, {64, 0}, {64, 64}, {64, 0}, {64, 8}, {8, 0}};
  for (int i = 0; i < 6; i++) {
    int ndim = shapes[i][1] ? 2 : 1;
    params[i] = uniform_tensor(ndim, shapes[i], -0.1, 0.1, true);
  }
  for (int bi = 0; bi < 2; bi++) {
    xs[bi] = uniform_tensor(2, (const int64_t[]){batch[bi], 32}, -1.0, 1.0, false);
    ts[bi] = uniform_tensor(2, (const int64_t[]){batch[bi], 8}, -1.0, 1.0, false);
  }
}

/* One training step on batch index bi (0: batch 1, 1: batch 64). With
 * loss_out, stores the loss (computed before the update). */
static void ct_step(int bi, double *loss_out) {
  CT_SCOPE {
    ct_tensor *h1 = chk(ct_relu(chk(ct_add(chk(ct_mm(xs[bi], params[0]), "ct_mm"), params[1]), "ct_add")), "ct_relu");
    ct_tensor *h2 = chk(ct_relu(chk(ct_add(chk(ct_mm(h1, params[2]), "ct_mm"), params[3]), "ct_add")), "ct_relu");
    ct_tensor *y = chk(ct_add(chk(ct_mm(h2, params[4]), "ct_mm"), params[5]), "ct_add");
    ct_tensor *d = chk(ct_sub(y, ts[bi]), "ct_sub");
    ct_tensor *loss = chk(ct_mean(chk(ct_mul(d, d), "ct_mul")), "ct_mean");
    chk_status(ct_backward(loss), "ct_backward");
    if (loss_out) chk_status(ct_item(loss, loss_out), "ct_item");
    CT_NO_GRAD {
      for (int i = 0; i < 6; i++) {
        ct_tensor *g = ct_grad(params[i]);
        if (!g) {
          fprintf(stderr, "bench_autograd: parameter %d has no grad after ct_backward (%s)\n", i,
                  ct_last_error_message());
          exit(1);
        }
        chk_status(ct_add_ex_(params[i], g, ct_float(-lr)), "ct_add_ex_");
        chk_status(ct_set_grad(params[i], NULL), "ct_set_grad");
      }
    }
  }
}

static int64_t sys_allocs(void) { return ct_memory_stats_get().system_allocs; }

/* One repeat of `iters` iterations of which; returns elapsed ns. Adds the
 * system allocations made inside the timed loop to *allocs if not NULL. */
static double ct_run(int which, long iters, int64_t *allocs) {
  int64_t a0 = allocs ? sys_allocs() : 0;
  double t0 = now_ns();
  switch (which) {
  case 0:
    for (long i = 0; i < iters; i++) {
      ct_tensor *r = ct_add(ta, tb);
      if (!r) die("ct_add");
      ct_release(r);
    }
    break;
  default:
    for (long i = 0; i < iters; i++) ct_step(which - 1, NULL);
    break;
  }
  double t1 = now_ns();
  if (allocs) *allocs += sys_allocs() - a0;
  sink = (int)iters;
  return t1 - t0;
}

#ifndef CT_BENCH_NO_TORCH
static int have_torch = 0;
static double th_run(int which, long iters) {
  double ns = torch_autograd_run(which, iters);
  if (ns < 0) {
    fprintf(stderr, "bench_autograd: libtorch run of %s failed; ctorch only from here\n", case_names[which]);
    have_torch = 0;
  }
  return ns;
}
#endif

/* Per-iteration ns of which, doubling the count until a run takes min_ns;
 * doubles as the warm-up. torch selects the libtorch side. */
static double calibrate(int which, int torch, double min_ns) {
  for (long n = 1;; n *= 2) {
    double ns;
#ifndef CT_BENCH_NO_TORCH
    if (torch) {
      ns = th_run(which, n);
      if (ns < 0) return -1.0;
    } else
#endif
      ns = ct_run(which, n, NULL);
    (void)torch;
    if (ns >= min_ns || n >= (1L << 40)) return ns / (double)n;
  }
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
  double target_ns = (double)env_long("BENCH_TARGET_MS", 200) * 1e6;
  long fixed_iters = env_long("BENCH_ITERS", 0);
  long train_steps = env_long("BENCH_TRAIN_STEPS", 300);
  int torch_ok = 0; /* libtorch took part in every case */

  setup();

#ifndef CT_BENCH_NO_TORCH
  if (torch_autograd_setup() != 0) {
    fprintf(stderr, "bench_autograd: libtorch setup failed; ctorch only\n");
  } else {
    have_torch = 1;
    torch_ok = 1;
  }
#endif

  double *ct_ns = malloc(sizeof(double) * (size_t)repeats * NCASES);
  double *th_ns = malloc(sizeof(double) * (size_t)repeats * NCASES);
  if (!ct_ns || !th_ns) return 1;
  long iters[NCASES];
  double allocs_per_iter[NCASES];
  double ct_loss[NCASES][2] = {{0}}, th_loss[NCASES][2] = {{0}};
  int loss_bad = 0;

  for (int which = 0; which < NCASES; which++) {
    /* sanity check first (it also warms up): training must lower the loss */
    if (which > 0) {
      ct_step(which - 1, &ct_loss[which][0]);
      ct_run(which, train_steps, NULL);
      ct_step(which - 1, &ct_loss[which][1]);
      if (!(ct_loss[which][1] < ct_loss[which][0])) loss_bad = 1;
#ifndef CT_BENCH_NO_TORCH
      if (have_torch) {
        th_loss[which][0] = torch_autograd_loss(which);
        if (th_loss[which][0] >= 0 && th_run(which, train_steps) >= 0) th_loss[which][1] = torch_autograd_loss(which);
        if (th_loss[which][0] < 0 || th_loss[which][1] < 0) {
          fprintf(stderr, "bench_autograd: libtorch loss of %s failed; ctorch only from here\n", case_names[which]);
          have_torch = 0;
        }
      }
#endif
    }

    /* calibration (and warm-up): the slower side's repeat takes ~target */
    double per_ct = calibrate(which, 0, target_ns / 10);
    double per = per_ct;
#ifndef CT_BENCH_NO_TORCH
    if (have_torch) {
      double per_th = calibrate(which, 1, target_ns / 10);
      if (per_th > per) per = per_th;
    }
#endif
    iters[which] = fixed_iters ? fixed_iters : (long)(target_ns / per);
    if (iters[which] < 1) iters[which] = 1;

    int64_t allocs = 0;
    for (int r = 0; r < repeats; r++) {
      /* alternate which goes first so neither always follows the other */
      int torch_first = r & 1;
#ifndef CT_BENCH_NO_TORCH
      if (have_torch && torch_first)
        th_ns[which * repeats + r] = th_run(which, iters[which]) / (double)iters[which];
#endif
      ct_ns[which * repeats + r] = ct_run(which, iters[which], &allocs) / (double)iters[which];
#ifndef CT_BENCH_NO_TORCH
      if (have_torch && !torch_first)
        th_ns[which * repeats + r] = th_run(which, iters[which]) / (double)iters[which];
#endif
      (void)torch_first;
    }
    allocs_per_iter[which] = (double)allocs / ((double)iters[which] * repeats);
#ifndef CT_BENCH_NO_TORCH
    if (!have_torch) torch_ok = 0;
#endif
  }

  printf("autograd: f32, grad mode, 1 thread, median of %d repeats (%s)\n", repeats,
         fixed_iters ? "BENCH_ITERS iterations each" : "iterations calibrated to ~BENCH_TARGET_MS per repeat");
#ifndef CT_BENCH_NO_TORCH
  if (torch_ok) {
    printf("libtorch %s, 1 thread\n", torch_autograd_version());
    printf("libtorch BLAS: %s\n", torch_autograd_blas());
  }
#endif
  if (torch_ok)
    printf("%-15s %4s %10s %10s %16s %8s %12s\n", "case", "unit", "ctorch", "libtorch", "libtorch/ctorch", "iters",
           "sysalloc/it");
  else
    printf("%-15s %4s %10s %8s %12s\n", "case", "unit", "ctorch", "iters", "sysalloc/it");
  for (int which = 0; which < NCASES; which++) {
    double c = median(ct_ns + which * repeats, repeats);
    double s = case_scale[which];
    if (torch_ok) {
      double t = median(th_ns + which * repeats, repeats);
      printf("%-15s %4s %10.2f %10.2f %15.2fx %8ld %12.3f\n", case_names[which], case_units[which], c * s, t * s,
             t / c, iters[which], allocs_per_iter[which]);
    } else {
      printf("%-15s %4s %10.2f %8ld %12.3f\n", case_names[which], case_units[which], c * s, iters[which],
             allocs_per_iter[which]);
    }
  }
  printf("loss before -> after %ld training steps (sanity check; init draws differ between the two)\n", train_steps);
  for (int which = 1; which < NCASES; which++) {
    printf("%-15s ctorch %.6f -> %.6f", case_names[which], ct_loss[which][0], ct_loss[which][1]);
    if (torch_ok) printf("   libtorch %.6f -> %.6f", th_loss[which][0], th_loss[which][1]);
    printf("\n");
  }
  if (loss_bad) printf("FAILED: ctorch's loss did not decrease\n");

  ct_release(ta);
  ct_release(tb);
  for (int i = 0; i < 6; i++) ct_release(params[i]);
  for (int bi = 0; bi < 2; bi++) {
    ct_release(xs[bi]);
    ct_release(ts[bi]);
  }
  free(ct_ns);
  free(th_ns);
  return loss_bad ? 1 : 0;
}
