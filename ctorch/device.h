/* ctorch/device.h - devices, streams, events, copies and device memory.
 * Component of ctorch.h; see there for the overview and licence.
 *
 * A device type (CPU, CUDA, PrivateUse1..3, Meta) is served by a backend
 * that registers one ct_device_interface (c10's DeviceGuardImplInterface
 * plus its Allocator, in one table). Everything above this layer (storage,
 * guards, copy_, to_device, element access, printing) reaches a device only
 * through it. The CPU and Meta interfaces are built in; CUDA is a separately
 * compiled backend (backends/cuda, later) and PrivateUse1 is where the test
 * device of tests/test_device_backend.h plugs in. See docs/device.md.
 *
 * Streams are values (device, id); id 0 is the device's default stream. The
 * current stream is per thread and per device. Events are handles created on
 * a device. Failures return a negative ct_status with a message, never crash.
 *
 * Mapping of each member onto the CUDA runtime (what backends/cuda does):
 *   device_count        cudaGetDeviceCount
 *   get_device          cudaGetDevice
 *   set_device          cudaSetDevice
 *   stream_create       cudaStreamCreateWithPriority(cudaStreamNonBlocking); id = the cudaStream_t
 *   stream_destroy      cudaStreamDestroy
 *   stream_query        cudaStreamQuery (cudaSuccess: done; cudaErrorNotReady: not yet)
 *   stream_synchronize  cudaStreamSynchronize
 *   device_synchronize  cudaSetDevice + cudaDeviceSynchronize
 *   event_create        cudaEventCreateWithFlags(timing ? cudaEventDefault : cudaEventDisableTiming)
 *   event_destroy       cudaEventDestroy
 *   event_record        cudaEventRecord(event, stream)
 *   event_block         cudaStreamWaitEvent(stream, event, 0)
 *   event_query         cudaEventQuery
 *   event_synchronize   cudaEventSynchronize
 *   event_elapsed_ms    cudaEventElapsedTime
 *   copy                cudaMemcpyAsync(kind H2D/D2H/D2D, stream) (+ cudaStreamSynchronize unless async)
 *   alloc/free          the CUDA caching allocator: per-device, per-stream pools over cudaMalloc/cudaFree
 *   record_stream       the caching allocator's recordStream: on free, cudaEventRecord on each
 *                       recorded stream; the block is reused only once cudaEventQuery says done
 *   memory_stats        the caching allocator's counters
 *   empty_cache         cudaFree of every cached, unused block
 *   host_alloc/free     cudaHostAlloc / cudaFreeHost (pinned memory); the core's caching host
 *                       allocator (below) keeps the blocks and records copies' streams on them
 */
#ifndef CT_DEVICE_H
#define CT_DEVICE_H

#include "base.h"
#include "keys.h"

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

/* The most devices of one type this build can address (indices 0 .. 15). */
#define CT_DEVICE_MAX_INDEX 16

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
/* No device: None for a Device? argument (ct_to_copy_ex then keeps the source's device). */
static inline ct_device ct_no_device(void) {
  ct_device d;
  d.type = -1;
  d.index = -1;
  return d;
}
#define CT_NO_DEVICE ct_no_device()
static inline bool ct_device_is_none(ct_device d) { return d.type < 0; }
/* A type this build knows and an index it can address (whether it exists is the backend's to say). */
static inline bool ct__device_valid(ct_device d) {
  return d.type >= 0 && d.type < CT_DEVICE_NUM && d.index >= 0 && d.index < CT_DEVICE_MAX_INDEX;
}
CTDEF const char *ct_device_type_name(ct_device_type t); /* "cpu", "cuda", "meta" */
CTDEF ct_key ct_device_backend_key(ct_device_type t);  /* CT_KEY_CPU for the CPU */

/* A stream: an in-order queue of work on one device. id 0 is the default
 * stream; other ids come from ct_stream_create (the backend chooses them). */
typedef struct ct_stream {
  ct_device device;
  int64_t id;
} ct_stream;
static inline ct_stream ct_stream_make(ct_device device, int64_t id) {
  ct_stream s;
  s.device = device;
  s.id = id;
  return s;
}
static inline bool ct_stream_eq(ct_stream a, ct_stream b) { return ct_device_eq(a.device, b.device) && a.id == b.id; }

/* An event: a marker recorded on a stream. A value holding a backend handle;
 * create it with ct_event_create, destroy it with ct_event_destroy. An event
 * never recorded counts as complete (as in CUDA). */
#define CT_EVENT_TIMING 1u /* elapsed time can be measured */
typedef struct ct_event {
  ct_device device;
  uint32_t flags;
  void *handle;
} ct_event;

typedef enum ct_copy_kind {
  CT_COPY_H2D = 1, /* host to device */
  CT_COPY_D2H = 2, /* device to host */
  CT_COPY_D2D = 3  /* device to device, same type (any indices) */
} ct_copy_kind;

/* Per-device allocator statistics (c10's DeviceStats, reduced). */
typedef struct ct_device_stats {
  int64_t allocated_bytes;      /* handed out and not yet freed */
  int64_t peak_allocated_bytes;
  int64_t allocated_blocks;
  int64_t reserved_bytes;       /* held from the device: allocated + cached + waiting for streams */
  int64_t peak_reserved_bytes;
  int64_t cached_blocks;        /* free blocks kept for reuse */
  int64_t pending_blocks;       /* freed, waiting for another stream's work (record_stream) */
  int64_t num_allocs;           /* alloc calls that succeeded */
  int64_t num_frees;
  int64_t system_allocs;        /* calls to the device's own allocator (cudaMalloc) */
  int64_t system_frees;
} ct_device_stats;

/* What a backend provides. Members marked optional may be NULL; the public
 * functions then report CT_ERR_UNSUPPORTED (or do the trivial thing where
 * noted). Indices passed in are already validated (0 <= index < count).
 * Members report their own failures with ct_fail and return the status. */
