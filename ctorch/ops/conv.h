/* ctorch/ops/conv.h - reference kernels: convolution and pooling (attention is in nn.h).
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/conv.spec and their derivatives in
 * gen/derivatives/conv.spec; the frontends are generated (docs/ops.md).
 *
 * Convolution is lowered to im2col + a matrix product through ct_mm (the
 * dispatched op, so a faster mm kernel registered by a backend speeds
 * convolution up too):
 *   forward          out[g]  = W[g] (Og x Cg*k)  @ cols[g] (Cg*k x N*L)
 *   backward_input   cols[g] = W[g]^T            @ grad[g], then col2im
 *   backward_weight  gW[g]   = grad[g] (Og x N*L) @ cols[g]^T
 * where cols = im2col(input): one column per output position, one row per
 * (input channel, kernel offset). A transposed convolution is the
 * backward_input of the convolution it transposes. 1-D convolutions run as
 * 2-D ones with height 1. f16/bf16 compute in f32 and round once.
 * The three products are each other's derivatives (convolution is
 * bilinear), so derivatives of every order are ct ops.
 *
 * Pooling (max, avg, adaptive avg / max, max_unpool) runs over the N*C
 * planes of a contiguous copy in the compute dtype; one kernel per kind
 * covers 2-D and 3-D (D x H x W planes, depth 1 in 2-D), and the 1-D ops are
 * PyTorch's composites over a height-1 view. Each backward op is itself
 * differentiable (max pool's through a gather at the saved indices).
 * Upsampling (nearest, nearest-exact, linear, cubic; 1-D to 3-D) is one
 * separable tap mechanism: each output position reads weighted taps of the
 * input along each dim, and the backward scatters through the same taps.
 */
#ifndef CT_OPS_CONV_H
#define CT_OPS_CONV_H

#include "../ops.h"

#endif /* CT_OPS_CONV_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_CONV_IMPL)
#define CT__OPS_CONV_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* an int[] as the (length, pointer) pair of a frontend; None (n = -1) as empty */
#define CT__CONV_LIST(l) (int)((l).n < 0 ? 0 : (l).n), (l).data

/* ================= convolution ================= */

/* One convolution, always seen as 2-D (a 1-D one has H = kh = 1). OH x OW
 * are the output positions computed (for the backward ops: the positions
 * grad_output covers, which may be fewer than the convolution has). */
typedef struct ct__conv_geom {
  int nsp;                /* spatial dims of the op: 1 or 2 */
  int64_t N, C, H, W;     /* input */
  int64_t O, OH, OW;      /* output channels and positions */
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t groups, Cg, Og; /* input and output channels per group */
  int64_t K;              /* Cg * kh * kw: rows of im2col, columns of a group's weight matrix */
} ct__conv_geom;

/* im2col buffers hold at most this many elements; larger batches run in chunks */
#define CT__CONV_COLS_LIMIT ((int64_t)1 << 24)

/* A stride/padding/dilation/output_padding list: one value for every spatial
 * dim, or one per dim (PyTorch's expand_param_if_needed). out[0] is the
 * height (`neutral` for 1-D), out[1] the width. */
static ct_status ct__conv_param(const char *op, const char *name, ct_int_list l, int nsp, int64_t neutral, int64_t out[2]) {
  if (l.n != 1 && l.n != nsp) {
    char buf[160];
    return ct_fail(CT_ERR_INVALID, op,
                   "expected %s to be a single integer value or a list of %d values to match the convolution dimensions, "
                   "but got %s=%s",
                   name, nsp, name, ct_shape_format(l.n < 0 ? 0 : (int)(l.n > 8 ? 8 : l.n), l.data, buf, sizeof buf));
  }
  out[0] = nsp == 1 ? neutral : l.data[0];
  out[1] = l.data[l.n - 1];
  return CT_OK;
}
static ct_status ct__conv_params(const char *op, int nsp, ct_int_list stride, ct_int_list padding, ct_int_list dilation,
                                 ct__conv_geom *g) {
  int64_t s[2] = {1, 1}, p[2] = {0, 0}, d[2] = {1, 1};
  if (ct__conv_param(op, "stride", stride, nsp, 1, s) != CT_OK || ct__conv_param(op, "padding", padding, nsp, 0, p) != CT_OK ||
      ct__conv_param(op, "dilation", dilation, nsp, 1, d) != CT_OK)
    return ct_last_error();
  if (p[0] < 0 || p[1] < 0) return ct_fail(CT_ERR_INVALID, op, "negative padding is not supported");
  if (s[0] <= 0 || s[1] <= 0) return ct_fail(CT_ERR_INVALID, op, "non-positive stride is not supported");
  if (d[0] <= 0 || d[1] <= 0) return ct_fail(CT_ERR_INVALID, op, "non-positive dilation is not supported");
  g->nsp = nsp;
  g->sh = s[0], g->sw = s[1], g->ph = p[0], g->pw = p[1], g->dh = d[0], g->dw = d[1];
  return CT_OK;
}
/* spatial sizes of an N-D shape as (H, W) */
static void ct__conv_hw(int nsp, const int64_t *spatial, int64_t *h, int64_t *w) {
  *h = nsp == 1 ? 1 : spatial[0];
  *w = spatial[nsp - 1];
}
/* ---- size arithmetic: every step checked (huge padding, stride, dilation
 * or kernel sizes give an error naming them, never an overflow) ---- */
/* One spatial dim of a convolution, unfold or pooling window: the padded
 * input size in + 2p, the dilated kernel extent d(k-1)+1 and the span
 * in + 2p - d(k-1) - 1 (the output has span / s + 1 positions when span >= 0);
 * false when a step overflows int64. */
static bool ct__conv_span(int64_t in, int64_t k, int64_t p, int64_t d, int64_t *padded, int64_t *extent, int64_t *span) {
  int64_t t;
  if (ct__mul_ovf(p, 2, &t) || ct__add_ovf(in, t, padded)) return false;
  if (ct__sub_ovf(k, 1, &t) || ct__mul_ovf(d, t, &t) || ct__add_ovf(t, 1, extent)) return false;
  return !ct__sub_ovf(*padded, *extent, span);
}
/* output positions for a span (0 when the kernel does not fit) */
static int64_t ct__conv_out_len(int64_t span, int64_t s) { return span < 0 ? 0 : span / s + 1; }
static ct_status ct__conv_overflow(const char *op, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d) {
  return ct_fail(CT_ERR_SIZE, op,
                 "the output size overflows int64: input size %lld, kernel size %lld, stride %lld, padding %lld, dilation %lld",
                 (long long)in, (long long)k, (long long)s, (long long)p, (long long)d);
}
/* a transposed convolution's output size (in - 1) * s - 2p + d(k-1) + output_padding + 1, checked */
static ct_status ct__convt_len(const char *op, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, int64_t opad, int64_t *out) {
  int64_t a, b;
  if (ct__mul_ovf(in - 1, s, &a) || ct__mul_ovf(p, 2, &b) || ct__sub_ovf(a, b, &a) || ct__mul_ovf(d, k - 1, &b) ||
      ct__add_ovf(a, b, &a) || ct__add_ovf(a, opad, &a) || ct__add_ovf(a, 1, out))
    return ct_fail(CT_ERR_SIZE, op,
                   "the output size overflows int64: input size %lld, kernel size %lld, stride %lld, padding %lld, dilation %lld, "
                   "output_padding %lld",
                   (long long)in, (long long)k, (long long)s, (long long)p, (long long)d, (long long)opad);
  return CT_OK;
}
/* g->K = Cg * kh * kw (a zero factor wins); an error when it overflows */
static ct_status ct__conv_k(const char *op, ct__conv_geom *g) {
  int64_t f[3];
  f[0] = g->Cg, f[1] = g->kh, f[2] = g->kw;
  if (!ct__sizes_product(3, f, &g->K))
    return ct_fail(CT_ERR_SIZE, op, "channels per group (%lld) * kernel size (%lld x %lld) overflows int64", (long long)g->Cg,
                   (long long)g->kh, (long long)g->kw);
  return CT_OK;
}
static ct_status ct__conv_dtype_ok(const char *op, ct_dtype d) {
  if (d == CT_BOOL) return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for 'Bool'", op);
  return CT_OK;
}
static ct_status ct__conv_same_type(const char *op, const ct_tensor *input, const ct_tensor *other, const char *what) {
  if (input->dtype != other->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Input type (torch.%sTensor) and %s type (torch.%sTensor) should be the same",
                   ct__dtype_torch_name((ct_dtype)input->dtype), what, ct__dtype_torch_name((ct_dtype)other->dtype));
  return CT_OK;
}

/* PyTorch's check_shape_forward for convolution (transposed or not); fills
 * the geometry of the underlying (non-transposed) convolution and the
 * op's output shape. */
static ct_status ct__conv_setup(const char *op, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                ct_int_list padding, ct_int_list dilation, bool transposed, ct_int_list output_padding,
                                int64_t groups, ct__conv_geom *g, int64_t *out_shape) {
  char b1[160], b2[160];
  int64_t op_[2] = {0, 0}, H, W, k, i, nsp, span_h = 0, span_w = 0;
  if (weight->ndim < 3) return ct_fail(CT_ERR_RANK, op, "weight should have at least three dimensions");
  if (weight->ndim > 4)
    return ct_fail(CT_ERR_UNSUPPORTED, op, "only 1-D and 2-D convolutions are supported, got a %dD weight", weight->ndim);
  if (groups <= 0) return ct_fail(CT_ERR_INVALID, op, "non-positive groups is not supported");
  nsp = weight->ndim - 2;
  if (ct__conv_params(op, (int)nsp, stride, padding, dilation, g) != CT_OK) return ct_last_error();
  if (transposed && ct__conv_param(op, "output_padding", output_padding, (int)nsp, 0, op_) != CT_OK) return ct_last_error();
  if (op_[0] < 0 || op_[1] < 0) return ct_fail(CT_ERR_INVALID, op, "negative output_padding is not supported");
  if (input->ndim != weight->ndim)
    return ct_fail(CT_ERR_RANK, op, "Expected %d-dimensional input for %d-dimensional weight %s, but got %d-dimensional input of size %s instead",
                   weight->ndim, weight->ndim, ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1), input->ndim,
                   ct_shape_format(input->ndim, input->sizes, b2, sizeof b2));
  if (weight->sizes[0] < groups)
    return ct_fail(CT_ERR_SHAPE, op, "Given groups=%lld, expected weight to be at least %lld at dimension 0, but got weight of size %s instead",
                   (long long)groups, (long long)groups, ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1));
  if (weight->sizes[0] % groups != 0)
    return ct_fail(CT_ERR_SHAPE, op, "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but got weight of size [%s] instead",
                   (long long)groups, (long long)groups, ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1));
  if (!transposed && ct__mul_ovf(weight->sizes[1], groups, &k)) /* input channels expected */
    return ct_fail(CT_ERR_SIZE, op, "Given groups=%lld, weight of size %s: the input channel count overflows int64", (long long)groups,
                   ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1));
  if (transposed) k = weight->sizes[0];
  if (input->sizes[1] != k)
    return ct_fail(CT_ERR_SHAPE, op, "Given %s=%lld, weight of size %s, expected input%s to have %lld channels, but got %lld channels instead",
                   transposed ? "transposed" : "groups", transposed ? 1LL : (long long)groups,
                   ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1), ct_shape_format(input->ndim, input->sizes, b2, sizeof b2),
                   (long long)k, (long long)input->sizes[1]);
  if (transposed && ct__mul_ovf(weight->sizes[1], groups, &k)) /* output channels */
    return ct_fail(CT_ERR_SIZE, op, "Given transposed=1, groups=%lld, weight of size %s: the output channel count overflows int64",
                   (long long)groups, ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1));
  if (!transposed) k = weight->sizes[0];
  if (bias && (bias->ndim != 1 || bias->sizes[0] != k)) {
    char b3[160];
    return ct_fail(CT_ERR_SHAPE, op, "Given %sweight of size %s, expected bias to be 1-dimensional with %lld elements, but got bias of size %s instead",
                   transposed ? "transposed=1, " : "", ct_shape_format(weight->ndim, weight->sizes, b1, sizeof b1), (long long)k,
                   ct_shape_format(bias->ndim, bias->sizes, b3, sizeof b3));
  }
  ct__conv_hw((int)nsp, input->sizes + 2, &H, &W);
  g->groups = groups;
  ct__conv_hw((int)nsp, weight->sizes + 2, &g->kh, &g->kw);
  if (!transposed) {
    int64_t eh, ew, padh, padw;
    if (!ct__conv_span(H, g->kh, g->ph, g->dh, &padh, &eh, &span_h)) return ct__conv_overflow(op, H, g->kh, g->sh, g->ph, g->dh);
    if (!ct__conv_span(W, g->kw, g->pw, g->dw, &padw, &ew, &span_w)) return ct__conv_overflow(op, W, g->kw, g->sw, g->pw, g->dw);
    if (padh < eh || padw < ew) {
      if (nsp == 1)
        return ct_fail(CT_ERR_SHAPE, op, "Calculated padded input size per channel: (%lld). Kernel size: (%lld). Kernel size "
                       "can't be greater than actual input size", (long long)padw, (long long)ew);
      return ct_fail(CT_ERR_SHAPE, op, "Calculated padded input size per channel: (%lld x %lld). Kernel size: (%lld x %lld). "
                     "Kernel size can't be greater than actual input size", (long long)padh, (long long)padw,
                     (long long)eh, (long long)ew);
    }
  }
  for (i = 2; i < input->ndim; i++)
    if (input->sizes[i] == 0)
      return ct_fail(CT_ERR_SHAPE, op, "Only zero batch or zero channel inputs are supported, but got input shape: %s",
                     ct_shape_format(input->ndim, input->sizes, b1, sizeof b1));
  if (ct__conv_dtype_ok(op, (ct_dtype)input->dtype) != CT_OK || ct__conv_same_type(op, input, weight, "weight") != CT_OK ||
      (bias && ct__conv_same_type(op, input, bias, "bias") != CT_OK))
    return ct_last_error();
  g->N = input->sizes[0];
  if (!transposed) {
    g->C = input->sizes[1], g->H = H, g->W = W;
    g->O = weight->sizes[0];
    g->OH = ct__conv_out_len(span_h, g->sh);
    g->OW = ct__conv_out_len(span_w, g->sw);
    out_shape[nsp == 1 ? 2 : 3] = g->OW;
    if (nsp == 2) out_shape[2] = g->OH;
  } else { /* the convolution this transposes maps our output back to our input */
    int64_t oh, ow;
    if ((op_[0] >= g->sh && op_[0] >= g->dh) || (op_[1] >= g->sw && op_[1] >= g->dw)) {
      if (nsp == 1)
        return ct_fail(CT_ERR_INVALID, op, "output padding must be smaller than either stride or dilation, but got output_padding: %lld "
                       "stride: %lld dilation: %lld", (long long)op_[1], (long long)g->sw, (long long)g->dw);
      return ct_fail(CT_ERR_INVALID, op, "output padding must be smaller than either stride or dilation, but got output_padding_height: "
                     "%lld output_padding_width: %lld stride_height: %lld stride_width: %lld dilation_height: %lld dilation_width: %lld",
                     (long long)op_[0], (long long)op_[1], (long long)g->sh, (long long)g->sw, (long long)g->dh, (long long)g->dw);
    }
    if (ct__convt_len(op, H, g->kh, g->sh, g->ph, g->dh, op_[0], &oh) != CT_OK ||
        ct__convt_len(op, W, g->kw, g->sw, g->pw, g->dw, op_[1], &ow) != CT_OK)
      return ct_last_error();
    if (oh <= 0 || ow <= 0) {
      if (nsp == 1)
        return ct_fail(CT_ERR_SHAPE, op, "Given input size per channel: (%lld). Calculated output size per channel: (%lld). "
                       "Output size is too small", (long long)W, (long long)ow);
      return ct_fail(CT_ERR_SHAPE, op, "Given input size per channel: (%lld x %lld). Calculated output size per channel: "
                     "(%lld x %lld). Output size is too small", (long long)H, (long long)W, (long long)oh, (long long)ow);
    }
    g->C = k, g->H = oh, g->W = ow; /* (k: weight->sizes[1] * groups, checked) */
    g->O = weight->sizes[0], g->OH = H, g->OW = W;
    out_shape[nsp == 1 ? 2 : 3] = ow;
    if (nsp == 2) out_shape[2] = oh;
  }
  g->Cg = g->C / groups;
  g->Og = g->O / groups;
  if (ct__conv_k(op, g) != CT_OK) return ct_last_error();
  out_shape[0] = g->N;
  out_shape[1] = transposed ? g->C : g->O;
  return CT_OK;
}

/* ---- im2col / col2im over element bits (im2col) or values (col2im) ----
 * cols[(c*kh + i)*kw + j][(n*OH + oh)*OW + ow] = x[n0+n][c0+c][oh*sh-ph+i*dh][ow*sw-pw+j*dw], 0 outside.
 * With stride 1 along a contiguous width, a row of cols is zeros, a copy of
 * one span of an input row (iw = ow + j*dw - pw) and zeros. */
#define CT__IM2COL(NAME, T)                                                                                   \
  static void NAME(const ct__conv_geom *g, const ct_tensor *x, int64_t n0, int64_t nb, int64_t c0, T *cols) { \
    const T *X = (const T *)ct_data_ptr(x);                                                                   \
    const int64_t *st = x->strides;                                                                           \
    int64_t c, i, j, n, oh, ow;                                                                               \
    if (g->sw == 1 && st[3] == 1) {                                                                           \
      for (c = 0; c < g->Cg; c++)                                                                             \
        for (i = 0; i < g->kh; i++)                                                                           \
          for (j = 0; j < g->kw; j++) {                                                                       \
            int64_t off = j * g->dw - g->pw; /* (in [-pw, W + pw): the setup checked) */                     \
            int64_t lo = off < 0 ? -off : 0, hi = g->W - off; /* ow in [lo, hi): inside the row */           \
            if (lo > g->OW) lo = g->OW;                                                                       \
            if (hi > g->OW) hi = g->OW;                                                                       \
            if (hi < lo) hi = lo;                                                                             \
            for (n = 0; n < nb; n++)                                                                          \
              for (oh = 0; oh < g->OH; oh++, cols += g->OW) {                                                 \
                int64_t ih = oh * g->sh - g->ph + i * g->dh;                                                  \
                if (ih < 0 || ih >= g->H || hi == lo) {                                                       \
                  memset(cols, 0, sizeof(T) * (size_t)g->OW);                                                 \
                  continue;                                                                                   \
                }                                                                                             \
                if (lo > 0) memset(cols, 0, sizeof(T) * (size_t)lo);                                          \
                memcpy(cols + lo, X + (n0 + n) * st[0] + (c0 + c) * st[1] + ih * st[2] + lo + off,            \
                       sizeof(T) * (size_t)(hi - lo));                                                        \
                if (hi < g->OW) memset(cols + hi, 0, sizeof(T) * (size_t)(g->OW - hi));                       \
              }                                                                                               \
          }                                                                                                   \
      return;                                                                                                 \
    }                                                                                                         \
    for (c = 0; c < g->Cg; c++)                                                                               \
      for (i = 0; i < g->kh; i++)                                                                             \
        for (j = 0; j < g->kw; j++)                                                                           \
          for (n = 0; n < nb; n++)                                                                            \
            for (oh = 0; oh < g->OH; oh++) {                                                                  \
              int64_t ih = oh * g->sh - g->ph + i * g->dh, base; /* (in [-ph, H + ph): the setup checked) */   \
              if (ih < 0 || ih >= g->H) { /* a padding row: no offset computed (it could overflow) */         \
                for (ow = 0; ow < g->OW; ow++) *cols++ = (T)0;                                               \
                continue;                                                                                     \
              }                                                                                               \
              base = (n0 + n) * st[0] + (c0 + c) * st[1] + ih * st[2];                                        \
              for (ow = 0; ow < g->OW; ow++) {                                                                \
                int64_t iw = ow * g->sw - g->pw + j * g->dw;                                                  \
                *cols++ = iw >= 0 && iw < g->W ? X[base + iw * st[3]] : (T)0;                                 \
              }                                                                                               \
            }                                                                                                 \
  }
CT__IM2COL(ct__im2col_1, uint8_t)
CT__IM2COL(ct__im2col_2, uint16_t)
CT__IM2COL(ct__im2col_4, uint32_t)
CT__IM2COL(ct__im2col_8, uint64_t)
static void ct__im2col(const ct__conv_geom *g, const ct_tensor *x, int64_t n0, int64_t nb, int64_t c0, ct_tensor *cols) {
  void *d = ct_data_ptr(cols);
  switch (ct_dtype_size((ct_dtype)x->dtype)) {
  case 1: ct__im2col_1(g, x, n0, nb, c0, (uint8_t *)d); break;
  case 2: ct__im2col_2(g, x, n0, nb, c0, (uint16_t *)d); break;
  case 4: ct__im2col_4(g, x, n0, nb, c0, (uint32_t *)d); break;
  default: ct__im2col_8(g, x, n0, nb, c0, (uint64_t *)d); break;
  }
}
/* gx[n0+n][c0+c][..] += cols[..][..] (the adjoint of im2col); gx contiguous, cols any strides */
#define CT__COL2IM(NAME, T, U)                                                                                     \
  static void NAME(const ct__conv_geom *g, const ct_tensor *cols, int64_t n0, int64_t nb, int64_t c0, ct_tensor *gx) { \
    const T *S = (const T *)ct_data_ptr(cols);                                                                     \
    T *X = (T *)ct_data_ptr(gx);                                                                                   \
    int64_t c, i, j, n, oh, ow, row = 0;                                                                           \
    for (c = 0; c < g->Cg; c++)                                                                                    \
      for (i = 0; i < g->kh; i++)                                                                                  \
        for (j = 0; j < g->kw; j++, row++) {                                                                       \
          int64_t col = 0;                                                                                         \
          for (n = 0; n < nb; n++)                                                                                 \
            for (oh = 0; oh < g->OH; oh++) {                                                                       \
              int64_t ih = oh * g->sh - g->ph + i * g->dh, base;                                                   \
              if (ih < 0 || ih >= g->H) { /* a padding row: nothing to add, no offset computed */                  \
                col += g->OW;                                                                                      \
                continue;                                                                                          \
              }                                                                                                    \
              base = (((n0 + n) * g->C + c0 + c) * g->H + ih) * g->W;                                              \
              for (ow = 0; ow < g->OW; ow++, col++) {                                                              \
                int64_t iw = ow * g->sw - g->pw + j * g->dw;                                                       \
                if (iw >= 0 && iw < g->W)                                                                          \
                  X[base + iw] = (T)(U)((U)X[base + iw] + (U)S[row * cols->strides[0] + col * cols->strides[1]]); \
              }                                                                                                    \
            }                                                                                                      \
        }                                                                                                          \
  }
CT__COL2IM(ct__col2im_f32, float, float)
CT__COL2IM(ct__col2im_f64, double, double)
CT__COL2IM(ct__col2im_i64, int64_t, uint64_t)
CT__COL2IM(ct__col2im_i32, int32_t, uint32_t)
CT__COL2IM(ct__col2im_u8, uint8_t, uint8_t)
static void ct__col2im(const ct__conv_geom *g, const ct_tensor *cols, int64_t n0, int64_t nb, int64_t c0, ct_tensor *gx) {
  switch (gx->dtype) {
  case CT_F32: ct__col2im_f32(g, cols, n0, nb, c0, gx); break;
  case CT_F64: ct__col2im_f64(g, cols, n0, nb, c0, gx); break;
  case CT_I64: ct__col2im_i64(g, cols, n0, nb, c0, gx); break;
  case CT_I32: ct__col2im_i32(g, cols, n0, nb, c0, gx); break;
  default: ct__col2im_u8(g, cols, n0, nb, c0, gx); break;
  }
}

/* ---- the three products; every tensor is in the compute dtype ----
 * x, gy: 4-D, any strides; w: (O, Cg*kh*kw) contiguous; results contiguous. */
static int64_t ct__conv_chunk(const ct__conv_geom *g) {
  int64_t per, nb;
  if (ct__mul_ovf(g->K, g->OH, &per) || ct__mul_ovf(per, g->OW, &per)) per = INT64_MAX; /* one sample at a time */
  nb = per > 0 ? CT__CONV_COLS_LIMIT / per : g->N;
  return nb < 1 ? 1 : nb > g->N ? g->N : nb;
}
static ct_tensor *ct__view2(ct_tensor *t, int64_t rows, int64_t cols, int64_t rs, int64_t cs, int64_t offset) {
  int64_t sz[2], st[2];
  sz[0] = rows, sz[1] = cols, st[0] = rs, st[1] = cs;
  return ct__make_view(t, 2, sz, st, offset);
}
/* (Og, nb, OH, OW) slice of a 4-D (N, O, OH, OW) tensor: group grp, samples n0.. */
static ct_tensor *ct__conv_group_slice(ct_tensor *t, int64_t n0, int64_t nb, int64_t grp, int64_t per_group) {
  int64_t sz[4], st[4];
  sz[0] = per_group, sz[1] = nb, sz[2] = t->sizes[2], sz[3] = t->sizes[3];
  st[0] = t->strides[1], st[1] = t->strides[0], st[2] = t->strides[2], st[3] = t->strides[3];
  return ct__make_view(t, 4, sz, st, t->offset + n0 * t->strides[0] + grp * per_group * t->strides[1]);
}
/* grad_output of one group and chunk as a contiguous (Og, nb*L) matrix */
static ct_tensor *ct__conv_gy_matrix(const char *op, const ct__conv_geom *g, ct_tensor *gy, int64_t n0, int64_t nb, int64_t grp) {
  int64_t sz[4];
  ct_tensor *src = ct__conv_group_slice(gy, n0, nb, grp, g->Og), *m;
  sz[0] = g->Og, sz[1] = nb, sz[2] = g->OH, sz[3] = g->OW;
  m = src ? ct__empty(op, 4, sz, (ct_dtype)gy->dtype, gy->device) : NULL;
  if (m && ct__copy_impl(m, src) != CT_OK) ct_release(m), m = NULL;
  ct_release(src);
  if (m) {
    ct_tensor *v = ct__view2(m, g->Og, nb * g->OH * g->OW, nb * g->OH * g->OW, 1, 0);
    ct_release(m);
    m = v;
  }
  return m;
}

