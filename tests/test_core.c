/* tests/test_core.c - tensors, storage, views, copies, scopes, allocator. */

static ct_tensor *core_iota(int ndim, const int64_t *sizes, ct_dtype dtype) {
  int64_t n = 1;
  int i;
  ct_tensor *flat, *shaped;
  for (i = 0; i < ndim; i++) n *= sizes[i];
  flat = ct_arange(0, (double)n, 1, dtype);
  shaped = ct_reshape(flat, ndim, sizes);
  ct_release(flat);
  return shaped;
}

static void core_check_values(const ct_tensor *t, const double *want, int64_t n) {
  int64_t i;
  CHECK(t && t->numel == n);
  if (!t || t->numel != n) return;
  for (i = 0; i < n; i++) CHECK_NEAR(ct_get(t, i), want[i], 1e-6);
}

TEST(dtype_sizes_names_and_promotion) {
  CHECK(ct_dtype_size(CT_F32) == 4 && ct_dtype_size(CT_BF16) == 2 && ct_dtype_size(CT_BOOL) == 1);
  CHECK(!strcmp(ct_dtype_name(CT_I64), "int64"));
  CHECK(ct_promote_types(CT_U8, CT_I32) == CT_I32);
  CHECK(ct_promote_types(CT_BOOL, CT_U8) == CT_U8);
  CHECK(ct_promote_types(CT_I64, CT_F16) == CT_F16);
  CHECK(ct_promote_types(CT_F16, CT_BF16) == CT_F32);
  CHECK(ct_promote_types(CT_F32, CT_F64) == CT_F64);
  CHECK(!ct_can_cast(CT_F32, CT_I64) && ct_can_cast(CT_I64, CT_F32) && !ct_can_cast(CT_I32, CT_BOOL));
  CHECK(ct_f16_to_f32(ct_f32_to_f16(1.5f)) == 1.5f);
  CHECK(ct_f16_to_f32(ct_f32_to_f16(65504.0f)) == 65504.0f);
  CHECK(isinf(ct_f16_to_f32(ct_f32_to_f16(1e6f))));
  CHECK(ct_f16_to_f32(ct_f32_to_f16(5.960464477539063e-08f)) == 5.960464477539063e-08f); /* smallest subnormal */
  CHECK(ct_bf16_to_f32(ct_f32_to_bf16(3.140625f)) == 3.140625f);
  CHECK(ct_f32_to_f16(1.0f + 1.0f / 2048) == 0x3c00); /* tie rounds to even */
}

TEST(factories) {
  ct_tensor *z = ct_zeros(CT_DIMS(2, 3), CT_F64), *o = ct_ones(CT_DIMS(4), CT_I32), *f = ct_full(CT_DIMS(2), ct_float(2.5), CT_F32);
  ct_tensor *a = ct_arange(1, 2, 0.25, CT_F32), *s = ct_scalar_tensor(ct_int(7), CT_I64), *zl = ct_zeros_like(o);
  ct_tensor *ol = ct_ones_like(z), *fl = ct_full_like(f, ct_bool(true)), *el = ct_empty_like(z);
  double va[] = {1, 1.25, 1.5, 1.75};
  CHECK(z->ndim == 2 && z->sizes[1] == 3 && z->dtype == CT_F64 && ct_get(z, 5) == 0);
  CHECK(o->numel == 4 && ct_get_int(o, 3) == 1);
  CHECK(ct_get(f, 1) == 2.5);
  core_check_values(a, va, 4);
  CHECK(s->ndim == 0 && s->numel == 1 && ct_get_int(s, 0) == 7);
  CHECK(zl->dtype == CT_I32 && ct_get(zl, 0) == 0 && ol->dtype == CT_F64 && ct_get(ol, 5) == 1);
  CHECK(ct_get(fl, 0) == 1 && el->ndim == 2 && ct_is_contiguous(el));
  ct_release(z), ct_release(o), ct_release(f), ct_release(a), ct_release(s);
  ct_release(zl), ct_release(ol), ct_release(fl), ct_release(el);
}

/* empty_like keeps a dense layout (PyTorch's preserve_format), else is contiguous; new_empty takes
 * self's dtype and device unless given; both are dispatched ops (aten's names, boxed callers) */
