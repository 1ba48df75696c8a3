/* bench/models.c - a small CNN and a transformer encoder block: ctorch (with
 * the BLIS backend) vs libtorch (bench/models_torch.cpp, linked in the same
 * program) vs hand-written C, forward (no grad) and one training step, batch
 * 1 and 32, f32, 1 thread. `BENCH_NAMES=models make bench` builds and runs it.
 *
 *   cnn  [B,3,32,32] -> conv3x3 3->16 (padding 1) + ReLU -> max_pool 2x2 ->
 *        conv3x3 16->32 (padding 1) + ReLU -> max_pool 2x2 -> flatten ->
 *        linear 2048 -> 10. Training: cross-entropy, backward, SGD lr 0.01
 *        (zero_grad, forward, backward, step).
 *   tf   nn.TransformerEncoderLayer(d_model 64, nhead 4, dim_feedforward 128
 *        (not PyTorch's default 2048), dropout 0, relu, post-norm,
 *        batch_first) on [B, 32, 64]. Forward in eval mode under no-grad;
 *        training: MSE against a fixed target, backward, SGD lr 0.01.
 *        libtorch is timed two ways for the forward: the module's ops as
 *        PyTorch 1.13 runs them (what a C++ user writes, and what Python runs
 *        in training), and at::_transformer_encoder_layer_fwd, the fused
 *        kernel Python's module takes for an eval forward under no_grad.
 *   ops  single ops at the models' shapes, no grad: ctorch vs libtorch.
 *
 * Both sides start from ctorch's initial weights (copied into libtorch) and
 * the same data; checksums (sum |y| for forwards; loss + sum |grad| after
 * the first training step) are printed side by side before timing. The
 * hand-written C floors (direct loops the compiler vectorises, -O3 with an
 * x86-64-v3 clone) exist for the CNN forward, the CNN training step and the
 * transformer forward; the transformer training step has none.
 *
 * Every figure is the median over BENCH_REPEATS (default 9) interleaved
 * repeats (each repeat times every column in turn) of a batch of calls sized
 * to take about BENCH_MS ms (default 20), in thread CPU time (BENCH_CLOCK=wall
 * for wall time). Sections (argument, comma-separated; default all):
 *   cnn, tf, ops; and opprof (not by default): ctorch's per-op self times for each case
 *   (a dispatcher hook as examples/profile.c)
 * Profiling one side alone: ./build/bench_models prof SIDE CASE BATCH SECONDS
 *   SIDE ct | torch | hand, CASE cnn_fwd | cnn_train | tf_fwd | tf_train
 *   (e.g. perf record -g ./build/bench_models prof ct cnn_train 32 5).
 */
#define _POSIX_C_SOURCE 200809L
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backends/cpu_blis/ctorch_blis.h"

#ifndef CT_BENCH_NO_TORCH
extern void torch_models_setup(int threads, int cpu_clock);
extern const char *torch_models_version(void);
extern void torch_cnn_init(const float *const *p, const float *x, const int64_t *labels, int maxb);
extern double torch_cnn_forward(int batch, long calls, double *checksum);
extern double torch_cnn_train(int batch, long calls, double *checksum);
extern void torch_tf_init(const float *const *p, int64_t E, int64_t H, int64_t F, int64_t L, const float *x, const float *y, int maxb);
extern double torch_tf_forward(int batch, int fast, long calls, double *checksum);
extern double torch_tf_train(int batch, long calls, double *checksum);
extern double torch_op(int which, int batch, long calls);
#endif

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
static int reps = 9;
static double target_ms = 20;
/* returns ns for `calls` calls; checksum (may be NULL) of the last result */
typedef double (*run_fn)(int batch, long calls, double *checksum);

/* median ns per call of each of n functions, repeats interleaved; lo/hi: min and max */
static void bench_n(int n, run_fn *f, int batch, double *med, double *lo, double *hi) {
  long calls[8];
  double v[8][64];
  int i, r;
  for (i = 0; i < n; i++) {
    double t;
    long c = 1;
    if (!f[i]) continue;
    f[i](batch, 1, NULL); /* warm-up */
    for (;;) {
      t = f[i](batch, c, NULL);
      if (t > target_ms * 1e6 / 4 || c > (1L << 26)) break;
      c *= 4;
    }
    c = (long)(c * (target_ms * 1e6 / (t > 1 ? t : 1)));
    calls[i] = c < 1 ? 1 : c;
  }
  for (r = 0; r < reps && r < 64; r++)
    for (i = 0; i < n; i++)
      if (f[i]) v[i][r] = f[i](batch, calls[i], NULL) / (double)calls[i];
  for (i = 0; i < n; i++) {
    med[i] = lo[i] = hi[i] = NAN;
    if (!f[i]) continue;
    qsort(v[i], (size_t)r, sizeof v[i][0], cmp_double);
    med[i] = v[i][r / 2], lo[i] = v[i][0], hi[i] = v[i][r - 1];
  }
}

static void die(const char *what) {
  fprintf(stderr, "bench_models: %s failed: %s\n", what, ct_last_error_message());
  exit(1);
}
static void fill(float *p, int64_t n, unsigned seed, float scale) {
  int64_t i;
  for (i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = ((float)(seed >> 8) / 16777216.0f - 0.5f) * 2 * scale;
  }
}
static double abs_sum_f(const float *p, int64_t n) {
  double s = 0;
  int64_t i;
  for (i = 0; i < n; i++) s += fabs((double)p[i]);
  return s;
}
static double abs_sum(ct_tensor *t) {
  double s = 0;
  CT_SCOPE { /* (its own scope: inside one, a ct_release of the result would release it twice) */
    ct_tensor *c = ct_contiguous(t);
    if (!c) die("contiguous");
    s = abs_sum_f((const float *)ct_data_ptr(c), c->numel);
  }
  return s;
}
static ct_tensor *from(int ndim, const int64_t *sizes, const float *data) {
  ct_tensor *t = ct_from_array(ndim, sizes, CT_F32, data);
  if (!t) die("ct_from_array");
  return t;
}
static volatile float sinkf;

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define CLONES
#endif

/* =================================== CNN =================================== */
enum { MAXB = 32, C1 = 16, C2 = 32, NCLS = 10, FCIN = C2 * 8 * 8 };
static float cnn_x[MAXB * 3 * 32 * 32];
static int64_t cnn_lab[MAXB];
static ct_module *cnn_c1, *cnn_c2, *cnn_fc;
static ct_tensor *cnn_tx[2], *cnn_ty[2];
static ct_optim *cnn_opt;

