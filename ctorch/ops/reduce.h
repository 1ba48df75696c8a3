/* ctorch/ops/reduce.h - reference kernels: reductions, scans, sort and topk.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/reduce.spec and their derivatives in
 * gen/derivatives/reduce.spec; the frontends are generated (docs/ops.md).
 *
 * One mechanism serves every op here (ct_host_reduction_loop): the input's dims are
 * split into outer dims and a set of reduced dims; for each outer position
 * the elements of the reduced dims are gathered, in row-major order, into a
 * contiguous row (as double for floating compute dtypes, as int64 for
 * integers and bool), a row function computes m results (1 for a reduction,
 * the row length for a scan, k for topk) and an optional int64 index per
 * result, and the driver stores them into the outputs, which are strided
 * views of the input's rank (size 1, or m, on the reduced dims). The order
 * of every accumulation is fixed, so results are the same run to run.
 * Floating rows accumulate in double (f16 and bf16 included), integer rows
 * in int64 with wrap-around (never UB).
 */
#ifndef CT_OPS_REDUCE_H
#define CT_OPS_REDUCE_H

#include "../ops.h"

CT_EXTERN_C_BEGIN

/* ---- the reduction engine's loop entry per device type (as ops/pointwise.h's) ----
 * Every kernel here is a meta step (dims, output sizes and dtype, out=
 * checks and resize: no reads of data) and one ct_reduction_call handed to
 * the loop of the output's device type. The CPU's loop,
 * ct_host_reduction_loop, gathers each row of the input into a contiguous
 * double (or int64) buffer, runs the call's row function on it and stores
 * the results. A device sets its own loop with ct_set_reduction_loop: every
 * op of the engine (spec key Reduction) is then registered at its backend
 * key; the loop computes the ops it has kernels for (by call->op) and hands
 * the rest to ct_reduction_on_host. */

/* One row, as a row function sees it. */
typedef struct ct_reduction_row {
  int64_t n, m;      /* input row length, output row length */
  const double *xf;  /* the row as double (floating compute) */
  const int64_t *xi; /* or as int64 (integer and bool compute); the same memory as xf */
  const double *x2;  /* a second input's row (double), when the call has one */
  int64_t n2;        /* its length */
  int64_t *tmp;      /* scratch when the call asks (need_tmp) */
  double *yf;        /* m results (float results) */
  int64_t *yi;       /* m results (integer results) */
  int64_t *idx;      /* m indices, for the second output */
  const void *ctx;   /* the call's host_ctx */
} ct_reduction_row;
typedef void (*ct_reduction_row_fn)(ct_reduction_row *r);

/* ct_reduction_call.op: which computation. Reductions (one result per
 * row): out has size 1 on the reduced dims. _ARG ops: out (values, may be
 * NULL) and indices (int64) of the first extreme, NaN winning. Scans and
 * SORT: m = n (SORT and TOPK: m = k) results per row along the one reduced
 * dim (SOFTMAX, LOG_SOFTMAX: floating results, the max subtracted, in
 * double: ops/nn.h). param: VAR/STD's correction, NORM's ord; iparam: SORT's descending,
 * KTHVALUE's k, GATHER's and INDEX_BACKWARD's dim. GATHER / INDEX_BACKWARD / ROWWISE (derivative helpers) have
 * only a host form. */
typedef enum ct_reduction_op {
  CT_RD_SUM, CT_RD_PROD, CT_RD_MEAN, CT_RD_AMAX, CT_RD_AMIN, CT_RD_VAR, CT_RD_STD, CT_RD_NORM, CT_RD_LOGSUMEXP,
  CT_RD_ALL, CT_RD_ANY, CT_RD_NANSUM, CT_RD_NANMEAN, CT_RD_COUNT_NONZERO, CT_RD_ARGMAX, CT_RD_ARGMIN,
  CT_RD_CUMSUM, CT_RD_CUMPROD, CT_RD_LOGCUMSUMEXP, CT_RD_CUMMAX, CT_RD_CUMMIN, CT_RD_SORT, CT_RD_KTHVALUE,
  CT_RD_MEDIAN, CT_RD_NANMEDIAN, CT_RD_GATHER, CT_RD_INDEX_BACKWARD, CT_RD_ROWWISE, CT_RD_SOFTMAX, CT_RD_LOG_SOFTMAX,
  CT_RD_NUM_OPS
} ct_reduction_op;

/* One reduction, as the engine hands it to a device's loop. Every tensor
 * lives on one device; out and indices have the input's rank. */
#define CT_REDUCTION_CHECK_INDEX 1 /* a data check: in2 holds indices into each row (GATHER: of in; INDEX_BACKWARD: of out),
                                    * one outside the row is an error naming dim iparam ("index ... is out of bounds") */
typedef struct ct_reduction_call {
  int op;                       /* ct_reduction_op */
  const char *name;             /* the op, for messages */
  int flags;                    /* CT_REDUCTION_* */
  ct_tensor *in;                /* the input, any dtype and strides */
  int int_compute;              /* rows as int64 (integers, bool), else as double */
  ct_tensor *in2;               /* optional second input, read as double: sizes equal to in's off the reduced dims */
  const int *reduce;            /* 1 on each reduced dim of in */
  ct_tensor *out;               /* results: sizes equal to in's off the reduced dims; may be NULL */
  int out_int;                  /* results are integers (yi), else floating (yf) */
  ct_tensor *indices;           /* int64 indices (any integer or floating dtype on the host); may be NULL */
  double param;                 /* see ct_reduction_op */
  int64_t iparam;
  ct_reduction_row_fn host_row; /* the host form: the row function and its context */
  const void *host_ctx;
  int need_tmp;                 /* the row function uses row.tmp: need_tmp * 2 (max(n, m) + 1) int64 */
} ct_reduction_call;
typedef ct_status (*ct_reduction_loop_fn)(const ct_reduction_call *call);

/* As ct_set_pointwise_loop: setting a loop registers every engine op's
 * kernel at the type's backend key (kernels already there stay); NULL
 * removes them. */
CTDEF ct_status ct_set_reduction_loop(ct_device_type type, ct_reduction_loop_fn loop);
CTDEF ct_reduction_loop_fn ct_reduction_loop(ct_device_type type);
/* The CPU's loop, for host memory. */
CTDEF ct_status ct_host_reduction_loop(const ct_reduction_call *call);
/* For a device loop handed a call it has no kernel for: the operands'
 * memory mirrored on the host (ct_pointwise_on_host's staging). Synchronous. */
CTDEF ct_status ct_reduction_on_host(const ct_reduction_call *call);

CT_EXTERN_C_END
#endif /* CT_OPS_REDUCE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_REDUCE_IMPL)
#define CT__OPS_REDUCE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ================= the reduction mechanism ================= */

/* Which dims a reduction covers, and the output shape. */
typedef struct ct__rd_plan {
  int ndim;                     /* rank of the input */
  int reduce[CT_MAX_DIMS];      /* 1 on each reduced dim */
  int64_t kept[CT_MAX_DIMS];    /* the input's shape with reduced dims set to 1 */
  int out_ndim;
  int64_t out_shape[CT_MAX_DIMS];
  int64_t n;                    /* elements per reduced row */
  int64_t rows;                 /* number of outputs */
} ct__rd_plan;

/* dims == None (data NULL) or an empty list reduce every dim. Dims may be
 * negative; a repeated dim is an error. A 0-dim tensor accepts 0 and -1. */
static ct_status ct__rd_plan_make(const char *op, int ndim, const int64_t *sizes, ct_int_list dims, bool keepdim,
                                  ct__rd_plan *p) {
  int i, seen0 = 0;
  memset(p, 0, sizeof *p);
  p->ndim = ndim;
  if (!dims.data || dims.n <= 0) {
    for (i = 0; i < ndim; i++) p->reduce[i] = 1;
  } else {
    for (i = 0; i < dims.n; i++) {
      int64_t d = ct__wrap_dim(op, dims.data[i], ndim);
      if (d < 0) return ct_last_error();
      if ((ndim == 0 && seen0) || (ndim > 0 && p->reduce[d]))
        return ct_fail(CT_ERR_INVALID, op, "dim %lld appears multiple times in the list of dims", (long long)d);
      if (ndim == 0) seen0 = 1;
      else p->reduce[d] = 1;
    }
  }
  p->n = 1;
  p->rows = 1;
  for (i = 0; i < ndim; i++) {
    p->kept[i] = p->reduce[i] ? 1 : sizes[i];
    if (p->reduce[i]) p->n = ct__mul_sat(p->n, sizes[i]); /* (a zero-size tensor's other sizes may multiply past int64) */
    else p->rows = ct__mul_sat(p->rows, sizes[i]);
    if (!p->reduce[i] || keepdim) p->out_shape[p->out_ndim++] = p->kept[i];
  }
  return CT_OK;
}

/* ---- the loop entry of each device type (DispatchStub) ---- */
static void (*ct__rd_loops[CT_DEVICE_NUM])(void) = {(void (*)(void))ct_host_reduction_loop};
CTDEF ct_reduction_loop_fn ct_reduction_loop(ct_device_type type) {
  if ((unsigned)type >= CT_DEVICE_NUM) return NULL;
  return (ct_reduction_loop_fn)ct__atomic_load(&ct__rd_loops[type]);
}
CTDEF ct_status ct_reduction_on_host(const ct_reduction_call *call) {
  ct_reduction_call h = *call;
  ct_tensor *ops[4], *hops[4];
  ct__staging stage;
  ct_status st;
  ops[0] = call->out, ops[1] = call->indices, ops[2] = call->in, ops[3] = call->in2;
  if ((st = ct__stage_in(call->name, &stage, 4, ops, hops)) == CT_OK) {
    h.out = hops[0], h.indices = hops[1], h.in = hops[2], h.in2 = hops[3];
    if ((st = ct_host_reduction_loop(&h)) == CT_OK) st = ct__stage_out(&stage, 2, ops);
  }
  ct__stage_free(&stage, 4, hops);
  return st;
}
/* The impl step: the call, through the loop of its outputs' device type. */
static ct_status ct__rd_launch(const char *op, int id, ct_reduction_call *j) {
  const ct_tensor *dst = j->out ? j->out : j->indices;
  ct_reduction_loop_fn loop;
  j->name = op;
  j->op = id;
  if (CT_LIKELY(dst->device.type == CT_DEVICE_CPU && j->in->device.type == CT_DEVICE_CPU)) return ct_host_reduction_loop(j);
  if (ct__is_meta(j->in) || (j->in2 && ct__is_meta(j->in2)))
    return ct_fail(CT_ERR_DEVICE, op, "cannot compute into a %s tensor from a meta tensor",
                   ct_device_type_name((ct_device_type)dst->device.type));
  /* (a device type without a loop reaches the engine's kernels only through
   * the CPU fallback, and derivative helpers here: staged on the host) */
  loop = (ct_reduction_loop_fn)ct__atomic_load(&ct__rd_loops[dst->device.type]);
  return loop ? loop(j) : ct_reduction_on_host(j);
}
/* a single `int dim` */
static ct_status ct__rd_plan_dim(const char *op, const ct_tensor *a, int64_t dim, bool keepdim, ct__rd_plan *p) {
  ct_int_list l;
  l.data = &dim;
  l.n = 1;
  return ct__rd_plan_make(op, a->ndim, a->sizes, l, keepdim, p);
}
static ct_int_list ct__rd_all(void) {
  ct_int_list l;
  l.data = NULL;
  l.n = -1;
  return l;
}

static int64_t ct__rd_load_i64(const char *p, ct_dtype dt) {
  switch (dt) {
  case CT_I64: return *(const int64_t *)p;
  case CT_I32: return *(const int32_t *)p;
  case CT_U8: return *(const uint8_t *)p;
  case CT_BOOL: return *(const bool *)p ? 1 : 0;
  default: return ct__f2i64(ct__load_double(p, dt)); /* as PyTorch's cast on x86 (dtype.h) */
  }
}
static void ct__rd_store_i64(char *p, ct_dtype dt, int64_t v) {
  switch (dt) {
  case CT_I64: *(int64_t *)p = v; break;
  case CT_I32: *(int32_t *)p = (int32_t)(uint32_t)(uint64_t)v; break;
  case CT_U8: *(uint8_t *)p = (uint8_t)(uint64_t)v; break;
  case CT_BOOL: *(bool *)p = v != 0; break;
  default: ct__store_double(p, dt, (double)v); break;
  }
}
static void ct__rd_store_f(char *p, ct_dtype dt, double v) {
  if (dt == CT_BOOL) *(bool *)p = v != 0;
  else ct__store_double(p, dt, v); /* floating, and integers as PyTorch's cast on x86 (dtype.h) */
}

/* Element offsets of the reduced dims of t, in row-major order; returns the
 * count. off has room for that count (at least 1): a reduced dim of size 0
 * writes nothing beyond off[0], whatever the other reduced dims' sizes. */
static int64_t ct__rd_offsets(const ct_tensor *t, const int *reduce, int64_t *off) {
  int64_t cnt = 1, j, e;
  int d;
  off[0] = 0;
  for (d = 0; d < t->ndim; d++)
    if (reduce[d] && t->sizes[d] == 0) return 0;
  for (d = 0; d < t->ndim; d++) {
    if (!reduce[d]) continue;
    /* expand in place, from the back: entry e becomes entries e*size .. e*size+size-1 */
    for (e = cnt - 1; e >= 0; e--)
      for (j = t->sizes[d] - 1; j >= 0; j--) off[e * t->sizes[d] + j] = off[e] + j * t->strides[d];
    cnt *= t->sizes[d];
  }
  return cnt;
}
/* The product of the reduced (`reduce` 1) or kept (0) sizes of t. A zero
 * size anywhere among them gives 0 first: the other sizes of a zero-size
 * tensor can multiply past int64. */
static int64_t ct__rd_sizes_product(const ct_tensor *t, const int *reduce, int which) {
  int64_t n = 1;
  int d;
  for (d = 0; d < t->ndim; d++)
    if (!reduce[d] == !which && t->sizes[d] == 0) return 0;
  for (d = 0; d < t->ndim; d++)
    if (!reduce[d] == !which) n = ct__mul_sat(n, t->sizes[d]);
  return n;
}
static int64_t ct__rd_inner(const ct_tensor *t, const int *reduce) { return ct__rd_sizes_product(t, reduce, 1); }

/* Are t's reduced dims one contiguous block (row offsets 0, 1, 2, ...)? */
static int ct__rd_row_contig(const ct_tensor *t, const int *reduce) {
  int64_t expect = 1;
  int d;
  for (d = t->ndim - 1; d >= 0; d--) {
    if (!reduce[d] || t->sizes[d] == 1) continue;
    if (t->strides[d] != expect || ct__mul_ovf(expect, t->sizes[d], &expect)) return 0; /* (zero-size: the offsets path) */
  }
  return 1;
}
/* The row at base (offsets in elements, NULL: contiguous) into xf (as double) or xi (as int64): typed loops */
#define CT__RD_GATHER(T, DST, CONV)                                  \
  do {                                                               \
    const T *b = (const T *)(const void *)base;                      \
    if (off)                                                         \
      for (i = 0; i < n; i++) DST[i] = CONV(b[off[i]]);              \
    else                                                             \
      for (i = 0; i < n; i++) DST[i] = CONV(b[i]);                   \
  } while (0)
#define CT__RD_AS_DOUBLE(v) ((double)(v))
#define CT__RD_AS_I64(v) ((int64_t)(v))
#define CT__RD_B_AS_I64(v) ((int64_t)((v) ? 1 : 0))
static void ct__rd_gather(const char *base, ct_dtype dt, const int64_t *off, int64_t n, int as_int, double *xf, int64_t *xi) {
  int64_t i;
  if (!as_int) {
    switch (dt) {
    case CT_F32: CT__RD_GATHER(float, xf, CT__RD_AS_DOUBLE); return;
    case CT_F64: CT__RD_GATHER(double, xf, CT__RD_AS_DOUBLE); return;
    case CT_F16: CT__RD_GATHER(uint16_t, xf, (double)ct_f16_to_f32); return;
    case CT_BF16: CT__RD_GATHER(uint16_t, xf, (double)ct_bf16_to_f32); return;
    case CT_I64: CT__RD_GATHER(int64_t, xf, CT__RD_AS_DOUBLE); return;
    case CT_I32: CT__RD_GATHER(int32_t, xf, CT__RD_AS_DOUBLE); return;
    case CT_U8: CT__RD_GATHER(uint8_t, xf, CT__RD_AS_DOUBLE); return;
    default: CT__RD_GATHER(bool, xf, CT__RD_AS_DOUBLE); return;
    }
  }
  switch (dt) {
  case CT_I64: CT__RD_GATHER(int64_t, xi, CT__RD_AS_I64); return;
  case CT_I32: CT__RD_GATHER(int32_t, xi, CT__RD_AS_I64); return;
  case CT_U8: CT__RD_GATHER(uint8_t, xi, CT__RD_AS_I64); return;
  case CT_BOOL: CT__RD_GATHER(bool, xi, CT__RD_B_AS_I64); return;
  default: /* floating to integer: truncation; NaN and out of range as PyTorch's cast on x86 */
    for (i = 0; i < n; i++) xi[i] = ct__rd_load_i64(base + (off ? off[i] : i) * (int64_t)ct_dtype_size(dt), dt);
    return;
  }
}

