/* bench/blis.c - ctorch with the BLIS backend: GEMM, a tiny MLP, loops,
 * allocations and latency, side by side with direct BLIS, hand-written C
 * and (when built with bench/blis_torch.cpp) libtorch. `make bench` runs it.
 *
 * Every figure is the median over BENCH_REPEATS repeats (default 7) of a
 * timed batch of calls sized to take about BENCH_MS ms (default 20); "1t" and
 * "2t" are ct_set_num_threads(1 / 2) (and at::set_num_threads for libtorch).
 * Sections:
 *   gemm      f32 square 64..2048 (BENCH_GEMM_MAX caps it): ct_mm vs bli_sgemm
 *   crossover plain-C small kernel vs BLIS inside ct_mm, small shapes
 *   mlp       32 -> 64 -> 64 -> 8 ReLU forward, batch 1 and 64, no grad:
 *             ctorch vs libtorch vs plain C on preallocated buffers (floor)
 *   train     the same MLP, MSE loss, backward, SGD step: ctorch vs libtorch
 *             vs a hand-written C step on BLIS
 *   linear    the MLP as PyTorch users write it (ct_linear, [out][in] weights,
 *             MSE loss, SGD with zero_grad), training step and forward, vs the
 *             addmm layout, hand-written C in that layout (plain loops), C on
 *             BLIS and libtorch's at::linear, interleaved
 *   loops     1M-element f32 relu, add, sum vs plain C loops (copy, a+b, sum)
 *   act       1M-element f32 exp, sigmoid, tanh, softmax, log_softmax (1024 rows
 *             of 1024): the backend vs the header's reference kernel it replaced
 *             vs libtorch
 *   allocs    system allocations per steady-state iteration of the MLP loops
 *   latency   p50 / p99 of 10,000 batch-1 forwards; the first call after load
 * The machine this was written on has 2 cores shared with other jobs: run it
 * when the machine is quiet for figures worth quoting.
 */
#define _POSIX_C_SOURCE 200809L
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <blis.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "backends/cpu_blis/ctorch_blis.h"

#ifndef CT_BENCH_NO_TORCH
extern const char *torch_blis_info(void);  /* version, BLAS in show_config, BLAS libraries mapped */
extern void torch_blis_threads(int n);
extern void torch_blis_clock(int cpu); /* 1: thread CPU time, 0: wall */
extern double torch_mlp_forward(int batch, long calls); /* ns elapsed */
extern double torch_mlp_train(int batch, long calls);
extern double torch_act(int which, long calls); /* 1M f32: exp, sigmoid, tanh, softmax, log_softmax */
extern double torch_linear_train(int batch, long calls); /* at::linear, mse_loss, SGD with grads set to none */
extern double torch_linear_forward(int batch, long calls);
#endif

/* 1-thread figures use this thread's CPU time (BENCH_CLOCK=wall to switch
 * off): on a shared machine, time spent descheduled is the bulk of the noise.
 * 2-thread figures and the latency section always use the wall clock. */
static int cpu_clock;
static void use_clock(int th);
static double now_ns(void) {
  struct timespec ts;
  clock_gettime(cpu_clock ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}
static int reps = 7;
static double target_ms = 20;
typedef double (*run_fn)(void *ctx, long calls); /* returns ns for `calls` calls */

/* median ns per call */
static double bench(run_fn f, void *ctx) {
  double t, v[64];
  long calls = 1;
  int r;
  f(ctx, 1); /* warm-up */
  for (;;) {
    t = f(ctx, calls);
    if (t > target_ms * 1e6 / 4 || calls > (1L << 26)) break;
    calls *= 4;
  }
  calls = (long)(calls * (target_ms * 1e6 / (t > 1 ? t : 1)));
  if (calls < 1) calls = 1;
  for (r = 0; r < reps && r < 64; r++) v[r] = f(ctx, calls) / (double)calls;
  qsort(v, (size_t)r, sizeof v[0], cmp_double);
  return v[r / 2];
}

/* Several functions timed side by side: each calibrated alone, then the
 * repeats interleaved (f0 f1 ... f0 f1 ...), so a slow patch of the machine
 * hits every side; medians of ns per call into med[]. */
static void bench_interleaved(int n, run_fn *f, void **ctx, double *med) {
  double v[8][64];
  long calls[8];
  int i, r;
  for (i = 0; i < n && i < 8; i++) {
    double t;
    long c = 1;
    f[i](ctx[i], 1);
    for (;;) {
      t = f[i](ctx[i], c);
      if (t > target_ms * 1e6 / 4 || c > (1L << 26)) break;
      c *= 4;
    }
    c = (long)(c * (target_ms * 1e6 / (t > 1 ? t : 1)));
    calls[i] = c < 1 ? 1 : c;
  }
  for (r = 0; r < reps && r < 64; r++)
    for (i = 0; i < n && i < 8; i++) v[i][r] = f[i](ctx[i], calls[i]) / (double)calls[i];
  for (i = 0; i < n && i < 8; i++) {
    qsort(v[i], (size_t)r, sizeof v[i][0], cmp_double);
    med[i] = v[i][r / 2];
  }
}

static void die(const char *what) {
  fprintf(stderr, "bench_blis: %s failed: %s\n", what, ct_last_error_message());
  exit(1);
}
static void fill(float *p, int64_t n, unsigned seed) {
  int64_t i;
  for (i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 0.5f;
  }
}
static ct_tensor *tensor(int64_t r, int64_t c, unsigned seed) {
  int64_t s[2];
  ct_tensor *t;
  s[0] = r, s[1] = c;
  t = ct_empty(c ? 2 : 1, s, CT_F32);
  if (!t) die("ct_empty");
  fill((float *)ct_data_ptr(t), t->numel, seed);
  return t;
}

/* ---- GEMM ---- */
typedef struct {
  int n;
  ct_tensor *a, *b;
  float *c;
} gemm_ctx;
static double run_ct_mm(void *p, long calls) {
  gemm_ctx *g = (gemm_ctx *)p;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    ct_tensor *r = ct_mm(g->a, g->b);
    if (!r) die("ct_mm");
    ct_release(r);
  }
  return now_ns() - t0;
}
static double run_blis_mm(void *p, long calls) {
  gemm_ctx *g = (gemm_ctx *)p;
  float one = 1, zero = 0;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++)
    bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, g->n, g->n, g->n, &one, (float *)ct_data_ptr(g->a), g->n, 1,
              (float *)ct_data_ptr(g->b), g->n, 1, &zero, g->c, g->n, 1);
  return now_ns() - t0;
}

