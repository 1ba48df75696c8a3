/* tests/test_autograd.c - the autograd engine and its user API, against
 * PyTorch semantics.
 *
 * autograd_fixture_* replays tests/fixtures/autograd_cases.h (written by
 *     /usr/bin/python3 tests/gen_autograd_fixtures.py
 * from PyTorch): outputs, first-order vector-Jacobian products with
 * create_graph, and second-order gradients through those. The other tests
 * check backward semantics (accumulation, retain_graph, errors), graph
 * shapes, grad modes, the version counter, in-place ops, views and the
 * memory behaviour of a training loop against hand-computed values. The
 * tests at the end pin down places where ctorch differed from PyTorch when
 * they were written (each says what PyTorch does).
 *
 * Included into the unity runner after ctorch.h and harness.h.
 */
#include "fixtures/autograd_cases.h"

/* ---- helpers ------------------------------------------------------------ */
#define AGT_TOL 1e-10 /* float64 against float64 PyTorch results */

/* A float64 tensor from literal values: AGT_F64(CT_DIMS(2, 3), 1, 2, ...). */
#define AGT_F64(ndim_sizes, ...) ct_from_array(ndim_sizes, CT_F64, (const double[]){__VA_ARGS__})

/* A float64 leaf that requires grad. */
static ct_tensor *agt_leaf(int ndim, const int64_t *sizes, const double *data) {
  ct_tensor *t = ct_from_array(ndim, sizes, CT_F64, data);
  if (t && ct_set_requires_grad(t, true) != CT_OK) return NULL;
  return t;
}

/* Compare every element of t with want[0..n); t NULL compares as zeros when
 * null_is_zero, else it is a failure. Reports `what` and the first bad index. */
static int agt_check_values_at(int line, const char *what, const ct_tensor *t, const double *want, int64_t n, double tol,
                               int null_is_zero) {
  int64_t i;
  if (!t) {
    if (!null_is_zero) {
      harness_fail(__FILE__, line, "%s: tensor is NULL (%s)", what, ct_last_error_message());
      return 0;
    }
    for (i = 0; i < n; i++)
      if (!(fabs(want[i]) <= tol)) {
        harness_fail(__FILE__, line, "%s: got NULL (zeros) but element %lld should be %.17g", what, (long long)i, want[i]);
        return 0;
      }
    return 1;
  }
  if (t->numel != n) {
    harness_fail(__FILE__, line, "%s: %lld elements, expected %lld", what, (long long)t->numel, (long long)n);
    return 0;
  }
  for (i = 0; i < n; i++) {
    double got = ct_get(t, i);
    if (!(fabs(got - want[i]) <= tol)) {
      harness_fail(__FILE__, line, "%s: element %lld is %.17g, expected %.17g (diff %.3g)", what, (long long)i, got, want[i],
                   fabs(got - want[i]));
      return 0;
    }
  }
  return 1;
}
#define AGT_CHECK_VALUES(what, t, want, n, tol) agt_check_values_at(__LINE__, what, t, want, n, tol, 0)

/* t has exactly this shape. */
static int agt_shape_is(const ct_tensor *t, int ndim, const int64_t *sizes) {
  int i;
  if (!t || t->ndim != ndim) return 0;
  for (i = 0; i < ndim; i++)
    if (t->sizes[i] != sizes[i]) return 0;
  return 1;
}

/* ct_backward must fail with `code` and a message holding both needles (one
 * call: a failed backward may already have released part of the graph). */
static void agt_expect_fail_at(int line, ct_status st, ct_status code, const char *needle1, const char *needle2) {
  const char *msg = ct_last_error_message();
  if (st != code || ct_last_error() != code || !strstr(msg, needle1) || (needle2 && !strstr(msg, needle2)))
    harness_fail(__FILE__, line, "expected %s containing \"%s\"%s%s%s, got %s (returned %s) \"%s\"", ct_status_name(code),
                 needle1, needle2 ? " and \"" : "", needle2 ? needle2 : "", needle2 ? "\"" : "",
                 ct_status_name(ct_last_error()), ct_status_name(st), msg);
  ct_clear_error();
}
#define AGT_EXPECT_FAIL(expr, code, n1, n2)                                                                              \
  do {                                                                                                                   \
    ct_status agt_st_;                                                                                                   \
    ct_clear_error();                                                                                                    \
    agt_st_ = (expr);                                                                                                    \
    agt_expect_fail_at(__LINE__, agt_st_, code, n1, n2);                                                                 \
  } while (0)

/* ---- 1. fixtures from PyTorch ------------------------------------------- */
static ct_tensor *agt_fx_tensor(const autograd_fixture_tensor *f) {
  return ct_from_array(f->ndim, f->sizes, CT_F64, f->data);
}
static int64_t agt_fx_numel(const autograd_fixture_tensor *f) {
  int64_t n = 1;
  int i;
  for (i = 0; i < f->ndim; i++) n *= f->sizes[i];
  return n;
}

/* y = f(x) for the case's op; NULL for an unknown name. */
static ct_tensor *agt_fx_apply(const char *name, ct_tensor *const *x) {
  static const int64_t d0[1] = {0}, d1[1] = {1};
  if (!strcmp(name, "tanh")) return ct_tanh(x[0]);
  if (!strcmp(name, "sigmoid")) return ct_sigmoid(x[0]);
  if (!strcmp(name, "exp")) return ct_exp(x[0]);
  if (!strcmp(name, "neg")) return ct_neg(x[0]);
  if (!strcmp(name, "relu")) return ct_relu(x[0]);
  if (!strcmp(name, "mul") || !strcmp(name, "mul_bcast")) return ct_mul(x[0], x[1]);
  if (!strcmp(name, "add")) return ct_add(x[0], x[1]);
  if (!strcmp(name, "add_alpha")) return ct_add_ex(x[0], x[1], ct_float(2.5));
  if (!strcmp(name, "sub")) return ct_sub(x[0], x[1]);
  if (!strcmp(name, "div") || !strcmp(name, "div_bcast")) return ct_div(x[0], x[1]);
  if (!strcmp(name, "mm")) return ct_mm(x[0], x[1]);
  if (!strcmp(name, "matmul")) return ct_matmul(x[0], x[1]);
  if (!strcmp(name, "tanh_mm")) return ct_tanh(ct_mm(x[0], x[1]));
  if (!strcmp(name, "sum")) return ct_sum(x[0]);
  if (!strcmp(name, "sum_dim")) return ct_sum_dim(x[0], 1, d1, false);
  if (!strcmp(name, "sum_dim_keep")) return ct_sum_dim(x[0], 1, d0, true);
  if (!strcmp(name, "mean")) return ct_mean(x[0]);
  if (!strcmp(name, "mean_dim")) return ct_mean_dim(x[0], 1, d1, false);
  if (!strcmp(name, "sigmoid_mul")) return ct_mul(ct_sigmoid(x[0]), x[0]);
  if (!strcmp(name, "mlp")) return ct_tanh(ct_add(ct_mm(x[0], x[1]), x[2]));
  return NULL;
}

/* One case; returns 1 when everything matched. Failures name the case. */
static int agt_fx_run(const autograd_case *c) {
  int ok = 1, i, n = c->num_inputs;
  char what[96];
  ct_tensor *x[3] = {NULL, NULL, NULL}, *g[3] = {NULL, NULL, NULL}, *h[3] = {NULL, NULL, NULL};
  CT_SCOPE {
    ct_tensor *y = NULL, *v, *s = NULL;
    ct_backward_desc d;
    ct_status st;
    for (i = 0; i < n; i++) {
      x[i] = agt_fx_tensor(&c->input[i]);
      if (!x[i] || ct_set_requires_grad(x[i], true) != CT_OK) ok = 0;
    }
    if (ok) y = agt_fx_apply(c->name, x);
    snprintf(what, sizeof what, "case %s: output", c->name);
    if (!y || !agt_shape_is(y, c->output.ndim, c->output.sizes)) {
      harness_fail(__FILE__, __LINE__, "%s: wrong shape or NULL (%s)", what, ct_last_error_message());
      ok = 0;
    }
    ok = ok && agt_check_values_at(__LINE__, what, y, c->output.data, agt_fx_numel(&c->output), AGT_TOL, 0);
    if (ok && !ct_requires_grad(y)) {
      harness_fail(__FILE__, __LINE__, "case %s: output does not require grad", c->name);
      ok = 0;
    }
    /* first order: g = vjp(v), recorded (create_graph) */
    if (ok) {
      v = agt_fx_tensor(&c->grad_output);
      memset(&d, 0, sizeof d);
      d.num_outputs = 1;
      d.outputs = &y;
      d.grad_outputs = &v;
      d.create_graph = true;
      st = ct_autograd_grad(&d, n, x, g);
      if (st != CT_OK) {
        harness_fail(__FILE__, __LINE__, "case %s: first-order ct_autograd_grad failed: %s", c->name, ct_last_error_message());
        ok = 0;
      }
    }
    for (i = 0; ok && i < n; i++) {
      snprintf(what, sizeof what, "case %s: grad_input[%d]", c->name, i);
      if (!agt_shape_is(g[i], c->grad_input[i].ndim, c->grad_input[i].sizes)) {
        harness_fail(__FILE__, __LINE__, "%s: wrong shape", what);
        ok = 0;
      }
      ok = ok && agt_check_values_at(__LINE__, what, g[i], c->grad_input[i].data, agt_fx_numel(&c->grad_input[i]), AGT_TOL, 0);
    }
    /* second order: h = d(sum_i <g_i, u_i>)/dx */
    for (i = 0; ok && i < n; i++) {
      ct_tensor *p = ct_sum(ct_mul(g[i], agt_fx_tensor(&c->grad_grad[i])));
      s = s ? ct_add(s, p) : p;
    }
    if (ok && !s) {
      harness_fail(__FILE__, __LINE__, "case %s: building sum(g*u) failed: %s", c->name, ct_last_error_message());
      ok = 0;
    }
    if (ok && ct_requires_grad(s)) { /* else every g_i is constant: h = 0, as PyTorch */
      memset(&d, 0, sizeof d);
      d.num_outputs = 1;
      d.outputs = &s;
      d.allow_unused = true;
      st = ct_autograd_grad(&d, n, x, h);
      if (st != CT_OK) {
        harness_fail(__FILE__, __LINE__, "case %s: second-order ct_autograd_grad failed: %s", c->name, ct_last_error_message());
        ok = 0;
      }
    }
    for (i = 0; ok && i < n; i++) {
      snprintf(what, sizeof what, "case %s: second[%d]", c->name, i);
      if (h[i] && !agt_shape_is(h[i], c->second[i].ndim, c->second[i].sizes)) {
        harness_fail(__FILE__, __LINE__, "%s: wrong shape", what);
        ok = 0;
      }
      ok = ok && agt_check_values_at(__LINE__, what, h[i], c->second[i].data, agt_fx_numel(&c->second[i]), AGT_TOL, 1);
    }
  }
  for (i = 0; i < 3; i++) ct_release(g[i]), ct_release(h[i]);
  ct_clear_error();
  return ok;
}

