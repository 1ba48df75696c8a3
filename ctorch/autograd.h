/* ctorch/autograd.h - tape autograd: graph nodes, saved tensors, the engine.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Define-by-run. In grad mode, an op called with an input that requires
 * grad runs its autograd kernel (generated from gen/derivatives.spec into
 * ctorch/generated/autograd_functions.h), which records a node: the tensors
 * its derivative formula needs (saved with their version), one edge per
 * differentiable input (to the node that produced it, or to the leaf itself)
 * and the shape and dtype of every input. The outputs point at the node.
 *
 * Note [The tape]
 * Every node gets a sequence number when it is created. A node's inputs were
 * produced before it, so walking the nodes reachable from the roots in
 * decreasing sequence number visits every consumer of a gradient before its
 * producer: gradients are complete when a node runs. That is the whole
 * scheduling algorithm; it is correct for shared subexpressions, multiple
 * outputs and unused branches (nodes that no gradient reached are skipped).
 *
 * Note [Graph lifetime]
 * Nodes are refcounted. A tensor owns its grad_fn; a node owns the nodes its
 * edges point at and the leaves it accumulates into. So the graph lives
 * exactly as long as some tensor that can reach it. Saved outputs are kept
 * as detached aliases (no grad_fn), so a node never owns itself.
 * backward without retain_graph frees every saved tensor of the nodes it ran;
 * running them again is a clear error.
 *
 * Gradients are reduced to each input's shape (summing broadcast dims) and
 * cast to its dtype by the engine, so formulas may return broadcast shapes.
 *
 * Note [Views and in-place]
 * PyTorch's rules ("View + Inplace update for base tensor / for view
 * tensor"), which ctorch follows:
 *  - Every view op links its result to the root of the view chain
 *    (tensor->base, see ct__as_view) and remembers the storage version it
 *    was made at. A view requires grad when it has history or its base
 *    requires grad.
 *  - In-place on a view (rebase): the op's node fn is recorded as usual, then
 *    the base's history becomes CopySlices(base's old history, fn): its
 *    backward runs fn on the view's slice of the gradient and passes the rest
 *    of the gradient through. The view's own history is then regenerated.
 *  - In-place on a base, or on another view of it, bumps the storage version:
 *    every live view whose version is stale regenerates its history the next
 *    time autograd uses it, as as_strided(base's current history) with the
 *    view's geometry (PyTorch's view replay).
 *  - Refused with PyTorch's errors, and only when the op would be recorded:
 *    in-place on a view made in no-grad or inference mode, on an output of
 *    unbind / split / chunk, on a view of a leaf that requires grad, on a leaf
 *    that requires grad; and using such a view (no-grad, inference,
 *    multi-output) after its base was modified in place.
 *  - Integer and bool results never require grad; a view made in no-grad
 *    mode of a tensor that requires grad requires grad but has no history, so
 *    its gradient goes nowhere (as in PyTorch).
 */
#ifndef CT_AUTOGRAD_H
#define CT_AUTOGRAD_H

#include "dispatch.h"
#include "guard.h"

CT_EXTERN_C_BEGIN

/* ---- per-tensor autograd state (NULL for tensors autograd never saw) ---- */
typedef struct ct_autograd_meta {
  ct_tensor *grad;         /* .grad: accumulated by backward into leaves (owned) */
  struct ct_node *grad_fn; /* the node that produced this tensor (owned); NULL for leaves */
  int32_t output_nr;       /* which output of grad_fn this tensor is */
  uint8_t retains_grad;    /* ct_retain_grad on a non-leaf: backward fills .grad */
  struct ct__hook *hooks;  /* leaves: run on the gradient before it is accumulated */
} ct_autograd_meta;

/* ---- user API ---- */
/* Leaves only: start (or stop) recording operations on t. */
CTDEF ct_status ct_set_requires_grad(ct_tensor *t, bool requires_grad);
CTDEF bool ct_requires_grad(const ct_tensor *t);
CTDEF bool ct_is_leaf(const ct_tensor *t); /* no grad_fn */
/* t's accumulated gradient, borrowed (NULL if none). */
CTDEF ct_tensor *ct_grad(const ct_tensor *t);
/* Replace (or with NULL, drop) t's .grad; the tensor is retained.
 * After a backward with create_graph, a leaf's .grad has history that refers
 * back to the leaf (a reference cycle, as in PyTorch): ct_set_grad(leaf,
 * NULL) before releasing the leaf frees both. ct_autograd_grad stores no
 * .grad, so it makes no cycle. */
CTDEF ct_status ct_set_grad(ct_tensor *t, ct_tensor *grad);
/* "MulBackward0", or NULL for leaves and tensors without history. */
CTDEF const char *ct_grad_fn_name(const ct_tensor *t);

/* Gradient hooks (torch.Tensor.register_hook): fn sees the gradient flowing
 * into t during backward and may set *replace to a tensor to use instead
 * (leave it NULL to keep grad; grad is borrowed); a non-OK status stops the
 * backward. On a leaf the hook runs before accumulation into .grad; on a
 * non-leaf when its gradient is complete, and it stays with the history t
 * had when it was registered. Hooks run in registration order; ctorch
 * does not own ctx. ct_autograd_grad returns gradients before hooks, as
 * torch.autograd.grad does. */
typedef ct_status (*ct_grad_hook_fn)(ct_tensor *grad, ct_tensor **replace, void *ctx);
CTDEF ct_status ct_register_hook(ct_tensor *t, ct_grad_hook_fn fn, void *ctx);
/* A non-leaf keeps its gradient in .grad after backward (accumulated like a
 * leaf's; ordered with t's hooks as registered). A no-op on leaves. */
CTDEF ct_status ct_retain_grad(ct_tensor *t);
CTDEF bool ct_retains_grad(const ct_tensor *t);
/* A new tensor sharing t's data, outside the graph (generated: ct_detach). */

/* backward: accumulate d(outputs)/d(leaf) * grad_outputs into every leaf's
 * .grad. A zeroed descriptor plus the outputs is a plain backward. */
typedef struct ct_backward_desc {
  int num_outputs;
  ct_tensor *const *outputs;      /* roots; each must require grad */
  ct_tensor *const *grad_outputs; /* NULL, or one per output (NULL entries: implicit 1 for 1-element roots) */
  bool retain_graph;              /* keep saved tensors for another backward */
  bool create_graph;              /* record the backward pass: gradients get grad_fns (double backward) */
  bool allow_unused;              /* ct_autograd_grad: an input no gradient reached gives NULL, not an error */
} ct_backward_desc;

CTDEF ct_status ct_backward(ct_tensor *root); /* root must have one element */
CTDEF ct_status ct_backward_ex(ct_tensor *root, ct_tensor *grad_output, bool retain_graph, bool create_graph);
CTDEF ct_status ct_autograd_backward(const ct_backward_desc *desc);
/* torch.autograd.grad: gradients of the outputs with respect to `inputs`,
 * returned as new references in grads[i]; no .grad is touched. */
CTDEF ct_status ct_autograd_grad(const ct_backward_desc *desc, int num_inputs, ct_tensor *const *inputs, ct_tensor **grads);

/* ---- nodes, for generated code and custom derivatives ---- */
typedef struct ct_node ct_node;
typedef struct ct_node_kind {
  const char *name; /* "MulBackward0" */
  /* grads: one per output (never NULL; missing ones are zeros). Set
   * grad_inputs[i] for every i with ct_node_needs_input_grad(node, i);
   * return CT_OK or an error (with a message). Tensors returned from ct_
   * calls inside are released by the engine's scope; it keeps the results. */
  ct_status (*backward)(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs);
  void (*release_saved)(ct_node *node); /* drop saved tensors (after backward without retain_graph) */
} ct_node_kind;

/* Shape, dtype and device of a node input or output. */
typedef struct ct_tensor_meta {
  int8_t ndim, dtype;
  ct_device device;
  int64_t sizes[CT_MAX_DIMS];
} ct_tensor_meta;

typedef struct ct__edge {
  struct ct_node *node; /* producer of the input (owned), or NULL */
  ct_tensor *leaf;      /* the leaf itself (owned) when it has no producer, or NULL */
  int32_t output_nr;
} ct__edge;

struct ct_node {
  int32_t refcount;
  int16_t num_inputs;         /* edges, one per differentiable input */
  int16_t num_outputs;
  uint8_t released;           /* saved tensors freed by a backward without retain_graph */
  uint32_t size;              /* bytes of this allocation */
  uint64_t seq;               /* creation order: the tape position */
  struct ct__hook *hooks;     /* run on output grads before backward (registration order) */
  const ct_node_kind *kind;
  ct__edge *edges;            /* [num_inputs], in this allocation */
  ct_tensor_meta *input_meta; /* [num_inputs] */
  ct_tensor_meta *output_meta;/* [num_outputs] */
};