static void section_gemm(void) {
  static const int sizes[] = {64, 256, 1024, 2048};
  int s, th, max = getenv("BENCH_GEMM_MAX") ? atoi(getenv("BENCH_GEMM_MAX")) : 2048;
  printf("\n== GEMM f32, square: ct_mm (new output) vs bli_sgemm (preallocated C); GFLOP/s, ratio = ctorch / BLIS\n");
  printf("%-6s %-3s %12s %12s %8s\n", "n", "thr", "ctorch", "BLIS", "ratio");
  for (s = 0; s < 4; s++) {
    gemm_ctx g;
    if (sizes[s] > max) continue;
    g.n = sizes[s];
    g.a = tensor(g.n, g.n, 1);
    g.b = tensor(g.n, g.n, 2);
    g.c = (float *)malloc(sizeof(float) * (size_t)g.n * (size_t)g.n);
    for (th = 1; th <= 2; th++) {
      double flop = 2.0 * g.n * g.n * g.n, tc, tb;
      int r0 = reps;
      use_clock(th);
      ct_set_num_threads(th);
      bli_thread_set_num_threads(th == 2 && g.n >= 192 ? 2 : 1); /* BLIS direct: same rule as ctorch */
      if (g.n >= 1024) reps = 3;
      tc = bench(run_ct_mm, &g);
      tb = bench(run_blis_mm, &g);
      reps = r0;
      printf("%-6d %-3d %12.1f %12.1f %8.3f\n", g.n, th, flop / tc, flop / tb, tb / tc);
    }
    ct_release(g.a), ct_release(g.b), free(g.c);
  }
  ct_set_num_threads(1);
}

static void section_crossover(void) {
  static const int shapes[][3] = {{1, 32, 64}, {1, 64, 64}, {1, 64, 8}, {64, 32, 64}, {64, 64, 64}, {64, 64, 8},
                                  {16, 16, 16}, {32, 32, 32}, {48, 48, 48}, {64, 64, 64}, {96, 96, 96}, {128, 128, 128}};
  int s;
  int64_t old;
  use_clock(1);
  ct_set_num_threads(1);
  printf("\n== crossover (1 thread): ct_mm through the plain-C small kernel vs through BLIS; ns per call\n");
  printf("%-14s %10s %10s %10s\n", "m x k x n", "plain C", "BLIS", "chosen");
  for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
    gemm_ctx g;
    double tc, tb, tx;
    char name[32];
    g.a = tensor(shapes[s][0], shapes[s][1], 3);
    g.b = tensor(shapes[s][1], shapes[s][2], 4);
    old = ct_cpu_blis_set_small_flops(INT64_MAX);
    tc = bench(run_ct_mm, &g);
    ct_cpu_blis_set_small_flops(0);
    tb = bench(run_ct_mm, &g);
    ct_cpu_blis_set_small_flops(old);
    tx = bench(run_ct_mm, &g);
    snprintf(name, sizeof name, "%dx%dx%d", shapes[s][0], shapes[s][1], shapes[s][2]);
    printf("%-14s %10.0f %10.0f %10.0f\n", name, tc, tb, tx);
    ct_release(g.a), ct_release(g.b);
  }
}

/* ---- the MLP: 32 -> 64 -> 64 -> 8 ---- */
enum { IN = 32, H = 64, OUT = 8, MAXB = 64 };
static float W1[IN * H], B1[H], W2[H * H], B2[H], W3[H * OUT], B3[OUT]; /* [in][out] row-major */
static float X[MAXB * IN], Y[MAXB * OUT];

