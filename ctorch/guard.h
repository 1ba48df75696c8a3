/* ctorch/guard.h - scoped guards: no-grad, inference mode, key include and
 * exclude, device, and temporaries scopes.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Every guard is an explicit pair, usable in any C compiler (MSVC too):
 *     ct_guard g; ct_no_grad_begin(&g); ...; ct_guard_end(&g);
 * and a block macro over the same pair:
 *     CT_NO_GRAD { ... }
 * The macro is a single-pass `for` whose exit action runs when the body
 * finishes. Where CT_HAVE_CLEANUP is 1 (GCC, Clang) the guard variable also
 * carries __attribute__((cleanup)), so `return`, `goto` and `break` out of
 * the body restore the state too. Not allowed inside a guard block:
 *   - longjmp out of it (nothing runs);
 *   - without CT_HAVE_CLEANUP: return, goto or break out of it (the exit
 *     action is skipped; use the explicit pair instead);
 *   - `break`/`continue` meant for an enclosing loop: they bind to the
 *     guard's own loop (break leaves the guard, continue ends the body).
 * Guards nest and are per thread. A guard records what it changed and
 * restores exactly that, so inner guards never undo outer ones.
 */
#ifndef CT_GUARD_H
#define CT_GUARD_H

#include "tensor.h"

CT_EXTERN_C_BEGIN

typedef struct ct_guard {
  void (*end)(struct ct_guard *g); /* the exit action, set by *_begin */
  int state;                       /* 0 before begin, 1 active, 2 ended */
  ct_keyset changed;               /* keys this guard actually added */
  int saved_int;                   /* previous grad mode / device index */
  int8_t device_type;
  int8_t restore_device;           /* device and stream guards: 1 if the device was changed */
  ct_stream saved_stream;          /* stream guards: the stream that was current */
  ct__scope scope; /* temporaries (ct_scope_begin only) */
} ct_guard;

CTDEF void ct_guard_end(ct_guard *g); /* runs the exit action once */

CTDEF void ct_no_grad_begin(ct_guard *g);       /* autograd records nothing */
CTDEF void ct_enable_grad_begin(ct_guard *g);   /* undo an outer no-grad */
CTDEF void ct_inference_mode_begin(ct_guard *g); /* no-grad and autograd keys excluded */
CTDEF void ct_include_keys_begin(ct_guard *g, ct_keyset ks);
CTDEF void ct_exclude_keys_begin(ct_guard *g, ct_keyset ks);
/* Sets the device's index as its type's current device (through the type's
 * device interface; a type with no interface keeps a per-thread index only)
 * and restores the previous one at the end. A bad device (index out of
 * range) leaves everything as it was, with the error pending. */
CTDEF void ct_device_begin(ct_guard *g, ct_device device);
/* c10's StreamGuard: makes s the current stream of its device and its
 * device the current one; restores both at the end. */
CTDEF void ct_stream_begin(ct_guard *g, ct_stream s);
CTDEF void ct_scope_begin(ct_guard *g); /* releases the tensors returned inside */

CTDEF bool ct_is_grad_enabled(void);
CTDEF int ct_current_device(ct_device_type type); /* index set by device guards */

CT_EXTERN_C_END

/* internal */
static inline ct_guard ct__guard_zero(void) {
  ct_guard g;
  memset(&g, 0, sizeof g);
  return g;
}
static inline void ct__guard_cleanup(ct_guard *g) {
  if (g->state == 1) ct_guard_end(g);
}
#if CT_HAVE_CLEANUP
#define CT__CLEANUP __attribute__((cleanup(ct__guard_cleanup)))
#else
#define CT__CLEANUP
#endif
#define CT__CAT_(a, b) a##b
#define CT__CAT(a, b) CT__CAT_(a, b)
#ifdef __COUNTER__
#define CT__UNIQUE(prefix) CT__CAT(prefix, __COUNTER__)
#else
#define CT__UNIQUE(prefix) CT__CAT(prefix, __LINE__)
#endif
#define CT__GUARD_LOOP(g, begin) \
  for (ct_guard g CT__CLEANUP = ct__guard_zero(); g.state == 0 ? ((begin), g.state = 1) : (ct_guard_end(&g), 0);)

