/* bench/cuda.c - ctorch's CUDA backend (backends/cuda) against direct cuBLAS,
 * a bare kernel launch and (read from a file) PyTorch eager on the same GPU.
 *
 * What it measures (sections; `bench_cuda gemm,tiny,reduce,mlp` runs a subset):
 *   gemm  C = A @ B, square n = 1024, 4096, 8192, f32 (no TF32) and bf16:
 *         ct_mm_out on CUDA tensors vs cublasGemmEx on the same inputs
 *         (f32: CUDA_R_32F, CUBLAS_COMPUTE_32F, default math mode; bf16:
 *         CUDA_R_16BF in and out, CUBLAS_COMPUTE_32F), row-major by swapping
 *         the operands. GPU time from events (ctorch's events on its current
 *         stream, cudaEvents on cuBLAS's own stream); TFLOP/s = 2n^3 / time.
 *   tiny  host time per call of a 1-element f32 add on the GPU, functional
 *         (r = ct_add(x, x); ct_release(r)) and out= (ct_add_out(out, x, x)),
 *         vs ct_cuda_launch_empty() (one empty kernel): BENCH_CALLS calls
 *         (default 20000) on the host clock, one synchronize at the end.
 *   reduce  sum over rows / columns of [4096, 4096] and over all of 16M,
 *         amax, var and argmax over rows: GB/s of f32 input read, ctorch's
 *         reduction kernels vs torch (PyTorch's figures are not interleaved
 *         with these: another process).
 *   mlp   training step of a 32-64-64-8 MLP (Linear-ReLU-Linear-ReLU-Linear,
 *         nn.Linear layout [out][in], ct_linear; MSE loss, backward, SGD
 *         with in-place sub_ under no_grad, grads set to None) at batch 1
 *         and 256: host time per step (synchronize at the end of each timed
 *         block), and cudaMalloc calls per steady-state step (the
 *         system_allocs counter of ct_device_memory_stats over the timed
 *         steps) with the backend's native/fallback op counts per step.
 * Every figure is the median of BENCH_REPEATS (default 7) timed blocks; the
 * blocks of the things compared are interleaved (ctorch, other, ctorch, ...
 * with the order rotated each repeat) and a ratio is the median of the
 * per-repeat ratios. MLP blocks are sized to take about BENCH_MS ms (default
 * 40); GEMM blocks half that, with 2 * BENCH_REPEATS + 1 repeats.
 * BENCH_GEMM_MAX caps the GEMM size.
 *
 * PyTorch: bench/cuda_torch.py measures the same things with torch on cuda:0
 * and prints lines "torch KEY VALUE"; give that file in CT_BENCH_TORCH and
 * the tables get PyTorch columns and ctorch/torch ratios:
 *   python3 bench/cuda_torch.py > build/torch_cuda.txt
 *   CT_BENCH_TORCH=build/torch_cuda.txt build/bench_cuda
 *
 * Build (the backend library from `make cuda`):
 *   cc -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 -I. -Ibackends/cuda -isystem /usr/local/cuda/include \
 *      -o build/bench_cuda bench/cuda.c -Wl,-u,ct_cuda_anchor build/libctorch_cuda.a \
 *      -L/usr/local/cuda/lib64 -lcublas -lcudart -lstdc++ -lm -lpthread -Wl,-rpath,/usr/local/cuda/lib64
 * Without a GPU it prints "SKIP: no CUDA device" and exits 0.
 *
 * Targets set by the issue:
 *   GEMM ctorch/cuBLAS >= 0.97 at every size and dtype;
 *   tiny op host time <= 1.5x a bare empty-kernel launch, and <= 1/4 of
 *   PyTorch eager's;
 *   MLP training step at batch 1 and 256: compared with PyTorch eager (no
 *   number set);
 *   cudaMalloc calls per steady-state step: 0.
 * A summary against these targets is printed at the end.
 */
#define _POSIX_C_SOURCE 200809L
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctorch_cuda.h"

