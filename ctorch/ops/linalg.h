/* ctorch/ops/linalg.h - reference kernels: dot, mv, mm, bmm, matmul, addmm, baddbmm, outer, linear.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/linalg.spec and their derivatives in
 * gen/derivatives/linalg.spec; the frontends are generated (docs/ops.md).
 *
 * Every product runs through one strided kernel (ct__la_gemm):
 *   C[b] = alpha * (A[b] @ B[b]) + beta * C[b]     (beta ignored when 0)
 * with each operand read through its own strides, in i-k-j order over
 * blocks of 128 columns so that the inner loop walks rows of B (a fixed trip
 * count: vectorised at -O2) and the accumulators stay in L1. A B whose rows
 * are strided (a transposed matrix) is packed row-major first when several
 * rows of A reuse it. About 20 GFLOP/s for float32 256^3 on one x86-64 core. Accumulation
 * is in float for float32/float16/bfloat16, double for float64 and wrapping
 * 64-bit integers for the integer dtypes (PyTorch's CPU allows integer
 * products; bool is refused as in PyTorch). A faster backend (BLIS) may
 * register its own kernels for the same schemas.
 *
 * dot, mv, mm, bmm, addmm, baddbmm, addmv and addbmm are structured families
 * (ops/structured.h): a meta step (ct__meta_*: the checks and the result's
 * shape, dtype and device) and a CPU impl step (ct__impl_*: the product into
 * the contiguous output the glue gives it, which shares no memory with an
 * input). The in-place forms refuse a self that would broadcast (the glue's
 * check_inplace); an out= that is an input and would change shape is refused.
 *
 * matmul, outer and linear are CompositeImplicitAutograd, as in PyTorch:
 * matmul picks dot / mv / mm / bmm with PyTorch's shape rules (folding the
 * batch of an N-D operand into mm/mv when that needs no copy).
 */
#ifndef CT_OPS_LINALG_H
#define CT_OPS_LINALG_H

#include "../ops.h"

#endif /* CT_OPS_LINALG_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_LINALG_IMPL)
#define CT__OPS_LINALG_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- the strided kernel ---- */
typedef struct ct__la_gemm {
  int64_t batch, m, n, k;
  const char *a, *b; /* element [0,0,0] of each operand */
  char *c;
  int64_t as[3], bs[3], cs[3]; /* element strides: batch, row, column */
  double alpha_f, beta_f;
  uint64_t alpha_i, beta_i; /* integer dtypes: wrapping arithmetic */
  int use_beta;             /* 0: C's old values are never read (beta == 0 ignores NaN, as PyTorch) */
} ct__la_gemm;

#define CT__LA_NB 128 /* columns per block: the accumulators of one row block */

#define CT__LA_GEMM_LOOP(NAME, T, ACC, LOAD, STORE, ALPHA, BETA)                                   \
  static void NAME(const ct__la_gemm *g) {                                                         \
    const ACC alpha = (ACC)(ALPHA), beta = (ACC)(BETA);                                            \
    const T *A = (const T *)g->a, *B = (const T *)g->b;                                            \
    T *C = (T *)g->c;                                                                              \
    ACC acc[CT__LA_NB];                                                                            \
    int64_t bt, i, j, j0, k, nb;                                                                   \
    for (bt = 0; bt < g->batch; bt++)                                                              \
      for (i = 0; i < g->m; i++)                                                                   \
        for (j0 = 0; j0 < g->n; j0 += CT__LA_NB) {                                                 \
          T *crow = C + bt * g->cs[0] + i * g->cs[1] + j0 * g->cs[2];                              \
          nb = g->n - j0 < CT__LA_NB ? g->n - j0 : CT__LA_NB;                                      \
          for (j = 0; j < nb; j++) acc[j] = 0;                                                     \
          for (k = 0; k < g->k; k++) {                                                             \
            const ACC av = (ACC)LOAD(A[bt * g->as[0] + i * g->as[1] + k * g->as[2]]);              \
            const T *brow = B + bt * g->bs[0] + k * g->bs[1] + j0 * g->bs[2];                      \
            if (g->bs[2] == 1 && nb == CT__LA_NB) { /* a fixed trip count: vectorised at -O2 */    \
              for (j = 0; j < CT__LA_NB; j++) acc[j] += av * (ACC)LOAD(brow[j]);                   \
            } else if (g->bs[2] == 1) {                                                            \
              for (j = 0; j < nb; j++) acc[j] += av * (ACC)LOAD(brow[j]);                          \
            } else {                                                                               \
              for (j = 0; j < nb; j++) acc[j] += av * (ACC)LOAD(brow[j * g->bs[2]]);               \
            }                                                                                      \
          }                                                                                        \
          for (j = 0; j < nb; j++) {                                                               \
            T *cp = crow + j * g->cs[2];                                                           \
            ACC v = alpha * acc[j];                                                                \
            if (g->use_beta) v += beta * (ACC)LOAD(*cp);                                           \
            *cp = (T)STORE(v);                                                                     \
          }                                                                                        \
        }                                                                                          \
  }
#define CT__LA_DEF_FLOAT(sfx, T, ACC, LOAD, STORE) CT__LA_GEMM_LOOP(ct__la_gemm_##sfx, T, ACC, LOAD, STORE, g->alpha_f, g->beta_f)
CT__FLOAT_TYPES(CT__LA_DEF_FLOAT)
#define CT__LA_LOAD_INT(x) ((uint64_t)(int64_t)(x))
#define CT__LA_DEF_INT(sfx, T, U) CT__LA_GEMM_LOOP(ct__la_gemm_##sfx, T, uint64_t, CT__LA_LOAD_INT, CT__STORE_ID, g->alpha_i, g->beta_i)
CT__INT_TYPES(CT__LA_DEF_INT)

typedef void (*ct__la_gemm_fn)(const ct__la_gemm *);
/* in ct_dtype order: f32 f64 f16 bf16 i64 i32 u8 bool */
static const ct__la_gemm_fn ct__la_gemm_loops[CT_DTYPE_NUM] = {ct__la_gemm_f32, ct__la_gemm_f64, ct__la_gemm_f16, ct__la_gemm_bf16,
                                                              ct__la_gemm_i64, ct__la_gemm_i32, ct__la_gemm_u8,  NULL};

/* A number as a wrapping integer (NaN and out-of-range floats are not UB). */
static uint64_t ct__la_scalar_bits(ct_scalar s) {
  if (s.kind == CT_SCALAR_FLOAT) {
    double f = s.v.f;
    if (f != f) return 0;
    if (f >= 9.2e18) return (uint64_t)INT64_MAX;
    if (f <= -9.2e18) return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)f;
  }
  return s.kind == CT_SCALAR_INT ? (uint64_t)s.v.i : s.kind == CT_SCALAR_BOOL ? (uint64_t)s.v.b : 1;
}
static int ct__la_is_zero(ct_scalar s) {
  return (s.kind == CT_SCALAR_FLOAT && s.v.f == 0) || (s.kind == CT_SCALAR_INT && s.v.i == 0) ||
         (s.kind == CT_SCALAR_BOOL && !s.v.b);
}
static int ct__la_is_one(ct_scalar s) {
  return s.kind == CT_SCALAR_NONE || (s.kind == CT_SCALAR_FLOAT && s.v.f == 1) || (s.kind == CT_SCALAR_INT && s.v.i == 1) ||
         (s.kind == CT_SCALAR_BOOL && s.v.b);
}
static double ct__la_scalar_f(ct_scalar s) { return s.kind == CT_SCALAR_NONE ? 1.0 : ct_scalar_to_double(s); }

/* A 0..3-D operand's strides as (batch, row, column); a vector is a row
 * (A of dot: 1 x K) or a column (B of dot and mv, C of mv). */
static void ct__la_strides3(const ct_tensor *t, int vector_is_row, int64_t s[3]) {
  s[0] = s[1] = s[2] = 0;
  if (t->ndim == 3) s[0] = t->strides[0], s[1] = t->strides[1], s[2] = t->strides[2];
  else if (t->ndim == 2) s[1] = t->strides[0], s[2] = t->strides[1];
  else if (t->ndim == 1) s[vector_is_row ? 2 : 1] = t->strides[0];
}

/* Copies a strided 3-D block of es-byte elements (element strides st) into
 * dst, row-major. */
static void ct__la_gather3(char *dst, const char *src, size_t es, const int64_t sz[3], const int64_t st[3]) {
  int64_t i, j, k;
  for (i = 0; i < sz[0]; i++)
    for (j = 0; j < sz[1]; j++)
      for (k = 0; k < sz[2]; k++, dst += es) memcpy(dst, src + (size_t)(i * st[0] + j * st[1] + k * st[2]) * es, es);
}

