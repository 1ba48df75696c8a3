/* ctorch/ops/nn.h - reference kernels: softmax family, losses, distances, normalisation, dropout.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/nn.spec and their derivatives in
 * gen/derivatives/nn.spec; the frontends are generated (docs/ops.md).
 *
 * Explicit kernels (softmax, log_softmax, nll_loss, nll_loss_backward,
 * binary_cross_entropy[_with_logits]) compute in float64 whatever the
 * input's floating dtype (so f16/bf16 accumulate in more than f32) and
 * round once into the result. The other losses and the normalisations are
 * CompositeImplicitAutograd over ct ops, so their gradients (and double
 * backward) come from the ops they call.
 *
 * Reductions are PyTorch's ints: 0 none, 1 mean, 2 sum.
 */
#ifndef CT_OPS_NN_H
#define CT_OPS_NN_H

#include "../ops.h"

#endif /* CT_OPS_NN_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_NN_IMPL)
#define CT__OPS_NN_IMPL
#include <float.h>
#include <math.h>
CT_EXTERN_C_BEGIN

enum { CT__NN_NONE = 0, CT__NN_MEAN = 1, CT__NN_SUM = 2 };

static ct_status ct__nn_check_reduction(const char *op, int64_t reduction) {
  if (reduction < 0 || reduction > 2)
    return ct_fail(CT_ERR_INVALID, op, "%lld is not a valid value for reduction (0 none, 1 mean, 2 sum)", (long long)reduction);
  return CT_OK;
}
static ct_status ct__nn_check_floating(const char *op, const char *kernel, ct_dtype d) {
  if (!ct_dtype_is_floating(d))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" is not implemented for '%s'", kernel, ct__dtype_torch_name(d));
  return CT_OK;
}
static const char *ct__nn_shape(const ct_tensor *t, char *buf, size_t cap) { return ct_shape_format(t->ndim, t->sizes, buf, cap); }

/* A contiguous float64 copy of t on the host (t itself when it already is one): these kernels
 * compute on the host in float64, so a composite calling them runs on any device (ops.h, host staging). */
static ct_tensor *ct__nn_f64(const char *op, ct_tensor *t) {
  ct_tensor *c;
  if (t->dtype == CT_F64 && ct_is_contiguous(t) && t->device.type == CT_DEVICE_CPU) return ct_retain(t);
  c = ct__empty(op, t->ndim, t->sizes, CT_F64, ct__host_device(t));
  if (c && !ct__is_meta(c) && ct__copy_impl(c, t) != CT_OK) ct_release(c), c = NULL;
  return c;
}
/* A contiguous int64 copy of t on the host (class targets, indices). */
static ct_tensor *ct__nn_i64(const char *op, ct_tensor *t) {
  ct_tensor *h = ct__host_operand(op, t), *c;
  if (!h || (h->dtype == CT_I64 && ct_is_contiguous(h))) return h;
  c = ct__copy_as(op, h, CT_I64);
  ct_release(h);
  return c;
}
/* t expanded to shape, as a contiguous float64 copy; NULL t gives NULL with no error. */
static ct_tensor *ct__nn_f64_expand(const char *op, ct_tensor *t, int ndim, const int64_t *shape, int *failed) {
  ct_tensor *v, *c;
  int64_t strides[CT_MAX_DIMS];
  int i, ok = t ? t->ndim <= ndim : 1;
  if (!t) return NULL;
  for (i = ndim - 1; ok && i >= 0; i--) {
    int j = i - (ndim - t->ndim);
    strides[i] = 0;
    if (j >= 0 && t->sizes[j] == shape[i]) strides[i] = t->strides[j];
    else if (j >= 0 && t->sizes[j] != 1) ok = 0;
  }
  if (!ok) {
    char b1[160], b2[160];
    *failed = 1;
    return ct_fail(CT_ERR_SHAPE, op, "a tensor of shape %s cannot be broadcast to the input's shape %s", ct__nn_shape(t, b1, sizeof b1),
                   ct_shape_format(ndim, shape, b2, sizeof b2)),
           (ct_tensor *)NULL;
  }
  v = ct__make_view(t, ndim, shape, strides, t->offset);
  c = v ? ct__nn_f64(op, v) : NULL;
  ct_release(v);
  if (!c) *failed = 1;
  return c;
}
/* Can t (NULL: yes) broadcast to shape? The meta step's half of ct__nn_f64_expand. */
static ct_status ct__nn_check_expand(const char *op, const ct_tensor *t, int ndim, const int64_t *shape) {
  int i, ok = t ? t->ndim <= ndim : 1;
  char b1[160], b2[160];
  for (i = ndim - 1; t && ok && i >= 0; i--) {
    int j = i - (ndim - t->ndim);
    if (j >= 0 && t->sizes[j] != shape[i] && t->sizes[j] != 1) ok = 0;
  }
  if (ok) return CT_OK;
  return ct_fail(CT_ERR_SHAPE, op, "a tensor of shape %s cannot be broadcast to the input's shape %s", ct__nn_shape(t, b1, sizeof b1),
                 ct_shape_format(ndim, shape, b2, sizeof b2));
}
static const double *ct__nn_cdata(const ct_tensor *t) { return t ? (const double *)ct_data_ptr(t) : NULL; }

/* Copy the float64 buffer into dst and hand the result back (or bump out's version). */
static ct_status ct__nn_finish(ct_tensor *dst, ct_tensor *buf, ct_tensor *out, ct_tensor **result, ct_status st) {
  if (st == CT_OK && buf && !ct__is_meta(dst) && dst->numel) st = ct__copy_impl(dst, buf);
  ct_release(buf);
  if (st == CT_OK && out) ct__bump_version(out);
  if (st == CT_OK && !out && result) {
    *result = dst;
    return CT_OK;
  }
  ct_release(dst);
  return st;
}
/* A new float64 buffer of dst's shape on the host, or NULL (no error) when dst needs no data. */
static ct_tensor *ct__nn_buf(const char *op, const ct_tensor *dst, ct_status *st) {
  ct_tensor *b;
  if (ct__is_meta(dst) || dst->numel == 0) return NULL;
  b = ct__empty(op, dst->ndim, dst->sizes, CT_F64, CT_CPU);
  if (!b) *st = ct_last_error();
  return b;
}

/* ================= softmax and log_softmax =================
 * Scans of the reduction engine (m = n results per row, in float64, the
 * max subtracted first, a NaN wins the max): a device with a reduction loop
 * runs them natively. */
