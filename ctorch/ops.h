/* ctorch/ops.h - reference kernels of the built-in operators, and derivative helpers.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Naming: ct_OP is the functional form (new tensor or NULL), ct_OP_ the
 * in-place form and ct_OP_out the out= form (both return ct_status and bump
 * the written tensor's version). ct_OP_ex takes every schema argument
 * (e.g. add's alpha); the short forms use the schema's defaults.
 * ct_OP_scalar takes a number for `other`, as PyTorch's .Scalar overloads.
 *
 * gen/ops.spec names the kernel of every op at every key; they are here.
 * The reference kernels serve the CPU and Meta keys. Pointwise ops run
 * through the pointwise engine (ops/pointwise.h: a meta step, then an impl
 * step through the loop of the device type); the other kernels still run
 * their checks and output allocation and skip the arithmetic when the
 * output lives on the meta device, so meta execution is the same code.
 */
#ifndef CT_OPS_H
#define CT_OPS_H

#include "autograd.h"
#include "iter.h"

/* The frontends (ct_add, ct_relu_, ct_sum_out, ...) are generated from
 * gen/ops.spec into ctorch/generated/functions.h; docs/ops.md lists them. */

#endif /* CT_OPS_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_IMPL)
#define CT__OPS_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN


/* ================= reference kernels ================= */

static void ct__bump_version(ct_tensor *t) { t->storage->version++; }
static int ct__is_meta(const ct_tensor *t) { return t->device.type == CT_DEVICE_META; }
static inline int ct__same_sizes(const ct_tensor *a, const ct_tensor *b) { /* inline: no libc call on the hot path */
  int i;
  if (a->ndim != b->ndim) return 0;
  for (i = 0; i < a->ndim; i++)
    if (a->sizes[i] != b->sizes[i]) return 0;
  return 1;
}

/* A tensor written by an op must not have several elements at one address
 * (an expanded dim), as PyTorch's assert_no_internal_overlap. */
static ct_status ct__check_writable(const char *op, const ct_tensor *t) {
  int i;
  if (t->numel == 0) return CT_OK; /* nothing is written */
  for (i = 0; i < t->ndim; i++)
    if (t->sizes[i] > 1 && t->strides[i] == 0)
      return ct_fail(CT_ERR_INVALID, op, "unsupported operation: more than one element of the written-to tensor refers "
                                         "to a single memory location. Please clone() the tensor before performing the operation.");
  return CT_OK;
}

/* May two elements of t share memory (a stride 0, or strides that do not
 * nest)? Sufficient test: sorted by stride, each stride reaches past the
 * previous dim's extent; sliced and transposed tensors pass. */
static int ct__may_self_overlap(const ct_tensor *t) {
  int64_t st[CT_MAX_DIMS], sz[CT_MAX_DIMS];
  int n = 0, i, j;
  for (i = 0; i < t->ndim; i++) {
    if (t->sizes[i] <= 1) continue;
    if (t->strides[i] == 0) return 1;
    for (j = n; j > 0 && st[j - 1] > (t->strides[i] < 0 ? -t->strides[i] : t->strides[i]); j--) st[j] = st[j - 1], sz[j] = sz[j - 1];
    st[j] = t->strides[i] < 0 ? -t->strides[i] : t->strides[i], sz[j] = t->sizes[i];
    n++;
  }
  for (i = 1; i < n; i++)
    if (st[i] < ct__mul_sat(st[i - 1], sz[i - 1])) return 1;
  return 0;
}

/* ---- memory overlap between a written tensor and an input (PyTorch's get_overlap_status) ----
 * FULL: the same elements in the same layout (same start, byte length and
 * strides), which an elementwise op may read and write in place. PARTIAL:
 * some elements shared otherwise. NO: none shared (other storage, an empty
 * tensor, or disjoint byte ranges). TOO_HARD: a tensor that is not
 * non-overlapping-and-dense, whose byte range says nothing exact; allowed,
 * as in PyTorch (x[::2].copy_(x[1::2]) is fine). */
enum { CT__OVERLAP_NO, CT__OVERLAP_FULL, CT__OVERLAP_PARTIAL, CT__OVERLAP_TOO_HARD };
/* PyTorch's is_non_overlapping_and_dense: some permutation of the dims is contiguous */
static int ct__non_overlapping_and_dense(const ct_tensor *t) {
  int perm[CT_MAX_DIMS], i, j, n = 0;
  int64_t want = 1;
  for (i = 0; i < t->ndim; i++) { /* dims of size >= 2, by increasing stride (insertion sort: ndim is small) */
    if (t->sizes[i] < 2) continue;
    for (j = n; j > 0 && t->strides[perm[j - 1]] > t->strides[i]; j--) perm[j] = perm[j - 1];
    perm[j] = i;
    n++;
  }
  for (i = 0; i < n; i++) {
    if (t->strides[perm[i]] != want) return 0;
    want = ct__mul_sat(want, t->sizes[perm[i]]);
  }
  return 1;
}
static int ct__overlap_status(const ct_tensor *a, const ct_tensor *b) {
  uintptr_t ab, ae, bb, be;
  if (a == b) return CT__OVERLAP_FULL;
  if (!a->numel || !b->numel || !a->storage->data || (a->storage != b->storage && a->storage->data != b->storage->data))
    return CT__OVERLAP_NO;
  if (!ct__non_overlapping_and_dense(a) || !ct__non_overlapping_and_dense(b)) return CT__OVERLAP_TOO_HARD;
  ab = (uintptr_t)a->storage->data + (uintptr_t)a->offset * ct_dtype_size((ct_dtype)a->dtype);
  ae = ab + (uintptr_t)a->numel * ct_dtype_size((ct_dtype)a->dtype);
  bb = (uintptr_t)b->storage->data + (uintptr_t)b->offset * ct_dtype_size((ct_dtype)b->dtype);
  be = bb + (uintptr_t)b->numel * ct_dtype_size((ct_dtype)b->dtype);
  if (ab == bb && ae == be)
    return a->ndim == b->ndim && !memcmp(a->strides, b->strides, sizeof(int64_t) * (size_t)a->ndim) ? CT__OVERLAP_FULL
                                                                                                  : CT__OVERLAP_PARTIAL;
  return ab < be && bb < ae ? CT__OVERLAP_PARTIAL : CT__OVERLAP_NO;
}
/* The one check of every tensor an op writes (out=, or self in place)
 * against the inputs it reads (in[0..nin), NULL entries skipped), as
 * PyTorch's TensorIterator: out must not write one address twice
 * (assert_no_internal_overlap), and must not share only some of an input's
 * elements (assert_no_partial_overlap). The very same elements in the same
 * layout are fine (add_out(a, a, b), a.add_(b)); empty tensors never
 * overlap; geometries whose overlap cannot be decided cheaply (not
 * non-overlapping-and-dense) are allowed, as in PyTorch. */
static ct_status ct__check_overlaps(const char *op, const ct_tensor *out, int nin, ct_tensor *const *in) {
  int i;
  if (ct__check_writable(op, out) != CT_OK) return ct_last_error();
  for (i = 0; i < nin; i++)
    if (in[i] && ct__overlap_status(out, in[i]) == CT__OVERLAP_PARTIAL)
      return ct_fail(CT_ERR_INVALID, op, "unsupported operation: some elements of the input tensor and the written-to tensor refer "
                                         "to a single memory location. Please clone() the tensor before performing the operation.");
  return CT_OK;
}
/* ... against one input (in may be NULL) */
static ct_status ct__check_overlap(const char *op, const ct_tensor *out, const ct_tensor *in) {
  ct_tensor *one[1];
  one[0] = (ct_tensor *)in; /* only read */
  return ct__check_overlaps(op, out, 1, one);
}

/* A number lifted to a 0-dim CPU tensor on the caller's stack (no heap):
 * PyTorch's "wrapped number", which promotes with the lowest priority. */
typedef struct ct__wrapped {
  ct_tensor t;
  ct_storage s;
  union {
    double f;
    int64_t i;
    bool b;
  } value;
} ct__wrapped;
static ct_tensor *ct__wrap_scalar(ct__wrapped *w, ct_scalar s) {
  memset(w, 0, sizeof *w);
  w->s.refcount = 1;
  w->s.data = &w->value;
  w->s.nbytes = sizeof w->value;
  w->s.device = CT_CPU;
  w->t.refcount = 1;
  w->t.flags = CT_TENSOR_WRAPPED_NUMBER;
  w->t.device = CT_CPU;
  w->t.keys = ct_keyset_of(CT_KEY_CPU);
  w->t.storage = &w->s;
  w->t.numel = 1;
  if (s.kind == CT_SCALAR_FLOAT) w->t.dtype = CT_F64, w->value.f = s.v.f;
  else if (s.kind == CT_SCALAR_BOOL) w->t.dtype = CT_BOOL, w->value.b = s.v.b;
  else w->t.dtype = CT_I64, w->value.i = s.v.i;
  return &w->t;
}

/* PyTorch's checked conversion of a Scalar to a dtype (c10::checked_convert,
 * c10::overflows<To, From>), for the values an op stores or computes with
 * in the tensor's dtype (fill_, full, masked_fill, index_fill, scatter's
 * value, constant_pad_nd, clamp bounds, alpha, addcmul's value, pow's
 * exponent, arange's ends on integers, ...). Integers: in range; for uint8
 * also down to -255 (negative values wrap, as two's complement: -1 is 255).
 * Floating values: in [lowest, max] of the dtype (uint8: [0, 255]), NaN and
 * infinities only into floating dtypes. Bool takes anything. (Float to int64
 * compares with INT64_MAX as a double, 2^63, as C++ does: 2^63 passes and
 * stores INT64_MIN, as PyTorch on x86.) */
static int ct__scalar_fits(ct_scalar s, ct_dtype d) {
  double v;
  if (d == CT_BOOL || s.kind == CT_SCALAR_BOOL || s.kind == CT_SCALAR_NONE) return 1;
  if (s.kind == CT_SCALAR_INT) {
    int64_t i = s.v.i;
    switch (d) {
    case CT_I32: return i >= INT32_MIN && i <= INT32_MAX;
    case CT_U8: return i >= -255 && i <= 255;
    case CT_F16: return i >= -65504 && i <= 65504;
    default: return 1; /* int64, and float32/float64/bfloat16 hold every int64's magnitude */
    }
  }
  v = s.v.f;
  if (v != v || v == INFINITY || v == -INFINITY) return ct_dtype_is_floating(d);
  switch (d) {
  case CT_I64: return v >= -9223372036854775808.0 && v <= 9223372036854775808.0;
  case CT_I32: return v >= -2147483648.0 && v <= 2147483647.0;
  case CT_U8: return v >= 0 && v <= 255;
  case CT_F16: return fabs(v) <= 65504.0;
  case CT_BF16: return fabs(v) <= 3.3895313892515355e38;
  case CT_F32: return fabs(v) <= 3.4028234663852886e38;
  default: return 1;
  }
}
/* PyTorch's C++ name of a dtype, for its conversion messages */
static const char *ct__dtype_cpp_name(ct_dtype d) {
  switch (d) {
  case CT_F32: return "float";
  case CT_F64: return "double";
  case CT_F16: return "at::Half";
  case CT_BF16: return "at::BFloat16";
  case CT_I64: return "int64_t";
  case CT_I32: return "int";
  case CT_U8: return "uint8_t";
  default: return "bool";
  }
}
static ct_status ct__check_scalar(const char *op, ct_scalar s, ct_dtype d) {
  if (ct__scalar_fits(s, d)) return CT_OK;
  return ct_fail(CT_ERR_INVALID, op, "value cannot be converted to type %s without overflow", ct__dtype_cpp_name(d));
}
/* The Scalar a wrapped number (ct__wrap_scalar) holds, or a 0-dim tensor's
 * value as PyTorch's item() gives it (float, int or bool by its dtype). */
static ct_scalar ct__tensor_scalar(const ct_tensor *t) {
  const void *p = ct_data_ptr(t);
  if (ct_dtype_is_floating((ct_dtype)t->dtype)) return ct_float(ct__load_double(p, (ct_dtype)t->dtype));
  if (t->dtype == CT_BOOL) return ct_bool(*(const bool *)p);
  if (t->dtype == CT_I64) return ct_int(*(const int64_t *)p);
  return ct_int((int64_t)ct__load_double(p, (ct_dtype)t->dtype));
}

/* torch.result_type over operands: dimensioned tensors outrank 0-dim ones,
 * which outrank wrapped numbers, unless a lower class has a higher category
 * (bool < integer < floating). Wrapped floats count as the default dtype. */
