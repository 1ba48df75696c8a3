/* ctorch/check.h - gradcheck, gradgradcheck and opcheck.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * ct_gradcheck compares the analytic Jacobian (one backward per output
 * element) with central finite differences in float64, as
 * torch.autograd.gradcheck. ct_gradgradcheck runs gradcheck on the function
 * x -> sum_i <d(sum <f(x), v>)/dx_i, u_i> for fixed random v and u, so the
 * derivative's own derivative (create_graph) is checked.
 *
 * ct_opcheck(op, args) checks an operator as seed 002's custom-op
 * checklist asks, whatever its signature: the boxed call and the typed
 * frontend agree; the meta kernel (shape function) gives the kernel's shape
 * and dtype (or, for an op tagged dynamic_output_shape, refuses with
 * CT_ERR_UNSUPPORTED); the in-place and out= variants (found by name in the registry)
 * agree with the functional one; and the derivative passes gradcheck.
 * Failures are CT_ERR_STATE with a message saying which check and where.
 */
#ifndef CT_CHECK_H
#define CT_CHECK_H

#include "autograd.h"

CT_EXTERN_C_BEGIN

/* The function under test: a new tensor from the inputs (or NULL). */
typedef ct_tensor *(*ct_check_fn)(ct_tensor *const *inputs, void *ctx);

/* Zero fields take torch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3. */
typedef struct ct_gradcheck_opts {
  double eps, atol, rtol;
} ct_gradcheck_opts;

/* Inputs that require grad are differentiated; they must be float64. */
CTDEF ct_status ct_gradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts);
CTDEF ct_status ct_gradgradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts);

typedef struct ct_opcheck_opts {
  bool skip_gradcheck; /* e.g. ops whose derivative is not implemented */
  bool gradgradcheck;  /* also check second order */
  double atol, rtol;   /* variant agreement; zero: 1e-6 and 1e-5 */
} ct_opcheck_opts;
/* args: the op's arguments, as for a boxed call (borrowed). opts may be NULL. */
CTDEF ct_status ct_opcheck(const char *op, int nargs, const ct_value *args, const ct_opcheck_opts *opts);

CT_EXTERN_C_END
#endif /* CT_CHECK_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__CHECK_IMPL)
#define CT__CHECK_IMPL
CT_EXTERN_C_BEGIN

static ct_gradcheck_opts ct__gc_defaults(const ct_gradcheck_opts *o) {
  ct_gradcheck_opts d;
  d.eps = o && o->eps > 0 ? o->eps : 1e-6;
  d.atol = o && o->atol > 0 ? o->atol : 1e-5;
  d.rtol = o && o->rtol > 0 ? o->rtol : 1e-3;
  return d;
}

/* A call returned NULL (or failed): its own error when it recorded one,
 * else a new one naming it, never an older pending error. */
static ct_status ct__check_null_result(uint64_t mark, const char *op, const char *what) {
  if (ct__error_since(mark)) return ct_last_error();
  return ct_fail(CT_ERR_STATE, op, "%s failed without reporting an error", what);
}

/* fn(inputs) with every input replaced by a detached copy where x[k] += delta */
static ct_tensor *ct__gc_eval(ct_check_fn fn, void *ctx, ct_tensor **copies, int i, int64_t k, double delta) {
  double v = ct_get(copies[i], k);
  ct_tensor *y = NULL;
  ct_set(copies[i], k, v + delta);
  y = fn(copies, ctx); /* in the caller's grad mode: gradgradcheck's function differentiates inside */
  CT_NO_GRAD {
    if (y) y = ct_clone(y); /* a snapshot: the output may be a view of the input we restore next */
  }
  ct_set(copies[i], k, v);
  if (y) ct_retain(y); /* owned here, whatever scope fn's result landed in */
  return y;
}

