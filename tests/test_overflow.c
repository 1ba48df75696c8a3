/* tests/test_overflow.c - extreme values for every shape-computing function
 * of ctorch/tensor.h (factories and views) and ctorch/ops/conv.h
 * (convolution, transposed convolution, pooling, im2col / col2im): sizes of
 * INT64_MAX, products that overflow, negative sizes, strides and offsets that
 * overflow, INT64_MIN / INT64_MAX starts, ends, steps and dims. Each call
 * either succeeds with the right metadata or fails with a clear error; none
 * may overflow (the sanitizer builds of the suite run these under UBSan). */
#include "harness.h"

#define OV_MAX INT64_MAX
#define OV_MIN INT64_MIN
#define OV_P62 ((int64_t)1 << 62)

static ct_tensor *ov_meta(int ndim, const int64_t *sizes) { return ct_empty_opts(ndim, sizes, ct_opts(CT_F32, CT_META)); }

TEST(overflow_factories) {
  const int64_t big8[8] = {(int64_t)1 << 31, (int64_t)1 << 31, (int64_t)1 << 31, (int64_t)1 << 31,
                           (int64_t)1 << 31, (int64_t)1 << 31, (int64_t)1 << 31, (int64_t)1 << 31};
  const int64_t zero_huge[3] = {0, OV_MAX, OV_MAX}, huge_zero[3] = {OV_MAX, OV_MAX, 0};
  const float data[4] = {1, 2, 3, 4};
  float blob[4] = {0};
  ct_tensor *t;
  CHECK_ERR(ct_empty(CT_DIMS(OV_MAX), CT_F32), CT_ERR_SIZE, "Storage size calculation overflowed with sizes=[9223372036854775807]");
  CHECK_ERR(ct_empty(CT_DIMS(OV_P62, OV_P62), CT_F32), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_empty(8, big8, CT_U8), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_empty(CT_DIMS((int64_t)1 << 61), CT_U8), CT_ERR_SIZE, "overflowed"); /* the byte count of an 8-byte dtype would */
  CHECK_ERR(ct_empty(CT_DIMS(2, -1), CT_F32), CT_ERR_SIZE, "negative size -1 at dimension 1");
  CHECK_ERR(ct_empty(CT_DIMS(OV_MIN), CT_F32), CT_ERR_SIZE, "negative size");
  CHECK_ERR(ct_empty(CT_DIMS(OV_MAX, -1), CT_F32), CT_ERR_SIZE, "negative size");
  CHECK_ERR(ct_empty(-1, NULL, CT_F32), CT_ERR_INVALID, "size: negative length -1"); /* (the frontend's int[] check) */
  CHECK_ERR(ct_empty(CT_MAX_DIMS + 1, big8, CT_F32), CT_ERR_RANK, "out of range");
  CHECK_ERR(ct_zeros(CT_DIMS(OV_MAX, 2), CT_F32), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_ones(CT_DIMS(OV_P62, 4), CT_F64), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_full(CT_DIMS(3, OV_MAX), ct_float(1), CT_F32), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_from_array(CT_DIMS(OV_MAX), CT_F32, data), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_empty_opts(CT_DIMS(OV_P62, OV_P62), ct_opts(CT_F32, CT_META)), CT_ERR_SIZE, "overflowed");
  /* a zero size wins over an overflowing product, in any position; strides do not overflow */
  CT_SCOPE {
    t = ct_empty(3, zero_huge, CT_F32);
    CHECK(t && t->numel == 0 && t->strides[2] == 1 && t->strides[1] == OV_MAX && t->strides[0] == OV_MAX);
    t = ct_empty(3, huge_zero, CT_F32);
    CHECK(t && t->numel == 0 && t->strides[2] == 1 && t->strides[1] == 1 && t->strides[0] == OV_MAX);
    t = ct_zeros(3, zero_huge, CT_I64);
    CHECK(t && t->numel == 0);
    t = ct_empty_like(ct_empty(3, huge_zero, CT_BF16));
    CHECK(t && t->numel == 0);
    /* meta tensors take the largest sizes without memory */
    t = ov_meta(CT_DIMS(((int64_t)1 << 60) - 1));
    CHECK(t && t->numel == ((int64_t)1 << 60) - 1);
  }
  /* empty_strided: the storage extent */
  CHECK_ERR(ct_empty_strided(CT_DIMS(2, 2), (const int64_t[]){OV_P62, OV_P62}, ct_opts(CT_F32, CT_CPU)), CT_ERR_SIZE,
            "Storage size calculation overflowed with sizes=[2, 2] and strides=[4611686018427387904, 4611686018427387904]");
  CHECK_ERR(ct_empty_strided(CT_DIMS(2, 2), (const int64_t[]){OV_MAX, 1}, ct_opts(CT_F32, CT_CPU)), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_empty_strided(CT_DIMS(3, 2), (const int64_t[]){OV_MAX / 2 + 1, 1}, ct_opts(CT_F32, CT_META)), CT_ERR_SIZE,
            "overflowed");
  /* eight terms that each fit and whose sum does not */
  CHECK_ERR(ct_empty_strided(8, (const int64_t[]){2, 2, 2, 2, 2, 2, 2, 2},
                             (const int64_t[]){OV_MAX / 4, OV_MAX / 4, OV_MAX / 4, OV_MAX / 4, OV_MAX / 4, OV_MAX / 4, OV_MAX / 4, OV_MAX / 4},
                             ct_opts(CT_F32, CT_META)),
            CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_empty_strided(CT_DIMS(2, 2), (const int64_t[]){OV_MIN, 1}, ct_opts(CT_F32, CT_CPU)), CT_ERR_VIEW, "negative stride");
  CHECK_ERR(ct_empty_strided(CT_DIMS(2, OV_MAX), (const int64_t[]){1, 1}, ct_opts(CT_F32, CT_CPU)), CT_ERR_SIZE, "overflowed");
  CT_SCOPE {
    t = ct_empty_strided(CT_DIMS(0, 2), (const int64_t[]){OV_MAX, OV_MAX}, ct_opts(CT_F32, CT_CPU)); /* empty: any strides */
    CHECK(t && t->numel == 0 && t->storage->nbytes == 0);
    t = ct_empty_strided(CT_DIMS(1, 1), (const int64_t[]){OV_MAX, OV_MAX}, ct_opts(CT_F32, CT_CPU)); /* size-1 dims: any stride */
    CHECK(t && t->numel == 1 && t->storage->nbytes == 4);
  }
  /* from_blob: sizes and the buffer extent */
  CHECK_ERR(ct_from_blob(blob, CT_DIMS(OV_MAX), NULL, CT_F32, NULL, NULL), CT_ERR_SIZE, "overflowed");
  CHECK_ERR(ct_from_blob(blob, CT_DIMS(2, 2), (const int64_t[]){OV_MAX, 1}, CT_F32, NULL, NULL), CT_ERR_SIZE, "overflows");
  CHECK_ERR(ct_from_blob(blob, CT_DIMS(2, 2), (const int64_t[]){OV_P62 - 1, OV_P62 - 1}, CT_F32, NULL, NULL), CT_ERR_SIZE,
            "overflows");
  CHECK_ERR(ct_from_blob(blob, CT_DIMS(2), (const int64_t[]){OV_MIN}, CT_F32, NULL, NULL), CT_ERR_VIEW, "negative stride");
  /* arange: lengths */
  CHECK_ERR(ct_arange(-1e308, 1e308, 1, CT_F64), CT_ERR_SIZE, "too many elements");
  CHECK_ERR(ct_arange(0, 1, 1e-300, CT_F64), CT_ERR_SIZE, "too many elements");
  CHECK_ERR(ct_arange(0, 9.3e18, 1, CT_I64), CT_ERR_INVALID, "cannot be converted to type int64_t"); /* as PyTorch */
  CHECK_ERR(ct_arange(0, 9.0e18, 1, CT_I64), CT_ERR_SIZE, "");
  CHECK_ERR(ct_arange(0, 1, NAN, CT_F32), CT_ERR_INVALID, "step");
  CT_SCOPE {
    t = ct_arange(0, 1, 1e300, CT_F64);
    CHECK(t && t->numel == 1);
  }
}