static ct_status ct__la_dtype_mismatch(const char *op, ct_dtype want, ct_dtype got) {
  return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name(want), ct__dtype_torch_name(got));
}
static ct_status ct__la_same_dtype(const char *op, const ct_tensor *a, const ct_tensor *b) {
  return a->dtype == b->dtype ? CT_OK : ct__la_dtype_mismatch(op, (ct_dtype)a->dtype, (ct_dtype)b->dtype);
}

/* self must broadcast to the result's shape (PyTorch expands it) */
static ct_status ct__la_check_expand(const char *op, const ct_tensor *self, int ndim, const int64_t *shape) {
  char b1[160], b2[160];
  int i;
  if (self->ndim > ndim)
    return ct_fail(CT_ERR_SHAPE, op, "expand(%s, size=%s): the number of sizes provided (%d) must be greater or equal to the "
                   "number of dimensions in the tensor (%d)", ct_shape_format(self->ndim, self->sizes, b1, sizeof b1),
                   ct_shape_format(ndim, shape, b2, sizeof b2), ndim, self->ndim);
  for (i = 0; i < self->ndim; i++) {
    int64_t want = shape[ndim - self->ndim + i], have = self->sizes[i];
    if (have != want && have != 1)
      return ct_fail(CT_ERR_SHAPE, op, "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                     "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", (long long)want, (long long)have,
                     ndim - self->ndim + i, ct_shape_format(ndim, shape, b1, sizeof b1),
                     ct_shape_format(self->ndim, self->sizes, b2, sizeof b2));
  }
  return CT_OK;
}

/* ---- the meta steps' common tail ----
 * The dtype's product loop exists (bool: PyTorch's "not implemented"; kname
 * names PyTorch's kernel); then the out= tensor: one that partially overlaps
 * self is refused as PyTorch's copy of self into it (addmm, baddbmm, addmv,
 * addbmm), one that is an input and would change shape is refused (it cannot
 * be resized before the product reads it); then the result is declared
 * (mat1's dtype and device). */
static ct_status ct__la_meta_finish(ct__structured *st, const char *kname, ct_tensor *self, ct_tensor *a, const ct_tensor *b, int ndim,
                                    const int64_t *shape) {
  ct_dtype dtype = (ct_dtype)a->dtype;
  char b1[160], b2[160];
  if (!ct__la_gemm_loops[dtype]) return ct_fail(CT_ERR_DTYPE, st->op, "\"%s\" not implemented for '%s'", kname, ct__dtype_torch_name(dtype));
  if (st->variant == CT__ST_OUT) {
    ct_tensor *out = st->given[0];
    if (self && out->dtype == dtype && ct_device_eq(out->device, a->device) && ct__check_overlap(st->op, out, self) != CT_OK)
      return ct_last_error();
    if ((out == a || out == b || out == self) && !ct__out_has_shape(out, ndim, shape))
      return ct_fail(CT_ERR_INVALID, st->op, "out= is an input of shape %s but the result has shape %s: it cannot be resized",
                     ct_shape_format(out->ndim, out->sizes, b1, sizeof b1), ct_shape_format(ndim, shape, b2, sizeof b2));
  }
  return ct__set_output(st, 0, ndim, shape, dtype, a->device);
}

/* ---- the impl steps' product: out = beta * self + alpha * (a @ b) ----
 * out is contiguous and shares no memory with an input (the structured
 * glue's guarantee); self (or NULL) broadcasts and casts into it first, unless
 * beta is 0 (then self is never read: NaN in it is ignored, as PyTorch). A B
 * whose rows are strided (a transposed matrix) and that several rows of A
 * reuse is packed row-major first (a workspace), so the inner loop streams
 * through memory. */
static ct_status ct__la_run(ct_tensor *self, ct_scalar beta, ct_scalar alpha, ct_tensor *out, ct__la_gemm *g, size_t es) {
  ct_status s;
  char *packed = NULL;
  int use_beta = self && !ct__la_is_zero(beta);
  if (out->numel == 0) return CT_OK;
  if (use_beta && (s = ct__copy_impl(out, self)) != CT_OK) return s;
  g->c = (char *)ct_data_ptr(out);
  ct__la_strides3(out, 0, g->cs);
  if (g->n > 1 && g->m >= 4 && g->k > 0 && g->bs[2] != 1) {
    int64_t sz[3];
    sz[0] = g->batch, sz[1] = g->k, sz[2] = g->n;
    if ((packed = (char *)ct__workspace((size_t)(g->batch * g->k * g->n) * es)) != NULL) { /* (no memory: the strided loop still works) */
      ct__la_gather3(packed, g->b, es, sz, g->bs);
      g->b = packed, g->bs[0] = g->k * g->n, g->bs[1] = g->n, g->bs[2] = 1;
    }
  }
  g->alpha_f = ct__la_scalar_f(alpha), g->beta_f = ct__la_scalar_f(beta);
  g->alpha_i = ct__la_scalar_bits(alpha), g->beta_i = ct__la_scalar_bits(beta);
  g->use_beta = use_beta;
  if (g->k == 0) g->a = g->b = g->c; /* never read; keeps pointer arithmetic off NULL */
  ct__la_gemm_loops[out->dtype](g);
  ct__workspace_free(packed);
  return CT_OK;
}
static ct_status ct__la_product(ct_tensor *self, ct_tensor *a, ct_tensor *b, ct_scalar beta, ct_scalar alpha, ct_tensor *out,
                                int64_t batch, int64_t m, int64_t n, int64_t k) {
  ct__la_gemm g;
  memset(&g, 0, sizeof g);
  g.batch = batch, g.m = m, g.n = n, g.k = k;
  g.a = (const char *)ct_data_ptr(a);
  g.b = (const char *)ct_data_ptr(b);
  ct__la_strides3(a, 1, g.as);
  ct__la_strides3(b, 0, g.bs);
  return ct__la_run(self, beta, alpha, out, &g, ct_dtype_size((ct_dtype)b->dtype));
}

/* ---- dot ---- */
static ct_status ct__meta_dot(ct__structured *st, ct_tensor *self, ct_tensor *tensor) {
  ct_tensor *a = self, *b = tensor;
  if (a->ndim != 1 || b->ndim != 1)
    return ct_fail(CT_ERR_RANK, st->op, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
  if (a->sizes[0] != b->sizes[0])
    return ct_fail(CT_ERR_SHAPE, st->op, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of "
                   "elements, but got %lld and %lld elements respectively", (long long)a->sizes[0], (long long)b->sizes[0],
                   (long long)a->sizes[0], (long long)b->sizes[0]);
  if (a->dtype != b->dtype)
    return ct_fail(CT_ERR_DTYPE, st->op, "dot : expected both vectors to have same dtype, but found %s and %s",
                   ct__dtype_torch_name((ct_dtype)a->dtype), ct__dtype_torch_name((ct_dtype)b->dtype));
  if (ct__la_gemm_loops[a->dtype] && st->variant == CT__ST_OUT && st->given[0]->dtype != a->dtype) /* (PyTorch's dot message) */
    return ct_fail(CT_ERR_DTYPE, st->op, "result dtype %s does not match input dtype %s", ct__dtype_torch_name((ct_dtype)st->given[0]->dtype),
                   ct__dtype_torch_name((ct_dtype)a->dtype));
  return ct__la_meta_finish(st, "dot", NULL, a, b, 0, NULL);
}
static ct_status ct__impl_dot(ct_tensor *self, ct_tensor *tensor, ct_tensor *out) {
  return ct__la_product(NULL, self, tensor, ct_int(0), ct_int(1), out, 1, 1, 1, self->sizes[0]);
}

/* ---- mv and addmv: beta * self + alpha * (mat @ vec); self (any dtype: cast to mat's) broadcasts to the result ---- */
static ct_status ct__meta_mv(ct__structured *st, ct_tensor *self, ct_tensor *vec) {
  if (self->ndim != 2 || vec->ndim != 1)
    return ct_fail(CT_ERR_RANK, st->op, "vector + matrix @ vector expected, got 1, %d, %d", self->ndim, vec->ndim);
  if (self->sizes[1] != vec->sizes[0])
    return ct_fail(CT_ERR_SHAPE, st->op, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)", (long long)self->sizes[0],
                   (long long)self->sizes[0], (long long)self->sizes[1], (long long)vec->sizes[0]);
  if (ct__la_same_dtype(st->op, self, vec) != CT_OK) return ct_last_error();
  return ct__la_meta_finish(st, "addmv_impl_cpu", NULL, self, vec, 1, self->sizes);
}
static ct_status ct__impl_mv(ct_tensor *self, ct_tensor *vec, ct_tensor *out) {
  return ct__la_product(NULL, self, vec, ct_int(0), ct_int(1), out, 1, self->sizes[0], 1, self->sizes[1]);
}
static ct_status ct__meta_addmv(ct__structured *st, ct_tensor *self, ct_tensor *mat, ct_tensor *vec, ct_scalar beta, ct_scalar alpha) {
  (void)beta, (void)alpha;
  if (mat->ndim != 2 || vec->ndim != 1 || self->ndim > 1)
    return ct_fail(CT_ERR_RANK, st->op, "vector + matrix @ vector expected, got %d, %d, %d", self->ndim, mat->ndim, vec->ndim);
  if (mat->sizes[1] != vec->sizes[0] || (self->ndim == 1 && self->sizes[0] != mat->sizes[0] && self->sizes[0] != 1))
    return ct_fail(CT_ERR_SHAPE, st->op, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)",
                   (long long)(self->ndim ? self->sizes[0] : 1), (long long)mat->sizes[0], (long long)mat->sizes[1],
                   (long long)vec->sizes[0]);
  if (ct__la_same_dtype(st->op, mat, vec) != CT_OK) return ct_last_error();
  return ct__la_meta_finish(st, "addmv_impl_cpu", self, mat, vec, 1, mat->sizes);
}
static ct_status ct__impl_addmv(ct_tensor *self, ct_tensor *mat, ct_tensor *vec, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  return ct__la_product(self, mat, vec, beta, alpha, out, 1, mat->sizes[0], 1, mat->sizes[1]);
}