TEST(autograd_fixtures_first_and_second_order) {
  size_t k;
  int failed = 0;
  CHECK(AUTOGRAD_NUM_CASES == 22);
  for (k = 0; k < AUTOGRAD_NUM_CASES; k++)
    if (!agt_fx_run(&autograd_cases[k])) failed++;
  if (failed) harness_fail(__FILE__, __LINE__, "%d of %d autograd fixture cases failed", failed, (int)AUTOGRAD_NUM_CASES);
}

/* ---- 2. plain backward semantics ----------------------------------------- */
TEST(autograd_backward_accumulates_and_set_grad_clears) {
  CT_SCOPE {
    const double xv[3] = {1, -2, 3}, g2[3] = {2, -4, 6}, g4[3] = {4, -8, 12};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *y = ct_sum(ct_mul(x, x));
    CHECK(ct_grad(x) == NULL);
    CHECK_OK(ct_backward(y));
    CHECK(ct_grad(x) && agt_shape_is(ct_grad(x), CT_DIMS(3)) && ct_grad(x)->dtype == CT_F64);
    AGT_CHECK_VALUES("x.grad after one backward", ct_grad(x), g2, 3, 1e-12);
    CHECK(!ct_requires_grad(ct_grad(x)) && ct_is_leaf(ct_grad(x)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(x, x)))); /* a fresh graph: accumulates */
    AGT_CHECK_VALUES("x.grad after two backwards", ct_grad(x), g4, 3, 1e-12);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK(ct_grad(x) == NULL);
    CHECK_OK(ct_backward(ct_sum(ct_mul(x, x))));
    AGT_CHECK_VALUES("x.grad after clearing", ct_grad(x), g2, 3, 1e-12);
    /* ct_set_grad with a tensor: retained, shape-checked */
    {
      ct_tensor *z = ct_zeros(CT_DIMS(3), CT_F64), *bad = ct_zeros(CT_DIMS(2), CT_F64);
      CHECK_OK(ct_set_grad(x, z));
      CHECK(ct_grad(x) == z);
      CHECK_ERR(ct_set_grad(x, bad), CT_ERR_SHAPE, "different shape");
      CHECK(ct_grad(x) == z);
      CHECK_OK(ct_backward(ct_sum(ct_mul(x, x))));
      AGT_CHECK_VALUES("x.grad accumulated onto a set grad", ct_grad(x), g2, 3, 1e-12);
      CHECK(ct_grad(x) != z || ct_get(z, 0) == 2); /* either replaced or accumulated in place */
    }
  }
}

TEST(autograd_backward_twice_needs_retain_graph) {
  CT_SCOPE {
    const double xv[3] = {1, -2, 3}, g2[3] = {2, -4, 6}, g4[3] = {4, -8, 12}, g6[3] = {6, -12, 18};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *y = ct_sum(ct_mul(x, x));
    CHECK_OK(ct_backward(y));
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_STATE, "backward through the graph a second time", NULL);
    AGT_CHECK_VALUES("x.grad unchanged by the failed backward", ct_grad(x), g2, 3, 1e-12);
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_STATE, "retain_graph", NULL); /* and it stays that way */

    CHECK_OK(ct_set_grad(x, NULL));
    y = ct_sum(ct_mul(x, x));
    CHECK_OK(ct_backward_ex(y, NULL, true, false));
    CHECK_OK(ct_backward_ex(y, NULL, true, false));
    AGT_CHECK_VALUES("x.grad after two retained backwards", ct_grad(x), g4, 3, 1e-12);
    CHECK_OK(ct_backward(y)); /* the last use frees the graph */
    AGT_CHECK_VALUES("x.grad after three backwards", ct_grad(x), g6, 3, 1e-12);
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_STATE, "backward through the graph a second time", NULL);
    AGT_CHECK_VALUES("x.grad unchanged by the failed backward", ct_grad(x), g6, 3, 1e-12);
  }
}

TEST(autograd_backward_argument_errors) {
  CT_SCOPE {
    const double xv[3] = {1, -2, 3}, gv[3] = {0.5, 1, -1}, want[3] = {1, -4, -6};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *plain = AGT_F64(CT_DIMS(3), 1, 2, 3);
    ct_tensor *y = ct_mul(x, x); /* [3]: not a scalar */
    ct_tensor *g_bad = AGT_F64(CT_DIMS(2), 1, 1), *g_bad2 = AGT_F64(CT_DIMS(3, 1), 1, 1, 1);
    ct_tensor *g = ct_from_array(CT_DIMS(3), CT_F64, gv);
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_SHAPE, "grad can be implicitly created only for scalar outputs", NULL);
    AGT_EXPECT_FAIL(ct_backward_ex(y, g_bad, false, false), CT_ERR_SHAPE, "mismatch in shape", "[2]");
    AGT_EXPECT_FAIL(ct_backward_ex(y, g_bad2, false, false), CT_ERR_SHAPE, "mismatch in shape", "[3, 1]");
    AGT_EXPECT_FAIL(ct_backward(ct_sum(plain)), CT_ERR_STATE, "does not require grad", NULL);
    CHECK(ct_grad(x) == NULL); /* nothing ran */
    /* the graph survived the rejected calls */
    CHECK_OK(ct_backward_ex(y, g, false, false));
    AGT_CHECK_VALUES("x.grad = 2 x g", ct_grad(x), want, 3, 1e-12);
    /* a leaf root: its grad is the seed */
    {
      ct_tensor *s = agt_leaf(0, NULL, (const double[]){4});
      const double one[1] = {1};
      CHECK_OK(ct_backward(s));
      AGT_CHECK_VALUES("d s / d s", ct_grad(s), one, 1, 0);
    }
  }
}

TEST(autograd_null_and_invalid_arguments) {
  ct_backward_desc d;
  ct_tensor *grads[1] = {NULL};
  CHECK_ERR(ct_backward(NULL), CT_ERR_NULL, "NULL");
  CHECK_ERR(ct_backward_ex(NULL, NULL, true, false), CT_ERR_NULL, "NULL");
  CHECK_ERR(ct_autograd_backward(NULL), CT_ERR_NULL, "NULL");
  CHECK_ERR(ct_set_requires_grad(NULL, true), CT_ERR_NULL, "NULL");
  CHECK_ERR(ct_set_grad(NULL, NULL), CT_ERR_NULL, "NULL");
  CHECK(ct_grad(NULL) == NULL && !ct_requires_grad(NULL) && !ct_is_leaf(NULL) && ct_grad_fn_name(NULL) == NULL);
  memset(&d, 0, sizeof d);
  CHECK_ERR(ct_autograd_backward(&d), CT_ERR_INVALID, "no outputs");
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){1, 2}), *y = ct_sum(x), *plain = ct_zeros(CT_DIMS(2), CT_F64);
    ct_tensor *i64 = ct_zeros(CT_DIMS(2), CT_I64);
    d.num_outputs = 1;
    d.outputs = &y;
    CHECK_ERR(ct_autograd_grad(&d, 0, NULL, NULL), CT_ERR_INVALID, "no inputs");
    CHECK_ERR(ct_autograd_grad(&d, 1, &plain, grads), CT_ERR_STATE, "does not require grad");
    CHECK(grads[0] == NULL);
    CHECK_ERR(ct_set_requires_grad(i64, true), CT_ERR_DTYPE, "floating point");
    CHECK(!ct_requires_grad(i64));
    CHECK_ERR(ct_set_requires_grad(y, false), CT_ERR_STATE, "leaf");
    CHECK(ct_requires_grad(y));
  }
}

