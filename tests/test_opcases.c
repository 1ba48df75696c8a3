/* tests/test_opcases.c - every op against PyTorch: the cases written by
 * tests/cases_AREA.py (with tests/opcases.py) into tests/fixtures/cases_AREA.h.
 *
 * A case is one token stream (opcases.py documents the producer side):
 *   op NAME  name LABEL  [tol ATOL RTOL]  [opcheck GRADCHECK]  [err CODE]
 *   T dtype ndim sizes.. strides.. offset span values.. g|-   (input tensors, by index)
 *   a KIND ..  /  k ARGNAME KIND ..                            (arguments)
 *   o dtype ndim sizes.. n values..                            (expected results)
 *   go dtype ndim sizes.. n values..                           (grad of result 0)
 *   gi INDEX dtype ndim sizes.. n values.. | gi INDEX none     (expected gradients)
 * KIND: t INDEX | n | b 0/1 | i INT | f DOUBLE | d DTYPE | s WORD |
 *       l N INTS.. | L N INDICES..
 * Arguments not given take the defaults of ctorch's schema. The case calls
 * the op boxed, compares results and gradients with PyTorch's, then runs
 * ct_opcheck on the same arguments (when the case asks for it).
 *
 * Tolerances (relative + absolute), justified in tests/opcases.py:
 *   float64 1e-10 + 1e-12, float32 1e-5 + 1e-5, float16 2e-3 + 1e-3,
 *   bfloat16 1.6e-2 + 1e-2, integers and bool exact; gradients twice that.
 */
#include <stdlib.h>

#include "fixtures/cases_unary.h"
#include "fixtures/cases_binary.h"
#include "fixtures/cases_reduce.h"
#include "fixtures/cases_linalg.h"
#include "fixtures/cases_matrix.h"
#include "fixtures/cases_shape.h"
#include "fixtures/cases_nn.h"
#include "fixtures/cases_conv.h"
#include "fixtures/cases_random.h"
#include "fixtures/cases_hardening.h"
#include "fixtures/cases_views.h"
#include "fixtures/cases_factory.h"

/* The device every input tensor goes to (test_device.c runs the whole suite
 * on the host-backed test device this way): results and gradients must be
 * on it too, and agree with PyTorch's CPU values. */
static ct_device opc_device = {CT_DEVICE_CPU, 0};

#define OPC_MAX_T 24
#define OPC_MAX_OUT 16
#define OPC_MAX_INTS 64

typedef struct opc_reader {
  const char *const *piece;
  const char *p;
  char tok[256];
} opc_reader;

static const char *opc_next(opc_reader *r) {
  size_t n = 0;
  for (;;) {
    while (*r->p == ' ') r->p++;
    if (*r->p) break;
    if (!*r->piece) return NULL;
    r->p = *r->piece++;
  }
  while (*r->p && *r->p != ' ' && n + 1 < sizeof r->tok) r->tok[n++] = *r->p++;
  r->tok[n] = 0;
  return r->tok;
}
static int64_t opc_int(opc_reader *r) {
  const char *t = opc_next(r);
  return t ? strtoll(t, NULL, 10) : 0;
}
static double opc_double(opc_reader *r) {
  const char *t = opc_next(r);
  return t ? strtod(t, NULL) : 0.0;
}

static ct_dtype opc_dtype(const char *s) {
  static const struct {
    const char *name;
    ct_dtype dtype;
  } map[] = {{"f32", CT_F32}, {"f64", CT_F64}, {"f16", CT_F16}, {"bf16", CT_BF16},
             {"i64", CT_I64}, {"i32", CT_I32}, {"u8", CT_U8},   {"b", CT_BOOL}};
  size_t i;
  for (i = 0; s && i < sizeof map / sizeof map[0]; i++)
    if (!strcmp(map[i].name, s)) return map[i].dtype;
  return CT_DTYPE_NONE;
}