/* m results into the output row at base: typed loops for the common cases */
static void ct__rd_scatter(char *base, ct_dtype dt, const int64_t *off, int64_t m, int from_int, const double *yf,
                           const int64_t *yi) {
  int64_t i;
  if (!from_int && dt == CT_F32) {
    for (i = 0; i < m; i++) ((float *)(void *)base)[off[i]] = (float)yf[i];
  } else if (!from_int && dt == CT_F64) {
    for (i = 0; i < m; i++) ((double *)(void *)base)[off[i]] = yf[i];
  } else if (from_int && dt == CT_I64) {
    for (i = 0; i < m; i++) ((int64_t *)(void *)base)[off[i]] = yi[i];
  } else {
    size_t es = ct_dtype_size(dt);
    for (i = 0; i < m; i++) {
      char *p = base + off[i] * (int64_t)es;
      if (from_int) ct__rd_store_i64(p, dt, yi[i]);
      else ct__rd_store_f(p, dt, yf[i]);
    }
  }
}

static int ct__rd_sum_fast(const ct_reduction_call *j);
CTDEF ct_status ct_host_reduction_loop(const ct_reduction_call *j) {
  const char *op = j->name;
  const ct_tensor *s = j->in;
  ct_tensor *outs[2];
  int nd = s->ndim, d, k, contig, direct;
  int64_t n, m, rows = ct__rd_sizes_product(s, j->reduce, 0), r, i, idx[CT_MAX_DIMS];
  int64_t *in_off, *o_off[2], *xi, *yi, *ix, *tmp, n2, w, noff;
  double *xf, *x2, *yf;
  size_t words;
  void *buf;
  ct_reduction_row row;
  if (rows == 0) return CT_OK; /* before any product of the reduced sizes, which may overflow then */
  if (ct__rd_sum_fast(j)) return CT_OK;
  contig = ct__rd_row_contig(s, j->reduce);
  n = ct__rd_inner(s, j->reduce);
  n2 = j->in2 ? ct__rd_inner(j->in2, j->reduce) : 0;
  outs[0] = j->out;
  outs[1] = j->indices;
  m = ct__rd_inner(outs[0] ? outs[0] : outs[1], j->reduce);
  w = j->need_tmp ? (n > m ? n : m) : 0;
  noff = contig ? 0 : n;
  /* in_off, xf|xi; x2; o_off x2, yf, yi, idx; tmp */
  words = (size_t)((noff + 1) + (n + 1) + (n2 + 1) + 5 * (m + 1) + 2 * (size_t)j->need_tmp * (w + 1));
  buf = ct__scratch_alloc(words * 8);
  if (!buf) return ct_fail(CT_ERR_OOM, op, "cannot allocate %llu bytes of scratch", (unsigned long long)words * 8);
  in_off = (int64_t *)buf;
  xi = in_off + (noff + 1);
  xf = (double *)(void *)xi;
  x2 = (double *)(void *)(xi + (n + 1));
  o_off[0] = (int64_t *)(void *)(x2 + (n2 + 1));
  o_off[1] = o_off[0] + (m + 1);
  yi = o_off[1] + (m + 1);
  yf = (double *)(void *)(yi + (m + 1));
  ix = (int64_t *)(void *)(yf + (m + 1));
  tmp = ix + (m + 1);
  if (!contig) ct__rd_offsets(s, j->reduce, in_off);
  direct = contig && (j->int_compute ? s->dtype == CT_I64 : s->dtype == CT_F64);
  for (k = 0; k < 2; k++)
    if (outs[k]) ct__rd_offsets(outs[k], j->reduce, o_off[k]);
  memset(&row, 0, sizeof row);
  row.n = n;
  row.m = m;
  row.xf = xf;
  row.xi = xi;
  row.x2 = j->in2 ? x2 : NULL;
  row.n2 = n2;
  row.tmp = tmp;
  row.yf = yf;
  row.yi = yi;
  row.idx = ix;
  row.ctx = j->host_ctx;
  memset(idx, 0, sizeof idx);
  for (r = 0; r < rows; r++) {
    int64_t sb = 0, s2b = 0, ob[2] = {0, 0};
    size_t ses = ct_dtype_size((ct_dtype)s->dtype);
    for (d = 0; d < nd; d++) {
      if (j->reduce[d]) continue;
      /* wrapping: they overflow only for an empty source (other sizes past int64), whose rows read nothing */
      sb = (int64_t)((uint64_t)sb + (uint64_t)idx[d] * (uint64_t)s->strides[d]);
      if (j->in2) s2b = (int64_t)((uint64_t)s2b + (uint64_t)idx[d] * (uint64_t)j->in2->strides[d]);
      for (k = 0; k < 2; k++)
        if (outs[k]) ob[k] += idx[d] * outs[k]->strides[d];
    }
    {
      const char *base = n ? (const char *)s->storage->data + (size_t)(s->offset + sb) * ses : (const char *)s->storage->data; /* (an empty row reads nothing) */
      if (direct) /* a contiguous row already in the compute type: read in place */
        row.xf = (const double *)(const void *)base, row.xi = (const int64_t *)(const void *)base;
      else
        ct__rd_gather(base, (ct_dtype)s->dtype, contig ? NULL : in_off, n, j->int_compute, xf, xi);
    }
    if (j->in2) {
      const ct_tensor *t = j->in2;
      for (i = 0; i < n2; i++) { /* src2's own sizes and strides on the reduced dims: offsets by multi-index */
        int64_t rem = i, o = 0;
        for (d = nd - 1; d >= 0; d--) {
          if (!j->reduce[d]) continue;
          o += (rem % t->sizes[d]) * t->strides[d];
          rem /= t->sizes[d];
        }
        x2[i] = ct__load_double((const char *)t->storage->data + (size_t)(t->offset + s2b + o) * ct_dtype_size((ct_dtype)t->dtype),
                                (ct_dtype)t->dtype);
      }
      if (j->flags & CT_REDUCTION_CHECK_INDEX) {
        int64_t bound = j->op == CT_RD_INDEX_BACKWARD ? m : n;
        for (i = 0; i < n2; i++)
          if (!(x2[i] >= 0 && x2[i] < (double)bound)) {
            long long bad = (long long)ct__f2i64(x2[i]); /* (exact below 2^53) */
            ct__scratch_free(buf, words * 8);
            return ct_fail(CT_ERR_INDEX, op, "index %lld is out of bounds for dimension %lld with size %lld", bad,
                           (long long)j->iparam, (long long)bound);
          }
      }
    }
    j->host_row(&row);
    for (k = 0; k < 2; k++) {
      ct_tensor *o = outs[k];
      size_t es;
      if (!o) continue;
      es = ct_dtype_size((ct_dtype)o->dtype);
      ct__rd_scatter((char *)o->storage->data + (size_t)(o->offset + ob[k]) * es, (ct_dtype)o->dtype, o_off[k], m,
                     k == 1 || j->out_int, yf, k == 1 ? ix : yi);
    }
    for (d = nd - 1; d >= 0; d--) { /* next outer position */
      if (j->reduce[d]) continue;
      if (++idx[d] < s->sizes[d]) break;
      idx[d] = 0;
    }
  }
  ct__scratch_free(buf, words * 8);
  return CT_OK;
}

/* t (the result, in its final shape) seen with the input's rank: size 1 on
 * the reduced dims. A new view. */
static ct_tensor *ct__rd_keepdim_view(ct_tensor *t, const ct__rd_plan *p) {
  int64_t st[CT_MAX_DIMS];
  int i, k = 0;
  for (i = 0; i < p->ndim; i++) {
    if (t->ndim == p->ndim) st[i] = p->reduce[i] ? 0 : t->strides[i];
    else st[i] = p->reduce[i] ? 0 : t->strides[k++];
  }
  return ct__make_view(t, p->ndim, p->kept, st, t->offset);
}

/* The tensor a kernel writes: `out` (device checked, resized) or a new one.
 * An out that shares memory with the input (the input itself, a view of it)
 * is computed through a temporary of out's dtype, which ct__rd_finish
 * copies into out once the input is read: rows would otherwise read what
 * earlier rows wrote, and resizing the input itself would move or
 * reinterpret its data. (PyTorch does not check reductions' outs for
 * overlap; it computes garbage there. Its scans do: ct__rd_check_scan_out.) */
static ct_tensor *ct__rd_result(const char *op, const ct_tensor *a, ct_tensor *out, int ndim, const int64_t *shape,
                                ct_dtype dtype) {
  if (out) {
    if (!ct__out_device_ok(op, out, a->device) || ct__check_writable(op, out) != CT_OK) return NULL;
    if (out == a || ct__overlap_status(out, a) != CT__OVERLAP_NO)
      return ct__empty(op, ndim, shape, (ct_dtype)out->dtype, out->device);
    if (ct__resize_out(op, out, ndim, shape) != CT_OK) return NULL;
    return ct_retain(out);
  }
  return ct__empty(op, ndim, shape, dtype, a->device);
}

/* Hand the result back: the new tensor in *result, or into out (resized and
 * copied from a temporary, see ct__rd_result) and bump out's version. */
static ct_status ct__rd_finish(const char *op, ct_status st, ct_tensor *dst, ct_tensor *out, ct_tensor **result) {
  if (st == CT_OK && !out) {
    if (result) *result = dst;
    else ct_release(dst); /* no out= and nowhere to put it: not a caller in this file, but never a NULL write */
    return CT_OK;
  }
  if (st == CT_OK && out && dst != out && (st = ct__resize_out(op, out, dst->ndim, dst->sizes)) == CT_OK && !ct__is_meta(out) &&
      out->numel)
    st = ct__copy_impl(out, dst);
  ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

/* A reduction over plan p of a: results of dtype res_dtype (or out's). */
static ct_status ct__rd_reduce(const char *op, int id, double param, ct_tensor *a, const ct__rd_plan *p, ct_dtype res_dtype,
                               int int_compute, int out_int, ct_reduction_row_fn fn, const void *ctx, ct_tensor *out,
                               ct_tensor **result) {
  ct_tensor *dst = ct__rd_result(op, a, out, p->out_ndim, p->out_shape, res_dtype), *v;
  ct_status st = CT_OK;
  ct_reduction_call j;
  if (!dst) return ct_last_error();
  if (!ct__is_meta(dst) && dst->numel > 0) {
    if (ct__is_meta(a)) return ct_release(dst), ct_fail(CT_ERR_DEVICE, op, "cannot read a meta tensor: it has no data");
    v = ct__rd_keepdim_view(dst, p);
    if (!v) return ct_release(dst), ct_last_error();
    memset(&j, 0, sizeof j);
    j.in = a;
    j.int_compute = int_compute;
    j.reduce = p->reduce;
    j.out = v;
    j.out_int = out_int;
    j.host_row = fn;
    j.host_ctx = ctx;
    j.param = param;
    st = ct__rd_launch(op, id, &j);
    ct_release(v);
  }
  return ct__rd_finish(op, st, dst, out, result);
}

static ct_status ct__rd_check_dtype(const char *op, ct_dtype d) {
  if (d != CT_DTYPE_NONE && !ct_dtype_valid(d)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)d);
  return CT_OK;
}
/* sum, prod, cumsum, cumprod: the compute dtype is dtype, else int64 for
 * integers and bool, else self's; an out= tensor of another dtype receives
 * the result cast (PyTorch: sum(x, out=int64 tensor) sums, then casts) */
static ct_dtype ct__rd_sum_dtype(const ct_tensor *a, ct_dtype dtype, const ct_tensor *out) {
  (void)out;
  if (dtype != CT_DTYPE_NONE) return dtype;
  return ct_dtype_is_integral((ct_dtype)a->dtype, true) ? CT_I64 : (ct_dtype)a->dtype;
}
/* prod, cumsum, cumprod: out= without dtype casts self to out's dtype first, as PyTorch */
static ct_dtype ct__rd_cast_first_dtype(const ct_tensor *a, ct_dtype dtype, const ct_tensor *out) {
  if (dtype == CT_DTYPE_NONE && out) return (ct_dtype)out->dtype;
  return ct__rd_sum_dtype(a, dtype, out);
}
/* out= may take a result of another dtype when the result casts to it */
static ct_status ct__rd_out_castable(const char *op, const ct_tensor *out, ct_dtype result) {
  if (out && out->dtype != result && !ct_can_cast(result, (ct_dtype)out->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(result),
                   ct__dtype_torch_name((ct_dtype)out->dtype));
  return CT_OK;
}
static ct_status ct__rd_out_dtype(const char *op, const ct_tensor *out, ct_dtype want) {
  if (out && out->dtype != want)
    return ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead", ct_dtype_name(want),
                   ct_dtype_name((ct_dtype)out->dtype));
  return CT_OK;
}
static int ct__rd_is_int(ct_dtype d) { return ct_dtype_is_integral(d, true); }

/* ================= row functions ================= */

/* pairwise summation in double: a fixed order, error O(log n). The _f32
 * form reads floats and converts each as it adds it: the same operations, so
 * the same bits as summing the row gathered into doubles. */
#define CT__RD_PSUM(NAME, T)                                                                     \
  static double NAME(const T *x, int64_t n) {                                                    \
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                       \
    int64_t i;                                                                                   \
    if (n <= 256) { /* four interleaved partial sums, then in order */                          \
      for (i = 0; i + 4 <= n; i += 4)                                                            \
        s0 += (double)x[i], s1 += (double)x[i + 1], s2 += (double)x[i + 2], s3 += (double)x[i + 3]; \
      for (; i < n; i++) s0 += (double)x[i];                                                     \
      return (s0 + s1) + (s2 + s3);                                                              \
    }                                                                                            \
    i = (n / 2 + 3) / 4 * 4; /* split at a multiple of 4 */                                     \
    return NAME(x, i) + NAME(x + i, n - i);                                                      \
  }
CT__RD_PSUM(ct__rd_psum, double)
CT__RD_PSUM(ct__rd_psum_f32, float)
/* The same sums for w <= CT__RD_COLS columns at once: column c is x[i * ld +
 * c], i < n, summed in ct__rd_psum's order (each column's operations are
 * that function's, side by side, so the compiler can vectorise across
 * columns without changing a bit). */
#define CT__RD_COLS 16
#define CT__RD_PSUM_COLS(NAME, T)                                                                \
  static void NAME(const T *x, int64_t ld, int64_t n, int w, double *y) {                       \
    double s0[CT__RD_COLS], s1[CT__RD_COLS], s2[CT__RD_COLS], s3[CT__RD_COLS];                  \
    int64_t i;                                                                                   \
    int c;                                                                                       \
    if (n > 256) {                                                                               \
      i = (n / 2 + 3) / 4 * 4;                                                                   \
      NAME(x, ld, i, w, s0);                                                                     \
      NAME(x + i * ld, ld, n - i, w, s1);                                                        \
      for (c = 0; c < w; c++) y[c] = s0[c] + s1[c];                                              \
      return;                                                                                    \
    }                                                                                            \
    for (c = 0; c < w; c++) s0[c] = s1[c] = s2[c] = s3[c] = 0;                                   \
    for (i = 0; i + 4 <= n; i += 4) {                                                            \
      const T *r = x + i * ld;                                                                   \
      for (c = 0; c < w; c++)                                                                    \
        s0[c] += (double)r[c], s1[c] += (double)r[ld + c], s2[c] += (double)r[2 * ld + c],      \
            s3[c] += (double)r[3 * ld + c];                                                      \
    }                                                                                            \
    for (; i < n; i++)                                                                           \
      for (c = 0; c < w; c++) s0[c] += (double)x[i * ld + c];                                    \
    for (c = 0; c < w; c++) y[c] = (s0[c] + s1[c]) + (s2[c] + s3[c]);                            \
  }
CT__RD_PSUM_COLS(ct__rd_psum_cols, double)
CT__RD_PSUM_COLS(ct__rd_psum_cols_f32, float)
static void ct__rd_sum_row(ct_reduction_row *r) {
  r->yf[0] = ct__rd_psum(r->xf, r->n);
}
static void ct__rd_sum_row_i(ct_reduction_row *r) {
  uint64_t s = 0;
  int64_t i;
  for (i = 0; i < r->n; i++) s += (uint64_t)r->xi[i];
  r->yi[0] = (int64_t)s;
}
static void ct__rd_mean_row(ct_reduction_row *r) { r->yf[0] = ct__rd_psum(r->xf, r->n) / (double)r->n; }

/* sum and mean of a contiguous f32/f64 input into a dense f32/f64 output,
 * when the kept dims form one block: x is [na][rows][nb] with the na and nb
 * elements reduced (size-1 dims aside). The row functions' sums in their
 * order, without the general loop's per-element offsets:
 *  - na = 1 (softmax's and layer_norm's backward sums): each row in place;
 *  - nb = 1 (bias and layer_norm weight gradients): 16 columns side by side;
 *  - both (a conv bias gradient, [N][C][H*W] over N and H*W): each kept
 *    index's na contiguous runs of nb copied into one row, then summed.
 * 0 when the call is not such a call (the general loop takes it). */
