/* ctorch/ops/shape.h - reference kernels: joining, splitting, reordering and indexing ops.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/shape.spec and their derivatives in
 * gen/derivatives/shape.spec; the frontends are generated (docs/ops.md).
 *
 * How they are built:
 * - flip, roll, repeat and every padding mode are one kernel: a separable
 *   index map per output dim (ct__shape_remap), dtype-agnostic (elements are
 *   copied by size); its transpose accumulates the reflect/replicate backward.
 * - gather / scatter walk the index tensor; index_select / index_add /
 *   index_copy / index_fill move whole slices through ct__copy_impl.
 * - index.Tensor and index_put turn their index tensors (and bool masks) into
 *   one linear index over the leading dims and are composites over
 *   index_select / index_add / index_copy, so autograd comes from those.
 * - cat takes a Tensor[]: derivative formulas cannot name list inputs, so cat
 *   is CompositeImplicitAutograd and records its own CatBackward0 node.
 * - nonzero, masked_select / masked_scatter, take / put, repeat_interleave's
 *   index, searchsorted / bucketize, bincount, histc and the unique family
 *   are host loops over the logical (row-major) order; those whose result
 *   shape depends on the values (spec tag dynamic_output_shape) refuse on
 *   meta tensors. repeat_interleave over self, fliplr / flipud and rot90 are
 *   composites of index_select, expand, flip and transpose.
 * - Structured families (ops/structured.h): flip, roll, repeat, the pads,
 *   tril / triu, narrow_copy, scatter's reductions, index_fill,
 *   take_along_dim.out, index_put.out, masked_scatter, take / put,
 *   searchsorted / bucketize and histc: a meta step checks the arguments and
 *   declares the output, an impl step computes into it; index bounds and
 *   other checks of the data are the impl step's (or its index loop's).
 * - The other out= variants compute the functional result and resize/copy
 *   into out; their in-place variants copy the result into self (safe when
 *   arguments alias). Those kernels check their arguments before allocating
 *   and skip the data loops on the meta device.
 */
#ifndef CT_OPS_SHAPE_H
#define CT_OPS_SHAPE_H

#include "../ops.h"

CT_EXTERN_C_BEGIN

/* ---- the index loop per device type (as ops/pointwise.h's) ----
 * gather, scatter (src and value), scatter_add, index_select, index_add,
 * index_copy and embedding are meta steps plus one ct_index_call: for each
 * position p of the iteration shape (index's; index_select's index is a
 * broadcast view over the output's shape), with v = index[p] and s = self's
 * element at p with dim replaced by v:
 *   GATHER   other[p] = self[s]      SCATTER  self[s] = other[p]
 *   ADD      self[s] += other[p]     FILL     self[s] = value
 * self, other: one dtype. v outside [0, bound) is an error (a data check:
 * the loop reports it; index_select's message when select_message).
 * Duplicate indices: ADD sums (in index order on the CPU, in any order on a
 * device with atomics), SCATTER keeps one of the values. A device sets its
 * loop with ct_set_index_loop, which registers these ops (spec key Index) at
 * its backend key. */
typedef enum ct_index_mode { CT_INDEX_GATHER, CT_INDEX_SCATTER, CT_INDEX_ADD, CT_INDEX_FILL } ct_index_mode;
typedef struct ct_index_call {
  int mode;              /* ct_index_mode */
  const char *name;      /* the op, for messages */
  ct_tensor *self;       /* indexed along dim */
  ct_tensor *index;      /* int64 or int32, on self's device, with the iteration's shape */
  ct_tensor *other;      /* the iteration's shape; NULL for FILL */
  int dim;               /* self's dim the index selects along (0 for a 0-dim self) */
  int64_t bound;         /* self's size along dim */
  int ndim;              /* the iteration shape (index's sizes) */
  const int64_t *shape;
  char value[8];         /* FILL: the value, in self's dtype */
  int select_message;    /* out of range: "index out of range in self" (index_select, embedding) */
} ct_index_call;
typedef ct_status (*ct_index_loop_fn)(const ct_index_call *call);
CTDEF ct_status ct_set_index_loop(ct_device_type type, ct_index_loop_fn loop);
CTDEF ct_index_loop_fn ct_index_loop(ct_device_type type);
/* The CPU's loop; and a device loop's way to run a call it declines (staged, synchronous). */
CTDEF ct_status ct_host_index_loop(const ct_index_call *call);
CTDEF ct_status ct_index_on_host(const ct_index_call *call);

CT_EXTERN_C_END
#endif /* CT_OPS_SHAPE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_SHAPE_IMPL)
#define CT__OPS_SHAPE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ================= shared helpers ================= */
/* element [0, ...]; NULL on meta. ct_data_ptr: an empty view may sit at any offset, no
 * address past its storage is formed for it. */
static inline char *ct__shape_ptr(const ct_tensor *t) { return (char *)ct_data_ptr(t); }
static inline void ct__shape_copy1(char *d, const char *s, size_t es) {
  switch (es) {
  case 1: *d = *s; break;
  case 2: memcpy(d, s, 2); break;
  case 4: memcpy(d, s, 4); break;
  default: memcpy(d, s, 8); break;
  }
}
/* *d += *s in d's dtype (f16/bf16 through float; integers wrap) */
static void ct__shape_acc1(char *d, const char *s, ct_dtype dt) {
  switch (dt) {
  case CT_F32: *(float *)d += *(const float *)s; break;
  case CT_F64: *(double *)d += *(const double *)s; break;
  case CT_F16: *(uint16_t *)d = ct_f32_to_f16(ct_f16_to_f32(*(uint16_t *)d) + ct_f16_to_f32(*(const uint16_t *)s)); break;
  case CT_BF16: *(uint16_t *)d = ct_f32_to_bf16(ct_bf16_to_f32(*(uint16_t *)d) + ct_bf16_to_f32(*(const uint16_t *)s)); break;
  case CT_I64: *(int64_t *)d = (int64_t)((uint64_t) * (int64_t *)d + (uint64_t) * (const int64_t *)s); break;
  case CT_I32: *(int32_t *)d = (int32_t)((uint32_t) * (int32_t *)d + (uint32_t) * (const int32_t *)s); break;
  case CT_U8: *(uint8_t *)d = (uint8_t)(*(uint8_t *)d + *(const uint8_t *)s); break;
  default: *(bool *)d = *(bool *)d || *(const bool *)s; break;
  }
}
/* next multi-index of `sizes` (row-major); 0 when done */
static inline int ct__shape_next(int64_t *idx, int ndim, const int64_t *sizes) {
  int k;
  for (k = ndim - 1; k >= 0; k--) {
    if (++idx[k] < sizes[k]) return 1;
    idx[k] = 0;
  }
  return 0;
}
/* A stack view of t (no reference taken, never released): kernels only. */
static void ct__shape_view(ct_tensor *v, const ct_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
                           int64_t offset) {
  int i;
  *v = *t;
  v->autograd = NULL;
  v->ndim = (int8_t)ndim;
  v->numel = 1;
  for (i = 0; i < ndim; i++) v->sizes[i] = sizes[i], v->strides[i] = strides[i];
  v->numel = ct__sizes_product_sat(ndim, sizes);
  v->offset = offset;
}
/* t narrowed along dim (a stack view) */
static void ct__shape_narrow_view(ct_tensor *v, const ct_tensor *t, int dim, int64_t start, int64_t len) {
  int64_t sizes[CT_MAX_DIMS];
  memcpy(sizes, t->sizes, sizeof sizes);
  sizes[dim] = len;
  /* an empty view's offset is never used (and may overflow: its sizes are not bounded by memory) */
  ct__shape_view(v, t, t->ndim, sizes, t->strides, ct__sizes_product_sat(t->ndim, sizes) ? t->offset + start * t->strides[dim] : t->offset);
}
/* t with dim removed at index i (a stack view) */
static void ct__shape_select_view(ct_tensor *v, const ct_tensor *t, int dim, int64_t i) {
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int k, n = 0;
  for (k = 0; k < t->ndim; k++)
    if (k != dim) sizes[n] = t->sizes[k], strides[n++] = t->strides[k];
  ct__shape_view(v, t, n, sizes, strides, t->numel ? t->offset + i * t->strides[dim] : t->offset);
}

/* out= variants: r (owned) is the functional result; out is resized to it
 * and r is cast into it (PyTorch's resize_output + copy_). allow_cast: 0
 * out's dtype must be r's; 1 a cast of the same kind (cat, stack); CT__OUT_ANY_CAST any cast
 * (aten's generated out= variants, which copy_ the functional result). */
enum { CT__OUT_ANY_CAST = 2 };
static ct_status ct__shape_out_ex(const char *op, ct_tensor *out, ct_tensor *r, int allow_cast) {
  ct_status st;
  if (!r) return ct_last_error();
  if (!allow_cast && out->dtype != r->dtype) /* the message reads r: release it after */
    st = ct_fail(CT_ERR_DTYPE, op, "Expected out tensor to have dtype %s, but got %s instead", ct_dtype_name((ct_dtype)r->dtype),
                 ct_dtype_name((ct_dtype)out->dtype));
  else if (!ct_device_eq(out->device, r->device))
    st = ct_fail(CT_ERR_DEVICE, op, "expected out on %s, but got out on %s", ct_device_type_name((ct_device_type)r->device.type),
                 ct_device_type_name((ct_device_type)out->device.type));
  else if (allow_cast != CT__OUT_ANY_CAST && out->dtype != r->dtype && !ct_can_cast((ct_dtype)r->dtype, (ct_dtype)out->dtype))
    st = ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s",
                 ct__dtype_torch_name((ct_dtype)r->dtype), ct__dtype_torch_name((ct_dtype)out->dtype));
  else if ((st = ct__check_writable(op, out)) == CT_OK && (st = ct__resize_out(op, out, r->ndim, r->sizes)) == CT_OK)
    st = ct__copy_impl(out, r);
  ct_release(r);
  if (st == CT_OK) ct__bump_version(out);
  return st;
}
static ct_status ct__shape_out(const char *op, ct_tensor *out, ct_tensor *r) { return ct__shape_out_ex(op, out, r, 0); }
/* The written tensor (out, or self in place) against inputs PyTorch checks
 * for partial overlap in that op (ct__check_overlaps). The results here are
 * computed before anything is written, so the check is PyTorch's contract,
 * not a need of these kernels; ops PyTorch does not check (flip, roll,
 * repeat, pads, tril/triu, index_fill, index_put.out, embedding, scatter_)
 * call nothing. */
static ct_status ct__shape_overlaps(const char *op, const ct_tensor *out, ct_tensor *a, ct_tensor *b) {
  ct_tensor *in[2];
  in[0] = a, in[1] = b;
  return ct__check_overlaps(op, out, 2, in);
}
/* in-place variants: r (owned, self's shape and dtype) is written into self */
static ct_status ct__shape_inplace(const char *op, ct_tensor *self, ct_tensor *r) {
  ct_status st;
  if (!r) return ct_last_error();
  if ((st = ct__check_writable(op, self)) == CT_OK) st = ct__copy_impl(self, r);
  ct_release(r);
  if (st == CT_OK) ct__bump_version(self);
  return st;
}
static ct_tensor *ct__shape_fresh(const char *op, int ndim, const int64_t *sizes, ct_tensor *like) {
  return ct__empty(op, ndim, sizes, (ct_dtype)like->dtype, like->device);
}
static ct_tensor *ct__shape_clone(const char *op, ct_tensor *self) { return ct__copy_as(op, self, (ct_dtype)self->dtype); }
/* zeros of a saved shape in grad's dtype and device (derivative helpers) */
static ct_tensor *ct__shape_zeros(ct_tensor *grad, const ct__shape *s) {
  if (!grad) return NULL;
  return ct_full_opts(s->ndim, s->sizes, ct_int(0), ct_opts((ct_dtype)grad->dtype, grad->device));
}

/* ================= separable index maps =================
 * out[i0, ..., in] = src[map0[i0], ..., mapn[in]], or `fill` where a map
 * entry is -1: flip, roll, repeat and every padding mode are such maps.
 * acc: the transpose (backward): src[map(i)] += out[i]. Strides in elements. */
static void ct__shape_remap(char *out, const int64_t *ostr, char *src, const int64_t *sstr, int ndim,
                            const int64_t *sizes, int64_t *const *map, const char *fill, ct_dtype dt, int acc) {
  size_t es = ct_dtype_size(dt);
  int64_t idx[CT_MAX_DIMS], i, n;
  int k, last = ndim - 1;
  for (k = 0; k < ndim; k++) {
    if (sizes[k] == 0) return;
    idx[k] = 0;
  }
  if (ndim == 0) {
    if (acc) ct__shape_acc1(src, out, dt);
    else ct__shape_copy1(out, src, es);
    return;
  }
  n = sizes[last];
  do {
    char *o = out, *s = src;
    int hole = 0;
    for (k = 0; k < last; k++) {
      int64_t m = map[k][idx[k]];
      o += idx[k] * ostr[k] * (int64_t)es;
      if (m < 0) hole = 1;
      else s += m * sstr[k] * (int64_t)es;
    }
    for (i = 0; i < n; i++) {
      int64_t m = map[last][i];
      char *oi = o + i * ostr[last] * (int64_t)es;
      if (hole || m < 0) {
        if (!acc) ct__shape_copy1(oi, fill, es);
      } else if (acc) {
        ct__shape_acc1(s + m * sstr[last] * (int64_t)es, oi, dt);
      } else {
        ct__shape_copy1(oi, s + m * sstr[last] * (int64_t)es, es);
      }
    }
  } while (last > 0 && ct__shape_next(idx, last, sizes));
}
/* one buffer for the maps of every out dim */
static int64_t *ct__shape_maps(const char *op, int ndim, const int64_t *sizes, int64_t **map) {
  int64_t total = 1, *buf;
  int k;
  for (k = 0; k < ndim; k++) total += sizes[k];
  buf = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)total);
  if (!buf) return ct_fail(CT_ERR_OOM, op, "out of memory for index maps"), (int64_t *)NULL;
  for (total = 0, k = 0; k < ndim; k++) map[k] = buf + total, total += sizes[k];
  return buf;
}
enum { CT__MAP_ID, CT__MAP_FLIP, CT__MAP_ROLL, CT__MAP_REPEAT, CT__MAP_CONST, CT__MAP_REFLECT, CT__MAP_REPLICATE };
/* map of one dim: out size nout, input size nin, a = shift or left pad */
static void ct__shape_map_dim(int64_t *m, int kind, int64_t nout, int64_t nin, int64_t a) {
  int64_t i, j;
  for (i = 0; i < nout; i++) {
    switch (kind) {
    case CT__MAP_FLIP: j = nin - 1 - i; break;
    case CT__MAP_ROLL: j = ((i - a) % nin + nin) % nin; break;
    case CT__MAP_REPEAT: j = i % nin; break;
    case CT__MAP_CONST: j = i - a >= 0 && i - a < nin ? i - a : -1; break;
    case CT__MAP_REFLECT:
      j = i - a < 0 ? a - i : i - a;
      if (j >= nin) j = 2 * (nin - 1) - j;
      break;
    case CT__MAP_REPLICATE: j = i - a < 0 ? 0 : i - a >= nin ? nin - 1 : i - a; break;
    default: j = i; break;
    }
    m[i] = j;
  }
}
/* out (an impl step's output: contiguous) from self through per-dim maps
 * (kinds[k], a[k]); -1 map entries get `fill`. self's dims align with the
 * trailing out dims; leading extra out dims (repeat) read self with stride 0. */
static ct_status ct__shape_remap_into(const char *op, ct_tensor *self, ct_tensor *out, const int *kinds, const int64_t *a,
                                      ct_scalar fill) {
  int64_t *map[CT_MAX_DIMS], *buf, sstr[CT_MAX_DIMS];
  char fillv[8] = {0};
  int k, ndim = out->ndim, lead = ndim - self->ndim;
  if (out->numel == 0) return CT_OK;
  if (!(buf = ct__shape_maps(op, ndim, out->sizes, map))) return ct_last_error();
  for (k = 0; k < ndim; k++) {
    sstr[k] = k < lead ? 0 : self->strides[k - lead];
    ct__shape_map_dim(map[k], kinds[k], out->sizes[k], k < lead ? 1 : self->sizes[k - lead], a[k]);
  }
  if (fill.kind != CT_SCALAR_NONE) ct__store_double(fillv, (ct_dtype)out->dtype, ct_scalar_to_double(fill));
  if (fill.kind == CT_SCALAR_INT && out->dtype == CT_I64) memcpy(fillv, &fill.v.i, 8);
  ct__shape_remap(ct__shape_ptr(out), out->strides, ct__shape_ptr(self), sstr, ndim, out->sizes, map, fillv, (ct_dtype)out->dtype, 0);
  ct__workspace_free(buf);
  return CT_OK;
}
/* structured (ops/structured.h): a meta step per family declares self's
 * shape (or the remapped one); the impl steps write the map into out */
static ct_status ct__meta_same_shape(ct__structured *st, ct_tensor *self) {
  return ct__set_output(st, 0, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device);
}

/* ---- flip ---- */
static ct_status ct__shape_flip_maps(const char *op, ct_tensor *self, ct_int_list dims, int *kinds) {
  int64_t i;
  for (i = 0; i < dims.n; i++) {
    int64_t d = ct__wrap_dim(op, dims.data[i], self->ndim);
    if (d < 0) return ct_last_error();
    if (kinds[d]) return ct_fail(CT_ERR_INVALID, op, "dim %lld appears multiple times in the list of dims", (long long)d);
    if (self->ndim) kinds[d] = CT__MAP_FLIP;
  }
  return CT_OK;
}
static ct_status ct__meta_flip(ct__structured *st, ct_tensor *self, ct_int_list dims) {
  int kinds[CT_MAX_DIMS] = {0};
  ct_status s = ct__shape_flip_maps(st->op, self, dims, kinds);
  return s != CT_OK ? s : ct__meta_same_shape(st, self);
}
static ct_status ct__impl_flip(ct_tensor *self, ct_int_list dims, ct_tensor *out) {
  int kinds[CT_MAX_DIMS] = {0};
  int64_t a[CT_MAX_DIMS] = {0};
  ct_status s = ct__shape_flip_maps("flip", self, dims, kinds);
  return s != CT_OK ? s : ct__shape_remap_into("flip", self, out, kinds, a, ct__scalar_none());
}

/* ---- roll: empty dims rolls the flattened tensor (kinds[0], a[0]: its map) ---- */
static ct_status ct__shape_roll_maps(const char *op, ct_tensor *self, ct_int_list shifts, ct_int_list dims, int *kinds, int64_t *a) {
  int64_t i;
  if (shifts.n <= 0) return ct_fail(CT_ERR_INVALID, op, "`shifts` required");
  if (dims.n <= 0) {
    if (shifts.n != 1) return ct_fail(CT_ERR_INVALID, op, "shifts and dimensions must align. shifts: %lld, dims:0", (long long)shifts.n);
    kinds[0] = self->ndim ? CT__MAP_ROLL : 0;
    a[0] = shifts.data[0] % (self->numel ? self->numel : 1);
    return CT_OK;
  }
  if (shifts.n != dims.n)
    return ct_fail(CT_ERR_INVALID, op, "shifts and dimensions must align. shifts: %lld, dims:%lld", (long long)shifts.n, (long long)dims.n);
  for (i = 0; i < dims.n; i++) {
    int64_t d = ct__wrap_dim(op, dims.data[i], self->ndim);
    if (d < 0) return ct_last_error();
    if (!self->ndim) continue;
    kinds[d] = CT__MAP_ROLL;
    a[d] += shifts.data[i] % (self->sizes[d] ? self->sizes[d] : 1);
  }
  return CT_OK;
}
static ct_status ct__meta_roll(ct__structured *st, ct_tensor *self, ct_int_list shifts, ct_int_list dims) {
  int kinds[CT_MAX_DIMS] = {0};
  int64_t a[CT_MAX_DIMS] = {0};
  ct_status s = ct__shape_roll_maps(st->op, self, shifts, dims, kinds, a);
  return s != CT_OK ? s : ct__meta_same_shape(st, self);
}
static ct_status ct__impl_roll(ct_tensor *self, ct_int_list shifts, ct_int_list dims, ct_tensor *out) {
  static const char *op = "roll";
  int kinds[CT_MAX_DIMS] = {0};
  int64_t a[CT_MAX_DIMS] = {0}, n[1], one[1] = {1}; /* (the flat view's 1-d sizes and strides) */
  ct_tensor flat_s, flat_o, *c = NULL, *src;
  ct_status s = ct__shape_roll_maps(op, self, shifts, dims, kinds, a);
  if (s != CT_OK) return s;
  if (dims.n > 0 || self->ndim <= 1) return ct__shape_remap_into(op, self, out, kinds, a, ct__scalar_none());
  if ((n[0] = self->numel) == 0) return CT_OK;
  /* the flattened roll: self as a vector (a contiguous copy when it is not one) into out as one */
  if (!ct_is_contiguous(self) && !(c = ct__shape_clone(op, self))) return ct_last_error();
  src = c ? c : self;
  ct__shape_view(&flat_s, src, 1, n, one, src->offset);
  ct__shape_view(&flat_o, out, 1, n, one, out->offset);
  s = ct__shape_remap_into(op, &flat_s, &flat_o, kinds, a, ct__scalar_none());
  ct_release(c);
  return s;
}