/* ---- mm and addmm ---- */
static ct_status ct__la_mm_check(const char *op, const char *n1, ct_tensor *a, ct_tensor *b) {
  if (a->ndim != 2) return ct_fail(CT_ERR_RANK, op, "%s must be a matrix, got a %dD tensor", n1, a->ndim);
  if (b->ndim != 2) return ct_fail(CT_ERR_RANK, op, "mat2 must be a matrix, got a %dD tensor", b->ndim);
  if (a->sizes[1] != b->sizes[0])
    return ct_fail(CT_ERR_SHAPE, op, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)", (long long)a->sizes[0],
                   (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
  if (a->dtype != b->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s (expected mat1 and mat2 to have the same dtype, but "
                   "got: %s != %s)", ct__dtype_torch_name((ct_dtype)a->dtype), ct__dtype_torch_name((ct_dtype)b->dtype),
                   ct_dtype_name((ct_dtype)a->dtype), ct_dtype_name((ct_dtype)b->dtype));
  return CT_OK;
}
static ct_status ct__meta_mm(ct__structured *st, ct_tensor *self, ct_tensor *mat2) {
  int64_t shape[2];
  if (ct__la_mm_check(st->op, "self", self, mat2) != CT_OK) return ct_last_error();
  shape[0] = self->sizes[0], shape[1] = mat2->sizes[1];
  return ct__la_meta_finish(st, "addmm_impl_cpu_", NULL, self, mat2, 2, shape);
}
static ct_status ct__impl_mm(ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  return ct__la_product(NULL, self, mat2, ct_int(0), ct_int(1), out, 1, self->sizes[0], mat2->sizes[1], self->sizes[1]);
}
/* the in-place form refuses a self that broadcasts (PyTorch's check_inplace: the glue's) */
static ct_status ct__meta_addmm(ct__structured *st, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  int64_t shape[2];
  (void)beta, (void)alpha;
  if (ct__la_mm_check(st->op, "mat1", mat1, mat2) != CT_OK) return ct_last_error();
  if (self->dtype != mat1->dtype)
    return ct_fail(CT_ERR_DTYPE, st->op, "self and mat2 must have the same dtype, but got %s and %s",
                   ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)mat2->dtype));
  shape[0] = mat1->sizes[0], shape[1] = mat2->sizes[1];
  if (st->variant != CT__ST_INPLACE && ct__la_check_expand(st->op, self, 2, shape) != CT_OK) return ct_last_error();
  return ct__la_meta_finish(st, "addmm_impl_cpu_", self, mat1, mat2, 2, shape);
}
static ct_status ct__impl_addmm(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  return ct__la_product(self, mat1, mat2, beta, alpha, out, 1, mat1->sizes[0], mat2->sizes[1], mat1->sizes[1]);
}

/* ---- bmm and baddbmm ---- */
static ct_status ct__la_bmm_check(const char *op, ct_tensor *a, ct_tensor *b) {
  if (a->ndim != 3) return ct_fail(CT_ERR_RANK, op, "batch1 must be a 3D tensor, got a %dD tensor", a->ndim);
  if (b->ndim != 3) return ct_fail(CT_ERR_RANK, op, "batch2 must be a 3D tensor, got a %dD tensor", b->ndim);
  if (b->sizes[0] != a->sizes[0] || b->sizes[1] != a->sizes[2])
    return ct_fail(CT_ERR_SHAPE, op, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: "
                   "[%lld, %lld].", (long long)a->sizes[0], (long long)a->sizes[2], (long long)b->sizes[0], (long long)b->sizes[1]);
  return ct__la_same_dtype(op, a, b);
}
static ct_status ct__meta_bmm(ct__structured *st, ct_tensor *self, ct_tensor *mat2) {
  int64_t shape[3];
  if (ct__la_bmm_check(st->op, self, mat2) != CT_OK) return ct_last_error();
  shape[0] = self->sizes[0], shape[1] = self->sizes[1], shape[2] = mat2->sizes[2];
  return ct__la_meta_finish(st, "bmm", NULL, self, mat2, 3, shape);
}
static ct_status ct__impl_bmm(ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  return ct__la_product(NULL, self, mat2, ct_int(0), ct_int(1), out, self->sizes[0], self->sizes[1], mat2->sizes[2], self->sizes[2]);
}
/* self: any dtype, cast to the result's (batch1's), as PyTorch; the in-place form refuses a self that broadcasts */
static ct_status ct__meta_baddbmm(ct__structured *st, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta,
                                  ct_scalar alpha) {
  int64_t shape[3];
  (void)beta, (void)alpha;
  if (ct__la_bmm_check(st->op, batch1, batch2) != CT_OK) return ct_last_error();
  shape[0] = batch1->sizes[0], shape[1] = batch1->sizes[1], shape[2] = batch2->sizes[2];
  if (st->variant != CT__ST_INPLACE && ct__la_check_expand(st->op, self, 3, shape) != CT_OK) return ct_last_error();
  return ct__la_meta_finish(st, "bmm", self, batch1, batch2, 3, shape);
}
static ct_status ct__impl_baddbmm(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha,
                                  ct_tensor *out) {
  return ct__la_product(self, batch1, batch2, beta, alpha, out, batch1->sizes[0], batch1->sizes[1], batch2->sizes[2], batch1->sizes[2]);
}

/* ---- addbmm: beta * self + alpha * sum_b batch1[b] @ batch2[b], one product of
 * (m, B*k) @ (B*k, n): batch1 gathered as (m, B, k) and batch2 as (B, k, n), row-major ---- */
