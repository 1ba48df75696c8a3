/* tests/test_fixtures.c - ctorch against results computed by PyTorch.
 *
 * The cases live in tests/fixtures/fixtures.h, written by
 *     /usr/bin/python3 tests/gen_fixtures.py
 * Each case names an op, its inputs (dtype, shape, values, and a layout tag
 * that says which non-contiguous view to build), its scalar argument, and
 * either the dtype/shape/values PyTorch produced or the fact that PyTorch
 * raised (then ctorch must fail too, leaving in-place/out targets untouched).
 *
 * Included into the unity runner after ctorch.h and harness.h.
 *
 * Tolerances are relative to max(|expected|, 1), per result dtype, from the
 * significand widths (unit roundoff u = 2^-p):
 *   float32  p = 24, u ~ 6e-8   -> 1e-6  (a few ulps: summation order, exp)
 *   float64  p = 53, u ~ 1e-16  -> 1e-12 (summation order in sums and mm)
 *   float16  p = 11, u ~ 4.9e-4 -> 1e-3  (about 2 ulps)
 *   bfloat16 p = 8,  u ~ 3.9e-3 -> 1e-2  (about 2.5 ulps)
 * Integer and bool results must match exactly; NaN matches NaN and an
 * infinity must match exactly.
 */
#include <stdlib.h>

#include "fixtures/fixtures.h"

/* print every failing case (default: the first FX_MAX_REPORT of each group) */
#ifndef FX_MAX_REPORT
#define FX_MAX_REPORT 40
#endif

static double fx_tol(int dtype) {
  switch (dtype) {
  case CT_F32: return 1e-6;
  case CT_F64: return 1e-12;
  case CT_F16: return 1e-3;
  case CT_BF16: return 1e-2;
  default: return 0.0;
  }
}

static ct_scalar fx_scalar(const fx_case *c) {
  switch (c->sk) {
  case 'f': return ct_float(c->sv);
  case 'b': return ct_bool(c->sv != 0);
  default: return ct_int((int64_t)c->sv);
  }
}

/* Row-major index of coordinate `idx` in a tensor of `sizes`. */
static int64_t fx_linear(int ndim, const int64_t *sizes, const int64_t *idx) {
  int64_t k = 0;
  int d;
  for (d = 0; d < ndim; d++) k = k * sizes[d] + idx[d];
  return k;
}

/* Advance a row-major coordinate; returns 0 after the last one. */
static int fx_next(int ndim, const int64_t *sizes, int64_t *idx) {
  int d;
  for (d = ndim - 1; d >= 0; d--) {
    if (++idx[d] < sizes[d]) return 1;
    idx[d] = 0;
  }
  return 0;
}

/* Build the input tensor a descriptor asks for: a contiguous base holding the
 * values (as float64, then converted), then the same view PyTorch used. */