static int ct__rd_sum_fast(const ct_reduction_call *j) {
  const ct_tensor *s = j->in, *o = j->out;
  int64_t na = 1, nb = 1, n, rows = 1, r, a;
  int d, phase = 0, mean = j->op == CT_RD_MEAN, f32 = s->dtype == CT_F32;
  size_t es = f32 ? 4 : 8;
  const char *x;
  char *y, *row = NULL;
  if ((j->op != CT_RD_SUM && !mean) || j->int_compute || j->in2 || !o || j->indices || (s->dtype != CT_F32 && s->dtype != CT_F64) ||
      (o->dtype != CT_F32 && o->dtype != CT_F64) || !ct_is_contiguous(s) || !ct_is_contiguous(o) || s->numel == 0)
    return 0;
  for (d = 0; d < s->ndim; d++) { /* phases: leading reduced dims, kept dims, trailing reduced dims */
    if (s->sizes[d] == 1) continue;
    if (j->reduce[d]) {
      if (phase == 1) phase = 2;
      if (phase == 0) na *= s->sizes[d];
      else nb *= s->sizes[d];
    } else {
      if (phase == 2) return 0;
      phase = 1, rows *= s->sizes[d];
    }
  }
  n = na * nb;
  x = (const char *)s->storage->data + s->offset * (int64_t)es;
  y = (char *)o->storage->data + o->offset * (int64_t)ct_dtype_size((ct_dtype)o->dtype);
  if (nb == 1 && rows > 1) { /* columns: x is [n][rows] */
    double acc[CT__RD_COLS];
    int64_t c0;
    int w, c;
    for (c0 = 0; c0 < rows; c0 += CT__RD_COLS) {
      w = rows - c0 < CT__RD_COLS ? (int)(rows - c0) : CT__RD_COLS;
      if (f32) ct__rd_psum_cols_f32((const float *)(const void *)x + c0, rows, n, w, acc);
      else ct__rd_psum_cols((const double *)(const void *)x + c0, rows, n, w, acc);
      for (c = 0; c < w; c++) {
        double v = mean ? acc[c] / (double)n : acc[c];
        if (o->dtype == CT_F32) ((float *)(void *)y)[c0 + c] = (float)v;
        else ((double *)(void *)y)[c0 + c] = v;
      }
    }
    return 1;
  }
  if (na > 1 && rows > 1 && !(row = (char *)ct__scratch_alloc((size_t)n * es))) return 0; /* (the general loop reports it) */
  for (r = 0; r < rows; r++) { /* rows: x is [rows][n] (or all of it one row), or the row's na runs gathered */
    const char *xr = x + (size_t)(r * nb) * es;
    double v;
    if (row) {
      for (a = 0; a < na; a++) memcpy(row + (size_t)(a * nb) * es, x + (size_t)((a * rows + r) * nb) * es, (size_t)nb * es);
      xr = row;
    }
    v = f32 ? ct__rd_psum_f32((const float *)(const void *)xr, n) : ct__rd_psum((const double *)(const void *)xr, n);
    if (mean) v /= (double)n;
    if (o->dtype == CT_F32) ((float *)(void *)y)[r] = (float)v;
    else ((double *)(void *)y)[r] = v;
  }
  if (row) ct__scratch_free(row, (size_t)n * es);
  return 1;
}
static void ct__rd_prod_row(ct_reduction_row *r) {
  double s = 1;
  int64_t i;
  for (i = 0; i < r->n; i++) s *= r->xf[i];
  r->yf[0] = s;
}
static void ct__rd_prod_row_i(ct_reduction_row *r) {
  uint64_t s = 1;
  int64_t i;
  for (i = 0; i < r->n; i++) s *= (uint64_t)r->xi[i];
  r->yi[0] = (int64_t)s;
}
/* amax / amin (ctx: int, 1 for max): NaN wins */
static void ct__rd_ext_row(ct_reduction_row *r) {
  int mx = *(const int *)r->ctx;
  double v = r->xf[0];
  int64_t i;
  for (i = 1; i < r->n && v == v; i++) {
    double x = r->xf[i];
    if (x != x || (mx ? x > v : x < v)) v = x;
  }
  r->yf[0] = v;
}
static void ct__rd_ext_row_i(ct_reduction_row *r) {
  int mx = *(const int *)r->ctx;
  int64_t v = r->xi[0], i;
  for (i = 1; i < r->n; i++)
    if (mx ? r->xi[i] > v : r->xi[i] < v) v = r->xi[i];
  r->yi[0] = v;
}
/* var / std: two passes in double; ctx: the correction (double) and whether to take the root */
typedef struct ct__rd_var_ctx {
  double correction;
  int take_sqrt;
} ct__rd_var_ctx;
static void ct__rd_var_row(ct_reduction_row *r) {
  const ct__rd_var_ctx *c = (const ct__rd_var_ctx *)r->ctx;
  double mean = ct__rd_psum(r->xf, r->n) / (double)r->n, ss = 0, div = (double)r->n - c->correction, v;
  int64_t i;
  for (i = 0; i < r->n; i++) ss += (r->xf[i] - mean) * (r->xf[i] - mean);
  v = ss / (div > 0 ? div : 0);
  r->yf[0] = c->take_sqrt ? sqrt(v) : v;
}
/* vector norms: ctx is ord (double) */
static void ct__rd_norm_row(ct_reduction_row *r) {
  double p = *(const double *)r->ctx, s = 0;
  int64_t i;
  if (isinf(p)) {
    s = r->n ? fabs(r->xf[0]) : 0;
    for (i = 1; i < r->n && s == s; i++) {
      double a = fabs(r->xf[i]);
      if (a != a || (p > 0 ? a > s : a < s)) s = a;
    }
  } else if (p == 0) {
    for (i = 0; i < r->n; i++) s += r->xf[i] != 0;
  } else if (p == 1) {
    for (i = 0; i < r->n; i++) s += fabs(r->xf[i]);
  } else if (p == 2) {
    for (i = 0; i < r->n; i++) s += r->xf[i] * r->xf[i];
    s = sqrt(s);
  } else {
    for (i = 0; i < r->n; i++) s += pow(fabs(r->xf[i]), p);
    s = pow(s, 1.0 / p);
  }
  r->yf[0] = s;
}
/* logsumexp: max-shifted; an all -inf (or empty) row gives -inf */
static void ct__rd_lse_row(ct_reduction_row *r) {
  double m = -INFINITY, s = 0;
  int64_t i;
  for (i = 0; i < r->n; i++) {
    double x = r->xf[i];
    if (x != x || x > m) m = x;
    if (m != m) break;
  }
  if (m != m || isinf(m)) {
    r->yf[0] = m;
    return;
  }
  for (i = 0; i < r->n; i++) s += exp(r->xf[i] - m);
  r->yf[0] = m + log(s);
}
/* all / any (ctx: int, 1 for all) */
static void ct__rd_all_row(ct_reduction_row *r) {
  int all = *(const int *)r->ctx;
  int64_t i, v = all;
  for (i = 0; i < r->n; i++) {
    if (all ? r->xf[i] == 0 : r->xf[i] != 0) {
      v = !all;
      break;
    }
  }
  r->yi[0] = v;
}
static void ct__rd_all_row_i(ct_reduction_row *r) {
  int all = *(const int *)r->ctx;
  int64_t i, v = all;
  for (i = 0; i < r->n; i++)
    if (all ? r->xi[i] == 0 : r->xi[i] != 0) {
      v = !all;
      break;
    }
  r->yi[0] = v;
}
/* scans (ctx: int, 1 for prod) */
static void ct__rd_cum_row(ct_reduction_row *r) {
  int prod = *(const int *)r->ctx;
  double s = prod ? 1 : 0;
  int64_t i;
  for (i = 0; i < r->n; i++) r->yf[i] = s = prod ? s * r->xf[i] : s + r->xf[i];
}
static void ct__rd_cum_row_i(ct_reduction_row *r) {
  int prod = *(const int *)r->ctx;
  uint64_t s = prod ? 1 : 0;
  int64_t i;
  for (i = 0; i < r->n; i++) r->yi[i] = (int64_t)(s = prod ? s * (uint64_t)r->xi[i] : s + (uint64_t)r->xi[i]);
}

/* ================= kernels ================= */

/* ---- sum ---- */
/* cast_first: out= of another dtype casts self first (sum.IntList_out) or the sum (sum.out), as PyTorch 1.13 */
static ct_status ct__rd_sum_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out, int cast_first,
                                 ct_tensor **result) {
  static const char *op = "sum";
  ct__rd_plan p;
  ct_dtype rd;
  if (ct__rd_check_dtype(op, dtype) != CT_OK || ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK)
    return ct_last_error();
  if (out && dtype != CT_DTYPE_NONE && ct__rd_out_dtype(op, out, dtype) != CT_OK) return ct_last_error();
  rd = cast_first ? ct__rd_cast_first_dtype(a, dtype, out) : ct__rd_sum_dtype(a, dtype, out);
  if (ct__rd_is_int(rd))
    return ct__rd_reduce(op, CT_RD_SUM, 0, a, &p, rd, 1, 1, ct__rd_sum_row_i, NULL, out, result);
  return ct__rd_reduce(op, CT_RD_SUM, 0, a, &p, rd, 0, 0, ct__rd_sum_row, NULL, out, result);
}
static ct_tensor *ct__k_sum(ct_keyset ks, ct_tensor *a, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_sum_impl(a, ct__rd_all(), false, dtype, NULL, 0, &r);
  return r;
}
static ct_status ct__k_sum_all_out(ct_keyset ks, ct_tensor *a, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_sum_impl(a, ct__rd_all(), false, dtype, out, 0, NULL);
}
static ct_tensor *ct__k_sum_dim(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_sum_impl(a, dims, keepdim, dtype, NULL, 1, &r);
  return r;
}
static ct_status ct__k_sum_out(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_sum_impl(a, dims, keepdim, dtype, out, 1, NULL);
}

/* ---- mean: floating only ---- */
static ct_status ct__rd_mean_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                                  ct_tensor **result) {
  static const char *op = "mean";
  ct__rd_plan p;
  ct_dtype rd;
  if (ct__rd_check_dtype(op, dtype) != CT_OK || ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK)
    return ct_last_error();
  rd = dtype != CT_DTYPE_NONE ? dtype : (ct_dtype)a->dtype;
  if (!ct_dtype_is_floating(rd))
    return ct_fail(CT_ERR_DTYPE, op,
                   "could not infer output dtype. %s dtype must be either a floating point or complex dtype. Got: %s",
                   dtype != CT_DTYPE_NONE ? "Optional" : "Input", ct__dtype_torch_name(rd));
  if (out && dtype != CT_DTYPE_NONE && ct__rd_out_dtype(op, out, dtype) != CT_OK) return ct_last_error();
  if (ct__rd_out_castable(op, out, rd) != CT_OK) return ct_last_error();
  return ct__rd_reduce(op, CT_RD_MEAN, 0, a, &p, rd, 0, 0, ct__rd_mean_row, NULL, out, result);
}
static ct_tensor *ct__k_mean(ct_keyset ks, ct_tensor *a, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_mean_impl(a, ct__rd_all(), false, dtype, NULL, &r);
  return r;
}
static ct_tensor *ct__k_mean_dim(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_mean_impl(a, dims, keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_mean_out(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_mean_impl(a, dims, keepdim, dtype, out, NULL);
}

/* ---- prod ---- */
static ct_status ct__rd_prod_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                                  ct_tensor **result) {
  static const char *op = "prod";
  ct__rd_plan p;
  ct_dtype rd;
  if (ct__rd_check_dtype(op, dtype) != CT_OK || ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK)
    return ct_last_error();
  if (out && dtype != CT_DTYPE_NONE && ct__rd_out_dtype(op, out, dtype) != CT_OK) return ct_last_error();
  rd = ct__rd_cast_first_dtype(a, dtype, out);
  if (ct__rd_is_int(rd))
    return ct__rd_reduce(op, CT_RD_PROD, 0, a, &p, rd, 1, 1, ct__rd_prod_row_i, NULL, out, result);
  return ct__rd_reduce(op, CT_RD_PROD, 0, a, &p, rd, 0, 0, ct__rd_prod_row, NULL, out, result);
}
static ct_int_list ct__rd_one(const int64_t *dim) {
  ct_int_list l;
  l.data = dim;
  l.n = 1;
  return l;
}
static ct_tensor *ct__k_prod(ct_keyset ks, ct_tensor *a, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_prod_impl(a, ct__rd_all(), false, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_prod_all_out(ct_keyset ks, ct_tensor *a, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_prod_impl(a, ct__rd_all(), false, dtype, out, NULL);
}
static ct_tensor *ct__k_prod_dim(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_prod_impl(a, ct__rd_one(&dim), keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_prod_out(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_prod_impl(a, ct__rd_one(&dim), keepdim, dtype, out, NULL);
}

/* ---- amax / amin / max() / min(): the input's dtype; NaN wins ---- */
static ct_status ct__rd_empty_check(const char *op, const ct_tensor *a, const ct__rd_plan *p, int full) {
  int i;
  if (a->numel > 0) return CT_OK;
  if (full)
    return ct_fail(CT_ERR_INVALID, op, "Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                                       "with the 'dim' argument.");
  for (i = 0; i < a->ndim; i++)
    if (p->reduce[i] && a->sizes[i] == 0)
      return ct_fail(CT_ERR_INDEX, op, "Expected reduction dim %d to have non-zero size.", i);
  return CT_OK;
}
static ct_status ct__rd_ext_impl(const char *op, int mx, ct_tensor *a, ct_int_list dims, bool keepdim, ct_tensor *out,
                                 ct_tensor **result) {
  ct__rd_plan p;
  int full = !dims.data || dims.n <= 0;
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  if (ct__rd_empty_check(op, a, &p, full) != CT_OK) return ct_last_error();
  if (out && out->dtype != a->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Expected the dtype for input and out to match, but got %s for input's dtype and %s for out's dtype.",
                   ct__dtype_torch_name((ct_dtype)a->dtype), ct__dtype_torch_name((ct_dtype)out->dtype));
  if (ct__rd_is_int((ct_dtype)a->dtype))
    return ct__rd_reduce(op, mx ? CT_RD_AMAX : CT_RD_AMIN, 0, a, &p, (ct_dtype)a->dtype, 1, 1, ct__rd_ext_row_i, &mx, out, result);
  return ct__rd_reduce(op, mx ? CT_RD_AMAX : CT_RD_AMIN, 0, a, &p, (ct_dtype)a->dtype, 0, 0, ct__rd_ext_row, &mx, out, result);
}
static ct_tensor *ct__k_amax(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_ext_impl("amax", 1, a, dim, keepdim, NULL, &r);
  return r;
}
static ct_status ct__k_amax_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_ext_impl("amax", 1, a, dim, keepdim, out, NULL);
}
static ct_tensor *ct__k_amin(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_ext_impl("amin", 0, a, dim, keepdim, NULL, &r);
  return r;
}
static ct_status ct__k_amin_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_ext_impl("amin", 0, a, dim, keepdim, out, NULL);
}
static ct_tensor *ct__k_max(ct_keyset ks, ct_tensor *a) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_ext_impl("max", 1, a, ct__rd_all(), false, NULL, &r);
  return r;
}
static ct_tensor *ct__k_min(ct_keyset ks, ct_tensor *a) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_ext_impl("min", 0, a, ct__rd_all(), false, NULL, &r);
  return r;
}

/* ---- var / std (correction: None = 1) ---- */
static ct_status ct__rd_var_impl(const char *op, int take_sqrt, ct_tensor *a, ct_int_list dims, ct_scalar correction,
                                 bool keepdim, ct_tensor *out, ct_tensor **result) {
  ct__rd_plan p;
  ct__rd_var_ctx c;
  if (!ct_dtype_is_floating((ct_dtype)a->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "std and var only support floating point and complex dtypes");
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  if (ct__rd_out_castable(op, out, (ct_dtype)a->dtype) != CT_OK) return ct_last_error();
  c.correction = correction.kind == CT_SCALAR_NONE ? 1.0 : ct_scalar_to_double(correction);
  c.take_sqrt = take_sqrt;
  return ct__rd_reduce(op, take_sqrt ? CT_RD_STD : CT_RD_VAR, c.correction, a, &p, (ct_dtype)a->dtype, 0, 0, ct__rd_var_row, &c, out, result);
}
static ct_tensor *ct__k_var(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_var_impl("var", 0, a, dim, correction, keepdim, NULL, &r);
  return r;
}
static ct_status ct__k_var_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_var_impl("var", 0, a, dim, correction, keepdim, out, NULL);
}
static ct_tensor *ct__k_std(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_var_impl("std", 1, a, dim, correction, keepdim, NULL, &r);
  return r;
}
static ct_status ct__k_std_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_var_impl("std", 1, a, dim, correction, keepdim, out, NULL);
}
/* var(self, unbiased) and var.dim(self, dim, unbiased, keepdim): composites of var.correction */
static ct_tensor *ct__k_var_unbiased(ct_keyset ks, ct_tensor *a, bool unbiased) {
  (void)ks;
  return ct_var_ex(a, 0, NULL, ct_int(unbiased ? 1 : 0), false);
}
static ct_tensor *ct__k_var_dim(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool unbiased, bool keepdim) {
  (void)ks;
  return ct_var_ex(a, dim.data ? (int)dim.n : 0, dim.data, ct_int(unbiased ? 1 : 0), keepdim);
}
static ct_tensor *ct__k_std_unbiased(ct_keyset ks, ct_tensor *a, bool unbiased) {
  (void)ks;
  return ct_std_ex(a, 0, NULL, ct_int(unbiased ? 1 : 0), false);
}
static ct_tensor *ct__k_std_dim(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool unbiased, bool keepdim) {
  (void)ks;
  return ct_std_ex(a, dim.data ? (int)dim.n : 0, dim.data, ct_int(unbiased ? 1 : 0), keepdim);
}

static ct_status ct__k_var_dim_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool unbiased, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_var_impl("var", 0, a, dim, ct_int(unbiased ? 1 : 0), keepdim, out, NULL);
}
static ct_status ct__k_std_dim_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool unbiased, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_var_impl("std", 1, a, dim, ct_int(unbiased ? 1 : 0), keepdim, out, NULL);
}

