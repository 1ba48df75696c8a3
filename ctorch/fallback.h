/* ctorch/fallback.h - the CPU fallback: run any op of a device on the CPU.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A boxed kernel (PyTorch's cpu_fallback, used by XLA and MPS) that a
 * backend registers for its key, for every op (ct_fallback) or per op
 * (ct_impl): it copies the tensor arguments to the CPU through the device
 * interface, runs the op's CPU kernel, copies written arguments (in-place
 * self, out=) back into the device tensors, and returns new results on the
 * device of the op's tensor arguments. A new device runs every model on day
 * one while its own kernels grow; its own kernels win over the fallback.
 *
 *   ct_fallback(CT_KEY_PRIVATEUSE1, ct_kernel_boxed(ct_cpu_fallback, NULL));
 *
 * Limits, as PyTorch's: results are new tensors on the device (a view op
 * through the fallback returns a copy, not a view: register the view kernels
 * for the device, as ctorch does for every backend); an out= is computed
 * into a host copy and copied back; every call synchronises with the host.
 * Other arguments keep their aliasing: the device memory they use is
 * mirrored on the host one storage region at a time, so the CPU kernel
 * computes, or refuses, exactly what it would on the CPU (x.add_(x.t()) is
 * refused; an overlapping as_strided self is written element by element).
 * ct_cpu_fallback_set_warn(true) (or CT_VERBOSE=1 in the environment) prints
 * one line per op the first time the fallback serves it.
 */
#ifndef CT_FALLBACK_H
#define CT_FALLBACK_H

#include "dispatch.h"

CT_EXTERN_C_BEGIN

CTDEF ct_status ct_cpu_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack);
CTDEF void ct_cpu_fallback_set_warn(bool on);

CT_EXTERN_C_END

#endif /* CT_FALLBACK_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__FALLBACK_IMPL)
#define CT__FALLBACK_IMPL
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
CT_EXTERN_C_BEGIN

static int ct__fallback_warn = -1; /* -1: not yet read from CT_VERBOSE */

CTDEF void ct_cpu_fallback_set_warn(bool on) { ct__atomic_store(&ct__fallback_warn, on ? 1 : 0); }

/* Prints once per op (a flag per op name hash; a collision only loses a line). */
static void ct__fallback_note(const ct_op *op, ct_device dev) {
  static int seen[256];
  int w = ct__atomic_load(&ct__fallback_warn);
  unsigned h = 5381;
  const char *p;
  if (w < 0) {
    const char *e = getenv("CT_VERBOSE");
    w = e && *e && *e != '0';
    ct__atomic_store(&ct__fallback_warn, w);
  }
  if (!w) return;
  for (p = op->full_name; *p; p++) h = h * 33u + (unsigned char)*p;
  if (ct__atomic_add(&seen[h & 255u], 1) == 0)
    fprintf(stderr, "ctorch: %s has no %s kernel; running it on the CPU (ct_cpu_fallback)\n", op->full_name,
            ct_device_type_name((ct_device_type)dev.type));
}

/* The device memory the arguments use, mirrored on the host: one region per
 * device storage, spanning the bytes of every argument on it. Each argument
 * becomes a host view with its own sizes, strides and offset into its
 * region, so arguments that alias each other (x.add_(x.t())) or overlap
 * themselves (as_strided) alias on the host exactly as on the device, and the
 * CPU kernel computes what it would compute on the CPU. */
