/* tests/test_fuzz_findings.c - regression tests of what the fuzzers found
 * (fuzz/README.md, "Findings"), one test per finding.
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */

/* Shape, strides, offset, dtype and storage of `t` equal those in `was`. */
static int ff_same_meta(const ct_tensor *t, const ct_tensor *was) {
  int i;
  if (t->ndim != was->ndim || t->dtype != was->dtype || t->offset != was->offset || t->storage != was->storage) return 0;
  for (i = 0; i < t->ndim; i++)
    if (t->sizes[i] != was->sizes[i] || t->strides[i] != was->strides[i]) return 0;
  return 1;
}

/* F12 (op_sequence): randint's out= resized its out before checking the
 * range against the out's dtype (and rand/randn/randint/randperm before
 * checking the generator's device), so a failed call left the out resized
 * with uninitialised contents. Every check now comes first. */
TEST(fuzz_factory_out_unchanged_on_failure) {
  CT_SCOPE {
    ct_tensor *o = ct_zeros(CT_DIMS(1), CT_BOOL), was = *o;
    ct_tensor *f = ct_zeros(CT_DIMS(2), CT_F32), wasf = *f;
    ct_generator *meta = ct_generator_new(CT_META);
    CHECK_ERR(ct_randint_out(o, 0, 5, CT_DIMS(3, 4), NULL), CT_ERR_INVALID, "random_ expects 'from' and 'to' - 1");
    CHECK(ff_same_meta(o, &was));
    CHECK_ERR(ct_randint_out(o, 3, 3, CT_DIMS(7), NULL), CT_ERR_INVALID, "less than 'to'");
    CHECK(ff_same_meta(o, &was));
    if (meta) {
      CHECK_ERR(ct_rand_out(f, CT_DIMS(5, 5), meta), CT_ERR_DEVICE, "generator");
      CHECK(ff_same_meta(f, &wasf));
      CHECK_ERR(ct_randint_out(f, 0, 5, CT_DIMS(9), meta), CT_ERR_DEVICE, "generator");
      CHECK(ff_same_meta(f, &wasf));
      CHECK_ERR(ct_randperm_out(f, 9, meta), CT_ERR_DEVICE, "generator");
      CHECK(ff_same_meta(f, &wasf));
      ct_generator_free(meta);
    }
    CHECK_OK(ct_randint_out(o, 0, 2, CT_DIMS(3, 4), NULL)); /* bool takes [0, 2) */
    CHECK(o->ndim == 2 && o->numel == 12);
  }
  ct_clear_error();
}

/* F12, second form: integer division by zero (floor_divide, remainder,
 * fmod, div with a rounding mode) was detected after the out was resized. */
TEST(fuzz_int_division_out_unchanged_on_failure) {
  int k;
  for (k = 0; k < 6; k++) {
    CT_SCOPE {
      int32_t av[6] = {1, 2, 3, 4, 5, 6};
      bool bv[2] = {true, false};
      ct_tensor *a = ct_from_array(CT_DIMS(3, 2), CT_I32, av), *b = ct_from_array(CT_DIMS(2), CT_BOOL, bv);
      ct_tensor *o = ct_zeros(0, NULL, CT_I64), was = *o;
      ct_status st = k == 0   ? ct_remainder_out(o, a, b)
                     : k == 1 ? ct_floor_divide_out(o, a, b)
                     : k == 2 ? ct_fmod_out(o, a, b)
                     : k == 3 ? ct_div_mode_out(o, a, b, "floor")
                     : k == 4 ? ct_div_mode_out(o, a, b, "trunc")
                              : ct_remainder_scalar_self_out(o, ct_int(7), b);
      CHECK(st == CT_ERR_INVALID && strstr(ct_last_error_message(), "division by zero"));
      CHECK(ff_same_meta(o, &was));
      ct_clear_error();
      bv[1] = true; /* no zero: the out is resized and written */
      b = ct_from_array(CT_DIMS(2), CT_BOOL, bv);
      CHECK_OK(k == 0 ? ct_remainder_out(o, a, b) : k == 1 ? ct_floor_divide_out(o, a, b) : ct_fmod_out(o, a, b));
      CHECK(o->ndim == 2 && o->numel == 6 && ct_get(o, 5) == (k == 1 ? 6 : 0));
    }
    ct_clear_error();
  }
}

