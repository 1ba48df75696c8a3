/* fuzz/diff_side.h - one side of the differential fuzzer: runs a df_prog's
 * steps on the ctorch instance of the translation unit that includes it
 * (after ctorch.h), exporting each step's inputs and result. Included by
 * fuzz/diff_ref.c (reference kernels only, a CT_STATIC instance) and by
 * fuzz/diff_blis.c (the instance with the BLIS backend registered), with
 * DF_SIDE(x) naming the functions of that side. The same code on both sides
 * builds the same tensors (contents come from the step's seed), so the only
 * difference between the sides is which kernels run. */
#ifndef DF_SIDE
#error "define DF_SIDE(name) before including diff_side.h"
#endif
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include "diff_common.h"

static ct_tensor *df_slots[DF_NSLOT];
static uint64_t df_rs;

static double df_u01(void) {
  df_rs ^= df_rs << 13, df_rs ^= df_rs >> 7, df_rs ^= df_rs << 17;
  return (double)(df_rs >> 11) / 9007199254740992.0;
}
/* contents: 0 uniform [-2, 2]; 1 small integers; 2 uniform with special
 * values sprinkled (NaN, inf, -0, huge, tiny); 3 wide magnitudes (2^-20 ..
 * 2^20, both signs); 4 large [-1e4, 1e4]; 5 exactly representable halves */
static double df_value(int mode) {
  static const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 3e38, -3e38, 1e-40, 65504.0, 1e30, 88.7, -104.0};
  switch (mode % 6) {
  case 0: return df_u01() * 4 - 2;
  case 1: return (double)(int)(df_u01() * 9) - 4;
  case 2: return df_u01() < 0.08 ? specials[(int)(df_u01() * 11) % 11] : df_u01() * 4 - 2;
  case 3: return (df_u01() < 0.5 ? -1 : 1) * ldexp(1.0 + df_u01(), (int)(df_u01() * 41) - 20);
  case 4: return df_u01() * 2e4 - 1e4;
  default: return (double)(int)(df_u01() * 16 - 8) / 2;
  }
}
static ct_tensor *df_make(int nd, const int64_t *sizes, int dtype, uint32_t seed, int mode) {
  int64_t n = 1, i;
  int d;
  unsigned char *buf;
  ct_tensor *t;
  for (d = 0; d < nd; d++) n *= sizes[d];
  buf = (unsigned char *)malloc((size_t)(n > 0 ? n : 1) * 8);
  if (!buf) return NULL;
  df_rs = 0x9E3779B97F4A7C15ull * (seed + 1) + 12345;
  for (i = 0; i < n; i++) {
    double v = df_value(dtype >= DF_I64 ? 1 : mode);
    switch (dtype) {
    case DF_F32: ((float *)buf)[i] = (float)v; break;
    case DF_F64: ((double *)buf)[i] = v; break;
    case DF_F16: ((uint16_t *)buf)[i] = ct_f32_to_f16((float)v); break;
    case DF_BF16: ((uint16_t *)buf)[i] = ct_f32_to_bf16((float)v); break;
    case DF_I64: ((int64_t *)buf)[i] = (int64_t)v; break;
    case DF_I32: ((int32_t *)buf)[i] = (int32_t)v; break;
    case DF_U8: buf[i] = (unsigned char)(v < 0 ? -v : v); break;
    default: buf[i] = v > 0; break;
    }
  }
  t = ct_from_array(nd, sizes, (ct_dtype)dtype, buf);
  free(buf);
  return t;
}
/* a new [r, c] operand, transposed in memory when trans (made [c, r], viewed .t()) */
static ct_tensor *df_matrix(int64_t r, int64_t c, int dtype, uint32_t seed, int mode, int trans) {
  int64_t s[2];
  ct_tensor *t, *v;
  if (!trans) {
    s[0] = r, s[1] = c;
    return df_make(2, s, dtype, seed, mode);
  }
  s[0] = c, s[1] = r;
  t = df_make(2, s, dtype, seed, mode);
  v = t ? ct_t(t) : NULL;
  ct_release(t);
  return v;
}