static void ct__nn_softmax_row_common(ct_reduction_row *r, int is_log) {
  const double *x = r->xf;
  double *y = r->yf, m = -INFINITY, s = 0;
  int64_t k, n = r->n;
  if (n < 1) return; /* (an empty row has no result) */
  for (k = 0; k < n; k++)
    if (x[k] > m || x[k] != x[k]) m = x[k];
  if (is_log) {
    double ls;
    for (k = 0; k < n; k++) s += exp(x[k] - m);
    ls = m + log(s);
    for (k = 0; k < n; k++) y[k] = x[k] - ls;
  } else { /* each exp once: kept in y until the sum is known (the same values as computing it twice) */
    for (k = 0; k < n; k++) s += (y[k] = exp(x[k] - m));
    for (k = 0; k < n; k++) y[k] /= s;
  }
}
static void ct__nn_softmax_row(ct_reduction_row *r) { ct__nn_softmax_row_common(r, 0); }
static void ct__nn_log_softmax_row(ct_reduction_row *r) { ct__nn_softmax_row_common(r, 1); }
static ct_status ct__nn_softmax_impl(int is_log, ct_tensor *self, int64_t dim, ct_dtype dtype, ct_tensor *out, ct_tensor **result) {
  const char *op = is_log ? "log_softmax" : "softmax";
  ct_dtype rd = dtype != CT_DTYPE_NONE ? dtype : (ct_dtype)self->dtype;
  ct_tensor *dst;
  ct_status st = CT_OK;
  ct__rd_plan p;
  ct_reduction_call j;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype);
  if (ct__nn_check_floating(op, is_log ? "log_softmax_lastdim_kernel_impl" : "softmax_lastdim_kernel_impl", rd) != CT_OK)
    return ct_last_error();
  if (ct__rd_plan_dim(op, self, dim, true, &p) != CT_OK) return ct_last_error();
  if (out && ct__rd_out_dtype(op, out, rd) != CT_OK) return ct_last_error();
  if (!(dst = ct__rd_result(op, self, out, self->ndim, self->sizes, rd))) return ct_last_error();
  if (!ct__is_meta(dst) && dst->numel > 0) {
    memset(&j, 0, sizeof j);
    j.in = self;
    j.reduce = p.reduce;
    j.out = dst;
    j.host_row = is_log ? ct__nn_log_softmax_row : ct__nn_softmax_row;
    st = ct__rd_launch(op, is_log ? CT_RD_LOG_SOFTMAX : CT_RD_SOFTMAX, &j);
  }
  return ct__rd_finish(op, st, dst, out, result);
}
static ct_tensor *ct__k_softmax(ct_keyset ks, ct_tensor *self, int64_t dim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__nn_softmax_impl(0, self, dim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_softmax_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__nn_softmax_impl(0, self, dim, dtype, out, NULL);
}
static ct_tensor *ct__k_log_softmax(ct_keyset ks, ct_tensor *self, int64_t dim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__nn_softmax_impl(1, self, dim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_log_softmax_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__nn_softmax_impl(1, self, dim, dtype, out, NULL);
}

/* ================= nll_loss =================
 * self (C), (N, C) or (N, C, d1, ...), viewed as (N, C, D); target the shape
 * without the class dim, int64. */
typedef struct ct__nn_nll_dims {
  int64_t N, C, D;
} ct__nn_nll_dims;
static ct_status ct__nn_nll_check(const char *op, ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction,
                                  ct__nn_nll_dims *g) {
  char b1[160], b2[160];
  int i, ok;
  if (self->ndim < 1) return ct_fail(CT_ERR_RANK, op, "Expected 1 or more dimensions (got 0)");
  if (ct__nn_check_floating(op, "nll_loss_out_frame", (ct_dtype)self->dtype) != CT_OK) return ct_last_error();
  if (target->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type Long but found %s", ct__dtype_torch_name((ct_dtype)target->dtype));
  ok = target->ndim == (self->ndim == 1 ? 0 : self->ndim - 1);
  for (i = 0; ok && i < target->ndim; i++) ok = target->sizes[i] == self->sizes[i == 0 ? 0 : i + 1];
  if (!ok)
    return ct_fail(CT_ERR_SHAPE, op, "size mismatch (got input: %s, target: %s)", ct__nn_shape(self, b1, sizeof b1),
                   ct__nn_shape(target, b2, sizeof b2));
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return ct_last_error();
  g->N = self->ndim == 1 ? 1 : self->sizes[0];
  g->C = self->ndim == 1 ? self->sizes[0] : self->sizes[1];
  g->D = 1;
  if (self->ndim > 2) g->D = ct__sizes_product_sat(self->ndim - 2, self->sizes + 2);
  if (self->numel == 0) g->N = 0, g->D = 0; /* nothing to walk (the other sizes may multiply past int64) */
  if (weight && (weight->ndim != 1 || weight->numel != g->C))
    return ct_fail(CT_ERR_SHAPE, op, "weight tensor should be defined either for all %lld classes or no classes but got weight tensor of shape: %s",
                   (long long)g->C, ct__nn_shape(weight, b1, sizeof b1));
  return CT_OK;
}
/* Walk the targets: calls back (or fails on an out-of-range target); returns the total weight. */
static ct_status ct__nn_nll_walk(const char *op, const ct__nn_nll_dims *g, const int64_t *T, const double *W, int64_t ignore_index,
                                 double *total_weight, const double *X, double *loss_none, double *loss_sum, double *grad_in,
                                 const double *grad_none, double grad_scale) {
  int64_t n, d;
  double tw = 0, sum = 0;
  for (n = 0; n < g->N; n++)
    for (d = 0; d < g->D; d++) {
      int64_t t = T[n * g->D + d], at;
      double w;
      if (t == ignore_index) {
        if (loss_none) loss_none[n * g->D + d] = 0;
        continue;
      }
      if (t < 0 || t >= g->C) return ct_fail(CT_ERR_INDEX, op, "Target %lld is out of bounds.", (long long)t);
      w = W ? W[t] : 1.0;
      at = (n * g->C + t) * g->D + d;
      tw += w;
      if (X) {
        double v = -w * X[at];
        if (loss_none) loss_none[n * g->D + d] = v;
        sum += v;
      }
      if (grad_in) grad_in[at] = -w * (grad_none ? grad_none[n * g->D + d] : grad_scale);
    }
  if (total_weight) *total_weight = tw;
  if (loss_sum) *loss_sum = sum;
  return CT_OK;
}
/* On a device: the walk as ops of the engines (gather / scatter through the
 * index loop, float64 pointwise and reductions), nothing staged on the host
 * but the target check's one flag. The targets as [N, D]; *valid: not
 * ignore_index; *safe: the targets with ignored ones as class 0. */
static ct_status ct__nn_nll_device_targets(const char *op, const ct__nn_nll_dims *g, ct_tensor *target, int64_t ignore_index,
                                           ct_tensor **valid, ct_tensor **safe) {
  int64_t nd[2];
  ct_tensor *t, *bad;
  nd[0] = g->N, nd[1] = g->D;
  t = ct_reshape(target, 2, nd);
  *valid = ct_ne_scalar(t, ct_int(ignore_index));
  bad = ct_logical_and(*valid, ct_logical_or(ct_lt_scalar(t, ct_int(0)), ct_ge_scalar(t, ct_int(g->C))));
  if (!bad) return ct_last_error();
  if (ct_get_int(ct_any(bad), 0)) { /* the CPU's message: the first bad target in order (read on the host) */
    ct_tensor *ht = ct_contiguous(ct_to_device(t, CT_CPU)), *hb = ct_contiguous(ct_to_device(bad, CT_CPU));
    int64_t i, v = -1;
    for (i = 0; ht && hb && i < hb->numel; i++)
      if (ct_get_int(hb, i)) {
        v = ct_get_int(ht, i);
        break;
      }
    return ct_fail(CT_ERR_INDEX, op, "Target %lld is out of bounds.", (long long)v);
  }
  *safe = ct_mul(t, *valid);
  return *safe ? CT_OK : ct_last_error();
}
/* the weight of each target ([N, D], float64): weight[t] or 1, 0 where ignored */
static ct_tensor *ct__nn_nll_device_w(ct_tensor *weight, ct_tensor *valid, ct_tensor *safe) {
  ct_tensor *v = ct_to_dtype(valid, CT_F64);
  if (!weight) return v;
  return ct_mul(ct_reshape(ct_index_select(ct_to_dtype(weight, CT_F64), 0, ct_reshape(safe, CT_DIMS(-1))), 2, safe->sizes), v);
}
static ct_status ct__nn_nll_device(const char *op, const ct__nn_nll_dims *g, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                   int64_t reduction, int64_t ignore_index, ct_tensor *dst) {
  ct_status st = CT_OK;
  if (g->N * g->D == 0 && reduction == CT__NN_NONE) return CT_OK;
  CT_SCOPE {
    int64_t s3[3];
    ct_tensor *valid = NULL, *safe = NULL, *x3, *picked, *w, *v, *r = NULL;
    s3[0] = g->N, s3[1] = g->C, s3[2] = g->D;
    if (g->N * g->D == 0) { /* no targets: sum 0, mean 0 / 0 */
      r = ct_full_ex(0, NULL, ct_float(reduction == CT__NN_SUM ? 0.0 : NAN), CT_F64, dst->device);
    } else if ((st = ct__nn_nll_device_targets(op, g, target, ignore_index, &valid, &safe)) == CT_OK) {
      x3 = ct_to_dtype(ct_reshape(self, 3, s3), CT_F64);
      picked = ct_squeeze_dim(ct_gather(x3, 1, ct_unsqueeze(safe, 1)), 1);
      w = ct__nn_nll_device_w(weight, valid, safe);
      v = ct_where(valid, ct_neg(ct_mul(picked, w)), ct_zeros_like(picked));
      r = reduction == CT__NN_NONE ? v : reduction == CT__NN_SUM ? ct_sum(v) : ct_div(ct_sum(v), ct_sum(w));
    }
    if (st == CT_OK) st = r ? ct__copy_impl(dst, reduction == CT__NN_NONE ? ct_reshape(r, dst->ndim, dst->sizes) : r) : ct_last_error();
  }
  return st;
}
static ct_status ct__nn_nll_backward_device(const char *op, const ct__nn_nll_dims *g, ct_tensor *grad_output, ct_tensor *target,
                                            ct_tensor *weight, int64_t reduction, int64_t ignore_index, ct_tensor *total_weight,
                                            ct_tensor *dst) {
  ct_status st;
  if ((st = ct__k_fill_(0, dst, ct_int(0))) != CT_OK || g->N * g->D == 0) return st;
  CT_SCOPE {
    int64_t s3[3];
    ct_tensor *valid = NULL, *safe = NULL, *go, *w, *vals, *gi;
    s3[0] = g->N, s3[1] = g->C, s3[2] = g->D;
    if ((st = ct__nn_nll_device_targets(op, g, target, ignore_index, &valid, &safe)) == CT_OK) {
      go = ct_to_dtype(grad_output, CT_F64);
      if (reduction == CT__NN_NONE) go = ct_reshape(go, 2, safe->sizes);
      else if (reduction == CT__NN_MEAN) go = ct_div(go, ct_to_dtype(total_weight, CT_F64));
      w = ct__nn_nll_device_w(weight, valid, safe);
      vals = ct_to_dtype(ct_where(valid, ct_neg(ct_mul(w, go)), ct_zeros_like(w)), (ct_dtype)dst->dtype);
      gi = ct_scatter(ct_zeros_ex(3, s3, (ct_dtype)dst->dtype, dst->device), 1, ct_unsqueeze(safe, 1), ct_unsqueeze(vals, 1));
      st = gi ? ct__copy_impl(dst, ct_reshape(gi, dst->ndim, dst->sizes)) : ct_last_error();
    }
  }
  return st;
}
/* structured (ops/structured.h): the family nll_loss / nll_loss.out (aten's
 * nll_loss_forward, which ctorch folds into nll_loss). The out-of-range
 * target check reads the targets: the impl step's. */
static ct_status ct__meta_nll_loss(ct__structured *st, ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction,
                                   int64_t ignore_index) {
  ct__nn_nll_dims g;
  (void)ignore_index;
  if (ct__nn_nll_check(st->op, self, target, weight, reduction, &g) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, reduction == CT__NN_NONE ? target->ndim : 0, target->sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_nll_loss(ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction, int64_t ignore_index,
                                   ct_tensor *out) {
  static const char *op = "nll_loss";
  ct__nn_nll_dims g;
  ct_tensor *x = NULL, *t = NULL, *w = NULL, *y = NULL;
  ct_status st = CT_OK;
  int failed = 0;
  if (ct__nn_nll_check(op, self, target, weight, reduction, &g) != CT_OK) return ct_last_error();
  if (out->device.type != CT_DEVICE_CPU) return ct__nn_nll_device(op, &g, self, target, weight, reduction, ignore_index, out);
  y = ct__empty(op, out->ndim, out->sizes, CT_F64, CT_CPU);
  x = ct__nn_f64(op, self);
  t = ct__nn_i64(op, target);
  w = ct__nn_f64_expand(op, weight, 1, &g.C, &failed);
  if (!y || !x || !t || failed) {
    st = ct_last_error();
  } else {
    double tw = 0, sum = 0;
    st = ct__nn_nll_walk(op, &g, (const int64_t *)ct_data_ptr(t), ct__nn_cdata(w), ignore_index, &tw, ct__nn_cdata(x),
                         reduction == CT__NN_NONE ? (double *)ct_data_ptr(y) : NULL, &sum, NULL, NULL, 0);
    if (reduction != CT__NN_NONE) *(double *)ct_data_ptr(y) = reduction == CT__NN_SUM ? sum : sum / tw;
  }
  if (st == CT_OK && out->numel) st = ct__copy_impl(out, y);
  ct_release(x);
  ct_release(t);
  ct_release(w);
  ct_release(y);
  return st;
}
static ct_tensor *ct__k_nll_loss_backward(ct_keyset ks, ct_tensor *grad_output, ct_tensor *self, ct_tensor *target,
                                          ct_tensor *weight, int64_t reduction, int64_t ignore_index, ct_tensor *total_weight) {
  static const char *op = "nll_loss_backward";
  ct__nn_nll_dims g;
  ct_tensor *dst, *go = NULL, *t = NULL, *w = NULL, *y = NULL, *tw = NULL;
  ct_status st = CT_OK;
  ct_tensor *r = NULL;
  char b1[160], b2[160];
  (void)ks;
  if (ct__nn_nll_check(op, self, target, weight, reduction, &g) != CT_OK) return NULL;
  if (reduction == CT__NN_NONE ? !ct_same_shape(grad_output, target) : grad_output->numel != 1)
    return ct_fail(CT_ERR_SHAPE, op, "grad_output of shape %s does not match the loss of target %s and reduction %lld",
                   ct__nn_shape(grad_output, b1, sizeof b1), ct__nn_shape(target, b2, sizeof b2), (long long)reduction),
           (ct_tensor *)NULL;
  if (total_weight->numel != 1)
    return ct_fail(CT_ERR_SHAPE, op, "expected total_weight to be a single element tensor, got: %s (%lld elements)",
                   ct__nn_shape(total_weight, b1, sizeof b1), (long long)total_weight->numel),
           (ct_tensor *)NULL;
  dst = ct__empty(op, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device);
  if (!dst) return NULL;
  if (!ct__is_meta(dst) && dst->numel && self->device.type != CT_DEVICE_CPU) {
    if (ct__nn_nll_backward_device(op, &g, grad_output, target, weight, reduction, ignore_index, total_weight, dst) != CT_OK)
      ct_release(dst), dst = NULL;
    return dst;
  }
  y = ct__nn_buf(op, dst, &st);
  if (y) {
    int failed = 0;
    memset(ct_data_ptr(y), 0, sizeof(double) * (size_t)y->numel);
    go = ct__nn_f64(op, grad_output);
    tw = ct__nn_f64(op, total_weight);
    t = ct__nn_i64(op, target);
    w = ct__nn_f64_expand(op, weight, 1, &g.C, &failed);
    if (!go || !tw || !t || failed) {
      st = ct_last_error();
    } else {
      double g0 = *ct__nn_cdata(go), scale = reduction == CT__NN_MEAN ? g0 / *ct__nn_cdata(tw) : g0;
      st = ct__nn_nll_walk(op, &g, (const int64_t *)ct_data_ptr(t), ct__nn_cdata(w), ignore_index, NULL, NULL, NULL, NULL,
                           (double *)ct_data_ptr(y), reduction == CT__NN_NONE ? ct__nn_cdata(go) : NULL, scale);
    }
  }
  ct_release(go);
  ct_release(tw);
  ct_release(t);
  ct_release(w);
  ct__nn_finish(dst, y, NULL, &r, st);
  return r;
}
static ct_tensor *ct__k_nll_loss_nd(ct_keyset ks, ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction,
                                    int64_t ignore_index) {
  (void)ks;
  return ct_nll_loss(self, target, weight, reduction, ignore_index);
}
/* A constant of self's shape and dtype: 1 at each non-ignored target's class. */
static ct_tensor *ct__nn_nll_onehot(ct_tensor *self, ct_tensor *target, int64_t ignore_index) {
  static const char *op = "nll_loss";
  ct__nn_nll_dims g;
  ct_tensor *r, *t = NULL, *b = NULL;
  ct_status st = CT_OK;
  if (ct__nn_nll_check(op, self, target, NULL, CT__NN_SUM, &g) != CT_OK) return NULL;
  r = ct__track(ct__empty(op, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device));
  if (!r || ct__is_meta(r) || !r->numel) return r;
  b = ct__empty(op, self->ndim, self->sizes, CT_F64, CT_CPU); /* made on the host, copied into r */
  t = ct__nn_i64(op, target);
  if (!b || !t) st = ct_last_error();
  if (st == CT_OK) {
    memset(ct_data_ptr(b), 0, sizeof(double) * (size_t)b->numel);
    st = ct__nn_nll_walk(op, &g, (const int64_t *)ct_data_ptr(t), NULL, ignore_index, NULL, NULL, NULL, NULL,
                         (double *)ct_data_ptr(b), NULL, -1.0);
  }
  if (st == CT_OK) st = ct__copy_impl(r, b);
  ct_release(b);
  ct_release(t);
  return st == CT_OK ? r : NULL;
}
/* sum over every dim but the class dim of v * onehot * g, g the loss's
 * gradient (unsqueezed at the class dim for reduction none) */
static ct_tensor *ct__nn_nll_class_sum(ct_tensor *v, ct_tensor *g, ct_tensor *self, ct_tensor *target, int64_t reduction,
                                       int64_t ignore_index) {
  int64_t cdim = self->ndim == 1 ? 0 : 1, dims[CT_MAX_DIMS];
  int i, n = 0;
  ct_tensor *r;
  if (g && reduction == CT__NN_NONE && self->ndim > 1) g = ct_unsqueeze(g, 1);
  r = ct_mul(v, ct__nn_nll_onehot(self, target, ignore_index));
  if (g) r = ct_mul(r, g);
  for (i = 0; i < self->ndim; i++)
    if (i != cdim) dims[n++] = i;
  return n ? ct_sum_dim(r, n, dims, false) : r;
}
/* nll_loss's total_weight: the sum of the weights of the non-ignored
 * targets (their count without weight), 0-dim; differentiable in weight. */
static ct_tensor *ct__nn_nll_total_weight(ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t ignore_index) {
  ct_tensor *counts;
  if (!self || !target) return NULL;
  counts = ct__nn_nll_class_sum(ct_ones_like(self), NULL, self, target, CT__NN_SUM, ignore_index);
  return weight ? ct_sum(ct_mul(weight, counts)) : ct_sum(counts);
}
/* d nll_loss / d weight[c]: sum over the targets of class c of -x * grad, and
 * for mean (-x - loss) * grad / total_weight. */
static ct_tensor *ct__nn_nll_weight_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                             int64_t reduction, int64_t ignore_index) {
  ct_tensor *v = ct_neg(self);
  if (reduction == CT__NN_MEAN) /* the loss is recomputed: the forward need not save its output */
    v = ct_div(ct_sub(v, ct_nll_loss(self, target, weight, reduction, ignore_index)),
               ct__nn_nll_total_weight(self, target, weight, ignore_index));
  return ct__nn_nll_class_sum(v, grad, self, target, reduction, ignore_index);
}
/* nll_loss_backward is linear in grad_output, weight and 1/total_weight:
 * <G, grad_input> = sum -w[t] G[t] go (/ tw) */
static ct_tensor *ct__nn_nllb_weight_backward(ct_tensor *grad, ct_tensor *grad_output, ct_tensor *self, ct_tensor *target,
                                              int64_t reduction, int64_t ignore_index, ct_tensor *total_weight) {
  ct_tensor *go = reduction == CT__NN_MEAN ? ct_div(grad_output, total_weight) : grad_output;
  return ct__nn_nll_class_sum(ct_neg(grad), go, self, target, reduction, ignore_index);
}
static ct_tensor *ct__nn_nllb_total_weight_backward(ct_tensor *grad, ct_tensor *result, int64_t reduction, ct_tensor *total_weight) {
  if (reduction != CT__NN_MEAN) return ct_zeros_like(total_weight);
  return ct_neg(ct_div(ct_sum(ct_mul(grad, result)), total_weight));
}

/* ================= pointwise helpers for formulas and composites =================
 * ct__nn_fn(f, v) is f(v) elementwise for functions whose ct op lives in
 * another area (log, rsqrt, softplus). When v needs a gradient it returns
 * F + d*(F1 + d*F2) with d = v - detach(v) (exactly 0) and F1 = f'(v),
 * F2 = f''(v)/2 held constant: the value is f(v), and the first and second
 * derivatives are exact, so gradients and double backward are right (a
 * third derivative would not be). Non-finite derivatives count as 0. */
enum { CT__NN_LOG, CT__NN_LOG_CLAMP, CT__NN_RSQRT, CT__NN_SOFTPLUS, CT__NN_XLOGX };
static void ct__nn_eval(int fn, double v, double *f) {
  double r, s;
  switch (fn) {
  case CT__NN_LOG_CLAMP: /* log clamped at -100, as binary_cross_entropy */
    if (!(log(v) >= -100.0)) {
      f[0] = v != v ? v : -100.0;
      f[1] = f[2] = 0;
      return;
    }
    /* fall through */
  case CT__NN_LOG:
    f[0] = log(v), f[1] = 1.0 / v, f[2] = -0.5 / (v * v);
    break;
  case CT__NN_RSQRT:
    r = 1.0 / sqrt(v);
    f[0] = r, f[1] = -0.5 * r * r * r, f[2] = 0.375 * r * r * r * r * r;
    break;
  case CT__NN_SOFTPLUS:
    s = v >= 0 ? 1.0 / (1.0 + exp(-v)) : exp(v) / (1.0 + exp(v));
    f[0] = v > 0 ? v + log1p(exp(-v)) : log1p(exp(v)), f[1] = s, f[2] = 0.5 * s * (1.0 - s);
    break;
  default: /* x * log(x), 0 at 0 (xlogy(x, x)) */
    f[0] = v == 0 ? 0.0 : v * log(v), f[1] = log(v) + 1.0, f[2] = 0.5 / v;
    break;
  }
  if (!isfinite(f[1])) f[1] = 0;
  if (!isfinite(f[2])) f[2] = 0;
}
static ct_tensor *ct__nn_fn(int fn, ct_tensor *v) {
  static const char *op = "nn";
  ct_tensor *x, *F[3] = {NULL, NULL, NULL};
  int want = 1, k;
  int64_t i;
  if (!v) return NULL;
  if (ct__grad_mode() && ct__needs_grad(v)) want = 3;
  for (k = 0; k < want; k++) /* computed on the host, then on v's device (ops.h, host staging) */
    if (!(F[k] = ct__empty(op, v->ndim, v->sizes, (ct_dtype)v->dtype, ct__host_device(v)))) {
      while (k-- > 0) ct_release(F[k]);
      return NULL;
    }
  if (!ct__is_meta(v) && v->numel) {
    size_t es = ct_dtype_size((ct_dtype)v->dtype);
    if (!(x = ct__nn_f64(op, v))) {
      for (k = 0; k < want; k++) ct_release(F[k]);
      return NULL;
    }
    for (i = 0; i < v->numel; i++) {
      double f[3];
      ct__nn_eval(fn, ct__nn_cdata(x)[i], f);
      for (k = 0; k < want; k++) ct__store_double((char *)ct_data_ptr(F[k]) + (size_t)i * es, (ct_dtype)v->dtype, f[k]);
    }
    ct_release(x);
  }
  for (k = 0; k < want; k++) { /* (a failed copy: the later ones are released, the NULL reported) */
    F[k] = ct__track(ct__host_result(op, F[k], v->device));
    if (!F[k]) {
      while (++k < want) ct_release(F[k]);
      return NULL;
    }
  }
  if (want == 1) return F[0];
  {
    ct_tensor *d = ct_sub(v, ct_detach(v));
    return ct_add(F[0], ct_mul(d, ct_add(F[1], ct_mul(d, F[2]))));
  }
}
/* max(a, m) with a's gradient where a > m */
static ct_tensor *ct__nn_clamp_min(ct_tensor *a, double m) {
  return ct_add_scalar(ct_relu(ct_add_scalar(a, ct_float(-m))), ct_float(m));
}
/* |a| with abs's gradient (0 at 0); unsigned and bool values are their own */
static ct_tensor *ct__nn_abs(ct_tensor *a) {
  if (a && (a->dtype == CT_U8 || a->dtype == CT_BOOL)) return a;
  return ct_add(ct_relu(a), ct_relu(ct_neg(a)));
}
static ct_tensor *ct__nn_reduce(ct_tensor *loss, int64_t reduction) {
  if (!loss) return NULL;
  return reduction == CT__NN_MEAN ? ct_mean(loss) : reduction == CT__NN_SUM ? ct_sum(loss) : loss;
}
/* gradient of a pointwise loss: grad (0-dim for mean/sum) times the local
 * derivative, divided by the element count for mean */
static ct_tensor *ct__nn_loss_grad(ct_tensor *grad, ct_tensor *local, int64_t reduction, int64_t numel) {
  ct_tensor *g = ct_mul(grad, local);
  return reduction == CT__NN_MEAN ? ct_div_scalar(g, ct_int(numel)) : g;
}

/* ---- softmax / log_softmax derivatives ---- */
/* The fused host kernels' precondition (layer_norm and its derivative,
 * softmax's derivative): contiguous f32/f64 CPU operands of one dtype, and
 * the host's own pointwise and reduction loops, whose operations the fused
 * passes repeat. */
static int ct__nn_fused_host(const ct_tensor *input, const ct_tensor *weight, const ct_tensor *bias) {
  ct_dtype d = (ct_dtype)input->dtype;
  int i;
  if ((d != CT_F32 && d != CT_F64) || input->device.type != CT_DEVICE_CPU || !ct__pw_contiguous(input) || input->numel == 0 ||
      ct__atomic_load(&ct__pw_loops[CT_DEVICE_CPU]) != (void (*)(void))ct_host_pointwise_loop ||
      ct__atomic_load(&ct__rd_loops[CT_DEVICE_CPU]) != (void (*)(void))ct_host_reduction_loop) /* (the loops a user may set) */
    return 0;
  for (i = 0; i < 2; i++) {
    const ct_tensor *p = i ? bias : weight;
    if (p && (p->dtype != d || p->device.type != CT_DEVICE_CPU || !ct__pw_contiguous(p))) return 0;
  }
  return 1;
}
/* d softmax = result * (grad - sum(grad * result)) over dim. Without
 * create_graph, over the last dim of contiguous host f32/f64 operands, the
 * formula's four ops run as one pass per row: the same operations (the
 * product rounded, its sum in ct__rd_psum's order, then the difference and
 * the product), so the same bits, without three temporaries the size of the
 * input (attention's scores: [B*heads, seq, seq]). */
#define CT__NN_SOFTMAX_BACK_ROWS(T, PSUM)                                                                            \
  static void ct__nn_softmax_back_rows_##T(const T *g, const T *y, int64_t rows, int64_t n, T *p, T *dx) {          \
    int64_t r, i;                                                                                                    \
    for (r = 0; r < rows; r++, g += n, y += n, dx += n) {                                                            \
      T s;                                                                                                           \
      for (i = 0; i < n; i++) p[i] = g[i] * y[i];                                                                    \
      s = (T)PSUM(p, n);                                                                                             \
      for (i = 0; i < n; i++) dx[i] = y[i] * (g[i] - s);                                                             \
    }                                                                                                                \
  }
CT__NN_SOFTMAX_BACK_ROWS(float, ct__rd_psum_f32)
CT__NN_SOFTMAX_BACK_ROWS(double, ct__rd_psum)
static ct_tensor *ct__nn_softmax_backward(ct_tensor *grad, ct_tensor *result, int64_t dim) {
  if (!ct__grad_mode() && result->ndim >= 1 && (dim == -1 || dim == result->ndim - 1) &&
      ct__nn_fused_host(result, NULL, NULL) && grad->dtype == result->dtype && grad->device.type == CT_DEVICE_CPU &&
      ct__pw_contiguous(grad) && ct_same_shape(grad, result)) {
    int64_t n = result->sizes[result->ndim - 1];
    size_t es = ct_dtype_size((ct_dtype)result->dtype);
    ct_tensor *dx = ct__empty_as(result);
    void *p = dx ? ct__scratch_alloc(es * (size_t)n) : NULL;
    if (!p) return ct_release(dx), ct_fail(CT_ERR_OOM, "softmax_backward", "out of memory"), (ct_tensor *)NULL;
    if (result->dtype == CT_F32)
      ct__nn_softmax_back_rows_float((const float *)ct_data_ptr(grad), (const float *)ct_data_ptr(result), result->numel / n, n,
                                     (float *)p, (float *)ct_data_ptr(dx));
    else
      ct__nn_softmax_back_rows_double((const double *)ct_data_ptr(grad), (const double *)ct_data_ptr(result), result->numel / n, n,
                                      (double *)p, (double *)ct_data_ptr(dx));
    ct__scratch_free(p, es * (size_t)n);
    return ct__track(dx);
  }
  return ct_mul(result, ct_sub(grad, ct_sum_dim(ct_mul(grad, result), 1, &dim, true)));
}
static ct_tensor *ct__nn_log_softmax_backward(ct_tensor *grad, ct_tensor *result, int64_t dim) {
  return ct_sub(grad, ct_mul(ct_exp(result), ct_sum_dim(grad, 1, &dim, true)));
}

/* ================= binary_cross_entropy ================= */
/* structured (ops/structured.h): binary_cross_entropy / .out; the [0, 1]
 * check of the input reads data: the impl step's. */
static ct_status ct__meta_binary_cross_entropy(ct__structured *st, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                               int64_t reduction) {
  const char *op = st->op;
  char b1[160], b2[160];
  if (ct__nn_check_floating(op, op, (ct_dtype)self->dtype) != CT_OK || ct__nn_check_reduction(op, reduction) != CT_OK)
    return ct_last_error();
  if (target->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Found dtype %s but expected %s", ct__dtype_torch_name((ct_dtype)target->dtype),
                   ct__dtype_torch_name((ct_dtype)self->dtype));
  if (!ct_same_shape(self, target))
    return ct_fail(CT_ERR_SHAPE, op, "target of shape %s must have the shape of input %s", ct__nn_shape(target, b1, sizeof b1),
                   ct__nn_shape(self, b2, sizeof b2));
  if (ct__nn_check_expand(op, weight, self->ndim, self->sizes) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, reduction == CT__NN_NONE ? self->ndim : 0, self->sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_binary_cross_entropy(ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction, ct_tensor *out) {
  static const char *op = "binary_cross_entropy";
  ct_tensor *x, *t, *w = NULL, *y;
  ct_status st = CT_OK;
  int failed = 0;
  y = ct__empty(op, out->ndim, out->sizes, CT_F64, CT_CPU);
  x = ct__nn_f64(op, self);
  t = ct__nn_f64(op, target);
  if (weight) w = ct__nn_f64_expand(op, weight, self->ndim, self->sizes, &failed);
  if (!y || !x || !t || failed) {
    st = ct_last_error();
  } else {
    const double *X = ct__nn_cdata(x), *T = ct__nn_cdata(t), *W = ct__nn_cdata(w);
    double sum = 0, *Y = (double *)ct_data_ptr(y);
    int64_t i;
    for (i = 0; i < self->numel; i++) {
      double l;
      if (!(X[i] >= 0 && X[i] <= 1)) {
        st = ct_fail(CT_ERR_INVALID, op, "all elements of input should be between 0 and 1");
        break;
      }
      l = (T[i] - 1) * fmax(log(1 - X[i]), -100.0) - T[i] * fmax(log(X[i]), -100.0);
      if (W) l *= W[i];
      if (reduction == CT__NN_NONE) Y[i] = l;
      sum += l;
    }
    if (reduction != CT__NN_NONE) Y[0] = reduction == CT__NN_SUM ? sum : sum / (double)self->numel;
  }
  if (st == CT_OK && out->numel) st = ct__copy_impl(out, y);
  ct_release(x);
  ct_release(t);
  ct_release(w);
  ct_release(y);
  return st;
}
/* d/dself = w (x - t) / max(x (1 - x), 1e-12), as PyTorch */
static ct_tensor *ct__nn_bce_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction) {
  ct_tensor *local = ct_div(ct_sub(self, target), ct__nn_clamp_min(ct_mul(self, ct_add_scalar(ct_neg(self), ct_int(1))), 1e-12));
  if (weight) local = ct_mul(local, weight);
  return ct__nn_loss_grad(grad, local, reduction, self->numel);
}
/* d/dtarget = w (log(1 - x) - log(x)), logs clamped at -100 */
static ct_tensor *ct__nn_bce_target_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                             int64_t reduction) {
  ct_tensor *local = ct_sub(ct__nn_fn(CT__NN_LOG_CLAMP, ct_add_scalar(ct_neg(self), ct_int(1))), ct__nn_fn(CT__NN_LOG_CLAMP, self));
  (void)target;
  if (weight) local = ct_mul(local, weight);
  return ct__nn_loss_grad(grad, local, reduction, self->numel);
}

/* ================= binary_cross_entropy_with_logits =================
 * (1 - t) x + lw (log1p(exp(-|x|)) + max(-x, 0)), lw = 1 + (pos_weight - 1) t;
 * structured (ops/structured.h), functional only. */
static ct_status ct__meta_binary_cross_entropy_with_logits(ct__structured *st, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                                           ct_tensor *pos_weight, int64_t reduction) {
  const char *op = st->op;
  ct_dtype rd;
  char b1[160], b2[160];
  rd = ct_promote_types((ct_dtype)self->dtype, (ct_dtype)target->dtype);
  if (weight) rd = ct_promote_types(rd, (ct_dtype)weight->dtype);
  if (pos_weight) rd = ct_promote_types(rd, (ct_dtype)pos_weight->dtype);
  if (ct__nn_check_floating(op, op, rd) != CT_OK || ct__nn_check_reduction(op, reduction) != CT_OK) return ct_last_error();
  if (!ct_same_shape(self, target))
    return ct_fail(CT_ERR_SHAPE, op, "Target size %s must be the same as input size %s", ct__nn_shape(target, b1, sizeof b1),
                   ct__nn_shape(self, b2, sizeof b2));
  if (ct__nn_check_expand(op, weight, self->ndim, self->sizes) != CT_OK || ct__nn_check_expand(op, pos_weight, self->ndim, self->sizes) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, reduction == CT__NN_NONE ? self->ndim : 0, self->sizes, rd, self->device);
}
static ct_status ct__impl_binary_cross_entropy_with_logits(ct_tensor *self, ct_tensor *target, ct_tensor *weight, ct_tensor *pos_weight,
                                                           int64_t reduction, ct_tensor *out) {
  static const char *op = "binary_cross_entropy_with_logits";
  ct_tensor *x, *t, *w, *pw, *y;
  ct_status st = CT_OK;
  int failed = 0;
  w = ct__nn_f64_expand(op, weight, self->ndim, self->sizes, &failed);
  pw = ct__nn_f64_expand(op, pos_weight, self->ndim, self->sizes, &failed);
  y = ct__empty(op, out->ndim, out->sizes, CT_F64, CT_CPU);
  x = ct__nn_f64(op, self);
  t = ct__nn_f64(op, target);
  if (!y || !x || !t || failed) {
    st = ct_last_error();
  } else {
    const double *X = ct__nn_cdata(x), *T = ct__nn_cdata(t), *W = ct__nn_cdata(w), *PW = ct__nn_cdata(pw);
    double sum = 0, *Y = (double *)ct_data_ptr(y);
    int64_t i;
    for (i = 0; i < self->numel; i++) {
      double lw = PW ? 1 + (PW[i] - 1) * T[i] : 1.0;
      double l = (1 - T[i]) * X[i] + lw * (log1p(exp(-fabs(X[i]))) + fmax(-X[i], 0.0));
      if (W) l *= W[i];
      if (reduction == CT__NN_NONE) Y[i] = l;
      sum += l;
    }
    if (reduction != CT__NN_NONE) Y[0] = reduction == CT__NN_SUM ? sum : sum / (double)self->numel;
  }
  if (st == CT_OK && out->numel) st = ct__copy_impl(out, y);
  ct_release(x);
  ct_release(t);
  ct_release(w);
  ct_release(pw);
  ct_release(y);
  return st;
}
/* d/dself = w ((pw t + 1 - t) sigmoid(x) - pw t), or w (sigmoid(x) - t) */
static ct_tensor *ct__nn_bcel_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight, ct_tensor *pos_weight,
                                       int64_t reduction) {
  ct_tensor *local;
  if (pos_weight) {
    ct_tensor *pt = ct_mul(pos_weight, target);
    local = ct_sub(ct_mul(ct_sub(ct_add_scalar(pt, ct_int(1)), target), ct_sigmoid(self)), pt);
  } else {
    local = ct_sub(ct_sigmoid(self), target);
  }
  if (weight) local = ct_mul(local, weight);
  return ct__nn_loss_grad(grad, local, reduction, self->numel);
}
/* d/dtarget = w ((pw - 1) softplus(-x) - x), or -w x */
static ct_tensor *ct__nn_bcel_target_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                              ct_tensor *pos_weight, int64_t reduction) {
  ct_tensor *local = ct_neg(self);
  (void)target;
  if (pos_weight) local = ct_add(local, ct_mul(ct_sub_scalar(pos_weight, ct_int(1)), ct__nn_fn(CT__NN_SOFTPLUS, ct_neg(self))));
  if (weight) local = ct_mul(local, weight);
  return ct__nn_loss_grad(grad, local, reduction, self->numel);
}

/* d/dpos_weight = w t softplus(-x) */
static ct_tensor *ct__nn_bcel_pos_weight_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *target, ct_tensor *weight,
                                                  int64_t reduction) {
  ct_tensor *local = ct_mul(target, ct__nn_fn(CT__NN_SOFTPLUS, ct_neg(self)));
  if (weight) local = ct_mul(local, weight);
  return ct__nn_loss_grad(grad, local, reduction, self->numel);
}

