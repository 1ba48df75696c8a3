/* fuzz/differential.c - the differential fuzzer (issue 12, "Fuzzers").
 *
 * DESIGN. The BLIS backend (backends/cpu_blis) registers itself from a
 * constructor and cannot be switched off at run time: ct_register_backend
 * has no inverse, and the kernels it displaced are only reachable through
 * it. So the fuzzer links TWO ctorch instances into one process:
 *   fuzz/diff_ref.c   CT_STATIC + CTORCH_IMPLEMENTATION: a private instance
 *                     (every symbol static) with the reference kernels only;
 *   fuzz/diff_blis.c  the exported instance, with cpu_blis.o linked: the
 *                     backend's constructor registers into it.
 * Both include fuzz/diff_side.h, which runs a decoded program (df_prog:
 * fuzz/diff_common.h) step by step and exports each step's inputs and result
 * as plain arrays; the instances never share a tensor. This file decodes the
 * input into a df_prog, runs every step on both sides and compares:
 *  1. status: both succeed, or both fail with the same ct_status (the backend
 *     hands every case it does not handle to the reference kernel);
 *  2. dtype and shape of the result: equal;
 *  3. exactness: when a step's inputs are bit-identical on both sides and the
 *     op is exact (integer, bool, float16 and bfloat16 results, which BLIS
 *     never computes; relu and threshold_backward; add / sub with alpha a
 *     power of two or 0; mul: a single correctly rounded operation), the
 *     results are bit-identical (NaN matches NaN, -0 matches +0);
 *  4. the float64 recomputation: the reference instance reruns the step, in
 *     its functional form, on float64 copies of each side's inputs (and on
 *     their absolute values, for the error bounds); every floating result
 *     element of each side must be within the bound of check_element().
 * A mismatch prints "FINDING: differential ..." with the step and the
 * values, and aborts. The programs: up to 4 tensors (rank 1-3, sizes up to
 * 33, float32 mostly, also float64, float16, bfloat16, integer and bool;
 * contiguous, transposed, sliced with a step, or expanded; contents uniform,
 * integer, wide-magnitude, large, or with NaN / inf / -0 / huge / denormal
 * values sprinkled), then up to 16 steps drawn from mm, matmul, addmm,
 * linear, bmm, baddbmm, mv, dot, add, sub, mul, relu, exp, sigmoid, tanh,
 * sum, mean, softmax, log_softmax and threshold_backward in their functional,
 * in-place and out= forms, with new operands shaped to fit (matrices up to
 * 64 x 64, optionally transposed). Per input, products use BLIS's default
 * crossover, or BLIS for every size, or the plain-C kernel for every size
 * (ct_cpu_blis_set_small_flops).
 */
#include "fuzz_common.h"
#include "diff_common.h"

static int trace;
static const char *op_names[DF_NOPS] = {"mm",  "matmul", "addmm", "linear", "bmm",  "baddbmm", "mv",   "dot",  "add",
                                        "sub", "mul",    "relu",  "exp",    "sigmoid", "tanh", "sum", "mean", "softmax",
                                        "log_softmax", "threshold_backward"};
static const char *dt_names[8] = {"float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", "bool"};