static void df_export(const ct_tensor *t, df_val *v) {
  int i;
  memset(v, 0, sizeof *v);
  if (!t) return;
  v->present = 1;
  v->dtype = t->dtype;
  v->ndim = t->ndim;
  for (i = 0; i < t->ndim; i++) v->sizes[i] = t->sizes[i];
  v->numel = t->numel;
  v->f = (double *)malloc((size_t)t->numel * 8 + 8);
  v->raw = (unsigned char *)malloc((size_t)t->numel * ct_dtype_size((ct_dtype)t->dtype) + 8);
  if (v->f) ct_to_array(t, CT_F64, v->f);
  if (v->raw) ct_to_array(t, (ct_dtype)t->dtype, v->raw);
  ct_clear_error();
}

void DF_SIDE(begin)(const df_prog *p) {
  int i;
  ct_set_num_threads(1);
  ct_clear_error();
  for (i = 0; i < DF_NSLOT; i++) df_slots[i] = NULL;
  for (i = 0; i < p->ninit; i++) {
    const df_init *in = &p->init[i];
    int64_t s[3];
    int d;
    ct_tensor *t = NULL, *v = NULL;
    for (d = 0; d < in->nd; d++) s[d] = in->sizes[d];
    switch (in->view) {
    case 1: /* transposed: made with the last two dims swapped */
      if (in->nd >= 2) {
        int64_t x = s[in->nd - 1];
        s[in->nd - 1] = s[in->nd - 2], s[in->nd - 2] = x;
        t = df_make(in->nd, s, in->dtype, in->seed, in->mode);
        v = t ? ct_transpose(t, -1, -2) : NULL;
      }
      break;
    case 2: /* every other row of a tensor twice as long */
      if (in->nd >= 1) {
        s[0] *= 2;
        t = df_make(in->nd, s, in->dtype, in->seed, in->mode);
        v = t ? ct_slice(t, 0, 0, INT64_MAX, 2) : NULL;
      }
      break;
    case 3: /* expanded from a size-1 first dim */
      if (in->nd >= 1) {
        s[0] = 1;
        t = df_make(in->nd, s, in->dtype, in->seed, in->mode);
        v = t ? ct_expand(t, in->nd, in->sizes) : NULL;
      }
      break;
    default: break;
    }
    if (!v) {
      ct_release(t);
      t = NULL;
      v = df_make(in->nd, in->sizes, in->dtype, in->seed, in->mode);
    }
    ct_release(t);
    df_slots[i] = v;
    ct_clear_error();
  }
}

void DF_SIDE(end)(void) {
  int i;
  for (i = 0; i < DF_NSLOT; i++) ct_release(df_slots[i]), df_slots[i] = NULL;
  ct_clear_error();
}

static int64_t df_size(const ct_tensor *t, int d, int64_t dflt) {
  if (!t || t->ndim == 0) return dflt;
  if (d < 0) d += t->ndim;
  return d >= 0 && d < t->ndim ? t->sizes[d] : dflt;
}

/* Run the step's op on T[] (its inputs, in the op's order). form 0 returns a
 * new tensor; 1 runs in place on T[0] (returns it, retained); 2 writes into
 * `out` (returns it, retained). NULL on error (ctorch's message pending). */
