/* ctorch/dispatch.h - operators, schemas, dispatch tables, boxed values.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * An operator has a schema (PyTorch notation), a dispatch table with one
 * kernel slot per runtime key, and two calling conventions:
 *   unboxed: a typed C function `R kernel(ct_keyset ks, args...)`, the fast
 *            path frontends use; R is ct_tensor* for a new tensor and
 *            ct_status for ops returning a mutated argument (Tensor(a!)).
 *   boxed:   `ct_status kernel(const ct_kernel *self, const ct_op *op,
 *            ct_keyset ks, ct_stack *stack)` over tagged values; the op's
 *            arguments are the top values of the stack, and the kernel
 *            replaces them with its results. One boxed fallback serves every
 *            operator whatever its signature.
 * A kernel registered unboxed is reached from boxed calls through the
 * signature adapter for its schema (ct_register_adapter); a boxed-only kernel
 * is reached from typed frontends by boxing the arguments.
 *
 * Registration verbs: ct_def (schema), ct_impl (kernel at a key or alias
 * key), ct_fallback (boxed kernel for a key across all ops), ct_fallthrough
 * (skip a key for one op or for all). Each op's table and its
 * non-fallthrough mask are recomputed at registration time, so a call is:
 *   ks = (inputs' keys | thread include | global) & ~thread exclude & op mask
 *   kernel = table[highest bit of ks]
 */
#ifndef CT_DISPATCH_H
#define CT_DISPATCH_H

#include "keys.h"
#include "schema.h"
#include "tensor.h"

CT_EXTERN_C_BEGIN



/* ---- boxed values ---- */
typedef struct ct_int_list {
  const int64_t *data;
  int64_t n;
} ct_int_list;
typedef struct ct_tensor_list {
  ct_tensor *const *data;
  int64_t n;
} ct_tensor_list;
typedef struct ct_float_list {
  const double *data;
  int64_t n;
} ct_float_list;

/* Random-number generators (ctorch/ops/random.h); ops take `Generator?`. */
typedef struct ct_generator ct_generator;

/* `int?` arguments are int64_t with this value for None; `float?` ones are
 * double with NaN for None. */
#define CT_INT_NONE INT64_MIN

typedef enum ct_value_tag {
  CT_VALUE_NONE = 0,
  CT_VALUE_TENSOR,
  CT_VALUE_INT,
  CT_VALUE_DOUBLE,
  CT_VALUE_BOOL,
  CT_VALUE_SCALAR,
  CT_VALUE_DTYPE,
  CT_VALUE_INT_LIST,
  CT_VALUE_TENSOR_LIST,
  CT_VALUE_STRING,
  CT_VALUE_GENERATOR,
  CT_VALUE_DEVICE,
  CT_VALUE_FLOAT_LIST
} ct_value_tag;

/* One tagged value (PyTorch's IValue). Argument tensors and lists are
 * borrowed for the call; returned tensors are owned by the stack (owned=1)
 * until popped. */
typedef struct ct_value {
  uint8_t tag;   /* ct_value_tag */
  uint8_t owned; /* the stack holds a reference to v.tensor */
  union {
    ct_tensor *tensor;
    int64_t i;
    double d;
    bool b;
    ct_scalar scalar;
    ct_dtype dtype;
    ct_int_list ints;
    ct_tensor_list tensors;
    const char *str;
    ct_generator *gen;
    ct_device device;
    ct_float_list floats;
  } v;
} ct_value;

CTDEF ct_value ct_value_none(void);
CTDEF ct_value ct_value_tensor(ct_tensor *t); /* borrowed; NULL becomes None */
CTDEF ct_value ct_value_int(int64_t i);
CTDEF ct_value ct_value_double(double d);
CTDEF ct_value ct_value_bool(bool b);
CTDEF ct_value ct_value_scalar(ct_scalar s);
CTDEF ct_value ct_value_dtype(ct_dtype d); /* CT_DTYPE_NONE becomes None */
CTDEF ct_value ct_value_device(ct_device d); /* CT_NO_DEVICE becomes None */
CTDEF ct_value ct_value_int_list(const int64_t *data, int64_t n);
CTDEF ct_value ct_value_tensor_list(ct_tensor *const *data, int64_t n);
CTDEF ct_value ct_value_float_list(const double *data, int64_t n);
CTDEF ct_value ct_value_string(const char *s); /* NULL becomes None */
CTDEF ct_value ct_value_generator(ct_generator *g); /* NULL becomes None */
/* Releases what an owned value holds (a popped result: a tensor, or a
 * Tensor[] result's tensors and array) and makes it None. */
CTDEF void ct_value_release(ct_value *v);

typedef struct ct_stack {
  ct_value *items;
  int size, cap;
  int heap; /* items was allocated by the stack (grown past the caller's buffer) */
} ct_stack;

/* A stack over the caller's buffer (which may be NULL with cap 0); it grows
 * onto the heap when needed. ct_stack_free releases owned values. */
CTDEF void ct_stack_init(ct_stack *s, ct_value *buf, int cap);
CTDEF ct_status ct_stack_push(ct_stack *s, ct_value v);
CTDEF ct_value ct_stack_pop(ct_stack *s); /* an owned tensor becomes the caller's */
CTDEF void ct_stack_drop(ct_stack *s, int n);
CTDEF void ct_stack_free(ct_stack *s);

/* ---- kernels and operators ---- */
typedef struct ct_op ct_op;
typedef struct ct_kernel ct_kernel;
typedef void (*ct_unboxed_fn)(void); /* cast to the op's C signature to call */
typedef ct_status (*ct_boxed_fn)(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack);
typedef ct_status (*ct__boxed_frontend_fn)(ct_unboxed_fn frontend, const ct_value *args, ct_tensor **result);

struct ct_kernel {
  ct_unboxed_fn unboxed; /* typed entry, or NULL for a boxed-only kernel */
  ct_boxed_fn boxed;     /* boxed entry (filled with the op's adapter for unboxed kernels) */
  void *user;            /* for boxed kernels: their own context */
  const char *source;    /* where it was registered, for ct_op_dump */
};

static inline ct_kernel ct_kernel_unboxed(ct_unboxed_fn fn) {
  ct_kernel k;
  memset(&k, 0, sizeof k);
  k.unboxed = fn;
  return k;
}
static inline ct_kernel ct_kernel_boxed(ct_boxed_fn fn, void *user) {
  ct_kernel k;
  memset(&k, 0, sizeof k);
  k.boxed = fn;
  k.user = user;
  return k;
}
#define CT_FN(f) ((ct_unboxed_fn)(void (*)(void))(f))

/* What a call reads: the op's resolved kernels. A table never changes once
 * published; registration builds a new one and swaps the op's pointer, so a
 * thread dispatching while another registers sees the old table or the new
 * one, never half of each (tables replaced after start-up are kept until
 * exit: a caller may still hold a kernel of the old one). */
typedef struct ct_dispatch_table {
  ct_keyset mask;                         /* keys that are not fallthrough for this op */
  ct_kernel kernels[CT_NUM_RUNTIME_KEYS]; /* resolved kernel per runtime key */
  struct ct_dispatch_table *retired;      /* the registry's list of replaced tables */
} ct_dispatch_table;

/* A kernel as registered at one key (alias keys included). */
typedef struct ct_registered_kernel {
  int key;
  ct_kernel kernel;
} ct_registered_kernel;

struct ct_op {
  const ct_dispatch_table *dispatch;        /* read with ct_op_table(); never NULL once defined */
  ct_registered_kernel *registered;         /* the kernels as registered, one per key, in no order (registry lock; */
  int nregistered, registered_cap;          /* most ops have 2-4, so a list, not an array over every key) */
  ct_keyset fallthrough;                    /* op-specific fallthrough keys */
  ct_boxed_fn adapter;                      /* boxed entry for unboxed kernels; NULL if none */
  /* The op's typed frontend (frontend_fn, e.g. ct_add_ex) called with boxed
   * arguments (checked against the schema) through frontend, which unboxes
   * them for frontends of that C signature: *result is what the frontend
   * returns (a new tensor, tracked by a temporaries scope like any; for
   * in-place and out= ops the written argument, borrowed). NULL if the op
   * has none. */
  ct__boxed_frontend_fn frontend;
  ct_unboxed_fn frontend_fn;
  ct_schema schema;
  char full_name[100];                      /* "add.Tensor" */
  uint8_t device_rule; /* 0 strict, 1 CPU scalars join any device, 2 no check (copy_, indexing); ct__device_joins */
  uint8_t dynamic_output_shape; /* the result's shape depends on the data (nonzero, masked_select): its meta kernel may refuse */
};

