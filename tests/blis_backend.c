/* tests/blis_backend.c - the BLIS backend registered the way a user links it.
 *
 * Built by tests/run_all.sh three times against the same source: with the
 * static archive (-Wl,-u,ct_cpu_blis_anchor build/libctorch_blis.a), with
 * the shared library (-lctorch_blis), and with the amalgamated dist/ctorch.h
 * plus build/cpu_blis.o. Nothing here calls the backend: it must have
 * registered itself at startup. Checks: registration and precedence (the
 * CPU kernels of mm, add, ... come from "cpu_blis"), results against a
 * naive product for small and large, transposed and sliced operands, f32
 * and f64, the reference fallback (integer dtypes, errors), autograd through
 * the backend, bit-identical results for 1 and 2 threads, and no system
 * allocations in a steady-state MLP training loop.
 * Prints "N passed, N failed" last; exits nonzero on failure.
 */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int passed, failed;
#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (cond) passed++;                                                               \
    else {                                                                            \
      failed++;                                                                       \
      printf("FAIL %s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, ct_last_error_message()); \
    }                                                                                 \
  } while (0)

static uint64_t rng = 88172645463325252ull;
static double urand(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}
static ct_tensor *randt(int64_t r, int64_t c, ct_dtype dt) {
  int64_t s[2];
  ct_tensor *t;
  int64_t i;
  s[0] = r;
  s[1] = c;
  t = ct_empty(2, s, dt);
  for (i = 0; i < r * c; i++) ct_set(t, i, urand());
  return t;
}
/* max |mm(a,b) - naive| relative to the magnitude (call inside a CT_SCOPE) */
static double mm_err(ct_tensor *a, ct_tensor *b, ct_tensor *c) {
  int64_t m = a->sizes[0], k = a->sizes[1], n = b->sizes[1], i, j, p;
  double worst = 0;
  ct_tensor *ac = ct_contiguous(a), *bc = ct_contiguous(b), *cc = ct_contiguous(c);
  for (i = 0; i < m; i++)
    for (j = 0; j < n; j++) {
      double s = 0, e;
      for (p = 0; p < k; p++) s += ct_get(ac, i * k + p) * ct_get(bc, p * n + j);
      e = fabs(s - ct_get(cc, i * n + j)) / (1 + fabs(s));
      if (e > worst) worst = e;
    }
  return worst;
}

static void test_registration(void) {
  const ct_backend *b = ct_backend_find("cpu_blis");
  char buf[2048];
  CHECK(b != NULL);
  if (!b) {
    printf("FAIL the backend did not register itself (was its object linked? see make blis-flags)\n");
    return;
  }
  CHECK(b->status == CT_OK);
  CHECK(b->ninstalled >= 8);
  ct_op_dump(ct_op_find("mm"), buf, sizeof buf);
  CHECK(strstr(buf, "(cpu_blis)") != NULL);
  CHECK(strstr(buf, "(reference)") != NULL); /* the meta kernel is still the reference one */
  ct_op_dump(ct_op_find("add.Tensor"), buf, sizeof buf);
  CHECK(strstr(buf, "(cpu_blis)") != NULL);
  /* registering again is a no-op */
  CHECK(ct_register_backend((ct_backend *)b) == CT_OK);
  printf("backend %s (%s): %d kernels installed\n", b->name, b->version, b->ninstalled);
}

static void test_mm(void) {
  static const int64_t sizes[][3] = {{1, 32, 64}, {3, 5, 7}, {4, 8, 16}, {8, 16, 24}, {5, 3, 40}, {2, 100, 300}, {9, 7, 1}, {6, 1, 37}, {64, 64, 64}, {70, 90, 80}, {128, 33, 300}, {0, 4, 5}, {4, 0, 5}};
  int dt, s;
  for (dt = 0; dt < 2; dt++) {
    ct_dtype d = dt ? CT_F64 : CT_F32;
    double tol = dt ? 1e-12 : 1e-5;
    for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
      CT_SCOPE {
        int64_t m = sizes[s][0], k = sizes[s][1], n = sizes[s][2];
        ct_tensor *a = randt(m, k, d), *b = randt(k, n, d), *c;
        ct_tensor *at = ct_t(randt(k, m, d)), *bt = ct_t(randt(n, k, d)); /* transposed: column-major */
        ct_tensor *bs = ct_slice(randt(k, 2 * n, d), 1, 0, 2 * n, 2);     /* column stride 2 */
        c = ct_mm(a, b);
        CHECK(c && mm_err(a, b, c) < tol);
        c = ct_mm(at, bt);
        CHECK(c && mm_err(at, bt, c) < tol);
        c = ct_mm(a, bs);
        CHECK(c && mm_err(a, bs, c) < tol);
        c = ct_matmul(at, b);
        CHECK(c && mm_err(at, b, c) < tol);
        {
          ct_tensor *out = ct_empty(CT_DIMS(0), d);
          CHECK(ct_mm_out(out, at, bs) == CT_OK && out->sizes[0] == m && mm_err(at, bs, out) < tol);
        }
      }
    }
  }
  CT_SCOPE { /* through BLIS, the bits do not depend on how the operands are stored */
    ct_tensor *a = randt(7, 33, CT_F32), *b = randt(33, 300, CT_F32);
    ct_tensor *at = ct_t(ct_contiguous(ct_t(a))), *bt = ct_t(ct_contiguous(ct_t(b)));
    ct_tensor *r = ct_mm(a, b), *r2 = ct_mm(at, bt), *r3 = ct_mm(a, bt), *r4 = ct_mm(at, b);
    CHECK(r && r2 && r3 && r4 && memcmp(ct_data_ptr(r), ct_data_ptr(r2), 7 * 300 * 4) == 0 &&
          memcmp(ct_data_ptr(r), ct_data_ptr(r3), 7 * 300 * 4) == 0 && memcmp(ct_data_ptr(r), ct_data_ptr(r4), 7 * 300 * 4) == 0);
  }
  CT_SCOPE { /* fallbacks to the reference kernel */
    int64_t s22[2] = {2, 2};
    int64_t vi[4] = {1, 2, 3, 4};
    ct_tensor *a = ct_from_array(2, s22, CT_I64, vi);
    ct_tensor *c = ct_mm(a, a);
    CHECK(c && c->dtype == CT_I64 && ct_get_int(c, 0) == 7 && ct_get_int(c, 3) == 22);
    CHECK(ct_mm(a, ct_ones(CT_DIMS(3, 2), CT_I64)) == NULL && ct_last_error() == CT_ERR_SHAPE);
    CHECK(strstr(ct_last_error_message(), "mm") != NULL);
    ct_clear_error();
    CHECK(ct_mm(ct_ones(CT_DIMS(2, 2), CT_F32), ct_ones(CT_DIMS(2, 2), CT_F64)) == NULL && ct_last_error() == CT_ERR_DTYPE);
    ct_clear_error();
  }
}

/* ops the linalg area may or may not define in this build: boxed calls */
static ct_tensor *call2(const char *name, ct_tensor *a, ct_tensor *b, ct_tensor *c) {
  ct_op *op = ct_op_find(name);
  ct_value buf[8];
  ct_stack st;
  ct_tensor *r = NULL;
  if (!op) {
    ct_clear_error();
    return NULL;
  }
  ct_stack_init(&st, buf, 8);
  ct_stack_push(&st, ct_value_tensor(a));
  ct_stack_push(&st, ct_value_tensor(b));
  if (c) ct_stack_push(&st, ct_value_tensor(c));
  while (st.size < op->schema.nargs) ct_stack_push(&st, ct_value_scalar(ct_int(1))); /* beta=1, alpha=1 */
  if (ct_call_boxed(op, &st) == CT_OK) {
    ct_value v = ct_stack_pop(&st);
    r = v.v.tensor;
    if (!v.owned) ct_retain(r);
  }
  ct_stack_free(&st);
  return r;
}

static void test_linalg_ops(void) {
  CT_SCOPE {
    ct_tensor *a = randt(20, 30, CT_F64), *b = randt(30, 10, CT_F64), *bias = randt(1, 10, CT_F64), *r, *ref;
    if (ct_op_find("addmm")) {
      r = call2("addmm", bias, a, ct_t(ct_contiguous(ct_t(b))));
      ref = ct_add(ct_mm(a, b), bias);
      CHECK(r && ref && ct_get(ct_sum(ct_mul(ct_sub(r, ref), ct_sub(r, ref))), 0) < 1e-20);
      ct_release(r);
    } else {
      ct_clear_error();
      printf("note: addmm not in this build (linalg area not merged): its kernel was skipped\n");
    }
    if (ct_op_find("dot")) { /* strided, long enough for BLIS's dotv */
      ct_tensor *u = ct_select(randt(500, 2, CT_F64), 1, 0), *v = ct_select(randt(3, 500, CT_F64), 0, 2);
      double ref = 0;
      int64_t i;
      for (i = 0; i < 500; i++) ref += ct_get(u, i) * ct_get(v, i);
      r = call2("dot", u, v, NULL);
      CHECK(r && fabs(ct_get(r, 0) - ref) < 1e-10);
      ct_release(r);
    } else {
      ct_clear_error();
    }
    if (ct_op_find("mv")) {
      ct_tensor *x = ct_select(randt(30, 2, CT_F64), 1, 1); /* strided vector */
      ct_tensor *dlt;
      r = call2("mv", a, x, NULL);
      ref = ct_mm(a, ct_unsqueeze(x, 1));
      dlt = r ? ct_sub(ct_unsqueeze(r, 1), ref) : NULL;
      CHECK(dlt && ct_get(ct_sum(ct_mul(dlt, dlt)), 0) < 1e-20);
      ct_release(r);
    } else {
      ct_clear_error();
    }
  }
}

static void test_pointwise(void) {
  CT_SCOPE {
    ct_tensor *a = randt(1000, 1000, CT_F32), *b = randt(1000, 1000, CT_F32);
    ct_tensor *s = ct_add_ex(a, b, ct_float(2.0)), *r = ct_relu(a), *m = ct_mul(a, b);
    int64_t i;
    int ok = 1;
    for (i = 0; i < 1000000; i += 9973) {
      double x = ct_get(a, i), y = ct_get(b, i);
      ok &= fabs(ct_get(s, i) - (x + 2 * y)) < 1e-6 && ct_get(r, i) == (x > 0 ? x : 0) && fabs(ct_get(m, i) - x * y) < 1e-6;
    }
    CHECK(ok);
    {
      double ref = 0, got = ct_get(ct_sum(a), 0), mean = ct_get(ct_mean(a), 0);
      for (i = 0; i < 1000000; i++) ref += ct_get(a, i);
      CHECK(fabs(got - ref) < 1e-2 && fabs(mean - ref / 1e6) < 1e-7);
    }
    { /* in place: add_, sub_, mul_, fill_, relu_; each bumps the version */
      ct_tensor *x = ct_contiguous(ct_mul_scalar(a, ct_float(1))), *y = b;
      uint32_t v0 = x->storage->version;
      double x0 = ct_get(x, 12345), y0 = ct_get(y, 12345);
      CHECK(ct_add_ex_(x, y, ct_float(0.5)) == CT_OK && fabs(ct_get(x, 12345) - (x0 + 0.5 * y0)) < 1e-6);
      CHECK(ct_sub_(x, y) == CT_OK && fabs(ct_get(x, 12345) - (x0 - 0.5 * y0)) < 1e-6);
      CHECK(ct_mul_(x, x) == CT_OK && fabs(ct_get(x, 12345) - (x0 - 0.5 * y0) * (x0 - 0.5 * y0)) < 1e-6);
      CHECK(ct_fill_(x, ct_float(-2)) == CT_OK && ct_get(x, 999999) == -2 && ct_relu_(x) == CT_OK && ct_get(x, 7) == 0);
      CHECK(x->storage->version >= v0 + 5);
    }
    { /* sum over dim 0 (bias gradients), keepdim or not */
      ct_tensor *m = randt(37, 21, CT_F64), *c0 = ct_sum_dim(m, 1, (const int64_t[]){0}, false),
                *c1 = ct_sum_dim(m, 1, (const int64_t[]){-2}, true);
      int64_t i, j;
      int ok = c0 && c1 && c0->ndim == 1 && c1->ndim == 2 && c1->sizes[0] == 1;
      for (j = 0; ok && j < 21; j++) {
        double ref = 0;
        for (i = 0; i < 37; i++) ref += ct_get(m, i * 21 + j);
        ok &= fabs(ct_get(c0, j) - ref) < 1e-12 && ct_get(c1, j) == ct_get(c0, j);
      }
      CHECK(ok);
    }
    /* broadcast and mixed dtypes still go to the reference kernels */
    CHECK(ct_get(ct_add(ct_ones(CT_DIMS(2, 3), CT_F32), ct_ones(CT_DIMS(3), CT_F64)), 5) == 2.0);
  }
}

static void test_autograd(void) {
  CT_SCOPE {
    ct_tensor *x = randt(4, 6, CT_F64), *w = randt(6, 3, CT_F64);
    ct_tensor *y;
    ct_set_requires_grad(w, true);
    y = ct_sum(ct_relu(ct_mm(x, w)));
    CHECK(y && ct_backward(y) == CT_OK && ct_grad(w) != NULL);
    if (ct_grad(w)) { /* d sum(relu(x w)) / dw[p][j] = sum_i x[i][p] [(x w)[i][j] > 0] */
      ct_tensor *xw = ct_mm(x, w);
      int p, j, i, ok = 1;
      for (p = 0; p < 6; p++)
        for (j = 0; j < 3; j++) {
          double g = 0;
          for (i = 0; i < 4; i++) g += ct_get(xw, i * 3 + j) > 0 ? ct_get(x, i * 6 + p) : 0;
          ok &= fabs(g - ct_get(ct_grad(w), p * 3 + j)) < 1e-12;
        }
      CHECK(ok);
    }
  }
}

/* the same bits with 1 and 2 threads, and across runs */
static void test_determinism(void) {
  CT_SCOPE {
    ct_tensor *a = randt(300, 300, CT_F32), *b = randt(300, 300, CT_F32), *big = randt(1024, 1024, CT_F32);
    ct_tensor *c1, *c2, *s1, *s2, *s3, *p1, *p2;
    ct_set_num_threads(1);
    c1 = ct_mm(a, b);
    s1 = ct_sum(big);
    p1 = ct_add(big, big);
    ct_set_num_threads(2);
    c2 = ct_mm(a, b);
    s2 = ct_sum(big);
    p2 = ct_add(big, big);
    s3 = ct_sum(big);
    CHECK(c1 && c2 && memcmp(ct_data_ptr(c1), ct_data_ptr(c2), 300 * 300 * 4) == 0);
    CHECK(s1 && s2 && s3 && memcmp(ct_data_ptr(s1), ct_data_ptr(s2), 4) == 0 && memcmp(ct_data_ptr(s2), ct_data_ptr(s3), 4) == 0);
    CHECK(p1 && p2 && memcmp(ct_data_ptr(p1), ct_data_ptr(p2), (size_t)1 << 22) == 0);
    ct_set_num_threads(0);
  }
}

/* a training step of the 32 -> 64 -> 64 -> 8 MLP: no system allocation after warm-up */
static void test_steady_state(void) {
  ct_tensor *w1 = randt(32, 64, CT_F32), *w2 = randt(64, 64, CT_F32), *w3 = randt(64, 8, CT_F32);
  ct_tensor *x = randt(64, 32, CT_F32), *y = randt(64, 8, CT_F32);
  ct_tensor *ws[3];
  int it, k;
  int64_t before = 0;
  ws[0] = w1, ws[1] = w2, ws[2] = w3;
  for (k = 0; k < 3; k++) ct_set_requires_grad(ws[k], true);
  for (it = 0; it < 20; it++) {
    if (it == 5) before = ct_memory_stats_get().system_allocs;
    CT_SCOPE {
      ct_tensor *h = ct_relu(ct_mm(ct_relu(ct_mm(x, w1)), w2));
      ct_tensor *d = ct_sub(ct_mm(h, w3), y);
      ct_tensor *loss = ct_mean(ct_mul(d, d));
      ct_backward(loss);
      CT_NO_GRAD {
        for (k = 0; k < 3; k++) {
          ct_sub_ex_(ws[k], ct_grad(ws[k]), ct_float(0.01));
          ct_fill_(ct_grad(ws[k]), ct_float(0));
        }
      }
    }
  }
  CHECK(ct_memory_stats_get().system_allocs - before == 0);
  printf("steady-state training loop: %lld system allocations in 15 iterations\n",
         (long long)(ct_memory_stats_get().system_allocs - before));
  for (k = 0; k < 3; k++) ct_release(ws[k]);
  ct_release(x), ct_release(y);
}

int main(void) {
  test_registration();
  test_mm();
  test_linalg_ops();
  test_pointwise();
  test_autograd();
  test_determinism();
  test_steady_state();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
