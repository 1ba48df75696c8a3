/* tests/test_ops_linalg.c - direct tests of gen/ops/linalg.spec beyond the PyTorch
 * fixtures (tests/cases_linalg.py, run by tests/test_opcases.c): opcheck of
 * every op, matmul's shape cases against a naive reference, gradcheck and
 * gradgradcheck through each path, dtypes, aliasing, zero-size, meta, errors. */

/* deterministic values in [-1, 1] (never 0), any dtype */
static ct_tensor *la_t(int ndim, const int64_t *sizes, ct_dtype dtype, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, sizes, dtype);
  uint32_t s = seed * 2654435761u + 777u;
  int64_t k;
  for (k = 0; t && k < t->numel; k++) {
    double u;
    s = s * 1664525u + 1013904223u;
    u = (double)(s >> 8) / 16777216.0;
    if (ct_dtype_is_floating(dtype)) ct_set(t, k, (u < 0.5 ? -1 : 1) * (0.1 + 0.9 * u));
    else ct_set(t, k, (double)((s >> 12) % 7) - (dtype == CT_U8 ? 0 : 3));
  }
  return t;
}
#define LA_F64(ndim_sizes, seed) la_t(ndim_sizes, CT_F64, seed)
#define LA_F32(ndim_sizes, seed) la_t(ndim_sizes, CT_F32, seed)

/* naive torch.matmul in double over logical indices: broadcasting batches,
 * 1-D operands get a 1 added and removed. Returns the result's numel. */
static int64_t la_ref_matmul(const ct_tensor *a, const ct_tensor *b, double *out, int *ondim, int64_t *oshape) {
  int da = a->ndim, db = b->ndim, nba = da > 2 ? da - 2 : 0, nbb = db > 2 ? db - 2 : 0, nb = nba > nbb ? nba : nbb, i;
  int64_t n = da > 1 ? a->sizes[da - 2] : 1, k = a->sizes[da - 1], p = db > 1 ? b->sizes[db - 1] : 1;
  int64_t batch[CT_MAX_DIMS], nbatch = 1, bi, r, c, q, on = 0;
  for (i = 0; i < nb; i++) {
    int ia = i - (nb - nba), ib = i - (nb - nbb);
    int64_t sa = ia >= 0 ? a->sizes[ia] : 1, sb = ib >= 0 ? b->sizes[ib] : 1;
    batch[i] = sa == 1 ? sb : sa;
    nbatch *= batch[i];
    oshape[on++] = batch[i];
  }
  if (da > 1) oshape[on++] = n;
  if (db > 1) oshape[on++] = p;
  *ondim = (int)on;
  for (bi = 0; bi < nbatch; bi++) {
    int64_t rem = bi, offa = 0, offb = 0, mula = 1, mulb = 1;
    for (i = nb - 1; i >= 0; i--) {
      int64_t idx = rem % batch[i];
      int ia = i - (nb - nba), ib = i - (nb - nbb);
      rem /= batch[i];
      /* cppcheck-suppress knownConditionTrueFalse ; false positive: ia < 0 when a has fewer batch dims than b */
      if (ia >= 0) offa += (a->sizes[ia] == 1 ? 0 : idx) * mula, mula *= a->sizes[ia];
      if (ib >= 0) offb += (b->sizes[ib] == 1 ? 0 : idx) * mulb, mulb *= b->sizes[ib];
    }
    for (r = 0; r < n; r++)
      for (c = 0; c < p; c++) {
        double acc = 0;
        for (q = 0; q < k; q++)
          acc += ct_get(a, offa * n * k + r * k + q) * ct_get(b, offb * k * p + q * p + c);
        out[bi * n * p + r * p + c] = acc;
      }
  }
  return nbatch * n * p;
}

static void la_check_matmul(int line, ct_tensor *a, ct_tensor *b, double tol) {
  static double want[4096];
  int64_t oshape[CT_MAX_DIMS], numel, i;
  int ondim, ok = 1;
  ct_tensor *r = ct_matmul(a, b);
  if (!r) {
    harness_fail(__FILE__, line, "matmul failed: %s", ct_last_error_message());
    ct_clear_error();
    return;
  }
  numel = la_ref_matmul(a, b, want, &ondim, oshape);
  ok = r->ndim == ondim && !memcmp(r->sizes, oshape, sizeof(int64_t) * (size_t)ondim);
  for (i = 0; ok && i < numel; i++)
    if (fabs(ct_get(r, i) - want[i]) > tol) {
      harness_fail(__FILE__, line, "matmul element %lld: %.9g vs %.9g", (long long)i, ct_get(r, i), want[i]);
      break; /* one report is enough */
    }
  if (r->ndim != ondim || memcmp(r->sizes, oshape, sizeof(int64_t) * (size_t)ondim)) {
    char b1[100], b2[100];
    harness_fail(__FILE__, line, "matmul shape %s, want %s", ct_shape_format(r->ndim, r->sizes, b1, sizeof b1),
                 ct_shape_format(ondim, oshape, b2, sizeof b2));
  }
}

static ct_tensor *la_matmul_fn(ct_tensor *const *in, void *ctx) {
  (void)ctx;
  return ct_matmul(in[0], in[1]);
}