CTDEF bool ct_node_needs_input_grad(const ct_node *n, int i);

/* A tensor saved for backward: the handle and the version it had. */
typedef struct ct__saved {
  ct_tensor *t;     /* owned; a detached alias for outputs */
  uint32_t version; /* storage version when saved */
  uint8_t is_output;
  uint8_t defined; /* something was saved (t may be NULL for an optional) */
} ct__saved;

/* Shapes saved for formulas (self_sizes) and int lists saved by value. */
typedef struct ct__shape {
  int ndim;
  int64_t sizes[CT_MAX_DIMS];
} ct__shape;
typedef struct ct__saved_ints {
  int64_t n; /* -1: None */
  int64_t v[2 * CT_MAX_DIMS];
} ct__saved_ints;
#define CT__SHAPE(s) (s).ndim, (s).sizes

CT_EXTERN_C_END
#endif /* CT_AUTOGRAD_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__AUTOGRAD_IMPL)
#define CT__AUTOGRAD_IMPL
CT_EXTERN_C_BEGIN

/* ---- meta and history ---- */
static void *ct__obj_alloc(size_t n) { return ct__cpu_alloc(NULL, n); }
static void ct__obj_free(void *p, size_t n) { ct__cpu_free(NULL, p, n); }

static ct_autograd_meta *ct__meta(ct_tensor *t) {
  if (!t->autograd) {
    ct_autograd_meta *m;
    if (CT_UNLIKELY(!ct__atomic_load(&ct__initialized))) ct__init(); /* (sets ct__autograd_release_hook, tensor.h) */
    m = (ct_autograd_meta *)ct__obj_alloc(sizeof *m);
    if (!m) return ct_fail(CT_ERR_OOM, "autograd", "out of memory"), (ct_autograd_meta *)NULL;
    memset(m, 0, sizeof *m);
    t->autograd = m;
  }
  return t->autograd;
}

static void ct__node_release(ct_node *n);
static inline void ct__node_retain(ct_node *n) { ct__atomic_add(&n->refcount, 1); } /* threads may share a graph */

/* A hook on a node output or a leaf; `retain` marks a retain_grad entry
 * (a weak reference: the tensor removes it when it dies or moves on). */
typedef struct ct__hook {
  struct ct__hook *next;
  int32_t output_nr;
  ct_grad_hook_fn fn;
  void *ctx;
  ct_autograd_meta *retain;
} ct__hook;

static ct_status ct__hook_append(ct__hook **list, int output_nr, ct_grad_hook_fn fn, void *ctx, ct_autograd_meta *retain) {
  ct__hook *h = (ct__hook *)CT_MALLOC(sizeof *h);
  if (!h) return ct_fail(CT_ERR_OOM, "ct_register_hook", "out of memory");
  h->next = NULL, h->output_nr = output_nr, h->fn = fn, h->ctx = ctx, h->retain = retain;
  while (*list) list = &(*list)->next;
  *list = h;
  return CT_OK;
}
static void ct__hooks_free(ct__hook *h) {
  while (h) {
    ct__hook *next = h->next;
    CT_FREE(h);
    h = next;
  }
}
static void ct__hook_unretain(ct_node *n, const ct_autograd_meta *m) {
  ct__hook **p = &n->hooks;
  while (*p) {
    if ((*p)->retain == m) {
      ct__hook *dead = *p;
      *p = dead->next;
      CT_FREE(dead);
    } else
      p = &(*p)->next;
  }
}

static void ct__autograd_release(ct_tensor *t) {
  ct_autograd_meta *m = t->autograd;
  t->autograd = NULL;
  ct_release(m->grad);
  if (m->grad_fn && m->retains_grad) ct__hook_unretain(m->grad_fn, m);
  if (m->grad_fn) ct__node_release(m->grad_fn);
  ct__hooks_free(m->hooks);
  ct__obj_free(m, sizeof *m);
}

static inline int ct__grad_mode(void) { return !ct__tls.grad_disabled; }
/* t requires grad: its own flag (history or a leaf's), or its base's. */
static inline int ct__needs_grad(const ct_tensor *t) {
  return t && ((t->flags & CT_TENSOR_REQUIRES_GRAD) || (t->base && (t->base->flags & CT_TENSOR_REQUIRES_GRAD)));
}
static inline ct_node *ct__grad_fn(const ct_tensor *t) { return t->autograd ? t->autograd->grad_fn : NULL; }

static void ct__meta_fill(ct_tensor_meta *m, const ct_tensor *t) {
  int i;
  m->ndim = t->ndim;
  m->dtype = t->dtype;
  m->device = t->device;
  for (i = 0; i < t->ndim; i++) m->sizes[i] = t->sizes[i];
}

/* The key that routes t's calls to autograd kernels. */
static inline ct_keyset ct__autograd_keys_of(const ct_tensor *t) {
  return ct_keyset_of(ct_autograd_key_for(ct_device_backend_key((ct_device_type)t->device.type)));
}

/* t is now output `nr` of node n (which it owns a reference to). Integer and
 * bool results stay outside the graph: they are never differentiable.
 * take: the caller's reference to n goes to t (released here when t does
 * not take the history): one locked increment and decrement fewer for every
 * recorded op's result. */
static ct_status ct__set_history_ex(ct_tensor *t, ct_node *n, int nr, int take) {
  ct_autograd_meta *m = NULL;
  ct_status st = CT_OK;
  if (ct_dtype_is_floating((ct_dtype)t->dtype) && !(m = ct__meta(t))) st = ct_last_error();
  if (!m) { /* not differentiable, or no memory for its meta */
    if (take) ct__node_release(n);
    return st;
  }
  if (m->retains_grad) { /* retain_grad follows the tensor to its new history */
    if (m->grad_fn) ct__hook_unretain(m->grad_fn, m);
    if (ct__hook_append(&n->hooks, nr, NULL, NULL, m) != CT_OK) {
      st = ct_last_error();
      if (take) ct__node_release(n);
      return st;
    }
  }
  if (!take) ct__node_retain(n);
  if (m->grad_fn) ct__node_release(m->grad_fn);
  m->grad_fn = n;
  m->output_nr = nr;
  t->flags |= CT_TENSOR_REQUIRES_GRAD;
  t->keys |= ct__autograd_keys_of(t);
  ct__meta_fill(&n->output_meta[nr], t);
  return CT_OK;
}
static ct_status ct__set_history(ct_tensor *t, ct_node *n, int nr) { return ct__set_history_ex(t, n, nr, 0); }

/* ---- nodes ---- */
static uint64_t ct__node_seq; /* global: creation order across threads */

static size_t ct__align8(size_t n) { return (n + 7) & ~(size_t)7; }

static CT__HOT_INLINE ct_node *ct__node_new_inline(const ct_node_kind *kind, size_t struct_size, int num_inputs, int num_outputs) {
  size_t off_e = ct__align8(struct_size);
  size_t off_im = off_e + sizeof(ct__edge) * (size_t)num_inputs;
  size_t off_om = off_im + sizeof(ct_tensor_meta) * (size_t)num_inputs;
  size_t total = off_om + sizeof(ct_tensor_meta) * (size_t)num_outputs;
  char *p = (char *)ct__obj_alloc(total);
  ct_node *n = (ct_node *)p;
  if (!p) return ct_fail(CT_ERR_OOM, kind->name, "out of memory for an autograd node"), (ct_node *)NULL;
  memset(p, 0, off_im); /* the node struct and edges; metas are written as inputs arrive */
  n->refcount = 1;
  n->num_inputs = (int16_t)num_inputs;
  n->num_outputs = (int16_t)num_outputs;
  n->size = (uint32_t)total;
  n->seq = ct__atomic_add(&ct__node_seq, 1);
  n->kind = kind;
  n->edges = (ct__edge *)(p + off_e);
  n->input_meta = (ct_tensor_meta *)(p + off_im);
  n->output_meta = (ct_tensor_meta *)(p + off_om);
  return n;
}
static ct_node *ct__node_new(const ct_node_kind *kind, size_t struct_size, int num_inputs, int num_outputs) {
  return ct__node_new_inline(kind, struct_size, num_inputs, num_outputs);
}

