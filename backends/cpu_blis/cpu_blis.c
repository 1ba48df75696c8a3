/* backends/cpu_blis/cpu_blis.c - ctorch's CPU backend on BLIS.
 *
 * A separately compiled unit (build/libctorch_blis.a, build/libctorch_blis.so,
 * build/cpu_blis.o; `make blis`). Linked into a program that has ctorch's
 * implementation (one TU with CTORCH_IMPLEMENTATION), it registers at
 * startup with priority 10 and replaces the reference CPU kernels of:
 *   mm, mm.out, addmm, addmm.out, addmm_, baddbmm_, bmm, bmm.out, baddbmm, baddbmm.out, mv,
 *   mv.out, dot, dot.out, linear (those the build defines; matmul and conv
 *   reach them through ct_mm / ct_addmm), and the f32/f64 contiguous cases
 *   of add.Tensor, sub.Tensor, mul.Tensor, relu, threshold_backward and sum
 *   (mean reaches sum: it is composite) (vectorised, parallel over ct_parallel_for above a threshold,
 *   fixed chunking so results do not depend on the thread count), and of exp,
 *   sigmoid, tanh, softmax.int(_out) and log_softmax.int(_out) (a vectorised
 *   f32 exp; rows in parallel), and of convolution, convolution_backward_input
 *   and convolution_backward_weight for 2-D, stride 1, dilation 1, groups 1,
 *   1x1 / 3x3 kernels with padding <= kernel / 2 and contiguous input and
 *   weight (direct register-tiled kernels instead of im2col + GEMM; see
 *   "direct convolution" below).
 * Anything else (other dtypes, broadcasting, odd strides, errors) goes to
 * the kernel it replaced, so the reference semantics stay in one place.
 *
 * GEMM: f32/f64 operands are passed to BLIS with their row and column
 * strides (transposed and sliced matrices need no copy). Below a measured
 * crossover (CT_BLIS_SMALL_FLOPS multiply-adds) a register-blocked plain-C
 * kernel runs instead, since a BLIS call costs about 1 us (and up to 768^3
 * when BLIS runs its unoptimised generic sub-configuration). BLIS gets
 * ct_get_num_threads() threads only from CT_BLIS_THREAD_FLOPS up (two
 * threads help from about 256^3), else 1.
 *
 * Static archives: the linker keeps this object only when something
 * references it. Link with -Wl,-u,ct_cpu_blis_anchor (what `make blis-flags`
 * prints), or call ct_cpu_blis_register() yourself.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp): the feature-test macro; blis.h needs pthread barriers */
#endif
#include "ctorch.h"
#include <blis.h>
#include <math.h>
#include "ctorch_blis.h"

#ifndef CT_BLIS_SMALL_FLOPS
#define CT_BLIS_SMALL_FLOPS (16 * 16 * 32) /* m*n*k below which the plain-C kernel runs */
#endif
#ifndef CT_BLIS_SMALL_GEMV_FLOPS
#define CT_BLIS_SMALL_GEMV_FLOPS (1 << 17) /* the same for m or n <= 2 (GEMV-like products) */
#endif
#ifndef CT_BLIS_GENERIC_SMALL_FLOPS
/* The same when BLIS runs its unoptimised 'generic' sub-configuration (BLIS
 * 0.9 picks it on CPUs it does not know, e.g. AMD Zen 5: 34 GFLOP/s where the
 * plain-C kernel makes 80 up to n = 512 and still beats it at 1024). */
#define CT_BLIS_GENERIC_SMALL_FLOPS ((int64_t)768 * 768 * 768)
#endif
#ifndef CT_BLIS_BATCH_SMALL_FLOPS
#define CT_BLIS_BATCH_SMALL_FLOPS (32 * 32 * 32) /* m*n*k up to which each product of a row-stored batch runs the plain-C kernel */
#endif
#ifndef CT_BLIS_THREAD_FLOPS
#define CT_BLIS_THREAD_FLOPS ((int64_t)192 * 192 * 192) /* m*n*k from which BLIS gets more than one thread */
#endif
#ifndef CT_BLIS_GRAIN
#define CT_BLIS_GRAIN 65536 /* elements per chunk of a parallel pointwise loop or reduction */
#endif

#if (defined(__GNUC__) && !defined(__clang__)) && (defined(__x86_64__) || defined(__i386__)) && !defined(CT_BLIS_NO_CLONES)
#define CTB__BLIS_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define CTB__BLIS_CLONES
#endif

const char ct_cpu_blis_version[] = "cpu_blis 0.1"; /* BLIS's own: bli_info_get_version_str() */

enum {
  K_MM, K_MM_OUT, K_ADDMM, K_ADDMM_OUT, K_ADDMM_, K_BADDBMM_, K_BMM, K_BMM_OUT, K_BADDBMM, K_BADDBMM_OUT, K_MV, K_MV_OUT, K_DOT, K_DOT_OUT,
  K_ADD, K_SUB, K_MUL, K_RELU, K_RELU_, K_ADD_, K_SUB_, K_MUL_, K_FILL_, K_THRESHOLD_BW, K_SUM, K_SUM_DIM,
  K_EXP, K_SIGMOID, K_TANH, K_SOFTMAX, K_SOFTMAX_OUT, K_LOG_SOFTMAX, K_LOG_SOFTMAX_OUT, K_LINEAR,
  K_CONVOLUTION, K_CONVOLUTION_BACKWARD_INPUT, K_CONVOLUTION_BACKWARD_WEIGHT, K_COUNT
};

static int64_t ctb__small_flops = CT_BLIS_SMALL_FLOPS, ctb__thread_flops = CT_BLIS_THREAD_FLOPS;
static int ctb__small_flops_set; /* by the knob or $CT_BLIS_SMALL_FLOPS: left alone by the arch check */
/* Tuning knobs (benchmarks, experiments): set, return the previous value. */
int64_t ct_cpu_blis_set_small_flops(int64_t v) {
  int64_t old = ctb__small_flops;
  ctb__small_flops = v;
  ctb__small_flops_set = 1;
  return old;
}
/* Which BLIS sub-configuration runs; with the generic one the plain-C kernel
 * keeps products up to CT_BLIS_GENERIC_SMALL_FLOPS. $CT_BLIS_SMALL_FLOPS
 * overrides both. */
static void ctb__pick_crossover(void) {
  const char *env = getenv("CT_BLIS_SMALL_FLOPS");
  char *end = NULL;
  long long v;
  if (ctb__small_flops_set) return;
  v = env && *env ? strtoll(env, &end, 10) : -1;
  if (v >= 0 && end && *end == 0) { /* a non-negative number; anything else is ignored */
    ctb__small_flops = (int64_t)v;
    ctb__small_flops_set = 1;
  } else if (bli_arch_query_id() == BLIS_ARCH_GENERIC) {
    ctb__small_flops = CT_BLIS_GENERIC_SMALL_FLOPS;
  }
}
const char *ct_cpu_blis_arch(void) { return bli_arch_string(bli_arch_query_id()); }
int64_t ct_cpu_blis_set_thread_flops(int64_t v) {
  int64_t old = ctb__thread_flops;
  ctb__thread_flops = v;
  return old;
}

/* ---- threads ---- */
static void ctb__blis_set_threads(int n) { bli_thread_set_num_threads((dim_t)n); }

/* ---- GEMM core: C = alpha * A B + beta * C over strided operands ---- */
typedef struct {
  int64_t m, n, k;
  const void *a, *b;
  void *c;
  int64_t rsa, csa, rsb, csb, rsc, csc; /* element strides */
  double alpha, beta;                  /* beta 0: C is not read */
} ctb__gemm_args;

/* Plain-C kernels for small products (no packing, no call overhead).
 * Rows of B and C contiguous: register blocks of MR x NR outputs accumulate
 * over all of k (the compiler keeps acc in vector registers and broadcasts
 * A), edge blocks use the same code with fewer rows. Columns of B and rows of
 * A contiguous (x @ W.t()): dot products with 8 independent partial sums.
 * Otherwise a strided triple loop. */
#define CTB__MR 4
#define CTB__NR 16
/* acc[0..ROWS) = A[0..ROWS, :] x B[:, 0..NR): the NR columns as 32-byte
 * vectors (GCC/Clang vector extensions) held in registers over all of k. */
#define CTB__GEMM_BLOCK(NAME, T, V, VU, ROWS, NVEC)                                                                      \
  CTB__BLIS_CLONES static void NAME(const T *A, int64_t rsa, int64_t csa, const T *B, int64_t rsb, int64_t k,        \
                                    T acc[CTB__MR][CTB__NR]) {                                                       \
    enum { VL = 32 / (int)sizeof(T), NV = NVEC };                                                                    \
    V c[ROWS][NV], zero = {0};                                                                                       \
    int64_t p;                                                                                                       \
    int r, v;                                                                                                        \
    for (r = 0; r < ROWS; r++)                                                                                       \
      for (v = 0; v < NV; v++) c[r][v] = zero;                                                                       \
    for (p = 0; p < k; p++) {                                                                                        \
      V b[NV];                                                                                                       \
      for (v = 0; v < NV; v++) b[v] = *(const VU *)(B + p * rsb + v * VL);                                           \
      for (r = 0; r < ROWS; r++) {                                                                                   \
        V a = zero + A[r * rsa + p * csa];                                                                           \
        for (v = 0; v < NV; v++) c[r][v] += a * b[v];                                                                \
      }                                                                                                              \
    }                                                                                                                \
    for (r = 0; r < ROWS; r++)                                                                                       \
      for (v = 0; v < NV; v++) *(VU *)(acc[r] + v * VL) = c[r][v];                                                   \
  }
/* One row (m = 1, the batch-1 case): four independent accumulator sets over
 * k, so the FMA latency chain is a quarter as long; summed in a fixed order. */
#define CTB__GEMM_ROW1(NAME, T, V, VU, NVEC)                                                                         \
  CTB__BLIS_CLONES static void NAME(const T *A, int64_t rsa, int64_t csa, const T *B, int64_t rsb, int64_t k,        \
                                    T acc[CTB__MR][CTB__NR]) {                                                       \
    enum { VL = 32 / (int)sizeof(T), NV = NVEC };                                                                    \
    V c0[NV], c1[NV], c2[NV], c3[NV], zero = {0};                                                                    \
    int64_t p = 0;                                                                                                   \
    int v;                                                                                                           \
    (void)rsa;                                                                                                       \
    for (v = 0; v < NV; v++) c0[v] = c1[v] = c2[v] = c3[v] = zero;                                                   \
    for (; p + 4 <= k; p += 4) {                                                                                     \
      V a0 = zero + A[p * csa], a1 = zero + A[(p + 1) * csa], a2 = zero + A[(p + 2) * csa],                         \
        a3 = zero + A[(p + 3) * csa];                                                                                \
      for (v = 0; v < NV; v++) {                                                                                     \
        c0[v] += a0 * *(const VU *)(B + p * rsb + v * VL);                                                           \
        c1[v] += a1 * *(const VU *)(B + (p + 1) * rsb + v * VL);                                                     \
        c2[v] += a2 * *(const VU *)(B + (p + 2) * rsb + v * VL);                                                     \
        c3[v] += a3 * *(const VU *)(B + (p + 3) * rsb + v * VL);                                                     \
      }                                                                                                              \
    }                                                                                                                \
    for (; p < k; p++) {                                                                                             \
      V a = zero + A[p * csa];                                                                                       \
      for (v = 0; v < NV; v++) c0[v] += a * *(const VU *)(B + p * rsb + v * VL);                                     \
    }                                                                                                                \
    for (v = 0; v < NV; v++) *(VU *)(acc[0] + v * VL) = (c0[v] + c1[v]) + (c2[v] + c3[v]);                           \
  }
#define CTB__WIDE(T) ((int64_t)(256 / sizeof(T))) /* columns of the one-row kernel: 8 vectors */
/* One row, 8 vectors of columns at a time (the batch-1 case): 8 accumulators
 * (enough to hide the FMA latency), one broadcast of A per k step; writes
 * C = alpha acc + beta C directly. */
#define CTB__GEMM_WIDE(NAME, T, V, VU)                                                                               \
  CTB__BLIS_CLONES static void NAME(const T *A, int64_t csa, const T *B, int64_t rsb, int64_t k, T *C, T alpha,     \
                                    T beta) {                                                                        \
    enum { VL = 32 / (int)sizeof(T), NV = 8 };                                                                       \
    V c[NV], zero = {0};                                                                                             \
    int64_t p;                                                                                                       \
    int v;                                                                                                           \
    for (v = 0; v < NV; v++) c[v] = zero;                                                                            \
    for (p = 0; p < k; p++) {                                                                                        \
      V a = zero + A[p * csa];                                                                                       \
      for (v = 0; v < NV; v++) c[v] += a * *(const VU *)(B + p * rsb + v * VL);                                      \
    }                                                                                                                \
    for (v = 0; v < NV; v++) {                                                                                       \
      V r = c[v] * (zero + alpha);                                                                                   \
      if (beta != 0) r += (zero + beta) * *(const VU *)(C + v * VL);                                                 \
      *(VU *)(C + v * VL) = r;                                                                                       \
    }                                                                                                                \
  }
/* The four dots' lanes summed as ((0+4)+(1+5))+((2+6)+(3+7)) each, with
 * vector shuffles (h = low half + high half = the inner pairs; two pairwise
 * rounds then give every dot's sum in that order). */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define CTB__SHUFFLE_OK 1
#define CTB__DOT_REDUCE4(T, HALVES, acc, C, csc, alpha, beta)                                                         \
  do {                                                                                                               \
    typedef T V4 __attribute__((vector_size(4 * sizeof(T))));                                                        \
    V4 h[4], u01, u23, r;                                                                                            \
    int q_;                                                                                                          \
    for (q_ = 0; q_ < 4; q_++) h[q_] = HALVES(acc[q_]);                                                               \
    u01 = __builtin_shufflevector(h[0], h[1], 0, 2, 4, 6) + __builtin_shufflevector(h[0], h[1], 1, 3, 5, 7);         \
    u23 = __builtin_shufflevector(h[2], h[3], 0, 2, 4, 6) + __builtin_shufflevector(h[2], h[3], 1, 3, 5, 7);         \
    r = __builtin_shufflevector(u01, u23, 0, 2, 4, 6) + __builtin_shufflevector(u01, u23, 1, 3, 5, 7);               \
    for (q_ = 0; q_ < 4; q_++) (C)[q_ * (csc)] = alpha * r[q_] + (beta == 0 ? (T)0 : beta * (C)[q_ * (csc)]);        \
  } while (0)
#else
#define CTB__SHUFFLE_OK 0
#define CTB__DOT_REDUCE4(T, HALVES, acc, C, csc, alpha, beta) ((void)0)
#endif
/* lanes 0-3 + lanes 4-7 of one dot's 8 partial sums: one 8-wide f32 vector, or two 4-wide f64 ones */
#define CTB__HALVES_F32(a) (__builtin_shufflevector((a)[0], (a)[0], 0, 1, 2, 3) + __builtin_shufflevector((a)[0], (a)[0], 4, 5, 6, 7))
#define CTB__HALVES_F64(a) ((a)[0] + (a)[1])
/* One row of A against columns of B stored by columns (x @ W.t(), nn.Linear's
 * layout): c[j] = dot(a, B[:, j]). Each dot keeps 8 partial sums (lane t
 * takes the terms p = t mod 8, in order; a tail past the last multiple of 8
 * goes to lane 0) combined as ((0+4)+(1+5))+((2+6)+(3+7)); four columns at a
 * time share each load of a. */
#define CTB__GEMM_DOT(NAME, T, V, VU, HALVES)                                                                              \
  CTB__BLIS_CLONES static void NAME(const T *a, const T *B, int64_t csb, int64_t n, int64_t k, T *C, int64_t csc,    \
                                    T alpha, T beta) {                                                               \
    enum { VL = 32 / (int)sizeof(T), NV = 8 / VL };                                                                  \
    int64_t j0, p;                                                                                                   \
    for (j0 = 0; j0 < n; j0 += 4) {                                                                                  \
      const int nq = n - j0 < 4 ? (int)(n - j0) : 4;                                                                 \
      V acc[4][NV], zero = {0};                                                                                      \
      int q, v;                                                                                                      \
      for (q = 0; q < 4; q++)                                                                                        \
        for (v = 0; v < NV; v++) acc[q][v] = zero;                                                                   \
      if (nq == 4)                                                                                                   \
        for (p = 0; p + 8 <= k; p += 8)                                                                              \
          for (v = 0; v < NV; v++) {                                                                                 \
            V x = *(const VU *)(a + p + v * VL);                                                                     \
            for (q = 0; q < 4; q++) acc[q][v] += x * *(const VU *)(B + (j0 + q) * csb + p + v * VL);                \
          }                                                                                                          \
      else                                                                                                           \
        for (p = 0; p + 8 <= k; p += 8)                                                                              \
          for (v = 0; v < NV; v++) {                                                                                 \
            V x = *(const VU *)(a + p + v * VL);                                                                     \
            for (q = 0; q < nq; q++) acc[q][v] += x * *(const VU *)(B + (j0 + q) * csb + p + v * VL);               \
          }                                                                                                          \
      if (CTB__SHUFFLE_OK && nq == 4 && k % 8 == 0) {                                                              \
        CTB__DOT_REDUCE4(T, HALVES, acc, C + j0 * csc, csc, alpha, beta);                                                  \
        continue;                                                                                                    \
      }                                                                                                              \
      for (q = 0; q < nq; q++) {                                                                                     \
        const T *b = B + (j0 + q) * csb;                                                                             \
        T l[8], s, *c = C + (j0 + q) * csc;                                                                          \
        int64_t t;                                                                                                   \
        memcpy(l, acc[q], sizeof l);                                                                                 \
        for (t = k / 8 * 8; t < k; t++) l[0] += a[t] * b[t];                                                         \
        s = ((l[0] + l[4]) + (l[1] + l[5])) + ((l[2] + l[6]) + (l[3] + l[7]));                                       \
        *c = alpha * s + (beta == 0 ? (T)0 : beta * *c);                                                             \
      }                                                                                                              \
    }                                                                                                                \
  }