static ct_tensor *ct_cnn_forward(ct_tensor *x) {
  static const int64_t k2[2] = {2, 2}, z[2] = {0, 0}, one[2] = {1, 1};
  ct_tensor *h = ct_relu(ct_module_forward(cnn_c1, x));
  h = ct_max_pool2d(h, 2, k2, 2, k2, 2, z, 2, one, false);
  h = ct_relu(ct_module_forward(cnn_c2, h));
  h = ct_max_pool2d(h, 2, k2, 2, k2, 2, z, 2, one, false);
  return ct_module_forward(cnn_fc, ct_flatten(h, 1, -1));
}
static double ct_grad_checksum(ct_module *m) {
  int n, i;
  ct_tensor *const *p = ct_module_parameters(m, &n);
  double s = 0;
  for (i = 0; i < n; i++) s += ct_grad(p[i]) ? abs_sum(ct_grad(p[i])) : 0;
  return s;
}
static ct_module *cnn_net; /* a container for the three modules (parameters, zero_grad) */
static double run_ct_cnn_forward(int batch, long calls, double *checksum) {
  ct_tensor *x = cnn_tx[batch == 1 ? 0 : 1];
  long i;
  double t0 = now_ns(), t;
  CT_NO_GRAD {
    for (i = 0; i < calls; i++) {
      CT_SCOPE {
        ct_tensor *y = ct_cnn_forward(x);
        if (!y) die("cnn forward");
        if (checksum && i == calls - 1) {
          t = now_ns();
          *checksum = abs_sum(y);
          t0 += now_ns() - t;
        }
      }
    }
  }
  return now_ns() - t0;
}
static double run_ct_cnn_train(int batch, long calls, double *checksum) {
  int k = batch == 1 ? 0 : 1;
  long i;
  double t0 = now_ns(), loss = 0;
  for (i = 0; i < calls; i++) {
    CT_SCOPE {
      ct_tensor *l;
      ct_optim_zero_grad(cnn_opt);
      l = ct_cross_entropy(ct_cnn_forward(cnn_tx[k]), cnn_ty[k], NULL, 1, -100, 0);
      if (!l || ct_backward(l) != CT_OK || ct_optim_step(cnn_opt) != CT_OK) die("cnn train step");
      if (checksum && i == calls - 1) ct_item(l, &loss);
    }
  }
  t0 = now_ns() - t0;
  if (checksum) *checksum = loss + ct_grad_checksum(cnn_net);
  return t0;
}

/* ---- hand-written C: direct convolutions on a zero-padded copy ---- */
static float hc_w1[C1 * 3 * 9], hc_b1[C1], hc_w2[C2 * C1 * 9], hc_b2[C2], hc_w3[NCLS * FCIN], hc_b3[NCLS];
static float hc_pad1[MAXB][3 * 34 * 34], hc_a1[MAXB][C1 * 32 * 32]; /* conv1 + relu */
static float hc_pad2[MAXB][C1 * 18 * 18], hc_a2[MAXB][C2 * 16 * 16]; /* pool1 (padded), conv2 + relu */
static float hc_p2[MAXB][FCIN], hc_out[MAXB * NCLS];
/* out[o][y][x] = relu(b[o] + sum_c,ky,kx w[o][c][ky][kx] pad[c][y+ky][x+kx]); pad is (C, H+2, W+2).
 * One output row at a time, W a constant, the row's accumulators in vector registers (GCC's vector
 * extension: left to itself, GCC vectorised the tap loops instead and did worse). */
typedef float hc_v8 __attribute__((vector_size(32)));
typedef float hc_v8u __attribute__((vector_size(32), aligned(4)));
#define HC_CONV3X3(NAME, C, H, W, RELU)                                                                         \
  CLONES static void NAME(const float *restrict pad, int O, const float *restrict w, const float *restrict b,  \
                          float *restrict out) {                                                               \
    int o, c, ky, kx, y, x;                                                                                    \
    for (o = 0; o < O; o++)                                                                                    \
      for (y = 0; y < (H); y++) {                                                                              \
        hc_v8 acc[(W) / 8];                                                                                    \
        float *restrict orow = out + ((size_t)o * (H) + y) * (W);                                              \
        for (x = 0; x < (W) / 8; x++) acc[x] = (hc_v8){0, 0, 0, 0, 0, 0, 0, 0} + (b ? b[o] : 0);              \
        for (c = 0; c < (C); c++)                                                                              \
          for (ky = 0; ky < 3; ky++)                                                                           \
            for (kx = 0; kx < 3; kx++) {                                                                       \
              const float wv = w[((o * (C) + c) * 3 + ky) * 3 + kx];                                           \
              const float *restrict src = pad + ((size_t)c * ((H) + 2) + y + ky) * ((W) + 2) + kx;             \
              for (x = 0; x < (W) / 8; x++) acc[x] += wv * *(const hc_v8u *)(src + 8 * x);                    \
            }                                                                                                  \
        for (x = 0; x < (W) / 8; x++) *(hc_v8u *)(orow + 8 * x) = acc[x];                                      \
        if (RELU)                                                                                              \
          for (x = 0; x < (W); x++) orow[x] = orow[x] > 0 ? orow[x] : 0;                                       \
      }                                                                                                        \
  }
HC_CONV3X3(hc_conv1_relu, 3, 32, 32, 1)
HC_CONV3X3(hc_conv2_relu, C1, 16, 16, 1)
/* conv2's input gradient: the same loops over the zero-padded output gradient, weights flipped and transposed */
HC_CONV3X3(hc_conv2_dx, C2, 16, 16, 0)
/* 2x2 max pool of (C, H, W) into (C, H/2, W/2) placed at offset `off` in rows of `ostride` (padding) */
CLONES static void hc_pool(int C, int H, int W, const float *restrict in, float *restrict out, int ostride, int oplane, int off) {
  int c, y, x;
  for (c = 0; c < C; c++)
    for (y = 0; y < H / 2; y++)
      for (x = 0; x < W / 2; x++) {
        const float *p = in + ((size_t)c * H + 2 * y) * W + 2 * x;
        float m = p[0] > p[1] ? p[0] : p[1], n = p[W] > p[W + 1] ? p[W] : p[W + 1];
        out[(size_t)c * oplane + off + y * ostride + x] = m > n ? m : n;
      }
}
CLONES static float hc_dot(const float *restrict a, const float *restrict b, int n) {
  float acc[16] = {0}, s = 0;
  int i, k;
  for (i = 0; i + 16 <= n; i += 16)
    for (k = 0; k < 16; k++) acc[k] += a[i + k] * b[i + k];
  for (; i < n; i++) s += a[i] * b[i];
  for (k = 0; k < 16; k++) s += acc[k];
  return s;
}
static void hc_pad_input(int n) {
  int c, y;
  memset(hc_pad1[n], 0, sizeof hc_pad1[n]);
  for (c = 0; c < 3; c++)
    for (y = 0; y < 32; y++) memcpy(&hc_pad1[n][c * 34 * 34 + (y + 1) * 34 + 1], &cnn_x[((size_t)n * 3 + c) * 1024 + y * 32], 32 * sizeof(float));
}
static void hc_cnn_forward(int batch) {
  int n, j;
  for (n = 0; n < batch; n++) {
    hc_pad_input(n);
    hc_conv1_relu(hc_pad1[n], C1, hc_w1, hc_b1, hc_a1[n]);
    memset(hc_pad2[n], 0, sizeof hc_pad2[n]);
    hc_pool(C1, 32, 32, hc_a1[n], hc_pad2[n], 18, 18 * 18, 18 + 1);
    hc_conv2_relu(hc_pad2[n], C2, hc_w2, hc_b2, hc_a2[n]);
    hc_pool(C2, 16, 16, hc_a2[n], hc_p2[n], 8, 64, 0);
    for (j = 0; j < NCLS; j++) hc_out[n * NCLS + j] = hc_b3[j] + hc_dot(hc_p2[n], hc_w3 + (size_t)j * FCIN, FCIN);
  }
}
static double run_hc_cnn_forward(int batch, long calls, double *checksum) {
  long i;
  double t0 = now_ns(), t;
  for (i = 0; i < calls; i++) {
    hc_cnn_forward(batch);
    __asm__ __volatile__("" ::: "memory");
  }
  t = now_ns() - t0;
  if (checksum) *checksum = abs_sum_f(hc_out, (int64_t)batch * NCLS);
  return t;
}