TEST(overflow_views) {
  const float xs[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  CT_SCOPE {
    ct_tensor *x = ct_from_array(CT_DIMS(3, 4), CT_F32, xs), *e = ct_empty(CT_DIMS(0, 3), CT_F32), *v, *w;
    const int64_t zero_huge[4] = {0, OV_MAX, 3, 4};
    /* view / reshape */
    CHECK_ERR(ct_view(x, CT_DIMS(OV_MAX, -1)), CT_ERR_SHAPE, "shape '[9223372036854775807, -1]' is invalid for input of size 12");
    CHECK_ERR(ct_view(x, CT_DIMS(OV_P62, OV_P62)), CT_ERR_SIZE, "overflows");
    CHECK_ERR(ct_view(e, CT_DIMS(OV_P62, OV_P62, 0)), CT_ERR_SIZE, "overflows");
    CHECK_ERR(ct_reshape(x, CT_DIMS(-1, OV_MAX)), CT_ERR_SHAPE, "is invalid for input of size 12");
    CHECK_ERR(ct_reshape(x, CT_DIMS(OV_MIN, 12)), CT_ERR_SIZE, "invalid shape dimension");
    CHECK_ERR(ct_reshape(e, CT_DIMS(-1, OV_MAX, OV_MAX)), CT_ERR_SIZE, "overflows");
    v = ct_view(e, CT_DIMS(0, OV_MAX)); /* empty: a zero first keeps the product at 0 */
    CHECK(v && v->numel == 0 && v->sizes[1] == OV_MAX);
    /* as_strided: extents and offsets */
    CHECK_ERR(ct_as_strided(x, CT_DIMS(2), CT_DIMS(OV_P62), 0), CT_ERR_VIEW, "reach element 4611686018427387904, out of bounds");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(2, 2), CT_DIMS(OV_MAX, OV_MAX), 0), CT_ERR_SIZE,
              "Storage size calculation overflowed with sizes=[2, 2] and strides=[9223372036854775807, 9223372036854775807]");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(3, 2), CT_DIMS(OV_P62, 1), 0), CT_ERR_SIZE, "overflowed");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(1), CT_DIMS(1), OV_MAX), CT_ERR_VIEW, "out of bounds for storage of 12 elements");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(2), CT_DIMS(OV_MAX / 2), OV_MAX / 2), CT_ERR_VIEW, "out of bounds");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(1), CT_DIMS(1), OV_MIN), CT_ERR_VIEW, "negative storage offset");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(OV_MAX), CT_DIMS(0), 0), CT_ERR_SIZE, "overflowed");
    CHECK_ERR(ct_as_strided(x, CT_DIMS(-1), CT_DIMS(1), 0), CT_ERR_SIZE, "negative size");
    v = ct_as_strided(x, CT_DIMS(0), CT_DIMS(OV_P62), OV_MAX); /* an empty view may sit anywhere */
    CHECK(v && v->numel == 0 && v->offset == OV_MAX && ct_data_ptr(v) == x->storage->data);
    /* size-1 dims take any stride; views of them neither overflow nor address memory */
    v = ct_as_strided(x, CT_DIMS(2, 1), CT_DIMS(1, OV_MAX), 0);
    CHECK(v && v->numel == 2 && v->strides[1] == OV_MAX);
    w = ct_slice(v, 1, 1, 2, 1); /* empty, offset 0 + 1 * INT64_MAX */
    CHECK(w && w->numel == 0 && w->offset == OV_MAX && ct_data_ptr(w) == x->storage->data);
    w = ct_unsqueeze(v, 2);
    CHECK(w && w->numel == 2 && w->strides[2] == 1 && w->strides[1] == OV_MAX);
    w = ct_unsqueeze(v, 1); /* as PyTorch: size * stride of the dim it goes before */
    CHECK(w && w->strides[1] == OV_MAX && w->strides[2] == OV_MAX);
    w = ct_view(v, CT_DIMS(2));
    CHECK(w && w->strides[0] == 1 && ct_get(w, 1) == 1);
    w = ct_view(v, CT_DIMS(1, 2, 1));
    CHECK(w && ct_get(w, 1) == 1);
    w = ct_select(v, 1, 0);
    CHECK(w && w->numel == 2 && ct_get(w, 1) == 1);
    w = ct_transpose(v, 0, 1);
    CHECK(w && w->sizes[0] == 1 && w->strides[0] == OV_MAX);
    w = ct_flatten(v, 0, 1);
    CHECK(w && w->numel == 2 && ct_get(w, 1) == 1);
    w = ct_contiguous(v);
    CHECK(w && ct_get(w, 1) == 1);
    v = ct_as_strided(x, CT_DIMS(2, 1), CT_DIMS(1, OV_MAX), 5);
    CHECK_ERR(ct_slice(v, 1, 1, 2, 1), CT_ERR_SIZE, "storage offset 5 + start 1 * stride 9223372036854775807 overflows int64");
    CHECK_ERR(ct_narrow(v, 1, 1, 0), CT_ERR_SIZE, "overflows int64");
    v = ct_as_strided(x, CT_DIMS(2, 2), CT_DIMS(1, OV_MAX), 0); /* size 2 with that stride does not fit */
    CHECK(v == NULL);
    ct_clear_error();
    /* expand */
    CHECK_ERR(ct_expand(x, CT_DIMS(OV_P62, OV_P62, 3, 4)), CT_ERR_SIZE, "overflowed");
    CHECK_ERR(ct_expand(x, CT_DIMS(OV_MAX, 3, 4)), CT_ERR_SIZE, "overflowed");
    CHECK_ERR(ct_expand(x, CT_DIMS(OV_MIN, 3, 4)), CT_ERR_SHAPE, "isn't allowed in a leading, non-existing dimension");
    CHECK_ERR(ct_expand(x, CT_DIMS(3, OV_MIN)), CT_ERR_SIZE, "invalid size");
    CHECK_ERR(ct_broadcast_to(x, CT_DIMS(OV_MAX, OV_MAX, 3, 4)), CT_ERR_SIZE, "overflowed");
    v = ct_expand(x, 4, zero_huge);
    CHECK(v && v->numel == 0 && v->sizes[1] == OV_MAX && v->strides[1] == 0);
    CHECK_ERR(ct_flatten(v, 1, 2), CT_ERR_SIZE, "the product of their sizes overflows int64");
    w = ct_flatten(v, 0, 1);
    CHECK(w && w->numel == 0 && w->ndim == 3 && w->sizes[0] == 0);
    w = ct_unsqueeze(v, 1);
    CHECK(w && w->numel == 0 && w->ndim == 5);
    w = ct_select(v, 1, OV_MAX - 1); /* stride 0 */
    CHECK(w && w->numel == 0 && w->offset == 0);
    w = ct_slice(v, 1, OV_MAX - 1, OV_MAX, 1);
    CHECK(w && w->sizes[1] == 1 && w->offset == 0);
    /* slice: INT64_MIN / INT64_MAX starts, ends, steps, dims (an INT64_MIN start or end is None: CT_INT_NONE) */
    v = ct_slice(x, 1, OV_MIN, OV_MAX, 1);
    CHECK(v && v->sizes[1] == 4 && v->offset == 0);
    v = ct_slice(x, 1, OV_MAX, OV_MIN, 1);
    CHECK(v && v->sizes[1] == 0 && v->offset == 4);
    v = ct_slice(x, 1, OV_MIN, OV_MIN, OV_MAX);
    CHECK(v && v->sizes[1] == 1 && v->offset == 0);
    v = ct_slice(x, 1, OV_MIN + 1, OV_MIN + 1, 1);
    CHECK(v && v->sizes[1] == 0 && v->offset == 0);
    v = ct_slice(x, 1, OV_MIN, OV_MAX, OV_MAX);
    CHECK(v && v->sizes[1] == 1 && v->strides[1] == OV_MAX && ct_get(v, 1) == 4);
    v = ct_slice(x, 0, 1, OV_MAX, OV_MAX); /* stride 4 * step INT64_MAX: one row, saturated stride */
    CHECK(v && v->sizes[0] == 1 && v->strides[0] == OV_MAX && v->offset == 4 && ct_get(v, 3) == 7);
    v = ct_slice(x, 0, -1, OV_MAX, OV_P62);
    CHECK(v && v->sizes[0] == 1 && v->offset == 8);
    CHECK_ERR(ct_slice(x, 1, 0, 4, OV_MIN), CT_ERR_INVALID, "slice step must be positive");
    CHECK_ERR(ct_slice(x, 1, 0, 4, 0), CT_ERR_INVALID, "slice step must be positive");
    CHECK_ERR(ct_slice(x, OV_MIN, 0, 4, 1), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_slice(x, OV_MAX, 0, 4, 1), CT_ERR_INDEX, "dimension out of range");
    /* narrow */
    CHECK_ERR(ct_narrow(x, 1, OV_MIN, 1), CT_ERR_INDEX, "start out of range");
    CHECK_ERR(ct_narrow(x, 1, OV_MAX, 1), CT_ERR_INDEX, "start out of range");
    CHECK_ERR(ct_narrow(x, 1, 0, OV_MAX), CT_ERR_INDEX, "exceeds dimension size");
    CHECK_ERR(ct_narrow(x, 1, 4, OV_MAX), CT_ERR_INDEX, "exceeds dimension size");
    CHECK_ERR(ct_narrow(x, 1, 0, OV_MIN), CT_ERR_INDEX, "length must be non-negative");
    CHECK_ERR(ct_narrow(x, OV_MIN, 0, 1), CT_ERR_INDEX, "dimension out of range");
    v = ct_narrow(x, 1, -4, 4);
    CHECK(v && v->sizes[1] == 4);
    /* select */
    CHECK_ERR(ct_select(x, 1, OV_MIN), CT_ERR_INDEX, "index -9223372036854775808 out of range");
    CHECK_ERR(ct_select(x, 1, OV_MAX), CT_ERR_INDEX, "out of range");
    CHECK_ERR(ct_select(x, OV_MIN, 0), CT_ERR_INDEX, "dimension out of range");
    /* dims */
    CHECK_ERR(ct_unsqueeze(x, OV_MIN), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_unsqueeze(x, OV_MAX), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_transpose(x, 0, OV_MIN), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_permute(x, CT_DIMS(0, OV_MAX)), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_permute(x, CT_DIMS(OV_MIN, 0)), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_flatten(x, OV_MIN, OV_MAX), CT_ERR_INDEX, "dimension out of range");
    CHECK_ERR(ct_squeeze_dim(x, OV_MIN), CT_ERR_INDEX, "dimension out of range");
    CHECK(ct_size(x, OV_MIN) == -1 && ct_last_error() == CT_ERR_INDEX);
    ct_clear_error();
    CHECK(isnan(ct_get(x, OV_MIN)) && ct_last_error() == CT_ERR_INDEX);
    ct_clear_error();
    CHECK(isnan(ct_get(x, OV_MAX)) && ct_last_error() == CT_ERR_INDEX);
    ct_clear_error();
    CHECK(ct_set(x, OV_MAX, 1) == CT_ERR_INDEX);
    ct_clear_error();
  }
}

