/* ctorch/dtype.h - element types, scalars and PyTorch's type promotion.
 * Component of ctorch.h; see there for the overview and licence. */
#ifndef CT_DTYPE_H
#define CT_DTYPE_H

#include "base.h"

CT_EXTERN_C_BEGIN

/* Zero is float32, the default dtype, so zeroed descriptors mean "default". */
#define CT_DTYPE_TABLE(X)                 \
  X(CT_F32, float, 4, "float32", 'f')     \
  X(CT_F64, double, 8, "float64", 'f')    \
  X(CT_F16, uint16_t, 2, "float16", 'f')  \
  X(CT_BF16, uint16_t, 2, "bfloat16", 'f') \
  X(CT_I64, int64_t, 8, "int64", 'i')     \
  X(CT_I32, int32_t, 4, "int32", 'i')     \
  X(CT_U8, uint8_t, 1, "uint8", 'i')      \
  X(CT_BOOL, bool, 1, "bool", 'b')

typedef enum ct_dtype {
  CT_DTYPE_NONE = -1, /* "not given" in optional dtype arguments */
#define CT__X(name, ctype, size, str, kind) name,
  CT_DTYPE_TABLE(CT__X)
#undef CT__X
  CT_DTYPE_NUM
} ct_dtype;

/* bytes per element; 0 for an invalid dtype (inline: used in every loop setup) */
static inline size_t ct_dtype_size(ct_dtype t) {
  static const unsigned char sizes[] = {
#define CT__X(name, ctype, size, str, kind) size,
      CT_DTYPE_TABLE(CT__X)
#undef CT__X
  };
  return (unsigned)t < (unsigned)CT_DTYPE_NUM ? sizes[t] : 0;
}
CTDEF const char *ct_dtype_name(ct_dtype t);   /* "float32" */
static inline bool ct_dtype_valid(ct_dtype t) { return (unsigned)t < (unsigned)CT_DTYPE_NUM; }
/* f32 f64 f16 bf16 (they are the first four dtypes) */
static inline bool ct_dtype_is_floating(ct_dtype t) { return (unsigned)t <= (unsigned)CT_BF16; }
static inline bool ct_dtype_is_integral(ct_dtype t, bool include_bool) {
  return (t >= CT_I64 && t <= CT_U8) || (include_bool && t == CT_BOOL);
}
/* torch.promote_types: the smallest dtype both convert to without losing
 * category (bool < integer < floating). f16 with bf16 gives f32. */
CTDEF ct_dtype ct_promote_types(ct_dtype a, ct_dtype b);
/* torch.can_cast: false for floating -> integer and anything -> bool. */
CTDEF bool ct_can_cast(ct_dtype from, ct_dtype to);

/* IEEE half and bfloat16 as bits (round to nearest even when narrowing). */
CTDEF float ct_f16_to_f32(uint16_t h);
CTDEF uint16_t ct_f32_to_f16(float f);
CTDEF float ct_bf16_to_f32(uint16_t h);
CTDEF uint16_t ct_f32_to_bf16(float f);

/* ---- scalars: a number with a category, as a Python number is ----------- */
typedef enum ct_scalar_kind { CT_SCALAR_NONE = 0, CT_SCALAR_FLOAT, CT_SCALAR_INT, CT_SCALAR_BOOL } ct_scalar_kind;
typedef struct ct_scalar {
  ct_scalar_kind kind;
  union {
    double f;
    int64_t i;
    bool b;
  } v;
} ct_scalar;

static inline ct_scalar ct_float(double x) {
  ct_scalar s;
  s.kind = CT_SCALAR_FLOAT;
  s.v.f = x;
  return s;
}
static inline ct_scalar ct_int(int64_t x) {
  ct_scalar s;
  s.kind = CT_SCALAR_INT;
  s.v.i = x;
  return s;
}
static inline ct_scalar ct_bool(bool x) {
  ct_scalar s;
  s.kind = CT_SCALAR_BOOL;
  s.v.b = x;
  return s;
}
/* None, for `Scalar?` arguments (e.g. clamp's bounds). */
static inline ct_scalar ct_scalar_none(void) {
  ct_scalar s;
  s.kind = CT_SCALAR_NONE;
  s.v.i = 0;
  return s;
}
/* Floating-point to integer conversions, defined for every input: C leaves
 * NaN, infinities and out-of-range values undefined. They give what
 * PyTorch's casts give on x86-64 (cvttsd2si): truncation toward zero in
 * range, else the "integer indefinite" INT64_MIN / INT32_MIN; uint8 goes
 * through int32 and wraps (300 -> 44, -1 -> 255, 3e9 -> 0). Every float to
 * integer conversion of ctorch's tensors uses them (to_dtype, copy_, the
 * kernels); bool is v != 0, so NaN is true. */
