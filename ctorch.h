/* ctorch.h - v0.1.0 - PyTorch's eager core in C: tensors, dispatch, autograd.
 * MIT licence (see LICENSE at the end of this file's documentation).
 *
 * DO THIS in exactly one C or C++ file:
 *     #define CTORCH_IMPLEMENTATION
 *     #include "ctorch.h"
 * Everywhere else just #include "ctorch.h". Nothing else is needed: the
 * header has portable reference kernels for every operator. Compiled
 * backends (backends/: BLIS on the CPU, CUDA) register faster kernels at
 * startup when linked.
 *
 * CONFIGURATION (define before the include that has CTORCH_IMPLEMENTATION):
 *     CT_STATIC            every function static (private embedding)
 *     CT_MAX_DIMS          maximum rank (default 8)
 *     CT_MALLOC, CT_REALLOC, CT_FREE   system allocator (all three or none)
 *     CT_CPU_CACHE_LIMIT   bytes of freed CPU blocks each thread keeps (64 MiB)
 *     CT_NO_THREADS        no TLS, atomics or locks (single-threaded programs)
 *     CT_NO_AUTOGRAD       inference only: no op gets an autograd kernel (the autograd
 *                          keys fall through) and ct_set_requires_grad(t, true) fails,
 *                          so a -Wl,--gc-sections build links no derivative formula,
 *                          graph node or engine (README "Binary size")
 *
 * WHAT IT IS
 *   Tensors are views (sizes, strides, offset, dtype) over refcounted
 *   storage. Every operator is dispatched: the call's key set is the union
 *   of its tensors' keys, plus this thread's included keys and the global
 *   keys, minus this thread's excluded keys, masked by the keys the operator
 *   does not fall through; the highest key picks the kernel. Functionality
 *   (autograd, tracing, profiling) sits above backends (CPU, CUDA, Meta) and
 *   redispatches below itself. See ctorch/keys.h for the bit layout and
 *   ctorch/dispatch.h for def / impl / fallback / fallthrough and the boxed
 *   calling convention.
 *
 * COMPONENTS (each is ctorch/NAME.h; this file includes them in order)
 *   base      configuration, errors, atomics, the caching CPU allocator
 *   parallel  the thread knob (ct_set_num_threads), ct_parallel_for
 *   dtype     dtypes, half/bfloat16, scalars, type promotion
 *   keys      dispatch keys, key sets, thread-local key state
 *   schema    operator schemas and their parser (also used by gen/ctgen.c)
 *   device    device interface registry: devices, streams, events, copies,
 *             device allocators (CPU and Meta built in; docs/device.md)
 *   tensor    storage, tensors, element access, ct_keep
 *   dispatch  operator registry, kernels, boxed values and stacks, the
 *             generated frontends' hot path
 *   backend   compiled backends: ct_register_backend (version, priority)
 *   guard     CT_NO_GRAD, CT_INFERENCE_MODE, CT_INCLUDE_KEYS, CT_EXCLUDE_KEYS,
 *             CT_DEVICE_GUARD, CT_SCOPE (temporaries)
 *   iter      the strided iteration helper used by every elementwise loop
 *   autograd  tape autograd: nodes, saved tensors, backward, grad
 *   ops       kernel plumbing, copy_ and fill_, the views' geometry and
 *             kernels, derivative helpers
 *   ops/structured structured kernels: an op family's meta step (checks,
 *             output sizes, dtype, device) written once, an impl step per
 *             backend, glue generated per variant (functional, in-place, out=)
 *   ops/pointwise the pointwise engine: every elementwise op's meta step
 *             (checks, promotion, broadcasting, output layout) and impl
 *             step, through a loop per device type (ct_set_pointwise_loop)
 *   ops/factory ops/unary ops/binary ops/reduce ops/linalg ops/matrix ops/shape ops/nn
 *   ops/conv ops/random
 *             the operator library's reference kernels, one area each
 *             (declared in gen/ops/AREA.spec, derivatives in
 *             gen/derivatives/AREA.spec); ops/random also holds the Philox
 *             generators
 *   generated/functions, generated/autograd_functions, generated/registration
 *             frontends, autograd kernels and registration tables, generated
 *             from gen/ops.spec and gen/derivatives.spec (make gen; docs/ops.md)
 *   init      registers the built-ins on first use
 *   custom    CT_DEFINE_OP: users' own operators
 *   check     ct_gradcheck, ct_gradgradcheck, ct_opcheck
 *   print     PyTorch-style printing
 *   optim     optimizers, gradient clipping, learning-rate schedules
 *   safetensors the safetensors format: loading (memory-mapped, zero-copy),
 *             saving, state dicts by name
 *
 * OWNERSHIP
 *   Functions returning ct_tensor* return a new reference: ct_release it.
 *   Or open a temporaries scope, which releases everything returned inside:
 *       CT_SCOPE {
 *         ct_tensor *y = ct_relu(ct_add(ct_mm(x, w), b)); // no leaks
 *         result = ct_keep(y);                             // escapes the scope
 *       }
 *
 * ERRORS
 *   Failures return NULL or a negative ct_status and leave a thread-local
 *   message (ct_last_error_message()) naming the op, the argument and what
 *   was expected. Nothing aborts. ct_set_error_handler installs a callback.
 *
 * THREADS
 *   Tensors may be shared between threads (refcounts are atomic); writing
 *   one tensor from two threads at once is a data race, as in PyTorch.
 *   Registration (ct_def, ct_impl, ...) takes a lock; dispatch does not.
 *
 * LICENSE
 *   Copyright (c) 2026 the ctorch authors. Permission is hereby granted,
 *   free of charge, to any person obtaining a copy of this software and
 *   associated documentation files (the "Software"), to deal in the Software
 *   without restriction, including without limitation the rights to use,
 *   copy, modify, merge, publish, distribute, sublicense, and/or sell copies
 *   of the Software, and to permit persons to whom the Software is furnished
 *   to do so, subject to the following conditions: The above copyright
 *   notice and this permission notice shall be included in all copies or
 *   substantial portions of the Software. THE SOFTWARE IS PROVIDED "AS IS",
 *   WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
 */
