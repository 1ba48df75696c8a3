/* tests/test_errors.c - the error contract, walked over every public area.
 *
 * Each case of err_cases performs one bad call on shared fixture tensors and
 * must (1) return NULL or a negative ct_status, (2) set the expected code,
 * (3) leave a message "op: ..." that starts with the op's name and contains a
 * description of the problem, (4) leave the live tensor and storage counts
 * unchanged. Cases that pass a NULL tensor start with no pending error, so
 * the NULL itself is reported; the chain cases check that a NULL argument
 * passes an earlier error through unchanged.
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */
#include <stdlib.h>

/* ---- fixture ------------------------------------------------------------ */
typedef struct err_fixture {
  ct_tensor *x;    /* 2x3 float32, contiguous */
  ct_tensor *xt;   /* 3x2 float32: transpose of x (a non-contiguous view) */
  ct_tensor *y;    /* 2x4 float32: does not broadcast with x */
  ct_tensor *row;  /* 1x3 float32: broadcasts with x, but [1,3] != [2,3] */
  ct_tensor *v;    /* 6 float32: 1-D */
  ct_tensor *xi;   /* 2x3 int64 */
  ct_tensor *xit;  /* 3x2 int64 */
  ct_tensor *b;    /* 2x3 bool */
  ct_tensor *d8;   /* 8-D (every size 1): rank CT_MAX_DIMS */
  ct_tensor *m;    /* 2x3 float32 on the meta device */
  ct_tensor *one;  /* 1-element float32 on the meta device */
  ct_tensor *out;  /* 2x3 float32 target for out= */
  ct_tensor *outi; /* 2x3 int64 target for out= */
} err_fixture;

static int err_fixture_make(err_fixture *f) {
  static const int64_t ones8[8] = {1, 1, 1, 1, 1, 1, 1, 1};
  memset(f, 0, sizeof *f);
  f->x = ct_arange(0, 6, 1, CT_F32);
  if (f->x) {
    ct_tensor *t = ct_view(f->x, CT_DIMS(2, 3));
    ct_release(f->x);
    f->x = t;
  }
  f->xt = f->x ? ct_transpose(f->x, 0, 1) : NULL;
  f->y = ct_ones(CT_DIMS(2, 4), CT_F32);
  f->row = ct_ones(CT_DIMS(1, 3), CT_F32);
  f->v = ct_ones(CT_DIMS(6), CT_F32);
  f->xi = ct_ones(CT_DIMS(2, 3), CT_I64);
  f->xit = ct_ones(CT_DIMS(3, 2), CT_I64);
  f->b = ct_ones(CT_DIMS(2, 3), CT_BOOL);
  f->d8 = ct_zeros(8, ones8, CT_F32); /* values compared by the snapshots: not uninitialised */
  f->m = ct_empty_opts(CT_DIMS(2, 3), ct_opts(CT_F32, CT_META));
  f->one = ct_empty_opts(CT_DIMS(1), ct_opts(CT_F32, CT_META));
  f->out = ct_zeros(CT_DIMS(2, 3), CT_F32);
  f->outi = ct_zeros(CT_DIMS(2, 3), CT_I64);
  return f->x && f->xt && f->y && f->row && f->v && f->xi && f->xit && f->b && f->d8 && f->m && f->one && f->out &&
         f->outi;
}

static void err_fixture_free(err_fixture *f) {
  ct_release(f->x);
  ct_release(f->xt);
  ct_release(f->y);
  ct_release(f->row);
  ct_release(f->v);
  ct_release(f->xi);
  ct_release(f->xit);
  ct_release(f->b);
  ct_release(f->d8);
  ct_release(f->m);
  ct_release(f->one);
  ct_release(f->out);
  ct_release(f->outi);
  memset(f, 0, sizeof *f);
}

/* ---- operators of our own, defined once per process -------------------- */
static ct_tensor *err_k_identity(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_retain(self);
}
static ct_tensor *err_k_noadapt(ct_keyset ks, ct_tensor *self, const char *mode, double eps) {
  (void)ks;
  (void)mode;
  (void)eps;
  return ct_retain(self);
}
static ct_status err_k_boxed_passthrough(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  (void)self;
  (void)op;
  (void)ks;
  (void)stack; /* leaves its argument on the stack as its result */
  return CT_OK;
}

static const ct_op *err_define(const char *schema, const char *name) {
  const ct_op *op = ct_def(schema);
  if (!op) {
    ct_clear_error();
    op = ct_op_find(name);
  }
  return op;
}

/* errtest::dup has a CPU kernel; errtest::cudaonly only a CUDA one;
 * errtest::noadapt an unboxed CPU kernel for a signature no adapter serves. */
static int err_ops_ready(void) {
  static int ready = 0;
  if (!ready) {
    const ct_op *dup = err_define("errtest::dup(Tensor self) -> Tensor", "errtest::dup");
    const ct_op *cuda = err_define("errtest::cudaonly(Tensor self) -> Tensor", "errtest::cudaonly");
    const ct_op *noadapt = err_define("errtest::noadapt(Tensor self, str mode, float eps) -> Tensor", "errtest::noadapt");
    if (!dup || !cuda || !noadapt) return 0;
    ct_impl("errtest::dup", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_identity)));
    ct_impl("errtest::cudaonly", CT_KEY_CUDA, ct_kernel_boxed(err_k_boxed_passthrough, NULL));
    ct_impl("errtest::noadapt", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_noadapt)));
    ct_clear_error(); /* "already has a kernel" if another run got here first */
    ready = 1;
  }
  return ready;
}

/* ---- case helpers --------------------------------------------------------
 * A run function performs one bad call and returns 1 if the call reported
 * failure (NULL / negative status, NaN for ct_get, -1 for ct_size), 0 if it
 * did not, and -1 if it returned a status different from ct_last_error(). */
static int err_null(ct_tensor *t) {
  if (t) {
    ct_release(t);
    return 0;
  }
  return 1;
}
static int err_status(ct_status s) {
  if (s >= 0) return 0;
  return s == ct_last_error() ? 1 : -1;
}
#define ERR_T(fn, expr)              \
  static int fn(err_fixture *f) {    \
    (void)f;                         \
    return err_null(expr);           \
  }
#define ERR_S(fn, expr)              \
  static int fn(err_fixture *f) {    \
    (void)f;                         \
    return err_status(expr);         \
  }
#define ERR_OP(fn, expr)             \
  static int fn(err_fixture *f) {    \
    (void)f;                         \
    return (expr) == NULL;           \
  }

#define ERR_SHAPE(...) (const int64_t[]){__VA_ARGS__}
static const int64_t err_nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
#define ERR_CUDA ct_device_make(CT_DEVICE_PRIVATEUSE3, 0) /* a type without a backend (CUDA may be linked: make test-cuda) */
static float err_blob[16];

/* A boxed call of `name` with `vals` as its arguments. */
static int err_boxed(const char *name, const ct_value *vals, int n) {
  ct_value buf[8];
  ct_stack s;
  const ct_op *op = ct_op_find(name);
  ct_status st;
  int i;
  if (!op) return 1; /* reported as a wrong code/message by the runner */
  ct_stack_init(&s, buf, 8);
  for (i = 0; i < n; i++) ct_stack_push(&s, vals[i]);
  st = ct_call_boxed(op, &s);
  ct_stack_free(&s);
  return err_status(st);
}

