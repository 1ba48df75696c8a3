/* backends/cuda/cuda_kernels.cu - the CUDA kernels of the pointwise engine.
 *
 * One elementwise computation per launch (ctcu_pointwise_launch): the value
 * ops, the comparisons and logical ops, where / masked_fill and the
 * parameterless unary functions, with the CPU reference's results
 * (ctorch/ops/pointwise.h, ctorch/ops/unary.h) bit for bit where the math
 * allows:
 *   - f32 computes in float, f64 in double, f16 / bf16 in float (loaded and
 *     stored with ctorch's own conversions, reproduced below), integers in
 *     int64_t with wrap-around (uint64_t arithmetic), bool as the CPU table's
 *     bool expression;
 *   - where the C code evaluates in double (pow, atan2, fmod, div_floor,
 *     remainder and div_trunc's rounding of float operands; every unary
 *     function on a floating result) so does this file;
 *   - multiplies and adds go through the _rn intrinsics, so no a*b+c is ever
 *     contracted into an fma whatever --fmad says (the CPU does not contract).
 * Transcendental functions come from CUDA's libm, which may differ from
 * glibc's by an ulp or two in double (see ctcu_unary_code).
 *
 * Compile-time economy: a kernel is a template over the computing dtype and
 * the index width only; the op is a (uniform) switch inside it, and the
 * double-precision helpers that are large (pow, atan2, the unary functions)
 * are out-of-line device functions compiled once.
 *
 * Self-contained: needs nothing of ctorch.h; the ids it mirrors are listed
 * here (ct_pointwise_op's order, ct_dtype's values through cuda_internal.h).
 */
#include "cuda_internal.h"

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <atomic>
#include <type_traits>