/* ctorch:components base parallel dtype keys schema device tensor dispatch backend guard iter autograd ops ops/structured ops/pointwise ops/factory ops/unary ops/binary ops/reduce ops/linalg ops/matrix ops/shape ops/nn ops/conv ops/random generated/functions generated/autograd_functions generated/registration init custom fallback check print optim safetensors nn */
#ifndef CTORCH_H
#define CTORCH_H
#include "ctorch/base.h"
#include "ctorch/parallel.h"
#include "ctorch/dtype.h"
#include "ctorch/keys.h"
#include "ctorch/schema.h"
#include "ctorch/device.h"
#include "ctorch/tensor.h"
#include "ctorch/dispatch.h"
#include "ctorch/backend.h"
#include "ctorch/guard.h"
#include "ctorch/iter.h"
#include "ctorch/autograd.h"
#include "ctorch/ops.h"
#include "ctorch/ops/structured.h"
#include "ctorch/ops/pointwise.h"
#include "ctorch/ops/factory.h"
#include "ctorch/ops/unary.h"
#include "ctorch/ops/binary.h"
#include "ctorch/ops/reduce.h"
#include "ctorch/ops/linalg.h"
#include "ctorch/ops/matrix.h"
#include "ctorch/ops/shape.h"
#include "ctorch/ops/nn.h"
#include "ctorch/ops/conv.h"
#include "ctorch/ops/random.h"
#include "ctorch/generated/functions.h"
#include "ctorch/generated/autograd_functions.h"
#include "ctorch/generated/registration.h"
#include "ctorch/init.h"
#include "ctorch/custom.h"
#include "ctorch/fallback.h"
#include "ctorch/check.h"
#include "ctorch/print.h"
#include "ctorch/optim.h"
#include "ctorch/safetensors.h"
#include "ctorch/nn.h"
#endif /* CTORCH_H */

/* Implementations come after every declaration, so components may call each
 * other freely. (CT__DECLARATIONS_ONLY, for the project's own checks: a
 * program that defines CTORCH_IMPLEMENTATION gets the declarations only, so
 * make lint and make test analyse and compile the implementation once and
 * link it.) */
#if defined(CTORCH_IMPLEMENTATION) && !defined(CT__IMPLEMENT) && !defined(CT__DECLARATIONS_ONLY)
#define CT__IMPLEMENT
#include "ctorch/base.h"
#include "ctorch/parallel.h"
#include "ctorch/dtype.h"
#include "ctorch/keys.h"
#include "ctorch/schema.h"
#include "ctorch/device.h"
#include "ctorch/tensor.h"
#include "ctorch/dispatch.h"
#include "ctorch/backend.h"
#include "ctorch/guard.h"
#include "ctorch/iter.h"
#include "ctorch/autograd.h"
#include "ctorch/ops.h"
#include "ctorch/ops/structured.h"
#include "ctorch/ops/pointwise.h"
#include "ctorch/ops/factory.h"
#include "ctorch/ops/unary.h"
#include "ctorch/ops/binary.h"
#include "ctorch/ops/reduce.h"
#include "ctorch/ops/linalg.h"
#include "ctorch/ops/matrix.h"
#include "ctorch/ops/shape.h"
#include "ctorch/ops/nn.h"
#include "ctorch/ops/conv.h"
#include "ctorch/ops/random.h"
#include "ctorch/generated/functions.h"
#include "ctorch/generated/autograd_functions.h"
#include "ctorch/generated/registration.h"
#include "ctorch/init.h"
#include "ctorch/custom.h"
#include "ctorch/fallback.h"
#include "ctorch/check.h"
#include "ctorch/print.h"
#include "ctorch/optim.h"
#include "ctorch/safetensors.h"
#include "ctorch/nn.h"
#endif
