/* ctorch/ops/structured.h - structured kernels: an op family's meta step, written once, and one impl step per backend.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * PyTorch's structured kernels (TORCH_META_FUNC / TORCH_IMPL_FUNC), for ops
 * that are neither pointwise nor reductions (those have their engines). A
 * family (functional, in-place, out=) is declared on its out= schema:
 *
 *   func: tril.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)
 *   structured: ct__meta_tri           the meta step
 *   kernel: CPU = ct__impl_tril        the CPU's impl step
 *   func: tril(Tensor self, int diagonal=0) -> Tensor
 *   structured_delegate: tril.out      (and tril_ likewise)
 *
 * The meta step, `ct_status meta(ct__structured *st, args...)` (the out=
 * schema's arguments less the outputs), checks the arguments and declares
 * each output with ct__set_output (sizes, dtype, device). It never reads
 * tensor data, so it is all the Meta device runs. The impl step, `ct_status
 * impl(args..., ct_tensor *out0, ...)`, computes into outputs it is given:
 * always contiguous, never sharing memory with an input (the glue hands it a
 * contiguous proxy when the caller's out= or in-place tensor is not, and
 * copies the proxy back). There is one impl per device type (PyTorch's
 * DispatchStub): the CPU's from the spec, a backend's set with
 * ct_set_structured_impl. ctgen emits the glue per variant (begin, meta,
 * the impl of the outputs' device type, finish), registered at CPU and at
 * each backend key with an impl, and the Meta kernel (the meta step alone).
 * Checks that need data belong in the impl step. */
#ifndef CT_OPS_STRUCTURED_H
#define CT_OPS_STRUCTURED_H

#include "../ops.h"

CT_EXTERN_C_BEGIN

enum { CT__ST_FUNCTIONAL, CT__ST_INPLACE, CT__ST_OUT };
#define CT__ST_MAX_OUT 4
#define CT__ST_MAX_IN 8

/* One call of a structured op: what the caller gave, what impl writes. */
typedef struct ct__structured {
  const char *op;
  int variant;                        /* CT__ST_FUNCTIONAL, _INPLACE or _OUT */
  int meta_only;                      /* the Meta device: no impl, no proxies */
  int nin;
  ct_tensor *const *in;               /* the tensor inputs (NULL entries: None) */
  ct_tensor *given[CT__ST_MAX_OUT];   /* out= tensors, or self in place */
  ct_tensor *out[CT__ST_MAX_OUT];     /* what impl writes: given, a new tensor, or a proxy */
  int nout;                           /* outputs declared so far */
} ct__structured;

/* A device type's impl step of a structured family (a backend's, PyTorch's
 * DispatchStub): op names the family's out= op ("tril.out"; a family
 * without an out= form, its functional op), fn has the type ct_impl_<op>
 * (ctorch/generated/functions.h: the op's inputs, then one ct_tensor * per
 * output), and computes into contiguous outputs on that device that share
 * no memory with an input. The family's variants (functional, in-place,
 * out=) get their kernels at the device type's backend key, where none is
 * registered yet; NULL removes them. The CPU's impl can be replaced, not
 * removed; Meta runs meta steps only. */
CTDEF ct_status ct_set_structured_impl(const char *op, ct_device_type type, ct_unboxed_fn fn);
#define CT_STRUCTURED_IMPL(handle, fn) ((ct_unboxed_fn)(void (*)(void))(1 ? (fn) : (ct_impl_##handle *)0))

CT_EXTERN_C_END
#endif /* CT_OPS_STRUCTURED_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_STRUCTURED_IMPL)
#define CT__OPS_STRUCTURED_IMPL
CT_EXTERN_C_BEGIN

/* (given[] is the glue's to fill; out[] is read up to nout only) */
static inline void ct__st_begin(ct__structured *st, const char *op, int variant, int meta_only, int nin, ct_tensor *const *in) {
  st->op = op, st->variant = variant, st->meta_only = meta_only, st->nin = nin, st->in = in, st->nout = 0;
}

/* Does t share memory with one of the call's tensor inputs? (then impl,
 * which may read an input after writing its output, gets a proxy) */
static int ct__st_aliases_input(const ct__structured *st, const ct_tensor *t) {
  int i;
  for (i = 0; i < st->nin; i++)
    if (st->in[i] && ct__overlap_status(t, st->in[i]) != CT__OVERLAP_NO) return 1;
  return 0;
}

/* Output i of the call has these sizes, dtype and device: the meta step's
 * one way to say so (PyTorch's set_output_raw_strided). Outputs are
 * declared in order.
 *   functional: a new contiguous tensor;
 *   out=: out must have the dtype and the device (PyTorch's resize_out); it
 *     is resized, and must not write one address twice;
 *   in place: self must have the dtype, device and sizes (check_inplace). */
