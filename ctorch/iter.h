/* ctorch/iter.h - the strided iteration helper every elementwise loop uses.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A ct_iter walks N operands of one iteration shape. Operand 0 is usually
 * the output. Each operand has byte strides over the shape; a broadcast
 * dimension has stride 0 (so a reduction is an iteration whose output has
 * stride 0 along the reduced dimensions). Building an iterator drops size-1
 * dimensions and merges neighbours that are contiguous for every operand, so
 * a contiguous or uniformly broadcast problem becomes one flat loop.
 *
 * A loop function gets the operands' base pointers, their innermost byte
 * strides and a count; it is called once per row of the coalesced shape:
 *     void loop(char **data, const int64_t *strides, int64_t n, void *ctx);
 */
#ifndef CT_ITER_H
#define CT_ITER_H

#include "tensor.h"
#include "parallel.h"

CT_EXTERN_C_BEGIN

#define CT_ITER_MAX_OPERANDS 4

typedef void (*ct_loop_fn)(char **data, const int64_t *strides, int64_t n, void *ctx);

typedef struct ct_iter {
  int noperands;
  int ndim;                                    /* after coalescing; dims stored innermost first */
  int64_t numel;
  int64_t shape[CT_MAX_DIMS];                  /* shape[0] is the innermost dimension */
  int64_t strides[CT_MAX_DIMS][CT_ITER_MAX_OPERANDS]; /* bytes, per dim per operand */
  char *data[CT_ITER_MAX_OPERANDS];            /* address of each operand's first element */
} ct_iter;

/* Broadcast shapes a and b (numpy rules) into out; returns its rank or -1
 * with CT_ERR_SHAPE naming op. */
CTDEF int ct_broadcast_shapes(const char *op, int na, const int64_t *a, int nb, const int64_t *b, int64_t *out);

/* Run loop over `operands` (each broadcasting to (ndim, shape)): the one call
 * kernels make. When every operand is contiguous in exactly that shape it
 * calls loop once over the flat data without building an iterator. */
CTDEF void ct_iter_foreach(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *operands, int ndim,
                           const int64_t *shape);
/* ct_iter_foreach for loops that are pure per element (operand 0 is the
 * output, written only at the current element; ctx is read-only): from
 * CT_ITER_GRAIN elements up, the work is split into fixed chunks run on
 * ct_get_num_threads() threads (ct_parallel_for), so results do not depend
 * on the thread count. Below the grain, or when operand 0 broadcasts (a
 * reduction), it is exactly ct_iter_foreach. */
#ifndef CT_ITER_GRAIN
#define CT_ITER_GRAIN 32768
#endif
CTDEF void ct_iter_foreach_parallel(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *operands, int ndim,
                                    const int64_t *shape);
/* The general iterator, for kernels that need to inspect the coalesced shape. */
CTDEF ct_status ct_iter_init(ct_iter *it, int noperands, ct_tensor *const *operands, int ndim, const int64_t *shape);
CTDEF void ct_iter_run(const ct_iter *it, ct_loop_fn loop, void *ctx);

CT_EXTERN_C_END
#endif /* CT_ITER_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__ITER_IMPL)
#define CT__ITER_IMPL
CT_EXTERN_C_BEGIN

CTDEF int ct_broadcast_shapes(const char *op, int na, const int64_t *a, int nb, const int64_t *b, int64_t *out) {
  int n = na > nb ? na : nb, i;
  for (i = 0; i < n; i++) {
    int ia = na - n + i, ib = nb - n + i;
    int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      ct_fail(CT_ERR_SHAPE, op, "the size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
              (long long)sa, (long long)sb, i);
      return -1;
    }
    out[i] = sa == 1 ? sb : sa;
  }
  return n;
}

/* Is t contiguous with exactly this shape? */
static int ct__iter_flat(const ct_tensor *t, int ndim, const int64_t *shape) {
  int64_t expected = 1;
  int d;
  if (t->ndim != ndim) return 0;
  for (d = ndim - 1; d >= 0; d--) {
    if (t->sizes[d] != shape[d]) return 0;
    if (shape[d] != 1 && t->strides[d] != expected) return 0;
    expected = ct__mul_sat(expected, shape[d]);
  }
  return 1;
}

