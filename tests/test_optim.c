/* tests/test_optim.c - optimizers, gradient clipping and schedules against
 * PyTorch 1.13 (tests/gen_optim_fixtures.py -> tests/fixtures/optim_cases.h):
 * the same MLP and data, 20 steps of each configuration, the parameters
 * compared with PyTorch's after the last step. */
#include "fixtures/optim_cases.h"

/* mean((tanh(x w1^T + b1) w2^T + b2 - y)^2): a new tensor, tracked */
static ct_tensor *optim_loss(ct_tensor *const *p, ct_tensor *x, ct_tensor *y) {
  ct_tensor *h = ct_tanh(ct_add(ct_mm(x, ct_t(p[0])), p[1]));
  return ct_mean(ct_square(ct_sub(ct_add(ct_mm(h, ct_t(p[2])), p[3]), y)));
}

static ct_optim_opts optim_opts_of(const optim_case *c) {
  ct_optim_opts o;
  memset(&o, 0, sizeof o);
  o.lr = c->lr, o.weight_decay = c->weight_decay, o.momentum = c->momentum, o.dampening = c->dampening;
  o.nesterov = c->nesterov != 0, o.beta1 = c->beta1, o.beta2 = c->beta2, o.eps = c->eps, o.amsgrad = c->amsgrad != 0;
  o.alpha = c->alpha, o.centered = c->centered != 0, o.maximize = c->maximize != 0;
  return o;
}

TEST(optim_trajectories_match_pytorch) {
  static const int64_t shapes[4][2] = {{4, 3}, {4, 0}, {2, 4}, {2, 0}};
  size_t c;
  double worst = 0;
  for (c = 0; c < sizeof optim_cases / sizeof optim_cases[0]; c++) {
    const optim_case *oc = &optim_cases[c];
    ct_tensor *p[4], *x = ct_from_array(CT_DIMS(8, 3), CT_F32, optim_x), *y = ct_from_array(CT_DIMS(8, 2), CT_F32, optim_y);
    ct_optim_opts o = optim_opts_of(oc);
    ct_optim *opt;
    int i, k, at = 0, step;
    double loss = 0;
    for (i = 0; i < 4; i++) {
      int nd = shapes[i][1] ? 2 : 1;
      p[i] = ct_from_array(nd, shapes[i], CT_F32, optim_init + at);
      at += (int)p[i]->numel;
      CHECK_OK(ct_set_requires_grad(p[i], true));
    }
    if (oc->group2_lr < 0) {
      opt = ct_optim_new(oc->kind, 4, p, &o);
    } else {
      ct_optim_opts o2 = o;
      o2.lr = oc->group2_lr, o2.weight_decay = oc->group2_wd;
      opt = ct_optim_new(oc->kind, 2, p, &o);
      CHECK(ct_optim_add_group(opt, 2, p + 2, &o2) == 1 && ct_optim_num_groups(opt) == 2);
    }
    CHECK(opt != NULL);
    for (step = 0; opt && step < OPTIM_STEPS; step++) CT_SCOPE {
      ct_tensor *l;
      CHECK_OK(ct_optim_zero_grad(opt));
      l = optim_loss(p, x, y);
      CHECK(l != NULL);
      if (!l) break;
      loss = ct_get(l, 0);
      CHECK_OK(ct_backward(l));
      if (oc->clip_norm > 0) CHECK_OK(ct_clip_grad_norm_(4, p, oc->clip_norm, 2, NULL));
      if (oc->clip_value > 0) CHECK_OK(ct_clip_grad_value_(4, p, oc->clip_value));
      CHECK_OK(ct_optim_step(opt));
    }
    for (i = 0, at = 0; i < 4; i++)
      for (k = 0; k < p[i]->numel; k++, at++) {
        double got = ct_get(p[i], k), want = oc->final[at], err = fabs(got - want) / (1e-3 + fabs(want));
        if (err > worst) worst = err;
        if (err > 2e-4) {
          harness_fail(__FILE__, __LINE__, "%s: parameter %d after %d steps: %.9g, PyTorch %.9g", oc->name, at, OPTIM_STEPS, got, want);
          i = 4;
          break;
        }
      }
    CHECK(fabs(loss - oc->last_loss) <= 1e-4 * (1e-3 + fabs(oc->last_loss)));
    ct_optim_free(opt);
    for (i = 0; i < 4; i++) ct_release(p[i]);
    ct_release(x), ct_release(y);
  }
  printf("    %d configurations x %d steps: largest relative difference from PyTorch %.2g\n",
         (int)(sizeof optim_cases / sizeof optim_cases[0]), OPTIM_STEPS, worst);
}

TEST(optim_schedules_match_pytorch) {
  int e;
  for (e = 0; e < 12; e++) {
    CHECK(fabs(ct_lr_step(0.1, e, 3, 0.5) - optim_lr_step[e]) < 1e-12);
    CHECK(fabs(ct_lr_cosine(0.1, e, 10, 0.001) - optim_lr_cosine[e]) < 1e-12);
    CHECK(fabs(ct_lr_linear(0.1, e, 0.25, 1.0, 4) - optim_lr_linear[e]) < 1e-12);
  }
}

