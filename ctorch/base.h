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
 * CT_DEBUG           checked build: no block caching (CT_CPU_CACHE_LIMIT 0, so
 *                    AddressSanitizer sees every use after free), released
 *                    tensor handles are quarantined and poisoned, and a
 *                    double release, a use of a released handle or the
 *                    release of a tensor its CT_SCOPE owns is reported where it
 *                    happens (the error handler if one is set, else a message
 *                    on stderr and abort()). Define it for every translation
 *                    unit that includes ctorch.h.
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
#ifdef CT_DEBUG
#define CT_CPU_CACHE_LIMIT 0u
#else
#define CT_CPU_CACHE_LIMIT (64u << 20)
#endif
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
#define CT__HOT_INLINE __attribute__((always_inline)) inline /* steps of one hot path, written apart for reading */
#define CT__SHARED __attribute__((noinline)) /* one copy for hundreds of generated callers: inlining it costs build time */
#define CT_HAVE_CLEANUP 1 /* guards run their exit action on every exit path */
#else
#define CT_LIKELY(x) (x)
#define CT_UNLIKELY(x) (x)
#define CT__PRINTF(f, a)
#define CT__COLD
#define CT__HOT_INLINE inline
#define CT__SHARED
#define CT_HAVE_CLEANUP 0
#endif

CT_EXTERN_C_BEGIN

/* ---- errors --------------------------------------------------------------
 * Every fallible function returns NULL (pointers) or a negative ct_status and
 * leaves a thread-local message "op: what was expected versus what was given".
 * A new failure replaces the last error whole (a checker such as opcheck may
 * prefix only the failure of the call it just made). Success does not clear
 * it; only ct_clear_error() does. A NULL tensor argument while an earlier
 * error is pending passes that error through unchanged, so
 * `ct_relu(ct_add(ct_mm(x, w), b))` reports the first failure of the chain.
 * Nothing is leaked and no state changes on failure.
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

/* ==== implementation ==== */
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
/* Striped locks keyed by an object's address (a leaf whose .grad several
 * threads accumulate into): independent objects rarely share a stripe. */
#define CT__STRIPES 16
static pthread_mutex_t ct__stripe_mutex[CT__STRIPES] = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static pthread_mutex_t *ct__stripe(const void *p) { return &ct__stripe_mutex[((uintptr_t)p >> 6) % CT__STRIPES]; }
static void ct__lock_object(const void *p) { pthread_mutex_lock(ct__stripe(p)); }
static void ct__unlock_object(const void *p) { pthread_mutex_unlock(ct__stripe(p)); }
#else
static void ct__lock(void) {}
static void ct__unlock(void) {}
static void ct__lock_object(const void *p) { (void)p; }
static void ct__unlock_object(const void *p) { (void)p; }
#endif

/* ---- errors -------------------------------------------------------------- */
typedef struct ct__error_state {
  ct_status code;
  uint64_t seq; /* failures recorded on this thread so far (ct_fail calls) */
  char message[512];
} ct__error_state;
static CT__TLS ct__error_state ct__error;
/* The handler and its user pointer are read together by any thread that
 * fails: each setting goes into a slot of its own (a ring: a slot is reused
 * only after 32 more settings) published with one atomic store. */
typedef struct ct__handler_slot {
  ct_error_handler fn;
  void *user;
} ct__handler_slot;
static ct__handler_slot ct__handler_slots[32];
static unsigned ct__handler_next;
static ct__handler_slot *ct__error_handler;

CTDEF ct_status ct_last_error(void) { return ct__error.code; }
CTDEF const char *ct_last_error_message(void) { return ct__error.message; }
CTDEF void ct_clear_error(void) {
  ct__error.code = CT_OK;
  ct__error.message[0] = '\0';
}
CTDEF void ct_set_error_handler(ct_error_handler handler, void *user) {
  ct__handler_slot *slot = NULL;
  if (handler) {
    unsigned i = ct__atomic_add(&ct__handler_next, 1u) - 1u;
    slot = &ct__handler_slots[i % (unsigned)(sizeof ct__handler_slots / sizeof ct__handler_slots[0])];
    slot->fn = handler;
    slot->user = user;
  }
  ct__atomic_store(&ct__error_handler, slot);
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
  ct__error.seq++;
  {
    const ct__handler_slot *h = ct__atomic_load(&ct__error_handler);
    if (h) h->fn(code, ct__error.message, h->user);
  }
  return code;
}