/* ================= composite losses (CompositeImplicitAutograd) =================
 * mse_loss, smooth_l1_loss and huber_loss: the functional is the composite
 * (its gradient from the ops); the out= form is structured: a meta step with
 * the composite's checks and the output aten's TensorIterator gives it (the
 * broadcast shape, or 0-dim when reduced; out's dtype when the result type
 * casts to it), and an impl that runs the same ops into out. */
static ct_status ct__nn_check_pair(const char *op, const char *kernel, ct_tensor *self, ct_tensor *target, int64_t reduction) {
  if (ct__nn_check_floating(op, kernel, ct__result_type(self, target)) != CT_OK) return ct_last_error();
  return ct__nn_check_reduction(op, reduction);
}
static ct_status ct__nn_set_pair_output(ct__structured *st, ct_tensor *self, ct_tensor *target, int64_t reduction, ct_dtype dtype) {
  int64_t shape[CT_MAX_DIMS];
  int n = ct_broadcast_shapes(st->op, self->ndim, self->sizes, target->ndim, target->sizes, shape);
  if (n < 0) return ct_last_error();
  if (st->variant == CT__ST_OUT && st->given[0]->dtype != dtype) {
    ct_dtype od = (ct_dtype)st->given[0]->dtype;
    if (!ct_can_cast(dtype, od))
      return ct_fail(CT_ERR_DTYPE, st->op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(dtype),
                     ct__dtype_torch_name(od));
    dtype = od;
  }
  return ct__set_output(st, 0, reduction == CT__NN_NONE ? n : 0, shape, dtype, self->device);
}
/* the impl steps' end: the loss the ops gave, into out */
static ct_status ct__nn_loss_into(ct_tensor *r, ct_tensor *out) {
  if (!r) return ct_last_error();
  return out->numel ? ct__copy_impl(out, r) : CT_OK;
}
static ct_tensor *ct__nn_mse_loss(ct_tensor *self, ct_tensor *target, int64_t reduction) {
  ct_tensor *d = ct_sub(self, target);
  return ct__nn_reduce(ct_mul(d, d), reduction);
}
/* The fused host path of mse_loss and its backward: contiguous CPU operands
 * of one float dtype and one shape (grad_output 0-dim when reduced), the
 * case of a training loop. One loop computes what the composite's ops do,
 * in their order and roundings ((self - target) squared in the dtype, the
 * reduction engine's pairwise sum in double of one row, then / n; backward
 * ((self - target) * norm) * grad_output), so the bits are the composite's. */
static int ct__nn_mse_host(const ct_tensor *self, const ct_tensor *target, const ct_tensor *grad_output, int64_t reduction) {
  ct_dtype d = (ct_dtype)self->dtype;
  if ((d != CT_F32 && d != CT_F64) || target->dtype != d || self->device.type != CT_DEVICE_CPU ||
      target->device.type != CT_DEVICE_CPU || !ct__same_sizes(self, target) || !ct__pw_contiguous(self) || !ct__pw_contiguous(target) ||
      ct__atomic_load(&ct__pw_loops[CT_DEVICE_CPU]) != (void (*)(void))ct_host_pointwise_loop ||
      ct__atomic_load(&ct__rd_loops[CT_DEVICE_CPU]) != (void (*)(void))ct_host_reduction_loop) /* (the loops a user may set) */
    return 0;
  if (!grad_output) return 1;
  if (grad_output->dtype != d || grad_output->device.type != CT_DEVICE_CPU || !ct__pw_contiguous(grad_output)) return 0;
  return reduction == CT__NN_NONE ? ct__same_sizes(self, grad_output) : grad_output->ndim == 0;
}
#define CT__NN_MSE_LOOPS(T)                                                                                          \
  static void ct__nn_mse_sq_##T(const T *a, const T *b, T *sq, int64_t n) {                                         \
    int64_t i;                                                                                                       \
    for (i = 0; i < n; i++) {                                                                                        \
      T dv = a[i] - b[i];                                                                                            \
      sq[i] = dv * dv;                                                                                               \
    }                                                                                                                \
  }                                                                                                                  \
  static void ct__nn_mse_sq_row_##T(const T *a, const T *b, double *xf, int64_t n) { /* the reduction's row */      \
    int64_t i;                                                                                                       \
    for (i = 0; i < n; i++) {                                                                                        \
      T dv = a[i] - b[i], q = dv * dv;                                                                               \
      xf[i] = (double)q;                                                                                             \
    }                                                                                                                \
  }                                                                                                                  \
  static void ct__nn_mse_grad_##T(const T *a, const T *b, const T *g, int g_each, T norm, T *out, int64_t n) {       \
    int64_t i;                                                                                                       \
    for (i = 0; i < n; i++) {                                                                                        \
      T dv = a[i] - b[i];                                                                                            \
      dv = dv * norm;                                                                                                \
      out[i] = dv * g[g_each ? i : 0];                                                                               \
    }                                                                                                                \
  }
CT__NN_MSE_LOOPS(float)
CT__NN_MSE_LOOPS(double)
static ct_tensor *ct__nn_mse_loss_host(ct_tensor *self, ct_tensor *target, int64_t reduction) {
  int64_t n = self->numel;
  int f32 = self->dtype == CT_F32;
  ct_tensor *r;
  double *xf, v;
  if (reduction == CT__NN_NONE) {
    if (!(r = ct__empty_as(self))) return NULL;
    if (f32) ct__nn_mse_sq_float((const float *)ct_data_ptr(self), (const float *)ct_data_ptr(target), (float *)ct_data_ptr(r), n);
    else ct__nn_mse_sq_double((const double *)ct_data_ptr(self), (const double *)ct_data_ptr(target), (double *)ct_data_ptr(r), n);
    return r;
  }
  if (!(xf = (double *)ct__scratch_alloc(sizeof(double) * (size_t)n))) return NULL;
  if (f32) ct__nn_mse_sq_row_float((const float *)ct_data_ptr(self), (const float *)ct_data_ptr(target), xf, n);
  else ct__nn_mse_sq_row_double((const double *)ct_data_ptr(self), (const double *)ct_data_ptr(target), xf, n);
  v = ct__rd_psum(xf, n);
  if (reduction == CT__NN_MEAN) v /= (double)n;
  ct__scratch_free(xf, sizeof(double) * (size_t)n);
  if ((r = ct__empty("mse_loss", 0, NULL, (ct_dtype)self->dtype, CT_CPU)) != NULL) ct__store_double(ct_data_ptr(r), (ct_dtype)r->dtype, v);
  return r;
}
static ct_tensor *ct__k_mse_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_pair("mse_loss", "mse_cpu", self, target, reduction) != CT_OK) return NULL;
  if (ct__nn_mse_host(self, target, NULL, reduction) && (self->numel || reduction == CT__NN_NONE)) /* (empty and reduced: the composite's NaN or 0) */
    return ct__nn_mse_loss_host(self, target, reduction);
  CT_SCOPE { r = ct_keep(ct__nn_mse_loss(self, target, reduction)); }
  return r;
}
/* d mse_loss: (self - target) * norm * grad_output (aten's order, so the same
 * roundings), norm 2 / numel for mean, else 2; numel is the broadcast one */
static double ct__nn_mse_norm(ct_tensor *self, ct_tensor *target, int64_t reduction) {
  int64_t shape[CT_MAX_DIMS], numel = 1;
  int n = ct_broadcast_shapes("mse_loss_backward", self->ndim, self->sizes, target->ndim, target->sizes, shape), i;
  for (i = 0; i < n; i++) numel *= shape[i];
  return reduction == CT__NN_MEAN ? 2.0 / (double)numel : 2.0;
}
static ct_tensor *ct__k_mse_loss_backward(ct_keyset ks, ct_tensor *grad_output, ct_tensor *self, ct_tensor *target, int64_t reduction) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_reduction("mse_loss_backward", reduction) != CT_OK) return NULL;
  if (ct__nn_mse_host(self, target, grad_output, reduction)) {
    double norm = ct__nn_mse_norm(self, target, reduction);
    int each = reduction == CT__NN_NONE;
    if (!(r = ct__empty_as(self)) || !r->numel) return r;
    if (self->dtype == CT_F32)
      ct__nn_mse_grad_float((const float *)ct_data_ptr(self), (const float *)ct_data_ptr(target), (const float *)ct_data_ptr(grad_output),
                            each, (float)norm, (float *)ct_data_ptr(r), r->numel);
    else
      ct__nn_mse_grad_double((const double *)ct_data_ptr(self), (const double *)ct_data_ptr(target),
                             (const double *)ct_data_ptr(grad_output), each, norm, (double *)ct_data_ptr(r), r->numel);
    return r;
  }
  CT_SCOPE {
    ct_tensor *d = ct_sub(self, target);
    if (d && ct_mul_scalar_(d, ct_float(ct__nn_mse_norm(self, target, reduction))) == CT_OK) r = ct_keep(ct_mul(d, grad_output));
  }
  return r;
}
/* mse_loss_backward is linear in grad_output and in (self - target): its
 * self derivative is norm * grad_output * grad */
static ct_tensor *ct__nn_mse_double_backward(ct_tensor *grad, ct_tensor *grad_output, ct_tensor *self, ct_tensor *target,
                                             int64_t reduction) {
  return ct_mul_scalar(ct_mul(grad, grad_output), ct_float(ct__nn_mse_norm(self, target, reduction)));
}
static ct_status ct__meta_mse_loss(ct__structured *st, ct_tensor *self, ct_tensor *target, int64_t reduction) {
  if (ct__nn_check_pair(st->op, "mse_cpu", self, target, reduction) != CT_OK) return ct_last_error();
  return ct__nn_set_pair_output(st, self, target, reduction, ct__result_type(self, target));
}
static ct_status ct__impl_mse_loss(ct_tensor *self, ct_tensor *target, int64_t reduction, ct_tensor *out) {
  ct_status s = CT_OK;
  CT_SCOPE { s = ct__nn_loss_into(ct__nn_mse_loss(self, target, reduction), out); }
  return s;
}
static ct_tensor *ct__k_l1_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_reduction("l1_loss", reduction) != CT_OK) return NULL;
  CT_SCOPE { r = ct_keep(ct__nn_reduce(ct__nn_abs(ct_sub(self, target)), reduction)); }
  return r;
}
/* |d| < beta ? d^2 / (2 beta) : |d| - beta / 2, written as
 * c^2 / (2 beta) + (|d| - c) with c = min(|d|, beta) */
static ct_status ct__nn_smooth_l1_check(const char *op, ct_tensor *self, ct_tensor *target, int64_t reduction, double beta) {
  if (ct__nn_check_pair(op, "smooth_l1_cpu", self, target, reduction) != CT_OK) return ct_last_error();
  if (beta < 0) return ct_fail(CT_ERR_INVALID, op, "smooth_l1_loss does not support negative values for beta.");
  return CT_OK;
}
static ct_tensor *ct__nn_smooth_l1_loss(ct_tensor *self, ct_tensor *target, int64_t reduction, double beta) {
  ct_tensor *a = ct__nn_abs(ct_sub(self, target)), *l = a;
  if (beta > 0) {
    ct_tensor *c = ct_add_scalar(ct_neg(ct_relu(ct_add_scalar(ct_neg(a), ct_float(beta)))), ct_float(beta));
    l = ct_add(ct_mul_scalar(ct_mul(c, c), ct_float(0.5 / beta)), ct_sub(a, c));
  }
  return ct__nn_reduce(l, reduction);
}
static ct_tensor *ct__k_smooth_l1_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction, double beta) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_smooth_l1_check("smooth_l1_loss", self, target, reduction, beta) != CT_OK) return NULL;
  CT_SCOPE { r = ct_keep(ct__nn_smooth_l1_loss(self, target, reduction, beta)); }
  return r;
}
static ct_status ct__meta_smooth_l1_loss(ct__structured *st, ct_tensor *self, ct_tensor *target, int64_t reduction, double beta) {
  if (ct__nn_smooth_l1_check(st->op, self, target, reduction, beta) != CT_OK) return ct_last_error();
  return ct__nn_set_pair_output(st, self, target, reduction, ct__result_type(self, target));
}
static ct_status ct__impl_smooth_l1_loss(ct_tensor *self, ct_tensor *target, int64_t reduction, double beta, ct_tensor *out) {
  ct_status s = CT_OK;
  CT_SCOPE { s = ct__nn_loss_into(ct__nn_smooth_l1_loss(self, target, reduction, beta), out); }
  return s;
}
/* log_target ? exp(t) (t - x) : xlogy(t, t) - t x */
static ct_tensor *ct__k_kl_div(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction, bool log_target) {
  static const char *op = "kl_div";
  ct_tensor *r = NULL;
  (void)ks;
  if (!ct_dtype_is_floating(ct__result_type(self, target)))
    return ct_fail(CT_ERR_DTYPE, op, "kl_div: Integral inputs not supported."), (ct_tensor *)NULL;
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *l = log_target ? ct_mul(ct_exp(target), ct_sub(target, self))
                              : ct_sub(ct__nn_fn(CT__NN_XLOGX, ct_to_dtype(target, ct_dtype_is_floating((ct_dtype)target->dtype) ? (ct_dtype)target->dtype : CT_F32)),
                                       ct_mul(target, self));
    r = ct_keep(ct__nn_reduce(l, reduction));
  }
  return r;
}

/* ================= cross_entropy_loss (CompositeImplicitAutograd) ================= */
/* a constant of dtype and target's shape: 1 where target != ignore_index */
static ct_tensor *ct__nn_keep_mask(ct_tensor *target, int64_t ignore_index, ct_dtype dtype) {
  static const char *op = "cross_entropy_loss";
  ct_tensor *m = ct__empty(op, target->ndim, target->sizes, dtype, ct__host_device(target)), *t;
  int64_t i;
  if (!m || ct__is_meta(m) || !m->numel) return ct__track(m);
  if (!(t = ct__nn_i64(op, target))) return ct_release(m), (ct_tensor *)NULL;
  for (i = 0; i < target->numel; i++)
    ct__store_double((char *)ct_data_ptr(m) + (size_t)i * ct_dtype_size(dtype), dtype,
                     ((const int64_t *)ct_data_ptr(t))[i] != ignore_index);
  ct_release(t);
  return ct__track(ct__host_result(op, m, target->device));
}
static ct_tensor *ct__nn_class_view(ct_tensor *w, int ndim, int64_t cdim) {
  int64_t sh[CT_MAX_DIMS];
  int i;
  for (i = 0; i < ndim; i++) sh[i] = i == cdim ? w->numel : 1;
  return ct_view(w, ndim, sh);
}
static ct_tensor *ct__k_cross_entropy_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, ct_tensor *weight, int64_t reduction,
                                           int64_t ignore_index, double label_smoothing) {
  static const char *op = "cross_entropy_loss";
  ct_tensor *r = NULL;
  int64_t cdim = self->ndim == 1 ? 0 : 1, C;
  char b1[160];
  (void)ks;
  if (self->ndim < 1) return ct_fail(CT_ERR_RANK, op, "Expected 1 or more dimensions (got 0)"), (ct_tensor *)NULL;
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
    return ct_fail(CT_ERR_INVALID, op, "label_smoothing must be between 0.0 and 1.0. Got: %g", label_smoothing), (ct_tensor *)NULL;
  C = self->sizes[cdim];
  if (weight && (weight->ndim != 1 || weight->numel != C))
    return ct_fail(CT_ERR_SHAPE, op, "weight tensor should be defined either for all %lld classes or no classes but got weight tensor of shape: %s",
                   (long long)C, ct__nn_shape(weight, b1, sizeof b1)),
           (ct_tensor *)NULL;
  if (ct_same_shape(self, target)) { /* class probabilities */
    if (!ct_dtype_is_floating((ct_dtype)target->dtype))
      return ct_fail(CT_ERR_DTYPE, op, "Expected floating point type for target with class probabilities, got %s",
                     ct__dtype_torch_name((ct_dtype)target->dtype)),
             (ct_tensor *)NULL;
    if (ignore_index >= 0)
      return ct_fail(CT_ERR_INVALID, op, "ignore_index is not supported for floating point target"), (ct_tensor *)NULL;
    CT_SCOPE {
      ct_tensor *t = target, *lsm = ct_log_softmax(self, cdim, CT_DTYPE_NONE), *prod, *l;
      if (label_smoothing > 0)
        t = ct_add_scalar(ct_mul_scalar(target, ct_float(1 - label_smoothing)), ct_float(label_smoothing / (double)C));
      prod = ct_mul(lsm, t);
      if (weight) prod = ct_mul(prod, ct__nn_class_view(weight, self->ndim, cdim));
      if (reduction == CT__NN_NONE) l = ct_neg(ct_sum_dim(prod, 1, &cdim, false));
      else if (reduction == CT__NN_SUM) l = ct_neg(ct_sum(prod));
      else l = ct_div_scalar(ct_neg(ct_sum(prod)), ct_float(C ? (double)self->numel / (double)C : 0.0));
      r = ct_keep(l);
    }
    return r;
  }
  CT_SCOPE {
    ct_tensor *lsm = ct_log_softmax(self, cdim, CT_DTYPE_NONE);
    ct_tensor *nll = lsm ? ct_nll_loss(lsm, target, weight, reduction, ignore_index) : NULL;
    if (nll && label_smoothing > 0) {
      ct_tensor *mask = ct__nn_keep_mask(target, ignore_index, (ct_dtype)lsm->dtype);
      ct_tensor *p = weight ? ct_mul(lsm, ct__nn_class_view(weight, self->ndim, cdim)) : lsm;
      ct_tensor *smooth = ct_mul(ct_neg(ct_sum_dim(p, 1, &cdim, false)), mask), *ret;
      if (reduction == CT__NN_MEAN) ret = ct_div(ct_sum(smooth), ct__nn_nll_total_weight(lsm, target, weight, ignore_index));
      else if (reduction == CT__NN_SUM) ret = ct_sum(smooth);
      else ret = smooth;
      nll = ct_add(ct_mul_scalar(nll, ct_float(1 - label_smoothing)), ct_mul_scalar(ret, ct_float(label_smoothing / (double)C)));
    }
    r = ct_keep(nll);
  }
  return r;
}

/* ================= normalisation (CompositeImplicitAutograd) =================
 * Statistics in float32 at least (f16/bf16 inputs are upcast, then the
 * result is cast back), rstd = 1/sqrt(var + eps) with the biased variance. */