/* D1 (differential): threshold_backward with a NaN self gave 0 in the
 * reference kernel (self > threshold) but grad in the BLIS backend and in
 * PyTorch (self <= threshold ? 0 : grad). */
TEST(fuzz_threshold_backward_nan_self) {
  static const ct_dtype dts[] = {CT_F32, CT_F64, CT_F16, CT_BF16};
  size_t k;
  for (k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    CT_SCOPE {
      float g[4] = {1, 2, 3, 4}, x[4] = {NAN, -1, 0, 5};
      ct_tensor *gt = ct_to_dtype(ct_from_array(CT_DIMS(4), CT_F32, g), dts[k]);
      ct_tensor *xt = ct_to_dtype(ct_from_array(CT_DIMS(4), CT_F32, x), dts[k]);
      ct_tensor *r = ct_threshold_backward(gt, xt, ct_float(0));
      CHECK(r && ct_get(r, 0) == 1 && ct_get(r, 1) == 0 && ct_get(r, 2) == 0 && ct_get(r, 3) == 4);
    }
  }
  CHECK(ct_last_error() == CT_OK);
}

/* D2 (differential): addmm / baddbmm with alpha 0 and an inf or NaN in the
 * product's operands: the reference kernel computes 0 * inf = NaN (as
 * PyTorch's own CPU gemm), the BLIS backend skipped the product (BLAS
 * semantics), so the result depended on the backend. The backend now hands
 * alpha 0 to the reference kernel. (The suite also runs with the BLIS
 * backend linked: tests/run_all.sh.) */
TEST(fuzz_addmm_alpha_zero_propagates_nonfinite) {
  static const ct_dtype dts[] = {CT_F32, CT_F64};
  size_t k;
  for (k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    CT_SCOPE {
      float m1v[2] = {INFINITY, 1}, m2v[2] = {1, 1}, sv[1] = {2};
      ct_tensor *m1 = ct_to_dtype(ct_from_array(CT_DIMS(1, 2), CT_F32, m1v), dts[k]);
      ct_tensor *m2 = ct_to_dtype(ct_from_array(CT_DIMS(2, 1), CT_F32, m2v), dts[k]);
      ct_tensor *self = ct_to_dtype(ct_from_array(CT_DIMS(1, 1), CT_F32, sv), dts[k]);
      ct_tensor *r = ct_addmm_ex(self, m1, m2, ct_int(1), ct_int(0));
      ct_tensor *b = ct_baddbmm_ex(ct_unsqueeze(self, 0), ct_unsqueeze(m1, 0), ct_unsqueeze(m2, 0), ct_int(1), ct_int(0));
      ct_tensor *finite = ct_addmm_ex(self, ct_ones_like(m1), m2, ct_int(1), ct_int(0));
      CHECK(r && isnan(ct_get(r, 0)));
      CHECK(b && isnan(ct_get(b, 0)));
      CHECK(finite && ct_get(finite, 0) == 2);
    }
  }
  CHECK(ct_last_error() == CT_OK);
}

/* F9 (op_sequence): a node saved its inputs by handle; an in-place op that
 * gives a saved input a history leading back to that node made a reference
 * cycle, never freed: x.mul_(x) on a non-leaf, x.addcmul_(g, x) on a tensor
 * that does not require grad. Inputs other than leaves requiring grad are
 * now saved as unlinked aliases (ctorch/autograd.h, ct__save). The runner
 * checks that no tensor is left alive; gradients still flow. */
TEST(fuzz_inplace_on_saved_input_no_cycle) {
  CT_SCOPE {
    ct_tensor *leaf = ct_ones(CT_DIMS(3), CT_F32), *x, *y, *g, *z;
    ct_set_requires_grad(leaf, true);
    x = ct_mul(leaf, ct_scalar_tensor(ct_float(2), CT_F32)); /* non-leaf */
    CHECK_OK(ct_mul_(x, x));
    CHECK(ct_get(x, 0) == 4);
    /* the saved operand was modified in place: backward refuses, as PyTorch */
    CHECK_ERR(ct_backward(ct_sum(x)), CT_ERR_STATE, "modified by an inplace operation");
    y = ct_zeros(CT_DIMS(3), CT_F32); /* no grad */
    g = ct_full(CT_DIMS(3), ct_float(3), CT_F32);
    ct_set_requires_grad(g, true);
    CHECK_OK(ct_addcmul_(y, g, y));
    CHECK(ct_requires_grad(y));
    /* a saved non-leaf still carries its history: d/dleaf sum(leaf*2 * leaf*2) = 8 leaf */
    z = ct_mul(leaf, ct_scalar_tensor(ct_float(2), CT_F32));
    CHECK_OK(ct_backward(ct_sum(ct_mul(z, z))));
    CHECK(ct_grad(leaf) && ct_get(ct_grad(leaf), 0) == 8);
    ct_set_grad(leaf, NULL);
  }
  ct_clear_error();
}

