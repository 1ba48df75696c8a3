/* tests/test_ops_matrix.c - direct tests of gen/ops/matrix.spec beyond the PyTorch
 * fixtures (tests/cases_matrix.py, run by tests/test_opcases.c): info of the _ex
 * forms at singular matrices (PyTorch's values, which depend on factoring A^T
 * for a contiguous A), the failure messages, gradgradcheck of every formula,
 * gradients at singular matrices (a clear error), meta. */

static ct_tensor *mx_from(int ndim, const int64_t *sizes, const double *v) { return ct_from_array(ndim, sizes, CT_F64, v); }

/* deterministic well-conditioned values: entries in [-1, 1] plus n on the diagonal */
static ct_tensor *mx_wc(int ndim, const int64_t *sizes, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, sizes, CT_F64);
  uint32_t s = seed * 2654435761u + 99u;
  int64_t k, n = sizes[ndim - 1];
  for (k = 0; t && k < t->numel; k++) {
    s = s * 1664525u + 1013904223u;
    ct_set(t, k, (double)(s >> 8) / 8388608.0 - 1.0 + (k % (n * n) % (n + 1) == 0 ? (double)n : 0.0));
  }
  return t;
}

TEST(matrix_ex_info_at_singular_matrices) {
  /* PyTorch 1.13's info, for A contiguous and for A.t().contiguous().t() */
  static const double m[5][9] = {{1, 2, 3, 2, 4, 6, 7, 8, 9}, {0, 0, 0, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 5, 6, 7, 8, 9},
                                 {1, 1, 1, 1, 1, 1, 1, 1, 1}, {2, 0, 0, 0, 3, 0, 0, 0, 0}};
  static const int info_c[5] = {2, 1, 3, 2, 3}, info_f[5] = {3, 3, 0, 2, 3};
  int i;
  for (i = 0; i < 5; i++)
    CT_SCOPE {
      ct_tensor *A = mx_from(CT_DIMS(3, 3), m[i]), *Af = ct_t(ct_contiguous(ct_t(A))), *info = NULL, *inv;
      inv = ct_linalg_inv_ex(A, false, &info);
      CHECK(inv && info && info->dtype == CT_I32 && info->ndim == 0);
      if (info) CHECK(ct_get(info, 0) == info_c[i]);
      CHECK(ct_linalg_inv_ex(Af, false, &info) != NULL);
      if (info) CHECK(ct_get(info, 0) == info_f[i]);
      CHECK(ct_linalg_solve_ex(A, ct_ones(CT_DIMS(3), CT_F64), true, false, &info) != NULL);
      if (info) CHECK(ct_get(info, 0) == info_c[i]);
      CHECK(ct_get(ct_linalg_det(A), 0) == 0);
      {
        ct_tensor *sign = NULL, *l = ct_linalg_logabsdet(A, &sign);
        CHECK(l && sign && isinf(ct_get(l, 0)) && ct_get(l, 0) < 0 && ct_get(sign, 0) == 0);
      }
    }
}

