/* tests/test_nn.c - ctorch/nn.h: modules against PyTorch 1.13
 * (tests/gen_nn_fixtures.py -> tests/fixtures/nn_cases.h), state dicts,
 * initialisation, and errors.
 *
 * Each fixture case builds the module here, loads PyTorch's state dict into
 * it by name (strict: the names and shapes must be PyTorch's), runs the same
 * forward, and compares the outputs, the gradients of the inputs and of
 * every parameter, and buffers updated by the forward. */
#include "fixtures/nn_cases.h"

/* ---- fixture access ---- */
static const nn_fx_tensor *nn_fx_find(const nn_fx_case *c, const char *name) {
  int i;
  for (i = 0; i < c->n; i++)
    if (!strcmp(c->tensors[i].name, name)) return &c->tensors[i];
  return NULL;
}

static ct_tensor *nn_fx_make(const nn_fx_tensor *e) {
  ct_dtype dt = e->kind == 0 ? CT_F32 : e->kind == 1 ? CT_I64 : CT_BOOL;
  ct_tensor *t = ct_empty(e->ndim, e->sizes, dt);
  int64_t i;
  for (i = 0; t && i < t->numel; i++) ct_set(t, i, nn_fx_pool[e->offset + i]);
  return t;
}

static double nn_fx_max_diff(const nn_fx_tensor *e, ct_tensor *t, double *scale) {
  double worst = 0;
  int64_t i;
  *scale = 1e-30;
  for (i = 0; i < t->numel; i++) {
    double want = nn_fx_pool[e->offset + i], got = ct_get(t, i), d = fabs(want - got);
    if (isnan(want) && isnan(got)) continue;
    if (!(d <= worst)) worst = d;
    if (fabs(want) > *scale) *scale = fabs(want);
  }
  return worst;
}

/* compares t with the fixture entry `name` (shape and values, relative to the entry's largest magnitude) */
static void nn_fx_compare(const nn_fx_case *c, const char *name, ct_tensor *t, double tol) {
  const nn_fx_tensor *e = nn_fx_find(c, name);
  double scale, diff;
  if (!e) return;
  if (!t) {
    harness_fail(__FILE__, __LINE__, "%s: %s is NULL (%s)", c->name, name, ct_last_error_message());
    return;
  }
  t = ct_contiguous(ct_detach(t));
  if (!t || t->ndim != e->ndim || memcmp(t->sizes, e->sizes, (size_t)e->ndim * sizeof(int64_t))) {
    harness_fail(__FILE__, __LINE__, "%s: %s has the wrong shape", c->name, name);
    return;
  }
  diff = nn_fx_max_diff(e, t, &scale);
  if (!(diff <= tol * (scale > 1 ? scale : 1)))
    harness_fail(__FILE__, __LINE__, "%s: %s differs from PyTorch by %.3g (largest magnitude %.3g)", c->name, name, diff, scale);
}

/* ---- the C side of each case ---- */
typedef struct nn_run {
  const nn_fx_case *fx;
  ct_module *m;
  int nin, nout;
  const char *in_names[8], *out_names[8];
  ct_tensor *in[8], *out[8];
} nn_run;

static ct_tensor *nn_in(nn_run *r, const char *name) {
  int i;
  for (i = 0; i < r->nin; i++)
    if (!strcmp(r->in_names[i] + 3, name)) return r->in[i];
  return NULL;
}
static void nn_out(nn_run *r, const char *name, ct_tensor *t) {
  r->out_names[r->nout] = name;
  r->out[r->nout++] = t;
}