typedef float ctb__v8f __attribute__((vector_size(32)));
typedef double ctb__v4d __attribute__((vector_size(32)));
typedef float ctb__v8fu __attribute__((vector_size(32), aligned(4), may_alias));
typedef double ctb__v4du __attribute__((vector_size(32), aligned(8), may_alias));
CTB__GEMM_BLOCK(ctb__small_gemm_f32_block4, float, ctb__v8f, ctb__v8fu, 4, 2)
CTB__GEMM_ROW1(ctb__small_gemm_f32_block1, float, ctb__v8f, ctb__v8fu, 2)
CTB__GEMM_WIDE(ctb__small_gemm_f32_wide, float, ctb__v8f, ctb__v8fu)
CTB__GEMM_DOT(ctb__small_gemm_f32_dot, float, ctb__v8f, ctb__v8fu, CTB__HALVES_F32)
CTB__GEMM_BLOCK(ctb__small_gemm_f32_half4, float, ctb__v8f, ctb__v8fu, 4, 1)
CTB__GEMM_ROW1(ctb__small_gemm_f32_half1, float, ctb__v8f, ctb__v8fu, 1)
CTB__GEMM_BLOCK(ctb__small_gemm_f64_block4, double, ctb__v4d, ctb__v4du, 4, 4)
CTB__GEMM_ROW1(ctb__small_gemm_f64_block1, double, ctb__v4d, ctb__v4du, 4)
CTB__GEMM_WIDE(ctb__small_gemm_f64_wide, double, ctb__v4d, ctb__v4du)
CTB__GEMM_DOT(ctb__small_gemm_f64_dot, double, ctb__v4d, ctb__v4du, CTB__HALVES_F64)
CTB__GEMM_BLOCK(ctb__small_gemm_f64_half4, double, ctb__v4d, ctb__v4du, 4, 2)
CTB__GEMM_ROW1(ctb__small_gemm_f64_half1, double, ctb__v4d, ctb__v4du, 2)

#define CTB__SMALL_GEMM(NAME, T)                                                                                      \
  CTB__BLIS_CLONES static void NAME##_store(const ctb__gemm_args *g, int64_t i0, int64_t mi, int64_t j0, int64_t nj,                   \
                           T acc[CTB__MR][CTB__NR]) {                                                                  \
    T alpha = (T)g->alpha, beta = (T)g->beta;                                                                        \
    int64_t r, j;                                                                                                    \
    for (r = 0; r < mi; r++) {                                                                                       \
      T *c = (T *)g->c + (i0 + r) * g->rsc + j0;                                                                     \
      if (beta == 0 && alpha == 1) memcpy(c, acc[r], sizeof(T) * (size_t)nj);\
      else if (beta == 0) for (j = 0; j < nj; j++) c[j] = alpha * acc[r][j];                                        \
      else for (j = 0; j < nj; j++) c[j] = alpha * acc[r][j] + beta * c[j];                                          \
    }                                                                                                                \
  }                                                                                                                  \
  /* acc[r][j] for j in [j0, j1): each a chain of multiply-adds over k, in   \
   * order, as in the block kernels (no reduction the compiler could split   \
   * into products and sums in a layout-dependent way)                       */ \
  CTB__BLIS_CLONES static void NAME##_cols(const T *A, int64_t rsa, int64_t csa, const T *B, int64_t rsb, int64_t k, \
                                           int64_t mi, int64_t j0, int64_t j1, T acc[CTB__MR][CTB__NR]) {            \
    int64_t r, j, p;                                                                                                 \
    for (r = 0; r < mi; r++) {                                                                                       \
      for (j = j0; j < j1; j++) acc[r][j] = 0;                                                                       \
      for (p = 0; p < k; p++) {                                                                                      \
        T a = A[r * rsa + p * csa];                                                                                  \
        for (j = j0; j < j1; j++) acc[r][j] += a * B[p * rsb + j];                                                   \
      }                                                                                                              \
    }                                                                                                                \
  }                                                                                                                  \
  CTB__BLIS_CLONES static void NAME(const ctb__gemm_args *g) {                                                         \
    const T *A = (const T *)g->a, *B = (const T *)g->b;                                                             \
    T *C = (T *)g->c, alpha = (T)g->alpha, beta = (T)g->beta;                                                      \
    int64_t i, j, p, m = g->m, n = g->n, k = g->k;                                                                  \
    if (g->csb == 1 && g->csc == 1 && k == 1) { /* outer product (a batch-1 weight gradient) */                      \
      for (i = 0; i < m; i++) { /* alpha * (a b), as the other paths: (alpha a) b can overflow where alpha (a b) does not */ \
        T *restrict c = C + i * g->rsc;                                                                              \
        const T *restrict b = B;                                                                                     \
        T a = A[i * g->rsa];                                                                                         \
        if (beta == 0 && alpha == 1) for (j = 0; j < n; j++) c[j] = a * b[j];                                        \
        else if (beta == 0) for (j = 0; j < n; j++) c[j] = alpha * (a * b[j]);                                       \
        else for (j = 0; j < n; j++) c[j] = alpha * (a * b[j]) + beta * c[j];                                        \
      }                                                                                                              \
    } else if (g->csb == 1 && g->csc == 1) {                                                                         \
      int64_t i0, j0, r, mi, nj;                                                                                    \
      j0 = 0;                                                                                                        \
      if (m == 1) /* one row: 8 vectors of columns at a time, straight into C */                                               \
        for (; j0 + CTB__WIDE(T) <= n; j0 += CTB__WIDE(T)) NAME##_wide(A, g->csa, B + j0, g->rsb, k, C + j0, alpha, beta);               \
      for (; j0 < n; j0 += CTB__NR) {                                                                          \
        nj = n - j0 < CTB__NR ? n - j0 : CTB__NR;                                                                     \
        for (i0 = 0; i0 < m; i0 += CTB__MR) {                                                                        \
          T acc[CTB__MR][CTB__NR];                                                                                    \
          mi = m - i0 < CTB__MR ? m - i0 : CTB__MR;                                                                   \
          if (nj == CTB__NR) {                                                                                        \
            if (mi == CTB__MR) NAME##_block4(A + i0 * g->rsa, g->rsa, g->csa, B + j0, g->rsb, k, acc);               \
            else for (r = 0; r < mi; r++)                                                                            \
              NAME##_block1(A + (i0 + r) * g->rsa, g->rsa, g->csa, B + j0, g->rsb, k, acc + r);                      \
          } else if (nj >= CTB__NR / 2) { /* half a block, then the rest column by column */                         \
            if (mi == CTB__MR) NAME##_half4(A + i0 * g->rsa, g->rsa, g->csa, B + j0, g->rsb, k, acc);                \
            else for (r = 0; r < mi; r++)                                                                            \
              NAME##_half1(A + (i0 + r) * g->rsa, g->rsa, g->csa, B + j0, g->rsb, k, acc + r);                       \
            NAME##_cols(A + i0 * g->rsa, g->rsa, g->csa, B + j0, g->rsb, k, mi, CTB__NR / 2, nj, acc);               \
          } else {                                                                                                   \
            NAME##_cols(A + i0 * g->rsa, g->rsa, g->csa, B + j0, g->rsb, k, mi, 0, nj, acc);                         \
          }                                                                                                          \
          NAME##_store(g, i0, mi, j0, nj, acc);                                                                     \
        }                                                                                                           \
      }                                                                                                             \
    } else if (g->rsb == 1 && g->csa == 1) {                                                                        \
      for (i = 0; i < m; i++) NAME##_dot(A + i * g->rsa, B, g->csb, n, k, C + i * g->rsc, g->csc, alpha, beta);     \
    } else {                                                                                                        \
      for (i = 0; i < m; i++)                                                                                       \
        for (j = 0; j < n; j++) {                                                                                   \
          T s = 0, *c = C + i * g->rsc + j * g->csc;                                                                \
          for (p = 0; p < k; p++) s += A[i * g->rsa + p * g->csa] * B[p * g->rsb + j * g->csb];                     \
          *c = alpha * s + (beta == 0 ? (T)0 : beta * *c);                                                          \
        }                                                                                                           \
    }                                                                                                               \
  }
CTB__SMALL_GEMM(ctb__small_gemm_f32, float)
CTB__SMALL_GEMM(ctb__small_gemm_f64, double)

/* The plain-C kernel over blocks of rows on ct_parallel_for (large products
 * when BLIS is generic). Blocks are multiples of CTB__MR rows and the last one
 * takes the tail, so each row goes through the same code as in one call:
 * the same bits for any thread count. */
typedef struct {
  const ctb__gemm_args *g;
  int64_t rows, nblocks;
  size_t es;
} ctb__sg_job;
static void ctb__sg_run(int64_t b, int64_t e, void *ctx) {
  const ctb__sg_job *j = (const ctb__sg_job *)ctx;
  ctb__gemm_args s = *j->g;
  int64_t r0 = b * j->rows, r1 = e >= j->nblocks ? j->g->m : e * j->rows;
  s.m = r1 - r0;
  s.a = (const char *)s.a + r0 * s.rsa * (int64_t)j->es;
  s.c = (char *)s.c + r0 * s.rsc * (int64_t)j->es;
  if (j->es == 4) ctb__small_gemm_f32(&s);
  else ctb__small_gemm_f64(&s);
}
static void ctb__small_gemm_run(ct_dtype dt, const ctb__gemm_args *g, int64_t work) {
  int th = ct_get_num_threads();
  if (work >= ctb__thread_flops && th > 1 && g->m >= 2 * CTB__MR) {
    ctb__sg_job j;
    j.g = g;
    j.rows = g->m / th / CTB__MR * CTB__MR;
    if (j.rows < CTB__MR) j.rows = CTB__MR;
    j.nblocks = g->m / j.rows;
    j.es = dt == CT_F32 ? 4 : 8;
    ct_parallel_for(j.nblocks, 1, ctb__sg_run, &j);
  } else if (dt == CT_F32) {
    ctb__small_gemm_f32(g);
  } else {
    ctb__small_gemm_f64(g);
  }
}
/* dst = src, rows x cols, both strided (a copy into or out of row-major
 * scratch): element words copied as integers (bits kept), walked in the
 * source's memory order when it is stored by columns. */
#define CTB__COPY_MAT(NAME, U)                                                                                     \
  static void NAME(int64_t rows, int64_t cols, const U *src, int64_t rs, int64_t cs, U *dst, int64_t drs, int64_t dcs) { \
    int64_t i, j;                                                                                                  \
    if (rs <= cs && rows > 1)                                                                                      \
      for (j = 0; j < cols; j++)                                                                                   \
        for (i = 0; i < rows; i++) dst[i * drs + j * dcs] = src[i * rs + j * cs];                                  \
    else                                                                                                           \
      for (i = 0; i < rows; i++)                                                                                   \
        for (j = 0; j < cols; j++) dst[i * drs + j * dcs] = src[i * rs + j * cs];                                  \
  }
CTB__COPY_MAT(ctb__copy_mat32, uint32_t)
CTB__COPY_MAT(ctb__copy_mat64, uint64_t)
static void ctb__copy_mat(size_t es, int64_t rows, int64_t cols, const char *src, int64_t rs, int64_t cs, char *dst, int64_t drs,
                          int64_t dcs) {
  if (es == 4) ctb__copy_mat32(rows, cols, (const uint32_t *)(const void *)src, rs, cs, (uint32_t *)(void *)dst, drs, dcs);
  else ctb__copy_mat64(rows, cols, (const uint64_t *)(const void *)src, rs, cs, (uint64_t *)(void *)dst, drs, dcs);
}
/* The plain-C kernel for a product of any size. From CT_BLIS_SMALL_FLOPS up
 * (where it stands in for BLIS), and for every element of a batch (scratch
 * not NULL), a B or C not stored by rows goes through a row-major copy, so
 * every layout runs the same code and gives the same bits as contiguous
 * operands; except up to 4 rows against a B stored by columns (nn.Linear at a
 * small batch), which run the dot kernel. The copies go to scratch (room for
 * k*n + m*n elements, the batch's one buffer) or else to pooled tensors. */
/* dst (rows x cols, row-major) = src (strides rs, cs) in tiles: a B stored
 * by columns (attention's backward products: grad @ V^T, Q^T @ grad) in
 * register tiles, as ctb__rows_copy's (defined with it, below). */
static void ctb__tiles_copy(size_t es, int64_t rows, int64_t cols, const char *src, int64_t rs, int64_t cs, char *dst);
static void ctb__small_gemm(ct_dtype dt, ctb__gemm_args *g, int64_t work, char *scratch) {
  ctb__gemm_args h = *g;
  ct_tensor *bp = NULL, *cp = NULL;
  size_t es = dt == CT_F32 ? 4 : 8;
  int64_t shape[2];
  char *cbuf = NULL;
  /* (a few rows against a B stored by columns, x @ W.t() at batch 1: the dot
   * kernel streams W's rows as they are, where a copy would cost more than
   * the product) */
  int dots = g->rsb == 1 && g->csa == 1 && g->m <= 4;
  int copy = (work >= CT_BLIS_SMALL_FLOPS || scratch) && g->k > 0;
  if (copy && g->csb != 1 && !dots) {
    char *bbuf = scratch;
    shape[0] = g->k, shape[1] = g->n;
    if (!bbuf && (bp = ct_backend_empty("mm", 2, shape, dt, CT_CPU)) != NULL) bbuf = (char *)ct_data_ptr(bp);
    if (bbuf) {
      ctb__tiles_copy(es, g->k, g->n, (const char *)g->b, g->rsb, g->csb, bbuf);
      h.b = bbuf, h.rsb = g->n, h.csb = 1;
    }
  }
  if (copy && g->csc != 1) {
    shape[0] = g->m, shape[1] = g->n;
    if (scratch) cbuf = scratch + (size_t)(g->k * g->n) * es;
    else if ((cp = ct_backend_empty("mm", 2, shape, dt, CT_CPU)) != NULL) cbuf = (char *)ct_data_ptr(cp);
    if (cbuf) {
      if (g->beta != 0) ctb__copy_mat(es, g->m, g->n, (const char *)g->c, g->rsc, g->csc, cbuf, g->n, 1);
      h.c = cbuf, h.rsc = g->n, h.csc = 1;
    }
  }
  ctb__small_gemm_run(dt, &h, work);
  if (cbuf) ctb__copy_mat(es, g->m, g->n, cbuf, g->n, 1, (char *)g->c, g->rsc, g->csc);
  ct_release(bp);
  ct_release(cp);
}

/* BLIS wants positive strides, and for a size-1 dimension any stride is
 * meaningless: give it one BLIS accepts. */
static int ctb__blis_strides(int64_t rows, int64_t cols, int64_t *rs, int64_t *cs) {
  if (rows == 1 && cols == 1) *rs = *cs = 1;
  else if (rows == 1) *rs = cols * *cs;
  else if (cols == 1) *cs = rows * *rs;
  return *rs > 0 && *cs > 0;
}

/* Are the rows x cols elements (row stride rs, column stride cs) all finite?
 * Read along the smaller stride, in memory order (a transposed im2col matrix
 * read across its rows is a cache miss per element). An element is inf or
 * NaN when its exponent bits are all ones: an integer test and or, which
 * vectorises (the scan is O(mk + kn) beside the O(mnk) product). */
#define CTB__FINITE_ROWS(NAME, T, U, EXP)                                                                            \
  CTB__BLIS_CLONES static int NAME(const T *p, int64_t rows, int64_t cols, int64_t rs, int64_t cs) {                \
    int64_t i, j;                                                                                                    \
    U bad = 0, w;                                                                                                    \
    for (i = 0; i < rows; i++) {                                                                                     \
      const T *r = p + i * rs;                                                                                       \
      if (cs == 1)                                                                                                   \
        for (j = 0; j < cols; j++) memcpy(&w, r + j, sizeof w), bad |= (U)((w & (EXP)) == (EXP));                   \
      else                                                                                                           \
        for (j = 0; j < cols; j++) memcpy(&w, r + j * cs, sizeof w), bad |= (U)((w & (EXP)) == (EXP));              \
    }                                                                                                                \
    return !bad;                                                                                                     \
  }
CTB__FINITE_ROWS(ctb__finite_f32, float, uint32_t, 0x7f800000u)
CTB__FINITE_ROWS(ctb__finite_f64, double, uint64_t, 0x7ff0000000000000ull)
static int ctb__all_finite(ct_dtype dt, const void *p, int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  if ((cs == 1 && rs == cols) || (rs == 1 && cs == rows)) cols *= rows, rows = 1, cs = 1; /* dense: one flat row */
  else if (rs < cs) { /* stored by columns (a transposed operand): walk it in memory order */
    int64_t t = rows;
    rows = cols, cols = t, t = rs, rs = cs, cs = t;
  }
  return dt == CT_F32 ? ctb__finite_f32((const float *)p, rows, cols, rs, cs) : ctb__finite_f64((const double *)p, rows, cols, rs, cs);
}

