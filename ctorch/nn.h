/* ctorch/nn.h - modules (torch.nn) and parameter initialisation (torch.nn.init).
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A thin layer over the ops, as torch.nn: a ct_module owns named parameters
 * and buffers and named child modules, so its state dict has PyTorch's names
 * ("0.weight", "layers.1.self_attn.in_proj_weight") and a state dict saved
 * by PyTorch loads into the same architecture here. Every built-in module is
 * initialised as PyTorch initialises it (the same distributions and bounds;
 * the numbers differ because ctorch's generator is Philox, not mt19937).
 *
 *   ct_module *net = ct_nn_sequential(3, (ct_module *[]){ct_nn_linear(2, 64, true), ct_nn_relu(),
 *                                                        ct_nn_linear(64, 3, true)});
 *   int n; ct_tensor *const *params = ct_module_parameters(net, &n);
 *   ct_optim *opt = ct_optim_new(CT_OPTIM_ADAMW, n, params, &opts);
 *   CT_SCOPE { loss = ct_cross_entropy_loss(ct_module_forward(net, x), y); ct_backward(loss); }
 *   ct_module_free(net);
 *
 * Ownership: a module owns its parameters, buffers and children; the
 * constructors that take modules (ct_nn_sequential, ct_module_add) take
 * ownership of them, also when they fail, so constructors nest without
 * leaks (a NULL argument makes the outer constructor fail with the inner
 * error). Forward functions return a new tensor as every op does (owned by
 * the innermost CT_SCOPE if one is open, else by the caller).
 *
 * Modules with one input and one output run through ct_module_forward (and
 * so inside ct_nn_sequential); modules with more inputs or outputs (GRU,
 * LSTM, their cells, MultiheadAttention, TransformerEncoderLayer) have typed
 * forward functions as well, and ct_module_forward runs them with PyTorch's
 * defaults (zero initial state, self-attention without masks).
 *
 * Your own module: ct_module_new with a forward function and a state
 * pointer, then ct_module_register_parameter / _buffer / ct_module_add.
 *
 * Modules are not thread-safe: one thread uses a module tree at a time
 * (forward passes from several threads are fine once it is built, if no
 * thread changes it; BatchNorm in training mode updates its buffers).
 */
#ifndef CT_NN_H
#define CT_NN_H

#include <stdio.h>

#include "generated/functions.h"
#include "guard.h"
#include "safetensors.h"

CT_EXTERN_C_BEGIN

typedef struct ct_module ct_module;
/* One input, one output: the new tensor, or NULL with the error set. */
typedef ct_tensor *(*ct_forward_fn)(ct_module *self, ct_tensor *input);

/* ---- the module type ---- */
/* A module of your own: kind is its class name (copied); forward may be NULL
 * for a container; state is yours, freed with free_state (may be NULL) when
 * the module is freed. */
CTDEF ct_module *ct_module_new(const char *kind, ct_forward_fn forward, void *state, void (*free_state)(void *state));
CTDEF void ct_module_free(ct_module *m); /* the module, its children, its references to its tensors; NULL is fine */
CTDEF const char *ct_module_kind(const ct_module *m); /* "Linear" */
CTDEF void *ct_module_state(const ct_module *m);
/* Registers t under name (no dots; unique among the module's parameters,
 * buffers and children). A parameter must be a floating-point leaf; it is
 * made to require grad. The module takes a reference (the caller keeps its
 * own). A buffer may be any tensor (running statistics, counters). */
CTDEF ct_status ct_module_register_parameter(ct_module *m, const char *name, ct_tensor *t);
CTDEF ct_status ct_module_register_buffer(ct_module *m, const char *name, ct_tensor *t);
/* Adds child under name and takes ownership of it (it is freed here on
 * error, a NULL child included). Returns child, or NULL on error. */
CTDEF ct_module *ct_module_add(ct_module *m, const char *name, ct_module *child);
/* A descendant by dotted path ("layers.0.self_attn"), or NULL (no error set). */
CTDEF ct_module *ct_module_child(const ct_module *m, const char *path);
/* A parameter or buffer by dotted name ("0.weight"), borrowed, or NULL (no error set). */
CTDEF ct_tensor *ct_module_get(const ct_module *m, const char *name);
CTDEF ct_tensor *ct_module_forward(ct_module *m, ct_tensor *input);
/* Training mode (dropout active, batch statistics) for the module and all
 * its descendants; modules start in training mode, as in PyTorch. */
CTDEF void ct_module_train(ct_module *m, bool training);
CTDEF void ct_module_eval(ct_module *m); /* ct_module_train(m, false) */
CTDEF bool ct_module_is_training(const ct_module *m);
/* Zeroes every parameter's gradient in place (Module.zero_grad(set_to_none=False)). */
CTDEF ct_status ct_module_zero_grad(ct_module *m);
/* Every parameter of the tree, PyTorch's order (own parameters, then each
 * child's, depth first); *n gets the count. The array belongs to m and stays
 * valid until the tree changes (registration, ct_module_add, ct_module_to). */
CTDEF ct_tensor *const *ct_module_parameters(ct_module *m, int *n);
CTDEF int64_t ct_module_parameter_numel(ct_module *m); /* total number of parameter elements */
/* Converts every parameter and floating-point buffer to dtype (CT_DTYPE_NONE:
 * keep) and moves every tensor to device (CT_NO_DEVICE: keep), as
 * Module.to; the parameters become new leaves (gradients are dropped), so
 * make the optimizer after. Integer buffers keep their dtype. */
CTDEF ct_status ct_module_to(ct_module *m, ct_device device, ct_dtype dtype);
/* PyTorch's repr: "Sequential(\n  (0): Linear(in_features=2, out_features=64, bias=True)\n ...)". */
CTDEF void ct_module_print(const ct_module *m, FILE *f);

/* ---- state dicts ---- */
typedef struct ct_state_dict {
  int n;
  char **names;        /* "0.weight" */
  ct_tensor **tensors; /* references held by the state dict (the module's own tensors, not copies) */
} ct_state_dict;
/* Parameters and buffers with PyTorch's names and order (own parameters,
 * own buffers, then each child's, depth first). NULL on error. */
CTDEF ct_state_dict *ct_module_state_dict(ct_module *m);
CTDEF void ct_state_dict_free(ct_state_dict *sd);
/* Copies tensors[i] into the module's tensor called names[i] (under
 * no-grad; dtype converted, device moved, shapes must match). strict: every
 * module tensor must be given and every name must be the module's, as
 * load_state_dict(strict=True). Checked before anything is copied: on error
 * the module is unchanged. */
CTDEF ct_status ct_module_load_state_dict(ct_module *m, int n, const char *const *names, ct_tensor *const *tensors, bool strict);

/* safetensors files of the state dict: the files torch's
 * safetensors.torch.save_file(model.state_dict(), path) writes and reads.
 * ct_module_load checks names, dtypes and shapes before it copies anything
 * (strict as in ct_module_load_state_dict). */
CTDEF ct_status ct_module_save(ct_module *m, const char *path);
CTDEF ct_status ct_module_load(ct_module *m, const char *path, bool strict);

/* ---- built-in modules (PyTorch's class names, arguments and defaults) ---- */
CTDEF ct_module *ct_nn_linear(int64_t in_features, int64_t out_features, bool bias);

typedef struct ct_conv_opts {
  int64_t stride[2], padding[2], dilation[2]; /* per spatial dim ([0] only for Conv1d) */
  int64_t groups;
  bool bias;
} ct_conv_opts;
CTDEF ct_conv_opts ct_conv_defaults(void); /* stride 1, padding 0, dilation 1, groups 1, bias */
/* opts NULL: the defaults. Padding mode "zeros". */
CTDEF ct_module *ct_nn_conv1d(int64_t in_channels, int64_t out_channels, int64_t kernel_size, const ct_conv_opts *opts);
CTDEF ct_module *ct_nn_conv2d(int64_t in_channels, int64_t out_channels, int64_t kernel_h, int64_t kernel_w, const ct_conv_opts *opts);

#define CT_NN_NO_PADDING_IDX INT64_MIN /* Embedding's padding_idx=None */
/* padding_idx may be negative (counted from the end); its row starts at zero
 * and gets no gradient. Weights from N(0, 1). */
CTDEF ct_module *ct_nn_embedding(int64_t num_embeddings, int64_t embedding_dim, int64_t padding_idx);

/* normalized_shape: the trailing dims normalised; affine: learnable weight (ones) and bias (zeros) */
CTDEF ct_module *ct_nn_layer_norm(int ndim, const int64_t *normalized_shape, double eps, bool elementwise_affine);
/* eps NAN: the input dtype's machine epsilon (RMSNorm's eps=None); weight only */
CTDEF ct_module *ct_nn_rms_norm(int ndim, const int64_t *normalized_shape, double eps, bool elementwise_affine);
/* momentum NAN: the cumulative average (momentum=None). Buffers running_mean,
 * running_var, num_batches_tracked (int64) when track_running_stats. */
CTDEF ct_module *ct_nn_batch_norm2d(int64_t num_features, double eps, double momentum, bool affine, bool track_running_stats);
CTDEF ct_module *ct_nn_dropout(double p);

/* activations and shape modules */
CTDEF ct_module *ct_nn_relu(void);
CTDEF ct_module *ct_nn_gelu(const char *approximate); /* "none" (or NULL) or "tanh" */
CTDEF ct_module *ct_nn_tanh(void);
CTDEF ct_module *ct_nn_sigmoid(void);
CTDEF ct_module *ct_nn_silu(void);
CTDEF ct_module *ct_nn_identity(void);
CTDEF ct_module *ct_nn_flatten(int64_t start_dim, int64_t end_dim); /* PyTorch's default: 1, -1 */

/* Children "0", "1", ...; takes ownership of mods[0..n). */
CTDEF ct_module *ct_nn_sequential(int n, ct_module *const *mods);
CTDEF ct_status ct_nn_sequential_append(ct_module *seq, ct_module *m); /* takes ownership */

/* recurrent cells: h (and c) NULL start from zeros; input (N, in) or (in) */
CTDEF ct_module *ct_nn_gru_cell(int64_t input_size, int64_t hidden_size, bool bias);
CTDEF ct_tensor *ct_nn_gru_cell_forward(ct_module *cell, ct_tensor *input, ct_tensor *h);
CTDEF ct_module *ct_nn_lstm_cell(int64_t input_size, int64_t hidden_size, bool bias);
/* returns h'; *c_out (may be NULL) gets c' */
CTDEF ct_tensor *ct_nn_lstm_cell_forward(ct_module *cell, ct_tensor *input, ct_tensor *h, ct_tensor *c, ct_tensor **c_out);

typedef struct ct_rnn_opts {
  int64_t num_layers;
  bool bias, batch_first, bidirectional;
  double dropout; /* on each layer's output but the last, in training mode */
} ct_rnn_opts;
CTDEF ct_rnn_opts ct_rnn_defaults(void); /* 1 layer, bias, (L, N, H) layout, one direction, no dropout */
/* Multi-step GRU / LSTM. input (L, N, in) ((N, L, in) with batch_first) or
 * unbatched (L, in); h0, c0 (layers * directions, N, hidden) or NULL for
 * zeros. Returns the last layer's outputs for every step; *h_n, *c_n (may
 * be NULL) get the final states. */
CTDEF ct_module *ct_nn_gru(int64_t input_size, int64_t hidden_size, const ct_rnn_opts *opts);
CTDEF ct_tensor *ct_nn_gru_forward(ct_module *gru, ct_tensor *input, ct_tensor *h0, ct_tensor **h_n);
CTDEF ct_module *ct_nn_lstm(int64_t input_size, int64_t hidden_size, const ct_rnn_opts *opts);
CTDEF ct_tensor *ct_nn_lstm_forward(ct_module *lstm, ct_tensor *input, ct_tensor *h0, ct_tensor *c0, ct_tensor **h_n,
                                    ct_tensor **c_n);

/* MultiheadAttention (kdim = vdim = embed_dim). query (L, N, E), key and
 * value (S, N, E) ((N, L, E) with batch_first; unbatched (L, E)).
 * key_padding_mask (N, S): bool, true = ignore that key; or float, added.
 * attn_mask (L, S) or (N * heads, L, S): bool, true = not allowed; or
 * float, added. need_weights: *weights gets the attention weights (N, L, S)
 * averaged over heads (average_weights) or (N, heads, L, S). */
CTDEF ct_module *ct_nn_multihead_attention(int64_t embed_dim, int64_t num_heads, double dropout, bool bias, bool batch_first);
CTDEF ct_tensor *ct_nn_multihead_attention_forward(ct_module *mha, ct_tensor *query, ct_tensor *key, ct_tensor *value,
                                                   ct_tensor *key_padding_mask, ct_tensor *attn_mask, bool need_weights,
                                                   bool average_weights, ct_tensor **weights);

typedef struct ct_transformer_opts {
  int64_t dim_feedforward;
  double dropout;
  const char *activation; /* "relu" or "gelu" */
  double layer_norm_eps;
  bool batch_first, norm_first;
} ct_transformer_opts;
CTDEF ct_transformer_opts ct_transformer_defaults(void); /* 2048, 0.1, "relu", 1e-5, false, false */
CTDEF ct_module *ct_nn_transformer_encoder_layer(int64_t d_model, int64_t nhead, const ct_transformer_opts *opts);
CTDEF ct_tensor *ct_nn_transformer_encoder_layer_forward(ct_module *layer, ct_tensor *src, ct_tensor *src_mask,
                                                         ct_tensor *src_key_padding_mask);