/* ---- views (Note [Views and in-place]) ---- */
static ct_status ct__view_refused(const char *op, const ct_tensor *v, int indirect) {
  const char *what = indirect ? "its base or another view of its base has been modified in place with grad mode enabled"
                              : "is being modified in place with grad mode enabled";
  switch (v->view_kind) {
  case CT_VIEW_NO_GRAD:
    return ct_fail(CT_ERR_STATE, op,
                   "a view was created in no-grad mode and %s; this use is ambiguous and forbidden: make both the view "
                   "and the in-place operation inside CT_NO_GRAD (not tracked), or both outside (tracked)", what);
  case CT_VIEW_INFERENCE:
    return ct_fail(CT_ERR_STATE, op,
                   "a view was created in inference mode and %s; this use is ambiguous and forbidden: make both the view "
                   "and the in-place operation inside CT_INFERENCE_MODE, or both outside", what);
  default:
    return ct_fail(CT_ERR_STATE, op,
                   "a view that is an output of a function returning multiple views (unbind, split, chunk) %s; such views "
                   "may not be modified in place: replace the in-place operation by an out-of-place one", what);
  }
}

/* A view's history made again from its base's current history: PyTorch's
 * view replay, as an as_strided of the base. */
static ct_status ct__regenerate_view(ct_tensor *v) {
  ct_tensor *base = v->base, *r;
  ct_keyset saved_excluded = ct__tls.keys.excluded;
  int saved_grad = ct__tls.grad_disabled;
  ct_guard scope = ct__guard_zero();
  ct_status st = CT_OK;
  if (v->view_kind != CT_VIEW_DEFAULT) return ct__view_refused("autograd", v, 1);
  if (!ct__needs_grad(base)) { /* the base left the graph: so does the view (a leaf view keeps its flag) */
    if (v->autograd && v->autograd->grad_fn) {
      ct__node_release(v->autograd->grad_fn);
      v->autograd->grad_fn = NULL;
      v->flags &= (uint8_t)~CT_TENSOR_REQUIRES_GRAD;
    }
    v->base_version = v->storage->version;
    return CT_OK;
  }
  ct__tls.keys.excluded &= ~CT_AUTOGRAD_KEYS; /* recorded whatever the caller's mode */
  ct__tls.grad_disabled = 0;
  ct_scope_begin(&scope);
  r = ct_as_strided(base, v->ndim, v->sizes, v->ndim, v->strides, v->offset);
  if (!r) st = ct_last_error();
  else if (!ct__grad_fn(r)) st = ct_fail(CT_ERR_STATE, "autograd", "internal error: regenerating a view recorded no history");
  else st = ct__set_history(v, r->autograd->grad_fn, 0);
  ct_guard_end(&scope);
  ct__tls.keys.excluded = saved_excluded;
  ct__tls.grad_disabled = saved_grad;
  if (st == CT_OK) v->base_version = v->storage->version;
  return st;
}

/* Regenerate v's history if its base was modified in place since; 1 if it was. */
static int ct__refresh_view(ct_tensor *v, ct_status *st) {
  *st = CT_OK;
  if (!v->base || v->base_version == v->storage->version) return 0;
  *st = ct__regenerate_view(v);
  return *st == CT_OK;
}

/* Edge i of n leads to t's history (if t requires grad). */
static CT__HOT_INLINE ct_status ct__node_set_input_inline(ct_node *n, int i, ct_tensor *t) {
  ct__edge *e = &n->edges[i];
  ct_status st;
  if (!ct__needs_grad(t)) return CT_OK; /* no edge: its metadata is never read */
  if (ct__refresh_view(t, &st)) n->seq = ct__atomic_add(&ct__node_seq, 1); /* run before the regenerated node */
  if (st != CT_OK) return st;
  ct__meta_fill(&n->input_meta[i], t);
  if (t->autograd && t->autograd->grad_fn) {
    e->node = t->autograd->grad_fn;
    e->output_nr = t->autograd->output_nr;
    ct__node_retain(e->node);
  } else if (t->flags & CT_TENSOR_REQUIRES_GRAD) {
    e->leaf = ct_retain(t);
  } /* else a view made in no-grad mode of a tensor that requires grad: no history, the gradient is dropped */
  return CT_OK;
}
static ct_status ct__node_set_input(ct_node *n, int i, ct_tensor *t) { return ct__node_set_input_inline(n, i, t); }

CTDEF bool ct_node_needs_input_grad(const ct_node *n, int i) {
  return n && i >= 0 && i < n->num_inputs && (n->edges[i].node || n->edges[i].leaf);
}

/* Freeing a long chain node by node would recurse as deep as the graph:
 * released nodes go on an explicit stack instead. */
static ct_node *ct__owned_node(ct_node *n); /* CopySlices' in-place node, else NULL */
static void ct__node_release(ct_node *n) {
  ct_node *stack_buf[64], **stack = stack_buf;
  int sp = 0, cap = 64;
  if (!ct__unref(&n->refcount)) return;
  stack[sp++] = n;
  while (sp) {
    ct_node *x = stack[--sp];
    int i;
    if (x->kind->release_saved) x->kind->release_saved(x);
    ct__hooks_free(x->hooks);
    for (i = -1; i < x->num_inputs; i++) { /* -1: a node owned outside the edges */
      ct__edge owned, *e = &owned;
      memset(&owned, 0, sizeof owned);
      if (i < 0) owned.node = ct__owned_node(x);
      else e = &x->edges[i];
      ct_release(e->leaf);
      if (e->node && ct__unref(&e->node->refcount)) {
        if (sp == cap) { /* grow; on failure leak rather than crash */
          ct_node **bigger = (ct_node **)CT_MALLOC(sizeof(ct_node *) * (size_t)cap * 2);
          if (!bigger) continue;
          memcpy(bigger, stack, sizeof(ct_node *) * (size_t)sp);
          if (stack != stack_buf) CT_FREE(stack);
          stack = bigger;
          cap *= 2;
        }
        stack[sp++] = e->node;
      }
    }
    ct__obj_free(x, x->size);
  }
  if (stack != stack_buf) CT_FREE(stack);
}

/* ---- saved tensors ---- */
/* A node must not own a tensor that may come to own the node. Saved as they
 * are: leaves that require grad (an in-place op on them is refused, so they
 * never get history). Every other input is saved as an unlinked alias holding
 * its data and its history as of now: an in-place op may give the input
 * itself a history leading to this node (`x.mul_(x)`, `x.addcmul_(g, x)` on
 * a non-leaf, or on a tensor that does not require grad), and a view owns its
 * base, which may own this node (`y.mul_(y[1])`): the handle would make a
 * reference cycle, never freed. */
static void ct__save(ct__saved *s, ct_tensor *t) {
  ct_tensor *a;
  s->defined = 1;
  s->is_output = 0;
  if (!t) return;
  s->version = t->storage->version;
  s->t = t;
  if ((!t->base && ct_requires_grad(t) && !(t->autograd && t->autograd->grad_fn)) ||
      !(a = ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset))) { /* (out of memory: keep the handle) */
    ct_retain(t);
    return;
  }
  a->keys = t->keys;
  a->flags |= t->flags & CT_TENSOR_REQUIRES_GRAD;
  if (t->autograd && t->autograd->grad_fn && ct__meta(a)) {
    a->autograd->grad_fn = t->autograd->grad_fn;
    a->autograd->output_nr = t->autograd->output_nr;
    ct__node_retain(a->autograd->grad_fn);
  }
  s->t = a;
}
/* An in-place op's formula needs self as it was: save a copy. The copy is
 * recorded (CloneBackward), so double backward sees how it depends on the
 * inputs. */
static ct_status ct__save_clone(ct__saved *s, ct_tensor *t) {
  ct_tensor *c = ct_clone(t);
  s->defined = 1;
  s->is_output = 0;
  if (!c) return ct_last_error();
  s->t = c;
  s->version = c->storage->version;
  return CT_OK;
}
/* Outputs are saved as an alias without history: a node must not own the
 * tensor that owns it. Unpacking puts the history back (create_graph). */