TEST(matrix_failure_messages) {
  CT_SCOPE {
    double two[8] = {1, 0, 0, 1, 1, 1, 1, 1};
    ct_tensor *batch = mx_from(CT_DIMS(2, 2, 2), two), *ones = ct_ones(CT_DIMS(3, 3), CT_F64), *info = NULL;
    CHECK_ERR(ct_linalg_inv(batch), CT_ERR_INVALID,
              "linalg.inv: (Batch element 1): The diagonal element 2 is zero, the inversion could not be completed because the input "
              "matrix is singular.");
    CHECK_ERR(ct_linalg_inv(ones), CT_ERR_INVALID, "linalg.inv: The diagonal element 2 is zero");
    CHECK_ERR(ct_inverse(ones), CT_ERR_INVALID, "linalg.inv: The diagonal element 2 is zero");
    CHECK_ERR(ct_linalg_inv_ex(batch, true, &info), CT_ERR_INVALID, "linalg.inv_ex: (Batch element 1): The diagonal element 2");
    CHECK(info == NULL);
    CHECK_ERR(ct_linalg_solve(ones, ct_ones(CT_DIMS(2, 3, 1), CT_F64), true), CT_ERR_INVALID,
              "torch.linalg.solve: The solver failed because the input matrix is singular.");
    CHECK_ERR(ct_linalg_solve(batch, ct_ones(CT_DIMS(2), CT_F64), true), CT_ERR_INVALID,
              "torch.linalg.solve: (Batch element 1): The solver failed");
    CHECK_ERR(ct_linalg_solve_ex(batch, ct_ones(CT_DIMS(2), CT_F64), true, true, &info), CT_ERR_INVALID,
              "torch.linalg.solve_ex: (Batch element 1)");
    CHECK_ERR(ct_linalg_det(ct_ones(CT_DIMS(2, 3), CT_I64)), CT_ERR_SHAPE,
              "linalg.det: A must be batches of square matrices, but they are 2 by 3 matrices");
    CHECK_ERR(ct_linalg_det(ct_ones(CT_DIMS(3, 3), CT_I64)), CT_ERR_DTYPE,
              "linalg.det: Expected a floating point or complex tensor as input. Got Long");
    CHECK_ERR(ct_linalg_inv(ct_ones(CT_DIMS(3, 3), CT_BF16)), CT_ERR_DTYPE, "linalg.inv: Low precision dtypes not supported. Got BFloat16");
    CHECK_ERR(ct_linalg_solve(ct_ones(CT_DIMS(3, 3), CT_F64), ct_ones(CT_DIMS(3, 4), CT_F64), false), CT_ERR_SHAPE,
              "linalg.solve: Incompatible shapes of A and B for the equation XA = B (3x3 and 3x4)");
    CHECK_ERR(ct_linalg_cross(ct_ones(CT_DIMS(2, 3), CT_F64), ct_ones(CT_DIMS(2, 2), CT_F64)), CT_ERR_SHAPE,
              "linalg.cross: inputs dimension -1 must have length 3. Got 3 and 2");
  }
}

/* gradgradcheck of every formula: the gradients are written with ct ops */
static ct_tensor *mx_det_fn(ct_tensor *const *in, void *ctx) { return (void)ctx, ct_linalg_det(in[0]); }
static ct_tensor *mx_logabsdet_fn(ct_tensor *const *in, void *ctx) { return (void)ctx, ct_linalg_logabsdet(in[0], NULL); }
static ct_tensor *mx_inv_fn(ct_tensor *const *in, void *ctx) { return (void)ctx, ct_linalg_inv(in[0]); }
/* cppcheck-suppress constParameter ; the ct_gradcheck callback type fixes the signature */
static ct_tensor *mx_solve_fn(ct_tensor *const *in, void *ctx) { return ct_linalg_solve(in[0], in[1], ctx != NULL); }
static ct_tensor *mx_cross_fn(ct_tensor *const *in, void *ctx) { return (void)ctx, ct_linalg_cross(in[0], in[1]); }

static void mx_gradgrad(int line, ct_check_fn fn, void *ctx, int n, ct_tensor **in) {
  int i;
  for (i = 0; i < n; i++) CHECK_OK(ct_set_requires_grad(in[i], true));
  if (ct_gradcheck(fn, ctx, n, in, NULL) != CT_OK || ct_gradgradcheck(fn, ctx, n, in, NULL) != CT_OK) {
    harness_fail(__FILE__, line, "%s", ct_last_error_message());
    ct_clear_error();
  }
}