/* ---- 3. graph shapes ------------------------------------------------------ */
TEST(autograd_shared_subexpression) {
  CT_SCOPE {
    const double av[4] = {0.5, -1, 2, 0.25}, bv[4] = {1.5, 0.5, -0.75, 2};
    double wa[4], wb[4];
    int i;
    ct_tensor *a = agt_leaf(CT_DIMS(4), av), *b = agt_leaf(CT_DIMS(4), bv);
    ct_tensor *y = ct_mul(a, b);
    ct_tensor *z = ct_add(ct_mul(y, y), y);
    CHECK_OK(ct_backward(ct_sum(z)));
    for (i = 0; i < 4; i++) { /* dz/da = (2y + 1) b, dz/db = (2y + 1) a */
      double yy = av[i] * bv[i];
      wa[i] = (2 * yy + 1) * bv[i];
      wb[i] = (2 * yy + 1) * av[i];
    }
    AGT_CHECK_VALUES("a.grad", ct_grad(a), wa, 4, 1e-12);
    AGT_CHECK_VALUES("b.grad", ct_grad(b), wb, 4, 1e-12);
    CHECK(ct_grad(y) == NULL); /* non-leaves keep no .grad */
  }
}

TEST(autograd_two_roots_in_one_backward) {
  CT_SCOPE {
    const double xv[3] = {0.5, -1, 2}, v1[3] = {1, 2, -1}, v2[3] = {0.5, -0.5, 3};
    double want[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *y1 = ct_mul(x, x), *y2 = ct_exp(x);
    ct_tensor *outs[2], *gos[2];
    ct_backward_desc d;
    outs[0] = y1, outs[1] = y2;
    gos[0] = ct_from_array(CT_DIMS(3), CT_F64, v1), gos[1] = ct_from_array(CT_DIMS(3), CT_F64, v2);
    memset(&d, 0, sizeof d);
    d.num_outputs = 2;
    d.outputs = outs;
    d.grad_outputs = gos;
    CHECK_OK(ct_autograd_backward(&d));
    for (i = 0; i < 3; i++) want[i] = 2 * xv[i] * v1[i] + exp(xv[i]) * v2[i];
    AGT_CHECK_VALUES("x.grad from two roots", ct_grad(x), want, 3, 1e-12);

    /* two scalar roots with implicit seeds; they share a node */
    CHECK_OK(ct_set_grad(x, NULL));
    {
      ct_tensor *m = ct_mul(x, x);
      outs[0] = ct_sum(m), outs[1] = ct_sum(ct_mul_scalar(m, ct_float(3)));
      d.grad_outputs = NULL;
      CHECK_OK(ct_autograd_backward(&d));
      for (i = 0; i < 3; i++) want[i] = 8 * xv[i];
      AGT_CHECK_VALUES("x.grad from two scalar roots", ct_grad(x), want, 3, 1e-12);
    }
    /* ct_autograd_grad with two roots and two inputs; no .grad touched */
    {
      const double wv[3] = {2, 3, 4};
      ct_tensor *w = agt_leaf(CT_DIMS(3), wv), *r[2] = {NULL, NULL}, *ins[2];
      double wx[3], ww[3];
      ct_tensor *before = ct_grad(x);
      outs[0] = ct_sum(ct_mul(x, w)), outs[1] = ct_sum(ct_mul(w, w));
      ins[0] = x, ins[1] = w;
      CHECK_OK(ct_autograd_grad(&d, 2, ins, r));
      for (i = 0; i < 3; i++) wx[i] = wv[i], ww[i] = xv[i] + 2 * wv[i];
      AGT_CHECK_VALUES("d/dx", r[0], wx, 3, 1e-12);
      AGT_CHECK_VALUES("d/dw", r[1], ww, 3, 1e-12);
      CHECK(ct_grad(x) == before && ct_grad(w) == NULL);
      CHECK(r[0] && !ct_requires_grad(r[0])); /* no create_graph: plain tensors */
      ct_release(r[0]), ct_release(r[1]);
    }
  }
}

TEST(autograd_unused_branches_and_inputs) {
  CT_SCOPE {
    const double xv[3] = {1, 2, 3}, wv[3] = {-1, 0.5, 2};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *w = agt_leaf(CT_DIMS(3), wv), *q = agt_leaf(CT_DIMS(3), wv);
    ct_tensor *y = ct_mul(x, w);
    ct_tensor *dead1 = ct_exp(w), *dead2 = ct_mul(ct_mul(x, x), q); /* never reach the root */
    ct_tensor *ins[3], *r[3] = {NULL, NULL, NULL};
    ct_backward_desc d;
    CHECK(ct_requires_grad(dead1) && ct_requires_grad(dead2));
    CHECK_OK(ct_backward_ex(ct_sum(y), NULL, true, false));
    AGT_CHECK_VALUES("x.grad", ct_grad(x), wv, 3, 1e-12);
    AGT_CHECK_VALUES("w.grad", ct_grad(w), xv, 3, 1e-12);
    CHECK(ct_grad(q) == NULL);
    /* ct_autograd_grad: an input the root does not depend on */
    memset(&d, 0, sizeof d);
    d.num_outputs = 1;
    d.outputs = &y;
    d.grad_outputs = (ct_tensor *const[]){ct_ones(CT_DIMS(3), CT_F64)};
    d.retain_graph = true;
    ins[0] = x, ins[1] = q, ins[2] = w;
    CHECK_ERR(ct_autograd_grad(&d, 3, ins, r), CT_ERR_STATE, "not have been used in the graph");
    CHECK(r[0] == NULL && r[1] == NULL && r[2] == NULL);
    d.allow_unused = true;
    CHECK_OK(ct_autograd_grad(&d, 3, ins, r));
    AGT_CHECK_VALUES("dy/dx", r[0], wv, 3, 1e-12);
    CHECK(r[1] == NULL);
    AGT_CHECK_VALUES("dy/dw", r[2], xv, 3, 1e-12);
    ct_release(r[0]), ct_release(r[1]), ct_release(r[2]);
    /* the dead branch still works on its own */
    CHECK_OK(ct_backward(ct_sum(dead2)));
    {
      double gx[3], gq[3];
      int i;
      for (i = 0; i < 3; i++) gx[i] = wv[i] + 2 * xv[i] * wv[i], gq[i] = xv[i] * xv[i];
      AGT_CHECK_VALUES("x.grad after the second branch", ct_grad(x), gx, 3, 1e-12);
      AGT_CHECK_VALUES("q.grad", ct_grad(q), gq, 3, 1e-12);
    }
  }
}

TEST(autograd_leaf_used_twice) {
  CT_SCOPE {
    const double xv[3] = {1, -2, 3}, twos[3] = {2, 2, 2}, g[3] = {3, -3, 7};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    CHECK_OK(ct_backward(ct_sum(ct_add(x, x))));
    AGT_CHECK_VALUES("d(x + x)/dx", ct_grad(x), twos, 3, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    /* x * x + x: three uses */
    CHECK_OK(ct_backward(ct_sum(ct_add(ct_mul(x, x), x))));
    AGT_CHECK_VALUES("d(x*x + x)/dx", ct_grad(x), g, 3, 1e-12);
  }
}

TEST(autograd_broadcasting_reduces_to_input_shapes) {
  CT_SCOPE {
    const double av[3] = {1, 2, 3}, bv[4] = {0.5, -1, 2, 4}, cv[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    double ga[3], gb[4];
    int i, j;
    ct_tensor *a = agt_leaf(CT_DIMS(3, 1), av), *b = agt_leaf(CT_DIMS(4), bv), *c = ct_from_array(CT_DIMS(3, 4), CT_F64, cv);
    ct_tensor *y = ct_mul(a, b);
    CHECK(agt_shape_is(y, CT_DIMS(3, 4)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, c))));
    for (i = 0; i < 3; i++)
      for (ga[i] = 0, j = 0; j < 4; j++) ga[i] += bv[j] * cv[i * 4 + j];
    for (j = 0; j < 4; j++)
      for (gb[j] = 0, i = 0; i < 3; i++) gb[j] += av[i] * cv[i * 4 + j];
    CHECK(agt_shape_is(ct_grad(a), CT_DIMS(3, 1)));
    CHECK(agt_shape_is(ct_grad(b), CT_DIMS(4)));
    AGT_CHECK_VALUES("a.grad [3,1]", ct_grad(a), ga, 3, 1e-12);
    AGT_CHECK_VALUES("b.grad [4]", ct_grad(b), gb, 4, 1e-12);
    /* a 0-dim operand */
    {
      ct_tensor *s = agt_leaf(0, NULL, (const double[]){2});
      double sum_c = 0;
      CHECK_OK(ct_backward(ct_sum(ct_mul(c, s))));
      for (i = 0; i < 12; i++) sum_c += cv[i];
      CHECK(agt_shape_is(ct_grad(s), 0, NULL));
      AGT_CHECK_VALUES("0-dim s.grad", ct_grad(s), &sum_c, 1, 1e-12);
    }
  }
}

TEST(autograd_float32_leaves_and_mixed_dtypes) {
  CT_SCOPE {
    const float xv[3] = {1.5f, -2, 0.25f};
    const double wv[3] = {2, 3, -4};
    double want[3], wantw[3];
    int i;
    ct_tensor *x = ct_from_array(CT_DIMS(3), CT_F32, xv), *w = agt_leaf(CT_DIMS(3), wv);
    ct_tensor *y;
    CHECK_OK(ct_set_requires_grad(x, true));
    y = ct_sum(ct_mul(x, x));
    CHECK(y && y->dtype == CT_F32);
    CHECK_OK(ct_backward(y));
    CHECK(ct_grad(x) && ct_grad(x)->dtype == CT_F32);
    for (i = 0; i < 3; i++) want[i] = 2.0 * xv[i];
    AGT_CHECK_VALUES("float32 x.grad", ct_grad(x), want, 3, 1e-6);
    /* float32 * float64 -> float64; each grad comes back in its leaf's dtype */
    CHECK_OK(ct_set_grad(x, NULL));
    y = ct_mul(x, w);
    CHECK(y && y->dtype == CT_F64);
    CHECK_OK(ct_backward(ct_sum(y)));
    CHECK(ct_grad(x) && ct_grad(x)->dtype == CT_F32 && agt_shape_is(ct_grad(x), CT_DIMS(3)));
    CHECK(ct_grad(w) && ct_grad(w)->dtype == CT_F64);
    for (i = 0; i < 3; i++) want[i] = wv[i], wantw[i] = xv[i];
    AGT_CHECK_VALUES("mixed: x.grad", ct_grad(x), want, 3, 1e-6);
    AGT_CHECK_VALUES("mixed: w.grad", ct_grad(w), wantw, 3, 1e-12);
  }
}

TEST(autograd_double_backward_through_backward_ex) {
  CT_SCOPE {
    const double xv[3] = {1, 2, -3};
    double g1[3], g2[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *gx;
    CHECK_OK(ct_backward_ex(ct_sum(ct_mul(ct_mul(x, x), x)), NULL, false, true));
    gx = ct_grad(x);
    for (i = 0; i < 3; i++) g1[i] = 3 * xv[i] * xv[i], g2[i] = 6 * xv[i];
    AGT_CHECK_VALUES("d(x^3)/dx", gx, g1, 3, 1e-12);
    CHECK(gx && ct_requires_grad(gx) && ct_grad_fn_name(gx) != NULL); /* create_graph: the grad has history */
    ct_retain(gx);
    CHECK_OK(ct_set_grad(x, NULL)); /* break the x -> grad -> graph -> x cycle */
    CHECK_OK(ct_backward(ct_sum(gx)));
    AGT_CHECK_VALUES("d(sum 3x^2)/dx", ct_grad(x), g2, 3, 1e-12);
    CHECK(!ct_requires_grad(ct_grad(x)));
    ct_release(gx);
  }
}

/* ---- 4. modes and flags --------------------------------------------------- */
TEST(autograd_no_grad_and_inference_mode) {
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    ct_tensor *a = NULL, *b = NULL, *c = NULL, *e = NULL;
    CHECK(ct_is_grad_enabled());
    CT_NO_GRAD {
      CHECK(!ct_is_grad_enabled());
      a = ct_mul(x, x);
      b = ct_sum(ct_exp(x));
      CT_ENABLE_GRAD { e = ct_mul(x, x); }
      CHECK(!ct_is_grad_enabled());
    }
    CHECK(ct_is_grad_enabled());
    CHECK(a && !ct_requires_grad(a) && ct_grad_fn_name(a) == NULL && ct_is_leaf(a));
    CHECK(b && !ct_requires_grad(b) && ct_grad_fn_name(b) == NULL);
    CHECK(ct_get(a, 2) == 9);
    CHECK(e && ct_requires_grad(e) && ct_grad_fn_name(e) && !strcmp(ct_grad_fn_name(e), "MulBackward0"));
    CT_INFERENCE_MODE {
      CHECK(!ct_is_grad_enabled());
      c = ct_tanh(ct_mul(x, x));
    }
    CHECK(ct_is_grad_enabled());
    CHECK(c && !ct_requires_grad(c) && ct_grad_fn_name(c) == NULL && ct_is_leaf(c));
    CHECK_NEAR(ct_get(c, 1), tanh(4.0), 1e-15);
    CHECK(ct_requires_grad(x) && ct_grad(x) == NULL);
    AGT_EXPECT_FAIL(ct_backward(b), CT_ERR_STATE, "does not require grad", NULL);
  }
}

TEST(autograd_detach_shares_data) {
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    ct_tensor *y = ct_mul(x, x), *dx = ct_detach(x), *dy = ct_detach(y);
    CHECK(dx && !ct_requires_grad(dx) && ct_is_leaf(dx) && ct_grad_fn_name(dx) == NULL);
    CHECK(dy && !ct_requires_grad(dy) && ct_is_leaf(dy) && ct_grad_fn_name(dy) == NULL);
    CHECK(dx->storage == x->storage && dy->storage == y->storage);
    CHECK_OK(ct_set(dx, 0, 10)); /* writes show through */
    CHECK(ct_get(x, 0) == 10);
    CHECK(ct_requires_grad(x) && ct_requires_grad(y)); /* the originals are untouched */
    CHECK(!ct_requires_grad(ct_mul(dx, dx)));
  }
}