CTDEF ct_op *ct_def(const char *schema);
/* The op's current dispatch table (an acquire load: safe while others register). */
static inline const ct_dispatch_table *ct_op_table(const ct_op *op) { return ct__atomic_load(&op->dispatch); }
CTDEF ct_op *ct_op_find(const char *name); /* "add.Tensor", or "add" for the default overload */
/* Every defined op, in definition order (built-ins first): i in [0, ct_op_count()). */
CTDEF int64_t ct_op_count(void);
CTDEF ct_op *ct_op_at(int64_t i); /* NULL out of range */
/* The kernel registered for op at key (alias keys too); a zeroed kernel if none. */
CTDEF ct_kernel ct_op_registered(const ct_op *op, ct_key key);
CTDEF ct_status ct_impl(const char *op, ct_key key, ct_kernel kernel);
CTDEF ct_status ct_impl_remove(const char *op, ct_key key);
CTDEF ct_status ct_fallthrough(const char *op, ct_key key); /* op NULL: for every op */
CTDEF ct_status ct_fallback(ct_key key, ct_kernel kernel);  /* boxed kernel for every op */
CTDEF ct_status ct_fallback_remove(ct_key key);             /* drops a fallback or global fallthrough */
/* Boxing adapter for a C signature code (ct_schema.signature). Generated
 * code and CT_DEFINE_OP register one per distinct signature. */
CTDEF ct_status ct_register_adapter(const char *signature, ct_boxed_fn adapter);
/* Writes the op's table ("CPU: unboxed (builtin) ...") into buf; returns buf. */
CTDEF char *ct_op_dump(const ct_op *op, char *buf, size_t cap);

/* The key set a call sees: inputs' keys with this thread's and the global
 * state applied (unmasked), less BackendSelect, which every call has. */
CTDEF ct_keyset ct_dispatch_keys(ct_keyset input_keys);
/* Kernel for ks (already including thread state), masked by the op; NULL
 * with CT_ERR_NO_KERNEL if none. *chosen gets the masked key set. */
CTDEF const ct_kernel *ct_dispatch_lookup(const ct_op *op, ct_keyset ks, ct_keyset *chosen);
/* Boxed call: the op's arguments are the top of the stack. */
CTDEF ct_status ct_call_boxed(const ct_op *op, ct_stack *stack);
/* Boxed call with an explicit key set: what a kernel at key k uses with
 * ks & ct_keys_below(k) to continue below itself. */
CTDEF ct_status ct_redispatch_boxed(const ct_op *op, ct_keyset ks, ct_stack *stack);

CT_EXTERN_C_END

/* ---- internal fast path used by frontends ---- */
/* BackendSelect is in every call's keys, as in c10's default included set:
 * it falls through except for factories, whose BackendSelect kernel picks
 * the backend from their device argument (ct__backend_select). */
static inline ct_keyset ct__call_keys(ct_keyset input_keys) {
  return (input_keys | ((ct_keyset)1 << CT_KEY_BACKEND_SELECT) | ct__tls.keys.included | ct__global_keys) & ~ct__tls.keys.excluded;
}


/* The common-device rule, checked once per call by every generated frontend
 * and by ct_call_boxed (kernels may rely on it): an op's tensor arguments are
 * on one device. Pointwise ops (`device_check: cpu_scalars` in their spec,
 * PyTorch's TensorIterator ops) also take a read-only 0-dim CPU tensor with
 * any device, a number; other ops only a wrapped number (a bare number
 * lifted to a tensor). Ops that move data between devices opt out
 * (`device_check: no`: copy_, the index ops whose indices may stay on the
 * CPU). how: 0 an input of a pointwise op, 1 another input, 2 a written
 * argument (in-place self, out=), which always counts. */
typedef struct ct__device_join {
  ct_device device;
  const char *arg; /* the argument that set it */
} ct__device_join;
CT_EXTERN_C_BEGIN
CTDEF ct_status ct__device_mismatch(const char *op, const ct__device_join *j, const ct_tensor *t, const char *arg);
CT_EXTERN_C_END
/* Both tensors on one device: the generated frontends' fast path, where
 * no device rule is needed (ct__frontend_keys applies them otherwise). */
static inline int ct__same_device(const ct_tensor *a, const ct_tensor *b) {
  return a->device.type == b->device.type && a->device.index == b->device.index;
}
static inline int ct__device_joins(ct__device_join *j, const ct_tensor *t, int how, const char *op, const char *arg) {
  if (how < 2 && t->ndim == 0 && t->device.type == CT_DEVICE_CPU && (how == 0 || (t->flags & CT_TENSOR_WRAPPED_NUMBER))) return 1;
  if (!j->arg) {
    j->device = t->device, j->arg = arg;
    return 1;
  }
  if (CT_LIKELY(j->device.type == t->device.type && j->device.index == t->device.index)) return 1;
  ct__device_mismatch(op, j, t, arg);
  return 0;
}

#endif /* CT_DISPATCH_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__DISPATCH_IMPL)
#define CT__DISPATCH_IMPL
#include <stdio.h>
CT_EXTERN_C_BEGIN

/* ---- values and stacks ---- */
static ct_value ct__value(ct_value_tag tag) {
  ct_value v;
  memset(&v, 0, sizeof v);
  v.tag = (uint8_t)tag;
  return v;
}
CTDEF ct_value ct_value_none(void) { return ct__value(CT_VALUE_NONE); }
CTDEF ct_value ct_value_tensor(ct_tensor *t) {
  ct_value v = ct__value(t ? CT_VALUE_TENSOR : CT_VALUE_NONE);
  v.v.tensor = t;
  return v;
}
CTDEF ct_value ct_value_int(int64_t i) {
  ct_value v = ct__value(CT_VALUE_INT);
  v.v.i = i;
  return v;
}
CTDEF ct_value ct_value_double(double d) {
  ct_value v = ct__value(CT_VALUE_DOUBLE);
  v.v.d = d;
  return v;
}
CTDEF ct_value ct_value_bool(bool b) {
  ct_value v = ct__value(CT_VALUE_BOOL);
  v.v.b = b;
  return v;
}
CTDEF ct_value ct_value_scalar(ct_scalar s) {
  ct_value v = ct__value(s.kind == CT_SCALAR_NONE ? CT_VALUE_NONE : CT_VALUE_SCALAR);
  v.v.scalar = s;
  return v;
}
CTDEF ct_value ct_value_dtype(ct_dtype d) {
  ct_value v = ct__value(d == CT_DTYPE_NONE ? CT_VALUE_NONE : CT_VALUE_DTYPE);
  v.v.dtype = d;
  return v;
}
CTDEF ct_value ct_value_device(ct_device d) {
  ct_value v = ct__value(ct_device_is_none(d) ? CT_VALUE_NONE : CT_VALUE_DEVICE);
  v.v.device = d;
  return v;
}
CTDEF ct_value ct_value_int_list(const int64_t *data, int64_t n) {
  ct_value v = ct__value(CT_VALUE_INT_LIST);
  v.v.ints.data = data;
  v.v.ints.n = n;
  return v;
}
CTDEF ct_value ct_value_tensor_list(ct_tensor *const *data, int64_t n) {
  ct_value v = ct__value(CT_VALUE_TENSOR_LIST);
  v.v.tensors.data = data;
  v.v.tensors.n = n;
  return v;
}
CTDEF ct_value ct_value_float_list(const double *data, int64_t n) {
  ct_value v = ct__value(CT_VALUE_FLOAT_LIST);
  v.v.floats.data = data;
  v.v.floats.n = n;
  return v;
}
CTDEF ct_value ct_value_string(const char *s) {
  ct_value v = ct__value(s ? CT_VALUE_STRING : CT_VALUE_NONE);
  v.v.str = s;
  return v;
}