typedef struct ct_device_interface {
  const char *name; /* for messages: "cpu", "cuda", "tdev" */
  /* devices */
  int (*device_count)(void);
  int (*get_device)(void);          /* this thread's current device index */
  ct_status (*set_device)(int index);
  ct_status (*device_synchronize)(int index); /* optional: then every stream of the device is synchronized by nothing */
  /* streams (optional: without them only the default stream exists and is synchronous) */
  ct_status (*stream_create)(int index, int priority, int64_t *id); /* id != 0 */
  ct_status (*stream_destroy)(ct_stream s);
  ct_status (*stream_query)(ct_stream s, bool *done);
  ct_status (*stream_synchronize)(ct_stream s);
  /* events (optional as a group) */
  ct_status (*event_create)(int index, uint32_t flags, void **handle);
  void (*event_destroy)(int index, void *handle);
  ct_status (*event_record)(void *handle, ct_stream s);
  ct_status (*event_block)(void *handle, ct_stream s); /* s waits for the event's work */
  ct_status (*event_query)(void *handle, bool *done);
  ct_status (*event_synchronize)(void *handle);
  ct_status (*event_elapsed_ms)(void *start, void *end, double *ms);
  /* copies; ordered on `stream` (a stream of this type: the destination's
   * for H2D and D2D, the source's for D2H). async false: returns when the
   * copy is done; async true: the host buffer must stay valid until then. */
  ct_status (*copy)(void *dst, const void *src, size_t nbytes, ct_copy_kind kind, ct_stream stream, bool async);
  /* memory: blocks belong to a stream; *ctx is the allocator's per-block
   * context, stored in the storage and given back to free/record_stream. */
  void *(*alloc)(int index, ct_stream stream, size_t nbytes, void **ctx); /* NULL on failure */
  void (*free)(int index, void *ptr, size_t nbytes, void *ctx);
  ct_status (*record_stream)(void *ptr, void *ctx, ct_stream s); /* optional */
  ct_status (*memory_stats)(int index, ct_device_stats *out); /* optional */
  void (*empty_cache)(int index); /* optional */
  /* pinned host memory (optional: not offered) */
  void *(*host_alloc)(size_t nbytes, void **ctx);
  void (*host_free)(void *ptr, size_t nbytes, void *ctx);
} ct_device_interface;

/* ---- registry ----
 * One interface per device type, registered once (a second registration is
 * CT_ERR_REGISTRATION; the interface must outlive the program's use of the
 * type). CPU and Meta are built in. Lookups are lock-free and safe from any
 * thread while another registers. */
CTDEF ct_status ct_device_register(ct_device_type type, const ct_device_interface *iface);
CTDEF const ct_device_interface *ct_device_interface_get(ct_device_type type); /* NULL if none (no error set) */
CTDEF int ct_device_count(ct_device_type type); /* 0 if no backend is registered */
/* CT_OK if d names a usable device: known type, interface registered, index in range. */
CTDEF ct_status ct_device_check(const char *op, ct_device d);

/* ---- current device (per thread; CT_DEVICE_GUARD in guard.h scopes it) ---- */
CTDEF ct_status ct_device_set(ct_device d);
/* Sets d as current and stores the previous index of d's type in *previous. */
CTDEF ct_status ct_device_exchange(ct_device d, int *previous);
CTDEF ct_status ct_device_synchronize(ct_device d); /* every stream of the device */

/* ---- default device (per thread; torch.set_default_device) ----
 * Where factories called without a device put new tensors (every factory
 * op with device None, ct_from_array; a random factory given a generator:
 * the generator's device). The CPU unless set; the _like factories and
 * ops' results are unaffected. */
CTDEF ct_status ct_set_default_device(ct_device d);
CTDEF ct_device ct_default_device(void);

/* ---- streams ---- */
CTDEF ct_stream ct_default_stream(ct_device d);
CTDEF ct_stream ct_current_stream(ct_device d); /* this thread's; the default stream unless set */
CTDEF ct_status ct_stream_set(ct_stream s);
CTDEF ct_status ct_stream_exchange(ct_stream s, ct_stream *previous);
CTDEF ct_status ct_stream_create(ct_device d, int priority, ct_stream *out);
CTDEF ct_status ct_stream_destroy(ct_stream s); /* not the default stream */
CTDEF ct_status ct_stream_query(ct_stream s, bool *done);
CTDEF ct_status ct_stream_synchronize(ct_stream s);

/* ---- events ---- */
CTDEF ct_status ct_event_create(ct_device d, uint32_t flags, ct_event *out);
CTDEF void ct_event_destroy(ct_event *e); /* NULL or never created: nothing */
CTDEF ct_status ct_event_record(ct_event *e, ct_stream s); /* s on e's device */
CTDEF ct_status ct_stream_wait_event(ct_stream s, const ct_event *e); /* s blocks until e's work is done */
CTDEF ct_status ct_event_query(const ct_event *e, bool *done);
CTDEF ct_status ct_event_synchronize(const ct_event *e);
CTDEF ct_status ct_event_elapsed_ms(const ct_event *start, const ct_event *end, double *ms); /* both CT_EVENT_TIMING */

/* ---- memory ----
 * ct_device_memcpy copies raw bytes between any two devices with data, on
 * the current streams (the destination's for H2D/D2D, the source's for D2H;
 * a D2D copy whose source stream differs first makes the destination stream
 * wait for the source stream). non_blocking: may return before the copy is
 * done; then host memory involved must stay valid until the stream is
 * synchronized. Between types with no direct path it stages through the host. */
CTDEF ct_status ct_device_memcpy(void *dst, ct_device dst_device, const void *src, ct_device src_device, size_t nbytes,
                                 bool non_blocking);
CTDEF ct_status ct_device_memory_stats(ct_device d, ct_device_stats *out);
CTDEF ct_status ct_device_empty_cache(ct_device d);