/* ---- torch.nn.init: in place, under no-grad, from the default generator ---- */
typedef enum ct_fan_mode { CT_FAN_IN, CT_FAN_OUT } ct_fan_mode;
/* calculate_gain: "linear", "conv1d".."conv_transpose3d", "sigmoid": 1;
 * "tanh": 5/3; "relu": sqrt(2); "leaky_relu": sqrt(2 / (1 + slope^2)),
 * slope = param (NAN: 0.01); "selu": 3/4. NAN on an unknown name (error set). */
CTDEF double ct_init_calculate_gain(const char *nonlinearity, double param);
/* _calculate_fan_in_and_fan_out: needs 2 or more dims */
CTDEF ct_status ct_init_fans(const ct_tensor *t, int64_t *fan_in, int64_t *fan_out);
CTDEF ct_status ct_init_uniform_(ct_tensor *t, double a, double b);
CTDEF ct_status ct_init_normal_(ct_tensor *t, double mean, double std);
CTDEF ct_status ct_init_constant_(ct_tensor *t, double value);
CTDEF ct_status ct_init_zeros_(ct_tensor *t);
CTDEF ct_status ct_init_ones_(ct_tensor *t);
CTDEF ct_status ct_init_eye_(ct_tensor *t); /* 2-D */
CTDEF ct_status ct_init_xavier_uniform_(ct_tensor *t, double gain);
CTDEF ct_status ct_init_xavier_normal_(ct_tensor *t, double gain);
/* a: the negative slope for leaky_relu (PyTorch's default a = 0, mode fan_in, "leaky_relu") */
CTDEF ct_status ct_init_kaiming_uniform_(ct_tensor *t, double a, ct_fan_mode mode, const char *nonlinearity);
CTDEF ct_status ct_init_kaiming_normal_(ct_tensor *t, double a, ct_fan_mode mode, const char *nonlinearity);
/* N(mean, std) redrawn until inside [a, b] (PyTorch's inverse-CDF method) */
CTDEF ct_status ct_init_trunc_normal_(ct_tensor *t, double mean, double std, double a, double b);
/* (semi-)orthogonal rows or columns of the flattened (size(0), rest)
 * matrix, times gain: the Q of a Gaussian matrix's QR with R's diagonal
 * made positive, as PyTorch */
CTDEF ct_status ct_init_orthogonal_(ct_tensor *t, double gain);

CT_EXTERN_C_END
#endif /* CT_NN_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__NN_IMPL)
#define CT__NN_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

typedef struct ct__module_tensor {
  char *name;
  ct_tensor *tensor; /* owned reference */
  bool parameter;
} ct__module_tensor;

typedef struct ct__module_child {
  char *name;
  ct_module *module; /* owned */
} ct__module_child;

/* the built-in modules' configuration (one struct for all kinds) */
typedef struct ct__nn_cfg {
  int64_t in, out, hidden, heads, layers, padding_idx, groups, start_dim, end_dim;
  int64_t kernel[2], stride[2], padding[2], dilation[2];
  int conv_dims, norm_ndim;
  int64_t norm_shape[CT_MAX_DIMS];
  double eps, momentum, p;
  bool bias, affine, track, batch_first, bidirectional, norm_first, gelu_tanh, ff_gelu;
} ct__nn_cfg;

typedef enum ct__nn_kind {
  CT__NN_USER, CT__NN_LINEAR, CT__NN_CONV, CT__NN_EMBEDDING, CT__NN_LAYER_NORM, CT__NN_RMS_NORM, CT__NN_BATCH_NORM,
  CT__NN_DROPOUT, CT__NN_RELU, CT__NN_GELU, CT__NN_TANH, CT__NN_SIGMOID, CT__NN_SILU, CT__NN_IDENTITY, CT__NN_FLATTEN,
  CT__NN_SEQUENTIAL, CT__NN_GRU_CELL, CT__NN_LSTM_CELL, CT__NN_GRU, CT__NN_LSTM, CT__NN_MHA, CT__NN_ENCODER_LAYER
} ct__nn_kind;

struct ct_module {
  char *kind;
  ct__nn_kind builtin;
  ct_forward_fn forward;
  void *state;
  void (*free_state)(void *);
  bool training;
  ct_module *parent;
  int ntensors, tensors_cap, nchildren, children_cap;
  ct__module_tensor *tensors;
  ct__module_child *children;
  /* ct_module_parameters' array: valid while flat_valid (cleared up the tree on every change) */
  bool flat_valid;
  int nflat;
  ct_tensor **flat;
  ct__nn_cfg cfg;
};

static char *ct__nn_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *r = (char *)CT_MALLOC(n);
  if (r) memcpy(r, s, n);
  return r;
}

static void ct__module_changed(ct_module *m) {
  for (; m; m = m->parent) m->flat_valid = false;
}

CTDEF ct_module *ct_module_new(const char *kind, ct_forward_fn forward, void *state, void (*free_state)(void *state)) {
  ct_module *m;
  if (!kind) {
    ct_fail(CT_ERR_NULL, "ct_module_new", "argument 'kind' is NULL");
    return NULL;
  }
  m = (ct_module *)CT_MALLOC(sizeof *m);
  if (m) memset(m, 0, sizeof *m), m->kind = ct__nn_strdup(kind);
  if (!m || !m->kind) {
    CT_FREE(m);
    ct_fail(CT_ERR_OOM, "ct_module_new", "out of memory");
    return NULL;
  }
  m->forward = forward, m->state = state, m->free_state = free_state, m->training = true;
  return m;
}

CTDEF void ct_module_free(ct_module *m) {
  int i;
  if (!m) return;
  for (i = 0; i < m->ntensors; i++) {
    CT_FREE(m->tensors[i].name);
    ct_release(m->tensors[i].tensor);
  }
  for (i = 0; i < m->nchildren; i++) {
    CT_FREE(m->children[i].name);
    ct_module_free(m->children[i].module);
  }
  if (m->free_state) m->free_state(m->state);
  CT_FREE(m->tensors);
  CT_FREE(m->children);
  CT_FREE(m->flat);
  CT_FREE(m->kind);
  CT_FREE(m);
}

CTDEF const char *ct_module_kind(const ct_module *m) { return m ? m->kind : NULL; }
CTDEF void *ct_module_state(const ct_module *m) { return m ? m->state : NULL; }

static bool ct__module_name_taken(const ct_module *m, const char *name) {
  int i;
  for (i = 0; i < m->ntensors; i++)
    if (!strcmp(m->tensors[i].name, name)) return true;
  for (i = 0; i < m->nchildren; i++)
    if (!strcmp(m->children[i].name, name)) return true;
  return false;
}

static ct_status ct__module_check_name(const char *op, const ct_module *m, const char *name) {
  if (!m) return ct_fail(CT_ERR_NULL, op, "argument 'module' is NULL");
  if (!name) return ct_fail(CT_ERR_NULL, op, "argument 'name' is NULL");
  if (!*name || strchr(name, '.')) return ct_fail(CT_ERR_INVALID, op, "name \"%s\" must be non-empty and contain no '.'", name);
  if (ct__module_name_taken(m, name)) return ct_fail(CT_ERR_INVALID, op, "%s already has an attribute \"%s\"", m->kind, name);
  return CT_OK;
}

static ct_status ct__module_register(const char *op, ct_module *m, const char *name, ct_tensor *t, bool parameter) {
  ct__module_tensor *slot;
  char *copy;
  if (ct__module_check_name(op, m, name) != CT_OK) return ct_last_error();
  if (!t) return ct_fail(CT_ERR_NULL, op, "tensor \"%s\" is NULL", name);
  if (parameter) {
    if (!ct_dtype_is_floating((ct_dtype)t->dtype))
      return ct_fail(CT_ERR_DTYPE, op, "parameter \"%s\": only floating-point tensors can require gradients, got %s", name,
                     ct_dtype_name((ct_dtype)t->dtype));
    if (!ct_is_leaf(t)) return ct_fail(CT_ERR_INVALID, op, "parameter \"%s\" must be a leaf tensor (use ct_detach)", name);
    if (ct_set_requires_grad(t, true) != CT_OK) return ct_last_error();
  }
  if (m->ntensors == m->tensors_cap) {
    int cap = m->tensors_cap ? 2 * m->tensors_cap : 4;
    ct__module_tensor *grown = (ct__module_tensor *)CT_REALLOC(m->tensors, (size_t)cap * sizeof *grown);
    if (!grown) return ct_fail(CT_ERR_OOM, op, "out of memory");
    m->tensors = grown, m->tensors_cap = cap;
  }
  copy = ct__nn_strdup(name);
  if (!copy) return ct_fail(CT_ERR_OOM, op, "out of memory");
  slot = &m->tensors[m->ntensors++];
  slot->name = copy, slot->tensor = ct_retain(t), slot->parameter = parameter;
  ct__module_changed(m);
  return CT_OK;
}

CTDEF ct_status ct_module_register_parameter(ct_module *m, const char *name, ct_tensor *t) {
  return ct__module_register("ct_module_register_parameter", m, name, t, true);
}
CTDEF ct_status ct_module_register_buffer(ct_module *m, const char *name, ct_tensor *t) {
  return ct__module_register("ct_module_register_buffer", m, name, t, false);
}

CTDEF ct_module *ct_module_add(ct_module *m, const char *name, ct_module *child) {
  static const char *op = "ct_module_add";
  char *copy;
  if (!child) {
    if (ct_last_error() == CT_OK) ct_fail(CT_ERR_NULL, op, "child \"%s\" is NULL", name ? name : "?");
    return NULL;
  }
  if (ct__module_check_name(op, m, name) != CT_OK || child->parent) {
    if (ct_last_error() == CT_OK) ct_fail(CT_ERR_INVALID, op, "module \"%s\" already has a parent", name);
    if (!child->parent) ct_module_free(child);
    return NULL;
  }
  if (m->nchildren == m->children_cap) {
    int cap = m->children_cap ? 2 * m->children_cap : 4;
    ct__module_child *grown = (ct__module_child *)CT_REALLOC(m->children, (size_t)cap * sizeof *grown);
    if (!grown) {
      ct_module_free(child);
      ct_fail(CT_ERR_OOM, op, "out of memory");
      return NULL;
    }
    m->children = grown, m->children_cap = cap;
  }
  copy = ct__nn_strdup(name);
  if (!copy) {
    ct_module_free(child);
    ct_fail(CT_ERR_OOM, op, "out of memory");
    return NULL;
  }
  m->children[m->nchildren].name = copy;
  m->children[m->nchildren++].module = child;
  child->parent = m;
  ct__module_changed(m);
  return child;
}

/* the child named by path[0..len) */
static ct_module *ct__module_child_n(const ct_module *m, const char *path, size_t len) {
  int i;
  for (i = 0; i < m->nchildren; i++)
    if (strlen(m->children[i].name) == len && !memcmp(m->children[i].name, path, len)) return m->children[i].module;
  return NULL;
}

CTDEF ct_module *ct_module_child(const ct_module *m, const char *path) {
  while (m && path && *path) {
    const char *dot = strchr(path, '.');
    size_t len = dot ? (size_t)(dot - path) : strlen(path);
    m = ct__module_child_n(m, path, len);
    path = dot ? dot + 1 : path + len;
  }
  return (ct_module *)m;
}

CTDEF ct_tensor *ct_module_get(const ct_module *m, const char *name) {
  const char *dot;
  int i;
  if (!m || !name) return NULL;
  while ((dot = strchr(name, '.')) != NULL) {
    m = ct__module_child_n(m, name, (size_t)(dot - name));
    if (!m) return NULL;
    name = dot + 1;
  }
  for (i = 0; i < m->ntensors; i++)
    if (!strcmp(m->tensors[i].name, name)) return m->tensors[i].tensor;
  return NULL;
}

CTDEF ct_tensor *ct_module_forward(ct_module *m, ct_tensor *input) {
  if (!m) {
    ct_fail(CT_ERR_NULL, "ct_module_forward", "argument 'module' is NULL");
    return NULL;
  }
  if (!m->forward) {
    ct_fail(CT_ERR_UNSUPPORTED, "ct_module_forward", "%s has no forward function", m->kind);
    return NULL;
  }
  if (!input) {
    if (ct_last_error() == CT_OK) ct_fail(CT_ERR_NULL, "ct_module_forward", "%s: input is NULL", m->kind);
    return NULL;
  }
  return m->forward(m, input);
}

CTDEF void ct_module_train(ct_module *m, bool training) {
  int i;
  if (!m) return;
  m->training = training;
  for (i = 0; i < m->nchildren; i++) ct_module_train(m->children[i].module, training);
}
CTDEF void ct_module_eval(ct_module *m) { ct_module_train(m, false); }
CTDEF bool ct_module_is_training(const ct_module *m) { return m && m->training; }

static ct_status ct__module_zero_grad(ct_module *m) {
  int i;
  for (i = 0; i < m->ntensors; i++) {
    ct_tensor *g = m->tensors[i].parameter ? ct_grad(m->tensors[i].tensor) : NULL;
    if (g && ct_fill_(g, ct_float(0)) != CT_OK) return ct_last_error();
  }
  for (i = 0; i < m->nchildren; i++)
    if (ct__module_zero_grad(m->children[i].module) != CT_OK) return ct_last_error();
  return CT_OK;
}
CTDEF ct_status ct_module_zero_grad(ct_module *m) {
  ct_status st = CT_OK;
  if (!m) return ct_fail(CT_ERR_NULL, "ct_module_zero_grad", "argument 'module' is NULL");
  CT_NO_GRAD { st = ct__module_zero_grad(m); }
  return st;
}