/* every torch.matmul shape case: values against the reference, gradients by gradcheck */
TEST(linalg_matmul_shape_cases) {
  static const int64_t cases[][2][5] = {
      /* {ndim, sizes...} x {ndim, sizes...} */
      {{1, 3}, {1, 3}},          {{2, 2, 3}, {1, 3}},      {{1, 3}, {2, 3, 4}},        {{2, 2, 3}, {2, 3, 4}},
      {{3, 2, 2, 3}, {1, 3}},    {{3, 2, 2, 3}, {2, 3, 4}}, {{1, 3}, {3, 2, 3, 4}},    {{2, 2, 3}, {3, 2, 3, 4}},
      {{3, 2, 2, 3}, {3, 2, 3, 4}}, {{4, 2, 1, 2, 3}, {3, 3, 3, 4}}, {{3, 1, 2, 3}, {4, 2, 1, 3, 4}},
      {{3, 2, 0, 3}, {2, 3, 4}}, {{2, 2, 0}, {3, 2, 0, 4}}, {{3, 2, 2, 3}, {3, 2, 3, 0}}, {{4, 2, 1, 2, 3}, {1, 3}},
  };
  int i;
  for (i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
    CT_SCOPE {
      ct_tensor *a = la_t((int)cases[i][0][0], cases[i][0] + 1, CT_F64, 10 + i), *b = la_t((int)cases[i][1][0], cases[i][1] + 1, CT_F64, 50 + i);
      ct_tensor *in[2];
      la_check_matmul(__LINE__, a, b, 1e-12);
      /* non-contiguous operands: transposed copies of the last two dims */
      if (a->ndim >= 2 && b->ndim >= 2) {
        ct_tensor *at = ct_transpose(ct_contiguous(ct_transpose(a, -1, -2)), -1, -2);
        ct_tensor *bt = ct_transpose(ct_contiguous(ct_transpose(b, -1, -2)), -1, -2);
        CHECK(!ct_is_contiguous(at) || at->numel <= 1 || a->sizes[a->ndim - 1] == 1);
        la_check_matmul(__LINE__, at, bt, 1e-12);
      }
      /* gradients, with either or both operands requiring grad (fold or not) */
      in[0] = ct_clone(a), in[1] = ct_clone(b);
      CHECK_OK(ct_set_requires_grad(in[0], true));
      CHECK_OK(ct_gradcheck(la_matmul_fn, NULL, 2, in, NULL));
      CHECK_OK(ct_set_requires_grad(in[1], true));
      CHECK_OK(ct_gradcheck(la_matmul_fn, NULL, 2, in, NULL));
      CHECK_OK(ct_set_requires_grad(in[0], false));
      CHECK_OK(ct_gradcheck(la_matmul_fn, NULL, 2, in, NULL));
    }
  }
}

TEST(linalg_matmul_float32_and_views) {
  CT_SCOPE {
    ct_tensor *a = LA_F32(CT_DIMS(2, 3, 5), 1), *w = LA_F32(CT_DIMS(4, 5), 2);
    ct_tensor *big = LA_F32(CT_DIMS(3, 4, 6), 3);
    /* a strided batch (no fold: the batch dims are not mergeable) */
    ct_tensor *sl = ct_slice(big, 2, 0, 6, 2), *wt = ct_t(w);
    la_check_matmul(__LINE__, a, wt, 1e-5);
    la_check_matmul(__LINE__, ct_permute(a, CT_DIMS(1, 0, 2)), wt, 1e-5);
    la_check_matmul(__LINE__, sl, LA_F32(CT_DIMS(3, 2), 4), 1e-5);
    la_check_matmul(__LINE__, LA_F32(CT_DIMS(4), 5), ct_expand(LA_F32(CT_DIMS(1, 4, 2), 6), CT_DIMS(3, 4, 2)), 1e-5);
    CHECK(ct_matmul(a, wt)->dtype == CT_F32);
  }
}

TEST(linalg_matmul_gradgrad) {
  CT_SCOPE {
    ct_tensor *in[2];
    in[0] = LA_F64(CT_DIMS(2, 2, 3), 1), in[1] = LA_F64(CT_DIMS(3, 2), 2);
    CHECK_OK(ct_set_requires_grad(in[0], true));
    CHECK_OK(ct_set_requires_grad(in[1], true));
    CHECK_OK(ct_gradgradcheck(la_matmul_fn, NULL, 2, in, NULL));
    in[0] = LA_F64(CT_DIMS(3), 3), in[1] = LA_F64(CT_DIMS(2, 3, 2), 4);
    CHECK_OK(ct_set_requires_grad(in[0], true));
    CHECK_OK(ct_set_requires_grad(in[1], true));
    CHECK_OK(ct_gradgradcheck(la_matmul_fn, NULL, 2, in, NULL));
  }
}

/* ct_opcheck over every op: frontend vs boxed, meta, in-place/out=, gradcheck */
static void la_opcheck(int line, const char *op, int n, const ct_value *args, int gradgrad) {
  ct_opcheck_opts o;
  memset(&o, 0, sizeof o);
  o.gradgradcheck = gradgrad != 0;
  if (ct_opcheck(op, n, args, &o) != CT_OK) {
    harness_fail(__FILE__, line, "opcheck %s: %s", op, ct_last_error_message());
    ct_clear_error();
  }
}
#define LA_OPCHECK(op, gg, ...)                                                                                  \
  do {                                                                                                           \
    ct_value la_args_[] = {__VA_ARGS__};                                                                         \
    la_opcheck(__LINE__, op, (int)(sizeof la_args_ / sizeof la_args_[0]), la_args_, gg);                         \
  } while (0)
