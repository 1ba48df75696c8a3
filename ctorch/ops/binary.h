/* ctorch/ops/binary.h - reference kernels: pointwise binary and ternary ops, comparisons, logical ops, where, clamp.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/binary.spec and their derivatives in
 * gen/derivatives/binary.spec; the frontends are generated (docs/ops.md).
 *
 * One mechanism serves them all: an X-macro table of scalar expressions
 * (one per dtype class: floating, integer, bool) expands into one strided
 * loop per (op, dtype), and one driver, ct__pw_run, does what every op
 * shares: device checks, broadcasting, PyTorch's type promotion (0-dim
 * tensors and numbers rank below dimensioned tensors), the out= and
 * in-place rules, casts, the meta device, and integer division by zero.
 * where and masked_fill select bytes, whatever the dtype.
 */
#ifndef CT_OPS_BINARY_H
#define CT_OPS_BINARY_H

#include "../ops.h"

#endif /* CT_OPS_BINARY_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_BINARY_IMPL)
#define CT__OPS_BINARY_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- scalar functions ---- */
typedef struct ct__pw_ctx {
  double v;    /* a Scalar parameter: addcmul's value, lerp's weight */
  int64_t vi;  /* the same, for integer dtypes */
  ct_scalar s; /* the same as given (CT__PW_FIT checks it) */
} ct__pw_ctx;

/* PyTorch's div_floor_floating; f32 rounds each step to float as float math would */
static double ct__pw_floordiv(double a, double b, int f32) {
  double mod, div, fl;
  if (b == 0) return a / b;
  mod = fmod(a, b);
  div = a - mod;
  if (f32) div = (float)div;
  div /= b;
  if (f32) div = (float)div;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div != 0) {
    fl = floor(div);
    if (div - fl > 0.5) fl += 1;
  } else {
    fl = copysign(0.0, a / b);
  }
  return fl;
}
static double ct__pw_fremainder(double a, double b) {
  double m = fmod(a, b);
  if (m != 0 && (b < 0) != (m < 0)) m += b;
  return m;
}
/* integers: INT64_MIN / -1 wraps. A zero divisor is refused before the
 * loop (ZeroDivisionError); one that appears during it (the op writing its
 * own divisor through a geometry whose overlap PyTorch does not decide, such
 * as an expanded divisor read after an element it aliases was written)
 * gives 0 here instead of trapping: the test costs nothing measurable next
 * to the division. */
static int64_t ct__pw_idiv_trunc(int64_t a, int64_t b) { return b == -1 ? (int64_t)(0 - (uint64_t)a) : b == 0 ? 0 : a / b; }
static int64_t ct__pw_idiv_floor(int64_t a, int64_t b) {
  int64_t q, r;
  if (b == -1) return (int64_t)(0 - (uint64_t)a);
  if (b == 0) return 0;
  q = a / b, r = a % b;
  return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q;
}
static int64_t ct__pw_imod(int64_t a, int64_t b) { return b == -1 || b == 0 ? 0 : a % b; }
static int64_t ct__pw_iremainder(int64_t a, int64_t b) {
  int64_t r = ct__pw_imod(a, b);
  return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}
/* integer power with wrap-around; negative exponents give 1, -1 or 0 as PyTorch */
static int64_t ct__pw_ipow(int64_t a, int64_t b) {
  uint64_t r = 1, x = (uint64_t)a;
  if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
  while (b) {
    if (b & 1) r *= x;
    x *= x;
    b >>= 1;
  }
  return (int64_t)r;
}
static int64_t ct__pw_iaddcmul(int64_t a, int64_t v, int64_t b, int64_t c) {
  return (int64_t)((uint64_t)a + (uint64_t)v * (uint64_t)b * (uint64_t)c);
}
/* x rounded to the storage dtype dt, as PyTorch's Half / BFloat16 operators round */
static double ct__pw_rt(double x, ct_dtype dt) {
  return dt == CT_F16 ? ct_f16_to_f32(ct_f32_to_f16((float)x)) : dt == CT_BF16 ? ct_bf16_to_f32(ct_f32_to_bf16((float)x)) : x;
}
/* std::max / std::min (a NaN second operand loses); CT__PW_NAN: a NaN operand wins */
#define CT__PW_MAX(a, b) ((a) < (b) ? (b) : (a))
#define CT__PW_MIN(a, b) ((b) < (a) ? (b) : (a))
#define CT__PW_NAN(a, b, e) ((a) != (a) ? (a) : (b) != (b) ? (b) : (e))

/* Flags of an op: dtype classes it runs on, and its dtype rules. */
enum {
  CT__PW_FL = 1,       /* floating dtypes */
  CT__PW_IN = 2,       /* integer dtypes */
  CT__PW_BO = 4,       /* bool */
  CT__PW_TOF = 8,      /* integer and bool inputs compute in float32 (int_to_float) */
  CT__PW_LOGIC = 16,   /* inputs are truth values: compute in bool */
  CT__PW_ZDIV = 32,    /* integer division: input 1 must have no zeros */
  CT__PW_BOOLOUT = 64, /* the result is bool */
  CT__PW_FIT = 128     /* numbers and the Scalar parameter must fit the computing dtype (c10::checked_convert) */
};
#define CT__PW_ALL (CT__PW_FL | CT__PW_IN | CT__PW_BO)
#define CT__PW_NUM (CT__PW_FL | CT__PW_IN)

/* X(ID, name, inputs, flags, floating expression, integer expression, bool expression):
 * results in the computing dtype. The expressions see a, b, c (the inputs:
 * float or double for floating dtypes, int64_t otherwise), v (the op's
 * Scalar parameter in that type) and dt (the computing dtype); those of
 * the dtype classes an op does not run on are 0. */