/* Meta tensors reach the largest sizes without memory: views of them keep
 * every offset and stride in range or fail. */
TEST(overflow_meta_views) {
  const int64_t g30 = (int64_t)1 << 30, g29 = (int64_t)1 << 29, g59 = (int64_t)1 << 59;
  CT_SCOPE {
    ct_tensor *m = ov_meta(CT_DIMS(g30, g29)), *v; /* 2^59 elements */
    CHECK(m && m->numel == g59 && m->strides[0] == g29);
    v = ct_select(m, 0, g30 - 1);
    CHECK(v && v->offset == (g30 - 1) * g29);
    v = ct_as_strided(m, CT_DIMS(2, 2), CT_DIMS(g59 / 2, 1), g59 / 2 - 2);
    CHECK(v && v->numel == 4);
    CHECK_ERR(ct_as_strided(m, CT_DIMS(3), CT_DIMS(g59 / 2), 0), CT_ERR_VIEW, "out of bounds");
    CHECK_ERR(ct_as_strided(m, CT_DIMS(2), CT_DIMS(1), OV_MAX), CT_ERR_VIEW, "out of bounds");
    v = ct_as_strided(m, CT_DIMS(1, 2), CT_DIMS(OV_MAX, g59 / 2), 0);
    CHECK(v && v->numel == 2);
    v = ct_unsqueeze(v, 1);
    CHECK(v && v->strides[1] == g59 && v->strides[0] == OV_MAX);
    v = ct_expand(m, CT_DIMS(1, g30, g29));
    CHECK(v && v->numel == g59);
    CHECK_ERR(ct_expand(m, CT_DIMS(2, g30, g29)), CT_ERR_SIZE, "overflowed"); /* 2^60 elements: more than a tensor may have */
    CHECK_ERR(ct_expand(m, CT_DIMS(OV_MAX, g30, g29)), CT_ERR_SIZE, "overflowed");
    v = ct_flatten(m, 0, 1);
    CHECK(v && v->numel == g59 && v->ndim == 1);
    v = ct_view(m, CT_DIMS(-1, 4));
    CHECK(v && v->sizes[0] == g59 / 4);
    v = ct_slice(m, 0, 1, OV_MAX, OV_MAX);
    CHECK(v && v->sizes[0] == 1 && v->offset == g29 && v->strides[0] == OV_MAX);
  }
}

