/* ctorch/ops.h - built-in operators: typed frontends and reference kernels.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Naming: ct_OP is the functional form (new tensor or NULL), ct_OP_ the
 * in-place form and ct_OP_out the out= form (both return ct_status and bump
 * the written tensor's version). ct_OP_ex takes every schema argument
 * (e.g. add's alpha); the short forms use the schema's defaults.
 * ct_OP_scalar takes a number for `other`, as PyTorch's .Scalar overloads.
 *
 * All built-ins are dispatched (see CT__BUILTIN_OPS below for their schemas).
 * The reference kernels here serve the CPU and Meta keys: every kernel runs
 * its checks and output allocation, and skips the arithmetic when the
 * output lives on the meta device, so meta execution is the same code.
 */
#ifndef CT_OPS_H
#define CT_OPS_H

#include "dispatch.h"
#include "iter.h"

CT_EXTERN_C_BEGIN

/* binary arithmetic: PyTorch broadcasting and type promotion */
CTDEF ct_tensor *ct_add(ct_tensor *self, ct_tensor *other);
CTDEF ct_tensor *ct_add_ex(ct_tensor *self, ct_tensor *other, ct_scalar alpha); /* self + alpha * other */
CTDEF ct_status ct_add_(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_add_ex_(ct_tensor *self, ct_tensor *other, ct_scalar alpha);
CTDEF ct_status ct_add_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_add_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *other, ct_scalar alpha);
CTDEF ct_tensor *ct_add_scalar(ct_tensor *self, ct_scalar other);
CTDEF ct_status ct_add_scalar_(ct_tensor *self, ct_scalar other);
CTDEF ct_tensor *ct_sub(ct_tensor *self, ct_tensor *other);
CTDEF ct_tensor *ct_sub_ex(ct_tensor *self, ct_tensor *other, ct_scalar alpha); /* self - alpha * other */
CTDEF ct_status ct_sub_(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_sub_ex_(ct_tensor *self, ct_tensor *other, ct_scalar alpha);
CTDEF ct_status ct_sub_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_sub_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *other, ct_scalar alpha);
CTDEF ct_tensor *ct_sub_scalar(ct_tensor *self, ct_scalar other);
CTDEF ct_status ct_sub_scalar_(ct_tensor *self, ct_scalar other);
CTDEF ct_tensor *ct_mul(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_mul_(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_mul_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
CTDEF ct_tensor *ct_mul_scalar(ct_tensor *self, ct_scalar other);
CTDEF ct_status ct_mul_scalar_(ct_tensor *self, ct_scalar other);
CTDEF ct_tensor *ct_div(ct_tensor *self, ct_tensor *other); /* true division: integers give float32 */
CTDEF ct_status ct_div_(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_div_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
CTDEF ct_tensor *ct_div_scalar(ct_tensor *self, ct_scalar other);
CTDEF ct_status ct_div_scalar_(ct_tensor *self, ct_scalar other);

/* unary */
CTDEF ct_tensor *ct_neg(ct_tensor *self);
CTDEF ct_status ct_neg_(ct_tensor *self);
CTDEF ct_status ct_neg_out(ct_tensor *out, ct_tensor *self);
CTDEF ct_tensor *ct_relu(ct_tensor *self);
CTDEF ct_status ct_relu_(ct_tensor *self);
CTDEF ct_tensor *ct_exp(ct_tensor *self); /* integers give float32 */
CTDEF ct_status ct_exp_(ct_tensor *self);
CTDEF ct_status ct_exp_out(ct_tensor *out, ct_tensor *self);

/* reductions: integers and bool sum to int64 unless dtype says otherwise */
CTDEF ct_tensor *ct_sum(ct_tensor *self);
CTDEF ct_tensor *ct_sum_ex(ct_tensor *self, ct_dtype dtype); /* CT_DTYPE_NONE: default */
CTDEF ct_tensor *ct_sum_dim(ct_tensor *self, int ndims, const int64_t *dims, bool keepdim);
CTDEF ct_tensor *ct_sum_dim_ex(ct_tensor *self, int ndims, const int64_t *dims, bool keepdim, ct_dtype dtype);
CTDEF ct_status ct_sum_out(ct_tensor *out, ct_tensor *self, int ndims, const int64_t *dims, bool keepdim);

/* matrix product of two 2-D tensors (naive reference kernel) */
CTDEF ct_tensor *ct_mm(ct_tensor *self, ct_tensor *mat2);
CTDEF ct_status ct_mm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat2);

/* copies and fills: any strides, any dtypes, src broadcast to self */
CTDEF ct_status ct_copy_(ct_tensor *self, ct_tensor *src);
CTDEF ct_status ct_fill_(ct_tensor *self, ct_scalar value);

CT_EXTERN_C_END
#endif /* CT_OPS_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_IMPL)
#define CT__OPS_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN


/* ---- the built-in operator table ----
 * X(handle, schema): the single list the registry, the frontends and the
 * kernels below are keyed on. (Generated from gen/ specs in a later step.) */
#define CT__BUILTIN_OPS(X)                                                                   \
  X(add_Tensor, "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")        \
  X(add__Tensor, "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)") \
  X(add_out, "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)") \
  X(add_Scalar, "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")           \
  X(add__Scalar, "add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)")  \
  X(sub_Tensor, "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")        \
  X(sub__Tensor, "sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)") \
  X(sub_out, "sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)") \
  X(sub_Scalar, "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")           \
  X(sub__Scalar, "sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)")  \
  X(mul_Tensor, "mul.Tensor(Tensor self, Tensor other) -> Tensor")                           \
  X(mul__Tensor, "mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")                 \
  X(mul_out, "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")          \
  X(mul_Scalar, "mul.Scalar(Tensor self, Scalar other) -> Tensor")                           \
  X(mul__Scalar, "mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")                 \
  X(div_Tensor, "div.Tensor(Tensor self, Tensor other) -> Tensor")                           \
  X(div__Tensor, "div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)")                 \
  X(div_out, "div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")          \
  X(div_Scalar, "div.Scalar(Tensor self, Scalar other) -> Tensor")                           \
  X(div__Scalar, "div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")                 \
  X(neg, "neg(Tensor self) -> Tensor")                                                       \
  X(neg_, "neg_(Tensor(a!) self) -> Tensor(a!)")                                             \
  X(neg_out, "neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")                        \
  X(relu, "relu(Tensor self) -> Tensor")                                                     \
  X(relu_, "relu_(Tensor(a!) self) -> Tensor(a!)")                                           \
  X(exp, "exp(Tensor self) -> Tensor")                                                       \
  X(exp_, "exp_(Tensor(a!) self) -> Tensor(a!)")                                             \
  X(exp_out, "exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")                        \
  X(sum, "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor")                            \
  X(sum_dim_IntList, "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor") \
  X(sum_IntList_out, "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)") \
  X(mm, "mm(Tensor self, Tensor mat2) -> Tensor")                                            \
  X(mm_out, "mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)")             \
  X(copy_, "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)")      \
  X(fill__Scalar, "fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)")

static struct {
#define CT__X(handle, schema) ct_op *handle;
  CT__BUILTIN_OPS(CT__X)
#undef CT__X
} ct__op;

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
  for (i = 0; i < t->ndim; i++)
    if (t->sizes[i] > 1 && t->strides[i] == 0)
      return ct_fail(CT_ERR_INVALID, op, "unsupported operation: more than one element of the written-to tensor refers "
                                         "to a single memory location; clone() the tensor first");
  return CT_OK;
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

static int ct__same_device(const char *op, const ct_tensor *a, const ct_tensor *b) {
  /* a CPU 0-dim tensor (or number) may join tensors of any device */
  if (ct_device_eq(a->device, b->device)) return 1;
  if ((a->ndim == 0 && a->device.type == CT_DEVICE_CPU) || (b->ndim == 0 && b->device.type == CT_DEVICE_CPU)) return 1;
  ct_fail(CT_ERR_DEVICE, op, "expected all tensors to be on the same device, but found at least two devices, %s:%d and %s:%d",
          ct_device_type_name((ct_device_type)a->device.type), a->device.index,
          ct_device_type_name((ct_device_type)b->device.type), b->device.index);
  return 0;
}

/* Check or prepare the tensor a kernel writes: `out` for out= variants
 * (resized like PyTorch when its shape differs), self for in-place ones. */
static ct_status ct__resize_out(const char *op, ct_tensor *out, int ndim, const int64_t *shape) {
  int64_t numel, strides[CT_MAX_DIMS];
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
    s = ct__storage_new(need, out->device, op);
    if (!s) return ct_last_error();
    s->version = out->storage->version;
    ct__storage_release(out->storage);
    out->storage = s;
    out->offset = 0;
  }
  ct__contiguous_strides(ndim, shape, strides);
  out->ndim = (int8_t)ndim;
  for (i = 0; i < ndim; i++) out->sizes[i] = shape[i], out->strides[i] = strides[i];
  out->numel = numel;
  return CT_OK;
}

/* ---- copy_: every dtype pair, any strides ---- */
static void ct__copy_same_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  size_t es = *(const size_t *)ctx;
  int64_t i;
  if (s[0] == (int64_t)es && s[1] == (int64_t)es) {
    memcpy(d[0], d[1], (size_t)n * es);
    return;
  }
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
    } else {
      double v = ct__load_double(src, c->from);
      if (ct_dtype_is_integral(c->to, false) && v != v) v = 0; /* NaN to integer: defined, not UB */
      if (c->to == CT_U8 && v < 0) {
        *(uint8_t *)dst = (uint8_t)(uint64_t)(int64_t)v;
      } else if (c->to == CT_I32 || c->to == CT_I64 || c->to == CT_U8) {
        double lim = 9.2e18;
        ct__store_double(dst, c->to, v > lim ? lim : v < -lim ? -lim : v);
      } else {
        ct__store_double(dst, c->to, v);
      }
    }
  }
}