/* ---- pinned host memory ----
 * Page-locked host memory that a device type's backend offers (host_alloc;
 * the CPU offers none), kept by one caching host allocator per type here in
 * the core (c10's CachingHostAllocator), so a backend writes only the raw
 * calls. Blocks are rounded up to a power of two and reused. An
 * asynchronous copy that reads or writes a block records the copy's stream
 * on it (ct_host_record_stream); a freed block is handed out again only
 * once that stream's work up to the record is done, so the caller may free
 * the host side of a non_blocking copy at once. Pinned tensors:
 * ct_pin_memory, ct_is_pinned, ct_options.pin_memory (tensor.h).
 * ct_host_alloc: NULL and an error where the type offers no pinned memory;
 * *ctx is the block's context, given back to free and record_stream. */
CTDEF void *ct_host_alloc(ct_device_type type, size_t nbytes, void **ctx);
CTDEF void ct_host_free(ct_device_type type, void *ptr, size_t nbytes, void *ctx);
CTDEF ct_status ct_host_record_stream(void *ctx, ct_stream s); /* ctx from ct_host_alloc; s of the same device type */
CTDEF ct_status ct_host_memory_stats(ct_device_type type, ct_device_stats *out); /* counters of the type's host cache */
CTDEF ct_status ct_host_empty_cache(ct_device_type type); /* frees every cached block no stream still uses */
/* The type whose pinned memory a pin_memory without a device uses: CUDA when
 * it offers pinned memory, else the first PrivateUse type that does;
 * CT_DEVICE_CPU when none does (PyTorch's current accelerator). */
CTDEF ct_device_type ct_host_pinning_type(void);

CT_EXTERN_C_END

#endif /* CT_DEVICE_H */

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__DEVICE_IMPL)
#define CT__DEVICE_IMPL
#include <time.h>
CT_EXTERN_C_BEGIN

static const char *const ct__device_names[CT_DEVICE_NUM] = {"cpu", "cuda", "meta", "privateuseone", "privateusetwo",
                                                            "privateusethree"};
static const ct_key ct__device_keys[CT_DEVICE_NUM] = {CT_KEY_CPU,          CT_KEY_CUDA,         CT_KEY_META,
                                                      CT_KEY_PRIVATEUSE1, CT_KEY_PRIVATEUSE2, CT_KEY_PRIVATEUSE3};

CTDEF const char *ct_device_type_name(ct_device_type t) {
  return (unsigned)t < CT_DEVICE_NUM ? ct__device_names[t] : "invalid";
}
CTDEF ct_key ct_device_backend_key(ct_device_type t) {
  return (unsigned)t < CT_DEVICE_NUM ? ct__device_keys[t] : CT_KEY_UNDEFINED;
}

/* ---- the CPU: one device, synchronous, the caching allocator of base.h ---- */
static double ct__now_ms(void) {
#ifdef TIME_UTC
  struct timespec ts;
  if (timespec_get(&ts, TIME_UTC) == TIME_UTC) return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
#endif
  return (double)clock() * 1e3 / (double)CLOCKS_PER_SEC;
}
static int ct__cpu_count(void) { return 1; }
static int ct__cpu_get_device(void) { return 0; }
static ct_status ct__cpu_set_device(int index) {
  return index == 0 ? CT_OK : ct_fail(CT_ERR_INDEX, "cpu", "device index %d out of range: the CPU has 1 device", index);
}
static ct_status ct__cpu_sync_device(int index) { return (void)index, CT_OK; }
static int64_t ct__cpu_next_stream;
static ct_status ct__cpu_stream_create(int index, int priority, int64_t *id) {
  (void)index;
  (void)priority;
  *id = ct__atomic_add(&ct__cpu_next_stream, 1);
  return CT_OK;
}
static ct_status ct__cpu_stream_destroy(ct_stream s) { return (void)s, CT_OK; }
static ct_status ct__cpu_stream_query(ct_stream s, bool *done) {
  (void)s;
  *done = true;
  return CT_OK;
}
static ct_status ct__cpu_stream_sync(ct_stream s) { return (void)s, CT_OK; }
static ct_status ct__cpu_event_create(int index, uint32_t flags, void **handle) {
  double *t = (double *)CT_MALLOC(sizeof(double));
  (void)index;
  (void)flags;
  if (!t) return ct_fail(CT_ERR_OOM, "cpu", "out of memory creating an event");
  *t = 0;
  *handle = t;
  return CT_OK;
}
static void ct__cpu_event_destroy(int index, void *handle) {
  (void)index;
  CT_FREE(handle);
}
static ct_status ct__cpu_event_record(void *handle, ct_stream s) {
  (void)s;
  *(double *)handle = ct__now_ms();
  return CT_OK;
}
static ct_status ct__cpu_event_block(void *handle, ct_stream s) { return (void)handle, (void)s, CT_OK; }
static ct_status ct__cpu_event_query(void *handle, bool *done) {
  (void)handle;
  *done = true;
  return CT_OK;
}
static ct_status ct__cpu_event_sync(void *handle) { return (void)handle, CT_OK; }
static ct_status ct__cpu_event_elapsed(void *start, void *end, double *ms) {
  *ms = *(const double *)end - *(const double *)start;
  return CT_OK;
}
static ct_status ct__cpu_copy(void *dst, const void *src, size_t nbytes, ct_copy_kind kind, ct_stream s, bool async) {
  (void)kind;
  (void)s;
  (void)async;
  if (nbytes) memmove(dst, src, nbytes);
  return CT_OK;
}
static void *ct__cpu_dev_alloc(int index, ct_stream s, size_t nbytes, void **ctx) {
  (void)index;
  (void)s;
  *ctx = NULL;
  return ct__cpu_alloc(NULL, nbytes);
}
static void ct__cpu_dev_free(int index, void *ptr, size_t nbytes, void *ctx) {
  (void)index;
  ct__cpu_free(ctx, ptr, nbytes);
}
static ct_status ct__cpu_record_stream(void *ptr, void *ctx, ct_stream s) { return (void)ptr, (void)ctx, (void)s, CT_OK; }
static ct_status ct__cpu_memory_stats(int index, ct_device_stats *out) {
  ct_memory_stats m = ct_memory_stats_get();
  (void)index;
  memset(out, 0, sizeof *out);
  out->allocated_bytes = m.live_bytes;
  out->allocated_blocks = m.live_blocks;
  out->reserved_bytes = m.reserved_bytes;
  out->peak_reserved_bytes = m.peak_reserved_bytes;
  out->system_allocs = m.system_allocs;
  out->system_frees = m.system_frees;
  return CT_OK;
}
static void ct__cpu_empty_cache(int index) {
  (void)index;
  ct_empty_cache();
}
static const ct_device_interface ct__cpu_device_interface = {
    "cpu", ct__cpu_count, ct__cpu_get_device, ct__cpu_set_device, ct__cpu_sync_device,
    ct__cpu_stream_create, ct__cpu_stream_destroy, ct__cpu_stream_query, ct__cpu_stream_sync,
    ct__cpu_event_create, ct__cpu_event_destroy, ct__cpu_event_record, ct__cpu_event_block, ct__cpu_event_query,
    ct__cpu_event_sync, ct__cpu_event_elapsed, ct__cpu_copy, ct__cpu_dev_alloc, ct__cpu_dev_free,
    ct__cpu_record_stream, ct__cpu_memory_stats, ct__cpu_empty_cache, NULL, NULL};

