/* ctorch/custom.h - users' own operators: CT_DEFINE_OP.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * From your own C11 or C++11 file, one definition gives an op that behaves like
 * a built-in: a schema in the registry, a typed frontend, kernels per
 * backend, a meta (shape) function, and optionally a derivative. It then
 * works with no-grad, autograd, boxed calls and fallbacks, the meta device
 * and every backend it has a kernel for; ct_opcheck checks it.
 *
 *   // out = self * factor
 *   static ct_tensor *scale_cpu(ct_keyset ks, ct_tensor *self, double factor) { ... }
 *   static ct_tensor *scale_meta(ct_keyset ks, ct_tensor *self, double factor) {
 *     return ct_empty_like(self);               // self is a meta tensor: shape only
 *   }
 *   static ct_status scale_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
 *     grad_inputs[0] = ct_mul_scalar(c->grad, ct_float(c->args[1].v.d));
 *     return grad_inputs[0] ? CT_OK : ct_last_error();
 *   }
 *   CT_DEFINE_OP(my_scale, "mylib::scale(Tensor self, float factor) -> Tensor",
 *                CT_PARAMS(ct_tensor *, self, double, factor),
 *                .cpu = CT_FN(scale_cpu), .meta = CT_FN(scale_meta), .backward = scale_backward)
 *
 *   ct_tensor *y = my_scale(x, 2.0);           // the typed frontend
 *
 * - Kernels have the op's C signature: ct_tensor *fn(ct_keyset, params...),
 *   cast with CT_FN. Parameter types: ct_tensor * (Tensor), double (float),
 *   int64_t or int (int), bool, ct_scalar (Scalar), ct_device (Device);
 *   up to 6. (ct_dtype is an int to _Generic: ScalarType arguments need
 *   ct_define_op directly.)
 * - .composite is one kernel for every backend (CompositeExplicitAutograd).
 * - The derivative receives the call's arguments (tensors saved and checked
 *   for in-place changes), the output and its gradient, and fills
 *   grad_inputs[i] for the i-th Tensor parameter when ct_backward_needs(c, i).
 *   Write it with ct ops and double backward works too. Without one, using
 *   the op on tensors that require grad records a node that reports the
 *   missing derivative if a backward reaches it.
 * - Registration happens before main() and again, idempotently, on the
 *   first call of the frontend. In C before main() needs GCC or Clang (a
 *   constructor function); elsewhere call NAME_register() once yourself.
 * - C++ (11 and later): the same macro, written the same way. ct_box and
 *   ct_unbox are overloads instead of _Generic (the same types), the
 *   `.field = value` list becomes one assignment per field (so any order;
 *   no top-level comma inside a value, e.g. a lambda's body), and
 *   registration before main() is a static object's constructor, on any
 *   compiler. The frontend and NAME_register have C++ linkage.
 */
#ifndef CT_CUSTOM_H
#define CT_CUSTOM_H

#include "autograd.h"

CT_EXTERN_C_BEGIN

typedef struct ct_backward_ctx {
  const ct_op *op;
  int num_args;
  const ct_value *args; /* the call's arguments, in schema order */
  ct_tensor *output;    /* the op's result */
  ct_tensor *grad;      /* gradient of the output */
  const ct_node *node;
} ct_backward_ctx;
typedef ct_status (*ct_backward_fn)(const ct_backward_ctx *ctx, ct_tensor **grad_inputs);
/* Does the i-th Tensor argument need a gradient? */
CTDEF bool ct_backward_needs(const ct_backward_ctx *ctx, int i);

/* An op's description; zero fields are absent. */
typedef struct ct_op_def {
  const char *schema;       /* "ns::name(Tensor self, float factor) -> Tensor" */
  ct_unboxed_fn cpu, cuda, meta;
  ct_unboxed_fn composite;  /* CompositeExplicitAutograd: every backend */
  ct_backward_fn backward;  /* derivative; NULL: not differentiable */
} ct_op_def;

/* Registers the op (idempotent for the same schema). `adapter` boxes calls
 * to the typed kernels (CT_DEFINE_OP writes it); NULL if one is already
 * registered for the signature. Returns the op or NULL. */