static ct_status ct__set_output(ct__structured *st, int i, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device) {
  ct_tensor *g;
  ct_status s;
  int defer;
  char b1[160], b2[160];
  if (i != st->nout || i >= CT__ST_MAX_OUT) return ct_fail(CT_ERR_STATE, st->op, "structured meta step: output %d declared out of order", i);
  if (st->variant == CT__ST_FUNCTIONAL) {
    if (!(st->out[i] = ct__empty(st->op, ndim, sizes, dtype, device))) return ct_last_error();
    st->nout++;
    return CT_OK;
  }
  g = st->given[i];
  if (st->variant == CT__ST_INPLACE) {
    if (g->dtype != dtype)
      return ct_fail(CT_ERR_DTYPE, st->op, "Bad in-place call: input tensor dtype %s and output tensor dtype %s should match",
                     ct_dtype_name((ct_dtype)g->dtype), ct_dtype_name(dtype));
    if (!ct_device_eq(g->device, device))
      return ct_fail(CT_ERR_DEVICE, st->op, "Bad in-place call: input tensor device %s and output tensor device %s should match",
                     ct_device_type_name((ct_device_type)g->device.type), ct_device_type_name((ct_device_type)device.type));
    if (!ct__out_has_shape(g, ndim, sizes))
      return ct_fail(CT_ERR_SHAPE, st->op, "Bad in-place call: input tensor size %s and output tensor size %s should match",
                     ct_shape_format(g->ndim, g->sizes, b1, sizeof b1), ct_shape_format(ndim, sizes, b2, sizeof b2));
  } else {
    if (g->dtype != dtype)
      return ct_fail(CT_ERR_DTYPE, st->op, "Expected out tensor to have dtype %s, but got %s instead", ct_dtype_name(dtype),
                     ct_dtype_name((ct_dtype)g->dtype));
    if (!ct__out_device_ok(st->op, g, device)) return ct_last_error();
  }
  if ((s = ct__check_writable(st->op, g)) != CT_OK) return s;
  /* an out= tensor that shares memory with an input and must change shape
   * (out=self of a pad or a narrow_copy) is resized by ct__st_finish, once
   * impl has read the input as it was: impl writes a proxy until then */
  defer = st->variant == CT__ST_OUT && !st->meta_only && !ct__out_has_shape(g, ndim, sizes) && ct__st_aliases_input(st, g);
  if (st->variant == CT__ST_OUT && !defer && (s = ct__resize_out(st->op, g, ndim, sizes)) != CT_OK) return s;
  st->out[i] = g;
  if (!st->meta_only && (defer || (g->numel && (!ct_is_contiguous(g) || ct__st_aliases_input(st, g)))) &&
      !(st->out[i] = ct__empty(st->op, ndim, sizes, dtype, device)))
    return ct_last_error();
  st->nout++;
  return CT_OK;
}

/* After meta and impl (s: how they went; nout: the outputs the schema
 * has). On success, proxies are copied into the given tensors (resized
 * first where ct__set_output deferred it) and every
 * written tensor gets a new version; on failure, new outputs and proxies
 * are released. */
static ct_status ct__st_finish(ct__structured *st, ct_status s, int nout) {
  int i;
  if (s == CT_OK && st->nout != nout)
    s = ct_fail(CT_ERR_STATE, st->op, "structured meta step declared %d of %d outputs", st->nout, nout);
  for (i = 0; i < st->nout; i++) {
    ct_tensor *g, *o = st->out[i];
    if (st->variant == CT__ST_FUNCTIONAL) {
      if (s != CT_OK) ct_release(o), st->out[i] = NULL;
      continue;
    }
    if (o != (g = st->given[i])) {
      if (s == CT_OK && st->variant == CT__ST_OUT) s = ct__resize_out(st->op, g, o->ndim, o->sizes); /* (deferred: no-op otherwise) */
      if (s == CT_OK) s = ct__copy_impl(g, o);
      ct_release(o);
      st->out[i] = g;
    }
  }
  for (i = 0; s == CT_OK && !st->meta_only && st->variant != CT__ST_FUNCTIONAL && i < st->nout; i++) ct__bump_version(st->given[i]);
  return s;
}

/* Whether a device type has an engine's loop (the spec's generic impl of
 * the engine's calls serves it): one function per engine, so a structured
 * op references its own engine's loops only (inline: unused ones are fine). */
typedef int (*ct__st_engine_fn)(int type);
static inline int ct__st_engine_pointwise(int type) { return ct_pointwise_loop((ct_device_type)type) != NULL; }
static inline int ct__st_engine_reduction(int type) { return ct_reduction_loop((ct_device_type)type) != NULL; }
static inline int ct__st_engine_index(int type) { return ct_index_loop((ct_device_type)type) != NULL; }
static inline int ct__st_engine_random(int type) { return ct_random_loop((ct_device_type)type) != NULL; }
/* The impl step of the call's device type (the outputs'), or NULL and an
 * error. engine (one of the above, or NULL): the spec's impl, generic, is
 * made of that engine's calls, so it serves every device type with the
 * engine's loop (even when a backend replaced the CPU's). */
static ct_unboxed_fn ct__st_impl(const ct__structured *st, ct_unboxed_fn *impls, ct__st_engine_fn engine, ct_unboxed_fn generic) {
  ct_unboxed_fn fn;
  int type = st->nout ? (int)st->out[0]->device.type : (int)CT_DEVICE_CPU;
  if ((unsigned)type >= CT_DEVICE_NUM) type = CT_DEVICE_CPU; /* (not reached: a device type is in range) */
  if ((fn = ct__atomic_load(&impls[type])) != NULL) return fn;
  if (engine && engine(type)) return generic;
  return ct_fail(CT_ERR_UNSUPPORTED, st->op, "no impl step for device type %s", ct_device_type_name((ct_device_type)type)),
         (ct_unboxed_fn)NULL;
}

/* The functional variant's result: its first output; the others go to the
 * caller's pointers (NULL: released). */
static ct_tensor *ct__st_result(ct__structured *st, ct_status s, int nout, ct_tensor **extra1, ct_tensor **extra2) {
  ct_tensor **extra[2];
  int i;
  extra[0] = extra1, extra[1] = extra2;
  if ((s != CT_OK || st->nout != nout) && ct__st_finish(st, s, nout) != CT_OK) return NULL; /* (functional: nothing else to finish) */
  for (i = 1; i < st->nout; i++) {
    if (i <= 2 && extra[i - 1]) *extra[i - 1] = st->out[i];
    else ct_release(st->out[i]);
  }
  return st->out[0];
}

CT_EXTERN_C_END
#endif /* CT__OPS_STRUCTURED_IMPL */
