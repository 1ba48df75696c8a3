/* tests/test_views_inplace.c - autograd through views and in-place ops, as
 * PyTorch does it (autograd.h, Note [Views and in-place]): in-place on a base
 * regenerates its views' history, in-place on a view rebases its base
 * (CopySlices), PyTorch's refusals, differentiability by dtype, as_strided's
 * derivative. Expected values are PyTorch 1.13's for the same programs.
 * (Included after test_autograd.c in the unity build: uses its AGT_ helpers.) */

#define VI_X3(rg) vi_leaf3(rg)
static ct_tensor *vi_leaf3(bool rg) {
  ct_tensor *x = AGT_F64(CT_DIMS(3), 1, 2, 3);
  if (rg) ct_set_requires_grad(x, true);
  return x;
}

/* class 1: in-place on a view's base; the view regenerates its history */
TEST(views_inplace_on_base_regenerates_view_history) {
  CT_SCOPE {
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = ct_slice(y, 0, 0, 2, 1);
    CHECK_OK(ct_mul_scalar_(y, ct_float(3)));
    CHECK(ct_grad_fn_name(v) && !strcmp(ct_grad_fn_name(v), "AsStridedBackward0"));
    CHECK_OK(ct_backward(ct_sum(ct_mul(v, v))));
    AGT_CHECK_VALUES("y=x*1; v=y[0:2]; y*=3; (v*v).sum()", ct_grad(x), ((const double[]){18, 36, 0}), 3, 1e-12);
  }
  CT_SCOPE {
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = ct_slice(y, 0, 0, 2, 1);
    CHECK_OK(ct_mul_scalar_(y, ct_float(3)));
    CHECK_OK(ct_backward(ct_add(ct_sum(v), ct_sum(y))));
    AGT_CHECK_VALUES("v.sum() + y.sum()", ct_grad(x), ((const double[]){6, 6, 3}), 3, 1e-12);
  }
  CT_SCOPE { /* a view of a view, base modified through the other view */
    ct_tensor *x = AGT_F64(CT_DIMS(4), 1, 2, 3, 4), *y, *v, *w;
    ct_set_requires_grad(x, true);
    y = ct_mul_scalar(x, ct_float(1));
    v = ct_view(y, CT_DIMS(2, 2));
    w = ct_select(v, 0, 1);
    CHECK_OK(ct_mul_scalar_(w, ct_float(3)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, y))));
    AGT_CHECK_VALUES("view(2,2)[1] *= 3", ct_grad(x), ((const double[]){2, 4, 54, 72}), 4, 1e-12);
    CHECK(ct_grad_fn_name(v) && !strcmp(ct_grad_fn_name(v), "AsStridedBackward0"));
    CHECK(!strcmp(ct_grad_fn_name(y), "CopySlices"));
  }
  CT_SCOPE { /* a base that did not require grad gets history from an in-place op; its older views follow */
    ct_tensor *w = AGT_F64(CT_DIMS(1), 2), *y = ct_ones(CT_DIMS(3), CT_F64), *v = ct_slice(y, 0, 1, 3, 1);
    ct_set_requires_grad(w, true);
    CHECK(!ct_requires_grad(v));
    CHECK_OK(ct_mul_(y, w));
    CHECK(ct_requires_grad(v));
    CHECK_OK(ct_backward(ct_sum(ct_mul(v, v))));
    AGT_CHECK_VALUES("y=ones; v=y[1:]; y*=w; (v*v).sum()", ct_grad(w), ((const double[]){8}), 1, 1e-12);
  }
}