/* plain C floor: preallocated buffers, loops the compiler vectorises */
static float F1[MAXB * H], F2[MAXB * H], F3[MAXB * OUT];
/* The floor gets the compiler's best: -O3 with FMA (bench/run.sh) and an
 * AVX2/FMA clone picked at run time, as the backend's kernels do. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
static void layer(int batch, const float *restrict x, int in, const float *restrict w, const float *restrict b, int out,
                  float *restrict y, int relu) {
  int r, i, j;
  for (r = 0; r < batch; r++) {
    float *yr = y + r * out;
    for (j = 0; j < out; j++) yr[j] = b[j];
    for (i = 0; i < in; i++) {
      float xi = x[r * in + i];
      const float *wi = w + i * out;
      for (j = 0; j < out; j++) yr[j] += xi * wi[j];
    }
    if (relu)
      for (j = 0; j < out; j++) yr[j] = yr[j] > 0 ? yr[j] : 0;
  }
}
static void floor_forward(int batch) {
  layer(batch, X, IN, W1, B1, H, F1, 1);
  layer(batch, F1, H, W2, B2, H, F2, 1);
  layer(batch, F2, H, W3, B3, OUT, F3, 0);
}
static double run_floor(void *p, long calls) {
  int batch = *(int *)p;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    floor_forward(batch);
    __asm__ __volatile__("" ::: "memory");
  }
  return now_ns() - t0;
}

/* ctorch */
static ct_tensor *tw1, *tb1, *tw2, *tb2, *tw3, *tb3, *tx[2], *ty[2];
static void ct_model_init(void) {
  int64_t s[2];
  s[0] = IN, s[1] = H;
  tw1 = ct_from_array(2, s, CT_F32, W1);
  s[0] = H;
  tw2 = ct_from_array(2, s, CT_F32, W2);
  s[1] = OUT;
  tw3 = ct_from_array(2, s, CT_F32, W3);
  s[0] = H;
  tb1 = ct_from_array(1, s, CT_F32, B1);
  tb2 = ct_from_array(1, s, CT_F32, B2);
  s[0] = OUT;
  tb3 = ct_from_array(1, s, CT_F32, B3);
  s[0] = 1, s[1] = IN;
  tx[0] = ct_from_array(2, s, CT_F32, X);
  s[0] = MAXB;
  tx[1] = ct_from_array(2, s, CT_F32, X);
  s[0] = 1, s[1] = OUT;
  ty[0] = ct_from_array(2, s, CT_F32, Y);
  s[0] = MAXB;
  ty[1] = ct_from_array(2, s, CT_F32, Y);
  if (!tw1 || !tw2 || !tw3 || !tb1 || !tb2 || !tb3 || !tx[0] || !tx[1] || !ty[0] || !ty[1]) die("model init");
}
/* as a libtorch user writes it: addmm per layer, ReLU in place */
static ct_tensor *ct_forward(ct_tensor *x) {
  ct_tensor *h1 = ct_addmm(tb1, x, tw1), *t;
  ct_relu_(h1);
  t = ct_addmm(tb2, h1, tw2);
  ct_release(h1);
  ct_relu_(t);
  h1 = ct_addmm(tb3, t, tw3);
  ct_release(t);
  return h1;
}
static double run_ct_forward(void *p, long calls) {
  ct_tensor *x = tx[*(int *)p == 1 ? 0 : 1];
  long i;
  double t0;
  t0 = now_ns();
  CT_NO_GRAD {
    for (i = 0; i < calls; i++) {
      ct_tensor *y = ct_forward(x);
      if (!y) die("forward");
      ct_release(y);
    }
  }
  return now_ns() - t0;
}

/* training step: ctorch */
static ct_tensor *params[6];
static void ct_train_step(int which) {
  CT_SCOPE {
    ct_tensor *h1 = ct_relu(ct_addmm(params[1], tx[which], params[0]));
    ct_tensor *h2 = ct_relu(ct_addmm(params[3], h1, params[2]));
    ct_tensor *d = ct_sub(ct_addmm(params[5], h2, params[4]), ty[which]);
    ct_tensor *loss = ct_mean(ct_mul(d, d));
    int k;
    if (!loss || ct_backward(loss) != CT_OK) die("train step");
    CT_NO_GRAD {
      for (k = 0; k < 6; k++) {
        ct_sub_ex_(params[k], ct_grad(params[k]), ct_float(0.01));
        ct_fill_(ct_grad(params[k]), ct_float(0));
      }
    }
  }
}
static double run_ct_train(void *p, long calls) {
  int which = *(int *)p == 1 ? 0 : 1;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) ct_train_step(which);
  return now_ns() - t0;
}

/* training step: hand-written C on BLIS (sgemm with strides for the transposes) */
static float P[6][H * H], G[6][H * H];
static float A1[MAXB * H], A2[MAXB * H], O[MAXB * OUT], D3[MAXB * OUT], D2[MAXB * H], D1[MAXB * H];
static void sg(int m, int n, int k, const float *a, int rsa, int csa, const float *b, int rsb, int csb, float *c, int rsc) {
  float one = 1, zero = 0;
  bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, m, n, k, &one, (float *)a, rsa, csa, (float *)b, rsb, csb, &zero, c, rsc, 1);
}
static void hand_step(int batch) {
  int r, j, k;
  float lr = 0.01f, scale = 2.0f / (float)(batch * OUT);
  /* forward */
  sg(batch, H, IN, X, IN, 1, P[0], H, 1, A1, H);
  for (r = 0; r < batch; r++)
    for (j = 0; j < H; j++) A1[r * H + j] = A1[r * H + j] + P[1][j] > 0 ? A1[r * H + j] + P[1][j] : 0;
  sg(batch, H, H, A1, H, 1, P[2], H, 1, A2, H);
  for (r = 0; r < batch; r++)
    for (j = 0; j < H; j++) A2[r * H + j] = A2[r * H + j] + P[3][j] > 0 ? A2[r * H + j] + P[3][j] : 0;
  sg(batch, OUT, H, A2, H, 1, P[4], OUT, 1, O, OUT);
  for (r = 0; r < batch; r++)
    for (j = 0; j < OUT; j++) D3[r * OUT + j] = (O[r * OUT + j] + P[5][j] - Y[r * OUT + j]) * scale;
  /* backward */
  sg(H, OUT, batch, A2, 1, H, D3, OUT, 1, G[4], OUT); /* dW3 = A2^T D3 */
  sg(batch, H, OUT, D3, OUT, 1, P[4], 1, OUT, D2, H); /* D2 = D3 W3^T */
  for (k = 0; k < batch * H; k++) D2[k] = A2[k] > 0 ? D2[k] : 0;
  sg(H, H, batch, A1, 1, H, D2, H, 1, G[2], H);
  sg(batch, H, H, D2, H, 1, P[2], 1, H, D1, H);
  for (k = 0; k < batch * H; k++) D1[k] = A1[k] > 0 ? D1[k] : 0;
  sg(IN, H, batch, X, 1, IN, D1, H, 1, G[0], H);
  for (j = 0; j < OUT; j++) {
    float s = 0;
    for (r = 0; r < batch; r++) s += D3[r * OUT + j];
    G[5][j] = s;
  }
  for (j = 0; j < H; j++) {
    float s1 = 0, s2 = 0;
    for (r = 0; r < batch; r++) s1 += D1[r * H + j], s2 += D2[r * H + j];
    G[1][j] = s1, G[3][j] = s2;
  }
  /* SGD */
  for (k = 0; k < IN * H; k++) P[0][k] -= lr * G[0][k];
  for (k = 0; k < H * H; k++) P[2][k] -= lr * G[2][k];
  for (k = 0; k < H * OUT; k++) P[4][k] -= lr * G[4][k];
  for (k = 0; k < H; k++) P[1][k] -= lr * G[1][k], P[3][k] -= lr * G[3][k];
  for (k = 0; k < OUT; k++) P[5][k] -= lr * G[5][k];
}
static double run_hand_train(void *p, long calls) {
  int batch = *(int *)p;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) hand_step(batch);
  return now_ns() - t0;
}

