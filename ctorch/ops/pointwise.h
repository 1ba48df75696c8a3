/* ctorch/ops/pointwise.h - the pointwise engine: one meta step and one impl step for every elementwise op, and the per-device loop entry.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Every elementwise op (arithmetic, comparisons, logical ops, where,
 * masked_fill, lerp, addcmul, clamp, the unary functions) runs through this
 * engine, as PyTorch's structured TensorIterator ops:
 *   meta  ct__pw_meta: checks, broadcasting, PyTorch's type promotion (0-dim
 *         tensors and numbers rank below dimensioned tensors), devices (a
 *         CPU 0-dim tensor joins any device), the output's sizes, strides
 *         (those of the inputs, as TensorIterator lays them out), dtype and
 *         device, the out= resize and the in-place rules. It never reads
 *         tensor data. On the meta device this is all that runs.
 *   impl  ct__pw_impl: casts inputs to the computing dtype, then calls the
 *         loop of the output's device type with a ct_pointwise_call, and
 *         casts into an out= of another dtype.
 * The loop entry is per device type (PyTorch's DispatchStub): the CPU's
 * runs the op's host loop; a device registers its own with
 * ct_set_pointwise_loop and every op of the engine then runs on it
 * (ct_pointwise_ops lists the ops and their kernels). Checks that must read
 * data (an integer divisor's zeros) are flags of the call, done by the
 * loop, so a GPU can check them on the device without a sync.
 * The fast lane (ct__pw_fast_operands): contiguous CPU operands of one float
 * dtype and one shape, where the meta step has nothing to decide, skip it
 * and run the op's host loop at once (the common call of a training loop;
 * same results, layout and version bumps as the general path).
 */
#ifndef CT_OPS_POINTWISE_H
#define CT_OPS_POINTWISE_H

#include "../ops.h"

CT_EXTERN_C_BEGIN

/* One elementwise computation, as the engine hands it to a device's loop:
 * out[i] = op(in[0][i], ..., in[ninputs-1][i]) over the broadcast shape.
 * Every input has `dtype` (the computing dtype) unless the op reads any
 * dtype (CT_POINTWISE_ANY_INPUT); out has `dtype`, or bool for comparisons.
 * All operands live on out's device (inputs may also be 0-dim CPU tensors,
 * whose value the loop broadcasts). */
#define CT_POINTWISE_CHECK_DIVISOR 1 /* integer division: a zero in in[1] is an error ("ZeroDivisionError") */
#define CT_POINTWISE_ANY_INPUT 2     /* the op converts its input itself (the unary functions) */
#define CT_POINTWISE_FLAT 4          /* every operand is contiguous in the shape: one flat loop of out->numel */
#define CT_POINTWISE_OUT_OVERLAPS 8  /* out's elements may share memory (an as_strided view): the CPU writes them in order,
                                      * so a device that computes in parallel runs the call through ct_pointwise_on_host */
/* ct_pointwise_call.op: which computation (the engine's table order, checked
 * against it at compile time). A device loop switches on it; the _S forms
 * take their bounds or weight as numbers (0-dim CPU inputs or param), the _T
 * forms as tensors (NaN bounds propagate). CT_PW_UNARY: a unary function
 * named by call->name (its parameters in param, param2, param3, iparam,
 * iparam2 and host_ctx: a device runs the functions it knows natively and
 * the rest through host_loop), or a binary math function of ops/binary.h (hypot, xlogy,
 * logaddexp, ...: two inputs of any dtypes, read by host_loop). CT_PW_WHERE / CT_PW_MASKED_FILL: out = in[0] ? in[1] : in[2],
 * with in[0] bool. CT_PW_COPY: copy_ within one device, out = in[0]
 * converted to out's dtype (PyTorch's casts: floating to integer as on
 * x86-64, integers wrap), in[0] broadcast to the shape. */
typedef enum ct_pointwise_op {
  CT_PW_ADD, CT_PW_SUB, CT_PW_MUL, CT_PW_DIV, CT_PW_THRESHOLD_BW, CT_PW_DIV_TRUNC, CT_PW_DIV_FLOOR, CT_PW_REMAINDER,
  CT_PW_FMOD, CT_PW_POW, CT_PW_MAXIMUM, CT_PW_MINIMUM, CT_PW_ATAN2, CT_PW_LERP, CT_PW_LERP_S, CT_PW_ADDCMUL,
  CT_PW_ADDCDIV, CT_PW_CLAMP_S, CT_PW_CLAMP_MIN_S, CT_PW_CLAMP_MAX_S, CT_PW_CLAMP_T, CT_PW_CLAMP_MIN_T, CT_PW_CLAMP_MAX_T,
  CT_PW_EQ, CT_PW_NE, CT_PW_LT, CT_PW_LE, CT_PW_GT, CT_PW_GE, CT_PW_AND, CT_PW_OR, CT_PW_XOR, CT_PW_NOT,
  CT_PW_WHERE, CT_PW_MASKED_FILL, CT_PW_UNARY, CT_PW_COPY, CT_PW_NUM_OPS
} ct_pointwise_op;
typedef struct ct_pointwise_call {
  int op;                  /* the op's id in its family (CT__PW_<ID>: its ct__pw_d_<ID>, or the unary function) */
  const char *name;        /* the op, for messages */
  ct_dtype dtype;          /* the computing dtype */
  int ninputs, flags;      /* CT_POINTWISE_* */
  ct_tensor *out;          /* written */
  ct_tensor *in[3];        /* read */
  int ndim;                /* the broadcast shape */
  const int64_t *shape;
  double param;            /* the op's Scalar parameter (alpha, weight, value, threshold), as double and */
  int64_t iparam;          /* as integer; CT_PW_UNARY: the function's parameters (unary.h's a, ia) */
  double param2, param3;   /* CT_PW_UNARY only: its further parameters (b, c) */
  int64_t iparam2;         /* CT_PW_UNARY only: (ib) */
  ct_loop_fn host_loop;    /* the op's loop over host memory (ct_iter_foreach's form) and its context */
  void *host_ctx;
} ct_pointwise_call;
typedef ct_status (*ct_pointwise_loop_fn)(const ct_pointwise_call *call);