TEST(factories_like_and_new) {
  CT_SCOPE {
    ct_tensor *x = ct_transpose(ct_zeros(CT_DIMS(3, 4), CT_F64), 0, 1);
    ct_tensor *e = ct_empty_like(x), *c = ct_empty_like(ct_expand(ct_zeros(CT_DIMS(1, 4), CT_F32), CT_DIMS(3, 4)));
    ct_tensor *n = ct_new_empty(x, CT_DIMS(2, 5)), *nd = ct_new_empty_ex(x, CT_DIMS(2), CT_I32, CT_NO_DEVICE, false);
    ct_tensor *z = ct_zeros_like_ex(x, CT_I64, CT_NO_DEVICE, false);
    ct_stack st;
    ct_value buf[4], r;
    CHECK(e && e->ndim == 2 && e->sizes[0] == 4 && e->sizes[1] == 3 && e->strides[0] == 1 && e->strides[1] == 4 && !e->base);
    CHECK(e && e->dtype == CT_F64 && !ct_requires_grad(e));
    CHECK(c && ct_is_contiguous(c) && c->dtype == CT_F32);
    CHECK(n && n->ndim == 2 && n->sizes[1] == 5 && n->dtype == CT_F64 && ct_is_contiguous(n));
    CHECK(nd && nd->ndim == 1 && nd->dtype == CT_I32);
    CHECK(z && z->dtype == CT_I64 && z->strides[0] == 1 && ct_get(z, 11) == 0);
    ct_stack_init(&st, buf, 4);
    ct_stack_push(&st, ct_value_tensor(x));
    ct_stack_push(&st, ct_value_dtype(CT_DTYPE_NONE));
    ct_stack_push(&st, ct_value_device(CT_NO_DEVICE));
    ct_stack_push(&st, ct_value_none());
    CHECK_OK(ct_call_boxed(ct_op_find("ones_like"), &st));
    r = ct_stack_pop(&st);
    CHECK(r.tag == CT_VALUE_TENSOR && r.v.tensor->strides[0] == 1 && ct_get(r.v.tensor, 0) == 1);
    ct_value_release(&r);
    ct_stack_free(&st);
  }
}

static int core_deleted;
static void core_deleter(void *data, void *ctx) {
  (void)data;
  core_deleted += *(int *)ctx;
}

TEST(from_array_copies_and_from_blob_shares) {
  float buf[6] = {1, 2, 3, 4, 5, 6};
  int one = 1;
  ct_tensor *c = ct_from_array(CT_DIMS(2, 3), CT_F32, buf), *b, *bt;
  core_deleted = 0;
  b = ct_from_blob(buf, CT_DIMS(2, 3), NULL, CT_F32, core_deleter, &one);
  /* cppcheck-suppress unreadVariable ; read back through the blob b, which shares buf */
  buf[0] = 100;
  CHECK(ct_get(c, 0) == 1);   /* copied */
  CHECK(ct_get(b, 0) == 100); /* shared */
  bt = ct_transpose(b, 0, 1);
  ct_release(b);
  CHECK(core_deleted == 0); /* the view keeps the storage alive */
  CHECK(ct_get(bt, 1) == 4);
  ct_release(bt);
  CHECK(core_deleted == 1);
  ct_release(c);
}

