/* examples/single_file.c - ctorch from one file: dist/ctorch.h and this program.
 *
 *   make amalgamate && cc -std=c11 -Idist examples/single_file.c -lm && ./a.out
 *
 * A Linear layer learns y = 3 x0 - 2 x1 + 0.5 with SGD and momentum;
 * everything (tensors, autograd, nn, optim) comes from the one header.
 * (exit status 0 when the learned weights are within 1e-3 of the truth) */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <math.h>
#include <stdio.h>

int main(void) {
  ct_module *fit = ct_nn_linear(2, 1, true);
  ct_optim_opts o = ct_sgd_defaults(0.1);
  ct_tensor *x, *y, *const *params;
  ct_optim *opt;
  int n, step;
  double w0, w1, b;
  ct_manual_seed_all(1);
  o.momentum = 0.9;
  params = ct_module_parameters(fit, &n);
  opt = params ? ct_optim_new(CT_OPTIM_SGD, n, params, &o) : NULL;
  x = ct_randn(CT_DIMS(64, 2));
  y = NULL;
  CT_SCOPE { y = ct_keep(ct_add_scalar(ct_sub(ct_mul_scalar(ct_select(x, 1, 0), ct_float(3)), ct_mul_scalar(ct_select(x, 1, 1), ct_float(2))), ct_float(0.5))); }
  if (!opt || !x || !y) return fprintf(stderr, "single_file: %s\n", ct_last_error_message()), 1;
  for (step = 0; step < 200 && ct_last_error() == CT_OK; step++) CT_SCOPE {
    ct_optim_zero_grad(opt);
    if (ct_backward(ct_mse_loss(ct_squeeze_dim(ct_module_forward(fit, x), 1), y, 1)) == CT_OK) ct_optim_step(opt);
  }
  w0 = ct_get(ct_module_get(fit, "weight"), 0), w1 = ct_get(ct_module_get(fit, "weight"), 1), b = ct_get(ct_module_get(fit, "bias"), 0);
  printf("ctorch %s, one header: learned y = %.4f x0 %+.4f x1 %+.4f (truth 3, -2, 0.5)\n", ct_version(), w0, w1, b);
  ct_optim_free(opt);
  ct_module_free(fit);
  ct_release(x), ct_release(y);
  return fabs(w0 - 3) < 1e-3 && fabs(w1 + 2) < 1e-3 && fabs(b - 0.5) < 1e-3 ? 0 : 1;
}