/* ---- common ---- */
static ct_device dev;
static int reps = 7;
static double target_ms = 40;
static long tiny_calls = 20000;
static int timing_phase; /* set while measure() runs the timed repeats */

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
static void die(const char *what) {
  fprintf(stderr, "bench_cuda: %s failed: %s\n", what, ct_last_error_message());
  exit(1);
}
static void cuda_check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    fprintf(stderr, "bench_cuda: %s failed: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
    exit(1);
  }
}
static void cublas_check(cublasStatus_t s, const char *what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    fprintf(stderr, "bench_cuda: %s failed: cuBLAS status %d\n", what, (int)s);
    exit(1);
  }
}
static void ct_check(ct_status s, const char *what) {
  if (s != CT_OK) die(what);
}
static ct_tensor *nn(ct_tensor *t, const char *what) { /* not NULL */
  if (!t) die(what);
  return t;
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
  long v;
  if (!s || !*s) return dflt;
  v = strtol(s, NULL, 10);
  return v > 0 ? v : dflt;
}
static void fill(float *p, int64_t n, unsigned seed) { /* uniform in [-0.5, 0.5) */
  int64_t i;
  for (i = 0; i < n; i++) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = (float)(seed >> 8) / 16777216.0f - 0.5f;
  }
}
/* A [rows][cols] f32 tensor on the GPU filled with fill(seed) (cols 0: 1-D). */
static ct_tensor *dev_tensor(int64_t rows, int64_t cols, unsigned seed) {
  int64_t s[2], n = rows * (cols ? cols : 1);
  float *h = (float *)malloc(sizeof(float) * (size_t)n);
  ct_tensor *t;
  if (!h) {
    fprintf(stderr, "bench_cuda: out of host memory\n");
    exit(1);
  }
  s[0] = rows, s[1] = cols;
  fill(h, n, seed);
  t = ct_from_array_ex(cols ? 2 : 1, s, CT_F32, h, dev);
  free(h);
  return nn(t, "ct_from_array_ex (to the GPU)");
}

/* A timed block: `calls` calls of something; returns the ns they took. */
typedef double (*run_fn)(void *ctx, long calls);

/* Runs nf things interleaved: each is warmed up (warm calls), then sized to
 * about target_ms per block (calls[i] <= 0) or run with calls[i] calls per
 * block; then reps repeats, each one block of every thing, the order rotated
 * each repeat. med[i]: the median ns per call. The per-repeat figures stay
 * in rep_ns for paired_ratio. */
static double rep_ns[4][64];
static int rep_n;
static void measure(int nf, run_fn *f, void **ctx, long *calls, long warm, double *med) {
  double v[64];
  int i, j, r, nr = reps < 64 ? reps : 64;
  for (i = 0; i < nf; i++) {
    f[i](ctx[i], warm);
    if (calls[i] <= 0) {
      long c = 1;
      double t;
      for (;;) {
        t = f[i](ctx[i], c);
        if (t > target_ms * 1e6 / 4 || c > (1L << 22)) break;
        c *= 4;
      }
      c = (long)((double)c * (target_ms * 1e6 / (t > 1 ? t : 1)));
      calls[i] = c < 1 ? 1 : c;
    }
  }
  timing_phase = 1;
  for (r = 0; r < nr; r++)
    for (j = 0; j < nf; j++) {
      i = (j + r) % nf;
      rep_ns[i][r] = f[i](ctx[i], calls[i]) / (double)calls[i];
    }
  timing_phase = 0;
  rep_n = nr;
  for (i = 0; i < nf; i++) {
    memcpy(v, rep_ns[i], sizeof(double) * (size_t)nr);
    med[i] = median(v, nr);
  }
}
/* The median over the last measure()'s repeats of time(a) / time(b): the
 * two blocks of a repeat ran back to back, so a ratio of a pair is less
 * exposed to the GPU's clock and the host's load drifting between repeats. */
static double paired_ratio(int a, int b) {
  double v[64];
  int r;
  for (r = 0; r < rep_n; r++) v[r] = rep_ns[a][r] / rep_ns[b][r];
  return median(v, rep_n);
}

/* ---- PyTorch's figures, from the file named by CT_BENCH_TORCH ---- */
enum { MAX_TORCH = 64 };
static struct {
  char key[64], val[192];
} torch_kv[MAX_TORCH];
static int ntorch;
static const char *torch_file;
static char torch_skip[256];