/* ---- the same MLP as PyTorch users write it: nn.Linear's layout (weights
 * [out][in]), F.linear, MSELoss, optim.SGD with zero_grad (set_to_none) ---- */
static ct_tensor *lparams[6]; /* w1 [H][IN], b1, w2 [H][H], b2, w3 [OUT][H], b3 */
static ct_optim *lopt, *aopt; /* SGD lr 0.01 over lparams / over params (the addmm layout) */
static ct_tensor *ct_linear_forward(ct_tensor *x) {
  return ct_linear(ct_relu(ct_linear(ct_relu(ct_linear(x, lparams[0], lparams[1])), lparams[2], lparams[3])), lparams[4], lparams[5]);
}
static void ct_linear_step(int which) {
  CT_SCOPE {
    ct_tensor *loss;
    if (ct_optim_zero_grad(lopt) != CT_OK) die("zero_grad");
    loss = ct_mse_loss(ct_linear_forward(tx[which]), ty[which], 1);
    if (!loss || ct_backward(loss) != CT_OK || ct_optim_step(lopt) != CT_OK) die("linear train step");
  }
}
static double run_ct_linear_train(void *p, long calls) {
  int which = *(int *)p == 1 ? 0 : 1;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) ct_linear_step(which);
  return now_ns() - t0;
}
/* the same step in the addmm layout (weights [in][out]) */
static void ct_addmm_step(int which) {
  CT_SCOPE {
    ct_tensor *h, *loss;
    if (ct_optim_zero_grad(aopt) != CT_OK) die("zero_grad");
    h = ct_relu(ct_addmm(params[1], tx[which], params[0]));
    h = ct_relu(ct_addmm(params[3], h, params[2]));
    loss = ct_mse_loss(ct_addmm(params[5], h, params[4]), ty[which], 1);
    if (!loss || ct_backward(loss) != CT_OK || ct_optim_step(aopt) != CT_OK) die("addmm train step");
  }
}
static double run_ct_addmm_train(void *p, long calls) {
  int which = *(int *)p == 1 ? 0 : 1;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) ct_addmm_step(which);
  return now_ns() - t0;
}
static double run_ct_linear_forward(void *p, long calls) {
  int which = *(int *)p == 1 ? 0 : 1;
  long i;
  double t0 = now_ns();
  CT_NO_GRAD {
    for (i = 0; i < calls; i++) CT_SCOPE {
        if (!ct_linear_forward(tx[which])) die("linear forward");
      }
  }
  return now_ns() - t0;
}
/* hand-written C in that layout: plain loops (no BLIS), the floor for tiny layers */
static float LW[3][H * H], LB[3][H], LGW[3][H * H], LGB[3][H];
static float LA1[MAXB * H], LA2[MAXB * H], LO[MAXB * OUT], LD3[MAXB * OUT], LD2[MAXB * H], LD1[MAXB * H];
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
static void lin_forward(int batch, const float *restrict x, int in, const float *restrict w, const float *restrict b, int out,
                        float *restrict y, int relu) {
  int r, o, i;
  for (r = 0; r < batch; r++)
    for (o = 0; o < out; o++) {
      const float *wo = w + o * in, *xr = x + r * in;
      float part[8] = {0, 0, 0, 0, 0, 0, 0, 0}, acc; /* 8 partial sums: a vector the compiler keeps in a register */
      int j;
      for (i = 0; i + 8 <= in; i += 8)
        for (j = 0; j < 8; j++) part[j] += xr[i + j] * wo[i + j];
      acc = b[o] + (((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7])));
      for (; i < in; i++) acc += xr[i] * wo[i];
      y[r * out + o] = relu && acc < 0 ? 0 : acc;
    }
}
/* d: [batch][out] gradient of the layer's output; a: its input [batch][in]; da (may be NULL): a's gradient through the ReLU that made a */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
static void lin_backward(int batch, const float *restrict d, int out, const float *restrict a, int in, const float *restrict w,
                         float *restrict gw, float *restrict gb, float *restrict da) {
  int r, o, i;
  for (o = 0; o < out; o++) {
    float *g = gw + o * in, sb = 0;
    for (i = 0; i < in; i++) g[i] = 0;
    for (r = 0; r < batch; r++) {
      const float dro = d[r * out + o], *ar = a + r * in;
      sb += dro;
      for (i = 0; i < in; i++) g[i] += dro * ar[i];
    }
    gb[o] = sb;
  }
  if (!da) return;
  for (r = 0; r < batch; r++) {
    float *dar = da + r * in;
    const float *ar = a + r * in;
    for (i = 0; i < in; i++) dar[i] = 0;
    for (o = 0; o < out; o++) {
      const float dro = d[r * out + o], *wo = w + o * in;
      for (i = 0; i < in; i++) dar[i] += dro * wo[i];
    }
    for (i = 0; i < in; i++) dar[i] = ar[i] > 0 ? dar[i] : 0;
  }
}
static void hand_linear_step(int batch) {
  static const int ins[3] = {IN, H, H}, outs[3] = {H, H, OUT};
  float lr = 0.01f, scale = 2.0f / (float)(batch * OUT);
  int k, j;
  lin_forward(batch, X, IN, LW[0], LB[0], H, LA1, 1);
  lin_forward(batch, LA1, H, LW[1], LB[1], H, LA2, 1);
  lin_forward(batch, LA2, H, LW[2], LB[2], OUT, LO, 0);
  for (j = 0; j < batch * OUT; j++) LD3[j] = (LO[j] - Y[j]) * scale;
  lin_backward(batch, LD3, OUT, LA2, H, LW[2], LGW[2], LGB[2], LD2);
  lin_backward(batch, LD2, H, LA1, H, LW[1], LGW[1], LGB[1], LD1);
  lin_backward(batch, LD1, H, X, IN, LW[0], LGW[0], LGB[0], NULL);
  for (k = 0; k < 3; k++) {
    for (j = 0; j < outs[k] * ins[k]; j++) LW[k][j] -= lr * LGW[k][j];
    for (j = 0; j < outs[k]; j++) LB[k][j] -= lr * LGB[k][j];
  }
}
static double run_hand_linear_forward(void *p, long calls) {
  int batch = *(int *)p;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    lin_forward(batch, X, IN, LW[0], LB[0], H, LA1, 1);
    lin_forward(batch, LA1, H, LW[1], LB[1], H, LA2, 1);
    lin_forward(batch, LA2, H, LW[2], LB[2], OUT, LO, 0);
    __asm__ __volatile__("" ::: "memory");
  }
  return now_ns() - t0;
}
static double run_hand_linear_train(void *p, long calls) {
  int batch = *(int *)p;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    hand_linear_step(batch);
    __asm__ __volatile__("" ::: "memory");
  }
  return now_ns() - t0;
}
static void linear_init(void) {
  static const int ins[3] = {IN, H, H}, outs[3] = {H, H, OUT};
  const float *w[3] = {W1, W2, W3}, *b[3] = {B1, B2, B3};
  int k, o, i;
  for (k = 0; k < 3; k++) {
    int64_t ws[2], bs[1];
    for (o = 0; o < outs[k]; o++) {
      for (i = 0; i < ins[k]; i++) LW[k][o * ins[k] + i] = w[k][i * outs[k] + o]; /* the [in][out] weights, transposed */
      LB[k][o] = b[k][o];
    }
    ws[0] = outs[k], ws[1] = ins[k], bs[0] = outs[k];
    lparams[2 * k] = ct_from_array(2, ws, CT_F32, LW[k]);
    lparams[2 * k + 1] = ct_from_array(1, bs, CT_F32, LB[k]);
    if (!lparams[2 * k] || !lparams[2 * k + 1]) die("linear params");
    ct_set_requires_grad(lparams[2 * k], true);
    ct_set_requires_grad(lparams[2 * k + 1], true);
  }
}
static void set_threads(int th);
static double run_hand_linear_forward(void *p, long calls);
#ifndef CT_BENCH_NO_TORCH
static double run_torch_linear_train(void *p, long calls) { return torch_linear_train(*(int *)p, calls); }
static double run_torch_linear_forward(void *p, long calls) { return torch_linear_forward(*(int *)p, calls); }
#endif
static void section_linear(void) {
  static const int batches[2] = {1, 64};
  int bi, i;
  linear_init();
  for (i = 0; i < 2; i++) {
    ct_optim_opts o = ct_sgd_defaults(0.01);
    ct_optim **opt = i ? &aopt : &lopt;
    if (!*opt && !(*opt = ct_optim_new(CT_OPTIM_SGD, 6, i ? params : lparams, &o))) die("ct_optim_new");
  }
  printf("\n== The MLP as PyTorch users write it: nn.Linear's layout (ct_linear, weights [out][in]), MSE loss,\n"
         "   SGD with zero_grad; 1 thread; us per step, medians of %d interleaved repeats. Beside it: the same\n"
         "   step in the addmm layout (ct_addmm, [in][out]), hand-written C in nn.Linear's layout (plain loops,\n"
         "   no BLIS: the floor for tiny layers), hand-written C on BLIS (sgemm per product), libtorch (at::linear)\n",
         reps);
  printf("%-10s %-6s %10s %10s %10s %10s %10s %12s %12s %12s\n", "case", "batch", "ct_linear", "ct_addmm", "hand C", "C on BLIS",
         "libtorch", "linear/hand", "linear/addmm", "torch/linear");
  set_threads(1);
  for (bi = 0; bi < 2; bi++) {
    int b = batches[bi];
    double t[5] = {NAN, NAN, NAN, NAN, NAN};
    run_fn f[5];
    void *c[5] = {&b, &b, &b, &b, &b};
    int n = 4;
    f[0] = run_ct_linear_train, f[1] = run_ct_addmm_train, f[2] = run_hand_linear_train, f[3] = run_hand_train;
#ifndef CT_BENCH_NO_TORCH
    f[n++] = run_torch_linear_train;
#endif
    bench_interleaved(n, f, c, t);
    printf("%-10s %-6d %10.2f %10.2f %10.2f %10.2f %10.2f %12.2f %12.2f %12.1f\n", "train", b, t[0] / 1e3, t[1] / 1e3, t[2] / 1e3,
           t[3] / 1e3, t[4] / 1e3, t[0] / t[2], t[0] / t[1], t[4] / t[0]);
  }
  for (bi = 0; bi < 2; bi++) {
    int b = batches[bi];
    double t[5] = {NAN, NAN, NAN, NAN, NAN};
    run_fn f[4];
    void *c[4] = {&b, &b, &b, &b};
    int n = 3;
    f[0] = run_ct_linear_forward, f[1] = run_ct_forward, f[2] = run_hand_linear_forward;
#ifndef CT_BENCH_NO_TORCH
    f[n++] = run_torch_linear_forward;
#endif
    bench_interleaved(n, f, c, t);
    t[4] = t[3], t[3] = NAN;
    printf("%-10s %-6d %10.2f %10.2f %10.2f %10s %10.2f %12.2f %12.2f %12.1f\n", "forward", b, t[0] / 1e3, t[1] / 1e3, t[2] / 1e3, "",
           t[4] / 1e3, t[0] / t[2], t[0] / t[1], t[4] / t[0]);
  }
  printf("targets (issue 17): train batch 1 <= 2x hand C, forward batch 1 <= 1.5x hand C; batch 64 no slower than\n"
         "the addmm layout and than C on BLIS\n");
}