CTDEF ct_status ct_gradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts) {
  static const char *op = "gradcheck";
  ct_gradcheck_opts o = ct__gc_defaults(opts);
  ct_tensor *copies[CT_MAX_ARGS], *diff[CT_MAX_ARGS], *grads[CT_MAX_ARGS];
  int di[CT_MAX_ARGS], nd = 0, i;
  double *numeric = NULL; /* [ny][total]: d y_j / d (input element col) */
  int64_t total = 0, col;
  ct_status st = CT_OK;
  if (!fn) return ct__fail_null(op, "fn");
  if (n < 1 || n > CT_MAX_ARGS || !inputs) return ct_fail(CT_ERR_INVALID, op, "between 1 and %d inputs expected", CT_MAX_ARGS);
  for (i = 0; i < n; i++) {
    if (!inputs[i]) return ct__fail_null(op, "inputs");
    if (ct_requires_grad(inputs[i])) {
      if (inputs[i]->dtype != CT_F64)
        return ct_fail(CT_ERR_DTYPE, op, "input %d requires grad but is %s: gradcheck needs float64 inputs", i,
                       ct_dtype_name((ct_dtype)inputs[i]->dtype));
      di[nd] = i;
      diff[nd++] = inputs[i];
    }
  }
  if (!nd) return ct_fail(CT_ERR_INVALID, op, "no input requires grad");
  CT_SCOPE {
    uint64_t mark = ct__error_mark();
    ct_tensor *y = fn((ct_tensor **)inputs, ctx);
    int64_t ny = y ? y->numel : 0, j, k;
    int d;
    for (i = 0; i < n; i++) copies[i] = NULL;
    if (!y) {
      st = ct__check_null_result(mark, op, "the function");
    } else if (!ct_dtype_is_floating((ct_dtype)y->dtype)) {
      st = ct_fail(CT_ERR_DTYPE, op, "the function's output is %s, not floating", ct_dtype_name((ct_dtype)y->dtype));
    }
    CT_NO_GRAD { /* leaves like the inputs, for the finite differences */
      for (i = 0; st == CT_OK && i < n; i++) {
        copies[i] = ct_clone(inputs[i]);
        if (!copies[i]) st = ct_last_error();
        else if (ct_requires_grad(inputs[i])) st = ct_set_requires_grad(copies[i], true);
      }
    }
    /* The numerical Jacobian column by column (two evaluations per input
     * element, each in its own scope so the function's temporaries go), then
     * the analytic one row by row (one backward per output element). */
    for (d = 0; d < nd; d++) total += inputs[di[d]]->numel;
    if (st == CT_OK && ny > 0 && total > 0) {
      if (total > INT64_MAX / ny || (uint64_t)(ny * total) > SIZE_MAX / sizeof(double) ||
          !(numeric = (double *)CT_MALLOC((size_t)(ny * total) * sizeof(double))))
        st = ct_fail(CT_ERR_OOM, op, "no memory for a %lld x %lld Jacobian", (long long)ny, (long long)total);
    }
    for (d = 0, col = 0; st == CT_OK && d < nd; d++) {
      int in = di[d];
      for (k = 0; st == CT_OK && k < inputs[in]->numel; k++, col++) CT_SCOPE {
        uint64_t mark2 = ct__error_mark();
        ct_tensor *yp = ct__gc_eval(fn, ctx, copies, in, k, o.eps);
        ct_tensor *ym = yp ? ct__gc_eval(fn, ctx, copies, in, k, -o.eps) : NULL;
        if (!yp || !ym) {
          st = ct__check_null_result(mark2, op, "the function");
        } else if (yp->numel != ny || ym->numel != ny) {
          st = ct_fail(CT_ERR_STATE, op, "the function's output has %lld elements, then %lld", (long long)ny,
                       (long long)(yp->numel != ny ? yp->numel : ym->numel));
        } else {
          for (j = 0; j < ny; j++) numeric[j * total + col] = (ct_get(yp, j) - ct_get(ym, j)) / (2 * o.eps);
        }
        ct_release(yp);
        ct_release(ym);
      }
    }
    for (j = 0; st == CT_OK && j < ny; j++) CT_SCOPE {
      ct_tensor *go = ct_zeros_like(y);
      ct_backward_desc desc;
      for (d = 0; d < nd; d++) grads[d] = NULL;
      if (!go || ct_set(go, j, 1.0) != CT_OK) {
        st = ct_last_error();
      } else if (ct_requires_grad(y)) {
        memset(&desc, 0, sizeof desc);
        desc.num_outputs = 1;
        desc.outputs = &y;
        desc.grad_outputs = &go;
        desc.retain_graph = true;
        desc.allow_unused = true;
        if ((st = ct_autograd_grad(&desc, nd, diff, grads)) == CT_OK)
          for (d = 0; d < nd; d++) ct__track(grads[d]);
      }
      for (d = 0, col = 0; st == CT_OK && d < nd; d++) {
        int in = di[d];
        for (k = 0; st == CT_OK && k < inputs[in]->numel; k++, col++) {
          double a = grads[d] ? ct_get(grads[d], k) : 0.0, num = numeric[j * total + col];
          if (!(fabs(a - num) <= o.atol + o.rtol * fabs(num)))
            st = ct_fail(CT_ERR_STATE, op,
                         "Jacobian mismatch for output element %lld with respect to input %d, element %lld: "
                         "analytic %.10g, numerical %.10g",
                         (long long)j, in, (long long)k, a, num);
        }
      }
    }
  }
  CT_FREE(numeric);
  return st;
}

