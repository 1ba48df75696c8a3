/* examples/linked.c - a program linked against the prebuilt library (make
 * install), so it does not define CTORCH_IMPLEMENTATION:
 *   cc linked.c $(pkg-config --cflags --libs ctorch)
 *   cc linked.c $(pkg-config --cflags --libs ctorch-blis)   (with the BLIS backend)
 * or with CMake: examples/cmake/CMakeLists.txt (find_package(ctorch)).
 * It checks that the header and the library are the same version, prints
 * the backend summary, and differentiates a small expression. */
#include "ctorch.h"
#include <stdio.h>
#include <string.h>

int main(void) {
  static const float xs[] = {1, 2, 3, 4, 5, 6};
  char summary[256];
  int ok;
  if (strcmp(ct_version(), CT_VERSION_STRING) != 0) {
    fprintf(stderr, "header %s, library %s: rebuild against the installed headers\n", CT_VERSION_STRING, ct_version());
    return 1;
  }
  printf("%s\n", ct_backends_summary(summary, sizeof summary));
  CT_SCOPE {
    ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F32, xs), *w = ct_ones(CT_DIMS(3, 2), CT_F32), *loss;
    ok = ct_set_requires_grad(x, true) == CT_OK;
    loss = ct_sum(ct_relu(ct_mm(x, w))); /* each row's sum, twice */
    ok = ok && ct_backward(loss) == CT_OK && ct_get(loss, 0) == 42 && ct_get(ct_grad(x), 0) == 2;
    printf("loss %g, d loss / d x[0][0] = %g\n", ct_get(loss, 0), ct_get(ct_grad(x), 0));
  }
  return ok ? 0 : 1;
}