/* hand-written training step: forward as above, cross-entropy, backward by hand, SGD */
static float hc_gw1[C1 * 3 * 9], hc_gb1[C1], hc_gw2[C2 * C1 * 9], hc_gb2[C2], hc_gw3[NCLS * FCIN], hc_gb3[NCLS];
static float hc_dp2[MAXB][FCIN], hc_da2[C2 * 16 * 16], hc_dpad2[C2 * 18 * 18], hc_dx2[C1 * 16 * 16], hc_da1[C1 * 32 * 32];
static float hc_w2t[C1 * C2 * 9]; /* w2 flipped and transposed: [c][o][2-ky][2-kx] = w2[o][c][ky][kx] */
/* gradient of a 2x2 max pool: route d (C, H/2, W/2 read at in_off / in_stride) to the argmax of each window of a
 * (C, H, W); the window's relu is folded in (a zero activation passes no gradient) */
CLONES static void hc_pool_back(int C, int H, int W, const float *restrict a, const float *restrict d, int dstride, int dplane,
                                int doff, float *restrict da) {
  int c, y, x;
  memset(da, 0, sizeof(float) * (size_t)C * H * W);
  for (c = 0; c < C; c++)
    for (y = 0; y < H / 2; y++)
      for (x = 0; x < W / 2; x++) {
        size_t i0 = ((size_t)c * H + 2 * y) * W + 2 * x, best = i0, cand[3] = {i0 + 1, i0 + W, i0 + W + 1};
        int k;
        for (k = 0; k < 3; k++)
          if (a[cand[k]] > a[best]) best = cand[k];
        if (a[best] > 0) da[best] = d[(size_t)c * dplane + doff + y * dstride + x];
      }
}
/* dW[o][c][ky][kx] += sum_y,x d[o][y][x] pad[c][y+ky][x+kx]; db[o] += sum d[o].
 * One row of d at a time in vector registers, W a constant. */
#define HC_CONV3X3_BACK(NAME, C, H, W)                                                                          \
  CLONES static void NAME(const float *restrict pad, int O, const float *restrict d, float *restrict gw,       \
                          float *restrict gb) {                                                                \
    int o, c, ky, kx, y, x, t;                                                                                 \
    for (o = 0; o < O; o++) {                                                                                  \
      const float *restrict dof = d + (size_t)o * (H) * (W);                                                   \
      hc_v8 g[(C) * 9], sb = {0, 0, 0, 0, 0, 0, 0, 0};                                                         \
      for (t = 0; t < (C) * 9; t++) g[t] = sb;                                                                 \
      for (y = 0; y < (H); y++) {                                                                              \
        hc_v8 dr[(W) / 8];                                                                                     \
        for (x = 0; x < (W) / 8; x++) dr[x] = *(const hc_v8u *)(dof + y * (W) + 8 * x), sb += dr[x];           \
        for (c = 0; c < (C); c++)                                                                              \
          for (ky = 0; ky < 3; ky++)                                                                           \
            for (kx = 0; kx < 3; kx++) {                                                                       \
              const float *restrict src = pad + ((size_t)c * ((H) + 2) + y + ky) * ((W) + 2) + kx;             \
              hc_v8 acc = dr[0] * *(const hc_v8u *)src;                                                        \
              for (x = 1; x < (W) / 8; x++) acc += dr[x] * *(const hc_v8u *)(src + 8 * x);                    \
              g[(c * 3 + ky) * 3 + kx] += acc;                                                                 \
            }                                                                                                  \
      }                                                                                                        \
      for (t = 0; t < (C) * 9; t++)                                                                            \
        gw[(size_t)o * (C) * 9 + t] += g[t][0] + g[t][1] + g[t][2] + g[t][3] + g[t][4] + g[t][5] + g[t][6] + g[t][7]; \
      gb[o] += sb[0] + sb[1] + sb[2] + sb[3] + sb[4] + sb[5] + sb[6] + sb[7];                                  \
    }                                                                                                          \
  }