#define LA_T(t) ct_value_tensor(t)
#define LA_S(s) ct_value_scalar(s)

TEST(linalg_opcheck_every_op) {
  CT_SCOPE {
    ct_tensor *v3 = LA_F32(CT_DIMS(3), 1), *w3 = LA_F32(CT_DIMS(3), 2), *m23 = LA_F32(CT_DIMS(2, 3), 3);
    ct_tensor *m34 = LA_F32(CT_DIMS(3, 4), 4), *m24 = LA_F32(CT_DIMS(2, 4), 5), *b234 = LA_F32(CT_DIMS(2, 3, 4), 6);
    ct_tensor *b223 = LA_F32(CT_DIMS(2, 2, 3), 7), *b224 = LA_F32(CT_DIMS(2, 2, 4), 8), *r4 = LA_F32(CT_DIMS(4), 9);
    ct_tensor *m43t = ct_t(LA_F32(CT_DIMS(4, 3), 10)), *bias2 = LA_F32(CT_DIMS(2), 11);
    LA_OPCHECK("dot", 1, LA_T(v3), LA_T(w3));
    LA_OPCHECK("dot", 0, LA_T(ct_slice(LA_F32(CT_DIMS(6), 12), 0, 0, 6, 2)), LA_T(w3));
    LA_OPCHECK("mv", 1, LA_T(m23), LA_T(v3));
    LA_OPCHECK("mv", 0, LA_T(ct_t(m34)), LA_T(v3));
    LA_OPCHECK("mm", 1, LA_T(m23), LA_T(m34));
    LA_OPCHECK("mm", 0, LA_T(m23), LA_T(m43t));
    LA_OPCHECK("bmm", 1, LA_T(b223), LA_T(b234));
    LA_OPCHECK("bmm", 0, LA_T(ct_transpose(LA_F32(CT_DIMS(2, 3, 2), 13), 1, 2)), LA_T(b234));
    LA_OPCHECK("addmm", 1, LA_T(m24), LA_T(m23), LA_T(m34), LA_S(ct_float(0.5)), LA_S(ct_int(2)));
    LA_OPCHECK("addmm", 0, LA_T(r4), LA_T(m23), LA_T(m43t), LA_S(ct_int(1)), LA_S(ct_float(-1.5)));
    LA_OPCHECK("addmm", 0, LA_T(m24), LA_T(m23), LA_T(m34), LA_S(ct_int(0)), LA_S(ct_int(1)));
    LA_OPCHECK("baddbmm", 1, LA_T(b224), LA_T(b223), LA_T(b234), LA_S(ct_float(0.5)), LA_S(ct_int(2)));
    LA_OPCHECK("baddbmm", 0, LA_T(r4), LA_T(b223), LA_T(b234), LA_S(ct_int(1)), LA_S(ct_int(1)));
    LA_OPCHECK("outer", 1, LA_T(v3), LA_T(r4));
    LA_OPCHECK("matmul", 1, LA_T(b223), LA_T(m34));
    LA_OPCHECK("matmul", 0, LA_T(v3), LA_T(b234));
    LA_OPCHECK("linear", 1, LA_T(m23), LA_T(LA_F32(CT_DIMS(2, 3), 14)), LA_T(bias2));
    LA_OPCHECK("linear", 0, LA_T(b223), LA_T(LA_F32(CT_DIMS(2, 3), 15)), LA_T(bias2));
    LA_OPCHECK("linear", 0, LA_T(v3), LA_T(LA_F32(CT_DIMS(2, 3), 16)), ct_value_none());
    LA_OPCHECK("linear", 0, LA_T(ct_transpose(LA_F32(CT_DIMS(3, 2, 2), 17), 0, 2)), LA_T(LA_F32(CT_DIMS(2, 3), 18)), LA_T(bias2));
  }
}