/* ---- Meta: one device, no data; streams and events trivial as on the CPU ---- */
static ct_status ct__meta_set_device(int index) {
  return index == 0 ? CT_OK : ct_fail(CT_ERR_INDEX, "meta", "device index %d out of range: meta has 1 device", index);
}
static ct_status ct__meta_copy(void *dst, const void *src, size_t nbytes, ct_copy_kind kind, ct_stream s, bool async) {
  (void)dst, (void)src, (void)nbytes, (void)kind, (void)s, (void)async;
  return ct_fail(CT_ERR_DEVICE, "meta", "a meta tensor has no data to copy");
}
static void *ct__meta_dev_alloc(int index, ct_stream s, size_t nbytes, void **ctx) {
  (void)index, (void)s, (void)nbytes;
  *ctx = NULL;
  return NULL;
}
static void ct__meta_dev_free(int index, void *ptr, size_t nbytes, void *ctx) { (void)index, (void)ptr, (void)nbytes, (void)ctx; }
static const ct_device_interface ct__meta_device_interface = {
    "meta", ct__cpu_count, ct__cpu_get_device, ct__meta_set_device, ct__cpu_sync_device,
    ct__cpu_stream_create, ct__cpu_stream_destroy, ct__cpu_stream_query, ct__cpu_stream_sync,
    ct__cpu_event_create, ct__cpu_event_destroy, ct__cpu_event_record, ct__cpu_event_block, ct__cpu_event_query,
    ct__cpu_event_sync, ct__cpu_event_elapsed, ct__meta_copy, ct__meta_dev_alloc, ct__meta_dev_free,
    NULL, NULL, NULL, NULL, NULL};

/* ---- registry: one pointer per type, published with a release store ---- */
static const ct_device_interface *ct__device_ifaces[CT_DEVICE_NUM] = {&ct__cpu_device_interface, NULL,
                                                                      &ct__meta_device_interface};

CTDEF ct_status ct_device_register(ct_device_type type, const ct_device_interface *iface) {
  static const char *op = "ct_device_register";
  ct_status st = CT_OK;
  if ((unsigned)type >= CT_DEVICE_NUM) return ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)type);
  if (!iface) return ct__fail_null(op, "iface");
  if (!iface->device_count || !iface->get_device || !iface->set_device || !iface->copy || !iface->alloc || !iface->free)
    return ct_fail(CT_ERR_INVALID, op,
                   "interface '%s' for '%s' lacks a required member (device_count, get_device, set_device, copy, alloc, free)",
                   iface->name ? iface->name : "?", ct_device_type_name(type));
  if ((iface->event_create != NULL) != (iface->event_record != NULL) || (iface->host_alloc != NULL) != (iface->host_free != NULL))
    return ct_fail(CT_ERR_INVALID, op, "interface '%s': event and host-memory members come in groups",
                   iface->name ? iface->name : "?");
  ct__lock();
  {
    const ct_device_interface *old = ct__atomic_load(&ct__device_ifaces[type]);
    if (old)
      st = ct_fail(CT_ERR_REGISTRATION, op, "device type '%s' already has an interface ('%s'); a type is registered once",
                   ct_device_type_name(type), old->name ? old->name : "?");
    else
      ct__atomic_store(&ct__device_ifaces[type], iface);
  }
  ct__unlock();
  return st;
}

CTDEF const ct_device_interface *ct_device_interface_get(ct_device_type type) {
  return (unsigned)type < CT_DEVICE_NUM ? ct__atomic_load(&ct__device_ifaces[type]) : NULL;
}

CTDEF int ct_device_count(ct_device_type type) {
  const ct_device_interface *i = ct_device_interface_get(type);
  int n = i ? i->device_count() : 0;
  return n < 0 ? 0 : n > CT_DEVICE_MAX_INDEX ? CT_DEVICE_MAX_INDEX : n;
}

/* The interface serving d, or NULL with an error for a bad device. */
static const ct_device_interface *ct__device_iface(const char *op, ct_device d) {
  const ct_device_interface *i;
  int n;
  if (d.type < 0 || d.type >= CT_DEVICE_NUM) {
    ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)d.type);
    return NULL;
  }
  i = ct_device_interface_get((ct_device_type)d.type);
  if (!i) {
    ct_fail(CT_ERR_DEVICE, op, "no device interface registered for '%s' (is its backend linked?)",
            ct_device_type_name((ct_device_type)d.type));
    return NULL;
  }
  n = ct_device_count((ct_device_type)d.type);
  if (d.index < 0 || d.index >= n) {
    ct_fail(CT_ERR_INDEX, op, "device index %d out of range: '%s' has %d device%s", (int)d.index,
            ct_device_type_name((ct_device_type)d.type), n, n == 1 ? "" : "s");
    return NULL;
  }
  return i;
}