HC_CONV3X3_BACK(hc_conv1_back, 3, 32, 32)
HC_CONV3X3_BACK(hc_conv2_back, C1, 16, 16)
CLONES static void hc_axpy(float *restrict y, const float *restrict x, float a, int n) {
  int i;
  for (i = 0; i < n; i++) y[i] += a * x[i];
}
static void hc_cnn_train_step(int batch) {
  float *ps[6] = {hc_w1, hc_b1, hc_w2, hc_b2, hc_w3, hc_b3}, *gs[6] = {hc_gw1, hc_gb1, hc_gw2, hc_gb2, hc_gw3, hc_gb3};
  static const int ns[6] = {C1 * 27, C1, C2 * C1 * 9, C2, NCLS * FCIN, NCLS};
  int n, j, k;
  for (k = 0; k < 6; k++) memset(gs[k], 0, sizeof(float) * (size_t)ns[k]);
  for (j = 0; j < C2 * C1 * 9; j++) { /* j = ((o * C1 + c) * 3 + ky) * 3 + kx */
    int o = j / (C1 * 9), c = j / 9 % C1, t = j % 9;
    hc_w2t[(c * C2 + o) * 9 + 8 - t] = hc_w2[j];
  }
  hc_cnn_forward(batch);
  for (n = 0; n < batch; n++) { /* d logits = (softmax - onehot) / batch */
    float *z = hc_out + n * NCLS, m = z[0], s = 0, dz[NCLS];
    for (j = 1; j < NCLS; j++) m = z[j] > m ? z[j] : m;
    for (j = 0; j < NCLS; j++) s += dz[j] = expf(z[j] - m);
    for (j = 0; j < NCLS; j++) dz[j] = (dz[j] / s - (j == cnn_lab[n])) / (float)batch;
    memset(hc_dp2[n], 0, sizeof hc_dp2[n]);
    for (j = 0; j < NCLS; j++) {
      hc_gb3[j] += dz[j];
      hc_axpy(hc_gw3 + (size_t)j * FCIN, hc_p2[n], dz[j], FCIN);
      hc_axpy(hc_dp2[n], hc_w3 + (size_t)j * FCIN, dz[j], FCIN);
    }
    hc_pool_back(C2, 16, 16, hc_a2[n], hc_dp2[n], 8, 64, 0, hc_da2);
    hc_conv2_back(hc_pad2[n], C2, hc_da2, hc_gw2, hc_gb2);
    memset(hc_dpad2, 0, sizeof hc_dpad2);
    for (j = 0; j < C2 * 16; j++) memcpy(&hc_dpad2[(j / 16) * 18 * 18 + (j % 16 + 1) * 18 + 1], &hc_da2[j * 16], 16 * sizeof(float));
    hc_conv2_dx(hc_dpad2, C1, hc_w2t, NULL, hc_dx2);
    hc_pool_back(C1, 32, 32, hc_a1[n], hc_dx2, 16, 16 * 16, 0, hc_da1);
    hc_conv1_back(hc_pad1[n], C1, hc_da1, hc_gw1, hc_gb1);
  }
  for (k = 0; k < 6; k++) hc_axpy(ps[k], gs[k], -0.01f, ns[k]);
}
static double run_hc_cnn_train(int batch, long calls, double *checksum) {
  long i;
  double t0 = now_ns(), t;
  for (i = 0; i < calls; i++) {
    hc_cnn_train_step(batch);
    __asm__ __volatile__("" ::: "memory");
  }
  t = now_ns() - t0;
  if (checksum) { /* loss of the last step's forward + sum |grad| */
    double loss = 0, g = 0;
    int n, j;
    for (n = 0; n < batch; n++) {
      float *z = hc_out + n * NCLS, m = z[0];
      double s = 0;
      for (j = 1; j < NCLS; j++) m = z[j] > m ? z[j] : m;
      for (j = 0; j < NCLS; j++) s += exp((double)z[j] - m);
      loss += (log(s) + m - z[cnn_lab[n]]) / batch;
    }
    g = abs_sum_f(hc_gw1, C1 * 27) + abs_sum_f(hc_gb1, C1) + abs_sum_f(hc_gw2, C2 * C1 * 9) + abs_sum_f(hc_gb2, C2) +
        abs_sum_f(hc_gw3, NCLS * FCIN) + abs_sum_f(hc_gb3, NCLS);
    *checksum = loss + g;
  }
  return t;
}

#ifndef CT_BENCH_NO_TORCH
static double run_torch_cnn_forward(int b, long c, double *cs) { return torch_cnn_forward(b, c, cs); }
static double run_torch_cnn_train(int b, long c, double *cs) { return torch_cnn_train(b, c, cs); }
#endif

static void cnn_init(void) {
  ct_conv_opts o = ct_conv_defaults();
  const float *p[6];
  int64_t s[4] = {1, 3, 32, 32}, ls[1] = {1};
  int n, i;
  ct_tensor *const *params;
  fill(cnn_x, MAXB * 3 * 32 * 32, 101, 1.0f);
  for (i = 0; i < MAXB; i++) cnn_lab[i] = (i * 7 + 3) % NCLS;
  o.padding[0] = o.padding[1] = 1;
  cnn_c1 = ct_nn_conv2d(3, C1, 3, 3, &o);
  cnn_c2 = ct_nn_conv2d(C1, C2, 3, 3, &o);
  cnn_fc = ct_nn_linear(FCIN, NCLS, true);
  cnn_net = ct_nn_sequential(3, (ct_module *[]){cnn_c1, cnn_c2, cnn_fc}); /* owns them; only for parameters() */
  if (!cnn_net) die("cnn modules");
  cnn_tx[0] = from(4, s, cnn_x);
  s[0] = MAXB;
  cnn_tx[1] = from(4, s, cnn_x);
  cnn_ty[0] = ct_from_array(1, ls, CT_I64, cnn_lab);
  ls[0] = MAXB;
  cnn_ty[1] = ct_from_array(1, ls, CT_I64, cnn_lab);
  if (!cnn_ty[0] || !cnn_ty[1]) die("labels");
  {
    ct_optim_opts oo = ct_sgd_defaults(0.01);
    params = ct_module_parameters(cnn_net, &n);
    if (n != 6) die("cnn parameter count");
    cnn_opt = ct_optim_new(CT_OPTIM_SGD, n, params, &oo);
    if (!cnn_opt) die("optimizer");
  }
  for (i = 0; i < 6; i++) p[i] = (const float *)ct_data_ptr(params[i]);
  memcpy(hc_w1, p[0], sizeof hc_w1), memcpy(hc_b1, p[1], sizeof hc_b1), memcpy(hc_w2, p[2], sizeof hc_w2);
  memcpy(hc_b2, p[3], sizeof hc_b2), memcpy(hc_w3, p[4], sizeof hc_w3), memcpy(hc_b3, p[5], sizeof hc_b3);
#ifndef CT_BENCH_NO_TORCH
  torch_cnn_init(p, cnn_x, cnn_lab, MAXB);
#endif
}

/* ================================ transformer ================================ */
enum { TL = 32, TE = 64, TH = 4, THD = TE / TH, TF = 128 };
static float tf_x[MAXB * TL * TE], tf_y[MAXB * TL * TE];
static ct_module *tf_m;
static ct_tensor *tf_tx[2], *tf_ty[2];
static ct_optim *tf_opt;
static const char *const tf_names[12] = {"self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight",
                                         "self_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight",
                                         "linear2.bias", "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias"};

static double run_ct_tf_forward(int batch, long calls, double *checksum) {
  ct_tensor *x = tf_tx[batch == 1 ? 0 : 1];
  long i;
  double t0, t;
  ct_module_eval(tf_m);
  t0 = now_ns();
  CT_NO_GRAD {
    for (i = 0; i < calls; i++) {
      CT_SCOPE {
        ct_tensor *y = ct_module_forward(tf_m, x);
        if (!y) die("transformer forward");
        if (checksum && i == calls - 1) {
          t = now_ns();
          *checksum = abs_sum(y);
          t0 += now_ns() - t;
        }
      }
    }
  }
  return now_ns() - t0;
}
static double run_ct_tf_train(int batch, long calls, double *checksum) {
  int k = batch == 1 ? 0 : 1;
  long i;
  double t0, loss = 0;
  ct_module_train(tf_m, true);
  t0 = now_ns();
  for (i = 0; i < calls; i++) {
    CT_SCOPE {
      ct_tensor *l;
      ct_optim_zero_grad(tf_opt);
      l = ct_mse_loss(ct_module_forward(tf_m, tf_tx[k]), tf_ty[k], 1);
      if (!l || ct_backward(l) != CT_OK || ct_optim_step(tf_opt) != CT_OK) die("transformer train step");
      if (checksum && i == calls - 1) ct_item(l, &loss);
    }
  }
  t0 = now_ns() - t0;
  if (checksum) *checksum = loss + ct_grad_checksum(tf_m);
  return t0;
}