typedef struct opc_case {
  const ct_op *op;
  char label[128];
  double atol, rtol;
  int opcheck, gradcheck;
  char err[32]; /* expected error code name, "any", or "" for success */
  int nt;
  ct_tensor *t[OPC_MAX_T];
  int given[CT_MAX_ARGS];
  ct_value args[CT_MAX_ARGS];
  int64_t ints[CT_MAX_ARGS][OPC_MAX_INTS];
  double floats[CT_MAX_ARGS][OPC_MAX_INTS];
  ct_tensor *lists[CT_MAX_ARGS][OPC_MAX_T];
  char strs[CT_MAX_ARGS][32];
  int nout;
  ct_tensor *out[OPC_MAX_OUT];
  ct_tensor *go;
  int ngi;
  int gi_index[OPC_MAX_T];
  ct_tensor *gi[OPC_MAX_T]; /* NULL: PyTorch found the input unused */
} opc_case;

/* "dtype ndim sizes.. n values..": a contiguous tensor (dtype already read) */
static ct_tensor *opc_read_result_of(opc_reader *r, ct_dtype dt) {
  int ndim = (int)opc_int(r), d;
  int64_t sizes[CT_MAX_DIMS], n, k;
  ct_tensor *t;
  for (d = 0; d < ndim && d < CT_MAX_DIMS; d++) sizes[d] = opc_int(r);
  n = opc_int(r);
  t = ct_empty(ndim, sizes, dt);
  for (k = 0; k < n; k++) {
    double v = opc_double(r);
    if (t) ct_set(t, k, v);
  }
  return t;
}
static ct_tensor *opc_read_result(opc_reader *r) { return opc_read_result_of(r, opc_dtype(opc_next(r))); }

/* "dtype ndim sizes.. strides.. offset span values.. g|-": a view of its span */
static ct_tensor *opc_read_input(opc_reader *r, int *requires_grad) {
  ct_dtype dt = opc_dtype(opc_next(r));
  int ndim = (int)opc_int(r), d, contiguous = 1;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], offset, span, k, expect = 1, numel = 1;
  ct_tensor *base, *t;
  const char *g;
  for (d = 0; d < ndim; d++) sizes[d] = opc_int(r);
  for (d = 0; d < ndim; d++) strides[d] = opc_int(r);
  offset = opc_int(r);
  span = opc_int(r);
  for (d = ndim - 1; d >= 0; d--) {
    if (sizes[d] != 1 && strides[d] != expect) contiguous = 0;
    expect *= sizes[d];
    numel *= sizes[d];
  }
  if (span != numel) contiguous = 0;
  base = contiguous ? ct_empty(ndim, sizes, dt) : ct_empty(1, &span, dt);
  for (k = 0; k < span; k++) {
    double v = opc_double(r);
    if (base) ct_set(base, k, v);
  }
  g = opc_next(r);
  *requires_grad = g && !strcmp(g, "g");
  if (base && opc_device.type != CT_DEVICE_CPU) { /* the values, then the view, on the device */
    ct_tensor *on = ct_to_device(base, opc_device);
    ct_release(base);
    base = on;
  }
  if (contiguous || !base) return base;
  t = ct_as_strided(base, ndim, sizes, ndim, strides, offset);
  ct_release(base);
  return t;
}