CTDEF ct_status ct_device_check(const char *op, ct_device d) {
  return ct__device_iface(op ? op : "ct_device_check", d) ? CT_OK : ct_last_error();
}

CTDEF ct_status ct_set_default_device(ct_device d) {
  if (ct_device_check("ct_set_default_device", d) != CT_OK) return ct_last_error();
  ct__tls.default_device[0] = d.type, ct__tls.default_device[1] = d.index;
  return CT_OK;
}
CTDEF ct_device ct_default_device(void) { return ct_device_make((ct_device_type)ct__tls.default_device[0], ct__tls.default_device[1]); }
CTDEF ct_status ct_device_set(ct_device d) {
  const ct_device_interface *i = ct__device_iface("ct_device_set", d);
  return i ? i->set_device(d.index) : ct_last_error();
}
CTDEF ct_status ct_device_exchange(ct_device d, int *previous) {
  const ct_device_interface *i = ct__device_iface("ct_device_exchange", d);
  int prev;
  ct_status st;
  if (!i) return ct_last_error();
  prev = i->get_device();
  if (prev != d.index && (st = i->set_device(d.index)) != CT_OK) return st;
  if (previous) *previous = prev;
  return CT_OK;
}
CTDEF ct_status ct_device_synchronize(ct_device d) {
  const ct_device_interface *i = ct__device_iface("ct_device_synchronize", d);
  if (!i) return ct_last_error();
  return i->device_synchronize ? i->device_synchronize(d.index) : CT_OK;
}

/* ---- streams: the current one per thread and device ---- */
static CT__TLS int64_t ct__current_streams[CT_DEVICE_NUM][CT_DEVICE_MAX_INDEX];

CTDEF ct_stream ct_default_stream(ct_device d) { return ct_stream_make(d, 0); }
CTDEF ct_stream ct_current_stream(ct_device d) {
  if (d.type < 0 || d.type >= CT_DEVICE_NUM || d.index < 0 || d.index >= CT_DEVICE_MAX_INDEX) return ct_stream_make(d, 0);
  return ct_stream_make(d, ct__current_streams[d.type][d.index]);
}
CTDEF ct_status ct_stream_exchange(ct_stream s, ct_stream *previous) {
  if (!ct__device_iface("ct_stream_set", s.device)) return ct_last_error();
  if (previous) *previous = ct_current_stream(s.device);
  ct__current_streams[s.device.type][s.device.index] = s.id;
  return CT_OK;
}
CTDEF ct_status ct_stream_set(ct_stream s) { return ct_stream_exchange(s, NULL); }
CTDEF ct_status ct_stream_create(ct_device d, int priority, ct_stream *out) {
  const ct_device_interface *i = ct__device_iface("ct_stream_create", d);
  int64_t id = 0;
  ct_status st;
  if (!out) return ct__fail_null("ct_stream_create", "out");
  if (!i) return ct_last_error();
  if (!i->stream_create)
    return ct_fail(CT_ERR_UNSUPPORTED, "ct_stream_create", "'%s' has only its default stream", i->name);
  if ((st = i->stream_create(d.index, priority, &id)) != CT_OK) return st;
  *out = ct_stream_make(d, id);
  return CT_OK;
}
CTDEF ct_status ct_stream_destroy(ct_stream s) {
  const ct_device_interface *i = ct__device_iface("ct_stream_destroy", s.device);
  if (!i) return ct_last_error();
  if (s.id == 0) return ct_fail(CT_ERR_INVALID, "ct_stream_destroy", "the default stream cannot be destroyed");
  return i->stream_destroy ? i->stream_destroy(s) : CT_OK;
}
CTDEF ct_status ct_stream_query(ct_stream s, bool *done) {
  const ct_device_interface *i = ct__device_iface("ct_stream_query", s.device);
  if (!done) return ct__fail_null("ct_stream_query", "done");
  if (!i) return ct_last_error();
  if (!i->stream_query) return *done = true, CT_OK;
  return i->stream_query(s, done);
}
CTDEF ct_status ct_stream_synchronize(ct_stream s) {
  const ct_device_interface *i = ct__device_iface("ct_stream_synchronize", s.device);
  if (!i) return ct_last_error();
  return i->stream_synchronize ? i->stream_synchronize(s) : CT_OK;
}