static void torch_load(void) {
  char line[512];
  FILE *f;
  torch_file = getenv("CT_BENCH_TORCH");
  if (!torch_file || !*torch_file) {
    torch_file = NULL;
    return;
  }
  f = fopen(torch_file, "r");
  if (!f) {
    printf("PyTorch: cannot open CT_BENCH_TORCH=%s; ctorch only\n", torch_file);
    torch_file = NULL;
    return;
  }
  while (fgets(line, sizeof line, f)) {
    char *p = line, *k, *e;
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' ')) line[--len] = 0;
    if (!strncmp(line, "SKIP", 4)) {
      snprintf(torch_skip, sizeof torch_skip, "%.255s", line);
      continue;
    }
    if (strncmp(line, "torch ", 6) || ntorch >= MAX_TORCH) continue;
    p += 6;
    while (*p == ' ') p++;
    k = p;
    while (*p && *p != ' ') p++;
    e = p;
    while (*p == ' ') p++;
    *e = 0;
    if (!*k) continue;
    snprintf(torch_kv[ntorch].key, sizeof torch_kv[ntorch].key, "%.63s", k);
    snprintf(torch_kv[ntorch].val, sizeof torch_kv[ntorch].val, "%.191s", p);
    ntorch++;
  }
  fclose(f);
}
static const char *torch_str(const char *key) {
  int i;
  for (i = 0; i < ntorch; i++)
    if (!strcmp(torch_kv[i].key, key)) return torch_kv[i].val;
  return NULL;
}
static double torch_num(const char *key) { /* NAN when absent */
  const char *s = torch_str(key);
  char *end;
  double v;
  if (!s) return NAN;
  v = strtod(s, &end);
  return end == s ? NAN : v;
}

/* ---- the summary against the targets ---- */
enum { MAX_ROWS = 32 };
static struct {
  char metric[64];
  double value, target;
  int cmp; /* +1: value >= target; -1: value <= target; 0: no target */
} rows[MAX_ROWS];
static int nrows;
static void summary_add(const char *metric, double value, int cmp, double target) {
  if (nrows >= MAX_ROWS) return;
  snprintf(rows[nrows].metric, sizeof rows[nrows].metric, "%.63s", metric);
  rows[nrows].value = value, rows[nrows].cmp = cmp, rows[nrows].target = target;
  nrows++;
}
static void summary_print(void) {
  int i, missed = 0;
  printf("\n== summary against the issue's targets\n");
  printf("%-42s %10s %10s  %s\n", "metric", "value", "target", "status");
  for (i = 0; i < nrows; i++) {
    char tgt[32];
    const char *st;
    if (rows[i].cmp == 0) snprintf(tgt, sizeof tgt, "-");
    else snprintf(tgt, sizeof tgt, "%s %g", rows[i].cmp > 0 ? ">=" : "<=", rows[i].target);
    if (isnan(rows[i].value)) st = "n/a";
    else if (rows[i].cmp == 0) st = "";
    else if (rows[i].cmp > 0 ? rows[i].value >= rows[i].target : rows[i].value <= rows[i].target) st = "ok";
    else st = "MISSED", missed++;
    printf("%-42s %10.3f %10s  %s\n", rows[i].metric, rows[i].value, tgt, st);
  }
  printf("%d target%s missed\n", missed, missed == 1 ? "" : "s");
}

/* ---- gemm ---- */
typedef struct {
  int n;
  ct_dtype dtype;
  ct_tensor *a, *b, *c;  /* ctorch's operands on the GPU */
  void *dc;              /* cuBLAS's own output buffer */
  cublasHandle_t handle;
  cudaStream_t stream;   /* cuBLAS's stream */
  cudaEvent_t e0, e1;
  ct_event ce0, ce1;     /* ctorch's events (on its current stream) */
  int ct_events;         /* 0: ctorch timed on the host clock around synchronizes */
} gemm_ctx;