/* out (N, O, OH, OW) = conv(x, w) */
static ct_status ct__conv_fwd(const char *op, const ct__conv_geom *g, ct_tensor *x, ct_tensor *w, ct_tensor *out) {
  int64_t K = g->K, L = g->OH * g->OW, nb = ct__conv_chunk(g), n0, grp, sz[2]; /* (L: positions of a non-empty output) */
  ct_tensor *cols;
  ct_status st = CT_OK;
  if (K == 0) return ct__k_fill_(0, out, ct_int(0));
  sz[0] = K, sz[1] = nb * L;
  cols = ct__empty(op, 2, sz, (ct_dtype)x->dtype, x->device);
  if (!cols) return ct_last_error();
  for (n0 = 0; n0 < g->N && st == CT_OK; n0 += nb) {
    int64_t b = g->N - n0 < nb ? g->N - n0 : nb;
    for (grp = 0; grp < g->groups && st == CT_OK; grp++) {
      ct_tensor *wg = ct__view2(w, g->Og, K, K, 1, w->offset + grp * g->Og * K);
      ct_tensor *cv = ct__view2(cols, K, b * L, b * L, 1, 0), *r = NULL, *rv = NULL, *dst = NULL;
      ct__im2col(g, x, n0, b, grp * g->Cg, cols);
      r = wg && cv ? ct_mm(wg, cv) : NULL; /* (Og, b*L) */
      if (r) {
        int64_t s4[4], t4[4];
        s4[0] = g->Og, s4[1] = b, s4[2] = g->OH, s4[3] = g->OW;
        t4[0] = r->strides[0], t4[1] = L * r->strides[1], t4[2] = g->OW * r->strides[1], t4[3] = r->strides[1];
        rv = ct__make_view(r, 4, s4, t4, r->offset);
        dst = ct__conv_group_slice(out, n0, b, grp, g->Og);
      }
      st = rv && dst ? ct__copy_impl(dst, rv) : ct_last_error();
      ct_release(dst), ct_release(rv), ct_release(r), ct_release(cv), ct_release(wg);
    }
  }
  ct_release(cols);
  return st;
}
/* gx (N, C, H, W) = the adjoint of conv(., w) applied to gy */
static ct_status ct__conv_bwd_input(const char *op, const ct__conv_geom *g, ct_tensor *gy, ct_tensor *w, ct_tensor *gx) {
  int64_t K = g->K, nb = ct__conv_chunk(g), n0, grp;
  ct_status st = ct__k_fill_(0, gx, ct_int(0));
  if (K == 0 || g->Og == 0 || g->OH == 0 || g->OW == 0) return st;
  for (n0 = 0; n0 < g->N && st == CT_OK; n0 += nb) {
    int64_t b = g->N - n0 < nb ? g->N - n0 : nb;
    for (grp = 0; grp < g->groups && st == CT_OK; grp++) {
      ct_tensor *wt = ct__view2(w, K, g->Og, 1, K, w->offset + grp * g->Og * K); /* W[g]^T */
      ct_tensor *gm = ct__conv_gy_matrix(op, g, gy, n0, b, grp), *cols = wt && gm ? ct_mm(wt, gm) : NULL;
      if (cols) ct__col2im(g, cols, n0, b, grp * g->Cg, gx);
      else st = ct_last_error();
      ct_release(cols), ct_release(gm), ct_release(wt);
    }
  }
  return st;
}
/* gw (O, Cg*kh*kw) = sum over the batch of gy[g] @ im2col(x)[g]^T */
static ct_status ct__conv_bwd_weight(const char *op, const ct__conv_geom *g, ct_tensor *gy, ct_tensor *x, ct_tensor *gw) {
  int64_t K = g->K, L, nb = ct__conv_chunk(g), n0, grp, sz[2];
  ct_tensor *cols;
  ct_status st = ct__k_fill_(0, gw, ct_int(0));
  if (ct__mul_ovf(g->OH, g->OW, &L)) L = 0; /* (an empty grad_output: nothing to add) */
  if (st != CT_OK || K == 0 || g->Og == 0 || L == 0) return st;
  sz[0] = K, sz[1] = nb * L;
  cols = ct__empty(op, 2, sz, (ct_dtype)x->dtype, x->device);
  if (!cols) return ct_last_error();
  for (n0 = 0; n0 < g->N && st == CT_OK; n0 += nb) {
    int64_t b = g->N - n0 < nb ? g->N - n0 : nb;
    for (grp = 0; grp < g->groups && st == CT_OK; grp++) {
      ct_tensor *ct_ = ct__view2(cols, b * L, K, 1, b * L, 0); /* im2col(x)^T */
      ct_tensor *gm = ct__conv_gy_matrix(op, g, gy, n0, b, grp), *r = NULL;
      ct_tensor *dst = ct__view2(gw, g->Og, K, K, 1, gw->offset + grp * g->Og * K);
      ct__im2col(g, x, n0, b, grp * g->Cg, cols);
      r = ct_ && gm ? ct_mm(gm, ct_) : NULL;
      st = r && dst ? ct__pw_run_alpha(&ct__pw_d_ADD, dst, dst, r, ct_int(1), NULL) : ct_last_error();
      ct_release(r), ct_release(dst), ct_release(gm), ct_release(ct_);
    }
  }
  ct_release(cols);
  return st;
}

/* ---- operands in the compute dtype ---- */
static ct_dtype ct__conv_compute_dtype(ct_dtype d) { return d == CT_F16 || d == CT_BF16 ? CT_F32 : d; }
/* t (N, C, spatial...) as a 4-D view in dtype (a 1-D conv gets H = 1) */
static ct_tensor *ct__conv_4d(const char *op, ct_tensor *t, ct_dtype dtype) {
  ct_tensor *c = t->dtype == dtype ? ct_retain(t) : ct__copy_as(op, t, dtype), *v;
  int64_t sz[4], st[4];
  if (!c || c->ndim == 4) return c;
  sz[0] = c->sizes[0], sz[1] = c->sizes[1], sz[2] = 1, sz[3] = c->sizes[2];
  st[0] = c->strides[0], st[1] = c->strides[1], st[2] = ct__mul_sat(c->sizes[2], c->strides[2]), st[3] = c->strides[2];
  v = ct__make_view(c, 4, sz, st, c->offset);
  ct_release(c);
  return v;
}
/* weight (O, Cg, k...) as a contiguous (O, Cg*k) matrix in dtype */
static ct_tensor *ct__conv_w2d(const char *op, ct_tensor *w, ct_dtype dtype, const ct__conv_geom *g) {
  ct_tensor *c = w->dtype == dtype && ct_is_contiguous(w) ? ct_retain(w) : ct__copy_as(op, w, dtype), *v;
  if (!c) return NULL;
  v = ct__view2(c, w->sizes[0], g->K, g->K, 1, c->offset);
  if (w->sizes[0] == 0 || g->K == 0) { /* empty: any strides will do */
    ct_release(v);
    v = ct__view2(c, w->sizes[0], g->K, 1, 1, c->offset);
  }
  ct_release(c);
  return v;
}
/* Structured impl steps: where the arithmetic goes for out (out itself when
 * it has its compute dtype, else a new tensor in it), and its rounding into
 * out once done (acc released). */
static ct_tensor *ct__st_acc(const char *op, ct_tensor *out) {
  ct_dtype cd = ct__conv_compute_dtype((ct_dtype)out->dtype);
  return out->dtype == cd ? ct_retain(out) : ct__empty(op, out->ndim, out->sizes, cd, out->device);
}
static ct_status ct__st_acc_done(ct_status st, ct_tensor *out, ct_tensor *acc) {
  if (st == CT_OK && acc != out) st = ct__copy_impl(out, acc);
  ct_release(acc);
  return st;
}
/* An impl step's guard, after it ran the meta step's checks again: out has
 * the shape the inputs give now. (They differ when an out= tensor is also an
 * input whose shape the meta step changed: PyTorch then reads the resized
 * input; here the op fails rather than read or write past a tensor.) */
static ct_status ct__st_check_out(const char *op, const ct_tensor *out, int ndim, const int64_t *shape) {
  if (ct__out_has_shape(out, ndim, shape)) return CT_OK;
  return ct_fail(CT_ERR_SHAPE, op, "an input was resized as the out= tensor");
}

/* ---- convolution and its backward ops: structured (ops/structured.h) ----
 * The meta step is the checks (ct__conv_setup / ct__conv_bwd_setup) and
 * the output; the impl step computes into the contiguous out through acc
 * (out itself, or a tensor in the compute dtype: ct__st_acc). */
