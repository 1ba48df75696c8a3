/* ctorch/ops/factory.h - factories: empty, zeros, ones, full, scalar_tensor, arange; host data in.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/factory.spec; the frontends are generated
 * (docs/ops.md). A factory has a `Device? device` argument and no Tensor
 * argument, so its call has no tensor to take keys from: BackendSelect
 * (dispatch.h, ct__backend_select) sends it to its device's backend (None:
 * the thread's default device, or a random factory's generator's). empty
 * allocates through the device interface, so one kernel serves every
 * backend (a backend may register its own); the others are composites over
 * empty and a dispatched fill_ or out= op, as PyTorch's. The random
 * factories, eye and linspace are in ops/random.h.
 */
#ifndef CT_OPS_FACTORY_H
#define CT_OPS_FACTORY_H

#include "../ops.h"

CT_EXTERN_C_BEGIN

/* ct_empty, ct_zeros, ct_ones (ndim, sizes, dtype), ct_full (ndim, sizes,
 * value, dtype), ct_scalar_tensor (value, dtype) and ct_arange_start_step
 * (Scalar bounds) are the generated frontends of the ops; their _ex forms
 * take a device (CT_NO_DEVICE: the thread's default). These take options
 * or host data: */
CTDEF ct_tensor *ct_empty_opts(int ndim, const int64_t *sizes, ct_options opts);
CTDEF ct_tensor *ct_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides, ct_options opts);
CTDEF ct_tensor *ct_full_opts(int ndim, const int64_t *sizes, ct_scalar value, ct_options opts);
/* [start, end) in steps of step, as torch.arange, on the default device
 * (dtype CT_DTYPE_NONE: float32; the arange op with Scalar bounds infers
 * int64 from integer bounds, as PyTorch). */
CTDEF ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype);
/* Copies numel elements of `dtype` from data (row-major) into a new tensor on
 * the default device (_ex: on device; CT_NO_DEVICE: the default), as
 * torch.tensor(data, device=...): made on the host, then copied. */
CTDEF ct_tensor *ct_from_array(int ndim, const int64_t *sizes, ct_dtype dtype, const void *data);
CTDEF ct_tensor *ct_from_array_ex(int ndim, const int64_t *sizes, ct_dtype dtype, const void *data, ct_device device);

CT_EXTERN_C_END
#endif /* CT_OPS_FACTORY_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_FACTORY_IMPL)
#define CT__OPS_FACTORY_IMPL
#include <math.h>
#include <string.h>
CT_EXTERN_C_BEGIN

/* ---- kernels: BackendSelect has put the call on its device's backend and resolved a None device ---- */
static ct_dtype ct__factory_dtype(ct_dtype dtype) { return dtype == CT_DTYPE_NONE ? CT_F32 : dtype; }
static int ct__factory_rank(ct_int_list l) { return l.n < 0 || l.n > 64 ? -1 : (int)l.n; } /* (-1 and > 8: ct__checked_numel's error) */
static ct_tensor *ct__k_empty(ct_keyset ks, ct_int_list size, ct_dtype dtype, ct_device device, bool pin_memory) {
  (void)ks;
  if (ct_device_is_none(device)) device = ct_default_device();
  if (pin_memory && device.type != CT_DEVICE_META) { /* (meta has no memory to pin: ignored, as PyTorch's empty_meta) */
    if (device.type != CT_DEVICE_CPU)
      return ct_fail(CT_ERR_DEVICE, "empty", "Only dense CPU tensors can be pinned (device %s:%d)",
                     ct_device_type_name((ct_device_type)device.type), device.index),
             (ct_tensor *)NULL;
    return ct__empty_pinned("empty", ct__factory_rank(size), size.data, ct__factory_dtype(dtype), CT_NO_DEVICE);
  }
  return ct__empty("empty", ct__factory_rank(size), size.data, ct__factory_dtype(dtype), device);
}
/* empty + fill_; the size and dtype checked first, so that errors name the op called. empty is
 * redispatched with the call's keys (BackendSelect has chosen the backend already), as c10's
 * composites call at::_ops::empty::redispatch. */
