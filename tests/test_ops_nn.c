/* tests/test_ops_nn.c - direct tests of gen/ops/nn.spec beyond the PyTorch
 * fixtures (tests/cases_nn.py, run by tests/test_opcases.c). */

static ct_tensor *nn_t(int ndim, const int64_t *sizes, ct_dtype dtype, double lo, double hi, unsigned seed) {
  ct_tensor *t = ct_empty(ndim, sizes, dtype);
  uint32_t s = seed * 2654435761u + 777u;
  int64_t k;
  for (k = 0; t && k < t->numel; k++) {
    s = s * 1664525u + 1013904223u;
    ct_set(t, k, lo + (hi - lo) * ((double)(s >> 8) / 16777216.0));
  }
  return t;
}
static ct_tensor *nn_long(int ndim, const int64_t *sizes, const int64_t *v) { return ct_from_array(ndim, sizes, CT_I64, v); }
static void nn_opcheck(const char *op, int nargs, const ct_value *args, int gradgrad) {
  ct_opcheck_opts o;
  memset(&o, 0, sizeof o);
  o.gradgradcheck = gradgrad > 0;
  o.skip_gradcheck = gradgrad < 0; /* -1: inputs that are not differentiable in PyTorch either */
  if (ct_opcheck(op, nargs, args, &o) != CT_OK) {
    harness_fail(__FILE__, __LINE__, "opcheck %s: %s", op, ct_last_error_message());
    ct_clear_error();
  }
}
#define NN_ARGS(...) (int)(sizeof((ct_value[]){__VA_ARGS__}) / sizeof(ct_value)), (ct_value[]){__VA_ARGS__}

TEST(nn_softmax_values) {
  CT_SCOPE {
    double v[] = {1, 2, 3, 1000, 1001, 1002};
    ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F64, v), *y = ct_softmax(x, 1, CT_DTYPE_NONE), *l = ct_log_softmax(x, -1, CT_DTYPE_NONE);
    double e = exp(1.0) + exp(2.0) + exp(3.0);
    CHECK(y && l);
    CHECK_NEAR(ct_get(y, 0), exp(1.0) / e, 1e-12);
    CHECK_NEAR(ct_get(y, 5), exp(3.0) / e, 1e-12); /* stable: no overflow at 1000 */
    CHECK_NEAR(ct_get(l, 3), 1 - log(e), 1e-12);
    CHECK_ERR(ct_softmax(ct_ones(CT_DIMS(3), CT_I64), 0, CT_DTYPE_NONE), CT_ERR_DTYPE, "not implemented for 'Long'");
    CHECK(ct_softmax(ct_ones(CT_DIMS(3), CT_I64), 0, CT_F32) != NULL);
    CHECK_ERR(ct_softmax(x, 2, CT_DTYPE_NONE), CT_ERR_INDEX, "dimension out of range");
    CHECK(ct_softmax(ct_empty(CT_DIMS(2, 0), CT_F32), 1, CT_DTYPE_NONE) != NULL);
  }
}

