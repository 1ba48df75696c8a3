/* backends/cuda/cuda_internal.h - what the C runtime unit (cuda_device.c)
 * hands the CUDA kernels (cuda_kernels.cu): plain C structs, no ctorch
 * types, so the .cu file needs nothing but the CUDA runtime. */
#ifndef CTCU_INTERNAL_H
#define CTCU_INTERNAL_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CTCU_MAX_DIMS 8 /* = CT_MAX_DIMS (checked in cuda_device.c) */

/* dtype codes: ct_dtype's values (checked in cuda_device.c) */
enum { CTCU_F32 = 0, CTCU_F64, CTCU_F16, CTCU_BF16, CTCU_I64, CTCU_I32, CTCU_U8, CTCU_BOOL };

/* One operand of an elementwise computation over the broadcast shape. */
typedef struct ctcu_operand {
  char *data;                       /* device pointer to element [0,...,0]; unused when is_scalar */
  int64_t strides[CTCU_MAX_DIMS];   /* in elements, per dim of the shape (0 where broadcast) */
  int dtype;                        /* CTCU_* */
  int is_scalar;                    /* a 0-dim CPU tensor: its value is dval (floating dtypes) or ival */
  double dval;
  int64_t ival;
} ctcu_operand;

/* out = op(in[0], ..., in[nin-1]) over shape. op is ct_pointwise_op's value
 * (ctorch/ops/pointwise.h); unary: CT_PW_UNARY with unary naming the
 * function (ctcu_unary_code). */
typedef struct ctcu_pointwise_desc {
  int op;
  int unary;                        /* CTCU_UN_* for CT_PW_UNARY */
  int dtype;                        /* the computing dtype: inputs have it (not unary's input, nor where's condition) */
  int nin, ndim;
  int64_t shape[CTCU_MAX_DIMS];
  int64_t numel;
  int flat;                         /* every non-scalar operand contiguous with the shape: index = linear index */
  ctcu_operand out, in[3];
  double param;                     /* the op's Scalar parameter for floating dtypes */
  int64_t iparam;                   /* the same for integer dtypes */
  double uparam[3];                 /* CT_PW_UNARY: the function's parameters (ct_pointwise_call.param, param2, param3) */
  int64_t uiparam[2];               /* and its integer ones (iparam, iparam2) */
  int *zero_divisor;                /* device int: set nonzero by integer division by zero (CT_POINTWISE_CHECK_DIVISOR), or NULL */
} ctcu_pointwise_desc;

/* Unary functions with a native kernel. COPY is copy_ (CT_PW_COPY): any
 * dtype to any dtype, as ctorch's casts. The predicates (ISNAN ..) store
 * bool. Parameters: HARDTANH (min, max; integer: iparam, iparam2),
 * LEAKY_RELU (slope), ELU (alpha, scale, input_scale), GELU (iparam: tanh),
 * SOFTPLUS (beta, threshold), HARDSHRINK / SOFTSHRINK (lambda), THRESHOLD
 * (threshold, value; integer: iparam, iparam2). */
enum {
  CTCU_UN_NONE = -1,
  CTCU_UN_NEG, CTCU_UN_ABS, CTCU_UN_EXP, CTCU_UN_LOG, CTCU_UN_SQRT, CTCU_UN_RSQRT, CTCU_UN_SIN, CTCU_UN_COS,
  CTCU_UN_TANH, CTCU_UN_SIGMOID, CTCU_UN_RELU,
  CTCU_UN_SIGN, CTCU_UN_EXP2, CTCU_UN_LOG2, CTCU_UN_LOG1P, CTCU_UN_EXPM1, CTCU_UN_RECIPROCAL, CTCU_UN_SQUARE,
  CTCU_UN_TAN, CTCU_UN_SILU, CTCU_UN_MISH, CTCU_UN_ERF, CTCU_UN_FLOOR, CTCU_UN_CEIL, CTCU_UN_ROUND, CTCU_UN_TRUNC,
  CTCU_UN_COPY,
  CTCU_UN_ASIN, CTCU_UN_ACOS, CTCU_UN_ATAN, CTCU_UN_SINH, CTCU_UN_COSH, CTCU_UN_ASINH, CTCU_UN_ACOSH, CTCU_UN_ATANH,
  CTCU_UN_LOG10, CTCU_UN_ERFC, CTCU_UN_LGAMMA, CTCU_UN_FRAC, CTCU_UN_DEG2RAD, CTCU_UN_RAD2DEG, CTCU_UN_SINC,
  CTCU_UN_HARDSWISH, CTCU_UN_HARDSIGMOID, CTCU_UN_LOG_SIGMOID,
  CTCU_UN_ISNAN, CTCU_UN_ISINF, CTCU_UN_ISFINITE, CTCU_UN_ISPOSINF, CTCU_UN_ISNEGINF,
  CTCU_UN_HARDTANH, CTCU_UN_LEAKY_RELU, CTCU_UN_ELU, CTCU_UN_GELU, CTCU_UN_SOFTPLUS, CTCU_UN_HARDSHRINK,
  CTCU_UN_SOFTSHRINK, CTCU_UN_THRESHOLD,
  CTCU_UN_NUM
};

