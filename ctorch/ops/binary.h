/* ctorch/ops/binary.h - reference kernels: pointwise binary and ternary ops, comparisons, logical ops, where, clamp.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/binary.spec and their derivatives in
 * gen/derivatives/binary.spec; the frontends are generated (docs/ops.md).
 *
 * Every kernel here is a schema form (functional, in-place, out=, Scalar
 * overloads) of an op of the pointwise engine (ops/pointwise.h): it wraps
 * numbers as 0-dim tensors and calls ct__pw_run, which runs the op's meta
 * step and its impl step through the device's loop. The binary math
 * functions (hypot, copysign, nextafter, fmax, fmin, heaviside, xlogy,
 * logaddexp, logaddexp2) run the same two steps through ct__bm_run, a
 * descriptor per op as the unary functions; float_power is a composite of
 * pow, as PyTorch's.
 */
#ifndef CT_OPS_BINARY_H
#define CT_OPS_BINARY_H

#include "pointwise.h"

#endif /* CT_OPS_BINARY_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_BINARY_IMPL)
#define CT__OPS_BINARY_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- add, sub (alpha), mul, div: kernels in schema order ---- */
#define CT__PW_K_ALPHA(name, ID)                                                                          \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {            \
    ct_tensor *r = NULL;                                                                                 \
    (void)ks;                                                                                            \
    ct__pw_run_alpha(ID, NULL, a, b, alpha, &r);                                                         \
    return r;                                                                                            \
  }                                                                                                      \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b, ct_scalar alpha) {       \
    (void)ks;                                                                                            \
    return ct__pw_run_alpha(ID, self, self, b, alpha, NULL);                                             \
  }                                                                                                      \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha, ct_tensor *out) { \
    (void)ks;                                                                                            \
    return ct__pw_run_alpha(ID, out, a, b, alpha, NULL);                                                 \
  }                                                                                                      \
  static ct_tensor *ct__k_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar other, ct_scalar alpha) { \
    ct__wrapped w;                                                                                       \
    ct_tensor *r = NULL;                                                                                 \
    (void)ks;                                                                                            \
    ct__pw_run_alpha(ID, NULL, a, ct__wrap_scalar(&w, other), alpha, &r);                                \
    return r;                                                                                            \
  }                                                                                                      \
  static ct_status ct__k_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) { \
    ct__wrapped w;                                                                                       \
    (void)ks;                                                                                            \
    return ct__pw_run_alpha(ID, self, self, ct__wrap_scalar(&w, other), alpha, NULL);                    \
  }
/* mul and div have no alpha */
#define CT__PW_K_NOALPHA(name, ID)                                                                        \
  static ct_tensor *ct__k2_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b) {                            \
    (void)ks;                                                                                            \
    return ct__pw_new2(ID, a, b);                                                                        \
  }                                                                                                      \
  static ct_status ct__k2_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b) {                       \
    (void)ks;                                                                                            \
    return ct__pw_mut2(ID, self, self, b);                                                               \
  }                                                                                                      \
  static ct_status ct__k2_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {       \
    (void)ks;                                                                                            \
    return ct__pw_mut2(ID, out, a, b);                                                                   \
  }                                                                                                      \
  static ct_tensor *ct__k2_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar other) {                \
    ct__wrapped w;                                                                                       \
    (void)ks;                                                                                            \
    return ct__pw_new2(ID, a, ct__wrap_scalar(&w, other));                                               \
  }                                                                                                      \
  static ct_status ct__k2_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar other) {             \
    ct__wrapped w;                                                                                       \
    (void)ks;                                                                                            \
    return ct__pw_mut2(ID, self, self, ct__wrap_scalar(&w, other));                                      \
  }
CT__PW_K_ALPHA(add, &ct__pw_d_ADD)
CT__PW_K_ALPHA(sub, &ct__pw_d_SUB)
CT__PW_K_NOALPHA(mul, &ct__pw_d_MUL)
CT__PW_K_NOALPHA(div, &ct__pw_d_DIV)

/* threshold_backward: 0 where self <= threshold, else grad_output (so a NaN self passes
 * grad_output through, as PyTorch's kernel and the BLIS backend) */
static ct_tensor *ct__k_threshold_backward(ct_keyset ks, ct_tensor *grad, ct_tensor *self, ct_scalar threshold) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_run_alpha(&ct__pw_d_THRESHOLD_BW, NULL, grad, self, threshold, &r);
  return r;
}

/* ---- kernels of the schema families ---- */
/* op(Tensor, Tensor) and op.out; CT__PW_K_TT adds op_(Tensor, Tensor) */
#define CT__PW_K_FO(name, ID)                                                                           \
  static ct_tensor *ct__bk_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b) {                           \
    (void)ks;                                                                                           \
    return ct__pw_new2(ID, a, b);                                                                       \
  }                                                                                                     \
  static ct_status ct__bk_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, out, a, b);                                                               \
  }
#define CT__PW_K_TT(name, ID)                                                                           \
  CT__PW_K_FO(name, ID)                                                                                 \
  static ct_status ct__bk_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b) {                      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, self, self, b);                                                           \
  }
/* op.Scalar(Tensor, Scalar) and op_.Scalar; CT__PW_K_TS adds op.Scalar_out */
#define CT__PW_K_TS2(name, ID)                                                                          \
  static ct_tensor *ct__bk_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar s) {                   \
    ct__wrapped w;                                                                                      \
    (void)ks;                                                                                           \
    return ct__pw_new2(ID, a, ct__wrap_scalar(&w, s));                                                  \
  }                                                                                                     \
  static ct_status ct__bk_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar s) {                \
    ct__wrapped w;                                                                                      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, self, self, ct__wrap_scalar(&w, s));                                      \
  }
#define CT__PW_K_TS(name, ID)                                                                           \
  CT__PW_K_TS2(name, ID)                                                                                \
  static ct_status ct__bk_##name##_scalar_out(ct_keyset ks, ct_tensor *a, ct_scalar s, ct_tensor *out) { \
    ct__wrapped w;                                                                                      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, out, a, ct__wrap_scalar(&w, s));                                          \
  }
/* op.Scalar_Tensor(Scalar self, Tensor other) and its out= */
#define CT__PW_K_ST(name, ID)                                                                           \
  static ct_tensor *ct__bk_##name##_scalar_self(ct_keyset ks, ct_scalar s, ct_tensor *b) {              \
    ct__wrapped w;                                                                                      \
    (void)ks;                                                                                           \
    return ct__pw_new2(ID, ct__wrap_scalar(&w, s), b);                                                  \
  }                                                                                                     \
  static ct_status ct__bk_##name##_scalar_self_out(ct_keyset ks, ct_scalar s, ct_tensor *b, ct_tensor *out) { \
    ct__wrapped w;                                                                                      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, out, ct__wrap_scalar(&w, s), b);                                          \
  }