TEST(linalg_values_and_dtypes) {
  CT_SCOPE {
    const double av[] = {1, 2, 3, 4, 5, 6}, bv[] = {1, -1, 2, 0, 0.5, 3};
    ct_tensor *a = ct_from_array(CT_DIMS(2, 3), CT_F64, av), *b = ct_from_array(CT_DIMS(3, 2), CT_F64, bv), *r;
    ct_dtype dts[] = {CT_F32, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8};
    int i;
    r = ct_mm(a, b); /* [[1*1+2*2+3*0.5, -1+0+9], [4+10+3, -4+18]] */
    CHECK(r && ct_get(r, 0) == 6.5 && ct_get(r, 1) == 8 && ct_get(r, 2) == 17 && ct_get(r, 3) == 14);
    r = ct_addmm_ex(ct_ones(CT_DIMS(2), CT_F64), a, b, ct_float(2), ct_float(0.5));
    CHECK(r && ct_get(r, 0) == 5.25 && ct_get(r, 3) == 9);
    r = ct_dot(ct_view(a, CT_DIMS(6)), ct_view(b, CT_DIMS(6)));
    CHECK(r && r->ndim == 0 && ct_get(r, 0) == 1 - 2 + 6 + 0 + 2.5 + 18);
    r = ct_mv(a, ct_select(b, 1, 0));
    CHECK(r && r->ndim == 1 && ct_get(r, 0) == 6.5 && ct_get(r, 1) == 17);
    for (i = 0; i < (int)(sizeof dts / sizeof dts[0]); i++) { /* every non-bool dtype, exact small integers */
      ct_tensor *x = ct_to_dtype(a, dts[i]), *y = ct_to_dtype(ct_mul_scalar(b, ct_int(2)), dts[i]);
      r = ct_mm(x, y);
      CHECK(r && r->dtype == dts[i] && ct_get(r, 0) == 13 && ct_get(r, 3) == 28);
      r = ct_bmm(ct_unsqueeze(x, 0), ct_unsqueeze(y, 0));
      CHECK(r && r->dtype == dts[i] && ct_get(r, 2) == 34);
      r = ct_matmul(x, ct_select(y, 1, 1));
      CHECK(r && r->dtype == dts[i] && ct_get(r, 1) == 28);
    }
    /* integers wrap like C unsigned arithmetic */
    r = ct_mm(ct_full(CT_DIMS(1, 2), ct_int(200), CT_U8), ct_full(CT_DIMS(2, 1), ct_int(2), CT_U8));
    CHECK(r && ct_get(r, 0) == (double)(uint8_t)800);
    /* float16 accumulates in float: 2048 + 1 is not stuck at 2048 */
    {
      ct_tensor *h = ct_full(CT_DIMS(1, 4096), ct_float(1), CT_F16), *g = ct_full(CT_DIMS(4096, 1), ct_float(1), CT_F16);
      r = ct_mm(h, g);
      CHECK(r && ct_get(r, 0) == 4096);
      r = ct_dot(ct_full(CT_DIMS(4096), ct_float(1), CT_BF16), ct_full(CT_DIMS(4096), ct_float(1), CT_BF16));
      CHECK(r && ct_get(r, 0) == 4096);
    }
    /* outer promotes like mul, bool included */
    r = ct_outer(ct_arange(0, 3, 1, CT_I64), ct_full(CT_DIMS(2), ct_float(0.5), CT_F32));
    CHECK(r && r->dtype == CT_F32 && r->sizes[0] == 3 && r->sizes[1] == 2 && ct_get(r, 5) == 1);
    r = ct_outer(ct_full(CT_DIMS(2), ct_bool(true), CT_BOOL), ct_full(CT_DIMS(2), ct_bool(true), CT_BOOL));
    CHECK(r && r->dtype == CT_BOOL && ct_get(r, 3) == 1);
  }
}

TEST(linalg_addmm_beta_zero_and_scalars) {
  CT_SCOPE {
    ct_tensor *nan = ct_full(CT_DIMS(2, 2), ct_float(NAN), CT_F32), *a = LA_F32(CT_DIMS(2, 3), 1), *b = LA_F32(CT_DIMS(3, 2), 2);
    ct_tensor *mm = ct_mm(a, b), *r;
    int64_t i;
    r = ct_addmm_ex(nan, a, b, ct_int(0), ct_int(1));
    for (i = 0; r && i < 4; i++) CHECK(ct_get(r, i) == ct_get(mm, i));
    r = ct_addmm_ex(nan, a, b, ct_float(0.0), ct_float(2));
    for (i = 0; r && i < 4; i++) CHECK_NEAR(ct_get(r, i), 2 * ct_get(mm, i), 1e-6);
    r = ct_baddbmm_ex(ct_full(CT_DIMS(1), ct_float(NAN), CT_F32), ct_unsqueeze(a, 0), ct_unsqueeze(b, 0), ct_bool(false), ct_int(1));
    for (i = 0; r && i < 4; i++) CHECK(ct_get(r, i) == ct_get(mm, i));
    CHECK_OK(ct_addmm_ex_(nan, a, b, ct_int(0), ct_int(1)));
    for (i = 0; i < 4; i++) CHECK(ct_get(nan, i) == ct_get(mm, i));
    /* beta != 0 keeps NaN */
    r = ct_addmm(ct_full(CT_DIMS(2, 2), ct_float(NAN), CT_F32), a, b);
    CHECK(r && isnan(ct_get(r, 0)));
    /* integer inputs with integer alpha / beta */
    r = ct_addmm_ex(ct_full(CT_DIMS(2, 2), ct_int(1), CT_I64), ct_full(CT_DIMS(2, 3), ct_int(2), CT_I64),
                    ct_full(CT_DIMS(3, 2), ct_int(3), CT_I64), ct_int(5), ct_int(-1));
    CHECK(r && r->dtype == CT_I64 && ct_get(r, 0) == 5 - 18);
    /* baddbmm casts a self of another floating dtype to the result's */
    r = ct_baddbmm(ct_ones(CT_DIMS(2, 2), CT_F64), ct_unsqueeze(a, 0), ct_unsqueeze(b, 0));
    CHECK(r && r->dtype == CT_F32 && r->ndim == 3 && fabs(ct_get(r, 1) - 1 - ct_get(mm, 1)) < 1e-6);
  }
}