/* visits the tree in state-dict order: own parameters, own buffers, children */
typedef ct_status (*ct__module_visit_fn)(void *ctx, const char *name, ct__module_tensor *slot);
static ct_status ct__module_visit(ct_module *m, char *prefix, size_t len, size_t cap, bool buffers, ct__module_visit_fn fn,
                                  void *ctx) {
  int i, pass;
  for (pass = 0; pass < (buffers ? 2 : 1); pass++)
    for (i = 0; i < m->ntensors; i++) {
      ct__module_tensor *s = &m->tensors[i];
      size_t n = strlen(s->name);
      if (s->parameter != (pass == 0)) continue;
      if (len + n + 1 > cap) return ct_fail(CT_ERR_INVALID, "ct_module", "a module path is longer than %zu characters", cap - 1);
      memcpy(prefix + len, s->name, n + 1);
      if (fn(ctx, prefix, s) != CT_OK) return ct_last_error();
    }
  for (i = 0; i < m->nchildren; i++) {
    size_t n = strlen(m->children[i].name);
    if (len + n + 2 > cap) return ct_fail(CT_ERR_INVALID, "ct_module", "a module path is longer than %zu characters", cap - 1);
    memcpy(prefix + len, m->children[i].name, n);
    prefix[len + n] = '.';
    prefix[len + n + 1] = 0;
    if (ct__module_visit(m->children[i].module, prefix, len + n + 1, cap, buffers, fn, ctx) != CT_OK) return ct_last_error();
  }
  prefix[len] = 0;
  return CT_OK;
}

#define CT__MODULE_PATH_MAX 512

typedef struct ct__module_collect {
  int n, cap;
  ct_tensor **tensors;
  char **names; /* NULL: names not wanted */
} ct__module_collect;

static ct_status ct__module_collect_fn(void *ctx, const char *name, ct__module_tensor *slot) {
  ct__module_collect *c = (ct__module_collect *)ctx;
  if (c->n == c->cap) {
    int cap = c->cap ? 2 * c->cap : 16;
    ct_tensor **t = (ct_tensor **)CT_REALLOC(c->tensors, (size_t)cap * sizeof(ct_tensor *));
    if (!t) return ct_fail(CT_ERR_OOM, "ct_module", "out of memory");
    c->tensors = t;
    if (c->names) {
      char **nm = (char **)CT_REALLOC(c->names, (size_t)cap * sizeof *nm);
      if (!nm) return ct_fail(CT_ERR_OOM, "ct_module", "out of memory");
      c->names = nm;
    }
    c->cap = cap;
  }
  if (c->names && !(c->names[c->n] = ct__nn_strdup(name))) return ct_fail(CT_ERR_OOM, "ct_module", "out of memory");
  c->tensors[c->n++] = slot->tensor;
  return CT_OK;
}

CTDEF ct_tensor *const *ct_module_parameters(ct_module *m, int *n) {
  char prefix[CT__MODULE_PATH_MAX];
  ct__module_collect c;
  if (n) *n = 0;
  if (!m) {
    ct_fail(CT_ERR_NULL, "ct_module_parameters", "argument 'module' is NULL");
    return NULL;
  }
  if (!m->flat_valid) {
    memset(&c, 0, sizeof c);
    prefix[0] = 0;
    if (ct__module_visit(m, prefix, 0, sizeof prefix, false, ct__module_collect_fn, &c) != CT_OK) {
      CT_FREE(c.tensors);
      return NULL;
    }
    CT_FREE(m->flat);
    m->flat = c.tensors, m->nflat = c.n, m->flat_valid = true;
  }
  if (n) *n = m->nflat;
  /* an empty module gives a non-NULL pointer to nothing */
  return m->flat ? m->flat : (ct_tensor *const *)&m->flat;
}

CTDEF int64_t ct_module_parameter_numel(ct_module *m) {
  int n = 0, i;
  int64_t total = 0;
  ct_tensor *const *p = ct_module_parameters(m, &n);
  for (i = 0; p && i < n; i++) total += p[i]->numel;
  return total;
}

CTDEF ct_state_dict *ct_module_state_dict(ct_module *m) {
  char prefix[CT__MODULE_PATH_MAX];
  ct__module_collect c;
  ct_state_dict *sd;
  int i;
  if (!m) {
    ct_fail(CT_ERR_NULL, "ct_module_state_dict", "argument 'module' is NULL");
    return NULL;
  }
  memset(&c, 0, sizeof c);
  c.names = (char **)CT_MALLOC(sizeof(char *));
  sd = (ct_state_dict *)CT_MALLOC(sizeof *sd);
  if (sd) memset(sd, 0, sizeof *sd);
  prefix[0] = 0;
  if (!sd || !c.names || ct__module_visit(m, prefix, 0, sizeof prefix, true, ct__module_collect_fn, &c) != CT_OK) {
    if (!sd || !c.names) ct_fail(CT_ERR_OOM, "ct_module_state_dict", "out of memory");
    for (i = 0; i < c.n; i++) CT_FREE(c.names[i]);
    CT_FREE(c.names);
    CT_FREE(c.tensors);
    CT_FREE(sd);
    return NULL;
  }
  for (i = 0; i < c.n; i++) ct_retain(c.tensors[i]);
  sd->n = c.n, sd->names = c.names, sd->tensors = c.tensors;
  return sd;
}

CTDEF void ct_state_dict_free(ct_state_dict *sd) {
  int i;
  if (!sd) return;
  for (i = 0; i < sd->n; i++) {
    CT_FREE(sd->names[i]);
    ct_release(sd->tensors[i]);
  }
  CT_FREE(sd->names);
  CT_FREE(sd->tensors);
  CT_FREE(sd);
}

CTDEF ct_status ct_module_load_state_dict(ct_module *m, int n, const char *const *names, ct_tensor *const *tensors, bool strict) {
  static const char *op = "ct_module_load_state_dict";
  ct_state_dict *own;
  int *match = NULL, i, j;
  ct_status st = CT_OK;
  if (!m) return ct_fail(CT_ERR_NULL, op, "argument 'module' is NULL");
  if (n < 0 || (n > 0 && (!names || !tensors))) return ct_fail(CT_ERR_INVALID, op, "bad list: n = %d with NULL arrays", n);
  for (i = 0; i < n; i++)
    if (!names[i] || !tensors[i]) return ct_fail(CT_ERR_NULL, op, "entry %d has a NULL name or tensor", i);
  own = ct_module_state_dict(m);
  if (!own) return ct_last_error();
  match = (int *)CT_MALLOC(((size_t)own->n + 1) * sizeof *match);
  if (!match) {
    ct_state_dict_free(own);
    return ct_fail(CT_ERR_OOM, op, "out of memory");
  }
  /* check everything first, so that an error leaves the module unchanged */
  for (i = 0; i < own->n && st == CT_OK; i++) {
    match[i] = -1;
    for (j = 0; j < n; j++)
      if (!strcmp(own->names[i], names[j])) {
        if (match[i] >= 0) st = ct_fail(CT_ERR_INVALID, op, "\"%s\" is given twice", names[j]);
        match[i] = j;
      }
    if (match[i] < 0) {
      if (strict) st = ct_fail(CT_ERR_INVALID, op, "missing key \"%s\" in the state dict of %s", own->names[i], m->kind);
    } else if (!ct_same_shape(own->tensors[i], tensors[match[i]])) {
      char a[96], b[96];
      st = ct_fail(CT_ERR_SHAPE, op, "size mismatch for %s: copying a tensor of shape %s, the shape in the module is %s",
                   own->names[i], ct_shape_format(tensors[match[i]]->ndim, tensors[match[i]]->sizes, a, sizeof a),
                   ct_shape_format(own->tensors[i]->ndim, own->tensors[i]->sizes, b, sizeof b));
    }
  }
  for (j = 0; j < n && st == CT_OK; j++) {
    bool found = false;
    for (i = 0; i < own->n && !found; i++) found = match[i] == j;
    if (!found) {
      if (strict) st = ct_fail(CT_ERR_INVALID, op, "unexpected key \"%s\" in the state dict of %s", names[j], m->kind);
    }
  }
  if (st == CT_OK) CT_NO_GRAD {
      for (i = 0; i < own->n && st == CT_OK; i++)
        if (match[i] >= 0) st = ct_copy_(own->tensors[i], tensors[match[i]]);
    }
  CT_FREE(match);
  ct_state_dict_free(own);
  return st;
}

static ct_status ct__module_to(ct_module *m, ct_device device, ct_dtype dtype) {
  int i;
  m->flat_valid = false;
  for (i = 0; i < m->ntensors; i++) {
    ct__module_tensor *s = &m->tensors[i];
    ct_dtype to = ct_dtype_is_floating((ct_dtype)s->tensor->dtype) && dtype != CT_DTYPE_NONE ? dtype : (ct_dtype)s->tensor->dtype;
    ct_device dev = device.type == CT_NO_DEVICE.type ? s->tensor->device : device;
    ct_tensor *moved;
    if (to == s->tensor->dtype && dev.type == s->tensor->device.type && dev.index == s->tensor->device.index) continue;
    moved = NULL;
    CT_SCOPE {
      ct_tensor *t = ct_detach(ct_to_device_ex(s->tensor, dev, to, false, true));
      if (t && (!s->parameter || ct_set_requires_grad(t, true) == CT_OK)) moved = ct_retain(t);
    }
    if (!moved) return ct_last_error();
    ct_release(s->tensor);
    s->tensor = moved;
  }
  for (i = 0; i < m->nchildren; i++)
    if (ct__module_to(m->children[i].module, device, dtype) != CT_OK) return ct_last_error();
  return CT_OK;
}
CTDEF ct_status ct_module_to(ct_module *m, ct_device device, ct_dtype dtype) {
  ct_status st = CT_OK;
  if (!m) return ct_fail(CT_ERR_NULL, "ct_module_to", "argument 'module' is NULL");
  if (dtype != CT_DTYPE_NONE && !ct_dtype_is_floating(dtype))
    return ct_fail(CT_ERR_DTYPE, "ct_module_to", "nn.Module.to only accepts floating point dtypes, got %s", ct_dtype_name(dtype));
  CT_NO_GRAD { st = ct__module_to(m, device, dtype); }
  ct__module_changed(m); /* (ct__module_to cleared the descendants' arrays) */
  return st;
}

CTDEF ct_status ct_module_save(ct_module *m, const char *path) {
  ct_state_dict *sd = ct_module_state_dict(m);
  ct_status st;
  if (!sd) return ct_last_error();
  st = ct_safetensors_save(path, sd->n, (const char *const *)sd->names, sd->tensors, 0, NULL, NULL);
  ct_state_dict_free(sd);
  return st;
}
CTDEF ct_status ct_module_load(ct_module *m, const char *path, bool strict) {
  ct_state_dict *sd = ct_module_state_dict(m);
  ct_safetensors *file;
  ct_status st;
  if (!sd) return ct_last_error();
  file = ct_safetensors_open(path);
  st = file ? ct_safetensors_load_into(file, sd->n, (const char *const *)sd->names, sd->tensors, strict, NULL, NULL) : ct_last_error();
  ct_safetensors_close(file);
  ct_state_dict_free(sd);
  return st;
}

/* ---- printing ---- */
/* sizes as a Python tuple, as PyTorch's messages and reprs show them: (4,) or (3, 4) */
static const char *ct__nn_tuple(int n, const int64_t *v, char *buf, size_t cap) {
  size_t at = 1;
  int i;
  buf[0] = '(', buf[1] = 0;
  for (i = 0; i < n && at < cap; i++) at += (size_t)snprintf(buf + at, cap - at, i ? ", %lld" : "%lld", (long long)v[i]);
  if (at < cap) snprintf(buf + at, cap - at, n == 1 ? ",)" : ")");
  return buf;
}

static void ct__nn_extra_repr(const ct_module *m, char *buf, size_t cap) {
  const ct__nn_cfg *c = &m->cfg;
  char shape[96];
  buf[0] = 0;
  switch (m->builtin) {
  case CT__NN_LINEAR:
    snprintf(buf, cap, "in_features=%lld, out_features=%lld, bias=%s", (long long)c->in, (long long)c->out,
             c->bias ? "True" : "False");
    break;
  case CT__NN_CONV:
    if (c->conv_dims == 1)
      snprintf(buf, cap, "%lld, %lld, kernel_size=(%lld,), stride=(%lld,)%s", (long long)c->in, (long long)c->out,
               (long long)c->kernel[0], (long long)c->stride[0], c->bias ? "" : ", bias=False");
    else
      snprintf(buf, cap, "%lld, %lld, kernel_size=(%lld, %lld), stride=(%lld, %lld)%s", (long long)c->in, (long long)c->out,
               (long long)c->kernel[0], (long long)c->kernel[1], (long long)c->stride[0], (long long)c->stride[1],
               c->bias ? "" : ", bias=False");
    break;
  case CT__NN_EMBEDDING: snprintf(buf, cap, "%lld, %lld", (long long)c->in, (long long)c->out); break;
  case CT__NN_LAYER_NORM:
  case CT__NN_RMS_NORM:
    snprintf(buf, cap, "%s, eps=%g, elementwise_affine=%s", ct__nn_tuple(c->norm_ndim, c->norm_shape, shape, sizeof shape), c->eps,
             c->affine ? "True" : "False");
    break;
  case CT__NN_BATCH_NORM:
    snprintf(buf, cap, "%lld, eps=%g, momentum=%g, affine=%s, track_running_stats=%s", (long long)c->in, c->eps, c->momentum,
             c->affine ? "True" : "False", c->track ? "True" : "False");
    break;
  case CT__NN_DROPOUT: snprintf(buf, cap, "p=%g, inplace=False", c->p); break;
  case CT__NN_GRU_CELL:
  case CT__NN_LSTM_CELL:
  case CT__NN_GRU:
  case CT__NN_LSTM: snprintf(buf, cap, "%lld, %lld", (long long)c->in, (long long)c->hidden); break;
  default: break;
  }
}

