/* tests/parallel.c - ct_parallel_for, the thread knob, ct_iter_foreach_parallel
 * and determinism, without any backend. A standalone program (run by
 * tests/run_all.sh, also under ThreadSanitizer and with CT_NO_THREADS):
 *   every index is visited exactly once, in the documented fixed chunks,
 *   whatever the thread count; nested loops run inline; listeners follow
 *   ct_set_num_threads; ct_iter_foreach_parallel matches ct_iter_foreach on
 *   flat, strided and broadcast operands and keeps reductions sequential;
 *   a chunked reduction and the built-in ops give bit-identical results for
 *   1, 2 and 3 threads and across repeated runs.
 * Prints "N passed, N failed" last.
 */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include <stdio.h>
#include <stdlib.h>

#ifdef CT_NO_THREADS
#define TH(n) 1 /* the knob is pinned to 1 */
#else
#define TH(n) (n)
#endif
static int passed, failed;
#define CHECK(cond)                                                               \
  do {                                                                            \
    if (cond) passed++;                                                           \
    else {                                                                        \
      failed++;                                                                   \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                      \
    }                                                                             \
  } while (0)

enum { N = 1000003 };
static unsigned char *visits;
static int64_t chunk_bad;
static void visit(int64_t b, int64_t e, void *ctx) {
  int64_t i, grain = *(int64_t *)ctx;
  if (b % grain != 0 || (e != N && e - b != grain)) __atomic_add_fetch(&chunk_bad, 1, __ATOMIC_RELAXED);
  for (i = b; i < e; i++) visits[i]++;
}

static int nested_inline;
static void inner(int64_t b, int64_t e, void *ctx) {
  (void)b, (void)e, (void)ctx;
}
static void outer(int64_t b, int64_t e, void *ctx) {
  (void)ctx;
  (void)b, (void)e;
  ct_parallel_for(100, 10, inner, NULL); /* runs inline inside a worker */
  __atomic_add_fetch(&nested_inline, 1, __ATOMIC_RELAXED);
}

/* a reduction with one partial per fixed chunk */
static const float *rdata;
static double partials[64];
static void rsum(int64_t b, int64_t e, void *ctx) {
  float s = 0;
  int64_t i;
  (void)ctx;
  for (i = b; i < e; i++) s += rdata[i];
  partials[b / 16384] = s;
}
static double chunked_sum(int64_t n) {
  double s = 0;
  int64_t c;
  ct_parallel_for(n, 16384, rsum, NULL);
  for (c = 0; c < (n + 16383) / 16384; c++) s += partials[c];
  return s;
}

static int last_threads = -1;
static void listener(int n) { last_threads = n; }

/* out = 2 * a + b, element by element */
static void axpb(char **d, const int64_t *s, int64_t n, void *ctx) {
  int64_t i;
  (void)ctx;
  for (i = 0; i < n; i++)
    *(float *)(d[0] + i * s[0]) = 2 * *(const float *)(d[1] + i * s[1]) + *(const float *)(d[2] + i * s[2]);
}
/* out[0] += a: a reduction (out broadcasts) */
static void acc(char **d, const int64_t *s, int64_t n, void *ctx) {
  int64_t i;
  (void)ctx;
  for (i = 0; i < n; i++) *(float *)(d[0] + i * s[0]) += *(const float *)(d[1] + i * s[1]);
}