static ct_status ct__meta_addbmm(ct__structured *st, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta,
                                 ct_scalar alpha) {
  int64_t shape[2], kk;
  (void)beta, (void)alpha;
  if (ct__la_bmm_check(st->op, batch1, batch2) != CT_OK) return ct_last_error();
  if (self->dtype != batch1->dtype)
    return ct_fail(CT_ERR_DTYPE, st->op, "self and mat2 must have the same dtype, but got %s and %s",
                   ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)batch1->dtype));
  if (ct__mul_ovf(batch1->sizes[0], batch1->sizes[2], &kk)) return ct_fail(CT_ERR_SIZE, st->op, "batch * k overflows int64");
  shape[0] = batch1->sizes[1], shape[1] = batch2->sizes[2];
  if (st->variant != CT__ST_INPLACE && ct__la_check_expand(st->op, self, 2, shape) != CT_OK) return ct_last_error();
  return ct__la_meta_finish(st, "addmm_impl_cpu_", self, batch1, batch2, 2, shape);
}
static ct_status ct__impl_addbmm(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha,
                                 ct_tensor *out) {
  int64_t B = batch1->sizes[0], m = batch1->sizes[1], k = batch1->sizes[2], n = batch2->sizes[2], kk = B * k, sz[3], st[3];
  size_t es = ct_dtype_size((ct_dtype)batch1->dtype);
  ct__la_gemm g;
  char *wa = NULL, *wb = NULL;
  ct_status s;
  if (out->numel == 0 || kk == 0) return ct__la_product(self, batch1, batch2, beta, alpha, out, 1, m, n, 0);
  if (!(wa = (char *)ct__workspace((size_t)batch1->numel * es)) || !(wb = (char *)ct__workspace((size_t)batch2->numel * es))) {
    ct__workspace_free(wa);
    return ct_fail(CT_ERR_OOM, "addbmm", "out of memory for the gathered operands (%lld and %lld values)", (long long)batch1->numel,
                   (long long)batch2->numel);
  }
  sz[0] = m, sz[1] = B, sz[2] = k, st[0] = batch1->strides[1], st[1] = batch1->strides[0], st[2] = batch1->strides[2];
  ct__la_gather3(wa, (const char *)ct_data_ptr(batch1), es, sz, st);
  sz[0] = B, sz[1] = k, sz[2] = n, st[0] = batch2->strides[0], st[1] = batch2->strides[1], st[2] = batch2->strides[2];
  ct__la_gather3(wb, (const char *)ct_data_ptr(batch2), es, sz, st);
  /* the two as row-major matrices (m, B*k) and (B*k, n) */
  memset(&g, 0, sizeof g);
  g.batch = 1, g.m = m, g.n = n, g.k = kk;
  g.a = wa, g.b = wb;
  g.as[1] = kk, g.as[2] = 1, g.bs[1] = n, g.bs[2] = 1;
  s = ct__la_run(self, beta, alpha, out, &g, es);
  ct__workspace_free(wa);
  ct__workspace_free(wb);
  return s;
}

/* addbmm's gradient (in a formula's scope): for batch1 (which 0) grad @ batch2[b]^T, for batch2
 * (1) batch1[b]^T @ grad, for every b */
static ct_tensor *ct__addbmm_backward(ct_tensor *grad, ct_tensor *other, ct_scalar alpha, int which) {
  int64_t sizes[3];
  ct_tensor *g;
  sizes[0] = other->sizes[0], sizes[1] = grad->sizes[0], sizes[2] = grad->sizes[1];
  g = ct_expand(ct_unsqueeze(grad, 0), 3, sizes);
  return ct__scale(which == 0 ? ct_bmm(g, ct_transpose(other, 1, 2)) : ct_bmm(ct_transpose(other, 1, 2), g), alpha);
}

/* ================= composite kernels (CompositeImplicitAutograd) ================= */

/* outer: self.reshape(n, 1) * vec2, as PyTorch (so it promotes like mul) */
static ct_tensor *ct__k_outer(ct_keyset ks, ct_tensor *self, ct_tensor *vec2) {
  ct_tensor *r = NULL;
  int64_t shape[2];
  (void)ks;
  if (self->ndim != 1 || vec2->ndim != 1)
    return ct_fail(CT_ERR_RANK, "outer", "outer: Expected 1-D argument %s, but got %d-D", self->ndim != 1 ? "self" : "vec2",
                   self->ndim != 1 ? self->ndim : vec2->ndim),
           (ct_tensor *)NULL;
  shape[0] = self->sizes[0], shape[1] = 1;
  CT_SCOPE { r = ct_keep(ct_mul(ct_reshape(self, 2, shape), vec2)); }
  return r;
}

/* addr: beta * self + alpha * outer(vec1, vec2), elementwise as PyTorch's (its dtype is the
 * three operands' result type); beta = 0 ignores self (even NaN); on bool,
 * (beta and self) or (alpha and vec1 * vec2). The operands are cast to the result's dtype first. */
static ct_dtype ct__la_addr_check(ct_tensor *self, ct_tensor *vec1, ct_tensor *vec2, ct_scalar beta, ct_scalar alpha,
                                  int64_t shape[2]) {
  static const char *op = "addr";
  ct_dtype d;
  if (vec1->ndim != 1 || vec2->ndim != 1)
    return ct_fail(CT_ERR_RANK, op, "addr: Expected 1-D argument %s, but got %d-D", vec1->ndim != 1 ? "vec1" : "vec2",
                   vec1->ndim != 1 ? vec1->ndim : vec2->ndim),
           CT_DTYPE_NONE;
  shape[0] = vec1->sizes[0], shape[1] = vec2->sizes[0];
  if (ct__la_check_expand(op, self, 2, shape) != CT_OK) return CT_DTYPE_NONE;
  /* (self counts expanded to the result: a 0-dim self promotes like the vectors) */
  d = ct_promote_types(ct_promote_types((ct_dtype)self->dtype, (ct_dtype)vec1->dtype), (ct_dtype)vec2->dtype);
  if (d != CT_BOOL && !ct_dtype_is_floating(d) && (beta.kind == CT_SCALAR_FLOAT || alpha.kind == CT_SCALAR_FLOAT))
    return ct_fail(CT_ERR_INVALID, op, "For integral input tensors, argument %s must not be a floating point number.",
                   beta.kind == CT_SCALAR_FLOAT ? "beta" : "alpha"),
           CT_DTYPE_NONE;
  return d;
}
static ct_tensor *ct__k_addr(ct_keyset ks, ct_tensor *self, ct_tensor *vec1, ct_tensor *vec2, ct_scalar beta, ct_scalar alpha) {
  int64_t shape[2];
  ct_dtype d = ct__la_addr_check(self, vec1, vec2, beta, alpha, shape);
  ct_tensor *r = NULL;
  (void)ks;
  if (d == CT_DTYPE_NONE) return NULL;
  CT_SCOPE {
    ct_tensor *term = ct_outer(ct_to_dtype(vec1, d), ct_to_dtype(vec2, d)), *o;
    self = ct_to_dtype(self, d);
    if (d == CT_BOOL) {
      if (ct__la_is_zero(alpha)) term = ct_zeros_like(term);
      o = ct__la_is_zero(beta) ? term : ct_logical_or(self, term);
    } else {
      if (!ct__la_is_one(alpha)) term = ct_mul_scalar(term, alpha);
      o = ct__la_is_zero(beta) ? term : ct_add(ct__la_is_one(beta) ? self : ct_mul_scalar(self, beta), term);
    }
    /* (beta = 0 or a bool alpha = 0: still self's shape and dtype take part) */
    if (o && !(o->ndim == 2 && o->sizes[0] == shape[0] && o->sizes[1] == shape[1])) o = ct_expand(o, 2, shape);
    if (o && o->dtype != d) o = ct_to_dtype(o, d);
    if (o && o->base) o = ct_clone(o); /* (self itself, expanded: a new tensor) */
    r = ct_keep(o);
  }
  return r;
}
static ct_status ct__k_addr_(ct_keyset ks, ct_tensor *self, ct_tensor *vec1, ct_tensor *vec2, ct_scalar beta, ct_scalar alpha) {
  int64_t shape[2];
  ct_dtype d = ct__la_addr_check(self, vec1, vec2, beta, alpha, shape);
  ct_status st = CT_OK;
  char b1[160], b2[160];
  (void)ks;
  if (d == CT_DTYPE_NONE) return ct_last_error();
  if (self->ndim != 2 || self->sizes[0] != shape[0] || self->sizes[1] != shape[1])
    return ct_fail(CT_ERR_SHAPE, "addr_", "output with shape %s doesn't match the broadcast shape %s",
                   ct_shape_format(self->ndim, self->sizes, b1, sizeof b1), ct_shape_format(2, shape, b2, sizeof b2));
  if (!ct_can_cast(d, (ct_dtype)self->dtype))
    return ct_fail(CT_ERR_DTYPE, "addr_", "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(d),
                   ct__dtype_torch_name((ct_dtype)self->dtype));
  CT_SCOPE { st = ct_copy_(self, ct_addr_ex(self, vec1, vec2, beta, alpha)); }
  return st;
}
static ct_status ct__k_addr_out(ct_keyset ks, ct_tensor *self, ct_tensor *vec1, ct_tensor *vec2, ct_scalar beta, ct_scalar alpha,
                                ct_tensor *out) {
  return ct__result_to_out("addr", out, ct__k_addr(ks, self, vec1, vec2, beta, alpha));
}