/* ---- events ---- */
static const ct_device_interface *ct__event_iface(const char *op, const ct_event *e) {
  const ct_device_interface *i;
  if (!e) {
    ct__fail_null(op, "event");
    return NULL;
  }
  if (!(i = ct__device_iface(op, e->device))) return NULL;
  if (!i->event_create) {
    ct_fail(CT_ERR_UNSUPPORTED, op, "'%s' has no events", i->name);
    return NULL;
  }
  if (!e->handle) {
    ct_fail(CT_ERR_STATE, op, "the event was not created (ct_event_create) or was destroyed");
    return NULL;
  }
  return i;
}
CTDEF ct_status ct_event_create(ct_device d, uint32_t flags, ct_event *out) {
  const ct_device_interface *i = ct__device_iface("ct_event_create", d);
  void *h = NULL;
  ct_status st;
  if (!out) return ct__fail_null("ct_event_create", "out");
  if (!i) return ct_last_error();
  if (!i->event_create) return ct_fail(CT_ERR_UNSUPPORTED, "ct_event_create", "'%s' has no events", i->name);
  if ((st = i->event_create(d.index, flags, &h)) != CT_OK) return st;
  out->device = d;
  out->flags = flags;
  out->handle = h;
  return CT_OK;
}
CTDEF void ct_event_destroy(ct_event *e) {
  const ct_device_interface *i;
  if (!e || !e->handle) return;
  i = ct_device_interface_get((ct_device_type)e->device.type);
  if (i && i->event_destroy) i->event_destroy(e->device.index, e->handle);
  e->handle = NULL;
}
CTDEF ct_status ct_event_record(ct_event *e, ct_stream s) {
  const ct_device_interface *i = ct__event_iface("ct_event_record", e);
  if (!i) return ct_last_error();
  if (!ct_device_eq(e->device, s.device))
    return ct_fail(CT_ERR_DEVICE, "ct_event_record", "event on %s:%d cannot be recorded on a stream of %s:%d",
                   ct_device_type_name((ct_device_type)e->device.type), e->device.index,
                   ct_device_type_name((ct_device_type)s.device.type), s.device.index);
  return i->event_record(e->handle, s);
}
CTDEF ct_status ct_stream_wait_event(ct_stream s, const ct_event *e) {
  const ct_device_interface *i = ct__event_iface("ct_stream_wait_event", e);
  if (!i) return ct_last_error();
  if (e->device.type != s.device.type) { /* another type: the host waits (nothing finer exists) */
    ct_status st = ct_event_synchronize(e);
    return st;
  }
  if (!ct__device_iface("ct_stream_wait_event", s.device)) return ct_last_error();
  return i->event_block ? i->event_block(e->handle, s) : ct_event_synchronize(e);
}
CTDEF ct_status ct_event_query(const ct_event *e, bool *done) {
  const ct_device_interface *i = ct__event_iface("ct_event_query", e);
  if (!done) return ct__fail_null("ct_event_query", "done");
  if (!i) return ct_last_error();
  if (!i->event_query) return *done = true, CT_OK;
  return i->event_query(e->handle, done);
}
CTDEF ct_status ct_event_synchronize(const ct_event *e) {
  const ct_device_interface *i = ct__event_iface("ct_event_synchronize", e);
  if (!i) return ct_last_error();
  return i->event_synchronize ? i->event_synchronize(e->handle) : CT_OK;
}
CTDEF ct_status ct_event_elapsed_ms(const ct_event *start, const ct_event *end, double *ms) {
  static const char *op = "ct_event_elapsed_ms";
  const ct_device_interface *i = ct__event_iface(op, start);
  if (!ms) return ct__fail_null(op, "ms");
  if (!i || !ct__event_iface(op, end)) return ct_last_error();
  if (!ct_device_eq(start->device, end->device)) return ct_fail(CT_ERR_DEVICE, op, "the two events are on different devices");
  if (!(start->flags & end->flags & CT_EVENT_TIMING))
    return ct_fail(CT_ERR_INVALID, op, "both events need CT_EVENT_TIMING to measure elapsed time");
  if (!i->event_elapsed_ms) return ct_fail(CT_ERR_UNSUPPORTED, op, "'%s' cannot time events", i->name);
  return i->event_elapsed_ms(start->handle, end->handle, ms);
}

/* ---- memory ---- */
CTDEF ct_status ct_device_memcpy(void *dst, ct_device dd, const void *src, ct_device sd, size_t nbytes, bool non_blocking) {
  static const char *op = "ct_device_memcpy";
  const ct_device_interface *di, *si;
  if (!nbytes) return CT_OK;
  if (!dst) return ct__fail_null(op, "dst");
  if (!src) return ct__fail_null(op, "src");
  if (!(di = ct__device_iface(op, dd)) || !(si = ct__device_iface(op, sd))) return ct_last_error();
  if (dd.type == CT_DEVICE_META || sd.type == CT_DEVICE_META)
    return ct_fail(CT_ERR_DEVICE, op, "a meta tensor has no data to copy");
  if (sd.type == CT_DEVICE_CPU && dd.type == CT_DEVICE_CPU) {
    memmove(dst, src, nbytes);
    return CT_OK;
  }
  if (sd.type == CT_DEVICE_CPU) return di->copy(dst, src, nbytes, CT_COPY_H2D, ct_current_stream(dd), non_blocking);
  if (dd.type == CT_DEVICE_CPU) return si->copy(dst, src, nbytes, CT_COPY_D2H, ct_current_stream(sd), non_blocking);
  if (sd.type == dd.type) {
    ct_stream ss = ct_current_stream(sd), ds = ct_current_stream(dd);
    ct_status st;
    if (!ct_stream_eq(ss, ds)) { /* the destination stream waits for the source stream's work */
      if (di->event_create) {
        ct_event e;
        if ((st = ct_event_create(sd, 0, &e)) != CT_OK) return st;
        st = ct_event_record(&e, ss);
        if (st == CT_OK) st = ct_stream_wait_event(ds, &e);
        ct_event_destroy(&e);
        if (st != CT_OK) return st;
      } else if ((st = ct_stream_synchronize(ss)) != CT_OK) {
        return st;
      }
    }
    return di->copy(dst, src, nbytes, CT_COPY_D2D, ds, non_blocking);
  }
  { /* two device types: through a host buffer, synchronously */
    void *tmp = ct__cpu_alloc(NULL, nbytes);
    ct_status st;
    if (!tmp) return ct_fail(CT_ERR_OOM, op, "out of memory staging %zu bytes through the host", nbytes);
    st = si->copy(tmp, src, nbytes, CT_COPY_D2H, ct_current_stream(sd), false);
    if (st == CT_OK) st = di->copy(dst, tmp, nbytes, CT_COPY_H2D, ct_current_stream(dd), false);
    ct__cpu_free(NULL, tmp, nbytes);
    return st;
  }
}

CTDEF ct_status ct_device_memory_stats(ct_device d, ct_device_stats *out) {
  const ct_device_interface *i = ct__device_iface("ct_device_stats", d);
  if (!out) return ct__fail_null("ct_device_stats", "out");
  if (!i) return ct_last_error();
  memset(out, 0, sizeof *out);
  return i->memory_stats ? i->memory_stats(d.index, out) : CT_OK;
}
CTDEF ct_status ct_device_empty_cache(ct_device d) {
  const ct_device_interface *i = ct__device_iface("ct_device_empty_cache", d);
  if (!i) return ct_last_error();
  if (i->empty_cache) i->empty_cache(d.index);
  return CT_OK;
}
/* ---- pinned host memory: one caching host allocator per device type ----
 * Free blocks sit in one bin per power of two; a freed block that a stream
 * still uses (events recorded by ct_host_record_stream) waits on the
 * pending list until every event is complete. Events are pooled per type so
 * that a steady stream of copies creates none. Under AddressSanitizer a
 * cached block is poisoned: a pinned tensor's data read after its release
 * fails loudly. One lock (a stripe of base.h) guards it all. */