TEST(views_share_storage_and_writes_show_through) {
  ct_tensor *base = core_iota(CT_DIMS(2, 3, 4), CT_F32);
  ct_tensor *t = ct_transpose(base, 0, 2); /* [4,3,2] */
  ct_tensor *p = ct_permute(base, CT_DIMS(2, 0, 1));
  ct_tensor *sel = ct_select(base, 1, -1); /* [2,4] */
  ct_tensor *sl = ct_slice(base, 2, 1, 100, 2); /* [2,3,2]: cols 1,3 */
  ct_tensor *nar = ct_narrow(base, 0, 1, 1);
  ct_tensor *flat = ct_view(base, CT_DIMS(-1));
  ct_tensor *uns = ct_unsqueeze(sel, 0), *sq = ct_squeeze(uns), *ex, *st;
  ct_tensor *row = ct_view(base, CT_DIMS(6, 4));
  CHECK(t->storage == base->storage && t->sizes[0] == 4 && t->strides[0] == 1 && t->strides[2] == 12);
  CHECK(ct_get(t, 1) == 12); /* t[0,0,1] = base[1,0,0] */
  CHECK(p->sizes[0] == 4 && p->sizes[1] == 2 && ct_get(p, 1) == 4);
  CHECK(sel->ndim == 2 && sel->offset == 8 && ct_get(sel, 4) == 20);
  CHECK(sl->sizes[2] == 2 && sl->strides[2] == 2 && ct_get(sl, 1) == 3);
  CHECK(nar->sizes[0] == 1 && nar->offset == 12);
  CHECK(flat->ndim == 1 && flat->numel == 24);
  CHECK(uns->ndim == 3 && uns->sizes[0] == 1 && sq->ndim == 2);
  ex = ct_expand(uns, CT_DIMS(3, 2, 4));
  CHECK(ex->strides[0] == 0 && ct_get(ex, 8) == ct_get(ex, 0));
  st = ct_as_strided(base, CT_DIMS(2, 2), CT_DIMS(5, 1), 1);
  CHECK(ct_get(st, 2) == 6);
  CHECK_OK(ct_set(sl, 0, -1)); /* writes show through every view */
  CHECK(ct_get(base, 1) == -1 && ct_get(flat, 1) == -1 && ct_get(row, 1) == -1);
  CHECK(base->storage->version == 1 && t->storage->version == 1); /* shared version counter */
  ct_release(base), ct_release(t), ct_release(p), ct_release(sel), ct_release(sl), ct_release(nar);
  ct_release(flat), ct_release(uns), ct_release(sq), ct_release(ex), ct_release(st), ct_release(row);
}

TEST(reshape_views_when_possible_and_copies_otherwise) {
  ct_tensor *a = core_iota(CT_DIMS(3, 4), CT_F32), *t = ct_t(a);
  ct_tensor *r1 = ct_reshape(a, CT_DIMS(2, 6)), *r2 = ct_reshape(t, CT_DIMS(12)), *f = ct_flatten(t, 0, -1);
  ct_tensor *ok = ct_view(t, CT_DIMS(4, 3, 1));
  CHECK(r1->storage == a->storage);
  CHECK(r2->storage != a->storage && ct_get(r2, 1) == 4); /* t is [4,3]; row-major order of t */
  CHECK(f->storage != a->storage && ct_get(f, 3) == 1);
  CHECK(ok && ok->storage == a->storage);
  ct_release(a), ct_release(t), ct_release(r1), ct_release(r2), ct_release(f), ct_release(ok);
}

TEST(copy_between_strides_and_dtypes) {
  ct_tensor *a = core_iota(CT_DIMS(2, 3), CT_F32), *t = ct_t(a);
  ct_tensor *d = ct_empty(CT_DIMS(3, 2), CT_F64), *h = ct_to_dtype(t, CT_F16), *i8 = ct_zeros(CT_DIMS(2, 3), CT_U8);
  ct_tensor *c = ct_contiguous(t), *same = ct_contiguous(a), *cl = ct_clone(t), *row = ct_from_array(CT_DIMS(3), CT_I64, (const int64_t[]){7, 8, 9});
  double want[] = {0, 3, 1, 4, 2, 5};
  CHECK_OK(ct_copy_(d, t));
  core_check_values(d, want, 6);
  core_check_values(h, want, 6);
  CHECK(h->dtype == CT_F16 && ct_is_contiguous(h));
  core_check_values(c, want, 6);
  CHECK(ct_is_contiguous(c) && c->storage != a->storage && same == a);
  core_check_values(cl, want, 6);
  CHECK_OK(ct_copy_(i8, row)); /* broadcast a row over both rows */
  CHECK(ct_get(i8, 3) == 7 && ct_get(i8, 5) == 9);
  CHECK_OK(ct_copy_(a, a)); /* self-copy is a no-op */
  ct_release(a), ct_release(t), ct_release(d), ct_release(h), ct_release(i8), ct_release(c), ct_release(same);
  ct_release(cl), ct_release(row);
}

/* copy_ between views of one storage, as PyTorch 1.13: the same elements in
 * the same layout (or no shared element) are fine; sharing some elements
 * otherwise is refused (x[1:].copy_(x[:-1])), as is a written-to tensor with
 * an expanded dim; views that are not dense cannot be checked exactly and are
 * allowed, read in full before writing (PyTorch: order-dependent) */
#define CORE_PARTIAL "copy_: unsupported operation: some elements of the input tensor and the written-to tensor refer to a single " \
                     "memory location. Please clone() the tensor before performing the operation."
