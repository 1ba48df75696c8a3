/* ctorch/ops/unary.h - reference kernels: pointwise unary ops and activations.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/unary.spec and their derivatives in
 * gen/derivatives/unary.spec; the frontends are generated (docs/ops.md).
 *
 * One mechanism serves every op: a descriptor (ct__unary_def) names the
 * op, its dtype rule and two vector functions, one over doubles (floating
 * results) and one over int64 (integer and bool results); one strided loop
 * (ct__unary_loop, run by ct_iter_foreach) loads a chunk of any input dtype
 * into a buffer, calls the function and stores the chunk in the result's
 * dtype. f32, f16 and bf16 are computed in double and rounded once; f16
 * and bf16 results pass through float32 on the way.
 *
 * dtype rules (PyTorch's):
 *   TO_FLOAT   exp, sin, sqrt, sigmoid, ...: integers and bool give float32;
 *              out= may be any dtype the result can be cast to.
 *   KEEP       neg, abs, sign, square, relu, hardtanh, floor/ceil/round/trunc,
 *              nan_to_num: integers keep their dtype (floor & co. return the
 *              values), bool as the descriptor says; out= must match.
 *   FLOAT_ONLY leaky_relu, elu, gelu, silu, softplus, mish, hardswish,
 *              hardsigmoid, log_sigmoid, hardshrink, softshrink,
 *              round.decimals: floating only; out= must match.
 *   KEEP_CAST  threshold: as KEEP (bool refused), but out= may be any dtype
 *              the result can be cast to (PyTorch's threshold is a
 *              TensorIterator op with cast_common_dtype_to_outputs).
 * In-place on an integer tensor with a float result fails as in PyTorch
 * ("result type Float can't be cast to the desired output type Long").
 *
 * gelu's kernels turn `approximate` into 0 / 1 and run the shared loop.
 * relu6 is hardtanh(0, 6), composite as in PyTorch; so are selu and celu
 * (elu with fixed parameters) and softsign, tanhshrink (torch.nn.functional's
 * composites, no aten op). The derivative helpers
 * (ct__unary_*_backward, at the end) use only ct ops: double backward works.
 */
#ifndef CT_OPS_UNARY_H
#define CT_OPS_UNARY_H

#include "pointwise.h"

#endif /* CT_OPS_UNARY_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_UNARY_IMPL)
#define CT__OPS_UNARY_IMPL
#include <float.h>
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- the mechanism ---- */
enum { CT__UNARY_TO_FLOAT, CT__UNARY_KEEP, CT__UNARY_FLOAT_ONLY, CT__UNARY_KEEP_CAST };

/* An op's arguments, as its vector functions read them. */
typedef struct ct__unary_params {
  double a, b, c;    /* e.g. negative_slope; alpha, scale, input_scale; beta, threshold; min, max */
  int64_t ia, ib;    /* integer forms: hardtanh's bounds on integer tensors; round's decimals */
  int has_a, has_b, has_c; /* nan_to_num: which replacements were given */
  ct_dtype dtype;    /* the compute (result) dtype, set by the driver */
} ct__unary_params;

typedef void (*ct__unary_ffn)(double *v, int64_t n, const ct__unary_params *p);
typedef void (*ct__unary_ifn)(int64_t *v, int64_t n, const ct__unary_params *p);

typedef struct ct__unary_def {
  const char *name;     /* the op, in error messages */
  int kind;             /* CT__UNARY_TO_FLOAT, _KEEP, _FLOAT_ONLY */
  ct__unary_ffn f;      /* floating results */
  ct__unary_ifn i;      /* integer results (KEEP); NULL: integers are not supported */
  ct_dtype bool_dtype;  /* KEEP: the result dtype of a bool input, CT_DTYPE_NONE: not supported */
  const char *bool_msg; /* the error for a bool input, NULL: the generic one */
} ct__unary_def;

/* Vector functions: v[i] = EXPR(x), x = v[i]; p is the op's parameters. */
#define CT__UNARY_F(name, EXPR)                                                       \
  static void ct__unary_f_##name(double *v, int64_t n, const ct__unary_params *p) {   \
    int64_t i;                                                                        \
    (void)p;                                                                          \
    for (i = 0; i < n; i++) {                                                         \
      double x = v[i];                                                                \
      v[i] = (EXPR);                                                                  \
    }                                                                                 \
  }
/* Integer ones get x (int64) and u (its uint64 twin, for wrapping arithmetic). */
#define CT__UNARY_I(name, EXPR)                                                       \
  static void ct__unary_i_##name(int64_t *v, int64_t n, const ct__unary_params *p) {  \
    int64_t i;                                                                        \
    (void)p;                                                                          \
    for (i = 0; i < n; i++) {                                                         \
      int64_t x = v[i];                                                               \
      uint64_t u = (uint64_t)x;                                                       \
      (void)u;                                                                        \
      v[i] = (EXPR);                                                                  \
    }                                                                                 \
  }
#define CT__UNARY_SQRT1_2 0.70710678118654752440
#define CT__UNARY_LN2 0.69314718055994530942
#define CT__UNARY_2_SQRTPI 1.12837916709551257390
#define CT__UNARY_SQRT_2_PI 0.79788456080286535588 /* sqrt(2 / pi) */

static double ct__unary_sigmoid1(double x) { return 1.0 / (1.0 + exp(-x)); }
static double ct__unary_softplus1(double x, double beta, double threshold) {
  return x * beta > threshold ? x : log1p(exp(x * beta)) / beta;
}
static double ct__unary_gelu1(double x, int tanh_approx) {
  if (tanh_approx) return 0.5 * x * (1.0 + tanh(CT__UNARY_SQRT_2_PI * (x + 0.044715 * x * x * x)));
  return 0.5 * x * (1.0 + erf(x * CT__UNARY_SQRT1_2));
}
/* v rounded to dt's precision: float32 and bfloat16 arithmetic step by step */
static double ct__unary_round_to(double v, ct_dtype dt) {
  return dt == CT_F64 ? v : dt == CT_BF16 ? (double)ct_bf16_to_f32(ct_f32_to_bf16((float)v)) : (double)(float)v;
}
/* round(x, decimals) as PyTorch: each step in the tensor's precision (float16,
 * which PyTorch's CPU kernel lacks, in float32) */