namespace {

/* ct_pointwise_op (ctorch/ops/pointwise.h), in the same order */
enum {
  PW_ADD, PW_SUB, PW_MUL, PW_DIV, PW_THRESHOLD_BW, PW_DIV_TRUNC, PW_DIV_FLOOR, PW_REMAINDER,
  PW_FMOD, PW_POW, PW_MAXIMUM, PW_MINIMUM, PW_ATAN2, PW_LERP, PW_LERP_S, PW_ADDCMUL,
  PW_ADDCDIV, PW_CLAMP_S, PW_CLAMP_MIN_S, PW_CLAMP_MAX_S, PW_CLAMP_T, PW_CLAMP_MIN_T, PW_CLAMP_MAX_T,
  PW_EQ, PW_NE, PW_LT, PW_LE, PW_GT, PW_GE, PW_AND, PW_OR, PW_XOR, PW_NOT,
  PW_WHERE, PW_MASKED_FILL, PW_UNARY, PW_NUM_OPS
};

/* inputs of each op (the engine's table) */
const signed char pw_nin[PW_NUM_OPS] = {
    2, 2, 2, 2, 2, 2, 2, 2, /* add .. remainder */
    2, 2, 2, 2, 2, 3, 2, 3, /* fmod .. addcmul */
    3, 3, 2, 2, 3, 2, 2,    /* addcdiv .. clamp_max_t */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 1, /* eq .. not */
    3, 3, 1};

/* dtype classes an op runs on, as the CPU table's flags (CT__PW_FL / IN / BO) */
enum { C_FL = 1, C_IN = 2, C_BO = 4, C_ALL = 7, C_NUM = 3 };
const unsigned char pw_classes[PW_NUM_OPS] = {
    C_ALL, C_NUM, C_ALL, C_FL, C_NUM, C_NUM, C_NUM, C_NUM,   /* add sub mul div threshold_bw div_trunc div_floor remainder */
    C_NUM, C_NUM, C_ALL, C_ALL, C_FL, C_FL, C_FL, C_NUM,     /* fmod pow maximum minimum atan2 lerp lerp_s addcmul */
    C_FL, C_NUM, C_NUM, C_NUM, C_ALL, C_ALL, C_ALL,          /* addcdiv clamp_s clamp_min_s clamp_max_s clamp_t .. */
    C_ALL, C_ALL, C_ALL, C_ALL, C_ALL, C_ALL, C_ALL, C_ALL, C_ALL, C_ALL, /* comparisons, logical (any dtype, as the CPU loops) */
    C_ALL, C_ALL, C_ALL};

constexpr int kThreads = 256;

/* ---------------------------------------------------------------------------
 * ctorch's float16 / bfloat16 conversions (ctorch/dtype.h), bit for bit
 * (the host forms are ctorch's code; checked equal over every input) */
__host__ __device__ inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
__host__ __device__ inline float u2f(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
/* floating to integer as ctorch on x86-64 (ct__f2i64, ct__f2i32 in dtype.h): NaN and out of range give the minimum */
__device__ __forceinline__ int64_t f2i64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
__device__ __forceinline__ int32_t f2i32(double v) { return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN; }
/* On the device the hardware conversions give the same results except for
 * NaNs (cvt makes a canonical NaN), which take ctorch's path. */
__host__ __device__ inline float f16_to_f32(uint16_t h) {
#ifdef __CUDA_ARCH__
  if ((h & 0x7fffu) > 0x7c00u) /* nan: sign and payload kept */
    return u2f(((uint32_t)(h & 0x8000u) << 16) | 0x7f800000u | ((uint32_t)(h & 0x3ffu) << 13));
  float r;
  asm("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h)); /* exact, subnormals included */
  return r;
#else
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13); /* inf / nan */
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else { /* subnormal half: normalise (t shifts bring the leading 1 to bit 10; ctorch's loop counts e = t - 1) */
    const int t = __builtin_clz(man) - 21;
    man <<= t;
    bits = sign | ((uint32_t)(113 - t) << 23) | ((man & 0x3ffu) << 13);
  }
  return u2f(bits);
#endif
}
__host__ __device__ inline uint16_t f32_to_f16(float f) {
#ifdef __CUDA_ARCH__
  const uint32_t u = f2u(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)(((u >> 16) & 0x8000u) | 0x7e00u); /* nan: quiet, no payload */
  unsigned short r;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(r) : "f"(f)); /* round to nearest even, overflow to inf, subnormals kept */
  return (uint16_t)r;
#else
  uint32_t x = f2u(f), sign, man;
  int32_t exp;
  sign = (x >> 16) & 0x8000u;
  exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  man = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0u));
  if (exp >= 0x1f) return (uint16_t)(sign | 0x7c00u); /* overflow -> inf */
  if (exp <= 0) {                                      /* subnormal or zero */
    uint32_t shift, half, rest;
    if (exp < -10) return (uint16_t)sign;
    man |= 0x800000u;
    shift = (uint32_t)(14 - exp);
    half = man >> shift;
    rest = man & ((1u << shift) - 1);
    if (rest > (1u << (shift - 1)) || (rest == (1u << (shift - 1)) && (half & 1u))) half++;
    return (uint16_t)(sign | half);
  }
  {
    uint32_t h = sign | ((uint32_t)exp << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++; /* may carry into exp: correct */
    return (uint16_t)h;
  }
#endif
}
__host__ __device__ inline float bf16_to_f32(uint16_t h) { return u2f((uint32_t)h << 16); }
__host__ __device__ inline uint16_t f32_to_bf16(float f) {
  uint32_t x = f2u(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

/* ---------------------------------------------------------------------------
 * Per computing dtype: storage type, accumulation type (CT__PW_LOOP's ACC),
 * load and store (CT__LOAD_* and CT__PW_ST_*). */
template <int DT> struct DType;
template <> struct DType<CTCU_F32> {
  typedef float S;
  typedef float A;
  static __device__ __forceinline__ A ld(S x) { return x; }
  static __device__ __forceinline__ S st(A x) { return x; }
};
template <> struct DType<CTCU_F64> {
  typedef double S;
  typedef double A;
  static __device__ __forceinline__ A ld(S x) { return x; }
  static __device__ __forceinline__ S st(A x) { return x; }
};
template <> struct DType<CTCU_F16> {
  typedef uint16_t S;
  typedef float A;
  static __device__ __forceinline__ A ld(S x) { return f16_to_f32(x); }
  static __device__ __forceinline__ S st(A x) { return f32_to_f16(x); }
};
template <> struct DType<CTCU_BF16> {
  typedef uint16_t S;
  typedef float A;
  static __device__ __forceinline__ A ld(S x) { return bf16_to_f32(x); }
  static __device__ __forceinline__ S st(A x) { return f32_to_bf16(x); }
};
template <> struct DType<CTCU_I64> {
  typedef int64_t S;
  typedef int64_t A;
  static __device__ __forceinline__ A ld(S x) { return x; }
  static __device__ __forceinline__ S st(A x) { return x; }
};
template <> struct DType<CTCU_I32> {
  typedef int32_t S;
  typedef int64_t A;
  static __device__ __forceinline__ A ld(S x) { return (int64_t)x; }
  static __device__ __forceinline__ S st(A x) { return (int32_t)(uint32_t)(uint64_t)x; } /* (int32_t)x, modulo 2^32 */
};
template <> struct DType<CTCU_U8> {
  typedef uint8_t S;
  typedef int64_t A;
  static __device__ __forceinline__ A ld(S x) { return (int64_t)x; }
  static __device__ __forceinline__ S st(A x) { return (uint8_t)x; }
};
template <> struct DType<CTCU_BOOL> {
  typedef uint8_t S; /* C's bool: one byte, 0 or 1 */
  typedef int64_t A;
  static __device__ __forceinline__ A ld(S x) { return x != 0; }
  static __device__ __forceinline__ S st(A x) { return x != 0; }
};

/* IEEE arithmetic that the compiler may not contract (a*b+c stays two roundings) */
__device__ __forceinline__ float add_rn(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float sub_rn(float a, float b) { return __fsub_rn(a, b); }
__device__ __forceinline__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float div_rn(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double add_rn(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double sub_rn(double a, double b) { return __dsub_rn(a, b); }
__device__ __forceinline__ double mul_rn(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double div_rn(double a, double b) { return __ddiv_rn(a, b); }

/* CT__PW_MAX / MIN (std::max / std::min: a NaN second operand loses) and CT__PW_NAN (a NaN operand wins) */
template <typename T> __device__ __forceinline__ T pw_max(T a, T b) { return a < b ? b : a; }
template <typename T> __device__ __forceinline__ T pw_min(T a, T b) { return b < a ? b : a; }
template <typename T> __device__ __forceinline__ T pw_nan(T a, T b, T e) { return a != a ? a : b != b ? b : e; }

/* ---------------------------------------------------------------------------
 * the CPU helpers (ct__pw_*), in double where the C code is */
__device__ __noinline__ double pw_floordiv(double a, double b, int f32) {
  double mod, div, fl;
  if (b == 0) return __ddiv_rn(a, b);
  mod = fmod(a, b);
  div = __dsub_rn(a, mod);
  if (f32) div = (double)(float)div;
  div = __ddiv_rn(div, b);
  if (f32) div = (double)(float)div;
  if (mod != 0 && (b < 0) != (mod < 0)) div = __dsub_rn(div, 1.0);
  if (div != 0) {
    fl = floor(div);
    if (__dsub_rn(div, fl) > 0.5) fl = __dadd_rn(fl, 1.0);
  } else {
    fl = copysign(0.0, __ddiv_rn(a, b));
  }
  return fl;
}
__device__ __noinline__ double pw_fremainder(double a, double b) {
  double m = fmod(a, b);
  if (m != 0 && (b < 0) != (m < 0)) m = __dadd_rn(m, b);
  return m;
}
__device__ __noinline__ double pw_pow(double a, double b) { return pow(a, b); }
__device__ __noinline__ double pw_atan2(double a, double b) { return atan2(a, b); }
__device__ __forceinline__ double pw_fmod(double a, double b) { return fmod(a, b); }
/* x rounded to the storage dtype dt (ct__pw_rt) */
__device__ __forceinline__ double pw_rt(double x, int dt) {
  return dt == CTCU_F16 ? (double)f16_to_f32(f32_to_f16((float)x))
       : dt == CTCU_BF16 ? (double)bf16_to_f32(f32_to_bf16((float)x)) : x;
}

__device__ __forceinline__ int64_t pw_idiv_trunc(int64_t a, int64_t b) {
  return b == -1 ? (int64_t)(0 - (uint64_t)a) : b == 0 ? 0 : a / b;
}
__device__ __forceinline__ int64_t pw_idiv_floor(int64_t a, int64_t b) {
  int64_t q, r;
  if (b == -1) return (int64_t)(0 - (uint64_t)a);
  if (b == 0) return 0;
  q = a / b, r = a % b;
  return (r != 0 && (r < 0) != (b < 0)) ? q - 1 : q;
}
__device__ __forceinline__ int64_t pw_imod(int64_t a, int64_t b) { return b == -1 || b == 0 ? 0 : a % b; }
__device__ __forceinline__ int64_t pw_iremainder(int64_t a, int64_t b) {
  int64_t r = pw_imod(a, b);
  return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;
}
__device__ __noinline__ int64_t pw_ipow(int64_t a, int64_t b) {
  uint64_t r = 1, x = (uint64_t)a;
  if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
  while (b) {
    if (b & 1) r *= x;
    x *= x;
    b >>= 1;
  }
  return (int64_t)r;
}
__device__ __forceinline__ int64_t pw_iaddcmul(int64_t a, int64_t v, int64_t b, int64_t c) {
  return (int64_t)((uint64_t)a + (uint64_t)v * (uint64_t)b * (uint64_t)c);
}

/* ---------------------------------------------------------------------------
 * The value ops (CT__PW_VALUE_OPS), floating column: F is the ACC type
 * (float for f32 / f16 / bf16, double for f64), dt the computing dtype. */
template <typename F>
__device__ __forceinline__ F eval_float(int op, F a, F b, F c, F v, int dt) {
  switch (op) {
  case PW_ADD: return add_rn(a, mul_rn(v, b));
  case PW_SUB: return sub_rn(a, mul_rn(v, b));
  case PW_MUL: return mul_rn(a, b);
  case PW_DIV: return div_rn(a, b);
  case PW_THRESHOLD_BW: return b <= v ? (F)0 : a;
  case PW_DIV_TRUNC: return (F)trunc(pw_rt((double)div_rn(a, b), dt));
  case PW_DIV_FLOOR: return (F)pw_floordiv((double)a, (double)b, sizeof(F) == 4);
  case PW_REMAINDER: return (F)pw_fremainder((double)a, (double)b);
  case PW_FMOD: return (F)pw_fmod((double)a, (double)b);
  case PW_POW: return (F)pw_pow((double)a, (double)b);
  case PW_MAXIMUM: return pw_nan(a, b, pw_max(a, b));
  case PW_MINIMUM: return pw_nan(a, b, pw_min(a, b));
  case PW_ATAN2: return (F)pw_atan2((double)a, (double)b);
  case PW_LERP:
    return fabs((double)c) < 0.5 ? add_rn(a, mul_rn(c, sub_rn(b, a))) : sub_rn(b, mul_rn(sub_rn(b, a), sub_rn((F)1, c)));
  case PW_LERP_S:
    return fabs((double)v) < 0.5 ? add_rn(a, mul_rn(v, sub_rn(b, a))) : sub_rn(b, mul_rn(sub_rn(b, a), sub_rn((F)1, v)));
  case PW_ADDCMUL: return add_rn(a, mul_rn(mul_rn(v, b), c));
  case PW_ADDCDIV: return add_rn(a, div_rn(mul_rn(v, b), c));
  case PW_CLAMP_S: return pw_min(pw_max(a, b), c);
  case PW_CLAMP_MIN_S: return pw_max(a, b);
  case PW_CLAMP_MAX_S: return pw_min(a, b);
  case PW_CLAMP_T: return a != a ? a : pw_nan(b, c, pw_min(pw_max(a, b), c));
  case PW_CLAMP_MIN_T: return pw_nan(a, b, pw_max(a, b));
  case PW_CLAMP_MAX_T: return pw_nan(a, b, pw_min(a, b));
  default: return (F)0;
  }
}

/* integer column (int64_t, wrapping through uint64_t); vt: (int64_t)(TI)iparam.
 * A zero divisor of the division ops raises *zd (CT_POINTWISE_CHECK_DIVISOR). */
__device__ __forceinline__ int64_t eval_int(int op, int64_t a, int64_t b, int64_t c, int64_t v, int64_t vt, int *zd) {
  switch (op) {
  case PW_ADD: return (int64_t)((uint64_t)a + (uint64_t)v * (uint64_t)b);
  case PW_SUB: return (int64_t)((uint64_t)a - (uint64_t)v * (uint64_t)b);
  case PW_MUL: return (int64_t)((uint64_t)a * (uint64_t)b);
  case PW_THRESHOLD_BW: return b <= vt ? 0 : a;
  case PW_DIV_TRUNC:
    if (b == 0 && zd) *zd = 1;
    return pw_idiv_trunc(a, b);
  case PW_DIV_FLOOR:
    if (b == 0 && zd) *zd = 1;
    return pw_idiv_floor(a, b);
  case PW_REMAINDER:
    if (b == 0 && zd) *zd = 1;
    return pw_iremainder(a, b);
  case PW_FMOD:
    if (b == 0 && zd) *zd = 1;
    return pw_imod(a, b);
  case PW_POW: return pw_ipow(a, b);
  case PW_MAXIMUM: return pw_max(a, b);
  case PW_MINIMUM: return pw_min(a, b);
  case PW_ADDCMUL: return pw_iaddcmul(a, v, b, c);
  case PW_CLAMP_S:
  case PW_CLAMP_T: return pw_min(pw_max(a, b), c);
  case PW_CLAMP_MIN_S:
  case PW_CLAMP_MIN_T: return pw_max(a, b);
  case PW_CLAMP_MAX_S:
  case PW_CLAMP_MAX_T: return pw_min(a, b);
  default: return 0;
  }
}

/* bool column (the operands are 0 / 1 as int64_t) */
__device__ __forceinline__ int64_t eval_bool(int op, int64_t a, int64_t b, int64_t c, int64_t v) {
  switch (op) {
  case PW_ADD: return a || (v && b);
  case PW_MUL: return a && b;
  case PW_MAXIMUM: return a | b;
  case PW_MINIMUM: return a & b;
  case PW_CLAMP_T: return pw_min(pw_max(a, b), c);
  case PW_CLAMP_MIN_T: return pw_max(a, b);
  case PW_CLAMP_MAX_T: return pw_min(a, b);
  default: return 0;
  }
}

/* CT__PW_BOOL_OPS: the same expression for every dtype class */
template <typename A> __device__ __forceinline__ bool eval_cmp(int op, A a, A b) {
  switch (op) {
  case PW_EQ: return a == b;
  case PW_NE: return a != b;
  case PW_LT: return a < b;
  case PW_LE: return a <= b;
  case PW_GT: return a > b;
  case PW_GE: return a >= b;
  case PW_AND: return a && b;
  case PW_OR: return a || b;
  case PW_XOR: return a != b;
  default: return !a; /* PW_NOT */
  }
}

template <int DT> struct Eval;
template <int DT> struct EvalF {
  typedef typename DType<DT>::A A;
  static __device__ __forceinline__ A run(int op, A a, A b, A c, A v, int64_t, int *) { return eval_float<A>(op, a, b, c, v, DT); }
};
template <> struct Eval<CTCU_F32> : EvalF<CTCU_F32> {};
template <> struct Eval<CTCU_F64> : EvalF<CTCU_F64> {};
template <> struct Eval<CTCU_F16> : EvalF<CTCU_F16> {};
template <> struct Eval<CTCU_BF16> : EvalF<CTCU_BF16> {};
struct EvalI {
  static __device__ __forceinline__ int64_t run(int op, int64_t a, int64_t b, int64_t c, int64_t v, int64_t vt, int *zd) {
    return eval_int(op, a, b, c, v, vt, zd);
  }
};
template <> struct Eval<CTCU_I64> : EvalI {};
template <> struct Eval<CTCU_I32> : EvalI {};
template <> struct Eval<CTCU_U8> : EvalI {};
template <> struct Eval<CTCU_BOOL> {
  static __device__ __forceinline__ int64_t run(int op, int64_t a, int64_t b, int64_t c, int64_t v, int64_t, int *) {
    return eval_bool(op, a, b, c, v);
  }
};

/* ---------------------------------------------------------------------------
 * The unary functions (ct__unary_f_* over double, ct__unary_i_* over int64) */
__device__ __forceinline__ double sigmoid1(double x) { return __ddiv_rn(1.0, __dadd_rn(1.0, exp(-x))); }
/* a unary function's parameters (ct__unary_params' a, b, c, ia, ib) */
struct UParams {
  double a, b, c;
  int64_t ia, ib;
};
#define CTCU_PI 3.14159265358979323846
__device__ __noinline__ double unary_f(int code, double x, const UParams &p) {
  switch (code) {
  case CTCU_UN_NEG: return -x;
  case CTCU_UN_ABS: return fabs(x);
  case CTCU_UN_SIGN: return (double)((0.0 < x) - (x < 0.0));
  case CTCU_UN_EXP: return exp(x);
  case CTCU_UN_EXP2: return exp2(x);
  case CTCU_UN_LOG: return log(x);
  case CTCU_UN_LOG2: return log2(x);
  case CTCU_UN_LOG1P: return log1p(x);
  case CTCU_UN_EXPM1: return expm1(x);
  case CTCU_UN_SQRT: return __dsqrt_rn(x);
  case CTCU_UN_RSQRT: return __ddiv_rn(1.0, __dsqrt_rn(x));
  case CTCU_UN_RECIPROCAL: return __ddiv_rn(1.0, x);
  case CTCU_UN_SQUARE: return __dmul_rn(x, x);
  case CTCU_UN_SIN: return sin(x);
  case CTCU_UN_COS: return cos(x);
  case CTCU_UN_TAN: return tan(x);
  case CTCU_UN_TANH: return tanh(x);
  case CTCU_UN_SIGMOID: return sigmoid1(x);
  case CTCU_UN_RELU: return x > 0 || x != x ? x : 0.0;
  case CTCU_UN_SILU: return __dmul_rn(x, sigmoid1(x));
  case CTCU_UN_MISH: return __dmul_rn(x, tanh(log1p(exp(x))));
  case CTCU_UN_ERF: return erf(x);
  case CTCU_UN_FLOOR: return floor(x);
  case CTCU_UN_CEIL: return ceil(x);
  case CTCU_UN_ROUND: return rint(x); /* nearbyint: half to even */
  case CTCU_UN_TRUNC: return trunc(x);
  case CTCU_UN_COPY: return x;
  case CTCU_UN_ASIN: return asin(x);
  case CTCU_UN_ACOS: return acos(x);
  case CTCU_UN_ATAN: return atan(x);
  case CTCU_UN_SINH: return sinh(x);
  case CTCU_UN_COSH: return cosh(x);
  case CTCU_UN_ASINH: return asinh(x);
  case CTCU_UN_ACOSH: return acosh(x);
  case CTCU_UN_ATANH: return atanh(x);
  case CTCU_UN_LOG10: return log10(x);
  case CTCU_UN_ERFC: return erfc(x);
  case CTCU_UN_LGAMMA: return lgamma(x);
  case CTCU_UN_FRAC: return __dsub_rn(x, trunc(x));
  case CTCU_UN_DEG2RAD: return __dmul_rn(x, CTCU_PI / 180.0);
  case CTCU_UN_RAD2DEG: return __dmul_rn(x, 180.0 / CTCU_PI);
  case CTCU_UN_SINC: {
    if (x == 0) return 1.0;
    const double px = __dmul_rn(CTCU_PI, x);
    return __ddiv_rn(sin(px), px);
  }
  case CTCU_UN_HARDSWISH: {
    const double t = __dadd_rn(x, 3.0);
    return x != x ? x : __ddiv_rn(__dmul_rn(x, t <= 0 ? 0.0 : t >= 6 ? 6.0 : t), 6.0);
  }
  case CTCU_UN_HARDSIGMOID: {
    const double t = __dadd_rn(x, 3.0);
    return x != x ? x : __ddiv_rn(t <= 0 ? 0.0 : t >= 6 ? 6.0 : t, 6.0);
  }
  case CTCU_UN_LOG_SIGMOID: return __dsub_rn(x < 0 ? x : 0.0, log1p(exp(-fabs(x))));
  case CTCU_UN_ISNAN: return (double)(x != x);
  case CTCU_UN_ISINF: return (double)(isinf(x) != 0);
  case CTCU_UN_ISFINITE: return (double)(x == x && !isinf(x));
  case CTCU_UN_ISPOSINF: return (double)(isinf(x) && x > 0);
  case CTCU_UN_ISNEGINF: return (double)(isinf(x) && x < 0);
  case CTCU_UN_HARDTANH: return x != x ? x : x < p.a ? (p.a > p.b ? p.b : p.a) : x > p.b ? p.b : x;
  case CTCU_UN_LEAKY_RELU: return x > 0 ? x : __dmul_rn(x, p.a);
  case CTCU_UN_ELU: return x <= 0 ? __dmul_rn(__dmul_rn(expm1(__dmul_rn(x, p.c)), p.a), p.b) : __dmul_rn(x, p.b);
  case CTCU_UN_GELU:
    if (p.ia) {
      const double inner = __dmul_rn(0.79788456080286535588, __dadd_rn(x, __dmul_rn(__dmul_rn(__dmul_rn(0.044715, x), x), x)));
      return __dmul_rn(__dmul_rn(0.5, x), __dadd_rn(1.0, tanh(inner)));
    }
    return __dmul_rn(__dmul_rn(0.5, x), __dadd_rn(1.0, erf(__dmul_rn(x, 0.70710678118654752440))));
  case CTCU_UN_SOFTPLUS: {
    const double xb = __dmul_rn(x, p.a);
    return xb > p.b ? x : __ddiv_rn(log1p(exp(xb)), p.a);
  }
  case CTCU_UN_HARDSHRINK: return x >= -p.a && x <= p.a ? 0.0 : x;
  case CTCU_UN_SOFTSHRINK: return x > p.a ? __dsub_rn(x, p.a) : x < -p.a ? __dadd_rn(x, p.a) : 0.0;
  case CTCU_UN_THRESHOLD: return x <= p.a ? p.b : x;
  default: return x;
  }
}
__device__ __forceinline__ int64_t unary_i(int code, int64_t x, const UParams &p) {
  uint64_t u = (uint64_t)x;
  switch (code) {
  case CTCU_UN_NEG: return (int64_t)(0 - u);
  case CTCU_UN_ABS: return x < 0 ? (int64_t)(0 - u) : x;
  case CTCU_UN_SIGN: return (int64_t)((x > 0) - (x < 0));
  case CTCU_UN_SQUARE: return (int64_t)(u * u);
  case CTCU_UN_RELU: return x > 0 ? x : 0;
  case CTCU_UN_HARDTANH: return x < p.ia ? (p.ia > p.ib ? p.ib : p.ia) : x > p.ib ? p.ib : x;
  case CTCU_UN_THRESHOLD: return x <= p.ia ? p.ib : x;
  default: return x; /* floor, ceil, round, trunc of integers; copy */
  }
}
/* has an integer form (CT__UNARY_I) */
bool unary_has_int(int code) {
  switch (code) {
  case CTCU_UN_NEG: case CTCU_UN_ABS: case CTCU_UN_SIGN: case CTCU_UN_SQUARE: case CTCU_UN_RELU:
  case CTCU_UN_FLOOR: case CTCU_UN_CEIL: case CTCU_UN_ROUND: case CTCU_UN_TRUNC: case CTCU_UN_COPY:
  case CTCU_UN_HARDTANH: case CTCU_UN_THRESHOLD: return true;
  default: return false;
  }
}
/* stores a bool through the double path (ct__unary_f_isnan & co.) */
__host__ __device__ inline bool unary_is_predicate(int code) { return code >= CTCU_UN_ISNAN && code <= CTCU_UN_ISNEGINF; }

/* the unary input from its storage bits, any dtype (ct__unary_load_f / _i) */
__device__ __forceinline__ double bits_any_f(uint64_t b, int dt) {
  switch (dt) {
  case CTCU_F32: return (double)u2f((uint32_t)b);
  case CTCU_F64: return __longlong_as_double((long long)b);
  case CTCU_F16: return (double)f16_to_f32((uint16_t)b);
  case CTCU_BF16: return (double)bf16_to_f32((uint16_t)b);
  case CTCU_I64: return (double)(int64_t)b;
  case CTCU_I32: return (double)(int32_t)(uint32_t)b;
  case CTCU_U8: return (double)(uint8_t)b;
  default: return (uint8_t)b != 0 ? 1.0 : 0.0;
  }
}
__device__ __forceinline__ int64_t bits_any_i(uint64_t b, int dt) {
  switch (dt) {
  case CTCU_I64: return (int64_t)b;
  case CTCU_I32: return (int64_t)(int32_t)(uint32_t)b;
  case CTCU_U8: return (int64_t)(uint8_t)b;
  default: return (uint8_t)b != 0;
  }
}
/* stores of the unary result (ct__unary_store_f / _i) */
template <int DT> struct UStore;
template <> struct UStore<CTCU_F32> {
  static __device__ __forceinline__ float f(double x) { return (float)x; }
};
template <> struct UStore<CTCU_F64> {
  static __device__ __forceinline__ double f(double x) { return x; }
};
template <> struct UStore<CTCU_F16> {
  static __device__ __forceinline__ uint16_t f(double x) { return f32_to_f16((float)x); }
};
template <> struct UStore<CTCU_BF16> {
  static __device__ __forceinline__ uint16_t f(double x) { return f32_to_bf16((float)x); }
};
template <> struct UStore<CTCU_I64> {
  static __device__ __forceinline__ int64_t f(int64_t x) { return x; }
};
template <> struct UStore<CTCU_I32> {
  static __device__ __forceinline__ int32_t f(int64_t x) { return (int32_t)(uint32_t)(uint64_t)x; }
};
template <> struct UStore<CTCU_U8> {
  static __device__ __forceinline__ uint8_t f(int64_t x) { return (uint8_t)(uint64_t)x; }
};
template <> struct UStore<CTCU_BOOL> {
  static __device__ __forceinline__ uint8_t f(int64_t x) { return x != 0; }
};
template <int DT> struct UOut {
  typedef typename DType<DT>::S S;
  static constexpr bool floating = DT <= CTCU_BF16;
};

/* ---------------------------------------------------------------------------
 * Geometry: the broadcast shape after dropping size-1 dimensions and merging
 * the dimensions every operand walks contiguously; strides in elements of
 * each operand's dtype (0 where broadcast, and for 0-dim CPU operands). */
template <typename S> struct Geo {
  S shape[CTCU_MAX_DIMS];
  S st[4][CTCU_MAX_DIMS]; /* out, in[0], in[1], in[2] */
};
struct Args {
  char *ptr[4];      /* out, in[0..2] (NULL for 0-dim CPU operands) */
  uint64_t bits[3];  /* a 0-dim CPU input's value, as its storage bits */
  int scalar[3];     /* in[k] is a 0-dim CPU operand */
  int ndim, op, unary, in_dtype;
  int contig;        /* one dimension, every non-scalar operand with stride 1 */
  double param;      /* the Scalar parameter, floating */
  int64_t iparam;    /* the same, integer */
  int64_t vt;        /* (int64_t)(TI)iparam */
  int *zd;           /* integer division by zero flag, or NULL */
  UParams up;        /* a unary function's parameters */
};

/* element i's offsets (in elements) for the four operands */
template <typename U, typename S>
__device__ __forceinline__ void offsets(const Geo<S> &g, int ndim, U i, S off[4]) {
  off[0] = off[1] = off[2] = off[3] = 0;
  for (int k = ndim - 1; k > 0; k--) {
    U sh = (U)g.shape[k], q = i / sh;
    S c = (S)(i - q * sh);
    i = q;
    off[0] += c * g.st[0][k];
    off[1] += c * g.st[1][k];
    off[2] += c * g.st[2][k];
    off[3] += c * g.st[3][k];
  }
  off[0] += (S)i * g.st[0][0];
  off[1] += (S)i * g.st[1][0];
  off[2] += (S)i * g.st[2][0];
  off[3] += (S)i * g.st[3][0];
}

template <typename T> __device__ __forceinline__ T from_bits(uint64_t b) {
  T t;
  memcpy(&t, &b, sizeof(T));
  return t;
}

/* The element loop of every kernel. K::load(off) reads element i's inputs
 * (offsets in elements: out, in[0..2]) into a K::V, K::store(off, v)
 * computes and writes it. contig (every non-scalar operand walks the single
 * dimension with stride 1: offset = i): kUnroll elements per thread, their
 * loads issued before any store (ILP); else the generic strided loop. */
constexpr int kUnroll = 4;
template <class K, typename U, typename S>
__device__ __forceinline__ void elem_loop(const K &k, const Geo<S> &g, int ndim, int contig, U n) {
  if (sizeof(U) == 4 && contig) { /* (the 64-bit index form runs the generic loop: fewer instantiations) */
    const U tile = (U)kThreads * kUnroll;
    for (U base = (U)blockIdx.x * tile + threadIdx.x; base < n; base += (U)gridDim.x * tile) {
      typename K::V v[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; u++) {
        const U i = base + (U)(u * kThreads);
        if (i < n) {
          const S off[4] = {(S)i, (S)i, (S)i, (S)i};
          v[u] = k.load(off);
        }
      }
#pragma unroll
      for (int u = 0; u < kUnroll; u++) {
        const U i = base + (U)(u * kThreads);
        if (i < n) {
          const S off[4] = {(S)i, (S)i, (S)i, (S)i};
          k.store(off, v[u]);
        }
      }
    }
  } else {
    const U step = (U)gridDim.x * kThreads;
    for (U i = (U)blockIdx.x * kThreads + threadIdx.x; i < n; i += step) {
      S off[4];
      offsets<U, S>(g, ndim, i, off);
      k.store(off, k.load(off));
    }
  }
}

/* Each K::load reads raw storage values only (no data-dependent branch
 * between the loads of an unrolled group, so they are all in flight
 * together); K::store converts, computes and writes. */

/* value ops and bool ops of computing dtype DT */
template <int DT, typename S> struct ValueK {
  typedef DType<DT> D;
  typedef typename D::S T;
  typedef typename D::A A;
  struct V {
    T p, q, r;
  };
  const T *x, *y, *z;
  char *o;
  A s0, s1, s2, v;
  int64_t vt;
  int *zd;
  int op, sc0, sc1, sc2;
  bool has_y, has_z, boolout;
  __device__ __forceinline__ V load(const S *off) const {
    V e;
    e.p = sc0 ? T() : x[off[1]];
    e.q = !has_y || sc1 ? T() : y[off[2]];
    e.r = !has_z || sc2 ? T() : z[off[3]];
    return e;
  }
  __device__ __forceinline__ void store(const S *off, const V &e) const {
    const A p = sc0 ? s0 : D::ld(e.p);
    const A q = !has_y ? p : sc1 ? s1 : D::ld(e.q);
    const A r = !has_z ? p : sc2 ? s2 : D::ld(e.r);
    if (boolout)
      ((uint8_t *)o)[off[0]] = eval_cmp<A>(op, p, q);
    else
      ((T *)o)[off[0]] = D::st(Eval<DT>::run(op, p, q, r, v, vt, zd));
  }
};
template <int DT, typename U, typename S>
__global__ void __launch_bounds__(kThreads) pointwise_kernel(const Args a, const Geo<S> g, U n) {
  typedef ValueK<DT, S> K;
  typedef typename K::D D;
  typedef typename K::T T;
  typedef typename K::A A;
  const bool floating = DT <= CTCU_BF16;
  K k;
  k.op = a.op;
  k.x = (const T *)a.ptr[1], k.y = (const T *)a.ptr[2], k.z = (const T *)a.ptr[3], k.o = a.ptr[0];
  k.s0 = D::ld(from_bits<T>(a.bits[0])), k.s1 = D::ld(from_bits<T>(a.bits[1])), k.s2 = D::ld(from_bits<T>(a.bits[2]));
  k.v = floating ? (A)a.param : (A)a.iparam; /* CT__PW_LOOP's v */
  k.vt = a.vt, k.zd = a.zd;
  k.sc0 = a.scalar[0], k.sc1 = a.scalar[1], k.sc2 = a.scalar[2];
  k.boolout = k.op >= PW_EQ;
  k.has_y = k.op != PW_NOT;
  k.has_z = k.op == PW_LERP || k.op == PW_ADDCMUL || k.op == PW_ADDCDIV || k.op == PW_CLAMP_S || k.op == PW_CLAMP_T;
  elem_loop<K, U, S>(k, g, a.ndim, a.contig, n);
}

/* unary functions into an output of dtype DT from an input of any dtype
 * (loaded as raw bits of its size, converted by bits_any_*) */
template <int DT, typename S> struct UnaryK {
  typedef typename UOut<DT>::S T;
  typedef uint64_t V;
  const char *x;
  T *o;
  uint64_t bits;
  UParams p;
  int code, idt, isz, sc;
  bool same, via_double;
  __device__ __forceinline__ V load(const S *off) const {
    if (sc) return bits;
    switch (isz) {
    case 1: return ((const uint8_t *)x)[off[1]];
    case 2: return ((const uint16_t *)x)[off[1]];
    case 4: return ((const uint32_t *)x)[off[1]];
    default: return ((const uint64_t *)x)[off[1]];
    }
  }
  __device__ __forceinline__ void store(const S *off, V e) const {
    if (same) { /* copy_ within one dtype: the bits, as the CPU's memcpy */
      o[off[0]] = from_bits<T>(e);
      return;
    }
    if constexpr (UOut<DT>::floating) {
      o[off[0]] = UStore<DT>::f(unary_f(code, bits_any_f(e, idt), p));
    } else {
      if (via_double) { /* a predicate, or copy_ from a floating dtype: ct__store_double's conversions */
        const double v = unary_f(code, bits_any_f(e, idt), p);
        if constexpr (DT == CTCU_BOOL) o[off[0]] = v != 0;
        else if constexpr (DT == CTCU_I64) o[off[0]] = f2i64(v);
        else if constexpr (DT == CTCU_I32) o[off[0]] = f2i32(v);
        else o[off[0]] = (T)(uint32_t)f2i32(v);
      } else {
        o[off[0]] = UStore<DT>::f(unary_i(code, bits_any_i(e, idt), p));
      }
    }
  }
};
template <int DT, typename U, typename S>
__global__ void __launch_bounds__(kThreads) unary_kernel(const Args a, const Geo<S> g, U n) {
  typedef UnaryK<DT, S> K;
  K k;
  k.x = a.ptr[1], k.o = (typename K::T *)a.ptr[0], k.bits = a.bits[0];
  k.code = a.unary, k.idt = a.in_dtype, k.sc = a.scalar[0];
  k.p = a.up;
  k.same = k.code == CTCU_UN_COPY && k.idt == DT;
  k.via_double = unary_is_predicate(k.code) || k.idt <= CTCU_BF16;
  k.isz = k.idt == CTCU_F64 || k.idt == CTCU_I64 ? 8 : k.idt == CTCU_F32 || k.idt == CTCU_I32 ? 4 : k.idt == CTCU_F16 || k.idt == CTCU_BF16 ? 2 : 1;
  elem_loop<K, U, S>(k, g, a.ndim, a.contig, n);
}

/* where / masked_fill: out = in[0] ? in[1] : in[2], elements of T's size
 * (both candidates are read, so the loads need not wait for the condition) */
template <typename T, typename S> struct SelectK {
  struct V {
    uint8_t c;
    T x, y;
  };
  const uint8_t *cnd;
  const T *x, *y;
  T *o;
  T sx, sy;
  uint8_t scv;
  int sc0, sc1, sc2;
  __device__ __forceinline__ V load(const S *off) const {
    V e;
    e.c = sc0 ? scv : cnd[off[1]];
    e.x = sc1 ? sx : x[off[2]];
    e.y = sc2 ? sy : y[off[3]];
    return e;
  }
  __device__ __forceinline__ void store(const S *off, const V &e) const { o[off[0]] = e.c != 0 ? e.x : e.y; }
};
template <typename T, typename U, typename S>
__global__ void __launch_bounds__(kThreads) select_kernel(const Args a, const Geo<S> g, U n) {
  typedef SelectK<T, S> K;
  K k;
  k.cnd = (const uint8_t *)a.ptr[1], k.x = (const T *)a.ptr[2], k.y = (const T *)a.ptr[3], k.o = (T *)a.ptr[0];
  k.sx = from_bits<T>(a.bits[1]), k.sy = from_bits<T>(a.bits[2]);
  k.scv = (uint8_t)a.bits[0] != 0;
  k.sc0 = a.scalar[0], k.sc1 = a.scalar[1], k.sc2 = a.scalar[2];
  elem_loop<K, U, S>(k, g, a.ndim, a.contig, n);
}

__global__ void empty_kernel() {}

/* ---------------------------------------------------------------------------
 * host side */
inline bool is_floating(int dt) { return dt >= CTCU_F32 && dt <= CTCU_BF16; }
inline bool dtype_ok(int dt) { return dt >= CTCU_F32 && dt <= CTCU_BOOL; }
inline int dtype_size(int dt) {
  static const int sizes[] = {4, 8, 2, 2, 8, 4, 1, 1};
  return sizes[dt];
}
inline int dtype_class(int dt) { return is_floating(dt) ? C_FL : dt == CTCU_BOOL ? C_BO : C_IN; }

/* a 0-dim CPU operand's value as the storage bits of dtype dt (what the CPU loop would load) */
uint64_t scalar_bits(const ctcu_operand *o, int dt) {
  uint64_t b = 0;
  switch (dt) {
  case CTCU_F32: b = f2u((float)o->dval); break;
  case CTCU_F64: memcpy(&b, &o->dval, 8); break;
  case CTCU_F16: b = f32_to_f16((float)o->dval); break;
  case CTCU_BF16: b = f32_to_bf16((float)o->dval); break;
  case CTCU_I64: b = (uint64_t)o->ival; break;
  case CTCU_I32: b = (uint32_t)(uint64_t)o->ival; break;
  case CTCU_U8: b = (uint8_t)(uint64_t)o->ival; break;
  default: b = o->ival != 0; break;
  }
  return b;
}

struct HostGeo {
  int ndim;
  int64_t shape[CTCU_MAX_DIMS];
  int64_t st[4][CTCU_MAX_DIMS];
};

/* the geometry of d; ops[0] is out, ops[1..nops) the inputs */
void build_geo(const ctcu_pointwise_desc *d, int nops, const ctcu_operand *const *ops, HostGeo *g) {
  int j, k, n = 0;
  memset(g, 0, sizeof *g);
  if (d->flat) {
    g->ndim = 1;
    g->shape[0] = d->numel;
    for (j = 0; j < nops; j++) g->st[j][0] = ops[j]->is_scalar ? 0 : 1;
    return;
  }
  /* innermost first: drop size-1 dims, merge a dim into the one inside it
   * when every operand's stride allows */
  int64_t sh[CTCU_MAX_DIMS], st[4][CTCU_MAX_DIMS];
  for (k = d->ndim - 1; k >= 0; k--) {
    int64_t size = d->shape[k];
    if (size == 1) continue;
    if (n > 0) {
      bool merge = true;
      for (j = 0; j < nops && merge; j++)
        if (!ops[j]->is_scalar && ops[j]->strides[k] != st[j][n - 1] * sh[n - 1]) merge = false;
      if (merge) {
        sh[n - 1] *= size;
        continue;
      }
    }
    sh[n] = size;
    for (j = 0; j < nops; j++) st[j][n] = ops[j]->is_scalar ? 0 : ops[j]->strides[k];
    n++;
  }
  if (n == 0) { /* one element */
    g->ndim = 1;
    g->shape[0] = 1;
    return;
  }
  g->ndim = n;
  for (k = 0; k < n; k++) { /* back to row-major: outermost first */
    g->shape[k] = sh[n - 1 - k];
    for (j = 0; j < nops; j++) g->st[j][k] = st[j][n - 1 - k];
  }
}

/* does every index and offset fit in int32? */
bool geo_fits32(const HostGeo *g, int64_t numel) {
  if (numel > INT32_MAX) return false;
  for (int j = 0; j < 4; j++) {
    int64_t m = 0;
    for (int k = 0; k < g->ndim; k++) {
      int64_t s = g->st[j][k] < 0 ? -g->st[j][k] : g->st[j][k];
      if (s > INT32_MAX) return false;
      m += (g->shape[k] - 1) * s;
      if (m > INT32_MAX) return false;
    }
  }
  return true;
}

template <typename S> Geo<S> to_geo(const HostGeo *h) {
  Geo<S> g;
  memset(&g, 0, sizeof g);
  for (int k = 0; k < h->ndim; k++) {
    g.shape[k] = (S)h->shape[k];
    for (int j = 0; j < 4; j++) g.st[j][k] = (S)h->st[j][k];
  }
  return g;
}

std::atomic<int> sm_counts[64];
unsigned grid_for(int64_t numel, int contig) {
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) == cudaSuccess && dev >= 0 && dev < 64) {
    sms = sm_counts[dev].load(std::memory_order_relaxed);
    if (sms <= 0) {
      if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess && sms > 0)
        sm_counts[dev].store(sms, std::memory_order_relaxed);
      else
        sms = 0, (void)cudaGetLastError(); /* (a failed query must not read as the launch's error) */
    }
  } else {
    (void)cudaGetLastError();
  }
  int64_t cap = sms > 0 ? (int64_t)sms * 32 : 65535;
  const int64_t per_block = contig ? (int64_t)kThreads * kUnroll : kThreads;
  int64_t blocks = (numel + per_block - 1) / per_block;
  return (unsigned)(blocks < cap ? blocks : cap);
}

enum Kind { K_VALUE, K_UNARY, K_SELECT };

template <typename U, typename S>
void launch(Kind kind, int dt, int es, const Args &a, const HostGeo *hg, int64_t numel, cudaStream_t stream) {
  const Geo<S> g = to_geo<S>(hg);
  const U n = (U)numel;
  const unsigned blocks = grid_for(numel, a.contig);
  if (kind == K_VALUE) {
    switch (dt) {
    case CTCU_F32: pointwise_kernel<CTCU_F32, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_F64: pointwise_kernel<CTCU_F64, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_F16: pointwise_kernel<CTCU_F16, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_BF16: pointwise_kernel<CTCU_BF16, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_I64: pointwise_kernel<CTCU_I64, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_I32: pointwise_kernel<CTCU_I32, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_U8: pointwise_kernel<CTCU_U8, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    default: pointwise_kernel<CTCU_BOOL, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    }
  } else if (kind == K_UNARY) {
    switch (dt) { /* the output's dtype */
    case CTCU_F32: unary_kernel<CTCU_F32, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_F64: unary_kernel<CTCU_F64, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_F16: unary_kernel<CTCU_F16, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_BF16: unary_kernel<CTCU_BF16, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_I64: unary_kernel<CTCU_I64, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_I32: unary_kernel<CTCU_I32, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case CTCU_U8: unary_kernel<CTCU_U8, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    default: unary_kernel<CTCU_BOOL, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    }
  } else {
    switch (es) {
    case 1: select_kernel<uint8_t, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case 2: select_kernel<uint16_t, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    case 4: select_kernel<uint32_t, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    default: select_kernel<uint64_t, U, S><<<blocks, kThreads, 0, stream>>>(a, g, n); break;
    }
  }
}

} /* namespace */

/* ---------------------------------------------------------------------------
 * entry points */
extern "C" int ctcu_unary_code(const char *name) {
  static const struct {
    const char *name;
    int code;
  } table[] = {
      {"neg", CTCU_UN_NEG},       {"abs", CTCU_UN_ABS},         {"sign", CTCU_UN_SIGN},
      {"exp", CTCU_UN_EXP},       {"exp2", CTCU_UN_EXP2},       {"log", CTCU_UN_LOG},
      {"log2", CTCU_UN_LOG2},     {"log1p", CTCU_UN_LOG1P},     {"expm1", CTCU_UN_EXPM1},
      {"sqrt", CTCU_UN_SQRT},     {"rsqrt", CTCU_UN_RSQRT},     {"reciprocal", CTCU_UN_RECIPROCAL},
      {"square", CTCU_UN_SQUARE}, {"sin", CTCU_UN_SIN},         {"cos", CTCU_UN_COS},
      {"tan", CTCU_UN_TAN},       {"tanh", CTCU_UN_TANH},       {"sigmoid", CTCU_UN_SIGMOID},
      {"relu", CTCU_UN_RELU},     {"silu", CTCU_UN_SILU},       {"mish", CTCU_UN_MISH},
      {"erf", CTCU_UN_ERF},       {"floor", CTCU_UN_FLOOR},     {"ceil", CTCU_UN_CEIL},
      {"round", CTCU_UN_ROUND},   {"trunc", CTCU_UN_TRUNC},     {"copy_", CTCU_UN_COPY},
      {"asin", CTCU_UN_ASIN},     {"acos", CTCU_UN_ACOS},       {"atan", CTCU_UN_ATAN},
      {"sinh", CTCU_UN_SINH},     {"cosh", CTCU_UN_COSH},       {"asinh", CTCU_UN_ASINH},
      {"acosh", CTCU_UN_ACOSH},   {"atanh", CTCU_UN_ATANH},     {"log10", CTCU_UN_LOG10},
      {"erfc", CTCU_UN_ERFC},     {"lgamma", CTCU_UN_LGAMMA},   {"frac", CTCU_UN_FRAC},
      {"deg2rad", CTCU_UN_DEG2RAD}, {"rad2deg", CTCU_UN_RAD2DEG}, {"sinc", CTCU_UN_SINC},
      {"hardswish", CTCU_UN_HARDSWISH}, {"hardsigmoid", CTCU_UN_HARDSIGMOID}, {"log_sigmoid", CTCU_UN_LOG_SIGMOID},
      {"isnan", CTCU_UN_ISNAN},   {"isinf", CTCU_UN_ISINF},     {"isfinite", CTCU_UN_ISFINITE},
      {"isposinf", CTCU_UN_ISPOSINF}, {"isneginf", CTCU_UN_ISNEGINF},
      {"hardtanh", CTCU_UN_HARDTANH}, {"leaky_relu", CTCU_UN_LEAKY_RELU}, {"elu", CTCU_UN_ELU},
      {"gelu", CTCU_UN_GELU},     {"softplus", CTCU_UN_SOFTPLUS}, {"hardshrink", CTCU_UN_HARDSHRINK},
      {"softshrink", CTCU_UN_SOFTSHRINK}, {"threshold", CTCU_UN_THRESHOLD},
  };
  if (!name) return CTCU_UN_NONE;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (!strcmp(name, table[i].name)) return table[i].code;
  return CTCU_UN_NONE; /* round_dec, nan_to_num, logit, erfinv, digamma, polygamma, i0, special_i1, the binary math
                        * functions: computed on the host (ct_pointwise_on_host) */
}

extern "C" int ctcu_pointwise_launch(const ctcu_pointwise_desc *d, void *stream) {
  const ctcu_operand *ops[4];
  HostGeo hg;
  Args a;
  Kind kind;
  int op, dt, nin, nops, k, es = 0;
  if (!d) return -1;
  op = d->op, dt = d->dtype, nin = d->nin;
  if (op < 0 || op >= PW_NUM_OPS || !dtype_ok(dt) || nin != pw_nin[op]) return -1;
  if (d->ndim < 0 || d->ndim > CTCU_MAX_DIMS || d->numel < 0) return -1;
  /* which kernel, and is this (op, dtype) native? */
  if (op == PW_UNARY) {
    const int idt = d->in[0].dtype, odt = d->out.dtype;
    if (d->unary < 0 || d->unary >= CTCU_UN_NUM || !dtype_ok(idt) || !dtype_ok(odt)) return -1;
    if (!is_floating(odt) && !unary_is_predicate(d->unary) && d->unary != CTCU_UN_COPY &&
        (is_floating(idt) || !unary_has_int(d->unary)))
      return -1;
    if (unary_is_predicate(d->unary) && odt != CTCU_BOOL) return -1;
    kind = K_UNARY;
  } else if (op == PW_WHERE || op == PW_MASKED_FILL) {
    if (d->out.dtype != dt || (d->in[0].dtype != CTCU_BOOL && d->in[0].dtype != CTCU_U8)) return -1;
    for (k = 1; k < 3; k++)
      if (d->in[k].dtype != dt) return -1;
    es = dtype_size(dt);
    kind = K_SELECT;
  } else {
    if (!(pw_classes[op] & dtype_class(dt))) return -1;
    if (d->out.dtype != (op >= PW_EQ ? (int)CTCU_BOOL : dt)) return -1;
    for (k = 0; k < nin; k++) /* (0-dim CPU operands too: their value is read as dt's) */
      if (d->in[k].dtype != dt) return -1;
    kind = K_VALUE;
  }
  if (d->numel == 0) return 0;

  nops = 1 + nin;
  ops[0] = &d->out;
  for (k = 0; k < nin; k++) ops[k + 1] = &d->in[k];
  build_geo(d, nops, ops, &hg);

  memset(&a, 0, sizeof a);
  a.ptr[0] = d->out.data;
  for (k = 0; k < nin; k++) {
    const ctcu_operand *o = &d->in[k];
    int sdt = kind == K_UNARY ? o->dtype : kind == K_SELECT && k == 0 ? (int)CTCU_BOOL : dt;
    a.scalar[k] = o->is_scalar != 0;
    a.ptr[k + 1] = o->is_scalar ? NULL : o->data;
    if (o->is_scalar) a.bits[k] = scalar_bits(o, sdt);
  }
  a.ndim = hg.ndim;
  a.contig = hg.ndim == 1;
  for (k = 0; k < nops; k++)
    if (!ops[k]->is_scalar && hg.st[k][0] != 1) a.contig = 0;
  a.op = op;
  a.unary = d->unary;
  a.up.a = d->uparam[0], a.up.b = d->uparam[1], a.up.c = d->uparam[2], a.up.ia = d->uiparam[0], a.up.ib = d->uiparam[1];
  a.in_dtype = d->in[0].dtype;
  a.param = d->param;
  a.iparam = d->iparam;
  a.vt = dt == CTCU_I32 ? (int64_t)(int32_t)(uint32_t)(uint64_t)d->iparam
       : dt == CTCU_U8 ? (int64_t)(uint8_t)(uint64_t)d->iparam
       : dt == CTCU_BOOL ? (int64_t)(d->iparam != 0) : d->iparam;
  a.zd = (op == PW_DIV_TRUNC || op == PW_DIV_FLOOR || op == PW_REMAINDER || op == PW_FMOD) && !is_floating(dt) ? d->zero_divisor
                                                                                                            : NULL;
  const int kdt = kind == K_UNARY ? d->out.dtype : dt;
  cudaStream_t s = (cudaStream_t)stream;
  if (geo_fits32(&hg, d->numel)) launch<uint32_t, int32_t>(kind, kdt, es, a, &hg, d->numel, s);
  else launch<uint64_t, int64_t>(kind, kdt, es, a, &hg, d->numel, s);
  return (int)cudaGetLastError();
}

extern "C" int ctcu_launch_empty(void *stream) {
  empty_kernel<<<1, 1, 0, (cudaStream_t)stream>>>();
  return (int)cudaGetLastError();
}

/* ===========================================================================
 * The reduction loop: the reduction engine's reductions (sum, prod, mean,
 * amax / amin, var / std, vector norms, logsumexp, all / any, nansum,
 * nanmean, count_nonzero, argmax / argmin with values) and its cumsum /
 * cumprod scans, with the CPU loop's semantics (ct_host_reduction_loop and
 * its row functions in ctorch/ops/reduce.h):
 *   - floating compute in double, integer and bool compute in int64 with
 *     wrap-around, loads and stores converting as the CPU's do;
 *   - extremes: the first one in row order, a NaN winning (the first NaN);
 *     every partial result carries its position, so the parallel combine
 *     picks what the sequential loop picks;
 *   - var / std by Welford's update and Chan's combine, logsumexp by an
 *     online max-shifted sum: one pass; the CPU takes two passes, so these
 *     and the sums (a fixed tree, not the CPU's pairwise order) may differ
 *     from the CPU in the last bits of the double, never in what a float
 *     result rounds to beyond that.
 * A fixed partition and combine order: results are deterministic.
 *
 * Three shapes of launch, chosen per call:
 *   - a thread per (row, chunk): short rows, or rows whose elements are
 *     strided (reductions over an outer dim: neighbouring threads read
 *     neighbouring columns); scans always run a thread per row;
 *   - a block per (row, chunk): long contiguous rows;
 *   - chunks > 1 when rows are too few to fill the GPU: each chunk's
 *     partial result goes to scratch, and a second kernel combines a row's
 *     chunks in order and stores the result. */
namespace {

enum {
  RD_SUM, RD_PROD, RD_MEAN, RD_AMAX, RD_AMIN, RD_VAR, RD_STD, RD_NORM, RD_LOGSUMEXP, RD_ALL, RD_ANY, RD_NANSUM,
  RD_NANMEAN, RD_COUNT_NONZERO, RD_ARGMAX, RD_ARGMIN, RD_CUMSUM, RD_CUMPROD,
  RD_SOFTMAX = 28, RD_LOG_SOFTMAX = 29 /* (ct_reduction_op's values; those between are staged on the host) */
};

struct RdGeo {
  int nk, nr;
  int64_t ksize[CTCU_MAX_DIMS], kin[CTCU_MAX_DIMS], kout[CTCU_MAX_DIMS], kidx[CTCU_MAX_DIMS];
  int64_t rsize[CTCU_MAX_DIMS], rin[CTCU_MAX_DIMS], rout[CTCU_MAX_DIMS];
  int64_t rows, n;
};
struct RdArgs {
  const char *in;
  char *out;
  int64_t *idx;
  int op, out_dt, out_int;
  double param;
  int64_t chunks, chunk_len; /* a row's chunks, elements per chunk */
};
/* a partial result: a, b (double state), i (integer state), c (count, or the extreme's position; -1: none yet) */
struct Acc {
  double a, b;
  int64_t i, c;
};


/* element e of the input as double / int64 (ct__load_double, ct__rd_load_i64) */
template <int DT> __device__ __forceinline__ double rd_ldf(const char *p, int64_t e) {
  typedef typename DType<DT>::S S;
  return (double)DType<DT>::ld(((const S *)p)[e]);
}
template <int DT> __device__ __forceinline__ int64_t rd_ldi(const char *p, int64_t e) {
  if constexpr (DT <= CTCU_BF16) return f2i64(rd_ldf<DT>(p, e));
  else return (int64_t)DType<DT>::ld(((const typename DType<DT>::S *)p)[e]);
}
/* stores (ct__rd_store_f, ct__rd_store_i64) */
__device__ void rd_stf(char *p, int dt, int64_t e, double v) {
  switch (dt) {
  case CTCU_F32: ((float *)p)[e] = (float)v; break;
  case CTCU_F64: ((double *)p)[e] = v; break;
  case CTCU_F16: ((uint16_t *)p)[e] = f32_to_f16((float)v); break;
  case CTCU_BF16: ((uint16_t *)p)[e] = f32_to_bf16((float)v); break;
  case CTCU_I64: ((int64_t *)p)[e] = f2i64(v); break;
  case CTCU_I32: ((int32_t *)p)[e] = f2i32(v); break;
  case CTCU_U8: ((uint8_t *)p)[e] = (uint8_t)(uint32_t)f2i32(v); break;
  default: ((uint8_t *)p)[e] = v != 0; break;
  }
}
__device__ void rd_sti(char *p, int dt, int64_t e, int64_t v) {
  switch (dt) {
  case CTCU_I64: ((int64_t *)p)[e] = v; break;
  case CTCU_I32: ((int32_t *)p)[e] = (int32_t)(uint32_t)(uint64_t)v; break;
  case CTCU_U8: ((uint8_t *)p)[e] = (uint8_t)(uint64_t)v; break;
  case CTCU_BOOL: ((uint8_t *)p)[e] = v != 0; break;
  default: rd_stf(p, dt, e, (double)v); break;
  }
}

/* offsets of row r's first element in the input, values and indices */
__device__ __forceinline__ void rd_row_offsets(const RdGeo &g, int64_t r, int64_t *oin, int64_t *oout, int64_t *oidx) {
  int64_t a = 0, b = 0, c = 0;
  for (int d = g.nk - 1; d >= 0; d--) {
    const int64_t s = g.ksize[d], k = r % s;
    r /= s;
    a += k * g.kin[d], b += k * g.kout[d], c += k * g.kidx[d];
  }
  *oin = a, *oout = b, *oidx = c;
}
/* offset of element i of a row, through the reduced dims' strides st */
__device__ __forceinline__ int64_t rd_elem(const RdGeo &g, const int64_t *st, int64_t i) {
  if (g.nr <= 1) return g.nr ? i * st[0] : 0;
  int64_t o = 0;
  for (int d = g.nr - 1; d >= 0; d--) {
    const int64_t s = g.rsize[d];
    o += (i % s) * st[d];
    i /= s;
  }
  return o;
}

__device__ __forceinline__ bool is_max_op(int op) { return op == RD_AMAX || op == RD_ARGMAX; }

__device__ __forceinline__ void acc_init(int op, double p, Acc &s) {
  s.a = 0, s.b = 0, s.i = 0, s.c = 0;
  if (op == RD_PROD) s.a = 1, s.i = 1;
  else if (op == RD_ALL) s.i = 1;
  else if (op == RD_AMAX || op == RD_AMIN || op == RD_ARGMAX || op == RD_ARGMIN || (op == RD_NORM && isinf(p))) s.c = -1;
  else if (op == RD_LOGSUMEXP) s.a = -INFINITY;
}
/* x (at position pos) into s: the row functions' step */
__device__ __forceinline__ void acc_addf(int op, double p, Acc &s, double x, int64_t pos) {
  switch (op) {
  case RD_SUM:
  case RD_MEAN: s.a = __dadd_rn(s.a, x); break;
  case RD_NANSUM:
    if (x == x) s.a = __dadd_rn(s.a, x);
    break;
  case RD_NANMEAN:
    if (x == x) s.a = __dadd_rn(s.a, x), s.c++;
    break;
  case RD_PROD: s.a = __dmul_rn(s.a, x); break;
  case RD_AMAX:
  case RD_AMIN:
  case RD_ARGMAX:
  case RD_ARGMIN:
    if (s.c < 0 || (s.a == s.a && (x != x || (is_max_op(op) ? x > s.a : x < s.a)))) s.a = x, s.c = pos;
    break;
  case RD_VAR:
  case RD_STD: {
    s.c++;
    const double delta = __dsub_rn(x, s.a);
    s.a = __dadd_rn(s.a, __ddiv_rn(delta, (double)s.c));
    s.b = __dadd_rn(s.b, __dmul_rn(delta, __dsub_rn(x, s.a)));
    break;
  }
  case RD_NORM: {
    const double ax = fabs(x);
    if (isinf(p)) {
      if (s.c < 0 || (s.a == s.a && (ax != ax || (p > 0 ? ax > s.a : ax < s.a)))) s.a = ax, s.c = pos;
    } else if (p == 0) {
      s.a = __dadd_rn(s.a, x != 0 ? 1.0 : 0.0);
    } else if (p == 1) {
      s.a = __dadd_rn(s.a, ax);
    } else if (p == 2) {
      s.a = __dadd_rn(s.a, __dmul_rn(x, x));
    } else {
      s.a = __dadd_rn(s.a, pw_pow(ax, p));
    }
    break;
  }
  case RD_LOGSUMEXP: /* a: the running max (a NaN sticks), b: the sum of exp(x - a) */
    if (s.a != s.a || x == -INFINITY) break;
    if (x != x) s.a = x;
    else if (x > s.a) s.b = __dadd_rn(s.a == -INFINITY ? 0.0 : __dmul_rn(s.b, exp(__dsub_rn(s.a, x))), 1.0), s.a = x;
    else s.b = __dadd_rn(s.b, exp(__dsub_rn(x, s.a)));
    break;
  case RD_ALL:
    if (x == 0) s.i = 0;
    break;
  case RD_ANY:
    if (x != 0) s.i = 1;
    break;
  case RD_COUNT_NONZERO: s.i += x != 0; break;
  default: break;
  }
}
__device__ __forceinline__ void acc_addi(int op, Acc &s, int64_t v, int64_t pos) {
  switch (op) {
  case RD_SUM:
  case RD_NANSUM: s.i = (int64_t)((uint64_t)s.i + (uint64_t)v); break;
  case RD_PROD: s.i = (int64_t)((uint64_t)s.i * (uint64_t)v); break;
  case RD_AMAX:
  case RD_AMIN:
  case RD_ARGMAX:
  case RD_ARGMIN:
    if (s.c < 0 || (is_max_op(op) ? v > s.i : v < s.i)) s.i = v, s.c = pos;
    break;
  case RD_ALL:
    if (v == 0) s.i = 0;
    break;
  case RD_ANY:
    if (v != 0) s.i = 1;
    break;
  case RD_COUNT_NONZERO: s.i += v != 0; break;
  default: break;
  }
}
/* s = the combination of s (any positions) and t: the same result as
 * adding t's elements to s's one by one in position order */
__device__ __forceinline__ void acc_combine(int op, double p, int ic, Acc &s, const Acc &t) {
  switch (op) {
  case RD_SUM:
  case RD_MEAN:
  case RD_NANSUM:
    if (ic) s.i = (int64_t)((uint64_t)s.i + (uint64_t)t.i);
    else s.a = __dadd_rn(s.a, t.a);
    break;
  case RD_NANMEAN: s.a = __dadd_rn(s.a, t.a), s.c += t.c; break;
  case RD_PROD:
    if (ic) s.i = (int64_t)((uint64_t)s.i * (uint64_t)t.i);
    else s.a = __dmul_rn(s.a, t.a);
    break;
  case RD_AMAX:
  case RD_AMIN:
  case RD_ARGMAX:
  case RD_ARGMIN: {
    if (t.c < 0) break;
    if (s.c < 0) {
      s = t;
      break;
    }
    const bool mx = is_max_op(op);
    bool take;
    if (ic) {
      take = (mx ? t.i > s.i : t.i < s.i) || (t.i == s.i && t.c < s.c);
    } else {
      const bool sn = s.a != s.a, tn = t.a != t.a;
      take = sn || tn ? (tn && (!sn || t.c < s.c)) : (mx ? t.a > s.a : t.a < s.a) || (t.a == s.a && t.c < s.c);
    }
    if (take) s = t;
    break;
  }
  case RD_VAR:
  case RD_STD: {
    if (t.c == 0) break;
    if (s.c == 0) {
      s = t;
      break;
    }
    const double na = (double)s.c, nb = (double)t.c, nn = __dadd_rn(na, nb), delta = __dsub_rn(t.a, s.a);
    s.a = __dadd_rn(s.a, __dmul_rn(delta, __ddiv_rn(nb, nn)));
    s.b = __dadd_rn(__dadd_rn(s.b, t.b), __dmul_rn(__dmul_rn(delta, delta), __ddiv_rn(__dmul_rn(na, nb), nn)));
    s.c += t.c;
    break;
  }
  case RD_NORM:
    if (isinf(p)) {
      if (t.c < 0) break;
      if (s.c < 0 || (s.a == s.a && (t.a != t.a || (p > 0 ? t.a > s.a : t.a < s.a)))) s.a = t.a, s.c = t.c;
    } else {
      s.a = __dadd_rn(s.a, t.a);
    }
    break;
  case RD_LOGSUMEXP: {
    if (s.a != s.a) break;
    if (t.a != t.a) {
      s.a = t.a;
      break;
    }
    const double m = s.a > t.a ? s.a : t.a;
    if (m == -INFINITY) break;
    const double ss = s.a == m ? s.b : __dmul_rn(s.b, exp(__dsub_rn(s.a, m)));
    const double ts = t.a == m ? t.b : __dmul_rn(t.b, exp(__dsub_rn(t.a, m)));
    s.a = m, s.b = __dadd_rn(ss, ts);
    break;
  }
  case RD_ALL: s.i &= t.i; break;
  case RD_ANY: s.i |= t.i; break;
  case RD_COUNT_NONZERO: s.i += t.i; break;
  default: break;
  }
}
/* the row's results from its combined state: values, and the extreme's position */
__device__ void acc_store(const RdArgs &a, int ic, int64_t n, const Acc &s, int64_t oout, int64_t oidx) {
  double v = s.a;
  int64_t iv = s.i;
  switch (a.op) {
  case RD_MEAN: v = __ddiv_rn(s.a, (double)n); break;
  case RD_NANMEAN: v = __ddiv_rn(s.a, (double)s.c); break;
  case RD_VAR:
  case RD_STD: {
    const double div = __dsub_rn((double)n, a.param);
    v = __ddiv_rn(s.b, div > 0 ? div : 0.0);
    if (a.op == RD_STD) v = sqrt(v);
    break;
  }
  case RD_NORM:
    if (isinf(a.param)) v = n ? s.a : 0.0;
    else if (a.param == 2) v = sqrt(s.a);
    else if (a.param != 0 && a.param != 1) v = pw_pow(s.a, 1.0 / a.param);
    break;
  case RD_LOGSUMEXP:
    if (s.a == s.a && !isinf(s.a)) v = __dadd_rn(s.a, log(s.b));
    break;
  default: break;
  }
  if (a.out) {
    if (a.out_int || ic) rd_sti(a.out, a.out_dt, oout, iv); /* (integer results: all, any, count_nonzero, integer compute) */
    else rd_stf(a.out, a.out_dt, oout, v);
  }
  if (a.idx) a.idx[oidx] = s.c;
}

/* the elements [lo, hi) of the row at oin into s, in order */
template <int DT>
__device__ __forceinline__ void acc_range(const RdArgs &a, const RdGeo &g, int ic, Acc &s, int64_t oin, int64_t lo, int64_t hi,
                                          int64_t step) {
  for (int64_t i = lo; i < hi; i += step) {
    const int64_t e = oin + rd_elem(g, g.rin, i);
    if (ic) acc_addi(a.op, s, rd_ldi<DT>(a.in, e), i);
    else acc_addf(a.op, a.param, s, rd_ldf<DT>(a.in, e), i);
  }
}

/* a thread per (row, chunk); threads next to each other take rows next to each other */
template <int DT> __global__ void __launch_bounds__(kThreads) rd_thread_kernel(const RdArgs a, const RdGeo g, int ic, Acc *scratch) {
  const int64_t total = g.rows * a.chunks;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (int64_t)gridDim.x * blockDim.x) {
    const int64_t r = t % g.rows, ch = t / g.rows;
    int64_t oin, oout, oidx;
    Acc s;
    rd_row_offsets(g, r, &oin, &oout, &oidx);
    acc_init(a.op, a.param, s);
    const int64_t lo = ch * a.chunk_len, hi = lo + a.chunk_len < g.n ? lo + a.chunk_len : g.n;
    acc_range<DT>(a, g, ic, s, oin, lo, hi, 1);
    if (scratch) scratch[r * a.chunks + ch] = s;
    else acc_store(a, ic, g.n, s, oout, oidx);
  }
}

/* a block per (row, chunk): the block's threads stride through the chunk,
 * then combine in a fixed tree */
template <int DT> __global__ void __launch_bounds__(kThreads) rd_block_kernel(const RdArgs a, const RdGeo g, int ic, Acc *scratch) {
  __shared__ Acc sh[kThreads];
  const int64_t total = g.rows * a.chunks;
  for (int64_t b = blockIdx.x; b < total; b += gridDim.x) {
    const int64_t r = b / a.chunks, ch = b % a.chunks;
    int64_t oin, oout, oidx;
    Acc s;
    rd_row_offsets(g, r, &oin, &oout, &oidx);
    acc_init(a.op, a.param, s);
    const int64_t lo = ch * a.chunk_len, hi = lo + a.chunk_len < g.n ? lo + a.chunk_len : g.n;
    acc_range<DT>(a, g, ic, s, oin, lo + threadIdx.x, hi, blockDim.x);
    sh[threadIdx.x] = s;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
      if (threadIdx.x < w) acc_combine(a.op, a.param, ic, sh[threadIdx.x], sh[threadIdx.x + w]);
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      if (scratch) scratch[r * a.chunks + ch] = sh[0];
      else acc_store(a, ic, g.n, sh[0], oout, oidx);
    }
    __syncthreads(); /* (sh is reused by the next row) */
  }
}

/* a thread per row: the row's chunks, in order */
__global__ void __launch_bounds__(kThreads) rd_finish_kernel(const RdArgs a, const RdGeo g, int ic, const Acc *scratch) {
  for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < g.rows; r += (int64_t)gridDim.x * blockDim.x) {
    int64_t oin, oout, oidx;
    Acc s = scratch[r * a.chunks];
    rd_row_offsets(g, r, &oin, &oout, &oidx);
    for (int64_t ch = 1; ch < a.chunks; ch++) acc_combine(a.op, a.param, ic, s, scratch[r * a.chunks + ch]);
    acc_store(a, ic, g.n, s, oout, oidx);
  }
}