/* One argument value of `kind` for schema argument `a` (storage in c, slot i). */
static int opc_read_value(opc_reader *r, opc_case *c, int i, const ct_arg *a) {
  const char *kind = opc_next(r);
  ct_value *v = &c->args[i];
  if (!kind) return 0;
  if (!strcmp(kind, "t")) {
    int64_t k = opc_int(r);
    *v = ct_value_tensor(k >= 0 && k < c->nt ? c->t[k] : NULL);
  } else if (!strcmp(kind, "n")) {
    *v = ct_value_none();
  } else if (!strcmp(kind, "b")) {
    bool b = opc_int(r) != 0;
    *v = a->type == CT_TYPE_SCALAR ? ct_value_scalar(ct_bool(b)) : ct_value_bool(b);
  } else if (!strcmp(kind, "i")) {
    int64_t x = opc_int(r);
    if (a->type == CT_TYPE_SCALAR) *v = ct_value_scalar(ct_int(x));
    else if (a->type == CT_TYPE_FLOAT) *v = ct_value_double((double)x);
    else if (a->type == CT_TYPE_BOOL) *v = ct_value_bool(x != 0);
    else if (a->type == CT_TYPE_INT_LIST) { /* a bare int for int[N] repeats, as in PyTorch */
      int n = a->list_size > 0 ? a->list_size : 1, j;
      for (j = 0; j < n; j++) c->ints[i][j] = x;
      *v = ct_value_int_list(c->ints[i], n);
    } else *v = ct_value_int(x);
  } else if (!strcmp(kind, "f")) {
    double x = opc_double(r);
    *v = a->type == CT_TYPE_SCALAR ? ct_value_scalar(ct_float(x)) : ct_value_double(x);
  } else if (!strcmp(kind, "d")) {
    *v = ct_value_dtype(opc_dtype(opc_next(r)));
  } else if (!strcmp(kind, "s")) {
    const char *s = opc_next(r);
    snprintf(c->strs[i], sizeof c->strs[i], "%s", s ? s : "");
    *v = ct_value_string(c->strs[i]);
  } else if (!strcmp(kind, "l")) {
    int64_t n = opc_int(r), j;
    for (j = 0; j < n; j++) {
      int64_t x = opc_int(r);
      if (j < OPC_MAX_INTS) c->ints[i][j] = x;
    }
    *v = ct_value_int_list(c->ints[i], n < OPC_MAX_INTS ? n : OPC_MAX_INTS);
  } else if (!strcmp(kind, "F")) { /* float[] */
    int64_t n = opc_int(r), j;
    for (j = 0; j < n; j++) {
      double x = opc_double(r);
      if (j < OPC_MAX_INTS) c->floats[i][j] = x;
    }
    *v = ct_value_float_list(c->floats[i], n < OPC_MAX_INTS ? n : OPC_MAX_INTS);
  } else if (!strcmp(kind, "L")) {
    int64_t n = opc_int(r), j;
    for (j = 0; j < n; j++) {
      int64_t k = opc_int(r);
      if (j < OPC_MAX_T) c->lists[i][j] = k >= 0 && k < c->nt ? c->t[k] : NULL;
    }
    *v = ct_value_tensor_list(c->lists[i], n < OPC_MAX_T ? n : OPC_MAX_T);
  } else {
    return 0;
  }
  c->given[i] = 1;
  return 1;
}