TEST(matrix_gradgradcheck) {
  static int left = 1;
  CT_SCOPE {
    ct_tensor *in[2];
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 1);
    mx_gradgrad(__LINE__, mx_det_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(4, 4), 2);
    mx_gradgrad(__LINE__, mx_logabsdet_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 3);
    mx_gradgrad(__LINE__, mx_inv_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 4), in[1] = mx_wc(CT_DIMS(3, 3), 5);
    mx_gradgrad(__LINE__, mx_solve_fn, &left, 2, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 6), in[1] = mx_wc(CT_DIMS(3, 3), 7);
    mx_gradgrad(__LINE__, mx_solve_fn, NULL, 2, in); /* X A = B */
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 8), in[1] = ct_select(mx_wc(CT_DIMS(2, 3), 9), 0, 0);
    mx_gradgrad(__LINE__, mx_solve_fn, &left, 2, in); /* a vector, broadcast */
    in[0] = mx_wc(CT_DIMS(2, 1, 3), 10), in[1] = mx_wc(CT_DIMS(1, 4, 3), 11); /* broadcast */
    mx_gradgrad(__LINE__, mx_cross_fn, NULL, 2, in);
  }
}

TEST(matrix_gradient_at_singular_matrix_fails_clearly) {
  CT_SCOPE {
    ct_tensor *A = ct_ones(CT_DIMS(3, 3), CT_F64), *d;
    CHECK_OK(ct_set_requires_grad(A, true));
    d = ct_linalg_det(A);
    CHECK(d != NULL);
    if (d) {
      CHECK(ct_backward(d) != CT_OK);
      CHECK(strstr(ct_last_error_message(), "singular") != NULL);
      ct_clear_error();
    }
  }
}

TEST(matrix_meta_shapes) {
  CT_SCOPE {
    ct_tensor *A = ct_empty_opts(CT_DIMS(4, 1, 3, 3), ct_opts(CT_F32, CT_META)), *info = NULL, *r;
    r = ct_linalg_solve_ex(A, ct_empty_opts(CT_DIMS(5, 3, 2), ct_opts(CT_F32, CT_META)), true, false, &info);
    CHECK(r && r->ndim == 4 && r->sizes[0] == 4 && r->sizes[1] == 5 && r->sizes[2] == 3 && r->sizes[3] == 2);
    CHECK(info && info->ndim == 2 && info->sizes[0] == 4 && info->sizes[1] == 1 && info->dtype == CT_I32);
    r = ct_linalg_det(A);
    CHECK(r && r->ndim == 2 && r->dtype == CT_F32 && ct__is_meta(r));
    r = ct_linalg_inv(A);
    CHECK(r && r->ndim == 4 && ct__is_meta(r));
  }
}

/* cholesky's gradient is symmetric (PyTorch's choice): the derivative of A -> cholesky((A + A^T) / 2) */
/* cppcheck-suppress constParameter ; the ct_gradcheck callback type fixes the signature */
static ct_tensor *mx_cholesky_sym_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *s = ct_mul_scalar(ct_add(in[0], ct_transpose(in[0], -2, -1)), ct_float(0.5));
    r = ct_keep(ct_linalg_cholesky(s, ctx != NULL));
  }
  return r;
}
static ct_tensor *mx_matrix_exp_fn(ct_tensor *const *in, void *ctx) { return (void)ctx, ct_linalg_matrix_exp(in[0]); }
static ct_tensor *mx_matrix_power_fn(ct_tensor *const *in, void *ctx) { return ct_linalg_matrix_power(in[0], *(const int64_t *)ctx); }

TEST(matrix_gradgradcheck_cholesky_exp_power) {
  static int upper = 1;
  static const int64_t powers[3] = {0, 3, -2};
  int i;
  CT_SCOPE {
    ct_tensor *in[1];
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 21); /* diagonally dominant: its symmetric part is positive-definite */
    mx_gradgrad(__LINE__, mx_cholesky_sym_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(3, 3), 22);
    mx_gradgrad(__LINE__, mx_cholesky_sym_fn, &upper, 1, in);
    in[0] = ct_mul_scalar(mx_wc(CT_DIMS(2, 3, 3), 23), ct_float(0.5)); /* 1-norm past theta_13: scaling and squaring */
    mx_gradgrad(__LINE__, mx_matrix_exp_fn, NULL, 1, in);
    for (i = 0; i < 3; i++) {
      in[0] = mx_wc(CT_DIMS(3, 3), 24 + (unsigned)i);
      mx_gradgrad(__LINE__, mx_matrix_power_fn, (void *)&powers[i], 1, in);
    }
  }
}