/* cumsum / cumprod: a thread per row, in order (ct__rd_cum_row) */
template <int DT> __global__ void __launch_bounds__(kThreads) rd_scan_kernel(const RdArgs a, const RdGeo g, int ic) {
  const bool prod = a.op == RD_CUMPROD;
  for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < g.rows; r += (int64_t)gridDim.x * blockDim.x) {
    int64_t oin, oout, oidx;
    rd_row_offsets(g, r, &oin, &oout, &oidx);
    if (ic) {
      uint64_t s = prod ? 1 : 0;
      for (int64_t i = 0; i < g.n; i++) {
        const uint64_t x = (uint64_t)rd_ldi<DT>(a.in, oin + rd_elem(g, g.rin, i));
        s = prod ? s * x : s + x;
        rd_sti(a.out, a.out_dt, oout + rd_elem(g, g.rout, i), (int64_t)s);
      }
    } else {
      double s = prod ? 1 : 0;
      for (int64_t i = 0; i < g.n; i++) {
        const double x = rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i));
        s = prod ? __dmul_rn(s, x) : __dadd_rn(s, x);
        rd_stf(a.out, a.out_dt, oout + rd_elem(g, g.rout, i), s);
      }
    }
  }
}

/* softmax / log_softmax (ops/nn.h's row function, in double): the max with
 * a NaN winning, the sum of exp(x - max), then the row. A thread per row in
 * the CPU's order, or a block per contiguous row (its sum combined in a
 * fixed tree). */