static ct_tensor *ct__factory_filled(const char *op, ct_keyset ks, ct_int_list size, ct_scalar value, ct_dtype dtype,
                                     ct_device device) {
  ct_tensor *t;
  if (ct__checked_numel(op, ct__factory_rank(size), size.data, ct__factory_dtype(dtype)) < 0) return NULL;
  if (ct_device_is_none(device)) device = ct_default_device(); /* (a direct call: BackendSelect resolves it) */
  t = ct__dispatch_empty_memory_format(ks, size, dtype, device, false);
  return t ? ct__factory_finish(t, ct_fill_(t, value)) : NULL;
}
static ct_tensor *ct__k_zeros(ct_keyset ks, ct_int_list size, ct_dtype dtype, ct_device device) {
  return ct__factory_filled("zeros", ks, size, ct_int(0), dtype, device);
}
static ct_tensor *ct__k_ones(ct_keyset ks, ct_int_list size, ct_dtype dtype, ct_device device) {
  return ct__factory_filled("ones", ks, size, ct_int(1), dtype, device);
}
static ct_tensor *ct__k_full(ct_keyset ks, ct_int_list size, ct_scalar value, ct_dtype dtype, ct_device device) {
  if (value.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "full", "fill_value is None"), (ct_tensor *)NULL;
  return ct__factory_filled("full", ks, size, value, dtype == CT_DTYPE_NONE ? ct_scalar_dtype(value) : dtype, device);
}
static ct_tensor *ct__k_scalar_tensor(ct_keyset ks, ct_scalar s, ct_dtype dtype, ct_device device) {
  ct_int_list none;
  if (s.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "scalar_tensor", "s is None"), (ct_tensor *)NULL;
  none.data = NULL, none.n = 0;
  return ct__factory_filled("scalar_tensor", ks, none, s, dtype, device);
}

/* ---- _like and new_ (CompositeImplicitAutograd): the factories with self's dtype and device as defaults ---- */
static ct_tensor *ct__factory_like(ct_tensor *self, const ct_scalar *fill, ct_dtype dtype, ct_device device, bool pin_memory) {
  int64_t order[CT_MAX_DIMS] = {0}, sizes[CT_MAX_DIMS] = {0}, st[CT_MAX_DIMS] = {0}, dense[CT_MAX_DIMS] = {0};
  int i, j, n = self->ndim, permuted = self->numel > 1 && !ct_is_contiguous(self) && ct__non_overlapping_and_dense(self);
  ct_tensor *r = NULL;
  if (dtype == CT_DTYPE_NONE) dtype = (ct_dtype)self->dtype;
  if (ct_device_is_none(device)) device = self->device;
  /* dense but permuted (a transpose): the same layout (PyTorch's preserve_format) - the dims
   * ordered by stride, outermost first, made contiguous, and seen in self's order */
  for (i = 0; i < n; i++) order[i] = i;
  for (i = 1; permuted && i < n; i++)
    for (j = i; j > 0 && self->strides[order[j]] > self->strides[order[j - 1]]; j--) {
      int64_t t = order[j];
      order[j] = order[j - 1], order[j - 1] = t;
    }
  for (i = 0; i < n; i++) sizes[i] = self->sizes[order[i]];
  ct__contiguous_strides(n, sizes, dense);
  for (i = 0; i < n; i++) st[order[i]] = dense[i];
  CT_SCOPE {
    ct_tensor *e = ct_empty_ex(n, sizes, dtype, device, pin_memory);
    if (e && permuted) e = ct__track(ct__make_view(e, n, self->sizes, st, e->offset)); /* (a plain tensor, no base) */
    if (e && fill && ct_fill_(e, *fill) != CT_OK) e = NULL;
    r = ct_keep(e);
  }
  return r ? ct__factory_made(r) : NULL;
}
static ct_tensor *ct__k_empty_like(ct_keyset ks, ct_tensor *self, ct_dtype dtype, ct_device device, bool pin_memory) {
  (void)ks;
  return ct__factory_like(self, NULL, dtype, device, pin_memory);
}
static ct_tensor *ct__k_zeros_like(ct_keyset ks, ct_tensor *self, ct_dtype dtype, ct_device device, bool pin_memory) {
  ct_scalar v = ct_int(0);
  (void)ks;
  return ct__factory_like(self, &v, dtype, device, pin_memory);
}
static ct_tensor *ct__k_ones_like(ct_keyset ks, ct_tensor *self, ct_dtype dtype, ct_device device, bool pin_memory) {
  ct_scalar v = ct_int(1);
  (void)ks;
  return ct__factory_like(self, &v, dtype, device, pin_memory);
}
static ct_tensor *ct__k_full_like(ct_keyset ks, ct_tensor *self, ct_scalar fill_value, ct_dtype dtype, ct_device device,
                                  bool pin_memory) {
  (void)ks;
  if (fill_value.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "full_like", "fill_value is None"), (ct_tensor *)NULL;
  return ct__factory_like(self, &fill_value, dtype, device, pin_memory);
}
/* new_*: size, with self's dtype and device unless given */
static ct_tensor *ct__factory_new(ct_tensor *self, ct_int_list size, const ct_scalar *fill, ct_dtype dtype, ct_device device,
                                  bool pin_memory) {
  ct_tensor *r = NULL;
  if (dtype == CT_DTYPE_NONE) dtype = (ct_dtype)self->dtype;
  if (ct_device_is_none(device)) device = self->device;
  CT_SCOPE {
    ct_tensor *e = ct_empty_ex(ct__factory_rank(size), size.data, dtype, device, pin_memory);
    if (e && fill && ct_fill_(e, *fill) != CT_OK) e = NULL;
    r = ct_keep(e);
  }
  return r ? ct__factory_made(r) : NULL;
}
static ct_tensor *ct__k_new_empty(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_dtype dtype, ct_device device, bool pin_memory) {
  (void)ks;
  return ct__factory_new(self, size, NULL, dtype, device, pin_memory);
}
static ct_tensor *ct__k_new_zeros(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_dtype dtype, ct_device device, bool pin_memory) {
  ct_scalar v = ct_int(0);
  (void)ks;
  return ct__factory_new(self, size, &v, dtype, device, pin_memory);
}
static ct_tensor *ct__k_new_ones(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_dtype dtype, ct_device device, bool pin_memory) {
  ct_scalar v = ct_int(1);
  (void)ks;
  return ct__factory_new(self, size, &v, dtype, device, pin_memory);
}
static ct_tensor *ct__k_new_full(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_scalar fill_value, ct_dtype dtype,
                                 ct_device device, bool pin_memory) {
  (void)ks;
  if (fill_value.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "new_full", "fill_value is None"), (ct_tensor *)NULL;
  return ct__factory_new(self, size, &fill_value, dtype, device, pin_memory);
}