TEST(linalg_inplace_out_and_aliasing) {
  CT_SCOPE {
    ct_tensor *a = LA_F64(CT_DIMS(3, 3), 1), *b = LA_F64(CT_DIMS(3, 3), 2), *out = ct_empty(CT_DIMS(1), CT_F64);
    ct_tensor *want = ct_add(a, ct_mm(a, a)), *c = ct_clone(a), *want2;
    uint32_t v;
    int64_t i;
    /* self is also mat1 and mat2: read everything before writing */
    v = c->storage->version;
    CHECK_OK(ct_addmm_(c, c, c));
    CHECK(c->storage->version != v);
    for (i = 0; i < 9; i++) CHECK_NEAR(ct_get(c, i), ct_get(want, i), 1e-12);
    /* out= resizes, and may alias an input of the right shape */
    CHECK_OK(ct_mm_out(out, a, b));
    CHECK(out->ndim == 2 && out->sizes[0] == 3 && out->sizes[1] == 3);
    want2 = ct_mm(a, b);
    for (i = 0; i < 9; i++) CHECK_NEAR(ct_get(out, i), ct_get(want2, i), 1e-12);
    c = ct_clone(a);
    CHECK_OK(ct_mm_out(c, c, b));
    for (i = 0; i < 9; i++) CHECK_NEAR(ct_get(c, i), ct_get(want2, i), 1e-12);
    c = ct_clone(a);
    CHECK_OK(ct_addmm_out(c, c, ct_t(c), b)); /* out is self and a view of mat1 */
    want2 = ct_add(a, ct_mm(ct_t(a), b));
    for (i = 0; i < 9; i++) CHECK_NEAR(ct_get(c, i), ct_get(want2, i), 1e-12);
    /* a transposed out= gets written through its strides */
    c = ct_t(ct_zeros(CT_DIMS(3, 3), CT_F64));
    CHECK_OK(ct_mm_out(c, a, b));
    want2 = ct_mm(a, b);
    for (i = 0; i < 9; i++) CHECK_NEAR(ct_get(c, i), ct_get(want2, i), 1e-12);
    /* bmm.out, dot.out, mv.out, baddbmm_ */
    out = ct_empty(CT_DIMS(0), CT_F64);
    CHECK_OK(ct_bmm_out(out, ct_unsqueeze(a, 0), ct_unsqueeze(b, 0)));
    CHECK(out->ndim == 3 && fabs(ct_get(out, 4) - ct_get(want2, 4)) < 1e-12);
    out = ct_empty(CT_DIMS(2), CT_F64);
    CHECK_OK(ct_dot_out(out, ct_select(a, 0, 0), ct_select(b, 1, 0)));
    CHECK(out->ndim == 0 && fabs(ct_get(out, 0) - ct_get(want2, 0)) < 1e-12);
    CHECK_OK(ct_mv_out(out, a, ct_select(b, 1, 2)));
    CHECK(out->ndim == 1 && fabs(ct_get(out, 1) - ct_get(want2, 5)) < 1e-12);
    c = ct_zeros(CT_DIMS(1, 3, 3), CT_F64);
    CHECK_OK(ct_baddbmm_ex_(c, ct_unsqueeze(a, 0), ct_unsqueeze(b, 0), ct_int(1), ct_int(3)));
    CHECK(fabs(ct_get(c, 7) - 3 * ct_get(want2, 7)) < 1e-12);
  }
}

TEST(linalg_composite_out_forms) {
  CT_SCOPE {
    ct_tensor *a = LA_F64(CT_DIMS(2, 3, 4), 1), *b = LA_F64(CT_DIMS(4, 5), 2), *out = ct_empty(CT_DIMS(1), CT_F64), *want;
    ct_tensor *w = LA_F64(CT_DIMS(5, 4), 3), *bias = LA_F64(CT_DIMS(5), 4);
    int64_t i;
    CHECK_OK(ct_matmul_out(out, a, b));
    want = ct_matmul(a, b);
    CHECK(ct_same_shape(out, want));
    for (i = 0; i < want->numel; i++) CHECK(ct_get(out, i) == ct_get(want, i));
    CHECK_OK(ct_linear_out(out, a, w, bias));
    want = ct_linear(a, w, bias);
    CHECK(ct_same_shape(out, want) && ct_get(out, 7) == ct_get(want, 7));
    CHECK_OK(ct_outer_out(out, ct_select(b, 1, 0), bias));
    CHECK(out->ndim == 2 && out->sizes[0] == 4 && out->sizes[1] == 5);
    CHECK_ERR(ct_matmul_out(ct_empty(CT_DIMS(1), CT_F32), a, b), CT_ERR_DTYPE, "expected out tensor to have dtype float64");
    CHECK_OK(ct_set_requires_grad(b, true));
    CHECK_ERR(ct_matmul_out(out, a, b), CT_ERR_STATE, "out= arguments don't support automatic differentiation");
    CT_NO_GRAD { CHECK_OK(ct_matmul_out(out, a, b)); }
  }
}