/* ---- hand-written C transformer forward: weights transposed once to [in][out] ---- */
static float ht_wqkv[TE * 3 * TE], ht_bqkv[3 * TE], ht_wo[TE * TE], ht_bo[TE], ht_w1[TE * TF], ht_b1[TF], ht_w2[TF * TE], ht_b2[TE];
static float ht_g1[TE], ht_be1[TE], ht_g2[TE], ht_be2[TE];
static float ht_qkv[TL * 3 * TE], ht_kt[TH][THD * TL], ht_p[TL * TL], ht_o[TL * TE], ht_x1[TL * TE], ht_h[TL * TF], ht_t[TL * TE];
static float ht_out[MAXB * TL * TE];
/* y[r][:] = b + x[r][:] W  (W [in][out]); rows a multiple of 4 and out of 16 (every call here): a 4 x 16
 * register tile (8 vector accumulators), W's row segment loaded once per 4 rows */
CLONES static void ht_linear(int rows, const float *restrict x, int in, const float *restrict w, const float *restrict b, int out,
                             float *restrict y, int relu) {
  int r, i, j, k, q;
  for (r = 0; r < rows; r += 4)
    for (j = 0; j < out; j += 16) {
      hc_v8 acc[4][2];
      for (k = 0; k < 4; k++) acc[k][0] = *(const hc_v8u *)(b + j), acc[k][1] = *(const hc_v8u *)(b + j + 8);
      for (i = 0; i < in; i++) {
        const hc_v8 w0 = *(const hc_v8u *)(w + (size_t)i * out + j), w1 = *(const hc_v8u *)(w + (size_t)i * out + j + 8);
        for (k = 0; k < 4; k++) {
          const float xv = x[(size_t)(r + k) * in + i];
          acc[k][0] += xv * w0, acc[k][1] += xv * w1;
        }
      }
      for (k = 0; k < 4; k++) {
        float *restrict yr = y + (size_t)(r + k) * out + j;
        *(hc_v8u *)yr = acc[k][0], *(hc_v8u *)(yr + 8) = acc[k][1];
        if (relu)
          for (q = 0; q < 16; q++) yr[q] = yr[q] > 0 ? yr[q] : 0;
      }
    }
}
/* exp for x <= 0 (softmax after the max is subtracted): 2^(x log2 e) split into 2^n 2^f, f in [-0.5, 0.5],
 * degree-6 polynomial; branch-free so the loop vectorises. Relative error ~2e-7. */
static inline float ht_exp(float x) {
  float t = x * 1.44269504f, n, f, p;
  union {
    float f;
    int i;
  } u;
  t = t < -126 ? -126 : t;
  n = (t + 12582912.0f) - 12582912.0f; /* round to nearest (1.5 * 2^23), vectorises unlike roundf */
  f = t - n;
  p = 1.535336188e-4f;
  p = p * f + 1.339887440e-3f;
  p = p * f + 9.618437357e-3f;
  p = p * f + 5.550332471e-2f;
  p = p * f + 2.402264791e-1f;
  p = p * f + 6.931472028e-1f;
  p = p * f + 1.0f;
  u.i = ((int)n + 127) << 23;
  return p * u.f;
}
CLONES static void ht_layer_norm(const float *restrict a, const float *restrict b, const float *restrict g,
                                 const float *restrict be, float *restrict y) {
  int r, j;
  for (r = 0; r < TL; r++) {
    float v[TE], m = 0, var = 0, inv;
    for (j = 0; j < TE; j++) m += v[j] = a[r * TE + j] + b[r * TE + j];
    m /= TE;
    for (j = 0; j < TE; j++) var += (v[j] - m) * (v[j] - m);
    inv = 1.0f / sqrtf(var / TE + 1e-5f);
    for (j = 0; j < TE; j++) y[r * TE + j] = (v[j] - m) * inv * g[j] + be[j];
  }
}
CLONES static void ht_attention(void) {
  int h, i, j, d;
  const float scale = 1.0f / sqrtf((float)THD);
  for (h = 0; h < TH; h++) { /* K^T per head: [d][j] */
    for (j = 0; j < TL; j++)
      for (d = 0; d < THD; d++) ht_kt[h][d * TL + j] = ht_qkv[j * 3 * TE + TE + h * THD + d];
  }
  for (h = 0; h < TH; h++) {
    for (i = 0; i < TL; i++) {
      float *restrict p = ht_p + i * TL, m, s = 0;
      const float *restrict q = ht_qkv + i * 3 * TE + h * THD;
      for (j = 0; j < TL; j++) p[j] = 0;
      for (d = 0; d < THD; d++) {
        const float qd = q[d] * scale, *restrict k = ht_kt[h] + d * TL;
        for (j = 0; j < TL; j++) p[j] += qd * k[j];
      }
      m = p[0];
      for (j = 1; j < TL; j++) m = p[j] > m ? p[j] : m;
      for (j = 0; j < TL; j++) p[j] = ht_exp(p[j] - m);
      for (j = 0; j < TL; j++) s += p[j];
      s = 1.0f / s;
      {
        float *restrict o = ht_o + i * TE + h * THD;
        for (d = 0; d < THD; d++) o[d] = 0;
        for (j = 0; j < TL; j++) {
          const float pj = p[j] * s, *restrict v = ht_qkv + j * 3 * TE + 2 * TE + h * THD;
          for (d = 0; d < THD; d++) o[d] += pj * v[d];
        }
      }
    }
  }
}
static void ht_forward(int batch) {
  int n;
  for (n = 0; n < batch; n++) {
    const float *x = tf_x + (size_t)n * TL * TE;
    ht_linear(TL, x, TE, ht_wqkv, ht_bqkv, 3 * TE, ht_qkv, 0);
    ht_attention();
    ht_linear(TL, ht_o, TE, ht_wo, ht_bo, TE, ht_t, 0);
    ht_layer_norm(x, ht_t, ht_g1, ht_be1, ht_x1);
    ht_linear(TL, ht_x1, TE, ht_w1, ht_b1, TF, ht_h, 1);
    ht_linear(TL, ht_h, TF, ht_w2, ht_b2, TE, ht_t, 0);
    ht_layer_norm(ht_x1, ht_t, ht_g2, ht_be2, ht_out + (size_t)n * TL * TE);
  }
}
static double run_ht_forward(int batch, long calls, double *checksum) {
  long i;
  double t0 = now_ns(), t;
  for (i = 0; i < calls; i++) {
    ht_forward(batch);
    __asm__ __volatile__("" ::: "memory");
  }
  t = now_ns() - t0;
  if (checksum) *checksum = abs_sum_f(ht_out, (int64_t)batch * TL * TE);
  return t;
}