/* class 2: in-place on a view of a non-leaf; the base's history becomes CopySlices */
TEST(views_inplace_on_view_rebases_base) {
  CT_SCOPE {
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1));
    CHECK_OK(ct_mul_scalar_(ct_select(y, 0, 0), ct_float(2)));
    CHECK(!strcmp(ct_grad_fn_name(y), "CopySlices"));
    CHECK_OK(ct_backward(ct_sum(y)));
    AGT_CHECK_VALUES("y[0] *= 2", ct_grad(x), ((const double[]){2, 1, 1}), 3, 1e-12);
  }
  CT_SCOPE { /* twice through the same view */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = ct_slice(y, 0, 0, 2, 1);
    CHECK_OK(ct_mul_scalar_(v, ct_float(2)));
    CHECK_OK(ct_mul_scalar_(v, ct_float(3)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, y))));
    AGT_CHECK_VALUES("v *= 2; v *= 3", ct_grad(x), ((const double[]){72, 144, 6}), 3, 1e-12);
  }
  CT_SCOPE { /* filling rows of a buffer that does not require grad (buf[i] = h) */
    ct_tensor *x = VI_X3(true), *buf = ct_zeros(CT_DIMS(2, 3), CT_F64);
    CHECK_OK(ct_copy_(ct_select(buf, 0, 0), ct_mul_scalar(x, ct_float(2))));
    CHECK_OK(ct_copy_(ct_select(buf, 0, 1), ct_mul(x, x)));
    CHECK(ct_requires_grad(buf) && !strcmp(ct_grad_fn_name(buf), "CopySlices"));
    CHECK_OK(ct_backward(ct_sum(ct_mul(buf, buf))));
    AGT_CHECK_VALUES("buf[0] = 2x; buf[1] = x*x", ct_grad(x), ((const double[]){12, 48, 132}), 3, 1e-12);
  }
  CT_SCOPE { /* through a transpose, with another view of the base as the source */
    ct_tensor *x = ct_view(ct_arange(0, 6, 1, CT_F64), CT_DIMS(2, 3)), *y, *t;
    ct_set_requires_grad(x, true);
    y = ct_mul_scalar(x, ct_float(1));
    t = ct_t(y);
    CHECK_OK(ct_add_(ct_select(t, 0, 0), ct_mul_scalar(ct_select(t, 0, 1), ct_float(2))));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, y))));
    AGT_CHECK_VALUES("t[0] += 2 t[1]", ct_grad(x), ((const double[]){4, 10, 4, 22, 52, 10}), 6, 1e-12);
  }
  CT_SCOPE { /* double backward through a rebased view */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = ct_slice(y, 0, 1, 3, 1), *g = NULL;
    ct_backward_desc d;
    CHECK_OK(ct_mul_(y, x));
    memset(&d, 0, sizeof d);
    d.num_outputs = 1;
    d.outputs = (ct_tensor *[]){ct_sum(ct_mul(v, v))};
    d.create_graph = true;
    CHECK_OK(ct_autograd_grad(&d, 1, &x, &g));
    ct_keep(g); /* (autograd_grad's results are new references, not tracked) */
    AGT_CHECK_VALUES("d/dx sum(v^2), v = (x*x)[1:]", g, ((const double[]){0, 32, 108}), 3, 1e-12);
    CHECK_OK(ct_backward(ct_sum(g)));
    AGT_CHECK_VALUES("second order", ct_grad(x), ((const double[]){0, 48, 108}), 3, 1e-12);
    ct_release(g);
  }
}