/* The schema default of argument i, as a value. */
static int opc_default(opc_case *c, int i) {
  const ct_arg *a = &c->op->schema.args[i];
  const char *d = a->default_value;
  ct_value *v = &c->args[i];
  if (!d[0]) return 0;
  if (!strcmp(d, "None")) {
    *v = ct_value_none();
    return 1;
  }
  switch (a->type) {
  case CT_TYPE_INT:
    *v = ct_value_int(!strcmp(d, "Mean") ? 1 : !strcmp(d, "Sum") ? 2 : strtoll(d, NULL, 10));
    return 1;
  case CT_TYPE_FLOAT: *v = ct_value_double(strtod(d, NULL)); return 1; /* (strtod reads inf, -inf and nan too) */
  case CT_TYPE_BOOL: *v = ct_value_bool(!strcmp(d, "True")); return 1;
  case CT_TYPE_SCALAR:
    if (!strcmp(d, "True") || !strcmp(d, "False")) *v = ct_value_scalar(ct_bool(!strcmp(d, "True")));
    else if (strpbrk(d, ".eEn")) *v = ct_value_scalar(ct_float(strtod(d, NULL))); /* n: inf, nan */
    else *v = ct_value_scalar(ct_int(strtoll(d, NULL, 10)));
    return 1;
  case CT_TYPE_SCALAR_TYPE: { /* the names the schema parser allows */
    static const char *const names[] = {"float", "double", "half", "bfloat16", "long", "int", "uint8", "bool"};
    static const ct_dtype dts[] = {CT_F32, CT_F64, CT_F16, CT_BF16, CT_I64, CT_I32, CT_U8, CT_BOOL};
    size_t k;
    for (k = 0; k < sizeof names / sizeof names[0]; k++)
      if (!strcmp(d, names[k])) {
        *v = ct_value_dtype(dts[k]);
        return 1;
      }
    return 0;
  }
  case CT_TYPE_STR:
    snprintf(c->strs[i], sizeof c->strs[i], "%.*s", (int)strlen(d) - 2, d + 1);
    *v = ct_value_string(c->strs[i]);
    return 1;
  case CT_TYPE_INT_LIST: {
    int n = 0;
    if (d[0] == '[') {
      const char *p = d + 1;
      while (*p && *p != ']' && n < OPC_MAX_INTS) {
        char *end;
        c->ints[i][n] = strtoll(p, &end, 10);
        if (end == p) break;
        n++;
        p = end;
        while (*p == ',' || *p == ' ') p++;
      }
    } else {
      for (n = 0; n < (a->list_size > 0 ? a->list_size : 1); n++) c->ints[i][n] = strtoll(d, NULL, 10);
    }
    *v = ct_value_int_list(c->ints[i], n);
    return 1;
  }
  default: return 0;
  }
}

static void opc_free(opc_case *c) {
  int i;
  for (i = 0; i < c->nt; i++) ct_release(c->t[i]);
  for (i = 0; i < c->nout; i++) ct_release(c->out[i]);
  for (i = 0; i < c->ngi; i++) ct_release(c->gi[i]);
  ct_release(c->go);
}

