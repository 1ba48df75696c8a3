/* tests/test_hardening.c - regression tests of the crash, memory and
 * silent-wrong-result findings of issue 12 (outside fuzzing, sanitizers,
 * valgrind), one test per finding and its class. The sweeps against PyTorch
 * (every reduction on zero-size inputs, ...) are fixture cases:
 * tests/cases_hardening.py -> tests/fixtures/cases_hardening.h, run by
 * tests/test_opcases.c.
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */

static double hd_item(const ct_tensor *t) { return ct_get(t, 0); }

/* 1. A full reduction of a zero-size tensor whose other dims are not
 * trivial wrote the row offsets of the non-empty dims into scratch sized for
 * the (empty) row. */
TEST(hardening_reduce_zero_size_rows) {
  static const ct_dtype dts[] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
  size_t k;
  for (k = 0; k < sizeof dts / sizeof dts[0]; k++) {
    CT_SCOPE {
      ct_tensor *x = ct_empty(CT_DIMS(5, 4, 0), dts[k]);
      ct_tensor *xt = ct_transpose(x, 0, 2); /* the same, not contiguous */
      ct_tensor *s = ct_sum(x), *st = ct_sum(xt), *p = ct_prod(x), *any = ct_any(x), *all = ct_all(x);
      ct_tensor *cnt = ct_count_nonzero_dims(x, 0, NULL);
      CHECK(s && s->ndim == 0 && hd_item(s) == 0);
      CHECK(st && st->ndim == 0 && hd_item(st) == 0);
      CHECK(p && p->ndim == 0 && hd_item(p) == 1);
      CHECK(any && hd_item(any) == 0);
      CHECK(all && hd_item(all) == 1);
      CHECK(cnt && hd_item(cnt) == 0);
      if (ct_dtype_is_floating(dts[k])) {
        ct_tensor *m = ct_mean(x), *v = ct_var(x, 0, NULL), *n = ct_norm(x, ct_int(2));
        CHECK(m && isnan(hd_item(m)));
        CHECK(v && isnan(hd_item(v)));
        CHECK(n && hd_item(n) == 0);
      }
    }
    CHECK(ct_last_error() == CT_OK);
    ct_clear_error();
  }
}

/* 3. A shape op's out= of the wrong dtype released the result before
 * reading its dtype for the message. */
TEST(hardening_shape_out_wrong_dtype_message) {
  CT_SCOPE {
    ct_tensor *x = ct_zeros(CT_DIMS(2, 3), CT_F32), *out = ct_empty(CT_DIMS(0), CT_F64);
    ct_tensor *idx = ct_zeros(CT_DIMS(1, 3), CT_I64);
    CHECK_ERR(ct_flip_out(out, x, CT_DIMS(0)), CT_ERR_DTYPE, "Expected out tensor to have dtype float32, but got float64");
    CHECK_ERR(ct_gather_out(out, x, 0, idx), CT_ERR_DTYPE, "have dtype float32, but got float64");
    CHECK_ERR(ct_tril_out(out, x, 0), CT_ERR_DTYPE, "have dtype float32, but got float64");
  }
}

/* ---- items 2, 4 and 6: outs that overlap or are their inputs ---- */
#define HD_PARTIAL "some elements of the input tensor and the written-to tensor refer to a single memory location"
#define HD_INTERNAL "more than one element of the written-to tensor refers to a single memory location"
static ct_tensor *hd_arange(int64_t n, ct_dtype dt) { return ct_arange(0, (double)n, 1, dt); }
static int hd_equals(const ct_tensor *t, const double *want, int64_t n) {
  int64_t i;
  if (!t || t->numel != n) return 0;
  for (i = 0; i < n; i++)
    if (ct_get(t, i) != want[i]) return 0;
  return 1;
}

/* 6. An out= (or self in place) sharing only some elements with an input
 * is refused as PyTorch refuses it (it used to compute silently wrong
 * values, e.g. add_out(x[1:], x[:-1], x[:-1]) gave zeros); the very same
 * view, empty tensors and undecidable geometries stay allowed. */