/* ---- linalg_vector_norm ---- */
static ct_status ct__rd_norm_impl(ct_tensor *a, ct_scalar ord, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                                  ct_tensor **result) {
  static const char *op = "linalg.vector_norm";
  ct__rd_plan p;
  double o;
  ct_dtype rd;
  int i;
  if (ct__rd_check_dtype(op, dtype) != CT_OK) return ct_last_error();
  if (!ct_dtype_is_floating((ct_dtype)a->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "Expected a floating point or complex tensor as input. Got %s",
                   ct__dtype_torch_name((ct_dtype)a->dtype));
  if (dtype != CT_DTYPE_NONE && !ct_dtype_is_floating(dtype))
    return ct_fail(CT_ERR_DTYPE, op, "dtype should be floating point or complex, but got %s", ct__dtype_torch_name(dtype));
  if (ord.kind == CT_SCALAR_NONE) ord = ct_int(2);
  o = ct_scalar_to_double(ord);
  if (o != o) return ct_fail(CT_ERR_INVALID, op, "ord must not be NaN");
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  rd = dtype != CT_DTYPE_NONE ? dtype : (ct_dtype)a->dtype;
  if (out && ct__rd_out_dtype(op, out, rd) != CT_OK) return ct_last_error();
  if ((o < 0 || isinf(o)) && a->numel == 0) {
    if (!dims.data || dims.n <= 0)
      return ct_fail(CT_ERR_INVALID, op, "cannot compute the %s norm on an empty tensor because the operation does not have an identity",
                     isinf(o) ? (o > 0 ? "inf" : "-inf") : "negative");
    for (i = 0; i < a->ndim; i++)
      if (p.reduce[i] && a->sizes[i] == 0)
        return ct_fail(CT_ERR_INVALID, op, "cannot compute the %s norm on the dimension %d because this dimension is empty and the "
                       "operation does not have an identity", isinf(o) ? (o > 0 ? "inf" : "-inf") : "negative", i);
  }
  return ct__rd_reduce(op, CT_RD_NORM, o, a, &p, rd, 0, 0, ct__rd_norm_row, &o, out, result);
}
static ct_tensor *ct__k_vector_norm(ct_keyset ks, ct_tensor *a, ct_scalar ord, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_norm_impl(a, ord, dim, keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_vector_norm_out(ct_keyset ks, ct_tensor *a, ct_scalar ord, ct_int_list dim, bool keepdim, ct_dtype dtype,
                                       ct_tensor *out) {
  (void)ks;
  return ct__rd_norm_impl(a, ord, dim, keepdim, dtype, out, NULL);
}
/* norm.Scalar and norm.ScalarOpt_dim: composites of linalg_vector_norm */
static ct_tensor *ct__k_norm(ct_keyset ks, ct_tensor *a, ct_scalar p) {
  (void)ks;
  return ct_linalg_vector_norm_ex(a, p, 0, NULL, false, CT_DTYPE_NONE);
}
static ct_tensor *ct__k_norm_dim(ct_keyset ks, ct_tensor *a, ct_scalar p, ct_int_list dim, bool keepdim) {
  (void)ks;
  return ct_linalg_vector_norm_ex(a, p, dim.data ? (int)dim.n : 0, dim.data, keepdim, CT_DTYPE_NONE);
}

static ct_status ct__k_norm_out(ct_keyset ks, ct_tensor *a, ct_scalar p, ct_tensor *out) {
  (void)ks;
  return ct__rd_norm_impl(a, p, ct__rd_all(), false, CT_DTYPE_NONE, out, NULL);
}
static ct_status ct__k_norm_dim_out(ct_keyset ks, ct_tensor *a, ct_scalar p, ct_int_list dim, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_norm_impl(a, p, dim, keepdim, CT_DTYPE_NONE, out, NULL);
}

/* ---- logsumexp: integers and bool give float32 ---- */
static ct_status ct__rd_lse_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_tensor *out, ct_tensor **result) {
  static const char *op = "logsumexp";
  ct__rd_plan p;
  ct_dtype rd = ct_dtype_is_floating((ct_dtype)a->dtype) ? (ct_dtype)a->dtype : CT_F32;
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  if (out && !ct_dtype_is_floating((ct_dtype)out->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "Expected floating point type for result tensor, but got: %s",
                   ct__dtype_torch_name((ct_dtype)out->dtype));
  return ct__rd_reduce(op, CT_RD_LOGSUMEXP, 0, a, &p, rd, 0, 0, ct__rd_lse_row, NULL, out, result);
}
static ct_tensor *ct__k_logsumexp(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_lse_impl(a, dim, keepdim, NULL, &r);
  return r;
}
static ct_status ct__k_logsumexp_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_lse_impl(a, dim, keepdim, out, NULL);
}

/* ---- all / any: bool results (uint8 for uint8 inputs, as PyTorch) ---- */
static ct_status ct__rd_all_impl(const char *op, int all, ct_tensor *a, ct_int_list dims, bool keepdim, ct_tensor *out,
                                 ct_tensor **result) {
  ct__rd_plan p;
  ct_dtype rd = a->dtype == CT_U8 ? CT_U8 : CT_BOOL;
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  if (out && out->dtype != CT_BOOL && !(a->dtype == CT_U8 && out->dtype == CT_U8))
    return ct_fail(CT_ERR_DTYPE, op, "%s only supports bool tensor for result, got: %s", op, ct__dtype_torch_name((ct_dtype)out->dtype));
  if (ct__rd_is_int((ct_dtype)a->dtype))
    return ct__rd_reduce(op, all ? CT_RD_ALL : CT_RD_ANY, 0, a, &p, rd, 1, 1, ct__rd_all_row_i, &all, out, result);
  return ct__rd_reduce(op, all ? CT_RD_ALL : CT_RD_ANY, 0, a, &p, rd, 0, 1, ct__rd_all_row, &all, out, result);
}
#define CT__RD_ALL_KERNELS(name, ALL)                                                                           \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a) {                                                 \
    ct_tensor *r = NULL;                                                                                       \
    (void)ks;                                                                                                  \
    ct__rd_all_impl(#name, ALL, a, ct__rd_all(), false, NULL, &r);                                             \
    return r;                                                                                                  \
  }                                                                                                            \
  static ct_status ct__k_##name##_all_out(ct_keyset ks, ct_tensor *a, ct_tensor *out) {                        \
    (void)ks;                                                                                                  \
    return ct__rd_all_impl(#name, ALL, a, ct__rd_all(), false, out, NULL);                                     \
  }                                                                                                            \
  static ct_tensor *ct__k_##name##_dim(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim) {                \
    ct_tensor *r = NULL;                                                                                       \
    (void)ks;                                                                                                  \
    ct__rd_all_impl(#name, ALL, a, ct__rd_one(&dim), keepdim, NULL, &r);                                       \
    return r;                                                                                                  \
  }                                                                                                            \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor *out) { \
    (void)ks;                                                                                                  \
    return ct__rd_all_impl(#name, ALL, a, ct__rd_one(&dim), keepdim, out, NULL);                               \
  }
CT__RD_ALL_KERNELS(all, 1)
CT__RD_ALL_KERNELS(any, 0)

/* ---- cumsum / cumprod: the scan mechanism is the same row loop with m = n ---- */
static ct_status ct__rd_cum_impl(const char *op, int prod, ct_tensor *a, int64_t dim, ct_dtype dtype, ct_tensor *out,
                                 ct_tensor **result) {
  ct__rd_plan p;
  ct_tensor *dst;
  ct_dtype rd;
  ct_status st = CT_OK;
  ct_reduction_call j;
  if (ct__rd_check_dtype(op, dtype) != CT_OK || ct__rd_plan_dim(op, a, dim, true, &p) != CT_OK) return ct_last_error();
  if (out == a && dtype != CT_DTYPE_NONE && dtype != a->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
                   ct_dtype_name((ct_dtype)a->dtype), ct_dtype_name(dtype));
  if (out && out != a && dtype != CT_DTYPE_NONE && ct__rd_out_dtype(op, out, dtype) != CT_OK) return ct_last_error();
  rd = out == a ? ct__rd_sum_dtype(a, dtype, out) : ct__rd_cast_first_dtype(a, dtype, out);
  if (out == a) { /* in place: each row is read whole before it is written */
    if (ct__check_writable(op, a) != CT_OK) return ct_last_error();
    dst = ct_retain(a);
  } else {
    if (out && ct__check_overlap(op, out, a) != CT_OK) return ct_last_error(); /* PyTorch's scans refuse partial overlap */
    dst = ct__rd_result(op, a, out, a->ndim, a->sizes, rd);
  }
  if (!dst) return ct_last_error();
  if (!ct__is_meta(dst) && dst->numel > 0) {
    memset(&j, 0, sizeof j);
    j.in = a;
    j.int_compute = ct__rd_is_int(rd);
    j.reduce = p.reduce;
    j.out = dst;
    j.out_int = j.int_compute;
    j.host_row = j.int_compute ? ct__rd_cum_row_i : ct__rd_cum_row;
    j.host_ctx = &prod;
    st = ct__rd_launch(op, prod ? CT_RD_CUMPROD : CT_RD_CUMSUM, &j);
  }
  return ct__rd_finish(op, st, dst, out, result);
}
#define CT__RD_CUM_KERNELS(name, PROD)                                                                         \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype) {                   \
    ct_tensor *r = NULL;                                                                                      \
    (void)ks;                                                                                                 \
    ct__rd_cum_impl(#name, PROD, a, dim, dtype, NULL, &r);                                                    \
    return r;                                                                                                 \
  }                                                                                                           \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype) {                 \
    (void)ks;                                                                                                 \
    return ct__rd_cum_impl(#name, PROD, a, dim, dtype, a, NULL);                                              \
  }                                                                                                           \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, int64_t dim, ct_dtype dtype, ct_tensor *out) { \
    (void)ks;                                                                                                 \
    return ct__rd_cum_impl(#name, PROD, a, dim, dtype, out, NULL);                                            \
  }
CT__RD_CUM_KERNELS(cumsum, 0)
CT__RD_CUM_KERNELS(cumprod, 1)

/* ---- max.dim / min.dim / argmax / argmin: the first extreme; NaN wins ---- */
static void ct__rd_arg_row(ct_reduction_row *r) {
  int mx = *(const int *)r->ctx;
  double v = r->xf[0];
  int64_t i, at = 0;
  for (i = 1; i < r->n && v == v; i++) {
    double x = r->xf[i];
    if (x != x || (mx ? x > v : x < v)) v = x, at = i;
  }
  r->yf[0] = v;
  r->idx[0] = at;
}
static void ct__rd_arg_row_i(ct_reduction_row *r) {
  int mx = *(const int *)r->ctx;
  int64_t i, at = 0, v = r->xi[0];
  for (i = 1; i < r->n; i++)
    if (mx ? r->xi[i] > v : r->xi[i] < v) v = r->xi[i], at = i;
  r->yi[0] = v;
  r->idx[0] = at;
}
/* values (may be NULL) and indices (a new tensor, or out) of the extremes over plan p */
static ct_status ct__rd_arg_impl(const char *op, int mx, ct_tensor *a, ct_int_list dims, bool keepdim, ct_tensor *out,
                                 ct_tensor **values, ct_tensor **indices) {
  ct__rd_plan p;
  ct_tensor *vals = NULL, *idx = NULL, *vv = NULL, *iv = NULL;
  ct_status st = CT_OK;
  ct_reduction_call j;
  int is_int = ct__rd_is_int((ct_dtype)a->dtype);
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  if (ct__rd_empty_check(op, a, &p, !dims.data && a->ndim > 0) != CT_OK) return ct_last_error();
  if (out && ct__rd_out_dtype(op, out, CT_I64) != CT_OK) return ct_last_error();
  idx = ct__rd_result(op, a, out, p.out_ndim, p.out_shape, CT_I64);
  if (!idx) return ct_last_error();
  if (values) {
    vals = ct__empty(op, p.out_ndim, p.out_shape, (ct_dtype)a->dtype, a->device);
    if (!vals) return ct_release(idx), ct_last_error();
  }
  if (!ct__is_meta(idx) && idx->numel > 0) {
    iv = ct__rd_keepdim_view(idx, &p);
    vv = vals ? ct__rd_keepdim_view(vals, &p) : NULL;
    if (!iv || (vals && !vv)) {
      st = ct_last_error();
    } else {
      memset(&j, 0, sizeof j);
      j.in = a;
      j.int_compute = is_int;
      j.reduce = p.reduce;
      j.out = vv;
      j.out_int = is_int;
      j.indices = iv;
      j.host_row = is_int ? ct__rd_arg_row_i : ct__rd_arg_row;
      j.host_ctx = &mx;
      st = ct__rd_launch(op, mx ? CT_RD_ARGMAX : CT_RD_ARGMIN, &j);
    }
    ct_release(iv);
    ct_release(vv);
  }
  if (st != CT_OK) ct_release(vals), vals = NULL;
  if (values) *values = vals;
  if (st == CT_OK && !out) {
    if (indices) *indices = idx;
    else ct_release(idx);
    return CT_OK;
  }
  return ct__rd_finish(op, st, idx, out, NULL);
}
static ct_tensor *ct__k_max_dim(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor **indices) {
  ct_tensor *v = NULL, *i = NULL;
  (void)ks;
  if (ct__rd_arg_impl("max", 1, a, ct__rd_one(&dim), keepdim, NULL, &v, &i) != CT_OK) return NULL;
  if (indices) *indices = i;
  else ct_release(i);
  return v;
}
static ct_tensor *ct__k_min_dim(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor **indices) {
  ct_tensor *v = NULL, *i = NULL;
  (void)ks;
  if (ct__rd_arg_impl("min", 0, a, ct__rd_one(&dim), keepdim, NULL, &v, &i) != CT_OK) return NULL;
  if (indices) *indices = i;
  else ct_release(i);
  return v;
}
static ct_int_list ct__rd_opt_dim(const int64_t *dim) { /* int? dim: None reduces every dim */
  return *dim == CT_INT_NONE ? ct__rd_all() : ct__rd_one(dim);
}
static ct_tensor *ct__k_argmax(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim) {
  ct_tensor *i = NULL;
  (void)ks;
  ct__rd_arg_impl("argmax", 1, a, ct__rd_opt_dim(&dim), keepdim, NULL, NULL, &i);
  return i;
}
static ct_status ct__k_argmax_out(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_arg_impl("argmax", 1, a, ct__rd_opt_dim(&dim), keepdim, out, NULL, NULL);
}
static ct_tensor *ct__k_argmin(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim) {
  ct_tensor *i = NULL;
  (void)ks;
  ct__rd_arg_impl("argmin", 0, a, ct__rd_opt_dim(&dim), keepdim, NULL, NULL, &i);
  return i;
}
static ct_status ct__k_argmin_out(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor *out) {
  (void)ks;
  return ct__rd_arg_impl("argmin", 0, a, ct__rd_opt_dim(&dim), keepdim, out, NULL, NULL);
}

/* ---- sort / topk ----
 * NaN sorts above every number (last ascending, first descending). Each row's indices are
 * ordered by their keys: stable=True by a stable merge sort; stable=False (PyTorch's default)
 * and topk by libstdc++'s std::sort, std::nth_element and std::partial_sort replayed step for
 * step, as PyTorch's CPU kernels call them, so that equal keys come out in PyTorch's order. */
enum { CT__RD_SORT_STABLE, CT__RD_SORT_UNSTABLE, CT__RD_TOPK };
typedef struct ct__rd_sort_ctx {
  int descending, is_int, mode;
  int64_t k; /* topk */
  int sorted;
} ct__rd_sort_ctx;
static int ct__rd_before(const ct_reduction_row *r, const ct__rd_sort_ctx *c, int64_t a, int64_t b) {
  if (c->is_int) return c->descending ? r->xi[a] > r->xi[b] : r->xi[a] < r->xi[b];
  {
    double x = r->xf[a], y = r->xf[b];
    if (c->descending) return (x != x && y == y) || x > y;
    return (y != y && x == x) || x < y;
  }
}
/* libstdc++ (bits/stl_algo.h, stl_heap.h), on an array f of row indices compared by key */
typedef struct ct__stl {
  const ct_reduction_row *r;
  const ct__rd_sort_ctx *c;
} ct__stl;
#define CT__STL_LESS(a, b) ct__rd_before(s->r, s->c, (a), (b))
#define CT__STL_SWAP(f, a, b)                                                                      \
  do {                                                                                             \
    int64_t t_ = (f)[a];                                                                           \
    (f)[a] = (f)[b], (f)[b] = t_;                                                                  \
  } while (0)
static void ct__stl_adjust_heap(const ct__stl *s, int64_t *f, int64_t hole, int64_t len, int64_t value) {
  int64_t top = hole, child = hole, parent;
  while (child < (len - 1) / 2) {
    child = 2 * (child + 1);
    if (CT__STL_LESS(f[child], f[child - 1])) child--;
    f[hole] = f[child];
    hole = child;
  }
  if ((len & 1) == 0 && child == (len - 2) / 2) {
    child = 2 * (child + 1);
    f[hole] = f[child - 1];
    hole = child - 1;
  }
  for (parent = (hole - 1) / 2; hole > top && CT__STL_LESS(f[parent], value); parent = (hole - 1) / 2) {
    f[hole] = f[parent];
    hole = parent;
  }
  f[hole] = value;
}
static void ct__stl_pop_heap(const ct__stl *s, int64_t *f, int64_t len, int64_t *result) {
  int64_t value = *result;
  *result = f[0];
  ct__stl_adjust_heap(s, f, 0, len, value);
}
/* partial_sort(f, f + middle, f + last) */
static void ct__stl_partial_sort(const ct__stl *s, int64_t *f, int64_t middle, int64_t last) {
  int64_t i, parent;
  if (middle >= 2) /* make_heap */
    for (parent = (middle - 2) / 2;; parent--) {
      ct__stl_adjust_heap(s, f, parent, middle, f[parent]);
      if (parent == 0) break;
    }
  for (i = middle; i < last; i++)
    if (CT__STL_LESS(f[i], f[0])) ct__stl_pop_heap(s, f, middle, &f[i]);
  for (i = middle; i > 1;) { /* sort_heap */
    i--;
    ct__stl_pop_heap(s, f, i, &f[i]);
  }
}
static void ct__stl_linear_insert(const ct__stl *s, int64_t *f, int64_t last) {
  int64_t val = f[last], next = last - 1;
  for (; CT__STL_LESS(val, f[next]); next--) f[last] = f[next], last = next;
  f[last] = val;
}
static void ct__stl_insertion_sort(const ct__stl *s, int64_t *f, int64_t first, int64_t last) {
  int64_t i;
  for (i = first + 1; i < last; i++) {
    if (CT__STL_LESS(f[i], f[first])) {
      int64_t val = f[i];
      memmove(&f[first + 1], &f[first], sizeof(int64_t) * (size_t)(i - first));
      f[first] = val;
    } else {
      ct__stl_linear_insert(s, f, i);
    }
  }
}
static int64_t ct__stl_partition_pivot(const ct__stl *s, int64_t *f, int64_t first, int64_t last) {
  int64_t a = first + 1, b = first + (last - first) / 2, c = last - 1, lo, hi;
  /* move_median_to_first */
  if (CT__STL_LESS(f[a], f[b])) {
    if (CT__STL_LESS(f[b], f[c])) CT__STL_SWAP(f, first, b);
    else if (CT__STL_LESS(f[a], f[c])) CT__STL_SWAP(f, first, c);
    else CT__STL_SWAP(f, first, a);
  } else if (CT__STL_LESS(f[a], f[c])) {
    CT__STL_SWAP(f, first, a);
  } else if (CT__STL_LESS(f[b], f[c])) {
    CT__STL_SWAP(f, first, c);
  } else {
    CT__STL_SWAP(f, first, b);
  }
  /* unguarded_partition around f[first] */
  for (lo = first + 1, hi = last;; lo++) {
    while (CT__STL_LESS(f[lo], f[first])) lo++;
    hi--;
    while (CT__STL_LESS(f[first], f[hi])) hi--;
    if (!(lo < hi)) return lo;
    CT__STL_SWAP(f, lo, hi);
  }
}
static int ct__stl_lg(int64_t n) {
  int k = 0;
  while (n > 1) n >>= 1, k++;
  return k;
}
static void ct__stl_introsort_loop(const ct__stl *s, int64_t *f, int64_t first, int64_t last, int depth) {
  while (last - first > 16) {
    int64_t cut;
    if (depth == 0) {
      ct__stl_partial_sort(s, f + first, last - first, last - first);
      return;
    }
    depth--;
    cut = ct__stl_partition_pivot(s, f, first, last);
    ct__stl_introsort_loop(s, f, cut, last, depth);
    last = cut;
  }
}
static void ct__stl_sort(const ct__stl *s, int64_t *f, int64_t n) {
  int64_t i;
  if (n <= 1) return;
  ct__stl_introsort_loop(s, f, 0, n, 2 * ct__stl_lg(n));
  if (n > 16) { /* final_insertion_sort */
    ct__stl_insertion_sort(s, f, 0, 16);
    for (i = 16; i < n; i++) ct__stl_linear_insert(s, f, i);
  } else {
    ct__stl_insertion_sort(s, f, 0, n);
  }
}
static void ct__stl_nth_element(const ct__stl *s, int64_t *f, int64_t nth, int64_t n) {
  int64_t first = 0, last = n;
  int depth = 2 * ct__stl_lg(n);
  if (nth >= n) return;
  while (last - first > 3) {
    int64_t cut;
    if (depth == 0) {
      ct__stl_partial_sort(s, f + first, nth + 1 - first, last - first); /* heap_select, then the top to nth */
      CT__STL_SWAP(f, first, nth);
      return;
    }
    depth--;
    cut = ct__stl_partition_pivot(s, f, first, last);
    if (cut <= nth) first = cut;
    else last = cut;
  }
  ct__stl_insertion_sort(s, f, first, last);
}
#undef CT__STL_LESS
#undef CT__STL_SWAP
static void ct__rd_sort_row(ct_reduction_row *r) {
  const ct__rd_sort_ctx *c = (const ct__rd_sort_ctx *)r->ctx;
  int64_t n = r->n, w = (n > r->m ? n : r->m) + 1, *v = r->tmp, *t = r->tmp + w, width, i;
  ct__stl s;
  s.r = r, s.c = c;
  for (i = 0; i < n; i++) v[i] = i;
  if (c->mode == CT__RD_SORT_UNSTABLE) {
    ct__stl_sort(&s, v, n);
  } else if (c->mode == CT__RD_TOPK) { /* PyTorch's topk: a partial sort when k is small, else select and sort */
    if (c->k > 0 && c->k * 64 <= n) {
      ct__stl_partial_sort(&s, v, c->k, n);
    } else if (c->k > 0) {
      ct__stl_nth_element(&s, v, c->k - 1, n);
      if (c->sorted) ct__stl_sort(&s, v, c->k - 1);
    }
  } else {
    for (width = 1; width < n; width *= 2) { /* bottom-up merges: equal keys keep their order */
      int64_t lo;
      for (lo = 0; lo < n; lo += 2 * width) {
        int64_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n, a = lo, b = mid, k = lo;
        while (a < mid && b < hi) t[k++] = ct__rd_before(r, c, v[b], v[a]) ? v[b++] : v[a++];
        while (a < mid) t[k++] = v[a++];
        while (b < hi) t[k++] = v[b++];
      }
      for (i = 0; i < n; i++) v[i] = t[i];
    }
  }
  for (i = 0; i < r->m; i++) {
    r->idx[i] = v[i];
    if (c->is_int) r->yi[i] = r->xi[v[i]];
    else r->yf[i] = r->xf[v[i]];
  }
}
/* the first k of each row along dim, sorted (k -1: the whole row) */
static ct_tensor *ct__rd_sort_impl(const char *op, ct_tensor *a, int64_t k, int64_t dim, int descending, int mode, int sorted,
                                   ct_tensor **indices) {
  ct__rd_plan p;
  ct__rd_sort_ctx c;
  int64_t shape[CT_MAX_DIMS], size;
  ct_tensor *vals, *idx;
  ct_status st = CT_OK;
  ct_reduction_call j;
  int i;
  if (ct__rd_plan_dim(op, a, dim, true, &p) != CT_OK) return NULL;
  dim = ct__wrap_dim(op, dim, a->ndim);
  size = a->ndim ? a->sizes[dim] : 1;
  if (k == -1 && !strcmp(op, "sort")) k = size;
  if (k < 0 || k > size || (a->ndim == 0 && k != 1))
    return ct_fail(CT_ERR_INDEX, op, "selected index k out of range"), (ct_tensor *)NULL;
  for (i = 0; i < a->ndim; i++) shape[i] = i == dim ? k : a->sizes[i];
  vals = ct__empty(op, a->ndim, shape, (ct_dtype)a->dtype, a->device);
  idx = vals ? ct__empty(op, a->ndim, shape, CT_I64, a->device) : NULL;
  if (!idx) return ct_release(vals), (ct_tensor *)NULL;
  if (!ct__is_meta(vals) && vals->numel > 0) {
    c.descending = descending;
    c.is_int = ct__rd_is_int((ct_dtype)a->dtype);
    c.mode = mode, c.k = k, c.sorted = sorted;
    memset(&j, 0, sizeof j);
    j.in = a;
    j.int_compute = c.is_int;
    j.reduce = p.reduce;
    j.out = vals;
    j.out_int = c.is_int;
    j.indices = idx;
    j.host_row = ct__rd_sort_row;
    j.need_tmp = 1;
    j.host_ctx = &c;
    j.iparam = descending;
    st = ct__rd_launch(op, CT_RD_SORT, &j);
  }
  if (st != CT_OK) return ct_release(vals), ct_release(idx), (ct_tensor *)NULL;
  if (indices) *indices = idx;
  else ct_release(idx);
  return vals;
}
static ct_tensor *ct__k_sort(ct_keyset ks, ct_tensor *a, int64_t dim, bool descending, ct_tensor **indices) {
  (void)ks;
  return ct__rd_sort_impl("sort", a, -1, dim, descending, CT__RD_SORT_UNSTABLE, 1, indices);
}
static ct_tensor *ct__k_sort_stable(ct_keyset ks, ct_tensor *a, bool stable, int64_t dim, bool descending, ct_tensor **indices) {
  (void)ks;
  return ct__rd_sort_impl("sort", a, -1, dim, descending, stable ? CT__RD_SORT_STABLE : CT__RD_SORT_UNSTABLE, 1, indices);
}
static ct_tensor *ct__k_topk(ct_keyset ks, ct_tensor *a, int64_t k, int64_t dim, bool largest, bool sorted, ct_tensor **indices) {
  (void)ks;
  if (a->dtype == CT_BOOL && a->ndim > 0) /* PyTorch copies a 0-dim self before dispatching on the dtype */
    return ct_fail(CT_ERR_DTYPE, "topk", "\"topk_cpu\" not implemented for 'Bool'"), (ct_tensor *)NULL;
  return ct__rd_sort_impl("topk", a, k, dim, largest, CT__RD_TOPK, sorted, indices);
}

/* ---- value selection along a dim, and its adjoint ----
 * _rd_gather(self, dim, index, keepdim): out[..., i, ...] = self[..., index[..., i, ...], ...];
 * index has self's rank (keepdim) or lacks dim. value_selecting_reduction_backward
 * (PyTorch's op) adds grad into zeros of `sizes` at the same places: each is
 * the other's derivative, so every order of derivative works. */
static ct_status ct__rd_select_check(const char *op, const char *what, int ndim, const int64_t *sizes, const ct_tensor *t,
                                     const ct_tensor *index, int64_t dim, bool keepdim) {
  int i, k = 0;
  if (index->dtype != CT_I64) return ct_fail(CT_ERR_DTYPE, op, "index must be an int64 tensor, got %s", ct_dtype_name((ct_dtype)index->dtype));
  if (!ct_same_shape(t, index)) return ct_fail(CT_ERR_SHAPE, op, "%s and index must have the same shape", what);
  if (ndim == 0 ? t->ndim != 0 : t->ndim != (keepdim ? ndim : ndim - 1))
    return ct_fail(CT_ERR_RANK, op, "index has rank %d but the selected tensor has rank %d", t->ndim, ndim);
  for (i = 0; i < ndim && ndim > 0; i++) {
    if (i == dim) {
      if (keepdim) k++;
      continue;
    }
    if (t->sizes[k++] != sizes[i]) return ct_fail(CT_ERR_SHAPE, op, "index and the selected tensor differ in size at dim %d", i);
  }
  return CT_OK; /* (the index bounds: a data check, in the impl step: CT_REDUCTION_CHECK_INDEX) */
}
static void ct__rd_gather_row(ct_reduction_row *r) {
  int is_int = *(const int *)r->ctx;
  int64_t i;
  for (i = 0; i < r->n2; i++) {
    int64_t at = (int64_t)r->x2[i];
    if (is_int) r->yi[i] = r->xi[at];
    else r->yf[i] = r->xf[at];
  }
}
static void ct__rd_scatter_row(ct_reduction_row *r) {
  int64_t i;
  for (i = 0; i < r->m; i++) r->yf[i] = 0;
  for (i = 0; i < r->n; i++) r->yf[(int64_t)r->x2[i]] += r->xf[i];
}
/* t seen with rank ndim (size 1 at dim) when it lacks dim */
static ct_tensor *ct__rd_unsqueezed(ct_tensor *t, int ndim, const int64_t *sizes, int64_t dim, bool keepdim) {
  ct__rd_plan p;
  if (keepdim || ndim == 0) return ct_retain(t);
  if (ct__rd_plan_make("select", ndim, sizes, ct__rd_one(&dim), false, &p) != CT_OK) return NULL;
  return ct__rd_keepdim_view(t, &p);
}
static ct_tensor *ct__k_rd_gather(ct_keyset ks, ct_tensor *self, int64_t dim, ct_tensor *index, bool keepdim) {
  static const char *op = "_rd_gather";
  ct__rd_plan p;
  ct_tensor *r, *iv = NULL, *rv = NULL;
  ct_status st = CT_OK;
  ct_reduction_call j;
  int is_int = ct__rd_is_int((ct_dtype)self->dtype);
  (void)ks;
  if (ct__rd_plan_dim(op, self, dim, true, &p) != CT_OK) return NULL;
  dim = ct__wrap_dim(op, dim, self->ndim);
  if (ct__rd_select_check(op, "the result", self->ndim, self->sizes, index, index, dim, keepdim) != CT_OK) return NULL;
  r = ct__empty(op, index->ndim, index->sizes, (ct_dtype)self->dtype, self->device);
  if (!r || ct__is_meta(r) || r->numel == 0) return r;
  iv = ct__rd_unsqueezed(index, self->ndim, self->sizes, dim, keepdim);
  rv = ct__rd_unsqueezed(r, self->ndim, self->sizes, dim, keepdim);
  if (!iv || !rv) {
    st = ct_last_error();
  } else {
    memset(&j, 0, sizeof j);
    j.in = self;
    j.int_compute = is_int;
    j.in2 = iv;
    j.reduce = p.reduce;
    j.out = rv;
    j.out_int = is_int;
    j.host_row = ct__rd_gather_row;
    j.host_ctx = &is_int;
    j.flags = CT_REDUCTION_CHECK_INDEX;
    j.iparam = dim;
    st = ct__rd_launch(op, CT_RD_GATHER, &j);
  }
  ct_release(iv);
  ct_release(rv);
  if (st != CT_OK) ct_release(r), r = NULL;
  return r;
}
static ct_tensor *ct__k_value_selecting_reduction_backward(ct_keyset ks, ct_tensor *grad, int64_t dim, ct_tensor *indices,
                                                           ct_int_list sizes, bool keepdim) {
  static const char *op = "value_selecting_reduction_backward";
  ct__rd_plan p;
  ct_tensor *r, *gv = NULL, *iv = NULL;
  ct_status st = CT_OK;
  ct_reduction_call j;
  int nd = (int)sizes.n;
  (void)ks;
  if (sizes.n < 0 || sizes.n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "sizes has rank %lld", (long long)sizes.n), (ct_tensor *)NULL;
  if (ct__checked_numel(op, nd, sizes.data, (ct_dtype)grad->dtype) < 0) return NULL; /* negative sizes, overflow */
  if (ct__rd_plan_make(op, nd, sizes.data, ct__rd_one(&dim), true, &p) != CT_OK) return NULL;
  dim = ct__wrap_dim(op, dim, nd);
  if (!ct_dtype_is_floating((ct_dtype)grad->dtype)) return ct_fail(CT_ERR_DTYPE, op, "grad must be floating"), (ct_tensor *)NULL;
  if (ct__rd_select_check(op, "grad", nd, sizes.data, grad, indices, dim, keepdim) != CT_OK) return NULL;
  r = ct__empty(op, nd, sizes.data, (ct_dtype)grad->dtype, grad->device);
  if (!r || ct__is_meta(r) || r->numel == 0) return r;
  gv = ct__rd_unsqueezed(grad, nd, sizes.data, dim, keepdim);
  iv = ct__rd_unsqueezed(indices, nd, sizes.data, dim, keepdim);
  if (!gv || !iv) {
    st = ct_last_error();
  } else {
    memset(&j, 0, sizeof j);
    j.in = gv;
    j.in2 = iv;
    j.reduce = p.reduce;
    j.out = r;
    j.host_row = ct__rd_scatter_row;
    j.flags = CT_REDUCTION_CHECK_INDEX;
    j.iparam = dim;
    st = ct__rd_launch(op, CT_RD_INDEX_BACKWARD, &j);
  }
  ct_release(gv);
  ct_release(iv);
  if (st != CT_OK) ct_release(r), r = NULL;
  return r;
}

/* ---- nansum / nanmean: NaN counts as absent ---- */
static void ct__rd_nansum_row(ct_reduction_row *r) {
  double s = 0;
  int64_t i;
  for (i = 0; i < r->n; i++)
    if (r->xf[i] == r->xf[i]) s += r->xf[i];
  r->yf[0] = s;
}
static void ct__rd_nanmean_row(ct_reduction_row *r) {
  double s = 0;
  int64_t i, c = 0;
  for (i = 0; i < r->n; i++)
    if (r->xf[i] == r->xf[i]) s += r->xf[i], c++;
  r->yf[0] = s / (double)c;
}
static ct_status ct__rd_nansum_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                                    ct_tensor **result) {
  static const char *op = "nansum";
  ct__rd_plan p;
  ct_dtype rd;
  if (ct__rd_check_dtype(op, dtype) != CT_OK || ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK)
    return ct_last_error();
  if (out && dtype != CT_DTYPE_NONE && ct__rd_out_dtype(op, out, dtype) != CT_OK) return ct_last_error();
  rd = ct__rd_sum_dtype(a, dtype, out);
  if (ct__rd_is_int(rd)) return ct__rd_reduce(op, CT_RD_NANSUM, 0, a, &p, rd, 1, 1, ct__rd_sum_row_i, NULL, out, result);
  return ct__rd_reduce(op, CT_RD_NANSUM, 0, a, &p, rd, 0, 0, ct__rd_nansum_row, NULL, out, result);
}
static ct_tensor *ct__k_nansum(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_nansum_impl(a, dim, keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_nansum_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_nansum_impl(a, dim, keepdim, dtype, out, NULL);
}
static ct_status ct__rd_nanmean_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                                     ct_tensor **result) {
  static const char *op = "nanmean";
  ct__rd_plan p;
  ct_dtype rd = dtype != CT_DTYPE_NONE ? dtype : out ? (ct_dtype)out->dtype : (ct_dtype)a->dtype;
  if (ct__rd_check_dtype(op, dtype) != CT_OK || ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK)
    return ct_last_error();
  if (!ct_dtype_is_floating((ct_dtype)a->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "nanmean(): expected input to have floating point dtype but got %s",
                   ct__dtype_torch_name((ct_dtype)a->dtype));
  if (!ct_dtype_is_floating(rd))
    return ct_fail(CT_ERR_DTYPE, op, "nanmean(): expected a floating point result dtype but got %s", ct__dtype_torch_name(rd));
  if (out && dtype != CT_DTYPE_NONE && ct__rd_out_dtype(op, out, dtype) != CT_OK) return ct_last_error();
  return ct__rd_reduce(op, CT_RD_NANMEAN, 0, a, &p, rd, 0, 0, ct__rd_nanmean_row, NULL, out, result);
}
static ct_tensor *ct__k_nanmean(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_nanmean_impl(a, dim, keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_nanmean_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__rd_nanmean_impl(a, dim, keepdim, dtype, out, NULL);
}

/* ---- count_nonzero: int64 ---- */
static void ct__rd_nnz_row(ct_reduction_row *r) {
  int64_t i, c = 0;
  for (i = 0; i < r->n; i++) c += r->xf[i] != 0;
  r->yi[0] = c;
}
static void ct__rd_nnz_row_i(ct_reduction_row *r) {
  int64_t i, c = 0;
  for (i = 0; i < r->n; i++) c += r->xi[i] != 0;
  r->yi[0] = c;
}
static ct_status ct__rd_nnz_impl(ct_tensor *a, ct_int_list dims, ct_tensor *out, ct_tensor **result) {
  static const char *op = "count_nonzero";
  ct__rd_plan p;
  int is_int = ct__rd_is_int((ct_dtype)a->dtype);
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, false, &p) != CT_OK) return ct_last_error();
  if (ct__rd_out_castable(op, out, CT_I64) != CT_OK) return ct_last_error();
  return ct__rd_reduce(op, CT_RD_COUNT_NONZERO, 0, a, &p, CT_I64, is_int, 1, is_int ? ct__rd_nnz_row_i : ct__rd_nnz_row, NULL, out, result);
}
static ct_tensor *ct__k_count_nonzero_dims(ct_keyset ks, ct_tensor *a, ct_int_list dim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_nnz_impl(a, dim, NULL, &r);
  return r;
}
static ct_status ct__k_count_nonzero_dims_out(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_tensor *out) {
  (void)ks;
  return ct__rd_nnz_impl(a, dim, out, NULL);
}
static ct_tensor *ct__k_count_nonzero(ct_keyset ks, ct_tensor *a, int64_t dim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_nnz_impl(a, ct__rd_opt_dim(&dim), NULL, &r);
  return r;
}
static ct_status ct__k_count_nonzero_out(ct_keyset ks, ct_tensor *a, int64_t dim, ct_tensor *out) {
  (void)ks;
  return ct__rd_nnz_impl(a, ct__rd_opt_dim(&dim), out, NULL);
}

/* ---- logcumsumexp: a running log-add-exp; floating only ---- */
static double ct__rd_logaddexp(double a, double b) {
  double m = a > b ? a : b;
  if (a != a || b != b) return a + b;
  if (m == -INFINITY) return -INFINITY;
  if (m == INFINITY) return INFINITY;
  return m + log1p(exp(-fabs(a - b)));
}
static void ct__rd_lcse_row(ct_reduction_row *r) {
  double s = -INFINITY;
  int64_t i;
  for (i = 0; i < r->n; i++) r->yf[i] = s = ct__rd_logaddexp(s, r->xf[i]);
}
static ct_status ct__rd_lcse_impl(ct_tensor *a, int64_t dim, ct_tensor *out, ct_tensor **result) {
  static const char *op = "logcumsumexp";
  ct__rd_plan p;
  ct_tensor *dst;
  ct_status st = CT_OK;
  ct_reduction_call j;
  if (!ct_dtype_is_floating((ct_dtype)a->dtype))
    return ct_fail(CT_ERR_DTYPE, op, "\"logcumsumexp\" not implemented for '%s'", ct__dtype_torch_name((ct_dtype)a->dtype));
  if (ct__rd_plan_dim(op, a, dim, true, &p) != CT_OK) return ct_last_error();
  if (out && (ct__rd_out_dtype(op, out, (ct_dtype)a->dtype) != CT_OK || ct__check_overlap(op, out, a) != CT_OK))
    return ct_last_error();
  dst = ct__rd_result(op, a, out, a->ndim, a->sizes, (ct_dtype)a->dtype);
  if (!dst) return ct_last_error();
  if (!ct__is_meta(dst) && dst->numel > 0) {
    memset(&j, 0, sizeof j);
    j.in = a;
    j.reduce = p.reduce;
    j.out = dst;
    j.host_row = ct__rd_lcse_row;
    st = ct__rd_launch(op, CT_RD_LOGCUMSUMEXP, &j);
  }
  return ct__rd_finish(op, st, dst, out, result);
}
static ct_tensor *ct__k_logcumsumexp(ct_keyset ks, ct_tensor *a, int64_t dim) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__rd_lcse_impl(a, dim, NULL, &r);
  return r;
}
static ct_status ct__k_logcumsumexp_out(ct_keyset ks, ct_tensor *a, int64_t dim, ct_tensor *out) {
  (void)ks;
  return ct__rd_lcse_impl(a, dim, out, NULL);
}