#ifndef CT_BENCH_NO_TORCH
static double run_torch_tf_forward(int b, long c, double *cs) { return torch_tf_forward(b, 0, c, cs); }
static double run_torch_tf_fast(int b, long c, double *cs) { return torch_tf_forward(b, 1, c, cs); }
static double run_torch_tf_train(int b, long c, double *cs) { return torch_tf_train(b, c, cs); }
#endif

static void transpose_into(float *dst, const float *src, int rows, int cols) { /* src [rows][cols] -> dst [cols][rows] */
  int r, c;
  for (r = 0; r < rows; r++)
    for (c = 0; c < cols; c++) dst[c * rows + r] = src[r * cols + c];
}
static void tf_init(void) {
  ct_transformer_opts o = ct_transformer_defaults();
  int64_t s[3] = {1, TL, TE};
  const float *p[12];
  int i, n;
  ct_tensor *const *params;
  fill(tf_x, MAXB * TL * TE, 201, 1.0f);
  fill(tf_y, MAXB * TL * TE, 202, 1.0f);
  o.dim_feedforward = TF, o.dropout = 0, o.batch_first = true;
  tf_m = ct_nn_transformer_encoder_layer(TE, TH, &o);
  if (!tf_m) die("transformer module");
  /* LayerNorm's weight 1 and bias 0 would hide a mix-up: perturb them (both sides get the same) */
  for (i = 8; i < 12; i++) {
    ct_tensor *t = ct_module_get(tf_m, tf_names[i]);
    float *d = (float *)ct_data_ptr(t);
    int j;
    for (j = 0; j < TE; j++) d[j] += 0.1f * sinf((float)(j + 3 * i));
  }
  for (i = 0; i < 12; i++) {
    ct_tensor *t = ct_module_get(tf_m, tf_names[i]);
    if (!t) die(tf_names[i]);
    p[i] = (const float *)ct_data_ptr(t);
  }
  tf_tx[0] = from(3, s, tf_x), tf_ty[0] = from(3, s, tf_y);
  s[0] = MAXB;
  tf_tx[1] = from(3, s, tf_x), tf_ty[1] = from(3, s, tf_y);
  {
    ct_optim_opts oo = ct_sgd_defaults(0.01);
    params = ct_module_parameters(tf_m, &n);
    tf_opt = ct_optim_new(CT_OPTIM_SGD, n, params, &oo);
    if (!tf_opt) die("optimizer");
  }
  transpose_into(ht_wqkv, p[0], 3 * TE, TE), memcpy(ht_bqkv, p[1], sizeof ht_bqkv);
  transpose_into(ht_wo, p[2], TE, TE), memcpy(ht_bo, p[3], sizeof ht_bo);
  transpose_into(ht_w1, p[4], TF, TE), memcpy(ht_b1, p[5], sizeof ht_b1);
  transpose_into(ht_w2, p[6], TE, TF), memcpy(ht_b2, p[7], sizeof ht_b2);
  memcpy(ht_g1, p[8], sizeof ht_g1), memcpy(ht_be1, p[9], sizeof ht_be1);
  memcpy(ht_g2, p[10], sizeof ht_g2), memcpy(ht_be2, p[11], sizeof ht_be2);
#ifndef CT_BENCH_NO_TORCH
  torch_tf_init(p, TE, TH, TF, TL, tf_x, tf_y, MAXB);
#endif
}

/* ============================== reporting ============================== */
static void check_line(const char *what, double ct, double torch, double hand) {
  printf("  checksum %-22s ctorch %.6g  libtorch %.6g (rel %.1e)  hand C %.6g (rel %.1e)\n", what, ct, torch,
         fabs(torch - ct) / fabs(ct), hand, fabs(hand - ct) / fabs(ct));
}
static void row(const char *name, int b, const double *m, const double *lo, const double *hi, int nt) {
  /* m[0] ctorch, m[1] libtorch, m[2] hand C, m[3] libtorch fast path (if nt > 3) */
  printf("%-10s %-5d %9.1f %9.1f %9.1f %11.2f %11.2f", name, b, m[0] / 1e3, m[1] / 1e3, m[2] / 1e3, m[1] / m[0], m[0] / m[2]);
  if (nt > 3) printf(" %9.1f %11.2f", m[3] / 1e3, m[3] / m[0]);
  printf("   [ct %.1f-%.1f, torch %.1f-%.1f]\n", lo[0] / 1e3, hi[0] / 1e3, lo[1] / 1e3, hi[1] / 1e3);
}
static void header(int fast) {
  printf("%-10s %-5s %9s %9s %9s %11s %11s", "case", "batch", "ctorch", "libtorch", "hand C", "torch/ct", "ct/hand");
  if (fast) printf(" %9s %11s", "torchfast", "tfast/ct");
  printf("   (us per call, median; min-max)\n");
}

static void section_cnn(void) {
  static const int batches[2] = {1, MAXB};
  double cs[3], med[4], lo[4], hi[4];
  int bi;
  run_fn fwd[3] = {run_ct_cnn_forward, NULL, run_hc_cnn_forward}, trn[3] = {run_ct_cnn_train, NULL, run_hc_cnn_train};
#ifndef CT_BENCH_NO_TORCH
  fwd[1] = run_torch_cnn_forward, trn[1] = run_torch_cnn_train;
#endif
  printf("\n== CNN: conv3x3 3->16 + ReLU, maxpool 2, conv3x3 16->32 + ReLU, maxpool 2, linear 2048->10; f32, 1 thread\n");
  for (bi = 0; bi < 2; bi++) {
    int b = batches[bi], i;
    for (i = 0; i < 3; i++) cs[i] = NAN;
    for (i = 0; i < 3; i++)
      if (fwd[i]) fwd[i](b, 1, &cs[i]);
    check_line(b == 1 ? "forward, batch 1" : "forward, batch 32", cs[0], cs[1], cs[2]);
  }
  /* the first training step from the same weights: loss + sum |grad| */
  {
    int i;
    for (i = 0; i < 3; i++) cs[i] = NAN;
    for (i = 0; i < 3; i++)
      if (trn[i]) trn[i](MAXB, 1, &cs[i]);
    check_line("train step, batch 32", cs[0], cs[1], cs[2]);
  }
  header(0);
  for (bi = 0; bi < 2; bi++) {
    bench_n(3, fwd, batches[bi], med, lo, hi);
    row("forward", batches[bi], med, lo, hi, 3);
  }
  for (bi = 0; bi < 2; bi++) {
    bench_n(3, trn, batches[bi], med, lo, hi);
    row("train", batches[bi], med, lo, hi, 3);
  }
}