static ct_tensor *fx_build(const fx_tensor *d) {
  int nd = d->ndim, k;
  int64_t bsizes[4], idx[4] = {0, 0, 0, 0}, bn = 1;
  double *buf;
  ct_tensor *base, *conv, *view = NULL;

  for (k = 0; k < nd; k++) bsizes[k] = d->sizes[k];
  if (d->layout == FX_TRANSPOSED) {
    bsizes[nd - 2] = d->sizes[nd - 1];
    bsizes[nd - 1] = d->sizes[nd - 2];
  } else if (d->layout == FX_STEP2) {
    bsizes[nd - 1] = 2 * d->sizes[nd - 1];
  } else if (d->layout == FX_EXPANDED) {
    for (k = 0; k < nd; k++) bsizes[k] = d->bsizes[k];
  }
  for (k = 0; k < nd; k++) bn *= bsizes[k];
  buf = (double *)malloc(sizeof(double) * (size_t)(bn > 0 ? bn : 1));
  if (!buf) return NULL;
  buf[0] = 0;
  if (bn > 0) {
    /* walk the base's coordinates and fetch the logical value they show */
    do {
      int64_t lidx[4] = {0, 0, 0, 0}, b = fx_linear(nd, bsizes, idx);
      int skip = 0;
      for (k = 0; k < nd; k++) lidx[k] = idx[k];
      if (d->layout == FX_TRANSPOSED) {
        lidx[nd - 2] = idx[nd - 1];
        lidx[nd - 1] = idx[nd - 2];
      } else if (d->layout == FX_STEP2) {
        skip = (int)(idx[nd - 1] & 1);
        lidx[nd - 1] = idx[nd - 1] / 2;
      }
      buf[b] = skip ? (d->dtype == CT_BOOL ? 1.0 : (double)FX_SENTINEL) : d->v[fx_linear(nd, d->sizes, lidx)];
    } while (nd > 0 && fx_next(nd, bsizes, idx));
  }
  base = ct_from_array(nd, bsizes, CT_F64, buf);
  free(buf);
  conv = ct_to_dtype(base, (ct_dtype)d->dtype);
  ct_release(base);
  if (!conv) return NULL;
  switch (d->layout) {
  case FX_TRANSPOSED: view = ct_transpose(conv, nd - 2, nd - 1); break;
  case FX_STEP2: view = ct_slice(conv, nd - 1, 0, bsizes[nd - 1], 2); break;
  case FX_EXPANDED: view = ct_expand(conv, nd, d->sizes); break;
  default: return conv;
  }
  ct_release(conv);
  return view;
}

/* Run one case. Returns a new reference to the tensor to check (the result,
 * or self / out for in-place and out variants), or NULL if the op failed.
 * *known is cleared when the op name is not recognised. */
static ct_tensor *fx_run(const fx_case *c, ct_tensor **in, int *known) {
  const char *op = c->op;
  ct_tensor *a = in[0], *b = in[1], *o = in[2];
  ct_scalar s = fx_scalar(c);
  /* cppcheck-suppress unreadVariable ; every case sets it, the initialiser keeps a new case safe */
  ct_status st = CT_OK;
  ct_tensor *target = NULL; /* in-place / out: what was written */
  *known = 1;

#define FX_FN(name, expr)                                                                          \
  if (!strcmp(op, name)) return (expr);
#define FX_ST(name, expr, tgt)                                                                     \
  if (!strcmp(op, name)) {                                                                         \
    st = (expr);                                                                                   \
    target = (tgt);                                                                                \
    goto status_op;                                                                                \
  }
  /* binary */
  FX_FN("add", ct_add(a, b))
  FX_FN("add_ex", ct_add_ex(a, b, s))
  FX_FN("add_scalar", ct_add_scalar(a, s))
  FX_ST("add_", ct_add_(a, b), a)
  FX_ST("add_ex_", ct_add_ex_(a, b, s), a)
  FX_ST("add_scalar_", ct_add_scalar_(a, s), a)
  FX_ST("add_out", ct_add_out(o, a, b), o)
  FX_FN("sub", ct_sub(a, b))
  FX_FN("sub_ex", ct_sub_ex(a, b, s))
  FX_FN("sub_scalar", ct_sub_scalar(a, s))
  FX_ST("sub_", ct_sub_(a, b), a)
  FX_ST("sub_ex_", ct_sub_ex_(a, b, s), a)
  FX_ST("sub_scalar_", ct_sub_scalar_(a, s), a)
  FX_ST("sub_out", ct_sub_out(o, a, b), o)
  FX_FN("mul", ct_mul(a, b))
  FX_FN("mul_scalar", ct_mul_scalar(a, s))
  FX_ST("mul_", ct_mul_(a, b), a)
  FX_ST("mul_scalar_", ct_mul_scalar_(a, s), a)
  FX_ST("mul_out", ct_mul_out(o, a, b), o)
  FX_FN("div", ct_div(a, b))
  FX_FN("div_scalar", ct_div_scalar(a, s))
  FX_ST("div_", ct_div_(a, b), a)
  FX_ST("div_scalar_", ct_div_scalar_(a, s), a)
  FX_ST("div_out", ct_div_out(o, a, b), o)
  /* unary: the out tensor is the second input */
  FX_FN("neg", ct_neg(a))
  FX_ST("neg_", ct_neg_(a), a)
  FX_ST("neg_out", ct_neg_out(b, a), b)
  FX_FN("relu", ct_relu(a))
  FX_ST("relu_", ct_relu_(a), a)
  FX_FN("exp", ct_exp(a))
  FX_ST("exp_", ct_exp_(a), a)
  FX_ST("exp_out", ct_exp_out(b, a), b)
  /* reductions and matmul */
  FX_FN("sum", ct_sum(a))
  FX_FN("sum_dim", ct_sum_dim(a, c->ndims, c->dims, c->keepdim != 0))
  FX_FN("mm", ct_mm(a, b))
  FX_ST("mm_out", ct_mm_out(o, a, b), o)
#undef FX_FN
#undef FX_ST
  *known = 0;
  return NULL;

status_op:
  if (st != CT_OK) return NULL;
  return ct_retain(target);
}