TEST(autograd_requires_grad_propagation_and_names) {
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){1, 2}), *w = AGT_F64(CT_DIMS(2), 3, 4);
    ct_tensor *y = ct_mul(x, w), *c = ct_mul(w, w);
    CHECK(ct_requires_grad(x) && ct_is_leaf(x) && ct_grad_fn_name(x) == NULL);
    CHECK(!ct_requires_grad(w) && ct_is_leaf(w));
    CHECK(ct_requires_grad(y) && !ct_is_leaf(y));
    CHECK(ct_grad_fn_name(y) && !strcmp(ct_grad_fn_name(y), "MulBackward0"));
    CHECK(!ct_requires_grad(c) && ct_is_leaf(c) && ct_grad_fn_name(c) == NULL);
    CHECK(ct_grad_fn_name(ct_add(x, w)) && !strcmp(ct_grad_fn_name(ct_add(x, w)), "AddBackward0"));
    CHECK(ct_grad_fn_name(ct_sum(y)) && !strcmp(ct_grad_fn_name(ct_sum(y)), "SumBackward0"));
    CHECK(ct_grad_fn_name(ct_mm(ct_view(x, CT_DIMS(1, 2)), ct_view(w, CT_DIMS(2, 1)))) &&
          !strcmp(ct_grad_fn_name(ct_mm(ct_view(x, CT_DIMS(1, 2)), ct_view(w, CT_DIMS(2, 1)))), "MmBackward0"));
    /* turning it off and on again on a leaf */
    CHECK_OK(ct_set_requires_grad(x, false));
    CHECK(!ct_requires_grad(x) && !ct_requires_grad(ct_mul(x, w)));
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK(ct_requires_grad(ct_mul(x, w)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(x, w))));
    AGT_CHECK_VALUES("x.grad = w", ct_grad(x), ((const double[]){3, 4}), 2, 0);
    CHECK(ct_grad(w) == NULL);
  }
}

/* ---- 5. the version counter and in-place checks --------------------------- */
TEST(autograd_inplace_on_saved_tensor_is_detected) {
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    ct_tensor *a = ct_mul_scalar(x, ct_float(2)); /* non-leaf */
    ct_tensor *b = ct_mul(a, a);                 /* saves a twice */
    ct_tensor *s = ct_sum(b);
    uint32_t v = a->storage->version;
    CHECK_OK(ct_add_scalar_(a, ct_float(1))); /* allowed: a is not a leaf */
    CHECK(a->storage->version != v);
    CHECK(ct_grad_fn_name(a) && !strcmp(ct_grad_fn_name(a), "AddBackward0"));
    AGT_EXPECT_FAIL(ct_backward(s), CT_ERR_STATE, "MulBackward0", "modified by an inplace operation");
    CHECK(ct_grad(x) == NULL);
  }
  CT_SCOPE { /* y = x * w saves w; w (a non-leaf) is changed in place */
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){1, 2}), *w0 = agt_leaf(CT_DIMS(2), (const double[]){3, 4});
    ct_tensor *w = ct_mul_scalar(w0, ct_float(1));
    ct_tensor *y = ct_mul(x, w);
    CHECK_OK(ct_mul_(w, ct_from_array(CT_DIMS(2), CT_F64, (const double[]){2, 2})));
    AGT_EXPECT_FAIL(ct_backward(ct_sum(y)), CT_ERR_STATE, "MulBackward0", "modified by an inplace operation");
    CHECK(ct_grad(x) == NULL && ct_grad(w0) == NULL);
  }
  CT_SCOPE { /* a leaf updated under no-grad after being saved */
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){1, 2});
    ct_tensor *y = ct_sum(ct_mul(x, x));
    CT_NO_GRAD { CHECK_OK(ct_add_scalar_(x, ct_float(1))); }
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_STATE, "MulBackward0", "modified by an inplace operation");
  }
  CT_SCOPE { /* ops whose formulas save nothing do not care */
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){1, 2});
    ct_tensor *a = ct_mul_scalar(x, ct_float(1)), *y = ct_sum(ct_add(a, a));
    CHECK_OK(ct_mul_scalar_(a, ct_float(5)));
    CHECK_OK(ct_backward(y));
    AGT_CHECK_VALUES("x.grad", ct_grad(x), ((const double[]){2, 2}), 2, 0);
  }
}