#ifndef CT_BENCH_NO_TORCH
static double run_torch_forward(void *p, long calls) { return torch_mlp_forward(*(int *)p, calls); }
static double run_torch_train(void *p, long calls) { return torch_mlp_train(*(int *)p, calls); }
#endif

static void use_clock(int th) {
  const char *c = getenv("BENCH_CLOCK");
  cpu_clock = th == 1 && !(c && !strcmp(c, "wall"));
#ifndef CT_BENCH_NO_TORCH
  torch_blis_clock(cpu_clock);
#endif
}
static void set_threads(int th) {
  use_clock(th);
  ct_set_num_threads(th);
  bli_thread_set_num_threads(1); /* the hand-written step: tiny GEMMs, 1 BLIS thread is fastest */
#ifndef CT_BENCH_NO_TORCH
  torch_blis_threads(th);
#endif
}

static void section_mlp(void) {
  static const int batches[2] = {1, 64};
  int bi, th;
  printf("\n== MLP 32 -> 64 -> 64 -> 8 (ReLU) forward, no grad; us per forward\n");
  printf("%-6s %-3s %10s %10s %10s %14s %14s\n", "batch", "thr", "ctorch", "libtorch", "C floor", "torch/ctorch", "ctorch/floor");
  for (bi = 0; bi < 2; bi++)
    for (th = 1; th <= 2; th++) {
      int b = batches[bi];
      double tc, tt = NAN, tf;
      set_threads(th);
      tc = bench(run_ct_forward, &b);
#ifndef CT_BENCH_NO_TORCH
      tt = bench(run_torch_forward, &b);
#endif
      tf = bench(run_floor, &b);
      printf("%-6d %-3d %10.2f %10.2f %10.2f %14.1f %14.2f\n", b, th, tc / 1e3, tt / 1e3, tf / 1e3, tt / tc, tc / tf);
    }
  printf("targets: batch 1 >= 12x faster than libtorch and <= 2x the floor; batch 64 <= 1.15x the floor\n");
}