TEST(linalg_zero_size_and_meta) {
  CT_SCOPE {
    ct_tensor *r, *self = ct_full(CT_DIMS(2, 3), ct_float(2), CT_F32);
    r = ct_mm(ct_empty(CT_DIMS(2, 0), CT_F32), ct_empty(CT_DIMS(0, 3), CT_F32));
    CHECK(r && r->numel == 6 && ct_get(r, 0) == 0 && ct_get(r, 5) == 0);
    r = ct_addmm_ex(self, ct_empty(CT_DIMS(2, 0), CT_F32), ct_empty(CT_DIMS(0, 3), CT_F32), ct_int(3), ct_int(1));
    CHECK(r && ct_get(r, 4) == 6);
    r = ct_dot(ct_empty(CT_DIMS(0), CT_F32), ct_empty(CT_DIMS(0), CT_F32));
    CHECK(r && r->ndim == 0 && ct_get(r, 0) == 0);
    r = ct_bmm(ct_empty(CT_DIMS(0, 2, 3), CT_F32), ct_empty(CT_DIMS(0, 3, 4), CT_F32));
    CHECK(r && r->ndim == 3 && r->numel == 0 && r->sizes[2] == 4);
    r = ct_mv(ct_empty(CT_DIMS(0, 3), CT_F32), ct_empty(CT_DIMS(3), CT_F32));
    CHECK(r && r->numel == 0);
    /* meta: shapes and dtypes, no data */
    r = ct_matmul(ct_empty_opts(CT_DIMS(5, 1, 2, 3), ct_opts(CT_F64, CT_META)), ct_empty_opts(CT_DIMS(4, 3, 7), ct_opts(CT_F64, CT_META)));
    CHECK(r && r->device.type == CT_DEVICE_META && r->ndim == 4 && r->sizes[0] == 5 && r->sizes[1] == 4 && r->sizes[3] == 7);
    r = ct_linear(ct_empty_opts(CT_DIMS(8, 3), ct_opts(CT_F32, CT_META)), ct_empty_opts(CT_DIMS(2, 3), ct_opts(CT_F32, CT_META)),
                  ct_empty_opts(CT_DIMS(2), ct_opts(CT_F32, CT_META)));
    CHECK(r && r->device.type == CT_DEVICE_META && r->sizes[0] == 8 && r->sizes[1] == 2);
  }
}

TEST(linalg_linear_cases) {
  CT_SCOPE {
    ct_tensor *w = LA_F64(CT_DIMS(2, 3), 1), *bias = LA_F64(CT_DIMS(2), 2), *x3 = LA_F64(CT_DIMS(4, 5, 3), 3), *r, *want;
    int64_t i;
    r = ct_linear(x3, w, bias); /* contiguous 3-D: folded addmm */
    want = ct_add(ct_matmul(x3, ct_t(w)), bias);
    CHECK(r && r->ndim == 3 && r->sizes[2] == 2);
    for (i = 0; r && i < want->numel; i++) CHECK_NEAR(ct_get(r, i), ct_get(want, i), 1e-12);
    r = ct_linear(ct_transpose(x3, 0, 1), w, bias); /* non-contiguous 3-D: matmul + add_ */
    want = ct_transpose(want, 0, 1);
    for (i = 0; r && i < want->numel; i++) CHECK_NEAR(ct_get(r, i), ct_get(want, i), 1e-12);
    r = ct_linear(ct_select(x3, 0, 0), ct_select(w, 0, 1), NULL); /* 1-D weight: [5] */
    CHECK(r && r->ndim == 1 && r->sizes[0] == 5);
    r = ct_linear(ct_select(ct_select(x3, 0, 0), 0, 0), w, NULL); /* 1-D input */
    CHECK(r && r->ndim == 1 && r->sizes[0] == 2);
    /* the bias may not grow the result (add_ in PyTorch) */
    CHECK_ERR(ct_linear(ct_select(ct_select(x3, 0, 0), 0, 0), w, LA_F64(CT_DIMS(3, 2), 4)), CT_ERR_SHAPE, "doesn't match the broadcast shape");
    CHECK_ERR(ct_linear(ct_scalar_tensor(ct_float(1), CT_F64), w, bias), CT_ERR_RANK, "both arguments to matmul need to be at least 1D");
    CHECK_ERR(ct_linear(LA_F64(CT_DIMS(4, 3), 5), LA_F64(CT_DIMS(2, 4), 6), bias), CT_ERR_SHAPE,
              "mat1 and mat2 shapes cannot be multiplied (4x3 and 4x2)");
  }
}

static ct_tensor *la_linear_fn(ct_tensor *const *in, void *ctx) {
  (void)ctx;
  return ct_linear(in[0], in[1], in[2]);
}
static ct_tensor *la_addmm_fn(ct_tensor *const *in, void *ctx) {
  (void)ctx;
  return ct_addmm_ex(in[0], in[1], in[2], ct_float(0.5), ct_float(-2));
}
static ct_tensor *la_baddbmm_fn(ct_tensor *const *in, void *ctx) {
  (void)ctx;
  return ct_baddbmm_ex(in[0], in[1], in[2], ct_int(2), ct_float(0.25));
}
TEST(linalg_gradcheck_broadcast_self) {
  CT_SCOPE {
    ct_tensor *in[3];
    int i;
    in[0] = LA_F64(CT_DIMS(3, 4), 1), in[1] = LA_F64(CT_DIMS(2, 4), 2), in[2] = LA_F64(CT_DIMS(2), 3);
    for (i = 0; i < 3; i++) CHECK_OK(ct_set_requires_grad(in[i], true));
    CHECK_OK(ct_gradcheck(la_linear_fn, NULL, 3, in, NULL));
    CHECK_OK(ct_gradgradcheck(la_linear_fn, NULL, 3, in, NULL));
    in[0] = LA_F64(CT_DIMS(2, 3, 4), 4);
    CHECK_OK(ct_set_requires_grad(in[0], true));
    CHECK_OK(ct_gradcheck(la_linear_fn, NULL, 3, in, NULL));
    in[0] = LA_F64(CT_DIMS(1, 3), 5), in[1] = LA_F64(CT_DIMS(2, 4), 6), in[2] = LA_F64(CT_DIMS(4, 3), 7);
    for (i = 0; i < 3; i++) CHECK_OK(ct_set_requires_grad(in[i], true));
    CHECK_OK(ct_gradcheck(la_addmm_fn, NULL, 3, in, NULL));
    CHECK_OK(ct_gradgradcheck(la_addmm_fn, NULL, 3, in, NULL));
    in[0] = LA_F64(CT_DIMS(3), 8), in[1] = LA_F64(CT_DIMS(2, 2, 4), 9), in[2] = LA_F64(CT_DIMS(2, 4, 3), 10);
    for (i = 0; i < 3; i++) CHECK_OK(ct_set_requires_grad(in[i], true));
    CHECK_OK(ct_gradcheck(la_baddbmm_fn, NULL, 3, in, NULL));
    CHECK_OK(ct_gradgradcheck(la_baddbmm_fn, NULL, 3, in, NULL));
  }
}