/* ---- repeat ---- */
static ct_status ct__shape_repeat_sizes(const char *op, ct_tensor *self, ct_int_list repeats, int64_t *sizes) {
  int k, n = (int)repeats.n;
  if (repeats.n < self->ndim)
    return ct_fail(CT_ERR_INVALID, op, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  if (repeats.n > CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, op, "%lld repeat dims: at most %d are supported", (long long)repeats.n, CT_MAX_DIMS);
  for (k = 0; k < n; k++) {
    int64_t s = k < n - self->ndim ? 1 : self->sizes[k - (n - self->ndim)];
    if (repeats.data[k] < 0)
      return ct_fail(CT_ERR_INVALID, op, "Trying to create tensor with negative dimension %lld", (long long)repeats.data[k]);
    if (repeats.data[k] > 0 && s > INT64_MAX / repeats.data[k]) return ct_fail(CT_ERR_SIZE, op, "repeated size overflows");
    sizes[k] = s * repeats.data[k];
  }
  return CT_OK;
}
static ct_status ct__meta_repeat(ct__structured *st, ct_tensor *self, ct_int_list repeats) {
  int64_t sizes[CT_MAX_DIMS];
  ct_status s = ct__shape_repeat_sizes(st->op, self, repeats, sizes);
  return s != CT_OK ? s : ct__set_output(st, 0, (int)repeats.n, sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_repeat(ct_tensor *self, ct_int_list repeats, ct_tensor *out) {
  int kinds[CT_MAX_DIMS], k;
  int64_t a[CT_MAX_DIMS] = {0};
  (void)repeats; /* (out has the repeated sizes) */
  for (k = 0; k < out->ndim; k++) kinds[k] = CT__MAP_REPEAT;
  return ct__shape_remap_into("repeat", self, out, kinds, a, ct__scalar_none());
}
static ct_tensor *ct__k_tile(ct_keyset ks, ct_tensor *self, ct_int_list dims) {
  int64_t reps[CT_MAX_DIMS];
  int k, n = (int)(dims.n < 0 ? 0 : dims.n), lead = self->ndim > n ? self->ndim - n : 0;
  (void)ks;
  if (n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, "tile", "%d dims: at most %d are supported", n, CT_MAX_DIMS), (ct_tensor *)NULL;
  for (k = 0; k < lead; k++) reps[k] = 1;
  for (k = 0; k < n; k++) reps[lead + k] = dims.data[k];
  return ct_repeat(self, lead + n, reps);
}
/* repeat's backward: split every dim d into (repeats[d], size[d]) and sum the repeats */
static ct_tensor *ct__shape_repeat_backward(ct_tensor *grad, ct_int_list repeats, const ct__shape *self_sizes) {
  int n = (int)repeats.n, lead = n - self_sizes->ndim, k, j;
  for (k = 0; k < n; k++)
    if (repeats.data[k] == 0) return ct__shape_zeros(grad, self_sizes); /* the output was empty */
  for (k = 0; grad && k < n; k++) {
    int64_t sh[CT_MAX_DIMS + 1], s = k < lead ? 1 : self_sizes->sizes[k - lead], d = k;
    if (repeats.data[k] == 1) continue;
    if (grad->ndim == CT_MAX_DIMS) { /* no room for the split dim: add the repeats up */
      ct_tensor *acc = ct_narrow(grad, d, 0, s);
      for (j = 1; j < repeats.data[k] && acc; j++) acc = ct_add(acc, ct_narrow(grad, d, j * s, s));
      grad = acc;
      continue;
    }
    for (j = 0; j < grad->ndim; j++) sh[j + (j > k)] = grad->sizes[j];
    sh[k] = repeats.data[k];
    sh[k + 1] = s;
    grad = ct_reshape(grad, grad->ndim + 1, sh);
    if (grad) grad = ct_sum_dim(grad, 1, &d, false);
  }
  return grad ? ct_reshape(grad, CT__SHAPE(*self_sizes)) : NULL;
}
static ct_tensor *ct__shape_roll_backward(ct_tensor *grad, ct_int_list shifts, ct_int_list dims) {
  int64_t neg[2 * CT_MAX_DIMS], i;
  for (i = 0; i < shifts.n && i < 2 * CT_MAX_DIMS; i++) neg[i] = -(shifts.data[i] % INT64_MAX);
  return ct_roll(grad, (int)shifts.n, neg, (int)(dims.n < 0 ? 0 : dims.n), dims.data);
}

/* ---- padding ---- */
#define CT__PAD_MAX ((int64_t)1 << 60) /* |pad| bound */
/* n + l + r, the padded size of a dim: pads beyond CT__PAD_MAX, or a sum past int64 (an empty
 * tensor's other sizes may be anything), are CT_ERR_SIZE; 0 on error, 1 with *out set */
static int ct__pad_size(const char *op, int64_t n, int64_t l, int64_t r, int64_t *out) {
  if (l > CT__PAD_MAX || l < -CT__PAD_MAX || r > CT__PAD_MAX || r < -CT__PAD_MAX)
    return ct_fail(CT_ERR_SIZE, op, "padding (%lld, %lld) is too large", (long long)l, (long long)r), 0;
  if (ct__add_ovf(n, l + r, out)) /* (l + r is bounded: no overflow) */
    return ct_fail(CT_ERR_SIZE, op, "padding (%lld, %lld) of a dimension of size %lld overflows int64", (long long)l, (long long)r,
                   (long long)n), 0;
  return 1;
}
/* constant_pad_nd's checks and output sizes; a[k]: dim k's left pad */
static ct_status ct__shape_cpad_sizes(const char *op, ct_tensor *self, ct_int_list pad, int64_t *sizes, int64_t *a) {
  int k, nd = self->ndim;
  if (pad.n % 2) return ct_fail(CT_ERR_INVALID, op, "Length of pad must be even but instead it equals %lld", (long long)pad.n);
  if (pad.n / 2 > nd)
    return ct_fail(CT_ERR_INVALID, op, "Length of pad should be no more than twice the number of dimensions of the input. "
                   "Pad length is %lld while the input has %d dimensions.", (long long)pad.n, nd);
  for (k = 0; k < nd; k++) {
    int p = nd - 1 - k; /* pad pair index of dim k */
    int64_t l = p < pad.n / 2 ? pad.data[2 * p] : 0, r = p < pad.n / 2 ? pad.data[2 * p + 1] : 0;
    if (!ct__pad_size(op, self->sizes[k], l, r, &sizes[k])) return ct_last_error();
    if (sizes[k] < 0)
      return ct_fail(CT_ERR_INVALID, op, "The input size %lld, plus negative padding %lld and %lld resulted in a negative output "
                     "size, which is invalid. Check dimension %d of your input.", (long long)self->sizes[k], (long long)l,
                     (long long)r, k);
    a[k] = l;
  }
  return CT_OK;
}
static ct_status ct__meta_constant_pad_nd(ct__structured *st, ct_tensor *self, ct_int_list pad, ct_scalar value) {
  int64_t sizes[CT_MAX_DIMS], a[CT_MAX_DIMS];
  ct_status s = ct__shape_cpad_sizes(st->op, self, pad, sizes, a);
  if (s != CT_OK) return s;
  if (value.kind == CT_SCALAR_NONE) value = ct_int(0);
  if ((s = ct__check_scalar(st->op, value, (ct_dtype)self->dtype)) != CT_OK) return s; /* PyTorch fills with it: checked */
  return ct__set_output(st, 0, self->ndim, sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_constant_pad_nd(ct_tensor *self, ct_int_list pad, ct_scalar value, ct_tensor *out) {
  int kinds[CT_MAX_DIMS], k;
  int64_t sizes[CT_MAX_DIMS], a[CT_MAX_DIMS];
  ct_status s = ct__shape_cpad_sizes("constant_pad_nd", self, pad, sizes, a);
  if (s != CT_OK) return s;
  for (k = 0; k < self->ndim; k++) kinds[k] = CT__MAP_CONST;
  return ct__shape_remap_into("constant_pad_nd", self, out, kinds, a, value.kind == CT_SCALAR_NONE ? ct_int(0) : value);
}
static ct_tensor *ct__shape_neg_pad(ct_tensor *grad, ct_int_list pad) {
  int64_t neg[2 * CT_MAX_DIMS], i;
  for (i = 0; i < pad.n && i < 2 * CT_MAX_DIMS; i++) neg[i] = -pad.data[i];
  return ct_constant_pad_nd(grad, (int)pad.n, neg, ct_int(0));
}

/* reflection / replication over the last nsp dims of a (batch, C, spatial...) tensor */
static ct_status ct__shape_pad_check(const char *op, ct_tensor *self, ct_int_list padding, int nsp, int reflect) {
  int k;
  char b[160];
  if (padding.n != 2 * nsp)
    return ct_fail(CT_ERR_INVALID, op, "padding size is expected to be %d, but got: %lld", 2 * nsp, (long long)padding.n);
  if (self->ndim != nsp + 1 && self->ndim != nsp + 2)
    return ct_fail(CT_ERR_RANK, op, "Expected %dD or %dD (batch mode) tensor with possibly 0 batch size and other non-zero "
                   "dimensions for input, but got: %s", nsp + 1, nsp + 2, ct_shape_format(self->ndim, self->sizes, b, sizeof b));
  for (k = self->ndim == nsp + 2 ? 1 : 0; k < self->ndim; k++) /* only a batch dim may be empty */
    if (self->sizes[k] == 0)
      return ct_fail(CT_ERR_SHAPE, op, "%dD or %dD (batch mode) tensor expected for input (only the batch dim may be empty), "
                     "but got: %s", nsp + 1, nsp + 2, ct_shape_format(self->ndim, self->sizes, b, sizeof b));
  for (k = 0; k < nsp; k++) {
    int d = self->ndim - 1 - k;
    int64_t l = padding.data[2 * k], r = padding.data[2 * k + 1], n = self->sizes[d];
    if (l > CT__PAD_MAX || l < -CT__PAD_MAX || r > CT__PAD_MAX || r < -CT__PAD_MAX)
      return ct_fail(CT_ERR_SIZE, op, "padding (%lld, %lld) is too large", (long long)l, (long long)r);
    if (reflect && (l >= n || r >= n))
      return ct_fail(CT_ERR_INVALID, op, "Argument #4: Padding size should be less than the corresponding input dimension, but "
                     "got: padding (%lld, %lld) at dimension %d of input %s", (long long)l, (long long)r, d,
                     ct_shape_format(self->ndim, self->sizes, b, sizeof b));
    if (n + l + r < 1)
      return ct_fail(CT_ERR_INVALID, op, "input (%s) is too small. Calculated output size at dimension %d is %lld",
                     ct_shape_format(self->ndim, self->sizes, b, sizeof b), d, (long long)n + (long long)l + (long long)r);
  }
  return CT_OK;
}
/* the padded sizes and per-dim maps of a checked reflection / replication pad */
static void ct__shape_pad_maps(ct_tensor *self, ct_int_list padding, int nsp, int reflect, int64_t *sizes, int *kinds, int64_t *a) {
  int k, nd = self->ndim;
  for (k = 0; k < nd; k++) {
    int p = nd - 1 - k;
    sizes[k] = self->sizes[k] + (p < nsp ? padding.data[2 * p] + padding.data[2 * p + 1] : 0);
    kinds[k] = p < nsp ? (reflect ? CT__MAP_REFLECT : CT__MAP_REPLICATE) : CT__MAP_ID;
    a[k] = p < nsp ? padding.data[2 * p] : 0;
  }
}
/* one meta step for every rank and mode: forward (grad NULL: the padded
 * tensor) or backward (grad = grad_output: a gradient of self's shape) */
static ct_status ct__meta_pad(ct__structured *st, ct_tensor *grad, ct_tensor *self, ct_int_list padding, int nsp, int reflect) {
  const char *op = st->op;
  int kinds[CT_MAX_DIMS], nd = self->ndim;
  int64_t sizes[CT_MAX_DIMS], a[CT_MAX_DIMS];
  char b1[160], b2[160];
  ct_status s;
  if ((s = ct__shape_pad_check(op, self, padding, nsp, reflect)) != CT_OK) return s;
  if (!ct_dtype_is_floating((ct_dtype)self->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)self->dtype));
  ct__shape_pad_maps(self, padding, nsp, reflect, sizes, kinds, a);
  if (!grad) return ct__set_output(st, 0, nd, sizes, (ct_dtype)self->dtype, self->device);
  if (grad->ndim != nd || memcmp(grad->sizes, sizes, sizeof(int64_t) * (size_t)nd))
    return ct_fail(CT_ERR_SHAPE, op, "grad_output has shape %s; expected %s", ct_shape_format(grad->ndim, grad->sizes, b1, sizeof b1),
                   ct_shape_format(nd, sizes, b2, sizeof b2));
  if (!ct_dtype_is_floating((ct_dtype)grad->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)grad->dtype));
  return ct__set_output(st, 0, nd, self->sizes, (ct_dtype)grad->dtype, grad->device);
}
static ct_status ct__impl_pad(const char *op, ct_tensor *self, ct_int_list padding, int nsp, int reflect, ct_tensor *out) {
  int kinds[CT_MAX_DIMS];
  int64_t sizes[CT_MAX_DIMS], a[CT_MAX_DIMS];
  ct__shape_pad_maps(self, padding, nsp, reflect, sizes, kinds, a);
  return ct__shape_remap_into(op, self, out, kinds, a, ct__scalar_none());
}
/* the backward: the transposed map accumulates grad into zeros of self's shape */
static ct_status ct__impl_pad_backward(const char *op, ct_tensor *grad, ct_tensor *self, ct_int_list padding, int nsp, int reflect,
                                       ct_tensor *out) {
  int kinds[CT_MAX_DIMS], k, nd = self->ndim;
  int64_t sizes[CT_MAX_DIMS], a[CT_MAX_DIMS], *map[CT_MAX_DIMS], *buf;
  ct_status s = ct__k_fill_(0, out, ct_int(0));
  if (s != CT_OK || grad->numel == 0) return s;
  ct__shape_pad_maps(self, padding, nsp, reflect, sizes, kinds, a);
  if (!(buf = ct__shape_maps(op, nd, sizes, map))) return ct_last_error();
  for (k = 0; k < nd; k++) ct__shape_map_dim(map[k], kinds[k], sizes[k], self->sizes[k], a[k]);
  ct__shape_remap(ct__shape_ptr(grad), grad->strides, ct__shape_ptr(out), out->strides, nd, sizes, map, NULL, (ct_dtype)out->dtype, 1);
  ct__workspace_free(buf);
  return CT_OK;
}
#define CT__PAD_KERNELS(name, NSP, REFLECT)                                                                                      \
  static ct_status ct__meta_##name(ct__structured *st, ct_tensor *self, ct_int_list padding) {                                   \
    return ct__meta_pad(st, NULL, self, padding, NSP, REFLECT);                                                                  \
  }                                                                                                                              \
  static ct_status ct__impl_##name(ct_tensor *self, ct_int_list padding, ct_tensor *out) {                                       \
    return ct__impl_pad(#name, self, padding, NSP, REFLECT, out);                                                                \
  }                                                                                                                              \
  static ct_status ct__meta_##name##_backward(ct__structured *st, ct_tensor *grad, ct_tensor *self, ct_int_list padding) {       \
    return ct__meta_pad(st, grad, self, padding, NSP, REFLECT);                                                                  \
  }                                                                                                                              \
  static ct_status ct__impl_##name##_backward(ct_tensor *grad, ct_tensor *self, ct_int_list padding, ct_tensor *out) {           \
    return ct__impl_pad_backward(#name "_backward", grad, self, padding, NSP, REFLECT, out);                                     \
  }
CT__PAD_KERNELS(reflection_pad1d, 1, 1)
CT__PAD_KERNELS(reflection_pad2d, 2, 1)
CT__PAD_KERNELS(reflection_pad3d, 3, 1)
CT__PAD_KERNELS(replication_pad1d, 1, 0)
CT__PAD_KERNELS(replication_pad2d, 2, 0)
CT__PAD_KERNELS(replication_pad3d, 3, 0)
/* ---- tril / triu: zero one side of a diagonal of the last two dims ---- */
static void ct__shape_tri_zero(ct_tensor *t, int64_t diag, int upper) {
  int64_t idx[CT_MAX_DIMS] = {0}, rows, cols, i, j;
  size_t es = ct_dtype_size((ct_dtype)t->dtype);
  int nb = t->ndim - 2, k;
  char zero[8] = {0};
  if (t->numel == 0 || ct__is_meta(t)) return;
  rows = t->sizes[nb];
  cols = t->sizes[nb + 1];
  if (diag > rows + cols) diag = rows + cols; /* beyond the matrix either way: no overflow below */
  if (diag < -(rows + cols)) diag = -(rows + cols);
  do {
    char *base = ct__shape_ptr(t);
    for (k = 0; k < nb; k++) base += idx[k] * t->strides[k] * (int64_t)es;
    for (i = 0; i < rows; i++) {
      int64_t lo = upper ? 0 : i + diag + 1, hi = upper ? i + diag : cols; /* zero cols [lo, hi) */
      lo = lo < 0 ? 0 : lo > cols ? cols : lo;
      hi = hi < 0 ? 0 : hi > cols ? cols : hi;
      for (j = lo; j < hi; j++) ct__shape_copy1(base + (i * t->strides[nb] + j * t->strides[nb + 1]) * (int64_t)es, zero, es);
    }
  } while (nb > 0 && ct__shape_next(idx, nb, t->sizes));
}
/* structured (ops/structured.h): one meta step for both, an impl each */
static ct_status ct__meta_tri(ct__structured *st, ct_tensor *self, int64_t diagonal) {
  (void)diagonal;
  if (self->ndim < 2) return ct_fail(CT_ERR_RANK, st->op, "input tensor must have at least 2 dimensions");
  return ct__set_output(st, 0, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_tri(ct_tensor *self, int64_t diagonal, ct_tensor *out, int upper) {
  ct_status s = ct__copy_impl(out, self);
  if (s == CT_OK) ct__shape_tri_zero(out, diagonal, upper);
  return s;
}
static ct_status ct__impl_tril(ct_tensor *self, int64_t diagonal, ct_tensor *out) { return ct__impl_tri(self, diagonal, out, 0); }
static ct_status ct__impl_triu(ct_tensor *self, int64_t diagonal, ct_tensor *out) { return ct__impl_tri(self, diagonal, out, 1); }

/* ================= cat and stack =================
 * cat takes a Tensor[]: the generator's formulas cannot name list inputs, so
 * cat is CompositeImplicitAutograd and records its own node (one edge per
 * tensor) whose backward narrows the gradient with ct ops. */
static int ct__shape_cat_skipped(const ct_tensor *t) { return t->ndim == 1 && t->sizes[0] == 0; }
static ct_status ct__shape_cat_check(const char *op, ct_tensor_list ts, int64_t dim, int64_t *wdim, int *ndim, int64_t *sizes,
                                     ct_dtype *dtype, ct_device *device) {
  const ct_tensor *ref = NULL;
  int64_t i, d = 0;
  int k;
  if (ts.n <= 0) return ct_fail(CT_ERR_INVALID, op, "%s(): expected a non-empty list of Tensors", op);
  *dtype = CT_DTYPE_NONE;
  for (i = 0; i < ts.n; i++) {
    const ct_tensor *t = ts.data[i];
    if (!t) return ct_fail(CT_ERR_NULL, op, "tensors[%lld] is NULL", (long long)i);
    if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "zero-dimensional tensor (at position %lld) cannot be concatenated", (long long)i);
    *dtype = ct_promote_types(*dtype, (ct_dtype)t->dtype);
    if (!ref && !ct__shape_cat_skipped(t)) {
      ref = t;
      if ((d = ct__wrap_dim(op, dim, t->ndim)) < 0) return ct_last_error();
    }
  }
  *device = ts.data[0]->device;
  if (!ref) { /* only legacy empty tensors */
    *ndim = 1, sizes[0] = 0, *wdim = 0;
    return CT_OK;
  }
  *ndim = ref->ndim;
  memcpy(sizes, ref->sizes, sizeof(int64_t) * (size_t)ref->ndim);
  sizes[d] = 0;
  for (i = 0; i < ts.n; i++) {
    const ct_tensor *t = ts.data[i];
    if (ct__shape_cat_skipped(t)) continue;
    if (t->ndim != ref->ndim)
      return ct_fail(CT_ERR_SHAPE, op, "Tensors must have same number of dimensions: got %d and %d (tensor number %lld in the list)",
                     ref->ndim, t->ndim, (long long)i);
    for (k = 0; k < t->ndim; k++)
      if (k != d && t->sizes[k] != ref->sizes[k])
        return ct_fail(CT_ERR_SHAPE, op, "Sizes of tensors must match except in dimension %lld. Expected size %lld but got size "
                       "%lld for tensor number %lld in the list.", (long long)d, (long long)ref->sizes[k], (long long)t->sizes[k],
                       (long long)i);
    if (sizes[d] > INT64_MAX - t->sizes[d]) return ct_fail(CT_ERR_SIZE, op, "concatenated size overflows");
    sizes[d] += t->sizes[d];
  }
  *wdim = d;
  return CT_OK;
}
static ct_tensor *ct__shape_cat_impl(const char *op, ct_tensor_list ts, int64_t dim, int64_t *wdim) {
  int64_t sizes[CT_MAX_DIMS], off = 0, i;
  int ndim = 0;
  ct_dtype dtype = CT_F32;
  ct_device device = CT_CPU;
  ct_tensor *r;
  if (ct__shape_cat_check(op, ts, dim, wdim, &ndim, sizes, &dtype, &device) != CT_OK) return NULL;
  if (!(r = ct__empty(op, ndim, sizes, dtype, device))) return NULL;
  if (ct__is_meta(r) || r->numel == 0) return r; /* (an empty result's offsets may overflow: nothing to copy) */
  for (i = 0; i < ts.n; i++) {
    ct_tensor part, *t = ts.data[i];
    if (ct__shape_cat_skipped(t)) continue;
    ct__shape_narrow_view(&part, r, (int)*wdim, off, t->sizes[*wdim]);
    off += t->sizes[*wdim];
    if (part.numel && ct__copy_impl(&part, t) != CT_OK) return ct_release(r), (ct_tensor *)NULL;
  }
  return r;
}
typedef struct ct__shape_cat_node {
  ct_node base;
  int64_t dim;
  int64_t *len; /* per tensor: its size along dim, -1 for a skipped (legacy empty) tensor */
} ct__shape_cat_node;
static ct_status ct__shape_cat_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__shape_cat_node *n = (ct__shape_cat_node *)node;
  int64_t off = 0, zero = 0;
  int i;
  for (i = 0; i < node->num_inputs; i++) {
    int64_t len = n->len[i];
    if (ct_node_needs_input_grad(node, i)) {
      grad_inputs[i] = len < 0 ? ct_full_opts(1, &zero, ct_int(0), ct_opts((ct_dtype)grads[0]->dtype, grads[0]->device))
                                : ct_narrow(grads[0], n->dim, off, len);
      if (!grad_inputs[i]) return ct_last_error();
    }
    if (len > 0) off += len;
  }
  return CT_OK;
}
static const ct_node_kind ct__shape_cat_kind = {"CatBackward0", ct__shape_cat_backward, NULL};
static ct_tensor *ct__k_cat(ct_keyset ks, ct_tensor_list tensors, int64_t dim) {
  int64_t wdim, i;
  int any = 0;
  ct_tensor *r = ct__shape_cat_impl("cat", tensors, dim, &wdim);
  ct__shape_cat_node *n;
  if (!r) return NULL;
  for (i = 0; i < tensors.n; i++) any |= ct__needs_grad(tensors.data[i]);
  if (!any || !(ks & CT_AUTOGRAD_KEYS) || !ct__grad_mode()) return r;
  if (tensors.n > 32767) return ct_release(r), ct_fail(CT_ERR_UNSUPPORTED, "cat", "autograd records at most 32767 inputs"), (ct_tensor *)NULL;
  n = (ct__shape_cat_node *)ct__node_new(&ct__shape_cat_kind, sizeof *n + sizeof(int64_t) * (size_t)tensors.n, (int)tensors.n, 1);
  if (!n) return ct_release(r), (ct_tensor *)NULL;
  n->dim = wdim;
  n->len = (int64_t *)(n + 1);
  for (i = 0; i < tensors.n; i++) {
    n->len[i] = ct__shape_cat_skipped(tensors.data[i]) ? -1 : tensors.data[i]->sizes[wdim];
    if (ct__node_set_input(&n->base, (int)i, tensors.data[i]) != CT_OK) return ct__node_release(&n->base), ct_release(r), (ct_tensor *)NULL;
  }
  if (ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
  ct__node_release(&n->base);
  return r;
}
static ct_status ct__k_cat_out(ct_keyset ks, ct_tensor_list tensors, int64_t dim, ct_tensor *out) {
  int64_t wdim;
  (void)ks;
  if (tensors.n > 0 && tensors.data && ct__check_overlaps("cat", out, (int)tensors.n, tensors.data) != CT_OK) return ct_last_error();
  return ct__shape_out_ex("cat", out, ct__shape_cat_impl("cat", tensors, dim, &wdim), 1);
}
static ct_tensor *ct__shape_stack(ct_tensor_list ts, int64_t dim) {
  static const char *op = "stack";
  ct_tensor **parts, *r = NULL;
  int64_t i, d;
  char b1[160], b2[160];
  if (ts.n <= 0) return ct_fail(CT_ERR_INVALID, op, "stack expects a non-empty TensorList"), (ct_tensor *)NULL;
  for (i = 0; i < ts.n; i++) {
    if (!ts.data[i]) return ct_fail(CT_ERR_NULL, op, "tensors[%lld] is NULL", (long long)i), (ct_tensor *)NULL;
    if (!ct_same_shape(ts.data[i], ts.data[0]))
      return ct_fail(CT_ERR_SHAPE, op, "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %lld",
                     ct_shape_format(ts.data[0]->ndim, ts.data[0]->sizes, b1, sizeof b1),
                     ct_shape_format(ts.data[i]->ndim, ts.data[i]->sizes, b2, sizeof b2), (long long)i),
             (ct_tensor *)NULL;
  }
  if ((d = ct__wrap_dim(op, dim, ts.data[0]->ndim + 1)) < 0) return NULL;
  parts = (ct_tensor **)ct__workspace(sizeof(ct_tensor *) * (size_t)ts.n);
  if (!parts) return ct_fail(CT_ERR_OOM, op, "out of memory"), (ct_tensor *)NULL;
  CT_SCOPE {
    for (i = 0; i < ts.n && (i == 0 || parts[i - 1]); i++) parts[i] = ct_unsqueeze(ts.data[i], d);
    if (parts[ts.n - 1]) r = ct_keep(ct_cat((int)ts.n, parts, d));
  }
  ct__workspace_free(parts);
  return r;
}
static ct_tensor *ct__k_stack(ct_keyset ks, ct_tensor_list tensors, int64_t dim) {
  (void)ks;
  return ct__shape_stack(tensors, dim);
}
static ct_status ct__k_stack_out(ct_keyset ks, ct_tensor_list tensors, int64_t dim, ct_tensor *out) {
  (void)ks;
  if (tensors.n > 0 && tensors.data && ct__check_overlaps("stack", out, (int)tensors.n, tensors.data) != CT_OK) return ct_last_error();
  return ct__shape_out_ex("stack", out, ct__shape_stack(tensors, dim), 1);
}

/* ================= index ops ================= */
static inline int64_t ct__shape_load_index(const char *p, ct_dtype dt) {
  return dt == CT_I32 ? (int64_t) * (const int32_t *)p : *(const int64_t *)p;
}
/* index dtype: int64, or int32 too when allow_int32 */
static ct_status ct__shape_check_index(const char *op, const ct_tensor *self, const ct_tensor *index, int allow_int32) {
  if (index->dtype != CT_I64 && !(allow_int32 && index->dtype == CT_I32))
    return ct_fail(CT_ERR_DTYPE, op, allow_int32 ? "%s(): Expected dtype int32 or int64 for index, but got %s"
                                                 : "%s(): Expected dtype int64 for index, but got %s",
                   op, ct__dtype_torch_name((ct_dtype)index->dtype));
  if (!ct_device_eq(index->device, self->device) && index->device.type != CT_DEVICE_CPU)
    return ct_fail(CT_ERR_DEVICE, op, "index is on %s but self is on %s", ct_device_type_name((ct_device_type)index->device.type),
                   ct_device_type_name((ct_device_type)self->device.type));
  return CT_OK;
}
static ct_status ct__shape_oob(const char *op, int64_t v, int64_t dim, int64_t size) {
  return ct_fail(CT_ERR_INDEX, op, "index %lld is out of bounds for dimension %lld with size %lld", (long long)v, (long long)dim,
                 (long long)size);
}
/* sizes/strides with a 0-dim tensor seen as 1-D of size 1 (PyTorch's ensure_nonempty) */
static int ct__shape_nonempty(const ct_tensor *t, int64_t *sizes, int64_t *strides) {
  int k;
  if (t->ndim == 0) {
    sizes[0] = 1, strides[0] = 0;
    return 1;
  }
  for (k = 0; k < t->ndim; k++) sizes[k] = t->sizes[k], strides[k] = t->strides[k];
  return t->ndim;
}

/* ---- gather / scatter: out[i] = self[i with dim := index[i]] and its transposes ---- */
enum { CT__SG_GATHER, CT__SG_SCATTER, CT__SG_ADD, CT__SG_FILL, CT__SG_REDUCE };
/* scatter reductions (scatter.reduce, scatter_reduce.two) */
enum { CT__RED_SUM, CT__RED_PROD, CT__RED_MEAN, CT__RED_AMAX, CT__RED_AMIN };
typedef struct ct__shape_red {
  int kind;
  int64_t *count; /* per element of the (fresh, contiguous) result: values combined so far */
} ct__shape_red;
static int64_t ct__shape_load_i64(const char *p, ct_dtype dt) {
  return dt == CT_I64 ? *(const int64_t *)p : dt == CT_I32 ? *(const int32_t *)p : dt == CT_U8 ? *(const uint8_t *)p : *(const bool *)p;
}
static void ct__shape_store_i64(char *p, ct_dtype dt, int64_t v) {
  if (dt == CT_I64) *(int64_t *)p = v;
  else if (dt == CT_I32) *(int32_t *)p = (int32_t)(uint32_t)(uint64_t)v;
  else if (dt == CT_U8) *(uint8_t *)p = (uint8_t)(uint64_t)v;
  else *(bool *)p = v != 0;
}
/* *d = combine(*d, *s) (or *s for the first value); integers in wrapping int64, floats in double */
static void ct__shape_red1(char *d, const char *s, ct_dtype dt, int kind, int first) {
  if (ct_dtype_is_floating(dt)) {
    double a = ct__load_double(d, dt), b = ct__load_double(s, dt), r;
    if (first) r = b;
    else if (kind == CT__RED_PROD) r = a * b;
    else if (kind == CT__RED_AMAX) r = a != a || a > b ? a : b;
    else if (kind == CT__RED_AMIN) r = a != a || a < b ? a : b;
    else r = a + b;
    ct__store_double(d, dt, r);
  } else {
    int64_t a = ct__shape_load_i64(d, dt), b = ct__shape_load_i64(s, dt), r;
    if (first) r = b;
    else if (kind == CT__RED_PROD) r = (int64_t)((uint64_t)a * (uint64_t)b);
    else if (kind == CT__RED_AMAX) r = a > b ? a : b;
    else if (kind == CT__RED_AMIN) r = a < b ? a : b;
    else r = (int64_t)((uint64_t)a + (uint64_t)b);
    ct__shape_store_i64(d, dt, r);
  }
}
static ct_status ct__shape_sg_check(const char *op, ct_tensor *self, int64_t *dim, ct_tensor *index, ct_tensor *src) {
  int64_t ss[CT_MAX_DIMS], st[CT_MAX_DIMS], is[CT_MAX_DIMS], it[CT_MAX_DIMS], cs[CT_MAX_DIMS], cst[CT_MAX_DIMS];
  int ns, ni, nc = 0, k;
  char b1[160], b2[160], b3[160];
  /* PyTorch's order: the dim, then the index dtype (any dtype when the index is
   * empty), then src's dtype; an empty index skips the shape checks */
  if ((*dim = ct__wrap_dim(op, *dim, self->ndim)) < 0) return ct_last_error();
  if (index->numel != 0 && ct__shape_check_index(op, self, index, 0) != CT_OK) return ct_last_error();
  if (src && src->dtype != self->dtype) return ct_fail(CT_ERR_DTYPE, op, "%s(): Expected self.dtype to be equal to src.dtype", op);
  if (index->numel == 0) return CT_OK;
  ns = ct__shape_nonempty(self, ss, st);
  ni = ct__shape_nonempty(index, is, it);
  if (src) nc = ct__shape_nonempty(src, cs, cst);
  if (ni != ns || (src && nc != ns))
    return ct_fail(CT_ERR_SHAPE, op, "Index tensor must have the same number of dimensions as %s tensor", src ? "self and src" : "input");
  ct_shape_format(index->ndim, index->sizes, b1, sizeof b1);
  ct_shape_format(self->ndim, self->sizes, b2, sizeof b2);
  for (k = 0; k < ns; k++) {
    if (src && (is[k] > cs[k] || (k != *dim && is[k] > ss[k])))
      return ct_fail(CT_ERR_SHAPE, op, "Expected index %s to be smaller than self %s apart from dimension %lld and to be smaller "
                     "size than src %s", b1, b2, (long long)*dim, ct_shape_format(src->ndim, src->sizes, b3, sizeof b3));
    if (!src && k != *dim && is[k] > ss[k])
      return ct_fail(CT_ERR_SHAPE, op, "Size does not match at dimension %d expected index %s to be smaller than self %s apart "
                     "from dimension %lld", k, b1, b2, (long long)*dim);
  }
  return CT_OK;
}
/* Walk index: GATHER: other[i] = self[..]; SCATTER: self[..] = other[i]; ADD: +=; FILL: self[..] = value;
 * REDUCE (host only): scatter's reductions */
static ct_status ct__shape_sg_host(const char *op, int mode, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *other,
                                   const char *value, const ct__shape_red *red, int select_message) {
  int64_t ss[CT_MAX_DIMS], st[CT_MAX_DIMS], is[CT_MAX_DIMS], it[CT_MAX_DIMS], os[CT_MAX_DIMS], ot[CT_MAX_DIMS];
  int64_t idx[CT_MAX_DIMS] = {0};
  int nd = ct__shape_nonempty(index, is, it), k;
  ct_dtype dt = (ct_dtype)self->dtype;
  size_t es = ct_dtype_size(dt);
  char *sp = ct__shape_ptr(self), *ip = ct__shape_ptr(index), *op_ = other ? ct__shape_ptr(other) : NULL;
  ct__shape_nonempty(self, ss, st);
  if (other) ct__shape_nonempty(other, os, ot);
  if (index->numel == 0 || !sp || !ip) return CT_OK;
  do {
    int64_t ioff = 0, soff = 0, ooff = 0, v;
    for (k = 0; k < nd; k++) {
      ioff += idx[k] * it[k];
      if (k != dim) soff += idx[k] * st[k];
      if (other) ooff += idx[k] * ot[k];
    }
    v = ct__shape_load_index(ip + ioff * (int64_t)ct_dtype_size((ct_dtype)index->dtype), (ct_dtype)index->dtype);
    if (v < 0 || v >= ss[dim])
      return select_message ? ct_fail(CT_ERR_INDEX, op, "index out of range in self (index %lld, size %lld)", (long long)v, (long long)ss[dim])
                            : ct__shape_oob(op, v, dim, ss[dim]);
    soff = (soff + v * st[dim]) * (int64_t)es;
    ooff *= (int64_t)es;
    switch (mode) {
    case CT__SG_GATHER: ct__shape_copy1(op_ + ooff, sp + soff, es); break;
    case CT__SG_SCATTER: ct__shape_copy1(sp + soff, op_ + ooff, es); break;
    case CT__SG_ADD: ct__shape_acc1(sp + soff, op_ + ooff, dt); break;
    case CT__SG_REDUCE: { /* self is an impl step's output, contiguous: soff / es is the element */
      int64_t *c = &red->count[soff / (int64_t)es];
      ct__shape_red1(sp + soff, other ? op_ + ooff : value, dt, red->kind, *c == 0);
      ++*c;
      break;
    }
    default: ct__shape_copy1(sp + soff, value, es); break;
    }
  } while (ct__shape_next(idx, nd, is));
  return CT_OK;
}

/* ---- the index loop entry of each device type ---- */
typedef char ct__ix_mode_check[((int)CT_INDEX_GATHER == (int)CT__SG_GATHER && (int)CT_INDEX_SCATTER == (int)CT__SG_SCATTER &&
                                (int)CT_INDEX_ADD == (int)CT__SG_ADD && (int)CT_INDEX_FILL == (int)CT__SG_FILL) ? 1 : -1];
static void (*ct__ix_loops[CT_DEVICE_NUM])(void) = {(void (*)(void))ct_host_index_loop};
CTDEF ct_index_loop_fn ct_index_loop(ct_device_type type) {
  if ((unsigned)type >= CT_DEVICE_NUM) return NULL;
  return (ct_index_loop_fn)ct__atomic_load(&ct__ix_loops[type]);
}
CTDEF ct_status ct_host_index_loop(const ct_index_call *call) {
  return ct__shape_sg_host(call->name, call->mode, call->self, call->dim, call->index, call->other, call->value, NULL,
                           call->select_message);
}
CTDEF ct_status ct_index_on_host(const ct_index_call *call) {
  ct_index_call h = *call;
  ct_tensor *ops[3], *hops[3] = {NULL, NULL, NULL};
  ct__staging stage;
  int gather = call->mode == CT_INDEX_GATHER, nops = call->other ? 3 : 2;
  ct_status st;
  if (call->index->numel == 0) return CT_OK;
  ops[0] = gather ? call->other : call->self; /* the written operand first */
  ops[1] = call->index;
  ops[2] = gather ? call->self : call->other;
  if ((st = ct__stage_in(call->name, &stage, nops, ops, hops)) == CT_OK) {
    if (gather) h.other = hops[0], h.self = hops[2];
    else h.self = hops[0], h.other = nops == 3 ? hops[2] : NULL;
    h.index = hops[1];
    if ((st = ct_host_index_loop(&h)) == CT_OK) st = ct__stage_out(&stage, 1, ops);
  }
  ct__stage_free(&stage, nops, hops);
  return st;
}
/* One index call: the host loop for CPU tensors, else the device's loop, with
 * an index left on the CPU copied there first. (scatter's reductions call the
 * host loop themselves.) */
static ct_status ct__shape_sg_loop_ex(const char *op, int mode, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *other,
                                      const char *value, int select_message) {
  ct_index_call call;
  ct_index_loop_fn loop;
  ct_tensor *di = NULL;
  ct_status st;
  if (CT_LIKELY(self->device.type == CT_DEVICE_CPU) || index->numel == 0)
    return ct__shape_sg_host(op, mode, self, dim, index, other, value, NULL, select_message);
  if (ct__is_meta(index) || (other && ct__is_meta(other)))
    return ct_fail(CT_ERR_DEVICE, op, "cannot compute on a %s tensor from a meta tensor", ct_device_type_name((ct_device_type)self->device.type));
  if (!ct_device_eq(index->device, self->device)) {
    if (!(di = ct__empty(op, index->ndim, index->sizes, (ct_dtype)index->dtype, self->device))) return ct_last_error();
    if ((st = ct__copy_impl(di, index)) != CT_OK) return ct_release(di), st;
    index = di;
  }
  memset(&call, 0, sizeof call);
  call.mode = mode;
  call.name = op;
  call.self = self;
  call.index = index;
  call.other = other;
  call.dim = (int)dim;
  call.bound = self->ndim ? self->sizes[dim] : 1;
  call.ndim = index->ndim;
  call.shape = index->sizes;
  if (value) memcpy(call.value, value, 8);
  call.select_message = select_message;
  loop = ct_index_loop((ct_device_type)self->device.type);
  st = loop ? loop(&call) : ct_index_on_host(&call);
  ct_release(di);
  return st;
}
static ct_status ct__shape_sg_loop(const char *op, int mode, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *other,
                                   const char *value) {
  return ct__shape_sg_loop_ex(op, mode, self, dim, index, other, value, 0);
}
static void ct__shape_scalar_bytes(char *buf, ct_dtype dt, ct_scalar v) {
  memset(buf, 0, 8);
  if (v.kind == CT_SCALAR_INT && dt == CT_I64) memcpy(buf, &v.v.i, 8);
  else ct__store_double(buf, dt, ct_scalar_to_double(v));
}
static ct_tensor *ct__k_gather(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, bool sparse_grad) {
  ct_tensor *r;
  (void)ks;
  (void)sparse_grad;
  if (ct__shape_sg_check("gather", self, &dim, index, NULL) != CT_OK) return NULL;
  r = ct__shape_fresh("gather", index->ndim, index->sizes, self);
  if (r && !ct__is_meta(r) && ct__shape_sg_loop("gather", CT__SG_GATHER, self, dim, index, r, NULL) != CT_OK) ct_release(r), r = NULL;
  return r;
}
static ct_status ct__k_gather_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, bool sparse_grad, ct_tensor *out) {
  if (ct__shape_overlaps("gather", out, self, index) != CT_OK) return ct_last_error();
  return ct__shape_out("gather", out, ct__k_gather(ks, self, dim, index, sparse_grad));
}
static ct_tensor *ct__shape_scatter(const char *op, int mode, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src,
                                    ct_scalar value) {
  ct_tensor *r;
  char v[8];
  if (ct__shape_sg_check(op, self, &dim, index, src) != CT_OK) return NULL;
  if (!src && ct__check_scalar(op, value, (ct_dtype)self->dtype) != CT_OK) return NULL; /* as PyTorch's value.to<scalar_t>() */
  if (!(r = ct__shape_clone(op, self)) || ct__is_meta(r)) return r;
  if (!src) ct__shape_scalar_bytes(v, (ct_dtype)self->dtype, value);
  if (ct__shape_sg_loop(op, mode, r, dim, index, src, v) != CT_OK) ct_release(r), r = NULL;
  return r;
}
static ct_tensor *ct__k_scatter_src(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src) {
  (void)ks;
  return ct__shape_scatter("scatter", CT__SG_SCATTER, self, dim, index, src, ct_int(0));
}
static ct_status ct__k_scatter_src_(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src) {
  return ct__shape_inplace("scatter_", self, ct__k_scatter_src(ks, self, dim, index, src));
}
static ct_status ct__k_scatter_src_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src, ct_tensor *out) {
  if (ct__shape_overlaps("scatter", out, self, src) != CT_OK) return ct_last_error();
  return ct__shape_out("scatter", out, ct__k_scatter_src(ks, self, dim, index, src));
}
static ct_tensor *ct__k_scatter_value(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value) {
  (void)ks;
  return ct__shape_scatter("scatter", CT__SG_FILL, self, dim, index, NULL, value);
}
static ct_status ct__k_scatter_value_(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value) {
  return ct__shape_inplace("scatter_", self, ct__k_scatter_value(ks, self, dim, index, value));
}
static ct_status ct__k_scatter_value_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value, ct_tensor *out) {
  if (ct__shape_overlaps("scatter", out, self, NULL) != CT_OK) return ct_last_error();
  return ct__shape_out("scatter", out, ct__k_scatter_value(ks, self, dim, index, value));
}
static ct_tensor *ct__k_scatter_add(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src) {
  (void)ks;
  return ct__shape_scatter("scatter_add", CT__SG_ADD, self, dim, index, src, ct_int(0));
}
static ct_status ct__k_scatter_add_(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src) {
  if (ct__shape_overlaps("scatter_add_", self, src, NULL) != CT_OK) return ct_last_error();
  return ct__shape_inplace("scatter_add_", self, ct__k_scatter_add(ks, self, dim, index, src));
}
static ct_status ct__k_scatter_add_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src, ct_tensor *out) {
  if (ct__shape_overlaps("scatter_add", out, self, src) != CT_OK) return ct_last_error();
  return ct__shape_out("scatter_add", out, ct__k_scatter_add(ks, self, dim, index, src));
}