CTDEF ct_value ct_value_generator(ct_generator *g) {
  ct_value v = ct__value(g ? CT_VALUE_GENERATOR : CT_VALUE_NONE);
  v.v.gen = g;
  return v;
}
CTDEF void ct_value_release(ct_value *v) {
  if (!v || !v->owned) return;
  if (v->tag == CT_VALUE_TENSOR) ct_release(v->v.tensor);
  if (v->tag == CT_VALUE_TENSOR_LIST) {
    int64_t i;
    for (i = 0; i < v->v.tensors.n; i++) ct_release(v->v.tensors.data[i]);
    CT_FREE((void *)v->v.tensors.data);
  }
  *v = ct_value_none();
}
CTDEF void ct_stack_init(ct_stack *s, ct_value *buf, int cap) {
  s->items = buf;
  s->size = 0;
  s->cap = buf ? cap : 0;
  s->heap = 0;
}
CTDEF ct_status ct_stack_push(ct_stack *s, ct_value v) {
  if (!s) return ct__fail_null("ct_stack_push", "stack");
  if (s->size == s->cap) {
    int cap = s->cap ? s->cap * 2 : 8;
    ct_value *items = (ct_value *)CT_MALLOC(sizeof(ct_value) * (size_t)cap);
    if (!items) return ct_fail(CT_ERR_OOM, "ct_stack_push", "out of memory growing a stack to %d values", cap);
    if (s->size) memcpy(items, s->items, sizeof(ct_value) * (size_t)s->size);
    if (s->heap) CT_FREE(s->items);
    s->items = items;
    s->cap = cap;
    s->heap = 1;
  }
  s->items[s->size++] = v;
  return CT_OK;
}
CTDEF ct_value ct_stack_pop(ct_stack *s) {
  if (!s || s->size == 0) return ct_value_none();
  return s->items[--s->size];
}
CTDEF void ct_stack_drop(ct_stack *s, int n) {
  if (!s) return;
  while (n-- > 0 && s->size > 0) {
    ct_value_release(&s->items[--s->size]);
  }
}
CTDEF void ct_stack_free(ct_stack *s) {
  if (!s) return;
  ct_stack_drop(s, s->size);
  if (s->heap) CT_FREE(s->items);
  s->items = NULL;
  s->cap = 0;
  s->heap = 0;
}

/* Check the top nargs values against the schema and normalise them to the
 * exact representation adapters read (ints widen to Scalars and floats,
 * None for optionals). */
static const char *ct__device_str(ct_device d, char *buf, size_t cap) {
  if (d.type == CT_DEVICE_CPU || d.type == CT_DEVICE_META) snprintf(buf, cap, "%s", ct_device_type_name((ct_device_type)d.type));
  else snprintf(buf, cap, "%s:%d", ct_device_type_name((ct_device_type)d.type), d.index);
  return buf;
}
CTDEF ct_status ct__device_mismatch(const char *op, const ct__device_join *j, const ct_tensor *t, const char *arg) {
  char a[48], b[48];
  return ct_fail(CT_ERR_DEVICE, op,
                 "Expected all tensors to be on the same device, but found at least two devices, %s and %s! (when checking "
                 "argument '%s' against argument '%s')",
                 ct__device_str(j->device, a, sizeof a), ct__device_str(t->device, b, sizeof b), arg, j->arg);
}
/* ct__device_joins over boxed arguments (already type-checked) */
static ct_status ct__check_devices(const ct_op *op, const ct_value *a, int n) {
  ct__device_join j;
  int i;
  int64_t k;
  if (op->device_rule == 2) return CT_OK;
  memset(&j, 0, sizeof j);
  for (i = 0; i < n; i++) {
    const ct_arg *s = &op->schema.args[i];
    int how = s->is_write ? 2 : op->device_rule == 1 ? 0 : 1;
    if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor && !ct__device_joins(&j, a[i].v.tensor, how, op->full_name, s->name))
      return ct_last_error();
    for (k = 0; a[i].tag == CT_VALUE_TENSOR_LIST && k < a[i].v.tensors.n; k++)
      if (!ct__device_joins(&j, a[i].v.tensors.data[k], how, op->full_name, s->name)) return ct_last_error();
  }
  return CT_OK;
}
static ct_status ct__check_args(const ct_op *op, ct_value *a, int n) {
  int i;
  int64_t j;
  if (n != op->schema.nargs)
    return ct_fail(CT_ERR_INVALID, op->full_name, "expected %d arguments on the stack, got %d", op->schema.nargs, n);
  for (i = 0; i < n; i++) {
    const ct_arg *s = &op->schema.args[i];
    ct_value *v = &a[i];
    int ok = 0;
    if (v->tag == CT_VALUE_NONE) {
      ok = s->optional || s->type == CT_TYPE_SCALAR_TYPE || s->type == CT_TYPE_STR || s->type == CT_TYPE_GENERATOR;
      if (ok && s->type == CT_TYPE_DEVICE) v->v.device = ct_no_device();
      /* None as the typed forms read it */
      if (ok && s->type == CT_TYPE_SCALAR_TYPE) v->v.dtype = CT_DTYPE_NONE;
      if (ok && s->type == CT_TYPE_INT) v->v.i = CT_INT_NONE;
      if (ok && s->type == CT_TYPE_FLOAT) v->v.d = (double)NAN;
      if (ok && (s->type == CT_TYPE_STR || s->type == CT_TYPE_GENERATOR)) v->v.str = NULL, v->v.gen = NULL;
      if (ok && s->type == CT_TYPE_INT_LIST) v->v.ints.data = NULL, v->v.ints.n = -1;
      if (ok && s->type == CT_TYPE_FLOAT_LIST) v->v.floats.data = NULL, v->v.floats.n = -1;
      if (ok && s->type == CT_TYPE_SCALAR) v->v.scalar.kind = CT_SCALAR_NONE;
    } else {
      switch (s->type) {
      case CT_TYPE_TENSOR: ok = v->tag == CT_VALUE_TENSOR; break;
      case CT_TYPE_INT: ok = v->tag == CT_VALUE_INT; break;
      case CT_TYPE_FLOAT:
        if (v->tag == CT_VALUE_INT) v->tag = CT_VALUE_DOUBLE, v->v.d = (double)v->v.i;
        ok = v->tag == CT_VALUE_DOUBLE;
        break;
      case CT_TYPE_BOOL: ok = v->tag == CT_VALUE_BOOL; break;
      case CT_TYPE_SCALAR:
        if (v->tag == CT_VALUE_INT) v->tag = CT_VALUE_SCALAR, v->v.scalar = ct_int(v->v.i);
        else if (v->tag == CT_VALUE_DOUBLE) v->tag = CT_VALUE_SCALAR, v->v.scalar = ct_float(v->v.d);
        else if (v->tag == CT_VALUE_BOOL) v->tag = CT_VALUE_SCALAR, v->v.scalar = ct_bool(v->v.b);
        ok = v->tag == CT_VALUE_SCALAR;
        break;
      case CT_TYPE_SCALAR_TYPE: ok = v->tag == CT_VALUE_DTYPE; break;
      case CT_TYPE_INT_LIST: /* a sized list (int[1]) also takes a bare int, as in PyTorch */
        ok = v->tag == CT_VALUE_INT_LIST || (v->tag == CT_VALUE_INT && s->list_size > 0);
        if (ok && v->tag == CT_VALUE_INT_LIST && v->v.ints.n > 0 && !v->v.ints.data)
          return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s'): an int[] of %lld values without data", i, s->name,
                         (long long)v->v.ints.n);
        break;
      case CT_TYPE_TENSOR_LIST:
        ok = v->tag == CT_VALUE_TENSOR_LIST;
        if (ok && (v->v.tensors.n < 0 || (v->v.tensors.n > 0 && !v->v.tensors.data)))
          return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s'): a Tensor[] of %lld tensors without data", i, s->name,
                         (long long)v->v.tensors.n);
        for (j = 0; ok && j < v->v.tensors.n; j++)
          if (!v->v.tensors.data[j])
            return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s'): tensor %lld of the list is NULL", i, s->name,
                           (long long)j);
        break;
      case CT_TYPE_FLOAT_LIST:
        ok = v->tag == CT_VALUE_FLOAT_LIST;
        if (ok && (v->v.floats.n < 0 || (v->v.floats.n > 0 && !v->v.floats.data)))
          return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s'): a float[] of %lld values without data", i, s->name,
                         (long long)v->v.floats.n);
        break;
      case CT_TYPE_STR: ok = v->tag == CT_VALUE_STRING; break;
      case CT_TYPE_GENERATOR: ok = v->tag == CT_VALUE_GENERATOR; break;
      case CT_TYPE_DEVICE:
        ok = v->tag == CT_VALUE_DEVICE;
        if (ok && !ct__device_valid(v->v.device))
          return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s'): invalid device (type %d, index %d)", i, s->name,
                         (int)v->v.device.type, (int)v->v.device.index);
        break;
      }
    }
    if (!ok)
      return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s') has the wrong type (value tag %d)", i, s->name,
                     (int)v->tag);
  }
  return CT_OK;
}

/* An int-list argument as adapters read it: a bare int is a list of one
 * (pointing into the stack value, valid while the adapter runs). */