#ifndef CTB__ROWS_COPY_MAX
#define CTB__ROWS_COPY_MAX ((int64_t)1 << 20) /* elements; larger operands are packed by BLIS itself */
#endif
/* dst (rows x cols, row-major) = the operand at src (strides r, c), then
 * the finiteness scan over the contiguous copy (one flat vectorised loop).
 * A transposed operand (r == 1: x @ W.t()'s weight, a weight gradient's
 * grad.t()) goes in register tiles: 8 x 8 floats or 4 x 4 doubles, read as
 * contiguous vectors down the source's columns and transposed by shuffles
 * (a 64 x 64 float copy: 30k instructions as scalar 8 x 8 tiles, about 4k
 * this way). Other strides, and the edges, go in scalar 8 x 8 tiles, so that
 * reads and writes both stay within a few cache lines (walking whole columns
 * instead: 64 x 1024 transposed took 325 us against 29, the 4 KiB store
 * stride thrashing one L1 set). */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define CTB__SHUF __builtin_shufflevector
CTB__BLIS_CLONES static void ctb__tile_t_f32(const float *src, int64_t c, float *dst, int64_t cols) {
  ctb__v8f r0, r1, r2, r3, r4, r5, r6, r7, t0, t1, t2, t3, t4, t5, t6, t7, u0, u1, u2, u3, u4, u5, u6, u7;
  r0 = *(const ctb__v8fu *)(src), r1 = *(const ctb__v8fu *)(src + c), r2 = *(const ctb__v8fu *)(src + 2 * c);
  r3 = *(const ctb__v8fu *)(src + 3 * c), r4 = *(const ctb__v8fu *)(src + 4 * c), r5 = *(const ctb__v8fu *)(src + 5 * c);
  r6 = *(const ctb__v8fu *)(src + 6 * c), r7 = *(const ctb__v8fu *)(src + 7 * c);
  t0 = CTB__SHUF(r0, r1, 0, 8, 1, 9, 4, 12, 5, 13), t1 = CTB__SHUF(r0, r1, 2, 10, 3, 11, 6, 14, 7, 15);
  t2 = CTB__SHUF(r2, r3, 0, 8, 1, 9, 4, 12, 5, 13), t3 = CTB__SHUF(r2, r3, 2, 10, 3, 11, 6, 14, 7, 15);
  t4 = CTB__SHUF(r4, r5, 0, 8, 1, 9, 4, 12, 5, 13), t5 = CTB__SHUF(r4, r5, 2, 10, 3, 11, 6, 14, 7, 15);
  t6 = CTB__SHUF(r6, r7, 0, 8, 1, 9, 4, 12, 5, 13), t7 = CTB__SHUF(r6, r7, 2, 10, 3, 11, 6, 14, 7, 15);
  u0 = CTB__SHUF(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13), u1 = CTB__SHUF(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
  u2 = CTB__SHUF(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13), u3 = CTB__SHUF(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
  u4 = CTB__SHUF(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13), u5 = CTB__SHUF(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
  u6 = CTB__SHUF(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13), u7 = CTB__SHUF(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
  *(ctb__v8fu *)(dst) = CTB__SHUF(u0, u4, 0, 1, 2, 3, 8, 9, 10, 11);
  *(ctb__v8fu *)(dst + cols) = CTB__SHUF(u1, u5, 0, 1, 2, 3, 8, 9, 10, 11);
  *(ctb__v8fu *)(dst + 2 * cols) = CTB__SHUF(u2, u6, 0, 1, 2, 3, 8, 9, 10, 11);
  *(ctb__v8fu *)(dst + 3 * cols) = CTB__SHUF(u3, u7, 0, 1, 2, 3, 8, 9, 10, 11);
  *(ctb__v8fu *)(dst + 4 * cols) = CTB__SHUF(u0, u4, 4, 5, 6, 7, 12, 13, 14, 15);
  *(ctb__v8fu *)(dst + 5 * cols) = CTB__SHUF(u1, u5, 4, 5, 6, 7, 12, 13, 14, 15);
  *(ctb__v8fu *)(dst + 6 * cols) = CTB__SHUF(u2, u6, 4, 5, 6, 7, 12, 13, 14, 15);
  *(ctb__v8fu *)(dst + 7 * cols) = CTB__SHUF(u3, u7, 4, 5, 6, 7, 12, 13, 14, 15);
}
CTB__BLIS_CLONES static void ctb__tile_t_f64(const double *src, int64_t c, double *dst, int64_t cols) {
  ctb__v4d r0 = *(const ctb__v4du *)(src), r1 = *(const ctb__v4du *)(src + c), r2 = *(const ctb__v4du *)(src + 2 * c),
           r3 = *(const ctb__v4du *)(src + 3 * c);
  ctb__v4d t0 = CTB__SHUF(r0, r1, 0, 4, 2, 6), t1 = CTB__SHUF(r0, r1, 1, 5, 3, 7), t2 = CTB__SHUF(r2, r3, 0, 4, 2, 6),
           t3 = CTB__SHUF(r2, r3, 1, 5, 3, 7);
  *(ctb__v4du *)(dst) = CTB__SHUF(t0, t2, 0, 1, 4, 5);
  *(ctb__v4du *)(dst + cols) = CTB__SHUF(t1, t3, 0, 1, 4, 5);
  *(ctb__v4du *)(dst + 2 * cols) = CTB__SHUF(t0, t2, 2, 3, 6, 7);
  *(ctb__v4du *)(dst + 3 * cols) = CTB__SHUF(t1, t3, 2, 3, 6, 7);
}
#define CTB__TILE_T(T) (sizeof(T) == 4 ? 8 : 4)
#define CTB__TILE_T_RUN(T, src, c, dst, cols)                                                                        \
  (sizeof(T) == 4 ? ctb__tile_t_f32((const float *)(const void *)(src), c, (float *)(void *)(dst), cols)             \
                  : ctb__tile_t_f64((const double *)(const void *)(src), c, (double *)(void *)(dst), cols))
#else
#define CTB__TILE_T(T) 0 /* no vector shuffles: scalar tiles throughout */
#define CTB__TILE_T_RUN(T, src, c, dst, cols) ((void)0)
#endif
/* scalar 8 x 8 tiles over rows [ra, rb) x columns [ca, cb) */
#define CTB__SCALAR_TILES(ra, rb, ca, cb)                                                                            \
  for (i0 = (ra); i0 < (rb); i0 += 8)                                                                                \
    for (j0 = (ca); j0 < (cb); j0 += 8) {                                                                            \
      i1 = (rb) - i0 < 8 ? (rb) : i0 + 8, j1 = (cb) - j0 < 8 ? (cb) : j0 + 8;                                       \
      for (i = i0; i < i1; i++)                                                                                      \
        for (j = j0; j < j1; j++) dst[i * cols + j] = src[i * r + j * c];                                            \
    }
#define CTB__ROWS_COPY(NAME, FINITE, T)                                                                              \
  CTB__BLIS_CLONES static void NAME##_only(const T *src, int64_t r, int64_t c, int64_t rows, int64_t cols, T *dst) { \
    int64_t i, j, i0, j0, i1, j1, vt = CTB__TILE_T(T), vr = 0;                                                      \
    if (r == 1 && vt) { /* whole register tiles, then the right and bottom edges */                                 \
      int64_t vc = cols / vt * vt;                                                                                   \
      vr = rows / vt * vt;                                                                                           \
      for (i0 = 0; i0 < vr; i0 += vt)                                                                                \
        for (j0 = 0; j0 < vc; j0 += vt) CTB__TILE_T_RUN(T, src + i0 + j0 * c, c, dst + i0 * cols + j0, cols);        \
      CTB__SCALAR_TILES(0, vr, vc, cols)                                                                             \
    }                                                                                                                \
    CTB__SCALAR_TILES(vr, rows, 0, cols)                                                                             \
  }                                                                                                                  \
  static int NAME(const T *src, int64_t r, int64_t c, int64_t rows, int64_t cols, T *dst) {                          \
    NAME##_only(src, r, c, rows, cols, dst);                                                                         \
    return FINITE(dst, 1, rows * cols, 0, 1);                                                                        \
  }
CTB__ROWS_COPY(ctb__rows_copy_f32, ctb__finite_f32, float)
CTB__ROWS_COPY(ctb__rows_copy_f64, ctb__finite_f64, double)
static void ctb__tiles_copy(size_t es, int64_t rows, int64_t cols, const char *src, int64_t rs, int64_t cs, char *dst) {
  if (es == 4) ctb__rows_copy_f32_only((const float *)(const void *)src, rs, cs, rows, cols, (float *)(void *)dst);
  else ctb__rows_copy_f64_only((const double *)(const void *)src, rs, cs, rows, cols, (double *)(void *)dst);
}
/* A rows x cols operand (strides rs, cs) copied into a row-major scratch
 * tensor; *p, *rs, *cs then describe the copy, *finite whether its elements
 * all are. NULL (operand unchanged, *finite untouched) when out of memory. */
static ct_tensor *ctb__rows_copy(ct_dtype dt, int64_t rows, int64_t cols, const void **p, int64_t *rs, int64_t *cs, int *finite) {
  int64_t shape[2];
  ct_tensor *t;
  shape[0] = rows, shape[1] = cols;
  if (!(t = ct_backend_empty("mm", 2, shape, dt, CT_CPU))) {
    ct_clear_error();
    return NULL;
  }
  *finite = dt == CT_F32 ? ctb__rows_copy_f32((const float *)*p, *rs, *cs, rows, cols, (float *)ct_data_ptr(t))
                         : ctb__rows_copy_f64((const double *)*p, *rs, *cs, rows, cols, (double *)ct_data_ptr(t));
  *p = ct_data_ptr(t), *rs = cols, *cs = 1;
  return t;
}

static void ctb__gemm(ct_dtype dt, ctb__gemm_args *g0) {
  ctb__gemm_args gc = *g0, *g = &gc;
  rntm_t rntm;
  int pack, finite_a = -1, finite_b = -1;
  ct_tensor *ap = NULL, *bp = NULL;
  int64_t work = g->m * g->n * g->k;
  if (g->m == 0 || g->n == 0) return;
  if (g->k == 0) { /* C = beta * C */
    ctb__gemm_args z = *g;
    z.k = 0;
    ctb__small_gemm_run(dt, &z, 0);
    return;
  }
  if (work < ctb__small_flops || ((g->m <= 2 || g->n <= 2) && work < ctb__small_flops * (CT_BLIS_SMALL_GEMV_FLOPS / CT_BLIS_SMALL_FLOPS)) || !ctb__blis_strides(g->m, g->k, &g->rsa, &g->csa) ||
      !ctb__blis_strides(g->k, g->n, &g->rsb, &g->csb) || !ctb__blis_strides(g->m, g->n, &g->rsc, &g->csc)) {
    ctb__small_gemm(dt, g, work, NULL);
    return;
  }
  /* BLIS may skip a zero of one operand (an axpy with a zero scalar), so a
   * NaN or inf facing it would not give the NaN of IEEE arithmetic that the
   * reference kernel (and the plain-C kernel) gives: operands with one go
   * to the plain-C kernel. The scan costs O(mk + kn) of an O(mnk) product. */
  /* An operand not stored by rows (x @ W.t(), a weight gradient grad.t() @ x)
   * up to CTB__ROWS_COPY_MAX elements is copied into rows (pooled scratch):
   * BLIS's small-matrix path then runs as for contiguous operands, faster
   * than making it pack, and with the contiguous case's bits. The copy
   * scans for non-finite elements on the way; other operands are scanned. */
  if (g->csa != 1 && g->m > 1 && g->k > 1 && g->m * g->k <= CTB__ROWS_COPY_MAX)
    ap = ctb__rows_copy(dt, g->m, g->k, &g->a, &g->rsa, &g->csa, &finite_a);
  if (g->csb != 1 && g->k > 1 && g->n > 1 && g->k * g->n <= CTB__ROWS_COPY_MAX)
    bp = ctb__rows_copy(dt, g->k, g->n, &g->b, &g->rsb, &g->csb, &finite_b);
  if (finite_a < 0) finite_a = ctb__all_finite(dt, g->a, g->m, g->k, g->rsa, g->csa);
  if (finite_a && finite_b < 0) finite_b = ctb__all_finite(dt, g->b, g->k, g->n, g->rsb, g->csb);
  if (!finite_a || !finite_b) {
    ct_release(ap), ct_release(bp);
    ctb__small_gemm(dt, g0, work, NULL); /* (the operands as given: the copies are gone) */
    return;
  }
  pack = g->csa != 1 || g->csb != 1; /* any operand (still) not stored by rows */
  if (g->rsa == 1 && g->rsb == 1 && g->rsc != 1) {
    /* Both operands stored by columns: BLIS would run the transposed problem
     * and round differently from the row-stored case; run C^T = B^T A^T. */
    ctb__gemm_args t = *g;
    t.m = g->n, t.n = g->m;
    t.a = g->b, t.rsa = g->csb, t.csa = g->rsb;
    t.b = g->a, t.rsb = g->csa, t.csb = g->rsa;
    t.rsc = g->csc, t.csc = g->rsc;
    *g = t;
  }
  bli_rntm_init(&rntm);
  bli_rntm_set_num_threads(work >= ctb__thread_flops ? (dim_t)ct_get_num_threads() : 1, &rntm);
  /* Operands not stored by rows are packed: the micro-kernel, and so the
   * rounding, is then usually the one of the row-stored case (a transposed
   * operand gives the same bits as its contiguous copy for most shapes);
   * row-stored ones skip it. */
  if (pack) {
    bli_rntm_set_pack_a(TRUE, &rntm);
    bli_rntm_set_pack_b(TRUE, &rntm);
  }
  if (dt == CT_F32) {
    float alpha = (float)g->alpha, beta = (float)g->beta;
    bli_sgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, g->m, g->n, g->k, &alpha, (float *)g->a, g->rsa, g->csa,
                 (float *)g->b, g->rsb, g->csb, &beta, (float *)g->c, g->rsc, g->csc, NULL, &rntm);
  } else {
    double alpha = g->alpha, beta = g->beta;
    bli_dgemm_ex(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, g->m, g->n, g->k, &alpha, (double *)g->a, g->rsa, g->csa,
                 (double *)g->b, g->rsb, g->csb, &beta, (double *)g->c, g->rsc, g->csc, NULL, &rntm);
  }
  ct_release(ap);
  ct_release(bp);
}

/* ---- the backend description: each kernel declared with its op's generated type ---- */
static ct_kernel_mm k_mm;
static ct_kernel_mm_out k_mm_out;
static ct_kernel_addmm k_addmm;
static ct_kernel_addmm_out k_addmm_out;
static ct_kernel_addmm_ k_addmm_;
static ct_kernel_baddbmm_ k_baddbmm_;
static ct_kernel_bmm k_bmm;
static ct_kernel_bmm_out k_bmm_out;
static ct_kernel_baddbmm k_baddbmm;
static ct_kernel_baddbmm_out k_baddbmm_out;
static ct_kernel_mv k_mv;
static ct_kernel_mv_out k_mv_out;
static ct_kernel_dot k_dot;
static ct_kernel_dot_out k_dot_out;
static ct_kernel_add_Tensor k_add;
static ct_kernel_sub_Tensor k_sub;
static ct_kernel_mul_Tensor k_mul;
static ct_kernel_relu k_relu;
static ct_kernel_relu_ k_relu_;
static ct_kernel_add__Tensor k_add_;
static ct_kernel_sub__Tensor k_sub_;
static ct_kernel_mul__Tensor k_mul_;
static ct_kernel_fill__Scalar k_fill_;
static ct_kernel_threshold_backward k_threshold_bw;
static ct_kernel_sum k_sum;
static ct_kernel_sum_dim_IntList k_sum_dim;
static ct_kernel_exp k_exp;
static ct_kernel_sigmoid k_sigmoid;
static ct_kernel_tanh k_tanh;
static ct_kernel_softmax_int k_softmax;
static ct_kernel_softmax_int_out k_softmax_out;
static ct_kernel_log_softmax_int k_log_softmax;
static ct_kernel_log_softmax_int_out k_log_softmax_out;
static ct_kernel_linear k_linear;
static ct_kernel_convolution k_convolution;
static ct_kernel_convolution_backward_input k_convolution_backward_input;
static ct_kernel_convolution_backward_weight k_convolution_backward_weight;

static ct_backend_kernel ctb__blis_kernels[K_COUNT] = {
    CT_BACKEND_KERNEL(mm, CT_KEY_CPU, k_mm),
    CT_BACKEND_KERNEL(mm_out, CT_KEY_CPU, k_mm_out),
    CT_BACKEND_KERNEL(addmm, CT_KEY_CPU, k_addmm),
    CT_BACKEND_KERNEL(addmm_out, CT_KEY_CPU, k_addmm_out),
    CT_BACKEND_KERNEL(addmm_, CT_KEY_CPU, k_addmm_),
    CT_BACKEND_KERNEL(baddbmm_, CT_KEY_CPU, k_baddbmm_),
    CT_BACKEND_KERNEL(bmm, CT_KEY_CPU, k_bmm),
    CT_BACKEND_KERNEL(bmm_out, CT_KEY_CPU, k_bmm_out),
    CT_BACKEND_KERNEL(baddbmm, CT_KEY_CPU, k_baddbmm),
    CT_BACKEND_KERNEL(baddbmm_out, CT_KEY_CPU, k_baddbmm_out),
    CT_BACKEND_KERNEL(mv, CT_KEY_CPU, k_mv),
    CT_BACKEND_KERNEL(mv_out, CT_KEY_CPU, k_mv_out),
    CT_BACKEND_KERNEL(dot, CT_KEY_CPU, k_dot),
    CT_BACKEND_KERNEL(dot_out, CT_KEY_CPU, k_dot_out),
    CT_BACKEND_KERNEL(add_Tensor, CT_KEY_CPU, k_add),
    CT_BACKEND_KERNEL(sub_Tensor, CT_KEY_CPU, k_sub),
    CT_BACKEND_KERNEL(mul_Tensor, CT_KEY_CPU, k_mul),
    CT_BACKEND_KERNEL(relu, CT_KEY_CPU, k_relu),
    CT_BACKEND_KERNEL(relu_, CT_KEY_CPU, k_relu_),
    CT_BACKEND_KERNEL(add__Tensor, CT_KEY_CPU, k_add_),
    CT_BACKEND_KERNEL(sub__Tensor, CT_KEY_CPU, k_sub_),
    CT_BACKEND_KERNEL(mul__Tensor, CT_KEY_CPU, k_mul_),
    CT_BACKEND_KERNEL(fill__Scalar, CT_KEY_CPU, k_fill_),
    CT_BACKEND_KERNEL(threshold_backward, CT_KEY_CPU, k_threshold_bw),
    CT_BACKEND_KERNEL(sum, CT_KEY_CPU, k_sum),
    CT_BACKEND_KERNEL(sum_dim_IntList, CT_KEY_CPU, k_sum_dim),
    CT_BACKEND_KERNEL(exp, CT_KEY_CPU, k_exp),
    CT_BACKEND_KERNEL(sigmoid, CT_KEY_CPU, k_sigmoid),
    CT_BACKEND_KERNEL(tanh, CT_KEY_CPU, k_tanh),
    CT_BACKEND_KERNEL(softmax_int, CT_KEY_CPU, k_softmax),
    CT_BACKEND_KERNEL(softmax_int_out, CT_KEY_CPU, k_softmax_out),
    CT_BACKEND_KERNEL(log_softmax_int, CT_KEY_CPU, k_log_softmax),
    CT_BACKEND_KERNEL(log_softmax_int_out, CT_KEY_CPU, k_log_softmax_out),
    CT_BACKEND_KERNEL(linear, CT_KEY_CPU, k_linear),
    CT_BACKEND_KERNEL(convolution, CT_KEY_CPU, k_convolution),
    CT_BACKEND_KERNEL(convolution_backward_input, CT_KEY_CPU, k_convolution_backward_input),
    CT_BACKEND_KERNEL(convolution_backward_weight, CT_KEY_CPU, k_convolution_backward_weight),
};
static ct_backend ctb__blis_backend = {CT_BACKEND_ABI, (uint32_t)sizeof(ct_tensor), "cpu_blis", ct_cpu_blis_version, 10,
                                      ctb__blis_kernels, K_COUNT, ctb__blis_set_threads, CT_OK, 0, NULL};

/* Explicit registration (also what the constructor calls); idempotent. */
int ct_cpu_blis_register(void) {
  ctb__pick_crossover();
  return (int)ct_register_backend(&ctb__blis_backend);
}
/* Referenced with -Wl,-u,ct_cpu_blis_anchor to keep this object in a static link. */
int ct_cpu_blis_anchor = 1;

#if defined(__GNUC__) || defined(__clang__)
/* Load-time warm-up, so that the first call after load is not much slower
 * than the steady state: one small product through each path pages in the
 * dispatch and kernel code, and one freed block per small size class (64 B to
 * 16 KiB) primes the loading thread's allocator cache. CT_BLIS_NO_WARMUP=1 in
 * the environment skips it. */
static void ctb__warmup(void) {
  int64_t s[2];
  int c;
  const char *env = getenv("CT_BLIS_NO_WARMUP");
  if (env && *env && *env != '0') return;
  for (c = 0; c < 9; c++) {
    s[0] = (int64_t)16 << c; /* 64 B << c as f32 elements */
    ct_release(ct_backend_empty("warmup", 1, s, CT_F32, CT_CPU));
  }
  CT_NO_GRAD {
    ct_tensor *x, *w, *b, *h;
    /* half blocks; full block + half + column tail; the one-row wide kernel (64 columns) + half */
    static const int64_t widths[3] = {8, 27, 72};
    int rows, wi;
    for (rows = 1; rows <= 4; rows += 3) /* one row and full blocks */
      for (wi = 0; wi < 3; wi++) {
        int64_t cols = widths[wi];
        s[0] = rows, s[1] = 8;
        x = ct_backend_empty("warmup", 2, s, CT_F32, CT_CPU);
        s[0] = 8, s[1] = cols;
        w = ct_backend_empty("warmup", 2, s, CT_F32, CT_CPU);
        b = ct_backend_empty("warmup", 1, s + 1, CT_F32, CT_CPU);
        if (x && w && b) {
          ct_fill_(x, ct_float(0)), ct_fill_(w, ct_float(0)), ct_fill_(b, ct_float(0));
          h = ct_addmm(b, x, w);
          if (h) ct_relu_(h);
          ct_release(h);
          ct_release(ct_mm(x, w));
          ct_release(ct_add(x, x));
        }
        ct_release(x), ct_release(w), ct_release(b);
      }
  }
  ct_clear_error();
}

__attribute__((constructor)) static void ctb__blis_startup(void) {
  if (ct_cpu_blis_register() == CT_OK) ctb__warmup();
}
#else
#error "cpu_blis: needs a compiler with __attribute__((constructor)) (GCC, Clang)"
#endif

/* the replaced kernel of entry i, typed */
/* the kernel entry i displaced, with the op's kernel type */
#define CTB__PREV(i, handle) CT_BACKEND_REPLACED(handle, ctb__blis_kernels[i])

/* ---- helpers ---- */
static int ctb__is_cpu_float(const ct_tensor *t) {
  return t->device.type == CT_DEVICE_CPU && (t->dtype == CT_F32 || t->dtype == CT_F64) && t->storage->data;
}
static double ctb__scalar_d(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? s.v.f : s.kind == CT_SCALAR_INT ? (double)s.v.i : s.kind == CT_SCALAR_BOOL ? (double)s.v.b : 1.0;
}
static int ctb__contig(const ct_tensor *t) { return ct_is_contiguous(t); }
/* out= target we can write directly: right dtype and shape, contiguous, not aliasing an input */
static int ctb__out_ok(const ct_tensor *out, ct_dtype dt, int ndim, const int64_t *shape, const ct_tensor *x, const ct_tensor *y,
                      const ct_tensor *z) {
  int d;
  if (out->device.type != CT_DEVICE_CPU || out->dtype != dt || out->ndim != ndim || !ctb__contig(out) || out->autograd) return 0;
  for (d = 0; d < ndim; d++)
    if (out->sizes[d] != shape[d]) return 0;
  if (out->storage == x->storage || out->storage == y->storage || (z && out->storage == z->storage)) return 0;
  return 1;
}

/* a 2-D view of t (rank 2 or 3 with batch index) as gemm operand fields */
static void ctb__mat(const ct_tensor *t, int batch_dims, int64_t bi, const void **p, int64_t *rs, int64_t *cs) {
  size_t es = t->dtype == CT_F32 ? 4 : 8;
  /* an empty operand reads nothing and may sit at any offset: no address past its storage is formed */
  *p = t->numel ? (const char *)t->storage->data + (t->offset + (batch_dims ? bi * t->strides[0] : 0)) * (int64_t)es
                : (const char *)ct_data_ptr(t);
  *rs = t->strides[batch_dims];
  *cs = t->strides[batch_dims + 1];
}

/* C[b] = alpha A[b] B[b] + beta C[b] for rank-3 (batch_dims 1) or rank-2 operands.
 * A batch of products each up to CT_BLIS_BATCH_SMALL_FLOPS (attention's
 * products at [B*heads, seq, head_dim], forward and backward) runs the
 * plain-C kernel for every element: BLIS's setup and packing, paid once per
 * element, cost more than such a product (measured on Zen 3: 1.4-1.7x faster
 * up to 32^3 with operands stored by rows, slower from 40^3). A B or C not
 * stored by rows (Q @ K^T) goes through a row-major copy per element, into
 * one scratch buffer for the batch (3-4x faster than BLIS there). One
 * decision for the whole batch, so every element rounds alike, and as its
 * contiguous copy would. */
static void ctb__gemm_tensors(int batch_dims, ct_tensor *a, ct_tensor *b, ct_tensor *c, double alpha, double beta) {
  int64_t nb = batch_dims ? c->sizes[0] : 1, bi;
  int64_t m = c->sizes[batch_dims], n = c->sizes[batch_dims + 1], k = a->sizes[batch_dims + 1], work = m * n * k;
  int small_batch = nb > 1 && work <= CT_BLIS_BATCH_SMALL_FLOPS;
  ct_tensor *scratch = NULL;
  if (small_batch) {
    int64_t len = k * n + m * n;
    if (!(scratch = ct_backend_empty("bmm", 1, &len, (ct_dtype)c->dtype, CT_CPU))) ct_clear_error(); /* (then pooled copies per element) */
  }
  for (bi = 0; bi < nb; bi++) {
    ctb__gemm_args g;
    const void *cp;
    g.m = m;
    g.n = n;
    g.k = k;
    ctb__mat(a, batch_dims, bi, &g.a, &g.rsa, &g.csa);
    ctb__mat(b, batch_dims, bi, &g.b, &g.rsb, &g.csb);
    ctb__mat(c, batch_dims, bi, &cp, &g.rsc, &g.csc);
    g.c = (void *)cp;
    g.alpha = alpha;
    g.beta = beta;
    if (small_batch) ctb__small_gemm((ct_dtype)c->dtype, &g, work, scratch ? (char *)ct_data_ptr(scratch) : NULL);
    else ctb__gemm((ct_dtype)c->dtype, &g);
  }
  ct_release(scratch);
}

/* Can we run (a @ b) ourselves? same float dtype on the CPU, matching ranks and inner sizes. */
static int ctb__mm_ok(const ct_tensor *a, const ct_tensor *b, int rank) {
  if (a->ndim != rank || b->ndim != rank || !ctb__is_cpu_float(a) || !ctb__is_cpu_float(b) || a->dtype != b->dtype) return 0;
  if (a->sizes[rank - 1] != b->sizes[rank - 2]) return 0;
  if (rank == 3 && a->sizes[0] != b->sizes[0]) return 0;
  return 1;
}

/* ---- linear: input @ weight^T + bias in one product, the [out][in] weight
 * read through its strides (no transposed view, no copy): the operands and
 * so the bits of addmm(bias, input, weight.t()) ---- */
static ct_tensor *k_linear(ct_keyset ks, ct_tensor *x, ct_tensor *w, ct_tensor *b) {
  int64_t shape[CT_MAX_DIMS], rows = 1, r;
  int n = x->ndim, d;
  size_t es;
  ct_tensor *y;
  ctb__gemm_args g;
  if (n < 2 || w->ndim != 2 || !ctb__is_cpu_float(x) || !ctb__is_cpu_float(w) || x->dtype != w->dtype ||
      x->sizes[n - 1] != w->sizes[1] || x->numel == 0 || w->numel == 0 || (n > 2 && !ctb__contig(x)) ||
      (b && (!ctb__is_cpu_float(b) || b->dtype != x->dtype || b->ndim != 1 || b->sizes[0] != w->sizes[0] || b->strides[0] != 1)))
    return CTB__PREV(K_LINEAR, linear)(ks, x, w, b);
  for (d = 0; d < n - 1; d++) shape[d] = x->sizes[d], rows *= x->sizes[d];
  shape[n - 1] = w->sizes[0];
  y = ct_backend_empty("linear", n, shape, (ct_dtype)x->dtype, x->device);
  if (!y) return NULL;
  es = x->dtype == CT_F32 ? 4 : 8;
  if (b) {
    char *yp = (char *)ct_data_ptr(y);
    const char *bp = (const char *)ct_data_ptr(b);
    size_t row = (size_t)shape[n - 1] * es;
    for (r = 0; r < rows; r++) memcpy(yp + (size_t)r * row, bp, row);
  }
  g.m = rows, g.n = shape[n - 1], g.k = w->sizes[1];
  g.a = ct_data_ptr(x);
  g.rsa = n == 2 ? x->strides[0] : g.k, g.csa = n == 2 ? x->strides[1] : 1;
  g.b = ct_data_ptr(w);
  g.rsb = w->strides[1], g.csb = w->strides[0];
  g.c = ct_data_ptr(y);
  g.rsc = g.n, g.csc = 1;
  g.alpha = 1, g.beta = b ? 1 : 0;
  ctb__gemm((ct_dtype)x->dtype, &g);
  return y;
}

/* ---- mm / bmm ---- */
static ct_tensor *ctb__mm_new(int rank, ct_tensor *a, ct_tensor *b, const char *op) {
  int64_t shape[3];
  ct_tensor *r;
  if (rank == 3) shape[0] = a->sizes[0];
  shape[rank - 2] = a->sizes[rank - 2];
  shape[rank - 1] = b->sizes[rank - 1];
  r = ct_backend_empty(op, rank, shape, (ct_dtype)a->dtype, a->device);
  if (r) ctb__gemm_tensors(rank - 2, a, b, r, 1.0, 0.0);
  return r;
}
static int ctb__mm_out_ok(int rank, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  int64_t shape[3];
  if (!ctb__mm_ok(a, b, rank)) return 0;
  if (rank == 3) shape[0] = a->sizes[0];
  shape[rank - 2] = a->sizes[rank - 2];
  shape[rank - 1] = b->sizes[rank - 1];
  return ctb__out_ok(out, (ct_dtype)a->dtype, rank, shape, a, b, NULL);
}
static ct_tensor *k_mm(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  if (!ctb__mm_ok(a, b, 2)) return CTB__PREV(K_MM, mm)(ks, a, b);
  return ctb__mm_new(2, a, b, "mm");
}
static ct_status k_mm_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  if (!ctb__mm_out_ok(2, a, b, out)) return CTB__PREV(K_MM_OUT, mm_out)(ks, a, b, out);
  ctb__gemm_tensors(0, a, b, out, 1.0, 0.0);
  ct_backend_bump_version(out);
  return CT_OK;
}
static ct_tensor *k_bmm(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  if (!ctb__mm_ok(a, b, 3)) return CTB__PREV(K_BMM, bmm)(ks, a, b);
  return ctb__mm_new(3, a, b, "bmm");
}
static ct_status k_bmm_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  if (!ctb__mm_out_ok(3, a, b, out)) return CTB__PREV(K_BMM_OUT, bmm_out)(ks, a, b, out);
  ctb__gemm_tensors(1, a, b, out, 1.0, 0.0);
  ct_backend_bump_version(out);
  return CT_OK;
}