static ct_status ct__save_output(ct__saved *s, ct_tensor *t) {
  ct_tensor *a = ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset);
  if (!a) return ct_last_error();
  a->flags &= (uint8_t)~CT_TENSOR_REQUIRES_GRAD;
  s->t = a;
  s->version = t->storage->version;
  s->defined = 1;
  s->is_output = 1;
  return CT_OK;
}
static void ct__saved_reset(ct__saved *s) {
  ct_release(s->t);
  s->t = NULL;
}
static void ct__save_shape(ct__shape *s, const ct_tensor *t) {
  int i;
  s->ndim = t->ndim;
  for (i = 0; i < t->ndim; i++) s->sizes[i] = t->sizes[i];
}
static ct_status ct__save_ints(ct__saved_ints *s, ct_int_list l, const char *op) {
  int64_t i;
  if (l.n > (int64_t)(sizeof s->v / sizeof s->v[0]))
    return ct_fail(CT_ERR_UNSUPPORTED, op, "autograd saves at most %d ints of a list argument, got %lld",
                   (int)(sizeof s->v / sizeof s->v[0]), (long long)l.n);
  s->n = l.n < 0 ? -1 : l.n; /* n < 0 is None; an empty list stays a list */
  for (i = 0; i < l.n && l.data; i++) s->v[i] = l.data[i];
  return CT_OK;
}
static inline ct_int_list ct__ints(const ct__saved_ints *s) {
  ct_int_list l;
  l.data = s->n >= 0 ? s->v : NULL;
  l.n = s->n;
  return l;
}

/* The saved tensor, checked against in-place changes since it was saved. */
static ct_tensor *ct__unpack(ct__saved *s, ct_node *n, const char *name) {
  ct_tensor *t = s->t;
  if (n->released)
    return ct_fail(CT_ERR_STATE, n->kind->name,
                   "trying to backward through the graph a second time (or to use saved tensors after they were freed): "
                   "saved tensors are freed by backward; pass retain_graph=true to the first backward to keep them"),
           (ct_tensor *)NULL;
  if (!t) return NULL; /* an optional that was None */
  if (t->storage->version != s->version) {
    char b[160];
    return ct_fail(CT_ERR_STATE, n->kind->name,
                   "one of the variables needed for gradient computation has been modified by an inplace operation: "
                   "saved tensor '%s' (%s %s) is at version %u; expected version %u instead",
                   name, ct_dtype_name((ct_dtype)t->dtype), ct_shape_format(t->ndim, t->sizes, b, sizeof b),
                   (unsigned)t->storage->version, (unsigned)s->version),
           (ct_tensor *)NULL;
  }
  if (s->is_output && ct__grad_mode()) { /* create_graph: the output with its history, for this backward */
    ct_tensor *a = ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset);
    if (!a || ct__set_history(a, n, 0) != CT_OK) {
      ct_release(a);
      return NULL;
    }
    return ct__track(a);
  }
  return t;
}

/* ---- the autograd keys, off while a kernel below autograd runs ---- */
static inline ct_keyset ct__below_autograd_begin(void) {
  ct_keyset saved = ct__tls.keys.excluded;
  ct__tls.keys.excluded = saved | CT_AUTOGRAD_KEYS;
  return saved;
}
static inline void ct__below_autograd_end(ct_keyset saved) { ct__tls.keys.excluded = saved; }
#define CT__BELOW_AUTOGRAD (~CT_AUTOGRAD_KEYS & ct_keys_below(CT_KEY_AUTOGRAD_OTHER)) /* below every autograd key */

/* In-place on something autograd must refuse (PyTorch's check_inplace); runs
 * only when the op is recorded (grad mode, some input requires grad). */
static ct_status ct__check_inplace(const char *op, ct_tensor *self) {
  if (self->base) {
    if (self->view_kind != CT_VIEW_DEFAULT) return ct__view_refused(op, self, 0);
    if (ct__needs_grad(self) && !ct__grad_fn(self->base))
      return ct_fail(CT_ERR_STATE, op,
                     "a view of a leaf tensor that requires grad is being used in an in-place operation; "
                     "wrap the update in CT_NO_GRAD, or clone() the tensor first");
  } else if (ct__needs_grad(self) && !ct__grad_fn(self))
    return ct_fail(CT_ERR_STATE, op,
                   "a leaf tensor that requires grad is being used in an in-place operation; "
                   "wrap the update in CT_NO_GRAD, or clone() the tensor first");
  return CT_OK;
}

static ct_tensor *ct__fit_grad(ct_node *n, int i, ct_tensor *g); /* the engine, below */

/* ---- CopySlices: the base's history after an in-place op on one of its views ---- */
typedef struct ct__geometry {
  int ndim;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], offset;
} ct__geometry;
static void ct__save_geometry(ct__geometry *g, const ct_tensor *t) {
  int i;
  g->ndim = t->ndim;
  for (i = 0; i < t->ndim; i++) g->sizes[i] = t->sizes[i], g->strides[i] = t->strides[i];
  g->offset = t->offset;
}
/* Elements a geometry spans from its offset (0 when empty). */
static int64_t ct__geometry_extent(const ct__geometry *g) {
  int64_t last = 0;
  int i;
  for (i = 0; i < g->ndim; i++) {
    if (g->sizes[i] == 0) return 0;
    last += (g->sizes[i] - 1) * g->strides[i];
  }
  return last + 1;
}

typedef struct ct__copy_slices {
  ct_node base;
  ct_node *fn;            /* the in-place op's node (owned); its input 0 was the view */
  ct__geometry base_geom; /* the base when the op ran */
  ct__geometry view_geom; /* the view written in place */
} ct__copy_slices;

/* grad (for the base after the op) -> the base's grad before it: the view's
 * slice goes through fn, the rest passes through; fn's other inputs get
 * their gradients from fn. Written with ct ops, so it is differentiable. */
static ct_status ct__copy_slices_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **gi) {
  ct__copy_slices *cs = (ct__copy_slices *)node;
  ct_node *fn = cs->fn;
  ct_tensor *g = grads[0], *flat, *result, *slice, *fg, *fgi_buf[8], **fgi = fgi_buf;
  int64_t extent = ct__geometry_extent(&cs->base_geom);
  int i;
  ct_status st = CT_OK;
  flat = ct_empty_opts(1, &extent, ct_opts((ct_dtype)g->dtype, g->device));
  if (!flat || ct_fill_(flat, ct_int(0)) != CT_OK) return ct_last_error();
  result = ct_as_strided(flat, cs->base_geom.ndim, cs->base_geom.sizes, cs->base_geom.ndim, cs->base_geom.strides, 0);
  if (!result || ct_copy_(result, g) != CT_OK) return ct_last_error();
  slice = ct_as_strided(flat, cs->view_geom.ndim, cs->view_geom.sizes, cs->view_geom.ndim, cs->view_geom.strides,
                        cs->view_geom.offset - cs->base_geom.offset);
  fg = slice ? ct_clone(slice) : NULL;
  if (!fg) return ct_last_error();
  if (fn->num_inputs > 8) {
    fgi = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)fn->num_inputs);
    if (!fgi) return ct_fail(CT_ERR_OOM, "CopySlices", "out of memory");
  }
  memset(fgi, 0, sizeof(ct_tensor *) * (size_t)fn->num_inputs);
  st = fn->kind->backward(fn, &fg, fgi);
  if (st == CT_OK && ct_node_needs_input_grad(node, 0)) {
    ct_tensor *g0 = ct_node_needs_input_grad(fn, 0) && fgi[0] ? ct__fit_grad(fn, 0, fgi[0]) : NULL;
    if (ct_node_needs_input_grad(fn, 0) && !g0) st = ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_STATE, fn->kind->name, "backward returned no gradient for input 0");
    else st = g0 ? ct_copy_(slice, g0) : ct_fill_(slice, ct_int(0)); /* no path through the old view value: it was overwritten */
    gi[0] = result;
  }
  for (i = 1; st == CT_OK && i < fn->num_inputs; i++)
    if (ct_node_needs_input_grad(node, i)) {
      if (!fgi[i]) st = ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_STATE, fn->kind->name, "backward returned no gradient for input %d", i);
      gi[i] = fgi[i];
    }
  if (fgi != fgi_buf) CT_FREE(fgi);
  return st;
}
static void ct__copy_slices_release(ct_node *node) { /* after backward without retain_graph: fn's saved tensors go too */
  ct_node *fn = ((ct__copy_slices *)node)->fn;
  if (fn && !fn->released) {
    if (fn->kind->release_saved) fn->kind->release_saved(fn);
    fn->released = 1;
  }
}
static const ct_node_kind ct__copy_slices_kind = {"CopySlices", ct__copy_slices_backward, ct__copy_slices_release};
static ct_node *ct__owned_node(ct_node *n) { return n->kind == &ct__copy_slices_kind ? ((ct__copy_slices *)n)->fn : NULL; }

/* An in-place op recorded as node fn wrote self (PyTorch's rebase_history):
 * a plain tensor gets fn as its history; a view hands its base a CopySlices
 * over fn and regenerates its own history from the base's. */