typedef struct ct__result_state {
  ct_dtype dim, zero, wrapped;
} ct__result_state;
static void ct__result_update(ct__result_state *s, const ct_tensor *t) {
  ct_dtype d = (ct_dtype)t->dtype;
  if (t->flags & CT_TENSOR_WRAPPED_NUMBER) {
    if (ct_dtype_is_floating(d)) d = CT_F32;
    s->wrapped = ct_promote_types(s->wrapped, d);
  } else if (t->ndim == 0) {
    s->zero = ct_promote_types(s->zero, d);
  } else {
    s->dim = ct_promote_types(s->dim, d);
  }
}
static ct_dtype ct__combine_categories(ct_dtype higher, ct_dtype lower) {
  if (ct_dtype_is_floating(higher)) return higher;
  if (higher == CT_BOOL || ct_dtype_is_floating(lower)) return ct_promote_types(higher, lower);
  if (higher != CT_DTYPE_NONE) return higher;
  return lower;
}
static ct_dtype ct__result_type(const ct_tensor *a, const ct_tensor *b) {
  ct__result_state s;
  s.dim = s.zero = s.wrapped = CT_DTYPE_NONE;
  ct__result_update(&s, a);
  if (b) ct__result_update(&s, b);
  return ct__combine_categories(s.dim, ct__combine_categories(s.zero, s.wrapped));
}

static const char *ct__dtype_torch_name(ct_dtype d) {
  switch (d) {
  case CT_F32: return "Float";
  case CT_F64: return "Double";
  case CT_F16: return "Half";
  case CT_BF16: return "BFloat16";
  case CT_I64: return "Long";
  case CT_I32: return "Int";
  case CT_U8: return "Byte";
  case CT_BOOL: return "Bool";
  default: return "Undefined";
  }
}


/* The tensor a kernel writes (out=, or self in place) must be on the op's
 * device: the CPU 0-dim exception is for inputs only, as PyTorch's
 * TensorIterator (a CPU 0-dim out of a meta op would be written through the
 * meta operand's missing data). */
static int ct__out_device_ok(const char *op, const ct_tensor *out, ct_device dev) {
  if (ct_device_eq(out->device, dev)) return 1;
  ct_fail(CT_ERR_DEVICE, op, "Expected out tensor to have device %s:%d, but got %s:%d instead", ct_device_type_name((ct_device_type)dev.type),
          dev.index, ct_device_type_name((ct_device_type)out->device.type), out->device.index);
  return 0;
}

/* Check or prepare the tensor a kernel writes: `out` for out= variants
 * (resized like PyTorch when its shape differs), self for in-place ones. */
static ct_status ct__resize_out(const char *op, ct_tensor *out, int ndim, const int64_t *shape) {
  int64_t numel, strides[CT_MAX_DIMS];
  ct__undo_entry *undo;
  ct_storage *s;
  size_t need;
  int i;
  if (out->ndim == ndim) {
    for (i = 0; i < ndim && out->sizes[i] == shape[i]; i++) {
    }
    if (i == ndim) return CT_OK;
  }
  numel = ct__checked_numel(op, ndim, shape, (ct_dtype)out->dtype);
  if (numel < 0) return ct_last_error();
  need = (size_t)numel * ct_dtype_size((ct_dtype)out->dtype);
  if (out->offset * (int64_t)ct_dtype_size((ct_dtype)out->dtype) + (int64_t)need > (int64_t)out->storage->nbytes) {
    if (out->storage->refcount != 1 || out->storage->deleter)
      return ct_fail(CT_ERR_SHAPE, op, "out= tensor must be resized but its storage is shared or not resizable");
    s = out->storage->pinned_by ? ct__storage_new_pinned(need, (ct_device_type)out->storage->pinned_by, op) /* stays pinned */
                                : ct__storage_new(need, out->device, op);
    if (!s) return ct_last_error();
    s->version = out->storage->version;
    undo = ct__undo_record(out); /* (a failed call gets the old storage back) */
    if (undo) undo->storage = out->storage;
    else ct__storage_release(out->storage);
    out->storage = s;
    out->offset = 0;
  } else {
    ct__undo_record(out);
  }
  ct__contiguous_strides(ndim, shape, strides);
  out->ndim = (int8_t)ndim;
  for (i = 0; i < ndim; i++) out->sizes[i] = shape[i], out->strides[i] = strides[i];
  out->numel = numel;
  return CT_OK;
}

/* out= (or self in place) of an op whose result has `shape`, reading
 * in[0..nin) (NULL entries skipped), after ct__check_overlaps (which
 * PyTorch runs before its dtype and shape checks): the resize. An out that
 * is itself one of the inputs is read after it is written and cannot be
 * resized (its data would move or be reinterpreted before it is read): it
 * must already have the result's shape, as in PyTorch's TensorIterator. An
 * out that only now overlaps an input (resized within its storage) is
 * refused too. */
static int ct__out_has_shape(const ct_tensor *out, int ndim, const int64_t *shape) {
  int i, same = out->ndim == ndim;
  for (i = 0; same && i < ndim; i++) same = out->sizes[i] == shape[i];
  return same;
}
/* (the part of it for kernels that resize out themselves: out being an input that needs resizing) */
static ct_status ct__check_out_not_resized_input(const char *op, const ct_tensor *out, int ndim, const int64_t *shape, int nin,
                                                 ct_tensor *const *in) {
  int i;
  char b1[160], b2[160];
  if (ct__out_has_shape(out, ndim, shape)) return CT_OK;
  for (i = 0; i < nin; i++)
    if (in[i] == out)
      return ct_fail(CT_ERR_SHAPE, op, "output with shape %s doesn't match the broadcast shape %s",
                     ct_shape_format(out->ndim, out->sizes, b1, sizeof b1), ct_shape_format(ndim, shape, b2, sizeof b2));
  return CT_OK;
}
static ct_status ct__prepare_out(const char *op, ct_tensor *out, int ndim, const int64_t *shape, int nin, ct_tensor *const *in) {
  ct_status st;
  if (ct__out_has_shape(out, ndim, shape)) return CT_OK;
  if ((st = ct__check_out_not_resized_input(op, out, ndim, shape, nin, in)) != CT_OK) return st;
  if ((st = ct__resize_out(op, out, ndim, shape)) != CT_OK) return st;
  return ct__check_overlaps(op, out, nin, in);
}

/* ---- copy_: every dtype pair, any strides ---- */
/* strided elements copied as words of their size (bits kept; a memcpy call
 * per element costs more than the element: transposes made contiguous) */
#define CT__COPY_WORDS(U)                                                                  \
  do {                                                                                     \
    const int64_t s0 = s[0] / (int64_t)sizeof(U), s1 = s[1] / (int64_t)sizeof(U);           \
    U *dst = (U *)(void *)d[0];                                                            \
    const U *src = (const U *)(const void *)d[1];                                          \
    for (i = 0; i < n; i++) dst[i * s0] = src[i * s1];                                     \
  } while (0)
static void ct__copy_same_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  size_t es = *(const size_t *)ctx;
  int64_t i;
  if (s[0] == (int64_t)es && s[1] == (int64_t)es) {
    memcpy(d[0], d[1], (size_t)n * es);
    return;
  }
  /* (strides are multiples of the element size, and data aligned to it) */
  if (es == 4) CT__COPY_WORDS(uint32_t);
  else if (es == 8) CT__COPY_WORDS(uint64_t);
  else if (es == 2) CT__COPY_WORDS(uint16_t);
  else if (es == 1) CT__COPY_WORDS(uint8_t);
  else
    for (i = 0; i < n; i++) memcpy(d[0] + i * s[0], d[1] + i * s[1], es);
}

typedef struct ct__convert_ctx {
  ct_dtype to, from;
} ct__convert_ctx;
static void ct__convert_loop(char **d, const int64_t *s, int64_t n, void *vctx) {
  const ct__convert_ctx *c = (const ct__convert_ctx *)vctx;
  int64_t i;
  int int_path = ct_dtype_is_integral(c->to, false) && ct_dtype_is_integral(c->from, true);
  for (i = 0; i < n; i++) {
    const char *src = d[1] + i * s[1];
    char *dst = d[0] + i * s[0];
    if (int_path) { /* integer to integer: wrap like C casts via int64 */
      int64_t v = c->from == CT_I64 ? *(const int64_t *)src : c->from == CT_I32 ? *(const int32_t *)src
                : c->from == CT_U8 ? *(const uint8_t *)src : (int64_t)*(const bool *)src;
      if (c->to == CT_I64) *(int64_t *)dst = v;
      else if (c->to == CT_I32) *(int32_t *)dst = (int32_t)(uint32_t)(uint64_t)v;
      else *(uint8_t *)dst = (uint8_t)(uint64_t)v;
    } else { /* floating to integer: NaN, inf and out-of-range values as PyTorch's casts on x86 (ct__f2i64, dtype.h) */
      ct__store_double(dst, c->to, ct__load_double(src, c->from));
    }
  }
}

static ct_status ct__copy_across(ct_tensor *self, ct_tensor *src, bool non_blocking);
static int ct__copy_on_device(ct_tensor *self, ct_tensor *src, ct_status *st); /* ops/pointwise.h */
static ct_status ct__fill_on_device(ct_tensor *self, const void *bytes);         /* ops/pointwise.h */
static ct_status ct__copy_impl_nb(ct_tensor *self, ct_tensor *src, bool non_blocking);
static ct_status ct__copy_impl(ct_tensor *self, ct_tensor *src) { return ct__copy_impl_nb(self, src, false); }
/* out= of an op computed functionally: the result r (owned) copied into out, checked
 * and resized; for kernels whose result cannot be written in place cheaply */
static ct_status ct__result_to_out(const char *op, ct_tensor *out, ct_tensor *r) {
  ct_status st;
  if (!r) return ct_last_error();
  if (out->dtype != r->dtype)
    st = ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead", ct_dtype_name((ct_dtype)r->dtype),
                 ct_dtype_name((ct_dtype)out->dtype));
  else if (!ct_device_eq(out->device, r->device))
    st = ct_fail(CT_ERR_DEVICE, op, "expected out tensor on the device of the inputs");
  else if ((st = ct__check_writable(op, out)) == CT_OK && (st = ct__resize_out(op, out, r->ndim, r->sizes)) == CT_OK)
    st = ct__copy_impl(out, r);
  ct_release(r);
  if (st == CT_OK) ct__bump_version(out);
  return st;
}
static ct_status ct__copy_impl_nb(ct_tensor *self, ct_tensor *src, bool non_blocking) {
  static const char *op = "copy_";
  ct_tensor *ops[2];
  ct_tensor *tmp = NULL;
  int i, ok = src->ndim <= self->ndim;
  for (i = 0; ok && i < src->ndim; i++) { /* src must broadcast to exactly self's shape */
    int64_t want = self->sizes[self->ndim - src->ndim + i];
    ok = src->sizes[i] == want || src->sizes[i] == 1;
  }
  if (!ok) {
    char b1[160], b2[160];
    return ct_fail(CT_ERR_SHAPE, op, "source of shape %s cannot be broadcast to destination of shape %s",
                   ct_shape_format(src->ndim, src->sizes, b1, sizeof b1), ct_shape_format(self->ndim, self->sizes, b2, sizeof b2));
  }
  if (ct__is_meta(self)) return CT_OK;
  if (ct__is_meta(src)) return ct_fail(CT_ERR_DEVICE, op, "cannot copy out of a meta tensor: it has no data");
  if (self->numel == 0) return CT_OK;
  if (self->device.type != CT_DEVICE_CPU || src->device.type != CT_DEVICE_CPU) return ct__copy_across(self, src, non_blocking);
  if (self->storage == src->storage && self != src &&
      !(self->offset == src->offset && ct_same_shape(self, src) &&
        !memcmp(self->strides, src->strides, sizeof(int64_t) * (size_t)self->ndim))) {
    tmp = ct__empty_like(op, src, (ct_dtype)src->dtype); /* overlapping views: read all before writing */
    if (!tmp || ct__copy_impl(tmp, src) != CT_OK) {
      ct_release(tmp);
      return ct_last_error();
    }
    src = tmp;
  }
  ops[0] = self;
  ops[1] = src;
  if (self->dtype == src->dtype) {
    size_t es = ct_dtype_size((ct_dtype)self->dtype);
    ct_iter_foreach(ct__copy_same_loop, &es, 2, ops, self->ndim, self->sizes);
  } else {
    ct__convert_ctx c;
    c.to = (ct_dtype)self->dtype;
    c.from = (ct_dtype)src->dtype;
    ct_iter_foreach(ct__convert_loop, &c, 2, ops, self->ndim, self->sizes);
  }
  ct_release(tmp);
  return CT_OK;
}

/* Between devices (any pair with data): a direct copy through the device
 * interface when both sides are dense with one dtype and shape, else through
 * host buffers holding the storage span each side covers, so that the CPU
 * loops above do strides, broadcasting and dtype conversion. A strided
 * destination's span is read, updated and written back. */