static void section_train(void) {
  static const int batches[2] = {1, 64};
  int bi, th;
  printf("\n== MLP training step (MSE, backward, SGD); us per step\n");
  printf("%-6s %-3s %10s %10s %10s %14s %14s\n", "batch", "thr", "ctorch", "libtorch", "C on BLIS", "torch/ctorch", "ctorch/hand");
  for (bi = 0; bi < 2; bi++)
    for (th = 1; th <= 2; th++) {
      int b = batches[bi];
      double tc, tt = NAN, th_;
      set_threads(th);
      tc = bench(run_ct_train, &b);
#ifndef CT_BENCH_NO_TORCH
      tt = bench(run_torch_train, &b);
#endif
      th_ = bench(run_hand_train, &b);
      printf("%-6d %-3d %10.2f %10.2f %10.2f %14.1f %14.2f\n", b, th, tc / 1e3, tt / 1e3, th_ / 1e3, tt / tc, tc / th_);
    }
  printf("targets: batch 1 >= 17x faster than libtorch; batch 64 <= 1.3x the hand-written step\n");
}

/* ---- 1M-element loops ---- */
enum { NL = 1 << 20 };
typedef struct {
  ct_tensor *a, *b;
  float *pa, *pb, *pr;
  int which;
} loop_ctx;
static volatile float sinkf;
static double run_loop(void *p, long calls) {
  loop_ctx *c = (loop_ctx *)p;
  long i;
  int64_t j;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    ct_tensor *r = NULL;
    switch (c->which) {
    case 0: r = ct_relu(c->a); break;
    case 1: r = ct_add(c->a, c->b); break;
    case 2: r = ct_sum(c->a); break;
    case 3: { /* copy loop */
      float *restrict d = c->pr;
      const float *restrict s = c->pa;
      for (j = 0; j < NL; j++) d[j] = s[j];
      break;
    }
    case 4: {
      float *restrict d = c->pr;
      const float *restrict s = c->pa, *restrict t = c->pb;
      for (j = 0; j < NL; j++) d[j] = s[j] + t[j];
      break;
    }
    default: {
      float acc[16] = {0}, s = 0;
      int k;
      for (j = 0; j < NL; j += 16)
        for (k = 0; k < 16; k++) acc[k] += c->pa[j + k];
      for (k = 0; k < 16; k++) s += acc[k];
      sinkf = s;
      break;
    }
    }
    if (c->which < 3) {
      if (!r) die("loop op");
      ct_release(r);
    }
    __asm__ __volatile__("" ::: "memory");
  }
  return now_ns() - t0;
}
static void section_loops(void) {
  loop_ctx c;
  int th, w;
  double t[6];
  c.a = tensor(NL, 0, 5);
  c.b = tensor(NL, 0, 6);
  c.pa = (float *)ct_data_ptr(c.a);
  c.pb = (float *)ct_data_ptr(c.b);
  c.pr = (float *)malloc(sizeof(float) * NL);
  memset(c.pr, 0, sizeof(float) * NL);
  printf("\n== 1M-element f32 loops (new output for ctorch); us per call; ratio to the plain-C loop with the same traffic\n");
  printf("%-3s %10s %10s %10s %10s %10s %10s %8s %8s %8s\n", "thr", "ct relu", "ct add", "ct sum", "C copy", "C a+b", "C sum",
         "relu/cp", "add/a+b", "sum/sum");
  for (th = 1; th <= 2; th++) {
    use_clock(th);
    ct_set_num_threads(th);
    for (w = 0; w < 6; w++) {
      c.which = w;
      t[w] = bench(run_loop, &c);
    }
    printf("%-3d %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %8.2f %8.2f %8.2f\n", th, t[0] / 1e3, t[1] / 1e3, t[2] / 1e3,
           t[3] / 1e3, t[4] / 1e3, t[5] / 1e3, t[0] / t[3], t[1] / t[4], t[2] / t[5]);
  }
  printf("(the plain-C loops are single-threaded; target: within 1.3x of the copy loop)\n");
  ct_release(c.a), ct_release(c.b), free(c.pr);
  ct_set_num_threads(1);
}