/* t's first element, or NULL for a storage without data (empty, meta): no
 * pointer arithmetic on NULL, which is undefined even with a zero offset. */
static char *ct__iter_base(const ct_tensor *t) {
  char *p = (char *)t->storage->data;
  return p ? p + t->offset * (int64_t)ct_dtype_size((ct_dtype)t->dtype) : NULL;
}

CTDEF ct_status ct_iter_init(ct_iter *it, int noperands, ct_tensor *const *ops, int ndim, const int64_t *shape) {
  int d, k, nd = 0, flat = 1;
  it->noperands = noperands;
  it->numel = ct__sizes_product_sat(ndim, shape);
  for (k = 0; k < noperands; k++) {
    it->data[k] = ct__iter_base(ops[k]);
    flat = flat && ct__iter_flat(ops[k], ndim, shape);
  }
  if (flat) { /* every operand contiguous in the iteration shape: one flat loop */
    it->ndim = 1;
    it->shape[0] = it->numel;
    for (k = 0; k < noperands; k++) it->strides[0][k] = (int64_t)ct_dtype_size((ct_dtype)ops[k]->dtype);
    return CT_OK;
  }
  /* innermost first; size-1 dims dropped */
  for (d = ndim - 1; d >= 0; d--) {
    if (shape[d] == 1) continue;
    it->shape[nd] = shape[d];
    for (k = 0; k < noperands; k++) {
      const ct_tensor *t = ops[k];
      int td = t->ndim - (ndim - d);
      int64_t es = (int64_t)ct_dtype_size((ct_dtype)t->dtype);
      it->strides[nd][k] = (td >= 0 && t->sizes[td] != 1) ? t->strides[td] * es : 0;
    }
    nd++;
  }
  /* merge dim d+1 into d when every operand steps contiguously across them */
  if (nd > 1) {
    int w = 0;
    for (d = 1; d < nd; d++) {
      int ok = 1;
      for (k = 0; k < noperands; k++)
        if (it->strides[d][k] != it->strides[w][k] * it->shape[w]) ok = 0;
      if (ok) {
        it->shape[w] *= it->shape[d];
      } else {
        w++;
        it->shape[w] = it->shape[d];
        for (k = 0; k < noperands; k++) it->strides[w][k] = it->strides[d][k];
      }
    }
    nd = w + 1;
  }
  it->ndim = nd;
  return CT_OK;
}

CTDEF void ct_iter_foreach(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *ops, int ndim,
                           const int64_t *shape) {
  char *data[CT_ITER_MAX_OPERANDS];
  int64_t strides[CT_ITER_MAX_OPERANDS], numel;
  int k;
  for (k = 0; k < noperands; k++) {
    const ct_tensor *t = ops[k];
    if (!ct__iter_flat(t, ndim, shape)) {
      ct_iter it;
      ct_iter_init(&it, noperands, ops, ndim, shape);
      ct_iter_run(&it, loop, ctx);
      return;
    }
    strides[k] = (int64_t)ct_dtype_size((ct_dtype)t->dtype);
    data[k] = ct__iter_base(t);
  }
  numel = ct__sizes_product_sat(ndim, shape);
  if (numel) loop(data, strides, numel, ctx);
}

/* Rows [b, e) of an iterator (a row: the innermost dimension), for the
 * parallel path: the odometer starts from row b. */
typedef struct ct__iter_job {
  const ct_iter *it;
  ct_loop_fn loop;
  void *ctx;
  int64_t row_len; /* flat case: elements per chunk step (1); else shape[0] */
} ct__iter_job;