/* PyTorch's refusals, each only when the op would be recorded */
TEST(views_inplace_refusals_match_pytorch) {
  CT_SCOPE {
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = NULL, *parts[3];
    CHECK_ERR(ct_mul_scalar_(ct_select(x, 0, 0), ct_float(2)), CT_ERR_STATE, "a view of a leaf tensor that requires grad");
    CHECK_ERR(ct_mul_scalar_(x, ct_float(2)), CT_ERR_STATE, "a leaf tensor that requires grad");
    CT_NO_GRAD { v = ct_slice(y, 0, 0, 2, 1); }
    CHECK(ct_requires_grad(v) && ct_is_leaf(v)); /* requires grad through its base, no history */
    CHECK_ERR(ct_mul_scalar_(v, ct_float(2)), CT_ERR_STATE, "created in no-grad mode and is being modified in place");
    CHECK(ct_unbind(y, 0, 3, parts) == 3);
    CHECK_ERR(ct_mul_scalar_(parts[0], ct_float(2)), CT_ERR_STATE, "returning multiple views");
    CHECK(ct_chunk(y, 2, 0, 2, parts) == 2);
    CHECK_ERR(ct_mul_scalar_(ct_select(parts[0], 0, 0), ct_float(2)), CT_ERR_STATE, "returning multiple views");
    CHECK(ct_unbind(y, 0, 3, parts) == 3);
    CT_NO_GRAD { CHECK_OK(ct_mul_scalar_(parts[1], ct_float(2))); } /* not recorded: allowed */
  }
  CT_SCOPE { /* a no-grad view used after its base changed in place with grad mode on */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = NULL;
    CT_NO_GRAD { v = ct_slice(y, 0, 0, 2, 1); }
    CHECK_OK(ct_mul_scalar_(y, ct_float(2)));
    CHECK_ERR(ct_mul(v, v), CT_ERR_STATE, "its base or another view of its base has been modified in place");
  }
  CT_SCOPE { /* an inference-mode view modified outside it */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = NULL;
    CT_INFERENCE_MODE { v = ct_slice(y, 0, 0, 2, 1); }
    CHECK_ERR(ct_mul_scalar_(v, ct_float(2)), CT_ERR_STATE, "created in inference mode");
  }
  CT_SCOPE { /* nothing requires grad: in-place on any view is plain data */
    ct_tensor *y = ct_ones(CT_DIMS(3), CT_F64), *parts[3], *v = NULL;
    CHECK(ct_unbind(y, 0, 3, parts) == 3);
    CHECK_OK(ct_mul_scalar_(parts[0], ct_float(2)));
    CT_NO_GRAD { v = ct_slice(y, 0, 1, 3, 1); }
    CHECK_OK(ct_mul_scalar_(v, ct_float(3)));
    AGT_CHECK_VALUES("y", y, ((const double[]){2, 3, 3}), 3, 0);
  }
  CT_SCOPE { /* a view made in no-grad mode of a tensor that requires grad: its gradient goes nowhere */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(1)), *v = NULL;
    CT_NO_GRAD { v = ct_slice(y, 0, 0, 2, 1); }
    CHECK_OK(ct_backward(ct_sum(ct_mul(v, v))));
    CHECK(ct_grad(x) == NULL && ct_grad(v) == NULL);
  }
}

/* class 3: differentiability follows dtype */
TEST(views_integer_results_never_require_grad) {
  static const ct_dtype ints[] = {CT_I64, CT_I32, CT_U8, CT_BOOL};
  int i;
  CT_SCOPE {
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(2)), *i64 = ct_ones(CT_DIMS(3), CT_I64);
    for (i = 0; i < 4; i++) {
      ct_tensor *c = ct_to_dtype(x, ints[i]);
      CHECK(c && !ct_requires_grad(c) && ct_is_leaf(c) && ct_grad_fn_name(c) == NULL);
      CHECK_ERR(ct_backward(ct_sum(ct_to_dtype(c, CT_F64))), CT_ERR_STATE, "does not require grad");
    }
    CHECK(!ct_requires_grad(ct_argmax(x, 0, false)) && !ct_requires_grad(ct_gt_scalar(x, ct_float(0))));
    CHECK_ERR(ct_set_requires_grad(i64, true), CT_ERR_DTYPE, "floating point");
    CHECK_OK(ct_set_requires_grad(y, true)); /* already requires grad: a no-op */
    CHECK_ERR(ct_set_requires_grad(y, false), CT_ERR_STATE, "leaf");
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_to_dtype(ct_to_dtype(x, CT_F32), CT_F64), y))));
    AGT_CHECK_VALUES("cast through f32", ct_grad(x), ((const double[]){4, 8, 12}), 3, 1e-6);
  }
}

