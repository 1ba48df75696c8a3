/* bench/ggml_mlp.c - ggml's training step for the tiny MLP of bench/blis.c's
 * `linear` section (issue 17), so ctorch can be compared with ggml's
 * graph-based step on the same machine.
 *
 * The model: 32 -> 64 -> 64 -> 8, ReLU, f32, weights in nn.Linear's layout
 * ([out][in], which is ggml's mul_mat layout: ne0 = in, ne1 = out), bias per
 * layer, MSE loss (mean over batch * 8 outputs), backward, SGD lr 0.01 (no
 * momentum, no weight decay). Initial weights, inputs and targets are those
 * of bench/blis.c (the same fill() LCG and seeds, the [in][out] weights
 * transposed to [out][in]). Batches 1 and 64; ggml on 1 thread.
 *
 * What is timed (us per step, median of BENCH_REPEATS (default 7) repeats of
 * a batch of calls sized to ~BENCH_MS ms (default 20), each side calibrated
 * alone, then the repeats interleaved; thread CPU time, as bench/blis.c's
 * 1-thread rows; BENCH_CLOCK=wall for wall time):
 *   train  ggml_opt  ggml's training API (ggml-opt.h) as its MNIST example
 *                    uses it: static graphs (ctx_compute, inputs, outputs),
 *                    GGML_OPT_LOSS_TYPE_MEAN_SQUARED_ERROR,
 *                    GGML_OPT_OPTIMIZER_TYPE_SGD (alpha 0.01, wd 0), a CPU
 *                    backend in a ggml_backend_sched with 1 thread; per step
 *                    ggml_opt_alloc(ctx, true) + ggml_opt_eval(ctx, NULL)
 *                    (forward + backward + ggml_opt_step_sgd on each param)
 *   train  graph     the same step as one hand-built ggml graph in a CPU
 *                    context: mul_mat/add/relu, sub/sqr/sum/scale (MSE),
 *                    ggml_build_backward_expand, ggml_opt_step_sgd per
 *                    parameter; built once, ggml_graph_plan once (n_threads
 *                    1, ggml's default disposable threadpool), then
 *                    ggml_graph_compute per step: ggml's lowest-overhead path
 *   train  graph+tp  the same with a persistent 1-thread ggml_threadpool
 *   train  hand C    the plain-loop step of bench/blis.c (hand_linear_step),
 *                    same bits of code, as a reference in this process
 *   fwd    graph     forward graph only (no loss), ggml_graph_compute with a
 *                    prepared plan; graph+tp: persistent threadpool
 *   fwd    backend   the same graph through ggml_backend_graph_compute on a
 *                    1-thread CPU backend (plans each call)
 *   fwd    hand C    bench/blis.c's plain loops
 * Inputs are not re-copied per step (the same batch each step, as in
 * bench/blis.c). Before timing, each training path runs BENCH_CHECK_STEPS
 * (default 1000) steps from the initial weights and prints the loss of the
 * first and of the last step: all paths should agree with hand C to ~1e-6.
 *
 * Build: bench/run.sh does it when GGML_DIR is set (see there), or by hand:
 *   cc -std=c11 -O2 -Wall -Wextra -I$GGML_DIR/include bench/ggml_mlp.c \
 *      $GGML_BUILD/src/libggml.a $GGML_BUILD/src/libggml-cpu.a \
 *      $GGML_BUILD/src/libggml-base.a -lstdc++ -lm -lpthread [-fopenmp]
 * where GGML_DIR is a ggml checkout (github.com/ggml-org/ggml) and
 * GGML_BUILD (default $GGML_DIR/build) its CMake build:
 *   cmake -S $GGML_DIR -B $GGML_BUILD -DCMAKE_BUILD_TYPE=Release \
 *     -DBUILD_SHARED_LIBS=OFF -DGGML_NATIVE=ON -DGGML_OPENMP=OFF \
 *     -DGGML_BUILD_TESTS=OFF -DGGML_BUILD_EXAMPLES=OFF
 *   cmake --build $GGML_BUILD -j2
 * Run: ./build/bench_ggml_mlp
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ggml-alloc.h"
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml-opt.h"
#include "ggml.h"

enum { IN = 32, H = 64, OUT = 8, MAXB = 64 };
static const float LR = 0.01f;

/* ---- timing, as bench/blis.c ---- */
static int cpu_clock = 1;
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
typedef double (*run_fn)(void *ctx, long calls); /* ns for `calls` calls */