/* gradgradcheck: x -> sum_i <vjp_i(x, v), u_i> */
typedef struct ct__ggc_ctx {
  ct_check_fn fn;
  void *ctx;
  int n;
  ct_tensor *v;
  ct_tensor *u[CT_MAX_ARGS];
} ct__ggc_ctx;

static ct_tensor *ct__ggc_fn(ct_tensor *const *inputs, void *vctx) {
  ct__ggc_ctx *c = (ct__ggc_ctx *)vctx;
  ct_tensor *diff[CT_MAX_ARGS], *grads[CT_MAX_ARGS], *y, *s = NULL;
  int nd = 0, i, d;
  ct_backward_desc desc;
  for (i = 0; i < c->n; i++)
    if (ct_requires_grad(inputs[i])) diff[nd++] = inputs[i];
  y = c->fn(inputs, c->ctx);
  if (!y) return NULL;
  if (!nd || !ct_requires_grad(y)) return ct_mul_scalar(ct_sum(y), ct_int(0)); /* no dependence: zero, not recorded */
  memset(&desc, 0, sizeof desc);
  desc.num_outputs = 1;
  desc.outputs = &y;
  desc.grad_outputs = &c->v;
  desc.create_graph = true;
  desc.allow_unused = true;
  if (ct_autograd_grad(&desc, nd, diff, grads) != CT_OK) return NULL;
  for (i = 0, d = 0; i < c->n; i++) {
    if (!ct_requires_grad(inputs[i])) continue;
    ct__track(grads[d]);
    if (grads[d]) {
      ct_tensor *term = ct_sum(ct_mul(grads[d], c->u[i]));
      s = s ? ct_add(s, term) : term;
    }
    d++;
  }
  return s ? s : ct_mul_scalar(ct_sum(y), ct_int(0));
}