/* ---- convolution, pooling, im2col / col2im ---- */
#define OV_ONE CT_DIMS(1)
#define OV_ZERO CT_DIMS(0)

TEST(overflow_conv) {
  CT_SCOPE {
    ct_tensor *x = ct_ones(CT_DIMS(1, 1, 4), CT_F32), *w = ct_ones(CT_DIMS(1, 1, 2), CT_F32);
    ct_tensor *x2 = ct_ones(CT_DIMS(1, 1, 4, 4), CT_F32), *w2 = ct_ones(CT_DIMS(1, 1, 2, 2), CT_F32), *y;
    /* padding, dilation and stride at the extremes */
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, CT_DIMS(OV_MAX), OV_ONE, 1), CT_ERR_SIZE,
              "convolution: the output size overflows int64: input size 4, kernel size 2, stride 1, padding 9223372036854775807, dilation 1");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, CT_DIMS(OV_P62), OV_ONE, 1), CT_ERR_SIZE, "the output size overflows int64");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, CT_DIMS(OV_P62 / 2), OV_ONE, 1), CT_ERR_SIZE, "Storage size calculation overflowed");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, OV_ZERO, CT_DIMS(OV_MAX), 1), CT_ERR_SIZE, "dilation 9223372036854775807");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, OV_ZERO, CT_DIMS(OV_P62), 1), CT_ERR_SHAPE,
              "Calculated padded input size per channel: (4). Kernel size: (4611686018427387905). Kernel size can't be greater "
              "than actual input size");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, CT_DIMS(OV_P62 / 2), CT_DIMS(OV_MAX), 1), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_conv1d(x, w, NULL, CT_DIMS(OV_MIN), OV_ZERO, OV_ONE, 1), CT_ERR_INVALID, "non-positive stride");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, CT_DIMS(OV_MIN), OV_ONE, 1), CT_ERR_INVALID, "negative padding");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, OV_ZERO, CT_DIMS(OV_MIN), 1), CT_ERR_INVALID, "non-positive dilation");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, OV_ZERO, OV_ONE, OV_MAX), CT_ERR_SHAPE, "expected weight to be at least");
    CHECK_ERR(ct_conv1d(x, w, NULL, OV_ONE, OV_ZERO, OV_ONE, OV_MIN), CT_ERR_INVALID, "non-positive groups");
    y = ct_conv1d(x, w, NULL, CT_DIMS(OV_MAX), OV_ZERO, OV_ONE, 1); /* one output position */
    CHECK(y && y->ndim == 3 && y->sizes[2] == 1 && ct_get(y, 0) == 2);
    y = ct_conv1d(x, w, NULL, CT_DIMS(OV_MAX), CT_DIMS(1), CT_DIMS(3), 1); /* taps at -1 and 2 */
    CHECK(y && y->sizes[2] == 1 && ct_get(y, 0) == 1);
    CHECK_ERR(ct_conv2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(0, OV_MAX), CT_DIMS(1, 1), 1), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_conv2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, OV_P62 / 2), CT_DIMS(1, 1), 1), CT_ERR_SIZE, "overflowed");
    y = ct_conv2d(x2, w2, NULL, CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(1, 1), CT_DIMS(1, 1), 1);
    CHECK(y && y->sizes[2] == 1 && y->sizes[3] == 1 && ct_get(y, 0) == 1);
    CHECK_ERR(ct_conv1d_padding(x, w, NULL, OV_ONE, "same", CT_DIMS(OV_MAX), 1), CT_ERR_SIZE, "overflows");
    CHECK_ERR(ct_conv1d_padding(x, ct_ones(CT_DIMS(1, 1, 3), CT_F32), NULL, OV_ONE, "same", CT_DIMS(OV_MAX), 1), CT_ERR_SIZE,
              "padding='same': dilation 9223372036854775807 * (kernel size 3 - 1) overflows int64");
    /* transposed */
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(OV_P62, 1), CT_DIMS(0, 0), CT_DIMS(0, 0), 1, CT_DIMS(1, 1)), CT_ERR_SIZE,
              "the output size overflows int64: input size 4, kernel size 2, stride 4611686018427387904, padding 0, dilation 1, "
              "output_padding 0");
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(OV_MAX, 1), CT_DIMS(0, 0), CT_DIMS(OV_P62, 0), 1, CT_DIMS(1, 1)), CT_ERR_SIZE,
              "overflows int64");
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(OV_MAX, 0), CT_DIMS(0, 0), 1, CT_DIMS(1, 1)), CT_ERR_SIZE,
              "overflows int64");
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(0, 0), 1, CT_DIMS(OV_MAX, 1)), CT_ERR_SIZE,
              "overflows int64");
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(0, 0), 1, CT_DIMS(OV_P62, 1)), CT_ERR_SIZE,
              "overflowed"); /* fits int64; the result does not fit in memory */
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, 0), CT_DIMS(0, 0), 1, CT_DIMS(1, 1)), CT_ERR_SHAPE,
              "Output size is too small");
    CHECK_ERR(ct_conv_transpose2d(x2, w2, NULL, CT_DIMS(1, 1), CT_DIMS(OV_P62, 0), CT_DIMS(0, 0), 1, CT_DIMS(1, 1)), CT_ERR_SIZE,
              "padding 4611686018427387904, dilation 1, output_padding 0"); /* 2 * padding */
    CHECK_ERR(ct_convolution(x, w, NULL, OV_ONE, OV_ZERO, OV_ONE, true, CT_DIMS(OV_MAX - 1), 1), CT_ERR_INVALID,
              "output padding must be smaller than either stride or dilation");
    CHECK_ERR(ct_convolution(x, w, NULL, CT_DIMS(OV_MAX), OV_ZERO, OV_ONE, true, CT_DIMS(OV_MAX - 1), 1), CT_ERR_SIZE,
              "output_padding 9223372036854775806");
    CHECK_ERR(ct_convolution(x, ct_ones(CT_DIMS(1, 2, 2), CT_F32), NULL, OV_ONE, OV_ZERO, OV_ONE, true, OV_ZERO, OV_MAX), CT_ERR_SHAPE,
              "expected weight to be at least");
    /* backward ops: sizes come from the caller */
    y = ct_ones(CT_DIMS(1, 1, 3), CT_F32);
    CHECK_ERR(ct_convolution_backward_input(y, w, CT_DIMS(1, 1, OV_MAX), OV_ONE, CT_DIMS(1), OV_ONE, 1), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_convolution_backward_input(y, w, CT_DIMS(1, 1, OV_MAX), OV_ONE, OV_ZERO, OV_ONE, 1), CT_ERR_SIZE, "overflowed");
    CHECK_ERR(ct_convolution_backward_input(y, w, CT_DIMS(1, 1, OV_MIN), OV_ONE, OV_ZERO, OV_ONE, 1), CT_ERR_SIZE, "negative size");
    CHECK_ERR(ct_convolution_backward_input(y, w, CT_DIMS(1, 1, 4), OV_ONE, CT_DIMS(OV_P62), OV_ONE, 1), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_convolution_backward_weight(y, x, CT_DIMS(1, OV_MAX, 2), OV_ONE, OV_ZERO, OV_ONE, 2), CT_ERR_SHAPE, "do not match");
    CHECK_ERR(ct_convolution_backward_weight(y, x, CT_DIMS(1, 1, OV_MAX), OV_ONE, OV_ZERO, CT_DIMS(2), 1), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_convolution_backward_weight(y, x, CT_DIMS(1, 1, 2), OV_ONE, CT_DIMS(OV_MAX), OV_ONE, 1), CT_ERR_SIZE, "overflows int64");
    /* meta tensors: huge kernels and paddings without memory */
    y = ct_conv1d(ov_meta(CT_DIMS(1, 1, 4)), ov_meta(CT_DIMS(1, 1, (int64_t)1 << 59)), NULL, OV_ONE, CT_DIMS((int64_t)1 << 58), OV_ONE, 1);
    CHECK(y && y->sizes[2] == 5);
    CHECK_ERR(ct_conv1d(ov_meta(CT_DIMS(1, 1, 4)), ov_meta(CT_DIMS(1, 1, (int64_t)1 << 59)), NULL, OV_ONE, OV_ZERO, CT_DIMS(OV_P62), 1),
              CT_ERR_SIZE, "overflows int64");
    y = ct_conv2d(ov_meta(CT_DIMS(1, 1, 4, 4)), ov_meta(CT_DIMS(1, 1, (int64_t)1 << 29, (int64_t)1 << 29)), NULL, CT_DIMS(1, 1),
                  CT_DIMS((int64_t)1 << 28, (int64_t)1 << 28), CT_DIMS(1, 1), 1);
    CHECK(y && y->sizes[2] == 5 && y->sizes[3] == 5);
    CHECK_ERR(ct_conv2d(ov_meta(CT_DIMS(1, 1, 4, 4)), ov_meta(CT_DIMS(1, 1, (int64_t)1 << 29, (int64_t)1 << 29)), NULL, CT_DIMS(1, 1),
                        CT_DIMS(0, 0), CT_DIMS(1, 1), 1),
              CT_ERR_SHAPE, "Kernel size can't be greater than actual input size");
  }
}