static void section_tf(void) {
  static const int batches[2] = {1, MAXB};
  double cs[4], med[4], lo[4], hi[4];
  int bi, i;
  run_fn fwd[4] = {run_ct_tf_forward, NULL, run_ht_forward, NULL}, trn[3] = {run_ct_tf_train, NULL, NULL};
#ifndef CT_BENCH_NO_TORCH
  fwd[1] = run_torch_tf_forward, fwd[3] = run_torch_tf_fast, trn[1] = run_torch_tf_train;
#endif
  printf("\n== Transformer encoder layer: d_model 64, 4 heads, dim_feedforward 128, seq 32, post-norm, relu, dropout 0,\n"
         "   batch_first; f32, 1 thread. torchfast: at::_transformer_encoder_layer_fwd (Python's eval/no_grad fast path)\n");
  for (bi = 0; bi < 2; bi++) {
    int b = batches[bi];
    for (i = 0; i < 4; i++) cs[i] = NAN;
    for (i = 0; i < 4; i++)
      if (fwd[i]) fwd[i](b, 1, &cs[i]);
    check_line(b == 1 ? "forward, batch 1" : "forward, batch 32", cs[0], cs[1], cs[2]);
    printf("  checksum %-22s libtorch fast path %.6g (rel %.1e)\n", "", cs[3], fabs(cs[3] - cs[0]) / fabs(cs[0]));
  }
  for (i = 0; i < 3; i++) cs[i] = NAN;
  for (i = 0; i < 2; i++)
    if (trn[i]) trn[i](MAXB, 1, &cs[i]);
  check_line("train step, batch 32", cs[0], cs[1], cs[2]);
  header(1);
  for (bi = 0; bi < 2; bi++) {
    bench_n(4, fwd, batches[bi], med, lo, hi);
    row("forward", batches[bi], med, lo, hi, 4);
  }
  for (bi = 0; bi < 2; bi++) {
    bench_n(3, trn, batches[bi], med, lo, hi);
    row("train", batches[bi], med, lo, hi, 3);
  }
  printf("(no hand-written transformer training step: its hand C column is empty)\n");
}

/* ---- single ops at the models' shapes ---- */
enum { NOPS = 10 };
static const char *const op_names[NOPS] = {"conv1 fwd [B,3,32,32]->16",  "conv2 fwd [B,16,16,16]->32", "max_pool2d [B,16,32,32]",
                                           "conv2 bwd input+weight",     "conv1 bwd weight",           "linear [B,2048]->10",
                                           "linear [B*32,64]->192",      "bmm [4B,32,16]x[4B,16,32]",  "softmax [4B,32,32]",
                                           "layer_norm [B,32,64]"};
static ct_tensor *op_t[2][20];
static int op_which;
static ct_tensor *rnd(int ndim, const int64_t *s, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, s, CT_F32);
  if (!t) die("ct_empty");
  fill((float *)ct_data_ptr(t), t->numel, seed, 1.0f);
  return t;
}
static void ops_init(int k, int B) {
  int64_t a[4];
#define T(i, n, ...)                                     \
  do {                                                   \
    int64_t s_[] = {__VA_ARGS__};                        \
    memcpy(a, s_, sizeof s_);                            \
    op_t[k][i] = rnd(n, a, 300 + 20 * (unsigned)k + i);  \
  } while (0)
  T(0, 4, B, 3, 32, 32); T(1, 4, 16, 3, 3, 3); T(2, 1, 16); T(3, 4, B, 16, 16, 16); T(4, 4, 32, 16, 3, 3); T(5, 1, 32);
  T(6, 4, B, 16, 32, 32); T(7, 4, B, 32, 16, 16); T(8, 4, B, 16, 32, 32); T(9, 2, B, 2048); T(10, 2, 10, 2048); T(11, 1, 10);
  T(12, 2, B * 32, 64); T(13, 2, 192, 64); T(14, 1, 192); T(15, 3, B * 4, 32, 16); T(16, 3, B * 4, 16, 32);
  T(17, 3, B * 4, 32, 32); T(18, 3, B, 32, 64); T(19, 1, 64);
#undef T
}
static double run_ct_op(int batch, long calls, double *cs) {
  static const int64_t one[2] = {1, 1}, k2[2] = {2, 2}, z[2] = {0, 0}, e[1] = {64};
  int k = batch == 1 ? 0 : 1;
  ct_tensor **t = op_t[k];
  long i;
  double t0;
  (void)cs;
  if (!t[0]) ops_init(k, batch);
  t0 = now_ns();
  CT_NO_GRAD {
    for (i = 0; i < calls; i++) {
      ct_tensor *r = NULL;
      switch (op_which) {
      case 0: r = ct_conv2d(t[0], t[1], t[2], 2, one, 2, one, 2, one, 1); break;
      case 1: r = ct_conv2d(t[3], t[4], t[5], 2, one, 2, one, 2, one, 1); break;
      case 2: r = ct_max_pool2d(t[6], 2, k2, 2, k2, 2, z, 2, one, false); break;
      case 3: {
        ct_tensor *gi = ct_convolution_backward_input(t[7], t[4], 4, t[3]->sizes, 2, one, 2, one, 2, one, 1);
        r = ct_convolution_backward_weight(t[7], t[3], 4, t[4]->sizes, 2, one, 2, one, 2, one, 1);
        ct_release(gi);
        break;
      }
      case 4: r = ct_convolution_backward_weight(t[8], t[0], 4, t[1]->sizes, 2, one, 2, one, 2, one, 1); break;
      case 5: r = ct_linear(t[9], t[10], t[11]); break;
      case 6: r = ct_linear(t[12], t[13], t[14]); break;
      case 7: r = ct_bmm(t[15], t[16]); break;
      case 8: r = ct_softmax(t[17], -1, CT_DTYPE_NONE); break;
      default: r = ct_layer_norm(t[18], 1, e, t[19], t[19], 1e-5); break;
      }
      if (!r) die(op_names[op_which]);
      ct_release(r);
    }
  }
  return now_ns() - t0;
}
#ifndef CT_BENCH_NO_TORCH
static double run_torch_op(int batch, long calls, double *cs) {
  (void)cs;
  return torch_op(op_which, batch, calls);
}
#endif
static void section_ops(void) {
  static const int batches[2] = {1, MAXB};
  int bi;
  run_fn f[2] = {run_ct_op, NULL};
#ifndef CT_BENCH_NO_TORCH
  f[1] = run_torch_op;
#endif
  printf("\n== single ops at the models' shapes (no grad, new output), us per call\n");
  printf("%-28s %5s %9s %9s %9s\n", "op", "batch", "ctorch", "libtorch", "torch/ct");
  for (op_which = 0; op_which < NOPS; op_which++)
    for (bi = 0; bi < 2; bi++) {
      double med[2], lo[2], hi[2];
      bench_n(2, f, batches[bi], med, lo, hi);
      printf("%-28s %5d %9.2f %9.2f %9.2f\n", op_names[op_which], batches[bi], med[0] / 1e3, med[1] / 1e3, med[1] / med[0]);
    }
}

/* ---- per-op times of ctorch's side (examples/profile.c's dispatcher hook): a boxed fallback at
 * the Profiler key charges each op its total and self time (thread CPU time; minus the ops it
 * called). The hook adds ~0.1-0.3 us per op call, so small ops look a little dearer than they are. */
