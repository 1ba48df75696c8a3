/* bench/size_train.c - the binary-size probe with training (bench/size.sh):
 * the MLP of size_infer.c trained for a few steps with cross-entropy,
 * backward and SGD. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include <stdio.h>

static float param(int i) { return (float)((i * 37 % 101) - 50) / 100.0f; }

int main(void) {
  static const int64_t shapes[3][2] = {{16, 2}, {16, 16}, {3, 16}};
  ct_tensor *params[6], *x, *y;
  ct_optim *opt;
  ct_optim_opts sgd = ct_sgd_defaults(0.1);
  double loss = 0;
  int l, i, p = 0, step;
  for (l = 0; l < 3; l++) {
    float wd[256], bd[16];
    for (i = 0; i < shapes[l][0] * shapes[l][1]; i++) wd[i] = param(p++);
    for (i = 0; i < shapes[l][0]; i++) bd[i] = param(p++);
    params[2 * l] = ct_from_array(2, shapes[l], CT_F32, wd);
    params[2 * l + 1] = ct_from_array(1, shapes[l], CT_F32, bd);
  }
  for (i = 0; i < 6; i++) ct_set_requires_grad(params[i], true);
  opt = ct_optim_new(CT_OPTIM_SGD, 6, params, &sgd);
  x = ct_randn(CT_DIMS(8, 2));
  y = ct_randint(0, 3, CT_DIMS(8));
  for (step = 0; step < 5; step++) {
    CT_SCOPE {
      ct_tensor *h = ct_relu(ct_linear(x, params[0], params[1]));
      ct_tensor *out = ct_linear(ct_relu(ct_linear(h, params[2], params[3])), params[4], params[5]);
      ct_tensor *l2 = ct_cross_entropy(out, y, NULL, 1, -100, 0.0);
      loss = ct_get(l2, 0);
      if (ct_optim_zero_grad(opt) != CT_OK || ct_backward(l2) != CT_OK || ct_optim_step(opt) != CT_OK) loss = -1;
    }
  }
  printf("loss %g\n", loss);
  ct_optim_free(opt);
  for (i = 0; i < 6; i++) ct_release(params[i]);
  ct_release(x), ct_release(y);
  return loss < 0;
}