static void ct__module_print(const ct_module *m, FILE *f, int indent) {
  char extra[256];
  int i;
  ct__nn_extra_repr(m, extra, sizeof extra);
  fprintf(f, "%s(%s", m->kind, extra);
  if (m->nchildren) {
    fputc('\n', f);
    for (i = 0; i < m->nchildren; i++) {
      fprintf(f, "%*s(%s): ", indent + 2, "", m->children[i].name);
      ct__module_print(m->children[i].module, f, indent + 2);
      fputc('\n', f);
    }
    fprintf(f, "%*s", indent, "");
  }
  fputc(')', f);
}
CTDEF void ct_module_print(const ct_module *m, FILE *f) {
  if (!m || !f) return;
  ct__module_print(m, f, 0);
  fputc('\n', f);
}

/* ==================== torch.nn.init ==================== */
CTDEF double ct_init_calculate_gain(const char *nl, double param) {
  static const char *linear[] = {"linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "sigmoid"};
  size_t i;
  if (!nl) {
    ct_fail(CT_ERR_NULL, "calculate_gain", "argument 'nonlinearity' is NULL");
    return NAN;
  }
  for (i = 0; i < sizeof linear / sizeof linear[0]; i++)
    if (!strcmp(nl, linear[i])) return 1;
  if (!strcmp(nl, "tanh")) return 5.0 / 3;
  if (!strcmp(nl, "relu")) return sqrt(2.0);
  if (!strcmp(nl, "leaky_relu")) {
    double slope = isnan(param) ? 0.01 : param;
    return sqrt(2.0 / (1 + slope * slope));
  }
  if (!strcmp(nl, "selu")) return 3.0 / 4;
  ct_fail(CT_ERR_INVALID, "calculate_gain", "Unsupported nonlinearity %s", nl);
  return NAN;
}

CTDEF ct_status ct_init_fans(const ct_tensor *t, int64_t *fan_in, int64_t *fan_out) {
  int64_t receptive = 1;
  int i;
  if (!t) return ct_fail(CT_ERR_NULL, "init", "argument 'tensor' is NULL");
  if (t->ndim < 2)
    return ct_fail(CT_ERR_RANK, "init", "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions");
  for (i = 2; i < t->ndim; i++) receptive *= t->sizes[i];
  if (fan_in) *fan_in = t->sizes[1] * receptive;
  if (fan_out) *fan_out = t->sizes[0] * receptive;
  return CT_OK;
}

/* every init runs under no-grad: parameters are leaves that require grad */
CTDEF ct_status ct_init_uniform_(ct_tensor *t, double a, double b) {
  ct_status st = CT_OK;
  if (!t) return ct_fail(CT_ERR_NULL, "init.uniform_", "argument 'tensor' is NULL");
  CT_NO_GRAD { st = ct_uniform_(t, a, b); }
  return st;
}
CTDEF ct_status ct_init_normal_(ct_tensor *t, double mean, double std) {
  ct_status st = CT_OK;
  if (!t) return ct_fail(CT_ERR_NULL, "init.normal_", "argument 'tensor' is NULL");
  CT_NO_GRAD { st = ct_normal_(t, mean, std); }
  return st;
}
CTDEF ct_status ct_init_constant_(ct_tensor *t, double value) {
  ct_status st = CT_OK;
  if (!t) return ct_fail(CT_ERR_NULL, "init.constant_", "argument 'tensor' is NULL");
  CT_NO_GRAD { st = ct_fill_(t, ct_float(value)); }
  return st;
}
CTDEF ct_status ct_init_zeros_(ct_tensor *t) { return ct_init_constant_(t, 0); }
CTDEF ct_status ct_init_ones_(ct_tensor *t) { return ct_init_constant_(t, 1); }

CTDEF ct_status ct_init_eye_(ct_tensor *t) {
  ct_status st = CT_OK;
  if (!t) return ct_fail(CT_ERR_NULL, "init.eye_", "argument 'tensor' is NULL");
  if (t->ndim != 2) return ct_fail(CT_ERR_RANK, "init.eye_", "Only tensors with 2 dimensions are supported");
  CT_NO_GRAD CT_SCOPE { st = ct_copy_(t, ct_eye_m(t->sizes[0], t->sizes[1])); }
  return st;
}

CTDEF ct_status ct_init_xavier_uniform_(ct_tensor *t, double gain) {
  int64_t fi, fo;
  if (ct_init_fans(t, &fi, &fo) != CT_OK) return ct_last_error();
  if (t->numel == 0) return CT_OK; /* PyTorch: a zero-element tensor is left as it is */
  return ct_init_uniform_(t, -sqrt(3.0) * gain * sqrt(2.0 / (double)(fi + fo)), sqrt(3.0) * gain * sqrt(2.0 / (double)(fi + fo)));
}
CTDEF ct_status ct_init_xavier_normal_(ct_tensor *t, double gain) {
  int64_t fi, fo;
  if (ct_init_fans(t, &fi, &fo) != CT_OK) return ct_last_error();
  if (t->numel == 0) return CT_OK;
  return ct_init_normal_(t, 0, gain * sqrt(2.0 / (double)(fi + fo)));
}

static ct_status ct__kaiming_std(const ct_tensor *t, double a, ct_fan_mode mode, const char *nl, double *std) {
  int64_t fi, fo;
  double gain;
  if (ct_init_fans(t, &fi, &fo) != CT_OK) return ct_last_error();
  if (mode != CT_FAN_IN && mode != CT_FAN_OUT) return ct_fail(CT_ERR_INVALID, "init.kaiming", "Mode %d not supported", (int)mode);
  gain = ct_init_calculate_gain(nl ? nl : "leaky_relu", a);
  if (isnan(gain)) return ct_last_error();
  *std = gain / sqrt((double)(mode == CT_FAN_IN ? fi : fo));
  return CT_OK;
}
CTDEF ct_status ct_init_kaiming_uniform_(ct_tensor *t, double a, ct_fan_mode mode, const char *nonlinearity) {
  double std;
  if (!t) return ct_fail(CT_ERR_NULL, "init.kaiming_uniform_", "argument 'tensor' is NULL");
  if (t->numel == 0) return CT_OK;
  if (ct__kaiming_std(t, a, mode, nonlinearity, &std) != CT_OK) return ct_last_error();
  return ct_init_uniform_(t, -sqrt(3.0) * std, sqrt(3.0) * std);
}
CTDEF ct_status ct_init_kaiming_normal_(ct_tensor *t, double a, ct_fan_mode mode, const char *nonlinearity) {
  double std;
  if (!t) return ct_fail(CT_ERR_NULL, "init.kaiming_normal_", "argument 'tensor' is NULL");
  if (t->numel == 0) return CT_OK;
  if (ct__kaiming_std(t, a, mode, nonlinearity, &std) != CT_OK) return ct_last_error();
  return ct_init_normal_(t, 0, std);
}

/* Phi and its inverse for the truncated normal (PyTorch: uniform in
 * [Phi(a'), Phi(b')], then erfinv): computed on the host in double. */
static double ct__norm_cdf(double x) { return (1 + erf(x / sqrt(2.0))) / 2; }
static double ct__erfinv(double y) {
  /* Giles' single-precision start refined by Newton steps on erf: double accuracy */
  double w = -log((1 - y) * (1 + y)), x;
  int i;
  if (y <= -1) return -INFINITY;
  if (y >= 1) return INFINITY;
  if (w < 5) {
    w -= 2.5;
    x = 2.81022636e-08;
    x = 3.43273939e-07 + x * w, x = -3.5233877e-06 + x * w, x = -4.39150654e-06 + x * w, x = 0.00021858087 + x * w;
    x = -0.00125372503 + x * w, x = -0.00417768164 + x * w, x = 0.246640727 + x * w, x = 1.50140941 + x * w;
  } else {
    w = sqrt(w) - 3;
    x = -0.000200214257;
    x = 0.000100950558 + x * w, x = 0.00134934322 + x * w, x = -0.00367342844 + x * w, x = 0.00573950773 + x * w;
    x = -0.0076224613 + x * w, x = 0.00943887047 + x * w, x = 1.00167406 + x * w, x = 2.83297682 + x * w;
  }
  x *= y;
  for (i = 0; i < 2; i++) x -= (erf(x) - y) / (2 / sqrt(3.14159265358979323846) * exp(-x * x));
  return x;
}

CTDEF ct_status ct_init_trunc_normal_(ct_tensor *t, double mean, double std, double a, double b) {
  static const char *op = "init.trunc_normal_";
  double l, u;
  ct_status st = CT_OK;
  if (!t) return ct_fail(CT_ERR_NULL, op, "argument 'tensor' is NULL");
  if (!(a < b) || !(std > 0)) return ct_fail(CT_ERR_INVALID, op, "need a < b and std > 0 (got a=%g, b=%g, std=%g)", a, b, std);
  l = ct__norm_cdf((a - mean) / std), u = ct__norm_cdf((b - mean) / std);
  CT_NO_GRAD CT_SCOPE {
    /* the values on the host in float64, each mapped through the inverse CDF */
    ct_tensor *h = ct_empty(t->ndim, t->sizes, CT_F64);
    if (h && (st = ct_uniform_(h, 2 * l - 1, 2 * u - 1)) == CT_OK) {
      double *p = (double *)ct_data_ptr(h);
      int64_t i;
      for (i = 0; i < h->numel; i++) {
        double v = mean + std * sqrt(2.0) * ct__erfinv(p[i]);
        p[i] = v < a ? a : v > b ? b : v;
      }
      st = ct_copy_(t, h);
    } else if (!h) {
      st = ct_last_error();
    }
  }
  return st;
}

CTDEF ct_status ct_init_orthogonal_(ct_tensor *t, double gain) {
  static const char *op = "init.orthogonal_";
  ct_status st = CT_OK;
  int64_t rows, cols, m, n, i, j, k;
  if (!t) return ct_fail(CT_ERR_NULL, op, "argument 'tensor' is NULL");
  if (t->ndim < 2) return ct_fail(CT_ERR_RANK, op, "Only tensors with 2 or more dimensions are supported");
  if (t->numel == 0) return CT_OK;
  rows = t->sizes[0], cols = t->numel / rows;
  /* A = the (rows, cols) Gaussian matrix, transposed when rows < cols so that
   * m >= n; Gram-Schmidt (twice, for orthogonality to rounding) gives the Q
   * of A = QR with R's diagonal positive, which is PyTorch's Q * sign(diag R) */
  m = rows < cols ? cols : rows, n = rows < cols ? rows : cols;
  CT_NO_GRAD CT_SCOPE {
    int64_t shape[2];
    ct_tensor *a, *q = NULL;
    double *p = NULL, *col = NULL;
    shape[0] = rows, shape[1] = cols;
    a = ct_empty(2, shape, CT_F64);
    if (a && (st = ct_normal_(a, 0, 1)) == CT_OK) {
      p = (double *)ct_data_ptr(a);
      col = (double *)CT_MALLOC((size_t)(m * n) * sizeof *col);
      if (!col) st = ct_fail(CT_ERR_OOM, op, "out of memory");
    } else if (!a) {
      st = ct_last_error();
    }
    if (st == CT_OK) {
      /* col[j * m + i] = A'[i][j], A' = A (rows >= cols) or A^T */
      for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
          if (rows >= cols) col[j * m + i] = p[i * cols + j];
          else col[i * m + j] = p[i * cols + j];
        }
      for (j = 0; j < n; j++) {
        double *v = col + j * m, norm = 0;
        int pass;
        for (pass = 0; pass < 2; pass++)
          for (k = 0; k < j; k++) {
            double *u = col + k * m, dot = 0;
            for (i = 0; i < m; i++) dot += u[i] * v[i];
            for (i = 0; i < m; i++) v[i] -= dot * u[i];
          }
        for (i = 0; i < m; i++) norm += v[i] * v[i];
        norm = sqrt(norm);
        for (i = 0; i < m; i++) v[i] = norm > 0 ? v[i] / norm : 0;
      }
      for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) p[i * cols + j] = gain * (rows >= cols ? col[j * m + i] : col[i * m + j]);
      q = ct_view(a, t->ndim, t->sizes);
      st = q ? ct_copy_(t, q) : ct_last_error();
    }
    CT_FREE(col);
  }
  return st;
}

/* ==================== built-in modules ==================== */
static ct_module *ct__nn_new(const char *kind, ct__nn_kind builtin, ct_forward_fn forward) {
  ct_module *m = ct_module_new(kind, forward, NULL, NULL);
  if (m) m->builtin = builtin;
  return m;
}