TEST(nn_opcheck_all) {
  CT_SCOPE {
    ct_tensor *x = nn_t(CT_DIMS(3, 4), CT_F32, -2, 2, 1), *x3 = nn_t(CT_DIMS(2, 3, 2), CT_F32, -2, 2, 2);
    ct_tensor *p = nn_t(CT_DIMS(3, 4), CT_F32, 0.05, 0.95, 3), *q = nn_t(CT_DIMS(3, 4), CT_F32, 0.05, 0.95, 4);
    ct_tensor *tg = nn_long(CT_DIMS(3), (const int64_t[]){1, 3, 0}), *tg3 = nn_long(CT_DIMS(2, 2), (const int64_t[]){0, 2, 1, 1});
    ct_tensor *w4 = nn_t(CT_DIMS(4), CT_F32, 0.5, 1.5, 5), *w3 = nn_t(CT_DIMS(3), CT_F32, 0.5, 1.5, 6);
    ct_tensor *y = nn_t(CT_DIMS(3, 4), CT_F32, -1, 1, 7), *rm = ct_zeros(CT_DIMS(3), CT_F32), *rv = ct_ones(CT_DIMS(3), CT_F32);
    ct_tensor *go = nn_t(CT_DIMS(3), CT_F32, -1, 1, 8), *tw = ct_scalar_tensor(ct_float(3.0), CT_F32);
    ct_tensor *x4 = nn_t(CT_DIMS(2, 4, 3), CT_F32, -2, 2, 9);
    int64_t ns[] = {4}, ns2[] = {4, 3};
    nn_opcheck("softmax.int", NN_ARGS(ct_value_tensor(x), ct_value_int(1), ct_value_dtype(CT_DTYPE_NONE)), 1);
    nn_opcheck("softmax.int", NN_ARGS(ct_value_tensor(x3), ct_value_int(1), ct_value_dtype(CT_F64)), 0);
    nn_opcheck("log_softmax.int", NN_ARGS(ct_value_tensor(x), ct_value_int(0), ct_value_dtype(CT_DTYPE_NONE)), 1);
    nn_opcheck("nll_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(tg), ct_value_tensor(w4), ct_value_int(1), ct_value_int(-100)), 1);
    nn_opcheck("nll_loss", NN_ARGS(ct_value_tensor(x3), ct_value_tensor(tg3), ct_value_none(), ct_value_int(0), ct_value_int(2)), 1);
    nn_opcheck("nll_loss_backward", NN_ARGS(ct_value_tensor(go), ct_value_tensor(x), ct_value_tensor(tg), ct_value_none(), ct_value_int(0),
                                            ct_value_int(-100), ct_value_tensor(tw)), 1);
    nn_opcheck("cross_entropy_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(tg), ct_value_tensor(w4), ct_value_int(1), ct_value_int(3),
                                             ct_value_double(0.2)), 1);
    nn_opcheck("cross_entropy_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(p), ct_value_none(), ct_value_int(1), ct_value_int(-100),
                                             ct_value_double(0.1)), 1);
    nn_opcheck("mse_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_int(1)), 1);
    nn_opcheck("l1_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_int(2)), 0);
    nn_opcheck("smooth_l1_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_int(0), ct_value_double(0.5)), 0);
    nn_opcheck("kl_div", NN_ARGS(ct_value_tensor(x), ct_value_tensor(p), ct_value_int(1), ct_value_bool(false)), 1);
    nn_opcheck("kl_div", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_int(2), ct_value_bool(true)), 1);
    nn_opcheck("binary_cross_entropy", NN_ARGS(ct_value_tensor(p), ct_value_tensor(q), ct_value_tensor(w4), ct_value_int(1)), 1);
    nn_opcheck("binary_cross_entropy_with_logits", NN_ARGS(ct_value_tensor(x), ct_value_tensor(q), ct_value_tensor(w4), ct_value_tensor(w4),
                                                           ct_value_int(1)), 1);
    nn_opcheck("binary_cross_entropy_with_logits", NN_ARGS(ct_value_tensor(x), ct_value_tensor(q), ct_value_none(), ct_value_none(),
                                                           ct_value_int(0)), 1);
    nn_opcheck("layer_norm", NN_ARGS(ct_value_tensor(x), ct_value_int_list(ns, 1), ct_value_tensor(w4), ct_value_tensor(w4),
                                     ct_value_double(1e-5), ct_value_bool(true)), 1);
    nn_opcheck("layer_norm", NN_ARGS(ct_value_tensor(x4), ct_value_int_list(ns2, 2), ct_value_none(), ct_value_none(),
                                     ct_value_double(1e-5), ct_value_bool(true)), 0);
    nn_opcheck("group_norm", NN_ARGS(ct_value_tensor(x4), ct_value_int(2), ct_value_tensor(w4), ct_value_tensor(w4),
                                     ct_value_double(1e-5), ct_value_bool(true)), 1);
    nn_opcheck("batch_norm", NN_ARGS(ct_value_tensor(ct_t(x)), ct_value_tensor(w3), ct_value_tensor(rv), ct_value_none(), ct_value_none(),
                                     ct_value_bool(true), ct_value_double(0.1), ct_value_double(1e-5), ct_value_bool(false)), 1);
    nn_opcheck("batch_norm", NN_ARGS(ct_value_tensor(x4), ct_value_tensor(w4), ct_value_none(), ct_value_tensor(ct_zeros(CT_DIMS(4), CT_F32)),
                                     ct_value_tensor(ct_ones(CT_DIMS(4), CT_F32)), ct_value_bool(false), ct_value_double(0.1),
                                     ct_value_double(1e-5), ct_value_bool(false)), -1); /* running stats */
    (void)rm, (void)rv;
  }
}

TEST(nn_batch_norm_running_stats) {
  CT_SCOPE {
    double v[] = {1, 2, 3, 5, 7, 11};
    ct_tensor *x = ct_from_array(CT_DIMS(3, 2), CT_F64, v), *rm = ct_zeros(CT_DIMS(2), CT_F32), *rv = ct_ones(CT_DIMS(2), CT_F32);
    ct_tensor *y = ct_batch_norm(x, NULL, NULL, rm, rv, true, 0.1, 1e-5);
    CHECK(y != NULL);
    CHECK_NEAR(ct_get(rm, 0), 0.1 * 11 / 3, 1e-6);   /* mean of 1, 3, 7 */
    CHECK_NEAR(ct_get(rm, 1), 0.1 * 6, 1e-6);        /* mean of 2, 5, 11 */
    CHECK_NEAR(ct_get(rv, 0), 0.9 + 0.1 * 28.0 / 3, 1e-5); /* unbiased variance 56/6 */
    CHECK_NEAR(ct_get(rv, 1), 0.9 + 0.1 * 21, 1e-5);       /* (16 + 1 + 25) / 2 */
  }
}

/* PyTorch 1.13 (torch.nn.functional.batch_norm): training needs more than one
 * value per channel, size[0] * prod(size[2:]) != 1; evaluation does not */
TEST(nn_batch_norm_one_value_per_channel) {
  CT_SCOPE {
    ct_tensor *rm = ct_zeros(CT_DIMS(3), CT_F32), *rv = ct_ones(CT_DIMS(3), CT_F32), *y;
    CHECK_ERR(ct_batch_norm(ct_ones(CT_DIMS(1, 3), CT_F32), NULL, NULL, NULL, NULL, true, 0.1, 1e-5), CT_ERR_SHAPE,
              "batch_norm: Expected more than 1 value per channel when training, got input size torch.Size([1, 3])");
    CHECK_ERR(ct_batch_norm(ct_ones(CT_DIMS(1, 3, 1), CT_F32), NULL, NULL, rm, rv, true, 0.1, 1e-5), CT_ERR_SHAPE,
              "Expected more than 1 value per channel when training, got input size torch.Size([1, 3, 1])");
    CHECK_ERR(ct_batch_norm(ct_ones(CT_DIMS(1, 3, 1, 1), CT_F32), NULL, NULL, NULL, NULL, true, 0.1, 1e-5), CT_ERR_SHAPE,
              "got input size torch.Size([1, 3, 1, 1])");
    CHECK_ERR(ct_batch_norm(ct_ones(CT_DIMS(1, 0), CT_F32), NULL, NULL, NULL, NULL, true, 0.1, 1e-5), CT_ERR_SHAPE,
              "got input size torch.Size([1, 0])");
    CHECK(ct_get(rm, 0) == 0 && ct_get(rv, 0) == 1); /* refused before touching the running stats */
    /* evaluation, and more than one value per channel in N or in the spatial dims, are fine */
    y = ct_batch_norm(ct_ones(CT_DIMS(1, 3), CT_F32), NULL, NULL, rm, rv, false, 0.1, 1e-5);
    CHECK(y && y->ndim == 2 && y->sizes[0] == 1 && y->sizes[1] == 3);
    y = ct_batch_norm(ct_ones(CT_DIMS(1, 3, 2), CT_F32), NULL, NULL, NULL, NULL, true, 0.1, 1e-5);
    CHECK(y && y->ndim == 3 && y->sizes[2] == 2);
    y = ct_batch_norm(ct_ones(CT_DIMS(2, 3), CT_F32), NULL, NULL, NULL, NULL, true, 0.1, 1e-5);
    CHECK(y && y->sizes[0] == 2);
  }
}

/* An empty input (PyTorch's _batch_norm_impl_index): input * weight[0] + bias[0], an
 * empty result of the input's shape; the running stats are left alone */
TEST(nn_batch_norm_empty) {
  CT_SCOPE {
    ct_tensor *rm = ct_full(CT_DIMS(3), ct_float(0.5), CT_F32), *rv = ct_full(CT_DIMS(3), ct_float(2), CT_F32);
    ct_tensor *w = ct_ones(CT_DIMS(3), CT_F64), *b = ct_zeros(CT_DIMS(3), CT_F64);
    ct_tensor *x = ct_empty(CT_DIMS(0, 3), CT_F64), *y;
    CHECK_OK(ct_set_requires_grad(w, true));
    CHECK_OK(ct_set_requires_grad(b, true));
    y = ct_batch_norm(ct_empty(CT_DIMS(0, 3), CT_F32), ct_ones(CT_DIMS(3), CT_F32), ct_zeros(CT_DIMS(3), CT_F32), rm, rv, true, 0.1, 1e-5);
    CHECK(y && y->ndim == 2 && y->sizes[0] == 0 && y->sizes[1] == 3 && y->dtype == CT_F32);
    CHECK(ct_get(rm, 1) == 0.5 && ct_get(rv, 2) == 2.0);
    y = ct_batch_norm(ct_empty(CT_DIMS(0, 3, 2), CT_F32), NULL, NULL, NULL, NULL, false, 0.1, 1e-5); /* eval, no stats */
    CHECK(y && y->ndim == 3 && y->sizes[0] == 0 && y->sizes[2] == 2);
    y = ct_batch_norm(ct_empty(CT_DIMS(2, 3, 0), CT_F32), NULL, NULL, rm, rv, true, 0.1, 1e-5);
    CHECK(y && y->ndim == 3 && y->sizes[2] == 0);
    y = ct_batch_norm(ct_empty(CT_DIMS(2, 0), CT_F32), NULL, NULL, NULL, NULL, true, 0.1, 1e-5);
    CHECK(y && y->sizes[0] == 2 && y->sizes[1] == 0);
    /* weight[0] of an empty weight: PyTorch's select() error */
    CHECK_ERR(ct_batch_norm(ct_empty(CT_DIMS(2, 0), CT_F32), ct_ones(CT_DIMS(0), CT_F32), NULL, NULL, NULL, true, 0.1, 1e-5),
              CT_ERR_INDEX, "index 0 out of range for tensor of size [0] at dimension 0");
    /* gradients: zeros for weight and bias, an empty one for the input */
    CHECK_OK(ct_set_requires_grad(x, true));
    y = ct_batch_norm(x, w, b, NULL, NULL, true, 0.1, 1e-5);
    CHECK(y && y->sizes[0] == 0);
    if (y) {
      CHECK_OK(ct_backward(ct_sum(y)));
      CHECK(ct_grad(x) && ct_grad(x)->numel == 0);
      CHECK(ct_grad(w) && ct_grad(w)->numel == 3 && ct_get(ct_grad(w), 0) == 0 && ct_get(ct_grad(w), 2) == 0);
      CHECK(ct_grad(b) && ct_get(ct_grad(b), 1) == 0);
    }
  }
}

/* second derivatives of the ops whose formulas use the log/rsqrt/softplus helpers */
TEST(nn_gradgradcheck_helpers) {
  CT_SCOPE {
    ct_tensor *x = nn_t(CT_DIMS(3, 4), CT_F64, -2, 2, 11), *p = nn_t(CT_DIMS(3, 4), CT_F64, 0.05, 0.95, 12);
    ct_tensor *q = nn_t(CT_DIMS(3, 4), CT_F64, 0.05, 0.95, 13), *w = nn_t(CT_DIMS(4), CT_F64, 0.5, 1.5, 14);
    int64_t ns[] = {4};
    nn_opcheck("rms_norm", NN_ARGS(ct_value_tensor(x), ct_value_int_list(ns, 1), ct_value_tensor(w), ct_value_double(NAN)), 1);
    nn_opcheck("kl_div", NN_ARGS(ct_value_tensor(x), ct_value_tensor(p), ct_value_int(0), ct_value_bool(false)), 1);
    nn_opcheck("binary_cross_entropy", NN_ARGS(ct_value_tensor(p), ct_value_tensor(q), ct_value_none(), ct_value_int(0)), 1);
    nn_opcheck("binary_cross_entropy_with_logits", NN_ARGS(ct_value_tensor(x), ct_value_tensor(q), ct_value_none(), ct_value_tensor(w),
                                                           ct_value_int(2)), 1);
    nn_opcheck("smooth_l1_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(p), ct_value_int(1), ct_value_double(5.0)), 1);
    nn_opcheck("cross_entropy_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(ct_softmax(q, 1, CT_DTYPE_NONE)), ct_value_tensor(w),
                                             ct_value_int(0), ct_value_int(-100), ct_value_double(0.0)), 1);
  }
}

/* the meta device runs the same kernels: shapes and dtypes without data */
TEST(nn_meta) {
  CT_SCOPE {
    ct_tensor *x = ct_empty_opts(CT_DIMS(5, 4), ct_opts(CT_F32, CT_META)), *t = ct_empty_opts(CT_DIMS(5), ct_opts(CT_I64, CT_META));
    ct_tensor *l = ct_cross_entropy(x, t, NULL, 0, -100, 0.1), *s = ct_log_softmax(x, 1, CT_F64);
    int64_t ns[] = {4};
    ct_tensor *n = ct_layer_norm(x, 1, ns, NULL, NULL, 1e-5);
    CHECK(l && l->ndim == 1 && l->sizes[0] == 5 && l->device.type == CT_DEVICE_META);
    CHECK(s && s->dtype == CT_F64 && s->device.type == CT_DEVICE_META);
    CHECK(n && n->ndim == 2 && n->device.type == CT_DEVICE_META);
  }
}

TEST(nn_errors_direct) {
  CT_SCOPE {
    ct_tensor *x = nn_t(CT_DIMS(3, 4), CT_F32, -1, 1, 21), *t = nn_long(CT_DIMS(3), (const int64_t[]){0, 1, 2});
    ct_tensor *tw = ct_scalar_tensor(ct_float(3), CT_F32);
    CHECK_ERR(ct_nll_loss_backward(ct_ones(CT_DIMS(4), CT_F32), x, t, NULL, 0, -100, tw), CT_ERR_SHAPE, "grad_output of shape [4]");
    CHECK_ERR(ct_nll_loss_backward(ct_ones(CT_DIMS(2), CT_F32), x, t, NULL, 1, -100, tw), CT_ERR_SHAPE, "grad_output");
    CHECK_ERR(ct_nll_loss(x, t, NULL, 3, -100), CT_ERR_INVALID, "reduction");
    CHECK_ERR(ct_mse_loss(x, x, -1), CT_ERR_INVALID, "reduction");
    CHECK_ERR(ct_nll_loss(x, nn_long(CT_DIMS(3), (const int64_t[]){0, 7, 2}), NULL, 1, -100), CT_ERR_INDEX, "Target 7 is out of bounds.");
    CHECK_ERR(ct_group_norm(ct_ones(CT_DIMS(2, 4), CT_F32), 0, NULL, NULL, 1e-5), CT_ERR_SHAPE, "num_groups=0");
    CHECK_ERR(ct_batch_norm(x, NULL, NULL, NULL, ct_ones(CT_DIMS(4), CT_F32), false, 0.1, 1e-5), CT_ERR_INVALID,
              "running_mean must be defined in evaluation mode");
    CHECK_ERR(ct_layer_norm(x, 1, (const int64_t[]){3}, NULL, NULL, 1e-5), CT_ERR_SHAPE,
              "Given normalized_shape=[3], expected input with shape [*, 3], but got input of size[3, 4]");
  }
}

/* out= variants write and resize out, and refuse a dtype the result cannot be cast to */
TEST(nn_out_variants) {
  CT_SCOPE {
    ct_tensor *x = nn_t(CT_DIMS(3, 4), CT_F32, -1, 1, 31), *y = nn_t(CT_DIMS(3, 4), CT_F32, -1, 1, 32);
    ct_tensor *out = ct_empty(CT_DIMS(7), CT_F32), *iout = ct_empty(CT_DIMS(1), CT_I64), *ref = ct_mse_loss(x, y, 0);
    int64_t k;
    CHECK_OK(ct_mse_loss_out(out, x, y, 0));
    CHECK(out->ndim == 2 && out->sizes[0] == 3 && out->sizes[1] == 4);
    for (k = 0; k < 12; k++) CHECK_NEAR(ct_get(out, k), ct_get(ref, k), 0);
    CHECK_ERR(ct_mse_loss_out(iout, x, y, 1), CT_ERR_DTYPE, "can't be cast");
    CHECK_OK(ct_softmax_out(out, x, 0, CT_DTYPE_NONE));
    CHECK_ERR(ct_softmax_out(out, x, 0, CT_F64), CT_ERR_DTYPE, "expected out tensor to have dtype");
  }
}

/* second order of the composite losses and distances (their gradients come
 * from the ops they call: gradgradcheck differentiates those gradients) */
TEST(nn_losses_gradgradcheck) {
  CT_SCOPE {
    ct_tensor *x = nn_t(CT_DIMS(3, 4), CT_F64, -2, 2, 41), *y = nn_t(CT_DIMS(3, 4), CT_F64, -2, 2, 42);
    ct_tensor *z = nn_t(CT_DIMS(3, 4), CT_F64, -2, 2, 43), *v = nn_t(CT_DIMS(3, 4), CT_F64, 0.1, 2, 44);
    ct_tensor *pm = ct_sign(nn_t(CT_DIMS(3, 4), CT_F64, -1, 1, 45)), *p3 = ct_sign(nn_t(CT_DIMS(3), CT_F64, -1, 1, 46));
    ct_tensor *tg = nn_long(CT_DIMS(3), (const int64_t[]){1, 3, 0}), *w4 = nn_t(CT_DIMS(4), CT_F64, 0.5, 1.5, 47);
    ct_tensor *cnt = nn_t(CT_DIMS(3, 4), CT_F64, 1.5, 4, 48), *x2 = nn_t(CT_DIMS(5, 4), CT_F64, -2, 2, 49);
    nn_opcheck("huber_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_int(1), ct_value_double(0.7)), 1);
    nn_opcheck("soft_margin_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(pm), ct_value_int(2)), 1);
    nn_opcheck("margin_ranking_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_tensor(pm), ct_value_double(0.2),
                                              ct_value_int(1)), 1);
    nn_opcheck("hinge_embedding_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(pm), ct_value_double(1.0), ct_value_int(0)), 1);
    nn_opcheck("multilabel_soft_margin_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(v), ct_value_tensor(w4), ct_value_int(1)), 1);
    nn_opcheck("multi_margin_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(tg), ct_value_scalar(ct_int(2)), ct_value_scalar(ct_float(0.9)),
                                            ct_value_tensor(w4), ct_value_int(1)), 1);
    nn_opcheck("triplet_margin_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_tensor(z), ct_value_double(1.0),
                                              ct_value_double(3.0), ct_value_double(1e-6), ct_value_bool(true), ct_value_int(2)), 1);
    nn_opcheck("cosine_embedding_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_tensor(p3), ct_value_double(-0.5),
                                                ct_value_int(0)), 1);
    nn_opcheck("poisson_nll_loss", NN_ARGS(ct_value_tensor(v), ct_value_tensor(cnt), ct_value_bool(false), ct_value_bool(true),
                                           ct_value_double(1e-8), ct_value_int(1)), 1);
    nn_opcheck("gaussian_nll_loss", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_tensor(v), ct_value_bool(true),
                                            ct_value_double(1e-6), ct_value_int(2)), 1);
    nn_opcheck("cosine_similarity", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_int(1), ct_value_double(1e-8)), 1);
    nn_opcheck("pairwise_distance", NN_ARGS(ct_value_tensor(x), ct_value_tensor(y), ct_value_double(3.0), ct_value_double(1e-6),
                                            ct_value_bool(false)), 1);
    nn_opcheck("cdist", NN_ARGS(ct_value_tensor(x), ct_value_tensor(x2), ct_value_double(2.0), ct_value_int(CT_INT_NONE)), 1);
    nn_opcheck("cdist", NN_ARGS(ct_value_tensor(x), ct_value_tensor(x2), ct_value_double(2.0), ct_value_int(1)), 1);
    nn_opcheck("cdist", NN_ARGS(ct_value_tensor(x), ct_value_tensor(x2), ct_value_double(1.5), ct_value_int(CT_INT_NONE)), 1);
  }
}