/* ---- cummax / cummin: (values, indices); a tie or a NaN takes the later index, as PyTorch ---- */
static void ct__rd_cumext_row(ct_reduction_row *r) {
  int mx = *(const int *)r->ctx;
  double v = 0;
  int64_t i, at = 0;
  for (i = 0; i < r->n; i++) {
    double x = r->xf[i];
    if (i == 0 || x != x || (v == v && (mx ? x >= v : x <= v))) v = x, at = i;
    r->yf[i] = v;
    r->idx[i] = at;
  }
}
static void ct__rd_cumext_row_i(ct_reduction_row *r) {
  int mx = *(const int *)r->ctx;
  int64_t i, at = 0, v = 0;
  for (i = 0; i < r->n; i++) {
    if (i == 0 || (mx ? r->xi[i] >= v : r->xi[i] <= v)) v = r->xi[i], at = i;
    r->yi[i] = v;
    r->idx[i] = at;
  }
}
static ct_tensor *ct__rd_cumext_impl(const char *op, int mx, ct_tensor *a, int64_t dim, ct_tensor **indices) {
  ct__rd_plan p;
  ct_tensor *vals, *idx;
  ct_status st = CT_OK;
  ct_reduction_call j;
  int is_int = ct__rd_is_int((ct_dtype)a->dtype);
  if (ct__rd_plan_dim(op, a, dim, true, &p) != CT_OK) return NULL;
  vals = ct__empty(op, a->ndim, a->sizes, (ct_dtype)a->dtype, a->device);
  idx = vals ? ct__empty(op, a->ndim, a->sizes, CT_I64, a->device) : NULL;
  if (!idx) return ct_release(vals), (ct_tensor *)NULL;
  if (!ct__is_meta(vals) && vals->numel > 0) {
    memset(&j, 0, sizeof j);
    j.in = a;
    j.int_compute = is_int;
    j.reduce = p.reduce;
    j.out = vals;
    j.out_int = is_int;
    j.indices = idx;
    j.host_row = is_int ? ct__rd_cumext_row_i : ct__rd_cumext_row;
    j.host_ctx = &mx;
    st = ct__rd_launch(op, mx ? CT_RD_CUMMAX : CT_RD_CUMMIN, &j);
  }
  if (st != CT_OK) return ct_release(vals), ct_release(idx), (ct_tensor *)NULL;
  if (indices) *indices = idx;
  else ct_release(idx);
  return vals;
}
static ct_tensor *ct__k_cummax(ct_keyset ks, ct_tensor *a, int64_t dim, ct_tensor **indices) {
  (void)ks;
  return ct__rd_cumext_impl("cummax", 1, a, dim, indices);
}
static ct_tensor *ct__k_cummin(ct_keyset ks, ct_tensor *a, int64_t dim, ct_tensor **indices) {
  (void)ks;
  return ct__rd_cumext_impl("cummin", 0, a, dim, indices);
}