CTDEF ct_op *ct_define_op(const ct_op_def *def, ct_boxed_fn adapter);
/* Calls an op with boxed arguments and returns its single tensor result
 * (tracked like any frontend's result). */
CTDEF ct_tensor *ct_call_op(const ct_op *op, int nargs, const ct_value *args);

CT_EXTERN_C_END

/* ---- CT_DEFINE_OP (C11 and C++11) ----
 * One macro body serves both languages; what C does with _Generic, a
 * designated initializer and a constructor function, C++ does with
 * overloads, one assignment per `.field = value` and a static object. */
#define CT_PARAMS(...) (__VA_ARGS__)
#define CT__PN(...) CT__PN_(__VA_ARGS__, 6, x, 5, x, 4, x, 3, x, 2, x, 1, x, 0)
#define CT__PN_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define CT__STRIP(...) __VA_ARGS__
#define CT__APPLY(m, args) m args
#define CT__PCAT(a, b) CT__PCAT_(a, b)
#define CT__PCAT_(a, b) a##b
/* T name pairs -> "T name, ..." */
#define CT__DECL1(T, a) T a
#define CT__DECL2(T, a, ...) T a, CT__DECL1(__VA_ARGS__)
#define CT__DECL3(T, a, ...) T a, CT__DECL2(__VA_ARGS__)
#define CT__DECL4(T, a, ...) T a, CT__DECL3(__VA_ARGS__)
#define CT__DECL5(T, a, ...) T a, CT__DECL4(__VA_ARGS__)
#define CT__DECL6(T, a, ...) T a, CT__DECL5(__VA_ARGS__)
/* -> ", T, ..." (the kernel's parameter types after ct_keyset) */
#define CT__TYPES1(T, a) , T
#define CT__TYPES2(T, a, ...) , T CT__TYPES1(__VA_ARGS__)
#define CT__TYPES3(T, a, ...) , T CT__TYPES2(__VA_ARGS__)
#define CT__TYPES4(T, a, ...) , T CT__TYPES3(__VA_ARGS__)
#define CT__TYPES5(T, a, ...) , T CT__TYPES4(__VA_ARGS__)
#define CT__TYPES6(T, a, ...) , T CT__TYPES5(__VA_ARGS__)
/* -> "ct_box(a), ..." */
#define CT__BOX1(T, a) ct_box(a)
#define CT__BOX2(T, a, ...) ct_box(a), CT__BOX1(__VA_ARGS__)
#define CT__BOX3(T, a, ...) ct_box(a), CT__BOX2(__VA_ARGS__)
#define CT__BOX4(T, a, ...) ct_box(a), CT__BOX3(__VA_ARGS__)
#define CT__BOX5(T, a, ...) ct_box(a), CT__BOX4(__VA_ARGS__)
#define CT__BOX6(T, a, ...) ct_box(a), CT__BOX5(__VA_ARGS__)
/* -> ", unbox(T, v[i]), ..." */
#define CT__UNBOX1(i, T, a) , ct_unbox(T, &v_[i])
#define CT__UNBOX2(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX1(i + 1, __VA_ARGS__)
#define CT__UNBOX3(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX2(i + 1, __VA_ARGS__)
#define CT__UNBOX4(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX3(i + 1, __VA_ARGS__)
#define CT__UNBOX5(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX4(i + 1, __VA_ARGS__)
#define CT__UNBOX6(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX5(i + 1, __VA_ARGS__)

static inline ct_value ct__box_int(int i) { return ct_value_int(i); }
static inline ct_tensor *ct__unbox_t(const ct_value *v) { return v->tag == CT_VALUE_TENSOR ? v->v.tensor : NULL; }
static inline double ct__unbox_d(const ct_value *v) { return v->v.d; }
static inline int64_t ct__unbox_i(const ct_value *v) { return v->v.i; }
static inline bool ct__unbox_b(const ct_value *v) { return v->v.b; }
static inline ct_scalar ct__unbox_s(const ct_value *v) { return v->v.scalar; }
static inline ct_device ct__unbox_v(const ct_value *v) { return v->tag == CT_VALUE_DEVICE ? v->v.device : ct_no_device(); }