/* ---- decoding ---- */
static void decode(fz_in *in, df_prog *p) {
  static const int64_t init_sizes[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 33};
  static const int64_t mat_sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 24, 31, 32, 33, 48, 64};
  int i, d;
  memset(p, 0, sizeof *p);
  p->force_blis = (int)fz_pick(in, 3);
  p->ninit = 1 + (int)fz_pick(in, DF_MAXINIT);
  for (i = 0; i < p->ninit; i++) {
    df_init *t = &p->init[i];
    unsigned dsel = fz_pick(in, 16);
    int64_t n = 1;
    t->nd = 1 + (int)fz_pick(in, 3);
    for (d = 0; d < t->nd; d++) t->sizes[d] = init_sizes[fz_pick(in, 10)], n *= t->sizes[d];
    for (d = 0; n > 4096 && d < t->nd; d++) n /= t->sizes[d], t->sizes[d] = 1;
    t->dtype = dsel < 9 ? DF_F32 : dsel < 13 ? DF_F64 : dsel == 13 ? DF_F16 : dsel == 14 ? DF_BF16 : DF_I64 + (int)fz_pick(in, 4);
    t->seed = fz_u16(in);
    t->mode = (int)fz_pick(in, 6);
    t->view = (int)fz_pick(in, 4);
  }
  p->nsteps = fz_more(in) ? 1 + (int)fz_pick(in, DF_MAXSTEPS) : 0;
  for (i = 0; i < p->nsteps; i++) {
    df_step *s = &p->steps[i];
    s->op = (int)fz_pick(in, DF_NOPS);
    s->form = (int)fz_pick(in, 3);
    s->a = (int)fz_pick(in, DF_NSLOT);
    if (fz_pick(in, 4)) s->a %= p->ninit; /* mostly a tensor that exists */
    s->dst = (int)fz_pick(in, DF_NSLOT);
    s->b = fz_pick(in, 4) == 0 ? (int)fz_pick(in, DF_NSLOT) : -1;
    s->m = mat_sizes[fz_pick(in, 16)];
    s->k = mat_sizes[fz_pick(in, 16)];
    s->n = mat_sizes[fz_pick(in, 16)];
    s->transb = (int)fz_pick(in, 4);
    s->dim = (int)fz_pick(in, 5) - 2;
    s->keep = fz_bit(in);
    s->flag = fz_bit(in);
    s->alpha_i = fz_pick(in, 2) ? 0 : (int)fz_pick(in, DF_NSCALARS);
    s->beta_i = fz_pick(in, 2) ? 0 : (int)fz_pick(in, DF_NSCALARS);
    s->seed = fz_u16(in);
    s->dtype_arg = fz_pick(in, 8) == 0 ? (int)fz_pick(in, 2) : -1; /* float32 or float64 */
  }
}

/* ---- floating-point formats of the result dtypes ---- */
typedef struct {
  int p;       /* significand bits */
  int emin;    /* exponent of the smallest normal */
  double maxv; /* largest finite */
} df_fmt;
static df_fmt fmt_of(int dt) {
  df_fmt f;
  switch (dt) {
  case DF_F64: f.p = 53, f.emin = -1022, f.maxv = 1.7976931348623157e308; break;
  case DF_F16: f.p = 11, f.emin = -14, f.maxv = 65504.0; break;
  case DF_BF16: f.p = 8, f.emin = -126, f.maxv = 3.3895313892515355e38; break;
  default: f.p = 24, f.emin = -126, f.maxv = 3.4028234663852886e38; break;
  }
  return f;
}
static double unit_roundoff(df_fmt f) { return ldexp(1.0, -f.p); }
static double smallest_normal(df_fmt f) { return ldexp(1.0, f.emin); }
/* x rounded to the format (nearest even; overflow to inf) */
static double round_to(double x, int dt) {
  df_fmt f = fmt_of(dt);
  int e;
  double q, r;
  if (dt == DF_F64 || !isfinite(x) || x == 0) return x;
  if (dt == DF_F32) return (double)(float)x;
  frexp(x, &e); /* x = m * 2^e, 0.5 <= |m| < 1 */
  if (e - 1 < f.emin) e = f.emin + 1; /* subnormal: fixed quantum */
  q = ldexp(1.0, e - f.p);
  r = nearbyint(x / q) * q;
  if (fabs(r) > f.maxv) return x > 0 ? INFINITY : -INFINITY;
  return r;
}
static int is_float(int dt) { return dt <= DF_BF16; }