static ct_tensor *df_apply(const df_step *s, ct_tensor **T, int form, ct_tensor *out, double alpha, double beta) {
  ct_status st = CT_OK;
  ct_tensor *r = NULL, *x = T[0];
  int64_t dim = s->dim;
  ct_dtype dt = s->dtype_arg < 0 ? CT_DTYPE_NONE : (ct_dtype)s->dtype_arg;
  switch (s->op) {
  case DF_MM:
    if (form == 2) st = ct_mm_out(out, T[0], T[1]);
    else r = ct_mm(T[0], T[1]);
    break;
  case DF_MATMUL:
    if (form == 2) st = ct_matmul_out(out, T[0], T[1]);
    else r = ct_matmul(T[0], T[1]);
    break;
  case DF_ADDMM: /* T: self (bias), mat1, mat2 */
    if (form == 1) st = ct_addmm_ex_(T[0], T[1], T[2], ct_float(beta), ct_float(alpha));
    else if (form == 2) st = ct_addmm_out_ex(out, T[0], T[1], T[2], ct_float(beta), ct_float(alpha));
    else r = ct_addmm_ex(T[0], T[1], T[2], ct_float(beta), ct_float(alpha));
    break;
  case DF_LINEAR: /* T: input, weight, bias (may be NULL) */
    if (form == 2) st = ct_linear_out(out, T[0], T[1], T[2]);
    else r = ct_linear(T[0], T[1], T[2]);
    break;
  case DF_BMM:
    if (form == 2) st = ct_bmm_out(out, T[0], T[1]);
    else r = ct_bmm(T[0], T[1]);
    break;
  case DF_BADDBMM: /* T: self, batch1, batch2 */
    if (form == 1) st = ct_baddbmm_ex_(T[0], T[1], T[2], ct_float(beta), ct_float(alpha));
    else if (form == 2) st = ct_baddbmm_out_ex(out, T[0], T[1], T[2], ct_float(beta), ct_float(alpha));
    else r = ct_baddbmm_ex(T[0], T[1], T[2], ct_float(beta), ct_float(alpha));
    break;
  case DF_MV:
    if (form == 2) st = ct_mv_out(out, T[0], T[1]);
    else r = ct_mv(T[0], T[1]);
    break;
  case DF_DOT:
    if (form == 2) st = ct_dot_out(out, T[0], T[1]);
    else r = ct_dot(T[0], T[1]);
    break;
  case DF_ADD:
  case DF_SUB: {
    int sub = s->op == DF_SUB;
    if (form == 1) st = sub ? ct_sub_ex_(x, T[1], ct_float(alpha)) : ct_add_ex_(x, T[1], ct_float(alpha));
    else if (form == 2) st = sub ? ct_sub_out_ex(out, x, T[1], ct_float(alpha)) : ct_add_out_ex(out, x, T[1], ct_float(alpha));
    else r = sub ? ct_sub_ex(x, T[1], ct_float(alpha)) : ct_add_ex(x, T[1], ct_float(alpha));
    break;
  }
  case DF_MUL:
    if (form == 1) st = ct_mul_(x, T[1]);
    else if (form == 2) st = ct_mul_out(out, x, T[1]);
    else r = ct_mul(x, T[1]);
    break;
  case DF_RELU:
    if (form == 1) st = ct_relu_(x);
    else if (form == 2) st = ct_relu_out(out, x);
    else r = ct_relu(x);
    break;
  case DF_EXP:
    if (form == 1) st = ct_exp_(x);
    else if (form == 2) st = ct_exp_out(out, x);
    else r = ct_exp(x);
    break;
  case DF_SIGMOID:
    if (form == 1) st = ct_sigmoid_(x);
    else if (form == 2) st = ct_sigmoid_out(out, x);
    else r = ct_sigmoid(x);
    break;
  case DF_TANH:
    if (form == 1) st = ct_tanh_(x);
    else if (form == 2) st = ct_tanh_out(out, x);
    else r = ct_tanh(x);
    break;
  case DF_SUM:
  case DF_MEAN: {
    int64_t d1 = dim;
    int mean = s->op == DF_MEAN;
    if (form == 2) st = mean ? ct_mean_out(out, x, 1, &d1, s->keep) : ct_sum_out(out, x, 1, &d1, s->keep); /* always over dim */
    else if (s->flag) r = mean ? ct_mean_dim(x, 1, &d1, s->keep) : ct_sum_dim(x, 1, &d1, s->keep);
    else r = mean ? ct_mean(x) : ct_sum(x);
    break;
  }
  case DF_SOFTMAX:
    if (form == 2) st = ct_softmax_out(out, x, dim, dt);
    else r = ct_softmax(x, dim, dt);
    break;
  case DF_LOG_SOFTMAX:
    if (form == 2) st = ct_log_softmax_out(out, x, dim, dt);
    else r = ct_log_softmax(x, dim, dt);
    break;
  case DF_THRESHOLD_BACKWARD: /* T: grad_output, self */
    r = ct_threshold_backward(T[0], T[1], ct_float(alpha));
    break;
  default: break;
  }
  if (form == 1 && s->op != DF_THRESHOLD_BACKWARD) return st == CT_OK ? ct_retain(T[0]) : NULL;
  if (form == 2) return st == CT_OK ? ct_retain(out) : NULL;
  return r;
}