static ct_status ct__copy_impl(ct_tensor *self, ct_tensor *src) {
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
  if (self->device.type != CT_DEVICE_CPU || src->device.type != CT_DEVICE_CPU)
    return ct_fail(CT_ERR_DEVICE, op, "no copy kernel between %s and %s", ct_device_type_name((ct_device_type)src->device.type),
                   ct_device_type_name((ct_device_type)self->device.type));
  if (self->numel == 0) return CT_OK;
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

static ct_status ct__k_copy_(ct_keyset ks, ct_tensor *self, ct_tensor *src, bool non_blocking) {
  ct_status st;
  (void)ks;
  (void)non_blocking;
  if ((st = ct__check_writable("copy_", self)) != CT_OK) return st;
  st = ct__copy_impl(self, src);
  if (st == CT_OK) ct__bump_version(self);
  return st;
}

/* ---- fill_ ---- */
static void ct__fill_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  const char *value = (const char *)ctx + sizeof(size_t);
  size_t es = *(const size_t *)ctx;
  int64_t i;
  for (i = 0; i < n; i++) memcpy(d[0] + i * s[0], value, es);
}
static ct_status ct__k_fill_(ct_keyset ks, ct_tensor *self, ct_scalar value) {
  struct {
    size_t es;
    char bytes[8];
  } ctx;
  ct_tensor *ops[1];
  (void)ks;
  if (value.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "fill_", "value is None");
  if (ct__check_writable("fill_", self) != CT_OK) return ct_last_error();
  ct__bump_version(self);
  if (ct__is_meta(self) || self->numel == 0) return CT_OK;
  ctx.es = ct_dtype_size((ct_dtype)self->dtype);
  if (value.kind == CT_SCALAR_INT && self->dtype == CT_I64) memcpy(ctx.bytes, &value.v.i, 8);
  else ct__store_double(ctx.bytes, (ct_dtype)self->dtype, ct_scalar_to_double(value));
  ops[0] = self;
  ct_iter_foreach(ct__fill_loop, &ctx, 1, ops, self->ndim, self->sizes);
  return CT_OK;
}

/* ---- binary arithmetic ----
 * One loop per (op, dtype), each with a contiguous fast path the compiler
 * vectorises, a tensor-op-scalar path and the general strided path.
 * Integer arithmetic runs in unsigned types: wrap-around, never UB. */
enum { CT__ADD, CT__SUB, CT__MUL, CT__DIV, CT__NUM_BINARY };
typedef struct ct__binary_ctx {
  double alpha_f;
  int64_t alpha_i;
} ct__binary_ctx;

#define CT__LOAD_ID(x) (x)
#define CT__LOAD_F16(x) ct_f16_to_f32(x)
#define CT__LOAD_BF16(x) ct_bf16_to_f32(x)
#define CT__STORE_ID(x) (x)
#define CT__STORE_F16(x) ct_f32_to_f16(x)
#define CT__STORE_BF16(x) ct_f32_to_bf16(x)

#define CT__BINARY_LOOP(NAME, T, ACC, ALPHA, LOAD, STORE, EXPR)                                   \
  static void NAME(char **d, const int64_t *s, int64_t n, void *vctx) {                            \
    const ct__binary_ctx *ctx = (const ct__binary_ctx *)vctx;                                      \
    const ACC alpha = (ACC)(ALPHA);                                                                \
    (void)ctx;                                                                                     \
    int64_t i;                                                                                     \
    (void)alpha;                                                                                   \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T) && s[2] == (int64_t)sizeof(T)) { \
      T *o = (T *)d[0];                                                                \
      const T *x = (const T *)d[1];                                                    \
      const T *y = (const T *)d[2];                                                    \
      for (i = 0; i < n; i++) {                                                                    \
        ACC a = (ACC)LOAD(x[i]), b = (ACC)LOAD(y[i]);                                              \
        o[i] = STORE(EXPR);                                                                        \
      }                                                                                            \
    } else if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T) && s[2] == 0) {          \
      T *o = (T *)d[0];                                                                \
      const T *x = (const T *)d[1];                                                    \
      const ACC b = (ACC)LOAD(*(const T *)d[2]);                                                   \
      for (i = 0; i < n; i++) {                                                                    \
        ACC a = (ACC)LOAD(x[i]);                                                                   \
        o[i] = STORE(EXPR);                                                                        \
      }                                                                                            \
    } else {                                                                                       \
      for (i = 0; i < n; i++) {                                                                    \
        ACC a = (ACC)LOAD(*(const T *)(d[1] + i * s[1]));                                          \
        ACC b = (ACC)LOAD(*(const T *)(d[2] + i * s[2]));                                          \
        *(T *)(d[0] + i * s[0]) = STORE(EXPR);                                                     \
      }                                                                                            \
    }                                                                                              \
  }

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