/* blocks of 128 columns, odd sizes, every dtype path against float64 */
TEST(linalg_larger_products) {
  CT_SCOPE {
    ct_tensor *a = LA_F64(CT_DIMS(7, 33), 1), *b = LA_F64(CT_DIMS(33, 300), 2), *r = ct_mm(a, b), *r32, *rt;
    int64_t i, j, k, bad = 0;
    for (i = 0; i < 7; i++)
      for (j = 0; j < 300; j += 7) {
        double acc = 0;
        for (k = 0; k < 33; k++) acc += ct_get(a, i * 33 + k) * ct_get(b, k * 300 + j);
        bad += fabs(ct_get(r, i * 300 + j) - acc) > 1e-12;
      }
    CHECK(bad == 0);
    r32 = ct_mm(ct_to_dtype(a, CT_F32), ct_to_dtype(b, CT_F32));
    rt = ct_mm(ct_t(ct_contiguous(ct_t(ct_to_dtype(a, CT_F32)))), ct_t(ct_contiguous(ct_t(ct_to_dtype(b, CT_F32)))));
    for (i = 0, bad = 0; i < r->numel; i++)
      bad += fabs(ct_get(r32, i) - ct_get(r, i)) > 1e-5 || ct_get(rt, i) != ct_get(r32, i);
    CHECK(bad == 0);
  }
}

