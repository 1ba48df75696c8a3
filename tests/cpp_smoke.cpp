// tests/cpp_smoke.cpp - the header, implementation included, compiled as C++.
// Built by tests/run_all.sh with g++ and clang++ (-Wall -Wextra -Wpedantic -Werror).
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <cstdio>

int main() {
  const int64_t sizes[2] = {2, 3};
  ct_tensor *a = ct_ones(2, sizes, CT_F32);
  ct_tensor *b = nullptr;
  CT_SCOPE {
    ct_tensor *t = ct_mul_scalar(ct_add(a, a), ct_float(1.5));
    b = ct_keep(ct_sum(t));
  }
  double v = 0;
  int ok = b && ct_item(b, &v) == CT_OK && v == 18.0;
  std::printf("%s C++ smoke: sum = %g\n", ok ? "ok  " : "FAIL", v);
  ct_release(a);
  ct_release(b);
  return ok ? 0 : 1;
}