__device__ __forceinline__ double sm_max(double m, double x) { return m != m ? m : x > m || x != x ? x : m; }
__device__ __forceinline__ double sm_out(bool lg, double x, double m, double ls_or_s) {
  return lg ? __dsub_rn(x, ls_or_s) : __ddiv_rn(exp(__dsub_rn(x, m)), ls_or_s);
}
template <int DT> __global__ void __launch_bounds__(kThreads) rd_softmax_thread_kernel(const RdArgs a, const RdGeo g) {
  const bool lg = a.op == RD_LOG_SOFTMAX;
  for (int64_t r = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; r < g.rows; r += (int64_t)gridDim.x * blockDim.x) {
    int64_t oin, oout, oidx;
    double m = -INFINITY, s = 0;
    rd_row_offsets(g, r, &oin, &oout, &oidx);
    for (int64_t i = 0; i < g.n; i++) m = sm_max(m, rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i)));
    for (int64_t i = 0; i < g.n; i++) s = __dadd_rn(s, exp(__dsub_rn(rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i)), m)));
    const double t = lg ? __dadd_rn(m, log(s)) : s;
    for (int64_t i = 0; i < g.n; i++)
      rd_stf(a.out, a.out_dt, oout + rd_elem(g, g.rout, i), sm_out(lg, rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i)), m, t));
  }
}
template <int DT> __global__ void __launch_bounds__(kThreads) rd_softmax_block_kernel(const RdArgs a, const RdGeo g) {
  __shared__ double sh[kThreads];
  const bool lg = a.op == RD_LOG_SOFTMAX;
  for (int64_t r = blockIdx.x; r < g.rows; r += gridDim.x) {
    int64_t oin, oout, oidx;
    double m = -INFINITY, s = 0;
    rd_row_offsets(g, r, &oin, &oout, &oidx);
    for (int64_t i = threadIdx.x; i < g.n; i += blockDim.x) m = sm_max(m, rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i)));
    sh[threadIdx.x] = m;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
      if (threadIdx.x < w) sh[threadIdx.x] = sm_max(sh[threadIdx.x], sh[threadIdx.x + w]);
      __syncthreads();
    }
    m = sh[0];
    __syncthreads();
    for (int64_t i = threadIdx.x; i < g.n; i += blockDim.x)
      s = __dadd_rn(s, exp(__dsub_rn(rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i)), m)));
    sh[threadIdx.x] = s;
    __syncthreads();
    for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
      if (threadIdx.x < w) sh[threadIdx.x] = __dadd_rn(sh[threadIdx.x], sh[threadIdx.x + w]);
      __syncthreads();
    }
    s = sh[0];
    const double t = lg ? __dadd_rn(m, log(s)) : s;
    for (int64_t i = threadIdx.x; i < g.n; i += blockDim.x)
      rd_stf(a.out, a.out_dt, oout + rd_elem(g, g.rout, i), sm_out(lg, rd_ldf<DT>(a.in, oin + rd_elem(g, g.rin, i)), m, t));
    __syncthreads(); /* (sh is reused by the next row) */
  }
}