static ct_status ct__meta_convolution(ct__structured *st, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                      ct_int_list padding, ct_int_list dilation, bool transposed, ct_int_list output_padding,
                                      int64_t groups) {
  ct__conv_geom g;
  int64_t shape[4];
  if (ct__conv_setup(st->op, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, &g, shape) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, input->ndim, shape, (ct_dtype)input->dtype, input->device);
}
static ct_status ct__impl_convolution(ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride, ct_int_list padding,
                                      ct_int_list dilation, bool transposed, ct_int_list output_padding, int64_t groups, ct_tensor *out) {
  static const char *op = "convolution";
  ct__conv_geom g;
  int64_t shape[4];
  ct_tensor *acc, *x = NULL, *w = NULL, *a4 = NULL;
  ct_dtype cd = ct__conv_compute_dtype((ct_dtype)input->dtype);
  ct_status st;
  if (out->numel == 0) return CT_OK;
  if (ct__conv_setup(op, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, &g, shape) != CT_OK ||
      !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  x = ct__conv_4d(op, input, cd);
  w = x ? ct__conv_w2d(op, weight, cd, &g) : NULL;
  a4 = w ? ct__conv_4d(op, acc, cd) : NULL;
  if (!a4) st = ct_last_error();
  else if (transposed) st = ct__conv_bwd_input(op, &g, x, w, a4);
  else st = ct__conv_fwd(op, &g, x, w, a4);
  if (st == CT_OK && bias) { /* acc += bias, broadcast over N and the spatial dims */
    int64_t sz[4] = {1, 1, 1, 1}, bs[4] = {0, 0, 0, 0};
    ct_tensor *bv;
    sz[1] = bias->sizes[0], bs[1] = bias->strides[0];
    bv = ct__make_view(bias, 4, sz, bs, bias->offset);
    st = bv ? ct__pw_run_alpha(&ct__pw_d_ADD, a4, a4, bv, ct_int(1), NULL) : ct_last_error();
    ct_release(bv);
  }
  ct_release(x), ct_release(w), ct_release(a4);
  return ct__st_acc_done(st, out, acc);
}

/* Checks shared by the backward ops: `size` (input_size or weight_size)
 * against the tensors, and grad_output within the convolution's output. */
static ct_status ct__conv_bwd_setup(const char *op, ct_tensor *gy, ct_tensor *other, ct_int_list size, bool size_is_input,
                                    ct_int_list stride, ct_int_list padding, ct_int_list dilation, int64_t groups,
                                    ct__conv_geom *g) {
  const int64_t *in, *w; /* input and weight shapes */
  char b1[160], b2[160], b3[160];
  int nd = size_is_input ? other->ndim : (int)size.n, i;
  int64_t oh, ow;
  if (size.n < 3 || size.n > 4 || !size.data)
    return ct_fail(CT_ERR_RANK, op, "expected %s to have 3 or 4 elements, got %lld", size_is_input ? "input_size" : "weight_size",
                   (long long)size.n);
  if (other->ndim != size.n || gy->ndim != size.n)
    return ct_fail(CT_ERR_RANK, op, "expected grad_output, %s and %s to have the same rank, got %d, %d and %lld",
                   size_is_input ? "weight" : "input", size_is_input ? "input_size" : "weight_size", gy->ndim, other->ndim,
                   (long long)size.n);
  for (i = 0; i < nd; i++)
    if (size.data[i] < 0) return ct_fail(CT_ERR_SIZE, op, "negative size %lld", (long long)size.data[i]);
  in = size_is_input ? size.data : other->sizes;
  w = size_is_input ? other->sizes : size.data;
  if (groups <= 0) return ct_fail(CT_ERR_INVALID, op, "non-positive groups is not supported");
  if (ct__conv_params(op, nd - 2, stride, padding, dilation, g) != CT_OK) return ct_last_error();
  if (w[0] % groups != 0 || ct__mul_ovf(w[1], groups, &oh) || in[1] != oh || gy->sizes[0] != in[0] || gy->sizes[1] != w[0])
    return ct_fail(CT_ERR_SHAPE, op, "grad_output %s, input %s and weight %s do not match (groups=%lld)",
                   ct_shape_format(gy->ndim, gy->sizes, b1, sizeof b1), ct_shape_format(nd, in, b2, sizeof b2),
                   ct_shape_format(nd, w, b3, sizeof b3), (long long)groups);
  g->groups = groups;
  g->N = in[0], g->C = in[1], g->O = w[0], g->Cg = w[1], g->Og = w[0] / groups;
  ct__conv_hw(nd - 2, in + 2, &g->H, &g->W);
  ct__conv_hw(nd - 2, w + 2, &g->kh, &g->kw);
  ct__conv_hw(nd - 2, gy->sizes + 2, &g->OH, &g->OW);
  if (ct__conv_k(op, g) != CT_OK) return ct_last_error();
  {
    int64_t padded, extent, span;
    if (!ct__conv_span(g->H, g->kh, g->ph, g->dh, &padded, &extent, &span)) return ct__conv_overflow(op, g->H, g->kh, g->sh, g->ph, g->dh);
    oh = ct__conv_out_len(span, g->sh);
    if (!ct__conv_span(g->W, g->kw, g->pw, g->dw, &padded, &extent, &span)) return ct__conv_overflow(op, g->W, g->kw, g->sw, g->pw, g->dw);
    ow = ct__conv_out_len(span, g->sw);
  }
  if (g->OH > (oh < 0 ? 0 : oh) || g->OW > (ow < 0 ? 0 : ow))
    return ct_fail(CT_ERR_SHAPE, op, "grad_output of size %s has more positions than the convolution's output (%lld x %lld)",
                   ct_shape_format(gy->ndim, gy->sizes, b1, sizeof b1), (long long)oh, (long long)ow);
  if (ct__conv_dtype_ok(op, (ct_dtype)gy->dtype) != CT_OK) return ct_last_error();
  if (gy->dtype != other->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected grad_output and %s to have the same dtype, but got %s and %s",
                   size_is_input ? "weight" : "input", ct_dtype_name((ct_dtype)gy->dtype), ct_dtype_name((ct_dtype)other->dtype));
  return CT_OK;
}
static ct_status ct__meta_convolution_backward_input(ct__structured *st, ct_tensor *gy, ct_tensor *weight, ct_int_list input_size,
                                                     ct_int_list stride, ct_int_list padding, ct_int_list dilation, int64_t groups) {
  ct__conv_geom g;
  if (ct__conv_bwd_setup(st->op, gy, weight, input_size, true, stride, padding, dilation, groups, &g) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, CT__CONV_LIST(input_size), (ct_dtype)gy->dtype, gy->device);
}
static ct_status ct__impl_convolution_backward_input(ct_tensor *gy, ct_tensor *weight, ct_int_list input_size, ct_int_list stride,
                                                     ct_int_list padding, ct_int_list dilation, int64_t groups, ct_tensor *out) {
  static const char *op = "convolution_backward_input";
  ct__conv_geom g;
  ct_tensor *acc, *y = NULL, *w = NULL, *a4 = NULL;
  ct_dtype cd = ct__conv_compute_dtype((ct_dtype)gy->dtype);
  ct_status st;
  if (out->numel == 0) return CT_OK;
  if (ct__conv_bwd_setup(op, gy, weight, input_size, true, stride, padding, dilation, groups, &g) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  y = ct__conv_4d(op, gy, cd);
  w = y ? ct__conv_w2d(op, weight, cd, &g) : NULL;
  a4 = w ? ct__conv_4d(op, acc, cd) : NULL;
  st = a4 ? ct__conv_bwd_input(op, &g, y, w, a4) : ct_last_error();
  ct_release(y), ct_release(w), ct_release(a4);
  return ct__st_acc_done(st, out, acc);
}
static ct_status ct__meta_convolution_backward_weight(ct__structured *st, ct_tensor *gy, ct_tensor *input, ct_int_list weight_size,
                                                      ct_int_list stride, ct_int_list padding, ct_int_list dilation, int64_t groups) {
  ct__conv_geom g;
  if (ct__conv_bwd_setup(st->op, gy, input, weight_size, false, stride, padding, dilation, groups, &g) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, CT__CONV_LIST(weight_size), (ct_dtype)gy->dtype, gy->device);
}
static ct_status ct__impl_convolution_backward_weight(ct_tensor *gy, ct_tensor *input, ct_int_list weight_size, ct_int_list stride,
                                                      ct_int_list padding, ct_int_list dilation, int64_t groups, ct_tensor *out) {
  static const char *op = "convolution_backward_weight";
  ct__conv_geom g;
  ct_tensor *acc, *y = NULL, *x = NULL, *w2 = NULL;
  ct_dtype cd = ct__conv_compute_dtype((ct_dtype)gy->dtype);
  ct_status st;
  if (out->numel == 0) return CT_OK;
  if (ct__conv_bwd_setup(op, gy, input, weight_size, false, stride, padding, dilation, groups, &g) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  y = ct__conv_4d(op, gy, cd);
  x = y ? ct__conv_4d(op, input, cd) : NULL;
  w2 = x ? ct__view2(acc, g.O, g.K, g.K, 1, 0) : NULL;
  st = w2 ? ct__conv_bwd_weight(op, &g, y, x, w2) : ct_last_error();
  ct_release(y), ct_release(x), ct_release(w2);
  return ct__st_acc_done(st, out, acc);
}

/* ---- conv1d, conv2d, conv_transpose2d (CompositeImplicitAutograd) ---- */
static ct_tensor *ct__conv_nd(const char *op, int nsp, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                              ct_int_list padding, ct_int_list dilation, bool transposed, ct_int_list output_padding,
                              int64_t groups) {
  ct_tensor *r = NULL;
  int unbatched = input->ndim == nsp + 1;
  if (input->ndim != nsp + 1 && input->ndim != nsp + 2) {
    char buf[160];
    return ct_fail(CT_ERR_RANK, op, "Expected %dD (unbatched) or %dD (batched) input to %s, but got input of size: %s", nsp + 1,
                   nsp + 2, op, ct_shape_format(input->ndim, input->sizes, buf, sizeof buf)),
           (ct_tensor *)NULL;
  }
  CT_SCOPE {
    ct_tensor *x = unbatched ? ct_unsqueeze(input, 0) : input, *y;
    y = x ? ct_convolution(x, weight, bias, CT__CONV_LIST(stride), CT__CONV_LIST(padding), (int)dilation.n,
                           dilation.data, transposed, CT__CONV_LIST(output_padding), groups)
          : NULL;
    if (y && unbatched) y = ct_squeeze_dim(y, 0);
    r = ct_keep(y);
  }
  return r;
}
static const int64_t ct__conv_zeros[2] = {0, 0};
static ct_int_list ct__conv_zero_list(int n) {
  ct_int_list l;
  l.data = ct__conv_zeros;
  l.n = n;
  return l;
}
static ct_tensor *ct__k_conv1d(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                               ct_int_list padding, ct_int_list dilation, int64_t groups) {
  (void)ks;
  return ct__conv_nd("conv1d", 1, input, weight, bias, stride, padding, dilation, false, ct__conv_zero_list(1), groups);
}
static ct_tensor *ct__k_conv2d(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                               ct_int_list padding, ct_int_list dilation, int64_t groups) {
  (void)ks;
  return ct__conv_nd("conv2d", 2, input, weight, bias, stride, padding, dilation, false, ct__conv_zero_list(2), groups);
}
static ct_tensor *ct__k_conv_transpose2d(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                         ct_int_list padding, ct_int_list output_padding, int64_t groups, ct_int_list dilation) {
  (void)ks;
  return ct__conv_nd("conv_transpose2d", 2, input, weight, bias, stride, padding, dilation, true, output_padding, groups);
}
static ct_tensor *ct__k_conv_transpose1d(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                         ct_int_list padding, ct_int_list output_padding, int64_t groups, ct_int_list dilation) {
  (void)ks;
  return ct__conv_nd("conv_transpose1d", 1, input, weight, bias, stride, padding, dilation, true, output_padding, groups);
}

/* ---- 3-D convolutions as composites of the 2-D ones ----
 * conv3d: the depth windows become channels - the (padded) input unfolded along depth (a view),
 * its kD taps moved next to each channel, so that (N * Dout, C * kD, H, W) convolved in 2-D with
 * weight (O, C/g * kD, kH, kW) is the 3-D convolution; conv_transpose3d: each depth tap's 2-D
 * transposed convolution added into the depth rows it reaches. Autograd records the 2-D ops. */
static int ct__conv3_list(const char *op, const char *what, ct_int_list l, int64_t dflt, int64_t v[3]) {
  int i;
  if (l.n == 1 || l.n == 3) {
    for (i = 0; i < 3; i++) v[i] = l.data[l.n == 1 ? 0 : i];
    return 1;
  }
  if (l.n <= 0) {
    v[0] = v[1] = v[2] = dflt;
    return 1;
  }
  ct_fail(CT_ERR_SHAPE, op, "expected %s to be a single integer value or a list of 3 values to match the convolution dimensions, but got "
          "%s=[%lld values]", what, what, (long long)l.n);
  return 0;
}
static int ct__conv3_check(const char *op, ct_tensor *input, ct_tensor *weight) {
  char buf[160];
  if (input->ndim != 4 && input->ndim != 5) {
    ct_fail(CT_ERR_RANK, op, "Expected 4D (unbatched) or 5D (batched) input to %s, but got input of size: %s", op,
            ct_shape_format(input->ndim, input->sizes, buf, sizeof buf));
    return 0;
  }
  if (weight->ndim != 5) {
    ct_fail(CT_ERR_RANK, op, "Expected 5-dimensional weight for 5-dimensional input, but got weight of size %s",
            ct_shape_format(weight->ndim, weight->sizes, buf, sizeof buf));
    return 0;
  }
  return 1;
}
static ct_tensor *ct__k_conv3d(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride, ct_int_list padding,
                               ct_int_list dilation, int64_t groups) {
  static const char *op = "conv3d";
  int64_t s[3], p[3], d[3], N, C, D, H, W, O, kD, span, Dout, dp;
  int unbatched;
  ct_tensor *r = NULL;
  (void)ks;
  if (!ct__conv3_check(op, input, weight) || !ct__conv3_list(op, "stride", stride, 1, s) || !ct__conv3_list(op, "padding", padding, 0, p) ||
      !ct__conv3_list(op, "dilation", dilation, 1, d))
    return NULL;
  if (s[0] < 1 || d[0] < 1 || p[0] < 0)
    return ct_fail(CT_ERR_INVALID, op, "stride and dilation must be positive and padding non-negative"), (ct_tensor *)NULL;
  if (groups < 1 || weight->sizes[0] % groups)
    return ct_fail(CT_ERR_INVALID, op, "Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but got weight of "
                   "size [%lld, ...] instead", (long long)groups, (long long)groups, (long long)weight->sizes[0]),
           (ct_tensor *)NULL;
  unbatched = input->ndim == 4;
  N = unbatched ? 1 : input->sizes[0];
  C = input->sizes[unbatched ? 0 : 1], D = input->sizes[unbatched ? 1 : 2], H = input->sizes[unbatched ? 2 : 3], W = input->sizes[unbatched ? 3 : 4];
  O = weight->sizes[0], kD = weight->sizes[2];
  if (weight->sizes[1] * groups != C)
    return ct_fail(CT_ERR_SHAPE, op, "Given groups=%lld, weight of size [%lld, %lld, %lld, %lld, %lld], expected input[%lld, %lld, %lld, %lld, "
                   "%lld] to have %lld channels, but got %lld channels instead", (long long)groups, (long long)O, (long long)weight->sizes[1],
                   (long long)kD, (long long)weight->sizes[3], (long long)weight->sizes[4], (long long)N, (long long)C, (long long)D,
                   (long long)H, (long long)W, (long long)weight->sizes[1] * groups, (long long)C),
           (ct_tensor *)NULL;
  span = d[0] * (kD - 1) + 1, dp = D + 2 * p[0];
  if (kD < 1 || dp < span)
    return ct_fail(CT_ERR_SHAPE, op, "Calculated padded input size per channel: (%lld x ...). Kernel size: (%lld x ...). Kernel size "
                   "can't be greater than actual input size", (long long)dp, (long long)span),
           (ct_tensor *)NULL;
  Dout = (dp - span) / s[0] + 1;
  CT_SCOPE {
    int64_t pad[6] = {0, 0, 0, 0, 0, 0}, perm[6] = {0, 2, 1, 5, 3, 4}, x4[4], w4[4], y5[5], back[5] = {0, 2, 1, 3, 4};
    ct_tensor *x = unbatched ? ct_unsqueeze(input, 0) : input, *y = NULL;
    pad[4] = pad[5] = p[0];
    if (x && p[0]) x = ct_constant_pad_nd(x, 6, pad, ct_int(0));
    if (x) x = ct_unfold(x, 2, span, s[0]); /* (N, C, Dout, H, W, span) */
    if (x && d[0] > 1) x = ct_slice(x, 5, 0, INT64_MAX, d[0]);
    x4[0] = N * Dout, x4[1] = C * kD, x4[2] = H, x4[3] = W;
    w4[0] = O, w4[1] = weight->sizes[1] * kD, w4[2] = weight->sizes[3], w4[3] = weight->sizes[4];
    if (x) x = ct_reshape(ct_permute(x, 6, perm), 4, x4);
    if (x) y = ct_conv2d(x, ct_reshape(weight, 4, w4), bias, 2, s + 1, 2, p + 1, 2, d + 1, groups);
    if (y) {
      y5[0] = N, y5[1] = Dout, y5[2] = O, y5[3] = y->sizes[2], y5[4] = y->sizes[3];
      y = ct_contiguous(ct_permute(ct_reshape(y, 5, y5), 5, back));
    }
    if (y && unbatched) y = ct_squeeze_dim(y, 0);
    r = ct_keep(y);
  }
  return r;
}
static ct_tensor *ct__k_conv_transpose3d(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                         ct_int_list padding, ct_int_list output_padding, int64_t groups, ct_int_list dilation) {
  static const char *op = "conv_transpose3d";
  int64_t s[3], p[3], op3[3], d[3], N, C, D, O, kD, full, Dout, k;
  int unbatched;
  ct_tensor *r = NULL;
  (void)ks;
  if (!ct__conv3_check(op, input, weight) || !ct__conv3_list(op, "stride", stride, 1, s) || !ct__conv3_list(op, "padding", padding, 0, p) ||
      !ct__conv3_list(op, "output_padding", output_padding, 0, op3) || !ct__conv3_list(op, "dilation", dilation, 1, d))
    return NULL;
  if (s[0] < 1 || d[0] < 1 || p[0] < 0)
    return ct_fail(CT_ERR_INVALID, op, "stride and dilation must be positive and padding non-negative"), (ct_tensor *)NULL;
  if (op3[0] < 0 || (op3[0] >= s[0] && op3[0] >= d[0]))
    return ct_fail(CT_ERR_INVALID, op, "output padding must be smaller than either stride or dilation, but got output_padding_depth: "
                   "%lld stride_depth: %lld dilation_depth: %lld", (long long)op3[0], (long long)s[0], (long long)d[0]),
           (ct_tensor *)NULL;
  if (groups < 1) return ct_fail(CT_ERR_INVALID, op, "non-positive groups is not supported"), (ct_tensor *)NULL;
  unbatched = input->ndim == 4;
  N = unbatched ? 1 : input->sizes[0];
  C = input->sizes[unbatched ? 0 : 1], D = input->sizes[unbatched ? 1 : 2];
  kD = weight->sizes[2], O = weight->sizes[1] * groups;
  if (weight->sizes[0] != C)
    return ct_fail(CT_ERR_SHAPE, op, "Given transposed=1, weight of size [%lld, ...], expected input to have %lld channels, but got %lld "
                   "channels instead", (long long)weight->sizes[0], (long long)weight->sizes[0], (long long)C),
           (ct_tensor *)NULL;
  full = (D - 1) * s[0] + d[0] * (kD - 1) + 1 + op3[0];
  Dout = full - 2 * p[0];
  if (Dout < 1) return ct_fail(CT_ERR_SHAPE, op, "the output depth would be %lld", (long long)Dout), (ct_tensor *)NULL;
  CT_SCOPE {
    int64_t x4[4], perm[5] = {0, 2, 1, 3, 4}, y5[5], back[5] = {0, 2, 1, 3, 4}, *pos;
    ct_tensor *x = unbatched ? ct_unsqueeze(input, 0) : input, *acc = NULL;
    x4[0] = N * D, x4[1] = C, x4[2] = input->sizes[input->ndim - 2], x4[3] = input->sizes[input->ndim - 1];
    if (x) x = ct_reshape(ct_permute(x, 5, perm), 4, x4); /* (N * D, C, H, W) */
    pos = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(D + 1));
    for (k = 0; x && pos && k < kD; k++) { /* tap k of depth reaches rows k * d + i * s */
      ct_tensor *w = ct_select(weight, 2, k), *y, *idx;
      int64_t i;
      y = w ? ct_conv_transpose2d(x, w, NULL, 2, s + 1, 2, p + 1, 2, op3 + 1, groups, 2, d + 1) : NULL;
      if (!y) {
        acc = NULL;
        break;
      }
      y5[0] = N, y5[1] = D, y5[2] = O, y5[3] = y->sizes[2], y5[4] = y->sizes[3];
      y = ct_permute(ct_reshape(y, 5, y5), 5, back); /* (N, O, D, H', W') */
      if (!acc) {
        int64_t z5[5];
        z5[0] = N, z5[1] = O, z5[2] = full, z5[3] = y5[3], z5[4] = y5[4];
        acc = ct_new_zeros(y, 5, z5);
      }
      for (i = 0; i < D; i++) pos[i] = k * d[0] + i * s[0];
      idx = ct_from_array_ex(1, &D, CT_I64, pos, y->device);
      acc = acc && idx ? ct_index_add(acc, 2, idx, y) : NULL;
    }
    ct__workspace_free(pos);
    if (acc) acc = ct_contiguous(ct_narrow(acc, 2, p[0], Dout));
    if (acc && bias) {
      int64_t b5[5];
      b5[0] = 1, b5[1] = O, b5[2] = b5[3] = b5[4] = 1;
      acc = ct_add(acc, ct_reshape(bias, 5, b5));
    }
    if (acc && unbatched) acc = ct_squeeze_dim(acc, 0);
    r = ct_keep(acc);
  }
  return r;
}

/* padding="valid" | "same" (PyTorch's _convolution_mode): "same" pads
 * dilation*(k-1) in total, half on each side; an odd total puts the extra
 * element at the end, computed here as one more on both sides and the first
 * output dropped (stride is 1), which needs no padded copy of the input. */
static ct_tensor *ct__conv_padding_mode(const char *op, int nsp, ct_tensor *input, ct_tensor *weight, ct_tensor *bias,
                                        ct_int_list stride, const char *padding, ct_int_list dilation, int64_t groups) {
  ct__conv_geom g;
  int64_t pad[2] = {0, 0}, odd[2] = {0, 0}, unit[1] = {1};
  ct_int_list pl;
  ct_tensor *r = NULL;
  int i;
  if (!padding) return ct__fail_null(op, "padding"), (ct_tensor *)NULL;
  if (strcmp(padding, "valid") != 0 && strcmp(padding, "same") != 0)
    return ct_fail(CT_ERR_INVALID, op, "Invalid padding string: '%s'", padding), (ct_tensor *)NULL;
  pl.data = pad, pl.n = nsp;
  if (!strcmp(padding, "same")) {
    ct_int_list ul;
    ul.data = unit, ul.n = 1;
    if (ct__conv_params(op, nsp, stride, ul, dilation, &g) != CT_OK) return NULL;
    if (g.sh != 1 || g.sw != 1)
      return ct_fail(CT_ERR_INVALID, op, "padding='same' is not supported for strided convolutions"), (ct_tensor *)NULL;
    for (i = 0; i < nsp && weight->ndim == nsp + 2; i++) {
      int64_t total, d = nsp == 1 || i == 1 ? g.dw : g.dh;
      if (ct__mul_ovf(d, weight->sizes[2 + i] - 1, &total))
        return ct_fail(CT_ERR_SIZE, op, "padding='same': dilation %lld * (kernel size %lld - 1) overflows int64", (long long)d,
                       (long long)weight->sizes[2 + i]),
               (ct_tensor *)NULL;
      /* cppcheck-suppress unreadVariable ; read through pl.data (pl.data = pad above) */
      pad[i] = total / 2 + total % 2;
      odd[i] = total % 2;
    }
  }
  r = ct__conv_nd(op, nsp, input, weight, bias, stride, pl, dilation, false, ct__conv_zero_list(nsp), groups);
  for (i = 0; i < nsp && r; i++)
    if (odd[i]) {
      ct_tensor *n = NULL;
      int64_t d = r->ndim - nsp + i;
      CT_SCOPE { n = ct_keep(ct_narrow(r, d, 1, r->sizes[d] - 1)); }
      ct_release(r);
      r = n;
    }
  return r;
}
static ct_tensor *ct__k_conv1d_padding(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                       const char *padding, ct_int_list dilation, int64_t groups) {
  (void)ks;
  return ct__conv_padding_mode("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
static ct_tensor *ct__k_conv2d_padding(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_int_list stride,
                                       const char *padding, ct_int_list dilation, int64_t groups) {
  (void)ks;
  return ct__conv_padding_mode("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}

/* ---- derivative helpers (gen/derivatives/conv.spec) ---- */
/* conv(x, w) narrowed to the spatial sizes of `to` (it can be larger when
 * the backward op's grad_output covered fewer positions) */
static ct_tensor *ct__conv_forward_to(ct_tensor *x, ct_tensor *w, const ct__shape *to, ct_int_list stride, ct_int_list padding,
                                      ct_int_list dilation, int64_t groups) {
  ct_tensor *y;
  int i;
  if (!x || !w) return NULL;
  y = ct_convolution(x, w, NULL, CT__CONV_LIST(stride), CT__CONV_LIST(padding), CT__CONV_LIST(dilation), false,
                     1, ct__conv_zeros, groups);
  for (i = 2; y && i < y->ndim && i < to->ndim; i++)
    if (y->sizes[i] > to->sizes[i]) y = ct_narrow(y, i, 0, to->sizes[i]);
  return y;
}
static ct_tensor *ct__conv_input_grad(ct_tensor *grad, const ct__shape *input_sizes, ct_tensor *weight, ct_int_list stride,
                                      ct_int_list padding, ct_int_list dilation, bool transposed, int64_t groups) {
  if (transposed) return ct__conv_forward_to(grad, weight, input_sizes, stride, padding, dilation, groups);
  return ct_convolution_backward_input(grad, weight, input_sizes->ndim, input_sizes->sizes, CT__CONV_LIST(stride),
                                       CT__CONV_LIST(padding), CT__CONV_LIST(dilation), groups);
}
static ct_tensor *ct__conv_weight_grad(ct_tensor *grad, ct_tensor *input, const ct__shape *weight_sizes, ct_int_list stride,
                                       ct_int_list padding, ct_int_list dilation, bool transposed, int64_t groups) {
  /* transposed: the output is backward_input(input, weight), whose weight derivative swaps the roles */
  return ct_convolution_backward_weight(transposed ? input : grad, transposed ? grad : input, weight_sizes->ndim,
                                        weight_sizes->sizes, CT__CONV_LIST(stride), CT__CONV_LIST(padding),
                                        CT__CONV_LIST(dilation), groups);
}
static ct_tensor *ct__conv_bias_grad(ct_tensor *grad) {
  int64_t dims[CT_MAX_DIMS];
  int i, n = 0;
  if (!grad) return NULL;
  for (i = 0; i < grad->ndim; i++)
    if (i != 1) dims[n++] = i;
  return ct_sum_dim(grad, n, dims, false);
}
static ct_tensor *ct__conv_bwd_input_call(ct_tensor *grad_output, ct_tensor *weight, const ct__shape *input_sizes,
                                          ct_int_list stride, ct_int_list padding, ct_int_list dilation, int64_t groups) {
  return ct_convolution_backward_input(grad_output, weight, input_sizes->ndim, input_sizes->sizes, CT__CONV_LIST(stride),
                                       CT__CONV_LIST(padding), CT__CONV_LIST(dilation), groups);
}
static ct_tensor *ct__conv_bwd_weight_call(ct_tensor *grad_output, ct_tensor *input, const ct__shape *weight_sizes,
                                           ct_int_list stride, ct_int_list padding, ct_int_list dilation, int64_t groups) {
  return ct_convolution_backward_weight(grad_output, input, weight_sizes->ndim, weight_sizes->sizes, CT__CONV_LIST(stride),
                                        CT__CONV_LIST(padding), CT__CONV_LIST(dilation), groups);
}


/* ================= pooling =================
 * Kernels run over planes (N*C of them) of a contiguous copy of the input
 * in the compute dtype (f16/bf16 as f32), like convolution, and write a
 * result in that dtype that is rounded once (ct__st_acc_done; the pools,
 * upsampling, unfold_backward and pixel (un)shuffle are structured ops). */

typedef struct ct__pool_geom {
  int64_t B, H, W, OH, OW; /* B = N*C planes of H x W; output OH x OW */
  int64_t D, OD;           /* 3-D pools: planes D x H x W, output OD x OH x OW (D = OD = 1 in 2-D) */
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
  int64_t kd, sd, pd, dd; /* the depth's window (1, 1, 0, 1 in 2-D) */
  bool count_include_pad;
  int64_t divisor; /* CT_INT_NONE: none */
} ct__pool_geom;

/* kernel_size / stride / padding / dilation: one value or nsp (stride: also none = kernel_size) */
static ct_status ct__pool_list(const char *op, ct_int_list l, const char *what, int may_omit, int nsp, int64_t *out) {
  int i;
  if (l.n == 1 || l.n == nsp) {
    for (i = 0; i < nsp; i++) out[i] = l.data[l.n == 1 ? 0 : i];
    return CT_OK;
  }
  if (may_omit && l.n <= 0) return CT_OK; /* the caller keeps its default */
  return ct_fail(CT_ERR_INVALID, op, "%s: %s", op, what);
}
/* "kH: 1 kW: 2" (2-D) or "kT: 1 kH: 2 kW: 3" (3-D), as PyTorch's messages name the dims */
static const char *ct__pool_dims(const char *prefix, int nsp, const int64_t *v, char *buf, size_t cap) {
  static const char *const names[3] = {"T", "H", "W"};
  size_t n = 0;
  int i;
  buf[0] = 0;
  for (i = 0; i < nsp && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s%s: %lld", i ? " " : "", prefix, names[3 - nsp + i], (long long)v[i]);
  return buf;
}
/* PyTorch's pooling_output_shape: floor or ceil, and a last window must
 * start inside the input or left padding; false when a step overflows */
static bool ct__pool_out_len(int64_t in, int64_t k, int64_t pad, int64_t s, int64_t d, bool ceil_mode, int64_t *out) {
  int64_t padded, extent, num, o, last;
  if (!ct__conv_span(in, k, pad, d, &padded, &extent, &num) || (ceil_mode && ct__add_ovf(num, s - 1, &num))) return false;
  o = (num >= 0 ? num / s : -(int64_t)(((uint64_t)-(num + 1) + (uint64_t)s) / (uint64_t)s)) + 1; /* floor(num / s) + 1 */
  if (ceil_mode && !ct__mul_ovf(o - 1, s, &last) && last >= in + pad) o--; /* (in + pad fits: in + 2 pad does) */
  *out = o;
  return true;
}
/* in place: "a x b" -> "axb" */
static void ct__strip_spaces(char *b) {
  char *r = b, *w = b;
  for (; *r; r++)
    if (*r != ' ') *w++ = *r;
  *w = 0;
}
/* The checks of max_pool2d / avg_pool2d and their 3-D forms (pool2d_shape_check, pool3d_shape_check) over
 * nsp spatial dims; fills g (depth 1 in 2-D) and the output shape. */
static ct_status ct__pool_setup(const char *op, int nsp, const ct_tensor *self, ct_int_list kernel_size, ct_int_list stride,
                                ct_int_list padding, ct_int_list dilation, bool ceil_mode, ct__pool_geom *g, int64_t *shape) {
  int64_t k[3] = {0, 0, 0}, s[3] = {0, 0, 0}, p[3] = {0, 0, 0}, d[3] = {1, 1, 1}, in[3], out[3];
  const char *count = nsp == 2 ? "two" : "three";
  char buf[160], msg[120];
  int i, nd = self->ndim;
  memset(g, 0, sizeof *g);
  snprintf(msg, sizeof msg, "kernel_size must either be a single int, or a tuple of %s ints", count);
  if (ct__pool_list(op, kernel_size, msg, 0, nsp, k) != CT_OK) return ct_last_error();
  for (i = 0; i < nsp; i++) s[i] = k[i];
  snprintf(msg, sizeof msg, "stride must either be omitted, a single int, or a tuple of %s ints", count);
  if (ct__pool_list(op, stride, msg, 1, nsp, s) != CT_OK) return ct_last_error();
  snprintf(msg, sizeof msg, "padding must %sbe a single int, or a tuple of %s ints", op[0] == 'm' ? "be either " : "either ", count);
  if (ct__pool_list(op, padding, msg, 0, nsp, p) != CT_OK) return ct_last_error();
  snprintf(msg, sizeof msg, "dilation must be either a single int, or a tuple of %s ints", count);
  if (dilation.data && ct__pool_list(op, dilation, msg, 0, nsp, d) != CT_OK) return ct_last_error();
  if (nd != nsp + 1 && nd != nsp + 2)
    return ct_fail(CT_ERR_RANK, op, "non-empty %dD or %dD (batch mode) tensor expected for input", nsp + 1, nsp + 2);
  if (k[0] <= 0 || k[1] <= 0 || k[nsp - 1] <= 0)
    return ct_fail(CT_ERR_INVALID, op, "kernel size should be greater than zero, but got %s", ct__pool_dims("k", nsp, k, buf, sizeof buf));
  for (i = 0; i < nsp; i++) {
    if (s[i] == 0) return ct_fail(CT_ERR_INVALID, op, "stride should not be zero");
    if (p[i] < 0) return ct_fail(CT_ERR_INVALID, op, "pad must be non-negative, but got pad: %lld", (long long)p[i]);
    if (p[i] > k[i] / 2)
      return ct_fail(CT_ERR_INVALID, op, "pad should be at most half of kernel size, but got pad=%lld and kernel_size=%lld",
                     (long long)p[i], (long long)k[i]);
  }
  for (i = 0; i < nsp; i++)
    if (s[i] < 0) return ct_fail(CT_ERR_INVALID, op, "stride should be greater than zero, but got %s", ct__pool_dims("d", nsp, s, buf, sizeof buf));
  for (i = 0; i < nsp; i++)
    if (d[i] <= 0)
      return ct_fail(CT_ERR_INVALID, op, "dilation should be greater than zero, but got %s", ct__pool_dims("dilation", nsp, d, buf, sizeof buf));
  for (i = 1; i < nd; i++)
    if (self->sizes[i] == 0 && (i > 1 || nd == nsp + 2))
      return ct_fail(CT_ERR_SHAPE, op, "Expected %dD or %dD (batch mode) tensor with optional 0 dim batch size for input, but got:%s", nsp + 1,
                     nsp + 2, ct_shape_format(nd, self->sizes, buf, sizeof buf));
  if (nd == nsp + 1 && self->sizes[0] == 0)
    return ct_fail(CT_ERR_SHAPE, op, "Expected %dD or %dD (batch mode) tensor with optional 0 dim batch size for input, but got:%s", nsp + 1,
                   nsp + 2, ct_shape_format(nd, self->sizes, buf, sizeof buf));
  for (i = 0; i < nsp; i++) {
    in[i] = self->sizes[nd - nsp + i];
    if (!ct__pool_out_len(in[i], k[i], p[i], s[i], d[i], ceil_mode, &out[i])) return ct__conv_overflow(op, in[i], k[i], s[i], p[i], d[i]);
  }
  for (i = 0; i < nsp; i++)
    if (out[i] < 1) {
      char b1[96], b2[96];
      int64_t ins[4], outs[4];
      ins[0] = outs[0] = self->sizes[nd - nsp - 1];
      for (i = 0; i < nsp; i++) ins[i + 1] = in[i], outs[i + 1] = out[i] < 0 ? 0 : out[i];
      ct_shape_format(nsp + 1, ins, b1, sizeof b1), ct_shape_format(nsp + 1, outs, b2, sizeof b2);
      { /* "(2x3x4)", as PyTorch prints them */
        char *q;
        for (q = b1; *q; q++) *q = (char)(*q == '[' ? '(' : *q == ']' ? ')' : *q == ',' ? 'x' : *q);
        for (q = b2; *q; q++) *q = (char)(*q == '[' ? '(' : *q == ']' ? ')' : *q == ',' ? 'x' : *q);
      }
      ct__strip_spaces(b1), ct__strip_spaces(b2);
      return ct_fail(CT_ERR_SHAPE, op, "Given input size: %s. Calculated output size: %s. Output size is too small", b1, b2);
    }
  g->D = g->OD = 1, g->kd = g->sd = g->dd = 1;
  if (nsp == 3) g->D = in[0], g->OD = out[0], g->kd = k[0], g->sd = s[0], g->pd = p[0], g->dd = d[0];
  g->kh = k[nsp - 2], g->kw = k[nsp - 1], g->sh = s[nsp - 2], g->sw = s[nsp - 1], g->ph = p[nsp - 2], g->pw = p[nsp - 1];
  g->dh = d[nsp - 2], g->dw = d[nsp - 1];
  g->H = in[nsp - 2], g->W = in[nsp - 1], g->OH = out[nsp - 2], g->OW = out[nsp - 1];
  g->B = nd == nsp + 2 ? self->sizes[0] * self->sizes[1] : self->sizes[0];
  for (i = 0; i < nd - nsp; i++) shape[i] = self->sizes[i];
  for (i = 0; i < nsp; i++) shape[nd - nsp + i] = out[i];
  g->count_include_pad = true;
  g->divisor = CT_INT_NONE;
  return CT_OK;
}
static ct_status ct__pool_dtype(const char *op, ct_dtype d, int allow_long) {
  if (ct_dtype_is_floating(d) || (allow_long && d == CT_I64)) return CT_OK;
  return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name(d));
}
/* t contiguous in its compute dtype (a new reference) */
static ct_tensor *ct__pool_operand(const char *op, ct_tensor *t) {
  ct_dtype cd = ct__conv_compute_dtype((ct_dtype)t->dtype);
  return t->dtype == cd && ct_is_contiguous(t) ? ct_retain(t) : ct__copy_as(op, t, cd);
}
/* ---- max_pool2d: the max of each window and its flat index in the plane (ih * W + iw) ----
 * As PyTorch: a NaN wins (the last NaN of the window), ties keep the first. */
/* The kernel offsets [*lo, *hi) of a window starting at `start` (>= -pad) whose
 * positions start + i * d fall inside [0, n), and the first position at or
 * after 0; computed, not searched, so huge kernels and paddings cost nothing. */
static void ct__pool_taps(int64_t start, int64_t n, int64_t k, int64_t d, int64_t *lo, int64_t *hi, int64_t *first) {
  int64_t l = start < 0 ? (-(start + 1)) / d + 1 : 0, h; /* ceil(-start / d) without overflow */
  *first = start < 0 ? (-start % d == 0 ? 0 : d - (-start % d)) : start;
  h = start > n - 1 ? 0 : (n - 1 - start) / d + 1;
  *lo = l < k ? l : k;
  *hi = h < k ? h : k;
}
#define CT__MAXPOOL(NAME, T)                                                                                     \
  static void NAME(const ct__pool_geom *g, const T *x, T *y, int64_t *idx) {                                     \
    int64_t b, od, oh, ow, i, j, k;                                                                              \
    for (b = 0; b < g->B; b++, x += g->D * g->H * g->W)                                                          \
      for (od = 0; od < g->OD; od++)                                                                             \
        for (oh = 0; oh < g->OH; oh++)                                                                           \
          for (ow = 0; ow < g->OW; ow++, y++, idx++) {                                                           \
            int64_t ds = od * g->sd - g->pd, hs = oh * g->sh - g->ph, ws = ow * g->sw - g->pw, d0, h0, w0;       \
            int64_t klo, khi, ilo, ihi, jlo, jhi;                                                                \
            T best = (T)-INFINITY;                                                                               \
            ct__pool_taps(ds, g->D, g->kd, g->dd, &klo, &khi, &d0);                                              \
            ct__pool_taps(hs, g->H, g->kh, g->dh, &ilo, &ihi, &h0);                                              \
            ct__pool_taps(ws, g->W, g->kw, g->dw, &jlo, &jhi, &w0);                                              \
            /* a window of padding only keeps PyTorch's index (past the plane), saturated */                     \
            if (ct__mul_ovf(d0, g->H, idx) || ct__add_ovf(*idx, h0, idx) || ct__mul_ovf(*idx, g->W, idx) ||      \
                ct__add_ovf(*idx, w0, idx))                                                                      \
              *idx = INT64_MAX;                                                                                  \
            for (k = klo; k < khi; k++) {                                                                        \
              int64_t id = ds + k * g->dd;                                                                       \
              for (i = ilo; i < ihi; i++) {                                                                      \
                int64_t ih = hs + i * g->dh;                                                                     \
                for (j = jlo; j < jhi; j++) {                                                                    \
                  int64_t iw = ws + j * g->dw, at = (id * g->H + ih) * g->W + iw;                                \
                  T v = x[at];                                                                                   \
                  if (v > best || v != v) best = v, *idx = at;                                                   \
                }                                                                                                \
              }                                                                                                  \
            }                                                                                                    \
            *y = best;                                                                                           \
          }                                                                                                      \
  }
CT__MAXPOOL(ct__maxpool_f32, float)
CT__MAXPOOL(ct__maxpool_f64, double)
/* The 2-D pools with dilation 1 (no depth): CT__MAXPOOL's windows, initial
 * index and steps, so the same values and indices (NaN and tie rules
 * included), with each window's rows clipped once per output row and its
 * columns once per output column, and no overflow checks: a window starts at
 * >= -pad and before the input's end plus its padding (ct__pool_out_len), so
 * every position and flat index below fits, and `k < n - start` clips without
 * computing start + k. Planes [b0, b1) of a ct_parallel_for (each plane's
 * outputs read that plane alone, so any chunking gives the same bits).
 * Windows wholly inside the input (most of them) start from their first tap
 * (which replaces the initial -inf, or equals it with the same index) and
 * take branch-free steps "b replaces a when b > a", which is CT__MAXPOOL's
 * step when no tap is NaN; the window's sum, also taken, is NaN when one is
 * (and maybe when infinities cancel), and such a window is redone with
 * CT__MAXPOOL's step. Without NaN the steps keep the first of the largest
 * taps, so 2x2 windows compare their rows' pairs first, then the pairs' winners. */
typedef struct ct__maxpool2d_job {
  const ct__pool_geom *g;
  const void *x;
  void *y;
  int64_t *idx;
} ct__maxpool2d_job;
#define CT__MAXPOOL2D_TAP(T, p, at)                                                                               \
  do {                                                                                                          \
    T v_ = (p);                                                                                                 \
    if (v_ > best || v_ != v_) best = v_, bi = (at);                                                            \
  } while (0)
/* (a, ia) = (b, ib) if b > a (the index through a mask, the value as a max: no branch) */
#define CT__MAXPOOL2D_STEP(T, a, ia, b, ib)                                                                     \
  do {                                                                                                          \
    T b_ = (b);                                                                                                 \
    int64_t m_ = -(int64_t)(b_ > (a));                                                                          \
    (ia) ^= ((ia) ^ (ib)) & m_;                                                                                 \
    (a) = b_ > (a) ? b_ : (a);                                                                                  \
  } while (0)
/* 2x2 windows at stride 2, four outputs at a time (GCC 12+ / clang vector
 * extensions, SSE2 or NEON width for floats): each row's 8 taps split into
 * even and odd lanes, then the same steps as the scalar 2x2 path, lane by
 * lane (the same values and indices), the winner's offset in the window (0,
 * 1, W, W + 1) selected alongside. A row with a NaN sum anywhere is redone
 * by the scalar path (which then redoes its NaN windows tap by tap). Other
 * compilers: the scalar path throughout. */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define CT__POOL_VEC 1
typedef float ct__v4f __attribute__((vector_size(16)));
typedef int32_t ct__v4i __attribute__((vector_size(16)));
typedef double ct__v4d __attribute__((vector_size(32)));
typedef int64_t ct__v4l __attribute__((vector_size(32)));
#define CT__MAXPOOL2X2_VEC(VT, IT, ET)                                                                          \
  if (W < INT32_MAX) {                                                                                          \
    int64_t ow0 = ow;                                                                                           \
    IT nan_seen = {0, 0, 0, 0}, one = {1, 1, 1, 1}, wv = {0, 0, 0, 0};                                         \
    const ct__v4l lane = {0, 2, 4, 6};                                                                          \
    wv += (ET)W;                                                                                                \
    for (; ow + 4 <= owb; ow += 4) {                                                                            \
      int64_t at = h0 * W + ow * 2 - g->pw;                                                                     \
      VT r0a, r0b, r1a, r1b, a, b_, c, d, s, best, r;                                                          \
      IT m, ib, ir;                                                                                             \
      ct__v4l pos;                                                                                              \
      memcpy(&r0a, x + at, sizeof r0a), memcpy(&r0b, x + at + 4, sizeof r0b);                                   \
      memcpy(&r1a, x + at + W, sizeof r1a), memcpy(&r1b, x + at + W + 4, sizeof r1b);                           \
      a = __builtin_shufflevector(r0a, r0b, 0, 2, 4, 6), b_ = __builtin_shufflevector(r0a, r0b, 1, 3, 5, 7);    \
      c = __builtin_shufflevector(r1a, r1b, 0, 2, 4, 6), d = __builtin_shufflevector(r1a, r1b, 1, 3, 5, 7);     \
      s = (a + b_) + (c + d);                                                                                   \
      nan_seen |= (IT)(s != s);                                                                                 \
      m = (IT)(b_ > a), best = (VT)(((IT)b_ & m) | ((IT)a & ~m)), ib = m & one;                                 \
      m = (IT)(d > c), r = (VT)(((IT)d & m) | ((IT)c & ~m)), ir = (m & one) + wv;                               \
      m = (IT)(r > best), best = (VT)(((IT)r & m) | ((IT)best & ~m)), ib = (ir & m) | (ib & ~m);                \
      memcpy(y + ow, &best, sizeof best);                                                                       \
      pos = __builtin_convertvector(ib, ct__v4l) + lane + at;                                                   \
      memcpy(idx + ow, &pos, sizeof pos);                                                                       \
    }                                                                                                           \
    if (nan_seen[0] | nan_seen[1] | nan_seen[2] | nan_seen[3]) ow = ow0;                                        \
  }
#else
#define CT__MAXPOOL2X2_VEC(VT, IT, ET)
#endif
#define CT__MAXPOOL2D(NAME, T, VT, IT, ET)                                                                                  \
  static void NAME(int64_t b0, int64_t b1, void *ctx) {                                                         \
    const ct__maxpool2d_job *job = (const ct__maxpool2d_job *)ctx;                                              \
    const ct__pool_geom *g = job->g;                                                                            \
    const int64_t H = g->H, W = g->W, OH = g->OH, OW = g->OW, kh = g->kh, kw = g->kw, sw = g->sw;               \
    int64_t b, oh, ow, i, j, owa, owb;                                                                          \
    /* [owa, owb): the output columns whose windows lie inside [0, W) */                                        \
    owa = g->pw == 0 ? 0 : (g->pw + sw - 1) / sw;                                                               \
    owb = W - kw + g->pw < 0 ? 0 : (W - kw + g->pw) / sw + 1;                                                   \
    if (owb > OW) owb = OW;                                                                                     \
    if (owa > owb) owa = owb;                                                                                   \
    for (b = b0; b < b1; b++) {                                                                                 \
      const T *x = (const T *)job->x + b * H * W;                                                               \
      T *y = (T *)job->y + b * OH * OW;                                                                         \
      int64_t *idx = job->idx + b * OH * OW;                                                                    \
      for (oh = 0; oh < OH; oh++, y += OW, idx += OW) {                                                         \
        int64_t hs = oh * g->sh - g->ph, h0 = hs < 0 ? 0 : hs, h1 = kh < H - hs ? hs + kh : H;                   \
        for (ow = 0; ow < OW; ow++) {                                                                           \
          int64_t ws = ow * sw - g->pw, w0 = ws < 0 ? 0 : ws, w1, bi;                                            \
          T best;                                                                                               \
          if (ow == owa && h0 == hs && h1 - hs == kh) { /* whole windows: columns [owa, owb) */                 \
            if (kh == 2 && kw == 2 && sw == 2) CT__MAXPOOL2X2_VEC(VT, IT, ET)                                \
            for (; ow < owb; ow++) {                                                                            \
              int64_t at = h0 * W + ow * sw - g->pw;                                                            \
              const T *p = x + at;                                                                              \
              T sum;                                                                                            \
              best = p[0], bi = at;                                                                             \
              if (kh == 2 && kw == 2) {                                                                         \
                T r = p[W];                                                                                     \
                int64_t ir = at + W;                                                                            \
                sum = (p[0] + p[1]) + (p[W] + p[W + 1]);                                                        \
                CT__MAXPOOL2D_STEP(T, best, bi, p[1], at + 1);                                                  \
                CT__MAXPOOL2D_STEP(T, r, ir, p[W + 1], at + W + 1);                                             \
                CT__MAXPOOL2D_STEP(T, best, bi, r, ir);                                                         \
              } else {                                                                                          \
                sum = p[0];                                                                                     \
                for (j = 1; j < kw; j++) sum += p[j];                                                           \
                for (j = 1; j < kw; j++) CT__MAXPOOL2D_STEP(T, best, bi, p[j], at + j);                         \
                for (i = 1; i < kh; i++)                                                                        \
                  for (j = 0; j < kw; j++) {                                                                    \
                    sum += p[i * W + j];                                                                        \
                    CT__MAXPOOL2D_STEP(T, best, bi, p[i * W + j], at + i * W + j);                              \
                  }                                                                                             \
              }                                                                                                 \
              if (sum != sum) { /* a NaN, or infinities that cancel */                                          \
                best = (T)-INFINITY, bi = at;                                                                   \
                for (i = 0; i < kh; i++)                                                                        \
                  for (j = 0; j < kw; j++) CT__MAXPOOL2D_TAP(T, p[i * W + j], at + i * W + j);                  \
              }                                                                                                 \
              y[ow] = best, idx[ow] = bi;                                                                       \
            }                                                                                                   \
            if (ow == OW) break;                                                                                \
            ws = ow * sw - g->pw, w0 = ws < 0 ? 0 : ws;                                                          \
          }                                                                                                     \
          w1 = kw < W - ws ? ws + kw : W;                                                                       \
          best = (T)-INFINITY, bi = h0 * W + w0;                                                                \
          for (i = h0; i < h1; i++)                                                                             \
            for (j = w0; j < w1; j++) CT__MAXPOOL2D_TAP(T, x[i * W + j], i * W + j);                            \
          y[ow] = best, idx[ow] = bi;                                                                           \
        }                                                                                                       \
      }                                                                                                         \
    }                                                                                                           \
  }
#ifndef CT__POOL_VEC
typedef int ct__v4f, ct__v4i, ct__v4d, ct__v4l; /* (unused) */
#endif
CT__MAXPOOL2D(ct__maxpool2d_f32, float, ct__v4f, ct__v4i, int32_t)
CT__MAXPOOL2D(ct__maxpool2d_f64, double, ct__v4d, ct__v4l, int64_t)
/* gx[b][idx] += gy[b][o] (backward), or out[b][o] = gx[b][idx] (its derivative, a gather) */
#define CT__MAXPOOL_BW(NAME, T)                                                                            \
  static void NAME(int64_t B, int64_t in_plane, int64_t out_plane, const int64_t *idx, T *in, T *out, int scatter) { \
    int64_t b, o;                                                                                          \
    for (b = 0; b < B; b++, in += in_plane, out += out_plane, idx += out_plane)                            \
      for (o = 0; o < out_plane; o++) {                                                                    \
        if (scatter) in[idx[o]] += out[o];                                                                 \
        else out[o] = in[idx[o]];                                                                          \
      }                                                                                                    \
  }
CT__MAXPOOL_BW(ct__maxpool_bw_f32, float)
CT__MAXPOOL_BW(ct__maxpool_bw_f64, double)

/* ---- avg_pool2d: window sums over the divisor PyTorch uses ---- */
/* one dim of an avg_pool window: [*lo, *hi) clipped to the input; returns its length within the padded input */
static int64_t ct__avg_span(int64_t o, int64_t s, int64_t p, int64_t k, int64_t n, int64_t *lo, int64_t *hi) {
  int64_t len;
  *lo = o * s - p; /* (>= -pad; n + 2 pad fits: ct__avg_pool_impl) */
  *hi = k < n + p - *lo ? *lo + k : n + p;
  len = *hi - *lo;
  if (*lo < 0) *lo = 0;
  if (*hi > n) *hi = n;
  return len;
}
static int64_t ct__avg_window(const ct__pool_geom *g, int64_t od, int64_t oh, int64_t ow, int64_t *d0, int64_t *d1, int64_t *h0,
                              int64_t *h1, int64_t *w0, int64_t *w1) {
  int64_t pool = ct__avg_span(od, g->sd, g->pd, g->kd, g->D, d0, d1) * ct__avg_span(oh, g->sh, g->ph, g->kh, g->H, h0, h1) *
                 ct__avg_span(ow, g->sw, g->pw, g->kw, g->W, w0, w1);
  if (g->divisor != CT_INT_NONE) return g->divisor;
  return g->count_include_pad ? pool : (*d1 - *d0) * (*h1 - *h0) * (*w1 - *w0);
}
#define CT__AVGPOOL(NAME, T, ACC, U)                                                                      \
  static void NAME(const ct__pool_geom *g, T *x, T *y, int backward) {                                    \
    int64_t b, od, oh, ow, i, j, k, d0, d1, h0, h1, w0, w1, div;                                          \
    for (b = 0; b < g->B; b++, x += g->D * g->H * g->W)                                                   \
      for (od = 0; od < g->OD; od++)                                                                      \
        for (oh = 0; oh < g->OH; oh++)                                                                    \
          for (ow = 0; ow < g->OW; ow++, y++) {                                                           \
            div = ct__avg_window(g, od, oh, ow, &d0, &d1, &h0, &h1, &w0, &w1);                            \
            if (backward) {                                                                               \
              T v = (T)((ACC)div == -1 ? (ACC)(U)((U)0 - (U)*y) : *y / (ACC)div); /* (INT64_MIN / -1 wraps) */ \
              for (k = d0; k < d1; k++)                                                                   \
                for (i = h0; i < h1; i++)                                                                 \
                  for (j = w0; j < w1; j++) {                                                             \
                    T *at = &x[(k * g->H + i) * g->W + j];                                                \
                    *at = (T)(U)((U)*at + (U)v);                                                          \
                  }                                                                                       \
            } else {                                                                                      \
              ACC sum = 0;                                                                                \
              for (k = d0; k < d1; k++)                                                                   \
                for (i = h0; i < h1; i++)                                                                 \
                  for (j = w0; j < w1; j++) sum = (ACC)(U)((U)sum + (U)x[(k * g->H + i) * g->W + j]);     \
              *y = d0 < d1 && h0 < h1 && w0 < w1 ? (T)((ACC)div == -1 ? (ACC)(U)((U)0 - (U)sum) : sum / (ACC)div) : (T)0; \
            }                                                                                             \
          }                                                                                               \
  }
CT__AVGPOOL(ct__avgpool_f32, float, double, double)
CT__AVGPOOL(ct__avgpool_f64, double, double, double)
CT__AVGPOOL(ct__avgpool_i64, int64_t, int64_t, uint64_t)

/* ---- adaptive_avg_pool2d / 3d: window [floor(o*I/O), ceil((o+1)*I/O)) in each dim ---- */
#define CT__ADAPTIVE_WINDOW(o, I, O, lo, hi) ((lo) = (o) * (I) / (O), (hi) = (((o) + 1) * (I) + (O) - 1) / (O))
#define CT__ADAPTIVE(NAME, T)                                                                  \
  static void NAME(const ct__pool_geom *g, T *x, T *y, int backward) {                         \
    int64_t b, od, oh, ow, i, j, k;                                                            \
    for (b = 0; b < g->B; b++, x += g->D * g->H * g->W)                                        \
      for (od = 0; od < g->OD; od++)                                                           \
        for (oh = 0; oh < g->OH; oh++)                                                         \
          for (ow = 0; ow < g->OW; ow++, y++) {                                                \
            int64_t d0, d1, h0, h1, w0, w1;                                                    \
            double n, sum = 0;                                                                 \
            CT__ADAPTIVE_WINDOW(od, g->D, g->OD, d0, d1);                                      \
            CT__ADAPTIVE_WINDOW(oh, g->H, g->OH, h0, h1);                                      \
            CT__ADAPTIVE_WINDOW(ow, g->W, g->OW, w0, w1);                                      \
            n = (double)((d1 - d0) * (h1 - h0) * (w1 - w0));                                   \
            for (k = d0; k < d1; k++)                                                          \
              for (i = h0; i < h1; i++)                                                        \
                for (j = w0; j < w1; j++) {                                                    \
                  if (backward) x[(k * g->H + i) * g->W + j] += (T)(*y / n);                   \
                  else sum += x[(k * g->H + i) * g->W + j];                                    \
                }                                                                              \
            if (!backward) *y = (T)(sum / n);                                                  \
          }                                                                                    \
  }
CT__ADAPTIVE(ct__adaptive_f32, float)
CT__ADAPTIVE(ct__adaptive_f64, double)

/* a tensor shaped like t (same rank) with the last two sizes replaced */
static void ct__pool_shape(const ct_tensor *t, int64_t oh, int64_t ow, int64_t *shape) {
  int i;
  for (i = 0; i < t->ndim; i++) shape[i] = t->sizes[i];
  shape[t->ndim - 2] = oh, shape[t->ndim - 1] = ow;
}
/* an adaptive pool's output shape: t's with the last 2 or 3 sizes from g */
static void ct__adaptive_shape(const ct_tensor *t, int nsp, const ct__pool_geom *g, int64_t *shape) {
  ct__pool_shape(t, g->OH, g->OW, shape);
  if (nsp == 3) shape[t->ndim - 3] = g->OD;
}

/* ---- max_pool2d_with_indices / 3d and their backward: structured (ops/structured.h) ----
 * Messages name the pool (max_pool2d, max_pool3d), as PyTorch's checks do. */
static ct_status ct__max_pool_meta(ct__structured *st, const char *name, int nsp, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride,
                                   ct_int_list padding, ct_int_list dilation, bool ceil_mode) {
  ct__pool_geom g;
  int64_t shape[5];
  ct_status s;
  if (ct__pool_setup(name, nsp, self, kernel_size, stride, padding, dilation, ceil_mode, &g, shape) != CT_OK ||
      ct__pool_dtype(name, (ct_dtype)self->dtype, 0) != CT_OK)
    return ct_last_error();
  if ((s = ct__set_output(st, 0, self->ndim, shape, (ct_dtype)self->dtype, self->device)) != CT_OK) return s;
  return ct__set_output(st, 1, self->ndim, shape, CT_I64, self->device);
}
static ct_status ct__max_pool_run(const char *name, int nsp, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride, ct_int_list padding,
                                  ct_int_list dilation, bool ceil_mode, ct_tensor *out, ct_tensor *indices) {
  ct__pool_geom g;
  int64_t shape[5];
  ct_tensor *acc, *x;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__pool_setup(name, nsp, self, kernel_size, stride, padding, dilation, ceil_mode, &g, shape) != CT_OK ||
      ct__st_check_out(name, out, self->ndim, shape) != CT_OK || ct__st_check_out(name, indices, self->ndim, shape) != CT_OK ||
      !(acc = ct__st_acc(name, out)))
    return ct_last_error();
  x = ct__pool_operand(name, self);
  if (!x) st = ct_last_error();
  else if (g.D == 1 && g.OD == 1 && g.kd == 1 && g.dh == 1 && g.dw == 1) {
    /* planes in chunks of about CT_ITER_GRAIN taps (a fixed split: the same bits with any thread count) */
    ct__maxpool2d_job job;
    int64_t per = g.OH * g.OW, taps = g.kh < 64 && g.kw < 64 ? g.kh * g.kw : 4096;
    job.g = &g, job.x = ct_data_ptr(x), job.y = ct_data_ptr(acc), job.idx = (int64_t *)ct_data_ptr(indices);
    ct_parallel_for(g.B, per >= CT_ITER_GRAIN / taps ? 1 : CT_ITER_GRAIN / (per * taps), x->dtype == CT_F32 ? ct__maxpool2d_f32 : ct__maxpool2d_f64,
                    &job);
  } else if (x->dtype == CT_F32)
    ct__maxpool_f32(&g, (const float *)ct_data_ptr(x), (float *)ct_data_ptr(acc), (int64_t *)ct_data_ptr(indices));
  else ct__maxpool_f64(&g, (const double *)ct_data_ptr(x), (double *)ct_data_ptr(acc), (int64_t *)ct_data_ptr(indices));
  ct_release(x);
  return ct__st_acc_done(st, out, acc);
}
#define CT__MAX_POOL_STEPS(NSP)                                                                                                     \
  static ct_status ct__meta_max_pool##NSP##d_with_indices(ct__structured *st, ct_tensor *self, ct_int_list kernel_size,             \
                                                          ct_int_list stride, ct_int_list padding, ct_int_list dilation, bool ceil_mode) { \
    return ct__max_pool_meta(st, "max_pool" #NSP "d", NSP, self, kernel_size, stride, padding, dilation, ceil_mode);                \
  }                                                                                                                                 \
  static ct_status ct__impl_max_pool##NSP##d_with_indices(ct_tensor *self, ct_int_list kernel_size, ct_int_list stride,             \
                                                          ct_int_list padding, ct_int_list dilation, bool ceil_mode, ct_tensor *out, \
                                                          ct_tensor *indices) {                                                     \
    return ct__max_pool_run("max_pool" #NSP "d", NSP, self, kernel_size, stride, padding, dilation, ceil_mode, out, indices);       \
  }
CT__MAX_POOL_STEPS(2)
CT__MAX_POOL_STEPS(3)
/* checks of max_pool2d_with_indices_backward / max_pool2d_double_backward: the pool's output shape */
static ct_status ct__max_pool_bw_setup(const char *op, int nsp, ct_tensor *self, ct_tensor *gy, ct_tensor *indices, ct_int_list kernel_size,
                                       ct_int_list stride, ct_int_list padding, ct_int_list dilation, bool ceil_mode, ct__pool_geom *g) {
  int64_t shape[5];
  char b1[160], b2[160], b3[160];
  if (ct__pool_setup(op, nsp, self, kernel_size, stride, padding, dilation, ceil_mode, g, shape) != CT_OK ||
      ct__pool_dtype(op, (ct_dtype)self->dtype, 0) != CT_OK)
    return ct_last_error();
  if (gy->ndim != self->ndim || memcmp(gy->sizes, shape, sizeof(int64_t) * (size_t)self->ndim) != 0 || !ct_same_shape(gy, indices))
    return ct_fail(CT_ERR_SHAPE, op, "expected grad_output and indices of the pool's output size %s, got %s and %s",
                   ct_shape_format(self->ndim, shape, b1, sizeof b1), ct_shape_format(gy->ndim, gy->sizes, b2, sizeof b2),
                   ct_shape_format(indices->ndim, indices->sizes, b3, sizeof b3));
  if (indices->dtype != CT_I64) return ct_fail(CT_ERR_DTYPE, op, "expected indices of dtype int64, got %s", ct_dtype_name((ct_dtype)indices->dtype));
  if (gy != indices && gy->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected grad_output of dtype %s, got %s", ct_dtype_name((ct_dtype)self->dtype),
                   ct_dtype_name((ct_dtype)gy->dtype));
  return CT_OK;
}
/* indices within [0, plane): checked before any write */
static ct_status ct__max_pool2d_check_indices(const char *op, const ct_tensor *idx, int64_t plane) {
  const int64_t *p = (const int64_t *)ct_data_ptr(idx);
  int64_t i;
  for (i = 0; i < idx->numel; i++)
    if (p[i] < 0 || p[i] >= plane)
      return ct_fail(CT_ERR_INDEX, op, "index %lld out of range for a plane of %lld elements", (long long)p[i], (long long)plane);
  return CT_OK;
}
/* Into the contiguous out: src (grad_output) scattered at the indices into
 * zeros shaped like self (scatter: the backward ops), or src (shaped like
 * self) gathered at them (the double backward); B planes. */
static ct_status ct__max_pool_bw_run(const char *op, int64_t B, int64_t in_plane, int64_t out_plane, ct_tensor *src, ct_tensor *indices,
                                     ct_tensor *out, int scatter) {
  ct_tensor *acc, *s, *idx;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (!(acc = ct__st_acc(op, out))) return ct_last_error();
  s = ct__pool_operand(op, src);
  idx = s ? (ct_is_contiguous(indices) ? ct_retain(indices) : ct__copy_as(op, indices, CT_I64)) : NULL;
  if (!idx || ct__max_pool2d_check_indices(op, idx, in_plane) != CT_OK || (scatter && ct__k_fill_(0, acc, ct_int(0)) != CT_OK))
    st = ct_last_error();
  else if (acc->dtype == CT_F32)
    ct__maxpool_bw_f32(B, in_plane, out_plane, (const int64_t *)ct_data_ptr(idx), (float *)ct_data_ptr(scatter ? acc : s),
                       (float *)ct_data_ptr(scatter ? s : acc), scatter);
  else
    ct__maxpool_bw_f64(B, in_plane, out_plane, (const int64_t *)ct_data_ptr(idx), (double *)ct_data_ptr(scatter ? acc : s),
                       (double *)ct_data_ptr(scatter ? s : acc), scatter);
  ct_release(s), ct_release(idx);
  return ct__st_acc_done(st, out, acc);
}
#define CT__MAX_POOL_BW_STEPS(NSP)                                                                                                  \
  static ct_status ct__meta_max_pool##NSP##d_with_indices_backward(ct__structured *st, ct_tensor *grad_output, ct_tensor *self,     \
                                                                   ct_int_list kernel_size, ct_int_list stride, ct_int_list padding, \
                                                                   ct_int_list dilation, bool ceil_mode, ct_tensor *indices) {      \
    ct__pool_geom g;                                                                                                                \
    if (ct__max_pool_bw_setup(st->op, NSP, self, grad_output, indices, kernel_size, stride, padding, dilation, ceil_mode, &g) != CT_OK) \
      return ct_last_error();                                                                                                       \
    return ct__set_output(st, 0, self->ndim, self->sizes, (ct_dtype)grad_output->dtype, self->device);                              \
  }                                                                                                                                 \
  static ct_status ct__impl_max_pool##NSP##d_with_indices_backward(ct_tensor *grad_output, ct_tensor *self, ct_int_list kernel_size, \
                                                                   ct_int_list stride, ct_int_list padding, ct_int_list dilation,   \
                                                                   bool ceil_mode, ct_tensor *indices, ct_tensor *grad_input) {     \
    static const char *op = "max_pool" #NSP "d_with_indices_backward";                                                              \
    ct__pool_geom g;                                                                                                                \
    if (ct__max_pool_bw_setup(op, NSP, self, grad_output, indices, kernel_size, stride, padding, dilation, ceil_mode, &g) != CT_OK || \
        ct__st_check_out(op, grad_input, self->ndim, self->sizes) != CT_OK)                                                          \
      return ct_last_error();                                                                                                       \
    return ct__max_pool_bw_run(op, g.B, g.D * g.H * g.W, g.OD * g.OH * g.OW, grad_output, indices, grad_input, 1);                  \
  }
CT__MAX_POOL_BW_STEPS(2)
CT__MAX_POOL_BW_STEPS(3)
/* max_pool2d_double_backward (structured, no out= form): input_grad gathered at the indices */
static ct_status ct__max_pool2d_double_backward_check(const char *op, ct_tensor *grad, ct_tensor *self, ct_int_list kernel_size,
                                                      ct_int_list stride, ct_int_list padding, ct_int_list dilation, bool ceil_mode,
                                                      ct_tensor *indices, ct__pool_geom *g) {
  if (ct__max_pool_bw_setup(op, 2, self, indices, indices, kernel_size, stride, padding, dilation, ceil_mode, g) != CT_OK)
    return ct_last_error();
  if (grad->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected input_grad of dtype %s, got %s", ct_dtype_name((ct_dtype)self->dtype),
                   ct_dtype_name((ct_dtype)grad->dtype));
  if (!ct_same_shape(grad, self)) {
    char b1[160], b2[160];
    return ct_fail(CT_ERR_SHAPE, op, "expected grad of the input's size %s, got %s", ct_shape_format(self->ndim, self->sizes, b1, sizeof b1),
                   ct_shape_format(grad->ndim, grad->sizes, b2, sizeof b2));
  }
  return CT_OK;
}
static ct_status ct__meta_max_pool2d_double_backward(ct__structured *st, ct_tensor *grad, ct_tensor *self, ct_int_list kernel_size,
                                                     ct_int_list stride, ct_int_list padding, ct_int_list dilation, bool ceil_mode,
                                                     ct_tensor *indices) {
  ct__pool_geom g;
  if (ct__max_pool2d_double_backward_check(st->op, grad, self, kernel_size, stride, padding, dilation, ceil_mode, indices, &g) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, indices->ndim, indices->sizes, (ct_dtype)grad->dtype, self->device);
}
static ct_status ct__impl_max_pool2d_double_backward(ct_tensor *grad, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride,
                                                     ct_int_list padding, ct_int_list dilation, bool ceil_mode, ct_tensor *indices,
                                                     ct_tensor *out) {
  static const char *op = "max_pool2d_double_backward";
  ct__pool_geom g;
  if (ct__max_pool2d_double_backward_check(op, grad, self, kernel_size, stride, padding, dilation, ceil_mode, indices, &g) != CT_OK)
    return ct_last_error();
  return ct__max_pool_bw_run(op, g.B, g.D * g.H * g.W, g.OD * g.OH * g.OW, grad, indices, out, 0);
}

/* ---- avg_pool2d / 3d and their backward: structured ----
 * The checks (pool2d_shape_check / pool3d_shape_check and the divisor's,
 * named `name`, the pool) of the forward (gy NULL) or the backward. */
static ct_status ct__avg_pool_check(const char *op, const char *name, int nsp, ct_tensor *self, ct_tensor *gy, ct_int_list kernel_size,
                                    ct_int_list stride, ct_int_list padding, bool ceil_mode, bool count_include_pad, int64_t divisor_override,
                                    ct__pool_geom *g, int64_t *shape) {
  ct_int_list nodil;
  nodil.data = NULL, nodil.n = -1;
  if (ct__pool_setup(name, nsp, self, kernel_size, stride, padding, nodil, ceil_mode, g, shape) != CT_OK ||
      ct__pool_dtype(name, (ct_dtype)self->dtype, 1) != CT_OK)
    return ct_last_error();
  if (divisor_override == 0) return ct_fail(CT_ERR_INVALID, op, "divisor must be not zero");
  { /* a window's divisor is at most the padded plane's size */
    int64_t area;
    if (ct__mul_ovf(g->H + 2 * g->ph, g->W + 2 * g->pw, &area) || ct__mul_ovf(area, g->D + 2 * g->pd, &area))
      return ct_fail(CT_ERR_SIZE, op, "the padded input size (%lld x %lld) overflows int64", (long long)g->H + 2 * (long long)g->ph,
                     (long long)g->W + 2 * (long long)g->pw);
  }
  g->count_include_pad = count_include_pad;
  g->divisor = divisor_override;
  if (gy) {
    char b1[160], b2[160];
    if (gy->ndim != self->ndim || memcmp(gy->sizes, shape, sizeof(int64_t) * (size_t)self->ndim) != 0)
      return ct_fail(CT_ERR_SHAPE, op, "expected grad_output of the pool's output size %s, got %s", ct_shape_format(self->ndim, shape, b1, sizeof b1),
                     ct_shape_format(gy->ndim, gy->sizes, b2, sizeof b2));
    if (gy->dtype != self->dtype)
      return ct_fail(CT_ERR_DTYPE, op, "expected grad_output of dtype %s, got %s", ct_dtype_name((ct_dtype)self->dtype),
                     ct_dtype_name((ct_dtype)gy->dtype));
  }
  return CT_OK;
}
static ct_status ct__avg_pool_meta(ct__structured *st, const char *name, int nsp, ct_tensor *self, ct_tensor *gy, ct_int_list kernel_size,
                                   ct_int_list stride, ct_int_list padding, bool ceil_mode, bool count_include_pad, int64_t divisor_override) {
  ct__pool_geom g;
  int64_t shape[5];
  if (ct__avg_pool_check(st->op, name, nsp, self, gy, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, &g, shape) !=
      CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, self->ndim, gy ? self->sizes : shape, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__avg_pool_run(const char *op, const char *name, int nsp, ct_tensor *self, ct_tensor *gy, ct_int_list kernel_size,
                                  ct_int_list stride, ct_int_list padding, bool ceil_mode, bool count_include_pad, int64_t divisor_override,
                                  ct_tensor *out) {
  ct__pool_geom g;
  int64_t shape[5];
  ct_tensor *acc, *x;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__avg_pool_check(op, name, nsp, self, gy, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, &g, shape) !=
          CT_OK ||
      ct__st_check_out(op, out, self->ndim, gy ? self->sizes : shape) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  x = ct__pool_operand(op, gy ? gy : self);
  if (!x || (gy && ct__k_fill_(0, acc, ct_int(0)) != CT_OK)) {
    st = ct_last_error();
  } else {
    void *in = ct_data_ptr(gy ? acc : x), *y = ct_data_ptr(gy ? x : acc);
    if (x->dtype == CT_F32) ct__avgpool_f32(&g, (float *)in, (float *)y, gy != NULL);
    else if (x->dtype == CT_F64) ct__avgpool_f64(&g, (double *)in, (double *)y, gy != NULL);
    else ct__avgpool_i64(&g, (int64_t *)in, (int64_t *)y, gy != NULL);
  }
  ct_release(x);
  return ct__st_acc_done(st, out, acc);
}
#define CT__AVG_POOL_STEPS(NSP)                                                                                                      \
  static ct_status ct__meta_avg_pool##NSP##d(ct__structured *st, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride,       \
                                             ct_int_list padding, bool ceil_mode, bool count_include_pad, int64_t divisor_override) { \
    return ct__avg_pool_meta(st, "avg_pool" #NSP "d", NSP, self, NULL, kernel_size, stride, padding, ceil_mode, count_include_pad,  \
                             divisor_override);                                                                                      \
  }                                                                                                                                  \
  static ct_status ct__impl_avg_pool##NSP##d(ct_tensor *self, ct_int_list kernel_size, ct_int_list stride, ct_int_list padding,      \
                                             bool ceil_mode, bool count_include_pad, int64_t divisor_override, ct_tensor *out) {     \
    return ct__avg_pool_run("avg_pool" #NSP "d", "avg_pool" #NSP "d", NSP, self, NULL, kernel_size, stride, padding, ceil_mode,     \
                            count_include_pad, divisor_override, out);                                                               \
  }                                                                                                                                  \
  static ct_status ct__meta_avg_pool##NSP##d_backward(ct__structured *st, ct_tensor *grad_output, ct_tensor *self,                   \
                                                      ct_int_list kernel_size, ct_int_list stride, ct_int_list padding, bool ceil_mode, \
                                                      bool count_include_pad, int64_t divisor_override) {                            \
    return ct__avg_pool_meta(st, "avg_pool" #NSP "d", NSP, self, grad_output, kernel_size, stride, padding, ceil_mode,              \
                             count_include_pad, divisor_override);                                                                   \
  }                                                                                                                                  \
  static ct_status ct__impl_avg_pool##NSP##d_backward(ct_tensor *grad_output, ct_tensor *self, ct_int_list kernel_size,             \
                                                      ct_int_list stride, ct_int_list padding, bool ceil_mode, bool count_include_pad, \
                                                      int64_t divisor_override, ct_tensor *grad_input) {                             \
    return ct__avg_pool_run("avg_pool" #NSP "d_backward", "avg_pool" #NSP "d", NSP, self, grad_output, kernel_size, stride, padding, \
                            ceil_mode, count_include_pad, divisor_override, grad_input);                                             \
  }
CT__AVG_POOL_STEPS(2)
CT__AVG_POOL_STEPS(3)

/* max_pool2d / 3d (CompositeImplicitAutograd): max_pool2d_with_indices / 3d without the indices */
static ct_tensor *ct__k_max_pool2d(ct_keyset ks, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride, ct_int_list padding,
                                   ct_int_list dilation, bool ceil_mode) {
  (void)ks;
  return ct_max_pool2d_with_indices(self, CT__CONV_LIST(kernel_size), CT__CONV_LIST(stride), CT__CONV_LIST(padding), CT__CONV_LIST(dilation), ceil_mode,
                                    NULL);
}
static ct_tensor *ct__k_max_pool3d(ct_keyset ks, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride, ct_int_list padding,
                                   ct_int_list dilation, bool ceil_mode) {
  (void)ks;
  return ct_max_pool3d_with_indices(self, CT__CONV_LIST(kernel_size), CT__CONV_LIST(stride), CT__CONV_LIST(padding),
                                    CT__CONV_LIST(dilation), ceil_mode, NULL);
}

/* ---- adaptive_avg_pool2d ---- */
/* The checks of adaptive_avg_pool2d / 3d and adaptive_max_pool2d / 3d (nsp spatial dims); fills g. */
static ct_status ct__adaptive_setup(const char *op, const char *name, int nsp, const ct_tensor *self, ct_int_list output_size,
                                    ct__pool_geom *g) {
  char buf[160];
  int i, nd = self->ndim;
  bool is_max = name[9] == 'm'; /* adaptive_max_... */
  if (!is_max && output_size.n != nsp) return ct_fail(CT_ERR_INVALID, op, "%s: output_size must be %d", name, nsp);
  for (i = 0; !is_max && i < nsp; i++)
    if (output_size.data[i] < 0) { /* (PyTorch prints the sizes in braces) */
      ct_shape_format(nsp, output_size.data, buf, sizeof buf);
      buf[0] = '{', buf[strlen(buf) - 1] = '}';
      return ct_fail(CT_ERR_INVALID, op, "%s: elements of output_size must be greater than or equal to 0 but received %s", name, buf);
    }
  if (nd != nsp + 1 && nd != nsp + 2)
    return ct_fail(CT_ERR_RANK, op, "%s(): Expected %dD or %dD tensor, but got %s", name, nsp + 1, nsp + 2,
                   ct_shape_format(nd, self->sizes, buf, sizeof buf));
  for (i = 1; i < nd; i++)
    if (self->sizes[i] == 0)
      return ct_fail(CT_ERR_SHAPE, op, "%s(): Expected input to have non-zero size for non-batch dimensions, but input has "
                     "sizes %s with dimension %d being empty", name, ct_shape_format(nd, self->sizes, buf, sizeof buf), i);
  if (is_max && output_size.n != nsp) return ct_fail(CT_ERR_INVALID, op, "%s(): internal error: output_size.size() must be %d", name, nsp);
  for (i = 0; is_max && i < nsp; i++)
    if (output_size.data[i] < 0)
      return ct_fail(CT_ERR_SIZE, op, "Trying to create tensor with negative dimension in output_size %s",
                     ct_shape_format(nsp, output_size.data, buf, sizeof buf));
  if (ct__pool_dtype(name, (ct_dtype)self->dtype, 0) != CT_OK) return ct_last_error();
  memset(g, 0, sizeof *g);
  g->D = nsp == 3 ? self->sizes[nd - 3] : 1, g->H = self->sizes[nd - 2], g->W = self->sizes[nd - 1];
  g->B = nd == nsp + 2 ? self->sizes[0] * self->sizes[1] : self->sizes[0];
  g->OD = nsp == 3 ? output_size.data[0] : 1, g->OH = output_size.data[nsp - 2], g->OW = output_size.data[nsp - 1];
  return CT_OK;
}
/* before a kernel runs (its result allocated, so the output sizes are sane): the window bounds (o + 1) * I + O - 1 fit */
static ct_status ct__adaptive_bounds(const char *op, const ct__pool_geom *g) {
  int64_t t;
  if (ct__mul_ovf(g->OD, g->D, &t) || ct__add_ovf(t, g->OD, &t) || ct__mul_ovf(g->OH, g->H, &t) || ct__add_ovf(t, g->OH, &t) ||
      ct__mul_ovf(g->OW, g->W, &t) || ct__add_ovf(t, g->OW, &t))
    return ct_fail(CT_ERR_SIZE, op, "output size %lld x %lld x %lld times input size %lld x %lld x %lld overflows int64", (long long)g->OD,
                   (long long)g->OH, (long long)g->OW, (long long)g->D, (long long)g->H, (long long)g->W);
  return CT_OK;
}
/* _adaptive_avg_pool2d / 3d (and adaptive_avg_pool2d / 3d.out; gy NULL) and their backward (gy:
 * grad_output, whose last nsp sizes are the output size): structured. The checks, named `name`. */
static ct_status ct__adaptive_avg_check(const char *op, const char *name, int nsp, ct_tensor *self, ct_tensor *gy, ct_int_list output_size,
                                        ct__pool_geom *g, int64_t *shape) {
  if (gy) {
    if (gy->ndim < nsp) return ct_fail(CT_ERR_RANK, op, "grad_output must be %dD or %dD", nsp + 1, nsp + 2);
    output_size.data = gy->sizes + gy->ndim - nsp, output_size.n = nsp;
  }
  if (ct__adaptive_setup(op, name, nsp, self, output_size, g) != CT_OK) return ct_last_error();
  ct__adaptive_shape(self, nsp, g, shape);
  if (gy) {
    char b1[160], b2[160];
    if (gy->ndim != self->ndim || memcmp(gy->sizes, shape, sizeof(int64_t) * (size_t)(self->ndim - nsp)) != 0 ||
        gy->dtype != self->dtype)
      return ct_fail(CT_ERR_SHAPE, op, "grad_output %s (%s) does not match self %s (%s)", ct_shape_format(gy->ndim, gy->sizes, b1, sizeof b1),
                     ct_dtype_name((ct_dtype)gy->dtype), ct_shape_format(self->ndim, self->sizes, b2, sizeof b2),
                     ct_dtype_name((ct_dtype)self->dtype));
  }
  return CT_OK;
}
static ct_status ct__adaptive_avg_meta(ct__structured *st, const char *name, int nsp, ct_tensor *self, ct_tensor *gy, ct_int_list output_size) {
  ct__pool_geom g;
  int64_t shape[5];
  if (ct__adaptive_avg_check(st->op, name, nsp, self, gy, output_size, &g, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, self->ndim, gy ? self->sizes : shape, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__adaptive_avg_run(const char *op, const char *name, int nsp, ct_tensor *self, ct_tensor *gy, ct_int_list output_size,
                                      ct_tensor *out) {
  ct__pool_geom g;
  int64_t shape[5];
  ct_tensor *acc, *x;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__adaptive_avg_check(op, name, nsp, self, gy, output_size, &g, shape) != CT_OK ||
      ct__st_check_out(op, out, self->ndim, gy ? self->sizes : shape) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  x = ct__pool_operand(op, gy ? gy : self);
  if (!x || (gy && ct__k_fill_(0, acc, ct_int(0)) != CT_OK) || ct__adaptive_bounds(op, &g) != CT_OK) {
    st = ct_last_error();
  } else {
    void *in = ct_data_ptr(gy ? acc : x), *y = ct_data_ptr(gy ? x : acc);
    if (x->dtype == CT_F32) ct__adaptive_f32(&g, (float *)in, (float *)y, gy != NULL);
    else ct__adaptive_f64(&g, (double *)in, (double *)y, gy != NULL);
  }
  ct_release(x);
  return ct__st_acc_done(st, out, acc);
}
#define CT__ADAPTIVE_AVG_STEPS(NSP)                                                                                                  \
  static ct_status ct__meta_adaptive_avg_pool##NSP##d(ct__structured *st, ct_tensor *self, ct_int_list output_size) {                \
    return ct__adaptive_avg_meta(st, "adaptive_avg_pool" #NSP "d", NSP, self, NULL, output_size);                                    \
  }                                                                                                                                  \
  static ct_status ct__impl_adaptive_avg_pool##NSP##d(ct_tensor *self, ct_int_list output_size, ct_tensor *out) {                    \
    return ct__adaptive_avg_run("adaptive_avg_pool" #NSP "d", "adaptive_avg_pool" #NSP "d", NSP, self, NULL, output_size, out);      \
  }                                                                                                                                  \
  static ct_status ct__meta_adaptive_avg_pool##NSP##d_backward(ct__structured *st, ct_tensor *grad_output, ct_tensor *self) {        \
    ct_int_list none;                                                                                                                \
    none.data = NULL, none.n = -1;                                                                                                   \
    return ct__adaptive_avg_meta(st, "adaptive_avg_pool" #NSP "d", NSP, self, grad_output, none);                                   \
  }                                                                                                                                  \
  static ct_status ct__impl_adaptive_avg_pool##NSP##d_backward(ct_tensor *grad_output, ct_tensor *self, ct_tensor *grad_input) {    \
    ct_int_list none;                                                                                                                \
    none.data = NULL, none.n = -1;                                                                                                   \
    return ct__adaptive_avg_run("_adaptive_avg_pool" #NSP "d_backward", "adaptive_avg_pool" #NSP "d", NSP, self, grad_output, none, \
                                grad_input);                                                                                         \
  }
CT__ADAPTIVE_AVG_STEPS(2)
CT__ADAPTIVE_AVG_STEPS(3)
/* adaptive_avg_pool2d / 3d (CompositeImplicitAutograd, as PyTorch): _adaptive_avg_pool2d / 3d */
static ct_tensor *ct__k_adaptive_avg_pool2d(ct_keyset ks, ct_tensor *self, ct_int_list output_size) {
  ct__pool_geom g;
  (void)ks;
  if (ct__adaptive_setup("adaptive_avg_pool2d", "adaptive_avg_pool2d", 2, self, output_size, &g) != CT_OK) return NULL;
  return ct_adaptive_avg_pool2d_impl(self, 2, output_size.data);
}
static ct_tensor *ct__k_adaptive_avg_pool3d(ct_keyset ks, ct_tensor *self, ct_int_list output_size) {
  ct__pool_geom g;
  (void)ks;
  if (ct__adaptive_setup("adaptive_avg_pool3d", "adaptive_avg_pool3d", 3, self, output_size, &g) != CT_OK) return NULL;
  return ct_adaptive_avg_pool3d_impl(self, 3, output_size.data);
}
/* derivative of _adaptive_avg_pool2d / 3d_backward wrt grad_output: pool grad to grad_output's size */
static ct_tensor *ct__adaptive_pool_to(ct_tensor *grad, const ct__shape *to) {
  if (!grad) return NULL;
  return ct_adaptive_avg_pool2d_impl(grad, 2, to->sizes + to->ndim - 2);
}
static ct_tensor *ct__adaptive_pool3d_to(ct_tensor *grad, const ct__shape *to) {
  if (!grad) return NULL;
  return ct_adaptive_avg_pool3d_impl(grad, 3, to->sizes + to->ndim - 3);
}

/* ---- 1-D pooling (CompositeImplicitAutograd, as PyTorch): the 2-D op over
 * a height-1 view (N, C, 1, L), its results squeezed back ---- */
/* an int[1] argument as the 2-D pair (height_value, value); an omitted stride stays omitted (n = 0) */
static ct_status ct__pool1d_arg(const char *op, const char *what, ct_int_list l, int may_omit, int64_t height_value, int64_t out[2],
                                int *n) {
  *n = 0;
  if (may_omit && l.n <= 0) return CT_OK;
  if (l.n != 1)
    return ct_fail(CT_ERR_INVALID, op, "%s() argument '%s' should contain one int (got %lld)", op, what, (long long)(l.n < 0 ? 0 : l.n));
  out[0] = height_value, out[1] = l.data[0], *n = 2;
  return CT_OK;
}
/* the (N, C, 1, L) or (C, 1, L) view of a 2-D or 3-D input */
static ct_tensor *ct__pool1d_input(const char *op, ct_tensor *self) {
  char buf[160];
  if (self->ndim != 2 && self->ndim != 3)
    return ct_fail(CT_ERR_RANK, op, "%s() Expected 2D or 3D input tensor, but got %s", op, ct_shape_format(self->ndim, self->sizes, buf, sizeof buf)),
           (ct_tensor *)NULL;
  return ct_unsqueeze(self, -2);
}
/* t squeezed at dim -2, t released (NULL passes through) */
static ct_tensor *ct__pool1d_output(ct_tensor *t) {
  ct_tensor *r = t ? ct_squeeze_dim(t, -2) : NULL;
  ct_release(t);
  return r;
}
static ct_tensor *ct__k_max_pool1d_with_indices(ct_keyset ks, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride,
                                                ct_int_list padding, ct_int_list dilation, bool ceil_mode, ct_tensor **indices) {
  static const char *op = "max_pool1d";
  int64_t k[2], s[2], p[2], d[2];
  int nk, ns, np, nd;
  ct_tensor *x, *y, *ind = NULL;
  (void)ks;
  if (ct__pool1d_arg(op, "kernel_size", kernel_size, 0, 1, k, &nk) != CT_OK || ct__pool1d_arg(op, "stride", stride, 1, 1, s, &ns) != CT_OK ||
      ct__pool1d_arg(op, "padding", padding, 0, 0, p, &np) != CT_OK || ct__pool1d_arg(op, "dilation", dilation, 0, 1, d, &nd) != CT_OK ||
      !(x = ct__pool1d_input(op, self)))
    return NULL;
  y = ct_max_pool2d_with_indices(x, nk, k, ns, s, np, p, nd, d, ceil_mode, &ind);
  ct_release(x);
  y = ct__pool1d_output(y), ind = ct__pool1d_output(ind);
  if (y && indices) *indices = ind;
  else ct_release(ind);
  return y;
}
static ct_tensor *ct__k_max_pool1d(ct_keyset ks, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride, ct_int_list padding,
                                   ct_int_list dilation, bool ceil_mode) {
  (void)ks;
  return ct_max_pool1d_with_indices(self, CT__CONV_LIST(kernel_size), CT__CONV_LIST(stride), CT__CONV_LIST(padding),
                                    CT__CONV_LIST(dilation), ceil_mode, NULL);
}
static ct_tensor *ct__k_avg_pool1d(ct_keyset ks, ct_tensor *self, ct_int_list kernel_size, ct_int_list stride, ct_int_list padding,
                                   bool ceil_mode, bool count_include_pad) {
  static const char *op = "avg_pool1d";
  int64_t k[2], s[2], p[2];
  int nk, ns, np;
  ct_tensor *x, *y;
  (void)ks;
  if (ct__pool1d_arg(op, "kernel_size", kernel_size, 0, 1, k, &nk) != CT_OK || ct__pool1d_arg(op, "stride", stride, 1, 1, s, &ns) != CT_OK ||
      ct__pool1d_arg(op, "padding", padding, 0, 0, p, &np) != CT_OK || !(x = ct__pool1d_input(op, self)))
    return NULL;
  y = ct_avg_pool2d(x, nk, k, ns, s, np, p, ceil_mode, count_include_pad, CT_INT_NONE);
  ct_release(x);
  return ct__pool1d_output(y);
}
static ct_tensor *ct__k_adaptive_avg_pool1d(ct_keyset ks, ct_tensor *self, ct_int_list output_size) {
  static const char *op = "adaptive_avg_pool1d";
  int64_t o[2];
  int no;
  ct_tensor *x, *y;
  (void)ks;
  if (ct__pool1d_arg(op, "output_size", output_size, 0, 1, o, &no) != CT_OK || !(x = ct__pool1d_input(op, self))) return NULL;
  y = ct_adaptive_avg_pool2d(x, no, o);
  ct_release(x);
  return ct__pool1d_output(y);
}

/* ---- adaptive_max_pool2d / 3d: the max of each adaptive window (as adaptive_avg_pool) and its flat
 * index in the plane; a NaN wins, ties keep the first (as max_pool2d) ---- */
#define CT__ADAPTIVE_MAX(NAME, T)                                                              \
  static void NAME(const ct__pool_geom *g, const T *x, T *y, int64_t *idx) {                   \
    int64_t b, od, oh, ow, i, j, k;                                                            \
    for (b = 0; b < g->B; b++, x += g->D * g->H * g->W)                                        \
      for (od = 0; od < g->OD; od++)                                                           \
        for (oh = 0; oh < g->OH; oh++)                                                         \
          for (ow = 0; ow < g->OW; ow++, y++, idx++) {                                         \
            int64_t d0, d1, h0, h1, w0, w1;                                                    \
            T best = (T)-INFINITY;                                                             \
            CT__ADAPTIVE_WINDOW(od, g->D, g->OD, d0, d1);                                      \
            CT__ADAPTIVE_WINDOW(oh, g->H, g->OH, h0, h1);                                      \
            CT__ADAPTIVE_WINDOW(ow, g->W, g->OW, w0, w1);                                      \
            *idx = (d0 * g->H + h0) * g->W + w0;                                               \
            for (k = d0; k < d1; k++)                                                          \
              for (i = h0; i < h1; i++)                                                        \
                for (j = w0; j < w1; j++) {                                                    \
                  T v = x[(k * g->H + i) * g->W + j];                                          \
                  if (v > best || v != v) best = v, *idx = (k * g->H + i) * g->W + j;          \
                }                                                                              \
            *y = best;                                                                         \
          }                                                                                    \
  }
CT__ADAPTIVE_MAX(ct__adaptive_max_f32, float)
CT__ADAPTIVE_MAX(ct__adaptive_max_f64, double)

/* adaptive_max_pool2d / 3d (values and indices) and their backward: structured */
static ct_status ct__adaptive_max_meta(ct__structured *st, int nsp, ct_tensor *self, ct_int_list output_size) {
  ct__pool_geom g;
  int64_t shape[5];
  ct_status s;
  if (ct__adaptive_setup(st->op, st->op, nsp, self, output_size, &g) != CT_OK) return ct_last_error();
  ct__adaptive_shape(self, nsp, &g, shape);
  if ((s = ct__set_output(st, 0, self->ndim, shape, (ct_dtype)self->dtype, self->device)) != CT_OK) return s;
  return ct__set_output(st, 1, self->ndim, shape, CT_I64, self->device);
}
static ct_status ct__adaptive_max_run(const char *op, int nsp, ct_tensor *self, ct_int_list output_size, ct_tensor *out, ct_tensor *indices) {
  ct__pool_geom g;
  int64_t shape[5];
  ct_tensor *acc, *x;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__adaptive_setup(op, op, nsp, self, output_size, &g) != CT_OK) return ct_last_error();
  ct__adaptive_shape(self, nsp, &g, shape);
  if (ct__st_check_out(op, out, self->ndim, shape) != CT_OK || ct__st_check_out(op, indices, self->ndim, shape) != CT_OK ||
      !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  x = ct__pool_operand(op, self);
  if (!x || ct__adaptive_bounds(op, &g) != CT_OK) st = ct_last_error();
  else if (x->dtype == CT_F32) ct__adaptive_max_f32(&g, (const float *)ct_data_ptr(x), (float *)ct_data_ptr(acc), (int64_t *)ct_data_ptr(indices));
  else ct__adaptive_max_f64(&g, (const double *)ct_data_ptr(x), (double *)ct_data_ptr(acc), (int64_t *)ct_data_ptr(indices));
  ct_release(x);
  return ct__st_acc_done(st, out, acc);
}
/* the backward's checks: zeros like self with grad_output added at indices (flat positions within each plane of nsp dims) */
static ct_status ct__adaptive_max_bw_check(const char *op, int nsp, ct_tensor *grad_output, ct_tensor *self, ct_tensor *indices) {
  char b1[160], b2[160];
  int nd = self->ndim;
  if (nd != nsp + 1 && nd != nsp + 2)
    return ct_fail(CT_ERR_RANK, op, "%s(): Expected %dD or %dD self, but got: %s", op, nsp + 1, nsp + 2, ct_shape_format(nd, self->sizes, b1, sizeof b1));
  if (!ct_same_shape(grad_output, indices) || grad_output->ndim != nd || memcmp(grad_output->sizes, self->sizes, sizeof(int64_t) * (size_t)(nd - nsp)) != 0)
    return ct_fail(CT_ERR_SHAPE, op, "expected grad_output %s of the shape of indices %s, with self's leading dims",
                   ct_shape_format(grad_output->ndim, grad_output->sizes, b1, sizeof b1), ct_shape_format(indices->ndim, indices->sizes, b2, sizeof b2));
  if (indices->dtype != CT_I64) return ct_fail(CT_ERR_DTYPE, op, "expected indices of dtype int64, got %s", ct_dtype_name((ct_dtype)indices->dtype));
  if (grad_output->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected grad_output of dtype %s, got %s", ct_dtype_name((ct_dtype)self->dtype), ct_dtype_name((ct_dtype)grad_output->dtype));
  return ct__pool_dtype(op, (ct_dtype)self->dtype, 0);
}
static ct_status ct__adaptive_max_bw_run(const char *op, int nsp, ct_tensor *grad_output, ct_tensor *self, ct_tensor *indices, ct_tensor *grad_input) {
  int64_t planes = 1, out_plane = 1, in_plane = 1;
  int i, nd = self->ndim;
  if (grad_input->numel == 0) return CT_OK;
  if (ct__adaptive_max_bw_check(op, nsp, grad_output, self, indices) != CT_OK || ct__st_check_out(op, grad_input, nd, self->sizes) != CT_OK)
    return ct_last_error();
  for (i = 0; i < nd; i++) {
    if (i < nd - nsp) planes *= self->sizes[i];
    else in_plane *= self->sizes[i], out_plane *= grad_output->sizes[i];
  }
  return ct__max_pool_bw_run(op, planes, in_plane, out_plane, grad_output, indices, grad_input, 1);
}
#define CT__ADAPTIVE_MAX_STEPS(NSP)                                                                                                 \
  static ct_status ct__meta_adaptive_max_pool##NSP##d(ct__structured *st, ct_tensor *self, ct_int_list output_size) {               \
    return ct__adaptive_max_meta(st, NSP, self, output_size);                                                                       \
  }                                                                                                                                 \
  static ct_status ct__impl_adaptive_max_pool##NSP##d(ct_tensor *self, ct_int_list output_size, ct_tensor *out, ct_tensor *indices) { \
    return ct__adaptive_max_run("adaptive_max_pool" #NSP "d", NSP, self, output_size, out, indices);                                \
  }                                                                                                                                 \
  static ct_status ct__meta_adaptive_max_pool##NSP##d_backward(ct__structured *st, ct_tensor *grad_output, ct_tensor *self,         \
                                                               ct_tensor *indices) {                                                \
    if (ct__adaptive_max_bw_check(st->op, NSP, grad_output, self, indices) != CT_OK) return ct_last_error();                        \
    return ct__set_output(st, 0, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device);                                     \
  }                                                                                                                                 \
  static ct_status ct__impl_adaptive_max_pool##NSP##d_backward(ct_tensor *grad_output, ct_tensor *self, ct_tensor *indices,         \
                                                               ct_tensor *grad_input) {                                             \
    return ct__adaptive_max_bw_run("adaptive_max_pool" #NSP "d_backward", NSP, grad_output, self, indices, grad_input);             \
  }
CT__ADAPTIVE_MAX_STEPS(2)
CT__ADAPTIVE_MAX_STEPS(3)
/* derivative of adaptive_max_pool2d_backward wrt grad_output and of max_unpool wrt self: grad gathered at
 * the indices over the last nsp dims (PyTorch's max_pool_double_backward). (A formula: the engine's scope releases the intermediate results.) */
static ct_tensor *ct__max_pool_gather(ct_tensor *grad, ct_tensor *indices, int nsp) {
  ct_tensor *g, *i, *r;
  if (!grad || !indices) return NULL;
  g = ct_flatten(grad, -nsp, -1);
  i = g ? ct_flatten(indices, -nsp, -1) : NULL;
  r = i ? ct_gather(g, -1, i) : NULL;
  return r ? ct_reshape(r, indices->ndim, indices->sizes) : NULL;
}
/* ---- max_unpool2d / max_unpool3d: zeros of output_size per plane, each input value written at its index
 * (a flat position within the output plane, as max_pool returns them; a repeated index keeps the last) ---- */
#define CT__UNPOOL(NAME, T)                                                                                         \
  static void NAME(int64_t B, int64_t in_plane, int64_t out_plane, const int64_t *idx, const T *x, T *y) {          \
    int64_t b, o;                                                                                                   \
    for (b = 0; b < B; b++, x += in_plane, y += out_plane, idx += in_plane)                                        \
      for (o = 0; o < in_plane; o++) y[idx[o]] = x[o];                                                              \
  }
CT__UNPOOL(ct__unpool_f32, float)
CT__UNPOOL(ct__unpool_f64, double)
/* the checks of max_unpool2d / 3d and the output shape */
static ct_status ct__max_unpool_check(const char *op, int nsp, ct_tensor *self, ct_tensor *indices, ct_int_list output_size, int64_t *shape) {
  static const char *const dims[2] = {"two elements (height, width)", "three elements (depth, height, width)"};
  char b1[160], b2[160];
  int i, nd = self->ndim;
  if (indices->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "elements in indices should be type int64 but got: %s", ct__dtype_torch_name((ct_dtype)indices->dtype));
  if (output_size.n != nsp)
    return ct_fail(CT_ERR_INVALID, op, "There should be exactly %s in output_size, but got %lld elements.", dims[nsp - 2],
                   (long long)(output_size.n < 0 ? 0 : output_size.n));
  if (nd != nsp + 1 && nd != nsp + 2)
    return ct_fail(CT_ERR_RANK, op, "Input to max_unpooling%dd should be a %dd or %dd Tensor, but got a tensor with %d dimensions.", nsp, nsp + 1,
                   nsp + 2, nd);
  if (!ct_same_shape(self, indices))
    return ct_fail(CT_ERR_SHAPE, op, "Expected shape of indices to be same as that of the input tensor (%s) but got indices tensor with shape: %s",
                   ct_shape_format(nd, self->sizes, b1, sizeof b1), ct_shape_format(indices->ndim, indices->sizes, b2, sizeof b2));
  for (i = 1; i < nd; i++)
    if (self->sizes[i] == 0)
      return ct_fail(CT_ERR_SHAPE, op, "max_unpooling%dd(): Expected input to have non-zero size for non-batch dimensions, but got %s with "
                     "dimension %d being empty.", nsp, ct_shape_format(nd, self->sizes, b1, sizeof b1), i);
  if (!ct_dtype_is_floating((ct_dtype)self->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)self->dtype));
  for (i = 0; i < nd - nsp; i++) shape[i] = self->sizes[i];
  for (i = 0; i < nsp; i++) shape[nd - nsp + i] = output_size.data[i];
  return CT_OK;
}
/* max_unpool3d: stride and padding are only checked, as PyTorch (the indices say where each value goes) */
static ct_status ct__max_unpool3d_check(const char *op, ct_tensor *self, ct_tensor *indices, ct_int_list output_size, ct_int_list stride,
                                        ct_int_list padding, int64_t *shape) {
  if (stride.n != 3)
    return ct_fail(CT_ERR_INVALID, op, "There should be exactly three elements (depth, height, width) in stride, but got: %lld elements.",
                   (long long)(stride.n < 0 ? 0 : stride.n));
  if (padding.n != 3)
    return ct_fail(CT_ERR_INVALID, op, "There should be exactly three elements (depth, height, width) in padding, but got: %lld elements.",
                   (long long)(padding.n < 0 ? 0 : padding.n));
  if (stride.data[0] <= 0 || stride.data[1] <= 0 || stride.data[2] <= 0)
    return ct_fail(CT_ERR_INVALID, op, "strides should be greater than zero, but got stride: [%lld, %lld, %lld]", (long long)stride.data[0],
                   (long long)stride.data[1], (long long)stride.data[2]);
  return ct__max_unpool_check(op, 3, self, indices, output_size, shape);
}
/* Into the contiguous out (shape given by the checks): zeros, then each value at its index; the indices'
 * range is a data check, made before any write */
static ct_status ct__max_unpool_run(const char *op, int nsp, ct_tensor *self, ct_tensor *indices, ct_int_list output_size, ct_tensor *out) {
  int64_t in_plane = 1, out_plane = 1, planes = 1, k;
  ct_tensor *acc, *x, *idx;
  ct_status st = CT_OK;
  char b1[160];
  int i, nd = self->ndim;
  if (out->numel == 0) return CT_OK;
  for (i = 0; i < nd - nsp; i++) planes *= self->sizes[i];
  for (i = 0; i < nsp; i++) in_plane *= self->sizes[nd - nsp + i], out_plane *= output_size.data[i]; /* (fit: out exists) */
  if (!(acc = ct__st_acc(op, out))) return ct_last_error();
  x = ct__pool_operand(op, self);
  idx = x ? (ct_is_contiguous(indices) ? ct_retain(indices) : ct__copy_as(op, indices, CT_I64)) : NULL;
  if (!idx || ct__k_fill_(0, acc, ct_int(0)) != CT_OK) {
    st = ct_last_error();
  } else {
    const int64_t *p = (const int64_t *)ct_data_ptr(idx);
    for (k = 0; k < idx->numel && st == CT_OK; k++)
      if (p[k] < 0 || p[k] >= out_plane)
        st = ct_fail(CT_ERR_INDEX, op, "Found an invalid max index: %lld (output volumes are of size %s)", (long long)p[k],
                     ct_shape_format(nsp, output_size.data, b1, sizeof b1));
    if (st == CT_OK && acc->dtype == CT_F32)
      ct__unpool_f32(planes, in_plane, out_plane, p, (const float *)ct_data_ptr(x), (float *)ct_data_ptr(acc));
    else if (st == CT_OK)
      ct__unpool_f64(planes, in_plane, out_plane, p, (const double *)ct_data_ptr(x), (double *)ct_data_ptr(acc));
  }
  ct_release(x), ct_release(idx);
  return ct__st_acc_done(st, out, acc);
}
static ct_status ct__meta_max_unpool2d(ct__structured *st, ct_tensor *self, ct_tensor *indices, ct_int_list output_size) {
  int64_t shape[4];
  if (ct__max_unpool_check(st->op, 2, self, indices, output_size, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, self->ndim, shape, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_max_unpool2d(ct_tensor *self, ct_tensor *indices, ct_int_list output_size, ct_tensor *out) {
  return ct__max_unpool_run("max_unpool2d", 2, self, indices, output_size, out);
}
static ct_status ct__meta_max_unpool3d(ct__structured *st, ct_tensor *self, ct_tensor *indices, ct_int_list output_size, ct_int_list stride,
                                       ct_int_list padding) {
  int64_t shape[5];
  if (ct__max_unpool3d_check(st->op, self, indices, output_size, stride, padding, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, self->ndim, shape, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_max_unpool3d(ct_tensor *self, ct_tensor *indices, ct_int_list output_size, ct_int_list stride, ct_int_list padding,
                                       ct_tensor *out) {
  (void)stride, (void)padding;
  return ct__max_unpool_run("max_unpool3d", 3, self, indices, output_size, out);
}
/* adaptive_max_pool1d (CompositeImplicitAutograd): adaptive_max_pool2d over the (N, C, 1, L) view */
static ct_tensor *ct__k_adaptive_max_pool1d(ct_keyset ks, ct_tensor *self, ct_int_list output_size, ct_tensor **indices) {
  static const char *op = "adaptive_max_pool1d";
  int64_t o[2];
  int no;
  ct_tensor *x, *y, *ind = NULL;
  (void)ks;
  if (ct__pool1d_arg(op, "output_size", output_size, 0, 1, o, &no) != CT_OK || !(x = ct__pool1d_input(op, self))) return NULL;
  y = ct_adaptive_max_pool2d(x, no, o, &ind);
  ct_release(x);
  y = ct__pool1d_output(y), ind = ct__pool1d_output(ind);
  if (y && indices) *indices = ind;
  else ct_release(ind);
  return y;
}

/* ================= upsampling =================
 * One mechanism for every mode and rank. Along each spatial dim, output
 * position o reads T taps of the input dim (nearest 1, linear 2, cubic 4)
 * with weights, from PyTorch's source-index formulas; the N-D result is the
 * separable product of the dims' taps (a 1-D or 2-D op has leading dims of
 * size 1 with one tap of weight 1). The backward op scatters grad_output
 * through the same taps; both are linear, so each is the other's derivative. */
enum { CT__UP_NEAREST, CT__UP_NEAREST_EXACT, CT__UP_LINEAR, CT__UP_CUBIC };

typedef struct ct__up_geom {
  int64_t B, in[3], out[3]; /* B = N*C planes; spatial dims padded in front with 1 */
  int taps[3];              /* taps per output position */
  int64_t *idx[3];          /* out[d] * T[d] input positions */
  double *w[3];             /* and their weights */
} ct__up_geom;

static int ct__up_ntaps(int mode) { return mode == CT__UP_LINEAR ? 2 : mode == CT__UP_CUBIC ? 4 : 1; }

/* PyTorch's area_pixel_compute_scale: with align_corners (linear, cubic)
 * (in-1)/(out-1); else 1/scale when a positive scale was given (not in/out:
 * the scale-factor path), else in/out. In float for f32 (and always for
 * nearest, whose index math is float for every dtype). */
static double ct__up_scale(int64_t in, int64_t out, bool align_corners, double scale, bool f32) {
  if (align_corners) return out > 1 ? (f32 ? (double)((float)(in - 1) / (float)(out - 1)) : (double)(in - 1) / (double)(out - 1)) : 0;
  if (scale > 0) return f32 ? (double)(float)(1.0 / scale) : 1.0 / scale; /* (NaN, None, fails the test) */
  return f32 ? (double)((float)in / (float)out) : (double)in / (double)out;
}
/* area_pixel_compute_source_index: the (fractional) input position of output o */
static double ct__up_source(double scale, int64_t o, bool align_corners, bool cubic, bool f32) {
  double src;
  if (align_corners) return f32 ? (double)((float)scale * (float)o) : scale * (double)o;
  src = scale * ((double)o + 0.5) - 0.5;
  if (f32) src = (double)(float)src;
  return !cubic && src < 0 ? 0 : src;
}
/* Keys' cubic convolution kernel with A = -0.75, as PyTorch: weights of the taps at i-1, i, i+1, i+2 for offset t in [0, 1) */
static void ct__up_cubic_weights(double t, double w[4]) {
  const double A = -0.75;
  double x1 = t + 1, x2 = 1 - t, x3 = 2 - t;
  w[0] = ((A * x1 - 5 * A) * x1 + 8 * A) * x1 - 4 * A;
  w[1] = ((A + 2) * t - (A + 3)) * t * t + 1;
  w[2] = ((A + 2) * x2 - (A + 3)) * x2 * x2 + 1;
  w[3] = ((A * x3 - 5 * A) * x3 + 8 * A) * x3 - 4 * A;
}
/* The taps of one dim. Indices are clamped to the input (PyTorch 1.13 reads
 * past the input when a given scale maps outputs beyond it; this keeps to the
 * edge instead, as later PyTorch versions do). `backward` selects the backward
 * kernels' index rules where they differ from the forward's: nearest's
 * out == in and out == 2 in shortcuts (which ignore a given scale). */
static void ct__up_taps(int mode, int64_t in, int64_t out, bool align_corners, double scale, bool f32, bool backward, int64_t *idx,
                        double *w) {
  int64_t o, i, j;
  int T = ct__up_ntaps(mode);
  bool nearest = mode == CT__UP_NEAREST || mode == CT__UP_NEAREST_EXACT;
  double sc = ct__up_scale(in, out, align_corners && !nearest, scale, f32 || nearest);
  for (o = 0; o < out; o++, idx += T, w += T) {
    if (nearest) {
      if (mode == CT__UP_NEAREST && backward && out == in) i = o;
      else if (mode == CT__UP_NEAREST && backward && out == 2 * in) i = o >> 1;
      else if (mode == CT__UP_NEAREST) i = (int64_t)floorf((float)o * (float)sc);
      else i = (int64_t)floorf((float)(((double)o + 0.5) * sc));
      idx[0] = i < in - 1 ? i : in - 1, w[0] = 1;
    } else if (mode == CT__UP_LINEAR) {
      double real, l1;
      if (out == in) { /* PyTorch copies (whatever scale was given) */
        idx[0] = idx[1] = o, w[0] = 1, w[1] = 0;
        continue;
      }
      real = ct__up_source(sc, o, align_corners, false, f32);
      i = (int64_t)real;
      if (i > in - 1) i = in - 1;
      l1 = f32 ? (double)((float)real - (float)i) : real - (double)i;
      l1 = l1 < 0 ? 0 : l1 > 1 ? 1 : l1;
      idx[0] = i, idx[1] = i < in - 1 ? i + 1 : i;
      w[0] = f32 ? (double)(1.0f - (float)l1) : 1 - l1, w[1] = l1;
    } else {
      double real = ct__up_source(sc, o, align_corners, true, f32), t;
      i = (int64_t)floor(real);
      t = real - (double)i;
      ct__up_cubic_weights(f32 ? (double)(float)t : t, w);
      for (j = 0; j < 4; j++) idx[j] = i - 1 + j < 0 ? 0 : i - 1 + j > in - 1 ? in - 1 : i - 1 + j;
    }
  }
}
/* y[b][o] = sum of weighted taps of x[b] (forward), or x[b][taps] += weight * y[b][o] (backward) */
#define CT__UPSAMPLE(NAME, T)                                                                                 \
  static void NAME(const ct__up_geom *g, T *x, T *y, int backward) {                                          \
    int64_t b, od, oh, ow, plane = g->in[0] * g->in[1] * g->in[2];                                            \
    int td, th, tw;                                                                                           \
    for (b = 0; b < g->B; b++, x += plane)                                                                    \
      for (od = 0; od < g->out[0]; od++)                                                                      \
        for (oh = 0; oh < g->out[1]; oh++)                                                                    \
          for (ow = 0; ow < g->out[2]; ow++, y++) {                                                           \
            const int64_t *id = g->idx[0] + od * g->taps[0], *ih = g->idx[1] + oh * g->taps[1], *iw = g->idx[2] + ow * g->taps[2]; \
            const double *wd = g->w[0] + od * g->taps[0], *wh = g->w[1] + oh * g->taps[1], *ww = g->w[2] + ow * g->taps[2]; \
            double acc = 0;                                                                                   \
            for (td = 0; td < g->taps[0]; td++)                                                                  \
              for (th = 0; th < g->taps[1]; th++) {                                                              \
                T *row = x + (id[td] * g->in[1] + ih[th]) * g->in[2];                                         \
                double wdh = wd[td] * wh[th];                                                                 \
                for (tw = 0; tw < g->taps[2]; tw++) {                                                            \
                  if (backward) row[iw[tw]] += (T)(wdh * ww[tw] * (double)*y);                                \
                  else acc += wdh * ww[tw] * (double)row[iw[tw]];                                             \
                }                                                                                             \
              }                                                                                               \
            if (!backward) *y = (T)acc;                                                                       \
          }                                                                                                   \
  }
CT__UPSAMPLE(ct__upsample_f32, float)
CT__UPSAMPLE(ct__upsample_f64, double)
CT__UPSAMPLE(ct__upsample_u8, uint8_t) /* (nearest forward only: weights 1, the values copied) */

static const char *const ct__up_dim_names[3] = {"D", "H", "W"};
/* "(D: 1, H: 2, W: 3)" of the last nsp sizes */
static void ct__up_format(int nsp, const int64_t *sizes, char *buf, size_t cap) {
  size_t n = 0;
  int i;
  buf[0] = 0;
  for (i = 0; i < nsp && n < cap; i++)
    n += (size_t)snprintf(buf + n, cap - n, "%s%s: %lld%s", i ? ", " : "(", ct__up_dim_names[3 - nsp + i], (long long)sizes[i],
                          i == nsp - 1 ? ")" : "");
}

/* ---- structured (ops/structured.h): one meta step for every mode and rank ----
 * Forward (src = self, input_size NULL) or backward (src = grad_output,
 * input_size the forward's input shape) of an nsp-D upsampling: PyTorch's
 * upsample_Nd_common_check and meta checks; u8: uint8 is accepted too (the
 * nearest forwards, as PyTorch). */
static ct_status ct__up_check(const char *op, int nsp, bool u8, ct_tensor *src, ct_int_list output_size, const ct_int_list *input_size,
                              int64_t *shape) {
  const int64_t *in_sizes = input_size ? input_size->data : src->sizes;
  int64_t in_rank = input_size ? input_size->n : src->ndim;
  char b1[160], b2[160];
  int d, i;
  if (output_size.n != nsp)
    return ct_fail(CT_ERR_INVALID, op, "It is expected output_size equals to %d, but got size %lld", nsp, (long long)output_size.n);
  if (in_rank != nsp + 2)
    return ct_fail(input_size ? CT_ERR_INVALID : CT_ERR_RANK, op, "It is expected input_size equals to %d, but got size %lld", nsp + 2,
                   (long long)in_rank);
  for (d = 0; d < nsp; d++)
    if (in_sizes[2 + d] <= 0 || output_size.data[d] <= 0) {
      ct__up_format(nsp, in_sizes + 2, b1, sizeof b1), ct__up_format(nsp, output_size.data, b2, sizeof b2);
      return ct_fail(in_sizes[2 + d] <= 0 ? CT_ERR_SHAPE : CT_ERR_INVALID, op,
                     "Input and output sizes should be greater than 0, but got input %s and output %s", b1, b2);
    }
  if (!ct_dtype_is_floating((ct_dtype)src->dtype) && !(src->dtype == CT_U8 && u8 && !input_size))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)src->dtype));
  shape[0] = in_sizes[0], shape[1] = in_sizes[1];
  for (d = 0; d < nsp; d++) shape[2 + d] = output_size.data[d];
  if (!input_size && src->numel == 0 && in_sizes[1] == 0)
    return ct_fail(CT_ERR_SHAPE, op, "Non-empty %dD data tensor expected but got a tensor with sizes %s", nsp + 2,
                   ct_shape_format(src->ndim, src->sizes, b1, sizeof b1));
  if (input_size) { /* grad_output must have the forward's output shape */
    if (src->ndim != nsp + 2)
      return ct_fail(CT_ERR_RANK, op, "Expected grad_output to be a tensor of dimension %d but got: dimension %d", nsp + 2, src->ndim);
    for (i = 0; i < nsp + 2; i++)
      if (src->sizes[i] != shape[i])
        return ct_fail(CT_ERR_SHAPE, op, "Expected grad_output to have the same shape as output; output.size(%d) = %lld but got "
                       "grad_output.size(%d) = %lld", i, (long long)shape[i], i, (long long)src->sizes[i]);
    for (i = 0; i < nsp + 2; i++) shape[i] = in_sizes[i]; /* the output: grad_input */
  }
  return CT_OK;
}
static ct_status ct__up_meta(ct__structured *st, int nsp, bool u8, ct_tensor *src, ct_int_list output_size, const ct_int_list *input_size) {
  int64_t shape[5];
  if (ct__up_check(st->op, nsp, u8, src, output_size, input_size, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, nsp + 2, shape, (ct_dtype)src->dtype, src->device);
}
/* The impl step: out (in_sizes[0], in_sizes[1], out_sizes) from src
 * (forward), or grad_input (input_size) from src = grad_output (backward). */
static ct_status ct__up_impl(const char *op, int mode, int nsp, ct_tensor *src, ct_int_list output_size, const ct_int_list *input_size,
                             bool align_corners, const double *scales, ct_tensor *out) {
  const int64_t *in_sizes = input_size ? input_size->data : src->sizes, *out_sizes = output_size.data;
  bool backward = input_size != NULL;
  int64_t shape[5];
  ct__up_geom g;
  ct_tensor *acc, *x = NULL;
  ct_status st = CT_OK;
  /* PyTorch's bicubic backward copies when every size is unchanged (whatever the scales): nearest's identity taps */
  bool f32, copy = mode == CT__UP_CUBIC && backward;
  int d;
  if (out->numel == 0) return CT_OK;
  if (ct__up_check(op, nsp, mode == CT__UP_NEAREST || mode == CT__UP_NEAREST_EXACT, src, output_size, input_size, shape) != CT_OK ||
      ct__st_check_out(op, out, nsp + 2, shape) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  f32 = acc->dtype == CT_F32;
  memset(&g, 0, sizeof g);
  g.B = in_sizes[0] * in_sizes[1];
  for (d = 0; d < 3; d++) {
    int k = d - (3 - nsp); /* the op's spatial dim, or < 0 for a padding dim */
    g.in[d] = k < 0 ? 1 : in_sizes[2 + k], g.out[d] = k < 0 ? 1 : out_sizes[k];
    if (g.in[d] != g.out[d]) copy = false;
  }
  for (d = 0; d < 3 && st == CT_OK; d++) {
    int k = d - (3 - nsp);
    g.taps[d] = k < 0 || copy ? 1 : ct__up_ntaps(mode);
    g.idx[d] = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(g.out[d] * g.taps[d]));
    g.w[d] = (double *)ct__workspace(sizeof(double) * (size_t)(g.out[d] * g.taps[d]));
    if (!g.idx[d] || !g.w[d]) st = ct_fail(CT_ERR_OOM, op, "out of memory");
    else if (k < 0) g.idx[d][0] = 0, g.w[d][0] = 1;
    else ct__up_taps(copy ? CT__UP_NEAREST : mode, g.in[d], g.out[d], align_corners, scales[k], f32, backward, g.idx[d], g.w[d]);
  }
  if (st == CT_OK) {
    x = ct__pool_operand(op, src);
    if (!x || (backward && ct__k_fill_(0, acc, ct_int(0)) != CT_OK)) st = ct_last_error();
    else if (acc->dtype == CT_U8) ct__upsample_u8(&g, (uint8_t *)ct_data_ptr(x), (uint8_t *)ct_data_ptr(acc), 0);
    else if (f32) ct__upsample_f32(&g, (float *)ct_data_ptr(backward ? acc : x), (float *)ct_data_ptr(backward ? x : acc), backward);
    else ct__upsample_f64(&g, (double *)ct_data_ptr(backward ? acc : x), (double *)ct_data_ptr(backward ? x : acc), backward);
  }
  for (d = 0; d < 3; d++) ct__workspace_free(g.idx[d]), ct__workspace_free(g.w[d]);
  ct_release(x);
  return ct__st_acc_done(st, out, acc);
}

/* The steps of the families: the argument lists differ only in
 * align_corners and the number of scales, spelled by the parameter macros
 * below. A meta step per argument list (nearest and nearest-exact share
 * theirs, so do bilinear and bicubic), an impl step per op. */
#define CT__UP_S1_P , double scales
#define CT__UP_S1_V {scales, NAN, NAN}
#define CT__UP_S2_P , double scales_h, double scales_w
#define CT__UP_S2_V {scales_h, scales_w, NAN}
#define CT__UP_S3_P , double scales_d, double scales_h, double scales_w
#define CT__UP_S3_V {scales_d, scales_h, scales_w}
#define CT__UP_AC_P , bool align_corners
#define CT__UP_AC_V align_corners
#define CT__UP_NOAC_P
#define CT__UP_NOAC_V false
#define CT__UP_META(TAG, NSP, AC, S, U8)                                                                                         \
  static ct_status ct__meta_up_##TAG(ct__structured *st, ct_tensor *self, ct_int_list output_size AC##_P S##_P) {               \
    const double sc[3] = S##_V;                                                                                                 \
    (void)sc;                                                                                                                   \
    (void)(AC##_V);                                                                                                             \
    return ct__up_meta(st, NSP, U8, self, output_size, NULL);                                                                   \
  }                                                                                                                             \
  static ct_status ct__meta_up_##TAG##_backward(ct__structured *st, ct_tensor *grad_output, ct_int_list output_size,            \
                                                ct_int_list input_size AC##_P S##_P) {                                          \
    const double sc[3] = S##_V;                                                                                                 \
    (void)sc;                                                                                                                   \
    (void)(AC##_V);                                                                                                             \
    return ct__up_meta(st, NSP, false, grad_output, output_size, &input_size);                                                  \
  }
CT__UP_META(nearest1d, 1, CT__UP_NOAC, CT__UP_S1, true)
CT__UP_META(nearest2d, 2, CT__UP_NOAC, CT__UP_S2, true)
CT__UP_META(nearest3d, 3, CT__UP_NOAC, CT__UP_S3, true)
CT__UP_META(linear1d, 1, CT__UP_AC, CT__UP_S1, false)
CT__UP_META(linear2d, 2, CT__UP_AC, CT__UP_S2, false)
CT__UP_META(linear3d, 3, CT__UP_AC, CT__UP_S3, false)
#define CT__UP_IMPLS(NAME, OP, MODE, NSP, AC, S)                                                                                 \
  static ct_status ct__impl_##NAME(ct_tensor *self, ct_int_list output_size AC##_P S##_P, ct_tensor *out) {                     \
    const double sc[3] = S##_V;                                                                                                 \
    return ct__up_impl(OP, MODE, NSP, self, output_size, NULL, AC##_V, sc, out);                                               \
  }                                                                                                                             \
  static ct_status ct__impl_##NAME##_backward(ct_tensor *grad_output, ct_int_list output_size, ct_int_list input_size AC##_P S##_P, \
                                              ct_tensor *grad_input) {                                                          \
    const double sc[3] = S##_V;                                                                                                 \
    return ct__up_impl(OP "_backward", MODE, NSP, grad_output, output_size, &input_size, AC##_V, sc, grad_input);              \
  }
CT__UP_IMPLS(upsample_nearest1d, "upsample_nearest1d", CT__UP_NEAREST, 1, CT__UP_NOAC, CT__UP_S1)
CT__UP_IMPLS(upsample_nearest2d, "upsample_nearest2d", CT__UP_NEAREST, 2, CT__UP_NOAC, CT__UP_S2)
CT__UP_IMPLS(upsample_nearest3d, "upsample_nearest3d", CT__UP_NEAREST, 3, CT__UP_NOAC, CT__UP_S3)
CT__UP_IMPLS(upsample_nearest_exact1d, "_upsample_nearest_exact1d", CT__UP_NEAREST_EXACT, 1, CT__UP_NOAC, CT__UP_S1)
CT__UP_IMPLS(upsample_nearest_exact2d, "_upsample_nearest_exact2d", CT__UP_NEAREST_EXACT, 2, CT__UP_NOAC, CT__UP_S2)
CT__UP_IMPLS(upsample_nearest_exact3d, "_upsample_nearest_exact3d", CT__UP_NEAREST_EXACT, 3, CT__UP_NOAC, CT__UP_S3)
CT__UP_IMPLS(upsample_linear1d, "upsample_linear1d", CT__UP_LINEAR, 1, CT__UP_AC, CT__UP_S1)
CT__UP_IMPLS(upsample_bilinear2d, "upsample_bilinear2d", CT__UP_LINEAR, 2, CT__UP_AC, CT__UP_S2)
CT__UP_IMPLS(upsample_trilinear3d, "upsample_trilinear3d", CT__UP_LINEAR, 3, CT__UP_AC, CT__UP_S3)
CT__UP_IMPLS(upsample_bicubic2d, "upsample_bicubic2d", CT__UP_CUBIC, 2, CT__UP_AC, CT__UP_S2)

/* ---- the .vec overloads (F.interpolate's): CompositeImplicitAutograd ----
 * PyTorch's upsample::compute_output_size: exactly one of output_size and
 * scale_factors; a scale factor gives size floor(in * factor) and is passed
 * on as the op's scale (so the source index uses 1/factor, not in/out). */
static ct_status ct__up_vec_sizes(const char *op, int nsp, int rank, const int64_t *in_sizes, ct_int_list output_size,
                                  ct_float_list scale_factors, int64_t out[3], double sc[3]) {
  int d;
  if (rank != nsp + 2) return ct_fail(CT_ERR_RANK, op, "It is expected input_size equals to %d, but got size %d", nsp + 2, rank);
  if ((output_size.n >= 0) == (scale_factors.n >= 0))
    return ct_fail(CT_ERR_INVALID, op, "Must specify exactly one of output_size and scale_factors");
  if ((output_size.n >= 0 ? output_size.n : scale_factors.n) != nsp)
    return ct_fail(CT_ERR_INVALID, op, "expected %s of %d values, got %lld", output_size.n >= 0 ? "output_size" : "scale_factors", nsp,
                   (long long)(output_size.n >= 0 ? output_size.n : scale_factors.n));
  for (d = 0; d < nsp; d++) {
    if (output_size.n >= 0) {
      out[d] = output_size.data[d], sc[d] = (double)NAN;
    } else {
      double v = (double)in_sizes[2 + d] * scale_factors.data[d];
      out[d] = v >= 0 && v < 9.2e18 ? (int64_t)v : -1; /* (a NaN or negative size: the op's size check fails) */
      sc[d] = scale_factors.data[d];
    }
  }
  return CT_OK;
}
#define CT__UP_S1_C sc[0]
#define CT__UP_S2_C sc[0], sc[1]
#define CT__UP_S3_C sc[0], sc[1], sc[2]
#define CT__UP_AC_C align_corners,
#define CT__UP_NOAC_C
#define CT__UP_VEC_OPS(NAME, OP, NSP, AC, S)                                                                                      \
  static ct_tensor *ct__k_##NAME##_vec(ct_keyset ks, ct_tensor *input, ct_int_list output_size AC##_P,                           \
                                       ct_float_list scale_factors) {                                                            \
    int64_t os[3];                                                                                                              \
    double sc[3];                                                                                                               \
    (void)ks;                                                                                                                   \
    if (ct__up_vec_sizes(OP, NSP, input->ndim, input->sizes, output_size, scale_factors, os, sc) != CT_OK) return NULL;          \
    return ct_##NAME(input, NSP, os, AC##_C S##_C);                                                                             \
  }                                                                                                                             \
  static ct_status ct__k_##NAME##_vec_out(ct_keyset ks, ct_tensor *input, ct_int_list output_size AC##_P,                        \
                                          ct_float_list scale_factors, ct_tensor *out) {                                        \
    int64_t os[3];                                                                                                              \
    double sc[3];                                                                                                               \
    (void)ks;                                                                                                                   \
    if (ct__up_vec_sizes(OP, NSP, input->ndim, input->sizes, output_size, scale_factors, os, sc) != CT_OK) return ct_last_error(); \
    return ct_##NAME##_out(out, input, NSP, os, AC##_C S##_C);                                                                  \
  }                                                                                                                             \
  static ct_tensor *ct__k_##NAME##_backward_vec(ct_keyset ks, ct_tensor *grad_output, ct_int_list output_size,                  \
                                                ct_int_list input_size AC##_P, ct_float_list scale_factors) {                   \
    int64_t os[3];                                                                                                              \
    double sc[3];                                                                                                               \
    (void)ks;                                                                                                                   \
    if (ct__up_vec_sizes(OP "_backward", NSP, (int)input_size.n, input_size.data, output_size, scale_factors, os, sc) != CT_OK)  \
      return NULL;                                                                                                              \
    return ct_##NAME##_backward(grad_output, NSP, os, (int)input_size.n, input_size.data, AC##_C S##_C);                        \
  }                                                                                                                             \
  static ct_status ct__k_##NAME##_backward_vec_out(ct_keyset ks, ct_tensor *grad_output, ct_int_list output_size,               \
                                                   ct_int_list input_size AC##_P, ct_float_list scale_factors, ct_tensor *out) { \
    int64_t os[3];                                                                                                              \
    double sc[3];                                                                                                               \
    (void)ks;                                                                                                                   \
    if (ct__up_vec_sizes(OP "_backward", NSP, (int)input_size.n, input_size.data, output_size, scale_factors, os, sc) != CT_OK)  \
      return ct_last_error();                                                                                                   \
    return ct_##NAME##_backward_out(out, grad_output, NSP, os, (int)input_size.n, input_size.data, AC##_C S##_C);               \
  }
CT__UP_VEC_OPS(upsample_nearest1d, "upsample_nearest1d", 1, CT__UP_NOAC, CT__UP_S1)
CT__UP_VEC_OPS(upsample_nearest2d, "upsample_nearest2d", 2, CT__UP_NOAC, CT__UP_S2)
CT__UP_VEC_OPS(upsample_nearest3d, "upsample_nearest3d", 3, CT__UP_NOAC, CT__UP_S3)
CT__UP_VEC_OPS(upsample_nearest_exact1d, "_upsample_nearest_exact1d", 1, CT__UP_NOAC, CT__UP_S1)
CT__UP_VEC_OPS(upsample_nearest_exact2d, "_upsample_nearest_exact2d", 2, CT__UP_NOAC, CT__UP_S2)
CT__UP_VEC_OPS(upsample_nearest_exact3d, "_upsample_nearest_exact3d", 3, CT__UP_NOAC, CT__UP_S3)
CT__UP_VEC_OPS(upsample_linear1d, "upsample_linear1d", 1, CT__UP_AC, CT__UP_S1)
CT__UP_VEC_OPS(upsample_bilinear2d, "upsample_bilinear2d", 2, CT__UP_AC, CT__UP_S2)
CT__UP_VEC_OPS(upsample_trilinear3d, "upsample_trilinear3d", 3, CT__UP_AC, CT__UP_S3)
CT__UP_VEC_OPS(upsample_bicubic2d, "upsample_bicubic2d", 2, CT__UP_AC, CT__UP_S2)


/* ================= Tensor.unfold and pixel (un)shuffle ================= */
/* unfold: a view; dimension d of size L becomes (L - size) / step + 1 windows
 * (stride step * stride[d]) and a last dim of the window's size elements. A
 * 0-dim tensor counts as one element: its unfold is 1-D (size 0 or 1). */
static ct_status ct__unfold_geometry(const char *op, int ndim, const int64_t *in_sizes, int64_t dimension, int64_t size, int64_t step,
                                     int64_t *d, int64_t *windows) {
  int64_t len;
  if ((*d = ct__wrap_dim(op, dimension, ndim)) < 0) return ct_last_error();
  len = ndim == 0 ? 1 : in_sizes[*d];
  if (size < 0) return ct_fail(CT_ERR_INVALID, op, "size is %lld but must be >= 0", (long long)size);
  if (size > len)
    return ct_fail(CT_ERR_INVALID, op, "maximum size for tensor at dimension %lld is %lld but size is %lld", (long long)*d, (long long)len,
                   (long long)size);
  if (step <= 0) return ct_fail(CT_ERR_INVALID, op, "step is %lld but must be > 0", (long long)step);
  if (ndim + 1 > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "unfold of a %d-dim tensor exceeds %d dims", ndim, CT_MAX_DIMS);
  *windows = (len - size) / step + 1;
  return CT_OK;
}
static ct_tensor *ct__k_unfold(ct_keyset ks, ct_tensor *self, int64_t dimension, int64_t size, int64_t step) {
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], d, n;
  int i, nd = self->ndim;
  (void)ks;
  if (ct__unfold_geometry("unfold", nd, self->sizes, dimension, size, step, &d, &n) != CT_OK) return NULL;
  if (nd == 0) {
    sizes[0] = size, strides[0] = 1;
    return ct__as_view(self, ct__make_view(self, 1, sizes, strides, self->offset));
  }
  for (i = 0; i < nd; i++) sizes[i] = self->sizes[i], strides[i] = self->strides[i];
  sizes[d] = n, sizes[nd] = size, strides[nd] = self->strides[d];
  if (ct__mul_ovf(step, self->strides[d], &strides[d])) strides[d] = self->strides[d] < 0 ? INT64_MIN : INT64_MAX; /* (one window: unused) */
  return ct__as_view(self, ct__make_view(self, nd + 1, sizes, strides, self->offset));
}
/* unfold_backward: zeros of input_sizes with each window of grad_in added back (windows overlap when step < size) */
#define CT__UNFOLD_BW(NAME, T, U)                                                                                       \
  static void NAME(const T *g, T *x, int64_t outer, int64_t len, int64_t inner, int64_t n, int64_t size, int64_t step) { \
    int64_t o, w, i, j;                                                                                                  \
    for (o = 0; o < outer; o++, x += len * inner)                                                                        \
      for (w = 0; w < n; w++)                                                                                            \
        for (i = 0; i < inner; i++)                                                                                      \
          for (j = 0; j < size; j++, g++) {                                                                              \
            T *p = x + (w * step + j) * inner + i;                                                                       \
            *p = (T)(U)((U)*p + (U)*g);                                                                                  \
          }                                                                                                              \
  }