static ct_status ct__rebase_history(ct_tensor *self, ct_node *fn) {
  ct_tensor *base = self->base;
  ct__copy_slices *cs;
  ct_status st;
  int i;
  if (!base || !ct_dtype_is_floating((ct_dtype)self->dtype)) return ct__set_history(self, fn, 0);
  cs = (ct__copy_slices *)ct__node_new(&ct__copy_slices_kind, sizeof *cs, fn->num_inputs, 1);
  if (!cs) return ct_last_error();
  if ((st = ct__node_set_input(&cs->base, 0, base)) != CT_OK) return ct__node_release(&cs->base), st;
  for (i = 1; i < fn->num_inputs; i++) {
    cs->base.edges[i] = fn->edges[i];
    cs->base.input_meta[i] = fn->input_meta[i];
    if (fn->edges[i].node) ct__node_retain(fn->edges[i].node);
    if (fn->edges[i].leaf) ct_retain(fn->edges[i].leaf);
  }
  ct__node_retain(fn);
  cs->fn = fn;
  ct__save_geometry(&cs->base_geom, base);
  ct__save_geometry(&cs->view_geom, self);
  st = ct__set_history(base, &cs->base, 0);
  ct__node_release(&cs->base);
  return st != CT_OK ? st : ct__regenerate_view(self);
}
static ct_status ct__out_not_differentiable(const char *op) {
  return ct_fail(CT_ERR_STATE, op,
                 "out= arguments don't support automatic differentiation, but one of the arguments requires grad");
}

/* ---- the generated autograd kernels' shared steps ---- */
/* The node of an autograd kernel's call, which records it (grad mode is
 * on and one of the n inputs needs grad: the kernel checked): a new node of
 * kind (size bytes, one output) with an edge per input, into *node. inplace:
 * the in-place op's name, whose self (in[0]) ct__check_inplace checks first;
 * NULL for other ops. On an error (returned) *node is NULL. */
static CT__SHARED ct_status ct__record(ct_node **node, const ct_node_kind *kind, size_t size, const char *inplace, int n,
                            ct_tensor *const *in) {
  ct_node *nd;
  ct_status st;
  int i;
  *node = NULL;
  if (inplace && (st = ct__check_inplace(inplace, in[0])) != CT_OK) return st;
  if (!(nd = ct__node_new_inline(kind, size, n, 1))) return ct_last_error();
  for (i = 0; i < n; i++)
    if ((st = ct__node_set_input_inline(nd, i, in[i])) != CT_OK) return ct__node_release(nd), st;
  *node = nd;
  return CT_OK;
}
/* After the redispatch: the result r gets node n as its history (r released
 * if that fails), and the kernel's reference to n goes. */
static ct_tensor *ct__record_result(ct_tensor *r, ct_node *n) {
  if (!r) return ct__node_release(n), (ct_tensor *)NULL;
  if (ct__set_history_ex(r, n, 0, 1) != CT_OK) ct_release(r), r = NULL;
  return r;
}
/* ... for an in-place op that returned st: self's history rebased on n. */
static ct_status ct__record_inplace(ct_status st, ct_tensor *self, ct_node *n) {
  if (st == CT_OK) st = ct__rebase_history(self, n);
  ct__node_release(n);
  return st;
}

/* ---- the "not implemented" node: ops without a derivative ---- */
typedef struct ct__not_impl_node {
  ct_node base;
  const char *op;
} ct__not_impl_node;
static ct_status ct__not_impl_backward(ct_node *n, ct_tensor *const *g, ct_tensor **gi) {
  (void)g;
  (void)gi;
  return ct_fail(CT_ERR_UNSUPPORTED, ((ct__not_impl_node *)n)->op, "the derivative for this op is not implemented");
}
static const ct_node_kind ct__not_impl_kind = {"NotImplemented", ct__not_impl_backward, NULL};

/* ---- user API ---- */
CTDEF ct_status ct_set_requires_grad(ct_tensor *t, bool requires_grad) {
  if (!t) return ct__fail_null("ct_set_requires_grad", "t");
#ifdef CT_NO_AUTOGRAD
  if (requires_grad)
    return ct_fail(CT_ERR_UNSUPPORTED, "ct_set_requires_grad", "this build has no autograd (CT_NO_AUTOGRAD: inference only)");
#endif
  if (ct__grad_fn(t) && requires_grad) return CT_OK; /* already requires grad */
  if (ct__grad_fn(t))
    return ct_fail(CT_ERR_STATE, "ct_set_requires_grad",
                   "you can only change requires_grad flags of leaf tensors (this one has grad_fn %s); use ct_detach()",
                   t->autograd->grad_fn->kind->name);
  if (requires_grad && !ct_dtype_is_floating((ct_dtype)t->dtype))
    return ct_fail(CT_ERR_DTYPE, "ct_set_requires_grad", "only tensors of floating point dtype can require gradients, got %s",
                   ct_dtype_name((ct_dtype)t->dtype));
  if (t->flags & CT_TENSOR_WRAPPED_NUMBER) return ct_fail(CT_ERR_INVALID, "ct_set_requires_grad", "a wrapped number cannot require grad");
  if (requires_grad) {
    if (!ct__meta(t)) return ct_last_error(); /* now, not during a (possibly concurrent) backward */
    t->flags |= CT_TENSOR_REQUIRES_GRAD;
    t->keys |= ct__autograd_keys_of(t);
  } else {
    t->flags &= (uint8_t)~CT_TENSOR_REQUIRES_GRAD;
    t->keys &= ~CT_AUTOGRAD_KEYS;
  }
  return CT_OK;
}
CTDEF bool ct_requires_grad(const ct_tensor *t) { return ct__needs_grad(t) != 0; }
CTDEF bool ct_is_leaf(const ct_tensor *t) {
  ct_status st;
  if (!t) return false;
  ct__refresh_view((ct_tensor *)t, &st); /* a stale view's history is regenerated lazily */
  return st == CT_OK && !ct__grad_fn(t);
}
CTDEF ct_tensor *ct_grad(const ct_tensor *t) { return t && t->autograd ? t->autograd->grad : NULL; }
CTDEF ct_status ct_set_grad(ct_tensor *t, ct_tensor *grad) {
  ct_autograd_meta *m;
  if (!t) return ct__fail_null("ct_set_grad", "t");
  if (grad && !ct_same_shape(t, grad))
    return ct_fail(CT_ERR_SHAPE, "ct_set_grad", "assigned grad has a different shape than the tensor");
  if (grad && grad->dtype != t->dtype)
    return ct_fail(CT_ERR_DTYPE, "ct_set_grad", "assigned grad has data of a different type (%s, tensor is %s)",
                   ct_dtype_name((ct_dtype)grad->dtype), ct_dtype_name((ct_dtype)t->dtype));
  if (grad && !ct_device_eq(grad->device, t->device))
    return ct_fail(CT_ERR_DEVICE, "ct_set_grad", "assigned grad has data located on a different device");
  if (!grad && !t->autograd) return CT_OK;
  if (!(m = ct__meta(t))) return ct_last_error();
  if (grad) ct_retain(grad);
  ct_release(m->grad);
  m->grad = grad;
  return CT_OK;
}
CTDEF const char *ct_grad_fn_name(const ct_tensor *t) {
  ct_node *n;
  ct_status st;
  if (!t) return NULL;
  ct__refresh_view((ct_tensor *)t, &st);
  n = st == CT_OK ? ct__grad_fn(t) : NULL;
  return n ? n->kind->name : NULL;
}

CTDEF ct_status ct_register_hook(ct_tensor *t, ct_grad_hook_fn fn, void *ctx) {
  ct_autograd_meta *m;
  ct_status st;
  if (!t) return ct__fail_null("ct_register_hook", "t");
  if (!fn) return ct__fail_null("ct_register_hook", "fn");
  if (!ct__needs_grad(t))
    return ct_fail(CT_ERR_STATE, "ct_register_hook", "cannot register a hook on a tensor that doesn't require gradient");
  ct__refresh_view(t, &st);
  if (st != CT_OK) return st;
  if (ct__grad_fn(t)) return ct__hook_append(&t->autograd->grad_fn->hooks, t->autograd->output_nr, fn, ctx, NULL);
  if (!(m = ct__meta(t))) return ct_last_error();
  return ct__hook_append(&m->hooks, 0, fn, ctx, NULL);
}
CTDEF ct_status ct_retain_grad(ct_tensor *t) {
  ct_status st;
  if (!t) return ct__fail_null("ct_retain_grad", "t");
  if (!ct__needs_grad(t))
    return ct_fail(CT_ERR_STATE, "ct_retain_grad", "can't retain_grad on a tensor that has requires_grad=false");
  ct__refresh_view(t, &st);
  if (st != CT_OK) return st;
  if (!ct__grad_fn(t) || t->autograd->retains_grad) return CT_OK; /* leaves keep their grad anyway */
  st = ct__hook_append(&t->autograd->grad_fn->hooks, t->autograd->output_nr, NULL, NULL, t->autograd);
  if (st == CT_OK) t->autograd->retains_grad = 1;
  return st;
}
CTDEF bool ct_retains_grad(const ct_tensor *t) { return t && t->autograd && t->autograd->retains_grad; }

