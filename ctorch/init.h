/* ctorch/init.h - registers the built-in operators, once, on first use.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The registry's global state: fallthrough keys and fallbacks. The built-in
 * ops themselves are defined on first use, each from its generated record
 * (ctorch/generated/registration.h: schema, kernels per key, autograd
 * kernel, adapter; see dispatch.h, "the built-in ops: defined on first
 * use"), or all at once where all ops matter (ct__materialize_all).
 * Keys without a functionality yet fall through for every op. Ops without
 * an autograd kernel (users' ops registered with ct_impl only) get the
 * autograd fallback: it records a node that fails with a clear error if a
 * backward reaches it, as PyTorch's autogradNotImplementedFallback.
 */
#ifndef CT_INIT_H
#define CT_INIT_H
#include "autograd.h"
#endif

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__INIT_IMPL)
#define CT__INIT_IMPL
CT_EXTERN_C_BEGIN

#ifndef CT_NO_AUTOGRAD
/* Boxed autograd kernel for ops that have none of their own. */
static ct_status ct__autograd_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *s) {
  int nargs = op->schema.nargs, i, ne = 0, need = 0;
  ct_value *a = s->items + s->size - nargs;
  ct_node *n = NULL;
  ct_keyset excluded;
  ct_status st;
  (void)self;
  for (i = 0; i < nargs; i++)
    if (a[i].tag == CT_VALUE_TENSOR) ne++, need |= ct__needs_grad(a[i].v.tensor);
  if (need && ct__grad_mode()) {
    if (op->schema.nargs && op->schema.args[0].is_write && (st = ct__check_inplace(op->full_name, a[0].v.tensor)) != CT_OK)
      return st;
    n = ct__node_new(&ct__not_impl_kind, sizeof(ct__not_impl_node), ne, op->schema.nrets ? op->schema.nrets : 1);
    if (!n) return ct_last_error();
    ((ct__not_impl_node *)n)->op = op->full_name;
    for (i = 0, ne = 0; i < nargs; i++)
      if (a[i].tag == CT_VALUE_TENSOR && (st = ct__node_set_input(n, ne++, a[i].v.tensor)) != CT_OK)
        return ct__node_release(n), st;
  }
  excluded = ct__below_autograd_begin();
  st = ct_redispatch_boxed(op, ks & CT__BELOW_AUTOGRAD, s);
  ct__below_autograd_end(excluded);
  if (n) {
    int nr = op->schema.nrets;
    for (i = 0; st == CT_OK && i < nr && i < s->size; i++) {
      ct_value *v = &s->items[s->size - nr + i];
      if (v->tag == CT_VALUE_TENSOR && v->v.tensor) /* an in-place op's self rebases (a view hands its base CopySlices) */
        st = i == 0 && op->schema.args[0].is_write ? ct__rebase_history(v->v.tensor, n) : ct__set_history(v->v.tensor, n, i);
    }
    ct__node_release(n);
  }
  return st;
}

#endif /* CT_NO_AUTOGRAD */

static const ct_key ct__default_fallthrough[] = {CT_KEY_BACKEND_SELECT, CT_KEY_AD_INPLACE_OR_VIEW, CT_KEY_AUTOCAST_CPU,
                                                 CT_KEY_AUTOCAST_CUDA};

static void ct__init(void) {
  int k;
  ct__lock();
  if (ct__initialized) {
    ct__unlock();
    return;
  }
  /* the built-ins' spec positions, filled as they are defined (ct__materialize) */
  ct__registry.ops = (ct_op **)CT_MALLOC(sizeof(ct_op *) * (size_t)CT__NUM_BUILTIN_OPS);
  if (ct__registry.ops) {
    memset(ct__registry.ops, 0, sizeof(ct_op *) * (size_t)CT__NUM_BUILTIN_OPS);
    ct__registry.cap = ct__registry.nops = ct__registry.nbuiltin = CT__NUM_BUILTIN_OPS;
  }
  for (k = 0; k < (int)(sizeof ct__default_fallthrough / sizeof ct__default_fallthrough[0]); k++)
    ct__registry.fallthrough |= ct_keyset_of(ct__default_fallthrough[k]);
#ifndef CT_NO_AUTOGRAD
  for (k = 0; k < CT_NUM_RUNTIME_KEYS; k++)
    if (ct_key_is_autograd((ct_key)k)) {
      ct__registry.fallbacks[k] = ct_kernel_boxed(ct__autograd_fallback, NULL);
      ct__registry.fallbacks[k].source = "autograd fallback";
    }
#else /* inference only: no op has an autograd kernel and no tensor requires grad (ct_set_requires_grad) */
  for (k = 0; k < CT_NUM_RUNTIME_KEYS; k++)
    if (ct_key_is_autograd((ct_key)k)) ct__registry.fallthrough |= ct_keyset_of((ct_key)k);
#endif
  ct__autograd_release_hook = ct__autograd_release; /* the tensor layer frees autograd metadata through it */
  ct__atomic_store(&ct__initialized, 1);
  ct__unlock();
  ct__print_summary_if_verbose();
}