/* class 4: as_strided's derivative, overlapping geometries included */
static ct_tensor *vi_as_strided_fn(ct_tensor *const *in, void *ctx) {
  const int64_t *g = (const int64_t *)ctx; /* ndim, sizes[ndim], strides[ndim], offset; then the same again, or -1 */
  int n = (int)g[0];
  ct_tensor *y = ct_as_strided(in[0], n, g + 1, n, g + 1 + n, g[1 + 2 * n]);
  g += 2 + 2 * n;
  if (y && g[0] >= 0) {
    n = (int)g[0];
    y = ct_as_strided(ct_mul_scalar(y, ct_float(1.5)), n, g + 1, n, g + 1 + n, g[1 + 2 * n]);
  }
  return y ? ct_mul(y, y) : NULL; /* nonlinear, so gradgradcheck sees the second derivative */
}
TEST(views_as_strided_backward_gradcheck) {
  static const int64_t cases[][16] = {
      {2, 3, 2, 1, 1, 0, -1},            /* overlapping output */
      {2, 2, 2, 2, 1, 1, -1},            /* plain window with an offset */
      {2, 2, 3, 0, 1, 0, -1},            /* broadcast (stride 0) output */
      {1, 0, 1, 0, -1},                  /* empty */
      {2, 3, 2, 1, 1, 0, 1, 2, 2, 1, -1}, /* overlapping input of the second as_strided */
      {3, 2, 1, 2, 2, 2, 1, 0, -1},      /* size-1 dims */
  };
  size_t c;
  CT_SCOPE {
    ct_tensor *x = ct_from_array(CT_DIMS(6), CT_F64, (const double[]){0.5, -1.25, 2, 0.75, -0.5, 1.5});
    ct_set_requires_grad(x, true);
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      ct_status st = ct_gradcheck(vi_as_strided_fn, (void *)cases[c], 1, &x, NULL);
      if (st != CT_OK) harness_fail(__FILE__, __LINE__, "case %d gradcheck: %s", (int)c, ct_last_error_message());
      st = ct_gradgradcheck(vi_as_strided_fn, (void *)cases[c], 1, &x, NULL);
      if (st != CT_OK) harness_fail(__FILE__, __LINE__, "case %d gradgradcheck: %s", (int)c, ct_last_error_message());
      ct_clear_error();
    }
  }
  CT_SCOPE { /* PyTorch's values */
    ct_tensor *x = AGT_F64(CT_DIMS(4), 1, 2, 3, 4), *y, *z;
    ct_set_requires_grad(x, true);
    y = ct_as_strided(x, CT_DIMS(3, 2), CT_DIMS(1, 1), 0);
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, ct_view(ct_arange(0, 6, 1, CT_F64), CT_DIMS(3, 2))))));
    AGT_CHECK_VALUES("as_strided((3,2),(1,1))", ct_grad(x), ((const double[]){0, 3, 7, 5}), 4, 1e-12);
    CHECK_OK(ct_set_grad(x, NULL));
    z = ct_as_strided(ct_as_strided(x, CT_DIMS(3, 2), CT_DIMS(1, 1), 0), CT_DIMS(2), CT_DIMS(2), 1);
    CHECK_OK(ct_backward(ct_sum(ct_mul(z, AGT_F64(CT_DIMS(2), 5, 7)))));
    AGT_CHECK_VALUES("as_strided of an overlapping as_strided", ct_grad(x), ((const double[]){0, 5, 0, 7}), 4, 1e-12);
  }
}