int device_sms(void) {
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= 64) return (void)cudaGetLastError(), 0;
  sms = sm_counts[dev].load(std::memory_order_relaxed);
  if (sms <= 0) {
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess && sms > 0)
      sm_counts[dev].store(sms, std::memory_order_relaxed);
    else
      sms = 0, (void)cudaGetLastError();
  }
  return sms;
}

template <int DT>
void rd_launch_dt(int kind, unsigned blocks, unsigned threads, const RdArgs &a, const RdGeo &g, int ic, Acc *scratch,
                  cudaStream_t s) {
  if (kind == 0) rd_thread_kernel<DT><<<blocks, threads, 0, s>>>(a, g, ic, scratch);
  else if (kind == 1) rd_block_kernel<DT><<<blocks, threads, 0, s>>>(a, g, ic, scratch);
  else if (kind == 2) rd_scan_kernel<DT><<<blocks, threads, 0, s>>>(a, g, ic);
  else if (kind == 3) rd_softmax_thread_kernel<DT><<<blocks, threads, 0, s>>>(a, g);
  else rd_softmax_block_kernel<DT><<<blocks, threads, 0, s>>>(a, g);
}
void rd_launch(int dt, int kind, unsigned blocks, unsigned threads, const RdArgs &a, const RdGeo &g, int ic, Acc *scratch,
               cudaStream_t s) {
  switch (dt) {
  case CTCU_F32: rd_launch_dt<CTCU_F32>(kind, blocks, threads, a, g, ic, scratch, s); break;
  case CTCU_F64: rd_launch_dt<CTCU_F64>(kind, blocks, threads, a, g, ic, scratch, s); break;
  case CTCU_F16: rd_launch_dt<CTCU_F16>(kind, blocks, threads, a, g, ic, scratch, s); break;
  case CTCU_BF16: rd_launch_dt<CTCU_BF16>(kind, blocks, threads, a, g, ic, scratch, s); break;
  case CTCU_I64: rd_launch_dt<CTCU_I64>(kind, blocks, threads, a, g, ic, scratch, s); break;
  case CTCU_I32: rd_launch_dt<CTCU_I32>(kind, blocks, threads, a, g, ic, scratch, s); break;
  case CTCU_U8: rd_launch_dt<CTCU_U8>(kind, blocks, threads, a, g, ic, scratch, s); break;
  default: rd_launch_dt<CTCU_BOOL>(kind, blocks, threads, a, g, ic, scratch, s); break;
  }
}
unsigned rd_grid(int64_t units, int64_t per_block, int sms) {
  const int64_t cap = sms > 0 ? (int64_t)sms * 32 : 65535;
  const int64_t b = (units + per_block - 1) / per_block;
  return (unsigned)(b < 1 ? 1 : b < cap ? b : cap);
}

} /* namespace */