CT__PW_K_TT(floor_divide, &ct__pw_d_DIV_FLOOR)
CT__PW_K_TS2(floor_divide, &ct__pw_d_DIV_FLOOR)
CT__PW_K_TT(pow, &ct__pw_d_POW)
CT__PW_K_ST(pow, &ct__pw_d_POW)
CT__PW_K_TT(remainder, &ct__pw_d_REMAINDER)
CT__PW_K_TS(remainder, &ct__pw_d_REMAINDER)
CT__PW_K_ST(remainder, &ct__pw_d_REMAINDER)
CT__PW_K_TT(fmod, &ct__pw_d_FMOD)
CT__PW_K_TS(fmod, &ct__pw_d_FMOD)
CT__PW_K_FO(maximum, &ct__pw_d_MAXIMUM)
CT__PW_K_FO(minimum, &ct__pw_d_MINIMUM)
CT__PW_K_TT(atan2, &ct__pw_d_ATAN2)
CT__PW_K_TT(eq, &ct__pw_d_EQ)
CT__PW_K_TS(eq, &ct__pw_d_EQ)
CT__PW_K_TT(ne, &ct__pw_d_NE)
CT__PW_K_TS(ne, &ct__pw_d_NE)
CT__PW_K_TT(lt, &ct__pw_d_LT)
CT__PW_K_TS(lt, &ct__pw_d_LT)
CT__PW_K_TT(le, &ct__pw_d_LE)
CT__PW_K_TS(le, &ct__pw_d_LE)
CT__PW_K_TT(gt, &ct__pw_d_GT)
CT__PW_K_TS(gt, &ct__pw_d_GT)
CT__PW_K_TT(ge, &ct__pw_d_GE)
CT__PW_K_TS(ge, &ct__pw_d_GE)
CT__PW_K_TT(logical_and, &ct__pw_d_AND)
CT__PW_K_TT(logical_or, &ct__pw_d_OR)
CT__PW_K_TT(logical_xor, &ct__pw_d_XOR)
CT__PW_K_TS(clamp_min, &ct__pw_d_CLAMP_MIN_S)
CT__PW_K_TS(clamp_max, &ct__pw_d_CLAMP_MAX_S)
CT__PW_K_TT(clamp_min_tensor, &ct__pw_d_CLAMP_MIN_T)
CT__PW_K_TT(clamp_max_tensor, &ct__pw_d_CLAMP_MAX_T)

/* pow(Tensor, Scalar): integers to negative integer powers are an error;
 * the exponent converts to the result's dtype checked, as in PyTorch
 * (pow(Scalar, Tensor) does not check its base: it wraps) */
static ct_status ct__pw_pow_check(ct_tensor *self, ct_scalar e) {
  ct__wrapped w;
  if (ct_dtype_is_integral((ct_dtype)self->dtype, true) && e.kind == CT_SCALAR_INT && e.v.i < 0)
    return ct_fail(CT_ERR_INVALID, "pow", "Integers to negative integer powers are not allowed.");
  return ct__check_scalar("pow", e, ct__result_type(self, ct__wrap_scalar(&w, e)));
}
static ct_tensor *ct__bk_pow_scalar(ct_keyset ks, ct_tensor *a, ct_scalar e) {
  ct__wrapped w;
  (void)ks;
  return ct__pw_pow_check(a, e) != CT_OK ? NULL : ct__pw_new2(&ct__pw_d_POW, a, ct__wrap_scalar(&w, e));
}
static ct_status ct__bk_pow_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar e) {
  ct__wrapped w;
  (void)ks;
  return ct__pw_pow_check(self, e) != CT_OK ? ct_last_error() : ct__pw_mut2(&ct__pw_d_POW, self, self, ct__wrap_scalar(&w, e));
}
static ct_status ct__bk_pow_scalar_out(ct_keyset ks, ct_tensor *a, ct_scalar e, ct_tensor *out) {
  ct__wrapped w;
  (void)ks;
  return ct__pw_pow_check(a, e) != CT_OK ? ct_last_error() : ct__pw_mut2(&ct__pw_d_POW, out, a, ct__wrap_scalar(&w, e));
}

/* clamp_min / clamp_max take Scalar min / max: the generic names above */
#define CT__PW_K_ALIAS(to, from)                                                                      \
  static ct_tensor *ct__bk_##to(ct_keyset ks, ct_tensor *a, ct_scalar s) { return ct__bk_##from##_scalar(ks, a, s); } \
  static ct_status ct__bk_##to##_(ct_keyset ks, ct_tensor *a, ct_scalar s) { return ct__bk_##from##_scalar_(ks, a, s); } \
  static ct_status ct__bk_##to##_out(ct_keyset ks, ct_tensor *a, ct_scalar s, ct_tensor *out) {        \
    return ct__bk_##from##_scalar_out(ks, a, s, out);                                                 \
  }
CT__PW_K_ALIAS(clamp_min, clamp_min)
CT__PW_K_ALIAS(clamp_max, clamp_max)

/* logical_not */
static ct_tensor *ct__bk_logical_not(ct_keyset ks, ct_tensor *a) {
  (void)ks;
  return ct__pw_new(&ct__pw_d_NOT, 1, &a, NULL);
}
static ct_status ct__bk_logical_not_(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__pw_run(&ct__pw_d_NOT, self, 1, &self, NULL, NULL);
}
static ct_status ct__bk_logical_not_out(ct_keyset ks, ct_tensor *a, ct_tensor *out) {
  (void)ks;
  return ct__pw_run(&ct__pw_d_NOT, out, 1, &a, NULL, NULL);
}

/* ---- div with a rounding mode: None is div's true division (ctorch/ops.h) ---- */
static int ct__pw_rounding(const char *mode) { /* DIV_TRUNC, DIV_FLOOR, -1 for None, -2 invalid (error set) */
  if (!mode) return -1;
  if (!strcmp(mode, "trunc")) return CT__PW_DIV_TRUNC;
  if (!strcmp(mode, "floor")) return CT__PW_DIV_FLOOR;
  ct_fail(CT_ERR_INVALID, "div", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode);
  return -2;
}
static const ct__pw_desc *ct__pw_rounding_desc(int id) { return id == CT__PW_DIV_TRUNC ? &ct__pw_d_DIV_TRUNC : &ct__pw_d_DIV_FLOOR; }
static ct_tensor *ct__bk_div_mode(ct_keyset ks, ct_tensor *a, ct_tensor *b, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  return id == -2 ? NULL : id < 0 ? ct__k2_div(ks, a, b) : ct__pw_new2(ct__pw_rounding_desc(id), a, b);
}
static ct_status ct__bk_div_mode_(ct_keyset ks, ct_tensor *self, ct_tensor *b, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  return id == -2 ? ct_last_error() : id < 0 ? ct__k2_div_(ks, self, b) : ct__pw_mut2(ct__pw_rounding_desc(id), self, self, b);
}
static ct_status ct__bk_div_mode_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, const char *rounding_mode, ct_tensor *out) {
  int id = ct__pw_rounding(rounding_mode);
  return id == -2 ? ct_last_error() : id < 0 ? ct__k2_div_out(ks, a, b, out) : ct__pw_mut2(ct__pw_rounding_desc(id), out, a, b);
}
static ct_tensor *ct__bk_div_scalar_mode(ct_keyset ks, ct_tensor *a, ct_scalar s, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  ct__wrapped w;
  return id == -2 ? NULL : id < 0 ? ct__k2_div_scalar(ks, a, s) : ct__pw_new2(ct__pw_rounding_desc(id), a, ct__wrap_scalar(&w, s));
}
static ct_status ct__bk_div_scalar_mode_(ct_keyset ks, ct_tensor *self, ct_scalar s, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  ct__wrapped w;
  return id == -2 ? ct_last_error() : id < 0 ? ct__k2_div_scalar_(ks, self, s) : ct__pw_mut2(ct__pw_rounding_desc(id), self, self, ct__wrap_scalar(&w, s));
}