static ct_module *nn_build(const char *name) {
  ct_conv_opts co = ct_conv_defaults();
  ct_rnn_opts ro = ct_rnn_defaults();
  ct_transformer_opts to = ct_transformer_defaults();
  if (!strcmp(name, "linear")) return ct_nn_linear(5, 4, true);
  if (!strcmp(name, "linear_nobias")) return ct_nn_linear(3, 2, false);
  if (!strcmp(name, "conv1d")) {
    co.stride[0] = 2, co.padding[0] = 1, co.groups = 2;
    return ct_nn_conv1d(4, 6, 3, &co);
  }
  if (!strcmp(name, "conv2d")) {
    co.stride[1] = 2, co.padding[0] = 1, co.dilation[0] = 2;
    return ct_nn_conv2d(3, 4, 3, 2, &co);
  }
  if (!strcmp(name, "embedding")) return ct_nn_embedding(10, 4, 1);
  if (!strcmp(name, "layer_norm")) return ct_nn_layer_norm(CT_DIMS(3, 4), 1e-5, true);
  if (!strcmp(name, "rms_norm")) return ct_nn_rms_norm(CT_DIMS(4), NAN, true);
  if (!strcmp(name, "rms_norm_eps")) return ct_nn_rms_norm(CT_DIMS(2, 3), 1e-2, true);
  if (!strcmp(name, "batch_norm2d_train")) return ct_nn_batch_norm2d(3, 1e-5, 0.1, true, true);
  if (!strncmp(name, "batch_norm2d_", 13)) return ct_nn_batch_norm2d(3, 1e-5, NAN, true, true);
  if (!strcmp(name, "mlp"))
    return ct_nn_sequential(6, (ct_module *[]){ct_nn_linear(4, 8, true), ct_nn_gelu("tanh"), ct_nn_linear(8, 6, true), ct_nn_silu(),
                                               ct_nn_flatten(0, 1), ct_nn_tanh()});
  if (!strcmp(name, "dropout_eval")) return ct_nn_sequential(2, (ct_module *[]){ct_nn_dropout(0.5), ct_nn_sigmoid()});
  if (!strcmp(name, "gru_cell")) return ct_nn_gru_cell(3, 5, true);
  if (!strcmp(name, "lstm_cell")) return ct_nn_lstm_cell(3, 4, true);
  if (!strcmp(name, "gru_bidir_batch_first")) {
    ro.num_layers = 2, ro.bidirectional = true, ro.batch_first = true;
    return ct_nn_gru(3, 5, &ro);
  }
  if (!strcmp(name, "lstm_two_layers")) {
    ro.num_layers = 2;
    return ct_nn_lstm(3, 4, &ro);
  }
  if (!strcmp(name, "lstm_unbatched")) return ct_nn_lstm(3, 4, NULL);
  if (!strcmp(name, "mha_masks")) return ct_nn_multihead_attention(8, 2, 0, true, false);
  if (!strcmp(name, "mha_batch_first_bool_mask")) return ct_nn_multihead_attention(6, 3, 0, true, true);
  if (!strcmp(name, "encoder_layer")) {
    to.dim_feedforward = 16, to.dropout = 0;
    return ct_nn_transformer_encoder_layer(8, 2, &to);
  }
  if (!strcmp(name, "encoder_layer_norm_first_gelu")) {
    to.dim_feedforward = 12, to.dropout = 0, to.activation = "gelu", to.batch_first = true, to.norm_first = true;
    return ct_nn_transformer_encoder_layer(6, 3, &to);
  }
  return NULL;
}