static uint64_t ct__check_rng = 0x9E3779B97F4A7C15ull;
static double ct__check_uniform(void) { /* xorshift: fixed, reproducible directions */
  ct__check_rng ^= ct__check_rng << 13;
  ct__check_rng ^= ct__check_rng >> 7;
  ct__check_rng ^= ct__check_rng << 17;
  return (double)(ct__check_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
static ct_tensor *ct__random_like(ct_tensor *t) {
  ct_tensor *r = ct_empty_opts(t->ndim, t->sizes, ct_opts(CT_F64, t->device));
  int64_t k;
  for (k = 0; r && k < r->numel; k++) ct_set(r, k, ct__check_uniform());
  return r;
}

CTDEF ct_status ct_gradgradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts) {
  ct__ggc_ctx c;
  ct_status st = CT_OK;
  int i;
  if (!fn) return ct__fail_null("gradgradcheck", "fn");
  if (n < 1 || n > CT_MAX_ARGS || !inputs) return ct_fail(CT_ERR_INVALID, "gradgradcheck", "between 1 and %d inputs expected", CT_MAX_ARGS);
  for (i = 0; i < n; i++)
    if (!inputs[i]) return ct__fail_null("gradgradcheck", "inputs");
  memset(&c, 0, sizeof c);
  c.fn = fn;
  c.ctx = ctx;
  c.n = n;
  CT_SCOPE {
    uint64_t mark = ct__error_mark();
    ct_tensor *y = NULL;
    CT_NO_GRAD { y = fn((ct_tensor **)inputs, ctx); }
    c.v = y ? ct__random_like(y) : NULL;
    for (i = 0; i < n; i++) c.u[i] = ct__random_like(inputs[i]);
    st = c.v ? ct_gradcheck(ct__ggc_fn, &c, n, inputs, opts) : ct__check_null_result(mark, "gradgradcheck", "the function");
  }
  return st;
}

/* ---- opcheck ---- */
static int ct__close(const ct_tensor *a, const ct_tensor *b, double atol, double rtol, char *why, size_t cap) {
  int64_t k;
  char b1[160], b2[160];
  if (!ct_same_shape(a, b)) {
    snprintf(why, cap, "shapes differ: %s vs %s", ct_shape_format(a->ndim, a->sizes, b1, sizeof b1),
             ct_shape_format(b->ndim, b->sizes, b2, sizeof b2));
    return 0;
  }
  if (a->dtype != b->dtype) {
    snprintf(why, cap, "dtypes differ: %s vs %s", ct_dtype_name((ct_dtype)a->dtype), ct_dtype_name((ct_dtype)b->dtype));
    return 0;
  }
  if (a->device.type == CT_DEVICE_META || b->device.type == CT_DEVICE_META) return 1;
  for (k = 0; k < a->numel; k++) {
    double x = ct_get(a, k), y = ct_get(b, k);
    if ((x != x && y != y) || x == y) continue; /* NaN matches NaN; infinities match exactly */
    if (!(fabs(x - y) <= atol + rtol * fabs(y))) {
      snprintf(why, cap, "element %lld differs: %.10g vs %.10g", (long long)k, x, y);
      return 0;
    }
  }
  return 1;
}

/* The message of the failure recorded since `mark`, copied (a new ct_fail
 * reuses the buffer); when the call failed without recording one, a note
 * saying so: the pending message is then an older, unrelated one. */
static const char *ct__fresh_message(uint64_t mark, char *buf, size_t cap) {
  const char *m = ct__error_since(mark) ? ct_last_error_message() : "it failed without reporting an error";
  size_t n = strlen(m);
  if (n >= cap) n = cap - 1;
  memcpy(buf, m, n);
  buf[n] = 0;
  return buf;
}

/* Boxed call on a copy of args; the first result (tracked), or NULL. A
 * Tensor[] result (split, unbind, ...) comes back as one tensor: its
 * elements flattened and concatenated, which keeps values, shapes (through
 * the count) and gradients comparable. */
#define CT__OPCHECK_MAX_LIST 64
static ct_tensor *ct__opcheck_call(const ct_op *op, int nargs, const ct_value *args) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS];
  ct_stack s;
  ct_tensor *r = NULL, *flat[CT__OPCHECK_MAX_LIST];
  int64_t i, n;
  if (op->schema.nrets != 1 || op->schema.rets[0].type != CT_TYPE_TENSOR_LIST) return ct_call_op(op, nargs, args);
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < nargs; i++) s.items[s.size++] = args[i];
  if (ct_call_boxed(op, &s) == CT_OK && s.size == 1 && s.items[0].tag == CT_VALUE_TENSOR_LIST) {
    n = s.items[0].v.tensors.n;
    if (n > CT__OPCHECK_MAX_LIST) ct_fail(CT_ERR_UNSUPPORTED, "opcheck", "%s returned %lld tensors (at most %d are checked)",
                                          op->full_name, (long long)n, CT__OPCHECK_MAX_LIST);
    else {
      static const int64_t minus_one = -1;
      for (i = 0; i < n; i++) flat[i] = ct_reshape(s.items[0].v.tensors.data[i], 1, &minus_one);
      r = n ? ct_cat((int)n, flat, 0) : NULL;
      if (!n) ct_fail(CT_ERR_UNSUPPORTED, "opcheck", "%s returned no tensors", op->full_name);
    }
  }
  ct_stack_free(&s);
  return r;
}