/* ---- where ---- */
static ct_status ct__pw_where3(ct_tensor *out, ct_tensor *c, ct_tensor *a, ct_tensor *b, ct_tensor **result) {
  ct_tensor *in[3];
  in[0] = c, in[1] = a, in[2] = b;
  return ct__pw_run(&ct__pw_d_WHERE, out, 3, in, NULL, result);
}
static ct_tensor *ct__bk_where(ct_keyset ks, ct_tensor *c, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_where3(NULL, c, a, b, &r);
  return r;
}
static ct_status ct__bk_where_out(ct_keyset ks, ct_tensor *c, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  (void)ks;
  return ct__pw_where3(out, c, a, b, NULL);
}
static ct_tensor *ct__bk_where_scalar_self(ct_keyset ks, ct_tensor *c, ct_scalar a, ct_tensor *b) {
  ct__wrapped w;
  return ct__bk_where(ks, c, ct__wrap_scalar(&w, a), b);
}
static ct_tensor *ct__bk_where_scalar_other(ct_keyset ks, ct_tensor *c, ct_tensor *a, ct_scalar b) {
  ct__wrapped w;
  return ct__bk_where(ks, c, a, ct__wrap_scalar(&w, b));
}
static ct_tensor *ct__bk_where_scalar(ct_keyset ks, ct_tensor *c, ct_scalar a, ct_scalar b) {
  ct__wrapped wa, wb;
  return ct__bk_where(ks, c, ct__wrap_scalar(&wa, a), ct__wrap_scalar(&wb, b));
}

/* ---- masked_fill: where(mask, value, self) in self's dtype ---- */
static ct_status ct__pw_masked_fill(ct_tensor *out, ct_tensor *self, ct_tensor *mask, ct_tensor *value,
                                    ct_tensor **result) {
  ct_tensor *in[3];
  if (value->ndim != 0)
    return ct_fail(CT_ERR_SHAPE, "masked_fill",
                   "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value->ndim);
  in[0] = mask, in[1] = value, in[2] = self;
  return ct__pw_run(&ct__pw_d_MASKED_FILL, out, 3, in, NULL, result);
}
static ct_tensor *ct__bk_masked_fill_tensor(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *value) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_masked_fill(NULL, self, mask, value, &r);
  return r;
}
static ct_status ct__bk_masked_fill_tensor_(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *value) {
  (void)ks;
  return ct__pw_masked_fill(self, self, mask, value, NULL);
}
static ct_status ct__bk_masked_fill_tensor_out(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *value, ct_tensor *out) {
  (void)ks;
  return ct__pw_masked_fill(out, self, mask, value, NULL);
}
static ct_tensor *ct__bk_masked_fill(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_scalar value) {
  ct__wrapped w;
  return ct__bk_masked_fill_tensor(ks, self, mask, ct__wrap_scalar(&w, value));
}
static ct_status ct__bk_masked_fill_(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_scalar value) {
  ct__wrapped w;
  return ct__bk_masked_fill_tensor_(ks, self, mask, ct__wrap_scalar(&w, value));
}
static ct_status ct__bk_masked_fill_out(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_scalar value, ct_tensor *out) {
  ct__wrapped w;
  return ct__bk_masked_fill_tensor_out(ks, self, mask, ct__wrap_scalar(&w, value), out);
}

/* ---- lerp: self, end and a tensor weight share one floating dtype ---- */
static ct_status ct__pw_lerp(ct_tensor *out, ct_tensor *self, ct_tensor *end, ct_tensor *weight, ct_scalar w,
                             ct_tensor **result) {
  ct_tensor *in[3];
  ct__pw_ctx ctx;
  if (!self || !end || (!weight && w.kind == CT_SCALAR_NONE)) return ct_fail(CT_ERR_INVALID, "lerp", "an input is NULL or None");
  if (end->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, "lerp", "expected dtype %s for `end` but got dtype %s", ct_dtype_name((ct_dtype)self->dtype),
                   ct_dtype_name((ct_dtype)end->dtype));
  if (weight && weight->dtype != self->dtype)
    return ct_fail(CT_ERR_DTYPE, "lerp", "expected dtype %s for `weight` but got dtype %s", ct_dtype_name((ct_dtype)self->dtype),
                   ct_dtype_name((ct_dtype)weight->dtype));
  in[0] = self, in[1] = end, in[2] = weight;
  ctx.v = ct_scalar_to_double(w);
  ctx.vi = 0;
  ctx.s = w;
  return ct__pw_run(weight ? &ct__pw_d_LERP : &ct__pw_d_LERP_S, out, weight ? 3 : 2, in, &ctx, result);
}
static ct_tensor *ct__bk_lerp(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_scalar w) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_lerp(NULL, self, end, NULL, w, &r);
  return r;
}
static ct_status ct__bk_lerp_(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_scalar w) {
  (void)ks;
  return ct__pw_lerp(self, self, end, NULL, w, NULL);
}
static ct_status ct__bk_lerp_out(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_scalar w, ct_tensor *out) {
  (void)ks;
  return ct__pw_lerp(out, self, end, NULL, w, NULL);
}
static ct_tensor *ct__bk_lerp_tensor(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_tensor *w) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_lerp(NULL, self, end, w, ct_int(0), &r);
  return r;
}
static ct_status ct__bk_lerp_tensor_(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_tensor *w) {
  (void)ks;
  return ct__pw_lerp(self, self, end, w, ct_int(0), NULL);
}
static ct_status ct__bk_lerp_tensor_out(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_tensor *w, ct_tensor *out) {
  (void)ks;
  return ct__pw_lerp(out, self, end, w, ct_int(0), NULL);
}

/* ---- addcmul / addcdiv: self + value * t1 (op) t2 ---- */
static ct_status ct__pw_addc(const ct__pw_desc *id, ct_tensor *out, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value,
                             ct_tensor **result) {
  ct_tensor *in[3];
  ct__pw_ctx ctx;
  if (!self || !t1 || !t2) return ct_fail(CT_ERR_INVALID, id->name, "an input is NULL");
  if (id == &ct__pw_d_ADDCDIV && ct_dtype_is_integral((ct_dtype)t1->dtype, true) && ct_dtype_is_integral((ct_dtype)t2->dtype, true))
    return ct_fail(CT_ERR_DTYPE, "addcdiv",
                   "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a "
                   "true division of tensor1 and tensor2. Use (input + value * tensor1 / tensor2) for float inputs.");
  if (value.kind == CT_SCALAR_NONE) value = ct_int(1);
  in[0] = self, in[1] = t1, in[2] = t2;
  ctx.v = ct_scalar_to_double(value);
  ctx.vi = ct_scalar_to_int(value); /* a float truncates (it fits the dtype: CT__PW_FIT) */
  ctx.s = value;
  return ct__pw_run(id, out, 3, in, &ctx, result);
}
#define CT__PW_K_ADDC(name, ID)                                                                                           \
  static ct_tensor *ct__bk_##name(ct_keyset ks, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value) {         \
    ct_tensor *r = NULL;                                                                                                  \
    (void)ks;                                                                                                             \
    ct__pw_addc(ID, NULL, self, t1, t2, value, &r);                                                                    \
    return r;                                                                                                             \
  }                                                                                                                       \
  static ct_status ct__bk_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value) {       \
    (void)ks;                                                                                                             \
    return ct__pw_addc(ID, self, self, t1, t2, value, NULL);                                                           \
  }                                                                                                                       \
  static ct_status ct__bk_##name##_out(ct_keyset ks, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value,      \
                                       ct_tensor *out) {                                                                  \
    (void)ks;                                                                                                             \
    return ct__pw_addc(ID, out, self, t1, t2, value, NULL);                                                            \
  }