/* ---- tril_indices / triu_indices: the (row, col) pairs of the lower / upper triangle, row by row
 * (offset as tril's / triu's diagonal), as a (2, N) int64 or int32 tensor ---- */
/* row i's columns [lo, hi): tril's j <= i + offset, triu's j >= i + offset (no overflow: 0 <= i < row) */
static void ct__triangle_row(int upper, int64_t i, int64_t col, int64_t offset, int64_t *lo, int64_t *hi) {
  int64_t edge = offset >= col ? col : i + offset; /* (i + offset < i + col) */
  *lo = upper ? edge : 0;
  *hi = upper ? col : offset >= col ? col : edge + 1;
  if (*lo < 0) *lo = 0;
  if (*hi > col) *hi = col;
  if (*hi < *lo) *hi = *lo;
}
/* the checks of tril_indices / triu_indices (dtype: the out's), the rows that have
 * any index [*first, *last) and the count *n */
static ct_status ct__triangle_indices_geometry(const char *op, int upper, int64_t row, int64_t col, int64_t offset, ct_dtype dtype,
                                               int64_t *first_, int64_t *last_, int64_t *n_) {
  int64_t i, n = 0, first, last, full_lo, full_hi;
  if (row < 0) return ct_fail(CT_ERR_INVALID, op, "row must be non-negative, got%lld", (long long)row);
  if (col < 0) return ct_fail(CT_ERR_INVALID, op, "col must be non-negative, got%lld", (long long)col);
  if (dtype != CT_I64 && dtype != CT_I32) return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name(dtype));
  /* the rows that have any index (tril: i + offset >= 0; triu: i + offset < col), so that the
   * loops below are as long as the result */
  if (col == 0) first = last = 0;
  else if (upper) first = 0, last = offset >= col ? 0 : offset < col - row ? row : col - offset;
  else first = offset >= 0 ? 0 : offset < -row ? row : -offset, last = row;
  /* the count: the full rows (width col) at once - triu's first ones (i + offset <= 0), tril's last
   * ones (i + offset + 1 >= col) - and the at most col partial rows one by one */
  if (upper) full_lo = first, full_hi = offset < -last ? last : -offset + 1 < last ? -offset + 1 : last;
  else full_lo = offset >= col - 1 ? first : offset < col - 1 - last ? last : col - 1 - offset, full_hi = last;
  if (full_lo < first) full_lo = first;
  if (full_hi < full_lo) full_hi = full_lo;
  if (ct__mul_ovf(full_hi - full_lo, col, &n) || n > CT__MAX_ELEMENTS / 2) return ct_fail(CT_ERR_SIZE, op, "too many indices");
  for (i = first; i < last; i++) {
    int64_t lo, hi;
    if (i == full_lo) i = full_hi;
    if (i >= last) break;
    ct__triangle_row(upper, i, col, offset, &lo, &hi);
    n += hi - lo;
  }
  *first_ = first, *last_ = last, *n_ = n;
  return CT_OK;
}
/* structured (ops/structured.h): the meta step checks and declares the (2, N) out (the out's own dtype:
 * the functional forms are composites over these), the impl writes the row and column of each index */