/* The loop of a device type: the CPU's runs host_loop; other types have
 * none until a backend sets one, and their pointwise ops go through the
 * CPU fallback. Setting a loop also registers every engine op's kernel at
 * the type's backend key (ops a backend already has a kernel for keep it). */
CTDEF ct_status ct_set_pointwise_loop(ct_device_type type, ct_pointwise_loop_fn loop);
CTDEF ct_pointwise_loop_fn ct_pointwise_loop(ct_device_type type);
/* The CPU's loop, for host-memory devices: checks the divisor, runs host_loop. */
CTDEF ct_status ct_host_pointwise_loop(const ct_pointwise_call *call);
/* For a device loop handed a call it has no kernel for (or one it must run
 * in order: an output whose elements share memory): the device memory of
 * the operands is mirrored on the host one storage span at a time, so that
 * operands sharing memory share it there too and the host loop computes
 * exactly what it computes on the CPU; the output's span is copied back.
 * Synchronous (through ct_device_memcpy). */
CTDEF ct_status ct_pointwise_on_host(const ct_pointwise_call *call);

CT_EXTERN_C_END
#endif /* CT_OPS_POINTWISE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_POINTWISE_IMPL)
#define CT__OPS_POINTWISE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- scalar functions ---- */
typedef struct ct__pw_ctx {
  double v;    /* a Scalar parameter: alpha, addcmul's value, lerp's weight, the threshold */
  int64_t vi;  /* the same, for integer dtypes */
  ct_scalar s; /* the same as given (CT__PW_FIT and CT__PW_ALPHA check it) */
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
  CT__PW_FIT = 128,    /* numbers and the Scalar parameter must fit the computing dtype (c10::checked_convert) */
  CT__PW_ALPHA = 256,  /* add/sub: the Scalar parameter is alpha (checked as PyTorch's alpha_check) */
  CT__PW_SELECT = 512, /* where / masked_fill: input 0 is a condition, the others are selected whatever their dtype */
  CT__PW_ANYIN = 1024  /* the loop reads inputs of any dtype (the unary functions): no casts */
};
#define CT__PW_ALL (CT__PW_FL | CT__PW_IN | CT__PW_BO)
#define CT__PW_NUM (CT__PW_FL | CT__PW_IN)

/* X(ID, name, inputs, flags, floating expression, integer expression, bool expression):
 * results in the computing dtype. The expressions see a, b, c (the inputs:
 * float or double for floating dtypes, int64_t otherwise), v (the op's
 * Scalar parameter in that type; vt: the integer parameter converted to the
 * storage type) and dt (the computing dtype); those of
 * the dtype classes an op does not run on are 0. */
#define CT__PW_VALUE_OPS(X)                                                                                                   \
  /* arithmetic: integers wrap (computed in uint64_t), bool add is "or" (alpha must be true to count), mul "and" */         \
  X(ADD, "add", 2, CT__PW_ALL | CT__PW_ALPHA, a + v * b, (int64_t)((uint64_t)a + (uint64_t)v * (uint64_t)b), a || (v && b))  \
  X(SUB, "sub", 2, CT__PW_NUM | CT__PW_ALPHA, a - v * b, (int64_t)((uint64_t)a - (uint64_t)v * (uint64_t)b), 0)             \
  X(MUL, "mul", 2, CT__PW_ALL, a * b, (int64_t)((uint64_t)a * (uint64_t)b), a && b)                                       \
  X(DIV, "div", 2, CT__PW_FL | CT__PW_TOF, a / b, 0, 0)                                                                    \
  /* threshold_backward(grad, self, threshold): 0 where self <= threshold (in self's dtype), else grad (a NaN self passes) */ \
  X(THRESHOLD_BW, "threshold_backward", 2, CT__PW_NUM, b <= v ? 0 : a, b <= (int64_t)vt ? 0 : a, 0)                        \
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
 * vectorises), a tensor and a broadcast number load the number once, the
 * rest walk byte strides. Inputs beyond NIN read input 1 again and are
 * unused. The context is the ct_pointwise_call. */
#define CT__PW_BODY(ACC, LOAD, STORE, EXPR, LA, LB, LC, ST)                                            \
  for (i = 0; i < n; i++) {                                                                         \
    ACC a = (ACC)LOAD(LA), b = (ACC)LOAD(LB), c = (ACC)LOAD(LC);                                    \
    (void)a, (void)b, (void)c;                                                                      \
    ST = STORE(EXPR);                                                                               \
  }