/* on the meta device the composites give shapes and dtypes (no data checks) */
TEST(nn_losses_meta) {
  CT_SCOPE {
    ct_tensor *x = ct_empty_opts(CT_DIMS(5, 4), ct_opts(CT_F32, CT_META)), *t = ct_empty_opts(CT_DIMS(5), ct_opts(CT_I64, CT_META));
    ct_tensor *x2 = ct_empty_opts(CT_DIMS(2, 30, 4), ct_opts(CT_F32, CT_META)), *v = ct_empty_opts(CT_DIMS(5), ct_opts(CT_F32, CT_META));
    ct_tensor *mm = ct_multi_margin_loss(x, t, ct_int(1), ct_int(1), NULL, 0), *cd = ct_cdist(x2, x, 2.0, CT_INT_NONE);
    ct_tensor *g = ct_gaussian_nll_loss(x, x, v, false, 1e-6, 0), *cs = ct_cosine_similarity(x, x, 1, 1e-8);
    CHECK(mm && mm->ndim == 1 && mm->sizes[0] == 5 && mm->device.type == CT_DEVICE_META);
    CHECK(cd && cd->ndim == 3 && cd->sizes[0] == 2 && cd->sizes[1] == 30 && cd->sizes[2] == 5 && cd->device.type == CT_DEVICE_META);
    CHECK(g && g->ndim == 2 && g->sizes[1] == 4 && g->device.type == CT_DEVICE_META);
    CHECK(cs && cs->ndim == 1 && cs->sizes[0] == 5 && cs->dtype == CT_F32);
  }
}