static ct_status ct__span(const ct_tensor *t, int64_t *first, int64_t *count) {
  int64_t last = t->offset;
  int i;
  for (i = 0; i < t->ndim; i++) {
    if (t->strides[i] < 0) return ct_fail(CT_ERR_VIEW, "copy_", "negative strides are not supported across devices");
    last += (t->sizes[i] - 1) * t->strides[i];
  }
  *first = t->offset;
  *count = last - t->offset + 1;
  return CT_OK;
}
/* A CPU tensor viewing a host copy of t's span (t off the CPU); *buf owns it. */
static ct_tensor *ct__host_view(ct_tensor *t, int read, ct_tensor **buf) {
  int64_t first = 0, count = 0;
  size_t es = ct_dtype_size((ct_dtype)t->dtype);
  *buf = NULL;
  if (ct__span(t, &first, &count) != CT_OK) return NULL;
  *buf = ct__empty("copy_", 1, &count, (ct_dtype)t->dtype, CT_CPU);
  if (!*buf) return NULL;
  if (read && ct_device_memcpy((*buf)->storage->data, CT_CPU, (char *)t->storage->data + (size_t)first * es, t->device,
                               (size_t)count * es, false) != CT_OK)
    return NULL;
  return ct__from_blob((*buf)->storage->data, t->ndim, t->sizes, t->strides, (ct_dtype)t->dtype, NULL, NULL);
}
static ct_status ct__copy_across(ct_tensor *self, ct_tensor *src, bool non_blocking) {
  ct_tensor *hs = NULL, *hsbuf = NULL, *hd = NULL, *hdbuf = NULL;
  ct_status st;
  size_t es = ct_dtype_size((ct_dtype)self->dtype);
  if ((st = ct_device_check("copy_", self->device)) != CT_OK || (st = ct_device_check("copy_", src->device)) != CT_OK) return st;
  if (self->dtype == src->dtype && ct_same_shape(self, src) && ct_is_contiguous(self) && ct_is_contiguous(src)) {
    /* Asynchronous between two devices of one type, or when the host side is
     * pinned by the device's type; then the host block is recorded on the
     * copy's stream, so that freeing it at once is safe. From pageable memory
     * the copy is synchronous (as CUDA makes it). */
    ct_tensor *host = self->device.type == CT_DEVICE_CPU ? self : src->device.type == CT_DEVICE_CPU ? src : NULL;
    ct_device dev = host == self ? src->device : self->device;
    bool async = non_blocking && (host ? host->storage->pinned_by == dev.type : self->device.type == src->device.type);
    st = ct_device_memcpy(ct_data_ptr(self), self->device, ct_data_ptr(src), src->device, (size_t)self->numel * es, async);
    if (st == CT_OK && async && host && ct_host_record_stream(host->storage->alloc_ctx, ct_current_stream(dev)) != CT_OK) {
      ct_clear_error(); /* (could not record: wait for the copy instead) */
      st = ct_stream_synchronize(ct_current_stream(dev));
    }
    return st;
  }
  if (ct__copy_on_device(self, src, &st)) return st; /* one device: its pointwise loop */
  if (src->device.type == CT_DEVICE_CPU) hs = ct_retain(src);
  else hs = ct__host_view(src, 1, &hsbuf);
  if (!hs) {
    st = ct_last_error();
    goto done;
  }
  if (self->device.type == CT_DEVICE_CPU) {
    st = ct__copy_impl(self, hs);
    goto done;
  }
  hd = ct__host_view(self, !ct_is_contiguous(self), &hdbuf);
  if (!hd) {
    st = ct_last_error();
    goto done;
  }
  if ((st = ct__copy_impl(hd, hs)) == CT_OK) {
    int64_t first = 0, count = 0;
    (void)ct__span(self, &first, &count);
    st = ct_device_memcpy((char *)self->storage->data + (size_t)first * es, self->device, hdbuf->storage->data, CT_CPU,
                          (size_t)count * es, false);
  }
done:
  ct_release(hd);
  ct_release(hdbuf);
  ct_release(hs);
  ct_release(hsbuf);
  return st;
}

static ct_status ct__k_copy_(ct_keyset ks, ct_tensor *self, ct_tensor *src, bool non_blocking) {
  ct_status st;
  (void)ks;
  if (self == src) { /* PyTorch's early exit (is_same): nothing to copy, nothing checked */
    ct__bump_version(self);
    return CT_OK;
  }
  if ((st = ct__check_overlap("copy_", self, src)) != CT_OK) return st; /* another view of the same elements is fine */
  st = ct__copy_impl_nb(self, src, non_blocking);
  if (st == CT_OK) ct__bump_version(self);
  return st;
}

/* ---- fill_ ---- */
static void ct__fill_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  const char *value = (const char *)ctx + sizeof(size_t);
  size_t es = *(const size_t *)ctx;
  int64_t i;
  switch (es) { /* a typed store per element size: memcpy per element costs ~5 ns */
  case 8: {
    uint64_t v;
    memcpy(&v, value, 8);
    for (i = 0; i < n; i++) *(uint64_t *)(d[0] + i * s[0]) = v;
    break;
  }
  case 4: {
    uint32_t v;
    memcpy(&v, value, 4);
    for (i = 0; i < n; i++) *(uint32_t *)(d[0] + i * s[0]) = v;
    break;
  }
  case 2: {
    uint16_t v;
    memcpy(&v, value, 2);
    for (i = 0; i < n; i++) *(uint16_t *)(d[0] + i * s[0]) = v;
    break;
  }
  default:
    for (i = 0; i < n; i++) memcpy(d[0] + i * s[0], value, es);
  }
}
static ct_status ct__k_fill_(ct_keyset ks, ct_tensor *self, ct_scalar value) {
  struct {
    size_t es;
    char bytes[8];
  } ctx;
  ct_tensor *ops[1];
  (void)ks;
  if (value.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "fill_", "value is None");
  if (ct__check_scalar("fill_", value, (ct_dtype)self->dtype) != CT_OK) return ct_last_error(); /* full(NaN, int64): refused */
  if (ct__check_writable("fill_", self) != CT_OK) return ct_last_error();
  ct__bump_version(self);
  if (ct__is_meta(self) || self->numel == 0) return CT_OK;
  ctx.es = ct_dtype_size((ct_dtype)self->dtype);
  if (value.kind == CT_SCALAR_INT && self->dtype == CT_I64) memcpy(ctx.bytes, &value.v.i, 8);
  else ct__store_double(ctx.bytes, (ct_dtype)self->dtype, ct_scalar_to_double(value));
  if (self->device.type != CT_DEVICE_CPU) return ct__fill_on_device(self, ctx.bytes);
  ops[0] = self;
  ct_iter_foreach(ct__fill_loop, &ctx, 1, ops, self->ndim, self->sizes);
  return CT_OK;
}

/* ---- typed loops: element loads and stores, and the dtype lists they expand over ---- */
#define CT__LOAD_ID(x) (x)
#define CT__LOAD_F16(x) ct_f16_to_f32(x)
#define CT__LOAD_BF16(x) ct_bf16_to_f32(x)
#define CT__STORE_ID(x) (x)
#define CT__STORE_F16(x) ct_f32_to_f16(x)
#define CT__STORE_BF16(x) ct_f32_to_bf16(x)
/* floating types: T, accumulation type, load/store conversions */
#define CT__FLOAT_TYPES(X)                                     \
  X(f32, float, float, CT__LOAD_ID, CT__STORE_ID)              \
  X(f64, double, double, CT__LOAD_ID, CT__STORE_ID)            \
  X(f16, uint16_t, float, CT__LOAD_F16, CT__STORE_F16)         \
  X(bf16, uint16_t, float, CT__LOAD_BF16, CT__STORE_BF16)
/* integer types: T and its unsigned twin for wrap-around arithmetic */
#define CT__INT_TYPES(X)          \
  X(i64, int64_t, uint64_t)       \
  X(i32, int32_t, uint32_t)       \
  X(u8, uint8_t, uint8_t)