/* scatter with a reduction: legacy scatter.reduce ("add", "multiply") and scatter_reduce.two
 * ("sum", "prod", "mean", "amax", "amin"; include_self=False ignores self where something is scattered).
 * Structured (ops/structured.h): the meta steps check the reduce, dim, index and src (and the written
 * tensor's overlap where PyTorch checks it); the impl steps copy self into out and reduce into it
 * (host loops: index bounds are checked there). */
static int ct__shape_legacy_reduce(const char *op, const char *reduce) {
  if (reduce && !strcmp(reduce, "add")) return CT__RED_SUM;
  if (reduce && !strcmp(reduce, "multiply")) return CT__RED_PROD;
  ct_fail(CT_ERR_INVALID, op, "reduce argument must be either add or multiply.");
  return -1;
}
static int ct__shape_two_reduce(const char *reduce) {
  static const char *const names[] = {"sum", "prod", "mean", "amax", "amin"};
  int kind;
  for (kind = 0; kind < 5 && !(reduce && !strcmp(reduce, names[kind])); kind++) {
  }
  if (kind == 5) ct_fail(CT_ERR_INVALID, "scatter_reduce", "reduce argument must be either sum, prod, mean, amax or amin.");
  return kind == 5 ? -1 : kind;
}
/* overlap: check the written tensor (out=, or self in place) against self and src */
static ct_status ct__meta_scatter_reduce_common(ct__structured *st, const char *op, ct_tensor *self, int64_t dim, ct_tensor *index,
                                                ct_tensor *src, ct_scalar value, int kind, int overlap) {
  if (overlap && ct__shape_overlaps(st->variant == CT__ST_OUT ? op : st->op, st->given[0], st->variant == CT__ST_OUT ? self : src,
                                    st->variant == CT__ST_OUT ? src : NULL) != CT_OK)
    return ct_last_error();
  if (kind < 0) return ct_last_error();
  if (ct__shape_sg_check(op, self, &dim, index, src) != CT_OK) return ct_last_error();
  if (!src && ct__check_scalar(op, value, (ct_dtype)self->dtype) != CT_OK) return ct_last_error(); /* as PyTorch's value.to<scalar_t>() */
  return ct__meta_same_shape(st, self);
}
static ct_status ct__impl_scatter_reduce_common(const char *op, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src,
                                                ct_scalar value, int kind, int include_self, ct_tensor *out) {
  ct__shape_red red;
  char v[8];
  int64_t k;
  ct_status st;
  if ((dim = ct__wrap_dim(op, dim, self->ndim)) < 0) return ct_last_error();
  if ((st = ct__copy_impl(out, self)) != CT_OK || out->numel == 0) return st;
  if (!src) ct__shape_scalar_bytes(v, (ct_dtype)self->dtype, value);
  red.kind = kind;
  red.count = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)out->numel);
  if (!red.count) return ct_fail(CT_ERR_OOM, op, "out of memory");
  for (k = 0; k < out->numel; k++) red.count[k] = include_self ? 1 : 0;
  st = ct__shape_sg_host(op, CT__SG_REDUCE, out, dim, index, src, v, &red, 0);
  if (st == CT_OK && kind == CT__RED_MEAN) {
    ct_dtype dt = (ct_dtype)out->dtype;
    size_t es = ct_dtype_size(dt);
    char *p = ct__shape_ptr(out);
    for (k = 0; k < out->numel; k++) {
      if (red.count[k] <= 1) continue;
      if (ct_dtype_is_floating(dt)) {
        ct__store_double(p + k * (int64_t)es, dt, ct__load_double(p + k * (int64_t)es, dt) / (double)red.count[k]);
      } else { /* integers: floor division, as PyTorch */
        int64_t a = ct__shape_load_i64(p + k * (int64_t)es, dt), q = a / red.count[k];
        if (a % red.count[k] != 0 && a < 0) q--;
        ct__shape_store_i64(p + k * (int64_t)es, dt, q);
      }
    }
  }
  ct__workspace_free(red.count);
  return st;
}
/* legacy scatter.reduce: PyTorch checks out= (not self in place) against self and src */
static ct_status ct__meta_scatter_reduce(ct__structured *st, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src,
                                         const char *reduce) {
  return ct__meta_scatter_reduce_common(st, "scatter", self, dim, index, src, ct_int(0), ct__shape_legacy_reduce("scatter", reduce),
                                        st->variant == CT__ST_OUT);
}
static ct_status ct__impl_scatter_reduce(ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src, const char *reduce, ct_tensor *out) {
  return ct__impl_scatter_reduce_common("scatter", self, dim, index, src, ct_int(0), ct__shape_legacy_reduce("scatter", reduce), 1, out);
}
static ct_status ct__meta_scatter_value_reduce(ct__structured *st, ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value,
                                               const char *reduce) {
  return ct__meta_scatter_reduce_common(st, "scatter", self, dim, index, NULL, value, ct__shape_legacy_reduce("scatter", reduce), 0);
}
static ct_status ct__impl_scatter_value_reduce(ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value, const char *reduce,
                                               ct_tensor *out) {
  return ct__impl_scatter_reduce_common("scatter", self, dim, index, NULL, value, ct__shape_legacy_reduce("scatter", reduce), 1, out);
}
/* scatter_reduce.two: out= and self in place are checked against self and src */
static ct_status ct__meta_scatter_reduce_two(ct__structured *st, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src,
                                             const char *reduce, bool include_self) {
  (void)include_self;
  return ct__meta_scatter_reduce_common(st, "scatter_reduce", self, dim, index, src, ct_int(0), ct__shape_two_reduce(reduce),
                                        st->variant != CT__ST_FUNCTIONAL);
}
static ct_status ct__impl_scatter_reduce_two(ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src, const char *reduce,
                                             bool include_self, ct_tensor *out) {
  return ct__impl_scatter_reduce_common("scatter_reduce", self, dim, index, src, ct_int(0), ct__shape_two_reduce(reduce), include_self, out);
}

/* 1 where a == b (same shapes), else 0, in a's dtype: a constant for the formulas below */
static ct_tensor *ct__shape_eq_mask(ct_tensor *a, ct_tensor *b) {
  ct_tensor *m = ct_empty_opts(a->ndim, a->sizes, ct_opts((ct_dtype)a->dtype, a->device));
  int64_t k;
  for (k = 0; m && !ct__is_meta(m) && k < m->numel; k++) ct_set(m, k, ct_get(a, k) == ct_get(b, k) ? 1.0 : 0.0);
  return m;
}
static int ct__shape_has_zero(ct_tensor *t) {
  int64_t k;
  for (k = 0; !ct__is_meta(t) && k < t->numel; k++)
    if (ct_get(t, k) == 0) return 1;
  return 0;
}
/* scatter_reduce.two's derivative (PyTorch's scatter_reduce_backward), for self (which = 0) or src (1).
 * prod: only without zeros in self and src (PyTorch masks them; not supported here). */
static ct_tensor *ct__shape_scatter_reduce_backward(ct_tensor *grad, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src,
                                                    const char *reduce, bool include_self, ct_tensor *result, int which) {
  ct_tensor *gs = NULL, *gsrc = NULL;
  if (!grad) return NULL;
  if (!strcmp(reduce, "sum")) {
    gs = grad;
    if (which) gsrc = ct_gather(grad, dim, index);
  } else if (!strcmp(reduce, "mean")) {
    ct_tensor *n = ct_scatter_add(include_self ? ct_ones_like(grad) : ct_zeros_like(grad), dim, index, ct_ones_like(src));
    int64_t k;
    for (k = 0; n && !ct__is_meta(n) && k < n->numel; k++)
      if (ct_get(n, k) == 0) ct_set(n, k, 1.0);
    gs = n ? ct_div(grad, n) : NULL;
    if (which && n) gsrc = ct_div(ct_gather(grad, dim, index), ct_gather(n, dim, index));
  } else if (!strcmp(reduce, "amax") || !strcmp(reduce, "amin")) { /* shared evenly between equal extremes */
    ct_tensor *value = ct_gather(result, dim, index), *self_is = ct__shape_eq_mask(self, result), *src_is = value ? ct__shape_eq_mask(src, value) : NULL;
    ct_tensor *dist = self_is && src_is ? ct_div(grad, ct_scatter_add(self_is, dim, index, src_is)) : NULL;
    gs = dist ? ct_mul(self_is, dist) : NULL;
    if (which && dist) gsrc = ct_mul(src_is, ct_gather(dist, dim, index));
  } else if (!strcmp(reduce, "prod")) {
    if (ct__shape_has_zero(self) || ct__shape_has_zero(src))
      return ct_fail(CT_ERR_UNSUPPORTED, "scatter_reduce", "the derivative of reduce=\"prod\" with zeros in self or src is not "
                     "supported"),
             (ct_tensor *)NULL;
    gs = ct_div(ct_mul(grad, result), self);
    if (which) gsrc = ct_div(ct_gather(ct_mul(grad, result), dim, index), src);
  } else {
    return ct_fail(CT_ERR_INVALID, "scatter_reduce", "reduce argument must be either sum, prod, mean, amax or amin."), (ct_tensor *)NULL;
  }
  if (which) return gsrc;
  return gs && !include_self ? ct_scatter_value(gs, dim, index, ct_int(0)) : gs;
}

/* scatter's derivative for src: grad gathered at index, zero-padded to src's shape where src is larger */
static ct_tensor *ct__shape_scatter_src_backward(ct_tensor *grad, int64_t dim, ct_tensor *index, const ct__shape *src_sizes) {
  int64_t pad[2 * CT_MAX_DIMS];
  int k, n = src_sizes->ndim, any = 0;
  ct_tensor *g = ct_gather(grad, dim, index);
  if (!g || g->ndim != n) return g;
  for (k = 0; k < n; k++) {
    pad[2 * (n - 1 - k)] = 0;
    pad[2 * (n - 1 - k) + 1] = src_sizes->sizes[k] - g->sizes[k];
    any |= g->sizes[k] != src_sizes->sizes[k];
  }
  return any ? ct_constant_pad_nd(g, 2 * n, pad, ct_int(0)) : g;
}

/* ---- index_select / index_add / index_copy / index_fill: whole slices along dim ---- */
enum { CT__IX_SELECT, CT__IX_ADD, CT__IX_COPY, CT__IX_FILL };
static void ct__shape_acc_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  ct_dtype dt = *(const ct_dtype *)ctx;
  int64_t i;
  for (i = 0; i < n; i++) ct__shape_acc1(d[0] + i * s[0], d[1] + i * s[1], dt);
}
/* slice i of t along dim (t itself when 0-dim) */
static void ct__shape_slice_of(ct_tensor *v, const ct_tensor *t, int dim, int64_t i) {
  if (t->ndim == 0) ct__shape_view(v, t, 0, t->sizes, t->strides, t->offset);
  else ct__shape_select_view(v, t, dim, i);
}
/* On a device: SELECT, ADD and COPY are one index call over other's shape
 * (GATHER, ADD, SCATTER) with the index as a view broadcast along every dim
 * but dim; FILL fills slices (fill_ runs on the device) from a host copy of
 * the index. */