TEST(nn_losses_errors_direct) {
  CT_SCOPE {
    ct_tensor *x = nn_t(CT_DIMS(2, 3), CT_F32, -1, 1, 51), *t = nn_long(CT_DIMS(2), (const int64_t[]){0, 5});
    CHECK_ERR(ct_multi_margin_loss(x, t, ct_int(1), ct_int(1), NULL, 1), CT_ERR_INDEX, "target out of range");
    CHECK_ERR(ct_multi_margin_loss(x, t, ct_int(3), ct_int(1), NULL, 1), CT_ERR_INVALID, "only p == 1 and p == 2 supported");
    CHECK_ERR(ct_multi_margin_loss(x, t, ct_float(NAN), ct_int(1), NULL, 1), CT_ERR_INVALID, "only p == 1 and p == 2 supported");
    CHECK_ERR(ct_huber_loss(x, x, 1, 0.0), CT_ERR_INVALID, "huber_loss does not support non-positive values for delta.");
    CHECK_ERR(ct_soft_margin_loss(ct_ones(CT_DIMS(3), CT_F32), x, 0), CT_ERR_SHAPE,
              "output with shape [3] doesn't match the broadcast shape [2, 3]");
    CHECK_ERR(ct_cdist(x, ct_ones(CT_DIMS(2, 4), CT_F32), 2.0, CT_INT_NONE), CT_ERR_SHAPE,
              "X1 and X2 must have the same number of columns. X1: 3 X2: 4");
    CHECK_ERR(ct_cosine_embedding_loss(x, x, ct_ones(CT_DIMS(3), CT_F32), 0.0, 1), CT_ERR_SHAPE, "must match");
    CHECK_ERR(ct_gaussian_nll_loss(x, x, ct_full(CT_DIMS(2, 3), ct_float(-1), CT_F32), false, 1e-6, 1), CT_ERR_INVALID,
              "var has negative entry/entries");
    CHECK_ERR(ct_triplet_margin_loss(x, x, x, 1.0, 2.0, 1e-6, false, 5), CT_ERR_INVALID, "reduction");
  }
}