static ct_tensor *ct__nn_upcast(ct_tensor *x) {
  return x && (x->dtype == CT_F16 || x->dtype == CT_BF16) ? ct_to_dtype(x, CT_F32) : x;
}
/* (x - mean) * rstd over dims (keepdim); *mean_out / *var_out get the statistics */
static ct_tensor *ct__nn_normalize(ct_tensor *x, int n, const int64_t *dims, double eps, ct_tensor **mean_out, ct_tensor **var_out) {
  ct_tensor *mu = ct_mean_dim(x, n, dims, true), *xc = ct_sub(x, mu), *var = ct_mean_dim(ct_mul(xc, xc), n, dims, true);
  if (mean_out) *mean_out = mu;
  if (var_out) *var_out = var;
  return ct_mul(xc, ct__nn_fn(CT__NN_RSQRT, ct_add_scalar(var, ct_float(eps))));
}
static ct_status ct__nn_check_normalized(const char *op, ct_tensor *input, ct_int_list shape, ct_tensor *weight, ct_tensor *bias) {
  char b1[160], b2[160];
  int64_t i, k = shape.n < 0 ? 0 : shape.n;
  int ok = k <= input->ndim;
  if (k < 1)
    return ct_fail(CT_ERR_SHAPE, op, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but got normalized_shape = []");
  for (i = 0; ok && i < k; i++) ok = input->sizes[input->ndim - k + i] == shape.data[i];
  if (!ok) {
    char b3[160];
    int kk = (int)(k > CT_MAX_DIMS ? CT_MAX_DIMS : k);
    ct_shape_format(kk, shape.data, b1, sizeof b1);
    return ct_fail(CT_ERR_SHAPE, op, "Given normalized_shape=%s, expected input with shape [*, %s, but got input of size%s", b1,
                   b1 + 1, ct__nn_shape(input, b3, sizeof b3));
  }
  for (i = 0; i < 2; i++) {
    ct_tensor *p = i ? bias : weight;
    int same = p && p->ndim == k;
    int64_t j;
    for (j = 0; same && j < k; j++) same = p->sizes[j] == shape.data[j];
    if (p && !same)
      return ct_fail(CT_ERR_SHAPE, op, "Expected %s to be of same shape as normalized_shape, but got %s of shape %s and normalized_shape = %s",
                     i ? "bias" : "weight", i ? "bias" : "weight", ct__nn_shape(p, b1, sizeof b1),
                     ct_shape_format((int)k, shape.data, b2, sizeof b2));
  }
  return ct__nn_check_floating(op, "LayerNormKernelImpl", (ct_dtype)input->dtype);
}
/* layer_norm in one host pass per row: contiguous f32/f64 CPU operands, the
 * host's own loops (layer_norm has its own derivative, so its kernel runs
 * below autograd: nothing inside it is recorded). The composite's
 * operations and roundings in its order (mean and variance as the reduction
 * engine's pairwise sums in double, rounded to T; (x - mean) in T; var + eps
 * in T; rsqrt in double, rounded; then * rstd, * weight, + bias in T), so
 * its bits, where the composite's nine ops cost several times more. */
#define CT__NN_PSUM_float ct__rd_psum_f32
#define CT__NN_PSUM_double ct__rd_psum
/* Rows go in blocks of CT__NN_LN_BLOCK, each step for the whole block before
 * the next: a row is one chain of dependent steps (mean, then deviations,
 * then variance, ...), its two sums latency-bound, and the block's
 * independent sums side by side overlap (about 1.4x on rows of 64). Each
 * row's operations and order are unchanged. xf: n * CT__NN_LN_BLOCK doubles. */
#define CT__NN_LN_BLOCK 4
#define CT__NN_LAYER_NORM_ROWS(T)                                                                                    \
  static void ct__nn_layer_norm_rows_##T(const T *x, const T *w, const T *b, T eps, int64_t rows, int64_t n, double *xf, \
                                         T *y) {                                                                     \
    int64_t r, i;                                                                                                    \
    int k, nk;                                                                                                       \
    for (r = 0; r < rows; r += nk, x += nk * n, y += nk * n) {                                                       \
      T mu[CT__NN_LN_BLOCK], rstd[CT__NN_LN_BLOCK];                                                                  \
      nk = rows - r < CT__NN_LN_BLOCK ? (int)(rows - r) : CT__NN_LN_BLOCK;                                           \
      for (k = 0; k < nk; k++) /* (each row read in place: ct__rd_psum's order and bits) */                          \
        mu[k] = (T)(CT__NN_PSUM_##T(x + k * n, n) / (double)n);                                                      \
      for (k = 0; k < nk; k++) {                                                                                     \
        const T *xk = x + k * n, m = mu[k];                                                                          \
        T *yk = y + k * n;                                                                                           \
        double *fk = xf + k * n;                                                                                     \
        for (i = 0; i < n; i++) {                                                                                    \
          T c = xk[i] - m, q = c * c;                                                                                \
          yk[i] = c, fk[i] = (double)q;                                                                              \
        }                                                                                                            \
      }                                                                                                              \
      for (k = 0; k < nk; k++) {                                                                                     \
        T var = (T)(ct__rd_psum(xf + k * n, n) / (double)n);                                                         \
        var = var + eps;                                                                                             \
        rstd[k] = (T)(1.0 / sqrt((double)var));                                                                      \
      }                                                                                                              \
      for (k = 0; k < nk; k++) {                                                                                     \
        T *yk = y + k * n, rs = rstd[k];                                                                             \
        for (i = 0; i < n; i++) yk[i] = yk[i] * rs;                                                                  \
        if (w)                                                                                                       \
          for (i = 0; i < n; i++) yk[i] = yk[i] * w[i];                                                              \
        if (b)                                                                                                       \
          for (i = 0; i < n; i++) yk[i] = yk[i] + b[i];                                                              \
      }                                                                                                              \
    }                                                                                                                \
  }
CT__NN_LAYER_NORM_ROWS(float)
CT__NN_LAYER_NORM_ROWS(double)
static ct_tensor *ct__nn_layer_norm_run_host(ct_tensor *input, int64_t n, ct_tensor *weight, ct_tensor *bias, double eps) {
  int64_t rows = input->numel / n;
  double *xf;
  ct_tensor *y = ct__empty_as(input);
  if (!y) return NULL;
  if (!(xf = (double *)ct__scratch_alloc(sizeof(double) * (size_t)n * CT__NN_LN_BLOCK))) return ct_release(y), (ct_tensor *)NULL;
  if (input->dtype == CT_F32)
    ct__nn_layer_norm_rows_float((const float *)ct_data_ptr(input), weight ? (const float *)ct_data_ptr(weight) : NULL,
                                 bias ? (const float *)ct_data_ptr(bias) : NULL, (float)eps, rows, n, xf, (float *)ct_data_ptr(y));
  else
    ct__nn_layer_norm_rows_double((const double *)ct_data_ptr(input), weight ? (const double *)ct_data_ptr(weight) : NULL,
                                  bias ? (const double *)ct_data_ptr(bias) : NULL, eps, rows, n, xf, (double *)ct_data_ptr(y));
  ct__scratch_free(xf, sizeof(double) * (size_t)n * CT__NN_LN_BLOCK);
  return y;
}
static ct_tensor *ct__k_layer_norm(ct_keyset ks, ct_tensor *input, ct_int_list normalized_shape, ct_tensor *weight, ct_tensor *bias,
                                   double eps, bool cudnn_enable) {
  static const char *op = "layer_norm";
  int64_t dims[CT_MAX_DIMS];
  int i, k;
  ct_tensor *r = NULL;
  (void)ks;
  (void)cudnn_enable;
  if (ct__nn_check_normalized(op, input, normalized_shape, weight, bias) != CT_OK) return NULL;
  if (ct__nn_fused_host(input, weight, bias)) {
    int64_t n = 1, j;
    for (j = 0; j < normalized_shape.n; j++) n *= normalized_shape.data[j];
    return ct__nn_layer_norm_run_host(input, n, weight, bias, eps);
  }
  k = (int)normalized_shape.n;
  for (i = 0; i < k; i++) dims[i] = input->ndim - k + i;
  CT_SCOPE {
    ct_tensor *y = ct__nn_normalize(ct__nn_upcast(input), k, dims, eps, NULL, NULL);
    if (weight) y = ct_mul(y, ct__nn_upcast(weight));
    if (bias) y = ct_add(y, ct__nn_upcast(bias));
    r = ct_keep(ct_to_dtype(y, (ct_dtype)input->dtype));
  }
  return r;
}
/* d layer_norm, with x^ = (x - mean) * rstd over the normalized dims (the
 * statistics recomputed from input, as the forward computes them) and
 * g' = grad * weight: d input = rstd * (g' - mean(g') - x^ * mean(g' x^)),
 * d weight = the sum of grad * x^ over the leading dims, d bias = the sum of
 * grad (PyTorch's layer_norm_backward). With create_graph (grad mode on in
 * backward) the formula runs as recorded ops, so double backward follows;
 * otherwise contiguous f32/f64 host operands take three fused passes per
 * row (statistics, row sums and the weight's column sums in double, so
 * within rounding of the formula's float ops, not their bits). which: 0
 * input, 1 weight. */
#define CT__NN_LAYER_NORM_BACK(T)                                                                                    \
  static void ct__nn_layer_norm_back_##T(const T *x, const T *g, const T *w, double eps, int64_t rows, int64_t n, T *dx,   \
                                         double *dw) {                                                               \
    int64_t r, i;                                                                                                    \
    int k, nk, l;                                                                                                    \
    for (r = 0; r < rows; r += nk, x += nk * n, g += nk * n) { /* blocks of rows, as the forward's */                \
      double mu[CT__NN_LN_BLOCK], rstd[CT__NN_LN_BLOCK], sa[CT__NN_LN_BLOCK], sb[CT__NN_LN_BLOCK];                   \
      nk = rows - r < CT__NN_LN_BLOCK ? (int)(rows - r) : CT__NN_LN_BLOCK;                                           \
      for (k = 0; k < nk; k++) { /* three passes per row, in double: mean; variance and the two row sums; out */     \
        const T *xk = x + k * n;                                                                                     \
        double s[4] = {0, 0, 0, 0};                                                                                  \
        for (i = 0; i + 4 <= n; i += 4)                                                                              \
          for (l = 0; l < 4; l++) s[l] += (double)xk[i + l];                                                         \
        for (; i < n; i++) s[0] += (double)xk[i];                                                                    \
        mu[k] = ((s[0] + s[1]) + (s[2] + s[3])) / (double)n;                                                         \
      }                                                                                                              \
      for (k = 0; k < nk; k++) {                                                                                     \
        const T *xk = x + k * n, *gk = g + k * n;                                                                    \
        double v[4] = {0, 0, 0, 0}, a[4] = {0, 0, 0, 0}, b[4] = {0, 0, 0, 0}, m = mu[k];                             \
        for (i = 0; i + 4 <= n; i += 4)                                                                              \
          for (l = 0; l < 4; l++) {                                                                                  \
            double c = (double)xk[i + l] - m, gw = w ? (double)gk[i + l] * (double)w[i + l] : (double)gk[i + l];     \
            v[l] += c * c, a[l] += gw, b[l] += gw * c;                                                               \
          }                                                                                                          \
        for (; i < n; i++) {                                                                                         \
          double c = (double)xk[i] - m, gw = w ? (double)gk[i] * (double)w[i] : (double)gk[i];                       \
          v[0] += c * c, a[0] += gw, b[0] += gw * c;                                                                 \
        }                                                                                                            \
        rstd[k] = 1.0 / sqrt(((v[0] + v[1]) + (v[2] + v[3])) / (double)n + eps);                                     \
        sa[k] = ((a[0] + a[1]) + (a[2] + a[3])) / (double)n;                                                         \
        sb[k] = ((b[0] + b[1]) + (b[2] + b[3])) * rstd[k] * rstd[k] / (double)n; /* mean(g' x^) / rstd */            \
      }                                                                                                              \
      for (k = 0; k < nk; k++) {                                                                                     \
        const T *xk = x + k * n, *gk = g + k * n;                                                                    \
        double m = mu[k], rs = rstd[k];                                                                              \
        if (dx) {                                                                                                    \
          for (i = 0; i < n; i++) {                                                                                  \
            double c = (double)xk[i] - m, gw = w ? (double)gk[i] * (double)w[i] : (double)gk[i];                     \
            dx[i] = (T)((gw - sa[k] - c * sb[k]) * rs);                                                              \
          }                                                                                                          \
          dx += n;                                                                                                   \
        }                                                                                                            \
        if (dw)                                                                                                      \
          for (i = 0; i < n; i++) dw[i] += (double)gk[i] * (((double)xk[i] - m) * rs);                               \
      }                                                                                                              \
    }                                                                                                                \
  }
CT__NN_LAYER_NORM_BACK(float)
CT__NN_LAYER_NORM_BACK(double)
/* dx (when dx_out) and dw (when dw_out, [n]) of contiguous host operands, in
 * one set of passes over the rows. */
static ct_status ct__nn_layer_norm_back_host(ct_tensor *grad, ct_tensor *input, int64_t n, ct_tensor *weight, double eps,
                                            ct_tensor **dx_out, ct_tensor **dw_out) {
  int64_t rows = input->numel / n, i, wshape[1];
  double *dw = NULL;
  ct_tensor *dx = NULL, *w = NULL;
  int f32 = input->dtype == CT_F32;
  wshape[0] = n;
  if (dx_out && !(dx = ct__empty_as(input))) return ct_last_error();
  if (dw_out) {
    if (!(w = ct__empty("layer_norm_backward", 1, wshape, (ct_dtype)input->dtype, input->device)) ||
        !(dw = (double *)ct__scratch_alloc(sizeof(double) * (size_t)n))) {
      ct_release(dx), ct_release(w);
      return ct_fail(CT_ERR_OOM, "layer_norm_backward", "out of memory");
    }
    for (i = 0; i < n; i++) dw[i] = 0;
  }
  if (f32)
    ct__nn_layer_norm_back_float((const float *)ct_data_ptr(input), (const float *)ct_data_ptr(grad),
                                 weight ? (const float *)ct_data_ptr(weight) : NULL, eps, rows, n,
                                 dx ? (float *)ct_data_ptr(dx) : NULL, dw);
  else
    ct__nn_layer_norm_back_double((const double *)ct_data_ptr(input), (const double *)ct_data_ptr(grad),
                                  weight ? (const double *)ct_data_ptr(weight) : NULL, eps, rows, n,
                                  dx ? (double *)ct_data_ptr(dx) : NULL, dw);
  if (dw) {
    for (i = 0; i < n; i++) {
      if (f32) ((float *)ct_data_ptr(w))[i] = (float)dw[i];
      else ((double *)ct_data_ptr(w))[i] = dw[i];
    }
    ct__scratch_free(dw, sizeof(double) * (size_t)n);
  }
  if (dx_out) *dx_out = dx;
  if (dw_out) *dw_out = w;
  return CT_OK;
}
/* The input's and the weight's gradients (outs[0], outs[1], each where
 * mask says; NULL elsewhere): one call for both, as PyTorch's
 * native_layer_norm_backward with its output mask, so that the fused host
 * passes run once. On an error nothing is returned. */
static ct_status ct__nn_layer_norm_backward(ct_tensor *grad, ct_tensor *input, ct_int_list shape, ct_tensor *weight, double eps,
                                            const bool *mask, ct_tensor **outs) {
  int k = (int)shape.n, nb = input->ndim - k, i;
  int64_t dims[CT_MAX_DIMS], lead[CT_MAX_DIMS], n = 1;
  ct_tensor *dx = NULL, *dw = NULL;
  int need_w = mask[1] && weight;
  for (i = 0; i < k; i++) dims[i] = nb + i, n *= shape.data[i];
  for (i = 0; i < nb; i++) lead[i] = i;
  if (!ct__grad_mode() && ct__nn_fused_host(input, weight, NULL) && grad->dtype == input->dtype &&
      grad->device.type == CT_DEVICE_CPU && ct__pw_contiguous(grad) && ct_same_shape(grad, input)) {
    ct_tensor *w = NULL;
    if (ct__nn_layer_norm_back_host(grad, input, n, weight, eps, mask[0] ? &dx : NULL, need_w ? &w : NULL) != CT_OK)
      return ct_last_error();
    if (w) { /* (the weight's shape; a frontend's result, tracked as the formulas' are) */
      dw = ct_view(w, k, shape.data);
      ct_release(w);
      if (!dw) return ct_release(dx), ct_last_error();
    }
    outs[0] = ct__track(dx), outs[1] = dw;
    return CT_OK;
  }
  CT_SCOPE {
    ct_tensor *x = ct__nn_upcast(input), *g = ct__nn_upcast(grad), *var = NULL;
    ct_tensor *xh = ct__nn_normalize(x, k, dims, eps, NULL, &var);
    if (need_w) {
      ct_tensor *p = ct_mul(g, xh);
      dw = ct_keep(ct_to_dtype(nb > 0 ? ct_sum_dim(p, nb, lead, false) : p, (ct_dtype)weight->dtype));
    }
    if (mask[0]) {
      ct_tensor *gw = weight ? ct_mul(g, ct__nn_upcast(weight)) : g;
      ct_tensor *rstd = ct__nn_fn(CT__NN_RSQRT, ct_add_scalar(var, ct_float(eps)));
      ct_tensor *a = ct_mean_dim(gw, k, dims, true), *b = ct_mean_dim(ct_mul(gw, xh), k, dims, true);
      dx = ct_keep(ct_to_dtype(ct_mul(ct_sub(ct_sub(gw, a), ct_mul(xh, b)), rstd), (ct_dtype)input->dtype));
    }
  }
  if ((mask[0] && !dx) || (need_w && !dw)) /* (a kept result belongs to the caller's scope, as the formulas' do) */
    return ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_STATE, "layer_norm_backward", "no gradient computed");
  outs[0] = dx, outs[1] = dw;
  return CT_OK;
}
static ct_tensor *ct__nn_layer_norm_bias_backward(ct_tensor *grad, ct_int_list shape) {
  int nb = grad->ndim - (int)shape.n, i;
  int64_t lead[CT_MAX_DIMS];
  for (i = 0; i < nb; i++) lead[i] = i;
  return nb > 0 ? ct_sum_dim(grad, nb, lead, false) : grad;
}
/* torch 2.x rms_norm: x * rsqrt(mean(x^2) + eps) in the op-math dtype, cast back, times weight;
 * eps None (NaN) is the op-math dtype's machine epsilon. */