/* ---- reporting ---- */
static void finding(const df_prog *p, int k, const char *side, const char *what, const char *detail) {
  const df_step *s = &p->steps[k];
  char key[200];
  fprintf(stderr,
          "FINDING: differential: step %d %s (form %d: %s) %s: %s\n  %s\n"
          "  step: a=S%d b=%d m=%lld k=%lld n=%lld transb=%d dim=%d keep=%d flag=%d alpha=%g beta=%g dtype_arg=%d; "
          "products: %s\n",
          k, op_names[s->op], s->form, s->form == 0 ? "functional" : s->form == 1 ? "in-place" : "out=", side, what, detail,
          s->a, s->b, (long long)s->m, (long long)s->k, (long long)s->n, s->transb, s->dim, s->keep, s->flag,
          df_scalars[s->alpha_i % DF_NSCALARS], df_scalars[s->beta_i % DF_NSCALARS], s->dtype_arg,
          p->force_blis == 1 ? "BLIS for every size" : p->force_blis == 2 ? "plain C for every size" : "default crossover");
  snprintf(key, sizeof key, "FINDING: differential %s %s: %s", op_names[s->op], side, what);
  fz_triage_save(key);
  if (!FZ_TRIAGE_CONTINUE) abort();
}
static void shape_str(const df_val *v, char *b, size_t cap) {
  int i, n = snprintf(b, cap, "%s[", v->present ? dt_names[v->dtype & 7] : "none");
  for (i = 0; i < v->ndim && n < (int)cap - 24; i++) n += snprintf(b + n, cap - (size_t)n, "%s%lld", i ? "," : "", (long long)v->sizes[i]);
  snprintf(b + n, cap - (size_t)n, "]");
}

/* bitwise equality up to NaN payloads and the sign of zero */
static int same_value(double x, double y) { return (isnan(x) && isnan(y)) || x == y; }
static int same_shape(const df_val *a, const df_val *b) {
  int i;
  if (a->present != b->present || a->dtype != b->dtype || a->ndim != b->ndim) return 0;
  for (i = 0; i < a->ndim; i++)
    if (a->sizes[i] != b->sizes[i]) return 0;
  return 1;
}
static int same_vals(const df_val *a, const df_val *b) {
  int64_t i;
  size_t es = a->dtype == DF_F64 || a->dtype == DF_I64 ? 8 : a->dtype == DF_F32 || a->dtype == DF_I32 ? 4 : a->dtype <= DF_BF16 ? 2 : 1;
  if (!same_shape(a, b)) return 0;
  if (!a->present) return 1;
  if (!is_float(a->dtype)) return memcmp(a->raw, b->raw, (size_t)a->numel * es) == 0;
  for (i = 0; i < a->numel; i++)
    if (!same_value(a->f[i], b->f[i])) return 0;
  return 1;
}

/* ops whose results must be bit-identical for identical inputs */
static int exact_op(const df_step *s, int result_dtype) {
  double alpha = df_scalars[s->alpha_i % DF_NSCALARS];
  int alpha_exact = alpha == 0 || fabs(alpha) == 1 || fabs(alpha) == 2 || fabs(alpha) == 0.5; /* alpha*y exact */
  if (!is_float(result_dtype) || result_dtype == DF_F16 || result_dtype == DF_BF16) return 1; /* never BLIS */
  switch (s->op) {
  case DF_RELU:
  case DF_THRESHOLD_BACKWARD:
  case DF_MUL: return 1;
  case DF_ADD:
  case DF_SUB: return alpha_exact;
  default: return 0;
  }
}