TEST(hardening_overlap_pointwise) {
  CT_SCOPE {
    static const double x0[5] = {0, 1, 2, 3, 4};
    ct_tensor *x = hd_arange(5, CT_F32), *hi = ct_slice(x, 0, 1, 5, 1), *lo = ct_slice(x, 0, 0, 4, 1);
    ct_tensor *b = ct_ones(CT_DIMS(4), CT_F32), *two = ct_scalar_tensor(ct_float(2), CT_F32);
    CHECK_ERR(ct_add_out(hi, lo, lo), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_add_(hi, lo), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_sub_out(lo, b, hi), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_mul_out(hi, lo, two), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_neg_out(hi, lo), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_exp_out(lo, hi), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_atan2_out(hi, lo, b), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_maximum_out(hi, b, lo), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_where_out(hi, ct_gt_scalar(b, ct_int(0)), lo, b), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_clamp_tensor_out(hi, b, lo, NULL), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_add_out(ct_expand(ct_slice(x, 0, 0, 1, 1), CT_DIMS(4)), b, b), CT_ERR_INVALID, HD_INTERNAL);
    CHECK(hd_equals(x, x0, 5)); /* nothing written */
  }
  CT_SCOPE { /* the same elements in the same layout, empty tensors, other storages: fine */
    static const double x0[4] = {0, 1, 2, 3}, twice[4] = {0, 2, 4, 6}, interleaved[4] = {0, 0, 2, -2};
    ct_tensor *x = hd_arange(4, CT_F32), *v = ct_view(x, CT_DIMS(4)), *e = ct_empty(CT_DIMS(0), CT_F32);
    CHECK_OK(ct_add_out(x, x, x));
    CHECK(hd_equals(x, twice, 4));
    CHECK_OK(ct_mul_(v, ct_scalar_tensor(ct_float(0.5), CT_F32))); /* another view of the same elements */
    CHECK(hd_equals(x, x0, 4));
    CHECK_OK(ct_neg_out(e, ct_slice(x, 0, 2, 2, 1)));
    CHECK_OK(ct_neg_out(ct_slice(x, 0, 1, 4, 2), ct_slice(x, 0, 0, 4, 2))); /* interleaved: not decided, allowed as in PyTorch */
    CHECK(hd_equals(x, interleaved, 4));
  }
}

/* 6, continued: reductions. PyTorch checks its scans and (values, indices)
 * ops, not its other reductions, which then compute garbage; ctorch reads
 * the input whole (through a temporary) before writing such an out. */