/* ---- tensordot: the contracted dims moved last in self and first in other, one mm ---- */
static ct_tensor *ct__la_tensordot(ct_tensor *self, ct_tensor *other, ct_int_list dims_self, ct_int_list dims_other) {
  static const char *op = "tensordot";
  int64_t d1[CT_MAX_DIMS], d2[CT_MAX_DIMS], p1[CT_MAX_DIMS], p2[CT_MAX_DIMS], rs[2 * CT_MAX_DIMS], csize = 1, n1 = 1, n2 = 1;
  int nd = (int)(dims_self.n < 0 ? 0 : dims_self.n), i, j, k1 = 0, k2 = 0, nr = 0;
  unsigned used1 = 0, used2 = 0;
  ct_tensor *r = NULL;
  if (dims_self.n != dims_other.n)
    return ct_fail(CT_ERR_SHAPE, op, "both dimension lists should have same length"), (ct_tensor *)NULL;
  if (nd > self->ndim || nd > other->ndim)
    return ct_fail(CT_ERR_INDEX, op, "more dims to contract (%d) than the operands have", nd), (ct_tensor *)NULL;
  for (i = 0; i < nd; i++) {
    if ((d1[i] = ct__wrap_dim(op, dims_self.data[i], self->ndim)) < 0 || (d2[i] = ct__wrap_dim(op, dims_other.data[i], other->ndim)) < 0)
      return NULL;
    if ((used1 >> d1[i]) & 1u)
      return ct_fail(CT_ERR_INVALID, op, "dim %lld appears multiple times in the list of dims", (long long)d1[i]), (ct_tensor *)NULL;
    if ((used2 >> d2[i]) & 1u)
      return ct_fail(CT_ERR_INVALID, op, "dim %lld appears multiple times in the list of dims", (long long)d2[i]), (ct_tensor *)NULL;
    used1 |= 1u << d1[i], used2 |= 1u << d2[i];
    if (self->sizes[d1[i]] != other->sizes[d2[i]] && self->sizes[d1[i]] != 1 && other->sizes[d2[i]] != 1)
      return ct_fail(CT_ERR_SHAPE, op, "contracted dimensions need to match, but first has size %lld in dim %lld and second has "
                     "size %lld in dim %lld", (long long)self->sizes[d1[i]], (long long)d1[i], (long long)other->sizes[d2[i]],
                     (long long)d2[i]),
             (ct_tensor *)NULL;
  }
  CT_SCOPE {
    ct_tensor *t1 = self, *t2 = other, *o = NULL;
    /* a contracted dim of size 1 on one side: the other side's is summed first (broadcast, as PyTorch) */
    for (i = 0; i < nd && t1 && t2; i++) {
      int64_t s1 = self->sizes[d1[i]], s2 = other->sizes[d2[i]];
      if (s2 == 1) t1 = ct_sum_dim(t1, 1, &d1[i], true);
      else if (s1 == 1) t2 = ct_sum_dim(t2, 1, &d2[i], true);
      else csize = ct__mul_sat(csize, s1);
    }
    if (t1 && t2) {
      for (j = 0; j < self->ndim; j++)
        if (!((used1 >> j) & 1u)) p1[k1++] = j, n1 = ct__mul_sat(n1, self->sizes[j]), rs[nr++] = self->sizes[j];
      for (j = 0; j < other->ndim; j++)
        if (!((used2 >> j) & 1u)) p2[nd + k2++] = j, n2 = ct__mul_sat(n2, other->sizes[j]), rs[nr++] = other->sizes[j];
      for (i = 0; i < nd; i++) p1[k1 + i] = d1[i], p2[i] = d2[i];
      if (nr > CT_MAX_DIMS) {
        ct_fail(CT_ERR_RANK, op, "the result would have %d dims (at most %d)", nr, CT_MAX_DIMS);
      } else {
        int64_t s1[2], s2[2];
        s1[0] = n1, s1[1] = csize, s2[0] = csize, s2[1] = n2;
        o = ct_reshape(ct_mm(ct_reshape(ct_permute(t1, self->ndim, p1), 2, s1), ct_reshape(ct_permute(t2, other->ndim, p2), 2, s2)),
                       nr, rs);
      }
    }
    r = ct_keep(o);
  }
  return r;
}
static ct_tensor *ct__k_tensordot(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_int_list dims_self, ct_int_list dims_other) {
  (void)ks;
  return ct__la_tensordot(self, other, dims_self, dims_other);
}
static ct_status ct__k_tensordot_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_int_list dims_self, ct_int_list dims_other,
                                     ct_tensor *out) {
  (void)ks;
  return ct__result_to_out("tensordot", out, ct__la_tensordot(self, other, dims_self, dims_other));
}

/* ---- kron: self's and other's dims interleaved (each padded to the larger rank with leading 1s),
 * multiplied (broadcasting), the pairs merged ---- */
static ct_tensor *ct__la_kron(ct_tensor *self, ct_tensor *other) {
  int64_t as[CT_MAX_DIMS], bs[CT_MAX_DIMS], rs[CT_MAX_DIMS];
  int n = self->ndim > other->ndim ? self->ndim : other->ndim, pa = n - self->ndim, pb = n - other->ndim, i;
  ct_tensor *r = NULL;
  if (2 * n > CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, "kron", "kron of %d-dim tensors needs %d dims (at most %d)", n, 2 * n, CT_MAX_DIMS), (ct_tensor *)NULL;
  for (i = 0; i < n; i++) {
    as[2 * i] = i >= pa ? self->sizes[i - pa] : 1, as[2 * i + 1] = 1;
    bs[2 * i] = 1, bs[2 * i + 1] = i >= pb ? other->sizes[i - pb] : 1;
    rs[i] = ct__mul_sat(as[2 * i], bs[2 * i + 1]);
  }
  CT_SCOPE { r = ct_keep(ct_reshape(ct_mul(ct_reshape(self, 2 * n, as), ct_reshape(other, 2 * n, bs)), n, rs)); }
  return r;
}
static ct_tensor *ct__k_kron(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  (void)ks;
  return ct__la_kron(self, other);
}
static ct_status ct__k_kron_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  (void)ks;
  return ct__result_to_out("kron", out, ct__la_kron(self, other));
}

/* ---- einsum ----
 * Each operand is brought to one aligned layout: the broadcast ellipsis dims, then every label
 * (A-Z before a-z, as PyTorch numbers them), size 1 where it lacks one; a label repeated within
 * an operand takes that diagonal. Labels that occur in one operand only and not in the output are
 * summed there; then the operands are contracted left to right, each pair as one bmm over
 * (kept by both, kept by left only, summed, kept by right only) (PyTorch's sumproduct_pair);
 * the summed dims stay as size 1 until the end. */