/* A tensor of `dtype` with a's values: a itself when it already is one. */
static ct_tensor *ct__as_dtype(const char *op, ct_tensor *a, ct_dtype dtype, ct__wrapped *w) {
  ct_tensor *c;
  if (a->dtype == dtype) return ct_retain(a);
  if (a->flags & CT_TENSOR_WRAPPED_NUMBER) { /* re-wrap the number in the compute dtype: no heap */
    ct__wrapped tmp = *w;
    ct__store_double(&w->value, dtype, ct__load_double(&tmp.value, (ct_dtype)a->dtype));
    if (a->dtype == CT_I64 && (dtype == CT_I64 || dtype == CT_I32 || dtype == CT_U8)) { /* integers wrap, as static_cast */
      int32_t v32 = (int32_t)(uint32_t)(uint64_t)tmp.value.i;
      uint8_t v8 = (uint8_t)(uint64_t)tmp.value.i;
      w->value.i = tmp.value.i;
      if (dtype == CT_I32) memcpy(&w->value, &v32, sizeof v32);
      if (dtype == CT_U8) memcpy(&w->value, &v8, sizeof v8);
    }
    w->t.dtype = (int8_t)dtype;
    w->t.storage = &w->s;
    w->s.data = &w->value;
    return ct_retain(&w->t);
  }
  c = ct__empty_like(op, a, dtype);
  if (c && ct__copy_impl(c, a) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return c;
}

#define CT__CHECK_T(op, t)                                            \
  do {                                                                \
    if (CT_UNLIKELY(!(t))) return ct__fail_null(op, #t), (ct_tensor *)NULL; \
  } while (0)

/* Strides for viewing (sizes, strides) as new_sizes without copying, or 0
 * if the memory layout does not allow it (PyTorch's computeStride). */
static int ct__view_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t numel, int new_ndim,
                            const int64_t *new_sizes, int64_t *new_strides) {
  int64_t chunk, tensor_numel = 1, view_numel = 1;
  int td, vd = new_ndim - 1;
  if (numel == 0 || ndim == 0) {
    ct__contiguous_strides(new_ndim, new_sizes, new_strides);
    return 1;
  }
  chunk = strides[ndim - 1];
  for (td = ndim - 1; td >= 0; td--) { /* (products of sizes fit: numel does; those with strides are checked) */
    int64_t span;
    tensor_numel *= sizes[td];
    if (td == 0 || (sizes[td - 1] != 1 && (ct__mul_ovf(tensor_numel, chunk, &span) || strides[td - 1] != span))) {
      while (vd >= 0 && (view_numel < tensor_numel || new_sizes[vd] == 1)) {
        if (ct__mul_ovf(view_numel, chunk, &new_strides[vd])) return 0;
        view_numel *= new_sizes[vd];
        vd--;
      }
      if (view_numel != tensor_numel) return 0;
      if (td > 0) {
        chunk = strides[td - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return vd == -1;
}

/* Resolve a requested shape with at most one -1 against numel. */
static int ct__infer_shape(const char *op, int ndim, const int64_t *sizes, int64_t numel, int64_t *out) {
  int i, infer = -1;
  int64_t known = 1;
  char buf[160];
  if (ndim < 0 || ndim > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "rank %d is out of range [0, %d]", ndim, CT_MAX_DIMS), 0;
  if (ndim > 0 && !sizes) return ct__fail_null(op, "sizes"), 0;
  for (i = 0; i < ndim; i++) {
    out[i] = sizes[i];
    if (sizes[i] == -1) {
      if (infer >= 0) return ct_fail(CT_ERR_SHAPE, op, "only one dimension can be inferred"), 0;
      infer = i;
    } else if (sizes[i] < 0) {
      return ct_fail(CT_ERR_SIZE, op, "invalid shape dimension %lld", (long long)sizes[i]), 0;
    } else if (sizes[i] && known > INT64_MAX / sizes[i]) {
      return ct_fail(CT_ERR_SIZE, op, "shape %s overflows", ct_shape_format(ndim, sizes, buf, sizeof buf)), 0;
    } else {
      known *= sizes[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      return ct_fail(CT_ERR_SHAPE, op, "shape '%s' is invalid for input of size %lld",
                     ct_shape_format(ndim, sizes, buf, sizeof buf), (long long)numel),
             0;
    out[infer] = numel / known;
  } else if (known != numel) {
    return ct_fail(CT_ERR_SHAPE, op, "shape '%s' is invalid for input of size %lld",
                   ct_shape_format(ndim, sizes, buf, sizeof buf), (long long)numel),
           0;
  }
  return 1;
}

static ct_tensor *ct__view_impl(ct_tensor *t, int ndim, const int64_t *sizes) {
  static const char *op = "ct_view";
  int64_t shape[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  CT__CHECK_T(op, t);
  if (!ct__infer_shape(op, ndim, sizes, t->numel, shape)) return NULL;
  if (!ct__view_strides(t->ndim, t->sizes, t->strides, t->numel, ndim, shape, strides))
    return ct_fail(CT_ERR_VIEW, op,
                   "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                   "across two contiguous subspaces). Use ct_reshape instead."),
           (ct_tensor *)NULL;
  return ct__track(ct__make_view(t, ndim, shape, strides, t->offset));
}


static ct_tensor *ct__as_strided_impl(ct_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset) {
  static const char *op = "ct_as_strided";
  int64_t numel, last = 0, storage_elems;
  int i;
  char buf[160];
  CT__CHECK_T(op, t);
  numel = ct__checked_numel(op, ndim, sizes, (ct_dtype)t->dtype);
  if (numel < 0) return NULL;
  if (ndim > 0 && !strides) return ct__fail_null(op, "strides"), (ct_tensor *)NULL;
  if (offset < 0) return ct_fail(CT_ERR_VIEW, op, "negative storage offset %lld", (long long)offset), (ct_tensor *)NULL;
  for (i = 0; i < ndim; i++) {
    if (strides[i] < 0)
      return ct_fail(CT_ERR_VIEW, op, "negative stride %lld at dimension %d is not supported", (long long)strides[i], i),
             (ct_tensor *)NULL;
    if (numel && sizes[i] > 1 && strides[i] > (INT64_MAX - last) / (sizes[i] - 1)) {
      char b2[160];
      return ct_fail(CT_ERR_SIZE, op, "Storage size calculation overflowed with sizes=%s and strides=%s",
                     ct_shape_format(ndim, sizes, buf, sizeof buf), ct_shape_format(ndim, strides, b2, sizeof b2)),
             (ct_tensor *)NULL;
    }
    if (numel) last += (sizes[i] - 1) * strides[i];
  }
  storage_elems = (int64_t)(t->storage->nbytes / ct_dtype_size((ct_dtype)t->dtype));
  if (numel && (offset > storage_elems || last >= storage_elems - offset)) /* (an empty view reads nothing: any offset) */
    return ct_fail(CT_ERR_VIEW, op,
                   "setStorage: sizes %s, strides with offset %lld reach element %lld, out of bounds for storage "
                   "of %lld elements",
                   ct_shape_format(ndim, sizes, buf, sizeof buf), (long long)offset,
                   (long long)(offset > INT64_MAX - last ? INT64_MAX : offset + last), (long long)storage_elems),
           (ct_tensor *)NULL;
  return ct__track(ct__make_view(t, ndim, sizes, strides, offset));
}

static ct_tensor *ct__transpose_impl(ct_tensor *t, int64_t dim0, int64_t dim1) {
  static const char *op = "ct_transpose";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], tmp;
  CT__CHECK_T(op, t);
  if ((dim0 = ct__wrap_dim(op, dim0, t->ndim)) < 0 || (dim1 = ct__wrap_dim(op, dim1, t->ndim)) < 0) return NULL;
  memcpy(sizes, t->sizes, sizeof sizes);
  memcpy(strides, t->strides, sizeof strides);
  if (t->ndim > 0) {
    tmp = sizes[dim0], sizes[dim0] = sizes[dim1], sizes[dim1] = tmp;
    tmp = strides[dim0], strides[dim0] = strides[dim1], strides[dim1] = tmp;
  }
  return ct__track(ct__make_view(t, t->ndim, sizes, strides, t->offset));
}

static ct_tensor *ct__t_impl(ct_tensor *t) {
  CT__CHECK_T("ct_t", t);
  if (t->ndim > 2)
    return ct_fail(CT_ERR_RANK, "ct_t", "expects a tensor with <= 2 dimensions, but self is %dD", t->ndim), (ct_tensor *)NULL;
  return ct_transpose(t, 0, t->ndim < 2 ? 0 : 1);
}

static ct_tensor *ct__permute_impl(ct_tensor *t, int ndim, const int64_t *dims) {
  static const char *op = "ct_permute";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int seen[CT_MAX_DIMS] = {0};
  int i;
  CT__CHECK_T(op, t);
  if (ndim != t->ndim)
    return ct_fail(CT_ERR_SHAPE, op, "number of dims don't match in permute (input has %d, dims has %d)", t->ndim, ndim),
           (ct_tensor *)NULL;
  if (ndim > 0 && !dims) return ct__fail_null(op, "dims"), (ct_tensor *)NULL;
  for (i = 0; i < ndim; i++) {
    int64_t d = ct__wrap_dim(op, dims[i], ndim);
    if (d < 0) return NULL;
    if (seen[d]) return ct_fail(CT_ERR_INVALID, op, "repeated dim %lld in permute", (long long)dims[i]), (ct_tensor *)NULL;
    seen[d] = 1;
    sizes[i] = t->sizes[d];
    strides[i] = t->strides[d];
  }
  return ct__track(ct__make_view(t, ndim, sizes, strides, t->offset));
}

static ct_tensor *ct__flatten_impl(ct_tensor *t, int64_t start_dim, int64_t end_dim) {
  static const char *op = "ct_flatten";
  int64_t sizes[CT_MAX_DIMS], n = 1;
  int i, k = 0;
  CT__CHECK_T(op, t);
  if ((start_dim = ct__wrap_dim(op, start_dim, t->ndim)) < 0 || (end_dim = ct__wrap_dim(op, end_dim, t->ndim)) < 0)
    return NULL;
  if (start_dim > end_dim)
    return ct_fail(CT_ERR_INVALID, op, "start_dim cannot come after end_dim"), (ct_tensor *)NULL;
  if (t->ndim == 0) {
    int64_t one = 1;
    return ct_reshape(t, 1, &one);
  }
  for (i = 0; i < start_dim; i++) sizes[k++] = t->sizes[i];
  if (!ct__sizes_product((int)(end_dim - start_dim + 1), t->sizes + start_dim, &n)) {
    char buf[160];
    return ct_fail(CT_ERR_SIZE, op, "flattening dims %lld..%lld of a tensor of size %s: the product of their sizes overflows int64",
                   (long long)start_dim, (long long)end_dim, ct_shape_format(t->ndim, t->sizes, buf, sizeof buf)),
           (ct_tensor *)NULL;
  }
  sizes[k++] = n;
  for (i = (int)end_dim + 1; i < t->ndim; i++) sizes[k++] = t->sizes[i];
  return ct_reshape(t, k, sizes);
}

static ct_tensor *ct__squeeze_dims(ct_tensor *t, int64_t only_dim) {
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int i, k = 0;
  for (i = 0; i < t->ndim; i++) {
    if (t->sizes[i] == 1 && (only_dim < 0 || only_dim == i)) continue;
    sizes[k] = t->sizes[i];
    strides[k++] = t->strides[i];
  }
  return ct__track(ct__make_view(t, k, sizes, strides, t->offset));
}
static ct_tensor *ct__squeeze_impl(ct_tensor *t) {
  CT__CHECK_T("ct_squeeze", t);
  return ct__squeeze_dims(t, -1);
}
static ct_tensor *ct__squeeze_dim_impl(ct_tensor *t, int64_t dim) {
  CT__CHECK_T("ct_squeeze_dim", t);
  if ((dim = ct__wrap_dim("ct_squeeze_dim", dim, t->ndim)) < 0) return NULL;
  return ct__squeeze_dims(t, t->ndim ? dim : -2);
}

static ct_tensor *ct__unsqueeze_impl(ct_tensor *t, int64_t dim) {
  static const char *op = "ct_unsqueeze";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int i, k = 0;
  CT__CHECK_T(op, t);
  if (t->ndim >= CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, op, "result rank %d exceeds CT_MAX_DIMS (%d)", t->ndim + 1, CT_MAX_DIMS), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim + 1)) < 0) return NULL;
  for (i = 0; i <= t->ndim; i++) {
    if (i == dim) {
      sizes[k] = 1;
      strides[k++] = i < t->ndim ? ct__mul_sat(t->sizes[i], t->strides[i]) : 1; /* (a size-1 dim: never addresses memory) */
    }
    if (i < t->ndim) {
      sizes[k] = t->sizes[i];
      strides[k++] = t->strides[i];
    }
  }
  return ct__track(ct__make_view(t, k, sizes, strides, t->offset));
}

static ct_tensor *ct__expand(const char *op, ct_tensor *t, int ndim, const int64_t *sizes, int allow_minus_one) {
  int64_t out_sizes[CT_MAX_DIMS], out_strides[CT_MAX_DIMS];
  int i;
  char b1[160], b2[160];
  CT__CHECK_T(op, t);
  if (ndim < 0 || ndim > CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, op, "rank %d is out of range [0, %d]", ndim, CT_MAX_DIMS), (ct_tensor *)NULL;
  if (ndim > 0 && !sizes) return ct__fail_null(op, "sizes"), (ct_tensor *)NULL;
  if (ndim < t->ndim)
    return ct_fail(CT_ERR_SHAPE, op,
                   "the number of sizes provided (%d) must be greater or equal to the number of dimensions in the "
                   "tensor (%d)",
                   ndim, t->ndim),
           (ct_tensor *)NULL;
  for (i = ndim - 1; i >= 0; i--) {
    int j = i - (ndim - t->ndim);
    int64_t want = sizes[i];
    if (j < 0) {
      if (want < 0)
        return ct_fail(CT_ERR_SHAPE, op, "the expanded size of the tensor (%lld) isn't allowed in a leading, "
                       "non-existing dimension %d", (long long)want, i),
               (ct_tensor *)NULL;
      out_sizes[i] = want;
      out_strides[i] = 0;
      continue;
    }
    if (want == -1 && allow_minus_one) want = t->sizes[j];
    if (want < 0) return ct_fail(CT_ERR_SIZE, op, "invalid size %lld at dimension %d", (long long)want, i), (ct_tensor *)NULL;
    if (t->sizes[j] == want) {
      out_sizes[i] = want;
      out_strides[i] = t->strides[j];
    } else if (t->sizes[j] == 1) {
      out_sizes[i] = want;
      out_strides[i] = 0;
    } else {
      return ct_fail(CT_ERR_SHAPE, op,
                     "the expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton "
                     "dimension %d. Target sizes: %s. Tensor sizes: %s",
                     (long long)want, (long long)t->sizes[j], i, ct_shape_format(ndim, sizes, b1, sizeof b1),
                     ct_shape_format(t->ndim, t->sizes, b2, sizeof b2)),
             (ct_tensor *)NULL;
    }
  }
  if (ct__checked_numel(op, ndim, out_sizes, (ct_dtype)t->dtype) < 0) return NULL;
  return ct__track(ct__make_view(t, ndim, out_sizes, out_strides, t->offset));
}
static ct_tensor *ct__expand_impl(ct_tensor *t, int ndim, const int64_t *sizes) { return ct__expand("ct_expand", t, ndim, sizes, 1); }

static ct_tensor *ct__slice_impl(ct_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step) {
  static const char *op = "ct_slice";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], n, off;
  CT__CHECK_T(op, t);
  if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "slice() cannot be applied to a 0-dim tensor"), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim)) < 0) return NULL;
  if (step <= 0) return ct_fail(CT_ERR_INVALID, op, "slice step must be positive (got %lld)", (long long)step), (ct_tensor *)NULL;
  n = t->sizes[dim];
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = start < 0 ? 0 : start > n ? n : start;
  end = end < start ? start : end > n ? n : end;
  memcpy(sizes, t->sizes, sizeof sizes);
  memcpy(strides, t->strides, sizeof strides);
  sizes[dim] = end > start ? (end - start - 1) / step + 1 : 0; /* no overflow for huge steps */
  /* the new stride fits unless the slice has at most one element (then it addresses nothing); the offset is checked */
  strides[dim] = ct__mul_sat(t->strides[dim], step);
  if (ct__mul_ovf(start, t->strides[dim], &off) || ct__add_ovf(t->offset, off, &off))
    return ct_fail(CT_ERR_SIZE, op, "storage offset %lld + start %lld * stride %lld overflows int64", (long long)t->offset,
                   (long long)start, (long long)t->strides[dim]),
           (ct_tensor *)NULL;
  return ct__track(ct__make_view(t, t->ndim, sizes, strides, off));
}

static ct_tensor *ct__narrow_impl(ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  static const char *op = "ct_narrow";
  int64_t n;
  CT__CHECK_T(op, t);
  if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "narrow() cannot be applied to a 0-dim tensor"), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim)) < 0) return NULL;
  n = t->sizes[dim];
  if (start < -n || start > n)
    return ct_fail(CT_ERR_INDEX, op, "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                   (long long)-n, (long long)n, (long long)start),
           (ct_tensor *)NULL;
  if (start < 0) start += n;
  if (length < 0) return ct_fail(CT_ERR_INDEX, op, "length must be non-negative (got %lld)", (long long)length), (ct_tensor *)NULL;
  if (start > n - length)
    return ct_fail(CT_ERR_INDEX, op, "start (%lld) + length (%lld) exceeds dimension size (%lld)", (long long)start,
                   (long long)length, (long long)n),
           (ct_tensor *)NULL;
  return ct_slice(t, dim, start, start + length, 1);
}