/* a new parameter of the given shape (float32, CPU) registered under name; NULL on error */
/* (the scope owns the new tensor, whether or not the caller has one open; the module keeps its own reference) */
static ct_tensor *ct__nn_param(ct_module *m, const char *name, int ndim, const int64_t *sizes) {
  ct_tensor *t = NULL;
  CT_SCOPE {
    t = ct_empty(ndim, sizes, CT_F32);
    if (t && ct_module_register_parameter(m, name, t) != CT_OK) t = NULL;
  }
  return t;
}
static ct_tensor *ct__nn_buffer(ct_module *m, const char *name, int ndim, const int64_t *sizes, ct_dtype dtype, double fill) {
  ct_tensor *t = NULL;
  CT_SCOPE {
    t = ct_full(ndim, sizes, ct_float(fill), dtype);
    if (t && ct_module_register_buffer(m, name, t) != CT_OK) t = NULL;
  }
  return t;
}

/* NULL when m is NULL or st failed (m freed) */
static ct_module *ct__nn_done(ct_module *m, ct_status st) {
  if (m && st == CT_OK) return m;
  ct_module_free(m);
  return NULL;
}

static ct_status ct__nn_check_kind(const char *op, const ct_module *m, ct__nn_kind kind, const char *name) {
  if (!m) return ct_fail(CT_ERR_NULL, op, "argument 'module' is NULL");
  if (m->builtin != kind) return ct_fail(CT_ERR_INVALID, op, "expected a %s module, got %s", name, m->kind);
  return CT_OK;
}

static ct_status ct__nn_check_sizes(const char *op, int n, const int64_t *v, const char *what) {
  int i;
  for (i = 0; i < n; i++)
    if (v[i] < 0) return ct_fail(CT_ERR_SIZE, op, "%s must be non-negative, got %lld", what, (long long)v[i]);
  return CT_OK;
}

/* Linear and convolutions: weight kaiming_uniform_(a = sqrt(5)), bias U(-1/sqrt(fan_in), 1/sqrt(fan_in)) */
static ct_status ct__nn_reset_affine(ct_tensor *w, ct_tensor *b) {
  int64_t fan_in;
  double bound;
  if (ct_init_kaiming_uniform_(w, sqrt(5.0), CT_FAN_IN, "leaky_relu") != CT_OK || ct_init_fans(w, &fan_in, NULL) != CT_OK)
    return ct_last_error();
  bound = fan_in > 0 ? 1 / sqrt((double)fan_in) : 0;
  return b ? ct_init_uniform_(b, -bound, bound) : CT_OK;
}

static ct_tensor *ct__nn_linear_forward(ct_module *m, ct_tensor *x) {
  return ct_linear(x, ct_module_get(m, "weight"), m->cfg.bias ? ct_module_get(m, "bias") : NULL);
}
CTDEF ct_module *ct_nn_linear(int64_t in_features, int64_t out_features, bool bias) {
  static const char *op = "nn.Linear";
  int64_t wsz[2], bsz[1];
  ct_module *m;
  ct_tensor *w, *b = NULL;
  wsz[0] = out_features, wsz[1] = in_features, bsz[0] = out_features;
  if (ct__nn_check_sizes(op, 2, wsz, "features") != CT_OK) return NULL;
  m = ct__nn_new("Linear", CT__NN_LINEAR, ct__nn_linear_forward);
  if (!m) return NULL;
  m->cfg.in = in_features, m->cfg.out = out_features, m->cfg.bias = bias;
  w = ct__nn_param(m, "weight", 2, wsz);
  if (w && bias) b = ct__nn_param(m, "bias", 1, bsz);
  return ct__nn_done(m, w && (b || !bias) ? ct__nn_reset_affine(w, b) : ct_last_error());
}

CTDEF ct_conv_opts ct_conv_defaults(void) {
  ct_conv_opts o;
  memset(&o, 0, sizeof o);
  o.stride[0] = o.stride[1] = 1, o.dilation[0] = o.dilation[1] = 1, o.groups = 1, o.bias = true;
  return o;
}

static ct_tensor *ct__nn_conv_forward(ct_module *m, ct_tensor *x) {
  const ct__nn_cfg *c = &m->cfg;
  ct_tensor *w = ct_module_get(m, "weight"), *b = c->bias ? ct_module_get(m, "bias") : NULL;
  if (c->conv_dims == 1) return ct_conv1d(x, w, b, 1, c->stride, 1, c->padding, 1, c->dilation, c->groups);
  return ct_conv2d(x, w, b, 2, c->stride, 2, c->padding, 2, c->dilation, c->groups);
}
static ct_module *ct__nn_conv(const char *kind, int dims, int64_t in, int64_t out, const int64_t *kernel, const ct_conv_opts *opts) {
  ct_conv_opts o = opts ? *opts : ct_conv_defaults();
  int64_t wsz[4], bsz[1];
  ct_module *m;
  ct_tensor *w, *b = NULL;
  int i;
  if (o.groups <= 0) {
    ct_fail(CT_ERR_INVALID, kind, "groups must be a positive integer");
    return NULL;
  }
  if (in < 0 || out < 0 || in % o.groups || out % o.groups) {
    ct_fail(CT_ERR_INVALID, kind, "in_channels (%lld) and out_channels (%lld) must be non-negative and divisible by groups (%lld)",
            (long long)in, (long long)out, (long long)o.groups);
    return NULL;
  }
  for (i = 0; i < dims; i++)
    if (kernel[i] <= 0 || o.stride[i] <= 0 || o.dilation[i] <= 0 || o.padding[i] < 0) {
      ct_fail(CT_ERR_INVALID, kind, "kernel size, stride and dilation must be positive and padding non-negative");
      return NULL;
    }
  m = ct__nn_new(kind, CT__NN_CONV, ct__nn_conv_forward);
  if (!m) return NULL;
  m->cfg.in = in, m->cfg.out = out, m->cfg.conv_dims = dims, m->cfg.groups = o.groups, m->cfg.bias = o.bias;
  for (i = 0; i < dims; i++)
    m->cfg.kernel[i] = kernel[i], m->cfg.stride[i] = o.stride[i], m->cfg.padding[i] = o.padding[i], m->cfg.dilation[i] = o.dilation[i];
  wsz[0] = out, wsz[1] = in / o.groups, wsz[2] = kernel[0], wsz[3] = dims > 1 ? kernel[1] : 1, bsz[0] = out;
  w = ct__nn_param(m, "weight", 2 + dims, wsz);
  if (w && o.bias) b = ct__nn_param(m, "bias", 1, bsz);
  return ct__nn_done(m, w && (b || !o.bias) ? ct__nn_reset_affine(w, b) : ct_last_error());
}
CTDEF ct_module *ct_nn_conv1d(int64_t in_channels, int64_t out_channels, int64_t kernel_size, const ct_conv_opts *opts) {
  int64_t k[1];
  k[0] = kernel_size;
  return ct__nn_conv("Conv1d", 1, in_channels, out_channels, k, opts);
}
CTDEF ct_module *ct_nn_conv2d(int64_t in_channels, int64_t out_channels, int64_t kernel_h, int64_t kernel_w, const ct_conv_opts *opts) {
  int64_t k[2];
  k[0] = kernel_h, k[1] = kernel_w;
  return ct__nn_conv("Conv2d", 2, in_channels, out_channels, k, opts);
}

static ct_tensor *ct__nn_embedding_forward(ct_module *m, ct_tensor *x) {
  return ct_embedding_ex(ct_module_get(m, "weight"), x, m->cfg.padding_idx, false, false);
}
CTDEF ct_module *ct_nn_embedding(int64_t num_embeddings, int64_t embedding_dim, int64_t padding_idx) {
  static const char *op = "nn.Embedding";
  int64_t wsz[2];
  ct_module *m;
  ct_tensor *w;
  ct_status st;
  wsz[0] = num_embeddings, wsz[1] = embedding_dim;
  if (ct__nn_check_sizes(op, 2, wsz, "sizes") != CT_OK) return NULL;
  if (padding_idx != CT_NN_NO_PADDING_IDX) {
    if (padding_idx >= num_embeddings || padding_idx < -num_embeddings) {
      ct_fail(CT_ERR_INDEX, op, "padding_idx must be within num_embeddings");
      return NULL;
    }
    if (padding_idx < 0) padding_idx += num_embeddings;
  }
  m = ct__nn_new("Embedding", CT__NN_EMBEDDING, ct__nn_embedding_forward);
  if (!m) return NULL;
  m->cfg.in = num_embeddings, m->cfg.out = embedding_dim;
  m->cfg.padding_idx = padding_idx == CT_NN_NO_PADDING_IDX ? -1 : padding_idx; /* aten's "none" */
  w = ct__nn_param(m, "weight", 2, wsz);
  st = w ? ct_init_normal_(w, 0, 1) : ct_last_error();
  if (st == CT_OK && padding_idx != CT_NN_NO_PADDING_IDX) CT_NO_GRAD CT_SCOPE { st = ct_fill_(ct_select(w, 0, padding_idx), ct_float(0)); }
  return ct__nn_done(m, st);
}

static ct_module *ct__nn_norm(const char *kind, ct__nn_kind builtin, ct_forward_fn fwd, int ndim, const int64_t *shape, double eps,
                              bool affine, bool bias) {
  ct_module *m;
  ct_status st = CT_OK;
  if (ndim < 1 || ndim > CT_MAX_DIMS || !shape) {
    ct_fail(CT_ERR_RANK, kind, "normalized_shape needs 1 to %d sizes, got %d", CT_MAX_DIMS, ndim);
    return NULL;
  }
  if (ct__nn_check_sizes(kind, ndim, shape, "normalized_shape") != CT_OK) return NULL;
  m = ct__nn_new(kind, builtin, fwd);
  if (!m) return NULL;
  m->cfg.norm_ndim = ndim, m->cfg.eps = eps, m->cfg.affine = affine;
  memcpy(m->cfg.norm_shape, shape, (size_t)ndim * sizeof *shape);
  if (affine) {
    ct_tensor *w = ct__nn_param(m, "weight", ndim, shape), *b = NULL;
    if (w && bias) b = ct__nn_param(m, "bias", ndim, shape);
    st = w && (b || !bias) ? ct_init_ones_(w) : ct_last_error();
    if (st == CT_OK && b) st = ct_init_zeros_(b);
  }
  return ct__nn_done(m, st);
}
static ct_tensor *ct__nn_layer_norm_forward(ct_module *m, ct_tensor *x) {
  return ct_layer_norm(x, m->cfg.norm_ndim, m->cfg.norm_shape, ct_module_get(m, "weight"), ct_module_get(m, "bias"), m->cfg.eps);
}
CTDEF ct_module *ct_nn_layer_norm(int ndim, const int64_t *normalized_shape, double eps, bool elementwise_affine) {
  return ct__nn_norm("LayerNorm", CT__NN_LAYER_NORM, ct__nn_layer_norm_forward, ndim, normalized_shape, eps, elementwise_affine, true);
}
static ct_tensor *ct__nn_rms_norm_forward(ct_module *m, ct_tensor *x) {
  return ct_rms_norm(x, m->cfg.norm_ndim, m->cfg.norm_shape, ct_module_get(m, "weight"), m->cfg.eps);
}
CTDEF ct_module *ct_nn_rms_norm(int ndim, const int64_t *normalized_shape, double eps, bool elementwise_affine) {
  return ct__nn_norm("RMSNorm", CT__NN_RMS_NORM, ct__nn_rms_norm_forward, ndim, normalized_shape, eps, elementwise_affine, false);
}

static ct_tensor *ct__nn_batch_norm_forward(ct_module *m, ct_tensor *x) {
  const ct__nn_cfg *c = &m->cfg;
  ct_tensor *mean = ct_module_get(m, "running_mean"), *var = ct_module_get(m, "running_var");
  ct_tensor *count = ct_module_get(m, "num_batches_tracked");
  double factor = isnan(c->momentum) ? 0 : c->momentum;
  bool batch_stats = m->training || !c->track;
  if (x->ndim != 4) {
    ct_fail(CT_ERR_RANK, "nn.BatchNorm2d", "expected 4D input (got %dD input)", x->ndim);
    return NULL;
  }
  if (m->training && c->track && count) {
    ct_status st = CT_OK;
    CT_NO_GRAD { st = ct_add_scalar_(count, ct_int(1)); }
    if (st != CT_OK) return NULL;
    if (isnan(c->momentum)) factor = 1.0 / (double)ct_get_int(count, 0); /* cumulative moving average */
  }
  /* running statistics are used (eval) or updated (training) only when tracked */
  return ct_batch_norm(x, ct_module_get(m, "weight"), ct_module_get(m, "bias"), !m->training || c->track ? mean : NULL,
                       !m->training || c->track ? var : NULL, batch_stats, factor, c->eps);
}
CTDEF ct_module *ct_nn_batch_norm2d(int64_t num_features, double eps, double momentum, bool affine, bool track_running_stats) {
  int64_t sz[1];
  ct_module *m;
  ct_status st = CT_OK;
  sz[0] = num_features;
  if (ct__nn_check_sizes("nn.BatchNorm2d", 1, sz, "num_features") != CT_OK) return NULL;
  m = ct__nn_new("BatchNorm2d", CT__NN_BATCH_NORM, ct__nn_batch_norm_forward);
  if (!m) return NULL;
  m->cfg.in = num_features, m->cfg.eps = eps, m->cfg.momentum = momentum, m->cfg.affine = affine, m->cfg.track = track_running_stats;
  if (affine) {
    ct_tensor *w = ct__nn_param(m, "weight", 1, sz), *b = w ? ct__nn_param(m, "bias", 1, sz) : NULL;
    st = b ? ct_init_ones_(w) : ct_last_error();
    if (st == CT_OK) st = ct_init_zeros_(b);
  }
  if (st == CT_OK && track_running_stats &&
      (!ct__nn_buffer(m, "running_mean", 1, sz, CT_F32, 0) || !ct__nn_buffer(m, "running_var", 1, sz, CT_F32, 1) ||
       !ct__nn_buffer(m, "num_batches_tracked", 0, sz, CT_I64, 0)))
    st = ct_last_error();
  return ct__nn_done(m, st);
}