TEST(autograd_inplace_on_leaf_requiring_grad) {
  CT_SCOPE {
    const double xv[3] = {1, 2, 3}, gv[3] = {0.5, -1, 2};
    double upd[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *y = ct_from_array(CT_DIMS(3), CT_F64, gv), *out = ct_zeros(CT_DIMS(3), CT_F64);
    uint32_t v = x->storage->version;
    CHECK_ERR(ct_add_(x, y), CT_ERR_STATE, "a leaf tensor that requires grad is being used in an in-place operation");
    CHECK_ERR(ct_mul_scalar_(x, ct_float(2)), CT_ERR_STATE, "leaf tensor that requires grad");
    CHECK_ERR(ct_relu_(x), CT_ERR_STATE, "leaf tensor that requires grad");
    AGT_CHECK_VALUES("x untouched", x, xv, 3, 0);
    CHECK(x->storage->version == v && ct_is_leaf(x));
    /* the SGD update: fine under no-grad */
    CT_NO_GRAD { CHECK_OK(ct_add_ex_(x, y, ct_float(-0.1))); }
    for (i = 0; i < 3; i++) upd[i] = xv[i] - 0.1 * gv[i];
    AGT_CHECK_VALUES("x after the update", x, upd, 3, 1e-15);
    CHECK(ct_is_leaf(x) && ct_requires_grad(x) && ct_grad_fn_name(x) == NULL && x->storage->version != v);
    /* out= with an input that requires grad */
    CHECK_ERR(ct_add_out(out, x, y), CT_ERR_STATE, "out= arguments don't support automatic differentiation");
    CHECK_ERR(ct_mul_out(out, y, x), CT_ERR_STATE, "out=");
    CHECK(ct_get(out, 0) == 0 && !ct_requires_grad(out));
    CT_NO_GRAD { CHECK_OK(ct_add_out(out, x, y)); }
    for (i = 0; i < 3; i++) upd[i] = upd[i] + gv[i];
    AGT_CHECK_VALUES("out under no-grad", out, upd, 3, 1e-15);
    CHECK(!ct_requires_grad(out));
    /* a tensor that does not require grad takes in-place ops from one that does */
    {
      ct_tensor *p = ct_zeros(CT_DIMS(3), CT_F64);
      CHECK_OK(ct_add_(p, x));
      CHECK(ct_requires_grad(p) && !ct_is_leaf(p) && !strcmp(ct_grad_fn_name(p), "AddBackward0"));
      CHECK_OK(ct_backward(ct_sum(p)));
      AGT_CHECK_VALUES("x.grad through p += x", ct_grad(x), ((const double[]){1, 1, 1}), 3, 0);
    }
  }
}

/* ---- 6. in-place ops record correctly ------------------------------------- */
TEST(autograd_inplace_ops_record_history) {
  CT_SCOPE { /* a = x * 1; a *= w */
    const double xv[3] = {1, -2, 3}, wv[3] = {0.5, 4, -1};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *w = agt_leaf(CT_DIMS(3), wv);
    ct_tensor *a = ct_mul_scalar(x, ct_float(1));
    CHECK_OK(ct_mul_(a, w));
    CHECK(!strcmp(ct_grad_fn_name(a), "MulBackward0") && !ct_is_leaf(a));
    CHECK_OK(ct_backward(ct_sum(a)));
    AGT_CHECK_VALUES("x.grad = w", ct_grad(x), wv, 3, 1e-15);
    AGT_CHECK_VALUES("w.grad = x", ct_grad(w), xv, 3, 1e-15);
  }
  CT_SCOPE { /* relu_ on a non-leaf */
    const double xv[4] = {1, -2, 3, -0.5}, cv[4] = {2, 3, 4, 5}, want[4] = {2, 0, 4, 0}, av[4] = {1, 0, 3, 0};
    ct_tensor *x = agt_leaf(CT_DIMS(4), xv), *c = ct_from_array(CT_DIMS(4), CT_F64, cv);
    ct_tensor *a = ct_mul_scalar(x, ct_float(1));
    CHECK_OK(ct_relu_(a));
    AGT_CHECK_VALUES("relu_ values", a, av, 4, 0);
    CHECK(!strcmp(ct_grad_fn_name(a), "ReluBackward0"));
    CHECK_OK(ct_backward(ct_sum(ct_mul(a, c))));
    AGT_CHECK_VALUES("x.grad through relu_", ct_grad(x), want, 4, 0);
  }
  CT_SCOPE { /* exp_ on a non-leaf, then used again */
    const double xv[3] = {0.5, -1, 2};
    double want[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *a = ct_mul_scalar(x, ct_float(2));
    CHECK_OK(ct_exp_(a));
    CHECK(!strcmp(ct_grad_fn_name(a), "ExpBackward0"));
    CHECK_OK(ct_backward(ct_sum(ct_mul(a, a)))); /* d/dx exp(2x)^2 = 4 exp(4x) */
    for (i = 0; i < 3; i++) want[i] = 4 * exp(4 * xv[i]);
    AGT_CHECK_VALUES("x.grad through exp_", ct_grad(x), want, 3, 1e-10);
  }
  CT_SCOPE { /* a chain of in-place ops on one non-leaf */
    const double xv[3] = {1, 2, 3};
    double want[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *a = ct_mul(x, x);                      /* x^2 */
    CHECK_OK(ct_add_scalar_(a, ct_float(1)));        /* x^2 + 1 */
    CHECK_OK(ct_mul_scalar_(a, ct_float(3)));        /* 3x^2 + 3 */
    CHECK_OK(ct_mul_(a, x));                          /* 3x^3 + 3x */
    CHECK_OK(ct_backward(ct_sum(a)));
    for (i = 0; i < 3; i++) want[i] = 9 * xv[i] * xv[i] + 3;
    AGT_CHECK_VALUES("x.grad through an in-place chain", ct_grad(x), want, 3, 1e-12);
  }
}

/* ---- 7. views ------------------------------------------------------------- */
TEST(autograd_transpose_in_mm) {
  CT_SCOPE {
    const double xv[6] = {1, 2, 3, 4, 5, 6};                                    /* [3,2] */
    const double wv[12] = {0.5, -1, 2, 0, 1, 1, -2, 3, 0.25, 4, -0.5, 1};      /* [3,4] */
    const double cv[8] = {1, -1, 2, 0.5, 3, 0, -2, 1};                         /* [2,4] */
    double gx[6], gw[12];
    int i, j, k;
    ct_tensor *x = agt_leaf(CT_DIMS(3, 2), xv), *w = agt_leaf(CT_DIMS(3, 4), wv), *c = ct_from_array(CT_DIMS(2, 4), CT_F64, cv);
    ct_tensor *xt = ct_t(x), *o;
    CHECK(xt && xt->storage == x->storage && ct_requires_grad(xt));
    o = ct_mm(xt, w); /* [2,4] = x^T w */
    CHECK(agt_shape_is(o, CT_DIMS(2, 4)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(o, c))));
    for (k = 0; k < 3; k++)
      for (i = 0; i < 2; i++)
        for (gx[k * 2 + i] = 0, j = 0; j < 4; j++) gx[k * 2 + i] += wv[k * 4 + j] * cv[i * 4 + j];
    for (k = 0; k < 3; k++)
      for (j = 0; j < 4; j++)
        for (gw[k * 4 + j] = 0, i = 0; i < 2; i++) gw[k * 4 + j] += xv[k * 2 + i] * cv[i * 4 + j];
    CHECK(agt_shape_is(ct_grad(x), CT_DIMS(3, 2)));
    AGT_CHECK_VALUES("x.grad through t()", ct_grad(x), gx, 6, 1e-12);
    AGT_CHECK_VALUES("w.grad", ct_grad(w), gw, 12, 1e-12);
  }
}

TEST(autograd_views_propagate_gradients) {
  const double xv[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; /* [3,4] */
  CT_SCOPE { /* select(x, 1, 2) */
    const double cv[3] = {2, -1, 5}, want[12] = {0, 0, 2, 0, 0, 0, -1, 0, 0, 0, 5, 0};
    ct_tensor *x = agt_leaf(CT_DIMS(3, 4), xv), *s = ct_select(x, 1, 2);
    CHECK(agt_shape_is(s, CT_DIMS(3)) && s->storage == x->storage && ct_requires_grad(s));
    CHECK_OK(ct_backward(ct_sum(ct_mul(s, ct_from_array(CT_DIMS(3), CT_F64, cv)))));
    AGT_CHECK_VALUES("select grad", ct_grad(x), want, 12, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_select(x, 0, -1)))); /* negative index */
    AGT_CHECK_VALUES("select(0, -1) grad", ct_grad(x), ((const double[]){0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1}), 12, 0);
  }
  CT_SCOPE { /* slice(x, 1, 1, 4, 2): columns 1 and 3 */
    const double cv[6] = {1, 2, 3, 4, 5, 6}, want[12] = {0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6};
    ct_tensor *x = agt_leaf(CT_DIMS(3, 4), xv), *s = ct_slice(x, 1, 1, 4, 2);
    CHECK(agt_shape_is(s, CT_DIMS(3, 2)) && s->storage == x->storage);
    AGT_CHECK_VALUES("slice values", s, ((const double[]){2, 4, 6, 8, 10, 12}), 6, 0);
    CHECK_OK(ct_backward(ct_sum(ct_mul(s, ct_from_array(CT_DIMS(3, 2), CT_F64, cv)))));
    AGT_CHECK_VALUES("slice grad", ct_grad(x), want, 12, 0);
    CHECK_OK(ct_set_grad(x, NULL)); /* rows 1..2 */
    CHECK_OK(ct_backward(ct_sum(ct_mul_scalar(ct_slice(x, 0, 1, 100, 1), ct_float(3)))));
    AGT_CHECK_VALUES("slice(0, 1:) grad", ct_grad(x), ((const double[]){0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 3, 3}), 12, 0);
  }
  CT_SCOPE { /* expand [3,1] -> [3,4] */
    const double cv[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, want[3] = {10, 26, 42};
    ct_tensor *x = agt_leaf(CT_DIMS(3, 1), xv), *e = ct_expand(x, CT_DIMS(3, 4));
    CHECK(agt_shape_is(e, CT_DIMS(3, 4)) && e->strides[1] == 0 && e->storage == x->storage);
    CHECK_OK(ct_backward(ct_sum(ct_mul(e, ct_from_array(CT_DIMS(3, 4), CT_F64, cv)))));
    CHECK(agt_shape_is(ct_grad(x), CT_DIMS(3, 1)));
    AGT_CHECK_VALUES("expand grad", ct_grad(x), want, 3, 0);
    CHECK_OK(ct_set_grad(x, NULL)); /* a new leading dim */
    CHECK_OK(ct_backward(ct_sum(ct_expand(x, CT_DIMS(2, 3, 5)))));
    AGT_CHECK_VALUES("expand(2,3,5) grad", ct_grad(x), ((const double[]){10, 10, 10}), 3, 0);
  }
  CT_SCOPE { /* view [3,4] -> [2,6] */
    const double cv[12] = {1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6};
    ct_tensor *x = agt_leaf(CT_DIMS(3, 4), xv), *v = ct_view(x, CT_DIMS(2, 6));
    CHECK(agt_shape_is(v, CT_DIMS(2, 6)) && v->storage == x->storage);
    CHECK_OK(ct_backward(ct_sum(ct_mul(v, ct_from_array(CT_DIMS(2, 6), CT_F64, cv)))));
    CHECK(agt_shape_is(ct_grad(x), CT_DIMS(3, 4)));
    AGT_CHECK_VALUES("view grad", ct_grad(x), cv, 12, 0);
  }
  CT_SCOPE { /* unsqueeze [3] -> [1,3] */
    const double cv[3] = {7, 8, 9};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *u = ct_unsqueeze(x, 0);
    CHECK(agt_shape_is(u, CT_DIMS(1, 3)) && u->storage == x->storage);
    CHECK_OK(ct_backward(ct_sum(ct_mul(u, ct_from_array(CT_DIMS(1, 3), CT_F64, cv)))));
    CHECK(agt_shape_is(ct_grad(x), CT_DIMS(3)));
    AGT_CHECK_VALUES("unsqueeze grad", ct_grad(x), cv, 3, 0);
  }
  CT_SCOPE { /* a chain of views: select(t(view(x)), 0, 1) */
    ct_tensor *x = agt_leaf(CT_DIMS(12), xv);
    ct_tensor *s = ct_select(ct_t(ct_view(x, CT_DIMS(3, 4))), 0, 1); /* column 1: x[1], x[5], x[9] */
    AGT_CHECK_VALUES("chained view values", s, ((const double[]){2, 6, 10}), 3, 0);
    CHECK_OK(ct_backward(ct_sum(ct_mul(s, s))));
    AGT_CHECK_VALUES("chained view grad", ct_grad(x), ((const double[]){0, 4, 0, 0, 0, 12, 0, 0, 0, 20, 0, 0}), 12, 0);
  }
}

/* ---- 8. memory: a training loop ------------------------------------------- */
TEST(autograd_training_loop_is_stable) {
  enum { STEPS = 10000 };
  CT_SCOPE {
    double w1v[15], w2v[10], first = 0, last = 0;
    ct_memory_stats at10, at_end;
    ct_tensor *params[3], *x, *t;
    int i, step, ok = 1;
    for (i = 0; i < 15; i++) w1v[i] = 0.5 * sin(0.7 * i + 0.3);
    for (i = 0; i < 10; i++) w2v[i] = 0.5 * cos(1.3 * i + 0.1);
    memset(&at10, 0, sizeof at10);
    x = AGT_F64(CT_DIMS(4, 3), 0.1, 0.5, -0.3, 0.9, -0.2, 0.4, -0.7, 0.8, 0.05, 0.3, -0.6, -0.1);
    t = AGT_F64(CT_DIMS(4, 2), 0.5, -0.5, 1.0, 0.2, -0.3, 0.8, 0.1, -0.9);
    params[0] = agt_leaf(CT_DIMS(3, 5), w1v);
    params[1] = agt_leaf(CT_DIMS(5), (const double[]){0, 0, 0, 0, 0});
    params[2] = agt_leaf(CT_DIMS(5, 2), w2v);
    for (step = 1; ok && step <= STEPS; step++) {
      CT_SCOPE {
        ct_tensor *h = ct_relu(ct_add(ct_mm(x, params[0]), params[1]));
        ct_tensor *d = ct_sub(ct_mm(h, params[2]), t);
        ct_tensor *loss = ct_mean(ct_mul(d, d));
        double lv = NAN;
        if (ct_item(loss, &lv) != CT_OK || ct_backward(loss) != CT_OK) ok = 0;
        if (step == 1) first = lv;
        last = lv;
        CT_NO_GRAD {
          for (i = 0; ok && i < 3; i++)
            if (!ct_grad(params[i]) || ct_add_ex_(params[i], ct_grad(params[i]), ct_float(-0.1)) != CT_OK) ok = 0;
        }
        for (i = 0; i < 3; i++) ct_set_grad(params[i], NULL);
      }
      if (step == 10) at10 = ct_memory_stats_get();
    }
    at_end = ct_memory_stats_get();
    if (!ok) harness_fail(__FILE__, __LINE__, "training step %d failed: %s", step - 1, ct_last_error_message());
    CHECK(ok);
    CHECK(at_end.live_tensors == at10.live_tensors);
    CHECK(at_end.live_storages == at10.live_storages);
    CHECK(at_end.live_bytes == at10.live_bytes);
    if (at_end.live_bytes != at10.live_bytes || at_end.live_tensors != at10.live_tensors)
      harness_fail(__FILE__, __LINE__, "after step 10: %lld tensors, %lld bytes; after step %d: %lld tensors, %lld bytes",
                   (long long)at10.live_tensors, (long long)at10.live_bytes, STEPS, (long long)at_end.live_tensors,
                   (long long)at_end.live_bytes);
    CHECK(isfinite(first) && isfinite(last));
    CHECK(last < 0.5 * first);
    for (i = 0; i < 3; i++) CHECK(ct_is_leaf(params[i]) && ct_requires_grad(params[i]) && ct_grad(params[i]) == NULL);
    ct_clear_error();
  }
}

/* ---- more ops through the engine ------------------------------------------ */
TEST(autograd_view_and_copy_ops_more) {
  const double xv[6] = {1, 2, 3, 4, 5, 6}; /* [2,3] */
  const double cv[6] = {1, 2, 3, 4, 5, 6}; /* [3,2] weights */
  const double ct_want[6] = {1, 3, 5, 2, 4, 6}, ones[6] = {1, 1, 1, 1, 1, 1};
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(2, 3), xv), *c = ct_from_array(CT_DIMS(3, 2), CT_F64, cv);
    double want[6];
    int i;
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_reshape(ct_t(x), CT_DIMS(3, 2)), c)))); /* reshape copies here */
    AGT_CHECK_VALUES("reshape(t(x))", ct_grad(x), ct_want, 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_contiguous(ct_transpose(x, 0, 1)), c))));
    AGT_CHECK_VALUES("contiguous(transpose(x))", ct_grad(x), ct_want, 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_permute(x, CT_DIMS(1, 0)), c))));
    AGT_CHECK_VALUES("permute(x)", ct_grad(x), ct_want, 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_narrow(x, 1, 1, 2))));
    AGT_CHECK_VALUES("narrow(x, 1, 1, 2)", ct_grad(x), ((const double[]){0, 1, 1, 0, 1, 1}), 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_flatten(ct_squeeze(ct_unsqueeze(x, 1)), 0, -1))));
    AGT_CHECK_VALUES("flatten(squeeze(unsqueeze(x)))", ct_grad(x), ones, 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_clone(x), x))));
    for (i = 0; i < 6; i++) want[i] = 2 * xv[i];
    AGT_CHECK_VALUES("clone(x) * x", ct_grad(x), want, 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mul(ct_to_dtype(x, CT_F32), ct_to_dtype(x, CT_F32)))));
    CHECK(ct_grad(x) && ct_grad(x)->dtype == CT_F64);
    AGT_CHECK_VALUES("to_dtype(x, f32)^2", ct_grad(x), want, 6, 1e-5);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_broadcast_to(x, CT_DIMS(4, 2, 3)))));
    for (i = 0; i < 6; i++) want[i] = 4;
    AGT_CHECK_VALUES("broadcast_to(x, [4,2,3])", ct_grad(x), want, 6, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_sum_dim(ct_mul(x, x), 2, (const int64_t[]){-1, 0}, false))));
    for (i = 0; i < 6; i++) want[i] = 2 * xv[i];
    AGT_CHECK_VALUES("sum over dims {-1, 0}", ct_grad(x), want, 6, 1e-12);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_mean_dim(x, 1, (const int64_t[]){0}, true))));
    for (i = 0; i < 6; i++) want[i] = 0.5;
    AGT_CHECK_VALUES("mean_dim(x, 0, keepdim)", ct_grad(x), want, 6, 1e-15);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_sub_ex(ct_div_scalar(x, ct_float(4)), ct_mul(x, x), ct_float(3)))));
    for (i = 0; i < 6; i++) want[i] = 0.25 - 6 * xv[i];
    AGT_CHECK_VALUES("x/4 - 3 x^2", ct_grad(x), want, 6, 1e-12);
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(ct_sum(ct_as_strided(x, CT_DIMS(2), CT_DIMS(1), 0))));
    for (i = 0; i < 6; i++) want[i] = i < 2;
    AGT_CHECK_VALUES("as_strided(x, [2], [1])", ct_grad(x), want, 6, 0);
  }
}