extern "C" int ctcu_reduction_launch(const ctcu_reduction_desc *d, void *stream, void *scratch, size_t *scratch_bytes) {
  RdGeo g;
  RdArgs a;
  int k, ic, kind;
  const bool softmax = d && (d->op == RD_SOFTMAX || d->op == RD_LOG_SOFTMAX);
  if (!d || ((d->op < RD_SUM || d->op > RD_CUMPROD) && !softmax) || !dtype_ok(d->in_dtype)) return -1;
  if (softmax && (d->int_compute || !d->out || !is_floating(d->out_dtype))) return -1;
  if (d->nkept < 0 || d->nkept > CTCU_MAX_DIMS || d->nred < 0 || d->nred > CTCU_MAX_DIMS) return -1;
  if (d->out && !dtype_ok(d->out_dtype)) return -1;
  ic = d->int_compute != 0;
  /* integer compute exists for these (the engine's _i row functions) */
  if (ic && !(d->op == RD_SUM || d->op == RD_NANSUM || d->op == RD_PROD || d->op == RD_AMAX || d->op == RD_AMIN ||
              d->op == RD_ARGMAX || d->op == RD_ARGMIN || d->op == RD_ALL || d->op == RD_ANY || d->op == RD_COUNT_NONZERO ||
              d->op == RD_CUMSUM || d->op == RD_CUMPROD))
    return -1;
  if ((d->op == RD_CUMSUM || d->op == RD_CUMPROD) && !d->out) return -1;
  if (d->rows <= 0) return 0;
  memset(&g, 0, sizeof g);
  g.nk = d->nkept, g.nr = d->nred, g.rows = d->rows, g.n = d->n;
  for (k = 0; k < g.nk; k++)
    g.ksize[k] = d->kept_size[k], g.kin[k] = d->kept_in[k], g.kout[k] = d->kept_out[k], g.kidx[k] = d->kept_idx[k];
  for (k = 0; k < g.nr; k++) g.rsize[k] = d->red_size[k], g.rin[k] = d->red_in[k], g.rout[k] = d->red_out[k];
  memset(&a, 0, sizeof a);
  a.in = d->in, a.out = d->out, a.idx = d->indices;
  a.op = d->op, a.out_dt = d->out_dtype, a.out_int = d->out_int, a.param = d->param;
  const int sms = device_sms();
  const int64_t fill = (int64_t)(sms > 0 ? sms : 80) * 2048; /* threads that keep every SM busy */
  cudaStream_t s = (cudaStream_t)stream;
  if (softmax) { /* a block per long contiguous row, else a thread per row */
    a.chunks = 1, a.chunk_len = g.n;
    if (g.nr >= 1 && g.rin[g.nr - 1] == 1 && g.n > 16) {
      unsigned threads = 32;
      while (threads < kThreads && (int64_t)threads < g.n) threads *= 2;
      rd_launch(d->in_dtype, 4, rd_grid(g.rows, 1, sms), threads, a, g, 0, NULL, s);
    } else {
      rd_launch(d->in_dtype, 3, rd_grid(g.rows, kThreads, sms), kThreads, a, g, 0, NULL, s);
    }
    return (int)cudaGetLastError();
  }
  if (d->op == RD_CUMSUM || d->op == RD_CUMPROD) {
    a.chunks = 1, a.chunk_len = g.n;
    rd_launch(d->in_dtype, 2, rd_grid(g.rows, kThreads, sms), kThreads, a, g, ic, NULL, s);
    return (int)cudaGetLastError();
  }
  /* the launch's shape: rows of contiguous elements longer than 16 get a block each */
  const bool contiguous_rows = g.nr >= 1 && g.rin[g.nr - 1] == 1;
  kind = contiguous_rows && g.n > 16 ? 1 : 0;
  int64_t chunks = 1;
  if (kind == 1) {
    /* too few rows for the SMs: split long rows into chunks of at least 4096 */
    const int64_t want = (int64_t)(sms > 0 ? sms : 80) * 4;
    if (g.rows < want && g.n >= 8192) {
      chunks = (want + g.rows - 1) / g.rows;
      const int64_t most = g.n / 4096;
      if (chunks > most) chunks = most;
    }
  } else if (g.rows < fill && g.n >= 256) {
    chunks = (fill + g.rows - 1) / g.rows; /* chunks of at least 64 */
    const int64_t most = g.n / 64;
    if (chunks > most) chunks = most;
  }
  if (chunks < 1) chunks = 1;
  a.chunks = chunks;
  a.chunk_len = (g.n + chunks - 1) / chunks;
  Acc *acc = NULL;
  if (chunks > 1) {
    const size_t need = (size_t)g.rows * (size_t)chunks * sizeof(Acc);
    if (!scratch || !scratch_bytes || *scratch_bytes < need) {
      if (scratch_bytes) *scratch_bytes = need;
      return -2;
    }
    acc = (Acc *)scratch;
  }
  if (kind == 1) {
    unsigned threads = 32;
    while (threads < kThreads && (int64_t)threads < a.chunk_len) threads *= 2;
    rd_launch(d->in_dtype, 1, rd_grid(g.rows * chunks, 1, sms), threads, a, g, ic, acc, s);
  } else {
    rd_launch(d->in_dtype, 0, rd_grid(g.rows * chunks, kThreads, sms), kThreads, a, g, ic, acc, s);
  }
  if (chunks > 1) {
    const int e = (int)cudaGetLastError();
    if (e) return e;
    rd_finish_kernel<<<rd_grid(g.rows, kThreads, sms), kThreads, 0, s>>>(a, g, ic, acc);
  }
  return (int)cudaGetLastError();
}