/* ---- activations and the softmax family ---- */
static const char *const act_ops[5] = {"exp", "sigmoid", "tanh", "softmax.int", "log_softmax.int"};
typedef struct {
  ct_tensor *x;
  int which, ref; /* ref: call the reference kernel the backend replaced */
  ct_unboxed_fn prev;
} act_ctx;
static double run_act(void *p, long calls) {
  act_ctx *c = (act_ctx *)p;
  long i;
  ct_keyset ks = ct_keyset_of(CT_KEY_CPU);
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    ct_tensor *r;
    if (c->ref)
      r = c->which < 3 ? ((ct_tensor * (*)(ct_keyset, ct_tensor *)) c->prev)(ks, c->x)
                       : ((ct_tensor * (*)(ct_keyset, ct_tensor *, int64_t, ct_dtype)) c->prev)(ks, c->x, -1, CT_DTYPE_NONE);
    else
      r = c->which == 0 ? ct_exp(c->x) : c->which == 1 ? ct_sigmoid(c->x) : c->which == 2 ? ct_tanh(c->x)
        : c->which == 3 ? ct_softmax(c->x, -1, CT_DTYPE_NONE) : ct_log_softmax(c->x, -1, CT_DTYPE_NONE);
    if (!r) die(act_ops[c->which]);
    ct_release(r);
  }
  return now_ns() - t0;
}
#ifndef CT_BENCH_NO_TORCH
static double run_act_torch(void *p, long calls) { return torch_act(((act_ctx *)p)->which, calls); }
#endif
static void section_act(void) {
  const ct_backend *be = ct_backend_find("cpu_blis");
  act_ctx c;
  int th, w, k;
  c.x = tensor(1024, 1024, 9);
  printf("\n== 1M-element f32 activations, softmax over rows of 1024; us per call (new output)\n");
  printf("%-3s %-12s %10s %10s %10s %9s %9s\n", "thr", "op", "ctorch", "reference", "libtorch", "ref/ct", "torch/ct");
  for (th = 1; th <= 2; th++) {
    use_clock(th);
    ct_set_num_threads(th);
#ifndef CT_BENCH_NO_TORCH
    torch_blis_threads(th);
#endif
    for (w = 0; w < 5; w++) {
      double tc, tr = NAN, tt = NAN;
      c.which = w;
      c.ref = 0;
      c.prev = NULL;
      for (k = 0; be && k < be->nkernels; k++)
        if (!strcmp(be->kernels[k].op, act_ops[w])) c.prev = be->kernels[k].replaced.unboxed;
      tc = bench(run_act, &c);
      if (c.prev) {
        c.ref = 1;
        tr = bench(run_act, &c);
      }
#ifndef CT_BENCH_NO_TORCH
      tt = bench(run_act_torch, &c);
#endif
      printf("%-3d %-12s %10.1f %10.1f %10.1f %9.2f %9.2f\n", th, act_ops[w], tc / 1e3, tr / 1e3, tt / 1e3, tr / tc, tt / tc);
    }
  }
  ct_release(c.x);
  ct_set_num_threads(1);
#ifndef CT_BENCH_NO_TORCH
  torch_blis_threads(1);
#endif
}

static void section_allocs(void) {
  int b, which, i;
  printf("\n== system allocations per steady-state iteration (after 10 warm-up iterations, over 1000)\n");
  for (which = 0; which < 2; which++)
    for (b = 0; b < 2; b++) {
      int64_t before = 0;
      int batch = b ? 64 : 1;
      for (i = 0; i < 1010; i++) {
        if (i == 10) before = ct_memory_stats_get().system_allocs;
        if (which == 0) {
          CT_NO_GRAD {
            ct_release(ct_forward(tx[b]));
          }
        } else {
          ct_train_step(b);
        }
      }
      printf("%-9s batch %-3d %.3f\n", which ? "training" : "forward", batch,
             (double)(ct_memory_stats_get().system_allocs - before) / 1000.0);
    }
}