/* ---- addmm / baddbmm: out = beta * self (broadcast) + alpha * (m1 @ m2) ---- */
/* Copy self, broadcast to out's shape (right-aligned, size-1 or missing dims
 * repeat), into out, which is contiguous. */
static void ctb__broadcast_copy(const ct_tensor *self, ct_tensor *out) {
  int nd = out->ndim, d;
  int64_t st[3] = {0, 0, 0}, rows, r, j, n = out->sizes[nd - 1];
  size_t es = out->dtype == CT_F32 ? 4 : 8;
  const char *src = (const char *)ct_data_ptr(self);
  char *dst = (char *)ct_data_ptr(out);
  for (d = 0; d < nd; d++) {
    int sd = self->ndim - (nd - d);
    st[d] = sd >= 0 && self->sizes[sd] != 1 ? self->strides[sd] : 0;
  }
  rows = out->numel / (n ? n : 1);
  for (r = 0; r < rows && n; r++) { /* row r of out: outer index (r / sizes[1], r % sizes[1]) for rank 3 */
    int64_t off = nd == 3 ? (r / out->sizes[1]) * st[0] + (r % out->sizes[1]) * st[1] : nd == 2 ? r * st[0] : 0;
    char *o = dst + r * n * (int64_t)es;
    const char *i = src + off * (int64_t)es;
    if (st[nd - 1] == 1) memcpy(o, i, (size_t)n * es);
    else if (es == 4) for (j = 0; j < n; j++) ((float *)o)[j] = ((const float *)i)[j * st[nd - 1]];
    else for (j = 0; j < n; j++) ((double *)o)[j] = ((const double *)i)[j * st[nd - 1]];
  }
}
static int ctb__addmm_ok(int rank, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  int d;
  if (!ctb__mm_ok(m1, m2, rank) || !ctb__is_cpu_float(self) || self->dtype != m1->dtype || self->ndim > rank) return 0;
  if (beta.kind == CT_SCALAR_NONE || alpha.kind == CT_SCALAR_NONE) return 0;
  /* alpha 0: BLAS would not read the product, but the reference kernel (and
   * PyTorch's own CPU gemm) computes 0 * (m1 @ m2), NaN where the product
   * has an inf or NaN: the reference kernel keeps results backend-independent */
  if (ctb__scalar_d(alpha) == 0) return 0;
  for (d = 0; d < self->ndim; d++) {
    int od = rank - self->ndim + d;
    int64_t want = od == rank - 1 ? m2->sizes[rank - 1] : od == rank - 2 ? m1->sizes[rank - 2] : m1->sizes[0];
    if (self->sizes[d] != 1 && self->sizes[d] != want) return 0;
  }
  return 1;
}
static void ctb__addmm_into(int rank, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, double beta, double alpha, ct_tensor *out) {
  if (beta != 0) ctb__broadcast_copy(self, out);
  ctb__gemm_tensors(rank - 2, m1, m2, out, alpha, beta == 0 ? 0.0 : beta);
}
static ct_tensor *ctb__addmm_new(int rank, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha,
                                const char *op) {
  int64_t shape[3];
  ct_tensor *r;
  if (rank == 3) shape[0] = m1->sizes[0];
  shape[rank - 2] = m1->sizes[rank - 2];
  shape[rank - 1] = m2->sizes[rank - 1];
  r = ct_backend_empty(op, rank, shape, (ct_dtype)m1->dtype, m1->device);
  if (r) ctb__addmm_into(rank, self, m1, m2, ctb__scalar_d(beta), ctb__scalar_d(alpha), r);
  return r;
}
static ct_tensor *k_addmm(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  if (!ctb__addmm_ok(2, self, m1, m2, beta, alpha)) return CTB__PREV(K_ADDMM, addmm)(ks, self, m1, m2, beta, alpha);
  return ctb__addmm_new(2, self, m1, m2, beta, alpha, "addmm");
}
static ct_tensor *k_baddbmm(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  if (!ctb__addmm_ok(3, self, m1, m2, beta, alpha)) return CTB__PREV(K_BADDBMM, baddbmm)(ks, self, m1, m2, beta, alpha);
  return ctb__addmm_new(3, self, m1, m2, beta, alpha, "baddbmm");
}
static ct_status ctb__addmm_out(int idx, int rank, ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta,
                               ct_scalar alpha, ct_tensor *out) {
  int64_t shape[3];
  if (ctb__addmm_ok(rank, self, m1, m2, beta, alpha)) {
    if (rank == 3) shape[0] = m1->sizes[0];
    shape[rank - 2] = m1->sizes[rank - 2];
    shape[rank - 1] = m2->sizes[rank - 1];
    if (ctb__out_ok(out, (ct_dtype)m1->dtype, rank, shape, m1, m2, self)) {
      ctb__addmm_into(rank, self, m1, m2, ctb__scalar_d(beta), ctb__scalar_d(alpha), out);
      ct_backend_bump_version(out);
      return CT_OK;
    }
  }
  return idx == K_ADDMM_OUT ? CTB__PREV(K_ADDMM_OUT, addmm_out)(ks, self, m1, m2, beta, alpha, out)
                            : CTB__PREV(K_BADDBMM_OUT, baddbmm_out)(ks, self, m1, m2, beta, alpha, out);
}
static ct_status k_addmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha,
                             ct_tensor *out) {
  return ctb__addmm_out(K_ADDMM_OUT, 2, ks, self, m1, m2, beta, alpha, out);
}
static ct_status k_baddbmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha,
                               ct_tensor *out) {
  return ctb__addmm_out(K_BADDBMM_OUT, 3, ks, self, m1, m2, beta, alpha, out);
}