/* retain_grad and tensor hooks (PyTorch 1.13's order and placement) */
static ct_status vi_times10(ct_tensor *g, ct_tensor **replace, void *ctx) {
  (void)ctx;
  *replace = ct_mul_scalar(g, ct_float(10));
  return *replace ? CT_OK : ct_last_error();
}
static ct_status vi_plus1(ct_tensor *g, ct_tensor **replace, void *ctx) {
  ++*(int *)ctx;
  *replace = ct_add_scalar(g, ct_float(1));
  return *replace ? CT_OK : ct_last_error();
}
static ct_status vi_fails(ct_tensor *g, ct_tensor **replace, void *ctx) {
  (void)g, (void)replace, (void)ctx;
  return ct_fail(CT_ERR_INVALID, "vi_fails", "hook refused");
}
TEST(views_retain_grad_and_hooks) {
  int calls = 0;
  CT_SCOPE { /* retain, then a hook: .grad is the gradient before the hook */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(2));
    CHECK_OK(ct_retain_grad(y));
    CHECK_OK(ct_register_hook(y, vi_times10, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, y))));
    AGT_CHECK_VALUES("y.grad", ct_grad(y), ((const double[]){4, 8, 12}), 3, 1e-12);
    AGT_CHECK_VALUES("x.grad", ct_grad(x), ((const double[]){80, 160, 240}), 3, 1e-12);
  }
  CT_SCOPE { /* a hook, then retain: .grad is after the hook */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(2));
    CHECK_OK(ct_register_hook(y, vi_times10, NULL));
    CHECK_OK(ct_retain_grad(y));
    CHECK(ct_retains_grad(y) && !ct_retains_grad(x));
    CHECK_OK(ct_backward_ex(ct_sum(ct_mul(y, y)), NULL, true, false));
    AGT_CHECK_VALUES("y.grad", ct_grad(y), ((const double[]){40, 80, 120}), 3, 1e-12);
  }
  CT_SCOPE { /* retained grads accumulate; retain follows an in-place op; hooks stay with the old history */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(2)), *l = NULL;
    CHECK_OK(ct_retain_grad(y));
    l = ct_sum(ct_mul(y, y));
    CHECK_OK(ct_backward_ex(l, NULL, true, false));
    CHECK_OK(ct_backward(l));
    AGT_CHECK_VALUES("accumulated y.grad", ct_grad(y), ((const double[]){8, 16, 24}), 3, 1e-12);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_set_grad(y, NULL));
    CHECK_OK(ct_register_hook(y, vi_times10, NULL));
    CHECK_OK(ct_mul_scalar_(y, ct_float(3)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, y))));
    AGT_CHECK_VALUES("y.grad after y *= 3", ct_grad(y), ((const double[]){12, 24, 36}), 3, 1e-12);
    AGT_CHECK_VALUES("x.grad through the old history's hook", ct_grad(x), ((const double[]){720, 1440, 2160}), 3, 1e-9);
  }
  CT_SCOPE { /* leaf hooks run before accumulation, not for autograd_grad; two hooks in order */
    ct_tensor *x = VI_X3(true), *g = NULL, *y;
    ct_backward_desc d;
    CHECK_OK(ct_register_hook(x, vi_plus1, &calls));
    CHECK_OK(ct_register_hook(x, vi_times10, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mul(x, x))));
    AGT_CHECK_VALUES("(2x + 1) * 10", ct_grad(x), ((const double[]){30, 50, 70}), 3, 1e-12);
    CHECK(calls == 1);
    memset(&d, 0, sizeof d);
    d.num_outputs = 1;
    d.outputs = (ct_tensor *[]){ct_sum(ct_mul(x, x))};
    CHECK_OK(ct_autograd_grad(&d, 1, &x, &g));
    AGT_CHECK_VALUES("autograd_grad: before hooks", g, ((const double[]){2, 4, 6}), 3, 1e-12);
    ct_release(g);
    y = ct_sum(ct_mul_scalar(x, ct_float(2))); /* a hook on the root */
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_register_hook(y, vi_times10, NULL));
    CHECK_OK(ct_backward(y));
    AGT_CHECK_VALUES("root hook", ct_grad(x), ((const double[]){210, 210, 210}), 3, 1e-12);
  }
  CT_SCOPE { /* errors */
    ct_tensor *x = VI_X3(false), *w = VI_X3(true), *y = ct_mul(w, w);
    CHECK_ERR(ct_register_hook(x, vi_times10, NULL), CT_ERR_STATE, "doesn't require gradient");
    CHECK_ERR(ct_retain_grad(x), CT_ERR_STATE, "requires_grad=false");
    CHECK_OK(ct_retain_grad(w)); /* a leaf: no-op */
    CHECK_OK(ct_register_hook(y, vi_fails, NULL));
    CHECK_ERR(ct_backward(ct_sum(y)), CT_ERR_INVALID, "hook refused");
  }
  CT_SCOPE { /* a retaining tensor that dies before backward leaves no dangling entry */
    ct_tensor *x = VI_X3(true), *y = ct_mul_scalar(x, ct_float(2)), *z = ct_keep(ct_mul(y, y)), *l;
    CHECK_OK(ct_retain_grad(z));
    l = ct_sum(z);
    ct_release(z);
    CHECK_OK(ct_backward(l));
    AGT_CHECK_VALUES("x.grad", ct_grad(x), ((const double[]){8, 16, 24}), 3, 1e-12);
  }
}

