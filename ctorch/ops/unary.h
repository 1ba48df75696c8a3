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
 *   TO_FLOAT   exp, sin, sqrt, sigmoid, asin, ..., erfinv, lgamma, digamma,
 *              polygamma, i0, special_i1, sinc, logit, deg2rad, ...: integers and bool give float32;
 *              out= may be any dtype the result can be cast to.
 *   KEEP       neg, abs, sign, square, relu, hardtanh, floor/ceil/round/trunc,
 *              nan_to_num: integers keep their dtype (floor & co. return the
 *              values), bool as the descriptor says; out= must match.
 *   FLOAT_ONLY leaky_relu, elu, gelu, silu, softplus, mish, hardswish,
 *              hardsigmoid, log_sigmoid, hardshrink, softshrink, frac,
 *              round.decimals: floating only; out= must match.
 *   KEEP_CAST  threshold: as KEEP (bool refused), but out= may be any dtype
 *              the result can be cast to (PyTorch's threshold is a
 *              TensorIterator op with cast_common_dtype_to_outputs).
 *   TO_BOOL    isnan, isinf, isfinite, isposinf, isneginf: a bool result for
 *              every input dtype (the function sees the value as a double,
 *              returns 0 or 1); out= casts (isnan, isinf: aten's ne.out and
 *              abs().eq) or must be bool (isposinf, isneginf: their bool_msg).
 * In-place on an integer tensor with a float result fails as in PyTorch
 * ("result type Float can't be cast to the desired output type Long").
 *
 * gelu's kernels turn `approximate` into 0 / 1 and run the shared loop.
 * erfinv, digamma and polygamma follow PyTorch's calc_erfinv, calc_digamma,
 * calc_trigamma and calc_polygamma (Cephes' Hurwitz zeta); i0 and special_i1 sum
 * their power series in double (PyTorch: Cephes' Chebyshev expansions).
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
enum { CT__UNARY_TO_FLOAT, CT__UNARY_KEEP, CT__UNARY_FLOAT_ONLY, CT__UNARY_KEEP_CAST, CT__UNARY_TO_BOOL, CT__UNARY_INTEGRAL };

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
  int kind;             /* CT__UNARY_TO_FLOAT, _KEEP, _FLOAT_ONLY, ...; _INTEGRAL: integers and bool only, dtype kept */
  ct__unary_ffn f;      /* floating results */
  ct__unary_ifn i;      /* integer results (KEEP); NULL: integers are not supported */
  ct_dtype bool_dtype;  /* KEEP: the result dtype of a bool input, CT_DTYPE_NONE: not supported */
  const char *bool_msg; /* the error for a bool input, NULL: the generic one (TO_BOOL: the error for out= not bool, NULL: it casts) */
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

/* PyTorch's calc_erfinv: a rational first guess, then two Newton steps */
static double ct__unary_erfinv1(double y) {
  static const double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
  static const double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
  static const double c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
  static const double d[2] = {3.543889200, 1.637067800};
  double ya = fabs(y), x, z, num, dem;
  if (ya > 1.0) return NAN;
  if (ya == 1.0) return copysign(HUGE_VAL, y);
  if (ya <= 0.7) {
    z = y * y;
    num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0;
    x = y * num / dem;
  } else {
    z = sqrt(-log((1.0 - ya) / 2.0));
    num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
    dem = (d[1] * z + d[0]) * z + 1.0;
    x = copysign(num, y) / dem;
  }
  x = x - (erf(x) - y) / (CT__UNARY_2_SQRTPI * exp(-x * x));
  x = x - (erf(x) - y) / (CT__UNARY_2_SQRTPI * exp(-x * x));
  return x;
}
#define CT__UNARY_PI 3.14159265358979323846
/* PyTorch's calc_digamma: -inf / +inf at +0 / -0, NaN at the negative integers,
 * reflection below 0, recurrence up to 10, then the asymptotic series */
static double ct__unary_digamma1(double x) {
  static const double A[7] = {8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                              8.33333333333333333333E-2};
  double result = 0, y = 0, q;
  int k;
  if (x == 0) return copysign(HUGE_VAL, -x);
  if (x < 0) {
    if (x == trunc(x)) return NAN;
    return ct__unary_digamma1(1 - x) - CT__UNARY_PI / tan(CT__UNARY_PI * modf(x, &q));
  }
  while (x < 10) result -= 1 / x, x += 1;
  if (x == 10) return result + 2.25175258906672110764;
  if (x < 1.0e17) {
    double z = 1.0 / (x * x), pz = A[0];
    for (k = 1; k < 7; k++) pz = pz * z + A[k];
    y = z * pz;
  }
  return result + log(x) - 0.5 / x - y;
}
/* PyTorch's calc_trigamma: reflection below 1/2, recurrence, then the asymptotic series */
static double ct__unary_trigamma1(double x) {
  double sign = 1, result = 0, ixx, sp;
  int k;
  if (x < 0.5) {
    sign = -1;
    sp = sin(CT__UNARY_PI * x);
    result -= (CT__UNARY_PI * CT__UNARY_PI) / (sp * sp);
    x = 1 - x;
  }
  for (k = 0; k < 6; k++) result += 1 / (x * x), x += 1;
  ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (1. / 6 - ixx * (1. / 30 - ixx * (1. / 42)))) / x;
  return sign * result;
}
/* Cephes' Hurwitz zeta(x, q) = sum_k (k + q)^-x, as PyTorch's zeta */
static double ct__unary_zeta1(double x, double q) {
  static const double A[12] = {12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
                               -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
                               1.8152105401943546773e17, -7.1661652561756670113e18};
  const double machep = 1.11022302462515654042E-16;
  double s, a, b, k, t, w;
  int i;
  if (x == 1) return HUGE_VAL;
  if (x < 1) return NAN;
  if (q <= 0) {
    if (q == floor(q)) return HUGE_VAL;
    if (x != floor(x)) return NAN; /* (q^-x not real) */
  }
  s = pow(q, -x);
  a = q;
  i = 0;
  b = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1.0;
    b = pow(a, -x);
    s += b;
    if (fabs(b / s) < machep) return s;
  }
  w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1.0;
  k = 0.0;
  for (i = 0; i < 12; i++) {
    a *= x + k;
    b /= w;
    t = a * b / A[i];
    s = s + t;
    t = fabs(t / s);
    if (t < machep) return s;
    k += 1.0;
    a *= x + k;
    b /= w;
    k += 1.0;
  }
  return s;
}
/* polygamma(n, x): digamma, trigamma, then (-1)^(n+1) n! zeta(n + 1, x) (PyTorch's calc_polygamma) */
static double ct__unary_polygamma1(double x, int64_t n) {
  if (n == 0) return ct__unary_digamma1(x);
  if (n == 1) return ct__unary_trigamma1(x);
  return ((n % 2) ? 1.0 : -1.0) * exp(lgamma((double)n + 1.0)) * ct__unary_zeta1((double)n + 1, x);
}
/* I0(x) = sum_k ((x / 2)^2k / (k!)^2): positive terms, summed until they stop counting;
 * +-inf gives NaN as PyTorch's Cephes form (exp(x) / sqrt(x) there is inf / inf) */