TEST(linalg_errors) {
  CT_SCOPE {
    ct_tensor *m23 = LA_F32(CT_DIMS(2, 3), 1), *m45 = LA_F32(CT_DIMS(4, 5), 2), *v3 = LA_F32(CT_DIMS(3), 3);
    ct_tensor *d32 = LA_F64(CT_DIMS(3, 2), 4), *b = LA_F32(CT_DIMS(2, 2, 3), 5), *bools = ct_zeros(CT_DIMS(2, 2), CT_BOOL);
    CHECK_ERR(ct_mm(m23, m45), CT_ERR_SHAPE, "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
    CHECK_ERR(ct_mm(m23, d32), CT_ERR_DTYPE, "expected scalar type Float but found Double");
    CHECK_ERR(ct_mm(v3, m23), CT_ERR_RANK, "self must be a matrix");
    CHECK_ERR(ct_mm(bools, bools), CT_ERR_DTYPE, "not implemented for 'Bool'");
    CHECK_ERR(ct_mm_out(ct_empty(CT_DIMS(2, 2), CT_F64), m23, LA_F32(CT_DIMS(3, 2), 6)), CT_ERR_DTYPE,
              "Expected out tensor to have dtype float32, but got float64 instead");
    CHECK_ERR(ct_mm_out(m23, m23, LA_F32(CT_DIMS(3, 2), 6)), CT_ERR_INVALID, "cannot be resized");
    CHECK_ERR(ct_dot(v3, LA_F32(CT_DIMS(4), 7)), CT_ERR_SHAPE, "inconsistent tensor size, expected tensor [3] and src [4]");
    CHECK_ERR(ct_dot(m23, m23), CT_ERR_RANK, "1D tensors expected, but got 2D and 2D tensors");
    CHECK_ERR(ct_dot(v3, ct_to_dtype(v3, CT_F64)), CT_ERR_DTYPE, "dot : expected both vectors to have same dtype, but found Float and Double");
    CHECK_ERR(ct_dot(ct_zeros(CT_DIMS(2), CT_BOOL), ct_zeros(CT_DIMS(2), CT_BOOL)), CT_ERR_DTYPE, "\"dot\" not implemented for 'Bool'");
    CHECK_ERR(ct_dot_out(ct_empty(CT_DIMS(0), CT_F64), v3, v3), CT_ERR_DTYPE, "result dtype Double does not match input dtype Float");
    CHECK_ERR(ct_mv(m23, LA_F32(CT_DIMS(4), 8)), CT_ERR_SHAPE, "size mismatch, got input (2), mat (2x3), vec (4)");
    CHECK_ERR(ct_mv(m23, m23), CT_ERR_RANK, "vector + matrix @ vector expected");
    CHECK_ERR(ct_mv(m23, ct_to_dtype(v3, CT_F64)), CT_ERR_DTYPE, "expected scalar type Float but found Double");
    CHECK_ERR(ct_bmm(b, LA_F32(CT_DIMS(2, 4, 2), 9)), CT_ERR_SHAPE,
              "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
    CHECK_ERR(ct_bmm(b, LA_F32(CT_DIMS(3, 3, 2), 9)), CT_ERR_SHAPE, "to be: [2, 3] but got: [3, 3].");
    CHECK_ERR(ct_bmm(m23, b), CT_ERR_RANK, "batch1 must be a 3D tensor");
    CHECK_ERR(ct_bmm(b, m23), CT_ERR_RANK, "batch2 must be a 3D tensor");
    CHECK_ERR(ct_bmm(b, ct_to_dtype(ct_transpose(b, 1, 2), CT_F64)), CT_ERR_DTYPE, "expected scalar type Float but found Double");
    CHECK_ERR(ct_addmm(LA_F32(CT_DIMS(3), 10), m23, LA_F32(CT_DIMS(3, 2), 11)), CT_ERR_SHAPE,
              "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 1.  Target sizes: [2, 2].  Tensor sizes: [3]");
    CHECK_ERR(ct_addmm(LA_F32(CT_DIMS(1, 2, 2), 10), m23, LA_F32(CT_DIMS(3, 2), 11)), CT_ERR_SHAPE, "the number of sizes provided (2)");
    CHECK_ERR(ct_addmm(LA_F64(CT_DIMS(2, 2), 10), m23, LA_F32(CT_DIMS(3, 2), 11)), CT_ERR_DTYPE, "self and mat2 must have the same dtype");
    CHECK_ERR(ct_addmm(LA_F32(CT_DIMS(2, 2), 10), v3, LA_F32(CT_DIMS(3, 2), 11)), CT_ERR_RANK, "mat1 must be a matrix");
    CHECK_ERR(ct_addmm_(LA_F32(CT_DIMS(2), 10), m23, LA_F32(CT_DIMS(3, 2), 11)), CT_ERR_SHAPE,
              "Bad in-place call: input tensor size [2] and output tensor size [2, 2] should match");
    CHECK_ERR(ct_addmm_(ct_expand(LA_F32(CT_DIMS(1, 2), 10), CT_DIMS(2, 2)), m23, LA_F32(CT_DIMS(3, 2), 11)), CT_ERR_INVALID,
              "more than one element of the written-to tensor");
    CHECK_ERR(ct_baddbmm(LA_F32(CT_DIMS(2, 3), 12), LA_F32(CT_DIMS(3, 2, 3), 13), LA_F32(CT_DIMS(3, 3, 2), 14)), CT_ERR_SHAPE,
              "The expanded size of the tensor (2) must match the existing size (3) at non-singleton dimension 2");
    CHECK_ERR(ct_baddbmm(LA_F32(CT_DIMS(3, 2, 2), 12), LA_F32(CT_DIMS(3, 2, 3), 13), LA_F64(CT_DIMS(3, 3, 2), 14)), CT_ERR_DTYPE,
              "expected scalar type Float but found Double");
    CHECK_ERR(ct_baddbmm_(LA_F32(CT_DIMS(2), 12), LA_F32(CT_DIMS(3, 2, 3), 13), LA_F32(CT_DIMS(3, 3, 2), 14)), CT_ERR_SHAPE,
              "Bad in-place call");
    CHECK_ERR(ct_outer(m23, v3), CT_ERR_RANK, "outer: Expected 1-D argument self, but got 2-D");
    CHECK_ERR(ct_outer(v3, m23), CT_ERR_RANK, "Expected 1-D argument vec2, but got 2-D");
    CHECK_ERR(ct_matmul(ct_scalar_tensor(ct_float(1), CT_F32), v3), CT_ERR_RANK, "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
    CHECK_ERR(ct_matmul(LA_F32(CT_DIMS(3, 4), 1), LA_F32(CT_DIMS(5), 2)), CT_ERR_SHAPE, "size mismatch");
    CHECK_ERR(ct_matmul(v3, LA_F32(CT_DIMS(5, 2), 2)), CT_ERR_SHAPE, "mat1 and mat2 shapes cannot be multiplied (1x3 and 5x2)");
    CHECK_ERR(ct_matmul(LA_F32(CT_DIMS(2, 3, 4), 1), LA_F32(CT_DIMS(2, 5, 2), 2)), CT_ERR_SHAPE,
              "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].");
    CHECK_ERR(ct_matmul(LA_F32(CT_DIMS(2, 3, 4), 1), LA_F32(CT_DIMS(3, 4, 2), 2)), CT_ERR_SHAPE, "must match the size of tensor b");
    CHECK_ERR(ct_matmul(LA_F32(CT_DIMS(2, 3, 4), 1), LA_F32(CT_DIMS(5), 2)), CT_ERR_SHAPE, "size mismatch, got input (6), mat (6x4), vec (5)");
    CHECK_ERR(ct_matmul(m23, ct_to_dtype(v3, CT_F64)), CT_ERR_DTYPE, "expected scalar type Float but found Double");
    CHECK_ERR(ct_matmul(ct_zeros(CT_DIMS(2, 3), CT_BOOL), ct_zeros(CT_DIMS(3, 2), CT_BOOL)), CT_ERR_DTYPE, "not implemented for 'Bool'");
    CHECK_ERR(ct_mm(m23, NULL), CT_ERR_NULL, "argument 'mat2' is NULL");
    CHECK_ERR(ct_mm(m23, ct_empty_opts(CT_DIMS(3, 2), ct_opts(CT_F32, CT_META))), CT_ERR_DEVICE, "same device");
  }
}