/* Number of terms that accumulate into one result element (for the bounds). */
static int64_t terms_of(const df_step *s, const df_val *ins, int nin, const df_val *out) {
  int64_t n = 1;
  switch (s->op) {
  case DF_MM:
  case DF_ADDMM:
  case DF_MV:
  case DF_BMM:
  case DF_BADDBMM:
  case DF_MATMUL:
  case DF_LINEAR: { /* the inner dimension: the last dim of the first matrix operand */
    const df_val *a = s->op == DF_ADDMM || s->op == DF_BADDBMM ? &ins[1] : &ins[0];
    n = a->ndim ? a->sizes[a->ndim - 1] : 1;
    return n + 2; /* + the scaling and the added term */
  }
  case DF_DOT: return ins[0].numel + 1;
  case DF_SUM:
  case DF_MEAN: return (out->numel ? ins[0].numel / out->numel : ins[0].numel) + 1;
  default: (void)nin; return 2;
  }
}

/* softmax / log_softmax: statistics of element i's row along dim */
static void row_stats(const df_val *x, int dim, int64_t i, double *mx, int64_t *len, int *special) {
  int64_t inner = 1, n, base, j;
  int d, nd = x->ndim;
  if (nd == 0) {
    *mx = x->f[0], *len = 1, *special = isnan(x->f[0]) || x->f[0] == INFINITY;
    return;
  }
  if (dim < 0) dim += nd;
  for (d = dim + 1; d < nd; d++) inner *= x->sizes[d];
  n = x->sizes[dim];
  base = (i / (inner * n)) * inner * n + i % inner;
  *mx = -INFINITY, *special = 0, *len = n;
  for (j = 0; j < n; j++) {
    double v = x->f[base + j * inner];
    if (isnan(v) || v == INFINITY) *special = 1;
    if (v > *mx) *mx = v;
  }
}

/* One result element r against the float64 recomputation o (and its
 * magnitude m: the same op on |inputs|). Returns 1 when within the bound.
 *
 * Bounds (u: the result dtype's unit roundoff, 2^-24 for float32; tiny: its
 * smallest normal; n: terms accumulated into the element):
 *  - o NaN: r must be NaN; o or round(o) infinite: r must be the same
 *    infinity (or, near the overflow threshold, the largest finite values);
 *  - exact ops: r == round(o) (a single correctly rounded operation);
 *  - sums and products (mm family, dot, sum, mean, add/sub with any alpha):
 *    |r - o| <= 2 (n + 1) u m + 2 u |o| + (n + 1) tiny. Any summation order
 *    in the dtype has error <= gamma_n * sum|terms| (Higham, Accuracy and
 *    Stability, 3.1) with gamma_n ~ n u; m is sum|terms| (|alpha|, |beta|
 *    included); the final rounding adds u |o|; factor 2 is slack (BLIS may
 *    use FMA and its own blocking, the reference may accumulate in double,
 *    both are inside the bound); tiny covers underflow in each term. When m
 *    comes within a factor (1 + 2nu) of the largest finite value,
 *    intermediate sums may overflow in some orders and not in others: such
 *    elements are not judged;
 *  - exp, sigmoid, tanh: |r - o| <= 8 u |o| + 2 tiny: the backend documents
 *    <= 1 ulp (exp) and <= 2.2 ulp (sigmoid, tanh) against float64 for
 *    float32; an ulp is at most 2 u |o|, so 8 u |o| is 4 ulp; the reference
 *    kernels round a float64 libm result (<= 1 ulp); tiny for results that
 *    underflow (vectorised exp may flush to zero below the smallest normal);
 *  - softmax: relative 4 u (|x_i - max| + len + 4): the argument x_i - max
 *    is exact or rounded (error u |x_i - max|, which exp turns into that
 *    relative error), exp adds an ulp, the row sum gamma_len, the division
 *    an ulp; plus 4 len tiny for underflowed terms; log_softmax: absolute
 *    4 u (|x_i - max| + |max| + |lse| + len + 4) (lse = log of the row sum).
 *    Rows with NaN or +inf, and -inf elements (exp(-inf) = 0 exactly), are
 *    compared exactly; max is over the row. */