CT__UNFOLD_BW(ct__unfold_bw_f32, float, float)
CT__UNFOLD_BW(ct__unfold_bw_f64, double, double)
CT__UNFOLD_BW(ct__unfold_bw_i64, int64_t, uint64_t)
/* unfold_backward (and .out): structured. The checks, and the geometry:
 * *n windows of dim *d; outer / len / inner around it. */
static ct_status ct__unfold_bw_check(const char *op, ct_tensor *grad_in, ct_int_list input_sizes, int64_t dim, int64_t size, int64_t step,
                                     int64_t *d, int64_t *n) {
  int64_t expect[CT_MAX_DIMS];
  int i, nd = (int)input_sizes.n;
  char b1[160], b2[160];
  if (nd < 0 || nd >= CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "input_sizes of %d dims", nd);
  for (i = 0; i < nd; i++)
    if (input_sizes.data[i] < 0) return ct_fail(CT_ERR_SIZE, op, "negative size %lld in input_sizes", (long long)input_sizes.data[i]);
  if (ct__unfold_geometry(op, nd, input_sizes.data, dim, size, step, d, n) != CT_OK) return ct_last_error();
  if (nd == 0) *n = 1; /* (a 0-dim input's unfold has one window, and no dim for it) */
  /* PyTorch reads grad_in as unfold(input_sizes) without checking it: here it must have that shape */
  for (i = 0; i < nd; i++) expect[i] = i == *d ? *n : input_sizes.data[i];
  expect[nd > 0 ? nd : 0] = size;
  if (grad_in->ndim != (nd > 0 ? nd + 1 : 1) || memcmp(grad_in->sizes, expect, sizeof(int64_t) * (size_t)grad_in->ndim) != 0)
    return ct_fail(CT_ERR_SHAPE, op, "expected grad_in of the unfolded shape %s, got %s",
                   ct_shape_format(nd > 0 ? nd + 1 : 1, expect, b1, sizeof b1), ct_shape_format(grad_in->ndim, grad_in->sizes, b2, sizeof b2));
  if (!ct_dtype_is_floating((ct_dtype)grad_in->dtype) && grad_in->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)grad_in->dtype));
  return CT_OK;
}
static ct_status ct__meta_unfold_backward(ct__structured *st, ct_tensor *grad_in, ct_int_list input_sizes, int64_t dim, int64_t size,
                                          int64_t step) {
  int64_t d, n;
  if (ct__unfold_bw_check(st->op, grad_in, input_sizes, dim, size, step, &d, &n) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, (int)input_sizes.n, input_sizes.data, (ct_dtype)grad_in->dtype, grad_in->device);
}
static ct_status ct__impl_unfold_backward(ct_tensor *grad_in, ct_int_list input_sizes, int64_t dim, int64_t size, int64_t step, ct_tensor *out) {
  static const char *op = "unfold_backward";
  int64_t d, n, outer = 1, inner = 1, len = 1;
  int i, nd = (int)input_sizes.n;
  ct_tensor *acc, *g;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__unfold_bw_check(op, grad_in, input_sizes, dim, size, step, &d, &n) != CT_OK ||
      ct__st_check_out(op, out, nd, input_sizes.data) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  for (i = 0; i < nd; i++) {
    if (i < d) outer *= input_sizes.data[i];
    else if (i > d) inner *= input_sizes.data[i];
  }
  if (nd > 0) len = input_sizes.data[d];
  g = ct__pool_operand(op, grad_in);
  if (!g || ct__k_fill_(0, acc, ct_int(0)) != CT_OK) st = ct_last_error();
  else if (acc->dtype == CT_F32) ct__unfold_bw_f32((const float *)ct_data_ptr(g), (float *)ct_data_ptr(acc), outer, len, inner, n, size, step);
  else if (acc->dtype == CT_F64) ct__unfold_bw_f64((const double *)ct_data_ptr(g), (double *)ct_data_ptr(acc), outer, len, inner, n, size, step);
  else ct__unfold_bw_i64((const int64_t *)ct_data_ptr(g), (int64_t *)ct_data_ptr(acc), outer, len, inner, n, size, step);
  ct_release(g);
  return ct__st_acc_done(st, out, acc);
}