static ct_status ct__triangle_indices_meta(ct__structured *st, int upper, int64_t row, int64_t col, int64_t offset) {
  ct_tensor *out = st->given[0];
  int64_t first, last, shape[2];
  if (ct__triangle_indices_geometry(st->op, upper, row, col, offset, (ct_dtype)out->dtype, &first, &last, &shape[1]) != CT_OK)
    return ct_last_error();
  shape[0] = 2;
  return ct__set_output(st, 0, 2, shape, (ct_dtype)out->dtype, out->device);
}
static ct_status ct__triangle_indices_impl(const char *op, int upper, int64_t row, int64_t col, int64_t offset, ct_tensor *out) {
  int64_t i, k, n, first, last;
  char *base = (char *)ct_data_ptr(out);
  size_t es = ct_dtype_size((ct_dtype)out->dtype);
  if (ct__triangle_indices_geometry(op, upper, row, col, offset, (ct_dtype)out->dtype, &first, &last, &n) != CT_OK) return ct_last_error();
  for (i = first, k = 0; n > 0 && i < last; i++) {
    int64_t lo, hi, j;
    ct__triangle_row(upper, i, col, offset, &lo, &hi);
    for (j = lo; j < hi; j++, k++) {
      ct__store_double(base + (size_t)k * es, (ct_dtype)out->dtype, (double)i);
      ct__store_double(base + (size_t)(n + k) * es, (ct_dtype)out->dtype, (double)j);
    }
  }
  return CT_OK;
}
static ct_status ct__meta_tril_indices(ct__structured *st, int64_t row, int64_t col, int64_t offset) {
  return ct__triangle_indices_meta(st, 0, row, col, offset);
}
static ct_status ct__impl_tril_indices(int64_t row, int64_t col, int64_t offset, ct_tensor *out) {
  return ct__triangle_indices_impl("tril_indices", 0, row, col, offset, out);
}
static ct_status ct__meta_triu_indices(ct__structured *st, int64_t row, int64_t col, int64_t offset) {
  return ct__triangle_indices_meta(st, 1, row, col, offset);
}
static ct_status ct__impl_triu_indices(int64_t row, int64_t col, int64_t offset, ct_tensor *out) {
  return ct__triangle_indices_impl("triu_indices", 1, row, col, offset, out);
}
static ct_tensor *ct__k_tril_indices(ct_keyset ks, int64_t row, int64_t col, int64_t offset, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__factory_empty_for_out(ks, dtype == CT_DTYPE_NONE ? CT_I64 : dtype, device);
  return t ? ct__factory_finish(t, ct_tril_indices_out(t, row, col, offset)) : NULL;
}
static ct_tensor *ct__k_triu_indices(ct_keyset ks, int64_t row, int64_t col, int64_t offset, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__factory_empty_for_out(ks, dtype == CT_DTYPE_NONE ? CT_I64 : dtype, device);
  return t ? ct__factory_finish(t, ct_triu_indices_out(t, row, col, offset)) : NULL;
}

/* arange_out as PyTorch's: start, end and step convert to the dtype's
 * accumulation type; for integer dtypes that is int64, checked (NaN, inf,
 * 1e20: "value cannot be converted to type int64_t without overflow"), the
 * values are start + i * step in int64 (a float step truncates), wrapped into
 * the dtype; the length comes from the int64 values for int64, from the
 * doubles for the narrower dtypes. */