/* each calibrated alone, then the repeats interleaved; medians, min, max of ns per call */
static void bench_interleaved(int n, run_fn *f, void **ctx, double *med, double *lo, double *hi) {
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
    med[i] = v[i][r / 2], lo[i] = v[i][0], hi[i] = v[i][r - 1];
  }
}

static void die(const char *what) {
  fprintf(stderr, "bench_ggml_mlp: %s failed\n", what);
  exit(1);
}

/* ---- the data of bench/blis.c ---- */
static void fill(float *p, int64_t n, unsigned seed) {
  int64_t i;
  for (i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 0.5f;
  }
}
static const int ins[3] = {IN, H, H}, outs[3] = {H, H, OUT};
static float W0[3][H * H], B0[3][H]; /* initial weights [out][in] and biases */
static float X[MAXB * IN], Y[MAXB * OUT];
static void data_init(void) {
  static float W1[IN * H], B1[H], W2[H * H], B2[H], W3[H * OUT], B3[OUT];
  const float *w[3] = {W1, W2, W3}, *b[3] = {B1, B2, B3};
  int k, o, i;
  fill(W1, IN * H, 11), fill(B1, H, 12), fill(W2, H * H, 13), fill(B2, H, 14), fill(W3, H * OUT, 15), fill(B3, OUT, 16);
  fill(X, MAXB * IN, 17), fill(Y, MAXB * OUT, 18);
  for (k = 0; k < 3; k++)
    for (o = 0; o < outs[k]; o++) {
      for (i = 0; i < ins[k]; i++) W0[k][o * ins[k] + i] = w[k][i * outs[k] + o]; /* [in][out] -> [out][in] */
      B0[k][o] = b[k][o];
    }
}

/* ---- hand-written C: bench/blis.c's plain loops (reference and floor) ---- */
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
      float part[8] = {0, 0, 0, 0, 0, 0, 0, 0}, acc;
      int j;
      for (i = 0; i + 8 <= in; i += 8)
        for (j = 0; j < 8; j++) part[j] += xr[i + j] * wo[i + j];
      acc = b[o] + (((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7])));
      for (; i < in; i++) acc += xr[i] * wo[i];
      y[r * out + o] = relu && acc < 0 ? 0 : acc;
    }
}
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
static float hand_step(int batch) { /* returns the loss before the update */
  float scale = 2.0f / (float)(batch * OUT), loss = 0;
  int k, j;
  lin_forward(batch, X, IN, LW[0], LB[0], H, LA1, 1);
  lin_forward(batch, LA1, H, LW[1], LB[1], H, LA2, 1);
  lin_forward(batch, LA2, H, LW[2], LB[2], OUT, LO, 0);
  for (j = 0; j < batch * OUT; j++) {
    float e = LO[j] - Y[j];
    loss += e * e;
    LD3[j] = e * scale;
  }
  lin_backward(batch, LD3, OUT, LA2, H, LW[2], LGW[2], LGB[2], LD2);
  lin_backward(batch, LD2, H, LA1, H, LW[1], LGW[1], LGB[1], LD1);
  lin_backward(batch, LD1, H, X, IN, LW[0], LGW[0], LGB[0], NULL);
  for (k = 0; k < 3; k++) {
    for (j = 0; j < outs[k] * ins[k]; j++) LW[k][j] -= LR * LGW[k][j];
    for (j = 0; j < outs[k]; j++) LB[k][j] -= LR * LGB[k][j];
  }
  return loss / (float)(batch * OUT);
}
static void hand_reset(void) {
  memcpy(LW, W0, sizeof LW);
  memcpy(LB, B0, sizeof LB);
}

/* ---- ggml: the model on parameters p[6] (w1 b1 w2 b2 w3 b3) and input x ---- */
static struct ggml_tensor *mlp(struct ggml_context *ctx, struct ggml_tensor **p, struct ggml_tensor *x) {
  struct ggml_tensor *h = ggml_relu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, p[0], x), p[1]));
  h = ggml_relu(ctx, ggml_add(ctx, ggml_mul_mat(ctx, p[2], h), p[3]));
  return ggml_add(ctx, ggml_mul_mat(ctx, p[4], h), p[5]);
}