/* D3 (differential): the BLIS backend's plain-C outer product (k = 1)
 * scaled a row by alpha before the product, (alpha a) b, which overflows to
 * inf where alpha (a b), the reference kernel's order, is finite. */
TEST(fuzz_addmm_outer_product_alpha_order) {
  CT_SCOPE {
    float m1v[2] = {3e38f, 1}, m2v[1] = {0.5f}, sv[1] = {-0.75f};
    ct_tensor *m1 = ct_from_array(CT_DIMS(2, 1), CT_F32, m1v), *m2 = ct_from_array(CT_DIMS(1, 1), CT_F32, m2v);
    ct_tensor *self = ct_from_array(CT_DIMS(1), CT_F32, sv);
    ct_tensor *r = ct_addmm_ex(self, m1, m2, ct_int(1), ct_int(2));
    ct_tensor *r0 = ct_addmm_ex(self, m1, m2, ct_int(0), ct_int(2));
    CHECK(r && isfinite(ct_get(r, 0)) && fabs(ct_get(r, 0) - 3e38) < 1e32 && ct_get(r, 1) == 0.25);
    CHECK(r0 && isfinite(ct_get(r0, 0)) && ct_get(r0, 1) == 1);
  }
  CHECK(ct_last_error() == CT_OK);
}

/* F13 (op_sequence): a reduction of a zero-size tensor whose other sizes
 * multiply past int64 ([0, 0, 2^61+1, 2^61+1], all dims) multiplied the
 * reduced sizes before noticing the zero (signed overflow, UB). */
TEST(fuzz_reduce_zero_size_huge_dims) {
  int64_t big = ((int64_t)1 << 61) + 1;
  CT_SCOPE {
    ct_tensor *x = ct_empty(CT_DIMS(0, 0, big, big), CT_F64), *y = ct_empty(CT_DIMS(big, big, 0), CT_F32);
    ct_tensor *l = ct_logsumexp(x, 0, NULL, false), *s = ct_sum(x), *m = ct_mean(y);
    ct_tensor *a = ct_amax(x, CT_DIMS(2, 3), false);
    CHECK(l && l->ndim == 0 && isinf(ct_get(l, 0)) && ct_get(l, 0) < 0);
    CHECK(s && ct_get(s, 0) == 0);
    CHECK(m && isnan(ct_get(m, 0)));
    CHECK(a && a->ndim == 2 && a->numel == 0);
    /* kept dims beside an empty reduced one with huge strides: the rows' source offsets */
    a = ct_as_strided(ct_empty(CT_DIMS(0), CT_BOOL), CT_DIMS(33, 33, 0, big), CT_DIMS(INT64_MAX, big, big, 1), 0);
    CHECK(a != NULL);
    a = ct_sum_dim(a, CT_DIMS(-4, 2, 3), false);
    CHECK(a && a->ndim == 1 && a->sizes[0] == 33 && ct_get(a, 32) == 0);
  }
  ct_clear_error();
}

/* F4 (op_sequence): a CPU 0-dim out= (or self in place) passed the device
 * check of an op with a meta operand (the CPU 0-dim exception is for inputs
 * only), and the kernel then read the meta operand's missing data. */