#define CT__PW_VALUE_OPS(X)                                                                                                   \
  X(DIV_TRUNC, "div_trunc", 2, CT__PW_NUM | CT__PW_ZDIV, trunc(ct__pw_rt(a / b, dt)), ct__pw_idiv_trunc(a, b), 0)             \
  X(DIV_FLOOR, "div_floor", 2, CT__PW_NUM | CT__PW_ZDIV, ct__pw_floordiv(a, b, sizeof a == 4), ct__pw_idiv_floor(a, b), 0)   \
  X(REMAINDER, "remainder", 2, CT__PW_NUM | CT__PW_ZDIV, ct__pw_fremainder(a, b), ct__pw_iremainder(a, b), 0)               \
  X(FMOD, "fmod", 2, CT__PW_NUM | CT__PW_ZDIV, fmod(a, b), ct__pw_imod(a, b), 0)                                              \
  X(POW, "pow", 2, CT__PW_NUM, pow(a, b), ct__pw_ipow(a, b), 0)                                                                \
  X(MAXIMUM, "maximum", 2, CT__PW_ALL, CT__PW_NAN(a, b, CT__PW_MAX(a, b)), CT__PW_MAX(a, b), a | b)                           \
  X(MINIMUM, "minimum", 2, CT__PW_ALL, CT__PW_NAN(a, b, CT__PW_MIN(a, b)), CT__PW_MIN(a, b), a & b)                           \
  X(ATAN2, "atan2", 2, CT__PW_FL | CT__PW_TOF, atan2(a, b), 0, 0)                                                              \
  X(LERP, "lerp", 3, CT__PW_FL, fabs((double)c) < 0.5 ? a + c * (b - a) : b - (b - a) * (1 - c), 0, 0)                        \
  X(LERP_S, "lerp", 2, CT__PW_FL, fabs((double)v) < 0.5 ? a + v * (b - a) : b - (b - a) * (1 - v), 0, 0)                      \
  X(ADDCMUL, "addcmul", 3, CT__PW_NUM | CT__PW_FIT, a + v * b * c, ct__pw_iaddcmul(a, v, b, c), 0)                            \
  X(ADDCDIV, "addcdiv", 3, CT__PW_FL | CT__PW_FIT, a + v * b / c, 0, 0)                                                        \
  /* number bounds: std::min(std::max(a, lo), hi), so a NaN bound is ignored; no bool results (as torch.clamp) */            \
  X(CLAMP_S, "clamp", 3, CT__PW_NUM | CT__PW_FIT, CT__PW_MIN(CT__PW_MAX(a, b), c), CT__PW_MIN(CT__PW_MAX(a, b), c), 0)        \
  X(CLAMP_MIN_S, "clamp_min", 2, CT__PW_NUM | CT__PW_FIT, CT__PW_MAX(a, b), CT__PW_MAX(a, b), 0)                              \
  X(CLAMP_MAX_S, "clamp_max", 2, CT__PW_NUM | CT__PW_FIT, CT__PW_MIN(a, b), CT__PW_MIN(a, b), 0)                              \
  /* tensor bounds: a NaN bound propagates */                                                                                \
  X(CLAMP_T, "clamp", 3, CT__PW_ALL, a != a ? a : CT__PW_NAN(b, c, CT__PW_MIN(CT__PW_MAX(a, b), c)),                          \
    CT__PW_MIN(CT__PW_MAX(a, b), c), CT__PW_MIN(CT__PW_MAX(a, b), c))                                                         \
  X(CLAMP_MIN_T, "clamp_min", 2, CT__PW_ALL, CT__PW_NAN(a, b, CT__PW_MAX(a, b)), CT__PW_MAX(a, b), CT__PW_MAX(a, b))          \
  X(CLAMP_MAX_T, "clamp_max", 2, CT__PW_ALL, CT__PW_NAN(a, b, CT__PW_MIN(a, b)), CT__PW_MIN(a, b), CT__PW_MIN(a, b))

/* Ops with bool results (the same expression for every dtype class). */
#define CT__PW_BOOL_OPS(X)                                          \
  X(EQ, "eq", 2, CT__PW_ALL | CT__PW_BOOLOUT, a == b)               \
  X(NE, "ne", 2, CT__PW_ALL | CT__PW_BOOLOUT, a != b)               \
  X(LT, "lt", 2, CT__PW_ALL | CT__PW_BOOLOUT, a < b)                \
  X(LE, "le", 2, CT__PW_ALL | CT__PW_BOOLOUT, a <= b)               \
  X(GT, "gt", 2, CT__PW_ALL | CT__PW_BOOLOUT, a > b)                \
  X(GE, "ge", 2, CT__PW_ALL | CT__PW_BOOLOUT, a >= b)               \
  X(AND, "logical_and", 2, CT__PW_BO | CT__PW_LOGIC | CT__PW_BOOLOUT, a && b) \
  X(OR, "logical_or", 2, CT__PW_BO | CT__PW_LOGIC | CT__PW_BOOLOUT, a || b)   \
  X(XOR, "logical_xor", 2, CT__PW_BO | CT__PW_LOGIC | CT__PW_BOOLOUT, a != b) \
  X(NOT, "logical_not", 1, CT__PW_BO | CT__PW_LOGIC | CT__PW_BOOLOUT, !a)

/* ---- loops ----
 * One per (op, dtype): contiguous operands get typed pointers (the compiler
 * vectorises), the rest walk byte strides. Inputs beyond NIN read input 1
 * again and are unused. */
#define CT__PW_BODY(ACC, LOAD, STORE, EXPR, LA, LB, LC, ST)                                            \
  for (i = 0; i < n; i++) {                                                                         \
    ACC a = (ACC)LOAD(LA), b = (ACC)LOAD(LB), c = (ACC)LOAD(LC);                                    \
    (void)a, (void)b, (void)c;                                                                      \
    ST = STORE(EXPR);                                                                               \
  }