TEST(matrix_cholesky_info) {
  static const double m[9] = {1, 2, 0, 2, 1, 0, 0, 0, 1};
  CT_SCOPE {
    ct_tensor *info = NULL, *L = ct_linalg_cholesky_ex(mx_from(CT_DIMS(3, 3), m), false, false, &info);
    CHECK(L && info && info->dtype == CT_I32 && ct_get(info, 0) == 2);
    /* LAPACK's partial factor: the failed pivot on the diagonal, later columns as A */
    if (L) CHECK(ct_get(L, 3) == 2 && ct_get(L, 4) == -3 && ct_get(L, 8) == 1 && ct_get(L, 1) == 0);
    CHECK_ERR(ct_linalg_cholesky_ex(mx_from(CT_DIMS(3, 3), m), false, true, &info), CT_ERR_INVALID,
              "linalg.cholesky_ex: The factorization could not be completed because the input is not positive-definite (the leading "
              "minor of order 2 is not positive-definite).");
    CHECK_ERR(ct_cholesky(mx_from(CT_DIMS(3, 3), m), false), CT_ERR_INVALID, "cholesky: The factorization could not be completed");
  }
}

/* svd: U, S and Vh are separate ops whose formulas add up; differentiable twice. The
 * vectors' signs are arbitrary: U diag(c) Vh (fixed c) and U * U are sign-free */
static ct_tensor *mx_svd_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *r = NULL;
  (void)ctx;
  CT_SCOPE {
    ct_tensor *S = NULL, *Vh = NULL, *U = ct_linalg_svd(in[0], false, &S, &Vh), *parts[3];
    ct_tensor *c = ct_arange_start_step(ct_int(1), ct_int(S ? S->sizes[S->ndim - 1] + 1 : 1), ct_int(1), CT_F64);
    parts[0] = ct_flatten(ct_matmul(ct_mul(U, c), Vh), 0, -1), parts[1] = ct_flatten(S, 0, -1), parts[2] = ct_flatten(ct_mul(U, U), 0, -1);
    r = ct_keep(ct_cat(3, parts, 0));
  }
  return r;
}
TEST(matrix_svd_gradgradcheck) {
  CT_SCOPE {
    ct_tensor *in[1];
    in[0] = mx_wc(CT_DIMS(4, 3), 31);
    mx_gradgrad(__LINE__, mx_svd_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 4), 32);
    mx_gradgrad(__LINE__, mx_svd_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(3, 3), 33);
    mx_gradgrad(__LINE__, mx_svd_fn, NULL, 1, in);
  }
}