/* ---- factories ---- */
ERR_T(e_empty_null_sizes, ct_empty(2, NULL, CT_F32))
ERR_T(e_empty_rank9, ct_empty(9, err_nine, CT_F32))
ERR_T(e_empty_rank_negative, ct_empty(-1, err_nine, CT_F32))
ERR_T(e_empty_negative_size, ct_empty(CT_DIMS(2, -3), CT_F32))
ERR_T(e_empty_overflow, ct_empty(CT_DIMS((int64_t)1 << 40, (int64_t)1 << 40), CT_F32))
ERR_T(e_empty_bad_dtype, ct_empty(CT_DIMS(2), (ct_dtype)42))
ERR_T(e_zeros_bad_dtype, ct_zeros(CT_DIMS(2), (ct_dtype)-5))
ERR_T(e_full_negative_size, ct_full(CT_DIMS(-1), ct_int(1), CT_F32))
ERR_T(e_empty_cuda_no_backend, ct_empty_opts(CT_DIMS(2), ct_opts(CT_F32, ERR_CUDA)))
ERR_T(e_empty_bad_device, ct_empty_opts(CT_DIMS(2), ct_opts(CT_F32, ct_device_make((ct_device_type)42, 0))))
ERR_T(e_empty_strided_neg_stride, ct_empty_strided(CT_DIMS(2, 3), ERR_SHAPE(-1, 1), ct_opts(CT_F32, CT_CPU)))
ERR_T(e_arange_step0, ct_arange(0, 5, 0, CT_F32))
ERR_T(e_arange_wrong_sign, ct_arange(0, 5, -1, CT_F32))
ERR_T(e_from_array_null, ct_from_array(CT_DIMS(4), CT_F32, NULL))
ERR_T(e_from_blob_null, ct_from_blob(NULL, CT_DIMS(4), NULL, CT_F32, NULL, NULL))
ERR_T(e_from_blob_misaligned, ct_from_blob((char *)err_blob + 2, CT_DIMS(2), NULL, CT_F32, NULL, NULL))
ERR_T(e_from_blob_neg_stride, ct_from_blob(err_blob, CT_DIMS(2, 2), ERR_SHAPE(2, -1), CT_F32, NULL, NULL))
/* ct_empty_strided reports this as "stride ... overflows"; the extent times
 * the element size must not wrap around into a tiny storage->nbytes */
ERR_T(e_from_blob_stride_overflow,
      ct_from_blob(err_blob, CT_DIMS(2, 2), ERR_SHAPE(INT64_MAX / 2, 1), CT_F32, NULL, NULL))
ERR_T(e_empty_like_null, ct_empty_like(NULL))
ERR_T(e_clone_null, ct_clone(NULL))

/* ---- views ---- */
ERR_T(e_view_null, ct_view(NULL, CT_DIMS(6)))
ERR_T(e_view_null_sizes, ct_view(f->x, 2, NULL))
ERR_T(e_view_transposed, ct_view(f->xt, CT_DIMS(6)))
ERR_T(e_view_wrong_numel, ct_view(f->x, CT_DIMS(4, 2)))
ERR_T(e_view_two_inferred, ct_view(f->x, CT_DIMS(-1, -1)))
ERR_T(e_view_negative_size, ct_view(f->x, CT_DIMS(-2, -3)))
ERR_T(e_view_rank9, ct_view(f->x, 9, err_nine))
ERR_T(e_reshape_wrong_numel, ct_reshape(f->x, CT_DIMS(5)))
ERR_T(e_as_strided_oob, ct_as_strided(f->x, CT_DIMS(3, 3), CT_DIMS(3, 1), 0))
ERR_T(e_as_strided_offset_oob, ct_as_strided(f->x, CT_DIMS(2), CT_DIMS(1), 5))
ERR_T(e_as_strided_neg_stride, ct_as_strided(f->x, CT_DIMS(2, 3), CT_DIMS(-1, 1), 0))
ERR_T(e_as_strided_neg_offset, ct_as_strided(f->x, CT_DIMS(2), CT_DIMS(1), -1))
ERR_T(e_transpose_oob, ct_transpose(f->x, 0, 2))
ERR_T(e_t_8d, ct_t(f->d8))
ERR_T(e_select_index_oob, ct_select(f->x, 1, 3))
ERR_T(e_select_dim_oob, ct_select(f->x, -3, 0))
ERR_T(e_narrow_too_long, ct_narrow(f->x, 1, 1, 5))
ERR_T(e_narrow_negative_length, ct_narrow(f->x, 1, 0, -1))
ERR_T(e_narrow_start_oob, ct_narrow(f->x, 1, 4, 0))
ERR_T(e_slice_step0, ct_slice(f->x, 1, 0, 3, 0))
ERR_T(e_slice_dim_oob, ct_slice(f->x, 2, 0, 1, 1))
ERR_T(e_squeeze_dim_oob, ct_squeeze_dim(f->x, 2))
ERR_T(e_unsqueeze_rank9, ct_unsqueeze(f->d8, 0))
ERR_T(e_unsqueeze_dim_oob, ct_unsqueeze(f->x, 4))
ERR_T(e_flatten_dim_oob, ct_flatten(f->x, 0, 2))
ERR_T(e_flatten_start_after_end, ct_flatten(f->x, 1, 0))
ERR_T(e_expand_incompatible, ct_expand(f->x, CT_DIMS(2, 4)))
ERR_T(e_expand_fewer_dims, ct_expand(f->x, CT_DIMS(3)))
ERR_T(e_broadcast_to_incompatible, ct_broadcast_to(f->y, CT_DIMS(2, 3)))
ERR_T(e_permute_repeated, ct_permute(f->x, CT_DIMS(0, 0)))
ERR_T(e_permute_wrong_count, ct_permute(f->x, CT_DIMS(0, 1, 2)))
ERR_T(e_permute_dim_oob, ct_permute(f->x, CT_DIMS(0, 2)))
ERR_T(e_alias_null, ct_alias(NULL))
ERR_T(e_to_dtype_bad, ct_to_dtype(f->x, (ct_dtype)42))
ERR_T(e_to_device_cuda, ct_to_device(f->x, ERR_CUDA))
ERR_T(e_to_device_from_meta, ct_to_device(f->m, CT_CPU))

/* ---- element access ---- */
static int e_item_multi(err_fixture *f) {
  double d = 0;
  return err_status(ct_item(f->x, &d));
}
ERR_S(e_item_null_value, ct_item(f->x, NULL))
static int e_item_meta(err_fixture *f) {
  double d = 0;
  return err_status(ct_item(f->one, &d));
}
static int e_get_oob(err_fixture *f) { return isnan(ct_get(f->x, 6)) ? 1 : 0; }
static int e_get_negative(err_fixture *f) { return isnan(ct_get(f->x, -1)) ? 1 : 0; }
ERR_S(e_set_oob, ct_set(f->x, 100, 1.0))
static int e_size_oob(err_fixture *f) { return ct_size(f->x, 2) == -1 ? 1 : 0; }
ERR_S(e_to_array_null_dst, ct_to_array(f->x, CT_F32, NULL))
static int e_to_array_bad_dtype(err_fixture *f) {
  double buf[6];
  return err_status(ct_to_array(f->x, (ct_dtype)42, buf));
}