/* rrelu in training: positives pass, each negative gets its own slope in [lower, upper]; the
 * gradient is that slope (PyTorch's numbers come from its own generator: not compared) */
TEST(nn_rrelu_training_slopes) {
  CT_SCOPE {
    ct_tensor *x = ct_sub_scalar(ct_rand(CT_DIMS(200)), ct_float(0.7)), *y, *gx;
    int64_t k;
    int distinct = 0;
    double first = 0;
    ct_set_requires_grad(x, true);
    y = ct_rrelu_ex(x, ct_float(0.1), ct_float(0.3), true, NULL);
    CHECK(y != NULL);
    CHECK_OK(ct_backward(ct_sum(y)));
    gx = ct_grad(x);
    for (k = 0; y && gx && k < 200; k++) {
      double v = ct_get(x, k), o = ct_get(y, k), d = ct_get(gx, k);
      if (v > 0) {
        CHECK(o == v && d == 1);
      } else {
        CHECK(d >= 0.1 - 1e-7 && d <= 0.3 + 1e-7 && fabs(o - v * d) < 1e-6);
        if (first == 0) first = d;
        else distinct |= d != first;
      }
    }
    CHECK(distinct);
  }
}

/* embedding_bag's scale_grad_by_freq divides each row's gradient by its index's count in the
 * batch (as F.embedding does; PyTorch 1.13's CPU embedding_bag mixes up some counts) */