/* A misuse CT_DEBUG catches (double release, ...): the error handler hears
 * it; without one, nothing sensible can follow, so stop here. */
#ifdef CT_DEBUG
static void ct__debug_fault(const char *op, const char *what) {
  ct_fail(CT_ERR_STATE, op, "%s", what);
  if (ct__atomic_load(&ct__error_handler)) return;
  fprintf(stderr, "ctorch (CT_DEBUG): %s\n", ct__error.message);
  abort();
}
#endif

/* Wrapping another call's failure ("opcheck: op: <its message>") is allowed
 * only when that call recorded the failure: take a mark before the call and
 * test ct__error_since(mark) after it. A call can fail without recording
 * (a NULL argument passing an older pending error through, a kernel that
 * returns NULL without ct_fail); the pending message is then stale, from an
 * unrelated earlier failure, and must not be wrapped. */
static uint64_t ct__error_mark(void) { return ct__error.seq; }
static int ct__error_since(uint64_t mark) { return ct__error.seq != mark && ct__error.code != CT_OK; }
/* Save and restore the error state around an internal failure the caller
 * recovers from, so that the recovery neither clears nor replaces an error
 * the user's chain left pending. */
static void ct__error_save(ct__error_state *s) {
  s->code = ct__error.code;
  s->seq = ct__error.seq;
  if (s->code != CT_OK) memcpy(s->message, ct__error.message, sizeof s->message);
  else s->message[0] = '\0';
}
static void ct__error_restore(const ct__error_state *s) {
  ct__error.code = s->code;
  ct__error.seq = s->seq;
  memcpy(ct__error.message, s->message, strlen(s->message) + 1);
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

static int64_t ct__stat_add(int64_t *counter, int64_t delta) { /* NOLINT(readability-non-const-parameter): written by the atomic builtin */
  return ct__atomic_add(counter, delta);
}
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
  char *aligned;
  size_t mis;
  int64_t reserved;
  if (nbytes > SIZE_MAX - 2 * CT__ALIGN) return NULL;
  raw = CT_MALLOC(nbytes + 2 * CT__ALIGN);
  if (!raw) return NULL;
  /* the first CT__ALIGN boundary past raw + CT__ALIGN (room for the raw pointer below it),
   * reached by pointer arithmetic so the result keeps raw's provenance */
  mis = (size_t)((uintptr_t)raw & (CT__ALIGN - 1));
  aligned = (char *)raw + CT__ALIGN + (mis ? CT__ALIGN - mis : 0);
  ((void **)aligned)[-1] = raw;
  ct__stat_add(&ct__global_stats.system_allocs, 1);
  reserved = ct__stat_add(&ct__global_stats.reserved_bytes, (int64_t)nbytes);
  if (reserved > ct__atomic_load(&ct__global_stats.peak_reserved_bytes))
    ct__atomic_store(&ct__global_stats.peak_reserved_bytes, reserved); /* racy max: good enough for a statistic */
  return aligned;
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

static inline void ct__pool_free(void *p, size_t nbytes);
#ifdef CT_DEBUG
/* Released objects (tensor handles) wait here, poisoned, before their memory
 * is reused, so a stale handle is caught when it is used (AddressSanitizer)
 * or released again. */
#define CT__QUARANTINE 4096
typedef struct ct__buried {
  void *p;
  size_t n;
} ct__buried;
static CT__TLS ct__buried ct__quarantine[CT__QUARANTINE];
static CT__TLS int ct__quarantine_next;
static void ct__pool_bury(void *p, size_t n) {
  ct__buried old = ct__quarantine[ct__quarantine_next];
  ct__quarantine[ct__quarantine_next].p = p;
  ct__quarantine[ct__quarantine_next].n = n;
  ct__quarantine_next = (ct__quarantine_next + 1) % CT__QUARANTINE;
  CT__POISON(p, n);
  if (old.p) {
    CT__UNPOISON(old.p, old.n);
    ct__pool_free(old.p, old.n);
  }
}
static void ct__quarantine_flush(void) {
  int i;
  for (i = 0; i < CT__QUARANTINE; i++)
    if (ct__quarantine[i].p) {
      CT__UNPOISON(ct__quarantine[i].p, ct__quarantine[i].n);
      ct__pool_free(ct__quarantine[i].p, ct__quarantine[i].n);
      ct__quarantine[i].p = NULL;
    }
}
#endif

CTDEF void ct_empty_cache(void) {
  int c;
#ifdef CT_DEBUG
  ct__quarantine_flush();
#endif
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

/* Pooled allocation used for data, tensor and storage objects alike. Inline:
 * a hit is a list pop (its size class folds where nbytes is a constant: the
 * tensor and storage objects); a miss goes to the system. */
static void *ct__pool_alloc_miss(size_t nbytes, int c) {
  if (CT_UNLIKELY(!ct__cache.registered)) ct__register_thread();
  return ct__system_alloc(c >= 0 ? ct__class_bytes(c) : nbytes);
}
static CT__HOT_INLINE void *ct__pool_alloc(size_t nbytes) {
  int c = ct__size_class(nbytes ? nbytes : 1);
  ct__free_block *b;
  if (CT_LIKELY(c >= 0) && (b = ct__cache.lists[c]) != NULL) {
    CT__UNPOISON(b, ct__class_bytes(c));
    ct__cache.lists[c] = b->next;
    ct__cache.cached -= ct__class_bytes(c);
    ct__local_add(ct__cache.stats.cached_bytes, -((int64_t)ct__class_bytes(c)));
    return b;
  }
  return ct__pool_alloc_miss(nbytes, c);
}

static void ct__pool_free_miss(void *p, size_t nbytes, int c) { ct__system_free(p, c >= 0 ? ct__class_bytes(c) : nbytes); }
static CT__HOT_INLINE void ct__pool_free(void *p, size_t nbytes) {
  int c;
  if (!p) return;
  c = ct__size_class(nbytes ? nbytes : 1);
  if (CT_LIKELY(c >= 0) && ct__cache.cached + (ct__class_bytes(c)) <= (size_t)CT_CPU_CACHE_LIMIT) {
    ct__free_block *b = (ct__free_block *)p;
    b->next = ct__cache.lists[c];
    ct__cache.lists[c] = b;
    /* Poisoned but for the free-list link: LeakSanitizer does not scan poisoned
     * memory, so a poisoned link would report every cached block as leaked. */
    CT__POISON((char *)b + sizeof *b, ct__class_bytes(c) - sizeof *b);
    ct__cache.cached += ct__class_bytes(c);
    ct__local_add(ct__stats()->cached_bytes, (int64_t)ct__class_bytes(c));
    return;
  }
  ct__pool_free_miss(p, nbytes, c);
}

/* Scratch for kernels and the autograd engine (reduction rows, work lists):
 * blocks of the thread's cache, so that a steady-state loop makes no system
 * allocation. The size is given back on free; ct__scratch_grow returns a
 * larger block holding the old contents (NULL on failure, the old block
 * kept). */
static void *ct__scratch_alloc(size_t nbytes) { return ct__pool_alloc(nbytes); }
static void ct__scratch_free(void *p, size_t nbytes) { ct__pool_free(p, nbytes); }
static void *ct__scratch_grow(void *p, size_t old_bytes, size_t new_bytes) {
  void *q = ct__pool_alloc(new_bytes);
  if (!q) return NULL;
  if (p) {
    memcpy(q, p, old_bytes);
    ct__pool_free(p, old_bytes);
  }
  return q;
}

/* Kernel temporaries (index maps, work arrays, staging buffers): scratch
 * that remembers its size, so a kernel frees it as it would malloc'd
 * memory. The one way ops get host temporaries: a steady-state loop makes
 * no system allocation, and a recorded plan has one place to preallocate
 * them. NULL when out of memory. */
typedef union ct__workspace_head {
  size_t nbytes;
  long double align_ld; /* (the block after it keeps malloc's alignment) */
  void *align_p;
  int64_t align_i;
} ct__workspace_head;
static void *ct__workspace(size_t nbytes) {
  ct__workspace_head *h;
  if (nbytes > SIZE_MAX / 2) return NULL;
  if (!(h = (ct__workspace_head *)ct__scratch_alloc(nbytes + sizeof *h))) return NULL;
  h->nbytes = nbytes + sizeof *h;
  return h + 1;
}
static void ct__workspace_free(void *p) {
  ct__workspace_head *h;
  if (!p) return;
  h = (ct__workspace_head *)p - 1;
  ct__scratch_free(h, h->nbytes);
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