enum { CT__EIN_LABELS = 52, CT__EIN_MAX_OPS = 64 };
static int ct__ein_label(char c) { return c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26 : -1; }
typedef struct ct__ein_operand {
  int nlab;                      /* its subscripts, in order (-1 marks where the ellipsis is) */
  int lab[CT_MAX_DIMS + 1];
  int has_ellipsis;
} ct__ein_operand;
/* contract left and right (aligned, nd dims); sum[i]: dim i is summed (it stays, size 1) */
static ct_tensor *ct__ein_pair(ct_tensor *left, ct_tensor *right, int nd, const int *sum) {
  int64_t pl[CT_MAX_DIMS], pr[CT_MAX_DIMS], shape[CT_MAX_DIMS], back[CT_MAX_DIMS], l3[3] = {1, 1, 1}, r3[3] = {1, 1, 1};
  int cls[CT_MAX_DIMS], order[CT_MAX_DIMS], i, c, k = 0;
  /* classes: 0 kept by both (batch), 1 left only, 2 summed, 3 right only */
  for (i = 0; i < nd && left && right; i++) {
    int sl = left->sizes[i] != 1, sr = right->sizes[i] != 1;
    int64_t dim = i;
    if (sum[i]) {
      if (sl && !sr) left = ct_sum_dim(left, 1, &dim, true);
      else if (sr && !sl) right = ct_sum_dim(right, 1, &dim, true);
      cls[i] = 2;
    } else {
      cls[i] = sl && sr ? 0 : sl ? 1 : sr ? 3 : 0;
    }
  }
  if (!left || !right) return NULL;
  for (c = 0; c < 4; c++)
    for (i = 0; i < nd; i++)
      if (cls[i] == c) order[k++] = i;
  for (i = 0; i < nd; i++) {
    int d = order[i];
    int64_t sz = cls[d] == 2 ? 1 : left->sizes[d] != 1 ? left->sizes[d] : right->sizes[d];
    shape[i] = sz;
    back[d] = i;
    if (cls[d] == 0) l3[0] = ct__mul_sat(l3[0], sz), r3[0] = l3[0];
    if (cls[d] == 1) l3[1] = ct__mul_sat(l3[1], left->sizes[d]);
    if (cls[d] == 2) l3[2] = ct__mul_sat(l3[2], left->sizes[d]), r3[1] = l3[2];
    if (cls[d] == 3) r3[2] = ct__mul_sat(r3[2], right->sizes[d]);
  }
  /* left as (batch, left only, summed), right as (batch, summed, right only) */
  for (i = 0, k = 0; i < nd; i++) pl[k++] = order[i]; /* batch, left-only, summed, right-only (size 1 in left) */
  for (c = 0, k = 0; c < 4; c++) {
    static const int rorder[4] = {0, 2, 3, 1}; /* right: batch, summed, right-only, left-only (size 1) */
    for (i = 0; i < nd; i++)
      if (cls[i] == rorder[c]) pr[k++] = i;
  }
  {
    ct_tensor *o = ct_bmm(ct_reshape(ct_permute(left, nd, pl), 3, l3), ct_reshape(ct_permute(right, nd, pr), 3, r3));
    return ct_permute(ct_reshape(o, nd, shape), nd, back);
  }
}
static ct_tensor *ct__la_einsum(const char *equation, ct_tensor_list tensors) {
  static const char *op = "einsum";
  ct__ein_operand ops[CT__EIN_MAX_OPS];
  int count[CT__EIN_LABELS], in_out[CT__EIN_LABELS], slot[CT__EIN_LABELS], out_lab[CT_MAX_DIMS + 1];
  int nops = 0, i, j, nout = 0, out_ellipsis = -1, nlabels = 0, ell = 0, nd;
  int64_t n = tensors.n < 0 ? 0 : tensors.n;
  const char *p;
  ct_tensor *r = NULL;
  if (!equation) return ct_fail(CT_ERR_INVALID, op, "einsum(): the equation is None"), (ct_tensor *)NULL;
  memset(count, 0, sizeof count), memset(in_out, 0, sizeof in_out);
  memset(ops, 0, sizeof ops);
  /* the operands' subscripts */
  for (p = equation;; p++) {
    ct__ein_operand *o;
    if (nops >= CT__EIN_MAX_OPS) return ct_fail(CT_ERR_INVALID, op, "einsum(): more than %d operands", CT__EIN_MAX_OPS), (ct_tensor *)NULL;
    o = &ops[nops++];
    for (; *p && *p != ',' && !(p[0] == '-' && p[1] == '>'); p++) {
      if (*p == ' ') continue;
      if (*p == '.') {
        if (p[1] != '.' || p[2] != '.' || o->has_ellipsis)
          return ct_fail(CT_ERR_INVALID, op, "einsum(): found '.' for operand %d that is not part of any ellipsis", nops - 1),
                 (ct_tensor *)NULL;
        o->has_ellipsis = 1, p += 2;
        if (o->nlab > CT_MAX_DIMS) break;
        o->lab[o->nlab++] = -1;
        continue;
      }
      if (ct__ein_label(*p) < 0)
        return ct_fail(CT_ERR_INVALID, op, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be "
                       "in [a-zA-Z]", (int)(p - equation)),
               (ct_tensor *)NULL;
      if (o->nlab > CT_MAX_DIMS)
        return ct_fail(CT_ERR_RANK, op, "einsum(): operand %d has more subscripts than %d dims", nops - 1, CT_MAX_DIMS), (ct_tensor *)NULL;
      o->lab[o->nlab++] = ct__ein_label(*p);
    }
    if (*p != ',') break;
  }
  if (nops < n) return ct_fail(CT_ERR_INVALID, op, "einsum(): more operands were provided than specified in the equation"), (ct_tensor *)NULL;
  if (nops > n) return ct_fail(CT_ERR_INVALID, op, "einsum(): fewer operands were provided than specified in the equation"), (ct_tensor *)NULL;
  for (i = 0; i < nops; i++) {
    ct_tensor *t = tensors.data[i];
    int nl = ops[i].nlab - ops[i].has_ellipsis;
    if (!t) return ct_fail(CT_ERR_INVALID, op, "einsum(): operand %d is NULL", i), (ct_tensor *)NULL;
    if (ops[i].has_ellipsis ? nl > t->ndim : nl != t->ndim)
      return ct_fail(CT_ERR_SHAPE, op, "einsum(): the number of subscripts in the equation (%d) %s the number of dimensions (%d) for "
                     "operand %d%s", nl, ops[i].has_ellipsis ? "is more than" : "does not match", t->ndim, i,
                     ops[i].has_ellipsis ? "" : " and no ellipsis was given"),
             (ct_tensor *)NULL;
    if (ops[i].has_ellipsis && t->ndim - nl > ell) ell = t->ndim - nl;
    if (t->dtype != tensors.data[0]->dtype)
      return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name((ct_dtype)tensors.data[0]->dtype),
                     ct__dtype_torch_name((ct_dtype)t->dtype)),
             (ct_tensor *)NULL;
    for (j = 0; j < ops[i].nlab; j++)
      if (ops[i].lab[j] >= 0) count[ops[i].lab[j]]++;
  }
  /* the output's subscripts: given after "->", else the ellipsis and the labels seen once, in order */
  if (*p == '-') {
    for (p += 2; *p; p++) {
      int l;
      if (*p == ' ') continue;
      if (*p == '.') {
        if (p[1] != '.' || p[2] != '.' || out_ellipsis >= 0)
          return ct_fail(CT_ERR_INVALID, op, "einsum(): found '.' for output that is not part of any ellipsis"), (ct_tensor *)NULL;
        out_ellipsis = nout, p += 2;
        continue;
      }
      if ((l = ct__ein_label(*p)) < 0)
        return ct_fail(CT_ERR_INVALID, op, "einsum(): invalid subscript given at index %d in the equation string, subscripts must be "
                       "in [a-zA-Z]", (int)(p - equation)),
               (ct_tensor *)NULL;
      if (!count[l])
        return ct_fail(CT_ERR_INVALID, op, "einsum(): output subscript %c does not appear in the equation for any input operand", *p),
               (ct_tensor *)NULL;
      if (in_out[l]) return ct_fail(CT_ERR_INVALID, op, "einsum(): output subscript %c appears more than once in the output", *p), (ct_tensor *)NULL;
      if (nout >= CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "einsum(): more than %d output subscripts", CT_MAX_DIMS), (ct_tensor *)NULL;
      in_out[l] = 1, out_lab[nout++] = l;
    }
  } else {
    out_ellipsis = 0;
    for (i = 0; i < CT__EIN_LABELS; i++)
      if (count[i] == 1 && nout < CT_MAX_DIMS) in_out[i] = 1, out_lab[nout++] = i;
  }
  /* the aligned layout: ellipsis dims 0..ell-1, then each label seen, by its number */
  for (i = 0; i < CT__EIN_LABELS; i++) slot[i] = count[i] ? ell + nlabels++ : -1;
  nd = ell + nlabels;
  if (nd > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "einsum(): %d distinct dims (at most %d)", nd, CT_MAX_DIMS), (ct_tensor *)NULL;
  CT_SCOPE {
    ct_tensor *al[CT__EIN_MAX_OPS], *acc = NULL;
    int ok = 1;
    for (i = 0; i < nops && ok; i++) {
      ct_tensor *t = tensors.data[i];
      int dl[CT_MAX_DIMS], k, e = t->ndim - (ops[i].nlab - ops[i].has_ellipsis), m = 0;
      int64_t perm[CT_MAX_DIMS], shape[CT_MAX_DIMS];
      /* the label (>= 0) or the ellipsis slot (-1 - slot) of each dim of t */
      for (j = 0; j < ops[i].nlab; j++) {
        if (ops[i].lab[j] >= 0) dl[m++] = ops[i].lab[j];
        else
          for (k = 0; k < e; k++) dl[m++] = -1 - (ell - e + k);
      }
      /* repeated labels: their diagonal (it goes last) */
      for (j = 0; j < m && t; j++)
        for (k = j + 1; k < m && t; k++)
          if (dl[j] >= 0 && dl[j] == dl[k]) {
            int lab = dl[j], q;
            if (t->sizes[j] != t->sizes[k]) {
              ct_fail(CT_ERR_SHAPE, op, "einsum(): subscript %c is repeated for operand %d but the sizes don't match, %lld != %lld",
                      lab < 26 ? 'A' + lab : 'a' + lab - 26, i, (long long)t->sizes[j], (long long)t->sizes[k]);
              t = NULL;
              break;
            }
            t = ct_diagonal(t, 0, j, k);
            for (q = 0, e = 0; q < m; q++)
              if (q != j && q != k) dl[e++] = dl[q];
            dl[e++] = lab, m = e, j = -1;
            break;
          }
      if (!t) {
        ok = 0;
        break;
      }
      /* aligned: a permute, then size-1 dims where the operand lacks a slot */
      for (k = 0; k < nd; k++) shape[k] = 1;
      {
        int pos[CT_MAX_DIMS], np = 0;
        for (k = 0; k < nd; k++) pos[k] = -1;
        for (j = 0; j < m; j++) pos[dl[j] >= 0 ? slot[dl[j]] : -1 - dl[j]] = j;
        for (k = 0; k < nd; k++)
          if (pos[k] >= 0) perm[np++] = pos[k], shape[k] = t->sizes[pos[k]];
        t = ct_reshape(ct_permute(t, m, perm), nd, shape);
      }
      al[i] = t;
      ok = t != NULL;
    }
    /* sizes must agree (1 broadcasts) */
    for (j = 0; j < nd && ok; j++) {
      int64_t seen = 1;
      for (i = 0; i < nops && ok; i++) {
        int64_t sz = al[i]->sizes[j];
        if (sz != 1 && seen != 1 && sz != seen) {
          int lab;
          for (lab = 0; lab < CT__EIN_LABELS && slot[lab] != j; lab++) {
          }
          if (lab < CT__EIN_LABELS)
            ct_fail(CT_ERR_SHAPE, op, "einsum(): subscript %c has size %lld for operand %d which does not broadcast with previously "
                    "seen size %lld", lab < 26 ? 'A' + lab : 'a' + lab - 26, (long long)sz, i, (long long)seen);
          else
            ct_fail(CT_ERR_SHAPE, op, "einsum(): operands do not broadcast with remapped shapes (original->remapped)");
          ok = 0;
        }
        if (sz != 1) seen = sz;
      }
    }
    /* contract left to right: a dim is summed once no later operand and not the output needs it */
    for (i = 0; ok && i < nops; i++) {
      int sum[CT_MAX_DIMS];
      int64_t dim;
      for (j = 0; j < nd; j++) {
        int k, lab = -1;
        for (k = 0; k < CT__EIN_LABELS; k++)
          if (slot[k] == j) lab = k;
        sum[j] = lab >= 0 ? !in_out[lab] : out_ellipsis < 0; /* ellipsis dims: summed when the output has none */
        for (k = i + 1; k < nops && sum[j]; k++)
          if (al[k]->sizes[j] != 1) sum[j] = 0;
      }
      if (i == 0) {
        acc = al[0];
        for (j = 0; j < nd && acc; j++)
          if (sum[j] && acc->sizes[j] != 1) dim = j, acc = ct_sum_dim(acc, 1, &dim, true);
      } else {
        acc = ct__ein_pair(acc, al[i], nd, sum);
      }
      ok = acc != NULL;
    }
    /* the output: the ellipsis dims where it has them, then its labels in its order */
    if (ok) {
      int64_t perm[CT_MAX_DIMS], shape[CT_MAX_DIMS];
      int k = 0, q;
      for (q = 0; q <= nout; q++) {
        if (q == out_ellipsis)
          for (j = 0; j < ell; j++) perm[k++] = j;
        if (q < nout) perm[k++] = slot[out_lab[q]];
      }
      for (j = 0; j < nd; j++) { /* the rest: summed, size 1 */
        int taken = 0;
        for (q = 0; q < k; q++) taken |= perm[q] == j;
        if (!taken) perm[k++] = j;
      }
      acc = ct_permute(acc, nd, perm);
      for (q = 0; acc && q < nd; q++) shape[q] = acc->sizes[q];
      if (acc) acc = ct_reshape(acc, (out_ellipsis >= 0 ? ell : 0) + nout, shape); /* (a view of a lone operand, as PyTorch's) */
    }
    r = ct_keep(ok ? acc : NULL);
  }
  return r;
}
static ct_tensor *ct__k_einsum(ct_keyset ks, const char *equation, ct_tensor_list tensors, ct_int_list path) {
  (void)ks;
  (void)path; /* (the contraction order: left to right here, as PyTorch without opt_einsum) */
  return ct__la_einsum(equation, tensors);
}