TEST(nn_embedding_bag_scale_grad_by_freq) {
  CT_SCOPE {
    static const int64_t iv[] = {1, 2, 4, 5, 4, 3, 2, 0}, ov[] = {0, 2, 2, 5};
    static const double want_sum[] = {1, 1, 1, 1, 1, 1}, want_mean[] = {1.0 / 3, 1.0 / 2, 1.0 / 4 + 1.0 / 6, 1.0 / 3, 1.0 / 3, 1.0 / 3};
    ct_tensor *idx = ct_from_array(CT_DIMS(8), CT_I64, iv), *off = ct_from_array(CT_DIMS(4), CT_I64, ov);
    int mode, k;
    for (mode = 0; mode < 2; mode++) {
      ct_tensor *w = ct_randn(CT_DIMS(6, 3)), *r;
      ct_set_requires_grad(w, true);
      r = ct_embedding_bag_ex(w, idx, off, true, mode, false, NULL, false, NULL, NULL, NULL);
      CHECK(r != NULL);
      CHECK_OK(ct_backward(ct_sum(r)));
      for (k = 0; ct_grad(w) && k < 6; k++) CHECK(fabs(ct_get(ct_grad(w), k * 3) - (mode ? want_mean[k] : want_sum[k])) < 1e-6);
    }
  }
}

/* mse_loss's fused host path (contiguous CPU operands of one float dtype and
 * shape) gives the composite's bits: against the same values read through a
 * stride-2 view, which takes the composite (sub, mul, the reduction engine),
 * for sizes around the pairwise sum's block of 256, every reduction, and the
 * backward with its 0-dim or full grad_output. */
static int nn_bits_equal(ct_tensor *x, ct_tensor *y) {
  /* A backend (the BLIS suite) runs the composite's ops with kernels of its
   * own rounding: then within a few ulps, else bit for bit. */
  double tol = ct_backend_first() ? (x && x->dtype == CT_F32 ? 1e-6 : 1e-14) : 0;
  int64_t k;
  if (!x || !y || x->numel != y->numel || x->dtype != y->dtype || x->ndim != y->ndim) return 0;
  for (k = 0; k < x->numel; k++) {
    double u = ct_get(x, k), v = ct_get(y, k);
    if (tol ? !(u == v || (u != u && v != v) || fabs(u - v) <= tol * (fabs(v) > 1 ? fabs(v) : 1))
            : !(u == v || (u != u && v != v)) || signbit(u) != signbit(v))
      return 0;
  }
  return 1;
}
static ct_tensor *nn_strided_copy(ct_tensor *t) { /* same values, every other element of a twice-as-long buffer */
  ct_tensor *wide = ct_zeros(CT_DIMS(t->numel * 2), (ct_dtype)t->dtype), *v = ct_slice(wide, 0, 0, t->numel * 2, 2);
  if (!v || ct_copy_(v, ct_reshape(t, CT_DIMS(t->numel))) != CT_OK) return NULL;
  return v;
}
/* layer_norm's one-pass host path (contiguous f32/f64, recording or not)
 * gives the composite's bits: against the same values in a strided layout
 * (which takes the composite), every weight/bias combination, 7 rows (a
 * block of 4 and a tail) of 1 to 1000 elements, two normalized dims, and
 * values far from zero mean */
TEST(nn_layer_norm_fused_matches_composite) {
  static const int64_t ns[] = {1, 3, 8, 64, 257, 1000};
  static const ct_dtype dts[2] = {CT_F32, CT_F64};
  int i, k, wb;
  for (k = 0; k < 2; k++)
    for (i = 0; i < (int)(sizeof ns / sizeof ns[0]); i++)
      for (wb = 0; wb < 4; wb++) CT_SCOPE {
          int64_t n = ns[i], ln[1];
          double eps = wb == 3 ? 0.5 : 1e-5;
          ct_tensor *x = nn_t(CT_DIMS(7, n), dts[k], 2.0, 5.0, 11 + (unsigned)i), *xs = nn_strided_copy(x);
          ct_tensor *w = wb & 1 ? nn_t(CT_DIMS(n), dts[k], -2.0, 2.0, 5) : NULL, *b = wb & 2 ? nn_t(CT_DIMS(n), dts[k], -1.0, 1.0, 6) : NULL;
          ct_tensor *fast, *general;
          ln[0] = n;
          xs = xs ? ct_view(xs, CT_DIMS(7, n)) : NULL;
          CHECK(xs && !ct_is_contiguous(xs));
          fast = ct_layer_norm(x, 1, ln, w, b, eps);
          general = ct_layer_norm(xs, 1, ln, w, b, eps);
          CHECK(nn_bits_equal(fast, general));
          if (w) { /* recording: same values, and a gradient */
            ct_tensor *wg = ct_detach(w), *y;
            ct_set_requires_grad(wg, true);
            y = ct_layer_norm(x, 1, ln, wg, b, eps);
            CHECK(nn_bits_equal(y, general) && y && ct_requires_grad(y));
            CHECK(y && ct_backward(ct_sum(y)) == CT_OK && ct_grad(wg) != NULL);
            CT_NO_GRAD { CHECK(nn_bits_equal(ct_layer_norm(x, 1, ln, wg, b, eps), general)); }
          }
        }
  CT_SCOPE { /* two normalized dims; a 0-row input (the composite) */
    int64_t ln[2] = {4, 5};
    ct_tensor *x = nn_t(CT_DIMS(2, 3, 4, 5), CT_F32, -3.0, 3.0, 21), *w = nn_t(CT_DIMS(4, 5), CT_F32, 0.5, 1.5, 22);
    ct_tensor *xs = nn_strided_copy(x), *e = ct_empty(CT_DIMS(0, 4, 5), CT_F32), *r;
    xs = xs ? ct_view(xs, CT_DIMS(2, 3, 4, 5)) : NULL;
    CHECK(xs && nn_bits_equal(ct_layer_norm(x, 2, ln, w, NULL, 1e-5), ct_layer_norm(xs, 2, ln, w, NULL, 1e-5)));
    r = ct_layer_norm(e, 2, ln, w, NULL, 1e-5);
    CHECK(r && r->numel == 0 && r->ndim == 3);
  }
}
/* layer_norm's own derivative: the fused host pass (backward without
 * create_graph, contiguous f32/f64) against the same formula as recorded ops
 * (the input in a strided layout, and create_graph on contiguous input):
 * d input, d weight and d bias agree to rounding, for 7 rows (a block of 4
 * and a tail) of 1 to 1000 elements, every weight/bias combination and two
 * normalized dims */