/* a hand-built graph in a CPU context (all tensors allocated in the context) */
typedef struct {
  int batch;
  struct ggml_context *ctx;
  struct ggml_tensor *p[6], *x, *y, *out, *loss;
  struct ggml_cgraph *gtrain, *gfwd;
  struct ggml_cplan ptrain, pfwd, ptrain_tp, pfwd_tp;
  ggml_backend_t backend; /* CPU backend for the backend-forward row */
} gg_graph;
static struct ggml_threadpool *tp1; /* persistent 1-thread pool */

static void params_reset(struct ggml_tensor **p) {
  int k;
  for (k = 0; k < 3; k++) {
    memcpy(p[2 * k]->data, W0[k], sizeof(float) * (size_t)(ins[k] * outs[k]));
    memcpy(p[2 * k + 1]->data, B0[k], sizeof(float) * (size_t)outs[k]);
  }
}
static void plan(struct ggml_cgraph *g, struct ggml_cplan *pl, struct ggml_threadpool *tp) {
  *pl = ggml_graph_plan(g, 1, tp);
  pl->work_data = pl->work_size ? malloc(pl->work_size) : NULL;
  if (pl->work_size && !pl->work_data) die("malloc");
}
static void graph_init(gg_graph *g, int batch) {
  struct ggml_init_params ip = {16u << 20, NULL, false};
  struct ggml_tensor *sgd;
  int k;
  g->batch = batch;
  if (!(g->ctx = ggml_init(ip))) die("ggml_init");
  for (k = 0; k < 3; k++) {
    g->p[2 * k] = ggml_new_tensor_2d(g->ctx, GGML_TYPE_F32, ins[k], outs[k]);
    g->p[2 * k + 1] = ggml_new_tensor_1d(g->ctx, GGML_TYPE_F32, outs[k]);
  }
  for (k = 0; k < 6; k++) ggml_set_param(g->p[k]);
  params_reset(g->p);
  g->x = ggml_new_tensor_2d(g->ctx, GGML_TYPE_F32, IN, batch);
  g->y = ggml_new_tensor_2d(g->ctx, GGML_TYPE_F32, OUT, batch);
  memcpy(g->x->data, X, sizeof(float) * (size_t)(IN * batch));
  memcpy(g->y->data, Y, sizeof(float) * (size_t)(OUT * batch));
  g->out = mlp(g->ctx, g->p, g->x);
  /* MSE, mean: as ggml-opt builds GGML_OPT_LOSS_TYPE_MEAN_SQUARED_ERROR */
  g->loss = ggml_scale(g->ctx, ggml_sum(g->ctx, ggml_sqr(g->ctx, ggml_sub(g->ctx, g->out, g->y))), 1.0f / (float)(batch * OUT));
  ggml_set_loss(g->loss);
  g->gfwd = ggml_new_graph(g->ctx);
  ggml_build_forward_expand(g->gfwd, g->out);
  g->gtrain = ggml_new_graph_custom(g->ctx, GGML_DEFAULT_GRAPH_SIZE, true);
  ggml_build_forward_expand(g->gtrain, g->loss);
  ggml_build_backward_expand(g->ctx, g->gtrain, NULL);
  sgd = ggml_new_tensor_1d(g->ctx, GGML_TYPE_F32, 2);
  ((float *)sgd->data)[0] = LR, ((float *)sgd->data)[1] = 0.0f; /* alpha, weight decay */
  for (k = 5; k >= 0; k--) {
    struct ggml_tensor *gr = ggml_graph_get_grad(g->gtrain, g->p[k]);
    if (!gr) die("gradient of a parameter");
    ggml_build_forward_expand(g->gtrain, ggml_opt_step_sgd(g->ctx, g->p[k], gr, sgd));
  }
  ggml_graph_reset(g->gtrain); /* d loss / d loss = 1 */
  plan(g->gtrain, &g->ptrain, NULL);
  plan(g->gfwd, &g->pfwd, NULL);
  plan(g->gtrain, &g->ptrain_tp, tp1);
  plan(g->gfwd, &g->pfwd_tp, tp1);
  if (!(g->backend = ggml_backend_cpu_init())) die("ggml_backend_cpu_init");
  ggml_backend_cpu_set_n_threads(g->backend, 1);
}