typedef struct ct__fallback_region {
  ct_storage *device_storage; /* borrowed */
  size_t lo, hi;              /* bytes [lo, hi) of it; lo 8-aligned so that every dtype's offset divides */
  ct_storage *host;           /* owned */
  int dirty;                  /* written by the kernel: copied back */
} ct__fallback_region;
/* The byte span of a non-empty tensor with non-negative strides; 0 when it has none (then copied plainly). */
static int ct__fallback_span(const ct_tensor *t, size_t *lo, size_t *hi) {
  int64_t last = t->offset;
  size_t es = ct_dtype_size((ct_dtype)t->dtype);
  int d;
  if (t->numel == 0 || !t->storage->data) return 0;
  for (d = 0; d < t->ndim; d++) {
    if (t->strides[d] < 0) return 0;
    last += (t->sizes[d] - 1) * t->strides[d];
  }
  *lo = ((size_t)t->offset * es) & ~(size_t)7;
  *hi = (size_t)(last + 1) * es;
  return *hi <= t->storage->nbytes;
}
static ct__fallback_region *ct__fallback_region_of(ct__fallback_region *r, int n, const ct_storage *s) {
  int k;
  for (k = 0; k < n; k++)
    if (r[k].device_storage == s) return &r[k];
  return NULL;
}
/* t on the host: a view into its region's mirror, or (empty, negative strides) a plain copy */
static ct_tensor *ct__fallback_host_view(ct_tensor *t, ct__fallback_region *r, int n) {
  size_t lo, hi, es = ct_dtype_size((ct_dtype)t->dtype);
  ct__fallback_region *g;
  if (t->device.type == CT_DEVICE_CPU || !ct__fallback_span(t, &lo, &hi) || !(g = ct__fallback_region_of(r, n, t->storage)))
    return ct__host_operand("ct_cpu_fallback", t);
  ct__atomic_add(&g->host->refcount, 1);
  return ct__tensor_wrap(g->host, (ct_dtype)t->dtype, t->ndim, t->sizes, t->strides,
                         (int64_t)(((size_t)t->offset * es - g->lo) / es), t->numel);
}
/* Add t's span to the regions (n of them, room for one more) */
static void ct__fallback_add_span(ct__fallback_region *r, int *n, const ct_tensor *t) {
  size_t lo, hi;
  ct__fallback_region *g;
  if (!t || t->device.type == CT_DEVICE_CPU || !ct__fallback_span(t, &lo, &hi)) return;
  if ((g = ct__fallback_region_of(r, *n, t->storage)) != NULL) {
    if (lo < g->lo) g->lo = lo;
    if (hi > g->hi) g->hi = hi;
    return;
  }
  g = &r[(*n)++];
  g->device_storage = t->storage, g->lo = lo, g->hi = hi, g->host = NULL, g->dirty = 0;
}