/* ---- kthvalue / median / nanmedian: the k-th smallest of the sorted row ----
 * (NaN sorts last.) median: the lower median, NaN when the row has one;
 * nanmedian: the lower median of the non-NaN elements. */
enum { CT__RD_KTH, CT__RD_MEDIAN, CT__RD_NANMEDIAN };
typedef struct ct__rd_kth_ctx {
  int mode, is_int;
  int64_t k; /* 1-based, CT__RD_KTH */
  ct_dtype dtype;
} ct__rd_kth_ctx;
/* kthvalue picks the k-th smallest as PyTorch's CPU kernel does (quick_select_template: Hoare
 * partition around a median of three, NaN above every number), so that among equal values it
 * returns the same index as PyTorch. v: the row (double, or int64 viewed as such when is_int). */
#define CT__RD_GT_OR_NAN(x, y) (is_int ? vi[x] > vi[y] : ((vf[x] != vf[x] && vf[y] == vf[y]) || vf[x] > vf[y]))
static int64_t ct__rd_quick_select(double *vf, int64_t *vi, int64_t *idx, int64_t n, int64_t k, int is_int) {
  int64_t lo = 0, hi = n - 1, mid, i, j;
#define CT__RD_SWAP(a, b)                                                        \
  do {                                                                           \
    int64_t ta_ = idx[a], ti_ = vi[a];                                           \
    double tf_ = vf[a];                                                          \
    idx[a] = idx[b], idx[b] = ta_;                                               \
    if (is_int) vi[a] = vi[b], vi[b] = ti_;                                      \
    else vf[a] = vf[b], vf[b] = tf_;                                             \
  } while (0)
  for (;;) {
    if (hi <= lo) break;
    if (hi == lo + 1) {
      if (CT__RD_GT_OR_NAN(lo, hi)) CT__RD_SWAP(lo, hi);
      break;
    }
    mid = lo + (hi - lo) / 2;
    CT__RD_SWAP(mid, lo + 1);
    if (CT__RD_GT_OR_NAN(lo + 1, hi)) CT__RD_SWAP(lo + 1, hi);
    if (CT__RD_GT_OR_NAN(lo, hi)) CT__RD_SWAP(lo, hi);
    if (CT__RD_GT_OR_NAN(lo + 1, lo)) CT__RD_SWAP(lo + 1, lo);
    i = lo + 1, j = hi;
    for (;;) { /* the pivot stays at lo while it partitions */
      do i++;
      while (CT__RD_GT_OR_NAN(lo, i));
      do j--;
      while (CT__RD_GT_OR_NAN(j, lo));
      if (j < i) break;
      CT__RD_SWAP(i, j);
    }
    CT__RD_SWAP(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
#undef CT__RD_SWAP
  return idx[k];
}
#undef CT__RD_GT_OR_NAN
static void ct__rd_kth_row(ct_reduction_row *r) {
  const ct__rd_kth_ctx *c = (const ct__rd_kth_ctx *)r->ctx;
  ct__rd_sort_ctx sc;
  ct_reduction_row sr = *r;
  int64_t at, nans = 0, i, *perm;
  if (c->mode == CT__RD_KTH && r->n > 0) {
    int64_t *vals = r->tmp, *idx = r->tmp + (r->n + 1), pick;
    for (i = 0; i < r->n; i++) idx[i] = i;
    if (c->is_int) memcpy(vals, r->xi, sizeof(int64_t) * (size_t)r->n);
    else memcpy(vals, r->xf, sizeof(double) * (size_t)r->n);
    pick = ct__rd_quick_select((double *)(void *)vals, vals, idx, r->n, c->k - 1, c->is_int);
    r->idx[0] = pick;
    if (c->is_int) r->yi[0] = r->xi[pick];
    else r->yf[0] = r->xf[pick];
    return;
  }
  if (r->n == 0) { /* the full median of nothing: NaN, which PyTorch (on x86) stores in integer dtypes as below */
    r->idx[0] = 0;
    r->yi[0] = c->dtype == CT_I64 ? INT64_MIN : c->dtype == CT_I32 ? INT32_MIN : c->dtype == CT_BOOL ? 1 : 0;
    if (!c->is_int) r->yf[0] = NAN;
    return;
  }
  sc.descending = 0;
  sc.is_int = c->is_int;
  sc.mode = CT__RD_SORT_STABLE, sc.k = 0, sc.sorted = 1;
  sr.m = r->n;
  sr.idx = r->tmp + 2 * (r->n + 1); /* the sort writes its own outputs past its scratch */
  sr.yf = (double *)(void *)(sr.idx + (r->n + 1));
  sr.yi = (int64_t *)(void *)sr.yf;
  sr.ctx = &sc;
  ct__rd_sort_row(&sr);
  perm = sr.idx;
  if (!c->is_int)
    for (i = 0; i < r->n; i++) nans += r->xf[i] != r->xf[i];
  if (c->mode == CT__RD_KTH) at = c->k - 1;
  else if (c->mode == CT__RD_MEDIAN) at = nans ? r->n - nans : (r->n - 1) / 2;
  else at = nans == r->n ? 0 : (r->n - nans - 1) / 2;
  r->idx[0] = perm[at];
  if (c->is_int) r->yi[0] = r->xi[perm[at]];
  else r->yf[0] = r->xf[perm[at]];
}
static ct_status ct__rd_kth_impl(const char *op, int mode, ct_tensor *a, int64_t k, ct_int_list dims, bool keepdim, ct_tensor *out,
                                 ct_tensor **values, ct_tensor **indices) {
  ct__rd_plan p;
  ct__rd_kth_ctx c;
  ct_tensor *vals = NULL, *idx = NULL, *vv = NULL, *iv = NULL;
  ct_status st = CT_OK;
  ct_reduction_call j;
  int full = !dims.data;
  if (ct__rd_plan_make(op, a->ndim, a->sizes, dims, keepdim, &p) != CT_OK) return ct_last_error();
  if (mode == CT__RD_KTH && (k < 1 || k > p.n))
    return ct_fail(CT_ERR_INDEX, op, "selected number k out of range for dimension %lld", (long long)(dims.data ? dims.data[0] : 0));
  if (!full && ct__rd_empty_check(op, a, &p, 0) != CT_OK) return ct_last_error(); /* a full median of nothing is nan */
  /* bool: PyTorch has no kernel, except where it answers before dispatching
   * on the dtype (a full median of nothing, kthvalue of a 0-dim tensor) */
  if (a->dtype == CT_BOOL && (mode == CT__RD_KTH ? a->ndim > 0 : !full || a->numel > 0))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for 'Bool'",
                   mode == CT__RD_KTH ? "kthvalue_cpu" : full ? "median_cpu" : "median_out");
  if (ct__rd_out_castable(op, out, (ct_dtype)a->dtype) != CT_OK) return ct_last_error();
  vals = ct__rd_result(op, a, out, p.out_ndim, p.out_shape, (ct_dtype)a->dtype);
  if (!vals) return ct_last_error();
  if (indices) {
    idx = ct__empty(op, p.out_ndim, p.out_shape, CT_I64, a->device);
    if (!idx) return ct_release(vals), ct_last_error();
  }
  if (!ct__is_meta(vals) && vals->numel > 0) {
    c.mode = mode;
    c.is_int = ct__rd_is_int((ct_dtype)a->dtype);
    c.k = k;
    c.dtype = (ct_dtype)a->dtype;
    vv = ct__rd_keepdim_view(vals, &p);
    iv = idx ? ct__rd_keepdim_view(idx, &p) : NULL;
    if (!vv || (idx && !iv)) {
      st = ct_last_error();
    } else {
      memset(&j, 0, sizeof j);
      j.in = a;
      j.int_compute = c.is_int;
      j.reduce = p.reduce;
      j.out = vv;
      j.out_int = c.is_int;
      j.indices = iv;
      j.host_row = ct__rd_kth_row;
      j.host_ctx = &c;
      j.need_tmp = 2; /* sort scratch, then the sort's indices and values */
      j.iparam = k;
      st = ct__rd_launch(op, mode == CT__RD_KTH ? CT_RD_KTHVALUE : mode == CT__RD_MEDIAN ? CT_RD_MEDIAN : CT_RD_NANMEDIAN, &j);
    }
    ct_release(vv);
    ct_release(iv);
  }
  if (st != CT_OK) ct_release(idx), idx = NULL;
  if (indices) *indices = idx;
  if (values) {
    if (st == CT_OK) *values = vals;
    else ct_release(vals);
    return st;
  }
  return ct__rd_finish(op, st, vals, out, NULL);
}
#define CT__RD_MEDIAN_KERNELS(name, MODE)                                                                         \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a) {                                                    \
    ct_tensor *v = NULL;                                                                                          \
    (void)ks;                                                                                                     \
    ct__rd_kth_impl(#name, MODE, a, 0, ct__rd_all(), false, NULL, &v, NULL);                                      \
    return v;                                                                                                     \
  }                                                                                                               \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *out) {                               \
    (void)ks;                                                                                                     \
    return ct__rd_kth_impl(#name, MODE, a, 0, ct__rd_all(), false, out, NULL, NULL);                              \
  }                                                                                                               \
  static ct_tensor *ct__k_##name##_dim(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor **indices) { \
    ct_tensor *v = NULL, *i = NULL;                                                                               \
    (void)ks;                                                                                                     \
    if (ct__rd_kth_impl(#name, MODE, a, 0, ct__rd_one(&dim), keepdim, NULL, &v, &i) != CT_OK) return NULL;        \
    if (indices) *indices = i;                                                                                    \
    else ct_release(i);                                                                                           \
    return v;                                                                                                     \
  }
CT__RD_MEDIAN_KERNELS(median, CT__RD_MEDIAN)
CT__RD_MEDIAN_KERNELS(nanmedian, CT__RD_NANMEDIAN)
static ct_tensor *ct__k_kthvalue(ct_keyset ks, ct_tensor *a, int64_t k, int64_t dim, bool keepdim, ct_tensor **indices) {
  ct_tensor *v = NULL, *i = NULL;
  (void)ks;
  if (ct__rd_kth_impl("kthvalue", CT__RD_KTH, a, k, ct__rd_one(&dim), keepdim, NULL, &v, &i) != CT_OK) return NULL;
  if (indices) *indices = i;
  else ct_release(i);
  return v;
}

/* ---- composites ---- */
static ct_tensor *ct__k_argsort(ct_keyset ks, ct_tensor *a, int64_t dim, bool descending) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *i = NULL;
    if (ct_sort(a, dim, descending, &i)) r = ct_keep(i);
  }
  return r;
}
static ct_tensor *ct__k_argsort_stable(ct_keyset ks, ct_tensor *a, bool stable, int64_t dim, bool descending) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *i = NULL;
    if (ct_sort_stable_ex(a, stable, dim, descending, &i)) r = ct_keep(i);
  }
  return r;
}
static ct_tensor *ct__k_msort(ct_keyset ks, ct_tensor *a) {
  (void)ks;
  return ct_sort(a, 0, false, NULL);
}
static ct_tensor *ct__rd_var_mean(ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim, ct_tensor **mean, int sq) {
  ct_tensor *v = NULL, *m = NULL;
  int n = dim.data ? (int)dim.n : 0;
  if (mean) *mean = NULL;
  CT_SCOPE {
    v = sq ? ct_std_ex(a, n, dim.data, correction, keepdim) : ct_var_ex(a, n, dim.data, correction, keepdim);
    m = v ? ct_mean_dim(a, n, dim.data, keepdim) : NULL;
    if (v && m) v = ct_keep(v), m = ct_keep(m);
    else v = m = NULL;
  }
  if (mean) *mean = m;
  else ct_release(m);
  return v;
}
static ct_tensor *ct__k_var_mean(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim, ct_tensor **result1) {
  (void)ks;
  return ct__rd_var_mean(a, dim, correction, keepdim, result1, 0);
}
static ct_tensor *ct__k_std_mean(ct_keyset ks, ct_tensor *a, ct_int_list dim, ct_scalar correction, bool keepdim, ct_tensor **result1) {
  (void)ks;
  return ct__rd_var_mean(a, dim, correction, keepdim, result1, 1);
}
/* aten's unbiased overloads of var_mean / std_mean, and max / min of two tensors */
static ct_tensor *ct__k_var_mean_unbiased(ct_keyset ks, ct_tensor *a, bool unbiased, ct_tensor **result1) {
  (void)ks;
  return ct__rd_var_mean(a, ct__rd_all(), ct_int(unbiased ? 1 : 0), false, result1, 0);
}
static ct_tensor *ct__k_var_mean_dim(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool unbiased, bool keepdim, ct_tensor **result1) {
  (void)ks;
  return ct__rd_var_mean(a, dim, ct_int(unbiased ? 1 : 0), keepdim, result1, 0);
}
static ct_tensor *ct__k_std_mean_unbiased(ct_keyset ks, ct_tensor *a, bool unbiased, ct_tensor **result1) {
  (void)ks;
  return ct__rd_var_mean(a, ct__rd_all(), ct_int(unbiased ? 1 : 0), false, result1, 1);
}
static ct_tensor *ct__k_std_mean_dim(ct_keyset ks, ct_tensor *a, ct_int_list dim, bool unbiased, bool keepdim, ct_tensor **result1) {
  (void)ks;
  return ct__rd_var_mean(a, dim, ct_int(unbiased ? 1 : 0), keepdim, result1, 1);
}
static ct_tensor *ct__k_max_other(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  (void)ks;
  return ct_maximum(a, b);
}
static ct_status ct__k_max_other_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  (void)ks;
  return ct_maximum_out(out, a, b);
}
static ct_tensor *ct__k_min_other(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  (void)ks;
  return ct_minimum(a, b);
}
static ct_status ct__k_min_other_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  (void)ks;
  return ct_minimum_out(out, a, b);
}
static ct_tensor *ct__k_aminmax(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor **max) {
  ct_tensor *lo = NULL, *hi = NULL;
  int n = dim == CT_INT_NONE ? 0 : 1;
  (void)ks;
  if (max) *max = NULL;
  if (dim == CT_INT_NONE && a->numel == 0)
    return ct_fail(CT_ERR_INVALID, "aminmax", "cannot compute aminmax over an empty dimension as the operation has no identity"),
           (ct_tensor *)NULL;
  CT_SCOPE {
    lo = ct_amin(a, n, &dim, keepdim);
    hi = lo ? ct_amax(a, n, &dim, keepdim) : NULL;
    if (lo && hi && n && keepdim && a->ndim == 0) { /* PyTorch 1.13: a 0-dim input with dim and keepdim gives shape [1] */
      static const int64_t one = 1;
      lo = ct_reshape(lo, 1, &one);
      hi = lo ? ct_reshape(hi, 1, &one) : NULL;
    }
    if (lo && hi) lo = ct_keep(lo), hi = ct_keep(hi);
    else lo = hi = NULL;
  }
  if (max) *max = hi;
  else ct_release(hi);
  return lo;
}