/* Parse a case; on a malformed case, a message in why. */
static int opc_parse(const char *const *pieces, opc_case *c, char *why, size_t cap) {
  opc_reader r;
  const char *tok;
  int pos = 0, i;
  memset(c, 0, sizeof *c);
  c->atol = c->rtol = -1;
  r.piece = pieces;
  r.p = "";
  while ((tok = opc_next(&r)) != NULL) {
    if (!strcmp(tok, "op")) {
      tok = opc_next(&r);
      c->op = tok ? ct_op_find(tok) : NULL;
      snprintf(c->label, sizeof c->label, "%.100s", tok ? tok : "?");
      if (!c->op) {
        ct_clear_error();
        snprintf(why, cap, "no op named '%s'", c->label);
        return 0;
      }
    } else if (!strcmp(tok, "name")) {
      tok = opc_next(&r);
      snprintf(c->label, sizeof c->label, "%s", tok ? tok : "?");
    } else if (!strcmp(tok, "tol")) {
      c->atol = opc_double(&r);
      c->rtol = opc_double(&r);
    } else if (!strcmp(tok, "opcheck")) {
      c->opcheck = 1;
      c->gradcheck = opc_int(&r) != 0;
    } else if (!strcmp(tok, "err")) {
      tok = opc_next(&r);
      snprintf(c->err, sizeof c->err, "%s", tok ? tok : "any");
    } else if (!strcmp(tok, "T")) {
      int rg = 0;
      ct_tensor *t = opc_read_input(&r, &rg);
      if (c->nt == OPC_MAX_T || !t) {
        ct_release(t);
        snprintf(why, cap, "input tensor %d: %.300s", c->nt, t ? "too many" : ct_last_error_message());
        return 0;
      }
      if (rg) ct_set_requires_grad(t, true);
      c->t[c->nt++] = t;
    } else if (!strcmp(tok, "a") || !strcmp(tok, "k")) {
      int at = pos;
      if (tok[0] == 'k') {
        const char *name = opc_next(&r);
        for (at = 0; at < c->op->schema.nargs; at++)
          if (name && !strcmp(c->op->schema.args[at].name, name)) break;
      } else {
        pos++;
      }
      if (!c->op || at >= c->op->schema.nargs) {
        snprintf(why, cap, "argument %d: not in the schema", at);
        return 0;
      }
      if (!opc_read_value(&r, c, at, &c->op->schema.args[at])) {
        snprintf(why, cap, "argument %d: bad value", at);
        return 0;
      }
    } else if (!strcmp(tok, "o")) {
      if (c->nout == OPC_MAX_OUT) return snprintf(why, cap, "too many results"), 0;
      c->out[c->nout++] = opc_read_result(&r);
    } else if (!strcmp(tok, "go")) {
      c->go = opc_read_result(&r);
      if (c->go && opc_device.type != CT_DEVICE_CPU) { /* the gradient goes where the result is */
        ct_tensor *on = ct_to_device(c->go, opc_device);
        ct_release(c->go);
        c->go = on;
      }
    } else if (!strcmp(tok, "gi")) {
      if (c->ngi == OPC_MAX_T) return snprintf(why, cap, "too many gradients"), 0;
      c->gi_index[c->ngi] = (int)opc_int(&r);
      tok = opc_next(&r);
      c->gi[c->ngi++] = tok && strcmp(tok, "none") ? opc_read_result_of(&r, opc_dtype(tok)) : NULL;
    } else {
      snprintf(why, cap, "unknown token '%s'", tok);
      return 0;
    }
  }
  if (!c->op) return snprintf(why, cap, "no op"), 0;
  for (i = 0; i < c->op->schema.nargs; i++)
    if (!c->given[i] && !opc_default(c, i)) {
      snprintf(why, cap, "argument '%s' missing and has no default", c->op->schema.args[i].name);
      return 0;
    }
  return 1;
}

static void opc_tol(ct_dtype dt, double *atol, double *rtol) {
  switch (dt) {
  case CT_F64: *atol = 1e-12, *rtol = 1e-10; break;
  case CT_F32: *atol = 1e-5, *rtol = 1e-5; break;
  case CT_F16: *atol = 1e-3, *rtol = 2e-3; break;
  case CT_BF16: *atol = 1e-2, *rtol = 1.6e-2; break;
  default: *atol = 0, *rtol = 0;
  }
}

/* Do got and want agree? why says where not. */
static int opc_close(const opc_case *c, const ct_tensor *got, const ct_tensor *want, double scale, char *why, size_t cap) {
  double atol, rtol;
  int64_t k;
  char b1[96], b2[96];
  if (!got) return snprintf(why, cap, "no result"), 0;
  if (c->nt && !ct_device_eq(got->device, opc_device)) /* (a factory without tensor inputs makes CPU tensors) */
    return snprintf(why, cap, "on device %s:%d, the inputs are on %s:%d", ct_device_type_name(got->device.type),
                    got->device.index, ct_device_type_name(opc_device.type), opc_device.index),
           0;
  if (got->dtype != want->dtype)
    return snprintf(why, cap, "dtype %s, PyTorch gives %s", ct_dtype_name((ct_dtype)got->dtype),
                    ct_dtype_name((ct_dtype)want->dtype)),
           0;
  if (!ct_same_shape(got, want))
    return snprintf(why, cap, "shape %s, PyTorch gives %s", ct_shape_format(got->ndim, got->sizes, b1, sizeof b1),
                    ct_shape_format(want->ndim, want->sizes, b2, sizeof b2)),
           0;
  opc_tol((ct_dtype)want->dtype, &atol, &rtol);
  if (c->atol >= 0) atol = c->atol;
  if (c->rtol >= 0) rtol = c->rtol;
  for (k = 0; k < want->numel; k++) {
    double x = ct_get(got, k), y = ct_get(want, k);
    if ((x != x && y != y) || x == y) continue;
    if (!(fabs(x - y) <= scale * (atol + rtol * fabs(y))))
      return snprintf(why, cap, "element %lld is %.10g, PyTorch gives %.10g", (long long)k, x, y), 0;
  }
  return 1;
}