int main(void) {
  int th;
  int64_t grain = 4096;
  visits = (unsigned char *)calloc(N, 1);
  /* coverage and fixed chunks for 1, 2, 4 threads; and the grain threshold */
  for (th = 1; th <= 4; th *= 2) {
    int64_t i, bad = 0;
    ct_set_num_threads(th);
    CHECK(ct_get_num_threads() == TH(th));
    memset(visits, 0, N);
    chunk_bad = 0;
    ct_parallel_for(N, grain, visit, &grain);
    for (i = 0; i < N; i++) bad += visits[i] != 1;
    CHECK(bad == 0 && chunk_bad == 0);
  }
  ct_parallel_for(0, 10, visit, &grain); /* nothing to do */
  nested_inline = 0;
  ct_set_num_threads(2);
  ct_parallel_for(40, 1, outer, NULL);
  CHECK(nested_inline == 40);
  CHECK(ct_on_num_threads(listener) == CT_OK && last_threads == TH(2));
  ct_set_num_threads(3);
  CHECK(last_threads == TH(3));
  ct_set_num_threads(0); /* back to the default */
  CHECK(ct_get_num_threads() >= 1 && last_threads == ct_get_num_threads());

  /* deterministic chunked reduction: same bits for 1, 2, 3 threads and across runs */
  {
    float *x = (float *)malloc(sizeof(float) * 1000000);
    double r1, r2, r3, r4;
    int i;
    for (i = 0; i < 1000000; i++) x[i] = (float)((i * 2654435761u) % 1000) * 1e-3f - 0.5f;
    rdata = x;
    ct_set_num_threads(1);
    r1 = chunked_sum(1000000);
    ct_set_num_threads(2);
    r2 = chunked_sum(1000000);
    r4 = chunked_sum(1000000);
    ct_set_num_threads(3);
    r3 = chunked_sum(1000000);
    /* determinism means the same bits, so the doubles are compared as bytes */
    CHECK(memcmp(&r1, &r2, sizeof r1) == 0 && memcmp(&r1, &r3, sizeof r1) == 0 && memcmp(&r2, &r4, sizeof r1) == 0); /* NOLINT(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c) */
    free(x);
  }

  /* ct_iter_foreach_parallel vs ct_iter_foreach: flat, strided (transposed), broadcast */
  CT_SCOPE {
    ct_tensor *a = ct_arange(0, 600 * 500, 1, CT_F32), *b = ct_full(CT_DIMS(500), ct_float(0.25), CT_F32);
    ct_tensor *a2 = ct_reshape(a, CT_DIMS(600, 500)), *at = ct_t(ct_reshape(a, CT_DIMS(500, 600)));
    ct_tensor *o1 = ct_empty(CT_DIMS(600, 500), CT_F32), *o2 = ct_empty(CT_DIMS(600, 500), CT_F32);
    ct_tensor *ops[3];
    int64_t shape[2] = {600, 500};
    int k;
    for (k = 0; k < 2; k++) {
      ct_tensor *src = k ? at : a2;
      ct_set_num_threads(1);
      ops[0] = o1, ops[1] = src, ops[2] = b;
      ct_iter_foreach(axpb, NULL, 3, ops, 2, shape);
      ct_set_num_threads(2);
      ops[0] = o2;
      ct_iter_foreach_parallel(axpb, NULL, 3, ops, 2, shape);
      CHECK(memcmp(ct_data_ptr(o1), ct_data_ptr(o2), 600 * 500 * 4) == 0);
    }
    { /* a reduction (output broadcasts) stays sequential and correct */
      ct_tensor *s = ct_zeros(CT_DIMS(1), CT_F32), *ones = ct_ones(CT_DIMS(300000), CT_F32);
      ct_tensor *sx = ct_expand(s, CT_DIMS(300000));
      int64_t n = 300000;
      ops[0] = sx, ops[1] = ones;
      ct_iter_foreach_parallel(acc, NULL, 2, ops, 1, &n);
      CHECK(ct_get(s, 0) == 300000);
    }
    /* built-in ops: same bits for 1 and 2 threads */
    {
      ct_tensor *x = ct_reshape(ct_tanh(ct_mul_scalar(ct_arange(0, 1 << 20, 1, CT_F32), ct_float(1e-5))), CT_DIMS(1024, 1024));
      ct_tensor *r1, *r2, *m1, *m2;
      ct_set_num_threads(1);
      r1 = ct_sum(x);
      m1 = ct_add(ct_mul(x, x), x);
      ct_set_num_threads(2);
      r2 = ct_sum(x);
      m2 = ct_add(ct_mul(x, x), x);
      CHECK(r1 && r2 && memcmp(ct_data_ptr(r1), ct_data_ptr(r2), 4) == 0);
      CHECK(m1 && m2 && memcmp(ct_data_ptr(m1), ct_data_ptr(m2), (size_t)4 << 20) == 0);
    }
  }
  free(visits);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