static ct_tensor *ct__nn_dropout_forward(ct_module *m, ct_tensor *x) { return ct_dropout(x, m->cfg.p, m->training); }
CTDEF ct_module *ct_nn_dropout(double p) {
  ct_module *m;
  if (!(p >= 0 && p <= 1)) {
    ct_fail(CT_ERR_INVALID, "nn.Dropout", "dropout probability has to be between 0 and 1, but got %g", p);
    return NULL;
  }
  m = ct__nn_new("Dropout", CT__NN_DROPOUT, ct__nn_dropout_forward);
  if (m) m->cfg.p = p;
  return m;
}

static ct_tensor *ct__nn_relu_forward(ct_module *m, ct_tensor *x) { return (void)m, ct_relu(x); }
static ct_tensor *ct__nn_gelu_forward(ct_module *m, ct_tensor *x) { return ct_gelu_ex(x, m->cfg.gelu_tanh ? "tanh" : "none"); }
static ct_tensor *ct__nn_tanh_forward(ct_module *m, ct_tensor *x) { return (void)m, ct_tanh(x); }
static ct_tensor *ct__nn_sigmoid_forward(ct_module *m, ct_tensor *x) { return (void)m, ct_sigmoid(x); }
static ct_tensor *ct__nn_silu_forward(ct_module *m, ct_tensor *x) { return (void)m, ct_silu(x); }
static ct_tensor *ct__nn_identity_forward(ct_module *m, ct_tensor *x) { return (void)m, ct_alias(x); }
static ct_tensor *ct__nn_flatten_forward(ct_module *m, ct_tensor *x) { return ct_flatten(x, m->cfg.start_dim, m->cfg.end_dim); }
CTDEF ct_module *ct_nn_relu(void) { return ct__nn_new("ReLU", CT__NN_RELU, ct__nn_relu_forward); }
CTDEF ct_module *ct_nn_gelu(const char *approximate) {
  ct_module *m;
  if (approximate && strcmp(approximate, "none") && strcmp(approximate, "tanh")) {
    ct_fail(CT_ERR_INVALID, "nn.GELU", "approximate must be \"none\" or \"tanh\", got \"%s\"", approximate);
    return NULL;
  }
  m = ct__nn_new("GELU", CT__NN_GELU, ct__nn_gelu_forward);
  if (m) m->cfg.gelu_tanh = approximate && !strcmp(approximate, "tanh");
  return m;
}
CTDEF ct_module *ct_nn_tanh(void) { return ct__nn_new("Tanh", CT__NN_TANH, ct__nn_tanh_forward); }
CTDEF ct_module *ct_nn_sigmoid(void) { return ct__nn_new("Sigmoid", CT__NN_SIGMOID, ct__nn_sigmoid_forward); }
CTDEF ct_module *ct_nn_silu(void) { return ct__nn_new("SiLU", CT__NN_SILU, ct__nn_silu_forward); }
CTDEF ct_module *ct_nn_identity(void) { return ct__nn_new("Identity", CT__NN_IDENTITY, ct__nn_identity_forward); }
CTDEF ct_module *ct_nn_flatten(int64_t start_dim, int64_t end_dim) {
  ct_module *m = ct__nn_new("Flatten", CT__NN_FLATTEN, ct__nn_flatten_forward);
  if (m) m->cfg.start_dim = start_dim, m->cfg.end_dim = end_dim;
  return m;
}

static ct_tensor *ct__nn_sequential_forward(ct_module *m, ct_tensor *x) {
  ct_tensor *r = NULL;
  int i;
  if (m->nchildren == 0) return ct_alias(x);
  CT_SCOPE {
    ct_tensor *cur = x;
    for (i = 0; i < m->nchildren && cur; i++) cur = ct_module_forward(m->children[i].module, cur);
    r = ct_keep(cur);
  }
  return r;
}
CTDEF ct_status ct_nn_sequential_append(ct_module *seq, ct_module *m) {
  char name[24];
  if (ct__nn_check_kind("nn.Sequential.append", seq, CT__NN_SEQUENTIAL, "Sequential") != CT_OK) {
    ct_module_free(m);
    return ct_last_error();
  }
  snprintf(name, sizeof name, "%d", seq->nchildren);
  return ct_module_add(seq, name, m) ? CT_OK : ct_last_error();
}
CTDEF ct_module *ct_nn_sequential(int n, ct_module *const *mods) {
  ct_module *seq = NULL;
  ct_status st = CT_OK;
  int i;
  if (n < 0 || (n > 0 && !mods)) st = ct_fail(CT_ERR_INVALID, "nn.Sequential", "bad module list (n = %d)", n);
  for (i = 0; i < n && st == CT_OK; i++)
    if (!mods[i]) st = ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_NULL, "nn.Sequential", "module %d is NULL", i);
  if (st == CT_OK) seq = ct__nn_new("Sequential", CT__NN_SEQUENTIAL, ct__nn_sequential_forward);
  if (!seq) {
    for (i = 0; i < n && mods; i++) ct_module_free(mods[i]);
    return NULL;
  }
  for (i = 0; i < n; i++)
    if (st == CT_OK) st = ct_nn_sequential_append(seq, mods[i]);
    else ct_module_free(mods[i]);
  return ct__nn_done(seq, st);
}

/* ---- recurrent layers ---- */
/* all weights and biases U(-1/sqrt(hidden), 1/sqrt(hidden)), as RNNBase and RNNCellBase */
static ct_status ct__nn_rnn_params(ct_module *m, const char *suffix, int64_t gates, int64_t in, int64_t hidden, bool bias) {
  char name[48];
  int64_t wi[2], wh[2], b[1];
  double bound = hidden > 0 ? 1 / sqrt((double)hidden) : 0;
  ct_tensor *t;
  wi[0] = gates * hidden, wi[1] = in, wh[0] = gates * hidden, wh[1] = hidden, b[0] = gates * hidden;
  snprintf(name, sizeof name, "weight_ih%s", suffix);
  if (!(t = ct__nn_param(m, name, 2, wi)) || ct_init_uniform_(t, -bound, bound) != CT_OK) return ct_last_error();
  snprintf(name, sizeof name, "weight_hh%s", suffix);
  if (!(t = ct__nn_param(m, name, 2, wh)) || ct_init_uniform_(t, -bound, bound) != CT_OK) return ct_last_error();
  if (!bias) return CT_OK;
  snprintf(name, sizeof name, "bias_ih%s", suffix);
  if (!(t = ct__nn_param(m, name, 1, b)) || ct_init_uniform_(t, -bound, bound) != CT_OK) return ct_last_error();
  snprintf(name, sizeof name, "bias_hh%s", suffix);
  if (!(t = ct__nn_param(m, name, 1, b)) || ct_init_uniform_(t, -bound, bound) != CT_OK) return ct_last_error();
  return CT_OK;
}

/* One step from gi = x W_ih^T + b_ih (precomputed) and h: the new h (and *c for LSTM). */
static ct_tensor *ct__nn_gru_step(ct_tensor *gi, ct_tensor *h, ct_tensor *w_hh, ct_tensor *b_hh) {
  ct_tensor *i3[3], *h3[3], *gh = ct_linear(h, w_hh, b_hh), *r, *z, *n;
  if (!gi || !gh || ct_chunk(gi, 3, -1, 3, i3) != 3 || ct_chunk(gh, 3, -1, 3, h3) != 3) return NULL;
  r = ct_sigmoid(ct_add(i3[0], h3[0]));
  z = ct_sigmoid(ct_add(i3[1], h3[1]));
  n = ct_tanh(ct_add(i3[2], ct_mul(r, h3[2])));
  return ct_add(n, ct_mul(z, ct_sub(h, n))); /* (1 - z) n + z h */
}
static ct_tensor *ct__nn_lstm_step(ct_tensor *gi, ct_tensor *h, ct_tensor **c, ct_tensor *w_hh, ct_tensor *b_hh) {
  ct_tensor *g4[4], *gates = ct_add(gi, ct_linear(h, w_hh, b_hh)), *cn;
  if (!gates || ct_chunk(gates, 4, -1, 4, g4) != 4) return NULL;
  cn = ct_add(ct_mul(ct_sigmoid(g4[1]), *c), ct_mul(ct_sigmoid(g4[0]), ct_tanh(g4[2])));
  *c = cn;
  return ct_mul(ct_sigmoid(g4[3]), ct_tanh(cn));
}

static ct_status ct__nn_rnn_check_input(const char *op, const ct_module *m, ct_tensor *x, int batch_ndim) {
  if (!x) return ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_NULL, op, "input is NULL");
  if (x->ndim != batch_ndim && x->ndim != batch_ndim - 1)
    return ct_fail(CT_ERR_RANK, op, "expected %dD (batched) or %dD (unbatched) input, got %dD", batch_ndim, batch_ndim - 1, x->ndim);
  if (x->sizes[x->ndim - 1] != m->cfg.in)
    return ct_fail(CT_ERR_SHAPE, op, "input.size(-1) must be equal to input_size. Expected %lld, got %lld", (long long)m->cfg.in,
                   (long long)x->sizes[x->ndim - 1]);
  return CT_OK;
}
/* a state argument: NULL gives zeros shaped like want; else the shape must be want */
static ct_tensor *ct__nn_rnn_state(const char *op, const char *what, ct_tensor *s, ct_tensor *like, int ndim, const int64_t *want) {
  if (!s) return ct_zeros(ndim, want, (ct_dtype)like->dtype);
  if (s->ndim != ndim || memcmp(s->sizes, want, (size_t)ndim * sizeof *want)) {
    char a[96], b[96];
    ct_fail(CT_ERR_SHAPE, op, "Expected %s size %s, got %s", what, ct__nn_tuple(ndim, want, a, sizeof a),
            ct_shape_format(s->ndim, s->sizes, b, sizeof b));
    return NULL;
  }
  return s;
}

static ct_tensor *ct__nn_cell_forward(const char *op, ct_module *m, bool lstm, ct_tensor *x, ct_tensor *h, ct_tensor *c, ct_tensor **c_out) {
  ct_tensor *r = NULL, *cn = NULL;
  int64_t want[2];
  if (ct__nn_rnn_check_input(op, m, x, 2) != CT_OK) return NULL;
  want[0] = x->sizes[0], want[1] = m->cfg.hidden;
  if (x->ndim == 1) want[0] = m->cfg.hidden;
  CT_SCOPE {
    ct_tensor *hh = ct__nn_rnn_state(op, "hidden", h, x, x->ndim, want);
    ct_tensor *cc = lstm && hh ? ct__nn_rnn_state(op, "cell state", c, x, x->ndim, want) : NULL;
    ct_tensor *gi = hh && (cc || !lstm) ? ct_linear(x, ct_module_get(m, "weight_ih"), ct_module_get(m, "bias_ih")) : NULL;
    ct_tensor *hn = NULL;
    if (gi) hn = lstm ? ct__nn_lstm_step(gi, hh, &cc, ct_module_get(m, "weight_hh"), ct_module_get(m, "bias_hh"))
                      : ct__nn_gru_step(gi, hh, ct_module_get(m, "weight_hh"), ct_module_get(m, "bias_hh"));
    r = ct_keep(hn);
    if (hn && lstm && c_out) cn = ct_keep(cc);
  }
  if (c_out) *c_out = cn;
  return r;
}
static ct_tensor *ct__nn_gru_cell_forward1(ct_module *m, ct_tensor *x) { return ct__nn_cell_forward("nn.GRUCell", m, false, x, NULL, NULL, NULL); }
static ct_tensor *ct__nn_lstm_cell_forward1(ct_module *m, ct_tensor *x) {
  return ct__nn_cell_forward("nn.LSTMCell", m, true, x, NULL, NULL, NULL);
}
static ct_module *ct__nn_cell(const char *kind, ct__nn_kind builtin, ct_forward_fn fwd, int64_t gates, int64_t in, int64_t hidden, bool bias) {
  int64_t sz[2];
  ct_module *m;
  sz[0] = in, sz[1] = hidden;
  if (ct__nn_check_sizes(kind, 2, sz, "sizes") != CT_OK) return NULL;
  m = ct__nn_new(kind, builtin, fwd);
  if (!m) return NULL;
  m->cfg.in = in, m->cfg.hidden = hidden, m->cfg.bias = bias;
  return ct__nn_done(m, ct__nn_rnn_params(m, "", gates, in, hidden, bias));
}
CTDEF ct_module *ct_nn_gru_cell(int64_t input_size, int64_t hidden_size, bool bias) {
  return ct__nn_cell("GRUCell", CT__NN_GRU_CELL, ct__nn_gru_cell_forward1, 3, input_size, hidden_size, bias);
}
CTDEF ct_module *ct_nn_lstm_cell(int64_t input_size, int64_t hidden_size, bool bias) {
  return ct__nn_cell("LSTMCell", CT__NN_LSTM_CELL, ct__nn_lstm_cell_forward1, 4, input_size, hidden_size, bias);
}
CTDEF ct_tensor *ct_nn_gru_cell_forward(ct_module *cell, ct_tensor *input, ct_tensor *h) {
  if (ct__nn_check_kind("nn.GRUCell", cell, CT__NN_GRU_CELL, "GRUCell") != CT_OK) return NULL;
  return ct__nn_cell_forward("nn.GRUCell", cell, false, input, h, NULL, NULL);
}
CTDEF ct_tensor *ct_nn_lstm_cell_forward(ct_module *cell, ct_tensor *input, ct_tensor *h, ct_tensor *c, ct_tensor **c_out) {
  if (c_out) *c_out = NULL;
  if (ct__nn_check_kind("nn.LSTMCell", cell, CT__NN_LSTM_CELL, "LSTMCell") != CT_OK) return NULL;
  return ct__nn_cell_forward("nn.LSTMCell", cell, true, input, h, c, c_out);
}