#define CT__PW_LOOP(NAME, DT, TI, TO, ACC, LOAD, STORE, NIN, EXPR)                                        \
  static void NAME(char **d, const int64_t *s, int64_t n, void *vctx) {                                  \
    const ct__pw_ctx *ctx = (const ct__pw_ctx *)vctx;                                                    \
    const ct_dtype dt = DT; /* the computing dtype */                                                    \
    const int k1 = (NIN) > 1 ? 2 : 1, k2 = (NIN) > 2 ? 3 : 1;                                           \
    const ACC v = (ACC)0.5 == 0 ? (ACC)ctx->vi : (ACC)ctx->v; /* the Scalar parameter */                 \
    int64_t i;                                                                                            \
    (void)v, (void)dt;                                                                                    \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI) && s[k1] == (int64_t)sizeof(TI) &&    \
        s[k2] == (int64_t)sizeof(TI)) {                                                                   \
      TO *o = (TO *)d[0];                                                                                 \
      const TI *x = (const TI *)d[1], *y = (const TI *)d[k1], *z = (const TI *)d[k2];                     \
      CT__PW_BODY(ACC, LOAD, STORE, EXPR, x[i], y[i], z[i], o[i])                                        \
    } else {                                                                                              \
      CT__PW_BODY(ACC, LOAD, STORE, EXPR, *(const TI *)(d[1] + i * s[1]), *(const TI *)(d[k1] + i * s[k1]), \
                  *(const TI *)(d[k2] + i * s[k2]), *(TO *)(d[0] + i * s[0]))                            \
    }                                                                                                     \
  }

#define CT__PW_ST_F16(x) ct_f32_to_f16((float)(x))
#define CT__PW_ST_BF16(x) ct_f32_to_bf16((float)(x))
#define CT__PW_ST_BOOL(x) ((x) != 0)
#define CT__PW_ST_F32(x) ((float)(x))
#define CT__PW_ST_F64(x) ((double)(x))
#define CT__PW_ST_I64(x) ((int64_t)(x))
#define CT__PW_ST_I32(x) ((int32_t)(x))
#define CT__PW_ST_U8(x) ((uint8_t)(x))
#define CT__PW_LD_I(x) ((int64_t)(x))