#ifndef __cplusplus
/* A C value as a boxed value, by its type. */
#define ct_box(x)                                                                                         \
  _Generic((x), ct_tensor *: ct_value_tensor, double: ct_value_double, float: ct_value_double,            \
           int64_t: ct_value_int, int: ct__box_int, bool: ct_value_bool, ct_scalar: ct_value_scalar,         \
           ct_device: ct_value_device)(x)
/* A boxed value as C type T. */
#define ct_unbox(T, v)                                                                                    \
  _Generic((T){0}, ct_tensor *: ct__unbox_t, double: ct__unbox_d, int64_t: ct__unbox_i, int: ct__unbox_i,   \
           bool: ct__unbox_b, ct_scalar: ct__unbox_s, ct_device: ct__unbox_v)(v)

#if defined(__GNUC__) || defined(__clang__)
#define CT__CONSTRUCTOR __attribute__((constructor))
#else
#define CT__CONSTRUCTOR
#endif
/* the op's description: a designated initializer */
#define CT__OP_DEF(d, schema_text, ...) ct_op_def d = {.schema = schema_text, __VA_ARGS__};
/* registration before main() */
#define CT__OP_AT_STARTUP(name) \
  static CT__CONSTRUCTOR void name##__init(void) { name##_register(); }

#else /* C++ */
/* The same boxing by overloads (the same types as C's _Generic; no others). */
static inline ct_value ct__box(ct_tensor *t) { return ct_value_tensor(t); }
static inline ct_value ct__box(double d) { return ct_value_double(d); }
static inline ct_value ct__box(float f) { return ct_value_double(f); }
static inline ct_value ct__box(int64_t i) { return ct_value_int(i); }
static inline ct_value ct__box(int i) { return ct__box_int(i); }
static inline ct_value ct__box(bool b) { return ct_value_bool(b); }
static inline ct_value ct__box(ct_scalar s) { return ct_value_scalar(s); }
static inline ct_value ct__box(ct_device d) { return ct_value_device(d); }
/* unboxing picks its overload by a null pointer of the wanted type */
static inline ct_tensor *ct__unbox_as(ct_tensor **, const ct_value *v) { return ct__unbox_t(v); }
static inline double ct__unbox_as(double *, const ct_value *v) { return ct__unbox_d(v); }
static inline int64_t ct__unbox_as(int64_t *, const ct_value *v) { return ct__unbox_i(v); }
static inline int ct__unbox_as(int *, const ct_value *v) { return (int)ct__unbox_i(v); }
static inline bool ct__unbox_as(bool *, const ct_value *v) { return ct__unbox_b(v); }
static inline ct_scalar ct__unbox_as(ct_scalar *, const ct_value *v) { return ct__unbox_s(v); }
static inline ct_device ct__unbox_as(ct_device *, const ct_value *v) { return ct__unbox_v(v); }
/* A C++ value as a boxed value, by its type. */
#define ct_box(x) ct__box(x)
/* A boxed value as C++ type T. */
#define ct_unbox(T, v) ct__unbox_as(static_cast<T *>(nullptr), v)

/* `.cpu = CT_FN(f), .backward = g` -> `d .cpu = CT_FN(f); d .backward = g;`
 * (designated initializers are C++20, and in declaration order only) */
#define CT__OP_SET1(d, a) d a;
#define CT__OP_SET2(d, a, ...) d a; CT__OP_SET1(d, __VA_ARGS__)
#define CT__OP_SET3(d, a, ...) d a; CT__OP_SET2(d, __VA_ARGS__)
#define CT__OP_SET4(d, a, ...) d a; CT__OP_SET3(d, __VA_ARGS__)
#define CT__OP_SET5(d, a, ...) d a; CT__OP_SET4(d, __VA_ARGS__)
#define CT__OP_SET6(d, a, ...) d a; CT__OP_SET5(d, __VA_ARGS__)
#define CT__OP_SET7(d, a, ...) d a; CT__OP_SET6(d, __VA_ARGS__)
#define CT__OP_SET8(d, a, ...) d a; CT__OP_SET7(d, __VA_ARGS__)
#define CT__OP_DEF(d, schema_text, ...)  \
  ct_op_def d;                           \
  memset(&d, 0, sizeof d);               \
  d.schema = schema_text;                \
  CT__PCAT(CT__OP_SET, CT__NARG(__VA_ARGS__))(d, __VA_ARGS__)