/* in place: self is C (beta * self + alpha * m1 @ m2), when it has the full shape */
static ct_status ctb__addmm_inplace(int idx, int rank, ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2,
                                    ct_scalar beta, ct_scalar alpha) {
  if (ctb__addmm_ok(rank, self, m1, m2, beta, alpha) && self->ndim == rank && ctb__contig(self) &&
      self->sizes[rank - 2] == m1->sizes[rank - 2] && self->sizes[rank - 1] == m2->sizes[rank - 1] &&
      (rank == 2 || self->sizes[0] == m1->sizes[0]) && self->storage != m1->storage && self->storage != m2->storage) {
    double b = ctb__scalar_d(beta);
    ctb__gemm_tensors(rank - 2, m1, m2, self, ctb__scalar_d(alpha), b == 0 ? 0.0 : b);
    ct_backend_bump_version(self);
    return CT_OK;
  }
  return idx == K_ADDMM_ ? CTB__PREV(K_ADDMM_, addmm_)(ks, self, m1, m2, beta, alpha)
                        : CTB__PREV(K_BADDBMM_, baddbmm_)(ks, self, m1, m2, beta, alpha);
}
static ct_status k_addmm_(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  return ctb__addmm_inplace(K_ADDMM_, 2, ks, self, m1, m2, beta, alpha);
}
static ct_status k_baddbmm_(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  return ctb__addmm_inplace(K_BADDBMM_, 3, ks, self, m1, m2, beta, alpha);
}

/* ---- mv (a gemm with n = 1) and dot ---- */
static int ctb__mv_ok(const ct_tensor *a, const ct_tensor *x) {
  return a->ndim == 2 && x->ndim == 1 && ctb__is_cpu_float(a) && ctb__is_cpu_float(x) && a->dtype == x->dtype &&
         a->sizes[1] == x->sizes[0];
}
static void ctb__mv_into(ct_tensor *a, ct_tensor *x, ct_tensor *y) {
  ctb__gemm_args g;
  const void *p;
  g.m = a->sizes[0];
  g.n = 1;
  g.k = a->sizes[1];
  ctb__mat(a, 0, 0, &g.a, &g.rsa, &g.csa);
  g.b = ct_data_ptr(x);
  g.rsb = x->strides[0];
  g.csb = 1;
  ctb__mat(y, 0, 0, &p, &g.rsc, &g.csc); /* y is 1-D: rs = stride, cs read past strides[1] is fixed below */
  g.c = (void *)p;
  g.rsc = y->strides[0];
  g.csc = 1;
  g.alpha = 1;
  g.beta = 0;
  if (g.rsb != 1 && g.k > 1) g.csb = g.k * g.rsb; /* any valid column stride for a single column */
  ctb__gemm((ct_dtype)a->dtype, &g);
}
static ct_tensor *k_mv(ct_keyset ks, ct_tensor *a, ct_tensor *x) {
  ct_tensor *r;
  if (!ctb__mv_ok(a, x)) return CTB__PREV(K_MV, mv)(ks, a, x);
  r = ct_backend_empty("mv", 1, a->sizes, (ct_dtype)a->dtype, a->device);
  if (r) ctb__mv_into(a, x, r);
  return r;
}
static ct_status k_mv_out(ct_keyset ks, ct_tensor *a, ct_tensor *x, ct_tensor *out) {
  if (!ctb__mv_ok(a, x) || !ctb__out_ok(out, (ct_dtype)a->dtype, 1, a->sizes, a, x, NULL))
    return CTB__PREV(K_MV_OUT, mv_out)(ks, a, x, out);
  ctb__mv_into(a, x, out);
  ct_backend_bump_version(out);
  return CT_OK;
}

static int ctb__dot_ok(const ct_tensor *a, const ct_tensor *b) {
  return a->ndim == 1 && b->ndim == 1 && ctb__is_cpu_float(a) && ctb__is_cpu_float(b) && a->dtype == b->dtype &&
         a->sizes[0] == b->sizes[0];
}
static void ctb__dot_into(ct_tensor *a, ct_tensor *b, ct_tensor *r) {
  const char *pa = (const char *)ct_data_ptr(a);
  const char *pb = (const char *)ct_data_ptr(b);
  char *pr = (char *)ct_data_ptr(r);
  int64_t n = a->sizes[0], i;
  if (n >= 64 && a->strides[0] > 0 && b->strides[0] > 0) { /* BLIS's vectorised dotv, one thread */
    rntm_t rntm;
    bli_rntm_init(&rntm);
    bli_rntm_set_num_threads(1, &rntm);
    if (a->dtype == CT_F32)
      bli_sdotv_ex(BLIS_NO_CONJUGATE, BLIS_NO_CONJUGATE, n, (float *)pa, a->strides[0], (float *)pb, b->strides[0],
                   (float *)pr, NULL, &rntm);
    else
      bli_ddotv_ex(BLIS_NO_CONJUGATE, BLIS_NO_CONJUGATE, n, (double *)pa, a->strides[0], (double *)pb, b->strides[0],
                   (double *)pr, NULL, &rntm);
    return;
  }
  if (a->dtype == CT_F32) {
    float s = 0;
    for (i = 0; i < n; i++) s += ((const float *)pa)[i * a->strides[0]] * ((const float *)pb)[i * b->strides[0]];
    *(float *)pr = s;
  } else {
    double s = 0;
    for (i = 0; i < n; i++) s += ((const double *)pa)[i * a->strides[0]] * ((const double *)pb)[i * b->strides[0]];
    *(double *)pr = s;
  }
}
static ct_tensor *k_dot(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r;
  if (!ctb__dot_ok(a, b)) return CTB__PREV(K_DOT, dot)(ks, a, b);
  r = ct_backend_empty("dot", 0, NULL, (ct_dtype)a->dtype, a->device);
  if (r) ctb__dot_into(a, b, r);
  return r;
}
static ct_status k_dot_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  if (!ctb__dot_ok(a, b) || !ctb__out_ok(out, (ct_dtype)a->dtype, 0, NULL, a, b, NULL))
    return CTB__PREV(K_DOT_OUT, dot_out)(ks, a, b, out);
  ctb__dot_into(a, b, out);
  ct_backend_bump_version(out);
  return CT_OK;
}

/* ---- pointwise and reductions: contiguous f32/f64, parallel over chunks ---- */
enum { OP_ADD, OP_MUL, OP_RELU, OP_THRESHOLD_BW };
typedef struct {
  int op;
  const void *a, *b;
  void *r;
  double alpha; /* add: r = a + alpha b; threshold_bw: threshold */
} ctb__pw;

#define CTB__PW_LOOP(NAME, T)                                                                                 \
  CTB__BLIS_CLONES static void NAME(int op, const T *restrict a, const T *restrict b, T *restrict r, T s,    \
                                   int64_t n) {                                                            \
    int64_t i;                                                                                             \
    switch (op) {                                                                                          \
    case OP_ADD:                                                                                           \
      if (s == 1) for (i = 0; i < n; i++) r[i] = a[i] + b[i];                                              \
      else for (i = 0; i < n; i++) r[i] = a[i] + s * b[i];                                                 \
      break;                                                                                               \
    case OP_MUL: for (i = 0; i < n; i++) r[i] = a[i] * b[i]; break;                                        \
    case OP_RELU: for (i = 0; i < n; i++) r[i] = a[i] > 0 ? a[i] : (a[i] != a[i] ? a[i] : 0); break;      \
    default: for (i = 0; i < n; i++) r[i] = b[i] <= s ? 0 : a[i]; break;                                   \
    }                                                                                                      \
  }
CTB__PW_LOOP(ctb__pw_f32, float)
CTB__PW_LOOP(ctb__pw_f64, double)

typedef struct {
  ctb__pw pw;
  int f64;
} ctb__pw_job;
/* relu in place: one pointer, no restrict aliasing question */
#define CTB__RELU_INPLACE(NAME, T)                                                   \
  CTB__BLIS_CLONES static void NAME(T *x, int64_t n) {                              \
    int64_t i;                                                                       \
    for (i = 0; i < n; i++) x[i] = x[i] > 0 ? x[i] : (x[i] != x[i] ? x[i] : 0);    \
  }
CTB__RELU_INPLACE(ctb__relu_inplace_f32, float)
CTB__RELU_INPLACE(ctb__relu_inplace_f64, double)

static void ctb__pw_run(int64_t b, int64_t e, void *ctx) {
  ctb__pw_job *j = (ctb__pw_job *)ctx;
  if (j->pw.r == j->pw.a) { /* in place (relu_ only) */
    if (j->f64) ctb__relu_inplace_f64((double *)j->pw.r + b, e - b);
    else ctb__relu_inplace_f32((float *)j->pw.r + b, e - b);
    return;
  }
  if (j->f64)
    ctb__pw_f64(j->pw.op, (const double *)j->pw.a + b, j->pw.b ? (const double *)j->pw.b + b : (const double *)j->pw.a + b,
               (double *)j->pw.r + b, j->pw.alpha, e - b);
  else
    ctb__pw_f32(j->pw.op, (const float *)j->pw.a + b, j->pw.b ? (const float *)j->pw.b + b : (const float *)j->pw.a + b,
               (float *)j->pw.r + b, (float)j->pw.alpha, e - b);
}

static const void *ctb__base(const ct_tensor *t) {
  return ct_data_ptr(t); /* (an empty view past its storage gets the storage's address) */
}
/* a and b (b may be NULL): same float dtype, same shape, contiguous, plain tensors */
static int ctb__pw_ok(const ct_tensor *a, const ct_tensor *b) {
  if (!ctb__is_cpu_float(a) || !ctb__contig(a) || (a->flags & CT_TENSOR_WRAPPED_NUMBER)) return 0;
  if (!b) return 1;
  return ctb__is_cpu_float(b) && ctb__contig(b) && b->dtype == a->dtype && !(b->flags & CT_TENSOR_WRAPPED_NUMBER) &&
         ct_same_shape(a, b);
}
static ct_tensor *ctb__pw_new(int op, const char *name, ct_tensor *a, ct_tensor *b, double s) {
  ctb__pw_job j;
  ct_tensor *r = ct_backend_empty(name, a->ndim, a->sizes, (ct_dtype)a->dtype, a->device);
  if (!r) return NULL;
  j.pw.op = op;
  j.pw.a = ctb__base(a);
  j.pw.b = b ? ctb__base(b) : NULL;
  j.pw.r = (void *)ctb__base(r);
  j.pw.alpha = s;
  j.f64 = a->dtype == CT_F64;
  ct_parallel_for(a->numel, CT_BLIS_GRAIN, ctb__pw_run, &j);
  return r;
}
static int ctb__alpha_ok(ct_scalar s) { return s.kind == CT_SCALAR_FLOAT || s.kind == CT_SCALAR_INT; }
/* Does a number stored as (or computed with in) t's dtype fit it? PyTorch
 * refuses finite floats beyond float32's range for float32 tensors (fill_,
 * alpha): those calls go to the reference kernel, which fails as PyTorch. */