#define CT__NO_GRAD(g) CT__GUARD_LOOP(g, ct_no_grad_begin(&g))
#define CT__ENABLE_GRAD(g) CT__GUARD_LOOP(g, ct_enable_grad_begin(&g))
#define CT__INFERENCE_MODE(g) CT__GUARD_LOOP(g, ct_inference_mode_begin(&g))
#define CT__INCLUDE_KEYS(g, ks) CT__GUARD_LOOP(g, ct_include_keys_begin(&g, (ks)))
#define CT__EXCLUDE_KEYS(g, ks) CT__GUARD_LOOP(g, ct_exclude_keys_begin(&g, (ks)))
#define CT__DEVICE_GUARD(g, d) CT__GUARD_LOOP(g, ct_device_begin(&g, (d)))
#define CT__STREAM_GUARD(g, s) CT__GUARD_LOOP(g, ct_stream_begin(&g, (s)))
#define CT__SCOPE(g) CT__GUARD_LOOP(g, ct_scope_begin(&g))

/* public block macros */
#define CT_NO_GRAD CT__NO_GRAD(CT__UNIQUE(ct__guard_))
#define CT_ENABLE_GRAD CT__ENABLE_GRAD(CT__UNIQUE(ct__guard_))
#define CT_INFERENCE_MODE CT__INFERENCE_MODE(CT__UNIQUE(ct__guard_))
#define CT_INCLUDE_KEYS(ks) CT__INCLUDE_KEYS(CT__UNIQUE(ct__guard_), ks)
#define CT_EXCLUDE_KEYS(ks) CT__EXCLUDE_KEYS(CT__UNIQUE(ct__guard_), ks)
#define CT_DEVICE_GUARD(d) CT__DEVICE_GUARD(CT__UNIQUE(ct__guard_), d)
#define CT_STREAM_GUARD(s) CT__STREAM_GUARD(CT__UNIQUE(ct__guard_), s)
#define CT_SCOPE CT__SCOPE(CT__UNIQUE(ct__guard_))

#endif /* CT_GUARD_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__GUARD_IMPL)
#define CT__GUARD_IMPL
CT_EXTERN_C_BEGIN

CTDEF void ct_guard_end(ct_guard *g) {
  if (!g || g->state != 1) return;
  g->state = 2;
  if (g->end) g->end(g);
}

static void ct__grad_end(ct_guard *g) { ct__tls.grad_disabled = g->saved_int; }
CTDEF void ct_no_grad_begin(ct_guard *g) {
  g->saved_int = ct__tls.grad_disabled;
  ct__tls.grad_disabled = 1;
  g->end = ct__grad_end;
  g->state = 1;
}
CTDEF void ct_enable_grad_begin(ct_guard *g) {
  g->saved_int = ct__tls.grad_disabled;
  ct__tls.grad_disabled = 0;
  g->end = ct__grad_end;
  g->state = 1;
}
CTDEF bool ct_is_grad_enabled(void) { return !ct__tls.grad_disabled; }

static void ct__exclude_end(ct_guard *g) { ct__tls.keys.excluded &= ~g->changed; }
static void ct__include_end(ct_guard *g) { ct__tls.keys.included &= ~g->changed; }
CTDEF void ct_exclude_keys_begin(ct_guard *g, ct_keyset ks) {
  g->changed = ks & ~ct__tls.keys.excluded;
  ct__tls.keys.excluded |= ks;
  g->end = ct__exclude_end;
  g->state = 1;
}
CTDEF void ct_include_keys_begin(ct_guard *g, ct_keyset ks) {
  g->changed = ks & ~ct__tls.keys.included;
  ct__tls.keys.included |= ks;
  g->end = ct__include_end;
  g->state = 1;
}