CT__PW_K_ADDC(addcmul, &ct__pw_d_ADDCMUL)
CT__PW_K_ADDC(addcdiv, &ct__pw_d_ADDCDIV)

/* ---- clamp: scalar bounds (Scalar? min, max) and tensor bounds (Tensor? min, max) ---- */
static ct_status ct__pw_clamp(ct_tensor *out, ct_tensor *self, ct_tensor *lo, ct_tensor *hi, int tensor_bounds,
                              ct_tensor **result) {
  ct_tensor *in[3];
  const ct__pw_desc *id;
  if (!self) return ct_fail(CT_ERR_INVALID, "clamp", "self is NULL");
  if (!lo && !hi) return ct_fail(CT_ERR_INVALID, "clamp", "torch.clamp: At least one of 'min' or 'max' must not be None");
  in[0] = self;
  if (lo && hi) {
    in[1] = lo, in[2] = hi;
    id = tensor_bounds ? &ct__pw_d_CLAMP_T : &ct__pw_d_CLAMP_S;
  } else {
    in[1] = lo ? lo : hi;
    id = lo ? (tensor_bounds ? &ct__pw_d_CLAMP_MIN_T : &ct__pw_d_CLAMP_MIN_S) : (tensor_bounds ? &ct__pw_d_CLAMP_MAX_T : &ct__pw_d_CLAMP_MAX_S);
  }
  return ct__pw_run(id, out, lo && hi ? 3 : 2, in, NULL, result);
}
static ct_status ct__pw_clamp_s(ct_tensor *out, ct_tensor *self, ct_scalar lo, ct_scalar hi, ct_tensor **result) {
  ct__wrapped wl, wh;
  return ct__pw_clamp(out, self, lo.kind == CT_SCALAR_NONE ? NULL : ct__wrap_scalar(&wl, lo),
                      hi.kind == CT_SCALAR_NONE ? NULL : ct__wrap_scalar(&wh, hi), 0, result);
}
static ct_tensor *ct__bk_clamp(ct_keyset ks, ct_tensor *self, ct_scalar lo, ct_scalar hi) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_clamp_s(NULL, self, lo, hi, &r);
  return r;
}
static ct_status ct__bk_clamp_(ct_keyset ks, ct_tensor *self, ct_scalar lo, ct_scalar hi) {
  (void)ks;
  return ct__pw_clamp_s(self, self, lo, hi, NULL);
}
static ct_status ct__bk_clamp_out(ct_keyset ks, ct_tensor *self, ct_scalar lo, ct_scalar hi, ct_tensor *out) {
  (void)ks;
  return ct__pw_clamp_s(out, self, lo, hi, NULL);
}
static ct_tensor *ct__bk_clamp_tensor(ct_keyset ks, ct_tensor *self, ct_tensor *lo, ct_tensor *hi) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_clamp(NULL, self, lo, hi, 1, &r);
  return r;
}
static ct_status ct__bk_clamp_tensor_(ct_keyset ks, ct_tensor *self, ct_tensor *lo, ct_tensor *hi) {
  (void)ks;
  return ct__pw_clamp(self, self, lo, hi, 1, NULL);
}
static ct_status ct__bk_clamp_tensor_out(ct_keyset ks, ct_tensor *self, ct_tensor *lo, ct_tensor *hi, ct_tensor *out) {
  (void)ks;
  return ct__pw_clamp(out, self, lo, hi, 1, NULL);
}

/* ---- binary math functions: hypot, copysign, nextafter, fmax, fmin, heaviside, xlogy, logaddexp, logaddexp2 ----
 * One descriptor per op and one strided loop, as the unary functions
 * (ops/unary.h, whose load / store helpers it shares): the engine's meta
 * step with the dtype decided here, then a loop that reads inputs of any
 * dtype (a chunk at a time, each value rounded to the computing dtype as
 * PyTorch's casts round it) and computes in double, rounding once on the
 * store (nextafter steps in the computing dtype itself; float16 is refused
 * for it, as PyTorch 1.13). The loop goes to a
 * device as a CT_PW_UNARY call of two inputs (a backend without the op runs
 * it through ct_pointwise_on_host). dtype rules:
 *   TO_FLOAT    copysign, xlogy: the promoted dtype, integers and bool give float32
 *   FLOAT_ONLY  hypot, nextafter, logaddexp, logaddexp2: the promoted dtype must be floating
 *   ALL         fmax, fmin: any dtype (integers, bool: max / min)
 *   SAME        heaviside: any dtype, both inputs (and out=) of one dtype
 *   INTEGRAL    bitwise and/or/xor, shifts: integers and bool
 *   INTEGER     gcd, lcm: integers only
 * out= may otherwise be any dtype the result casts to (TensorIterator's binary ops). */
enum { CT__BM_TO_FLOAT, CT__BM_FLOAT_ONLY, CT__BM_ALL, CT__BM_SAME, CT__BM_INTEGRAL, CT__BM_INTEGER };
typedef void (*ct__bm_ffn)(double *a, const double *b, int64_t n, ct_dtype dt);
typedef void (*ct__bm_ifn)(int64_t *a, const int64_t *b, int64_t n, ct_dtype dt);
typedef struct ct__bm_def {
  const char *name;
  int kind;
  ct__bm_ffn f; /* floating: a[i] = f(a[i], b[i]) in double; dt the computing dtype */
  ct__bm_ifn i; /* integers and bool (ALL, SAME, INTEGRAL, INTEGER): in int64, dt the computing dtype */
} ct__bm_def;
#define CT__BM_F(name, EXPR)                                                          \
  static void ct__bm_f_##name(double *av, const double *bv, int64_t n, ct_dtype dt) { \
    int64_t k;                                                                        \
    (void)dt;                                                                         \
    for (k = 0; k < n; k++) {                                                         \
      double a = av[k], b = bv[k];                                                    \
      av[k] = (EXPR);                                                                 \
    }                                                                                 \
  }
#define CT__BM_I(name, EXPR)                                                           \
  static void ct__bm_i_##name(int64_t *av, const int64_t *bv, int64_t n, ct_dtype dt) { \
    int64_t k;                                                                         \
    (void)dt;                                                                          \
    for (k = 0; k < n; k++) {                                                          \
      int64_t a = av[k], b = bv[k];                                                    \
      av[k] = (EXPR);                                                                  \
    }                                                                                  \
  }
