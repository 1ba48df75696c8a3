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
 *   32-37 Autograd<backend>        bit = backend bit + 30 (CPU 32, ..., Meta 37)
 *   24    ADInplaceOrView          version counters and view bookkeeping
 *   20    BackendSelect            factories choosing a backend
 *   2-9   backends: CPU=2, CUDA=3, PrivateUse1..3=4..6, Meta=7 (8-9 free)
 *   0-1   Undefined (never set: an empty set is 0)
 *
 * Invariants:
 *  - Functionality keys sit above every backend key: a functionality wraps
 *    a backend and redispatches below itself (ks & ct_keys_below(key)).
 *  - ctorch maps (Autograd, backend) to one flat key per backend, so the
 *    dispatch table has one slot per bit (64 slots) and no second lookup.
 *  - A tensor's own key set holds its backend key, plus the backend's
 *    autograd key while it takes part in autograd.
 *  - Meta is the highest backend (as in c10): a call that sees a meta tensor,
 *    or Meta in the thread's included keys, runs the meta kernel whatever
 *    other devices its arguments are on (shape inference never touches data).
 *  - Alias keys (CompositeImplicitAutograd, CompositeExplicitAutograd,
 *    Autograd) exist only for registration; they expand to runtime keys.
 */
#ifndef CT_KEYS_H
#define CT_KEYS_H

#include "base.h"

CT_EXTERN_C_BEGIN

typedef uint64_t ct_keyset;

#define CT_KEY_TABLE(X)                                   \
  X(CT_KEY_UNDEFINED, 0, "Undefined")                     \
  X(CT_KEY_CPU, 2, "CPU")                                 \
  X(CT_KEY_CUDA, 3, "CUDA")                               \
  X(CT_KEY_PRIVATEUSE1, 4, "PrivateUse1")                 \
  X(CT_KEY_PRIVATEUSE2, 5, "PrivateUse2")                 \
  X(CT_KEY_PRIVATEUSE3, 6, "PrivateUse3")                 \
  X(CT_KEY_META, 7, "Meta")                               \
  X(CT_KEY_BACKEND_SELECT, 20, "BackendSelect")           \
  X(CT_KEY_AD_INPLACE_OR_VIEW, 24, "ADInplaceOrView")     \
  X(CT_KEY_AUTOGRAD_CPU, 32, "AutogradCPU")               \
  X(CT_KEY_AUTOGRAD_CUDA, 33, "AutogradCUDA")             \
  X(CT_KEY_AUTOGRAD_PRIVATEUSE1, 34, "AutogradPrivateUse1") \
  X(CT_KEY_AUTOGRAD_PRIVATEUSE2, 35, "AutogradPrivateUse2") \
  X(CT_KEY_AUTOGRAD_PRIVATEUSE3, 36, "AutogradPrivateUse3") \
  X(CT_KEY_AUTOGRAD_META, 37, "AutogradMeta")             \
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
  return (b >= CT_KEY_CPU && b <= CT_KEY_META) ? (ct_key)(b + CT_AUTOGRAD_KEY_OFFSET) : CT_KEY_AUTOGRAD_OTHER;
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
  int undo_n;        /* out= resizes logged for the outermost call (dispatch.h) */
  struct ct__scope *scope;
  int8_t device_index[8]; /* current device index per device type */
  int8_t default_device[2]; /* type, index of factories' device (device.h); zero: the CPU */
  int8_t fallback_device[2]; /* type, index of the device a CPU fallback computes for (fallback.h); zero: none */
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

/* ==== implementation ==== */
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
/* The named keys as two bit masks (runtime keys < 64, alias keys from 64), so
 * that validity is a test, not a name lookup: dispatch tables test every key. */
#define CT__X(name, bit, str) | ((bit) < 64 ? (uint64_t)1 << ((bit) & 63) : 0)
static const uint64_t ct__named_keys_lo = 0 CT_KEY_TABLE(CT__X);
#undef CT__X
#define CT__X(name, bit, str) | ((bit) >= 64 && (bit) < 128 ? (uint64_t)1 << (((bit) - 64) & 63) : 0)
static const uint64_t ct__named_keys_hi = 0 CT_KEY_TABLE(CT__X);
#undef CT__X
CTDEF bool ct_key_valid(ct_key k) {
  unsigned b = (unsigned)k;
  return k != CT_KEY_UNDEFINED && (b < 64 ? (ct__named_keys_lo >> b) & 1 : b < 128 ? (ct__named_keys_hi >> (b - 64)) & 1 : 0);
}

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