/* ================= derivative helpers =================
 * Formulas in gen/derivatives/reduce.spec. Written with ct ops, so that the
 * gradients are differentiable again; the piecewise-constant factors (tie
 * masks, signs, zero masks) are computed by the row mechanism as constants,
 * which is exact for them. Exceptions, first order only: logcumsumexp (the
 * gradient is computed by a row kernel), and cumprod of a row with zeros
 * (linear in grad, but the second derivative in self misses terms). */

/* grad with the reduced dims put back (size 1) so that it broadcasts to the input */
static ct_tensor *ct__rd_restore(ct_tensor *g, int ndim, const int64_t *sizes, ct_int_list dim, bool keepdim) {
  ct__rd_plan p;
  int i;
  if (!g) return NULL;
  if (keepdim || ndim == 0) return g;
  if (ct__rd_plan_make("backward", ndim, sizes, dim, false, &p) != CT_OK) return NULL;
  for (i = 0; i < ndim && g; i++)
    if (p.reduce[i]) g = ct_unsqueeze(g, i);
  return g;
}
/* a tensor of self's shape and dtype computed row by row from self (and x2) over dims: a tracked temporary */
static ct_tensor *ct__rd_rowwise(ct_tensor *self, ct_tensor *x2, ct_int_list dim, ct_reduction_row_fn fn, const void *ctx) {
  static const char *op = "backward";
  ct__rd_plan p;
  ct_tensor *r;
  ct_reduction_call j;
  if (ct__rd_plan_make(op, self->ndim, self->sizes, dim, true, &p) != CT_OK) return NULL;
  r = ct__empty(op, self->ndim, self->sizes, ct_dtype_is_floating((ct_dtype)self->dtype) ? (ct_dtype)self->dtype : CT_F64,
                self->device);
  if (!r) return NULL;
  if (!ct__is_meta(r) && r->numel > 0) { /* (through the device's loop: a row helper, staged on the host there) */
    memset(&j, 0, sizeof j);
    j.in = self;
    j.in2 = x2;
    j.reduce = p.reduce;
    j.out = r;
    j.host_row = fn;
    j.host_ctx = ctx;
    if (ct__rd_launch(op, CT_RD_ROWWISE, &j) != CT_OK) return ct_release(r), (ct_tensor *)NULL;
  }
  return ct__track(r);
}
static int64_t ct__rd_count(int ndim, const int64_t *sizes, ct_int_list dim) {
  ct__rd_plan p;
  if (ct__rd_plan_make("backward", ndim, sizes, dim, false, &p) != CT_OK) return -1;
  return p.n;
}

/* mean: grad / N, broadcast back */
static ct_tensor *ct__mean_backward(ct_tensor *grad, const ct__shape *sizes, ct_int_list dim, bool keepdim) {
  int64_t n = ct__rd_count(sizes->ndim, sizes->sizes, dim);
  if (n < 0 || !grad) return NULL;
  return ct_expand(ct_div_scalar(ct__rd_restore(grad, sizes->ndim, sizes->sizes, dim, keepdim), ct_int(n)), sizes->ndim,
                   sizes->sizes);
}

/* amax/amin/max/min: the gradient is shared evenly among the tied extremes
 * (NaN counts as tied with NaN). ctx: int, 1 for max. */
static void ct__rd_ties_row(ct_reduction_row *r) {
  int64_t i, cnt = 0;
  double v;
  ct__rd_ext_row(r);
  v = r->yf[0];
  for (i = 0; i < r->n; i++) cnt += r->xf[i] == v || (v != v && r->xf[i] != r->xf[i]);
  for (i = 0; i < r->n; i++) r->yf[i] = (r->xf[i] == v || (v != v && r->xf[i] != r->xf[i])) ? 1.0 / (double)cnt : 0.0;
}
static ct_tensor *ct__amax_backward(ct_tensor *grad, ct_tensor *self, ct_int_list dim, bool keepdim, int mx) {
  ct_tensor *w;
  if (!grad) return NULL;
  w = ct__rd_rowwise(self, NULL, dim, ct__rd_ties_row, &mx);
  return w ? ct_mul(ct__rd_restore(grad, self->ndim, self->sizes, dim, keepdim), w) : NULL;
}

/* 1 where t == 0, else 0: a constant */
static void ct__rd_iszero_row(ct_reduction_row *r) {
  int64_t i;
  for (i = 0; i < r->n; i++) r->yf[i] = r->xf[i] == 0 ? 1.0 : 0.0;
}
static ct_tensor *ct__rd_zero_mask(ct_tensor *t) {
  ct_int_list none = ct__rd_all();
  return t ? ct__rd_rowwise(t, NULL, none, ct__rd_iszero_row, NULL) : NULL;
}
/* num / den, and 0 where den == 0 (PyTorch's masked_fill_(den == 0, 0)) */
static ct_tensor *ct__rd_safe_div(ct_tensor *num, ct_tensor *den) {
  ct_tensor *z = ct__rd_zero_mask(den);
  if (!z || !num) return NULL;
  return ct_mul(ct_div(num, ct_add(den, z)), ct_add_scalar(ct_neg(z), ct_int(1)));
}
/* prod: grad * result / self without zeros. With zeros, grad_i = grad *
 * prod_{j != i} x_j = grad * P / s_i * Z_i, where s is self with its zeros
 * set to 1 (constant there), P the product of s, and Z_i the product of the
 * row's zeros other than x_i: 1, or the first or second zero's value, or
 * both (rows with three or more zeros: 0, and so are all their first
 * derivatives). Z_i = A + B z1 + C z2 + D z1 z2 with constant masks and z1,
 * z2 the (zero) values picked out of self: ct ops throughout, so the second
 * derivative is exact too. */
enum { CT__RD_PZ_FIRST, CT__RD_PZ_SECOND, CT__RD_PZ_A, CT__RD_PZ_B, CT__RD_PZ_C, CT__RD_PZ_D };
static void ct__rd_prodzero_row(ct_reduction_row *r) {
  int what = *(const int *)r->ctx;
  int64_t i, zeros = 0, z1 = -1, z2 = -1;
  for (i = 0; i < r->n; i++)
    if (r->xf[i] == 0) {
      if (zeros == 0) z1 = i;
      else if (zeros == 1) z2 = i;
      zeros++;
    }
  for (i = 0; i < r->n; i++) {
    int v = 0;
    switch (what) {
    case CT__RD_PZ_FIRST: v = i == z1; break;
    case CT__RD_PZ_SECOND: v = i == z2; break;
    case CT__RD_PZ_A: v = zeros == 0 || (zeros == 1 && i == z1); break;
    case CT__RD_PZ_B: v = (zeros == 1 && i != z1) || (zeros == 2 && i == z2); break;
    case CT__RD_PZ_C: v = zeros == 2 && i == z1; break;
    default: v = zeros == 2 && i != z1 && i != z2; break;
    }
    r->yf[i] = v;
  }
}
static int ct__rd_has_zero(ct_tensor *t) {
  int64_t k;
  int found = 0;
  ct_tensor *h;
  if (ct__is_meta(t) || !(h = ct__host_operand("backward", t))) return 0;
  for (k = 0; k < h->numel && !found; k++) found = ct_get(h, k) == 0;
  ct_release(h);
  return found;
}
static ct_tensor *ct__prod_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, ct_int_list dim, bool keepdim) {
  ct_tensor *g, *z, *safe, *m[6], *P, *z1, *z2, *zi;
  int k, modes[6] = {CT__RD_PZ_FIRST, CT__RD_PZ_SECOND, CT__RD_PZ_A, CT__RD_PZ_B, CT__RD_PZ_C, CT__RD_PZ_D};
  int all = !dim.data || dim.n <= 0;
  if (!grad) return NULL;
  g = ct__rd_restore(grad, self->ndim, self->sizes, dim, keepdim);
  if (!ct__rd_has_zero(self)) return ct_div(ct_mul(g, ct__rd_restore(result, self->ndim, self->sizes, dim, keepdim)), self);
  if (!(z = ct__rd_zero_mask(self))) return NULL;
  for (k = 0; k < 6; k++)
    if (!(m[k] = ct__rd_rowwise(self, NULL, dim, ct__rd_prodzero_row, &modes[k]))) return NULL;
  safe = ct_add(ct_mul(self, ct_add_scalar(ct_neg(z), ct_int(1))), z);
  P = all ? ct_prod(safe) : ct_prod_dim(safe, dim.data[0], true);
  z1 = all ? ct_sum(ct_mul(self, m[0])) : ct_sum_dim(ct_mul(self, m[0]), 1, dim.data, true);
  z2 = all ? ct_sum(ct_mul(self, m[1])) : ct_sum_dim(ct_mul(self, m[1]), 1, dim.data, true);
  zi = ct_add(ct_add(m[2], ct_mul(m[3], z1)), ct_add(ct_mul(m[4], z2), ct_mul(m[5], ct_mul(z1, z2))));
  return ct_mul(ct_mul(g, ct_div(P, safe)), zi);
}
static ct_tensor *ct__prod_dim_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, int64_t dim, bool keepdim) {
  return ct__prod_backward(grad, self, result, ct__rd_one(&dim), keepdim);
}