/* ================= the engine ================= */

/* The hooks of one output (or of a leaf) on *g, an owned reference. */
static ct_status ct__run_hooks(const ct__hook *h, int output_nr, ct_tensor **g) {
  ct_status st = CT_OK;
  for (; st == CT_OK && h; h = h->next) {
    if (h->output_nr != output_nr) continue;
    if (h->retain) { /* retain_grad: a copy the first time, then accumulated */
      ct_autograd_meta *m = h->retain;
      if (!m->grad) {
        ct_tensor *c = ct_clone(*g);
        if (!c) return ct_last_error();
        m->grad = ct_retain(c);
      } else {
        ct_tensor *sum = ct_add(m->grad, *g);
        if (!sum) return ct_last_error();
        ct_retain(sum);
        ct_release(m->grad);
        m->grad = sum;
      }
    } else {
      ct_tensor *rep = NULL;
      st = h->fn(*g, &rep, h->ctx);
      if (st == CT_OK && rep && rep != *g) {
        ct_retain(rep);
        ct_release(*g);
        *g = rep;
      }
    }
  }
  return st;
}

/* grad reduced to the input's shape (sum over broadcast dims) and dtype. */
static ct_tensor *ct__sum_to(ct_tensor *grad, const ct__shape *shape);
static ct_tensor *ct__fit_grad(ct_node *n, int i, ct_tensor *g) {
  const ct_tensor_meta *m = &n->input_meta[i];
  ct__shape s;
  int k, same = g->ndim == m->ndim;
  for (k = 0; same && k < m->ndim; k++) same = g->sizes[k] == m->sizes[k];
  if (!same) {
    int lead = g->ndim - m->ndim, ok = lead >= 0;
    char b1[160], b2[160];
    for (k = 0; ok && k < m->ndim; k++) ok = m->sizes[k] == 1 || m->sizes[k] == g->sizes[lead + k];
    if (!ok)
      return ct_fail(CT_ERR_SHAPE, n->kind->name, "returned an invalid gradient at index %d: got %s but expected shape compatible with %s",
                     i, ct_shape_format(g->ndim, g->sizes, b1, sizeof b1), ct_shape_format(m->ndim, m->sizes, b2, sizeof b2)),
             (ct_tensor *)NULL;
    s.ndim = m->ndim;
    for (k = 0; k < m->ndim; k++) s.sizes[k] = m->sizes[k];
    g = ct__sum_to(g, &s);
    if (!g) return NULL;
  }
  if (g->dtype != m->dtype && ct_dtype_is_floating((ct_dtype)m->dtype)) g = ct_to_dtype(g, (ct_dtype)m->dtype);
  if (g && !ct_device_eq(g->device, m->device)) { /* PyTorch's validate_outputs: a 0-dim gradient moves, others are an error */
    if (g->ndim == 0 && m->device.type != CT_DEVICE_META) return ct_to_device(g, m->device);
    return ct_fail(CT_ERR_DEVICE, n->kind->name, "returned an invalid gradient at index %d - expected device %s:%d but got %s:%d", i,
                   ct_device_type_name((ct_device_type)m->device.type), m->device.index,
                   ct_device_type_name((ct_device_type)g->device.type), g->device.index),
           (ct_tensor *)NULL;
  }
  return g;
}

/* *slot += g (both owned by the engine). create_graph: out of place, recorded. */
static ct_status ct__accumulate(ct_tensor **slot, ct_tensor *g, int create_graph) {
  ct_tensor *sum;
  if (!*slot) {
    *slot = ct_retain(g);
    return CT_OK;
  }
  if (!create_graph && (*slot)->refcount == 1 && (*slot)->storage->refcount == 1 && !(*slot)->autograd &&
      ct_is_contiguous(*slot) && ct_same_shape(*slot, g) && (*slot)->dtype == g->dtype)
    return ct_add_(*slot, g); /* sole owner of a dense buffer: no new allocation */
  sum = ct_add(*slot, g);
  if (!sum) return ct_last_error();
  ct_retain(sum); /* outlives the backward scope */
  ct_release(*slot);
  *slot = sum;
  return CT_OK;
}

/* AccumulateGrad: into a leaf's .grad. Steal g when nobody else holds it.
 * Backward passes on several threads may share a leaf: accumulation into
 * one leaf is serialised (as PyTorch's AccumulateGrad is). */
static ct_status ct__accumulate_leaf_locked(ct_tensor *leaf, ct_tensor *g, int create_graph);
static ct_status ct__accumulate_leaf(ct_tensor *leaf, ct_tensor *g, int create_graph) {
  ct_status st;
  ct__lock_object(leaf);
  st = ct__accumulate_leaf_locked(leaf, g, create_graph);
  ct__unlock_object(leaf);
  return st;
}
static ct_status ct__accumulate_leaf_locked(ct_tensor *leaf, ct_tensor *g, int create_graph) {
  ct_autograd_meta *m = ct__meta(leaf);
  if (!m) return ct_last_error();
  if (!m->grad) {
    if (create_graph || (g->refcount == 1 && g->storage->refcount == 1 && !g->autograd && ct_is_contiguous(g))) {
      m->grad = ct_retain(g);
      return CT_OK;
    }
    {
      ct_tensor *c = NULL;
      CT_NO_GRAD { c = ct_clone(g); }
      if (!c) return ct_last_error();
      m->grad = ct_retain(c);
    }
    return CT_OK;
  }
  if (create_graph || m->grad->autograd || !ct_is_contiguous(m->grad)) { /* (an expanded grad cannot be written) */
    ct_tensor *sum = ct_add(m->grad, g);
    if (!sum) return ct_last_error();
    ct_retain(sum);
    ct_release(m->grad);
    m->grad = sum;
    return CT_OK;
  }
  {
    ct_status st = CT_OK;
    CT_NO_GRAD { st = ct_add_(m->grad, g); }
    return st;
  }
}

/* A backward run's state lives in the run, never in the nodes: threads may
 * run backward through one shared graph (with retain_graph) at once. */
typedef struct ct__node_index {
  const ct_node *node; /* NULL: empty */
  int64_t index;       /* position in ct__engine.nodes */
} ct__node_index;

typedef struct ct__engine {
  ct_node **nodes;    /* reachable nodes, latest first */
  int64_t n, cap;
  ct__node_index *index; /* open addressing, power-of-two capacity > 2n */
  int64_t index_cap;
  ct_tensor ***grads; /* per node: its output grads (owned) */
  int create_graph, retain_graph, accumulate;
  /* ct_autograd_grad: what to capture */
  int num_inputs;
  ct_tensor *const *inputs;
  ct_tensor **captured;
  /* leaves with hooks: their gradient is summed first, hooked and accumulated at the end */
  ct_tensor **hooked_leaf, **hooked_grad;
  int64_t nhooked, hooked_cap;
} ct__engine;