/* registration before main(): a static object's constructor */
#define CT__OP_AT_STARTUP(name)                              \
  static struct name##__init_t {                             \
    name##__init_t() { name##_register(); }                  \
  } name##__init;
#endif /* __cplusplus */

#define CT_DEFINE_OP(name, schema_text, params, ...) \
  CT__DEFINE_OP(name, schema_text, CT__APPLY(CT__PN, params), CT__STRIP params, __VA_ARGS__)
#define CT__DEFINE_OP(name, schema_text, n, plist, ...) CT__DEFINE_OP_(name, schema_text, n, (plist), __VA_ARGS__)
#define CT__DEFINE_OP_(name, schema_text, n, params, ...)                                                     \
  static const ct_op *name##__op;                                                                           \
  /* boxed -> typed kernel */                                                                               \
  static ct_status name##__adapter(const ct_kernel *k_, const ct_op *op_, ct_keyset ks_, ct_stack *s_) {    \
    const ct_value *v_ = s_->items + s_->size - n;                                                          \
    ct_tensor *r_ = ((ct_tensor * (*)(ct_keyset CT__APPLY(CT__PCAT(CT__TYPES, n), params))) k_->unboxed)(    \
        ks_ CT__APPLY(CT__PCAT(CT__UNBOX, n), (0, CT__STRIP params)));                                       \
    ct_value out_;                                                                                          \
    (void)op_;                                                                                              \
    ct_stack_drop(s_, n);                                                                                   \
    if (!r_) return ct_last_error();                                                                        \
    out_ = ct_value_tensor(r_);                                                                             \
    out_.owned = 1;                                                                                         \
    if (ct_stack_push(s_, out_) != CT_OK) return ct_release(r_), ct_last_error();                          \
    return CT_OK;                                                                                           \
  }                                                                                                         \
  void name##_register(void) {                                                                              \
    CT__OP_DEF(d_, schema_text, __VA_ARGS__)                                                                \
    name##__op = ct_define_op(&d_, name##__adapter);                                                        \
  }                                                                                                         \
  CT__OP_AT_STARTUP(name)                                                                                   \
  ct_tensor *name(CT__APPLY(CT__PCAT(CT__DECL, n), params)) {                                               \
    const ct_value args_[] = {CT__APPLY(CT__PCAT(CT__BOX, n), params)};                                     \
    if (!name##__op) name##_register();                                                                     \
    return ct_call_op(name##__op, n, args_);                                                                \
  }

#endif /* CT_CUSTOM_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__CUSTOM_IMPL)
#define CT__CUSTOM_IMPL
CT_EXTERN_C_BEGIN

/* What the registry keeps per custom op with a derivative (never freed:
 * ops live as long as the registry). */
typedef struct ct__custom_info {
  ct_node_kind kind; /* named "<op>Backward" */
  char name[128];
  ct_backward_fn backward;
} ct__custom_info;

/* The node: the call's arguments (tensors saved, lists copied), the output. */
typedef struct ct__custom_node {
  ct_node base;
  const ct_op *op;
  const ct__custom_info *info;
  int nargs;
  ct_value args[CT_MAX_ARGS];
  ct__saved saved[CT_MAX_ARGS];
  int64_t lists[CT_MAX_ARGS][2 * CT_MAX_DIMS];
  ct__saved result;
} ct__custom_node;

static void ct__custom_release(ct_node *node) {
  ct__custom_node *n = (ct__custom_node *)node;
  int i;
  for (i = 0; i < n->nargs; i++) ct__saved_reset(&n->saved[i]);
  ct__saved_reset(&n->result);
}

static ct_status ct__custom_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__custom_node *n = (ct__custom_node *)node;
  ct_value args[CT_MAX_ARGS];
  ct_backward_ctx c;
  int i;
  for (i = 0; i < n->nargs; i++) {
    args[i] = n->args[i];
    if (args[i].tag == CT_VALUE_TENSOR) {
      args[i].v.tensor = ct__unpack(&n->saved[i], node, n->op->schema.args[i].name);
      if (!args[i].v.tensor) return ct_last_error();
    }
  }
  memset(&c, 0, sizeof c);
  c.op = n->op;
  c.num_args = n->nargs;
  c.args = args;
  c.output = ct__unpack(&n->result, node, "result");
  if (!c.output) return ct_last_error();
  c.grad = grads[0];
  c.node = node;
  return n->info->backward(&c, grad_inputs);
}

CTDEF bool ct_backward_needs(const ct_backward_ctx *ctx, int i) { return ctx && ct_node_needs_input_grad(ctx->node, i); }

/* The autograd kernel of every custom op with a derivative (boxed). */
static ct_status ct__custom_autograd(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *s) {
  const ct__custom_info *info = (const ct__custom_info *)self->user;
  int nargs = op->schema.nargs, i, ne = 0, need = 0;
  ct_value *a = s->items + s->size - nargs;
  ct__custom_node *n = NULL;
  ct_keyset excluded;
  ct_status st;
  for (i = 0; i < nargs; i++)
    if (a[i].tag == CT_VALUE_TENSOR) ne++, need |= ct__needs_grad(a[i].v.tensor);
  if (need && ct__grad_mode()) {
    n = (ct__custom_node *)ct__node_new(&info->kind, sizeof *n, ne, 1);
    if (!n) return ct_last_error();
    n->op = op;
    n->info = info;
    n->nargs = nargs;
    for (i = 0, ne = 0; i < nargs; i++) {
      n->args[i] = a[i];
      n->args[i].owned = 0;
      if (a[i].tag == CT_VALUE_TENSOR) {
        if ((st = ct__node_set_input(&n->base, ne++, a[i].v.tensor)) != CT_OK) return ct__node_release(&n->base), st;
        ct__save(&n->saved[i], a[i].v.tensor);
      } else if (a[i].tag == CT_VALUE_INT_LIST) {
        int64_t m = a[i].v.ints.n, k;
        if (m > 2 * CT_MAX_DIMS) {
          ct__node_release(&n->base);
          return ct_fail(CT_ERR_UNSUPPORTED, op->full_name, "autograd saves at most %d ints of a list", 2 * CT_MAX_DIMS);
        }
        for (k = 0; k < m; k++) n->lists[i][k] = a[i].v.ints.data[k];
        n->args[i].v.ints.data = n->lists[i];
      } else if (a[i].tag == CT_VALUE_TENSOR_LIST || a[i].tag == CT_VALUE_STRING || a[i].tag == CT_VALUE_FLOAT_LIST) {
        n->args[i].tag = CT_VALUE_NONE; /* not kept: the derivative cannot use them */
      }
    }
  }
  excluded = ct__below_autograd_begin();
  st = ct_redispatch_boxed(op, ks & CT__BELOW_AUTOGRAD, s);
  ct__below_autograd_end(excluded);
  if (n) {
    ct_tensor *r = s->size ? ct__unbox_tensor(&s->items[s->size - 1]) : NULL;
    if (st == CT_OK && r) st = ct__set_history(r, &n->base, 0);
    if (st == CT_OK && r) st = ct__save_output(&n->result, r);
    ct__node_release(&n->base);
  }
  return st;
}

CTDEF ct_op *ct_define_op(const ct_op_def *def, ct_boxed_fn adapter) {
  static const char *fn = "ct_define_op";
  ct_schema parsed;
  ct_op *op;
  char name[100];
  if (!def) return ct__fail_null(fn, "def"), (ct_op *)NULL;
  if (!def->schema) return ct__fail_null(fn, "schema"), (ct_op *)NULL;
  if (ct_schema_parse(def->schema, &parsed) != CT_OK) return NULL;
  snprintf(name, sizeof name, "%s%s%s", parsed.name, parsed.overload[0] ? "." : "", parsed.overload);
  if (parsed.nrets != 1 || parsed.rets[0].type != CT_TYPE_TENSOR || parsed.rets[0].is_write)
    return ct_fail(CT_ERR_SCHEMA, fn, "%s: custom ops return one new Tensor", name), (ct_op *)NULL;
  if (!def->cpu && !def->cuda && !def->meta && !def->composite)
    return ct_fail(CT_ERR_REGISTRATION, fn, "%s: no kernel given", name), (ct_op *)NULL;
  ct__ensure_all(); /* (users' ops follow every built-in) */
  ct__lock();
  op = ct__find_locked(name);
  if (op) { /* defined before (the constructor and a first call race to it): same schema is fine */
    ct__unlock();
    if (strcmp(op->schema.signature, parsed.signature) != 0)
      return ct_fail(CT_ERR_REGISTRATION, fn, "%s is already defined with another signature", name), (ct_op *)NULL;
    return op;
  }
  if (adapter && !ct__adapter_for(parsed.signature)) ct__register_adapter_locked(parsed.signature, adapter);
  op = ct__def_locked(def->schema, fn);
  if (op) {
    ct_status st = CT_OK;
    ct_kernel k;
    if (def->cpu) k = ct_kernel_unboxed(def->cpu), k.source = "custom", st = ct__impl_locked(name, CT_KEY_CPU, k, fn);
    if (def->cuda && st == CT_OK) k = ct_kernel_unboxed(def->cuda), k.source = "custom", st = ct__impl_locked(name, CT_KEY_CUDA, k, fn);
    if (def->meta && st == CT_OK) k = ct_kernel_unboxed(def->meta), k.source = "custom", st = ct__impl_locked(name, CT_KEY_META, k, fn);
    if (def->composite && st == CT_OK)
      k = ct_kernel_unboxed(def->composite), k.source = "custom",
      st = ct__impl_locked(name, CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, k, fn);
    if (def->backward && st == CT_OK) {
      ct__custom_info *info = (ct__custom_info *)CT_MALLOC(sizeof *info);
      if (!info) {
        st = ct_fail(CT_ERR_OOM, fn, "out of memory");
      } else {
        snprintf(info->name, sizeof info->name, "%sBackward", name);
        info->kind.name = info->name;
        info->kind.backward = ct__custom_backward;
        info->kind.release_saved = ct__custom_release;
        info->backward = def->backward;
        k = ct_kernel_boxed(ct__custom_autograd, info);
        k.source = "custom autograd";
        st = ct__impl_locked(name, CT_KEY_AUTOGRAD, k, fn);
      }
    }
    if (st != CT_OK) op = NULL;
  }
  ct__unlock();
  return op;
}

CTDEF ct_tensor *ct_call_op(const ct_op *op, int nargs, const ct_value *args) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS];
  ct_stack s;
  ct_tensor *r = NULL;
  int i;
  if (!op) return ct__fail_null("ct_call_op", "op"), (ct_tensor *)NULL;
  if (nargs < 0 || nargs > CT_MAX_ARGS || (nargs && !args))
    return ct_fail(CT_ERR_INVALID, op->full_name, "bad argument count %d", nargs), (ct_tensor *)NULL;
  for (i = 0; i < nargs; i++)
    if (op->schema.args[i].type == CT_TYPE_TENSOR && !op->schema.args[i].optional &&
        (args[i].tag != CT_VALUE_TENSOR || !args[i].v.tensor))
      return ct__fail_null(op->full_name, op->schema.args[i].name), (ct_tensor *)NULL;
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < nargs; i++) s.items[s.size++] = args[i];
  if (ct_call_boxed(op, &s) == CT_OK && s.size >= 1 && s.items[0].tag == CT_VALUE_TENSOR) {
    ct_value *v = &s.items[0]; /* the first result; the others are dropped */
    r = v->v.tensor;
    if (v->owned) v->owned = 0;
    else ct_retain(r);
  }
  ct_stack_free(&s);
  return ct__track(r);
}

CT_EXTERN_C_END
#endif /* CT__CUSTOM_IMPL */