static double nn_rel_diff(ct_tensor *a, ct_tensor *b) {
  double worst = 0;
  int64_t i;
  if (!a || !b || a->numel != b->numel) return 1e30;
  for (i = 0; i < a->numel; i++) {
    double x = ct_get(a, i), y = ct_get(b, i), d = fabs(x - y) / (fabs(y) > 1 ? fabs(y) : 1);
    if (!(d <= worst)) worst = d;
  }
  return worst;
}
TEST(nn_layer_norm_backward_fused_matches_formula) {
  static const int64_t ns[] = {1, 3, 64, 257, 1000};
  int i, k, wb, mode;
  for (k = 0; k < 2; k++)
    for (i = 0; i < (int)(sizeof ns / sizeof ns[0]); i++)
      for (wb = 0; wb < 4; wb++) CT_SCOPE {
          ct_dtype d = k ? CT_F64 : CT_F32;
          double tol = k ? 1e-12 : 2e-5;
          int64_t n = ns[i], ln[1];
          ct_tensor *x0 = nn_t(CT_DIMS(7, n), d, 2.0, 5.0, 31 + (unsigned)i), *up = nn_t(CT_DIMS(7, n), d, -1.0, 1.0, 7);
          ct_tensor *w0 = wb & 1 ? nn_t(CT_DIMS(n), d, -2.0, 2.0, 5) : NULL, *b0 = wb & 2 ? nn_t(CT_DIMS(n), d, -1.0, 1.0, 6) : NULL;
          ct_tensor *gx[3] = {NULL, NULL, NULL}, *gw[3] = {NULL, NULL, NULL}, *gb[3] = {NULL, NULL, NULL};
          ln[0] = n;
          for (mode = 0; mode < 3; mode++) { /* 0 fused, 1 strided input (formula ops), 2 create_graph (formula ops) */
            ct_tensor *x = mode == 1 ? ct_view(nn_strided_copy(x0), CT_DIMS(7, n)) : ct_clone(x0);
            ct_tensor *w = w0 ? ct_clone(w0) : NULL, *b = b0 ? ct_clone(b0) : NULL, *y;
            CHECK(x && (mode != 1 || !ct_is_contiguous(x)));
            ct_set_requires_grad(x, true);
            if (w) ct_set_requires_grad(w, true);
            if (b) ct_set_requires_grad(b, true);
            y = ct_sum(ct_mul(ct_layer_norm(x, 1, ln, w, b, 1e-5), up));
            CHECK(y && ct_backward_ex(y, NULL, false, mode == 2) == CT_OK);
            gx[mode] = ct_detach(ct_grad(x));
            gw[mode] = w ? ct_detach(ct_grad(w)) : NULL;
            gb[mode] = b ? ct_detach(ct_grad(b)) : NULL;
            if (mode == 2) { /* recorded: double backward can follow; then the leaves' cycles broken */
              CHECK(ct_grad(x) && ct_requires_grad(ct_grad(x)));
              ct_set_grad(x, NULL);
              if (w) ct_set_grad(w, NULL);
              if (b) ct_set_grad(b, NULL);
            }
          }
          for (mode = 1; mode < 3; mode++) {
            CHECK(nn_rel_diff(gx[0], gx[mode]) < tol);
            if (w0) CHECK(nn_rel_diff(gw[0], gw[mode]) < tol);
            if (b0) CHECK(nn_rel_diff(gb[0], gb[mode]) < tol);
          }
        }
  CT_SCOPE { /* two normalized dims, fused against formula */
    int64_t ln[2] = {4, 5};
    ct_tensor *x = nn_t(CT_DIMS(2, 3, 4, 5), CT_F64, -3.0, 3.0, 21), *w = nn_t(CT_DIMS(4, 5), CT_F64, 0.5, 1.5, 22);
    ct_tensor *xs = ct_view(nn_strided_copy(x), CT_DIMS(2, 3, 4, 5)), *g[2] = {NULL, NULL}, *gwt[2] = {NULL, NULL};
    int m;
    for (m = 0; m < 2; m++) {
      ct_tensor *xi = m ? ct_detach(xs) : ct_clone(x), *wi = ct_clone(w);
      ct_set_requires_grad(xi, true), ct_set_requires_grad(wi, true);
      CHECK(ct_backward(ct_sum(ct_mul(ct_layer_norm(xi, 2, ln, wi, NULL, 1e-5), xi))) == CT_OK);
      g[m] = ct_grad(xi), gwt[m] = ct_grad(wi);
    }
    CHECK(nn_rel_diff(g[0], g[1]) < 1e-12 && nn_rel_diff(gwt[0], gwt[1]) < 1e-12 && gwt[0] && gwt[0]->ndim == 2);
  }
  for (k = 0; k < 4; k++) CT_SCOPE { /* one call gives both gradients: each asked alone gives the same bits */
      int64_t ln[1] = {64};
      ct_dtype d = k & 1 ? CT_F64 : CT_F32;
      int fused = k < 2; /* else create_graph: the formula ops */
      ct_tensor *x0 = nn_t(CT_DIMS(5, 64), d, -2.0, 3.0, 41), *w0 = nn_t(CT_DIMS(64), d, 0.5, 1.5, 42), *up = nn_t(CT_DIMS(5, 64), d, -1.0, 1.0, 43);
      ct_tensor *gx[3] = {NULL, NULL, NULL}, *gw[3] = {NULL, NULL, NULL};
      for (mode = 0; mode < 3; mode++) { /* 0 both, 1 input only, 2 weight only */
        ct_tensor *x = ct_clone(x0), *w = ct_clone(w0), *y;
        if (mode != 2) ct_set_requires_grad(x, true);
        if (mode != 1) ct_set_requires_grad(w, true);
        y = ct_sum(ct_mul(ct_layer_norm(x, 1, ln, w, NULL, 1e-5), up));
        CHECK(y && ct_backward_ex(y, NULL, false, !fused) == CT_OK);
        gx[mode] = ct_grad(x) ? ct_detach(ct_grad(x)) : NULL;
        gw[mode] = ct_grad(w) ? ct_detach(ct_grad(w)) : NULL;
        ct_set_grad(x, NULL), ct_set_grad(w, NULL);
      }
      CHECK(gx[0] && gw[0] && !gw[1] && !gx[2]);
      CHECK(nn_bits_equal(gx[0], gx[1]) && nn_bits_equal(gw[0], gw[2]));
    }
}
/* softmax's derivative: the fused host pass (backward without create_graph,
 * last dim, contiguous f32/f64) against the formula's recorded ops
 * (create_graph): the same bits, rows of 1 to 257; over another dim, and
 * with NaN and -inf in the input, the two agree as well */