/* v wrapped to integer dtype dt (a 0-dim int64 input of another dtype, cast as PyTorch casts) */
static int64_t ct__bm_wrap(int64_t v, ct_dtype dt) {
  return dt == CT_U8 ? (int64_t)(uint8_t)(uint64_t)v : dt == CT_I32 ? (int64_t)(int32_t)(uint32_t)(uint64_t)v
                                                       : dt == CT_BOOL ? (int64_t)(v != 0) : v;
}
/* nextafter of a bfloat16 (sign and magnitude bits, as c10's) */
static uint16_t ct__bm_next16(uint16_t xb, uint16_t yb, double x, double y) {
  if (x == 0) return (uint16_t)((yb & 0x8000u) | 1u); /* the smallest subnormal toward y */
  return (uint16_t)((x < y) == (x > 0) ? xb + 1u : xb - 1u);
}
/* nextafter in the computing dtype: the next representable value after a toward b */
static double ct__bm_nextafter1(double a, double b, ct_dtype dt) {
  if (a != a || b != b) return a + b;
  if (a == b) return b;
  if (dt == CT_F64) return nextafter(a, b);
  if (dt == CT_F32) return (double)nextafterf((float)a, (float)b);
  return (double)ct_bf16_to_f32(ct__bm_next16(ct_f32_to_bf16((float)a), ct_f32_to_bf16((float)b), a, b));
}
/* PyTorch's logaddexp: equal infinities give themselves (no inf - inf) */
static double ct__bm_logaddexp1(double a, double b, int base2) {
  double m = a < b ? b : a, d = fabs(a - b);
  if (fabs(a) == HUGE_VAL && a == b) return a;
  return base2 ? m + log1p(exp2(-d)) / 0.69314718055994530942 : m + log1p(exp(-d));
}
CT__BM_F(hypot, hypot(a, b))
CT__BM_F(copysign, copysign(a, b))
CT__BM_F(nextafter, ct__bm_nextafter1(a, b, dt))
CT__BM_F(fmax, fmax(a, b)) /* a NaN operand loses */
CT__BM_F(fmin, fmin(a, b))
CT__BM_F(heaviside, a == 0 ? b : (double)(a > 0)) /* NaN: 0 */
CT__BM_F(xlogy, b != b ? b : a == 0 ? 0.0 : a * log(b))
CT__BM_F(logaddexp, ct__bm_logaddexp1(a, b, 0))
CT__BM_F(logaddexp2, ct__bm_logaddexp1(a, b, 1))
CT__BM_I(fmax, a < b ? b : a)
CT__BM_I(fmin, b < a ? b : a)
CT__BM_I(heaviside, a == 0 ? b : (int64_t)(a > 0))
CT__BM_I(bitwise_and, a & b)
CT__BM_I(bitwise_or, a | b)
CT__BM_I(bitwise_xor, a ^ b)
/* Shifts as PyTorch 1.13's CPU kernels (plain C++ shifts on x86-64): the count is taken modulo the
 * width the shift runs in, 64 bits for int64 and 32 for the narrower types (C's integer promotion);
 * bits shifted out are lost, a right shift keeps the sign of signed types. */
static int64_t ct__bm_shift1(int64_t a, int64_t b, ct_dtype dt, int left) {
  unsigned c = (unsigned)((uint64_t)b & (dt == CT_I64 ? 63u : 31u));
  if (left) return dt == CT_I64 ? (int64_t)((uint64_t)a << c) : (int64_t)(uint32_t)((uint32_t)(uint64_t)a << c);
  if (dt == CT_I64 || dt == CT_I32) return a < 0 ? ~(~a >> c) : a >> c; /* (arithmetic, without implementation-defined >>) */
  return (int64_t)((uint64_t)a >> c);                                /* uint8 and bool: logical */
}
/* gcd and lcm as PyTorch's calc_gcd (Euclid on |a|, |b|; |INT64_MIN| stays INT64_MIN) in the computing dtype */
static int64_t ct__bm_gcd1(int64_t a, int64_t b, ct_dtype dt) {
  a = ct__bm_wrap(a < 0 ? (int64_t)(0 - (uint64_t)a) : a, dt), b = ct__bm_wrap(b < 0 ? (int64_t)(0 - (uint64_t)b) : b, dt);
  while (a != 0) {
    int64_t c = a;
    a = b % a; /* (a >= 0 or the minimum, never -1) */
    b = c;
  }
  return b;
}
static int64_t ct__bm_lcm1(int64_t a, int64_t b, ct_dtype dt) {
  int64_t g = ct__bm_gcd1(a, b, dt), p;
  if (g == 0) return 0;
  p = ct__bm_wrap((int64_t)((uint64_t)(a / g) * (uint64_t)b), dt); /* (g is never -1) */
  return ct__bm_wrap(p < 0 ? (int64_t)(0 - (uint64_t)p) : p, dt);
}
CT__BM_I(bitwise_left_shift, ct__bm_shift1(a, b, dt, 1))
CT__BM_I(bitwise_right_shift, ct__bm_shift1(a, b, dt, 0))
CT__BM_I(gcd, ct__bm_gcd1(a, b, dt))
CT__BM_I(lcm, ct__bm_lcm1(a, b, dt))
static const ct__bm_def ct__bm_def_hypot = {"hypot", CT__BM_FLOAT_ONLY, ct__bm_f_hypot, NULL};
static const ct__bm_def ct__bm_def_copysign = {"copysign", CT__BM_TO_FLOAT, ct__bm_f_copysign, NULL};
static const ct__bm_def ct__bm_def_nextafter = {"nextafter", CT__BM_FLOAT_ONLY, ct__bm_f_nextafter, NULL};
static const ct__bm_def ct__bm_def_fmax = {"fmax", CT__BM_ALL, ct__bm_f_fmax, ct__bm_i_fmax};
static const ct__bm_def ct__bm_def_fmin = {"fmin", CT__BM_ALL, ct__bm_f_fmin, ct__bm_i_fmin};
static const ct__bm_def ct__bm_def_heaviside = {"heaviside", CT__BM_SAME, ct__bm_f_heaviside, ct__bm_i_heaviside};
static const ct__bm_def ct__bm_def_xlogy = {"xlogy", CT__BM_TO_FLOAT, ct__bm_f_xlogy, NULL};
static const ct__bm_def ct__bm_def_logaddexp = {"logaddexp", CT__BM_FLOAT_ONLY, ct__bm_f_logaddexp, NULL};
static const ct__bm_def ct__bm_def_logaddexp2 = {"logaddexp2", CT__BM_FLOAT_ONLY, ct__bm_f_logaddexp2, NULL};
static const ct__bm_def ct__bm_def_bitwise_and = {"bitwise_and", CT__BM_INTEGRAL, NULL, ct__bm_i_bitwise_and};
static const ct__bm_def ct__bm_def_bitwise_or = {"bitwise_or", CT__BM_INTEGRAL, NULL, ct__bm_i_bitwise_or};
static const ct__bm_def ct__bm_def_bitwise_xor = {"bitwise_xor", CT__BM_INTEGRAL, NULL, ct__bm_i_bitwise_xor};
static const ct__bm_def ct__bm_def_bitwise_left_shift = {"lshift", CT__BM_INTEGRAL, NULL, ct__bm_i_bitwise_left_shift};
static const ct__bm_def ct__bm_def_bitwise_right_shift = {"rshift", CT__BM_INTEGRAL, NULL, ct__bm_i_bitwise_right_shift};
static const ct__bm_def ct__bm_def_gcd = {"gcd", CT__BM_INTEGER, NULL, ct__bm_i_gcd};
static const ct__bm_def ct__bm_def_lcm = {"lcm", CT__BM_INTEGER, NULL, ct__bm_i_lcm};