static double ct__unary_i01(double x) {
  double q = x * x / 4, term = 1, sum = 1;
  int k;
  if (x != x) return x;
  if (fabs(x) == HUGE_VAL) return NAN;
  for (k = 1; k < 2000; k++) {
    term *= q / ((double)k * (double)k);
    sum += term;
    if (term < sum * 1e-17 || sum == HUGE_VAL) break; /* (overflowed: |x| above ~713) */
  }
  return sum;
}
/* I1(x) = sum_k (x / 2)^(2k+1) / (k! (k+1)!), odd; +-inf gives NaN as PyTorch's Cephes form */
static double ct__unary_i11(double x) {
  double q = x * x / 4, term = x / 2, sum = x / 2;
  int k;
  if (x != x) return x;
  if (fabs(x) == HUGE_VAL) return NAN;
  for (k = 1; k < 2000 && term != 0; k++) {
    term *= q / ((double)k * (double)(k + 1));
    sum += term;
    if (fabs(term) < fabs(sum) * 1e-17 || fabs(sum) == HUGE_VAL) break;
  }
  return sum;
}
static double ct__unary_sinc1(double x) {
  double px;
  if (x == 0) return 1.0;
  px = CT__UNARY_PI * x;
  return sin(px) / px;
}
/* logit: p->has_a (eps given, >= 0): clamp to [p->a, p->b] = [eps, 1 - eps] in the tensor's precision */
static double ct__unary_logit1(double x, const ct__unary_params *p) {
  if (p->has_a) x = x < p->a ? p->a : x > p->b ? p->b : x;
  return log(x / (1 - x));
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
CT__UNARY_F(asin, asin(x))
CT__UNARY_F(acos, acos(x))
CT__UNARY_F(atan, atan(x))
CT__UNARY_F(sinh, sinh(x))
CT__UNARY_F(cosh, cosh(x))
CT__UNARY_F(asinh, asinh(x))
CT__UNARY_F(acosh, acosh(x))
CT__UNARY_F(atanh, atanh(x))
CT__UNARY_F(log10, log10(x))
CT__UNARY_F(erfc, erfc(x))
CT__UNARY_F(erfinv, ct__unary_erfinv1(x))
CT__UNARY_F(lgamma, lgamma(x))
CT__UNARY_F(digamma, ct__unary_digamma1(x))
CT__UNARY_F(polygamma, ct__unary_polygamma1(x, p->ia))
CT__UNARY_F(i0, ct__unary_i01(x))
CT__UNARY_F(special_i1, ct__unary_i11(x))
CT__UNARY_F(sinc, ct__unary_sinc1(x))
CT__UNARY_F(logit, ct__unary_logit1(x, p))
CT__UNARY_F(frac, x - trunc(x))
CT__UNARY_F(deg2rad, x * (CT__UNARY_PI / 180.0))
CT__UNARY_F(rad2deg, x * (180.0 / CT__UNARY_PI))
/* predicates: 1 or 0 (stored as bool) */
CT__UNARY_F(isnan, (double)(x != x))
CT__UNARY_F(isinf, (double)(x == HUGE_VAL || x == -HUGE_VAL))
CT__UNARY_F(isfinite, (double)(x == x && x != HUGE_VAL && x != -HUGE_VAL))
CT__UNARY_F(isposinf, (double)(x == HUGE_VAL))
CT__UNARY_F(isneginf, (double)(x == -HUGE_VAL))
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
CT__UNARY_I(bitwise_not, p->dtype == CT_BOOL ? (int64_t)!x : (int64_t)~u)

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
CT__UNARY_DEF(bitwise_not, CT__UNARY_INTEGRAL, NULL, ct__unary_i_bitwise_not, CT_DTYPE_NONE, NULL)
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
CT__UNARY_DEF_FLOAT(asin)
CT__UNARY_DEF_FLOAT(acos)
CT__UNARY_DEF_FLOAT(atan)
CT__UNARY_DEF_FLOAT(sinh)
CT__UNARY_DEF_FLOAT(cosh)
CT__UNARY_DEF_FLOAT(asinh)
CT__UNARY_DEF_FLOAT(acosh)
CT__UNARY_DEF_FLOAT(atanh)
CT__UNARY_DEF_FLOAT(log10)
CT__UNARY_DEF_FLOAT(erfc)
CT__UNARY_DEF_FLOAT(erfinv)
CT__UNARY_DEF_FLOAT(lgamma)
CT__UNARY_DEF_FLOAT(digamma)
CT__UNARY_DEF_FLOAT(polygamma)
CT__UNARY_DEF_FLOAT(i0)
CT__UNARY_DEF(special_i1, CT__UNARY_TO_FLOAT, ct__unary_f_special_i1, NULL, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF_FLOAT(sinc)
CT__UNARY_DEF_FLOAT(logit)
CT__UNARY_DEF_FLOAT(deg2rad)
CT__UNARY_DEF_FLOAT(rad2deg)
CT__UNARY_DEF_ACT(frac)
CT__UNARY_DEF(isnan, CT__UNARY_TO_BOOL, ct__unary_f_isnan, NULL, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(isinf, CT__UNARY_TO_BOOL, ct__unary_f_isinf, NULL, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(isfinite, CT__UNARY_TO_BOOL, ct__unary_f_isfinite, NULL, CT_DTYPE_NONE, NULL)
CT__UNARY_DEF(isposinf, CT__UNARY_TO_BOOL, ct__unary_f_isposinf, NULL, CT_DTYPE_NONE, "isposinf does not support non-boolean outputs.")
CT__UNARY_DEF(isneginf, CT__UNARY_TO_BOOL, ct__unary_f_isneginf, NULL, CT_DTYPE_NONE, "isneginf does not support non-boolean outputs.")
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
    if (c->def->kind == CT__UNARY_TO_BOOL) {
      int64_t j;
      ct__unary_load_f(fbuf, d[1] + at * s[1], s[1], k, c->in);
      c->def->f(fbuf, k, &c->p);
      for (j = 0; j < k; j++) ibuf[j] = fbuf[j] != 0;
      ct__unary_store_i(d[0] + at * s[0], s[0], ibuf, k, CT_BOOL);
    } else if (floating) {
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
  if (d->kind == CT__UNARY_TO_BOOL) return CT_BOOL;
  if (d->kind == CT__UNARY_INTEGRAL && !ct_dtype_is_floating(in)) return in;
  if (d->kind == CT__UNARY_INTEGRAL)
    return ct_fail(CT_ERR_DTYPE, d->name, "\"%s_cpu\" not implemented for '%s'", d->name, ct__dtype_torch_name(in)), CT_DTYPE_NONE;
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
  if (ct_dtype_is_floating((ct_dtype)a->dtype) && d->kind != CT__UNARY_TO_BOOL && d->kind != CT__UNARY_INTEGRAL &&
      ct__pw_fast_operands(out, 1, &a, (ct_dtype)a->dtype)) { /* the engine's fast lane: a float in, the same dtype out */
    c.def = d;
    c.p = *p;
    c.p.dtype = c.in = c.out = (ct_dtype)a->dtype;
    return ct__pw_fast_run(out, 1, &a, ct__unary_loop, &c, result);
  }
  if (out && (st = ct__check_overlaps(op, out, 1, &a)) != CT_OK) return st; /* first, as PyTorch's TensorIterator */
  if ((common = ct__unary_result_dtype(d, (ct_dtype)a->dtype)) == CT_DTYPE_NONE) return ct_last_error();
  out_dtype = out ? (ct_dtype)out->dtype : common;
  if (out_dtype != common && d->kind == CT__UNARY_TO_BOOL && d->bool_msg) /* isposinf, isneginf */
    return ct_fail(CT_ERR_DTYPE, op, "%s", d->bool_msg);
  if (out_dtype != common && d->kind != CT__UNARY_TO_FLOAT && d->kind != CT__UNARY_KEEP_CAST &&
      d->kind != CT__UNARY_TO_BOOL) /* as PyTorch: only float ops, threshold and the predicates cast into out= */
    return ct_fail(CT_ERR_DTYPE, op, "Found dtype %s but expected %s", ct__dtype_torch_name(out_dtype),
                   ct__dtype_torch_name(common));
  if ((st = ct__pw_meta(&pl, op, -1, CT__PW_ALL | CT__PW_ANYIN, out, 1, &a, NULL, common)) != CT_OK) return st;
  c.def = d;
  c.p = *p;
  c.p.dtype = common;
  c.in = (ct_dtype)a->dtype;
  c.out = common;
  call.op = CT__PW_UNARY;
  call.flags = CT_POINTWISE_ANY_INPUT;
  call.param = p->a, call.param2 = p->b, call.param3 = p->c; /* (for a device's loop; the host's reads host_ctx) */
  call.iparam = p->ia, call.iparam2 = p->ib;
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
CT__UNARY_KERNELS(bitwise_not, bitwise_not)
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
CT__UNARY_KERNELS(asin, asin)
CT__UNARY_KERNELS(acos, acos)
CT__UNARY_KERNELS(atan, atan)
CT__UNARY_KERNELS(sinh, sinh)
CT__UNARY_KERNELS(cosh, cosh)
CT__UNARY_KERNELS(asinh, asinh)
CT__UNARY_KERNELS(acosh, acosh)
CT__UNARY_KERNELS(atanh, atanh)
CT__UNARY_KERNELS(log10, log10)
CT__UNARY_KERNELS(erfc, erfc)
CT__UNARY_KERNELS(erfinv, erfinv)
CT__UNARY_KERNELS(lgamma, lgamma)
CT__UNARY_KERNELS(digamma, digamma)
CT__UNARY_KERNELS(i0, i0)
CT__UNARY_KERNELS(sinc, sinc)
CT__UNARY_KERNELS(frac, frac)
CT__UNARY_KERNELS(deg2rad, deg2rad)
CT__UNARY_KERNELS(rad2deg, rad2deg)
/* special_i1: functional and out= (no in-place form in aten) */
static ct_tensor *ct__k_special_i1(ct_keyset ks, ct_tensor *self) {
  ct__unary_params p = ct__unary_noparams();
  (void)ks;
  return ct__unary_new(&ct__unary_def_special_i1, &p, self);
}
static ct_status ct__k_special_i1_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct__unary_params p = ct__unary_noparams();
  (void)ks;
  return ct__unary_run(&ct__unary_def_special_i1, &p, out, self, NULL);
}
/* the predicates: functional and out= only (no in-place form in aten) */
#define CT__UNARY_PRED_KERNELS(name)                                                  \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *self) {                     \
    ct__unary_params p = ct__unary_noparams();                                        \
    (void)ks;                                                                         \
    return ct__unary_new(&ct__unary_def_##name, &p, self);                            \
  }                                                                                   \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) { \
    ct__unary_params p = ct__unary_noparams();                                        \
    (void)ks;                                                                         \
    return ct__unary_run(&ct__unary_def_##name, &p, out, self, NULL);                 \
  }
CT__UNARY_PRED_KERNELS(isnan)
CT__UNARY_PRED_KERNELS(isinf)
CT__UNARY_PRED_KERNELS(isposinf)
CT__UNARY_PRED_KERNELS(isneginf)
static ct_tensor *ct__k_isfinite(ct_keyset ks, ct_tensor *self) {
  ct__unary_params p = ct__unary_noparams();
  (void)ks;
  return ct__unary_new(&ct__unary_def_isfinite, &p, self);
}
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

/* logit: eps None (NaN here) or negative: no clamp; else [eps, 1 - eps] in the tensor's precision
 * (integer inputs compute in float32) */
static ct_status ct__unary_p_logit(ct__unary_params *p, ct_tensor *self, double eps) {
  ct_dtype dt = ct_dtype_is_floating((ct_dtype)self->dtype) ? (ct_dtype)self->dtype : CT_F32;
  *p = ct__unary_noparams();
  p->has_a = eps == eps && eps >= 0;
  p->a = ct__unary_round_to(eps, dt);
  p->b = ct__unary_round_to(1 - p->a, dt);
  return CT_OK;
}
CT__UNARY_PARAM_KERNELS(logit, logit, CT__UNARY_COMMA double eps, CT__UNARY_COMMA eps)
CT__UNARY_PARAM_INPLACE(logit, logit, CT__UNARY_COMMA double eps, CT__UNARY_COMMA eps)

/* polygamma(n, self): n first in aten's schema; n >= 0 */
static ct_status ct__unary_p_polygamma(ct__unary_params *p, int64_t n) {
  *p = ct__unary_noparams();
  if (n < 0) return ct_fail(CT_ERR_INVALID, "polygamma", "polygamma(n, x) does not support negative n.");
  p->ia = n;
  return CT_OK;
}
static ct_tensor *ct__k_polygamma(ct_keyset ks, int64_t n, ct_tensor *self) {
  ct__unary_params p;
  (void)ks;
  return ct__unary_p_polygamma(&p, n) == CT_OK ? ct__unary_new(&ct__unary_def_polygamma, &p, self) : NULL;
}
static ct_status ct__k_polygamma_out(ct_keyset ks, int64_t n, ct_tensor *self, ct_tensor *out) {
  ct__unary_params p;
  (void)ks;
  return ct__unary_p_polygamma(&p, n) == CT_OK ? ct__unary_run(&ct__unary_def_polygamma, &p, out, self, NULL) : ct_last_error();
}
static ct_status ct__k_polygamma_(ct_keyset ks, ct_tensor *self, int64_t n) {
  ct__unary_params p;
  (void)ks;
  return ct__unary_p_polygamma(&p, n) == CT_OK ? ct__unary_run(&ct__unary_def_polygamma, &p, self, self, NULL) : ct_last_error();
}

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
/* sinc' = (cos(pi x) - sinc(x)) / x, 0 at 0 (x replaced by 1 there: no NaN in double backward) */
static ct_tensor *ct__unary_sinc_backward(ct_tensor *grad, ct_tensor *self) {
  ct_tensor *zero = ct_eq_scalar(self, ct_int(0));
  ct_tensor *x = ct_where_scalar_self(zero, ct_int(1), self);
  ct_tensor *d = ct_div(ct_sub(ct_cos(ct__unary_mul_num(x, CT__UNARY_PI)), ct_sinc(x)), x);
  return ct_mul(grad, ct_where_scalar_self(zero, ct_int(0), d));
}
/* PyTorch's i1_backward: I1' = I0(x) - I1(x) / x, 1/2 at 0 (x replaced by 1 there: no NaN in double backward) */
static ct_tensor *ct__unary_i1_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result) {
  ct_tensor *zero = ct_eq_scalar(self, ct_int(0));
  ct_tensor *x = ct_where_scalar_self(zero, ct_int(1), self);
  ct_tensor *d = ct_sub(ct_i0(self), ct_div(ct_where_scalar_self(zero, ct_int(0), result), x));
  return ct_mul(grad, ct_where_scalar_self(zero, ct_float(0.5), d));
}
/* PyTorch's logit_backward: grad / (x (1 - x)); eps None: NaN outside [0, 1]; eps: 0 outside [eps, 1 - eps] */
static ct_tensor *ct__unary_logit_backward(ct_tensor *grad, ct_tensor *self, double eps) {
  ct_tensor *d = ct_div(grad, ct_mul(self, ct__unary_one_minus(self)));
  if (eps == eps && eps >= 0)
    return ct_where_scalar_self(ct_logical_or(ct_lt_scalar(self, ct_float(eps)), ct_gt_scalar(self, ct_float(1 - eps))),
                                ct_int(0), d);
  return ct_where_scalar_self(ct_logical_or(ct_lt_scalar(self, ct_int(0)), ct_gt_scalar(self, ct_int(1))), ct_float(NAN), d);
}
/* grad where self is finite, else 0: self - self is NaN exactly where it is not */
static ct_tensor *ct__unary_nan_to_num_backward(ct_tensor *grad, ct_tensor *self) {
  ct_tensor *nonfinite = ct_nan_to_num(ct_sub(self, self), 1.0, 1.0, 1.0);
  return ct_mul(grad, ct__unary_one_minus(nonfinite));
}

/* ---- frexp: self = mantissa * 2^exponent, |mantissa| in [0.5, 1) (0, inf and NaN: themselves and 0);
 * the mantissa in self's dtype, the exponent int32 ---- */
/* structured (ops/structured.h): the meta step checks the dtype and declares both outputs; the impl
 * writes them (contiguous, on the CPU) */
static ct_status ct__meta_frexp(ct__structured *st, ct_tensor *self) {
  ct_status s;
  if (!ct_dtype_is_floating((ct_dtype)self->dtype)) return ct_fail(CT_ERR_DTYPE, st->op, "torch.frexp() only supports floating-point dtypes");
  if ((s = ct__set_output(st, 0, self->ndim, self->sizes, (ct_dtype)self->dtype, self->device)) != CT_OK) return s;
  return ct__set_output(st, 1, self->ndim, self->sizes, CT_I32, self->device);
}
static ct_status ct__impl_frexp(ct_tensor *self, ct_tensor *mantissa, ct_tensor *exponent) {
  ct_tensor *c;
  int32_t *e = (int32_t *)ct_data_ptr(exponent);
  int64_t k;
  if (self->numel == 0) return CT_OK;
  if (!(c = ct__host_operand("frexp", self))) return ct_last_error();
  for (k = 0; k < self->numel; k++) {
    int ex = 0;
    double v = ct_get(c, k), mant = isfinite(v) ? frexp(v, &ex) : v;
    ct_set(mantissa, k, mant);
    e[k] = ex;
  }
  ct_release(c);
  return CT_OK;
}

CT_EXTERN_C_END
#endif /* CT__OPS_UNARY_IMPL */