TEST(fuzz_cpu_scalar_out_of_meta_op) {
  CT_SCOPE {
    ct_tensor *o = ct_zeros(0, NULL, CT_F32), *a = ct_zeros(0, NULL, CT_BF16);
    ct_tensor *m = ct_empty_opts(0, NULL, ct_opts(CT_I64, CT_META)), *m3 = ct_empty_opts(CT_DIMS(3), ct_opts(CT_F32, CT_META));
    ct_tensor *mm2 = ct_empty_opts(CT_DIMS(3, 3), ct_opts(CT_F32, CT_META)), *o2 = ct_zeros(CT_DIMS(3, 3), CT_F32);
    CHECK_ERR(ct_sub_out(o, a, m), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_maximum_out(o, a, m3), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_sub_(o, m3), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_sum_all_out(o, m3), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_neg_out(o, m3), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_mm_out(o2, mm2, mm2), CT_ERR_DEVICE, "device");
    CHECK(o->ndim == 0 && ct_get(o, 0) == 0);
    CHECK_OK(ct_sub_out(o, a, ct_ones(0, NULL, CT_F32))); /* CPU scalars among themselves */
    CHECK(ct_get(o, 0) == -1);
    CHECK(ct_sub(a, m3) && ct_add(m3, a)); /* a CPU 0-dim input still joins a meta op */
  }
  ct_clear_error();
}

/* D4 (differential): the BLIS library skips a zero of one operand (an axpy
 * with a zero scalar), so a NaN or inf of the other operand facing it gave a
 * finite element where IEEE arithmetic (the reference kernel) gives NaN. The
 * backend now hands operands with a NaN or inf to its plain-C kernel. The
 * product is large enough for BLIS when the backend is linked
 * (tests/run_all.sh runs this suite with it). */
TEST(fuzz_mm_nonfinite_facing_zero) {
  static const ct_dtype dts[] = {CT_F32, CT_F64};
  size_t k;
  for (k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    CT_SCOPE {
      ct_tensor *a = ct_ones(CT_DIMS(96, 96), dts[k]), *b = ct_ones(CT_DIMS(96, 96), dts[k]), *r, *bt;
      int64_t j;
      ct_set(a, 1, NAN);
      ct_set(a, 2 * 96 + 3, INFINITY);
      for (j = 0; j < 96; j++) ct_set(b, 96 + j, 0), ct_set(b, 3 * 96 + j, 0);
      r = ct_mm(a, b);
      bt = ct_baddbmm_ex(ct_zeros(CT_DIMS(1, 96, 96), dts[k]), ct_unsqueeze(a, 0), ct_unsqueeze(b, 0), ct_int(1), ct_int(1));
      CHECK(r && isnan(ct_get(r, 5)) && isnan(ct_get(r, 2 * 96 + 7)) && ct_get(r, 96) == 94);
      CHECK(bt && isnan(ct_get(bt, 5)) && isnan(ct_get(bt, 2 * 96 + 7)) && ct_get(bt, 96) == 94);
    }
  }
  CHECK(ct_last_error() == CT_OK);
}

/* F14 (op_sequence): matmul of zero-size batched operands whose other sizes
 * multiply past int64 ([2^61+1, 5, 2, 0]) flattened the batch dims with a
 * plain product (signed overflow, UB). Such a batch cannot be flattened into
 * one dim: a clear error. Zero-size batches that fit still work. */
TEST(fuzz_matmul_zero_size_huge_batch) {
  int64_t big = ((int64_t)1 << 61) + 1;
  CT_SCOPE {
    ct_tensor *x = ct_empty(CT_DIMS(big, 5, 2, 0), CT_BF16), *w = ct_empty(CT_DIMS(0, 3), CT_BF16);
    ct_tensor *e = ct_empty(CT_DIMS(4, 0, 2, 3), CT_F32), *f = ct_empty(CT_DIMS(3, 5), CT_F32), *r;
    CHECK_ERR(ct_matmul(x, x), CT_ERR_SIZE, "multiply past int64");
    CHECK_ERR(ct_matmul(x, w), CT_ERR_SIZE, "multiply past int64");
    CHECK_ERR(ct_matmul(ct_transpose(w, 0, 1), ct_transpose(x, -1, -2)), CT_ERR_SIZE, "multiply past int64");
    ct_clear_error();
    r = ct_matmul(e, f);
    CHECK(r && r->ndim == 4 && r->sizes[0] == 4 && r->sizes[1] == 0 && r->sizes[3] == 5);
    r = ct_matmul(e, ct_empty(CT_DIMS(4, 1, 3, 2), CT_F32));
    CHECK(r && r->ndim == 4 && r->sizes[0] == 4 && r->sizes[1] == 0 && r->sizes[2] == 2 && r->sizes[3] == 2);
  }
  ct_clear_error();
}