static double first_call_ns, floor_first_ns;
static long first_call_faults, floor_first_faults, first_call_sysallocs;
static long page_faults(void) { /* minor + major: a first touch of fresh memory costs one */
  struct rusage u;
  return getrusage(RUSAGE_SELF, &u) == 0 ? u.ru_minflt + u.ru_majflt : 0;
}
static void section_latency(void) {
  static double lat[10000];
  int i;
  double p50, p99;
  cpu_clock = 0;
  ct_set_num_threads(1);
  CT_NO_GRAD {
    for (i = 0; i < 10000; i++) {
      double t0 = now_ns();
      ct_tensor *y = ct_forward(tx[0]);
      lat[i] = now_ns() - t0;
      ct_release(y);
    }
  }
  qsort(lat, 10000, sizeof lat[0], cmp_double);
  p50 = lat[4999];
  p99 = lat[9899];
  printf("\n== latency of 10,000 batch-1 forwards (1 thread), us\n");
  printf("p50 %.2f  p99 %.2f  (p99/p50 %.2f, target <= 1.5)  max %.1f\n", p50 / 1e3, p99 / 1e3, p99 / p50, lat[9999] / 1e3);
  printf("first call after load %.2f us (%.1fx p50, target <= 3x; %ld page faults, %ld system allocations)\n", first_call_ns / 1e3,
         first_call_ns / p50, first_call_faults, first_call_sysallocs);
  { /* the plain-C floor: its first call (made just before ctorch's) against its own p50 */
    for (i = 0; i < 10000; i++) {
      double t0 = now_ns();
      floor_forward(1);
      lat[i] = now_ns() - t0;
    }
    qsort(lat, 10000, sizeof lat[0], cmp_double);
    printf("plain-C floor for comparison: first call %.2f us, p50 %.2f us (%.1fx; %ld page faults)\n", floor_first_ns / 1e3,
           lat[4999] / 1e3, floor_first_ns / lat[4999], floor_first_faults);
  }
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  int k;
  /* the very first forward, before anything else touches ctorch */
  fill(W1, IN * H, 11), fill(B1, H, 12), fill(W2, H * H, 13), fill(B2, H, 14), fill(W3, H * OUT, 15), fill(B3, OUT, 16);
  fill(X, MAXB * IN, 17), fill(Y, MAXB * OUT, 18);
  ct_model_init();
  { /* the plain-C floor's own first call: what a cold process costs without any library */
    long f0 = page_faults();
    double t0 = now_ns();
    floor_forward(1);
    floor_first_ns = now_ns() - t0;
    floor_first_faults = page_faults() - f0;
  }
  {
    long f0 = page_faults();
    int64_t a0 = ct_memory_stats_get().system_allocs;
    double t0 = now_ns();
    CT_NO_GRAD {
      ct_release(ct_forward(tx[0]));
    }
    first_call_ns = now_ns() - t0;
    first_call_faults = page_faults() - f0;
    first_call_sysallocs = (long)(ct_memory_stats_get().system_allocs - a0);
  }
  if (getenv("BENCH_REPEATS")) reps = atoi(getenv("BENCH_REPEATS"));
  if (getenv("BENCH_MS")) target_ms = atof(getenv("BENCH_MS"));
  if (reps < 1) reps = 1;
  for (k = 0; k < 6; k++) {
    int64_t s[2] = {k == 0 ? IN : H, k % 2 ? 0 : (k == 4 ? OUT : H)};
    if (k % 2) s[0] = k == 5 ? OUT : H;
    params[k] = ct_from_array(k % 2 ? 1 : 2, s, CT_F32, k == 0 ? W1 : k == 1 ? B1 : k == 2 ? W2 : k == 3 ? B2 : k == 4 ? W3 : B3);
    if (!params[k]) die("params");
    ct_set_requires_grad(params[k], true);
    memcpy(P[k], ct_data_ptr(params[k]), sizeof(float) * (size_t)params[k]->numel);
  }
  printf("bench_blis: ctorch %s, backend %s, BLIS %s (%s), %d CPUs online, medians of %d repeats of ~%.0f ms;\n"
         "1-thread rows timed with thread CPU time (BENCH_CLOCK=wall for wall time), 2-thread rows with wall time\n", CT_VERSION_STRING,
         ct_backend_find("cpu_blis") ? ct_backend_find("cpu_blis")->version : "NOT REGISTERED", bli_info_get_version_str(),
         bli_info_get_enable_openmp() ? "OpenMP" : bli_info_get_enable_pthreads() ? "pthreads" : "serial",
         ct_get_num_threads(), reps, target_ms);
#ifndef CT_BENCH_NO_TORCH
  printf("libtorch: %s\n", torch_blis_info());
#else
  printf("libtorch: not built in (see bench/run.sh)\n");
#endif
  if (!*only || strstr(only, "gemm")) section_gemm();
  if (!*only || strstr(only, "cross")) section_crossover();
  if (!*only || strstr(only, "mlp")) section_mlp();
  if (!*only || strstr(only, "train")) section_train();
  if (!*only || strstr(only, "linear")) section_linear();
  if (!*only || strstr(only, "loops")) section_loops();
  if (!*only || strstr(only, "act")) section_act();
  if (!*only || strstr(only, "allocs")) section_allocs();
  if (!*only || strstr(only, "latency")) section_latency();
  return 0;
}
