/* tools/cuda_coverage.c - which ops run natively on CUDA (make cuda-coverage).
 * Linked with the CUDA backend; needs no GPU (registration is all it reads).
 * Each op is one of:
 *   native     a CUDA kernel: the pointwise, reduction, index or random engine's loop, or the backend's own (cuBLAS)
 *   device     a kernel every backend shares (views, empty, copy_): no data computed on the host
 *   composite  views (computed without touching data) and decompositions: each part runs as listed here
 *   staged     reduction-engine ops the CUDA loop has no kernel for (sort, topk, medians, cummax, ...):
 *              meta step and allocation on the device, the loop staged on the host (ct_reduction_on_host)
 *   fallback   the CPU fallback: operands copied to the host and back
 * `cuda_coverage -v` lists every op with its class. */
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"
#include "ctorch_cuda.h"
#include <stdio.h>
#include <string.h>

/* the reduction-engine ops whose computation backends/cuda/cuda_device.c stages on the host */
static int staged_reduction(const char *name) {
  static const char *const staged[] = {"sort", "topk", "kthvalue", "median", "nanmedian", "cummax", "cummin",
                                       "logcumsumexp", "value_selecting_reduction_backward", "_rd_gather"};
  size_t i, n;
  for (i = 0; i < sizeof staged / sizeof staged[0]; i++) {
    n = strlen(staged[i]);
    if (!strncmp(name, staged[i], n) && (name[n] == 0 || name[n] == '.')) return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int verbose = argc > 1 && !strcmp(argv[1], "-v");
  int64_t i, n = ct_op_count(), count[5] = {0, 0, 0, 0, 0};
  static const char *names[5] = {"native", "device", "composite", "fallback", "staged"};
  if (ct_cuda_register() != CT_OK) {
    fprintf(stderr, "cuda backend did not register: %s\n", ct_last_error_message());
    return 1;
  }
  for (i = 0; i < n; i++) {
    const ct_op *op = ct_op_at(i);
    ct_kernel k = ct_op_registered(op, CT_KEY_CUDA);
    int c;
    if (k.unboxed || k.boxed)
      c = k.source && (!strcmp(k.source, "cuda") || !strcmp(k.source, "pointwise engine") || !strcmp(k.source, "index engine") ||
                      !strcmp(k.source, "random engine")) ? 0
          : k.source && !strcmp(k.source, "reduction engine")                              ? (staged_reduction(op->full_name) ? 4 : 0)
                                                                                            : 1;
    else if (ct_op_registered(op, CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD).unboxed ||
             ct_op_registered(op, CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD).unboxed)
      c = 2;
    else
      c = 3;
    count[c]++;
    if (verbose) printf("%-10s %s%s%s\n", names[c], op->full_name, k.source ? "  " : "", k.source ? k.source : "");
  }
  printf("CUDA coverage of %lld ops: %lld native (pointwise, reduction, index and random engines, cuBLAS), %lld device-generic (views, empty, "
         "copy), %lld views and composites, %lld reduction-engine ops staged on the host, %lld through the CPU fallback\n",
         (long long)n, (long long)count[0], (long long)count[1], (long long)count[2], (long long)count[4], (long long)count[3]);
  printf("(native unary ops whose function has no CUDA form - round with decimals, nan_to_num, logit, erfinv, digamma,\n"
         " polygamma, i0, special_i1 - and the binary math functions (hypot, xlogy, ...) compute on the host through\n"
         " ct_pointwise_on_host)\n");
  return 0;
}