typedef struct ct__bm_ctx {
  const ct__bm_def *def;
  ct_dtype common, in[2];
} ct__bm_ctx;
/* v rounded to floating dtype dt, as a cast to it rounds */
static double ct__bm_round(double v, ct_dtype dt) {
  return dt == CT_F64 ? v : dt == CT_F32 ? (double)(float)v : ct__pw_rt((double)(float)v, dt);
}
static void ct__bm_loop(char **d, const int64_t *s, int64_t n, void *vctx) {
  const ct__bm_ctx *c = (const ct__bm_ctx *)vctx;
  double fa[CT__UNARY_CHUNK], fb[CT__UNARY_CHUNK];
  int64_t ia[CT__UNARY_CHUNK], ib[CT__UNARY_CHUNK];
  int64_t at, k, j;
  int floating = ct_dtype_is_floating(c->common);
  for (at = 0; at < n; at += k) {
    k = n - at < CT__UNARY_CHUNK ? n - at : CT__UNARY_CHUNK;
    if (floating) {
      ct__unary_load_f(fa, d[1] + at * s[1], s[1], k, c->in[0]);
      ct__unary_load_f(fb, d[2] + at * s[2], s[2], k, c->in[1]);
      if (c->in[0] != c->common)
        for (j = 0; j < k; j++) fa[j] = ct__bm_round(fa[j], c->common);
      if (c->in[1] != c->common)
        for (j = 0; j < k; j++) fb[j] = ct__bm_round(fb[j], c->common);
      c->def->f(fa, fb, k, c->common);
      ct__unary_store_f(d[0] + at * s[0], s[0], fa, k, c->common);
    } else {
      ct__unary_load_i(ia, d[1] + at * s[1], s[1], k, c->in[0]);
      ct__unary_load_i(ib, d[2] + at * s[2], s[2], k, c->in[1]);
      if (c->in[0] != c->common)
        for (j = 0; j < k; j++) ia[j] = ct__bm_wrap(ia[j], c->common);
      if (c->in[1] != c->common)
        for (j = 0; j < k; j++) ib[j] = ct__bm_wrap(ib[j], c->common);
      c->def->i(ia, ib, k, c->common);
      ct__unary_store_i(d[0] + at * s[0], s[0], ia, k, c->common);
    }
  }
}
/* out = op(a, b): out NULL gives a new tensor in *result; out == a is in place */
static ct_status ct__bm_run(const ct__bm_def *d, ct_tensor *out, ct_tensor *a, ct_tensor *b, ct_tensor **result) {
  ct_tensor *in[2];
  ct_dtype common;
  ct__bm_ctx c;
  ct__pw_plan pl;
  ct_pointwise_call call;
  ct_status st;
  if (!a || !b) return ct_fail(CT_ERR_INVALID, d->name, "input %d is NULL", a ? 1 : 0);
  in[0] = a, in[1] = b;
  if (out && (st = ct__check_overlaps(d->name, out, 2, in)) != CT_OK) return st; /* first, as PyTorch's TensorIterator */
  if (d->kind == CT__BM_SAME && (a->dtype != b->dtype || (out && out->dtype != a->dtype)))
    return ct_fail(CT_ERR_DTYPE, d->name, "heaviside is not yet implemented for tensors with different dtypes");
  common = ct__result_type(a, b);
  if (d->kind == CT__BM_TO_FLOAT && !ct_dtype_is_floating(common)) common = CT_F32;
  if ((d->kind == CT__BM_FLOAT_ONLY && !ct_dtype_is_floating(common)) ||
      ((d->kind == CT__BM_INTEGRAL || d->kind == CT__BM_INTEGER) && ct_dtype_is_floating(common)) ||
      (d->kind == CT__BM_INTEGER && common == CT_BOOL))
    return ct_fail(CT_ERR_DTYPE, d->name, "\"%s_cpu\" not implemented for '%s'", d->name, ct__dtype_torch_name(common));
  if (d == &ct__bm_def_nextafter && common == CT_F16) /* as PyTorch 1.13 (float32 steps rounded back would do nothing) */
    return ct_fail(CT_ERR_DTYPE, d->name, "\"nextafter_cpu\" not implemented for 'Half'");
  if ((st = ct__pw_meta(&pl, d->name, -1, CT__PW_ALL | CT__PW_ANYIN, out, 2, in, NULL, common)) != CT_OK) return st;
  c.def = d;
  c.common = common;
  c.in[0] = (ct_dtype)a->dtype, c.in[1] = (ct_dtype)b->dtype;
  memset(&call, 0, sizeof call);
  call.op = CT__PW_UNARY;
  call.flags = CT_POINTWISE_ANY_INPUT;
  call.host_loop = ct__bm_loop;
  call.host_ctx = &c;
  st = ct__pw_impl(&pl, &call);
  return ct__pw_finish(&pl, st, result);
}
static ct_tensor *ct__bm_new(const ct__bm_def *d, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r = NULL;
  return ct__bm_run(d, NULL, a, b, &r) == CT_OK ? r : NULL;
}
/* the schema forms: op(Tensor, Tensor), op.out, op_ */
#define CT__BM_K_FO(name)                                                                          \
  static ct_tensor *ct__bk_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b) {                      \
    (void)ks;                                                                                      \
    return ct__bm_new(&ct__bm_def_##name, a, b);                                                   \
  }                                                                                                \
  static ct_status ct__bk_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) { \
    (void)ks;                                                                                      \
    return ct__bm_run(&ct__bm_def_##name, out, a, b, NULL);                                        \
  }
#define CT__BM_K_TT(name)                                                       \
  CT__BM_K_FO(name)                                                             \
  static ct_status ct__bk_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b) { \
    (void)ks;                                                                   \
    return ct__bm_run(&ct__bm_def_##name, self, self, b, NULL);                 \
  }
/* op(Tensor, Scalar), op_(Tensor, Scalar), op(Tensor, Scalar).out: the number as a wrapped 0-dim tensor */
#define CT__BM_K_TS(name)                                                                                  \
  static ct_tensor *ct__bk_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar s) {                      \
    ct__wrapped w;                                                                                         \
    (void)ks;                                                                                              \
    return ct__bm_new(&ct__bm_def_##name, a, ct__wrap_scalar(&w, s));                                      \
  }                                                                                                        \
  static ct_status ct__bk_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar s) {                   \
    ct__wrapped w;                                                                                         \
    (void)ks;                                                                                              \
    return ct__bm_run(&ct__bm_def_##name, self, self, ct__wrap_scalar(&w, s), NULL);                       \
  }                                                                                                        \
  static ct_status ct__bk_##name##_scalar_out(ct_keyset ks, ct_tensor *a, ct_scalar s, ct_tensor *out) {   \
    ct__wrapped w;                                                                                         \
    (void)ks;                                                                                              \
    return ct__bm_run(&ct__bm_def_##name, out, a, ct__wrap_scalar(&w, s), NULL);                           \
  }
CT__BM_K_TT(hypot)
CT__BM_K_TT(copysign)
CT__BM_K_TS(copysign)
CT__BM_K_TT(nextafter)
CT__BM_K_FO(fmax)
CT__BM_K_FO(fmin)
CT__BM_K_TT(heaviside)
CT__BM_K_TT(xlogy)
CT__BM_K_TS(xlogy)
CT__BM_K_FO(logaddexp)
CT__BM_K_FO(logaddexp2)
CT__BM_K_TT(bitwise_and)
CT__BM_K_TS(bitwise_and)
CT__BM_K_TT(bitwise_or)
CT__BM_K_TS(bitwise_or)
CT__BM_K_TT(bitwise_xor)
CT__BM_K_TS(bitwise_xor)
CT__BM_K_TT(bitwise_left_shift)
CT__BM_K_TS(bitwise_left_shift)
CT__BM_K_TT(bitwise_right_shift)
CT__BM_K_TS(bitwise_right_shift)
CT__BM_K_TT(gcd)
CT__BM_K_TT(lcm)
/* op(Scalar self, Tensor other) and its out= */
#define CT__BM_K_ST(name)                                                                                  \
  static ct_tensor *ct__bk_##name##_scalar_self(ct_keyset ks, ct_scalar s, ct_tensor *b) {                 \
    ct__wrapped w;                                                                                         \
    (void)ks;                                                                                              \
    return ct__bm_new(&ct__bm_def_##name, ct__wrap_scalar(&w, s), b);                                      \
  }                                                                                                        \
  static ct_status ct__bk_##name##_scalar_self_out(ct_keyset ks, ct_scalar s, ct_tensor *b, ct_tensor *out) { \
    ct__wrapped w;                                                                                         \
    (void)ks;                                                                                              \
    return ct__bm_run(&ct__bm_def_##name, out, ct__wrap_scalar(&w, s), b, NULL);                           \
  }
CT__BM_K_ST(bitwise_and)
CT__BM_K_ST(bitwise_or)
CT__BM_K_ST(bitwise_xor)
CT__BM_K_ST(bitwise_left_shift)
CT__BM_K_ST(bitwise_right_shift)
/* xlogy(Scalar self, Tensor other) and its out= */
static ct_tensor *ct__bk_xlogy_scalar_self(ct_keyset ks, ct_scalar s, ct_tensor *b) {
  ct__wrapped w;
  (void)ks;
  return ct__bm_new(&ct__bm_def_xlogy, ct__wrap_scalar(&w, s), b);
}
static ct_status ct__bk_xlogy_scalar_self_out(ct_keyset ks, ct_scalar s, ct_tensor *b, ct_tensor *out) {
  ct__wrapped w;
  (void)ks;
  return ct__bm_run(&ct__bm_def_xlogy, out, ct__wrap_scalar(&w, s), b, NULL);
}

/* ---- ldexp: self * 2^other (CompositeImplicitAutograd, as PyTorch's: integers give float32) ---- */
static ct_tensor *ct__bk_ldexp(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE { r = ct_keep(ct_mul(self, ct_pow_scalar_self(ct_float(2.0), other))); }
  return r;
}
static ct_status ct__bk_ldexp_(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  ct_status st = CT_OK;
  (void)ks;
  CT_SCOPE { st = ct_mul_(self, ct_pow_scalar_self(ct_float(2.0), other)); }
  return st;
}
static ct_status ct__bk_ldexp_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  ct_status st = CT_OK;
  (void)ks;
  CT_SCOPE { st = ct_mul_out(out, self, ct_pow_scalar_self(ct_float(2.0), other)); }
  return st;
}