#define CT__DEF_FLOAT_BINARY(sfx, T, ACC, LOAD, STORE)                                          \
  CT__BINARY_LOOP(ct__add_##sfx, T, ACC, ctx->alpha_f, LOAD, STORE, (ACC)(a + alpha * b))       \
  CT__BINARY_LOOP(ct__sub_##sfx, T, ACC, ctx->alpha_f, LOAD, STORE, (ACC)(a - alpha * b))       \
  CT__BINARY_LOOP(ct__mul_##sfx, T, ACC, 0, LOAD, STORE, (ACC)(a * b))                          \
  CT__BINARY_LOOP(ct__div_##sfx, T, ACC, 0, LOAD, STORE, (ACC)(a / b))
CT__FLOAT_TYPES(CT__DEF_FLOAT_BINARY)

#define CT__DEF_INT_BINARY(sfx, T, U)                                                                   \
  CT__BINARY_LOOP(ct__add_##sfx, T, U, (uint64_t)ctx->alpha_i, CT__LOAD_ID, CT__STORE_ID, (T)(U)(a + alpha * b)) \
  CT__BINARY_LOOP(ct__sub_##sfx, T, U, (uint64_t)ctx->alpha_i, CT__LOAD_ID, CT__STORE_ID, (T)(U)(a - alpha * b)) \
  CT__BINARY_LOOP(ct__mul_##sfx, T, U, 0, CT__LOAD_ID, CT__STORE_ID, (T)(U)(a * b))
CT__INT_TYPES(CT__DEF_INT_BINARY)

/* bool: add is "or" (alpha must be true to count), mul is "and" */
CT__BINARY_LOOP(ct__add_bool, bool, int, ctx->alpha_i != 0, CT__LOAD_ID, CT__STORE_ID, (a || (alpha && b)))
CT__BINARY_LOOP(ct__mul_bool, bool, int, 0, CT__LOAD_ID, CT__STORE_ID, (a && b))

/* [op][dtype], in ct_dtype order: f32 f64 f16 bf16 i64 i32 u8 bool */
static const ct_loop_fn ct__binary_loops[CT__NUM_BINARY][CT_DTYPE_NUM] = {
    {ct__add_f32, ct__add_f64, ct__add_f16, ct__add_bf16, ct__add_i64, ct__add_i32, ct__add_u8, ct__add_bool},
    {ct__sub_f32, ct__sub_f64, ct__sub_f16, ct__sub_bf16, ct__sub_i64, ct__sub_i32, ct__sub_u8, NULL},
    {ct__mul_f32, ct__mul_f64, ct__mul_f16, ct__mul_bf16, ct__mul_i64, ct__mul_i32, ct__mul_u8, ct__mul_bool},
    {ct__div_f32, ct__div_f64, ct__div_f16, ct__div_bf16, NULL, NULL, NULL, NULL},
};
static const char *const ct__binary_names[CT__NUM_BINARY] = {"add", "sub", "mul", "div"};

/* A tensor of `dtype` with a's values: a itself when it already is one. */
static ct_tensor *ct__as_dtype(const char *op, ct_tensor *a, ct_dtype dtype, ct__wrapped *w) {
  ct_tensor *c;
  if (a->dtype == dtype) return ct_retain(a);
  if (a->flags & CT_TENSOR_WRAPPED_NUMBER) { /* re-wrap the number in the compute dtype: no heap */
    ct__wrapped tmp = *w;
    ct__store_double(&w->value, dtype, ct__load_double(&tmp.value, (ct_dtype)a->dtype));
    if (a->dtype == CT_I64 && dtype == CT_I64) w->value.i = tmp.value.i;
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

/* out = a (op) b. `out` NULL: allocate and return it in *result. For
 * in-place, out == a. Handles promotion, broadcasting, alpha, meta. */
static ct_status ct__binary(int kind, ct_tensor *out, ct_tensor *a, ct_tensor *b, ct_scalar alpha, ct_tensor **result,
                            ct__wrapped *wa, ct__wrapped *wb) {
  const char *op = ct__binary_names[kind];
  int64_t bshape[CT_MAX_DIMS];
  const int64_t *shape;
  int ndim, i;
  ct_dtype common, out_dtype;
  ct_tensor *ca = NULL, *cb = NULL, *dst = NULL, *ops[3];
  ct__binary_ctx ctx;
  ct_status st = CT_OK;
  ct__wrapped unused_a, unused_b; /* wrapped numbers arrive with their container; others never use it */

  if (!wa) wa = &unused_a;
  if (!wb) wb = &unused_b;
  if (!ct_device_eq(a->device, b->device) && !ct__same_device(op, a, b)) return ct_last_error();
  if (out && !ct_device_eq(out->device, a->device) && !ct__same_device(op, out, a)) return ct_last_error();
  ndim = a->ndim;
  shape = a->sizes; /* the common case: equal shapes, no broadcasting */
  if (!ct__same_sizes(a, b)) {
    if ((ndim = ct_broadcast_shapes(op, a->ndim, a->sizes, b->ndim, b->sizes, bshape)) < 0) return ct_last_error();
    shape = bshape;
  }
  common = a->dtype == b->dtype ? (ct_dtype)a->dtype : ct__result_type(a, b);
  if (kind == CT__DIV && !ct_dtype_is_floating(common)) common = CT_F32;
  if (kind == CT__SUB && (a->dtype == CT_BOOL || b->dtype == CT_BOOL))
    return ct_fail(CT_ERR_DTYPE, op,
                   a->dtype == CT_BOOL && b->dtype == CT_BOOL
                       ? "subtraction, the `-` operator, with two bool tensors is not supported; use the `^` or logical_xor() operator instead"
                       : "subtraction, the `-` operator, with a bool tensor is not supported; if you are trying to invert a mask, use the `~` or logical_not() operator instead");
  if (kind == CT__ADD || kind == CT__SUB) {
    if (alpha.kind == CT_SCALAR_NONE) alpha = ct_int(1);
    if (alpha.kind == CT_SCALAR_FLOAT && ct_dtype_is_integral(common, true))
      return ct_fail(CT_ERR_DTYPE, op, "for integral input tensors, argument alpha must not be a floating point number");
    if (alpha.kind == CT_SCALAR_BOOL && common != CT_BOOL)
      return ct_fail(CT_ERR_DTYPE, op, "boolean alpha only supported for boolean results");
  }
  out_dtype = out ? (ct_dtype)out->dtype : common;
  if (out_dtype != common && !ct_can_cast(common, out_dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(common),
                   ct__dtype_torch_name(out_dtype));
  if (out && ct__check_writable(op, out) != CT_OK) return ct_last_error();
  if (out == a && out) { /* in-place: the broadcast shape must be self's */
    int same = shape == a->sizes;
    if (!same && out->ndim == ndim)
      for (same = 1, i = 0; i < ndim; i++) same = same && out->sizes[i] == shape[i];
    if (!same) {
      char b1[160], b2[160];
      return ct_fail(CT_ERR_SHAPE, op, "output with shape %s doesn't match the broadcast shape %s",
                     ct_shape_format(out->ndim, out->sizes, b1, sizeof b1), ct_shape_format(ndim, shape, b2, sizeof b2));
    }
  } else if (out) {
    if ((st = ct__resize_out(op, out, ndim, shape)) != CT_OK) return st;
  }
  if (!ct__binary_loops[kind][common])
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" is not implemented for '%s'", op, ct__dtype_torch_name(common));

  if (!out) {
    dst = ct__empty(op, ndim, shape, common, a->device.type == CT_DEVICE_CPU && a->ndim == 0 ? b->device : a->device);
    if (!dst) return ct_last_error();
  } else if (out_dtype != common) {
    dst = ct__empty(op, ndim, shape, common, out->device); /* compute, then cast into out */
    if (!dst) return ct_last_error();
  } else {
    dst = out; /* borrowed: written in place */
  }
  if (ct__is_meta(dst) || dst->numel == 0) goto done;
  ca = a->dtype == common ? a : ct__as_dtype(op, a, common, wa); /* borrowed when no cast is needed */
  cb = !ca ? NULL : b->dtype == common ? b : ct__as_dtype(op, b, common, wb);
  if (!ca || !cb) {
    st = ct_last_error();
    goto done;
  }
  ctx.alpha_f = ct_scalar_to_double(alpha);
  ctx.alpha_i = ct_scalar_to_int(alpha);
  ops[0] = dst;
  ops[1] = ca;
  ops[2] = cb;
  ct_iter_foreach(ct__binary_loops[kind][common], &ctx, 3, ops, ndim, shape);
  if (out && dst != out) st = ct__copy_impl(out, dst);
done:
  if (ca != a && ca != &wa->t) ct_release(ca); /* wrapped numbers live on the caller's stack */
  if (cb != b && cb != &wb->t) ct_release(cb);
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  if (dst != out) ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

/* kernels in schema order; the frontends reach them through the table */
#define CT__BINARY_KERNELS(name, KIND)                                                                   \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {            \
    ct_tensor *r = NULL;                                                                                 \
    (void)ks;                                                                                            \
    ct__binary(KIND, NULL, a, b, alpha, &r, NULL, NULL);                                                 \
    return r;                                                                                            \
  }                                                                                                      \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b, ct_scalar alpha) {       \
    (void)ks;                                                                                            \
    return ct__binary(KIND, self, self, b, alpha, NULL, NULL, NULL);                                     \
  }                                                                                                      \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha, ct_tensor *out) { \
    (void)ks;                                                                                            \
    return ct__binary(KIND, out, a, b, alpha, NULL, NULL, NULL);                                         \
  }                                                                                                      \
  static ct_tensor *ct__k_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar other, ct_scalar alpha) { \
    ct__wrapped w;                                                                                       \
    ct_tensor *r = NULL;                                                                                 \
    (void)ks;                                                                                            \
    ct__binary(KIND, NULL, a, ct__wrap_scalar(&w, other), alpha, &r, NULL, &w);                          \
    return r;                                                                                            \
  }                                                                                                      \
  static ct_status ct__k_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) { \
    ct__wrapped w;                                                                                       \
    (void)ks;                                                                                            \
    return ct__binary(KIND, self, self, ct__wrap_scalar(&w, other), alpha, NULL, NULL, &w);              \
  }
/* alpha-free forms for mul and div */
#define CT__NOALPHA_KERNELS(name) \
  static ct_tensor *ct__k2_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b) {                            \
    return ct__k_##name(ks, a, b, ct_int(1));                                                            \
  }                                                                                                      \
  static ct_status ct__k2_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b) {                       \
    return ct__k_##name##_(ks, self, b, ct_int(1));                                                      \
  }                                                                                                      \
  static ct_status ct__k2_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {       \
    return ct__k_##name##_out(ks, a, b, ct_int(1), out);                                                 \
  }                                                                                                      \
  static ct_tensor *ct__k2_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar other) {                \
    return ct__k_##name##_scalar(ks, a, other, ct_int(1));                                               \
  }                                                                                                      \
  static ct_status ct__k2_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar other) {             \
    return ct__k_##name##_scalar_(ks, self, other, ct_int(1));                                           \
  }
CT__BINARY_KERNELS(add, CT__ADD)
CT__BINARY_KERNELS(sub, CT__SUB)
CT__BINARY_KERNELS(mul, CT__MUL)
CT__BINARY_KERNELS(div, CT__DIV)
CT__NOALPHA_KERNELS(mul)
CT__NOALPHA_KERNELS(div)

/* ---- unary ---- */
enum { CT__NEG, CT__RELU, CT__EXP, CT__NUM_UNARY };
#define CT__UNARY_LOOP(NAME, T, ACC, LOAD, STORE, EXPR)                     \
  static void NAME(char **d, const int64_t *s, int64_t n, void *ctx) {      \
    int64_t i;                                                              \
    (void)ctx;                                                              \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {         \
      T *o = (T *)d[0];                                         \
      const T *x = (const T *)d[1];                             \
      for (i = 0; i < n; i++) {                                             \
        ACC a = (ACC)LOAD(x[i]);                                            \
        o[i] = STORE(EXPR);                                                 \
      }                                                                     \
    } else {                                                                \
      for (i = 0; i < n; i++) {                                             \
        ACC a = (ACC)LOAD(*(const T *)(d[1] + i * s[1]));                   \
        *(T *)(d[0] + i * s[0]) = STORE(EXPR);                              \
      }                                                                     \
    }                                                                       \
  }
#define CT__DEF_FLOAT_UNARY(sfx, T, ACC, LOAD, STORE)                                  \
  CT__UNARY_LOOP(ct__neg_##sfx, T, ACC, LOAD, STORE, (ACC)(-a))                        \
  CT__UNARY_LOOP(ct__relu_##sfx, T, ACC, LOAD, STORE, (ACC)(a > 0 || a != a ? a : 0))  \
  CT__UNARY_LOOP(ct__exp_##sfx, T, ACC, LOAD, STORE, (ACC)exp((double)a))
CT__FLOAT_TYPES(CT__DEF_FLOAT_UNARY)
#define CT__DEF_INT_UNARY(sfx, T, U)                                                             \
  CT__UNARY_LOOP(ct__neg_##sfx, T, U, CT__LOAD_ID, CT__STORE_ID, (T)(U)(0 - (U)a))              \
  CT__UNARY_LOOP(ct__relu_##sfx, T, T, CT__LOAD_ID, CT__STORE_ID, (T)(a > 0 ? a : 0))
CT__INT_TYPES(CT__DEF_INT_UNARY)

static const ct_loop_fn ct__unary_loops[CT__NUM_UNARY][CT_DTYPE_NUM] = {
    {ct__neg_f32, ct__neg_f64, ct__neg_f16, ct__neg_bf16, ct__neg_i64, ct__neg_i32, ct__neg_u8, NULL},
    {ct__relu_f32, ct__relu_f64, ct__relu_f16, ct__relu_bf16, ct__relu_i64, ct__relu_i32, ct__relu_u8, NULL},
    {ct__exp_f32, ct__exp_f64, ct__exp_f16, ct__exp_bf16, NULL, NULL, NULL, NULL},
};
static const char *const ct__unary_names[CT__NUM_UNARY] = {"neg", "relu", "exp"};

static ct_status ct__unary(int kind, ct_tensor *out, ct_tensor *a, ct_tensor **result) {
  const char *op = ct__unary_names[kind];
  ct_dtype common = (ct_dtype)a->dtype, out_dtype;
  ct_tensor *ca = NULL, *dst = NULL, *ops[2];
  ct_status st = CT_OK;
  if (kind == CT__EXP && !ct_dtype_is_floating(common)) common = CT_F32; /* int_to_float */
  if (kind == CT__NEG && common == CT_BOOL)
    return ct_fail(CT_ERR_DTYPE, op, "negation, the `-` operator, on a bool tensor is not supported; if you are trying "
                                     "to invert a mask, use the `~` or logical_not() operator instead");
  if (!ct__unary_loops[kind][common])
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" is not implemented for '%s'", op, ct__dtype_torch_name(common));
  out_dtype = out ? (ct_dtype)out->dtype : common;
  if (out && kind != CT__EXP && out_dtype != common) /* like PyTorch: only float ops cast to out= */
    return ct_fail(CT_ERR_DTYPE, op, "found dtype %s but expected %s", ct__dtype_torch_name(out_dtype),
                   ct__dtype_torch_name(common));
  if (out && !ct_can_cast(common, out_dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(common),
                   ct__dtype_torch_name(out_dtype));
  if (out && ct__check_writable(op, out) != CT_OK) return ct_last_error();
  if (out && out != a) {
    if (!ct__same_device(op, out, a)) return ct_last_error();
    if ((st = ct__resize_out(op, out, a->ndim, a->sizes)) != CT_OK) return st;
  }
  dst = (!out || out_dtype != common) ? ct__empty(op, a->ndim, a->sizes, common, a->device) : ct_retain(out);
  if (!dst) return ct_last_error();
  if (!ct__is_meta(dst) && dst->numel) {
    ca = a->dtype == common ? ct_retain(a) : ct__empty_like(op, a, common);
    if (!ca || (ca != a && (st = ct__copy_impl(ca, a)) != CT_OK)) {
      st = ct_last_error();
    } else {
      ops[0] = dst;
      ops[1] = ca;
      ct_iter_foreach(ct__unary_loops[kind][common], NULL, 2, ops, a->ndim, a->sizes);
      if (out && dst != out) st = ct__copy_impl(out, dst);
    }
    ct_release(ca);
  }
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

#define CT__UNARY_KERNELS(name, KIND)                                                          \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a) {                                 \
    ct_tensor *r = NULL;                                                                       \
    (void)ks;                                                                                  \
    ct__unary(KIND, NULL, a, &r);                                                              \
    return r;                                                                                  \
  }                                                                                            \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self) {                            \
    (void)ks;                                                                                  \
    return ct__unary(KIND, self, self, NULL);                                                  \
  }
#define CT__UNARY_OUT_KERNEL(name, KIND)                                                       \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *out) {            \
    (void)ks;                                                                                  \
    return ct__unary(KIND, out, a, NULL);                                                      \
  }
CT__UNARY_KERNELS(neg, CT__NEG)
CT__UNARY_KERNELS(relu, CT__RELU)
CT__UNARY_KERNELS(exp, CT__EXP)
CT__UNARY_OUT_KERNEL(neg, CT__NEG)
CT__UNARY_OUT_KERNEL(exp, CT__EXP)

/* ---- sum: an iteration whose accumulator has stride 0 on reduced dims ----
 * Floating inputs accumulate in float64 and integers in int64 (wrapping),
 * in a fixed order: results do not depend on anything but the inputs. */
#define CT__SUM_LOOP(NAME, T, ACC, LOAD)                                         \
  static void NAME(char **d, const int64_t *s, int64_t n, void *ctx) {           \
    int64_t i;                                                                   \
    (void)ctx;                                                                   \
    if (s[0] == 0) {                                                             \
      ACC acc = 0;                                                               \
      for (i = 0; i < n; i++) acc += (ACC)LOAD(*(const T *)(d[1] + i * s[1]));   \
      *(ACC *)d[0] += acc;                                                       \
    } else {                                                                     \
      for (i = 0; i < n; i++)                                                    \
        *(ACC *)(d[0] + i * s[0]) += (ACC)LOAD(*(const T *)(d[1] + i * s[1]));    \
    }                                                                            \
  }
CT__SUM_LOOP(ct__sum_f32, float, double, CT__LOAD_ID)
CT__SUM_LOOP(ct__sum_f64, double, double, CT__LOAD_ID)
CT__SUM_LOOP(ct__sum_f16, uint16_t, double, CT__LOAD_F16)
CT__SUM_LOOP(ct__sum_bf16, uint16_t, double, CT__LOAD_BF16)
CT__SUM_LOOP(ct__sum_i64, int64_t, uint64_t, (uint64_t))
CT__SUM_LOOP(ct__sum_i32, int32_t, uint64_t, (uint64_t)(int64_t))
CT__SUM_LOOP(ct__sum_u8, uint8_t, uint64_t, (uint64_t))
CT__SUM_LOOP(ct__sum_bool, bool, uint64_t, (uint64_t))
static const ct_loop_fn ct__sum_loops[CT_DTYPE_NUM] = {ct__sum_f32, ct__sum_f64, ct__sum_f16, ct__sum_bf16,
                                                       ct__sum_i64, ct__sum_i32, ct__sum_u8,  ct__sum_bool};

static ct_status ct__sum_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                              ct_tensor **result) {
  static const char *op = "sum";
  int reduce[CT_MAX_DIMS] = {0};
  int64_t out_shape[CT_MAX_DIMS], kept_shape[CT_MAX_DIMS], kept_strides[CT_MAX_DIMS];
  int i, out_ndim = 0;
  ct_dtype out_dtype, acc_dtype;
  ct_tensor *src = NULL, *acc = NULL, *accv = NULL, *dst = NULL, *ops[2];
  ct_status st = CT_OK;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype);
  if (dims.n < 0 || !dims.data || dims.n == 0) {
    for (i = 0; i < a->ndim; i++) reduce[i] = 1;
  } else {
    for (i = 0; i < dims.n; i++) {
      int64_t d = ct__wrap_dim(op, dims.data[i], a->ndim);
      if (d < 0) return ct_last_error();
      if (a->ndim == 0) continue;
      if (reduce[d]) return ct_fail(CT_ERR_INVALID, op, "dim %lld appears multiple times in the list of dims", (long long)d);
      reduce[d] = 1;
    }
  }
  for (i = 0; i < a->ndim; i++) {
    kept_shape[i] = reduce[i] ? 1 : a->sizes[i];
    if (!reduce[i] || keepdim) out_shape[out_ndim++] = kept_shape[i];
  }
  out_dtype = dtype != CT_DTYPE_NONE ? dtype : out ? (ct_dtype)out->dtype
              : ct_dtype_is_integral((ct_dtype)a->dtype, true) ? CT_I64 : (ct_dtype)a->dtype;
  if (out) {
    if (!ct__same_device(op, out, a) || ct__check_writable(op, out) != CT_OK) return ct_last_error();
    if (dtype != CT_DTYPE_NONE && out->dtype != dtype)
      return ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead", ct_dtype_name(dtype),
                     ct_dtype_name((ct_dtype)out->dtype));
    if ((st = ct__resize_out(op, out, out_ndim, out_shape)) != CT_OK) return st;
    dst = ct_retain(out);
  } else {
    dst = ct__empty(op, out_ndim, out_shape, out_dtype, a->device);
    if (!dst) return ct_last_error();
  }
  if (ct__is_meta(dst)) goto done;
  /* the input in the result dtype (PyTorch casts before summing) */
  src = dtype != CT_DTYPE_NONE ? ct__as_dtype(op, a, dtype, NULL) : ct_retain(a);
  if (!src) {
    st = ct_last_error();
    goto done;
  }
  acc_dtype = ct_dtype_is_floating((ct_dtype)src->dtype) ? CT_F64 : CT_I64;
  acc = ct__empty(op, a->ndim, kept_shape, acc_dtype, a->device);
  if (!acc || ct__k_fill_(0, acc, ct_int(0)) != CT_OK) {
    st = ct_last_error();
    goto done;
  }
  for (i = 0; i < a->ndim; i++) kept_strides[i] = reduce[i] ? 0 : acc->strides[i];
  accv = ct__make_view(acc, a->ndim, a->sizes, kept_strides, 0);
  if (!accv) {
    st = ct_last_error();
    goto done;
  }
  ops[0] = accv;
  ops[1] = src;
  ct_iter_foreach(ct__sum_loops[src->dtype], NULL, 2, ops, a->ndim, a->sizes);
  {
    int64_t out_strides[CT_MAX_DIMS];
    ct_tensor *shaped;
    ct__contiguous_strides(out_ndim, out_shape, out_strides); /* acc without the reduced dims */
    shaped = ct__make_view(acc, out_ndim, out_shape, out_strides, 0);
    st = shaped ? ct__copy_impl(dst, shaped) : ct_last_error();
    ct_release(shaped);
  }
done:
  ct_release(src);
  ct_release(accv);
  ct_release(acc);
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

static ct_tensor *ct__k_sum(ct_keyset ks, ct_tensor *a, ct_dtype dtype) {
  ct_tensor *r = NULL;
  ct_int_list all;
  (void)ks;
  all.data = NULL;
  all.n = -1;
  ct__sum_impl(a, all, false, dtype, NULL, &r);
  return r;
}
static ct_tensor *ct__k_sum_dim(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__sum_impl(a, dims, keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_sum_out(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__sum_impl(a, dims, keepdim, dtype, out, NULL);
}

/* ---- mm: naive triple loop over strides (BLIS replaces it) ---- */
#define CT__MM_LOOP(NAME, T, ACC, LOAD, STORE)                                                         \
  static void NAME(const ct_tensor *a, const ct_tensor *b, ct_tensor *c) {                             \
    const T *A = (const T *)ct_data_ptr(a), *B = (const T *)ct_data_ptr(b);                            \
    T *C = (T *)ct_data_ptr(c);                                                                         \
    int64_t M = a->sizes[0], K = a->sizes[1], N = b->sizes[1], i, j, k;                                 \
    for (i = 0; i < M; i++)                                                                             \
      for (j = 0; j < N; j++) {                                                                         \
        ACC acc = 0;                                                                                    \
        for (k = 0; k < K; k++)                                                                         \
          acc += (ACC)LOAD(A[i * a->strides[0] + k * a->strides[1]]) * (ACC)LOAD(B[k * b->strides[0] + j * b->strides[1]]); \
        C[i * c->strides[0] + j * c->strides[1]] = STORE((T)(acc));                                     \
      }                                                                                                 \
  }
#define CT__STORE_F16_MM(x) ct_f32_to_f16((float)(x))
CT__MM_LOOP(ct__mm_f32, float, float, CT__LOAD_ID, CT__STORE_ID)
CT__MM_LOOP(ct__mm_f64, double, double, CT__LOAD_ID, CT__STORE_ID)
CT__MM_LOOP(ct__mm_i64, int64_t, uint64_t, (uint64_t), CT__STORE_ID)
CT__MM_LOOP(ct__mm_i32, int32_t, uint32_t, (uint32_t), CT__STORE_ID)
CT__MM_LOOP(ct__mm_u8, uint8_t, uint8_t, CT__LOAD_ID, CT__STORE_ID)
static void ct__mm_half(const ct_tensor *a, const ct_tensor *b, ct_tensor *c) {
  /* f16 / bf16: accumulate in float, round once */
  int64_t M = a->sizes[0], K = a->sizes[1], N = b->sizes[1], i, j, k;
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++) {
      float acc = 0;
      for (k = 0; k < K; k++)
        acc += (float)ct__load_double((const uint16_t *)ct_data_ptr(a) + i * a->strides[0] + k * a->strides[1], (ct_dtype)a->dtype) *
               (float)ct__load_double((const uint16_t *)ct_data_ptr(b) + k * b->strides[0] + j * b->strides[1], (ct_dtype)b->dtype);
      ct__store_double((uint16_t *)ct_data_ptr(c) + i * c->strides[0] + j * c->strides[1], (ct_dtype)c->dtype, acc);
    }
}

static ct_status ct__mm_impl(ct_tensor *a, ct_tensor *b, ct_tensor *out, ct_tensor **result) {
  static const char *op = "mm";
  int64_t shape[2];
  ct_tensor *dst;
  if (a->ndim != 2) return ct_fail(CT_ERR_RANK, op, "self must be a matrix, got a %dD tensor", a->ndim);
  if (b->ndim != 2) return ct_fail(CT_ERR_RANK, op, "mat2 must be a matrix, got a %dD tensor", b->ndim);
  if (a->sizes[1] != b->sizes[0])
    return ct_fail(CT_ERR_SHAPE, op, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)", (long long)a->sizes[0],
                   (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
  if (a->dtype != b->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected mat1 and mat2 to have the same dtype, but got: %s != %s",
                   ct_dtype_name((ct_dtype)a->dtype), ct_dtype_name((ct_dtype)b->dtype));
  if (a->dtype == CT_BOOL) return ct_fail(CT_ERR_DTYPE, op, "\"addmm\" is not implemented for 'Bool'");
  if (!ct__same_device(op, a, b)) return ct_last_error();
  shape[0] = a->sizes[0];
  shape[1] = b->sizes[1];
  if (out) {
    ct_status st;
    if (out->dtype != a->dtype)
      return ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead", ct_dtype_name((ct_dtype)a->dtype),
                     ct_dtype_name((ct_dtype)out->dtype));
    if (!ct__same_device(op, out, a) || ct__check_writable(op, out) != CT_OK) return ct_last_error();
    if ((st = ct__resize_out(op, out, 2, shape)) != CT_OK) return st;
    dst = out;
  } else {
    dst = ct__empty(op, 2, shape, (ct_dtype)a->dtype, a->device);
    if (!dst) return ct_last_error();
  }
  if (!ct__is_meta(dst)) {
    switch (a->dtype) {
    case CT_F32: ct__mm_f32(a, b, dst); break;
    case CT_F64: ct__mm_f64(a, b, dst); break;
    case CT_I64: ct__mm_i64(a, b, dst); break;
    case CT_I32: ct__mm_i32(a, b, dst); break;
    case CT_U8: ct__mm_u8(a, b, dst); break;
    default: ct__mm_half(a, b, dst); break;
    }
  }
  if (out) ct__bump_version(out);
  else *result = dst;
  return CT_OK;
}
static ct_tensor *ct__k_mm(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__mm_impl(a, b, NULL, &r);
  return r;
}
static ct_status ct__k_mm_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  (void)ks;
  return ct__mm_impl(a, b, out, NULL);
}

/* ================= boxing adapters =================
 * One per C signature (ct_schema.signature): read the arguments off the
 * stack, call the typed kernel, replace the arguments with the result. */
#define CT__ADAPTER_NEW(NAME, N, PARAMS, ARGS)                                          \
  static ct_status NAME(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) { \
    ct_value *a = s->items + s->size - (N);                                             \
    ct_tensor *r;                                                                       \
    (void)op;                                                                           \
    r = ((ct_tensor * (*)PARAMS) k->unboxed) ARGS;                                      \
    ct_stack_drop(s, N);                                                                \
    if (!r) return ct_last_error();                                                     \
    {                                                                                   \
      ct_value v = ct_value_tensor(r);                                                  \
      v.owned = 1;                                                                      \
      return ct_stack_push(s, v) == CT_OK ? CT_OK : (ct_release(r), ct_last_error());   \
    }                                                                                   \
  }
#define CT__ADAPTER_MUT(NAME, N, W, PARAMS, ARGS)                                       \
  static ct_status NAME(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) { \
    ct_value *a = s->items + s->size - (N);                                             \
    ct_tensor *w = a[W].v.tensor;                                                       \
    ct_status st;                                                                       \
    (void)op;                                                                           \
    st = ((ct_status(*) PARAMS) k->unboxed) ARGS;                                       \
    ct_stack_drop(s, N);                                                                \
    if (st != CT_OK) return st;                                                         \
    return ct_stack_push(s, ct_value_tensor(w));                                        \
  }
typedef ct_tensor *ct__T;
CT__ADAPTER_NEW(ct__adapt_T_TTS, 3, (ct_keyset, ct__T, ct__T, ct_scalar), (ks, a[0].v.tensor, a[1].v.tensor, a[2].v.scalar))
CT__ADAPTER_MUT(ct__adapt_W_TTS, 3, 0, (ct_keyset, ct__T, ct__T, ct_scalar), (ks, a[0].v.tensor, a[1].v.tensor, a[2].v.scalar))
CT__ADAPTER_MUT(ct__adapt_W_TTSW, 4, 3, (ct_keyset, ct__T, ct__T, ct_scalar, ct__T),
                (ks, a[0].v.tensor, a[1].v.tensor, a[2].v.scalar, a[3].v.tensor))
CT__ADAPTER_NEW(ct__adapt_T_TSS, 3, (ct_keyset, ct__T, ct_scalar, ct_scalar), (ks, a[0].v.tensor, a[1].v.scalar, a[2].v.scalar))
CT__ADAPTER_MUT(ct__adapt_W_TSS, 3, 0, (ct_keyset, ct__T, ct_scalar, ct_scalar), (ks, a[0].v.tensor, a[1].v.scalar, a[2].v.scalar))
CT__ADAPTER_NEW(ct__adapt_T_TT, 2, (ct_keyset, ct__T, ct__T), (ks, a[0].v.tensor, a[1].v.tensor))
CT__ADAPTER_MUT(ct__adapt_W_TT, 2, 0, (ct_keyset, ct__T, ct__T), (ks, a[0].v.tensor, a[1].v.tensor))
CT__ADAPTER_MUT(ct__adapt_W_TTW, 3, 2, (ct_keyset, ct__T, ct__T, ct__T), (ks, a[0].v.tensor, a[1].v.tensor, a[2].v.tensor))
CT__ADAPTER_NEW(ct__adapt_T_TS, 2, (ct_keyset, ct__T, ct_scalar), (ks, a[0].v.tensor, a[1].v.scalar))
CT__ADAPTER_MUT(ct__adapt_W_TS, 2, 0, (ct_keyset, ct__T, ct_scalar), (ks, a[0].v.tensor, a[1].v.scalar))
CT__ADAPTER_NEW(ct__adapt_T_T, 1, (ct_keyset, ct__T), (ks, a[0].v.tensor))
CT__ADAPTER_MUT(ct__adapt_W_T, 1, 0, (ct_keyset, ct__T), (ks, a[0].v.tensor))
CT__ADAPTER_MUT(ct__adapt_W_TW, 2, 1, (ct_keyset, ct__T, ct__T), (ks, a[0].v.tensor, a[1].v.tensor))
CT__ADAPTER_NEW(ct__adapt_T_TD, 2, (ct_keyset, ct__T, ct_dtype), (ks, a[0].v.tensor, a[1].v.dtype))
CT__ADAPTER_NEW(ct__adapt_T_TIbD, 4, (ct_keyset, ct__T, ct_int_list, bool, ct_dtype),
                (ks, a[0].v.tensor, ct__value_int_list(&a[1]), a[2].v.b, a[3].v.dtype))
CT__ADAPTER_MUT(ct__adapt_W_TIbDW, 5, 4, (ct_keyset, ct__T, ct_int_list, bool, ct_dtype, ct__T),
                (ks, a[0].v.tensor, ct__value_int_list(&a[1]), a[2].v.b, a[3].v.dtype, a[4].v.tensor))
CT__ADAPTER_MUT(ct__adapt_W_TTb, 3, 0, (ct_keyset, ct__T, ct__T, bool), (ks, a[0].v.tensor, a[1].v.tensor, a[2].v.b))

static const struct {
  const char *signature;
  ct_boxed_fn fn;
} ct__builtin_adapters[] = {
    {"T,T,S->T", ct__adapt_T_TTS},        {"Tw,T,S->Tw", ct__adapt_W_TTS},   {"T,T,S,Tw->Tw", ct__adapt_W_TTSW},
    {"T,S,S->T", ct__adapt_T_TSS},        {"Tw,S,S->Tw", ct__adapt_W_TSS},   {"T,T->T", ct__adapt_T_TT},
    {"Tw,T->Tw", ct__adapt_W_TT},         {"T,T,Tw->Tw", ct__adapt_W_TTW},   {"T,S->T", ct__adapt_T_TS},
    {"Tw,S->Tw", ct__adapt_W_TS},         {"T->T", ct__adapt_T_T},           {"Tw->Tw", ct__adapt_W_T},
    {"T,Tw->Tw", ct__adapt_W_TW},         {"T,D->T", ct__adapt_T_TD},        {"T,I,b,D->T", ct__adapt_T_TIbD},
    {"T,I,b,D,Tw->Tw", ct__adapt_W_TIbDW}, {"Tw,T,b->Tw", ct__adapt_W_TTb},
};

/* ================= frontends =================
 * Compute the call's key set, pick the kernel, call it typed or boxed.
 * Kernels run one level deeper (ct__tls.depth) so temporaries scopes only
 * collect what is returned to the code that opened them. */
static inline const ct_kernel *ct__pick(const ct_op *op, ct_keyset input_keys, ct_keyset *ks) {
  ct_keyset m = ct__call_keys(input_keys) & op->mask;
  const ct_kernel *k = &op->table[ct_keyset_highest(m)];
  if (CT_LIKELY(m && k->unboxed)) {
    *ks = m;
    return k;
  }
  return ct_dispatch_lookup(op, ct__call_keys(input_keys), ks);
}

static ct_tensor *ct__finish_new(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n) {
  ct_tensor *r = NULL;
  ct__call_boxed_kernel(op, k, ks, v, n, &r);
  return r;
}
static ct_status ct__finish_mut(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n) {
  return ct__call_boxed_kernel(op, k, ks, v, n, NULL);
}

#define CT__NULL_CHECK(op, i, t) \
  if (CT_UNLIKELY(!(t))) return ct__fail_null((op)->full_name, (op)->schema.args[i].name)

static ct_tensor *ct__call_T_TTS(const ct_op *op, ct_tensor *a, ct_tensor *b, ct_scalar s) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  CT__NULL_CHECK(op, 1, b), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys | b->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T, ct__T, ct_scalar)) k->unboxed)(ks, a, b, s);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b), v[2] = ct_value_scalar(s);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_status ct__call_W_TTS(const ct_op *op, ct_tensor *a, ct_tensor *b, ct_scalar s) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 1, b);
  if (!(k = ct__pick(op, a->keys | b->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct__T, ct_scalar))k->unboxed)(ks, a, b, s);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b), v[2] = ct_value_scalar(s);
    st = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return st;
}
static ct_status ct__call_W_TTSW(const ct_op *op, ct_tensor *a, ct_tensor *b, ct_scalar s, ct_tensor *out) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 1, b);
  CT__NULL_CHECK(op, 3, out);
  if (!(k = ct__pick(op, a->keys | b->keys | out->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct__T, ct_scalar, ct__T))k->unboxed)(ks, a, b, s, out);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b), v[2] = ct_value_scalar(s), v[3] = ct_value_tensor(out);
    st = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return st;
}
static ct_tensor *ct__call_T_TSS(const ct_op *op, ct_tensor *a, ct_scalar b, ct_scalar s) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T, ct_scalar, ct_scalar)) k->unboxed)(ks, a, b, s);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(a), v[1] = ct_value_scalar(b), v[2] = ct_value_scalar(s);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_status ct__call_W_TSS(const ct_op *op, ct_tensor *a, ct_scalar b, ct_scalar s) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  if (!(k = ct__pick(op, a->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct_scalar, ct_scalar))k->unboxed)(ks, a, b, s);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(a), v[1] = ct_value_scalar(b), v[2] = ct_value_scalar(s);
    st = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return st;
}
static ct_tensor *ct__call_T_TT(const ct_op *op, ct_tensor *a, ct_tensor *b) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  CT__NULL_CHECK(op, 1, b), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys | b->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T, ct__T)) k->unboxed)(ks, a, b);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_status ct__call_W_TT(const ct_op *op, ct_tensor *a, ct_tensor *b) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 1, b);
  if (!(k = ct__pick(op, a->keys | b->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct__T))k->unboxed)(ks, a, b);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b);
    st = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return st;
}
static ct_status ct__call_W_TTW(const ct_op *op, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 1, b);
  CT__NULL_CHECK(op, 2, out);
  if (!(k = ct__pick(op, a->keys | b->keys | out->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct__T, ct__T))k->unboxed)(ks, a, b, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b), v[2] = ct_value_tensor(out);
    st = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return st;
}
static ct_tensor *ct__call_T_TS(const ct_op *op, ct_tensor *a, ct_scalar b) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T, ct_scalar)) k->unboxed)(ks, a, b);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(a), v[1] = ct_value_scalar(b);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_status ct__call_W_TS(const ct_op *op, ct_tensor *a, ct_scalar b) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  if (!(k = ct__pick(op, a->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct_scalar))k->unboxed)(ks, a, b);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(a), v[1] = ct_value_scalar(b);
    st = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return st;
}
static ct_tensor *ct__call_T_T(const ct_op *op, ct_tensor *a) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T)) k->unboxed)(ks, a);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(a);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_status ct__call_W_T(const ct_op *op, ct_tensor *a) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  if (!(k = ct__pick(op, a->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T))k->unboxed)(ks, a);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(a);
    st = ct__finish_mut(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return st;
}
static ct_status ct__call_W_TW(const ct_op *op, ct_tensor *a, ct_tensor *out) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 1, out);
  if (!(k = ct__pick(op, a->keys | out->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct__T))k->unboxed)(ks, a, out);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(out);
    st = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return st;
}
static ct_tensor *ct__call_T_TD(const ct_op *op, ct_tensor *a, ct_dtype d) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T, ct_dtype)) k->unboxed)(ks, a, d);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(a), v[1] = ct_value_dtype(d);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_tensor *ct__call_T_TIbD(const ct_op *op, ct_tensor *a, ct_int_list dims, bool keep, ct_dtype d) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_tensor *r;
  CT__NULL_CHECK(op, 0, a), (ct_tensor *)NULL;
  if (!(k = ct__pick(op, a->keys, &ks))) return NULL;
  ct__tls.depth++;
  if (k->unboxed) {
    r = ((ct_tensor * (*)(ct_keyset, ct__T, ct_int_list, bool, ct_dtype)) k->unboxed)(ks, a, dims, keep, d);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(a), v[1] = dims.n < 0 ? ct_value_none() : ct_value_int_list(dims.data, dims.n);
    v[2] = ct_value_bool(keep), v[3] = ct_value_dtype(d);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return ct__track(r);
}
static ct_status ct__call_W_TIbDW(const ct_op *op, ct_tensor *a, ct_int_list dims, bool keep, ct_dtype d, ct_tensor *out) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 4, out);
  if (!(k = ct__pick(op, a->keys | out->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct_int_list, bool, ct_dtype, ct__T))k->unboxed)(ks, a, dims, keep, d, out);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(a), v[1] = dims.n < 0 ? ct_value_none() : ct_value_int_list(dims.data, dims.n);
    v[2] = ct_value_bool(keep), v[3] = ct_value_dtype(d), v[4] = ct_value_tensor(out);
    st = ct__finish_mut(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return st;
}
static ct_status ct__call_W_TTb(const ct_op *op, ct_tensor *a, ct_tensor *b, bool flag) {
  ct_keyset ks;
  const ct_kernel *k;
  ct_status st;
  CT__NULL_CHECK(op, 0, a);
  CT__NULL_CHECK(op, 1, b);
  if (!(k = ct__pick(op, a->keys | b->keys, &ks))) return ct_last_error();
  ct__tls.depth++;
  if (k->unboxed) {
    st = ((ct_status(*)(ct_keyset, ct__T, ct__T, bool))k->unboxed)(ks, a, b, flag);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b), v[2] = ct_value_bool(flag);
    st = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return st;
}