static ct_int_list ct__value_int_list(ct_value *v) {
  ct_int_list l;
  if (v->tag == CT_VALUE_INT) {
    l.data = &v->v.i;
    l.n = 1;
    return l;
  }
  return v->v.ints;
}

/* ---- registry ---- */
/* A name index: open addressing over a power-of-two table of positions + 1
 * (0: empty) into an array the caller owns, hashed with FNV-1a; it holds at
 * most half its slots. Registration looks names up under the registry lock;
 * start-up registers every built-in, so lookups must not be linear. */
typedef struct ct__name_index {
  int *slots;
  int cap, n;
} ct__name_index;
static uint32_t ct__hash_name(const char *s) {
  uint32_t h = 2166136261u;
  while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
  return h;
}
static int ct__name_index_find(const ct__name_index *ix, const char *name, const char *(*key)(int)) {
  uint32_t m, h;
  if (!ix->cap) return -1;
  m = (uint32_t)ix->cap - 1;
  for (h = ct__hash_name(name) & m; ix->slots[h]; h = (h + 1) & m)
    if (!strcmp(key(ix->slots[h] - 1), name)) return ix->slots[h] - 1;
  return -1;
}
static void ct__name_index_put(ct__name_index *ix, int pos, const char *name) {
  uint32_t m = (uint32_t)ix->cap - 1, h;
  for (h = ct__hash_name(name) & m; ix->slots[h]; h = (h + 1) & m) {
  }
  ix->slots[h] = pos + 1;
  ix->n++;
}
/* Adds position pos (whose name is key(pos)), growing the table first. */
static ct_status ct__name_index_add(ct__name_index *ix, int pos, const char *(*key)(int), const char *fn) {
  if (2 * (ix->n + 1) > ix->cap) {
    ct__name_index grown;
    int i;
    grown.cap = ix->cap ? 2 * ix->cap : 1024;
    grown.n = 0;
    grown.slots = (int *)CT_MALLOC(sizeof(int) * (size_t)grown.cap);
    if (!grown.slots) return ct_fail(CT_ERR_OOM, fn, "out of memory growing the registry's index");
    memset(grown.slots, 0, sizeof(int) * (size_t)grown.cap);
    for (i = 0; i < ix->cap; i++)
      if (ix->slots[i]) ct__name_index_put(&grown, ix->slots[i] - 1, key(ix->slots[i] - 1));
    CT_FREE(ix->slots);
    *ix = grown;
  }
  ct__name_index_put(ix, pos, key(pos));
  return CT_OK;
}

typedef struct ct__adapter_entry {
  char signature[96];
  ct_boxed_fn fn;
} ct__adapter_entry;

static struct {
  ct_op **ops;
  int nops, cap;
  ct__adapter_entry *adapters; /* grows like ops; kept for the process's life */
  int nadapters, adapters_cap;
  ct_kernel fallbacks[CT_NUM_RUNTIME_KEYS];
  ct_keyset fallthrough; /* global fallthrough keys */
  ct_dispatch_table *retired; /* tables replaced after start-up (see ct__recompute) */
  ct__name_index op_index, adapter_index; /* full names and signatures to positions in ops / adapters */
  int building; /* a built-in's kernels are being registered: its table is computed once, at the end */
  int nbuiltin; /* ops[0, nbuiltin): the built-ins' spec positions (NULL until defined; ct__materialize) */
} ct__registry;

/* An op by full name ("add.Tensor"), or by bare name for the default
 * overload ("add"), whose full name is the bare name. */
static const char *ct__op_key(int i) { return ct__registry.ops[i]->full_name; }
static ct_op *ct__find_locked(const char *name) {
  int i = ct__name_index_find(&ct__registry.op_index, name, ct__op_key);
  return i < 0 ? NULL : ct__registry.ops[i];
}

static const char *ct__adapter_key(int i) { return ct__registry.adapters[i].signature; }
static ct_boxed_fn ct__adapter_for(const char *signature) {
  int i = ct__name_index_find(&ct__registry.adapter_index, signature, ct__adapter_key);
  return i < 0 ? NULL : ct__registry.adapters[i].fn;
}

static int ct__has(const ct_kernel *k) { return k->unboxed || k->boxed; }

/* ---- an op's registered kernels (registry lock held) ---- */
static const ct_kernel ct__kernel_none = {NULL, NULL, NULL, NULL};
static const ct_kernel *ct__registered_at(const ct_op *op, int key) {
  int i;
  for (i = 0; i < op->nregistered; i++)
    if (op->registered[i].key == key) return &op->registered[i].kernel;
  return &ct__kernel_none;
}
/* Sets (or, with a zeroed kernel, removes) the kernel at key. */
static ct_status ct__set_registered(ct_op *op, int key, ct_kernel kernel, const char *fn) {
  int i;
  for (i = 0; i < op->nregistered && op->registered[i].key != key; i++) {
  }
  if (!ct__has(&kernel)) {
    if (i < op->nregistered) op->registered[i] = op->registered[--op->nregistered];
    return CT_OK;
  }
  if (i == op->nregistered) {
    if (op->nregistered == op->registered_cap) {
      int cap = op->registered_cap ? 2 * op->registered_cap : 4;
      ct_registered_kernel *grown = (ct_registered_kernel *)CT_REALLOC(op->registered, sizeof *grown * (size_t)cap);
      if (!grown) return ct_fail(CT_ERR_OOM, fn, "out of memory registering a kernel for '%s'", op->full_name);
      op->registered = grown;
      op->registered_cap = cap;
    }
    op->nregistered++;
  }
  op->registered[i].key = key;
  op->registered[i].kernel = kernel;
  return CT_OK;
}

/* Which kernel serves runtime key k: direct registration, then alias keys,
 * then the key's fallback (see Note [Key set layout] in keys.h). */
static ct_kernel ct__resolve(const ct_op *op, const ct_kernel *r, int k) {
  ct_kernel none;
  memset(&none, 0, sizeof none);
  if (!ct_key_valid((ct_key)k) || (op->fallthrough & ct_keyset_of((ct_key)k))) return none;
  if (ct__has(&r[k])) return r[k];
  if (ct_key_is_backend((ct_key)k)) {
    if (ct__has(&r[CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD])) return r[CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD];
    if (ct__has(&r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD])) return r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD];
  }
  if (ct_key_is_autograd((ct_key)k)) {
    if (ct__has(&r[CT_KEY_AUTOGRAD])) return r[CT_KEY_AUTOGRAD];
    if (ct__has(&r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD])) {
      /* a composite is differentiated through the ops it calls, unless the
       * backend has its own kernel, which then needs a real autograd kernel */
      int backend = k == CT_KEY_AUTOGRAD_OTHER ? -1 : k - CT_AUTOGRAD_KEY_OFFSET;
      if (backend < 0 || (!ct__has(&r[backend]) && !ct__has(&r[CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD])))
        return r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD];
    }
  }
  if (ct__has(&ct__registry.fallbacks[k])) return ct__registry.fallbacks[k];
  return none;
}

static int ct__is_fallthrough(const ct_op *op, int k, const ct_kernel *resolved) {
  if (ct__has(resolved)) return 0;
  if (op->fallthrough & ct_keyset_of((ct_key)k)) return 1;
  if (ct__registry.fallthrough & ct_keyset_of((ct_key)k)) return 1;
  return !ct_key_valid((ct_key)k);
}

/* Rebuilds op's dispatch table (registry lock held). Before ct__init
 * publishes the registry no other thread can read it, so the table is
 * updated in place; after, a changed table is published as a new one. */