static void nn_forward(nn_run *r) {
  const char *name = r->fx->name;
  ct_module *m = r->m;
  ct_tensor *a = NULL, *b = NULL;
  if (!strcmp(name, "gru_cell")) {
    nn_out(r, "h1", ct_nn_gru_cell_forward(m, nn_in(r, "x"), nn_in(r, "h")));
  } else if (!strcmp(name, "lstm_cell")) {
    nn_out(r, "h1", ct_nn_lstm_cell_forward(m, nn_in(r, "x"), nn_in(r, "h"), nn_in(r, "c"), &a));
    nn_out(r, "c1", a);
  } else if (!strcmp(name, "gru_bidir_batch_first")) {
    nn_out(r, "y", ct_nn_gru_forward(m, nn_in(r, "x"), nn_in(r, "h0"), &a));
    nn_out(r, "h_n", a);
  } else if (!strncmp(name, "lstm_", 5)) {
    nn_out(r, "y", ct_nn_lstm_forward(m, nn_in(r, "x"), nn_in(r, "h0"), nn_in(r, "c0"), &a, &b));
    nn_out(r, "h_n", a);
    nn_out(r, "c_n", b);
  } else if (!strcmp(name, "mha_masks")) {
    nn_out(r, "y", ct_nn_multihead_attention_forward(m, nn_in(r, "q"), nn_in(r, "k"), nn_in(r, "v"), nn_in(r, "key_padding_mask"),
                                                     nn_in(r, "attn_mask"), true, true, &a));
    nn_out(r, "w", a);
  } else if (!strcmp(name, "mha_batch_first_bool_mask")) {
    ct_tensor *x = nn_in(r, "x");
    nn_out(r, "y", ct_nn_multihead_attention_forward(m, x, x, x, NULL, nn_in(r, "attn_mask"), true, false, &a));
    nn_out(r, "w", a);
  } else if (!strcmp(name, "encoder_layer")) {
    nn_out(r, "y", ct_nn_transformer_encoder_layer_forward(m, nn_in(r, "x"), nn_in(r, "src_mask"), nn_in(r, "kpm")));
  } else {
    nn_out(r, "y", ct_module_forward(m, nn_in(r, "x")));
  }
}

static void nn_run_case(const nn_fx_case *fx, double *worst) {
  nn_run r;
  const char *state_names[64];
  ct_tensor *state[64];
  int nstate = 0, i;
  memset(&r, 0, sizeof r);
  r.fx = fx;
  r.m = nn_build(fx->name);
  if (!r.m) {
    harness_fail(__FILE__, __LINE__, "%s: no module (%s)", fx->name, ct_last_error_message());
    ct_clear_error();
    return;
  }
  CT_SCOPE {
    ct_tensor *loss = NULL;
    char key[96];
    for (i = 0; i < fx->n; i++) {
      const nn_fx_tensor *e = &fx->tensors[i];
      if (!strncmp(e->name, "state.", 6) && nstate < 64) {
        state_names[nstate] = e->name + 6;
        state[nstate++] = nn_fx_make(e);
      } else if (!strncmp(e->name, "in.", 3) && r.nin < 8) {
        r.in_names[r.nin] = e->name;
        r.in[r.nin] = nn_fx_make(e);
        snprintf(key, sizeof key, "grad.%s", e->name + 3);
        if (nn_fx_find(fx, key)) CHECK_OK(ct_set_requires_grad(r.in[r.nin], true));
        r.nin++;
      }
    }
    CHECK_OK(ct_module_load_state_dict(r.m, nstate, state_names, state, true));
    ct_module_train(r.m, strstr(fx->name, "eval") == NULL);
    nn_forward(&r);
    for (i = 0; i < r.nout; i++) {
      snprintf(key, sizeof key, "out.%s", r.out_names[i]);
      nn_fx_compare(fx, key, r.out[i], 2e-5);
      snprintf(key, sizeof key, "proj.%s", r.out_names[i]);
      if (r.out[i] && nn_fx_find(fx, key)) {
        ct_tensor *term = ct_sum(ct_mul(r.out[i], nn_fx_make(nn_fx_find(fx, key))));
        loss = loss ? ct_add(loss, term) : term;
      }
    }
    CHECK(loss != NULL);
    if (loss) CHECK_OK(ct_backward(loss));
    for (i = 0; i < fx->n; i++) {
      const nn_fx_tensor *e = &fx->tensors[i];
      if (!strncmp(e->name, "grad.", 5)) {
        ct_tensor *t = nn_in(&r, e->name + 5);
        if (!t) t = ct_module_get(r.m, e->name + 5);
        CHECK(t != NULL);
        if (t) {
          ct_tensor *g = ct_grad(t);
          double scale;
          if (!g) g = ct_zeros_like(t); /* PyTorch's zeros for parameters the loss does not reach */
          nn_fx_compare(fx, e->name, g, 1e-4);
          if (g && g->numel == t->numel) {
            double d = nn_fx_max_diff(e, ct_contiguous(g), &scale) / (scale > 1 ? scale : 1);
            if (d > *worst) *worst = d;
          }
        }
      } else if (!strncmp(e->name, "after.", 6)) {
        nn_fx_compare(fx, e->name, ct_module_get(r.m, e->name + 6), 1e-5);
      }
    }
  }
  ct_module_free(r.m); /* the inputs, outputs and state tensors belonged to the scope */
  if (ct_last_error() != CT_OK) {
    harness_fail(__FILE__, __LINE__, "%s: %s", fx->name, ct_last_error_message());
    ct_clear_error();
  }
}