/* ---- operators: NULL arguments ---- */
ERR_T(e_add_null_self, ct_add(NULL, f->x))
ERR_T(e_add_null_other, ct_add(f->x, NULL))
ERR_T(e_mm_null_mat2, ct_mm(f->x, NULL))
ERR_S(e_add_out_null_out, ct_add_out(NULL, f->x, f->x))
ERR_S(e_relu_inplace_null, ct_relu_(NULL))
ERR_T(e_sum_null, ct_sum(NULL))
ERR_S(e_copy_null_src, ct_copy_(f->x, NULL))

/* ---- operators: shapes ---- */
ERR_T(e_add_broadcast, ct_add(f->x, f->y))
ERR_T(e_sub_broadcast, ct_sub(f->x, f->y))
ERR_T(e_mul_broadcast, ct_mul(f->x, f->y))
ERR_T(e_div_broadcast, ct_div(f->x, f->y))
ERR_S(e_add_out_broadcast, ct_add_out(f->out, f->x, f->y))
ERR_S(e_mul_out_broadcast, ct_mul_out(f->out, f->x, f->y))
ERR_S(e_add_inplace_broadcast, ct_add_(f->row, f->x))
ERR_S(e_div_inplace_broadcast, ct_div_(f->row, f->x))
ERR_S(e_sub_inplace_mismatch, ct_sub_(f->x, f->y))
/* PyTorch: "unsupported operation: more than one element of the written-to
 * tensor refers to a single memory location" (assert_no_internal_overlap). */
static int e_add_inplace_expanded(err_fixture *f) {
  ct_tensor *base = ct_zeros(CT_DIMS(1, 3), CT_F32);
  ct_tensor *e = base ? ct_expand(base, CT_DIMS(2, 3)) : NULL;
  int r = e ? err_status(ct_add_(e, f->x)) : 0;
  ct_release(e);
  ct_release(base);
  return r;
}
ERR_T(e_mm_inner, ct_mm(f->x, f->x))
ERR_T(e_mm_1d, ct_mm(f->v, f->x))
ERR_T(e_mm_8d, ct_mm(f->x, f->d8))
ERR_T(e_sum_dup_dim, ct_sum_dim(f->x, CT_DIMS(0, -2), false))
ERR_T(e_sum_dim_oob, ct_sum_dim(f->x, CT_DIMS(2), false))
ERR_T(e_sum_dims_null, ct_sum_dim(f->x, 2, NULL, false))
ERR_S(e_copy_shape, ct_copy_(f->x, f->y))
/* out= needs a bigger buffer, but it is a view into someone else's storage */
static int e_add_out_shared_resize(err_fixture *f) {
  ct_tensor *base = ct_zeros(CT_DIMS(2, 3), CT_F32);
  ct_tensor *out = base ? ct_select(base, 0, 1) : NULL;
  ct_tensor *big = ct_ones(CT_DIMS(4, 3), CT_F32);
  int r = out && big ? err_status(ct_add_out(out, big, big)) : 0;
  (void)f;
  ct_release(out);
  ct_release(big);
  ct_release(base);
  return r;
}

/* ---- operators: dtypes, devices, values ---- */
ERR_S(e_add_inplace_int_float, ct_add_(f->xi, f->x))
ERR_S(e_mul_scalar_inplace_int_float, ct_mul_scalar_(f->xi, ct_float(0.5)))
ERR_S(e_div_out_int, ct_div_out(f->outi, f->xi, f->xi))
ERR_S(e_exp_out_int, ct_exp_out(f->outi, f->x))
ERR_T(e_sub_bool, ct_sub(f->b, f->b))
ERR_T(e_sub_scalar_bool, ct_sub_scalar(f->b, ct_int(1)))
ERR_T(e_neg_bool, ct_neg(f->b))
ERR_T(e_relu_bool, ct_relu(f->b))
ERR_T(e_add_int_float_alpha, ct_add_ex(f->xi, f->xi, ct_float(0.5)))
ERR_S(e_sub_inplace_int_float_alpha, ct_sub_ex_(f->xi, f->xi, ct_float(2.0)))
ERR_T(e_add_bool_alpha, ct_add_ex(f->x, f->x, ct_bool(true)))
ERR_T(e_add_device_mismatch, ct_add(f->x, f->m))
ERR_T(e_mm_dtypes, ct_mm(f->x, f->xit))
ERR_S(e_mm_out_dtype, ct_mm_out(f->outi, f->x, f->xt))
ERR_T(e_sum_bad_dtype, ct_sum_ex(f->x, (ct_dtype)42))
static int e_fill_none(err_fixture *f) {
  ct_scalar none;
  memset(&none, 0, sizeof none);
  return err_status(ct_fill_(f->out, none));
}

/* ---- registration ---- */
ERR_OP(e_def_missing_paren, ct_def("errtest::bad1(Tensor self -> Tensor"))
ERR_OP(e_def_unknown_type, ct_def("errtest::bad2(Tensr self) -> Tensor"))
ERR_OP(e_def_missing_arrow, ct_def("errtest::bad3(Tensor self) Tensor"))
ERR_OP(e_def_alias_non_tensor, ct_def("errtest::bad4(int(a!) n) -> int"))
ERR_OP(e_def_null, ct_def(NULL))
ERR_OP(e_def_duplicate, ct_def("errtest::dup(Tensor self) -> Tensor"))
ERR_OP(e_def_duplicate_builtin, ct_def("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"))
ERR_S(e_impl_undefined, ct_impl("errtest::nope", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_identity))))
ERR_S(e_impl_twice, ct_impl("errtest::dup", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_identity))))
ERR_S(e_impl_no_function, ct_impl("errtest::dup", CT_KEY_CUDA, ct_kernel_unboxed(NULL)))
ERR_S(e_impl_bad_key, ct_impl("errtest::dup", (ct_key)1, ct_kernel_unboxed(CT_FN(err_k_identity))))
ERR_S(e_impl_null_name, ct_impl(NULL, CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_identity))))
ERR_S(e_fallback_null_boxed, ct_fallback(CT_KEY_CUSTOM4, ct_kernel_boxed(NULL, NULL)))
ERR_S(e_fallback_alias_key, ct_fallback(CT_KEY_AUTOGRAD, ct_kernel_boxed(err_k_boxed_passthrough, NULL)))
ERR_S(e_fallthrough_has_kernel, ct_fallthrough("errtest::dup", CT_KEY_CPU))
ERR_S(e_impl_remove_missing, ct_impl_remove("errtest::dup", CT_KEY_TRACER))
ERR_OP(e_op_find_unknown, ct_op_find("errtest::nope"))

/* ---- calling ---- */
static int e_call_no_kernel(err_fixture *f) {
  ct_value v[1];
  v[0] = ct_value_tensor(f->x);
  return err_boxed("errtest::cudaonly", v, 1);
}
static int e_call_no_adapter(err_fixture *f) {
  ct_value v[3];
  v[0] = ct_value_tensor(f->x), v[1] = ct_value_string("m"), v[2] = ct_value_double(1.0);
  return err_boxed("errtest::noadapt", v, 3);
}
static int e_boxed_too_few(err_fixture *f) {
  ct_value v[1];
  v[0] = ct_value_tensor(f->x);
  return err_boxed("add.Tensor", v, 1);
}
static int e_boxed_wrong_type(err_fixture *f) {
  ct_value v[2];
  v[0] = ct_value_tensor(f->x), v[1] = ct_value_int(3);
  return err_boxed("mm", v, 2);
}
static int e_boxed_none_tensor(err_fixture *f) {
  ct_value v[3];
  v[0] = ct_value_tensor(f->x), v[1] = ct_value_none(), v[2] = ct_value_int(1);
  return err_boxed("add.Tensor", v, 3);
}
static int e_boxed_null_op(err_fixture *f) {
  ct_value buf[2];
  ct_stack s;
  ct_status st;
  ct_stack_init(&s, buf, 2);
  ct_stack_push(&s, ct_value_tensor(f->x));
  st = ct_call_boxed(NULL, &s);
  ct_stack_free(&s);
  return err_status(st);
}
ERR_S(e_stack_push_null, ct_stack_push(NULL, ct_value_int(1)))