static ct_tensor *ct__select_impl(ct_tensor *t, int64_t dim, int64_t index) {
  static const char *op = "ct_select";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], n, off;
  int i, k = 0;
  char buf[160];
  CT__CHECK_T(op, t);
  if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "select() cannot be applied to a 0-dim tensor"), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim)) < 0) return NULL;
  n = t->sizes[dim];
  if (index < -n || index >= n)
    return ct_fail(CT_ERR_INDEX, op, "index %lld out of range for tensor of size %s at dimension %lld", (long long)index,
                   ct_shape_format(t->ndim, t->sizes, buf, sizeof buf), (long long)dim),
           (ct_tensor *)NULL;
  if (index < 0) index += n;
  for (i = 0; i < t->ndim; i++) {
    if (i == dim) continue;
    sizes[k] = t->sizes[i];
    strides[k++] = t->strides[i];
  }
  if (ct__mul_ovf(index, t->strides[dim], &off) || ct__add_ovf(t->offset, off, &off))
    return ct_fail(CT_ERR_SIZE, op, "storage offset %lld + index %lld * stride %lld overflows int64", (long long)t->offset,
                   (long long)index, (long long)t->strides[dim]),
           (ct_tensor *)NULL;
  return ct__track(ct__make_view(t, k, sizes, strides, off));
}

/* The diagonal of dims dim1 and dim2 (offset above (> 0) or below the main
 * one) as a view: those dims go, the diagonal comes last with stride
 * stride[dim1] + stride[dim2]. An empty diagonal keeps self's offset (the
 * shifted one may lie outside the storage). */
static ct_tensor *ct__diagonal_impl(ct_tensor *t, int64_t offset, int64_t dim1, int64_t dim2) {
  static const char *op = "ct_diagonal";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], n, off, step;
  int i, k = 0;
  CT__CHECK_T(op, t);
  if ((dim1 = ct__wrap_dim(op, dim1, t->ndim)) < 0 || (dim2 = ct__wrap_dim(op, dim2, t->ndim)) < 0) return NULL;
  if (dim1 == dim2)
    return ct_fail(CT_ERR_INVALID, op, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1, (long long)dim2),
           (ct_tensor *)NULL;
  if (offset >= 0) n = t->sizes[dim2] - offset < t->sizes[dim1] ? t->sizes[dim2] - offset : t->sizes[dim1];
  else n = t->sizes[dim1] + offset < t->sizes[dim2] ? t->sizes[dim1] + offset : t->sizes[dim2];
  if (n < 0) n = 0; /* (an offset beyond either size) */
  off = t->offset;
  if (n > 0 && (ct__mul_ovf(offset >= 0 ? offset : -offset, t->strides[offset >= 0 ? dim2 : dim1], &step) ||
                ct__add_ovf(off, step, &off)))
    return ct_fail(CT_ERR_SIZE, op, "diagonal offset %lld overflows the storage offset", (long long)offset), (ct_tensor *)NULL;
  for (i = 0; i < t->ndim; i++) {
    if (i == dim1 || i == dim2) continue;
    sizes[k] = t->sizes[i];
    strides[k++] = t->strides[i];
  }
  sizes[k] = n;
  if (ct__add_ovf(t->strides[dim1], t->strides[dim2], &strides[k])) strides[k] = t->strides[dim1] < 0 ? INT64_MIN : INT64_MAX;
  k++;
  return ct__track(ct__make_view(t, k, sizes, strides, off));
}

static ct_tensor *ct__alias_impl(ct_tensor *t) {
  CT__CHECK_T("ct_alias", t);
  return ct__track(ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset));
}


/* ---- view kernels (CompositeExplicitAutograd): metadata only (the geometry above); every result
 * but detach's is linked to its base (ct__as_view) ---- */
static int ct__list_rank(ct_int_list l) { return l.n < 0 ? 0 : l.n > 64 ? 64 : (int)l.n; } /* >8 fails in the impls */
static ct_tensor *ct__k_view(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  (void)ks;
  return ct__as_view(self, ct__view_impl(self, ct__list_rank(size), size.data));
}
static ct_tensor *ct__k_transpose(ct_keyset ks, ct_tensor *self, int64_t dim0, int64_t dim1) {
  (void)ks;
  return ct__as_view(self, ct__transpose_impl(self, dim0, dim1));
}
static ct_tensor *ct__k_t(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__t_impl(self); /* ct_transpose: already a view of self */
}
static ct_tensor *ct__k_permute(ct_keyset ks, ct_tensor *self, ct_int_list dims) {
  (void)ks;
  return ct__as_view(self, ct__permute_impl(self, ct__list_rank(dims), dims.data));
}
static ct_tensor *ct__k_expand(ct_keyset ks, ct_tensor *self, ct_int_list size, bool implicit) {
  (void)ks;
  (void)implicit;
  return ct__as_view(self, ct__expand_impl(self, ct__list_rank(size), size.data));
}
static ct_tensor *ct__k_unsqueeze(ct_keyset ks, ct_tensor *self, int64_t dim) {
  (void)ks;
  return ct__as_view(self, ct__unsqueeze_impl(self, dim));
}
static ct_tensor *ct__k_squeeze(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__as_view(self, ct__squeeze_impl(self));
}
static ct_tensor *ct__k_squeeze_dim(ct_keyset ks, ct_tensor *self, int64_t dim) {
  (void)ks;
  return ct__as_view(self, ct__squeeze_dim_impl(self, dim));
}
static ct_tensor *ct__k_select(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t index) {
  (void)ks;
  return ct__as_view(self, ct__select_impl(self, dim, index));
}
static ct_tensor *ct__k_slice(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t end, int64_t step) {
  (void)ks;
  if (start == CT_INT_NONE) start = 0;
  if (end == CT_INT_NONE) end = INT64_MAX;
  return ct__as_view(self, ct__slice_impl(self, dim, start, end, step));
}
static ct_tensor *ct__k_as_strided(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_int_list stride, int64_t offset) {
  (void)ks;
  if (size.n != stride.n)
    return ct_fail(CT_ERR_SHAPE, "ct_as_strided", "mismatch in length of strides and shape (%lld vs %lld)", (long long)stride.n,
                   (long long)size.n),
           (ct_tensor *)NULL;
  return ct__as_view(self, ct__as_strided_impl(self, ct__list_rank(size), size.data, stride.data, offset));
}
static ct_tensor *ct__k_diagonal(ct_keyset ks, ct_tensor *self, int64_t offset, int64_t dim1, int64_t dim2) {
  (void)ks;
  return ct__as_view(self, ct__diagonal_impl(self, offset, dim1, dim2));
}
static ct_tensor *ct__k_alias(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__as_view(self, ct__alias_impl(self));
}
static ct_tensor *ct__k_detach(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__alias_impl(self); /* views start outside the graph; detach's autograd kernel records nothing */
}

/* ct_to_array (tensor.h): the values out through the dispatched copy_, which converts and moves between devices */
CTDEF ct_status ct_to_array(const ct_tensor *t, ct_dtype dtype, void *dst) {
  ct_tensor *view;
  ct_status st;
  if (!t) return ct__fail_null("ct_to_array", "t");
  if (!dst) return ct__fail_null("ct_to_array", "dst");
  if (!ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, "ct_to_array", "invalid dtype %d", (int)dtype);
  view = ct__from_blob(dst, t->ndim, t->sizes, NULL, dtype, NULL, NULL);
  if (!view) return ct_last_error();
  st = CT_OK;
  CT_NO_GRAD { st = ct_copy_(view, (ct_tensor *)t); } /* reading values out is not an op on the graph */
  ct_release(view);
  return st;
}