TEST(nn_softmax_backward_fused_matches_formula) {
  static const int64_t ns[] = {1, 3, 32, 257};
  int i, k, mode, dim;
  for (k = 0; k < 2; k++)
    for (i = 0; i < (int)(sizeof ns / sizeof ns[0]); i++)
      for (dim = 0; dim < 3; dim++) CT_SCOPE { /* dims -1, 2 (the same) and 1 (composite both times) */
          ct_dtype d = k ? CT_F64 : CT_F32;
          int64_t n = ns[i], dd = dim == 0 ? -1 : dim == 1 ? 2 : 1;
          ct_tensor *x0 = nn_t(CT_DIMS(2, 5, n), d, -4.0, 4.0, 51 + (unsigned)i), *up = nn_t(CT_DIMS(2, 5, n), d, -1.0, 1.0, 52);
          ct_tensor *gx[2] = {NULL, NULL};
          if (i == 3) { /* special values: a NaN row and -inf entries */
            ct_set(x0, 3, -INFINITY), ct_set(x0, n + 1, NAN), ct_set(x0, 2 * n, -INFINITY);
          }
          for (mode = 0; mode < 2; mode++) { /* 0 fused, 1 create_graph (formula ops) */
            ct_tensor *x = ct_clone(x0), *y;
            ct_set_requires_grad(x, true);
            y = ct_sum(ct_mul(ct_softmax(x, dd, CT_DTYPE_NONE), up));
            CHECK(y && ct_backward_ex(y, NULL, false, mode == 1) == CT_OK);
            gx[mode] = ct_grad(x) ? ct_detach(ct_grad(x)) : NULL;
            ct_set_grad(x, NULL);
          }
          CHECK(gx[0] && gx[1] && nn_bits_equal(gx[0], gx[1]));
        }
}
TEST(nn_mse_loss_fused_matches_composite) {
  static const int64_t sizes[] = {1, 3, 8, 255, 256, 257, 1000, 4099};
  static const ct_dtype dts[2] = {CT_F32, CT_F64};
  int i, k, red;
  for (k = 0; k < 2; k++)
    for (i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) CT_SCOPE {
        int64_t n = sizes[i];
        ct_tensor *a = nn_t(CT_DIMS(n), dts[k], -3.0, 3.0, 7 + (unsigned)i), *b = nn_t(CT_DIMS(n), dts[k], -3.0, 3.0, 70 + (unsigned)i);
        ct_tensor *as = nn_strided_copy(a), *bs = nn_strided_copy(b);
        CHECK(as && bs && (n == 1 || !ct_is_contiguous(as))); /* (one element is contiguous in any layout) */
        for (red = 0; red < 3; red++) {
          ct_tensor *g = red ? ct_full(0, NULL, ct_float(0.7), dts[k]) : nn_t(CT_DIMS(n), dts[k], -1.0, 1.0, 99);
          CHECK(nn_bits_equal(ct_mse_loss(a, b, red), ct_mse_loss(as, bs, red)));
          CHECK(nn_bits_equal(ct_mse_loss_backward(g, a, b, red), ct_mse_loss_backward(g, as, bs, red)));
        }
      }
  CT_SCOPE { /* 2-D, empty, and a mismatched grad_output (the composite decides) */
    ct_tensor *a = nn_t(CT_DIMS(4, 5), CT_F32, -1.0, 1.0, 3), *b = nn_t(CT_DIMS(4, 5), CT_F32, -1.0, 1.0, 4);
    ct_tensor *e = ct_empty(CT_DIMS(0, 5), CT_F32), *r;
    CHECK(nn_bits_equal(ct_mse_loss(a, b, 1), ct_mse_loss(ct_t(ct_contiguous(ct_t(a))), ct_t(ct_contiguous(ct_t(b))), 1)) ||
          fabs(ct_get(ct_mse_loss(a, b, 1), 0) - ct_get(ct_mse_loss(ct_t(ct_contiguous(ct_t(a))), ct_t(ct_contiguous(ct_t(b))), 1), 0)) < 1e-6);
    r = ct_mse_loss(e, e, 1);
    CHECK(r && r->ndim == 0 && isnan(ct_get(r, 0)));
    r = ct_mse_loss(e, e, 2);
    CHECK(r && ct_get(r, 0) == 0);
    r = ct_mse_loss(e, e, 0);
    CHECK(r && r->numel == 0 && r->ndim == 2);
    r = ct_mse_loss_backward(ct_ones(CT_DIMS(5), CT_F32), a, b, 0); /* grad_output broadcasts: the composite */
    CHECK(r && r->ndim == 2 && r->numel == 20);
  }
}