static ct_tensor *ct__k_rms_norm(ct_keyset ks, ct_tensor *input, ct_int_list normalized_shape, ct_tensor *weight, double eps) {
  static const char *op = "rms_norm";
  int64_t dims[CT_MAX_DIMS];
  int i, k;
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_normalized(op, input, normalized_shape, weight, NULL) != CT_OK) return NULL;
  k = (int)normalized_shape.n;
  for (i = 0; i < k; i++) dims[i] = input->ndim - k + i;
  if (eps != eps) eps = input->dtype == CT_F64 ? DBL_EPSILON : FLT_EPSILON;
  CT_SCOPE {
    ct_tensor *x = ct__nn_upcast(input);
    ct_tensor *ms = ct_add_scalar(ct_mean_dim(ct_mul(x, x), k, dims, true), ct_float(eps));
    ct_tensor *y = ct_to_dtype(ct_mul(x, ct__nn_fn(CT__NN_RSQRT, ms)), (ct_dtype)input->dtype);
    if (weight) y = ct_mul(y, weight);
    r = ct_keep(y);
  }
  return r;
}
/* weight/bias-like per-channel tensors of (N, C, *) inputs */
static ct_status ct__nn_check_channels(const char *op, const char *what, ct_tensor *p, ct_tensor *input) {
  char b1[160], b2[160];
  if (p && (p->ndim != 1 || p->numel != input->sizes[1]))
    return ct_fail(CT_ERR_SHAPE, op, "Expected %s to be a vector of size equal to the number of channels in input, but got %s of shape %s and input of shape %s",
                   what, what, ct__nn_shape(p, b1, sizeof b1), ct__nn_shape(input, b2, sizeof b2));
  return CT_OK;
}
/* y * weight + bias per channel (dim 1), in y's (upcast) dtype, then cast to dtype */
static ct_tensor *ct__nn_affine(ct_tensor *y, ct_tensor *weight, ct_tensor *bias, int ndim, ct_dtype dtype) {
  if (weight) y = ct_mul(y, ct__nn_class_view(ct__nn_upcast(weight), ndim, 1));
  if (bias) y = ct_add(y, ct__nn_class_view(ct__nn_upcast(bias), ndim, 1));
  return y ? ct_to_dtype(y, dtype) : NULL;
}
static ct_tensor *ct__k_group_norm(ct_keyset ks, ct_tensor *input, int64_t num_groups, ct_tensor *weight, ct_tensor *bias,
                                   double eps, bool cudnn_enabled) {
  static const char *op = "group_norm";
  ct_tensor *r = NULL;
  int64_t N, C, sh[3], two = 2;
  char b1[160];
  int i;
  (void)ks;
  (void)cudnn_enabled;
  if (input->ndim < 2)
    return ct_fail(CT_ERR_RANK, op, "Expected at least 2 dimensions for input tensor but received %d", input->ndim), (ct_tensor *)NULL;
  if (ct__nn_check_floating(op, "GroupNormKernelImpl", (ct_dtype)input->dtype) != CT_OK) return NULL;
  N = input->sizes[0], C = input->sizes[1];
  if (num_groups <= 0 || C % num_groups)
    return ct_fail(CT_ERR_SHAPE, op, "Expected number of channels in input to be divisible by num_groups, but got input of shape %s and num_groups=%lld",
                   ct__nn_shape(input, b1, sizeof b1), (long long)num_groups),
           (ct_tensor *)NULL;
  if (ct__nn_check_channels(op, "weight", weight, input) != CT_OK || ct__nn_check_channels(op, "bias", bias, input) != CT_OK)
    return NULL;
  sh[0] = N, sh[1] = num_groups, sh[2] = C / num_groups;
  for (i = 2; i < input->ndim; i++) sh[2] = ct__mul_sat(sh[2], input->sizes[i]);
  if (input->numel == 0) sh[0] = sh[1] = sh[2] = 0; /* (an empty input's other sizes may multiply past int64) */
  CT_SCOPE {
    ct_tensor *x = ct_reshape(ct__nn_upcast(input), 3, sh);
    ct_tensor *y = ct_reshape(ct__nn_normalize(x, 1, &two, eps, NULL, NULL), input->ndim, input->sizes);
    r = ct_keep(ct__nn_affine(y, weight, bias, input->ndim, (ct_dtype)input->dtype));
  }
  return r;
}
static ct_tensor *ct__k_batch_norm(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_tensor *running_mean,
                                   ct_tensor *running_var, bool training, double momentum, double eps, bool cudnn_enabled) {
  static const char *op = "batch_norm";
  ct_tensor *r = NULL;
  int64_t dims[CT_MAX_DIMS], C, count;
  int i, n = 0;
  (void)ks;
  (void)cudnn_enabled;
  if (training && input->ndim >= 1) { /* torch.nn.functional.batch_norm's _verify_batch_size */
    int64_t per_channel = input->sizes[0];
    char b1[160];
    for (i = 2; i < input->ndim; i++) per_channel = ct__mul_sat(per_channel, input->sizes[i]);
    if (per_channel == 1)
      return ct_fail(CT_ERR_SHAPE, op, "Expected more than 1 value per channel when training, got input size torch.Size(%s)",
                     ct__nn_shape(input, b1, sizeof b1)),
             (ct_tensor *)NULL;
  }
  if (input->ndim < 2)
    return ct_fail(CT_ERR_RANK, op, "Expected at least 2 dimensions for input tensor but received %d", input->ndim), (ct_tensor *)NULL;
  if (input->numel == 0) { /* as _batch_norm_impl_index: input * weight[0] + bias[0], no stats, no other checks */
    CT_SCOPE {
      ct_tensor *y = ct_clone(input);
      if (y && weight) y = ct_mul(y, ct_select(weight, 0, 0));
      if (y && bias) y = ct_add(y, ct_select(bias, 0, 0));
      r = ct_keep(y);
    }
    return r;
  }
  if (ct__nn_check_floating(op, "batch_norm", (ct_dtype)input->dtype) != CT_OK) return NULL;
  if (ct__nn_check_channels(op, "weight", weight, input) != CT_OK || ct__nn_check_channels(op, "bias", bias, input) != CT_OK ||
      ct__nn_check_channels(op, "running_mean", running_mean, input) != CT_OK ||
      ct__nn_check_channels(op, "running_var", running_var, input) != CT_OK)
    return NULL;
  if (!training && (!running_mean || !running_var))
    return ct_fail(CT_ERR_INVALID, op, "%s must be defined in evaluation mode", running_mean ? "running_var" : "running_mean"),
           (ct_tensor *)NULL;
  C = input->sizes[1];
  count = C ? input->numel / C : 0;
  for (i = 0; i < input->ndim; i++)
    if (i != 1) dims[n++] = i;
  CT_SCOPE {
    ct_tensor *x = ct__nn_upcast(input), *y = NULL;
    if (training) {
      ct_tensor *mean = NULL, *var = NULL;
      y = ct__nn_normalize(x, n, dims, eps, &mean, &var);
      if (y && (running_mean || running_var)) {
        CT_NO_GRAD { /* running stats: momentum update, unbiased variance; not differentiable */
          ct_status st = CT_OK;
          if (running_mean)
            st = ct_copy_(running_mean, ct_add(ct_mul_scalar(running_mean, ct_float(1 - momentum)),
                                               ct_mul_scalar(ct_view(mean, 1, &C), ct_float(momentum))));
          if (st == CT_OK && running_var)
            st = ct_copy_(running_var, ct_add(ct_mul_scalar(running_var, ct_float(1 - momentum)),
                                              ct_mul_scalar(ct_view(var, 1, &C), ct_float(momentum * (double)count / (double)(count - 1)))));
          if (st != CT_OK) y = NULL;
        }
      }
    } else {
      ct_tensor *mean = ct__nn_class_view(ct_detach(running_mean), input->ndim, 1);
      ct_tensor *var = ct__nn_class_view(ct_detach(running_var), input->ndim, 1);
      y = ct_mul(ct_sub(x, mean), ct__nn_fn(CT__NN_RSQRT, ct_add_scalar(var, ct_float(eps))));
    }
    r = ct_keep(ct__nn_affine(y, weight, bias, input->ndim, (ct_dtype)input->dtype));
  }
  return r;
}

/* ================= out= variants: the functional result copied into out ================= */
static ct_status ct__nn_into_out(const char *op, ct_tensor *r, ct_tensor *out) {
  ct_status st = CT_OK;
  if (!r) return ct_last_error();
  if (r->dtype != out->dtype && !ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype))
    st = ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name((ct_dtype)r->dtype),
                 ct__dtype_torch_name((ct_dtype)out->dtype));
  else if (!ct__out_device_ok(op, out, r->device) || ct__check_writable(op, out) != CT_OK)
    st = ct_last_error();
  else if ((st = ct__resize_out(op, out, r->ndim, r->sizes)) == CT_OK && (st = ct__copy_impl(out, r)) == CT_OK)
    ct__bump_version(out);
  ct_release(r);
  return st;
}

/* ---- scaled_dot_product_attention: softmax(q k^T * scale + mask) v, the math
 * path of PyTorch 2.x, composed of ops so autograd (and meta) come for free.
 * A bool mask says which positions take part; a float mask is added. */
static ct_tensor *ct__k_sdpa(ct_keyset ks, ct_tensor *q, ct_tensor *k, ct_tensor *v, ct_tensor *mask, double dropout_p,
                             bool is_causal, double scale) {
  static const char *op = "scaled_dot_product_attention";
  ct_tensor *r = NULL;
  int64_t L, S, E;
  (void)ks;
  if (q->ndim < 2 || k->ndim < 2 || v->ndim < 2)
    return ct_fail(CT_ERR_RANK, op, "query, key and value need at least 2 dims, got %dD, %dD and %dD", q->ndim, k->ndim,
                   v->ndim), (ct_tensor *)NULL;
  L = q->sizes[q->ndim - 2], S = k->sizes[k->ndim - 2], E = q->sizes[q->ndim - 1];
  if (k->sizes[k->ndim - 1] != E || v->sizes[v->ndim - 2] != S)
    return ct_fail(CT_ERR_SHAPE, op, "query [.., %lld, %lld], key [.., %lld, %lld] and value [.., %lld, %lld] do not fit",
                   (long long)L, (long long)E, (long long)S, (long long)k->sizes[k->ndim - 1], (long long)v->sizes[v->ndim - 2],
                   (long long)v->sizes[v->ndim - 1]), (ct_tensor *)NULL;
  if (q->dtype != k->dtype || q->dtype != v->dtype || !ct_dtype_is_floating((ct_dtype)q->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "query, key and value must share one floating dtype, got %s, %s and %s",
                   ct_dtype_name((ct_dtype)q->dtype), ct_dtype_name((ct_dtype)k->dtype), ct_dtype_name((ct_dtype)v->dtype)),
           (ct_tensor *)NULL;
  if (mask && is_causal)
    return ct_fail(CT_ERR_INVALID, op, "explicit attn_mask should not be set when is_causal=True"), (ct_tensor *)NULL;
  if (mask && mask->dtype != CT_BOOL && mask->dtype != q->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "attn_mask must be bool or %s, got %s", ct_dtype_name((ct_dtype)q->dtype),
                   ct_dtype_name((ct_dtype)mask->dtype)), (ct_tensor *)NULL;
  if (!(dropout_p >= 0.0 && dropout_p <= 1.0))
    return ct_fail(CT_ERR_INVALID, op, "dropout_p must be in [0, 1], got %g", dropout_p), (ct_tensor *)NULL;
  CT_SCOPE {
    double s = scale == scale ? scale : 1.0 / sqrt((double)E);
    ct_tensor *attn = ct_mul_scalar(ct_matmul(q, ct_transpose(k, -2, -1)), ct_float(s));
    if (is_causal && attn) { /* position i attends to j <= i */
      int64_t sizes[2] = {L, S}, i, j;
      ct_tensor *keep = ct__empty(op, 2, sizes, CT_BOOL, ct__host_device(q));
      if (keep && keep->device.type != CT_DEVICE_META)
        for (i = 0; i < L; i++)
          for (j = 0; j < S; j++) ((bool *)ct_data_ptr(keep))[i * S + j] = j <= i;
      mask = ct__track(ct__host_result(op, keep, q->device));
    }
    if (mask && attn)
      attn = mask->dtype == CT_BOOL ? ct_masked_fill(attn, ct_logical_not(mask), ct_float(-INFINITY)) : ct_add(attn, mask);
    attn = attn ? ct_softmax(attn, -1, CT_DTYPE_NONE) : NULL;
    if (attn && dropout_p > 0) attn = ct_dropout(attn, dropout_p, true);
    r = ct_keep(attn ? ct_matmul(attn, v) : NULL);
  }
  return r;
}

/* ================= softmin and glu: composites =================
 * softmin = softmax(-self), as torch.nn.functional's (no aten op). glu:
 * a * sigmoid(b) over the halves of self along dim; aten's glu is a kernel
 * with glu_backward, whose gradient is the composite's. Checks in aten's
 * order: 0-dim, dim, even size, then the dtype (floating only). glu.out casts
 * into out as aten's (a TensorIterator output: can_cast). */
static ct_tensor *ct__k_softmin(ct_keyset ks, ct_tensor *self, int64_t dim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *n = ct_neg(self);
    r = n ? ct_keep(ct_softmax(n, dim, dtype)) : NULL;
  }
  return r;
}
/* ---- ctc_loss: the CTC forward (alpha) recursion in log space per sample, and its gradient
 * through the beta recursion (Graves et al. 2006), as PyTorch's CPU kernels: log_probs (T, N, C),
 * targets (N, S) padded or 1-D concatenated; log_alpha (N, T, 2 * max target length + 1). ---- */
typedef struct ct__ctc {
  int64_t T, N, C, S2, blank, maxlen;
  const int64_t *il, *tl;
  int64_t *toff; /* each sample's first target, and the stride of its targets */
  int64_t tstride;
  ct_tensor *lp, *tg; /* host float64 log_probs, host int64 targets */
} ct__ctc;
/* the checks and sizes (the meta steps'); load: also the host copies and the target range check (the impl steps') */
static ct_status ct__ctc_setup(const char *op, ct_tensor *log_probs, ct_tensor *targets, ct_int_list il, ct_int_list tl, int64_t blank,
                               int load, ct__ctc *c) {
  int64_t b, pos = 0;
  memset(c, 0, sizeof *c);
  if (log_probs->ndim != 3) return ct_fail(CT_ERR_RANK, op, "ctc_loss: log_probs must be 3-D (T, N, C), got %d dims", log_probs->ndim);
  if (ct__nn_check_floating(op, "ctc_loss_cpu", (ct_dtype)log_probs->dtype) != CT_OK || log_probs->dtype == CT_F16 ||
      log_probs->dtype == CT_BF16)
    return ct_fail(CT_ERR_DTYPE, op, "\"ctc_loss_cpu\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)log_probs->dtype));
  if (targets->dtype != CT_I64 && targets->dtype != CT_I32)
    return ct_fail(CT_ERR_DTYPE, op, "ctc_loss: targets must be int64 or int32, got %s", ct__dtype_torch_name((ct_dtype)targets->dtype));
  c->T = log_probs->sizes[0], c->N = log_probs->sizes[1], c->C = log_probs->sizes[2], c->blank = blank;
  if (blank < 0 || blank >= c->C) return ct_fail(CT_ERR_INDEX, op, "blank must be in label range");
  if (il.n != c->N) return ct_fail(CT_ERR_SHAPE, op, "input_lengths must be of size batch_size");
  if (tl.n != c->N) return ct_fail(CT_ERR_SHAPE, op, "target_lengths must be of size batch_size");
  if (targets->ndim != 1 && targets->ndim != 2) return ct_fail(CT_ERR_RANK, op, "ctc_loss: targets must be 1-D or 2-D");
  c->il = il.data, c->tl = tl.data;
  c->toff = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(c->N + 1));
  if (!c->toff) return ct_fail(CT_ERR_OOM, op, "out of memory");
  for (b = 0; b < c->N; b++) {
    if (tl.data[b] < 0) return ct_fail(CT_ERR_INVALID, op, "Expected target_lengths to be non-negative, but got %lld", (long long)tl.data[b]);
    if (il.data[b] < 0 || il.data[b] > c->T)
      return ct_fail(CT_ERR_INVALID, op, "Expected input_lengths to have value at most %lld, but got value %lld (while checking "
                     "arguments for ctc_loss_cpu)", (long long)c->T, (long long)il.data[b]);
    if (tl.data[b] > c->maxlen) c->maxlen = tl.data[b];
    if (targets->ndim == 2) {
      c->toff[b] = b * targets->sizes[1];
    } else {
      c->toff[b] = pos;
      pos += tl.data[b];
    }
  }
  if (targets->ndim == 2) {
    if (targets->sizes[0] != c->N) return ct_fail(CT_ERR_SHAPE, op, "Expected tensor to have size %lld at dimension 0, but got size %lld",
                                                 (long long)c->N, (long long)targets->sizes[0]);
    if (targets->sizes[1] < c->maxlen)
      return ct_fail(CT_ERR_SHAPE, op, "Expected tensor to have size at least %lld at dimension 1, but got size %lld for argument #2 "
                     "'targets' (while checking arguments for ctc_loss_cpu)", (long long)c->maxlen, (long long)targets->sizes[1]);
  } else if (targets->sizes[0] < pos) {
    return ct_fail(CT_ERR_SHAPE, op, "Expected tensor to have size at least %lld at dimension 0, but got size %lld", (long long)pos,
                   (long long)targets->sizes[0]);
  }
  c->S2 = 2 * c->maxlen + 1;
  if (!load) return CT_OK;
  c->lp = ct__nn_f64(op, log_probs);
  c->tg = c->lp ? ct__host_operand(op, targets) : NULL;
  if (!c->tg) return ct_last_error();
  for (b = 0; b < c->N; b++) {
    int64_t k;
    for (k = 0; k < tl.data[b]; k++) {
      int64_t v = ct_get_int(c->tg, c->toff[b] + k);
      if (v < 0 || v >= c->C) return ct_fail(CT_ERR_INDEX, op, "ctc_loss: target %lld is out of range for %lld classes", (long long)v, (long long)c->C);
    }
  }
  return CT_OK;
}
static void ct__ctc_free(ct__ctc *c) {
  ct__workspace_free(c->toff);
  ct_release(c->lp), ct_release(c->tg);
}
/* the label of extended position s (even: blank) */
static int64_t ct__ctc_label(const ct__ctc *c, int64_t b, int64_t s) { return s % 2 == 0 ? c->blank : ct_get_int(c->tg, c->toff[b] + s / 2); }
static double ct__ctc_lse3(double a, double b, double d) {
  double m = a > b ? a : b;
  m = m > d ? m : d;
  if (m == -INFINITY) return -INFINITY;
  return log(exp(a - m) + exp(b - m) + exp(d - m)) + m;
}
/* structured (ops/structured.h), functional only: _ctc_loss gives (neg_log_likelihood, log_alpha) */
static ct_status ct__meta_ctc_loss_forward(ct__structured *st, ct_tensor *log_probs, ct_tensor *targets, ct_int_list input_lengths,
                                           ct_int_list target_lengths, int64_t blank, bool zero_infinity) {
  ct__ctc c;
  int64_t shape[3];
  ct_status s = ct__ctc_setup(st->op, log_probs, targets, input_lengths, target_lengths, blank, 0, &c);
  (void)zero_infinity; /* (zero_infinity acts in the backward and in ctc_loss) */
  ct__ctc_free(&c);
  if (s != CT_OK) return s;
  shape[0] = c.N, shape[1] = c.T, shape[2] = c.S2;
  s = ct__set_output(st, 0, 1, &c.N, (ct_dtype)log_probs->dtype, log_probs->device);
  return s == CT_OK ? ct__set_output(st, 1, 3, shape, (ct_dtype)log_probs->dtype, log_probs->device) : s;
}
static ct_status ct__impl_ctc_loss_forward(ct_tensor *log_probs, ct_tensor *targets, ct_int_list input_lengths, ct_int_list target_lengths,
                                           int64_t blank, bool zero_infinity, ct_tensor *nll, ct_tensor *la) {
  static const char *op = "_ctc_loss";
  ct__ctc c;
  ct_status st;
  int64_t shape[3];
  (void)zero_infinity;
  if (ct__ctc_setup(op, log_probs, targets, input_lengths, target_lengths, blank, 1, &c) != CT_OK) return ct__ctc_free(&c), ct_last_error();
  shape[0] = c.N, shape[1] = c.T, shape[2] = c.S2;
  {
    ct_tensor *hn = ct__empty(op, 1, &c.N, CT_F64, CT_CPU), *ha = hn ? ct__empty(op, 3, shape, CT_F64, CT_CPU) : NULL;
    st = ha ? CT_OK : ct_last_error();
    if (st == CT_OK) {
      const double *lp = (const double *)ct_data_ptr(c.lp);
      double *a = (double *)ct_data_ptr(ha), *n = (double *)ct_data_ptr(hn);
      int64_t b, t, sidx, i;
      for (i = 0; i < ha->numel; i++) a[i] = -INFINITY;
#define CT__LP(t, b, k) lp[((t) * c.N + (b)) * c.C + (k)]
      for (b = 0; b < c.N; b++) {
        int64_t T = c.il[b], L = c.tl[b], S = 2 * L + 1;
        double *ab = a + b * c.T * c.S2, l1, l2, m;
        if (T > 0) {
          ab[0] = CT__LP(0, b, c.blank);
          if (L > 0) ab[1] = CT__LP(0, b, ct__ctc_label(&c, b, 1));
        }
        for (t = 1; t < T; t++)
          for (sidx = 0; sidx < S; sidx++) {
            int64_t lab = ct__ctc_label(&c, b, sidx);
            double x1 = ab[(t - 1) * c.S2 + sidx], x2 = sidx > 0 ? ab[(t - 1) * c.S2 + sidx - 1] : -INFINITY, x3 = -INFINITY;
            if (sidx > 1 && lab != ct__ctc_label(&c, b, sidx - 2)) x3 = ab[(t - 1) * c.S2 + sidx - 2];
            ab[t * c.S2 + sidx] = ct__ctc_lse3(x1, x2, x3) + CT__LP(t, b, lab);
          }
        if (T == 0) { /* no frames: only an empty target is possible */
          n[b] = L == 0 ? 0.0 : INFINITY;
          continue;
        }
        l1 = ab[(T - 1) * c.S2 + 2 * L], l2 = L > 0 ? ab[(T - 1) * c.S2 + 2 * L - 1] : -INFINITY;
        m = l1 > l2 ? l1 : l2;
        if (m == -INFINITY) m = 0;
        n[b] = -(log(exp(l1 - m) + exp(l2 - m)) + m);
      }
#undef CT__LP
      st = ct__copy_impl(nll, hn);
      if (st == CT_OK) st = ct__copy_impl(la, ha);
    }
    ct_release(hn), ct_release(ha);
  }
  ct__ctc_free(&c);
  return st;
}
/* structured (ops/structured.h), functional only */
static ct_status ct__ctc_backward_check(const char *op, ct_tensor *grad, ct_tensor *log_probs, ct_tensor *targets, ct_int_list input_lengths,
                                       ct_int_list target_lengths, ct_tensor *neg_log_likelihood, ct_tensor *log_alpha, int64_t blank,
                                       int load, ct__ctc *c) {
  if (ct__ctc_setup(op, log_probs, targets, input_lengths, target_lengths, blank, load, c) != CT_OK) return ct_last_error();
  if (grad->numel != c->N || neg_log_likelihood->numel != c->N || log_alpha->ndim != 3 || log_alpha->sizes[0] != c->N ||
      log_alpha->sizes[1] != c->T || log_alpha->sizes[2] != c->S2)
    return ct_fail(CT_ERR_SHAPE, op, "grad, neg_log_likelihood and log_alpha must have the forward's shapes");
  return CT_OK;
}
static ct_status ct__meta_ctc_loss_backward(ct__structured *st, ct_tensor *grad, ct_tensor *log_probs, ct_tensor *targets,
                                            ct_int_list input_lengths, ct_int_list target_lengths, ct_tensor *neg_log_likelihood,
                                            ct_tensor *log_alpha, int64_t blank, bool zero_infinity) {
  ct__ctc c;
  ct_status s = ct__ctc_backward_check(st->op, grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha,
                                       blank, 0, &c);
  (void)zero_infinity;
  ct__ctc_free(&c);
  return s == CT_OK ? ct__set_output(st, 0, 3, log_probs->sizes, (ct_dtype)log_probs->dtype, log_probs->device) : s;
}
static ct_status ct__impl_ctc_loss_backward(ct_tensor *grad, ct_tensor *log_probs, ct_tensor *targets, ct_int_list input_lengths,
                                            ct_int_list target_lengths, ct_tensor *neg_log_likelihood, ct_tensor *log_alpha, int64_t blank,
                                            bool zero_infinity, ct_tensor *g) {
  static const char *op = "_ctc_loss_backward";
  ct__ctc c;
  ct_status st;
  if (ct__ctc_backward_check(op, grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha, blank, 1, &c) !=
      CT_OK)
    return ct__ctc_free(&c), ct_last_error();
  {
    ct_tensor *hg = ct__empty(op, 3, log_probs->sizes, CT_F64, CT_CPU), *hgo = hg ? ct__nn_f64(op, grad) : NULL;
    ct_tensor *hn = hgo ? ct__nn_f64(op, neg_log_likelihood) : NULL, *ha = hn ? ct__nn_f64(op, log_alpha) : NULL;
    double *beta = ha ? (double *)ct__workspace(sizeof(double) * (size_t)(c.T * c.S2 + 1)) : NULL;
    double *lcab = beta ? (double *)ct__workspace(sizeof(double) * (size_t)(c.C + 1)) : NULL;
    st = lcab ? CT_OK : ha ? ct_fail(CT_ERR_OOM, op, "out of memory") : ct_last_error();
    if (st == CT_OK) {
      const double *lp = (const double *)ct_data_ptr(c.lp), *go = (const double *)ct_data_ptr(hgo), *nl = (const double *)ct_data_ptr(hn);
      const double *a = (const double *)ct_data_ptr(ha);
      double *gr = (double *)ct_data_ptr(hg);
      int64_t b, t, sidx, k, i;
      for (i = 0; i < hg->numel; i++) gr[i] = 0;
#define CT__LP(t, b, k) lp[((t) * c.N + (b)) * c.C + (k)]
#define CT__GR(t, b, k) gr[((t) * c.N + (b)) * c.C + (k)]
      for (b = 0; b < c.N; b++) {
        int64_t T = c.il[b], L = c.tl[b], S = 2 * L + 1;
        const double *ab = a + b * c.T * c.S2;
        double nll = nl[b], gb = go[b];
        if (T == 0) continue;
        if (zero_infinity && nll == INFINITY) continue; /* (its gradient is zero) */
        for (i = 0; i < c.T * c.S2; i++) beta[i] = -INFINITY;
        beta[(T - 1) * c.S2 + 2 * L] = CT__LP(T - 1, b, c.blank);
        if (L > 0) beta[(T - 1) * c.S2 + 2 * L - 1] = CT__LP(T - 1, b, ct__ctc_label(&c, b, 2 * L - 1));
        for (t = T - 2; t >= 0; t--)
          for (sidx = 2 * L; sidx >= 0; sidx--) {
            int64_t lab = ct__ctc_label(&c, b, sidx);
            double x1 = beta[(t + 1) * c.S2 + sidx], x2 = sidx < 2 * L ? beta[(t + 1) * c.S2 + sidx + 1] : -INFINITY, x3 = -INFINITY;
            if (sidx < 2 * L - 1 && lab != ct__ctc_label(&c, b, sidx + 2)) x3 = beta[(t + 1) * c.S2 + sidx + 2];
            beta[t * c.S2 + sidx] = ct__ctc_lse3(x1, x2, x3) + CT__LP(t, b, lab);
          }
        (void)S;
        for (t = 0; t < T; t++) {
          for (k = 0; k < c.C; k++) lcab[k] = -INFINITY;
          for (sidx = 0; sidx <= 2 * L; sidx++) { /* log(alpha * beta) summed per label */
            int64_t lab = ct__ctc_label(&c, b, sidx);
            double v = ab[t * c.S2 + sidx] + beta[t * c.S2 + sidx], m = lcab[lab] > v ? lcab[lab] : v;
            lcab[lab] = m == -INFINITY ? -INFINITY : log(exp(lcab[lab] - m) + exp(v - m)) + m;
          }
          for (k = 0; k < c.C; k++) {
            double l = CT__LP(t, b, k);
            CT__GR(t, b, k) = (exp(l) - exp(lcab[k] + nll - l)) * gb;
          }
        }
      }
#undef CT__LP
#undef CT__GR
      st = ct__copy_impl(g, hg);
    }
    ct__workspace_free(beta), ct__workspace_free(lcab);
    ct_release(hg), ct_release(hgo), ct_release(hn), ct_release(ha);
  }
  ct__ctc_free(&c);
  return st;
}
/* the lengths as int[] from 1-D integer tensors (host values) */
static ct_status ct__ctc_lengths(const char *op, ct_tensor *t, int64_t **out, ct_int_list *l) {
  ct_tensor *h;
  int64_t i;
  if (t->ndim != 1 || (t->dtype != CT_I64 && t->dtype != CT_I32)) return ct_fail(CT_ERR_DTYPE, op, "ctc_loss: lengths must be 1-D integer tensors");
  if (!(h = ct__host_operand(op, t))) return ct_last_error();
  *out = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(t->numel + 1));
  if (!*out) return ct_release(h), ct_fail(CT_ERR_OOM, op, "out of memory");
  for (i = 0; i < t->numel; i++) (*out)[i] = ct_get_int(h, i);
  ct_release(h);
  l->data = *out, l->n = t->numel;
  return CT_OK;
}
static ct_tensor *ct__k_ctc_loss_forward_tensor(ct_keyset ks, ct_tensor *log_probs, ct_tensor *targets, ct_tensor *input_lengths,
                                                ct_tensor *target_lengths, int64_t blank, bool zero_infinity, ct_tensor **log_alpha) {
  int64_t *a = NULL, *b = NULL;
  ct_int_list la, lb;
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__ctc_lengths("_ctc_loss", input_lengths, &a, &la) == CT_OK && ct__ctc_lengths("_ctc_loss", target_lengths, &b, &lb) == CT_OK)
    CT_SCOPE {
      ct_tensor *alpha = NULL, *o = ct_ctc_loss_forward_ex(log_probs, targets, (int)la.n, la.data, (int)lb.n, lb.data, blank, zero_infinity,
                                                           &alpha);
      if (o && log_alpha) *log_alpha = ct_keep(alpha);
      r = ct_keep(o);
    }
  ct__workspace_free(a), ct__workspace_free(b);
  return r;
}
/* ctc_loss: _ctc_loss's per-sample loss (a 2-D log_probs is one sample), zero_infinity, then
 * reduction: mean divides each loss by its target length (at least 1) before averaging */