/* Run one case; returns 1 when it passes, else prints why. */
static int opc_run(const char *area, const char *const *pieces) {
  opc_case c;
  char why[512] = "";
  int ok = 1, i;
  if (!opc_parse(pieces, &c, why, sizeof why)) {
    harness_fail(__FILE__, __LINE__, "%s %s: bad case: %s", area, c.label, why);
    opc_free(&c);
    ct_clear_error();
    return 0;
  }
  CT_SCOPE {
    ct_value buf[CT_MAX_ARGS + OPC_MAX_OUT];
    ct_stack s;
    ct_status st;
    ct_tensor *res[OPC_MAX_OUT];
    int nres = 0;
    ct_stack_init(&s, buf, CT_MAX_ARGS + OPC_MAX_OUT);
    for (i = 0; i < c.op->schema.nargs; i++) ct_stack_push(&s, c.args[i]);
    st = ct_call_boxed(c.op, &s);
    if (c.err[0]) { /* an error case: ctorch must refuse, with the code asked for */
      if (st == CT_OK) ok = 0, snprintf(why, sizeof why, "accepted arguments PyTorch rejects");
      else if (strcmp(c.err, "any") && strcmp(c.err, ct_status_name(st)))
        ok = 0, snprintf(why, sizeof why, "failed with %s (%.300s), expected %s", ct_status_name(st), ct_last_error_message(), c.err);
      else if (!ct_last_error_message()[0]) ok = 0, snprintf(why, sizeof why, "failed without a message");
      ct_clear_error();
    } else if (st != CT_OK) {
      ok = 0, snprintf(why, sizeof why, "failed: %.300s", ct_last_error_message());
      ct_clear_error();
    } else { /* results, flattening a Tensor[] */
      for (i = 0; i < s.size; i++) {
        ct_value *v = &s.items[i];
        int64_t j;
        if (v->tag == CT_VALUE_TENSOR && nres < OPC_MAX_OUT) res[nres++] = v->v.tensor;
        for (j = 0; v->tag == CT_VALUE_TENSOR_LIST && j < v->v.tensors.n && nres < OPC_MAX_OUT; j++)
          res[nres++] = v->v.tensors.data[j];
      }
      if (nres != c.nout) ok = 0, snprintf(why, sizeof why, "%d results, PyTorch gives %d", nres, c.nout);
      for (i = 0; ok && i < nres; i++)
        if (!opc_close(&c, res[i], c.out[i], 1, why, sizeof why)) {
          char w2[512];
          snprintf(w2, sizeof w2, "result %d: %.400s", i, why);
          memcpy(why, w2, sizeof why);
          ok = 0;
        }
      if (ok && c.ngi) { /* gradients of result 0 */
        ct_tensor *inputs[OPC_MAX_T], *grads[OPC_MAX_T];
        ct_backward_desc d;
        memset(&d, 0, sizeof d);
        memset(grads, 0, sizeof grads);
        d.num_outputs = 1;
        d.outputs = &res[0];
        d.grad_outputs = &c.go;
        d.allow_unused = true;
        for (i = 0; i < c.ngi; i++) inputs[i] = c.t[c.gi_index[i]];
        if (!ct_requires_grad(res[0])) ok = 0, snprintf(why, sizeof why, "result 0 does not require grad");
        else if (ct_autograd_grad(&d, c.ngi, inputs, grads) != CT_OK)
          ok = 0, snprintf(why, sizeof why, "backward failed: %.300s", ct_last_error_message()), ct_clear_error();
        for (i = 0; ok && i < c.ngi; i++) {
          char w[400];
          if (!c.gi[i]) { /* unused: no gradient, or zeros */
            int64_t k;
            for (k = 0; grads[i] && k < grads[i]->numel; k++)
              if (ct_get(grads[i], k) != 0) ok = 0, snprintf(why, sizeof why, "gradient of input %d: nonzero where PyTorch has none", c.gi_index[i]);
          } else if (!opc_close(&c, grads[i], c.gi[i], 2, w, sizeof w)) {
            snprintf(why, sizeof why, "gradient of input %d: %.300s", c.gi_index[i], w);
            ok = 0;
          }
        }
        for (i = 0; i < c.ngi; i++) ct_release(grads[i]);
      }
    }
    ct_stack_free(&s);
    if (ok && c.opcheck) { /* the same arguments, detached */
      ct_value a[CT_MAX_ARGS];
      ct_opcheck_opts o;
      ct_tensor *det[OPC_MAX_T];
      int j;
      for (j = 0; j < c.nt; j++) det[j] = ct_detach(c.t[j]);
      for (i = 0; i < c.op->schema.nargs; i++) {
        a[i] = c.args[i];
        for (j = 0; j < c.nt; j++)
          if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor == c.t[j]) a[i].v.tensor = det[j];
      }
      memset(&o, 0, sizeof o);
      o.skip_gradcheck = !c.gradcheck;
      o.atol = c.atol > 0 ? c.atol : 0;
      o.rtol = c.rtol > 0 ? c.rtol : 0;
      if (ct_opcheck(c.op->full_name, c.op->schema.nargs, a, &o) != CT_OK) {
        ok = 0, snprintf(why, sizeof why, "%s", ct_last_error_message());
        ct_clear_error();
      }
    }
  }
  if (!ok) harness_fail(__FILE__, __LINE__, "%s %s: %s", area, c.label, why);
  opc_free(&c);
  return ok;
}