/* ---- float_power: pow computed in float64, CompositeImplicitAutograd as PyTorch's
 * (the inputs converted with to(), so autograd flows through the conversion); the
 * in-place form needs a float64 self and out= a float64 out ---- */
static ct_status ct__bk_float_power_check(const char *what, ct_tensor *t) {
  if (!t) return ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
  if (t->dtype != CT_F64)
    return ct_fail(CT_ERR_DTYPE, "float_power", "the %s given to float_power%s has dtype %s but the operation's result requires dtype Double",
                   what, what[0] == 'b' ? "_" : "", ct__dtype_torch_name((ct_dtype)t->dtype));
  return CT_OK;
}
static ct_tensor *ct__bk_float_power(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r = NULL;
  (void)ks;
  if (!a || !b) {
    ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
    return NULL;
  }
  CT_SCOPE { r = ct_keep(ct_pow(ct_to_dtype(a, CT_F64), ct_to_dtype(b, CT_F64))); }
  return r;
}
static ct_status ct__bk_float_power_(ct_keyset ks, ct_tensor *self, ct_tensor *b) {
  ct_status st = CT_OK;
  (void)ks;
  if (ct__bk_float_power_check("base", self) != CT_OK || !b) return b ? ct_last_error() : ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
  CT_SCOPE { st = ct_pow_(self, ct_to_dtype(b, CT_F64)); }
  return st;
}
static ct_status ct__bk_float_power_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  ct_status st = CT_OK;
  (void)ks;
  if (ct__bk_float_power_check("output", out) != CT_OK) return ct_last_error();
  if (!a || !b) return ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
  CT_SCOPE { st = ct_pow_out(out, ct_to_dtype(a, CT_F64), ct_to_dtype(b, CT_F64)); }
  return st;
}
static ct_tensor *ct__bk_float_power_scalar(ct_keyset ks, ct_tensor *a, ct_scalar e) {
  ct_tensor *r = NULL;
  (void)ks;
  if (!a) {
    ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
    return NULL;
  }
  CT_SCOPE { r = ct_keep(ct_pow_scalar(ct_to_dtype(a, CT_F64), ct_float(ct_scalar_to_double(e)))); }
  return r;
}
static ct_status ct__bk_float_power_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar e) {
  (void)ks;
  if (ct__bk_float_power_check("base", self) != CT_OK) return ct_last_error();
  return ct_pow_scalar_(self, ct_float(ct_scalar_to_double(e)));
}
static ct_status ct__bk_float_power_scalar_out(ct_keyset ks, ct_tensor *a, ct_scalar e, ct_tensor *out) {
  ct_status st = CT_OK;
  (void)ks;
  if (ct__bk_float_power_check("output", out) != CT_OK) return ct_last_error();
  if (!a) return ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
  CT_SCOPE { st = ct_pow_scalar_out(out, ct_to_dtype(a, CT_F64), ct_float(ct_scalar_to_double(e))); }
  return st;
}
static ct_tensor *ct__bk_float_power_scalar_self(ct_keyset ks, ct_scalar s, ct_tensor *e) {
  ct_tensor *r = NULL;
  (void)ks;
  if (!e) {
    ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
    return NULL;
  }
  CT_SCOPE { r = ct_keep(ct_pow_scalar_self(ct_float(ct_scalar_to_double(s)), ct_to_dtype(e, CT_F64))); }
  return r;
}
static ct_status ct__bk_float_power_scalar_self_out(ct_keyset ks, ct_scalar s, ct_tensor *e, ct_tensor *out) {
  ct_status st = CT_OK;
  (void)ks;
  if (ct__bk_float_power_check("output", out) != CT_OK) return ct_last_error();
  if (!e) return ct_fail(CT_ERR_INVALID, "float_power", "an input is NULL");
  CT_SCOPE { st = ct_pow_scalar_self_out(out, ct_float(ct_scalar_to_double(s)), ct_to_dtype(e, CT_F64)); }
  return st;
}