static ct_status ct__recompute(ct_op *op) {
  ct_dispatch_table next, *t = (ct_dispatch_table *)op->dispatch, *dst, *old;
  ct_kernel dense[CT_NUM_KEYS];
  int k;
  if (!t) { /* the op's first table: computed where it will live */
    if (!(dst = (ct_dispatch_table *)CT_MALLOC(sizeof *dst)))
      return ct_fail(CT_ERR_OOM, op->full_name, "out of memory for the dispatch table");
    dst->retired = NULL;
  } else if (ct__initialized) { /* published: a new table, swapped in below */
    memset(&next, 0, sizeof next);
    dst = &next;
  } else { /* (before publication: in place) */
    dst = t;
  }
  memset(dense, 0, sizeof dense);
  for (k = 0; k < op->nregistered; k++) dense[op->registered[k].key] = op->registered[k].kernel;
  dst->mask = 0;
  for (k = 0; k < CT_NUM_RUNTIME_KEYS; k++) {
    ct_kernel kern = ct__resolve(op, dense, k);
    if (kern.unboxed && !kern.boxed) kern.boxed = op->adapter; /* may stay NULL: no boxed entry */
    dst->kernels[k] = kern;
    if (!ct__is_fallthrough(op, k, &kern)) dst->mask |= ct_keyset_of((ct_key)k);
  }
  if (!t) {
    ct__atomic_store(&op->dispatch, (const ct_dispatch_table *)dst);
    return CT_OK;
  }
  if (dst == t) return CT_OK;
  next.retired = NULL;
  if (t->mask == next.mask && !memcmp(t->kernels, next.kernels, sizeof next.kernels)) return CT_OK;
  if (!(t = (ct_dispatch_table *)CT_MALLOC(sizeof *t)))
    return ct_fail(CT_ERR_OOM, op->full_name, "out of memory for the dispatch table (the previous one stays in use)");
  *t = next;
  old = (ct_dispatch_table *)op->dispatch; /* readers may hold the old one: keep it */
  old->retired = ct__registry.retired;
  ct__registry.retired = old;
  ct__atomic_store(&op->dispatch, (const ct_dispatch_table *)t);
  return CT_OK;
}
static ct_status ct__recompute_all(void) {
  ct_status st = CT_OK;
  int i;
  for (i = 0; i < ct__registry.nops; i++) /* (a built-in not defined yet computes its table when it is) */
    if (ct__registry.ops[i] && ct__recompute(ct__registry.ops[i]) != CT_OK) st = CT_ERR_OOM;
  return st;
}

/* "name.overload", or "name" for the default overload (both fit: 64 + 32 < 100) */
static void ct__full_name(const ct_schema *s, char *out) {
  size_t n = strlen(s->name), m = strlen(s->overload);
  memcpy(out, s->name, n);
  if (m) out[n++] = '.', memcpy(out + n, s->overload, m);
  out[n + m] = 0;
}

/* A schema as the generator pre-parses it (gen/ctgen.c): the built-in ops
 * are defined from these records without parsing at run time. */
typedef struct ct__arg_def {
  unsigned short name, default_value; /* offsets into the op's strings */
  unsigned char type, flags;          /* ct_type; 1 optional, 2 written (a!), 4 keyword-only */
  unsigned char alias, list_size;
} ct__arg_def;
/* (the op's strings are one block, "name\0overload\0signature\0..." with the
 * arguments' names and defaults: one pointer per op, not two per argument,
 * which a position-independent build would relocate each) */
typedef struct ct__schema_def {
  const char *strs;        /* name at 0, then overload, then signature */
  const ct__arg_def *args; /* nargs arguments, then nrets returns */
  unsigned short overload, signature;
  unsigned char nargs, nrets;
} ct__schema_def;
static void ct__schema_expand(const ct__schema_def *d, ct_schema *s) {
  int i;
  memset(s, 0, sizeof *s);
  strcpy(s->name, d->strs); /* (lengths checked by the generator, with this parser) */
  strcpy(s->overload, d->strs + d->overload);
  strcpy(s->signature, d->strs + d->signature);
  s->nargs = d->nargs;
  s->nrets = d->nrets;
  for (i = 0; i < d->nargs + d->nrets; i++) {
    const ct__arg_def *a = &d->args[i];
    ct_arg *o = i < d->nargs ? &s->args[i] : &s->rets[i - d->nargs];
    o->type = (ct_type)a->type;
    o->optional = (a->flags & 1) != 0;
    o->is_write = (a->flags & 2) != 0;
    o->kwarg_only = (a->flags & 4) != 0;
    o->alias = (char)a->alias;
    o->list_size = a->list_size;
    strcpy(o->name, d->strs + a->name);
    strcpy(o->default_value, d->strs + a->default_value);
  }
}

/* ---- the built-in ops: defined on first use ----
 * Each built-in op has a generated definition record (ctorch/generated/
 * registration.h): its pre-parsed schema, its kernels per key (autograd and
 * BackendSelect ones included), its signature's boxing adapter and its boxed
 * frontend. A typed call reads the op's handle (ct__op.<op>) and, while it is
 * NULL, defines the op from its record (ct__materialize: under the registry
 * lock, once), so a program links only the ops it calls and what they reach.
 * Whatever concerns every op (lookups by name, enumeration, ct_def, ct_impl,
 * backends, the engines' loops, opcheck) first defines them all, in spec
 * order, through the one index of records (ct__materialize_all, init.h).
 * Each op keeps its spec position in the registry (ct_op_at), whenever it is
 * defined; users' ops follow the built-ins. */
typedef struct ct__kernel_def {
  ct_unboxed_fn fn;
  unsigned char key, source; /* ct_key; CT__SOURCE_* (ct__kernel_sources, init.h) */
} ct__kernel_def;
enum { CT__SOURCE_REFERENCE, CT__SOURCE_STRUCTURED, CT__SOURCE_COMPOSITE, CT__SOURCE_AUTOGRAD, CT__SOURCE_BACKEND_SELECT };
/* An op's autograd kernel in its record (generated/registration.h): none in
 * an inference-only build (CT_NO_AUTOGRAD, init.h). */
#ifdef CT_NO_AUTOGRAD
#define CT__AUTOGRAD_KERNEL(fn)
#else
#define CT__AUTOGRAD_KERNEL(fn) {CT_FN(fn), CT_KEY_AUTOGRAD, CT__SOURCE_AUTOGRAD},
#endif
typedef struct ct__op_def {
  ct_op **handle; /* &ct__op.<op> */
  int index;      /* position in spec order */
  ct__schema_def schema;
  ct_boxed_fn adapter; /* the schema's signature's */
  ct__boxed_frontend_fn frontend;
  ct_unboxed_fn frontend_fn;
  const ct__kernel_def *kernels; /* in registration order */
  unsigned char nkernels, device_rule, dynamic_output_shape;
} ct__op_def;
/* (init.h) the op of record d, defined now if it was not: NULL after an error */
static ct_op *ct__materialize(const ct__op_def *d);
/* (init.h) every built-in op defined: for whatever concerns all ops */
static void ct__materialize_all(void);

static ct_op *ct__def_schema_locked(const ct_schema *parsed, const char *fn, int pos);
static ct_op *ct__def_locked(const char *schema, const char *fn) {
  ct_schema parsed;
  if (ct__schema_parse(fn, schema, &parsed) != CT_OK) return NULL;
  return ct__def_schema_locked(&parsed, fn, -1);
}
/* Defines the op at the end of the registry (pos -1) or, for a built-in, at
 * its spec position pos (a slot ct__init reserved). */
static ct_op *ct__def_schema_locked(const ct_schema *parsed, const char *fn, int pos) {
  ct_op *op;
  char full[100];
  ct__full_name(parsed, full);
  if (ct__find_locked(full)) {
    ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' is already defined", full);
    return NULL;
  }
  if (pos < 0 && ct__registry.nops == ct__registry.cap) {
    int cap = ct__registry.cap ? ct__registry.cap * 2 : 64;
    ct_op **ops = (ct_op **)CT_REALLOC(ct__registry.ops, sizeof(ct_op *) * (size_t)cap);
    if (!ops) return ct_fail(CT_ERR_OOM, fn, "out of memory"), (ct_op *)NULL;
    ct__registry.ops = ops;
    ct__registry.cap = cap;
  }
  op = (ct_op *)CT_MALLOC(sizeof(ct_op));
  if (!op) return ct_fail(CT_ERR_OOM, fn, "out of memory"), (ct_op *)NULL;
  memset(op, 0, sizeof *op);
  op->schema = *parsed;
  memcpy(op->full_name, full, sizeof full);
  op->adapter = ct__adapter_for(parsed->signature);
  if (!ct__registry.building && ct__recompute(op) != CT_OK) {
    CT_FREE(op);
    return NULL;
  }
  if (pos < 0) pos = ct__registry.nops++;
  ct__registry.ops[pos] = op;
  if (ct__name_index_add(&ct__registry.op_index, pos, ct__op_key, fn) != CT_OK) {
    ct__registry.ops[pos] = NULL;
    if (pos == ct__registry.nops - 1 && pos >= ct__registry.nbuiltin) ct__registry.nops--;
    CT_FREE((void *)op->dispatch);
    CT_FREE(op);
    return NULL;
  }
  return op;
}

static void ct__ensure_init(void) {
  if (CT_UNLIKELY(!ct__atomic_load(&ct__initialized))) ct__init();
}
static int ct__all_defined; /* every built-in op is defined (ct__materialize_all) */
/* ct__ensure_init, and every built-in op defined: for what concerns all ops */
static void ct__ensure_all(void) {
  if (CT_UNLIKELY(!ct__atomic_load(&ct__all_defined))) ct__materialize_all();
}