/* pixel_shuffle (..., C*r*r, H, W) -> (..., C, H*r, W*r) and pixel_unshuffle
 * (its inverse): a reshape to nd + 2 dims (split), a permute (perm) and a
 * reshape to nd dims (merged). The checks and those three. */
static ct_status ct__pixel_geometry(const char *op, const ct_tensor *self, int64_t r, bool shuffle, int64_t *split, int64_t *perm,
                                    int64_t *merged) {
  int i, nd = self->ndim, lead = nd - 3;
  if (nd < 3) return ct_fail(CT_ERR_RANK, op, "%s expects input to have at least 3 dimensions, but got input with %d dimension(s)", op, nd);
  if (r <= 0) return ct_fail(CT_ERR_INVALID, op, "%s expects a positive %s, but got %lld", op, shuffle ? "upscale_factor" : "downscale_factor",
                             (long long)r);
  if (nd + 2 > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "%s of a %d-dim tensor exceeds %d dims", op, nd, CT_MAX_DIMS);
  for (i = 0; i < lead; i++) split[i] = merged[i] = self->sizes[i], perm[i] = i;
  if (shuffle) {
    int64_t c2, C = self->sizes[lead], H = self->sizes[lead + 1], W = self->sizes[lead + 2];
    if (ct__mul_ovf(r, r, &c2) || C % c2 != 0)
      return ct_fail(CT_ERR_SHAPE, op, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor, "
                     "but input.size(-3)=%lld is not divisible by %lld", (long long)C, (long long)(ct__mul_ovf(r, r, &c2) ? INT64_MAX : c2));
    /* (C/r^2, r, r, H, W) -> (C/r^2, H, r, W, r); H*r, W*r fit: they are counts of the same elements */
    split[lead] = C / c2, split[lead + 1] = r, split[lead + 2] = r, split[lead + 3] = H, split[lead + 4] = W;
    perm[lead] = lead, perm[lead + 1] = lead + 3, perm[lead + 2] = lead + 1, perm[lead + 3] = lead + 4, perm[lead + 4] = lead + 2;
    merged[lead] = C / c2, merged[lead + 1] = H * r, merged[lead + 2] = W * r;
  } else {
    int64_t C = self->sizes[lead], H = self->sizes[lead + 1], W = self->sizes[lead + 2];
    if (H % r != 0 || W % r != 0)
      return ct_fail(CT_ERR_SHAPE, op, "pixel_unshuffle expects %s to be divisible by downscale_factor, but input.size(%d)=%lld is not divisible by %lld",
                     (H % r) ? "height" : "width", (H % r) ? -2 : -1, (long long)((H % r) ? H : W), (long long)r);
    /* (C, H/r, r, W/r, r) -> (C, r, r, H/r, W/r) */
    split[lead] = C, split[lead + 1] = H / r, split[lead + 2] = r, split[lead + 3] = W / r, split[lead + 4] = r;
    perm[lead] = lead, perm[lead + 1] = lead + 2, perm[lead + 2] = lead + 4, perm[lead + 3] = lead + 1, perm[lead + 4] = lead + 3;
    if (ct__mul_ovf(C, r * r, &merged[lead])) return ct_fail(CT_ERR_SIZE, op, "channels %lld times downscale_factor^2 overflows int64", (long long)C);
    merged[lead + 1] = H / r, merged[lead + 2] = W / r;
  }
  return CT_OK;
}
/* The functional ops (CompositeImplicitAutograd): the result is new memory, as PyTorch's, even when r = 1. */
static ct_tensor *ct__pixel_shuffle(const char *op, ct_tensor *self, int64_t r, bool shuffle) {
  int64_t split[CT_MAX_DIMS], perm[CT_MAX_DIMS], merged[CT_MAX_DIMS];
  int nd = self->ndim;
  ct_tensor *a, *b, *c;
  if (ct__pixel_geometry(op, self, r, shuffle, split, perm, merged) != CT_OK) return NULL;
  a = ct_reshape(self, nd + 2, split);
  b = a ? ct_permute(a, nd + 2, perm) : NULL;
  c = b ? ct_reshape(b, nd, merged) : NULL;
  ct_release(a), ct_release(b);
  if (c && c->storage == self->storage) { /* (r = 1: the reshapes were views) */
    ct_tensor *copy = ct_clone(c);
    ct_release(c);
    c = copy;
  }
  return c;
}
static ct_tensor *ct__k_pixel_shuffle(ct_keyset ks, ct_tensor *self, int64_t upscale_factor) {
  (void)ks;
  return ct__pixel_shuffle("pixel_shuffle", self, upscale_factor, true);
}
static ct_tensor *ct__k_pixel_unshuffle(ct_keyset ks, ct_tensor *self, int64_t downscale_factor) {
  (void)ks;
  return ct__pixel_shuffle("pixel_unshuffle", self, downscale_factor, false);
}
/* The out= forms: structured. The impl copies self's split-and-permuted view
 * into the contiguous out seen with the permuted split sizes. */