TEST(nn_modules_match_pytorch) {
  size_t c;
  double worst = 0;
  for (c = 0; c < sizeof nn_fx_cases / sizeof nn_fx_cases[0]; c++) nn_run_case(&nn_fx_cases[c], &worst);
  if (getenv("CT_TEST_VERBOSE")) printf("    %d modules, largest relative gradient difference %.3g\n", (int)c, worst);
}

/* ---- the module type ---- */
static ct_tensor *nn_twice_forward(ct_module *m, ct_tensor *x) {
  return ct_mul(ct_module_forward(ct_module_child(m, "inner"), x), ct_module_get(m, "scale"));
}

TEST(nn_module_tree_names_and_state_dict) {
  ct_module *net = ct_module_new("Twice", nn_twice_forward, NULL, NULL);
  ct_tensor *scale = ct_full(CT_DIMS(1), ct_float(2), CT_F32), *steps = ct_zeros(CT_DIMS(1), CT_I64);
  ct_state_dict *sd;
  ct_tensor *const *params;
  int n = 0;
  CHECK_OK(ct_module_register_parameter(net, "scale", scale));
  CHECK_OK(ct_module_register_buffer(net, "steps", steps));
  CHECK(ct_module_add(net, "inner", ct_nn_sequential(2, (ct_module *[]){ct_nn_linear(3, 2, true), ct_nn_relu()})) != NULL);
  CHECK(ct_requires_grad(scale));
  params = ct_module_parameters(net, &n);
  CHECK(n == 3 && params[0] == scale && params[1] == ct_module_get(net, "inner.0.weight") && params[2] == ct_module_get(net, "inner.0.bias"));
  CHECK(ct_module_parameter_numel(net) == 1 + 6 + 2);
  CHECK(ct_module_child(net, "inner.1") && !strcmp(ct_module_kind(ct_module_child(net, "inner.1")), "ReLU"));
  CHECK(ct_module_child(net, "inner.2") == NULL && ct_module_get(net, "inner.0.nope") == NULL);
  sd = ct_module_state_dict(net);
  CHECK(sd && sd->n == 4);
  if (sd && sd->n == 4) {
    CHECK(!strcmp(sd->names[0], "scale") && !strcmp(sd->names[1], "steps") && !strcmp(sd->names[2], "inner.0.weight") &&
          !strcmp(sd->names[3], "inner.0.bias"));
    CHECK(sd->tensors[1] == steps);
  }
  /* the cached parameter array follows changes to the tree */
  CHECK(ct_module_add(ct_module_child(net, "inner"), "2", ct_nn_linear(2, 2, false)) != NULL);
  params = ct_module_parameters(net, &n);
  CHECK(n == 4 && params[3] == ct_module_get(net, "inner.2.weight"));
  CT_SCOPE {
    ct_tensor *y = ct_module_forward(net, ct_ones(CT_DIMS(4, 3), CT_F32));
    CHECK(y && y->ndim == 2 && y->sizes[0] == 4 && y->sizes[1] == 2);
    CHECK_OK(ct_backward(ct_sum(y)));
  }
  CHECK(ct_grad(scale) != NULL);
  CHECK_OK(ct_module_zero_grad(net));
  CHECK(ct_grad(scale) && ct_get(ct_grad(scale), 0) == 0);
  /* train / eval reach every descendant */
  ct_module_eval(net);
  CHECK(!ct_module_is_training(net) && !ct_module_is_training(ct_module_child(net, "inner.1")));
  ct_module_train(net, true);
  CHECK(ct_module_is_training(ct_module_child(net, "inner.0")));
  /* load: strict refuses a missing or unexpected key and leaves the module unchanged */
  if (sd) {
    const char *names[5];
    ct_tensor *vals[5];
    int i;
    double before = ct_get(scale, 0);
    for (i = 0; i < sd->n; i++) names[i] = sd->names[i], vals[i] = sd->tensors[i];
    CHECK_ERR(ct_module_load_state_dict(net, 3, names, vals, true), CT_ERR_INVALID, "missing key \"inner.0.bias\"");
    names[4] = "extra", vals[4] = scale;
    CHECK_ERR(ct_module_load_state_dict(net, 5, names, vals, true), CT_ERR_INVALID, "missing key \"inner.2.weight\"");
    CT_SCOPE {
      ct_tensor *three = ct_full(CT_DIMS(1), ct_float(3), CT_F32);
      vals[0] = three;
      CHECK_OK(ct_module_load_state_dict(net, 5, names, vals, false)); /* non-strict: extra and missing keys are fine */
      CHECK(ct_get(scale, 0) == 3);
      vals[0] = ct_ones(CT_DIMS(2), CT_F32);
      CHECK_ERR(ct_module_load_state_dict(net, 1, names, vals, false), CT_ERR_SHAPE, "size mismatch for scale");
      CHECK(ct_get(scale, 0) == 3);
    }
    (void)before;
  }
  ct_state_dict_free(sd);
  ct_release(scale);
  ct_release(steps);
  ct_module_free(net);
}