TEST(overflow_pool) {
  CT_SCOPE {
    float xs[16];
    ct_tensor *x, *y, *idx = NULL;
    int i;
    for (i = 0; i < 16; i++) xs[i] = (float)((i * 7) % 16);
    x = ct_from_array(CT_DIMS(1, 4, 4), CT_F32, xs);
    /* a huge kernel and padding: the window covers the input, at no cost */
    y = ct_max_pool2d_with_indices(x, CT_DIMS(OV_P62, OV_P62), CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, OV_P62 / 2), CT_DIMS(1, 1), false, &idx);
    CHECK(y && y->sizes[1] == 5 && y->sizes[2] == 5 && ct_get(y, 0) == 15 && ct_get(y, 24) == 15 && ct_get_int(idx, 12) == 9);
    y = ct_max_pool2d(x, CT_DIMS(2, 2), CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(0, 0), CT_DIMS(1, 1), false);
    CHECK(y && y->sizes[1] == 1 && y->sizes[2] == 1 && ct_get(y, 0) == 12);
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(1, 1), CT_DIMS(OV_P62, OV_P62), false), CT_ERR_SHAPE,
              "Output size is too small"); /* taps far apart */
    y = ct_max_pool2d_with_indices(ct_ones(CT_DIMS(1, 2, 2), CT_F32), CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(1, 1), CT_DIMS(3, 3), false,
                                   &idx); /* a window of padding only: -inf at index 6, as PyTorch */
    CHECK(y && y->sizes[1] == 1 && isinf(ct_get(y, 0)) && ct_get(y, 0) < 0 && ct_get_int(idx, 0) == 6);
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(1, 1), false), CT_ERR_SHAPE,
              "Output size is too small");
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(1, 1), CT_DIMS(OV_P62 - 1, OV_P62 - 1), CT_DIMS(1, 1), false), CT_ERR_SIZE,
              "max_pool2d: the output size overflows int64");
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(OV_MAX, OV_MAX), false), CT_ERR_SIZE,
              "overflows int64");
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(2, 2), CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(0, 0), CT_DIMS(1, 1), true), CT_ERR_SIZE,
              "overflows int64"); /* ceil mode adds stride - 1 */
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(2, 2), CT_DIMS(OV_MIN, 1), CT_DIMS(0, 0), CT_DIMS(1, 1), false), CT_ERR_INVALID,
              "stride should be greater than zero");
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(OV_MIN, 2), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(1, 1), false), CT_ERR_INVALID,
              "kernel size should be greater than zero");
    CHECK_ERR(ct_max_pool2d(x, CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(OV_MAX, 0), CT_DIMS(1, 1), false), CT_ERR_INVALID,
              "pad should be at most half of kernel size");
    /* avg_pool2d: the divisor of a window is at most the padded plane's size */
    y = ct_avg_pool2d(x, CT_DIMS((int64_t)1 << 30, (int64_t)1 << 30), CT_DIMS(1, 1), CT_DIMS((int64_t)1 << 29, (int64_t)1 << 29),
                      false, false, CT_INT_NONE);
    CHECK(y && y->sizes[1] == 5 && fabs(ct_get(y, 0) - 7.5) < 1e-6);
    y = ct_avg_pool2d(x, CT_DIMS((int64_t)1 << 30, (int64_t)1 << 30), CT_DIMS(1, 1), CT_DIMS((int64_t)1 << 29, (int64_t)1 << 29),
                      false, true, CT_INT_NONE);
    CHECK(y && y->sizes[1] == 5 && ct_get(y, 0) > 0 && ct_get(y, 0) < 1e-10);
    CHECK_ERR(ct_avg_pool2d(x, CT_DIMS(OV_P62, OV_P62), CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, OV_P62 / 2), false, true, CT_INT_NONE),
              CT_ERR_SIZE, "the padded input size (4611686018427387908 x 4611686018427387908) overflows int64");
    CHECK_ERR(ct_avg_pool2d(x, CT_DIMS(2, 2), CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(1, 1), true, true, CT_INT_NONE), CT_ERR_SIZE,
              "overflows int64");
    y = ct_avg_pool2d(x, CT_DIMS(2, 2), CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(1, 1), false, true, OV_MIN);
    CHECK(y && y->numel == 1);
    /* adaptive: output sizes */
    CHECK_ERR(ct_adaptive_avg_pool2d(x, CT_DIMS(OV_MAX, 1)), CT_ERR_SIZE, "overflowed");
    CHECK_ERR(ct_adaptive_avg_pool2d(x, CT_DIMS(OV_MIN, 1)), CT_ERR_INVALID, "greater than or equal to 0");
    y = ct_adaptive_avg_pool2d(x, CT_DIMS(OV_MAX, 0));
    CHECK(y && y->numel == 0);
  }
}