typedef struct op_time {
  const ct_op *op;
  long calls;
  double total, self; /* ns */
} op_time;
static op_time op_table[512];
static int op_n, op_depth;
static double op_child[64];
static ct_status op_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  double start = now_ns(), took;
  ct_status st;
  int i;
  (void)self;
  if (op_depth < 63) op_child[++op_depth] = 0;
  st = ct_redispatch_boxed(op, ks & ct_keys_below(CT_KEY_PROFILER), stack);
  took = now_ns() - start;
  for (i = 0; i < op_n && op_table[i].op != op; i++) {
  }
  if (i == op_n && op_n < 512) op_table[op_n++].op = op;
  if (i < 512) op_table[i].calls++, op_table[i].total += took, op_table[i].self += took - op_child[op_depth];
  if (op_depth > 0) op_child[--op_depth] += took;
  return st;
}
static int op_by_self(const void *a, const void *b) {
  double x = ((const op_time *)a)->self, y = ((const op_time *)b)->self;
  return (x < y) - (x > y);
}
static void op_profile(const char *title, run_fn f, int batch, long calls) {
  double t_all, self_sum = 0;
  int i;
  op_n = 0, op_depth = 0;
  memset(op_table, 0, sizeof op_table);
  f(batch, 2, NULL); /* warm */
  if (ct_fallback(CT_KEY_PROFILER, ct_kernel_boxed(op_fallback, NULL)) != CT_OK) die("ct_fallback");
  CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_PROFILER)) { t_all = f(batch, calls, NULL); }
  ct_fallback_remove(CT_KEY_PROFILER);
  qsort(op_table, (size_t)op_n, sizeof *op_table, op_by_self);
  for (i = 0; i < op_n; i++) self_sum += op_table[i].self;
  printf("\n-- %s, batch %d: %.1f us per call with the hook; self time of the ops %.1f us (%.0f%%), the rest outside ops\n", title,
         batch, t_all / calls / 1e3, self_sum / calls / 1e3, 100 * self_sum / t_all);
  printf("   %-44s %7s %10s %10s %7s\n", "op (top 14 by self time)", "calls", "self us", "total us", "self %");
  for (i = 0; i < op_n && i < 14; i++)
    printf("   %-44s %7.1f %10.2f %10.2f %6.1f%%\n", op_table[i].op->full_name, (double)op_table[i].calls / calls,
           op_table[i].self / calls / 1e3, op_table[i].total / calls / 1e3, 100 * op_table[i].self / t_all);
}
static void section_opprof(void) {
  printf("\n== ctorch per-op self time (thread CPU), per call of the case; %% of the whole call with the hook\n");
  op_profile("CNN forward", run_ct_cnn_forward, 1, 200);
  op_profile("CNN forward", run_ct_cnn_forward, MAXB, 10);
  op_profile("CNN training step", run_ct_cnn_train, 1, 100);
  op_profile("CNN training step", run_ct_cnn_train, MAXB, 5);
  op_profile("transformer forward", run_ct_tf_forward, 1, 300);
  op_profile("transformer forward", run_ct_tf_forward, MAXB, 20);
  op_profile("transformer training step", run_ct_tf_train, 1, 100);
  op_profile("transformer training step", run_ct_tf_train, MAXB, 5);
}

static void profile(const char *side, const char *cas, int batch, double seconds) {
  run_fn f = NULL;
  double done = 0;
  int s = !strcmp(side, "ct") ? 0 : !strcmp(side, "torch") ? 1 : 2;
  int c = !strcmp(cas, "cnn_fwd") ? 0 : !strcmp(cas, "cnn_train") ? 1 : !strcmp(cas, "tf_fwd") ? 2 : !strcmp(cas, "tf_train") ? 3 : -1;
  run_fn tab[3][4] = {{run_ct_cnn_forward, run_ct_cnn_train, run_ct_tf_forward, run_ct_tf_train},
                      {NULL, NULL, NULL, NULL},
                      {run_hc_cnn_forward, run_hc_cnn_train, run_ht_forward, NULL}};
#ifndef CT_BENCH_NO_TORCH
  tab[1][0] = run_torch_cnn_forward, tab[1][1] = run_torch_cnn_train, tab[1][2] = run_torch_tf_forward, tab[1][3] = run_torch_tf_train;
#endif
  if (c >= 0) f = tab[s][c];
  if (!f) {
    fprintf(stderr, "bench_models prof: no %s %s\n", side, cas);
    exit(2);
  }
  cpu_clock = 0;
#ifndef CT_BENCH_NO_TORCH
  torch_models_setup(1, 0);
#endif
  while (done < seconds * 1e9) done += f(batch, 16, NULL);
}

static void print_cpu(void) {
  FILE *p = fopen("/proc/cpuinfo", "r");
  char line[256];
  while (p && fgets(line, sizeof line, p))
    if (!strncmp(line, "model name", 10)) {
      char *c = strchr(line, ':');
      printf("CPU:%s", c ? c + 1 : line);
      break;
    }
  if (p) fclose(p);
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  const char *c = getenv("BENCH_CLOCK");
  if (getenv("BENCH_REPEATS")) reps = atoi(getenv("BENCH_REPEATS"));
  if (getenv("BENCH_MS")) target_ms = atof(getenv("BENCH_MS"));
  if (reps < 1) reps = 1;
  cpu_clock = !(c && !strcmp(c, "wall"));
  ct_set_num_threads(1);
#ifndef CT_BENCH_NO_TORCH
  torch_models_setup(1, cpu_clock);
#endif
  cnn_init();
  tf_init();
  if (!strcmp(only, "prof")) {
    if (argc < 6) {
      fprintf(stderr, "usage: %s prof ct|torch|hand cnn_fwd|cnn_train|tf_fwd|tf_train BATCH SECONDS\n", argv[0]);
      return 2;
    }
    profile(argv[2], argv[3], atoi(argv[4]), atof(argv[5]));
    return 0;
  }
  printf("bench_models: ctorch %s, backend %s, BLIS sub-configuration %s, 1 thread;\n", CT_VERSION_STRING,
         ct_backend_find("cpu_blis") ? ct_backend_find("cpu_blis")->version : "NOT REGISTERED", ct_cpu_blis_arch());
  print_cpu();
#ifndef CT_BENCH_NO_TORCH
  printf("libtorch %s; ", torch_models_version());
#else
  printf("libtorch: not built in (see bench/run.sh); ");
#endif
  printf("medians of %d interleaved repeats of ~%.0f ms, %s time\n", reps, target_ms, cpu_clock ? "thread CPU" : "wall");
  if (!*only || strstr(only, "cnn")) section_cnn();
  if (!*only || strstr(only, "tf")) section_tf();
  if (!*only || strstr(only, "ops")) section_ops();
  if (strstr(only, "opprof")) section_opprof(); /* not in the default run */
  (void)sinkf;
  return 0;
}