/* ---- chains: a NULL argument passes the first error through ---- */
ERR_T(e_chain_relu_view, ct_relu(ct_view(f->x, CT_DIMS(4, 2))))
ERR_S(e_chain_relu_inplace_select, ct_relu_(ct_select(f->x, 0, 9)))
ERR_T(e_chain_sum_empty, ct_sum(ct_empty(2, NULL, CT_F32)))
static int e_chain_add_mm(err_fixture *f) {
  ct_tensor *p = ct_mm(f->x, f->x);
  ct_tensor *r = ct_add(p, f->x);
  ct_release(p);
  return err_null(r);
}
static int e_chain_mm_out_view(err_fixture *f) {
  ct_tensor *p = ct_view(f->xt, CT_DIMS(6));
  ct_status st = ct_mm_out(f->out, f->x, p);
  ct_release(p);
  return err_status(st);
}

typedef struct err_case {
  const char *name;
  ct_status code;
  const char *op;      /* the message must start with "op: " (or "op.overload: ") */
  const char *needle;  /* and contain this */
  const char *needle2; /* and this, if not NULL */
  int (*run)(err_fixture *f);
} err_case;

#define ERR_CASE(fn, code, op, needle) {#fn, code, op, needle, NULL, fn}
#define ERR_CASE2(fn, code, op, needle, needle2) {#fn, code, op, needle, needle2, fn}