/* F15 (op_sequence): the class of F13 and F14 in the remaining places that
 * multiplied sizes of an empty tensor: kernels' stack views (cat of
 * [2^61+1, 2, 3, 0]), the pointwise iterator, softmax, nll_loss, group_norm,
 * printing, flattening. Run under UBSan by the sanitizer builds of the suite:
 * each op succeeds with an empty result or fails with an error, no overflow. */
TEST(fuzz_empty_tensor_huge_sizes_class) {
  int64_t big = ((int64_t)1 << 61) + 1;
  CT_SCOPE {
    ct_tensor *x = ct_empty(CT_DIMS(big, 2, 3, 0), CT_F32), *xs[2], *r;
    ct_tensor *t = ct_empty(CT_DIMS(big, 3, 0), CT_I64);
    char buf[256];
    xs[0] = x, xs[1] = x;
    r = ct_cat(2, xs, 2);
    CHECK(r && r->numel == 0 && r->sizes[2] == 6);
    r = ct_empty(CT_DIMS(big, 2, 3, 0), CT_F32); /* cat_out along the huge dim: its offsets are not computed */
    CHECK(ct_cat_out(r, 2, xs, 0) != CT_OK || r->numel == 0);
    ct_clear_error();
    r = ct_stack_tensors(2, xs, 0);
    CHECK(!r || r->numel == 0);
    ct_clear_error();
    CHECK((r = ct_add(x, x)) && r->numel == 0);
    CHECK((r = ct_softmax(x, 1, CT_DTYPE_NONE)) && r->numel == 0);
    CHECK((r = ct_log_softmax(x, 3, CT_DTYPE_NONE)) && r->numel == 0);
    r = ct_nll_loss(x, t, NULL, 0, -100);
    CHECK(r || ct_last_error() != CT_OK);
    ct_clear_error();
    r = ct_group_norm(x, 1, NULL, NULL, 1e-5);
    CHECK(r || ct_last_error() != CT_OK);
    ct_clear_error();
    r = ct_flatten(x, 0, 2);
    CHECK(r || ct_last_error() == CT_ERR_SIZE);
    ct_clear_error();
    CHECK(ct_format(x, buf, sizeof buf) > 0);
    CHECK((r = ct_contiguous(ct_transpose(x, 0, 3))) && r->numel == 0);
    { /* advanced indexing of the huge dims: the linear index of an empty self */
      int64_t iv[1] = {(int64_t)1 << 60};
      ct_tensor *ix[2];
      ix[0] = ix[1] = ct_from_array(CT_DIMS(1), CT_I64, iv);
      r = ct_empty(CT_DIMS(INT64_MAX, ((int64_t)1 << 61) + 3, 0), CT_BOOL);
      r = ct_index(r, 2, ix);
      CHECK(!r || r->numel == 0);
      ct_clear_error();
    }
  }
  ct_clear_error();
}

/* F16 (op_sequence): scatter / gather of a CPU 0-dim self with a meta src or
 * index ran the CPU loop over the meta operand's missing data (null pointer
 * arithmetic). Their kernels read every operand: one device, strictly. */
TEST(fuzz_scatter_gather_mixed_meta) {
  CT_SCOPE {
    ct_tensor *s = ct_zeros(0, NULL, CT_F32), *i = ct_zeros(0, NULL, CT_I64);
    ct_tensor *ms = ct_empty_opts(0, NULL, ct_opts(CT_F32, CT_META)), *mi = ct_empty_opts(0, NULL, ct_opts(CT_I64, CT_META));
    CHECK_ERR(ct_scatter(s, 0, i, ms), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_scatter_add(s, 0, i, ms), CT_ERR_DEVICE, "same device");
    CHECK_ERR(ct_gather(s, 0, mi), CT_ERR_DEVICE, "same device");
    CHECK(ct_scatter(ms, 0, mi, ms) != NULL); /* all meta: fine */
    /* F18: where(CPU 0-dim cond, CPU [3], meta 0-dim): the meta operand was checked against the CPU 0-dim cond */
    CHECK_ERR(ct_where(ct_ones(0, NULL, CT_BOOL), ct_ones(CT_DIMS(3), CT_F32), ms), CT_ERR_DEVICE, "same device");
    CHECK(ct_get(ct_scatter(s, 0, i, ct_ones(0, NULL, CT_F32)), 0) == 1);
  }
  ct_clear_error();
}