static ct_status ct__shape_ix_loop(const char *op, int mode, ct_tensor *self, int dim, ct_tensor *index, ct_tensor *other,
                                   ct_scalar value);
static ct_status ct__shape_ix_device(const char *op, int mode, ct_tensor *self, int dim, ct_tensor *index, ct_tensor *other,
                                     ct_scalar value) {
  ct_tensor *moved, view;
  int64_t strides[CT_MAX_DIMS];
  ct_status st;
  int k;
  if (index->numel == 0) return CT_OK;
  moved = ct__empty(op, index->ndim, index->sizes, (ct_dtype)index->dtype, mode == CT__IX_FILL ? CT_CPU : self->device);
  if (!moved || ct__copy_impl(moved, index) != CT_OK) return ct_release(moved), ct_last_error();
  if (mode == CT__IX_FILL) {
    st = ct__shape_ix_loop(op, mode, self, dim, moved, other, value);
  } else {
    for (k = 0; k < other->ndim; k++) strides[k] = k == dim && moved->ndim ? moved->strides[0] : 0;
    ct__shape_view(&view, moved, other->ndim, other->sizes, strides, moved->offset);
    st = ct__shape_sg_loop_ex(op, mode == CT__IX_SELECT ? CT__SG_GATHER : mode == CT__IX_ADD ? CT__SG_ADD : CT__SG_SCATTER, self, dim,
                              &view, other, NULL, mode == CT__IX_SELECT);
  }
  ct_release(moved);
  return st;
}
/* SELECT: out[j] = self[index[j]]; ADD/COPY: self[index[j]] (+)= src[j]; FILL: self[index[j]] = value */
static ct_status ct__shape_ix_loop(const char *op, int mode, ct_tensor *self, int dim, ct_tensor *index, ct_tensor *other,
                                   ct_scalar value) {
  int64_t j, n = self->ndim ? self->sizes[dim] : 1, ies = (int64_t)ct_dtype_size((ct_dtype)index->dtype);
  int64_t istride = index->ndim ? index->strides[0] : 0;
  ct_dtype dt = (ct_dtype)self->dtype;
  const char *ip;
  if (self->device.type != CT_DEVICE_CPU && !ct__is_meta(self) && (mode != CT__IX_FILL || index->device.type != CT_DEVICE_CPU))
    return ct__shape_ix_device(op, mode, self, dim, index, other, value);
  ip = ct__shape_ptr(index);
  if (index->numel == 0 || !ct__shape_ptr(self) || !ip) return CT_OK;
  for (j = 0; j < index->numel; j++) {
    ct_tensor a, b, *ops[2];
    int64_t v = ct__shape_load_index(ip + j * istride * ies, (ct_dtype)index->dtype);
    if (mode == CT__IX_FILL && v < 0 && v >= -n) v += n; /* index_fill wraps negative indices, as PyTorch */
    if (v < 0 || v >= n)
      return mode == CT__IX_SELECT ? ct_fail(CT_ERR_INDEX, op, "index out of range in self (index %lld, size %lld)", (long long)v, (long long)n)
                                   : ct__shape_oob(op, v, dim, n);
    ct__shape_slice_of(&a, self, dim, v);
    if (mode == CT__IX_FILL) {
      ct__k_fill_(0, &a, value);
      continue;
    }
    ct__shape_slice_of(&b, other, dim, j);
    if (a.numel == 0) continue;
    if (mode == CT__IX_SELECT) {
      ct__copy_impl(&b, &a);
    } else if (mode == CT__IX_COPY) {
      ct__copy_impl(&a, &b);
    } else {
      ops[0] = &a, ops[1] = &b;
      ct_iter_foreach(ct__shape_acc_loop, &dt, 2, ops, a.ndim, a.sizes);
    }
  }
  return CT_OK;
}
/* index: a vector (or a scalar); source: self's shape with index.numel() at dim */
static ct_status ct__shape_ix_check(const char *op, ct_tensor *self, int64_t *dim, ct_tensor *index, ct_tensor *src, int allow_int32) {
  int k;
  char b1[160], b2[160];
  if (ct__shape_check_index(op, self, index, allow_int32) != CT_OK) return ct_last_error();
  if (index->ndim > 1) return ct_fail(CT_ERR_SHAPE, op, "%s(): Index is supposed to be a vector", op);
  if ((*dim = ct__wrap_dim(op, *dim, self->ndim)) < 0) return ct_last_error();
  if (!src) return CT_OK;
  if (src->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "%s(): self (%s) and source (%s) must have the same scalar type", op,
                   ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)src->dtype));
  if ((src->ndim ? src->sizes[*dim < src->ndim ? *dim : 0] : 1) != index->numel && !(src->ndim == 0 && self->ndim == 0))
    return ct_fail(CT_ERR_SHAPE, op, "%s(): Number of indices (%lld) should be equal to source.size(dim) (%lld)", op,
                   (long long)index->numel, (long long)(src->ndim ? src->sizes[*dim < src->ndim ? *dim : 0] : 1));
  if (src->ndim != self->ndim && self->ndim > 0 && src->ndim > 0)
    return ct_fail(CT_ERR_SHAPE, op, "%s(): source %s and self %s must have the same number of dimensions", op,
                   ct_shape_format(src->ndim, src->sizes, b1, sizeof b1), ct_shape_format(self->ndim, self->sizes, b2, sizeof b2));
  for (k = 0; k < self->ndim && k < src->ndim; k++)
    if (k != *dim && src->sizes[k] != self->sizes[k])
      return ct_fail(CT_ERR_SHAPE, op, "%s(): source %s and self %s must match in every dimension but %lld", op,
                     ct_shape_format(src->ndim, src->sizes, b1, sizeof b1), ct_shape_format(self->ndim, self->sizes, b2, sizeof b2),
                     (long long)*dim);
  return CT_OK;
}
static ct_tensor *ct__k_index_select(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index) {
  int64_t sizes[CT_MAX_DIMS];
  ct_tensor *r;
  (void)ks;
  if (ct__shape_ix_check("index_select", self, &dim, index, NULL, 1) != CT_OK) return NULL;
  if (self->ndim == 0 && index->numel != 1)
    return ct_fail(CT_ERR_INDEX, "index_select", "index_select(): Index to scalar can have only 1 value, got %lld value(s)",
                   (long long)index->numel),
           (ct_tensor *)NULL;
  memcpy(sizes, self->sizes, sizeof sizes);
  if (self->ndim) sizes[dim] = index->numel;
  r = ct__shape_fresh("index_select", self->ndim, sizes, self);
  if (r && !ct__is_meta(r) && ct__shape_ix_loop("index_select", CT__IX_SELECT, self, (int)dim, index, r, ct_int(0)) != CT_OK)
    ct_release(r), r = NULL;
  return r;
}
static ct_status ct__k_index_select_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *out) {
  if (ct__shape_overlaps("index_select", out, self, index) != CT_OK) return ct_last_error();
  return ct__shape_out("index_select", out, ct__k_index_select(ks, self, dim, index));
}
static ct_tensor *ct__shape_ix(const char *op, int mode, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *src,
                               ct_scalar value, int allow_int32) {
  ct_tensor *r;
  if (ct__shape_ix_check(op, self, &dim, index, src, allow_int32) != CT_OK) return NULL;
  if (!(r = ct__shape_clone(op, self)) || ct__is_meta(r)) return r;
  if (ct__shape_ix_loop(op, mode, r, (int)dim, index, src, value) != CT_OK) ct_release(r), r = NULL;
  return r;
}
static int ct__shape_alpha_is_one(ct_scalar a) {
  return a.kind == CT_SCALAR_NONE || (a.kind == CT_SCALAR_INT && a.v.i == 1) || (a.kind == CT_SCALAR_FLOAT && a.v.f == 1.0) ||
         (a.kind == CT_SCALAR_BOOL && a.v.b);
}
static ct_tensor *ct__k_index_add(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, ct_scalar alpha) {
  ct_tensor *scaled = NULL, *r;
  (void)ks;
  if (!ct__shape_alpha_is_one(alpha)) { /* source * alpha, below autograd */
    if (!(scaled = ct__k2_mul_scalar(0, source, alpha))) return NULL;
    if (scaled->dtype != source->dtype) {
      ct_release(scaled);
      return ct_fail(CT_ERR_DTYPE, "index_add", "alpha cannot be cast to %s", ct__dtype_torch_name((ct_dtype)source->dtype)),
             (ct_tensor *)NULL;
    }
  }
  r = ct__shape_ix("index_add", CT__IX_ADD, self, dim, index, scaled ? scaled : source, ct_int(0), 1);
  ct_release(scaled);
  return r;
}
static ct_status ct__k_index_add_(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, ct_scalar alpha) {
  if (ct__shape_overlaps("index_add_", self, source, NULL) != CT_OK) return ct_last_error();
  return ct__shape_inplace("index_add_", self, ct__k_index_add(ks, self, dim, index, source, alpha));
}
static ct_status ct__k_index_add_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, ct_scalar alpha,
                                     ct_tensor *out) {
  if (ct__shape_overlaps("index_add", out, self, source) != CT_OK) return ct_last_error();
  return ct__shape_out("index_add", out, ct__k_index_add(ks, self, dim, index, source, alpha));
}
static ct_tensor *ct__k_index_copy(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source) {
  (void)ks;
  return ct__shape_ix("index_copy", CT__IX_COPY, self, dim, index, source, ct_int(0), 0);
}
static ct_status ct__k_index_copy_(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source) {
  if (ct__shape_overlaps("index_copy_", self, source, NULL) != CT_OK) return ct_last_error();
  return ct__shape_inplace("index_copy_", self, ct__k_index_copy(ks, self, dim, index, source));
}
static ct_status ct__k_index_copy_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, ct_tensor *out) {
  if (ct__shape_overlaps("index_copy", out, self, source) != CT_OK) return ct_last_error();
  return ct__shape_out("index_copy", out, ct__k_index_copy(ks, self, dim, index, source));
}
/* index_fill (structured, ops/structured.h): the meta steps check the value (a Scalar's range; a
 * Tensor value's rank), the index and dim; the impl steps copy self into out and fill the slices
 * (index bounds, and a Tensor value's range, are checked there) */
static ct_status ct__meta_index_fill(ct__structured *st, ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value) {
  if (ct__check_scalar("index_fill", value, (ct_dtype)self->dtype) != CT_OK) return ct_last_error(); /* as PyTorch's value.to<scalar_t>() */
  if (ct__shape_ix_check("index_fill", self, &dim, index, NULL, 0) != CT_OK) return ct_last_error();
  return ct__meta_same_shape(st, self);
}
static ct_status ct__impl_index_fill(ct_tensor *self, int64_t dim, ct_tensor *index, ct_scalar value, ct_tensor *out) {
  ct_status st;
  if ((dim = ct__wrap_dim("index_fill", dim, self->ndim)) < 0) return ct_last_error();
  if ((st = ct__copy_impl(out, self)) != CT_OK) return st;
  return ct__shape_ix_loop("index_fill", CT__IX_FILL, out, (int)dim, index, NULL, value);
}
static ct_status ct__meta_index_fill_tensor(ct__structured *st, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *value) {
  if (value->ndim != 0)
    return ct_fail(CT_ERR_RANK, "index_fill", "index_fill_ only supports a 0-dimensional value tensor, but got tensor with %d "
                   "dimension(s).", value->ndim);
  if (ct__shape_ix_check("index_fill", self, &dim, index, NULL, 0) != CT_OK) return ct_last_error();
  return ct__meta_same_shape(st, self);
}
static ct_status ct__impl_index_fill_tensor(ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *value, ct_tensor *out) {
  ct_tensor *h;
  const char *p;
  ct_dtype dt = (ct_dtype)value->dtype;
  ct_scalar v;
  if (ct__is_meta(value)) return ct_fail(CT_ERR_DEVICE, "index_fill", "value is a meta tensor: it has no data");
  if (!(h = ct__host_operand("index_fill", value))) return ct_last_error(); /* (read on the host: value may be on any device) */
  p = ct__shape_ptr(h);
  v = ct_dtype_is_floating(dt) ? ct_float(ct__load_double(p, dt)) : dt == CT_BOOL ? ct_bool(*(const bool *)p) : ct_int(ct__shape_load_i64(p, dt));
  ct_release(h);
  if (ct__check_scalar("index_fill", v, (ct_dtype)self->dtype) != CT_OK) return ct_last_error();
  return ct__impl_index_fill(self, dim, index, v, out);
}
/* index_fill's derivative for a tensor value: grad summed over the filled slices, each index once
 * (negative indices wrapped first, so -1 and size-1 are one slice) */
static ct_tensor *ct__shape_index_fill_value_backward(ct_tensor *grad, int64_t dim, ct_tensor *index) {
  int64_t minus1 = -1, n, m = 0, j, k, size, d;
  ct_tensor *ci = ct_to_dtype(ct_contiguous(ct_reshape(index, 1, &minus1)), CT_I64), *u;
  const int64_t *v;
  int64_t *w;
  if (!grad || !ci || !(ci = ct__track(ct__host_operand("index_fill", ci)))) return NULL; /* read on the host */
  if ((d = ct__wrap_dim("index_fill", dim, grad->ndim)) < 0) return NULL;
  size = grad->ndim ? grad->sizes[d] : 1;
  n = ci->numel;
  if (!(u = ct__track(ct__empty("index_fill", 1, &n, CT_I64, CT_CPU)))) return NULL; /* written here: on the host */
  v = (const int64_t *)(const void *)ct__shape_ptr(ci);
  w = (int64_t *)u->storage->data;
  for (j = 0; v && j < n; j++) { /* keep the first occurrence of each value (quadratic: index vectors are short) */
    int64_t x = v[j] < 0 ? v[j] + size : v[j];
    for (k = 0; k < m && w[k] != x; k++) {
    }
    if (k == m) w[m++] = x;
  }
  u = ct__track(ct__host_result("index_fill", ct_retain(u), index->device));
  return u ? ct_sum(ct_index_select(grad, dim, ct_narrow(u, 0, 0, m))) : NULL;
}
/* ---- index.Tensor / index_put: advanced indexing over the leading dims ----
 * The index tensors (int64, or bool/uint8 masks, which become the int64
 * indices of their true elements) broadcast together to a shape B; they
 * become one int64 "linear" index L over the leading dims (negative indices
 * wrap), and the ops are index_select / index_add / index_copy over the
 * leading dims flattened, so their gradients come from those ops. */
/* A bool/uint8 mask over self's dims n, n+1, ...: one int64 index tensor per mask dim (tracked),
 * holding the coordinates of its true elements, into ix[n...]. */
static ct_status ct__shape_mask_indices(const char *op, ct_tensor *self, ct_tensor *t, int n, ct_tensor **ix) {
  int64_t nnz = 0, idx[CT_MAX_DIMS] = {0}, m = 0, j;
  char b1[160], b2[160];
  if (t->ndim == 0) return ct_fail(CT_ERR_UNSUPPORTED, op, "0-dim boolean indices are not supported");
  if (n + t->ndim > self->ndim)
    return ct_fail(CT_ERR_INDEX, op, "too many indices for tensor of dimension %d (got %d)", self->ndim, n + t->ndim);
  for (j = 0; j < t->ndim; j++)
    if (t->sizes[j] != self->sizes[n + j])
      return ct_fail(CT_ERR_INDEX, op, "The shape of the mask %s at index %lld does not match the shape of the indexed tensor %s at "
                     "index %lld", ct_shape_format(t->ndim, t->sizes, b1, sizeof b1), (long long)j,
                     ct_shape_format(self->ndim, self->sizes, b2, sizeof b2), (long long)n + (long long)j);
  if (ct__is_meta(t) || ct__is_meta(self)) return ct_fail(CT_ERR_UNSUPPORTED, op, "boolean masks have a data-dependent shape: not on meta tensors");
  if (t->numel) {
    do {
      int64_t off = 0;
      for (j = 0; j < t->ndim; j++) off += idx[j] * t->strides[j];
      nnz += ct__shape_ptr(t)[off] != 0;
    } while (ct__shape_next(idx, t->ndim, t->sizes));
  }
  for (j = 0; j < t->ndim; j++)
    if (!(ix[n + j] = ct__track(ct__empty(op, 1, &nnz, CT_I64, CT_CPU)))) return ct_last_error(); /* on the host */
  if (!nnz) return CT_OK;
  do { /* idx is back at zeros */
    int64_t off = 0;
    for (j = 0; j < t->ndim; j++) off += idx[j] * t->strides[j];
    if (ct__shape_ptr(t)[off] != 0) {
      for (j = 0; j < t->ndim; j++) ((int64_t *)ix[n + j]->storage->data)[m] = idx[j];
      m++;
    }
  } while (ct__shape_next(idx, t->ndim, t->sizes));
  return CT_OK;
}
/* An integer index entry of index / index_put (k: its position, n: the dims indexed so far). */
static ct_status ct__shape_check_int_index(const char *op, const ct_tensor *self, const ct_tensor *t, int64_t k, int n, int64_t nindices) {
  if (t->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "tensors used as indices must be long, byte or bool tensors (indices[%lld] is %s)", (long long)k,
                   ct__dtype_torch_name((ct_dtype)t->dtype));
  if (n >= self->ndim)
    return ct_fail(CT_ERR_INDEX, op, "too many indices for tensor of dimension %d (got %lld)", self->ndim, (long long)nindices);
  return CT_OK;
}
/* The broadcast shape of n >= 1 index tensors: its rank, or -1 and an error. */
static int ct__shape_broadcast_indices(const char *op, ct_tensor *const *ix, int n, int64_t *bshape) {
  char b1[160], b2[160];
  int bnd = ix[0]->ndim, k;
  memcpy(bshape, ix[0]->sizes, sizeof(int64_t) * CT_MAX_DIMS);
  for (k = 1; k < n; k++)
    if ((bnd = ct_broadcast_shapes(op, bnd, bshape, ix[k]->ndim, ix[k]->sizes, bshape)) < 0)
      return ct_fail(CT_ERR_INDEX, op, "shape mismatch: indexing tensors could not be broadcast together with shapes %s and %s",
                     ct_shape_format(ix[0]->ndim, ix[0]->sizes, b1, sizeof b1), ct_shape_format(ix[k]->ndim, ix[k]->sizes, b2, sizeof b2)), -1;
  return bnd;
}
/* The linear index over self's leading *nidx dims (a tracked int64 tensor of the broadcast shape). */
static ct_status ct__shape_linear_index(const char *op, ct_tensor *self, ct_tensor_list indices, ct_tensor **lin, int *nidx) {
  ct_tensor *ix[CT_MAX_DIMS];
  int64_t bshape[CT_MAX_DIMS], k, j;
  int n = 0, bnd = 0, meta = ct__is_meta(self);
  *lin = NULL;
  for (k = 0; k < indices.n; k++) {
    ct_tensor *t = indices.data[k];
    if (!t) return ct_fail(CT_ERR_UNSUPPORTED, op, "indices[%lld] is NULL: None entries are not supported", (long long)k);
    if (!(t = ct__track(ct__host_operand(op, t)))) return ct_last_error(); /* read on the host */
    if (t->dtype == CT_BOOL || t->dtype == CT_U8) {
      if (ct__shape_mask_indices(op, self, t, n, ix) != CT_OK) return ct_last_error();
      n += t->ndim;
      continue;
    }
    if (ct__shape_check_int_index(op, self, t, k, n, indices.n) != CT_OK) return ct_last_error();
    ix[n++] = t;
  }
  if (n == 0) return ct_fail(CT_ERR_INVALID, op, "at least one index tensor is required");
  if ((bnd = ct__shape_broadcast_indices(op, ix, n, bshape)) < 0) return ct_last_error();
  for (k = 0; k < n; k++) meta |= ct__is_meta(ix[k]);
  *lin = ct__track(ct__empty(op, bnd, bshape, CT_I64, meta ? CT_META : CT_CPU)); /* written here: on the host */
  if (!*lin) return ct_last_error();
  *nidx = n;
  if (!meta && (*lin)->numel) {
    int64_t idx[CT_MAX_DIMS] = {0}, *out = (int64_t *)(*lin)->storage->data, p = 0;
    do {
      int64_t l = 0;
      for (k = 0; k < n; k++) {
        const ct_tensor *t = ix[k];
        int64_t off = 0, v, size = self->sizes[k];
        for (j = 0; j < t->ndim; j++) /* broadcast: right-aligned, size-1 dims read index 0 */
          if (t->sizes[j] != 1) off += idx[bnd - t->ndim + j] * t->strides[j];
        v = ((const int64_t *)(const void *)ct__shape_ptr(t))[off];
        if (v < -size || v >= size) return ct__shape_oob(op, v, k, size);
        /* (wraps only for an empty self, whose other sizes may multiply past int64; its linear index is never used) */
        l = (int64_t)((uint64_t)l * (uint64_t)size + (uint64_t)(v < 0 ? v + size : v));
      }
      out[p++] = l;
    } while (bnd > 0 && ct__shape_next(idx, bnd, bshape));
  }
  if (!(*lin = ct__track(ct__host_result(op, ct_retain(*lin), self->device)))) return ct_last_error(); /* to self's device */
  return CT_OK;
}
/* self with its leading n dims flattened into one */
static ct_tensor *ct__shape_flat_lead(ct_tensor *self, int n) {
  int64_t sh[CT_MAX_DIMS], p = 1;
  int k;
  for (k = 0; k < n; k++)
    if (ct__mul_ovf(p, self->sizes[k], &p) && self->numel == 0)
      return ct_fail(CT_ERR_SIZE, "flatten", "the leading %d dims of an empty tensor multiply past int64: they cannot be flattened", n),
             (ct_tensor *)NULL;
  if (self->numel == 0) p = ct__sizes_product_sat(n, self->sizes);
  sh[0] = p;
  for (k = n; k < self->ndim; k++) sh[k - n + 1] = self->sizes[k];
  return ct_reshape(self, self->ndim - n + 1, sh);
}
static ct_tensor *ct__k_index(ct_keyset ks, ct_tensor *self, ct_tensor_list indices) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *lin;
    int n, k;
    if (ct__shape_linear_index("index", self, indices, &lin, &n) == CT_OK) {
      int64_t sh[CT_MAX_DIMS];
      int nd = lin->ndim + self->ndim - n;
      if (nd > CT_MAX_DIMS) {
        ct_fail(CT_ERR_RANK, "index", "the result would have %d dims (at most %d)", nd, CT_MAX_DIMS);
      } else {
        ct_tensor *flat_l = ct_reshape(lin, 1, &lin->numel);
        for (k = 0; k < lin->ndim; k++) sh[k] = lin->sizes[k];
        for (k = n; k < self->ndim; k++) sh[lin->ndim + k - n] = self->sizes[k];
        r = ct_keep(ct_reshape(ct_index_select(ct__shape_flat_lead(self, n), 0, flat_l), nd, sh));
      }
    }
  }
  return r;
}
static ct_tensor *ct__shape_index_put(ct_tensor *self, ct_tensor_list indices, ct_tensor *values, bool accumulate) {
  static const char *op = "index_put";
  ct_tensor *r = NULL;
  if (values->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Index put requires the source and destination dtypes match, got %s for the destination and %s "
                   "for the source.", ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)values->dtype)),
           (ct_tensor *)NULL;
  CT_SCOPE {
    ct_tensor *lin;
    int n, k;
    if (ct__shape_linear_index(op, self, indices, &lin, &n) == CT_OK) {
      int64_t sh[CT_MAX_DIMS], vsh[CT_MAX_DIMS];
      int nd = lin->ndim + self->ndim - n, ok = nd <= CT_MAX_DIMS && values->ndim <= nd;
      char b1[160], b2[160];
      for (k = 0; k < lin->ndim && ok; k++) sh[k] = lin->sizes[k];
      for (k = n; k < self->ndim && ok; k++) sh[lin->ndim + k - n] = self->sizes[k];
      for (k = 0; k < values->ndim && ok; k++) ok = values->sizes[k] == 1 || values->sizes[k] == sh[nd - values->ndim + k];
      if (!ok) {
        ct_fail(CT_ERR_SHAPE, op, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
                ct_shape_format(values->ndim, values->sizes, b1, sizeof b1), ct_shape_format(nd < CT_MAX_DIMS ? nd : 0, sh, b2, sizeof b2));
      } else {
        ct_tensor *flat = ct__shape_flat_lead(self, n), *v, *flat_l = ct_reshape(lin, 1, &lin->numel);
        vsh[0] = lin->numel;
        for (k = n; k < self->ndim; k++) vsh[k - n + 1] = self->sizes[k];
        v = ct_reshape(ct_expand(values, nd, sh), self->ndim - n + 1, vsh);
        v = accumulate ? ct_index_add(flat, 0, flat_l, v) : ct_index_copy(flat, 0, flat_l, v);
        r = ct_keep(ct_reshape(v, self->ndim, self->sizes));
      }
    }
  }
  return r;
}
static ct_status ct__k_index_out(ct_keyset ks, ct_tensor *self, ct_tensor_list indices, ct_tensor *out) {
  if (ct__shape_overlaps("index", out, self, NULL) != CT_OK ||
      (indices.n > 0 && indices.data && ct__check_overlaps("index", out, (int)indices.n, indices.data) != CT_OK))
    return ct_last_error();
  return ct__shape_out("index", out, ct__k_index(ks, self, indices)); /* below autograd: the composite records nothing */
}
static ct_tensor *ct__k_index_put(ct_keyset ks, ct_tensor *self, ct_tensor_list indices, ct_tensor *values, bool accumulate) {
  (void)ks;
  return ct__shape_index_put(self, indices, values, accumulate);
}
static ct_status ct__k_index_put_(ct_keyset ks, ct_tensor *self, ct_tensor_list indices, ct_tensor *values, bool accumulate) {
  ct_tensor *r;
  ct_status st;
  (void)ks;
  if (ct__shape_overlaps("index_put_", self, values, NULL) != CT_OK) return ct_last_error();
  r = ct__shape_index_put(self, indices, values, accumulate); /* owned: no scope at this depth */
  st = r ? ct_copy_(self, r) : ct_last_error();
  ct_release(r);
  return st;
}