/* var: grad * 2 (self - mean) / (N - correction); std: var's with grad / (2 std), 0 where std is 0 */
static ct_tensor *ct__var_backward(ct_tensor *grad, ct_tensor *self, ct_int_list dim, ct_scalar correction, bool keepdim) {
  int64_t n = ct__rd_count(self->ndim, self->sizes, dim);
  double c = correction.kind == CT_SCALAR_NONE ? 1.0 : ct_scalar_to_double(correction), div;
  if (n < 0 || !grad) return NULL;
  div = (double)n - c;
  if (div < 0) div = 0;
  grad = ct__rd_restore(grad, self->ndim, self->sizes, dim, keepdim);
  return ct_mul(ct_mul_scalar(grad, ct_float(2.0 / div)),
                ct_sub(self, ct_mean_dim(self, dim.data ? (int)dim.n : 0, dim.data, true)));
}
static ct_tensor *ct__std_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, ct_int_list dim, ct_scalar correction,
                                   bool keepdim) {
  ct_tensor *g = ct__rd_safe_div(grad, ct_mul_scalar(result, ct_int(2)));
  return ct__var_backward(g, self, dim, correction, keepdim);
}

/* vector norm */
/* d norm / d x for ord 0, 1 and +-inf: a constant factor per element */
static void ct__rd_normw_row(ct_reduction_row *r) {
  double p = *(const double *)r->ctx, nrm; /* ctx: ord */
  int64_t i, cnt = 0;
  ct__rd_norm_row(r);
  nrm = r->yf[0];
  if (isinf(p)) {
    for (i = 0; i < r->n; i++) cnt += fabs(r->xf[i]) == nrm || (nrm != nrm && r->xf[i] != r->xf[i]);
    for (i = 0; i < r->n; i++) {
      double x = r->xf[i], sg = x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0;
      r->yf[i] = (fabs(x) == nrm || (nrm != nrm && x != x)) ? sg / (double)cnt : 0.0;
    }
  } else if (p == 1) {
    for (i = 0; i < r->n; i++) r->yf[i] = r->xf[i] > 0 ? 1.0 : r->xf[i] < 0 ? -1.0 : 0.0;
  } else { /* ord 0: a count, gradient 0 (other p: ct ops in ct__norm_backward) */
    for (i = 0; i < r->n; i++) r->yf[i] = 0;
  }
}
static ct_tensor *ct__norm_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, ct_scalar ord, ct_int_list dim,
                                    bool keepdim) {
  double p = ord.kind == CT_SCALAR_NONE ? 2.0 : ct_scalar_to_double(ord);
  ct_tensor *g, *w;
  if (!grad) return NULL;
  g = ct__rd_restore(grad, self->ndim, self->sizes, dim, keepdim);
  if (p == 2) /* differentiable again: self * grad / norm, 0 where the norm is 0 */
    return ct_mul(self, ct__rd_safe_div(g, ct__rd_restore(result, self->ndim, self->sizes, dim, keepdim)));
  if (isfinite(p) && p != 0 && p != 1) { /* differentiable again: sgn(x) |x|^(p-1) grad norm^(1-p) */
    ct_tensor *z = ct__rd_zero_mask(self), *n = ct__rd_restore(result, self->ndim, self->sizes, dim, keepdim), *sx, *scale;
    if (!z || !n) return NULL;
    sx = ct_mul(ct_mul(ct_sign(self), ct_exp(ct_mul_scalar(ct_log(ct_add(ct_abs(self), z)), ct_float(p - 1)))),
                ct_add_scalar(ct_neg(z), ct_int(1))); /* 0 where x is 0 */
    if (p < 1) {
      scale = ct_mul(g, ct_exp(ct_mul_scalar(ct_log(n), ct_float(1 - p))));
    } else { /* 0 where the norm is 0 */
      ct_tensor *zn = ct__rd_zero_mask(n);
      scale = zn ? ct_mul(ct_mul(g, ct_exp(ct_mul_scalar(ct_log(ct_add(n, zn)), ct_float(1 - p)))),
                          ct_add_scalar(ct_neg(zn), ct_int(1)))
                 : NULL;
    }
    return ct_mul(sx, scale);
  }
  w = ct__rd_rowwise(self, NULL, dim, ct__rd_normw_row, &p);
  return w ? ct_mul(g, w) : NULL;
}

/* logsumexp: grad * exp(self - result) */
static ct_tensor *ct__logsumexp_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, ct_int_list dim, bool keepdim) {
  if (!grad) return NULL;
  return ct_mul(ct__rd_restore(grad, self->ndim, self->sizes, dim, keepdim),
                ct_exp(ct_sub(self, ct__rd_restore(result, self->ndim, self->sizes, dim, keepdim))));
}

/* cumsum: the reversed cumulative sum of grad, sum(grad) - cumsum(grad) + grad */
static ct_tensor *ct__cumsum_backward(ct_tensor *grad, int64_t dim) {
  if (!grad) return NULL;
  if (grad->ndim == 0) return grad;
  return ct_add(ct_sub(ct_sum_dim(grad, 1, &dim, true), ct_cumsum(grad, dim)), grad);
}
/* cumprod: revcumsum(grad * result) / self without zeros. With a first zero
 * at z in a row: that formula for i < z, for i = z the sum over k >= z of
 * grad_k * C_k with C_k = result_{z-1} prod_{z<j<=k} x_j, and 0 after z.
 * Written with ct ops, so it stays linear (and differentiable) in grad; the
 * masks and C are constants (exact for the first derivative; the second
 * derivative in self misses C's dependence on self when there are zeros). */
enum { CT__RD_CP_BEFORE, CT__RD_CP_AT, CT__RD_CP_COEF };
static void ct__rd_cumprod_zero_row(ct_reduction_row *r) {
  int what = *(const int *)r->ctx;
  int64_t i, z = r->n;
  double pre = 1;
  for (i = 0; i < r->n; i++)
    if (r->xf[i] == 0) {
      z = i;
      break;
    }
  for (i = 0; i < z; i++) pre *= r->xf[i]; /* result_{z-1} */
  for (i = 0; i < r->n; i++) {
    if (what == CT__RD_CP_BEFORE) r->yf[i] = i < z ? 1.0 : 0.0;
    else if (what == CT__RD_CP_AT) r->yf[i] = i == z ? 1.0 : 0.0;
    else {
      if (i > z) pre *= r->xf[i];
      r->yf[i] = i < z ? 0.0 : pre;
    }
  }
}
static ct_tensor *ct__cumprod_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result, int64_t dim) {
  ct_tensor *before, *at, *coef, *safe;
  int w0 = CT__RD_CP_BEFORE, w1 = CT__RD_CP_AT, w2 = CT__RD_CP_COEF;
  ct_int_list d;
  if (!grad) return NULL;
  if (self->ndim == 0 || self->numel == 0) return grad;
  if (!ct__rd_has_zero(self)) return ct_div(ct__cumsum_backward(ct_mul(grad, result), dim), self);
  if (ct__wrap_dim("cumprod", dim, self->ndim) < 0) return NULL;
  d = ct__rd_one(&dim);
  before = ct__rd_rowwise(self, NULL, d, ct__rd_cumprod_zero_row, &w0);
  at = before ? ct__rd_rowwise(self, NULL, d, ct__rd_cumprod_zero_row, &w1) : NULL;
  coef = at ? ct__rd_rowwise(self, NULL, d, ct__rd_cumprod_zero_row, &w2) : NULL;
  safe = coef ? ct_add(self, ct__rd_zero_mask(self)) : NULL;
  if (!safe) return NULL;
  return ct_add(ct_mul(before, ct_div(ct__cumsum_backward(ct_mul(grad, result), dim), safe)),
                ct_mul(at, ct_sum_dim(ct_mul(grad, coef), 1, &dim, true)));
}

/* nansum / nanmean: grad where self is not NaN (divided by the count for nanmean) */
static void ct__rd_notnan_row(ct_reduction_row *r) {
  int mean = *(const int *)r->ctx;
  int64_t i, c = 0;
  for (i = 0; i < r->n; i++) c += r->xf[i] == r->xf[i];
  for (i = 0; i < r->n; i++) /* nanmean of an all-NaN row: 0 * inf = nan, as PyTorch */
    r->yf[i] = (r->xf[i] == r->xf[i] ? 1.0 : 0.0) * (mean ? 1.0 / (double)c : 1.0);
}
static ct_tensor *ct__nansum_backward(ct_tensor *grad, ct_tensor *self, ct_int_list dim, bool keepdim, int mean) {
  ct_tensor *w;
  if (!grad) return NULL;
  w = ct__rd_rowwise(self, NULL, dim, ct__rd_notnan_row, &mean);
  return w ? ct_mul(ct__rd_restore(grad, self->ndim, self->sizes, dim, keepdim), w) : NULL;
}

/* logcumsumexp: grad_i = sum_{k>=i} g_k exp(x_i - r_k), split by the sign of
 * g_k and accumulated in the log domain from the end (x2 is grad). */
static void ct__rd_lcse_bw_row(ct_reduction_row *r) {
  double run = -INFINITY, pos = -INFINITY, neg = -INFINITY;
  int64_t i;
  double *res = (double *)(void *)r->tmp; /* r_k recomputed forward */
  for (i = 0; i < r->n; i++) res[i] = run = ct__rd_logaddexp(run, r->xf[i]);
  for (i = r->n - 1; i >= 0; i--) {
    double gk = r->x2[i];
    if (gk > 0) pos = ct__rd_logaddexp(pos, log(gk) - res[i]);
    else if (gk < 0) neg = ct__rd_logaddexp(neg, log(-gk) - res[i]);
    r->yf[i] = exp(r->xf[i] + pos) - exp(r->xf[i] + neg);
  }
}
static ct_tensor *ct__logcumsumexp_backward(ct_tensor *grad, ct_tensor *self, int64_t dim) {
  static const char *op = "backward";
  ct__rd_plan p;
  ct_tensor *r, *g;
  ct_reduction_call j;
  if (!grad) return NULL;
  if (self->numel == 0) return grad;
  g = grad->dtype == self->dtype ? grad : ct_to_dtype(grad, (ct_dtype)self->dtype);
  if (!g || ct__rd_plan_dim(op, self, dim, true, &p) != CT_OK) return NULL;
  r = ct__empty(op, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device);
  if (!r) return NULL;
  if (!ct__is_meta(r)) { /* (through the device's loop: a row helper, staged on the host there) */
    memset(&j, 0, sizeof j);
    j.in = self;
    j.in2 = g;
    j.reduce = p.reduce;
    j.out = r;
    j.host_row = ct__rd_lcse_bw_row;
    j.need_tmp = 1;
    if (ct__rd_launch(op, CT_RD_ROWWISE, &j) != CT_OK) return ct_release(r), (ct_tensor *)NULL;
  }
  return ct__track(r);
}

/* median / nanmedian of every element: the gradient is shared evenly among
 * the elements equal to the result (NaN with NaN); x2 is the result, expanded */
static void ct__rd_evenly_row(ct_reduction_row *r) {
  double v = r->x2[0];
  int64_t i, cnt = 0;
  for (i = 0; i < r->n; i++) cnt += r->xf[i] == v || (v != v && r->xf[i] != r->xf[i]);
  for (i = 0; i < r->n; i++) r->yf[i] = (r->xf[i] == v || (v != v && r->xf[i] != r->xf[i])) ? 1.0 / (double)cnt : 0.0;
}
static ct_tensor *ct__evenly_distribute_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result) {
  ct_tensor *e, *w;
  if (!grad || !result) return NULL;
  e = ct_expand(result, self->ndim, self->sizes);
  w = e ? ct__rd_rowwise(self, e, ct__rd_all(), ct__rd_evenly_row, NULL) : NULL;
  return w ? ct_mul(grad, w) : NULL;
}

/* ---- out= forms of the (values, indices) ops: max.dim_max, sort.values, ... ----
 * The functional kernel runs first (so the outs may alias the input); each
 * out must have its result's dtype (indices: int64) and device, and is
 * resized as PyTorch resizes out= tensors. check: the outs PyTorch refuses
 * to overlap the input partially (1 values, 2 indices). */
enum { CT__RD_CHECK_VALUES = 1, CT__RD_CHECK_INDICES = 2 };
static ct_status ct__rd_out2(const char *op, ct_tensor *a, int check, ct_tensor *v, ct_tensor *i, ct_tensor *ov, ct_tensor *oi) {
  ct_tensor *src[2], *dst[2];
  ct_status st = CT_OK;
  int k;
  if (!v) {
    ct_release(i);
    return ct_last_error();
  }
  src[0] = v, src[1] = i, dst[0] = ov, dst[1] = oi;
  for (k = 0; k < 2 && st == CT_OK; k++) {
    if (((check >> k) & 1) && (st = ct__check_overlap(op, dst[k], a)) != CT_OK) break;
    if (dst[k]->dtype != src[k]->dtype)
      st = ct_fail(CT_ERR_DTYPE, op, "expected out tensor %s to have dtype %s, but got %s instead", k ? "indices" : "values",
                   ct_dtype_name((ct_dtype)src[k]->dtype), ct_dtype_name((ct_dtype)dst[k]->dtype));
    else if (!ct_device_eq(dst[k]->device, src[k]->device))
      st = ct_fail(CT_ERR_DEVICE, op, "out tensor is on %s but the result is on %s", ct_device_type_name((ct_device_type)dst[k]->device.type),
                   ct_device_type_name((ct_device_type)src[k]->device.type));
    else
      st = ct__check_writable(op, dst[k]);
  }
  if (st == CT_OK && dst[0]->storage == dst[1]->storage)
    st = ct_fail(CT_ERR_INVALID, op, "the values and indices outs must not share memory");
  for (k = 0; k < 2 && st == CT_OK; k++) {
    st = ct__resize_out(op, dst[k], src[k]->ndim, src[k]->sizes);
    if (st == CT_OK && !ct__is_meta(dst[k]) && dst[k]->numel) st = ct__copy_impl(dst[k], src[k]);
    if (st == CT_OK) ct__bump_version(dst[k]);
  }
  ct_release(v);
  ct_release(i);
  return st;
}
/* the out= kernels of the (self, dim[, keepdim]) ops */
#define CT__RD_OUT2_DIM(NAME, OP, CHECK)                                                                              \
  static ct_status ct__k_##NAME##_out(ct_keyset ks, ct_tensor *a, int64_t dim, bool keepdim, ct_tensor *ov,        \
                                      ct_tensor *oi) {                                                              \
    ct_tensor *i = NULL, *v = ct__k_##NAME(ks, a, dim, keepdim, &i);                                                \
    return ct__rd_out2(OP, a, CHECK, v, i, ov, oi);                                                                 \
  }
#define CT__RD_OUT2_SCAN(NAME)                                                                                        \
  static ct_status ct__k_##NAME##_out(ct_keyset ks, ct_tensor *a, int64_t dim, ct_tensor *ov, ct_tensor *oi) {     \
    ct_tensor *i = NULL, *v = ct__k_##NAME(ks, a, dim, &i);                                                         \
    return ct__rd_out2(#NAME, a, 0, v, i, ov, oi);                                                                  \
  }
CT__RD_OUT2_DIM(max_dim, "max", CT__RD_CHECK_VALUES | CT__RD_CHECK_INDICES)
CT__RD_OUT2_DIM(min_dim, "min", CT__RD_CHECK_VALUES | CT__RD_CHECK_INDICES)
CT__RD_OUT2_DIM(median_dim, "median", 0)
CT__RD_OUT2_DIM(nanmedian_dim, "nanmedian", 0)
CT__RD_OUT2_SCAN(cummax)
CT__RD_OUT2_SCAN(cummin)
static ct_status ct__k_sort_out(ct_keyset ks, ct_tensor *a, int64_t dim, bool descending, ct_tensor *ov, ct_tensor *oi) {
  ct_tensor *i = NULL, *v = ct__k_sort(ks, a, dim, descending, &i);
  return ct__rd_out2("sort", a, CT__RD_CHECK_VALUES, v, i, ov, oi);
}
static ct_status ct__k_sort_stable_out(ct_keyset ks, ct_tensor *a, bool stable, int64_t dim, bool descending, ct_tensor *ov,
                                       ct_tensor *oi) {
  ct_tensor *i = NULL, *v = ct__k_sort_stable(ks, a, stable, dim, descending, &i);
  return ct__rd_out2("sort", a, CT__RD_CHECK_VALUES, v, i, ov, oi);
}
static ct_status ct__k_topk_out(ct_keyset ks, ct_tensor *a, int64_t k, int64_t dim, bool largest, bool sorted, ct_tensor *ov,
                                ct_tensor *oi) {
  ct_tensor *i = NULL, *v = ct__k_topk(ks, a, k, dim, largest, sorted, &i);
  return ct__rd_out2("topk", a, CT__RD_CHECK_VALUES | CT__RD_CHECK_INDICES, v, i, ov, oi);
}
static ct_status ct__k_kthvalue_out(ct_keyset ks, ct_tensor *a, int64_t k, int64_t dim, bool keepdim, ct_tensor *ov, ct_tensor *oi) {
  ct_tensor *i = NULL, *v = ct__k_kthvalue(ks, a, k, dim, keepdim, &i);
  return ct__rd_out2("kthvalue", a, CT__RD_CHECK_VALUES, v, i, ov, oi);
}

CT_EXTERN_C_END
#endif /* CT__OPS_REDUCE_IMPL */