static const err_case err_cases[] = {
    /* factories */
    ERR_CASE(e_empty_null_sizes, CT_ERR_NULL, "empty", "argument 'size' is NULL"),
    ERR_CASE(e_empty_rank9, CT_ERR_RANK, "empty", "rank 9 is out of range [0, 8]"),
    ERR_CASE(e_empty_rank_negative, CT_ERR_INVALID, "empty", "size: negative length -1"),
    ERR_CASE(e_empty_negative_size, CT_ERR_SIZE, "empty", "negative size -3 at dimension 1"),
    ERR_CASE(e_empty_overflow, CT_ERR_SIZE, "empty", "overflows"),
    ERR_CASE(e_empty_bad_dtype, CT_ERR_DTYPE, "empty", "invalid dtype 42"),
    ERR_CASE(e_zeros_bad_dtype, CT_ERR_DTYPE, "zeros", "invalid dtype -5"),
    ERR_CASE(e_full_negative_size, CT_ERR_SIZE, "full", "negative size -1 at dimension 0"),
    ERR_CASE(e_empty_cuda_no_backend, CT_ERR_DEVICE, "empty", "no allocator for device 'privateusethree'"),
    ERR_CASE(e_empty_bad_device, CT_ERR_DEVICE, "empty", "invalid device type 42"),
    ERR_CASE(e_empty_strided_neg_stride, CT_ERR_VIEW, "ct_empty_strided", "negative stride -1 at dimension 0"),
    ERR_CASE(e_arange_step0, CT_ERR_INVALID, "arange", "step must be nonzero"),
    ERR_CASE(e_arange_wrong_sign, CT_ERR_INVALID, "arange", "inconsistent with step sign"),
    ERR_CASE(e_from_array_null, CT_ERR_NULL, "ct_from_array", "argument 'data' is NULL"),
    ERR_CASE(e_from_blob_null, CT_ERR_NULL, "ct_from_blob", "argument 'data' is NULL"),
    ERR_CASE(e_from_blob_misaligned, CT_ERR_INVALID, "ct_from_blob", "not aligned to its float32 elements' size (4 bytes)"),
    ERR_CASE(e_from_blob_neg_stride, CT_ERR_VIEW, "ct_from_blob", "negative stride -1 at dimension 1"),
    ERR_CASE(e_from_blob_stride_overflow, CT_ERR_SIZE, "ct_from_blob", "overflows"),
    ERR_CASE(e_empty_like_null, CT_ERR_NULL, "empty_like", "argument 'self' is NULL"),
    ERR_CASE(e_clone_null, CT_ERR_NULL, "clone", "argument 'self' is NULL"),
    /* views */
    ERR_CASE(e_view_null, CT_ERR_NULL, "view", "argument 'self' is NULL"),
    ERR_CASE(e_view_null_sizes, CT_ERR_NULL, "view", "argument 'size' is NULL"),
    ERR_CASE(e_view_transposed, CT_ERR_VIEW, "ct_view", "view size is not compatible with input tensor's size and stride"),
    ERR_CASE(e_view_wrong_numel, CT_ERR_SHAPE, "ct_view", "shape '[4, 2]' is invalid for input of size 6"),
    ERR_CASE(e_view_two_inferred, CT_ERR_SHAPE, "ct_view", "only one dimension can be inferred"),
    ERR_CASE(e_view_negative_size, CT_ERR_SIZE, "ct_view", "invalid shape dimension -2"),
    ERR_CASE(e_view_rank9, CT_ERR_RANK, "ct_view", "rank 9 is out of range"),
    ERR_CASE(e_reshape_wrong_numel, CT_ERR_SHAPE, "ct_reshape", "shape '[5]' is invalid for input of size 6"),
    ERR_CASE(e_as_strided_oob, CT_ERR_VIEW, "ct_as_strided", "out of bounds for storage of 6 elements"),
    ERR_CASE(e_as_strided_offset_oob, CT_ERR_VIEW, "ct_as_strided", "out of bounds for storage"),
    ERR_CASE(e_as_strided_neg_stride, CT_ERR_VIEW, "ct_as_strided", "negative stride -1 at dimension 0"),
    ERR_CASE(e_as_strided_neg_offset, CT_ERR_VIEW, "ct_as_strided", "negative storage offset -1"),
    ERR_CASE(e_transpose_oob, CT_ERR_INDEX, "ct_transpose", "dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ERR_CASE(e_t_8d, CT_ERR_RANK, "ct_t", "expects a tensor with <= 2 dimensions, but self is 8D"),
    ERR_CASE(e_select_index_oob, CT_ERR_INDEX, "ct_select", "index 3 out of range for tensor of size [2, 3] at dimension 1"),
    ERR_CASE(e_select_dim_oob, CT_ERR_INDEX, "ct_select", "dimension out of range"),
    ERR_CASE(e_narrow_too_long, CT_ERR_INDEX, "ct_narrow", "start (1) + length (5) exceeds dimension size (3)"),
    ERR_CASE(e_narrow_negative_length, CT_ERR_INDEX, "ct_narrow", "length must be non-negative"),
    ERR_CASE(e_narrow_start_oob, CT_ERR_INDEX, "ct_narrow", "start out of range"),
    ERR_CASE(e_slice_step0, CT_ERR_INVALID, "ct_slice", "slice step must be positive (got 0)"),
    ERR_CASE(e_slice_dim_oob, CT_ERR_INDEX, "ct_slice", "dimension out of range"),
    ERR_CASE(e_squeeze_dim_oob, CT_ERR_INDEX, "ct_squeeze_dim", "dimension out of range"),
    ERR_CASE(e_unsqueeze_rank9, CT_ERR_RANK, "ct_unsqueeze", "result rank 9 exceeds CT_MAX_DIMS (8)"),
    ERR_CASE(e_unsqueeze_dim_oob, CT_ERR_INDEX, "ct_unsqueeze", "expected to be in range of [-3, 2], but got 4"),
    ERR_CASE(e_flatten_dim_oob, CT_ERR_INDEX, "ct_flatten", "dimension out of range"),
    ERR_CASE(e_flatten_start_after_end, CT_ERR_INVALID, "ct_flatten", "start_dim cannot come after end_dim"),
    ERR_CASE(e_expand_incompatible, CT_ERR_SHAPE, "ct_expand", "must match the existing size (3) at non-singleton dimension 1"),
    ERR_CASE(e_expand_fewer_dims, CT_ERR_SHAPE, "ct_expand", "must be greater or equal to the number of dimensions"),
    ERR_CASE(e_broadcast_to_incompatible, CT_ERR_SHAPE, "ct_expand", "must match the existing size (4)"),
    ERR_CASE(e_permute_repeated, CT_ERR_INVALID, "ct_permute", "repeated dim 0"),
    ERR_CASE(e_permute_wrong_count, CT_ERR_SHAPE, "ct_permute", "number of dims don't match"),
    ERR_CASE(e_permute_dim_oob, CT_ERR_INDEX, "ct_permute", "dimension out of range"),
    ERR_CASE(e_alias_null, CT_ERR_NULL, "alias", "argument 'self' is NULL"),
    ERR_CASE(e_to_dtype_bad, CT_ERR_DTYPE, "ct_to_dtype", "invalid dtype 42"),
    ERR_CASE(e_to_device_cuda, CT_ERR_DEVICE, "_to_copy", "no allocator for device 'privateusethree'"),
    ERR_CASE(e_to_device_from_meta, CT_ERR_DEVICE, "copy_", "cannot copy out of a meta tensor"),
    /* element access */
    ERR_CASE(e_item_multi, CT_ERR_SHAPE, "ct_item", "a tensor with 6 elements cannot be converted to a scalar"),
    ERR_CASE(e_item_null_value, CT_ERR_NULL, "ct_item", "argument 'value' is NULL"),
    ERR_CASE(e_item_meta, CT_ERR_DEVICE, "ct_item", "element access needs a tensor with data"),
    ERR_CASE(e_get_oob, CT_ERR_INDEX, "ct_get", "index 6 is out of bounds for a tensor of 6 elements"),
    ERR_CASE(e_get_negative, CT_ERR_INDEX, "ct_get", "index -1 is out of bounds"),
    ERR_CASE(e_set_oob, CT_ERR_INDEX, "ct_set", "index 100 is out of bounds"),
    ERR_CASE(e_size_oob, CT_ERR_INDEX, "ct_size", "dimension out of range"),
    ERR_CASE(e_to_array_null_dst, CT_ERR_NULL, "ct_to_array", "argument 'dst' is NULL"),
    ERR_CASE(e_to_array_bad_dtype, CT_ERR_DTYPE, "ct_to_array", "invalid dtype 42"),
    /* operators: NULL arguments */
    ERR_CASE(e_add_null_self, CT_ERR_NULL, "add.Tensor", "argument 'self' is NULL"),
    ERR_CASE(e_add_null_other, CT_ERR_NULL, "add.Tensor", "argument 'other' is NULL"),
    ERR_CASE(e_mm_null_mat2, CT_ERR_NULL, "mm", "argument 'mat2' is NULL"),
    ERR_CASE(e_add_out_null_out, CT_ERR_NULL, "add.out", "argument 'out' is NULL"),
    ERR_CASE(e_relu_inplace_null, CT_ERR_NULL, "relu_", "argument 'self' is NULL"),
    ERR_CASE(e_sum_null, CT_ERR_NULL, "sum", "argument 'self' is NULL"),
    ERR_CASE(e_copy_null_src, CT_ERR_NULL, "copy_", "argument 'src' is NULL"),
    /* operators: shapes */
    ERR_CASE(e_add_broadcast, CT_ERR_SHAPE, "add", "the size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1"),
    ERR_CASE(e_sub_broadcast, CT_ERR_SHAPE, "sub", "must match the size of tensor b (4)"),
    ERR_CASE(e_mul_broadcast, CT_ERR_SHAPE, "mul", "must match the size of tensor b (4)"),
    ERR_CASE(e_div_broadcast, CT_ERR_SHAPE, "div", "must match the size of tensor b (4)"),
    ERR_CASE(e_add_out_broadcast, CT_ERR_SHAPE, "add", "must match the size of tensor b (4)"),
    ERR_CASE(e_mul_out_broadcast, CT_ERR_SHAPE, "mul", "must match the size of tensor b (4)"),
    ERR_CASE(e_add_inplace_broadcast, CT_ERR_SHAPE, "add", "output with shape [1, 3] doesn't match the broadcast shape [2, 3]"),
    ERR_CASE(e_div_inplace_broadcast, CT_ERR_SHAPE, "div", "output with shape [1, 3] doesn't match the broadcast shape [2, 3]"),
    ERR_CASE(e_sub_inplace_mismatch, CT_ERR_SHAPE, "sub", "must match the size of tensor b (4)"),
    ERR_CASE(e_add_inplace_expanded, CT_ERR_INVALID, "add", "refers to a single memory location"),
    ERR_CASE(e_mm_inner, CT_ERR_SHAPE, "mm", "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    ERR_CASE(e_mm_1d, CT_ERR_RANK, "mm", "self must be a matrix, got a 1D tensor"),
    ERR_CASE(e_mm_8d, CT_ERR_RANK, "mm", "mat2 must be a matrix, got a 8D tensor"),
    ERR_CASE(e_sum_dup_dim, CT_ERR_INVALID, "sum", "dim 0 appears multiple times in the list of dims"),
    ERR_CASE(e_sum_dim_oob, CT_ERR_INDEX, "sum", "dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    ERR_CASE(e_sum_dims_null, CT_ERR_NULL, "sum", "is NULL"),
    ERR_CASE(e_copy_shape, CT_ERR_SHAPE, "copy_", "source of shape [2, 4] cannot be broadcast to destination of shape [2, 3]"),
    ERR_CASE(e_add_out_shared_resize, CT_ERR_SHAPE, "add", "out= tensor must be resized but its storage is shared"),
    /* operators: dtypes, devices, values */
    ERR_CASE(e_add_inplace_int_float, CT_ERR_DTYPE, "add", "result type Float can't be cast to the desired output type Long"),
    ERR_CASE(e_mul_scalar_inplace_int_float, CT_ERR_DTYPE, "mul", "result type Float can't be cast to the desired output type Long"),
    ERR_CASE(e_div_out_int, CT_ERR_DTYPE, "div", "result type Float can't be cast to the desired output type Long"),
    ERR_CASE(e_exp_out_int, CT_ERR_DTYPE, "exp", "result type Float can't be cast to the desired output type Long"),
    ERR_CASE(e_sub_bool, CT_ERR_DTYPE, "sub", "subtraction, the `-` operator, with two bool tensors is not supported"),
    ERR_CASE(e_sub_scalar_bool, CT_ERR_DTYPE, "sub", "with a bool tensor is not supported"),
    ERR_CASE(e_neg_bool, CT_ERR_DTYPE, "neg", "negation, the `-` operator, on a bool tensor is not supported"),
    ERR_CASE(e_relu_bool, CT_ERR_DTYPE, "relu", "\"relu\" is not implemented for 'Bool'"),
    ERR_CASE(e_add_int_float_alpha, CT_ERR_DTYPE, "add", "for integral input tensors, argument alpha must not be a floating point number"),
    ERR_CASE(e_sub_inplace_int_float_alpha, CT_ERR_DTYPE, "sub", "alpha must not be a floating point number"),
    ERR_CASE(e_add_bool_alpha, CT_ERR_DTYPE, "add", "boolean alpha only supported for boolean results"),
    ERR_CASE(e_add_device_mismatch, CT_ERR_DEVICE, "add", "Expected all tensors to be on the same device"),
    ERR_CASE(e_mm_dtypes, CT_ERR_DTYPE, "mm", "expected mat1 and mat2 to have the same dtype, but got: float32 != int64"),
    ERR_CASE(e_mm_out_dtype, CT_ERR_DTYPE, "mm", "Expected out tensor to have dtype float32, but got int64 instead"),
    ERR_CASE(e_sum_bad_dtype, CT_ERR_DTYPE, "sum", "invalid dtype 42"),
    ERR_CASE(e_fill_none, CT_ERR_INVALID, "fill_", "value is None"),
    /* registration */
    ERR_CASE(e_def_missing_paren, CT_ERR_SCHEMA, "ct_def", "expected ',' or ')'"),
    ERR_CASE(e_def_unknown_type, CT_ERR_SCHEMA, "ct_def", "unknown type"),
    ERR_CASE(e_def_missing_arrow, CT_ERR_SCHEMA, "ct_def", "expected '->'"),
    ERR_CASE(e_def_alias_non_tensor, CT_ERR_SCHEMA, "ct_def", "alias annotation on a non-tensor"),
    ERR_CASE(e_def_null, CT_ERR_NULL, "ct_def", "argument 'schema' is NULL"),
    ERR_CASE(e_def_duplicate, CT_ERR_REGISTRATION, "ct_def", "operator 'errtest::dup' is already defined"),
    ERR_CASE(e_def_duplicate_builtin, CT_ERR_REGISTRATION, "ct_def", "operator 'add.Tensor' is already defined"),
    ERR_CASE(e_impl_undefined, CT_ERR_REGISTRATION, "ct_impl", "operator 'errtest::nope' is not defined"),
    ERR_CASE(e_impl_twice, CT_ERR_REGISTRATION, "ct_impl", "operator 'errtest::dup' already has a kernel at key CPU"),
    ERR_CASE(e_impl_no_function, CT_ERR_NULL, "ct_impl", "has no function"),
    ERR_CASE(e_impl_bad_key, CT_ERR_REGISTRATION, "ct_impl", "invalid dispatch key 1"),
    ERR_CASE(e_impl_null_name, CT_ERR_NULL, "ct_impl", "argument 'op' is NULL"),
    ERR_CASE(e_fallback_null_boxed, CT_ERR_NULL, "ct_fallback", "a fallback must be a boxed kernel"),
    ERR_CASE(e_fallback_alias_key, CT_ERR_REGISTRATION, "ct_fallback", "invalid dispatch key 66"),
    ERR_CASE(e_fallthrough_has_kernel, CT_ERR_REGISTRATION, "ct_fallthrough", "already has a kernel at key CPU"),
    ERR_CASE(e_impl_remove_missing, CT_ERR_REGISTRATION, "ct_impl_remove", "has no kernel at key Tracer"),
    ERR_CASE(e_op_find_unknown, CT_ERR_INVALID, "ct_op_find", "no operator named 'errtest::nope'"),
    /* calling */
    ERR_CASE2(e_call_no_kernel, CT_ERR_NO_KERNEL, "errtest::cudaonly", "no kernel for op 'errtest::cudaonly' at key CPU",
              "registered: CUDA"),
    ERR_CASE(e_call_no_adapter, CT_ERR_UNSUPPORTED, "errtest::noadapt", "no boxing adapter for signature 'T,s,f->T'"),
    ERR_CASE(e_boxed_too_few, CT_ERR_INVALID, "add.Tensor", "expected 3 arguments on the stack, got 1"),
    ERR_CASE(e_boxed_wrong_type, CT_ERR_INVALID, "mm", "argument 1 ('mat2') has the wrong type"),
    ERR_CASE(e_boxed_none_tensor, CT_ERR_INVALID, "add.Tensor", "argument 1 ('other') has the wrong type"),
    ERR_CASE(e_boxed_null_op, CT_ERR_NULL, "ct_call_boxed", "argument 'op' is NULL"),
    ERR_CASE(e_stack_push_null, CT_ERR_NULL, "ct_stack_push", "argument 'stack' is NULL"),
    /* chains: the first failure is what is reported */
    ERR_CASE(e_chain_relu_view, CT_ERR_SHAPE, "ct_view", "shape '[4, 2]' is invalid for input of size 6"),
    ERR_CASE(e_chain_relu_inplace_select, CT_ERR_INDEX, "ct_select", "index 9 out of range"),
    ERR_CASE(e_chain_sum_empty, CT_ERR_NULL, "empty", "argument 'size' is NULL"),
    ERR_CASE(e_chain_add_mm, CT_ERR_SHAPE, "mm", "mat1 and mat2 shapes cannot be multiplied"),
    ERR_CASE(e_chain_mm_out_view, CT_ERR_VIEW, "ct_view", "view size is not compatible"),
};
#define ERR_NUM_CASES ((int)(sizeof err_cases / sizeof err_cases[0]))

/* The message starts with "op: " or "op.overload: " (a kernel shared by an
 * op's overloads may name the op without the overload). */
static int err_names_op(const char *msg, const char *op) {
  size_t n = strlen(op);
  const char *p;
  if (strncmp(msg, op, n) != 0) return 0;
  p = msg + n;
  if (*p == '.')
    for (p++; (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'; p++) {
    }
  return p[0] == ':' && p[1] == ' ';
}

/* Runs one case; returns 1 if it met the whole contract. */
static int err_run_case(err_fixture *f, const err_case *c) {
  ct_memory_stats before, after;
  const char *msg;
  int reported, ok = 1;
  ct_clear_error();
  before = ct_memory_stats_get();
  reported = c->run(f);
  after = ct_memory_stats_get();
  msg = ct_last_error_message();
  if (reported == 0) {
    harness_fail(__FILE__, __LINE__, "[%s] the call succeeded; expected %s containing \"%s\" (pending: %s \"%s\")",
                 c->name, ct_status_name(c->code), c->needle, ct_status_name(ct_last_error()), msg);
    ok = 0;
    goto leaks;
  }
  if (reported < 0) {
    harness_fail(__FILE__, __LINE__, "[%s] the returned status differs from ct_last_error() (%s \"%s\")", c->name,
                 ct_status_name(ct_last_error()), msg);
    ok = 0;
  }
  if (ct_last_error() != c->code) {
    harness_fail(__FILE__, __LINE__, "[%s] expected %s, got %s \"%s\"", c->name, ct_status_name(c->code),
                 ct_status_name(ct_last_error()), msg);
    ok = 0;
  }
  if (!err_names_op(msg, c->op)) {
    harness_fail(__FILE__, __LINE__, "[%s] message does not name the op \"%s\": \"%s\"", c->name, c->op, msg);
    ok = 0;
  }
  if (!strstr(msg, c->needle) || (c->needle2 && !strstr(msg, c->needle2))) {
    harness_fail(__FILE__, __LINE__, "[%s] message lacks \"%s\"%s%s%s: \"%s\"", c->name, c->needle,
                 c->needle2 ? " and \"" : "", c->needle2 ? c->needle2 : "", c->needle2 ? "\"" : "", msg);
    ok = 0;
  }
leaks:
  if (after.live_tensors != before.live_tensors || after.live_storages != before.live_storages) {
    harness_fail(__FILE__, __LINE__, "[%s] leaked %lld tensors and %lld storages", c->name,
                 (long long)(after.live_tensors - before.live_tensors),
                 (long long)(after.live_storages - before.live_storages));
    ok = 0;
  }
  ct_clear_error();
  return ok;
}

/* Shape, contents and version of a fixture tensor, to prove that failures
 * change nothing. */
typedef struct err_snapshot {
  int ndim;
  int64_t sizes[CT_MAX_DIMS];
  uint32_t version;
  double values[8];
} err_snapshot;
static void err_snap(const ct_tensor *t, err_snapshot *s) {
  int64_t i;
  memset(s, 0, sizeof *s);
  s->ndim = t->ndim;
  memcpy(s->sizes, t->sizes, sizeof(int64_t) * (size_t)t->ndim); /* sizes past ndim are not set */
  s->version = t->storage->version;
  if (t->device.type == CT_DEVICE_CPU)
    for (i = 0; i < t->numel && i < 8; i++) s->values[i] = ct_get(t, i);
}

TEST(errors_table) {
  err_fixture f;
  ct_tensor **fields[] = {&f.x, &f.xt, &f.y, &f.row, &f.v, &f.xi, &f.xit, &f.b, &f.d8, &f.m, &f.one, &f.out, &f.outi};
  static const char *const field_names[] = {"x", "xt", "y", "row", "v", "xi", "xit", "b", "d8", "m", "one", "out", "outi"};
  err_snapshot snaps[sizeof fields / sizeof fields[0]];
  size_t k;
  int i, passed = 0;
  CHECK(ERR_NUM_CASES >= 40);
  if (!err_ops_ready()) {
    harness_fail(__FILE__, __LINE__, "could not define the errtest:: operators: %s", ct_last_error_message());
    ct_clear_error();
    return;
  }
  if (!err_fixture_make(&f)) {
    harness_fail(__FILE__, __LINE__, "could not build the fixture: %s", ct_last_error_message());
    err_fixture_free(&f);
    ct_clear_error();
    return;
  }
  for (k = 0; k < sizeof fields / sizeof fields[0]; k++) err_snap(*fields[k], &snaps[k]);
  for (i = 0; i < ERR_NUM_CASES; i++) passed += err_run_case(&f, &err_cases[i]);
  if (passed != ERR_NUM_CASES) printf("    errors_table: %d of %d cases met the contract\n", passed, ERR_NUM_CASES);
  /* nothing a failed call touched may have changed */
  for (k = 0; k < sizeof fields / sizeof fields[0]; k++) {
    err_snapshot now;
    err_snap(*fields[k], &now);
    /* member by member: a struct's padding bytes are not part of its value (C11 6.2.6.1);
     * the values bit for bit (memcmp), so a NaN or a -0.0 that changed is caught */
    if (now.ndim != snaps[k].ndim || memcmp(now.sizes, snaps[k].sizes, sizeof now.sizes) != 0 ||
        now.version != snaps[k].version ||
        memcmp(now.values, snaps[k].values, sizeof now.values) != 0) /* NOLINT(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c): bitwise on purpose */
      harness_fail(__FILE__, __LINE__, "fixture tensor '%s' changed (shape, values or version) across failed calls",
                   field_names[k]);
  }
  ct_clear_error();
  err_fixture_free(&f);
}

/* A NULL argument after a failure passes the first error through unchanged:
 * same code, same message, byte for byte, and no handler call. */
TEST(errors_chain_passthrough) {
  ct_tensor *x = ct_zeros(CT_DIMS(2, 3), CT_F32);
  char first[512];
  ct_status code;
  CHECK(x != NULL);
  if (!x) return;
  ct_clear_error();
  CHECK(ct_view(x, CT_DIMS(4, 2)) == NULL);
  code = ct_last_error();
  CHECK(code == CT_ERR_SHAPE);
  snprintf(first, sizeof first, "%s", ct_last_error_message());
  CHECK(ct_relu(NULL) == NULL);
  CHECK(ct_last_error() == code);
  CHECK(strcmp(ct_last_error_message(), first) == 0);
  CHECK(ct_add(NULL, x) == NULL);
  CHECK(ct_mm(x, NULL) == NULL);
  CHECK(ct_relu_(NULL) == code);
  CHECK(ct_add_out(NULL, x, x) == code);
  CHECK(ct_view(NULL, CT_DIMS(6)) == NULL);
  CHECK(ct_last_error() == code);
  CHECK(strcmp(ct_last_error_message(), first) == 0);
  /* once cleared, the same NULL is reported as itself */
  ct_clear_error();
  CHECK(ct_relu(NULL) == NULL);
  CHECK(ct_last_error() == CT_ERR_NULL);
  CHECK(strstr(ct_last_error_message(), "relu") != NULL);
  CHECK(strstr(ct_last_error_message(), "'self' is NULL") != NULL);
  ct_clear_error();
  CHECK(ct_last_error() == CT_OK);
  CHECK(strcmp(ct_last_error_message(), "") == 0);
  ct_release(x);
}

typedef struct err_handler_log {
  int calls;
  ct_status code;
  char message[512];
} err_handler_log;
static void err_handler(ct_status code, const char *message, void *user) {
  err_handler_log *log = (err_handler_log *)user;
  log->calls++;
  log->code = code;
  snprintf(log->message, sizeof log->message, "%s", message ? message : "(null)");
}

TEST(errors_handler) {
  err_handler_log log;
  ct_tensor *x = ct_zeros(CT_DIMS(2, 3), CT_F32);
  CHECK(x != NULL);
  if (!x) return;
  memset(&log, 0, sizeof log);
  ct_set_error_handler(err_handler, &log);
  ct_clear_error();
  CHECK(ct_view(x, CT_DIMS(4, 2)) == NULL);
  CHECK(log.calls == 1);
  CHECK(log.code == CT_ERR_SHAPE);
  CHECK(log.code == ct_last_error());
  CHECK(strcmp(log.message, ct_last_error_message()) == 0);
  CHECK(strstr(log.message, "ct_view: ") == log.message);
  CHECK(strstr(log.message, "is invalid for input of size 6") != NULL);
  /* a NULL passing the pending error through is not a new error */
  CHECK(ct_relu(NULL) == NULL);
  CHECK(log.calls == 1);
  /* a status-returning failure reaches it too */
  ct_clear_error();
  CHECK(ct_impl("errtest::nope", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(err_k_identity))) == CT_ERR_REGISTRATION);
  CHECK(log.calls == 2);
  CHECK(log.code == CT_ERR_REGISTRATION);
  CHECK(strstr(log.message, "ct_impl: ") == log.message);
  ct_clear_error();
  /* uninstalled: no more calls */
  ct_set_error_handler(NULL, NULL);
  CHECK(ct_view(x, CT_DIMS(4, 2)) == NULL);
  CHECK(ct_last_error() == CT_ERR_SHAPE);
  CHECK(log.calls == 2);
  ct_clear_error();
  ct_release(x);
}

/* Valid inputs next to the error paths, which must not be rejected or
 * mis-handled. */
TEST(errors_valid_edges_not_rejected) {
  ct_tensor *x = ct_zeros(CT_DIMS(2, 3), CT_F32);
  ct_tensor *s;
  CHECK(x != NULL);
  if (!x) return;
  /* a step past the end keeps only the start: Python's x[:, 0:3:huge] has size 1 */
  s = ct_slice(x, 1, 0, 3, INT64_MAX);
  CHECK(s != NULL);
  if (s) {
    CHECK(s->ndim == 2 && s->sizes[0] == 2 && s->sizes[1] == 1);
    CHECK(s->numel == 2);
  }
  ct_release(s);
  ct_clear_error();
  /* int[1] takes a bare int in a boxed call, as in PyTorch (and as the
   * comment in ct__check_args says) */
  {
    const ct_op *op = ct_op_find("sum.dim_IntList");
    ct_value buf[8];
    ct_stack st;
    ct_status r = CT_ERR_STATE;
    ct_stack_init(&st, buf, 8);
    if (op) {
      ct_stack_push(&st, ct_value_tensor(x));
      ct_stack_push(&st, ct_value_int(0));
      ct_stack_push(&st, ct_value_bool(false));
      ct_stack_push(&st, ct_value_none());
      r = ct_call_boxed(op, &st);
    }
    if (r != CT_OK)
      harness_fail(__FILE__, __LINE__, "boxed sum.dim_IntList with a bare int dim: %s \"%s\"", ct_status_name(r),
                   ct_last_error_message());
    else {
      ct_value v = ct_stack_pop(&st);
      CHECK(v.tag == CT_VALUE_TENSOR && v.v.tensor && v.v.tensor->ndim == 1 && v.v.tensor->sizes[0] == 3);
      if (v.tag == CT_VALUE_TENSOR && v.owned) ct_release(v.v.tensor);
    }
    ct_stack_free(&st);
    ct_clear_error();
  }
  ct_release(x);
}

/* ---- a failure's message wraps only its own cause ------------------------
 * A checker (opcheck, gradcheck) prefixes the message of the call it just
 * made; when that call failed without recording an error, the pending
 * message is an earlier, unrelated failure's and must not be wrapped. */
static ct_tensor *err_k_double(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_mul_scalar(self, ct_int(2));
}
static ct_tensor *err_k_like(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_empty_like(self);
}
static ct_status err_bad_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
  grad_inputs[0] = ct_mul_scalar(c->grad, ct_int(3)); /* wrong: the derivative is 2 */
  return grad_inputs[0] ? CT_OK : ct_last_error();
}
static ct_status err_good_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
  grad_inputs[0] = ct_mul_scalar(c->grad, ct_int(2));
  return grad_inputs[0] ? CT_OK : ct_last_error();
}
static ct_tensor *err_k_silent(ct_keyset ks, ct_tensor *self) { /* a buggy kernel: fails without ct_fail */
  (void)ks;
  (void)self;
  return NULL;
}
static ct_tensor *err_fn_silent(ct_tensor *const *inputs, void *ctx) {
  (void)inputs;
  (void)ctx;
  return NULL;
}
static int err_count(const char *s, const char *needle) {
  int n = 0;
  for (s = strstr(s, needle); s; s = strstr(s + 1, needle)) n++;
  return n;
}
static const ct_op *err_define_op(const char *schema, ct_unboxed_fn cpu, ct_backward_fn backward) {
  ct_op_def d;
  const ct_op *op;
  memset(&d, 0, sizeof d);
  d.schema = schema;
  d.cpu = cpu;
  d.meta = CT_FN(err_k_like);
  d.backward = backward;
  op = ct_define_op(&d, NULL);
  ct_clear_error();
  return op;
}
TEST(errors_no_stale_prefix) {
  const char *msg;
  ct_tensor *x = ct_from_array(CT_DIMS(3), CT_F64, (const double[]){1, -2, 3});
  ct_tensor *in[1];
  ct_value a[1];
  CHECK(err_define_op("errtest::bad_grad(Tensor self) -> Tensor", CT_FN(err_k_double), err_bad_backward) != NULL);
  CHECK(err_define_op("errtest::silent(Tensor self) -> Tensor", CT_FN(err_k_silent), err_good_backward) != NULL);
  if (!x) return;
  a[0] = ct_value_tensor(x);
  ct_clear_error();
  /* 1. a gradcheck failure wrapped by opcheck, left pending */
  CHECK(ct_opcheck("errtest::bad_grad", 1, a, NULL) == CT_ERR_STATE);
  msg = ct_last_error_message();
  CHECK(strstr(msg, "opcheck: errtest::bad_grad: gradcheck: Jacobian mismatch") == msg);
  /* 2. an unrelated op failing silently: one prefix, nothing of failure 1 */
  CHECK(ct_opcheck("errtest::silent", 1, a, NULL) == CT_ERR_STATE);
  msg = ct_last_error_message();
  CHECK(strcmp(msg, "opcheck: errtest::silent: the op itself failed: it failed without reporting an error") == 0);
  CHECK(err_count(msg, "opcheck:") == 1 && !strstr(msg, "gradcheck") && !strstr(msg, "bad_grad"));
  /* 3. gradcheck and gradgradcheck of a function returning NULL silently */
  in[0] = x;
  CHECK(ct_set_requires_grad(x, true) == CT_OK);
  CHECK(ct_gradcheck(err_fn_silent, NULL, 1, in, NULL) == CT_ERR_STATE);
  CHECK(strcmp(ct_last_error_message(), "gradcheck: the function failed without reporting an error") == 0);
  CHECK(ct_gradgradcheck(err_fn_silent, NULL, 1, in, NULL) == CT_ERR_STATE);
  CHECK(strcmp(ct_last_error_message(), "gradgradcheck: the function failed without reporting an error") == 0);
  CHECK(ct_set_requires_grad(x, false) == CT_OK);
  /* 4. failure 1 again after all that: exactly its own two prefixes */
  CHECK(ct_opcheck("errtest::bad_grad", 1, a, NULL) == CT_ERR_STATE);
  msg = ct_last_error_message();
  CHECK(strstr(msg, "opcheck: errtest::bad_grad: gradcheck: Jacobian mismatch") == msg);
  CHECK(err_count(msg, "opcheck:") == 1 && err_count(msg, "gradcheck:") == 1 && !strstr(msg, "silent"));
  /* 5. a plain failure replaces the message: no prefix of the checkers */
  CHECK(ct_view(x, CT_DIMS(2, 2)) == NULL);
  msg = ct_last_error_message();
  CHECK(strstr(msg, "ct_view: ") == msg && !strstr(msg, "check"));
  /* 6. success does not clear the pending error; only ct_clear_error does */
  ct_release(ct_relu(x));
  CHECK(ct_last_error() == CT_ERR_SHAPE && strstr(ct_last_error_message(), "ct_view: ") != NULL);
  ct_clear_error();
  CHECK(ct_last_error() == CT_OK && !strcmp(ct_last_error_message(), ""));
  ct_release(x);
}