#define CORE_INTERNAL "copy_: unsupported operation: more than one element of the written-to tensor refers to a single memory " \
                      "location. Please clone() the tensor before performing the operation."
TEST(copy_of_overlapping_views) {
  CT_SCOPE {
    ct_tensor *x = ct_arange(0, 6, 1, CT_F32), *m = ct_view(x, CT_DIMS(2, 3)), *one = ct_zeros(CT_DIMS(1), CT_F32);
    ct_tensor *z = ct_arange(0, 4, 1, CT_F32), *s;
    uint32_t ver = x->storage->version;
    /* partial overlap: refused, nothing written, version unchanged */
    CHECK_ERR(ct_copy_(ct_slice(x, 0, 1, 6, 1), ct_slice(x, 0, 0, 5, 1)), CT_ERR_INVALID, CORE_PARTIAL);
    CHECK_ERR(ct_copy_(ct_slice(x, 0, 0, 5, 1), ct_slice(x, 0, 1, 6, 1)), CT_ERR_INVALID, CORE_PARTIAL);
    core_check_values(x, (const double[]){0, 1, 2, 3, 4, 5}, 6);
    CHECK(x->storage->version == ver);
    CHECK_ERR(ct_copy_(ct_view(z, CT_DIMS(2, 2)), ct_t(ct_view(z, CT_DIMS(2, 2)))), CT_ERR_INVALID, CORE_PARTIAL); /* same bytes, other strides */
    CHECK_ERR(ct_copy_(z, ct_select(z, 0, 0)), CT_ERR_INVALID, CORE_PARTIAL); /* a broadcast element inside the destination */
    /* the same view, or another view of the same elements in the same layout: fine */
    CHECK_OK(ct_copy_(x, x));
    CHECK_OK(ct_copy_(ct_t(m), ct_t(m)));
    CHECK_OK(ct_copy_(m, ct_view(x, CT_DIMS(2, 3))));
    core_check_values(x, (const double[]){0, 1, 2, 3, 4, 5}, 6);
    /* no shared element: fine */
    CHECK_OK(ct_copy_(ct_slice(x, 0, 0, 3, 1), ct_slice(x, 0, 3, 6, 1)));
    core_check_values(x, (const double[]){3, 4, 5, 3, 4, 5}, 6);
    CHECK_OK(ct_copy_(ct_slice(z, 0, 1, 4, 1), ct_select(z, 0, 0)));
    CHECK_OK(ct_copy_(ct_slice(z, 0, 1, 4, 1), ct_slice(z, 0, 0, 1, 1)));
    core_check_values(z, (const double[]){0, 0, 0, 0}, 4);
    /* not dense: allowed (x[::2].copy_(x[1::2]); a strided destination over a contiguous source) */
    x = ct_arange(0, 6, 1, CT_F32);
    CHECK_OK(ct_copy_(ct_slice(x, 0, 0, 6, 2), ct_slice(x, 0, 1, 6, 2)));
    core_check_values(x, (const double[]){1, 1, 3, 3, 5, 5}, 6);
    x = ct_arange(0, 5, 1, CT_F32);
    s = ct_as_strided(x, CT_DIMS(3), CT_DIMS(2), 0);
    CHECK_OK(ct_copy_(s, ct_slice(x, 0, 2, 5, 1)));
    core_check_values(x, (const double[]){2, 1, 3, 3, 4}, 5);
    /* a written-to tensor with an expanded dim: refused, whatever the source */
    CHECK_ERR(ct_copy_(ct_expand(one, CT_DIMS(3)), ct_arange(0, 3, 1, CT_F32)), CT_ERR_INVALID, CORE_INTERNAL);
    CHECK_ERR(ct_copy_(ct_expand(one, CT_DIMS(3)), ct_expand(one, CT_DIMS(3))), CT_ERR_INVALID, CORE_INTERNAL);
    CHECK_ERR(ct_copy_(ct_expand(one, CT_DIMS(3)), ct_expand(ct_zeros(CT_DIMS(1), CT_F32), CT_DIMS(3))), CT_ERR_INVALID, CORE_INTERNAL);
    s = ct_expand(one, CT_DIMS(3));
    CHECK_OK(ct_copy_(s, s)); /* but the very same tensor is a no-op */
    CHECK_OK(ct_copy_(ct_expand(one, CT_DIMS(1)), ct_ones(CT_DIMS(1), CT_F32))); /* size 1: one element */
    CHECK(ct_get(one, 0) == 1);
  }
}
#undef CORE_PARTIAL
#undef CORE_INTERNAL