/* forms each op has (in-place and out=) */
static int df_has_form(int op, int form) {
  if (form == 0) return 1;
  if (form == 1) return op == DF_ADDMM || op == DF_BADDBMM || op == DF_ADD || op == DF_SUB || op == DF_MUL || op == DF_RELU ||
                        op == DF_EXP || op == DF_SIGMOID || op == DF_TANH;
  return op != DF_THRESHOLD_BACKWARD;
}

/* The step's inputs on this side: slot tensors and new operands shaped to
 * fit. Returns the count; new operands are also stored in own[] (released
 * by the caller). */
static int df_inputs(const df_step *s, ct_tensor **T, ct_tensor **own, int *nown) {
  ct_tensor *a = df_slots[s->a], *b = s->b >= 0 ? df_slots[s->b] : NULL;
  int dtype = a ? a->dtype : DF_F32, mode = (int)(s->seed % 6);
  uint32_t seed = s->seed;
#define DF_NEW(expr) (own[(*nown)++] = (expr))
  switch (s->op) {
  case DF_MM:
  case DF_MV:
  case DF_ADDMM: {
    ct_tensor *A = a && a->ndim == 2 ? a : DF_NEW(df_matrix(s->m, s->k, dtype, seed, mode, s->transb & 2));
    int64_t k = df_size(A, 1, s->k), m = df_size(A, 0, s->m);
    ct_tensor *B;
    if (s->op == DF_MV) {
      int64_t vs = k;
      B = DF_NEW(df_make(1, &vs, dtype, seed + 1, mode));
      T[0] = A, T[1] = B;
      return 2;
    }
    B = b && b->ndim == 2 && s->flag ? b : DF_NEW(df_matrix(k, s->n, dtype, seed + 1, mode, s->transb & 1));
    if (s->op == DF_MM) {
      T[0] = A, T[1] = B;
      return 2;
    }
    {
      int64_t cs[2];
      cs[0] = m, cs[1] = df_size(B, 1, s->n);
      T[0] = DF_NEW(s->keep || s->form == 1 ? df_make(2, cs, dtype, seed + 2, mode) : df_make(1, cs + 1, dtype, seed + 2, mode));
      T[1] = A, T[2] = B;
      return 3;
    }
  }
  case DF_MATMUL: {
    int64_t bs[2];
    bs[0] = df_size(a, -1, s->k), bs[1] = s->n;
    T[0] = a;
    T[1] = s->flag ? DF_NEW(df_make(1, bs, dtype, seed + 1, mode)) : DF_NEW(df_matrix(bs[0], bs[1], dtype, seed + 1, mode, s->transb & 1));
    return 2;
  }
  case DF_LINEAR: {
    int64_t in = df_size(a, -1, s->k), bs = s->n;
    T[0] = a;
    T[1] = DF_NEW(df_matrix(s->n, in, dtype, seed + 1, mode, s->transb & 1)); /* weight [out, in] */
    T[2] = s->flag ? DF_NEW(df_make(1, &bs, dtype, seed + 2, mode)) : NULL;
    return 3;
  }
  case DF_BMM:
  case DF_BADDBMM: {
    int64_t as[3], bs[3];
    ct_tensor *A = a && a->ndim == 3 ? a : NULL, *B, *Bt;
    if (!A) {
      as[0] = 1 + (s->m % 3), as[1] = s->m, as[2] = s->k;
      A = DF_NEW(df_make(3, as, dtype, seed, mode));
    }
    bs[0] = df_size(A, 0, 1);
    if (s->transb & 1) { /* [B, n, k] viewed as [B, k, n] */
      bs[1] = s->n, bs[2] = df_size(A, 2, s->k);
      Bt = DF_NEW(df_make(3, bs, dtype, seed + 1, mode));
      B = Bt ? DF_NEW(ct_transpose(Bt, 1, 2)) : NULL;
    } else {
      bs[1] = df_size(A, 2, s->k), bs[2] = s->n;
      B = DF_NEW(df_make(3, bs, dtype, seed + 1, mode));
    }
    if (s->op == DF_BMM) {
      T[0] = A, T[1] = B;
      return 2;
    }
    as[0] = df_size(A, 0, 1), as[1] = df_size(A, 1, s->m), as[2] = s->n;
    T[0] = DF_NEW(df_make(3, as, dtype, seed + 2, mode));
    T[1] = A, T[2] = B;
    return 3;
  }
  case DF_DOT: {
    int64_t n = df_size(a, 0, s->k);
    ct_tensor *x = a && a->ndim == 1 ? a : DF_NEW(df_make(1, &n, dtype, seed, mode));
    n = df_size(x, 0, n);
    T[0] = x;
    T[1] = DF_NEW(df_make(1, &n, dtype, seed + 1, mode));
    return 2;
  }
  case DF_ADD:
  case DF_SUB:
  case DF_MUL:
  case DF_THRESHOLD_BACKWARD: {
    ct_tensor *y = b;
    if (!y && a) { /* same shape, or with broadcast dims (size 1 or a leading dim dropped) */
      int64_t ys[8];
      int nd = a->ndim, d, off = 0;
      for (d = 0; d < nd; d++) ys[d] = a->sizes[d];
      if (s->flag && nd > 0) {
        if (s->keep) off = 1;
        else ys[s->dim % nd < 0 ? 0 : s->dim % nd] = 1;
      }
      y = DF_NEW(df_make(nd - off, ys + off, s->dtype_arg >= 0 && s->op != DF_THRESHOLD_BACKWARD ? s->dtype_arg : dtype, seed + 1, mode));
    }
    T[0] = a, T[1] = y;
    if (s->op == DF_THRESHOLD_BACKWARD) T[0] = y, T[1] = a;
    return 2;
  }
  default:
    T[0] = a;
    return 1;
  }
#undef DF_NEW
}