static int is_accumulation(const df_step *s, int dt) {
  switch (s->op) {
  case DF_RELU:
  case DF_THRESHOLD_BACKWARD:
  case DF_MUL:
  case DF_EXP:
  case DF_SIGMOID:
  case DF_TANH:
  case DF_SOFTMAX:
  case DF_LOG_SOFTMAX: return 0;
  case DF_ADD:
  case DF_SUB: return !exact_op(s, dt);
  default: return 1;
  }
}
static int check_element(const df_step *s, int dt, int common, const df_val *x, int64_t i, double r, double o, double m,
                         int64_t n, double *bound_out) {
  df_fmt f = fmt_of(dt);
  double u = unit_roundoff(f), tiny = smallest_normal(f), ro, bound = 0;
  /* a pointwise op computing in a wider dtype than its result rounds twice */
  ro = common >= 0 && common != dt && is_float(common) ? round_to(round_to(o, common), dt) : round_to(o, dt);
  *bound_out = 0;
  if (isnan(o)) return isnan(r);
  if (is_accumulation(s, dt)) {
    /* Intermediate overflow is possible when the magnitude reaches the
     * largest finite value: then some orders overflow (to inf, or to NaN
     * when infinities of both signs meet) and others do not. An infinite
     * exact result (an infinite input) is never finite in any order. A
     * magnitude that is not finite (an infinite or NaN input that a zero
     * alpha or beta removed from the exact result) cannot bound anything. */
    int may_overflow = !isfinite(m) || m * (1 + 2 * (double)n * u) >= f.maxv;
    if (isinf(o)) return r == o || (may_overflow && isnan(r));
    if (may_overflow && (!isfinite(r) || !isfinite(m))) return 1;
    if (isinf(ro)) return r == ro || may_overflow;
    if (!isfinite(r)) return 0;
    bound = 2 * (double)(n + 1) * u * m + 2 * u * fabs(o) + (double)(n + 1) * tiny;
    *bound_out = bound;
    return fabs(r - o) <= bound;
  }
  if (isnan(r) && isinf(o) && (s->op == DF_ADD || s->op == DF_SUB) && fabs(df_scalars[s->alpha_i % DF_NSCALARS]) != 1)
    return 1; /* alpha b overflowed in the compute dtype (float32 for the narrower types) and met an infinite a: inf - inf, as
               * PyTorch's unfused a + alpha * b (its scalar loop; only a fused multiply-add would keep the infinity) */
  if (isinf(o) || isinf(ro)) {
    if (r == ro) return 1;
    return isfinite(r) && fabs(r) >= f.maxv * (1 - 8 * u) && (r > 0) == (ro > 0); /* rounding at the threshold */
  }
  if (isnan(r)) return 0;
  if (isinf(r) && (s->op == DF_ADD || s->op == DF_SUB) && fabs(df_scalars[s->alpha_i % DF_NSCALARS]) != 1 &&
      m >= (dt == DF_F64 ? f.maxv : 3.4028234663852886e38) * (1 - 8 * u))
    return 1; /* alpha b is an intermediate (in float32 for the half types): it may overflow, as in PyTorch's unfused a + alpha * b */
  if (isinf(r)) return fabs(o) >= f.maxv * (1 - 8 * u) && (r > 0) == (o > 0);
  switch (s->op) {
  case DF_EXP:
  case DF_SIGMOID:
  case DF_TANH: bound = 8 * u * fabs(o) + 2 * tiny; break;
  case DF_SOFTMAX:
  case DF_LOG_SOFTMAX: {
    double mx, xi = x->f[i];
    int64_t len;
    int special;
    row_stats(x, s->dim, i, &mx, &len, &special);
    if (special || xi == -INFINITY) return r == ro; /* NaN / +inf in the row; exp(-inf) is exactly 0 */
    if (s->op == DF_SOFTMAX) bound = 4 * u * (fabs(xi - mx) + (double)len + 4) * fabs(o) + 4 * (double)len * tiny;
    else {
      double lse = (xi - mx) - o;
      bound = 4 * u * (fabs(xi - mx) + fabs(mx) + fabs(lse) + (double)len + 4) + 4 * (double)len * tiny;
    }
    break;
  }
  case DF_ADD:
  case DF_SUB:
  case DF_MUL: /* (mul: a float32 product of a half and a scalar rounds twice the same way) */
    if (dt == DF_F16 || dt == DF_BF16) {
      /* computed in float32 (PyTorch's opmath type) and rounded: when the
       * float32 value, itself rounded (alpha b, then the sum), lands on a
       * midpoint of the half type, it rounds to either neighbour of the
       * exact value: a - 7.25 b = 33872.0015 is 33872.0 in float32, a tie
       * that float16 rounds to even, 33856, not to 33888 */
      if (r == ro || r == round_to(round_to(o, DF_F32), dt)) return 1;
      bound = u * fabs(o) + 3 * ldexp(1.0, -24) * m + tiny;
      break;
    }
    return r == ro; /* exact add / sub / mul: one correctly rounded operation */
  default: return r == ro; /* relu, threshold_backward, mul: one correctly rounded operation */
  }
  *bound_out = bound;
  return fabs(r - o) <= bound;
}