/* ================= derivative helpers (gen/derivatives/binary.spec) ================= */
static ct_scalar ct__pw_one_minus(ct_scalar w) {
  if (w.kind == CT_SCALAR_INT) return ct_int(1 - w.v.i);
  return ct_float(1.0 - ct_scalar_to_double(w));
}
/* div with a rounding mode: as div for None, else grad * 0 (PyTorch) */
static ct_tensor *ct__pw_div_mode_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *other, const char *mode, int wrt_other) {
  if (mode) return ct_mul_scalar(grad, ct_int(0));
  return wrt_other ? ct__div_other_backward(grad, self, other) : ct_div(grad, other);
}
static ct_tensor *ct__pw_div_scalar_mode_backward(ct_tensor *grad, ct_scalar other, const char *mode) {
  return mode ? ct_mul_scalar(grad, ct_int(0)) : ct_div_scalar(grad, other);
}
/* d(x^e)/dx for a scalar e: 0 when e == 0, else grad * e * x^(e-1) */
static ct_tensor *ct__pw_pow_scalar_backward(ct_tensor *grad, ct_tensor *self, ct_scalar e) {
  ct_scalar em1;
  if (ct_scalar_to_double(e) == 0) return ct_mul_scalar(grad, ct_int(0));
  em1 = e.kind == CT_SCALAR_INT && e.v.i != INT64_MIN ? ct_int(e.v.i - 1) : ct_float(ct_scalar_to_double(e) - 1); /* (INT64_MIN - 1 overflows) */
  return ct_mul(grad, ct_mul_scalar(ct_pow_scalar(self, em1), e));
}
static ct_tensor *ct__pw_pow_self_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *e) {
  return ct_where_scalar_self(ct_eq_scalar(e, ct_int(0)), ct_int(0),
                              ct_mul(grad, ct_mul(e, ct_pow(self, ct_sub_scalar(e, ct_int(1))))));
}
/* d(x^e)/de = x^e log x, and 0 where x == 0 and e >= 0 */
static ct_tensor *ct__pw_pow_exponent_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *e, ct_tensor *result) {
  ct_tensor *cond = ct_logical_and(ct_eq_scalar(self, ct_int(0)), ct_ge_scalar(e, ct_int(0)));
  return ct_mul(grad, ct_where_scalar_self(cond, ct_int(0), ct_mul(result, ct_log(self))));
}
/* pow(Scalar base, Tensor e): d/de = base^e log(base), 0 where base == 0 and e >= 0 */
static ct_tensor *ct__pw_pow_base_backward(ct_tensor *grad, ct_scalar base, ct_tensor *e, ct_tensor *result) {
  double b = ct_scalar_to_double(base);
  ct_tensor *g;
  if (!e || !result) return NULL;
  g = ct_mul_scalar(ct_mul(grad, result), ct_float(log(b)));
  return b == 0 ? ct_where_scalar_self(ct_ge_scalar(e, ct_int(0)), ct_int(0), g) : g;
}
/* maximum (is_max) / minimum: x gets grad where it wins, half on ties */
static ct_tensor *ct__pw_minmax_backward(ct_tensor *grad, ct_tensor *x, ct_tensor *y, int is_max) {
  ct_tensor *g = ct_where(ct_eq(x, y), ct_div_scalar(grad, ct_int(2)), grad);
  return ct_masked_fill(g, is_max ? ct_lt(x, y) : ct_gt(x, y), ct_int(0));
}
static ct_tensor *ct__pw_atan2_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *other, int wrt_other) {
  ct_tensor *den = ct_add(ct_mul(self, self), ct_mul(other, other));
  return wrt_other ? ct_neg(ct_div(ct_mul(grad, self), den)) : ct_div(ct_mul(grad, other), den);
}
static ct_tensor *ct__pw_clamp_backward(ct_tensor *grad, ct_tensor *self, ct_scalar lo, ct_scalar hi) {
  ct_tensor *keep = NULL;
  if (lo.kind != CT_SCALAR_NONE) keep = ct_ge_scalar(self, lo);
  if (hi.kind != CT_SCALAR_NONE) keep = keep ? ct_logical_and(keep, ct_le_scalar(self, hi)) : ct_le_scalar(self, hi);
  return keep ? ct_where_scalar_other(keep, grad, ct_int(0)) : grad;
}
static ct_tensor *ct__pw_clamp_tensor_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *lo, ct_tensor *hi) {
  ct_tensor *keep = NULL;
  if (lo) keep = ct_ge(self, lo);
  if (hi) keep = keep ? ct_logical_and(keep, ct_le(self, hi)) : ct_le(self, hi);
  return keep ? ct_where_scalar_other(keep, grad, ct_int(0)) : grad;
}
/* the bounds' gradients, as PyTorch's clamp_backward_min_max */
static ct_tensor *ct__pw_clamp_bound_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *lo, ct_tensor *hi, int wrt_max) {
  ct_tensor *take;
  if (lo && hi)
    take = wrt_max ? ct_logical_or(ct_gt(self, hi), ct_lt(hi, lo)) : ct_logical_and(ct_lt(self, lo), ct_lt(lo, hi));
  else
    take = wrt_max ? ct_gt(self, hi) : ct_lt(self, lo);
  return ct_where_scalar_other(take, grad, ct_int(0));
}

/* hypot: grad * x / result (x the input the gradient is for) */
static ct_tensor *ct__pw_hypot_backward(ct_tensor *grad, ct_tensor *x, ct_tensor *result) {
  return ct_div(ct_mul(grad, x), result);
}
/* copysign: grad * result / self, 0 where self == 0 (PyTorch's copysign_tensor_self_backward) */
static ct_tensor *ct__pw_copysign_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *result) {
  ct_tensor *zero = ct_eq_scalar(self, ct_int(0));
  ct_tensor *ratio = ct_div(result, ct_where_scalar_self(zero, ct_int(1), self));
  return ct_mul(grad, ct_where_scalar_self(zero, ct_int(0), ratio));
}
/* fmax (is_max) / fmin: self takes grad where it is chosen: self >= other (<= for fmin) or other is NaN */
static ct_tensor *ct__pw_fminmax_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *other, int is_max, int wrt_other) {
  ct_tensor *self_wins = ct_logical_or(is_max ? ct_ge(self, other) : ct_le(self, other), ct_ne(other, other));
  return ct_masked_fill(grad, wrt_other ? self_wins : ct_logical_not(self_wins), ct_int(0));
}
/* xlogy: d/dself = grad * xlogy(self != 0, other); d/dother = grad * self / other */
static ct_tensor *ct__pw_xlogy_self_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *other) {
  return ct_mul(grad, ct_xlogy(ct_ne_scalar(self, ct_int(0)), other));
}
/* (the Scalar form: log(other) in self's dtype, as PyTorch's gradient comes out) */
static ct_tensor *ct__pw_xlogy_self_scalar_backward(ct_tensor *grad, ct_tensor *self, ct_scalar other) {
  ct_tensor *nz = ct_ne_scalar(self, ct_int(0));
  return ct_mul(grad, ct_xlogy_scalar(nz ? ct_to_dtype(nz, (ct_dtype)self->dtype) : NULL, other));
}
/* logaddexp: grad / (1 + exp(y - x)); base 2: grad / (1 + 2^(y - x)) */
static ct_tensor *ct__pw_logaddexp_backward(ct_tensor *grad, ct_tensor *x, ct_tensor *y, int base2) {
  ct_tensor *d = ct_sub(y, x);
  return ct_div(grad, ct_add_scalar(base2 ? ct_exp2(d) : ct_exp(d), ct_int(1)));
}

CT_EXTERN_C_END
#endif /* CT__OPS_BINARY_IMPL */