static int ctb__fits(const ct_tensor *t, ct_scalar s) {
  return t->dtype != CT_F32 || s.kind != CT_SCALAR_FLOAT || s.v.f != s.v.f || s.v.f == INFINITY || s.v.f == -INFINITY ||
         fabs(s.v.f) <= 3.4028234663852886e38;
}
static ct_tensor *k_add(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {
  if (!ctb__pw_ok(a, b) || !ctb__alpha_ok(alpha) || !ctb__fits(a, alpha)) return CTB__PREV(K_ADD, add_Tensor)(ks, a, b, alpha);
  return ctb__pw_new(OP_ADD, "add", a, b, ctb__scalar_d(alpha));
}
static ct_tensor *k_sub(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {
  if (!ctb__pw_ok(a, b) || !ctb__alpha_ok(alpha) || !ctb__fits(a, alpha)) return CTB__PREV(K_SUB, sub_Tensor)(ks, a, b, alpha);
  return ctb__pw_new(OP_ADD, "sub", a, b, -ctb__scalar_d(alpha));
}
static ct_tensor *k_mul(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  if (!ctb__pw_ok(a, b)) return CTB__PREV(K_MUL, mul_Tensor)(ks, a, b);
  return ctb__pw_new(OP_MUL, "mul", a, b, 0);
}
static ct_tensor *k_relu(ct_keyset ks, ct_tensor *a) {
  if (!ctb__pw_ok(a, NULL)) return CTB__PREV(K_RELU, relu)(ks, a);
  return ctb__pw_new(OP_RELU, "relu", a, NULL, 0);
}
static ct_status k_relu_(ct_keyset ks, ct_tensor *a) {
  ctb__pw_job j;
  if (!ctb__pw_ok(a, NULL)) return CTB__PREV(K_RELU_, relu_)(ks, a);
  j.pw.op = OP_RELU;
  j.pw.a = ctb__base(a);
  j.pw.b = NULL;
  j.pw.r = (void *)ctb__base(a); /* same element in and out: safe in place */
  j.pw.alpha = 0;
  j.f64 = a->dtype == CT_F64;
  ct_parallel_for(a->numel, CT_BLIS_GRAIN, ctb__pw_run, &j);
  ct_backend_bump_version(a);
  return CT_OK;
}
/* in-place x op= y and fill: plain pointers (x and y may be the same tensor) */
#define CTB__INPLACE(NAME, T)                                                                         \
  CTB__BLIS_CLONES static void NAME(int op, T *x, const T *y, T s, int64_t n) {                      \
    int64_t i;                                                                                        \
    if (op == 0) for (i = 0; i < n; i++) x[i] += s * y[i];                                            \
    else if (op == 1) for (i = 0; i < n; i++) x[i] *= y[i];                                           \
    else for (i = 0; i < n; i++) x[i] = s;                                                            \
  }
/* y is NULL only for op 2 (fill), which never reads it: ctb__inplace passes y for ops 0 and 1 */
CTB__INPLACE(ctb__inplace_f32, float)  /* NOLINT(clang-analyzer-core.NullDereference) */
CTB__INPLACE(ctb__inplace_f64, double) /* NOLINT(clang-analyzer-core.NullDereference) */
typedef struct {
  int op, f64;
  void *x;
  const void *y;
  double s;
} ctb__ip_job;
static void ctb__ip_run(int64_t b, int64_t e, void *ctx) {
  ctb__ip_job *j = (ctb__ip_job *)ctx;
  if (j->f64) ctb__inplace_f64(j->op, (double *)j->x + b, j->y ? (const double *)j->y + b : NULL, j->s, e - b);
  else ctb__inplace_f32(j->op, (float *)j->x + b, j->y ? (const float *)j->y + b : NULL, (float)j->s, e - b);
}
static ct_status ctb__inplace(int op, ct_tensor *x, ct_tensor *y, double s) {
  ctb__ip_job j;
  j.op = op;
  j.f64 = x->dtype == CT_F64;
  j.x = (void *)ctb__base(x);
  j.y = y ? ctb__base(y) : NULL;
  j.s = s;
  ct_parallel_for(x->numel, CT_BLIS_GRAIN, ctb__ip_run, &j);
  ct_backend_bump_version(x);
  return CT_OK;
}
/* self op= other: same shape and dtype, contiguous; other is self or does not share its storage */
static int ctb__ip_ok(const ct_tensor *x, const ct_tensor *y) {
  return ctb__pw_ok(x, y) && (y == x || x->storage != y->storage || (x->offset == y->offset && ct_same_shape(x, y)));
}
static ct_status k_add_(ct_keyset ks, ct_tensor *x, ct_tensor *y, ct_scalar alpha) {
  if (!ctb__ip_ok(x, y) || !ctb__alpha_ok(alpha) || !ctb__fits(x, alpha))
    return CTB__PREV(K_ADD_, add__Tensor)(ks, x, y, alpha);
  return ctb__inplace(0, x, y, ctb__scalar_d(alpha));
}
static ct_status k_sub_(ct_keyset ks, ct_tensor *x, ct_tensor *y, ct_scalar alpha) {
  if (!ctb__ip_ok(x, y) || !ctb__alpha_ok(alpha) || !ctb__fits(x, alpha))
    return CTB__PREV(K_SUB_, sub__Tensor)(ks, x, y, alpha);
  return ctb__inplace(0, x, y, -ctb__scalar_d(alpha));
}
static ct_status k_mul_(ct_keyset ks, ct_tensor *x, ct_tensor *y) {
  if (!ctb__ip_ok(x, y)) return CTB__PREV(K_MUL_, mul__Tensor)(ks, x, y);
  return ctb__inplace(1, x, y, 0);
}
static ct_status k_fill_(ct_keyset ks, ct_tensor *x, ct_scalar v) {
  if (!ctb__pw_ok(x, NULL) || !(v.kind == CT_SCALAR_FLOAT || v.kind == CT_SCALAR_INT || v.kind == CT_SCALAR_BOOL) || !ctb__fits(x, v))
    return CTB__PREV(K_FILL_, fill__Scalar)(ks, x, v);
  return ctb__inplace(2, x, NULL, ctb__scalar_d(v));
}
static ct_tensor *k_threshold_bw(ct_keyset ks, ct_tensor *grad, ct_tensor *self, ct_scalar th) {
  if (!ctb__pw_ok(grad, self) || !ctb__alpha_ok(th)) return CTB__PREV(K_THRESHOLD_BW, threshold_backward)(ks, grad, self, th);
  return ctb__pw_new(OP_THRESHOLD_BW, "threshold_backward", grad, self, ctb__scalar_d(th));
}

/* Sum: one double partial per fixed chunk, each from 16 float lanes summed in
 * a fixed order; partials combined in chunk order: the same bits whatever
 * the thread count. */
#define CTB__SUM_LOOP(NAME, T)                                                              \
  CTB__BLIS_CLONES static double NAME(const T *restrict x, int64_t n) {                     \
    T acc[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};                           \
    double s = 0;                                                                          \
    int64_t i;                                                                             \
    int t;                                                                                 \
    for (i = 0; i + 16 <= n; i += 16)                                                      \
      for (t = 0; t < 16; t++) acc[t] += x[i + t];                                         \
    for (t = 0; t < 16; t++) s += (double)acc[t];                                          \
    for (; i < n; i++) s += (double)x[i];                                                  \
    return s;                                                                              \
  }
CTB__SUM_LOOP(ctb__sum_f32, float)
CTB__SUM_LOOP(ctb__sum_f64, double)

typedef struct {
  const void *x;
  int f64;
  double *partials;
} ctb__sum_job;
static void ctb__sum_run(int64_t b, int64_t e, void *ctx) {
  ctb__sum_job *j = (ctb__sum_job *)ctx;
  j->partials[b / CT_BLIS_GRAIN] =
      j->f64 ? ctb__sum_f64((const double *)j->x + b, e - b) : ctb__sum_f32((const float *)j->x + b, e - b);
}
static ct_tensor *ctb__sum_common(ct_tensor *a, int mean, const char *name) {
  double local[64], *partials = local, s = 0;
  int64_t nchunks = (a->numel + CT_BLIS_GRAIN - 1) / CT_BLIS_GRAIN, c;
  ctb__sum_job j;
  ct_tensor *r = ct_backend_empty(name, 0, NULL, (ct_dtype)a->dtype, a->device);
  if (!r) return NULL;
  if (nchunks > 64) {
    ct_tensor *buf = ct_backend_empty(name, 1, &nchunks, CT_F64, a->device); /* pooled: no system allocation */
    if (!buf) {
      ct_release(r);
      return NULL;
    }
    partials = (double *)ct_data_ptr(buf);
    j.x = ctb__base(a);
    j.f64 = a->dtype == CT_F64;
    j.partials = partials;
    ct_parallel_for(a->numel, CT_BLIS_GRAIN, ctb__sum_run, &j);
    for (c = 0; c < nchunks; c++) s += partials[c];
    ct_release(buf);
  } else {
    j.x = ctb__base(a);
    j.f64 = a->dtype == CT_F64;
    j.partials = partials;
    ct_parallel_for(a->numel, CT_BLIS_GRAIN, ctb__sum_run, &j);
    /* cppcheck-suppress uninitvar ; ctb__sum_run wrote partials[0..nchunks) (ct_parallel_for's fixed CT_BLIS_GRAIN chunks) */
    for (c = 0; c < nchunks; c++) s += partials[c];
  }
  if (mean) s = a->numel ? s / (double)a->numel : NAN;
  if (a->dtype == CT_F32) *(float *)ct_data_ptr(r) = (float)s;
  else *(double *)ct_data_ptr(r) = s;
  return r;
}
static ct_tensor *k_sum(ct_keyset ks, ct_tensor *a, ct_dtype dtype) {
  if (!ctb__pw_ok(a, NULL) || (dtype != CT_DTYPE_NONE && dtype != (ct_dtype)a->dtype)) return CTB__PREV(K_SUM, sum)(ks, a, dtype);
  return ctb__sum_common(a, 0, "sum");
}

/* sum over dim 0 of a contiguous matrix (bias gradients: sum_to over the
 * batch): rows added in order into the first, vectorised over columns. */
#define CTB__COLSUM(NAME, T)                                                                 \
  CTB__BLIS_CLONES static void NAME(const T *restrict x, int64_t rows, int64_t n, T *restrict r) { \
    int64_t i, j;                                                                            \
    for (j = 0; j < n; j++) r[j] = x[j];                                                     \
    for (i = 1; i < rows; i++)                                                               \
      for (j = 0; j < n; j++) r[j] += x[i * n + j];                                          \
  }
CTB__COLSUM(ctb__colsum_f32, float)
CTB__COLSUM(ctb__colsum_f64, double)
static ct_tensor *k_sum_dim(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype) {
  int64_t shape[2];
  ct_tensor *r;
  if (!ctb__pw_ok(a, NULL) || a->ndim != 2 || dims.n != 1 || !dims.data || (dims.data[0] != 0 && dims.data[0] != -2) ||
      a->sizes[0] < 1 || (dtype != CT_DTYPE_NONE && dtype != (ct_dtype)a->dtype))
    return CTB__PREV(K_SUM_DIM, sum_dim_IntList)(ks, a, dims, keepdim, dtype);
  shape[0] = 1;
  shape[1] = a->sizes[1];
  r = ct_backend_empty("sum", keepdim ? 2 : 1, keepdim ? shape : shape + 1, (ct_dtype)a->dtype, a->device);
  if (!r) return NULL;
  if (a->dtype == CT_F32) ctb__colsum_f32((const float *)ctb__base(a), a->sizes[0], a->sizes[1], (float *)ct_data_ptr(r));
  else ctb__colsum_f64((const double *)ctb__base(a), a->sizes[0], a->sizes[1], (double *)ct_data_ptr(r));
  return r;
}


/* ---- exp, sigmoid, tanh, softmax, log_softmax: contiguous f32/f64 ----
 * f32 runs a vectorised exp (8 lanes, GCC/Clang vector extensions): the
 * exponent n = round(x / ln 2) is split off, exp(r) for |r| <= ln 2 / 2 is a
 * degree-6 polynomial (Cephes' expf coefficients, about 1 ulp), and 2^n is
 * applied in two halves so that results down to the smallest subnormal are
 * right. Overflow gives inf, underflow 0, NaN stays NaN. sigmoid and tanh are
 * built on it (tanh with Cephes' odd polynomial below |x| = 0.625, where
 * 1 - 2 / (e^2x + 1) would cancel). f64 calls libm per element. Each element
 * (each row, for softmax) is computed on its own, so results never depend on
 * the thread count. */
typedef int32_t ctb__v8i __attribute__((vector_size(32)));
#define CTB__SEL(mask, a, b) ((ctb__v8f)(((mask) & (ctb__v8i)(a)) | (~(mask) & (ctb__v8i)(b))))
static inline __attribute__((always_inline)) void ctb__exp8(ctb__v8f *io) { /* in place: vectors by pointer keep the ABI out of it */
  ctb__v8f x0 = *io;
  const ctb__v8f zero = {0}, one = zero + 1.0f, inf = zero + INFINITY;
  const ctb__v8f magic = zero + 12582912.0f; /* 1.5 * 2^23: adding it rounds to an integer */
  ctb__v8i hi = x0 > 88.72283935546875f, lo = x0 < -103.97208f, nan = x0 != x0, ni, n1, n2; /* NOLINT(misc-redundant-expression): the NaN lanes */
  ctb__v8f x = CTB__SEL(hi | lo | nan, zero, x0), n, r, p, y;
  n = (x * 1.44269504088896341f + magic) - magic;
  r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  p = zero + 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  y = p * (r * r) + r + one;
  ni = __builtin_convertvector(n, ctb__v8i);
  n1 = ni >> 1;
  n2 = ni - n1;
  y = (y * (ctb__v8f)((n1 + 127) << 23)) * (ctb__v8f)((n2 + 127) << 23);
  y = CTB__SEL(hi, inf, y);
  y = CTB__SEL(lo, zero, y);
  *io = CTB__SEL(nan, x0, y);
}
static inline __attribute__((always_inline)) void ctb__sigmoid8(ctb__v8f *io) {
  const ctb__v8f zero = {0}, one = zero + 1.0f, x = *io;
  ctb__v8i neg = x < 0;
  ctb__v8f e = CTB__SEL(neg, x, -x); /* exp(-|x|): never overflows */
  ctb__exp8(&e);
  *io = CTB__SEL(neg, e, one) / (one + e);
}
static inline __attribute__((always_inline)) void ctb__tanh8(ctb__v8f *io) {
  const ctb__v8f zero = {0}, one = zero + 1.0f, two = zero + 2.0f, x = *io;
  ctb__v8i small = (x < 0.625f) & (x > -0.625f), neg = x < 0, nan = x != x; /* NOLINT(misc-redundant-expression): the NaN lanes */
  ctb__v8f ax = CTB__SEL(neg, -x, x), z = x * x, p, big;
  p = zero + -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z + -5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z + -3.33332819422e-1f;
  p = p * z * x + x;
  big = two * ax;
  ctb__exp8(&big);
  big = one - two / (big + one); /* exp overflow: 1 */
  big = CTB__SEL(neg, -big, big);
  *io = CTB__SEL(nan, x, CTB__SEL(small, p, big));
}
enum { UN_EXP, UN_SIGMOID, UN_TANH };
/* y = f(x) over n floats (x == y allowed): whole vectors, then the tail through one padded vector */
static inline __attribute__((always_inline)) void ctb__unary8(int f, ctb__v8f *v) {
  if (f == UN_EXP) ctb__exp8(v);
  else if (f == UN_SIGMOID) ctb__sigmoid8(v);
  else ctb__tanh8(v);
}
CTB__BLIS_CLONES static void ctb__unary_f32(int f, const float *x, float *y, int64_t n) {
  ctb__v8f v;
  int64_t i;
  for (i = 0; i + 8 <= n; i += 8) {
    v = *(const ctb__v8fu *)(x + i);
    ctb__unary8(f, &v);
    *(ctb__v8fu *)(y + i) = v;
  }
  if (i < n) { /* the tail through one zero-padded vector */
    const ctb__v8f zero = {0};
    v = zero;
    memcpy(&v, x + i, sizeof(float) * (size_t)(n - i));
    ctb__unary8(f, &v);
    memcpy(y + i, &v, sizeof(float) * (size_t)(n - i));
  }
}
static double ctb__sigmoid_d(double x) {
  double e = exp(-fabs(x));
  return x < 0 ? e / (1 + e) : 1 / (1 + e);
}
static void ctb__unary_f64(int f, const double *x, double *y, int64_t n) {
  int64_t i;
  if (f == UN_EXP) for (i = 0; i < n; i++) y[i] = exp(x[i]);
  else if (f == UN_SIGMOID) for (i = 0; i < n; i++) y[i] = ctb__sigmoid_d(x[i]);
  else for (i = 0; i < n; i++) y[i] = tanh(x[i]);
}
typedef struct {
  int f, f64;
  const void *x;
  void *y;
} ctb__un_job;
static void ctb__un_run(int64_t b, int64_t e, void *ctx) {
  ctb__un_job *j = (ctb__un_job *)ctx;
  if (j->f64) ctb__unary_f64(j->f, (const double *)j->x + b, (double *)j->y + b, e - b);
  else ctb__unary_f32(j->f, (const float *)j->x + b, (float *)j->y + b, e - b);
}
static ct_tensor *ctb__unary_new(int f, const char *name, ct_tensor *a) {
  ctb__un_job j;
  ct_tensor *r = ct_backend_empty(name, a->ndim, a->sizes, (ct_dtype)a->dtype, a->device);
  if (!r) return NULL;
  j.f = f;
  j.f64 = a->dtype == CT_F64;
  j.x = ctb__base(a);
  j.y = (void *)ctb__base(r);
  ct_parallel_for(a->numel, CT_BLIS_GRAIN / 4, ctb__un_run, &j); /* exp costs several adds: a smaller grain */
  return r;
}
static ct_tensor *k_exp(ct_keyset ks, ct_tensor *a) {
  if (!ctb__pw_ok(a, NULL)) return CTB__PREV(K_EXP, exp)(ks, a);
  return ctb__unary_new(UN_EXP, "exp", a);
}
static ct_tensor *k_sigmoid(ct_keyset ks, ct_tensor *a) {
  if (!ctb__pw_ok(a, NULL)) return CTB__PREV(K_SIGMOID, sigmoid)(ks, a);
  return ctb__unary_new(UN_SIGMOID, "sigmoid", a);
}
static ct_tensor *k_tanh(ct_keyset ks, ct_tensor *a) {
  if (!ctb__pw_ok(a, NULL)) return CTB__PREV(K_TANH, tanh)(ks, a);
  return ctb__unary_new(UN_TANH, "tanh", a);
}

/* softmax / log_softmax over `dim` of a contiguous tensor seen as
 * (outer, n, inner): up to CTB__COLS columns at a time, the max and the sum
 * kept per column; f32 rows (inner == 1) have their own vectorised kernel. */
#define CTB__COLS 64
#define CTB__SOFTMAX(NAME, T, EXPN)                                                                                  \
  CTB__BLIS_CLONES static void NAME(int is_log, const T *x, T *y, int64_t n, int64_t inner, int64_t o0, int64_t o1) { \
    T m[CTB__COLS], s[CTB__COLS];                                                                                    \
    int64_t o, c0, w, k, j;                                                                                          \
    for (o = o0; o < o1; o++)                                                                                        \
      for (c0 = 0; c0 < inner; c0 += CTB__COLS) {                                                                    \
        const T *xo = x + o * n * inner + c0;                                                                        \
        T *yo = y + o * n * inner + c0;                                                                              \
        w = inner - c0 < CTB__COLS ? inner - c0 : CTB__COLS;                                                         \
        for (j = 0; j < w; j++) m[j] = -INFINITY, s[j] = 0;                                                          \
        for (k = 0; k < n; k++)                                                                                      \
          for (j = 0; j < w; j++) {                                                                                  \
            T v = xo[k * inner + j];                                                                                 \
            m[j] = v > m[j] || v != v ? v : m[j];                                                                    \
          }                                                                                                          \
        for (k = 0; k < n; k++) { /* y = exp(x - max); the row sum in a fixed order */                               \
          for (j = 0; j < w; j++) yo[k * inner + j] = xo[k * inner + j] - m[j];                                      \
          EXPN(yo + k * inner, yo + k * inner, w);                                                                   \
          for (j = 0; j < w; j++) s[j] += yo[k * inner + j];                                                         \
        }                                                                                                            \
        if (is_log) {                                                                                                \
          for (j = 0; j < w; j++) s[j] = (T)log(s[j]);                                                               \
          for (k = 0; k < n; k++)                                                                                    \
            for (j = 0; j < w; j++) yo[k * inner + j] = (xo[k * inner + j] - m[j]) - s[j];                           \
        } else {                                                                                                     \
          for (k = 0; k < n; k++)                                                                                    \
            for (j = 0; j < w; j++) yo[k * inner + j] /= s[j];                                                       \
        }                                                                                                            \
      }                                                                                                              \
  }
static void ctb__exp_f32(const float *x, float *y, int64_t n) { ctb__unary_f32(UN_EXP, x, y, n); }
static void ctb__exp_f64(const double *x, double *y, int64_t n) { ctb__unary_f64(UN_EXP, x, y, n); }
/* the float rows take their log in double and round once: deliberate */
CTB__SOFTMAX(ctb__softmax_cols_f32, float, ctb__exp_f32) /* NOLINT(performance-type-promotion-in-math-fn) */
CTB__SOFTMAX(ctb__softmax_cols_f64, double, ctb__exp_f64)
/* f32 rows with explicit vectors: one pass for the max, one for exp and the
 * sum (8 lanes, combined in a fixed order, then the tail), one to scale by
 * the reciprocal of the sum (as PyTorch's vectorised kernel does) or to
 * subtract its log. */
/* The largest lane, NaN if any lane is: without branches, whose outcome on
 * data is a coin toss (a row of 32 spent more in mispredicted lane
 * compares than in its exps). */
static inline __attribute__((always_inline)) float ctb__max8(const ctb__v8f *in) { /* (by pointer: no vector ABI) */
  ctb__v8f v = *in;
#if CTB__SHUFFLE_OK
  ctb__v8f s = __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
  v = CTB__SEL((s > v) | (s != s), s, v);
  s = __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
  v = CTB__SEL((s > v) | (s != s), s, v);
  s = __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
  v = CTB__SEL((s > v) | (s != s), s, v);
  return v[0];
#else
  float m = v[0];
  int t;
  for (t = 1; t < 8; t++) m = v[t] > m || v[t] != v[t] ? v[t] : m;
  return m;
#endif
}
CTB__BLIS_CLONES static void ctb__softmax_row_f32(int is_log, const float *restrict x, float *restrict y, int64_t n) {
  const ctb__v8f zero = {0};
  ctb__v8f mv = zero - INFINITY, sv = zero, v;
  float m, s, c;
  int64_t i;
  int t;
  for (i = 0; i + 8 <= n; i += 8) {
    v = *(const ctb__v8fu *)(x + i);
    mv = CTB__SEL((v > mv) | (v != v), v, mv);
  }
  if (i < n) { /* the tail in a vector padded with -inf, which never wins */
    v = zero - INFINITY;
    memcpy(&v, x + i, sizeof(float) * (size_t)(n - i));
    mv = CTB__SEL((v > mv) | (v != v), v, mv);
  }
  m = ctb__max8(&mv);
  for (i = 0; i + 8 <= n; i += 8) {
    v = *(const ctb__v8fu *)(x + i) - m;
    ctb__exp8(&v);
    if (!is_log) *(ctb__v8fu *)(y + i) = v;
    sv += v;
  }
  s = ((sv[0] + sv[4]) + (sv[1] + sv[5])) + ((sv[2] + sv[6]) + (sv[3] + sv[7]));
  if (i < n) {
    v = zero;
    memcpy(&v, x + i, sizeof(float) * (size_t)(n - i));
    v = v - m;
    ctb__exp8(&v);
    if (!is_log) memcpy(y + i, &v, sizeof(float) * (size_t)(n - i));
    for (t = 0; t < n - i; t++) s += v[t];
  }
  if (is_log) {
    c = (float)log((double)s);
    for (i = 0; i + 8 <= n; i += 8) *(ctb__v8fu *)(y + i) = (*(const ctb__v8fu *)(x + i) - m) - c;
    for (; i < n; i++) y[i] = (x[i] - m) - c;
  } else {
    c = 1.0f / s;
    for (i = 0; i + 8 <= n; i += 8) *(ctb__v8fu *)(y + i) = *(ctb__v8fu *)(y + i) * c;
    for (; i < n; i++) y[i] *= c;
  }
}
typedef struct {
  int is_log, f64;
  const void *x;
  void *y;
  int64_t n, inner;
} ctb__sm_job;
static void ctb__sm_run(int64_t b, int64_t e, void *ctx) {
  ctb__sm_job *j = (ctb__sm_job *)ctx;
  int64_t o;
  if (j->inner == 1 && !j->f64) {
    for (o = b; o < e; o++) ctb__softmax_row_f32(j->is_log, (const float *)j->x + o * j->n, (float *)j->y + o * j->n, j->n);
  } else if (j->f64) { /* libm's exp dominates: the column kernel serves rows too (inner 1) */
    ctb__softmax_cols_f64(j->is_log, (const double *)j->x, (double *)j->y, j->n, j->inner, b, e);
  } else {
    ctb__softmax_cols_f32(j->is_log, (const float *)j->x, (float *)j->y, j->n, j->inner, b, e);
  }
}
/* dim in range, no dtype conversion, a non-empty contiguous float tensor */
static int ctb__softmax_ok(const ct_tensor *a, int64_t dim, ct_dtype dtype) {
  return ctb__pw_ok(a, NULL) && a->ndim >= 1 && a->numel > 0 && dim >= -a->ndim && dim < a->ndim &&
         (dtype == CT_DTYPE_NONE || dtype == (ct_dtype)a->dtype);
}
static void ctb__softmax_into(int is_log, const ct_tensor *a, int64_t dim, ct_tensor *r) {
  ctb__sm_job j;
  int64_t outer = 1, d;
  int i;
  if (dim < 0) dim += a->ndim;
  j.is_log = is_log;
  j.f64 = a->dtype == CT_F64;
  j.x = ctb__base(a);
  j.y = (void *)ctb__base(r);
  j.n = a->sizes[dim];
  j.inner = 1;
  for (i = 0; i < a->ndim; i++) {
    if (i < dim) outer *= a->sizes[i];
    if (i > dim) j.inner *= a->sizes[i];
  }
  d = j.n * j.inner; /* elements per outer index */
  ct_parallel_for(outer, d >= CT_BLIS_GRAIN / 4 ? 1 : CT_BLIS_GRAIN / 4 / d, ctb__sm_run, &j);
}
static ct_tensor *ctb__softmax_new(int is_log, ct_tensor *a, int64_t dim) {
  ct_tensor *r = ct_backend_empty(is_log ? "log_softmax" : "softmax", a->ndim, a->sizes, (ct_dtype)a->dtype, a->device);
  if (r) ctb__softmax_into(is_log, a, dim, r);
  return r;
}
static ct_tensor *k_softmax(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype) {
  if (!ctb__softmax_ok(a, dim, dtype)) return CTB__PREV(K_SOFTMAX, softmax_int)(ks, a, dim, dtype);
  return ctb__softmax_new(0, a, dim);
}
static ct_tensor *k_log_softmax(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype) {
  if (!ctb__softmax_ok(a, dim, dtype)) return CTB__PREV(K_LOG_SOFTMAX, log_softmax_int)(ks, a, dim, dtype);
  return ctb__softmax_new(1, a, dim);
}
static int ctb__softmax_out_ok(const ct_tensor *a, int64_t dim, ct_dtype dtype, const ct_tensor *out) {
  return ctb__softmax_ok(a, dim, dtype) && ctb__out_ok(out, (ct_dtype)a->dtype, a->ndim, a->sizes, a, a, NULL);
}
static ct_status k_softmax_out(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype, ct_tensor *out) {
  if (!ctb__softmax_out_ok(a, dim, dtype, out)) return CTB__PREV(K_SOFTMAX_OUT, softmax_int_out)(ks, a, dim, dtype, out);
  ctb__softmax_into(0, a, dim, out);
  ct_backend_bump_version(out);
  return CT_OK;
}
static ct_status k_log_softmax_out(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype, ct_tensor *out) {
  if (!ctb__softmax_out_ok(a, dim, dtype, out)) return CTB__PREV(K_LOG_SOFTMAX_OUT, log_softmax_int_out)(ks, a, dim, dtype, out);
  ctb__softmax_into(1, a, dim, out);
  ct_backend_bump_version(out);
  return CT_OK;
}

/* ---- direct convolution: 2-D, groups 1, stride 1, dilation 1, kernel 1x1
 * or 3x3 (each side), padding <= kernel / 2, contiguous f32/f64 input and
 * weight (convolution, convolution_backward_input, convolution_backward_weight).
 *
 * The input is first copied into zero-padded planes of Hp x Wp (plus zero
 * slack after each image). An output position (y, x) is then position
 * p = y * Wp + x of a flat plane, and tap t = (c, i, j) reads the padded
 * input at off[t] + p with off[t] = c * Hp * Wp + i * Wp + j: one flat run of
 * positions is a vector load per tap for every row at once (columns
 * x >= OW are computed and dropped; that wastes (kw - 1) / Wp of the work).
 *
 * Forward: a register tile of CTB__CONV_OB output channels x 2 vectors of
 * positions; each output is bias (or 0) + sum over taps in tap order
 * (c, i, j), one FMA at a time. Backward input is the forward of grad_output
 * padded by k - 1 - p with the weight flipped and transposed. Backward
 * weight: dW[o][t] = sum over n, p of gy[n][o][p] * xpad[n][off[t] + p],
 * a vector accumulator per (o, t) kept over a run of positions, added into
 * a per-(o, t) vector sum image by image, then its lanes added in order.
 * Tasks own whole outputs (a block of channels of one image forward, a
 * block of channels backward weight) and run on ct_parallel_for, so the
 * results do not depend on the thread count; they differ from im2col + GEMM
 * (another summation order) in the last bits. ---- */
#define CTB__CONV_OB 4 /* output channels per register tile */
#define CTB__CONV_TB 3 /* taps per backward-weight tile */
#define CTB__CONV_MAX_K 4608 /* C * kh * kw (and O * kh * kw for backward input) from which the GEMM path runs */
#define CTB__CONV_MAX_HW 256 /* H and W from which the GEMM path runs */
#define CTB__CONV_SLACK 20   /* zero elements after each padded image: 2 vectors of f32 + kw - 1 (kw <= 3) */

typedef struct {
  const void *xp;     /* padded input: N images of `img` elements */
  const void *wr;     /* weight repacked [O blocks][K][OB] */
  const void *bias;   /* or NULL; element o at bias[o * bs] */
  void *y;            /* (N, O, OH, OW) */
  const int64_t *off; /* K tap offsets */
  int64_t bs, O, K, nob, img, Wp, OH, OW, L; /* L = OH * Wp flat positions */
  int f64;
} ctb__cfwd;

typedef struct {
  const void *xp, *gp; /* padded input (img per image), grad_output rows of Wp (O planes of gplane per image) */
  void *gw;            /* (O, K) */
  void *acc;           /* O blocks x K x OB vectors of partial sums (zeroed) */
  const int64_t *off;
  int64_t N, O, K, img, gplane;
  int64_t rows, rlen, xrow; /* grad_output runs: rows of rlen read at r * rlen, input at r * xrow */
  int f64;
} ctb__cbw;

#define CTB__CONV_KERNELS(SUF, T, V, VU, VL)                                                                          \
  CTB__BLIS_CLONES static void ctb__cfwd_tile_##SUF(const ctb__cfwd *a, int64_t n, int64_t ob) {                     \
    const T *xp = (const T *)a->xp + n * a->img, *wr = (const T *)a->wr + ob * a->K * CTB__CONV_OB;                 \
    int64_t o0 = ob * CTB__CONV_OB, nb = a->O - o0 < CTB__CONV_OB ? a->O - o0 : CTB__CONV_OB, plane = a->OH * a->OW; \
    T *yb = (T *)a->y + (n * a->O + o0) * plane, bv[CTB__CONV_OB];                                                   \
    int64_t p0, t, q, j;                                                                                             \
    for (j = 0; j < CTB__CONV_OB; j++) bv[j] = a->bias && j < nb ? ((const T *)a->bias)[(o0 + j) * a->bs] : (T)0;   \
    if (a->OW % (2 * (VL)) == 0) { /* rows of whole blocks: no dropped columns, stores straight into y */          \
      int64_t y, x0;                                                                                                 \
      for (y = 0; y < a->OH; y++)                                                                                    \
        for (x0 = 0; x0 < a->OW; x0 += 2 * (VL)) {                                                                   \
          V acc[CTB__CONV_OB][2];                                                                                    \
          const T *xr = xp + y * a->Wp + x0;                                                                         \
          for (j = 0; j < CTB__CONV_OB; j++) acc[j][0] = acc[j][1] = (V){0} + bv[j];                                 \
          for (t = 0; t < a->K; t++) {                                                                               \
            const T *s = xr + a->off[t], *w = wr + t * CTB__CONV_OB;                                                 \
            V v0 = *(const VU *)s, v1 = *(const VU *)(s + (VL));                                                     \
            for (j = 0; j < CTB__CONV_OB; j++) acc[j][0] += w[j] * v0, acc[j][1] += w[j] * v1;                       \
          }                                                                                                          \
          for (j = 0; j < nb; j++) {                                                                                 \
            T *d = yb + j * plane + y * a->OW + x0;                                                                  \
            *(VU *)d = acc[j][0], *(VU *)(d + (VL)) = acc[j][1];                                                     \
          }                                                                                                          \
        }                                                                                                            \
      return;                                                                                                        \
    }                                                                                                                \
    for (p0 = 0; p0 < a->L; p0 += 2 * (VL)) {                                                                        \
      V acc[CTB__CONV_OB][2];                                                                                        \
      T tmp[CTB__CONV_OB][2 * (VL)];                                                                                 \
      int64_t y, x;                                                                                                  \
      for (j = 0; j < CTB__CONV_OB; j++) acc[j][0] = acc[j][1] = (V){0} + bv[j];                                     \
      for (t = 0; t < a->K; t++) {                                                                                   \
        const T *s = xp + a->off[t] + p0, *w = wr + t * CTB__CONV_OB;                                                \
        V v0 = *(const VU *)s, v1 = *(const VU *)(s + (VL));                                                         \
        for (j = 0; j < CTB__CONV_OB; j++) acc[j][0] += w[j] * v0, acc[j][1] += w[j] * v1;                           \
      }                                                                                                              \
      for (j = 0; j < CTB__CONV_OB; j++) *(VU *)tmp[j] = acc[j][0], *(VU *)(tmp[j] + (VL)) = acc[j][1];              \
      y = p0 / a->Wp, x = p0 - y * a->Wp;                                                                            \
      for (q = 0; q < 2 * (VL) && p0 + q < a->L; q++) {                                                              \
        if (x < a->OW)                                                                                               \
          for (j = 0; j < nb; j++) yb[j * plane + y * a->OW + x] = tmp[j][q];                                        \
        if (++x == a->Wp) x = 0, y++;                                                                                \
      }                                                                                                              \
    }                                                                                                                \
  }                                                                                                                  \
  /* one block of output channels over every image: partial sums per image into a->acc, then the lanes */          \
  CTB__BLIS_CLONES static void ctb__cbw_tile_##SUF(const ctb__cbw *a, int64_t ob) {                                  \
    int64_t o0 = ob * CTB__CONV_OB, nb = a->O - o0 < CTB__CONV_OB ? a->O - o0 : CTB__CONV_OB, n, t0, q, j, u, l, r;      \
    V *sum = (V *)a->acc + ob * a->K * CTB__CONV_OB;                                                                 \
    for (n = 0; n < a->N; n++) {                                                                                     \
      const T *g[CTB__CONV_OB], *xb = (const T *)a->xp + n * a->img;                                                 \
      for (j = 0; j < CTB__CONV_OB; j++) /* a short block reads its last channel again, unused */                   \
        g[j] = (const T *)a->gp + (n * a->O + o0 + (j < nb ? j : nb - 1)) * a->gplane;                               \
      for (t0 = 0; t0 < a->K; t0 += CTB__CONV_TB) {                                                                  \
        const T *xs[CTB__CONV_TB];                                                                                   \
        V acc[CTB__CONV_OB][CTB__CONV_TB];                                                                           \
        for (u = 0; u < CTB__CONV_TB; u++) xs[u] = xb + a->off[t0 + u < a->K ? t0 + u : a->K - 1];                  \
        for (j = 0; j < CTB__CONV_OB; j++)                                                                           \
          for (u = 0; u < CTB__CONV_TB; u++) acc[j][u] = (V){0};                                                     \
        for (r = 0; r < a->rows; r++)                                                                                \
          for (q = 0; q < a->rlen; q += (VL)) {                                                                      \
            V gv[CTB__CONV_OB];                                                                                      \
            for (j = 0; j < CTB__CONV_OB; j++) gv[j] = *(const VU *)(g[j] + r * a->rlen + q);                        \
            for (u = 0; u < CTB__CONV_TB; u++) {                                                                     \
              V xv = *(const VU *)(xs[u] + r * a->xrow + q);                                                         \
              for (j = 0; j < CTB__CONV_OB; j++) acc[j][u] += gv[j] * xv;                                            \
            }                                                                                                        \
          }                                                                                                          \
        for (u = 0; u < CTB__CONV_TB && t0 + u < a->K; u++)                                                          \
          for (j = 0; j < CTB__CONV_OB; j++) sum[(t0 + u) * CTB__CONV_OB + j] += acc[j][u];                          \
      }                                                                                                              \
    }                                                                                                                \
    for (j = 0; j < nb; j++)                                                                                         \
      for (u = 0; u < a->K; u++) {                                                                                   \
        V s = sum[u * CTB__CONV_OB + j];                                                                             \
        T r = s[0];                                                                                                  \
        for (l = 1; l < (VL); l++) r += s[l];                                                                        \
        ((T *)a->gw)[(o0 + j) * a->K + u] = r;                                                                       \
      }                                                                                                              \
  }