static ct__node_index *ct__engine_slot(const ct__engine *e, const ct_node *n) {
  uint64_t h = ((uint64_t)(uintptr_t)n >> 4) * 0x9E3779B97F4A7C15ull;
  int64_t mask = e->index_cap - 1, i = (int64_t)(h >> 20) & mask;
  while (e->index[i].node && e->index[i].node != n) i = (i + 1) & mask;
  return &e->index[i];
}
/* n's position in this run, or -1 if the run has not reached it. */
static int64_t ct__engine_find(const ct__engine *e, const ct_node *n) {
  const ct__node_index *s;
  if (!e->index_cap) return -1;
  s = ct__engine_slot(e, n);
  return s->node ? s->index : -1;
}
static ct_status ct__engine_push(ct__engine *e, ct_node *n) {
  if (e->n == e->cap) {
    int64_t cap = e->cap ? e->cap * 2 : 64;
    ct_node **p = (ct_node **)ct__scratch_grow(e->nodes, sizeof(ct_node *) * (size_t)e->cap, sizeof(ct_node *) * (size_t)cap);
    if (!p) return ct_fail(CT_ERR_OOM, "backward", "out of memory collecting the graph");
    e->nodes = p;
    e->cap = cap;
  }
  if (2 * (e->n + 1) > e->index_cap) { /* grow the index and put every node back */
    int64_t cap = e->index_cap ? 2 * e->index_cap : 128, i;
    int64_t old_cap = e->index_cap;
    ct__node_index *old = e->index, *fresh = (ct__node_index *)ct__scratch_alloc(sizeof(ct__node_index) * (size_t)cap);
    if (!fresh) return ct_fail(CT_ERR_OOM, "backward", "out of memory collecting the graph");
    memset(fresh, 0, sizeof(ct__node_index) * (size_t)cap);
    e->index = fresh;
    e->index_cap = cap;
    for (i = 0; i < e->n; i++) {
      ct__node_index *slot = ct__engine_slot(e, e->nodes[i]);
      slot->node = e->nodes[i];
      slot->index = i;
    }
    ct__scratch_free(old, sizeof(ct__node_index) * (size_t)old_cap);
  }
  {
    ct__node_index *slot = ct__engine_slot(e, n);
    slot->node = n;
    slot->index = e->n;
  }
  e->nodes[e->n++] = n;
  return CT_OK;
}

static int ct__seq_desc(const void *a, const void *b) {
  uint64_t x = (*(ct_node *const *)a)->seq, y = (*(ct_node *const *)b)->seq;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Every node reachable from the roots (depth-first over an explicit list). */
static ct_status ct__engine_collect(ct__engine *e, int nroots, ct_tensor *const *roots) {
  int64_t i;
  int r, k;
  for (r = 0; r < nroots; r++) {
    ct_node *n = ct__grad_fn(roots[r]);
    if (n && ct__engine_find(e, n) < 0 && ct__engine_push(e, n) != CT_OK) return ct_last_error();
  }
  for (i = 0; i < e->n; i++) {
    ct_node *n = e->nodes[i];
    for (k = 0; k < n->num_inputs; k++) {
      ct_node *m = n->edges[k].node;
      if (m && ct__engine_find(e, m) < 0 && ct__engine_push(e, m) != CT_OK) return ct_last_error();
    }
  }
  if (e->n > 32) {
    qsort(e->nodes, (size_t)e->n, sizeof(ct_node *), ct__seq_desc);
  } else { /* (a small graph, collected nearly in order: insertion sort) */
    for (i = 1; i < e->n; i++) {
      ct_node *n = e->nodes[i];
      int64_t j = i;
      for (; j > 0 && e->nodes[j - 1]->seq < n->seq; j--) e->nodes[j] = e->nodes[j - 1];
      e->nodes[j] = n;
    }
  }
  for (i = 0; i < e->n; i++) ct__engine_slot(e, e->nodes[i])->index = i;
  return CT_OK;
}

/* A gradient g (owned by the caller) arrives for edge e of some node. */
static ct_status ct__engine_route(ct__engine *e, const ct__edge *edge, ct_tensor *g) {
  if (edge->leaf) {
    int i;
    ct_status st = CT_OK;
    if (e->accumulate && edge->leaf->autograd && edge->leaf->autograd->hooks) {
      int64_t k;
      for (k = 0; k < e->nhooked && e->hooked_leaf[k] != edge->leaf; k++) {}
      if (k == e->nhooked) {
        if (e->nhooked == e->hooked_cap) {
          int64_t cap = e->hooked_cap ? 2 * e->hooked_cap : 8;
          size_t was = sizeof(ct_tensor *) * (size_t)e->hooked_cap, now = sizeof(ct_tensor *) * (size_t)cap;
          ct_tensor **l = (ct_tensor **)ct__scratch_alloc(now), **gr = (ct_tensor **)ct__scratch_alloc(now);
          if (!l || !gr) {
            ct__scratch_free(l, now), ct__scratch_free(gr, now);
            return ct_fail(CT_ERR_OOM, "backward", "out of memory");
          }
          if (was) {
            memcpy(l, e->hooked_leaf, was), memcpy(gr, e->hooked_grad, was);
            ct__scratch_free(e->hooked_leaf, was), ct__scratch_free(e->hooked_grad, was);
          }
          e->hooked_leaf = l, e->hooked_grad = gr;
          e->hooked_cap = cap;
        }
        e->hooked_leaf[k] = edge->leaf, e->hooked_grad[k] = NULL, e->nhooked++;
      }
      return ct__accumulate(&e->hooked_grad[k], g, e->create_graph);
    }
    if (e->accumulate) return ct__accumulate_leaf(edge->leaf, g, e->create_graph);
    for (i = 0; st == CT_OK && i < e->num_inputs; i++) /* the same leaf may be asked for twice */
      if (e->inputs[i] == edge->leaf) st = ct__accumulate(&e->captured[i], g, e->create_graph);
    return st;
  }
  return ct__accumulate(&e->grads[ct__engine_find(e, edge->node)][edge->output_nr], g, e->create_graph);
}

static ct_status ct__zeros_for(const ct_tensor_meta *m, ct_tensor **out) {
  ct_options o;
  o.dtype = (ct_dtype)m->dtype;
  o.device = m->device;
  *out = ct_empty_opts(m->ndim, m->sizes, o);
  if (!*out || ct_fill_(*out, ct_int(0)) != CT_OK) return ct_last_error();
  ct_retain(*out);
  return CT_OK;
}

/* One node: its output grads are complete. Runs inside the caller's scope. */
static ct_status ct__engine_run_node(ct__engine *e, ct_node *n) {
  ct_tensor **g = e->grads[ct__engine_find(e, n)];
  ct_tensor *gin_buf[8], **gin = gin_buf;
  int i, any = 0;
  ct_status st = CT_OK;
  for (i = 0; i < n->num_outputs; i++) any |= g[i] != NULL;
  if (!any) return CT_OK; /* no gradient reached this node: an unused branch */
  if (e->captured)
    for (i = 0; i < e->num_inputs; i++) {
      const ct_tensor *t = e->inputs[i];
      if (ct__grad_fn(t) == n && g[t->autograd->output_nr] &&
          (st = ct__accumulate(&e->captured[i], g[t->autograd->output_nr], e->create_graph)) != CT_OK)
        return st;
    }
  if (n->hooks) /* after the captures: autograd_grad returns gradients before hooks */
    for (i = 0; i < n->num_outputs; i++)
      if (g[i] && (st = ct__run_hooks(n->hooks, i, &g[i])) != CT_OK) return st;
  for (i = 0; i < n->num_outputs; i++)
    if (!g[i] && (st = ct__zeros_for(&n->output_meta[i], &g[i])) != CT_OK) return st;
  if (n->num_inputs > 8) {
    gin = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)n->num_inputs);
    if (!gin) return ct_fail(CT_ERR_OOM, "backward", "out of memory");
  }
  memset(gin, 0, sizeof(ct_tensor *) * (size_t)n->num_inputs);
  st = n->kind->backward(n, g, gin); /* a node that freed its saved tensors fails when it unpacks them */
  for (i = 0; st == CT_OK && i < n->num_inputs; i++) {
    ct_tensor *gi;
    if (!ct_node_needs_input_grad(n, i)) continue;
    if (!gin[i]) {
      st = ct_last_error() != CT_OK ? ct_last_error()
                                     : ct_fail(CT_ERR_STATE, n->kind->name, "backward returned no gradient for input %d", i);
      break;
    }
    gi = ct__fit_grad(n, i, gin[i]);
    st = gi ? ct__engine_route(e, &n->edges[i], gi) : ct_last_error();
  }
  if (gin != gin_buf) CT_FREE(gin);
  for (i = 0; i < n->num_outputs; i++) ct_release(g[i]), g[i] = NULL; /* done with them: frees memory early */
  if (st == CT_OK && !e->retain_graph) {
    if (n->kind->release_saved) n->kind->release_saved(n);
    n->released = 1;
  }
  return st;
}