/* F20 (op_sequence): int64 avg_pool2d with divisor_override -1 divided
 * INT64_MIN by -1 (undefined; SIGFPE on x86). It wraps now (INT64_MIN),
 * as two's complement negation. */
TEST(fuzz_avg_pool_int_min_by_minus_one) {
  CT_SCOPE {
    int64_t v[4] = {INT64_MIN, 0, 0, 0};
    int64_t k[2] = {1, 1}, st[2] = {1, 1}, pd[2] = {0, 0};
    ct_tensor *x = ct_from_array(CT_DIMS(1, 1, 2, 2), CT_I64, v);
    ct_tensor *y = ct_avg_pool2d(x, 2, k, 2, st, 2, pd, false, true, -1);
    CHECK(y && ct_get_int(y, 0) == INT64_MIN && ct_get_int(y, 1) == 0);
  }
  CT_SCOPE { /* F21: pow's backward with the integer exponent INT64_MIN computed e - 1 in int64 */
    ct_tensor *x = ct_full(CT_DIMS(2), ct_float(1.0), CT_F32), *g;
    ct_set_requires_grad(x, true);
    CHECK_OK(ct_backward(ct_sum(ct_pow_scalar(x, ct_int(INT64_MIN)))));
    g = ct_grad(x);
    CHECK(g && ct_get(g, 0) == (double)INT64_MIN);
  }
  ct_clear_error();
}

/* F22 (op_sequence): an empty view may sit at any storage offset (PyTorch
 * skips the bounds check when no element is addressed: a slice past the end,
 * as_strided). The shape kernels (gather here) and the BLIS operand helpers
 * formed `data + offset * size` for it, an address far past the storage
 * (pointer overflow under UBSan). They now take ct_data_ptr, which gives an
 * empty view past its storage the storage's address. */
TEST(fuzz_empty_view_huge_offset) {
  CT_SCOPE {
    int64_t big = (int64_t)1 << 61, sz[4] = {4, 4, 1, 0}, st[4] = {1, 1, 1, 1}, vsz[2] = {3, 0}, vst[2] = {1, 1};
    ct_tensor *base = ct_zeros(CT_DIMS(4), CT_F64);
    ct_tensor *x = ct_as_strided(base, 4, sz, 4, st, big - 3), *r, *ix = ct_zeros(CT_DIMS(2, 0, 0, 0), CT_I64);
    ct_tensor *v = ct_as_strided(base, 2, vsz, 2, vst, big), *w = ct_zeros(CT_DIMS(0, 5), CT_F64);
    ct_tensor *xs[2];
    CHECK(x && x->numel == 0 && x->offset == big - 3 && ct_data_ptr(x) == base->storage->data);
    CHECK((r = ct_gather(x, 0, ix)) && r->numel == 0);
    CHECK((r = ct_scatter(x, 0, ix, x)) && r->numel == 0);
    CHECK((r = ct_index_select(x, 1, ct_zeros(CT_DIMS(3), CT_I64))) && r->numel == 0);
    CHECK((r = ct_flip(x, CT_DIMS(0, 3))) && r->numel == 0);
    CHECK((r = ct_roll(x, CT_DIMS(1), CT_DIMS(0))) && r->numel == 0);
    xs[0] = x, xs[1] = x;
    CHECK((r = ct_cat(2, xs, 3)) && r->numel == 0);
    CHECK((r = ct_mm(v, w)) && r->numel == 15 && ct_get(r, 0) == 0.0); /* empty inner dim: zeros */
    CHECK((r = ct_dot(ct_reshape(v, CT_DIMS(0)), ct_zeros(CT_DIMS(0), CT_F64))) && ct_get(r, 0) == 0.0);
  }
  ct_clear_error();
}

/* F23, F24 (op_sequence): index_add of a CPU 0-dim self with a meta 0-dim
 * source, and binary_cross_entropy of the same pair, ran CPU loops over the
 * meta tensor's missing data (null pointer arithmetic): the class of F4 and
 * F16, kernel by kernel. Fixed for every op at once by the common-device
 * check of the generated frontends and of ct_call_boxed (dispatch.h,
 * ct__device_joins), strict except in pointwise ops. */