/* ggml-opt.h: the training API */
typedef struct {
  int batch;
  ggml_backend_t backend;
  ggml_backend_sched_t sched;
  struct ggml_context *ctx_static, *ctx_compute;
  ggml_backend_buffer_t buf;
  struct ggml_tensor *p[6], *x, *out;
  struct ggml_opt_optimizer_params opars;
  ggml_opt_context_t opt;
} gg_opt;
static void opt_params_reset(gg_opt *o) {
  int k;
  for (k = 0; k < 3; k++) {
    ggml_backend_tensor_set(o->p[2 * k], W0[k], 0, sizeof(float) * (size_t)(ins[k] * outs[k]));
    ggml_backend_tensor_set(o->p[2 * k + 1], B0[k], 0, sizeof(float) * (size_t)outs[k]);
  }
}
static void opt_init(gg_opt *o, int batch) {
  struct ggml_init_params ps = {16 * ggml_tensor_overhead(), NULL, true};
  struct ggml_init_params pc = {GGML_DEFAULT_GRAPH_SIZE * ggml_tensor_overhead() + 3 * ggml_graph_overhead(), NULL, true};
  struct ggml_opt_params op;
  int k;
  o->batch = batch;
  if (!(o->backend = ggml_backend_cpu_init())) die("ggml_backend_cpu_init");
  ggml_backend_cpu_set_n_threads(o->backend, 1);
  if (!(o->sched = ggml_backend_sched_new(&o->backend, NULL, 1, GGML_DEFAULT_GRAPH_SIZE, false, true))) die("sched");
  if (!(o->ctx_static = ggml_init(ps)) || !(o->ctx_compute = ggml_init(pc))) die("ggml_init");
  for (k = 0; k < 3; k++) {
    o->p[2 * k] = ggml_new_tensor_2d(o->ctx_static, GGML_TYPE_F32, ins[k], outs[k]);
    o->p[2 * k + 1] = ggml_new_tensor_1d(o->ctx_static, GGML_TYPE_F32, outs[k]);
  }
  for (k = 0; k < 6; k++) ggml_set_param(o->p[k]);
  o->x = ggml_new_tensor_2d(o->ctx_static, GGML_TYPE_F32, IN, batch);
  ggml_set_name(o->x, "inputs");
  o->out = mlp(o->ctx_compute, o->p, o->x);
  ggml_set_name(o->out, "outputs");
  if (!(o->buf = ggml_backend_alloc_ctx_tensors(o->ctx_static, o->backend))) die("alloc params");
  opt_params_reset(o);
  ggml_backend_tensor_set(o->x, X, 0, sizeof(float) * (size_t)(IN * batch));
  op = ggml_opt_default_params(o->sched, GGML_OPT_LOSS_TYPE_MEAN_SQUARED_ERROR);
  op.ctx_compute = o->ctx_compute, op.inputs = o->x, op.outputs = o->out;
  op.optimizer = GGML_OPT_OPTIMIZER_TYPE_SGD;
  memset(&o->opars, 0, sizeof o->opars);
  o->opars.sgd.alpha = LR, o->opars.sgd.wd = 0.0f;
  op.get_opt_pars = ggml_opt_get_constant_optimizer_params, op.get_opt_pars_ud = &o->opars;
  if (!(o->opt = ggml_opt_init(op))) die("ggml_opt_init");
  ggml_backend_tensor_set(ggml_opt_labels(o->opt), Y, 0, sizeof(float) * (size_t)(OUT * batch));
}

static gg_graph G[2];
static gg_opt O[2];

