/* tests/test_ops_reduce.c - direct tests of gen/ops/reduce.spec beyond the PyTorch
 * fixtures (tests/cases_reduce.py, run by tests/test_opcases.c). */

/* deterministic values in [-1, 1] away from 0, float64 */
static ct_tensor *rd_t(int ndim, const int64_t *sizes, unsigned seed, ct_dtype dt) {
  ct_tensor *t = ct_empty(ndim, sizes, dt);
  int64_t k;
  uint32_t s = seed * 2654435761u + 777u;
  for (k = 0; t && k < t->numel; k++) {
    double u;
    s = s * 1664525u + 1013904223u;
    u = 0.2 + 0.8 * (double)(s >> 8) / 16777216.0;
    ct_set(t, k, (k * 5 + seed) % 3 == 0 ? -u : u);
  }
  return t;
}
static ct_tensor *rd_vals(int ndim, const int64_t *sizes, ct_dtype dt, const double *v) {
  ct_tensor *t = ct_empty(ndim, sizes, dt);
  int64_t k;
  for (k = 0; t && k < t->numel; k++) ct_set(t, k, v[k]);
  return t;
}
static int rd_check(const char *op, int nargs, const ct_value *args, int gradgrad, int skip_grad) {
  ct_opcheck_opts o;
  memset(&o, 0, sizeof o);
  o.gradgradcheck = gradgrad != 0;
  o.skip_gradcheck = skip_grad != 0;
  if (ct_opcheck(op, nargs, args, &o) != CT_OK) {
    harness_fail(__FILE__, __LINE__, "opcheck %s: %s", op, ct_last_error_message());
    ct_clear_error();
    return 0;
  }
  return 1;
}
#define RD_T(t) ct_value_tensor(t)
#define RD_I(i) ct_value_int(i)
#define RD_B(b) ct_value_bool(b)
#define RD_D(d) ct_value_dtype(d)
#define RD_S(s) ct_value_scalar(s)
#define RD_L(p, n) ct_value_int_list(p, n)
#define RD_NONE ct_value_none()
#define RD_OC(gg, op, ...) \
  rd_check(op, (int)(sizeof((ct_value[]){__VA_ARGS__}) / sizeof(ct_value)), (ct_value[]){__VA_ARGS__}, gg, 0)

/* d root / d x into *g (a tracked tensor, or NULL) */
static ct_status rd_grad(ct_tensor *root, ct_tensor *x, ct_tensor **g) {
  ct_backward_desc d;
  ct_status st;
  memset(&d, 0, sizeof d);
  d.num_outputs = 1;
  d.outputs = &root;
  *g = NULL;
  if (!root) return ct_last_error();
  st = ct_autograd_grad(&d, 1, &x, g);
  ct__track(*g);
  return st;
}

/* every op through opcheck: typed vs boxed, meta vs kernel, in-place and
 * out= variants, gradcheck (and gradgradcheck where the formula allows) */