static void ct__iter_rows(int64_t b, int64_t e, void *p) {
  const ct__iter_job *j = (const ct__iter_job *)p;
  const ct_iter *it = j->it;
  char *ptrs[CT_ITER_MAX_OPERANDS];
  int64_t idx[CT_MAX_DIMS], r = b, row;
  int k, d, n = it->noperands;
  if (it->ndim == 1) { /* flat: b, e are element indices */
    for (k = 0; k < n; k++) ptrs[k] = it->data[k] + b * it->strides[0][k];
    j->loop(ptrs, it->strides[0], e - b, j->ctx);
    return;
  }
  for (k = 0; k < n; k++) ptrs[k] = it->data[k];
  for (d = 1; d < it->ndim; d++) { /* row index -> outer coordinates */
    idx[d] = r % it->shape[d];
    r /= it->shape[d];
    for (k = 0; k < n; k++) ptrs[k] += idx[d] * it->strides[d][k];
  }
  for (row = b; row < e; row++) {
    int64_t inner[CT_ITER_MAX_OPERANDS];
    for (k = 0; k < n; k++) inner[k] = it->strides[0][k];
    j->loop(ptrs, inner, it->shape[0], j->ctx);
    for (d = 1; d < it->ndim; d++) {
      for (k = 0; k < n; k++) ptrs[k] += it->strides[d][k];
      if (++idx[d] < it->shape[d]) break;
      for (k = 0; k < n; k++) ptrs[k] -= it->strides[d][k] * it->shape[d];
      idx[d] = 0;
    }
  }
}

CTDEF void ct_iter_foreach_parallel(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *ops, int ndim,
                                    const int64_t *shape) {
  ct_iter it;
  ct__iter_job job;
  int64_t numel = ct__sizes_product_sat(ndim, shape), rows;
  int d;
  if (numel < 2 * (int64_t)CT_ITER_GRAIN || ct_get_num_threads() < 2 || ct_in_parallel_region()) {
    ct_iter_foreach(loop, ctx, noperands, ops, ndim, shape);
    return;
  }
  ct_iter_init(&it, noperands, ops, ndim, shape);
  for (d = 0; d < it.ndim; d++)
    if (it.strides[d][0] == 0) { /* the output broadcasts: a reduction, keep it sequential */
      ct_iter_run(&it, loop, ctx);
      return;
    }
  job.it = &it;
  job.loop = loop;
  job.ctx = ctx;
  if (it.ndim <= 1) {
    ct_parallel_for(it.numel, CT_ITER_GRAIN, ct__iter_rows, &job);
    return;
  }
  rows = it.numel / it.shape[0];
  ct_parallel_for(rows, it.shape[0] >= CT_ITER_GRAIN ? 1 : CT_ITER_GRAIN / it.shape[0], ct__iter_rows, &job);
}

CTDEF void ct_iter_run(const ct_iter *it, ct_loop_fn loop, void *ctx) {
  char *ptrs[CT_ITER_MAX_OPERANDS];
  int64_t inner[CT_ITER_MAX_OPERANDS], idx[CT_MAX_DIMS];
  int k, d, n = it->noperands;
  if (it->numel == 0) return;
  if (it->ndim == 1) { /* the common case: one call */
    loop((char **)it->data, it->strides[0], it->shape[0], ctx);
    return;
  }
  for (k = 0; k < n; k++) {
    ptrs[k] = it->data[k];
    inner[k] = it->ndim ? it->strides[0][k] : 0;
  }
  if (it->ndim == 0) {
    loop(ptrs, inner, 1, ctx);
    return;
  }
  memset(idx, 0, sizeof idx);
  for (;;) {
    loop(ptrs, inner, it->shape[0], ctx);
    for (d = 1; d < it->ndim; d++) { /* odometer over the outer dims */
      for (k = 0; k < n; k++) ptrs[k] += it->strides[d][k];
      if (++idx[d] < it->shape[d]) break;
      for (k = 0; k < n; k++) ptrs[k] -= it->strides[d][k] * it->shape[d];
      idx[d] = 0;
    }
    if (d == it->ndim) return;
  }
}

CT_EXTERN_C_END
#endif /* CT__ITER_IMPL */
