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
 * allocations in a steady-state MLP training loop; exp, sigmoid, tanh,
 * softmax and log_softmax against float64 (ulp bounds, special values, every
 * dim, thread-count independence).
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

/* max |x - y| over two tensors of one shape (call inside a CT_SCOPE) */
static double max_diff(ct_tensor *x, ct_tensor *y) {
  double worst = 0;
  int64_t i;
  ct_tensor *xc = ct_contiguous(x), *yc = ct_contiguous(y);
  if (!xc || !yc || xc->numel != yc->numel) return 1e30;
  for (i = 0; i < xc->numel; i++) {
    double e = fabs(ct_get(xc, i) - ct_get(yc, i));
    if (!(e <= worst)) worst = e;
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
  CHECK(strstr(buf, "(structured)") != NULL); /* the meta kernel is still the structured family's meta step */
  ct_op_dump(ct_op_find("add.Tensor"), buf, sizeof buf);
  CHECK(strstr(buf, "(cpu_blis)") != NULL);
  ct_op_dump(ct_op_find("softmax.int"), buf, sizeof buf);
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
  CT_SCOPE { /* an inf or NaN facing a zero gives NaN (IEEE), whichever operand holds it and however it is stored:
              * BLIS may skip zeros, so such operands go to the plain-C kernel (the scan; for copied ones, of the copy) */
    int l, w;
    for (l = 0; l < 4; l++)
      for (w = 0; w < 2; w++) {
        ct_tensor *a = randt(64, 48, CT_F32), *b = randt(48, 80, CT_F32), *r;
        float *ad = (float *)ct_data_ptr(a), *bd = (float *)ct_data_ptr(b);
        int64_t i;
        for (i = 0; i < 64; i++) ad[i * 48 + 5] = 0.0f; /* column 5 of a is zero */
        bd[5 * 80 + 7] = w ? NAN : INFINITY;              /* facing b[5][7] */
        r = ct_mm(l & 1 ? ct_t(ct_contiguous(ct_t(a))) : a, l & 2 ? ct_t(ct_contiguous(ct_t(b))) : b);
        CHECK(r && isnan(ct_get(r, 7)) && isnan(ct_get(r, 63 * 80 + 7)) && !isnan(ct_get(r, 8)));
        bd[5 * 80 + 7] = 1.0f, ad[3 * 48 + 9] = w ? NAN : -INFINITY; /* now in a, facing the zeros of b's row 9 */
        for (i = 0; i < 80; i++) bd[9 * 80 + i] = 0.0f;
        r = ct_mm(l & 1 ? ct_t(ct_contiguous(ct_t(a))) : a, l & 2 ? ct_t(ct_contiguous(ct_t(b))) : b);
        CHECK(r && isnan(ct_get(r, 3 * 80)) && isnan(ct_get(r, 3 * 80 + 79)) && !isnan(ct_get(r, 4 * 80)));
      }
  }
  CT_SCOPE { /* a batch of small products (attention's shapes: the plain-C kernel per element, B and C not stored by
              * rows through a row-major copy): every element right, the same bits for 1 and 2 threads and for every
              * layout of the operands and of out=, a NaN kept to its element */
    int bt;
    for (bt = 0; bt < 2; bt++) {
      ct_dtype d = bt ? CT_F64 : CT_F32;
      ct_tensor *q = ct_reshape(randt(16 * 32, 16, d), CT_DIMS(16, 32, 16)), *kk = ct_reshape(randt(16 * 32, 16, d), CT_DIMS(16, 32, 16));
      ct_tensor *kt = ct_contiguous(ct_transpose(kk, 1, 2)), *sc, *s1, *s2;
      int64_t i;
      ct_set_num_threads(1);
      s1 = ct_bmm(q, kt);
      ct_set_num_threads(2);
      s2 = ct_bmm(q, kt);
      ct_set_num_threads(0);
      sc = ct_bmm(q, ct_transpose(kk, 1, 2));
      CHECK(sc && s1 && s2 && sc->sizes[0] == 16 && memcmp(ct_data_ptr(s1), ct_data_ptr(s2), (size_t)s1->numel * (bt ? 8 : 4)) == 0);
      CHECK(sc && s1 && memcmp(ct_data_ptr(sc), ct_data_ptr(s1), (size_t)s1->numel * (bt ? 8 : 4)) == 0);
      {
        ct_tensor *qcols = ct_transpose(ct_contiguous(ct_transpose(q, 1, 2)), 1, 2); /* A stored by columns */
        ct_tensor *sa = ct_bmm(qcols, kt), *sab = ct_bmm(qcols, ct_transpose(kk, 1, 2));
        CHECK(sa && sab && s1 && memcmp(ct_data_ptr(sa), ct_data_ptr(s1), (size_t)s1->numel * (bt ? 8 : 4)) == 0 &&
              memcmp(ct_data_ptr(sab), ct_data_ptr(s1), (size_t)s1->numel * (bt ? 8 : 4)) == 0);
      }
      for (i = 0; sc && s1 && i < 16; i += 5) {
        CHECK(mm_err(ct_select(q, 0, i), ct_select(kt, 0, i), ct_select(s1, 0, i)) < (bt ? 1e-12 : 1e-5));
        CHECK(mm_err(ct_select(q, 0, i), ct_select(kt, 0, i), ct_select(sc, 0, i)) < (bt ? 1e-12 : 1e-5));
      }
      if (!bt) {
        ((float *)ct_data_ptr(q))[3 * 32 * 16 + 5] = NAN; /* batch 3, row 0 */
        sc = ct_bmm(q, kt);
        CHECK(sc && isnan(ct_get(sc, 3 * 32 * 32)) && !isnan(ct_get(sc, 3 * 32 * 32 + 32)) && !isnan(ct_get(sc, 2 * 32 * 32)));
      }
    }
  }
  CT_SCOPE { /* small batched products in random layouts (rows, columns, every other element, a batch expanded
              * from one matrix) and sizes (0 included), bmm and baddbmm: every element against a double reference */
    int it;
    for (it = 0; it < 60; it++) {
      int64_t nb = 2 + (int64_t)((urand() + 1) * 2), m = (int64_t)((urand() + 1) * 6), k = (int64_t)((urand() + 1) * 6),
              n = (int64_t)((urand() + 1) * 6), bi;
      ct_tensor *ab[2], *c, *c2, *self;
      int side, ok = 1;
      for (side = 0; side < 2; side++) {
        int64_t r = side ? k : m, q = side ? n : k;
        int layout = (int)((urand() + 1) * 2) & 3;
        ct_tensor *t;
        if (layout == 0) t = ct_reshape(randt(nb * r, q, CT_F32), CT_DIMS(nb, r, q));
        else if (layout == 1) t = ct_transpose(ct_reshape(randt(nb * q, r, CT_F32), CT_DIMS(nb, q, r)), 1, 2);
        else if (layout == 2) t = ct_slice(ct_reshape(randt(nb * r, 2 * q, CT_F32), CT_DIMS(nb, r, 2 * q)), 2, 0, 2 * q, 2);
        else t = ct_expand(ct_reshape(randt(r, q, CT_F32), CT_DIMS(1, r, q)), CT_DIMS(nb, r, q));
        ab[side] = t;
      }
      self = ct_reshape(randt(nb * m, n, CT_F32), CT_DIMS(nb, m, n));
      c = ct_bmm(ab[0], ab[1]);
      c2 = ct_baddbmm_ex(self, ab[0], ab[1], ct_float(0.5), ct_float(2.0));
      CHECK(c && c2 && c->sizes[0] == nb && c->sizes[1] == m && c->sizes[2] == n);
      for (bi = 0; c && c2 && bi < nb; bi++) {
        ct_tensor *a1 = ct_select(ab[0], 0, bi), *b1 = ct_select(ab[1], 0, bi);
        ct_tensor *want2 = ct_add(ct_mul_scalar(ct_select(self, 0, bi), ct_float(0.5)), ct_mul_scalar(ct_select(c, 0, bi), ct_float(2.0)));
        ok &= mm_err(a1, b1, ct_select(c, 0, bi)) < 1e-5;
        ok &= want2 && max_diff(ct_select(c2, 0, bi), want2) < 1e-5 * 8;
      }
      CHECK(ok);
    }
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
      double want = 0;
      int64_t i;
      for (i = 0; i < 500; i++) want += ct_get(u, i) * ct_get(v, i);
      r = call2("dot", u, v, NULL);
      CHECK(r && fabs(ct_get(r, 0) - want) < 1e-10);
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

/* linear: the backend's one product with the [out][in] weight read through
 * its strides gives the bits of addmm(bias, x, weight.t()) (same operands),
 * folds N-D inputs, and hands odd cases to the kernel it replaced */
static void test_linear(void) {
  static const int64_t shapes[][3] = {{1, 32, 64}, {1, 64, 8}, {3, 7, 5}, {64, 32, 64}, {2, 100, 300}, {5, 9, 1}};
  int dt, s;
  for (dt = 0; dt < 2; dt++)
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) CT_SCOPE {
        ct_dtype d = dt ? CT_F64 : CT_F32;
        int64_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2], bs[1];
        size_t es = dt ? 8 : 4;
        ct_tensor *x = randt(m, k, d), *w = randt(n, k, d), *b, *r, *ref, *x3;
        bs[0] = n;
        b = ct_reshape(randt(1, n, d), 1, bs);
        r = ct_linear(x, w, b);
        ref = ct_addmm(b, x, ct_t(w));
        CHECK(r && ref && memcmp(ct_data_ptr(r), ct_data_ptr(ref), (size_t)(m * n) * es) == 0);
        r = ct_linear(x, w, NULL);
        ref = ct_mm(x, ct_t(w));
        CHECK(r && ref && memcmp(ct_data_ptr(r), ct_data_ptr(ref), (size_t)(m * n) * es) == 0);
        x3 = ct_reshape(randt(2 * m, k, d), CT_DIMS(2, m, k));
        r = ct_linear(x3, w, b);
        ref = ct_addmm(b, ct_reshape(x3, CT_DIMS(2 * m, k)), ct_t(w));
        CHECK(r && ref && r->ndim == 3 && r->sizes[2] == n && memcmp(ct_data_ptr(r), ct_data_ptr(ref), (size_t)(2 * m * n) * es) == 0);
        r = ct_linear(ct_t(randt(k, m, d)), ct_t(randt(k, n, d)), b); /* transposed input and weight */
        CHECK(r && r->sizes[0] == m && r->sizes[1] == n);
      }
  CT_SCOPE { /* the replaced (composite) kernel: integers, a 1-D input, a broadcast bias, mixed dtypes */
    int64_t v6[6] = {1, 2, 3, 4, 5, 6};
    ct_tensor *xi = ct_from_array(CT_DIMS(2, 3), CT_I64, v6), *r;
    r = ct_linear(xi, xi, NULL);
    CHECK(r && r->dtype == CT_I64 && ct_get_int(r, 0) == 14 && ct_get_int(r, 3) == 77);
    r = ct_linear(ct_ones(CT_DIMS(3), CT_F32), ct_ones(CT_DIMS(2, 3), CT_F32), ct_ones(CT_DIMS(1), CT_F32));
    CHECK(r && r->ndim == 1 && r->sizes[0] == 2 && ct_get(r, 1) == 4);
    CHECK(ct_linear(ct_ones(CT_DIMS(2, 3), CT_F32), ct_ones(CT_DIMS(2, 3), CT_F64), NULL) == NULL && ct_last_error() == CT_ERR_DTYPE);
    ct_clear_error();
    CHECK(ct_linear(ct_ones(CT_DIMS(2, 3), CT_F32), ct_ones(CT_DIMS(2, 4), CT_F32), NULL) == NULL && ct_last_error() == CT_ERR_SHAPE);
    ct_clear_error();
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
      ct_tensor *sm = randt(37, 21, CT_F64), *c0 = ct_sum_dim(sm, 1, (const int64_t[]){0}, false),
                *c1 = ct_sum_dim(sm, 1, (const int64_t[]){-2}, true);
      int64_t si, j;
      int sok = c0 && c1 && c0->ndim == 1 && c1->ndim == 2 && c1->sizes[0] == 1;
      for (j = 0; sok && j < 21; j++) {
        double want = 0;
        for (si = 0; si < 37; si++) want += ct_get(sm, si * 21 + j);
        sok &= fabs(ct_get(c0, j) - want) < 1e-12 && ct_get(c1, j) == ct_get(c0, j);
      }
      CHECK(sok);
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

/* |got - ref| in units in the last place of the float nearest ref */
static double ulps(float got, double ref) {
  float rf = (float)ref;
  double u;
  if (ref != ref) return got != got ? 0 : 1e30;
  if (isinf(ref) || isinf(got)) return got == rf ? 0 : 1e30;
  u = fabs((double)nextafterf(rf, INFINITY) - rf);
  if (u < 1.4e-45) u = 1.4e-45;
  return fabs(got - ref) / u;
}
static double sigmoid_d(double v) { return 1 / (1 + exp(-v)); }

/* the vectorised f32 exp / sigmoid / tanh, libm for f64; softmax and log_softmax */
static void test_transcendental(void) {
  CT_SCOPE {
    int64_t n = 400037, i;
    static const float special[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1e-30f, -1e-8f, 0.6249f, -0.625f,
                                    88.72f, 88.73f, -87.4f, -103.9f, -104.0f, 1e-45f, 9.0f, -9.5f};
    ct_tensor *x = ct_empty(CT_DIMS(n), CT_F32), *xd;
    float *px = (float *)ct_data_ptr(x);
    int f, nsp = (int)(sizeof special / sizeof special[0]);
    for (i = 0; i < n; i++) px[i] = i < nsp ? special[i] : (float)(-110 + 220.0 * (double)i / (double)(n - 1));
    xd = ct_to_dtype(x, CT_F64);
    for (f = 0; f < 3; f++) {
      ct_tensor *y = f == 0 ? ct_exp(x) : f == 1 ? ct_sigmoid(x) : ct_tanh(x);
      ct_tensor *yd = f == 0 ? ct_exp(xd) : f == 1 ? ct_sigmoid(xd) : ct_tanh(xd);
      double worst = 0, worst_d = 0;
      int64_t wi = 0;
      for (i = 0; y && yd && i < n; i++) {
        double v = px[i], ref = f == 0 ? exp(v) : f == 1 ? sigmoid_d(v) : tanh(v);
        double e = ulps(((float *)ct_data_ptr(y))[i], ref), ed = fabs(((double *)ct_data_ptr(yd))[i] - ref);
        if (e > worst) worst = e, wi = i;
        if (ref == ref && ed > worst_d * (1 + fabs(ref))) worst_d = ed / (1 + fabs(ref));
      }
      /* about 1 ulp for exp, 2 for sigmoid and tanh; 4 is the bound we hold them to */
      CHECK(y && yd && worst <= 4 && worst_d < 1e-15);
      if (worst > 4) printf("    %s: %.1f ulp at x = %g\n", f == 0 ? "exp" : f == 1 ? "sigmoid" : "tanh", worst, (double)px[wi]);
    }
    { /* softmax / log_softmax, f32 and f64, every dim of a 3-D tensor, against a float64 computation */
      int d, lg, dt;
      ct_tensor *a = randt(6 * 37, 9, CT_F64);
      ct_tensor *a3 = ct_reshape(a, CT_DIMS(6, 37, 9));
      for (dt = 0; dt < 2; dt++)
        for (d = 0; d < 3; d++)
          for (lg = 0; lg < 2; lg++) {
            ct_tensor *in = dt ? a3 : ct_to_dtype(a3, CT_F32), *r = lg ? ct_log_softmax(in, d, CT_DTYPE_NONE) : ct_softmax(in, d, CT_DTYPE_NONE);
            const int64_t dims[3] = {6, 37, 9};
            int64_t o, j, k, inner = 1, outer = 1, nn = dims[d];
            double worst = 0;
            for (k = 0; k < 3; k++) {
              if (k < d) outer *= dims[k];
              if (k > d) inner *= dims[k];
            }
            for (o = 0; r && o < outer; o++)
              for (j = 0; j < inner; j++) {
                double m = -INFINITY, s = 0;
                for (k = 0; k < nn; k++) m = fmax(m, ct_get(in, (o * nn + k) * inner + j));
                for (k = 0; k < nn; k++) s += exp(ct_get(in, (o * nn + k) * inner + j) - m);
                for (k = 0; k < nn; k++) {
                  double v = ct_get(in, (o * nn + k) * inner + j) - m, ref = lg ? v - log(s) : exp(v) / s;
                  double e = fabs(ct_get(r, (o * nn + k) * inner + j) - ref);
                  if (e > worst) worst = e;
                }
              }
            CHECK(r && r->dtype == in->dtype && worst < (dt ? 1e-14 : 2e-6));
          }
    }
    { /* special rows: -inf entries give 0 (log: -inf); a NaN makes its row NaN; an all -inf row is NaN */
      static const float v[12] = {1, -INFINITY, 2, 3, /**/ 1, NAN, 2, 3, /**/ -INFINITY, -INFINITY, -INFINITY, -INFINITY};
      ct_tensor *t = ct_from_array(CT_DIMS(3, 4), CT_F32, v), *sm = ct_softmax(t, 1, CT_DTYPE_NONE), *ls = ct_log_softmax(t, -1, CT_DTYPE_NONE);
      CHECK(sm && ls && ct_get(sm, 1) == 0 && isinf(ct_get(ls, 1)) && ct_get(ls, 1) < 0 && fabs(ct_get(sm, 0) + ct_get(sm, 2) + ct_get(sm, 3) - 1) < 1e-6);
      CHECK(sm && ls && isnan(ct_get(sm, 4)) && isnan(ct_get(sm, 7)) && isnan(ct_get(ls, 6)) && isnan(ct_get(sm, 8)) && isnan(ct_get(ls, 11)));
    }
    { /* a NaN in any lane of a full vector, or in the tail, makes the whole row NaN (rows of 19: two vectors and 3) */
      int at, k, all_nan = 1;
      for (at = 0; at < 19; at++) {
        float v[19];
        ct_tensor *t, *sm, *ls;
        for (k = 0; k < 19; k++) v[k] = (float)((k * 7) % 19) * 0.25f;
        v[at] = NAN;
        t = ct_from_array(CT_DIMS(1, 19), CT_F32, v), sm = ct_softmax(t, 1, CT_DTYPE_NONE), ls = ct_log_softmax(t, 1, CT_DTYPE_NONE);
        for (k = 0; k < 19; k++) all_nan &= sm && ls && isnan(ct_get(sm, k)) && isnan(ct_get(ls, k));
      }
      CHECK(all_nan);
    }
    { /* out= forms; bad dims and dtype conversion still go to the reference kernel's checks */
      ct_tensor *a = randt(5, 7, CT_F32), *o = ct_empty(CT_DIMS(5, 7), CT_F32), *r = ct_softmax(a, 1, CT_DTYPE_NONE);
      CHECK(ct_softmax_out(o, a, 1, CT_DTYPE_NONE) == CT_OK && memcmp(ct_data_ptr(o), ct_data_ptr(r), 35 * 4) == 0);
      CHECK(ct_log_softmax_out(o, a, 0, CT_DTYPE_NONE) == CT_OK && fabs(ct_get(o, 3) - log(ct_get(ct_softmax(a, 0, CT_DTYPE_NONE), 3))) < 1e-6);
      CHECK(ct_softmax(a, 2, CT_DTYPE_NONE) == NULL && ct_last_error() == CT_ERR_INDEX);
      r = ct_softmax(a, 1, CT_F64);
      CHECK(r && r->dtype == CT_F64);
    }
    { /* the same bits with 1 and 2 threads */
      ct_tensor *big = randt(512, 1000, CT_F32), *s1, *s2, *e1, *e2, *c1, *c2;
      ct_set_num_threads(1);
      s1 = ct_log_softmax(big, 1, CT_DTYPE_NONE), e1 = ct_exp(big), c1 = ct_softmax(big, 0, CT_DTYPE_NONE);
      ct_set_num_threads(2);
      s2 = ct_log_softmax(big, 1, CT_DTYPE_NONE), e2 = ct_exp(big), c2 = ct_softmax(big, 0, CT_DTYPE_NONE);
      ct_set_num_threads(0);
      CHECK(s1 && s2 && memcmp(ct_data_ptr(s1), ct_data_ptr(s2), 512 * 1000 * 4) == 0);
      CHECK(e1 && e2 && memcmp(ct_data_ptr(e1), ct_data_ptr(e2), 512 * 1000 * 4) == 0);
      CHECK(c1 && c2 && memcmp(ct_data_ptr(c1), ct_data_ptr(c2), 512 * 1000 * 4) == 0);
    }
  }
}

/* ---- direct convolution (2-D, stride 1, kernel 1x1 / 3x3) against float64 loops ---- */
static ct_tensor *rand4(int64_t a, int64_t b, int64_t c, int64_t d, ct_dtype dt) {
  ct_tensor *t = ct_empty(CT_DIMS(a, b, c, d), dt);
  int64_t i;
  for (i = 0; i < a * b * c * d; i++) ct_set(t, i, urand());
  return t;
}
/* x (N, C, H, W) value at (n, c, y, x), 0 outside */
static double conv_at(const ct_tensor *x, int64_t n, int64_t c, int64_t y, int64_t xx) {
  if (y < 0 || xx < 0 || y >= x->sizes[2] || xx >= x->sizes[3]) return 0;
  return ct_get(x, ((n * x->sizes[1] + c) * x->sizes[2] + y) * x->sizes[3] + xx);
}
/* max |got - want| / (1 + sum |terms|) over the forward, the input and the weight gradient of sum(conv(x, w, b) * r) */
static double conv_check(ct_tensor *x, ct_tensor *w, ct_tensor *b, int64_t ph, int64_t pw, ct_tensor *y, ct_tensor *r, ct_tensor *gx,
                         ct_tensor *gw, ct_tensor *gb) {
  int64_t N = x->sizes[0], C = x->sizes[1], H = x->sizes[2], W = x->sizes[3], O = w->sizes[0], kh = w->sizes[2], kw = w->sizes[3];
  int64_t OH = H + 2 * ph - kh + 1, OW = W + 2 * pw - kw + 1, n, o, c, i, j, oy, ox;
  double worst = 0, s, m, e;
  if (!y || y->sizes[2] != OH || y->sizes[3] != OW) return 1e9;
  for (n = 0; n < N; n++)
    for (o = 0; o < O; o++)
      for (oy = 0; oy < OH; oy++)
        for (ox = 0; ox < OW; ox++) {
          s = b ? ct_get(b, o) : 0, m = fabs(s);
          for (c = 0; c < C; c++)
            for (i = 0; i < kh; i++)
              for (j = 0; j < kw; j++) {
                double t = ct_get(w, ((o * C + c) * kh + i) * kw + j) * conv_at(x, n, c, oy + i - ph, ox + j - pw);
                s += t, m += fabs(t);
              }
          e = fabs(s - ct_get(y, ((n * O + o) * OH + oy) * OW + ox)) / (1 + m);
          if (e > worst) worst = e;
        }
  if (gw)
    for (o = 0; o < O; o++)
      for (c = 0; c < C; c++)
        for (i = 0; i < kh; i++)
          for (j = 0; j < kw; j++) {
            s = 0, m = 0;
            for (n = 0; n < N; n++)
              for (oy = 0; oy < OH; oy++)
                for (ox = 0; ox < OW; ox++) {
                  double t = ct_get(r, ((n * O + o) * OH + oy) * OW + ox) * conv_at(x, n, c, oy + i - ph, ox + j - pw);
                  s += t, m += fabs(t);
                }
            e = fabs(s - ct_get(gw, ((o * C + c) * kh + i) * kw + j)) / (1 + m);
            if (e > worst) worst = e;
          }
  if (gx)
    for (n = 0; n < N; n++)
      for (c = 0; c < C; c++)
        for (oy = 0; oy < H; oy++)
          for (ox = 0; ox < W; ox++) {
            s = 0, m = 0;
            for (o = 0; o < O; o++)
              for (i = 0; i < kh; i++)
                for (j = 0; j < kw; j++) {
                  int64_t yy = oy - i + ph, xx = ox - j + pw;
                  double t;
                  if (yy < 0 || xx < 0 || yy >= OH || xx >= OW) continue;
                  t = ct_get(w, ((o * C + c) * kh + i) * kw + j) * ct_get(r, ((n * O + o) * OH + yy) * OW + xx);
                  s += t, m += fabs(t);
                }
            e = fabs(s - ct_get(gx, ((n * C + c) * H + oy) * W + ox)) / (1 + m);
            if (e > worst) worst = e;
          }
  if (gb)
    for (o = 0; o < O; o++) {
      s = 0, m = 0;
      for (n = 0; n < N; n++)
        for (oy = 0; oy < OH * OW; oy++) s += ct_get(r, (n * O + o) * OH * OW + oy), m += fabs(ct_get(r, (n * O + o) * OH * OW + oy));
      e = fabs(s - ct_get(gb, o)) / (1 + m);
      if (e > worst) worst = e;
    }
  return worst;
}
static int same_bits(const ct_tensor *a, const ct_tensor *b) {
  return a && b && a->numel == b->numel && memcmp(ct_data_ptr(a), ct_data_ptr(b), (size_t)a->numel * ct_dtype_size((ct_dtype)a->dtype)) == 0;
}
static void test_conv(void) {
  static const int64_t one[1] = {1};
  char buf[4096];
  int it, ok_fwd = 1, ok_grad = 1, ok_ref = 1, ok_threads = 1, worst_it = -1;
  double worst = 0;
  ct_op_dump(ct_op_find("convolution"), buf, sizeof buf);
  CHECK(strstr(buf, "(cpu_blis)") != NULL);
  ct_op_dump(ct_op_find("convolution_backward_weight"), buf, sizeof buf);
  CHECK(strstr(buf, "(cpu_blis)") != NULL);
  ct_op_dump(ct_op_find("convolution_backward_input"), buf, sizeof buf);
  CHECK(strstr(buf, "(cpu_blis)") != NULL);
  for (it = 0; it < 160; it++)
    CT_SCOPE {
      ct_dtype dt = it % 4 == 3 ? CT_F64 : CT_F32;
      double tol = dt == CT_F32 ? 1e-6 : 1e-14, e;
      int64_t N = it % 2 ? 3 : 1, C = 1 + (int64_t)((urand() + 1) * 8.5), O = 1 + (int64_t)((urand() + 1) * 8.5);
      int64_t kh = it % 5 == 4 ? 1 : 3, kw = it % 7 == 6 ? 1 : kh, ph = (it / 2) % 2 ? kh / 2 : 0, pw = (it / 2) % 2 ? kw / 2 : 0;
      int64_t H = kh - 2 * ph + (int64_t)((urand() + 1) * 4.5), W = kw - 2 * pw + (int64_t)((urand() + 1) * 4.5), pad[2];
      ct_tensor *x, *w, *b, *y, *y1, *y2, *r, *yr, *loss, *wide, *xs, *gx1, *gx2, *gw1, *gw2;
      if (H > 9) H = 9;
      if (W > 9) W = 9;
      if (H < 1) H = 1;
      if (W < 1) W = 1;
      pad[0] = ph, pad[1] = pw;
      x = rand4(N, C, H, W, dt), w = rand4(O, C, kh, kw, dt), b = it % 3 ? randt(1, O, dt) : NULL;
      if (b) b = ct_contiguous(ct_reshape(b, CT_DIMS(O)));
      ct_set_requires_grad(x, true), ct_set_requires_grad(w, true);
      if (b) ct_set_requires_grad(b, true);
      y = ct_conv2d(x, w, b, 1, one, 2, pad, 1, one, 1);
      r = y ? rand4(N, O, y->sizes[2], y->sizes[3], dt) : NULL;
      loss = r ? ct_sum(ct_mul(y, r)) : NULL;
      if (!loss || ct_backward(loss) != CT_OK) {
        ok_grad = 0;
        printf("FAIL conv it %d: %s\n", it, ct_last_error_message());
        continue;
      }
      CT_NO_GRAD {
        e = conv_check(x, w, b, ph, pw, y, r, ct_grad(x), ct_grad(w), b ? ct_grad(b) : NULL);
        if (e > worst) worst = e, worst_it = it;
        if (e > tol) {
          ok_fwd = 0;
          printf("FAIL conv it %d: N %lld C %lld O %lld H %lld W %lld k %lldx%lld pad %lld,%lld bias %d: error %g\n", it, (long long)N,
                 (long long)C, (long long)O, (long long)H, (long long)W, (long long)kh, (long long)kw, (long long)ph, (long long)pw,
                 b != NULL, e);
        }
        /* a channel slice (not contiguous) goes to the im2col + GEMM kernel: the same within rounding */
        wide = rand4(N, C + 1, H, W, dt);
        xs = ct_narrow(wide, 1, 1, C);
        yr = ct_conv2d(xs, w, b, 1, one, 2, pad, 1, one, 1);
        y = ct_conv2d(ct_contiguous(xs), w, b, 1, one, 2, pad, 1, one, 1);
        if (!yr || !y || ct_get(ct_max(ct_abs(ct_sub(yr, y))), 0) > (dt == CT_F32 ? 1e-4 : 1e-12)) ok_ref = 0;
        /* bit-identical for 1 and 2 threads */
        ct_set_num_threads(1);
        y1 = ct_conv2d(x, w, b, 1, one, 2, pad, 1, one, 1);
        gx1 = ct_convolution_backward_input(r, w, 4, x->sizes, 1, one, 2, pad, 1, one, 1);
        gw1 = ct_convolution_backward_weight(r, x, 4, w->sizes, 1, one, 2, pad, 1, one, 1);
        ct_set_num_threads(2);
        y2 = ct_conv2d(x, w, b, 1, one, 2, pad, 1, one, 1);
        gx2 = ct_convolution_backward_input(r, w, 4, x->sizes, 1, one, 2, pad, 1, one, 1);
        gw2 = ct_convolution_backward_weight(r, x, 4, w->sizes, 1, one, 2, pad, 1, one, 1);
        ct_set_num_threads(0);
        if (!same_bits(y1, y2) || !same_bits(gx1, gx2) || !same_bits(gw1, gw2) || !same_bits(gx1, ct_grad(x)) || !same_bits(gw1, ct_grad(w)))
          ok_threads = 0;
      }
    }
  printf("direct conv: worst relative error %g (iteration %d)\n", worst, worst_it);
  CHECK(ok_fwd);
  CHECK(ok_grad);
  CHECK(ok_ref);
  CHECK(ok_threads);
  CT_SCOPE { /* larger, multi-task shapes: 1 and 2 threads give the same bits */
    static const int64_t p1[1] = {1}, p0[1] = {0};
    ct_tensor *x = rand4(5, 16, 16, 16, CT_F32), *w = rand4(32, 16, 3, 3, CT_F32), *b = ct_contiguous(ct_reshape(randt(1, 32, CT_F32), CT_DIMS(32)));
    ct_tensor *y1, *y2, *g1, *g2, *d1, *d2, *r = rand4(5, 32, 16, 16, CT_F32);
    ct_set_num_threads(1);
    y1 = ct_conv2d(x, w, b, 1, one, 1, p1, 1, one, 1);
    g1 = ct_convolution_backward_weight(r, x, 4, w->sizes, 1, one, 1, p1, 1, one, 1);
    d1 = ct_convolution_backward_input(r, w, 4, x->sizes, 1, one, 1, p1, 1, one, 1);
    ct_set_num_threads(2);
    y2 = ct_conv2d(x, w, b, 1, one, 1, p1, 1, one, 1);
    g2 = ct_convolution_backward_weight(r, x, 4, w->sizes, 1, one, 1, p1, 1, one, 1);
    d2 = ct_convolution_backward_input(r, w, 4, x->sizes, 1, one, 1, p1, 1, one, 1);
    ct_set_num_threads(0);
    CHECK(same_bits(y1, y2) && same_bits(g1, g2) && same_bits(d1, d2));
    CHECK(conv_check(x, w, b, 1, 1, y1, r, d1, g1, NULL) < 1e-6);
    /* errors still come from the reference kernel */
    CHECK(ct_conv2d(x, rand4(32, 15, 3, 3, CT_F32), NULL, 1, one, 1, p1, 1, one, 1) == NULL && ct_last_error() == CT_ERR_SHAPE);
    CHECK(ct_conv2d(rand4(1, 2, 1, 1, CT_F32), rand4(3, 2, 3, 3, CT_F32), NULL, 1, one, 1, p0, 1, one, 1) == NULL && ct_last_error() == CT_ERR_SHAPE);
  }
}

/* Operands stored by columns (x @ W.t(), grad.t() @ x) are copied into rows
 * before BLIS, in register tiles with scalar edges: every tile/edge split
 * (sizes around the 8-float and 4-double tiles) must give the bits of the
 * contiguous operand, and the product must match the naive one */
static void test_transposed_operands(void) {
  static const int64_t shapes[][3] = {{16, 17, 33}, {64, 64, 64}, {9, 67, 70}, {33, 8, 40}, {40, 40, 7},
                                      {20, 100, 13}, {128, 24, 300}, {12, 5, 200}, {200, 3, 31}};
  int dt, s, ok_b = 1, ok_a = 1, ok_ab = 1;
  double worst = 0;
  for (dt = 0; dt < 2; dt++)
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) CT_SCOPE {
        ct_dtype d = dt ? CT_F64 : CT_F32;
        int64_t m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        ct_tensor *a = randt(m, k, d), *b = randt(k, n, d);
        ct_tensor *at = ct_t(ct_contiguous(ct_t(a))), *bt = ct_t(ct_contiguous(ct_t(b))); /* same values, stored by columns */
        ct_tensor *ref = ct_mm(a, b), *r;
        double e;
        CHECK(at && bt && at->strides[0] == 1 && bt->strides[0] == 1);
        r = ct_mm(a, bt);
        ok_b &= same_bits(r, ref);
        r = ct_mm(at, b);
        ok_a &= same_bits(r, ref);
        r = ct_mm(at, bt);
        ok_ab &= r != NULL;
        e = r ? mm_err(at, bt, r) : 1;
        if (e > worst) worst = e;
      }
  CHECK(ok_b);
  CHECK(ok_a);
  CHECK(ok_ab && worst < 1e-5);
}

int main(void) {
  test_registration();
  test_mm();
  test_linalg_ops();
  test_linear();
  test_transposed_operands();
  test_pointwise();
  test_autograd();
  test_determinism();
  test_transcendental();
  test_conv();
  test_steady_state();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