CTB__CONV_KERNELS(f32, float, ctb__v8f, ctb__v8fu, 8)
CTB__CONV_KERNELS(f64, double, ctb__v4d, ctb__v4du, 4)

static void ctb__cfwd_run(int64_t b, int64_t e, void *ctx) {
  const ctb__cfwd *a = (const ctb__cfwd *)ctx;
  for (; b < e; b++) {
    if (a->f64) ctb__cfwd_tile_f64(a, b / a->nob, b % a->nob);
    else ctb__cfwd_tile_f32(a, b / a->nob, b % a->nob);
  }
}
static void ctb__cbw_run(int64_t b, int64_t e, void *ctx) {
  const ctb__cbw *a = (const ctb__cbw *)ctx;
  for (; b < e; b++) {
    if (a->f64) ctb__cbw_tile_f64(a, b);
    else ctb__cbw_tile_f32(a, b);
  }
}
/* chunks of at least ~64K multiply-adds per task (any chunking gives the same bits) */
static int64_t ctb__conv_grain(int64_t work_per_task) {
  return work_per_task >= 65536 ? 1 : 65536 / (work_per_task > 0 ? work_per_task : 1);
}

/* scratch memory from ctorch's caching allocator (64-byte aligned; no
 * system allocation in a steady state), zeroed when asked; NULL (error set)
 * when out of memory. Released with ct_release(*t). */