static void ct__inference_end(ct_guard *g) {
  ct__tls.keys.excluded &= ~g->changed;
  ct__tls.grad_disabled = g->saved_int;
}
CTDEF void ct_inference_mode_begin(ct_guard *g) {
  ct_keyset ks = CT_AUTOGRAD_KEYS | ct_keyset_of(CT_KEY_AD_INPLACE_OR_VIEW);
  g->changed = ks & ~ct__tls.keys.excluded;
  ct__tls.keys.excluded |= ks;
  g->saved_int = ct__tls.grad_disabled;
  ct__tls.grad_disabled = 1;
  g->end = ct__inference_end;
  g->state = 1;
}

static void ct__device_end(ct_guard *g) {
  const ct_device_interface *i = ct_device_interface_get((ct_device_type)g->device_type);
  if (!g->restore_device) return;
  if (i) i->set_device(g->saved_int);
  else ct__tls.device_index[g->device_type] = (int8_t)g->saved_int;
}
/* Make device current; 1 if something must be restored (saved in g). */
static int ct__device_swap(ct_guard *g, ct_device device, const char *op) {
  const ct_device_interface *i;
  int prev;
  if (device.type < 0 || device.type >= CT_DEVICE_NUM) {
    ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)device.type);
    return 0;
  }
  g->device_type = device.type;
  i = ct_device_interface_get((ct_device_type)device.type);
  if (!i) { /* no backend linked: a per-thread index only */
    g->saved_int = ct__tls.device_index[device.type];
    ct__tls.device_index[device.type] = device.index;
    return 1;
  }
  if (ct_device_exchange(device, &prev) != CT_OK) return 0;
  g->saved_int = prev;
  return 1;
}
CTDEF void ct_device_begin(ct_guard *g, ct_device device) {
  g->restore_device = (int8_t)ct__device_swap(g, device, "CT_DEVICE_GUARD");
  g->end = ct__device_end;
  g->state = 1;
}
static void ct__stream_end(ct_guard *g) {
  if (g->saved_stream.device.type >= 0) ct_stream_set(g->saved_stream);
  ct__device_end(g);
}
CTDEF void ct_stream_begin(ct_guard *g, ct_stream s) {
  g->saved_stream.device.type = -1;
  g->restore_device = 0;
  if (ct_device_check("CT_STREAM_GUARD", s.device) == CT_OK) {
    g->restore_device = (int8_t)ct__device_swap(g, s.device, "CT_STREAM_GUARD");
    if (g->restore_device && ct_stream_exchange(s, &g->saved_stream) != CT_OK) g->saved_stream.device.type = -1;
  }
  g->end = ct__stream_end;
  g->state = 1;
}
CTDEF int ct_current_device(ct_device_type type) {
  const ct_device_interface *i = ct_device_interface_get(type);
  if (i) return i->get_device();
  return (unsigned)type < 8 ? ct__tls.device_index[type] : -1;
}

static void ct__scope_end(ct_guard *g) {
  ct__scope *s = &g->scope;
  int i;
  if (ct__tls.scope == s) ct__tls.scope = s->parent;
  for (i = s->n - 1; i >= 0; i--) {
#ifdef CT_DEBUG
    s->items[i]->scoped--;
#endif
    ct_release(s->items[i]);
  }
  if (s->items != s->inline_items) ct__scratch_free(s->items, sizeof(ct_tensor *) * (size_t)s->cap);
  s->items = s->inline_items;
  s->n = 0;
}
/* A scope links the caller's guard (a local) into the thread's scope chain;
   ct__scope_end unlinks it when the block ends, so the pointer never dangles.
   GCC 13+ cannot see the unlink once this is inlined and warns. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#endif
CTDEF void ct_scope_begin(ct_guard *g) {
  ct__scope *s = &g->scope;
  s->parent = ct__tls.scope;
  s->depth = ct__tls.depth;
  s->n = 0;
  s->cap = (int)(sizeof s->inline_items / sizeof s->inline_items[0]);
  s->items = s->inline_items;
  ct__tls.scope = s;
  g->end = ct__scope_end;
  g->state = 1;
}
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic pop
#endif

CT_EXTERN_C_END
#endif /* CT__GUARD_IMPL */