static ct_status ct__pixel_meta(ct__structured *st, ct_tensor *self, int64_t r, bool shuffle) {
  int64_t split[CT_MAX_DIMS], perm[CT_MAX_DIMS], merged[CT_MAX_DIMS];
  if (ct__pixel_geometry(st->op, self, r, shuffle, split, perm, merged) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, self->ndim, merged, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__pixel_run(const char *op, ct_tensor *self, int64_t r, bool shuffle, ct_tensor *out) {
  int64_t split[CT_MAX_DIMS], perm[CT_MAX_DIMS], merged[CT_MAX_DIMS], psizes[CT_MAX_DIMS], pstrides[CT_MAX_DIMS];
  int i, nd = self->ndim;
  ct_tensor *a, *b, *o;
  ct_status st;
  if (out->numel == 0) return CT_OK;
  if (ct__pixel_geometry(op, self, r, shuffle, split, perm, merged) != CT_OK || ct__st_check_out(op, out, nd, merged) != CT_OK)
    return ct_last_error();
  for (i = nd + 1; i >= 0; i--) psizes[i] = split[perm[i]], pstrides[i] = i == nd + 1 ? 1 : pstrides[i + 1] * psizes[i + 1];
  a = ct_reshape(self, nd + 2, split);
  b = a ? ct_permute(a, nd + 2, perm) : NULL;
  o = b ? ct__make_view(out, nd + 2, psizes, pstrides, out->offset) : NULL;
  st = o ? ct__copy_impl(o, b) : ct_last_error();
  ct_release(a), ct_release(b), ct_release(o);
  return st;
}
static ct_status ct__meta_pixel_shuffle(ct__structured *st, ct_tensor *self, int64_t upscale_factor) {
  return ct__pixel_meta(st, self, upscale_factor, true);
}
static ct_status ct__impl_pixel_shuffle(ct_tensor *self, int64_t upscale_factor, ct_tensor *out) {
  return ct__pixel_run("pixel_shuffle", self, upscale_factor, true, out);
}
static ct_status ct__meta_pixel_unshuffle(ct__structured *st, ct_tensor *self, int64_t downscale_factor) {
  return ct__pixel_meta(st, self, downscale_factor, false);
}
static ct_status ct__impl_pixel_unshuffle(ct_tensor *self, int64_t downscale_factor, ct_tensor *out) {
  return ct__pixel_run("pixel_unshuffle", self, downscale_factor, false, out);
}

/* ---- im2col / col2im as ops (torch.nn.functional.unfold / fold) ----
 * im2col: (N, C, H, W) -> (N, C*kh*kw, L), one column per sliding block;
 * col2im sums the columns back (its adjoint). Unbatched inputs drop N. */
static ct_status ct__unfold_setup(const char *op, int64_t H, int64_t W, ct_int_list kernel_size, ct_int_list dilation,
                                  ct_int_list padding, ct_int_list stride, ct__conv_geom *g) {
  const ct_int_list *l[4];
  const char *names[4] = {"kernel_size", "dilation", "padding", "stride"};
  int i;
  l[0] = &kernel_size, l[1] = &dilation, l[2] = &padding, l[3] = &stride;
  for (i = 0; i < 4; i++)
    if (l[i]->n != 2) return ct_fail(CT_ERR_INVALID, op, "It is expected %s equals to 2, but got size %lld", names[i], (long long)l[i]->n);
  memset(g, 0, sizeof *g);
  g->nsp = 2, g->groups = 1;
  g->kh = kernel_size.data[0], g->kw = kernel_size.data[1], g->dh = dilation.data[0], g->dw = dilation.data[1];
  g->ph = padding.data[0], g->pw = padding.data[1], g->sh = stride.data[0], g->sw = stride.data[1];
  if (g->kh <= 0 || g->kw <= 0)
    return ct_fail(CT_ERR_INVALID, op, "kernel size should be greater than zero, but got kernel_height: %lld kernel_width: %lld",
                   (long long)g->kh, (long long)g->kw);
  if (g->dh <= 0 || g->dw <= 0)
    return ct_fail(CT_ERR_INVALID, op, "dilation should be greater than zero, but got dilation_height: %lld dilation_width: %lld",
                   (long long)g->dh, (long long)g->dw);
  if (g->ph < 0 || g->pw < 0)
    return ct_fail(CT_ERR_INVALID, op, "padding should be non-negative, but got pad_height: %lld pad_width: %lld", (long long)g->ph,
                   (long long)g->pw);
  if (g->sh <= 0 || g->sw <= 0)
    return ct_fail(CT_ERR_INVALID, op, "stride should be greater than zero, but got stride_height: %lld stride_width: %lld",
                   (long long)g->sh, (long long)g->sw);
  g->H = H, g->W = W;
  {
    int64_t padded, extent, span, L;
    if (!ct__conv_span(H, g->kh, g->ph, g->dh, &padded, &extent, &span)) return ct__conv_overflow(op, H, g->kh, g->sh, g->ph, g->dh);
    g->OH = ct__conv_out_len(span, g->sh);
    if (!ct__conv_span(W, g->kw, g->pw, g->dw, &padded, &extent, &span)) return ct__conv_overflow(op, W, g->kw, g->sw, g->pw, g->dw);
    g->OW = ct__conv_out_len(span, g->sw);
    if (ct__mul_ovf(g->OH, g->OW, &L))
      return ct_fail(CT_ERR_SIZE, op, "the number of sliding blocks %lld * %lld overflows int64", (long long)g->OH, (long long)g->OW);
  }
  if (g->OH < 1 || g->OW < 1)
    return ct_fail(CT_ERR_SHAPE, op, "Given %s spatial size (%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, %lld), "
                   "padding=(%lld, %lld), calculated shape of the array of sliding blocks as (%lld, %lld), but its components must be at least one.",
                   op[0] == 'i' ? "input with" : "output_size with", (long long)H, (long long)W, (long long)g->kh, (long long)g->kw,
                   (long long)g->dh, (long long)g->dw, (long long)g->ph, (long long)g->pw, (long long)g->OH, (long long)g->OW);
  return CT_OK;
}
/* the checks of im2col and its geometry and output shape (b: batched) */
static ct_status ct__im2col_check(const char *op, ct_tensor *self, ct_int_list kernel_size, ct_int_list dilation, ct_int_list padding,
                                  ct_int_list stride, ct__conv_geom *g, int64_t *shape) {
  int b = self->ndim == 4, i;
  for (i = b; i < self->ndim; i++)
    if (self->sizes[i] == 0) break;
  if ((self->ndim != 3 && self->ndim != 4) || i < self->ndim) {
    char buf[160];
    return ct_fail(CT_ERR_SHAPE, op, "Expected 3D or 4D (batch mode) tensor for input with possible 0 batch size and non-zero "
                   "dimensions for input, but got: %s", ct_shape_format(self->ndim, self->sizes, buf, sizeof buf));
  }
  if (ct__pool_dtype("im2col_out_cpu", (ct_dtype)self->dtype, 0) != CT_OK ||
      ct__unfold_setup(op, self->sizes[b + 1], self->sizes[b + 2], kernel_size, dilation, padding, stride, g) != CT_OK)
    return ct_last_error();
  g->N = b ? self->sizes[0] : 1, g->C = g->Cg = self->sizes[b], g->O = g->Og = 1;
  if (ct__conv_k(op, g) != CT_OK) return ct_last_error();
  if (b) shape[0] = g->N;
  shape[b] = g->K, shape[b + 1] = g->OH * g->OW; /* (checked by ct__unfold_setup) */
  return CT_OK;
}
static ct_status ct__meta_im2col(ct__structured *st, ct_tensor *self, ct_int_list kernel_size, ct_int_list dilation, ct_int_list padding,
                                 ct_int_list stride) {
  ct__conv_geom g;
  int64_t shape[3];
  if (ct__im2col_check(st->op, self, kernel_size, dilation, padding, stride, &g, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, self->ndim - 1, shape, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_im2col(ct_tensor *self, ct_int_list kernel_size, ct_int_list dilation, ct_int_list padding, ct_int_list stride,
                                 ct_tensor *out) {
  static const char *op = "im2col";
  ct__conv_geom g;
  int64_t shape[3], n;
  int b = self->ndim == 4;
  ct_tensor *acc, *x;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__im2col_check(op, self, kernel_size, dilation, padding, stride, &g, shape) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  if (b) {
    x = ct__conv_4d(op, self, (ct_dtype)acc->dtype);
  } else { /* (C, H, W) as (1, C, H, W) */
    int64_t sz[4], sd[4];
    ct_tensor *c = self->dtype == acc->dtype ? ct_retain(self) : ct__copy_as(op, self, (ct_dtype)acc->dtype);
    sz[0] = 1, sz[1] = self->sizes[0], sz[2] = self->sizes[1], sz[3] = self->sizes[2];
    sd[0] = 0, sd[1] = c ? c->strides[0] : 0, sd[2] = c ? c->strides[1] : 0, sd[3] = c ? c->strides[2] : 0;
    x = c ? ct__make_view(c, 4, sz, sd, c->offset) : NULL;
    ct_release(c);
  }
  if (!x) st = ct_last_error();
  for (n = 0; x && n < g.N; n++) { /* sample n: a contiguous (C*k, L) block of acc */
    ct_tensor *blk = ct__view2(acc, shape[b], shape[b + 1], shape[b + 1], 1, n * shape[b] * shape[b + 1]);
    if (!blk) {
      st = ct_last_error();
      break;
    }
    ct__im2col(&g, x, n, 1, 0, blk);
    ct_release(blk);
  }
  ct_release(x);
  return ct__st_acc_done(st, out, acc);
}
/* the checks of col2im and its geometry and output shape (N, C, H, W) (b: batched) */
static ct_status ct__col2im_check(const char *op, ct_tensor *self, ct_int_list output_size, ct_int_list kernel_size, ct_int_list dilation,
                                  ct_int_list padding, ct_int_list stride, ct__conv_geom *g, int64_t *shape) {
  int64_t K;
  int b = self->ndim == 3, i;
  for (i = b; i < self->ndim; i++)
    if (self->sizes[i] == 0) break;
  if ((self->ndim != 2 && self->ndim != 3) || i < self->ndim) {
    char buf[160];
    return ct_fail(CT_ERR_SHAPE, op, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                   "dimensions for input, but got: %s", ct_shape_format(self->ndim, self->sizes, buf, sizeof buf));
  }
  if (output_size.n != 2)
    return ct_fail(CT_ERR_INVALID, op, "It is expected output_size equals to 2, but got size %lld", (long long)output_size.n);
  if (ct__pool_dtype("col2im_out_cpu", (ct_dtype)self->dtype, 0) != CT_OK ||
      ct__unfold_setup(op, output_size.data[0], output_size.data[1], kernel_size, dilation, padding, stride, g) != CT_OK)
    return ct_last_error();
  if (ct__mul_ovf(g->kh, g->kw, &K))
    return ct_fail(CT_ERR_SIZE, op, "kernel_size=(%lld, %lld): their product overflows int64", (long long)g->kh, (long long)g->kw);
  if (self->sizes[b] % K != 0)
    return ct_fail(CT_ERR_SHAPE, op, "Expected size of input's dimension %d to be divisible by the product of kernel_size, but got "
                   "input.size(%d)=%lld and kernel_size=(%lld, %lld).", b, b, (long long)self->sizes[b], (long long)g->kh, (long long)g->kw);
  if (self->sizes[b + 1] != g->OH * g->OW)
    return ct_fail(CT_ERR_SHAPE, op, "Given output_size=(%lld, %lld), kernel_size=(%lld, %lld), dilation=(%lld, %lld), padding=(%lld, %lld), "
                   "stride=(%lld, %lld), expected size of input's dimension %d to match the calculated number of sliding blocks %lld * %lld = "
                   "%lld, but got input.size(%d)=%lld.", (long long)g->H, (long long)g->W, (long long)g->kh, (long long)g->kw, (long long)g->dh,
                   (long long)g->dw, (long long)g->ph, (long long)g->pw, (long long)g->sh, (long long)g->sw, b + 1, (long long)g->OH,
                   (long long)g->OW, (long long)g->OH * (long long)g->OW, b + 1, (long long)self->sizes[b + 1]);
  g->N = b ? self->sizes[0] : 1, g->C = g->Cg = self->sizes[b] / K, g->O = g->Og = 1, g->K = self->sizes[b];
  shape[0] = g->N, shape[1] = g->C, shape[2] = g->H, shape[3] = g->W;
  return CT_OK;
}
static ct_status ct__meta_col2im(ct__structured *st, ct_tensor *self, ct_int_list output_size, ct_int_list kernel_size, ct_int_list dilation,
                                 ct_int_list padding, ct_int_list stride) {
  ct__conv_geom g;
  int64_t shape[4];
  int b = self->ndim == 3;
  if (ct__col2im_check(st->op, self, output_size, kernel_size, dilation, padding, stride, &g, shape) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, b + 3, shape + (1 - b), (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_col2im(ct_tensor *self, ct_int_list output_size, ct_int_list kernel_size, ct_int_list dilation,
                                 ct_int_list padding, ct_int_list stride, ct_tensor *out) {
  static const char *op = "col2im";
  ct__conv_geom g;
  int64_t shape[4], n, sd[4], K;
  int b = self->ndim == 3;
  ct_tensor *acc, *x, *a4 = NULL;
  ct_status st = CT_OK;
  if (out->numel == 0) return CT_OK;
  if (ct__col2im_check(op, self, output_size, kernel_size, dilation, padding, stride, &g, shape) != CT_OK || !(acc = ct__st_acc(op, out)))
    return ct_last_error();
  K = g.kh * g.kw; /* (checked) */
  x = self->dtype == acc->dtype ? ct_retain(self) : ct__copy_as(op, self, (ct_dtype)acc->dtype);
  if (x) { /* acc (contiguous, batched or not) as (N, C, H, W) */
    sd[3] = 1, sd[2] = g.W, sd[1] = g.H * g.W, sd[0] = g.C * g.H * g.W;
    a4 = ct__make_view(acc, 4, shape, sd, 0);
  }
  if (!a4 || (st = ct__k_fill_(0, a4, ct_int(0))) != CT_OK) st = ct_last_error();
  for (n = 0; st == CT_OK && n < g.N; n++) {
    ct_tensor *blk = ct__view2(x, g.C * K, g.OH * g.OW, x->strides[b], x->strides[b + 1], x->offset + (b ? n * x->strides[0] : 0));
    if (!blk) {
      st = ct_last_error();
      break;
    }
    ct__col2im(&g, blk, n, 1, 0, a4);
    ct_release(blk);
  }
  ct_release(x), ct_release(a4);
  return ct__st_acc_done(st, out, acc);
}
/* derivatives: each is the other's adjoint */
static ct_tensor *ct__im2col_backward(ct_tensor *grad, const ct__shape *self_sizes, ct_int_list kernel_size, ct_int_list dilation,
                                      ct_int_list padding, ct_int_list stride) {
  return ct_col2im(grad, 2, self_sizes->sizes + self_sizes->ndim - 2, CT__CONV_LIST(kernel_size), CT__CONV_LIST(dilation),
                   CT__CONV_LIST(padding), CT__CONV_LIST(stride));
}

/* ---- affine_grid_generator and grid_sampler_2d (CompositeImplicitAutograd) ----
 * affine_grid: the base grid of normalised pixel centres ([-1, 1], or the centres of cells that
 * tile it when align_corners is false), one (x, y[, z], 1) row per output position, times theta^T.
 * grid_sample: each output position's source coordinate unnormalised, padded (border clamps,
 * reflection mirrors), then interpolated from the corners that fall inside the input (zeros
 * elsewhere): bilinear and nearest as gathers from the flattened planes, so the gradients of input
 * (through gather) and of grid (through the weights) come from those ops, as PyTorch's kernels. */
static ct_tensor *ct__grid_base(ct_tensor *theta, int64_t steps, bool align_corners) {
  ct_tensor *l;
  if (steps <= 1) return ct_new_zeros(theta, 1, &steps);
  l = ct_linspace_ex(ct_float(-1.0), ct_float(1.0), steps, (ct_dtype)theta->dtype, theta->device);
  return l && !align_corners ? ct_mul_scalar(l, ct_float((double)(steps - 1) / (double)steps)) : l;
}
static ct_tensor *ct__k_affine_grid_generator(ct_keyset ks, ct_tensor *theta, ct_int_list size, bool align_corners) {
  static const char *op = "affine_grid_generator";
  int64_t n, sp, i, k, npos = 1;
  ct_tensor *r = NULL;
  (void)ks;
  if (size.n != 4 && size.n != 5)
    return ct_fail(CT_ERR_INVALID, op, "AffineGridGenerator needs 4d (spatial) or 5d (volumetric) inputs."), (ct_tensor *)NULL;
  sp = size.n - 2;
  n = size.data[0];
  if (!ct_dtype_is_floating((ct_dtype)theta->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "Expected theta to have floating point type, but got %s", ct__dtype_torch_name((ct_dtype)theta->dtype)),
           (ct_tensor *)NULL;
  if (theta->ndim != 3 || theta->sizes[0] != n || theta->sizes[1] != sp || theta->sizes[2] != sp + 1)
    return ct_fail(CT_ERR_SHAPE, op, "Expected a batch of %lldD affine matrices of shape Nx%lldx%lld for size of %lld dims; got theta of "
                   "%d dims", (long long)sp, (long long)sp, (long long)sp + 1, (long long)size.n, theta->ndim),
           (ct_tensor *)NULL;
  for (i = 2; i < size.n; i++) {
    if (size.data[i] < 0) return ct_fail(CT_ERR_SIZE, op, "negative size %lld", (long long)size.data[i]), (ct_tensor *)NULL;
    npos = ct__mul_sat(npos, size.data[i]);
  }
  CT_SCOPE {
    /* the base grid (spatial..., sp + 1): component 0 varies along the last dim (x), then y, z */
    ct_tensor *cols[4], *base;
    int64_t bshape[CT_MAX_DIMS], fl[3], o[CT_MAX_DIMS];
    for (i = 0; i < sp; i++) bshape[i] = size.data[2 + i];
    for (k = 0; k < sp; k++) { /* coordinate k (x = 0) runs along spatial dim sp - 1 - k */
      int64_t vs[CT_MAX_DIMS], d = sp - 1 - k;
      ct_tensor *l = ct__grid_base(theta, size.data[2 + d], align_corners);
      for (i = 0; i < sp; i++) vs[i] = i == d ? size.data[2 + d] : 1;
      cols[k] = l ? ct_expand(ct_view(l, (int)sp, vs), (int)sp, bshape) : NULL;
    }
    cols[sp] = ct_new_ones(theta, (int)sp, bshape);
    base = cols[sp] ? ct_stack_tensors((int)sp + 1, cols, (int64_t)sp) : NULL;
    fl[0] = 1, fl[1] = npos, fl[2] = sp + 1;
    if (base) base = ct_reshape(base, 3, fl);
    o[0] = n;
    for (i = 0; i < sp; i++) o[1 + i] = size.data[2 + i];
    o[1 + sp] = sp;
    r = ct_keep(base ? ct_reshape(ct_matmul(base, ct_transpose(theta, 1, 2)), (int)sp + 2, o) : NULL);
  }
  return r;
}
/* PyTorch's reflect_coordinates: fold c into [twice_low / 2, twice_high / 2] by mirroring */
static ct_tensor *ct__grid_reflect(ct_tensor *c, double twice_low, double twice_high) {
  double lo = twice_low / 2, span = (twice_high - twice_low) / 2;
  ct_tensor *in, *extra, *flips, *even;
  if (span <= 0) return ct_zeros_like(c);
  in = ct_abs(ct_sub_scalar(c, ct_float(lo)));
  extra = ct_fmod_scalar(in, ct_float(span));
  flips = ct_floor(ct_div_scalar(in, ct_float(span)));
  even = ct_eq_scalar(ct_remainder_scalar(flips, ct_int(2)), ct_int(0));
  return ct_where(even, ct_add_scalar(extra, ct_float(lo)), ct_add_scalar(ct_neg(extra), ct_float(span + lo)));
}
/* c - t */
static ct_tensor *ct__grid_from(ct_tensor *t, int64_t c) { return ct_add_scalar(ct_neg(t), ct_int(c)); }
/* padding applied to a coordinate already in pixels (PyTorch's compute_coordinates) */
static ct_tensor *ct__grid_pad_tap(ct_tensor *x, int64_t size, int64_t padding_mode, bool align_corners) {
  if (!x || padding_mode == 0) return x;
  if (padding_mode == 2) x = align_corners ? ct__grid_reflect(x, 0, 2.0 * (double)(size - 1)) : ct__grid_reflect(x, -1, 2.0 * (double)size - 1);
  return x ? ct_clamp(x, ct_int(0), ct_int(size - 1)) : NULL;
}
/* the source coordinate along a dim of `size` for normalised c, with padding applied */
static ct_tensor *ct__grid_coord(ct_tensor *c, int64_t size, int64_t padding_mode, bool align_corners) {
  ct_tensor *x = align_corners ? ct_mul_scalar(ct_add_scalar(c, ct_int(1)), ct_float((double)(size - 1) / 2))
                               : ct_div_scalar(ct_sub_scalar(ct_mul_scalar(ct_add_scalar(c, ct_int(1)), ct_int(size)), ct_int(1)), ct_int(2));
  return ct__grid_pad_tap(x, size, padding_mode, align_corners);
}
/* w * input at integer source positions (xi, yi) (N, Ho, Wo), 0 where they fall outside (N, C, Ho, Wo) */
static ct_tensor *ct__grid_tap(ct_tensor *flat, int64_t H, int64_t W, ct_tensor *xi, ct_tensor *yi, ct_tensor *w) {
  ct_tensor *inside, *idx, *v;
  int64_t N = flat->sizes[0], C = flat->sizes[1], L = xi->numel / (N ? N : 1), ish[3], osh[4];
  inside = ct_logical_and(ct_logical_and(ct_ge_scalar(xi, ct_int(0)), ct_lt_scalar(xi, ct_int(W))),
                          ct_logical_and(ct_ge_scalar(yi, ct_int(0)), ct_lt_scalar(yi, ct_int(H))));
  /* (positions outside, NaN included, read element 0 and weigh 0: PyTorch skips them) */
  idx = inside ? ct_add(ct_mul_scalar(ct_where(inside, yi, ct_zeros_like(yi)), ct_int(W)), ct_where(inside, xi, ct_zeros_like(xi))) : NULL;
  ish[0] = N, ish[1] = 1, ish[2] = L;
  idx = ct_to_dtype(ct_reshape(idx, 3, ish), CT_I64);
  ish[1] = C;
  v = idx ? ct_gather(flat, 2, ct_expand(idx, 3, ish)) : NULL;
  osh[0] = N, osh[1] = C, osh[2] = xi->ndim > 1 ? xi->sizes[1] : 1, osh[3] = xi->ndim > 2 ? xi->sizes[2] : 1;
  if (!v || !inside) return NULL;
  /* a weight computed from a NaN or infinite coordinate stays NaN (PyTorch's vectorised
   * bilinear and bicubic multiply it by 0); nearest's weight is 1 and outside reads nothing */
  w = ct_mul(w, ct_to_dtype(inside, (ct_dtype)w->dtype));
  return ct_mul(ct_reshape(v, 4, osh), ct_unsqueeze(w, 1));
}
/* grid_sample's checks for nsp spatial dims: input (N, C, spatial...) and grid (N, out..., nsp) */
static ct_status ct__grid_check(const char *op, const ct_tensor *input, const ct_tensor *grid, int nsp) {
  char b1[160], b2[160];
  int i;
  if (input->ndim != nsp + 2 || grid->ndim != nsp + 2 || grid->sizes[nsp + 1] != nsp || grid->sizes[0] != input->sizes[0])
    return ct_fail(CT_ERR_SHAPE, op, "grid_sampler(): expected %dD input and grid (N, spatial..., %d) with the same batch, but got input "
                   "%s and grid %s", nsp + 2, nsp, ct_shape_format(input->ndim, input->sizes, b1, sizeof b1),
                   ct_shape_format(grid->ndim, grid->sizes, b2, sizeof b2));
  if (input->dtype != grid->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "grid_sampler(): expected input and grid to have same dtype, but input has %s and grid has %s",
                   ct__dtype_torch_name((ct_dtype)input->dtype), ct__dtype_torch_name((ct_dtype)grid->dtype));
  if (input->dtype != CT_F32 && input->dtype != CT_F64)
    return ct_fail(CT_ERR_DTYPE, op, "\"%s_cpu\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)input->dtype));
  for (i = 2; i < input->ndim; i++)
    if (input->sizes[i] == 0)
      return ct_fail(CT_ERR_SHAPE, op, "grid_sampler(): expected input to have non-empty spatial dimensions, but input has sizes %s",
                     ct_shape_format(input->ndim, input->sizes, b1, sizeof b1));
  return CT_OK;
}
static ct_tensor *ct__k_grid_sampler_2d(ct_keyset ks, ct_tensor *input, ct_tensor *grid, int64_t interpolation_mode, int64_t padding_mode,
                                        bool align_corners) {
  static const char *op = "grid_sampler_2d";
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__grid_check(op, input, grid, 2) != CT_OK) return NULL;
  if (interpolation_mode < 0 || interpolation_mode > 2 || padding_mode < 0 || padding_mode > 2)
    return ct_fail(CT_ERR_INVALID, op, "grid_sampler(): interpolation_mode must be 0 (bilinear), 1 (nearest) or 2 (bicubic) and "
                   "padding_mode 0 (zeros), 1 (border) or 2 (reflection)"),
           (ct_tensor *)NULL;
  CT_SCOPE {
    int64_t H = input->sizes[2], W = input->sizes[3], fsh[3], N = input->sizes[0], C = input->sizes[1];
    ct_tensor *flat, *o = NULL;
    fsh[0] = N, fsh[1] = C, fsh[2] = H * W;
    flat = ct_reshape(input, 3, fsh);
    if (interpolation_mode == 2) { /* bicubic: 4 x 4 taps around floor(x), each tap's coordinate padded on its own */
      ct_tensor *x = ct__grid_coord(ct_select(grid, 3, 0), W, 0, align_corners), *y = ct__grid_coord(ct_select(grid, 3, 1), H, 0, align_corners);
      ct_tensor *x0 = x ? ct_floor(x) : NULL, *y0 = y ? ct_floor(y) : NULL, *tx, *ty, *wx[4], *wy[4];
      int i, j;
      static const double A = -0.75;
      tx = x0 ? ct_sub(x, x0) : NULL, ty = y0 ? ct_sub(y, y0) : NULL;
      for (i = 0; tx && ty && i < 4; i++) { /* cubic convolution weights of the taps at distance 1 + t, t, 1 - t, 2 - t */
        ct_tensor *t[2];
        int k;
        t[0] = tx, t[1] = ty;
        for (k = 0; k < 2; k++) {
          ct_tensor *d = i == 0 ? ct_add_scalar(t[k], ct_int(1)) : i == 1 ? t[k] : i == 2 ? ct__grid_from(t[k], 1) : ct__grid_from(t[k], 2), *wv;
          if (i == 1 || i == 2) /* |d| <= 1: ((A + 2) d - (A + 3)) d^2 + 1 */
            wv = ct_add_scalar(ct_mul(ct_sub_scalar(ct_mul_scalar(d, ct_float(A + 2)), ct_float(A + 3)), ct_mul(d, d)), ct_int(1));
          else /* 1 < |d| < 2: ((A d - 5 A) d + 8 A) d - 4 A */
            wv = ct_sub_scalar(ct_mul(ct_add_scalar(ct_mul(ct_sub_scalar(ct_mul_scalar(d, ct_float(A)), ct_float(5 * A)), d), ct_float(8 * A)), d),
                               ct_float(4 * A));
          if (k == 0) wx[i] = wv;
          else wy[i] = wv;
        }
      }
      for (i = 0; tx && ty && i < 4; i++)
        for (j = 0; j < 4; j++) {
          ct_tensor *xi = ct__grid_pad_tap(ct_add_scalar(x0, ct_int(j - 1)), W, padding_mode, align_corners);
          ct_tensor *yi = ct__grid_pad_tap(ct_add_scalar(y0, ct_int(i - 1)), H, padding_mode, align_corners);
          ct_tensor *v = xi && yi ? ct__grid_tap(flat, H, W, xi, yi, ct_mul(wx[j], wy[i])) : NULL;
          o = v ? (o ? ct_add(o, v) : v) : NULL;
          if (!o) i = 4, j = 4;
        }
    } else {
      ct_tensor *x = ct__grid_coord(ct_select(grid, 3, 0), W, padding_mode, align_corners);
      ct_tensor *y = ct__grid_coord(ct_select(grid, 3, 1), H, padding_mode, align_corners);
      if (x && y && interpolation_mode == 1) { /* nearest: round half to even, as nearbyint */
        ct_tensor *xi = ct_round(ct_detach(x)), *yi = ct_round(ct_detach(y));
        /* the weight 1, tied to grid with a zero gradient (PyTorch's grid gradient is zeros) */
        ct_tensor *one = ct_clamp(ct_add_scalar(ct_abs(x), ct_int(2)), ct_int(1), ct_int(1));
        if (one) one = ct_where(ct_isnan(x), ct_ones_like(x), one); /* (1, also for NaN x) */
        o = xi && yi && one ? ct__grid_tap(flat, H, W, xi, yi, one) : NULL;
      } else if (x && y) {
        ct_tensor *x0 = ct_floor(ct_detach(x)), *y0 = ct_floor(ct_detach(y)), *x1, *y1, *wx1, *wy1, *wx0, *wy0, *t[4];
        x1 = ct_add_scalar(x0, ct_int(1)), y1 = ct_add_scalar(y0, ct_int(1));
        wx1 = ct_sub(x, x0), wy1 = ct_sub(y, y0), wx0 = ct_sub(x1, x), wy0 = ct_sub(y1, y);
        t[0] = ct__grid_tap(flat, H, W, x0, y0, ct_mul(wx0, wy0));
        t[1] = ct__grid_tap(flat, H, W, x1, y0, ct_mul(wx1, wy0));
        t[2] = ct__grid_tap(flat, H, W, x0, y1, ct_mul(wx0, wy1));
        t[3] = ct__grid_tap(flat, H, W, x1, y1, ct_mul(wx1, wy1));
        o = t[0] && t[1] && t[2] && t[3] ? ct_add(ct_add(t[0], t[1]), ct_add(t[2], t[3])) : NULL;
      }
    }
    r = ct_keep(o);
  }
  return r;
}
/* grid_sampler_3d: the same over (N, C, D, H, W) at grid (N, Do, Ho, Wo, 3), trilinear or nearest:
 * the planes flattened to D * H * W, a tap's position z * H * W + y * W + x */
static ct_tensor *ct__grid_tap3(ct_tensor *flat, const int64_t dhw[3], ct_tensor *xi, ct_tensor *yi, ct_tensor *zi, ct_tensor *w) {
  ct_tensor *inside, *idx, *v, *c[3];
  int64_t N = flat->sizes[0], C = flat->sizes[1], L = xi->numel / (N ? N : 1), ish[3], osh[5];
  int k;
  c[0] = xi, c[1] = yi, c[2] = zi;
  inside = NULL;
  for (k = 0; k < 3; k++) {
    ct_tensor *in_k = ct_logical_and(ct_ge_scalar(c[k], ct_int(0)), ct_lt_scalar(c[k], ct_int(dhw[2 - k])));
    inside = inside ? ct_logical_and(inside, in_k) : in_k;
  }
  if (!inside) return NULL;
  idx = ct_add(ct_add(ct_mul_scalar(ct_where(inside, zi, ct_zeros_like(zi)), ct_int(dhw[1] * dhw[2])),
                      ct_mul_scalar(ct_where(inside, yi, ct_zeros_like(yi)), ct_int(dhw[2]))),
               ct_where(inside, xi, ct_zeros_like(xi)));
  ish[0] = N, ish[1] = 1, ish[2] = L;
  idx = ct_to_dtype(ct_reshape(idx, 3, ish), CT_I64);
  ish[1] = C;
  v = idx ? ct_gather(flat, 2, ct_expand(idx, 3, ish)) : NULL;
  osh[0] = N, osh[1] = C, osh[2] = xi->sizes[1], osh[3] = xi->sizes[2], osh[4] = xi->sizes[3];
  if (!v) return NULL;
  w = ct_mul(w, ct_to_dtype(inside, (ct_dtype)w->dtype));
  return ct_mul(ct_reshape(v, 5, osh), ct_unsqueeze(w, 1));
}
static ct_tensor *ct__k_grid_sampler_3d(ct_keyset ks, ct_tensor *input, ct_tensor *grid, int64_t interpolation_mode, int64_t padding_mode,
                                        bool align_corners) {
  static const char *op = "grid_sampler_3d";
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__grid_check(op, input, grid, 3) != CT_OK) return NULL;
  if (interpolation_mode == 2)
    return ct_fail(CT_ERR_INVALID, op, "grid_sampler(): bicubic interpolation only supports 4D input"), (ct_tensor *)NULL;
  if (interpolation_mode < 0 || interpolation_mode > 1 || padding_mode < 0 || padding_mode > 2)
    return ct_fail(CT_ERR_INVALID, op, "grid_sampler(): interpolation_mode must be 0 (bilinear) or 1 (nearest) and padding_mode 0 "
                   "(zeros), 1 (border) or 2 (reflection)"),
           (ct_tensor *)NULL;
  CT_SCOPE {
    int64_t dhw[3], fsh[3], N = input->sizes[0], C = input->sizes[1];
    ct_tensor *flat, *o = NULL, *x, *y, *z;
    dhw[0] = input->sizes[2], dhw[1] = input->sizes[3], dhw[2] = input->sizes[4];
    fsh[0] = N, fsh[1] = C, fsh[2] = dhw[0] * dhw[1] * dhw[2];
    flat = ct_reshape(input, 3, fsh);
    x = ct__grid_coord(ct_select(grid, 4, 0), dhw[2], padding_mode, align_corners);
    y = ct__grid_coord(ct_select(grid, 4, 1), dhw[1], padding_mode, align_corners);
    z = ct__grid_coord(ct_select(grid, 4, 2), dhw[0], padding_mode, align_corners);
    if (flat && x && y && z && interpolation_mode == 1) {
      ct_tensor *one = ct_clamp(ct_add_scalar(ct_abs(x), ct_int(2)), ct_int(1), ct_int(1));
      if (one) one = ct_where(ct_isnan(x), ct_ones_like(x), one); /* (1 with a zero gradient to grid) */
      o = one ? ct__grid_tap3(flat, dhw, ct_round(ct_detach(x)), ct_round(ct_detach(y)), ct_round(ct_detach(z)), one) : NULL;
    } else if (flat && x && y && z) { /* trilinear: the 8 corners, each weighed by its opposite's distances */
      ct_tensor *lo[3], *hi[3], *wl[3], *wh[3], *cs[3];
      int k, corner;
      cs[0] = x, cs[1] = y, cs[2] = z;
      for (k = 0; k < 3; k++) {
        lo[k] = ct_floor(ct_detach(cs[k]));
        hi[k] = ct_add_scalar(lo[k], ct_int(1));
        wh[k] = ct_sub(cs[k], lo[k]), wl[k] = ct_sub(hi[k], cs[k]);
      }
      for (corner = 0; corner < 8; corner++) {
        int bx = corner & 1, by = (corner >> 1) & 1, bz = (corner >> 2) & 1;
        ct_tensor *w = ct_mul(ct_mul(bx ? wh[0] : wl[0], by ? wh[1] : wl[1]), bz ? wh[2] : wl[2]);
        ct_tensor *v = w ? ct__grid_tap3(flat, dhw, bx ? hi[0] : lo[0], by ? hi[1] : lo[1], bz ? hi[2] : lo[2], w) : NULL;
        o = v ? (o ? ct_add(o, v) : v) : NULL;
        if (!o) break;
      }
    }
    r = ct_keep(o);
  }
  return r;
}
static ct_tensor *ct__k_grid_sampler(ct_keyset ks, ct_tensor *input, ct_tensor *grid, int64_t interpolation_mode, int64_t padding_mode,
                                     bool align_corners) {
  if (input->ndim == 5) return ct__k_grid_sampler_3d(ks, input, grid, interpolation_mode, padding_mode, align_corners);
  return ct__k_grid_sampler_2d(ks, input, grid, interpolation_mode, padding_mode, align_corners);
}

CT_EXTERN_C_END
#endif /* CT__OPS_CONV_IMPL */