TEST(to_array_and_item) {
  ct_tensor *a = core_iota(CT_DIMS(2, 2), CT_I32), *t = ct_t(a), *one = ct_scalar_tensor(ct_float(0.5), CT_F64);
  double out[4], v = 0;
  CHECK_OK(ct_to_array(t, CT_F64, out));
  CHECK(out[0] == 0 && out[1] == 2 && out[2] == 1 && out[3] == 3);
  CHECK_OK(ct_item(one, &v));
  CHECK(v == 0.5);
  ct_release(a), ct_release(t), ct_release(one);
}

TEST(zero_size_and_zero_dim_tensors) {
  ct_tensor *e = ct_zeros(CT_DIMS(0, 3), CT_F32), *s = ct_scalar_tensor(ct_float(2), CT_F32);
  ct_tensor *ee = ct_add(e, e), *es = ct_add(e, s), *ss = ct_mul(s, s), *sum = ct_sum(e), *v = ct_view(e, CT_DIMS(3, 0, 5));
  CHECK(ee && ee->numel == 0 && ee->sizes[0] == 0 && ee->sizes[1] == 3);
  CHECK(es && es->numel == 0);
  CHECK(ss && ss->ndim == 0 && ct_get(ss, 0) == 4);
  CHECK(sum && sum->ndim == 0 && ct_get(sum, 0) == 0);
  CHECK(v && v->ndim == 3 && v->sizes[2] == 5 && v->numel == 0);
  CHECK_ERR(ct_view(e, CT_DIMS(3, 0, -1)), CT_ERR_SHAPE, "is invalid for input of size 0"); /* ambiguous -1 */
  ct_release(e), ct_release(s), ct_release(ee), ct_release(es), ct_release(ss), ct_release(sum), ct_release(v);
}

static ct_tensor *core_scoped_relu_add(ct_tensor *x, ct_tensor *w, ct_tensor *b) {
  CT_SCOPE {
    ct_tensor *y = ct_relu(ct_add(ct_mm(x, w), b));
    return ct_keep(y); /* `return` inside the scope: cleanup still runs */
  }
  return NULL;
}

TEST(temporaries_scope_releases_chains_and_keep_escapes) {
  ct_tensor *x = ct_ones(CT_DIMS(2, 3), CT_F32), *w = ct_full(CT_DIMS(3, 2), ct_float(-1), CT_F32);
  ct_tensor *b = ct_full(CT_DIMS(2), ct_float(4), CT_F32), *kept = NULL, *y;
  int64_t before = ct_memory_stats_get().live_tensors;
  CT_SCOPE {
    ct_tensor *t = ct_add(ct_mul(x, x), x); /* two temporaries */
    CHECK(ct_get(t, 0) == 2);
    CT_SCOPE { /* nested: keep hands the tensor to the outer scope */
      kept = ct_keep(ct_sub(t, x));
    }
    CHECK(ct_memory_stats_get().live_tensors == before + 3);
  }
  CHECK(ct_memory_stats_get().live_tensors == before); /* the outer scope released kept too */
  CT_SCOPE {
    kept = ct_keep(ct_neg(x)); /* escapes to the caller */
  }
  CHECK(ct_memory_stats_get().live_tensors == before + 1 && ct_get(kept, 0) == -1);
  ct_release(kept);
  y = core_scoped_relu_add(x, w, b);
  CHECK(y && ct_get(y, 0) == 1 && ct_memory_stats_get().live_tensors == before + 1);
  ct_release(y);
  ct_release(x), ct_release(w), ct_release(b);
}