static const char *fx_dtype_name(int dt) { return dt >= 0 ? ct_dtype_name((ct_dtype)dt) : "none"; }

/* Compare t against the descriptor; writes a reason into msg on mismatch. */
static int fx_compare_tol(const ct_tensor *t, const fx_tensor *w, double tol, char *msg, size_t cap);
static int fx_compare(const ct_tensor *t, const fx_tensor *w, char *msg, size_t cap) {
  return fx_compare_tol(t, w, fx_tol(w->dtype), msg, cap);
}
static int fx_compare_tol(const ct_tensor *t, const fx_tensor *w, double tol, char *msg, size_t cap) {
  int k;
  int64_t i;
  char gs[96], ws[96];
  if (t->dtype != w->dtype) {
    snprintf(msg, cap, "dtype %s, expected %s", fx_dtype_name(t->dtype), fx_dtype_name(w->dtype));
    return 0;
  }
  if (t->ndim != w->ndim || t->numel != w->n) goto shape;
  for (k = 0; k < w->ndim; k++)
    if (t->sizes[k] != w->sizes[k]) goto shape;
  for (i = 0; i < w->n; i++) {
    double want = w->v[i];
    if (tol == 0.0) {
      int64_t got = ct_get_int(t, i);
      if (got != (int64_t)want) {
        snprintf(msg, cap, "element %lld is %lld, expected %lld", (long long)i, (long long)got, (long long)want);
        return 0;
      }
    } else {
      double got = ct_get(t, i);
      int ok = (isnan(got) && isnan(want)) || got == want ||
               (!isinf(want) && fabs(got - want) <= tol * fmax(fabs(want), 1.0));
      if (!ok) {
        snprintf(msg, cap, "element %lld is %.17g, expected %.17g (tol %g)", (long long)i, got, want, tol);
        return 0;
      }
    }
  }
  return 1;
shape:
  ct_shape_format(t->ndim, t->sizes, gs, sizeof gs);
  ct_shape_format(w->ndim, w->sizes, ws, sizeof ws);
  snprintf(msg, cap, "shape %s, expected %s", gs, ws);
  return 0;
}

static int fx_is_inplace(const char *op) {
  size_t n = strlen(op);
  return n > 0 && op[n - 1] == '_';
}
static int fx_is_out(const char *op) {
  size_t n = strlen(op);
  return n > 4 && !strcmp(op + n - 4, "_out");
}

