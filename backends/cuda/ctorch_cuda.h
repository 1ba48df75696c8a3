/* backends/cuda/ctorch_cuda.h - the CUDA backend's public entry points.
 *
 * The backend (backends/cuda: build/libctorch_cuda.a / .so, `make cuda`)
 * registers the CUDA device type with ctorch's device layer when it is
 * loaded: devices, streams, events, copies, a caching device allocator and
 * pinned host memory, the pointwise loop (every op of the pointwise engine
 * runs natively), the reduction loop (reductions and cumsum / cumprod run
 * natively), cuBLAS GEMMs; every other op runs through the CPU fallback. On a machine without a GPU (or driver) it loads, reports zero
 * devices, and CUDA tensors are a clear CT_ERR_DEVICE error.
 *
 * Static link: -Wl,-u,ct_cuda_anchor (what `make cuda-flags` prints), or
 * call ct_cuda_register() yourself.
 */
#ifndef CTORCH_CUDA_H
#define CTORCH_CUDA_H
#include "ctorch.h"

CT_EXTERN_C_BEGIN

/* Registers the backend (idempotent; also what the load-time constructor
 * does). CT_OK also when there is no GPU: then ct_device_count(CUDA) is 0. */
CTDEF int ct_cuda_register(void);
extern int ct_cuda_anchor;
/* Devices usable now (0 without a GPU or driver). */
CTDEF int ct_cuda_device_count(void);
/* The CUDA runtime's and driver's versions (e.g. 13000), 0 when unknown. */
CTDEF int ct_cuda_runtime_version(void);
CTDEF int ct_cuda_driver_version(void);
/* TF32 tensor-core math for f32 GEMMs: off by default (PyTorch's
 * torch.backends.cuda.matmul.allow_tf32 = False). */
CTDEF void ct_cuda_set_allow_tf32(bool allow);
CTDEF bool ct_cuda_allow_tf32(void);
/* Ops served natively and staged on the host since load (pointwise_staged:
 * pointwise calls whose dtype or function has no CUDA kernel;
 * reduction_staged: reduction-engine calls without a CUDA kernel - sort,
 * topk, kthvalue, median, cummax / cummin, logcumsumexp, derivative helpers;
 * index_native: index-loop kernels - gather, scatter, index_select, ...;
 * random_native: random-loop kernels - uniform_, normal_, bernoulli, dropout, ...). */
typedef struct ct_cuda_counters {
  int64_t pointwise_native, pointwise_staged, reduction_staged, gemm_native, gemm_fallback;
  int64_t reduction_native, index_native, random_native;
} ct_cuda_counters;
CTDEF void ct_cuda_counters_get(ct_cuda_counters *out);
/* Launches one empty kernel on the current device's current stream (the
 * floor that bench/cuda.c compares a tiny op's host time with). */
CTDEF ct_status ct_cuda_launch_empty(void);

CT_EXTERN_C_END
#endif