/* index_put.out (structured, ops/structured.h; index_put and index_put_ stay composites). The meta
 * step makes ct__shape_linear_index's checks that read no data, in its order: the entries, their
 * dtypes, the count of indexed dims, the masks' shapes (no mask on meta tensors: its true elements
 * are data), and without masks the broadcast of the index tensors and of values to the indexing
 * result. The impl step runs the composite (index bounds and, with masks, the shapes are checked
 * there) and copies its result into out. */
static ct_status ct__meta_index_put(ct__structured *st, ct_tensor *self, ct_tensor_list indices, ct_tensor *values, bool accumulate) {
  static const char *op = "index_put";
  ct_tensor *ix[CT_MAX_DIMS];
  int64_t bshape[CT_MAX_DIMS], k, j;
  int n = 0, bnd, masks = 0, nd, ok;
  char b1[160], b2[160];
  (void)accumulate;
  if (values->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Index put requires the source and destination dtypes match, got %s for the destination and %s "
                   "for the source.", ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)values->dtype));
  for (k = 0; k < indices.n; k++) {
    ct_tensor *t = indices.data[k];
    if (!t) return ct_fail(CT_ERR_UNSUPPORTED, op, "indices[%lld] is NULL: None entries are not supported", (long long)k);
    if (t->dtype == CT_BOOL || t->dtype == CT_U8) {
      if (t->ndim == 0) return ct_fail(CT_ERR_UNSUPPORTED, op, "0-dim boolean indices are not supported");
      if (n + t->ndim > self->ndim)
        return ct_fail(CT_ERR_INDEX, op, "too many indices for tensor of dimension %d (got %d)", self->ndim, n + t->ndim);
      for (j = 0; j < t->ndim; j++)
        if (t->sizes[j] != self->sizes[n + j])
          return ct_fail(CT_ERR_INDEX, op, "The shape of the mask %s at index %lld does not match the shape of the indexed tensor %s at "
                         "index %lld", ct_shape_format(t->ndim, t->sizes, b1, sizeof b1), (long long)j,
                         ct_shape_format(self->ndim, self->sizes, b2, sizeof b2), (long long)n + (long long)j);
      if (ct__is_meta(t) || ct__is_meta(self))
        return ct_fail(CT_ERR_UNSUPPORTED, op, "boolean masks have a data-dependent shape: not on meta tensors");
      n += t->ndim, masks = 1;
      continue;
    }
    if (ct__shape_check_int_index(op, self, t, k, n, indices.n) != CT_OK) return ct_last_error();
    ix[n++] = t;
  }
  if (n == 0) return ct_fail(CT_ERR_INVALID, op, "at least one index tensor is required");
  if (!masks) {
    if ((bnd = ct__shape_broadcast_indices(op, ix, n, bshape)) < 0) return ct_last_error();
    nd = bnd + self->ndim - n, ok = nd <= CT_MAX_DIMS && values->ndim <= nd;
    for (k = n; k < self->ndim && ok; k++) bshape[bnd + k - n] = self->sizes[k];
    for (k = 0; k < values->ndim && ok; k++) ok = values->sizes[k] == 1 || values->sizes[k] == bshape[nd - values->ndim + k];
    if (!ok)
      return ct_fail(CT_ERR_SHAPE, op, "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
                     ct_shape_format(values->ndim, values->sizes, b1, sizeof b1), ct_shape_format(nd < CT_MAX_DIMS ? nd : 0, bshape, b2, sizeof b2));
  }
  return ct__meta_same_shape(st, self);
}
static ct_status ct__impl_index_put(ct_tensor *self, ct_tensor_list indices, ct_tensor *values, bool accumulate, ct_tensor *out) {
  ct_tensor *r = ct__shape_index_put(self, indices, values, accumulate);
  ct_status st = r ? ct__copy_impl(out, r) : ct_last_error();
  ct_release(r);
  return st;
}

/* ---- one_hot ---- */
static ct_tensor *ct__k_one_hot(ct_keyset ks, ct_tensor *self, int64_t num_classes) {
  static const char *op = "one_hot";
  int64_t sizes[CT_MAX_DIMS], idx[CT_MAX_DIMS] = {0}, p = 0, k;
  ct_tensor *r;
  (void)ks;
  if (self->dtype != CT_I64) return ct_fail(CT_ERR_DTYPE, op, "one_hot is only applicable to index tensor."), (ct_tensor *)NULL;
  if (self->ndim >= CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "the result would have more than %d dims", CT_MAX_DIMS), (ct_tensor *)NULL;
  if (num_classes < -1) return ct_fail(CT_ERR_INVALID, op, "num_classes should be positive"), (ct_tensor *)NULL;
  if (num_classes == -1) {
    if (ct__is_meta(self))
      return ct_fail(CT_ERR_UNSUPPORTED, op, "num_classes=-1 depends on the data: not on meta tensors"), (ct_tensor *)NULL;
    if (self->numel == 0) return ct_fail(CT_ERR_INVALID, op, "Can not infer total number of classes from empty tensor."), (ct_tensor *)NULL;
    num_classes = 0;
    do {
      int64_t off = 0, v;
      for (k = 0; k < self->ndim; k++) off += idx[k] * self->strides[k];
      v = ((const int64_t *)(const void *)ct__shape_ptr(self))[off];
      if (v >= num_classes) num_classes = v == INT64_MAX ? v : v + 1; /* INT64_MAX: the allocation fails */
    } while (self->ndim && ct__shape_next(idx, self->ndim, self->sizes));
  }
  memcpy(sizes, self->sizes, sizeof(int64_t) * (size_t)self->ndim);
  sizes[self->ndim] = num_classes;
  r = ct__empty(op, self->ndim + 1, sizes, CT_I64, self->device);
  if (!r || ct__is_meta(r) || self->numel == 0) return r;
  memset(r->storage->data, 0, sizeof(int64_t) * (size_t)r->numel);
  memset(idx, 0, sizeof idx);
  do {
    int64_t off = 0, v;
    for (k = 0; k < self->ndim; k++) off += idx[k] * self->strides[k];
    v = ((const int64_t *)(const void *)ct__shape_ptr(self))[off];
    if (v < 0 || v >= num_classes) {
      ct_release(r);
      return ct_fail(CT_ERR_INDEX, op, v < 0 ? "Class values must be non-negative." : "Class values must be smaller than num_classes."),
             (ct_tensor *)NULL;
    }
    ((int64_t *)r->storage->data)[p * num_classes + v] = 1;
    p++;
  } while (self->ndim && ct__shape_next(idx, self->ndim, self->sizes));
  return r;
}

/* ---- embedding: rows of weight; padding_idx rows get no gradient ---- */
/* padding_idx is compared with the index values as given (aten's rule: -1 matches nothing;
 * torch.nn.functional.embedding wraps negative values before calling it) */
static ct_status ct__shape_emb_check(const char *op, ct_tensor *indices) {
  if (indices->dtype != CT_I64 && indices->dtype != CT_I32)
    return ct_fail(CT_ERR_DTYPE, op, "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
                   "but got %s instead", ct__dtype_torch_name((ct_dtype)indices->dtype));
  return CT_OK;
}
static ct_tensor *ct__k_embedding(ct_keyset ks, ct_tensor *weight, ct_tensor *indices, int64_t padding_idx, bool scale_grad_by_freq,
                                  bool sparse) {
  static const char *op = "embedding";
  int64_t sizes[CT_MAX_DIMS], k;
  ct_tensor *r, flat_i;
  (void)ks;
  (void)scale_grad_by_freq;
  (void)sparse;
  (void)padding_idx;
  if (weight->ndim != 2) return ct_fail(CT_ERR_RANK, op, "'weight' must be 2-D"), (ct_tensor *)NULL;
  if (ct__shape_emb_check(op, indices) != CT_OK) return NULL;
  if (indices->ndim >= CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "the result would have more than %d dims", CT_MAX_DIMS), (ct_tensor *)NULL;
  for (k = 0; k < indices->ndim; k++) sizes[k] = indices->sizes[k];
  sizes[indices->ndim] = weight->sizes[1];
  r = ct__shape_fresh(op, indices->ndim + 1, sizes, weight);
  if (!r || ct__is_meta(r) || r->numel == 0 || ct__is_meta(indices)) return r;
  {
    ct_tensor *ci = ct_is_contiguous(indices) ? ct_retain(indices) : ct__copy_as(op, indices, (ct_dtype)indices->dtype);
    int64_t one[1] = {1}, n[1] = {indices->numel}, rs[2], rst[2];
    ct_tensor rows; /* r as [n, D] */
    ct_status st;
    if (!ci) return ct_release(r), (ct_tensor *)NULL;
    ct__shape_view(&flat_i, ci, 1, n, one, ci->offset);
    rs[0] = n[0], rs[1] = weight->sizes[1], rst[0] = weight->sizes[1], rst[1] = 1;
    ct__shape_view(&rows, r, 2, rs, rst, 0);
    st = ct__shape_ix_loop(op, CT__IX_SELECT, weight, 0, &flat_i, &rows, ct_int(0));
    ct_release(ci);
    if (st != CT_OK) ct_release(r), r = NULL;
  }
  return r;
}
/* r[iv[j]] += scale * g[j] for the n rows (length d) of contiguous g, skipping padding_idx;
 * scale = 1 / (count of the index) with scale_grad_by_freq */
static ct_status ct__shape_emb_accumulate(const char *op, ct_tensor *r, const ct_tensor *g, const int64_t *iv, int64_t n, int64_t d,
                                          int64_t padding_idx, bool by_freq) {
  int64_t j, e, nw = r->sizes[0], *count = NULL;
  ct_dtype dt = (ct_dtype)r->dtype;
  int64_t es = (int64_t)ct_dtype_size(dt);
  for (j = 0; j < n; j++)
    if (iv[j] < 0 || iv[j] >= nw) return ct__shape_oob(op, iv[j], 0, nw);
  if (by_freq) {
    if (!(count = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(nw > 0 ? nw : 1)))) return ct_fail(CT_ERR_OOM, op, "out of memory");
    memset(count, 0, sizeof(int64_t) * (size_t)nw);
    for (j = 0; j < n; j++) count[iv[j]]++;
  }
  for (j = 0; j < n; j++) {
    double scale = count ? 1.0 / (double)count[iv[j]] : 1.0;
    char *dst = (char *)r->storage->data + iv[j] * d * es;
    const char *src = (const char *)g->storage->data + j * d * es;
    if (iv[j] == padding_idx) continue;
    for (e = 0; e < d; e++)
      ct__store_double(dst + e * es, dt, ct__load_double(dst + e * es, dt) + scale * ct__load_double(src + e * es, dt));
  }
  ct__workspace_free(count);
  return CT_OK;
}
static ct_status ct__k_embedding_out(ct_keyset ks, ct_tensor *weight, ct_tensor *indices, int64_t padding_idx, bool scale_grad_by_freq,
                                     bool sparse, ct_tensor *out) {
  return ct__shape_out("embedding", out, ct__k_embedding(ks, weight, indices, padding_idx, scale_grad_by_freq, sparse));
}
/* The same on a device, through the index loop: r[idx[j]] += g[j] (scaled
 * by 1 / count with by_freq, the counts themselves an index_add of ones),
 * then padding_idx's row zeroed (the CPU skips it: the same result). */
static ct_status ct__shape_emb_accumulate_device(const char *op, ct_tensor *r, ct_tensor *grad, ct_tensor *indices, int64_t d,
                                                 int64_t padding_idx, bool by_freq) {
  int64_t n = indices->numel, one = 1, gs[2], gst[2];
  ct_tensor *ci = ct__copy_as(op, indices, CT_I64), *g = ct__copy_as(op, grad, (ct_dtype)grad->dtype), *scaled = NULL;
  ct_tensor flat_i, rows, row;
  ct_status st = CT_OK;
  if (!ci || !g) st = ct_last_error();
  if (st == CT_OK) {
    ct__shape_view(&flat_i, ci, 1, &n, &one, ci->offset);
    gs[0] = n, gs[1] = d, gst[0] = d, gst[1] = 1;
    ct__shape_view(&rows, g, 2, gs, gst, g->offset);
    if (by_freq) CT_SCOPE { /* rows / count[idx], in float64, rounded to the gradient's dtype */
      ct_tensor *idx1 = ct_reshape(ci, 1, &n), *g2 = ct_reshape(g, 2, gs), *ones = ct_ones_ex(1, &n, CT_F64, r->device);
      ct_tensor *counts = ct_zeros_ex(1, &r->sizes[0], CT_F64, r->device), *per = NULL;
      st = idx1 && g2 && ones && counts ? ct__shape_ix_loop(op, CT__IX_ADD, counts, 0, idx1, ones, ct_int(0)) : ct_last_error();
      if (st == CT_OK) per = ct_unsqueeze(ct_index_select(counts, 0, idx1), 1);
      if (per) scaled = ct_keep(ct_to_dtype(ct_div(ct_to_dtype(g2, CT_F64), per), (ct_dtype)grad->dtype));
      if (st == CT_OK && !scaled) st = ct_last_error();
    }
    if (st == CT_OK) st = ct__shape_ix_loop(op, CT__IX_ADD, r, 0, &flat_i, scaled ? scaled : &rows, ct_int(0));
    if (st == CT_OK && padding_idx >= 0 && padding_idx < r->sizes[0]) {
      ct__shape_select_view(&row, r, 0, padding_idx);
      st = ct__k_fill_(0, &row, ct_int(0));
    }
  }
  ct_release(scaled);
  ct_release(g);
  ct_release(ci);
  return st;
}
/* the gradient of weight: rows of grad_output summed per index, except padding_idx; scaled by 1/count */
static ct_tensor *ct__k_embedding_dense_backward(ct_keyset ks, ct_tensor *grad, ct_tensor *indices, int64_t num_weights,
                                                 int64_t padding_idx, bool scale_grad_by_freq) {
  static const char *op = "embedding_dense_backward";
  int64_t sizes[2];
  ct_tensor *r, *g, *ci;
  ct_status st;
  char b1[160], b2[160];
  (void)ks;
  if (ct__shape_emb_check(op, indices) != CT_OK) return NULL;
  if (num_weights < 0) return ct_fail(CT_ERR_SIZE, op, "num_weights must be non-negative"), (ct_tensor *)NULL;
  if (grad->ndim != indices->ndim + 1 || memcmp(grad->sizes, indices->sizes, sizeof(int64_t) * (size_t)indices->ndim))
    return ct_fail(CT_ERR_SHAPE, op, "grad_output %s must have the shape of indices %s plus the embedding dim",
                   ct_shape_format(grad->ndim, grad->sizes, b1, sizeof b1), ct_shape_format(indices->ndim, indices->sizes, b2, sizeof b2)),
           (ct_tensor *)NULL;
  if (!ct_dtype_is_floating((ct_dtype)grad->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name((ct_dtype)grad->dtype)), (ct_tensor *)NULL;
  sizes[0] = num_weights, sizes[1] = grad->sizes[grad->ndim - 1];
  r = ct__empty(op, 2, sizes, (ct_dtype)grad->dtype, grad->device);
  if (!r || ct__k_fill_(0, r, ct_int(0)) != CT_OK) return ct_release(r), (ct_tensor *)NULL;
  if (ct__is_meta(r) || ct__is_meta(indices) || indices->numel == 0 || sizes[1] == 0) return r;
  if (r->device.type != CT_DEVICE_CPU) {
    if (ct__shape_emb_accumulate_device(op, r, grad, indices, sizes[1], padding_idx, scale_grad_by_freq) != CT_OK) ct_release(r), r = NULL;
    return r;
  }
  g = ct__copy_as(op, grad, (ct_dtype)grad->dtype); /* contiguous */
  ci = g ? ct__copy_as(op, indices, CT_I64) : NULL;
  st = ci ? ct__shape_emb_accumulate(op, r, g, (const int64_t *)ci->storage->data, indices->numel, sizes[1], padding_idx,
                                     scale_grad_by_freq)
          : ct_last_error();
  ct_release(ci);
  ct_release(g);
  if (st != CT_OK) ct_release(r), r = NULL;
  return r;
}
/* embedding's derivative (PyTorch's embedding_backward: dense only) */
static ct_tensor *ct__shape_embedding_backward(ct_tensor *grad, ct_tensor *indices, const ct__shape *weight_sizes, int64_t padding_idx,
                                               bool scale_grad_by_freq, bool sparse) {
  if (sparse) return ct_fail(CT_ERR_UNSUPPORTED, "embedding", "sparse gradients are not supported: use sparse=false"), (ct_tensor *)NULL;
  return ct_embedding_dense_backward(grad, indices, weight_sizes->sizes[0], padding_idx, scale_grad_by_freq);
}
/* embedding_dense_backward's derivative in grad_output: rows of grad picked by indices, times the
 * (constant) padding mask and frequency scale */
static ct_tensor *ct__shape_embedding_double_backward(ct_tensor *grad, ct_tensor *indices, int64_t padding_idx, bool scale_grad_by_freq) {
  ct_tensor *rows = ct_embedding(grad, indices), *w, *ci;
  int64_t sizes[CT_MAX_DIMS], n = indices->numel, j, k, *count = NULL, nw = grad ? grad->sizes[0] : 0;
  if (!rows || (padding_idx == -1 && !scale_grad_by_freq) || ct__is_meta(rows)) return rows;
  for (k = 0; k < indices->ndim; k++) sizes[k] = indices->sizes[k];
  sizes[indices->ndim] = 1;
  /* the weights are made on the host, then on grad's device (ops.h, host staging) */
  if (!(w = ct_empty_opts(indices->ndim + 1, sizes, ct_opts((ct_dtype)grad->dtype, ct__host_device(grad))))) return NULL;
  if (!(ci = ct_to_dtype(ct_contiguous(indices), CT_I64)) || !(ci = ct__track(ct__host_operand("embedding", ci)))) return NULL;
  if (scale_grad_by_freq && nw > 0) {
    if (!(count = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)nw))) return ct_fail(CT_ERR_OOM, "embedding", "out of memory"), (ct_tensor *)NULL;
    memset(count, 0, sizeof(int64_t) * (size_t)nw);
    for (j = 0; j < n; j++) count[((const int64_t *)ci->storage->data)[ci->offset + j]]++;
  }
  for (j = 0; j < n; j++) {
    int64_t v = ((const int64_t *)ci->storage->data)[ci->offset + j];
    ct_set(w, j, v == padding_idx ? 0.0 : count ? 1.0 / (double)count[v] : 1.0);
  }
  ct__workspace_free(count);
  w = ct__track(ct__host_result("embedding", ct_retain(w), grad->device));
  return w ? ct_mul(rows, w) : NULL;
}

/* ================= split / chunk / unbind: views (CompositeImplicitAutograd) =================
 * n pieces along dim: piece i is sizes[i] long, or split_size long (the last
 * one shorter) when sizes is NULL; select: unbind's select(dim, i). Returns n;
 * writes owned views to out when out != NULL (cap >= n).
 * Autograd: one node for all pieces, as aten's SplitBackward0 /
 * UnbindBackward0: its backward cats (stacks) the pieces' gradients, zeros
 * for the unused ones - one pass over self's size, where a node per piece
 * (narrow's, select's) would scatter each piece into a full-size zero
 * tensor: quadratic in the number of pieces (an RNN unrolled by unbind). */