TEST(fuzz_common_device_rule) {
  CT_SCOPE {
    int64_t iv[3] = {0, 0, 0};
    ct_tensor *self = ct_zeros(0, NULL, CT_F64), *idx = ct_from_array(CT_DIMS(3), CT_I64, iv);
    ct_tensor *src = ct_empty_opts(0, NULL, ct_opts(CT_F64, CT_META));
    CHECK_ERR(ct_index_add(self, 0, idx, src), CT_ERR_DEVICE, "found at least two devices, cpu and meta");
    CHECK_ERR(ct_index_copy(self, 0, idx, src), CT_ERR_DEVICE, "argument 'source' against argument 'self'");
    CHECK(ct_get(self, 0) == 0);
    /* F24: binary_cross_entropy of a CPU 0-dim self and a meta 0-dim target made its result on the CPU and read the
     * target's missing data: a 0-dim CPU tensor joins other devices only in pointwise ops (PyTorch's TensorIterator) */
    CHECK_ERR(ct_binary_cross_entropy(self, src, NULL, 1), CT_ERR_DEVICE, "cpu and meta");
    CHECK(ct_add(self, src) && ct_mul(src, self)); /* pointwise: the CPU scalar joins the meta op */
  }
  ct_clear_error();
}

/* F25 (op_sequence): constant_pad_nd of an empty tensor whose other sizes
 * are near INT64_MAX added the pads in int64 (signed overflow); circular
 * padding did the same. The padded size is now computed checked. */
TEST(fuzz_pad_size_overflow) {
  CT_SCOPE {
    ct_tensor *x = ct_empty(CT_DIMS(INT64_MAX, 0, INT64_MAX), CT_I32), *r;
    int64_t pad[4] = {2, -1, -1, 3}, big[2] = {3, 3};
    CHECK_ERR(ct_constant_pad_nd(x, 4, pad, ct_int(0)), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_pad(x, 2, big, "circular", NAN), CT_ERR_SIZE, "overflows int64"); /* (NAN: no value) */
    CHECK((r = ct_constant_pad_nd(ct_empty(CT_DIMS(4, 0, 5), CT_I32), 4, pad, ct_int(0))) && r->sizes[1] == 2 && r->sizes[2] == 6);
  }
  ct_clear_error();
}

/* F26 (op_sequence): clamp_min_out of a bool self into a bfloat16 0-dim out
 * resized the out, then failed to allocate its int64 intermediate: the
 * failed call left the out resized. Resizes of out= tensors are now logged
 * and undone when the outermost call fails (dispatch.h, ct__undo_settle). */
static size_t ff_alloc_limit;
static void *ff_limited_alloc(void *ctx, size_t n) {
  const ct_allocator *cpu = ct_cpu_allocator();
  (void)ctx;
  return n > ff_alloc_limit ? NULL : cpu->alloc(cpu->ctx, n);
}
static void ff_limited_free(void *ctx, void *p, size_t n) {
  const ct_allocator *cpu = ct_cpu_allocator();
  (void)ctx;
  cpu->free(cpu->ctx, p, n);
}
TEST(fuzz_failed_out_call_keeps_out) {
  static const ct_allocator limited = {"limited", ff_limited_alloc, ff_limited_free, NULL};
  const ct_allocator *before = ct_device_allocator(CT_DEVICE_CPU);
  CT_SCOPE {
    ct_tensor *self = ct_ones(CT_DIMS(1000), CT_BOOL), *out = ct_scalar_tensor(ct_float(0), CT_BF16);
    ct_storage *s0 = out->storage;
    ff_alloc_limit = 4000; /* the out's 2000 bytes fit, the 8000-byte int64 intermediate does not */
    CHECK_OK(ct_set_device_allocator(CT_DEVICE_CPU, &limited));
    CHECK_ERR(ct_clamp_min_out(out, self, ct_int(-1)), CT_ERR_OOM, "out of memory");
    CHECK_OK(ct_set_device_allocator(CT_DEVICE_CPU, before));
    CHECK(out->ndim == 0 && out->numel == 1 && out->storage == s0 && out->offset == 0);
    /* a call that succeeds keeps its resize */
    CHECK_OK(ct_clamp_min_out(out, self, ct_int(-1)));
    CHECK(out->ndim == 1 && out->sizes[0] == 1000 && out->storage != s0 && ct_get(out, 999) == 1);
  }
  ct_set_device_allocator(CT_DEVICE_CPU, ct_cpu_allocator());
  ct_clear_error();
}