#define CT__HOST_BINS 48 /* sizes 2^0 .. 2^47 */
typedef struct ct__host_block {
  void *ptr;
  size_t size; /* a power of two */
  void *ctx;   /* the backend's host_alloc context */
  int type, in_use, nevents, cap;
  ct_event *events; /* recorded on the streams that use it */
  struct ct__host_block *next;
} ct__host_block;
static struct {
  ct__host_block *bins[CT_DEVICE_NUM][CT__HOST_BINS];
  ct__host_block *pending[CT_DEVICE_NUM];
  ct_event *event_pool[CT_DEVICE_NUM];
  int pool_n[CT_DEVICE_NUM], pool_cap[CT_DEVICE_NUM];
  ct_device_stats stats[CT_DEVICE_NUM];
} ct__host;
static void ct__host_lock(void) { ct__lock_object(&ct__host); }
static void ct__host_unlock(void) { ct__unlock_object(&ct__host); }

static int ct__host_bin(size_t nbytes, size_t *size) {
  int b = 0;
  while (b < CT__HOST_BINS && ((size_t)1 << b) < nbytes) b++;
  if (b < CT__HOST_BINS) *size = (size_t)1 << b;
  return b;
}
static void ct__host_peak(ct_device_stats *st) {
  if (st->allocated_bytes > st->peak_allocated_bytes) st->peak_allocated_bytes = st->allocated_bytes;
  if (st->reserved_bytes > st->peak_reserved_bytes) st->peak_reserved_bytes = st->reserved_bytes;
}
static void ct__host_cache_block(ct__host_block *b) {
  int bin;
  size_t size = 0;
  bin = ct__host_bin(b->size, &size);
  CT__POISON(b->ptr, b->size);
  b->next = ct__host.bins[b->type][bin];
  ct__host.bins[b->type][bin] = b;
  ct__host.stats[b->type].cached_blocks++;
}
/* (lock held) pending blocks whose events are all complete become free;
 * their events go back to the pool. */
static void ct__host_process_pending(int type) {
  ct__host_block **p = &ct__host.pending[type];
  while (*p) {
    ct__host_block *b = *p;
    int i, done = 1;
    for (i = 0; i < b->nevents && done; i++) {
      bool d = true;
      if (ct_event_query(&b->events[i], &d) != CT_OK) d = true; /* a failed query: the device is gone or broken */
      done = d;
    }
    if (!done) {
      p = &b->next;
      continue;
    }
    *p = b->next;
    for (i = 0; i < b->nevents; i++) {
      if (ct__host.pool_n[type] < ct__host.pool_cap[type]) ct__host.event_pool[type][ct__host.pool_n[type]++] = b->events[i];
      else ct_event_destroy(&b->events[i]);
    }
    b->nevents = 0;
    ct__host.stats[type].pending_blocks--;
    ct__host_cache_block(b);
  }
}
static void ct__host_release_cached(int type, const ct_device_interface *i) {
  int bin;
  for (bin = 0; bin < CT__HOST_BINS; bin++)
    while (ct__host.bins[type][bin]) {
      ct__host_block *b = ct__host.bins[type][bin];
      ct__host.bins[type][bin] = b->next;
      CT__UNPOISON(b->ptr, b->size);
      i->host_free(b->ptr, b->size, b->ctx);
      ct__host.stats[type].reserved_bytes -= (int64_t)b->size;
      ct__host.stats[type].cached_blocks--;
      ct__host.stats[type].system_frees++;
      CT_FREE(b->events);
      CT_FREE(b);
    }
}
static bool ct__host_offered(ct_device_type type) {
  const ct_device_interface *i = ct_device_interface_get(type);
  return i && i->host_alloc;
}
static const ct_device_interface *ct__host_iface(const char *op, ct_device_type type) {
  const ct_device_interface *i;
  if ((unsigned)type >= CT_DEVICE_NUM) return ct_fail(CT_ERR_DEVICE, op, "invalid device type %d", (int)type), (const ct_device_interface *)NULL;
  i = ct_device_interface_get(type);
  if (!i || !i->host_alloc)
    return ct_fail(CT_ERR_UNSUPPORTED, op, "'%s' offers no pinned host memory%s", ct_device_type_name(type),
                   i ? "" : " (no device interface registered: is its backend linked?)"),
           (const ct_device_interface *)NULL;
  return i;
}