TEST(reduce_opcheck) {
  CT_SCOPE {
    ct_tensor *A = rd_t(CT_DIMS(2, 3), 1, CT_F32), *A3 = rd_t(CT_DIMS(2, 3, 4), 2, CT_F32);
    ct_tensor *At = ct_t(rd_t(CT_DIMS(4, 2), 3, CT_F32));
    static const int64_t d1[] = {1}, d02[] = {0, -1}, dm1[] = {-1};
    RD_OC(1, "sum", RD_T(A), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "sum.dim_IntList", RD_T(A3), RD_L(d02, 2), RD_B(true), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "mean", RD_T(At), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "mean.dim", RD_T(A3), RD_L(d02, 2), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "prod", RD_T(A), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "prod.dim_int", RD_T(At), RD_I(0), RD_B(false), RD_D(CT_F64));
    RD_OC(1, "amax", RD_T(A3), RD_L(d02, 2), RD_B(false));
    RD_OC(1, "amin", RD_T(At), RD_L(d1, 1), RD_B(true));
    RD_OC(1, "max", RD_T(A3));
    RD_OC(1, "min", RD_T(At));
    RD_OC(1, "var.correction", RD_T(A3), RD_L(d1, 1), RD_S(ct_int(0)), RD_B(true));
    RD_OC(1, "std.correction", RD_T(At), RD_NONE, RD_NONE, RD_B(false));
    RD_OC(0, "var", RD_T(A), RD_B(true));
    RD_OC(0, "var.dim", RD_T(A3), RD_L(d02, 2), RD_B(false), RD_B(true));
    RD_OC(0, "std", RD_T(A), RD_B(false));
    RD_OC(0, "std.dim", RD_T(A3), RD_L(dm1, 1), RD_B(true), RD_B(false));
    RD_OC(1, "linalg_vector_norm", RD_T(A3), RD_S(ct_int(2)), RD_L(d1, 1), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "linalg_vector_norm", RD_T(A), RD_S(ct_int(1)), RD_NONE, RD_B(true), RD_D(CT_F64));
    RD_OC(1, "linalg_vector_norm", RD_T(At), RD_S(ct_float(INFINITY)), RD_L(dm1, 1), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "linalg_vector_norm", RD_T(A3), RD_S(ct_float(3.0)), RD_L(d02, 2), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "linalg_vector_norm", RD_T(A3), RD_S(ct_float(0.5)), RD_L(d1, 1), RD_B(true), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "linalg_vector_norm", RD_T(At), RD_S(ct_float(-1.5)), RD_NONE, RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(0, "linalg_vector_norm", RD_T(A3), RD_S(ct_float(-INFINITY)), RD_NONE, RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(0, "linalg_vector_norm", RD_T(A3), RD_S(ct_int(0)), RD_NONE, RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(0, "norm.Scalar", RD_T(A), RD_S(ct_int(2)));
    RD_OC(0, "norm.ScalarOpt_dim", RD_T(A3), RD_NONE, RD_L(d1, 1), RD_B(true));
    RD_OC(1, "logsumexp", RD_T(A3), RD_L(d02, 2), RD_B(false));
    RD_OC(1, "cumsum", RD_T(A3), RD_I(1), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "cumprod", RD_T(At), RD_I(-1), RD_D(CT_DTYPE_NONE));
    RD_OC(0, "all", RD_T(A));
    RD_OC(0, "all.dim", RD_T(A3), RD_I(1), RD_B(true));
    RD_OC(0, "any", RD_T(At));
    RD_OC(0, "any.dim", RD_T(A3), RD_I(-1), RD_B(false));
  }
}

TEST(reduce_sum_dtypes) {
  CT_SCOPE {
    static const double iv[] = {1, 2, 3, 4, 5, 6}, bv[] = {1, 0, 1};
    ct_tensor *i = rd_vals(CT_DIMS(2, 3), CT_I32, iv), *b = rd_vals(CT_DIMS(3), CT_BOOL, bv), *r;
    static const int64_t d0[] = {0};
    r = ct_sum(i);
    CHECK(r && r->dtype == CT_I64 && r->ndim == 0 && ct_get_int(r, 0) == 21);
    r = ct_sum(b);
    CHECK(r && r->dtype == CT_I64 && ct_get_int(r, 0) == 2);
    r = ct_sum_ex(i, CT_F32);
    CHECK(r && r->dtype == CT_F32 && ct_get(r, 0) == 21);
    r = ct_sum_dim(i, 1, d0, false);
    CHECK(r && r->dtype == CT_I64 && r->ndim == 1 && r->sizes[0] == 3 && ct_get_int(r, 2) == 9);
    r = ct_prod(i);
    CHECK(r && r->dtype == CT_I64 && ct_get_int(r, 0) == 720);
    r = ct_cumsum(b, 0);
    CHECK(r && r->dtype == CT_I64 && ct_get_int(r, 2) == 2);
    r = ct_mean_ex(i, CT_F64);
    CHECK(r && r->dtype == CT_F64 && ct_get(r, 0) == 3.5);
    CHECK_ERR(ct_mean(i), CT_ERR_DTYPE, "floating point");
    CHECK_ERR(ct_mean_ex(rd_t(CT_DIMS(2), 1, CT_F32), CT_I64), CT_ERR_DTYPE, "Optional dtype");
    r = ct_all(i);
    CHECK(r && r->dtype == CT_BOOL && ct_get(r, 0) == 1);
    r = ct_any(ct_zeros(CT_DIMS(2, 2), CT_U8));
    CHECK(r && r->dtype == CT_U8 && ct_get(r, 0) == 0);
  }
}

/* sum and mean of contiguous f32/f64 inputs read their rows or columns in
 * place (ct__rd_sum_fast); the general loop (gathered rows) takes the same
 * values stored with a column stride of 2. Same order of additions: the
 * same bits, for rows, columns, long rows (the pairwise split), widths that
 * are not a multiple of the column block, size-1 dims, kept dims between
 * reduced ones (conv bias gradients: runs gathered into a row, long ones
 * too), keepdim, dtype= and magnitudes that make the order
 * matter. With a backend registered (the BLIS suite), which sums some of
 * these layouts with kernels of its own, within rounding instead. */
TEST(reduce_sum_fast_matches_general) {
  static const struct {
    int ndim;
    int64_t sizes[4];
    int ndims;
    int64_t dims[3];
  } cases[] = {{2, {3, 700}, 1, {1}},          {2, {700, 37}, 1, {0}},       {3, {32, 32, 64}, 2, {0, 1}},
               {3, {32, 32, 64}, 1, {2}},      {3, {128, 32, 32}, 1, {-1}},  {4, {5, 1, 300, 3}, 2, {0, 2}},
               {3, {4, 5, 6}, 2, {0, 2}},      {2, {1, 1000}, 1, {1}},       {2, {1030, 17}, 1, {0}},
               {3, {2, 3, 4}, 3, {0, 1, 2}},   {2, {9, 16}, 1, {0}},         {1, {1}, 1, {0}},
               {4, {8, 3, 10, 10}, 3, {0, 2, 3}}, {4, {6, 5, 13, 11}, 3, {0, 2, 3}}, {3, {3, 4, 700}, 2, {0, 2}},
               {4, {7, 1, 1, 9}, 2, {0, 3}},   {4, {2, 3, 1, 5}, 2, {0, 3}}};
  int c, dt, mean, keep, wide;
  for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++)
    for (dt = 0; dt < 2; dt++)
      CT_SCOPE {
        ct_dtype d = dt ? CT_F64 : CT_F32;
        int nd = cases[c].ndim, last = nd - 1;
        int64_t padded[4], k;
        ct_tensor *x = rd_t(nd, cases[c].sizes, (unsigned)c + 3, d), *g;
        double abs_sum = 0;
        for (k = 0; x && k < x->numel; k++) {
          ct_set(x, k, ct_get(x, k) * pow(10.0, (double)((k * 7) % 9) - 4));
          abs_sum += fabs(ct_get(x, k));
        }
        memcpy(padded, cases[c].sizes, sizeof padded);
        padded[last] *= 2;
        g = ct_slice(ct_zeros(nd, padded, d), last, 0, padded[last], 2);
        CHECK(x && g && ct_copy_(g, x) == CT_OK && (x->numel < 2 || !ct_is_contiguous(g)));
        for (mean = 0; mean < 2; mean++)
          for (keep = 0; keep < 2; keep++)
            for (wide = 0; wide < 2; wide++) {
              ct_dtype od = wide ? CT_F64 : d;
              ct_tensor *r = mean ? ct_mean_dim_ex(x, cases[c].ndims, cases[c].dims, keep, od)
                                  : ct_sum_dim_ex(x, cases[c].ndims, cases[c].dims, keep, od);
              ct_tensor *q = mean ? ct_mean_dim_ex(g, cases[c].ndims, cases[c].dims, keep, od)
                                  : ct_sum_dim_ex(g, cases[c].ndims, cases[c].dims, keep, od);
              CHECK(r && q && r->numel == q->numel && r->dtype == od);
              if (!ct_backend_first()) {
                CHECK(r && q && memcmp(ct_data_ptr(ct_contiguous(r)), ct_data_ptr(ct_contiguous(q)), (size_t)r->numel * ct_dtype_size(od)) == 0);
              } else if (r && q) { /* a backend (the BLIS suite) sums some layouts itself, in float: within its rounding */
                double tol = 64 * (od == CT_F32 || d == CT_F32 ? 1.2e-7 : 2.3e-16) * abs_sum;
                int64_t e;
                for (e = 0; e < r->numel; e++) CHECK(fabs(ct_get(r, e) - ct_get(q, e)) <= tol);
              }
            }
      }
}

TEST(reduce_zero_size_and_errors) {
  CT_SCOPE {
    ct_tensor *e = ct_zeros(CT_DIMS(2, 0), CT_F32), *x = rd_t(CT_DIMS(2, 3), 4, CT_F32), *r;
    static const int64_t d0[] = {0}, d1[] = {1}, d00[] = {0, -2}, d5[] = {5};
    r = ct_sum_dim(e, 1, d1, false);
    CHECK(r && r->numel == 2 && ct_get(r, 0) == 0);
    r = ct_prod_dim(e, 1, false);
    CHECK(r && r->numel == 2 && ct_get(r, 1) == 1);
    r = ct_mean_dim(e, 1, d1, false);
    CHECK(r && r->numel == 2 && isnan(ct_get(r, 0)));
    r = ct_amax(e, 1, d0, false);
    CHECK(r && r->numel == 0 && r->ndim == 1);
    r = ct_logsumexp(e, 1, d1, false);
    CHECK(r && r->numel == 2 && isinf(ct_get(r, 0)) && ct_get(r, 0) < 0);
    CHECK_ERR(ct_amax(e, 1, d1, false), CT_ERR_INDEX, "Expected reduction dim 1 to have non-zero size");
    CHECK_ERR(ct_max(e), CT_ERR_INVALID, "Expected reduction dim to be specified");
    CHECK_ERR(ct_amax(e, 0, NULL, false), CT_ERR_INVALID, "Expected reduction dim to be specified");
    CHECK_ERR(ct_sum_dim(x, 2, d00, false), CT_ERR_INVALID, "appears multiple times");
    CHECK_ERR(ct_sum_dim(x, 1, d5, false), CT_ERR_INDEX, "out of range");
    CHECK_ERR(ct_cumsum(x, 2), CT_ERR_INDEX, "out of range");
    CHECK_ERR(ct_var(ct_ones(CT_DIMS(3), CT_I64), 0, NULL), CT_ERR_DTYPE, "floating point");
    CHECK_ERR(ct_linalg_vector_norm(ct_ones(CT_DIMS(3), CT_I64), ct_int(2), 0, NULL, false), CT_ERR_DTYPE, "floating point");
    CHECK_ERR(ct_linalg_vector_norm(e, ct_float(INFINITY), 0, NULL, false), CT_ERR_INVALID, "identity");
    CHECK_ERR(ct_cumsum_ex_(x, 0, CT_F64), CT_ERR_DTYPE, "Bad in-place call");
    CHECK_ERR(ct_amax_out(ct_empty(CT_DIMS(0), CT_F64), x, 0, NULL, false), CT_ERR_DTYPE, "to match");
    CHECK_ERR(ct_all_all_out(ct_empty(CT_DIMS(0), CT_F32), x), CT_ERR_DTYPE, "bool tensor");
  }
}

TEST(reduce_nan_and_values) {
  CT_SCOPE {
    static const double v[] = {1, NAN, 3, 2, -INFINITY, 5}, ninf[] = {-INFINITY, -INFINITY, 1, 2};
    ct_tensor *x = rd_vals(CT_DIMS(2, 3), CT_F32, v), *r;
    static const int64_t d1[] = {1};
    r = ct_amax(x, 1, d1, false);
    CHECK(r && isnan(ct_get(r, 0)) && ct_get(r, 1) == 5);
    r = ct_amin(x, 1, d1, false);
    CHECK(r && isnan(ct_get(r, 0)) && isinf(ct_get(r, 1)));
    r = ct_logsumexp(rd_vals(CT_DIMS(2, 2), CT_F64, ninf), 1, d1, false);
    CHECK(r && isinf(ct_get(r, 0)) && ct_get(r, 0) < 0);
    CHECK_NEAR(ct_get(r, 1), 2.0 + log1p(exp(-1.0)), 1e-12);
    /* large values: the shift keeps it finite */
    r = ct_logsumexp(ct_full(CT_DIMS(3), ct_float(1000), CT_F32), 0, NULL, false);
    CHECK(r && fabs(ct_get(r, 0) - (1000 + log(3.0))) < 1e-3);
    /* var with N - correction <= 0 */
    r = ct_var_ex(ct_ones(CT_DIMS(1), CT_F32), 0, NULL, ct_int(1), false);
    CHECK(r && isnan(ct_get(r, 0)));
  }
}

/* gradients: ties share, prod and cumprod with zeros */
TEST(reduce_grad_special) {
  CT_SCOPE {
    static const double tv[] = {3, 1, 3, 2}, zv[] = {2, 0, 3, 4}, zz[] = {0, 2, 0};
    ct_tensor *t = rd_vals(CT_DIMS(4), CT_F64, tv), *z = rd_vals(CT_DIMS(4), CT_F64, zv), *g[1], *in[1];
    CHECK_OK(ct_set_requires_grad(t, true));
    in[0] = t;
    CHECK_OK(rd_grad(ct_amax(t, 0, NULL, false), in[0], g));
    CHECK(g[0] && ct_get(g[0], 0) == 0.5 && ct_get(g[0], 1) == 0 && ct_get(g[0], 2) == 0.5);
    CHECK_OK(ct_set_requires_grad(z, true));
    in[0] = z;
    CHECK_OK(rd_grad(ct_prod(z), in[0], g));
    CHECK(g[0] && ct_get(g[0], 0) == 0 && ct_get(g[0], 1) == 24 && ct_get(g[0], 2) == 0);
    CHECK_OK(rd_grad(ct_sum(ct_cumprod(z, 0)), in[0], g));
    /* d/dx0 = 1 + x1 + x1x2 + x1x2x3 = 1; d/dx1 = x0 + x0x2 + x0x2x3 = 2 + 6 + 24 */
    CHECK(g[0] && ct_get(g[0], 0) == 1 && ct_get(g[0], 1) == 32 && ct_get(g[0], 2) == 0 && ct_get(g[0], 3) == 0);
    {
      ct_tensor *w = rd_vals(CT_DIMS(3), CT_F64, zz);
      CHECK_OK(ct_set_requires_grad(w, true));
      in[0] = w;
      CHECK_OK(rd_grad(ct_prod(w), in[0], g));
      CHECK(g[0] && ct_get(g[0], 0) == 0 && ct_get(g[0], 1) == 0 && ct_get(g[0], 2) == 0);
    }
  }
}

TEST(reduce_opcheck_selection) {
  CT_SCOPE {
    ct_tensor *A3 = rd_t(CT_DIMS(2, 3, 4), 5, CT_F32), *At = ct_t(rd_t(CT_DIMS(4, 3), 6, CT_F32));
    ct_tensor *I = ct_zeros(CT_DIMS(2, 4), CT_I64), *G = rd_t(CT_DIMS(2, 4), 7, CT_F64);
    static const int64_t sz[] = {2, 3, 4};
    int64_t k;
    for (k = 0; k < I->numel; k++) ct_set(I, k, (double)((k * 7) % 3));
    RD_OC(1, "max.dim", RD_T(A3), RD_I(1), RD_B(false));
    RD_OC(1, "min.dim", RD_T(At), RD_I(-1), RD_B(true));
    RD_OC(0, "argmax", RD_T(A3), RD_I(CT_INT_NONE), RD_B(false));
    RD_OC(0, "argmax", RD_T(At), RD_I(0), RD_B(true));
    RD_OC(0, "argmin", RD_T(A3), RD_I(2), RD_B(false));
    RD_OC(1, "sort", RD_T(A3), RD_I(1), RD_B(true));
    RD_OC(1, "sort.stable", RD_T(At), RD_B(true), RD_I(0), RD_B(false));
    RD_OC(1, "topk", RD_T(A3), RD_I(2), RD_I(-1), RD_B(true), RD_B(true));
    RD_OC(1, "topk", RD_T(At), RD_I(2), RD_I(0), RD_B(false), RD_B(true));
    RD_OC(1, "value_selecting_reduction_backward", RD_T(G), RD_I(1), RD_T(I), RD_L(sz, 3), RD_B(false));
    RD_OC(1, "_rd_gather", RD_T(A3), RD_I(1), RD_T(I), RD_B(false));
  }
}

TEST(reduce_selection_values) {
  CT_SCOPE {
    static const double v[] = {3, 1, 3, NAN, 2, 2, 5, 1}, s[] = {2, 1, 2, 1, 3};
    ct_tensor *x = rd_vals(CT_DIMS(2, 4), CT_F32, v), *i = NULL, *r;
    r = ct_max_dim(x, 1, false, &i);
    CHECK(r && i && i->dtype == CT_I64 && isnan(ct_get(r, 0)) && ct_get_int(i, 0) == 3 && ct_get(r, 1) == 5 && ct_get_int(i, 1) == 2);
    r = ct_min_dim(x, 1, true, &i);
    CHECK(r && r->ndim == 2 && isnan(ct_get(r, 0)) && ct_get_int(i, 0) == 3 && ct_get(r, 1) == 1 && ct_get_int(i, 1) == 3);
    r = ct_argmax(x, CT_INT_NONE, false);
    CHECK(r && r->ndim == 0 && ct_get_int(r, 0) == 3);
    r = ct_argmin(ct_t(x), 0, false);
    CHECK(r && r->numel == 2 && ct_get_int(r, 0) == 3 && ct_get_int(r, 1) == 3);
    /* short rows: std::sort's insertion sort keeps equal values in order */
    r = ct_sort(rd_vals(CT_DIMS(5), CT_I64, s), 0, false, &i);
    CHECK(r && r->dtype == CT_I64 && ct_get_int(i, 0) == 1 && ct_get_int(i, 1) == 3 && ct_get_int(i, 2) == 0 && ct_get_int(i, 3) == 2);
    r = ct_sort(rd_vals(CT_DIMS(5), CT_I64, s), 0, true, &i);
    CHECK(r && ct_get_int(i, 0) == 4 && ct_get_int(i, 1) == 0 && ct_get_int(i, 2) == 2);
    r = ct_sort(x, -1, false, &i); /* NaN last */
    CHECK(r && isnan(ct_get(r, 3)) && ct_get_int(i, 3) == 3 && ct_get(r, 4) == 1 && ct_get_int(i, 4) == 3 && ct_get_int(i, 5) == 0 && ct_get(r, 7) == 5);
    r = ct_topk(x, 2, 1, true, true, &i);
    /* (ties in PyTorch's order: nth_element and sort, as its CPU kernel) */
    CHECK(r && r->sizes[1] == 2 && isnan(ct_get(r, 0)) && ct_get(r, 1) == 3 && ct_get(r, 2) == 5 && ct_get_int(i, 0) == 3 && ct_get_int(i, 1) == 2 && ct_get_int(i, 3) == 1);
    r = ct_topk(ct_zeros(CT_DIMS(3, 0), CT_F32), 0, -1, true, true, &i);
    CHECK(r && r->numel == 0 && i && i->numel == 0);
    CHECK_ERR(ct_topk(x, 5, 1, true, true, NULL), CT_ERR_INDEX, "k out of range");
    CHECK_ERR(ct_max_dim(ct_zeros(CT_DIMS(2, 0), CT_F32), 1, false, NULL), CT_ERR_INDEX, "non-zero size");
    CHECK_ERR(ct_argmax(ct_zeros(CT_DIMS(2, 0), CT_F32), CT_INT_NONE, false), CT_ERR_INVALID, "Expected reduction dim to be specified");
    CHECK_ERR(ct_max_dim(x, 2, false, NULL), CT_ERR_INDEX, "out of range");
    CHECK_ERR(ct_rd_gather(x, 1, ct_full(CT_DIMS(2), ct_int(4), CT_I64), false), CT_ERR_INDEX, "out of bounds");
    CHECK_ERR(ct_rd_gather(x, 1, ct_zeros(CT_DIMS(2), CT_I32), false), CT_ERR_DTYPE, "int64");
    CHECK_ERR(ct_rd_gather(x, 1, ct_zeros(CT_DIMS(3), CT_I64), false), CT_ERR_SHAPE, "differ in size");
    /* gradient of max.dim goes to the index, of sort / topk to the selected places */
    {
      static const double tv[] = {3, 1, 3, 2};
      ct_tensor *t = rd_vals(CT_DIMS(4), CT_F64, tv), *g;
      CHECK_OK(ct_set_requires_grad(t, true));
      CHECK_OK(rd_grad(ct_max_dim(t, 0, false, NULL), t, &g));
      CHECK(g && ct_get(g, 0) == 1 && ct_get(g, 2) == 0);
      CHECK_OK(rd_grad(ct_sum(ct_mul(ct_topk(t, 2, 0, false, true, NULL), ct_arange(1, 3, 1, CT_F64))), t, &g));
      CHECK(g && ct_get(g, 1) == 1 && ct_get(g, 3) == 2 && ct_get(g, 0) == 0);
    }
  }
}

TEST(reduce_selection_bad_args) {
  CT_SCOPE {
    ct_tensor *s0 = ct_scalar_tensor(ct_float(2), CT_F64), *x = rd_t(CT_DIMS(2, 3), 9, CT_F64);
    static const int64_t sz[] = {2, 3}, neg[] = {2, -3};
    CHECK_ERR(ct_rd_gather(s0, 0, ct_zeros(CT_DIMS(3), CT_I64), false), CT_ERR_RANK, "rank");
    CHECK_ERR(ct_value_selecting_reduction_backward(x, 1, ct_zeros(CT_DIMS(2, 3), CT_I64), 2, sz, false), CT_ERR_RANK, "rank");
    CHECK_ERR(ct_value_selecting_reduction_backward(ct_zeros(CT_DIMS(2), CT_F64), 1, ct_zeros(CT_DIMS(2), CT_I64), 2, neg, false),
              CT_ERR_SIZE, "");
    CHECK_ERR(ct_value_selecting_reduction_backward(ct_zeros(CT_DIMS(2), CT_F64), 3, ct_zeros(CT_DIMS(2), CT_I64), 2, sz, false),
              CT_ERR_INDEX, "out of range");
    CHECK(ct_rd_gather(s0, 0, ct_zeros(0, NULL, CT_I64), false) != NULL);
  }
}

/* second order of the later ops (logcumsumexp's gradient is first order only) */
TEST(reduce_opcheck_more) {
  CT_SCOPE {
    ct_tensor *A3 = rd_t(CT_DIMS(2, 3, 4), 11, CT_F32), *At = ct_t(rd_t(CT_DIMS(4, 3), 12, CT_F32));
    static const int64_t d1[] = {1}, d02[] = {0, 2};
    ct_set(A3, 5, NAN);
    RD_OC(1, "nansum", RD_T(A3), RD_L(d02, 2), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "nanmean", RD_T(A3), RD_L(d1, 1), RD_B(true), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "cummax", RD_T(At), RD_I(1));
    RD_OC(1, "cummin", RD_T(At), RD_I(0));
    RD_OC(1, "kthvalue", RD_T(At), RD_I(2), RD_I(0), RD_B(true));
    RD_OC(1, "median", RD_T(At));
    RD_OC(1, "median.dim", RD_T(At), RD_I(-1), RD_B(false));
    RD_OC(1, "nanmedian.dim", RD_T(A3), RD_I(2), RD_B(false));
    RD_OC(0, "logcumsumexp", RD_T(At), RD_I(1));
    RD_OC(1, "var_mean.correction", RD_T(At), RD_L(d1, 1), RD_S(ct_int(1)), RD_B(false));
    RD_OC(1, "aminmax", RD_T(At), RD_I(0), RD_B(true));
    RD_OC(0, "count_nonzero", RD_T(A3), RD_I(CT_INT_NONE));
  }
}

/* prod and cumprod with zeros: exact gradients, and prod's second order too */
TEST(reduce_prod_zeros_second_order) {
  CT_SCOPE {
    static const double v[] = {0.5, 0, 1.5, -0.7, 0.9, 1.1, 0, 0.8, 0, 1.2, -0.6, 0.4};
    ct_tensor *z = rd_vals(CT_DIMS(3, 4), CT_F64, v);
    RD_OC(1, "prod.dim_int", RD_T(z), RD_I(1), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "prod.dim_int", RD_T(z), RD_I(0), RD_B(true), RD_D(CT_DTYPE_NONE));
    RD_OC(1, "prod", RD_T(ct_narrow(z, 0, 0, 2)), RD_D(CT_DTYPE_NONE)); /* two zeros */
    RD_OC(1, "prod", RD_T(z), RD_D(CT_DTYPE_NONE));                      /* three */
    RD_OC(1, "prod.dim_int", RD_T(ct_t(ct_narrow(z, 0, 0, 2))), RD_I(0), RD_B(false), RD_D(CT_DTYPE_NONE));
    RD_OC(0, "cumprod", RD_T(z), RD_I(1), RD_D(CT_DTYPE_NONE));
  }
}

static int rd_same(const ct_tensor *x, const ct_tensor *y) {
  int64_t k;
  if (!x || !y || !ct_same_shape(x, y) || x->dtype != y->dtype) return 0;
  for (k = 0; k < x->numel; k++)
    if (ct_get(x, k) != ct_get(y, k)) return 0;
  return 1;
}
/* out= forms of the (values, indices) ops: both outs written and resized,
 * dtype rules, outs aliasing the input, meta, boxed calls push both, and
 * refused when an input requires grad (as every out= op) */
TEST(reduce_out_tuples) {
  CT_SCOPE {
    ct_tensor *a = rd_t(CT_DIMS(3, 5), 41, CT_F32);
    ct_tensor *v = ct_empty(CT_DIMS(0), CT_F32), *i = ct_empty(CT_DIMS(7, 7), CT_I64);
    ct_tensor *rv = NULL, *ri = NULL;
    uint32_t ver = v->storage->version;
    CHECK_OK(ct_max_dim_out(v, i, a, 1, true));
    rv = ct_max_dim(a, 1, true, &ri);
    CHECK(v->ndim == 2 && v->sizes[0] == 3 && v->sizes[1] == 1 && i->sizes[0] == 3 && i->sizes[1] == 1);
    CHECK(rd_same(v, rv) && rd_same(i, ri) && v->storage->version > ver);
    CHECK_OK(ct_sort_out(v, i, a, 0, true));
    rv = ct_sort(a, 0, true, &ri);
    CHECK(rd_same(v, rv) && rd_same(i, ri));
    CHECK_OK(ct_topk_out(v, i, a, 2, -1, false, true));
    rv = ct_topk(a, 2, -1, false, true, &ri);
    CHECK(rd_same(v, rv) && rd_same(i, ri) && v->sizes[1] == 2);
    CHECK_OK(ct_cummax_out(v, i, a, 1));
    rv = ct_cummax(a, 1, &ri);
    CHECK(rd_same(v, rv) && rd_same(i, ri));
    CHECK_OK(ct_kthvalue_out(v, i, a, 2, 0, false));
    rv = ct_kthvalue(a, 2, 0, false, &ri);
    CHECK(rd_same(v, rv) && rd_same(i, ri));
    { /* values out aliasing the input: computed first, then written */
      ct_tensor *b = ct_clone(a), *ref = ct_cummin(a, 0, NULL);
      CHECK_OK(ct_cummin_out(b, i, b, 0));
      CHECK(rd_same(b, ref));
    }
    CHECK_ERR(ct_max_dim_out(v, ct_empty(CT_DIMS(0), CT_F32), a, 1, false), CT_ERR_DTYPE, "expected out tensor indices to have dtype int64");
    CHECK_ERR(ct_min_dim_out(ct_empty(CT_DIMS(0), CT_F64), i, a, 1, false), CT_ERR_DTYPE, "expected out tensor values to have dtype float32");
    CHECK_ERR(ct_min_dim_out(v, i, a, 2, false), CT_ERR_INDEX, "min");
    CHECK_ERR(ct_median_dim_out(v, v, a, 0, false), CT_ERR_DTYPE, "median");
    { /* meta inputs and outs */
      ct_tensor *m = ct_empty_opts(CT_DIMS(4, 6), ct_opts(CT_F32, ct_device_make(CT_DEVICE_META, 0)));
      ct_tensor *mv = ct_empty_opts(CT_DIMS(0), ct_opts(CT_F32, ct_device_make(CT_DEVICE_META, 0)));
      ct_tensor *mi = ct_empty_opts(CT_DIMS(0), ct_opts(CT_I64, ct_device_make(CT_DEVICE_META, 0)));
      CHECK_OK(ct_nanmedian_dim_out(mv, mi, m, 1, false));
      CHECK(mv->ndim == 1 && mv->sizes[0] == 4 && mi->sizes[0] == 4);
    }
    { /* boxed: both outs come back on the stack */
      ct_value buf[8];
      ct_stack s;
      ct_stack_init(&s, buf, 8);
      s.items[s.size++] = ct_value_tensor(a);
      s.items[s.size++] = ct_value_int(1);
      s.items[s.size++] = ct_value_bool(false);
      s.items[s.size++] = ct_value_tensor(v);
      s.items[s.size++] = ct_value_tensor(i);
      CHECK_OK(ct_call_boxed(ct_op_find("max.dim_max"), &s));
      CHECK(s.size == 2 && s.items[0].v.tensor == v && s.items[1].v.tensor == i);
      ct_stack_free(&s);
    }
    { /* out= is not differentiable */
      ct_tensor *g = ct_clone(a);
      ct_set_requires_grad(g, true);
      CHECK_ERR(ct_sort_out(v, i, g, 0, false), CT_ERR_STATE, "don't support automatic differentiation");
    }
  }
}

/* aminmax of a 0-dim input, shapes as PyTorch 1.13 returns them: [] without a dim
 * (keepdim or not) and with a dim without keepdim; [1] with a dim and keepdim
 * (torch.aminmax(tensor(3.), dim=0, keepdim=True) -> shape (1,) twice) */
TEST(reduce_aminmax_zero_dim) {
  CT_SCOPE {
    ct_tensor *t = ct_scalar_tensor(ct_float(3), CT_F32), *mx = NULL, *mn;
    static const int64_t dims[] = {CT_INT_NONE, 0, -1};
    int k, keep;
    for (k = 0; k < 3; k++)
      for (keep = 0; keep < 2; keep++) {
        int want = k > 0 && keep; /* rank of the results */
        mn = ct_aminmax_ex(t, dims[k], keep != 0, &mx);
        CHECK(mn && mx);
        if (!mn || !mx) continue;
        CHECK(mn->ndim == want && mx->ndim == want && (!want || (mn->sizes[0] == 1 && mx->sizes[0] == 1)));
        CHECK(ct_get(mn, 0) == 3 && ct_get(mx, 0) == 3 && mn->dtype == CT_F32);
      }
    CHECK_ERR(ct_aminmax_ex(t, 1, true, &mx), CT_ERR_INDEX, "dimension out of range (expected to be in range of [-1, 0], but got 1)");
    CHECK_ERR(ct_aminmax_ex(t, -2, false, &mx), CT_ERR_INDEX, "but got -2");
    /* dimensioned inputs keep their usual shapes: [2] -> [1] without a dim, [2, 3] -> [1, 1] */
    mn = ct_aminmax_ex(ct_ones(CT_DIMS(2), CT_F32), CT_INT_NONE, true, &mx);
    CHECK(mn && mn->ndim == 1 && mn->sizes[0] == 1);
    mn = ct_aminmax_ex(ct_ones(CT_DIMS(2, 3), CT_F32), CT_INT_NONE, true, &mx);
    CHECK(mn && mn->ndim == 2 && mn->sizes[0] == 1 && mn->sizes[1] == 1);
    /* meta and derivative agree with the kernel */
    RD_OC(0, "aminmax", RD_T(ct_scalar_tensor(ct_float(-2), CT_F64)), RD_I(0), RD_B(true));
    RD_OC(0, "aminmax", RD_T(ct_scalar_tensor(ct_float(-2), CT_F64)), RD_I(-1), RD_B(false));
  }
}