CTDEF ct_rnn_opts ct_rnn_defaults(void) {
  ct_rnn_opts o;
  memset(&o, 0, sizeof o);
  o.num_layers = 1, o.bias = true;
  return o;
}

/* The multi-step GRU / LSTM: layer by layer, direction by direction, a
 * list of per-step tensors between layers. The input is split into steps
 * once; later layers take the previous layer's per-step outputs as they
 * are: slicing a tensor that needs a gradient per step would make each
 * slice's backward add a zero-padded gradient of the whole sequence
 * (quadratic in the length). */
static ct_tensor *ct__nn_rnn_forward(const char *op, ct_module *m, bool lstm, ct_tensor *x, ct_tensor *h0, ct_tensor *c0, ct_tensor **h_n,
                                     ct_tensor **c_n) {
  const ct__nn_cfg *cfg = &m->cfg;
  int64_t dirs = cfg->bidirectional ? 2 : 1, layers = cfg->layers, state_sz[3], steps, l, d, t;
  ct_tensor *out = NULL, *hn_out = NULL, *cn_out = NULL, **xs = NULL, **outs;
  bool batched;
  if (h_n) *h_n = NULL;
  if (c_n) *c_n = NULL;
  if (ct__nn_rnn_check_input(op, m, x, 3) != CT_OK) return NULL;
  batched = x->ndim == 3;
  steps = x->sizes[batched && cfg->batch_first ? 1 : 0];
  if (steps == 0) {
    ct_fail(CT_ERR_SHAPE, op, "Expected sequence length to be larger than 0 in RNN");
    return NULL;
  }
  state_sz[0] = layers * dirs, state_sz[1] = batched ? x->sizes[cfg->batch_first ? 0 : 1] : cfg->hidden, state_sz[2] = cfg->hidden;
  /* xs: the current layer's input per step; outs: each direction's output per step */
  xs = (ct_tensor **)CT_MALLOC((size_t)(3 * steps + 2 * layers * dirs + 1) * sizeof(ct_tensor *));
  if (xs) memset(xs, 0, (size_t)(3 * steps + 2 * layers * dirs + 1) * sizeof(ct_tensor *));
  if (!xs) {
    ct_fail(CT_ERR_OOM, op, "out of memory");
    return NULL;
  }
  outs = xs + steps;
  CT_SCOPE {
    /* (L, N, in); unbatched input gets N = 1 */
    ct_tensor *cur = batched ? (cfg->batch_first ? ct_transpose(x, 0, 1) : x) : ct_unsqueeze(x, 1);
    ct_tensor *hs = ct__nn_rnn_state(op, "hidden", h0, x, batched ? 3 : 2, batched ? state_sz : state_sz + 1);
    ct_tensor *cs = lstm && hs ? ct__nn_rnn_state(op, "cell state", c0, x, batched ? 3 : 2, batched ? state_sz : state_sz + 1) : NULL;
    ct_tensor **finals_h = outs + 2 * steps, **finals_c = finals_h + layers * dirs, *y = NULL;
    bool ok = cur && hs && (cs || !lstm) && ct_unbind(cur, 0, steps, xs) == steps;
    if (ok && !batched) hs = ct_unsqueeze(hs, 1), cs = cs ? ct_unsqueeze(cs, 1) : NULL;
    for (l = 0; ok && l < layers; l++) {
      for (d = 0; ok && d < dirs; d++) {
        char w_ih[48], b_ih[48], w_hh[48], b_hh[48];
        const char *sfx = d ? "_reverse" : "";
        ct_tensor *wih, *bih, *whh, *bhh, *h, *c = NULL;
        snprintf(w_ih, sizeof w_ih, "weight_ih_l%lld%s", (long long)l, sfx), snprintf(b_ih, sizeof b_ih, "bias_ih_l%lld%s", (long long)l, sfx);
        snprintf(w_hh, sizeof w_hh, "weight_hh_l%lld%s", (long long)l, sfx), snprintf(b_hh, sizeof b_hh, "bias_hh_l%lld%s", (long long)l, sfx);
        wih = ct_module_get(m, w_ih), bih = ct_module_get(m, b_ih), whh = ct_module_get(m, w_hh), bhh = ct_module_get(m, b_hh);
        h = ct_select(hs, 0, l * dirs + d);
        if (lstm) c = ct_select(cs, 0, l * dirs + d);
        ok = h && (c || !lstm);
        for (t = 0; ok && t < steps; t++) {
          int64_t at = d ? steps - 1 - t : t;
          ct_tensor *gi = ct_linear(xs[at], wih, bih);
          h = lstm ? ct__nn_lstm_step(gi, h, &c, whh, bhh) : ct__nn_gru_step(gi, h, whh, bhh);
          outs[d * steps + at] = h;
          ok = h != NULL;
        }
        if (ok) finals_h[l * dirs + d] = h, finals_c[l * dirs + d] = c;
      }
      for (t = 0; ok && t < steps; t++) { /* the next layer's input: both directions' outputs side by side */
        if (dirs == 2) {
          ct_tensor *pair[2];
          pair[0] = outs[t], pair[1] = outs[steps + t];
          xs[t] = ct_cat(2, pair, -1);
        } else {
          xs[t] = outs[t];
        }
        if (xs[t] && l + 1 < layers && cfg->p > 0 && m->training) xs[t] = ct_dropout(xs[t], cfg->p, true);
        ok = xs[t] != NULL;
      }
    }
    if (ok) {
      ct_tensor *hn = ct_stack_tensors((int)(layers * dirs), finals_h, 0), *cn = lstm ? ct_stack_tensors((int)(layers * dirs), finals_c, 0) : NULL;
      y = ct_stack_tensors((int)steps, xs, 0);
      y = y ? (batched ? (cfg->batch_first ? ct_transpose(y, 0, 1) : y) : ct_squeeze_dim(y, 1)) : NULL;
      if (hn && !batched) hn = ct_squeeze_dim(hn, 1);
      if (cn && !batched) cn = ct_squeeze_dim(cn, 1);
      if (y && hn && (cn || !lstm)) {
        out = ct_keep(y);
        if (h_n) hn_out = ct_keep(hn);
        if (c_n && lstm) cn_out = ct_keep(cn);
      }
    }
  }
  CT_FREE(xs);
  if (h_n) *h_n = hn_out;
  if (c_n) *c_n = cn_out;
  return out;
}
static ct_tensor *ct__nn_gru_forward1(ct_module *m, ct_tensor *x) { return ct__nn_rnn_forward("nn.GRU", m, false, x, NULL, NULL, NULL, NULL); }
static ct_tensor *ct__nn_lstm_forward1(ct_module *m, ct_tensor *x) { return ct__nn_rnn_forward("nn.LSTM", m, true, x, NULL, NULL, NULL, NULL); }
static ct_module *ct__nn_rnn(const char *kind, ct__nn_kind builtin, ct_forward_fn fwd, int64_t gates, int64_t in, int64_t hidden,
                             const ct_rnn_opts *opts) {
  ct_rnn_opts o = opts ? *opts : ct_rnn_defaults();
  int64_t sz[2], l, d, dirs = o.bidirectional ? 2 : 1;
  ct_module *m;
  ct_status st = CT_OK;
  sz[0] = in, sz[1] = hidden;
  if (ct__nn_check_sizes(kind, 2, sz, "sizes") != CT_OK) return NULL;
  if (o.num_layers < 1 || !(o.dropout >= 0 && o.dropout <= 1)) {
    ct_fail(CT_ERR_INVALID, kind, "num_layers must be at least 1 and dropout in [0, 1] (got %lld, %g)", (long long)o.num_layers, o.dropout);
    return NULL;
  }
  m = ct__nn_new(kind, builtin, fwd);
  if (!m) return NULL;
  m->cfg.in = in, m->cfg.hidden = hidden, m->cfg.layers = o.num_layers, m->cfg.bias = o.bias, m->cfg.batch_first = o.batch_first;
  m->cfg.bidirectional = o.bidirectional, m->cfg.p = o.dropout;
  for (l = 0; l < o.num_layers && st == CT_OK; l++)
    for (d = 0; d < dirs && st == CT_OK; d++) {
      char suffix[32];
      snprintf(suffix, sizeof suffix, "_l%lld%s", (long long)l, d ? "_reverse" : "");
      st = ct__nn_rnn_params(m, suffix, gates, l ? hidden * dirs : in, hidden, o.bias);
    }
  return ct__nn_done(m, st);
}
CTDEF ct_module *ct_nn_gru(int64_t input_size, int64_t hidden_size, const ct_rnn_opts *opts) {
  return ct__nn_rnn("GRU", CT__NN_GRU, ct__nn_gru_forward1, 3, input_size, hidden_size, opts);
}
CTDEF ct_module *ct_nn_lstm(int64_t input_size, int64_t hidden_size, const ct_rnn_opts *opts) {
  return ct__nn_rnn("LSTM", CT__NN_LSTM, ct__nn_lstm_forward1, 4, input_size, hidden_size, opts);
}
CTDEF ct_tensor *ct_nn_gru_forward(ct_module *gru, ct_tensor *input, ct_tensor *h0, ct_tensor **h_n) {
  if (h_n) *h_n = NULL;
  if (ct__nn_check_kind("nn.GRU", gru, CT__NN_GRU, "GRU") != CT_OK) return NULL;
  return ct__nn_rnn_forward("nn.GRU", gru, false, input, h0, NULL, h_n, NULL);
}
CTDEF ct_tensor *ct_nn_lstm_forward(ct_module *lstm, ct_tensor *input, ct_tensor *h0, ct_tensor *c0, ct_tensor **h_n, ct_tensor **c_n) {
  if (h_n) *h_n = NULL;
  if (c_n) *c_n = NULL;
  if (ct__nn_check_kind("nn.LSTM", lstm, CT__NN_LSTM, "LSTM") != CT_OK) return NULL;
  return ct__nn_rnn_forward("nn.LSTM", lstm, true, input, h0, c0, h_n, c_n);
}

/* ---- attention ---- */
/* a mask as an additive float mask: bool true -> -inf */
static ct_tensor *ct__nn_additive_mask(ct_tensor *mask, ct_dtype dtype) {
  if (!mask) return NULL;
  if (mask->dtype == CT_BOOL) return ct_masked_fill(ct_zeros(mask->ndim, mask->sizes, dtype), mask, ct_float(-INFINITY));
  if (!ct_dtype_is_floating((ct_dtype)mask->dtype)) {
    ct_fail(CT_ERR_DTYPE, "nn.MultiheadAttention", "only bool and floating types of masks are supported, got %s",
            ct_dtype_name((ct_dtype)mask->dtype));
    return NULL;
  }
  return mask;
}