typedef struct ct__arange_geom {
  double start, step;
  int64_t iv[3], len;
  int integral;
} ct__arange_geom;
static ct_status ct__arange_geometry(const char *op, ct_scalar start_s, ct_scalar end_s, ct_scalar step_s, ct_dtype dtype, ct__arange_geom *g) {
  const ct_scalar sv[3] = {start_s, end_s, step_s};
  double start = ct_scalar_to_double(start_s), end = ct_scalar_to_double(end_s), step = ct_scalar_to_double(step_s);
  double n, span = step != 0 ? (end - start) / step : 0; /* the narrower integer dtypes' length: from the doubles */
  int64_t i, *iv = g->iv;
  int integral = ct_dtype_is_integral(dtype, false);
  iv[0] = iv[1] = iv[2] = 0;
  for (i = 0; i < 3; i++)
    if (sv[i].kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, op, "start, end and step must be numbers");
  if (dtype == CT_BOOL) return ct_fail(CT_ERR_DTYPE, op, "\"arange_cpu\" not implemented for 'Bool'");
  if (integral) {
    for (i = 0; i < 3; i++) {
      double v = ct_scalar_to_double(sv[i]);
      if (sv[i].kind != CT_SCALAR_FLOAT) iv[i] = ct_scalar_to_int(sv[i]);
      else if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0))
        return ct_fail(CT_ERR_INVALID, op, "value cannot be converted to type int64_t without overflow");
      else iv[i] = ct__f2i64(v);
    }
    start = (double)iv[0], end = (double)iv[1], step = (double)iv[2]; /* the checks below see the int64 values, as PyTorch's */
  }
  if (step == 0 || step != step) return ct_fail(CT_ERR_INVALID, op, "step must be nonzero");
  if (!isfinite(start) || !isfinite(end)) return ct_fail(CT_ERR_INVALID, op, "unsupported range: %g -> %g", start, end);
  if ((step > 0 && end < start) || (step < 0 && end > start))
    return ct_fail(CT_ERR_INVALID, op, "upper bound and larger bound inconsistent with step sign");
  n = ceil(!integral ? (end - start) / step : dtype == CT_I64 ? (double)(int64_t)((uint64_t)iv[1] - (uint64_t)iv[0]) / step : span);
  if (!(n >= 0) || n > 9.0e15) return ct_fail(CT_ERR_SIZE, op, "too many elements (%g)", n);
  g->len = (int64_t)n, g->start = start, g->step = step, g->integral = integral;
  return CT_OK;
}
/* structured (ops/structured.h): the checks and the length in the meta step (the out's dtype: arange
 * itself is a composite over this), the values in the impl */
static ct_status ct__meta_arange(ct__structured *st, ct_scalar start, ct_scalar end, ct_scalar step) {
  ct__arange_geom g;
  memset(&g, 0, sizeof g); /* (filled by ct__arange_geometry; cleared for the analysers) */
  if (ct__arange_geometry(st->op, start, end, step, (ct_dtype)st->given[0]->dtype, &g) != CT_OK) return ct_last_error();
  return ct__set_output(st, 0, 1, &g.len, (ct_dtype)st->given[0]->dtype, st->given[0]->device);
}
static ct_status ct__impl_arange(ct_scalar start, ct_scalar end, ct_scalar step, ct_tensor *out) {
  ct__arange_geom g;
  ct_dtype dtype = (ct_dtype)out->dtype;
  size_t es = ct_dtype_size(dtype);
  char *base = (char *)ct_data_ptr(out);
  int64_t i;
  memset(&g, 0, sizeof g); /* (filled by ct__arange_geometry; cleared for the analysers) */
  if (ct__arange_geometry("arange", start, end, step, dtype, &g) != CT_OK) return ct_last_error();
  for (i = 0; i < g.len; i++) {
    char *p = base + (size_t)i * es;
    if (g.integral) { /* int64 arithmetic, wrapping, then a wrapping narrowing */
      uint64_t v = (uint64_t)g.iv[0] + (uint64_t)g.iv[2] * (uint64_t)i;
      if (dtype == CT_I64) *(int64_t *)(void *)p = (int64_t)v;
      else if (dtype == CT_I32) *(int32_t *)(void *)p = (int32_t)(uint32_t)v;
      else *(uint8_t *)p = (uint8_t)v;
    } else {
      ct__store_double(p, dtype, g.start + (double)i * g.step);
    }
  }
  return CT_OK;
}
/* arange: empty on the device, then arange.start_out (PyTorch's composite) */
static ct_tensor *ct__k_arange(ct_keyset ks, ct_scalar start, ct_scalar end, ct_scalar step, ct_dtype dtype, ct_device device) {
  ct_tensor *t;
  if (dtype == CT_DTYPE_NONE)
    dtype = start.kind != CT_SCALAR_FLOAT && end.kind != CT_SCALAR_FLOAT && step.kind != CT_SCALAR_FLOAT ? CT_I64 : CT_F32;
  t = ct__factory_empty_for_out(ks, dtype, device);
  return t ? ct__factory_finish(t, ct_arange_out(t, start, end, step)) : NULL;
}