CTDEF void *ct_host_alloc(ct_device_type type, size_t nbytes, void **ctx) {
  static const char *op = "ct_host_alloc";
  const ct_device_interface *i;
  ct__host_block *b;
  ct_device_stats *st;
  size_t size = 0;
  int bin;
  if (!ctx) return ct__fail_null(op, "ctx"), (void *)NULL;
  *ctx = NULL;
  if (!(i = ct__host_iface(op, type))) return NULL;
  bin = ct__host_bin(nbytes ? nbytes : 1, &size);
  if (bin == CT__HOST_BINS) return ct_fail(CT_ERR_OOM, op, "%zu bytes of pinned memory is more than can be allocated", nbytes), (void *)NULL;
  st = &ct__host.stats[type];
  ct__host_lock();
  ct__host_process_pending(type);
  b = ct__host.bins[type][bin];
  if (b) {
    ct__host.bins[type][bin] = b->next;
    st->cached_blocks--;
    CT__UNPOISON(b->ptr, b->size);
  } else {
    void *bctx = NULL, *p = i->host_alloc(size, &bctx);
    if (!p) { /* give the cache back to the system and try once more */
      ct__host_release_cached(type, i);
      p = i->host_alloc(size, &bctx);
    }
    b = p ? (ct__host_block *)CT_MALLOC(sizeof *b) : NULL;
    if (!b) {
      if (p) i->host_free(p, size, bctx);
      ct__host_unlock();
      return ct_fail(CT_ERR_OOM, op, "out of pinned memory allocating %zu bytes on '%s'", size, ct_device_type_name(type)),
             (void *)NULL;
    }
    memset(b, 0, sizeof *b);
    b->ptr = p;
    b->size = size;
    b->ctx = bctx;
    b->type = (int)type;
    st->reserved_bytes += (int64_t)size;
    st->system_allocs++;
  }
  b->in_use = 1;
  b->next = NULL;
  st->allocated_bytes += (int64_t)size;
  st->allocated_blocks++;
  st->num_allocs++;
  ct__host_peak(st);
  ct__host_unlock();
  *ctx = b;
  return b->ptr;
}
/* cppcheck-suppress constParameter ; a free function takes the pointer it frees as void *, as free() */
CTDEF void ct_host_free(ct_device_type type, void *ptr, size_t nbytes, void *ctx) {
  ct__host_block *b = (ct__host_block *)ctx;
  (void)nbytes;
  if (!ptr || !b || b->ptr != ptr || (int)type != b->type) return;
  ct__host_lock();
  b->in_use = 0;
  ct__host.stats[type].allocated_bytes -= (int64_t)b->size;
  ct__host.stats[type].allocated_blocks--;
  ct__host.stats[type].num_frees++;
  if (b->nevents) {
    b->next = ct__host.pending[type];
    ct__host.pending[type] = b;
    ct__host.stats[type].pending_blocks++;
  } else {
    ct__host_cache_block(b);
  }
  ct__host_unlock();
}
CTDEF ct_status ct_host_record_stream(void *ctx, ct_stream s) {
  static const char *op = "ct_host_record_stream";
  ct__host_block *b = (ct__host_block *)ctx;
  const ct_device_interface *i;
  ct_event e;
  ct_status st;
  int type = s.device.type;
  if (!b) return ct__fail_null(op, "ctx");
  if (type != b->type)
    return ct_fail(CT_ERR_DEVICE, op, "pinned memory of '%s' cannot be recorded on a stream of '%s'",
                   ct_device_type_name((ct_device_type)b->type), ct_device_type_name((ct_device_type)type));
  if (ct_device_check(op, s.device) != CT_OK) return ct_last_error();
  i = ct_device_interface_get((ct_device_type)type);
  if (!i->event_create) return ct_stream_synchronize(s); /* no events: the work is done when this returns */
  ct__host_lock();
  e.handle = NULL;
  if (ct__host.pool_n[type]) { /* a pooled event of the same device, else a new one */
    int k;
    for (k = ct__host.pool_n[type] - 1; k >= 0; k--)
      if (ct_device_eq(ct__host.event_pool[type][k].device, s.device)) {
        e = ct__host.event_pool[type][k];
        ct__host.event_pool[type][k] = ct__host.event_pool[type][--ct__host.pool_n[type]];
        break;
      }
  }
  if (!e.handle && (st = ct_event_create(s.device, 0, &e)) != CT_OK) return ct__host_unlock(), st;
  if (b->nevents == b->cap) {
    int cap = b->cap ? 2 * b->cap : 4;
    ct_event *grown = (ct_event *)CT_REALLOC(b->events, sizeof *grown * (size_t)cap);
    if (!grown) {
      ct_event_destroy(&e);
      ct__host_unlock();
      return ct_fail(CT_ERR_OOM, op, "out of memory recording a stream");
    }
    b->events = grown;
    b->cap = cap;
  }
  if ((st = ct_event_record(&e, s)) != CT_OK) {
    ct_event_destroy(&e);
    ct__host_unlock();
    return st;
  }
  b->events[b->nevents++] = e;
  if (ct__host.pool_cap[type] < b->nevents + ct__host.pool_n[type]) { /* room to pool this block's events later */
    int cap = 2 * (b->nevents + ct__host.pool_n[type]);
    ct_event *grown = (ct_event *)CT_REALLOC(ct__host.event_pool[type], sizeof *grown * (size_t)cap);
    if (grown) ct__host.event_pool[type] = grown, ct__host.pool_cap[type] = cap; /* (else surplus events are destroyed) */
  }
  ct__host_unlock();
  return CT_OK;
}
CTDEF ct_status ct_host_memory_stats(ct_device_type type, ct_device_stats *out) {
  if (!out) return ct__fail_null("ct_host_memory_stats", "out");
  if (!ct__host_iface("ct_host_memory_stats", type)) return ct_last_error();
  ct__host_lock();
  ct__host_process_pending((int)type);
  *out = ct__host.stats[type];
  ct__host_unlock();
  return CT_OK;
}
CTDEF ct_status ct_host_empty_cache(ct_device_type type) {
  const ct_device_interface *i = ct__host_iface("ct_host_empty_cache", type);
  if (!i) return ct_last_error();
  ct__host_lock();
  ct__host_process_pending((int)type);
  ct__host_release_cached((int)type, i);
  ct__host_unlock();
  return CT_OK;
}
CTDEF ct_device_type ct_host_pinning_type(void) {
  static const ct_device_type order[] = {CT_DEVICE_CUDA, CT_DEVICE_PRIVATEUSE1, CT_DEVICE_PRIVATEUSE2, CT_DEVICE_PRIVATEUSE3};
  size_t k;
  for (k = 0; k < sizeof order / sizeof order[0]; k++) {
    const ct_device_interface *i = ct_device_interface_get(order[k]);
    if (i && i->host_alloc && i->device_count() > 0) return order[k]; /* (a backend without devices cannot pin) */
  }
  return CT_DEVICE_CPU;
}

CT_EXTERN_C_END
#endif /* CT__DEVICE_IMPL */