static void check_side(const df_prog *p, int k, const char *side, const df_val *ins, int nin, const df_val *out) {
  const df_step *s = &p->steps[k];
  df_val o, m;
  int64_t i, n;
  int common;
  char detail[900];
  if (!is_float(out->dtype) || !out->f) return;
  if (trace) { /* the step's inputs on this side (the first 64 values of each; FZ_TRACE=2: all) */
    int a;
    for (a = 0; a < nin; a++) {
      char sh[64];
      shape_str(&ins[a], sh, sizeof sh);
      fprintf(stderr, "   %s input %d %s:", side, a, ins[a].present ? sh : "");
      for (i = 0; ins[a].present && i < ins[a].numel && (trace > 1 || i < 64); i++) fprintf(stderr, " %.9g", ins[a].f[i]);
      fprintf(stderr, "%s\n", ins[a].present ? "" : " none");
    }
  }
  if (df_ref_oracle(s, ins, nin, &o, &m, &common) != 0) {
    snprintf(detail, sizeof detail, "the float64 recomputation failed: %s", df_ref_message());
    finding(p, k, side, "float64 recomputation failed where the step succeeded", detail);
    return;
  }
  if (o.numel != out->numel || m.numel != out->numel) {
    snprintf(detail, sizeof detail, "float64 recomputation has %lld elements, result %lld", (long long)o.numel, (long long)out->numel);
    finding(p, k, side, "float64 recomputation has another shape", detail);
  } else {
    n = terms_of(s, ins, nin, out);
    for (i = 0; i < out->numel; i++) {
      double bound;
      if (!check_element(s, out->dtype, common, &ins[0], i, out->f[i], o.f[i], m.f[i], n, &bound)) {
        char sh[64];
        shape_str(out, sh, sizeof sh);
        snprintf(detail, sizeof detail,
                 "element %lld of %s: result %.17g, float64 recomputation %.17g (rounded %.17g), |diff| %.3g > bound %.3g "
                 "(magnitude %.3g, %lld terms)",
                 (long long)i, sh, out->f[i], o.f[i], round_to(o.f[i], out->dtype), fabs(out->f[i] - o.f[i]), bound, m.f[i],
                 (long long)n);
        finding(p, k, side, "result outside the error bound of the float64 recomputation", detail);
        break;
      }
    }
  }
  df_val_free(&o);
  df_val_free(&m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int inited;
  static int64_t default_small;
  fz_in in;
  df_prog p;
  int k, i;
  int64_t live_ref, live_blis;
  fz_triage_begin(data, size);
  if (!inited) {
    inited = 1;
    trace = getenv("FZ_TRACE") ? (atoi(getenv("FZ_TRACE")) > 1 ? 2 : 1) : 0;
    if (!df_blis_registered()) {
      fprintf(stderr, "differential: the BLIS backend did not register (is cpu_blis.o linked?)\n");
      abort();
    }
    default_small = df_blis_set_small_flops(0);
    df_blis_set_small_flops(default_small);
  }
  in.p = data, in.n = size, in.i = 0;
  decode(&in, &p);
  df_blis_set_small_flops(p.force_blis == 1 ? 0 : p.force_blis == 2 ? INT64_MAX : default_small);
  live_ref = df_ref_live(), live_blis = df_blis_live();
  df_ref_begin(&p);
  df_blis_begin(&p);
  for (k = 0; k < p.nsteps; k++) {
    df_val ia[DF_MAXIN], ib[DF_MAXIN];
    df_res ra, rb;
    int na = 0, nb = 0, identical;
    char detail[700];
    memset(ia, 0, sizeof ia), memset(ib, 0, sizeof ib);
    df_ref_step(&p, k, ia, &na, &ra);
    df_blis_step(&p, k, ib, &nb, &rb);
    if (trace) {
      char s1[64], s2[64];
      shape_str(&ia[0], s1, sizeof s1), shape_str(&ra.out, s2, sizeof s2);
      fprintf(stderr, "  step %d: %s form %d a=%s -> %s (status %d/%d) %s\n", k, op_names[p.steps[k].op], p.steps[k].form, s1,
              ra.status ? "error" : s2, ra.status, rb.status, ra.status ? ra.message : "");
    }
    if (ra.status != rb.status) {
      snprintf(detail, sizeof detail, "reference: status %d '%s'; BLIS: status %d '%s'", ra.status, ra.message, rb.status, rb.message);
      finding(&p, k, "both", "the sides disagree on success", detail);
    } else if (ra.status == 0) {
      if (!same_shape(&ra.out, &rb.out)) {
        char s1[64], s2[64];
        shape_str(&ra.out, s1, sizeof s1), shape_str(&rb.out, s2, sizeof s2);
        snprintf(detail, sizeof detail, "reference %s, BLIS %s", s1, s2);
        finding(&p, k, "both", "results differ in dtype or shape", detail);
      } else {
        identical = na == nb;
        for (i = 0; identical && i < na; i++) identical = same_vals(&ia[i], &ib[i]);
        if (identical && exact_op(&p.steps[k], ra.out.dtype) && !same_vals(&ra.out, &rb.out)) {
          int64_t j;
          for (j = 0; j < ra.out.numel && same_value(ra.out.f[j], rb.out.f[j]); j++) {
          }
          snprintf(detail, sizeof detail, "element %lld: reference %.17g, BLIS %.17g (dtype %s)", (long long)j,
                   j < ra.out.numel ? ra.out.f[j] : 0.0, j < ra.out.numel ? rb.out.f[j] : 0.0, dt_names[ra.out.dtype & 7]);
          finding(&p, k, "both", "an exact op is not bit-identical on identical inputs", detail);
        }
        check_side(&p, k, "reference", ia, na, &ra.out);
        check_side(&p, k, "BLIS", ib, nb, &rb.out);
      }
    }
    for (i = 0; i < DF_MAXIN; i++) df_val_free(&ia[i]), df_val_free(&ib[i]);
    df_val_free(&ra.out), df_val_free(&rb.out);
  }
  df_ref_end();
  df_blis_end();
  if (df_ref_live() != live_ref || df_blis_live() != live_blis) {
    char detail[160];
    snprintf(detail, sizeof detail, "live tensors: reference %lld -> %lld, BLIS %lld -> %lld", (long long)live_ref,
             (long long)df_ref_live(), (long long)live_blis, (long long)df_blis_live());
    fprintf(stderr, "FINDING: differential: leak: %s\n", detail);
    fz_triage_save("FINDING: differential leak");
    if (!FZ_TRIAGE_CONTINUE) abort();
  }
  return 0;
}