/* Bad options and arguments are errors, never crashes; the lr of a group can be set. */
TEST(optim_refuses_bad_input) {
  ct_tensor *w = ct_zeros(CT_DIMS(3), CT_F32), *iw = ct_zeros(CT_DIMS(3), CT_I64), *ps[2];
  ct_optim_opts o = ct_sgd_defaults(-1);
  ct_optim *opt;
  CHECK_ERR(ct_optim_new(CT_OPTIM_SGD, 1, &w, &o), CT_ERR_INVALID, "Invalid learning rate");
  o = ct_sgd_defaults(0.1), o.nesterov = true;
  CHECK_ERR(ct_optim_new(CT_OPTIM_SGD, 1, &w, &o), CT_ERR_INVALID, "Nesterov momentum requires");
  o = ct_adam_defaults(0.1), o.beta2 = 1;
  CHECK_ERR(ct_optim_new(CT_OPTIM_ADAM, 1, &w, &o), CT_ERR_INVALID, "Invalid beta parameter at index 1");
  o = ct_adam_defaults(0.1);
  CHECK_ERR(ct_optim_new(CT_OPTIM_ADAM, 1, &iw, &o), CT_ERR_DTYPE, "floating");
  CHECK_ERR(ct_optim_new(CT_OPTIM_ADAM, 1, NULL, &o), CT_ERR_INVALID, "parameters");
  CHECK_ERR(ct_optim_new(CT_OPTIM_ADAM, 1, &w, NULL), CT_ERR_NULL, "opts");
  CHECK_ERR(ct_optim_new((ct_optim_kind)9, 1, &w, &o), CT_ERR_INVALID, "unknown optimizer");
  ps[0] = w, ps[1] = w;
  CHECK_ERR(ct_optim_new(CT_OPTIM_ADAM, 2, ps, &o), CT_ERR_INVALID, "appears twice");
  opt = ct_optim_new(CT_OPTIM_ADAM, 1, &w, &o);
  CHECK(opt != NULL);
  CHECK_ERR(ct_optim_add_group(opt, 1, &w, &o), CT_ERR_INVALID, "more than one parameter group");
  CHECK_OK(ct_optim_step(opt)); /* no grad yet: nothing to do */
  CHECK_OK(ct_optim_set_lr(opt, 0, 0.5));
  CHECK(ct_optim_lr(opt, 0) == 0.5 && isnan(ct_optim_lr(opt, 3)));
  CHECK_ERR(ct_optim_set_lr(opt, 1, 0.5), CT_ERR_INDEX, "group 1 of 1");
  CHECK_ERR(ct_optim_set_lr(opt, 0, NAN), CT_ERR_INVALID, "Invalid learning rate");
  CHECK_ERR(ct_optim_step(NULL), CT_ERR_NULL, "optimizer");
  CHECK_ERR(ct_clip_grad_norm_(1, &w, 1, -2, NULL), CT_ERR_INVALID, "norm_type");
  ct_optim_free(opt);
  ct_optim_free(NULL);
  ct_release(w), ct_release(iw);
  ct_clear_error();
}

/* zero_grad drops the gradients (PyTorch 2's set_to_none): the next backward
 * stores fresh ones, and a parameter it does not reach keeps none, so SGD
 * with momentum leaves it alone; zero_grad_ex(false) zeroes in place. */
TEST(optim_zero_grad_set_to_none) {
  CT_SCOPE {
    ct_tensor *w = ct_ones(CT_DIMS(3), CT_F32), *u = ct_ones(CT_DIMS(3), CT_F32), *ps[2], *g;
    ct_optim_opts o = ct_sgd_defaults(0.5);
    ct_optim *opt;
    o.momentum = 0.9;
    CHECK_OK(ct_set_requires_grad(w, true));
    CHECK_OK(ct_set_requires_grad(u, true));
    ps[0] = w, ps[1] = u;
    opt = ct_optim_new(CT_OPTIM_SGD, 2, ps, &o);
    CHECK(opt != NULL);
    CHECK_OK(ct_backward(ct_sum(ct_add(w, u))));
    CHECK_OK(ct_optim_step(opt));
    CHECK(ct_get(w, 0) == 0.5 && ct_get(u, 0) == 0.5);
    CHECK_OK(ct_optim_zero_grad(opt));
    CHECK(ct_grad(w) == NULL && ct_grad(u) == NULL);
    CHECK_OK(ct_backward(ct_sum(ct_mul_scalar(w, ct_int(2))))); /* u gets no gradient */
    CHECK(ct_grad(w) && ct_get(ct_grad(w), 0) == 2 && ct_grad(u) == NULL);
    CHECK_OK(ct_optim_step(opt)); /* u skipped: its momentum does not move it */
    CHECK(ct_get(u, 0) == 0.5 && fabs(ct_get(w, 0) - (0.5 - 0.5 * (0.9 * 1 + 2))) < 1e-6);
    g = ct_grad(w);
    CHECK_OK(ct_optim_zero_grad_ex(opt, false));
    CHECK(ct_grad(w) == g && ct_get(g, 0) == 0 && ct_grad(u) == NULL);
    CHECK_ERR(ct_optim_zero_grad_ex(NULL, true), CT_ERR_NULL, "optimizer");
    ct_optim_free(opt);
  }
}