static ct_tensor *ct__ctc_loss(ct_tensor *log_probs, ct_tensor *targets, ct_int_list il, ct_int_list tl, int64_t blank, int64_t reduction,
                               bool zero_infinity) {
  ct_tensor *r = NULL;
  int batched = log_probs->ndim == 3;
  if (ct__nn_check_reduction("ctc_loss", reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *lp = batched ? log_probs : ct_unsqueeze(log_probs, 1), *res;
    res = lp ? ct_ctc_loss_forward_ex(lp, targets, (int)il.n, il.data, (int)tl.n, tl.data, blank, zero_infinity, NULL) : NULL;
    if (res && zero_infinity) res = ct_where(ct_eq_scalar(res, ct_float(INFINITY)), ct_zeros_like(res), res);
    if (res && reduction == CT__NN_MEAN) {
      double *len = (double *)ct__workspace(sizeof(double) * (size_t)(tl.n + 1));
      int64_t i, n = tl.n;
      ct_tensor *d = NULL;
      if (len) {
        for (i = 0; i < n; i++) len[i] = tl.data[i] < 1 ? 1.0 : (double)tl.data[i];
        d = ct_from_array_ex(1, &n, CT_F64, len, res->device);
        ct__workspace_free(len);
      }
      res = d ? ct_mean(ct_div(res, ct_to_dtype(d, (ct_dtype)res->dtype))) : NULL;
    } else if (res && reduction == CT__NN_SUM) {
      res = ct_sum(res);
    } else if (res && !batched) {
      res = ct_squeeze_dim(res, 0);
    }
    r = ct_keep(res);
  }
  return r;
}
static ct_tensor *ct__k_ctc_loss(ct_keyset ks, ct_tensor *log_probs, ct_tensor *targets, ct_int_list input_lengths, ct_int_list target_lengths,
                                 int64_t blank, int64_t reduction, bool zero_infinity) {
  (void)ks;
  return ct__ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity);
}
static ct_tensor *ct__k_ctc_loss_tensor(ct_keyset ks, ct_tensor *log_probs, ct_tensor *targets, ct_tensor *input_lengths,
                                        ct_tensor *target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  int64_t *a = NULL, *b = NULL;
  ct_int_list la, lb;
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__ctc_lengths("ctc_loss", input_lengths, &a, &la) == CT_OK && ct__ctc_lengths("ctc_loss", target_lengths, &b, &lb) == CT_OK)
    r = ct__ctc_loss(log_probs, targets, la, lb, blank, reduction, zero_infinity);
  ct__workspace_free(a), ct__workspace_free(b);
  return r;
}

/* ---- embedding_bag (CompositeImplicitAutograd): the bags are worked out on the host from indices
 * and offsets; sum / mean are index_select, a weighting, and index_add into the bags; max gathers
 * each bag's first maximum per feature. Gradients come from those ops (scale_grad_by_freq:
 * the rows' gradients divided by their index's count; sparse: the gradient is dense). ---- */
static ct_tensor *ct__nn_i64_from(const char *op, int64_t n, const int64_t *v, ct_device dev) {
  int64_t size = n;
  ct_tensor *t = ct__empty(op, 1, &size, CT_I64, CT_CPU);
  if (t && n) memcpy(ct_data_ptr(t), v, sizeof(int64_t) * (size_t)n);
  return t ? ct__host_result(op, t, dev) : NULL;
}
static ct_tensor *ct__embedding_bag(ct_tensor *weight, ct_tensor *indices, ct_tensor *offsets, bool scale_grad_by_freq, int64_t mode,
                                    ct_tensor *psw, bool include_last_offset, int64_t padding_idx, ct_tensor **offset2bag,
                                    ct_tensor **bag_size, ct_tensor **max_indices) {
  static const char *op = "embedding_bag";
  int64_t n, nb, noff, i, b, d, D, V, *idx = NULL, *off = NULL, *bag = NULL, *cnt = NULL, *freq = NULL, *argmax = NULL;
  ct_tensor *hi = NULL, *ho = NULL, *hw = NULL, *r = NULL, *o2b = NULL, *bs = NULL, *mi = NULL;
  ct_status st = CT_OK;
  int filled;
  if (weight->ndim != 2) return ct_fail(CT_ERR_RANK, op, "embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension %d", weight->ndim), (ct_tensor *)NULL;
  if (indices->ndim != 1) return ct_fail(CT_ERR_RANK, op, "input has to be a 1D or 2D Tensor, but got Tensor of dimension %d", indices->ndim), (ct_tensor *)NULL;
  if (offsets->ndim != 1) return ct_fail(CT_ERR_RANK, op, "offsets has to be a 1D Tensor, but got Tensor of dimension %d", offsets->ndim), (ct_tensor *)NULL;
  if ((indices->dtype != CT_I64 && indices->dtype != CT_I32) || (offsets->dtype != CT_I64 && offsets->dtype != CT_I32))
    return ct_fail(CT_ERR_DTYPE, op, "embedding_bag: Expected tensor for argument #2 'indices' and #3 'offsets' to have one of the "
                   "following scalar types: Long, Int"),
           (ct_tensor *)NULL;
  if (indices->dtype != offsets->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name((ct_dtype)indices->dtype),
                   ct__dtype_torch_name((ct_dtype)offsets->dtype)),
           (ct_tensor *)NULL;
  if (ct__nn_check_floating(op, "embedding_bag_cpu", (ct_dtype)weight->dtype) != CT_OK) return NULL;
  if (mode < 0 || mode > 2) return ct_fail(CT_ERR_INVALID, op, "embedding_bag: mode %lld is not 0 (sum), 1 (mean) or 2 (max)", (long long)mode), (ct_tensor *)NULL;
  if (psw && mode != 0) return ct_fail(CT_ERR_INVALID, op, "embedding_bag: per_sample_weights only supported with mode='sum'"), (ct_tensor *)NULL;
  if (psw && (psw->ndim != 1 || psw->sizes[0] != indices->sizes[0] || psw->dtype != weight->dtype))
    return ct_fail(CT_ERR_SHAPE, op, "embedding_bag: per_sample_weights must be a 1D tensor of the indices' length and the weight's dtype"),
           (ct_tensor *)NULL;
  n = indices->sizes[0], noff = offsets->sizes[0], V = weight->sizes[0], D = weight->sizes[1];
  nb = include_last_offset ? noff - 1 : noff;
  if (nb < 0) return ct_fail(CT_ERR_INVALID, op, "include_last_offset: number of offsets should be at least 1"), (ct_tensor *)NULL;
  if (padding_idx != CT_INT_NONE && (padding_idx < -V || padding_idx >= V))
    return ct_fail(CT_ERR_INDEX, op, "padding_idx must be within the number of embeddings, -%lld through %lld", (long long)V, (long long)V - 1),
           (ct_tensor *)NULL;
  if (padding_idx != CT_INT_NONE && padding_idx < 0) padding_idx += V;
  /* PyTorch's CPU kernel skips offset2bag on its fast path (sum of float32 / float16 rows, no padding) */
  filled = mode != 0 || padding_idx != CT_INT_NONE || (weight->dtype != CT_F32 && weight->dtype != CT_F16) || weight->strides[1] != 1;
  if (ct__is_meta(weight) || ct__is_meta(indices) || ct__is_meta(offsets)) { /* the shapes follow from the arguments' */
    int64_t osh[2], o2n = filled ? n : 0;
    ct_device md = weight->device;
    osh[0] = nb, osh[1] = D;
    r = ct__empty(op, 2, osh, (ct_dtype)weight->dtype, md);
    o2b = r ? ct__empty(op, 1, &o2n, (ct_dtype)indices->dtype, md) : NULL;
    bs = o2b ? ct__empty(op, 1, &nb, (ct_dtype)indices->dtype, md) : NULL;
    mi = bs ? ct__empty(op, mode == 2 ? 2 : 1, osh, (ct_dtype)indices->dtype, md) : NULL;
    if (!mi) {
      ct_release(r), ct_release(o2b), ct_release(bs);
      return NULL;
    }
    goto done;
  }
  /* idx, bag, freq (n + 1 each), off, cnt (nb + 1 each), argmax (nb * D, max mode) */
  idx = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(3 * (n + 1) + 2 * (nb + 1) + (mode == 2 ? nb * D : 0)));
  if (!idx) return ct_fail(CT_ERR_OOM, op, "out of memory"), (ct_tensor *)NULL;
  bag = idx + n + 1, freq = bag + n + 1, off = freq + n + 1, cnt = off + nb + 1, argmax = cnt + nb + 1;
  hi = ct__host_operand(op, indices), ho = hi ? ct__host_operand(op, offsets) : NULL;
  if (!ho) st = ct_last_error();
  for (i = 0; st == CT_OK && i < n; i++)
    if ((idx[i] = ct_get_int(hi, i)) < 0 || idx[i] >= V)
      st = ct_fail(CT_ERR_INDEX, op, "embedding_bag: index %lld is out of range for %lld embeddings", (long long)idx[i], (long long)V);
  for (b = 0; st == CT_OK && b < nb; b++) {
    off[b] = ct_get_int(ho, b);
    if (b == 0 && off[b] != 0)
      st = ct_fail(CT_ERR_INVALID, op, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position 0. "
                   "However, got %lld", (long long)off[b]);
    else if (off[b] < (b ? off[b - 1] : 0) || off[b] > n)
      st = ct_fail(CT_ERR_INVALID, op, "embedding_bag: offsets must be non-decreasing and at most the number of indices (%lld); "
                   "offsets[%lld] = %lld", (long long)n, (long long)b, (long long)off[b]);
  }
  if (st == CT_OK) {
    int64_t end_all = include_last_offset ? ct_get_int(ho, nb) : n;
    if (end_all > n || (nb > 0 && end_all < off[nb - 1])) end_all = n;
    off[nb] = end_all;
    for (i = 0; i < n; i++) bag[i] = -1, freq[i] = 0;
    for (b = 0; b < nb; b++) {
      cnt[b] = 0;
      for (i = off[b]; i < off[b + 1]; i++) {
        bag[i] = b;
        if (padding_idx == CT_INT_NONE || idx[i] != padding_idx) cnt[b]++;
      }
    }
  }
  ct_release(hi), ct_release(ho);
  if (st == CT_OK && mode == 2 && nb > 0 && D > 0) { /* each bag's first maximum per feature (NaN never wins but the first) */
    hw = ct__host_operand(op, weight);
    if (!hw) st = ct_last_error();
    for (b = 0; st == CT_OK && b < nb; b++)
      for (d = 0; d < D; d++) {
        double best = 0;
        int seen = 0;
        argmax[b * D + d] = 0;
        for (i = off[b]; i < off[b + 1]; i++) {
          double v;
          if (padding_idx != CT_INT_NONE && idx[i] == padding_idx) continue;
          v = ct_get(hw, idx[i] * D + d);
          if (!seen || v > best) best = v, argmax[b * D + d] = idx[i], seen = 1;
        }
      }
    ct_release(hw);
  }
  if (st == CT_OK && scale_grad_by_freq && mode != 2) { /* each index's count among all the indices */
    for (i = 0; i < n; i++) freq[i] = 0;
    for (i = 0; i < n; i++) { /* (n log n would be better; n is a batch's indices) */
      int64_t j, c = 0;
      for (j = 0; j < n; j++) c += idx[j] == idx[i];
      freq[i] = c;
    }
  }
  if (st == CT_OK) CT_SCOPE {
    int64_t osh[2], bshape[2];
    ct_tensor *it = ct__track(ct__nn_i64_from(op, n, idx, weight->device)), *o = NULL;
    osh[0] = nb, osh[1] = D, bshape[0] = nb, bshape[1] = 1;
    if (mode == 2) {
      ct_tensor *am = ct__track(ct__nn_i64_from(op, nb * D, argmax, weight->device)), *nonempty;
      double *ne = (double *)ct__workspace(sizeof(double) * (size_t)(nb + 1));
      if (ne) {
        for (b = 0; b < nb; b++) ne[b] = cnt[b] > 0;
        nonempty = ct_from_array_ex(2, bshape, CT_F64, ne, weight->device);
        ct__workspace_free(ne);
        if (am && nonempty && nb * D > 0) o = ct_mul(ct_gather(weight, 0, ct_view(am, 2, osh)), ct_to_dtype(nonempty, (ct_dtype)weight->dtype));
        else if (am && nonempty) o = ct_new_zeros(weight, 2, osh);
      }
    } else {
      ct_tensor *rows = it ? ct_index_select(weight, 0, it) : NULL, *w = NULL;
      double *m = (double *)ct__workspace(sizeof(double) * (size_t)(n + nb + 2));
      int drop = 0;
      if (rows && m) {
        for (i = 0; i < n; i++) {
          m[i] = (bag[i] >= 0 && (padding_idx == CT_INT_NONE || idx[i] != padding_idx)) ? 1.0 : 0.0;
          drop |= m[i] == 0;
          bag[i] = bag[i] < 0 ? 0 : bag[i]; /* (dropped entries add zeros anywhere) */
        }
        if (drop) w = ct_from_array_ex(1, &n, CT_F64, m, weight->device);
        if (w) w = ct_to_dtype(w, (ct_dtype)weight->dtype);
        if (psw) w = w ? ct_mul(w, psw) : psw;
        if (w) rows = ct_mul(rows, ct_unsqueeze(w, 1));
        if (rows && scale_grad_by_freq && n > 0) { /* the value stays, the gradient is divided by the index's count */
          ct_tensor *keep, *rest;
          int64_t nsh[2];
          nsh[0] = n, nsh[1] = 1;
          for (i = 0; i < n; i++) m[i] = 1.0 / (double)freq[i];
          keep = ct_to_dtype(ct_from_array_ex(2, nsh, CT_F64, m, weight->device), (ct_dtype)weight->dtype);
          for (i = 0; i < n; i++) m[i] = 1.0 - 1.0 / (double)freq[i];
          rest = ct_to_dtype(ct_from_array_ex(2, nsh, CT_F64, m, weight->device), (ct_dtype)weight->dtype);
          rows = keep && rest ? ct_add(ct_mul(rows, keep), ct_detach(ct_mul(rows, rest))) : NULL;
        }
        if (rows) o = ct_index_add(ct_new_zeros(weight, 2, osh), 0, ct__track(ct__nn_i64_from(op, n, bag, weight->device)), rows);
        if (o && mode == 1) {
          for (b = 0; b < nb; b++) m[b] = cnt[b] > 0 ? (double)cnt[b] : 1.0;
          o = ct_div(o, ct_to_dtype(ct_from_array_ex(2, bshape, CT_F64, m, weight->device), (ct_dtype)weight->dtype));
        }
      }
      ct__workspace_free(m);
    }
    r = ct_keep(o);
  }
  if (r) { /* the other outputs, as PyTorch's CPU kernel fills them, in the indices' dtype */
    for (i = 0; i < n; i++) bag[i] = 0;
    for (b = 0; b < nb; b++)
      for (i = off[b]; i < off[b + 1]; i++) bag[i] = b;
    o2b = ct__nn_i64_from(op, filled ? n : 0, bag, weight->device);
    for (b = 0; b < nb; b++) cnt[b] = mode == 0 ? 0 : cnt[b];
    bs = o2b ? ct__nn_i64_from(op, nb, cnt, weight->device) : NULL;
    if (bs && mode == 2) {
      int64_t msh[2];
      mi = ct__nn_i64_from(op, nb * D, argmax, weight->device);
      msh[0] = nb, msh[1] = D;
      if (mi) {
        ct_tensor *v = ct_view(mi, 2, msh);
        ct_release(mi);
        mi = v ? ct_clone(v) : NULL;
        ct_release(v);
      }
    } else if (bs) {
      mi = ct__nn_i64_from(op, nb, cnt, weight->device);
    }
    if (!mi) ct_release(r), r = NULL;
  }
  ct__workspace_free(idx);
  if (r && indices->dtype != CT_I64) { /* (int32 indices: int32 outputs) */
    ct_tensor *c[3];
    c[0] = ct_to_dtype(o2b, CT_I32), c[1] = ct_to_dtype(bs, CT_I32), c[2] = ct_to_dtype(mi, CT_I32);
    ct_release(o2b), ct_release(bs), ct_release(mi);
    o2b = c[0], bs = c[1], mi = c[2];
    if (!o2b || !bs || !mi) ct_release(r), r = NULL;
  }
  if (!r) {
    ct_release(o2b), ct_release(bs), ct_release(mi);
    return NULL;
  }