static inline int64_t ct__f2i64(double v) { return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN; }
static inline int32_t ct__f2i32(double v) { return v > -2147483649.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN; }
static inline uint8_t ct__f2u8(double v) { return (uint8_t)(uint32_t)ct__f2i32(v); }

static inline double ct_scalar_to_double(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? s.v.f : s.kind == CT_SCALAR_INT ? (double)s.v.i : (double)s.v.b;
}
/* a float truncates toward zero (NaN and out-of-range values: ct__f2i64) */
static inline int64_t ct_scalar_to_int(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? ct__f2i64(s.v.f) : s.kind == CT_SCALAR_INT ? s.v.i : (int64_t)s.v.b;
}
/* The dtype a bare number takes: float32 (the default), int64 or bool. */
CTDEF ct_dtype ct_scalar_dtype(ct_scalar s);

CT_EXTERN_C_END
#endif /* CT_DTYPE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__DTYPE_IMPL)
#define CT__DTYPE_IMPL
CT_EXTERN_C_BEGIN

static const char *const ct__dtype_names[] = {
#define CT__X(name, ctype, size, str, kind) str,
    CT_DTYPE_TABLE(CT__X)
#undef CT__X
};
/* the inline predicates assume floating dtypes first, then integers, then bool */
typedef char ct__dtype_order_check[(CT_F32 == 0 && CT_BF16 == 3 && CT_I64 == 4 && CT_U8 == 6 && CT_BOOL == 7) ? 1 : -1];

CTDEF const char *ct_dtype_name(ct_dtype t) { return ct_dtype_valid(t) ? ct__dtype_names[t] : "invalid"; }

/* Rank within the promotion lattice; f16 and bf16 share a rank. */
static int ct__promo_rank(ct_dtype t) {
  switch (t) {
  case CT_BOOL: return 0;
  case CT_U8: return 1;
  case CT_I32: return 2;
  case CT_I64: return 3;
  case CT_F16:
  case CT_BF16: return 4;
  case CT_F32: return 5;
  case CT_F64: return 6;
  default: return -1;
  }
}

CTDEF ct_dtype ct_promote_types(ct_dtype a, ct_dtype b) {
  if (a == b) return a;
  if (!ct_dtype_valid(a)) return b;
  if (!ct_dtype_valid(b)) return a;
  if ((a == CT_F16 && b == CT_BF16) || (a == CT_BF16 && b == CT_F16)) return CT_F32;
  return ct__promo_rank(a) >= ct__promo_rank(b) ? a : b;
}

CTDEF bool ct_can_cast(ct_dtype from, ct_dtype to) {
  if (ct_dtype_is_floating(from) && ct_dtype_is_integral(to, true)) return false;
  if (from != CT_BOOL && to == CT_BOOL) return false;
  return true;
}

CTDEF ct_dtype ct_scalar_dtype(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? CT_F32 : s.kind == CT_SCALAR_BOOL ? CT_BOOL : CT_I64;
}

CTDEF float ct_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
  float f;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13); /* inf / nan */
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else { /* subnormal half: normalise */
    int e = -1;
    do {
      e++;
      man <<= 1;
    } while ((man & 0x400u) == 0);
    bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
  }
  memcpy(&f, &bits, 4);
  return f;
}

CTDEF uint16_t ct_f32_to_f16(float f) {
  uint32_t x, sign, man;
  int32_t exp;
  memcpy(&x, &f, 4);
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
}

CTDEF float ct_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

CTDEF uint16_t ct_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

CT_EXTERN_C_END
#endif /* CT__DTYPE_IMPL */