static ct_status ct__engine_execute(const ct_backward_desc *d, int num_inputs, ct_tensor *const *inputs, ct_tensor **captured) {
  static const char *op = "backward";
  ct__engine e;
  ct_tensor **slots = NULL;
  size_t grads_bytes = 0, slots_bytes = 0;
  int64_t i, nslots = 0;
  int r;
  ct_status st = CT_OK;
  memset(&e, 0, sizeof e);
  if (!d) return ct__fail_null(op, "desc");
  if (d->num_outputs <= 0 || !d->outputs) return ct_fail(CT_ERR_INVALID, op, "no outputs to differentiate");
  for (r = 0; r < d->num_outputs; r++) {
    ct_tensor *t = d->outputs[r], *go = d->grad_outputs ? d->grad_outputs[r] : NULL;
    if (!t) return ct__fail_null(op, "outputs");
    if (!ct__needs_grad(t))
      return ct_fail(CT_ERR_STATE, op, "element %d of tensors does not require grad and does not have a grad_fn", r);
    ct__refresh_view(t, &st);
    if (st != CT_OK) return st;
    /* a view made without grad of a base that requires it: requires grad, but has neither history
     * nor a .grad of its own to accumulate into (PyTorch refuses it as a root the same way) */
    if (!ct__grad_fn(t) && !(t->flags & CT_TENSOR_REQUIRES_GRAD))
      return ct_fail(CT_ERR_STATE, op, "element %d of tensors does not require grad and does not have a grad_fn", r);
    if (!go && t->numel != 1)
      return ct_fail(CT_ERR_SHAPE, op, "grad can be implicitly created only for scalar outputs (output %d has %lld elements)", r,
                     (long long)t->numel);
    if (go && !ct_same_shape(go, t)) {
      char b1[160], b2[160];
      return ct_fail(CT_ERR_SHAPE, op, "mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape of %s", r,
                     ct_shape_format(go->ndim, go->sizes, b1, sizeof b1), r, ct_shape_format(t->ndim, t->sizes, b2, sizeof b2));
    }
    if (go && go->ndim > 0 && !ct_device_eq(go->device, t->device)) /* (a 0-dim one is moved when seeded, as PyTorch's) */
      return ct_fail(CT_ERR_DEVICE, op, "invalid gradient at index %d - expected device %s:%d but got %s:%d", r,
                     ct_device_type_name((ct_device_type)t->device.type), t->device.index,
                     ct_device_type_name((ct_device_type)go->device.type), go->device.index);
  }
  for (r = 0; r < num_inputs; r++) {
    if (!inputs[r]) return ct__fail_null("ct_autograd_grad", "inputs");
    ct__refresh_view(inputs[r], &st);
    if (st != CT_OK) return st;
    if (!ct__needs_grad(inputs[r]))
      return ct_fail(CT_ERR_STATE, "ct_autograd_grad", "input %d does not require grad", r);
    captured[r] = NULL;
  }
  e.create_graph = d->create_graph;
  e.retain_graph = d->retain_graph || d->create_graph;
  e.accumulate = captured == NULL;
  e.num_inputs = num_inputs;
  e.inputs = inputs;
  e.captured = captured;
  if ((st = ct__engine_collect(&e, d->num_outputs, d->outputs)) != CT_OK) goto done;
  for (i = 0; i < e.n; i++) nslots += e.nodes[i]->num_outputs;
  grads_bytes = sizeof(ct_tensor **) * (size_t)(e.n ? e.n : 1);
  slots_bytes = sizeof(ct_tensor *) * (size_t)(nslots ? nslots : 1);
  e.grads = (ct_tensor ***)ct__scratch_alloc(grads_bytes);
  slots = (ct_tensor **)ct__scratch_alloc(slots_bytes);
  if (!e.grads || !slots) {
    st = ct_fail(CT_ERR_OOM, op, "out of memory");
    goto done;
  }
  memset(slots, 0, sizeof(ct_tensor *) * (size_t)(nslots ? nslots : 1));
  for (i = 0, nslots = 0; i < e.n; i++) e.grads[i] = slots + nslots, nslots += e.nodes[i]->num_outputs;
  {
    ct_guard grad_mode = ct__guard_zero(), scope = ct__guard_zero();
    if (e.create_graph) ct_enable_grad_begin(&grad_mode);
    else ct_no_grad_begin(&grad_mode);
    for (r = 0; st == CT_OK && r < d->num_outputs; r++) { /* seed the roots */
      ct_tensor *t = d->outputs[r], *go = d->grad_outputs ? d->grad_outputs[r] : NULL;
      ct__edge root;
      ct_scope_begin(&scope);
      if (!go) go = ct_ones_like(t);
      else go = go->dtype != t->dtype ? ct_to_dtype(go, (ct_dtype)t->dtype) : ct_alias(go); /* never hand out the caller's tensor */
      if (go && !ct_device_eq(go->device, t->device)) go = ct_to_device(go, t->device); /* a 0-dim grad_output */
      memset(&root, 0, sizeof root);
      if (ct__grad_fn(t)) root.node = t->autograd->grad_fn, root.output_nr = t->autograd->output_nr;
      else if (t->flags & CT_TENSOR_REQUIRES_GRAD) root.leaf = t;
      st = !go ? ct_last_error() : root.node || root.leaf ? ct__engine_route(&e, &root, go) : CT_OK; /* (a view without history: dropped) */
      ct_guard_end(&scope);
    }
    for (i = 0; st == CT_OK && i < e.n; i++) {
      ct_scope_begin(&scope);
      st = ct__engine_run_node(&e, e.nodes[i]);
      ct_guard_end(&scope);
    }
    for (i = 0; st == CT_OK && i < e.nhooked; i++) { /* hooked leaves, each once on its summed gradient */
      ct_scope_begin(&scope);
      st = ct__run_hooks(e.hooked_leaf[i]->autograd->hooks, 0, &e.hooked_grad[i]);
      if (st == CT_OK) st = ct__accumulate_leaf(e.hooked_leaf[i], e.hooked_grad[i], e.create_graph);
      ct_guard_end(&scope);
    }
    ct_guard_end(&grad_mode);
  }
done:
  for (i = 0; slots && i < nslots; i++) ct_release(slots[i]);
  for (i = 0; i < e.nhooked; i++) ct_release(e.hooked_grad[i]);
  ct__scratch_free(e.hooked_leaf, sizeof(ct_tensor *) * (size_t)e.hooked_cap);
  ct__scratch_free(e.hooked_grad, sizeof(ct_tensor *) * (size_t)e.hooked_cap);
  ct__scratch_free(slots, slots_bytes);
  ct__scratch_free(e.grads, grads_bytes);
  ct__scratch_free(e.nodes, sizeof(ct_node *) * (size_t)e.cap);
  ct__scratch_free(e.index, sizeof(ct__node_index) * (size_t)e.index_cap);
  if (st != CT_OK && captured)
    for (r = 0; r < num_inputs; r++) ct_release(captured[r]), captured[r] = NULL;
  if (st == CT_OK && captured && !d->allow_unused)
    for (r = 0; r < num_inputs; r++)
      if (!captured[r]) {
        for (r = 0; r < num_inputs; r++) ct_release(captured[r]), captured[r] = NULL;
        return ct_fail(CT_ERR_STATE, "ct_autograd_grad",
                       "one of the differentiated tensors appears to not have been used in the graph; set allow_unused "
                       "if this is the desired behavior");
      }
  return st;
}

CTDEF ct_status ct_autograd_backward(const ct_backward_desc *desc) { return ct__engine_execute(desc, 0, NULL, NULL); }
CTDEF ct_status ct_autograd_grad(const ct_backward_desc *desc, int num_inputs, ct_tensor *const *inputs, ct_tensor **grads) {
  if (num_inputs < 0 || (num_inputs && (!inputs || !grads)))
    return ct_fail(CT_ERR_INVALID, "ct_autograd_grad", "inputs and grads must hold num_inputs entries");
  if (!num_inputs) return ct_fail(CT_ERR_INVALID, "ct_autograd_grad", "no inputs to differentiate with respect to");
  memset(grads, 0, sizeof(ct_tensor *) * (size_t)num_inputs); /* NULL on every error path */
  return ct__engine_execute(desc, num_inputs, inputs, grads);
}
CTDEF ct_status ct_backward_ex(ct_tensor *root, ct_tensor *grad_output, bool retain_graph, bool create_graph) {
  ct_backward_desc d;
  memset(&d, 0, sizeof d);
  d.num_outputs = 1;
  d.outputs = &root;
  d.grad_outputs = grad_output ? &grad_output : NULL;
  d.retain_graph = retain_graph;
  d.create_graph = create_graph;
  return ct_autograd_backward(&d);
}
CTDEF ct_status ct_backward(ct_tensor *root) { return ct_backward_ex(root, NULL, false, false); }

CT_EXTERN_C_END
#endif /* CT__AUTOGRAD_IMPL */