/* The registry's in-place (name_.overload) and out= variants: the same
 * arguments plus `out`, or, for an op returning a tuple, plus one written
 * argument per result (max.dim -> max.dim_max, sort -> sort.values). */
static const ct_op *ct__find_variant(const ct_op *f, int want_out) {
  int i, j, nr = f->schema.nrets;
  for (i = 0; i < ct__registry.nops; i++) {
    const ct_op *v = ct__registry.ops[i];
    const ct_schema *s = v ? &v->schema : NULL;
    size_t nl = strlen(f->schema.name);
    if (!v) continue; /* (a built-in not defined: ct_opcheck looked its op up by name, which defines all) */
    if (want_out && nr > 1) {
      if (strcmp(s->name, f->schema.name) || s->nargs != f->schema.nargs + nr || s->nrets != nr) continue;
      for (j = f->schema.nargs; j < s->nargs && s->args[j].is_write; j++) {}
      if (j < s->nargs) continue;
    } else if (want_out) {
      if (strcmp(s->name, f->schema.name) || s->nargs != f->schema.nargs + 1 || strcmp(s->args[s->nargs - 1].name, "out"))
        continue;
    } else {
      if (strncmp(s->name, f->schema.name, nl) || strcmp(s->name + nl, "_") || s->nargs != f->schema.nargs) continue;
    }
    for (j = 0; j < f->schema.nargs; j++)
      if (strcmp(s->args[j].name, f->schema.args[j].name) || s->args[j].type != f->schema.args[j].type) break;
    if (j == f->schema.nargs) return v;
  }
  return NULL;
}

/* out= variant of an op returning a tuple: every result, written into an
 * empty out of its dtype (resized by the kernel), agrees with the
 * functional op's. */
static ct_status ct__opcheck_out_tuple(const char *fn, const char *name, const ct_op *op, const ct_op *outv, int nargs,
                                       const ct_value *a, double atol, double rtol) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS], b[CT_MAX_ARGS + CT_MAX_RETURNS];
  ct_stack s;
  ct_tensor *outs[CT_MAX_RETURNS] = {NULL, NULL, NULL, NULL};
  ct_status st = CT_OK;
  char why[256];
  int i, nr = op->schema.nrets;
  int64_t zero = 0;
  uint64_t mark0 = ct__error_mark();
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < nargs; i++) s.items[s.size++] = a[i];
  CT_NO_GRAD { st = ct_call_boxed(op, &s); }
  if (st != CT_OK) st = ct_fail(CT_ERR_STATE, fn, "%s: the op itself failed: %s", name, ct__fresh_message(mark0, why, sizeof why));
  if (st == CT_OK && s.size != nr) st = ct_fail(CT_ERR_STATE, fn, "%s: %d results, expected %d", name, (int)s.size, nr);
  for (i = 0; i < nargs; i++) b[i] = a[i];
  for (i = 0; i < nr && st == CT_OK; i++) {
    const ct_tensor *r = s.items[i].v.tensor;
    outs[i] = ct_empty_opts(1, &zero, ct_opts((ct_dtype)r->dtype, r->device));
    if (!outs[i]) st = ct_last_error();
    b[nargs + i] = ct_value_tensor(outs[i]);
  }
  if (st == CT_OK) {
    ct_tensor *r = NULL;
    uint64_t mark = ct__error_mark();
    CT_NO_GRAD { r = ct_call_op(outv, nargs + nr, b); }
    if (!r)
      st = ct_fail(CT_ERR_STATE, fn, "%s: out= variant %s failed: %s", name, outv->full_name, ct__fresh_message(mark, why, sizeof why));
  }
  for (i = 0; i < nr && st == CT_OK; i++)
    if (!ct__close(outs[i], s.items[i].v.tensor, atol, rtol, why, sizeof why))
      st = ct_fail(CT_ERR_STATE, fn, "%s: out= variant %s disagrees in result %d: %s", name, outv->full_name, i, why);
  ct_stack_free(&s);
  return st;
}