/* full_matrices: orthogonal U and V whose first k columns reconstruct A, also with a rank deficit */
static void mx_check_svd_full(int line, ct_tensor *A) {
  CT_SCOPE {
    ct_tensor *S = NULL, *Vh = NULL, *U = ct_linalg_svd(A, true, &S, &Vh), *err;
    int64_t m = A->sizes[A->ndim - 2], n = A->sizes[A->ndim - 1], k = m < n ? m : n;
    if (!U) {
      harness_fail(__FILE__, line, "svd: %s", ct_last_error_message());
    } else {
      err = ct_amax(ct_abs(ct_sub(ct_matmul(ct_mul(ct_narrow(U, -1, 0, k), ct_unsqueeze(S, -2)), ct_narrow(Vh, -2, 0, k)), A)), 0, NULL, false);
      if (ct_get(err, 0) > 1e-13) harness_fail(__FILE__, line, "U S Vh differs from A by %g", ct_get(err, 0));
      err = ct_amax(ct_abs(ct_sub(ct_matmul(ct_transpose(U, -2, -1), U), ct_eye_ex(m, CT_F64, CT_CPU))), 0, NULL, false);
      if (ct_get(err, 0) > 1e-14) harness_fail(__FILE__, line, "U^T U differs from I by %g", ct_get(err, 0));
      err = ct_amax(ct_abs(ct_sub(ct_matmul(Vh, ct_transpose(Vh, -2, -1)), ct_eye_ex(n, CT_F64, CT_CPU))), 0, NULL, false);
      if (ct_get(err, 0) > 1e-14) harness_fail(__FILE__, line, "Vh Vh^T differs from I by %g", ct_get(err, 0));
    }
  }
}
TEST(matrix_svd_full_matrices) {
  static const double rank1[12] = {1, 2, 3, 2, 4, 6, 3, 6, 9, 4, 8, 12};
  CT_SCOPE {
    mx_check_svd_full(__LINE__, mx_wc(CT_DIMS(2, 5, 3), 34));
    mx_check_svd_full(__LINE__, mx_wc(CT_DIMS(3, 6), 35));
    mx_check_svd_full(__LINE__, mx_from(CT_DIMS(4, 3), rank1));
    mx_check_svd_full(__LINE__, ct_transpose(mx_from(CT_DIMS(4, 3), rank1), 0, 1));
    mx_check_svd_full(__LINE__, ct_zeros(CT_DIMS(3, 2), CT_F64));
  }
}

/* eigvalsh and the eigenvectors read one triangle: their (symmetric) gradients are the derivatives of
 * A -> f((A + A^T) / 2); the eigenvectors' signs are arbitrary, so their elementwise squares are checked */
static ct_tensor *mx_sym(ct_tensor *x) { return ct_mul_scalar(ct_add(x, ct_transpose(x, -2, -1)), ct_float(0.5)); }
static ct_tensor *mx_eigvalsh_sym_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *r = NULL;
  CT_SCOPE { r = ct_keep(ct_linalg_eigvalsh(mx_sym(in[0]), (const char *)ctx)); }
  return r;
}
static ct_tensor *mx_eigvecs_sym_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *V = NULL, *L = ct_linalg_eigh(mx_sym(in[0]), (const char *)ctx, &V);
    r = ct_keep(ct_add(ct_mul(V, V), ct_unsqueeze(L, -2))); /* (both outputs, sign-free) */
  }
  return r;
}
TEST(matrix_eigh_gradgradcheck) {
  CT_SCOPE {
    ct_tensor *in[1];
    in[0] = mx_wc(CT_DIMS(2, 4, 4), 41);
    mx_gradgrad(__LINE__, mx_eigvalsh_sym_fn, (void *)"L", 1, in);
    in[0] = mx_wc(CT_DIMS(3, 3), 42);
    mx_gradgrad(__LINE__, mx_eigvalsh_sym_fn, (void *)"U", 1, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 3), 43);
    mx_gradgrad(__LINE__, mx_eigvecs_sym_fn, (void *)"L", 1, in);
    in[0] = mx_wc(CT_DIMS(4, 4), 44);
    mx_gradgrad(__LINE__, mx_eigvecs_sym_fn, (void *)"U", 1, in);
  }
}

TEST(matrix_eigh_reconstructs) {
  CT_SCOPE {
    ct_tensor *A = mx_sym(mx_wc(CT_DIMS(3, 5, 5), 45)), *V = NULL, *L = ct_linalg_eigh(A, "L", &V), *err;
    /* V diag(L) V^T = A and V^T V = I */
    err = ct_amax(ct_abs(ct_sub(ct_matmul(ct_mul(V, ct_unsqueeze(L, -2)), ct_transpose(V, -2, -1)), A)), 0, NULL, false);
    CHECK(err && ct_get(err, 0) < 1e-13);
    err = ct_amax(ct_abs(ct_sub(ct_matmul(ct_transpose(V, -2, -1), V), ct_eye_ex(5, CT_F64, CT_CPU))), 0, NULL, false);
    CHECK(err && ct_get(err, 0) < 1e-14);
  }
}