/* ---- copies ---- */
static ct_tensor *ct__copy_as(const char *op, ct_tensor *self, ct_dtype dtype) {
  ct_tensor *c = ct__empty_like(op, self, dtype);
  if (c && !ct__is_meta(c) && ct__copy_impl(c, self) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return c;
}
/* ---- host staging ----
 * Composites and derivative formulas that compute something element by
 * element on the host (tie weights, masks, the linear index of advanced
 * indexing) run on any device through these two: the operand comes to the
 * CPU (itself when already there or on meta, else a copy), and the result,
 * made on the CPU, goes to the operands' device. Backend kernels never need
 * them: the dispatcher hands those tensors of their own device (the CPU
 * fallback hands the CPU kernels host copies). */
static ct_tensor *ct__host_operand(const char *op, ct_tensor *t) { /* a new reference */
  ct_tensor *c;
  if (!t || t->device.type == CT_DEVICE_CPU || ct__is_meta(t)) return ct_retain(t);
  c = ct__empty(op, t->ndim, t->sizes, (ct_dtype)t->dtype, CT_CPU);
  if (c && ct__copy_impl(c, t) != CT_OK) ct_release(c), c = NULL;
  return c;
}
/* r (owned) on dev: r itself when already there (or on meta), else a copy; r is released */
static ct_tensor *ct__host_result(const char *op, ct_tensor *r, ct_device dev) {
  ct_tensor *c;
  if (!r || ct_device_eq(r->device, dev) || ct__is_meta(r)) return r;
  c = ct__empty(op, r->ndim, r->sizes, (ct_dtype)r->dtype, dev);
  if (c && ct__copy_impl(c, r) != CT_OK) ct_release(c), c = NULL;
  ct_release(r);
  return c;
}
/* The engines with a loop per device type (ops/pointwise.h, ops/reduce.h,
 * ops/shape.h's index loop, ops/random.h's random loop); the generated table
 * of their kernels names them. */
enum { CT__ENGINE_POINTWISE, CT__ENGINE_REDUCTION, CT__ENGINE_INDEX, CT__ENGINE_RANDOM };

/* A device loop's call run on the host (ct_pointwise_on_host,
 * ct_reduction_on_host): the device memory the operands reach is mirrored
 * on the host one span per storage, so operands that share memory share it
 * there too and the host loop computes exactly what it computes on the CPU;
 * then the spans of the written storages go back. Synchronous (through
 * ct_device_memcpy). CPU operands (0-dim values) are used as they are. */
#define CT__STAGE_MAX 6
typedef struct ct__staging {
  int n;
  ct_device device;
  struct {
    ct_storage *storage;
    int64_t lo, hi; /* bytes of the storage */
    char *host;
  } spans[CT__STAGE_MAX];
} ct__staging;
static void ct__span_of(const ct_tensor *t, int64_t *lo, int64_t *hi) {
  int64_t es = (int64_t)ct_dtype_size((ct_dtype)t->dtype), first = t->offset, last;
  int d;
  last = first;
  for (d = 0; d < t->ndim; d++) {
    if (t->strides[d] >= 0) last += (t->sizes[d] - 1) * t->strides[d];
    else first += (t->sizes[d] - 1) * t->strides[d];
  }
  *lo = first * es;
  *hi = (last + 1) * es;
}
/* hops[i]: a host view of ops[i] with its geometry (ops[i] itself, retained,
 * when it is NULL, empty or on the CPU). ct__stage_free releases them. */
static ct_status ct__stage_in(const char *op, ct__staging *s, int nops, ct_tensor *const *ops, ct_tensor **hops) {
  int i, k;
  ct_status st = CT_OK;
  memset(s, 0, sizeof *s);
  for (i = 0; i < nops; i++) hops[i] = NULL; /* (ct__stage_free releases them whatever fails below) */
  for (i = 0; i < nops; i++) { /* one span per storage, covering every operand on it */
    int64_t lo, hi;
    if (!ops[i] || ops[i]->device.type == CT_DEVICE_CPU || ops[i]->numel == 0) continue;
    s->device = ops[i]->device;
    ct__span_of(ops[i], &lo, &hi);
    for (k = 0; k < s->n && s->spans[k].storage != ops[i]->storage; k++) {
    }
    if (k == s->n) {
      if (k == CT__STAGE_MAX) return ct_fail(CT_ERR_STATE, op, "more than %d storages to stage", CT__STAGE_MAX);
      s->spans[k].storage = ops[i]->storage, s->spans[k].lo = lo, s->spans[k].hi = hi;
      s->n++;
    } else {
      if (lo < s->spans[k].lo) s->spans[k].lo = lo;
      if (hi > s->spans[k].hi) s->spans[k].hi = hi;
    }
  }
  for (k = 0; k < s->n && st == CT_OK; k++) {
    size_t len = (size_t)(s->spans[k].hi - s->spans[k].lo);
    if (!(s->spans[k].host = (char *)ct__workspace(len)))
      st = ct_fail(CT_ERR_OOM, op, "out of memory staging %zu bytes on the host", len);
    else
      st = ct_device_memcpy(s->spans[k].host, CT_CPU, (char *)s->spans[k].storage->data + s->spans[k].lo, s->device, len, false);
  }
  for (i = 0; i < nops && st == CT_OK; i++) { /* host views with the operands' geometry */
    int64_t es;
    if (!ops[i] || ops[i]->device.type == CT_DEVICE_CPU || ops[i]->numel == 0) {
      hops[i] = ct_retain(ops[i]);
      continue;
    }
    es = (int64_t)ct_dtype_size((ct_dtype)ops[i]->dtype);
    for (k = 0; s->spans[k].storage != ops[i]->storage; k++) {
    }
    if (!(hops[i] = ct__from_blob(s->spans[k].host + (ops[i]->offset * es - s->spans[k].lo), ops[i]->ndim, ops[i]->sizes,
                                  ops[i]->strides, (ct_dtype)ops[i]->dtype, NULL, NULL)))
      st = ct_last_error();
  }
  return st;
}
/* the spans of the storages of outs[0..nouts) go back to the device */
static ct_status ct__stage_out(ct__staging *s, int nouts, ct_tensor *const *outs) {
  ct_status st = CT_OK;
  int i, k;
  for (k = 0; k < s->n && st == CT_OK; k++)
    for (i = 0; i < nouts; i++)
      if (outs[i] && s->spans[k].storage == outs[i]->storage) {
        st = ct_device_memcpy((char *)s->spans[k].storage->data + s->spans[k].lo, s->device, s->spans[k].host, CT_CPU,
                              (size_t)(s->spans[k].hi - s->spans[k].lo), false);
        break;
      }
  return st;
}
static void ct__stage_free(ct__staging *s, int nops, ct_tensor **hops) {
  int i, k;
  for (i = 0; i < nops; i++) ct_release(hops[i]), hops[i] = NULL;
  for (k = 0; k < s->n; k++) ct__workspace_free(s->spans[k].host), s->spans[k].host = NULL;
}
/* Where host-made results of a helper go: the operand's device, the CPU for meta (callers skip data there) */
static ct_device ct__host_device(const ct_tensor *t) { return ct__is_meta(t) ? t->device : CT_CPU; }

static ct_tensor *ct__k_clone(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__copy_as("ct_clone", self, (ct_dtype)self->dtype);
}
/* The factories' kernels: ctorch/ops/factory.h. Composites allocate by
 * redispatching empty with the call's keys (BackendSelect has chosen the
 * backend already), as c10's composites call at::_ops::empty::redispatch. */
static ct_tensor *ct__dispatch_empty_memory_format(ct_keyset ks, ct_int_list size, ct_dtype dtype, ct_device device,
                                                   bool pin_memory); /* generated */
/* A factory's result, filled by in-place or out= ops on its fresh storage:
 * version 0, as PyTorch's factories return. */
static ct_tensor *ct__factory_made(ct_tensor *t) {
  if (t) t->storage->version = 0;
  return t;
}
/* The composites over an out= form: an empty [0] tensor on the device (None:
 * the default device, for a direct call; BackendSelect resolves it), then
 * the out= op's status decides (t released on failure). */
static ct_tensor *ct__factory_empty_for_out(ct_keyset ks, ct_dtype dtype, ct_device device) {
  int64_t zero = 0;
  ct_int_list size;
  if (ct_device_is_none(device)) device = ct_default_device();
  size.data = &zero, size.n = 1;
  return ct__dispatch_empty_memory_format(ks, size, dtype, device, false);
}
static ct_tensor *ct__factory_finish(ct_tensor *t, ct_status st) {
  if (t && st != CT_OK) ct_release(t), t = NULL;
  return ct__factory_made(t);
}

/* _to_copy: the one op that converts and moves (to.dtype and to.device are
 * composites over it, so autograd sees one node, as in PyTorch). The copy is
 * the dispatched copy_, below autograd here: between devices it is the
 * destination's or source's backend that moves the bytes. */
static ct_tensor *ct__k_to_copy(ct_keyset ks, ct_tensor *self, ct_dtype dtype, ct_device device, bool non_blocking) {
  static const char *op = "_to_copy";
  ct_tensor *c;
  (void)ks;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  if (ct_device_is_none(device)) device = self->device; /* (ct__empty checks the device) */
  if (dtype == CT_DTYPE_NONE) dtype = (ct_dtype)self->dtype;
  if (non_blocking && device.type == CT_DEVICE_CPU && self->device.type != CT_DEVICE_CPU &&
      ct__host_offered((ct_device_type)self->device.type)) /* device to host: into pinned memory, as PyTorch */
    c = ct__empty_pinned(op, self->ndim, self->sizes, dtype, ct_device_make((ct_device_type)self->device.type, 0));
  else
    c = ct__empty(op, self->ndim, self->sizes, dtype, device);
  if (c && ct_copy_ex_(c, self, non_blocking) != CT_OK) ct_release(c), c = NULL;
  return c;
}
/* pin_memory: self when already pinned (by device's type, if given), else _pin_memory */
static ct_tensor *ct__k_pin_memory(ct_keyset ks, ct_tensor *self, ct_device device) {
  (void)ks;
  if (ct_is_pinned(self) && (ct_device_is_none(device) || self->storage->pinned_by == device.type)) return ct_retain(self);
  return ct_pinned_copy_ex(self, device);
}
/* _pin_memory: a contiguous copy of a CPU tensor in pinned memory */
static ct_tensor *ct__k_pinned_copy(ct_keyset ks, ct_tensor *self, ct_device device) {
  static const char *op = "_pin_memory";
  ct_tensor *c;
  (void)ks;
  if (self->device.type != CT_DEVICE_CPU)
    return ct_fail(CT_ERR_DEVICE, op, "cannot pin a tensor on %s:%d: only dense CPU tensors can be pinned",
                   ct_device_type_name((ct_device_type)self->device.type), self->device.index),
           (ct_tensor *)NULL;
  c = ct__empty_pinned(op, self->ndim, self->sizes, (ct_dtype)self->dtype, device);
  return c ? ct__factory_finish(c, ct_copy_(c, self)) : NULL;
}
static ct_tensor *ct__k_to_device(ct_keyset ks, ct_tensor *self, ct_device device, ct_dtype dtype, bool non_blocking, bool copy) {
  (void)ks;
  if (ct_device_is_none(device)) device = self->device;
  if (!copy && ct_device_eq(self->device, device) && (dtype == CT_DTYPE_NONE || dtype == (ct_dtype)self->dtype)) return ct_retain(self);
  return ct_to_copy_ex(self, dtype, device, non_blocking);
}

/* ---- select/slice backward: zeros with the gradient in the selected part ---- */
static ct_tensor *ct__zeros_in(const char *op, ct_tensor *like, ct_int_list sizes) {
  ct_tensor *z;
  if (sizes.n < 0 || sizes.n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "input_sizes has rank %lld", (long long)sizes.n), (ct_tensor *)NULL;
  z = ct__empty(op, (int)sizes.n, sizes.data, (ct_dtype)like->dtype, like->device);
  if (z && ct_fill_(z, ct_int(0)) != CT_OK) ct_release(z), z = NULL; /* dispatched: these kernels serve every device */
  return z;
}
static ct_tensor *ct__scatter_into(ct_tensor *z, ct_tensor *part, ct_tensor *grad) {
  ct_status st = part ? ct__copy_impl(part, grad) : ct_last_error();
  ct_release(part);
  if (st != CT_OK) ct_release(z), z = NULL;
  return z;
}
static ct_tensor *ct__k_select_backward(ct_keyset ks, ct_tensor *grad, ct_int_list input_sizes, int64_t dim, int64_t index) {
  ct_tensor *z = ct__zeros_in("select_backward", grad, input_sizes);
  (void)ks;
  return z ? ct__scatter_into(z, ct__select_impl(z, dim, index), grad) : NULL;
}
static ct_tensor *ct__k_slice_backward(ct_keyset ks, ct_tensor *grad, ct_int_list input_sizes, int64_t dim, int64_t start,
                                       int64_t end, int64_t step) {
  ct_tensor *z = ct__zeros_in("slice_backward", grad, input_sizes);
  (void)ks;
  return z ? ct__scatter_into(z, ct__slice_impl(z, dim, start, end, step), grad) : NULL;
}

static ct_tensor *ct__k_diagonal_backward(ct_keyset ks, ct_tensor *grad, ct_int_list input_sizes, int64_t offset, int64_t dim1,
                                          int64_t dim2) {
  ct_tensor *z = ct__zeros_in("diagonal_backward", grad, input_sizes);
  (void)ks;
  return z ? ct__scatter_into(z, ct__diagonal_impl(z, offset, dim1, dim2), grad) : NULL;
}

/* ---- select_scatter, slice_scatter, diagonal_scatter, diag_embed: src written into one view of
 * a new tensor (a copy of self, or zeros). src must have the view's shape exactly (no broadcast). ---- */
static ct_tensor *ct__write_part(const char *op, ct_tensor *r, ct_tensor *part, ct_tensor *src) {
  char b1[160], b2[160];
  if (part && !ct_same_shape(part, src)) {
    ct_fail(CT_ERR_SHAPE, op, "expected src to have a size equal to the slice of self. src size = %s, slice size = %s",
            ct_shape_format(src->ndim, src->sizes, b1, sizeof b1), ct_shape_format(part->ndim, part->sizes, b2, sizeof b2));
    ct_release(part);
    part = NULL;
  }
  return r ? ct__scatter_into(r, part, src) : (ct_release(part), (ct_tensor *)NULL);
}
static ct_tensor *ct__k_select_scatter(ct_keyset ks, ct_tensor *self, ct_tensor *src, int64_t dim, int64_t index) {
  ct_tensor *r = ct__copy_as("select_scatter", self, (ct_dtype)self->dtype);
  (void)ks;
  return r ? ct__write_part("select_scatter", r, ct__select_impl(r, dim, index), src) : NULL;
}
static ct_tensor *ct__k_slice_scatter(ct_keyset ks, ct_tensor *self, ct_tensor *src, int64_t dim, int64_t start, int64_t end,
                                      int64_t step) {
  ct_tensor *r = ct__copy_as("slice_scatter", self, (ct_dtype)self->dtype);
  (void)ks;
  if (start == CT_INT_NONE) start = 0;
  if (end == CT_INT_NONE) end = INT64_MAX;
  return r ? ct__write_part("slice_scatter", r, ct__slice_impl(r, dim, start, end, step), src) : NULL;
}
static ct_tensor *ct__k_diagonal_scatter(ct_keyset ks, ct_tensor *self, ct_tensor *src, int64_t offset, int64_t dim1, int64_t dim2) {
  ct_tensor *r = ct__copy_as("diagonal_scatter", self, (ct_dtype)self->dtype);
  (void)ks;
  return r ? ct__write_part("diagonal_scatter", r, ct__diagonal_impl(r, offset, dim1, dim2), src) : NULL;
}
static ct_tensor *ct__k_diag_embed(ct_keyset ks, ct_tensor *self, int64_t offset, int64_t dim1, int64_t dim2) {
  static const char *op = "diag_embed";
  int64_t shape[CT_MAX_DIMS], n;
  int nd = self->ndim + 1, i, k = 0;
  ct_int_list sizes;
  ct_tensor *z;
  (void)ks;
  if (self->ndim == 0) return ct_fail(CT_ERR_INDEX, op, "diag_embed needs at least one dim (got a 0-dim tensor)"), (ct_tensor *)NULL;
  if (nd > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "the result would have %d dims (at most %d)", nd, CT_MAX_DIMS), (ct_tensor *)NULL;
  if ((dim1 = ct__wrap_dim(op, dim1, nd)) < 0 || (dim2 = ct__wrap_dim(op, dim2, nd)) < 0) return NULL;
  if (dim1 == dim2)
    return ct_fail(CT_ERR_INVALID, op, "diagonal dimensions cannot be identical %lld, %lld", (long long)dim1, (long long)dim2),
           (ct_tensor *)NULL;
  if (offset == INT64_MIN || ct__add_ovf(self->sizes[self->ndim - 1], offset < 0 ? -offset : offset, &n))
    return ct_fail(CT_ERR_SIZE, op, "offset %lld is too large", (long long)offset), (ct_tensor *)NULL;
  for (i = 0; i < nd; i++) shape[i] = i == dim1 || i == dim2 ? n : self->sizes[k++];
  sizes.data = shape, sizes.n = nd;
  z = ct__zeros_in(op, self, sizes);
  return z ? ct__write_part(op, z, ct__diagonal_impl(z, offset, dim1, dim2), self) : NULL;
}
static ct_status ct__k_select_scatter_out(ct_keyset ks, ct_tensor *self, ct_tensor *src, int64_t dim, int64_t index, ct_tensor *out) {
  return ct__result_to_out("select_scatter", out, ct__k_select_scatter(ks, self, src, dim, index));
}
static ct_status ct__k_slice_scatter_out(ct_keyset ks, ct_tensor *self, ct_tensor *src, int64_t dim, int64_t start, int64_t end,
                                         int64_t step, ct_tensor *out) {
  return ct__result_to_out("slice_scatter", out, ct__k_slice_scatter(ks, self, src, dim, start, end, step));
}
static ct_status ct__k_diagonal_scatter_out(ct_keyset ks, ct_tensor *self, ct_tensor *src, int64_t offset, int64_t dim1, int64_t dim2,
                                            ct_tensor *out) {
  return ct__result_to_out("diagonal_scatter", out, ct__k_diagonal_scatter(ks, self, src, offset, dim1, dim2));
}
static ct_status ct__k_diag_embed_out(ct_keyset ks, ct_tensor *self, int64_t offset, int64_t dim1, int64_t dim2, ct_tensor *out) {
  return ct__result_to_out("diag_embed", out, ct__k_diag_embed(ks, self, offset, dim1, dim2));
}

/* ================= composite kernels (CompositeImplicitAutograd) =================
 * They call other ops through their frontends, so autograd records those
 * ops and these need no formula. They run below the caller's level: their
 * temporaries live in a local scope, and ct_keep hands the result back. */
static ct_tensor *ct__k_reshape(ct_keyset ks, ct_tensor *self, ct_int_list shape) {
  int64_t sh[CT_MAX_DIMS], st[CT_MAX_DIMS];
  int n = ct__list_rank(shape);
  ct_tensor *r = NULL;
  (void)ks;
  if (!ct__infer_shape("ct_reshape", n, shape.data, self->numel, sh)) return NULL;
  if (ct__view_strides(self->ndim, self->sizes, self->strides, self->numel, n, sh, st)) return ct_view(self, n, sh);
  CT_SCOPE { r = ct_keep(ct_view(ct_clone(self), n, sh)); }
  return r;
}
/* meshgrid: each tensor viewed along its own dim and expanded to every tensor's length ("xy":
 * the first two tensors' dims swapped, as numpy's) */
static int64_t ct__meshgrid(ct_tensor_list tensors, const char *indexing, int64_t cap, ct_tensor **out) {
  static const char *op = "meshgrid";
  int64_t shape[CT_MAX_DIMS], n = tensors.n < 0 ? 0 : tensors.n, i;
  int swap;
  char buf[160];
  if (n == 0) return ct_fail(CT_ERR_INVALID, op, "meshgrid expects a non-empty TensorList"), (int64_t)-1;
  if (indexing && strcmp(indexing, "ij") && strcmp(indexing, "xy"))
    return ct_fail(CT_ERR_INVALID, op, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", indexing), (int64_t)-1;
  for (i = 0; i < n; i++) {
    const ct_tensor *t = tensors.data[i];
    if (!t) return ct_fail(CT_ERR_NULL, op, "tensor %lld is NULL", (long long)i), (int64_t)-1;
    if (t->ndim > 1)
      return ct_fail(CT_ERR_RANK, op, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor of shape %s",
                     ct_shape_format(t->ndim, t->sizes, buf, sizeof buf)),
             (int64_t)-1;
    if (t->dtype != tensors.data[0]->dtype) return ct_fail(CT_ERR_DTYPE, op, "meshgrid expects all tensors to have the same dtype"), (int64_t)-1;
    if (!ct_device_eq(t->device, tensors.data[0]->device))
      return ct_fail(CT_ERR_DEVICE, op, "meshgrid expects all tensors to have the same device"), (int64_t)-1;
  }
  if (n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "meshgrid of %lld tensors: at most %d", (long long)n, CT_MAX_DIMS), (int64_t)-1;
  if (!out) return n;
  if (cap < n) return ct_fail(CT_ERR_INVALID, op, "out has room for %lld tensors, meshgrid returns %lld", (long long)cap, (long long)n), (int64_t)-1;
  swap = indexing && !strcmp(indexing, "xy") && n >= 2;
  for (i = 0; i < n; i++) shape[swap && i < 2 ? 1 - i : i] = tensors.data[i]->numel;
  for (i = 0; i < n; i++) out[i] = NULL;
  CT_SCOPE {
    for (i = 0; i < n; i++) {
      int64_t vshape[CT_MAX_DIMS], k, at = swap && i < 2 ? 1 - i : i;
      for (k = 0; k < n; k++) vshape[k] = k == at ? shape[at] : 1;
      out[i] = ct_keep(ct_expand(ct_view(tensors.data[i], (int)n, vshape), (int)n, shape));
      if (!out[i]) break;
    }
  }
  if (i < n) {
    for (i = 0; i < n; i++) ct_release(out[i]), out[i] = NULL;
    return -1;
  }
  return n;
}
static int64_t ct__k_meshgrid(ct_keyset ks, ct_tensor_list tensors, int64_t cap, ct_tensor **out) {
  (void)ks;
  return ct__meshgrid(tensors, NULL, cap, out);
}
static int64_t ct__k_meshgrid_indexing(ct_keyset ks, ct_tensor_list tensors, const char *indexing, int64_t cap, ct_tensor **out) {
  (void)ks;
  if (!indexing) return ct_fail(CT_ERR_INVALID, "meshgrid", "indexing is None"), (int64_t)-1;
  return ct__meshgrid(tensors, indexing, cap, out);
}
/* cartesian_prod: the meshgrid's grids flattened, stacked as columns */
static ct_tensor *ct__k_cartesian_prod(ct_keyset ks, ct_tensor_list tensors) {
  ct_tensor *grids[CT_MAX_DIMS], *r = NULL;
  int64_t i, n = tensors.n < 0 ? 0 : tensors.n;
  char buf[160];
  (void)ks;
  for (i = 0; i < n; i++)
    if (tensors.data[i] && tensors.data[i]->ndim != 1)
      return ct_fail(CT_ERR_RANK, "cartesian_prod", "Expect a 1D vector, but got shape %s",
                     ct_shape_format(tensors.data[i]->ndim, tensors.data[i]->sizes, buf, sizeof buf)),
             (ct_tensor *)NULL;
  if (n == 1 && tensors.data[0]) return ct_retain(tensors.data[0]);
  if (ct__meshgrid(tensors, "ij", CT_MAX_DIMS, grids) < 0) return NULL;
  CT_SCOPE {
    for (i = 0; i < n; i++) grids[i] = ct_flatten(ct__track(grids[i]), 0, -1);
    r = ct_keep(ct_stack_tensors((int)n, grids, 1));
  }
  return r;
}

/* diag: a vector's diag_embed, or a copy of a matrix's diagonal */
static ct_tensor *ct__k_diag(ct_keyset ks, ct_tensor *self, int64_t diagonal) {
  ct_tensor *r = NULL;
  (void)ks;
  if (self->ndim == 1) return ct_diag_embed(self, diagonal, 0, 1);
  if (self->ndim != 2) return ct_fail(CT_ERR_RANK, "ct_diag", "matrix or a vector expected (got %d dims)", self->ndim), (ct_tensor *)NULL;
  CT_SCOPE { r = ct_keep(ct_clone(ct_diagonal(self, diagonal, 0, 1))); }
  return r;
}
static ct_status ct__k_diag_out(ct_keyset ks, ct_tensor *self, int64_t diagonal, ct_tensor *out) {
  ct_status st = CT_OK;
  (void)ks;
  if (self->ndim == 1) return ct_diag_embed_out(out, self, diagonal, 0, 1);
  if (self->ndim != 2) return ct_fail(CT_ERR_RANK, "ct_diag", "matrix or a vector expected (got %d dims)", self->ndim);
  CT_SCOPE { st = ct__result_to_out("diag", out, ct_retain(ct_diagonal(self, diagonal, 0, 1))); }
  return st;
}
static ct_status ct__trace_check(const ct_tensor *self) {
  if (self->ndim != 2) return ct_fail(CT_ERR_RANK, "ct_trace", "trace: expected a matrix, but got tensor with dim %d", self->ndim);
  if (self->dtype == CT_BOOL) return ct_fail(CT_ERR_DTYPE, "ct_trace", "\"trace\" not implemented for 'Bool'");
  return CT_OK;
}
static ct_tensor *ct__k_trace(ct_keyset ks, ct_tensor *self) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__trace_check(self) != CT_OK) return NULL;
  CT_SCOPE { r = ct_keep(ct_sum(ct_diagonal(self, 0, 0, 1))); }
  return r;
}
static ct_status ct__k_trace_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct_status st = CT_OK;
  (void)ks;
  if (ct__trace_check(self) != CT_OK) return ct_last_error();
  CT_SCOPE { st = ct_sum_all_out(out, ct_diagonal(self, 0, 0, 1)); }
  return st;
}
static ct_tensor *ct__k_flatten(ct_keyset ks, ct_tensor *self, int64_t start_dim, int64_t end_dim) {
  (void)ks;
  return ct__flatten_impl(self, start_dim, end_dim);
}
static ct_tensor *ct__k_narrow(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t length) {
  (void)ks;
  return ct__narrow_impl(self, dim, start, length);
}
static ct_tensor *ct__k_narrow_tensor(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *start, int64_t length) {
  int64_t s;
  (void)ks;
  if (start->ndim != 0 || !ct_dtype_is_integral((ct_dtype)start->dtype, false))
    return ct_fail(CT_ERR_INVALID, "narrow", "start must be an 0-dim integral Tensor."), (ct_tensor *)NULL;
  /* a meta start has no value: the view is made at 0 (its sizes and strides are right, its offset is not) */
  s = ct__is_meta(start) ? 0 : ct_get_int(start, 0);
  return ct__narrow_impl(self, dim, s, length);
}
/* ---- aten's aliases and conveniences over the ops above (composites) ---- */
static ct_tensor *ct__k_true_divide(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  (void)ks;
  return ct_div(self, other);
}
static ct_tensor *ct__k_true_divide_scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  (void)ks;
  return ct_div_scalar(self, other);
}
static ct_status ct__k_true_divide_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  (void)ks;
  return ct_div_out(out, self, other);
}
static ct_tensor *ct__k_rsub(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  (void)ks;
  return ct_sub_ex(other, self, alpha);
}
static ct_tensor *ct__k_expand_as(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  (void)ks;
  return ct_expand(self, other->ndim, other->sizes);
}
static ct_tensor *ct__k_view_as(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  (void)ks;
  return ct_view(self, other->ndim, other->sizes);
}
static ct_tensor *ct__k_reshape_as(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  (void)ks;
  return ct_reshape(self, other->ndim, other->sizes);
}
/* "[0, 1]" for messages */
static const char *ct__ints_str(char *buf, size_t cap, const int64_t *v, int64_t n) {
  size_t k = 0;
  int64_t i;
  k += (size_t)snprintf(buf, cap, "[");
  for (i = 0; i < n && k < cap; i++) k += (size_t)snprintf(buf + k, cap - k, "%s%lld", i ? ", " : "", (long long)v[i]);
  if (k < cap) snprintf(buf + k, cap - k, "]");
  return buf;
}
static ct_tensor *ct__k_movedim_list(ct_keyset ks, ct_tensor *self, ct_int_list source, ct_int_list destination) {
  static const char *op = "movedim";
  int64_t perm[CT_MAX_DIMS], src[CT_MAX_DIMS], dst[CT_MAX_DIMS], i, j, ns = source.n < 0 ? 0 : source.n, nd = destination.n < 0 ? 0 : destination.n;
  int used_src[CT_MAX_DIMS] = {0}, used_dst[CT_MAX_DIMS] = {0}, rank = self->ndim > 0 ? self->ndim : 1;
  char b1[160], b2[160];
  (void)ks;
  if (ns != nd)
    return ct_fail(CT_ERR_INVALID, op, "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of "
                   "dims as destination (%s dims)", ct__ints_str(b1, sizeof b1, source.data, ns), ct__ints_str(b2, sizeof b2, destination.data, nd)),
           (ct_tensor *)NULL;
  for (i = 0; i < ns; i++) {
    if ((src[i] = ct__wrap_dim(op, source.data[i], self->ndim)) < 0 || (dst[i] = ct__wrap_dim(op, destination.data[i], self->ndim)) < 0)
      return NULL;
    if (used_src[src[i]]++)
      return ct_fail(CT_ERR_INVALID, op, "movedim: repeated dim in `source` (%s)", ct__ints_str(b1, sizeof b1, source.data, ns)), (ct_tensor *)NULL;
  }
  for (i = 0; i < ns; i++)
    if (used_dst[dst[i]]++)
      return ct_fail(CT_ERR_INVALID, op, "movedim: repeated dim in `destination` (%s)", ct__ints_str(b1, sizeof b1, destination.data, nd)),
             (ct_tensor *)NULL;
  if (self->ndim == 0) return ct_alias(self);
  for (i = 0; i < rank; i++) perm[i] = -1;
  for (i = 0; i < ns; i++) perm[dst[i]] = src[i];
  for (i = 0, j = 0; i < rank; i++) { /* the other dims, in order, into the free places */
    if (perm[i] >= 0) continue;
    while (used_src[j]) j++;
    perm[i] = j++;
  }
  return ct_permute(self, self->ndim, perm);
}
static ct_tensor *ct__k_movedim(ct_keyset ks, ct_tensor *self, int64_t source, int64_t destination) {
  ct_int_list s, d;
  s.data = &source, s.n = 1;
  d.data = &destination, d.n = 1;
  return ct__k_movedim_list(ks, self, s, d);
}
static ct_tensor *ct__k_broadcast_to(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  (void)ks;
  return ct_expand(self, ct__list_rank(size), size.data);
}
static ct_tensor *ct__k_contiguous(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_is_contiguous(self) ? ct_retain(self) : ct_clone(self);
}
static ct_tensor *ct__k_to_dtype(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  (void)ks;
  if (!ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, "ct_to_dtype", "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  return self->dtype == dtype ? ct_retain(self) : ct_to_copy_ex(self, dtype, CT_NO_DEVICE, false);
}
/* ================= derivative helpers (FunctionsManual) =================
 * Called by the formulas in gen/derivatives.spec. They run inside the
 * engine's scope, which releases their temporaries; they are written with
 * ct ops so that create_graph records them. */
/* _to_copy's: the gradient goes back to the source's dtype and device (c10's _to_copy_backward) */
static ct_tensor *ct__to_copy_backward(ct_tensor *grad, ct_dtype dtype, ct_device device) {
  if (grad->dtype == dtype && ct_device_eq(grad->device, device)) return grad; /* (formulas return borrowed or scope-owned tensors) */
  return ct_to_copy_ex(grad, dtype, device, false);
}
static ct_scalar ct__neg_scalar(ct_scalar s) {
  if (s.kind == CT_SCALAR_FLOAT) s.v.f = -s.v.f;
  else if (s.kind == CT_SCALAR_INT) s.v.i = (int64_t)(0 - (uint64_t)s.v.i);
  else if (s.kind == CT_SCALAR_NONE) s = ct_int(-1);
  return s;
}
static inline ct_scalar ct__scalar_none(void) { /* generated defaults of Scalar? = None */
  ct_scalar s;
  memset(&s, 0, sizeof s);
  s.kind = CT_SCALAR_NONE;
  return s;
}
/* grad * alpha, or grad itself when alpha is 1 (PyTorch's maybe_multiply) */
static ct_tensor *ct__scale(ct_tensor *grad, ct_scalar alpha) {
  if (alpha.kind == CT_SCALAR_NONE || (alpha.kind == CT_SCALAR_INT && alpha.v.i == 1) ||
      (alpha.kind == CT_SCALAR_FLOAT && alpha.v.f == 1.0) || (alpha.kind == CT_SCALAR_BOOL && alpha.v.b))
    return grad;
  return ct_mul_scalar(grad, alpha);
}
/* mm's gradients as aten's mm_mat1_backward / mm_mat2_backward: an operand
 * stored by columns (a transposed matrix: nn.Linear's weight.t()) gets its
 * gradient stored by columns too, computed as the transposed product, so
 * that after t()'s backward it accumulates into a contiguous .grad. */
static int ct__geometry_colmajor(const ct__geometry *g) {
  return g->ndim == 2 && g->strides[0] == 1 && g->strides[1] == g->sizes[0];
}
static ct_tensor *ct__mm_mat1_backward(ct_tensor *grad, ct_tensor *mat2, const ct__geometry *mat1, ct_scalar alpha) {
  if (ct__geometry_colmajor(mat1)) return ct__scale(ct_t(ct_mm(mat2, ct_t(grad))), alpha);
  return ct__scale(ct_mm(grad, ct_t(mat2)), alpha);
}
static ct_tensor *ct__mm_mat2_backward(ct_tensor *grad, ct_tensor *mat1, const ct__geometry *mat2, ct_scalar alpha) {
  if (ct__geometry_colmajor(mat2)) return ct__scale(ct_t(ct_mm(ct_t(grad), mat1)), alpha);
  return ct__scale(ct_mm(ct_t(mat1), grad), alpha);
}
/* d(a / b)/db = -grad * a / b^2 */
static ct_tensor *ct__div_other_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *other) {
  return ct_neg(ct_div(ct_mul(grad, self), ct_mul(other, other)));
}
/* d tanh = grad * (1 - y^2) */
static ct_tensor *ct__tanh_backward(ct_tensor *grad, ct_tensor *y) {
  return ct_mul(grad, ct_add_scalar(ct_neg(ct_mul(y, y)), ct_int(1)));
}
/* d sigmoid = grad * y * (1 - y) */
static ct_tensor *ct__sigmoid_backward(ct_tensor *grad, ct_tensor *y) {
  return ct_mul(grad, ct_mul(y, ct_add_scalar(ct_neg(y), ct_int(1))));
}
static ct_tensor *ct__permute_backward(ct_tensor *grad, ct_int_list dims) {
  int64_t inv[CT_MAX_DIMS];
  int64_t i;
  if (!grad) return NULL;
  for (i = 0; i < dims.n && i < CT_MAX_DIMS; i++) {
    int64_t d = ct__wrap_dim("permute", dims.data[i], grad->ndim);
    if (d < 0) return NULL;
    inv[d] = i;
  }
  return ct_permute(grad, (int)dims.n, inv);
}
/* sum over dims: put the reduced dims back (size 1) and expand */
static ct_tensor *ct__sum_backward(ct_tensor *grad, const ct__shape *sizes, ct_int_list dim, bool keepdim) {
  int reduce[CT_MAX_DIMS] = {0};
  int64_t i;
  if (!grad) return NULL;
  if (!keepdim && sizes->ndim > 0) {
    if (dim.n <= 0 || !dim.data) {
      for (i = 0; i < sizes->ndim; i++) reduce[i] = 1;
    } else {
      for (i = 0; i < dim.n; i++) {
        int64_t d = ct__wrap_dim("sum", dim.data[i], sizes->ndim);
        if (d < 0) return NULL;
        reduce[d] = 1;
      }
    }
    for (i = 0; i < sizes->ndim && grad; i++)
      if (reduce[i]) grad = ct_unsqueeze(grad, i);
  }
  return grad ? ct_expand(grad, sizes->ndim, sizes->sizes) : NULL;
}
/* grad summed down to `shape` (the inverse of broadcasting) */
static ct_tensor *ct__sum_to(ct_tensor *grad, const ct__shape *shape) {
  int64_t dims[CT_MAX_DIMS];
  int i, n = 0, lead;
  int inner = 0; /* size-1 dims of shape summed over */
  if (!grad) return NULL;
  lead = grad->ndim - shape->ndim;
  for (i = 0; i < grad->ndim; i++)
    if (i < lead || (shape->sizes[i - lead] == 1 && grad->sizes[i] != 1)) dims[n++] = i, inner += i >= lead;
  if (n && !inner) return ct_sum_dim(grad, n, dims, false); /* only leading dims: already the shape, a fresh tensor */
  if (n) grad = ct_sum_dim(grad, n, dims, true);
  if (grad && lead > 0) grad = ct_reshape(grad, shape->ndim, shape->sizes);
  return grad;
}