static double run_ct_gemm(void *p, long calls) {
  gemm_ctx *g = (gemm_ctx *)p;
  long i;
  double t0 = 0, ms = 0;
  ct_stream s = ct_current_stream(dev);
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  if (g->ct_events) ct_check(ct_event_record(&g->ce0, s), "ct_event_record");
  else t0 = now_ns();
  for (i = 0; i < calls; i++)
    if (ct_mm_out(g->c, g->a, g->b) != CT_OK) die("ct_mm_out");
  if (!g->ct_events) {
    ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
    return now_ns() - t0;
  }
  ct_check(ct_event_record(&g->ce1, s), "ct_event_record");
  ct_check(ct_event_synchronize(&g->ce1), "ct_event_synchronize");
  ct_check(ct_event_elapsed_ms(&g->ce0, &g->ce1, &ms), "ct_event_elapsed_ms");
  return ms * 1e6;
}
static double run_cublas_gemm(void *p, long calls) {
  gemm_ctx *g = (gemm_ctx *)p;
  const float one = 1.0f, zero = 0.0f;
  cudaDataType t = g->dtype == CT_BF16 ? CUDA_R_16BF : CUDA_R_32F;
  float ms = 0;
  long i;
  cuda_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  cuda_check(cudaEventRecord(g->e0, g->stream), "cudaEventRecord");
  /* row-major C = A B is column-major C^T = B^T A^T: B first */
  for (i = 0; i < calls; i++)
    cublas_check(cublasGemmEx(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one, ct_data_ptr(g->b), t, g->n,
                              ct_data_ptr(g->a), t, g->n, &zero, g->dc, t, g->n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  cuda_check(cudaEventRecord(g->e1, g->stream), "cudaEventRecord");
  cuda_check(cudaEventSynchronize(g->e1), "cudaEventSynchronize");
  cuda_check(cudaEventElapsedTime(&ms, g->e0, g->e1), "cudaEventElapsedTime");
  return (double)ms * 1e6;
}

static void section_gemm(void) {
  static const int sizes[3] = {1024, 4096, 8192};
  int max = (int)env_long("BENCH_GEMM_MAX", 8192), s, d, reps0 = reps;
  double target0 = target_ms;
  gemm_ctx g;
  memset(&g, 0, sizeof g);
  /* Twice the repeats of half the length: the small bf16 GEMMs run near the
   * rate the host can queue them, and finer interleaving gives more pairs. */
  reps = 2 * reps + 1 < 63 ? 2 * reps + 1 : 63;
  target_ms /= 2;
  cublas_check(cublasCreate(&g.handle), "cublasCreate");
  cuda_check(cudaStreamCreateWithFlags(&g.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cublas_check(cublasSetStream(g.handle, g.stream), "cublasSetStream");
  cublas_check(cublasSetMathMode(g.handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode"); /* no TF32 */
  cuda_check(cudaEventCreate(&g.e0), "cudaEventCreate");
  cuda_check(cudaEventCreate(&g.e1), "cudaEventCreate");
  g.ct_events = ct_event_create(dev, CT_EVENT_TIMING, &g.ce0) == CT_OK && ct_event_create(dev, CT_EVENT_TIMING, &g.ce1) == CT_OK;
  printf("\n== GEMM C = A @ B, square: ct_mm_out vs cublasGemmEx (%s timing); TFLOP/s, ratio = ctorch / cuBLAS\n",
         g.ct_events ? "event" : "ctorch: host clock + synchronize (no ctorch events), cuBLAS: event");
  printf("%-6s %-5s %10s %10s %8s", "n", "dtype", "ctorch", "cuBLAS", "ratio");
  if (torch_file) printf(" %10s %12s", "torch", "ctorch/torch");
  printf("\n");
  for (s = 0; s < 3; s++) {
    ct_tensor *a32, *b32;
    int n = sizes[s];
    if (n > max) continue;
    a32 = dev_tensor(n, n, 1u + (unsigned)s);
    b32 = dev_tensor(n, n, 7u + (unsigned)s);
    cuda_check(cudaMalloc(&g.dc, sizeof(float) * (size_t)n * (size_t)n), "cudaMalloc");
    for (d = 0; d < 2; d++) {
      run_fn f[2] = {run_ct_gemm, run_cublas_gemm};
      void *ctx[2] = {&g, &g};
      long calls[2] = {0, 0};
      double med[2], flop = 2.0 * n * (double)n * n, tc, tb, tt, ratio;
      char key[64], metric[64];
      g.n = n;
      g.dtype = d ? CT_BF16 : CT_F32;
      if (d) {
        g.a = nn(ct_to_dtype(a32, CT_BF16), "ct_to_dtype (bf16)");
        g.b = nn(ct_to_dtype(b32, CT_BF16), "ct_to_dtype (bf16)");
      } else {
        g.a = ct_retain(a32);
        g.b = ct_retain(b32);
      }
      g.c = nn(ct_empty_ex(CT_DIMS(n, n), g.dtype, dev, false), "ct_empty_ex");
      measure(2, f, ctx, calls, 3, med);
      tc = flop / med[0] / 1e3; /* flop per ns = GFLOP/s; /1e3: TFLOP/s */
      tb = flop / med[1] / 1e3;
      ratio = paired_ratio(1, 0); /* TFLOP/s ratio ctorch / cuBLAS = time cuBLAS / time ctorch */
      printf("%-6d %-5s %10.1f %10.1f %8.3f", n, d ? "bf16" : "f32", tc, tb, ratio);
      snprintf(key, sizeof key, "mm_tflops_%s_%d", d ? "bf16" : "f32", n);
      tt = torch_num(key);
      if (torch_file) printf(" %10.1f %12.3f", tt, tc / tt);
      printf("\n");
      snprintf(metric, sizeof metric, "gemm %s %d ctorch/cuBLAS", d ? "bf16" : "f32", n);
      summary_add(metric, ratio, +1, 0.97);
      ct_release(g.a), ct_release(g.b), ct_release(g.c);
      g.a = g.b = g.c = NULL;
    }
    ct_release(a32), ct_release(b32);
    cuda_check(cudaFree(g.dc), "cudaFree");
    g.dc = NULL;
  }
  printf("(f32 without TF32 on both sides, bf16 accumulating in f32; TFLOP/s from the median time of %d repeats of\n"
         " ~%.0f ms per side; ratio: the median of the %d per-repeat ratios)\n", reps, target_ms, reps);
  reps = reps0;
  target_ms = target0;
  if (g.ct_events) ct_event_destroy(&g.ce0), ct_event_destroy(&g.ce1);
  cudaEventDestroy(g.e0), cudaEventDestroy(g.e1);
  cublasDestroy(g.handle);
  cudaStreamDestroy(g.stream);
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  ct_device_empty_cache(dev); /* give the big blocks back before the other sections */
}

/* ---- tiny ops: host time per call ---- */
typedef struct {
  int which; /* 0: r = ct_add(x, x), 1: ct_add_out(out, x, x), 2: ct_cuda_launch_empty() */
  ct_tensor *x, *out;
} tiny_ctx;
static double run_tiny(void *p, long calls) {
  tiny_ctx *c = (tiny_ctx *)p;
  long i;
  int bad = 0;
  double t0, t1;
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  t0 = now_ns();
  switch (c->which) {
  case 0:
    for (i = 0; i < calls; i++) {
      ct_tensor *r = ct_add(c->x, c->x);
      bad |= r == NULL;
      ct_release(r);
    }
    break;
  case 1:
    for (i = 0; i < calls; i++) bad |= ct_add_out(c->out, c->x, c->x) != CT_OK;
    break;
  default:
    for (i = 0; i < calls; i++) bad |= ct_cuda_launch_empty() != CT_OK;
    break;
  }
  bad |= ct_device_synchronize(dev) != CT_OK;
  t1 = now_ns();
  if (bad) die(c->which == 0 ? "ct_add" : c->which == 1 ? "ct_add_out" : "ct_cuda_launch_empty");
  return t1 - t0;
}
static void section_tiny(void) {
  static const char *const names[3] = {"add (functional)", "add_out", "empty kernel launch"};
  static const char *const tkeys[3] = {"tiny_add_us", "tiny_add_out_us", NULL};
  tiny_ctx c[3];
  run_fn f[3] = {run_tiny, run_tiny, run_tiny};
  void *ctx[3] = {&c[0], &c[1], &c[2]};
  long calls[3] = {tiny_calls, tiny_calls, tiny_calls};
  double med[3], rat[3];
  ct_tensor *x = nn(ct_full_ex(CT_DIMS(1), ct_float(1.0), CT_F32, dev), "ct_full_ex");
  ct_tensor *out = nn(ct_empty_ex(CT_DIMS(1), CT_F32, dev, false), "ct_empty_ex");
  int k;
  for (k = 0; k < 3; k++) c[k].which = k, c[k].x = x, c[k].out = out;
  measure(3, f, ctx, calls, tiny_calls / 4 > 1000 ? tiny_calls / 4 : 1000, med);
  for (k = 0; k < 3; k++) rat[k] = paired_ratio(k, 2);
  printf("\n== tiny op: 1-element f32 on the GPU, host time per call (%ld calls, one synchronize at the end); us\n",
         tiny_calls);
  printf("%-20s %10s %12s", "op", "ctorch", "/empty");
  if (torch_file) printf(" %10s %14s", "torch", "ctorch/torch");
  printf("\n");
  for (k = 0; k < 3; k++) {
    double us = med[k] / 1e3;
    printf("%-20s %10.3f %12.3f", names[k], us, rat[k]);
    if (torch_file && tkeys[k]) printf(" %10.3f %14.3f", torch_num(tkeys[k]), us / torch_num(tkeys[k]));
    printf("\n");
  }
  printf("(/empty: the median of the %d per-repeat ratios to the empty launch)\n", reps);
  summary_add("tiny add / empty launch", rat[0], -1, 1.5);
  summary_add("tiny add_out / empty launch", rat[1], -1, 1.5);
  if (torch_file) {
    summary_add("tiny add ctorch/torch", med[0] / 1e3 / torch_num(tkeys[0]), -1, 0.25);
    summary_add("tiny add_out ctorch/torch", med[1] / 1e3 / torch_num(tkeys[1]), -1, 0.25);
  }
  ct_release(x), ct_release(out);
}

/* ---- reductions: bandwidth of the reduction loop's kernels ---- */
enum { NRED = 6 };
static const struct {
  const char *name, *key;
  int64_t rows, cols; /* cols 0: a vector */
} red_cases[NRED] = {
    {"sum dim 1 [4096,4096]", "red_sum_rows", 4096, 4096}, {"sum dim 0 [4096,4096]", "red_sum_cols", 4096, 4096},
    {"sum all [16M]", "red_sum_all", 16777216, 0},        {"amax dim 1 [4096,4096]", "red_amax_rows", 4096, 4096},
    {"var dim 1 [4096,4096]", "red_var_rows", 4096, 4096}, {"argmax dim 1 [4096,4096]", "red_argmax_rows", 4096, 4096},
};
typedef struct {
  int which;
  ct_tensor *x;
} red_ctx;
static double run_red(void *p, long calls) {
  red_ctx *c = (red_ctx *)p;
  int64_t d1 = 1, d0 = 0;
  long i;
  int bad = 0;
  double t0;
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  t0 = now_ns();
  for (i = 0; i < calls; i++) {
    ct_tensor *r;
    switch (c->which) {
    case 0: r = ct_sum_dim(c->x, 1, &d1, false); break;
    case 1: r = ct_sum_dim(c->x, 1, &d0, false); break;
    case 2: r = ct_sum(c->x); break;
    case 3: r = ct_amax(c->x, 1, &d1, false); break;
    case 4: r = ct_var(c->x, 1, &d1); break;
    default: r = ct_argmax(c->x, 1, false); break;
    }
    bad |= r == NULL;
    ct_release(r);
  }
  bad |= ct_device_synchronize(dev) != CT_OK;
  if (bad) die(red_cases[c->which].name);
  return now_ns() - t0;
}
static void section_reduce(void) {
  red_ctx c;
  run_fn f[1] = {run_red};
  void *ctx[1] = {&c};
  ct_cuda_counters k0, k1;
  int k;
  printf("\n== reductions, f32 on the GPU: GB/s of input read (median of %d blocks of ~%.0f ms, synchronized)\n", reps,
         target_ms);
  printf("%-26s %10s", "op", "ctorch");
  if (torch_file) printf(" %10s %14s", "torch", "ctorch/torch");
  printf("\n");
  ct_cuda_counters_get(&k0);
  for (k = 0; k < NRED; k++) {
    long calls[1] = {0};
    double med[1], gbs, tg;
    c.which = k;
    c.x = dev_tensor(red_cases[k].rows, red_cases[k].cols, 7u + (unsigned)k);
    measure(1, f, ctx, calls, 3, med);
    gbs = (double)c.x->numel * 4 / med[0];
    printf("%-26s %10.1f", red_cases[k].name, gbs);
    if (torch_file) {
      char key[64];
      snprintf(key, sizeof key, "%s_gbs", red_cases[k].key);
      tg = torch_num(key);
      printf(" %10.1f %14.3f", tg, gbs / tg);
      snprintf(key, sizeof key, "%s GB/s ctorch/torch", red_cases[k].key);
      summary_add(key, gbs / tg, 0, 0);
    }
    printf("\n");
    ct_release(c.x);
  }
  ct_cuda_counters_get(&k1);
  printf("(reduction launches: %lld native, %lld staged on the host)\n", (long long)(k1.reduction_native - k0.reduction_native),
         (long long)(k1.reduction_staged - k0.reduction_staged));
}

/* ---- the MLP training step: 32 -> 64 -> 64 -> 8 ---- */
enum { IN = 32, H = 64, OUT = 8, NB = 2 };
static const int mlp_batches[NB] = {1, 256};
static ct_tensor *params[6]; /* w1 [H][IN], b1, w2 [H][H], b2, w3 [OUT][H], b3 */
static ct_tensor *mx[NB], *my[NB];
static const double lr = 0.01;

static void mlp_init(void) {
  static const int64_t shp[6][2] = {{H, IN}, {H, 0}, {H, H}, {H, 0}, {OUT, H}, {OUT, 0}};
  int k;
  for (k = 0; k < 6; k++) {
    params[k] = dev_tensor(shp[k][0], shp[k][1], 11u + (unsigned)k);
    ct_check(ct_set_requires_grad(params[k], true), "ct_set_requires_grad");
  }
  for (k = 0; k < NB; k++) {
    mx[k] = dev_tensor(mlp_batches[k], IN, 21u + (unsigned)k);
    my[k] = dev_tensor(mlp_batches[k], OUT, 31u + (unsigned)k);
  }
}
static void mlp_free(void) {
  int k;
  for (k = 0; k < 6; k++) ct_release(params[k]), params[k] = NULL;
  for (k = 0; k < NB; k++) ct_release(mx[k]), ct_release(my[k]), mx[k] = my[k] = NULL;
}
/* as a PyTorch user writes it: nn.Linear layers, MSELoss, backward, SGD
 * under no_grad, zero_grad(set_to_none=True) */
static void mlp_step(int b) {
  CT_SCOPE {
    ct_tensor *h1 = nn(ct_relu(nn(ct_linear(mx[b], params[0], params[1]), "ct_linear 1")), "ct_relu 1");
    ct_tensor *h2 = nn(ct_relu(nn(ct_linear(h1, params[2], params[3]), "ct_linear 2")), "ct_relu 2");
    ct_tensor *o = nn(ct_linear(h2, params[4], params[5]), "ct_linear 3");
    ct_tensor *loss = nn(ct_mse_loss(o, my[b], 1), "ct_mse_loss");
    int k;
    ct_check(ct_backward(loss), "ct_backward");
    CT_NO_GRAD {
      for (k = 0; k < 6; k++) ct_check(ct_sub_ex_(params[k], ct_grad(params[k]), ct_float(lr)), "SGD update (ct_sub_ex_)");
    }
    for (k = 0; k < 6; k++) ct_check(ct_set_grad(params[k], NULL), "ct_set_grad (zero grads)");
  }
}
typedef struct {
  int b;
  long steps;                   /* timed steps so far */
  int64_t mallocs;              /* cudaMalloc calls during them */
  ct_cuda_counters cnt;         /* backend counters during them */
} mlp_ctx;
static double run_mlp(void *p, long calls) {
  mlp_ctx *c = (mlp_ctx *)p;
  ct_device_stats s0, s1;
  ct_cuda_counters k0, k1;
  long i;
  double t0, t1;
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  ct_check(ct_device_memory_stats(dev, &s0), "ct_device_memory_stats");
  ct_cuda_counters_get(&k0);
  t0 = now_ns();
  for (i = 0; i < calls; i++) mlp_step(c->b);
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  t1 = now_ns();
  ct_check(ct_device_memory_stats(dev, &s1), "ct_device_memory_stats");
  ct_cuda_counters_get(&k1);
  if (timing_phase) {
    c->steps += calls;
    c->mallocs += s1.system_allocs - s0.system_allocs;
    c->cnt.pointwise_native += k1.pointwise_native - k0.pointwise_native;
    c->cnt.pointwise_staged += k1.pointwise_staged - k0.pointwise_staged;
    c->cnt.reduction_native += k1.reduction_native - k0.reduction_native;
    c->cnt.reduction_staged += k1.reduction_staged - k0.reduction_staged;
    c->cnt.gemm_native += k1.gemm_native - k0.gemm_native;
    c->cnt.gemm_fallback += k1.gemm_fallback - k0.gemm_fallback;
  }
  return t1 - t0;
}
static void section_mlp(void) {
  mlp_ctx c[NB];
  double med[NB][1];
  int b;
  mlp_init();
  memset(c, 0, sizeof c);
  for (b = 0; b < NB; b++) {
    run_fn f[1] = {run_mlp};
    void *ctx[1] = {&c[b]};
    long calls[1] = {0};
    c[b].b = b;
    measure(1, f, ctx, calls, 20, med[b]);
  }
  printf("\n== MLP 32-64-64-8 training step (ct_linear, ReLU, MSE, backward, SGD, grads to None) on the GPU;"
         " host us per step\n");
  printf("%-6s %10s", "batch", "ctorch");
  if (torch_file) printf(" %10s %14s", "torch", "ctorch/torch");
  printf(" %14s", "cudaMalloc/st");
  if (torch_file) printf(" %14s", "torch malloc/st");
  printf("\n");
  for (b = 0; b < NB; b++) {
    char key[64], metric[64];
    double us = med[b][0] / 1e3, tt, per = c[b].steps ? (double)c[b].mallocs / (double)c[b].steps : NAN;
    snprintf(key, sizeof key, "mlp_step_us_b%d", mlp_batches[b]);
    tt = torch_num(key);
    printf("%-6d %10.1f", mlp_batches[b], us);
    if (torch_file) printf(" %10.1f %14.3f", tt, us / tt);
    printf(" %14.3f", per);
    if (torch_file) {
      snprintf(key, sizeof key, "mlp_mallocs_per_step_b%d", mlp_batches[b]);
      printf(" %14.3f", torch_num(key));
    }
    printf("\n");
    if (torch_file) {
      snprintf(metric, sizeof metric, "mlp step b%d ctorch/torch", mlp_batches[b]);
      summary_add(metric, us / tt, 0, 0);
    }
    snprintf(metric, sizeof metric, "cudaMalloc per step b%d", mlp_batches[b]);
    summary_add(metric, per, -1, 0);
  }
  for (b = 0; b < NB; b++) {
    double st = c[b].steps ? (double)c[b].steps : 1;
    printf("batch %-3d backend ops per step: pointwise %.1f native, %.1f staged; reduction %.1f native, %.1f staged; "
           "gemm %.1f native, %.1f fallback\n",
           mlp_batches[b], (double)c[b].cnt.pointwise_native / st, (double)c[b].cnt.pointwise_staged / st,
           (double)c[b].cnt.reduction_native / st, (double)c[b].cnt.reduction_staged / st, (double)c[b].cnt.gemm_native / st,
           (double)c[b].cnt.gemm_fallback / st);
  }
  printf("(cudaMalloc per step: ct_device_memory_stats system_allocs over the %d timed blocks; target 0)\n", reps);
  mlp_free();
}

int main(int argc, char **argv) {
  const char *only = argc > 1 ? argv[1] : "";
  struct cudaDeviceProp prop;
  int rt = 0, drv = 0, ncuda = 0;
  ct_status st = ct_cuda_register();
  if (st != CT_OK) die("ct_cuda_register");
  if (ct_cuda_device_count() <= 0 || cudaGetDeviceCount(&ncuda) != cudaSuccess || ncuda <= 0) {
    printf("SKIP: no CUDA device\n");
    return 0;
  }
  reps = (int)env_long("BENCH_REPEATS", 7);
  if (reps > 64) reps = 64;
  tiny_calls = env_long("BENCH_CALLS", 20000);
  if (getenv("BENCH_MS") && atof(getenv("BENCH_MS")) > 0) target_ms = atof(getenv("BENCH_MS"));
  dev = ct_device_make(CT_DEVICE_CUDA, 0);
  ct_check(ct_device_set(dev), "ct_device_set");
  cuda_check(cudaSetDevice(0), "cudaSetDevice");
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  cudaRuntimeGetVersion(&rt);
  cudaDriverGetVersion(&drv);
  ct_cuda_set_allow_tf32(false); /* f32 GEMMs in full f32, as cuBLAS's default math mode below */
  torch_load();

  printf("bench_cuda: ctorch %s on %s (sm_%d%d, %d SMs, %.1f GiB), %d CUDA device%s\n", CT_VERSION_STRING, prop.name,
         prop.major, prop.minor, prop.multiProcessorCount, (double)prop.totalGlobalMem / (1024.0 * 1024 * 1024),
         ct_cuda_device_count(), ct_cuda_device_count() == 1 ? "" : "s");
  printf("CUDA runtime %d.%d (backend reports %d), driver %d.%d; cuBLAS linked directly for the reference;"
         " TF32 %s\n", rt / 1000, (rt % 1000) / 10, ct_cuda_runtime_version(), drv / 1000, (drv % 1000) / 10,
         ct_cuda_allow_tf32() ? "on" : "off");
  printf("medians of %d interleaved repeats\n", reps);
  if (torch_file) {
    const char *v = torch_str("version"), *d = torch_str("device"), *c = torch_str("cuda");
    if (ntorch == 0)
      printf("PyTorch: %s has no results%s%s; ctorch only\n", torch_file, *torch_skip ? ": " : "", torch_skip);
    else
      printf("PyTorch %s (CUDA %s) on %s, eager from Python, figures from %s\n", v ? v : "?", c ? c : "?", d ? d : "?",
             torch_file);
    if (ntorch == 0) torch_file = NULL;
  } else {
    printf("PyTorch: not compared (python3 bench/cuda_torch.py > FILE; CT_BENCH_TORCH=FILE)\n");
  }
  fflush(stdout);

  if (!*only || strstr(only, "gemm")) section_gemm();
  fflush(stdout);
  if (!*only || strstr(only, "tiny")) section_tiny();
  fflush(stdout);
  if (!*only || strstr(only, "reduce")) section_reduce();
  fflush(stdout);
  if (!*only || strstr(only, "mlp")) section_mlp();
  summary_print();
  ct_check(ct_device_synchronize(dev), "ct_device_synchronize");
  { /* every tensor of the run is released by now */
    ct_device_stats ds;
    if (ct_device_memory_stats(dev, &ds) == CT_OK && (ds.allocated_blocks || ds.allocated_bytes))
      printf("note: %lld device blocks (%lld bytes) still allocated at exit: a leak\n", (long long)ds.allocated_blocks,
             (long long)ds.allocated_bytes);
  }
  return 0;
}