/* Run one case; returns 1 if it passed, else 0 with the reason in msg. */
static int fx_check_case(const fx_case *c, char *msg, size_t cap) {
  ct_tensor *in[3] = {NULL, NULL, NULL}, *r = NULL;
  int k, nin = 0, known = 1, ok = 1;
  ct_status err;
  msg[0] = '\0';
  for (k = 0; k < 3; k++) {
    if (!c->in[k]) break;
    in[k] = fx_build(c->in[k]);
    nin++;
    if (!in[k]) {
      snprintf(msg, cap, "building input %d failed: %.300s", k, ct_last_error_message());
      ok = 0;
      goto done;
    }
  }
  ct_clear_error();
  r = fx_run(c, in, &known);
  err = ct_last_error();
  if (!known) {
    snprintf(msg, cap, "unknown op in fixture");
    ok = 0;
  } else if (c->err) {
    if (r) {
      snprintf(msg, cap, "succeeded (%s), but PyTorch raises", fx_dtype_name(r->dtype));
      ok = 0;
    } else if (err == CT_OK) {
      snprintf(msg, cap, "failed without setting an error");
      ok = 0;
    } else if (c->needle && !strstr(ct_last_error_message(), c->needle)) {
      snprintf(msg, cap, "error \"%.300s\" lacks \"%.60s\"", ct_last_error_message(), c->needle);
      ok = 0;
    } else if (fx_is_inplace(c->op) || fx_is_out(c->op)) {
      /* a failed in-place / out op must leave its target as it was */
      int t = fx_is_inplace(c->op) ? 0 : nin - 1;
      char sub[160];
      ct_clear_error();
      if (!fx_compare(in[t], c->in[t], sub, sizeof sub)) {
        snprintf(msg, cap, "failed as expected but changed its %s: %s", t ? "out" : "self", sub);
        ok = 0;
      }
    }
  } else if (!r) {
    snprintf(msg, cap, "failed: %s: %.300s", ct_status_name(err), ct_last_error_message());
    ok = 0;
  } else if (err != CT_OK) {
    snprintf(msg, cap, "succeeded but left error %s pending", ct_status_name(err));
    ok = 0;
  } else {
    /* An out= (or in-place) target may be wider than the dtype the op computes
     * in (exp of float32 into a float64 out is computed in float32, then cast):
     * the tolerance is then that of the computing dtype. Libm results may
     * differ by an ulp of it (ctorch rounds exp correctly; PyTorch's vectorised
     * float exp can be one ulp off). */
    double tol = fx_tol(c->want->dtype);
    if (fx_is_out(c->op) || fx_is_inplace(c->op))
      for (k = 0; k < nin; k++)
        if (ct_dtype_is_floating((ct_dtype)c->in[k]->dtype) && fx_tol(c->in[k]->dtype) > tol) tol = fx_tol(c->in[k]->dtype);
    ok = fx_compare_tol(r, c->want, tol, msg, cap);
  }
done:
  ct_release(r);
  for (k = 0; k < 3; k++) ct_release(in[k]);
  ct_clear_error();
  return ok;
}

static void fx_run_group(const char *group, const fx_case *cases, int n) {
  int i, failed = 0;
  char msg[1024];
  const char *all = getenv("CT_FIXTURES_ALL"); /* set to report every failure */
  for (i = 0; i < n; i++) {
    if (fx_check_case(&cases[i], msg, sizeof msg)) continue;
    if (failed < FX_MAX_REPORT || all)
      harness_fail(__FILE__, __LINE__, "%s case %d [%s] %s: %s", group, i, cases[i].op, cases[i].desc, msg);
    failed++;
  }
  if (failed > FX_MAX_REPORT && !all)
    harness_fail(__FILE__, __LINE__, "%s: %d of %d cases failed (%d not shown; set CT_FIXTURES_ALL=1)", group, failed,
                 n, failed - FX_MAX_REPORT);
}

#define FX_GROUP(name) fx_run_group(#name, fx_##name, (int)(sizeof fx_##name / sizeof fx_##name[0]))

TEST(fixtures_promotion) { FX_GROUP(promotion); }
TEST(fixtures_broadcast) { FX_GROUP(broadcast); }
TEST(fixtures_noncontig) { FX_GROUP(noncontig); }
TEST(fixtures_inplace_out) { FX_GROUP(inplace_out); }
TEST(fixtures_unary) { FX_GROUP(unary); }
TEST(fixtures_reductions) { FX_GROUP(reductions); }
TEST(fixtures_mm) { FX_GROUP(mm); }

#undef FX_GROUP