/* F.multi_head_attention_forward of PyTorch 1.13 for kdim = vdim = embed_dim */
static ct_tensor *ct__nn_mha(ct_module *m, ct_tensor *query, ct_tensor *key, ct_tensor *value, ct_tensor *kpm, ct_tensor *attn_mask,
                             bool need_weights, bool average, ct_tensor **weights) {
  static const char *op = "nn.MultiheadAttention";
  const ct__nn_cfg *c = &m->cfg;
  int64_t E = c->in, H = c->heads, hd = H ? E / H : 0, L, S, N;
  ct_tensor *out = NULL, *wout = NULL;
  bool batched;
  if (weights) *weights = NULL;
  if (!query || !key || !value) {
    if (ct_last_error() == CT_OK) ct_fail(CT_ERR_NULL, op, "query, key and value must not be NULL");
    return NULL;
  }
  batched = query->ndim == 3;
  if ((query->ndim != 3 && query->ndim != 2) || key->ndim != query->ndim || value->ndim != query->ndim) {
    ct_fail(CT_ERR_RANK, op, "query, key and value must all be 3-D (batched) or 2-D (unbatched), got %dD, %dD, %dD", query->ndim,
            key->ndim, value->ndim);
    return NULL;
  }
  if (query->sizes[query->ndim - 1] != E || key->sizes[key->ndim - 1] != E || value->sizes[value->ndim - 1] != E) {
    ct_fail(CT_ERR_SHAPE, op, "was expecting embedding dimension of %lld", (long long)E);
    return NULL;
  }
  CT_SCOPE {
    /* to (L, N, E) */
    ct_tensor *q = batched ? (c->batch_first ? ct_transpose(query, 0, 1) : query) : ct_unsqueeze(query, 1);
    ct_tensor *k = batched ? (c->batch_first ? ct_transpose(key, 0, 1) : key) : ct_unsqueeze(key, 1);
    ct_tensor *v = batched ? (c->batch_first ? ct_transpose(value, 0, 1) : value) : ct_unsqueeze(value, 1);
    ct_tensor *w3[3], *b3[3] = {NULL, NULL, NULL}, *mask = NULL, *attn = NULL, *o = NULL;
    bool ok = q && k && v && ct_chunk(ct_module_get(m, "in_proj_weight"), 3, 0, 3, w3) == 3 &&
              (!c->bias || ct_chunk(ct_module_get(m, "in_proj_bias"), 3, 0, 3, b3) == 3);
    if (ok) {
      L = q->sizes[0], N = q->sizes[1], S = k->sizes[0];
      if (k->sizes[1] != N || v->sizes[1] != N || v->sizes[0] != S)
        ok = false, ct_fail(CT_ERR_SHAPE, op, "key and value must have the same batch and sequence sizes, and match the query's batch");
    }
    if (ok) {
      int64_t qshape[3], kshape[3];
      qshape[0] = L, qshape[1] = N * H, qshape[2] = hd, kshape[0] = S, kshape[1] = N * H, kshape[2] = hd;
      /* (L, N, E) -> (N * H, L, hd), q scaled before the product as PyTorch 1.13 */
      q = ct_transpose(ct_view(ct_contiguous(ct_linear(q, w3[0], b3[0])), 3, qshape), 0, 1);
      k = ct_transpose(ct_view(ct_contiguous(ct_linear(k, w3[1], b3[1])), 3, kshape), 0, 1);
      v = ct_transpose(ct_view(ct_contiguous(ct_linear(v, w3[2], b3[2])), 3, kshape), 0, 1);
      q = ct_div_scalar(q, ct_float(sqrt((double)hd)));
      ok = q && k && v;
    }
    if (ok && attn_mask) { /* (L, S) or (N * H, L, S) */
      mask = ct__nn_additive_mask(attn_mask, (ct_dtype)q->dtype);
      if (mask && !((mask->ndim == 2 && mask->sizes[0] == L && mask->sizes[1] == S) ||
                    (mask->ndim == 3 && mask->sizes[0] == N * H && mask->sizes[1] == L && mask->sizes[2] == S)))
        mask = NULL, ct_fail(CT_ERR_SHAPE, op, "attn_mask must be (L, S) = (%lld, %lld) or (N * num_heads, L, S)", (long long)L, (long long)S);
      if (mask && mask->ndim == 2) mask = ct_unsqueeze(mask, 0);
      ok = mask != NULL;
    }
    if (ok && kpm) { /* (N, S) -> (N * H, 1, S), merged with attn_mask */
      ct_tensor *pm = batched ? kpm : ct_unsqueeze(kpm, 0);
      int64_t e[4], f[3], g[4];
      e[0] = N, e[1] = H, e[2] = 1, e[3] = S, f[0] = N * H, f[1] = 1, f[2] = S, g[0] = N, g[1] = 1, g[2] = 1, g[3] = S;
      if (pm && (pm->ndim != 2 || pm->sizes[0] != N || pm->sizes[1] != S)) {
        ct_fail(CT_ERR_SHAPE, op, "key_padding_mask must be (N, S) = (%lld, %lld)", (long long)N, (long long)S);
        pm = NULL;
      }
      pm = pm ? ct__nn_additive_mask(pm, (ct_dtype)q->dtype) : NULL;
      pm = pm ? ct_reshape(ct_expand(ct_view(pm, 4, g), 4, e), 3, f) : NULL;
      mask = pm && mask ? ct_add(mask, pm) : pm;
      ok = mask != NULL;
    }
    if (ok) {
      int64_t flat[2], lne[3], nhls[4], one[1];
      flat[0] = L * N, flat[1] = E, lne[0] = L, lne[1] = N, lne[2] = E;
      nhls[0] = N, nhls[1] = H, nhls[2] = L, nhls[3] = S, one[0] = 1;
      attn = mask ? ct_baddbmm(mask, q, ct_transpose(k, 1, 2)) : ct_bmm(q, ct_transpose(k, 1, 2));
      attn = ct_softmax(attn, -1, CT_DTYPE_NONE);
      if (attn && c->p > 0 && m->training) attn = ct_dropout(attn, c->p, true);
      o = ct_bmm(attn, v); /* (N * H, L, hd) */
      o = ct_view(ct_contiguous(ct_transpose(o, 0, 1)), 2, flat);
      o = ct_linear(o, ct_module_get(m, "out_proj.weight"), ct_module_get(m, "out_proj.bias"));
      o = ct_view(o, 3, lne);
      o = batched ? (c->batch_first ? ct_transpose(o, 0, 1) : o) : ct_squeeze_dim(o, 1);
      if (o && need_weights && weights) {
        ct_tensor *w = ct_view(attn, 4, nhls);
        if (average) w = ct_mean_dim(w, 1, one, false);
        if (w && !batched) w = ct_squeeze_dim(w, 0);
        wout = w ? ct_keep(w) : NULL;
        if (!w) o = NULL;
      }
      out = ct_keep(o);
    }
  }
  if (!out) ct_release(wout), wout = NULL;
  if (weights) *weights = wout;
  else ct_release(wout);
  return out;
}
static ct_tensor *ct__nn_mha_forward1(ct_module *m, ct_tensor *x) { return ct__nn_mha(m, x, x, x, NULL, NULL, false, true, NULL); }
CTDEF ct_module *ct_nn_multihead_attention(int64_t embed_dim, int64_t num_heads, double dropout, bool bias, bool batch_first) {
  static const char *op = "nn.MultiheadAttention";
  int64_t w[2], b[1];
  ct_module *m, *proj;
  ct_tensor *iw, *ib = NULL;
  ct_status st;
  if (embed_dim <= 0 || num_heads <= 0 || embed_dim % num_heads) {
    ct_fail(CT_ERR_INVALID, op, "embed_dim (%lld) must be positive and divisible by num_heads (%lld)", (long long)embed_dim,
            (long long)num_heads);
    return NULL;
  }
  if (!(dropout >= 0 && dropout <= 1)) {
    ct_fail(CT_ERR_INVALID, op, "dropout must be in [0, 1], got %g", dropout);
    return NULL;
  }
  m = ct__nn_new("MultiheadAttention", CT__NN_MHA, ct__nn_mha_forward1);
  if (!m) return NULL;
  m->cfg.in = embed_dim, m->cfg.heads = num_heads, m->cfg.p = dropout, m->cfg.bias = bias, m->cfg.batch_first = batch_first;
  w[0] = 3 * embed_dim, w[1] = embed_dim, b[0] = 3 * embed_dim;
  iw = ct__nn_param(m, "in_proj_weight", 2, w);
  if (iw && bias) ib = ct__nn_param(m, "in_proj_bias", 1, b);
  /* out_proj: a Linear (its own init), then the biases zeroed (_reset_parameters) */
  proj = iw && (ib || !bias) ? ct_module_add(m, "out_proj", ct_nn_linear(embed_dim, embed_dim, bias)) : NULL;
  if (proj) { /* PyTorch's class for it (same state dict as Linear) */
    char *kind = ct__nn_strdup("NonDynamicallyQuantizableLinear");
    if (kind) CT_FREE(proj->kind), proj->kind = kind;
  }
  st = proj ? ct_init_xavier_uniform_(iw, 1) : ct_last_error();
  if (st == CT_OK && bias) st = ct_init_zeros_(ib);
  if (st == CT_OK && bias) st = ct_init_zeros_(ct_module_get(proj, "bias"));
  return ct__nn_done(m, st);
}
CTDEF ct_tensor *ct_nn_multihead_attention_forward(ct_module *mha, ct_tensor *query, ct_tensor *key, ct_tensor *value,
                                                   ct_tensor *key_padding_mask, ct_tensor *attn_mask, bool need_weights,
                                                   bool average_weights, ct_tensor **weights) {
  if (weights) *weights = NULL;
  if (ct__nn_check_kind("nn.MultiheadAttention", mha, CT__NN_MHA, "MultiheadAttention") != CT_OK) return NULL;
  return ct__nn_mha(mha, query, key, value, key_padding_mask, attn_mask, need_weights, average_weights, weights);
}

CTDEF ct_transformer_opts ct_transformer_defaults(void) {
  ct_transformer_opts o;
  memset(&o, 0, sizeof o);
  o.dim_feedforward = 2048, o.dropout = 0.1, o.activation = "relu", o.layer_norm_eps = 1e-5;
  return o;
}

/* the encoder layer's two blocks, as PyTorch's _sa_block and _ff_block (NULL in gives NULL) */
static ct_tensor *ct__nn_sa_block(ct_module *m, ct_tensor *x, ct_tensor *src_mask, ct_tensor *kpm) {
  ct_tensor *a = x ? ct__nn_mha(ct_module_child(m, "self_attn"), x, x, x, kpm, src_mask, false, true, NULL) : NULL;
  return ct_module_forward(ct_module_child(m, "dropout1"), a);
}
static ct_tensor *ct__nn_ff_block(ct_module *m, ct_tensor *x) {
  ct_tensor *h = ct_module_forward(ct_module_child(m, "linear1"), x);
  h = m->cfg.ff_gelu ? ct_gelu(h) : ct_relu(h);
  h = ct_module_forward(ct_module_child(m, "linear2"), ct_module_forward(ct_module_child(m, "dropout"), h));
  return ct_module_forward(ct_module_child(m, "dropout2"), h);
}
static ct_tensor *ct__nn_encoder_layer(ct_module *m, ct_tensor *src, ct_tensor *src_mask, ct_tensor *kpm) {
  ct_tensor *r = NULL;
  ct_module *norm1 = ct_module_child(m, "norm1"), *norm2 = ct_module_child(m, "norm2");
  if (!src) {
    if (ct_last_error() == CT_OK) ct_fail(CT_ERR_NULL, "nn.TransformerEncoderLayer", "src is NULL");
    return NULL;
  }
  CT_SCOPE {
    ct_tensor *x = src;
    if (m->cfg.norm_first) {
      x = ct_add(x, ct__nn_sa_block(m, ct_module_forward(norm1, x), src_mask, kpm));
      x = x ? ct_add(x, ct__nn_ff_block(m, ct_module_forward(norm2, x))) : NULL;
    } else {
      x = ct_module_forward(norm1, ct_add(x, ct__nn_sa_block(m, x, src_mask, kpm)));
      x = x ? ct_module_forward(norm2, ct_add(x, ct__nn_ff_block(m, x))) : NULL;
    }
    r = ct_keep(x);
  }
  return r;
}
static ct_tensor *ct__nn_encoder_layer_forward1(ct_module *m, ct_tensor *x) { return ct__nn_encoder_layer(m, x, NULL, NULL); }
CTDEF ct_module *ct_nn_transformer_encoder_layer(int64_t d_model, int64_t nhead, const ct_transformer_opts *opts) {
  static const char *op = "nn.TransformerEncoderLayer";
  ct_transformer_opts o = opts ? *opts : ct_transformer_defaults();
  ct_module *m;
  bool ok;
  if (o.activation && strcmp(o.activation, "relu") && strcmp(o.activation, "gelu")) {
    ct_fail(CT_ERR_INVALID, op, "activation should be relu/gelu, not %s", o.activation);
    return NULL;
  }
  if (o.dim_feedforward < 0) {
    ct_fail(CT_ERR_SIZE, op, "dim_feedforward must be non-negative");
    return NULL;
  }
  m = ct__nn_new("TransformerEncoderLayer", CT__NN_ENCODER_LAYER, ct__nn_encoder_layer_forward1);
  if (!m) return NULL;
  m->cfg.ff_gelu = o.activation && !strcmp(o.activation, "gelu");
  m->cfg.norm_first = o.norm_first, m->cfg.batch_first = o.batch_first, m->cfg.in = d_model, m->cfg.heads = nhead;
  /* PyTorch's registration order: self_attn, linear1, dropout, linear2, norm1, norm2, dropout1, dropout2 */
  ok = ct_module_add(m, "self_attn", ct_nn_multihead_attention(d_model, nhead, o.dropout, true, o.batch_first)) &&
       ct_module_add(m, "linear1", ct_nn_linear(d_model, o.dim_feedforward, true)) &&
       ct_module_add(m, "dropout", ct_nn_dropout(o.dropout)) &&
       ct_module_add(m, "linear2", ct_nn_linear(o.dim_feedforward, d_model, true)) &&
       ct_module_add(m, "norm1", ct_nn_layer_norm(1, &d_model, o.layer_norm_eps, true)) &&
       ct_module_add(m, "norm2", ct_nn_layer_norm(1, &d_model, o.layer_norm_eps, true)) &&
       ct_module_add(m, "dropout1", ct_nn_dropout(o.dropout)) && ct_module_add(m, "dropout2", ct_nn_dropout(o.dropout));
  return ct__nn_done(m, ok ? CT_OK : ct_last_error());
}
CTDEF ct_tensor *ct_nn_transformer_encoder_layer_forward(ct_module *layer, ct_tensor *src, ct_tensor *src_mask,
                                                         ct_tensor *src_key_padding_mask) {
  if (ct__nn_check_kind("nn.TransformerEncoderLayer", layer, CT__NN_ENCODER_LAYER, "TransformerEncoderLayer") != CT_OK) return NULL;
  return ct__nn_encoder_layer(layer, src, src_mask, src_key_padding_mask);
}

CT_EXTERN_C_END
#endif /* CT__NN_IMPL */