/* ---- timed bodies ---- */
static void opt_step(gg_opt *o) {
  ggml_opt_alloc(o->opt, true);
  ggml_opt_eval(o->opt, NULL);
}
static float opt_loss(gg_opt *o) {
  float l;
  ggml_backend_tensor_get(ggml_opt_loss(o->opt), &l, 0, sizeof l);
  return l;
}
static double run_opt_train(void *c, long calls) {
  gg_opt *o = c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) opt_step(o);
  return now_ns() - t0;
}
static void compute(struct ggml_cgraph *g, struct ggml_cplan *pl) {
  if (ggml_graph_compute(g, pl) != GGML_STATUS_SUCCESS) die("ggml_graph_compute");
}
static double run_graph_train(void *c, long calls) {
  gg_graph *g = c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) compute(g->gtrain, &g->ptrain);
  return now_ns() - t0;
}
static double run_graph_train_tp(void *c, long calls) {
  gg_graph *g = c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) compute(g->gtrain, &g->ptrain_tp);
  return now_ns() - t0;
}
static double run_graph_fwd(void *c, long calls) {
  gg_graph *g = c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) compute(g->gfwd, &g->pfwd);
  return now_ns() - t0;
}
static double run_graph_fwd_tp(void *c, long calls) {
  gg_graph *g = c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) compute(g->gfwd, &g->pfwd_tp);
  return now_ns() - t0;
}
static double run_backend_fwd(void *c, long calls) {
  gg_graph *g = c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++)
    if (ggml_backend_graph_compute(g->backend, g->gfwd) != GGML_STATUS_SUCCESS) die("ggml_backend_graph_compute");
  return now_ns() - t0;
}
static double run_hand_train(void *c, long calls) {
  int batch = *(int *)c;
  long i;
  double t0 = now_ns();
  for (i = 0; i < calls; i++) {
    hand_step(batch);
    __asm__ __volatile__("" ::: "memory");
  }
  return now_ns() - t0;
}
static double run_hand_fwd(void *c, long calls) {
  int batch = *(int *)c;
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

/* ---- correctness: N steps from the initial weights on every path ---- */
static void check(int bi, long nsteps) {
  int batch = bi ? MAXB : 1;
  float hf = 0, hl = 0, of = 0, ol = 0, gf = 0, gl = 0, tf = 0, tl = 0, ff, fh;
  double osum = 0, gsum = 0, tsum = 0, hsum = 0;
  long s;
  int j;
  hand_reset();
  for (s = 0; s < nsteps; s++) {
    hl = hand_step(batch);
    hsum += hl;
    if (!s) hf = hl;
  }
  opt_params_reset(&O[bi]);
  for (s = 0; s < nsteps; s++) {
    opt_step(&O[bi]);
    ol = opt_loss(&O[bi]);
    osum += ol;
    if (!s) of = ol;
  }
  params_reset(G[bi].p);
  for (s = 0; s < nsteps; s++) {
    compute(G[bi].gtrain, &G[bi].ptrain);
    gl = ggml_get_f32_1d(G[bi].loss, 0);
    gsum += gl;
    if (!s) gf = gl;
  }
  params_reset(G[bi].p);
  for (s = 0; s < nsteps; s++) {
    compute(G[bi].gtrain, &G[bi].ptrain_tp);
    tl = ggml_get_f32_1d(G[bi].loss, 0);
    tsum += tl;
    if (!s) tf = tl;
  }
  /* forward after training: ggml's output vs hand C's, from the same trained weights (hand C's) */
  params_reset(G[bi].p);
  for (j = 0; j < 3; j++) {
    memcpy(G[bi].p[2 * j]->data, LW[j], sizeof(float) * (size_t)(ins[j] * outs[j]));
    memcpy(G[bi].p[2 * j + 1]->data, LB[j], sizeof(float) * (size_t)outs[j]);
  }
  compute(G[bi].gfwd, &G[bi].pfwd);
  lin_forward(batch, X, IN, LW[0], LB[0], H, LA1, 1);
  lin_forward(batch, LA1, H, LW[1], LB[1], H, LA2, 1);
  lin_forward(batch, LA2, H, LW[2], LB[2], OUT, LO, 0);
  ff = 0, fh = 0;
  for (j = 0; j < batch * OUT; j++) {
    float d = fabsf(((float *)G[bi].out->data)[j] - LO[j]);
    ff = d > ff ? d : ff;
    fh = fabsf(LO[j]) > fh ? fabsf(LO[j]) : fh;
  }
  printf("check batch %-2d %ld steps: loss first / last / sum over steps\n", batch, nsteps);
  printf("  hand C    %.7f / %.7f / %.6f\n", hf, hl, hsum);
  printf("  ggml_opt  %.7f / %.7f / %.6f\n", of, ol, osum);
  printf("  graph     %.7f / %.7f / %.6f\n", gf, gl, gsum);
  printf("  graph+tp  %.7f / %.7f / %.6f\n", tf, tl, tsum);
  printf("  forward from the trained weights: max |ggml - hand C| %.2g (max |out| %.3g)\n", ff, fh);
  if (fabs(osum - hsum) > 1e-3 * fabs(hsum) + 1e-6 || fabs(gsum - hsum) > 1e-3 * fabs(hsum) + 1e-6 ||
      fabs(tsum - hsum) > 1e-3 * fabs(hsum) + 1e-6 || ff > 1e-3f * (fh + 1e-3f))
    die("agreement of ggml with hand C");
  /* leave every path at the initial weights */
  hand_reset();
  opt_params_reset(&O[bi]);
  params_reset(G[bi].p);
}

int main(void) {
  const char *e;
  long nsteps = 1000;
  int bi;
  if ((e = getenv("BENCH_REPEATS"))) reps = atoi(e);
  if ((e = getenv("BENCH_MS"))) target_ms = atof(e);
  if ((e = getenv("BENCH_CHECK_STEPS"))) nsteps = atol(e);
  if ((e = getenv("BENCH_CLOCK")) && !strcmp(e, "wall")) cpu_clock = 0;
  if (reps < 1) reps = 1;
  if (reps > 64) reps = 64;
  if (nsteps < 1) nsteps = 1;
  ggml_log_set(NULL, NULL);
  data_init();
  {
    struct ggml_threadpool_params tpp = ggml_threadpool_params_default(1);
    if (!(tp1 = ggml_threadpool_new(&tpp))) die("ggml_threadpool_new");
  }
  for (bi = 0; bi < 2; bi++) {
    graph_init(&G[bi], bi ? MAXB : 1);
    opt_init(&O[bi], bi ? MAXB : 1);
  }
  printf("bench_ggml_mlp: ggml %s, CPU backend, 1 thread; MLP 32-64-64-8 ReLU f32, MSE (mean), SGD lr %.2g;\n"
         "hand-built graphs: %d nodes per training step, %d per forward; medians of %d interleaved repeats\n"
         "of ~%.0f ms, %s; us per step [min-max]\n",
         ggml_version(), LR, ggml_graph_n_nodes(G[0].gtrain), ggml_graph_n_nodes(G[0].gfwd), reps, target_ms,
         cpu_clock ? "thread CPU time" : "wall time");
  for (bi = 0; bi < 2; bi++) check(bi, nsteps);
  printf("%-6s %-6s %22s %22s %22s %22s\n", "train", "batch", "ggml_opt", "graph", "graph+tp", "hand C");
  for (bi = 0; bi < 2; bi++) {
    int b = bi ? MAXB : 1, i;
    run_fn f[4] = {run_opt_train, run_graph_train, run_graph_train_tp, run_hand_train};
    void *c[4] = {&O[bi], &G[bi], &G[bi], &b};
    double m[4], lo[4], hi[4];
    bench_interleaved(4, f, c, m, lo, hi);
    printf("%-6s %-6d", "train", b);
    for (i = 0; i < 4; i++) printf(" %8.2f [%5.2f-%5.2f]", m[i] / 1e3, lo[i] / 1e3, hi[i] / 1e3);
    printf("\n");
  }
  printf("%-6s %-6s %22s %22s %22s %22s\n", "fwd", "batch", "backend", "graph", "graph+tp", "hand C");
  for (bi = 0; bi < 2; bi++) {
    int b = bi ? MAXB : 1, i;
    run_fn f[4] = {run_backend_fwd, run_graph_fwd, run_graph_fwd_tp, run_hand_fwd};
    void *c[4] = {&G[bi], &G[bi], &G[bi], &b};
    double m[4], lo[4], hi[4];
    bench_interleaved(4, f, c, m, lo, hi);
    printf("%-6s %-6d", "fwd", b);
    for (i = 0; i < 4; i++) printf(" %8.2f [%5.2f-%5.2f]", m[i] / 1e3, lo[i] / 1e3, hi[i] / 1e3);
    printf("\n");
  }
  /* a checksum of the state after all the timed steps (weights drift as they train) */
  {
    double s = 0;
    int k, j;
    for (k = 0; k < 6; k++)
      for (j = 0; j < (int)ggml_nelements(G[0].p[k]); j++) s += ((float *)G[0].p[k]->data)[j];
    printf("(sum of the batch-1 graph's weights after timing: %.6f)\n", s);
  }
  for (bi = 0; bi < 2; bi++) {
    ggml_opt_free(O[bi].opt);
    ggml_backend_buffer_free(O[bi].buf);
    ggml_backend_sched_free(O[bi].sched);
    ggml_backend_free(O[bi].backend);
    ggml_free(O[bi].ctx_static);
    ggml_free(O[bi].ctx_compute);
    ggml_backend_free(G[bi].backend);
    free(G[bi].ptrain.work_data), free(G[bi].pfwd.work_data), free(G[bi].ptrain_tp.work_data), free(G[bi].pfwd_tp.work_data);
    ggml_free(G[bi].ctx);
  }
  ggml_threadpool_free(tp1);
  return 0;
}