static double ct__unary_round_dec1(double x, int64_t decimals, ct_dtype dt) {
  int neg = decimals < 0;
  double ten = ct__unary_round_to(pow(10.0, (double)(neg ? -decimals : decimals)), dt);
  if (neg) return ct__unary_round_to(nearbyint(ct__unary_round_to(x / ten, dt)) * ten, dt);
  return ct__unary_round_to(nearbyint(ct__unary_round_to(x * ten, dt)) / ten, dt);
}
static double ct__unary_max_of(ct_dtype dt) {
  return dt == CT_F64 ? DBL_MAX : dt == CT_F16 ? 65504.0 : dt == CT_BF16 ? 3.3895313892515355e38 : (double)FLT_MAX;
}
static double ct__unary_nan_to_num1(double x, const ct__unary_params *p) {
  double big = ct__unary_max_of(p->dtype);
  if (x != x) return p->has_a ? p->a : 0.0;
  if (x == HUGE_VAL) return p->has_b ? p->b : big;
  if (x == -HUGE_VAL) return p->has_c ? p->c : -big;
  return x;
}

CT__UNARY_F(neg, -x)
CT__UNARY_F(abs, fabs(x))
CT__UNARY_F(sign, (double)((0.0 < x) - (x < 0.0)))
CT__UNARY_F(exp, exp(x))
CT__UNARY_F(exp2, exp2(x))
CT__UNARY_F(log, log(x))
CT__UNARY_F(log2, log2(x))
CT__UNARY_F(log1p, log1p(x))
CT__UNARY_F(expm1, expm1(x))
CT__UNARY_F(sqrt, sqrt(x))
CT__UNARY_F(rsqrt, 1.0 / sqrt(x))
CT__UNARY_F(reciprocal, 1.0 / x)
CT__UNARY_F(square, x * x)
CT__UNARY_F(sin, sin(x))
CT__UNARY_F(cos, cos(x))
CT__UNARY_F(tan, tan(x))
CT__UNARY_F(tanh, tanh(x))
CT__UNARY_F(sigmoid, ct__unary_sigmoid1(x))
CT__UNARY_F(relu, x > 0 || x != x ? x : 0.0)
CT__UNARY_F(hardtanh, x != x ? x : x < p->a ? (p->a > p->b ? p->b : p->a) : x > p->b ? p->b : x)
CT__UNARY_F(leaky_relu, x > 0 ? x : x * p->a)
CT__UNARY_F(elu, x <= 0 ? expm1(x * p->c) * p->a * p->b : x * p->b)
CT__UNARY_F(gelu, ct__unary_gelu1(x, p->ia != 0))
CT__UNARY_F(silu, x * ct__unary_sigmoid1(x))
CT__UNARY_F(softplus, ct__unary_softplus1(x, p->a, p->b))
CT__UNARY_F(mish, x * tanh(log1p(exp(x))))
CT__UNARY_F(hardswish, x != x ? x : x * (x + 3 <= 0 ? 0.0 : x + 3 >= 6 ? 6.0 : x + 3) / 6)
CT__UNARY_F(hardsigmoid, x != x ? x : (x + 3 <= 0 ? 0.0 : x + 3 >= 6 ? 6.0 : x + 3) / 6)
CT__UNARY_F(log_sigmoid, (x < 0 ? x : 0.0) - log1p(exp(-fabs(x))))
CT__UNARY_F(hardshrink, x >= -p->a && x <= p->a ? 0.0 : x)
CT__UNARY_F(softshrink, x > p->a ? x - p->a : x < -p->a ? x + p->a : 0.0) /* NaN: 0, as PyTorch 1.13's CPU kernel */
CT__UNARY_F(threshold, x <= p->a ? p->b : x)
CT__UNARY_F(erf, erf(x))
CT__UNARY_F(floor, floor(x))
CT__UNARY_F(ceil, ceil(x))
CT__UNARY_F(round, nearbyint(x)) /* the default rounding mode: half to even */
CT__UNARY_F(round_dec, ct__unary_round_dec1(x, p->ia, p->dtype))
CT__UNARY_F(trunc, trunc(x))
CT__UNARY_F(nan_to_num, ct__unary_nan_to_num1(x, p))

CT__UNARY_I(neg, (int64_t)(0 - u))
CT__UNARY_I(abs, x < 0 ? (int64_t)(0 - u) : x)
CT__UNARY_I(sign, (int64_t)((x > 0) - (x < 0)))
CT__UNARY_I(square, (int64_t)(u * u))
CT__UNARY_I(relu, x > 0 ? x : 0)
CT__UNARY_I(hardtanh, x < p->ia ? (p->ia > p->ib ? p->ib : p->ia) : x > p->ib ? p->ib : x)
CT__UNARY_I(threshold, x <= p->ia ? p->ib : x)
CT__UNARY_I(copy, x) /* floor, ceil, round, trunc and nan_to_num of integers */

/* one descriptor per op */
#define CT__UNARY_DEF(op, kind, f, i, bool_dtype, bool_msg) \
  static const ct__unary_def ct__unary_def_##op = {#op, kind, f, i, bool_dtype, bool_msg};
#define CT__UNARY_DEF_FLOAT(op) CT__UNARY_DEF(op, CT__UNARY_TO_FLOAT, ct__unary_f_##op, NULL, CT_DTYPE_NONE, NULL)
#define CT__UNARY_DEF_ACT(op) CT__UNARY_DEF(op, CT__UNARY_FLOAT_ONLY, ct__unary_f_##op, NULL, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(neg, CT__UNARY_KEEP, ct__unary_f_neg, ct__unary_i_neg, CT_DTYPE_NONE,
              "negation, the `-` operator, on a bool tensor is not supported; if you are trying to invert a mask, use "
              "the `~` or logical_not() operator instead")