TEST(nn_module_errors) {
  ct_module *m = ct_nn_linear(2, 2, true);
  ct_tensor *t = ct_zeros(CT_DIMS(2), CT_I64);
  CHECK_ERR(ct_module_register_parameter(m, "weight", t), CT_ERR_INVALID, "already has an attribute \"weight\"");
  CHECK_ERR(ct_module_register_parameter(m, "count", t), CT_ERR_DTYPE, "only floating-point");
  CHECK_ERR(ct_module_register_buffer(m, "a.b", t), CT_ERR_INVALID, "contain no '.'");
  CHECK_ERR(ct_module_add(m, "child", NULL), CT_ERR_NULL, "is NULL");
  CHECK_ERR(ct_nn_linear(-1, 2, true), CT_ERR_SIZE, "non-negative");
  CHECK_ERR(ct_nn_conv2d(3, 4, 3, 3, &(ct_conv_opts){{1, 1}, {0, 0}, {1, 1}, 2, true}), CT_ERR_INVALID, "divisible by groups");
  CHECK_ERR(ct_nn_multihead_attention(10, 3, 0, true, false), CT_ERR_INVALID, "divisible by num_heads");
  CHECK_ERR(ct_nn_dropout(1.5), CT_ERR_INVALID, "between 0 and 1");
  CHECK_ERR(ct_nn_gelu("fast"), CT_ERR_INVALID, "approximate");
  CHECK_ERR(ct_nn_embedding(4, 2, 4), CT_ERR_INDEX, "padding_idx");
  /* a failing inner constructor makes the outer one fail, without leaks */
  CHECK_ERR(ct_nn_sequential(3, (ct_module *[]){ct_nn_linear(2, 2, true), ct_nn_linear(-2, 1, true), ct_nn_relu()}), CT_ERR_SIZE,
            "non-negative");
  CHECK_ERR(ct_nn_lstm_forward(m, t, NULL, NULL, NULL, NULL), CT_ERR_INVALID, "expected a LSTM module, got Linear");
  CT_SCOPE {
    ct_module *lstm = ct_nn_lstm(3, 4, NULL), *bn = ct_nn_batch_norm2d(3, 1e-5, 0.1, true, true);
    CHECK_ERR(ct_module_forward(lstm, ct_zeros(CT_DIMS(2, 5, 2), CT_F32)), CT_ERR_SHAPE, "Expected 3, got 2");
    CHECK_ERR(ct_nn_lstm_forward(lstm, ct_zeros(CT_DIMS(2, 5, 3), CT_F32), ct_zeros(CT_DIMS(1, 2, 4), CT_F32), NULL, NULL, NULL),
              CT_ERR_SHAPE, "Expected hidden size (1, 5, 4), got [1, 2, 4]");
    CHECK_ERR(ct_module_forward(lstm, ct_zeros(CT_DIMS(0, 2, 3), CT_F32)), CT_ERR_SHAPE, "Expected sequence length to be larger than 0 in RNN");
    { /* MultiheadAttention with no keys: an empty softmax, zeros out (PyTorch: the same, no NaN) */
      ct_module *mha = ct_nn_multihead_attention(4, 2, 0, true, false);
      ct_tensor *w = NULL, *e = ct_zeros(CT_DIMS(0, 2, 4), CT_F32);
      ct_tensor *o = ct_nn_multihead_attention_forward(mha, ct_randn(CT_DIMS(3, 2, 4)), e, e, NULL, NULL, true, true, &w);
      CHECK(o && o->ndim == 3 && o->sizes[0] == 3 && w && w->ndim == 3 && w->sizes[2] == 0);
      CHECK(o && !isnan(ct_get(o, 0)));
      ct_module_free(mha);
    }
    CHECK_ERR(ct_module_forward(bn, ct_zeros(CT_DIMS(2, 3), CT_F32)), CT_ERR_RANK, "expected 4D input");
    CHECK_ERR(ct_module_forward(m, ct_zeros(CT_DIMS(2, 3), CT_F32)), CT_ERR_SHAPE, "");
    ct_module_free(lstm);
    ct_module_free(bn);
  }
  CHECK_ERR(ct_module_to(m, CT_NO_DEVICE, CT_I32), CT_ERR_DTYPE, "floating point");
  ct_release(t);
  ct_module_free(m);
}