CTDEF ct_op *ct_def(const char *schema) {
  ct_op *op;
  ct__ensure_all();
  ct__lock();
  op = ct__def_locked(schema, "ct_def");
  ct__unlock();
  return op;
}

CTDEF ct_op *ct_op_find(const char *name) {
  ct_op *op;
  if (!name) return ct__fail_null("ct_op_find", "name"), (ct_op *)NULL;
  ct__ensure_all();
  ct__lock();
  op = ct__find_locked(name);
  ct__unlock();
  if (!op) ct_fail(CT_ERR_INVALID, "ct_op_find", "no operator named '%s'", name);
  return op;
}
CTDEF int64_t ct_op_count(void) {
  int64_t n;
  ct__ensure_all();
  ct__lock();
  n = ct__registry.nops;
  ct__unlock();
  return n;
}
CTDEF ct_op *ct_op_at(int64_t i) {
  ct_op *op = NULL;
  ct__ensure_all();
  ct__lock();
  if (i >= 0 && i < ct__registry.nops) op = ct__registry.ops[i];
  ct__unlock();
  return op;
}
CTDEF ct_kernel ct_op_registered(const ct_op *op, ct_key key) {
  ct_kernel k;
  if (!op) return ct__fail_null("ct_op_registered", "op"), ct__kernel_none;
  ct__lock();
  k = *ct__registered_at(op, (int)key);
  ct__unlock();
  return k;
}

static ct_status ct__check_key(const char *fn, ct_key key, int allow_alias) {
  if (!ct_key_valid(key) || (!allow_alias && (int)key >= CT_NUM_RUNTIME_KEYS))
    return ct_fail(CT_ERR_REGISTRATION, fn, "invalid dispatch key %d", (int)key);
  return CT_OK;
}

static ct_status ct__impl_op_locked(ct_op *op, ct_key key, ct_kernel kernel, const char *fn);
static ct_status ct__impl_locked(const char *name, ct_key key, ct_kernel kernel, const char *fn) {
  ct_op *op;
  if (!name) return ct__fail_null(fn, "op");
  if (ct__check_key(fn, key, 1) != CT_OK) return CT_ERR_REGISTRATION;
  if (!kernel.unboxed && !kernel.boxed) return ct_fail(CT_ERR_NULL, fn, "kernel for '%s' at key %s has no function", name, ct_key_name(key));
  op = ct__find_locked(name);
  if (!op) return ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' is not defined (call ct_def first)", name);
  return ct__impl_op_locked(op, key, kernel, fn);
}
/* (key and kernel checked) */
static ct_status ct__impl_op_locked(ct_op *op, ct_key key, ct_kernel kernel, const char *fn) {
  if (ct__has(ct__registered_at(op, key)))
    return ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' already has a kernel at key %s", op->full_name, ct_key_name(key));
  if ((int)key < CT_NUM_RUNTIME_KEYS && (op->fallthrough & ct_keyset_of(key)))
    return ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' is registered as fallthrough at key %s", op->full_name,
                   ct_key_name(key));
  if (!kernel.source) kernel.source = "user";
  if (ct__set_registered(op, key, kernel, fn) != CT_OK) return CT_ERR_OOM;
  if (!ct__registry.building && ct__recompute(op) != CT_OK) {
    ct__set_registered(op, key, ct__kernel_none, fn); /* as it was */
    return CT_ERR_OOM;
  }
  return CT_OK;
}

CTDEF ct_status ct_impl(const char *name, ct_key key, ct_kernel kernel) {
  ct_status st;
  ct__ensure_all();
  ct__lock();
  st = ct__impl_locked(name, key, kernel, "ct_impl");
  ct__unlock();
  return st;
}

CTDEF ct_status ct_impl_remove(const char *name, ct_key key) {
  ct_op *op;
  ct_status st = CT_OK;
  if (!name) return ct__fail_null("ct_impl_remove", "op");
  if (ct__check_key("ct_impl_remove", key, 1) != CT_OK) return CT_ERR_REGISTRATION;
  ct__ensure_all();
  ct__lock();
  op = ct__find_locked(name);
  if (!op) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_impl_remove", "operator '%s' is not defined", name);
  } else if ((int)key < CT_NUM_RUNTIME_KEYS && (op->fallthrough & ct_keyset_of(key))) {
    op->fallthrough &= ~ct_keyset_of(key);
    st = ct__recompute(op);
  } else if (!ct__has(ct__registered_at(op, key))) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_impl_remove", "operator '%s' has no kernel at key %s", op->full_name, ct_key_name(key));
  } else {
    ct__set_registered(op, key, ct__kernel_none, "ct_impl_remove"); /* (a removal allocates nothing) */
    st = ct__recompute(op);
  }
  ct__unlock();
  return st;
}

CTDEF ct_status ct_fallthrough(const char *name, ct_key key) {
  ct_status st = CT_OK;
  if (ct__check_key("ct_fallthrough", key, 0) != CT_OK) return CT_ERR_REGISTRATION;
  if (name) ct__ensure_all(); /* (by name: every op defined; for all ops, the ones defined later see it) */
  else ct__ensure_init();
  ct__lock();
  if (!name) {
    if (ct__has(&ct__registry.fallbacks[key]))
      st = ct_fail(CT_ERR_REGISTRATION, "ct_fallthrough", "key %s already has a fallback", ct_key_name(key));
    else {
      ct__registry.fallthrough |= ct_keyset_of(key);
      st = ct__recompute_all();
    }
  } else {
    ct_op *op = ct__find_locked(name);
    if (!op)
      st = ct_fail(CT_ERR_REGISTRATION, "ct_fallthrough", "operator '%s' is not defined", name);
    else if (ct__has(ct__registered_at(op, key)))
      st = ct_fail(CT_ERR_REGISTRATION, "ct_fallthrough", "operator '%s' already has a kernel at key %s", op->full_name,
                   ct_key_name(key));
    else {
      op->fallthrough |= ct_keyset_of(key);
      st = ct__recompute(op);
    }
  }
  ct__unlock();
  return st;
}

CTDEF ct_status ct_fallback(ct_key key, ct_kernel kernel) {
  ct_status st = CT_OK;
  if (ct__check_key("ct_fallback", key, 0) != CT_OK) return CT_ERR_REGISTRATION;
  if (!kernel.boxed) return ct_fail(CT_ERR_NULL, "ct_fallback", "a fallback must be a boxed kernel (key %s)", ct_key_name(key));
  ct__ensure_init();
  ct__lock();
  if (ct__has(&ct__registry.fallbacks[key]) || (ct__registry.fallthrough & ct_keyset_of(key))) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_fallback", "key %s already has a fallback", ct_key_name(key));
  } else {
    if (!kernel.source) kernel.source = "fallback";
    ct__registry.fallbacks[key] = kernel;
    st = ct__recompute_all();
  }
  ct__unlock();
  return st;
}

CTDEF ct_status ct_fallback_remove(ct_key key) {
  ct_status st = CT_OK;
  if (ct__check_key("ct_fallback_remove", key, 0) != CT_OK) return CT_ERR_REGISTRATION;
  ct__ensure_init();
  ct__lock();
  if (!ct__has(&ct__registry.fallbacks[key]) && !(ct__registry.fallthrough & ct_keyset_of(key))) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_fallback_remove", "key %s has no fallback", ct_key_name(key));
  } else {
    memset(&ct__registry.fallbacks[key], 0, sizeof(ct_kernel));
    ct__registry.fallthrough &= ~ct_keyset_of(key);
    st = ct__recompute_all();
  }
  ct__unlock();
  return st;
}

