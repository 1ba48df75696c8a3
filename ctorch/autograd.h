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
  uint8_t is_view;         /* a view of a tensor that requires grad */
  uint32_t view_version;   /* views: the storage version when the view got its history */
} ct_autograd_meta;

/* ---- user API ---- */
/* Leaves only: start (or stop) recording operations on t. */
CTDEF ct_status ct_set_requires_grad(ct_tensor *t, bool requires_grad);
CTDEF bool ct_requires_grad(const ct_tensor *t);
CTDEF bool ct_is_leaf(const ct_tensor *t); /* no grad_fn */
/* t's accumulated gradient, borrowed (NULL if none). */
CTDEF ct_tensor *ct_grad(const ct_tensor *t);
/* Replace (or with NULL, drop) t's .grad; the tensor is retained. */
CTDEF ct_status ct_set_grad(ct_tensor *t, ct_tensor *grad);
/* "MulBackward0", or NULL for leaves and tensors without history. */
CTDEF const char *ct_grad_fn_name(const ct_tensor *t);
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
  uint8_t visited;            /* engine scratch */
  uint32_t size;              /* bytes of this allocation */
  uint64_t seq;               /* creation order: the tape position */
  int64_t topo;               /* engine scratch: index in the current run */
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
    ct_autograd_meta *m = (ct_autograd_meta *)ct__obj_alloc(sizeof *m);
    if (!m) return ct_fail(CT_ERR_OOM, "autograd", "out of memory"), (ct_autograd_meta *)NULL;
    memset(m, 0, sizeof *m);
    t->autograd = m;
  }
  return t->autograd;
}

static void ct__node_release(ct_node *n);
static inline void ct__node_retain(ct_node *n) { n->refcount++; }

static void ct__autograd_release(ct_tensor *t) {
  ct_autograd_meta *m = t->autograd;
  t->autograd = NULL;
  ct_release(m->grad);
  if (m->grad_fn) ct__node_release(m->grad_fn);
  ct__obj_free(m, sizeof *m);
}

static inline int ct__grad_mode(void) { return !ct__tls.grad_disabled; }
static inline int ct__needs_grad(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_REQUIRES_GRAD); }
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

/* t is now output `nr` of node n (which it owns a reference to). */
static ct_status ct__set_history(ct_tensor *t, ct_node *n, int nr) {
  ct_autograd_meta *m = ct__meta(t);
  if (!m) return ct_last_error();
  ct__node_retain(n);
  if (m->grad_fn) ct__node_release(m->grad_fn);
  m->grad_fn = n;
  m->output_nr = nr;
  t->flags |= CT_TENSOR_REQUIRES_GRAD;
  t->keys |= ct__autograd_keys_of(t);
  ct__meta_fill(&n->output_meta[nr], t);
  return CT_OK;
}

/* ---- nodes ---- */
static uint64_t ct__node_seq; /* global: creation order across threads */

static size_t ct__align8(size_t n) { return (n + 7) & ~(size_t)7; }