/* where a built-in's kernel comes from (ct_op_dump), by CT__SOURCE_* */
static const char *const ct__kernel_sources[] = {"reference", "structured", "composite", "autograd", "backend select"};
/* Defines the built-in op of record d (registry lock held): its signature's
 * adapter if no op had it yet, the op at its spec position, its kernels,
 * then its table, once; the handle is published last. */
static ct_op *ct__materialize_locked(const ct__op_def *d) {
  ct_op *op = *d->handle;
  int i;
  if (op) return op;
  if (!ct__registry.ops) return ct_fail(CT_ERR_OOM, "ct_init", "out of memory for the registry"), (ct_op *)NULL;
  op = ct__registry.ops[d->index];
  if (!op) {
    ct_schema s;
    ct__schema_expand(&d->schema, &s); /* pre-parsed: no parsing here */
    if (!ct__adapter_for(s.signature) && !ct__add_adapter_locked(s.signature, d->adapter)) return NULL;
    ct__registry.building = 1; /* the table is computed once, below */
    op = ct__def_schema_locked(&s, "ct_init", d->index);
    if (op) {
      op->frontend = d->frontend, op->frontend_fn = d->frontend_fn;
      op->device_rule = d->device_rule;
      op->dynamic_output_shape = d->dynamic_output_shape;
      for (i = 0; i < d->nkernels; i++) {
        ct_kernel kern = ct_kernel_unboxed(d->kernels[i].fn);
        kern.source = ct__kernel_sources[d->kernels[i].source];
        ct__impl_op_locked(op, (ct_key)d->kernels[i].key, kern, "ct_init");
      }
    }
    ct__registry.building = 0;
    if (!op) return NULL;
  }
  if (!op->dispatch && ct__recompute(op) != CT_OK) return NULL; /* (defined, no table yet: the next use tries again) */
  ct__atomic_store(d->handle, op);
  return op;
}
/* A typed call's first use of a built-in (the generated ct__dispatch_<op>). */
static CT__COLD ct_op *ct__materialize(const ct__op_def *d) {
  ct_op *op;
  ct__ensure_init();
  ct__lock();
  op = ct__materialize_locked(d);
  ct__unlock();
  return op;
}
/* Every built-in, in spec order: the only reference to the index of all
 * records, so a program that never enumerates or names ops links none but
 * those it calls. */
static void ct__materialize_all(void) {
  int i, ok = 1;
  ct__ensure_init();
  ct__lock();
  if (!ct__all_defined) {
    for (i = 0; i < CT__NUM_BUILTIN_OPS; i++)
      if (!ct__materialize_locked(ct__generated_ops[i]())) ok = 0;
    if (ok) ct__atomic_store(&ct__all_defined, 1);
  }
  ct__unlock();
}

/* ---- the engines' loops per device type (ops/pointwise.h, ops/reduce.h) ----
 * Here, above the generated tables: setting a device type's loop registers
 * the engine's kernels (ct__generated_engine_kernels) at the type's backend
 * key, except where a kernel is already registered; removing it (loop NULL)
 * removes the kernels it registered. */