/* PyTorch's should_fold: an N-D (N >= 3) operand times a 1-D or 2-D one
 * folds the batch into mm / mv when that needs no copy of the big operand
 * (or when the small one requires grad, which keeps its gradient an mm). */
static int ct__la_should_fold(const ct_tensor *t1, const ct_tensor *t2) {
  int larger = t1->ndim >= t2->ndim, dim_big, dim_small, i;
  const ct_tensor *big = larger ? t1 : t2;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  dim_big = big->ndim;
  dim_small = larger ? t2->ndim : t1->ndim;
  if (!(dim_big >= 3 && dim_small <= 2)) return 0;
  if (ct__needs_grad(larger ? t2 : t1)) return 1;
  if (t1->ndim == 2) return 0; /* the result would need a transposing copy */
  if (big->numel == 0) return 1;
  for (i = 0; i < dim_big; i++) sizes[i] = big->sizes[i], strides[i] = big->strides[i];
  if (!larger) { /* big is t2.mT */
    sizes[dim_big - 1] = big->sizes[dim_big - 2], sizes[dim_big - 2] = big->sizes[dim_big - 1];
    strides[dim_big - 1] = big->strides[dim_big - 2], strides[dim_big - 2] = big->strides[dim_big - 1];
  }
  for (i = 0; i < dim_big - 2; i++)
    if (strides[i] != strides[i + 1] * sizes[i + 1]) return 0;
  return 1;
}
static ct_tensor *ct__la_matmul_fold(ct_tensor *a, ct_tensor *b) {
  int transpose = b->ndim > a->ndim;
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *t1 = transpose ? ct_transpose(b, -1, -2) : a;
    ct_tensor *t2 = !transpose ? b : a->ndim == 2 ? ct_t(a) : a;
    ct_tensor *o = NULL;
    if (t1 && t2) {
      int64_t oshape[CT_MAX_DIMS], fshape[2], folded = 1;
      int on = t1->ndim - 1, i;
      for (i = 0; i < on; i++) folded = ct__mul_sat(folded, oshape[i] = t1->sizes[i]);
      fshape[0] = folded, fshape[1] = t1->sizes[on];
      if (folded == INT64_MAX) { /* (a zero-size operand whose other sizes multiply past int64) */
        char buf[160];
        ct_fail(CT_ERR_SIZE, "matmul", "the batch dims of %s multiply past int64: they cannot be folded",
                ct_shape_format(t1->ndim, t1->sizes, buf, sizeof buf));
      } else if (t2->ndim == 2) {
        t1 = ct_reshape(t1, 2, fshape);
        oshape[on++] = t2->sizes[1];
        o = ct_view(ct_mm(t1, t2), on, oshape);
        if (transpose) o = ct_contiguous(ct_transpose(o, -1, -2));
      } else {
        o = ct_view(ct_mv(ct_reshape(t1, 2, fshape), t2), on, oshape);
      }
    }
    r = ct_keep(o);
  }
  return r;
}
/* batched: broadcast the batch dims, flatten them, bmm, view back */
static ct_tensor *ct__la_matmul_batched(ct_tensor *a, ct_tensor *b) {
  int da = a->ndim, db = b->ndim, nb, i;
  int64_t n = da > 1 ? a->sizes[da - 2] : 1, m1 = a->sizes[da - 1];
  int64_t m2 = db > 1 ? b->sizes[db - 2] : b->sizes[0], p = db > 1 ? b->sizes[db - 1] : 1;
  int64_t batch[CT_MAX_DIMS + 2], ea[CT_MAX_DIMS + 2], eb[CT_MAX_DIMS + 2], fa[3], fb[3], prod = 1;
  ct_tensor *r = NULL;
  nb = ct_broadcast_shapes("matmul", da > 2 ? da - 2 : 0, a->sizes, db > 2 ? db - 2 : 0, b->sizes, batch);
  if (nb < 0) return NULL;
  if (nb + 2 > CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, "matmul", "the broadcast batch has %d dims: the result would exceed rank %d", nb, CT_MAX_DIMS),
           (ct_tensor *)NULL;
  for (i = 0; i < nb; i++) prod = ct__mul_sat(prod, ea[i] = eb[i] = batch[i]);
  if (prod == INT64_MAX) /* (zero-size operands whose other sizes multiply past int64) */
    return ct_fail(CT_ERR_SIZE, "matmul", "the broadcast batch dims multiply past int64: they cannot be flattened"), (ct_tensor *)NULL;
  ea[nb] = n, ea[nb + 1] = m1, eb[nb] = m2, eb[nb + 1] = p;
  fa[0] = fb[0] = prod, fa[1] = n, fa[2] = m1, fb[1] = m2, fb[2] = p;
  CT_SCOPE {
    ct_tensor *x = ct_reshape(ct_expand(a, nb + 2, ea), 3, fa);
    ct_tensor *y = ct_reshape(ct_expand(db == 1 ? ct_unsqueeze(b, -1) : b, nb + 2, eb), 3, fb);
    ct_tensor *o = ct_bmm(x, y);
    int on = nb;
    if (da > 1) batch[on++] = n;
    if (db > 1) batch[on++] = p;
    r = ct_keep(ct_view(o, on, batch));
  }
  return r;
}
/* matmul: torch.matmul's shape cases */
static ct_tensor *ct__k_matmul(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r = NULL;
  (void)ks;
  if (a->ndim == 0 || b->ndim == 0)
    return ct_fail(CT_ERR_RANK, "matmul", "both arguments to matmul need to be at least 1D, but they are %dD and %dD", a->ndim,
                   b->ndim),
           (ct_tensor *)NULL;
  if (a->ndim == 1 && b->ndim == 1) return ct_dot(a, b);
  if (a->ndim == 2 && b->ndim == 1) return ct_mv(a, b);
  if (a->ndim == 2 && b->ndim == 2) return ct_mm(a, b);
  if (a->ndim == 1 && b->ndim == 2) {
    CT_SCOPE { r = ct_keep(ct_squeeze_dim(ct_mm(ct_unsqueeze(a, 0), b), 0)); }
    return r;
  }
  if (ct__la_should_fold(a, b)) return ct__la_matmul_fold(a, b);
  return ct__la_matmul_batched(a, b);
}