/* value ops: the output has the input dtype */
#define CT__PW_DEF_VALUE(ID, name, NIN, FLAGS, F, I, B)                                                    \
  CT__PW_LOOP(ct__pw_##ID##_f32, CT_F32, float, float, float, CT__LOAD_ID, CT__PW_ST_F32, NIN, F)                 \
  CT__PW_LOOP(ct__pw_##ID##_f64, CT_F64, double, double, double, CT__LOAD_ID, CT__PW_ST_F64, NIN, F)             \
  CT__PW_LOOP(ct__pw_##ID##_f16, CT_F16, uint16_t, uint16_t, float, CT__LOAD_F16, CT__PW_ST_F16, NIN, F)          \
  CT__PW_LOOP(ct__pw_##ID##_bf16, CT_BF16, uint16_t, uint16_t, float, CT__LOAD_BF16, CT__PW_ST_BF16, NIN, F)       \
  CT__PW_LOOP(ct__pw_##ID##_i64, CT_I64, int64_t, int64_t, int64_t, CT__PW_LD_I, CT__PW_ST_I64, NIN, I)           \
  CT__PW_LOOP(ct__pw_##ID##_i32, CT_I32, int32_t, int32_t, int64_t, CT__PW_LD_I, CT__PW_ST_I32, NIN, I)           \
  CT__PW_LOOP(ct__pw_##ID##_u8, CT_U8, uint8_t, uint8_t, int64_t, CT__PW_LD_I, CT__PW_ST_U8, NIN, I)             \
  CT__PW_LOOP(ct__pw_##ID##_bool, CT_BOOL, bool, bool, int64_t, CT__PW_LD_I, CT__PW_ST_BOOL, NIN, B)
/* bool ops: any input dtype, bool output */
#define CT__PW_DEF_BOOL(ID, name, NIN, FLAGS, E)                                                           \
  CT__PW_LOOP(ct__pw_##ID##_f32, CT_F32, float, bool, float, CT__LOAD_ID, CT__PW_ST_BOOL, NIN, E)                 \
  CT__PW_LOOP(ct__pw_##ID##_f64, CT_F64, double, bool, double, CT__LOAD_ID, CT__PW_ST_BOOL, NIN, E)               \
  CT__PW_LOOP(ct__pw_##ID##_f16, CT_F16, uint16_t, bool, float, CT__LOAD_F16, CT__PW_ST_BOOL, NIN, E)             \
  CT__PW_LOOP(ct__pw_##ID##_bf16, CT_BF16, uint16_t, bool, float, CT__LOAD_BF16, CT__PW_ST_BOOL, NIN, E)           \
  CT__PW_LOOP(ct__pw_##ID##_i64, CT_I64, int64_t, bool, int64_t, CT__PW_LD_I, CT__PW_ST_BOOL, NIN, E)             \
  CT__PW_LOOP(ct__pw_##ID##_i32, CT_I32, int32_t, bool, int64_t, CT__PW_LD_I, CT__PW_ST_BOOL, NIN, E)             \
  CT__PW_LOOP(ct__pw_##ID##_u8, CT_U8, uint8_t, bool, int64_t, CT__PW_LD_I, CT__PW_ST_BOOL, NIN, E)              \
  CT__PW_LOOP(ct__pw_##ID##_bool, CT_BOOL, bool, bool, int64_t, CT__PW_LD_I, CT__PW_ST_BOOL, NIN, E)
/* pow, atan2, fmod on float operands run in double and round once: deliberate (the reference result) */
CT__PW_VALUE_OPS(CT__PW_DEF_VALUE) /* NOLINT(performance-type-promotion-in-math-fn) */
CT__PW_BOOL_OPS(CT__PW_DEF_BOOL)

#define CT__PW_ENUM_V(ID, name, NIN, FLAGS, F, I, B) CT__PW_##ID,
#define CT__PW_ENUM_B(ID, name, NIN, FLAGS, E) CT__PW_##ID,
enum { CT__PW_VALUE_OPS(CT__PW_ENUM_V) CT__PW_BOOL_OPS(CT__PW_ENUM_B) CT__PW_NOPS };

typedef struct ct__pw_desc {
  const char *name;
  int nin, flags;
  ct_loop_fn loops[CT_DTYPE_NUM]; /* by computing dtype, in ct_dtype order */
} ct__pw_desc;
#define CT__PW_ROW(ID, name, NIN, FLAGS)                                                                          \
  {name, NIN, FLAGS, {ct__pw_##ID##_f32, ct__pw_##ID##_f64, ct__pw_##ID##_f16, ct__pw_##ID##_bf16,              \
                      ct__pw_##ID##_i64, ct__pw_##ID##_i32, ct__pw_##ID##_u8, ct__pw_##ID##_bool}},
#define CT__PW_ROW_V(ID, name, NIN, FLAGS, F, I, B) CT__PW_ROW(ID, name, NIN, FLAGS)
#define CT__PW_ROW_B(ID, name, NIN, FLAGS, E) CT__PW_ROW(ID, name, NIN, FLAGS)
static const ct__pw_desc ct__pw_ops[CT__PW_NOPS] = {CT__PW_VALUE_OPS(CT__PW_ROW_V) CT__PW_BOOL_OPS(CT__PW_ROW_B)};

/* ---- where / masked_fill: select bytes by a bool condition ---- */
#define CT__PW_SELECT_LOOP(NAME, T)                                                          \
  static void NAME(char **d, const int64_t *s, int64_t n, void *ctx) {                       \
    int64_t i;                                                                               \
    (void)ctx;                                                                               \
    for (i = 0; i < n; i++)                                                                  \
      *(T *)(d[0] + i * s[0]) = *(const bool *)(d[1] + i * s[1]) ? *(const T *)(d[2] + i * s[2]) \
                                                                  : *(const T *)(d[3] + i * s[3]); \
  }
CT__PW_SELECT_LOOP(ct__pw_select1, uint8_t)
CT__PW_SELECT_LOOP(ct__pw_select2, uint16_t)
CT__PW_SELECT_LOOP(ct__pw_select4, uint32_t)
CT__PW_SELECT_LOOP(ct__pw_select8, uint64_t)
enum { CT__PW_WHERE = CT__PW_NOPS, CT__PW_MASKED_FILL };

/* ---- the driver ---- */
static const char *ct__pw_name(int id) {
  return id == CT__PW_WHERE ? "where" : id == CT__PW_MASKED_FILL ? "masked_fill" : ct__pw_ops[id].name;
}

/* Is any element of integer tensor t (i64, i32 or u8) zero? */
static void ct__pw_zero_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  int *found = (int *)ctx + 1;
  int es = *(int *)ctx;
  int64_t i;
  for (i = 0; i < n && !*found; i++) {
    const char *p = d[0] + i * s[0];
    *found = es == 8 ? *(const int64_t *)p == 0 : es == 4 ? *(const int32_t *)p == 0 : *(const uint8_t *)p == 0;
  }
}
static int ct__pw_has_zero(ct_tensor *t) {
  int ctx[2];
  ctx[0] = (int)ct_dtype_size((ct_dtype)t->dtype);
  ctx[1] = 0;
  ct_iter_foreach(ct__pw_zero_loop, ctx, 1, &t, t->ndim, t->sizes);
  return ctx[1];
}

/* Integer division by zero: checked on the divisor in the common dtype, and
 * for an out= before the out is resized (a failed call leaves it as it was). */
static ct_status ct__pw_check_divisor(const char *op, ct_tensor *divisor, ct_dtype common) {
  ct__wrapped *w = (divisor->flags & CT_TENSOR_WRAPPED_NUMBER) ? (ct__wrapped *)(void *)divisor : NULL;
  ct_tensor *c = divisor->dtype == common ? ct_retain(divisor) : ct__as_dtype(op, divisor, common, w);
  int zero;
  if (!c) return ct_last_error();
  zero = ct__pw_has_zero(c);
  if (!(c->flags & CT_TENSOR_WRAPPED_NUMBER)) ct_release(c); /* wrapped numbers live on a stack */
  return zero ? ct_fail(CT_ERR_INVALID, op, "ZeroDivisionError: integer division by zero") : CT_OK;
}

/* out = op(in[0..nin)). out NULL: a new tensor in *result. inplace: out is
 * the op's self (its shape and dtype stay). Inputs may be wrapped numbers
 * (ct__wrap_scalar): their container is cast in place when needed.
 * where: in = condition, self, other. masked_fill: in = mask, value, self. */
static ct_status ct__pw_run(int id, ct_tensor *out, int inplace, int nin, ct_tensor **in, const ct__pw_ctx *pctx,
                            ct_tensor **result) {
  const char *op = ct__pw_name(id);
  const int select = id >= CT__PW_NOPS;
  const int flags = select ? CT__PW_ALL | CT__PW_FIT : ct__pw_ops[id].flags;
  int64_t shape[CT_MAX_DIMS], tmp[CT_MAX_DIMS];
  int ndim, i, first = select ? 1 : 0, zdiv;
  int64_t numel;
  ct_dtype common, res_dtype;
  ct_tensor *cin[4] = {NULL, NULL, NULL, NULL}, *dst = NULL, *ops[4];
  ct_device dev;
  ct__result_state rs;
  ct__pw_ctx ctx;
  ct_status st = CT_OK;

  (void)inplace; /* self in place is one of the inputs: ct__prepare_out keeps its shape */
  for (i = 0; i < nin; i++)
    if (!in[i]) return ct_fail(CT_ERR_INVALID, op, "input %d is NULL", i);
  if (out && (st = ct__check_overlaps(op, out, nin, in)) != CT_OK) return st; /* first, as PyTorch's TensorIterator */
  /* devices: a CPU 0-dim tensor (or number) joins any device */
  dev = in[0]->device;
  for (i = 0; i < nin; i++)
    if (!(in[i]->ndim == 0 && in[i]->device.type == CT_DEVICE_CPU)) {
      dev = in[i]->device;
      break;
    }
  for (i = 0; i < nin; i++) /* each on dev, or a CPU 0-dim (not: any operand beside a CPU 0-dim in[0]) */
    if (!ct_device_eq(in[i]->device, dev) && !(in[i]->ndim == 0 && in[i]->device.type == CT_DEVICE_CPU))
      return ct_fail(CT_ERR_DEVICE, op, "expected all tensors to be on the same device, but found at least two devices, %s:%d and %s:%d",
                     ct_device_type_name((ct_device_type)dev.type), dev.index, ct_device_type_name((ct_device_type)in[i]->device.type),
                     in[i]->device.index);
  if (out && !ct__out_device_ok(op, out, dev)) return ct_last_error();
  /* broadcast shape */
  ndim = in[0]->ndim;
  memcpy(shape, in[0]->sizes, sizeof(int64_t) * (size_t)ndim);
  for (i = 1; i < nin; i++) {
    memcpy(tmp, shape, sizeof(int64_t) * (size_t)ndim);
    if ((ndim = ct_broadcast_shapes(op, ndim, tmp, in[i]->ndim, in[i]->sizes, shape)) < 0) return ct_last_error();
  }
  /* dtypes */
  if (select) {
    ct_dtype cd = (ct_dtype)in[0]->dtype;
    if (id == CT__PW_MASKED_FILL && cd != CT_BOOL && cd != CT_U8) /* uint8: deprecated in PyTorch, still accepted */
      return ct_fail(CT_ERR_DTYPE, op, "masked_fill_ only supports boolean masks, but got mask with dtype %s",
                     ct_dtype_name(cd));
    if (id == CT__PW_WHERE && cd != CT_BOOL && cd != CT_U8)
      return ct_fail(CT_ERR_DTYPE, op, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                     ct__dtype_torch_name(cd));
  }
  if (id == CT__PW_MASKED_FILL) {
    common = (ct_dtype)in[2]->dtype;
  } else if (flags & CT__PW_LOGIC) {
    common = CT_BOOL;
  } else {
    rs.dim = rs.zero = rs.wrapped = CT_DTYPE_NONE;
    for (i = first; i < nin; i++) ct__result_update(&rs, in[i]);
    common = ct__combine_categories(rs.dim, ct__combine_categories(rs.zero, rs.wrapped));
    if ((flags & CT__PW_TOF) && !ct_dtype_is_floating(common)) common = CT_F32;
  }
  if (!((ct_dtype_is_floating(common) && (flags & CT__PW_FL)) || (ct_dtype_is_integral(common, false) && (flags & CT__PW_IN)) ||
        (common == CT_BOOL && (flags & CT__PW_BO))))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name(common));
  if (flags & CT__PW_FIT) { /* numbers (and masked_fill's value, which PyTorch reads with item()) convert checked */
    for (i = first; i < nin; i++)
      if (((in[i]->flags & CT_TENSOR_WRAPPED_NUMBER) || (id == CT__PW_MASKED_FILL && i == 1 && !ct__is_meta(in[i]))) &&
          ct__check_scalar(op, ct__tensor_scalar(in[i]), common) != CT_OK)
        return ct_last_error();
    if (pctx && ct__check_scalar(op, pctx->s, common) != CT_OK) return ct_last_error();
  }
  res_dtype = (flags & CT__PW_BOOLOUT) ? CT_BOOL : common;
  zdiv = (flags & CT__PW_ZDIV) && ct_dtype_is_integral(common, false) && dev.type != CT_DEVICE_META &&
         ct__sizes_product(ndim, shape, &numel) && numel > 0;
  if (out) {
    ct_dtype od = (ct_dtype)out->dtype;
    if (od != res_dtype && !ct_can_cast(res_dtype, od))
      return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s",
                     ct__dtype_torch_name(res_dtype), ct__dtype_torch_name(od));
    if (zdiv && ct__pw_check_divisor(op, in[1], common) != CT_OK) return ct_last_error();
    /* self in place, or an out that is an input, keeps its shape */
    if ((st = ct__prepare_out(op, out, ndim, shape, nin, in)) != CT_OK) return st;
  }
  /* the tensor computed into: out itself when its dtype is the result's */
  if (out && out->dtype == res_dtype) dst = ct_retain(out);
  else dst = ct__empty(op, ndim, shape, res_dtype, out ? out->device : dev);
  if (!dst) return ct_last_error();
  if (ct__is_meta(dst) || dst->numel == 0) goto done;
  for (i = 0; i < nin; i++) {
    ct_dtype want = (select && i == 0) ? CT_BOOL : common;
    ct__wrapped *w = (in[i]->flags & CT_TENSOR_WRAPPED_NUMBER) ? (ct__wrapped *)(void *)in[i] : NULL;
    cin[i] = in[i]->dtype == want ? ct_retain(in[i]) : ct__as_dtype(op, in[i], want, w);
    if (!cin[i]) {
      st = ct_last_error();
      goto done;
    }
  }
  if (zdiv && !out && (st = ct__pw_check_divisor(op, cin[1], common)) != CT_OK) goto done;
  memset(&ctx, 0, sizeof ctx);
  if (pctx) ctx = *pctx;
  ops[0] = dst;
  for (i = 0; i < nin; i++) ops[i + 1] = cin[i];
  if (select) {
    static const ct_loop_fn sel[9] = {NULL, ct__pw_select1, ct__pw_select2, NULL, ct__pw_select4, NULL, NULL, NULL, ct__pw_select8};
    ct_iter_foreach(sel[ct_dtype_size(common)], NULL, 4, ops, ndim, shape);
  } else {
    ct_iter_foreach(ct__pw_ops[id].loops[common], &ctx, nin + 1, ops, ndim, shape);
  }
  if (out && dst != out) st = ct__copy_impl(out, dst);
done:
  for (i = 0; i < nin; i++)
    if (cin[i] && !(cin[i]->flags & CT_TENSOR_WRAPPED_NUMBER)) ct_release(cin[i]); /* wrapped numbers live on a stack */
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

static ct_tensor *ct__pw_new(int id, int nin, ct_tensor **in, const ct__pw_ctx *ctx) {
  ct_tensor *r = NULL;
  ct__pw_run(id, NULL, 0, nin, in, ctx, &r);
  return r;
}
static ct_tensor *ct__pw_new2(int id, ct_tensor *a, ct_tensor *b) {
  ct_tensor *in[2];
  in[0] = a, in[1] = b;
  return ct__pw_new(id, 2, in, NULL);
}
static ct_status ct__pw_mut2(int id, ct_tensor *out, int inplace, ct_tensor *a, ct_tensor *b) {
  ct_tensor *in[2];
  in[0] = a, in[1] = b;
  return ct__pw_run(id, out, inplace, 2, in, NULL, NULL);
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
    return ct__pw_mut2(ID, out, 0, a, b);                                                               \
  }
#define CT__PW_K_TT(name, ID)                                                                           \
  CT__PW_K_FO(name, ID)                                                                                 \
  static ct_status ct__bk_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b) {                      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, self, 1, self, b);                                                           \
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
    return ct__pw_mut2(ID, self, 1, self, ct__wrap_scalar(&w, s));                                      \
  }
#define CT__PW_K_TS(name, ID)                                                                           \
  CT__PW_K_TS2(name, ID)                                                                                \
  static ct_status ct__bk_##name##_scalar_out(ct_keyset ks, ct_tensor *a, ct_scalar s, ct_tensor *out) { \
    ct__wrapped w;                                                                                      \
    (void)ks;                                                                                           \
    return ct__pw_mut2(ID, out, 0, a, ct__wrap_scalar(&w, s));                                          \
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
    return ct__pw_mut2(ID, out, 0, ct__wrap_scalar(&w, s), b);                                          \
  }

CT__PW_K_TT(floor_divide, CT__PW_DIV_FLOOR)
CT__PW_K_TS2(floor_divide, CT__PW_DIV_FLOOR)
CT__PW_K_TT(pow, CT__PW_POW)
CT__PW_K_ST(pow, CT__PW_POW)
CT__PW_K_TT(remainder, CT__PW_REMAINDER)
CT__PW_K_TS(remainder, CT__PW_REMAINDER)
CT__PW_K_ST(remainder, CT__PW_REMAINDER)
CT__PW_K_TT(fmod, CT__PW_FMOD)
CT__PW_K_TS(fmod, CT__PW_FMOD)
CT__PW_K_FO(maximum, CT__PW_MAXIMUM)
CT__PW_K_FO(minimum, CT__PW_MINIMUM)
CT__PW_K_TT(atan2, CT__PW_ATAN2)
CT__PW_K_TT(eq, CT__PW_EQ)
CT__PW_K_TS(eq, CT__PW_EQ)
CT__PW_K_TT(ne, CT__PW_NE)
CT__PW_K_TS(ne, CT__PW_NE)
CT__PW_K_TT(lt, CT__PW_LT)
CT__PW_K_TS(lt, CT__PW_LT)
CT__PW_K_TT(le, CT__PW_LE)
CT__PW_K_TS(le, CT__PW_LE)
CT__PW_K_TT(gt, CT__PW_GT)
CT__PW_K_TS(gt, CT__PW_GT)
CT__PW_K_TT(ge, CT__PW_GE)
CT__PW_K_TS(ge, CT__PW_GE)
CT__PW_K_TT(logical_and, CT__PW_AND)
CT__PW_K_TT(logical_or, CT__PW_OR)
CT__PW_K_TT(logical_xor, CT__PW_XOR)
CT__PW_K_TS(clamp_min, CT__PW_CLAMP_MIN_S)
CT__PW_K_TS(clamp_max, CT__PW_CLAMP_MAX_S)
CT__PW_K_TT(clamp_min_tensor, CT__PW_CLAMP_MIN_T)
CT__PW_K_TT(clamp_max_tensor, CT__PW_CLAMP_MAX_T)

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
  return ct__pw_pow_check(a, e) != CT_OK ? NULL : ct__pw_new2(CT__PW_POW, a, ct__wrap_scalar(&w, e));
}
static ct_status ct__bk_pow_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar e) {
  ct__wrapped w;
  (void)ks;
  return ct__pw_pow_check(self, e) != CT_OK ? ct_last_error() : ct__pw_mut2(CT__PW_POW, self, 1, self, ct__wrap_scalar(&w, e));
}
static ct_status ct__bk_pow_scalar_out(ct_keyset ks, ct_tensor *a, ct_scalar e, ct_tensor *out) {
  ct__wrapped w;
  (void)ks;
  return ct__pw_pow_check(a, e) != CT_OK ? ct_last_error() : ct__pw_mut2(CT__PW_POW, out, 0, a, ct__wrap_scalar(&w, e));
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
  return ct__pw_new(CT__PW_NOT, 1, &a, NULL);
}
static ct_status ct__bk_logical_not_(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__pw_run(CT__PW_NOT, self, 1, 1, &self, NULL, NULL);
}
static ct_status ct__bk_logical_not_out(ct_keyset ks, ct_tensor *a, ct_tensor *out) {
  (void)ks;
  return ct__pw_run(CT__PW_NOT, out, 0, 1, &a, NULL, NULL);
}

/* ---- div with a rounding mode: None is div's true division (ctorch/ops.h) ---- */
static int ct__pw_rounding(const char *mode) { /* DIV_TRUNC, DIV_FLOOR, -1 for None, -2 invalid (error set) */
  if (!mode) return -1;
  if (!strcmp(mode, "trunc")) return CT__PW_DIV_TRUNC;
  if (!strcmp(mode, "floor")) return CT__PW_DIV_FLOOR;
  ct_fail(CT_ERR_INVALID, "div", "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '%s'", mode);
  return -2;
}
static ct_tensor *ct__bk_div_mode(ct_keyset ks, ct_tensor *a, ct_tensor *b, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  return id == -2 ? NULL : id < 0 ? ct__k2_div(ks, a, b) : ct__pw_new2(id, a, b);
}
static ct_status ct__bk_div_mode_(ct_keyset ks, ct_tensor *self, ct_tensor *b, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  return id == -2 ? ct_last_error() : id < 0 ? ct__k2_div_(ks, self, b) : ct__pw_mut2(id, self, 1, self, b);
}
static ct_status ct__bk_div_mode_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, const char *rounding_mode, ct_tensor *out) {
  int id = ct__pw_rounding(rounding_mode);
  return id == -2 ? ct_last_error() : id < 0 ? ct__k2_div_out(ks, a, b, out) : ct__pw_mut2(id, out, 0, a, b);
}
static ct_tensor *ct__bk_div_scalar_mode(ct_keyset ks, ct_tensor *a, ct_scalar s, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  ct__wrapped w;
  return id == -2 ? NULL : id < 0 ? ct__k2_div_scalar(ks, a, s) : ct__pw_new2(id, a, ct__wrap_scalar(&w, s));
}
static ct_status ct__bk_div_scalar_mode_(ct_keyset ks, ct_tensor *self, ct_scalar s, const char *rounding_mode) {
  int id = ct__pw_rounding(rounding_mode);
  ct__wrapped w;
  return id == -2 ? ct_last_error() : id < 0 ? ct__k2_div_scalar_(ks, self, s) : ct__pw_mut2(id, self, 1, self, ct__wrap_scalar(&w, s));
}

/* ---- where ---- */
static ct_status ct__pw_where3(ct_tensor *out, ct_tensor *c, ct_tensor *a, ct_tensor *b, ct_tensor **result) {
  ct_tensor *in[3];
  in[0] = c, in[1] = a, in[2] = b;
  return ct__pw_run(CT__PW_WHERE, out, 0, 3, in, NULL, result);
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
static ct_status ct__pw_masked_fill(ct_tensor *out, int inplace, ct_tensor *self, ct_tensor *mask, ct_tensor *value,
                                    ct_tensor **result) {
  ct_tensor *in[3];
  if (value->ndim != 0)
    return ct_fail(CT_ERR_SHAPE, "masked_fill",
                   "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", value->ndim);
  in[0] = mask, in[1] = value, in[2] = self;
  return ct__pw_run(CT__PW_MASKED_FILL, out, inplace, 3, in, NULL, result);
}
static ct_tensor *ct__bk_masked_fill_tensor(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *value) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_masked_fill(NULL, 0, self, mask, value, &r);
  return r;
}
static ct_status ct__bk_masked_fill_tensor_(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *value) {
  (void)ks;
  return ct__pw_masked_fill(self, 1, self, mask, value, NULL);
}
static ct_status ct__bk_masked_fill_tensor_out(ct_keyset ks, ct_tensor *self, ct_tensor *mask, ct_tensor *value, ct_tensor *out) {
  (void)ks;
  return ct__pw_masked_fill(out, 0, self, mask, value, NULL);
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
static ct_status ct__pw_lerp(ct_tensor *out, int inplace, ct_tensor *self, ct_tensor *end, ct_tensor *weight, ct_scalar w,
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
  return ct__pw_run(weight ? CT__PW_LERP : CT__PW_LERP_S, out, inplace, weight ? 3 : 2, in, &ctx, result);
}
static ct_tensor *ct__bk_lerp(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_scalar w) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_lerp(NULL, 0, self, end, NULL, w, &r);
  return r;
}
static ct_status ct__bk_lerp_(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_scalar w) {
  (void)ks;
  return ct__pw_lerp(self, 1, self, end, NULL, w, NULL);
}
static ct_status ct__bk_lerp_out(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_scalar w, ct_tensor *out) {
  (void)ks;
  return ct__pw_lerp(out, 0, self, end, NULL, w, NULL);
}
static ct_tensor *ct__bk_lerp_tensor(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_tensor *w) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_lerp(NULL, 0, self, end, w, ct_int(0), &r);
  return r;
}
static ct_status ct__bk_lerp_tensor_(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_tensor *w) {
  (void)ks;
  return ct__pw_lerp(self, 1, self, end, w, ct_int(0), NULL);
}
static ct_status ct__bk_lerp_tensor_out(ct_keyset ks, ct_tensor *self, ct_tensor *end, ct_tensor *w, ct_tensor *out) {
  (void)ks;
  return ct__pw_lerp(out, 0, self, end, w, ct_int(0), NULL);
}

/* ---- addcmul / addcdiv: self + value * t1 (op) t2 ---- */
static ct_status ct__pw_addc(int id, ct_tensor *out, int inplace, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value,
                             ct_tensor **result) {
  ct_tensor *in[3];
  ct__pw_ctx ctx;
  if (!self || !t1 || !t2) return ct_fail(CT_ERR_INVALID, ct__pw_ops[id].name, "an input is NULL");
  if (id == CT__PW_ADDCDIV && ct_dtype_is_integral((ct_dtype)t1->dtype, true) && ct_dtype_is_integral((ct_dtype)t2->dtype, true))
    return ct_fail(CT_ERR_DTYPE, "addcdiv",
                   "Integer division with addcdiv is no longer supported, and in a future release addcdiv will perform a "
                   "true division of tensor1 and tensor2. Use (input + value * tensor1 / tensor2) for float inputs.");
  if (value.kind == CT_SCALAR_NONE) value = ct_int(1);
  in[0] = self, in[1] = t1, in[2] = t2;
  ctx.v = ct_scalar_to_double(value);
  ctx.vi = ct_scalar_to_int(value); /* a float truncates (it fits the dtype: CT__PW_FIT) */
  ctx.s = value;
  return ct__pw_run(id, out, inplace, 3, in, &ctx, result);
}
#define CT__PW_K_ADDC(name, ID)                                                                                           \
  static ct_tensor *ct__bk_##name(ct_keyset ks, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value) {         \
    ct_tensor *r = NULL;                                                                                                  \
    (void)ks;                                                                                                             \
    ct__pw_addc(ID, NULL, 0, self, t1, t2, value, &r);                                                                    \
    return r;                                                                                                             \
  }                                                                                                                       \
  static ct_status ct__bk_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value) {       \
    (void)ks;                                                                                                             \
    return ct__pw_addc(ID, self, 1, self, t1, t2, value, NULL);                                                           \
  }                                                                                                                       \
  static ct_status ct__bk_##name##_out(ct_keyset ks, ct_tensor *self, ct_tensor *t1, ct_tensor *t2, ct_scalar value,      \
                                       ct_tensor *out) {                                                                  \
    (void)ks;                                                                                                             \
    return ct__pw_addc(ID, out, 0, self, t1, t2, value, NULL);                                                            \
  }
CT__PW_K_ADDC(addcmul, CT__PW_ADDCMUL)
CT__PW_K_ADDC(addcdiv, CT__PW_ADDCDIV)

/* ---- clamp: scalar bounds (Scalar? min, max) and tensor bounds (Tensor? min, max) ---- */
static ct_status ct__pw_clamp(ct_tensor *out, int inplace, ct_tensor *self, ct_tensor *lo, ct_tensor *hi, int tensor_bounds,
                              ct_tensor **result) {
  ct_tensor *in[3];
  int id;
  if (!self) return ct_fail(CT_ERR_INVALID, "clamp", "self is NULL");
  if (!lo && !hi) return ct_fail(CT_ERR_INVALID, "clamp", "torch.clamp: At least one of 'min' or 'max' must not be None");
  in[0] = self;
  if (lo && hi) {
    in[1] = lo, in[2] = hi;
    id = tensor_bounds ? CT__PW_CLAMP_T : CT__PW_CLAMP_S;
  } else {
    in[1] = lo ? lo : hi;
    id = lo ? (tensor_bounds ? CT__PW_CLAMP_MIN_T : CT__PW_CLAMP_MIN_S) : (tensor_bounds ? CT__PW_CLAMP_MAX_T : CT__PW_CLAMP_MAX_S);
  }
  return ct__pw_run(id, out, inplace, lo && hi ? 3 : 2, in, NULL, result);
}
static ct_status ct__pw_clamp_s(ct_tensor *out, int inplace, ct_tensor *self, ct_scalar lo, ct_scalar hi, ct_tensor **result) {
  ct__wrapped wl, wh;
  return ct__pw_clamp(out, inplace, self, lo.kind == CT_SCALAR_NONE ? NULL : ct__wrap_scalar(&wl, lo),
                      hi.kind == CT_SCALAR_NONE ? NULL : ct__wrap_scalar(&wh, hi), 0, result);
}
static ct_tensor *ct__bk_clamp(ct_keyset ks, ct_tensor *self, ct_scalar lo, ct_scalar hi) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_clamp_s(NULL, 0, self, lo, hi, &r);
  return r;
}
static ct_status ct__bk_clamp_(ct_keyset ks, ct_tensor *self, ct_scalar lo, ct_scalar hi) {
  (void)ks;
  return ct__pw_clamp_s(self, 1, self, lo, hi, NULL);
}
static ct_status ct__bk_clamp_out(ct_keyset ks, ct_tensor *self, ct_scalar lo, ct_scalar hi, ct_tensor *out) {
  (void)ks;
  return ct__pw_clamp_s(out, 0, self, lo, hi, NULL);
}
static ct_tensor *ct__bk_clamp_tensor(ct_keyset ks, ct_tensor *self, ct_tensor *lo, ct_tensor *hi) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__pw_clamp(NULL, 0, self, lo, hi, 1, &r);
  return r;
}
static ct_status ct__bk_clamp_tensor_(ct_keyset ks, ct_tensor *self, ct_tensor *lo, ct_tensor *hi) {
  (void)ks;
  return ct__pw_clamp(self, 1, self, lo, hi, 1, NULL);
}
static ct_status ct__bk_clamp_tensor_out(ct_keyset ks, ct_tensor *self, ct_tensor *lo, ct_tensor *hi, ct_tensor *out) {
  (void)ks;
  return ct__pw_clamp(out, 0, self, lo, hi, 1, NULL);
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

CT_EXTERN_C_END
#endif /* CT__OPS_BINARY_IMPL */