static const char *const ct__engine_sources[] = {"pointwise engine", "reduction engine", "index engine", "random engine"};
static ct_status ct__set_engine_loop(int engine, const char *fn, ct_device_type type, void (*loop)(void), void (**slot)(void)) {
  ct_key key;
  ct_status st = CT_OK;
  size_t i;
  if ((unsigned)type >= CT_DEVICE_NUM || type == CT_DEVICE_META || (type == CT_DEVICE_CPU && !loop))
    return ct_fail(CT_ERR_INVALID, fn, "device type %d cannot take a%s loop%s", (int)type,
                   engine == CT__ENGINE_RANDOM ? " random" : engine == CT__ENGINE_INDEX ? "n index" : engine ? " reduction" : " pointwise",
                   type == CT_DEVICE_META ? " (meta runs meta steps only)" : type == CT_DEVICE_CPU ? " of NULL" : "");
  ct__ensure_all();
  key = ct_device_backend_key(type);
  ct__lock();
  if (loop) ct__atomic_store(&slot[type], loop); /* before its kernels are visible */
  for (i = 0; type != CT_DEVICE_CPU && i < sizeof ct__generated_engine_kernels / sizeof ct__generated_engine_kernels[0]; i++) {
    ct_op *op = ct__generated_engine_kernels[i].engine == engine ? *ct__generated_engine_kernels[i].op : NULL;
    const ct_kernel *have = op ? ct__registered_at(op, key) : NULL;
    if (!op) continue;
    if (loop && !ct__has(have)) {
      ct_kernel kern = ct_kernel_unboxed(ct__generated_engine_kernels[i].fn);
      kern.source = ct__engine_sources[engine];
      if ((st = ct__set_registered(op, key, kern, fn)) != CT_OK || (st = ct__recompute(op)) != CT_OK) break;
    } else if (!loop && ct__has(have) && have->source == ct__engine_sources[engine]) {
      ct__set_registered(op, key, ct__kernel_none, fn); /* (a removal allocates nothing) */
      if ((st = ct__recompute(op)) != CT_OK) break;
    }
  }
  if (!loop && st == CT_OK) ct__atomic_store(&slot[type], loop);
  ct__unlock();
  return st;
}
/* ---- structured families' impl steps per device type (ops/structured.h) ---- */
static const char ct__structured_source[] = "structured impl";
CTDEF ct_status ct_set_structured_impl(const char *op, ct_device_type type, ct_unboxed_fn fn) {
  static const char *name = "ct_set_structured_impl";
  ct_unboxed_fn *impls = NULL;
  ct_status st = CT_OK;
  ct_key key;
  size_t i, n = sizeof ct__generated_structured / sizeof ct__generated_structured[0];
  if (!op) return ct_fail(CT_ERR_NULL, name, "op is NULL");
  for (i = 0; i < n && !impls; i++)
    if (!strcmp(ct__generated_structured[i].family, op)) impls = ct__generated_structured[i].impls;
  if (!impls) return ct_fail(CT_ERR_INVALID, name, "'%s' is not a structured op family (its out= op, e.g. \"tril.out\")", op);
  if ((unsigned)type >= CT_DEVICE_NUM || type == CT_DEVICE_META || (type == CT_DEVICE_CPU && !fn))
    return ct_fail(CT_ERR_INVALID, name, "device type %d cannot take %s impl step%s", (int)type, fn ? "an" : "a NULL",
                   type == CT_DEVICE_META ? " (meta runs meta steps only)" : "");
  ct__ensure_all();
  key = ct_device_backend_key(type);
  ct__lock();
  if (fn) ct__atomic_store(&impls[type], fn); /* before its kernels are visible */
  for (i = 0; type != CT_DEVICE_CPU && i < n; i++) {
    ct_op *o = ct__generated_structured[i].impls == impls ? *ct__generated_structured[i].op : NULL;
    const ct_kernel *have = o ? ct__registered_at(o, key) : NULL;
    if (!o) continue;
    if (fn && !ct__has(have)) {
      ct_kernel kern = ct_kernel_unboxed(ct__generated_structured[i].glue);
      kern.source = ct__structured_source;
      if ((st = ct__set_registered(o, key, kern, name)) != CT_OK || (st = ct__recompute(o)) != CT_OK) break;
    } else if (!fn && ct__has(have) && have->source == ct__structured_source) {
      ct__set_registered(o, key, ct__kernel_none, name);
      if ((st = ct__recompute(o)) != CT_OK) break;
    }
  }
  if (!fn && st == CT_OK) ct__atomic_store(&impls[type], fn);
  ct__unlock();
  return st;
}

CTDEF ct_status ct_set_pointwise_loop(ct_device_type type, ct_pointwise_loop_fn loop) {
  return ct__set_engine_loop(CT__ENGINE_POINTWISE, "ct_set_pointwise_loop", type, (void (*)(void))loop, ct__pw_loops);
}
CTDEF ct_status ct_set_reduction_loop(ct_device_type type, ct_reduction_loop_fn loop) {
  return ct__set_engine_loop(CT__ENGINE_REDUCTION, "ct_set_reduction_loop", type, (void (*)(void))loop, ct__rd_loops);
}
CTDEF ct_status ct_set_index_loop(ct_device_type type, ct_index_loop_fn loop) {
  return ct__set_engine_loop(CT__ENGINE_INDEX, "ct_set_index_loop", type, (void (*)(void))loop, ct__ix_loops);
}
CTDEF ct_status ct_set_random_loop(ct_device_type type, ct_random_loop_fn loop) {
  return ct__set_engine_loop(CT__ENGINE_RANDOM, "ct_set_random_loop", type, (void (*)(void))loop, ct__rn_loops);
}

CT_EXTERN_C_END
#endif /* CT__INIT_IMPL */