#define CT__OPCHECK_MAX_INPUTS (CT_MAX_ARGS + CT__OPCHECK_MAX_LIST)
typedef struct ct__opcheck_gc {
  const ct_op *op;
  int nargs;
  ct_value args[CT_MAX_ARGS];
  int tensor_arg[CT__OPCHECK_MAX_INPUTS]; /* input i of gradcheck is argument tensor_arg[i] ... */
  int list_elem[CT__OPCHECK_MAX_INPUTS];  /* ... or element list_elem[i] (>= 0) of that Tensor[] argument */
  ct_tensor *lists[CT_MAX_ARGS][CT__OPCHECK_MAX_LIST];
} ct__opcheck_gc;
static ct_tensor *ct__opcheck_gc_fn(ct_tensor *const *inputs, void *vctx) {
  ct__opcheck_gc *c = (ct__opcheck_gc *)vctx;
  ct_value a[CT_MAX_ARGS];
  int i, t = 0;
  for (i = 0; i < c->nargs; i++) a[i] = c->args[i];
  for (t = 0; t < CT__OPCHECK_MAX_INPUTS && c->tensor_arg[t] >= 0; t++) {
    i = c->tensor_arg[t];
    if (c->list_elem[t] < 0) a[i].v.tensor = inputs[t];
    else c->lists[i][c->list_elem[t]] = inputs[t], a[i].v.tensors.data = c->lists[i];
  }
  return ct__opcheck_call(c->op, c->nargs, a);
}