/* Launches the computation on stream (a cudaStream_t). Returns 0 when
 * queued, a cudaError_t value (> 0) on a launch failure, and -1 when the
 * (op, dtype) pair has no kernel (the caller then computes on the host). */
int ctcu_pointwise_launch(const ctcu_pointwise_desc *d, void *stream);
/* The native unary function named `name` (ct_pointwise_call.name), or CTCU_UN_NONE. */
int ctcu_unary_code(const char *name);
/* One call of the reduction engine (ctorch/ops/reduce.h's ct_reduction_call),
 * its dims split into kept ones (one output per kept position: a "row") and
 * reduced ones (the row's elements, row-major), size-1 dims dropped and
 * mergeable neighbours merged. op is ct_reduction_op's value. */
typedef struct ctcu_reduction_desc {
  int op;
  int int_compute;                  /* elements as int64 (integer and bool compute), else double */
  int out_int;                      /* results are integers */
  int in_dtype, out_dtype;          /* out_dtype: -1 when there is no values output */
  double param;                     /* var/std: the correction; norm: ord */
  int nkept, nred;
  int64_t kept_size[CTCU_MAX_DIMS], kept_in[CTCU_MAX_DIMS], kept_out[CTCU_MAX_DIMS], kept_idx[CTCU_MAX_DIMS];
  int64_t red_size[CTCU_MAX_DIMS], red_in[CTCU_MAX_DIMS], red_out[CTCU_MAX_DIMS]; /* red_out: scans only */
  int64_t rows, n;                  /* kept positions; elements per row */
  const char *in;                   /* device pointers to element [0,...,0] */
  char *out;                        /* NULL: no values output */
  int64_t *indices;                 /* NULL: no indices output (int64) */
} ctcu_reduction_desc;
/* Queues the reduction on stream: 0 when queued, a cudaError_t value (> 0)
 * on a launch failure, -1 when the op or dtype has no kernel (the caller
 * stages it on the host), -2 when it needs *scratch_bytes of device scratch
 * that `scratch` does not provide (the caller allocates it, calls again). */
int ctcu_reduction_launch(const ctcu_reduction_desc *d, void *stream, void *scratch, size_t *scratch_bytes);

/* One call of the index loop (ctorch/ops/shape.h's ct_index_call): over
 * the iteration shape (a 0-dim call as [1]), v = index[p], s = self's
 * offset at p plus v * dim_stride; mode is ct_index_mode's value (GATHER 0:
 * other[p] = self[s]; SCATTER 1: self[s] = other[p]; ADD 2: self[s] +=
 * other[p], atomically; FILL 3: self[s] = value). An index outside [0,
 * bound) writes nothing and lowers *bad_pos to its position p. */
typedef struct ctcu_index_desc {
  int mode, dtype, index_i32;
  int ndim;
  int64_t shape[CTCU_MAX_DIMS];
  int64_t self_st[CTCU_MAX_DIMS], index_st[CTCU_MAX_DIMS], other_st[CTCU_MAX_DIMS]; /* in elements; self's is 0 on dim */
  int64_t dim_stride, bound, numel;
  char *self;
  const char *index;
  char *other;
  uint64_t value;                   /* FILL: the value's bits */
  unsigned long long *bad_pos;      /* device: the first bad position (initialised to ~0) */
} ctcu_index_desc;
/* 0 when queued, a cudaError_t value (> 0) on a launch failure, -1 when the dtype has no kernel. */
int ctcu_index_launch(const ctcu_index_desc *d, void *stream);

/* One call of the random loop (ctorch/ops/random.h's ct_random_call): kind
 * is ct_random_kind's value (UNIFORM 0, NORMAL 1, INTEGER 2, BERNOULLI 3,
 * DROPOUT 4); out, in, mask are flat arrays of numel elements. */
typedef struct ctcu_random_desc {
  int kind, out_dtype, in_dtype;
  int64_t numel;
  char *out;
  const char *in;                   /* BERNOULLI: float64 probabilities or NULL; DROPOUT: out_dtype */
  uint8_t *mask;
  uint32_t key[2];
  uint64_t base;
  double a, b;
  int64_t ifrom;
  uint64_t irange;
} ctcu_random_desc;
/* 0 when queued, a cudaError_t value (> 0) on a launch failure, -1 when it has no kernel. */
int ctcu_random_launch(const ctcu_random_desc *d, void *stream);

/* An empty kernel, for the launch-overhead benchmark. */
int ctcu_launch_empty(void *stream);

#ifdef __cplusplus
}
#endif
#endif