/* ---- the hand-written factories (options, host data, _like) ---- */
CTDEF ct_tensor *ct_empty_opts(int ndim, const int64_t *sizes, ct_options opts) {
  return ct_empty_ex(ndim, sizes, opts.dtype, opts.device, false);
}
CTDEF ct_tensor *ct_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides, ct_options opts) {
  static const char *op = "ct_empty_strided";
  int64_t numel, extent = 1, term;
  ct_storage *s;
  int i, overflow = 0;
  if (CT_UNLIKELY(!ct__initialized)) ct__init();
  numel = ct__checked_numel(op, ndim, sizes, opts.dtype);
  if (numel < 0) return NULL;
  if (ndim > 0 && !strides) return ct__fail_null(op, "strides"), (ct_tensor *)NULL;
  for (i = 0; i < ndim; i++) {
    if (strides[i] < 0) {
      ct_fail(CT_ERR_VIEW, op, "negative stride %lld at dimension %d", (long long)strides[i], i);
      return NULL;
    }
    if (numel && !overflow) overflow = ct__mul_ovf(sizes[i] - 1, strides[i], &term) || ct__add_ovf(extent, term, &extent);
  }
  if (!numel) extent = 0;
  if (overflow || extent > CT__MAX_ELEMENTS) {
    char b1[160], b2[160];
    ct_fail(CT_ERR_SIZE, op, "Storage size calculation overflowed with sizes=%s and strides=%s",
            ct_shape_format(ndim, sizes, b1, sizeof b1), ct_shape_format(ndim, strides, b2, sizeof b2));
    return NULL;
  }
  s = ct__storage_new((size_t)extent * ct_dtype_size(opts.dtype), opts.device, op);
  if (!s) return NULL;
  return ct__track(ct__tensor_wrap(s, opts.dtype, ndim, sizes, strides, 0, numel));
}

CTDEF ct_tensor *ct_full_opts(int ndim, const int64_t *sizes, ct_scalar value, ct_options opts) {
  return ct_full_ex(ndim, sizes, value, opts.dtype, opts.device);
}

CTDEF ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype) {
  return ct_arange_start_step(ct_float(start), ct_float(end), ct_float(step), dtype == CT_DTYPE_NONE ? CT_F32 : dtype);
}
CTDEF ct_tensor *ct_from_array_ex(int ndim, const int64_t *sizes, ct_dtype dtype, const void *data, ct_device device) {
  static const char *op = "ct_from_array";
  ct_tensor *t, *r;
  if (!data) return ct__fail_null(op, "data"), (ct_tensor *)NULL;
  if (ct_device_is_none(device)) device = ct_default_device();
  else if (ct_device_check(op, device) != CT_OK) return NULL;
  t = ct__empty(op, ndim, sizes, dtype, CT_CPU);
  if (!t) return NULL;
  if (t->storage->nbytes) memcpy(t->storage->data, data, t->storage->nbytes); /* numel * element size */
  if (device.type == CT_DEVICE_CPU) return ct__track(t);
  r = ct_to_device(t, device); /* the dispatched copy: the device's backend moves the bytes */
  ct_release(t);
  return ct__factory_made(r);
}
CTDEF ct_tensor *ct_from_array(int ndim, const int64_t *sizes, ct_dtype dtype, const void *data) {
  return ct_from_array_ex(ndim, sizes, dtype, data, CT_NO_DEVICE);
}

CT_EXTERN_C_END
#endif /* CT__OPS_FACTORY_IMPL */