/* Adds the adapter to the table (signature new and checked); 0 after an error. */
static int ct__add_adapter_locked(const char *signature, ct_boxed_fn adapter) {
  if (ct__registry.nadapters == ct__registry.adapters_cap) {
    int cap = ct__registry.adapters_cap ? ct__registry.adapters_cap * 2 : 256;
    ct__adapter_entry *a = (ct__adapter_entry *)CT_REALLOC(ct__registry.adapters, sizeof(ct__adapter_entry) * (size_t)cap);
    if (!a) return ct_fail(CT_ERR_OOM, "ct_register_adapter", "out of memory growing the adapter table"), 0;
    ct__registry.adapters = a;
    ct__registry.adapters_cap = cap;
  }
  strcpy(ct__registry.adapters[ct__registry.nadapters].signature, signature);
  ct__registry.adapters[ct__registry.nadapters].fn = adapter;
  if (ct__name_index_add(&ct__registry.adapter_index, ct__registry.nadapters, ct__adapter_key, "ct_register_adapter") != CT_OK)
    return 0;
  ct__registry.nadapters++;
  return 1;
}
static ct_status ct__register_adapter_locked(const char *signature, ct_boxed_fn adapter) {
  int i = ct__name_index_find(&ct__registry.adapter_index, signature, ct__adapter_key);
  if (i >= 0) {
    if (ct__registry.adapters[i].fn == adapter) return CT_OK;
    return ct_fail(CT_ERR_REGISTRATION, "ct_register_adapter", "signature '%s' already has an adapter", signature);
  }
  if (strlen(signature) >= sizeof ct__registry.adapters[0].signature)
    return ct_fail(CT_ERR_REGISTRATION, "ct_register_adapter", "signature too long");
  if (!ct__add_adapter_locked(signature, adapter)) return ct_last_error();
  for (i = 0; i < ct__registry.nops; i++) {
    ct_op *op = ct__registry.ops[i];
    if (op && !op->adapter && !strcmp(op->schema.signature, signature)) {
      op->adapter = adapter;
      if (!ct__registry.building && ct__recompute(op) != CT_OK) return CT_ERR_OOM;
    }
  }
  return CT_OK;
}

CTDEF ct_status ct_register_adapter(const char *signature, ct_boxed_fn adapter) {
  ct_status st;
  if (!signature) return ct__fail_null("ct_register_adapter", "signature");
  if (!adapter) return ct__fail_null("ct_register_adapter", "adapter");
  ct__ensure_all();
  ct__lock();
  st = ct__register_adapter_locked(signature, adapter);
  ct__unlock();
  return st;
}

CTDEF char *ct_op_dump(const ct_op *op, char *buf, size_t cap) {
  const ct_dispatch_table *table;
  size_t len = 0;
  int k, n;
  if (!buf || !cap) return buf;
  buf[0] = '\0';
  if (!op) return buf;
  table = ct_op_table(op);
  n = snprintf(buf, cap, "%s [%s]\n", op->full_name, op->schema.signature);
  if (n < 0 || (size_t)n >= cap) return buf;
  len = (size_t)n;
  ct__lock(); /* the registered list belongs to the registry (another thread may be registering) */
  for (k = 0; k < CT_NUM_KEYS; k++) {
    const ct_kernel *kern = k < CT_NUM_RUNTIME_KEYS ? &table->kernels[k] : ct__registered_at(op, k); /* (aliases: as registered) */
    const char *what;
    if (!ct_key_valid((ct_key)k)) continue;
    if (k < CT_NUM_RUNTIME_KEYS && !(table->mask & ct_keyset_of((ct_key)k))) what = "fallthrough";
    else if (!ct__has(kern)) what = k < CT_NUM_RUNTIME_KEYS ? "missing" : NULL;
    else what = kern->unboxed ? "unboxed" : "boxed";
    if (!what) continue;
    n = snprintf(buf + len, cap - len, "  %-26s %s%s%s%s\n", ct_key_name((ct_key)k), what,
                 ct__has(kern) ? " (" : "", ct__has(kern) && kern->source ? kern->source : "", ct__has(kern) ? ")" : "");
    if (n < 0 || (size_t)n >= cap - len) break;
    len += (size_t)n;
  }
  ct__unlock();
  return buf;
}

/* ---- calling ---- */
static ct_status ct__no_kernel(const ct_op *op, ct_keyset ks) {
  char reg[256];
  size_t len = 0;
  int k;
  ct_key key = ct_keyset_highest(ks & ct_op_table(op)->mask);
  if (key == CT_KEY_UNDEFINED) key = ct_keyset_highest(ks);
  reg[0] = '\0';
  ct__lock(); /* registered[] belongs to the registry (another thread may be registering) */
  for (k = 0; k < CT_NUM_KEYS; k++) {
    if (ct__has(ct__registered_at(op, k))) {
      int n = snprintf(reg + len, sizeof reg - len, "%s%s", len ? ", " : "", ct_key_name((ct_key)k));
      if (n < 0 || (size_t)n >= sizeof reg - len) break;
      len += (size_t)n;
    }
  }
  ct__unlock();
  return ct_fail(CT_ERR_NO_KERNEL, op->full_name, "no kernel for op '%s' at key %s; registered: %s", op->full_name,
                 key == CT_KEY_UNDEFINED ? "(none: no tensor input and no backend key)" : ct_key_name(key),
                 len ? reg : "(nothing)");
}

CTDEF ct_keyset ct_dispatch_keys(ct_keyset input_keys) {
  return (input_keys | ct__tls.keys.included | ct__global_keys) & ~ct__tls.keys.excluded;
}

CTDEF const ct_kernel *ct_dispatch_lookup(const ct_op *op, ct_keyset ks, ct_keyset *chosen) {
  const ct_dispatch_table *table;
  ct_keyset m;
  const ct_kernel *k;
  if (!op) return ct__fail_null("ct_dispatch_lookup", "op"), (const ct_kernel *)NULL;
  table = ct_op_table(op);
  m = ks & table->mask;
  k = &table->kernels[ct_keyset_highest(m)];
  if (CT_UNLIKELY(!m || !ct__has(k))) return ct__no_kernel(op, ks), (const ct_kernel *)NULL;
  if (chosen) *chosen = m;
  return k;
}

/* A factory's BackendSelect kernel: its call goes on to *device's backend
 * (None: the thread's default device, written back); 0 with an error for a
 * device type this build does not know. */
static ct_keyset ct__backend_select(const char *op, ct_keyset ks, ct_device *device) {
  ct_key k;
  if (ct_device_is_none(*device)) *device = ct_default_device();
  k = ct_device_backend_key((ct_device_type)device->type);
  if (k == CT_KEY_UNDEFINED) return ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)device->type), (ct_keyset)0;
  return (ks & ct_keys_below(CT_KEY_BACKEND_SELECT)) | ct_keyset_of(k);
}

/* ---- a failed call leaves its out= tensors as they were ----
 * A kernel resizes its out= tensor (ct__resize_out, ops.h) before computing
 * into it, and the computation can still fail (an allocation of a
 * temporary). The resize is logged here; when the outermost dispatch
 * returns, the log is dropped if the call succeeded, and each logged
 * tensor gets its sizes, strides, offset and storage back if it failed. */
typedef struct ct__undo_entry {
  ct_tensor *t;        /* retained */
  ct_storage *storage; /* the storage a resize replaced (owned), else NULL */
  int64_t offset, numel;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int ndim;
} ct__undo_entry;
#define CT__UNDO_MAX 4 /* resized outs per call (tuple out= ops have up to 3); beyond: not restored */
static CT__TLS ct__undo_entry ct__undo_log[CT__UNDO_MAX];
/* Before t's geometry changes inside a call; the entry (for the replaced storage), or NULL. */
static ct__undo_entry *ct__undo_record(ct_tensor *t) {
  ct__undo_entry *e;
  if (ct__tls.depth == 0 || ct__tls.undo_n >= CT__UNDO_MAX) return NULL;
  e = &ct__undo_log[ct__tls.undo_n++];
  e->t = ct_retain(t);
  e->storage = NULL;
  e->offset = t->offset, e->numel = t->numel, e->ndim = t->ndim;
  memcpy(e->sizes, t->sizes, sizeof e->sizes);
  memcpy(e->strides, t->strides, sizeof e->strides);
  return e;
}
static void ct__undo_settle(int ok) {
  while (ct__tls.undo_n > 0) {
    ct__undo_entry *e = &ct__undo_log[--ct__tls.undo_n]; /* newest first: the oldest state is the one left */
    ct_tensor *t = e->t;
    if (!ok) {
      if (e->storage) {
        ct_storage *made = t->storage;
        t->storage = e->storage, e->storage = made;
      }
      t->offset = e->offset, t->numel = e->numel, t->ndim = (int8_t)e->ndim;
      memcpy(t->sizes, e->sizes, sizeof e->sizes);
      memcpy(t->strides, e->strides, sizeof e->strides);
    }
    if (e->storage) ct__storage_release(e->storage);
    ct_release(t);
  }
}
/* The end of a dispatch: settles the log when it was the outermost one. */
#define CT__DISPATCH_DONE(ok)                                      \
  do {                                                             \
    ct__tls.depth--;                                               \
    if (CT_UNLIKELY(ct__tls.undo_n != 0) && ct__tls.depth == 0) ct__undo_settle(ok); \
  } while (0)