/* ---------------------------------------------------------------------------
 * The index loop: gather / scatter / scatter_add / fill through an index
 * (ctorch/ops/shape.h). A thread per position of the iteration shape; ADD
 * accumulates with atomics (sums of duplicate indices in any order, as
 * PyTorch's CUDA index_add / scatter_add; dtypes narrower than 32 bits
 * through a compare-and-swap of their 32-bit word). */
namespace {
struct IxArgs {
  int mode, ndim, i32;
  int64_t shape[CTCU_MAX_DIMS], sst[CTCU_MAX_DIMS], ist[CTCU_MAX_DIMS], ost[CTCU_MAX_DIMS];
  int64_t dim_stride, bound, numel;
  char *self;
  const char *index;
  char *other;
  uint64_t value;
  unsigned long long *bad;
};
/* *p = f(*p) on a 1- or 2-byte element, through its aligned 32-bit word */
template <typename T, typename F> __device__ void ix_cas_small(T *p, F f) {
  unsigned int *word = (unsigned int *)((uintptr_t)p & ~(uintptr_t)3);
  const unsigned int shift = (unsigned int)((uintptr_t)p & 3) * 8, mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const T cur = (T)((assumed & mask) >> shift);
    const unsigned int upd = (assumed & ~mask) | (((unsigned int)f(cur) << shift) & mask);
    old = atomicCAS(word, assumed, upd);
  } while (old != assumed);
}
template <int DT> __device__ __forceinline__ void ix_add(typename DType<DT>::S *p, typename DType<DT>::S x) {
  if constexpr (DT == CTCU_F32) atomicAdd(p, x);
  else if constexpr (DT == CTCU_F64) atomicAdd(p, x);
  else if constexpr (DT == CTCU_I64) atomicAdd((unsigned long long *)p, (unsigned long long)x);
  else if constexpr (DT == CTCU_I32) atomicAdd((unsigned int *)p, (unsigned int)x);
  else if constexpr (DT == CTCU_F16) ix_cas_small(p, [x](uint16_t c) { return f32_to_f16((float)((double)f16_to_f32(c) + (double)f16_to_f32(x))); });
  else if constexpr (DT == CTCU_BF16) ix_cas_small(p, [x](uint16_t c) { return f32_to_bf16((float)((double)bf16_to_f32(c) + (double)bf16_to_f32(x))); });
  else if constexpr (DT == CTCU_U8) ix_cas_small(p, [x](uint8_t c) { return (uint8_t)(c + x); });
  else ix_cas_small(p, [x](uint8_t c) { return (uint8_t)((c != 0) || (x != 0)); });
}
template <int DT> __global__ void __launch_bounds__(kThreads) index_kernel(const IxArgs a) {
  typedef typename DType<DT>::S T;
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.numel; i += (int64_t)gridDim.x * blockDim.x) {
    int64_t rem = i, so = 0, io = 0, oo = 0;
    for (int k = a.ndim - 1; k >= 0; k--) {
      const int64_t c = rem % a.shape[k];
      rem /= a.shape[k];
      so += c * a.sst[k], io += c * a.ist[k], oo += c * a.ost[k];
    }
    const int64_t v = a.i32 ? (int64_t)((const int32_t *)a.index)[io] : ((const int64_t *)a.index)[io];
    if (v < 0 || v >= a.bound) {
      atomicMin(a.bad, (unsigned long long)i);
      continue;
    }
    T *s = (T *)a.self + so + v * a.dim_stride;
    switch (a.mode) {
    case 0: ((T *)a.other)[oo] = *s; break;
    case 1: *s = ((const T *)a.other)[oo]; break;
    case 2: ix_add<DT>(s, ((const T *)a.other)[oo]); break;
    default: *s = from_bits<T>(a.value); break;
    }
  }
}
} /* namespace */