CT__UNARY_DEF(abs, CT__UNARY_KEEP, ct__unary_f_abs, ct__unary_i_abs, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(sign, CT__UNARY_KEEP, ct__unary_f_sign, ct__unary_i_sign, CT_BOOL, NULL)
CT__UNARY_DEF(square, CT__UNARY_KEEP, ct__unary_f_square, ct__unary_i_square, CT_I64, NULL)
CT__UNARY_DEF(relu, CT__UNARY_KEEP, ct__unary_f_relu, ct__unary_i_relu, CT_DTYPE_NONE, "\"relu\" is not implemented for 'Bool' (Boolean inputs not supported for relu)")
CT__UNARY_DEF(hardtanh, CT__UNARY_KEEP, ct__unary_f_hardtanh, ct__unary_i_hardtanh, CT_DTYPE_NONE,
              "Bool inputs not supported for hardtanh")
CT__UNARY_DEF(threshold, CT__UNARY_KEEP_CAST, ct__unary_f_threshold, ct__unary_i_threshold, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(floor, CT__UNARY_KEEP, ct__unary_f_floor, ct__unary_i_copy, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(ceil, CT__UNARY_KEEP, ct__unary_f_ceil, ct__unary_i_copy, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(round, CT__UNARY_KEEP, ct__unary_f_round, ct__unary_i_copy, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(round_dec, CT__UNARY_FLOAT_ONLY, ct__unary_f_round_dec, NULL, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(trunc, CT__UNARY_KEEP, ct__unary_f_trunc, ct__unary_i_copy, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(nan_to_num, CT__UNARY_KEEP, ct__unary_f_nan_to_num, ct__unary_i_copy, CT_BOOL, NULL)
CT__UNARY_DEF_FLOAT(exp)
CT__UNARY_DEF_FLOAT(exp2)
CT__UNARY_DEF_FLOAT(log)
CT__UNARY_DEF_FLOAT(log2)
CT__UNARY_DEF_FLOAT(log1p)
CT__UNARY_DEF_FLOAT(expm1)
CT__UNARY_DEF_FLOAT(sqrt)
CT__UNARY_DEF_FLOAT(rsqrt)
CT__UNARY_DEF_FLOAT(reciprocal)
CT__UNARY_DEF_FLOAT(sin)
CT__UNARY_DEF_FLOAT(cos)
CT__UNARY_DEF_FLOAT(tan)
CT__UNARY_DEF_FLOAT(tanh)
CT__UNARY_DEF_FLOAT(sigmoid)
CT__UNARY_DEF_FLOAT(erf)
CT__UNARY_DEF_ACT(leaky_relu)
CT__UNARY_DEF_ACT(elu)
CT__UNARY_DEF_ACT(gelu)
CT__UNARY_DEF_ACT(silu)
CT__UNARY_DEF_ACT(softplus)
CT__UNARY_DEF_ACT(mish)
CT__UNARY_DEF_ACT(hardswish)
CT__UNARY_DEF_ACT(hardsigmoid)
CT__UNARY_DEF_ACT(log_sigmoid)
CT__UNARY_DEF_ACT(hardshrink)
CT__UNARY_DEF_ACT(softshrink)

/* ---- the strided loop: chunks through a buffer ---- */
#define CT__UNARY_CHUNK 256
typedef struct ct__unary_ctx {
  const ct__unary_def *def;
  ct__unary_params p;
  ct_dtype in, out;
} ct__unary_ctx;

#define CT__UNARY_GATHER(T, CONV)                                          \
  if (s == (int64_t)sizeof(T)) /* contiguous: a loop the compiler vectorises */ \
    for (i = 0; i < n; i++) buf[i] = CONV(((const T *)src)[i]);              \
  else                                                                     \
    for (i = 0; i < n; i++) buf[i] = CONV(*(const T *)(src + i * s))
static void ct__unary_load_f(double *buf, const char *src, int64_t s, int64_t n, ct_dtype dt) {
  int64_t i;
  switch (dt) {
  case CT_F32: CT__UNARY_GATHER(float, (double)); break;
  case CT_F64: CT__UNARY_GATHER(double, (double)); break;
  case CT_F16: CT__UNARY_GATHER(uint16_t, (double)ct_f16_to_f32); break;
  case CT_BF16: CT__UNARY_GATHER(uint16_t, (double)ct_bf16_to_f32); break;
  case CT_I64: CT__UNARY_GATHER(int64_t, (double)); break;
  case CT_I32: CT__UNARY_GATHER(int32_t, (double)); break;
  case CT_U8: CT__UNARY_GATHER(uint8_t, (double)); break;
  default: CT__UNARY_GATHER(bool, (double)); break;
  }
}
static void ct__unary_load_i(int64_t *buf, const char *src, int64_t s, int64_t n, ct_dtype dt) {
  int64_t i;
  switch (dt) {
  case CT_I64: CT__UNARY_GATHER(int64_t, (int64_t)); break;
  case CT_I32: CT__UNARY_GATHER(int32_t, (int64_t)); break;
  case CT_U8: CT__UNARY_GATHER(uint8_t, (int64_t)); break;
  default: CT__UNARY_GATHER(bool, (int64_t)); break;
  }
}
#define CT__UNARY_SCATTER(T, CONV)                 \
  if (s == (int64_t)sizeof(T))                     \
    for (i = 0; i < n; i++) ((T *)dst)[i] = CONV(buf[i]); \
  else                                             \
    for (i = 0; i < n; i++) *(T *)(dst + i * s) = CONV(buf[i])
static uint16_t ct__unary_to_f16(double x) { return ct_f32_to_f16((float)x); }
static uint16_t ct__unary_to_bf16(double x) { return ct_f32_to_bf16((float)x); }
static void ct__unary_store_f(char *dst, int64_t s, const double *buf, int64_t n, ct_dtype dt) {
  int64_t i;
  switch (dt) {
  case CT_F32: CT__UNARY_SCATTER(float, (float)); break;
  case CT_F64: CT__UNARY_SCATTER(double, (double)); break;
  case CT_F16: CT__UNARY_SCATTER(uint16_t, ct__unary_to_f16); break;
  default: CT__UNARY_SCATTER(uint16_t, ct__unary_to_bf16); break;
  }
}
static void ct__unary_store_i(char *dst, int64_t s, const int64_t *buf, int64_t n, ct_dtype dt) {
  int64_t i;
  switch (dt) { /* integer results wrap like C casts through unsigned */
  case CT_I64: CT__UNARY_SCATTER(int64_t, (int64_t)); break;
  case CT_I32: CT__UNARY_SCATTER(int32_t, (int32_t)(uint32_t)(uint64_t)); break;
  case CT_U8: CT__UNARY_SCATTER(uint8_t, (uint8_t)(uint64_t)); break;
  default: CT__UNARY_SCATTER(bool, 0 !=); break;
  }
}

static void ct__unary_loop(char **d, const int64_t *s, int64_t n, void *vctx) {
  const ct__unary_ctx *c = (const ct__unary_ctx *)vctx;
  double fbuf[CT__UNARY_CHUNK];
  int64_t ibuf[CT__UNARY_CHUNK];
  int64_t at, k;
  int floating = ct_dtype_is_floating(c->out);
  for (at = 0; at < n; at += k) {
    k = n - at < CT__UNARY_CHUNK ? n - at : CT__UNARY_CHUNK;
    if (floating) {
      ct__unary_load_f(fbuf, d[1] + at * s[1], s[1], k, c->in);
      c->def->f(fbuf, k, &c->p);
      ct__unary_store_f(d[0] + at * s[0], s[0], fbuf, k, c->out);
    } else {
      ct__unary_load_i(ibuf, d[1] + at * s[1], s[1], k, c->in);
      c->def->i(ibuf, k, &c->p);
      ct__unary_store_i(d[0] + at * s[0], s[0], ibuf, k, c->out);
    }
  }
}

/* The result dtype of op on an input of dtype `in`, or CT_DTYPE_NONE after failing. */
static ct_dtype ct__unary_result_dtype(const ct__unary_def *d, ct_dtype in) {
  if (ct_dtype_is_floating(in)) return in;
  if (in == CT_BOOL && d->bool_msg) return ct_fail(CT_ERR_DTYPE, d->name, "%s", d->bool_msg), CT_DTYPE_NONE;
  if (d->kind == CT__UNARY_TO_FLOAT) return CT_F32; /* int_to_float: the default dtype */
  if (d->kind == CT__UNARY_KEEP && in == CT_BOOL && d->bool_dtype != CT_DTYPE_NONE) return d->bool_dtype;
  if ((d->kind == CT__UNARY_KEEP || d->kind == CT__UNARY_KEEP_CAST) && in != CT_BOOL && d->i) return in;
  ct_fail(CT_ERR_DTYPE, d->name, "\"%s\" is not implemented for '%s'", d->name, ct__dtype_torch_name(in));
  return CT_DTYPE_NONE;
}

/* out = op(a). `out` NULL: a new tensor in *result; out == a: in-place.
 * The pointwise engine's meta and impl steps with the dtype rules above;
 * the loop converts the input itself. */
static ct_status ct__unary_run(const ct__unary_def *d, const ct__unary_params *p, ct_tensor *out, ct_tensor *a,
                               ct_tensor **result) {
  const char *op = d->name;
  ct_dtype common, out_dtype;
  ct__unary_ctx c;
  ct__pw_plan pl;
  ct_pointwise_call call;
  ct_status st = CT_OK;
  if (!a) return ct_fail(CT_ERR_INVALID, op, "input 0 is NULL");
  if (out && (st = ct__check_overlaps(op, out, 1, &a)) != CT_OK) return st; /* first, as PyTorch's TensorIterator */
  if ((common = ct__unary_result_dtype(d, (ct_dtype)a->dtype)) == CT_DTYPE_NONE) return ct_last_error();
  out_dtype = out ? (ct_dtype)out->dtype : common;
  if (out_dtype != common && d->kind != CT__UNARY_TO_FLOAT && d->kind != CT__UNARY_KEEP_CAST) /* as PyTorch: only float ops and threshold cast into out= */
    return ct_fail(CT_ERR_DTYPE, op, "Found dtype %s but expected %s", ct__dtype_torch_name(out_dtype),
                   ct__dtype_torch_name(common));
  pl.op = op;
  if ((st = ct__pw_meta(&pl, -1, CT__PW_ALL | CT__PW_ANYIN, out, 1, &a, NULL, common)) != CT_OK) return st;
  c.def = d;
  c.p = *p;
  c.p.dtype = common;
  c.in = (ct_dtype)a->dtype;
  c.out = common;
  call.op = CT__PW_UNARY;
  call.flags = CT_POINTWISE_ANY_INPUT;
  call.param = 0;
  call.iparam = 0;
  call.host_loop = ct__unary_loop;
  call.host_ctx = &c;
  st = ct__pw_impl(&pl, &call);
  return ct__pw_finish(&pl, st, result);
}

static ct_tensor *ct__unary_new(const ct__unary_def *d, const ct__unary_params *p, ct_tensor *a) {
  ct_tensor *r = NULL;
  return ct__unary_run(d, p, NULL, a, &r) == CT_OK ? r : NULL;
}
static ct__unary_params ct__unary_noparams(void) {
  ct__unary_params p;
  memset(&p, 0, sizeof p);
  return p;
}

/* ---- kernels of the parameterless ops: functional, in-place, out= ---- */
#define CT__UNARY_KERNELS(name, def)                                                  \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *self) {                     \
    ct__unary_params p = ct__unary_noparams();                                        \
    (void)ks;                                                                         \
    return ct__unary_new(&ct__unary_def_##def, &p, self);                             \
  }                                                                                   \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self) {                   \
    ct__unary_params p = ct__unary_noparams();                                        \
    (void)ks;                                                                         \
    return ct__unary_run(&ct__unary_def_##def, &p, self, self, NULL);                 \
  }                                                                                   \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) { \
    ct__unary_params p = ct__unary_noparams();                                        \
    (void)ks;                                                                         \
    return ct__unary_run(&ct__unary_def_##def, &p, out, self, NULL);                  \
  }
CT__UNARY_KERNELS(neg, neg)
CT__UNARY_KERNELS(abs, abs)
CT__UNARY_KERNELS(sign, sign)
CT__UNARY_KERNELS(exp, exp)
CT__UNARY_KERNELS(exp2, exp2)
CT__UNARY_KERNELS(log, log)
CT__UNARY_KERNELS(log2, log2)
CT__UNARY_KERNELS(log1p, log1p)
CT__UNARY_KERNELS(expm1, expm1)
CT__UNARY_KERNELS(sqrt, sqrt)
CT__UNARY_KERNELS(rsqrt, rsqrt)
CT__UNARY_KERNELS(reciprocal, reciprocal)
CT__UNARY_KERNELS(square, square)
CT__UNARY_KERNELS(sin, sin)
CT__UNARY_KERNELS(cos, cos)
CT__UNARY_KERNELS(tan, tan)
CT__UNARY_KERNELS(tanh, tanh)
CT__UNARY_KERNELS(sigmoid, sigmoid)
CT__UNARY_KERNELS(relu, relu)
CT__UNARY_KERNELS(silu, silu)
CT__UNARY_KERNELS(mish, mish)
CT__UNARY_KERNELS(hardswish, hardswish)
CT__UNARY_KERNELS(hardsigmoid, hardsigmoid)
/* log_sigmoid: aten has no in-place form */
static ct_tensor *ct__k_log_sigmoid(ct_keyset ks, ct_tensor *self) {
  ct__unary_params p = ct__unary_noparams();
  (void)ks;
  return ct__unary_new(&ct__unary_def_log_sigmoid, &p, self);
}
static ct_status ct__k_log_sigmoid_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct__unary_params p = ct__unary_noparams();
  (void)ks;
  return ct__unary_run(&ct__unary_def_log_sigmoid, &p, out, self, NULL);
}
CT__UNARY_KERNELS(erf, erf)
CT__UNARY_KERNELS(floor, floor)
CT__UNARY_KERNELS(ceil, ceil)
CT__UNARY_KERNELS(round, round)
CT__UNARY_KERNELS(trunc, trunc)

/* ---- parameterised ops: one params builder each, then the three forms ---- */
#define CT__UNARY_PARAM_KERNELS(name, def, PARAMS, ARGS)                                         \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *self PARAMS) {                         \
    ct__unary_params p;                                                                          \
    (void)ks;                                                                                    \
    if (ct__unary_p_##name(&p, self ARGS) != CT_OK) return NULL;                                 \
    return ct__unary_new(&ct__unary_def_##def, &p, self);                                        \
  }                                                                                              \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *self PARAMS, ct_tensor *out) {    \
    ct__unary_params p;                                                                          \
    (void)ks;                                                                                    \
    if (ct__unary_p_##name(&p, self ARGS) != CT_OK) return ct_last_error();                      \
    return ct__unary_run(&ct__unary_def_##def, &p, out, self, NULL);                             \
  }
#define CT__UNARY_PARAM_INPLACE(name, def, PARAMS, ARGS)                                         \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self PARAMS) {                       \
    ct__unary_params p;                                                                          \
    (void)ks;                                                                                    \
    if (ct__unary_p_##name(&p, self ARGS) != CT_OK) return ct_last_error();                      \
    return ct__unary_run(&ct__unary_def_##def, &p, self, self, NULL);                            \
  }
#define CT__UNARY_COMMA ,

/* hardtanh: clamp to [min_val, max_val]; integer tensors take integer
 * bounds, converted checked as PyTorch does (a float bound to int64 first,
 * then the bound to the tensor's dtype) */
static ct_status ct__unary_p_hardtanh(ct__unary_params *p, ct_tensor *self, ct_scalar min_val, ct_scalar max_val) {
  ct_scalar b[2];
  int k;
  *p = ct__unary_noparams();
  p->a = ct_scalar_to_double(min_val);
  p->b = ct_scalar_to_double(max_val);
  if (self->dtype == CT_U8 && (p->a < 0 || p->b < 0))
    return ct_fail(CT_ERR_INVALID, "hardtanh", "cannot do hardtanh on an unsigned type with negative limits");
  b[0] = min_val, b[1] = max_val;
  for (k = 0; k < 2 && ct_dtype_is_integral((ct_dtype)self->dtype, false); k++) {
    if (b[k].kind == CT_SCALAR_FLOAT) {
      if (ct__check_scalar("hardtanh", b[k], CT_I64) != CT_OK) return ct_last_error();
      b[k] = ct_int(ct_scalar_to_int(b[k]));
    }
    if (ct__check_scalar("hardtanh", b[k], (ct_dtype)self->dtype) != CT_OK) return ct_last_error();
  }
  p->ia = ct_scalar_to_int(b[0]);
  p->ib = ct_scalar_to_int(b[1]);
  return CT_OK;
}
CT__UNARY_PARAM_KERNELS(hardtanh, hardtanh, CT__UNARY_COMMA ct_scalar min_val CT__UNARY_COMMA ct_scalar max_val,
                        CT__UNARY_COMMA min_val CT__UNARY_COMMA max_val)
CT__UNARY_PARAM_INPLACE(hardtanh, hardtanh, CT__UNARY_COMMA ct_scalar min_val CT__UNARY_COMMA ct_scalar max_val,
                        CT__UNARY_COMMA min_val CT__UNARY_COMMA max_val)

/* relu6 = hardtanh(self, 0, 6), CompositeImplicitAutograd as in PyTorch */
static ct_tensor *ct__k_relu6(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_hardtanh(self, ct_int(0), ct_int(6));
}
static ct_status ct__k_relu6_(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_hardtanh_(self, ct_int(0), ct_int(6));
}

static ct_status ct__unary_p_leaky_relu(ct__unary_params *p, ct_tensor *self, ct_scalar negative_slope) {
  (void)self;
  *p = ct__unary_noparams();
  p->a = ct_scalar_to_double(negative_slope);
  return CT_OK;
}
CT__UNARY_PARAM_KERNELS(leaky_relu, leaky_relu, CT__UNARY_COMMA ct_scalar negative_slope, CT__UNARY_COMMA negative_slope)
CT__UNARY_PARAM_INPLACE(leaky_relu, leaky_relu, CT__UNARY_COMMA ct_scalar negative_slope, CT__UNARY_COMMA negative_slope)

static ct_status ct__unary_p_elu(ct__unary_params *p, ct_tensor *self, ct_scalar alpha, ct_scalar scale,
                                 ct_scalar input_scale) {
  (void)self;
  *p = ct__unary_noparams();
  p->a = ct_scalar_to_double(alpha);
  p->b = ct_scalar_to_double(scale);
  p->c = ct_scalar_to_double(input_scale);
  return CT_OK;
}
#define CT__UNARY_ELU_PARAMS \
  CT__UNARY_COMMA ct_scalar alpha CT__UNARY_COMMA ct_scalar scale CT__UNARY_COMMA ct_scalar input_scale
#define CT__UNARY_ELU_ARGS CT__UNARY_COMMA alpha CT__UNARY_COMMA scale CT__UNARY_COMMA input_scale
CT__UNARY_PARAM_KERNELS(elu, elu, CT__UNARY_ELU_PARAMS, CT__UNARY_ELU_ARGS)
CT__UNARY_PARAM_INPLACE(elu, elu, CT__UNARY_ELU_PARAMS, CT__UNARY_ELU_ARGS)

static ct_status ct__unary_p_softplus(ct__unary_params *p, ct_tensor *self, ct_scalar beta, ct_scalar threshold) {
  (void)self;
  *p = ct__unary_noparams();
  p->a = ct_scalar_to_double(beta);
  p->b = ct_scalar_to_double(threshold);
  return CT_OK;
}
CT__UNARY_PARAM_KERNELS(softplus, softplus, CT__UNARY_COMMA ct_scalar beta CT__UNARY_COMMA ct_scalar threshold,
                        CT__UNARY_COMMA beta CT__UNARY_COMMA threshold)

/* selu = elu(self, SELU_ALPHA, SELU_SCALE); celu = elu(self, alpha, 1, 1 / alpha):
 * CompositeImplicitAutograd (their gradient is elu's), as PyTorch's selu */
#define CT__UNARY_SELU_ALPHA 1.6732632423543772848170429916717
#define CT__UNARY_SELU_SCALE 1.0507009873554804934193349852946
static ct_tensor *ct__k_selu(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_elu(self, ct_float(CT__UNARY_SELU_ALPHA), ct_float(CT__UNARY_SELU_SCALE), ct_int(1));
}
static ct_status ct__k_selu_(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_elu_(self, ct_float(CT__UNARY_SELU_ALPHA), ct_float(CT__UNARY_SELU_SCALE), ct_int(1));
}
static ct_status ct__unary_celu_inv(ct_scalar alpha, ct_scalar *inv) {
  double a = ct_scalar_to_double(alpha);
  if (a == 0) return ct_fail(CT_ERR_INVALID, "celu", "ZeroDivisionError: alpha cannot be 0 for CELU");
  *inv = ct_float(1.0 / a);
  return CT_OK;
}
static ct_tensor *ct__k_celu(ct_keyset ks, ct_tensor *self, ct_scalar alpha) {
  ct_scalar inv;
  (void)ks;
  return ct__unary_celu_inv(alpha, &inv) == CT_OK ? ct_elu(self, alpha, ct_int(1), inv) : NULL;
}
static ct_status ct__k_celu_(ct_keyset ks, ct_tensor *self, ct_scalar alpha) {
  ct_scalar inv;
  (void)ks;
  return ct__unary_celu_inv(alpha, &inv) == CT_OK ? ct_elu_(self, alpha, ct_int(1), inv) : ct_last_error();
}
/* aten's celu.out is the out= wrapper of a CompositeExplicitAutograd op: the
 * result resized into out and copied in whatever dtype out has (no cast check) */
static ct_status ct__k_celu_out(ct_keyset ks, ct_tensor *self, ct_scalar alpha, ct_tensor *out) {
  ct_status st;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("celu");
  if (!(r = ct__k_celu(ks, self, alpha))) return ct_last_error();
  if (!ct__out_device_ok("celu", out, r->device) || ct__check_writable("celu", out) != CT_OK)
    st = ct_last_error();
  else if ((st = ct__resize_out("celu", out, r->ndim, r->sizes)) == CT_OK && (st = ct__copy_impl(out, r)) == CT_OK)
    ct__bump_version(out);
  ct_release(r);
  return st;
}

/* hardshrink / softshrink: lambd in the tensor's precision, as PyTorch's lambd.to<scalar_t>() */
static ct_status ct__unary_p_hardshrink(ct__unary_params *p, ct_tensor *self, ct_scalar lambd) {
  *p = ct__unary_noparams();
  p->a = ct__unary_round_to(ct_scalar_to_double(lambd), (ct_dtype)self->dtype);
  return CT_OK;
}
static ct_status ct__unary_p_softshrink(ct__unary_params *p, ct_tensor *self, ct_scalar lambd) {
  double l = ct_scalar_to_double(lambd);
  if (!(l >= 0)) return ct_fail(CT_ERR_INVALID, "softshrink", "lambda must be greater or equal to 0, but found to be %g.", l);
  return ct__unary_p_hardshrink(p, self, lambd);
}
CT__UNARY_PARAM_KERNELS(hardshrink, hardshrink, CT__UNARY_COMMA ct_scalar lambd, CT__UNARY_COMMA lambd)
CT__UNARY_PARAM_KERNELS(softshrink, softshrink, CT__UNARY_COMMA ct_scalar lambd, CT__UNARY_COMMA lambd)

/* threshold: value where self <= threshold. Floating tensors compare with the
 * threshold in their precision; integer tensors take both scalars converted
 * to their dtype, checked as hardtanh's bounds */
static ct_status ct__unary_p_threshold(ct__unary_params *p, ct_tensor *self, ct_scalar threshold, ct_scalar value) {
  ct_scalar b[2];
  int k;
  *p = ct__unary_noparams();
  p->a = ct__unary_round_to(ct_scalar_to_double(threshold), (ct_dtype)self->dtype);
  p->b = ct_scalar_to_double(value);
  b[0] = threshold, b[1] = value;
  for (k = 0; k < 2 && ct_dtype_is_integral((ct_dtype)self->dtype, false); k++) {
    if (b[k].kind == CT_SCALAR_FLOAT) {
      if (ct__check_scalar("threshold", b[k], CT_I64) != CT_OK) return ct_last_error();
      b[k] = ct_int(ct_scalar_to_int(b[k]));
    }
    if (ct__check_scalar("threshold", b[k], (ct_dtype)self->dtype) != CT_OK) return ct_last_error();
  }
  if (ct_dtype_is_integral((ct_dtype)self->dtype, false)) {
    ct_dtype dt = (ct_dtype)self->dtype; /* the scalars as the tensor's dtype holds them (uint8: -3 is 253) */
    p->ia = ct_scalar_to_int(b[0]), p->ib = ct_scalar_to_int(b[1]);
    if (dt == CT_U8) p->ia = (uint8_t)(uint64_t)p->ia, p->ib = (uint8_t)(uint64_t)p->ib;
    if (dt == CT_I32) p->ia = (int32_t)(uint32_t)(uint64_t)p->ia, p->ib = (int32_t)(uint32_t)(uint64_t)p->ib;
  }
  return CT_OK;
}
#define CT__UNARY_THR_PARAMS CT__UNARY_COMMA ct_scalar threshold CT__UNARY_COMMA ct_scalar value
#define CT__UNARY_THR_ARGS CT__UNARY_COMMA threshold CT__UNARY_COMMA value
CT__UNARY_PARAM_KERNELS(threshold, threshold, CT__UNARY_THR_PARAMS, CT__UNARY_THR_ARGS)
CT__UNARY_PARAM_INPLACE(threshold, threshold, CT__UNARY_THR_PARAMS, CT__UNARY_THR_ARGS)

/* softsign and tanhshrink: composites, as torch.nn.functional's */
static ct_tensor *ct__k_softsign(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  ct_tensor *r = NULL;
  CT_SCOPE { r = ct_keep(ct_div(self, ct_add_scalar(ct_abs(self), ct_int(1)))); } /* the temporaries released */
  return r;
}
static ct_tensor *ct__k_tanhshrink(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  ct_tensor *r = NULL;
  CT_SCOPE { r = ct_keep(ct_sub(self, ct_tanh(self))); }
  return r;
}

/* gelu: approximate is "none" (x * Phi(x), with erf) or "tanh". */
static ct_status ct__unary_gelu_mode(const char *approximate, int64_t *mode) {
  if (!approximate || !strcmp(approximate, "none")) *mode = 0;
  else if (!strcmp(approximate, "tanh")) *mode = 1;
  else return ct_fail(CT_ERR_INVALID, "gelu", "approximate argument must be either none or tanh, got '%s'", approximate);
  return CT_OK;
}
static ct_status ct__unary_p_gelu_int(ct__unary_params *p, ct_tensor *self, int64_t approximate) {
  (void)self;
  *p = ct__unary_noparams();
  if (approximate != 0 && approximate != 1)
    return ct_fail(CT_ERR_INVALID, "gelu", "approximate must be 0 (none) or 1 (tanh), got %lld", (long long)approximate);
  p->ia = approximate;
  return CT_OK;
}
CT__UNARY_PARAM_KERNELS(gelu_int, gelu, CT__UNARY_COMMA int64_t approximate, CT__UNARY_COMMA approximate)
CT__UNARY_PARAM_INPLACE(gelu_int, gelu, CT__UNARY_COMMA int64_t approximate, CT__UNARY_COMMA approximate)
static ct_tensor *ct__k_gelu(ct_keyset ks, ct_tensor *self, const char *approximate) {
  int64_t m = 0;
  (void)ks;
  return ct__unary_gelu_mode(approximate, &m) == CT_OK ? ct__k_gelu_int(ks, self, m) : NULL;
}
static ct_status ct__k_gelu_(ct_keyset ks, ct_tensor *self, const char *approximate) {
  int64_t m = 0;
  (void)ks;
  return ct__unary_gelu_mode(approximate, &m) == CT_OK ? ct__k_gelu_int_(ks, self, m) : ct_last_error();
}
static ct_status ct__k_gelu_out(ct_keyset ks, ct_tensor *self, const char *approximate, ct_tensor *out) {
  int64_t m = 0;
  (void)ks;
  return ct__unary_gelu_mode(approximate, &m) == CT_OK ? ct__k_gelu_int_out(ks, self, m, out) : ct_last_error();
}

/* round.decimals: floating tensors only (PyTorch's "round_cpu" has no integer kernel with decimals) */
static ct_status ct__unary_p_round_decimals(ct__unary_params *p, ct_tensor *self, int64_t decimals) {
  (void)self;
  *p = ct__unary_noparams();
  if (decimals > 400 || decimals < -400)
    return ct_fail(CT_ERR_INVALID, "round", "decimals %lld is out of range [-400, 400]", (long long)decimals);
  p->ia = decimals;
  return CT_OK;
}
CT__UNARY_PARAM_KERNELS(round_decimals, round_dec, CT__UNARY_COMMA int64_t decimals, CT__UNARY_COMMA decimals)
CT__UNARY_PARAM_INPLACE(round_decimals, round_dec, CT__UNARY_COMMA int64_t decimals, CT__UNARY_COMMA decimals)

/* nan_to_num: None replaces NaN by 0 and +-inf by the dtype's largest finite values */
static ct_status ct__unary_p_nan_to_num(ct__unary_params *p, ct_tensor *self, double nan, double posinf, double neginf) {
  (void)self;
  *p = ct__unary_noparams();
  p->has_a = nan == nan, p->a = nan; /* float? None arrives as NaN */
  p->has_b = posinf == posinf, p->b = posinf;
  p->has_c = neginf == neginf, p->c = neginf;
  return CT_OK;
}
#define CT__UNARY_NTN_PARAMS CT__UNARY_COMMA double nan CT__UNARY_COMMA double posinf CT__UNARY_COMMA double neginf
#define CT__UNARY_NTN_ARGS CT__UNARY_COMMA nan CT__UNARY_COMMA posinf CT__UNARY_COMMA neginf
CT__UNARY_PARAM_INPLACE(nan_to_num, nan_to_num, CT__UNARY_NTN_PARAMS, CT__UNARY_NTN_ARGS)
static ct_tensor *ct__k_nan_to_num(ct_keyset ks, ct_tensor *self CT__UNARY_NTN_PARAMS) {
  ct__unary_params p;
  (void)ks;
  ct__unary_p_nan_to_num(&p, self, nan, posinf, neginf);
  return ct__unary_new(&ct__unary_def_nan_to_num, &p, self);
}
static ct_status ct__k_nan_to_num_out(ct_keyset ks, ct_tensor *self CT__UNARY_NTN_PARAMS, ct_tensor *out) {
  ct__unary_params p;
  (void)ks;
  if (out->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, "nan_to_num", "nan_to_num: dtype of out: %s should be same as input: %s",
                   ct__dtype_torch_name((ct_dtype)out->dtype), ct__dtype_torch_name((ct_dtype)self->dtype));
  ct__unary_p_nan_to_num(&p, self, nan, posinf, neginf);
  return ct__unary_run(&ct__unary_def_nan_to_num, &p, out, self, NULL);
}

/* ================= derivative helpers =================
 * Used by gen/derivatives/unary.spec; written with ct ops so that
 * create_graph records them (double backward). Masks come from
 * threshold_backward: grad where x > t, else 0. */
static ct_tensor *ct__unary_mul_num(ct_tensor *t, double v) { return ct_mul_scalar(t, ct_float(v)); }
static ct_tensor *ct__unary_plus1(ct_tensor *t) { return ct_add_scalar(t, ct_int(1)); }
static ct_tensor *ct__unary_one_minus(ct_tensor *t) { return ct_add_scalar(ct_neg(t), ct_int(1)); }
/* grad where lo < x < hi (PyTorch's hardtanh_backward: 0 at and beyond the bounds) */
static ct_tensor *ct__unary_hardtanh_backward(ct_tensor *grad, ct_tensor *self, ct_scalar min_val, ct_scalar max_val) {
  return ct_threshold_backward(ct_threshold_backward(grad, self, min_val), ct_neg(self), ct__neg_scalar(max_val));
}
/* grad for x > 0, grad * slope otherwise */
static ct_tensor *ct__unary_leaky_relu_backward(ct_tensor *grad, ct_tensor *self, ct_scalar negative_slope) {
  ct_tensor *pos = ct_threshold_backward(grad, self, ct_int(0));
  return ct_add(pos, ct_mul_scalar(ct_sub(grad, pos), negative_slope));
}
/* x > 0: grad * scale; else grad * alpha * scale * input_scale * exp(x * input_scale), the
 * exponent taken at min(x, 0) so that the branch not taken never overflows */
static ct_tensor *ct__unary_elu_backward(ct_tensor *grad, ct_tensor *self, ct_scalar alpha, ct_scalar scale,
                                         ct_scalar input_scale) {
  double is = ct_scalar_to_double(input_scale), k = ct_scalar_to_double(alpha) * ct_scalar_to_double(scale) * is;
  ct_tensor *pos = ct_threshold_backward(grad, self, ct_int(0));
  ct_tensor *xneg = ct_neg(ct_relu(ct_neg(self)));
  ct_tensor *dneg = ct__unary_mul_num(ct_exp(ct__unary_mul_num(xneg, is)), k);
  return ct_add(ct_mul_scalar(pos, scale), ct_mul(ct_sub(grad, pos), dneg));
}
/* approximate 0 (exact): Phi(x) + x phi(x); 1 (tanh): PyTorch's GeluBackward formula */
static ct_tensor *ct__unary_gelu_backward(ct_tensor *grad, ct_tensor *self, int64_t approximate) {
  if (approximate) {
    const double kappa = 0.044715;
    ct_tensor *x2 = ct_mul(self, self);
    ct_tensor *t = ct_tanh(ct__unary_mul_num(ct_add(self, ct__unary_mul_num(ct_mul(x2, self), kappa)), CT__UNARY_SQRT_2_PI));
    ct_tensor *dleft = ct__unary_mul_num(ct__unary_plus1(t), 0.5);
    ct_tensor *dinner = ct__unary_mul_num(ct__unary_plus1(ct__unary_mul_num(x2, 3 * kappa)), CT__UNARY_SQRT_2_PI);
    ct_tensor *dright = ct_mul(ct_mul(ct__unary_mul_num(self, 0.5), ct__unary_one_minus(ct_mul(t, t))), dinner);
    return ct_mul(grad, ct_add(dleft, dright));
  }
  {
    ct_tensor *cdf = ct__unary_mul_num(ct__unary_plus1(ct_erf(ct__unary_mul_num(self, CT__UNARY_SQRT1_2))), 0.5);
    ct_tensor *pdf = ct__unary_mul_num(ct_exp(ct__unary_mul_num(ct_mul(self, self), -0.5)),
                                       0.5 * CT__UNARY_2_SQRTPI * CT__UNARY_SQRT1_2);
    return ct_mul(grad, ct_add(cdf, ct_mul(self, pdf)));
  }
}
/* d silu = s (1 + x (1 - s)), s = sigmoid(x) */
static ct_tensor *ct__unary_silu_backward(ct_tensor *grad, ct_tensor *self) {
  ct_tensor *s = ct_sigmoid(self);
  return ct_mul(grad, ct_mul(s, ct__unary_plus1(ct_mul(self, ct__unary_one_minus(s)))));
}
/* grad where beta x > threshold (the linear part), else grad * sigmoid(beta x) */
static ct_tensor *ct__unary_softplus_backward(ct_tensor *grad, ct_tensor *self, ct_scalar beta, ct_scalar threshold) {
  ct_tensor *bx = ct_mul_scalar(self, beta);
  ct_tensor *lin = ct_threshold_backward(grad, bx, threshold);
  return ct_add(lin, ct_mul(ct_sub(grad, lin), ct_sigmoid(bx)));
}
/* d mish = t + x sigmoid(x) (1 - t^2), t = tanh(softplus(x)) */
static ct_tensor *ct__unary_mish_backward(ct_tensor *grad, ct_tensor *self) {
  ct_tensor *t = ct_tanh(ct_softplus(self, ct_int(1), ct_int(20)));
  ct_tensor *d = ct_mul(ct_mul(self, ct_sigmoid(self)), ct__unary_one_minus(ct_mul(t, t)));
  return ct_mul(grad, ct_add(t, d));
}
/* NaN replaced by a large value (above every kink): PyTorch's backward
 * formulas test ranges with comparisons that a NaN fails */
static ct_tensor *ct__unary_nan_big(ct_tensor *self) { return ct_nan_to_num(self, 1e4, NAN, NAN); }
/* PyTorch's hardswish_backward: 0 for x < -3, grad (x / 3 + 0.5) for -3 <= x <= 3, grad above (and NaN) */
static ct_tensor *ct__unary_hardswish_backward(ct_tensor *grad, ct_tensor *self) {
  ct_tensor *x = ct__unary_nan_big(self);
  ct_tensor *from = ct_sub(grad, ct_threshold_backward(grad, ct_neg(x), ct_int(3))); /* x >= -3 */
  ct_tensor *above = ct_threshold_backward(from, x, ct_int(3));                             /* x > 3 */
  ct_tensor *mid = ct_sub(from, above);
  return ct_add(above, ct_mul(mid, ct_add_scalar(ct__unary_mul_num(x, 1.0 / 3), ct_float(0.5))));
}
/* PyTorch's hardsigmoid_backward: grad * (float)(1 / 6) for -3 < x < 3, else 0 (NaN: 0) */
static ct_tensor *ct__unary_hardsigmoid_backward(ct_tensor *grad, ct_tensor *self) {
  return ct__unary_mul_num(ct__unary_hardtanh_backward(grad, ct__unary_nan_big(self), ct_int(-3), ct_int(3)),
                          (double)(1.0f / 6.0f)); /* PyTorch's one_sixth is a float constant */
}
/* grad where self is finite, else 0: self - self is NaN exactly where it is not */
static ct_tensor *ct__unary_nan_to_num_backward(ct_tensor *grad, ct_tensor *self) {
  ct_tensor *nonfinite = ct_nan_to_num(ct_sub(self, self), 1.0, 1.0, 1.0);
  return ct_mul(grad, ct__unary_one_minus(nonfinite));
}

CT_EXTERN_C_END
#endif /* CT__OPS_UNARY_IMPL */