/* PyTorch's output.add_(bias), out of place (the output may be a view, which
 * ctorch's autograd does not rebase): bias may not grow the output, and the
 * sum keeps the output's dtype. */
static ct_tensor *ct__la_add_bias(ct_tensor *o, ct_tensor *bias) {
  int64_t shape[CT_MAX_DIMS];
  char b1[160], b2[160];
  int n = ct_broadcast_shapes("linear", o->ndim, o->sizes, bias->ndim, bias->sizes, shape);
  if (n < 0) return NULL;
  if (n != o->ndim || memcmp(shape, o->sizes, sizeof(int64_t) * (size_t)n))
    return ct_fail(CT_ERR_SHAPE, "linear", "output with shape %s doesn't match the broadcast shape %s (adding bias)",
                   ct_shape_format(o->ndim, o->sizes, b1, sizeof b1), ct_shape_format(n, shape, b2, sizeof b2)),
           (ct_tensor *)NULL;
  return ct_to_dtype(ct_add(o, bias), (ct_dtype)o->dtype);
}
/* linear: input @ weight.t() + bias, through addmm where PyTorch does. It
 * runs below autograd (linear has its own derivative): a folded N-D result
 * is an alias of the 2-D product that is no view (PyTorch's _unsafe_view),
 * so in-place ops on it never look for a base. */
static ct_tensor *ct__k_linear(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *wt = ct_t(weight), *o = NULL;
    if (wt && bias && input->ndim == 2) {
      o = ct_addmm(bias, input, wt);
    } else if (wt && bias && input->ndim >= 3 && wt->ndim == 2 && ct_is_contiguous(input)) {
      int64_t flat[2], shape[CT_MAX_DIMS], strides[CT_MAX_DIMS];
      int i, n = input->ndim;
      flat[0] = input->numel / (input->sizes[n - 1] ? input->sizes[n - 1] : 1), flat[1] = input->sizes[n - 1];
      if (input->numel == 0) /* (a zero-size batch: any fold with a zero row count) */
        for (flat[0] = 1, i = 0; i < n - 1; i++) flat[0] *= input->sizes[i];
      o = ct_addmm(bias, ct_view(input, 2, flat), wt);
      if (o) {
        for (i = 0; i < n - 1; i++) shape[i] = input->sizes[i];
        shape[n - 1] = o->sizes[1];
        ct__contiguous_strides(n, shape, strides);
        o = ct__make_view(o, n, shape, strides, o->offset);
      }
    } else if (wt) {
      o = ct_matmul(input, wt);
      if (o && bias) o = ct__la_add_bias(o, bias);
    }
    r = ct_keep(o);
  }
  return r;
}
/* linear's derivatives: d input = grad @ weight; d weight = grad^T @ input
 * over every leading dim (the products AddmmBackward0 computes for weight.t(),
 * made [out][in] directly); the bias gets grad, summed to its shape by the
 * engine. Written with ct ops: differentiable again. */
static ct_tensor *ct__linear_input_backward(ct_tensor *grad, ct_tensor *weight) {
  if (!grad) return NULL;
  if (weight->ndim == 1) /* (a 1-D weight: output = input @ weight, one dim less) */
    return ct_mul(ct_unsqueeze(grad, -1), weight);
  return ct_matmul(grad, weight);
}
static ct_tensor *ct__linear_weight_backward(ct_tensor *grad, ct_tensor *input, const ct__shape *weight_sizes) {
  int64_t in = input->ndim ? input->sizes[input->ndim - 1] : 1, flat[2];
  if (!grad) return NULL;
  if (weight_sizes->ndim == 1) { /* grad has input's leading dims */
    if (input->ndim == 1) return ct_mul(grad, input);
    flat[0] = -1, flat[1] = in;
    return ct_mv(ct_t(ct_reshape(input, 2, flat)), ct_reshape(grad, 1, flat));
  }
  if (input->ndim == 1) return ct_outer(grad, input);
  if (input->ndim > 2) { /* leading dims folded into rows */
    int64_t gflat[2];
    gflat[0] = -1, gflat[1] = grad->sizes[grad->ndim - 1], flat[0] = -1, flat[1] = in;
    grad = ct_reshape(grad, 2, gflat), input = ct_reshape(input, 2, flat);
  }
  return ct_mm(ct_t(grad), input);
}

/* ---- out= forms of the composites: compute, then resize out and copy ---- */
static int ct__la_out_grad_ok(const char *op, ct_tensor *const *in, int n) {
  int i;
  for (i = 0; i < n; i++)
    if (ct__grad_mode() && ct__needs_grad(in[i])) return ct__out_not_differentiable(op), 0;
  return 1;
}
static ct_status ct__la_into_out(const char *op, ct_tensor *r, ct_tensor *out) {
  ct_status st = CT_OK;
  if (!r) return ct_last_error();
  if (out->dtype != r->dtype)
    st = ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead", ct_dtype_name((ct_dtype)r->dtype),
                 ct_dtype_name((ct_dtype)out->dtype));
  else if (!ct__out_device_ok(op, out, r->device) || ct__check_writable(op, out) != CT_OK)
    st = ct_last_error();
  else if ((st = ct__resize_out(op, out, r->ndim, r->sizes)) == CT_OK && (st = ct__copy_impl(out, r)) == CT_OK)
    ct__bump_version(out);
  ct_release(r);
  return st;
}
static ct_status ct__k_matmul_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  ct_tensor *in[3];
  in[0] = a, in[1] = b, in[2] = out;
  return ct__la_out_grad_ok("matmul", in, 3) ? ct__la_into_out("matmul", ct__k_matmul(ks, a, b), out) : ct_last_error();
}
static ct_status ct__k_outer_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  ct_tensor *in[3];
  in[0] = a, in[1] = b, in[2] = out;
  if (ct__check_overlaps("outer", out, 2, in) != CT_OK) return ct_last_error(); /* PyTorch's outer is a mul: TensorIterator's checks */
  return ct__la_out_grad_ok("outer", in, 3) ? ct__la_into_out("outer", ct__k_outer(ks, a, b), out) : ct_last_error();
}
static ct_status ct__k_linear_out(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias, ct_tensor *out) {
  ct_tensor *in[4];
  in[0] = input, in[1] = weight, in[2] = out, in[3] = bias;
  return ct__la_out_grad_ok("linear", in, bias ? 4 : 3) ? ct__la_into_out("linear", ct__k_linear(ks, input, weight, bias), out)
                                                         : ct_last_error();
}

CT_EXTERN_C_END
#endif /* CT__OPS_LINALG_IMPL */