/* public frontends */
#define CT__ONE ct_int(1)
CTDEF ct_tensor *ct_add(ct_tensor *a, ct_tensor *b) { return ct__call_T_TTS(ct__op.add_Tensor, a, b, CT__ONE); }
CTDEF ct_tensor *ct_add_ex(ct_tensor *a, ct_tensor *b, ct_scalar alpha) { return ct__call_T_TTS(ct__op.add_Tensor, a, b, alpha); }
CTDEF ct_status ct_add_(ct_tensor *a, ct_tensor *b) { return ct__call_W_TTS(ct__op.add__Tensor, a, b, CT__ONE); }
CTDEF ct_status ct_add_ex_(ct_tensor *a, ct_tensor *b, ct_scalar alpha) { return ct__call_W_TTS(ct__op.add__Tensor, a, b, alpha); }
CTDEF ct_status ct_add_out(ct_tensor *out, ct_tensor *a, ct_tensor *b) { return ct__call_W_TTSW(ct__op.add_out, a, b, CT__ONE, out); }
CTDEF ct_status ct_add_out_ex(ct_tensor *out, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {
  return ct__call_W_TTSW(ct__op.add_out, a, b, alpha, out);
}
CTDEF ct_tensor *ct_add_scalar(ct_tensor *a, ct_scalar b) { return ct__call_T_TSS(ct__op.add_Scalar, a, b, CT__ONE); }
CTDEF ct_status ct_add_scalar_(ct_tensor *a, ct_scalar b) { return ct__call_W_TSS(ct__op.add__Scalar, a, b, CT__ONE); }
CTDEF ct_tensor *ct_sub(ct_tensor *a, ct_tensor *b) { return ct__call_T_TTS(ct__op.sub_Tensor, a, b, CT__ONE); }
CTDEF ct_tensor *ct_sub_ex(ct_tensor *a, ct_tensor *b, ct_scalar alpha) { return ct__call_T_TTS(ct__op.sub_Tensor, a, b, alpha); }
CTDEF ct_status ct_sub_(ct_tensor *a, ct_tensor *b) { return ct__call_W_TTS(ct__op.sub__Tensor, a, b, CT__ONE); }
CTDEF ct_status ct_sub_ex_(ct_tensor *a, ct_tensor *b, ct_scalar alpha) { return ct__call_W_TTS(ct__op.sub__Tensor, a, b, alpha); }
CTDEF ct_status ct_sub_out(ct_tensor *out, ct_tensor *a, ct_tensor *b) { return ct__call_W_TTSW(ct__op.sub_out, a, b, CT__ONE, out); }
CTDEF ct_status ct_sub_out_ex(ct_tensor *out, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {
  return ct__call_W_TTSW(ct__op.sub_out, a, b, alpha, out);
}
CTDEF ct_tensor *ct_sub_scalar(ct_tensor *a, ct_scalar b) { return ct__call_T_TSS(ct__op.sub_Scalar, a, b, CT__ONE); }
CTDEF ct_status ct_sub_scalar_(ct_tensor *a, ct_scalar b) { return ct__call_W_TSS(ct__op.sub__Scalar, a, b, CT__ONE); }
CTDEF ct_tensor *ct_mul(ct_tensor *a, ct_tensor *b) { return ct__call_T_TT(ct__op.mul_Tensor, a, b); }
CTDEF ct_status ct_mul_(ct_tensor *a, ct_tensor *b) { return ct__call_W_TT(ct__op.mul__Tensor, a, b); }
CTDEF ct_status ct_mul_out(ct_tensor *out, ct_tensor *a, ct_tensor *b) { return ct__call_W_TTW(ct__op.mul_out, a, b, out); }
CTDEF ct_tensor *ct_mul_scalar(ct_tensor *a, ct_scalar b) { return ct__call_T_TS(ct__op.mul_Scalar, a, b); }
CTDEF ct_status ct_mul_scalar_(ct_tensor *a, ct_scalar b) { return ct__call_W_TS(ct__op.mul__Scalar, a, b); }
CTDEF ct_tensor *ct_div(ct_tensor *a, ct_tensor *b) { return ct__call_T_TT(ct__op.div_Tensor, a, b); }
CTDEF ct_status ct_div_(ct_tensor *a, ct_tensor *b) { return ct__call_W_TT(ct__op.div__Tensor, a, b); }
CTDEF ct_status ct_div_out(ct_tensor *out, ct_tensor *a, ct_tensor *b) { return ct__call_W_TTW(ct__op.div_out, a, b, out); }
CTDEF ct_tensor *ct_div_scalar(ct_tensor *a, ct_scalar b) { return ct__call_T_TS(ct__op.div_Scalar, a, b); }
CTDEF ct_status ct_div_scalar_(ct_tensor *a, ct_scalar b) { return ct__call_W_TS(ct__op.div__Scalar, a, b); }
CTDEF ct_tensor *ct_neg(ct_tensor *a) { return ct__call_T_T(ct__op.neg, a); }
CTDEF ct_status ct_neg_(ct_tensor *a) { return ct__call_W_T(ct__op.neg_, a); }
CTDEF ct_status ct_neg_out(ct_tensor *out, ct_tensor *a) { return ct__call_W_TW(ct__op.neg_out, a, out); }
CTDEF ct_tensor *ct_relu(ct_tensor *a) { return ct__call_T_T(ct__op.relu, a); }
CTDEF ct_status ct_relu_(ct_tensor *a) { return ct__call_W_T(ct__op.relu_, a); }
CTDEF ct_tensor *ct_exp(ct_tensor *a) { return ct__call_T_T(ct__op.exp, a); }
CTDEF ct_status ct_exp_(ct_tensor *a) { return ct__call_W_T(ct__op.exp_, a); }
CTDEF ct_status ct_exp_out(ct_tensor *out, ct_tensor *a) { return ct__call_W_TW(ct__op.exp_out, a, out); }
CTDEF ct_tensor *ct_sum(ct_tensor *a) { return ct__call_T_TD(ct__op.sum, a, CT_DTYPE_NONE); }
CTDEF ct_tensor *ct_sum_ex(ct_tensor *a, ct_dtype dtype) { return ct__call_T_TD(ct__op.sum, a, dtype); }
static ct_int_list ct__int_list(int n, const int64_t *d) {
  ct_int_list l;
  l.data = d;
  l.n = n;
  return l;
}
/* dims given as (count, pointer): a NULL pointer with a count is an error */
#define CT__DIMS_CHECK(n, d, ret) \
  if (CT_UNLIKELY((n) > 0 && !(d))) return ct__fail_null("sum", "dim"), ret; \
  if (CT_UNLIKELY((n) < 0)) return ct_fail(CT_ERR_INVALID, "sum", "negative number of dims %d", (n)), ret
CTDEF ct_tensor *ct_sum_dim(ct_tensor *a, int ndims, const int64_t *dims, bool keepdim) {
  CT__DIMS_CHECK(ndims, dims, (ct_tensor *)NULL);
  return ct__call_T_TIbD(ct__op.sum_dim_IntList, a, ct__int_list(ndims, dims), keepdim, CT_DTYPE_NONE);
}
CTDEF ct_tensor *ct_sum_dim_ex(ct_tensor *a, int ndims, const int64_t *dims, bool keepdim, ct_dtype dtype) {
  CT__DIMS_CHECK(ndims, dims, (ct_tensor *)NULL);
  return ct__call_T_TIbD(ct__op.sum_dim_IntList, a, ct__int_list(ndims, dims), keepdim, dtype);
}
CTDEF ct_status ct_sum_out(ct_tensor *out, ct_tensor *a, int ndims, const int64_t *dims, bool keepdim) {
  CT__DIMS_CHECK(ndims, dims, ct_last_error());
  return ct__call_W_TIbDW(ct__op.sum_IntList_out, a, ct__int_list(ndims, dims), keepdim, CT_DTYPE_NONE, out);
}
CTDEF ct_tensor *ct_mm(ct_tensor *a, ct_tensor *b) { return ct__call_T_TT(ct__op.mm, a, b); }
CTDEF ct_status ct_mm_out(ct_tensor *out, ct_tensor *a, ct_tensor *b) { return ct__call_W_TTW(ct__op.mm_out, a, b, out); }
CTDEF ct_status ct_copy_(ct_tensor *self, ct_tensor *src) { return ct__call_W_TTb(ct__op.copy_, self, src, false); }
CTDEF ct_status ct_fill_(ct_tensor *self, ct_scalar value) { return ct__call_W_TS(ct__op.fill__Scalar, self, value); }

/* ================= registration ================= */
typedef struct ct__builtin_kernel {
  const char *op;
  ct_unboxed_fn fn;
} ct__builtin_kernel;

/* The reference kernels, each registered for CPU and Meta. */
static const ct__builtin_kernel ct__builtin_kernels[] = {
    {"add.Tensor", CT_FN(ct__k_add)},           {"add_.Tensor", CT_FN(ct__k_add_)},
    {"add.out", CT_FN(ct__k_add_out)},          {"add.Scalar", CT_FN(ct__k_add_scalar)},
    {"add_.Scalar", CT_FN(ct__k_add_scalar_)},  {"sub.Tensor", CT_FN(ct__k_sub)},
    {"sub_.Tensor", CT_FN(ct__k_sub_)},         {"sub.out", CT_FN(ct__k_sub_out)},
    {"sub.Scalar", CT_FN(ct__k_sub_scalar)},    {"sub_.Scalar", CT_FN(ct__k_sub_scalar_)},
    {"mul.Tensor", CT_FN(ct__k2_mul)},          {"mul_.Tensor", CT_FN(ct__k2_mul_)},
    {"mul.out", CT_FN(ct__k2_mul_out)},         {"mul.Scalar", CT_FN(ct__k2_mul_scalar)},
    {"mul_.Scalar", CT_FN(ct__k2_mul_scalar_)}, {"div.Tensor", CT_FN(ct__k2_div)},
    {"div_.Tensor", CT_FN(ct__k2_div_)},        {"div.out", CT_FN(ct__k2_div_out)},
    {"div.Scalar", CT_FN(ct__k2_div_scalar)},   {"div_.Scalar", CT_FN(ct__k2_div_scalar_)},
    {"neg", CT_FN(ct__k_neg)},                  {"neg_", CT_FN(ct__k_neg_)},
    {"neg.out", CT_FN(ct__k_neg_out)},          {"relu", CT_FN(ct__k_relu)},
    {"relu_", CT_FN(ct__k_relu_)},              {"exp", CT_FN(ct__k_exp)},
    {"exp_", CT_FN(ct__k_exp_)},                {"exp.out", CT_FN(ct__k_exp_out)},
    {"sum", CT_FN(ct__k_sum)},                  {"sum.dim_IntList", CT_FN(ct__k_sum_dim)},
    {"sum.IntList_out", CT_FN(ct__k_sum_out)},  {"mm", CT_FN(ct__k_mm)},
    {"mm.out", CT_FN(ct__k_mm_out)},            {"copy_", CT_FN(ct__k_copy_)},
    {"fill_.Scalar", CT_FN(ct__k_fill_)},
};

/* Keys that pass straight through until their functionality exists. */
static const ct_key ct__default_fallthrough[] = {
    CT_KEY_BACKEND_SELECT,          CT_KEY_AD_INPLACE_OR_VIEW,      CT_KEY_AUTOGRAD_META,
    CT_KEY_AUTOGRAD_CPU,            CT_KEY_AUTOGRAD_CUDA,           CT_KEY_AUTOGRAD_PRIVATEUSE1,
    CT_KEY_AUTOGRAD_PRIVATEUSE2,    CT_KEY_AUTOGRAD_PRIVATEUSE3,    CT_KEY_AUTOGRAD_OTHER,
    CT_KEY_AUTOCAST_CPU,            CT_KEY_AUTOCAST_CUDA,
};

static void ct__init(void) {
  size_t i;
  static const char *const schemas[] = {
#define CT__X(handle, schema) schema,
      CT__BUILTIN_OPS(CT__X)
#undef CT__X
  };
  ct_op **handles[sizeof schemas / sizeof schemas[0]];
  size_t n = 0;
#define CT__X(handle, schema) handles[n++] = &ct__op.handle;
  CT__BUILTIN_OPS(CT__X)
#undef CT__X
  ct__lock();
  if (ct__initialized) {
    ct__unlock();
    return;
  }
  for (i = 0; i < sizeof ct__builtin_adapters / sizeof ct__builtin_adapters[0]; i++)
    ct__register_adapter_locked(ct__builtin_adapters[i].signature, ct__builtin_adapters[i].fn);
  for (i = 0; i < n; i++) *handles[i] = ct__def_locked(schemas[i], "ct_init");
  for (i = 0; i < sizeof ct__builtin_kernels / sizeof ct__builtin_kernels[0]; i++) {
    ct_kernel k = ct_kernel_unboxed(ct__builtin_kernels[i].fn);
    k.source = "reference";
    ct__impl_locked(ct__builtin_kernels[i].op, CT_KEY_CPU, k, "ct_init");
    ct__impl_locked(ct__builtin_kernels[i].op, CT_KEY_META, k, "ct_init");
  }
  for (i = 0; i < sizeof ct__default_fallthrough / sizeof ct__default_fallthrough[0]; i++)
    ct__registry.fallthrough |= ct_keyset_of(ct__default_fallthrough[i]);
  ct__recompute_all();
  ct__atomic_store(&ct__initialized, 1);
  ct__unlock();
}

CT_EXTERN_C_END
#endif /* CT__OPS_IMPL */
