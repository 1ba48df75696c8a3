/* bench/size_infer.c - the binary-size probe (bench/size.sh): a tiny MLP
 * (2 -> 16 -> 16 -> 3, nn.Linear's [out][in] weights) classifying one point
 * per call, the inference a game or robot runs every frame. Built static,
 * -Os, sections collected and stripped; its size less an empty static
 * program's is what ctorch costs. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include <stdio.h>

static float param(int i) { return (float)((i * 37 % 101) - 50) / 100.0f; }

int main(int argc, char **argv) {
  static const int64_t shapes[3][2] = {{16, 2}, {16, 16}, {3, 16}};
  ct_tensor *w[3], *b[3], *x;
  int64_t cls = -1;
  int l, i, p = 0;
  (void)argv;
  for (l = 0; l < 3; l++) {
    float wd[256], bd[16];
    for (i = 0; i < shapes[l][0] * shapes[l][1]; i++) wd[i] = param(p++);
    for (i = 0; i < shapes[l][0]; i++) bd[i] = param(p++);
    w[l] = ct_from_array(2, shapes[l], CT_F32, wd);
    b[l] = ct_from_array(1, shapes[l], CT_F32, bd);
  }
  x = ct_zeros(CT_DIMS(1, 2), CT_F32);
  ((float *)ct_data_ptr(x))[0] = 0.5f, ((float *)ct_data_ptr(x))[1] = (float)argc;
  CT_INFERENCE_MODE CT_SCOPE {
    ct_tensor *h = ct_relu(ct_linear(x, w[0], b[0]));
    h = ct_relu(ct_linear(h, w[1], b[1]));
    cls = ct_get_int(ct_argmax(ct_linear(h, w[2], b[2]), 1, false), 0);
  }
  printf("class %lld\n", (long long)cls);
  for (l = 0; l < 3; l++) ct_release(w[l]), ct_release(b[l]);
  ct_release(x);
  return cls < 0;
}