done:
  if (offset2bag) *offset2bag = o2b;
  else ct_release(o2b);
  if (bag_size) *bag_size = bs;
  else ct_release(bs);
  if (max_indices) *max_indices = mi;
  else ct_release(mi);
  return r;
}
static ct_tensor *ct__k_embedding_bag(ct_keyset ks, ct_tensor *weight, ct_tensor *indices, ct_tensor *offsets, bool scale_grad_by_freq,
                                      int64_t mode, bool sparse, ct_tensor *per_sample_weights, bool include_last_offset,
                                      ct_tensor **offset2bag, ct_tensor **bag_size, ct_tensor **max_indices) {
  (void)ks, (void)sparse;
  return ct__embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, per_sample_weights, include_last_offset, CT_INT_NONE,
                           offset2bag, bag_size, max_indices);
}
static ct_tensor *ct__k_embedding_bag_padding_idx(ct_keyset ks, ct_tensor *weight, ct_tensor *indices, ct_tensor *offsets,
                                                  bool scale_grad_by_freq, int64_t mode, bool sparse, ct_tensor *per_sample_weights,
                                                  bool include_last_offset, int64_t padding_idx, ct_tensor **offset2bag,
                                                  ct_tensor **bag_size, ct_tensor **max_indices) {
  (void)ks, (void)sparse;
  return ct__embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, per_sample_weights, include_last_offset, padding_idx,
                           offset2bag, bag_size, max_indices);
}

/* ---- normalize and local_response_norm: torch.nn.functional's composites (no aten op of their own) ---- */
static ct_tensor *ct__k_normalize(ct_keyset ks, ct_tensor *input, double p, int64_t dim, double eps) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *denom = ct_clamp_min(ct_norm_dim(input, ct_float(p), 1, &dim, true), ct_float(eps));
    r = ct_keep(denom ? ct_div(input, ct_expand_as(denom, input)) : NULL);
  }
  return r;
}
/* input / (k + alpha * mean of input^2 over `size` neighbouring channels (zero padded: size // 2
 * before, (size - 1) // 2 after))^beta */
static ct_tensor *ct__k_local_response_norm(ct_keyset ks, ct_tensor *input, int64_t size, double alpha, double beta, double k) {
  static const char *op = "local_response_norm";
  int64_t pad[2 * CT_MAX_DIMS], j, C;
  int i, n = input->ndim;
  ct_tensor *r = NULL;
  (void)ks;
  if (n < 3) return ct_fail(CT_ERR_RANK, op, "Expected 3D or higher dimensionality input (got %d dimensions)", n), (ct_tensor *)NULL;
  if (size < 1) return ct_fail(CT_ERR_INVALID, op, "local_response_norm: size must be positive, got %lld", (long long)size), (ct_tensor *)NULL;
  if (input->numel == 0) return ct_retain(input);
  C = input->sizes[1];
  for (i = 0; i < 2 * (n - 1); i++) pad[i] = 0;
  pad[2 * (n - 2)] = size / 2, pad[2 * (n - 2) + 1] = (size - 1) / 2; /* (the last pair of constant_pad_nd's list is dim 1) */
  CT_SCOPE {
    ct_tensor *sq = ct_constant_pad_nd(ct_mul(input, input), 2 * (n - 1), pad, ct_int(0)), *acc = NULL;
    for (j = 0; sq && j < size; j++) acc = acc ? ct_add(acc, ct_narrow(sq, 1, j, C)) : ct_narrow(sq, 1, j, C);
    if (acc) acc = ct_pow_scalar(ct_add_scalar(ct_mul_scalar(ct_div_scalar(acc, ct_int(size)), ct_float(alpha)), ct_float(k)), ct_float(beta));
    r = ct_keep(acc ? ct_div(input, acc) : NULL);
  }
  return r;
}

/* ---- prelu: self where > 0, else weight * self; weight has one value or one per channel (dim 1) ---- */
static ct_tensor *ct__k_prelu(ct_keyset ks, ct_tensor *self, ct_tensor *weight) {
  static const char *op = "prelu";
  int64_t shape[CT_MAX_DIMS], channels;
  int i;
  ct_tensor *r = NULL;
  (void)ks;
  if (weight->ndim > 1)
    return ct_fail(CT_ERR_RANK, op, "prelu: Expected `weight` to be a scalar or 1D tensor, but got ndim = %d", weight->ndim), (ct_tensor *)NULL;
  if (ct__nn_check_floating(op, "prelu_cpu", (ct_dtype)self->dtype) != CT_OK) return NULL;
  if (weight->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Found dtype %s but expected %s", ct__dtype_torch_name((ct_dtype)weight->dtype),
                   ct__dtype_torch_name((ct_dtype)self->dtype)),
           (ct_tensor *)NULL;
  if (weight->numel != 1) {
    if (self->ndim == 0) return ct_fail(CT_ERR_RANK, op, "Not allow zero-dim input tensor."), (ct_tensor *)NULL;
    channels = self->ndim > 1 ? self->sizes[1] : 1;
    if (channels != weight->numel)
      return ct_fail(CT_ERR_SHAPE, op, "Mismatch of parameter numbers and input channel size. Found parameter numbers = %lld and "
                     "channel size = %lld.", (long long)weight->numel, (long long)channels),
             (ct_tensor *)NULL;
  }
  /* the weight along dim 1 (or one value) */
  for (i = 0; i + 1 < self->ndim; i++) shape[i] = 1;
  if (self->ndim > 1) shape[0] = weight->numel; /* (one value: reshaped to 0 dims below) */
  CT_SCOPE {
    ct_tensor *w = ct_reshape(weight, weight->numel != 1 && self->ndim > 1 ? self->ndim - 1 : 0, shape);
    r = ct_keep(ct_where(ct_gt_scalar(self, ct_int(0)), self, ct_mul(w, self)));
  }
  return r;
}
/* rrelu: evaluation is leaky_relu with the mean slope; training draws a slope in [lower, upper) per
 * element (from the generator) for the elements <= 0. in_place: written into self (r is self). */
static ct_status ct__rrelu(ct_tensor *self, ct_scalar lower, ct_scalar upper, bool training, ct_generator *generator, int in_place,
                           ct_tensor **r) {
  static const char *op = "rrelu";
  double lo = ct_scalar_to_double(lower), hi = ct_scalar_to_double(upper);
  ct_status st = CT_OK;
  if (ct__nn_check_floating(op, "rrelu_with_noise_cpu", (ct_dtype)self->dtype) != CT_OK) return ct_last_error();
  if (lo > hi) return ct_fail(CT_ERR_INVALID, op, "Lower bound should be less than or equal to the upper bound");
  if (!training && in_place) return ct_leaky_relu_(self, ct_float((lo + hi) / 2));
  CT_SCOPE {
    ct_tensor *o = NULL, *noise;
    if (!training) {
      o = ct_leaky_relu(self, ct_float((lo + hi) / 2));
    } else if ((noise = ct_empty_like(self)) && ct_uniform_ex_(noise, lo, hi, generator) == CT_OK) {
      o = ct_where(ct_gt_scalar(self, ct_int(0)), self, ct_mul(self, noise));
    }
    if (!o) st = ct_last_error();
    else if (in_place) st = ct_copy_(self, o);
    else *r = ct_keep(o);
  }
  return st;
}
static ct_tensor *ct__k_rrelu(ct_keyset ks, ct_tensor *self, ct_scalar lower, ct_scalar upper, bool training, ct_generator *generator) {
  ct_tensor *r = NULL;
  (void)ks;
  return ct__rrelu(self, lower, upper, training, generator, 0, &r) == CT_OK ? r : NULL;
}
static ct_status ct__k_rrelu_(ct_keyset ks, ct_tensor *self, ct_scalar lower, ct_scalar upper, bool training, ct_generator *generator) {
  (void)ks;
  return ct__rrelu(self, lower, upper, training, generator, 1, NULL);
}

/* ---- instance_norm: batch_norm over (1, N * C, ...): each (sample, channel) is its own channel;
 * running stats (given) are the mean over the samples of the updated per-sample ones ---- */
static ct_tensor *ct__k_instance_norm(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_tensor *running_mean,
                                      ct_tensor *running_var, bool use_input_stats, double momentum, double eps, bool cudnn_enabled) {
  static const char *op = "instance_norm";
  int64_t shape[CT_MAX_DIMS], bc[2], b, c;
  int i;
  ct_tensor *r = NULL;
  (void)ks;
  (void)cudnn_enabled;
  if (!use_input_stats && (!running_mean || !running_var))
    return ct_fail(CT_ERR_INVALID, op, "Expected running_mean and running_var to be defined when use_input_stats is false"), (ct_tensor *)NULL;
  if (input->ndim < 2)
    return ct_fail(CT_ERR_RANK, op, "Expected at least 2 dimensions for input tensor but received %d", input->ndim), (ct_tensor *)NULL;
  b = input->sizes[0], c = input->sizes[1];
  for (i = 0; i < input->ndim; i++) shape[i] = input->sizes[i];
  shape[0] = 1, shape[1] = ct__mul_sat(b, c);
  bc[0] = b, bc[1] = c;
  CT_SCOPE {
    ct_tensor *rm = running_mean ? ct_repeat(running_mean, 1, &b) : NULL, *rv = running_var ? ct_repeat(running_var, 1, &b) : NULL;
    ct_tensor *w = weight ? ct_repeat(weight, 1, &b) : NULL, *bi = bias ? ct_repeat(bias, 1, &b) : NULL, *o;
    int64_t zero = 0;
    o = ct_batch_norm(ct_view(ct_contiguous(input), input->ndim, shape), w, bi, rm, rv, use_input_stats, momentum, eps);
    if (o && running_mean && use_input_stats) {
      ct_guard g;
      ct_no_grad_begin(&g); /* (the running stats are buffers: their update is not on the graph) */
      if (ct_copy_(running_mean, ct_mean_dim(ct_view(rm, 2, bc), 1, &zero, false)) != CT_OK ||
          (running_var && ct_copy_(running_var, ct_mean_dim(ct_view(rv, 2, bc), 1, &zero, false)) != CT_OK))
        o = NULL;
      ct_guard_end(&g);
    }
    r = ct_keep(o ? ct_view(o, input->ndim, input->sizes) : NULL);
  }
  return r;
}

/* ---- bilinear: out[..., k] = input1[..., i] weight[k, i, j] input2[..., j] + bias[k] ---- */
static ct_tensor *ct__k_bilinear(ct_keyset ks, ct_tensor *input1, ct_tensor *input2, ct_tensor *weight, ct_tensor *bias) {
  static const char *op = "bilinear";
  int64_t shape[CT_MAX_DIMS], f1[2], f2[2];
  int i, n = input1->ndim;
  ct_tensor *r = NULL;
  (void)ks;
  if (input1->ndim != input2->ndim)
    return ct_fail(CT_ERR_RANK, op, "bilinear(): input dimensions do not match: got %d and %d", input1->ndim, input2->ndim), (ct_tensor *)NULL;
  if (n == 0 || weight->ndim != 3)
    return ct_fail(CT_ERR_RANK, op, "bilinear(): expected inputs of at least 1 dim and a 3-dim weight"), (ct_tensor *)NULL;
  for (i = 0; i + 1 < n; i++)
    if (input1->sizes[i] != input2->sizes[i])
      return ct_fail(CT_ERR_SHAPE, op, "bilinear(): input batch dimensions do not match: got %lld and %lld", (long long)input1->sizes[i],
                     (long long)input2->sizes[i]),
             (ct_tensor *)NULL;
  if (input1->sizes[n - 1] != weight->sizes[1])
    return ct_fail(CT_ERR_SHAPE, op, "bilinear(): input1 size does not match weight size: got %lld but expected %lld",
                   (long long)input1->sizes[n - 1], (long long)weight->sizes[1]),
           (ct_tensor *)NULL;
  if (input2->sizes[n - 1] != weight->sizes[2])
    return ct_fail(CT_ERR_SHAPE, op, "bilinear(): input2 size does not match weight size: got %lld but expected %lld",
                   (long long)input2->sizes[n - 1], (long long)weight->sizes[2]),
           (ct_tensor *)NULL;
  if (bias && (bias->ndim != 1 || bias->sizes[0] != weight->sizes[0]))
    return ct_fail(CT_ERR_SHAPE, op, "bilinear(): bias size does not match weight size: got %lld but expected %lld",
                   (long long)(bias->ndim ? bias->sizes[0] : 1), (long long)weight->sizes[0]),
           (ct_tensor *)NULL;
  for (i = 0; i + 1 < n; i++) shape[i] = input1->sizes[i];
  shape[n - 1] = weight->sizes[0];
  f1[0] = f2[0] = -1, f1[1] = input1->sizes[n - 1], f2[1] = input2->sizes[n - 1];
  CT_SCOPE {
    ct_tensor *ops[3], *o;
    ops[0] = ct_reshape(input1, 2, f1), ops[1] = weight, ops[2] = ct_reshape(input2, 2, f2);
    o = ops[0] && ops[2] ? ct_reshape(ct_einsum("bi,kij,bj->bk", 3, ops), n, shape) : NULL;
    if (o && bias) o = ct_add(o, bias);
    r = ct_keep(o);
  }
  return r;
}

static ct_tensor *ct__k_glu(ct_keyset ks, ct_tensor *self, int64_t dim) {
  ct_tensor *r = NULL;
  int64_t d, h;
  (void)ks;
  if (self->ndim == 0) return ct_fail(CT_ERR_INVALID, "glu", "glu does not support 0-dimensional tensors"), (ct_tensor *)NULL;
  if ((d = ct__wrap_dim("glu", dim, self->ndim)) < 0) return NULL;
  if (self->sizes[d] % 2)
    return ct_fail(CT_ERR_SHAPE, "glu", "Halving dimension must be even, but dimension %lld is size %lld", (long long)d,
                   (long long)self->sizes[d]),
           (ct_tensor *)NULL;
  if (!ct_dtype_is_floating((ct_dtype)self->dtype))
    return ct_fail(CT_ERR_DTYPE, "glu", "\"glu\" is not implemented for '%s'", ct__dtype_torch_name((ct_dtype)self->dtype)),
           (ct_tensor *)NULL;
  h = self->sizes[d] / 2;
  CT_SCOPE {
    ct_tensor *a = ct_narrow(self, d, 0, h), *b = ct_narrow(self, d, h, h);
    ct_tensor *sb = b ? ct_sigmoid(b) : NULL;
    r = a && sb ? ct_keep(ct_mul(a, sb)) : NULL;
  }
  return r;
}
static ct_status ct__k_glu_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *out) {
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("glu");
  return ct__nn_into_out("glu", ct__k_glu(ks, self, dim), out);
}

/* ================= more losses and distances: composites =================
 * As aten writes them (Loss.cpp, LossMultiMargin.cpp, Distance.cpp) or, for
 * multilabel_soft_margin_loss and gaussian_nll_loss (no aten op), as
 * torch.nn.functional does, over ct ops: gradients and double backward come
 * from the ops they call. aten's explicit kernels (huber_loss,
 * soft_margin_loss, multi_margin_loss, _cdist_forward, _euclidean_dist)
 * have the same values and gradients (subgradient 0 at kinks and at zero
 * distances). Reductions are checked (aten treats an unknown int as none). */

/* ---- huber_loss: 0.5 c^2 + delta (|d| - c), c = min(|d|, delta), in self's dtype; out= structured as mse_loss's ---- */
static ct_status ct__nn_huber_check(const char *op, ct_tensor *self, ct_tensor *target, int64_t reduction, double delta) {
  ct_dtype rt = ct__result_type(self, target);
  if (!(delta > 0)) return ct_fail(CT_ERR_INVALID, op, "huber_loss does not support non-positive values for delta.");
  if (ct__nn_check_floating(op, "huber_cpu", rt) != CT_OK) return ct_last_error();
  if (!ct_dtype_is_floating((ct_dtype)self->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(rt),
                   ct__dtype_torch_name((ct_dtype)self->dtype));
  return ct__nn_check_reduction(op, reduction);
}
static ct_tensor *ct__nn_huber_loss(ct_tensor *self, ct_tensor *target, int64_t reduction, double delta) {
  ct_tensor *a = ct__nn_abs(ct_sub(self, target));
  ct_tensor *c = ct_add_scalar(ct_neg(ct_relu(ct_add_scalar(ct_neg(a), ct_float(delta)))), ct_float(delta));
  ct_tensor *l = ct_add(ct_mul_scalar(ct_mul(c, c), ct_float(0.5)), ct_mul_scalar(ct_sub(a, c), ct_float(delta)));
  return ct__nn_reduce(l ? ct_to_dtype(l, (ct_dtype)self->dtype) : NULL, reduction);
}
static ct_tensor *ct__k_huber_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction, double delta) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_huber_check("huber_loss", self, target, reduction, delta) != CT_OK) return NULL;
  CT_SCOPE { r = ct_keep(ct__nn_huber_loss(self, target, reduction, delta)); }
  return r;
}
static ct_status ct__meta_huber_loss(ct__structured *st, ct_tensor *self, ct_tensor *target, int64_t reduction, double delta) {
  if (ct__nn_huber_check(st->op, self, target, reduction, delta) != CT_OK) return ct_last_error();
  return ct__nn_set_pair_output(st, self, target, reduction, (ct_dtype)self->dtype);
}
static ct_status ct__impl_huber_loss(ct_tensor *self, ct_tensor *target, int64_t reduction, double delta, ct_tensor *out) {
  ct_status s = CT_OK;
  CT_SCOPE { s = ct__nn_loss_into(ct__nn_huber_loss(self, target, reduction, delta), out); }
  return s;
}

/* ---- soft_margin_loss: log(1 + exp(-self * target)) into self's shape and dtype (aten's neg_out, mul_, exp_, add_, log_) ---- */
static ct_tensor *ct__k_soft_margin_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction) {
  static const char *op = "soft_margin_loss";
  ct_tensor *r = NULL;
  int64_t shape[CT_MAX_DIMS];
  int n;
  (void)ks;
  if ((n = ct_broadcast_shapes(op, self->ndim, self->sizes, target->ndim, target->sizes, shape)) < 0) return NULL;
  if (n != self->ndim || memcmp(shape, self->sizes, sizeof(int64_t) * (size_t)n) != 0) {
    char b1[160], b2[160];
    return ct_fail(CT_ERR_SHAPE, op, "output with shape %s doesn't match the broadcast shape %s", ct__nn_shape(self, b1, sizeof b1),
                   ct_shape_format(n, shape, b2, sizeof b2)),
           (ct_tensor *)NULL;
  }
  if (!ct_dtype_is_floating((ct_dtype)self->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type Float can't be cast to the desired output type %s", ct__dtype_torch_name((ct_dtype)self->dtype)),
           (ct_tensor *)NULL;
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *u = ct_to_dtype(ct_mul(ct_neg(self), target), (ct_dtype)self->dtype);
    r = ct_keep(ct__nn_reduce(ct_log(ct_add_scalar(ct_exp(u), ct_int(1))), reduction));
  }
  return r;
}
static ct_status ct__k_soft_margin_loss_out(ct_keyset ks, ct_tensor *self, ct_tensor *target, int64_t reduction, ct_tensor *out) {
  return ct__nn_into_out("soft_margin_loss", ct__k_soft_margin_loss(ks, self, target, reduction), out);
}

/* ---- margin_ranking_loss: clamp_min(-target (input1 - input2) + margin, 0) ---- */
static ct_tensor *ct__k_margin_ranking_loss(ct_keyset ks, ct_tensor *input1, ct_tensor *input2, ct_tensor *target, double margin,
                                            int64_t reduction) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_reduction("margin_ranking_loss", reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *l = ct_add_scalar(ct_mul(ct_neg(target), ct_sub(input1, input2)), ct_float(margin));
    r = ct_keep(ct__nn_reduce(ct_clamp_min(l, ct_int(0)), reduction));
  }
  return r;
}

/* ---- hinge_embedding_loss: where(target != 1, clamp_min(margin - self, 0), 0) + where(target != -1, self, 0) ---- */
static ct_tensor *ct__k_hinge_embedding_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, double margin, int64_t reduction) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_reduction("hinge_embedding_loss", reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *zeros = ct_zeros_like(self);
    ct_tensor *mc = ct_clamp_min(ct_add_scalar(ct_neg(self), ct_float(margin)), ct_int(0));
    ct_tensor *l = ct_add(ct_where(ct_ne_scalar(target, ct_int(1)), mc, zeros), ct_where(ct_ne_scalar(target, ct_int(-1)), self, zeros));
    r = ct_keep(ct__nn_reduce(l, reduction));
  }
  return r;
}

/* ---- multilabel_soft_margin_loss (F's): classes along the last dim ---- */
static ct_tensor *ct__k_multilabel_soft_margin_loss(ct_keyset ks, ct_tensor *input, ct_tensor *target, ct_tensor *weight,
                                                    int64_t reduction) {
  static const char *op = "multilabel_soft_margin_loss";
  ct_tensor *r = NULL;
  int64_t cdim;
  (void)ks;
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  if (input->ndim == 0) return ct_fail(CT_ERR_INDEX, op, "Dimension specified as -1 but tensor has no dimensions"), (ct_tensor *)NULL;
  cdim = input->ndim - 1;
  CT_SCOPE {
    ct_tensor *pos = ct_mul(target, ct_log_sigmoid(input));
    ct_tensor *neg = ct_mul(ct_add_scalar(ct_neg(target), ct_int(1)), ct_log_sigmoid(ct_neg(input)));
    ct_tensor *l = ct_neg(ct_add(pos, neg));
    if (weight) l = ct_mul(l, weight);
    l = ct_div_scalar(ct_sum_dim(l, 1, &cdim, false), ct_int(input->sizes[cdim]));
    r = ct_keep(ct__nn_reduce(l, reduction));
  }
  return r;
}