/* qr: Q and R are separate ops whose formulas add up; both differentiable twice */
static ct_tensor *mx_qr_parts_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *R = NULL, *Q = ct_linalg_qr(in[0], (const char *)ctx, &R), *parts[2];
    parts[0] = ct_flatten(Q, 0, -1), parts[1] = ct_flatten(R, 0, -1);
    r = ct_keep(ct_cat(2, parts, 0));
  }
  return r;
}
TEST(matrix_qr_gradgradcheck) {
  CT_SCOPE {
    ct_tensor *in[1], *R = NULL, *Q;
    in[0] = mx_wc(CT_DIMS(4, 3), 51);
    mx_gradgrad(__LINE__, mx_qr_parts_fn, (void *)"reduced", 1, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 5), 52);
    mx_gradgrad(__LINE__, mx_qr_parts_fn, (void *)"reduced", 1, in);
    in[0] = mx_wc(CT_DIMS(3, 4), 53);
    mx_gradgrad(__LINE__, mx_qr_parts_fn, (void *)"complete", 1, in);
    in[0] = mx_wc(CT_DIMS(3, 3), 54);
    mx_gradgrad(__LINE__, mx_qr_parts_fn, (void *)"complete", 1, in);
    /* mode 'r' and complete with m > n: PyTorch's errors at backward */
    in[0] = mx_wc(CT_DIMS(4, 3), 55);
    CHECK_OK(ct_set_requires_grad(in[0], true));
    Q = ct_linalg_qr(in[0], "r", &R);
    CHECK(Q && R && Q->ndim == 1 && Q->sizes[0] == 0);
    if (R) CHECK_ERR(ct_backward(ct_sum(R)), CT_ERR_UNSUPPORTED, "which is not computed when mode='r'");
    Q = ct_linalg_qr(in[0], "complete", &R);
    if (Q) CHECK_ERR(ct_backward(ct_sum(Q)), CT_ERR_UNSUPPORTED, "not differentiable when mode='complete' and nrows > ncols");
  }
}

/* (hermitian reads one triangle: checked through A -> (A + A^T) / 2, as eigh) */
/* cppcheck-suppress constParameter ; the ct_gradcheck callback type fixes the signature */
static ct_tensor *mx_pinv_fn(ct_tensor *const *in, void *ctx) {
  ct_tensor *r = NULL;
  CT_SCOPE { r = ct_keep(ct_linalg_pinv_ex(ctx ? mx_sym(in[0]) : in[0], NAN, NAN, ctx != NULL)); }
  return r;
}
TEST(matrix_pinv_gradgradcheck) {
  static int hermitian = 1;
  CT_SCOPE {
    ct_tensor *in[1];
    in[0] = mx_wc(CT_DIMS(4, 3), 61);
    mx_gradgrad(__LINE__, mx_pinv_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 5), 62);
    mx_gradgrad(__LINE__, mx_pinv_fn, NULL, 1, in);
    in[0] = mx_wc(CT_DIMS(3, 3), 63);
    mx_gradgrad(__LINE__, mx_pinv_fn, &hermitian, 1, in);
  }
}

/* lstsq's solution through pinv: differentiable twice, in A and B */
static ct_tensor *mx_lstsq_fn(ct_tensor *const *in, void *ctx) {
  (void)ctx;
  return ct_linalg_lstsq_ex(in[0], in[1], NAN, "gelsd", NULL, NULL, NULL);
}
TEST(matrix_lstsq_gradgradcheck) {
  CT_SCOPE {
    ct_tensor *in[2];
    in[0] = mx_wc(CT_DIMS(5, 3), 71), in[1] = mx_wc(CT_DIMS(5, 2), 72);
    mx_gradgrad(__LINE__, mx_lstsq_fn, NULL, 2, in);
    in[0] = mx_wc(CT_DIMS(2, 3, 4), 73), in[1] = mx_wc(CT_DIMS(2, 3), 74); /* underdetermined, vectors */
    mx_gradgrad(__LINE__, mx_lstsq_fn, NULL, 2, in);
  }
}