extern "C" int ctcu_index_launch(const ctcu_index_desc *d, void *stream) {
  IxArgs a;
  if (!d || !dtype_ok(d->dtype) || d->mode < 0 || d->mode > 3 || d->ndim < 1 || d->ndim > CTCU_MAX_DIMS) return -1;
  if (d->numel <= 0) return 0;
  memset(&a, 0, sizeof a);
  a.mode = d->mode, a.ndim = d->ndim, a.i32 = d->index_i32;
  for (int k = 0; k < d->ndim; k++) a.shape[k] = d->shape[k], a.sst[k] = d->self_st[k], a.ist[k] = d->index_st[k], a.ost[k] = d->other_st[k];
  a.dim_stride = d->dim_stride, a.bound = d->bound, a.numel = d->numel;
  a.self = d->self, a.index = d->index, a.other = d->other, a.value = d->value, a.bad = d->bad_pos;
  const unsigned blocks = rd_grid(d->numel, kThreads, device_sms());
  cudaStream_t s = (cudaStream_t)stream;
  switch (d->dtype) {
  case CTCU_F32: index_kernel<CTCU_F32><<<blocks, kThreads, 0, s>>>(a); break;
  case CTCU_F64: index_kernel<CTCU_F64><<<blocks, kThreads, 0, s>>>(a); break;
  case CTCU_F16: index_kernel<CTCU_F16><<<blocks, kThreads, 0, s>>>(a); break;
  case CTCU_BF16: index_kernel<CTCU_BF16><<<blocks, kThreads, 0, s>>>(a); break;
  case CTCU_I64: index_kernel<CTCU_I64><<<blocks, kThreads, 0, s>>>(a); break;
  case CTCU_I32: index_kernel<CTCU_I32><<<blocks, kThreads, 0, s>>>(a); break;
  case CTCU_U8: index_kernel<CTCU_U8><<<blocks, kThreads, 0, s>>>(a); break;
  default: index_kernel<CTCU_BOOL><<<blocks, kThreads, 0, s>>>(a); break;
  }
  return (int)cudaGetLastError();
}

/* ---------------------------------------------------------------------------
 * The random loop: ctorch's Philox4x32-10 streams (ctorch/ops/random.h, Note
 * [Generators]) computed on the device, element i from the words the CPU's
 * loop gives it, with the same double arithmetic (fma, u24 / u53) and the
 * same stores, so the numbers are the CPU's (normal's log / sin / cos may
 * differ in the last float64 bit). */
namespace {
__device__ __forceinline__ void philox_block(uint64_t b, uint32_t k0, uint32_t k1, uint32_t out[4]) {
  uint32_t c0 = (uint32_t)b, c1 = (uint32_t)(b >> 32), c2 = 0, c3 = 0;
  for (int r = 0; r < 10; r++) {
    const uint32_t hi0 = __umulhi(0xD2511F53u, c0), lo0 = 0xD2511F53u * c0;
    const uint32_t hi1 = __umulhi(0xCD9E8D57u, c2), lo1 = 0xCD9E8D57u * c2;
    const uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c1 = lo1, c3 = lo0, c0 = n0, c2 = n2;
    k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}
struct RnArgs {
  ctcu_random_desc d;
};
__device__ __forceinline__ uint32_t rn_word(const ctcu_random_desc &d, uint64_t j) {
  uint32_t w[4];
  philox_block(d.base + j / 4, d.key[0], d.key[1], w);
  return w[j & 3];
}
__device__ __forceinline__ uint64_t rn_u64(const ctcu_random_desc &d, uint64_t j) { /* words j, j + 1 (j even: one block) */
  uint32_t w[4];
  philox_block(d.base + j / 4, d.key[0], d.key[1], w);
  return (uint64_t)w[j & 3] << 32 | w[(j & 3) + 1];
}
__device__ __forceinline__ double rn_u53(const ctcu_random_desc &d, uint64_t j) {
  return (double)(rn_u64(d, j) >> 11) * (1.0 / 9007199254740992.0);
}
/* ct__store_double, and its load back */
__device__ void rn_store(char *p, int dt, int64_t i, double v) { rd_stf(p, dt, i, v); }
__device__ double rn_load(const char *p, int dt, int64_t i) {
  switch (dt) {
  case CTCU_F32: return ((const float *)p)[i];
  case CTCU_F64: return ((const double *)p)[i];
  case CTCU_F16: return f16_to_f32(((const uint16_t *)p)[i]);
  case CTCU_BF16: return bf16_to_f32(((const uint16_t *)p)[i]);
  case CTCU_I64: return (double)((const int64_t *)p)[i];
  case CTCU_I32: return ((const int32_t *)p)[i];
  case CTCU_U8: return ((const uint8_t *)p)[i];
  default: return ((const uint8_t *)p)[i] ? 1.0 : 0.0;
  }
}
/* ct__rn_put_int */
__device__ void rn_store_int(char *p, int dt, int64_t i, int64_t v) {
  switch (dt) {
  case CTCU_I64: ((int64_t *)p)[i] = v; break;
  case CTCU_I32: ((int32_t *)p)[i] = (int32_t)v; break;
  case CTCU_U8: ((uint8_t *)p)[i] = (uint8_t)v; break;
  case CTCU_BOOL: ((uint8_t *)p)[i] = v != 0; break;
  default: rd_stf(p, dt, i, (double)v); break;
  }
}
__global__ void __launch_bounds__(kThreads) random_kernel(const RnArgs args) {
  const ctcu_random_desc &d = args.d;
  const int64_t step = (int64_t)gridDim.x * blockDim.x;
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < (d.kind == 1 ? (d.numel + 1) / 2 : d.numel); t += step) {
    switch (d.kind) {
    case 0: { /* uniform */
      const double u = d.out_dtype == CTCU_F64 ? rn_u53(d, 2 * (uint64_t)t) : (double)(rn_word(d, (uint64_t)t) >> 8) * (1.0 / 16777216.0);
      rn_store(d.out, d.out_dtype, t, fma(d.b - d.a, u, d.a));
      if (d.a < d.b && rn_load(d.out, d.out_dtype, t) >= d.b) rn_store(d.out, d.out_dtype, t, d.a);
      break;
    }
    case 1: { /* normal: the pair 2t, 2t + 1 from block t */
      const uint64_t w = 4 * (uint64_t)t;
      const double u1 = rn_u53(d, w), u2 = rn_u53(d, w + 2);
      const double r = sqrt(__dmul_rn(-2.0, log(__dsub_rn(1.0, u1)))), th = __dmul_rn(6.283185307179586, u2);
      rn_store(d.out, d.out_dtype, 2 * t, fma(d.b, __dmul_rn(r, cos(th)), d.a));
      if (2 * t + 1 < d.numel) rn_store(d.out, d.out_dtype, 2 * t + 1, fma(d.b, __dmul_rn(r, sin(th)), d.a));
      break;
    }
    case 2: { /* integers */
      const uint64_t x = rn_u64(d, 2 * (uint64_t)t);
      rn_store_int(d.out, d.out_dtype, t, (int64_t)((uint64_t)d.ifrom + (d.irange ? x % d.irange : x)));
      break;
    }
    case 3: { /* bernoulli */
      const double p = d.in ? ((const double *)d.in)[t] : d.a;
      rn_store_int(d.out, d.out_dtype, t, rn_u53(d, 2 * (uint64_t)t) < p);
      break;
    }
    default: { /* dropout */
      const bool keep = rn_u53(d, 2 * (uint64_t)t) < d.a;
      d.mask[t] = keep;
      rn_store(d.out, d.out_dtype, t, keep ? __dmul_rn(rn_load(d.in, d.in_dtype, t), d.b) : 0.0);
      break;
    }
    }
  }
}
} /* namespace */

extern "C" int ctcu_random_launch(const ctcu_random_desc *d, void *stream) {
  RnArgs a;
  if (!d || d->kind < 0 || d->kind > 4 || !dtype_ok(d->out_dtype) || (d->kind == 4 && (!d->in || !d->mask || !dtype_ok(d->in_dtype))))
    return -1;
  if (d->numel <= 0) return 0;
  a.d = *d;
  const int64_t units = d->kind == 1 ? (d->numel + 1) / 2 : d->numel;
  random_kernel<<<rd_grid(units, kThreads, device_sms()), kThreads, 0, (cudaStream_t)stream>>>(a);
  return (int)cudaGetLastError();
}
