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
 *   tensor    storage, tensors, factories, element access, ct_keep
 *   dispatch  operator registry, kernels, boxed values and stacks
 *   backend   compiled backends: ct_register_backend (version, priority)
 *   guard     CT_NO_GRAD, CT_INFERENCE_MODE, CT_INCLUDE_KEYS, CT_EXCLUDE_KEYS,
 *             CT_DEVICE_GUARD, CT_SCOPE (temporaries)
 *   iter      the strided iteration helper used by every elementwise loop
 *   autograd  tape autograd: nodes, saved tensors, backward, grad
 *   ops       kernel plumbing, the first reference kernels, derivative helpers
 *   ops/unary ops/binary ops/reduce ops/linalg ops/shape ops/nn ops/conv
 *   ops/random
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
/* Single-file build: generated from ctorch.h and the ctorch/ components by tools/amalgamate.sh; do not edit. */
#ifndef CTORCH_H
#define CTORCH_H
/* ---- ctorch/base.h ---- */
/* ctorch/base.h - configuration, errors, threads and the CPU allocator.
 *
 * Part of ctorch (see ../ctorch.h for the overview and licence). Include
 * ctorch.h rather than this file; it is a component of the single header.
 *
 * Everything below is declared in the first half; the second half (after the
 * "implementation" marker) is compiled only in the translation unit that
 * defines CTORCH_IMPLEMENTATION before including ctorch.h.
 */
#ifndef CT_BASE_H
#define CT_BASE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#define CT_VERSION_MAJOR 0
#define CT_VERSION_MINOR 1
#define CT_VERSION_PATCH 0
#define CT_VERSION_STRING "0.1.0"

/* ---- configuration (define before including ctorch.h) -------------------
 * CT_STATIC          every function gets internal linkage (private embedding)
 * CT_MAX_DIMS        maximum tensor rank, default 8 (metadata is inline)
 * CT_MALLOC/CT_REALLOC/CT_FREE   system allocator; define all three or none
 * CT_CPU_CACHE_LIMIT bytes of freed CPU blocks a thread keeps for reuse
 *                    (default 64 MiB; 0 disables caching)
 * CT_NO_THREADS      single-threaded build: no TLS, atomics or mutexes
 */
#ifdef CT_STATIC
#if defined(__GNUC__)
#define CTDEF static __attribute__((unused))
#else
#define CTDEF static
#endif
#else
#define CTDEF extern
#endif

#ifndef CT_MAX_DIMS
#define CT_MAX_DIMS 8
#endif

#if defined(CT_MALLOC) && defined(CT_FREE) && defined(CT_REALLOC)
/* all three given */
#elif !defined(CT_MALLOC) && !defined(CT_FREE) && !defined(CT_REALLOC)
#include <stdlib.h>
#define CT_MALLOC(n) malloc(n)
#define CT_REALLOC(p, n) realloc(p, n)
#define CT_FREE(p) free(p)
#else
#error "ctorch: define all of CT_MALLOC, CT_REALLOC and CT_FREE, or none of them"
#endif

#ifndef CT_CPU_CACHE_LIMIT
#define CT_CPU_CACHE_LIMIT (64u << 20)
#endif

#ifdef __cplusplus
#define CT_EXTERN_C_BEGIN extern "C" {
#define CT_EXTERN_C_END }
#else
#define CT_EXTERN_C_BEGIN
#define CT_EXTERN_C_END
#endif

#if defined(__GNUC__) || defined(__clang__)
#define CT_LIKELY(x) __builtin_expect(!!(x), 1)
#define CT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define CT__PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CT__COLD __attribute__((cold)) /* error paths: kept out of the hot code layout */
#define CT_HAVE_CLEANUP 1 /* guards run their exit action on every exit path */
#else
#define CT_LIKELY(x) (x)
#define CT_UNLIKELY(x) (x)
#define CT__PRINTF(f, a)
#define CT__COLD
#define CT_HAVE_CLEANUP 0
#endif

CT_EXTERN_C_BEGIN

/* ---- errors --------------------------------------------------------------
 * Every fallible function returns NULL (pointers) or a negative ct_status and
 * leaves a thread-local message "op: what was expected versus what was given".
 * A NULL tensor argument while an earlier error is pending passes that error
 * through unchanged, so `ct_relu(ct_add(ct_mm(x, w), b))` reports the first
 * failure of the chain. Nothing is leaked and no state changes on failure.
 */
#define CT_ERROR_TABLE(X)                                                    \
  X(CT_OK, 0, "success")                                                     \
  X(CT_ERR_NULL, -1, "NULL argument")                                        \
  X(CT_ERR_INVALID, -2, "invalid argument")                                  \
  X(CT_ERR_SHAPE, -3, "shape mismatch")                                      \
  X(CT_ERR_DTYPE, -4, "dtype mismatch or unsupported dtype")                 \
  X(CT_ERR_DEVICE, -5, "device mismatch or unsupported device")              \
  X(CT_ERR_RANK, -6, "rank out of range")                                    \
  X(CT_ERR_SIZE, -7, "negative or overflowing size")                         \
  X(CT_ERR_VIEW, -8, "invalid view")                                         \
  X(CT_ERR_INDEX, -9, "index out of range")                                  \
  X(CT_ERR_NO_KERNEL, -10, "no kernel registered")                           \
  X(CT_ERR_REGISTRATION, -11, "duplicate or conflicting registration")       \
  X(CT_ERR_SCHEMA, -12, "malformed schema")                                  \
  X(CT_ERR_OOM, -13, "out of memory")                                        \
  X(CT_ERR_STATE, -14, "invalid state")                                      \
  X(CT_ERR_UNSUPPORTED, -15, "not supported")

typedef enum ct_status {
#define CT__X(name, value, text) name = value,
  CT_ERROR_TABLE(CT__X)
#undef CT__X
  CT__STATUS_MIN = -16
} ct_status;

CTDEF ct_status ct_last_error(void);           /* CT_OK if none pending */
CTDEF const char *ct_last_error_message(void); /* "" if none pending */
CTDEF void ct_clear_error(void);
CTDEF const char *ct_status_name(ct_status s); /* "CT_ERR_SHAPE" */
CTDEF const char *ct_status_text(ct_status s); /* "shape mismatch" */

/* Called on every error, on the failing thread, after the message is set.
 * Install one to log, or to abort if you prefer a hard stop. */
typedef void (*ct_error_handler)(ct_status code, const char *message, void *user);
CTDEF void ct_set_error_handler(ct_error_handler handler, void *user);

/* Record an error (for kernels and custom ops): the message is
 * "<op>: <formatted>". Returns `code` so callers can `return ct_fail(...)`. */
CTDEF ct_status ct_fail(ct_status code, const char *op, const char *fmt, ...) CT__PRINTF(3, 4) CT__COLD;

/* ---- CPU allocator ------------------------------------------------------
 * The default CPU allocator caches freed blocks per thread in size classes
 * (powers of two from 64 B to 1 MiB, then quarter steps to 64 MiB), so a steady-state loop makes no system
 * allocations after its first iteration. Blocks are 64-byte aligned.
 */
typedef struct ct_allocator {
  const char *name;
  void *(*alloc)(void *ctx, size_t nbytes);          /* NULL on failure */
  void (*free)(void *ctx, void *ptr, size_t nbytes); /* nbytes as allocated */
  void *ctx;
} ct_allocator;

typedef struct ct_memory_stats {
  int64_t live_bytes;          /* CPU data handed out and not yet freed */
  int64_t live_blocks;         /* CPU data allocations not yet freed */
  int64_t live_tensors;        /* ct_tensor objects alive */
  int64_t live_storages;       /* ct_storage objects alive */
  int64_t cached_bytes;        /* freed blocks kept for reuse, all threads */
  int64_t reserved_bytes;      /* held from the system: live + cached + objects */
  int64_t peak_reserved_bytes; /* high-water mark of reserved_bytes */
  int64_t system_allocs;       /* calls to the system allocator so far */
  int64_t system_frees;        /* blocks returned to the system so far */
} ct_memory_stats;

CTDEF const ct_allocator *ct_cpu_allocator(void);
CTDEF ct_memory_stats ct_memory_stats_get(void);
CTDEF void ct_reset_peak_memory(void);
/* Return the calling thread's cached blocks to the system. Threads that exit
 * do this automatically where POSIX threads are available. */
CTDEF void ct_empty_cache(void);

CT_EXTERN_C_END

/* ---- internal helpers shared by the components -------------------------- */
#ifdef CT_NO_THREADS
#define CT__TLS
#elif defined(__cplusplus)
#define CT__TLS thread_local
#elif defined(_MSC_VER)
#define CT__TLS __declspec(thread)
#else
#define CT__TLS _Thread_local
#endif

#if defined(CT_NO_THREADS)
#define ct__relaxed_load(p) (*(p))
#define ct__atomic_add(p, v) (*(p) += (v))
#define ct__atomic_load(p) (*(p))
#define ct__atomic_store(p, v) (*(p) = (v))
#elif defined(__GNUC__) || defined(__clang__)
#define ct__relaxed_load(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define ct__atomic_add(p, v) __atomic_add_fetch((p), (v), __ATOMIC_ACQ_REL)
#define ct__atomic_load(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define ct__atomic_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#else
#error "ctorch: atomics need GCC/Clang builtins here; define CT_NO_THREADS or port ct__atomic_*"
#endif

#endif /* CT_BASE_H */

/* ---- ctorch/parallel.h ---- */
/* ctorch/parallel.h - the thread knob and parallel loops.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * One knob sets how many threads ctorch uses (PyTorch's set_num_threads):
 *     ct_set_num_threads(2);   n <= 0 restores the default: $CT_NUM_THREADS,
 *                              else the number of online CPUs
 * Backends follow it (the BLIS backend sets BLIS's thread count from it).
 *
 * ct_parallel_for(n, grain, fn, ctx) splits [0, n) into fixed chunks of
 * `grain` indices (the last may be shorter) and calls fn(begin, end, ctx)
 * once per chunk. The chunks depend only on n and grain, never on the thread
 * count, so a reduction that keeps one partial per chunk and combines them
 * in chunk order gives bit-identical results with 1 or N threads. When there
 * is a single chunk (n <= grain), one thread, or the call is nested inside
 * another parallel loop, every chunk runs on the calling thread, in order:
 * `grain` is also the threshold below which work stays single-threaded.
 *
 * The worker threads (POSIX threads) start once, on the first loop that
 * needs them, and sleep between loops. CT_NO_THREADS builds run everything
 * on the calling thread.
 */
#ifndef CT_PARALLEL_H
#define CT_PARALLEL_H


CT_EXTERN_C_BEGIN

#define CT_MAX_THREADS 64

typedef void (*ct_parallel_fn)(int64_t begin, int64_t end, void *ctx);

CTDEF void ct_set_num_threads(int n);
CTDEF int ct_get_num_threads(void);
CTDEF void ct_parallel_for(int64_t n, int64_t grain, ct_parallel_fn fn, void *ctx);
CTDEF int ct_in_parallel_region(void); /* 1 while this thread runs chunks of a multi-threaded loop */
/* Called with the new count whenever ct_set_num_threads changes it (and
 * once at registration); for backends with their own threads. Up to 8. */
CTDEF ct_status ct_on_num_threads(void (*listener)(int n));

CT_EXTERN_C_END
#endif /* CT_PARALLEL_H */

/* ---- ctorch/dtype.h ---- */
/* ctorch/dtype.h - element types, scalars and PyTorch's type promotion.
 * Component of ctorch.h; see there for the overview and licence. */
#ifndef CT_DTYPE_H
#define CT_DTYPE_H


CT_EXTERN_C_BEGIN

/* Zero is float32, the default dtype, so zeroed descriptors mean "default". */
#define CT_DTYPE_TABLE(X)                 \
  X(CT_F32, float, 4, "float32", 'f')     \
  X(CT_F64, double, 8, "float64", 'f')    \
  X(CT_F16, uint16_t, 2, "float16", 'f')  \
  X(CT_BF16, uint16_t, 2, "bfloat16", 'f') \
  X(CT_I64, int64_t, 8, "int64", 'i')     \
  X(CT_I32, int32_t, 4, "int32", 'i')     \
  X(CT_U8, uint8_t, 1, "uint8", 'i')      \
  X(CT_BOOL, bool, 1, "bool", 'b')

typedef enum ct_dtype {
  CT_DTYPE_NONE = -1, /* "not given" in optional dtype arguments */
#define CT__X(name, ctype, size, str, kind) name,
  CT_DTYPE_TABLE(CT__X)
#undef CT__X
  CT_DTYPE_NUM
} ct_dtype;

/* bytes per element; 0 for an invalid dtype (inline: used in every loop setup) */
static inline size_t ct_dtype_size(ct_dtype t) {
  static const unsigned char sizes[] = {
#define CT__X(name, ctype, size, str, kind) size,
      CT_DTYPE_TABLE(CT__X)
#undef CT__X
  };
  return (unsigned)t < (unsigned)CT_DTYPE_NUM ? sizes[t] : 0;
}
CTDEF const char *ct_dtype_name(ct_dtype t);   /* "float32" */
static inline bool ct_dtype_valid(ct_dtype t) { return (unsigned)t < (unsigned)CT_DTYPE_NUM; }
/* f32 f64 f16 bf16 (they are the first four dtypes) */
static inline bool ct_dtype_is_floating(ct_dtype t) { return (unsigned)t <= (unsigned)CT_BF16; }
static inline bool ct_dtype_is_integral(ct_dtype t, bool include_bool) {
  return (t >= CT_I64 && t <= CT_U8) || (include_bool && t == CT_BOOL);
}
/* torch.promote_types: the smallest dtype both convert to without losing
 * category (bool < integer < floating). f16 with bf16 gives f32. */
CTDEF ct_dtype ct_promote_types(ct_dtype a, ct_dtype b);
/* torch.can_cast: false for floating -> integer and anything -> bool. */
CTDEF bool ct_can_cast(ct_dtype from, ct_dtype to);

/* IEEE half and bfloat16 as bits (round to nearest even when narrowing). */
CTDEF float ct_f16_to_f32(uint16_t h);
CTDEF uint16_t ct_f32_to_f16(float f);
CTDEF float ct_bf16_to_f32(uint16_t h);
CTDEF uint16_t ct_f32_to_bf16(float f);

/* ---- scalars: a number with a category, as a Python number is ----------- */
typedef enum ct_scalar_kind { CT_SCALAR_NONE = 0, CT_SCALAR_FLOAT, CT_SCALAR_INT, CT_SCALAR_BOOL } ct_scalar_kind;
typedef struct ct_scalar {
  ct_scalar_kind kind;
  union {
    double f;
    int64_t i;
    bool b;
  } v;
} ct_scalar;

static inline ct_scalar ct_float(double x) {
  ct_scalar s;
  s.kind = CT_SCALAR_FLOAT;
  s.v.f = x;
  return s;
}
static inline ct_scalar ct_int(int64_t x) {
  ct_scalar s;
  s.kind = CT_SCALAR_INT;
  s.v.i = x;
  return s;
}
static inline ct_scalar ct_bool(bool x) {
  ct_scalar s;
  s.kind = CT_SCALAR_BOOL;
  s.v.b = x;
  return s;
}
static inline double ct_scalar_to_double(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? s.v.f : s.kind == CT_SCALAR_INT ? (double)s.v.i : (double)s.v.b;
}
static inline int64_t ct_scalar_to_int(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? (int64_t)s.v.f : s.kind == CT_SCALAR_INT ? s.v.i : (int64_t)s.v.b;
}
/* The dtype a bare number takes: float32 (the default), int64 or bool. */
CTDEF ct_dtype ct_scalar_dtype(ct_scalar s);

CT_EXTERN_C_END
#endif /* CT_DTYPE_H */

/* ---- ctorch/keys.h ---- */
/* ctorch/keys.h - dispatch keys, 64-bit key sets, thread-local key state.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Note [Key set layout]
 * ---------------------
 * A key set is a uint64_t; bit k set means key k is present. Priority is the
 * bit position: dispatch takes the highest set bit (count leading zeros), so
 * choosing a kernel is an OR, an AND-NOT, an AND, a clz and a table load.
 *
 *   bit   key                      what it is for
 *   63    (unused; guards the clz arithmetic)
 *   56    Profiler                 boxed fallback that times every op
 *   52-55 Custom1..Custom4         users' own modes (tracing, logging, ...)
 *   48    Tracer                   records calls
 *   44-45 AutocastCPU/AutocastCUDA mixed precision
 *   39    AutogradOther            autograd for backends without their own
 *   32-37 Autograd<backend>        bit = backend bit + 30 (Meta 32, CPU 33, ...)
 *   24    ADInplaceOrView          version counters and view bookkeeping
 *   20    BackendSelect            factories choosing a backend
 *   2-9   backends: Meta=2, CPU=3, CUDA=4, PrivateUse1..3=5..7
 *   0-1   Undefined (never set: an empty set is 0)
 *
 * Invariants:
 *  - Functionality keys sit above every backend key: a functionality wraps
 *    a backend and redispatches below itself (ks & ct_keys_below(key)).
 *  - ctorch maps (Autograd, backend) to one flat key per backend, so the
 *    dispatch table has one slot per bit (64 slots) and no second lookup.
 *  - A tensor's own key set holds its backend key, plus the backend's
 *    autograd key while it takes part in autograd.
 *  - Alias keys (CompositeImplicitAutograd, CompositeExplicitAutograd,
 *    Autograd) exist only for registration; they expand to runtime keys.
 */
#ifndef CT_KEYS_H
#define CT_KEYS_H


CT_EXTERN_C_BEGIN

typedef uint64_t ct_keyset;

#define CT_KEY_TABLE(X)                                   \
  X(CT_KEY_UNDEFINED, 0, "Undefined")                     \
  X(CT_KEY_META, 2, "Meta")                               \
  X(CT_KEY_CPU, 3, "CPU")                                 \
  X(CT_KEY_CUDA, 4, "CUDA")                               \
  X(CT_KEY_PRIVATEUSE1, 5, "PrivateUse1")                 \
  X(CT_KEY_PRIVATEUSE2, 6, "PrivateUse2")                 \
  X(CT_KEY_PRIVATEUSE3, 7, "PrivateUse3")                 \
  X(CT_KEY_BACKEND_SELECT, 20, "BackendSelect")           \
  X(CT_KEY_AD_INPLACE_OR_VIEW, 24, "ADInplaceOrView")     \
  X(CT_KEY_AUTOGRAD_META, 32, "AutogradMeta")             \
  X(CT_KEY_AUTOGRAD_CPU, 33, "AutogradCPU")               \
  X(CT_KEY_AUTOGRAD_CUDA, 34, "AutogradCUDA")             \
  X(CT_KEY_AUTOGRAD_PRIVATEUSE1, 35, "AutogradPrivateUse1") \
  X(CT_KEY_AUTOGRAD_PRIVATEUSE2, 36, "AutogradPrivateUse2") \
  X(CT_KEY_AUTOGRAD_PRIVATEUSE3, 37, "AutogradPrivateUse3") \
  X(CT_KEY_AUTOGRAD_OTHER, 39, "AutogradOther")           \
  X(CT_KEY_AUTOCAST_CPU, 44, "AutocastCPU")               \
  X(CT_KEY_AUTOCAST_CUDA, 45, "AutocastCUDA")             \
  X(CT_KEY_TRACER, 48, "Tracer")                          \
  X(CT_KEY_CUSTOM1, 52, "Custom1")                        \
  X(CT_KEY_CUSTOM2, 53, "Custom2")                        \
  X(CT_KEY_CUSTOM3, 54, "Custom3")                        \
  X(CT_KEY_CUSTOM4, 55, "Custom4")                        \
  X(CT_KEY_PROFILER, 56, "Profiler")                      \
  /* alias keys: registration only, never in a key set */ \
  X(CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, 64, "CompositeImplicitAutograd") \
  X(CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, 65, "CompositeExplicitAutograd") \
  X(CT_KEY_AUTOGRAD, 66, "Autograd")

typedef enum ct_key {
#define CT__X(name, bit, str) name = bit,
  CT_KEY_TABLE(CT__X)
#undef CT__X
  CT_NUM_RUNTIME_KEYS = 64, /* runtime keys are < this: one bit each */
  CT_NUM_KEYS = 67          /* runtime + alias keys */
} ct_key;

#define CT_AUTOGRAD_KEY_OFFSET 30 /* Autograd<B> = B + 30 for the backends above */
#define CT_BACKEND_KEYS ((ct_keyset)0x3FC)              /* bits 2..9 */
#define CT_AUTOGRAD_KEYS ((ct_keyset)0xFF << 32)        /* bits 32..39 */
#define CT_FUNCTIONALITY_KEYS (~(ct_keyset)0x3FF)       /* bits 10..63 */

static inline ct_keyset ct_keyset_of(ct_key k) { return (unsigned)k < 64 ? (ct_keyset)1 << k : 0; }
static inline bool ct_keyset_has(ct_keyset ks, ct_key k) { return (ks & ct_keyset_of(k)) != 0; }
/* Highest-priority key in the set; CT_KEY_UNDEFINED for the empty set. */
static inline ct_key ct_keyset_highest(ct_keyset ks) {
#if defined(__GNUC__) || defined(__clang__)
  return ks ? (ct_key)(63 - __builtin_clzll(ks)) : CT_KEY_UNDEFINED;
#else
  int k = 63;
  if (!ks) return CT_KEY_UNDEFINED;
  while (!(ks >> k)) k--;
  return (ct_key)k;
#endif
}
/* Every key of lower priority than k: what a kernel at k redispatches to. */
static inline ct_keyset ct_keys_below(ct_key k) { return ((ct_keyset)1 << k) - 1; }
static inline bool ct_key_is_backend(ct_key k) { return (ct_keyset_of(k) & CT_BACKEND_KEYS) != 0; }
static inline bool ct_key_is_autograd(ct_key k) { return (ct_keyset_of(k) & CT_AUTOGRAD_KEYS) != 0; }
/* The autograd key serving backend key b (AutogradOther for unknown ones). */
static inline ct_key ct_autograd_key_for(ct_key b) {
  return (b >= CT_KEY_META && b <= CT_KEY_PRIVATEUSE3) ? (ct_key)(b + CT_AUTOGRAD_KEY_OFFSET) : CT_KEY_AUTOGRAD_OTHER;
}

CTDEF const char *ct_key_name(ct_key k); /* "AutogradCPU"; "?" if unknown */
CTDEF bool ct_key_valid(ct_key k);       /* a named runtime or alias key */
/* Writes "CPU, AutogradCPU" (lowest first) into buf; returns buf. */
CTDEF char *ct_keyset_format(ct_keyset ks, char *buf, size_t cap);

/* ---- thread-local and global key state ----------------------------------
 * Zero-initialised state is the default: nothing included, nothing excluded.
 * Prefer the guard macros in guard.h to the raw setters. */
typedef struct ct_local_keys {
  ct_keyset included; /* added to every call's key set on this thread */
  ct_keyset excluded; /* removed from every call's key set on this thread */
} ct_local_keys;

CTDEF ct_local_keys ct_local_keys_get(void);
CTDEF void ct_local_keys_set(ct_local_keys k);
CTDEF ct_keyset ct_global_keys_get(void);
/* Process-wide keys (e.g. a profiler switched on for every thread). */
CTDEF void ct_global_keys_set(ct_keyset ks);

/* Internal: the per-thread state, read on every dispatch. */
typedef struct ct__thread_state {
  ct_local_keys keys;
  int grad_disabled; /* 0: grad mode on (zero is the default) */
  int depth;         /* nesting of kernel calls; temporaries scopes use it */
  struct ct__scope *scope;
  int8_t device_index[8]; /* current device index per device type */
} ct__thread_state;
#ifdef CT_STATIC
static CT__TLS ct__thread_state ct__tls;
static ct_keyset ct__global_keys;
#else
extern CT__TLS ct__thread_state ct__tls;
extern ct_keyset ct__global_keys;
#endif

CT_EXTERN_C_END

#endif /* CT_KEYS_H */

/* ---- ctorch/schema.h ---- */
/* ctorch/schema.h - operator schemas in PyTorch's notation, and their parser.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * `add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`:
 * name, overload, typed arguments (Tensor(a!) written, Tensor(a) aliased,
 * T? optional, int[N] lists, defaults, '*' for keyword-only) and returns.
 * The parser also derives the C signature code ("T,T,S->T") that picks a
 * boxing adapter. It needs nothing but base.h, so gen/ctgen.c parses the
 * spec files with this very code.
 */
#ifndef CT_SCHEMA_H
#define CT_SCHEMA_H


CT_EXTERN_C_BEGIN

#define CT_MAX_ARGS 16
#define CT_MAX_RETURNS 4

/* ---- schemas ---- */
typedef enum ct_type {
  CT_TYPE_TENSOR = 1,
  CT_TYPE_INT,
  CT_TYPE_FLOAT,
  CT_TYPE_BOOL,
  CT_TYPE_SCALAR,
  CT_TYPE_SCALAR_TYPE,
  CT_TYPE_INT_LIST,
  CT_TYPE_TENSOR_LIST,
  CT_TYPE_STR,
  CT_TYPE_GENERATOR
} ct_type;

typedef struct ct_arg {
  ct_type type;
  bool optional;    /* T? : may be None */
  bool is_write;    /* Tensor(a!) : mutated and returned */
  char alias;       /* the alias set letter, 0 if none */
  bool kwarg_only;  /* after the '*' */
  int list_size;    /* int[2] -> 2; 0 if unsized */
  char name[32];
  char default_value[32]; /* text of the default, "" if none */
} ct_arg;

typedef struct ct_schema {
  char name[64];     /* "add" or "myns::op" */
  char overload[32]; /* "Tensor", "" for the default overload */
  int nargs, nrets;
  ct_arg args[CT_MAX_ARGS];
  ct_arg rets[CT_MAX_RETURNS];
  char signature[96]; /* codes of the C signature, e.g. "T,T,S->T": picks the boxing adapter */
} ct_schema;

/* Parse a schema; on failure returns CT_ERR_SCHEMA naming the position. */
CTDEF ct_status ct_schema_parse(const char *text, ct_schema *out);

CT_EXTERN_C_END
#endif /* CT_SCHEMA_H */

/* ---- ctorch/tensor.h ---- */
/* ctorch/tensor.h - storage, tensors, factories, views and element access.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Ownership: every function returning ct_tensor* returns a new reference
 * (NULL on error) that you drop with ct_release, unless a temporaries scope
 * (CT_SCOPE in guard.h) is open at your level, in which case the scope owns
 * it and releases it at the scope's end; ct_keep() lets one escape.
 * Views share storage with their base: writes through one show in the other.
 */
#ifndef CT_TENSOR_H
#define CT_TENSOR_H


CT_EXTERN_C_BEGIN

typedef enum ct_device_type {
  CT_DEVICE_CPU = 0, /* zero: the default device */
  CT_DEVICE_CUDA,
  CT_DEVICE_META, /* shapes and dtypes only, no data */
  CT_DEVICE_PRIVATEUSE1,
  CT_DEVICE_PRIVATEUSE2,
  CT_DEVICE_PRIVATEUSE3,
  CT_DEVICE_NUM
} ct_device_type;

typedef struct ct_device {
  int8_t type;  /* ct_device_type */
  int8_t index; /* which device of that type; 0 for the CPU */
} ct_device;

static inline ct_device ct_device_make(ct_device_type type, int index) {
  ct_device d;
  d.type = (int8_t)type;
  d.index = (int8_t)index;
  return d;
}
#define CT_CPU ct_device_make(CT_DEVICE_CPU, 0)
#define CT_META ct_device_make(CT_DEVICE_META, 0)
static inline bool ct_device_eq(ct_device a, ct_device b) { return a.type == b.type && a.index == b.index; }
CTDEF const char *ct_device_type_name(ct_device_type t); /* "cpu", "cuda", "meta" */
CTDEF ct_key ct_device_backend_key(ct_device_type t);  /* CT_KEY_CPU for the CPU */
/* Install the allocator for a device type (backends do this at startup). */
CTDEF ct_status ct_set_device_allocator(ct_device_type t, const ct_allocator *a);
CTDEF const ct_allocator *ct_device_allocator(ct_device_type t);

/* Refcounted memory shared by a tensor and its views. */
typedef struct ct_storage {
  int32_t refcount;               /* tensors referring to it */
  uint32_t version;               /* bumped by every in-place write, through any view */
  void *data;                     /* NULL for meta or zero-byte storage */
  size_t nbytes;                  /* usable size of data */
  ct_device device;
  uint8_t inline_data;            /* data lives in this block (tiny CPU tensors): one allocation */
  const ct_allocator *allocator;  /* frees data; NULL when a deleter owns it */
  void (*deleter)(void *data, void *ctx); /* user buffers (ct_from_blob) */
  void *deleter_ctx;
} ct_storage;

/* A view of a storage: metadata only, so views are cheap. Read the fields;
 * change them only through the functions here. */
typedef struct ct_tensor {
  int32_t refcount;          /* owners of this handle */
  int8_t dtype;              /* ct_dtype of every element */
  int8_t ndim;               /* rank, 0 (a scalar) .. CT_MAX_DIMS */
  uint8_t flags;             /* CT_TENSOR_* bits below */
  ct_device device;          /* where the data lives (same as storage->device) */
  ct_keyset keys;            /* dispatch keys: backend key (+ autograd key) */
  ct_storage *storage;       /* never NULL; shared by views */
  int64_t offset;            /* in elements, from storage->data to element [0,...,0] */
  int64_t numel;             /* product of sizes */
  int64_t sizes[CT_MAX_DIMS];   /* extent of each dimension */
  int64_t strides[CT_MAX_DIMS]; /* in elements; 0 for broadcast (expanded) dims */
  struct ct_autograd_meta *autograd; /* NULL unless autograd tracks this tensor */
} ct_tensor;

#define CT_TENSOR_WRAPPED_NUMBER 0x01u /* a bare number lifted to a tensor: low promotion priority */
#define CT_TENSOR_REQUIRES_GRAD 0x02u

/* Tensor creation options; a zeroed struct means float32 on the CPU. */
typedef struct ct_options {
  ct_dtype dtype;
  ct_device device;
} ct_options;
static inline ct_options ct_opts(ct_dtype dtype, ct_device device) {
  ct_options o;
  o.dtype = dtype;
  o.device = device;
  return o;
}

/* CT_DIMS(2, 3) expands to `2, (const int64_t[]){2, 3}`: a rank and sizes. (C only) */
#define CT__NARG(...) CT__NARG_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define CT__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define CT_DIMS(...) CT__NARG(__VA_ARGS__), (const int64_t[]){__VA_ARGS__}

/* ---- lifetime ---- */
CTDEF ct_tensor *ct_retain(ct_tensor *t); /* returns t */
CTDEF void ct_release(ct_tensor *t);      /* NULL is fine */

/* ---- factories ---- */
CTDEF ct_tensor *ct_empty(int ndim, const int64_t *sizes, ct_dtype dtype);
CTDEF ct_tensor *ct_empty_opts(int ndim, const int64_t *sizes, ct_options opts);
CTDEF ct_tensor *ct_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides, ct_options opts);
CTDEF ct_tensor *ct_zeros(int ndim, const int64_t *sizes, ct_dtype dtype);
CTDEF ct_tensor *ct_ones(int ndim, const int64_t *sizes, ct_dtype dtype);
CTDEF ct_tensor *ct_full(int ndim, const int64_t *sizes, ct_scalar value, ct_dtype dtype);
CTDEF ct_tensor *ct_full_opts(int ndim, const int64_t *sizes, ct_scalar value, ct_options opts);
/* [start, end) in steps of step, as torch.arange. */
CTDEF ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype);
CTDEF ct_tensor *ct_scalar_tensor(ct_scalar value, ct_dtype dtype); /* 0-dim */
/* Copies numel elements of `dtype` from data (row-major). */
CTDEF ct_tensor *ct_from_array(int ndim, const int64_t *sizes, ct_dtype dtype, const void *data);
/* Wraps a user buffer without copying; deleter(data, ctx) runs when the last
 * view dies (deleter may be NULL: the buffer must outlive the tensor).
 * strides NULL means contiguous. */
CTDEF ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dtype,
                              void (*deleter)(void *data, void *ctx), void *ctx);
CTDEF ct_tensor *ct_empty_like(const ct_tensor *t);
CTDEF ct_tensor *ct_zeros_like(const ct_tensor *t);
CTDEF ct_tensor *ct_ones_like(const ct_tensor *t);
CTDEF ct_tensor *ct_full_like(const ct_tensor *t, ct_scalar value);

/* Views (ct_view, ct_transpose, ct_slice, ...), clone, contiguous and
 * to_dtype are dispatched operators, so autograd sees them: see
 * ctorch/generated/functions.h (docs/ops.md). Their metadata logic is here. */
CTDEF ct_tensor *ct_to_device(ct_tensor *t, ct_device device);

/* ---- queries ---- */
CTDEF bool ct_is_contiguous(const ct_tensor *t);
CTDEF bool ct_same_shape(const ct_tensor *a, const ct_tensor *b);
CTDEF int64_t ct_size(const ct_tensor *t, int64_t dim); /* dim may be negative; -1 on error */
CTDEF void *ct_data_ptr(const ct_tensor *t);           /* address of element [0,...,0] */
/* Writes "[2, 3]" into buf; returns buf. */
CTDEF char *ct_shape_format(int ndim, const int64_t *sizes, char *buf, size_t cap);

/* ---- elements (for tests and glue code; not for inner loops) ----
 * Indices are logical row-major positions (0 .. numel-1), whatever the
 * strides. ct_get returns NaN and sets an error for a bad index. */
CTDEF double ct_get(const ct_tensor *t, int64_t index);
CTDEF int64_t ct_get_int(const ct_tensor *t, int64_t index);
CTDEF ct_status ct_set(ct_tensor *t, int64_t index, double value);
CTDEF ct_status ct_item(const ct_tensor *t, double *value); /* exactly one element */
/* Copies all elements, converted to `dtype`, into dst (numel of them). */
CTDEF ct_status ct_to_array(const ct_tensor *t, ct_dtype dtype, void *dst);

/* ---- temporaries ----
 * Inside CT_SCOPE { ... } (guard.h) every tensor returned to the code at that
 * level is released when the scope ends. ct_keep(t) moves t out of the
 * innermost scope: to the enclosing scope if there is one at the same level,
 * else to the caller. Tensors not owned by the scope are left alone. */
CTDEF ct_tensor *ct_keep(ct_tensor *t);

CT_EXTERN_C_END

/* internal, shared with the other components */
typedef struct ct__scope {
  struct ct__scope *parent;
  int depth;            /* kernel-call depth the scope was opened at */
  int n, cap;
  ct_tensor **items;    /* owned references */
  ct_tensor *inline_items[16];
} ct__scope;

#endif /* CT_TENSOR_H */

/* ---- ctorch/dispatch.h ---- */
/* ctorch/dispatch.h - operators, schemas, dispatch tables, boxed values.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * An operator has a schema (PyTorch notation), a dispatch table with one
 * kernel slot per runtime key, and two calling conventions:
 *   unboxed: a typed C function `R kernel(ct_keyset ks, args...)`, the fast
 *            path frontends use; R is ct_tensor* for a new tensor and
 *            ct_status for ops returning a mutated argument (Tensor(a!)).
 *   boxed:   `ct_status kernel(const ct_kernel *self, const ct_op *op,
 *            ct_keyset ks, ct_stack *stack)` over tagged values; the op's
 *            arguments are the top values of the stack, and the kernel
 *            replaces them with its results. One boxed fallback serves every
 *            operator whatever its signature.
 * A kernel registered unboxed is reached from boxed calls through the
 * signature adapter for its schema (ct_register_adapter); a boxed-only kernel
 * is reached from typed frontends by boxing the arguments.
 *
 * Registration verbs: ct_def (schema), ct_impl (kernel at a key or alias
 * key), ct_fallback (boxed kernel for a key across all ops), ct_fallthrough
 * (skip a key for one op or for all). Each op's table and its
 * non-fallthrough mask are recomputed at registration time, so a call is:
 *   ks = (inputs' keys | thread include | global) & ~thread exclude & op mask
 *   kernel = table[highest bit of ks]
 */
#ifndef CT_DISPATCH_H
#define CT_DISPATCH_H


CT_EXTERN_C_BEGIN



/* ---- boxed values ---- */
typedef struct ct_int_list {
  const int64_t *data;
  int64_t n;
} ct_int_list;
typedef struct ct_tensor_list {
  ct_tensor *const *data;
  int64_t n;
} ct_tensor_list;

/* Random-number generators (ctorch/ops/random.h); ops take `Generator?`. */
typedef struct ct_generator ct_generator;

/* `int?` arguments are int64_t with this value for None; `float?` ones are
 * double with NaN for None. */
#define CT_INT_NONE INT64_MIN

typedef enum ct_value_tag {
  CT_VALUE_NONE = 0,
  CT_VALUE_TENSOR,
  CT_VALUE_INT,
  CT_VALUE_DOUBLE,
  CT_VALUE_BOOL,
  CT_VALUE_SCALAR,
  CT_VALUE_DTYPE,
  CT_VALUE_INT_LIST,
  CT_VALUE_TENSOR_LIST,
  CT_VALUE_STRING,
  CT_VALUE_GENERATOR
} ct_value_tag;

/* One tagged value (PyTorch's IValue). Argument tensors and lists are
 * borrowed for the call; returned tensors are owned by the stack (owned=1)
 * until popped. */
typedef struct ct_value {
  uint8_t tag;   /* ct_value_tag */
  uint8_t owned; /* the stack holds a reference to v.tensor */
  union {
    ct_tensor *tensor;
    int64_t i;
    double d;
    bool b;
    ct_scalar scalar;
    ct_dtype dtype;
    ct_int_list ints;
    ct_tensor_list tensors;
    const char *str;
    ct_generator *gen;
  } v;
} ct_value;

CTDEF ct_value ct_value_none(void);
CTDEF ct_value ct_value_tensor(ct_tensor *t); /* borrowed; NULL becomes None */
CTDEF ct_value ct_value_int(int64_t i);
CTDEF ct_value ct_value_double(double d);
CTDEF ct_value ct_value_bool(bool b);
CTDEF ct_value ct_value_scalar(ct_scalar s);
CTDEF ct_value ct_value_dtype(ct_dtype d); /* CT_DTYPE_NONE becomes None */
CTDEF ct_value ct_value_int_list(const int64_t *data, int64_t n);
CTDEF ct_value ct_value_tensor_list(ct_tensor *const *data, int64_t n);
CTDEF ct_value ct_value_string(const char *s); /* NULL becomes None */
CTDEF ct_value ct_value_generator(ct_generator *g); /* NULL becomes None */
/* Releases what an owned value holds (a popped result: a tensor, or a
 * Tensor[] result's tensors and array) and makes it None. */
CTDEF void ct_value_release(ct_value *v);

typedef struct ct_stack {
  ct_value *items;
  int size, cap;
  int heap; /* items was allocated by the stack (grown past the caller's buffer) */
} ct_stack;

/* A stack over the caller's buffer (which may be NULL with cap 0); it grows
 * onto the heap when needed. ct_stack_free releases owned values. */
CTDEF void ct_stack_init(ct_stack *s, ct_value *buf, int cap);
CTDEF ct_status ct_stack_push(ct_stack *s, ct_value v);
CTDEF ct_value ct_stack_pop(ct_stack *s); /* an owned tensor becomes the caller's */
CTDEF void ct_stack_drop(ct_stack *s, int n);
CTDEF void ct_stack_free(ct_stack *s);

/* ---- kernels and operators ---- */
typedef struct ct_op ct_op;
typedef struct ct_kernel ct_kernel;
typedef void (*ct_unboxed_fn)(void); /* cast to the op's C signature to call */
typedef ct_status (*ct_boxed_fn)(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *stack);

struct ct_kernel {
  ct_unboxed_fn unboxed; /* typed entry, or NULL for a boxed-only kernel */
  ct_boxed_fn boxed;     /* boxed entry (filled with the op's adapter for unboxed kernels) */
  void *user;            /* for boxed kernels: their own context */
  const char *source;    /* where it was registered, for ct_op_dump */
};

static inline ct_kernel ct_kernel_unboxed(ct_unboxed_fn fn) {
  ct_kernel k;
  memset(&k, 0, sizeof k);
  k.unboxed = fn;
  return k;
}
static inline ct_kernel ct_kernel_boxed(ct_boxed_fn fn, void *user) {
  ct_kernel k;
  memset(&k, 0, sizeof k);
  k.boxed = fn;
  k.user = user;
  return k;
}
#define CT_FN(f) ((ct_unboxed_fn)(void (*)(void))(f))

struct ct_op {
  ct_keyset mask;                           /* keys that are not fallthrough for this op */
  ct_kernel table[CT_NUM_RUNTIME_KEYS];     /* resolved kernel per runtime key */
  ct_kernel registered[CT_NUM_KEYS];        /* as registered, aliases included */
  ct_keyset fallthrough;                    /* op-specific fallthrough keys */
  ct_boxed_fn adapter;                      /* boxed entry for unboxed kernels; NULL if none */
  /* The op's typed frontend called with boxed arguments (checked against the
   * schema): *result is what the frontend returns (a new tensor, tracked by
   * a temporaries scope like any; for in-place and out= ops the written
   * argument, borrowed). NULL if the op has none. */
  ct_status (*frontend)(const ct_value *args, ct_tensor **result);
  ct_schema schema;
  char full_name[100];                      /* "add.Tensor" */
};

CTDEF ct_op *ct_def(const char *schema);
CTDEF ct_op *ct_op_find(const char *name); /* "add.Tensor", or "add" for the default overload */
CTDEF ct_status ct_impl(const char *op, ct_key key, ct_kernel kernel);
CTDEF ct_status ct_impl_remove(const char *op, ct_key key);
CTDEF ct_status ct_fallthrough(const char *op, ct_key key); /* op NULL: for every op */
CTDEF ct_status ct_fallback(ct_key key, ct_kernel kernel);  /* boxed kernel for every op */
CTDEF ct_status ct_fallback_remove(ct_key key);             /* drops a fallback or global fallthrough */
/* Boxing adapter for a C signature code (ct_schema.signature). Generated
 * code and CT_DEFINE_OP register one per distinct signature. */
CTDEF ct_status ct_register_adapter(const char *signature, ct_boxed_fn adapter);
/* Writes the op's table ("CPU: unboxed (builtin) ...") into buf; returns buf. */
CTDEF char *ct_op_dump(const ct_op *op, char *buf, size_t cap);

/* The key set a call sees: inputs' keys with this thread's and the global
 * state applied (unmasked). */
CTDEF ct_keyset ct_dispatch_keys(ct_keyset input_keys);
/* Kernel for ks (already including thread state), masked by the op; NULL
 * with CT_ERR_NO_KERNEL if none. *chosen gets the masked key set. */
CTDEF const ct_kernel *ct_dispatch_lookup(const ct_op *op, ct_keyset ks, ct_keyset *chosen);
/* Boxed call: the op's arguments are the top of the stack. */
CTDEF ct_status ct_call_boxed(const ct_op *op, ct_stack *stack);
/* Boxed call with an explicit key set: what a kernel at key k uses with
 * ks & ct_keys_below(k) to continue below itself. */
CTDEF ct_status ct_redispatch_boxed(const ct_op *op, ct_keyset ks, ct_stack *stack);

CT_EXTERN_C_END

/* ---- internal fast path used by frontends ---- */
static inline ct_keyset ct__call_keys(ct_keyset input_keys) {
  return (input_keys | ct__tls.keys.included | ct__global_keys) & ~ct__tls.keys.excluded;
}

#endif /* CT_DISPATCH_H */

/* ---- ctorch/backend.h ---- */
/* ctorch/backend.h - compiled backends: registration with a version and a priority.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A backend (backends/cpu_blis, ...) is a separately compiled unit that
 * includes ctorch.h without CTORCH_IMPLEMENTATION and describes itself with
 * a static ct_backend: its kernels (op name, key, typed function with the
 * op's generated kernel signature) and a priority. ct_register_backend,
 * usually called from a constructor, installs every kernel whose op exists
 * and whose slot holds a kernel of lower priority: the header's reference
 * kernels have priority 0, so a backend with priority > 0 wins over them
 * whatever the order of static constructors, shared-library loading and the
 * header's lazy initialisation (registration initialises the library first,
 * then installs on top). Kernels for ops this build does not define are
 * skipped, so a backend built against a larger op library still works, and
 * so are ops that are CompositeImplicitAutograd here (a backend kernel would
 * hide their decomposition from autograd).
 *
 * Each entry's `replaced` receives the kernel it displaced: a backend calls
 * it for the cases it does not handle itself (other dtypes, odd layouts,
 * error reporting), so it never has to reimplement the reference semantics.
 *
 * The ABI check refuses a backend compiled against a different ctorch
 * (version or tensor layout) with CT_ERR_REGISTRATION: it is then simply not
 * used, and ct_backend_find reports it with its status.
 *
 * Linking (see backends/README.md): a constructor inside a static archive is
 * dropped unless something references its object, so link static archives
 * with -Wl,-u,<anchor> (the backend documents its anchor symbol) or call the
 * backend's explicit register function; shared libraries and plain objects
 * need nothing.
 */
#ifndef CT_BACKEND_H
#define CT_BACKEND_H


CT_EXTERN_C_BEGIN

#define CT_BACKEND_ABI ((uint32_t)((CT_VERSION_MAJOR << 24) | (CT_VERSION_MINOR << 16) | (CT_MAX_DIMS << 8) | 1))

typedef struct ct_backend_kernel {
  const char *op;       /* "mm", "mm.out", "add.Tensor" */
  const char *signature; /* the C signature the kernel has ("T,T->T", ct_schema.signature); the
                          * entry is skipped when the build's op has another one. NULL: no check */
  ct_key key;           /* CT_KEY_CPU, ... (runtime keys only) */
  ct_unboxed_fn fn;     /* CT_FN(kernel): the op's kernel signature */
  /* filled in by ct_register_backend: */
  ct_kernel replaced;   /* the kernel this one displaced (unboxed may be NULL) */
  int installed;        /* 1 when it holds the slot */
} ct_backend_kernel;

typedef struct ct_backend {
  uint32_t abi;                 /* CT_BACKEND_ABI as the backend was compiled */
  uint32_t tensor_size;         /* sizeof(ct_tensor) as the backend was compiled */
  const char *name;             /* "cpu_blis"; also the kernels' source in ct_op_dump */
  const char *version;          /* the backend's own version text (free form) */
  int priority;                 /* > 0; reference kernels are 0; higher wins */
  ct_backend_kernel *kernels;
  int nkernels;
  void (*set_num_threads)(int n); /* follows ct_set_num_threads; may be NULL */
  /* filled in by ct_register_backend: */
  ct_status status;             /* CT_OK once installed */
  int ninstalled;               /* kernels that hold their slot */
  struct ct_backend *next;
} ct_backend;

/* Install b (idempotent). Safe from a constructor, before or after the
 * library initialised itself. b must stay valid (static storage). */
CTDEF ct_status ct_register_backend(ct_backend *b);
CTDEF const ct_backend *ct_backend_find(const char *name); /* NULL if never registered */
CTDEF const ct_backend *ct_backend_first(void);            /* then ->next */

/* Services for backend kernels (which cannot reach the header's internals):
 * a new CPU/meta tensor that is not tracked by a temporaries scope (kernels
 * return new references and the frontend tracks them), and the version bump
 * every in-place or out= write needs. */
CTDEF ct_tensor *ct_backend_empty(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device);
CTDEF void ct_backend_bump_version(ct_tensor *t);

CT_EXTERN_C_END
#endif /* CT_BACKEND_H */

/* ---- ctorch/guard.h ---- */
/* ctorch/guard.h - scoped guards: no-grad, inference mode, key include and
 * exclude, device, and temporaries scopes.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Every guard is an explicit pair, usable in any C compiler (MSVC too):
 *     ct_guard g; ct_no_grad_begin(&g); ...; ct_guard_end(&g);
 * and a block macro over the same pair:
 *     CT_NO_GRAD { ... }
 * The macro is a single-pass `for` whose exit action runs when the body
 * finishes. Where CT_HAVE_CLEANUP is 1 (GCC, Clang) the guard variable also
 * carries __attribute__((cleanup)), so `return`, `goto` and `break` out of
 * the body restore the state too. Not allowed inside a guard block:
 *   - longjmp out of it (nothing runs);
 *   - without CT_HAVE_CLEANUP: return, goto or break out of it (the exit
 *     action is skipped; use the explicit pair instead);
 *   - `break`/`continue` meant for an enclosing loop: they bind to the
 *     guard's own loop (break leaves the guard, continue ends the body).
 * Guards nest and are per thread. A guard records what it changed and
 * restores exactly that, so inner guards never undo outer ones.
 */
#ifndef CT_GUARD_H
#define CT_GUARD_H


CT_EXTERN_C_BEGIN

typedef struct ct_guard {
  void (*end)(struct ct_guard *g); /* the exit action, set by *_begin */
  int state;                       /* 0 before begin, 1 active, 2 ended */
  ct_keyset changed;               /* keys this guard actually added */
  int saved_int;                   /* previous grad mode / device index */
  int8_t device_type;
  ct__scope scope; /* temporaries (ct_scope_begin only) */
} ct_guard;

CTDEF void ct_guard_end(ct_guard *g); /* runs the exit action once */

CTDEF void ct_no_grad_begin(ct_guard *g);       /* autograd records nothing */
CTDEF void ct_enable_grad_begin(ct_guard *g);   /* undo an outer no-grad */
CTDEF void ct_inference_mode_begin(ct_guard *g); /* no-grad and autograd keys excluded */
CTDEF void ct_include_keys_begin(ct_guard *g, ct_keyset ks);
CTDEF void ct_exclude_keys_begin(ct_guard *g, ct_keyset ks);
CTDEF void ct_device_begin(ct_guard *g, ct_device device);
CTDEF void ct_scope_begin(ct_guard *g); /* releases the tensors returned inside */

CTDEF bool ct_is_grad_enabled(void);
CTDEF int ct_current_device(ct_device_type type); /* index set by device guards */

CT_EXTERN_C_END

/* internal */
static inline ct_guard ct__guard_zero(void) {
  ct_guard g;
  memset(&g, 0, sizeof g);
  return g;
}
static inline void ct__guard_cleanup(ct_guard *g) {
  if (g->state == 1) ct_guard_end(g);
}
#if CT_HAVE_CLEANUP
#define CT__CLEANUP __attribute__((cleanup(ct__guard_cleanup)))
#else
#define CT__CLEANUP
#endif
#define CT__CAT_(a, b) a##b
#define CT__CAT(a, b) CT__CAT_(a, b)
#ifdef __COUNTER__
#define CT__UNIQUE(prefix) CT__CAT(prefix, __COUNTER__)
#else
#define CT__UNIQUE(prefix) CT__CAT(prefix, __LINE__)
#endif
#define CT__GUARD_LOOP(g, begin) \
  for (ct_guard g CT__CLEANUP = ct__guard_zero(); g.state == 0 ? ((begin), g.state = 1) : (ct_guard_end(&g), 0);)

#define CT__NO_GRAD(g) CT__GUARD_LOOP(g, ct_no_grad_begin(&g))
#define CT__ENABLE_GRAD(g) CT__GUARD_LOOP(g, ct_enable_grad_begin(&g))
#define CT__INFERENCE_MODE(g) CT__GUARD_LOOP(g, ct_inference_mode_begin(&g))
#define CT__INCLUDE_KEYS(g, ks) CT__GUARD_LOOP(g, ct_include_keys_begin(&g, (ks)))
#define CT__EXCLUDE_KEYS(g, ks) CT__GUARD_LOOP(g, ct_exclude_keys_begin(&g, (ks)))
#define CT__DEVICE_GUARD(g, d) CT__GUARD_LOOP(g, ct_device_begin(&g, (d)))
#define CT__SCOPE(g) CT__GUARD_LOOP(g, ct_scope_begin(&g))

/* public block macros */
#define CT_NO_GRAD CT__NO_GRAD(CT__UNIQUE(ct__guard_))
#define CT_ENABLE_GRAD CT__ENABLE_GRAD(CT__UNIQUE(ct__guard_))
#define CT_INFERENCE_MODE CT__INFERENCE_MODE(CT__UNIQUE(ct__guard_))
#define CT_INCLUDE_KEYS(ks) CT__INCLUDE_KEYS(CT__UNIQUE(ct__guard_), ks)
#define CT_EXCLUDE_KEYS(ks) CT__EXCLUDE_KEYS(CT__UNIQUE(ct__guard_), ks)
#define CT_DEVICE_GUARD(d) CT__DEVICE_GUARD(CT__UNIQUE(ct__guard_), d)
#define CT_SCOPE CT__SCOPE(CT__UNIQUE(ct__guard_))

#endif /* CT_GUARD_H */

/* ---- ctorch/iter.h ---- */
/* ctorch/iter.h - the strided iteration helper every elementwise loop uses.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A ct_iter walks N operands of one iteration shape. Operand 0 is usually
 * the output. Each operand has byte strides over the shape; a broadcast
 * dimension has stride 0 (so a reduction is an iteration whose output has
 * stride 0 along the reduced dimensions). Building an iterator drops size-1
 * dimensions and merges neighbours that are contiguous for every operand, so
 * a contiguous or uniformly broadcast problem becomes one flat loop.
 *
 * A loop function gets the operands' base pointers, their innermost byte
 * strides and a count; it is called once per row of the coalesced shape:
 *     void loop(char **data, const int64_t *strides, int64_t n, void *ctx);
 */
#ifndef CT_ITER_H
#define CT_ITER_H


CT_EXTERN_C_BEGIN

#define CT_ITER_MAX_OPERANDS 4

typedef void (*ct_loop_fn)(char **data, const int64_t *strides, int64_t n, void *ctx);

typedef struct ct_iter {
  int noperands;
  int ndim;                                    /* after coalescing; dims stored innermost first */
  int64_t numel;
  int64_t shape[CT_MAX_DIMS];                  /* shape[0] is the innermost dimension */
  int64_t strides[CT_MAX_DIMS][CT_ITER_MAX_OPERANDS]; /* bytes, per dim per operand */
  char *data[CT_ITER_MAX_OPERANDS];            /* address of each operand's first element */
} ct_iter;

/* Broadcast shapes a and b (numpy rules) into out; returns its rank or -1
 * with CT_ERR_SHAPE naming op. */
CTDEF int ct_broadcast_shapes(const char *op, int na, const int64_t *a, int nb, const int64_t *b, int64_t *out);

/* Run loop over `operands` (each broadcasting to (ndim, shape)): the one call
 * kernels make. When every operand is contiguous in exactly that shape it
 * calls loop once over the flat data without building an iterator. */
CTDEF void ct_iter_foreach(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *operands, int ndim,
                           const int64_t *shape);
/* ct_iter_foreach for loops that are pure per element (operand 0 is the
 * output, written only at the current element; ctx is read-only): from
 * CT_ITER_GRAIN elements up, the work is split into fixed chunks run on
 * ct_get_num_threads() threads (ct_parallel_for), so results do not depend
 * on the thread count. Below the grain, or when operand 0 broadcasts (a
 * reduction), it is exactly ct_iter_foreach. */
#ifndef CT_ITER_GRAIN
#define CT_ITER_GRAIN 32768
#endif
CTDEF void ct_iter_foreach_parallel(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *operands, int ndim,
                                    const int64_t *shape);
/* The general iterator, for kernels that need to inspect the coalesced shape. */
CTDEF ct_status ct_iter_init(ct_iter *it, int noperands, ct_tensor *const *operands, int ndim, const int64_t *shape);
CTDEF void ct_iter_run(const ct_iter *it, ct_loop_fn loop, void *ctx);

CT_EXTERN_C_END
#endif /* CT_ITER_H */

/* ---- ctorch/autograd.h ---- */
/* ctorch/autograd.h - tape autograd: graph nodes, saved tensors, the engine.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Define-by-run. In grad mode, an op called with an input that requires
 * grad runs its autograd kernel (generated from gen/derivatives.spec into
 * ctorch/generated/autograd_functions.h), which records a node: the tensors
 * its derivative formula needs (saved with their version), one edge per
 * differentiable input (to the node that produced it, or to the leaf itself)
 * and the shape and dtype of every input. The outputs point at the node.
 *
 * Note [The tape]
 * Every node gets a sequence number when it is created. A node's inputs were
 * produced before it, so walking the nodes reachable from the roots in
 * decreasing sequence number visits every consumer of a gradient before its
 * producer: gradients are complete when a node runs. That is the whole
 * scheduling algorithm; it is correct for shared subexpressions, multiple
 * outputs and unused branches (nodes that no gradient reached are skipped).
 *
 * Note [Graph lifetime]
 * Nodes are refcounted. A tensor owns its grad_fn; a node owns the nodes its
 * edges point at and the leaves it accumulates into. So the graph lives
 * exactly as long as some tensor that can reach it. Saved outputs are kept
 * as detached aliases (no grad_fn), so a node never owns itself.
 * backward without retain_graph frees every saved tensor of the nodes it ran;
 * running them again is a clear error.
 *
 * Gradients are reduced to each input's shape (summing broadcast dims) and
 * cast to its dtype by the engine, so formulas may return broadcast shapes.
 */
#ifndef CT_AUTOGRAD_H
#define CT_AUTOGRAD_H


CT_EXTERN_C_BEGIN

/* ---- per-tensor autograd state (NULL for tensors autograd never saw) ---- */
typedef struct ct_autograd_meta {
  ct_tensor *grad;         /* .grad: accumulated by backward into leaves (owned) */
  struct ct_node *grad_fn; /* the node that produced this tensor (owned); NULL for leaves */
  int32_t output_nr;       /* which output of grad_fn this tensor is */
  uint8_t is_view;         /* a view of a tensor that requires grad */
  uint32_t view_version;   /* views: the storage version when the view got its history */
} ct_autograd_meta;

/* ---- user API ---- */
/* Leaves only: start (or stop) recording operations on t. */
CTDEF ct_status ct_set_requires_grad(ct_tensor *t, bool requires_grad);
CTDEF bool ct_requires_grad(const ct_tensor *t);
CTDEF bool ct_is_leaf(const ct_tensor *t); /* no grad_fn */
/* t's accumulated gradient, borrowed (NULL if none). */
CTDEF ct_tensor *ct_grad(const ct_tensor *t);
/* Replace (or with NULL, drop) t's .grad; the tensor is retained. */
CTDEF ct_status ct_set_grad(ct_tensor *t, ct_tensor *grad);
/* "MulBackward0", or NULL for leaves and tensors without history. */
CTDEF const char *ct_grad_fn_name(const ct_tensor *t);
/* A new tensor sharing t's data, outside the graph (generated: ct_detach). */

/* backward: accumulate d(outputs)/d(leaf) * grad_outputs into every leaf's
 * .grad. A zeroed descriptor plus the outputs is a plain backward. */
typedef struct ct_backward_desc {
  int num_outputs;
  ct_tensor *const *outputs;      /* roots; each must require grad */
  ct_tensor *const *grad_outputs; /* NULL, or one per output (NULL entries: implicit 1 for 1-element roots) */
  bool retain_graph;              /* keep saved tensors for another backward */
  bool create_graph;              /* record the backward pass: gradients get grad_fns (double backward) */
  bool allow_unused;              /* ct_autograd_grad: an input no gradient reached gives NULL, not an error */
} ct_backward_desc;

CTDEF ct_status ct_backward(ct_tensor *root); /* root must have one element */
CTDEF ct_status ct_backward_ex(ct_tensor *root, ct_tensor *grad_output, bool retain_graph, bool create_graph);
CTDEF ct_status ct_autograd_backward(const ct_backward_desc *desc);
/* torch.autograd.grad: gradients of the outputs with respect to `inputs`,
 * returned as new references in grads[i]; no .grad is touched. */
CTDEF ct_status ct_autograd_grad(const ct_backward_desc *desc, int num_inputs, ct_tensor *const *inputs, ct_tensor **grads);

/* ---- nodes, for generated code and custom derivatives ---- */
typedef struct ct_node ct_node;
typedef struct ct_node_kind {
  const char *name; /* "MulBackward0" */
  /* grads: one per output (never NULL; missing ones are zeros). Set
   * grad_inputs[i] for every i with ct_node_needs_input_grad(node, i);
   * return CT_OK or an error (with a message). Tensors returned from ct_
   * calls inside are released by the engine's scope; it keeps the results. */
  ct_status (*backward)(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs);
  void (*release_saved)(ct_node *node); /* drop saved tensors (after backward without retain_graph) */
} ct_node_kind;

/* Shape, dtype and device of a node input or output. */
typedef struct ct_tensor_meta {
  int8_t ndim, dtype;
  ct_device device;
  int64_t sizes[CT_MAX_DIMS];
} ct_tensor_meta;

typedef struct ct__edge {
  struct ct_node *node; /* producer of the input (owned), or NULL */
  ct_tensor *leaf;      /* the leaf itself (owned) when it has no producer, or NULL */
  int32_t output_nr;
} ct__edge;

struct ct_node {
  int32_t refcount;
  int16_t num_inputs;         /* edges, one per differentiable input */
  int16_t num_outputs;
  uint8_t released;           /* saved tensors freed by a backward without retain_graph */
  uint8_t visited;            /* engine scratch */
  uint32_t size;              /* bytes of this allocation */
  uint64_t seq;               /* creation order: the tape position */
  int64_t topo;               /* engine scratch: index in the current run */
  const ct_node_kind *kind;
  ct__edge *edges;            /* [num_inputs], in this allocation */
  ct_tensor_meta *input_meta; /* [num_inputs] */
  ct_tensor_meta *output_meta;/* [num_outputs] */
};

CTDEF bool ct_node_needs_input_grad(const ct_node *n, int i);

/* A tensor saved for backward: the handle and the version it had. */
typedef struct ct__saved {
  ct_tensor *t;     /* owned; a detached alias for outputs */
  uint32_t version; /* storage version when saved */
  uint8_t is_output;
  uint8_t defined; /* something was saved (t may be NULL for an optional) */
} ct__saved;

/* Shapes saved for formulas (self_sizes) and int lists saved by value. */
typedef struct ct__shape {
  int ndim;
  int64_t sizes[CT_MAX_DIMS];
} ct__shape;
typedef struct ct__saved_ints {
  int64_t n; /* -1: None */
  int64_t v[2 * CT_MAX_DIMS];
} ct__saved_ints;
#define CT__SHAPE(s) (s).ndim, (s).sizes

CT_EXTERN_C_END
#endif /* CT_AUTOGRAD_H */

/* ---- ctorch/ops.h ---- */
/* ctorch/ops.h - reference kernels of the built-in operators, and derivative helpers.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Naming: ct_OP is the functional form (new tensor or NULL), ct_OP_ the
 * in-place form and ct_OP_out the out= form (both return ct_status and bump
 * the written tensor's version). ct_OP_ex takes every schema argument
 * (e.g. add's alpha); the short forms use the schema's defaults.
 * ct_OP_scalar takes a number for `other`, as PyTorch's .Scalar overloads.
 *
 * gen/ops.spec names the kernel of every op at every key; they are here.
 * The reference kernels serve the CPU and Meta keys: every kernel runs
 * its checks and output allocation, and skips the arithmetic when the
 * output lives on the meta device, so meta execution is the same code.
 */
#ifndef CT_OPS_H
#define CT_OPS_H


/* The frontends (ct_add, ct_relu_, ct_sum_out, ...) are generated from
 * gen/ops.spec into ctorch/generated/functions.h; docs/ops.md lists them. */

#endif /* CT_OPS_H */

/* ---- ctorch/ops/unary.h ---- */
/* ctorch/ops/unary.h - reference kernels: pointwise unary ops and activations.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/unary.spec and their derivatives in
 * gen/derivatives/unary.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_UNARY_H
#define CT_OPS_UNARY_H


#endif /* CT_OPS_UNARY_H */

/* ---- ctorch/ops/binary.h ---- */
/* ctorch/ops/binary.h - reference kernels: pointwise binary and ternary ops, comparisons, logical ops, where, clamp.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/binary.spec and their derivatives in
 * gen/derivatives/binary.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_BINARY_H
#define CT_OPS_BINARY_H


#endif /* CT_OPS_BINARY_H */

/* ---- ctorch/ops/reduce.h ---- */
/* ctorch/ops/reduce.h - reference kernels: reductions, scans, sort and topk.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/reduce.spec and their derivatives in
 * gen/derivatives/reduce.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_REDUCE_H
#define CT_OPS_REDUCE_H


#endif /* CT_OPS_REDUCE_H */

/* ---- ctorch/ops/linalg.h ---- */
/* ctorch/ops/linalg.h - reference kernels: dot, mv, mm, bmm, matmul, addmm, baddbmm, outer, linear.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/linalg.spec and their derivatives in
 * gen/derivatives/linalg.spec; the frontends are generated (docs/ops.md).
 *
 * Every product runs through one strided kernel (ct__la_gemm):
 *   C[b] = alpha * (A[b] @ B[b]) + beta * C[b]     (beta ignored when 0)
 * with each operand read through its own strides (no copies of transposed
 * or expanded operands), in i-k-j order over blocks of columns so that the
 * inner loop walks rows of B and the accumulators stay in L1. Accumulation
 * is in float for float32/float16/bfloat16, double for float64 and wrapping
 * 64-bit integers for the integer dtypes (PyTorch's CPU allows integer
 * products; bool is refused as in PyTorch). A faster backend (BLIS) may
 * register its own kernels for the same schemas.
 *
 * matmul, outer and linear are CompositeImplicitAutograd, as in PyTorch:
 * matmul picks dot / mv / mm / bmm with PyTorch's shape rules (folding the
 * batch of an N-D operand into mm/mv when that needs no copy).
 */
#ifndef CT_OPS_LINALG_H
#define CT_OPS_LINALG_H


#endif /* CT_OPS_LINALG_H */

/* ---- ctorch/ops/shape.h ---- */
/* ctorch/ops/shape.h - reference kernels: joining, splitting, reordering and indexing ops.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/shape.spec and their derivatives in
 * gen/derivatives/shape.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_SHAPE_H
#define CT_OPS_SHAPE_H


#endif /* CT_OPS_SHAPE_H */

/* ---- ctorch/ops/nn.h ---- */
/* ctorch/ops/nn.h - reference kernels: softmax family, losses, normalisation, dropout.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/nn.spec and their derivatives in
 * gen/derivatives/nn.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_NN_H
#define CT_OPS_NN_H


#endif /* CT_OPS_NN_H */

/* ---- ctorch/ops/conv.h ---- */
/* ctorch/ops/conv.h - reference kernels: convolution, pooling, attention.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/conv.spec and their derivatives in
 * gen/derivatives/conv.spec; the frontends are generated (docs/ops.md).
 */
#ifndef CT_OPS_CONV_H
#define CT_OPS_CONV_H


#endif /* CT_OPS_CONV_H */

/* ---- ctorch/ops/random.h ---- */
/* ctorch/ops/random.h - reference kernels: Philox generators, factories and random sampling.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The ops are declared in gen/ops/random.spec and their derivatives in
 * gen/derivatives/random.spec; the frontends are generated (docs/ops.md).
 *
 * Note [Generators]
 * -----------------
 * A ct_generator is (seed, offset) for a counter-based Philox4x32-10
 * (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", the
 * Random123 reference; PyTorch's CUDA generator is the same design):
 *   - key      = (seed & 0xffffffff, seed >> 32)
 *   - block b  = philox4x32_10(counter = (b & 0xffffffff, b >> 32, 0, 0), key):
 *                four 32-bit words
 *   - offset   = the next unused block. Each random op reserves the blocks
 *                it needs, ceil(W / 4) for W words, starting at the current
 *                offset, and advances the offset past them; word j of the
 *                op is word j % 4 of block (offset + j / 4).
 * Elements are numbered in logical (row-major) order whatever the strides,
 * and each op reads a fixed number of words per element:
 *   u24(w)     = (w >> 8) * 2^-24                            in [0, 1)
 *   u53(w0,w1) = (((uint64)w0 << 32 | w1) >> 11) * 2^-53      in [0, 1)
 *   uniform_ / rand     float32, float16, bfloat16: element i, word i: u24;
 *                       float64: words 2i, 2i+1: u53. value = fma(to - from,
 *                       u, from) in double, rounded to the dtype; a value
 *                       that rounds up to `to` becomes `from` (PyTorch CUDA).
 *   normal_ / randn     elements 2p and 2p+1 use block p (words 4p..4p+3):
 *                       u1 = u53(w0, w1), u2 = u53(w2, w3),
 *                       r = sqrt(-2 log(1 - u1)), t = 2 pi u2,
 *                       element 2p = fma(std, r cos t, mean), 2p+1 with sin.
 *   random_ / randint   words 2i, 2i+1 as x = w0 << 32 | w1: from + x mod (to - from).
 *   bernoulli, dropout  words 2i, 2i+1: u53 < p gives 1 (dropout keeps with p' = 1 - p).
 *   randperm(n)         Fisher-Yates: step i (0 <= i < n) swaps r[i] and
 *                       r[i + x mod (n - i)], x from words 2i, 2i+1.
 * So the same (seed, offset) gives the same numbers on every run, thread
 * count and platform: everything but normal is integer arithmetic and
 * correctly rounded IEEE operations; normal also uses log, cos and sin,
 * whose last bit in float64 depends on the C library (glibc's are within an
 * ulp and the same on every x86-64/AArch64 machine; float32 results are
 * rounded from those). A device's backend may compute the same streams.
 *
 * Thread safety: a generator's state is read and advanced under ctorch's
 * lock, so threads sharing a generator get disjoint counter ranges (in an
 * unspecified order: for reproducible streams give each thread its own
 * generator, or order the calls). Values are computed outside the lock.
 * ct_generator_free must not race with uses of the generator.
 *
 * Factories without a Tensor argument (rand, randn, randint, randperm, eye,
 * linspace) cannot be dispatched yet (the key set of a call comes from its
 * tensors): their out= forms are dispatched ops, and the functional forms
 * below allocate on the generator's device (the CPU by default) and call
 * them.
 */
#ifndef CT_OPS_RANDOM_H
#define CT_OPS_RANDOM_H


CT_EXTERN_C_BEGIN

#define CT_DEFAULT_SEED 67280421310721ull /* PyTorch's default seed */

/* ---- Philox4x32-10 ---- */
/* One block: out = philox4x32_10(ctr, key). */
CTDEF void ct_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* ---- generators ---- */
/* A new generator for `device` (seed CT_DEFAULT_SEED, offset 0); NULL on error. */
CTDEF ct_generator *ct_generator_new(ct_device device);
CTDEF void ct_generator_free(ct_generator *g); /* NULL is fine; default generators are never freed */
/* The default generator of a device (used when an op's generator is NULL). */
CTDEF ct_generator *ct_default_generator(ct_device device);
/* Seed a generator and rewind its offset to 0 (torch.Generator.manual_seed). */
CTDEF ct_status ct_manual_seed(ct_generator *g, uint64_t seed);
CTDEF uint64_t ct_generator_seed(const ct_generator *g);
/* The offset, in 128-bit Philox blocks (see Note [Generators]). */
CTDEF uint64_t ct_generator_offset(const ct_generator *g);
CTDEF ct_status ct_generator_set_offset(ct_generator *g, uint64_t offset);
CTDEF ct_device ct_generator_device(const ct_generator *g);
/* Seed every default generator (torch.manual_seed). */
CTDEF void ct_manual_seed_all(uint64_t seed);
/* Seed every default generator from a non-deterministic source and return the seed (torch.seed). */
CTDEF uint64_t ct_seed(void);

/* ---- factories (see the note above); NULL generator = the CPU's default ----
 * float32 unless dtype says otherwise (CT_DTYPE_NONE); randint and randperm
 * default to int64. The result is on the generator's device. */
CTDEF ct_tensor *ct_rand(int size_len, const int64_t *size);
CTDEF ct_tensor *ct_rand_ex(int size_len, const int64_t *size, ct_generator *generator, ct_dtype dtype);
CTDEF ct_tensor *ct_randn(int size_len, const int64_t *size);
CTDEF ct_tensor *ct_randn_ex(int size_len, const int64_t *size, ct_generator *generator, ct_dtype dtype);
/* integers in [low, high) */
CTDEF ct_tensor *ct_randint(int64_t low, int64_t high, int size_len, const int64_t *size);
CTDEF ct_tensor *ct_randint_ex(int64_t low, int64_t high, int size_len, const int64_t *size, ct_generator *generator,
                               ct_dtype dtype);
CTDEF ct_tensor *ct_randperm(int64_t n);
CTDEF ct_tensor *ct_randperm_ex(int64_t n, ct_generator *generator, ct_dtype dtype);
/* n x n identity; ct_eye_m: n x m */
CTDEF ct_tensor *ct_eye(int64_t n);
CTDEF ct_tensor *ct_eye_ex(int64_t n, ct_dtype dtype);
CTDEF ct_tensor *ct_eye_m(int64_t n, int64_t m);
CTDEF ct_tensor *ct_eye_m_ex(int64_t n, int64_t m, ct_dtype dtype);
/* steps values from start to end inclusive (torch.linspace) */
CTDEF ct_tensor *ct_linspace(ct_scalar start, ct_scalar end, int64_t steps);
CTDEF ct_tensor *ct_linspace_ex(ct_scalar start, ct_scalar end, int64_t steps, ct_dtype dtype);

CT_EXTERN_C_END
#endif /* CT_OPS_RANDOM_H */

/* ---- ctorch/generated/functions.h ---- */
/* ctorch/generated/functions.h - GENERATED by gen/ctgen.c from gen/ops.spec; do not edit (make gen).
 * Typed frontends for every built-in op. Each frontend checks its tensor
 * arguments, computes the call's key set and calls the op's dispatch
 * function, which picks the kernel (typed, or boxed through the adapter).
 * Autograd kernels redispatch through the same functions with the keys
 * below autograd. See docs/ops.md for the list with schemas. */
#ifndef CT_GENERATED_FUNCTIONS_H
#define CT_GENERATED_FUNCTIONS_H


CT_EXTERN_C_BEGIN

/* add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 * self + alpha * other */
CTDEF ct_tensor *ct_add(ct_tensor *self, ct_tensor *other);
CTDEF ct_tensor *ct_add_ex(ct_tensor *self, ct_tensor *other, ct_scalar alpha);
/* add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!) */
CTDEF ct_status ct_add_(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_add_ex_(ct_tensor *self, ct_tensor *other, ct_scalar alpha);
/* add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_add_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_add_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *other, ct_scalar alpha);
/* add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor */
CTDEF ct_tensor *ct_add_scalar(ct_tensor *self, ct_scalar other);
CTDEF ct_tensor *ct_add_scalar_ex(ct_tensor *self, ct_scalar other, ct_scalar alpha);
/* add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!) */
CTDEF ct_status ct_add_scalar_(ct_tensor *self, ct_scalar other);
CTDEF ct_status ct_add_scalar_ex_(ct_tensor *self, ct_scalar other, ct_scalar alpha);
/* sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
 * self - alpha * other */
CTDEF ct_tensor *ct_sub(ct_tensor *self, ct_tensor *other);
CTDEF ct_tensor *ct_sub_ex(ct_tensor *self, ct_tensor *other, ct_scalar alpha);
/* sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!) */
CTDEF ct_status ct_sub_(ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_sub_ex_(ct_tensor *self, ct_tensor *other, ct_scalar alpha);
/* sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_sub_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
CTDEF ct_status ct_sub_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *other, ct_scalar alpha);
/* sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor */
CTDEF ct_tensor *ct_sub_scalar(ct_tensor *self, ct_scalar other);
CTDEF ct_tensor *ct_sub_scalar_ex(ct_tensor *self, ct_scalar other, ct_scalar alpha);
/* sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!) */
CTDEF ct_status ct_sub_scalar_(ct_tensor *self, ct_scalar other);
CTDEF ct_status ct_sub_scalar_ex_(ct_tensor *self, ct_scalar other, ct_scalar alpha);
/* mul.Tensor(Tensor self, Tensor other) -> Tensor */
CTDEF ct_tensor *ct_mul(ct_tensor *self, ct_tensor *other);
/* mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) */
CTDEF ct_status ct_mul_(ct_tensor *self, ct_tensor *other);
/* mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_mul_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
/* mul.Scalar(Tensor self, Scalar other) -> Tensor */
CTDEF ct_tensor *ct_mul_scalar(ct_tensor *self, ct_scalar other);
/* mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!) */
CTDEF ct_status ct_mul_scalar_(ct_tensor *self, ct_scalar other);
/* div.Tensor(Tensor self, Tensor other) -> Tensor
 * true division: integers give float32 */
CTDEF ct_tensor *ct_div(ct_tensor *self, ct_tensor *other);
/* div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) */
CTDEF ct_status ct_div_(ct_tensor *self, ct_tensor *other);
/* div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_div_out(ct_tensor *out, ct_tensor *self, ct_tensor *other);
/* div.Scalar(Tensor self, Scalar other) -> Tensor */
CTDEF ct_tensor *ct_div_scalar(ct_tensor *self, ct_scalar other);
/* div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!) */
CTDEF ct_status ct_div_scalar_(ct_tensor *self, ct_scalar other);
/* neg(Tensor self) -> Tensor */
CTDEF ct_tensor *ct_neg(ct_tensor *self);
/* neg_(Tensor(a!) self) -> Tensor(a!) */
CTDEF ct_status ct_neg_(ct_tensor *self);
/* neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_neg_out(ct_tensor *out, ct_tensor *self);
/* relu(Tensor self) -> Tensor */
CTDEF ct_tensor *ct_relu(ct_tensor *self);
/* relu_(Tensor(a!) self) -> Tensor(a!) */
CTDEF ct_status ct_relu_(ct_tensor *self);
/* threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor
 * grad_output where self > threshold, else 0 (relu's derivative) */
CTDEF ct_tensor *ct_threshold_backward(ct_tensor *grad_output, ct_tensor *self, ct_scalar threshold);
/* exp(Tensor self) -> Tensor
 * integers give float32 */
CTDEF ct_tensor *ct_exp(ct_tensor *self);
/* exp_(Tensor(a!) self) -> Tensor(a!) */
CTDEF ct_status ct_exp_(ct_tensor *self);
/* exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_exp_out(ct_tensor *out, ct_tensor *self);
/* tanh(Tensor self) -> Tensor */
CTDEF ct_tensor *ct_tanh(ct_tensor *self);
/* tanh_(Tensor(a!) self) -> Tensor(a!) */
CTDEF ct_status ct_tanh_(ct_tensor *self);
/* tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_tanh_out(ct_tensor *out, ct_tensor *self);
/* sigmoid(Tensor self) -> Tensor */
CTDEF ct_tensor *ct_sigmoid(ct_tensor *self);
/* sigmoid_(Tensor(a!) self) -> Tensor(a!) */
CTDEF ct_status ct_sigmoid_(ct_tensor *self);
/* sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_sigmoid_out(ct_tensor *out, ct_tensor *self);
/* sum(Tensor self, *, ScalarType? dtype=None) -> Tensor */
CTDEF ct_tensor *ct_sum(ct_tensor *self);
CTDEF ct_tensor *ct_sum_ex(ct_tensor *self, ct_dtype dtype);
/* sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor
 * an empty dim list reduces every dim */
CTDEF ct_tensor *ct_sum_dim(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim);
CTDEF ct_tensor *ct_sum_dim_ex(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim, ct_dtype dtype);
/* sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_sum_out(ct_tensor *out, ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim);
CTDEF ct_status ct_sum_out_ex(ct_tensor *out, ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim, ct_dtype dtype);
/* mean(Tensor self, *, ScalarType? dtype=None) -> Tensor
 * floating dtypes only, as in PyTorch */
CTDEF ct_tensor *ct_mean(ct_tensor *self);
CTDEF ct_tensor *ct_mean_ex(ct_tensor *self, ct_dtype dtype);
/* mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor */
CTDEF ct_tensor *ct_mean_dim(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim);
CTDEF ct_tensor *ct_mean_dim_ex(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim, ct_dtype dtype);
/* copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)
 * any strides and dtypes; src broadcasts to self */
CTDEF ct_status ct_copy_(ct_tensor *self, ct_tensor *src);
CTDEF ct_status ct_copy_ex_(ct_tensor *self, ct_tensor *src, bool non_blocking);
/* fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!) */
CTDEF ct_status ct_fill_(ct_tensor *self, ct_scalar value);
/* clone(Tensor self) -> Tensor
 * a contiguous copy */
CTDEF ct_tensor *ct_clone(ct_tensor *self);
/* contiguous(Tensor(a) self) -> Tensor(a)
 * self itself (a new reference) when already contiguous */
CTDEF ct_tensor *ct_contiguous(ct_tensor *self);
/* _to_copy(Tensor self, *, ScalarType? dtype=None) -> Tensor */
CTDEF ct_tensor *ct_to_copy(ct_tensor *self);
CTDEF ct_tensor *ct_to_copy_ex(ct_tensor *self, ct_dtype dtype);
/* to.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)
 * self itself (a new reference) when the dtype already matches */
CTDEF ct_tensor *ct_to_dtype(ct_tensor *self, ct_dtype dtype);
/* view(Tensor(a) self, int[] size) -> Tensor(a)
 * one size may be -1 */
CTDEF ct_tensor *ct_view(ct_tensor *self, int size_len, const int64_t *size);
/* reshape(Tensor(a) self, int[] shape) -> Tensor(a)
 * a view when the strides allow, else a copy */
CTDEF ct_tensor *ct_reshape(ct_tensor *self, int shape_len, const int64_t *shape);
/* transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a) */
CTDEF ct_tensor *ct_transpose(ct_tensor *self, int64_t dim0, int64_t dim1);
/* t(Tensor(a) self) -> Tensor(a)
 * transpose of a tensor of rank <= 2 */
CTDEF ct_tensor *ct_t(ct_tensor *self);
/* permute(Tensor(a) self, int[] dims) -> Tensor(a) */
CTDEF ct_tensor *ct_permute(ct_tensor *self, int dims_len, const int64_t *dims);
/* expand(Tensor(a) self, int[] size, *, bool implicit=False) -> Tensor(a)
 * -1 keeps a size */
CTDEF ct_tensor *ct_expand(ct_tensor *self, int size_len, const int64_t *size);
CTDEF ct_tensor *ct_expand_ex(ct_tensor *self, int size_len, const int64_t *size, bool implicit);
/* broadcast_to(Tensor(a) self, int[] size) -> Tensor(a) */
CTDEF ct_tensor *ct_broadcast_to(ct_tensor *self, int size_len, const int64_t *size);
/* unsqueeze(Tensor(a) self, int dim) -> Tensor(a) */
CTDEF ct_tensor *ct_unsqueeze(ct_tensor *self, int64_t dim);
/* squeeze(Tensor(a) self) -> Tensor(a)
 * drops every size-1 dim */
CTDEF ct_tensor *ct_squeeze(ct_tensor *self);
/* squeeze.dim(Tensor(a) self, int dim) -> Tensor(a) */
CTDEF ct_tensor *ct_squeeze_dim(ct_tensor *self, int64_t dim);
/* flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a) */
CTDEF ct_tensor *ct_flatten(ct_tensor *self, int64_t start_dim, int64_t end_dim);
/* select.int(Tensor(a) self, int dim, int index) -> Tensor(a) */
CTDEF ct_tensor *ct_select(ct_tensor *self, int64_t dim, int64_t index);
/* select_backward(Tensor grad_output, int[] input_sizes, int dim, int index) -> Tensor
 * zeros of input_sizes with grad_output at select(dim, index) */
CTDEF ct_tensor *ct_select_backward(ct_tensor *grad_output, int input_sizes_len, const int64_t *input_sizes, int64_t dim, int64_t index);
/* slice.Tensor(Tensor(a) self, int dim=0, int start=0, int end=9223372036854775807, int step=1) -> Tensor(a)
 * start/end are clamped like Python slices; step > 0 */
CTDEF ct_tensor *ct_slice(ct_tensor *self, int64_t dim, int64_t start, int64_t end, int64_t step);
/* slice_backward(Tensor grad_output, int[] input_sizes, int dim, int start, int end, int step) -> Tensor */
CTDEF ct_tensor *ct_slice_backward(ct_tensor *grad_output, int input_sizes_len, const int64_t *input_sizes, int64_t dim, int64_t start, int64_t end, int64_t step);
/* narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a) */
CTDEF ct_tensor *ct_narrow(ct_tensor *self, int64_t dim, int64_t start, int64_t length);
/* as_strided(Tensor(a) self, int[] size, int[] stride, int storage_offset=0) -> Tensor(a)
 * bounds-checked against the storage */
CTDEF ct_tensor *ct_as_strided(ct_tensor *self, int size_len, const int64_t *size, int stride_len, const int64_t *stride, int64_t storage_offset);
/* alias(Tensor(a) self) -> Tensor(a)
 * a new handle on the same view */
CTDEF ct_tensor *ct_alias(ct_tensor *self);
/* detach(Tensor(a) self) -> Tensor(a)
 * shares self's data, outside the autograd graph */
CTDEF ct_tensor *ct_detach(ct_tensor *self);
/* dot(Tensor self, Tensor tensor) -> Tensor
 * inner product of two 1-D tensors of one dtype (0-dim result) */
CTDEF ct_tensor *ct_dot(ct_tensor *self, ct_tensor *tensor);
/* dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_dot_out(ct_tensor *out, ct_tensor *self, ct_tensor *tensor);
/* mv(Tensor self, Tensor vec) -> Tensor
 * matrix [n, m] times vector [m] */
CTDEF ct_tensor *ct_mv(ct_tensor *self, ct_tensor *vec);
/* mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_mv_out(ct_tensor *out, ct_tensor *self, ct_tensor *vec);
/* mm(Tensor self, Tensor mat2) -> Tensor
 * matrix product of [n, k] and [k, m]; both of one dtype */
CTDEF ct_tensor *ct_mm(ct_tensor *self, ct_tensor *mat2);
/* mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_mm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat2);
/* bmm(Tensor self, Tensor mat2) -> Tensor
 * batched matrix product of [b, n, k] and [b, k, m] */
CTDEF ct_tensor *ct_bmm(ct_tensor *self, ct_tensor *mat2);
/* bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_bmm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat2);
/* addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
 * beta * self + alpha * (mat1 @ mat2); self broadcasts; beta = 0 ignores self (even NaN) */
CTDEF ct_tensor *ct_addmm(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2);
CTDEF ct_tensor *ct_addmm_ex(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha);
/* addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!) */
CTDEF ct_status ct_addmm_(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2);
CTDEF ct_status ct_addmm_ex_(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha);
/* addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_addmm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2);
CTDEF ct_status ct_addmm_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha);
/* baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor
 * beta * self + alpha * bmm(batch1, batch2); self broadcasts; beta = 0 ignores self */
CTDEF ct_tensor *ct_baddbmm(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2);
CTDEF ct_tensor *ct_baddbmm_ex(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha);
/* baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!) */
CTDEF ct_status ct_baddbmm_(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2);
CTDEF ct_status ct_baddbmm_ex_(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha);
/* baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_baddbmm_out(ct_tensor *out, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2);
CTDEF ct_status ct_baddbmm_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha);
/* outer(Tensor self, Tensor vec2) -> Tensor
 * self[i] * vec2[j] (promotes like mul) */
CTDEF ct_tensor *ct_outer(ct_tensor *self, ct_tensor *vec2);
/* matmul(Tensor self, Tensor other) -> Tensor
 * torch.matmul: dot, mv, vector-matrix, mm, and batched with broadcast batch dims (1-D operands get a 1 added and removed) */
CTDEF ct_tensor *ct_matmul(ct_tensor *self, ct_tensor *other);
/* linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor
 * input @ weight.t() + bias (addmm when input is 2-D and bias is given) */
CTDEF ct_tensor *ct_linear(ct_tensor *input, ct_tensor *weight, ct_tensor *bias);
/* uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)
 * uniform in [from, to); floating dtypes */
CTDEF ct_status ct_uniform_(ct_tensor *self, double from, double to);
CTDEF ct_status ct_uniform_ex_(ct_tensor *self, double from, double to, ct_generator *generator);
/* normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)
 * normal(mean, std) by Box-Muller; floating dtypes */
CTDEF ct_status ct_normal_(ct_tensor *self, double mean, double std);
CTDEF ct_status ct_normal_ex_(ct_tensor *self, double mean, double std, ct_generator *generator);
/* random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)
 * integers in [from, to); to None: up to the dtype's largest (exact) integer */
CTDEF ct_status ct_random_(ct_tensor *self, int64_t from, int64_t to);
CTDEF ct_status ct_random_ex_(ct_tensor *self, int64_t from, int64_t to, ct_generator *generator);
/* bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)
 * 1 with probability p, else 0, in self's dtype */
CTDEF ct_status ct_bernoulli_float_(ct_tensor *self, double p);
CTDEF ct_status ct_bernoulli_float_ex_(ct_tensor *self, double p, ct_generator *generator);
/* bernoulli(Tensor self, *, Generator? generator=None) -> Tensor
 * 1 with probability self[i], else 0 (self's dtype; probabilities must be in [0, 1]) */
CTDEF ct_tensor *ct_bernoulli(ct_tensor *self);
CTDEF ct_tensor *ct_bernoulli_ex(ct_tensor *self, ct_generator *generator);
/* bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor
 * self-shaped: 1 with probability p */
CTDEF ct_tensor *ct_bernoulli_p(ct_tensor *self, double p);
CTDEF ct_tensor *ct_bernoulli_p_ex(ct_tensor *self, double p, ct_generator *generator);
/* rand.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)
 * out resized to size, uniform in [0, 1); ct_rand(_ex) allocates (float32 by default) */
CTDEF ct_status ct_rand_out(ct_tensor *out, int size_len, const int64_t *size, ct_generator *generator);
/* randn.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)
 * out resized to size, standard normal; ct_randn(_ex) allocates */
CTDEF ct_status ct_randn_out(ct_tensor *out, int size_len, const int64_t *size, ct_generator *generator);
/* randint.low_generator_out(int low, int high, int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)
 * out resized to size, integers in [low, high); ct_randint(_ex) allocates (int64 by default) */
CTDEF ct_status ct_randint_out(ct_tensor *out, int64_t low, int64_t high, int size_len, const int64_t *size, ct_generator *generator);
/* randperm.generator_out(int n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)
 * a random permutation of 0..n-1 (Fisher-Yates); ct_randperm(_ex) allocates (int64 by default) */
CTDEF ct_status ct_randperm_out(ct_tensor *out, int64_t n, ct_generator *generator);
/* eye.out(int n, *, Tensor(a!) out) -> Tensor(a!)
 * n x n identity; ct_eye(_ex) allocates (float32 by default) */
CTDEF ct_status ct_eye_out(ct_tensor *out, int64_t n);
/* eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!) */
CTDEF ct_status ct_eye_m_out(ct_tensor *out, int64_t n, int64_t m);
/* linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)
 * steps values from start to end inclusive; ct_linspace(_ex) allocates (float32 by default) */
CTDEF ct_status ct_linspace_out(ct_tensor *out, ct_scalar start, ct_scalar end, int64_t steps);
/* native_dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> (Tensor output, Tensor mask)
 * (input * mask / (1 - p), mask) in training (mask: bool, kept elements); (copy of input, all true) in evaluation */
CTDEF ct_tensor *ct_native_dropout(ct_tensor *input, double p, bool train, ct_tensor **mask);
CTDEF ct_tensor *ct_native_dropout_ex(ct_tensor *input, double p, bool train, ct_generator *generator, ct_tensor **mask);
/* native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor
 * grad_output * mask * scale */
CTDEF ct_tensor *ct_native_dropout_backward(ct_tensor *grad_output, ct_tensor *mask, double scale);
/* dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> Tensor
 * training: zero each element with probability p and scale the rest by 1/(1-p) (p = 1: zeros); evaluation: input itself */
CTDEF ct_tensor *ct_dropout(ct_tensor *input, double p, bool train);
CTDEF ct_tensor *ct_dropout_ex(ct_tensor *input, double p, bool train, ct_generator *generator);

CT_EXTERN_C_END
#endif /* CT_GENERATED_FUNCTIONS_H */

/* ---- ctorch/generated/autograd_functions.h ---- */
/* ctorch/generated/autograd_functions.h - GENERATED by gen/ctgen.c from gen/ops.spec and
 * gen/derivatives.spec; do not edit (make gen).
 * Per differentiable op: a node struct holding what its formulas need, the
 * backward function (the formulas, written with ct ops, so they are
 * differentiable themselves), and the autograd kernel that records the node
 * and redispatches below autograd. See ctorch/autograd.h for the engine. */
#ifndef CT_GENERATED_AUTOGRAD_FUNCTIONS_H
#define CT_GENERATED_AUTOGRAD_FUNCTIONS_H
#endif

/* ---- ctorch/generated/registration.h ---- */
/* ctorch/generated/registration.h - GENERATED by gen/ctgen.c from gen/ops.spec; do not edit (make gen).
 * The boxing adapter of every C signature, and the tables ct__init feeds to
 * the registry: schemas, kernels per key, autograd kernels. */
#ifndef CT_GENERATED_REGISTRATION_H
#define CT_GENERATED_REGISTRATION_H
#endif

/* ---- ctorch/init.h ---- */
/* ctorch/init.h - registers the built-in operators, once, on first use.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * Everything comes from the generated tables (ctorch/generated/
 * registration.h): adapters, schemas, kernels per key, autograd kernels.
 * Keys without a functionality yet fall through for every op. Ops without
 * an autograd kernel (users' ops registered with ct_impl only) get the
 * autograd fallback: it records a node that fails with a clear error if a
 * backward reaches it, as PyTorch's autogradNotImplementedFallback.
 */
#ifndef CT_INIT_H
#define CT_INIT_H
#endif

/* ---- ctorch/custom.h ---- */
/* ctorch/custom.h - users' own operators: CT_DEFINE_OP.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * From your own .c file (C11), one definition gives an op that behaves like
 * a built-in: a schema in the registry, a typed frontend, kernels per
 * backend, a meta (shape) function, and optionally a derivative. It then
 * works with no-grad, autograd, boxed calls and fallbacks, the meta device
 * and every backend it has a kernel for; ct_opcheck checks it.
 *
 *   // out = self * factor
 *   static ct_tensor *scale_cpu(ct_keyset ks, ct_tensor *self, double factor) { ... }
 *   static ct_tensor *scale_meta(ct_keyset ks, ct_tensor *self, double factor) {
 *     return ct_empty_like(self);               // self is a meta tensor: shape only
 *   }
 *   static ct_status scale_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
 *     grad_inputs[0] = ct_mul_scalar(c->grad, ct_float(c->args[1].v.d));
 *     return grad_inputs[0] ? CT_OK : ct_last_error();
 *   }
 *   CT_DEFINE_OP(my_scale, "mylib::scale(Tensor self, float factor) -> Tensor",
 *                CT_PARAMS(ct_tensor *, self, double, factor),
 *                .cpu = CT_FN(scale_cpu), .meta = CT_FN(scale_meta), .backward = scale_backward)
 *
 *   ct_tensor *y = my_scale(x, 2.0);           // the typed frontend
 *
 * - Kernels have the op's C signature: ct_tensor *fn(ct_keyset, params...),
 *   cast with CT_FN. Parameter types: ct_tensor * (Tensor), double (float),
 *   int64_t or int (int), bool, ct_scalar (Scalar); up to 6. (ct_dtype is
 *   an int to _Generic: ScalarType arguments need ct_define_op directly.)
 * - .composite is one kernel for every backend (CompositeExplicitAutograd).
 * - The derivative receives the call's arguments (tensors saved and checked
 *   for in-place changes), the output and its gradient, and fills
 *   grad_inputs[i] for the i-th Tensor parameter when ct_backward_needs(c, i).
 *   Write it with ct ops and double backward works too. Without one, using
 *   the op on tensors that require grad records a node that reports the
 *   missing derivative if a backward reaches it.
 * - Registration happens before main() (GCC/Clang constructor) and again,
 *   idempotently, on the first call of the frontend. Elsewhere call
 *   NAME_register() once yourself. CT_DEFINE_OP needs C11 (_Generic); from
 *   C++ use ct_define_op directly.
 */
#ifndef CT_CUSTOM_H
#define CT_CUSTOM_H


CT_EXTERN_C_BEGIN

typedef struct ct_backward_ctx {
  const ct_op *op;
  int num_args;
  const ct_value *args; /* the call's arguments, in schema order */
  ct_tensor *output;    /* the op's result */
  ct_tensor *grad;      /* gradient of the output */
  const ct_node *node;
} ct_backward_ctx;
typedef ct_status (*ct_backward_fn)(const ct_backward_ctx *ctx, ct_tensor **grad_inputs);
/* Does the i-th Tensor argument need a gradient? */
CTDEF bool ct_backward_needs(const ct_backward_ctx *ctx, int i);

/* An op's description; zero fields are absent. */
typedef struct ct_op_def {
  const char *schema;       /* "ns::name(Tensor self, float factor) -> Tensor" */
  ct_unboxed_fn cpu, cuda, meta;
  ct_unboxed_fn composite;  /* CompositeExplicitAutograd: every backend */
  ct_backward_fn backward;  /* derivative; NULL: not differentiable */
} ct_op_def;

/* Registers the op (idempotent for the same schema). `adapter` boxes calls
 * to the typed kernels (CT_DEFINE_OP writes it); NULL if one is already
 * registered for the signature. Returns the op or NULL. */
CTDEF ct_op *ct_define_op(const ct_op_def *def, ct_boxed_fn adapter);
/* Calls an op with boxed arguments and returns its single tensor result
 * (tracked like any frontend's result). */
CTDEF ct_tensor *ct_call_op(const ct_op *op, int nargs, const ct_value *args);

CT_EXTERN_C_END

/* ---- CT_DEFINE_OP (C11) ---- */
#ifndef __cplusplus
#define CT_PARAMS(...) (__VA_ARGS__)
#define CT__PN(...) CT__PN_(__VA_ARGS__, 6, x, 5, x, 4, x, 3, x, 2, x, 1, x, 0)
#define CT__PN_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define CT__STRIP(...) __VA_ARGS__
#define CT__APPLY(m, args) m args
#define CT__PCAT(a, b) CT__PCAT_(a, b)
#define CT__PCAT_(a, b) a##b
/* T name pairs -> "T name, ..." */
#define CT__DECL1(T, a) T a
#define CT__DECL2(T, a, ...) T a, CT__DECL1(__VA_ARGS__)
#define CT__DECL3(T, a, ...) T a, CT__DECL2(__VA_ARGS__)
#define CT__DECL4(T, a, ...) T a, CT__DECL3(__VA_ARGS__)
#define CT__DECL5(T, a, ...) T a, CT__DECL4(__VA_ARGS__)
#define CT__DECL6(T, a, ...) T a, CT__DECL5(__VA_ARGS__)
/* -> ", T, ..." (the kernel's parameter types after ct_keyset) */
#define CT__TYPES1(T, a) , T
#define CT__TYPES2(T, a, ...) , T CT__TYPES1(__VA_ARGS__)
#define CT__TYPES3(T, a, ...) , T CT__TYPES2(__VA_ARGS__)
#define CT__TYPES4(T, a, ...) , T CT__TYPES3(__VA_ARGS__)
#define CT__TYPES5(T, a, ...) , T CT__TYPES4(__VA_ARGS__)
#define CT__TYPES6(T, a, ...) , T CT__TYPES5(__VA_ARGS__)
/* -> "ct_box(a), ..." */
#define CT__BOX1(T, a) ct_box(a)
#define CT__BOX2(T, a, ...) ct_box(a), CT__BOX1(__VA_ARGS__)
#define CT__BOX3(T, a, ...) ct_box(a), CT__BOX2(__VA_ARGS__)
#define CT__BOX4(T, a, ...) ct_box(a), CT__BOX3(__VA_ARGS__)
#define CT__BOX5(T, a, ...) ct_box(a), CT__BOX4(__VA_ARGS__)
#define CT__BOX6(T, a, ...) ct_box(a), CT__BOX5(__VA_ARGS__)
/* -> ", unbox(T, v[i]), ..." */
#define CT__UNBOX1(i, T, a) , ct_unbox(T, &v_[i])
#define CT__UNBOX2(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX1(i + 1, __VA_ARGS__)
#define CT__UNBOX3(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX2(i + 1, __VA_ARGS__)
#define CT__UNBOX4(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX3(i + 1, __VA_ARGS__)
#define CT__UNBOX5(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX4(i + 1, __VA_ARGS__)
#define CT__UNBOX6(i, T, a, ...) , ct_unbox(T, &v_[i]) CT__UNBOX5(i + 1, __VA_ARGS__)

static inline ct_value ct__box_int(int i) { return ct_value_int(i); }
/* A C value as a boxed value, by its type. */
#define ct_box(x)                                                                                         \
  _Generic((x), ct_tensor *: ct_value_tensor, double: ct_value_double, float: ct_value_double,            \
           int64_t: ct_value_int, int: ct__box_int, bool: ct_value_bool, ct_scalar: ct_value_scalar)(x)
static inline ct_tensor *ct__unbox_t(const ct_value *v) { return v->tag == CT_VALUE_TENSOR ? v->v.tensor : NULL; }
static inline double ct__unbox_d(const ct_value *v) { return v->v.d; }
static inline int64_t ct__unbox_i(const ct_value *v) { return v->v.i; }
static inline bool ct__unbox_b(const ct_value *v) { return v->v.b; }
static inline ct_scalar ct__unbox_s(const ct_value *v) { return v->v.scalar; }
/* A boxed value as C type T. */
#define ct_unbox(T, v)                                                                                    \
  _Generic((T){0}, ct_tensor *: ct__unbox_t, double: ct__unbox_d, int64_t: ct__unbox_i, int: ct__unbox_i,   \
           bool: ct__unbox_b, ct_scalar: ct__unbox_s)(v)

#if defined(__GNUC__) || defined(__clang__)
#define CT__CONSTRUCTOR __attribute__((constructor))
#else
#define CT__CONSTRUCTOR
#endif

#define CT_DEFINE_OP(name, schema_text, params, ...) \
  CT__DEFINE_OP(name, schema_text, CT__APPLY(CT__PN, params), CT__STRIP params, __VA_ARGS__)
#define CT__DEFINE_OP(name, schema_text, n, plist, ...) CT__DEFINE_OP_(name, schema_text, n, (plist), __VA_ARGS__)
#define CT__DEFINE_OP_(name, schema_text, n, params, ...)                                                     \
  static const ct_op *name##__op;                                                                           \
  /* boxed -> typed kernel */                                                                               \
  static ct_status name##__adapter(const ct_kernel *k_, const ct_op *op_, ct_keyset ks_, ct_stack *s_) {    \
    const ct_value *v_ = s_->items + s_->size - n;                                                          \
    ct_tensor *r_ = ((ct_tensor * (*)(ct_keyset CT__APPLY(CT__PCAT(CT__TYPES, n), params))) k_->unboxed)(    \
        ks_ CT__APPLY(CT__PCAT(CT__UNBOX, n), (0, CT__STRIP params)));                                       \
    ct_value out_;                                                                                          \
    (void)op_;                                                                                              \
    ct_stack_drop(s_, n);                                                                                   \
    if (!r_) return ct_last_error();                                                                        \
    out_ = ct_value_tensor(r_);                                                                             \
    out_.owned = 1;                                                                                         \
    if (ct_stack_push(s_, out_) != CT_OK) return ct_release(r_), ct_last_error();                          \
    return CT_OK;                                                                                           \
  }                                                                                                         \
  void name##_register(void) {                                                                              \
    ct_op_def d_ = {.schema = schema_text, __VA_ARGS__};                                                    \
    name##__op = ct_define_op(&d_, name##__adapter);                                                        \
  }                                                                                                         \
  static CT__CONSTRUCTOR void name##__init(void) { name##_register(); }                                     \
  ct_tensor *name(CT__APPLY(CT__PCAT(CT__DECL, n), params)) {                                               \
    const ct_value args_[] = {CT__APPLY(CT__PCAT(CT__BOX, n), params)};                                     \
    if (!name##__op) name##_register();                                                                     \
    return ct_call_op(name##__op, n, args_);                                                                \
  }
#endif /* __cplusplus */

#endif /* CT_CUSTOM_H */

/* ---- ctorch/check.h ---- */
/* ctorch/check.h - gradcheck, gradgradcheck and opcheck.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * ct_gradcheck compares the analytic Jacobian (one backward per output
 * element) with central finite differences in float64, as
 * torch.autograd.gradcheck. ct_gradgradcheck runs gradcheck on the function
 * x -> sum_i <d(sum <f(x), v>)/dx_i, u_i> for fixed random v and u, so the
 * derivative's own derivative (create_graph) is checked.
 *
 * ct_opcheck(op, args) checks an operator as seed 002's custom-op
 * checklist asks, whatever its signature: the boxed call and the typed
 * frontend agree; the meta kernel (shape function) gives the kernel's shape
 * and dtype; the in-place and out= variants (found by name in the registry)
 * agree with the functional one; and the derivative passes gradcheck.
 * Failures are CT_ERR_STATE with a message saying which check and where.
 */
#ifndef CT_CHECK_H
#define CT_CHECK_H


CT_EXTERN_C_BEGIN

/* The function under test: a new tensor from the inputs (or NULL). */
typedef ct_tensor *(*ct_check_fn)(ct_tensor *const *inputs, void *ctx);

/* Zero fields take torch's defaults: eps 1e-6, atol 1e-5, rtol 1e-3. */
typedef struct ct_gradcheck_opts {
  double eps, atol, rtol;
} ct_gradcheck_opts;

/* Inputs that require grad are differentiated; they must be float64. */
CTDEF ct_status ct_gradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts);
CTDEF ct_status ct_gradgradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts);

typedef struct ct_opcheck_opts {
  bool skip_gradcheck; /* e.g. ops whose derivative is not implemented */
  bool gradgradcheck;  /* also check second order */
  double atol, rtol;   /* variant agreement; zero: 1e-6 and 1e-5 */
} ct_opcheck_opts;
/* args: the op's arguments, as for a boxed call (borrowed). opts may be NULL. */
CTDEF ct_status ct_opcheck(const char *op, int nargs, const ct_value *args, const ct_opcheck_opts *opts);

CT_EXTERN_C_END
#endif /* CT_CHECK_H */

/* ---- ctorch/print.h ---- */
/* ctorch/print.h - tensors as text, character for character as PyTorch prints them.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * The text is what torch 1.13's repr(tensor) / str(tensor) gives with the
 * default print options (precision 4, threshold 1000, edgeitems 3, linewidth
 * 80): floats in integer mode ("1.", "-0."), fixed mode ("0.5000") or
 * scientific mode ("1.0000e+05") chosen by torch's _Formatter rules, a common
 * width, nan/inf, True/False, "..." summaries of tensors over 1000 elements,
 * rows wrapped at 80 columns, and the dtype / device / size suffixes
 * (", dtype=torch.float64", "tensor(..., device='meta', size=(2, 3))").
 */
#ifndef CT_PRINT_H
#define CT_PRINT_H

#include <stdio.h>

CT_EXTERN_C_BEGIN

/* Writes the text into buf as snprintf does: at most cap - 1 characters and
 * a NUL when cap > 0 (buf may be NULL when cap is 0). Returns the length the
 * whole text needs, so a return >= cap means it was cut short; 0 on error. */
CTDEF size_t ct_format(const ct_tensor *t, char *buf, size_t cap);
/* The text and a newline, to stdout / to f, as Python's print(t). */
CTDEF ct_status ct_print(const ct_tensor *t);
CTDEF ct_status ct_fprint(FILE *f, const ct_tensor *t);

CT_EXTERN_C_END
#endif /* CT_PRINT_H */

#endif /* CTORCH_H */

#if defined(CTORCH_IMPLEMENTATION) && !defined(CT__IMPLEMENT)
#define CT__IMPLEMENT
/* ---- ctorch/base.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__BASE_IMPL)
#define CT__BASE_IMPL

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__SANITIZE_ADDRESS__)
#define CT__ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CT__ASAN 1
#endif
#endif
#ifdef CT__ASAN /* cached blocks are poisoned, so use-after-free is caught even when memory is reused */
#include <sanitizer/asan_interface.h>
#define CT__POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define CT__UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define CT__POISON(p, n) ((void)(p), (void)(n))
#define CT__UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#if !defined(CT_NO_THREADS) && !defined(_WIN32)
#include <pthread.h>
#define CT__HAVE_PTHREAD 1
#endif

CT_EXTERN_C_BEGIN

/* ---- mutex: one global lock guards registration and allocator bookkeeping */
#ifdef CT__HAVE_PTHREAD
static pthread_mutex_t ct__lock_mutex = PTHREAD_MUTEX_INITIALIZER;
static void ct__lock(void) { pthread_mutex_lock(&ct__lock_mutex); }
static void ct__unlock(void) { pthread_mutex_unlock(&ct__lock_mutex); }
#else
static void ct__lock(void) {}
static void ct__unlock(void) {}
#endif

/* ---- errors -------------------------------------------------------------- */
typedef struct ct__error_state {
  ct_status code;
  char message[512];
} ct__error_state;
static CT__TLS ct__error_state ct__error;
static ct_error_handler ct__error_handler_fn;
static void *ct__error_handler_user;

CTDEF ct_status ct_last_error(void) { return ct__error.code; }
CTDEF const char *ct_last_error_message(void) { return ct__error.message; }
CTDEF void ct_clear_error(void) {
  ct__error.code = CT_OK;
  ct__error.message[0] = '\0';
}
CTDEF void ct_set_error_handler(ct_error_handler handler, void *user) {
  ct__error_handler_fn = handler;
  ct__error_handler_user = user;
}

CTDEF const char *ct_status_name(ct_status s) {
  switch (s) {
#define CT__X(name, value, text) \
  case name:                     \
    return #name;
    CT_ERROR_TABLE(CT__X)
#undef CT__X
  default:
    return "CT_ERR_UNKNOWN";
  }
}

CTDEF const char *ct_status_text(ct_status s) {
  switch (s) {
#define CT__X(name, value, text) \
  case name:                     \
    return text;
    CT_ERROR_TABLE(CT__X)
#undef CT__X
  default:
    return "unknown error";
  }
}

CTDEF ct_status ct_fail(ct_status code, const char *op, const char *fmt, ...) {
  int n = snprintf(ct__error.message, sizeof ct__error.message, "%s: ", op ? op : "ctorch");
  if (n < 0) n = 0;
  if ((size_t)n < sizeof ct__error.message) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ct__error.message + n, sizeof ct__error.message - (size_t)n, fmt, ap);
    va_end(ap);
  }
  ct__error.code = code;
  if (ct__error_handler_fn) ct__error_handler_fn(code, ct__error.message, ct__error_handler_user);
  return code;
}

/* A NULL argument: pass a pending error through, else report this one. */
static CT__COLD ct_status ct__fail_null(const char *op, const char *arg) {
  if (ct__error.code != CT_OK) return ct__error.code;
  return ct_fail(CT_ERR_NULL, op, "argument '%s' is NULL", arg);
}

/* ---- statistics ----
 * Counters touched on every allocation live in the allocating thread's
 * block (plain stores, no locked instructions); a read sums every thread's
 * block under the lock. Rare events (system calls) use global atomics. */
typedef struct ct__thread_stats {
  int64_t live_bytes, live_blocks, live_tensors, live_storages, cached_bytes;
} ct__thread_stats;
static struct {
  int64_t system_allocs, system_frees, reserved_bytes, peak_reserved_bytes;
  ct__thread_stats retired; /* folded in from threads that exited */
} ct__global_stats;

static int64_t ct__stat_add(int64_t *counter, int64_t delta) { return ct__atomic_add(counter, delta); }
#if defined(CT_NO_THREADS)
#define ct__local_add(field, d) (field += (d))
#else /* single writer: a relaxed store is enough and costs a plain mov */
#define ct__local_add(field, d) __atomic_store_n(&(field), (field) + (d), __ATOMIC_RELAXED)
#endif

/* ---- system blocks: 64-byte aligned on top of CT_MALLOC -------------------
 * The original pointer is kept just below the aligned address so that any
 * user-supplied CT_MALLOC works. */
#define CT__ALIGN 64
static void *ct__system_alloc(size_t nbytes) {
  void *raw;
  uintptr_t aligned;
  int64_t reserved;
  if (nbytes > SIZE_MAX - 2 * CT__ALIGN) return NULL;
  raw = CT_MALLOC(nbytes + 2 * CT__ALIGN);
  if (!raw) return NULL;
  aligned = ((uintptr_t)raw + CT__ALIGN + (CT__ALIGN - 1)) & ~(uintptr_t)(CT__ALIGN - 1);
  ((void **)aligned)[-1] = raw;
  ct__stat_add(&ct__global_stats.system_allocs, 1);
  reserved = ct__stat_add(&ct__global_stats.reserved_bytes, (int64_t)nbytes);
  if (reserved > ct__atomic_load(&ct__global_stats.peak_reserved_bytes))
    ct__atomic_store(&ct__global_stats.peak_reserved_bytes, reserved); /* racy max: good enough for a statistic */
  return (void *)aligned;
}
static void ct__system_free(void *p, size_t nbytes) {
  if (!p) return;
  ct__stat_add(&ct__global_stats.system_frees, 1);
  ct__stat_add(&ct__global_stats.reserved_bytes, -(int64_t)nbytes);
  CT_FREE(((void **)p)[-1]);
}

/* ---- thread caches ---------------------------------------------------------
 * Size classes: powers of two from 64 B to 1 MiB, then four per octave
 * (1, 1.25, 1.5, 1.75 x 2^k) up to 64 MiB, so a large block wastes at most
 * 25%. A freed block goes on the
 * freeing thread's list (the block's memory is the list node). */
#define CT__NUM_POW2_CLASSES 15 /* 64 B .. 1 MiB: powers of two */
#define CT__NUM_CLASSES (CT__NUM_POW2_CLASSES + 4 * 6) /* then quarter steps up to 64 MiB */
typedef struct ct__free_block {
  struct ct__free_block *next;
} ct__free_block;
typedef struct ct__thread_cache {
  ct__free_block *lists[CT__NUM_CLASSES];
  size_t cached;
  int registered; /* linked into ct__threads, exit hook installed */
  ct__thread_stats stats;
  struct ct__thread_cache *prev, *next;
} ct__thread_cache;
static CT__TLS ct__thread_cache ct__cache;
static ct__thread_cache *ct__threads; /* every registered thread's cache, under ct__lock */

static void ct__sum_stats(ct__thread_stats *into, const ct__thread_stats *s) {
  into->live_bytes += ct__relaxed_load(&s->live_bytes);
  into->live_blocks += ct__relaxed_load(&s->live_blocks);
  into->live_tensors += ct__relaxed_load(&s->live_tensors);
  into->live_storages += ct__relaxed_load(&s->live_storages);
  into->cached_bytes += ct__relaxed_load(&s->cached_bytes);
}

CTDEF ct_memory_stats ct_memory_stats_get(void) {
  ct_memory_stats out;
  ct__thread_stats sum;
  const ct__thread_cache *t;
  ct__lock();
  sum = ct__global_stats.retired;
  for (t = ct__threads; t; t = t->next) ct__sum_stats(&sum, &t->stats);
  ct__unlock();
  out.live_bytes = sum.live_bytes;
  out.live_blocks = sum.live_blocks;
  out.live_tensors = sum.live_tensors;
  out.live_storages = sum.live_storages;
  out.cached_bytes = sum.cached_bytes;
  out.reserved_bytes = ct__atomic_load(&ct__global_stats.reserved_bytes);
  out.peak_reserved_bytes = ct__atomic_load(&ct__global_stats.peak_reserved_bytes);
  out.system_allocs = ct__atomic_load(&ct__global_stats.system_allocs);
  out.system_frees = ct__atomic_load(&ct__global_stats.system_frees);
  return out;
}

CTDEF void ct_reset_peak_memory(void) {
  ct__atomic_store(&ct__global_stats.peak_reserved_bytes, ct__atomic_load(&ct__global_stats.reserved_bytes));
}

/* Bytes of a class-c block. */
static inline size_t ct__class_bytes(int c) {
  if (c < CT__NUM_POW2_CLASSES) return (size_t)64 << c;
  c -= CT__NUM_POW2_CLASSES;
  return ((size_t)1 << (20 + c / 4)) + ((size_t)(c % 4 + 1) << (18 + c / 4));
}

static CT__COLD int ct__large_class(size_t nbytes) {
  int c = CT__NUM_POW2_CLASSES;
  while (c < CT__NUM_CLASSES && ct__class_bytes(c) < nbytes) c++;
  return c < CT__NUM_CLASSES ? c : -1;
}

/* The smallest class holding nbytes; -1 for sizes above the largest. */
static inline int ct__size_class(size_t nbytes) {
  int c;
  if (nbytes <= 64) return 0;
  if (CT_UNLIKELY(nbytes > ((size_t)64 << (CT__NUM_POW2_CLASSES - 1)))) return ct__large_class(nbytes);
#if defined(__GNUC__) || defined(__clang__)
  c = 64 - __builtin_clzll((unsigned long long)(nbytes - 1)) - 6;
#else
  {
    size_t cap = 64;
    for (c = 0; cap < nbytes; c++) cap <<= 1;
  }
#endif
  return c;
}

CTDEF void ct_empty_cache(void) {
  int c;
  for (c = 0; c < CT__NUM_CLASSES; c++) {
    ct__free_block *b = ct__cache.lists[c];
    while (b) {
      ct__free_block *next = b->next;
      CT__UNPOISON(b, ct__class_bytes(c));
      ct__system_free(b, ct__class_bytes(c));
      b = next;
    }
    ct__cache.lists[c] = NULL;
  }
  ct__local_add(ct__cache.stats.cached_bytes, -(int64_t)ct__cache.cached);
  ct__cache.cached = 0;
}

#ifdef CT__HAVE_PTHREAD
static pthread_key_t ct__exit_key;
static pthread_once_t ct__exit_once = PTHREAD_ONCE_INIT;
static void ct__thread_exit(void *unused) {
  (void)unused;
  ct_empty_cache();
  ct__lock();
  ct__sum_stats(&ct__global_stats.retired, &ct__cache.stats);
  if (ct__cache.prev) ct__cache.prev->next = ct__cache.next;
  else ct__threads = ct__cache.next;
  if (ct__cache.next) ct__cache.next->prev = ct__cache.prev;
  ct__unlock();
  memset(&ct__cache.stats, 0, sizeof ct__cache.stats);
  ct__cache.registered = 0;
}
static void ct__exit_key_init(void) { pthread_key_create(&ct__exit_key, ct__thread_exit); }
static void ct__link_thread(void) {
  pthread_once(&ct__exit_once, ct__exit_key_init);
  pthread_setspecific(ct__exit_key, &ct__cache);
}
#else
static void ct__link_thread(void) {}
#endif
static void ct__register_thread(void) {
  ct__link_thread();
  ct__lock();
  ct__cache.prev = NULL;
  ct__cache.next = ct__threads;
  if (ct__threads) ct__threads->prev = &ct__cache;
  ct__threads = &ct__cache;
  ct__unlock();
  ct__cache.registered = 1;
}
/* This thread's statistics block, registered on first use. */
static ct__thread_stats *ct__stats(void) {
  if (CT_UNLIKELY(!ct__cache.registered)) ct__register_thread();
  return &ct__cache.stats;
}

/* Pooled allocation used for data, tensor and storage objects alike. */
static void *ct__pool_alloc(size_t nbytes) {
  int c = ct__size_class(nbytes ? nbytes : 1);
  void *p;
  if (c >= 0 && ct__cache.lists[c]) {
    ct__free_block *b = ct__cache.lists[c];
    CT__UNPOISON(b, ct__class_bytes(c));
    ct__cache.lists[c] = b->next;
    ct__cache.cached -= ct__class_bytes(c);
    ct__local_add(ct__cache.stats.cached_bytes, -((int64_t)ct__class_bytes(c)));
    return b;
  }
  if (CT_UNLIKELY(!ct__cache.registered)) ct__register_thread();
  p = ct__system_alloc(c >= 0 ? ct__class_bytes(c) : nbytes);
  return p;
}

static void ct__pool_free(void *p, size_t nbytes) {
  int c;
  if (!p) return;
  c = ct__size_class(nbytes ? nbytes : 1);
  if (c >= 0 && ct__cache.cached + (ct__class_bytes(c)) <= (size_t)CT_CPU_CACHE_LIMIT) {
    ct__free_block *b = (ct__free_block *)p;
    b->next = ct__cache.lists[c];
    ct__cache.lists[c] = b;
    CT__POISON((char *)b + sizeof *b, (ct__class_bytes(c)) - sizeof *b);
    ct__cache.cached += ct__class_bytes(c);
    ct__local_add(ct__stats()->cached_bytes, (int64_t)ct__class_bytes(c));
    return;
  }
  ct__system_free(p, c >= 0 ? ct__class_bytes(c) : nbytes);
}

static void *ct__cpu_alloc(void *ctx, size_t nbytes) {
  void *p = ct__pool_alloc(nbytes);
  ct__thread_stats *st;
  (void)ctx;
  if (!p) return NULL;
  st = ct__stats();
  ct__local_add(st->live_bytes, (int64_t)nbytes);
  ct__local_add(st->live_blocks, 1);
  return p;
}
static void ct__cpu_free(void *ctx, void *p, size_t nbytes) {
  ct__thread_stats *st = ct__stats();
  (void)ctx;
  if (!p) return;
  ct__local_add(st->live_bytes, -(int64_t)nbytes);
  ct__local_add(st->live_blocks, -1);
  ct__pool_free(p, nbytes);
}

static const ct_allocator ct__cpu_allocator_instance = {"cpu", ct__cpu_alloc, ct__cpu_free, NULL};
CTDEF const ct_allocator *ct_cpu_allocator(void) { return &ct__cpu_allocator_instance; }

CT_EXTERN_C_END
#endif /* CT__BASE_IMPL */
/* ---- ctorch/parallel.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__PARALLEL_IMPL)
#define CT__PARALLEL_IMPL
#if defined(CT__HAVE_PTHREAD) && !defined(CT_NO_THREADS)
#include <unistd.h>
#define CT__POOL 1
#endif
CT_EXTERN_C_BEGIN

static int ct__num_threads; /* 0: not decided yet */
static void (*ct__thread_listeners[8])(int);
static int ct__nlisteners;

#ifndef CT_NO_THREADS
static int ct__default_threads(void) {
  const char *env = getenv("CT_NUM_THREADS");
  long n = env ? strtol(env, NULL, 10) : 0;
#ifdef CT__POOL
  if (n <= 0) n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
  if (n <= 0) n = 1;
  return n > CT_MAX_THREADS ? CT_MAX_THREADS : (int)n;
}
#endif

CTDEF int ct_get_num_threads(void) {
#ifdef CT_NO_THREADS
  return 1;
#else
  int n = ct__atomic_load(&ct__num_threads);
  if (CT_UNLIKELY(n == 0)) {
    n = ct__default_threads();
    ct__atomic_store(&ct__num_threads, n);
  }
  return n;
#endif
}

CTDEF void ct_set_num_threads(int n) {
  int i, nl;
  void (*ls[8])(int);
#ifdef CT_NO_THREADS
  n = 1;
#else
  if (n <= 0) n = ct__default_threads();
  if (n > CT_MAX_THREADS) n = CT_MAX_THREADS;
#endif
  ct__lock();
  ct__atomic_store(&ct__num_threads, n);
  nl = ct__nlisteners;
  for (i = 0; i < nl; i++) ls[i] = ct__thread_listeners[i];
  ct__unlock();
  for (i = 0; i < nl; i++) ls[i](n);
}

CTDEF ct_status ct_on_num_threads(void (*listener)(int n)) {
  int i;
  if (!listener) return ct__fail_null("ct_on_num_threads", "listener");
  ct__lock();
  for (i = 0; i < ct__nlisteners; i++)
    if (ct__thread_listeners[i] == listener) break;
  if (i == ct__nlisteners) {
    if (ct__nlisteners == 8) {
      ct__unlock();
      return ct_fail(CT_ERR_STATE, "ct_on_num_threads", "too many listeners (8)");
    }
    ct__thread_listeners[ct__nlisteners++] = listener;
  }
  ct__unlock();
  listener(ct_get_num_threads());
  return CT_OK;
}

static void ct__run_chunks_inline(int64_t n, int64_t grain, ct_parallel_fn fn, void *ctx) {
  int64_t b;
  for (b = 0; b < n; b += grain) fn(b, n - b > grain ? b + grain : n, ctx);
}

#ifdef CT__POOL
static CT__TLS int ct__in_worker;
static struct {
  pthread_mutex_t mu;      /* guards the fields below except next */
  pthread_cond_t wake, done;
  pthread_mutex_t submit;  /* one loop at a time uses the pool; others run inline */
  int started;             /* workers running */
  uint64_t generation;     /* bumped per loop */
  int active;              /* workers taking part in this loop (index < active) */
  int pending;             /* workers still busy with this loop */
  ct_parallel_fn fn;
  void *ctx;
  int64_t n, grain, nchunks;
  int64_t next;            /* next chunk to claim (atomic) */
} ct__pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
              0, 0, 0, 0, NULL, NULL, 0, 0, 0, 0};

static void ct__pool_chunks(void) {
  for (;;) {
    int64_t c = __atomic_fetch_add(&ct__pool.next, 1, __ATOMIC_RELAXED), b;
    if (c >= ct__pool.nchunks) return;
    b = c * ct__pool.grain;
    ct__pool.fn(b, ct__pool.n - b > ct__pool.grain ? b + ct__pool.grain : ct__pool.n, ct__pool.ctx);
  }
}

static void *ct__worker_main(void *arg) {
  int index = (int)(intptr_t)arg;
  uint64_t seen = 0;
  ct__in_worker = 1;
  pthread_mutex_lock(&ct__pool.mu);
  for (;;) {
    while (ct__pool.generation == seen) pthread_cond_wait(&ct__pool.wake, &ct__pool.mu);
    seen = ct__pool.generation;
    if (index >= ct__pool.active) continue;
    pthread_mutex_unlock(&ct__pool.mu);
    ct__pool_chunks();
    pthread_mutex_lock(&ct__pool.mu);
    if (--ct__pool.pending == 0) pthread_cond_signal(&ct__pool.done);
  }
  return NULL;
}

/* Start workers up to `want` (never stops them); returns how many run. */
static int ct__pool_grow(int want) {
  while (ct__pool.started < want) {
    pthread_t th;
    pthread_attr_t attr;
    int rc;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    rc = pthread_create(&th, &attr, ct__worker_main, (void *)(intptr_t)ct__pool.started);
    pthread_attr_destroy(&attr);
    if (rc != 0) break;
    ct__pool.started++;
  }
  return ct__pool.started;
}
#endif

CTDEF int ct_in_parallel_region(void) {
#ifdef CT__POOL
  return ct__in_worker;
#else
  return 0;
#endif
}

CTDEF void ct_parallel_for(int64_t n, int64_t grain, ct_parallel_fn fn, void *ctx) {
  int64_t nchunks;
  if (n <= 0 || !fn) return;
  if (grain < 1) grain = 1;
  nchunks = (n + grain - 1) / grain;
  (void)nchunks;
#ifdef CT__POOL
  {
    int threads = ct_get_num_threads(), workers;
    if (nchunks > 1 && threads > 1 && !ct__in_worker && pthread_mutex_trylock(&ct__pool.submit) == 0) {
      workers = (int)(nchunks < threads ? nchunks : threads) - 1;
      pthread_mutex_lock(&ct__pool.mu);
      workers = ct__pool_grow(workers) < workers ? ct__pool.started : workers;
      ct__pool.fn = fn;
      ct__pool.ctx = ctx;
      ct__pool.n = n;
      ct__pool.grain = grain;
      ct__pool.nchunks = nchunks;
      ct__pool.next = 0;
      ct__pool.active = workers;
      ct__pool.pending = workers;
      ct__pool.generation++;
      if (workers > 0) pthread_cond_broadcast(&ct__pool.wake);
      pthread_mutex_unlock(&ct__pool.mu);
      ct__in_worker = 1; /* nested loops inside our own chunks run inline */
      ct__pool_chunks();
      ct__in_worker = 0;
      pthread_mutex_lock(&ct__pool.mu);
      while (ct__pool.pending > 0) pthread_cond_wait(&ct__pool.done, &ct__pool.mu);
      ct__pool.fn = NULL;
      pthread_mutex_unlock(&ct__pool.mu);
      pthread_mutex_unlock(&ct__pool.submit);
      return;
    }
  }
#endif
  ct__run_chunks_inline(n, grain, fn, ctx);
}

CT_EXTERN_C_END
#endif /* CT__PARALLEL_IMPL */
/* ---- ctorch/dtype.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__DTYPE_IMPL)
#define CT__DTYPE_IMPL
CT_EXTERN_C_BEGIN

static const char *const ct__dtype_names[] = {
#define CT__X(name, ctype, size, str, kind) str,
    CT_DTYPE_TABLE(CT__X)
#undef CT__X
};
/* the inline predicates assume floating dtypes first, then integers, then bool */
typedef char ct__dtype_order_check[(CT_F32 == 0 && CT_BF16 == 3 && CT_I64 == 4 && CT_U8 == 6 && CT_BOOL == 7) ? 1 : -1];

CTDEF const char *ct_dtype_name(ct_dtype t) { return ct_dtype_valid(t) ? ct__dtype_names[t] : "invalid"; }

/* Rank within the promotion lattice; f16 and bf16 share a rank. */
static int ct__promo_rank(ct_dtype t) {
  switch (t) {
  case CT_BOOL: return 0;
  case CT_U8: return 1;
  case CT_I32: return 2;
  case CT_I64: return 3;
  case CT_F16:
  case CT_BF16: return 4;
  case CT_F32: return 5;
  case CT_F64: return 6;
  default: return -1;
  }
}

CTDEF ct_dtype ct_promote_types(ct_dtype a, ct_dtype b) {
  if (a == b) return a;
  if (!ct_dtype_valid(a)) return b;
  if (!ct_dtype_valid(b)) return a;
  if ((a == CT_F16 && b == CT_BF16) || (a == CT_BF16 && b == CT_F16)) return CT_F32;
  return ct__promo_rank(a) >= ct__promo_rank(b) ? a : b;
}

CTDEF bool ct_can_cast(ct_dtype from, ct_dtype to) {
  if (ct_dtype_is_floating(from) && ct_dtype_is_integral(to, true)) return false;
  if (from != CT_BOOL && to == CT_BOOL) return false;
  return true;
}

CTDEF ct_dtype ct_scalar_dtype(ct_scalar s) {
  return s.kind == CT_SCALAR_FLOAT ? CT_F32 : s.kind == CT_SCALAR_BOOL ? CT_BOOL : CT_I64;
}

CTDEF float ct_f16_to_f32(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu, bits;
  float f;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (man << 13); /* inf / nan */
  } else if (exp != 0) {
    bits = sign | ((exp + 112u) << 23) | (man << 13);
  } else if (man == 0) {
    bits = sign;
  } else { /* subnormal half: normalise */
    int e = -1;
    do {
      e++;
      man <<= 1;
    } while ((man & 0x400u) == 0);
    bits = sign | ((uint32_t)(112 - e) << 23) | ((man & 0x3ffu) << 13);
  }
  memcpy(&f, &bits, 4);
  return f;
}

CTDEF uint16_t ct_f32_to_f16(float f) {
  uint32_t x, sign, man;
  int32_t exp;
  memcpy(&x, &f, 4);
  sign = (x >> 16) & 0x8000u;
  exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  man = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0u));
  if (exp >= 0x1f) return (uint16_t)(sign | 0x7c00u); /* overflow -> inf */
  if (exp <= 0) {                                      /* subnormal or zero */
    uint32_t shift, half, rest;
    if (exp < -10) return (uint16_t)sign;
    man |= 0x800000u;
    shift = (uint32_t)(14 - exp);
    half = man >> shift;
    rest = man & ((1u << shift) - 1);
    if (rest > (1u << (shift - 1)) || (rest == (1u << (shift - 1)) && (half & 1u))) half++;
    return (uint16_t)(sign | half);
  }
  {
    uint32_t h = sign | ((uint32_t)exp << 10) | (man >> 13), rest = man & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) h++; /* may carry into exp: correct */
    return (uint16_t)h;
  }
}

CTDEF float ct_bf16_to_f32(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

CTDEF uint16_t ct_f32_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u); /* quiet nan */
  x += 0x7fffu + ((x >> 16) & 1u);
  return (uint16_t)(x >> 16);
}

CT_EXTERN_C_END
#endif /* CT__DTYPE_IMPL */
/* ---- ctorch/keys.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__KEYS_IMPL)
#define CT__KEYS_IMPL
CT_EXTERN_C_BEGIN

#ifndef CT_STATIC
CT__TLS ct__thread_state ct__tls;
ct_keyset ct__global_keys;
#endif

CTDEF const char *ct_key_name(ct_key k) {
  switch ((int)k) {
#define CT__X(name, bit, str) \
  case bit:                   \
    return str;
    CT_KEY_TABLE(CT__X)
#undef CT__X
  default:
    return "?";
  }
}
CTDEF bool ct_key_valid(ct_key k) { return k != CT_KEY_UNDEFINED && ct_key_name(k)[0] != '?'; }

CTDEF char *ct_keyset_format(ct_keyset ks, char *buf, size_t cap) {
  size_t len = 0;
  int k;
  if (!buf || cap == 0) return buf;
  buf[0] = '\0';
  for (k = 0; k < 64; k++) {
    if (ks & ((ct_keyset)1 << k)) {
      const char *name = ct_key_name((ct_key)k);
      int n = snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", name);
      if (n < 0 || (size_t)n >= cap - len) break;
      len += (size_t)n;
    }
  }
  return buf;
}

CTDEF ct_local_keys ct_local_keys_get(void) { return ct__tls.keys; }
CTDEF void ct_local_keys_set(ct_local_keys k) { ct__tls.keys = k; }
CTDEF ct_keyset ct_global_keys_get(void) { return ct__atomic_load(&ct__global_keys); }
CTDEF void ct_global_keys_set(ct_keyset ks) { ct__atomic_store(&ct__global_keys, ks & ~CT_BACKEND_KEYS); }

CT_EXTERN_C_END
#endif /* CT__KEYS_IMPL */
/* ---- ctorch/schema.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__SCHEMA_IMPL)
#define CT__SCHEMA_IMPL
#include <stdio.h>
CT_EXTERN_C_BEGIN

/* ---- schema parser ----
 * name[.overload](Type name[=default], ..., *, ...) -> Ret | (Ret, Ret) */
typedef struct ct__parser {
  const char *text, *p;
  const char *err;
} ct__parser;

static void ct__skip_ws(ct__parser *ps) {
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n') ps->p++;
}
static int ct__is_ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static int ct__ident(ct__parser *ps, char *out, size_t cap, int allow_ns) {
  size_t n = 0;
  ct__skip_ws(ps);
  while (ct__is_ident(*ps->p) || (allow_ns && ps->p[0] == ':' && ps->p[1] == ':')) {
    int w = (*ps->p == ':') ? 2 : 1;
    if (n + (size_t)w >= cap) {
      ps->err = "name too long";
      return 0;
    }
    memcpy(out + n, ps->p, (size_t)w);
    n += (size_t)w;
    ps->p += w;
  }
  out[n] = '\0';
  if (!n) ps->err = "expected a name";
  return n > 0;
}
static int ct__expect(ct__parser *ps, char c, const char *what) {
  ct__skip_ws(ps);
  if (*ps->p != c) {
    ps->err = what;
    return 0;
  }
  ps->p++;
  return 1;
}

static int ct__parse_type(ct__parser *ps, ct_arg *a) {
  char word[32];
  if (!ct__ident(ps, word, sizeof word, 0)) {
    ps->err = "expected a type";
    return 0;
  }
  if (!strcmp(word, "Tensor")) a->type = CT_TYPE_TENSOR;
  else if (!strcmp(word, "int") || !strcmp(word, "SymInt")) a->type = CT_TYPE_INT;
  else if (!strcmp(word, "float")) a->type = CT_TYPE_FLOAT;
  else if (!strcmp(word, "bool")) a->type = CT_TYPE_BOOL;
  else if (!strcmp(word, "Scalar")) a->type = CT_TYPE_SCALAR;
  else if (!strcmp(word, "ScalarType")) a->type = CT_TYPE_SCALAR_TYPE;
  else if (!strcmp(word, "str")) a->type = CT_TYPE_STR;
  else if (!strcmp(word, "Generator")) a->type = CT_TYPE_GENERATOR;
  else {
    ps->err = "unknown type";
    ps->p -= strlen(word);
    return 0;
  }
  if (*ps->p == '(') { /* alias annotation (a) or (a!) */
    ps->p++;
    if (*ps->p < 'a' || *ps->p > 'z') {
      ps->err = "expected an alias letter";
      return 0;
    }
    a->alias = *ps->p++;
    if (*ps->p == '!') {
      a->is_write = true;
      ps->p++;
    }
    if (*ps->p++ != ')') {
      ps->p--;
      ps->err = "expected ')' after alias annotation";
      return 0;
    }
    if (a->type != CT_TYPE_TENSOR) {
      ps->err = "alias annotation on a non-tensor";
      return 0;
    }
  }
  if (*ps->p == '[') { /* list, optionally sized */
    ps->p++;
    while (*ps->p >= '0' && *ps->p <= '9') a->list_size = a->list_size * 10 + (*ps->p++ - '0');
    if (*ps->p++ != ']') {
      ps->p--;
      ps->err = "expected ']'";
      return 0;
    }
    if (a->type == CT_TYPE_INT) a->type = CT_TYPE_INT_LIST;
    else if (a->type == CT_TYPE_TENSOR) a->type = CT_TYPE_TENSOR_LIST;
    else {
      ps->err = "only int[] and Tensor[] lists are supported";
      return 0;
    }
  }
  if (*ps->p == '?') {
    a->optional = true;
    ps->p++;
  }
  return 1;
}

static const char *ct__type_code(const ct_arg *a) {
  switch (a->type) {
  case CT_TYPE_TENSOR: return a->is_write ? "Tw" : a->optional ? "T?" : "T";
  case CT_TYPE_INT: return a->optional ? "i?" : "i";
  case CT_TYPE_FLOAT: return a->optional ? "f?" : "f";
  case CT_TYPE_BOOL: return a->optional ? "b?" : "b";
  case CT_TYPE_SCALAR: return a->optional ? "S?" : "S";
  case CT_TYPE_SCALAR_TYPE: return "D"; /* ct_dtype, CT_DTYPE_NONE for None */
  case CT_TYPE_INT_LIST: return "I";    /* ct_int_list; None is data NULL, n -1 */
  case CT_TYPE_TENSOR_LIST: return "L";
  case CT_TYPE_STR: return a->optional ? "s?" : "s";
  case CT_TYPE_GENERATOR: return "G"; /* ct_generator *, NULL for the default */
  }
  return "?";
}

static ct_status ct__schema_parse(const char *op, const char *text, ct_schema *out);
CTDEF ct_status ct_schema_parse(const char *text, ct_schema *out) { return ct__schema_parse("ct_schema_parse", text, out); }
static ct_status ct__schema_parse(const char *op, const char *text, ct_schema *out) {
  ct__parser ps;
  int kw = 0, i;
  size_t len = 0;
  if (!text) return ct__fail_null(op, "schema");
  if (!out) return ct__fail_null(op, "out");
  memset(out, 0, sizeof *out);
  ps.text = ps.p = text;
  ps.err = NULL;
  if (!ct__ident(&ps, out->name, sizeof out->name, 1)) goto fail;
  if (*ps.p == '.') {
    ps.p++;
    if (!ct__ident(&ps, out->overload, sizeof out->overload, 0)) goto fail;
  }
  if (!ct__expect(&ps, '(', "expected '('")) goto fail;
  ct__skip_ws(&ps);
  while (*ps.p != ')') {
    ct_arg *a;
    if ((out->nargs || kw) && !ct__expect(&ps, ',', "expected ',' or ')'")) goto fail;
    ct__skip_ws(&ps);
    if (*ps.p == '*') {
      if (kw) {
        ps.err = "'*' given twice";
        goto fail;
      }
      kw = 1;
      ps.p++;
      ct__skip_ws(&ps);
      continue;
    }
    if (out->nargs >= CT_MAX_ARGS) {
      ps.err = "too many arguments";
      goto fail;
    }
    a = &out->args[out->nargs];
    if (!ct__parse_type(&ps, a)) goto fail;
    if (!ct__ident(&ps, a->name, sizeof a->name, 0)) goto fail;
    a->kwarg_only = kw != 0;
    for (i = 0; i < out->nargs; i++) {
      if (!strcmp(out->args[i].name, a->name)) {
        ps.err = "duplicate argument name";
        goto fail;
      }
    }
    ct__skip_ws(&ps);
    if (*ps.p == '=') {
      size_t n = 0;
      int depth = 0;
      ps.p++;
      ct__skip_ws(&ps);
      while (*ps.p && (depth > 0 || (*ps.p != ',' && *ps.p != ')'))) {
        if (*ps.p == '[' || *ps.p == '(') depth++;
        if (*ps.p == ']' || *ps.p == ')') depth--;
        if (n + 1 >= sizeof a->default_value) {
          ps.err = "default value too long";
          goto fail;
        }
        a->default_value[n++] = *ps.p++;
      }
      while (n && a->default_value[n - 1] == ' ') n--;
      a->default_value[n] = '\0';
      if (!n) {
        ps.err = "expected a default value";
        goto fail;
      }
    }
    out->nargs++;
    ct__skip_ws(&ps);
    if (!*ps.p) {
      ps.err = "expected ',' or ')'";
      goto fail;
    }
  }
  ps.p++;
  ct__skip_ws(&ps);
  if (ps.p[0] != '-' || ps.p[1] != '>') {
    ps.err = "expected '->'";
    goto fail;
  }
  ps.p += 2;
  ct__skip_ws(&ps);
  if (*ps.p == '(') { /* tuple of returns, possibly empty */
    ps.p++;
    ct__skip_ws(&ps);
    while (*ps.p != ')') {
      if (out->nrets && !ct__expect(&ps, ',', "expected ',' or ')' in returns")) goto fail;
      if (out->nrets >= CT_MAX_RETURNS) {
        ps.err = "too many returns";
        goto fail;
      }
      if (!ct__parse_type(&ps, &out->rets[out->nrets])) goto fail;
      ct__skip_ws(&ps);
      if (ct__is_ident(*ps.p) && !ct__ident(&ps, out->rets[out->nrets].name, sizeof out->rets[0].name, 0)) goto fail;
      out->nrets++;
      ct__skip_ws(&ps);
      if (!*ps.p) {
        ps.err = "expected ')' after returns";
        goto fail;
      }
    }
    ps.p++;
  } else {
    if (!ct__parse_type(&ps, &out->rets[0])) goto fail;
    out->nrets = 1;
  }
  ct__skip_ws(&ps);
  if (*ps.p) {
    ps.err = "unexpected text after the returns";
    goto fail;
  }
  /* C signature code: argument codes, "->", return codes */
  for (i = 0; i < out->nargs; i++) {
    int n = snprintf(out->signature + len, sizeof out->signature - len, "%s%s", i ? "," : "", ct__type_code(&out->args[i]));
    if (n < 0 || (size_t)n >= sizeof out->signature - len) break;
    len += (size_t)n;
  }
  for (i = 0; i < out->nrets; i++) {
    int n = snprintf(out->signature + len, sizeof out->signature - len, "%s%s", i ? "," : "->", ct__type_code(&out->rets[i]));
    if (n < 0 || (size_t)n >= sizeof out->signature - len) break;
    len += (size_t)n;
  }
  if (out->nrets == 0 && len + 2 < sizeof out->signature) memcpy(out->signature + len, "->", 3);
  return CT_OK;
fail:
  return ct_fail(CT_ERR_SCHEMA, op, "malformed schema '%s' at offset %d: %s", text, (int)(ps.p - ps.text),
                 ps.err ? ps.err : "syntax error");
}

CT_EXTERN_C_END
#endif /* CT__SCHEMA_IMPL */
/* ---- ctorch/tensor.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__TENSOR_IMPL)
#define CT__TENSOR_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- devices ---- */
static const char *const ct__device_names[CT_DEVICE_NUM] = {"cpu", "cuda", "meta", "privateuseone", "privateusetwo",
                                                            "privateusethree"};
static const ct_key ct__device_keys[CT_DEVICE_NUM] = {CT_KEY_CPU,          CT_KEY_CUDA,         CT_KEY_META,
                                                      CT_KEY_PRIVATEUSE1, CT_KEY_PRIVATEUSE2, CT_KEY_PRIVATEUSE3};

static void *ct__meta_alloc(void *ctx, size_t nbytes) {
  (void)ctx;
  (void)nbytes;
  return NULL;
}
static void ct__meta_free(void *ctx, void *p, size_t nbytes) {
  (void)ctx;
  (void)p;
  (void)nbytes;
}
static const ct_allocator ct__meta_allocator = {"meta", ct__meta_alloc, ct__meta_free, NULL};
static const ct_allocator *ct__device_allocators[CT_DEVICE_NUM] = {&ct__cpu_allocator_instance, NULL,
                                                                   &ct__meta_allocator};

CTDEF const char *ct_device_type_name(ct_device_type t) {
  return (unsigned)t < CT_DEVICE_NUM ? ct__device_names[t] : "invalid";
}
CTDEF ct_key ct_device_backend_key(ct_device_type t) {
  return (unsigned)t < CT_DEVICE_NUM ? ct__device_keys[t] : CT_KEY_UNDEFINED;
}
CTDEF ct_status ct_set_device_allocator(ct_device_type t, const ct_allocator *a) {
  if ((unsigned)t >= CT_DEVICE_NUM) return ct_fail(CT_ERR_DEVICE, "ct_set_device_allocator", "invalid device type %d", (int)t);
  if (!a || !a->alloc || !a->free) return ct__fail_null("ct_set_device_allocator", "allocator");
  ct__device_allocators[t] = a;
  return CT_OK;
}
CTDEF const ct_allocator *ct_device_allocator(ct_device_type t) {
  return (unsigned)t < CT_DEVICE_NUM ? ct__device_allocators[t] : NULL;
}

static void ct__init(void); /* dispatch.h: registers the built-in operators once */
static int ct__initialized;

/* ---- validation helpers ---- */
static int64_t ct__wrap_dim(const char *op, int64_t dim, int ndim) {
  int64_t n = ndim > 0 ? ndim : 1; /* a 0-dim tensor accepts dims 0 and -1 */
  if (dim < -n || dim >= n) {
    ct_fail(CT_ERR_INDEX, op, "dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
            (long long)-n, (long long)(n - 1), (long long)dim);
    return -1;
  }
  return dim < 0 ? dim + n : dim;
}

/* numel of a shape, or -1 after recording an error for a bad rank, a
 * negative size or an element count whose byte size overflows. */
static int64_t ct__checked_numel(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype) {
  int64_t numel = 1, limit;
  int i, overflow = 0;
  if (ndim < 0 || ndim > CT_MAX_DIMS) {
    ct_fail(CT_ERR_RANK, op, "rank %d is out of range [0, %d]", ndim, CT_MAX_DIMS);
    return -1;
  }
  if (ndim > 0 && !sizes) {
    ct__fail_null(op, "sizes");
    return -1;
  }
  if (!ct_dtype_valid(dtype)) {
    ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype);
    return -1;
  }
  /* byte sizes must fit in size_t and int64_t; the largest element is 8 bytes */
  limit = (int64_t)((SIZE_MAX > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : SIZE_MAX) >> 3);
  for (i = 0; i < ndim; i++) {
    int64_t d = sizes[i];
    if (d < 0) {
      ct_fail(CT_ERR_SIZE, op, "negative size %lld at dimension %d", (long long)d, i);
      return -1;
    }
    if (!overflow) {
#if defined(__GNUC__) || defined(__clang__)
      overflow = __builtin_mul_overflow(numel, d, &numel);
#else
      if (d && numel > INT64_MAX / d) overflow = 1;
      else numel *= d;
#endif
    }
  }
  if (overflow || numel > limit) {
    char buf[160];
    for (i = 0; i < ndim; i++)
      if (sizes[i] == 0) return 0; /* a zero size wins over an overflowing product */
    ct_fail(CT_ERR_SIZE, op, "size %s overflows: numel * element size (%d) does not fit in memory",
            ct_shape_format(ndim, sizes, buf, sizeof buf), (int)ct_dtype_size(dtype));
    return -1;
  }
  return numel;
}

static void ct__contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides) {
  int64_t s = 1;
  int i;
  for (i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s *= sizes[i] > 1 ? sizes[i] : 1;
  }
}

CTDEF char *ct_shape_format(int ndim, const int64_t *sizes, char *buf, size_t cap) {
  size_t len = 0;
  int i, n;
  if (!buf || cap < 3) return buf;
  buf[len++] = '[';
  buf[len] = '\0';
  for (i = 0; i < ndim && sizes; i++) {
    n = snprintf(buf + len, cap - len, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    if (n < 0 || (size_t)n >= cap - len - 1) break;
    len += (size_t)n;
  }
  if (len < cap - 1) {
    buf[len++] = ']';
    buf[len] = '\0';
  }
  return buf;
}

/* ---- objects ---- */
/* Data of at most this many bytes on the default CPU allocator is kept in
 * the storage's own block, after the header (64-byte aligned). */
#define CT__INLINE_BYTES 64
#define CT__STORAGE_HEADER 64
typedef char ct__storage_header_check[sizeof(ct_storage) <= CT__STORAGE_HEADER ? 1 : -1];

static ct_storage *ct__storage_new(size_t nbytes, ct_device device, const char *op) {
  const ct_allocator *a = ct_device_allocator((ct_device_type)device.type);
  int inline_data = a == &ct__cpu_allocator_instance && nbytes <= CT__INLINE_BYTES;
  ct_storage *s;
  if (!a) {
    ct_fail(CT_ERR_DEVICE, op, "no allocator for device '%s' (is its backend linked?)",
            ct_device_type_name((ct_device_type)device.type));
    return NULL;
  }
  s = (ct_storage *)ct__pool_alloc(inline_data ? CT__STORAGE_HEADER + CT__INLINE_BYTES : sizeof(ct_storage));
  if (!s) {
    ct_fail(CT_ERR_OOM, op, "out of memory allocating a storage");
    return NULL;
  }
  if (inline_data) {
    ct__thread_stats *st = ct__stats();
    s->data = (char *)s + CT__STORAGE_HEADER;
    ct__local_add(st->live_bytes, (int64_t)nbytes);
    ct__local_add(st->live_blocks, 1);
  } else {
    s->data = nbytes ? a->alloc(a->ctx, nbytes) : NULL;
    if (nbytes && !s->data && device.type != CT_DEVICE_META) {
      ct__pool_free(s, sizeof(ct_storage));
      ct_fail(CT_ERR_OOM, op, "out of memory allocating %zu bytes on %s", nbytes,
              ct_device_type_name((ct_device_type)device.type));
      return NULL;
    }
  }
  s->refcount = 1;
  s->version = 0;
  s->nbytes = nbytes;
  s->device = device;
  s->inline_data = (uint8_t)inline_data;
  s->allocator = a;
  s->deleter = NULL;
  s->deleter_ctx = NULL;
  ct__local_add(ct__stats()->live_storages, 1);
  return s;
}

/* Drop one reference; true when it was the last. A sole owner (count 1)
 * needs no locked instruction: no other thread can hold a reference to
 * race with. */
static int ct__unref(int32_t *refcount) {
  return ct__atomic_load(refcount) == 1 || ct__atomic_add(refcount, -1) == 0;
}

static void ct__storage_release(ct_storage *s) {
  ct__thread_stats *st;
  if (!ct__unref(&s->refcount)) return;
  st = ct__stats();
  if (s->inline_data) {
    ct__local_add(st->live_bytes, -(int64_t)s->nbytes);
    ct__local_add(st->live_blocks, -1);
    ct__pool_free(s, CT__STORAGE_HEADER + CT__INLINE_BYTES);
  } else {
    if (s->deleter)
      s->deleter(s->data, s->deleter_ctx);
    else if (s->allocator && s->data)
      s->allocator->free(s->allocator->ctx, s->data, s->nbytes);
    ct__pool_free(s, sizeof(ct_storage));
  }
  ct__local_add(st->live_storages, -1);
}

/* A new tensor over `storage` (whose reference it takes over). */
static ct_tensor *ct__tensor_wrap(ct_storage *storage, ct_dtype dtype, int ndim, const int64_t *sizes,
                                  const int64_t *strides, int64_t offset, int64_t numel) {
  ct_tensor *t = (ct_tensor *)ct__pool_alloc(sizeof(ct_tensor));
  int i;
  if (!t) {
    ct__storage_release(storage);
    ct_fail(CT_ERR_OOM, "ctorch", "out of memory allocating a tensor");
    return NULL;
  }
  t->refcount = 1;
  t->dtype = (int8_t)dtype;
  t->ndim = (int8_t)ndim;
  t->flags = 0;
  t->device = storage->device;
  t->keys = ct_keyset_of(ct_device_backend_key((ct_device_type)storage->device.type));
  t->storage = storage;
  t->offset = offset;
  t->numel = numel;
  for (i = 0; i < ndim; i++) {
    t->sizes[i] = sizes[i];
    t->strides[i] = strides[i];
  }
  t->autograd = NULL;
  ct__local_add(ct__stats()->live_tensors, 1);
  return t;
}

/* Register a new tensor with the innermost temporaries scope at this level. */
static ct_tensor *ct__track(ct_tensor *t) {
  ct__scope *s = ct__tls.scope;
  if (!t || !s || s->depth != ct__tls.depth) return t;
  if (s->n == s->cap) {
    int cap = s->cap * 2;
    ct_tensor **items = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)cap);
    if (!items) return t; /* cannot track: the caller still gets a valid reference */
    memcpy(items, s->items, sizeof(ct_tensor *) * (size_t)s->n);
    if (s->items != s->inline_items) CT_FREE(s->items);
    s->items = items;
    s->cap = cap;
  }
  s->items[s->n++] = t;
  return t;
}

/* Fresh contiguous tensor; untracked (kernels use it for their outputs). */
static ct_tensor *ct__empty(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device) {
  int64_t strides[CT_MAX_DIMS];
  int64_t numel;
  ct_storage *s;
  if (CT_UNLIKELY(!ct__initialized)) ct__init();
  numel = ct__checked_numel(op, ndim, sizes, dtype);
  if (numel < 0) return NULL;
  if ((unsigned)device.type >= CT_DEVICE_NUM) {
    ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)device.type);
    return NULL;
  }
  s = ct__storage_new((size_t)numel * ct_dtype_size(dtype), device, op);
  if (!s) return NULL;
  ct__contiguous_strides(ndim, sizes, strides);
  return ct__tensor_wrap(s, dtype, ndim, sizes, strides, 0, numel);
}

static ct_tensor *ct__empty_like(const char *op, const ct_tensor *t, ct_dtype dtype) {
  return ct__empty(op, t->ndim, t->sizes, dtype, t->device);
}

/* A view of t's storage with new metadata: the one place views are made. */
static ct_tensor *ct__make_view(const ct_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
                                int64_t offset) {
  int64_t numel = 1;
  int i;
  ct_tensor *v;
  for (i = 0; i < ndim; i++) numel *= sizes[i];
  ct__atomic_add(&t->storage->refcount, 1);
  v = ct__tensor_wrap(t->storage, (ct_dtype)t->dtype, ndim, sizes, strides, offset, numel);
  if (v) v->keys = t->keys & ~CT_AUTOGRAD_KEYS; /* a view starts outside the graph; autograd kernels attach it */
  return v;
}

CTDEF ct_tensor *ct_retain(ct_tensor *t) {
  if (t) ct__atomic_add(&t->refcount, 1);
  return t;
}

static void ct__autograd_release(ct_tensor *t); /* autograd.h, when present */

CTDEF void ct_release(ct_tensor *t) {
  if (!t || !ct__unref(&t->refcount)) return;
  if (t->autograd) ct__autograd_release(t);
  ct__storage_release(t->storage);
  ct__pool_free(t, sizeof(ct_tensor));
  ct__local_add(ct__stats()->live_tensors, -1);
}


/* ---- temporaries ---- */
CTDEF ct_tensor *ct_keep(ct_tensor *t) {
  ct__scope *s = ct__tls.scope;
  int i;
  if (!t || !s || s->depth != ct__tls.depth) return t;
  for (i = s->n - 1; i >= 0; i--) {
    if (s->items[i] == t) {
      memmove(s->items + i, s->items + i + 1, sizeof(ct_tensor *) * (size_t)(s->n - i - 1));
      s->n--;
      if (s->parent && s->parent->depth == s->depth) {
        ct__tls.scope = s->parent; /* hand it to the enclosing scope */
        ct__track(t);
        ct__tls.scope = s;
      }
      break;
    }
  }
  return t;
}

/* ---- factories ---- */
CTDEF ct_tensor *ct_empty_opts(int ndim, const int64_t *sizes, ct_options opts) {
  return ct__track(ct__empty("ct_empty", ndim, sizes, opts.dtype, opts.device));
}
CTDEF ct_tensor *ct_empty(int ndim, const int64_t *sizes, ct_dtype dtype) {
  return ct__track(ct__empty("ct_empty", ndim, sizes, dtype, CT_CPU));
}

CTDEF ct_tensor *ct_empty_strided(int ndim, const int64_t *sizes, const int64_t *strides, ct_options opts) {
  static const char *op = "ct_empty_strided";
  int64_t numel, extent = 1;
  ct_storage *s;
  int i;
  if (CT_UNLIKELY(!ct__initialized)) ct__init();
  numel = ct__checked_numel(op, ndim, sizes, opts.dtype);
  if (numel < 0) return NULL;
  if (ndim > 0 && !strides) return ct__fail_null(op, "strides"), (ct_tensor *)NULL;
  for (i = 0; i < ndim; i++) {
    if (strides[i] < 0) {
      ct_fail(CT_ERR_VIEW, op, "negative stride %lld at dimension %d", (long long)strides[i], i);
      return NULL;
    }
    if (numel && strides[i] > (INT64_MAX / 2) / (sizes[i] ? sizes[i] : 1)) {
      ct_fail(CT_ERR_SIZE, op, "stride %lld at dimension %d overflows", (long long)strides[i], i);
      return NULL;
    }
    if (numel) extent += (sizes[i] - 1) * strides[i];
  }
  if (!numel) extent = 0;
  if (extent > (int64_t)(INT64_MAX / 16)) {
    ct_fail(CT_ERR_SIZE, op, "storage extent overflows");
    return NULL;
  }
  s = ct__storage_new((size_t)extent * ct_dtype_size(opts.dtype), opts.device, op);
  if (!s) return NULL;
  return ct__track(ct__tensor_wrap(s, opts.dtype, ndim, sizes, strides, 0, numel));
}

static ct_tensor *ct__filled(const char *op, int ndim, const int64_t *sizes, ct_scalar value, ct_options opts) {
  ct_tensor *t = ct__empty(op, ndim, sizes, opts.dtype, opts.device);
  if (t && ct_fill_(t, value) != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__track(t);
}
CTDEF ct_tensor *ct_zeros(int ndim, const int64_t *sizes, ct_dtype dtype) {
  return ct__filled("ct_zeros", ndim, sizes, ct_int(0), ct_opts(dtype, CT_CPU));
}
CTDEF ct_tensor *ct_ones(int ndim, const int64_t *sizes, ct_dtype dtype) {
  return ct__filled("ct_ones", ndim, sizes, ct_int(1), ct_opts(dtype, CT_CPU));
}
CTDEF ct_tensor *ct_full(int ndim, const int64_t *sizes, ct_scalar value, ct_dtype dtype) {
  return ct__filled("ct_full", ndim, sizes, value, ct_opts(dtype, CT_CPU));
}
CTDEF ct_tensor *ct_full_opts(int ndim, const int64_t *sizes, ct_scalar value, ct_options opts) {
  return ct__filled("ct_full", ndim, sizes, value, opts);
}
CTDEF ct_tensor *ct_scalar_tensor(ct_scalar value, ct_dtype dtype) {
  return ct__filled("ct_scalar_tensor", 0, NULL, value, ct_opts(dtype, CT_CPU));
}

CTDEF ct_tensor *ct_empty_like(const ct_tensor *t) {
  if (!t) return ct__fail_null("ct_empty_like", "t"), (ct_tensor *)NULL;
  return ct__track(ct__empty_like("ct_empty_like", t, (ct_dtype)t->dtype));
}
CTDEF ct_tensor *ct_full_like(const ct_tensor *t, ct_scalar value) {
  if (!t) return ct__fail_null("ct_full_like", "t"), (ct_tensor *)NULL;
  return ct__filled("ct_full_like", t->ndim, t->sizes, value, ct_opts((ct_dtype)t->dtype, t->device));
}
CTDEF ct_tensor *ct_zeros_like(const ct_tensor *t) {
  if (!t) return ct__fail_null("ct_zeros_like", "t"), (ct_tensor *)NULL;
  return ct__filled("ct_zeros_like", t->ndim, t->sizes, ct_int(0), ct_opts((ct_dtype)t->dtype, t->device));
}
CTDEF ct_tensor *ct_ones_like(const ct_tensor *t) {
  if (!t) return ct__fail_null("ct_ones_like", "t"), (ct_tensor *)NULL;
  return ct__filled("ct_ones_like", t->ndim, t->sizes, ct_int(1), ct_opts((ct_dtype)t->dtype, t->device));
}

/* Store one double into an element of any dtype (the slow, general path). */
static void ct__store_double(void *p, ct_dtype dtype, double v) {
  switch (dtype) {
  case CT_F32: *(float *)p = (float)v; break;
  case CT_F64: *(double *)p = v; break;
  case CT_F16: *(uint16_t *)p = ct_f32_to_f16((float)v); break;
  case CT_BF16: *(uint16_t *)p = ct_f32_to_bf16((float)v); break;
  case CT_I64: *(int64_t *)p = (int64_t)v; break;
  case CT_I32: *(int32_t *)p = (int32_t)v; break;
  case CT_U8: *(uint8_t *)p = (uint8_t)(int64_t)v; break;
  case CT_BOOL: *(bool *)p = v != 0; break;
  default: break;
  }
}
static double ct__load_double(const void *p, ct_dtype dtype) {
  switch (dtype) {
  case CT_F32: return *(const float *)p;
  case CT_F64: return *(const double *)p;
  case CT_F16: return ct_f16_to_f32(*(const uint16_t *)p);
  case CT_BF16: return ct_bf16_to_f32(*(const uint16_t *)p);
  case CT_I64: return (double)*(const int64_t *)p;
  case CT_I32: return *(const int32_t *)p;
  case CT_U8: return *(const uint8_t *)p;
  case CT_BOOL: return *(const bool *)p ? 1.0 : 0.0;
  default: return 0;
  }
}

CTDEF ct_tensor *ct_arange(double start, double end, double step, ct_dtype dtype) {
  static const char *op = "ct_arange";
  double n;
  int64_t len, i;
  ct_tensor *t;
  if (step == 0 || step != step) return ct_fail(CT_ERR_INVALID, op, "step must be nonzero"), (ct_tensor *)NULL;
  if (!isfinite(start) || !isfinite(end))
    return ct_fail(CT_ERR_INVALID, op, "unsupported range: %g -> %g", start, end), (ct_tensor *)NULL;
  if ((step > 0 && end < start) || (step < 0 && end > start))
    return ct_fail(CT_ERR_INVALID, op, "upper bound and larger bound inconsistent with step sign"), (ct_tensor *)NULL;
  n = ceil((end - start) / step);
  if (n > 9.0e15) return ct_fail(CT_ERR_SIZE, op, "too many elements (%g)", n), (ct_tensor *)NULL;
  len = (int64_t)n;
  t = ct__empty(op, 1, &len, dtype, CT_CPU);
  if (!t) return NULL;
  for (i = 0; i < len; i++)
    ct__store_double((char *)t->storage->data + (size_t)i * ct_dtype_size(dtype), dtype, start + (double)i * step);
  return ct__track(t);
}

CTDEF ct_tensor *ct_from_array(int ndim, const int64_t *sizes, ct_dtype dtype, const void *data) {
  ct_tensor *t;
  if (!data) return ct__fail_null("ct_from_array", "data"), (ct_tensor *)NULL;
  t = ct__empty("ct_from_array", ndim, sizes, dtype, CT_CPU);
  if (!t) return NULL;
  if (t->numel) memcpy(t->storage->data, data, (size_t)t->numel * ct_dtype_size(dtype));
  return ct__track(t);
}

static ct_tensor *ct__from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dtype,
                                void (*deleter)(void *data, void *ctx), void *ctx) {
  static const char *op = "ct_from_blob";
  int64_t st[CT_MAX_DIMS], numel, extent = 1;
  ct_storage *s;
  int i;
  if (CT_UNLIKELY(!ct__initialized)) ct__init();
  numel = ct__checked_numel(op, ndim, sizes, dtype);
  if (numel < 0) return NULL;
  if (!data && numel > 0) return ct__fail_null(op, "data"), (ct_tensor *)NULL;
  if (strides) {
    for (i = 0; i < ndim; i++) {
      if (strides[i] < 0)
        return ct_fail(CT_ERR_VIEW, op, "negative stride %lld at dimension %d", (long long)strides[i], i),
               (ct_tensor *)NULL;
      st[i] = strides[i];
      if (numel && sizes[i] > 1 && strides[i] > (INT64_MAX / 2 - extent) / (sizes[i] - 1))
        return ct_fail(CT_ERR_SIZE, op, "stride %lld at dimension %d overflows the addressable extent", (long long)strides[i], i),
               (ct_tensor *)NULL;
      if (numel) extent += (sizes[i] - 1) * strides[i];
    }
  } else {
    ct__contiguous_strides(ndim, sizes, st);
    extent = numel;
  }
  if (numel && (uint64_t)extent > SIZE_MAX / ct_dtype_size(dtype))
    return ct_fail(CT_ERR_SIZE, op, "the buffer's extent overflows"), (ct_tensor *)NULL;
  s = (ct_storage *)ct__pool_alloc(sizeof(ct_storage));
  if (!s) return ct_fail(CT_ERR_OOM, op, "out of memory"), (ct_tensor *)NULL;
  s->refcount = 1;
  s->version = 0;
  s->data = data;
  s->nbytes = numel ? (size_t)extent * ct_dtype_size(dtype) : 0;
  s->device = CT_CPU;
  s->inline_data = 0;
  s->allocator = NULL;
  s->deleter = deleter;
  s->deleter_ctx = ctx;
  ct__local_add(ct__stats()->live_storages, 1);
  return ct__tensor_wrap(s, dtype, ndim, sizes, st, 0, numel);
}
CTDEF ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dtype,
                              void (*deleter)(void *data, void *ctx), void *ctx) {
  return ct__track(ct__from_blob(data, ndim, sizes, strides, dtype, deleter, ctx));
}

/* ---- views ---- */
#define CT__CHECK_T(op, t)                                            \
  do {                                                                \
    if (CT_UNLIKELY(!(t))) return ct__fail_null(op, #t), (ct_tensor *)NULL; \
  } while (0)

/* Strides for viewing (sizes, strides) as new_sizes without copying, or 0
 * if the memory layout does not allow it (PyTorch's computeStride). */
static int ct__view_strides(int ndim, const int64_t *sizes, const int64_t *strides, int64_t numel, int new_ndim,
                            const int64_t *new_sizes, int64_t *new_strides) {
  int64_t chunk, tensor_numel = 1, view_numel = 1;
  int td, vd = new_ndim - 1;
  if (numel == 0 || ndim == 0) {
    ct__contiguous_strides(new_ndim, new_sizes, new_strides);
    return 1;
  }
  chunk = strides[ndim - 1];
  for (td = ndim - 1; td >= 0; td--) {
    tensor_numel *= sizes[td];
    if (td == 0 || (sizes[td - 1] != 1 && strides[td - 1] != tensor_numel * chunk)) {
      while (vd >= 0 && (view_numel < tensor_numel || new_sizes[vd] == 1)) {
        new_strides[vd] = view_numel * chunk;
        view_numel *= new_sizes[vd];
        vd--;
      }
      if (view_numel != tensor_numel) return 0;
      if (td > 0) {
        chunk = strides[td - 1];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  return vd == -1;
}

/* Resolve a requested shape with at most one -1 against numel. */
static int ct__infer_shape(const char *op, int ndim, const int64_t *sizes, int64_t numel, int64_t *out) {
  int i, infer = -1;
  int64_t known = 1;
  char buf[160];
  if (ndim < 0 || ndim > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "rank %d is out of range [0, %d]", ndim, CT_MAX_DIMS), 0;
  if (ndim > 0 && !sizes) return ct__fail_null(op, "sizes"), 0;
  for (i = 0; i < ndim; i++) {
    out[i] = sizes[i];
    if (sizes[i] == -1) {
      if (infer >= 0) return ct_fail(CT_ERR_SHAPE, op, "only one dimension can be inferred"), 0;
      infer = i;
    } else if (sizes[i] < 0) {
      return ct_fail(CT_ERR_SIZE, op, "invalid shape dimension %lld", (long long)sizes[i]), 0;
    } else if (sizes[i] && known > INT64_MAX / sizes[i]) {
      return ct_fail(CT_ERR_SIZE, op, "shape %s overflows", ct_shape_format(ndim, sizes, buf, sizeof buf)), 0;
    } else {
      known *= sizes[i];
    }
  }
  if (infer >= 0) {
    if (known == 0 || numel % known != 0)
      return ct_fail(CT_ERR_SHAPE, op, "shape '%s' is invalid for input of size %lld",
                     ct_shape_format(ndim, sizes, buf, sizeof buf), (long long)numel),
             0;
    out[infer] = numel / known;
  } else if (known != numel) {
    return ct_fail(CT_ERR_SHAPE, op, "shape '%s' is invalid for input of size %lld",
                   ct_shape_format(ndim, sizes, buf, sizeof buf), (long long)numel),
           0;
  }
  return 1;
}

static ct_tensor *ct__view_impl(ct_tensor *t, int ndim, const int64_t *sizes) {
  static const char *op = "ct_view";
  int64_t shape[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  CT__CHECK_T(op, t);
  if (!ct__infer_shape(op, ndim, sizes, t->numel, shape)) return NULL;
  if (!ct__view_strides(t->ndim, t->sizes, t->strides, t->numel, ndim, shape, strides))
    return ct_fail(CT_ERR_VIEW, op,
                   "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                   "across two contiguous subspaces). Use ct_reshape instead."),
           (ct_tensor *)NULL;
  return ct__track(ct__make_view(t, ndim, shape, strides, t->offset));
}


static ct_tensor *ct__as_strided_impl(ct_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides, int64_t offset) {
  static const char *op = "ct_as_strided";
  int64_t numel, last = 0, storage_elems;
  int i;
  char buf[160];
  CT__CHECK_T(op, t);
  numel = ct__checked_numel(op, ndim, sizes, (ct_dtype)t->dtype);
  if (numel < 0) return NULL;
  if (ndim > 0 && !strides) return ct__fail_null(op, "strides"), (ct_tensor *)NULL;
  if (offset < 0) return ct_fail(CT_ERR_VIEW, op, "negative storage offset %lld", (long long)offset), (ct_tensor *)NULL;
  for (i = 0; i < ndim; i++) {
    if (strides[i] < 0)
      return ct_fail(CT_ERR_VIEW, op, "negative stride %lld at dimension %d is not supported", (long long)strides[i], i),
             (ct_tensor *)NULL;
    if (numel && sizes[i] > 1 && strides[i] > (INT64_MAX - last) / (sizes[i] - 1))
      return ct_fail(CT_ERR_VIEW, op, "stride %lld at dimension %d overflows", (long long)strides[i], i), (ct_tensor *)NULL;
    if (numel) last += (sizes[i] - 1) * strides[i];
  }
  storage_elems = (int64_t)(t->storage->nbytes / ct_dtype_size((ct_dtype)t->dtype));
  if ((numel && (offset > storage_elems || last >= storage_elems - offset)) || (!numel && offset > storage_elems))
    return ct_fail(CT_ERR_VIEW, op,
                   "setStorage: sizes %s, strides with offset %lld reach element %lld, out of bounds for storage "
                   "of %lld elements",
                   ct_shape_format(ndim, sizes, buf, sizeof buf), (long long)offset,
                   (long long)(numel ? offset + last : offset), (long long)storage_elems),
           (ct_tensor *)NULL;
  return ct__track(ct__make_view(t, ndim, sizes, strides, offset));
}

static ct_tensor *ct__transpose_impl(ct_tensor *t, int64_t dim0, int64_t dim1) {
  static const char *op = "ct_transpose";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], tmp;
  CT__CHECK_T(op, t);
  if ((dim0 = ct__wrap_dim(op, dim0, t->ndim)) < 0 || (dim1 = ct__wrap_dim(op, dim1, t->ndim)) < 0) return NULL;
  memcpy(sizes, t->sizes, sizeof sizes);
  memcpy(strides, t->strides, sizeof strides);
  if (t->ndim > 0) {
    tmp = sizes[dim0], sizes[dim0] = sizes[dim1], sizes[dim1] = tmp;
    tmp = strides[dim0], strides[dim0] = strides[dim1], strides[dim1] = tmp;
  }
  return ct__track(ct__make_view(t, t->ndim, sizes, strides, t->offset));
}

static ct_tensor *ct__t_impl(ct_tensor *t) {
  CT__CHECK_T("ct_t", t);
  if (t->ndim > 2)
    return ct_fail(CT_ERR_RANK, "ct_t", "expects a tensor with <= 2 dimensions, but self is %dD", t->ndim), (ct_tensor *)NULL;
  return ct_transpose(t, 0, t->ndim < 2 ? 0 : 1);
}

static ct_tensor *ct__permute_impl(ct_tensor *t, int ndim, const int64_t *dims) {
  static const char *op = "ct_permute";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int seen[CT_MAX_DIMS] = {0};
  int i;
  CT__CHECK_T(op, t);
  if (ndim != t->ndim)
    return ct_fail(CT_ERR_SHAPE, op, "number of dims don't match in permute (input has %d, dims has %d)", t->ndim, ndim),
           (ct_tensor *)NULL;
  if (ndim > 0 && !dims) return ct__fail_null(op, "dims"), (ct_tensor *)NULL;
  for (i = 0; i < ndim; i++) {
    int64_t d = ct__wrap_dim(op, dims[i], ndim);
    if (d < 0) return NULL;
    if (seen[d]) return ct_fail(CT_ERR_INVALID, op, "repeated dim %lld in permute", (long long)dims[i]), (ct_tensor *)NULL;
    seen[d] = 1;
    sizes[i] = t->sizes[d];
    strides[i] = t->strides[d];
  }
  return ct__track(ct__make_view(t, ndim, sizes, strides, t->offset));
}

static ct_tensor *ct__flatten_impl(ct_tensor *t, int64_t start_dim, int64_t end_dim) {
  static const char *op = "ct_flatten";
  int64_t sizes[CT_MAX_DIMS], n = 1;
  int i, k = 0;
  CT__CHECK_T(op, t);
  if ((start_dim = ct__wrap_dim(op, start_dim, t->ndim)) < 0 || (end_dim = ct__wrap_dim(op, end_dim, t->ndim)) < 0)
    return NULL;
  if (start_dim > end_dim)
    return ct_fail(CT_ERR_INVALID, op, "start_dim cannot come after end_dim"), (ct_tensor *)NULL;
  if (t->ndim == 0) {
    int64_t one = 1;
    return ct_reshape(t, 1, &one);
  }
  for (i = 0; i < start_dim; i++) sizes[k++] = t->sizes[i];
  for (i = (int)start_dim; i <= end_dim; i++) n *= t->sizes[i];
  sizes[k++] = n;
  for (i = (int)end_dim + 1; i < t->ndim; i++) sizes[k++] = t->sizes[i];
  return ct_reshape(t, k, sizes);
}

static ct_tensor *ct__squeeze_dims(ct_tensor *t, int64_t only_dim) {
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int i, k = 0;
  for (i = 0; i < t->ndim; i++) {
    if (t->sizes[i] == 1 && (only_dim < 0 || only_dim == i)) continue;
    sizes[k] = t->sizes[i];
    strides[k++] = t->strides[i];
  }
  return ct__track(ct__make_view(t, k, sizes, strides, t->offset));
}
static ct_tensor *ct__squeeze_impl(ct_tensor *t) {
  CT__CHECK_T("ct_squeeze", t);
  return ct__squeeze_dims(t, -1);
}
static ct_tensor *ct__squeeze_dim_impl(ct_tensor *t, int64_t dim) {
  CT__CHECK_T("ct_squeeze_dim", t);
  if ((dim = ct__wrap_dim("ct_squeeze_dim", dim, t->ndim)) < 0) return NULL;
  return ct__squeeze_dims(t, t->ndim ? dim : -2);
}

static ct_tensor *ct__unsqueeze_impl(ct_tensor *t, int64_t dim) {
  static const char *op = "ct_unsqueeze";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  int i, k = 0;
  CT__CHECK_T(op, t);
  if (t->ndim >= CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, op, "result rank %d exceeds CT_MAX_DIMS (%d)", t->ndim + 1, CT_MAX_DIMS), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim + 1)) < 0) return NULL;
  for (i = 0; i <= t->ndim; i++) {
    if (i == dim) {
      sizes[k] = 1;
      strides[k++] = i < t->ndim ? t->sizes[i] * t->strides[i] : 1;
    }
    if (i < t->ndim) {
      sizes[k] = t->sizes[i];
      strides[k++] = t->strides[i];
    }
  }
  return ct__track(ct__make_view(t, k, sizes, strides, t->offset));
}

static ct_tensor *ct__expand(const char *op, ct_tensor *t, int ndim, const int64_t *sizes, int allow_minus_one) {
  int64_t out_sizes[CT_MAX_DIMS], out_strides[CT_MAX_DIMS];
  int i;
  char b1[160], b2[160];
  CT__CHECK_T(op, t);
  if (ndim < 0 || ndim > CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, op, "rank %d is out of range [0, %d]", ndim, CT_MAX_DIMS), (ct_tensor *)NULL;
  if (ndim > 0 && !sizes) return ct__fail_null(op, "sizes"), (ct_tensor *)NULL;
  if (ndim < t->ndim)
    return ct_fail(CT_ERR_SHAPE, op,
                   "the number of sizes provided (%d) must be greater or equal to the number of dimensions in the "
                   "tensor (%d)",
                   ndim, t->ndim),
           (ct_tensor *)NULL;
  for (i = ndim - 1; i >= 0; i--) {
    int j = i - (ndim - t->ndim);
    int64_t want = sizes[i];
    if (j < 0) {
      if (want < 0)
        return ct_fail(CT_ERR_SHAPE, op, "the expanded size of the tensor (%lld) isn't allowed in a leading, "
                       "non-existing dimension %d", (long long)want, i),
               (ct_tensor *)NULL;
      out_sizes[i] = want;
      out_strides[i] = 0;
      continue;
    }
    if (want == -1 && allow_minus_one) want = t->sizes[j];
    if (want < 0) return ct_fail(CT_ERR_SIZE, op, "invalid size %lld at dimension %d", (long long)want, i), (ct_tensor *)NULL;
    if (t->sizes[j] == want) {
      out_sizes[i] = want;
      out_strides[i] = t->strides[j];
    } else if (t->sizes[j] == 1) {
      out_sizes[i] = want;
      out_strides[i] = 0;
    } else {
      return ct_fail(CT_ERR_SHAPE, op,
                     "the expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton "
                     "dimension %d. Target sizes: %s. Tensor sizes: %s",
                     (long long)want, (long long)t->sizes[j], i, ct_shape_format(ndim, sizes, b1, sizeof b1),
                     ct_shape_format(t->ndim, t->sizes, b2, sizeof b2)),
             (ct_tensor *)NULL;
    }
  }
  if (ct__checked_numel(op, ndim, out_sizes, (ct_dtype)t->dtype) < 0) return NULL;
  return ct__track(ct__make_view(t, ndim, out_sizes, out_strides, t->offset));
}
static ct_tensor *ct__expand_impl(ct_tensor *t, int ndim, const int64_t *sizes) { return ct__expand("ct_expand", t, ndim, sizes, 1); }

static ct_tensor *ct__slice_impl(ct_tensor *t, int64_t dim, int64_t start, int64_t end, int64_t step) {
  static const char *op = "ct_slice";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], n;
  CT__CHECK_T(op, t);
  if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "slice() cannot be applied to a 0-dim tensor"), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim)) < 0) return NULL;
  if (step <= 0) return ct_fail(CT_ERR_INVALID, op, "slice step must be positive (got %lld)", (long long)step), (ct_tensor *)NULL;
  n = t->sizes[dim];
  if (start < 0) start += n;
  if (end < 0) end += n;
  start = start < 0 ? 0 : start > n ? n : start;
  end = end < start ? start : end > n ? n : end;
  memcpy(sizes, t->sizes, sizeof sizes);
  memcpy(strides, t->strides, sizeof strides);
  sizes[dim] = end > start ? (end - start - 1) / step + 1 : 0; /* no overflow for huge steps */
  strides[dim] = t->strides[dim] * step;
  return ct__track(ct__make_view(t, t->ndim, sizes, strides, t->offset + start * t->strides[dim]));
}

static ct_tensor *ct__narrow_impl(ct_tensor *t, int64_t dim, int64_t start, int64_t length) {
  static const char *op = "ct_narrow";
  int64_t n;
  CT__CHECK_T(op, t);
  if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "narrow() cannot be applied to a 0-dim tensor"), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim)) < 0) return NULL;
  n = t->sizes[dim];
  if (start < -n || start > n)
    return ct_fail(CT_ERR_INDEX, op, "start out of range (expected to be in range of [%lld, %lld], but got %lld)",
                   (long long)-n, (long long)n, (long long)start),
           (ct_tensor *)NULL;
  if (start < 0) start += n;
  if (length < 0) return ct_fail(CT_ERR_INDEX, op, "length must be non-negative (got %lld)", (long long)length), (ct_tensor *)NULL;
  if (start > n - length)
    return ct_fail(CT_ERR_INDEX, op, "start (%lld) + length (%lld) exceeds dimension size (%lld)", (long long)start,
                   (long long)length, (long long)n),
           (ct_tensor *)NULL;
  return ct_slice(t, dim, start, start + length, 1);
}

static ct_tensor *ct__select_impl(ct_tensor *t, int64_t dim, int64_t index) {
  static const char *op = "ct_select";
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS], n;
  int i, k = 0;
  char buf[160];
  CT__CHECK_T(op, t);
  if (t->ndim == 0) return ct_fail(CT_ERR_RANK, op, "select() cannot be applied to a 0-dim tensor"), (ct_tensor *)NULL;
  if ((dim = ct__wrap_dim(op, dim, t->ndim)) < 0) return NULL;
  n = t->sizes[dim];
  if (index < -n || index >= n)
    return ct_fail(CT_ERR_INDEX, op, "index %lld out of range for tensor of size %s at dimension %lld", (long long)index,
                   ct_shape_format(t->ndim, t->sizes, buf, sizeof buf), (long long)dim),
           (ct_tensor *)NULL;
  if (index < 0) index += n;
  for (i = 0; i < t->ndim; i++) {
    if (i == dim) continue;
    sizes[k] = t->sizes[i];
    strides[k++] = t->strides[i];
  }
  return ct__track(ct__make_view(t, k, sizes, strides, t->offset + index * t->strides[dim]));
}

static ct_tensor *ct__alias_impl(ct_tensor *t) {
  CT__CHECK_T("ct_alias", t);
  return ct__track(ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset));
}

/* ---- copies ---- */



CTDEF ct_tensor *ct_to_device(ct_tensor *t, ct_device device) {
  ct_tensor *c;
  CT__CHECK_T("ct_to_device", t);
  if (ct_device_eq(t->device, device)) return ct__track(ct_retain(t));
  c = ct__empty("ct_to_device", t->ndim, t->sizes, (ct_dtype)t->dtype, device);
  if (c && ct_copy_(c, t) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return ct__track(c);
}

/* ---- queries ---- */
CTDEF bool ct_is_contiguous(const ct_tensor *t) {
  int64_t expected = 1;
  int i;
  if (!t) return false;
  if (t->numel < 2) return true;
  for (i = t->ndim - 1; i >= 0; i--) {
    if (t->sizes[i] == 1) continue;
    if (t->strides[i] != expected) return false;
    expected *= t->sizes[i];
  }
  return true;
}

CTDEF bool ct_same_shape(const ct_tensor *a, const ct_tensor *b) {
  int i;
  if (!a || !b || a->ndim != b->ndim) return false;
  for (i = 0; i < a->ndim; i++)
    if (a->sizes[i] != b->sizes[i]) return false;
  return true;
}

CTDEF int64_t ct_size(const ct_tensor *t, int64_t dim) {
  if (!t) return ct__fail_null("ct_size", "t"), -1;
  if (t->ndim == 0) return ct_fail(CT_ERR_INDEX, "ct_size", "a 0-dim tensor has no dimension %lld", (long long)dim), -1;
  if ((dim = ct__wrap_dim("ct_size", dim, t->ndim)) < 0) return -1;
  return t->sizes[dim];
}

CTDEF void *ct_data_ptr(const ct_tensor *t) {
  if (!t || !t->storage->data) return NULL;
  return (char *)t->storage->data + (size_t)t->offset * ct_dtype_size((ct_dtype)t->dtype);
}

/* ---- elements ---- */
static const char *ct__element_ptr(const char *op, const ct_tensor *t, int64_t index) {
  int64_t off = t->offset;
  int i;
  if (index < 0 || index >= t->numel) {
    ct_fail(CT_ERR_INDEX, op, "index %lld is out of bounds for a tensor of %lld elements", (long long)index,
            (long long)t->numel);
    return NULL;
  }
  if (t->device.type != CT_DEVICE_CPU) {
    ct_fail(CT_ERR_DEVICE, op, "element access needs a CPU tensor, got one on %s",
            ct_device_type_name((ct_device_type)t->device.type));
    return NULL;
  }
  for (i = t->ndim - 1; i >= 0; i--) {
    off += (index % t->sizes[i]) * t->strides[i];
    index /= t->sizes[i];
  }
  return (const char *)t->storage->data + (size_t)off * ct_dtype_size((ct_dtype)t->dtype);
}

CTDEF double ct_get(const ct_tensor *t, int64_t index) {
  const char *p;
  if (!t) return ct__fail_null("ct_get", "t"), NAN;
  p = ct__element_ptr("ct_get", t, index);
  return p ? ct__load_double(p, (ct_dtype)t->dtype) : NAN;
}
CTDEF int64_t ct_get_int(const ct_tensor *t, int64_t index) {
  const char *p;
  if (!t) return ct__fail_null("ct_get_int", "t"), 0;
  p = ct__element_ptr("ct_get_int", t, index);
  if (!p) return 0;
  if (t->dtype == CT_I64) return *(const int64_t *)p;
  return (int64_t)ct__load_double(p, (ct_dtype)t->dtype);
}
CTDEF ct_status ct_set(ct_tensor *t, int64_t index, double value) {
  const char *p;
  if (!t) return ct__fail_null("ct_set", "t");
  p = ct__element_ptr("ct_set", t, index);
  if (!p) return ct_last_error();
  ct__store_double((void *)p, (ct_dtype)t->dtype, value);
  t->storage->version++;
  return CT_OK;
}
CTDEF ct_status ct_item(const ct_tensor *t, double *value) {
  if (!t) return ct__fail_null("ct_item", "t");
  if (!value) return ct__fail_null("ct_item", "value");
  if (t->numel != 1)
    return ct_fail(CT_ERR_SHAPE, "ct_item", "a tensor with %lld elements cannot be converted to a scalar",
                   (long long)t->numel);
  if (!ct__element_ptr("ct_item", t, 0)) return ct_last_error();
  *value = ct_get(t, 0);
  return CT_OK;
}
CTDEF ct_status ct_to_array(const ct_tensor *t, ct_dtype dtype, void *dst) {
  ct_tensor *view;
  ct_status st;
  if (!t) return ct__fail_null("ct_to_array", "t");
  if (!dst) return ct__fail_null("ct_to_array", "dst");
  if (!ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, "ct_to_array", "invalid dtype %d", (int)dtype);
  view = ct__from_blob(dst, t->ndim, t->sizes, NULL, dtype, NULL, NULL);
  if (!view) return ct_last_error();
  st = CT_OK;
  CT_NO_GRAD { st = ct_copy_(view, (ct_tensor *)t); } /* reading values out is not an op on the graph */
  ct_release(view);
  return st;
}

CT_EXTERN_C_END
#endif /* CT__TENSOR_IMPL */
/* ---- ctorch/dispatch.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__DISPATCH_IMPL)
#define CT__DISPATCH_IMPL
#include <stdio.h>
CT_EXTERN_C_BEGIN

/* ---- values and stacks ---- */
static ct_value ct__value(ct_value_tag tag) {
  ct_value v;
  memset(&v, 0, sizeof v);
  v.tag = (uint8_t)tag;
  return v;
}
CTDEF ct_value ct_value_none(void) { return ct__value(CT_VALUE_NONE); }
CTDEF ct_value ct_value_tensor(ct_tensor *t) {
  ct_value v = ct__value(t ? CT_VALUE_TENSOR : CT_VALUE_NONE);
  v.v.tensor = t;
  return v;
}
CTDEF ct_value ct_value_int(int64_t i) {
  ct_value v = ct__value(CT_VALUE_INT);
  v.v.i = i;
  return v;
}
CTDEF ct_value ct_value_double(double d) {
  ct_value v = ct__value(CT_VALUE_DOUBLE);
  v.v.d = d;
  return v;
}
CTDEF ct_value ct_value_bool(bool b) {
  ct_value v = ct__value(CT_VALUE_BOOL);
  v.v.b = b;
  return v;
}
CTDEF ct_value ct_value_scalar(ct_scalar s) {
  ct_value v = ct__value(s.kind == CT_SCALAR_NONE ? CT_VALUE_NONE : CT_VALUE_SCALAR);
  v.v.scalar = s;
  return v;
}
CTDEF ct_value ct_value_dtype(ct_dtype d) {
  ct_value v = ct__value(d == CT_DTYPE_NONE ? CT_VALUE_NONE : CT_VALUE_DTYPE);
  v.v.dtype = d;
  return v;
}
CTDEF ct_value ct_value_int_list(const int64_t *data, int64_t n) {
  ct_value v = ct__value(CT_VALUE_INT_LIST);
  v.v.ints.data = data;
  v.v.ints.n = n;
  return v;
}
CTDEF ct_value ct_value_tensor_list(ct_tensor *const *data, int64_t n) {
  ct_value v = ct__value(CT_VALUE_TENSOR_LIST);
  v.v.tensors.data = data;
  v.v.tensors.n = n;
  return v;
}
CTDEF ct_value ct_value_string(const char *s) {
  ct_value v = ct__value(s ? CT_VALUE_STRING : CT_VALUE_NONE);
  v.v.str = s;
  return v;
}

CTDEF ct_value ct_value_generator(ct_generator *g) {
  ct_value v = ct__value(g ? CT_VALUE_GENERATOR : CT_VALUE_NONE);
  v.v.gen = g;
  return v;
}
CTDEF void ct_value_release(ct_value *v) {
  if (!v || !v->owned) return;
  if (v->tag == CT_VALUE_TENSOR) ct_release(v->v.tensor);
  if (v->tag == CT_VALUE_TENSOR_LIST) {
    int64_t i;
    for (i = 0; i < v->v.tensors.n; i++) ct_release(v->v.tensors.data[i]);
    CT_FREE((void *)v->v.tensors.data);
  }
  *v = ct_value_none();
}
CTDEF void ct_stack_init(ct_stack *s, ct_value *buf, int cap) {
  s->items = buf;
  s->size = 0;
  s->cap = buf ? cap : 0;
  s->heap = 0;
}
CTDEF ct_status ct_stack_push(ct_stack *s, ct_value v) {
  if (!s) return ct__fail_null("ct_stack_push", "stack");
  if (s->size == s->cap) {
    int cap = s->cap ? s->cap * 2 : 8;
    ct_value *items = (ct_value *)CT_MALLOC(sizeof(ct_value) * (size_t)cap);
    if (!items) return ct_fail(CT_ERR_OOM, "ct_stack_push", "out of memory growing a stack to %d values", cap);
    if (s->size) memcpy(items, s->items, sizeof(ct_value) * (size_t)s->size);
    if (s->heap) CT_FREE(s->items);
    s->items = items;
    s->cap = cap;
    s->heap = 1;
  }
  s->items[s->size++] = v;
  return CT_OK;
}
CTDEF ct_value ct_stack_pop(ct_stack *s) {
  if (!s || s->size == 0) return ct_value_none();
  return s->items[--s->size];
}
CTDEF void ct_stack_drop(ct_stack *s, int n) {
  if (!s) return;
  while (n-- > 0 && s->size > 0) {
    ct_value_release(&s->items[--s->size]);
  }
}
CTDEF void ct_stack_free(ct_stack *s) {
  if (!s) return;
  ct_stack_drop(s, s->size);
  if (s->heap) CT_FREE(s->items);
  s->items = NULL;
  s->cap = 0;
  s->heap = 0;
}

/* Check the top nargs values against the schema and normalise them to the
 * exact representation adapters read (ints widen to Scalars and floats,
 * None for optionals). */
static ct_status ct__check_args(const ct_op *op, ct_value *a, int n) {
  int i;
  if (n != op->schema.nargs)
    return ct_fail(CT_ERR_INVALID, op->full_name, "expected %d arguments on the stack, got %d", op->schema.nargs, n);
  for (i = 0; i < n; i++) {
    const ct_arg *s = &op->schema.args[i];
    ct_value *v = &a[i];
    int ok = 0;
    if (v->tag == CT_VALUE_NONE) {
      ok = s->optional || s->type == CT_TYPE_SCALAR_TYPE || s->type == CT_TYPE_STR || s->type == CT_TYPE_GENERATOR;
      /* None as the typed forms read it */
      if (ok && s->type == CT_TYPE_SCALAR_TYPE) v->v.dtype = CT_DTYPE_NONE;
      if (ok && s->type == CT_TYPE_INT) v->v.i = CT_INT_NONE;
      if (ok && s->type == CT_TYPE_FLOAT) v->v.d = (double)NAN;
      if (ok && (s->type == CT_TYPE_STR || s->type == CT_TYPE_GENERATOR)) v->v.str = NULL, v->v.gen = NULL;
      if (ok && s->type == CT_TYPE_INT_LIST) v->v.ints.data = NULL, v->v.ints.n = -1;
      if (ok && s->type == CT_TYPE_SCALAR) v->v.scalar.kind = CT_SCALAR_NONE;
    } else {
      switch (s->type) {
      case CT_TYPE_TENSOR: ok = v->tag == CT_VALUE_TENSOR; break;
      case CT_TYPE_INT: ok = v->tag == CT_VALUE_INT; break;
      case CT_TYPE_FLOAT:
        if (v->tag == CT_VALUE_INT) v->tag = CT_VALUE_DOUBLE, v->v.d = (double)v->v.i;
        ok = v->tag == CT_VALUE_DOUBLE;
        break;
      case CT_TYPE_BOOL: ok = v->tag == CT_VALUE_BOOL; break;
      case CT_TYPE_SCALAR:
        if (v->tag == CT_VALUE_INT) v->tag = CT_VALUE_SCALAR, v->v.scalar = ct_int(v->v.i);
        else if (v->tag == CT_VALUE_DOUBLE) v->tag = CT_VALUE_SCALAR, v->v.scalar = ct_float(v->v.d);
        else if (v->tag == CT_VALUE_BOOL) v->tag = CT_VALUE_SCALAR, v->v.scalar = ct_bool(v->v.b);
        ok = v->tag == CT_VALUE_SCALAR;
        break;
      case CT_TYPE_SCALAR_TYPE: ok = v->tag == CT_VALUE_DTYPE; break;
      case CT_TYPE_INT_LIST: /* a sized list (int[1]) also takes a bare int, as in PyTorch */
        ok = v->tag == CT_VALUE_INT_LIST || (v->tag == CT_VALUE_INT && s->list_size > 0);
        break;
      case CT_TYPE_TENSOR_LIST: ok = v->tag == CT_VALUE_TENSOR_LIST; break;
      case CT_TYPE_STR: ok = v->tag == CT_VALUE_STRING; break;
      case CT_TYPE_GENERATOR: ok = v->tag == CT_VALUE_GENERATOR; break;
      }
    }
    if (!ok)
      return ct_fail(CT_ERR_INVALID, op->full_name, "argument %d ('%s') has the wrong type (value tag %d)", i, s->name,
                     (int)v->tag);
  }
  return CT_OK;
}

/* An int-list argument as adapters read it: a bare int is a list of one
 * (pointing into the stack value, valid while the adapter runs). */
static ct_int_list ct__value_int_list(ct_value *v) {
  ct_int_list l;
  if (v->tag == CT_VALUE_INT) {
    l.data = &v->v.i;
    l.n = 1;
    return l;
  }
  return v->v.ints;
}

/* ---- registry ---- */
typedef struct ct__adapter_entry {
  char signature[96];
  ct_boxed_fn fn;
} ct__adapter_entry;

static struct {
  ct_op **ops;
  int nops, cap;
  ct__adapter_entry adapters[128];
  int nadapters;
  ct_kernel fallbacks[CT_NUM_RUNTIME_KEYS];
  ct_keyset fallthrough; /* global fallthrough keys */
} ct__registry;

static ct_op *ct__find_locked(const char *name) {
  int i;
  const char *dot = strchr(name, '.');
  for (i = 0; i < ct__registry.nops; i++) {
    ct_op *op = ct__registry.ops[i];
    if (dot ? !strcmp(op->full_name, name) : (!strcmp(op->schema.name, name) && !op->schema.overload[0])) return op;
  }
  return NULL;
}

static ct_boxed_fn ct__adapter_for(const char *signature) {
  int i;
  for (i = 0; i < ct__registry.nadapters; i++)
    if (!strcmp(ct__registry.adapters[i].signature, signature)) return ct__registry.adapters[i].fn;
  return NULL;
}

static int ct__has(const ct_kernel *k) { return k->unboxed || k->boxed; }

/* Which kernel serves runtime key k: direct registration, then alias keys,
 * then the key's fallback (see Note [Key set layout] in keys.h). */
static ct_kernel ct__resolve(const ct_op *op, int k) {
  ct_kernel none;
  const ct_kernel *r = op->registered;
  memset(&none, 0, sizeof none);
  if (!ct_key_valid((ct_key)k) || (op->fallthrough & ct_keyset_of((ct_key)k))) return none;
  if (ct__has(&r[k])) return r[k];
  if (ct_key_is_backend((ct_key)k)) {
    if (ct__has(&r[CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD])) return r[CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD];
    if (ct__has(&r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD])) return r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD];
  }
  if (ct_key_is_autograd((ct_key)k)) {
    if (ct__has(&r[CT_KEY_AUTOGRAD])) return r[CT_KEY_AUTOGRAD];
    if (ct__has(&r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD])) {
      /* a composite is differentiated through the ops it calls, unless the
       * backend has its own kernel, which then needs a real autograd kernel */
      int backend = k == CT_KEY_AUTOGRAD_OTHER ? -1 : k - CT_AUTOGRAD_KEY_OFFSET;
      if (backend < 0 || (!ct__has(&r[backend]) && !ct__has(&r[CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD])))
        return r[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD];
    }
  }
  if (ct__has(&ct__registry.fallbacks[k])) return ct__registry.fallbacks[k];
  return none;
}

static int ct__is_fallthrough(const ct_op *op, int k, const ct_kernel *resolved) {
  if (ct__has(resolved)) return 0;
  if (op->fallthrough & ct_keyset_of((ct_key)k)) return 1;
  if (ct__registry.fallthrough & ct_keyset_of((ct_key)k)) return 1;
  return !ct_key_valid((ct_key)k);
}

static void ct__recompute(ct_op *op) {
  ct_keyset mask = 0;
  int k;
  for (k = 0; k < CT_NUM_RUNTIME_KEYS; k++) {
    ct_kernel kern = ct__resolve(op, k);
    if (kern.unboxed && !kern.boxed) kern.boxed = op->adapter; /* may stay NULL: no boxed entry */
    op->table[k] = kern;
    if (!ct__is_fallthrough(op, k, &kern)) mask |= ct_keyset_of((ct_key)k);
  }
  op->mask = mask;
}
static void ct__recompute_all(void) {
  int i;
  for (i = 0; i < ct__registry.nops; i++) ct__recompute(ct__registry.ops[i]);
}

static ct_op *ct__def_locked(const char *schema, const char *fn) {
  ct_schema parsed;
  ct_op *op;
  if (ct__schema_parse(fn, schema, &parsed) != CT_OK) return NULL;
  {
    char full[100];
    snprintf(full, sizeof full, "%s%s%s", parsed.name, parsed.overload[0] ? "." : "", parsed.overload);
    if (ct__find_locked(full)) {
      ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' is already defined", full);
      return NULL;
    }
  }
  if (ct__registry.nops == ct__registry.cap) {
    int cap = ct__registry.cap ? ct__registry.cap * 2 : 64;
    ct_op **ops = (ct_op **)CT_REALLOC(ct__registry.ops, sizeof(ct_op *) * (size_t)cap);
    if (!ops) return ct_fail(CT_ERR_OOM, fn, "out of memory"), (ct_op *)NULL;
    ct__registry.ops = ops;
    ct__registry.cap = cap;
  }
  op = (ct_op *)CT_MALLOC(sizeof(ct_op));
  if (!op) return ct_fail(CT_ERR_OOM, fn, "out of memory"), (ct_op *)NULL;
  memset(op, 0, sizeof *op);
  op->schema = parsed;
  snprintf(op->full_name, sizeof op->full_name, "%s%s%s", parsed.name, parsed.overload[0] ? "." : "", parsed.overload);
  op->adapter = ct__adapter_for(parsed.signature);
  ct__recompute(op);
  ct__registry.ops[ct__registry.nops++] = op;
  return op;
}

static void ct__ensure_init(void) {
  if (CT_UNLIKELY(!ct__atomic_load(&ct__initialized))) ct__init();
}

CTDEF ct_op *ct_def(const char *schema) {
  ct_op *op;
  ct__ensure_init();
  ct__lock();
  op = ct__def_locked(schema, "ct_def");
  ct__unlock();
  return op;
}

CTDEF ct_op *ct_op_find(const char *name) {
  ct_op *op;
  if (!name) return ct__fail_null("ct_op_find", "name"), (ct_op *)NULL;
  ct__ensure_init();
  ct__lock();
  op = ct__find_locked(name);
  ct__unlock();
  if (!op) ct_fail(CT_ERR_INVALID, "ct_op_find", "no operator named '%s'", name);
  return op;
}

static ct_status ct__check_key(const char *fn, ct_key key, int allow_alias) {
  if (!ct_key_valid(key) || (!allow_alias && (int)key >= CT_NUM_RUNTIME_KEYS))
    return ct_fail(CT_ERR_REGISTRATION, fn, "invalid dispatch key %d", (int)key);
  return CT_OK;
}

static ct_status ct__impl_locked(const char *name, ct_key key, ct_kernel kernel, const char *fn) {
  ct_op *op;
  if (!name) return ct__fail_null(fn, "op");
  if (ct__check_key(fn, key, 1) != CT_OK) return CT_ERR_REGISTRATION;
  if (!kernel.unboxed && !kernel.boxed) return ct_fail(CT_ERR_NULL, fn, "kernel for '%s' at key %s has no function", name, ct_key_name(key));
  op = ct__find_locked(name);
  if (!op) return ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' is not defined (call ct_def first)", name);
  if (ct__has(&op->registered[key]))
    return ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' already has a kernel at key %s", op->full_name, ct_key_name(key));
  if ((int)key < CT_NUM_RUNTIME_KEYS && (op->fallthrough & ct_keyset_of(key)))
    return ct_fail(CT_ERR_REGISTRATION, fn, "operator '%s' is registered as fallthrough at key %s", op->full_name,
                   ct_key_name(key));
  if (!kernel.source) kernel.source = "user";
  op->registered[key] = kernel;
  ct__recompute(op);
  return CT_OK;
}

CTDEF ct_status ct_impl(const char *name, ct_key key, ct_kernel kernel) {
  ct_status st;
  ct__ensure_init();
  ct__lock();
  st = ct__impl_locked(name, key, kernel, "ct_impl");
  ct__unlock();
  return st;
}

CTDEF ct_status ct_impl_remove(const char *name, ct_key key) {
  ct_op *op;
  ct_status st = CT_OK;
  if (!name) return ct__fail_null("ct_impl_remove", "op");
  if (ct__check_key("ct_impl_remove", key, 1) != CT_OK) return CT_ERR_REGISTRATION;
  ct__ensure_init();
  ct__lock();
  op = ct__find_locked(name);
  if (!op) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_impl_remove", "operator '%s' is not defined", name);
  } else if ((int)key < CT_NUM_RUNTIME_KEYS && (op->fallthrough & ct_keyset_of(key))) {
    op->fallthrough &= ~ct_keyset_of(key);
    ct__recompute(op);
  } else if (!ct__has(&op->registered[key])) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_impl_remove", "operator '%s' has no kernel at key %s", op->full_name, ct_key_name(key));
  } else {
    memset(&op->registered[key], 0, sizeof(ct_kernel));
    ct__recompute(op);
  }
  ct__unlock();
  return st;
}

CTDEF ct_status ct_fallthrough(const char *name, ct_key key) {
  ct_status st = CT_OK;
  if (ct__check_key("ct_fallthrough", key, 0) != CT_OK) return CT_ERR_REGISTRATION;
  ct__ensure_init();
  ct__lock();
  if (!name) {
    if (ct__has(&ct__registry.fallbacks[key]))
      st = ct_fail(CT_ERR_REGISTRATION, "ct_fallthrough", "key %s already has a fallback", ct_key_name(key));
    else {
      ct__registry.fallthrough |= ct_keyset_of(key);
      ct__recompute_all();
    }
  } else {
    ct_op *op = ct__find_locked(name);
    if (!op)
      st = ct_fail(CT_ERR_REGISTRATION, "ct_fallthrough", "operator '%s' is not defined", name);
    else if (ct__has(&op->registered[key]))
      st = ct_fail(CT_ERR_REGISTRATION, "ct_fallthrough", "operator '%s' already has a kernel at key %s", op->full_name,
                   ct_key_name(key));
    else {
      op->fallthrough |= ct_keyset_of(key);
      ct__recompute(op);
    }
  }
  ct__unlock();
  return st;
}

CTDEF ct_status ct_fallback(ct_key key, ct_kernel kernel) {
  ct_status st = CT_OK;
  if (ct__check_key("ct_fallback", key, 0) != CT_OK) return CT_ERR_REGISTRATION;
  if (!kernel.boxed) return ct_fail(CT_ERR_NULL, "ct_fallback", "a fallback must be a boxed kernel (key %s)", ct_key_name(key));
  ct__ensure_init();
  ct__lock();
  if (ct__has(&ct__registry.fallbacks[key]) || (ct__registry.fallthrough & ct_keyset_of(key))) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_fallback", "key %s already has a fallback", ct_key_name(key));
  } else {
    if (!kernel.source) kernel.source = "fallback";
    ct__registry.fallbacks[key] = kernel;
    ct__recompute_all();
  }
  ct__unlock();
  return st;
}

CTDEF ct_status ct_fallback_remove(ct_key key) {
  ct_status st = CT_OK;
  if (ct__check_key("ct_fallback_remove", key, 0) != CT_OK) return CT_ERR_REGISTRATION;
  ct__ensure_init();
  ct__lock();
  if (!ct__has(&ct__registry.fallbacks[key]) && !(ct__registry.fallthrough & ct_keyset_of(key))) {
    st = ct_fail(CT_ERR_REGISTRATION, "ct_fallback_remove", "key %s has no fallback", ct_key_name(key));
  } else {
    memset(&ct__registry.fallbacks[key], 0, sizeof(ct_kernel));
    ct__registry.fallthrough &= ~ct_keyset_of(key);
    ct__recompute_all();
  }
  ct__unlock();
  return st;
}

static ct_status ct__register_adapter_locked(const char *signature, ct_boxed_fn adapter) {
  int i;
  for (i = 0; i < ct__registry.nadapters; i++) {
    if (!strcmp(ct__registry.adapters[i].signature, signature)) {
      if (ct__registry.adapters[i].fn == adapter) return CT_OK;
      return ct_fail(CT_ERR_REGISTRATION, "ct_register_adapter", "signature '%s' already has an adapter", signature);
    }
  }
  if (ct__registry.nadapters == (int)(sizeof ct__registry.adapters / sizeof ct__registry.adapters[0]))
    return ct_fail(CT_ERR_REGISTRATION, "ct_register_adapter", "too many adapters");
  if (strlen(signature) >= sizeof ct__registry.adapters[0].signature)
    return ct_fail(CT_ERR_REGISTRATION, "ct_register_adapter", "signature too long");
  strcpy(ct__registry.adapters[ct__registry.nadapters].signature, signature);
  ct__registry.adapters[ct__registry.nadapters++].fn = adapter;
  for (i = 0; i < ct__registry.nops; i++) {
    ct_op *op = ct__registry.ops[i];
    if (!op->adapter && !strcmp(op->schema.signature, signature)) {
      op->adapter = adapter;
      ct__recompute(op);
    }
  }
  return CT_OK;
}

CTDEF ct_status ct_register_adapter(const char *signature, ct_boxed_fn adapter) {
  ct_status st;
  if (!signature) return ct__fail_null("ct_register_adapter", "signature");
  if (!adapter) return ct__fail_null("ct_register_adapter", "adapter");
  ct__ensure_init();
  ct__lock();
  st = ct__register_adapter_locked(signature, adapter);
  ct__unlock();
  return st;
}

CTDEF char *ct_op_dump(const ct_op *op, char *buf, size_t cap) {
  size_t len = 0;
  int k, n;
  if (!buf || !cap) return buf;
  buf[0] = '\0';
  if (!op) return buf;
  n = snprintf(buf, cap, "%s [%s]\n", op->full_name, op->schema.signature);
  if (n < 0 || (size_t)n >= cap) return buf;
  len = (size_t)n;
  for (k = 0; k < CT_NUM_KEYS; k++) {
    const ct_kernel *kern = k < CT_NUM_RUNTIME_KEYS ? &op->table[k] : &op->registered[k];
    const char *what;
    if (!ct_key_valid((ct_key)k)) continue;
    if (k < CT_NUM_RUNTIME_KEYS && !(op->mask & ct_keyset_of((ct_key)k))) what = "fallthrough";
    else if (!ct__has(kern)) what = k < CT_NUM_RUNTIME_KEYS ? "missing" : NULL;
    else what = kern->unboxed ? "unboxed" : "boxed";
    if (!what) continue;
    n = snprintf(buf + len, cap - len, "  %-26s %s%s%s%s\n", ct_key_name((ct_key)k), what,
                 ct__has(kern) ? " (" : "", ct__has(kern) && kern->source ? kern->source : "", ct__has(kern) ? ")" : "");
    if (n < 0 || (size_t)n >= cap - len) break;
    len += (size_t)n;
  }
  return buf;
}

/* ---- calling ---- */
static ct_status ct__no_kernel(const ct_op *op, ct_keyset ks) {
  char reg[256];
  size_t len = 0;
  int k;
  ct_key key = ct_keyset_highest(ks & op->mask);
  if (key == CT_KEY_UNDEFINED) key = ct_keyset_highest(ks);
  reg[0] = '\0';
  for (k = 0; k < CT_NUM_KEYS; k++) {
    if (ct__has(&op->registered[k])) {
      int n = snprintf(reg + len, sizeof reg - len, "%s%s", len ? ", " : "", ct_key_name((ct_key)k));
      if (n < 0 || (size_t)n >= sizeof reg - len) break;
      len += (size_t)n;
    }
  }
  return ct_fail(CT_ERR_NO_KERNEL, op->full_name, "no kernel for op '%s' at key %s; registered: %s", op->full_name,
                 key == CT_KEY_UNDEFINED ? "(none: no tensor input and no backend key)" : ct_key_name(key),
                 len ? reg : "(nothing)");
}

CTDEF ct_keyset ct_dispatch_keys(ct_keyset input_keys) { return ct__call_keys(input_keys); }

CTDEF const ct_kernel *ct_dispatch_lookup(const ct_op *op, ct_keyset ks, ct_keyset *chosen) {
  ct_keyset m;
  const ct_kernel *k;
  if (!op) return ct__fail_null("ct_dispatch_lookup", "op"), (const ct_kernel *)NULL;
  m = ks & op->mask;
  k = &op->table[ct_keyset_highest(m)];
  if (CT_UNLIKELY(!m || !ct__has(k))) return ct__no_kernel(op, ks), (const ct_kernel *)NULL;
  if (chosen) *chosen = m;
  return k;
}

static ct_keyset ct__stack_keys(const ct_value *a, int n) {
  ct_keyset ks = 0;
  int i;
  int64_t j;
  for (i = 0; i < n; i++) {
    if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor) ks |= a[i].v.tensor->keys;
    if (a[i].tag == CT_VALUE_TENSOR_LIST)
      for (j = 0; j < a[i].v.tensors.n; j++)
        if (a[i].v.tensors.data[j]) ks |= a[i].v.tensors.data[j]->keys;
  }
  return ks;
}

static ct_status ct__run_boxed(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_stack *stack) {
  if (!k->boxed)
    return ct_fail(CT_ERR_UNSUPPORTED, op->full_name,
                   "no boxing adapter for signature '%s': this kernel can only be called unboxed", op->schema.signature);
  return k->boxed(k, op, ks, stack);
}

CTDEF ct_status ct_redispatch_boxed(const ct_op *op, ct_keyset ks, ct_stack *stack) {
  ct_keyset m;
  const ct_kernel *k;
  if (!op) return ct__fail_null("ct_redispatch_boxed", "op");
  if (!stack) return ct__fail_null("ct_redispatch_boxed", "stack");
  k = ct_dispatch_lookup(op, ks, &m);
  if (!k) return ct_last_error();
  return ct__run_boxed(op, k, m, stack);
}

CTDEF ct_status ct_call_boxed(const ct_op *op, ct_stack *stack) {
  ct_value *a;
  ct_status st;
  if (!op) return ct__fail_null("ct_call_boxed", "op");
  if (!stack) return ct__fail_null("ct_call_boxed", "stack");
  if (stack->size < op->schema.nargs)
    return ct_fail(CT_ERR_INVALID, op->full_name, "expected %d arguments on the stack, got %d", op->schema.nargs, stack->size);
  a = stack->items + stack->size - op->schema.nargs;
  if (ct__check_args(op, a, op->schema.nargs) != CT_OK) return ct_last_error();
  ct__tls.depth++;
  st = ct_redispatch_boxed(op, ct__call_keys(ct__stack_keys(a, op->schema.nargs)), stack);
  ct__tls.depth--;
  return st;
}

/* A typed frontend reaching a boxed-only kernel: box, call, unbox. The
 * values are the op's arguments; the op's nres tensor results are returned
 * as references in results[] (nres 0 for in-place / out= ops). */
static ct_status ct__call_boxed_kernel(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *args, int n,
                                       int nres, ct_tensor **results) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS];
  ct_stack s;
  ct_status st;
  int i;
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < n; i++) s.items[s.size++] = args[i];
  st = ct__check_args(op, s.items, n);
  if (st == CT_OK) st = ct__run_boxed(op, k, ks, &s);
  for (i = nres - 1; st == CT_OK && i >= 0; i--) {
    ct_value v = ct_stack_pop(&s);
    results[i] = v.tag == CT_VALUE_TENSOR ? v.v.tensor : NULL;
    if (v.tag == CT_VALUE_TENSOR && !v.owned) ct_retain(results[i]);
  }
  ct_stack_free(&s);
  return st;
}

CT_EXTERN_C_END
#endif /* CT__DISPATCH_IMPL */
/* ---- ctorch/backend.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__BACKEND_IMPL)
#define CT__BACKEND_IMPL
CT_EXTERN_C_BEGIN

static ct_backend *ct__backends;

/* Priority of the backend holding (op, key), kept beside the registry. */
typedef struct ct__backend_slot {
  const ct_op *op;
  int key;
  int priority;
} ct__backend_slot;
static ct__backend_slot *ct__backend_slots;
static int ct__nbackend_slots, ct__backend_slots_cap;

static ct__backend_slot *ct__backend_slot_for(const ct_op *op, int key, int create) {
  int i;
  for (i = 0; i < ct__nbackend_slots; i++)
    if (ct__backend_slots[i].op == op && ct__backend_slots[i].key == key) return &ct__backend_slots[i];
  if (!create) return NULL;
  if (ct__nbackend_slots == ct__backend_slots_cap) {
    int cap = ct__backend_slots_cap ? ct__backend_slots_cap * 2 : 32;
    ct__backend_slot *s = (ct__backend_slot *)CT_REALLOC(ct__backend_slots, sizeof(ct__backend_slot) * (size_t)cap);
    if (!s) return NULL;
    ct__backend_slots = s;
    ct__backend_slots_cap = cap;
  }
  ct__backend_slots[ct__nbackend_slots].op = op;
  ct__backend_slots[ct__nbackend_slots].key = key;
  ct__backend_slots[ct__nbackend_slots].priority = 0;
  return &ct__backend_slots[ct__nbackend_slots++];
}

static ct_status ct__backend_install_locked(ct_backend *b) {
  int i;
  b->ninstalled = 0;
  for (i = 0; i < b->nkernels; i++) {
    ct_backend_kernel *e = &b->kernels[i];
    ct_op *op;
    ct__backend_slot *slot;
    ct_kernel k;
    e->installed = 0;
    if (!e->op || !e->fn || !ct_key_valid(e->key) || (int)e->key >= CT_NUM_RUNTIME_KEYS) continue;
    op = ct__find_locked(e->op);
    if (!op || (op->fallthrough & ct_keyset_of(e->key))) continue; /* op not in this build */
    if (e->signature && strcmp(e->signature, op->schema.signature) != 0) continue; /* another C signature */
    /* A composite op (no kernel of its own at this key) stays composite: a
     * backend kernel there would cut it off from autograd. */
    if (!ct__has(&op->registered[e->key]) && ct__has(&op->registered[CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD])) continue;
    slot = ct__backend_slot_for(op, (int)e->key, 0);
    if (slot && slot->priority >= b->priority) continue; /* an equal or stronger backend holds it */
    if (!slot && !(slot = ct__backend_slot_for(op, (int)e->key, 1)))
      return ct_fail(CT_ERR_OOM, "ct_register_backend", "out of memory");
    e->replaced = op->registered[e->key];
    k = ct_kernel_unboxed(e->fn);
    k.source = b->name;
    op->registered[e->key] = k;
    slot->priority = b->priority;
    ct__recompute(op);
    e->installed = 1;
    b->ninstalled++;
  }
  return CT_OK;
}

CTDEF ct_status ct_register_backend(ct_backend *b) {
  ct_backend *it;
  ct_status st;
  if (!b) return ct__fail_null("ct_register_backend", "backend");
  if (b->abi != CT_BACKEND_ABI || b->tensor_size != (uint32_t)sizeof(ct_tensor) || !b->name || b->priority <= 0)
    st = ct_fail(CT_ERR_REGISTRATION, "ct_register_backend",
                 "backend '%s' was built for another ctorch (abi %#x, tensor %u bytes; this is abi %#x, %u bytes) or has "
                 "priority %d <= 0",
                 b->name ? b->name : "?", (unsigned)b->abi, (unsigned)b->tensor_size, (unsigned)CT_BACKEND_ABI,
                 (unsigned)sizeof(ct_tensor), b->priority);
  else
    st = CT_OK;
  ct__ensure_init();
  ct__lock();
  for (it = ct__backends; it && it != b; it = it->next) {
  }
  if (it) { /* registered before: nothing to do */
    st = b->status;
    ct__unlock();
    return st;
  }
  b->next = ct__backends;
  ct__backends = b;
  if (st == CT_OK) st = ct__backend_install_locked(b);
  b->status = st;
  ct__unlock();
  if (st == CT_OK && b->set_num_threads) ct_on_num_threads(b->set_num_threads);
  return st;
}

CTDEF const ct_backend *ct_backend_find(const char *name) {
  const ct_backend *b;
  if (!name) return NULL;
  ct__lock();
  for (b = ct__backends; b && strcmp(b->name, name) != 0; b = b->next) {
  }
  ct__unlock();
  return b;
}

CTDEF const ct_backend *ct_backend_first(void) { return ct__backends; }

CTDEF ct_tensor *ct_backend_empty(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device) {
  return ct__empty(op ? op : "ct_backend_empty", ndim, sizes, dtype, device);
}
CTDEF void ct_backend_bump_version(ct_tensor *t) {
  if (t) t->storage->version++;
}

CT_EXTERN_C_END
#endif /* CT__BACKEND_IMPL */
/* ---- ctorch/guard.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__GUARD_IMPL)
#define CT__GUARD_IMPL
CT_EXTERN_C_BEGIN

CTDEF void ct_guard_end(ct_guard *g) {
  if (!g || g->state != 1) return;
  g->state = 2;
  if (g->end) g->end(g);
}

static void ct__grad_end(ct_guard *g) { ct__tls.grad_disabled = g->saved_int; }
CTDEF void ct_no_grad_begin(ct_guard *g) {
  g->saved_int = ct__tls.grad_disabled;
  ct__tls.grad_disabled = 1;
  g->end = ct__grad_end;
  g->state = 1;
}
CTDEF void ct_enable_grad_begin(ct_guard *g) {
  g->saved_int = ct__tls.grad_disabled;
  ct__tls.grad_disabled = 0;
  g->end = ct__grad_end;
  g->state = 1;
}
CTDEF bool ct_is_grad_enabled(void) { return !ct__tls.grad_disabled; }

static void ct__exclude_end(ct_guard *g) { ct__tls.keys.excluded &= ~g->changed; }
static void ct__include_end(ct_guard *g) { ct__tls.keys.included &= ~g->changed; }
CTDEF void ct_exclude_keys_begin(ct_guard *g, ct_keyset ks) {
  g->changed = ks & ~ct__tls.keys.excluded;
  ct__tls.keys.excluded |= ks;
  g->end = ct__exclude_end;
  g->state = 1;
}
CTDEF void ct_include_keys_begin(ct_guard *g, ct_keyset ks) {
  g->changed = ks & ~ct__tls.keys.included;
  ct__tls.keys.included |= ks;
  g->end = ct__include_end;
  g->state = 1;
}

static void ct__inference_end(ct_guard *g) {
  ct__tls.keys.excluded &= ~g->changed;
  ct__tls.grad_disabled = g->saved_int;
}
CTDEF void ct_inference_mode_begin(ct_guard *g) {
  ct_keyset ks = CT_AUTOGRAD_KEYS | ct_keyset_of(CT_KEY_AD_INPLACE_OR_VIEW);
  g->changed = ks & ~ct__tls.keys.excluded;
  ct__tls.keys.excluded |= ks;
  g->saved_int = ct__tls.grad_disabled;
  ct__tls.grad_disabled = 1;
  g->end = ct__inference_end;
  g->state = 1;
}

static void ct__device_end(ct_guard *g) { ct__tls.device_index[g->device_type] = (int8_t)g->saved_int; }
CTDEF void ct_device_begin(ct_guard *g, ct_device device) {
  int t = device.type >= 0 && device.type < 8 ? device.type : 0;
  g->device_type = (int8_t)t;
  g->saved_int = ct__tls.device_index[t];
  ct__tls.device_index[t] = device.index;
  g->end = ct__device_end;
  g->state = 1;
}
CTDEF int ct_current_device(ct_device_type type) {
  return (unsigned)type < 8 ? ct__tls.device_index[type] : -1;
}

static void ct__scope_end(ct_guard *g) {
  ct__scope *s = &g->scope;
  int i;
  if (ct__tls.scope == s) ct__tls.scope = s->parent;
  for (i = s->n - 1; i >= 0; i--) ct_release(s->items[i]);
  if (s->items != s->inline_items) CT_FREE(s->items);
  s->items = s->inline_items;
  s->n = 0;
}
CTDEF void ct_scope_begin(ct_guard *g) {
  ct__scope *s = &g->scope;
  s->parent = ct__tls.scope;
  s->depth = ct__tls.depth;
  s->n = 0;
  s->cap = (int)(sizeof s->inline_items / sizeof s->inline_items[0]);
  s->items = s->inline_items;
  ct__tls.scope = s;
  g->end = ct__scope_end;
  g->state = 1;
}

CT_EXTERN_C_END
#endif /* CT__GUARD_IMPL */
/* ---- ctorch/iter.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__ITER_IMPL)
#define CT__ITER_IMPL
CT_EXTERN_C_BEGIN

CTDEF int ct_broadcast_shapes(const char *op, int na, const int64_t *a, int nb, const int64_t *b, int64_t *out) {
  int n = na > nb ? na : nb, i;
  for (i = 0; i < n; i++) {
    int ia = na - n + i, ib = nb - n + i;
    int64_t sa = ia >= 0 ? a[ia] : 1, sb = ib >= 0 ? b[ib] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      ct_fail(CT_ERR_SHAPE, op, "the size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %d",
              (long long)sa, (long long)sb, i);
      return -1;
    }
    out[i] = sa == 1 ? sb : sa;
  }
  return n;
}

/* Is t contiguous with exactly this shape? */
static int ct__iter_flat(const ct_tensor *t, int ndim, const int64_t *shape) {
  int64_t expected = 1;
  int d;
  if (t->ndim != ndim) return 0;
  for (d = ndim - 1; d >= 0; d--) {
    if (t->sizes[d] != shape[d]) return 0;
    if (shape[d] != 1 && t->strides[d] != expected) return 0;
    expected *= shape[d];
  }
  return 1;
}

CTDEF ct_status ct_iter_init(ct_iter *it, int noperands, ct_tensor *const *ops, int ndim, const int64_t *shape) {
  int d, k, nd = 0, flat = 1;
  it->noperands = noperands;
  it->numel = 1;
  for (d = 0; d < ndim; d++) it->numel *= shape[d];
  for (k = 0; k < noperands; k++) {
    it->data[k] = (char *)ops[k]->storage->data + ops[k]->offset * (int64_t)ct_dtype_size((ct_dtype)ops[k]->dtype);
    flat = flat && ct__iter_flat(ops[k], ndim, shape);
  }
  if (flat) { /* every operand contiguous in the iteration shape: one flat loop */
    it->ndim = 1;
    it->shape[0] = it->numel;
    for (k = 0; k < noperands; k++) it->strides[0][k] = (int64_t)ct_dtype_size((ct_dtype)ops[k]->dtype);
    return CT_OK;
  }
  /* innermost first; size-1 dims dropped */
  for (d = ndim - 1; d >= 0; d--) {
    if (shape[d] == 1) continue;
    it->shape[nd] = shape[d];
    for (k = 0; k < noperands; k++) {
      const ct_tensor *t = ops[k];
      int td = t->ndim - (ndim - d);
      int64_t es = (int64_t)ct_dtype_size((ct_dtype)t->dtype);
      it->strides[nd][k] = (td >= 0 && t->sizes[td] != 1) ? t->strides[td] * es : 0;
    }
    nd++;
  }
  /* merge dim d+1 into d when every operand steps contiguously across them */
  if (nd > 1) {
    int w = 0;
    for (d = 1; d < nd; d++) {
      int ok = 1;
      for (k = 0; k < noperands; k++)
        if (it->strides[d][k] != it->strides[w][k] * it->shape[w]) ok = 0;
      if (ok) {
        it->shape[w] *= it->shape[d];
      } else {
        w++;
        it->shape[w] = it->shape[d];
        for (k = 0; k < noperands; k++) it->strides[w][k] = it->strides[d][k];
      }
    }
    nd = w + 1;
  }
  it->ndim = nd;
  return CT_OK;
}

CTDEF void ct_iter_foreach(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *ops, int ndim,
                           const int64_t *shape) {
  char *data[CT_ITER_MAX_OPERANDS];
  int64_t strides[CT_ITER_MAX_OPERANDS], numel = 1;
  int k, d;
  for (k = 0; k < noperands; k++) {
    const ct_tensor *t = ops[k];
    if (!ct__iter_flat(t, ndim, shape)) {
      ct_iter it;
      ct_iter_init(&it, noperands, ops, ndim, shape);
      ct_iter_run(&it, loop, ctx);
      return;
    }
    strides[k] = (int64_t)ct_dtype_size((ct_dtype)t->dtype);
    data[k] = (char *)t->storage->data + t->offset * strides[k];
  }
  for (d = 0; d < ndim; d++) numel *= shape[d];
  if (numel) loop(data, strides, numel, ctx);
}

/* Rows [b, e) of an iterator (a row: the innermost dimension), for the
 * parallel path: the odometer starts from row b. */
typedef struct ct__iter_job {
  const ct_iter *it;
  ct_loop_fn loop;
  void *ctx;
  int64_t row_len; /* flat case: elements per chunk step (1); else shape[0] */
} ct__iter_job;

static void ct__iter_rows(int64_t b, int64_t e, void *p) {
  const ct__iter_job *j = (const ct__iter_job *)p;
  const ct_iter *it = j->it;
  char *ptrs[CT_ITER_MAX_OPERANDS];
  int64_t idx[CT_MAX_DIMS], r = b, row;
  int k, d, n = it->noperands;
  if (it->ndim == 1) { /* flat: b, e are element indices */
    for (k = 0; k < n; k++) ptrs[k] = it->data[k] + b * it->strides[0][k];
    j->loop(ptrs, it->strides[0], e - b, j->ctx);
    return;
  }
  for (k = 0; k < n; k++) ptrs[k] = it->data[k];
  for (d = 1; d < it->ndim; d++) { /* row index -> outer coordinates */
    idx[d] = r % it->shape[d];
    r /= it->shape[d];
    for (k = 0; k < n; k++) ptrs[k] += idx[d] * it->strides[d][k];
  }
  for (row = b; row < e; row++) {
    int64_t inner[CT_ITER_MAX_OPERANDS];
    for (k = 0; k < n; k++) inner[k] = it->strides[0][k];
    j->loop(ptrs, inner, it->shape[0], j->ctx);
    for (d = 1; d < it->ndim; d++) {
      for (k = 0; k < n; k++) ptrs[k] += it->strides[d][k];
      if (++idx[d] < it->shape[d]) break;
      for (k = 0; k < n; k++) ptrs[k] -= it->strides[d][k] * it->shape[d];
      idx[d] = 0;
    }
  }
}

CTDEF void ct_iter_foreach_parallel(ct_loop_fn loop, void *ctx, int noperands, ct_tensor *const *ops, int ndim,
                                    const int64_t *shape) {
  ct_iter it;
  ct__iter_job job;
  int64_t numel = 1, rows;
  int d;
  for (d = 0; d < ndim; d++) numel *= shape[d];
  if (numel < 2 * (int64_t)CT_ITER_GRAIN || ct_get_num_threads() < 2 || ct_in_parallel_region()) {
    ct_iter_foreach(loop, ctx, noperands, ops, ndim, shape);
    return;
  }
  ct_iter_init(&it, noperands, ops, ndim, shape);
  for (d = 0; d < it.ndim; d++)
    if (it.strides[d][0] == 0) { /* the output broadcasts: a reduction, keep it sequential */
      ct_iter_run(&it, loop, ctx);
      return;
    }
  job.it = &it;
  job.loop = loop;
  job.ctx = ctx;
  if (it.ndim <= 1) {
    ct_parallel_for(it.numel, CT_ITER_GRAIN, ct__iter_rows, &job);
    return;
  }
  rows = it.numel / it.shape[0];
  ct_parallel_for(rows, it.shape[0] >= CT_ITER_GRAIN ? 1 : CT_ITER_GRAIN / it.shape[0], ct__iter_rows, &job);
}

CTDEF void ct_iter_run(const ct_iter *it, ct_loop_fn loop, void *ctx) {
  char *ptrs[CT_ITER_MAX_OPERANDS];
  int64_t inner[CT_ITER_MAX_OPERANDS], idx[CT_MAX_DIMS];
  int k, d, n = it->noperands;
  if (it->numel == 0) return;
  if (it->ndim == 1) { /* the common case: one call */
    loop((char **)it->data, it->strides[0], it->shape[0], ctx);
    return;
  }
  for (k = 0; k < n; k++) {
    ptrs[k] = it->data[k];
    inner[k] = it->ndim ? it->strides[0][k] : 0;
  }
  if (it->ndim == 0) {
    loop(ptrs, inner, 1, ctx);
    return;
  }
  memset(idx, 0, sizeof idx);
  for (;;) {
    loop(ptrs, inner, it->shape[0], ctx);
    for (d = 1; d < it->ndim; d++) { /* odometer over the outer dims */
      for (k = 0; k < n; k++) ptrs[k] += it->strides[d][k];
      if (++idx[d] < it->shape[d]) break;
      for (k = 0; k < n; k++) ptrs[k] -= it->strides[d][k] * it->shape[d];
      idx[d] = 0;
    }
    if (d == it->ndim) return;
  }
}

CT_EXTERN_C_END
#endif /* CT__ITER_IMPL */
/* ---- ctorch/autograd.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__AUTOGRAD_IMPL)
#define CT__AUTOGRAD_IMPL
CT_EXTERN_C_BEGIN

/* ---- meta and history ---- */
static void *ct__obj_alloc(size_t n) { return ct__cpu_alloc(NULL, n); }
static void ct__obj_free(void *p, size_t n) { ct__cpu_free(NULL, p, n); }

static ct_autograd_meta *ct__meta(ct_tensor *t) {
  if (!t->autograd) {
    ct_autograd_meta *m = (ct_autograd_meta *)ct__obj_alloc(sizeof *m);
    if (!m) return ct_fail(CT_ERR_OOM, "autograd", "out of memory"), (ct_autograd_meta *)NULL;
    memset(m, 0, sizeof *m);
    t->autograd = m;
  }
  return t->autograd;
}

static void ct__node_release(ct_node *n);
static inline void ct__node_retain(ct_node *n) { n->refcount++; }

static void ct__autograd_release(ct_tensor *t) {
  ct_autograd_meta *m = t->autograd;
  t->autograd = NULL;
  ct_release(m->grad);
  if (m->grad_fn) ct__node_release(m->grad_fn);
  ct__obj_free(m, sizeof *m);
}

static inline int ct__grad_mode(void) { return !ct__tls.grad_disabled; }
static inline int ct__needs_grad(const ct_tensor *t) { return t && (t->flags & CT_TENSOR_REQUIRES_GRAD); }
static inline ct_node *ct__grad_fn(const ct_tensor *t) { return t->autograd ? t->autograd->grad_fn : NULL; }

static void ct__meta_fill(ct_tensor_meta *m, const ct_tensor *t) {
  int i;
  m->ndim = t->ndim;
  m->dtype = t->dtype;
  m->device = t->device;
  for (i = 0; i < t->ndim; i++) m->sizes[i] = t->sizes[i];
}

/* The key that routes t's calls to autograd kernels. */
static inline ct_keyset ct__autograd_keys_of(const ct_tensor *t) {
  return ct_keyset_of(ct_autograd_key_for(ct_device_backend_key((ct_device_type)t->device.type)));
}

/* t is now output `nr` of node n (which it owns a reference to). */
static ct_status ct__set_history(ct_tensor *t, ct_node *n, int nr) {
  ct_autograd_meta *m = ct__meta(t);
  if (!m) return ct_last_error();
  ct__node_retain(n);
  if (m->grad_fn) ct__node_release(m->grad_fn);
  m->grad_fn = n;
  m->output_nr = nr;
  t->flags |= CT_TENSOR_REQUIRES_GRAD;
  t->keys |= ct__autograd_keys_of(t);
  ct__meta_fill(&n->output_meta[nr], t);
  return CT_OK;
}

/* ---- nodes ---- */
static uint64_t ct__node_seq; /* global: creation order across threads */

static size_t ct__align8(size_t n) { return (n + 7) & ~(size_t)7; }

static ct_node *ct__node_new(const ct_node_kind *kind, size_t struct_size, int num_inputs, int num_outputs) {
  size_t off_e = ct__align8(struct_size);
  size_t off_im = off_e + sizeof(ct__edge) * (size_t)num_inputs;
  size_t off_om = off_im + sizeof(ct_tensor_meta) * (size_t)num_inputs;
  size_t total = off_om + sizeof(ct_tensor_meta) * (size_t)num_outputs;
  char *p = (char *)ct__obj_alloc(total);
  ct_node *n = (ct_node *)p;
  if (!p) return ct_fail(CT_ERR_OOM, kind->name, "out of memory for an autograd node"), (ct_node *)NULL;
  memset(p, 0, off_im); /* the node struct and edges; metas are written as inputs arrive */
  n->refcount = 1;
  n->num_inputs = (int16_t)num_inputs;
  n->num_outputs = (int16_t)num_outputs;
  n->size = (uint32_t)total;
  n->seq = ct__atomic_add(&ct__node_seq, 1);
  n->kind = kind;
  n->edges = (ct__edge *)(p + off_e);
  n->input_meta = (ct_tensor_meta *)(p + off_im);
  n->output_meta = (ct_tensor_meta *)(p + off_om);
  return n;
}

static ct_status ct__stale_view_backward(ct_node *n, ct_tensor *const *g, ct_tensor **gi) {
  (void)n, (void)g, (void)gi;
  return ct_fail(CT_ERR_UNSUPPORTED, "backward",
                 "a view was used after its base was modified in place; ctorch cannot rebase the view's history: "
                 "take the view again after the in-place operation (or clone it before)");
}
static const ct_node_kind ct__stale_view_kind = {"StaleViewBackward", ct__stale_view_backward, NULL};

/* Edge i of n leads to t's history (if t requires grad). */
static void ct__node_set_input(ct_node *n, int i, ct_tensor *t) {
  ct__edge *e = &n->edges[i];
  if (!ct__needs_grad(t)) return; /* no edge: its metadata is never read */
  ct__meta_fill(&n->input_meta[i], t);
  if (t->autograd && t->autograd->is_view && t->autograd->view_version != t->storage->version) {
    /* the view's base was changed in place after the view was made: its
     * history is stale and ctorch cannot rebase it (PyTorch regenerates it) */
    e->node = ct__node_new(&ct__stale_view_kind, sizeof(ct_node), 0, 1);
    if (e->node) ct__meta_fill(&e->node->output_meta[0], t);
    return;
  }
  if (t->autograd && t->autograd->grad_fn) {
    e->node = t->autograd->grad_fn;
    e->output_nr = t->autograd->output_nr;
    ct__node_retain(e->node);
  } else {
    e->leaf = ct_retain(t);
  }
}

CTDEF bool ct_node_needs_input_grad(const ct_node *n, int i) {
  return n && i >= 0 && i < n->num_inputs && (n->edges[i].node || n->edges[i].leaf);
}

/* Freeing a long chain node by node would recurse as deep as the graph:
 * released nodes go on an explicit stack instead. */
static void ct__node_release(ct_node *n) {
  ct_node *stack_buf[64], **stack = stack_buf;
  int sp = 0, cap = 64;
  if (--n->refcount > 0) return;
  stack[sp++] = n;
  while (sp) {
    ct_node *x = stack[--sp];
    int i;
    if (x->kind->release_saved) x->kind->release_saved(x);
    for (i = 0; i < x->num_inputs; i++) {
      ct__edge *e = &x->edges[i];
      ct_release(e->leaf);
      if (e->node && --e->node->refcount == 0) {
        if (sp == cap) { /* grow; on failure leak rather than crash */
          ct_node **bigger = (ct_node **)CT_MALLOC(sizeof(ct_node *) * (size_t)cap * 2);
          if (!bigger) continue;
          memcpy(bigger, stack, sizeof(ct_node *) * (size_t)sp);
          if (stack != stack_buf) CT_FREE(stack);
          stack = bigger;
          cap *= 2;
        }
        stack[sp++] = e->node;
      }
    }
    ct__obj_free(x, x->size);
  }
  if (stack != stack_buf) CT_FREE(stack);
}

/* ---- saved tensors ---- */
/* Inputs are saved as they are (they own their own history). */
static void ct__save(ct__saved *s, ct_tensor *t) {
  s->defined = 1;
  s->is_output = 0;
  if (!t) return;
  s->t = ct_retain(t);
  s->version = t->storage->version;
}
/* An in-place op's formula needs self as it was: save a copy. */
static ct_status ct__save_clone(ct__saved *s, ct_tensor *t) {
  ct_tensor *c = NULL;
  s->defined = 1;
  s->is_output = 0;
  CT_NO_GRAD { c = ct_clone(t); }
  if (!c) return ct_last_error();
  s->t = c;
  s->version = c->storage->version;
  return CT_OK;
}
/* Outputs are saved as an alias without history: a node must not own the
 * tensor that owns it. Unpacking puts the history back (create_graph). */
static ct_status ct__save_output(ct__saved *s, ct_tensor *t) {
  ct_tensor *a = ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset);
  if (!a) return ct_last_error();
  a->flags &= (uint8_t)~CT_TENSOR_REQUIRES_GRAD;
  s->t = a;
  s->version = t->storage->version;
  s->defined = 1;
  s->is_output = 1;
  return CT_OK;
}
static void ct__saved_reset(ct__saved *s) {
  ct_release(s->t);
  s->t = NULL;
}
static void ct__save_shape(ct__shape *s, const ct_tensor *t) {
  int i;
  s->ndim = t->ndim;
  for (i = 0; i < t->ndim; i++) s->sizes[i] = t->sizes[i];
}
static ct_status ct__save_ints(ct__saved_ints *s, ct_int_list l, const char *op) {
  int64_t i;
  if (l.n > (int64_t)(sizeof s->v / sizeof s->v[0]))
    return ct_fail(CT_ERR_UNSUPPORTED, op, "autograd saves at most %d ints of a list argument, got %lld",
                   (int)(sizeof s->v / sizeof s->v[0]), (long long)l.n);
  s->n = l.data ? l.n : -1;
  for (i = 0; i < l.n && l.data; i++) s->v[i] = l.data[i];
  return CT_OK;
}
static inline ct_int_list ct__ints(const ct__saved_ints *s) {
  ct_int_list l;
  l.data = s->n >= 0 ? s->v : NULL;
  l.n = s->n;
  return l;
}

/* The saved tensor, checked against in-place changes since it was saved. */
static ct_tensor *ct__unpack(ct__saved *s, ct_node *n, const char *name) {
  ct_tensor *t = s->t;
  if (n->released)
    return ct_fail(CT_ERR_STATE, n->kind->name,
                   "trying to backward through the graph a second time (or to use saved tensors after they were freed): "
                   "saved tensors are freed by backward; pass retain_graph=true to the first backward to keep them"),
           (ct_tensor *)NULL;
  if (!t) return NULL; /* an optional that was None */
  if (t->storage->version != s->version) {
    char b[160];
    return ct_fail(CT_ERR_STATE, n->kind->name,
                   "one of the variables needed for gradient computation has been modified by an inplace operation: "
                   "saved tensor '%s' (%s %s) is at version %u; expected version %u instead",
                   name, ct_dtype_name((ct_dtype)t->dtype), ct_shape_format(t->ndim, t->sizes, b, sizeof b),
                   (unsigned)t->storage->version, (unsigned)s->version),
           (ct_tensor *)NULL;
  }
  if (s->is_output && ct__grad_mode()) { /* create_graph: the output with its history, for this backward */
    ct_tensor *a = ct__make_view(t, t->ndim, t->sizes, t->strides, t->offset);
    if (!a || ct__set_history(a, n, 0) != CT_OK) {
      ct_release(a);
      return NULL;
    }
    return ct__track(a);
  }
  return t;
}

/* ---- the autograd keys, off while a kernel below autograd runs ---- */
static inline ct_keyset ct__below_autograd_begin(void) {
  ct_keyset saved = ct__tls.keys.excluded;
  ct__tls.keys.excluded = saved | CT_AUTOGRAD_KEYS;
  return saved;
}
static inline void ct__below_autograd_end(ct_keyset saved) { ct__tls.keys.excluded = saved; }
#define CT__BELOW_AUTOGRAD (ct_keys_below(CT_KEY_AUTOGRAD_META))

/* In-place on something autograd must refuse (PyTorch's check_inplace). */
static ct_status ct__check_inplace(const char *op, ct_tensor *self) {
  if (ct__needs_grad(self) && !ct__grad_fn(self))
    return ct_fail(CT_ERR_STATE, op,
                   "a leaf tensor that requires grad is being used in an in-place operation; "
                   "wrap the update in CT_NO_GRAD, or clone() the tensor first");
  if (self->autograd && self->autograd->is_view)
    return ct_fail(CT_ERR_UNSUPPORTED, op,
                   "in-place operation on a view of a tensor that requires grad: ctorch does not rebase view history; "
                   "clone() the view first");
  return CT_OK;
}
static ct_status ct__out_not_differentiable(const char *op) {
  return ct_fail(CT_ERR_STATE, op,
                 "out= arguments don't support automatic differentiation, but one of the arguments requires grad");
}

/* ---- the "not implemented" node: ops without a derivative ---- */
typedef struct ct__not_impl_node {
  ct_node base;
  const char *op;
} ct__not_impl_node;
static ct_status ct__not_impl_backward(ct_node *n, ct_tensor *const *g, ct_tensor **gi) {
  (void)g;
  (void)gi;
  return ct_fail(CT_ERR_UNSUPPORTED, ((ct__not_impl_node *)n)->op, "the derivative for this op is not implemented");
}
static const ct_node_kind ct__not_impl_kind = {"NotImplemented", ct__not_impl_backward, NULL};

/* ---- user API ---- */
CTDEF ct_status ct_set_requires_grad(ct_tensor *t, bool requires_grad) {
  if (!t) return ct__fail_null("ct_set_requires_grad", "t");
  if (ct__grad_fn(t))
    return ct_fail(CT_ERR_STATE, "ct_set_requires_grad",
                   "you can only change requires_grad flags of leaf tensors (this one has grad_fn %s); use ct_detach()",
                   t->autograd->grad_fn->kind->name);
  if (requires_grad && !ct_dtype_is_floating((ct_dtype)t->dtype))
    return ct_fail(CT_ERR_DTYPE, "ct_set_requires_grad", "only tensors of floating point dtype can require gradients, got %s",
                   ct_dtype_name((ct_dtype)t->dtype));
  if (t->flags & CT_TENSOR_WRAPPED_NUMBER) return ct_fail(CT_ERR_INVALID, "ct_set_requires_grad", "a wrapped number cannot require grad");
  if (requires_grad) {
    t->flags |= CT_TENSOR_REQUIRES_GRAD;
    t->keys |= ct__autograd_keys_of(t);
  } else {
    t->flags &= (uint8_t)~CT_TENSOR_REQUIRES_GRAD;
    t->keys &= ~CT_AUTOGRAD_KEYS;
  }
  return CT_OK;
}
CTDEF bool ct_requires_grad(const ct_tensor *t) { return ct__needs_grad(t) != 0; }
CTDEF bool ct_is_leaf(const ct_tensor *t) { return t && !ct__grad_fn(t); }
CTDEF ct_tensor *ct_grad(const ct_tensor *t) { return t && t->autograd ? t->autograd->grad : NULL; }
CTDEF ct_status ct_set_grad(ct_tensor *t, ct_tensor *grad) {
  ct_autograd_meta *m;
  if (!t) return ct__fail_null("ct_set_grad", "t");
  if (grad && !ct_same_shape(t, grad))
    return ct_fail(CT_ERR_SHAPE, "ct_set_grad", "assigned grad has a different shape than the tensor");
  if (grad && grad->dtype != t->dtype)
    return ct_fail(CT_ERR_DTYPE, "ct_set_grad", "assigned grad has data of a different type (%s, tensor is %s)",
                   ct_dtype_name((ct_dtype)grad->dtype), ct_dtype_name((ct_dtype)t->dtype));
  if (grad && !ct_device_eq(grad->device, t->device))
    return ct_fail(CT_ERR_DEVICE, "ct_set_grad", "assigned grad has data located on a different device");
  if (!grad && !t->autograd) return CT_OK;
  if (!(m = ct__meta(t))) return ct_last_error();
  if (grad) ct_retain(grad);
  ct_release(m->grad);
  m->grad = grad;
  return CT_OK;
}
CTDEF const char *ct_grad_fn_name(const ct_tensor *t) {
  ct_node *n = t ? ct__grad_fn(t) : NULL;
  return n ? n->kind->name : NULL;
}

/* ================= the engine ================= */

/* grad reduced to the input's shape (sum over broadcast dims) and dtype. */
static ct_tensor *ct__sum_to(ct_tensor *grad, const ct__shape *shape);
static ct_tensor *ct__fit_grad(ct_node *n, int i, ct_tensor *g) {
  const ct_tensor_meta *m = &n->input_meta[i];
  ct__shape s;
  int k, same = g->ndim == m->ndim;
  for (k = 0; same && k < m->ndim; k++) same = g->sizes[k] == m->sizes[k];
  if (!same) {
    int lead = g->ndim - m->ndim, ok = lead >= 0;
    char b1[160], b2[160];
    for (k = 0; ok && k < m->ndim; k++) ok = m->sizes[k] == 1 || m->sizes[k] == g->sizes[lead + k];
    if (!ok)
      return ct_fail(CT_ERR_SHAPE, n->kind->name, "returned an invalid gradient at index %d: got %s but expected shape compatible with %s",
                     i, ct_shape_format(g->ndim, g->sizes, b1, sizeof b1), ct_shape_format(m->ndim, m->sizes, b2, sizeof b2)),
             (ct_tensor *)NULL;
    s.ndim = m->ndim;
    for (k = 0; k < m->ndim; k++) s.sizes[k] = m->sizes[k];
    g = ct__sum_to(g, &s);
    if (!g) return NULL;
  }
  if (g->dtype != m->dtype && ct_dtype_is_floating((ct_dtype)m->dtype)) g = ct_to_dtype(g, (ct_dtype)m->dtype);
  return g;
}

/* *slot += g (both owned by the engine). create_graph: out of place, recorded. */
static ct_status ct__accumulate(ct_tensor **slot, ct_tensor *g, int create_graph) {
  ct_tensor *sum;
  if (!*slot) {
    *slot = ct_retain(g);
    return CT_OK;
  }
  if (!create_graph && (*slot)->refcount == 1 && (*slot)->storage->refcount == 1 && !(*slot)->autograd &&
      ct_is_contiguous(*slot) && ct_same_shape(*slot, g) && (*slot)->dtype == g->dtype)
    return ct_add_(*slot, g); /* sole owner of a dense buffer: no new allocation */
  sum = ct_add(*slot, g);
  if (!sum) return ct_last_error();
  ct_retain(sum); /* outlives the backward scope */
  ct_release(*slot);
  *slot = sum;
  return CT_OK;
}

/* AccumulateGrad: into a leaf's .grad. Steal g when nobody else holds it. */
static ct_status ct__accumulate_leaf(ct_tensor *leaf, ct_tensor *g, int create_graph) {
  ct_autograd_meta *m = ct__meta(leaf);
  if (!m) return ct_last_error();
  if (!m->grad) {
    if (create_graph || (g->refcount == 1 && g->storage->refcount == 1 && !g->autograd && ct_is_contiguous(g))) {
      m->grad = ct_retain(g);
      return CT_OK;
    }
    {
      ct_tensor *c = NULL;
      CT_NO_GRAD { c = ct_clone(g); }
      if (!c) return ct_last_error();
      m->grad = ct_retain(c);
    }
    return CT_OK;
  }
  if (create_graph || m->grad->autograd || !ct_is_contiguous(m->grad)) { /* (an expanded grad cannot be written) */
    ct_tensor *sum = ct_add(m->grad, g);
    if (!sum) return ct_last_error();
    ct_retain(sum);
    ct_release(m->grad);
    m->grad = sum;
    return CT_OK;
  }
  {
    ct_status st = CT_OK;
    CT_NO_GRAD { st = ct_add_(m->grad, g); }
    return st;
  }
}

typedef struct ct__engine {
  ct_node **nodes;    /* reachable nodes, latest first */
  int64_t n, cap;
  ct_tensor ***grads; /* per node: its output grads (owned) */
  int create_graph, retain_graph, accumulate;
  /* ct_autograd_grad: what to capture */
  int num_inputs;
  ct_tensor *const *inputs;
  ct_tensor **captured;
} ct__engine;

static ct_status ct__engine_push(ct__engine *e, ct_node *n) {
  if (e->n == e->cap) {
    int64_t cap = e->cap ? e->cap * 2 : 64;
    ct_node **p = (ct_node **)CT_REALLOC(e->nodes, sizeof(ct_node *) * (size_t)cap);
    if (!p) return ct_fail(CT_ERR_OOM, "backward", "out of memory collecting the graph");
    e->nodes = p;
    e->cap = cap;
  }
  e->nodes[e->n++] = n;
  n->visited = 1;
  return CT_OK;
}

static int ct__seq_desc(const void *a, const void *b) {
  uint64_t x = (*(ct_node *const *)a)->seq, y = (*(ct_node *const *)b)->seq;
  return x < y ? 1 : x > y ? -1 : 0;
}

/* Every node reachable from the roots (depth-first over an explicit list). */
static ct_status ct__engine_collect(ct__engine *e, int nroots, ct_tensor *const *roots) {
  int64_t i;
  int r, k;
  for (r = 0; r < nroots; r++) {
    ct_node *n = ct__grad_fn(roots[r]);
    if (n && !n->visited && ct__engine_push(e, n) != CT_OK) return ct_last_error();
  }
  for (i = 0; i < e->n; i++) {
    ct_node *n = e->nodes[i];
    for (k = 0; k < n->num_inputs; k++) {
      ct_node *m = n->edges[k].node;
      if (m && !m->visited && ct__engine_push(e, m) != CT_OK) return ct_last_error();
    }
  }
  if (e->n) qsort(e->nodes, (size_t)e->n, sizeof(ct_node *), ct__seq_desc); /* (a leaf root: no nodes) */
  for (i = 0; i < e->n; i++) e->nodes[i]->topo = i, e->nodes[i]->visited = 0;
  return CT_OK;
}

/* A gradient g (owned by the caller) arrives for edge e of some node. */
static ct_status ct__engine_route(ct__engine *e, const ct__edge *edge, ct_tensor *g) {
  if (edge->leaf) {
    int i;
    ct_status st = CT_OK;
    if (e->accumulate) return ct__accumulate_leaf(edge->leaf, g, e->create_graph);
    for (i = 0; st == CT_OK && i < e->num_inputs; i++) /* the same leaf may be asked for twice */
      if (e->inputs[i] == edge->leaf) st = ct__accumulate(&e->captured[i], g, e->create_graph);
    return st;
  }
  return ct__accumulate(&e->grads[edge->node->topo][edge->output_nr], g, e->create_graph);
}

static ct_status ct__zeros_for(const ct_tensor_meta *m, ct_tensor **out) {
  ct_options o;
  o.dtype = (ct_dtype)m->dtype;
  o.device = m->device;
  *out = ct_empty_opts(m->ndim, m->sizes, o);
  if (!*out || ct_fill_(*out, ct_int(0)) != CT_OK) return ct_last_error();
  ct_retain(*out);
  return CT_OK;
}

/* One node: its output grads are complete. Runs inside the caller's scope. */
static ct_status ct__engine_run_node(ct__engine *e, ct_node *n) {
  ct_tensor **g = e->grads[n->topo];
  ct_tensor *gin_buf[8], **gin = gin_buf;
  int i, any = 0;
  ct_status st = CT_OK;
  for (i = 0; i < n->num_outputs; i++) any |= g[i] != NULL;
  if (!any) return CT_OK; /* no gradient reached this node: an unused branch */
  if (e->captured)
    for (i = 0; i < e->num_inputs; i++) {
      const ct_tensor *t = e->inputs[i];
      if (ct__grad_fn(t) == n && g[t->autograd->output_nr] &&
          (st = ct__accumulate(&e->captured[i], g[t->autograd->output_nr], e->create_graph)) != CT_OK)
        return st;
    }
  for (i = 0; i < n->num_outputs; i++)
    if (!g[i] && (st = ct__zeros_for(&n->output_meta[i], &g[i])) != CT_OK) return st;
  if (n->num_inputs > 8) {
    gin = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)n->num_inputs);
    if (!gin) return ct_fail(CT_ERR_OOM, "backward", "out of memory");
  }
  memset(gin, 0, sizeof(ct_tensor *) * (size_t)n->num_inputs);
  st = n->kind->backward(n, g, gin); /* a node that freed its saved tensors fails when it unpacks them */
  for (i = 0; st == CT_OK && i < n->num_inputs; i++) {
    ct_tensor *gi;
    if (!ct_node_needs_input_grad(n, i)) continue;
    if (!gin[i]) {
      st = ct_last_error() != CT_OK ? ct_last_error()
                                     : ct_fail(CT_ERR_STATE, n->kind->name, "backward returned no gradient for input %d", i);
      break;
    }
    gi = ct__fit_grad(n, i, gin[i]);
    st = gi ? ct__engine_route(e, &n->edges[i], gi) : ct_last_error();
  }
  if (gin != gin_buf) CT_FREE(gin);
  for (i = 0; i < n->num_outputs; i++) ct_release(g[i]), g[i] = NULL; /* done with them: frees memory early */
  if (st == CT_OK && !e->retain_graph) {
    if (n->kind->release_saved) n->kind->release_saved(n);
    n->released = 1;
  }
  return st;
}

static ct_status ct__engine_execute(const ct_backward_desc *d, int num_inputs, ct_tensor *const *inputs, ct_tensor **captured) {
  static const char *op = "backward";
  ct__engine e;
  ct_tensor **slots = NULL;
  int64_t i, nslots = 0;
  int r;
  ct_status st = CT_OK;
  memset(&e, 0, sizeof e);
  if (!d) return ct__fail_null(op, "desc");
  if (d->num_outputs <= 0 || !d->outputs) return ct_fail(CT_ERR_INVALID, op, "no outputs to differentiate");
  for (r = 0; r < d->num_outputs; r++) {
    ct_tensor *t = d->outputs[r], *go = d->grad_outputs ? d->grad_outputs[r] : NULL;
    if (!t) return ct__fail_null(op, "outputs");
    if (!ct__needs_grad(t))
      return ct_fail(CT_ERR_STATE, op, "element %d of tensors does not require grad and does not have a grad_fn", r);
    if (t->autograd && t->autograd->is_view && t->autograd->view_version != t->storage->version)
      return ct__stale_view_backward(NULL, NULL, NULL);
    if (!go && t->numel != 1)
      return ct_fail(CT_ERR_SHAPE, op, "grad can be implicitly created only for scalar outputs (output %d has %lld elements)", r,
                     (long long)t->numel);
    if (go && !ct_same_shape(go, t)) {
      char b1[160], b2[160];
      return ct_fail(CT_ERR_SHAPE, op, "mismatch in shape: grad_output[%d] has a shape of %s and output[%d] has a shape of %s", r,
                     ct_shape_format(go->ndim, go->sizes, b1, sizeof b1), r, ct_shape_format(t->ndim, t->sizes, b2, sizeof b2));
    }
  }
  for (r = 0; r < num_inputs; r++) {
    if (!inputs[r]) return ct__fail_null("ct_autograd_grad", "inputs");
    if (!ct__needs_grad(inputs[r]))
      return ct_fail(CT_ERR_STATE, "ct_autograd_grad", "input %d does not require grad", r);
    captured[r] = NULL;
  }
  e.create_graph = d->create_graph;
  e.retain_graph = d->retain_graph || d->create_graph;
  e.accumulate = captured == NULL;
  e.num_inputs = num_inputs;
  e.inputs = inputs;
  e.captured = captured;
  if ((st = ct__engine_collect(&e, d->num_outputs, d->outputs)) != CT_OK) goto done;
  for (i = 0; i < e.n; i++) nslots += e.nodes[i]->num_outputs;
  e.grads = (ct_tensor ***)CT_MALLOC(sizeof(ct_tensor **) * (size_t)(e.n ? e.n : 1));
  slots = (ct_tensor **)CT_MALLOC(sizeof(ct_tensor *) * (size_t)(nslots ? nslots : 1));
  if (!e.grads || !slots) {
    st = ct_fail(CT_ERR_OOM, op, "out of memory");
    goto done;
  }
  memset(slots, 0, sizeof(ct_tensor *) * (size_t)(nslots ? nslots : 1));
  for (i = 0, nslots = 0; i < e.n; i++) e.grads[i] = slots + nslots, nslots += e.nodes[i]->num_outputs;
  {
    ct_guard grad_mode = ct__guard_zero(), scope = ct__guard_zero();
    if (e.create_graph) ct_enable_grad_begin(&grad_mode);
    else ct_no_grad_begin(&grad_mode);
    for (r = 0; st == CT_OK && r < d->num_outputs; r++) { /* seed the roots */
      ct_tensor *t = d->outputs[r], *go = d->grad_outputs ? d->grad_outputs[r] : NULL;
      ct__edge root;
      ct_scope_begin(&scope);
      if (!go) go = ct_ones_like(t);
      else go = go->dtype != t->dtype ? ct_to_dtype(go, (ct_dtype)t->dtype) : ct_alias(go); /* never hand out the caller's tensor */
      memset(&root, 0, sizeof root);
      if (ct__grad_fn(t)) root.node = t->autograd->grad_fn, root.output_nr = t->autograd->output_nr;
      else root.leaf = t;
      st = go ? ct__engine_route(&e, &root, go) : ct_last_error();
      ct_guard_end(&scope);
    }
    for (i = 0; st == CT_OK && i < e.n; i++) {
      ct_scope_begin(&scope);
      st = ct__engine_run_node(&e, e.nodes[i]);
      ct_guard_end(&scope);
    }
    ct_guard_end(&grad_mode);
  }
done:
  for (i = 0; i < nslots; i++) ct_release(slots[i]);
  CT_FREE(slots);
  CT_FREE(e.grads);
  CT_FREE(e.nodes);
  if (st != CT_OK && captured)
    for (r = 0; r < num_inputs; r++) ct_release(captured[r]), captured[r] = NULL;
  if (st == CT_OK && captured && !d->allow_unused)
    for (r = 0; r < num_inputs; r++)
      if (!captured[r]) {
        for (r = 0; r < num_inputs; r++) ct_release(captured[r]), captured[r] = NULL;
        return ct_fail(CT_ERR_STATE, "ct_autograd_grad",
                       "one of the differentiated tensors appears to not have been used in the graph; set allow_unused "
                       "if this is the desired behavior");
      }
  return st;
}

CTDEF ct_status ct_autograd_backward(const ct_backward_desc *desc) { return ct__engine_execute(desc, 0, NULL, NULL); }
CTDEF ct_status ct_autograd_grad(const ct_backward_desc *desc, int num_inputs, ct_tensor *const *inputs, ct_tensor **grads) {
  if (num_inputs < 0 || (num_inputs && (!inputs || !grads)))
    return ct_fail(CT_ERR_INVALID, "ct_autograd_grad", "inputs and grads must hold num_inputs entries");
  if (!num_inputs) return ct_fail(CT_ERR_INVALID, "ct_autograd_grad", "no inputs to differentiate with respect to");
  return ct__engine_execute(desc, num_inputs, inputs, grads);
}
CTDEF ct_status ct_backward_ex(ct_tensor *root, ct_tensor *grad_output, bool retain_graph, bool create_graph) {
  ct_backward_desc d;
  memset(&d, 0, sizeof d);
  d.num_outputs = 1;
  d.outputs = &root;
  d.grad_outputs = grad_output ? &grad_output : NULL;
  d.retain_graph = retain_graph;
  d.create_graph = create_graph;
  return ct_autograd_backward(&d);
}
CTDEF ct_status ct_backward(ct_tensor *root) { return ct_backward_ex(root, NULL, false, false); }

CT_EXTERN_C_END
#endif /* CT__AUTOGRAD_IMPL */
/* ---- ctorch/ops.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_IMPL)
#define CT__OPS_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN


/* ================= reference kernels ================= */

static void ct__bump_version(ct_tensor *t) { t->storage->version++; }
static int ct__is_meta(const ct_tensor *t) { return t->device.type == CT_DEVICE_META; }
static inline int ct__same_sizes(const ct_tensor *a, const ct_tensor *b) { /* inline: no libc call on the hot path */
  int i;
  if (a->ndim != b->ndim) return 0;
  for (i = 0; i < a->ndim; i++)
    if (a->sizes[i] != b->sizes[i]) return 0;
  return 1;
}

/* A tensor written by an op must not have several elements at one address
 * (an expanded dim), as PyTorch's assert_no_internal_overlap. */
static ct_status ct__check_writable(const char *op, const ct_tensor *t) {
  int i;
  for (i = 0; i < t->ndim; i++)
    if (t->sizes[i] > 1 && t->strides[i] == 0)
      return ct_fail(CT_ERR_INVALID, op, "unsupported operation: more than one element of the written-to tensor refers "
                                         "to a single memory location; clone() the tensor first");
  return CT_OK;
}

/* A number lifted to a 0-dim CPU tensor on the caller's stack (no heap):
 * PyTorch's "wrapped number", which promotes with the lowest priority. */
typedef struct ct__wrapped {
  ct_tensor t;
  ct_storage s;
  union {
    double f;
    int64_t i;
    bool b;
  } value;
} ct__wrapped;
static ct_tensor *ct__wrap_scalar(ct__wrapped *w, ct_scalar s) {
  memset(w, 0, sizeof *w);
  w->s.refcount = 1;
  w->s.data = &w->value;
  w->s.nbytes = sizeof w->value;
  w->s.device = CT_CPU;
  w->t.refcount = 1;
  w->t.flags = CT_TENSOR_WRAPPED_NUMBER;
  w->t.device = CT_CPU;
  w->t.keys = ct_keyset_of(CT_KEY_CPU);
  w->t.storage = &w->s;
  w->t.numel = 1;
  if (s.kind == CT_SCALAR_FLOAT) w->t.dtype = CT_F64, w->value.f = s.v.f;
  else if (s.kind == CT_SCALAR_BOOL) w->t.dtype = CT_BOOL, w->value.b = s.v.b;
  else w->t.dtype = CT_I64, w->value.i = s.v.i;
  return &w->t;
}

/* torch.result_type over operands: dimensioned tensors outrank 0-dim ones,
 * which outrank wrapped numbers, unless a lower class has a higher category
 * (bool < integer < floating). Wrapped floats count as the default dtype. */
typedef struct ct__result_state {
  ct_dtype dim, zero, wrapped;
} ct__result_state;
static void ct__result_update(ct__result_state *s, const ct_tensor *t) {
  ct_dtype d = (ct_dtype)t->dtype;
  if (t->flags & CT_TENSOR_WRAPPED_NUMBER) {
    if (ct_dtype_is_floating(d)) d = CT_F32;
    s->wrapped = ct_promote_types(s->wrapped, d);
  } else if (t->ndim == 0) {
    s->zero = ct_promote_types(s->zero, d);
  } else {
    s->dim = ct_promote_types(s->dim, d);
  }
}
static ct_dtype ct__combine_categories(ct_dtype higher, ct_dtype lower) {
  if (ct_dtype_is_floating(higher)) return higher;
  if (higher == CT_BOOL || ct_dtype_is_floating(lower)) return ct_promote_types(higher, lower);
  if (higher != CT_DTYPE_NONE) return higher;
  return lower;
}
static ct_dtype ct__result_type(const ct_tensor *a, const ct_tensor *b) {
  ct__result_state s;
  s.dim = s.zero = s.wrapped = CT_DTYPE_NONE;
  ct__result_update(&s, a);
  if (b) ct__result_update(&s, b);
  return ct__combine_categories(s.dim, ct__combine_categories(s.zero, s.wrapped));
}

static const char *ct__dtype_torch_name(ct_dtype d) {
  switch (d) {
  case CT_F32: return "Float";
  case CT_F64: return "Double";
  case CT_F16: return "Half";
  case CT_BF16: return "BFloat16";
  case CT_I64: return "Long";
  case CT_I32: return "Int";
  case CT_U8: return "Byte";
  case CT_BOOL: return "Bool";
  default: return "Undefined";
  }
}

static int ct__same_device(const char *op, const ct_tensor *a, const ct_tensor *b) {
  /* a CPU 0-dim tensor (or number) may join tensors of any device */
  if (ct_device_eq(a->device, b->device)) return 1;
  if ((a->ndim == 0 && a->device.type == CT_DEVICE_CPU) || (b->ndim == 0 && b->device.type == CT_DEVICE_CPU)) return 1;
  ct_fail(CT_ERR_DEVICE, op, "expected all tensors to be on the same device, but found at least two devices, %s:%d and %s:%d",
          ct_device_type_name((ct_device_type)a->device.type), a->device.index,
          ct_device_type_name((ct_device_type)b->device.type), b->device.index);
  return 0;
}

/* Check or prepare the tensor a kernel writes: `out` for out= variants
 * (resized like PyTorch when its shape differs), self for in-place ones. */
static ct_status ct__resize_out(const char *op, ct_tensor *out, int ndim, const int64_t *shape) {
  int64_t numel, strides[CT_MAX_DIMS];
  ct_storage *s;
  size_t need;
  int i;
  if (out->ndim == ndim) {
    for (i = 0; i < ndim && out->sizes[i] == shape[i]; i++) {
    }
    if (i == ndim) return CT_OK;
  }
  numel = ct__checked_numel(op, ndim, shape, (ct_dtype)out->dtype);
  if (numel < 0) return ct_last_error();
  need = (size_t)numel * ct_dtype_size((ct_dtype)out->dtype);
  if (out->offset * (int64_t)ct_dtype_size((ct_dtype)out->dtype) + (int64_t)need > (int64_t)out->storage->nbytes) {
    if (out->storage->refcount != 1 || out->storage->deleter)
      return ct_fail(CT_ERR_SHAPE, op, "out= tensor must be resized but its storage is shared or not resizable");
    s = ct__storage_new(need, out->device, op);
    if (!s) return ct_last_error();
    s->version = out->storage->version;
    ct__storage_release(out->storage);
    out->storage = s;
    out->offset = 0;
  }
  ct__contiguous_strides(ndim, shape, strides);
  out->ndim = (int8_t)ndim;
  for (i = 0; i < ndim; i++) out->sizes[i] = shape[i], out->strides[i] = strides[i];
  out->numel = numel;
  return CT_OK;
}

/* ---- copy_: every dtype pair, any strides ---- */
static void ct__copy_same_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  size_t es = *(const size_t *)ctx;
  int64_t i;
  if (s[0] == (int64_t)es && s[1] == (int64_t)es) {
    memcpy(d[0], d[1], (size_t)n * es);
    return;
  }
  for (i = 0; i < n; i++) memcpy(d[0] + i * s[0], d[1] + i * s[1], es);
}

typedef struct ct__convert_ctx {
  ct_dtype to, from;
} ct__convert_ctx;
static void ct__convert_loop(char **d, const int64_t *s, int64_t n, void *vctx) {
  const ct__convert_ctx *c = (const ct__convert_ctx *)vctx;
  int64_t i;
  int int_path = ct_dtype_is_integral(c->to, false) && ct_dtype_is_integral(c->from, true);
  for (i = 0; i < n; i++) {
    const char *src = d[1] + i * s[1];
    char *dst = d[0] + i * s[0];
    if (int_path) { /* integer to integer: wrap like C casts via int64 */
      int64_t v = c->from == CT_I64 ? *(const int64_t *)src : c->from == CT_I32 ? *(const int32_t *)src
                : c->from == CT_U8 ? *(const uint8_t *)src : (int64_t)*(const bool *)src;
      if (c->to == CT_I64) *(int64_t *)dst = v;
      else if (c->to == CT_I32) *(int32_t *)dst = (int32_t)(uint32_t)(uint64_t)v;
      else *(uint8_t *)dst = (uint8_t)(uint64_t)v;
    } else {
      double v = ct__load_double(src, c->from);
      if (ct_dtype_is_integral(c->to, false) && v != v) v = 0; /* NaN to integer: defined, not UB */
      if (c->to == CT_U8 && v < 0) {
        *(uint8_t *)dst = (uint8_t)(uint64_t)(int64_t)v;
      } else if (c->to == CT_I32 || c->to == CT_I64 || c->to == CT_U8) {
        double lim = 9.2e18;
        ct__store_double(dst, c->to, v > lim ? lim : v < -lim ? -lim : v);
      } else {
        ct__store_double(dst, c->to, v);
      }
    }
  }
}

static ct_status ct__copy_impl(ct_tensor *self, ct_tensor *src) {
  static const char *op = "copy_";
  ct_tensor *ops[2];
  ct_tensor *tmp = NULL;
  int i, ok = src->ndim <= self->ndim;
  for (i = 0; ok && i < src->ndim; i++) { /* src must broadcast to exactly self's shape */
    int64_t want = self->sizes[self->ndim - src->ndim + i];
    ok = src->sizes[i] == want || src->sizes[i] == 1;
  }
  if (!ok) {
    char b1[160], b2[160];
    return ct_fail(CT_ERR_SHAPE, op, "source of shape %s cannot be broadcast to destination of shape %s",
                   ct_shape_format(src->ndim, src->sizes, b1, sizeof b1), ct_shape_format(self->ndim, self->sizes, b2, sizeof b2));
  }
  if (ct__is_meta(self)) return CT_OK;
  if (ct__is_meta(src)) return ct_fail(CT_ERR_DEVICE, op, "cannot copy out of a meta tensor: it has no data");
  if (self->device.type != CT_DEVICE_CPU || src->device.type != CT_DEVICE_CPU)
    return ct_fail(CT_ERR_DEVICE, op, "no copy kernel between %s and %s", ct_device_type_name((ct_device_type)src->device.type),
                   ct_device_type_name((ct_device_type)self->device.type));
  if (self->numel == 0) return CT_OK;
  if (self->storage == src->storage && self != src &&
      !(self->offset == src->offset && ct_same_shape(self, src) &&
        !memcmp(self->strides, src->strides, sizeof(int64_t) * (size_t)self->ndim))) {
    tmp = ct__empty_like(op, src, (ct_dtype)src->dtype); /* overlapping views: read all before writing */
    if (!tmp || ct__copy_impl(tmp, src) != CT_OK) {
      ct_release(tmp);
      return ct_last_error();
    }
    src = tmp;
  }
  ops[0] = self;
  ops[1] = src;
  if (self->dtype == src->dtype) {
    size_t es = ct_dtype_size((ct_dtype)self->dtype);
    ct_iter_foreach(ct__copy_same_loop, &es, 2, ops, self->ndim, self->sizes);
  } else {
    ct__convert_ctx c;
    c.to = (ct_dtype)self->dtype;
    c.from = (ct_dtype)src->dtype;
    ct_iter_foreach(ct__convert_loop, &c, 2, ops, self->ndim, self->sizes);
  }
  ct_release(tmp);
  return CT_OK;
}

static ct_status ct__k_copy_(ct_keyset ks, ct_tensor *self, ct_tensor *src, bool non_blocking) {
  ct_status st;
  (void)ks;
  (void)non_blocking;
  if ((st = ct__check_writable("copy_", self)) != CT_OK) return st;
  st = ct__copy_impl(self, src);
  if (st == CT_OK) ct__bump_version(self);
  return st;
}

/* ---- fill_ ---- */
static void ct__fill_loop(char **d, const int64_t *s, int64_t n, void *ctx) {
  const char *value = (const char *)ctx + sizeof(size_t);
  size_t es = *(const size_t *)ctx;
  int64_t i;
  for (i = 0; i < n; i++) memcpy(d[0] + i * s[0], value, es);
}
static ct_status ct__k_fill_(ct_keyset ks, ct_tensor *self, ct_scalar value) {
  struct {
    size_t es;
    char bytes[8];
  } ctx;
  ct_tensor *ops[1];
  (void)ks;
  if (value.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, "fill_", "value is None");
  if (ct__check_writable("fill_", self) != CT_OK) return ct_last_error();
  ct__bump_version(self);
  if (ct__is_meta(self) || self->numel == 0) return CT_OK;
  ctx.es = ct_dtype_size((ct_dtype)self->dtype);
  if (value.kind == CT_SCALAR_INT && self->dtype == CT_I64) memcpy(ctx.bytes, &value.v.i, 8);
  else ct__store_double(ctx.bytes, (ct_dtype)self->dtype, ct_scalar_to_double(value));
  ops[0] = self;
  ct_iter_foreach(ct__fill_loop, &ctx, 1, ops, self->ndim, self->sizes);
  return CT_OK;
}

/* ---- binary arithmetic ----
 * One loop per (op, dtype), each with a contiguous fast path the compiler
 * vectorises, a tensor-op-scalar path and the general strided path.
 * Integer arithmetic runs in unsigned types: wrap-around, never UB. */
enum { CT__ADD, CT__SUB, CT__MUL, CT__DIV, CT__THRESHOLD_BW, CT__NUM_BINARY };
typedef struct ct__binary_ctx {
  double alpha_f;
  int64_t alpha_i;
} ct__binary_ctx;

#define CT__LOAD_ID(x) (x)
#define CT__LOAD_F16(x) ct_f16_to_f32(x)
#define CT__LOAD_BF16(x) ct_bf16_to_f32(x)
#define CT__STORE_ID(x) (x)
#define CT__STORE_F16(x) ct_f32_to_f16(x)
#define CT__STORE_BF16(x) ct_f32_to_bf16(x)

#define CT__BINARY_LOOP(NAME, T, ACC, ALPHA, LOAD, STORE, EXPR)                                   \
  static void NAME(char **d, const int64_t *s, int64_t n, void *vctx) {                            \
    const ct__binary_ctx *ctx = (const ct__binary_ctx *)vctx;                                      \
    const ACC alpha = (ACC)(ALPHA);                                                                \
    (void)ctx;                                                                                     \
    int64_t i;                                                                                     \
    (void)alpha;                                                                                   \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T) && s[2] == (int64_t)sizeof(T)) { \
      T *o = (T *)d[0];                                                                \
      const T *x = (const T *)d[1];                                                    \
      const T *y = (const T *)d[2];                                                    \
      for (i = 0; i < n; i++) {                                                                    \
        ACC a = (ACC)LOAD(x[i]), b = (ACC)LOAD(y[i]);                                              \
        o[i] = STORE(EXPR);                                                                        \
      }                                                                                            \
    } else if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T) && s[2] == 0) {          \
      T *o = (T *)d[0];                                                                \
      const T *x = (const T *)d[1];                                                    \
      const ACC b = (ACC)LOAD(*(const T *)d[2]);                                                   \
      for (i = 0; i < n; i++) {                                                                    \
        ACC a = (ACC)LOAD(x[i]);                                                                   \
        o[i] = STORE(EXPR);                                                                        \
      }                                                                                            \
    } else {                                                                                       \
      for (i = 0; i < n; i++) {                                                                    \
        ACC a = (ACC)LOAD(*(const T *)(d[1] + i * s[1]));                                          \
        ACC b = (ACC)LOAD(*(const T *)(d[2] + i * s[2]));                                          \
        *(T *)(d[0] + i * s[0]) = STORE(EXPR);                                                     \
      }                                                                                            \
    }                                                                                              \
  }

/* floating types: T, accumulation type, load/store conversions */
#define CT__FLOAT_TYPES(X)                                     \
  X(f32, float, float, CT__LOAD_ID, CT__STORE_ID)              \
  X(f64, double, double, CT__LOAD_ID, CT__STORE_ID)            \
  X(f16, uint16_t, float, CT__LOAD_F16, CT__STORE_F16)         \
  X(bf16, uint16_t, float, CT__LOAD_BF16, CT__STORE_BF16)
/* integer types: T and its unsigned twin for wrap-around arithmetic */
#define CT__INT_TYPES(X)          \
  X(i64, int64_t, uint64_t)       \
  X(i32, int32_t, uint32_t)       \
  X(u8, uint8_t, uint8_t)

#define CT__DEF_FLOAT_BINARY(sfx, T, ACC, LOAD, STORE)                                          \
  CT__BINARY_LOOP(ct__add_##sfx, T, ACC, ctx->alpha_f, LOAD, STORE, (ACC)(a + alpha * b))       \
  CT__BINARY_LOOP(ct__sub_##sfx, T, ACC, ctx->alpha_f, LOAD, STORE, (ACC)(a - alpha * b))       \
  CT__BINARY_LOOP(ct__mul_##sfx, T, ACC, 0, LOAD, STORE, (ACC)(a * b))                          \
  CT__BINARY_LOOP(ct__div_##sfx, T, ACC, 0, LOAD, STORE, (ACC)(a / b))                          \
  CT__BINARY_LOOP(ct__thbw_##sfx, T, ACC, ctx->alpha_f, LOAD, STORE, (ACC)(b > alpha ? a : 0))
CT__FLOAT_TYPES(CT__DEF_FLOAT_BINARY)

#define CT__DEF_INT_BINARY(sfx, T, U)                                                                   \
  CT__BINARY_LOOP(ct__add_##sfx, T, U, (uint64_t)ctx->alpha_i, CT__LOAD_ID, CT__STORE_ID, (T)(U)(a + alpha * b)) \
  CT__BINARY_LOOP(ct__sub_##sfx, T, U, (uint64_t)ctx->alpha_i, CT__LOAD_ID, CT__STORE_ID, (T)(U)(a - alpha * b)) \
  CT__BINARY_LOOP(ct__mul_##sfx, T, U, 0, CT__LOAD_ID, CT__STORE_ID, (T)(U)(a * b))                         \
  CT__BINARY_LOOP(ct__thbw_##sfx, T, T, ctx->alpha_i, CT__LOAD_ID, CT__STORE_ID, (T)(b > alpha ? a : 0))
CT__INT_TYPES(CT__DEF_INT_BINARY)

/* bool: add is "or" (alpha must be true to count), mul is "and" */
CT__BINARY_LOOP(ct__add_bool, bool, int, ctx->alpha_i != 0, CT__LOAD_ID, CT__STORE_ID, (a || (alpha && b)))
CT__BINARY_LOOP(ct__mul_bool, bool, int, 0, CT__LOAD_ID, CT__STORE_ID, (a && b))

/* [op][dtype], in ct_dtype order: f32 f64 f16 bf16 i64 i32 u8 bool */
static const ct_loop_fn ct__binary_loops[CT__NUM_BINARY][CT_DTYPE_NUM] = {
    {ct__add_f32, ct__add_f64, ct__add_f16, ct__add_bf16, ct__add_i64, ct__add_i32, ct__add_u8, ct__add_bool},
    {ct__sub_f32, ct__sub_f64, ct__sub_f16, ct__sub_bf16, ct__sub_i64, ct__sub_i32, ct__sub_u8, NULL},
    {ct__mul_f32, ct__mul_f64, ct__mul_f16, ct__mul_bf16, ct__mul_i64, ct__mul_i32, ct__mul_u8, ct__mul_bool},
    {ct__div_f32, ct__div_f64, ct__div_f16, ct__div_bf16, NULL, NULL, NULL, NULL},
    {ct__thbw_f32, ct__thbw_f64, ct__thbw_f16, ct__thbw_bf16, ct__thbw_i64, ct__thbw_i32, ct__thbw_u8, NULL},
};
static const char *const ct__binary_names[CT__NUM_BINARY] = {"add", "sub", "mul", "div", "threshold_backward"};

/* A tensor of `dtype` with a's values: a itself when it already is one. */
static ct_tensor *ct__as_dtype(const char *op, ct_tensor *a, ct_dtype dtype, ct__wrapped *w) {
  ct_tensor *c;
  if (a->dtype == dtype) return ct_retain(a);
  if (a->flags & CT_TENSOR_WRAPPED_NUMBER) { /* re-wrap the number in the compute dtype: no heap */
    ct__wrapped tmp = *w;
    ct__store_double(&w->value, dtype, ct__load_double(&tmp.value, (ct_dtype)a->dtype));
    if (a->dtype == CT_I64 && dtype == CT_I64) w->value.i = tmp.value.i;
    w->t.dtype = (int8_t)dtype;
    w->t.storage = &w->s;
    w->s.data = &w->value;
    return ct_retain(&w->t);
  }
  c = ct__empty_like(op, a, dtype);
  if (c && ct__copy_impl(c, a) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return c;
}

/* out = a (op) b. `out` NULL: allocate and return it in *result. For
 * in-place, out == a. Handles promotion, broadcasting, alpha, meta. */
static ct_status ct__binary(int kind, ct_tensor *out, ct_tensor *a, ct_tensor *b, ct_scalar alpha, ct_tensor **result,
                            ct__wrapped *wa, ct__wrapped *wb) {
  const char *op = ct__binary_names[kind];
  int64_t bshape[CT_MAX_DIMS];
  const int64_t *shape;
  int ndim, i;
  ct_dtype common, out_dtype;
  ct_tensor *ca = NULL, *cb = NULL, *dst = NULL, *ops[3];
  ct__binary_ctx ctx;
  ct_status st = CT_OK;
  ct__wrapped unused_a, unused_b; /* wrapped numbers arrive with their container; others never use it */

  if (!wa) wa = &unused_a;
  if (!wb) wb = &unused_b;
  if (!ct_device_eq(a->device, b->device) && !ct__same_device(op, a, b)) return ct_last_error();
  if (out && !ct_device_eq(out->device, a->device) && !ct__same_device(op, out, a)) return ct_last_error();
  ndim = a->ndim;
  shape = a->sizes; /* the common case: equal shapes, no broadcasting */
  if (!ct__same_sizes(a, b)) {
    if ((ndim = ct_broadcast_shapes(op, a->ndim, a->sizes, b->ndim, b->sizes, bshape)) < 0) return ct_last_error();
    shape = bshape;
  }
  common = a->dtype == b->dtype ? (ct_dtype)a->dtype : ct__result_type(a, b);
  if (kind == CT__DIV && !ct_dtype_is_floating(common)) common = CT_F32;
  if (kind == CT__SUB && (a->dtype == CT_BOOL || b->dtype == CT_BOOL))
    return ct_fail(CT_ERR_DTYPE, op,
                   a->dtype == CT_BOOL && b->dtype == CT_BOOL
                       ? "subtraction, the `-` operator, with two bool tensors is not supported; use the `^` or logical_xor() operator instead"
                       : "subtraction, the `-` operator, with a bool tensor is not supported; if you are trying to invert a mask, use the `~` or logical_not() operator instead");
  if (kind == CT__ADD || kind == CT__SUB) {
    if (alpha.kind == CT_SCALAR_NONE) alpha = ct_int(1);
    if (alpha.kind == CT_SCALAR_FLOAT && ct_dtype_is_integral(common, true))
      return ct_fail(CT_ERR_DTYPE, op, "for integral input tensors, argument alpha must not be a floating point number");
    if (alpha.kind == CT_SCALAR_BOOL && common != CT_BOOL)
      return ct_fail(CT_ERR_DTYPE, op, "boolean alpha only supported for boolean results");
  }
  out_dtype = out ? (ct_dtype)out->dtype : common;
  if (out_dtype != common && !ct_can_cast(common, out_dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(common),
                   ct__dtype_torch_name(out_dtype));
  if (out && ct__check_writable(op, out) != CT_OK) return ct_last_error();
  if (out == a && out) { /* in-place: the broadcast shape must be self's */
    int same = shape == a->sizes;
    if (!same && out->ndim == ndim)
      for (same = 1, i = 0; i < ndim; i++) same = same && out->sizes[i] == shape[i];
    if (!same) {
      char b1[160], b2[160];
      return ct_fail(CT_ERR_SHAPE, op, "output with shape %s doesn't match the broadcast shape %s",
                     ct_shape_format(out->ndim, out->sizes, b1, sizeof b1), ct_shape_format(ndim, shape, b2, sizeof b2));
    }
  } else if (out) {
    if ((st = ct__resize_out(op, out, ndim, shape)) != CT_OK) return st;
  }
  if (!ct__binary_loops[kind][common])
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" is not implemented for '%s'", op, ct__dtype_torch_name(common));

  if (!out) {
    dst = ct__empty(op, ndim, shape, common, a->device.type == CT_DEVICE_CPU && a->ndim == 0 ? b->device : a->device);
    if (!dst) return ct_last_error();
  } else if (out_dtype != common) {
    dst = ct__empty(op, ndim, shape, common, out->device); /* compute, then cast into out */
    if (!dst) return ct_last_error();
  } else {
    dst = out; /* borrowed: written in place */
  }
  if (ct__is_meta(dst) || dst->numel == 0) goto done;
  ca = a->dtype == common ? a : ct__as_dtype(op, a, common, wa); /* borrowed when no cast is needed */
  cb = !ca ? NULL : b->dtype == common ? b : ct__as_dtype(op, b, common, wb);
  if (!ca || !cb) {
    st = ct_last_error();
    goto done;
  }
  ctx.alpha_f = ct_scalar_to_double(alpha);
  ctx.alpha_i = ct_scalar_to_int(alpha);
  ops[0] = dst;
  ops[1] = ca;
  ops[2] = cb;
  ct_iter_foreach(ct__binary_loops[kind][common], &ctx, 3, ops, ndim, shape);
  if (out && dst != out) st = ct__copy_impl(out, dst);
done:
  if (ca != a && ca != &wa->t) ct_release(ca); /* wrapped numbers live on the caller's stack */
  if (cb != b && cb != &wb->t) ct_release(cb);
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  if (dst != out) ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

/* kernels in schema order; the frontends reach them through the table */
#define CT__BINARY_KERNELS(name, KIND)                                                                   \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha) {            \
    ct_tensor *r = NULL;                                                                                 \
    (void)ks;                                                                                            \
    ct__binary(KIND, NULL, a, b, alpha, &r, NULL, NULL);                                                 \
    return r;                                                                                            \
  }                                                                                                      \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b, ct_scalar alpha) {       \
    (void)ks;                                                                                            \
    return ct__binary(KIND, self, self, b, alpha, NULL, NULL, NULL);                                     \
  }                                                                                                      \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_scalar alpha, ct_tensor *out) { \
    (void)ks;                                                                                            \
    return ct__binary(KIND, out, a, b, alpha, NULL, NULL, NULL);                                         \
  }                                                                                                      \
  static ct_tensor *ct__k_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar other, ct_scalar alpha) { \
    ct__wrapped w;                                                                                       \
    ct_tensor *r = NULL;                                                                                 \
    (void)ks;                                                                                            \
    ct__binary(KIND, NULL, a, ct__wrap_scalar(&w, other), alpha, &r, NULL, &w);                          \
    return r;                                                                                            \
  }                                                                                                      \
  static ct_status ct__k_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) { \
    ct__wrapped w;                                                                                       \
    (void)ks;                                                                                            \
    return ct__binary(KIND, self, self, ct__wrap_scalar(&w, other), alpha, NULL, NULL, &w);              \
  }
/* alpha-free forms for mul and div */
#define CT__NOALPHA_KERNELS(name) \
  static ct_tensor *ct__k2_##name(ct_keyset ks, ct_tensor *a, ct_tensor *b) {                            \
    return ct__k_##name(ks, a, b, ct_int(1));                                                            \
  }                                                                                                      \
  static ct_status ct__k2_##name##_(ct_keyset ks, ct_tensor *self, ct_tensor *b) {                       \
    return ct__k_##name##_(ks, self, b, ct_int(1));                                                      \
  }                                                                                                      \
  static ct_status ct__k2_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {       \
    return ct__k_##name##_out(ks, a, b, ct_int(1), out);                                                 \
  }                                                                                                      \
  static ct_tensor *ct__k2_##name##_scalar(ct_keyset ks, ct_tensor *a, ct_scalar other) {                \
    return ct__k_##name##_scalar(ks, a, other, ct_int(1));                                               \
  }                                                                                                      \
  static ct_status ct__k2_##name##_scalar_(ct_keyset ks, ct_tensor *self, ct_scalar other) {             \
    return ct__k_##name##_scalar_(ks, self, other, ct_int(1));                                           \
  }
CT__BINARY_KERNELS(add, CT__ADD)
CT__BINARY_KERNELS(sub, CT__SUB)
CT__BINARY_KERNELS(mul, CT__MUL)
CT__BINARY_KERNELS(div, CT__DIV)
CT__NOALPHA_KERNELS(mul)
CT__NOALPHA_KERNELS(div)

/* ---- unary ---- */
enum { CT__NEG, CT__RELU, CT__EXP, CT__TANH, CT__SIGMOID, CT__NUM_UNARY };
#define CT__UNARY_LOOP(NAME, T, ACC, LOAD, STORE, EXPR)                     \
  static void NAME(char **d, const int64_t *s, int64_t n, void *ctx) {      \
    int64_t i;                                                              \
    (void)ctx;                                                              \
    if (s[0] == (int64_t)sizeof(T) && s[1] == (int64_t)sizeof(T)) {         \
      T *o = (T *)d[0];                                         \
      const T *x = (const T *)d[1];                             \
      for (i = 0; i < n; i++) {                                             \
        ACC a = (ACC)LOAD(x[i]);                                            \
        o[i] = STORE(EXPR);                                                 \
      }                                                                     \
    } else {                                                                \
      for (i = 0; i < n; i++) {                                             \
        ACC a = (ACC)LOAD(*(const T *)(d[1] + i * s[1]));                   \
        *(T *)(d[0] + i * s[0]) = STORE(EXPR);                              \
      }                                                                     \
    }                                                                       \
  }
#define CT__DEF_FLOAT_UNARY(sfx, T, ACC, LOAD, STORE)                                  \
  CT__UNARY_LOOP(ct__neg_##sfx, T, ACC, LOAD, STORE, (ACC)(-a))                        \
  CT__UNARY_LOOP(ct__relu_##sfx, T, ACC, LOAD, STORE, (ACC)(a > 0 || a != a ? a : 0))  \
  CT__UNARY_LOOP(ct__exp_##sfx, T, ACC, LOAD, STORE, (ACC)exp((double)a))                \
  CT__UNARY_LOOP(ct__tanh_##sfx, T, ACC, LOAD, STORE, (ACC)tanh((double)a))              \
  CT__UNARY_LOOP(ct__sigmoid_##sfx, T, ACC, LOAD, STORE, (ACC)(1.0 / (1.0 + exp(-(double)a))))
CT__FLOAT_TYPES(CT__DEF_FLOAT_UNARY)
#define CT__DEF_INT_UNARY(sfx, T, U)                                                             \
  CT__UNARY_LOOP(ct__neg_##sfx, T, U, CT__LOAD_ID, CT__STORE_ID, (T)(U)(0 - (U)a))              \
  CT__UNARY_LOOP(ct__relu_##sfx, T, T, CT__LOAD_ID, CT__STORE_ID, (T)(a > 0 ? a : 0))
CT__INT_TYPES(CT__DEF_INT_UNARY)

static const ct_loop_fn ct__unary_loops[CT__NUM_UNARY][CT_DTYPE_NUM] = {
    {ct__neg_f32, ct__neg_f64, ct__neg_f16, ct__neg_bf16, ct__neg_i64, ct__neg_i32, ct__neg_u8, NULL},
    {ct__relu_f32, ct__relu_f64, ct__relu_f16, ct__relu_bf16, ct__relu_i64, ct__relu_i32, ct__relu_u8, NULL},
    {ct__exp_f32, ct__exp_f64, ct__exp_f16, ct__exp_bf16, NULL, NULL, NULL, NULL},
    {ct__tanh_f32, ct__tanh_f64, ct__tanh_f16, ct__tanh_bf16, NULL, NULL, NULL, NULL},
    {ct__sigmoid_f32, ct__sigmoid_f64, ct__sigmoid_f16, ct__sigmoid_bf16, NULL, NULL, NULL, NULL},
};
static const char *const ct__unary_names[CT__NUM_UNARY] = {"neg", "relu", "exp", "tanh", "sigmoid"};

static ct_status ct__unary(int kind, ct_tensor *out, ct_tensor *a, ct_tensor **result) {
  const char *op = ct__unary_names[kind];
  ct_dtype common = (ct_dtype)a->dtype, out_dtype;
  ct_tensor *ca = NULL, *dst = NULL, *ops[2];
  ct_status st = CT_OK;
  int to_float = kind == CT__EXP || kind == CT__TANH || kind == CT__SIGMOID;
  if (to_float && !ct_dtype_is_floating(common)) common = CT_F32; /* int_to_float */
  if (kind == CT__NEG && common == CT_BOOL)
    return ct_fail(CT_ERR_DTYPE, op, "negation, the `-` operator, on a bool tensor is not supported; if you are trying "
                                     "to invert a mask, use the `~` or logical_not() operator instead");
  if (!ct__unary_loops[kind][common])
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" is not implemented for '%s'", op, ct__dtype_torch_name(common));
  out_dtype = out ? (ct_dtype)out->dtype : common;
  if (out && !to_float && out_dtype != common) /* like PyTorch: only float ops cast to out= */
    return ct_fail(CT_ERR_DTYPE, op, "found dtype %s but expected %s", ct__dtype_torch_name(out_dtype),
                   ct__dtype_torch_name(common));
  if (out && !ct_can_cast(common, out_dtype))
    return ct_fail(CT_ERR_DTYPE, op, "result type %s can't be cast to the desired output type %s", ct__dtype_torch_name(common),
                   ct__dtype_torch_name(out_dtype));
  if (out && ct__check_writable(op, out) != CT_OK) return ct_last_error();
  if (out && out != a) {
    if (!ct__same_device(op, out, a)) return ct_last_error();
    if ((st = ct__resize_out(op, out, a->ndim, a->sizes)) != CT_OK) return st;
  }
  dst = (!out || out_dtype != common) ? ct__empty(op, a->ndim, a->sizes, common, a->device) : ct_retain(out);
  if (!dst) return ct_last_error();
  if (!ct__is_meta(dst) && dst->numel) {
    ca = a->dtype == common ? ct_retain(a) : ct__empty_like(op, a, common);
    if (!ca || (ca != a && (st = ct__copy_impl(ca, a)) != CT_OK)) {
      st = ct_last_error();
    } else {
      ops[0] = dst;
      ops[1] = ca;
      ct_iter_foreach(ct__unary_loops[kind][common], NULL, 2, ops, a->ndim, a->sizes);
      if (out && dst != out) st = ct__copy_impl(out, dst);
    }
    ct_release(ca);
  }
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

#define CT__UNARY_KERNELS(name, KIND)                                                          \
  static ct_tensor *ct__k_##name(ct_keyset ks, ct_tensor *a) {                                 \
    ct_tensor *r = NULL;                                                                       \
    (void)ks;                                                                                  \
    ct__unary(KIND, NULL, a, &r);                                                              \
    return r;                                                                                  \
  }                                                                                            \
  static ct_status ct__k_##name##_(ct_keyset ks, ct_tensor *self) {                            \
    (void)ks;                                                                                  \
    return ct__unary(KIND, self, self, NULL);                                                  \
  }
#define CT__UNARY_OUT_KERNEL(name, KIND)                                                       \
  static ct_status ct__k_##name##_out(ct_keyset ks, ct_tensor *a, ct_tensor *out) {            \
    (void)ks;                                                                                  \
    return ct__unary(KIND, out, a, NULL);                                                      \
  }
CT__UNARY_KERNELS(neg, CT__NEG)
CT__UNARY_KERNELS(relu, CT__RELU)
CT__UNARY_KERNELS(exp, CT__EXP)
CT__UNARY_KERNELS(tanh, CT__TANH)
CT__UNARY_KERNELS(sigmoid, CT__SIGMOID)
CT__UNARY_OUT_KERNEL(neg, CT__NEG)
CT__UNARY_OUT_KERNEL(exp, CT__EXP)
CT__UNARY_OUT_KERNEL(tanh, CT__TANH)
CT__UNARY_OUT_KERNEL(sigmoid, CT__SIGMOID)

/* ---- sum: an iteration whose accumulator has stride 0 on reduced dims ----
 * Floating inputs accumulate in float64 and integers in int64 (wrapping),
 * in a fixed order: results do not depend on anything but the inputs. */
#define CT__SUM_LOOP(NAME, T, ACC, LOAD)                                         \
  static void NAME(char **d, const int64_t *s, int64_t n, void *ctx) {           \
    int64_t i;                                                                   \
    (void)ctx;                                                                   \
    if (s[0] == 0) {                                                             \
      ACC acc = 0;                                                               \
      for (i = 0; i < n; i++) acc += (ACC)LOAD(*(const T *)(d[1] + i * s[1]));   \
      *(ACC *)d[0] += acc;                                                       \
    } else {                                                                     \
      for (i = 0; i < n; i++)                                                    \
        *(ACC *)(d[0] + i * s[0]) += (ACC)LOAD(*(const T *)(d[1] + i * s[1]));    \
    }                                                                            \
  }
CT__SUM_LOOP(ct__sum_f32, float, double, CT__LOAD_ID)
CT__SUM_LOOP(ct__sum_f64, double, double, CT__LOAD_ID)
CT__SUM_LOOP(ct__sum_f16, uint16_t, double, CT__LOAD_F16)
CT__SUM_LOOP(ct__sum_bf16, uint16_t, double, CT__LOAD_BF16)
CT__SUM_LOOP(ct__sum_i64, int64_t, uint64_t, (uint64_t))
CT__SUM_LOOP(ct__sum_i32, int32_t, uint64_t, (uint64_t)(int64_t))
CT__SUM_LOOP(ct__sum_u8, uint8_t, uint64_t, (uint64_t))
CT__SUM_LOOP(ct__sum_bool, bool, uint64_t, (uint64_t))
static const ct_loop_fn ct__sum_loops[CT_DTYPE_NUM] = {ct__sum_f32, ct__sum_f64, ct__sum_f16, ct__sum_bf16,
                                                       ct__sum_i64, ct__sum_i32, ct__sum_u8,  ct__sum_bool};

static ct_status ct__sum_impl(ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out,
                              ct_tensor **result) {
  static const char *op = "sum";
  int reduce[CT_MAX_DIMS] = {0};
  int64_t out_shape[CT_MAX_DIMS], kept_shape[CT_MAX_DIMS], kept_strides[CT_MAX_DIMS];
  int i, out_ndim = 0;
  ct_dtype out_dtype, acc_dtype;
  ct_tensor *src = NULL, *acc = NULL, *accv = NULL, *dst = NULL, *ops[2];
  ct_status st = CT_OK;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype);
  if (dims.n < 0 || !dims.data || dims.n == 0) {
    for (i = 0; i < a->ndim; i++) reduce[i] = 1;
  } else {
    for (i = 0; i < dims.n; i++) {
      int64_t d = ct__wrap_dim(op, dims.data[i], a->ndim);
      if (d < 0) return ct_last_error();
      if (a->ndim == 0) continue;
      if (reduce[d]) return ct_fail(CT_ERR_INVALID, op, "dim %lld appears multiple times in the list of dims", (long long)d);
      reduce[d] = 1;
    }
  }
  for (i = 0; i < a->ndim; i++) {
    kept_shape[i] = reduce[i] ? 1 : a->sizes[i];
    if (!reduce[i] || keepdim) out_shape[out_ndim++] = kept_shape[i];
  }
  out_dtype = dtype != CT_DTYPE_NONE ? dtype : out ? (ct_dtype)out->dtype
              : ct_dtype_is_integral((ct_dtype)a->dtype, true) ? CT_I64 : (ct_dtype)a->dtype;
  if (out) {
    if (!ct__same_device(op, out, a) || ct__check_writable(op, out) != CT_OK) return ct_last_error();
    if (dtype != CT_DTYPE_NONE && out->dtype != dtype)
      return ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead", ct_dtype_name(dtype),
                     ct_dtype_name((ct_dtype)out->dtype));
    if ((st = ct__resize_out(op, out, out_ndim, out_shape)) != CT_OK) return st;
    dst = ct_retain(out);
  } else {
    dst = ct__empty(op, out_ndim, out_shape, out_dtype, a->device);
    if (!dst) return ct_last_error();
  }
  if (ct__is_meta(dst)) goto done;
  /* the input in the result dtype (PyTorch casts before summing) */
  src = dtype != CT_DTYPE_NONE ? ct__as_dtype(op, a, dtype, NULL) : ct_retain(a);
  if (!src) {
    st = ct_last_error();
    goto done;
  }
  acc_dtype = ct_dtype_is_floating((ct_dtype)src->dtype) ? CT_F64 : CT_I64;
  acc = ct__empty(op, a->ndim, kept_shape, acc_dtype, a->device);
  if (!acc || ct__k_fill_(0, acc, ct_int(0)) != CT_OK) {
    st = ct_last_error();
    goto done;
  }
  for (i = 0; i < a->ndim; i++) kept_strides[i] = reduce[i] ? 0 : acc->strides[i];
  accv = ct__make_view(acc, a->ndim, a->sizes, kept_strides, 0);
  if (!accv) {
    st = ct_last_error();
    goto done;
  }
  ops[0] = accv;
  ops[1] = src;
  ct_iter_foreach(ct__sum_loops[src->dtype], NULL, 2, ops, a->ndim, a->sizes);
  {
    int64_t out_strides[CT_MAX_DIMS];
    ct_tensor *shaped;
    ct__contiguous_strides(out_ndim, out_shape, out_strides); /* acc without the reduced dims */
    shaped = ct__make_view(acc, out_ndim, out_shape, out_strides, 0);
    st = shaped ? ct__copy_impl(dst, shaped) : ct_last_error();
    ct_release(shaped);
  }
done:
  ct_release(src);
  ct_release(accv);
  ct_release(acc);
  if (st == CT_OK && !out) {
    *result = dst;
    return CT_OK;
  }
  ct_release(dst);
  if (out && st == CT_OK) ct__bump_version(out);
  return st;
}

static ct_tensor *ct__k_sum(ct_keyset ks, ct_tensor *a, ct_dtype dtype) {
  ct_tensor *r = NULL;
  ct_int_list all;
  (void)ks;
  all.data = NULL;
  all.n = -1;
  ct__sum_impl(a, all, false, dtype, NULL, &r);
  return r;
}
static ct_tensor *ct__k_sum_dim(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__sum_impl(a, dims, keepdim, dtype, NULL, &r);
  return r;
}
static ct_status ct__k_sum_out(ct_keyset ks, ct_tensor *a, ct_int_list dims, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  (void)ks;
  return ct__sum_impl(a, dims, keepdim, dtype, out, NULL);
}

/* ---- threshold_backward: grad_output where self > threshold, else 0 ---- */
static ct_tensor *ct__k_threshold_backward(ct_keyset ks, ct_tensor *grad, ct_tensor *self, ct_scalar threshold) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__binary(CT__THRESHOLD_BW, NULL, grad, self, threshold, &r, NULL, NULL);
  return r;
}

/* ---- view kernels (CompositeExplicitAutograd): metadata only, see tensor.h ---- */
static int ct__list_rank(ct_int_list l) { return l.n < 0 ? 0 : l.n > 64 ? 64 : (int)l.n; } /* >8 fails in the impls */
static ct_tensor *ct__k_view(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  (void)ks;
  return ct__view_impl(self, ct__list_rank(size), size.data);
}
static ct_tensor *ct__k_transpose(ct_keyset ks, ct_tensor *self, int64_t dim0, int64_t dim1) {
  (void)ks;
  return ct__transpose_impl(self, dim0, dim1);
}
static ct_tensor *ct__k_t(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__t_impl(self);
}
static ct_tensor *ct__k_permute(ct_keyset ks, ct_tensor *self, ct_int_list dims) {
  (void)ks;
  return ct__permute_impl(self, ct__list_rank(dims), dims.data);
}
static ct_tensor *ct__k_expand(ct_keyset ks, ct_tensor *self, ct_int_list size, bool implicit) {
  (void)ks;
  (void)implicit;
  return ct__expand_impl(self, ct__list_rank(size), size.data);
}
static ct_tensor *ct__k_unsqueeze(ct_keyset ks, ct_tensor *self, int64_t dim) {
  (void)ks;
  return ct__unsqueeze_impl(self, dim);
}
static ct_tensor *ct__k_squeeze(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__squeeze_impl(self);
}
static ct_tensor *ct__k_squeeze_dim(ct_keyset ks, ct_tensor *self, int64_t dim) {
  (void)ks;
  return ct__squeeze_dim_impl(self, dim);
}
static ct_tensor *ct__k_select(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t index) {
  (void)ks;
  return ct__select_impl(self, dim, index);
}
static ct_tensor *ct__k_slice(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t end, int64_t step) {
  (void)ks;
  return ct__slice_impl(self, dim, start, end, step);
}
static ct_tensor *ct__k_as_strided(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_int_list stride, int64_t offset) {
  (void)ks;
  if (size.n != stride.n)
    return ct_fail(CT_ERR_SHAPE, "ct_as_strided", "mismatch in length of strides and shape (%lld vs %lld)", (long long)stride.n,
                   (long long)size.n),
           (ct_tensor *)NULL;
  return ct__as_strided_impl(self, ct__list_rank(size), size.data, stride.data, offset);
}
static ct_tensor *ct__k_alias(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__alias_impl(self);
}
static ct_tensor *ct__k_detach(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__alias_impl(self); /* views start outside the graph; detach's autograd kernel records nothing */
}

/* ---- copies ---- */
static ct_tensor *ct__copy_as(const char *op, ct_tensor *self, ct_dtype dtype) {
  ct_tensor *c = ct__empty_like(op, self, dtype);
  if (c && !ct__is_meta(c) && ct__copy_impl(c, self) != CT_OK) {
    ct_release(c);
    return NULL;
  }
  return c;
}
static ct_tensor *ct__k_clone(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct__copy_as("ct_clone", self, (ct_dtype)self->dtype);
}
static ct_tensor *ct__k_to_copy(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  (void)ks;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype))
    return ct_fail(CT_ERR_DTYPE, "ct_to_dtype", "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  return ct__copy_as("ct_to_dtype", self, dtype == CT_DTYPE_NONE ? (ct_dtype)self->dtype : dtype);
}

/* ---- select/slice backward: zeros with the gradient in the selected part ---- */
static ct_tensor *ct__zeros_in(const char *op, ct_tensor *like, ct_int_list sizes) {
  ct_tensor *z;
  if (sizes.n < 0 || sizes.n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "input_sizes has rank %lld", (long long)sizes.n), (ct_tensor *)NULL;
  z = ct__empty(op, (int)sizes.n, sizes.data, (ct_dtype)like->dtype, like->device);
  if (z && ct__k_fill_(0, z, ct_int(0)) != CT_OK) ct_release(z), z = NULL;
  return z;
}
static ct_tensor *ct__scatter_into(ct_tensor *z, ct_tensor *part, ct_tensor *grad) {
  ct_status st = part ? ct__copy_impl(part, grad) : ct_last_error();
  ct_release(part);
  if (st != CT_OK) ct_release(z), z = NULL;
  return z;
}
static ct_tensor *ct__k_select_backward(ct_keyset ks, ct_tensor *grad, ct_int_list input_sizes, int64_t dim, int64_t index) {
  ct_tensor *z = ct__zeros_in("select_backward", grad, input_sizes);
  (void)ks;
  return z ? ct__scatter_into(z, ct__select_impl(z, dim, index), grad) : NULL;
}
static ct_tensor *ct__k_slice_backward(ct_keyset ks, ct_tensor *grad, ct_int_list input_sizes, int64_t dim, int64_t start,
                                       int64_t end, int64_t step) {
  ct_tensor *z = ct__zeros_in("slice_backward", grad, input_sizes);
  (void)ks;
  return z ? ct__scatter_into(z, ct__slice_impl(z, dim, start, end, step), grad) : NULL;
}

/* ================= composite kernels (CompositeImplicitAutograd) =================
 * They call other ops through their frontends, so autograd records those
 * ops and these need no formula. They run below the caller's level: their
 * temporaries live in a local scope, and ct_keep hands the result back. */
static ct_tensor *ct__k_reshape(ct_keyset ks, ct_tensor *self, ct_int_list shape) {
  int64_t sh[CT_MAX_DIMS], st[CT_MAX_DIMS];
  int n = ct__list_rank(shape);
  ct_tensor *r = NULL;
  (void)ks;
  if (!ct__infer_shape("ct_reshape", n, shape.data, self->numel, sh)) return NULL;
  if (ct__view_strides(self->ndim, self->sizes, self->strides, self->numel, n, sh, st)) return ct_view(self, n, sh);
  CT_SCOPE { r = ct_keep(ct_view(ct_clone(self), n, sh)); }
  return r;
}
static ct_tensor *ct__k_flatten(ct_keyset ks, ct_tensor *self, int64_t start_dim, int64_t end_dim) {
  (void)ks;
  return ct__flatten_impl(self, start_dim, end_dim);
}
static ct_tensor *ct__k_narrow(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t length) {
  (void)ks;
  return ct__narrow_impl(self, dim, start, length);
}
static ct_tensor *ct__k_broadcast_to(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  (void)ks;
  return ct_expand(self, ct__list_rank(size), size.data);
}
static ct_tensor *ct__k_contiguous(ct_keyset ks, ct_tensor *self) {
  (void)ks;
  return ct_is_contiguous(self) ? ct_retain(self) : ct_clone(self);
}
static ct_tensor *ct__k_to_dtype(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  (void)ks;
  if (!ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, "ct_to_dtype", "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  return self->dtype == dtype ? ct_retain(self) : ct_to_copy_ex(self, dtype);
}
static ct_status ct__mean_dtype(ct_tensor *self, ct_dtype dtype) {
  ct_dtype d = dtype != CT_DTYPE_NONE ? dtype : (ct_dtype)self->dtype;
  if (!ct_dtype_is_floating(d))
    return ct_fail(CT_ERR_DTYPE, "mean",
                   "could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: %s",
                   ct__dtype_torch_name(d));
  return CT_OK;
}
static ct_tensor *ct__k_mean(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__mean_dtype(self, dtype) != CT_OK) return NULL;
  CT_SCOPE { r = ct_keep(ct_div_scalar(ct_sum_ex(self, dtype), ct_int(self->numel))); }
  return r;
}
static ct_tensor *ct__k_mean_dim(ct_keyset ks, ct_tensor *self, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  ct_tensor *r = NULL;
  int64_t count = 1, i;
  (void)ks;
  if (ct__mean_dtype(self, dtype) != CT_OK) return NULL;
  if (dim.n <= 0 || !dim.data) {
    count = self->numel;
  } else {
    for (i = 0; i < dim.n; i++) {
      int64_t d = ct__wrap_dim("mean", dim.data[i], self->ndim);
      if (d < 0) return NULL;
      count *= self->ndim ? self->sizes[d] : 1;
    }
  }
  CT_SCOPE { r = ct_keep(ct_div_scalar(ct_sum_dim_ex(self, dim.data ? (int)dim.n : 0, dim.data, keepdim, dtype), ct_int(count))); }
  return r;
}
/* ================= derivative helpers (FunctionsManual) =================
 * Called by the formulas in gen/derivatives.spec. They run inside the
 * engine's scope, which releases their temporaries; they are written with
 * ct ops so that create_graph records them. */
static ct_scalar ct__neg_scalar(ct_scalar s) {
  if (s.kind == CT_SCALAR_FLOAT) s.v.f = -s.v.f;
  else if (s.kind == CT_SCALAR_INT) s.v.i = (int64_t)(0 - (uint64_t)s.v.i);
  else if (s.kind == CT_SCALAR_NONE) s = ct_int(-1);
  return s;
}
static inline ct_scalar ct__scalar_none(void) { /* generated defaults of Scalar? = None */
  ct_scalar s;
  memset(&s, 0, sizeof s);
  s.kind = CT_SCALAR_NONE;
  return s;
}
/* grad * alpha, or grad itself when alpha is 1 (PyTorch's maybe_multiply) */
static ct_tensor *ct__scale(ct_tensor *grad, ct_scalar alpha) {
  if (alpha.kind == CT_SCALAR_NONE || (alpha.kind == CT_SCALAR_INT && alpha.v.i == 1) ||
      (alpha.kind == CT_SCALAR_FLOAT && alpha.v.f == 1.0) || (alpha.kind == CT_SCALAR_BOOL && alpha.v.b))
    return grad;
  return ct_mul_scalar(grad, alpha);
}
/* d(a / b)/db = -grad * a / b^2 */
static ct_tensor *ct__div_other_backward(ct_tensor *grad, ct_tensor *self, ct_tensor *other) {
  return ct_neg(ct_div(ct_mul(grad, self), ct_mul(other, other)));
}
/* d tanh = grad * (1 - y^2) */
static ct_tensor *ct__tanh_backward(ct_tensor *grad, ct_tensor *y) {
  return ct_mul(grad, ct_add_scalar(ct_neg(ct_mul(y, y)), ct_int(1)));
}
/* d sigmoid = grad * y * (1 - y) */
static ct_tensor *ct__sigmoid_backward(ct_tensor *grad, ct_tensor *y) {
  return ct_mul(grad, ct_mul(y, ct_add_scalar(ct_neg(y), ct_int(1))));
}
static ct_tensor *ct__permute_backward(ct_tensor *grad, ct_int_list dims) {
  int64_t inv[CT_MAX_DIMS];
  int64_t i;
  if (!grad) return NULL;
  for (i = 0; i < dims.n && i < CT_MAX_DIMS; i++) {
    int64_t d = ct__wrap_dim("permute", dims.data[i], grad->ndim);
    if (d < 0) return NULL;
    inv[d] = i;
  }
  return ct_permute(grad, (int)dims.n, inv);
}
/* sum over dims: put the reduced dims back (size 1) and expand */
static ct_tensor *ct__sum_backward(ct_tensor *grad, const ct__shape *sizes, ct_int_list dim, bool keepdim) {
  int reduce[CT_MAX_DIMS] = {0};
  int64_t i;
  if (!grad) return NULL;
  if (!keepdim && sizes->ndim > 0) {
    if (dim.n <= 0 || !dim.data) {
      for (i = 0; i < sizes->ndim; i++) reduce[i] = 1;
    } else {
      for (i = 0; i < dim.n; i++) {
        int64_t d = ct__wrap_dim("sum", dim.data[i], sizes->ndim);
        if (d < 0) return NULL;
        reduce[d] = 1;
      }
    }
    for (i = 0; i < sizes->ndim && grad; i++)
      if (reduce[i]) grad = ct_unsqueeze(grad, i);
  }
  return grad ? ct_expand(grad, sizes->ndim, sizes->sizes) : NULL;
}
/* grad summed down to `shape` (the inverse of broadcasting) */
static ct_tensor *ct__sum_to(ct_tensor *grad, const ct__shape *shape) {
  int64_t dims[CT_MAX_DIMS];
  int i, n = 0, lead;
  if (!grad) return NULL;
  lead = grad->ndim - shape->ndim;
  for (i = 0; i < grad->ndim; i++)
    if (i < lead || (shape->sizes[i - lead] == 1 && grad->sizes[i] != 1)) dims[n++] = i;
  if (n) grad = ct_sum_dim(grad, n, dims, true);
  if (grad && lead > 0) grad = ct_reshape(grad, shape->ndim, shape->sizes);
  return grad;
}

/* ================= dispatch plumbing for the generated code ================= */
/* The kernel for a call's key set (already combined with the thread's keys). */
static inline const ct_kernel *ct__kernel_for(const ct_op *op, ct_keyset *ks) {
  ct_keyset m = *ks & op->mask;
  const ct_kernel *k = &op->table[ct_keyset_highest(m)];
  if (CT_LIKELY(m && k->unboxed)) {
    *ks = m;
    return k;
  }
  return ct_dispatch_lookup(op, *ks, ks);
}
/* A typed frontend reaching a boxed-only kernel. */
static ct_tensor *ct__finish_new(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n) {
  ct_tensor *r = NULL;
  ct__call_boxed_kernel(op, k, ks, v, n, 1, &r);
  return r;
}
static ct_status ct__finish_mut(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n) {
  return ct__call_boxed_kernel(op, k, ks, v, n, 0, NULL);
}
/* ... for ops returning several tensors: the first is returned, the others
 * go to *extra[i] (NULL: released). */
static inline ct_tensor *ct__finish_tuple(const ct_op *op, const ct_kernel *k, ct_keyset ks, ct_value *v, int n, int nres,
                                   ct_tensor **const *extra) {
  ct_tensor *r[CT_MAX_RETURNS] = {NULL, NULL, NULL, NULL};
  int i;
  if (ct__call_boxed_kernel(op, k, ks, v, n, nres, r) != CT_OK) return NULL;
  for (i = 1; i < nres; i++) *extra[i - 1] = r[i];
  return r[0];
}
/* ... for ops returning Tensor[] (CompositeImplicitAutograd ones only). */
static inline int64_t ct__finish_list(const ct_op *op) {
  return ct_fail(CT_ERR_UNSUPPORTED, op->full_name, "a boxed kernel for an op returning Tensor[] is not supported"), -1;
}
/* A boxed call's Tensor[] result: the kernel asked for the count, then filled. */
static inline ct_status ct__push_list(ct_stack *s, int64_t n, ct_tensor **items) {
  ct_value v = ct_value_tensor_list(items, n);
  v.owned = 1;
  if (ct_stack_push(s, v) != CT_OK) {
    ct_value_release(&v);
    return ct_last_error();
  }
  return CT_OK;
}
static inline ct_tensor *ct__unbox_tensor(const ct_value *v) { return v->tag == CT_VALUE_TENSOR ? v->v.tensor : NULL; }
static ct_status ct__push_owned(ct_stack *s, ct_tensor *r) {
  ct_value v = ct_value_tensor(r);
  v.owned = 1;
  if (ct_stack_push(s, v) != CT_OK) {
    ct_release(r);
    return ct_last_error();
  }
  return CT_OK;
}

CT_EXTERN_C_END
#endif /* CT__OPS_IMPL */
/* ---- ctorch/ops/unary.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_UNARY_IMPL)
#define CT__OPS_UNARY_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_UNARY_IMPL */
/* ---- ctorch/ops/binary.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_BINARY_IMPL)
#define CT__OPS_BINARY_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_BINARY_IMPL */
/* ---- ctorch/ops/reduce.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_REDUCE_IMPL)
#define CT__OPS_REDUCE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_REDUCE_IMPL */
/* ---- ctorch/ops/linalg.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_LINALG_IMPL)
#define CT__OPS_LINALG_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- the strided kernel ---- */
typedef struct ct__la_gemm {
  int64_t batch, m, n, k;
  const char *a, *b; /* element [0,0,0] of each operand */
  char *c;
  int64_t as[3], bs[3], cs[3]; /* element strides: batch, row, column */
  double alpha_f, beta_f;
  uint64_t alpha_i, beta_i; /* integer dtypes: wrapping arithmetic */
  int use_beta;             /* 0: C's old values are never read (beta == 0 ignores NaN, as PyTorch) */
} ct__la_gemm;

#define CT__LA_NB 128 /* columns per block: the accumulators of one row block */

#define CT__LA_GEMM_LOOP(NAME, T, ACC, LOAD, STORE, ALPHA, BETA)                                   \
  static void NAME(const ct__la_gemm *g) {                                                         \
    const ACC alpha = (ACC)(ALPHA), beta = (ACC)(BETA);                                            \
    const T *A = (const T *)g->a, *B = (const T *)g->b;                                            \
    T *C = (T *)g->c;                                                                              \
    ACC acc[CT__LA_NB];                                                                            \
    int64_t bt, i, j, j0, k, nb;                                                                   \
    for (bt = 0; bt < g->batch; bt++)                                                              \
      for (i = 0; i < g->m; i++)                                                                   \
        for (j0 = 0; j0 < g->n; j0 += CT__LA_NB) {                                                 \
          T *crow = C + bt * g->cs[0] + i * g->cs[1] + j0 * g->cs[2];                              \
          nb = g->n - j0 < CT__LA_NB ? g->n - j0 : CT__LA_NB;                                      \
          for (j = 0; j < nb; j++) acc[j] = 0;                                                     \
          for (k = 0; k < g->k; k++) {                                                             \
            const ACC av = (ACC)LOAD(A[bt * g->as[0] + i * g->as[1] + k * g->as[2]]);              \
            const T *brow = B + bt * g->bs[0] + k * g->bs[1] + j0 * g->bs[2];                      \
            if (g->bs[2] == 1) {                                                                   \
              for (j = 0; j < nb; j++) acc[j] += av * (ACC)LOAD(brow[j]);                          \
            } else {                                                                               \
              for (j = 0; j < nb; j++) acc[j] += av * (ACC)LOAD(brow[j * g->bs[2]]);               \
            }                                                                                      \
          }                                                                                        \
          for (j = 0; j < nb; j++) {                                                               \
            T *cp = crow + j * g->cs[2];                                                           \
            ACC v = alpha * acc[j];                                                                \
            if (g->use_beta) v += beta * (ACC)LOAD(*cp);                                           \
            *cp = (T)STORE(v);                                                                     \
          }                                                                                        \
        }                                                                                          \
  }
#define CT__LA_DEF_FLOAT(sfx, T, ACC, LOAD, STORE) CT__LA_GEMM_LOOP(ct__la_gemm_##sfx, T, ACC, LOAD, STORE, g->alpha_f, g->beta_f)
CT__FLOAT_TYPES(CT__LA_DEF_FLOAT)
#define CT__LA_LOAD_INT(x) ((uint64_t)(int64_t)(x))
#define CT__LA_DEF_INT(sfx, T, U) CT__LA_GEMM_LOOP(ct__la_gemm_##sfx, T, uint64_t, CT__LA_LOAD_INT, CT__STORE_ID, g->alpha_i, g->beta_i)
CT__INT_TYPES(CT__LA_DEF_INT)

typedef void (*ct__la_gemm_fn)(const ct__la_gemm *);
/* in ct_dtype order: f32 f64 f16 bf16 i64 i32 u8 bool */
static const ct__la_gemm_fn ct__la_gemm_loops[CT_DTYPE_NUM] = {ct__la_gemm_f32, ct__la_gemm_f64, ct__la_gemm_f16, ct__la_gemm_bf16,
                                                              ct__la_gemm_i64, ct__la_gemm_i32, ct__la_gemm_u8,  NULL};

/* A number as a wrapping integer (NaN and out-of-range floats are not UB). */
static uint64_t ct__la_scalar_bits(ct_scalar s) {
  if (s.kind == CT_SCALAR_FLOAT) {
    double f = s.v.f;
    if (f != f) return 0;
    if (f >= 9.2e18) return (uint64_t)INT64_MAX;
    if (f <= -9.2e18) return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)f;
  }
  return s.kind == CT_SCALAR_INT ? (uint64_t)s.v.i : s.kind == CT_SCALAR_BOOL ? (uint64_t)s.v.b : 1;
}
static int ct__la_is_zero(ct_scalar s) {
  return (s.kind == CT_SCALAR_FLOAT && s.v.f == 0) || (s.kind == CT_SCALAR_INT && s.v.i == 0) ||
         (s.kind == CT_SCALAR_BOOL && !s.v.b);
}
static double ct__la_scalar_f(ct_scalar s) { return s.kind == CT_SCALAR_NONE ? 1.0 : ct_scalar_to_double(s); }

/* A 0..3-D operand's strides as (batch, row, column); a vector is a row
 * (A of dot: 1 x K) or a column (B of dot and mv, C of mv). */
static void ct__la_strides3(const ct_tensor *t, int vector_is_row, int64_t s[3]) {
  s[0] = s[1] = s[2] = 0;
  if (t->ndim == 3) s[0] = t->strides[0], s[1] = t->strides[1], s[2] = t->strides[2];
  else if (t->ndim == 2) s[1] = t->strides[0], s[2] = t->strides[1];
  else if (t->ndim == 1) s[vector_is_row ? 2 : 1] = t->strides[0];
}

/* One product: result = beta * self + alpha * (a @ b). */
typedef struct ct__la_call {
  const char *op;
  ct_tensor *self; /* the added term (addmm, baddbmm), broadcast to the result; or NULL */
  ct_tensor *a, *b;
  ct_scalar beta, alpha;
  ct_dtype dtype; /* the result's */
  int ndim;       /* the result's: 0 dot, 1 mv, 2 mm, 3 bmm */
  int64_t shape[3];
  int64_t batch, m, n, k;
} ct__la_call;

static ct_status ct__la_dtype_mismatch(const char *op, ct_dtype want, ct_dtype got) {
  return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s", ct__dtype_torch_name(want), ct__dtype_torch_name(got));
}

/* self must broadcast to the result's shape (PyTorch expands it) */
static ct_status ct__la_check_expand(const char *op, const ct_tensor *self, int ndim, const int64_t *shape) {
  char b1[160], b2[160];
  int i;
  if (self->ndim > ndim)
    return ct_fail(CT_ERR_SHAPE, op, "expand(%s, size=%s): the number of sizes provided (%d) must be greater or equal to the "
                   "number of dimensions in the tensor (%d)", ct_shape_format(self->ndim, self->sizes, b1, sizeof b1),
                   ct_shape_format(ndim, shape, b2, sizeof b2), ndim, self->ndim);
  for (i = 0; i < self->ndim; i++) {
    int64_t want = shape[ndim - self->ndim + i], have = self->sizes[i];
    if (have != want && have != 1)
      return ct_fail(CT_ERR_SHAPE, op, "The expanded size of the tensor (%lld) must match the existing size (%lld) at "
                     "non-singleton dimension %d.  Target sizes: %s.  Tensor sizes: %s", (long long)want, (long long)have,
                     ndim - self->ndim + i, ct_shape_format(ndim, shape, b1, sizeof b1),
                     ct_shape_format(self->ndim, self->sizes, b2, sizeof b2));
  }
  return CT_OK;
}

/* Runs a checked call into a new tensor (out NULL), into out (out=) or
 * into self (inplace). Operands that share storage with the written tensor
 * are read before anything is written (through a temporary). */
static ct_status ct__la_run(const ct__la_call *c, ct_tensor *out, int inplace, ct_tensor **result) {
  const char *op = c->op;
  ct_tensor *dst, *work;
  ct_status st = CT_OK;
  int use_beta = c->self && !ct__la_is_zero(c->beta);
  char b1[160], b2[160];
  if (!ct__la_gemm_loops[c->dtype])
    return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", c->ndim == 3 ? "bmm" : c->ndim == 2 ? "addmm_impl_cpu_"
                   : c->ndim == 1 ? "addmv_impl_cpu" : "dot", ct__dtype_torch_name(c->dtype));
  if (inplace) {
    dst = c->self;
    if (dst->ndim != c->ndim || memcmp(dst->sizes, c->shape, sizeof(int64_t) * (size_t)c->ndim))
      return ct_fail(CT_ERR_SHAPE, op, "Bad in-place call: input tensor size %s and output tensor size %s should match",
                     ct_shape_format(dst->ndim, dst->sizes, b1, sizeof b1), ct_shape_format(c->ndim, c->shape, b2, sizeof b2));
    if (dst->dtype != c->dtype) return ct__la_dtype_mismatch(op, (ct_dtype)dst->dtype, c->dtype);
    if (ct__check_writable(op, dst) != CT_OK) return ct_last_error();
  } else if (out) {
    if (out->dtype != c->dtype)
      return c->ndim == 0 ? ct_fail(CT_ERR_DTYPE, op, "result dtype %s does not match input dtype %s",
                                    ct__dtype_torch_name((ct_dtype)out->dtype), ct__dtype_torch_name(c->dtype))
                          : ct_fail(CT_ERR_DTYPE, op, "expected out tensor to have dtype %s, but got %s instead",
                                    ct_dtype_name(c->dtype), ct_dtype_name((ct_dtype)out->dtype));
    if (!ct__same_device(op, out, c->a) || ct__check_writable(op, out) != CT_OK) return ct_last_error();
    if ((out == c->a || out == c->b || out == c->self) &&
        (out->ndim != c->ndim || memcmp(out->sizes, c->shape, sizeof(int64_t) * (size_t)c->ndim)))
      return ct_fail(CT_ERR_INVALID, op, "out= is an input of shape %s but the result has shape %s: it cannot be resized",
                     ct_shape_format(out->ndim, out->sizes, b1, sizeof b1), ct_shape_format(c->ndim, c->shape, b2, sizeof b2));
    if ((st = ct__resize_out(op, out, c->ndim, c->shape)) != CT_OK) return st;
    dst = out;
  } else {
    dst = ct__empty(op, c->ndim, c->shape, c->dtype, c->a->device);
    if (!dst) return ct_last_error();
  }
  if (!ct__is_meta(dst) && dst->numel > 0) {
    ct__la_gemm g;
    int alias = dst->storage == c->a->storage || dst->storage == c->b->storage;
    work = alias ? ct__empty(op, c->ndim, c->shape, c->dtype, dst->device) : dst;
    if (!work) {
      st = ct_last_error();
    } else if (use_beta && work != c->self && (st = ct__copy_impl(work, c->self)) != CT_OK) {
      /* self broadcast and cast into the result first */
    } else {
      g.batch = c->batch, g.m = c->m, g.n = c->n, g.k = c->k;
      g.a = (const char *)ct_data_ptr(c->a);
      g.b = (const char *)ct_data_ptr(c->b);
      g.c = (char *)ct_data_ptr(work);
      ct__la_strides3(c->a, 1, g.as);
      ct__la_strides3(c->b, 0, g.bs);
      ct__la_strides3(work, 0, g.cs);
      g.alpha_f = ct__la_scalar_f(c->alpha), g.beta_f = ct__la_scalar_f(c->beta);
      g.alpha_i = ct__la_scalar_bits(c->alpha), g.beta_i = ct__la_scalar_bits(c->beta);
      g.use_beta = use_beta;
      if (g.k == 0) g.a = g.b = g.c; /* never read; keeps pointer arithmetic off NULL */
      ct__la_gemm_loops[c->dtype](&g);
      if (work != dst) st = ct__copy_impl(dst, work);
    }
    if (work != dst) ct_release(work);
  }
  if (out || inplace) {
    if (st == CT_OK) ct__bump_version(dst);
    return st;
  }
  if (st != CT_OK) {
    ct_release(dst);
    return st;
  }
  *result = dst;
  return CT_OK;
}

static ct_status ct__la_same_dtype(const char *op, const ct_tensor *a, const ct_tensor *b) {
  return a->dtype == b->dtype ? CT_OK : ct__la_dtype_mismatch(op, (ct_dtype)a->dtype, (ct_dtype)b->dtype);
}

/* ---- dot ---- */
static ct_status ct__la_dot(ct_tensor *a, ct_tensor *b, ct_tensor *out, ct_tensor **result) {
  static const char *op = "dot";
  ct__la_call c;
  if (a->ndim != 1 || b->ndim != 1)
    return ct_fail(CT_ERR_RANK, op, "1D tensors expected, but got %dD and %dD tensors", a->ndim, b->ndim);
  if (a->sizes[0] != b->sizes[0])
    return ct_fail(CT_ERR_SHAPE, op, "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of "
                   "elements, but got %lld and %lld elements respectively", (long long)a->sizes[0], (long long)b->sizes[0],
                   (long long)a->sizes[0], (long long)b->sizes[0]);
  if (a->dtype != b->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "dot : expected both vectors to have same dtype, but found %s and %s",
                   ct__dtype_torch_name((ct_dtype)a->dtype), ct__dtype_torch_name((ct_dtype)b->dtype));
  if (!ct__same_device(op, a, b)) return ct_last_error();
  memset(&c, 0, sizeof c);
  c.op = op, c.a = a, c.b = b, c.alpha = c.beta = ct_int(1), c.dtype = (ct_dtype)a->dtype;
  c.ndim = 0, c.batch = c.m = c.n = 1, c.k = a->sizes[0];
  return ct__la_run(&c, out, 0, result);
}
static ct_tensor *ct__k_dot(ct_keyset ks, ct_tensor *self, ct_tensor *tensor) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__la_dot(self, tensor, NULL, &r);
  return r;
}
static ct_status ct__k_dot_out(ct_keyset ks, ct_tensor *self, ct_tensor *tensor, ct_tensor *out) {
  (void)ks;
  return ct__la_dot(self, tensor, out, NULL);
}

/* ---- mv ---- */
static ct_status ct__la_mv(ct_tensor *a, ct_tensor *v, ct_tensor *out, ct_tensor **result) {
  static const char *op = "mv";
  ct__la_call c;
  if (a->ndim != 2 || v->ndim != 1)
    return ct_fail(CT_ERR_RANK, op, "vector + matrix @ vector expected, got 1, %d, %d", a->ndim, v->ndim);
  if (a->sizes[1] != v->sizes[0])
    return ct_fail(CT_ERR_SHAPE, op, "size mismatch, got input (%lld), mat (%lldx%lld), vec (%lld)", (long long)a->sizes[0],
                   (long long)a->sizes[0], (long long)a->sizes[1], (long long)v->sizes[0]);
  if (ct__la_same_dtype(op, a, v) != CT_OK || !ct__same_device(op, a, v)) return ct_last_error();
  memset(&c, 0, sizeof c);
  c.op = op, c.a = a, c.b = v, c.alpha = c.beta = ct_int(1), c.dtype = (ct_dtype)a->dtype;
  c.ndim = 1, c.shape[0] = a->sizes[0];
  c.batch = 1, c.m = a->sizes[0], c.n = 1, c.k = a->sizes[1];
  return ct__la_run(&c, out, 0, result);
}
static ct_tensor *ct__k_mv(ct_keyset ks, ct_tensor *self, ct_tensor *vec) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__la_mv(self, vec, NULL, &r);
  return r;
}
static ct_status ct__k_mv_out(ct_keyset ks, ct_tensor *self, ct_tensor *vec, ct_tensor *out) {
  (void)ks;
  return ct__la_mv(self, vec, out, NULL);
}

/* ---- mm and addmm ---- */
static ct_status ct__la_mm_check(const char *op, const char *n1, ct_tensor *a, ct_tensor *b) {
  if (a->ndim != 2) return ct_fail(CT_ERR_RANK, op, "%s must be a matrix, got a %dD tensor", n1, a->ndim);
  if (b->ndim != 2) return ct_fail(CT_ERR_RANK, op, "mat2 must be a matrix, got a %dD tensor", b->ndim);
  if (a->sizes[1] != b->sizes[0])
    return ct_fail(CT_ERR_SHAPE, op, "mat1 and mat2 shapes cannot be multiplied (%lldx%lld and %lldx%lld)", (long long)a->sizes[0],
                   (long long)a->sizes[1], (long long)b->sizes[0], (long long)b->sizes[1]);
  if (a->dtype != b->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "expected scalar type %s but found %s (expected mat1 and mat2 to have the same dtype, but "
                   "got: %s != %s)", ct__dtype_torch_name((ct_dtype)a->dtype), ct__dtype_torch_name((ct_dtype)b->dtype),
                   ct_dtype_name((ct_dtype)a->dtype), ct_dtype_name((ct_dtype)b->dtype));
  if (!ct__same_device(op, a, b)) return ct_last_error();
  return CT_OK;
}
static void ct__la_mm_call(ct__la_call *c, const char *op, ct_tensor *a, ct_tensor *b) {
  memset(c, 0, sizeof *c);
  c->op = op, c->a = a, c->b = b, c->alpha = c->beta = ct_int(1), c->dtype = (ct_dtype)a->dtype;
  c->ndim = 2, c->shape[0] = a->sizes[0], c->shape[1] = b->sizes[1];
  c->batch = 1, c->m = a->sizes[0], c->n = b->sizes[1], c->k = a->sizes[1];
}
static ct_status ct__la_mm(ct_tensor *a, ct_tensor *b, ct_tensor *out, ct_tensor **result) {
  ct__la_call c;
  if (ct__la_mm_check("mm", "self", a, b) != CT_OK) return ct_last_error();
  ct__la_mm_call(&c, "mm", a, b);
  return ct__la_run(&c, out, 0, result);
}
static ct_tensor *ct__k_mm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__la_mm(self, mat2, NULL, &r);
  return r;
}
static ct_status ct__k_mm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  (void)ks;
  return ct__la_mm(self, mat2, out, NULL);
}

static ct_status ct__la_addmm(ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha, ct_tensor *out,
                              int inplace, ct_tensor **result) {
  static const char *op = "addmm";
  ct__la_call c;
  if (ct__la_mm_check(op, "mat1", m1, m2) != CT_OK) return ct_last_error();
  if (self->dtype != m1->dtype)
    return ct_fail(CT_ERR_DTYPE, op, "self and mat2 must have the same dtype, but got %s and %s",
                   ct__dtype_torch_name((ct_dtype)self->dtype), ct__dtype_torch_name((ct_dtype)m2->dtype));
  if (!ct__same_device(op, self, m1)) return ct_last_error();
  ct__la_mm_call(&c, op, m1, m2);
  if (!inplace && ct__la_check_expand(op, self, 2, c.shape) != CT_OK) return ct_last_error();
  c.self = self, c.beta = beta, c.alpha = alpha;
  return ct__la_run(&c, out, inplace, result);
}
static ct_tensor *ct__k_addmm(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__la_addmm(self, mat1, mat2, beta, alpha, NULL, 0, &r);
  return r;
}
static ct_status ct__k_addmm_(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  (void)ks;
  return ct__la_addmm(self, mat1, mat2, beta, alpha, self, 1, NULL);
}
static ct_status ct__k_addmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha,
                                 ct_tensor *out) {
  (void)ks;
  return ct__la_addmm(self, mat1, mat2, beta, alpha, out, 0, NULL);
}

/* ---- bmm and baddbmm ---- */
static ct_status ct__la_bmm_check(const char *op, ct_tensor *a, ct_tensor *b) {
  if (a->ndim != 3) return ct_fail(CT_ERR_RANK, op, "batch1 must be a 3D tensor, got a %dD tensor", a->ndim);
  if (b->ndim != 3) return ct_fail(CT_ERR_RANK, op, "batch2 must be a 3D tensor, got a %dD tensor", b->ndim);
  if (b->sizes[0] != a->sizes[0] || b->sizes[1] != a->sizes[2])
    return ct_fail(CT_ERR_SHAPE, op, "Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: "
                   "[%lld, %lld].", (long long)a->sizes[0], (long long)a->sizes[2], (long long)b->sizes[0], (long long)b->sizes[1]);
  if (ct__la_same_dtype(op, a, b) != CT_OK || !ct__same_device(op, a, b)) return ct_last_error();
  return CT_OK;
}
static void ct__la_bmm_call(ct__la_call *c, const char *op, ct_tensor *a, ct_tensor *b) {
  memset(c, 0, sizeof *c);
  c->op = op, c->a = a, c->b = b, c->alpha = c->beta = ct_int(1), c->dtype = (ct_dtype)a->dtype;
  c->ndim = 3, c->shape[0] = a->sizes[0], c->shape[1] = a->sizes[1], c->shape[2] = b->sizes[2];
  c->batch = a->sizes[0], c->m = a->sizes[1], c->n = b->sizes[2], c->k = a->sizes[2];
}
static ct_status ct__la_bmm(ct_tensor *a, ct_tensor *b, ct_tensor *out, ct_tensor **result) {
  ct__la_call c;
  if (ct__la_bmm_check("bmm", a, b) != CT_OK) return ct_last_error();
  ct__la_bmm_call(&c, "bmm", a, b);
  return ct__la_run(&c, out, 0, result);
}
static ct_tensor *ct__k_bmm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__la_bmm(self, mat2, NULL, &r);
  return r;
}
static ct_status ct__k_bmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  (void)ks;
  return ct__la_bmm(self, mat2, out, NULL);
}

static ct_status ct__la_baddbmm(ct_tensor *self, ct_tensor *b1, ct_tensor *b2, ct_scalar beta, ct_scalar alpha, ct_tensor *out,
                                int inplace, ct_tensor **result) {
  static const char *op = "baddbmm";
  ct__la_call c;
  if (ct__la_bmm_check(op, b1, b2) != CT_OK) return ct_last_error();
  if (!ct__same_device(op, self, b1)) return ct_last_error();
  if (ct_dtype_is_floating((ct_dtype)self->dtype) != ct_dtype_is_floating((ct_dtype)b1->dtype) || self->dtype == CT_BOOL)
    return ct__la_dtype_mismatch(op, (ct_dtype)b1->dtype, (ct_dtype)self->dtype); /* self is cast to the result (PyTorch) */
  ct__la_bmm_call(&c, op, b1, b2);
  if (!inplace && ct__la_check_expand(op, self, 3, c.shape) != CT_OK) return ct_last_error();
  c.self = self, c.beta = beta, c.alpha = alpha;
  return ct__la_run(&c, out, inplace, result);
}
static ct_tensor *ct__k_baddbmm(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta,
                                ct_scalar alpha) {
  ct_tensor *r = NULL;
  (void)ks;
  ct__la_baddbmm(self, batch1, batch2, beta, alpha, NULL, 0, &r);
  return r;
}
static ct_status ct__k_baddbmm_(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta,
                                ct_scalar alpha) {
  (void)ks;
  return ct__la_baddbmm(self, batch1, batch2, beta, alpha, self, 1, NULL);
}
static ct_status ct__k_baddbmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta,
                                   ct_scalar alpha, ct_tensor *out) {
  (void)ks;
  return ct__la_baddbmm(self, batch1, batch2, beta, alpha, out, 0, NULL);
}

/* ================= composite kernels (CompositeImplicitAutograd) ================= */

/* outer: self.reshape(n, 1) * vec2, as PyTorch (so it promotes like mul) */
static ct_tensor *ct__k_outer(ct_keyset ks, ct_tensor *self, ct_tensor *vec2) {
  ct_tensor *r = NULL;
  int64_t shape[2];
  (void)ks;
  if (self->ndim != 1 || vec2->ndim != 1)
    return ct_fail(CT_ERR_RANK, "outer", "outer: Expected 1-D argument %s, but got %d-D", self->ndim != 1 ? "self" : "vec2",
                   self->ndim != 1 ? self->ndim : vec2->ndim),
           (ct_tensor *)NULL;
  shape[0] = self->sizes[0], shape[1] = 1;
  CT_SCOPE { r = ct_keep(ct_mul(ct_reshape(self, 2, shape), vec2)); }
  return r;
}

/* PyTorch's should_fold: an N-D (N >= 3) operand times a 1-D or 2-D one
 * folds the batch into mm / mv when that needs no copy of the big operand
 * (or when the small one requires grad, which keeps its gradient an mm). */
static int ct__la_should_fold(const ct_tensor *t1, const ct_tensor *t2) {
  int larger = t1->ndim >= t2->ndim, dim_big, dim_small, i;
  const ct_tensor *big = larger ? t1 : t2;
  int64_t sizes[CT_MAX_DIMS], strides[CT_MAX_DIMS];
  dim_big = big->ndim;
  dim_small = larger ? t2->ndim : t1->ndim;
  if (!(dim_big >= 3 && dim_small <= 2)) return 0;
  if (ct__needs_grad(larger ? t2 : t1)) return 1;
  if (t1->ndim == 2) return 0; /* the result would need a transposing copy */
  if (big->numel == 0) return 1;
  for (i = 0; i < dim_big; i++) sizes[i] = big->sizes[i], strides[i] = big->strides[i];
  if (!larger) { /* big is t2.mT */
    sizes[dim_big - 1] = big->sizes[dim_big - 2], sizes[dim_big - 2] = big->sizes[dim_big - 1];
    strides[dim_big - 1] = big->strides[dim_big - 2], strides[dim_big - 2] = big->strides[dim_big - 1];
  }
  for (i = 0; i < dim_big - 2; i++)
    if (strides[i] != strides[i + 1] * sizes[i + 1]) return 0;
  return 1;
}
static ct_tensor *ct__la_matmul_fold(ct_tensor *a, ct_tensor *b) {
  int transpose = b->ndim > a->ndim;
  ct_tensor *r = NULL;
  CT_SCOPE {
    ct_tensor *t1 = transpose ? ct_transpose(b, -1, -2) : a;
    ct_tensor *t2 = !transpose ? b : a->ndim == 2 ? ct_t(a) : a;
    ct_tensor *o = NULL;
    if (t1 && t2) {
      int64_t oshape[CT_MAX_DIMS], fshape[2], folded = 1;
      int on = t1->ndim - 1, i;
      for (i = 0; i < on; i++) folded *= oshape[i] = t1->sizes[i];
      fshape[0] = folded, fshape[1] = t1->sizes[on];
      t1 = ct_reshape(t1, 2, fshape);
      if (t2->ndim == 2) {
        oshape[on++] = t2->sizes[1];
        o = ct_view(ct_mm(t1, t2), on, oshape);
        if (transpose) o = ct_contiguous(ct_transpose(o, -1, -2));
      } else {
        o = ct_view(ct_mv(t1, t2), on, oshape);
      }
    }
    r = ct_keep(o);
  }
  return r;
}
/* batched: broadcast the batch dims, flatten them, bmm, view back */
static ct_tensor *ct__la_matmul_batched(ct_tensor *a, ct_tensor *b) {
  int da = a->ndim, db = b->ndim, nb, i;
  int64_t n = da > 1 ? a->sizes[da - 2] : 1, m1 = a->sizes[da - 1];
  int64_t m2 = db > 1 ? b->sizes[db - 2] : b->sizes[0], p = db > 1 ? b->sizes[db - 1] : 1;
  int64_t batch[CT_MAX_DIMS + 2], ea[CT_MAX_DIMS + 2], eb[CT_MAX_DIMS + 2], fa[3], fb[3], prod = 1;
  ct_tensor *r = NULL;
  nb = ct_broadcast_shapes("matmul", da > 2 ? da - 2 : 0, a->sizes, db > 2 ? db - 2 : 0, b->sizes, batch);
  if (nb < 0) return NULL;
  if (nb + 2 > CT_MAX_DIMS)
    return ct_fail(CT_ERR_RANK, "matmul", "the broadcast batch has %d dims: the result would exceed rank %d", nb, CT_MAX_DIMS),
           (ct_tensor *)NULL;
  for (i = 0; i < nb; i++) prod *= ea[i] = eb[i] = batch[i];
  ea[nb] = n, ea[nb + 1] = m1, eb[nb] = m2, eb[nb + 1] = p;
  fa[0] = fb[0] = prod, fa[1] = n, fa[2] = m1, fb[1] = m2, fb[2] = p;
  CT_SCOPE {
    ct_tensor *x = ct_reshape(ct_expand(a, nb + 2, ea), 3, fa);
    ct_tensor *y = ct_reshape(ct_expand(db == 1 ? ct_unsqueeze(b, -1) : b, nb + 2, eb), 3, fb);
    ct_tensor *o = ct_bmm(x, y);
    int on = nb;
    if (da > 1) batch[on++] = n;
    if (db > 1) batch[on++] = p;
    r = ct_keep(ct_view(o, on, batch));
  }
  return r;
}
/* matmul: torch.matmul's shape cases */
static ct_tensor *ct__k_matmul(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_tensor *r = NULL;
  (void)ks;
  if (a->ndim == 0 || b->ndim == 0)
    return ct_fail(CT_ERR_RANK, "matmul", "both arguments to matmul need to be at least 1D, but they are %dD and %dD", a->ndim,
                   b->ndim),
           (ct_tensor *)NULL;
  if (a->ndim == 1 && b->ndim == 1) return ct_dot(a, b);
  if (a->ndim == 2 && b->ndim == 1) return ct_mv(a, b);
  if (a->ndim == 2 && b->ndim == 2) return ct_mm(a, b);
  if (a->ndim == 1 && b->ndim == 2) {
    CT_SCOPE { r = ct_keep(ct_squeeze_dim(ct_mm(ct_unsqueeze(a, 0), b), 0)); }
    return r;
  }
  if (ct__la_should_fold(a, b)) return ct__la_matmul_fold(a, b);
  return ct__la_matmul_batched(a, b);
}

/* PyTorch's output.add_(bias), out of place (the output may be a view, which
 * ctorch's autograd does not rebase): bias may not grow the output, and the
 * sum keeps the output's dtype. */
static ct_tensor *ct__la_add_bias(ct_tensor *o, ct_tensor *bias) {
  int64_t shape[CT_MAX_DIMS];
  char b1[160], b2[160];
  int n = ct_broadcast_shapes("linear", o->ndim, o->sizes, bias->ndim, bias->sizes, shape);
  if (n < 0) return NULL;
  if (n != o->ndim || memcmp(shape, o->sizes, sizeof(int64_t) * (size_t)n))
    return ct_fail(CT_ERR_SHAPE, "linear", "output with shape %s doesn't match the broadcast shape %s (adding bias)",
                   ct_shape_format(o->ndim, o->sizes, b1, sizeof b1), ct_shape_format(n, shape, b2, sizeof b2)),
           (ct_tensor *)NULL;
  return ct_to_dtype(ct_add(o, bias), (ct_dtype)o->dtype);
}
/* linear: input @ weight.t() + bias, through addmm where PyTorch does */
static ct_tensor *ct__k_linear(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE {
    ct_tensor *wt = ct_t(weight), *o = NULL;
    if (wt && bias && input->ndim == 2) {
      o = ct_addmm(bias, input, wt);
    } else if (wt && bias && input->ndim == 3 && ct_is_contiguous(input)) {
      int64_t flat[2], shape[3];
      flat[0] = input->sizes[0] * input->sizes[1], flat[1] = input->sizes[2];
      o = ct_addmm(bias, ct_view(input, 2, flat), wt);
      if (o) {
        shape[0] = input->sizes[0], shape[1] = input->sizes[1], shape[2] = o->sizes[1];
        o = ct_view(o, 3, shape);
      }
    } else if (wt) {
      o = ct_matmul(input, wt);
      if (o && bias) o = ct__la_add_bias(o, bias);
    }
    r = ct_keep(o);
  }
  return r;
}

CT_EXTERN_C_END
#endif /* CT__OPS_LINALG_IMPL */
/* ---- ctorch/ops/shape.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_SHAPE_IMPL)
#define CT__OPS_SHAPE_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_SHAPE_IMPL */
/* ---- ctorch/ops/nn.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_NN_IMPL)
#define CT__OPS_NN_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_NN_IMPL */
/* ---- ctorch/ops/conv.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_CONV_IMPL)
#define CT__OPS_CONV_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

CT_EXTERN_C_END
#endif /* CT__OPS_CONV_IMPL */
/* ---- ctorch/ops/random.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__OPS_RANDOM_IMPL)
#define CT__OPS_RANDOM_IMPL
#include <math.h>
#include <time.h>
CT_EXTERN_C_BEGIN

struct ct_generator {
  uint64_t seed, offset;
  ct_device device;
  int is_default;
};

CTDEF void ct_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
  uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
  int r;
  for (r = 0; r < 10; r++) {
    uint64_t p0 = (uint64_t)0xD2511F53u * c0, p1 = (uint64_t)0xCD9E8D57u * c2;
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
    c1 = (uint32_t)p1;
    c3 = (uint32_t)p0;
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

/* ---- generator state ---- */
#define CT__RN_MAX_INDEX 16
static ct_generator ct__rn_defaults[CT_DEVICE_NUM][CT__RN_MAX_INDEX];
static unsigned char ct__rn_default_ready[CT_DEVICE_NUM][CT__RN_MAX_INDEX];

CTDEF ct_generator *ct_generator_new(ct_device device) {
  ct_generator *g;
  if (device.type < 0 || device.type >= CT_DEVICE_NUM || device.index < 0)
    return ct_fail(CT_ERR_DEVICE, "ct_generator_new", "invalid device (type %d, index %d)", device.type, device.index),
           (ct_generator *)NULL;
  g = (ct_generator *)calloc(1, sizeof *g);
  if (!g) return ct_fail(CT_ERR_OOM, "ct_generator_new", "out of memory"), (ct_generator *)NULL;
  g->seed = CT_DEFAULT_SEED;
  g->device = device;
  return g;
}
CTDEF void ct_generator_free(ct_generator *g) {
  if (g && !g->is_default) free(g);
}
CTDEF ct_generator *ct_default_generator(ct_device device) {
  ct_generator *g;
  if (device.type < 0 || device.type >= CT_DEVICE_NUM || device.index < 0 || device.index >= CT__RN_MAX_INDEX)
    return ct_fail(CT_ERR_DEVICE, "ct_default_generator", "no default generator for device (type %d, index %d)", device.type,
                   device.index),
           (ct_generator *)NULL;
  g = &ct__rn_defaults[device.type][device.index];
  ct__lock();
  if (!ct__rn_default_ready[device.type][device.index]) {
    g->seed = CT_DEFAULT_SEED;
    g->offset = 0;
    g->device = device;
    g->is_default = 1;
    ct__rn_default_ready[device.type][device.index] = 1;
  }
  ct__unlock();
  return g;
}
CTDEF ct_status ct_manual_seed(ct_generator *g, uint64_t seed) {
  if (!g) return ct__fail_null("ct_manual_seed", "g");
  ct__lock();
  g->seed = seed;
  g->offset = 0;
  ct__unlock();
  return CT_OK;
}
CTDEF uint64_t ct_generator_seed(const ct_generator *g) {
  uint64_t s;
  if (!g) return ct__fail_null("ct_generator_seed", "g"), 0;
  ct__lock();
  s = g->seed;
  ct__unlock();
  return s;
}
CTDEF uint64_t ct_generator_offset(const ct_generator *g) {
  uint64_t o;
  if (!g) return ct__fail_null("ct_generator_offset", "g"), 0;
  ct__lock();
  o = g->offset;
  ct__unlock();
  return o;
}
CTDEF ct_status ct_generator_set_offset(ct_generator *g, uint64_t offset) {
  if (!g) return ct__fail_null("ct_generator_set_offset", "g");
  ct__lock();
  g->offset = offset;
  ct__unlock();
  return CT_OK;
}
CTDEF ct_device ct_generator_device(const ct_generator *g) { return g ? g->device : CT_CPU; }
CTDEF void ct_manual_seed_all(uint64_t seed) {
  int t, i;
  for (t = 0; t < CT_DEVICE_NUM; t++)
    for (i = 0; i < CT__RN_MAX_INDEX; i++) {
      ct_generator *g = ct_default_generator(ct_device_make((ct_device_type)t, i));
      if (g) ct_manual_seed(g, seed);
    }
}
CTDEF uint64_t ct_seed(void) {
  static int counter;
  uint64_t s = (uint64_t)time(NULL) ^ ((uint64_t)clock() << 32) ^ (uint64_t)(uintptr_t)&counter ^ (uint64_t)++counter * 0x9E3779B97F4A7C15ull;
  s ^= s >> 31; /* splitmix64 finaliser */
  s *= 0xBF58476D1CE4E5B9ull;
  s ^= s >> 27;
  ct_manual_seed_all(s);
  return s;
}

/* ---- an op's stream: words at consecutive indices from its reserved range ---- */
typedef struct ct__rn_stream {
  uint32_t key[2];
  uint64_t base, block;
  uint32_t buf[4];
  int valid;
} ct__rn_stream;

/* The generator an op uses on tensor t: gen, or the device's default. */
static ct_generator *ct__rn_pick(const char *op, ct_generator *gen, const ct_tensor *t) {
  if (!gen) return ct_default_generator(t->device);
  if (gen->device.type != t->device.type && t->device.type != CT_DEVICE_META)
    return ct_fail(CT_ERR_DEVICE, op, "Expected a '%s' device type for generator but found '%s'",
                   ct_device_type_name((ct_device_type)t->device.type), ct_device_type_name((ct_device_type)gen->device.type)),
           (ct_generator *)NULL;
  return gen;
}
/* Reserve ceil(words / 4) blocks of g for one op. */
static void ct__rn_reserve(ct_generator *g, uint64_t words, ct__rn_stream *s) {
  uint64_t seed;
  ct__lock();
  seed = g->seed;
  s->base = g->offset;
  g->offset += words / 4 + (words % 4 != 0);
  ct__unlock();
  s->key[0] = (uint32_t)seed;
  s->key[1] = (uint32_t)(seed >> 32);
  s->valid = 0;
}
static uint32_t ct__rn_word(ct__rn_stream *s, uint64_t j) {
  uint64_t b = s->base + j / 4;
  if (!s->valid || b != s->block) {
    uint32_t ctr[4];
    ctr[0] = (uint32_t)b, ctr[1] = (uint32_t)(b >> 32), ctr[2] = ctr[3] = 0;
    ct_philox4x32_10(ctr, s->key, s->buf);
    s->block = b;
    s->valid = 1;
  }
  return s->buf[j & 3];
}
static double ct__rn_u24(ct__rn_stream *s, uint64_t j) { return (double)(ct__rn_word(s, j) >> 8) * (1.0 / 16777216.0); }
static uint64_t ct__rn_u64(ct__rn_stream *s, uint64_t j) {
  uint64_t hi = ct__rn_word(s, j);
  return hi << 32 | ct__rn_word(s, j + 1);
}
static double ct__rn_u53(ct__rn_stream *s, uint64_t j) { return (double)(ct__rn_u64(s, j) >> 11) * (1.0 / 9007199254740992.0); }

/* ---- writing values in logical order ----
 * Contiguous results are written in place; others go through a contiguous
 * temporary and copy_ (which handles any strides). */
typedef struct ct__rn_sink {
  ct_tensor *self, *buf;
  char *data;
  size_t es;
  ct_dtype dtype;
} ct__rn_sink;
static ct_status ct__rn_sink_open(const char *op, ct_tensor *self, ct__rn_sink *k) {
  k->self = self;
  k->dtype = (ct_dtype)self->dtype;
  k->es = ct_dtype_size(k->dtype);
  k->buf = ct_is_contiguous(self) ? ct_retain(self) : ct__empty(op, self->ndim, self->sizes, k->dtype, self->device);
  if (!k->buf) return ct_last_error();
  k->data = (char *)ct_data_ptr(k->buf);
  return CT_OK;
}
static ct_status ct__rn_sink_close(ct__rn_sink *k, ct_status st) {
  if (st == CT_OK && k->buf != k->self) st = ct__copy_impl(k->self, k->buf);
  ct_release(k->buf);
  if (st == CT_OK) ct__bump_version(k->self);
  return st;
}
static void ct__rn_put(ct__rn_sink *k, int64_t i, double v) { ct__store_double(k->data + (size_t)i * k->es, k->dtype, v); }
static void ct__rn_put_int(ct__rn_sink *k, int64_t i, int64_t v) {
  char *p = k->data + (size_t)i * k->es;
  switch (k->dtype) {
  case CT_I64: *(int64_t *)p = v; break;
  case CT_I32: *(int32_t *)p = (int32_t)v; break;
  case CT_U8: *(uint8_t *)p = (uint8_t)v; break;
  case CT_BOOL: *(bool *)p = v != 0; break;
  default: ct__store_double(p, k->dtype, (double)v); break;
  }
}

/* common prologue of a sampling op writing self: checks, generator, stream */
static ct_status ct__rn_begin(const char *op, ct_tensor *self, ct_generator *gen, uint64_t words_per_elem, ct__rn_stream *s,
                              ct_generator **out_gen) {
  ct_generator *g;
  if (ct__check_writable(op, self) != CT_OK) return ct_last_error();
  g = ct__rn_pick(op, gen, self);
  if (!g) return ct_last_error();
  *out_gen = g;
  if (!ct__is_meta(self) && self->numel > 0) ct__rn_reserve(g, (uint64_t)self->numel * words_per_elem, s);
  return CT_OK;
}
static int ct__rn_skip(const ct_tensor *self) { return ct__is_meta(self) || self->numel == 0; }

static ct_status ct__rn_floating_only(const char *op, const char *what, const ct_tensor *self) {
  if (ct_dtype_is_floating((ct_dtype)self->dtype)) return CT_OK;
  return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", what, ct__dtype_torch_name((ct_dtype)self->dtype));
}

/* ---- uniform_ ---- */
static ct_status ct__k_uniform_(ct_keyset ks, ct_tensor *self, double from, double to, ct_generator *gen) {
  static const char *op = "uniform_";
  ct__rn_stream s;
  ct__rn_sink k;
  ct_generator *g;
  int wide = self->dtype == CT_F64;
  int64_t i;
  (void)ks;
  if (ct__rn_floating_only(op, "check_uniform_bounds", self) != CT_OK) return ct_last_error();
  if (!(from <= to)) return ct_fail(CT_ERR_INVALID, op, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", from, to);
  if (!isfinite(to - from)) return ct_fail(CT_ERR_INVALID, op, "uniform_ expects to-from <= std::numeric_limits<double>::max(), but found to=%g and from=%g which result in to-from to exceed the limit", to, from);
  if (ct__rn_begin(op, self, gen, wide ? 2 : 1, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  for (i = 0; i < self->numel; i++) {
    double u = wide ? ct__rn_u53(&s, 2 * (uint64_t)i) : ct__rn_u24(&s, (uint64_t)i);
    ct__rn_put(&k, i, fma(to - from, u, from));
    if (from < to && ct__load_double(k.data + (size_t)i * k.es, k.dtype) >= to) ct__rn_put(&k, i, from);
  }
  return ct__rn_sink_close(&k, CT_OK);
}

/* ---- normal_ (Box-Muller, see the note) ---- */
static ct_status ct__k_normal_(ct_keyset ks, ct_tensor *self, double mean, double std, ct_generator *gen) {
  static const char *op = "normal_";
  ct__rn_stream s;
  ct__rn_sink k;
  ct_generator *g;
  int64_t i;
  (void)ks;
  if (ct__rn_floating_only(op, "normal_kernel_cpu", self) != CT_OK) return ct_last_error();
  if (!(std >= 0)) return ct_fail(CT_ERR_INVALID, op, "normal expects std >= 0.0, but found std %g", std);
  /* two elements per block: reserve 2 words per element, rounded up to whole blocks */
  if (ct__rn_begin(op, self, gen, 2, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  for (i = 0; i < self->numel; i += 2) {
    uint64_t w = 2 * (uint64_t)i; /* = 4 * pair */
    double u1 = ct__rn_u53(&s, w), u2 = ct__rn_u53(&s, w + 2);
    double r = sqrt(-2.0 * log(1.0 - u1)), t = 6.283185307179586 * u2;
    ct__rn_put(&k, i, fma(std, r * cos(t), mean));
    if (i + 1 < self->numel) ct__rn_put(&k, i + 1, fma(std, r * sin(t), mean));
  }
  return ct__rn_sink_close(&k, CT_OK);
}

/* ---- random_.from: integers in [from, to) (to None: the dtype's top) ---- */
static int ct__rn_int_bounds(ct_dtype d, int64_t *lo, int64_t *hi) { /* representable integers [lo, hi] */
  switch (d) {
  case CT_F64: *lo = -((int64_t)1 << 53), *hi = (int64_t)1 << 53; return 1;
  case CT_F32: *lo = -((int64_t)1 << 24), *hi = (int64_t)1 << 24; return 1;
  case CT_F16: *lo = -((int64_t)1 << 11), *hi = (int64_t)1 << 11; return 1;
  case CT_BF16: *lo = -((int64_t)1 << 8), *hi = (int64_t)1 << 8; return 1;
  case CT_I64: *lo = INT64_MIN, *hi = INT64_MAX; return 0;
  case CT_I32: *lo = INT32_MIN, *hi = INT32_MAX; return 0;
  case CT_U8: *lo = 0, *hi = 255; return 0;
  default: *lo = 0, *hi = 1; return 0;
  }
}
static ct_status ct__k_random_from_(ct_keyset ks, ct_tensor *self, int64_t from, int64_t to, ct_generator *gen) {
  static const char *op = "random_";
  ct__rn_stream s;
  ct__rn_sink k;
  ct_generator *g;
  int64_t lo, hi, i;
  uint64_t range; /* to - from; 0 means 2^64 */
  (void)ks;
  ct__rn_int_bounds((ct_dtype)self->dtype, &lo, &hi);
  if (to == CT_INT_NONE) { /* [from, top]: top is the largest exact integer (floats) or the maximum */
    if (from < lo || from > hi)
      return ct_fail(CT_ERR_INVALID, op, "from %lld is out of the range of %s", (long long)from, ct__dtype_torch_name((ct_dtype)self->dtype));
    range = (uint64_t)hi - (uint64_t)from + 1;
  } else {
    if (from >= to)
      return ct_fail(CT_ERR_INVALID, op, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld", (long long)from,
                     (long long)to);
    if (from < lo || from > hi || to - 1 > hi || to - 1 < lo)
      return ct_fail(CT_ERR_INVALID, op, "random_ expects 'from' and 'to' - 1 to be in [%lld, %lld] for %s, but got from=%lld, to=%lld",
                     (long long)lo, (long long)hi, ct__dtype_torch_name((ct_dtype)self->dtype), (long long)from, (long long)to);
    range = (uint64_t)to - (uint64_t)from;
  }
  if (ct__rn_begin(op, self, gen, 2, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  for (i = 0; i < self->numel; i++) {
    uint64_t x = ct__rn_u64(&s, 2 * (uint64_t)i);
    ct__rn_put_int(&k, i, (int64_t)((uint64_t)from + (range ? x % range : x)));
  }
  return ct__rn_sink_close(&k, CT_OK);
}

/* ---- bernoulli ---- */
static ct_status ct__rn_check_p(const char *op, double p) {
  if (p >= 0 && p <= 1) return CT_OK;
  return ct_fail(CT_ERR_INVALID, op, "bernoulli expects p to be in [0, 1], but got p=%g", p);
}
/* self = 1 where u53 < p (p a number, or probs[i] read in logical order) */
static ct_status ct__rn_bernoulli_fill(const char *op, ct_tensor *self, double p, const double *probs, ct_generator *gen) {
  ct__rn_stream s;
  ct__rn_sink k;
  ct_generator *g;
  int64_t i;
  if (ct__rn_begin(op, self, gen, 2, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  for (i = 0; i < self->numel; i++) ct__rn_put_int(&k, i, ct__rn_u53(&s, 2 * (uint64_t)i) < (probs ? probs[i] : p));
  return ct__rn_sink_close(&k, CT_OK);
}
static ct_status ct__k_bernoulli_float_(ct_keyset ks, ct_tensor *self, double p, ct_generator *gen) {
  (void)ks;
  if (ct__rn_check_p("bernoulli_", p) != CT_OK) return ct_last_error();
  return ct__rn_bernoulli_fill("bernoulli_", self, p, NULL, gen);
}
static ct_tensor *ct__k_bernoulli_p(ct_keyset ks, ct_tensor *self, double p, ct_generator *gen) {
  ct_tensor *r;
  (void)ks;
  if (ct__rn_check_p("bernoulli", p) != CT_OK) return NULL;
  r = ct__empty_like("bernoulli", self, (ct_dtype)self->dtype);
  if (r && ct__rn_bernoulli_fill("bernoulli", r, p, NULL, gen) != CT_OK) ct_release(r), r = NULL;
  return r;
}
/* bernoulli(Tensor self): self holds the probabilities; the result has its dtype */
static ct_tensor *ct__k_bernoulli(ct_keyset ks, ct_tensor *self, ct_generator *gen) {
  static const char *op = "bernoulli";
  ct_tensor *r = NULL, *p = NULL;
  const double *probs;
  int64_t i;
  (void)ks;
  if (ct__rn_floating_only(op, "bernoulli_tensor_cpu_self_", self) != CT_OK) return NULL;
  r = ct__empty_like(op, self, (ct_dtype)self->dtype);
  if (!r) return NULL;
  if (ct__is_meta(r)) {
    if (!ct__rn_pick(op, gen, self)) ct_release(r), r = NULL;
    return r;
  }
  p = ct__copy_as(op, self, CT_F64); /* contiguous float64 probabilities */
  if (!p) goto fail;
  probs = (const double *)ct_data_ptr(p);
  for (i = 0; i < p->numel; i++)
    if (!(probs[i] >= 0 && probs[i] <= 1)) {
      ct_fail(CT_ERR_INVALID, op, "Expected p_in >= 0 && p_in <= 1 to be true, but got false (element %lld is %g)", (long long)i,
              probs[i]);
      goto fail;
    }
  if (ct__rn_bernoulli_fill(op, r, 0, probs, gen) != CT_OK) goto fail;
  ct_release(p);
  return r;
fail:
  ct_release(p);
  ct_release(r);
  return NULL;
}

/* ---- factories' out= forms ---- */
static ct_status ct__rn_resize(const char *op, ct_tensor *out, ct_int_list size) {
  int i;
  if (size.n < 0 || size.n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "size has %lld dims (at most %d)", (long long)size.n, CT_MAX_DIMS);
  for (i = 0; i < size.n; i++)
    if (size.data[i] < 0) return ct_fail(CT_ERR_SIZE, op, "Trying to create tensor with negative dimension %lld", (long long)size.data[i]);
  if (ct__check_writable(op, out) != CT_OK) return ct_last_error();
  return ct__resize_out(op, out, (int)size.n, size.data);
}
static ct_status ct__k_rand_out(ct_keyset ks, ct_int_list size, ct_generator *gen, ct_tensor *out) {
  if (ct__rn_floating_only("rand", "check_uniform_bounds", out) != CT_OK || ct__rn_resize("rand", out, size) != CT_OK)
    return ct_last_error();
  return ct__k_uniform_(ks, out, 0, 1, gen);
}
static ct_status ct__k_randn_out(ct_keyset ks, ct_int_list size, ct_generator *gen, ct_tensor *out) {
  if (ct__rn_floating_only("randn", "normal_kernel_cpu", out) != CT_OK || ct__rn_resize("randn", out, size) != CT_OK)
    return ct_last_error();
  return ct__k_normal_(ks, out, 0, 1, gen);
}
static ct_status ct__k_randint_out(ct_keyset ks, int64_t low, int64_t high, ct_int_list size, ct_generator *gen, ct_tensor *out) {
  if (low >= high)
    return ct_fail(CT_ERR_INVALID, "randint", "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                   (long long)low, (long long)high);
  if (ct__rn_resize("randint", out, size) != CT_OK) return ct_last_error();
  return ct__k_random_from_(ks, out, low, high, gen);
}
static ct_status ct__k_randperm_out(ct_keyset ks, int64_t n, ct_generator *gen, ct_tensor *out) {
  static const char *op = "randperm";
  ct__rn_stream s;
  ct_generator *g;
  ct_tensor *perm;
  int64_t lo, hi, i, *r;
  ct_int_list size;
  ct_status st;
  (void)ks;
  if (n < 0) return ct_fail(CT_ERR_INVALID, op, "n must be non-negative, got %lld", (long long)n);
  ct__rn_int_bounds((ct_dtype)out->dtype, &lo, &hi);
  if (out->dtype == CT_BOOL || n - 1 > hi)
    return ct_fail(CT_ERR_INVALID, op, "n is too large for result tensor type: '%s'", ct__dtype_torch_name((ct_dtype)out->dtype));
  size.data = &n, size.n = 1;
  if (ct__rn_resize(op, out, size) != CT_OK) return ct_last_error();
  g = ct__rn_pick(op, gen, out);
  if (!g) return ct_last_error();
  if (ct__is_meta(out) || n == 0) return ct__bump_version(out), CT_OK;
  ct__rn_reserve(g, 2 * (uint64_t)n, &s);
  perm = ct__empty(op, 1, &n, CT_I64, CT_CPU);
  if (!perm) return ct_last_error();
  r = (int64_t *)ct_data_ptr(perm);
  for (i = 0; i < n; i++) r[i] = i;
  for (i = 0; i < n; i++) {
    int64_t j = i + (int64_t)(ct__rn_u64(&s, 2 * (uint64_t)i) % (uint64_t)(n - i)), t = r[i];
    r[i] = r[j], r[j] = t;
  }
  st = ct__copy_impl(out, perm);
  ct_release(perm);
  if (st == CT_OK) ct__bump_version(out);
  return st;
}

static ct_status ct__k_eye_m_out(ct_keyset ks, int64_t n, int64_t m, ct_tensor *out) {
  static const char *op = "eye";
  int64_t shape[2], i;
  ct_int_list size;
  (void)ks;
  if (n < 0) return ct_fail(CT_ERR_INVALID, op, "n must be greater or equal to 0, got %lld", (long long)n);
  if (m < 0) return ct_fail(CT_ERR_INVALID, op, "m must be greater or equal to 0, got %lld", (long long)m);
  shape[0] = n, shape[1] = m;
  size.data = shape, size.n = 2;
  if (ct__rn_resize(op, out, size) != CT_OK) return ct_last_error();
  if (ct__k_fill_(0, out, ct_int(0)) != CT_OK) return ct_last_error();
  if (!ct__is_meta(out)) {
    char *base = (char *)ct_data_ptr(out);
    size_t es = ct_dtype_size((ct_dtype)out->dtype);
    for (i = 0; i < n && i < m; i++)
      ct__store_double(base + (size_t)(i * out->strides[0] + i * out->strides[1]) * es, (ct_dtype)out->dtype, 1.0);
  }
  return CT_OK;
}
static ct_status ct__k_eye_out(ct_keyset ks, int64_t n, ct_tensor *out) { return ct__k_eye_m_out(ks, n, n, out); }

static int64_t ct__rn_scalar_i64(ct_scalar s) { /* NaN and out-of-range floats are not UB */
  double f;
  if (s.kind != CT_SCALAR_FLOAT) return ct_scalar_to_int(s);
  f = s.v.f;
  return f != f ? 0 : f >= 9.2e18 ? INT64_MAX : f <= -9.2e18 ? INT64_MIN : (int64_t)f;
}
/* linspace as PyTorch's CPU kernel: the first half counts up from start, the
 * second half down from end, each value one fused multiply-add (PyTorch's
 * vectorised CPU kernel is compiled with FMA); float32 (and half types) step
 * in float, float64 in double, integers in double and truncate. */
static ct_status ct__k_linspace_out(ct_keyset ks, ct_scalar start, ct_scalar end, int64_t steps, ct_tensor *out) {
  static const char *op = "linspace";
  ct__rn_sink k;
  ct_dtype d = (ct_dtype)out->dtype;
  ct_int_list size;
  int64_t i, half = steps / 2;
  (void)ks;
  if (steps < 0) return ct_fail(CT_ERR_INVALID, op, "number of steps must be non-negative");
  if (start.kind == CT_SCALAR_NONE || end.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, op, "start and end must be numbers");
  size.data = &steps, size.n = 1;
  if (ct__rn_resize(op, out, size) != CT_OK) return ct_last_error();
  if (ct__is_meta(out) || steps == 0) return ct__bump_version(out), CT_OK;
  if (ct__rn_sink_open(op, out, &k) != CT_OK) return ct_last_error();
  if (d == CT_F64 || !ct_dtype_is_floating(d)) {
    double a = ct_scalar_to_double(start), b = ct_scalar_to_double(end), step;
    if (!ct_dtype_is_floating(d)) a = (double)ct__rn_scalar_i64(start), b = (double)ct__rn_scalar_i64(end); /* Scalar.to<int64_t> */
    step = steps > 1 ? (b - a) / (double)(steps - 1) : 0;
    for (i = 0; i < steps; i++) {
      double v = steps == 1 ? a : i < half ? fma(step, (double)i, a) : fma(-step, (double)(steps - i - 1), b);
      if (d == CT_F64) ct__rn_put(&k, i, v);
      else ct__rn_put_int(&k, i, v != v ? 0 : v >= 9.2e18 ? INT64_MAX : v <= -9.2e18 ? INT64_MIN : (int64_t)v);
    }
  } else {
    float a = (float)ct_scalar_to_double(start), b = (float)ct_scalar_to_double(end);
    float step = steps > 1 ? (b - a) / (float)(steps - 1) : 0.0f;
    for (i = 0; i < steps; i++) {
      float v = steps == 1 ? a : i < half ? fmaf(step, (float)i, a) : fmaf(-step, (float)(steps - i - 1), b);
      ct__rn_put(&k, i, (double)v);
    }
  }
  return ct__rn_sink_close(&k, CT_OK);
}

/* ---- dropout ----
 * native_dropout returns (output, mask): mask is bool (kept elements), the
 * output input * mask / (1 - p) in training, input itself (a copy) and an
 * all-true mask in evaluation. Its derivative is native_dropout_backward,
 * a composite of ct ops, so every order of derivative works. */
static double ct__rn_dropout_scale(double p, bool train) { return !train ? 1.0 : p >= 1 ? 0.0 : 1.0 / (1.0 - p); }
static ct_status ct__rn_check_dropout_p(double p) {
  if (p >= 0 && p <= 1) return CT_OK;
  return ct_fail(CT_ERR_INVALID, "dropout", "dropout probability has to be between 0 and 1, but got %g", p);
}
static ct_tensor *ct__k_native_dropout(ct_keyset ks, ct_tensor *input, double p, bool train, ct_generator *gen, ct_tensor **mask) {
  static const char *op = "native_dropout";
  ct_tensor *out = NULL, *m = NULL, *x = NULL;
  ct__rn_stream s;
  ct_generator *g = NULL;
  double keep = 1.0 - p, scale = ct__rn_dropout_scale(p, train);
  int64_t i;
  (void)ks;
  *mask = NULL;
  if (ct__rn_check_dropout_p(p) != CT_OK || ct__rn_floating_only(op, "native_dropout", input) != CT_OK) return NULL;
  out = ct__empty_like(op, input, (ct_dtype)input->dtype);
  m = ct__empty_like(op, input, CT_BOOL);
  if (!out || !m) goto fail;
  if (ct__is_meta(out)) goto done;
  if (!train) {
    if (ct__copy_impl(out, input) != CT_OK || ct__k_fill_(0, m, ct_bool(true)) != CT_OK) goto fail;
    goto done;
  }
  if (!(g = ct__rn_pick(op, gen, input))) goto fail;
  if (input->numel == 0) goto done;
  x = ct__copy_as(op, input, (ct_dtype)input->dtype); /* contiguous, read in logical order */
  if (!x) goto fail;
  ct__rn_reserve(g, 2 * (uint64_t)input->numel, &s);
  {
    size_t es = ct_dtype_size((ct_dtype)input->dtype);
    const char *src = (const char *)ct_data_ptr(x);
    char *dst = (char *)ct_data_ptr(out);
    bool *mk = (bool *)ct_data_ptr(m);
    for (i = 0; i < input->numel; i++) {
      mk[i] = ct__rn_u53(&s, 2 * (uint64_t)i) < keep;
      ct__store_double(dst + (size_t)i * es, (ct_dtype)input->dtype,
                       mk[i] ? ct__load_double(src + (size_t)i * es, (ct_dtype)input->dtype) * scale : 0.0);
    }
  }
  ct_release(x);
done:
  *mask = m;
  return out;
fail:
  ct_release(x);
  ct_release(out);
  ct_release(m);
  return NULL;
}
/* grad * mask * scale */
static ct_tensor *ct__k_native_dropout_backward(ct_keyset ks, ct_tensor *grad, ct_tensor *mask, double scale) {
  ct_tensor *r = NULL;
  (void)ks;
  CT_SCOPE { r = ct_keep(ct_mul_scalar(ct_mul(grad, mask), ct_float(scale))); }
  return r;
}
/* dropout (composite, as PyTorch's _dropout): identity in evaluation or for
 * p = 0, zeros for p = 1, else native_dropout's output. */
static ct_tensor *ct__k_dropout(ct_keyset ks, ct_tensor *input, double p, bool train, ct_generator *gen) {
  ct_tensor *r = NULL;
  (void)ks;
  if (ct__rn_check_dropout_p(p) != CT_OK) return NULL;
  if (!train || p == 0 || input->numel == 0) return ct_retain(input);
  CT_SCOPE {
    if (p == 1) r = ct_keep(ct_mul(input, ct_zeros_like(input)));
    else r = ct_keep(ct_native_dropout_ex(input, p, train, gen, NULL));
  }
  return r;
}

/* ---- the functional factories (not dispatched; see the note) ---- */
static ct_tensor *ct__rn_factory_empty(const char *op, int n, const int64_t *size, ct_generator *gen, ct_dtype dtype,
                                       ct_dtype dflt) {
  int64_t zero = 0;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  if (n < 0 || (n > 0 && !size)) return ct__fail_null(op, "size"), (ct_tensor *)NULL;
  return ct__empty(op, 1, &zero, dtype == CT_DTYPE_NONE ? dflt : dtype, gen ? gen->device : CT_CPU);
}
static ct_tensor *ct__rn_factory_done(ct_tensor *t, ct_status st) {
  if (st != CT_OK) {
    ct_release(t);
    return NULL;
  }
  return ct__track(t);
}
CTDEF ct_tensor *ct_rand_ex(int size_len, const int64_t *size, ct_generator *generator, ct_dtype dtype) {
  ct_tensor *t = ct__rn_factory_empty("rand", size_len, size, generator, dtype, CT_F32);
  return t ? ct__rn_factory_done(t, ct_rand_out(t, size_len, size, generator)) : NULL;
}
CTDEF ct_tensor *ct_rand(int size_len, const int64_t *size) { return ct_rand_ex(size_len, size, NULL, CT_DTYPE_NONE); }
CTDEF ct_tensor *ct_randn_ex(int size_len, const int64_t *size, ct_generator *generator, ct_dtype dtype) {
  ct_tensor *t = ct__rn_factory_empty("randn", size_len, size, generator, dtype, CT_F32);
  return t ? ct__rn_factory_done(t, ct_randn_out(t, size_len, size, generator)) : NULL;
}
CTDEF ct_tensor *ct_randn(int size_len, const int64_t *size) { return ct_randn_ex(size_len, size, NULL, CT_DTYPE_NONE); }
CTDEF ct_tensor *ct_randint_ex(int64_t low, int64_t high, int size_len, const int64_t *size, ct_generator *generator,
                               ct_dtype dtype) {
  ct_tensor *t = ct__rn_factory_empty("randint", size_len, size, generator, dtype, CT_I64);
  return t ? ct__rn_factory_done(t, ct_randint_out(t, low, high, size_len, size, generator)) : NULL;
}
CTDEF ct_tensor *ct_randint(int64_t low, int64_t high, int size_len, const int64_t *size) {
  return ct_randint_ex(low, high, size_len, size, NULL, CT_DTYPE_NONE);
}
CTDEF ct_tensor *ct_randperm_ex(int64_t n, ct_generator *generator, ct_dtype dtype) {
  ct_tensor *t = ct__rn_factory_empty("randperm", 0, NULL, generator, dtype, CT_I64);
  return t ? ct__rn_factory_done(t, ct_randperm_out(t, n, generator)) : NULL;
}
CTDEF ct_tensor *ct_randperm(int64_t n) { return ct_randperm_ex(n, NULL, CT_DTYPE_NONE); }
CTDEF ct_tensor *ct_eye_m_ex(int64_t n, int64_t m, ct_dtype dtype) {
  ct_tensor *t = ct__rn_factory_empty("eye", 0, NULL, NULL, dtype, CT_F32);
  return t ? ct__rn_factory_done(t, ct_eye_m_out(t, n, m)) : NULL;
}
CTDEF ct_tensor *ct_eye_m(int64_t n, int64_t m) { return ct_eye_m_ex(n, m, CT_DTYPE_NONE); }
CTDEF ct_tensor *ct_eye_ex(int64_t n, ct_dtype dtype) { return ct_eye_m_ex(n, n, dtype); }
CTDEF ct_tensor *ct_eye(int64_t n) { return ct_eye_m_ex(n, n, CT_DTYPE_NONE); }
CTDEF ct_tensor *ct_linspace_ex(ct_scalar start, ct_scalar end, int64_t steps, ct_dtype dtype) {
  ct_tensor *t = ct__rn_factory_empty("linspace", 0, NULL, NULL, dtype, CT_F32);
  return t ? ct__rn_factory_done(t, ct_linspace_out(t, start, end, steps)) : NULL;
}
CTDEF ct_tensor *ct_linspace(ct_scalar start, ct_scalar end, int64_t steps) { return ct_linspace_ex(start, end, steps, CT_DTYPE_NONE); }

CT_EXTERN_C_END
#endif /* CT__OPS_RANDOM_IMPL */
/* ---- ctorch/generated/functions.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__GENERATED_FUNCTIONS_IMPL)
#define CT__GENERATED_FUNCTIONS_IMPL
CT_EXTERN_C_BEGIN

/* the registered op of every schema, filled in by ct__init */
static struct {
  ct_op *add_Tensor;
  ct_op *add__Tensor;
  ct_op *add_out;
  ct_op *add_Scalar;
  ct_op *add__Scalar;
  ct_op *sub_Tensor;
  ct_op *sub__Tensor;
  ct_op *sub_out;
  ct_op *sub_Scalar;
  ct_op *sub__Scalar;
  ct_op *mul_Tensor;
  ct_op *mul__Tensor;
  ct_op *mul_out;
  ct_op *mul_Scalar;
  ct_op *mul__Scalar;
  ct_op *div_Tensor;
  ct_op *div__Tensor;
  ct_op *div_out;
  ct_op *div_Scalar;
  ct_op *div__Scalar;
  ct_op *neg;
  ct_op *neg_;
  ct_op *neg_out;
  ct_op *relu;
  ct_op *relu_;
  ct_op *threshold_backward;
  ct_op *exp;
  ct_op *exp_;
  ct_op *exp_out;
  ct_op *tanh;
  ct_op *tanh_;
  ct_op *tanh_out;
  ct_op *sigmoid;
  ct_op *sigmoid_;
  ct_op *sigmoid_out;
  ct_op *sum;
  ct_op *sum_dim_IntList;
  ct_op *sum_IntList_out;
  ct_op *mean;
  ct_op *mean_dim;
  ct_op *copy_;
  ct_op *fill__Scalar;
  ct_op *clone;
  ct_op *contiguous;
  ct_op *_to_copy;
  ct_op *to_dtype;
  ct_op *view;
  ct_op *reshape;
  ct_op *transpose_int;
  ct_op *t;
  ct_op *permute;
  ct_op *expand;
  ct_op *broadcast_to;
  ct_op *unsqueeze;
  ct_op *squeeze;
  ct_op *squeeze_dim;
  ct_op *flatten_using_ints;
  ct_op *select_int;
  ct_op *select_backward;
  ct_op *slice_Tensor;
  ct_op *slice_backward;
  ct_op *narrow;
  ct_op *as_strided;
  ct_op *alias;
  ct_op *detach;
  ct_op *dot;
  ct_op *dot_out;
  ct_op *mv;
  ct_op *mv_out;
  ct_op *mm;
  ct_op *mm_out;
  ct_op *bmm;
  ct_op *bmm_out;
  ct_op *addmm;
  ct_op *addmm_;
  ct_op *addmm_out;
  ct_op *baddbmm;
  ct_op *baddbmm_;
  ct_op *baddbmm_out;
  ct_op *outer;
  ct_op *matmul;
  ct_op *linear;
  ct_op *uniform_;
  ct_op *normal_;
  ct_op *random__from;
  ct_op *bernoulli__float;
  ct_op *bernoulli;
  ct_op *bernoulli_p;
  ct_op *rand_generator_out;
  ct_op *randn_generator_out;
  ct_op *randint_low_generator_out;
  ct_op *randperm_generator_out;
  ct_op *eye_out;
  ct_op *eye_m_out;
  ct_op *linspace_out;
  ct_op *native_dropout;
  ct_op *native_dropout_backward;
  ct_op *dropout;
} ct__op;

/* add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor */
static ct_tensor *ct__dispatch_add_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  const ct_op *op = ct__op.add_Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!) */
static ct_status ct__dispatch_add__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  const ct_op *op = ct__op.add__Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_add_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha, ct_tensor *out) {
  const ct_op *op = ct__op.add_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar , ct_tensor *))k->unboxed)(ks, self, other, alpha, out);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_scalar(alpha);
    v[3] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor */
static ct_tensor *ct__dispatch_add_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  const ct_op *op = ct__op.add_Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!) */
static ct_status ct__dispatch_add__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  const ct_op *op = ct__op.add__Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor */
static ct_tensor *ct__dispatch_sub_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  const ct_op *op = ct__op.sub_Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!) */
static ct_status ct__dispatch_sub__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  const ct_op *op = ct__op.sub__Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_sub_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha, ct_tensor *out) {
  const ct_op *op = ct__op.sub_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar , ct_tensor *))k->unboxed)(ks, self, other, alpha, out);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_scalar(alpha);
    v[3] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor */
static ct_tensor *ct__dispatch_sub_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  const ct_op *op = ct__op.sub_Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!) */
static ct_status ct__dispatch_sub__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  const ct_op *op = ct__op.sub__Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, other, alpha);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    v[2] = ct_value_scalar(alpha);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* mul.Tensor(Tensor self, Tensor other) -> Tensor */
static ct_tensor *ct__dispatch_mul_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  const ct_op *op = ct__op.mul_Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) */
static ct_status ct__dispatch_mul__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  const ct_op *op = ct__op.mul__Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_mul_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  const ct_op *op = ct__op.mul_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* mul.Scalar(Tensor self, Scalar other) -> Tensor */
static ct_tensor *ct__dispatch_mul_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  const ct_op *op = ct__op.mul_Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!) */
static ct_status ct__dispatch_mul__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  const ct_op *op = ct__op.mul__Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* div.Tensor(Tensor self, Tensor other) -> Tensor */
static ct_tensor *ct__dispatch_div_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  const ct_op *op = ct__op.div_Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) */
static ct_status ct__dispatch_div__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  const ct_op *op = ct__op.div__Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_div_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  const ct_op *op = ct__op.div_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* div.Scalar(Tensor self, Scalar other) -> Tensor */
static ct_tensor *ct__dispatch_div_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  const ct_op *op = ct__op.div_Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!) */
static ct_status ct__dispatch_div__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  const ct_op *op = ct__op.div__Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(other);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* neg(Tensor self) -> Tensor */
static ct_tensor *ct__dispatch_neg(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.neg;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* neg_(Tensor(a!) self) -> Tensor(a!) */
static ct_status ct__dispatch_neg_(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.neg_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_mut(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_neg_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  const ct_op *op = ct__op.neg_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, out);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* relu(Tensor self) -> Tensor */
static ct_tensor *ct__dispatch_relu(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.relu;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* relu_(Tensor(a!) self) -> Tensor(a!) */
static ct_status ct__dispatch_relu_(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.relu_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_mut(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor */
static ct_tensor *ct__dispatch_threshold_backward(ct_keyset ks, ct_tensor *grad_output, ct_tensor *self, ct_scalar threshold) {
  const ct_op *op = ct__op.threshold_backward;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, grad_output, self, threshold);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(grad_output);
    v[1] = ct_value_tensor(self);
    v[2] = ct_value_scalar(threshold);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* exp(Tensor self) -> Tensor */
static ct_tensor *ct__dispatch_exp(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.exp;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* exp_(Tensor(a!) self) -> Tensor(a!) */
static ct_status ct__dispatch_exp_(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.exp_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_mut(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_exp_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  const ct_op *op = ct__op.exp_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, out);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* tanh(Tensor self) -> Tensor */
static ct_tensor *ct__dispatch_tanh(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.tanh;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* tanh_(Tensor(a!) self) -> Tensor(a!) */
static ct_status ct__dispatch_tanh_(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.tanh_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_mut(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_tanh_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  const ct_op *op = ct__op.tanh_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, out);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* sigmoid(Tensor self) -> Tensor */
static ct_tensor *ct__dispatch_sigmoid(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.sigmoid;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* sigmoid_(Tensor(a!) self) -> Tensor(a!) */
static ct_status ct__dispatch_sigmoid_(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.sigmoid_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_mut(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_sigmoid_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  const ct_op *op = ct__op.sigmoid_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, out);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* sum(Tensor self, *, ScalarType? dtype=None) -> Tensor */
static ct_tensor *ct__dispatch_sum(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  const ct_op *op = ct__op.sum;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_dtype ))k->unboxed)(ks, self, dtype);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_dtype(dtype);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor */
static ct_tensor *ct__dispatch_sum_dim_IntList(ct_keyset ks, ct_tensor *self, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  const ct_op *op = ct__op.sum_dim_IntList;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , bool , ct_dtype ))k->unboxed)(ks, self, dim, keepdim, dtype);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = dim.n < 0 ? ct_value_none() : ct_value_int_list(dim.data, dim.n);
    v[2] = ct_value_bool(keepdim);
    v[3] = ct_value_dtype(dtype);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_sum_IntList_out(ct_keyset ks, ct_tensor *self, ct_int_list dim, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  const ct_op *op = ct__op.sum_IntList_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_int_list , bool , ct_dtype , ct_tensor *))k->unboxed)(ks, self, dim, keepdim, dtype, out);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(self);
    v[1] = dim.n < 0 ? ct_value_none() : ct_value_int_list(dim.data, dim.n);
    v[2] = ct_value_bool(keepdim);
    v[3] = ct_value_dtype(dtype);
    v[4] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* mean(Tensor self, *, ScalarType? dtype=None) -> Tensor */
static ct_tensor *ct__dispatch_mean(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  const ct_op *op = ct__op.mean;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_dtype ))k->unboxed)(ks, self, dtype);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_dtype(dtype);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor */
static ct_tensor *ct__dispatch_mean_dim(ct_keyset ks, ct_tensor *self, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  const ct_op *op = ct__op.mean_dim;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , bool , ct_dtype ))k->unboxed)(ks, self, dim, keepdim, dtype);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = dim.n < 0 ? ct_value_none() : ct_value_int_list(dim.data, dim.n);
    v[2] = ct_value_bool(keepdim);
    v[3] = ct_value_dtype(dtype);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!) */
static ct_status ct__dispatch_copy_(ct_keyset ks, ct_tensor *self, ct_tensor *src, bool non_blocking) {
  const ct_op *op = ct__op.copy_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, bool ))k->unboxed)(ks, self, src, non_blocking);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(src);
    v[2] = ct_value_bool(non_blocking);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!) */
static ct_status ct__dispatch_fill__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar value) {
  const ct_op *op = ct__op.fill__Scalar;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, self, value);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_scalar(value);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* clone(Tensor self) -> Tensor */
static ct_tensor *ct__dispatch_clone(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.clone;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* contiguous(Tensor(a) self) -> Tensor(a) */
static ct_tensor *ct__dispatch_contiguous(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.contiguous;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* _to_copy(Tensor self, *, ScalarType? dtype=None) -> Tensor */
static ct_tensor *ct__dispatch__to_copy(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  const ct_op *op = ct__op._to_copy;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_dtype ))k->unboxed)(ks, self, dtype);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_dtype(dtype);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* to.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a) */
static ct_tensor *ct__dispatch_to_dtype(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  const ct_op *op = ct__op.to_dtype;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_dtype ))k->unboxed)(ks, self, dtype);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_dtype(dtype);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* view(Tensor(a) self, int[] size) -> Tensor(a) */
static ct_tensor *ct__dispatch_view(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  const ct_op *op = ct__op.view;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list ))k->unboxed)(ks, self, size);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* reshape(Tensor(a) self, int[] shape) -> Tensor(a) */
static ct_tensor *ct__dispatch_reshape(ct_keyset ks, ct_tensor *self, ct_int_list shape) {
  const ct_op *op = ct__op.reshape;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list ))k->unboxed)(ks, self, shape);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = shape.n < 0 ? ct_value_none() : ct_value_int_list(shape.data, shape.n);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a) */
static ct_tensor *ct__dispatch_transpose_int(ct_keyset ks, ct_tensor *self, int64_t dim0, int64_t dim1) {
  const ct_op *op = ct__op.transpose_int;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t ))k->unboxed)(ks, self, dim0, dim1);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(dim0);
    v[2] = ct_value_int(dim1);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* t(Tensor(a) self) -> Tensor(a) */
static ct_tensor *ct__dispatch_t(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.t;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* permute(Tensor(a) self, int[] dims) -> Tensor(a) */
static ct_tensor *ct__dispatch_permute(ct_keyset ks, ct_tensor *self, ct_int_list dims) {
  const ct_op *op = ct__op.permute;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list ))k->unboxed)(ks, self, dims);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = dims.n < 0 ? ct_value_none() : ct_value_int_list(dims.data, dims.n);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* expand(Tensor(a) self, int[] size, *, bool implicit=False) -> Tensor(a) */
static ct_tensor *ct__dispatch_expand(ct_keyset ks, ct_tensor *self, ct_int_list size, bool implicit) {
  const ct_op *op = ct__op.expand;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , bool ))k->unboxed)(ks, self, size, implicit);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    v[2] = ct_value_bool(implicit);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* broadcast_to(Tensor(a) self, int[] size) -> Tensor(a) */
static ct_tensor *ct__dispatch_broadcast_to(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  const ct_op *op = ct__op.broadcast_to;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list ))k->unboxed)(ks, self, size);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* unsqueeze(Tensor(a) self, int dim) -> Tensor(a) */
static ct_tensor *ct__dispatch_unsqueeze(ct_keyset ks, ct_tensor *self, int64_t dim) {
  const ct_op *op = ct__op.unsqueeze;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t ))k->unboxed)(ks, self, dim);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(dim);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* squeeze(Tensor(a) self) -> Tensor(a) */
static ct_tensor *ct__dispatch_squeeze(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.squeeze;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* squeeze.dim(Tensor(a) self, int dim) -> Tensor(a) */
static ct_tensor *ct__dispatch_squeeze_dim(ct_keyset ks, ct_tensor *self, int64_t dim) {
  const ct_op *op = ct__op.squeeze_dim;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t ))k->unboxed)(ks, self, dim);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(dim);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a) */
static ct_tensor *ct__dispatch_flatten_using_ints(ct_keyset ks, ct_tensor *self, int64_t start_dim, int64_t end_dim) {
  const ct_op *op = ct__op.flatten_using_ints;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t ))k->unboxed)(ks, self, start_dim, end_dim);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(start_dim);
    v[2] = ct_value_int(end_dim);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* select.int(Tensor(a) self, int dim, int index) -> Tensor(a) */
static ct_tensor *ct__dispatch_select_int(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t index) {
  const ct_op *op = ct__op.select_int;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t ))k->unboxed)(ks, self, dim, index);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(dim);
    v[2] = ct_value_int(index);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* select_backward(Tensor grad_output, int[] input_sizes, int dim, int index) -> Tensor */
static ct_tensor *ct__dispatch_select_backward(ct_keyset ks, ct_tensor *grad_output, ct_int_list input_sizes, int64_t dim, int64_t index) {
  const ct_op *op = ct__op.select_backward;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , int64_t , int64_t ))k->unboxed)(ks, grad_output, input_sizes, dim, index);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(grad_output);
    v[1] = input_sizes.n < 0 ? ct_value_none() : ct_value_int_list(input_sizes.data, input_sizes.n);
    v[2] = ct_value_int(dim);
    v[3] = ct_value_int(index);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* slice.Tensor(Tensor(a) self, int dim=0, int start=0, int end=9223372036854775807, int step=1) -> Tensor(a) */
static ct_tensor *ct__dispatch_slice_Tensor(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t end, int64_t step) {
  const ct_op *op = ct__op.slice_Tensor;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t , int64_t , int64_t ))k->unboxed)(ks, self, dim, start, end, step);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(dim);
    v[2] = ct_value_int(start);
    v[3] = ct_value_int(end);
    v[4] = ct_value_int(step);
    r = ct__finish_new(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* slice_backward(Tensor grad_output, int[] input_sizes, int dim, int start, int end, int step) -> Tensor */
static ct_tensor *ct__dispatch_slice_backward(ct_keyset ks, ct_tensor *grad_output, ct_int_list input_sizes, int64_t dim, int64_t start, int64_t end, int64_t step) {
  const ct_op *op = ct__op.slice_backward;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , int64_t , int64_t , int64_t , int64_t ))k->unboxed)(ks, grad_output, input_sizes, dim, start, end, step);
  } else {
    ct_value v[6];
    v[0] = ct_value_tensor(grad_output);
    v[1] = input_sizes.n < 0 ? ct_value_none() : ct_value_int_list(input_sizes.data, input_sizes.n);
    v[2] = ct_value_int(dim);
    v[3] = ct_value_int(start);
    v[4] = ct_value_int(end);
    v[5] = ct_value_int(step);
    r = ct__finish_new(op, k, ks, v, 6);
  }
  ct__tls.depth--;
  return r;
}
/* narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a) */
static ct_tensor *ct__dispatch_narrow(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t length) {
  const ct_op *op = ct__op.narrow;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t , int64_t ))k->unboxed)(ks, self, dim, start, length);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(dim);
    v[2] = ct_value_int(start);
    v[3] = ct_value_int(length);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* as_strided(Tensor(a) self, int[] size, int[] stride, int storage_offset=0) -> Tensor(a) */
static ct_tensor *ct__dispatch_as_strided(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_int_list stride, int64_t storage_offset) {
  const ct_op *op = ct__op.as_strided;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , ct_int_list , int64_t ))k->unboxed)(ks, self, size, stride, storage_offset);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    v[2] = stride.n < 0 ? ct_value_none() : ct_value_int_list(stride.data, stride.n);
    v[3] = ct_value_int(storage_offset);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* alias(Tensor(a) self) -> Tensor(a) */
static ct_tensor *ct__dispatch_alias(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.alias;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* detach(Tensor(a) self) -> Tensor(a) */
static ct_tensor *ct__dispatch_detach(ct_keyset ks, ct_tensor *self) {
  const ct_op *op = ct__op.detach;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, self);
  } else {
    ct_value v[1];
    v[0] = ct_value_tensor(self);
    r = ct__finish_new(op, k, ks, v, 1);
  }
  ct__tls.depth--;
  return r;
}
/* dot(Tensor self, Tensor tensor) -> Tensor */
static ct_tensor *ct__dispatch_dot(ct_keyset ks, ct_tensor *self, ct_tensor *tensor) {
  const ct_op *op = ct__op.dot;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, tensor);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(tensor);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_dot_out(ct_keyset ks, ct_tensor *self, ct_tensor *tensor, ct_tensor *out) {
  const ct_op *op = ct__op.dot_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, tensor, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(tensor);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* mv(Tensor self, Tensor vec) -> Tensor */
static ct_tensor *ct__dispatch_mv(ct_keyset ks, ct_tensor *self, ct_tensor *vec) {
  const ct_op *op = ct__op.mv;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, vec);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(vec);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_mv_out(ct_keyset ks, ct_tensor *self, ct_tensor *vec, ct_tensor *out) {
  const ct_op *op = ct__op.mv_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, vec, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(vec);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* mm(Tensor self, Tensor mat2) -> Tensor */
static ct_tensor *ct__dispatch_mm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  const ct_op *op = ct__op.mm;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, mat2);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat2);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_mm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  const ct_op *op = ct__op.mm_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, mat2, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat2);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* bmm(Tensor self, Tensor mat2) -> Tensor */
static ct_tensor *ct__dispatch_bmm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  const ct_op *op = ct__op.bmm;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, mat2);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat2);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_bmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  const ct_op *op = ct__op.bmm_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, mat2, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat2);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor */
static ct_tensor *ct__dispatch_addmm(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  const ct_op *op = ct__op.addmm;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, mat1, mat2, beta, alpha);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat1);
    v[2] = ct_value_tensor(mat2);
    v[3] = ct_value_scalar(beta);
    v[4] = ct_value_scalar(alpha);
    r = ct__finish_new(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!) */
static ct_status ct__dispatch_addmm_(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  const ct_op *op = ct__op.addmm_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, mat1, mat2, beta, alpha);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat1);
    v[2] = ct_value_tensor(mat2);
    v[3] = ct_value_scalar(beta);
    v[4] = ct_value_scalar(alpha);
    r = ct__finish_mut(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_addmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  const ct_op *op = ct__op.addmm_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar , ct_tensor *))k->unboxed)(ks, self, mat1, mat2, beta, alpha, out);
  } else {
    ct_value v[6];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(mat1);
    v[2] = ct_value_tensor(mat2);
    v[3] = ct_value_scalar(beta);
    v[4] = ct_value_scalar(alpha);
    v[5] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 6);
  }
  ct__tls.depth--;
  return r;
}
/* baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor */
static ct_tensor *ct__dispatch_baddbmm(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  const ct_op *op = ct__op.baddbmm;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, batch1, batch2, beta, alpha);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(batch1);
    v[2] = ct_value_tensor(batch2);
    v[3] = ct_value_scalar(beta);
    v[4] = ct_value_scalar(alpha);
    r = ct__finish_new(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!) */
static ct_status ct__dispatch_baddbmm_(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  const ct_op *op = ct__op.baddbmm_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, self, batch1, batch2, beta, alpha);
  } else {
    ct_value v[5];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(batch1);
    v[2] = ct_value_tensor(batch2);
    v[3] = ct_value_scalar(beta);
    v[4] = ct_value_scalar(alpha);
    r = ct__finish_mut(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_baddbmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  const ct_op *op = ct__op.baddbmm_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar , ct_tensor *))k->unboxed)(ks, self, batch1, batch2, beta, alpha, out);
  } else {
    ct_value v[6];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(batch1);
    v[2] = ct_value_tensor(batch2);
    v[3] = ct_value_scalar(beta);
    v[4] = ct_value_scalar(alpha);
    v[5] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 6);
  }
  ct__tls.depth--;
  return r;
}
/* outer(Tensor self, Tensor vec2) -> Tensor */
static ct_tensor *ct__dispatch_outer(ct_keyset ks, ct_tensor *self, ct_tensor *vec2) {
  const ct_op *op = ct__op.outer;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, vec2);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(vec2);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* matmul(Tensor self, Tensor other) -> Tensor */
static ct_tensor *ct__dispatch_matmul(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  const ct_op *op = ct__op.matmul;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, self, other);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_tensor(other);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor */
static ct_tensor *ct__dispatch_linear(ct_keyset ks, ct_tensor *input, ct_tensor *weight, ct_tensor *bias) {
  const ct_op *op = ct__op.linear;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, input, weight, bias);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(input);
    v[1] = ct_value_tensor(weight);
    v[2] = ct_value_tensor(bias);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!) */
static ct_status ct__dispatch_uniform_(ct_keyset ks, ct_tensor *self, double from, double to, ct_generator *generator) {
  const ct_op *op = ct__op.uniform_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, double , double , ct_generator *))k->unboxed)(ks, self, from, to, generator);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_double(from);
    v[2] = ct_value_double(to);
    v[3] = ct_value_generator(generator);
    r = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!) */
static ct_status ct__dispatch_normal_(ct_keyset ks, ct_tensor *self, double mean, double std, ct_generator *generator) {
  const ct_op *op = ct__op.normal_;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, double , double , ct_generator *))k->unboxed)(ks, self, mean, std, generator);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_double(mean);
    v[2] = ct_value_double(std);
    v[3] = ct_value_generator(generator);
    r = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!) */
static ct_status ct__dispatch_random__from(ct_keyset ks, ct_tensor *self, int64_t from, int64_t to, ct_generator *generator) {
  const ct_op *op = ct__op.random__from;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, int64_t , int64_t , ct_generator *))k->unboxed)(ks, self, from, to, generator);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_int(from);
    v[2] = to == CT_INT_NONE ? ct_value_none() : ct_value_int(to);
    v[3] = ct_value_generator(generator);
    r = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!) */
static ct_status ct__dispatch_bernoulli__float(ct_keyset ks, ct_tensor *self, double p, ct_generator *generator) {
  const ct_op *op = ct__op.bernoulli__float;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_tensor *, double , ct_generator *))k->unboxed)(ks, self, p, generator);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_double(p);
    v[2] = ct_value_generator(generator);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* bernoulli(Tensor self, *, Generator? generator=None) -> Tensor */
static ct_tensor *ct__dispatch_bernoulli(ct_keyset ks, ct_tensor *self, ct_generator *generator) {
  const ct_op *op = ct__op.bernoulli;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_generator *))k->unboxed)(ks, self, generator);
  } else {
    ct_value v[2];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_generator(generator);
    r = ct__finish_new(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor */
static ct_tensor *ct__dispatch_bernoulli_p(ct_keyset ks, ct_tensor *self, double p, ct_generator *generator) {
  const ct_op *op = ct__op.bernoulli_p;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, double , ct_generator *))k->unboxed)(ks, self, p, generator);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(self);
    v[1] = ct_value_double(p);
    v[2] = ct_value_generator(generator);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* rand.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_rand_generator_out(ct_keyset ks, ct_int_list size, ct_generator *generator, ct_tensor *out) {
  const ct_op *op = ct__op.rand_generator_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_int_list , ct_generator *, ct_tensor *))k->unboxed)(ks, size, generator, out);
  } else {
    ct_value v[3];
    v[0] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    v[1] = ct_value_generator(generator);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* randn.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_randn_generator_out(ct_keyset ks, ct_int_list size, ct_generator *generator, ct_tensor *out) {
  const ct_op *op = ct__op.randn_generator_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_int_list , ct_generator *, ct_tensor *))k->unboxed)(ks, size, generator, out);
  } else {
    ct_value v[3];
    v[0] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    v[1] = ct_value_generator(generator);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* randint.low_generator_out(int low, int high, int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_randint_low_generator_out(ct_keyset ks, int64_t low, int64_t high, ct_int_list size, ct_generator *generator, ct_tensor *out) {
  const ct_op *op = ct__op.randint_low_generator_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, int64_t , int64_t , ct_int_list , ct_generator *, ct_tensor *))k->unboxed)(ks, low, high, size, generator, out);
  } else {
    ct_value v[5];
    v[0] = ct_value_int(low);
    v[1] = ct_value_int(high);
    v[2] = size.n < 0 ? ct_value_none() : ct_value_int_list(size.data, size.n);
    v[3] = ct_value_generator(generator);
    v[4] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 5);
  }
  ct__tls.depth--;
  return r;
}
/* randperm.generator_out(int n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_randperm_generator_out(ct_keyset ks, int64_t n, ct_generator *generator, ct_tensor *out) {
  const ct_op *op = ct__op.randperm_generator_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, int64_t , ct_generator *, ct_tensor *))k->unboxed)(ks, n, generator, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_int(n);
    v[1] = ct_value_generator(generator);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* eye.out(int n, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_eye_out(ct_keyset ks, int64_t n, ct_tensor *out) {
  const ct_op *op = ct__op.eye_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, int64_t , ct_tensor *))k->unboxed)(ks, n, out);
  } else {
    ct_value v[2];
    v[0] = ct_value_int(n);
    v[1] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 2);
  }
  ct__tls.depth--;
  return r;
}
/* eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_eye_m_out(ct_keyset ks, int64_t n, int64_t m, ct_tensor *out) {
  const ct_op *op = ct__op.eye_m_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, int64_t , int64_t , ct_tensor *))k->unboxed)(ks, n, m, out);
  } else {
    ct_value v[3];
    v[0] = ct_value_int(n);
    v[1] = ct_value_int(m);
    v[2] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!) */
static ct_status ct__dispatch_linspace_out(ct_keyset ks, ct_scalar start, ct_scalar end, int64_t steps, ct_tensor *out) {
  const ct_op *op = ct__op.linspace_out;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_status r;
  if (CT_UNLIKELY(!k)) return ct_last_error();
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_status (*)(ct_keyset, ct_scalar , ct_scalar , int64_t , ct_tensor *))k->unboxed)(ks, start, end, steps, out);
  } else {
    ct_value v[4];
    v[0] = ct_value_scalar(start);
    v[1] = ct_value_scalar(end);
    v[2] = ct_value_int(steps);
    v[3] = ct_value_tensor(out);
    r = ct__finish_mut(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}
/* native_dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> (Tensor output, Tensor mask) */
static ct_tensor *ct__dispatch_native_dropout(ct_keyset ks, ct_tensor *input, double p, bool train, ct_generator *generator, ct_tensor **mask) {
  const ct_op *op = ct__op.native_dropout;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, double , bool , ct_generator *, ct_tensor **))k->unboxed)(ks, input, p, train, generator, mask);
  } else {
    ct_value v[4];
    ct_tensor **extra[1];
    extra[0] = mask;
    v[0] = ct_value_tensor(input);
    v[1] = ct_value_double(p);
    v[2] = ct_value_bool(train);
    v[3] = ct_value_generator(generator);
    r = ct__finish_tuple(op, k, ks, v, 4, 2, extra);
  }
  ct__tls.depth--;
  return r;
}
/* native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor */
static ct_tensor *ct__dispatch_native_dropout_backward(ct_keyset ks, ct_tensor *grad_output, ct_tensor *mask, double scale) {
  const ct_op *op = ct__op.native_dropout_backward;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, double ))k->unboxed)(ks, grad_output, mask, scale);
  } else {
    ct_value v[3];
    v[0] = ct_value_tensor(grad_output);
    v[1] = ct_value_tensor(mask);
    v[2] = ct_value_double(scale);
    r = ct__finish_new(op, k, ks, v, 3);
  }
  ct__tls.depth--;
  return r;
}
/* dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> Tensor */
static ct_tensor *ct__dispatch_dropout(ct_keyset ks, ct_tensor *input, double p, bool train, ct_generator *generator) {
  const ct_op *op = ct__op.dropout;
  const ct_kernel *k = ct__kernel_for(op, &ks);
  ct_tensor *r;
  if (CT_UNLIKELY(!k)) return (ct_tensor *)NULL;
  ct__tls.depth++;
  if (CT_LIKELY(k->unboxed != NULL)) {
    r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, double , bool , ct_generator *))k->unboxed)(ks, input, p, train, generator);
  } else {
    ct_value v[4];
    v[0] = ct_value_tensor(input);
    v[1] = ct_value_double(p);
    v[2] = ct_value_bool(train);
    v[3] = ct_value_generator(generator);
    r = ct__finish_new(op, k, ks, v, 4);
  }
  ct__tls.depth--;
  return r;
}

/* ---- frontends ---- */
CTDEF ct_tensor *ct_add_ex(ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("add.Tensor", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("add.Tensor", "other"), (ct_tensor *)NULL;
  keys |= other->keys;
  return ct__track(ct__dispatch_add_Tensor(ct__call_keys(keys), self, other, alpha));
}
CTDEF ct_tensor *ct_add(ct_tensor *self, ct_tensor *other) {
  return ct_add_ex(self, other, ct_int(1));
}
CTDEF ct_status ct_add_ex_(ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("add_.Tensor", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("add_.Tensor", "other"), ct_last_error();
  keys |= other->keys;
  return ct__dispatch_add__Tensor(ct__call_keys(keys), self, other, alpha);
}
CTDEF ct_status ct_add_(ct_tensor *self, ct_tensor *other) {
  return ct_add_ex_(self, other, ct_int(1));
}
CTDEF ct_status ct_add_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("add.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("add.out", "other"), ct_last_error();
  keys |= other->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("add.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_add_out(ct__call_keys(keys), self, other, alpha, out);
}
CTDEF ct_status ct_add_out(ct_tensor *out, ct_tensor *self, ct_tensor *other) {
  return ct_add_out_ex(out, self, other, ct_int(1));
}
CTDEF ct_tensor *ct_add_scalar_ex(ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("add.Scalar", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_add_Scalar(ct__call_keys(keys), self, other, alpha));
}
CTDEF ct_tensor *ct_add_scalar(ct_tensor *self, ct_scalar other) {
  return ct_add_scalar_ex(self, other, ct_int(1));
}
CTDEF ct_status ct_add_scalar_ex_(ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("add_.Scalar", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_add__Scalar(ct__call_keys(keys), self, other, alpha);
}
CTDEF ct_status ct_add_scalar_(ct_tensor *self, ct_scalar other) {
  return ct_add_scalar_ex_(self, other, ct_int(1));
}
CTDEF ct_tensor *ct_sub_ex(ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sub.Tensor", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("sub.Tensor", "other"), (ct_tensor *)NULL;
  keys |= other->keys;
  return ct__track(ct__dispatch_sub_Tensor(ct__call_keys(keys), self, other, alpha));
}
CTDEF ct_tensor *ct_sub(ct_tensor *self, ct_tensor *other) {
  return ct_sub_ex(self, other, ct_int(1));
}
CTDEF ct_status ct_sub_ex_(ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sub_.Tensor", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("sub_.Tensor", "other"), ct_last_error();
  keys |= other->keys;
  return ct__dispatch_sub__Tensor(ct__call_keys(keys), self, other, alpha);
}
CTDEF ct_status ct_sub_(ct_tensor *self, ct_tensor *other) {
  return ct_sub_ex_(self, other, ct_int(1));
}
CTDEF ct_status ct_sub_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sub.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("sub.out", "other"), ct_last_error();
  keys |= other->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("sub.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_sub_out(ct__call_keys(keys), self, other, alpha, out);
}
CTDEF ct_status ct_sub_out(ct_tensor *out, ct_tensor *self, ct_tensor *other) {
  return ct_sub_out_ex(out, self, other, ct_int(1));
}
CTDEF ct_tensor *ct_sub_scalar_ex(ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sub.Scalar", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_sub_Scalar(ct__call_keys(keys), self, other, alpha));
}
CTDEF ct_tensor *ct_sub_scalar(ct_tensor *self, ct_scalar other) {
  return ct_sub_scalar_ex(self, other, ct_int(1));
}
CTDEF ct_status ct_sub_scalar_ex_(ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sub_.Scalar", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_sub__Scalar(ct__call_keys(keys), self, other, alpha);
}
CTDEF ct_status ct_sub_scalar_(ct_tensor *self, ct_scalar other) {
  return ct_sub_scalar_ex_(self, other, ct_int(1));
}
CTDEF ct_tensor *ct_mul(ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mul.Tensor", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("mul.Tensor", "other"), (ct_tensor *)NULL;
  keys |= other->keys;
  return ct__track(ct__dispatch_mul_Tensor(ct__call_keys(keys), self, other));
}
CTDEF ct_status ct_mul_(ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mul_.Tensor", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("mul_.Tensor", "other"), ct_last_error();
  keys |= other->keys;
  return ct__dispatch_mul__Tensor(ct__call_keys(keys), self, other);
}
CTDEF ct_status ct_mul_out(ct_tensor *out, ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mul.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("mul.out", "other"), ct_last_error();
  keys |= other->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("mul.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_mul_out(ct__call_keys(keys), self, other, out);
}
CTDEF ct_tensor *ct_mul_scalar(ct_tensor *self, ct_scalar other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mul.Scalar", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_mul_Scalar(ct__call_keys(keys), self, other));
}
CTDEF ct_status ct_mul_scalar_(ct_tensor *self, ct_scalar other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mul_.Scalar", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_mul__Scalar(ct__call_keys(keys), self, other);
}
CTDEF ct_tensor *ct_div(ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("div.Tensor", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("div.Tensor", "other"), (ct_tensor *)NULL;
  keys |= other->keys;
  return ct__track(ct__dispatch_div_Tensor(ct__call_keys(keys), self, other));
}
CTDEF ct_status ct_div_(ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("div_.Tensor", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("div_.Tensor", "other"), ct_last_error();
  keys |= other->keys;
  return ct__dispatch_div__Tensor(ct__call_keys(keys), self, other);
}
CTDEF ct_status ct_div_out(ct_tensor *out, ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("div.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("div.out", "other"), ct_last_error();
  keys |= other->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("div.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_div_out(ct__call_keys(keys), self, other, out);
}
CTDEF ct_tensor *ct_div_scalar(ct_tensor *self, ct_scalar other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("div.Scalar", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_div_Scalar(ct__call_keys(keys), self, other));
}
CTDEF ct_status ct_div_scalar_(ct_tensor *self, ct_scalar other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("div_.Scalar", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_div__Scalar(ct__call_keys(keys), self, other);
}
CTDEF ct_tensor *ct_neg(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("neg", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_neg(ct__call_keys(keys), self));
}
CTDEF ct_status ct_neg_(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("neg_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_neg_(ct__call_keys(keys), self);
}
CTDEF ct_status ct_neg_out(ct_tensor *out, ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("neg.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("neg.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_neg_out(ct__call_keys(keys), self, out);
}
CTDEF ct_tensor *ct_relu(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("relu", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_relu(ct__call_keys(keys), self));
}
CTDEF ct_status ct_relu_(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("relu_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_relu_(ct__call_keys(keys), self);
}
CTDEF ct_tensor *ct_threshold_backward(ct_tensor *grad_output, ct_tensor *self, ct_scalar threshold) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!grad_output)) return ct__fail_null("threshold_backward", "grad_output"), (ct_tensor *)NULL;
  keys |= grad_output->keys;
  if (CT_UNLIKELY(!self)) return ct__fail_null("threshold_backward", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_threshold_backward(ct__call_keys(keys), grad_output, self, threshold));
}
CTDEF ct_tensor *ct_exp(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("exp", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_exp(ct__call_keys(keys), self));
}
CTDEF ct_status ct_exp_(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("exp_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_exp_(ct__call_keys(keys), self);
}
CTDEF ct_status ct_exp_out(ct_tensor *out, ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("exp.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("exp.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_exp_out(ct__call_keys(keys), self, out);
}
CTDEF ct_tensor *ct_tanh(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("tanh", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_tanh(ct__call_keys(keys), self));
}
CTDEF ct_status ct_tanh_(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("tanh_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_tanh_(ct__call_keys(keys), self);
}
CTDEF ct_status ct_tanh_out(ct_tensor *out, ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("tanh.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("tanh.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_tanh_out(ct__call_keys(keys), self, out);
}
CTDEF ct_tensor *ct_sigmoid(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sigmoid", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_sigmoid(ct__call_keys(keys), self));
}
CTDEF ct_status ct_sigmoid_(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sigmoid_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_sigmoid_(ct__call_keys(keys), self);
}
CTDEF ct_status ct_sigmoid_out(ct_tensor *out, ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sigmoid.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("sigmoid.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_sigmoid_out(ct__call_keys(keys), self, out);
}
CTDEF ct_tensor *ct_sum_ex(ct_tensor *self, ct_dtype dtype) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sum", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_sum(ct__call_keys(keys), self, dtype));
}
CTDEF ct_tensor *ct_sum(ct_tensor *self) {
  return ct_sum_ex(self, CT_DTYPE_NONE);
}
CTDEF ct_tensor *ct_sum_dim_ex(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim, ct_dtype dtype) {
  ct_int_list dim_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sum.dim_IntList", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(dim_len > 0 && !dim)) return ct__fail_null("sum.dim_IntList", "dim"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(dim_len < 0))
    return ct_fail(CT_ERR_INVALID, "sum.dim_IntList", "dim: negative length %d", dim_len), (ct_tensor *)NULL;
  dim_l.data = dim;
  dim_l.n = dim ? dim_len : -1;
  return ct__track(ct__dispatch_sum_dim_IntList(ct__call_keys(keys), self, dim_l, keepdim, dtype));
}
CTDEF ct_tensor *ct_sum_dim(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim) {
  return ct_sum_dim_ex(self, dim_len, dim, keepdim, CT_DTYPE_NONE);
}
CTDEF ct_status ct_sum_out_ex(ct_tensor *out, ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim, ct_dtype dtype) {
  ct_int_list dim_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("sum.IntList_out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(dim_len > 0 && !dim)) return ct__fail_null("sum.IntList_out", "dim"), ct_last_error();
  if (CT_UNLIKELY(dim_len < 0))
    return ct_fail(CT_ERR_INVALID, "sum.IntList_out", "dim: negative length %d", dim_len), ct_last_error();
  dim_l.data = dim;
  dim_l.n = dim ? dim_len : -1;
  if (CT_UNLIKELY(!out)) return ct__fail_null("sum.IntList_out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_sum_IntList_out(ct__call_keys(keys), self, dim_l, keepdim, dtype, out);
}
CTDEF ct_status ct_sum_out(ct_tensor *out, ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim) {
  return ct_sum_out_ex(out, self, dim_len, dim, keepdim, CT_DTYPE_NONE);
}
CTDEF ct_tensor *ct_mean_ex(ct_tensor *self, ct_dtype dtype) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mean", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_mean(ct__call_keys(keys), self, dtype));
}
CTDEF ct_tensor *ct_mean(ct_tensor *self) {
  return ct_mean_ex(self, CT_DTYPE_NONE);
}
CTDEF ct_tensor *ct_mean_dim_ex(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim, ct_dtype dtype) {
  ct_int_list dim_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mean.dim", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(dim_len > 0 && !dim)) return ct__fail_null("mean.dim", "dim"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(dim_len < 0))
    return ct_fail(CT_ERR_INVALID, "mean.dim", "dim: negative length %d", dim_len), (ct_tensor *)NULL;
  dim_l.data = dim;
  dim_l.n = dim ? dim_len : -1;
  return ct__track(ct__dispatch_mean_dim(ct__call_keys(keys), self, dim_l, keepdim, dtype));
}
CTDEF ct_tensor *ct_mean_dim(ct_tensor *self, int dim_len, const int64_t *dim, bool keepdim) {
  return ct_mean_dim_ex(self, dim_len, dim, keepdim, CT_DTYPE_NONE);
}
CTDEF ct_status ct_copy_ex_(ct_tensor *self, ct_tensor *src, bool non_blocking) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("copy_", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!src)) return ct__fail_null("copy_", "src"), ct_last_error();
  keys |= src->keys;
  return ct__dispatch_copy_(ct__call_keys(keys), self, src, non_blocking);
}
CTDEF ct_status ct_copy_(ct_tensor *self, ct_tensor *src) {
  return ct_copy_ex_(self, src, false);
}
CTDEF ct_status ct_fill_(ct_tensor *self, ct_scalar value) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("fill_.Scalar", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_fill__Scalar(ct__call_keys(keys), self, value);
}
CTDEF ct_tensor *ct_clone(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("clone", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_clone(ct__call_keys(keys), self));
}
CTDEF ct_tensor *ct_contiguous(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("contiguous", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_contiguous(ct__call_keys(keys), self));
}
CTDEF ct_tensor *ct_to_copy_ex(ct_tensor *self, ct_dtype dtype) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("_to_copy", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch__to_copy(ct__call_keys(keys), self, dtype));
}
CTDEF ct_tensor *ct_to_copy(ct_tensor *self) {
  return ct_to_copy_ex(self, CT_DTYPE_NONE);
}
CTDEF ct_tensor *ct_to_dtype(ct_tensor *self, ct_dtype dtype) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("to.dtype", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_to_dtype(ct__call_keys(keys), self, dtype));
}
CTDEF ct_tensor *ct_view(ct_tensor *self, int size_len, const int64_t *size) {
  ct_int_list size_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("view", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("view", "size"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "view", "size: negative length %d", size_len), (ct_tensor *)NULL;
  size_l.data = size;
  size_l.n = size_len;
  return ct__track(ct__dispatch_view(ct__call_keys(keys), self, size_l));
}
CTDEF ct_tensor *ct_reshape(ct_tensor *self, int shape_len, const int64_t *shape) {
  ct_int_list shape_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("reshape", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(shape_len > 0 && !shape)) return ct__fail_null("reshape", "shape"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(shape_len < 0))
    return ct_fail(CT_ERR_INVALID, "reshape", "shape: negative length %d", shape_len), (ct_tensor *)NULL;
  shape_l.data = shape;
  shape_l.n = shape_len;
  return ct__track(ct__dispatch_reshape(ct__call_keys(keys), self, shape_l));
}
CTDEF ct_tensor *ct_transpose(ct_tensor *self, int64_t dim0, int64_t dim1) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("transpose.int", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_transpose_int(ct__call_keys(keys), self, dim0, dim1));
}
CTDEF ct_tensor *ct_t(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("t", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_t(ct__call_keys(keys), self));
}
CTDEF ct_tensor *ct_permute(ct_tensor *self, int dims_len, const int64_t *dims) {
  ct_int_list dims_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("permute", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(dims_len > 0 && !dims)) return ct__fail_null("permute", "dims"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(dims_len < 0))
    return ct_fail(CT_ERR_INVALID, "permute", "dims: negative length %d", dims_len), (ct_tensor *)NULL;
  dims_l.data = dims;
  dims_l.n = dims_len;
  return ct__track(ct__dispatch_permute(ct__call_keys(keys), self, dims_l));
}
CTDEF ct_tensor *ct_expand_ex(ct_tensor *self, int size_len, const int64_t *size, bool implicit) {
  ct_int_list size_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("expand", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("expand", "size"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "expand", "size: negative length %d", size_len), (ct_tensor *)NULL;
  size_l.data = size;
  size_l.n = size_len;
  return ct__track(ct__dispatch_expand(ct__call_keys(keys), self, size_l, implicit));
}
CTDEF ct_tensor *ct_expand(ct_tensor *self, int size_len, const int64_t *size) {
  return ct_expand_ex(self, size_len, size, false);
}
CTDEF ct_tensor *ct_broadcast_to(ct_tensor *self, int size_len, const int64_t *size) {
  ct_int_list size_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("broadcast_to", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("broadcast_to", "size"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "broadcast_to", "size: negative length %d", size_len), (ct_tensor *)NULL;
  size_l.data = size;
  size_l.n = size_len;
  return ct__track(ct__dispatch_broadcast_to(ct__call_keys(keys), self, size_l));
}
CTDEF ct_tensor *ct_unsqueeze(ct_tensor *self, int64_t dim) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("unsqueeze", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_unsqueeze(ct__call_keys(keys), self, dim));
}
CTDEF ct_tensor *ct_squeeze(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("squeeze", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_squeeze(ct__call_keys(keys), self));
}
CTDEF ct_tensor *ct_squeeze_dim(ct_tensor *self, int64_t dim) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("squeeze.dim", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_squeeze_dim(ct__call_keys(keys), self, dim));
}
CTDEF ct_tensor *ct_flatten(ct_tensor *self, int64_t start_dim, int64_t end_dim) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("flatten.using_ints", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_flatten_using_ints(ct__call_keys(keys), self, start_dim, end_dim));
}
CTDEF ct_tensor *ct_select(ct_tensor *self, int64_t dim, int64_t index) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("select.int", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_select_int(ct__call_keys(keys), self, dim, index));
}
CTDEF ct_tensor *ct_select_backward(ct_tensor *grad_output, int input_sizes_len, const int64_t *input_sizes, int64_t dim, int64_t index) {
  ct_int_list input_sizes_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!grad_output)) return ct__fail_null("select_backward", "grad_output"), (ct_tensor *)NULL;
  keys |= grad_output->keys;
  if (CT_UNLIKELY(input_sizes_len > 0 && !input_sizes)) return ct__fail_null("select_backward", "input_sizes"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(input_sizes_len < 0))
    return ct_fail(CT_ERR_INVALID, "select_backward", "input_sizes: negative length %d", input_sizes_len), (ct_tensor *)NULL;
  input_sizes_l.data = input_sizes;
  input_sizes_l.n = input_sizes_len;
  return ct__track(ct__dispatch_select_backward(ct__call_keys(keys), grad_output, input_sizes_l, dim, index));
}
CTDEF ct_tensor *ct_slice(ct_tensor *self, int64_t dim, int64_t start, int64_t end, int64_t step) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("slice.Tensor", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_slice_Tensor(ct__call_keys(keys), self, dim, start, end, step));
}
CTDEF ct_tensor *ct_slice_backward(ct_tensor *grad_output, int input_sizes_len, const int64_t *input_sizes, int64_t dim, int64_t start, int64_t end, int64_t step) {
  ct_int_list input_sizes_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!grad_output)) return ct__fail_null("slice_backward", "grad_output"), (ct_tensor *)NULL;
  keys |= grad_output->keys;
  if (CT_UNLIKELY(input_sizes_len > 0 && !input_sizes)) return ct__fail_null("slice_backward", "input_sizes"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(input_sizes_len < 0))
    return ct_fail(CT_ERR_INVALID, "slice_backward", "input_sizes: negative length %d", input_sizes_len), (ct_tensor *)NULL;
  input_sizes_l.data = input_sizes;
  input_sizes_l.n = input_sizes_len;
  return ct__track(ct__dispatch_slice_backward(ct__call_keys(keys), grad_output, input_sizes_l, dim, start, end, step));
}
CTDEF ct_tensor *ct_narrow(ct_tensor *self, int64_t dim, int64_t start, int64_t length) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("narrow", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_narrow(ct__call_keys(keys), self, dim, start, length));
}
CTDEF ct_tensor *ct_as_strided(ct_tensor *self, int size_len, const int64_t *size, int stride_len, const int64_t *stride, int64_t storage_offset) {
  ct_int_list size_l;
  ct_int_list stride_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("as_strided", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("as_strided", "size"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "as_strided", "size: negative length %d", size_len), (ct_tensor *)NULL;
  size_l.data = size;
  size_l.n = size_len;
  if (CT_UNLIKELY(stride_len > 0 && !stride)) return ct__fail_null("as_strided", "stride"), (ct_tensor *)NULL;
  if (CT_UNLIKELY(stride_len < 0))
    return ct_fail(CT_ERR_INVALID, "as_strided", "stride: negative length %d", stride_len), (ct_tensor *)NULL;
  stride_l.data = stride;
  stride_l.n = stride_len;
  return ct__track(ct__dispatch_as_strided(ct__call_keys(keys), self, size_l, stride_l, storage_offset));
}
CTDEF ct_tensor *ct_alias(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("alias", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_alias(ct__call_keys(keys), self));
}
CTDEF ct_tensor *ct_detach(ct_tensor *self) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("detach", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_detach(ct__call_keys(keys), self));
}
CTDEF ct_tensor *ct_dot(ct_tensor *self, ct_tensor *tensor) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("dot", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!tensor)) return ct__fail_null("dot", "tensor"), (ct_tensor *)NULL;
  keys |= tensor->keys;
  return ct__track(ct__dispatch_dot(ct__call_keys(keys), self, tensor));
}
CTDEF ct_status ct_dot_out(ct_tensor *out, ct_tensor *self, ct_tensor *tensor) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("dot.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!tensor)) return ct__fail_null("dot.out", "tensor"), ct_last_error();
  keys |= tensor->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("dot.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_dot_out(ct__call_keys(keys), self, tensor, out);
}
CTDEF ct_tensor *ct_mv(ct_tensor *self, ct_tensor *vec) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mv", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!vec)) return ct__fail_null("mv", "vec"), (ct_tensor *)NULL;
  keys |= vec->keys;
  return ct__track(ct__dispatch_mv(ct__call_keys(keys), self, vec));
}
CTDEF ct_status ct_mv_out(ct_tensor *out, ct_tensor *self, ct_tensor *vec) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mv.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!vec)) return ct__fail_null("mv.out", "vec"), ct_last_error();
  keys |= vec->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("mv.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_mv_out(ct__call_keys(keys), self, vec, out);
}
CTDEF ct_tensor *ct_mm(ct_tensor *self, ct_tensor *mat2) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mm", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("mm", "mat2"), (ct_tensor *)NULL;
  keys |= mat2->keys;
  return ct__track(ct__dispatch_mm(ct__call_keys(keys), self, mat2));
}
CTDEF ct_status ct_mm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat2) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("mm.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("mm.out", "mat2"), ct_last_error();
  keys |= mat2->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("mm.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_mm_out(ct__call_keys(keys), self, mat2, out);
}
CTDEF ct_tensor *ct_bmm(ct_tensor *self, ct_tensor *mat2) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("bmm", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("bmm", "mat2"), (ct_tensor *)NULL;
  keys |= mat2->keys;
  return ct__track(ct__dispatch_bmm(ct__call_keys(keys), self, mat2));
}
CTDEF ct_status ct_bmm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat2) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("bmm.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("bmm.out", "mat2"), ct_last_error();
  keys |= mat2->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("bmm.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_bmm_out(ct__call_keys(keys), self, mat2, out);
}
CTDEF ct_tensor *ct_addmm_ex(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("addmm", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!mat1)) return ct__fail_null("addmm", "mat1"), (ct_tensor *)NULL;
  keys |= mat1->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("addmm", "mat2"), (ct_tensor *)NULL;
  keys |= mat2->keys;
  return ct__track(ct__dispatch_addmm(ct__call_keys(keys), self, mat1, mat2, beta, alpha));
}
CTDEF ct_tensor *ct_addmm(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2) {
  return ct_addmm_ex(self, mat1, mat2, ct_int(1), ct_int(1));
}
CTDEF ct_status ct_addmm_ex_(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("addmm_", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!mat1)) return ct__fail_null("addmm_", "mat1"), ct_last_error();
  keys |= mat1->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("addmm_", "mat2"), ct_last_error();
  keys |= mat2->keys;
  return ct__dispatch_addmm_(ct__call_keys(keys), self, mat1, mat2, beta, alpha);
}
CTDEF ct_status ct_addmm_(ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2) {
  return ct_addmm_ex_(self, mat1, mat2, ct_int(1), ct_int(1));
}
CTDEF ct_status ct_addmm_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("addmm.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!mat1)) return ct__fail_null("addmm.out", "mat1"), ct_last_error();
  keys |= mat1->keys;
  if (CT_UNLIKELY(!mat2)) return ct__fail_null("addmm.out", "mat2"), ct_last_error();
  keys |= mat2->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("addmm.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_addmm_out(ct__call_keys(keys), self, mat1, mat2, beta, alpha, out);
}
CTDEF ct_status ct_addmm_out(ct_tensor *out, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2) {
  return ct_addmm_out_ex(out, self, mat1, mat2, ct_int(1), ct_int(1));
}
CTDEF ct_tensor *ct_baddbmm_ex(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("baddbmm", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!batch1)) return ct__fail_null("baddbmm", "batch1"), (ct_tensor *)NULL;
  keys |= batch1->keys;
  if (CT_UNLIKELY(!batch2)) return ct__fail_null("baddbmm", "batch2"), (ct_tensor *)NULL;
  keys |= batch2->keys;
  return ct__track(ct__dispatch_baddbmm(ct__call_keys(keys), self, batch1, batch2, beta, alpha));
}
CTDEF ct_tensor *ct_baddbmm(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2) {
  return ct_baddbmm_ex(self, batch1, batch2, ct_int(1), ct_int(1));
}
CTDEF ct_status ct_baddbmm_ex_(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("baddbmm_", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!batch1)) return ct__fail_null("baddbmm_", "batch1"), ct_last_error();
  keys |= batch1->keys;
  if (CT_UNLIKELY(!batch2)) return ct__fail_null("baddbmm_", "batch2"), ct_last_error();
  keys |= batch2->keys;
  return ct__dispatch_baddbmm_(ct__call_keys(keys), self, batch1, batch2, beta, alpha);
}
CTDEF ct_status ct_baddbmm_(ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2) {
  return ct_baddbmm_ex_(self, batch1, batch2, ct_int(1), ct_int(1));
}
CTDEF ct_status ct_baddbmm_out_ex(ct_tensor *out, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("baddbmm.out", "self"), ct_last_error();
  keys |= self->keys;
  if (CT_UNLIKELY(!batch1)) return ct__fail_null("baddbmm.out", "batch1"), ct_last_error();
  keys |= batch1->keys;
  if (CT_UNLIKELY(!batch2)) return ct__fail_null("baddbmm.out", "batch2"), ct_last_error();
  keys |= batch2->keys;
  if (CT_UNLIKELY(!out)) return ct__fail_null("baddbmm.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_baddbmm_out(ct__call_keys(keys), self, batch1, batch2, beta, alpha, out);
}
CTDEF ct_status ct_baddbmm_out(ct_tensor *out, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2) {
  return ct_baddbmm_out_ex(out, self, batch1, batch2, ct_int(1), ct_int(1));
}
CTDEF ct_tensor *ct_outer(ct_tensor *self, ct_tensor *vec2) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("outer", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!vec2)) return ct__fail_null("outer", "vec2"), (ct_tensor *)NULL;
  keys |= vec2->keys;
  return ct__track(ct__dispatch_outer(ct__call_keys(keys), self, vec2));
}
CTDEF ct_tensor *ct_matmul(ct_tensor *self, ct_tensor *other) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("matmul", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  if (CT_UNLIKELY(!other)) return ct__fail_null("matmul", "other"), (ct_tensor *)NULL;
  keys |= other->keys;
  return ct__track(ct__dispatch_matmul(ct__call_keys(keys), self, other));
}
CTDEF ct_tensor *ct_linear(ct_tensor *input, ct_tensor *weight, ct_tensor *bias) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!input)) return ct__fail_null("linear", "input"), (ct_tensor *)NULL;
  keys |= input->keys;
  if (CT_UNLIKELY(!weight)) return ct__fail_null("linear", "weight"), (ct_tensor *)NULL;
  keys |= weight->keys;
  if (bias) keys |= bias->keys;
  return ct__track(ct__dispatch_linear(ct__call_keys(keys), input, weight, bias));
}
CTDEF ct_status ct_uniform_ex_(ct_tensor *self, double from, double to, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("uniform_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_uniform_(ct__call_keys(keys), self, from, to, generator);
}
CTDEF ct_status ct_uniform_(ct_tensor *self, double from, double to) {
  return ct_uniform_ex_(self, from, to, NULL);
}
CTDEF ct_status ct_normal_ex_(ct_tensor *self, double mean, double std, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("normal_", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_normal_(ct__call_keys(keys), self, mean, std, generator);
}
CTDEF ct_status ct_normal_(ct_tensor *self, double mean, double std) {
  return ct_normal_ex_(self, mean, std, NULL);
}
CTDEF ct_status ct_random_ex_(ct_tensor *self, int64_t from, int64_t to, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("random_.from", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_random__from(ct__call_keys(keys), self, from, to, generator);
}
CTDEF ct_status ct_random_(ct_tensor *self, int64_t from, int64_t to) {
  return ct_random_ex_(self, from, to, NULL);
}
CTDEF ct_status ct_bernoulli_float_ex_(ct_tensor *self, double p, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("bernoulli_.float", "self"), ct_last_error();
  keys |= self->keys;
  return ct__dispatch_bernoulli__float(ct__call_keys(keys), self, p, generator);
}
CTDEF ct_status ct_bernoulli_float_(ct_tensor *self, double p) {
  return ct_bernoulli_float_ex_(self, p, NULL);
}
CTDEF ct_tensor *ct_bernoulli_ex(ct_tensor *self, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("bernoulli", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_bernoulli(ct__call_keys(keys), self, generator));
}
CTDEF ct_tensor *ct_bernoulli(ct_tensor *self) {
  return ct_bernoulli_ex(self, NULL);
}
CTDEF ct_tensor *ct_bernoulli_p_ex(ct_tensor *self, double p, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!self)) return ct__fail_null("bernoulli.p", "self"), (ct_tensor *)NULL;
  keys |= self->keys;
  return ct__track(ct__dispatch_bernoulli_p(ct__call_keys(keys), self, p, generator));
}
CTDEF ct_tensor *ct_bernoulli_p(ct_tensor *self, double p) {
  return ct_bernoulli_p_ex(self, p, NULL);
}
CTDEF ct_status ct_rand_out(ct_tensor *out, int size_len, const int64_t *size, ct_generator *generator) {
  ct_int_list size_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("rand.generator_out", "size"), ct_last_error();
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "rand.generator_out", "size: negative length %d", size_len), ct_last_error();
  size_l.data = size;
  size_l.n = size_len;
  if (CT_UNLIKELY(!out)) return ct__fail_null("rand.generator_out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_rand_generator_out(ct__call_keys(keys), size_l, generator, out);
}
CTDEF ct_status ct_randn_out(ct_tensor *out, int size_len, const int64_t *size, ct_generator *generator) {
  ct_int_list size_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("randn.generator_out", "size"), ct_last_error();
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "randn.generator_out", "size: negative length %d", size_len), ct_last_error();
  size_l.data = size;
  size_l.n = size_len;
  if (CT_UNLIKELY(!out)) return ct__fail_null("randn.generator_out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_randn_generator_out(ct__call_keys(keys), size_l, generator, out);
}
CTDEF ct_status ct_randint_out(ct_tensor *out, int64_t low, int64_t high, int size_len, const int64_t *size, ct_generator *generator) {
  ct_int_list size_l;
  ct_keyset keys = 0;
  if (CT_UNLIKELY(size_len > 0 && !size)) return ct__fail_null("randint.low_generator_out", "size"), ct_last_error();
  if (CT_UNLIKELY(size_len < 0))
    return ct_fail(CT_ERR_INVALID, "randint.low_generator_out", "size: negative length %d", size_len), ct_last_error();
  size_l.data = size;
  size_l.n = size_len;
  if (CT_UNLIKELY(!out)) return ct__fail_null("randint.low_generator_out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_randint_low_generator_out(ct__call_keys(keys), low, high, size_l, generator, out);
}
CTDEF ct_status ct_randperm_out(ct_tensor *out, int64_t n, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!out)) return ct__fail_null("randperm.generator_out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_randperm_generator_out(ct__call_keys(keys), n, generator, out);
}
CTDEF ct_status ct_eye_out(ct_tensor *out, int64_t n) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!out)) return ct__fail_null("eye.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_eye_out(ct__call_keys(keys), n, out);
}
CTDEF ct_status ct_eye_m_out(ct_tensor *out, int64_t n, int64_t m) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!out)) return ct__fail_null("eye.m_out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_eye_m_out(ct__call_keys(keys), n, m, out);
}
CTDEF ct_status ct_linspace_out(ct_tensor *out, ct_scalar start, ct_scalar end, int64_t steps) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!out)) return ct__fail_null("linspace.out", "out"), ct_last_error();
  keys |= out->keys;
  return ct__dispatch_linspace_out(ct__call_keys(keys), start, end, steps, out);
}
CTDEF ct_tensor *ct_native_dropout_ex(ct_tensor *input, double p, bool train, ct_generator *generator, ct_tensor **mask) {
  ct_keyset keys = 0;
  ct_tensor *ct__r, *ct__x[1] = {NULL};
  if (mask) *mask = NULL;
  if (CT_UNLIKELY(!input)) return ct__fail_null("native_dropout", "input"), (ct_tensor *)NULL;
  keys |= input->keys;
  ct__r = ct__dispatch_native_dropout(ct__call_keys(keys), input, p, train, generator, &ct__x[0]);
  if (!ct__r) {
    ct_release(ct__x[0]);
    return NULL;
  }
  if (mask) *mask = ct__track(ct__x[0]);
  else ct_release(ct__x[0]);
  return ct__track(ct__r);
}
CTDEF ct_tensor *ct_native_dropout(ct_tensor *input, double p, bool train, ct_tensor **mask) {
  return ct_native_dropout_ex(input, p, train, NULL, mask);
}
CTDEF ct_tensor *ct_native_dropout_backward(ct_tensor *grad_output, ct_tensor *mask, double scale) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!grad_output)) return ct__fail_null("native_dropout_backward", "grad_output"), (ct_tensor *)NULL;
  keys |= grad_output->keys;
  if (CT_UNLIKELY(!mask)) return ct__fail_null("native_dropout_backward", "mask"), (ct_tensor *)NULL;
  keys |= mask->keys;
  return ct__track(ct__dispatch_native_dropout_backward(ct__call_keys(keys), grad_output, mask, scale));
}
CTDEF ct_tensor *ct_dropout_ex(ct_tensor *input, double p, bool train, ct_generator *generator) {
  ct_keyset keys = 0;
  if (CT_UNLIKELY(!input)) return ct__fail_null("dropout", "input"), (ct_tensor *)NULL;
  keys |= input->keys;
  return ct__track(ct__dispatch_dropout(ct__call_keys(keys), input, p, train, generator));
}
CTDEF ct_tensor *ct_dropout(ct_tensor *input, double p, bool train) {
  return ct_dropout_ex(input, p, train, NULL);
}

CT_EXTERN_C_END
#endif /* CT__GENERATED_FUNCTIONS_IMPL */
/* ---- ctorch/generated/autograd_functions.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__GENERATED_AUTOGRAD_IMPL)
#define CT__GENERATED_AUTOGRAD_IMPL
CT_EXTERN_C_BEGIN

/* ---- add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor ---- */
typedef struct ct__node_add_Tensor {
  ct_node base;
  ct_scalar alpha;
} ct__node_add_Tensor;

static ct_status ct__backward_add_Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_add_Tensor *n = (ct__node_add_Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_scalar alpha = n->alpha;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(grad, alpha);
  return CT_OK;
}
static const ct_node_kind ct__kind_add_Tensor = {"AddBackward0", ct__backward_add_Tensor, NULL};

static ct_tensor *ct__autograd_add_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct__node_add_Tensor *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    n = (ct__node_add_Tensor *)ct__node_new(&ct__kind_add_Tensor, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_add_Tensor(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!) ---- */
typedef struct ct__node_add__Tensor {
  ct_node base;
  ct_scalar alpha;
} ct__node_add__Tensor;

static ct_status ct__backward_add__Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_add__Tensor *n = (ct__node_add__Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_scalar alpha = n->alpha;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(grad, alpha);
  return CT_OK;
}
static const ct_node_kind ct__kind_add__Tensor = {"AddBackward0", ct__backward_add__Tensor, NULL};

static ct_status ct__autograd_add__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct__node_add__Tensor *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    if ((r = ct__check_inplace("add_.Tensor", self)) != CT_OK) return r;
    n = (ct__node_add__Tensor *)ct__node_new(&ct__kind_add__Tensor, sizeof *n, 2, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_add__Tensor(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_add_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other) || ct__needs_grad(out))) return ct__out_not_differentiable("add.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_add_out(ks & CT__BELOW_AUTOGRAD, self, other, alpha, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor ---- */
typedef struct ct__node_add_Scalar {
  ct_node base;
} ct__node_add_Scalar;

static ct_status ct__backward_add_Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_add_Scalar *n = (ct__node_add_Scalar *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_add_Scalar = {"AddBackward0", ct__backward_add_Scalar, NULL};

static ct_tensor *ct__autograd_add_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct__node_add_Scalar *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_add_Scalar *)ct__node_new(&ct__kind_add_Scalar, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_add_Scalar(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!) ---- */
typedef struct ct__node_add__Scalar {
  ct_node base;
} ct__node_add__Scalar;

static ct_status ct__backward_add__Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_add__Scalar *n = (ct__node_add__Scalar *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_add__Scalar = {"AddBackward0", ct__backward_add__Scalar, NULL};

static ct_status ct__autograd_add__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct__node_add__Scalar *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("add_.Scalar", self)) != CT_OK) return r;
    n = (ct__node_add__Scalar *)ct__node_new(&ct__kind_add__Scalar, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_add__Scalar(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor ---- */
typedef struct ct__node_sub_Tensor {
  ct_node base;
  ct_scalar alpha;
} ct__node_sub_Tensor;

static ct_status ct__backward_sub_Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sub_Tensor *n = (ct__node_sub_Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_scalar alpha = n->alpha;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(grad, ct__neg_scalar(alpha));
  return CT_OK;
}
static const ct_node_kind ct__kind_sub_Tensor = {"SubBackward0", ct__backward_sub_Tensor, NULL};

static ct_tensor *ct__autograd_sub_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct__node_sub_Tensor *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    n = (ct__node_sub_Tensor *)ct__node_new(&ct__kind_sub_Tensor, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sub_Tensor(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!) ---- */
typedef struct ct__node_sub__Tensor {
  ct_node base;
  ct_scalar alpha;
} ct__node_sub__Tensor;

static ct_status ct__backward_sub__Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sub__Tensor *n = (ct__node_sub__Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_scalar alpha = n->alpha;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(grad, ct__neg_scalar(alpha));
  return CT_OK;
}
static const ct_node_kind ct__kind_sub__Tensor = {"SubBackward0", ct__backward_sub__Tensor, NULL};

static ct_status ct__autograd_sub__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha) {
  ct__node_sub__Tensor *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    if ((r = ct__check_inplace("sub_.Tensor", self)) != CT_OK) return r;
    n = (ct__node_sub__Tensor *)ct__node_new(&ct__kind_sub__Tensor, sizeof *n, 2, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sub__Tensor(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_sub_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_scalar alpha, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other) || ct__needs_grad(out))) return ct__out_not_differentiable("sub.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sub_out(ks & CT__BELOW_AUTOGRAD, self, other, alpha, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor ---- */
typedef struct ct__node_sub_Scalar {
  ct_node base;
} ct__node_sub_Scalar;

static ct_status ct__backward_sub_Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sub_Scalar *n = (ct__node_sub_Scalar *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_sub_Scalar = {"SubBackward0", ct__backward_sub_Scalar, NULL};

static ct_tensor *ct__autograd_sub_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct__node_sub_Scalar *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_sub_Scalar *)ct__node_new(&ct__kind_sub_Scalar, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sub_Scalar(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!) ---- */
typedef struct ct__node_sub__Scalar {
  ct_node base;
} ct__node_sub__Scalar;

static ct_status ct__backward_sub__Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sub__Scalar *n = (ct__node_sub__Scalar *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_sub__Scalar = {"SubBackward0", ct__backward_sub__Scalar, NULL};

static ct_status ct__autograd_sub__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other, ct_scalar alpha) {
  ct__node_sub__Scalar *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("sub_.Scalar", self)) != CT_OK) return r;
    n = (ct__node_sub__Scalar *)ct__node_new(&ct__kind_sub__Scalar, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sub__Scalar(ks & CT__BELOW_AUTOGRAD, self, other, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- mul.Tensor(Tensor self, Tensor other) -> Tensor ---- */
typedef struct ct__node_mul_Tensor {
  ct_node base;
  ct__saved self;
  ct__saved other;
} ct__node_mul_Tensor;

static void ct__release_mul_Tensor(ct_node *node) {
  ct__node_mul_Tensor *n = (ct__node_mul_Tensor *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->other);
}
static ct_status ct__backward_mul_Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_mul_Tensor *n = (ct__node_mul_Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *other = ct__unpack(&n->other, node, "other");
  if (!self || !other) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul(grad, other);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_mul(grad, self);
  return CT_OK;
}
static const ct_node_kind ct__kind_mul_Tensor = {"MulBackward0", ct__backward_mul_Tensor, ct__release_mul_Tensor};

static ct_tensor *ct__autograd_mul_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  ct__node_mul_Tensor *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    n = (ct__node_mul_Tensor *)ct__node_new(&ct__kind_mul_Tensor, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    ct__save(&n->self, self);
    ct__save(&n->other, other);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mul_Tensor(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) ---- */
typedef struct ct__node_mul__Tensor {
  ct_node base;
  ct__saved self;
  ct__saved other;
} ct__node_mul__Tensor;

static void ct__release_mul__Tensor(ct_node *node) {
  ct__node_mul__Tensor *n = (ct__node_mul__Tensor *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->other);
}
static ct_status ct__backward_mul__Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_mul__Tensor *n = (ct__node_mul__Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *other = ct__unpack(&n->other, node, "other");
  if (!self || !other) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul(grad, other);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_mul(grad, self);
  return CT_OK;
}
static const ct_node_kind ct__kind_mul__Tensor = {"MulBackward0", ct__backward_mul__Tensor, ct__release_mul__Tensor};

static ct_status ct__autograd_mul__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  ct__node_mul__Tensor *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    if ((r = ct__check_inplace("mul_.Tensor", self)) != CT_OK) return r;
    n = (ct__node_mul__Tensor *)ct__node_new(&ct__kind_mul__Tensor, sizeof *n, 2, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    if (ct__save_clone(&n->self, self) != CT_OK) return ct__node_release(&n->base), ct_last_error();
    ct__save(&n->other, other);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mul__Tensor(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_mul_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other) || ct__needs_grad(out))) return ct__out_not_differentiable("mul.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mul_out(ks & CT__BELOW_AUTOGRAD, self, other, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- mul.Scalar(Tensor self, Scalar other) -> Tensor ---- */
typedef struct ct__node_mul_Scalar {
  ct_node base;
  ct_scalar other;
} ct__node_mul_Scalar;

static ct_status ct__backward_mul_Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_mul_Scalar *n = (ct__node_mul_Scalar *)node;
  ct_tensor *grad = grads[0];
  ct_scalar other = n->other;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul_scalar(grad, other);
  return CT_OK;
}
static const ct_node_kind ct__kind_mul_Scalar = {"MulBackward0", ct__backward_mul_Scalar, NULL};

static ct_tensor *ct__autograd_mul_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  ct__node_mul_Scalar *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_mul_Scalar *)ct__node_new(&ct__kind_mul_Scalar, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    n->other = other;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mul_Scalar(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!) ---- */
typedef struct ct__node_mul__Scalar {
  ct_node base;
  ct_scalar other;
} ct__node_mul__Scalar;

static ct_status ct__backward_mul__Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_mul__Scalar *n = (ct__node_mul__Scalar *)node;
  ct_tensor *grad = grads[0];
  ct_scalar other = n->other;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul_scalar(grad, other);
  return CT_OK;
}
static const ct_node_kind ct__kind_mul__Scalar = {"MulBackward0", ct__backward_mul__Scalar, NULL};

static ct_status ct__autograd_mul__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  ct__node_mul__Scalar *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("mul_.Scalar", self)) != CT_OK) return r;
    n = (ct__node_mul__Scalar *)ct__node_new(&ct__kind_mul__Scalar, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    n->other = other;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mul__Scalar(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- div.Tensor(Tensor self, Tensor other) -> Tensor ---- */
typedef struct ct__node_div_Tensor {
  ct_node base;
  ct__saved self;
  ct__saved other;
} ct__node_div_Tensor;

static void ct__release_div_Tensor(ct_node *node) {
  ct__node_div_Tensor *n = (ct__node_div_Tensor *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->other);
}
static ct_status ct__backward_div_Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_div_Tensor *n = (ct__node_div_Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *other = ct__unpack(&n->other, node, "other");
  if (!self || !other) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_div(grad, other);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__div_other_backward(grad, self, other);
  return CT_OK;
}
static const ct_node_kind ct__kind_div_Tensor = {"DivBackward0", ct__backward_div_Tensor, ct__release_div_Tensor};

static ct_tensor *ct__autograd_div_Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  ct__node_div_Tensor *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    n = (ct__node_div_Tensor *)ct__node_new(&ct__kind_div_Tensor, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    ct__save(&n->self, self);
    ct__save(&n->other, other);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_div_Tensor(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!) ---- */
typedef struct ct__node_div__Tensor {
  ct_node base;
  ct__saved self;
  ct__saved other;
} ct__node_div__Tensor;

static void ct__release_div__Tensor(ct_node *node) {
  ct__node_div__Tensor *n = (ct__node_div__Tensor *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->other);
}
static ct_status ct__backward_div__Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_div__Tensor *n = (ct__node_div__Tensor *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *other = ct__unpack(&n->other, node, "other");
  if (!self || !other) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_div(grad, other);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__div_other_backward(grad, self, other);
  return CT_OK;
}
static const ct_node_kind ct__kind_div__Tensor = {"DivBackward0", ct__backward_div__Tensor, ct__release_div__Tensor};

static ct_status ct__autograd_div__Tensor(ct_keyset ks, ct_tensor *self, ct_tensor *other) {
  ct__node_div__Tensor *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other))) {
    if ((r = ct__check_inplace("div_.Tensor", self)) != CT_OK) return r;
    n = (ct__node_div__Tensor *)ct__node_new(&ct__kind_div__Tensor, sizeof *n, 2, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, other);
    if (ct__save_clone(&n->self, self) != CT_OK) return ct__node_release(&n->base), ct_last_error();
    ct__save(&n->other, other);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_div__Tensor(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_div_out(ct_keyset ks, ct_tensor *self, ct_tensor *other, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(other) || ct__needs_grad(out))) return ct__out_not_differentiable("div.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_div_out(ks & CT__BELOW_AUTOGRAD, self, other, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- div.Scalar(Tensor self, Scalar other) -> Tensor ---- */
typedef struct ct__node_div_Scalar {
  ct_node base;
  ct_scalar other;
} ct__node_div_Scalar;

static ct_status ct__backward_div_Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_div_Scalar *n = (ct__node_div_Scalar *)node;
  ct_tensor *grad = grads[0];
  ct_scalar other = n->other;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_div_scalar(grad, other);
  return CT_OK;
}
static const ct_node_kind ct__kind_div_Scalar = {"DivBackward0", ct__backward_div_Scalar, NULL};

static ct_tensor *ct__autograd_div_Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  ct__node_div_Scalar *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_div_Scalar *)ct__node_new(&ct__kind_div_Scalar, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    n->other = other;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_div_Scalar(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!) ---- */
typedef struct ct__node_div__Scalar {
  ct_node base;
  ct_scalar other;
} ct__node_div__Scalar;

static ct_status ct__backward_div__Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_div__Scalar *n = (ct__node_div__Scalar *)node;
  ct_tensor *grad = grads[0];
  ct_scalar other = n->other;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_div_scalar(grad, other);
  return CT_OK;
}
static const ct_node_kind ct__kind_div__Scalar = {"DivBackward0", ct__backward_div__Scalar, NULL};

static ct_status ct__autograd_div__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar other) {
  ct__node_div__Scalar *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("div_.Scalar", self)) != CT_OK) return r;
    n = (ct__node_div__Scalar *)ct__node_new(&ct__kind_div__Scalar, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    n->other = other;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_div__Scalar(ks & CT__BELOW_AUTOGRAD, self, other);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- neg(Tensor self) -> Tensor ---- */
typedef struct ct__node_neg {
  ct_node base;
} ct__node_neg;

static ct_status ct__backward_neg(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_neg *n = (ct__node_neg *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_neg(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_neg = {"NegBackward0", ct__backward_neg, NULL};

static ct_tensor *ct__autograd_neg(ct_keyset ks, ct_tensor *self) {
  ct__node_neg *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_neg *)ct__node_new(&ct__kind_neg, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_neg(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- neg_(Tensor(a!) self) -> Tensor(a!) ---- */
typedef struct ct__node_neg_ {
  ct_node base;
} ct__node_neg_;

static ct_status ct__backward_neg_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_neg_ *n = (ct__node_neg_ *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_neg(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_neg_ = {"NegBackward0", ct__backward_neg_, NULL};

static ct_status ct__autograd_neg_(ct_keyset ks, ct_tensor *self) {
  ct__node_neg_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("neg_", self)) != CT_OK) return r;
    n = (ct__node_neg_ *)ct__node_new(&ct__kind_neg_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_neg_(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_neg_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("neg.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_neg_out(ks & CT__BELOW_AUTOGRAD, self, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- relu(Tensor self) -> Tensor ---- */
typedef struct ct__node_relu {
  ct_node base;
  ct__saved result;
} ct__node_relu;

static void ct__release_relu(ct_node *node) {
  ct__node_relu *n = (ct__node_relu *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_relu(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_relu *n = (ct__node_relu *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_threshold_backward(grad, result, ct_int(0));
  return CT_OK;
}
static const ct_node_kind ct__kind_relu = {"ReluBackward0", ct__backward_relu, ct__release_relu};

static ct_tensor *ct__autograd_relu(ct_keyset ks, ct_tensor *self) {
  ct__node_relu *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_relu *)ct__node_new(&ct__kind_relu, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_relu(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && ct__save_output(&n->result, r) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- relu_(Tensor(a!) self) -> Tensor(a!) ---- */
typedef struct ct__node_relu_ {
  ct_node base;
  ct__saved result;
} ct__node_relu_;

static void ct__release_relu_(ct_node *node) {
  ct__node_relu_ *n = (ct__node_relu_ *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_relu_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_relu_ *n = (ct__node_relu_ *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_threshold_backward(grad, result, ct_int(0));
  return CT_OK;
}
static const ct_node_kind ct__kind_relu_ = {"ReluBackward0", ct__backward_relu_, ct__release_relu_};

static ct_status ct__autograd_relu_(ct_keyset ks, ct_tensor *self) {
  ct__node_relu_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("relu_", self)) != CT_OK) return r;
    n = (ct__node_relu_ *)ct__node_new(&ct__kind_relu_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_relu_(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    if (r == CT_OK) r = ct__save_output(&n->result, self);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor ---- */
typedef struct ct__node_threshold_backward {
  ct_node base;
  ct__saved self;
  ct_scalar threshold;
} ct__node_threshold_backward;

static void ct__release_threshold_backward(ct_node *node) {
  ct__node_threshold_backward *n = (ct__node_threshold_backward *)node;
  ct__saved_reset(&n->self);
}
static ct_status ct__backward_threshold_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_threshold_backward *n = (ct__node_threshold_backward *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_scalar threshold = n->threshold;
  if (!self) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_threshold_backward(grad, self, threshold);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_threshold_backward = {"ThresholdBackwardBackward0", ct__backward_threshold_backward, ct__release_threshold_backward};

static ct_tensor *ct__autograd_threshold_backward(ct_keyset ks, ct_tensor *grad_output, ct_tensor *self, ct_scalar threshold) {
  ct__node_threshold_backward *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(grad_output) || ct__needs_grad(self))) {
    n = (ct__node_threshold_backward *)ct__node_new(&ct__kind_threshold_backward, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, grad_output);
    ct__node_set_input(&n->base, 1, self);
    ct__save(&n->self, self);
    n->threshold = threshold;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_threshold_backward(ks & CT__BELOW_AUTOGRAD, grad_output, self, threshold);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- exp(Tensor self) -> Tensor ---- */
typedef struct ct__node_exp {
  ct_node base;
  ct__saved result;
} ct__node_exp;

static void ct__release_exp(ct_node *node) {
  ct__node_exp *n = (ct__node_exp *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_exp(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_exp *n = (ct__node_exp *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul(grad, result);
  return CT_OK;
}
static const ct_node_kind ct__kind_exp = {"ExpBackward0", ct__backward_exp, ct__release_exp};

static ct_tensor *ct__autograd_exp(ct_keyset ks, ct_tensor *self) {
  ct__node_exp *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_exp *)ct__node_new(&ct__kind_exp, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_exp(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && ct__save_output(&n->result, r) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- exp_(Tensor(a!) self) -> Tensor(a!) ---- */
typedef struct ct__node_exp_ {
  ct_node base;
  ct__saved result;
} ct__node_exp_;

static void ct__release_exp_(ct_node *node) {
  ct__node_exp_ *n = (ct__node_exp_ *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_exp_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_exp_ *n = (ct__node_exp_ *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul(grad, result);
  return CT_OK;
}
static const ct_node_kind ct__kind_exp_ = {"ExpBackward0", ct__backward_exp_, ct__release_exp_};

static ct_status ct__autograd_exp_(ct_keyset ks, ct_tensor *self) {
  ct__node_exp_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("exp_", self)) != CT_OK) return r;
    n = (ct__node_exp_ *)ct__node_new(&ct__kind_exp_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_exp_(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    if (r == CT_OK) r = ct__save_output(&n->result, self);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_exp_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("exp.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_exp_out(ks & CT__BELOW_AUTOGRAD, self, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- tanh(Tensor self) -> Tensor ---- */
typedef struct ct__node_tanh {
  ct_node base;
  ct__saved result;
} ct__node_tanh;

static void ct__release_tanh(ct_node *node) {
  ct__node_tanh *n = (ct__node_tanh *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_tanh(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_tanh *n = (ct__node_tanh *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__tanh_backward(grad, result);
  return CT_OK;
}
static const ct_node_kind ct__kind_tanh = {"TanhBackward0", ct__backward_tanh, ct__release_tanh};

static ct_tensor *ct__autograd_tanh(ct_keyset ks, ct_tensor *self) {
  ct__node_tanh *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_tanh *)ct__node_new(&ct__kind_tanh, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_tanh(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && ct__save_output(&n->result, r) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- tanh_(Tensor(a!) self) -> Tensor(a!) ---- */
typedef struct ct__node_tanh_ {
  ct_node base;
  ct__saved result;
} ct__node_tanh_;

static void ct__release_tanh_(ct_node *node) {
  ct__node_tanh_ *n = (ct__node_tanh_ *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_tanh_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_tanh_ *n = (ct__node_tanh_ *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__tanh_backward(grad, result);
  return CT_OK;
}
static const ct_node_kind ct__kind_tanh_ = {"TanhBackward0", ct__backward_tanh_, ct__release_tanh_};

static ct_status ct__autograd_tanh_(ct_keyset ks, ct_tensor *self) {
  ct__node_tanh_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("tanh_", self)) != CT_OK) return r;
    n = (ct__node_tanh_ *)ct__node_new(&ct__kind_tanh_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_tanh_(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    if (r == CT_OK) r = ct__save_output(&n->result, self);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_tanh_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("tanh.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_tanh_out(ks & CT__BELOW_AUTOGRAD, self, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- sigmoid(Tensor self) -> Tensor ---- */
typedef struct ct__node_sigmoid {
  ct_node base;
  ct__saved result;
} ct__node_sigmoid;

static void ct__release_sigmoid(ct_node *node) {
  ct__node_sigmoid *n = (ct__node_sigmoid *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_sigmoid(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sigmoid *n = (ct__node_sigmoid *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__sigmoid_backward(grad, result);
  return CT_OK;
}
static const ct_node_kind ct__kind_sigmoid = {"SigmoidBackward0", ct__backward_sigmoid, ct__release_sigmoid};

static ct_tensor *ct__autograd_sigmoid(ct_keyset ks, ct_tensor *self) {
  ct__node_sigmoid *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_sigmoid *)ct__node_new(&ct__kind_sigmoid, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sigmoid(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && ct__save_output(&n->result, r) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sigmoid_(Tensor(a!) self) -> Tensor(a!) ---- */
typedef struct ct__node_sigmoid_ {
  ct_node base;
  ct__saved result;
} ct__node_sigmoid_;

static void ct__release_sigmoid_(ct_node *node) {
  ct__node_sigmoid_ *n = (ct__node_sigmoid_ *)node;
  ct__saved_reset(&n->result);
}
static ct_status ct__backward_sigmoid_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sigmoid_ *n = (ct__node_sigmoid_ *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *result = ct__unpack(&n->result, node, "result");
  if (!result) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__sigmoid_backward(grad, result);
  return CT_OK;
}
static const ct_node_kind ct__kind_sigmoid_ = {"SigmoidBackward0", ct__backward_sigmoid_, ct__release_sigmoid_};

static ct_status ct__autograd_sigmoid_(ct_keyset ks, ct_tensor *self) {
  ct__node_sigmoid_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("sigmoid_", self)) != CT_OK) return r;
    n = (ct__node_sigmoid_ *)ct__node_new(&ct__kind_sigmoid_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sigmoid_(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    if (r == CT_OK) r = ct__save_output(&n->result, self);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_sigmoid_out(ct_keyset ks, ct_tensor *self, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("sigmoid.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sigmoid_out(ks & CT__BELOW_AUTOGRAD, self, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- sum(Tensor self, *, ScalarType? dtype=None) -> Tensor ---- */
typedef struct ct__node_sum {
  ct_node base;
  ct__shape self_sizes;
} ct__node_sum;

static ct_status ct__backward_sum(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sum *n = (ct__node_sum *)node;
  ct_tensor *grad = grads[0];
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_expand(grad, CT__SHAPE(self_sizes));
  return CT_OK;
}
static const ct_node_kind ct__kind_sum = {"SumBackward0", ct__backward_sum, NULL};

static ct_tensor *ct__autograd_sum(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  ct__node_sum *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_sum *)ct__node_new(&ct__kind_sum, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sum(ks & CT__BELOW_AUTOGRAD, self, dtype);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor ---- */
typedef struct ct__node_sum_dim_IntList {
  ct_node base;
  ct__shape self_sizes;
  ct__saved_ints dim;
  bool keepdim;
} ct__node_sum_dim_IntList;

static ct_status ct__backward_sum_dim_IntList(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_sum_dim_IntList *n = (ct__node_sum_dim_IntList *)node;
  ct_tensor *grad = grads[0];
  ct_int_list dim = ct__ints(&n->dim);
  bool keepdim = n->keepdim;
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__sum_backward(grad, &self_sizes, dim, keepdim);
  return CT_OK;
}
static const ct_node_kind ct__kind_sum_dim_IntList = {"SumBackward0", ct__backward_sum_dim_IntList, NULL};

static ct_tensor *ct__autograd_sum_dim_IntList(ct_keyset ks, ct_tensor *self, ct_int_list dim, bool keepdim, ct_dtype dtype) {
  ct__node_sum_dim_IntList *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_sum_dim_IntList *)ct__node_new(&ct__kind_sum_dim_IntList, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
    if (ct__save_ints(&n->dim, dim, "sum.dim_IntList") != CT_OK) return ct__node_release(&n->base), (ct_tensor *)NULL;
    n->keepdim = keepdim;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sum_dim_IntList(ks & CT__BELOW_AUTOGRAD, self, dim, keepdim, dtype);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_sum_IntList_out(ct_keyset ks, ct_tensor *self, ct_int_list dim, bool keepdim, ct_dtype dtype, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(out))) return ct__out_not_differentiable("sum.IntList_out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_sum_IntList_out(ks & CT__BELOW_AUTOGRAD, self, dim, keepdim, dtype, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!) ---- */
typedef struct ct__node_copy_ {
  ct_node base;
} ct__node_copy_;

static ct_status ct__backward_copy_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_copy_ *n = (ct__node_copy_ *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_copy_ = {"CopyBackward0", ct__backward_copy_, NULL};

static ct_status ct__autograd_copy_(ct_keyset ks, ct_tensor *self, ct_tensor *src, bool non_blocking) {
  ct__node_copy_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(src))) {
    if ((r = ct__check_inplace("copy_", self)) != CT_OK) return r;
    n = (ct__node_copy_ *)ct__node_new(&ct__kind_copy_, sizeof *n, 2, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, src);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_copy_(ks & CT__BELOW_AUTOGRAD, self, src, non_blocking);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!) ---- */
typedef struct ct__node_fill__Scalar {
  ct_node base;
} ct__node_fill__Scalar;

static ct_status ct__backward_fill__Scalar(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_fill__Scalar *n = (ct__node_fill__Scalar *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_fill__Scalar = {"FillBackward0", ct__backward_fill__Scalar, NULL};

static ct_status ct__autograd_fill__Scalar(ct_keyset ks, ct_tensor *self, ct_scalar value) {
  ct__node_fill__Scalar *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("fill_.Scalar", self)) != CT_OK) return r;
    n = (ct__node_fill__Scalar *)ct__node_new(&ct__kind_fill__Scalar, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_fill__Scalar(ks & CT__BELOW_AUTOGRAD, self, value);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- clone(Tensor self) -> Tensor ---- */
typedef struct ct__node_clone {
  ct_node base;
} ct__node_clone;

static ct_status ct__backward_clone(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_clone *n = (ct__node_clone *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_clone = {"CloneBackward0", ct__backward_clone, NULL};

static ct_tensor *ct__autograd_clone(ct_keyset ks, ct_tensor *self) {
  ct__node_clone *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_clone *)ct__node_new(&ct__kind_clone, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_clone(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- _to_copy(Tensor self, *, ScalarType? dtype=None) -> Tensor ---- */
typedef struct ct__node__to_copy {
  ct_node base;
  ct_dtype self_dtype;
} ct__node__to_copy;

static ct_status ct__backward__to_copy(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node__to_copy *n = (ct__node__to_copy *)node;
  ct_tensor *grad = grads[0];
  const ct_dtype self_dtype = n->self_dtype;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_to_dtype(grad, self_dtype);
  return CT_OK;
}
static const ct_node_kind ct__kind__to_copy = {"toCopyBackward0", ct__backward__to_copy, NULL};

static ct_tensor *ct__autograd__to_copy(ct_keyset ks, ct_tensor *self, ct_dtype dtype) {
  ct__node__to_copy *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node__to_copy *)ct__node_new(&ct__kind__to_copy, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    n->self_dtype = (ct_dtype)self->dtype;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch__to_copy(ks & CT__BELOW_AUTOGRAD, self, dtype);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- view(Tensor(a) self, int[] size) -> Tensor(a) ---- */
typedef struct ct__node_view {
  ct_node base;
  ct__shape self_sizes;
} ct__node_view;

static ct_status ct__backward_view(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_view *n = (ct__node_view *)node;
  ct_tensor *grad = grads[0];
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_reshape(grad, CT__SHAPE(self_sizes));
  return CT_OK;
}
static const ct_node_kind ct__kind_view = {"ViewBackward0", ct__backward_view, NULL};

static ct_tensor *ct__autograd_view(ct_keyset ks, ct_tensor *self, ct_int_list size) {
  ct__node_view *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_view *)ct__node_new(&ct__kind_view, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_view(ks & CT__BELOW_AUTOGRAD, self, size);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a) ---- */
typedef struct ct__node_transpose_int {
  ct_node base;
  int64_t dim0;
  int64_t dim1;
} ct__node_transpose_int;

static ct_status ct__backward_transpose_int(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_transpose_int *n = (ct__node_transpose_int *)node;
  ct_tensor *grad = grads[0];
  int64_t dim0 = n->dim0;
  int64_t dim1 = n->dim1;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_transpose(grad, dim0, dim1);
  return CT_OK;
}
static const ct_node_kind ct__kind_transpose_int = {"TransposeBackward0", ct__backward_transpose_int, NULL};

static ct_tensor *ct__autograd_transpose_int(ct_keyset ks, ct_tensor *self, int64_t dim0, int64_t dim1) {
  ct__node_transpose_int *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_transpose_int *)ct__node_new(&ct__kind_transpose_int, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    n->dim0 = dim0;
    n->dim1 = dim1;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_transpose_int(ks & CT__BELOW_AUTOGRAD, self, dim0, dim1);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- t(Tensor(a) self) -> Tensor(a) ---- */
typedef struct ct__node_t {
  ct_node base;
} ct__node_t;

static ct_status ct__backward_t(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_t *n = (ct__node_t *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_t(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_t = {"TBackward0", ct__backward_t, NULL};

static ct_tensor *ct__autograd_t(ct_keyset ks, ct_tensor *self) {
  ct__node_t *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_t *)ct__node_new(&ct__kind_t, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_t(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- permute(Tensor(a) self, int[] dims) -> Tensor(a) ---- */
typedef struct ct__node_permute {
  ct_node base;
  ct__saved_ints dims;
} ct__node_permute;

static ct_status ct__backward_permute(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_permute *n = (ct__node_permute *)node;
  ct_tensor *grad = grads[0];
  ct_int_list dims = ct__ints(&n->dims);
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__permute_backward(grad, dims);
  return CT_OK;
}
static const ct_node_kind ct__kind_permute = {"PermuteBackward0", ct__backward_permute, NULL};

static ct_tensor *ct__autograd_permute(ct_keyset ks, ct_tensor *self, ct_int_list dims) {
  ct__node_permute *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_permute *)ct__node_new(&ct__kind_permute, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    if (ct__save_ints(&n->dims, dims, "permute") != CT_OK) return ct__node_release(&n->base), (ct_tensor *)NULL;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_permute(ks & CT__BELOW_AUTOGRAD, self, dims);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- expand(Tensor(a) self, int[] size, *, bool implicit=False) -> Tensor(a) ---- */
typedef struct ct__node_expand {
  ct_node base;
  ct__shape self_sizes;
} ct__node_expand;

static ct_status ct__backward_expand(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_expand *n = (ct__node_expand *)node;
  ct_tensor *grad = grads[0];
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__sum_to(grad, &self_sizes);
  return CT_OK;
}
static const ct_node_kind ct__kind_expand = {"ExpandBackward0", ct__backward_expand, NULL};

static ct_tensor *ct__autograd_expand(ct_keyset ks, ct_tensor *self, ct_int_list size, bool implicit) {
  ct__node_expand *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_expand *)ct__node_new(&ct__kind_expand, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_expand(ks & CT__BELOW_AUTOGRAD, self, size, implicit);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- unsqueeze(Tensor(a) self, int dim) -> Tensor(a) ---- */
typedef struct ct__node_unsqueeze {
  ct_node base;
  int64_t dim;
} ct__node_unsqueeze;

static ct_status ct__backward_unsqueeze(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_unsqueeze *n = (ct__node_unsqueeze *)node;
  ct_tensor *grad = grads[0];
  int64_t dim = n->dim;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_squeeze_dim(grad, dim);
  return CT_OK;
}
static const ct_node_kind ct__kind_unsqueeze = {"UnsqueezeBackward0", ct__backward_unsqueeze, NULL};

static ct_tensor *ct__autograd_unsqueeze(ct_keyset ks, ct_tensor *self, int64_t dim) {
  ct__node_unsqueeze *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_unsqueeze *)ct__node_new(&ct__kind_unsqueeze, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    n->dim = dim;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_unsqueeze(ks & CT__BELOW_AUTOGRAD, self, dim);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- squeeze(Tensor(a) self) -> Tensor(a) ---- */
typedef struct ct__node_squeeze {
  ct_node base;
  ct__shape self_sizes;
} ct__node_squeeze;

static ct_status ct__backward_squeeze(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_squeeze *n = (ct__node_squeeze *)node;
  ct_tensor *grad = grads[0];
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_reshape(grad, CT__SHAPE(self_sizes));
  return CT_OK;
}
static const ct_node_kind ct__kind_squeeze = {"SqueezeBackward0", ct__backward_squeeze, NULL};

static ct_tensor *ct__autograd_squeeze(ct_keyset ks, ct_tensor *self) {
  ct__node_squeeze *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_squeeze *)ct__node_new(&ct__kind_squeeze, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_squeeze(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- squeeze.dim(Tensor(a) self, int dim) -> Tensor(a) ---- */
typedef struct ct__node_squeeze_dim {
  ct_node base;
  ct__shape self_sizes;
} ct__node_squeeze_dim;

static ct_status ct__backward_squeeze_dim(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_squeeze_dim *n = (ct__node_squeeze_dim *)node;
  ct_tensor *grad = grads[0];
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_reshape(grad, CT__SHAPE(self_sizes));
  return CT_OK;
}
static const ct_node_kind ct__kind_squeeze_dim = {"SqueezeBackward0", ct__backward_squeeze_dim, NULL};

static ct_tensor *ct__autograd_squeeze_dim(ct_keyset ks, ct_tensor *self, int64_t dim) {
  ct__node_squeeze_dim *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_squeeze_dim *)ct__node_new(&ct__kind_squeeze_dim, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_squeeze_dim(ks & CT__BELOW_AUTOGRAD, self, dim);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- select.int(Tensor(a) self, int dim, int index) -> Tensor(a) ---- */
typedef struct ct__node_select_int {
  ct_node base;
  ct__shape self_sizes;
  int64_t dim;
  int64_t index;
} ct__node_select_int;

static ct_status ct__backward_select_int(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_select_int *n = (ct__node_select_int *)node;
  ct_tensor *grad = grads[0];
  int64_t dim = n->dim;
  int64_t index = n->index;
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_select_backward(grad, CT__SHAPE(self_sizes), dim, index);
  return CT_OK;
}
static const ct_node_kind ct__kind_select_int = {"SelectBackward0", ct__backward_select_int, NULL};

static ct_tensor *ct__autograd_select_int(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t index) {
  ct__node_select_int *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_select_int *)ct__node_new(&ct__kind_select_int, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
    n->dim = dim;
    n->index = index;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_select_int(ks & CT__BELOW_AUTOGRAD, self, dim, index);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- select_backward(Tensor grad_output, int[] input_sizes, int dim, int index) -> Tensor ---- */
typedef struct ct__node_select_backward {
  ct_node base;
  int64_t dim;
  int64_t index;
} ct__node_select_backward;

static ct_status ct__backward_select_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_select_backward *n = (ct__node_select_backward *)node;
  ct_tensor *grad = grads[0];
  int64_t dim = n->dim;
  int64_t index = n->index;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_select(grad, dim, index);
  return CT_OK;
}
static const ct_node_kind ct__kind_select_backward = {"SelectBackwardBackward0", ct__backward_select_backward, NULL};

static ct_tensor *ct__autograd_select_backward(ct_keyset ks, ct_tensor *grad_output, ct_int_list input_sizes, int64_t dim, int64_t index) {
  ct__node_select_backward *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(grad_output))) {
    n = (ct__node_select_backward *)ct__node_new(&ct__kind_select_backward, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, grad_output);
    n->dim = dim;
    n->index = index;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_select_backward(ks & CT__BELOW_AUTOGRAD, grad_output, input_sizes, dim, index);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- slice.Tensor(Tensor(a) self, int dim=0, int start=0, int end=9223372036854775807, int step=1) -> Tensor(a) ---- */
typedef struct ct__node_slice_Tensor {
  ct_node base;
  ct__shape self_sizes;
  int64_t dim;
  int64_t start;
  int64_t end;
  int64_t step;
} ct__node_slice_Tensor;

static ct_status ct__backward_slice_Tensor(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_slice_Tensor *n = (ct__node_slice_Tensor *)node;
  ct_tensor *grad = grads[0];
  int64_t dim = n->dim;
  int64_t start = n->start;
  int64_t end = n->end;
  int64_t step = n->step;
  const ct__shape self_sizes = n->self_sizes;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_slice_backward(grad, CT__SHAPE(self_sizes), dim, start, end, step);
  return CT_OK;
}
static const ct_node_kind ct__kind_slice_Tensor = {"SliceBackward0", ct__backward_slice_Tensor, NULL};

static ct_tensor *ct__autograd_slice_Tensor(ct_keyset ks, ct_tensor *self, int64_t dim, int64_t start, int64_t end, int64_t step) {
  ct__node_slice_Tensor *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_slice_Tensor *)ct__node_new(&ct__kind_slice_Tensor, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__save_shape(&n->self_sizes, self);
    n->dim = dim;
    n->start = start;
    n->end = end;
    n->step = step;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_slice_Tensor(ks & CT__BELOW_AUTOGRAD, self, dim, start, end, step);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- slice_backward(Tensor grad_output, int[] input_sizes, int dim, int start, int end, int step) -> Tensor ---- */
typedef struct ct__node_slice_backward {
  ct_node base;
  int64_t dim;
  int64_t start;
  int64_t end;
  int64_t step;
} ct__node_slice_backward;

static ct_status ct__backward_slice_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_slice_backward *n = (ct__node_slice_backward *)node;
  ct_tensor *grad = grads[0];
  int64_t dim = n->dim;
  int64_t start = n->start;
  int64_t end = n->end;
  int64_t step = n->step;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_slice(grad, dim, start, end, step);
  return CT_OK;
}
static const ct_node_kind ct__kind_slice_backward = {"SliceBackwardBackward0", ct__backward_slice_backward, NULL};

static ct_tensor *ct__autograd_slice_backward(ct_keyset ks, ct_tensor *grad_output, ct_int_list input_sizes, int64_t dim, int64_t start, int64_t end, int64_t step) {
  ct__node_slice_backward *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(grad_output))) {
    n = (ct__node_slice_backward *)ct__node_new(&ct__kind_slice_backward, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, grad_output);
    n->dim = dim;
    n->start = start;
    n->end = end;
    n->step = step;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_slice_backward(ks & CT__BELOW_AUTOGRAD, grad_output, input_sizes, dim, start, end, step);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- as_strided(Tensor(a) self, int[] size, int[] stride, int storage_offset=0) -> Tensor(a) ---- */
typedef struct ct__node_as_strided {
  ct_node base;
} ct__node_as_strided;

static ct_status ct__backward_as_strided(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_as_strided *n = (ct__node_as_strided *)node;
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0))
    return ct_fail(CT_ERR_UNSUPPORTED, "as_strided", "the derivative for 'self' is not implemented");
  return CT_OK;
}
static const ct_node_kind ct__kind_as_strided = {"AsStridedBackward0", ct__backward_as_strided, NULL};

static ct_tensor *ct__autograd_as_strided(ct_keyset ks, ct_tensor *self, ct_int_list size, ct_int_list stride, int64_t storage_offset) {
  ct__node_as_strided *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_as_strided *)ct__node_new(&ct__kind_as_strided, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_as_strided(ks & CT__BELOW_AUTOGRAD, self, size, stride, storage_offset);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- alias(Tensor(a) self) -> Tensor(a) ---- */
typedef struct ct__node_alias {
  ct_node base;
} ct__node_alias;

static ct_status ct__backward_alias(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_alias *n = (ct__node_alias *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = grad;
  return CT_OK;
}
static const ct_node_kind ct__kind_alias = {"AliasBackward0", ct__backward_alias, NULL};

static ct_tensor *ct__autograd_alias(ct_keyset ks, ct_tensor *self) {
  ct__node_alias *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_alias *)ct__node_new(&ct__kind_alias, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_alias(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && r->autograd) r->autograd->is_view = 1, r->autograd->view_version = r->storage->version;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- detach(Tensor(a) self) -> Tensor(a) ---- */
static ct_tensor *ct__autograd_detach(ct_keyset ks, ct_tensor *self) {
  ct_keyset excluded;
  ct_tensor *r;
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_detach(ks & CT__BELOW_AUTOGRAD, self);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- dot(Tensor self, Tensor tensor) -> Tensor ---- */
typedef struct ct__node_dot {
  ct_node base;
  ct__saved self;
  ct__saved tensor;
} ct__node_dot;

static void ct__release_dot(ct_node *node) {
  ct__node_dot *n = (ct__node_dot *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->tensor);
}
static ct_status ct__backward_dot(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_dot *n = (ct__node_dot *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *tensor = ct__unpack(&n->tensor, node, "tensor");
  if (!self || !tensor) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mul(grad, tensor);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_mul(grad, self);
  return CT_OK;
}
static const ct_node_kind ct__kind_dot = {"DotBackward0", ct__backward_dot, ct__release_dot};

static ct_tensor *ct__autograd_dot(ct_keyset ks, ct_tensor *self, ct_tensor *tensor) {
  ct__node_dot *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(tensor))) {
    n = (ct__node_dot *)ct__node_new(&ct__kind_dot, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, tensor);
    ct__save(&n->self, self);
    ct__save(&n->tensor, tensor);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_dot(ks & CT__BELOW_AUTOGRAD, self, tensor);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_dot_out(ct_keyset ks, ct_tensor *self, ct_tensor *tensor, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(tensor) || ct__needs_grad(out))) return ct__out_not_differentiable("dot.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_dot_out(ks & CT__BELOW_AUTOGRAD, self, tensor, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- mv(Tensor self, Tensor vec) -> Tensor ---- */
typedef struct ct__node_mv {
  ct_node base;
  ct__saved self;
  ct__saved vec;
} ct__node_mv;

static void ct__release_mv(ct_node *node) {
  ct__node_mv *n = (ct__node_mv *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->vec);
}
static ct_status ct__backward_mv(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_mv *n = (ct__node_mv *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *vec = ct__unpack(&n->vec, node, "vec");
  if (!self || !vec) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_outer(grad, vec);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_mv(ct_t(self), grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_mv = {"MvBackward0", ct__backward_mv, ct__release_mv};

static ct_tensor *ct__autograd_mv(ct_keyset ks, ct_tensor *self, ct_tensor *vec) {
  ct__node_mv *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(vec))) {
    n = (ct__node_mv *)ct__node_new(&ct__kind_mv, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, vec);
    ct__save(&n->self, self);
    ct__save(&n->vec, vec);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mv(ks & CT__BELOW_AUTOGRAD, self, vec);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_mv_out(ct_keyset ks, ct_tensor *self, ct_tensor *vec, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(vec) || ct__needs_grad(out))) return ct__out_not_differentiable("mv.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mv_out(ks & CT__BELOW_AUTOGRAD, self, vec, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- mm(Tensor self, Tensor mat2) -> Tensor ---- */
typedef struct ct__node_mm {
  ct_node base;
  ct__saved self;
  ct__saved mat2;
} ct__node_mm;

static void ct__release_mm(ct_node *node) {
  ct__node_mm *n = (ct__node_mm *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->mat2);
}
static ct_status ct__backward_mm(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_mm *n = (ct__node_mm *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *mat2 = ct__unpack(&n->mat2, node, "mat2");
  if (!self || !mat2) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_mm(grad, ct_t(mat2));
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_mm(ct_t(self), grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_mm = {"MmBackward0", ct__backward_mm, ct__release_mm};

static ct_tensor *ct__autograd_mm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  ct__node_mm *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat2))) {
    n = (ct__node_mm *)ct__node_new(&ct__kind_mm, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, mat2);
    ct__save(&n->self, self);
    ct__save(&n->mat2, mat2);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mm(ks & CT__BELOW_AUTOGRAD, self, mat2);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_mm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat2) || ct__needs_grad(out))) return ct__out_not_differentiable("mm.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_mm_out(ks & CT__BELOW_AUTOGRAD, self, mat2, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- bmm(Tensor self, Tensor mat2) -> Tensor ---- */
typedef struct ct__node_bmm {
  ct_node base;
  ct__saved self;
  ct__saved mat2;
} ct__node_bmm;

static void ct__release_bmm(ct_node *node) {
  ct__node_bmm *n = (ct__node_bmm *)node;
  ct__saved_reset(&n->self);
  ct__saved_reset(&n->mat2);
}
static ct_status ct__backward_bmm(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_bmm *n = (ct__node_bmm *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *self = ct__unpack(&n->self, node, "self");
  ct_tensor *mat2 = ct__unpack(&n->mat2, node, "mat2");
  if (!self || !mat2) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_bmm(grad, ct_transpose(mat2, 1, 2));
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct_bmm(ct_transpose(self, 1, 2), grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_bmm = {"BmmBackward0", ct__backward_bmm, ct__release_bmm};

static ct_tensor *ct__autograd_bmm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  ct__node_bmm *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat2))) {
    n = (ct__node_bmm *)ct__node_new(&ct__kind_bmm, sizeof *n, 2, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, mat2);
    ct__save(&n->self, self);
    ct__save(&n->mat2, mat2);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_bmm(ks & CT__BELOW_AUTOGRAD, self, mat2);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_bmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat2, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat2) || ct__needs_grad(out))) return ct__out_not_differentiable("bmm.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_bmm_out(ks & CT__BELOW_AUTOGRAD, self, mat2, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor ---- */
typedef struct ct__node_addmm {
  ct_node base;
  ct__saved mat1;
  ct__saved mat2;
  ct_scalar beta;
  ct_scalar alpha;
} ct__node_addmm;

static void ct__release_addmm(ct_node *node) {
  ct__node_addmm *n = (ct__node_addmm *)node;
  ct__saved_reset(&n->mat1);
  ct__saved_reset(&n->mat2);
}
static ct_status ct__backward_addmm(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_addmm *n = (ct__node_addmm *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *mat1 = ct__unpack(&n->mat1, node, "mat1");
  ct_tensor *mat2 = ct__unpack(&n->mat2, node, "mat2");
  ct_scalar beta = n->beta;
  ct_scalar alpha = n->alpha;
  if (!mat1 || !mat2) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__scale(grad, beta);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(ct_mm(grad, ct_t(mat2)), alpha);
  if (ct_node_needs_input_grad(node, 2)) grad_inputs[2] = ct__scale(ct_mm(ct_t(mat1), grad), alpha);
  return CT_OK;
}
static const ct_node_kind ct__kind_addmm = {"AddmmBackward0", ct__backward_addmm, ct__release_addmm};

static ct_tensor *ct__autograd_addmm(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  ct__node_addmm *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat1) || ct__needs_grad(mat2))) {
    n = (ct__node_addmm *)ct__node_new(&ct__kind_addmm, sizeof *n, 3, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, mat1);
    ct__node_set_input(&n->base, 2, mat2);
    ct__save(&n->mat1, mat1);
    ct__save(&n->mat2, mat2);
    n->beta = beta;
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_addmm(ks & CT__BELOW_AUTOGRAD, self, mat1, mat2, beta, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!) ---- */
typedef struct ct__node_addmm_ {
  ct_node base;
  ct__saved mat1;
  ct__saved mat2;
  ct_scalar beta;
  ct_scalar alpha;
} ct__node_addmm_;

static void ct__release_addmm_(ct_node *node) {
  ct__node_addmm_ *n = (ct__node_addmm_ *)node;
  ct__saved_reset(&n->mat1);
  ct__saved_reset(&n->mat2);
}
static ct_status ct__backward_addmm_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_addmm_ *n = (ct__node_addmm_ *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *mat1 = ct__unpack(&n->mat1, node, "mat1");
  ct_tensor *mat2 = ct__unpack(&n->mat2, node, "mat2");
  ct_scalar beta = n->beta;
  ct_scalar alpha = n->alpha;
  if (!mat1 || !mat2) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__scale(grad, beta);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(ct_mm(grad, ct_t(mat2)), alpha);
  if (ct_node_needs_input_grad(node, 2)) grad_inputs[2] = ct__scale(ct_mm(ct_t(mat1), grad), alpha);
  return CT_OK;
}
static const ct_node_kind ct__kind_addmm_ = {"AddmmBackward0", ct__backward_addmm_, ct__release_addmm_};

static ct_status ct__autograd_addmm_(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha) {
  ct__node_addmm_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat1) || ct__needs_grad(mat2))) {
    if ((r = ct__check_inplace("addmm_", self)) != CT_OK) return r;
    n = (ct__node_addmm_ *)ct__node_new(&ct__kind_addmm_, sizeof *n, 3, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, mat1);
    ct__node_set_input(&n->base, 2, mat2);
    ct__save(&n->mat1, mat1);
    ct__save(&n->mat2, mat2);
    n->beta = beta;
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_addmm_(ks & CT__BELOW_AUTOGRAD, self, mat1, mat2, beta, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_addmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *mat1, ct_tensor *mat2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(mat1) || ct__needs_grad(mat2) || ct__needs_grad(out))) return ct__out_not_differentiable("addmm.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_addmm_out(ks & CT__BELOW_AUTOGRAD, self, mat1, mat2, beta, alpha, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor ---- */
typedef struct ct__node_baddbmm {
  ct_node base;
  ct__saved batch1;
  ct__saved batch2;
  ct_scalar beta;
  ct_scalar alpha;
} ct__node_baddbmm;

static void ct__release_baddbmm(ct_node *node) {
  ct__node_baddbmm *n = (ct__node_baddbmm *)node;
  ct__saved_reset(&n->batch1);
  ct__saved_reset(&n->batch2);
}
static ct_status ct__backward_baddbmm(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_baddbmm *n = (ct__node_baddbmm *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *batch1 = ct__unpack(&n->batch1, node, "batch1");
  ct_tensor *batch2 = ct__unpack(&n->batch2, node, "batch2");
  ct_scalar beta = n->beta;
  ct_scalar alpha = n->alpha;
  if (!batch1 || !batch2) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__scale(grad, beta);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(ct_bmm(grad, ct_transpose(batch2, 1, 2)), alpha);
  if (ct_node_needs_input_grad(node, 2)) grad_inputs[2] = ct__scale(ct_bmm(ct_transpose(batch1, 1, 2), grad), alpha);
  return CT_OK;
}
static const ct_node_kind ct__kind_baddbmm = {"BaddbmmBackward0", ct__backward_baddbmm, ct__release_baddbmm};

static ct_tensor *ct__autograd_baddbmm(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  ct__node_baddbmm *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(batch1) || ct__needs_grad(batch2))) {
    n = (ct__node_baddbmm *)ct__node_new(&ct__kind_baddbmm, sizeof *n, 3, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, batch1);
    ct__node_set_input(&n->base, 2, batch2);
    ct__save(&n->batch1, batch1);
    ct__save(&n->batch2, batch2);
    n->beta = beta;
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_baddbmm(ks & CT__BELOW_AUTOGRAD, self, batch1, batch2, beta, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!) ---- */
typedef struct ct__node_baddbmm_ {
  ct_node base;
  ct__saved batch1;
  ct__saved batch2;
  ct_scalar beta;
  ct_scalar alpha;
} ct__node_baddbmm_;

static void ct__release_baddbmm_(ct_node *node) {
  ct__node_baddbmm_ *n = (ct__node_baddbmm_ *)node;
  ct__saved_reset(&n->batch1);
  ct__saved_reset(&n->batch2);
}
static ct_status ct__backward_baddbmm_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_baddbmm_ *n = (ct__node_baddbmm_ *)node;
  ct_tensor *grad = grads[0];
  ct_tensor *batch1 = ct__unpack(&n->batch1, node, "batch1");
  ct_tensor *batch2 = ct__unpack(&n->batch2, node, "batch2");
  ct_scalar beta = n->beta;
  ct_scalar alpha = n->alpha;
  if (!batch1 || !batch2) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct__scale(grad, beta);
  if (ct_node_needs_input_grad(node, 1)) grad_inputs[1] = ct__scale(ct_bmm(grad, ct_transpose(batch2, 1, 2)), alpha);
  if (ct_node_needs_input_grad(node, 2)) grad_inputs[2] = ct__scale(ct_bmm(ct_transpose(batch1, 1, 2), grad), alpha);
  return CT_OK;
}
static const ct_node_kind ct__kind_baddbmm_ = {"BaddbmmBackward0", ct__backward_baddbmm_, ct__release_baddbmm_};

static ct_status ct__autograd_baddbmm_(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha) {
  ct__node_baddbmm_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(batch1) || ct__needs_grad(batch2))) {
    if ((r = ct__check_inplace("baddbmm_", self)) != CT_OK) return r;
    n = (ct__node_baddbmm_ *)ct__node_new(&ct__kind_baddbmm_, sizeof *n, 3, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
    ct__node_set_input(&n->base, 1, batch1);
    ct__node_set_input(&n->base, 2, batch2);
    ct__save(&n->batch1, batch1);
    ct__save(&n->batch2, batch2);
    n->beta = beta;
    n->alpha = alpha;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_baddbmm_(ks & CT__BELOW_AUTOGRAD, self, batch1, batch2, beta, alpha);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_baddbmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *batch1, ct_tensor *batch2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self) || ct__needs_grad(batch1) || ct__needs_grad(batch2) || ct__needs_grad(out))) return ct__out_not_differentiable("baddbmm.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_baddbmm_out(ks & CT__BELOW_AUTOGRAD, self, batch1, batch2, beta, alpha, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!) ---- */
typedef struct ct__node_uniform_ {
  ct_node base;
} ct__node_uniform_;

static ct_status ct__backward_uniform_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_uniform_ *n = (ct__node_uniform_ *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_uniform_ = {"UniformBackward0", ct__backward_uniform_, NULL};

static ct_status ct__autograd_uniform_(ct_keyset ks, ct_tensor *self, double from, double to, ct_generator *generator) {
  ct__node_uniform_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("uniform_", self)) != CT_OK) return r;
    n = (ct__node_uniform_ *)ct__node_new(&ct__kind_uniform_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_uniform_(ks & CT__BELOW_AUTOGRAD, self, from, to, generator);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!) ---- */
typedef struct ct__node_normal_ {
  ct_node base;
} ct__node_normal_;

static ct_status ct__backward_normal_(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_normal_ *n = (ct__node_normal_ *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_normal_ = {"NormalBackward0", ct__backward_normal_, NULL};

static ct_status ct__autograd_normal_(ct_keyset ks, ct_tensor *self, double mean, double std, ct_generator *generator) {
  ct__node_normal_ *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("normal_", self)) != CT_OK) return r;
    n = (ct__node_normal_ *)ct__node_new(&ct__kind_normal_, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_normal_(ks & CT__BELOW_AUTOGRAD, self, mean, std, generator);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!) ---- */
typedef struct ct__node_random__from {
  ct_node base;
} ct__node_random__from;

static ct_status ct__backward_random__from(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_random__from *n = (ct__node_random__from *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_random__from = {"RandomBackward0", ct__backward_random__from, NULL};

static ct_status ct__autograd_random__from(ct_keyset ks, ct_tensor *self, int64_t from, int64_t to, ct_generator *generator) {
  ct__node_random__from *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("random_.from", self)) != CT_OK) return r;
    n = (ct__node_random__from *)ct__node_new(&ct__kind_random__from, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_random__from(ks & CT__BELOW_AUTOGRAD, self, from, to, generator);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!) ---- */
typedef struct ct__node_bernoulli__float {
  ct_node base;
} ct__node_bernoulli__float;

static ct_status ct__backward_bernoulli__float(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_bernoulli__float *n = (ct__node_bernoulli__float *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_bernoulli__float = {"BernoulliBackward0", ct__backward_bernoulli__float, NULL};

static ct_status ct__autograd_bernoulli__float(ct_keyset ks, ct_tensor *self, double p, ct_generator *generator) {
  ct__node_bernoulli__float *n = NULL;
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    if ((r = ct__check_inplace("bernoulli_.float", self)) != CT_OK) return r;
    n = (ct__node_bernoulli__float *)ct__node_new(&ct__kind_bernoulli__float, sizeof *n, 1, 1);
    if (!n) return ct_last_error();
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_bernoulli__float(ks & CT__BELOW_AUTOGRAD, self, p, generator);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r == CT_OK) r = ct__set_history(self, &n->base, 0);
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- bernoulli(Tensor self, *, Generator? generator=None) -> Tensor ---- */
typedef struct ct__node_bernoulli {
  ct_node base;
} ct__node_bernoulli;

static ct_status ct__backward_bernoulli(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_bernoulli *n = (ct__node_bernoulli *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_bernoulli = {"BernoulliBackward0", ct__backward_bernoulli, NULL};

static ct_tensor *ct__autograd_bernoulli(ct_keyset ks, ct_tensor *self, ct_generator *generator) {
  ct__node_bernoulli *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_bernoulli *)ct__node_new(&ct__kind_bernoulli, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_bernoulli(ks & CT__BELOW_AUTOGRAD, self, generator);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor ---- */
typedef struct ct__node_bernoulli_p {
  ct_node base;
} ct__node_bernoulli_p;

static ct_status ct__backward_bernoulli_p(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_bernoulli_p *n = (ct__node_bernoulli_p *)node;
  ct_tensor *grad = grads[0];
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_zeros_like(grad);
  return CT_OK;
}
static const ct_node_kind ct__kind_bernoulli_p = {"BernoulliBackward0", ct__backward_bernoulli_p, NULL};

static ct_tensor *ct__autograd_bernoulli_p(ct_keyset ks, ct_tensor *self, double p, ct_generator *generator) {
  ct__node_bernoulli_p *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(self))) {
    n = (ct__node_bernoulli_p *)ct__node_new(&ct__kind_bernoulli_p, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, self);
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_bernoulli_p(ks & CT__BELOW_AUTOGRAD, self, p, generator);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

/* ---- rand.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_rand_generator_out(ct_keyset ks, ct_int_list size, ct_generator *generator, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("rand.generator_out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_rand_generator_out(ks & CT__BELOW_AUTOGRAD, size, generator, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- randn.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_randn_generator_out(ct_keyset ks, ct_int_list size, ct_generator *generator, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("randn.generator_out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_randn_generator_out(ks & CT__BELOW_AUTOGRAD, size, generator, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- randint.low_generator_out(int low, int high, int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_randint_low_generator_out(ct_keyset ks, int64_t low, int64_t high, ct_int_list size, ct_generator *generator, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("randint.low_generator_out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_randint_low_generator_out(ks & CT__BELOW_AUTOGRAD, low, high, size, generator, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- randperm.generator_out(int n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_randperm_generator_out(ct_keyset ks, int64_t n, ct_generator *generator, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("randperm.generator_out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_randperm_generator_out(ks & CT__BELOW_AUTOGRAD, n, generator, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- eye.out(int n, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_eye_out(ct_keyset ks, int64_t n, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("eye.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_eye_out(ks & CT__BELOW_AUTOGRAD, n, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_eye_m_out(ct_keyset ks, int64_t n, int64_t m, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("eye.m_out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_eye_m_out(ks & CT__BELOW_AUTOGRAD, n, m, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!) ---- */
static ct_status ct__autograd_linspace_out(ct_keyset ks, ct_scalar start, ct_scalar end, int64_t steps, ct_tensor *out) {
  ct_keyset excluded;
  ct_status r;
  if (ct__grad_mode() && (ct__needs_grad(out))) return ct__out_not_differentiable("linspace.out");
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_linspace_out(ks & CT__BELOW_AUTOGRAD, start, end, steps, out);
  ct__below_autograd_end(excluded);
  return r;
}

/* ---- native_dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> (Tensor output, Tensor mask) ---- */
typedef struct ct__node_native_dropout {
  ct_node base;
  double p;
  bool train;
  ct__saved mask;
} ct__node_native_dropout;

static void ct__release_native_dropout(ct_node *node) {
  ct__node_native_dropout *n = (ct__node_native_dropout *)node;
  ct__saved_reset(&n->mask);
}
static ct_status ct__backward_native_dropout(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__node_native_dropout *n = (ct__node_native_dropout *)node;
  ct_tensor *grad = grads[0];
  double p = n->p;
  bool train = n->train;
  ct_tensor *mask = ct__unpack(&n->mask, node, "mask");
  if (!mask) return ct_last_error();
  (void)n;
  (void)grads;
  (void)grad_inputs;
  if (ct_node_needs_input_grad(node, 0)) grad_inputs[0] = ct_native_dropout_backward(grad, ct_detach(mask), ct__rn_dropout_scale(p, train));
  return CT_OK;
}
static const ct_node_kind ct__kind_native_dropout = {"NativeDropoutBackward0", ct__backward_native_dropout, ct__release_native_dropout};

static ct_tensor *ct__autograd_native_dropout(ct_keyset ks, ct_tensor *input, double p, bool train, ct_generator *generator, ct_tensor **mask) {
  ct__node_native_dropout *n = NULL;
  ct_keyset excluded;
  ct_tensor *r;
  if (ct__grad_mode() && (ct__needs_grad(input))) {
    n = (ct__node_native_dropout *)ct__node_new(&ct__kind_native_dropout, sizeof *n, 1, 1);
    if (!n) return NULL;
    ct__node_set_input(&n->base, 0, input);
    n->p = p;
    n->train = train;
  }
  excluded = ct__below_autograd_begin();
  r = ct__dispatch_native_dropout(ks & CT__BELOW_AUTOGRAD, input, p, train, generator, mask);
  ct__below_autograd_end(excluded);
  if (n) {
    if (r && ct__set_history(r, &n->base, 0) != CT_OK) ct_release(r), r = NULL;
    if (r && ct__save_output(&n->mask, *mask) != CT_OK) ct_release(r), r = NULL;
    ct__node_release(&n->base);
  }
  return r;
}

CT_EXTERN_C_END
#endif /* CT__GENERATED_AUTOGRAD_IMPL */
/* ---- ctorch/generated/registration.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__GENERATED_REGISTRATION_IMPL)
#define CT__GENERATED_REGISTRATION_IMPL
CT_EXTERN_C_BEGIN

/* ---- boxing adapters: stack -> typed kernel -> stack ---- */
/* T,T,S->T */
static ct_status ct__adapt_TTS_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw,T,S->Tw */
static ct_status ct__adapt_TwTS_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,T,S,Tw->Tw */
static ct_status ct__adapt_TTSTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *w = a[3].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_scalar , ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar, ct__unbox_tensor(&a[3]));
  ct_stack_drop(s, 4);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,S,S->T */
static ct_status ct__adapt_TSS_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.scalar, a[2].v.scalar);
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw,S,S->Tw */
static ct_status ct__adapt_TwSS_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.scalar, a[2].v.scalar);
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,T->T */
static ct_status ct__adapt_TT_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  ct_stack_drop(s, 2);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw,T->Tw */
static ct_status ct__adapt_TwT_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  ct_stack_drop(s, 2);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,T,Tw->Tw */
static ct_status ct__adapt_TTTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[2].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]));
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,S->T */
static ct_status ct__adapt_TS_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.scalar);
  ct_stack_drop(s, 2);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw,S->Tw */
static ct_status ct__adapt_TwS_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.scalar);
  ct_stack_drop(s, 2);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T->T */
static ct_status ct__adapt_T_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 1;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]));
  ct_stack_drop(s, 1);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw->Tw */
static ct_status ct__adapt_Tw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 1;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]));
  ct_stack_drop(s, 1);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,Tw->Tw */
static ct_status ct__adapt_TTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *w = a[1].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  ct_stack_drop(s, 2);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,D->T */
static ct_status ct__adapt_TD_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_dtype ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.dtype);
  ct_stack_drop(s, 2);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,I,b,D->T */
static ct_status ct__adapt_TIbD_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , bool , ct_dtype ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]), a[2].v.b, a[3].v.dtype);
  ct_stack_drop(s, 4);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,I,b,D,Tw->Tw */
static ct_status ct__adapt_TIbDTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 5;
  ct_tensor *w = a[4].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_int_list , bool , ct_dtype , ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]), a[2].v.b, a[3].v.dtype, ct__unbox_tensor(&a[4]));
  ct_stack_drop(s, 5);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* Tw,T,b->Tw */
static ct_status ct__adapt_TwTb_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, bool ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.b);
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,I->T */
static ct_status ct__adapt_TI_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]));
  ct_stack_drop(s, 2);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,i,i->T */
static ct_status ct__adapt_Tii_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i);
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,I,b->T */
static ct_status ct__adapt_TIb_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , bool ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]), a[2].v.b);
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,i->T */
static ct_status ct__adapt_Ti_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.i);
  ct_stack_drop(s, 2);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,I,i,i->T */
static ct_status ct__adapt_TIii_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , int64_t , int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]), a[2].v.i, a[3].v.i);
  ct_stack_drop(s, 4);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,i,i,i,i->T */
static ct_status ct__adapt_Tiiii_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 5;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t , int64_t , int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i, a[3].v.i, a[4].v.i);
  ct_stack_drop(s, 5);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,I,i,i,i,i->T */
static ct_status ct__adapt_TIiiii_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 6;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , int64_t , int64_t , int64_t , int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]), a[2].v.i, a[3].v.i, a[4].v.i, a[5].v.i);
  ct_stack_drop(s, 6);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,i,i,i->T */
static ct_status ct__adapt_Tiii_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, int64_t , int64_t , int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i, a[3].v.i);
  ct_stack_drop(s, 4);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,I,I,i->T */
static ct_status ct__adapt_TIIi_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_int_list , ct_int_list , int64_t ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__value_int_list(&a[1]), ct__value_int_list(&a[2]), a[3].v.i);
  ct_stack_drop(s, 4);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,T,T,S,S->T */
static ct_status ct__adapt_TTTSS_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 5;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  ct_stack_drop(s, 5);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw,T,T,S,S->Tw */
static ct_status ct__adapt_TwTTSS_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 5;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  ct_stack_drop(s, 5);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,T,T,S,S,Tw->Tw */
static ct_status ct__adapt_TTTSSTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 6;
  ct_tensor *w = a[5].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *, ct_scalar , ct_scalar , ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar, ct__unbox_tensor(&a[5]));
  ct_stack_drop(s, 6);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,T,T?->T */
static ct_status ct__adapt_TTTo_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, ct_tensor *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]));
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* Tw,f,f,G->Tw */
static ct_status ct__adapt_TwffG_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, double , double , ct_generator *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.d, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  ct_stack_drop(s, 4);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* Tw,i,i?,G->Tw */
static ct_status ct__adapt_TwiioG_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, int64_t , int64_t , ct_generator *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  ct_stack_drop(s, 4);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* Tw,f,G->Tw */
static ct_status ct__adapt_TwfG_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[0].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_tensor *, double , ct_generator *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.d, a[2].tag == CT_VALUE_GENERATOR ? a[2].v.gen : NULL);
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,G->T */
static ct_status ct__adapt_TG_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_generator *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL);
  ct_stack_drop(s, 2);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,f,G->T */
static ct_status ct__adapt_TfG_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, double , ct_generator *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.d, a[2].tag == CT_VALUE_GENERATOR ? a[2].v.gen : NULL);
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* I,G,Tw->Tw */
static ct_status ct__adapt_IGTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[2].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_int_list , ct_generator *, ct_tensor *))k->unboxed)(ks, ct__value_int_list(&a[0]), a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL, ct__unbox_tensor(&a[2]));
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* i,i,I,G,Tw->Tw */
static ct_status ct__adapt_iiIGTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 5;
  ct_tensor *w = a[4].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, int64_t , int64_t , ct_int_list , ct_generator *, ct_tensor *))k->unboxed)(ks, a[0].v.i, a[1].v.i, ct__value_int_list(&a[2]), a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL, ct__unbox_tensor(&a[4]));
  ct_stack_drop(s, 5);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* i,G,Tw->Tw */
static ct_status ct__adapt_iGTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[2].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, int64_t , ct_generator *, ct_tensor *))k->unboxed)(ks, a[0].v.i, a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL, ct__unbox_tensor(&a[2]));
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* i,Tw->Tw */
static ct_status ct__adapt_iTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 2;
  ct_tensor *w = a[1].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, int64_t , ct_tensor *))k->unboxed)(ks, a[0].v.i, ct__unbox_tensor(&a[1]));
  ct_stack_drop(s, 2);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* i,i,Tw->Tw */
static ct_status ct__adapt_iiTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *w = a[2].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, int64_t , int64_t , ct_tensor *))k->unboxed)(ks, a[0].v.i, a[1].v.i, ct__unbox_tensor(&a[2]));
  ct_stack_drop(s, 3);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* S,S,i,Tw->Tw */
static ct_status ct__adapt_SSiTw_Tw(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *w = a[3].v.tensor;
  ct_status r;
  (void)op;
  r = ((ct_status (*)(ct_keyset, ct_scalar , ct_scalar , int64_t , ct_tensor *))k->unboxed)(ks, a[0].v.scalar, a[1].v.scalar, a[2].v.i, ct__unbox_tensor(&a[3]));
  ct_stack_drop(s, 4);
  if (r != CT_OK) return r;
  return ct_stack_push(s, ct_value_tensor(w));
}
/* T,f,b,G->T,T */
static ct_status ct__adapt_TfbG_TT(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *r;
  ct_tensor *x[1] = {NULL};
  ct_status st;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, double , bool , ct_generator *, ct_tensor **))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.b, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL, &x[0]);
  ct_stack_drop(s, 4);
  if (!r) {
    ct_release(x[0]);
    return ct_last_error();
  }
  st = ct__push_owned(s, r);
  if (st == CT_OK) st = ct__push_owned(s, x[0]);
  else ct_release(x[0]);
  return st;
}
/* T,T,f->T */
static ct_status ct__adapt_TTf_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 3;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, ct_tensor *, double ))k->unboxed)(ks, ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.d);
  ct_stack_drop(s, 3);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}
/* T,f,b,G->T */
static ct_status ct__adapt_TfbG_T(const ct_kernel *k, const ct_op *op, ct_keyset ks, ct_stack *s) {
  ct_value *a = s->items + s->size - 4;
  ct_tensor *r;
  (void)op;
  r = ((ct_tensor *(*)(ct_keyset, ct_tensor *, double , bool , ct_generator *))k->unboxed)(ks, ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.b, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  ct_stack_drop(s, 4);
  if (!r) return ct_last_error();
  return ct__push_owned(s, r);
}

static const struct {
  const char *signature;
  ct_boxed_fn fn;
} ct__generated_adapters[] = {
    {"T,T,S->T", ct__adapt_TTS_T},
    {"Tw,T,S->Tw", ct__adapt_TwTS_Tw},
    {"T,T,S,Tw->Tw", ct__adapt_TTSTw_Tw},
    {"T,S,S->T", ct__adapt_TSS_T},
    {"Tw,S,S->Tw", ct__adapt_TwSS_Tw},
    {"T,T->T", ct__adapt_TT_T},
    {"Tw,T->Tw", ct__adapt_TwT_Tw},
    {"T,T,Tw->Tw", ct__adapt_TTTw_Tw},
    {"T,S->T", ct__adapt_TS_T},
    {"Tw,S->Tw", ct__adapt_TwS_Tw},
    {"T->T", ct__adapt_T_T},
    {"Tw->Tw", ct__adapt_Tw_Tw},
    {"T,Tw->Tw", ct__adapt_TTw_Tw},
    {"T,D->T", ct__adapt_TD_T},
    {"T,I,b,D->T", ct__adapt_TIbD_T},
    {"T,I,b,D,Tw->Tw", ct__adapt_TIbDTw_Tw},
    {"Tw,T,b->Tw", ct__adapt_TwTb_Tw},
    {"T,I->T", ct__adapt_TI_T},
    {"T,i,i->T", ct__adapt_Tii_T},
    {"T,I,b->T", ct__adapt_TIb_T},
    {"T,i->T", ct__adapt_Ti_T},
    {"T,I,i,i->T", ct__adapt_TIii_T},
    {"T,i,i,i,i->T", ct__adapt_Tiiii_T},
    {"T,I,i,i,i,i->T", ct__adapt_TIiiii_T},
    {"T,i,i,i->T", ct__adapt_Tiii_T},
    {"T,I,I,i->T", ct__adapt_TIIi_T},
    {"T,T,T,S,S->T", ct__adapt_TTTSS_T},
    {"Tw,T,T,S,S->Tw", ct__adapt_TwTTSS_Tw},
    {"T,T,T,S,S,Tw->Tw", ct__adapt_TTTSSTw_Tw},
    {"T,T,T?->T", ct__adapt_TTTo_T},
    {"Tw,f,f,G->Tw", ct__adapt_TwffG_Tw},
    {"Tw,i,i?,G->Tw", ct__adapt_TwiioG_Tw},
    {"Tw,f,G->Tw", ct__adapt_TwfG_Tw},
    {"T,G->T", ct__adapt_TG_T},
    {"T,f,G->T", ct__adapt_TfG_T},
    {"I,G,Tw->Tw", ct__adapt_IGTw_Tw},
    {"i,i,I,G,Tw->Tw", ct__adapt_iiIGTw_Tw},
    {"i,G,Tw->Tw", ct__adapt_iGTw_Tw},
    {"i,Tw->Tw", ct__adapt_iTw_Tw},
    {"i,i,Tw->Tw", ct__adapt_iiTw_Tw},
    {"S,S,i,Tw->Tw", ct__adapt_SSiTw_Tw},
    {"T,f,b,G->T,T", ct__adapt_TfbG_TT},
    {"T,T,f->T", ct__adapt_TTf_T},
    {"T,f,b,G->T", ct__adapt_TfbG_T},
};

/* ---- typed frontends called from boxed values (ct_op.frontend, for opcheck) ---- */
static ct_status ct__frontend_add_Tensor(const ct_value *a, ct_tensor **r) {
  *r = ct_add_ex(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_add__Tensor(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_add_ex_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_add_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_add_out_ex(ct__unbox_tensor(&a[3]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  *r = st == CT_OK ? a[3].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_add_Scalar(const ct_value *a, ct_tensor **r) {
  *r = ct_add_scalar_ex(ct__unbox_tensor(&a[0]), a[1].v.scalar, a[2].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_add__Scalar(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_add_scalar_ex_(ct__unbox_tensor(&a[0]), a[1].v.scalar, a[2].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_sub_Tensor(const ct_value *a, ct_tensor **r) {
  *r = ct_sub_ex(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_sub__Tensor(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_sub_ex_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_sub_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_sub_out_ex(ct__unbox_tensor(&a[3]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  *r = st == CT_OK ? a[3].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_sub_Scalar(const ct_value *a, ct_tensor **r) {
  *r = ct_sub_scalar_ex(ct__unbox_tensor(&a[0]), a[1].v.scalar, a[2].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_sub__Scalar(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_sub_scalar_ex_(ct__unbox_tensor(&a[0]), a[1].v.scalar, a[2].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_mul_Tensor(const ct_value *a, ct_tensor **r) {
  *r = ct_mul(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_mul__Tensor(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_mul_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_mul_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_mul_out(ct__unbox_tensor(&a[2]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_mul_Scalar(const ct_value *a, ct_tensor **r) {
  *r = ct_mul_scalar(ct__unbox_tensor(&a[0]), a[1].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_mul__Scalar(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_mul_scalar_(ct__unbox_tensor(&a[0]), a[1].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_div_Tensor(const ct_value *a, ct_tensor **r) {
  *r = ct_div(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_div__Tensor(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_div_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_div_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_div_out(ct__unbox_tensor(&a[2]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_div_Scalar(const ct_value *a, ct_tensor **r) {
  *r = ct_div_scalar(ct__unbox_tensor(&a[0]), a[1].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_div__Scalar(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_div_scalar_(ct__unbox_tensor(&a[0]), a[1].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_neg(const ct_value *a, ct_tensor **r) {
  *r = ct_neg(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_neg_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_neg_(ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_neg_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_neg_out(ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[1].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_relu(const ct_value *a, ct_tensor **r) {
  *r = ct_relu(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_relu_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_relu_(ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_threshold_backward(const ct_value *a, ct_tensor **r) {
  *r = ct_threshold_backward(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_exp(const ct_value *a, ct_tensor **r) {
  *r = ct_exp(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_exp_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_exp_(ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_exp_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_exp_out(ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[1].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_tanh(const ct_value *a, ct_tensor **r) {
  *r = ct_tanh(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_tanh_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_tanh_(ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_tanh_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_tanh_out(ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[1].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_sigmoid(const ct_value *a, ct_tensor **r) {
  *r = ct_sigmoid(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_sigmoid_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_sigmoid_(ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_sigmoid_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_sigmoid_out(ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[0]));
  *r = st == CT_OK ? a[1].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_sum(const ct_value *a, ct_tensor **r) {
  *r = ct_sum_ex(ct__unbox_tensor(&a[0]), a[1].v.dtype);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_sum_dim_IntList(const ct_value *a, ct_tensor **r) {
  *r = ct_sum_dim_ex(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].v.b, a[3].v.dtype);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_sum_IntList_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_sum_out_ex(ct__unbox_tensor(&a[4]), ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].v.b, a[3].v.dtype);
  *r = st == CT_OK ? a[4].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_mean(const ct_value *a, ct_tensor **r) {
  *r = ct_mean_ex(ct__unbox_tensor(&a[0]), a[1].v.dtype);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_mean_dim(const ct_value *a, ct_tensor **r) {
  *r = ct_mean_dim_ex(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].v.b, a[3].v.dtype);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_copy_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_copy_ex_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.b);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_fill__Scalar(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_fill_(ct__unbox_tensor(&a[0]), a[1].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_clone(const ct_value *a, ct_tensor **r) {
  *r = ct_clone(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_contiguous(const ct_value *a, ct_tensor **r) {
  *r = ct_contiguous(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend__to_copy(const ct_value *a, ct_tensor **r) {
  *r = ct_to_copy_ex(ct__unbox_tensor(&a[0]), a[1].v.dtype);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_to_dtype(const ct_value *a, ct_tensor **r) {
  *r = ct_to_dtype(ct__unbox_tensor(&a[0]), a[1].v.dtype);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_view(const ct_value *a, ct_tensor **r) {
  *r = ct_view(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_reshape(const ct_value *a, ct_tensor **r) {
  *r = ct_reshape(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_transpose_int(const ct_value *a, ct_tensor **r) {
  *r = ct_transpose(ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_t(const ct_value *a, ct_tensor **r) {
  *r = ct_t(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_permute(const ct_value *a, ct_tensor **r) {
  *r = ct_permute(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_expand(const ct_value *a, ct_tensor **r) {
  *r = ct_expand_ex(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].v.b);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_broadcast_to(const ct_value *a, ct_tensor **r) {
  *r = ct_broadcast_to(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_unsqueeze(const ct_value *a, ct_tensor **r) {
  *r = ct_unsqueeze(ct__unbox_tensor(&a[0]), a[1].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_squeeze(const ct_value *a, ct_tensor **r) {
  *r = ct_squeeze(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_squeeze_dim(const ct_value *a, ct_tensor **r) {
  *r = ct_squeeze_dim(ct__unbox_tensor(&a[0]), a[1].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_flatten_using_ints(const ct_value *a, ct_tensor **r) {
  *r = ct_flatten(ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_select_int(const ct_value *a, ct_tensor **r) {
  *r = ct_select(ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_select_backward(const ct_value *a, ct_tensor **r) {
  *r = ct_select_backward(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].v.i, a[3].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_slice_Tensor(const ct_value *a, ct_tensor **r) {
  *r = ct_slice(ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i, a[3].v.i, a[4].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_slice_backward(const ct_value *a, ct_tensor **r) {
  *r = ct_slice_backward(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].v.i, a[3].v.i, a[4].v.i, a[5].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_narrow(const ct_value *a, ct_tensor **r) {
  *r = ct_narrow(ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i, a[3].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_as_strided(const ct_value *a, ct_tensor **r) {
  *r = ct_as_strided(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[1]).n, a[1].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[1]).data, a[2].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[2]).n, a[2].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[2]).data, a[3].v.i);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_alias(const ct_value *a, ct_tensor **r) {
  *r = ct_alias(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_detach(const ct_value *a, ct_tensor **r) {
  *r = ct_detach(ct__unbox_tensor(&a[0]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_dot(const ct_value *a, ct_tensor **r) {
  *r = ct_dot(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_dot_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_dot_out(ct__unbox_tensor(&a[2]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_mv(const ct_value *a, ct_tensor **r) {
  *r = ct_mv(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_mv_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_mv_out(ct__unbox_tensor(&a[2]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_mm(const ct_value *a, ct_tensor **r) {
  *r = ct_mm(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_mm_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_mm_out(ct__unbox_tensor(&a[2]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_bmm(const ct_value *a, ct_tensor **r) {
  *r = ct_bmm(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_bmm_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_bmm_out(ct__unbox_tensor(&a[2]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_addmm(const ct_value *a, ct_tensor **r) {
  *r = ct_addmm_ex(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_addmm_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_addmm_ex_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_addmm_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_addmm_out_ex(ct__unbox_tensor(&a[5]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  *r = st == CT_OK ? a[5].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_baddbmm(const ct_value *a, ct_tensor **r) {
  *r = ct_baddbmm_ex(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_baddbmm_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_baddbmm_ex_(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_baddbmm_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_baddbmm_out_ex(ct__unbox_tensor(&a[5]), ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]), a[3].v.scalar, a[4].v.scalar);
  *r = st == CT_OK ? a[5].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_outer(const ct_value *a, ct_tensor **r) {
  *r = ct_outer(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_matmul(const ct_value *a, ct_tensor **r) {
  *r = ct_matmul(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_linear(const ct_value *a, ct_tensor **r) {
  *r = ct_linear(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), ct__unbox_tensor(&a[2]));
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_uniform_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_uniform_ex_(ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.d, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_normal_(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_normal_ex_(ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.d, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_random__from(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_random_ex_(ct__unbox_tensor(&a[0]), a[1].v.i, a[2].v.i, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_bernoulli__float(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_bernoulli_float_ex_(ct__unbox_tensor(&a[0]), a[1].v.d, a[2].tag == CT_VALUE_GENERATOR ? a[2].v.gen : NULL);
  *r = st == CT_OK ? a[0].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_bernoulli(const ct_value *a, ct_tensor **r) {
  *r = ct_bernoulli_ex(ct__unbox_tensor(&a[0]), a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_bernoulli_p(const ct_value *a, ct_tensor **r) {
  *r = ct_bernoulli_p_ex(ct__unbox_tensor(&a[0]), a[1].v.d, a[2].tag == CT_VALUE_GENERATOR ? a[2].v.gen : NULL);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_rand_generator_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_rand_out(ct__unbox_tensor(&a[2]), a[0].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[0]).n, a[0].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[0]).data, a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL);
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_randn_generator_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_randn_out(ct__unbox_tensor(&a[2]), a[0].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[0]).n, a[0].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[0]).data, a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL);
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_randint_low_generator_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_randint_out(ct__unbox_tensor(&a[4]), a[0].v.i, a[1].v.i, a[2].tag == CT_VALUE_NONE ? 0 : (int)ct__value_int_list((ct_value *)&a[2]).n, a[2].tag == CT_VALUE_NONE ? NULL : ct__value_int_list((ct_value *)&a[2]).data, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  *r = st == CT_OK ? a[4].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_randperm_generator_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_randperm_out(ct__unbox_tensor(&a[2]), a[0].v.i, a[1].tag == CT_VALUE_GENERATOR ? a[1].v.gen : NULL);
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_eye_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_eye_out(ct__unbox_tensor(&a[1]), a[0].v.i);
  *r = st == CT_OK ? a[1].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_eye_m_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_eye_m_out(ct__unbox_tensor(&a[2]), a[0].v.i, a[1].v.i);
  *r = st == CT_OK ? a[2].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_linspace_out(const ct_value *a, ct_tensor **r) {
  ct_status st = ct_linspace_out(ct__unbox_tensor(&a[3]), a[0].v.scalar, a[1].v.scalar, a[2].v.i);
  *r = st == CT_OK ? a[3].v.tensor : NULL;
  return st;
}
static ct_status ct__frontend_native_dropout(const ct_value *a, ct_tensor **r) {
  *r = ct_native_dropout_ex(ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.b, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL, (ct_tensor **)NULL);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_native_dropout_backward(const ct_value *a, ct_tensor **r) {
  *r = ct_native_dropout_backward(ct__unbox_tensor(&a[0]), ct__unbox_tensor(&a[1]), a[2].v.d);
  return *r ? CT_OK : ct_last_error();
}
static ct_status ct__frontend_dropout(const ct_value *a, ct_tensor **r) {
  *r = ct_dropout_ex(ct__unbox_tensor(&a[0]), a[1].v.d, a[2].v.b, a[3].tag == CT_VALUE_GENERATOR ? a[3].v.gen : NULL);
  return *r ? CT_OK : ct_last_error();
}

/* ---- schemas, in spec order; handles[i] receives the registered op ---- */
static const struct {
  ct_op **handle;
  const char *schema;
  ct_status (*frontend)(const ct_value *, ct_tensor **);
} ct__generated_schemas[] = {
    {&ct__op.add_Tensor, "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ct__frontend_add_Tensor},
    {&ct__op.add__Tensor, "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", ct__frontend_add__Tensor},
    {&ct__op.add_out, "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", ct__frontend_add_out},
    {&ct__op.add_Scalar, "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ct__frontend_add_Scalar},
    {&ct__op.add__Scalar, "add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", ct__frontend_add__Scalar},
    {&ct__op.sub_Tensor, "sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor", ct__frontend_sub_Tensor},
    {&ct__op.sub__Tensor, "sub_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)", ct__frontend_sub__Tensor},
    {&ct__op.sub_out, "sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", ct__frontend_sub_out},
    {&ct__op.sub_Scalar, "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor", ct__frontend_sub_Scalar},
    {&ct__op.sub__Scalar, "sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", ct__frontend_sub__Scalar},
    {&ct__op.mul_Tensor, "mul.Tensor(Tensor self, Tensor other) -> Tensor", ct__frontend_mul_Tensor},
    {&ct__op.mul__Tensor, "mul_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", ct__frontend_mul__Tensor},
    {&ct__op.mul_out, "mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_mul_out},
    {&ct__op.mul_Scalar, "mul.Scalar(Tensor self, Scalar other) -> Tensor", ct__frontend_mul_Scalar},
    {&ct__op.mul__Scalar, "mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", ct__frontend_mul__Scalar},
    {&ct__op.div_Tensor, "div.Tensor(Tensor self, Tensor other) -> Tensor", ct__frontend_div_Tensor},
    {&ct__op.div__Tensor, "div_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)", ct__frontend_div__Tensor},
    {&ct__op.div_out, "div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_div_out},
    {&ct__op.div_Scalar, "div.Scalar(Tensor self, Scalar other) -> Tensor", ct__frontend_div_Scalar},
    {&ct__op.div__Scalar, "div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", ct__frontend_div__Scalar},
    {&ct__op.neg, "neg(Tensor self) -> Tensor", ct__frontend_neg},
    {&ct__op.neg_, "neg_(Tensor(a!) self) -> Tensor(a!)", ct__frontend_neg_},
    {&ct__op.neg_out, "neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_neg_out},
    {&ct__op.relu, "relu(Tensor self) -> Tensor", ct__frontend_relu},
    {&ct__op.relu_, "relu_(Tensor(a!) self) -> Tensor(a!)", ct__frontend_relu_},
    {&ct__op.threshold_backward, "threshold_backward(Tensor grad_output, Tensor self, Scalar threshold) -> Tensor", ct__frontend_threshold_backward},
    {&ct__op.exp, "exp(Tensor self) -> Tensor", ct__frontend_exp},
    {&ct__op.exp_, "exp_(Tensor(a!) self) -> Tensor(a!)", ct__frontend_exp_},
    {&ct__op.exp_out, "exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_exp_out},
    {&ct__op.tanh, "tanh(Tensor self) -> Tensor", ct__frontend_tanh},
    {&ct__op.tanh_, "tanh_(Tensor(a!) self) -> Tensor(a!)", ct__frontend_tanh_},
    {&ct__op.tanh_out, "tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_tanh_out},
    {&ct__op.sigmoid, "sigmoid(Tensor self) -> Tensor", ct__frontend_sigmoid},
    {&ct__op.sigmoid_, "sigmoid_(Tensor(a!) self) -> Tensor(a!)", ct__frontend_sigmoid_},
    {&ct__op.sigmoid_out, "sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_sigmoid_out},
    {&ct__op.sum, "sum(Tensor self, *, ScalarType? dtype=None) -> Tensor", ct__frontend_sum},
    {&ct__op.sum_dim_IntList, "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", ct__frontend_sum_dim_IntList},
    {&ct__op.sum_IntList_out, "sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", ct__frontend_sum_IntList_out},
    {&ct__op.mean, "mean(Tensor self, *, ScalarType? dtype=None) -> Tensor", ct__frontend_mean},
    {&ct__op.mean_dim, "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", ct__frontend_mean_dim},
    {&ct__op.copy_, "copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)", ct__frontend_copy_},
    {&ct__op.fill__Scalar, "fill_.Scalar(Tensor(a!) self, Scalar value) -> Tensor(a!)", ct__frontend_fill__Scalar},
    {&ct__op.clone, "clone(Tensor self) -> Tensor", ct__frontend_clone},
    {&ct__op.contiguous, "contiguous(Tensor(a) self) -> Tensor(a)", ct__frontend_contiguous},
    {&ct__op._to_copy, "_to_copy(Tensor self, *, ScalarType? dtype=None) -> Tensor", ct__frontend__to_copy},
    {&ct__op.to_dtype, "to.dtype(Tensor(a) self, ScalarType dtype) -> Tensor(a)", ct__frontend_to_dtype},
    {&ct__op.view, "view(Tensor(a) self, int[] size) -> Tensor(a)", ct__frontend_view},
    {&ct__op.reshape, "reshape(Tensor(a) self, int[] shape) -> Tensor(a)", ct__frontend_reshape},
    {&ct__op.transpose_int, "transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)", ct__frontend_transpose_int},
    {&ct__op.t, "t(Tensor(a) self) -> Tensor(a)", ct__frontend_t},
    {&ct__op.permute, "permute(Tensor(a) self, int[] dims) -> Tensor(a)", ct__frontend_permute},
    {&ct__op.expand, "expand(Tensor(a) self, int[] size, *, bool implicit=False) -> Tensor(a)", ct__frontend_expand},
    {&ct__op.broadcast_to, "broadcast_to(Tensor(a) self, int[] size) -> Tensor(a)", ct__frontend_broadcast_to},
    {&ct__op.unsqueeze, "unsqueeze(Tensor(a) self, int dim) -> Tensor(a)", ct__frontend_unsqueeze},
    {&ct__op.squeeze, "squeeze(Tensor(a) self) -> Tensor(a)", ct__frontend_squeeze},
    {&ct__op.squeeze_dim, "squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)", ct__frontend_squeeze_dim},
    {&ct__op.flatten_using_ints, "flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)", ct__frontend_flatten_using_ints},
    {&ct__op.select_int, "select.int(Tensor(a) self, int dim, int index) -> Tensor(a)", ct__frontend_select_int},
    {&ct__op.select_backward, "select_backward(Tensor grad_output, int[] input_sizes, int dim, int index) -> Tensor", ct__frontend_select_backward},
    {&ct__op.slice_Tensor, "slice.Tensor(Tensor(a) self, int dim=0, int start=0, int end=9223372036854775807, int step=1) -> Tensor(a)", ct__frontend_slice_Tensor},
    {&ct__op.slice_backward, "slice_backward(Tensor grad_output, int[] input_sizes, int dim, int start, int end, int step) -> Tensor", ct__frontend_slice_backward},
    {&ct__op.narrow, "narrow(Tensor(a) self, int dim, int start, int length) -> Tensor(a)", ct__frontend_narrow},
    {&ct__op.as_strided, "as_strided(Tensor(a) self, int[] size, int[] stride, int storage_offset=0) -> Tensor(a)", ct__frontend_as_strided},
    {&ct__op.alias, "alias(Tensor(a) self) -> Tensor(a)", ct__frontend_alias},
    {&ct__op.detach, "detach(Tensor(a) self) -> Tensor(a)", ct__frontend_detach},
    {&ct__op.dot, "dot(Tensor self, Tensor tensor) -> Tensor", ct__frontend_dot},
    {&ct__op.dot_out, "dot.out(Tensor self, Tensor tensor, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_dot_out},
    {&ct__op.mv, "mv(Tensor self, Tensor vec) -> Tensor", ct__frontend_mv},
    {&ct__op.mv_out, "mv.out(Tensor self, Tensor vec, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_mv_out},
    {&ct__op.mm, "mm(Tensor self, Tensor mat2) -> Tensor", ct__frontend_mm},
    {&ct__op.mm_out, "mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_mm_out},
    {&ct__op.bmm, "bmm(Tensor self, Tensor mat2) -> Tensor", ct__frontend_bmm},
    {&ct__op.bmm_out, "bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_bmm_out},
    {&ct__op.addmm, "addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", ct__frontend_addmm},
    {&ct__op.addmm_, "addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", ct__frontend_addmm_},
    {&ct__op.addmm_out, "addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", ct__frontend_addmm_out},
    {&ct__op.baddbmm, "baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor", ct__frontend_baddbmm},
    {&ct__op.baddbmm_, "baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)", ct__frontend_baddbmm_},
    {&ct__op.baddbmm_out, "baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", ct__frontend_baddbmm_out},
    {&ct__op.outer, "outer(Tensor self, Tensor vec2) -> Tensor", ct__frontend_outer},
    {&ct__op.matmul, "matmul(Tensor self, Tensor other) -> Tensor", ct__frontend_matmul},
    {&ct__op.linear, "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", ct__frontend_linear},
    {&ct__op.uniform_, "uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) -> Tensor(a!)", ct__frontend_uniform_},
    {&ct__op.normal_, "normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor(a!)", ct__frontend_normal_},
    {&ct__op.random__from, "random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) -> Tensor(a!)", ct__frontend_random__from},
    {&ct__op.bernoulli__float, "bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) -> Tensor(a!)", ct__frontend_bernoulli__float},
    {&ct__op.bernoulli, "bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", ct__frontend_bernoulli},
    {&ct__op.bernoulli_p, "bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor", ct__frontend_bernoulli_p},
    {&ct__op.rand_generator_out, "rand.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)", ct__frontend_rand_generator_out},
    {&ct__op.randn_generator_out, "randn.generator_out(int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)", ct__frontend_randn_generator_out},
    {&ct__op.randint_low_generator_out, "randint.low_generator_out(int low, int high, int[] size, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)", ct__frontend_randint_low_generator_out},
    {&ct__op.randperm_generator_out, "randperm.generator_out(int n, *, Generator? generator, Tensor(a!) out) -> Tensor(a!)", ct__frontend_randperm_generator_out},
    {&ct__op.eye_out, "eye.out(int n, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_eye_out},
    {&ct__op.eye_m_out, "eye.m_out(int n, int m, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_eye_m_out},
    {&ct__op.linspace_out, "linspace.out(Scalar start, Scalar end, int steps, *, Tensor(a!) out) -> Tensor(a!)", ct__frontend_linspace_out},
    {&ct__op.native_dropout, "native_dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> (Tensor output, Tensor mask)", ct__frontend_native_dropout},
    {&ct__op.native_dropout_backward, "native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor", ct__frontend_native_dropout_backward},
    {&ct__op.dropout, "dropout(Tensor input, float p, bool train, *, Generator? generator=None) -> Tensor", ct__frontend_dropout},
};

/* ---- kernels: (op, key, function, where it comes from) ---- */
static const struct {
  const char *op;
  ct_key key;
  ct_unboxed_fn fn;
  const char *source;
} ct__generated_kernels[] = {
    {"add.Tensor", CT_KEY_CPU, CT_FN(ct__k_add), "reference"},
    {"add.Tensor", CT_KEY_META, CT_FN(ct__k_add), "reference"},
    {"add.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_add_Tensor), "autograd"},
    {"add_.Tensor", CT_KEY_CPU, CT_FN(ct__k_add_), "reference"},
    {"add_.Tensor", CT_KEY_META, CT_FN(ct__k_add_), "reference"},
    {"add_.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_add__Tensor), "autograd"},
    {"add.out", CT_KEY_CPU, CT_FN(ct__k_add_out), "reference"},
    {"add.out", CT_KEY_META, CT_FN(ct__k_add_out), "reference"},
    {"add.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_add_out), "autograd"},
    {"add.Scalar", CT_KEY_CPU, CT_FN(ct__k_add_scalar), "reference"},
    {"add.Scalar", CT_KEY_META, CT_FN(ct__k_add_scalar), "reference"},
    {"add.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_add_Scalar), "autograd"},
    {"add_.Scalar", CT_KEY_CPU, CT_FN(ct__k_add_scalar_), "reference"},
    {"add_.Scalar", CT_KEY_META, CT_FN(ct__k_add_scalar_), "reference"},
    {"add_.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_add__Scalar), "autograd"},
    {"sub.Tensor", CT_KEY_CPU, CT_FN(ct__k_sub), "reference"},
    {"sub.Tensor", CT_KEY_META, CT_FN(ct__k_sub), "reference"},
    {"sub.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sub_Tensor), "autograd"},
    {"sub_.Tensor", CT_KEY_CPU, CT_FN(ct__k_sub_), "reference"},
    {"sub_.Tensor", CT_KEY_META, CT_FN(ct__k_sub_), "reference"},
    {"sub_.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sub__Tensor), "autograd"},
    {"sub.out", CT_KEY_CPU, CT_FN(ct__k_sub_out), "reference"},
    {"sub.out", CT_KEY_META, CT_FN(ct__k_sub_out), "reference"},
    {"sub.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sub_out), "autograd"},
    {"sub.Scalar", CT_KEY_CPU, CT_FN(ct__k_sub_scalar), "reference"},
    {"sub.Scalar", CT_KEY_META, CT_FN(ct__k_sub_scalar), "reference"},
    {"sub.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sub_Scalar), "autograd"},
    {"sub_.Scalar", CT_KEY_CPU, CT_FN(ct__k_sub_scalar_), "reference"},
    {"sub_.Scalar", CT_KEY_META, CT_FN(ct__k_sub_scalar_), "reference"},
    {"sub_.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sub__Scalar), "autograd"},
    {"mul.Tensor", CT_KEY_CPU, CT_FN(ct__k2_mul), "reference"},
    {"mul.Tensor", CT_KEY_META, CT_FN(ct__k2_mul), "reference"},
    {"mul.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mul_Tensor), "autograd"},
    {"mul_.Tensor", CT_KEY_CPU, CT_FN(ct__k2_mul_), "reference"},
    {"mul_.Tensor", CT_KEY_META, CT_FN(ct__k2_mul_), "reference"},
    {"mul_.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mul__Tensor), "autograd"},
    {"mul.out", CT_KEY_CPU, CT_FN(ct__k2_mul_out), "reference"},
    {"mul.out", CT_KEY_META, CT_FN(ct__k2_mul_out), "reference"},
    {"mul.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mul_out), "autograd"},
    {"mul.Scalar", CT_KEY_CPU, CT_FN(ct__k2_mul_scalar), "reference"},
    {"mul.Scalar", CT_KEY_META, CT_FN(ct__k2_mul_scalar), "reference"},
    {"mul.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mul_Scalar), "autograd"},
    {"mul_.Scalar", CT_KEY_CPU, CT_FN(ct__k2_mul_scalar_), "reference"},
    {"mul_.Scalar", CT_KEY_META, CT_FN(ct__k2_mul_scalar_), "reference"},
    {"mul_.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mul__Scalar), "autograd"},
    {"div.Tensor", CT_KEY_CPU, CT_FN(ct__k2_div), "reference"},
    {"div.Tensor", CT_KEY_META, CT_FN(ct__k2_div), "reference"},
    {"div.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_div_Tensor), "autograd"},
    {"div_.Tensor", CT_KEY_CPU, CT_FN(ct__k2_div_), "reference"},
    {"div_.Tensor", CT_KEY_META, CT_FN(ct__k2_div_), "reference"},
    {"div_.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_div__Tensor), "autograd"},
    {"div.out", CT_KEY_CPU, CT_FN(ct__k2_div_out), "reference"},
    {"div.out", CT_KEY_META, CT_FN(ct__k2_div_out), "reference"},
    {"div.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_div_out), "autograd"},
    {"div.Scalar", CT_KEY_CPU, CT_FN(ct__k2_div_scalar), "reference"},
    {"div.Scalar", CT_KEY_META, CT_FN(ct__k2_div_scalar), "reference"},
    {"div.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_div_Scalar), "autograd"},
    {"div_.Scalar", CT_KEY_CPU, CT_FN(ct__k2_div_scalar_), "reference"},
    {"div_.Scalar", CT_KEY_META, CT_FN(ct__k2_div_scalar_), "reference"},
    {"div_.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_div__Scalar), "autograd"},
    {"neg", CT_KEY_CPU, CT_FN(ct__k_neg), "reference"},
    {"neg", CT_KEY_META, CT_FN(ct__k_neg), "reference"},
    {"neg", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_neg), "autograd"},
    {"neg_", CT_KEY_CPU, CT_FN(ct__k_neg_), "reference"},
    {"neg_", CT_KEY_META, CT_FN(ct__k_neg_), "reference"},
    {"neg_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_neg_), "autograd"},
    {"neg.out", CT_KEY_CPU, CT_FN(ct__k_neg_out), "reference"},
    {"neg.out", CT_KEY_META, CT_FN(ct__k_neg_out), "reference"},
    {"neg.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_neg_out), "autograd"},
    {"relu", CT_KEY_CPU, CT_FN(ct__k_relu), "reference"},
    {"relu", CT_KEY_META, CT_FN(ct__k_relu), "reference"},
    {"relu", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_relu), "autograd"},
    {"relu_", CT_KEY_CPU, CT_FN(ct__k_relu_), "reference"},
    {"relu_", CT_KEY_META, CT_FN(ct__k_relu_), "reference"},
    {"relu_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_relu_), "autograd"},
    {"threshold_backward", CT_KEY_CPU, CT_FN(ct__k_threshold_backward), "reference"},
    {"threshold_backward", CT_KEY_META, CT_FN(ct__k_threshold_backward), "reference"},
    {"threshold_backward", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_threshold_backward), "autograd"},
    {"exp", CT_KEY_CPU, CT_FN(ct__k_exp), "reference"},
    {"exp", CT_KEY_META, CT_FN(ct__k_exp), "reference"},
    {"exp", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_exp), "autograd"},
    {"exp_", CT_KEY_CPU, CT_FN(ct__k_exp_), "reference"},
    {"exp_", CT_KEY_META, CT_FN(ct__k_exp_), "reference"},
    {"exp_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_exp_), "autograd"},
    {"exp.out", CT_KEY_CPU, CT_FN(ct__k_exp_out), "reference"},
    {"exp.out", CT_KEY_META, CT_FN(ct__k_exp_out), "reference"},
    {"exp.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_exp_out), "autograd"},
    {"tanh", CT_KEY_CPU, CT_FN(ct__k_tanh), "reference"},
    {"tanh", CT_KEY_META, CT_FN(ct__k_tanh), "reference"},
    {"tanh", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_tanh), "autograd"},
    {"tanh_", CT_KEY_CPU, CT_FN(ct__k_tanh_), "reference"},
    {"tanh_", CT_KEY_META, CT_FN(ct__k_tanh_), "reference"},
    {"tanh_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_tanh_), "autograd"},
    {"tanh.out", CT_KEY_CPU, CT_FN(ct__k_tanh_out), "reference"},
    {"tanh.out", CT_KEY_META, CT_FN(ct__k_tanh_out), "reference"},
    {"tanh.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_tanh_out), "autograd"},
    {"sigmoid", CT_KEY_CPU, CT_FN(ct__k_sigmoid), "reference"},
    {"sigmoid", CT_KEY_META, CT_FN(ct__k_sigmoid), "reference"},
    {"sigmoid", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sigmoid), "autograd"},
    {"sigmoid_", CT_KEY_CPU, CT_FN(ct__k_sigmoid_), "reference"},
    {"sigmoid_", CT_KEY_META, CT_FN(ct__k_sigmoid_), "reference"},
    {"sigmoid_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sigmoid_), "autograd"},
    {"sigmoid.out", CT_KEY_CPU, CT_FN(ct__k_sigmoid_out), "reference"},
    {"sigmoid.out", CT_KEY_META, CT_FN(ct__k_sigmoid_out), "reference"},
    {"sigmoid.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sigmoid_out), "autograd"},
    {"sum", CT_KEY_CPU, CT_FN(ct__k_sum), "reference"},
    {"sum", CT_KEY_META, CT_FN(ct__k_sum), "reference"},
    {"sum", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sum), "autograd"},
    {"sum.dim_IntList", CT_KEY_CPU, CT_FN(ct__k_sum_dim), "reference"},
    {"sum.dim_IntList", CT_KEY_META, CT_FN(ct__k_sum_dim), "reference"},
    {"sum.dim_IntList", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sum_dim_IntList), "autograd"},
    {"sum.IntList_out", CT_KEY_CPU, CT_FN(ct__k_sum_out), "reference"},
    {"sum.IntList_out", CT_KEY_META, CT_FN(ct__k_sum_out), "reference"},
    {"sum.IntList_out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_sum_IntList_out), "autograd"},
    {"mean", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_mean), "composite"},
    {"mean.dim", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_mean_dim), "composite"},
    {"copy_", CT_KEY_CPU, CT_FN(ct__k_copy_), "reference"},
    {"copy_", CT_KEY_META, CT_FN(ct__k_copy_), "reference"},
    {"copy_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_copy_), "autograd"},
    {"fill_.Scalar", CT_KEY_CPU, CT_FN(ct__k_fill_), "reference"},
    {"fill_.Scalar", CT_KEY_META, CT_FN(ct__k_fill_), "reference"},
    {"fill_.Scalar", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_fill__Scalar), "autograd"},
    {"clone", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_clone), "composite"},
    {"clone", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_clone), "autograd"},
    {"contiguous", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_contiguous), "composite"},
    {"_to_copy", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_to_copy), "composite"},
    {"_to_copy", CT_KEY_AUTOGRAD, CT_FN(ct__autograd__to_copy), "autograd"},
    {"to.dtype", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_to_dtype), "composite"},
    {"view", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_view), "composite"},
    {"view", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_view), "autograd"},
    {"reshape", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_reshape), "composite"},
    {"transpose.int", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_transpose), "composite"},
    {"transpose.int", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_transpose_int), "autograd"},
    {"t", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_t), "composite"},
    {"t", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_t), "autograd"},
    {"permute", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_permute), "composite"},
    {"permute", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_permute), "autograd"},
    {"expand", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_expand), "composite"},
    {"expand", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_expand), "autograd"},
    {"broadcast_to", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_broadcast_to), "composite"},
    {"unsqueeze", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_unsqueeze), "composite"},
    {"unsqueeze", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_unsqueeze), "autograd"},
    {"squeeze", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_squeeze), "composite"},
    {"squeeze", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_squeeze), "autograd"},
    {"squeeze.dim", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_squeeze_dim), "composite"},
    {"squeeze.dim", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_squeeze_dim), "autograd"},
    {"flatten.using_ints", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_flatten), "composite"},
    {"select.int", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_select), "composite"},
    {"select.int", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_select_int), "autograd"},
    {"select_backward", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_select_backward), "composite"},
    {"select_backward", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_select_backward), "autograd"},
    {"slice.Tensor", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_slice), "composite"},
    {"slice.Tensor", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_slice_Tensor), "autograd"},
    {"slice_backward", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_slice_backward), "composite"},
    {"slice_backward", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_slice_backward), "autograd"},
    {"narrow", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_narrow), "composite"},
    {"as_strided", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_as_strided), "composite"},
    {"as_strided", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_as_strided), "autograd"},
    {"alias", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_alias), "composite"},
    {"alias", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_alias), "autograd"},
    {"detach", CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, CT_FN(ct__k_detach), "composite"},
    {"detach", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_detach), "autograd"},
    {"dot", CT_KEY_CPU, CT_FN(ct__k_dot), "reference"},
    {"dot", CT_KEY_META, CT_FN(ct__k_dot), "reference"},
    {"dot", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_dot), "autograd"},
    {"dot.out", CT_KEY_CPU, CT_FN(ct__k_dot_out), "reference"},
    {"dot.out", CT_KEY_META, CT_FN(ct__k_dot_out), "reference"},
    {"dot.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_dot_out), "autograd"},
    {"mv", CT_KEY_CPU, CT_FN(ct__k_mv), "reference"},
    {"mv", CT_KEY_META, CT_FN(ct__k_mv), "reference"},
    {"mv", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mv), "autograd"},
    {"mv.out", CT_KEY_CPU, CT_FN(ct__k_mv_out), "reference"},
    {"mv.out", CT_KEY_META, CT_FN(ct__k_mv_out), "reference"},
    {"mv.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mv_out), "autograd"},
    {"mm", CT_KEY_CPU, CT_FN(ct__k_mm), "reference"},
    {"mm", CT_KEY_META, CT_FN(ct__k_mm), "reference"},
    {"mm", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mm), "autograd"},
    {"mm.out", CT_KEY_CPU, CT_FN(ct__k_mm_out), "reference"},
    {"mm.out", CT_KEY_META, CT_FN(ct__k_mm_out), "reference"},
    {"mm.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_mm_out), "autograd"},
    {"bmm", CT_KEY_CPU, CT_FN(ct__k_bmm), "reference"},
    {"bmm", CT_KEY_META, CT_FN(ct__k_bmm), "reference"},
    {"bmm", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_bmm), "autograd"},
    {"bmm.out", CT_KEY_CPU, CT_FN(ct__k_bmm_out), "reference"},
    {"bmm.out", CT_KEY_META, CT_FN(ct__k_bmm_out), "reference"},
    {"bmm.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_bmm_out), "autograd"},
    {"addmm", CT_KEY_CPU, CT_FN(ct__k_addmm), "reference"},
    {"addmm", CT_KEY_META, CT_FN(ct__k_addmm), "reference"},
    {"addmm", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_addmm), "autograd"},
    {"addmm_", CT_KEY_CPU, CT_FN(ct__k_addmm_), "reference"},
    {"addmm_", CT_KEY_META, CT_FN(ct__k_addmm_), "reference"},
    {"addmm_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_addmm_), "autograd"},
    {"addmm.out", CT_KEY_CPU, CT_FN(ct__k_addmm_out), "reference"},
    {"addmm.out", CT_KEY_META, CT_FN(ct__k_addmm_out), "reference"},
    {"addmm.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_addmm_out), "autograd"},
    {"baddbmm", CT_KEY_CPU, CT_FN(ct__k_baddbmm), "reference"},
    {"baddbmm", CT_KEY_META, CT_FN(ct__k_baddbmm), "reference"},
    {"baddbmm", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_baddbmm), "autograd"},
    {"baddbmm_", CT_KEY_CPU, CT_FN(ct__k_baddbmm_), "reference"},
    {"baddbmm_", CT_KEY_META, CT_FN(ct__k_baddbmm_), "reference"},
    {"baddbmm_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_baddbmm_), "autograd"},
    {"baddbmm.out", CT_KEY_CPU, CT_FN(ct__k_baddbmm_out), "reference"},
    {"baddbmm.out", CT_KEY_META, CT_FN(ct__k_baddbmm_out), "reference"},
    {"baddbmm.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_baddbmm_out), "autograd"},
    {"outer", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_outer), "composite"},
    {"matmul", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_matmul), "composite"},
    {"linear", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_linear), "composite"},
    {"uniform_", CT_KEY_CPU, CT_FN(ct__k_uniform_), "reference"},
    {"uniform_", CT_KEY_META, CT_FN(ct__k_uniform_), "reference"},
    {"uniform_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_uniform_), "autograd"},
    {"normal_", CT_KEY_CPU, CT_FN(ct__k_normal_), "reference"},
    {"normal_", CT_KEY_META, CT_FN(ct__k_normal_), "reference"},
    {"normal_", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_normal_), "autograd"},
    {"random_.from", CT_KEY_CPU, CT_FN(ct__k_random_from_), "reference"},
    {"random_.from", CT_KEY_META, CT_FN(ct__k_random_from_), "reference"},
    {"random_.from", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_random__from), "autograd"},
    {"bernoulli_.float", CT_KEY_CPU, CT_FN(ct__k_bernoulli_float_), "reference"},
    {"bernoulli_.float", CT_KEY_META, CT_FN(ct__k_bernoulli_float_), "reference"},
    {"bernoulli_.float", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_bernoulli__float), "autograd"},
    {"bernoulli", CT_KEY_CPU, CT_FN(ct__k_bernoulli), "reference"},
    {"bernoulli", CT_KEY_META, CT_FN(ct__k_bernoulli), "reference"},
    {"bernoulli", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_bernoulli), "autograd"},
    {"bernoulli.p", CT_KEY_CPU, CT_FN(ct__k_bernoulli_p), "reference"},
    {"bernoulli.p", CT_KEY_META, CT_FN(ct__k_bernoulli_p), "reference"},
    {"bernoulli.p", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_bernoulli_p), "autograd"},
    {"rand.generator_out", CT_KEY_CPU, CT_FN(ct__k_rand_out), "reference"},
    {"rand.generator_out", CT_KEY_META, CT_FN(ct__k_rand_out), "reference"},
    {"rand.generator_out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_rand_generator_out), "autograd"},
    {"randn.generator_out", CT_KEY_CPU, CT_FN(ct__k_randn_out), "reference"},
    {"randn.generator_out", CT_KEY_META, CT_FN(ct__k_randn_out), "reference"},
    {"randn.generator_out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_randn_generator_out), "autograd"},
    {"randint.low_generator_out", CT_KEY_CPU, CT_FN(ct__k_randint_out), "reference"},
    {"randint.low_generator_out", CT_KEY_META, CT_FN(ct__k_randint_out), "reference"},
    {"randint.low_generator_out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_randint_low_generator_out), "autograd"},
    {"randperm.generator_out", CT_KEY_CPU, CT_FN(ct__k_randperm_out), "reference"},
    {"randperm.generator_out", CT_KEY_META, CT_FN(ct__k_randperm_out), "reference"},
    {"randperm.generator_out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_randperm_generator_out), "autograd"},
    {"eye.out", CT_KEY_CPU, CT_FN(ct__k_eye_out), "reference"},
    {"eye.out", CT_KEY_META, CT_FN(ct__k_eye_out), "reference"},
    {"eye.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_eye_out), "autograd"},
    {"eye.m_out", CT_KEY_CPU, CT_FN(ct__k_eye_m_out), "reference"},
    {"eye.m_out", CT_KEY_META, CT_FN(ct__k_eye_m_out), "reference"},
    {"eye.m_out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_eye_m_out), "autograd"},
    {"linspace.out", CT_KEY_CPU, CT_FN(ct__k_linspace_out), "reference"},
    {"linspace.out", CT_KEY_META, CT_FN(ct__k_linspace_out), "reference"},
    {"linspace.out", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_linspace_out), "autograd"},
    {"native_dropout", CT_KEY_CPU, CT_FN(ct__k_native_dropout), "reference"},
    {"native_dropout", CT_KEY_META, CT_FN(ct__k_native_dropout), "reference"},
    {"native_dropout", CT_KEY_AUTOGRAD, CT_FN(ct__autograd_native_dropout), "autograd"},
    {"native_dropout_backward", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_native_dropout_backward), "composite"},
    {"dropout", CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD, CT_FN(ct__k_dropout), "composite"},
};

CT_EXTERN_C_END
#endif /* CT__GENERATED_REGISTRATION_IMPL */
/* ---- ctorch/init.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__INIT_IMPL)
#define CT__INIT_IMPL
CT_EXTERN_C_BEGIN

/* Boxed autograd kernel for ops that have none of their own. */
static ct_status ct__autograd_fallback(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *s) {
  int nargs = op->schema.nargs, i, ne = 0, need = 0;
  ct_value *a = s->items + s->size - nargs;
  ct_node *n = NULL;
  ct_keyset excluded;
  ct_status st;
  (void)self;
  for (i = 0; i < nargs; i++)
    if (a[i].tag == CT_VALUE_TENSOR) ne++, need |= ct__needs_grad(a[i].v.tensor);
  if (need && ct__grad_mode()) {
    if (op->schema.nargs && op->schema.args[0].is_write && (st = ct__check_inplace(op->full_name, a[0].v.tensor)) != CT_OK)
      return st;
    n = ct__node_new(&ct__not_impl_kind, sizeof(ct__not_impl_node), ne, op->schema.nrets ? op->schema.nrets : 1);
    if (!n) return ct_last_error();
    ((ct__not_impl_node *)n)->op = op->full_name;
    for (i = 0, ne = 0; i < nargs; i++)
      if (a[i].tag == CT_VALUE_TENSOR) ct__node_set_input(n, ne++, a[i].v.tensor);
  }
  excluded = ct__below_autograd_begin();
  st = ct_redispatch_boxed(op, ks & CT__BELOW_AUTOGRAD, s);
  ct__below_autograd_end(excluded);
  if (n) {
    int nr = op->schema.nrets;
    for (i = 0; st == CT_OK && i < nr && i < s->size; i++) {
      ct_value *v = &s->items[s->size - nr + i];
      if (v->tag == CT_VALUE_TENSOR && v->v.tensor) st = ct__set_history(v->v.tensor, n, i);
    }
    ct__node_release(n);
  }
  return st;
}

static const ct_key ct__default_fallthrough[] = {CT_KEY_BACKEND_SELECT, CT_KEY_AD_INPLACE_OR_VIEW, CT_KEY_AUTOCAST_CPU,
                                                 CT_KEY_AUTOCAST_CUDA};

static void ct__init(void) {
  size_t i;
  int k;
  ct__lock();
  if (ct__initialized) {
    ct__unlock();
    return;
  }
  for (i = 0; i < sizeof ct__generated_adapters / sizeof ct__generated_adapters[0]; i++)
    ct__register_adapter_locked(ct__generated_adapters[i].signature, ct__generated_adapters[i].fn);
  for (i = 0; i < sizeof ct__generated_schemas / sizeof ct__generated_schemas[0]; i++)
  {
    ct_op *op = ct__def_locked(ct__generated_schemas[i].schema, "ct_init");
    if (op) op->frontend = ct__generated_schemas[i].frontend;
    *ct__generated_schemas[i].handle = op;
  }
  for (i = 0; i < sizeof ct__generated_kernels / sizeof ct__generated_kernels[0]; i++) {
    ct_kernel kern = ct_kernel_unboxed(ct__generated_kernels[i].fn);
    kern.source = ct__generated_kernels[i].source;
    ct__impl_locked(ct__generated_kernels[i].op, ct__generated_kernels[i].key, kern, "ct_init");
  }
  for (i = 0; i < sizeof ct__default_fallthrough / sizeof ct__default_fallthrough[0]; i++)
    ct__registry.fallthrough |= ct_keyset_of(ct__default_fallthrough[i]);
  for (k = 0; k < CT_NUM_RUNTIME_KEYS; k++)
    if (ct_key_is_autograd((ct_key)k)) {
      ct__registry.fallbacks[k] = ct_kernel_boxed(ct__autograd_fallback, NULL);
      ct__registry.fallbacks[k].source = "autograd fallback";
    }
  ct__recompute_all();
  ct__atomic_store(&ct__initialized, 1);
  ct__unlock();
}

CT_EXTERN_C_END
#endif /* CT__INIT_IMPL */
/* ---- ctorch/custom.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__CUSTOM_IMPL)
#define CT__CUSTOM_IMPL
CT_EXTERN_C_BEGIN

/* What the registry keeps per custom op with a derivative (never freed:
 * ops live as long as the registry). */
typedef struct ct__custom_info {
  ct_node_kind kind; /* named "<op>Backward" */
  char name[128];
  ct_backward_fn backward;
} ct__custom_info;

/* The node: the call's arguments (tensors saved, lists copied), the output. */
typedef struct ct__custom_node {
  ct_node base;
  const ct_op *op;
  const ct__custom_info *info;
  int nargs;
  ct_value args[CT_MAX_ARGS];
  ct__saved saved[CT_MAX_ARGS];
  int64_t lists[CT_MAX_ARGS][2 * CT_MAX_DIMS];
  ct__saved result;
} ct__custom_node;

static void ct__custom_release(ct_node *node) {
  ct__custom_node *n = (ct__custom_node *)node;
  int i;
  for (i = 0; i < n->nargs; i++) ct__saved_reset(&n->saved[i]);
  ct__saved_reset(&n->result);
}

static ct_status ct__custom_backward(ct_node *node, ct_tensor *const *grads, ct_tensor **grad_inputs) {
  ct__custom_node *n = (ct__custom_node *)node;
  ct_value args[CT_MAX_ARGS];
  ct_backward_ctx c;
  int i;
  for (i = 0; i < n->nargs; i++) {
    args[i] = n->args[i];
    if (args[i].tag == CT_VALUE_TENSOR) {
      args[i].v.tensor = ct__unpack(&n->saved[i], node, n->op->schema.args[i].name);
      if (!args[i].v.tensor) return ct_last_error();
    }
  }
  memset(&c, 0, sizeof c);
  c.op = n->op;
  c.num_args = n->nargs;
  c.args = args;
  c.output = ct__unpack(&n->result, node, "result");
  if (!c.output) return ct_last_error();
  c.grad = grads[0];
  c.node = node;
  return n->info->backward(&c, grad_inputs);
}

CTDEF bool ct_backward_needs(const ct_backward_ctx *ctx, int i) { return ctx && ct_node_needs_input_grad(ctx->node, i); }

/* The autograd kernel of every custom op with a derivative (boxed). */
static ct_status ct__custom_autograd(const ct_kernel *self, const ct_op *op, ct_keyset ks, ct_stack *s) {
  const ct__custom_info *info = (const ct__custom_info *)self->user;
  int nargs = op->schema.nargs, i, ne = 0, need = 0;
  ct_value *a = s->items + s->size - nargs;
  ct__custom_node *n = NULL;
  ct_keyset excluded;
  ct_status st;
  for (i = 0; i < nargs; i++)
    if (a[i].tag == CT_VALUE_TENSOR) ne++, need |= ct__needs_grad(a[i].v.tensor);
  if (need && ct__grad_mode()) {
    n = (ct__custom_node *)ct__node_new(&info->kind, sizeof *n, ne, 1);
    if (!n) return ct_last_error();
    n->op = op;
    n->info = info;
    n->nargs = nargs;
    for (i = 0, ne = 0; i < nargs; i++) {
      n->args[i] = a[i];
      n->args[i].owned = 0;
      if (a[i].tag == CT_VALUE_TENSOR) {
        ct__node_set_input(&n->base, ne++, a[i].v.tensor);
        ct__save(&n->saved[i], a[i].v.tensor);
      } else if (a[i].tag == CT_VALUE_INT_LIST) {
        int64_t m = a[i].v.ints.n, k;
        if (m > 2 * CT_MAX_DIMS) {
          ct__node_release(&n->base);
          return ct_fail(CT_ERR_UNSUPPORTED, op->full_name, "autograd saves at most %d ints of a list", 2 * CT_MAX_DIMS);
        }
        for (k = 0; k < m; k++) n->lists[i][k] = a[i].v.ints.data[k];
        n->args[i].v.ints.data = n->lists[i];
      } else if (a[i].tag == CT_VALUE_TENSOR_LIST || a[i].tag == CT_VALUE_STRING) {
        n->args[i].tag = CT_VALUE_NONE; /* not kept: the derivative cannot use them */
      }
    }
  }
  excluded = ct__below_autograd_begin();
  st = ct_redispatch_boxed(op, ks & CT__BELOW_AUTOGRAD, s);
  ct__below_autograd_end(excluded);
  if (n) {
    ct_tensor *r = s->size ? ct__unbox_tensor(&s->items[s->size - 1]) : NULL;
    if (st == CT_OK && r) st = ct__set_history(r, &n->base, 0);
    if (st == CT_OK && r) st = ct__save_output(&n->result, r);
    ct__node_release(&n->base);
  }
  return st;
}

CTDEF ct_op *ct_define_op(const ct_op_def *def, ct_boxed_fn adapter) {
  static const char *fn = "ct_define_op";
  ct_schema parsed;
  ct_op *op;
  char name[100];
  if (!def) return ct__fail_null(fn, "def"), (ct_op *)NULL;
  if (!def->schema) return ct__fail_null(fn, "schema"), (ct_op *)NULL;
  if (ct_schema_parse(def->schema, &parsed) != CT_OK) return NULL;
  snprintf(name, sizeof name, "%s%s%s", parsed.name, parsed.overload[0] ? "." : "", parsed.overload);
  if (parsed.nrets != 1 || parsed.rets[0].type != CT_TYPE_TENSOR || parsed.rets[0].is_write)
    return ct_fail(CT_ERR_SCHEMA, fn, "%s: custom ops return one new Tensor", name), (ct_op *)NULL;
  if (!def->cpu && !def->cuda && !def->meta && !def->composite)
    return ct_fail(CT_ERR_REGISTRATION, fn, "%s: no kernel given", name), (ct_op *)NULL;
  if (CT_UNLIKELY(!ct__atomic_load(&ct__initialized))) ct__init();
  ct__lock();
  op = ct__find_locked(name);
  if (op) { /* defined before (the constructor and a first call race to it): same schema is fine */
    ct__unlock();
    if (strcmp(op->schema.signature, parsed.signature) != 0)
      return ct_fail(CT_ERR_REGISTRATION, fn, "%s is already defined with another signature", name), (ct_op *)NULL;
    return op;
  }
  if (adapter && !ct__adapter_for(parsed.signature)) ct__register_adapter_locked(parsed.signature, adapter);
  op = ct__def_locked(def->schema, fn);
  if (op) {
    ct_status st = CT_OK;
    ct_kernel k;
    if (def->cpu && st == CT_OK) k = ct_kernel_unboxed(def->cpu), k.source = "custom", st = ct__impl_locked(name, CT_KEY_CPU, k, fn);
    if (def->cuda && st == CT_OK) k = ct_kernel_unboxed(def->cuda), k.source = "custom", st = ct__impl_locked(name, CT_KEY_CUDA, k, fn);
    if (def->meta && st == CT_OK) k = ct_kernel_unboxed(def->meta), k.source = "custom", st = ct__impl_locked(name, CT_KEY_META, k, fn);
    if (def->composite && st == CT_OK)
      k = ct_kernel_unboxed(def->composite), k.source = "custom",
      st = ct__impl_locked(name, CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD, k, fn);
    if (def->backward && st == CT_OK) {
      ct__custom_info *info = (ct__custom_info *)CT_MALLOC(sizeof *info);
      if (!info) {
        st = ct_fail(CT_ERR_OOM, fn, "out of memory");
      } else {
        snprintf(info->name, sizeof info->name, "%sBackward", name);
        info->kind.name = info->name;
        info->kind.backward = ct__custom_backward;
        info->kind.release_saved = ct__custom_release;
        info->backward = def->backward;
        k = ct_kernel_boxed(ct__custom_autograd, info);
        k.source = "custom autograd";
        st = ct__impl_locked(name, CT_KEY_AUTOGRAD, k, fn);
      }
    }
    if (st != CT_OK) op = NULL;
  }
  ct__unlock();
  return op;
}

CTDEF ct_tensor *ct_call_op(const ct_op *op, int nargs, const ct_value *args) {
  ct_value buf[CT_MAX_ARGS + CT_MAX_RETURNS];
  ct_stack s;
  ct_tensor *r = NULL;
  int i;
  if (!op) return ct__fail_null("ct_call_op", "op"), (ct_tensor *)NULL;
  if (nargs < 0 || nargs > CT_MAX_ARGS || (nargs && !args))
    return ct_fail(CT_ERR_INVALID, op->full_name, "bad argument count %d", nargs), (ct_tensor *)NULL;
  for (i = 0; i < nargs; i++)
    if (op->schema.args[i].type == CT_TYPE_TENSOR && !op->schema.args[i].optional &&
        (args[i].tag != CT_VALUE_TENSOR || !args[i].v.tensor))
      return ct__fail_null(op->full_name, op->schema.args[i].name), (ct_tensor *)NULL;
  ct_stack_init(&s, buf, CT_MAX_ARGS + CT_MAX_RETURNS);
  for (i = 0; i < nargs; i++) s.items[s.size++] = args[i];
  if (ct_call_boxed(op, &s) == CT_OK && s.size >= 1 && s.items[0].tag == CT_VALUE_TENSOR) {
    ct_value *v = &s.items[0]; /* the first result; the others are dropped */
    r = v->v.tensor;
    if (v->owned) v->owned = 0;
    else ct_retain(r);
  }
  ct_stack_free(&s);
  return ct__track(r);
}

CT_EXTERN_C_END
#endif /* CT__CUSTOM_IMPL */
/* ---- ctorch/check.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__CHECK_IMPL)
#define CT__CHECK_IMPL
CT_EXTERN_C_BEGIN

static ct_gradcheck_opts ct__gc_defaults(const ct_gradcheck_opts *o) {
  ct_gradcheck_opts d;
  d.eps = o && o->eps > 0 ? o->eps : 1e-6;
  d.atol = o && o->atol > 0 ? o->atol : 1e-5;
  d.rtol = o && o->rtol > 0 ? o->rtol : 1e-3;
  return d;
}

/* fn(inputs) with every input replaced by a detached copy where x[k] += delta */
static ct_tensor *ct__gc_eval(ct_check_fn fn, void *ctx, ct_tensor **copies, int i, int64_t k, double delta) {
  double v = ct_get(copies[i], k);
  ct_tensor *y = NULL;
  ct_set(copies[i], k, v + delta);
  y = fn(copies, ctx); /* in the caller's grad mode: gradgradcheck's function differentiates inside */
  CT_NO_GRAD {
    if (y) y = ct_clone(y); /* a snapshot: the output may be a view of the input we restore next */
  }
  ct_set(copies[i], k, v);
  if (y) ct_retain(y); /* owned here, whatever scope fn's result landed in */
  return y;
}

CTDEF ct_status ct_gradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts) {
  static const char *op = "gradcheck";
  ct_gradcheck_opts o = ct__gc_defaults(opts);
  ct_tensor *copies[CT_MAX_ARGS], *diff[CT_MAX_ARGS], *grads[CT_MAX_ARGS];
  int di[CT_MAX_ARGS], nd = 0, i;
  ct_status st = CT_OK;
  if (!fn) return ct__fail_null(op, "fn");
  if (n < 1 || n > CT_MAX_ARGS || !inputs) return ct_fail(CT_ERR_INVALID, op, "between 1 and %d inputs expected", CT_MAX_ARGS);
  for (i = 0; i < n; i++) {
    if (!inputs[i]) return ct__fail_null(op, "inputs");
    if (ct_requires_grad(inputs[i])) {
      if (inputs[i]->dtype != CT_F64)
        return ct_fail(CT_ERR_DTYPE, op, "input %d requires grad but is %s: gradcheck needs float64 inputs", i,
                       ct_dtype_name((ct_dtype)inputs[i]->dtype));
      di[nd] = i;
      diff[nd++] = inputs[i];
    }
  }
  if (!nd) return ct_fail(CT_ERR_INVALID, op, "no input requires grad");
  CT_SCOPE {
    ct_tensor *y = fn((ct_tensor **)inputs, ctx);
    int64_t ny = y ? y->numel : 0, j, k;
    int d;
    for (i = 0; i < n; i++) copies[i] = NULL;
    if (!y) {
      st = ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_STATE, op, "the function returned NULL");
    } else if (!ct_dtype_is_floating((ct_dtype)y->dtype)) {
      st = ct_fail(CT_ERR_DTYPE, op, "the function's output is %s, not floating", ct_dtype_name((ct_dtype)y->dtype));
    }
    CT_NO_GRAD { /* leaves like the inputs, for the finite differences */
      for (i = 0; st == CT_OK && i < n; i++) {
        copies[i] = ct_clone(inputs[i]);
        if (!copies[i]) st = ct_last_error();
        else if (ct_requires_grad(inputs[i])) st = ct_set_requires_grad(copies[i], true);
      }
    }
    /* row by row: analytic row j (one backward) against numeric entries */
    for (j = 0; st == CT_OK && j < ny; j++) {
      ct_tensor *go = ct_zeros_like(y);
      ct_backward_desc desc;
      if (!go || ct_set(go, j, 1.0) != CT_OK) {
        st = ct_last_error();
        break;
      }
      for (d = 0; d < nd; d++) grads[d] = NULL;
      if (ct_requires_grad(y)) {
        memset(&desc, 0, sizeof desc);
        desc.num_outputs = 1;
        desc.outputs = &y;
        desc.grad_outputs = &go;
        desc.retain_graph = true;
        desc.allow_unused = true;
        if ((st = ct_autograd_grad(&desc, nd, diff, grads)) != CT_OK) break;
        for (d = 0; d < nd; d++) ct__track(grads[d]);
      }
      for (d = 0; st == CT_OK && d < nd; d++) {
        int in = di[d];
        for (k = 0; st == CT_OK && k < inputs[in]->numel; k++) {
          double a = grads[d] ? ct_get(grads[d], k) : 0.0, num;
          ct_tensor *yp = ct__gc_eval(fn, ctx, copies, in, k, o.eps);
          ct_tensor *ym = yp ? ct__gc_eval(fn, ctx, copies, in, k, -o.eps) : NULL;
          if (!yp || !ym) {
            ct_release(yp);
            st = ct_last_error();
            break;
          }
          num = (ct_get(yp, j) - ct_get(ym, j)) / (2 * o.eps);
          ct_release(yp);
          ct_release(ym);
          if (!(fabs(a - num) <= o.atol + o.rtol * fabs(num)))
            st = ct_fail(CT_ERR_STATE, op,
                         "Jacobian mismatch for output element %lld with respect to input %d, element %lld: "
                         "analytic %.10g, numerical %.10g",
                         (long long)j, in, (long long)k, a, num);
        }
      }
    }
  }
  return st;
}

/* gradgradcheck: x -> sum_i <vjp_i(x, v), u_i> */
typedef struct ct__ggc_ctx {
  ct_check_fn fn;
  void *ctx;
  int n;
  ct_tensor *v;
  ct_tensor *u[CT_MAX_ARGS];
} ct__ggc_ctx;

static ct_tensor *ct__ggc_fn(ct_tensor *const *inputs, void *vctx) {
  ct__ggc_ctx *c = (ct__ggc_ctx *)vctx;
  ct_tensor *diff[CT_MAX_ARGS], *grads[CT_MAX_ARGS], *y, *s = NULL;
  int nd = 0, i, d;
  ct_backward_desc desc;
  for (i = 0; i < c->n; i++)
    if (ct_requires_grad(inputs[i])) diff[nd++] = inputs[i];
  y = c->fn(inputs, c->ctx);
  if (!y) return NULL;
  if (!nd || !ct_requires_grad(y)) return ct_mul_scalar(ct_sum(y), ct_int(0)); /* no dependence: zero, not recorded */
  memset(&desc, 0, sizeof desc);
  desc.num_outputs = 1;
  desc.outputs = &y;
  desc.grad_outputs = &c->v;
  desc.create_graph = true;
  desc.allow_unused = true;
  if (ct_autograd_grad(&desc, nd, diff, grads) != CT_OK) return NULL;
  for (i = 0, d = 0; i < c->n; i++) {
    if (!ct_requires_grad(inputs[i])) continue;
    ct__track(grads[d]);
    if (grads[d]) {
      ct_tensor *term = ct_sum(ct_mul(grads[d], c->u[i]));
      s = s ? ct_add(s, term) : term;
    }
    d++;
  }
  return s ? s : ct_mul_scalar(ct_sum(y), ct_int(0));
}

static uint64_t ct__check_rng = 0x9E3779B97F4A7C15ull;
static double ct__check_uniform(void) { /* xorshift: fixed, reproducible directions */
  ct__check_rng ^= ct__check_rng << 13;
  ct__check_rng ^= ct__check_rng >> 7;
  ct__check_rng ^= ct__check_rng << 17;
  return (double)(ct__check_rng >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
static ct_tensor *ct__random_like(ct_tensor *t) {
  ct_tensor *r = ct_empty_opts(t->ndim, t->sizes, ct_opts(CT_F64, t->device));
  int64_t k;
  for (k = 0; r && k < r->numel; k++) ct_set(r, k, ct__check_uniform());
  return r;
}

CTDEF ct_status ct_gradgradcheck(ct_check_fn fn, void *ctx, int n, ct_tensor *const *inputs, const ct_gradcheck_opts *opts) {
  ct__ggc_ctx c;
  ct_status st = CT_OK;
  int i;
  if (!fn) return ct__fail_null("gradgradcheck", "fn");
  if (n < 1 || n > CT_MAX_ARGS || !inputs) return ct_fail(CT_ERR_INVALID, "gradgradcheck", "between 1 and %d inputs expected", CT_MAX_ARGS);
  for (i = 0; i < n; i++)
    if (!inputs[i]) return ct__fail_null("gradgradcheck", "inputs");
  memset(&c, 0, sizeof c);
  c.fn = fn;
  c.ctx = ctx;
  c.n = n;
  CT_SCOPE {
    ct_tensor *y = NULL;
    CT_NO_GRAD { y = fn((ct_tensor **)inputs, ctx); }
    c.v = y ? ct__random_like(y) : NULL;
    for (i = 0; i < n; i++) c.u[i] = ct__random_like(inputs[i]);
    st = c.v ? ct_gradcheck(ct__ggc_fn, &c, n, inputs, opts) : ct_last_error();
  }
  return st;
}

/* ---- opcheck ---- */
static int ct__close(const ct_tensor *a, const ct_tensor *b, double atol, double rtol, char *why, size_t cap) {
  int64_t k;
  char b1[160], b2[160];
  if (!ct_same_shape(a, b)) {
    snprintf(why, cap, "shapes differ: %s vs %s", ct_shape_format(a->ndim, a->sizes, b1, sizeof b1),
             ct_shape_format(b->ndim, b->sizes, b2, sizeof b2));
    return 0;
  }
  if (a->dtype != b->dtype) {
    snprintf(why, cap, "dtypes differ: %s vs %s", ct_dtype_name((ct_dtype)a->dtype), ct_dtype_name((ct_dtype)b->dtype));
    return 0;
  }
  if (a->device.type == CT_DEVICE_META || b->device.type == CT_DEVICE_META) return 1;
  for (k = 0; k < a->numel; k++) {
    double x = ct_get(a, k), y = ct_get(b, k);
    if (x != x && y != y) continue;
    if (!(fabs(x - y) <= atol + rtol * fabs(y))) {
      snprintf(why, cap, "element %lld differs: %.10g vs %.10g", (long long)k, x, y);
      return 0;
    }
  }
  return 1;
}

/* The pending message, copied: a new ct_fail reuses the buffer. */
static const char *ct__copy_message(char *buf, size_t cap) {
  const char *m = ct_last_error_message();
  size_t n = strlen(m);
  if (n >= cap) n = cap - 1;
  memcpy(buf, m, n);
  buf[n] = 0;
  return buf;
}

/* Boxed call on a copy of args; the single result (tracked), or NULL. */
static ct_tensor *ct__opcheck_call(const ct_op *op, int nargs, const ct_value *args) { return ct_call_op(op, nargs, args); }

/* The registry's in-place (name_.overload) and out= (same args + out) variants. */
static const ct_op *ct__find_variant(const ct_op *f, int want_out) {
  int i, j;
  for (i = 0; i < ct__registry.nops; i++) {
    const ct_op *v = ct__registry.ops[i];
    const ct_schema *s = &v->schema;
    size_t nl = strlen(f->schema.name);
    if (want_out) {
      if (strcmp(s->name, f->schema.name) || s->nargs != f->schema.nargs + 1 || strcmp(s->args[s->nargs - 1].name, "out"))
        continue;
    } else {
      if (strncmp(s->name, f->schema.name, nl) || strcmp(s->name + nl, "_") || strcmp(s->overload, f->schema.overload) ||
          s->nargs != f->schema.nargs)
        continue;
    }
    for (j = 0; j < f->schema.nargs; j++)
      if (strcmp(s->args[j].name, f->schema.args[j].name) || s->args[j].type != f->schema.args[j].type) break;
    if (j == f->schema.nargs) return v;
  }
  return NULL;
}

typedef struct ct__opcheck_gc {
  const ct_op *op;
  int nargs;
  ct_value args[CT_MAX_ARGS];
  int tensor_arg[CT_MAX_ARGS]; /* input i of gradcheck is argument tensor_arg[i] */
} ct__opcheck_gc;
static ct_tensor *ct__opcheck_gc_fn(ct_tensor *const *inputs, void *vctx) {
  ct__opcheck_gc *c = (ct__opcheck_gc *)vctx;
  ct_value a[CT_MAX_ARGS];
  int i, t = 0;
  for (i = 0; i < c->nargs; i++) {
    a[i] = c->args[i];
    if (a[i].tag == CT_VALUE_TENSOR && c->tensor_arg[t] == i) a[i].v.tensor = inputs[t++];
  }
  return ct__opcheck_call(c->op, c->nargs, a);
}

CTDEF ct_status ct_opcheck(const char *name, int nargs, const ct_value *args, const ct_opcheck_opts *opts) {
  static const char *fn = "opcheck";
  const ct_op *op;
  ct_value a[CT_MAX_ARGS];
  double atol = opts && opts->atol > 0 ? opts->atol : 1e-6, rtol = opts && opts->rtol > 0 ? opts->rtol : 1e-5;
  char why[512];
  ct_status st = CT_OK;
  int i;
#define CT__LAST (ct__copy_message(why, sizeof why))
  if (!name) return ct__fail_null(fn, "op");
  if (!(op = ct_op_find(name))) return ct_fail(CT_ERR_INVALID, fn, "no op named '%s'", name);
  if (nargs != op->schema.nargs || (nargs && !args))
    return ct_fail(CT_ERR_INVALID, fn, "%s takes %d arguments, got %d", name, op->schema.nargs, nargs);
  for (i = 0; i < nargs; i++) a[i] = args[i];
  if (ct__check_args(op, a, nargs) != CT_OK) return ct_last_error();
  CT_SCOPE {
    ct_tensor *ref = ct__opcheck_call(op, nargs, a);
    if (!ref) st = ct_fail(CT_ERR_STATE, fn, "%s: the op itself failed: %s", name, CT__LAST);
    /* 1. the typed frontend gives what the boxed call gives */
    if (st == CT_OK && op->frontend) {
      ct_tensor *r = NULL;
      if (op->frontend(a, &r) != CT_OK || !r)
        st = ct_fail(CT_ERR_STATE, fn, "%s: the typed frontend failed where the boxed call succeeded: %s", name,
                     CT__LAST);
      else if (!ct__close(r, ref, 0, 0, why, sizeof why))
        st = ct_fail(CT_ERR_STATE, fn, "%s: typed frontend and boxed call disagree: %s", name, why);
    }
    /* 2. the meta kernel predicts the kernel's output */
    if (st == CT_OK) {
      ct_value m[CT_MAX_ARGS];
      ct_tensor *r;
      for (i = 0; i < nargs; i++) {
        m[i] = a[i];
        if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor) {
          ct_tensor *t = a[i].v.tensor;
          m[i].v.tensor = ct_empty_strided(t->ndim, t->sizes, t->strides, ct_opts((ct_dtype)t->dtype, ct_device_make(CT_DEVICE_META, 0)));
          if (!m[i].v.tensor) st = ct_last_error();
        }
      }
      r = st == CT_OK ? ct__opcheck_call(op, nargs, m) : NULL;
      if (st == CT_OK && !r)
        st = ct_fail(CT_ERR_STATE, fn, "%s: the meta (shape) function failed: %s", name, CT__LAST);
      else if (st == CT_OK && !ct__close(r, ref, 0, 0, why, sizeof why))
        st = ct_fail(CT_ERR_STATE, fn, "%s: meta function and kernel disagree: %s", name, why);
      else if (st == CT_OK && r->device.type != CT_DEVICE_META)
        st = ct_fail(CT_ERR_STATE, fn, "%s: meta inputs gave a %s result", name, ct_device_type_name((ct_device_type)r->device.type));
    }
    /* 3. in-place and out= variants agree with the functional op */
    if (st == CT_OK && !op->schema.args[0].is_write) {
      const ct_op *inplace = ct__find_variant(op, 0), *outv = ct__find_variant(op, 1);
      if (inplace && a[0].tag == CT_VALUE_TENSOR && a[0].v.tensor->dtype == ref->dtype && ct_same_shape(a[0].v.tensor, ref)) {
        ct_value b[CT_MAX_ARGS];
        ct_tensor *self = NULL;
        CT_NO_GRAD { self = ct_clone(a[0].v.tensor); }
        for (i = 0; i < nargs; i++) b[i] = a[i];
        b[0].v.tensor = self;
        if (!self || !ct__opcheck_call(inplace, nargs, b))
          st = ct_fail(CT_ERR_STATE, fn, "%s: in-place variant %s failed: %s", name, inplace->full_name, CT__LAST);
        else if (!ct__close(self, ref, atol, rtol, why, sizeof why))
          st = ct_fail(CT_ERR_STATE, fn, "%s: in-place variant %s disagrees: %s", name, inplace->full_name, why);
      }
      if (st == CT_OK && outv) {
        ct_value b[CT_MAX_ARGS];
        int64_t zero = 0;
        ct_tensor *out = ct_empty_opts(1, &zero, ct_opts((ct_dtype)ref->dtype, ref->device)), *r = NULL;
        for (i = 0; i < nargs; i++) b[i] = a[i];
        b[nargs] = ct_value_tensor(out);
        CT_NO_GRAD { r = out ? ct__opcheck_call(outv, nargs + 1, b) : NULL; }
        if (!r)
          st = ct_fail(CT_ERR_STATE, fn, "%s: out= variant %s failed: %s", name, outv->full_name, CT__LAST);
        else if (!ct__close(out, ref, atol, rtol, why, sizeof why))
          st = ct_fail(CT_ERR_STATE, fn, "%s: out= variant %s disagrees: %s", name, outv->full_name, why);
      }
    }
    /* 4. the derivative: gradcheck in float64 on the floating tensor arguments */
    if (st == CT_OK && !(opts && opts->skip_gradcheck) && ct_dtype_is_floating((ct_dtype)ref->dtype) && !op->schema.args[0].is_write) {
      ct__opcheck_gc c;
      ct_tensor *inputs[CT_MAX_ARGS];
      int n = 0, differentiable = 0;
      memset(&c, 0, sizeof c);
      c.op = op;
      c.nargs = nargs;
      for (i = 0; i < nargs; i++) {
        c.args[i] = a[i];
        if (a[i].tag == CT_VALUE_TENSOR && a[i].v.tensor) {
          ct_tensor *t = NULL;
          ct_tensor *src = a[i].v.tensor;
          CT_NO_GRAD { t = ct_to_copy_ex(src, ct_dtype_is_floating((ct_dtype)src->dtype) ? CT_F64 : (ct_dtype)src->dtype); }
          if (!t) {
            st = ct_last_error();
            break;
          }
          if (ct_dtype_is_floating((ct_dtype)t->dtype)) {
            if ((st = ct_set_requires_grad(t, true)) != CT_OK) break;
            differentiable = 1;
          }
          c.tensor_arg[n] = i;
          inputs[n++] = t;
        }
      }
      if (st == CT_OK && differentiable) {
        ct_tensor *probe = ct__opcheck_gc_fn(inputs, &c);
        if (probe && ct_requires_grad(probe)) { /* differentiable output (not detach, not integer) */
          st = ct_gradcheck(ct__opcheck_gc_fn, &c, n, inputs, NULL);
          if (st == CT_OK && opts && opts->gradgradcheck) st = ct_gradgradcheck(ct__opcheck_gc_fn, &c, n, inputs, NULL);
          if (st != CT_OK) st = ct_fail(CT_ERR_STATE, fn, "%s: %s", name, CT__LAST);
        }
      }
    }
  }
#undef CT__LAST
  return st;
}

CT_EXTERN_C_END
#endif /* CT__CHECK_IMPL */
/* ---- ctorch/print.h: implementation ---- */
#if defined(CT__IMPLEMENT) && !defined(CT__PRINT_IMPL)
#define CT__PRINT_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* torch._tensor_str.PRINT_OPTS defaults */
#define CT__PRINT_PRECISION 4
#define CT__PRINT_THRESHOLD 1000
#define CT__PRINT_EDGEITEMS 3
#define CT__PRINT_LINEWIDTH 80

typedef struct ct__print_ctx {
  const ct_tensor *t;   /* a CPU tensor with data */
  int summarize;        /* numel > threshold: show edgeitems per dimension */
  int64_t cstride[CT_MAX_DIMS]; /* row-major strides of the logical index */
  /* the formatter (torch._tensor_str._Formatter) */
  char kind;            /* 'f' floating, 'i' integer, 'b' bool */
  int int_mode, sci_mode, width;
  int64_t nonzero_finite;
  double min_abs, max_abs;
  /* the output, snprintf style */
  char *buf;
  size_t cap, len, line_start; /* line_start: just after the last '\n' */
} ct__print_ctx;

static void ct__print_put(ct__print_ctx *c, const char *s, size_t n) {
  size_t i;
  for (i = n; i > 0; i--) {
    if (s[i - 1] == '\n') {
      c->line_start = c->len + i;
      break;
    }
  }
  if (c->cap > 0 && c->len < c->cap - 1) {
    size_t room = c->cap - 1 - c->len;
    memcpy(c->buf + c->len, s, n < room ? n : room);
  }
  c->len += n;
}
static void ct__print_puts(ct__print_ctx *c, const char *s) { ct__print_put(c, s, strlen(s)); }
static void ct__print_spaces(ct__print_ctx *c, int n) {
  static const char spaces[] = "                                ";
  while (n > 0) {
    int k = n < 32 ? n : 32;
    ct__print_put(c, spaces, (size_t)k);
    n -= k;
  }
}

/* Number of shown entries along a dimension of size n, and the k-th of them. */
static int64_t ct__print_count(const ct__print_ctx *c, int64_t n) {
  return c->summarize && n > 2 * CT__PRINT_EDGEITEMS ? 2 * CT__PRINT_EDGEITEMS : n;
}
static int64_t ct__print_pick(const ct__print_ctx *c, int64_t n, int64_t k) {
  if (c->summarize && n > 2 * CT__PRINT_EDGEITEMS && k >= CT__PRINT_EDGEITEMS) return n - 2 * CT__PRINT_EDGEITEMS + k;
  return k;
}

/* Python's "{:.Nf}" / "{:.Ne}" for a finite double; "nan", "inf", "-inf" otherwise. */
static int ct__print_number(double v, char conv, int precision, char *s, size_t cap) {
  int n;
  if (isnan(v)) n = snprintf(s, cap, "nan");
  else if (isinf(v)) n = snprintf(s, cap, v > 0 ? "inf" : "-inf");
  else n = snprintf(s, cap, conv == 'e' ? "%.*e" : "%.*f", precision, v);
  if (n < 0) n = 0;
  if ((size_t)n >= cap) n = (int)cap - 1;
  return n;
}

/* The element at logical index idx as the formatter writes it, unpadded. */
static int ct__print_raw(const ct__print_ctx *c, int64_t idx, char *s, size_t cap) {
  int n;
  if (c->kind == 'b') {
    n = snprintf(s, cap, "%s", ct_get(c->t, idx) != 0 ? "True" : "False");
  } else if (c->kind == 'i') {
    n = snprintf(s, cap, "%lld", (long long)ct_get_int(c->t, idx));
  } else {
    double v = ct_get(c->t, idx);
    if (c->sci_mode) return ct__print_number(v, 'e', CT__PRINT_PRECISION, s, cap);
    if (!c->int_mode) return ct__print_number(v, 'f', CT__PRINT_PRECISION, s, cap);
    n = ct__print_number(v, 'f', 0, s, cap);
    if (isfinite(v) && (size_t)n + 1 < cap) {
      s[n++] = '.';
      s[n] = '\0';
    }
    return n;
  }
  if (n < 0) n = 0;
  if ((size_t)n >= cap) n = (int)cap - 1;
  return n;
}

/* Formatter passes over the shown elements: 0 gathers the statistics of the
 * nonzero finite floats, 1 measures widths once the mode is known. */
static void ct__print_scan(ct__print_ctx *c, int dim, int64_t base, int pass) {
  const ct_tensor *t = c->t;
  int64_t n, k, count;
  if (dim == t->ndim) {
    char s[512];
    int len;
    if (c->kind == 'f') {
      double v = ct_get(t, base);
      if (!isfinite(v) || v == 0) return;
      if (pass == 0) {
        double a = fabs(v);
        if (c->nonzero_finite == 0 || a < c->min_abs) c->min_abs = a;
        if (c->nonzero_finite == 0 || a > c->max_abs) c->max_abs = a;
        if (v != ceil(v)) c->int_mode = 0;
        c->nonzero_finite++;
        return;
      }
    }
    len = ct__print_raw(c, base, s, sizeof s);
    if (len > c->width) c->width = len;
    return;
  }
  n = t->sizes[dim];
  count = ct__print_count(c, n);
  for (k = 0; k < count; k++) ct__print_scan(c, dim + 1, base + ct__print_pick(c, n, k) * c->cstride[dim], pass);
}

static void ct__print_element(ct__print_ctx *c, int64_t idx) {
  char s[512];
  int len = ct__print_raw(c, idx, s, sizeof s);
  ct__print_spaces(c, c->width - len);
  ct__print_put(c, s, (size_t)len);
}

/* _tensor_str_with_formatter: the sub-tensor from dimension dim on. */
static void ct__print_tensor(ct__print_ctx *c, int dim, int64_t base, int indent) {
  const ct_tensor *t = c->t;
  int rest = t->ndim - dim;
  int64_t n, k, count;
  if (rest == 0) {
    ct__print_element(c, base);
    return;
  }
  n = t->sizes[dim];
  count = ct__print_count(c, n);
  ct__print_puts(c, "[");
  if (rest == 1) { /* _vector_str */
    int per_line = (CT__PRINT_LINEWIDTH - indent) / (c->width + 2);
    int64_t item = 0;
    if (per_line < 1) per_line = 1;
    for (k = 0; k < count; k++) {
      int dots = count < n && k == CT__PRINT_EDGEITEMS;
      int j;
      for (j = dots ? 0 : 1; j < 2; j++, item++) {
        if (item > 0) {
          if (item % per_line == 0) {
            ct__print_puts(c, ",\n");
            ct__print_spaces(c, indent + 1);
          } else {
            ct__print_puts(c, ", ");
          }
        }
        if (j == 0) ct__print_puts(c, " ...");
        else ct__print_element(c, base + ct__print_pick(c, n, k) * c->cstride[dim]);
      }
    }
  } else {
    for (k = 0; k < count; k++) {
      int dots = count < n && k == CT__PRINT_EDGEITEMS;
      int j, r;
      for (j = dots ? 0 : 1; j < 2; j++) {
        if (k > 0 || j == 0) {
          ct__print_puts(c, ",");
          for (r = 0; r < rest - 1; r++) ct__print_puts(c, "\n");
          ct__print_spaces(c, indent + 1);
        }
        if (j == 0) ct__print_puts(c, "...");
        else ct__print_tensor(c, dim + 1, base + ct__print_pick(c, n, k) * c->cstride[dim], indent + 1);
      }
    }
  }
  ct__print_puts(c, "]");
}

/* _tensor_str for a CPU tensor with at least one element. */
static void ct__print_body(ct__print_ctx *c, const ct_tensor *t, int indent) {
  ct_dtype dt = (ct_dtype)t->dtype;
  int64_t s = 1;
  int i;
  c->t = t;
  c->summarize = t->numel > CT__PRINT_THRESHOLD;
  for (i = t->ndim - 1; i >= 0; i--) {
    c->cstride[i] = s;
    s *= t->sizes[i];
  }
  c->kind = dt == CT_BOOL ? 'b' : ct_dtype_is_floating(dt) ? 'f' : 'i';
  c->int_mode = 1;
  c->sci_mode = 0;
  c->width = 1;
  c->nonzero_finite = 0;
  c->min_abs = c->max_abs = 0;
  if (c->kind == 'f') {
    ct__print_scan(c, 0, 0, 0);
    if (c->nonzero_finite > 0) {
      c->sci_mode = c->max_abs / c->min_abs > 1000.0 || c->max_abs > 1.0e8 || (!c->int_mode && c->min_abs < 1.0e-4);
      ct__print_scan(c, 0, 0, 1); /* in integer mode the '.' counts, as in torch */
    }
  } else {
    ct__print_scan(c, 0, 0, 1);
  }
  ct__print_tensor(c, 0, 0, indent);
}

/* "size=(2, 3)", "size=(5,)" or "size=()": str(tuple(t.shape)). Fits in 256. */
static void ct__print_shape(char *s, size_t cap, const ct_tensor *t) {
  char num[32];
  int i;
  s[0] = '\0';
  strncat(s, "size=(", cap - 1);
  for (i = 0; i < t->ndim; i++) {
    snprintf(num, sizeof num, "%lld", (long long)t->sizes[i]);
    if (i) strncat(s, ", ", cap - 1 - strlen(s));
    strncat(s, num, cap - 1 - strlen(s));
  }
  strncat(s, t->ndim == 1 ? ",)" : ")", cap - 1 - strlen(s));
}

/* _add_suffixes: ", suffix", or on a new line when it would pass column 80. */
static void ct__print_suffixes(ct__print_ctx *c, char (*suffixes)[256], int n, int indent) {
  size_t last = c->len - c->line_start + 2; /* as torch counts it */
  int i;
  for (i = 0; i < n; i++) {
    size_t sl = strlen(suffixes[i]);
    if (last + sl + 2 > CT__PRINT_LINEWIDTH) {
      ct__print_puts(c, ",\n");
      ct__print_spaces(c, indent);
      last = (size_t)indent + sl;
    } else {
      ct__print_puts(c, ", ");
      last += sl + 2;
    }
    ct__print_puts(c, suffixes[i]);
  }
  ct__print_puts(c, ")");
}

CTDEF size_t ct_format(const ct_tensor *t, char *buf, size_t cap) {
  static const char *const op = "ct_format";
  static const char prefix[] = "tensor(";
  const int indent = (int)sizeof prefix - 1;
  char suffixes[4][256];
  int nsuffix = 0;
  ct__print_ctx c;
  ct_dtype dt;
  ct_device_type dev;
  ct_tensor *cpu = NULL;
  if (cap > 0 && buf) buf[0] = '\0';
  if (!t) {
    ct__fail_null(op, "t");
    return 0;
  }
  if (!buf && cap > 0) {
    ct__fail_null(op, "buf");
    return 0;
  }
  dt = (ct_dtype)t->dtype;
  dev = (ct_device_type)t->device.type;
  if (!ct_dtype_valid(dt)) {
    ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)t->dtype);
    return 0;
  }
  if ((unsigned)dev >= CT_DEVICE_NUM) {
    ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)t->device.type);
    return 0;
  }
  memset(&c, 0, sizeof c);
  c.buf = buf;
  c.cap = cap;

  /* suffixes in torch's order: device, size, dtype, requires_grad */
  if (dev == CT_DEVICE_META)
    snprintf(suffixes[nsuffix++], sizeof suffixes[0], "device='meta'");
  else if (dev != CT_DEVICE_CPU)
    snprintf(suffixes[nsuffix++], sizeof suffixes[0], "device='%s:%d'", ct_device_type_name(dev), (int)t->device.index);
  if (dev == CT_DEVICE_META || (t->numel == 0 && t->ndim != 1)) ct__print_shape(suffixes[nsuffix++], sizeof suffixes[0], t);
  if ((dev == CT_DEVICE_META || t->numel == 0) ? dt != CT_F32 : (dt != CT_F32 && dt != CT_I64 && dt != CT_BOOL))
    snprintf(suffixes[nsuffix++], sizeof suffixes[0], "dtype=torch.%s", ct_dtype_name(dt));
  if (t->flags & CT_TENSOR_REQUIRES_GRAD) snprintf(suffixes[nsuffix++], sizeof suffixes[0], "requires_grad=True");

  ct__print_puts(&c, prefix);
  if (dev == CT_DEVICE_META) {
    ct__print_puts(&c, "...");
  } else if (t->numel == 0) {
    ct__print_puts(&c, "[]");
  } else {
    const ct_tensor *src = t;
    if (dev != CT_DEVICE_CPU) { /* read a copy, as torch does for xla/lazy tensors */
      cpu = ct__empty(op, t->ndim, t->sizes, dt, CT_CPU);
      if (!cpu || ct_to_array(t, dt, ct_data_ptr(cpu)) != CT_OK) {
        ct_release(cpu);
        if (cap > 0) buf[0] = '\0';
        return 0;
      }
      src = cpu;
    }
    ct__print_body(&c, src, indent);
  }
  ct__print_suffixes(&c, suffixes, nsuffix, indent);
  ct_release(cpu);
  if (cap > 0) buf[c.len < cap ? c.len : cap - 1] = '\0';
  return c.len;
}

static ct_status ct__print_to(FILE *f, const ct_tensor *t, const char *op) {
  char small[1024];
  char *text = small;
  size_t n;
  int ok;
  if (!t) return ct__fail_null(op, "t");
  n = ct_format(t, small, sizeof small);
  if (n == 0) return ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_STATE, op, "formatting failed");
  if (n >= sizeof small) {
    text = (char *)CT_MALLOC(n + 1);
    if (!text) return ct_fail(CT_ERR_OOM, op, "out of memory formatting a tensor (%llu bytes)", (unsigned long long)n + 1);
    ct_format(t, text, n + 1);
  }
  ok = fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF;
  if (text != small) CT_FREE(text);
  if (!ok) return ct_fail(CT_ERR_STATE, op, "writing the text failed");
  return CT_OK;
}

CTDEF ct_status ct_fprint(FILE *f, const ct_tensor *t) {
  if (!f) return ct__fail_null("ct_fprint", "f");
  return ct__print_to(f, t, "ct_fprint");
}
CTDEF ct_status ct_print(const ct_tensor *t) { return ct__print_to(stdout, t, "ct_print"); }

CT_EXTERN_C_END
#endif /* CT__PRINT_IMPL */
#endif /* CTORCH_IMPLEMENTATION */