/* A result of the CPU kernel on dev (a new reference): CPU results are copied, others kept. */
static ct_tensor *ct__fallback_result(ct_tensor *r, ct_device dev) {
  return r->device.type == CT_DEVICE_CPU ? ct__host_result("ct_cpu_fallback", ct_retain(r), dev) : ct_retain(r);
}
CTDEF ct_status ct_cpu_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack) {
  const ct_schema *sc;
  ct_value *a, *cargs = NULL, *res;
  ct_tensor **owned = NULL; /* CPU copies made here, released at the end */
  ct__fallback_region *regions = NULL;
  int nregions = 0, k;
  int nargs, nowned = 0, maxowned = 0, i, nres, pushed = 0, dropped = 0;
  int64_t j;
  ct_device dev = CT_CPU;
  ct_stack cs;
  ct_status st = CT_OK;
  (void)self;
  if (!op || !stack) return ct__fail_null("ct_cpu_fallback", !op ? "op" : "stack");
  sc = &op->schema;
  nargs = sc->nargs;
  if (stack->size < nargs)
    return ct_fail(CT_ERR_INVALID, op->full_name, "expected %d arguments on the stack, got %d", nargs, stack->size);
  a = stack->items + stack->size - nargs;
  /* the device: that of the tensor arguments not on the CPU (all on one) */
  for (i = 0; i < nargs; i++) {
    int64_t n = a[i].tag == CT_VALUE_TENSOR ? 1 : a[i].tag == CT_VALUE_TENSOR_LIST ? a[i].v.tensors.n : 0;
    for (j = 0; j < n; j++) {
      const ct_tensor *t = a[i].tag == CT_VALUE_TENSOR ? a[i].v.tensor : a[i].v.tensors.data[j];
      maxowned++;
      if (!t || t->device.type == CT_DEVICE_CPU) continue;
      if (dev.type == CT_DEVICE_CPU) dev = t->device;
      else if (!ct_device_eq(dev, t->device)) {
        ct_stack_drop(stack, nargs);
        return ct_fail(CT_ERR_DEVICE, op->full_name, "Expected all tensors to be on the same device, but found at least two devices, %s:%d and %s:%d! (argument '%s')",
                       ct_device_type_name((ct_device_type)dev.type), dev.index, ct_device_type_name((ct_device_type)t->device.type),
                       t->device.index, sc->args[i].name);
      }
    }
  }
  if (dev.type == CT_DEVICE_META) {
    ct_stack_drop(stack, nargs);
    return ct_fail(CT_ERR_DEVICE, op->full_name, "the CPU fallback cannot run an op on meta tensors");
  }
  ct__fallback_note(op, dev);
  cargs = (ct_value *)CT_MALLOC(sizeof(ct_value) * (size_t)(nargs > 0 ? nargs : 1));
  owned = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)(maxowned > 0 ? maxowned : 1));
  regions = (ct__fallback_region *)CT_MALLOC(sizeof(ct__fallback_region) * (size_t)(maxowned > 0 ? maxowned : 1));
  if (!cargs || !owned || !regions) {
    st = ct_fail(CT_ERR_OOM, op->full_name, "out of memory in the CPU fallback");
    goto done;
  }
  ct_stack_init(&cs, NULL, 0);
  /* the device memory of the tensor arguments, mirrored on the host */
  for (i = 0; i < nargs; i++) {
    if (a[i].tag == CT_VALUE_TENSOR && !(sc->args[i].is_write && i > 0)) /* (an out= is copied: the kernel may resize it) */
      ct__fallback_add_span(regions, &nregions, a[i].v.tensor);
    for (j = 0; a[i].tag == CT_VALUE_TENSOR_LIST && j < a[i].v.tensors.n; j++)
      ct__fallback_add_span(regions, &nregions, a[i].v.tensors.data[j]);
  }
  for (k = 0; k < nregions && st == CT_OK; k++) {
    ct__fallback_region *g = &regions[k];
    g->host = ct__storage_new(g->hi - g->lo, CT_CPU, "ct_cpu_fallback");
    if (!g->host) st = ct_last_error();
    else st = ct_device_memcpy(g->host->data, CT_CPU, (const char *)g->device_storage->data + g->lo, g->device_storage->device,
                               g->hi - g->lo, false);
  }
  /* arguments: tensors (and tensors of lists) as host views, the rest as they are */
  for (i = 0; i < nargs && st == CT_OK; i++) {
    cargs[i] = a[i];
    cargs[i].owned = 0;
    if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor) {
      ct_tensor *c = sc->args[i].is_write && i > 0 ? ct__host_operand("ct_cpu_fallback", a[i].v.tensor)
                                                    : ct__fallback_host_view(a[i].v.tensor, regions, nregions);
      if (!c) st = ct_last_error();
      else owned[nowned++] = c, cargs[i].v.tensor = c;
    } else if (a[i].tag == CT_VALUE_TENSOR_LIST && a[i].v.tensors.n > 0) {
      int first = nowned;
      for (j = 0; j < a[i].v.tensors.n && st == CT_OK; j++) {
        ct_tensor *t = a[i].v.tensors.data[j], *c = t ? ct__fallback_host_view(t, regions, nregions) : NULL;
        if (t && !c) st = ct_last_error();
        else owned[nowned++] = c;
      }
      cargs[i].v.tensors.data = owned + first;
    }
  }
  for (i = 0; i < nargs && st == CT_OK; i++) st = ct_stack_push(&cs, cargs[i]);
  /* the CPU kernel: below this backend, with the CPU as the backend */
  if (st == CT_OK) { /* (random kernels draw from the device's generators: ops/random.h ct__rn_pick) */
    int8_t saved[2];
    memcpy(saved, ct__tls.fallback_device, sizeof saved);
    ct__tls.fallback_device[0] = (int8_t)dev.type, ct__tls.fallback_device[1] = (int8_t)dev.index;
    st = ct_redispatch_boxed(op, (ks & ~CT_BACKEND_KEYS) | ct_keyset_of(CT_KEY_CPU), &cs);
    memcpy(ct__tls.fallback_device, saved, sizeof saved);
  }
  if (st != CT_OK) goto free_stack;
  /* written arguments back to the device (a failed call wrote nothing: PyTorch's rule): the regions
   * they were written in, whole; an out= the kernel resized (new sizes or storage) by a copy */
  for (i = 0; i < nargs; i++)
    if (sc->args[i].is_write && a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor && a[i].v.tensor != cargs[i].v.tensor) {
      ct_tensor *d = a[i].v.tensor, *c = cargs[i].v.tensor;
      ct__fallback_region *g = ct__fallback_region_of(regions, nregions, d->storage);
      if (g && g->host == c->storage && c->ndim == d->ndim && !memcmp(c->sizes, d->sizes, sizeof(int64_t) * (size_t)d->ndim) &&
          !memcmp(c->strides, d->strides, sizeof(int64_t) * (size_t)d->ndim))
        g->dirty = 1;
    }
  for (k = 0; k < nregions && st == CT_OK; k++)
    if (regions[k].dirty)
      st = ct_device_memcpy((char *)regions[k].device_storage->data + regions[k].lo, regions[k].device_storage->device,
                            regions[k].host->data, CT_CPU, regions[k].hi - regions[k].lo, false);
  for (i = 0; i < nargs && st == CT_OK; i++)
    if (sc->args[i].is_write && a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor && a[i].v.tensor != cargs[i].v.tensor) {
      ct_tensor *d = a[i].v.tensor, *c = cargs[i].v.tensor;
      ct__fallback_region *g = ct__fallback_region_of(regions, nregions, d->storage);
      if (g && g->dirty && g->host == c->storage) { /* written back with its region */
        ct__bump_version(d);
        continue;
      }
      /* an out= may have been resized on the CPU: resize the device tensor to match */
      if ((d->ndim != c->ndim || memcmp(d->sizes, c->sizes, sizeof(int64_t) * (size_t)c->ndim)) &&
          (st = ct__resize_out(op->full_name, d, c->ndim, c->sizes)) != CT_OK)
        break;
      st = ct_copy_(d, c);
    }
  if (st != CT_OK) goto free_stack;
  /* results: a written argument's alias is the device tensor itself; new tensors go to the device */
  nres = cs.size;
  res = cs.items;
  ct_stack_drop(stack, nargs);
  dropped = 1;
  for (i = 0; i < nres && st == CT_OK; i++) {
    ct_value v = res[i], out = v;
    const ct_arg *r = i < sc->nrets ? &sc->rets[i] : NULL;
    out.owned = 0;
    if (v.tag == CT_VALUE_TENSOR && v.v.tensor) {
      ct_tensor *d = NULL;
      if (r && r->alias)
        for (k = 0; k < nargs && !d; k++)
          if (sc->args[k].alias == r->alias && a[k].tag == CT_VALUE_TENSOR) d = a[k].v.tensor;
      if (d) {
        out.v.tensor = d; /* borrowed, as every written return */
      } else {
        out.v.tensor = ct__fallback_result(v.v.tensor, dev);
        if (!out.v.tensor) st = ct_last_error();
        out.owned = 1;
      }
    } else if (v.tag == CT_VALUE_TENSOR_LIST) {
      ct_tensor **items = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)(v.v.tensors.n > 0 ? v.v.tensors.n : 1));
      if (!items) {
        st = ct_fail(CT_ERR_OOM, op->full_name, "out of memory in the CPU fallback");
        break;
      }
      for (j = 0; j < v.v.tensors.n; j++) {
        items[j] = v.v.tensors.data[j] ? ct__fallback_result(v.v.tensors.data[j], dev) : NULL;
        if (v.v.tensors.data[j] && !items[j]) {
          st = ct_last_error();
          while (j-- > 0) ct_release(items[j]);
          CT_FREE(items);
          items = NULL;
          break;
        }
      }
      if (!items) break;
      out.v.tensors.data = items;
      out.owned = 1;
    }
    if (st == CT_OK && ct_stack_push(stack, out) != CT_OK) {
      st = ct_last_error();
      ct_value_release(&out);
    } else if (st == CT_OK) {
      pushed++;
    }
  }
  if (st != CT_OK) ct_stack_drop(stack, pushed); /* all results or none */
free_stack:
  ct_stack_free(&cs);
done:
  if (!dropped) ct_stack_drop(stack, nargs);
  while (nowned-- > 0) ct_release(owned[nowned]);
  for (k = 0; regions && k < nregions; k++)
    if (regions[k].host) ct__storage_release(regions[k].host);
  CT_FREE(regions);
  CT_FREE(owned);
  CT_FREE(cargs);
  return st;
}

CT_EXTERN_C_END
#endif /* CT__FALLBACK_IMPL */