/* as_strided's derivative (PyTorch's as_strided_backward): the output's
 * geometry may repeat storage elements (their gradients add up) and so may
 * the input's (each element then gets its share: the sum divided by how many
 * input elements alias it). Both are laid over one zero buffer spanning
 * either geometry; written with ct ops, so it is differentiable again. */
typedef struct ct__strided_dims {
  int n;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
} ct__strided_dims;
/* May two different indices of (sizes, strides) reach one element? Sorted by
 * stride, each stride must pass the span of all smaller ones. */
static int ct__strided_may_overlap(const ct__strided_dims *d) {
  int64_t st[CT_MAX_DIMS], sz[CT_MAX_DIMS], span = 0;
  int i, j, n = d->n;
  for (i = 0; i < n; i++) st[i] = d->strides[i], sz[i] = d->sizes[i];
  for (i = 1; i < n; i++) /* insertion sort: n <= 8 */
    for (j = i; j > 0 && st[j] < st[j - 1]; j--) {
      int64_t a = st[j], b = sz[j];
      st[j] = st[j - 1], sz[j] = sz[j - 1], st[j - 1] = a, sz[j - 1] = b;
    }
  for (i = 0; i < n; i++) {
    if (st[i] <= span) return 1;
    span += (sz[i] - 1) * st[i];
  }
  return 0;
}
static int64_t ct__strided_span(const ct__strided_dims *d, int64_t offset) {
  int i;
  for (i = 0; i < d->n; i++) offset += (d->sizes[i] - 1) * d->strides[i];
  return offset + 1;
}
/* flat indices of (d, offset) into a buffer, flattened to one dim */
static const int64_t ct__flat_shape[1] = {-1};
static ct_tensor *ct__strided_indices(const ct__strided_dims *d, int64_t offset, int64_t buffer, ct_device device) {
  ct_tensor *all = ct_arange(0, (double)buffer, 1, CT_I64), *v;
  if (all) all = ct__track(ct__host_result("as_strided_backward", ct_retain(all), device)); /* (made on the host) */
  v = all ? ct_as_strided(all, d->n, d->sizes, d->n, d->strides, offset) : NULL;
  return v ? ct_reshape(v, 1, ct__flat_shape) : NULL;
}
static ct_tensor *ct__as_strided_backward(ct_tensor *grad, const ct__geometry *in, ct_int_list size, ct_int_list stride,
                                          int64_t offset) {
  ct__strided_dims od, id;
  int64_t shared, in_off, out_off, buffer, i;
  ct_tensor *storage, *flat;
  ct_options o;
  if (!grad) return NULL;
  o = ct_opts((ct_dtype)grad->dtype, grad->device);
  od.n = id.n = 0;
  for (i = grad->ndim - 1; i >= 0 && grad; i--) { /* output: drop size-1 dims, sum broadcast (stride 0) dims */
    if (size.data[i] == 0) return ct_zeros_like(ct_empty_opts(in->ndim, in->sizes, o));
    if (size.data[i] == 1) grad = ct_squeeze_dim(grad, i);
    else if (stride.data[i] == 0) grad = ct_sum_dim(grad, 1, &i, false);
    else od.sizes[od.n] = size.data[i], od.strides[od.n++] = stride.data[i];
  }
  for (i = in->ndim - 1; i >= 0; i--) {
    if (in->sizes[i] == 0) return ct_zeros_like(ct_empty_opts(in->ndim, in->sizes, o));
    if (in->sizes[i] != 1) id.sizes[id.n] = in->sizes[i], id.strides[id.n++] = in->strides[i];
  }
  if (!grad) return NULL;
  for (i = 0; i < od.n / 2; i++) { /* collected last-first: back to the tensor's order */
    int64_t a = od.sizes[i], b = od.strides[i];
    od.sizes[i] = od.sizes[od.n - 1 - i], od.strides[i] = od.strides[od.n - 1 - i];
    od.sizes[od.n - 1 - i] = a, od.strides[od.n - 1 - i] = b;
  }
  for (i = 0; i < id.n / 2; i++) {
    int64_t a = id.sizes[i], b = id.strides[i];
    id.sizes[i] = id.sizes[id.n - 1 - i], id.strides[i] = id.strides[id.n - 1 - i];
    id.sizes[id.n - 1 - i] = a, id.strides[id.n - 1 - i] = b;
  }
  shared = in->offset < offset ? in->offset : offset;
  in_off = in->offset - shared, out_off = offset - shared;
  buffer = ct__strided_span(&id, in_off);
  if (ct__strided_span(&od, out_off) > buffer) buffer = ct__strided_span(&od, out_off);
  storage = ct_zeros_like(ct_empty_opts(1, &buffer, o));
  if (!storage) return NULL;
  if (ct__strided_may_overlap(&od)) { /* repeated elements: their gradients add */
    ct_tensor *idx = ct__strided_indices(&od, out_off, buffer, grad->device);
    storage = idx ? ct_index_add(storage, 0, idx, ct_reshape(grad, 1, ct__flat_shape)) : NULL;
  } else {
    ct_tensor *slot = ct_as_strided(storage, od.n, od.sizes, od.n, od.strides, out_off);
    if (!slot || ct_copy_(slot, grad) != CT_OK) return NULL;
  }
  if (storage && ct__strided_may_overlap(&id)) { /* each aliased input element gets its share */
    ct_tensor *idx = ct__strided_indices(&id, in_off, buffer, grad->device), *count = NULL;
    CT_NO_GRAD {
      ct_tensor *ones = idx ? ct_ones_like(ct_to_dtype(idx, (ct_dtype)grad->dtype)) : NULL;
      count = ones ? ct_index_add(ct_zeros_like(storage), 0, idx, ones) : NULL;
    }
    storage = count ? ct_div(storage, count) : NULL; /* (0/0 = NaN only where the input never reads) */
  }
  flat = storage;
  return flat ? ct_as_strided(flat, in->ndim, in->sizes, in->ndim, in->strides, in_off) : NULL;
}

CT_EXTERN_C_END
#endif /* CT__OPS_IMPL */