#define CT__PW_LOOP(NAME, DT, TI, TO, ACC, LOAD, STORE, NIN, EXPR)                                        \
  static void NAME(char **d, const int64_t *s, int64_t n, void *vctx) {                                  \
    const ct_pointwise_call *ctx = (const ct_pointwise_call *)vctx;                                      \
    const ct_dtype dt = DT; /* the computing dtype */                                                    \
    const int k1 = (NIN) > 1 ? 2 : 1, k2 = (NIN) > 2 ? 3 : 1;                                           \
    const ACC v = (ACC)0.5 == 0 ? (ACC)ctx->iparam : (ACC)ctx->param; /* the Scalar parameter */         \
    const TI vt = (TI)ctx->iparam;                                                                        \
    int64_t i;                                                                                            \
    (void)v, (void)vt, (void)dt;                                                                          \
    if (s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI) && s[k1] == (int64_t)sizeof(TI) &&    \
        s[k2] == (int64_t)sizeof(TI)) {                                                                   \
      TO *o = (TO *)d[0];                                                                                 \
      const TI *x = (const TI *)d[1], *y = (const TI *)d[k1], *z = (const TI *)d[k2];                     \
      CT__PW_BODY(ACC, LOAD, STORE, EXPR, x[i], y[i], z[i], o[i])                                        \
    } else if ((NIN) == 2 && s[0] == (int64_t)sizeof(TO) && s[1] == (int64_t)sizeof(TI) && s[2] == 0) {  \
      TO *o = (TO *)d[0]; /* tensor (op) number: the number is loaded once */                            \
      const TI *x = (const TI *)d[1];                                                                     \
      const TI y = *(const TI *)d[2];                                                                     \
      CT__PW_BODY(ACC, LOAD, STORE, EXPR, x[i], y, x[i], o[i])                                           \
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

/* One op of the engine: ct__pw_d_<ID>, an object of its own (no table of
 * them all), so a program links the loops of the ops it runs only. */
typedef struct ct__pw_desc {
  int id; /* CT__PW_<ID> (ct_pointwise_call.op) */
  const char *name;
  int nin, flags;
  ct_loop_fn loops[CT_DTYPE_NUM]; /* by computing dtype, in ct_dtype order */
} ct__pw_desc;
#define CT__PW_ROW(ID, name, NIN, FLAGS)                                                                          \
  static const ct__pw_desc ct__pw_d_##ID = {                                                                      \
      CT__PW_##ID, name, NIN, FLAGS, {ct__pw_##ID##_f32, ct__pw_##ID##_f64, ct__pw_##ID##_f16, ct__pw_##ID##_bf16, \
                                      ct__pw_##ID##_i64, ct__pw_##ID##_i32, ct__pw_##ID##_u8, ct__pw_##ID##_bool}};
#define CT__PW_ROW_V(ID, name, NIN, FLAGS, F, I, B) CT__PW_ROW(ID, name, NIN, FLAGS)
#define CT__PW_ROW_B(ID, name, NIN, FLAGS, E) CT__PW_ROW(ID, name, NIN, FLAGS)
CT__PW_VALUE_OPS(CT__PW_ROW_V)
CT__PW_BOOL_OPS(CT__PW_ROW_B)

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
enum { CT__PW_WHERE = CT__PW_NOPS, CT__PW_MASKED_FILL, CT__PW_UNARY }; /* CT__PW_UNARY: a unary function (ops/unary.h) */
/* where / masked_fill: select loops by element size (ct__pw_run) */
static const ct__pw_desc ct__pw_d_WHERE = {CT__PW_WHERE, "where", 3, CT__PW_ALL | CT__PW_FIT | CT__PW_SELECT, {NULL}};
static const ct__pw_desc ct__pw_d_MASKED_FILL = {CT__PW_MASKED_FILL, "masked_fill", 3, CT__PW_ALL | CT__PW_FIT | CT__PW_SELECT, {NULL}};
/* the public ids (ct_pointwise_op) name the same entries */
#define CT__PW_SAME_ID(ID) typedef char ct__pw_id_##ID[(int)CT__PW_##ID == (int)CT_PW_##ID ? 1 : -1];
#define CT__PW_SAME_ID_V(ID, name, NIN, FLAGS, F, I, B) CT__PW_SAME_ID(ID)
#define CT__PW_SAME_ID_B(ID, name, NIN, FLAGS, E) CT__PW_SAME_ID(ID)
CT__PW_VALUE_OPS(CT__PW_SAME_ID_V)
CT__PW_BOOL_OPS(CT__PW_SAME_ID_B)
CT__PW_SAME_ID(WHERE)
CT__PW_SAME_ID(MASKED_FILL)
CT__PW_SAME_ID(UNARY)


/* ---- the meta step ---- */

/* What the meta step decided; the impl step computes it. */
typedef struct ct__pw_plan {
  const char *op;
  int flags, nin;
  ct_tensor *in[3];
  ct_tensor *out;        /* out= or self in place, as given (NULL: functional) */
  ct_tensor *result;     /* functional: the new output (a reference the caller takes) */
  ct_dtype common;       /* the computing dtype */
  ct_dtype res_dtype;    /* the result's dtype (bool for comparisons) */
  ct_device device;
  int ndim, same_shape;  /* same_shape: every input has the broadcast shape */
  int flat;              /* and every operand is contiguous: CT_POINTWISE_FLAT */
  const int64_t *shape;  /* the broadcast shape: an input's sizes, or bshape */
  int64_t bshape[CT_MAX_DIMS];
} ct__pw_plan;

/* The strides of a new output, as TensorIterator lays it out: dimensions
 * ordered by the operands' strides (outputs first, then inputs; broadcast
 * dimensions do not vote, equal strides put the smaller size inside), so an
 * op on transposed or channels-last inputs gives an output of that layout.
 * Returns 0 when that is the contiguous layout. */
static int ct__pw_output_strides(int nops, ct_tensor *const *ops, int ndim, const int64_t *shape, int64_t *strides) {
  int perm[CT_MAX_DIMS], i, j, k, contiguous = 1;
  int64_t st[CT_MAX_DIMS][CT_ITER_MAX_OPERANDS], acc;
  if (ndim < 2) return 0;
  for (k = 0; k < nops; k++) /* each operand's strides over the broadcast shape, 0 where it broadcasts */
    for (i = 0; i < ndim; i++) {
      int d = ops[k]->ndim - ndim + i;
      st[i][k] = d < 0 || (ops[k]->sizes[d] == 1 && shape[i] != 1) ? 0 : ops[k]->strides[d];
    }
  for (i = 0; i < ndim; i++) perm[i] = ndim - 1 - i; /* perm[0] is the innermost dimension */
  for (i = 1; i < ndim; i++) { /* insertion sort, as TensorIterator::reorder_dimensions */
    int d1 = i;
    for (j = i - 1; j >= 0; j--) {
      int a = perm[j], b = perm[d1], cmp = 0;
      for (k = 0; k < nops && !cmp; k++) {
        int64_t s0 = st[a][k], s1 = st[b][k];
        if (s0 == 0 || s1 == 0) continue;
        if (s0 < s1) cmp = -1;
        else if (s0 > s1 || shape[a] > shape[b]) cmp = 1; /* equal strides: the smaller size inside */
      }
      if (cmp > 0) {
        perm[j] = b, perm[d1] = a;
        d1 = j;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  for (i = 0; i < ndim; i++) contiguous &= perm[i] == ndim - 1 - i;
  if (contiguous) return 0;
  for (i = 0, acc = 1; i < ndim; i++) {
    strides[perm[i]] = acc;
    acc = ct__mul_sat(acc, shape[perm[i]]); /* (sizes may overflow: an expanded tensor; the allocation refuses it) */
  }
  return 1;
}
/* Is t row-major contiguous (size-1 dimensions aside)? Inline: the hot path asks. */
static inline int ct__pw_contiguous(const ct_tensor *t) {
  int64_t expected = 1;
  int i;
  if (t->numel == 0) return 1; /* as PyTorch's is_contiguous: an empty tensor is */
  for (i = t->ndim - 1; i >= 0; i--) {
    if (t->sizes[i] != 1 && t->strides[i] != expected) return 0;
    expected = ct__mul_sat(expected, t->sizes[i]); /* (sizes may overflow: an expanded tensor) */
  }
  return 1;
}
/* A new output of the plan's shape, dtype and device, laid out as its inputs. */
static ct_tensor *ct__pw_new_output(ct__pw_plan *pl, ct_dtype dtype, ct_device device) {
  int64_t strides[CT_MAX_DIMS];
  ct_tensor *ops[3];
  int i, n = 0, same = pl->same_shape;
  for (i = 0; i < pl->nin; i++) { /* the common case first: inputs of the output's shape, all contiguous */
    const ct_tensor *t = pl->in[i];
    if (t->flags & CT_TENSOR_WRAPPED_NUMBER || t->ndim == 0) continue;
    same = same && ct__pw_contiguous(t);
    ops[n++] = pl->in[i];
  }
  pl->flat = same; /* (then the new output is contiguous too) */
  if (same || !ct__pw_output_strides(n, ops, pl->ndim, pl->shape, strides))
    return ct__empty(pl->op, pl->ndim, pl->shape, dtype, device);
  return ct__empty_strided(pl->op, pl->ndim, pl->shape, strides, dtype, device);
}
/* Are the inputs and out all contiguous in the (common) shape? */
static int ct__pw_flat(const ct__pw_plan *pl, const ct_tensor *out) {
  int i, flat = pl->same_shape && ct__pw_contiguous(out);
  for (i = 0; flat && i < pl->nin; i++) flat = ct__pw_contiguous(pl->in[i]);
  return flat;
}

/* Checks, sizes, dtypes, device; resizes out=, allocates a functional
 * output (pl->result). Reads no tensor data. out: out= or self in place
 * (self is then in[0], or in[2] for masked_fill). fixed: the computing
 * dtype when the caller decides it (the unary functions), else NONE. */
static CT__HOT_INLINE ct_status ct__pw_meta(ct__pw_plan *pl, const char *op, int id, int flags, ct_tensor *out, int nin, ct_tensor **in,
                                            const ct__pw_ctx *pctx, ct_dtype fixed) {
  int i, first = (flags & CT__PW_SELECT) ? 1 : 0;
  ct_dtype common;
  ct_status st;
  pl->op = op, pl->flags = flags, pl->nin = nin, pl->out = out, pl->result = NULL;
  for (i = 0; i < nin; i++)
    if (!(pl->in[i] = in[i])) return ct_fail(CT_ERR_INVALID, op, "input %d is NULL", i);
  if (out && (st = ct__check_overlaps(op, out, nin, in)) != CT_OK) return st; /* first, as PyTorch's TensorIterator */
  /* devices: a CPU 0-dim tensor (or number) joins any device */
  pl->device = in[0]->device;
  for (i = 0; i < nin; i++)
    if (!(in[i]->ndim == 0 && in[i]->device.type == CT_DEVICE_CPU)) {
      pl->device = in[i]->device;
      break;
    }
  for (i = 0; i < nin; i++)
    if (CT_UNLIKELY(!ct_device_eq(in[i]->device, pl->device)) && !(in[i]->ndim == 0 && in[i]->device.type == CT_DEVICE_CPU))
      return ct_fail(CT_ERR_DEVICE, op, "expected all tensors to be on the same device, but found at least two devices, %s:%d and %s:%d",
                     ct_device_type_name((ct_device_type)pl->device.type), pl->device.index,
                     ct_device_type_name((ct_device_type)in[i]->device.type), in[i]->device.index);
  if (out && !ct__out_device_ok(op, out, pl->device)) return ct_last_error();
  /* the broadcast shape (equal shapes, the common case, need no work) */
  pl->ndim = in[0]->ndim;
  pl->shape = in[0]->sizes;
  pl->same_shape = 1;
  for (i = 1; i < nin; i++)
    if (!ct__same_sizes(in[0], in[i])) {
      pl->same_shape = 0;
      int64_t tmp[CT_MAX_DIMS];
      memcpy(tmp, pl->shape, sizeof(int64_t) * (size_t)pl->ndim);
      if ((pl->ndim = ct_broadcast_shapes(op, pl->ndim, tmp, in[i]->ndim, in[i]->sizes, pl->bshape)) < 0) return ct_last_error();
      pl->shape = pl->bshape;
    }
  /* dtypes */
  if (flags & CT__PW_SELECT) {
    ct_dtype cd = (ct_dtype)in[0]->dtype;
    if (id == CT__PW_MASKED_FILL && cd != CT_BOOL && cd != CT_U8) /* uint8: deprecated in PyTorch, still accepted */
      return ct_fail(CT_ERR_DTYPE, op, "masked_fill_ only supports boolean masks, but got mask with dtype %s", ct_dtype_name(cd));
    if (id == CT__PW_WHERE && cd != CT_BOOL && cd != CT_U8)
      return ct_fail(CT_ERR_DTYPE, op, "where expected condition to be a boolean tensor, but got a tensor with dtype %s",
                     ct__dtype_torch_name(cd));
  }
  if (fixed != CT_DTYPE_NONE) {
    common = fixed;
  } else if (id == CT__PW_MASKED_FILL) {
    common = (ct_dtype)in[2]->dtype;
  } else if (flags & CT__PW_LOGIC) {
    common = CT_BOOL;
  } else if (nin == 2 && !first && in[0]->dtype == in[1]->dtype) {
    common = (ct_dtype)in[0]->dtype;
  } else {
    ct__result_state rs;
    rs.dim = rs.zero = rs.wrapped = CT_DTYPE_NONE;
    for (i = first; i < nin; i++) ct__result_update(&rs, in[i]);
    common = ct__combine_categories(rs.dim, ct__combine_categories(rs.zero, rs.wrapped));
  }
  if ((flags & CT__PW_TOF) && !ct_dtype_is_floating(common)) common = CT_F32;
  if (id == CT__PW_SUB && (in[0]->dtype == CT_BOOL || in[1]->dtype == CT_BOOL))
    return ct_fail(CT_ERR_DTYPE, op,
                   in[0]->dtype == CT_BOOL && in[1]->dtype == CT_BOOL
                       ? "subtraction, the `-` operator, with two bool tensors is not supported; use the `^` or logical_xor() operator instead"
                       : "subtraction, the `-` operator, with a bool tensor is not supported; if you are trying to invert a mask, use the `~` or logical_not() operator instead");
  if (!((ct_dtype_is_floating(common) && (flags & CT__PW_FL)) || (ct_dtype_is_integral(common, false) && (flags & CT__PW_IN)) ||
        (common == CT_BOOL && (flags & CT__PW_BO))))
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", op, ct__dtype_torch_name(common));
  if (flags & CT__PW_ALPHA) { /* PyTorch's alpha_check, then the checked conversion */
    ct_scalar alpha = pctx->s;
    if (alpha.kind == CT_SCALAR_FLOAT && ct_dtype_is_integral(common, true))
      return ct_fail(CT_ERR_DTYPE, op, "for integral input tensors, argument alpha must not be a floating point number");
    if (alpha.kind == CT_SCALAR_BOOL && common != CT_BOOL)
      return ct_fail(CT_ERR_DTYPE, op, "boolean alpha only supported for boolean results");
    if (ct__check_scalar(op, alpha, common) != CT_OK) return ct_last_error();
  }
  if (flags & CT__PW_FIT) { /* numbers convert checked (masked_fill's value tensor: in the impl, which may read it) */
    for (i = first; i < nin; i++)
      if ((in[i]->flags & CT_TENSOR_WRAPPED_NUMBER) && ct__check_scalar(op, ct__tensor_scalar(in[i]), common) != CT_OK)
        return ct_last_error();
    if (pctx && ct__check_scalar(op, pctx->s, common) != CT_OK) return ct_last_error();
  }
  pl->common = common;
  pl->res_dtype = (flags & CT__PW_BOOLOUT) ? CT_BOOL : common;
  if (out) {
    ct_dtype od = (ct_dtype)out->dtype;
    int resized;
    if (od != pl->res_dtype && !ct_can_cast(pl->res_dtype, od))
      return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s",
                     ct__dtype_torch_name(pl->res_dtype), ct__dtype_torch_name(od));
    resized = !ct__out_has_shape(out, pl->ndim, pl->shape);
    /* self in place, or an out that is an input, keeps its shape */
    if ((st = ct__prepare_out(op, out, pl->ndim, pl->shape, nin, in)) != CT_OK) return st;
    pl->flat = 0;
    if (resized) { /* a resized out= takes the layout a new output would have, as PyTorch's resize_out */
      int64_t strides[CT_MAX_DIMS];
      ct_tensor *ops[3];
      int n = 0;
      for (i = 0; i < nin; i++)
        if (!(in[i]->flags & CT_TENSOR_WRAPPED_NUMBER) && in[i]->ndim) ops[n++] = in[i];
      if (ct__pw_output_strides(n, ops, pl->ndim, pl->shape, strides))
        memcpy(out->strides, strides, sizeof(int64_t) * (size_t)pl->ndim);
    }
    pl->flat = ct__pw_flat(pl, out);
    return CT_OK;
  }
  pl->result = ct__pw_new_output(pl, pl->res_dtype, pl->device);
  return pl->result ? CT_OK : ct_last_error();
}

/* ---- the loop entry of each device type (DispatchStub) ---- */
/* (kept as a generic function pointer: init.h sets the loops of both engines with one function) */
static void (*ct__pw_loops[CT_DEVICE_NUM])(void) = {(void (*)(void))ct_host_pointwise_loop};

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

CTDEF ct_status ct_host_pointwise_loop(const ct_pointwise_call *call) {
  ct_tensor *ops[4];
  if ((call->flags & CT_POINTWISE_CHECK_DIVISOR) && ct__pw_has_zero(call->in[1]))
    return ct_fail(CT_ERR_INVALID, call->name, "ZeroDivisionError: integer division by zero");
  if (call->flags & CT_POINTWISE_FLAT) { /* one flat loop: no iterator */
    char *data[4];
    int64_t strides[4];
    int k;
    data[0] = ct__iter_base(call->out), strides[0] = (int64_t)ct_dtype_size((ct_dtype)call->out->dtype);
    for (k = 0; k < call->ninputs; k++)
      data[k + 1] = ct__iter_base(call->in[k]), strides[k + 1] = (int64_t)ct_dtype_size((ct_dtype)call->in[k]->dtype);
    call->host_loop(data, strides, call->out->numel, call->host_ctx);
    return CT_OK;
  }
  ops[0] = call->out; /* (written out: a loop here becomes a memcpy call) */
  ops[1] = call->in[0];
  ops[2] = call->in[1];
  ops[3] = call->in[2];
  ct_iter_foreach(call->host_loop, call->host_ctx, call->ninputs + 1, ops, call->ndim, call->shape);
  return CT_OK;
}

CTDEF ct_status ct_pointwise_on_host(const ct_pointwise_call *call) {
  ct_pointwise_call h = *call;
  ct_tensor *ops[4], *hops[4] = {NULL, NULL, NULL, NULL};
  ct__staging stage;
  int i, nops = call->ninputs + 1;
  ct_status st;
  if (call->out->numel == 0) return CT_OK;
  ops[0] = call->out;
  for (i = 0; i < call->ninputs; i++) ops[i + 1] = call->in[i];
  if ((st = ct__stage_in(call->name, &stage, nops, ops, hops)) == CT_OK) {
    h.out = hops[0];
    for (i = 0; i < call->ninputs; i++) h.in[i] = hops[i + 1];
    if (call->host_ctx == (const void *)call) h.host_ctx = &h; /* the engine's loops read their parameter from the call */
    if ((st = ct_host_pointwise_loop(&h)) == CT_OK) st = ct__stage_out(&stage, 1, ops);
  }
  ct__stage_free(&stage, nops, hops);
  return st;
}

CTDEF ct_pointwise_loop_fn ct_pointwise_loop(ct_device_type type) {
  if ((unsigned)type >= CT_DEVICE_NUM) return NULL;
  return (ct_pointwise_loop_fn)ct__atomic_load(&ct__pw_loops[type]);
}
static inline ct_pointwise_loop_fn ct__pw_loop_of(const ct_tensor *t) { /* (t's device type is valid) */
  return (ct_pointwise_loop_fn)ct__atomic_load(&ct__pw_loops[t->device.type]);
}

/* copy_ of src into self (same device type, or src a 0-dim CPU value) as
 * one call of self's device loop, so that strides, broadcasting and dtype
 * conversion run on the device; no loop: staged on the host. */
static ct_status ct__copy_call(const char *op, ct_tensor *self, ct_tensor *src) {
  ct_pointwise_loop_fn loop = ct__pw_loop_of(self);
  ct_pointwise_call call;
  ct__convert_ctx conv;
  size_t es = ct_dtype_size((ct_dtype)self->dtype);
  memset(&call, 0, sizeof call);
  call.op = CT_PW_COPY;
  call.name = op;
  call.dtype = (ct_dtype)self->dtype;
  call.ninputs = 1;
  call.flags = CT_POINTWISE_ANY_INPUT;
  if (ct__may_self_overlap(self)) call.flags |= CT_POINTWISE_OUT_OVERLAPS;
  call.out = self;
  call.in[0] = src;
  call.ndim = self->ndim;
  call.shape = self->sizes;
  conv.to = (ct_dtype)self->dtype;
  conv.from = (ct_dtype)src->dtype;
  call.host_loop = self->dtype == src->dtype ? ct__copy_same_loop : ct__convert_loop;
  call.host_ctx = self->dtype == src->dtype ? (void *)&es : (void *)&conv;
  return loop ? loop(&call) : ct_pointwise_on_host(&call);
}
/* copy_ between two tensors of one device (not the CPU). 0: not taken (no
 * loop, or one storage: the caller's host path reads everything before writing). */
static int ct__copy_on_device(ct_tensor *self, ct_tensor *src, ct_status *st) {
  if (self->device.type == CT_DEVICE_CPU || !ct_device_eq(self->device, src->device) || self->storage == src->storage) return 0;
  if (!ct__pw_loop_of(self)) return 0;
  *st = ct__copy_call("copy_", self, src);
  return 1;
}
/* fill_ on a device: copy_ from a 0-dim CPU tensor holding the value's
 * bytes in self's dtype, broadcast by the device's loop. */
static ct_status ct__fill_on_device(ct_tensor *self, const void *bytes) {
  ct__wrapped w;
  ct__wrap_scalar(&w, ct_int(0));
  w.t.dtype = self->dtype;
  memcpy(&w.value, bytes, ct_dtype_size((ct_dtype)self->dtype));
  return ct__copy_call("fill_", self, &w.t);
}

/* ---- the impl step ---- */
/* Computes the plan: into out (or the new result), through the loop of its
 * device type. call: the op's loop and parameters, filled by the caller. */
static CT__HOT_INLINE ct_status ct__pw_impl(ct__pw_plan *pl, ct_pointwise_call *call) {
  ct_tensor *dst = pl->out ? pl->out : pl->result, *cin[3] = {NULL, NULL, NULL};
  ct_pointwise_loop_fn loop;
  ct_status st = CT_OK;
  int i, cast = 0;
  if (ct__is_meta(dst) || dst->numel == 0) return CT_OK; /* meta: the meta step is all */
  for (i = 0; i < pl->nin; i++)
    if (CT_UNLIKELY(ct__is_meta(pl->in[i])))
      return ct_fail(CT_ERR_DEVICE, pl->op, "cannot compute into a %s tensor from a meta tensor",
                     ct_device_type_name((ct_device_type)dst->device.type));
  if (CT_UNLIKELY(!(loop = ct__pw_loop_of(dst))))
    return ct_fail(CT_ERR_UNSUPPORTED, pl->op, "no pointwise loop for device type %s",
                   ct_device_type_name((ct_device_type)dst->device.type));
  if (dst->dtype != pl->res_dtype) { /* out= of another dtype: compute, then cast into it (a workspace tensor) */
    if (!(dst = ct__pw_new_output(pl, pl->res_dtype, dst->device))) return ct_last_error();
  }
  call->in[1] = call->in[2] = NULL;
  for (i = 0; i < pl->nin; i++) {
    ct_tensor *t = pl->in[i];
    ct_dtype want = (pl->flags & CT__PW_SELECT) && i == 0 ? CT_BOOL : pl->common;
    if (t->dtype != want && !(pl->flags & CT__PW_ANYIN)) {
      ct__wrapped *w = (t->flags & CT_TENSOR_WRAPPED_NUMBER) ? (ct__wrapped *)(void *)t : NULL;
      cast = 1;
      if (!(t = cin[i] = ct__as_dtype(pl->op, t, want, w))) {
        st = ct_last_error();
        goto done;
      }
    }
    call->in[i] = t;
  }
  if (pl->flat && !cast && dst == (pl->out ? pl->out : pl->result)) call->flags |= CT_POINTWISE_FLAT;
  if (dst->device.type != CT_DEVICE_CPU && ct__may_self_overlap(dst)) call->flags |= CT_POINTWISE_OUT_OVERLAPS;
  call->name = pl->op;
  call->dtype = pl->common;
  call->ninputs = pl->nin;
  call->out = dst;
  call->ndim = pl->ndim;
  call->shape = pl->shape;
  if ((st = loop(call)) == CT_OK && dst != (pl->out ? pl->out : pl->result)) st = ct__copy_impl(pl->out, dst);
done:
  for (i = 0; cast && i < pl->nin; i++)
    if (cin[i] && !(cin[i]->flags & CT_TENSOR_WRAPPED_NUMBER)) ct_release(cin[i]); /* wrapped numbers live on a stack */
  if (dst != pl->out && dst != pl->result) ct_release(dst);
  return st;
}

/* After the impl step: out= / in place bumps the written tensor's version;
 * a functional call hands its new output to *result (or frees it on error). */
static ct_status ct__pw_finish(ct__pw_plan *pl, ct_status st, ct_tensor **result) {
  if (pl->out) {
    if (st == CT_OK) ct__bump_version(pl->out);
    return st;
  }
  if (st != CT_OK) {
    ct_release(pl->result);
    return st;
  }
  *result = pl->result;
  return CT_OK;
}

/* ---- the fast lane ----
 * The call most programs make, recognised before the general meta step:
 * every input a contiguous CPU tensor (not a number) of one shape and of the
 * computing dtype d, and out (out= or self in place), if any, of that shape
 * and dtype, contiguous, on the CPU, and either one of the inputs or sharing
 * no storage with them. On such operands the meta step finds no broadcast,
 * promotion, cast, resize or overlap, and the impl step runs one flat loop:
 * the lane goes straight to that loop, with the same result, output layout
 * and version bump (PyTorch's TensorIterator has a fast setup for the same
 * case). Off while the CPU's loop entry is not the host's. */
static CT__HOT_INLINE int ct__pw_fast_operands(const ct_tensor *out, int nin, ct_tensor *const *in, ct_dtype d) {
  const ct_tensor *a = in[0];
  int i;
  if (!a || a->dtype != d || a->device.type != CT_DEVICE_CPU || (a->flags & CT_TENSOR_WRAPPED_NUMBER) || !ct__pw_contiguous(a))
    return 0;
  for (i = 1; i < nin; i++) {
    const ct_tensor *b = in[i];
    if (!b || b->dtype != d || b->device.type != CT_DEVICE_CPU || (b->flags & CT_TENSOR_WRAPPED_NUMBER) || !ct__same_sizes(a, b) ||
        !ct__pw_contiguous(b))
      return 0;
  }
  if (out) {
    if (out != a && /* (in place: self is in[0], checked above) */
        (out->dtype != d || out->device.type != CT_DEVICE_CPU || !ct__same_sizes(a, out) || !ct__pw_contiguous(out)))
      return 0;
    for (i = 0; i < nin; i++) /* the very same tensor, or no shared memory */
      if (in[i] != out && (in[i]->storage == out->storage || in[i]->storage->data == out->storage->data)) return 0;
  }
  return ct__atomic_load(&ct__pw_loops[CT_DEVICE_CPU]) == (void (*)(void))ct_host_pointwise_loop;
}
/* The lane's impl: a new contiguous output of in[0]'s shape and dtype (out
 * NULL), or out; then the op's host loop over the flat elements. */
static CT__HOT_INLINE ct_status ct__pw_fast_run(ct_tensor *out, int nin, ct_tensor *const *in, ct_loop_fn loop, void *ctx,
                                                ct_tensor **result) {
  ct_tensor *dst;
  char *data[4];
  int64_t strides[4], es;
  int k;
  if (out) dst = out;
  else if (!(dst = ct__empty_as(in[0]))) return ct_last_error();
  if (dst->numel) { /* (then every operand has data: CPU storage of numel elements) */
    es = (int64_t)ct_dtype_size((ct_dtype)dst->dtype);
    data[0] = (char *)dst->storage->data + dst->offset * es, strides[0] = es;
    for (k = 0; k < nin; k++) data[k + 1] = (char *)in[k]->storage->data + in[k]->offset * es, strides[k + 1] = es;
    loop(data, strides, dst->numel, ctx);
  }
  if (out) ct__bump_version(out);
  else *result = dst;
  return CT_OK;
}

/* masked_fill's value tensor converts checked, as PyTorch reads it with
 * item(): a check of data, so an impl-step check (through the device). */
static ct_status ct__pw_check_value(const char *op, const ct_tensor *v, ct_dtype d) {
  char buf[16];
  const char *p = ct__element_read(op, v, 0, buf);
  ct_scalar s;
  if (!p) return ct_last_error();
  if (ct_dtype_is_floating((ct_dtype)v->dtype)) s = ct_float(ct__load_double(p, (ct_dtype)v->dtype));
  else if (v->dtype == CT_BOOL) s = ct_bool(*(const bool *)p);
  else if (v->dtype == CT_I64) s = ct_int(*(const int64_t *)p);
  else s = ct_int((int64_t)ct__load_double(p, (ct_dtype)v->dtype));
  return ct__check_scalar(op, s, d);
}

/* out = op(in[0..nin)): meta, then impl. out NULL: a new tensor in *result;
 * otherwise out= or self in place (self is in[0], masked_fill's in[2]; an
 * out that is an input keeps its shape). Inputs may be wrapped numbers
 * (ct__wrap_scalar): their container is cast in place when needed.
 * where: in = condition, self, other. masked_fill: in = mask, value, self.
 * pctx: the op's Scalar parameter (alpha, weight, value), or NULL. */
static ct_status ct__pw_run(const ct__pw_desc *d, ct_tensor *out, int nin, ct_tensor **in, const ct__pw_ctx *pctx, ct_tensor **result) {
  static const ct_loop_fn select_loops[9] = {NULL, ct__pw_select1, ct__pw_select2, NULL, ct__pw_select4, NULL, NULL, NULL, ct__pw_select8};
  const int id = d->id, flags = d->flags;
  ct__pw_plan pl;
  ct_pointwise_call call;
  ct_status st;
  if (!(flags & (CT__PW_SELECT | CT__PW_LOGIC | CT__PW_BOOLOUT)) && in[0] && ct_dtype_is_floating((ct_dtype)in[0]->dtype) &&
      (flags & CT__PW_FL) && ct__pw_fast_operands(out, nin, in, (ct_dtype)in[0]->dtype)) {
    if (pctx && (flags & (CT__PW_ALPHA | CT__PW_FIT))) { /* the Scalar parameter's checks (a float dtype: no bool alpha rule) */
      if (pctx->s.kind == CT_SCALAR_BOOL && (flags & CT__PW_ALPHA))
        return ct_fail(CT_ERR_DTYPE, d->name, "boolean alpha only supported for boolean results");
      if (!(pctx->s.kind == CT_SCALAR_INT && in[0]->dtype != CT_F16) && /* (an integer fits every other float dtype) */
          ct__check_scalar(d->name, pctx->s, (ct_dtype)in[0]->dtype) != CT_OK)
        return ct_last_error();
    }
    call.op = id;
    call.flags = CT_POINTWISE_FLAT;
    call.param = pctx ? pctx->v : 0;
    call.iparam = pctx ? pctx->vi : 0;
    return ct__pw_fast_run(out, nin, in, d->loops[in[0]->dtype], &call, result);
  }
  if ((st = ct__pw_meta(&pl, d->name, id, flags, out, nin, in, pctx, CT_DTYPE_NONE)) != CT_OK) return st;
  if (id == CT__PW_MASKED_FILL && !(in[1]->flags & CT_TENSOR_WRAPPED_NUMBER) && !ct__is_meta(in[1]) && !ct__is_meta(in[2]))
    st = ct__pw_check_value(pl.op, in[1], pl.common);
  if (st == CT_OK) {
    call.op = id;
    call.flags = (flags & CT__PW_ZDIV) && ct_dtype_is_integral(pl.common, false) ? CT_POINTWISE_CHECK_DIVISOR : 0;
    call.param = pctx ? pctx->v : 0;
    call.iparam = pctx ? pctx->vi : 0;
    call.host_loop = (flags & CT__PW_SELECT) ? select_loops[ct_dtype_size(pl.common)] : d->loops[pl.common];
    call.host_ctx = &call;
    st = ct__pw_impl(&pl, &call);
  }
  return ct__pw_finish(&pl, st, result);
}
static ct_tensor *ct__pw_new(const ct__pw_desc *id, int nin, ct_tensor **in, const ct__pw_ctx *ctx) {
  ct_tensor *r = NULL;
  ct__pw_run(id, NULL, nin, in, ctx, &r);
  return r;
}
static ct_tensor *ct__pw_new2(const ct__pw_desc *id, ct_tensor *a, ct_tensor *b) {
  ct_tensor *in[2];
  in[0] = a, in[1] = b;
  return ct__pw_new(id, 2, in, NULL);
}
static ct_status ct__pw_mut2(const ct__pw_desc *id, ct_tensor *out, ct_tensor *a, ct_tensor *b) {
  ct_tensor *in[2];
  in[0] = a, in[1] = b;
  return ct__pw_run(id, out, 2, in, NULL, NULL);
}
/* add / sub (alpha) and threshold_backward (the threshold) */
static CT__HOT_INLINE ct_status ct__pw_run_alpha(const ct__pw_desc *id, ct_tensor *out, ct_tensor *a, ct_tensor *b, ct_scalar alpha, ct_tensor **result) {
  ct_tensor *in[2];
  ct__pw_ctx ctx;
  if (alpha.kind == CT_SCALAR_NONE) alpha = ct_int(1);
  in[0] = a, in[1] = b;
  ctx.v = ct_scalar_to_double(alpha);
  ctx.vi = ct_scalar_to_int(alpha);
  ctx.s = alpha;
  return ct__pw_run(id, out, 2, in, &ctx, result);
}

CT_EXTERN_C_END
#endif /* CT__OPS_POINTWISE_IMPL */