/* Every boxed path: a boxed fallback sees ops returning Tensor[] and tuples;
 * out-parameters are NULL after an error. */
static int vi_boxed_calls;
static ct_status vi_counting_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  (void)self;
  vi_boxed_calls++;
  return ct_redispatch_boxed(op, ks & ct_keys_below(CT_KEY_CUSTOM3), stack);
}
TEST(views_boxed_fallback_sees_list_and_tuple_ops) {
  ct_tensor *parts[4] = {NULL, NULL, NULL, NULL}, *idx = (ct_tensor *)0x1;
  CT_SCOPE {
    ct_tensor *x = ct_view(ct_arange(0, 6, 1, CT_F64), CT_DIMS(2, 3)), *m = NULL;
    vi_boxed_calls = 0;
    CHECK_OK(ct_fallback(CT_KEY_CUSTOM3, ct_kernel_boxed(vi_counting_fallback, NULL)));
    CT_INCLUDE_KEYS(ct_keyset_of(CT_KEY_CUSTOM3)) {
      CHECK(ct_chunk(x, 2, 1, 4, parts) == 2);
      CHECK(parts[0] && parts[0]->sizes[1] == 2 && parts[1] && parts[1]->sizes[1] == 1 && ct_get(parts[1], 1) == 5);
      CHECK(ct_unbind(x, 0, 0, NULL) == 2); /* the count alone */
      CHECK(ct_split(x, 1, 0, 4, parts) == 2 && ct_get(parts[1], 0) == 3);
      m = ct_max_dim(x, 1, false, &idx);
      CHECK(m && idx && ct_get(m, 1) == 5 && ct_get(idx, 0) == 2);
      CHECK(ct_split(x, 1, 0, 1, parts) == -1); /* out too small: an error, outs cleared */
      CHECK(parts[0] == NULL);
      ct_clear_error();
      CHECK(ct_max_dim(x, 5, false, &idx) == NULL && idx == NULL);
      ct_clear_error();
    }
    CHECK(vi_boxed_calls >= 6);
    CHECK_OK(ct_fallback_remove(CT_KEY_CUSTOM3));
  }
  CT_SCOPE { /* boxed calls with malformed lists are errors, not crashes */
    const ct_op *cat = ct_op_find("cat");
    ct_value buf[4];
    ct_stack s;
    ct_stack_init(&s, buf, 4);
    CHECK(cat != NULL);
    ct_stack_push(&s, ct_value_tensor_list(NULL, 3));
    ct_stack_push(&s, ct_value_int(0));
    CHECK_ERR(ct_call_boxed(cat, &s), CT_ERR_INVALID, "without data");
    ct_stack_free(&s);
  }
}