TEST(overflow_im2col) {
  CT_SCOPE {
    ct_tensor *x = ct_ones(CT_DIMS(1, 1, 4, 4), CT_F32), *c = ct_ones(CT_DIMS(1, 4, 9), CT_F32), *y;
    CHECK_ERR(ct_im2col(x, CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(OV_MAX, 0), CT_DIMS(1, 1)), CT_ERR_SIZE,
              "im2col: the output size overflows int64");
    CHECK_ERR(ct_im2col(x, CT_DIMS(2, 2), CT_DIMS(OV_MAX, 1), CT_DIMS(0, 0), CT_DIMS(1, 1)), CT_ERR_SIZE, "overflows int64");
    CHECK_ERR(ct_im2col(x, CT_DIMS(OV_P62, OV_P62), CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, OV_P62 / 2), CT_DIMS(1, 1)), CT_ERR_SIZE,
              "channels per group (1) * kernel size (4611686018427387904 x 4611686018427387904) overflows int64");
    CHECK_ERR(ct_im2col(x, CT_DIMS(1, 1), CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, OV_P62 / 2), CT_DIMS(1, 1)), CT_ERR_SIZE,
              "the number of sliding blocks");
    CHECK_ERR(ct_im2col(x, CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(OV_MIN, 0), CT_DIMS(1, 1)), CT_ERR_INVALID,
              "padding should be non-negative");
    y = ct_im2col(x, CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(1, 1), CT_DIMS(OV_MAX, OV_MAX)); /* one block */
    CHECK(y && y->sizes[1] == 4 && y->sizes[2] == 1 && ct_get(y, 3) == 1 && ct_get(y, 0) == 0);
    y = ct_im2col(x, CT_DIMS(2, 2), CT_DIMS(3, 3), CT_DIMS(OV_P62 / 4, OV_P62 / 4), CT_DIMS(OV_P62, OV_P62)); /* padding rows only */
    CHECK(y && y->sizes[2] == 1 && ct_get(y, 0) == 0);
    CHECK_ERR(ct_col2im(c, CT_DIMS(OV_MAX, OV_MAX), CT_DIMS(1, 1), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(1, 1)), CT_ERR_SIZE,
              "the number of sliding blocks 9223372036854775807 * 9223372036854775807 overflows int64");
    CHECK_ERR(ct_col2im(c, CT_DIMS(4, 4), CT_DIMS(OV_P62, OV_P62), CT_DIMS(1, 1), CT_DIMS(OV_P62 / 2, OV_P62 / 2), CT_DIMS(1, 1)),
              CT_ERR_SIZE, "kernel_size=(4611686018427387904, 4611686018427387904): their product overflows int64");
    CHECK_ERR(ct_col2im(c, CT_DIMS(-4, 4), CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(1, 1)), CT_ERR_SHAPE,
              "must be at least one");
    CHECK_ERR(ct_col2im(c, CT_DIMS(OV_MIN, 4), CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(1, 1)), CT_ERR_SIZE,
              "overflows int64");
    CHECK_ERR(ct_col2im(c, CT_DIMS(4, 4), CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(OV_MAX, 0), CT_DIMS(1, 1)), CT_ERR_SIZE,
              "col2im: the output size overflows int64");
    y = ct_col2im(c, CT_DIMS(4, 4), CT_DIMS(2, 2), CT_DIMS(1, 1), CT_DIMS(0, 0), CT_DIMS(1, 1));
    CHECK(y && y->numel == 16 && ct_get(y, 5) == 4);
  }
}