TEST(guards_nest_and_restore_exactly) {
  ct_keyset k1 = ct_keyset_of(CT_KEY_CUSTOM1), k2 = ct_keyset_of(CT_KEY_CUSTOM2);
  ct_guard g;
  CHECK(ct_is_grad_enabled());
  CT_NO_GRAD {
    CHECK(!ct_is_grad_enabled());
    CT_ENABLE_GRAD { CHECK(ct_is_grad_enabled()); }
    CHECK(!ct_is_grad_enabled());
  }
  CHECK(ct_is_grad_enabled());
  CT_EXCLUDE_KEYS(k1) {
    CT_EXCLUDE_KEYS(k1 | k2) { CHECK(ct_local_keys_get().excluded == (k1 | k2)); }
    CHECK(ct_local_keys_get().excluded == k1); /* the inner guard removed only k2 */
  }
  CHECK(ct_local_keys_get().excluded == 0);
  ct_include_keys_begin(&g, k2); /* the explicit pair */
  CHECK(ct_local_keys_get().included == k2);
  ct_guard_end(&g);
  ct_guard_end(&g); /* idempotent */
  CHECK(ct_local_keys_get().included == 0);
  CT_INFERENCE_MODE { CHECK(ct_keyset_has(ct_local_keys_get().excluded, CT_KEY_AUTOGRAD_CPU) && !ct_is_grad_enabled()); }
  CHECK(ct_local_keys_get().excluded == 0 && ct_is_grad_enabled());
  CT_DEVICE_GUARD(ct_device_make(CT_DEVICE_PRIVATEUSE3, 1)) { CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE3) == 1); } /* (no backend: an index kept per thread) */
  CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE3) == 0);
  {
    int i;
    for (i = 0; i < 3; i++) {
      CT_EXCLUDE_KEYS(k1) {
        if (i == 1) break; /* leaves the guard (cleanup restores), not the loop */
      }
      CHECK(ct_local_keys_get().excluded == 0);
    }
    CHECK(i == 3);
  }
}

TEST(meta_tensors_compute_shapes_only) {
  ct_tensor *a = ct_empty_opts(CT_DIMS(4, 1, 3), ct_opts(CT_F32, CT_META));
  ct_tensor *b = ct_empty_opts(CT_DIMS(5, 1), ct_opts(CT_F64, CT_META));
  ct_tensor *c = ct_add(a, b), *m = ct_empty_opts(CT_DIMS(3, 7), ct_opts(CT_F32, CT_META)), *v = ct_view(a, CT_DIMS(12));
  ct_tensor *a2 = ct_view(a, CT_DIMS(4, 3)), *mm = ct_mm(a2, m), *s = ct_sum_dim(c, CT_DIMS(1), true);
  CHECK(c && c->device.type == CT_DEVICE_META && c->ndim == 3 && c->sizes[1] == 5 && c->dtype == CT_F64);
  CHECK(c && c->storage->data == NULL);
  CHECK(mm && mm->sizes[0] == 4 && mm->sizes[1] == 7);
  CHECK(s && s->ndim == 3 && s->sizes[1] == 1 && s->sizes[2] == 3);
  CHECK(v && v->numel == 12);
  ct_release(a), ct_release(b), ct_release(c), ct_release(m), ct_release(v), ct_release(a2), ct_release(mm), ct_release(s);
}

TEST(steady_state_loop_makes_no_system_allocations) {
#if CT_CPU_CACHE_LIMIT == 0 /* CT_DEBUG, and the valgrind build */
  harness_skip("this build caches no blocks: every allocation is a system allocation");
#else
  ct_tensor *x = ct_ones(CT_DIMS(8, 16), CT_F32), *w = ct_ones(CT_DIMS(16, 4), CT_F32), *b = ct_zeros(CT_DIMS(4), CT_F32);
  int64_t allocs = 0;
  int i;
  for (i = 0; i < 50; i++) {
    CT_SCOPE {
      ct_tensor *y = ct_sum(ct_relu(ct_add(ct_mm(x, w), b)));
      CHECK(ct_get(y, 0) == 8 * 4 * 16);
    }
    if (i == 0) allocs = ct_memory_stats_get().system_allocs;
  }
  CHECK(ct_memory_stats_get().system_allocs == allocs);
  CHECK(ct_memory_stats_get().peak_reserved_bytes >= ct_memory_stats_get().reserved_bytes);
  CHECK(ct_memory_stats_get().reserved_bytes >= ct_memory_stats_get().live_bytes);
  ct_release(x), ct_release(w), ct_release(b);
#endif
}

TEST(printer_shows_tensor_like_pytorch) {
  ct_tensor *a = core_iota(CT_DIMS(2, 2), CT_F32);
  char buf[128];
  ct_format(a, buf, sizeof buf);
  CHECK(!strcmp(buf, "tensor([[0., 1.],\n        [2., 3.]])"));
  ct_release(a);
}