typedef struct ct__shape_pieces_node {
  ct_node base;
  int64_t dim;
  int select;
} ct__shape_pieces_node;
static ct_status ct__shape_pieces_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__shape_pieces_node *n = (ct__shape_pieces_node *)node;
  if (!ct_node_needs_input_grad(node, 0)) return CT_OK;
  grad_inputs[0] = n->select ? ct_stack_tensors(node->num_outputs, grads, n->dim) : ct_cat(node->num_outputs, grads, n->dim);
  return grad_inputs[0] ? CT_OK : ct_last_error();
}
static const ct_node_kind ct__shape_split_kind = {"SplitBackward0", ct__shape_pieces_backward, NULL};
static const ct_node_kind ct__shape_split_sizes_kind = {"SplitWithSizesBackward0", ct__shape_pieces_backward, NULL};
static const ct_node_kind ct__shape_unbind_kind = {"UnbindBackward0", ct__shape_pieces_backward, NULL};
static int64_t ct__shape_pieces(ct_keyset ks, const char *op, ct_tensor *self, int64_t dim, int64_t n, const int64_t *sizes,
                                int64_t split_size, int select, int64_t cap, ct_tensor **out) {
  int64_t i, start = 0;
  ct__shape_pieces_node *node = NULL;
  ct_keyset excluded = 0;
  ct_status st = CT_OK;
  if (!out) return n;
  if (cap < n) return ct_fail(CT_ERR_INVALID, op, "out has room for %lld tensors, %s returns %lld", (long long)cap, op, (long long)n), (int64_t)-1;
  /* (more pieces than a node has outputs: each piece keeps its own view node) */
  if (n > 0 && n <= 32767 && (ks & CT_AUTOGRAD_KEYS) && ct__grad_mode() && ct__needs_grad(self)) {
    const ct_node_kind *kind = select ? &ct__shape_unbind_kind : sizes ? &ct__shape_split_sizes_kind : &ct__shape_split_kind;
    node = (ct__shape_pieces_node *)ct__node_new(kind, sizeof *node, 1, (int)n);
    if (!node) return -1;
    node->dim = dim;
    node->select = select;
    if (ct__node_set_input(&node->base, 0, self) != CT_OK) return ct__node_release(&node->base), (int64_t)-1;
    excluded = ct__below_autograd_begin();
  }
  for (i = 0; i < n; i++) {
    int64_t len = sizes ? sizes[i] : self->sizes[dim] - start < split_size ? self->sizes[dim] - start : split_size;
    out[i] = select ? ct_select(self, dim, i) : ct_narrow(self, dim, start, len);
    if (!out[i]) {
      st = ct_last_error();
      break;
    }
    /* PyTorch forbids in-place changes to outputs of multi-output view ops */
    if (out[i]->base && out[i]->view_kind == CT_VIEW_DEFAULT) out[i]->view_kind = CT_VIEW_MULTI_OUTPUT;
    start += len;
  }
  if (node) {
    ct__below_autograd_end(excluded);
    for (i = 0; st == CT_OK && i < n; i++) st = ct__set_history(out[i], &node->base, (int)i);
    ct__node_release(&node->base);
  }
  if (st != CT_OK) {
    for (i = 0; i < n; i++) ct_release(out[i]), out[i] = NULL;
    return -1;
  }
  return n;
}
static int64_t ct__shape_split_dim(const char *op, ct_tensor *self, int64_t *dim) {
  if (self->ndim == 0) return ct_fail(CT_ERR_RANK, op, "%s expects at least a 1-dimensional tensor", op), (int64_t)-1;
  return *dim = ct__wrap_dim(op, *dim, self->ndim);
}
static int64_t ct__k_split(ct_keyset ks, ct_tensor *self, int64_t split_size, int64_t dim, int64_t cap, ct_tensor **out) {
  int64_t size;
    if (ct__shape_split_dim("split", self, &dim) < 0) return -1;
  size = self->sizes[dim];
  if (split_size < 0)
    return ct_fail(CT_ERR_INVALID, "split", "split expects split_size be non-negative, but got split_size=%lld", (long long)split_size),
           (int64_t)-1;
  if (split_size == 0 && size != 0)
    return ct_fail(CT_ERR_INVALID, "split", "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                   (long long)size),
           (int64_t)-1;
  return ct__shape_pieces(ks, "split", self, dim, size == 0 ? 1 : (size - 1) / split_size + 1, NULL, split_size, 0, cap, out);
}
static int64_t ct__k_split_with_sizes(ct_keyset ks, ct_tensor *self, ct_int_list split_sizes, int64_t dim, int64_t cap, ct_tensor **out) {
  int64_t i, sum = 0, n = split_sizes.n < 0 ? 0 : split_sizes.n;
    if (ct__shape_split_dim("split_with_sizes", self, &dim) < 0) return -1;
  for (i = 0; i < n; i++) {
    if (split_sizes.data[i] < 0)
      return ct_fail(CT_ERR_INVALID, "split_with_sizes", "split_with_sizes expects split_sizes have only non-negative entries, but "
                     "got split_sizes[%lld]=%lld", (long long)i, (long long)split_sizes.data[i]),
             (int64_t)-1;
    sum += split_sizes.data[i] < INT64_MAX - sum ? split_sizes.data[i] : INT64_MAX - sum;
  }
  if (sum != self->sizes[dim])
    return ct_fail(CT_ERR_SHAPE, "split_with_sizes", "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size "
                   "at dimension %lld), but got split_sizes summing to %lld", (long long)self->sizes[dim], (long long)dim, (long long)sum),
           (int64_t)-1;
  return ct__shape_pieces(ks, "split_with_sizes", self, dim, n, split_sizes.data, 0, 0, cap, out);
}
static int64_t ct__k_split_sizes(ct_keyset ks, ct_tensor *self, ct_int_list split_size, int64_t dim, int64_t cap, ct_tensor **out) {
  return ct__k_split_with_sizes(ks, self, split_size, dim, cap, out);
}
static int64_t ct__k_chunk(ct_keyset ks, ct_tensor *self, int64_t chunks, int64_t dim, int64_t cap, ct_tensor **out) {
  int64_t size, split_size;
    if (ct__shape_split_dim("chunk", self, &dim) < 0) return -1;
  if (chunks <= 0)
    return ct_fail(CT_ERR_INVALID, "chunk", "chunk expects `chunks` to be greater than 0, got: %lld", (long long)chunks), (int64_t)-1;
  size = self->sizes[dim];
  split_size = size == 0 ? 0 : (size - 1) / chunks + 1;
  if (size == 0) /* chunks pieces of size 0: split would give one */
    return ct__shape_pieces(ks, "chunk", self, dim, chunks, NULL, 0, 0, cap, out);
  return ct__shape_pieces(ks, "chunk", self, dim, (size - 1) / split_size + 1, NULL, split_size, 0, cap, out);
}
static int64_t ct__k_unbind(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t cap, ct_tensor **out) {
    if (self->ndim == 0) return ct_fail(CT_ERR_RANK, "unbind", "Dimension specified as 0 but tensor has no dimensions"), (int64_t)-1;
  if ((dim = ct__wrap_dim("unbind", dim, self->ndim)) < 0) return -1;
  return ct__shape_pieces(ks, "unbind", self, dim, self->sizes[dim], NULL, 0, 1, cap, out);
}

/* ================= pad and take_along_dim (CompositeImplicitAutograd) ================= */
/* Circular padding of the last pad.n / 2 dims, as PyTorch 1.13's _pad_circular: a negative pad
 * crops its side first, then the cropped length m is padded circularly, element k of the result
 * being cropped element (k - left) mod m. PyTorch's checks, outermost padded dim first: no pad
 * wider than its dim, no negative result size. (A positive pad wider than the cropped length
 * wraps around here; PyTorch 1.13 refuses it or reads unwritten memory, depending on layout.) */
static ct_tensor *ct__shape_pad_circular(ct_tensor *self, ct_int_list pad) {
  int64_t k, np = pad.n / 2;
  ct_tensor *x = self;
  if (self->ndim < np + 1)
    return ct_fail(CT_ERR_RANK, "pad", "circular padding of %lld dims needs at least %lld dims of input, got %d", (long long)np,
                   (long long)np + 1, self->ndim),
           (ct_tensor *)NULL;
  for (k = np - 1; k >= 0; k--) {
    int64_t n = self->sizes[self->ndim - 1 - k], l = pad.data[2 * k], r = pad.data[2 * k + 1], len;
    if (l > n || r > n) return ct_fail(CT_ERR_INVALID, "pad", "Padding value causes wrapping around more than once."), (ct_tensor *)NULL;
    if (!(l > 0 && n > INT64_MAX - l)) { /* (otherwise n + l + r >= 0) is n + l + r < 0? without overflow */
      int64_t t = n + l;
      if (t < 0 ? (r < 0 || t + r < 0) : (r < 0 && t + r < 0))
        return ct_fail(CT_ERR_INVALID, "pad", "Negative padding value is resulting in an empty dimension"), (ct_tensor *)NULL;
    }
    if (!ct__pad_size("pad", n, l, r, &len)) return NULL;
  }
  for (k = 0; k < np && x; k++) {
    int64_t d = self->ndim - 1 - k, l = pad.data[2 * k], r = pad.data[2 * k + 1], n = self->sizes[d];
    int64_t lo = l < 0 ? -l : 0, hi = r < 0 ? -r : 0, L = l > 0 ? l : 0, R = r > 0 ? r : 0;
    int64_t m = n - lo < hi ? 0 : n - lo - hi, len = n + l + r; /* cropped length, result length */
    if (m == 0 && len > 0)
      return ct_fail(CT_ERR_INVALID, "pad", "Padding value causes wrapping around more than once."), (ct_tensor *)NULL;
    if (lo || hi) x = ct_narrow(x, d, lo < n ? lo : n, m);
    if (!x || (!L && !R)) continue;
    if (L <= m && R <= m) {
      ct_tensor *parts[3];
      parts[0] = ct_narrow(x, d, m - L, L);
      parts[1] = x;
      parts[2] = ct_narrow(x, d, 0, R);
      x = parts[0] && parts[2] ? ct_cat(3, parts, d) : NULL;
    } else { /* wrapping around the cropped length more than once */
      ct_tensor *idx = ct__track(ct__empty("pad", 1, &len, CT_I64, CT_CPU)); /* written here: on the host */
      int64_t j;
      if (!idx) return NULL;
      for (j = 0; j < len; j++) ((int64_t *)idx->storage->data)[idx->offset + j] = ((j - L) % m + m) % m;
      x = ct_index_select(x, d, ct__track(ct__host_result("pad", ct_retain(idx), x->device))); /* (made on the host) */
    }
  }
  return x;
}
static ct_tensor *ct__k_pad(ct_keyset ks, ct_tensor *self, ct_int_list pad, const char *mode, double value) {
  ct_tensor *r = NULL;
  int64_t np = pad.n / 2;
  (void)ks;
  if (!mode || !strcmp(mode, "constant"))
    return ct_constant_pad_nd(self, (int)pad.n, pad.data, value != value ? ct_int(0) : ct_float(value));
  if (strcmp(mode, "reflect") && strcmp(mode, "replicate") && strcmp(mode, "circular"))
    return ct_fail(CT_ERR_INVALID, "pad", "Unrecognised padding mode %s", mode), (ct_tensor *)NULL;
  if (value == value)
    return ct_fail(CT_ERR_INVALID, "pad", "Padding mode \"%s\" doesn't take in value argument", mode), (ct_tensor *)NULL;
  if (pad.n % 2 || np > 3 || np < 1 || (self->ndim != np + 1 && self->ndim != np + 2))
    return ct_fail(CT_ERR_INVALID, "pad", "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported for now "
                   "(got a %dD input and a pad of length %lld)", self->ndim, (long long)pad.n),
           (ct_tensor *)NULL;
  if (!strcmp(mode, "circular")) {
    CT_SCOPE { r = ct_keep(ct__shape_pad_circular(self, pad)); }
    return r;
  }
  if (!strcmp(mode, "reflect"))
    return np == 1 ? ct_reflection_pad1d(self, 2, pad.data) : np == 2 ? ct_reflection_pad2d(self, 4, pad.data) : ct_reflection_pad3d(self, 6, pad.data);
  return np == 1 ? ct_replication_pad1d(self, 2, pad.data) : np == 2 ? ct_replication_pad2d(self, 4, pad.data) : ct_replication_pad3d(self, 6, pad.data);
}
static ct_tensor *ct__shape_take_along_dim(ct_tensor *self, ct_tensor *indices, int64_t dim) {
  static const char *op = "take_along_dim";
  int64_t s1[CT_MAX_DIMS], s2[CT_MAX_DIMS], b1[CT_MAX_DIMS], b2[CT_MAX_DIMS], minus1 = -1;
  ct_tensor *r = NULL;
  int n1, n2;
  if (indices->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "torch.take_along_dim(): dtype of indices should be Long but got %s",
                   ct__dtype_torch_name((ct_dtype)indices->dtype)),
           (ct_tensor *)NULL;
  if (dim == CT_INT_NONE) {
    CT_SCOPE { r = ct_keep(ct_gather(ct_reshape(self, 1, &minus1), 0, ct_reshape(indices, 1, &minus1))); }
    return r;
  }
  if ((dim = ct__wrap_dim(op, dim, self->ndim)) < 0) return NULL;
  if (self->ndim != indices->ndim)
    return ct_fail(CT_ERR_SHAPE, op, "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
                   "%d dimensions for input, and %d dimensions for indices", self->ndim, indices->ndim),
           (ct_tensor *)NULL;
  if (self->ndim == 0) {
    CT_SCOPE { r = ct_keep(ct_gather(self, 0, indices)); }
    return r;
  }
  memcpy(s1, self->sizes, sizeof s1);
  s1[dim] = indices->sizes[dim];
  memcpy(s2, indices->sizes, sizeof s2);
  s2[dim] = self->sizes[dim];
  if ((n1 = ct_broadcast_shapes(op, self->ndim, s1, indices->ndim, indices->sizes, b1)) < 0) return NULL;
  if ((n2 = ct_broadcast_shapes(op, indices->ndim, s2, self->ndim, self->sizes, b2)) < 0) return NULL;
  CT_SCOPE { r = ct_keep(ct_gather(ct_broadcast_to(self, n2, b2), dim, ct_broadcast_to(indices, n1, b1))); }
  return r;
}
static ct_tensor *ct__k_take_along_dim(ct_keyset ks, ct_tensor *self, ct_tensor *indices, int64_t dim) {
  (void)ks;
  return ct__shape_take_along_dim(self, indices, dim);
}
/* take_along_dim.out (structured, ops/structured.h): the meta step checks indices and dims and
 * declares the broadcast index's shape; the impl step is one gather call of the index engine over
 * broadcast views (index bounds are the loop's data check) */
static ct_status ct__shape_take_along_dim_shapes(ct_tensor *self, ct_tensor *indices, int64_t *dim, int *n1, int64_t *b1, int *n2, int64_t *b2) {
  static const char *op = "take_along_dim";
  int64_t s1[CT_MAX_DIMS], s2[CT_MAX_DIMS];
  if (indices->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "torch.take_along_dim(): dtype of indices should be Long but got %s", ct__dtype_torch_name((ct_dtype)indices->dtype));
  if (*dim == CT_INT_NONE) return CT_OK;
  if ((*dim = ct__wrap_dim(op, *dim, self->ndim)) < 0) return ct_last_error();
  if (self->ndim != indices->ndim)
    return ct_fail(CT_ERR_SHAPE, op, "torch.take_along_dim(): input and indices should have the same number of dimensions, but got "
                   "%d dimensions for input, and %d dimensions for indices", self->ndim, indices->ndim);
  if (self->ndim == 0) return CT_OK;
  memcpy(s1, self->sizes, sizeof s1);
  s1[*dim] = indices->sizes[*dim];
  memcpy(s2, indices->sizes, sizeof s2);
  s2[*dim] = self->sizes[*dim];
  if ((*n1 = ct_broadcast_shapes(op, self->ndim, s1, indices->ndim, indices->sizes, b1)) < 0) return ct_last_error();
  if ((*n2 = ct_broadcast_shapes(op, indices->ndim, s2, self->ndim, self->sizes, b2)) < 0) return ct_last_error();
  return CT_OK;
}
static ct_status ct__meta_take_along_dim(ct__structured *st, ct_tensor *self, ct_tensor *indices, int64_t dim) {
  int64_t b1[CT_MAX_DIMS], b2[CT_MAX_DIMS];
  int n1 = 0, n2 = 0;
  if (ct__shape_overlaps("take_along_dim", st->given[0], self, indices) != CT_OK) return ct_last_error();
  if (ct__shape_take_along_dim_shapes(self, indices, &dim, &n1, b1, &n2, b2) != CT_OK) return ct_last_error();
  if (dim == CT_INT_NONE) return ct__set_output(st, 0, 1, &indices->numel, (ct_dtype)self->dtype, self->device);
  if (self->ndim == 0) return ct__set_output(st, 0, 0, NULL, (ct_dtype)self->dtype, self->device);
  return ct__set_output(st, 0, n1, b1, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_take_along_dim(ct_tensor *self, ct_tensor *indices, int64_t dim, ct_tensor *out) {
  int64_t b1[CT_MAX_DIMS], b2[CT_MAX_DIMS], minus1 = -1;
  int n1 = 0, n2 = 0;
  ct_status st = CT_ERR_STATE;
  if (ct__shape_take_along_dim_shapes(self, indices, &dim, &n1, b1, &n2, b2) != CT_OK) return ct_last_error();
  CT_SCOPE {
    ct_tensor *sv = self, *iv = indices;
    if (dim == CT_INT_NONE) sv = ct_reshape(self, 1, &minus1), iv = ct_reshape(indices, 1, &minus1), dim = 0;
    else if (self->ndim) sv = ct_broadcast_to(self, n2, b2), iv = ct_broadcast_to(indices, n1, b1);
    st = sv && iv ? ct__shape_sg_loop("gather", CT__SG_GATHER, sv, dim, iv, out, NULL) : ct_last_error();
  }
  return st;
}

/* ================= masks and flat indices: nonzero, masked_select / masked_scatter, take / put =================
 * Host loops over the elements in row-major order of the logical shape (PyTorch's order, whatever the
 * strides): masked_scatter consumes source, and take / put number self's elements, in that order.
 * nonzero and masked_select have a data-dependent result shape (spec tag dynamic_output_shape): on meta
 * tensors they refuse, as PyTorch's meta kernels do. Masks are bool or uint8 (PyTorch's deprecated form). */
/* t's element offset (in elements) at row-major position k of its logical shape */
static int64_t ct__shape_flat_offset(const ct_tensor *t, int64_t k) {
  int64_t off = 0;
  int d;
  for (d = t->ndim - 1; d >= 0; d--) {
    off += (k % t->sizes[d]) * t->strides[d];
    k /= t->sizes[d];
  }
  return off;
}
/* t seen in the broadcast shape (ndim, sizes), right-aligned, stride 0 along broadcast dims (a stack view) */
static void ct__shape_expand_view(ct_tensor *v, const ct_tensor *t, int ndim, const int64_t *sizes) {
  int64_t strides[CT_MAX_DIMS];
  int k, lead = ndim - t->ndim;
  for (k = 0; k < ndim; k++) strides[k] = k < lead || t->sizes[k - lead] != sizes[k] ? 0 : t->strides[k - lead];
  ct__shape_view(v, t, ndim, sizes, strides, t->offset);
}
static ct_status ct__shape_check_mask(const char *op, const ct_tensor *mask) {
  if (mask->dtype != CT_BOOL && mask->dtype != CT_U8)
    return ct_fail(CT_ERR_DTYPE, op, "%s: expected BoolTensor or ByteTensor for mask (got %s)", op, ct__dtype_torch_name((ct_dtype)mask->dtype));
  return CT_OK;
}
static ct_tensor *ct__shape_dynamic_meta(const char *op) {
  return ct_fail(CT_ERR_UNSUPPORTED, op, "%s's result shape depends on the data: not on meta tensors", op), (ct_tensor *)NULL;
}

/* ---- nonzero: the [n, ndim] int64 coordinates of the nonzero elements (NaN counts, -0.0 does not) ---- */
static ct_tensor *ct__k_nonzero(ct_keyset ks, ct_tensor *self) {
  static const char *op = "nonzero";
  int64_t sizes[2], idx[CT_MAX_DIMS] = {0}, n = 0, k, *o;
  ct_dtype dt = (ct_dtype)self->dtype;
  size_t es = ct_dtype_size(dt);
  const char *p = ct__shape_ptr(self);
  ct_tensor *r;
  int d;
  (void)ks;
  if (ct__is_meta(self)) return ct__shape_dynamic_meta(op);
  for (k = 0; k < self->numel; k++) n += ct__load_double(p + ct__shape_flat_offset(self, k) * (int64_t)es, dt) != 0;
  sizes[0] = n, sizes[1] = self->ndim;
  r = ct__empty(op, 2, sizes, CT_I64, self->device);
  if (!r || r->numel == 0) return r;
  o = (int64_t *)(void *)ct__shape_ptr(r);
  for (k = 0; k < self->numel; k++, ct__shape_next(idx, self->ndim, self->sizes)) {
    int64_t off = 0;
    for (d = 0; d < self->ndim; d++) off += idx[d] * self->strides[d];
    if (ct__load_double(p + off * (int64_t)es, dt) == 0) continue;
    for (d = 0; d < self->ndim; d++) *o++ = idx[d];
  }
  return r;
}
static ct_status ct__k_nonzero_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  if (ct__shape_overlaps("nonzero", out, self, NULL) != CT_OK) return ct_last_error();
  return ct__shape_out("nonzero", out, ct__k_nonzero(ks, self));
}

/* ---- masked_select: self's elements where mask (both broadcast) is true, as a vector ---- */
static ct_tensor *ct__k_masked_select(ct_keyset ks, ct_tensor *self, ct_tensor *mask) {
  static const char *op = "masked_select";
  int64_t b[CT_MAX_DIMS], numel, n = 0, k, j = 0;
  size_t es = ct_dtype_size((ct_dtype)self->dtype);
  ct_tensor sv, mv, *r;
  const char *sp, *mp;
  char *rp;
  int nd;
  (void)ks;
  if (ct__shape_check_mask(op, mask) != CT_OK) return NULL;
  if ((nd = ct_broadcast_shapes(op, self->ndim, self->sizes, mask->ndim, mask->sizes, b)) < 0) return NULL;
  if (ct__is_meta(self) || ct__is_meta(mask)) return ct__shape_dynamic_meta(op);
  ct__shape_expand_view(&sv, self, nd, b);
  ct__shape_expand_view(&mv, mask, nd, b);
  numel = sv.numel, sp = ct__shape_ptr(&sv), mp = ct__shape_ptr(&mv);
  for (k = 0; k < numel; k++) n += mp[ct__shape_flat_offset(&mv, k)] != 0;
  r = ct__empty(op, 1, &n, (ct_dtype)self->dtype, self->device);
  if (!r || n == 0) return r;
  rp = ct__shape_ptr(r);
  for (k = 0; k < numel; k++)
    if (mp[ct__shape_flat_offset(&mv, k)]) ct__shape_copy1(rp + (j++) * (int64_t)es, sp + ct__shape_flat_offset(&sv, k) * (int64_t)es, es);
  return r;
}
static ct_status ct__k_masked_select_out(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *out) {
  if (ct__shape_overlaps("masked_select", out, self, mask) != CT_OK) return ct_last_error();
  return ct__shape_out("masked_select", out, ct__k_masked_select(ks, self, mask));
}

/* ---- masked_scatter: self (broadcast with mask) with its masked elements replaced by source's, in order ----
 * Structured (ops/structured.h), the family on the functional op: masked_scatter.out is aten's generated
 * out= (any cast of the result). source having too few elements is a data check of the impl step. */
static ct_status ct__meta_masked_scatter(ct__structured *st, ct_tensor *self, ct_tensor *mask, ct_tensor *source) {
  const char *op = st->op; /* (masked_scatter_ in place) */
  int64_t b[CT_MAX_DIMS];
  char b1[160], b2[160];
  int nd;
  if (ct__shape_check_mask(op, mask) != CT_OK) return ct_last_error();
  if (source->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "masked_scatter: expected self and source to have same dtypes but got %s and %s",
                   ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)source->dtype));
  if ((nd = ct_broadcast_shapes(op, self->ndim, self->sizes, mask->ndim, mask->sizes, b)) < 0) return ct_last_error();
  if (st->variant == CT__ST_INPLACE && (nd != self->ndim || memcmp(b, self->sizes, sizeof(int64_t) * (size_t)nd)))
    return ct_fail(CT_ERR_SHAPE, op, "mask of shape %s cannot be expanded to self's shape %s (in place, self is not broadcast)",
                   ct_shape_format(mask->ndim, mask->sizes, b1, sizeof b1), ct_shape_format(self->ndim, self->sizes, b2, sizeof b2));
  return ct__set_output(st, 0, nd, b, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_masked_scatter(ct_tensor *self, ct_tensor *mask, ct_tensor *source, ct_tensor *out) {
  size_t es = ct_dtype_size((ct_dtype)self->dtype);
  int64_t k, j = 0;
  ct_tensor sv, mv;
  const char *mp, *src;
  char *rp;
  ct_status st;
  if (out->numel == 0) return CT_OK;
  ct__shape_expand_view(&sv, self, out->ndim, out->sizes);
  ct__shape_expand_view(&mv, mask, out->ndim, out->sizes);
  if ((st = ct__copy_impl(out, &sv)) != CT_OK) return st;
  rp = ct__shape_ptr(out), mp = ct__shape_ptr(&mv), src = ct__shape_ptr(source);
  for (k = 0; k < out->numel; k++) { /* out is contiguous */
    if (!mp[ct__shape_flat_offset(&mv, k)]) continue;
    if (j == source->numel)
      return ct_fail(CT_ERR_SHAPE, "masked_scatter", "Number of elements of source < number of ones in mask (source has %lld)",
                     (long long)source->numel);
    ct__shape_copy1(rp + k * (int64_t)es, src + ct__shape_flat_offset(source, j++) * (int64_t)es, es);
  }
  return CT_OK;
}
static ct_status ct__k_masked_scatter_out(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *source, ct_tensor *out) {
  (void)ks;
  return ct__shape_out_ex("masked_scatter", out, ct_masked_scatter(self, mask, source), CT__OUT_ANY_CAST); /* generated */
}
/* mask as bool (a uint8 mask converted), for masked_fill in the derivatives */
static ct_tensor *ct__shape_bool_mask(ct_tensor *mask) { return mask && mask->dtype != CT_BOOL ? ct_to_dtype(mask, CT_BOOL) : mask; }
/* masked_scatter's derivative for source: grad's masked elements in order, zero-padded to source's
 * element count (the unused tail of source gets 0), in source's shape */
static ct_tensor *ct__shape_masked_scatter_source_backward(ct_tensor *grad, ct_tensor *mask, const ct__shape *source_sizes) {
  ct_tensor *r = NULL;
  if (!grad) return NULL;
  CT_SCOPE {
    ct_tensor *sel = ct_masked_select(grad, mask);
    int64_t n = ct__sizes_product_sat(source_sizes->ndim, source_sizes->sizes), pad[2];
    if (sel && sel->numel < n) {
      pad[0] = 0, pad[1] = n - sel->numel;
      sel = ct_constant_pad_nd(sel, 2, pad, ct_int(0));
    }
    r = ct_keep(ct_reshape(sel, source_sizes->ndim, source_sizes->sizes));
  }
  return r;
}

/* ---- take / put: self's elements numbered row-major (negative indices wrap); index int64 ---- */
static ct_status ct__shape_check_long_index(const char *op, const ct_tensor *index) {
  if (index->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "%s(): Expected a long tensor for index, but got %s", op, ct__dtype_torch_name((ct_dtype)index->dtype));
  return CT_OK;
}
/* index value k of index, wrapped into [0, n); -1 (after failing) when out of range */
static int64_t ct__shape_flat_index(const char *op, const ct_tensor *index, int64_t k, int64_t n) {
  int64_t v = ((const int64_t *)(const void *)ct__shape_ptr(index))[ct__shape_flat_offset(index, k)];
  if (v < -n || v >= n) {
    ct_fail(CT_ERR_INDEX, op, "out of range: tried to access index %lld on a tensor of %lld elements.", (long long)v, (long long)n);
    return -1;
  }
  return v < 0 ? v + n : v;
}
/* take (structured, ops/structured.h): the meta step checks the index's dtype and an empty self; the
 * impl step reads the indices (their bounds are checked there) */
static ct_status ct__meta_take(ct__structured *st, ct_tensor *self, ct_tensor *index) {
  static const char *op = "take";
  if (st->variant == CT__ST_OUT && ct__shape_overlaps(op, st->given[0], self, index) != CT_OK) return ct_last_error();
  if (ct__shape_check_long_index(op, index) != CT_OK) return ct_last_error();
  if (self->numel == 0 && index->numel != 0) return ct_fail(CT_ERR_INDEX, op, "take(): tried to take from an empty tensor");
  return ct__set_output(st, 0, index->ndim, index->sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_take(ct_tensor *self, ct_tensor *index, ct_tensor *out) {
  size_t es = ct_dtype_size((ct_dtype)self->dtype);
  int64_t k;
  for (k = 0; k < out->numel; k++) { /* out is contiguous */
    int64_t v = ct__shape_flat_index("take", index, k, self->numel);
    if (v < 0) return ct_last_error();
    ct__shape_copy1(ct__shape_ptr(out) + k * (int64_t)es, ct__shape_ptr(self) + ct__shape_flat_offset(self, v) * (int64_t)es, es);
  }
  return CT_OK;
}
/* put (structured, the family on the functional op; put.out is aten's generated out=, any cast of the
 * result): self with self.flatten()[index[j]] = source.flatten()[j] (+= with accumulate); duplicates
 * without accumulate: the last write wins (as PyTorch's CPU kernel) */
static ct_status ct__meta_put(ct__structured *st, ct_tensor *self, ct_tensor *index, ct_tensor *source, bool accumulate) {
  static const char *op = "put_";
  ct_dtype dt = (ct_dtype)self->dtype;
  (void)accumulate;
  if (st->variant == CT__ST_INPLACE && ct__shape_overlaps(op, self, index, source) != CT_OK) return ct_last_error();
  if (ct__shape_check_long_index(op, index) != CT_OK) return ct_last_error();
  if (source->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "put_(): self and source expected to have the same dtype, but got self.dtype = %s and source.dtype = %s",
                   ct__dtype_torch_name(dt), ct__dtype_torch_name((ct_dtype)source->dtype));
  if (source->numel != index->numel)
    return ct_fail(CT_ERR_SHAPE, op, "put_(): Expected source and index to have the same number of elements, but got source.numel() = %lld, "
                   "index.numel() = %lld", (long long)source->numel, (long long)index->numel);
  if (self->numel == 0 && index->numel != 0) return ct_fail(CT_ERR_INDEX, op, "put_(): Tried to put elements into an empty tensor");
  return ct__meta_same_shape(st, self);
}
static ct_status ct__impl_put(ct_tensor *self, ct_tensor *index, ct_tensor *source, bool accumulate, ct_tensor *out) {
  ct_dtype dt = (ct_dtype)self->dtype;
  size_t es = ct_dtype_size(dt);
  int64_t k;
  ct_status st = ct__copy_impl(out, self);
  for (k = 0; st == CT_OK && k < index->numel; k++) {
    int64_t v = ct__shape_flat_index("put_", index, k, self->numel);
    char *d;
    const char *s;
    if (v < 0) return ct_last_error();
    d = ct__shape_ptr(out) + v * (int64_t)es; /* out is contiguous */
    s = ct__shape_ptr(source) + ct__shape_flat_offset(source, k) * (int64_t)es;
    if (accumulate) ct__shape_acc1(d, s, dt);
    else ct__shape_copy1(d, s, es);
  }
  return st;
}
static ct_status ct__k_put_out(ct_keyset ks, ct_tensor *self, ct_tensor *index, ct_tensor *source, bool accumulate, ct_tensor *out) {
  (void)ks;
  return ct__shape_out_ex("put", out, ct_put(self, index, source, accumulate), CT__OUT_ANY_CAST); /* aten's generated out= */
}

/* ================= repeat_interleave ================= */
/* repeat_interleave.Tensor: i repeated repeats[i] times, in repeats' dtype (the index of the composites below) */
static ct_tensor *ct__k_repeat_interleave(ct_keyset ks, ct_tensor *repeats, int64_t output_size) {
  static const char *op = "repeat_interleave";
  int64_t total = 0, k, j, p = 0;
  ct_dtype dt = (ct_dtype)repeats->dtype;
  size_t es = ct_dtype_size(dt);
  ct_tensor *r;
  char *rp;
  (void)ks;
  if (dt != CT_I64 && dt != CT_I32)
    return ct_fail(CT_ERR_DTYPE, op, "repeats has to be Long or Int tensor (got %s)", ct__dtype_torch_name(dt)), (ct_tensor *)NULL;
  if (repeats->ndim != 1) return ct_fail(CT_ERR_RANK, op, "repeat_interleave only accept 1D vector as repeat"), (ct_tensor *)NULL;
  if (output_size != CT_INT_NONE && output_size < 0)
    return ct_fail(CT_ERR_SIZE, op, "output_size must be non-negative (got %lld)", (long long)output_size), (ct_tensor *)NULL;
  if (ct__is_meta(repeats)) { /* the sum is data: known only when output_size gives it */
    if (output_size == CT_INT_NONE) return ct__shape_dynamic_meta(op);
    return ct__empty(op, 1, &output_size, dt, repeats->device);
  }
  for (k = 0; k < repeats->numel; k++) {
    int64_t v = ct__shape_load_index(ct__shape_ptr(repeats) + ct__shape_flat_offset(repeats, k) * (int64_t)es, dt);
    if (v < 0) return ct_fail(CT_ERR_INVALID, op, "repeats can not be negative"), (ct_tensor *)NULL;
    if (ct__add_ovf(total, v, &total)) return ct_fail(CT_ERR_SIZE, op, "the repeats sum past int64"), (ct_tensor *)NULL;
  }
  if (output_size != CT_INT_NONE && output_size != total)
    return ct_fail(CT_ERR_SHAPE, op, "allocated size does not match required size (output_size %lld, repeats sum to %lld)",
                   (long long)output_size, (long long)total),
           (ct_tensor *)NULL;
  if (!(r = ct__empty(op, 1, &total, dt, repeats->device)) || total == 0) return r;
  rp = ct__shape_ptr(r);
  for (k = 0; k < repeats->numel; k++) {
    int64_t v = ct__shape_load_index(ct__shape_ptr(repeats) + ct__shape_flat_offset(repeats, k) * (int64_t)es, dt);
    for (j = 0; j < v; j++, p++) {
      if (dt == CT_I64) ((int64_t *)(void *)rp)[p] = k;
      else ((int32_t *)(void *)rp)[p] = (int32_t)k;
    }
  }
  return r;
}
static ct_status ct__k_repeat_interleave_out(ct_keyset ks, ct_tensor *repeats, int64_t output_size, ct_tensor *out) {
  if (ct__shape_overlaps("repeat_interleave", out, repeats, NULL) != CT_OK) return ct_last_error();
  return ct__shape_out_ex("repeat_interleave", out, ct__k_repeat_interleave(ks, repeats, output_size), CT__OUT_ANY_CAST); /* aten's generated out= */
}
/* The composites' input and dim: self flattened when dim is None; -1 after failing */
static int64_t ct__shape_interleave_dim(const char *op, ct_tensor *self, int64_t dim, ct_tensor **input) {
  static const int64_t minus_one = -1;
  if (dim == CT_INT_NONE) {
    *input = ct_reshape(self, 1, &minus_one);
    return *input ? 0 : -1;
  }
  *input = self;
  if (self->ndim == 0) return ct_fail(CT_ERR_INDEX, op, "Dimension specified as %lld but tensor has no dimensions", (long long)dim), -1;
  return ct__wrap_dim(op, dim, self->ndim);
}
static ct_tensor *ct__k_repeat_interleave_self(ct_keyset ks, ct_tensor *self, ct_tensor *repeats, int64_t dim, int64_t output_size) {
  static const char *op = "repeat_interleave";
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *input, *reps = repeats;
    int64_t d = ct__shape_interleave_dim(op, self, dim, &input), one = 1, size;
    if (d >= 0) {
      size = input->sizes[d];
      if (repeats->ndim == 0 || (repeats->ndim == 1 && repeats->sizes[0] == 1)) /* one count for every slice */
        reps = ct_expand(ct_reshape(repeats, 1, &one), 1, &size);
      else if (repeats->ndim > 1)
        reps = NULL, ct_fail(CT_ERR_RANK, op, "repeats must be 0-dim or 1-dim tensor");
      else if (repeats->sizes[0] != size)
        reps = NULL, ct_fail(CT_ERR_SHAPE, op, "repeats must have the same size as input along dim (%lld vs %lld)", (long long)repeats->sizes[0],
                             (long long)size);
      if (reps) r = ct_keep(ct_index_select(input, d, ct_repeat_interleave_ex(reps, output_size)));
    }
  }
  return r;
}
/* every slice repeats times: input unsqueezed after dim, expanded there and copied (a fresh tensor, as
 * aten's index_select gives; expand's gradient sums the copies) */
static ct_tensor *ct__k_repeat_interleave_self_int(ct_keyset ks, ct_tensor *self, int64_t repeats, int64_t dim, int64_t output_size) {
  static const char *op = "repeat_interleave";
  ct_tensor *r = NULL;
  (void)ks;
  if (repeats < 0) return ct_fail(CT_ERR_INVALID, op, "repeats can not be negative"), (ct_tensor *)NULL;
  CT_SCOPE {
    ct_tensor *input;
    int64_t d = ct__shape_interleave_dim(op, self, dim, &input), esz[CT_MAX_DIMS], osz[CT_MAX_DIMS], n;
    int k;
    if (d >= 0 && input->ndim >= CT_MAX_DIMS) {
      ct_fail(CT_ERR_RANK, op, "self has %d dims: unsqueezing it passes %d", input->ndim, CT_MAX_DIMS);
    } else if (d >= 0 && ct__mul_ovf(input->sizes[d], repeats, &n)) {
      ct_fail(CT_ERR_SIZE, op, "size %lld times %lld repeats passes int64", (long long)input->sizes[d], (long long)repeats);
    } else if (d >= 0 && output_size != CT_INT_NONE && output_size != n) {
      ct_fail(CT_ERR_SHAPE, op, "allocated size does not match required size (output_size %lld, %lld needed)", (long long)output_size, (long long)n);
    } else if (d >= 0) {
      for (k = 0; k <= input->ndim; k++) esz[k] = k <= d ? input->sizes[k] : k == d + 1 ? repeats : input->sizes[k - 1];
      for (k = 0; k < input->ndim; k++) osz[k] = k == d ? n : input->sizes[k];
      r = ct_keep(ct_reshape(ct_clone(ct_expand(ct_unsqueeze(input, d + 1), input->ndim + 1, esz)), input->ndim, osz));
    }
  }
  return r;
}

/* ================= searching and counting: searchsorted, bucketize, bincount, histc ================= */
/* A float32 value rounded to `as` (float32, float16, bfloat16) */
static float ct__shape_key_f32(float v, ct_dtype as) {
  return as == CT_F16 ? ct_f16_to_f32(ct_f32_to_f16(v)) : as == CT_BF16 ? ct_bf16_to_f32(ct_f32_to_bf16(v)) : v;
}
/* An element as a key of the comparison dtype `as` (floating): rounded to it, as aten's promotion does */
static double ct__shape_key(const char *p, ct_dtype dt, ct_dtype as) {
  double v = ct__load_double(p, dt);
  if (dt == CT_I64 && as != CT_F64) return (double)ct__shape_key_f32((float)*(const int64_t *)(const void *)p, as); /* one rounding */
  return as == CT_F64 ? v : (double)ct__shape_key_f32((float)v, as);
}
/* The first i in [0, n) whose element is >= v (> v when right): aten's loop, whose comparisons put a
 * NaN (sorted last) after every value and a NaN value after every element */
#define CT__SEARCH(T, KEY)                                                                                           \
  do {                                                                                                               \
    while (lo < hi) {                                                                                                \
      int64_t mid = lo + ((hi - lo) >> 1), at = sorter ? sp[mid * sstep] : mid;                                      \
      T x = KEY(bp + at * bstep * (int64_t)bes, bdt);                                                                \
      if (right ? !(x > v) : !(x >= v)) lo = mid + 1;                                                                \
      else hi = mid;                                                                                                 \
    }                                                                                                                \
  } while (0)
#define CT__KEY_I64(p, dt) ct__shape_load_i64(p, dt)
#define CT__KEY_FLOAT(p, dt) ct__shape_key(p, dt, as)
/* searchsorted / bucketize (structured, ops/structured.h; the Scalar forms' families on the functional
 * op, their out= forms aten's generated out=, any cast of the result). The meta step checks the
 * arguments of a search of values (vndim, vsizes, vdt; a 0-dim value from a Scalar when scalar) in
 * seq's last dim; the impl step searches (sorter's values are checked there). */
static ct_status ct__shape_searchsorted_check(const char *op, ct_tensor *seq, int vndim, const int64_t *vsizes, ct_dtype vdt, bool right,
                                             const char *side, ct_tensor *sorter, int scalar) {
  char b1[160], b2[160];
  if (side && strcmp(side, "left") && strcmp(side, "right"))
    return ct_fail(CT_ERR_INVALID, op, "torch.searchsorted(): side can only be 'left' or 'right' but got %s", side);
  if (side && !strcmp(side, "left") && right)
    return ct_fail(CT_ERR_INVALID, op, "torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True");
  if (seq->ndim == 0)
    return ct_fail(CT_ERR_RANK, op, "torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension");
  if (scalar && seq->ndim != 1)
    return ct_fail(CT_ERR_RANK, op, "torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got "
                   "boundaries tensor dim(%d)", seq->ndim);
  if (seq->ndim > 1 && (vndim != seq->ndim || memcmp(vsizes, seq->sizes, sizeof(int64_t) * (size_t)(seq->ndim - 1))))
    return ct_fail(CT_ERR_SHAPE, op, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries "
                   "tensor and input value tensor must match, but we got boundaries tensor %s and input value tensor %s",
                   ct_shape_format(seq->ndim, seq->sizes, b1, sizeof b1), ct_shape_format(vndim, vsizes, b2, sizeof b2));
  if (sorter && sorter->dtype != CT_I64)
    return ct_fail(CT_ERR_DTYPE, op, "torch.searchsorted(): sorter must be a tensor of long dtype but got dtype %s",
                   ct__dtype_torch_name((ct_dtype)sorter->dtype));
  if (sorter && !ct_same_shape(sorter, seq))
    return ct_fail(CT_ERR_SHAPE, op, "torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor %s and got "
                   "sorter tensor %s", ct_shape_format(seq->ndim, seq->sizes, b1, sizeof b1),
                   ct_shape_format(sorter->ndim, sorter->sizes, b2, sizeof b2));
  if (ct_promote_types((ct_dtype)seq->dtype, vdt) == CT_BOOL) return ct_fail(CT_ERR_DTYPE, op, "torch.searchsorted(): not implemented for 'Bool'");
  return CT_OK;
}
/* the dtype of the 0-dim tensor a Scalar becomes (ct__shape_scalar_value) */
static ct_dtype ct__shape_scalar_dtype(ct_scalar v) { return v.kind == CT_SCALAR_FLOAT ? CT_F64 : v.kind == CT_SCALAR_BOOL ? CT_BOOL : CT_I64; }
/* a Scalar as a 0-dim host tensor of its own kind's dtype (int64, float64, bool), as aten's scalar_to_tensor */
static ct_tensor *ct__shape_scalar_value(const char *op, ct_scalar v) {
  ct_dtype dt = ct__shape_scalar_dtype(v);
  ct_tensor *t = ct__empty(op, 0, NULL, dt, CT_CPU);
  if (!t) return NULL;
  if (dt == CT_F64) *(double *)t->storage->data = v.v.f;
  else if (dt == CT_BOOL) *(bool *)t->storage->data = v.v.b;
  else *(int64_t *)t->storage->data = v.v.i;
  return t;
}
/* the search of vals into r (contiguous, vals' shape, int32 or int64) */
static ct_status ct__shape_searchsorted_fill(const char *op, ct_tensor *seq, ct_tensor *vals, bool right, const char *side,
                                             ct_tensor *sorter, ct_tensor *r) {
  int64_t k, n, inner, bstep, sstep = 0;
  ct_dtype bdt = (ct_dtype)seq->dtype, vdt = (ct_dtype)vals->dtype, as = ct_promote_types(bdt, vdt);
  size_t bes = ct_dtype_size(bdt), ves = ct_dtype_size(vdt);
  int d, out_int32 = r->dtype == CT_I32;
  right = right || (side && !strcmp(side, "right"));
  if (r->numel == 0) return CT_OK;
  d = seq->ndim - 1;
  n = seq->sizes[d], bstep = seq->strides[d];
  if (sorter) { /* every sorter value in range (aten 1.13 reads past the sequence otherwise) */
    sstep = sorter->strides[d];
    for (k = 0; k < sorter->numel; k++) {
      int64_t v = ((const int64_t *)(const void *)ct__shape_ptr(sorter))[ct__shape_flat_offset(sorter, k)];
      if (v < 0 || v >= n)
        return ct_fail(CT_ERR_INDEX, op, "torch.searchsorted(): sorter index %lld is out of range for a boundary dim of size %lld",
                       (long long)v, (long long)n);
    }
  }
  inner = vals->ndim ? vals->sizes[vals->ndim - 1] : 1;
  for (k = 0; k < r->numel; k++) { /* r is contiguous */
    int64_t row = seq->ndim > 1 ? k / inner : 0, lo = 0, hi = n;
    const char *bp = ct__shape_ptr(seq) + (n ? ct__shape_flat_offset(seq, row * n) : 0) * (int64_t)bes;
    const int64_t *sp = sorter && n ? (const int64_t *)(const void *)ct__shape_ptr(sorter) + ct__shape_flat_offset(sorter, row * n) : NULL;
    const char *vp = ct__shape_ptr(vals) + ct__shape_flat_offset(vals, k) * (int64_t)ves;
    if (ct_dtype_is_floating(as)) {
      double v = ct__shape_key(vp, vdt, as);
      CT__SEARCH(double, CT__KEY_FLOAT);
    } else {
      int64_t v = ct__shape_load_i64(vp, vdt);
      CT__SEARCH(int64_t, CT__KEY_I64);
    }
    if (out_int32) ((int32_t *)(void *)ct__shape_ptr(r))[k] = (int32_t)lo;
    else ((int64_t *)(void *)ct__shape_ptr(r))[k] = lo;
  }
  return CT_OK;
}
#undef CT__SEARCH
#undef CT__KEY_I64
#undef CT__KEY_FLOAT
/* the Scalar forms: a 0-dim value */
static ct_status ct__shape_searchsorted_scalar_fill(const char *op, ct_tensor *seq, ct_scalar self, bool right, const char *side,
                                                    ct_tensor *sorter, ct_tensor *out) {
  ct_tensor *v = ct__shape_scalar_value(op, self);
  ct_status st = v ? ct__shape_searchsorted_fill(op, seq, v, right, side, sorter, out) : ct_last_error();
  ct_release(v);
  return st;
}
static ct_status ct__meta_searchsorted(ct__structured *st, ct_tensor *sorted_sequence, ct_tensor *self, bool out_int32, bool right,
                                       const char *side, ct_tensor *sorter) {
  if (st->variant == CT__ST_OUT && ct__shape_overlaps("searchsorted", st->given[0], sorted_sequence, self) != CT_OK) return ct_last_error();
  if (ct__shape_searchsorted_check("searchsorted", sorted_sequence, self->ndim, self->sizes, (ct_dtype)self->dtype, right, side, sorter, 0) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, self->ndim, self->sizes, out_int32 ? CT_I32 : CT_I64, sorted_sequence->device);
}
static ct_status ct__impl_searchsorted(ct_tensor *sorted_sequence, ct_tensor *self, bool out_int32, bool right, const char *side,
                                       ct_tensor *sorter, ct_tensor *out) {
  (void)out_int32;
  return ct__shape_searchsorted_fill("searchsorted", sorted_sequence, self, right, side, sorter, out);
}
static ct_status ct__meta_searchsorted_scalar(ct__structured *st, ct_tensor *sorted_sequence, ct_scalar self, bool out_int32, bool right,
                                              const char *side, ct_tensor *sorter) {
  if (ct__shape_searchsorted_check("searchsorted", sorted_sequence, 0, NULL, ct__shape_scalar_dtype(self), right, side, sorter, 1) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, 0, NULL, out_int32 ? CT_I32 : CT_I64, sorted_sequence->device);
}
static ct_status ct__impl_searchsorted_scalar(ct_tensor *sorted_sequence, ct_scalar self, bool out_int32, bool right, const char *side,
                                              ct_tensor *sorter, ct_tensor *out) {
  (void)out_int32;
  return ct__shape_searchsorted_scalar_fill("searchsorted", sorted_sequence, self, right, side, sorter, out);
}
static ct_status ct__k_searchsorted_scalar_out(ct_keyset ks, ct_tensor *sorted_sequence, ct_scalar self, bool out_int32, bool right,
                                               const char *side, ct_tensor *sorter, ct_tensor *out) {
  (void)ks;
  return ct__shape_out_ex("searchsorted", out, ct_searchsorted_scalar_ex(sorted_sequence, self, out_int32, right, side, sorter),
                          CT__OUT_ANY_CAST); /* aten's generated out= (unlike Tensor_out, which checks the dtype) */
}
static ct_status ct__shape_boundaries_check(const ct_tensor *boundaries) {
  if (boundaries->ndim != 1)
    return ct_fail(CT_ERR_RANK, "bucketize", "boundaries tensor must be 1 dimension, but got dim(%d)", boundaries->ndim);
  return CT_OK;
}
static ct_status ct__meta_bucketize(ct__structured *st, ct_tensor *self, ct_tensor *boundaries, bool out_int32, bool right) {
  if (st->variant == CT__ST_OUT && ct__shape_overlaps("bucketize", st->given[0], self, boundaries) != CT_OK) return ct_last_error();
  if (ct__shape_boundaries_check(boundaries) != CT_OK ||
      ct__shape_searchsorted_check("bucketize", boundaries, self->ndim, self->sizes, (ct_dtype)self->dtype, right, NULL, NULL, 0) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, self->ndim, self->sizes, out_int32 ? CT_I32 : CT_I64, boundaries->device);
}
static ct_status ct__impl_bucketize(ct_tensor *self, ct_tensor *boundaries, bool out_int32, bool right, ct_tensor *out) {
  (void)out_int32;
  return ct__shape_searchsorted_fill("bucketize", boundaries, self, right, NULL, NULL, out);
}
static ct_status ct__meta_bucketize_scalar(ct__structured *st, ct_scalar self, ct_tensor *boundaries, bool out_int32, bool right) {
  if (ct__shape_boundaries_check(boundaries) != CT_OK ||
      ct__shape_searchsorted_check("bucketize", boundaries, 0, NULL, ct__shape_scalar_dtype(self), right, NULL, NULL, 1) != CT_OK)
    return ct_last_error();
  return ct__set_output(st, 0, 0, NULL, out_int32 ? CT_I32 : CT_I64, boundaries->device);
}
static ct_status ct__impl_bucketize_scalar(ct_scalar self, ct_tensor *boundaries, bool out_int32, bool right, ct_tensor *out) {
  (void)out_int32;
  return ct__shape_searchsorted_scalar_fill("bucketize", boundaries, self, right, NULL, NULL, out);
}
static ct_status ct__k_bucketize_scalar_out(ct_keyset ks, ct_scalar self, ct_tensor *boundaries, bool out_int32, bool right, ct_tensor *out) {
  (void)ks;
  return ct__shape_out_ex("bucketize", out, ct_bucketize_scalar_ex(self, boundaries, out_int32, right), CT__OUT_ANY_CAST); /* generated */
}

/* ---- bincount: counts (or summed weights) of each non-negative integer; length max(max + 1, minlength) ---- */
static ct_tensor *ct__k_bincount(ct_keyset ks, ct_tensor *self, ct_tensor *weights, int64_t minlength) {
  static const char *op = "bincount";
  ct_dtype dt = (ct_dtype)self->dtype, wdt = weights ? (ct_dtype)weights->dtype : CT_I64;
  ct_dtype rdt = !weights ? CT_I64 : wdt == CT_F32 ? CT_F32 : CT_F64; /* aten: float weights stay float, others become double */
  size_t es = ct_dtype_size(dt), wes = ct_dtype_size(wdt);
  int64_t n = minlength, k;
  ct_tensor *r;
  char *rp;
  (void)ks;
  if (dt != CT_I64 && dt != CT_I32 && dt != CT_U8)
    return ct_fail(CT_ERR_DTYPE, op, "\"bincount_cpu\" not implemented for '%s'", ct__dtype_torch_name(dt)), (ct_tensor *)NULL;
  if (minlength < 0) return ct_fail(CT_ERR_INVALID, op, "minlength should be >= 0"), (ct_tensor *)NULL;
  if (self->ndim != 1) return ct_fail(CT_ERR_RANK, op, "bincount only supports 1-d non-negative integral inputs."), (ct_tensor *)NULL;
  if (weights && (weights->ndim != 1 || weights->sizes[0] != self->sizes[0]))
    return ct_fail(CT_ERR_SHAPE, op, "weights should be 1-d and have the same length as input"), (ct_tensor *)NULL;
  if (ct__is_meta(self) || (weights && ct__is_meta(weights))) return ct__shape_dynamic_meta(op);
  for (k = 0; k < self->numel; k++) {
    int64_t v = ct__shape_load_i64(ct__shape_ptr(self) + ct__shape_flat_offset(self, k) * (int64_t)es, dt);
    if (v < 0) return ct_fail(CT_ERR_INVALID, op, "bincount only supports 1-d non-negative integral inputs."), (ct_tensor *)NULL;
    if (v >= n) n = v == INT64_MAX ? v : v + 1; /* INT64_MAX: the allocation fails */
  }
  if (!(r = ct__empty(op, 1, &n, rdt, self->device)) || n == 0) return r;
  rp = ct__shape_ptr(r);
  memset(rp, 0, ct_dtype_size(rdt) * (size_t)n);
  for (k = 0; k < self->numel; k++) {
    int64_t v = ct__shape_load_i64(ct__shape_ptr(self) + ct__shape_flat_offset(self, k) * (int64_t)es, dt);
    const char *wp = weights ? ct__shape_ptr(weights) + ct__shape_flat_offset(weights, k) * (int64_t)wes : NULL;
    /* (the counts land in r's storage through rp: cppcheck does not see them read) */
    /* cppcheck-suppress unreadVariable */
    if (!weights) ((int64_t *)(void *)rp)[v] += 1;
    /* cppcheck-suppress unreadVariable */
    else if (rdt == CT_F32) ((float *)(void *)rp)[v] += *(const float *)(const void *)wp;
    /* cppcheck-suppress unreadVariable */
    else ((double *)(void *)rp)[v] += ct__load_double(wp, wdt);
  }
  return r;
}
static ct_status ct__k_bincount_out(ct_keyset ks, ct_tensor *self, ct_tensor *weights, int64_t minlength, ct_tensor *out) {
  return ct__shape_out_ex("bincount", out, ct__k_bincount(ks, self, weights, minlength), CT__OUT_ANY_CAST); /* aten's generated out= */
}

/* ---- histc: bins equal-width bins over [min, max] (min == max: the data's range; an empty range widens by 1
 * each side); elements outside are skipped, max falls in the last bin, and NaN in the first (PyTorch 1.13's
 * CPU kernel does so). The bin of x is aten's
 * (x - lo) * bins / (hi - lo) in self's dtype, truncated. ---- */
#define CT__HISTC(T)                                                                                                 \
  do {                                                                                                               \
    T lo_ = (T)lo, hi_ = (T)hi, *h = (T *)(void *)ct__shape_ptr(r);                                                  \
    for (k = 0; k < self->numel; k++) {                                                                              \
      T x = *(const T *)(const void *)(ct__shape_ptr(self) + ct__shape_flat_offset(self, k) * (int64_t)sizeof(T));   \
      T q;                                                                                                           \
      if (x != x) { /* PyTorch 1.13 counts NaN in the first bin */                                                   \
        h[0] += 1;                                                                                                   \
        continue;                                                                                                    \
      }                                                                                                              \
      if (!(x >= lo_ && x <= hi_)) continue;                                                                         \
      q = (x - lo_) * (T)bins / (hi_ - lo_); /* (0 / 0 where min and max round to one value of T: bin 0) */          \
      h[q >= (T)bins ? bins - 1 : q > 0 ? (int64_t)q : 0] += 1; /* max: the last bin */                              \
    }                                                                                                                \
  } while (0)
/* structured (ops/structured.h): the meta step checks the dtype and bins; the range (the data's when
 * min == max) is the impl step's */
static ct_status ct__meta_histc(ct__structured *st, ct_tensor *self, int64_t bins, ct_scalar min, ct_scalar max) {
  static const char *op = "histc";
  ct_dtype dt = (ct_dtype)self->dtype;
  (void)min, (void)max;
  if (st->variant == CT__ST_OUT && ct__shape_overlaps(op, st->given[0], self, NULL) != CT_OK) return ct_last_error();
  if (dt != CT_F32 && dt != CT_F64) return ct_fail(CT_ERR_DTYPE, op, "\"histogram_cpu\" not implemented for '%s'", ct__dtype_torch_name(dt));
  if (bins <= 0) return ct_fail(CT_ERR_INVALID, op, "torch.histogram(): bins must be > 0, but got %lld for dimension 0", (long long)bins);
  return ct__set_output(st, 0, 1, &bins, dt, self->device);
}
static ct_status ct__impl_histc(ct_tensor *self, int64_t bins, ct_scalar min, ct_scalar max, ct_tensor *out) {
  static const char *op = "histc";
  ct_dtype dt = (ct_dtype)self->dtype;
  double lo = ct_scalar_to_double(min), hi = ct_scalar_to_double(max);
  ct_tensor *r = out;
  int64_t k;
  if (lo == hi && self->numel > 0) { /* the data's range (NaN when any element is NaN) */
    int nan = 0;
    for (k = 0; k < self->numel; k++) {
      double x = ct__load_double(ct__shape_ptr(self) + ct__shape_flat_offset(self, k) * (int64_t)ct_dtype_size(dt), dt);
      nan |= x != x;
      if (k == 0 || x < lo) lo = x;
      if (k == 0 || x > hi) hi = x;
    }
    if (nan) lo = hi = NAN;
  }
  if (lo == hi) lo -= 1, hi += 1;
  if (isinf(lo) || isinf(hi) || lo != lo || hi != hi) return ct_fail(CT_ERR_INVALID, op, "torch.histc: range of [%g, %g] is not finite", lo, hi);
  if (!(lo < hi)) return ct_fail(CT_ERR_INVALID, op, "torch.histc: max must be larger than min");
  memset(ct__shape_ptr(r), 0, ct_dtype_size(dt) * (size_t)bins); /* out is contiguous */
  if (dt == CT_F32) CT__HISTC(float);
  else CT__HISTC(double);
  return CT_OK;
}
#undef CT__HISTC

/* ================= unique: _unique2, unique_consecutive, unique_dim =================
 * One engine over n "rows" of m elements: self's elements (dim None: m = 1) or its slices along dim.
 * The rows are loaded once as keys (int64 for integers and bool, double for floating dtypes), put in
 * order by a stable merge sort when asked, and grouped where neighbours are equal (==: NaN never is);
 * a group's value is its first row in input order, as aten's (a hash set keeps the first insert). */
typedef struct ct__uq {
  int64_t m;         /* elements per row */
  int floating;      /* keys in fv (double), else iv (int64) */
  int nan_last;      /* _unique2: NaN after every number, NaNs in input order */
  const int64_t *iv;
  const double *fv;
} ct__uq;
/* row a < row b, lexicographically as aten's unique_dim (a pair with a NaN decides nothing) */
static int ct__uq_less(const ct__uq *u, int64_t a, int64_t b) {
  int64_t j;
  for (j = 0; j < u->m; j++) {
    if (u->floating) {
      double x = u->fv[a * u->m + j], y = u->fv[b * u->m + j];
      if (u->nan_last && (x != x || y != y)) return x == x;
      if (x < y) return 1;
      if (x > y) return 0;
    } else {
      int64_t x = u->iv[a * u->m + j], y = u->iv[b * u->m + j];
      if (x != y) return x < y;
    }
  }
  return 0;
}
static int ct__uq_equal(const ct__uq *u, int64_t a, int64_t b) {
  int64_t j;
  for (j = 0; j < u->m; j++)
    if (u->floating ? !(u->fv[a * u->m + j] == u->fv[b * u->m + j]) : u->iv[a * u->m + j] != u->iv[b * u->m + j]) return 0;
  return 1;
}
/* stable bottom-up merge sort of ord[0, n) (tmp: n scratch entries) */
static void ct__uq_sort(const ct__uq *u, int64_t *ord, int64_t *tmp, int64_t n) {
  int64_t w, lo;
  for (w = 1; w < n; w *= 2) {
    for (lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, k = lo;
      while (i < mid && j < hi) tmp[k++] = ct__uq_less(u, ord[j], ord[i]) ? ord[j++] : ord[i++];
      while (i < mid) tmp[k++] = ord[i++];
      while (j < hi) tmp[k++] = ord[j++];
    }
    memcpy(ord, tmp, sizeof(int64_t) * (size_t)n);
  }
}
/* A stack view of t with dim moved to the front (its rows are then contiguous runs of the flat order) */
static void ct__uq_front_view(ct_tensor *v, const ct_tensor *t, int dim) {
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int k, n = 1;
  sizes[0] = t->sizes[dim], strides[0] = t->strides[dim];
  for (k = 0; k < t->ndim; k++)
    if (k != dim) sizes[n] = t->sizes[k], strides[n++] = t->strides[k];
  ct__shape_view(v, t, t->ndim, sizes, strides, t->offset);
}
static void ct__uq_give(ct_tensor **slot, ct_tensor *t) {
  if (slot) *slot = t;
  else ct_release(t);
}
/* dim: CT_INT_NONE for self flattened; sort: 0 keeps the input order (unique_consecutive) */
static ct_tensor *ct__shape_unique(const char *op, ct_tensor *self, int64_t dim, int sort, int nan_last, bool return_inverse, bool return_counts,
                                   ct_tensor **inverse, ct_tensor **counts) {
  ct_dtype dt = (ct_dtype)self->dtype;
  size_t es = ct_dtype_size(dt);
  int64_t n, k, g, ng = 0, zero = 0, *buf, *ord, *tmp, *grp, *rep, osz[CT_MAX_DIMS];
  ct_tensor v, ov, *r = NULL, *inv = NULL, *cnt = NULL;
  ct__uq u;
  void *keys;
  int d = 0;
  if (dt == CT_F16)
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for 'Half'", dim == CT_INT_NONE || sort == 0 ? "unique" : "unique_dim"), (ct_tensor *)NULL;
  if (dim != CT_INT_NONE) {
    if (self->ndim == 0) return ct_fail(CT_ERR_INDEX, op, "Dimension specified as %lld but tensor has no dimensions", (long long)dim), (ct_tensor *)NULL;
    if ((d = (int)ct__wrap_dim(op, dim, self->ndim)) < 0) return NULL;
    for (k = 0; k < self->ndim; k++)
      if (k != d && self->sizes[k] == 0)
        return ct_fail(CT_ERR_INVALID, op, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied"), (ct_tensor *)NULL;
    ct__uq_front_view(&v, self, d);
    n = self->sizes[d];
    u.m = n ? self->numel / n : 0;
  } else {
    v = *self;
    v.autograd = NULL;
    n = self->numel;
    u.m = 1;
  }
  if (ct__is_meta(self)) return ct__shape_dynamic_meta(op);
  u.floating = ct_dtype_is_floating(dt), u.nan_last = nan_last;
  /* keys (n * m = numel), then ord, tmp, the group of each sorted position, each group's first row */
  buf = (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)(self->numel + 4 * n + 1));
  if (!buf) return ct_fail(CT_ERR_OOM, op, "out of memory for %lld keys", (long long)self->numel), (ct_tensor *)NULL;
  keys = buf, ord = buf + self->numel, tmp = ord + n, grp = tmp + n, rep = grp + n;
  u.iv = (const int64_t *)keys, u.fv = (const double *)keys;
  for (k = 0; k < n * u.m; k++) {
    const char *p = ct__shape_ptr(&v) + ct__shape_flat_offset(&v, k) * (int64_t)es;
    if (u.floating) ((double *)keys)[k] = ct__load_double(p, dt);
    else ((int64_t *)keys)[k] = ct__shape_load_i64(p, dt);
  }
  for (k = 0; k < n; k++) ord[k] = k;
  if (sort) ct__uq_sort(&u, ord, tmp, n);
  for (k = 0; k < n; k++) {
    if (k == 0 || !ct__uq_equal(&u, ord[k - 1], ord[k])) rep[ng++] = ord[k];
    grp[k] = ng - 1;
  }
  /* the values: self's shape with ng rows along dim (dim None: a vector) */
  memcpy(osz, self->sizes, sizeof osz);
  if (dim != CT_INT_NONE) osz[d] = ng;
  else osz[0] = ng;
  r = ct__empty(op, dim != CT_INT_NONE ? self->ndim : 1, osz, dt, self->device);
  if (r && dim != CT_INT_NONE) ct__uq_front_view(&ov, r, d);
  else if (r) ov = *r, ov.autograd = NULL;
  for (g = 0; r && g < ng; g++)
    for (k = 0; k < u.m; k++)
      ct__shape_copy1(ct__shape_ptr(&ov) + ct__shape_flat_offset(&ov, g * u.m + k) * (int64_t)es,
                      ct__shape_ptr(&v) + ct__shape_flat_offset(&v, rep[g] * u.m + k) * (int64_t)es, es);
  /* inverse: each row's group, in self's shape (dim None) or [n]; counts: each group's rows */
  if (r && return_inverse) inv = dim != CT_INT_NONE ? ct__empty(op, 1, &n, CT_I64, self->device) : ct__empty(op, self->ndim, self->sizes, CT_I64, self->device);
  else if (r) inv = ct__empty(op, 1, &zero, CT_I64, self->device);
  if (inv && return_inverse)
    for (k = 0; k < n; k++) ((int64_t *)(void *)ct__shape_ptr(inv))[ord[k]] = grp[k];
  if (inv) cnt = ct__empty(op, 1, return_counts ? &ng : &zero, CT_I64, self->device);
  if (cnt && return_counts) {
    memset(ct__shape_ptr(cnt), 0, sizeof(int64_t) * (size_t)ng);
    for (k = 0; k < n; k++) ((int64_t *)(void *)ct__shape_ptr(cnt))[grp[k]]++;
  }
  ct__workspace_free(buf);
  if (!cnt) {
    ct_release(r), ct_release(inv);
    return NULL;
  }
  ct__uq_give(inverse, inv);
  ct__uq_give(counts, cnt);
  return r;
}
static ct_tensor *ct__k_unique2(ct_keyset ks, ct_tensor *self, bool sorted, bool return_inverse, bool return_counts, ct_tensor **result1,
                                ct_tensor **result2) {
  (void)ks;
  (void)sorted; /* always ascending: PyTorch's unsorted order is a hash set's */
  /* (aten computes the inverse for the counts and returns it then too) */
  return ct__shape_unique("unique", self, CT_INT_NONE, 1, 1, return_inverse || return_counts, return_counts, result1, result2);
}
static ct_tensor *ct__k_unique_consecutive(ct_keyset ks, ct_tensor *self, bool return_inverse, bool return_counts, int64_t dim,
                                           ct_tensor **result1, ct_tensor **result2) {
  (void)ks;
  /* (along a dim aten returns the inverse and the counts whatever the flags say) */
  return ct__shape_unique("unique_consecutive", self, dim, 0, 0, return_inverse || dim != CT_INT_NONE, return_counts || dim != CT_INT_NONE,
                          result1, result2);
}
static ct_tensor *ct__k_unique_dim(ct_keyset ks, ct_tensor *self, int64_t dim, bool sorted, bool return_inverse, bool return_counts,
                                   ct_tensor **result1, ct_tensor **result2) {
  (void)ks;
  (void)sorted, (void)return_inverse, (void)return_counts; /* aten's unique_dim always sorts and returns both */
  return ct__shape_unique("unique_dim", self, dim, 1, 0, true, true, result1, result2);
}

/* the unique family's out= variants (aten's generated ones: each result copied into its out, any dtype) */
static ct_status ct__shape_unique_out(const char *op, ct_tensor *r, ct_tensor *inverse, ct_tensor *counts, ct_tensor *out0, ct_tensor *out1,
                                      ct_tensor *out2) {
  ct_status st;
  if (!r) return ct_last_error();
  st = ct__shape_out_ex(op, out0, r, CT__OUT_ANY_CAST);
  st = st == CT_OK ? ct__shape_out_ex(op, out1, inverse, CT__OUT_ANY_CAST) : (ct_release(inverse), st);
  return st == CT_OK ? ct__shape_out_ex(op, out2, counts, CT__OUT_ANY_CAST) : (ct_release(counts), st);
}
static ct_status ct__k_unique2_out(ct_keyset ks, ct_tensor *self, bool sorted, bool return_inverse, bool return_counts, ct_tensor *out0,
                                   ct_tensor *out1, ct_tensor *out2) {
  ct_tensor *inverse = NULL, *counts = NULL, *r = ct__k_unique2(ks, self, sorted, return_inverse, return_counts, &inverse, &counts);
  return ct__shape_unique_out("unique", r, inverse, counts, out0, out1, out2);
}
static ct_status ct__k_unique_consecutive_out(ct_keyset ks, ct_tensor *self, bool return_inverse, bool return_counts, int64_t dim,
                                              ct_tensor *out0, ct_tensor *out1, ct_tensor *out2) {
  ct_tensor *inverse = NULL, *counts = NULL, *r = ct__k_unique_consecutive(ks, self, return_inverse, return_counts, dim, &inverse, &counts);
  return ct__shape_unique_out("unique_consecutive", r, inverse, counts, out0, out1, out2);
}
static ct_status ct__k_unique_dim_out(ct_keyset ks, ct_tensor *self, int64_t dim, bool sorted, bool return_inverse, bool return_counts,
                                      ct_tensor *out0, ct_tensor *out1, ct_tensor *out2) {
  ct_tensor *inverse = NULL, *counts = NULL, *r = ct__k_unique_dim(ks, self, dim, sorted, return_inverse, return_counts, &inverse, &counts);
  return ct__shape_unique_out("unique_dim", r, inverse, counts, out0, out1, out2);
}

/* ================= fliplr / flipud / rot90 (over flip and transpose, as aten) and narrow_copy ================= */
static ct_tensor *ct__k_fliplr(ct_keyset ks, ct_tensor *self) {
  static const int64_t one = 1;
  ct_tensor *r = NULL;
  (void)ks;
  if (self->ndim < 2) return ct_fail(CT_ERR_RANK, "fliplr", "Input must be >= 2-d."), (ct_tensor *)NULL;
  CT_SCOPE { r = ct_keep(ct_flip(self, 1, &one)); }
  return r;
}
static ct_tensor *ct__k_flipud(ct_keyset ks, ct_tensor *self) {
  static const int64_t zero = 0;
  ct_tensor *r = NULL;
  (void)ks;
  if (self->ndim < 1) return ct_fail(CT_ERR_RANK, "flipud", "Input must be >= 1-d."), (ct_tensor *)NULL;
  CT_SCOPE { r = ct_keep(ct_flip(self, 1, &zero)); }
  return r;
}
/* k quarter turns from dims[0] towards dims[1] (k taken mod 4); 1 and 3 turns are a flip then a transpose, as
 * aten (a transposed result) */
static ct_tensor *ct__k_rot90(ct_keyset ks, ct_tensor *self, int64_t k, ct_int_list dims) {
  static const char *op = "rot90";
  int64_t nd = self->ndim;
  ct_tensor *r = NULL;
  (void)ks;
  if (dims.n != 2) return ct_fail(CT_ERR_INVALID, op, "expected total rotation dims == 2, but got dims = %lld", (long long)dims.n), (ct_tensor *)NULL;
  if (nd < 2) return ct_fail(CT_ERR_RANK, op, "expected total dims >= 2, but got total dims = %lld", (long long)nd), (ct_tensor *)NULL;
  if (dims.data[0] == dims.data[1] || fabs((double)dims.data[0] - (double)dims.data[1]) == (double)nd) /* (|difference| nd: one dim twice) */
    return ct_fail(CT_ERR_INVALID, op, "expected rotation dims to be different, but got dim0 = %lld and dim1 = %lld", (long long)dims.data[0],
                   (long long)dims.data[1]),
           (ct_tensor *)NULL;
  if (dims.data[0] < -nd || dims.data[0] >= nd) return ct_fail(CT_ERR_INDEX, op, "Rotation dim0 out of range, dim0 = %lld", (long long)dims.data[0]), (ct_tensor *)NULL;
  if (dims.data[1] < -nd || dims.data[1] >= nd) return ct_fail(CT_ERR_INDEX, op, "Rotation dim1 out of range, dim1 = %lld", (long long)dims.data[1]), (ct_tensor *)NULL;
  CT_SCOPE {
    switch ((4 + k % 4) % 4) {
    case 1: r = ct_keep(ct_transpose(ct_flip(self, 1, &dims.data[1]), dims.data[0], dims.data[1])); break;
    case 2: r = ct_keep(ct_flip(self, 2, dims.data)); break;
    case 3: r = ct_keep(ct_transpose(ct_flip(self, 1, &dims.data[0]), dims.data[0], dims.data[1])); break;
    default: r = ct_keep(ct_clone(self)); break;
    }
  }
  return r;
}
static ct_status ct__k_rot90_out(ct_keyset ks, ct_tensor *self, int64_t k, ct_int_list dims, ct_tensor *out) {
  return ct__shape_out_ex("rot90", out, ct__k_rot90(ks, self, k, dims), CT__OUT_ANY_CAST); /* aten's generated out= */
}
/* narrow's slice (start wraps once), copied into a fresh contiguous tensor */
/* narrow_copy: *d the wrapped dim, *start the wrapped start */
static ct_status ct__shape_narrow_copy_args(const char *op, ct_tensor *self, int64_t *d, int64_t *start, int64_t length) {
  int64_t size, end;
  if (self->ndim == 0) return ct_fail(CT_ERR_RANK, op, "narrow() cannot be applied to a 0-dim tensor.");
  if ((*d = ct__wrap_dim(op, *d, self->ndim)) < 0) return ct_last_error();
  size = self->sizes[*d];
  if (*start < -size || *start > size) /* (aten reports it as a dimension out of range) */
    return ct_fail(CT_ERR_INDEX, op, "start %lld is out of range for dimension %lld of size %lld", (long long)*start, (long long)*d,
                   (long long)size);
  if (*start < 0) *start += size;
  if (length < 0 || ct__add_ovf(*start, length, &end) || end > size)
    return ct_fail(CT_ERR_INVALID, op, "start (%lld) + length (%lld) exceeds dimension size (%lld).", (long long)*start, (long long)length,
                   (long long)size);
  return CT_OK;
}
static ct_status ct__meta_narrow_copy(ct__structured *st, ct_tensor *self, int64_t dim, int64_t start, int64_t length) {
  int64_t sizes[CT_MAX_DIMS];
  ct_status s = ct__shape_narrow_copy_args(st->op, self, &dim, &start, length);
  if (s != CT_OK) return s;
  memcpy(sizes, self->sizes, sizeof sizes);
  sizes[dim] = length;
  return ct__set_output(st, 0, self->ndim, sizes, (ct_dtype)self->dtype, self->device);
}
static ct_status ct__impl_narrow_copy(ct_tensor *self, int64_t dim, int64_t start, int64_t length, ct_tensor *out) {
  ct_tensor v;
  ct_status s = ct__shape_narrow_copy_args("narrow_copy", self, &dim, &start, length);
  if (s != CT_OK) return s;
  ct__shape_narrow_view(&v, self, (int)dim, start, length);
  return ct__copy_impl(out, &v);
}

/* ---- index_reduce (CompositeImplicitAutograd): scatter_reduce with index[i] spread over source's
 * slice i along dim (the same reductions and include_self; "sum" is index_add's) ---- */
static ct_tensor *ct__shape_index_reduce_index(ct_tensor *self, int64_t *dim, ct_tensor *index, ct_tensor *source, const char *reduce) {
  static const char *op = "index_reduce";
  int64_t vshape[CT_MAX_DIMS], n = index->numel;
  int i;
  char b1[160];
  if (!reduce || (strcmp(reduce, "prod") && strcmp(reduce, "mean") && strcmp(reduce, "amax") && strcmp(reduce, "amin")))
    return ct_fail(CT_ERR_INVALID, op, "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got %s.",
                   reduce ? reduce : "None"),
           (ct_tensor *)NULL;
  if ((*dim = ct__wrap_dim(op, *dim, self->ndim)) < 0) return NULL;
  if (index->ndim > 1)
    return ct_fail(CT_ERR_INDEX, op, "index_reduce_(): Index is supposed to be a vector, but got dim: %d with type: %s and size: %s",
                   index->ndim, ct__dtype_torch_name((ct_dtype)index->dtype), ct_shape_format(index->ndim, index->sizes, b1, sizeof b1)),
           (ct_tensor *)NULL;
  if (index->dtype != CT_I64 && index->dtype != CT_I32)
    return ct_fail(CT_ERR_DTYPE, op, "index_reduce_(): Expected dtype int32/int64 for index but got: %s",
                   ct__dtype_torch_name((ct_dtype)index->dtype)),
           (ct_tensor *)NULL;
  if (self->dtype != source->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "index_reduce_(): self (%s) and source (%s) must have the same scalar type",
                   ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)source->dtype)),
           (ct_tensor *)NULL;
  if (source->ndim != self->ndim && !(source->ndim <= 1 && self->ndim <= 1))
    return ct_fail(CT_ERR_SHAPE, op, "index_reduce_(): source has %d dims but self has %d", source->ndim, self->ndim), (ct_tensor *)NULL;
  if ((source->ndim ? source->sizes[*dim] : 1) != n)
    return ct_fail(CT_ERR_INDEX, op, "index_reduce_(): Number of indices (%lld) should be equal to source.size(dim): (%lld), for dim: %lld",
                   (long long)n, (long long)(source->ndim ? source->sizes[*dim] : 1), (long long)*dim),
           (ct_tensor *)NULL;
  for (i = 0; i < source->ndim; i++)
    if (i != *dim && source->sizes[i] != self->sizes[i])
      return ct_fail(CT_ERR_SHAPE, op, "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
                     (long long)self->sizes[i], (long long)source->sizes[i], i),
             (ct_tensor *)NULL;
  for (i = 0; i < source->ndim; i++) vshape[i] = i == *dim ? n : 1;
  {
    ct_tensor *r = NULL;
    CT_SCOPE {
      ct_tensor *ix = ct_to_dtype(index, CT_I64);
      if (ix && source->ndim > 0) ix = ct_expand(ct_view(ix, source->ndim, vshape), source->ndim, source->sizes);
      else if (ix) ix = ct_view(ix, source->ndim, vshape);
      r = ct_keep(ix);
    }
    return r;
  }
}
static ct_tensor *ct__k_index_reduce(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, const char *reduce,
                                     bool include_self) {
  ct_tensor *ix = ct__shape_index_reduce_index(self, &dim, index, source, reduce), *r = NULL;
  (void)ks;
  if (!ix) return NULL;
  CT_SCOPE { r = ct_keep(ct_scatter_reduce_ex(self, dim, ct__track(ix), source, reduce, include_self)); }
  return r;
}
static ct_status ct__k_index_reduce_(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, const char *reduce,
                                     bool include_self) {
  ct_tensor *ix = ct__shape_index_reduce_index(self, &dim, index, source, reduce);
  ct_status st = CT_OK;
  (void)ks;
  if (!ix) return ct_last_error();
  CT_SCOPE { st = ct_scatter_reduce_ex_(self, dim, ct__track(ix), source, reduce, include_self); }
  return st;
}
static ct_status ct__k_index_reduce_out(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, ct_tensor *source, const char *reduce,
                                        bool include_self, ct_tensor *out) {
  ct_tensor *ix = ct__shape_index_reduce_index(self, &dim, index, source, reduce);
  ct_status st = CT_OK;
  (void)ks;
  if (!ix) return ct_last_error();
  CT_SCOPE { st = ct_scatter_reduce_out_ex(out, self, dim, ct__track(ix), source, reduce, include_self); }
  return st;
}

CT_EXTERN_C_END
#endif /* CT__OPS_SHAPE_IMPL */