TEST(autograd_matmul_vector_cases) {
  CT_SCOPE {
    const double av[3] = {1, 2, 3}, bv[3] = {4, 5, -6}, mv[6] = {1, 0, 2, -1, 3, 1};
    ct_tensor *a = agt_leaf(CT_DIMS(3), av), *b = agt_leaf(CT_DIMS(3), bv), *m = agt_leaf(CT_DIMS(2, 3), mv);
    ct_tensor *dot = ct_matmul(a, b), *mxv, *vxm;
    CHECK(agt_shape_is(dot, 0, NULL));
    CHECK_NEAR(ct_get(dot, 0), -4, 1e-12);
    CHECK_OK(ct_backward(dot));
    AGT_CHECK_VALUES("dot: a.grad", ct_grad(a), bv, 3, 0);
    AGT_CHECK_VALUES("dot: b.grad", ct_grad(b), av, 3, 0);
    CHECK_OK(ct_set_grad(a, NULL));
    mxv = ct_matmul(m, a); /* [2] */
    CHECK(agt_shape_is(mxv, CT_DIMS(2)));
    CHECK_OK(ct_backward_ex(mxv, AGT_F64(CT_DIMS(2), 1, -2), false, false));
    AGT_CHECK_VALUES("matrix @ vector: m.grad", ct_grad(m), ((const double[]){1, 2, 3, -2, -4, -6}), 6, 0);
    AGT_CHECK_VALUES("matrix @ vector: a.grad", ct_grad(a), ((const double[]){3, -6, 0}), 3, 0);
    CHECK_OK(ct_set_grad(m, NULL));
    vxm = ct_matmul(AGT_F64(CT_DIMS(2), 1, 2), m); /* [3] */
    CHECK_OK(ct_backward(ct_sum(vxm)));
    AGT_CHECK_VALUES("vector @ matrix: m.grad", ct_grad(m), ((const double[]){1, 1, 1, 2, 2, 2}), 6, 0);
  }
}