static void *ctb__scratch(ct_tensor **t, int64_t bytes, int zero) {
  int64_t n = (bytes + 7) / 8;
  *t = ct_backend_empty("convolution", 1, &n, CT_F64, CT_CPU);
  if (!*t) return NULL;
  if (zero) memset(ct_data_ptr(*t), 0, (size_t)n * 8);
  return ct_data_ptr(*t);
}
/* N images of C planes of src (sizes H, W; strides st, elements of es bytes)
 * into a new zeroed buffer: image n, channel c, row y, column x lands at
 * n * img + c * plane + (y + top) * Wp + x + left. NULL when out of memory. */
static void *ctb__conv_pad(ct_tensor **t, size_t es, const void *src, const int64_t *st, int64_t N, int64_t C, int64_t H, int64_t W,
                           int64_t top, int64_t left, int64_t Wp, int64_t plane, int64_t img) {
  char *buf = (char *)ctb__scratch(t, N * img * (int64_t)es, 1);
  int64_t n, c, y, x;
  if (!buf) return NULL;
  for (n = 0; n < N; n++)
    for (c = 0; c < C; c++)
      for (y = 0; y < H; y++) {
        const char *s = (const char *)src + (n * st[0] + c * st[1] + y * st[2]) * (int64_t)es;
        char *d = buf + (n * img + c * plane + (y + top) * Wp + left) * (int64_t)es;
        if (st[3] == 1) memcpy(d, s, (size_t)W * es);
        else
          for (x = 0; x < W; x++) memcpy(d + x * (int64_t)es, s + x * st[3] * (int64_t)es, es);
      }
  return buf;
}
/* tap offsets off[(c * kh + i) * kw + j] = c * plane + i * Wp + j */
static int64_t *ctb__conv_offsets(ct_tensor **t, int64_t C, int64_t kh, int64_t kw, int64_t plane, int64_t Wp) {
  int64_t *off = (int64_t *)ctb__scratch(t, C * kh * kw * 8, 0), c, i, j;
  if (off)
    for (c = 0; c < C; c++)
      for (i = 0; i < kh; i++)
        for (j = 0; j < kw; j++) off[(c * kh + i) * kw + j] = c * plane + i * Wp + j;
  return off;
}

/* y (N, O, Hp - kh + 1, Wp - kw + 1) = the direct convolution of the padded
 * xp (N images of C planes Hp x Wp) with w (contiguous; (O, C, kh, kw), or
 * when flip (C, O, kh, kw) read flipped and transposed) plus bias. 0 when out
 * of memory (nothing written). */
static int ctb__conv_direct(int f64, const void *xp, int64_t N, int64_t C, int64_t Hp, int64_t Wp, int64_t img, const void *w,
                            int flip, int64_t O, int64_t kh, int64_t kw, const void *bias, int64_t bs, void *y) {
  ctb__cfwd a;
  size_t es = f64 ? 8 : 4;
  int64_t K = C * kh * kw, khw = kh * kw, ob, t, j;
  char *wr;
  ct_tensor *wt = NULL, *ot = NULL;
  a.nob = (O + CTB__CONV_OB - 1) / CTB__CONV_OB;
  wr = (char *)ctb__scratch(&wt, a.nob * K * CTB__CONV_OB * (int64_t)es, 1);
  a.off = wr ? ctb__conv_offsets(&ot, C, kh, kw, Hp * Wp, Wp) : NULL;
  if (!a.off) {
    ct_release(wt), ct_release(ot);
    return 0;
  }
  for (ob = 0; ob < a.nob; ob++) /* wr[ob][t][j] = weight of output channel ob * OB + j, tap t */
    for (j = 0; j < CTB__CONV_OB && ob * CTB__CONV_OB + j < O; j++)
      for (t = 0; t < K; t++) {
        int64_t o = ob * CTB__CONV_OB + j, src;
        if (!flip) src = o * K + t;
        else { /* tap t = (c', i, j') of the transposed kernel: w[c'][o][kh-1-i][kw-1-j'] */
          int64_t c = t / khw, r = t % khw;
          src = (c * O + o) * khw + (khw - 1 - r);
        }
        memcpy(wr + ((ob * K + t) * CTB__CONV_OB + j) * (int64_t)es, (const char *)w + src * (int64_t)es, es);
      }
  a.xp = xp, a.wr = wr, a.bias = bias, a.bs = bs, a.y = y;
  a.O = O, a.K = K, a.img = img, a.Wp = Wp, a.OH = Hp - kh + 1, a.OW = Wp - kw + 1, a.L = a.OH * Wp, a.f64 = f64;
  ct_parallel_for(N * a.nob, ctb__conv_grain(a.L * K * CTB__CONV_OB), ctb__cfwd_run, &a);
  ct_release(wt), ct_release(ot);
  return 1;
}

/* The fast path's conditions shared by the three ops: x-like (N, C, H, W) and
 * the weight shape (O, C, kh, kw); stride and dilation 1, groups 1, kernel 1
 * or 3 per side, 0 <= padding <= kernel / 2, sizes within the limits. */
static int ctb__conv_geom_ok(const int64_t *ws, int64_t H, int64_t W, ct_int_list stride, ct_int_list padding, ct_int_list dilation,
                             int64_t groups, int64_t *ph, int64_t *pw) {
  int64_t i;
  if (groups != 1 || stride.n < 1 || stride.n > 2 || dilation.n < 1 || dilation.n > 2 || padding.n < 1 || padding.n > 2) return 0;
  for (i = 0; i < stride.n; i++)
    if (stride.data[i] != 1) return 0;
  for (i = 0; i < dilation.n; i++)
    if (dilation.data[i] != 1) return 0;
  *ph = padding.data[0], *pw = padding.data[padding.n - 1];
  if ((ws[2] != 1 && ws[2] != 3) || (ws[3] != 1 && ws[3] != 3) || *ph < 0 || *pw < 0 || *ph > ws[2] / 2 || *pw > ws[3] / 2) return 0;
  if (ws[0] <= 0 || ws[1] <= 0 || H <= 0 || W <= 0 || H > CTB__CONV_MAX_HW || W > CTB__CONV_MAX_HW) return 0;
  if (ws[1] * ws[2] * ws[3] > CTB__CONV_MAX_K || ws[0] * ws[2] * ws[3] > CTB__CONV_MAX_K || ws[0] > CTB__CONV_MAX_K) return 0;
  return H + 2 * *ph >= ws[2] && W + 2 * *pw >= ws[3];
}
static int ctb__conv_t_ok(const ct_tensor *t, const ct_tensor *like) {
  return t->ndim == 4 && ctb__is_cpu_float(t) && t->dtype == like->dtype;
}

static ct_tensor *k_convolution(ct_keyset ks, ct_tensor *x, ct_tensor *w, ct_tensor *b, ct_int_list stride, ct_int_list padding,
                                ct_int_list dilation, bool transposed, ct_int_list output_padding, int64_t groups) {
  int64_t ph, pw, Hp, Wp, plane, img, shape[4];
  ct_tensor *y = NULL, *xt = NULL;
  void *xp;
  if (transposed || !ctb__conv_t_ok(x, x) || !ctb__conv_t_ok(w, x) || !ctb__contig(x) || !ctb__contig(w) || x->sizes[0] <= 0 ||
      x->sizes[1] != w->sizes[1] || !ctb__conv_geom_ok(w->sizes, x->sizes[2], x->sizes[3], stride, padding, dilation, groups, &ph, &pw) ||
      (b && (b->ndim != 1 || !ctb__is_cpu_float(b) || b->dtype != x->dtype || b->sizes[0] != w->sizes[0])))
    return CTB__PREV(K_CONVOLUTION, convolution)(ks, x, w, b, stride, padding, dilation, transposed, output_padding, groups);
  Hp = x->sizes[2] + 2 * ph, Wp = x->sizes[3] + 2 * pw, plane = Hp * Wp, img = x->sizes[1] * plane + CTB__CONV_SLACK;
  shape[0] = x->sizes[0], shape[1] = w->sizes[0], shape[2] = Hp - w->sizes[2] + 1, shape[3] = Wp - w->sizes[3] + 1;
  xp = ctb__conv_pad(&xt, x->dtype == CT_F64 ? 8 : 4, ct_data_ptr(x), x->strides, x->sizes[0], x->sizes[1], x->sizes[2], x->sizes[3], ph, pw, Wp,
                     plane, img);
  if (xp) y = ct_backend_empty("convolution", 4, shape, (ct_dtype)x->dtype, x->device);
  if (y && !ctb__conv_direct(x->dtype == CT_F64, xp, x->sizes[0], x->sizes[1], Hp, Wp, img, ct_data_ptr(w), 0, w->sizes[0], w->sizes[2],
                             w->sizes[3], b ? ct_data_ptr(b) : NULL, b ? b->strides[0] : 0, ct_data_ptr(y))) {
    ct_release(y);
    y = NULL;
  }
  ct_release(xt);
  if (!y) return CTB__PREV(K_CONVOLUTION, convolution)(ks, x, w, b, stride, padding, dilation, transposed, output_padding, groups);
  return y;
}

/* grad_input: the forward of grad_output padded by k - 1 - p, the weight flipped and transposed */
static ct_tensor *k_convolution_backward_input(ct_keyset ks, ct_tensor *gy, ct_tensor *w, ct_int_list input_size, ct_int_list stride,
                                               ct_int_list padding, ct_int_list dilation, int64_t groups) {
  int64_t ph, pw, Hp, Wp, plane, img, tp, lp, ws[4];
  ct_tensor *gx = NULL, *gt = NULL;
  void *gp;
  if (input_size.n != 4 || !ctb__conv_t_ok(gy, gy) || !ctb__conv_t_ok(w, gy) || !ctb__contig(w) || input_size.data[0] <= 0 ||
      input_size.data[0] != gy->sizes[0] || input_size.data[1] != w->sizes[1] || gy->sizes[1] != w->sizes[0] ||
      !ctb__conv_geom_ok(w->sizes, input_size.data[2], input_size.data[3], stride, padding, dilation, groups, &ph, &pw) ||
      gy->sizes[2] != input_size.data[2] + 2 * ph - w->sizes[2] + 1 || gy->sizes[3] != input_size.data[3] + 2 * pw - w->sizes[3] + 1)
    return CTB__PREV(K_CONVOLUTION_BACKWARD_INPUT, convolution_backward_input)(ks, gy, w, input_size, stride, padding, dilation, groups);
  tp = w->sizes[2] - 1 - ph, lp = w->sizes[3] - 1 - pw;
  Hp = gy->sizes[2] + 2 * tp, Wp = gy->sizes[3] + 2 * lp, plane = Hp * Wp, img = gy->sizes[1] * plane + CTB__CONV_SLACK;
  ws[0] = w->sizes[1], ws[1] = w->sizes[0], ws[2] = w->sizes[2], ws[3] = w->sizes[3];
  gp = ctb__conv_pad(&gt, gy->dtype == CT_F64 ? 8 : 4, ct_data_ptr(gy), gy->strides, gy->sizes[0], gy->sizes[1], gy->sizes[2], gy->sizes[3], tp,
                     lp, Wp, plane, img);
  if (gp) gx = ct_backend_empty("convolution_backward_input", 4, input_size.data, (ct_dtype)gy->dtype, gy->device);
  if (gx && !ctb__conv_direct(gy->dtype == CT_F64, gp, gy->sizes[0], ws[1], Hp, Wp, img, ct_data_ptr(w), 1, ws[0], ws[2], ws[3], NULL, 0,
                              ct_data_ptr(gx))) {
    ct_release(gx);
    gx = NULL;
  }
  ct_release(gt);
  if (!gx)
    return CTB__PREV(K_CONVOLUTION_BACKWARD_INPUT, convolution_backward_input)(ks, gy, w, input_size, stride, padding, dilation, groups);
  return gx;
}

static ct_tensor *k_convolution_backward_weight(ct_keyset ks, ct_tensor *gy, ct_tensor *x, ct_int_list weight_size, ct_int_list stride,
                                                ct_int_list padding, ct_int_list dilation, int64_t groups) {
  int64_t ph, pw, Hp, Wp, plane, img, OH, OW, vl, nob;
  ctb__cbw a;
  ct_tensor *gw = NULL, *xt = NULL, *gt = NULL, *at = NULL, *ot = NULL;
  void *xp = NULL, *gp = NULL, *acc = NULL;
  const int64_t *ws = weight_size.data;
  size_t es;
  if (weight_size.n != 4 || !ctb__conv_t_ok(gy, gy) || !ctb__conv_t_ok(x, gy) || !ctb__contig(x) || x->sizes[0] <= 0 ||
      x->sizes[0] != gy->sizes[0] || x->sizes[1] != ws[1] || gy->sizes[1] != ws[0] ||
      !ctb__conv_geom_ok(ws, x->sizes[2], x->sizes[3], stride, padding, dilation, groups, &ph, &pw) ||
      gy->sizes[2] != x->sizes[2] + 2 * ph - ws[2] + 1 || gy->sizes[3] != x->sizes[3] + 2 * pw - ws[3] + 1)
    return CTB__PREV(K_CONVOLUTION_BACKWARD_WEIGHT, convolution_backward_weight)(ks, gy, x, weight_size, stride, padding, dilation, groups);
  es = x->dtype == CT_F64 ? 8 : 4, vl = 32 / (int64_t)es;
  OH = gy->sizes[2], OW = gy->sizes[3];
  Hp = x->sizes[2] + 2 * ph, Wp = x->sizes[3] + 2 * pw, plane = Hp * Wp, img = x->sizes[1] * plane + CTB__CONV_SLACK;
  if (OW % vl == 0) /* grad_output as it is, rows of whole vectors */
    a.gplane = OH * OW, a.rows = OH, a.rlen = OW, a.xrow = Wp;
  else /* rows of Wp (zeros past OW) read as one run of a whole number of vectors */
    a.gplane = (OH * Wp + vl - 1) / vl * vl, a.rows = 1, a.rlen = a.gplane, a.xrow = 0;
  a.N = x->sizes[0], a.O = ws[0], a.K = ws[1] * ws[2] * ws[3], a.img = img, a.f64 = x->dtype == CT_F64;
  nob = (a.O + CTB__CONV_OB - 1) / CTB__CONV_OB;
  xp = ctb__conv_pad(&xt, es, ct_data_ptr(x), x->strides, a.N, ws[1], x->sizes[2], x->sizes[3], ph, pw, Wp, plane, img);
  gp = xp ? ctb__conv_pad(&gt, es, ct_data_ptr(gy), gy->strides, a.N, a.O, OH, OW, 0, 0, a.xrow ? OW : Wp, a.gplane, a.O * a.gplane)
         : NULL;
  acc = gp ? ctb__scratch(&at, nob * a.K * CTB__CONV_OB * 32, 1) : NULL; /* vectors (64-byte aligned) */
  a.off = acc ? ctb__conv_offsets(&ot, ws[1], ws[2], ws[3], plane, Wp) : NULL;
  if (a.off) gw = ct_backend_empty("convolution_backward_weight", 4, ws, (ct_dtype)x->dtype, x->device);
  if (gw) {
    a.xp = xp, a.gp = gp, a.acc = acc, a.gw = ct_data_ptr(gw);
    ct_parallel_for(nob, ctb__conv_grain(a.N * a.gplane * a.K * CTB__CONV_OB), ctb__cbw_run, &a);
  }
  ct_release(xt), ct_release(gt), ct_release(at), ct_release(ot);
  if (!gw)
    return CTB__PREV(K_CONVOLUTION_BACKWARD_WEIGHT, convolution_backward_weight)(ks, gy, x, weight_size, stride, padding, dilation, groups);
  return gw;
}