static ct_node *ct__node_new(const ct_node_kind *kind, size_t struct_size, int num_inputs, int num_outputs) {
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

static ct_status ct__stale_view_backward(ct_node *n, ct_tensor *const *g, ct_tensor **gi) {
  (void)n, (void)g, (void)gi;
  return ct_fail(CT_ERR_UNSUPPORTED, "backward",
                 "a view was used after its base was modified in place; ctorch cannot rebase the view's history: "
                 "take the view again after the in-place operation (or clone it before)");
}
static const ct_node_kind ct__stale_view_kind = {"StaleViewBackward", ct__stale_view_backward, NULL};

/* Edge i of n leads to t's history (if t requires grad). */
static void ct__node_set_input(ct_node *n, int i, ct_tensor *t) {
  ct__edge *e = &n->edges[i];
  if (!ct__needs_grad(t)) return; /* no edge: its metadata is never read */
  ct__meta_fill(&n->input_meta[i], t);
  if (t->autograd && t->autograd->is_view && t->autograd->view_version != t->storage->version) {
    /* the view's base was changed in place after the view was made: its
     * history is stale and ctorch cannot rebase it (PyTorch regenerates it) */
    e->node = ct__node_new(&ct__stale_view_kind, sizeof(ct_node), 0, 1);
    if (e->node) ct__meta_fill(&e->node->output_meta[0], t);
    return;
  }
  if (t->autograd && t->autograd->grad_fn) {
    e->node = t->autograd->grad_fn;
    e->output_nr = t->autograd->output_nr;
    ct__node_retain(e->node);
  } else {
    e->leaf = ct_retain(t);
  }
}

CTDEF bool ct_node_needs_input_grad(const ct_node *n, int i) {
  return n && i >= 0 && i < n->num_inputs && (n->edges[i].node || n->edges[i].leaf);
}

/* Freeing a long chain node by node would recurse as deep as the graph:
 * released nodes go on an explicit stack instead. */
static void ct__node_release(ct_node *n) {
  ct_node *stack_buf[64], **stack = stack_buf;
  int sp = 0, cap = 64;
  if (--n->refcount > 0) return;
  stack[sp++] = n;
  while (sp) {
    ct_node *x = stack[--sp];
    int i;
    if (x->kind->release_saved) x->kind->release_saved(x);
    for (i = 0; i < x->num_inputs; i++) {
      ct__edge *e = &x->edges[i];
      ct_release(e->leaf);
      if (e->node && --e->node->refcount == 0) {
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
/* Inputs are saved as they are (they own their own history). */
static void ct__save(ct__saved *s, ct_tensor *t) {
  s->defined = 1;
  s->is_output = 0;
  if (!t) return;
  s->t = ct_retain(t);
  s->version = t->storage->version;
}
/* An in-place op's formula needs self as it was: save a copy. */
static ct_status ct__save_clone(ct__saved *s, ct_tensor *t) {
  ct_tensor *c = NULL;
  s->defined = 1;
  s->is_output = 0;
  CT_NO_GRAD { c = ct_clone(t); }
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
#define CT__BELOW_AUTOGRAD (ct_keys_below(CT_KEY_AUTOGRAD_META))

/* In-place on something autograd must refuse (PyTorch's check_inplace). */
static ct_status ct__check_inplace(const char *op, ct_tensor *self) {
  if (ct__needs_grad(self) && !ct__grad_fn(self))
    return ct_fail(CT_ERR_STATE, op,
                   "a leaf tensor that requires grad is being used in an in-place operation; "
                   "wrap the update in CT_NO_GRAD, or clone() the tensor first");
  if (self->autograd && self->autograd->is_view)
    return ct_fail(CT_ERR_UNSUPPORTED, op,
                   "in-place operation on a view of a tensor that requires grad: ctorch does not rebase view history; "
                   "clone() the view first");
  return CT_OK;
}
static ct_status ct__out_not_differentiable(const char *op) {
  return ct_fail(CT_ERR_STATE, op,
                 "out= arguments don't support automatic differentiation, but one of the arguments requires grad");
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
  if (ct__grad_fn(t))
    return ct_fail(CT_ERR_STATE, "ct_set_requires_grad",
                   "you can only change requires_grad flags of leaf tensors (this one has grad_fn %s); use ct_detach()",
                   t->autograd->grad_fn->kind->name);
  if (requires_grad && !ct_dtype_is_floating((ct_dtype)t->dtype))
    return ct_fail(CT_ERR_DTYPE, "ct_set_requires_grad", "only tensors of floating point dtype can require gradients, got %s",
                   ct_dtype_name((ct_dtype)t->dtype));
  if (t->flags & CT_TENSOR_WRAPPED_NUMBER) return ct_fail(CT_ERR_INVALID, "ct_set_requires_grad", "a wrapped number cannot require grad");
  if (requires_grad) {
    t->flags |= CT_TENSOR_REQUIRES_GRAD;
    t->keys |= ct__autograd_keys_of(t);
  } else {
    t->flags &= (uint8_t)~CT_TENSOR_REQUIRES_GRAD;
    t->keys &= ~CT_AUTOGRAD_KEYS;
  }
  return CT_OK;
}
CTDEF bool ct_requires_grad(const ct_tensor *t) { return ct__needs_grad(t) != 0; }
CTDEF bool ct_is_leaf(const ct_tensor *t) { return t && !ct__grad_fn(t); }
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
  ct_node *n = t ? ct__grad_fn(t) : NULL;
  return n ? n->kind->name : NULL;
}

/* ================= the engine ================= */

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

/* AccumulateGrad: into a leaf's .grad. Steal g when nobody else holds it. */
static ct_status ct__accumulate_leaf(ct_tensor *leaf, ct_tensor *g, int create_graph) {
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

typedef struct ct__engine {
  ct_node **nodes;    /* reachable nodes, latest first */
  int64_t n, cap;
  ct_tensor ***grads; /* per node: its output grads (owned) */
  int create_graph, retain_graph, accumulate;
  /* ct_autograd_grad: what to capture */
  int num_inputs;
  ct_tensor *const *inputs;
  ct_tensor **captured;
} ct__engine;

static ct_status ct__engine_push(ct__engine *e, ct_node *n) {
  if (e->n == e->cap) {
    int64_t cap = e->cap ? e->cap * 2 : 64;
    ct_node **p = (ct_node **)CT_REALLOC(e->nodes, sizeof(ct_node *) * (size_t)cap);
    if (!p) return ct_fail(CT_ERR_OOM, "backward", "out of memory collecting the graph");
    e->nodes = p;
    e->cap = cap;
  }
  e->nodes[e->n++] = n;
  n->visited = 1;
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
    if (n && !n->visited && ct__engine_push(e, n) != CT_OK) return ct_last_error();
  }
  for (i = 0; i < e->n; i++) {
    ct_node *n = e->nodes[i];
    for (k = 0; k < n->num_inputs; k++) {
      ct_node *m = n->edges[k].node;
      if (m && !m->visited && ct__engine_push(e, m) != CT_OK) return ct_last_error();
    }
  }
  if (e->n) qsort(e->nodes, (size_t)e->n, sizeof(ct_node *), ct__seq_desc); /* (a leaf root: no nodes) */
  for (i = 0; i < e->n; i++) e->nodes[i]->topo = i, e->nodes[i]->visited = 0;
  return CT_OK;
}

/* A gradient g (owned by the caller) arrives for edge e of some node. */
static ct_status ct__engine_route(ct__engine *e, const ct__edge *edge, ct_tensor *g) {
  if (edge->leaf) {
    int i;
    ct_status st = CT_OK;
    if (e->accumulate) return ct__accumulate_leaf(edge->leaf, g, e->create_graph);
    for (i = 0; st == CT_OK && i < e->num_inputs; i++) /* the same leaf may be asked for twice */
      if (e->inputs[i] == edge->leaf) st = ct__accumulate(&e->captured[i], g, e->create_graph);
    return st;
  }
  return ct__accumulate(&e->grads[edge->node->topo][edge->output_nr], g, e->create_graph);
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
  ct_tensor **g = e->grads[n->topo];
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
    if (t->autograd && t->autograd->is_view && t->autograd->view_version != t->storage->version)
      return ct__stale_view_backward(NULL, NULL, NULL);
    if (!go && t->numel != 1)
      return ct_fail(CT_ERR_SHAPE, op, "grad can be implicitly created only for scalar outputs (output %d has %lld elements)", r,
                     (long long)t->numel);
    if (go && !ct_same_shape(go, t)) {
      char b1[160], b2[160];
      return ct_fail(CT_ERR_SHAPE, op, "mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape of %s", r,
                     ct_shape_format(go->ndim, go->sizes, b1, sizeof b1), r, ct_shape_format(t->ndim, t->sizes, b2, sizeof b2));
    }
  }
  for (r = 0; r < num_inputs; r++) {
    if (!inputs[r]) return ct__fail_null("ct_autograd_grad", "inputs");
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
  e.grads = (ct_tensor ***)CT_MALLOC(sizeof(ct_tensor **) * (size_t)(e.n ? e.n : 1));
  slots = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)(nslots ? nslots : 1));
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
      memset(&root, 0, sizeof root);
      if (ct__grad_fn(t)) root.node = t->autograd->grad_fn, root.output_nr = t->autograd->output_nr;
      else root.leaf = t;
      st = go ? ct__engine_route(&e, &root, go) : ct_last_error();
      ct_guard_end(&scope);
    }
    for (i = 0; st == CT_OK && i < e.n; i++) {
      ct_scope_begin(&scope);
      st = ct__engine_run_node(&e, e.nodes[i]);
      ct_guard_end(&scope);
    }
    ct_guard_end(&grad_mode);
  }
done:
  for (i = 0; i < nslots; i++) ct_release(slots[i]);
  CT_FREE(slots);
  CT_FREE(e.grads);
  CT_FREE(e.nodes);
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