TEST(nn_module_to_dtype) {
  ct_module *bn = ct_nn_batch_norm2d(2, 1e-5, 0.1, true, true);
  CHECK_OK(ct_module_to(bn, CT_NO_DEVICE, CT_F64));
  CHECK(ct_module_get(bn, "weight")->dtype == CT_F64 && ct_requires_grad(ct_module_get(bn, "weight")));
  CHECK(ct_module_get(bn, "running_var")->dtype == CT_F64 && ct_get(ct_module_get(bn, "running_var"), 1) == 1);
  CHECK(ct_module_get(bn, "num_batches_tracked")->dtype == CT_I64);
  CT_SCOPE {
    ct_tensor *y = ct_module_forward(bn, ct_to_dtype(ct_randn(CT_DIMS(3, 2, 2, 2)), CT_F64));
    CHECK(y && y->dtype == CT_F64);
    CHECK(ct_get_int(ct_module_get(bn, "num_batches_tracked"), 0) == 1);
  }
  ct_module_free(bn);
}

TEST(nn_dropout_and_modes) {
  ct_module *d = ct_nn_dropout(0.25);
  CT_SCOPE {
    ct_tensor *x = ct_ones(CT_DIMS(4000), CT_F32), *y = ct_module_forward(d, x);
    int64_t i, zeros = 0;
    for (i = 0; y && i < y->numel; i++) {
      double v = ct_get(y, i);
      zeros += v == 0;
      CHECK(v == 0 || fabs(v - 1 / 0.75) < 1e-6);
    }
    CHECK(zeros > 800 && zeros < 1200); /* 1000 expected, sd 27 */
    ct_module_eval(d);
    y = ct_module_forward(d, x);
    CHECK(y && ct_get(ct_sum(y), 0) == 4000);
  }
  ct_module_free(d);
}