CTDEF ct_status ct_opcheck(const char *name, int nargs, const ct_value *args, const ct_opcheck_opts *opts) {
  static const char *fn = "opcheck";
  const ct_op *op;
  ct_value a[CT_MAX_ARGS];
  double atol = opts && opts->atol > 0 ? opts->atol : 1e-6, rtol = opts && opts->rtol > 0 ? opts->rtol : 1e-5;
  char why[512];
  ct_status st = CT_OK;
  int i;
  uint64_t mark; /* taken before each call whose failure is wrapped below (CT__LAST) */
#define CT__LAST (ct__fresh_message(mark, why, sizeof why))
  if (!name) return ct__fail_null(fn, "op");
  if (!(op = ct_op_find(name))) return ct_fail(CT_ERR_INVALID, fn, "no op named '%s'", name);
  if (nargs != op->schema.nargs || (nargs && !args))
    return ct_fail(CT_ERR_INVALID, fn, "%s takes %d arguments, got %d", name, op->schema.nargs, nargs);
  for (i = 0; i < nargs; i++) a[i] = args[i];
  if (ct__check_args(op, a, nargs) != CT_OK) return ct_last_error();
  CT_SCOPE {
    ct_tensor *ref;
    mark = ct__error_mark();
    ref = ct__opcheck_call(op, nargs, a);
    if (!ref) st = ct_fail(CT_ERR_STATE, fn, "%s: the op itself failed: %s", name, CT__LAST);
    /* 1. the typed frontend gives what the boxed call gives */
    if (st == CT_OK && op->frontend) {
      ct_tensor *r = NULL;
      mark = ct__error_mark();
      if (op->frontend(op->frontend_fn, a, &r) != CT_OK || !r)
        st = ct_fail(CT_ERR_STATE, fn, "%s: the typed frontend failed where the boxed call succeeded: %s", name,
                     CT__LAST);
      else if (!ct__close(r, ref, 0, 0, why, sizeof why))
        st = ct_fail(CT_ERR_STATE, fn, "%s: typed frontend and boxed call disagree: %s", name, why);
    }
    /* 2. the meta kernel predicts the kernel's output */
    if (st == CT_OK) {
      ct_value m[CT_MAX_ARGS];
      static ct_tensor *ml[CT_MAX_ARGS][CT__OPCHECK_MAX_LIST]; /* (opcheck is not reentrant across threads) */
      ct_tensor *r;
      int64_t e;
      mark = ct__error_mark();
      for (i = 0; i < nargs; i++) {
        m[i] = a[i];
        if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor) {
          ct_tensor *t = a[i].v.tensor;
          m[i].v.tensor = ct_empty_strided(t->ndim, t->sizes, t->strides, ct_opts((ct_dtype)t->dtype, ct_device_make(CT_DEVICE_META, 0)));
          if (!m[i].v.tensor) st = ct_last_error();
        } else if (a[i].tag == CT_VALUE_TENSOR_LIST && a[i].v.tensors.n <= CT__OPCHECK_MAX_LIST) {
          for (e = 0; e < a[i].v.tensors.n; e++) {
            ct_tensor *t = a[i].v.tensors.data[e];
            ml[i][e] = ct_empty_strided(t->ndim, t->sizes, t->strides, ct_opts((ct_dtype)t->dtype, ct_device_make(CT_DEVICE_META, 0)));
            if (!ml[i][e]) st = ct_last_error();
          }
          m[i].v.tensors.data = ml[i];
        } else if (op->schema.args[i].type == CT_TYPE_DEVICE) { /* where the result goes (None too): in the meta run, meta */
          m[i] = ct_value_device(ct_device_make(CT_DEVICE_META, 0));
        }
      }
      r = st == CT_OK ? ct__opcheck_call(op, nargs, m) : NULL;
      if (st == CT_OK && !r && op->dynamic_output_shape && ct_last_error() == CT_ERR_UNSUPPORTED)
        ct_clear_error(); /* its shape depends on the data: a meta kernel cannot know it (as PyTorch's) */
      else if (st == CT_OK && !r)
        st = ct_fail(CT_ERR_STATE, fn, "%s: the meta (shape) function failed: %s", name, CT__LAST);
      else if (st == CT_OK && !ct__close(r, ref, 0, 0, why, sizeof why))
        st = ct_fail(CT_ERR_STATE, fn, "%s: meta function and kernel disagree: %s", name, why);
      else if (st == CT_OK && r->device.type != CT_DEVICE_META)
        st = ct_fail(CT_ERR_STATE, fn, "%s: meta inputs gave a %s result", name, ct_device_type_name((ct_device_type)r->device.type));
    }
    /* 3. in-place and out= variants agree with the functional op */
    if (st == CT_OK && !op->schema.args[0].is_write) {
      const ct_op *inplace = ct__find_variant(op, 0), *outv = ct__find_variant(op, 1);
      if (inplace && a[0].tag == CT_VALUE_TENSOR && a[0].v.tensor->dtype == ref->dtype && ct_same_shape(a[0].v.tensor, ref)) {
        ct_value b[CT_MAX_ARGS];
        ct_tensor *self = NULL;
        mark = ct__error_mark();
        CT_NO_GRAD { self = ct_clone(a[0].v.tensor); }
        for (i = 0; i < nargs; i++) b[i] = a[i];
        b[0].v.tensor = self;
        if (!self || !ct__opcheck_call(inplace, nargs, b))
          st = ct_fail(CT_ERR_STATE, fn, "%s: in-place variant %s failed: %s", name, inplace->full_name, CT__LAST);
        else if (!ct__close(self, ref, atol, rtol, why, sizeof why))
          st = ct_fail(CT_ERR_STATE, fn, "%s: in-place variant %s disagrees: %s", name, inplace->full_name, why);
      }
      if (st == CT_OK && outv && op->schema.nrets > 1) {
        st = ct__opcheck_out_tuple(fn, name, op, outv, nargs, a, atol, rtol);
      } else if (st == CT_OK && outv) {
        ct_value b[CT_MAX_ARGS];
        int64_t zero = 0;
        ct_tensor *out, *r = NULL;
        mark = ct__error_mark();
        out = ct_empty_opts(1, &zero, ct_opts((ct_dtype)ref->dtype, ref->device));
        for (i = 0; i < nargs; i++) b[i] = a[i];
        b[nargs] = ct_value_tensor(out);
        CT_NO_GRAD { r = out ? ct__opcheck_call(outv, nargs + 1, b) : NULL; }
        if (!r)
          st = ct_fail(CT_ERR_STATE, fn, "%s: out= variant %s failed: %s", name, outv->full_name, CT__LAST);
        else if (!ct__close(out, ref, atol, rtol, why, sizeof why))
          st = ct_fail(CT_ERR_STATE, fn, "%s: out= variant %s disagrees: %s", name, outv->full_name, why);
      }
    }
    /* 4. the derivative: gradcheck in float64 on the floating tensor arguments */
    if (st == CT_OK && !(opts && opts->skip_gradcheck) && ct_dtype_is_floating((ct_dtype)ref->dtype) && !op->schema.args[0].is_write) {
      ct__opcheck_gc c;
      ct_tensor *inputs[CT__OPCHECK_MAX_INPUTS];
      int n = 0, differentiable = 0, e;
      memset(&c, 0, sizeof c);
      memset(c.tensor_arg, -1, sizeof c.tensor_arg);
      c.op = op;
      c.nargs = nargs;
      for (i = 0; i < nargs && st == CT_OK; i++) { /* tensors, and the elements of Tensor[] arguments */
        int count = a[i].tag == CT_VALUE_TENSOR ? (a[i].v.tensor ? 1 : 0)
                    : a[i].tag == CT_VALUE_TENSOR_LIST && a[i].v.tensors.n <= CT__OPCHECK_MAX_LIST ? (int)a[i].v.tensors.n
                                                                                                    : 0;
        c.args[i] = a[i];
        for (e = 0; e < count && n < CT__OPCHECK_MAX_INPUTS; e++) {
          ct_tensor *t = NULL;
          ct_tensor *src = a[i].tag == CT_VALUE_TENSOR ? a[i].v.tensor : a[i].v.tensors.data[e];
          CT_NO_GRAD { t = ct_to_copy_ex(src, ct_dtype_is_floating((ct_dtype)src->dtype) ? CT_F64 : (ct_dtype)src->dtype, CT_NO_DEVICE, false); }
          if (!t) {
            st = ct_last_error();
            break;
          }
          if (ct_dtype_is_floating((ct_dtype)t->dtype)) {
            if ((st = ct_set_requires_grad(t, true)) != CT_OK) break;
            differentiable = 1;
          }
          c.tensor_arg[n] = i;
          c.list_elem[n] = a[i].tag == CT_VALUE_TENSOR ? -1 : e;
          if (c.list_elem[n] >= 0) c.lists[i][e] = t;
          inputs[n++] = t;
        }
      }
      if (n > CT_MAX_ARGS) differentiable = 0; /* more inputs than ct_gradcheck takes: not checked */
      if (st == CT_OK && differentiable) {
        ct_tensor *probe;
        ct__error_state saved;
        ct__error_save(&saved);
        probe = ct__opcheck_gc_fn(inputs, &c);
        if (!probe) { /* e.g. an out= variant refusing inputs that require grad: not checked */
          ct__error_restore(&saved);
        } else if (ct_requires_grad(probe)) { /* differentiable output (not detach, not integer) */
          mark = ct__error_mark();
          st = ct_gradcheck(ct__opcheck_gc_fn, &c, n, inputs, NULL);
          if (st == CT_OK && opts && opts->gradgradcheck) st = ct_gradgradcheck(ct__opcheck_gc_fn, &c, n, inputs, NULL);
          if (st != CT_OK) st = ct_fail(CT_ERR_STATE, fn, "%s: %s", name, CT__LAST);
        }
      }
    }
  }
#undef CT__LAST
  return st;
}

CT_EXTERN_C_END
#endif /* CT__CHECK_IMPL */