TEST(autograd_copy_and_fill_record_history) {
  CT_SCOPE {
    const double xv[3] = {1, 2, 3}, wv[3] = {4, 5, 6};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *w = agt_leaf(CT_DIMS(3), wv);
    ct_tensor *a = ct_mul_scalar(x, ct_float(2)), *z = ct_zeros(CT_DIMS(3), CT_F64), *f;
    CHECK_OK(ct_copy_(a, w)); /* a's old value no longer matters */
    CHECK_OK(ct_backward(ct_sum(ct_mul(a, a))));
    AGT_CHECK_VALUES("x.grad through copy_ target", ct_grad(x), ((const double[]){0, 0, 0}), 3, 0);
    AGT_CHECK_VALUES("w.grad through copy_ source", ct_grad(w), ((const double[]){8, 10, 12}), 3, 0);
    CHECK_OK(ct_copy_(z, w)); /* a plain tensor takes w's history */
    CHECK(ct_requires_grad(z) && !ct_is_leaf(z));
    CHECK_OK(ct_backward(ct_sum(ct_mul_scalar(z, ct_float(3)))));
    AGT_CHECK_VALUES("w.grad through copy_ into a plain tensor", ct_grad(w), ((const double[]){11, 13, 15}), 3, 0);
    CHECK_OK(ct_set_grad(x, NULL));
    f = ct_mul_scalar(x, ct_float(1));
    CHECK_OK(ct_fill_(f, ct_float(2)));
    CHECK_OK(ct_backward(ct_sum(ct_mul(f, x))));
    AGT_CHECK_VALUES("x.grad past fill_", ct_grad(x), ((const double[]){2, 2, 2}), 3, 0);
  }
}

TEST(autograd_version_counter_more) {
  CT_SCOPE { /* a saved output changed in place */
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    ct_tensor *y = ct_exp(x), *s = ct_sum(y);
    CHECK_OK(ct_add_scalar_(y, ct_float(1)));
    AGT_EXPECT_FAIL(ct_backward(s), CT_ERR_STATE, "ExpBackward0", "modified by an inplace operation");
  }
  CT_SCOPE { /* detach shares the version counter */
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    ct_tensor *y = ct_sum(ct_mul(x, x)), *d = ct_detach(x);
    CHECK_OK(ct_mul_scalar_(d, ct_float(2)));
    CHECK(ct_get(x, 2) == 6);
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_STATE, "MulBackward0", "modified by an inplace operation");
  }
  CT_SCOPE { /* a write through a view of a saved tensor */
    ct_tensor *x = agt_leaf(CT_DIMS(2, 2), (const double[]){1, 2, 3, 4});
    ct_tensor *a = ct_mul_scalar(x, ct_float(1)), *y = ct_sum(ct_mul(a, a)), *p = ct_detach(ct_select(a, 0, 1));
    CHECK_OK(ct_set(p, 0, 7));
    AGT_EXPECT_FAIL(ct_backward(y), CT_ERR_STATE, "MulBackward0", "modified by an inplace operation");
  }
  CT_SCOPE { /* tanh saves its result, not its input: changing the input is fine */
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){0.5, -1});
    ct_tensor *a = ct_mul_scalar(x, ct_float(1)), *t = ct_tanh(a), *y = ct_sum(t);
    double want[2];
    want[0] = 1 - tanh(0.5) * tanh(0.5), want[1] = 1 - tanh(-1.0) * tanh(-1.0);
    CHECK_OK(ct_add_scalar_(a, ct_float(100)));
    CHECK_OK(ct_backward(y));
    AGT_CHECK_VALUES("x.grad of tanh after its input changed", ct_grad(x), want, 2, 1e-15);
  }
}

TEST(autograd_empty_and_deep_graphs) {
  CT_SCOPE { /* zero elements */
    ct_tensor *x = ct_zeros(CT_DIMS(0, 3), CT_F64);
    CHECK_OK(ct_set_requires_grad(x, true));
    CHECK_OK(ct_backward(ct_sum(ct_mul(x, x))));
    CHECK(ct_grad(x) && agt_shape_is(ct_grad(x), CT_DIMS(0, 3)));
  }
  { /* a 100000-node chain: collecting, running and freeing it must not recurse */
    enum { DEPTH = 100000 };
    ct_tensor *x = agt_leaf(CT_DIMS(2), (const double[]){1, 2}), *y = ct_retain(x), *s;
    int i;
    for (i = 0; y && i < DEPTH; i++) {
      ct_tensor *n = ct_add_scalar(y, ct_float(1));
      ct_release(y);
      y = n;
    }
    CHECK(y && ct_get(y, 1) == 2 + DEPTH);
    s = ct_sum(y);
    CHECK_OK(ct_backward(s));
    AGT_CHECK_VALUES("grad through a deep chain", ct_grad(x), ((const double[]){1, 1}), 2, 0);
    ct_release(s);
    ct_release(y); /* frees the whole chain */
    ct_release(x);
  }
}

/* ---- behaviours that differ from PyTorch (see the report in each test) ------ */

/* The engine sums the gradients that reach one tensor. When the first one to
 * arrive is an expanded view (SumBackward returns expand(grad)) that nothing
 * else holds, ct__accumulate (autograd.h) adds the next one into it in place,
 * and add_ refuses to write into overlapping memory: backward fails. The
 * gradient must be right whatever order the graph was built in. */