TEST(hardening_overlap_reductions) {
  CT_SCOPE {
    static const double col_sums[2] = {2, 4}, rowsum_self[3] = {6, 0, 0};
    ct_tensor *x = hd_arange(4, CT_F32), *m = ct_view(x, CT_DIMS(2, 2)), *mid = ct_slice(x, 0, 1, 3, 1);
    ct_tensor *idx = ct_empty(CT_DIMS(0), CT_I64), *y, *lo, *hi;
    CHECK_OK(ct_sum_out(mid, m, CT_DIMS(0), false)); /* [0 1; 2 3] summed over rows into x[1:3] */
    CHECK(hd_equals(mid, col_sums, 2));
    y = ct_arange(1, 4, 1, CT_F32); /* [1 2 3]: the out is the input itself, resized to 0-dim */
    CHECK_OK(ct_sum_out(y, y, CT_DIMS(0), false));
    CHECK(y->ndim == 0 && hd_equals(y, rowsum_self, 1));
    x = hd_arange(5, CT_F32), lo = ct_slice(x, 0, 0, 4, 1), hi = ct_slice(x, 0, 1, 5, 1);
    CHECK_ERR(ct_cumsum_out(hi, lo, 0), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_sort_out(hi, idx, lo, 0, false), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_topk_out(ct_slice(x, 0, 1, 3, 1), idx, lo, 2, 0, true, true), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_max_dim_out(ct_slice(x, 0, 1, 3, 1), idx, ct_view(lo, CT_DIMS(2, 2)), 0, false), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_OK(ct_cumsum_out(lo, lo, 0)); /* the same view: fine */
  }
}

/* 6, continued: shape, index and matrix ops refuse what PyTorch refuses
 * (their results were already right: they compute before writing). */
TEST(hardening_overlap_shape_linalg) {
  CT_SCOPE {
    static const double flipped[4] = {3, 2, 1, 0};
    ct_tensor *x = hd_arange(6, CT_F32), *lo = ct_slice(x, 0, 0, 4, 1), *hi = ct_slice(x, 0, 1, 5, 1);
    ct_tensor *i4 = ct_arange(0, 4, 1, CT_I64), *parts[2];
    parts[0] = ct_slice(x, 0, 0, 2, 1), parts[1] = ct_slice(x, 0, 2, 4, 1);
    CHECK_ERR(ct_index_select_out(hi, lo, 0, i4), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_gather_out(hi, lo, 0, i4), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_cat_out(hi, 2, parts, 0), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_index_add_(hi, 0, ct_arange(0, 2, 1, CT_I64), ct_slice(x, 0, 0, 2, 1)), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_outer_out(ct_view(hi, CT_DIMS(2, 2)), parts[0], parts[1]), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_addmm_out(ct_view(ct_slice(x, 0, 2, 6, 1), CT_DIMS(2, 2)), ct_view(lo, CT_DIMS(2, 2)), ct_ones(CT_DIMS(2, 2), CT_F32),
                           ct_ones(CT_DIMS(2, 2), CT_F32)),
              CT_ERR_INVALID, HD_PARTIAL);
    CHECK_OK(ct_flip_out(hi, lo, CT_DIMS(0))); /* PyTorch does not check flip: the result is right */
    CHECK(hd_equals(hi, flipped, 4));
  }
}

/* 4. An out= that is also an input and must be resized read its own
 * reallocated (uninitialised) storage and returned garbage with status OK
 * (invalid bool bytes in bool outs). PyTorch's TensorIterator refuses. */
TEST(hardening_out_is_input_resize) {
  CT_SCOPE {
    ct_tensor *a = ct_ones(CT_DIMS(2, 3), CT_F32), *b = ct_scalar_tensor(ct_float(2), CT_F32);
    ct_tensor *bb = ct_scalar_tensor(ct_bool(true), CT_BOOL), *bi = ct_scalar_tensor(ct_int(3), CT_I64);
    ct_tensor *w = ct_ones(CT_DIMS(1, 1, 1, 1), CT_F32), *img = ct_ones(CT_DIMS(1, 1, 3, 3), CT_F32);
    static const int64_t one[2] = {1, 1}, zero[2] = {0, 0};
    CHECK_ERR(ct_add_out(b, a, b), CT_ERR_SHAPE, "output with shape [] doesn't match the broadcast shape [2, 3]");
    CHECK_ERR(ct_add_out(b, b, a), CT_ERR_SHAPE, "output with shape [] doesn't match the broadcast shape [2, 3]");
    CHECK_ERR(ct_eq_out(bb, a, bb), CT_ERR_SHAPE, "output with shape [] doesn't match the broadcast shape [2, 3]");
    CHECK_ERR(ct_fmod_out(bi, ct_ones(CT_DIMS(4), CT_I64), bi), CT_ERR_SHAPE, "doesn't match the broadcast shape [4]");
    CHECK_ERR(ct_where_out(b, ct_gt_scalar(a, ct_int(0)), a, b), CT_ERR_SHAPE, "doesn't match the broadcast shape [2, 3]");
    CHECK_ERR(ct_mm_out(a, a, ct_ones(CT_DIMS(3, 3), CT_F32)) == CT_OK ? ct_mm_out(a, a, ct_ones(CT_DIMS(3, 4), CT_F32)) : CT_OK,
              CT_ERR_INVALID, "cannot be resized");
    /* convolution (structured, as PyTorch's convolution.out computes, then resizes out): w is read, then resized */
    CHECK_OK(ct_convolution_out(w, img, w, NULL, 2, one, 2, zero, 2, one, false, 2, zero, 1));
    CHECK(w->ndim == 4 && w->sizes[2] == 3 && w->sizes[3] == 3 && ct_get(w, 0) == 1 && ct_get(w, 8) == 1);
    CHECK(b->ndim == 0 && ct_get(b, 0) == 2 && bb->ndim == 0 && ct_get(bb, 0) == 1 && bi->ndim == 0 && ct_get(bi, 0) == 3);
  }
}

/* 2. The divisor of an integer division aliasing the out: the zero check
 * passed, then the op's own writes made the divisor 0 (SIGFPE). The overlap
 * is refused now; and where PyTorch's rules allow an overlap they cannot
 * decide, a divisor that becomes 0 gives 0 instead of trapping. */
TEST(hardening_int_division_aliased_divisor) {
  static const int64_t one[1] = {1}, zero_stride[1] = {0}, two[1] = {2}, two_stride[1] = {2};
  const char *modes[3] = {NULL, "trunc", "floor"};
  int k;
  CT_SCOPE {
    ct_tensor *a = ct_full(CT_DIMS(4), ct_int(5), CT_I64), *b = ct_as_strided(a, 1, one, 1, zero_stride, 1);
    CHECK_ERR(ct_fmod_out(a, a, b), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_fmod_(a, b), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_remainder_out(a, a, b), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_remainder_(a, b), CT_ERR_INVALID, HD_PARTIAL);
    CHECK_ERR(ct_floor_divide_out(a, a, b), CT_ERR_INVALID, HD_PARTIAL);
    for (k = 0; k < 3; k++) {
      CHECK_ERR(ct_div_mode_out(a, a, b, modes[k]), CT_ERR_INVALID, HD_PARTIAL);
      CHECK_ERR(ct_div_mode_(a, b, modes[k]), CT_ERR_INVALID, HD_PARTIAL);
    }
  }
  CT_SCOPE { /* out = x[::2], divisor = x[0] read twice: written 0 by the first element, then read */
    ct_tensor *x = ct_full(CT_DIMS(4), ct_int(4), CT_I64), *num = ct_full(CT_DIMS(2), ct_int(8), CT_I64);
    ct_tensor *out = ct_as_strided(x, 1, two, 1, two_stride, 0), *div = ct_as_strided(x, 1, two, 1, zero_stride, 0);
    CHECK_OK(ct_fmod_out(out, num, div));
    CHECK(ct_get(out, 0) == 0 && ct_get(out, 1) == 0);
    ct_fill_(x, ct_int(4));
    CHECK_OK(ct_floor_divide_out(out, ct_full(CT_DIMS(2), ct_int(0), CT_I64), div));
    CHECK(ct_get(out, 0) == 0 && ct_get(out, 1) == 0);
    ct_fill_(x, ct_int(4));
    CHECK_OK(ct_div_mode_out(out, ct_full(CT_DIMS(2), ct_int(0), CT_I64), div, "trunc"));
  }
}

/* 5. Numbers converted to a tensor's dtype are checked as PyTorch checks
 * them (c10::checked_convert: "value cannot be converted to type int64_t
 * without overflow"); they used to go through undefined float-to-integer
 * casts and be silently accepted. */
#define HD_CONV(T) "value cannot be converted to type " T " without overflow"
TEST(hardening_scalar_conversions_checked) {
  CT_SCOPE {
    const bool mk[3] = {true, false, true};
    ct_tensor *i32 = ct_ones(CT_DIMS(3), CT_I32), *u8 = ct_ones(CT_DIMS(3), CT_U8), *mask = ct_from_array(CT_DIMS(3), CT_BOOL, mk);
    ct_tensor *i0 = ct_zeros(CT_DIMS(1), CT_I64), *nan0 = ct_scalar_tensor(ct_float(NAN), CT_F32), *t;
    const ct_scalar big = ct_int((int64_t)1 << 40);
    /* fill_ and the factories over it */
    CHECK_ERR(ct_full(CT_DIMS(2), ct_float(NAN), CT_I64), CT_ERR_INVALID, HD_CONV("int64_t"));
    CHECK_ERR(ct_full(CT_DIMS(2), ct_float(1e20), CT_I64), CT_ERR_INVALID, HD_CONV("int64_t"));
    CHECK_ERR(ct_fill_(i32, ct_float(1e20)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_fill_(u8, ct_int(1000)), CT_ERR_INVALID, HD_CONV("uint8_t"));
    CHECK_ERR(ct_fill_(u8, ct_int(-256)), CT_ERR_INVALID, HD_CONV("uint8_t"));
    CHECK_ERR(ct_full(CT_DIMS(1), ct_float(-1.5), CT_U8), CT_ERR_INVALID, HD_CONV("uint8_t"));
    CHECK_ERR(ct_full(CT_DIMS(1), ct_float(1e20), CT_F16), CT_ERR_INVALID, HD_CONV("at::Half"));
    CHECK_ERR(ct_full(CT_DIMS(1), ct_float(1e300), CT_F32), CT_ERR_INVALID, HD_CONV("float"));
    CHECK_ERR(ct_full_like(i32, ct_float(NAN)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK(ct_get(i32, 0) == 1 && ct_get(u8, 0) == 1); /* untouched */
    CHECK_OK(ct_fill_(u8, ct_int(-1))); /* integers down to -255 wrap into uint8, as PyTorch */
    CHECK(ct_get_int(u8, 0) == 255);
    CHECK((t = ct_full(CT_DIMS(1), ct_float(INFINITY), CT_F16)) && isinf(ct_get(t, 0)));
    CHECK((t = ct_full(CT_DIMS(1), ct_float(NAN), CT_BOOL)) && ct_get(t, 0) == 1);
    CHECK((t = ct_full(CT_DIMS(1), ct_float(1.5), CT_U8)) && ct_get_int(t, 0) == 1);
    ct_fill_(u8, ct_int(1));
    /* ops storing a Scalar in the tensor's dtype */
    CHECK_ERR(ct_masked_fill(i32, mask, ct_float(NAN)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_masked_fill_(i32, mask, ct_float(1e10)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_masked_fill_tensor(i32, mask, nan0), CT_ERR_INVALID, HD_CONV("int"));
    CHECK((t = ct_masked_fill(u8, mask, ct_int(-1))) && ct_get_int(t, 0) == 255 && ct_get_int(t, 1) == 1);
    CHECK_ERR(ct_index_fill(i32, 0, i0, ct_float(NAN)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_index_fill_tensor(i32, 0, i0, nan0), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_index_fill(u8, 0, i0, ct_int(300)), CT_ERR_INVALID, HD_CONV("uint8_t"));
    CHECK_ERR(ct_scatter_value(i32, 0, i0, ct_float(NAN)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_constant_pad_nd(i32, CT_DIMS(1, 1), ct_float(NAN)), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_clamp_max(i32, big), CT_ERR_INVALID, HD_CONV("int"));
    CHECK((t = ct_clamp_min(u8, ct_int(-1))) && ct_get_int(t, 0) == 255);
    CHECK_ERR(ct_where_scalar_other(mask, i32, big), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_add_ex(i32, i32, big), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_add_ex_(i32, i32, big), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_sub_ex(u8, u8, ct_int(300)), CT_ERR_INVALID, HD_CONV("uint8_t"));
    CHECK_ERR(ct_add_ex(ct_ones(CT_DIMS(1), CT_F16), ct_ones(CT_DIMS(1), CT_F16), ct_float(1e6)), CT_ERR_INVALID, HD_CONV("at::Half"));
    CHECK_ERR(ct_addcmul_ex(i32, i32, i32, big), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_pow_scalar(i32, big), CT_ERR_INVALID, HD_CONV("int"));
    CHECK_ERR(ct_hardtanh(i32, ct_float(NAN), ct_int(2)), CT_ERR_INVALID, HD_CONV("int64_t"));
    CHECK_ERR(ct_hardtanh(i32, ct_int(-((int64_t)1 << 40)), big), CT_ERR_INVALID, HD_CONV("int"));
    /* numbers as operands wrap into the integer dtype (a C++ static_cast in PyTorch) */
    CHECK((t = ct_add_scalar(i32, big)) && t->dtype == CT_I32 && ct_get_int(t, 0) == 1);
    CHECK_ERR(ct_remainder_scalar(i32, big), CT_ERR_INVALID, "ZeroDivisionError");
    CHECK(ct_get(i32, 0) == 1);
  }
}

/* 5, continued: arange on integer dtypes converts its ends to int64
 * checked and steps in int64, as PyTorch's arange_out. */
TEST(hardening_arange_integer_dtypes) {
  CT_SCOPE {
    static const double i64v[5] = {0, 1, 2, 3, 4}, i32v[4] = {0, 1, 2, 3}, u8v[4] = {254, 255, 0, 1};
    CHECK_ERR(ct_arange(0, 1e20, 1e19, CT_I64), CT_ERR_INVALID, HD_CONV("int64_t"));
    CHECK_ERR(ct_arange(0, NAN, 1, CT_I32), CT_ERR_INVALID, HD_CONV("int64_t"));
    CHECK_ERR(ct_arange(0, 5, 0.5, CT_I64), CT_ERR_INVALID, "step must be nonzero");
    CHECK(hd_equals(ct_arange(0, 5, 1.5, CT_I64), i64v, 5)); /* the step truncates to 1; int64 sizes from the int64 values */
    CHECK(hd_equals(ct_arange(0, 5, 1.5, CT_I32), i32v, 4)); /* narrower dtypes: the size from the doubles */
    CHECK(hd_equals(ct_arange(254, 258, 1, CT_U8), u8v, 4));
  }
}

/* 5, continued: casts of NaN, infinities and out-of-range values to integer
 * dtypes are defined (UBSan's float-cast-overflow is clean) and give what
 * PyTorch gives on x86-64. */
TEST(hardening_float_to_int_casts) {
  static const double src[8] = {NAN, INFINITY, -INFINITY, 1e20, 300, -1, 3e9, -2.5};
  static const int64_t want64[8] = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MIN, 300, -1, 3000000000LL, -2};
  static const int64_t want32[8] = {INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, 300, -1, INT32_MIN, -2};
  static const int64_t want8[8] = {0, 0, 0, 0, 44, 255, 0, 254};
  static const ct_dtype from[2] = {CT_F64, CT_F32};
  int k, i;
  for (k = 0; k < 2; k++) {
    CT_SCOPE {
      ct_tensor *x = ct_to_dtype(ct_from_array(CT_DIMS(8), CT_F64, src), from[k]);
      ct_tensor *a = ct_to_dtype(x, CT_I64), *b = ct_to_dtype(x, CT_I32), *c = ct_to_dtype(x, CT_U8), *d = ct_to_dtype(x, CT_BOOL);
      ct_tensor *e = ct_empty(CT_DIMS(8), CT_I32);
      CHECK_OK(ct_copy_(e, x));
      for (i = 0; a && b && c && d && i < 8; i++) {
        if (ct_get_int(a, i) != want64[i] || ct_get_int(b, i) != want32[i] || ct_get_int(c, i) != want8[i] || ct_get(d, i) != 1 ||
            ct_get_int(e, i) != want32[i])
          harness_fail(__FILE__, __LINE__, "element %d (%g) from %s: %lld %lld %lld %g", i, src[i], ct_dtype_name(from[k]),
                       (long long)ct_get_int(a, i), (long long)ct_get_int(b, i), (long long)ct_get_int(c, i), ct_get(d, i));
      }
      CHECK(ct_get_int(x, 0) == INT64_MIN); /* ct_get_int of NaN */
    }
  }
}