/* ---- multi_margin_loss: aten's checks in its order, then per row
 * sum_{i != y} h(margin - x[y] + x[i]) w[y] / C, h(z) = max(z, 0)^p ---- */
/* ---- multi_margin_loss: the functional a composite; the out= form
 * structured (aten's multi_margin_loss_cpu_out): the meta step's checks
 * and output (self's dtype), the impl's target range check (data) and the
 * composite's ops into out ---- */
static ct_status ct__nn_multi_margin_check(const char *op, ct_tensor *self, ct_tensor *target, ct_scalar p_, ct_tensor *weight,
                                           int64_t reduction, int64_t *nframe, int64_t *dim, int64_t *p) {
  double pd = ct_scalar_to_double(p_); /* aten: p.toInt(), which truncates */
  char b1[160];
  *p = pd >= 1 && pd < 3 ? (int64_t)pd : 0;
  if (*p != 1 && *p != 2) return ct_fail(CT_ERR_INVALID, op, "only p == 1 and p == 2 supported");
  if (!((self->ndim == 2 && self->sizes[1] != 0) || (self->ndim == 1 && self->sizes[0] != 0) || self->ndim == 0))
    return ct_fail(CT_ERR_SHAPE, op, "Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s",
                   ct__nn_shape(self, b1, sizeof b1));
  *nframe = self->ndim <= 1 ? 1 : self->sizes[0];
  *dim = self->ndim == 0 ? 1 : self->sizes[self->ndim - 1];
  if (!(target->ndim <= 1 && target->numel == *nframe))
    return ct_fail(CT_ERR_SHAPE, op, "inconsistent target size, got: %s", ct__nn_shape(target, b1, sizeof b1));
  if (weight && !(weight->ndim <= 1 && weight->numel == *dim))
    return ct_fail(CT_ERR_SHAPE, op, "inconsistent weight size, got: %s", ct__nn_shape(weight, b1, sizeof b1));
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return ct_last_error();
  if (ct__nn_check_floating(op, "multi_margin_loss_cpu_kernel", (ct_dtype)self->dtype) != CT_OK) return ct_last_error();
  if (target->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type Long but found %s", ct__dtype_torch_name((ct_dtype)target->dtype));
  if (weight && weight->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name((ct_dtype)self->dtype),
                   ct__dtype_torch_name((ct_dtype)weight->dtype));
  return CT_OK;
}
/* aten: "target out of range" while it walks the rows */
static ct_status ct__nn_multi_margin_targets(const char *op, ct_tensor *target, int64_t dim) {
  ct_tensor *t;
  int64_t i, bad = 0;
  if (ct__is_meta(target) || !target->numel) return CT_OK;
  if (!(t = ct__nn_i64(op, target))) return ct_last_error();
  for (i = 0; i < t->numel; i++) bad |= ((const int64_t *)ct_data_ptr(t))[i] < 0 || ((const int64_t *)ct_data_ptr(t))[i] >= dim;
  ct_release(t);
  return bad ? ct_fail(CT_ERR_INDEX, op, "target out of range") : CT_OK;
}
static ct_tensor *ct__nn_multi_margin_loss(ct_tensor *self, ct_tensor *target, ct_scalar margin, ct_tensor *weight, int64_t reduction,
                                           int64_t nframe, int64_t dim, int64_t p) {
  int64_t sh[2], tsh[2], csh[2], fd = 1, one = 1;
  ct_tensor *x, *t, *cols, *h, *l;
  sh[0] = nframe, sh[1] = dim, tsh[0] = nframe, tsh[1] = 1, csh[0] = 1, csh[1] = dim;
  x = ct_reshape(self, 2, sh), t = ct_reshape(target, 2, tsh);
  cols = ct_arange_start_step_ex(ct_int(0), ct_int(dim), ct_int(1), CT_I64, self->device);
  h = ct_relu(ct_add_scalar(ct_sub(x, ct_gather(x, 1, t)), margin));
  if (p == 2) h = ct_mul(h, h);
  h = ct_where(ct_ne(ct_view(cols, 2, csh), t), h, ct_zeros_like(x));
  l = ct_div_scalar(ct_sum_dim(h, 1, &fd, false), ct_int(dim));
  if (weight) l = ct_mul(l, ct_index_select(ct_reshape(weight, 1, &dim), 0, ct_reshape(target, 1, &nframe)));
  if (reduction == CT__NN_NONE) l = target->ndim ? l : ct_reshape(l, 0, &one);
  return ct__nn_reduce(l, reduction);
}
static ct_tensor *ct__k_multi_margin_loss(ct_keyset ks, ct_tensor *self, ct_tensor *target, ct_scalar p_, ct_scalar margin,
                                          ct_tensor *weight, int64_t reduction) {
  static const char *op = "multi_margin_loss";
  ct_tensor *r = NULL;
  int64_t nframe, dim, p;
  (void)ks;
  if (ct__nn_multi_margin_check(op, self, target, p_, weight, reduction, &nframe, &dim, &p) != CT_OK ||
      ct__nn_multi_margin_targets(op, target, dim) != CT_OK)
    return NULL;
  CT_SCOPE { r = ct_keep(ct__nn_multi_margin_loss(self, target, margin, weight, reduction, nframe, dim, p)); }
  return r;
}
static ct_status ct__meta_multi_margin_loss(ct__structured *st, ct_tensor *self, ct_tensor *target, ct_scalar p, ct_scalar margin,
                                            ct_tensor *weight, int64_t reduction) {
  int64_t nframe, dim, pi;
  (void)margin;
  if (ct__nn_multi_margin_check(st->op, self, target, p, weight, reduction, &nframe, &dim, &pi) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, reduction == CT__NN_NONE ? target->ndim : 0, &nframe, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_multi_margin_loss(ct_tensor *self, ct_tensor *target, ct_scalar p_, ct_scalar margin, ct_tensor *weight,
                                            int64_t reduction, ct_tensor *out) {
  static const char *op = "multi_margin_loss";
  int64_t nframe, dim, p;
  ct_status s = ct__nn_multi_margin_check(op, self, target, p_, weight, reduction, &nframe, &dim, &p);
  if (s == CT_OK) s = ct__nn_multi_margin_targets(op, target, dim);
  if (s == CT_OK) CT_SCOPE { s = ct__nn_loss_into(ct__nn_multi_margin_loss(self, target, margin, weight, reduction, nframe, dim, p), out); }
  return s;
}

/* ---- distances ---- */
/* pairwise_distance: norm(x1 - x2 + eps, p) over the last dim of the broadcast */
static ct_tensor *ct__k_pairwise_distance(ct_keyset ks, ct_tensor *x1, ct_tensor *x2, double p, double eps, bool keepdim) {
  ct_tensor *r = NULL;
  int64_t inner = (x1->ndim > x2->ndim ? x1->ndim : x2->ndim) - 1;
  (void)ks;
  CT_SCOPE { r = ct_keep(ct_norm_dim(ct_add_scalar(ct_sub(x1, x2), ct_float(eps)), ct_float(p), 1, &inner, keepdim)); }
  return r;
}
/* cosine_similarity as aten 1.13: each input divided by sqrt of its squared
 * norm clamped at eps^2 (the clamp under no_grad: its gradient passes
 * through), then the products summed */
static ct_tensor *ct__nn_clamp_min_nograd(ct_tensor *v, double eps) {
  return ct_add(ct_detach(ct_clamp_min(v, ct_float(eps))), ct_sub(v, ct_detach(v)));
}
static ct_tensor *ct__k_cosine_similarity(ct_keyset ks, ct_tensor *x1, ct_tensor *x2, int64_t dim, double eps) {
  static const char *op = "cosine_similarity";
  ct_dtype dt = ct__result_type(x1, x2);
  ct_tensor *r = NULL;
  (void)ks;
  if (!ct_dtype_is_floating(dt))
    return ct_fail(CT_ERR_DTYPE, op, "expected common dtype to be floating point, yet common dtype is %s", ct__dtype_torch_name(dt)),
           (ct_tensor *)NULL;
  CT_SCOPE {
    int64_t shape[CT_MAX_DIMS];
    int n = ct_broadcast_shapes(op, x1->ndim, x1->sizes, x2->ndim, x2->sizes, shape);
    ct_tensor *a = ct_dtype_is_floating((ct_dtype)x1->dtype) ? x1 : ct_to_dtype(x1, dt);
    ct_tensor *b = ct_dtype_is_floating((ct_dtype)x2->dtype) ? x2 : ct_to_dtype(x2, dt);
    if (n >= 0) {
      ct_tensor *n1, *n2;
      a = ct_expand(a, n, shape), b = ct_expand(b, n, shape);
      n1 = ct_sqrt(ct__nn_clamp_min_nograd(ct_sum_dim(ct_mul(a, a), 1, &dim, true), eps * eps));
      n2 = ct_sqrt(ct__nn_clamp_min_nograd(ct_sum_dim(ct_mul(b, b), 1, &dim, true), eps * eps));
      r = ct_keep(ct_sum_dim(ct_mul(ct_div(a, n1), ct_div(b, n2)), 1, &dim, false));
    }
  }
  return r;
}
/* cdist: the direct path (_cdist_forward: the p-norm of the row differences;
 * its subgradients are linalg_vector_norm's, 0 at zero distance) or, for
 * p = 2 with compute_mode 1 or (None/0 and more than 25 rows), the matrix
 * product of aten's _euclidean_dist with its gradient (0 at zero distance) */
static ct_tensor *ct__nn_euclidean_dist(ct_tensor *x1, ct_tensor *x2) {
  int64_t last = -1;
  ct_tensor *n1 = ct_sum_dim(ct_mul(x1, x1), 1, &last, true), *n2 = ct_sum_dim(ct_mul(x2, x2), 1, &last, true);
  ct_tensor *a[3], *b[3], *m, *s, *z;
  a[0] = ct_mul_scalar(x1, ct_int(-2)), a[1] = n1, a[2] = n1 ? ct_ones_like(n1) : NULL;
  b[0] = x2, b[1] = n2 ? ct_ones_like(n2) : NULL, b[2] = n2;
  m = ct_matmul(ct_cat(3, a, -1), ct_transpose(ct_cat(3, b, -1), -2, -1));
  s = ct_clamp_min(m, ct_int(0));
  z = s ? ct_to_dtype(ct_eq_scalar(s, ct_int(0)), (ct_dtype)s->dtype) : NULL; /* constant */
  return ct_mul(ct_sqrt(ct_add(s, z)), ct_add_scalar(ct_neg(z), ct_int(1)));
}
static ct_tensor *ct__k_cdist(ct_keyset ks, ct_tensor *x1, ct_tensor *x2, double p, int64_t compute_mode) {
  static const char *op = "cdist";
  ct_tensor *r = NULL;
  int64_t r1, r2, mode = compute_mode == CT_INT_NONE ? 0 : compute_mode;
  (void)ks;
  if (x1->ndim < 2) return ct_fail(CT_ERR_RANK, op, "cdist only supports at least 2D tensors, X1 got: %dD", x1->ndim), (ct_tensor *)NULL;
  if (x2->ndim < 2) return ct_fail(CT_ERR_RANK, op, "cdist only supports at least 2D tensors, X2 got: %dD", x2->ndim), (ct_tensor *)NULL;
  if (x1->sizes[x1->ndim - 1] != x2->sizes[x2->ndim - 1])
    return ct_fail(CT_ERR_SHAPE, op, "X1 and X2 must have the same number of columns. X1: %lld X2: %lld", (long long)x1->sizes[x1->ndim - 1],
                   (long long)x2->sizes[x2->ndim - 1]),
           (ct_tensor *)NULL;
  if (!ct_dtype_is_floating((ct_dtype)x1->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "cdist only supports floating-point dtypes, X1 got: %s", ct__dtype_torch_name((ct_dtype)x1->dtype)),
           (ct_tensor *)NULL;
  if (!ct_dtype_is_floating((ct_dtype)x2->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "cdist only supports floating-point dtypes, X2 got: %s", ct__dtype_torch_name((ct_dtype)x2->dtype)),
           (ct_tensor *)NULL;
  if (!(p >= 0)) return ct_fail(CT_ERR_INVALID, op, "cdist only supports non-negative p values"), (ct_tensor *)NULL;
  if (mode < 0 || mode > 2) return ct_fail(CT_ERR_INVALID, op, "possible modes: 0, 1, 2, but was: %lld", (long long)mode), (ct_tensor *)NULL;
  if (x1->dtype != x2->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name((ct_dtype)x1->dtype),
                   ct__dtype_torch_name((ct_dtype)x2->dtype)),
           (ct_tensor *)NULL;
  r1 = x1->sizes[x1->ndim - 2], r2 = x2->sizes[x2->ndim - 2];
  CT_SCOPE {
    int64_t last = -1;
    if (x1->numel && x2->numel && p == 2 && (mode == 1 || (mode == 0 && (r1 > 25 || r2 > 25)))) {
      int64_t b1[CT_MAX_DIMS], b2[CT_MAX_DIMS], batch[CT_MAX_DIMS];
      int nb = ct_broadcast_shapes(op, x1->ndim - 2, x1->sizes, x2->ndim - 2, x2->sizes, batch);
      if (nb >= 0) { /* the batch dims broadcast first, as aten's cdist_impl */
        memcpy(b1, batch, sizeof(int64_t) * (size_t)nb), memcpy(b2, batch, sizeof(int64_t) * (size_t)nb);
        b1[nb] = r1, b2[nb] = r2, b1[nb + 1] = b2[nb + 1] = x1->sizes[x1->ndim - 1];
        r = ct_keep(ct__nn_euclidean_dist(ct_expand(x1, nb + 2, b1), ct_expand(x2, nb + 2, b2)));
      }
    } else {
      ct_tensor *d = ct_sub(ct_unsqueeze(x1, -2), ct_unsqueeze(x2, -3));
      r = ct_keep(ct_linalg_vector_norm(d, ct_float(p), 1, &last, false));
    }
  }
  return r;
}

/* ---- triplet_margin_loss ---- */
static ct_tensor *ct__k_triplet_margin_loss(ct_keyset ks, ct_tensor *anchor, ct_tensor *positive, ct_tensor *negative, double margin,
                                            double p, double eps, bool swap, int64_t reduction) {
  static const char *op = "triplet_margin_loss";
  ct_tensor *r = NULL;
  (void)ks;
  if (anchor->ndim != positive->ndim || positive->ndim != negative->ndim)
    return ct_fail(CT_ERR_SHAPE, op, "All inputs should have same dimension but got %dD, %dD and %dD inputs.", anchor->ndim, positive->ndim,
                   negative->ndim),
           (ct_tensor *)NULL;
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *dp = ct_pairwise_distance(anchor, positive, p, eps, false), *dn = ct_pairwise_distance(anchor, negative, p, eps, false);
    if (swap) dn = ct_minimum(dn, ct_pairwise_distance(positive, negative, p, eps, false));
    r = ct_keep(ct__nn_reduce(ct_clamp_min(ct_sub(ct_add_scalar(dp, ct_float(margin)), dn), ct_int(0)), reduction));
  }
  return r;
}

/* ---- cosine_embedding_loss (aten: EPSILON 1e-12 added to the squared magnitudes) ---- */
static ct_tensor *ct__k_cosine_embedding_loss(ct_keyset ks, ct_tensor *input1, ct_tensor *input2, ct_tensor *target, double margin,
                                              int64_t reduction) {
  static const char *op = "cosine_embedding_loss";
  ct_tensor *r = NULL;
  int64_t td = target->ndim;
  char b1[160], b2[160];
  (void)ks;
  if (td != 0 && td != 1) return ct_fail(CT_ERR_SHAPE, op, "0D or 1D target tensor expected, multi-target not supported"), (ct_tensor *)NULL;
  if (td == 1 && !(input1->ndim == 2 && input2->ndim == 2))
    return ct_fail(CT_ERR_SHAPE, op, "1D target tensor expects 2D input tensors, but found inputs with sizes %s and %s.",
                   ct__nn_shape(input1, b1, sizeof b1), ct__nn_shape(input2, b2, sizeof b2)),
           (ct_tensor *)NULL;
  if (td == 0 && !(input1->ndim == 1 && input2->ndim == 1))
    return ct_fail(CT_ERR_SHAPE, op, "0D target tensor expects 1D input tensors, but found inputs with sizes %s and %s.",
                   ct__nn_shape(input1, b1, sizeof b1), ct__nn_shape(input2, b2, sizeof b2)),
           (ct_tensor *)NULL;
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *prod = ct_sum_dim(ct_mul(input1, input2), 1, &td, false);
    ct_tensor *m1 = ct_add_scalar(ct_sum_dim(ct_mul(input1, input1), 1, &td, false), ct_float(1e-12));
    ct_tensor *m2 = ct_add_scalar(ct_sum_dim(ct_mul(input2, input2), 1, &td, false), ct_float(1e-12));
    ct_tensor *cosv = ct_div(prod, ct_sqrt(ct_mul(m1, m2))), *zeros = cosv ? ct_zeros_like(cosv) : NULL;
    ct_tensor *pos = ct_add_scalar(ct_neg(cosv), ct_int(1));
    ct_tensor *neg = ct_clamp_min(ct_sub_scalar(cosv, ct_float(margin)), ct_int(0));
    ct_tensor *l = ct_add(ct_where(ct_eq_scalar(target, ct_int(1)), pos, zeros), ct_where(ct_eq_scalar(target, ct_int(-1)), neg, zeros));
    r = ct_keep(ct__nn_reduce(l, reduction));
  }
  return r;
}

/* ---- poisson_nll_loss (aten's composite) ---- */
static ct_tensor *ct__k_poisson_nll_loss(ct_keyset ks, ct_tensor *input, ct_tensor *target, bool log_input, bool full, double eps,
                                         int64_t reduction) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__nn_check_reduction("poisson_nll_loss", reduction) != CT_OK) return NULL;
  CT_SCOPE {
    ct_tensor *l = log_input ? ct_sub(ct_exp(input), ct_mul(target, input))
                             : ct_sub(input, ct_mul(target, ct_log(ct_add_scalar(input, ct_float(eps)))));
    if (full) {
      ct_tensor *st = ct_add(ct_sub(ct_mul(target, ct_log(target)), target),
                             ct_mul_scalar(ct_log(ct_mul_scalar(target, ct_float(2 * 3.14159265358979323846))), ct_float(0.5)));
      l = ct_add(l, ct_masked_fill(st, ct_le_scalar(target, ct_int(1)), ct_int(0)));
    }
    r = ct_keep(ct__nn_reduce(l, reduction));
  }
  return r;
}

/* ---- gaussian_nll_loss (F's): var (input's shape, or one dim short, or last dim 1) clamped at eps without cutting the gradient ---- */
static ct_tensor *ct__k_gaussian_nll_loss(ct_keyset ks, ct_tensor *input, ct_tensor *target, ct_tensor *var, bool full, double eps,
                                          int64_t reduction) {
  static const char *op = "gaussian_nll_loss";
  ct_tensor *r = NULL;
  int unsq = 0;
  (void)ks;
  if (!ct_same_shape(var, input)) { /* F's input.size()[:-1] == var.size(), or == var.size()[:-1] with var.size(-1) == 1 */
    int pn = input->ndim > 0 ? input->ndim - 1 : 0;
    size_t pb = sizeof(int64_t) * (size_t)pn;
    if (var->ndim == pn && !memcmp(var->sizes, input->sizes, pb))
      unsq = 1;
    else if (!(var->ndim == pn + 1 && !memcmp(var->sizes, input->sizes, pb) && var->sizes[pn] == 1))
      return ct_fail(CT_ERR_SHAPE, op, "var is of incorrect size"), (ct_tensor *)NULL;
  }
  if (ct__nn_check_reduction(op, reduction) != CT_OK) return NULL;
  if (!ct_dtype_is_floating((ct_dtype)var->dtype)) /* F's var.clamp_(min=eps) */
    return ct_fail(CT_ERR_DTYPE, op, "result type Float can't be cast to the desired output type %s", ct__dtype_torch_name((ct_dtype)var->dtype)),
           (ct_tensor *)NULL;
  if (!ct__is_meta(var) && var->numel) {
    ct_tensor *v = ct__nn_f64(op, var);
    int64_t i, bad = 0;
    if (!v) return NULL;
    for (i = 0; i < v->numel; i++) bad |= ct__nn_cdata(v)[i] < 0;
    ct_release(v);
    if (bad) return ct_fail(CT_ERR_INVALID, op, "var has negative entry/entries"), (ct_tensor *)NULL;
  }
  CT_SCOPE {
    ct_tensor *v = ct__nn_clamp_min_nograd(unsq ? ct_unsqueeze(var, -1) : var, eps), *d = ct_sub(input, target);
    ct_tensor *l = ct_mul_scalar(ct_add(ct_log(v), ct_div(ct_mul(d, d), v)), ct_float(0.5));
    if (full) l = ct_add_scalar(l, ct_float(0.5 * log(2 * 3.14159265358979323846)));
    r = ct_keep(ct__nn_reduce(l, reduction));
  }
  return r;
}

CT_EXTERN_C_END
#endif /* CT__OPS_NN_IMPL */