static ct_keyset ct__stack_keys(const ct_value *a, int n) {
  ct_keyset ks = 0;
  int i;
  int64_t j;
  for (i = 0; i < n; i++) {
    if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor) ks |= a[i].v.tensor->keys;
    if (a[i].tag == CT_VALUE_TENSOR_LIST)
      for (j = 0; j < a[i].v.tensors.n; j++)
        if (a[i].v.tensors.data[j]) ks |= a[i].v.tensors.data[j]->keys;
  }
  return ks;
}

static ct_status ct__run_boxed(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_stack *stack) {
  if (!k->boxed)
    return ct_fail(CT_ERR_UNSUPPORTED, op->full_name,
                   "no boxing adapter for signature '%s': this kernel can only be called unboxed", op->schema.signature);
  return k->boxed(k, op, ks, stack);
}

CTDEF ct_status ct_redispatch_boxed(const ct_op *op, ct_keyset ks, ct_stack *stack) {
  ct_keyset m;
  const ct_kernel *k;
  if (!op) return ct__fail_null("ct_redispatch_boxed", "op");
  if (!stack) return ct__fail_null("ct_redispatch_boxed", "stack");
  k = ct_dispatch_lookup(op, ks, &m);
  if (!k) return ct_last_error();
  return ct__run_boxed(op, k, m, stack);
}

CTDEF ct_status ct_call_boxed(const ct_op *op, ct_stack *stack) {
  ct_value *a;
  ct_status st;
  if (!op) return ct__fail_null("ct_call_boxed", "op");
  if (!stack) return ct__fail_null("ct_call_boxed", "stack");
  if (stack->size < op->schema.nargs)
    return ct_fail(CT_ERR_INVALID, op->full_name, "expected %d arguments on the stack, got %d", op->schema.nargs, stack->size);
  a = stack->items + stack->size - op->schema.nargs;
  if (ct__check_args(op, a, op->schema.nargs) != CT_OK || ct__check_devices(op, a, op->schema.nargs) != CT_OK)
    return ct_last_error();
  ct__tls.depth++;
  st = ct_redispatch_boxed(op, ct__call_keys(ct__stack_keys(a, op->schema.nargs)), stack);
  CT__DISPATCH_DONE(st == CT_OK);
  return st;
}

/* A typed frontend reaching a boxed-only kernel: box, call, unbox. The
 * values are the op's arguments; the op's nres tensor results are returned
 * as references in results[] (nres 0 for in-place / out= ops). */
static ct_status ct__call_boxed_kernel(const ct_op *op, const ct_kernel *k, ct_keyset ks, const ct_value *args, int n,
                                       int nres, ct_tensor **results) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS];
  ct_stack s;
  ct_status st;
  int i;
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < n; i++) s.items[s.size++] = args[i];
  st = ct__check_args(op, s.items, n);
  if (st == CT_OK) st = ct__run_boxed(op, k, ks, &s);
  for (i = nres - 1; st == CT_OK && i >= 0; i--) {
    ct_value v = ct_stack_pop(&s);
    results[i] = v.tag == CT_VALUE_TENSOR ? v.v.tensor : NULL;
    if (v.tag == CT_VALUE_TENSOR && !v.owned) ct_retain(results[i]);
  }
  ct_stack_free(&s);
  return st;
}

/* ---- the generated frontends' hot path: kernel lookup and boxed-kernel finishes ---- */
/* The kernel for a call's key set (already combined with the thread's keys). */
static inline const ct_kernel *ct__kernel_for(const ct_op *op, ct_keyset *ks) {
  const ct_dispatch_table *table = ct_op_table(op);
  ct_keyset m = *ks & table->mask;
  const ct_kernel *k = &table->kernels[ct_keyset_highest(m)];
  if (CT_LIKELY(m && k->unboxed)) {
    *ks = m;
    return k;
  }
  return ct_dispatch_lookup(op, *ks, ks);
}
/* A generated frontend's Tensor arguments, in schema order (Tensor[] ones
 * are checked by the frontend itself): the op's name, and per argument its
 * name and how it joins the call's device (ct__device_joins' `how`, or
 * CT__ARG_NO_DEVICE), with CT__ARG_OPTIONAL when NULL means None. */
#define CT__FRONTEND_TENSORS 6
#define CT__ARG_NO_DEVICE 3
#define CT__ARG_OPTIONAL 4
typedef struct ct__frontend_args {
  const char *op;
  int n;
  uint8_t how[CT__FRONTEND_TENSORS];
  const char *name[CT__FRONTEND_TENSORS];
} ct__frontend_args;
/* A frontend's check of its Tensor arguments, when its inline fast path
 * (every one given and all on one device: ct__same_device) does not apply:
 * each checked in order (not NULL unless optional, ct__device_joins), keys
 * unioned; *ks gets the call's key set (ct__call_keys). 0 after an error
 * (reported). */
static CT__COLD int ct__frontend_keys(const ct__frontend_args *d, ct_tensor *const *t, ct_keyset *ks) {
  ct__device_join dev = {{0, 0}, NULL};
  ct_keyset keys = 0;
  int i;
  for (i = 0; i < d->n; i++) {
    int how = d->how[i] & 3;
    if (!t[i]) {
      if (d->how[i] & CT__ARG_OPTIONAL) continue;
      ct__fail_null(d->op, d->name[i]);
      return 0;
    }
    keys |= t[i]->keys;
    if (how != CT__ARG_NO_DEVICE && !ct__device_joins(&dev, t[i], how, d->op, d->name[i])) return 0;
  }
  *ks = ct__call_keys(keys);
  return 1;
}
/* A typed frontend reaching a boxed-only kernel. */
static ct_tensor *ct__finish_new(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n) {
  ct_tensor *r = NULL;
  ct__call_boxed_kernel(op, k, ks, v, n, 1, &r);
  return r;
}
static ct_status ct__finish_mut(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n) {
  return ct__call_boxed_kernel(op, k, ks, v, n, 0, NULL);
}
/* ... for ops returning several tensors: the first is returned, the others
 * go to *extra[i] (NULL: released). */
static inline ct_tensor *ct__finish_tuple(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n, int nres,
                                   ct_tensor **const *extra) {
  ct_tensor *r[CT_MAX_RETURNS] = {NULL, NULL, NULL, NULL};
  int i;
  if (ct__call_boxed_kernel(op, k, ks, v, n, nres, r) != CT_OK) return NULL;
  for (i = 1; i < nres; i++) *extra[i - 1] = r[i];
  return r[0];
}
/* ... for ops returning Tensor[] (CompositeImplicitAutograd ones only). */
static int64_t ct__finish_list(const ct_op *op, const ct_kernel *k, ct_keyset ks, const ct_value *args, int n, int64_t cap,
                               ct_tensor **out) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS], v;
  ct_stack s;
  int64_t i, m = -1;
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < n; i++) s.items[s.size++] = args[i];
  if (ct__check_args(op, s.items, n) == CT_OK && ct__run_boxed(op, k, ks, &s) == CT_OK) { /* runs once: out NULL counts */
    v = s.size ? ct_stack_pop(&s) : ct_value_none();
    if (v.tag != CT_VALUE_TENSOR_LIST)
      ct_fail(CT_ERR_STATE, op->full_name, "the boxed kernel left no Tensor[] result on the stack");
    else if (out && cap < v.v.tensors.n)
      ct_fail(CT_ERR_INVALID, op->full_name, "out has room for %lld tensors, %s returns %lld", (long long)cap, op->full_name,
              (long long)v.v.tensors.n);
    else
      for (m = v.v.tensors.n, i = 0; out && i < m; i++) out[i] = ct_retain(v.v.tensors.data[i]);
    ct_value_release(&v);
  }
  ct_stack_free(&s);
  return m;
}
/* A boxed call's Tensor[] result: the kernel asked for the count, then filled. */
static inline ct_status ct__push_list(ct_stack *s, int64_t n, ct_tensor **items) {
  ct_value v = ct_value_tensor_list(items, n);
  v.owned = 1;
  if (ct_stack_push(s, v) != CT_OK) {
    ct_value_release(&v);
    return ct_last_error();
  }
  return CT_OK;
}
static inline ct_tensor *ct__unbox_tensor(const ct_value *v) { return v->tag == CT_VALUE_TENSOR ? v->v.tensor : NULL; }
static ct_status ct__push_owned(ct_stack *s, ct_tensor *r) {
  ct_value v = ct_value_tensor(r);
  v.owned = 1;
  if (ct_stack_push(s, v) != CT_OK) {
    ct_release(r);
    return ct_last_error();
  }
  return CT_OK;
}

CT_EXTERN_C_END
#endif /* CT__DISPATCH_IMPL */