void DF_SIDE(step)(const df_prog *p, int k, df_val *ins, int *nin, df_res *res) {
  const df_step *s = &p->steps[k];
  ct_tensor *T[DF_MAXIN] = {0}, *own[8] = {0}, *out = NULL, *r;
  int n, nown = 0, i, form = df_has_form(s->op, s->form) ? s->form : 0;
  memset(res, 0, sizeof *res);
  ct_clear_error();
  n = df_inputs(s, T, own, &nown);
  for (i = 0; i < n; i++) df_export(T[i], &ins[i]);
  *nin = n;
  if (form == 2) { /* out: an empty tensor of the first input's dtype (resized by the op) */
    int64_t z = 0;
    out = ct_zeros(1, &z, T[0] ? (ct_dtype)T[0]->dtype : CT_F32);
  }
  r = df_apply(s, T, form, out, df_scalars[s->alpha_i % DF_NSCALARS], df_scalars[s->beta_i % DF_NSCALARS]);
  if (!r) {
    res->status = ct_last_error() != CT_OK ? (int)ct_last_error() : -999;
    snprintf(res->message, sizeof res->message, "%.255s", ct_last_error_message()); /* (truncated on purpose) */
  } else {
    df_export(r, &res->out);
    ct_release(df_slots[s->dst]);
    df_slots[s->dst] = r;
  }
  ct_release(out);
  for (i = 0; i < nown; i++) ct_release(own[i]);
  ct_clear_error();
}

int64_t DF_SIDE(live)(void) { return ct_memory_stats_get().live_tensors; }