TEST(autograd_gradients_accumulate_into_expanded_grad) {
  CT_SCOPE { /* L = sum(y) + 2 sum(y*y), y = 3x: dL/dx = 3 + 36x */
    const double xv[3] = {1, 2, 3};
    double want[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *y = ct_mul_scalar(x, ct_float(3));
    ct_tensor *m = ct_mul(y, y);
    ct_tensor *s1 = ct_sum(y);
    ct_tensor *s2 = ct_sum(m);
    ct_tensor *L = ct_add_ex(s1, s2, ct_float(2));
    for (i = 0; i < 3; i++) want[i] = 3 + 36 * xv[i];
    CHECK_OK(ct_backward(L));
    AGT_CHECK_VALUES("x.grad of sum(y) + 2 sum(y*y)", ct_grad(x), want, 3, 1e-12);
  }
  CT_SCOPE { /* mse-style: L = sum(y*y) + mean(y), the penalty built second; dL/dx = 1 + 18x */
    const double xv[3] = {1, 2, 3};
    double want[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv);
    ct_tensor *y = ct_mul_scalar(x, ct_float(3));
    ct_tensor *q = ct_sum(ct_mul(y, y));
    ct_tensor *m = ct_mean(y);
    for (i = 0; i < 3; i++) want[i] = 1 + 18 * xv[i];
    CHECK_OK(ct_backward(ct_add(q, m)));
    AGT_CHECK_VALUES("x.grad of sum(y*y) + mean(y)", ct_grad(x), want, 3, 1e-12);
    CHECK_OK(ct_set_grad(x, NULL)); /* the same loss built in the other order works */
    m = ct_mean(y);
    q = ct_sum(ct_mul(y, y));
    CHECK_OK(ct_backward(ct_add(q, m)));
    AGT_CHECK_VALUES("x.grad of sum(y*y) + mean(y), mean built first", ct_grad(x), want, 3, 1e-12);
  }
  CT_SCOPE { /* the same through ct_autograd_grad: a leaf input's captured gradient */
    const double xv[3] = {1, 2, 3};
    double want[3];
    int i;
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *g = NULL;
    ct_tensor *s1 = ct_sum(x);
    ct_tensor *s2 = ct_sum(ct_mul(x, x));
    ct_tensor *L = ct_add_ex(s1, s2, ct_float(2));
    ct_backward_desc d;
    memset(&d, 0, sizeof d);
    d.num_outputs = 1;
    d.outputs = &L;
    for (i = 0; i < 3; i++) want[i] = 1 + 4 * xv[i];
    CHECK_OK(ct_autograd_grad(&d, 1, &x, &g));
    AGT_CHECK_VALUES("dL/dx of sum(x) + 2 sum(x*x)", g, want, 3, 1e-12);
    ct_release(g);
  }
}

/* PyTorch: x.backward(v) on a leaf gives x.grad a copy of v in x's dtype; v
 * is never modified by later accumulation. */
TEST(autograd_leaf_root_grad_output_is_not_aliased) {
  CT_SCOPE {
    const double one23[3] = {1, 2, 3}, twice[3] = {2, 4, 6};
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){0, 0, 0});
    ct_tensor *v = ct_from_array(CT_DIMS(3), CT_F64, one23);
    CHECK_OK(ct_backward_ex(x, v, false, false));
    AGT_CHECK_VALUES("x.grad after x.backward(v)", ct_grad(x), one23, 3, 0);
    CHECK(ct_grad(x) != v);
    CHECK_OK(ct_backward_ex(x, v, false, false));
    AGT_CHECK_VALUES("x.grad after two x.backward(v)", ct_grad(x), twice, 3, 0);
    AGT_CHECK_VALUES("v after two x.backward(v) (must be unchanged)", v, one23, 3, 0);
  }
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){0, 0, 0});
    ct_tensor *v = ct_from_array(CT_DIMS(3), CT_F32, (const float[]){1, 2, 3});
    CHECK_OK(ct_backward_ex(x, v, false, false));
    CHECK(ct_grad(x) && ct_grad(x)->dtype == CT_F64); /* float32 seed, float64 leaf */
  }
}

/* PyTorch: "assigned grad has data of a different type". */
TEST(autograd_set_grad_checks_dtype) {
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    CHECK_ERR(ct_set_grad(x, ct_zeros(CT_DIMS(3), CT_I64)), CT_ERR_DTYPE, "ct_set_grad");
    CHECK_ERR(ct_set_grad(x, ct_zeros(CT_DIMS(3), CT_F32)), CT_ERR_DTYPE, "ct_set_grad");
    CHECK(ct_grad(x) == NULL);
  }
}

/* PyTorch: torch.autograd.grad(y, [x, x]) returns the gradient twice. */
TEST(autograd_grad_with_repeated_input) {
  CT_SCOPE {
    const double xv[3] = {1, 2, 3}, want[3] = {2, 4, 6};
    ct_tensor *x = agt_leaf(CT_DIMS(3), xv), *y = ct_sum(ct_mul(x, x)), *ins[2], *g[2] = {NULL, NULL};
    ct_backward_desc d;
    memset(&d, 0, sizeof d);
    d.num_outputs = 1;
    d.outputs = &y;
    ins[0] = x, ins[1] = x;
    CHECK_OK(ct_autograd_grad(&d, 2, ins, g));
    AGT_CHECK_VALUES("first copy", g[0], want, 3, 1e-12);
    AGT_CHECK_VALUES("second copy", g[1], want, 3, 1e-12);
    ct_release(g[0]), ct_release(g[1]);
  }
}

/* PyTorch: after an in-place op on a base, a view taken before it sees the
 * base's new history (its grad_fn is regenerated): v = a[0]; a *= w;
 * v.backward() gives x.grad = [w0, 0, 0]. ctorch keeps the view's old
 * history, so the gradient silently ignores the in-place op. Refusing the
 * backward with an error would also be acceptable; a wrong gradient is not. */
TEST(autograd_inplace_on_base_of_live_view) {
  CT_SCOPE {
    ct_tensor *x = agt_leaf(CT_DIMS(3), (const double[]){1, 2, 3});
    ct_tensor *w = AGT_F64(CT_DIMS(3), 5, 6, 7);
    ct_tensor *a = ct_mul_scalar(x, ct_float(1));
    ct_tensor *v = ct_select(a, 0, 0);
    ct_status st;
    CHECK_OK(ct_mul_(a, w));
    CHECK(ct_get(v, 0) == 5); /* the data is shared */
    ct_clear_error();
    st = ct_backward(v);
    if (st == CT_OK) {
      AGT_CHECK_VALUES("x.grad through a view of an in-place-modified base", ct_grad(x), ((const double[]){5, 0, 0}), 3, 0);
    } else {
      CHECK(ct_last_error() == CT_ERR_UNSUPPORTED || ct_last_error() == CT_ERR_STATE);
      ct_clear_error();
    }
  }
}

/* backward with create_graph: x.grad's history refers back to x (a cycle, as
 * in PyTorch); ct_set_grad(x, NULL) breaks it, and the runner's live-tensor
 * check shows nothing leaks. */
TEST(autograd_create_graph_cycle_broken_by_set_grad_null) {
  ct_tensor *x = AGT_F64(CT_DIMS(3), 1, 2, 3);
  int64_t live = ct_memory_stats_get().live_tensors;
  CHECK_OK(ct_set_requires_grad(x, true));
  CT_SCOPE { CHECK_OK(ct_backward_ex(ct_sum(ct_mul(ct_mul(x, x), x)), NULL, false, true)); }
  CHECK(ct_grad(x) && ct_requires_grad(ct_grad(x)));
  CT_SCOPE { /* the cycle is live: second order through x.grad */
    ct_tensor *g = ct_keep(ct_sum(ct_grad(x)));
    CHECK_OK(ct_set_grad(x, NULL));
    CHECK_OK(ct_backward(g));
    AGT_CHECK_VALUES("d/dx sum(3x^2)", ct_grad(x), ((const double[]){6, 12, 18}), 3, 1e-12);
    ct_release(g);
  }
  CHECK(ct_memory_stats_get().live_tensors > live); /* x.grad (no history now) */
  CHECK_OK(ct_set_grad(x, NULL));
  ct_release(x);
  CHECK(ct_memory_stats_get().live_tensors == live - 1);
}

/* mm / addmm keep a column-major operand's gradient column-major, as aten's
 * mm_mat1_backward / mm_mat2_backward: nn.Linear's weight (used as w.t())
 * gets a contiguous .grad; the values are the row-major computation's, and
 * both branches pass gradcheck and gradgradcheck. */
static ct_tensor *agt_mm_transposed(ct_tensor *const *in, void *ctx) {
  (void)ctx;
  return ct_add(ct_mm(ct_t(in[0]), ct_t(in[1])), ct_addmm(in[2], ct_t(in[0]), ct_t(in[1])));
}
TEST(autograd_mm_keeps_column_major_gradients) {
  CT_SCOPE {
    ct_tensor *x = ct_to_dtype(ct_randn(CT_DIMS(3, 5)), CT_F64), *w = ct_to_dtype(ct_randn(CT_DIMS(4, 5)), CT_F64);
    ct_tensor *b = ct_to_dtype(ct_randn(CT_DIMS(4)), CT_F64), *in[3], *expect;
    int64_t d0 = 0;
    CHECK_OK(ct_set_requires_grad(w, true));
    CHECK_OK(ct_backward(ct_sum(ct_linear(x, w, b))));
    CHECK(ct_grad(w) && ct_is_contiguous(ct_grad(w)));
    expect = ct_contiguous(ct_expand(ct_sum_dim(x, 1, &d0, true), CT_DIMS(4, 5))); /* each row: x's column sums */
    CHECK(ct_grad(w) && expect && ct_get(ct_amax(ct_abs(ct_sub(ct_grad(w), expect)), 0, NULL, false), 0) < 1e-12);
    { /* the gradient mm hands the transposed operand is stored by columns itself */
      ct_tensor *wt = ct_t(w), *root = ct_sum(ct_mm(x, wt)), *g = NULL;
      ct_backward_desc d;
      memset(&d, 0, sizeof d);
      d.num_outputs = 1;
      d.outputs = &root;
      CHECK_OK(ct_autograd_grad(&d, 1, &wt, &g));
      CHECK(g && g->ndim == 2 && g->strides[0] == 1 && g->strides[1] == 5);
      ct_release(g);
    }
    in[0] = ct_to_dtype(ct_randn(CT_DIMS(5, 3)), CT_F64), in[1] = ct_to_dtype(ct_randn(CT_DIMS(4, 5)), CT_F64);
    in[2] = ct_to_dtype(ct_randn(CT_DIMS(4)), CT_F64);
    CHECK_OK(ct_set_requires_grad(in[0], true));
    CHECK_OK(ct_set_requires_grad(in[1], true));
    CHECK_OK(ct_set_requires_grad(in[2], true));
    CHECK_OK(ct_gradcheck(agt_mm_transposed, NULL, 3, in, NULL));
    CHECK_OK(ct_gradgradcheck(agt_mm_transposed, NULL, 3, in, NULL));
  }
}