static void opc_run_area(const char *area, const char *const *const *cases) {
  int i, n = 0, bad = 0;
  for (i = 0; cases[i]; i++, n++) bad += !opc_run(area, cases[i]);
  if (n == 0) harness_skip("no cases yet");
  else printf("    %s: %d cases, %d failed\n", area, n, bad);
}

/* Does some case of some area call op `name` (schema name)? */
static int opc_covers(const char *name) {
  const char *const *const *areas[] = {cases_unary, cases_binary, cases_reduce, cases_linalg, cases_matrix,
                                        cases_shape, cases_nn,     cases_conv,   cases_random, cases_hardening, cases_views,
                                        cases_factory};
  size_t a;
  int i;
  char want[128];
  snprintf(want, sizeof want, "op %s ", name);
  for (a = 0; a < sizeof areas / sizeof areas[0]; a++)
    for (i = 0; areas[a][i]; i++)
      if (!strncmp(areas[a][i][0], want, strlen(want))) return 1;
  return 0;
}

TEST(opcases_unary) { opc_run_area("unary", cases_unary); }
TEST(opcases_binary) { opc_run_area("binary", cases_binary); }
TEST(opcases_reduce) { opc_run_area("reduce", cases_reduce); }
TEST(opcases_linalg) { opc_run_area("linalg", cases_linalg); }
TEST(opcases_matrix) { opc_run_area("matrix", cases_matrix); }
TEST(opcases_shape) { opc_run_area("shape", cases_shape); }
TEST(opcases_nn) { opc_run_area("nn", cases_nn); }
TEST(opcases_conv) { opc_run_area("conv", cases_conv); }
TEST(opcases_random) { opc_run_area("random", cases_random); }
TEST(opcases_hardening) { opc_run_area("hardening", cases_hardening); }
TEST(opcases_views) { opc_run_area("views", cases_views); }
TEST(opcases_factory) { opc_run_area("factory", cases_factory); }