/* ---- torch.nn.init ---- */
static void nn_stats(ct_tensor *t, double *mean, double *sd, double *lo, double *hi) {
  int64_t i;
  double s = 0, s2 = 0;
  *lo = INFINITY, *hi = -INFINITY;
  for (i = 0; i < t->numel; i++) {
    double v = ct_get(t, i);
    s += v, s2 += v * v;
    if (v < *lo) *lo = v;
    if (v > *hi) *hi = v;
  }
  *mean = s / (double)t->numel;
  *sd = sqrt(s2 / (double)t->numel - *mean * *mean);
}

TEST(nn_init_matches_pytorch_formulas) {
  double mean, sd, lo, hi, bound;
  ct_tensor *w = ct_empty(CT_DIMS(200, 100, 3), CT_F32);
  int64_t fi = 0, fo = 0;
  ct_module *lin, *emb, *gru;
  CHECK_NEAR(ct_init_calculate_gain("tanh", NAN), 5.0 / 3, 1e-15);
  CHECK_NEAR(ct_init_calculate_gain("relu", NAN), sqrt(2.0), 1e-15);
  CHECK_NEAR(ct_init_calculate_gain("leaky_relu", NAN), sqrt(2 / (1 + 0.01 * 0.01)), 1e-15);
  CHECK_NEAR(ct_init_calculate_gain("leaky_relu", sqrt(5.0)), sqrt(1.0 / 3), 1e-15);
  CHECK_NEAR(ct_init_calculate_gain("selu", NAN), 0.75, 1e-15);
  CHECK(ct_init_calculate_gain("conv2d", NAN) == 1);
  CHECK_ERR(ct_init_calculate_gain("swish", NAN), CT_ERR_INVALID, "Unsupported nonlinearity swish");
  CHECK_OK(ct_init_fans(w, &fi, &fo));
  CHECK(fi == 300 && fo == 600);
  /* kaiming_uniform_ (fan_in, relu): U(-b, b), b = sqrt(2) sqrt(3 / fan_in) */
  CHECK_OK(ct_init_kaiming_uniform_(w, 0, CT_FAN_IN, "relu"));
  bound = sqrt(2.0) * sqrt(3.0 / 300);
  nn_stats(w, &mean, &sd, &lo, &hi);
  CHECK(lo >= -bound && hi <= bound && hi > 0.99 * bound && lo < -0.99 * bound);
  CHECK_NEAR(sd, bound / sqrt(3.0), 0.01 * bound);
  CHECK_OK(ct_init_kaiming_normal_(w, 0, CT_FAN_OUT, "tanh"));
  nn_stats(w, &mean, &sd, &lo, &hi);
  CHECK_NEAR(sd, 5.0 / 3 / sqrt(600.0), 0.01 * sd);
  CHECK_NEAR(mean, 0, 3 * sd / sqrt(60000.0) + 1e-4);
  CHECK_OK(ct_init_xavier_uniform_(w, 2));
  bound = 2 * sqrt(6.0 / 900);
  nn_stats(w, &mean, &sd, &lo, &hi);
  CHECK(lo >= -bound && hi <= bound && hi > 0.99 * bound);
  CHECK_OK(ct_init_xavier_normal_(w, 1));
  nn_stats(w, &mean, &sd, &lo, &hi);
  CHECK_NEAR(sd, sqrt(2.0 / 900), 0.01 * sd);
  CHECK_OK(ct_init_trunc_normal_(w, 1, 2, -1, 2));
  nn_stats(w, &mean, &sd, &lo, &hi);
  CHECK(lo >= -1 && hi <= 2);
  /* mean of N(1, 2) truncated to [-1, 2]: 1 + 2 (phi(-1) - phi(0.5)) / (Phi(0.5) - Phi(-1)) */
  CHECK_NEAR(mean, 1 + 2 * (0.24197072451914337 - 0.3520653267642995) / (0.6914624612740131 - 0.15865525393145707), 0.01);
  CHECK_ERR(ct_init_fans(ct_module_get(NULL, "x"), NULL, NULL), CT_ERR_NULL, "");
  ct_release(w);
  /* orthogonal_: rows orthonormal (wide) or columns orthonormal (tall), times gain */
  {
    int shapes[2][2] = {{3, 7}, {7, 3}}, s;
    for (s = 0; s < 2; s++) CT_SCOPE {
      int64_t r = shapes[s][0], c = shapes[s][1], i, j;
      ct_tensor *q = ct_empty(CT_DIMS(r, c), CT_F64), *g;
      CHECK_OK(ct_init_orthogonal_(q, 2));
      g = r < c ? ct_mm(q, ct_t(q)) : ct_mm(ct_t(q), q);
      for (i = 0; g && i < g->sizes[0]; i++)
        for (j = 0; j < g->sizes[1]; j++) CHECK_NEAR(ct_get(g, i * g->sizes[1] + j), i == j ? 4 : 0, 1e-12);
    }
  }
  /* modules as PyTorch initialises them */
  lin = ct_nn_linear(400, 300, true);
  nn_stats(ct_module_get(lin, "weight"), &mean, &sd, &lo, &hi);
  CHECK(lo >= -1 / sqrt(400.0) && hi <= 1 / sqrt(400.0) && hi > 0.99 / sqrt(400.0)); /* kaiming_uniform_(a = sqrt(5)) */
  nn_stats(ct_module_get(lin, "bias"), &mean, &sd, &lo, &hi);
  CHECK(lo >= -1 / sqrt(400.0) && hi <= 1 / sqrt(400.0) && hi > 0.9 / sqrt(400.0));
  emb = ct_nn_embedding(300, 100, -1);
  nn_stats(ct_module_get(emb, "weight"), &mean, &sd, &lo, &hi);
  CHECK_NEAR(sd, 1, 0.02);
  CHECK(ct_get(ct_module_get(emb, "weight"), 299 * 100) == 0 && ct_get(ct_module_get(emb, "weight"), 299 * 100 + 99) == 0);
  gru = ct_nn_gru(10, 50, NULL);
  nn_stats(ct_module_get(gru, "weight_hh_l0"), &mean, &sd, &lo, &hi);
  CHECK(lo >= -1 / sqrt(50.0) && hi <= 1 / sqrt(50.0) && hi > 0.99 / sqrt(50.0));
  ct_module_free(lin);
  ct_module_free(emb);
  ct_module_free(gru);
  {
    ct_module *mha = ct_nn_multihead_attention(64, 4, 0, true, false);
    nn_stats(ct_module_get(mha, "in_proj_weight"), &mean, &sd, &lo, &hi);
    CHECK(hi <= sqrt(6.0 / (64 + 192)) && hi > 0.99 * sqrt(6.0 / (64 + 192))); /* xavier_uniform_ of (3E, E) */
    nn_stats(ct_module_get(mha, "out_proj.bias"), &mean, &sd, &lo, &hi);
    CHECK(lo == 0 && hi == 0);
    ct_module_free(mha);
  }
}

TEST(nn_module_print_is_pytorch_repr) {
  ct_module *net = ct_nn_sequential(3, (ct_module *[]){ct_nn_linear(2, 4, true), ct_nn_relu(), ct_nn_layer_norm(CT_DIMS(4), 1e-5, true)});
  char buf[512] = {0};
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (f) {
    size_t n;
    ct_module_print(net, f);
    rewind(f);
    n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    CHECK(!strcmp(buf, "Sequential(\n  (0): Linear(in_features=2, out_features=4, bias=True)\n  (1): ReLU()\n"
                       "  (2): LayerNorm((4,), eps=1e-05, elementwise_affine=True)\n)\n"));
    if (strstr(buf, "LayerNorm((4,)") == NULL) printf("%s", buf);
  }
  ct_module_free(net);
}
