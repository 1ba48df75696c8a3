/* backends/cuda/cuda_device.c - the CUDA backend: the device interface over
 * the CUDA runtime, a caching device allocator, pinned host memory, the
 * pointwise loop and cuBLAS GEMMs. C11; the kernels are in cuda_kernels.cu.
 *
 * What it registers (ct_cuda_register, run by a load-time constructor):
 *   - ct_device_register(CT_DEVICE_CUDA): devices, the current device (the
 *     runtime's, per thread), streams (id 0: the device's legacy default
 *     stream; created streams are cudaStreamNonBlocking, id = the handle),
 *     events, copies (cudaMemcpyAsync, synchronous unless asked), the
 *     caching allocator below, cudaHostAlloc'd pinned host memory (the core
 *     caches it and records copies' streams on it);
 *   - ct_fallback(CT_KEY_CUDA, ct_cpu_fallback): every op without a CUDA
 *     kernel runs on the CPU, so every model runs;
 *   - ct_set_pointwise_loop(CT_DEVICE_CUDA): every op of the pointwise
 *     engine (arithmetic, comparisons, clamp, where, copy_ and fill_ of any
 *     dtypes and strides, the unary functions and activations) runs as one
 *     CUDA kernel; a function without a CUDA form (nan_to_num, erfinv,
 *     digamma, the binary math functions, ...) computes on the host;
 *   - ct_set_reduction_loop(CT_DEVICE_CUDA): the reduction engine's
 *     reductions (sum, prod, mean, amax / amin, var / std, norms,
 *     logsumexp, all / any, nansum, nanmean, count_nonzero, argmax /
 *     argmin, max / min with indices), cumsum / cumprod and softmax /
 *     log_softmax run as CUDA kernels; sort, topk, kthvalue, median,
 *     cummax / cummin, logcumsumexp and the derivative helpers are staged
 *     on the host;
 *   - ct_set_index_loop(CT_DEVICE_CUDA): gather, scatter, scatter_add,
 *     index_select, index_add, index_copy, embedding;
 *   - ct_set_random_loop(CT_DEVICE_CUDA): uniform_, normal_, random_,
 *     bernoulli, rand_like / randn_like, the rand / randn / randint out=
 *     forms and native_dropout compute ctorch's Philox streams on the device;
 *   - cuBLAS kernels for mm, addmm, bmm, baddbmm (and out= forms) in f32,
 *     f64, f16 and bf16: transposed operands go to cuBLAS as transposes;
 *     other layouts and dtypes go to the CPU fallback.
 * Without a GPU (or a driver) the interface reports zero devices, and any
 * CUDA tensor is ct_device_check's clear CT_ERR_DEVICE error.
 *
 * The caching allocator (c10's CUDACachingAllocator, reduced):
 *   - sizes round up to 512 bytes; requests up to 1 MiB come from the small
 *     pool (2 MiB segments), larger ones from the large pool (20 MiB
 *     segments below 10 MiB, else the size rounded up to 2 MiB);
 *   - a block belongs to the stream it was allocated on; a request takes the
 *     best-fitting free block of its stream and pool, splitting it when the
 *     rest is worth keeping (>= 512 bytes small, > 1 MiB large); a freed
 *     block merges with free neighbours of its segment;
 *   - record_stream: a block used on other streams gets an event recorded on
 *     each of them when freed and is reused only once they have completed;
 *   - cudaMalloc failing frees every cached segment and retries; failing
 *     again is CT_ERR_OOM with the sizes in the message;
 *   - statistics (ct_device_memory_stats): allocated, reserved, peaks,
 *     cached and pending blocks, cudaMalloc / cudaFree calls.
 */
#include "ctorch.h"
#include "ctorch_cuda.h"
#include "cuda_internal.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef char ctcu_dims_check[CTCU_MAX_DIMS == CT_MAX_DIMS ? 1 : -1];
#define CTCU_SAME(a, b) ((int)(a) == (int)(b))
typedef char ctcu_dtype_check[(CTCU_SAME(CTCU_F32, CT_F32) && CTCU_SAME(CTCU_F64, CT_F64) && CTCU_SAME(CTCU_F16, CT_F16) &&
                               CTCU_SAME(CTCU_BF16, CT_BF16) && CTCU_SAME(CTCU_I64, CT_I64) && CTCU_SAME(CTCU_I32, CT_I32) &&
                               CTCU_SAME(CTCU_U8, CT_U8) && CTCU_SAME(CTCU_BOOL, CT_BOOL))
                                  ? 1
                                  : -1];

#define CTCU_VERSION "ctorch-cuda 0.1"

/* ---- errors ---- */
static ct_status ctcu_fail(cudaError_t e, const char *op, const char *what) {
  cudaGetLastError(); /* (clears a sticky-free error so the next call starts clean) */
  return ct_fail(e == cudaErrorMemoryAllocation ? CT_ERR_OOM : CT_ERR_DEVICE, op, "CUDA error in %s: %s (%s)", what,
                 cudaGetErrorString(e), cudaGetErrorName(e));
}
#define CTCU_TRY(call, op)                                     \
  do {                                                         \
    cudaError_t ctcu_e_ = (call);                              \
    if (ctcu_e_ != cudaSuccess) return ctcu_fail(ctcu_e_, op, #call); \
  } while (0)

/* ---- devices ---- */
static int ctcu_count = -1; /* cached: devices never appear at run time */
static pthread_once_t ctcu_count_once = PTHREAD_ONCE_INIT;
static void ctcu_count_init(void) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) { /* no driver, no device: zero devices, not an error */
    cudaGetLastError();
    n = 0;
  }
  if (n > CT_DEVICE_MAX_INDEX) n = CT_DEVICE_MAX_INDEX;
  ctcu_count = n;
}
static int ctcu_device_count(void) {
  pthread_once(&ctcu_count_once, ctcu_count_init);
  return ctcu_count;
}
CTDEF int ct_cuda_device_count(void) { return ctcu_device_count(); }

/* The runtime's current device, cached per thread (cudaGetDevice is cheap,
 * but this is on every op's path). */
static _Thread_local int ctcu_tls_device = -1;
static int ctcu_get_device(void) {
  int d = 0;
  if (ctcu_tls_device >= 0) return ctcu_tls_device;
  if (ctcu_device_count() == 0 || cudaGetDevice(&d) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return ctcu_tls_device = d;
}
static ct_status ctcu_set_device(int index) {
  if (ctcu_tls_device == index) return CT_OK;
  CTCU_TRY(cudaSetDevice(index), "ct_device_set");
  ctcu_tls_device = index;
  return CT_OK;
}
/* Interface members and kernels run on the device they are given and give
 * the thread its current device back after (c10's CUDAGuard), so that only
 * set_device changes it. */
static int ctcu_save_device(void) { return ctcu_get_device(); }
static void ctcu_restore_device(int prev) {
  if (ctcu_tls_device < 0 || ctcu_tls_device == prev) return;
  if (cudaSetDevice(prev) == cudaSuccess) ctcu_tls_device = prev;
  else cudaGetLastError();
}
#define CTCU_GUARDED(type, call)      \
  do {                                \
    int ctcu_prev_ = ctcu_save_device(); \
    type ctcu_r_ = (call);            \
    ctcu_restore_device(ctcu_prev_);  \
    return ctcu_r_;                   \
  } while (0)

static ct_status ctcu_device_synchronize(int index) {
  ct_status st;
  if ((st = ctcu_set_device(index)) != CT_OK) return st;
  CTCU_TRY(cudaDeviceSynchronize(), "ct_device_synchronize");
  return CT_OK;
}

/* ---- streams: id 0 is the legacy default stream of the device ---- */
/* a created stream's id is its handle (ctcu_stream_create) */
static cudaStream_t ctcu_stream(ct_stream s) {
  return s.id == 0 ? (cudaStream_t)0 : (cudaStream_t)(intptr_t)s.id; /* NOLINT(performance-no-int-to-ptr): the id holds the handle */
}
static ct_status ctcu_stream_create(int index, int priority, int64_t *id) {
  cudaStream_t s;
  int lo = 0, hi = 0;
  ct_status st;
  if ((st = ctcu_set_device(index)) != CT_OK) return st;
  cudaDeviceGetStreamPriorityRange(&lo, &hi); /* lo: least urgent (0), hi: most urgent (negative) */
  if (priority < hi) priority = hi;
  if (priority > lo) priority = lo;
  CTCU_TRY(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, priority), "ct_stream_create");
  *id = (int64_t)(intptr_t)s;
  return CT_OK;
}
static ct_status ctcu_stream_destroy(ct_stream s) {
  ct_status st;
  if ((st = ctcu_set_device(s.device.index)) != CT_OK) return st;
  CTCU_TRY(cudaStreamDestroy(ctcu_stream(s)), "ct_stream_destroy");
  return CT_OK;
}
static ct_status ctcu_stream_query(ct_stream s, bool *done) {
  cudaError_t e;
  ct_status st;
  if ((st = ctcu_set_device(s.device.index)) != CT_OK) return st;
  e = cudaStreamQuery(ctcu_stream(s));
  if (e == cudaErrorNotReady) {
    cudaGetLastError();
    *done = false;
    return CT_OK;
  }
  if (e != cudaSuccess) return ctcu_fail(e, "ct_stream_query", "cudaStreamQuery");
  *done = true;
  return CT_OK;
}
static ct_status ctcu_stream_synchronize(ct_stream s) {
  ct_status st;
  if ((st = ctcu_set_device(s.device.index)) != CT_OK) return st;
  CTCU_TRY(cudaStreamSynchronize(ctcu_stream(s)), "ct_stream_synchronize");
  return CT_OK;
}

/* ---- events ---- */
static ct_status ctcu_event_create(int index, uint32_t flags, void **handle) {
  cudaEvent_t e;
  ct_status st;
  if ((st = ctcu_set_device(index)) != CT_OK) return st;
  CTCU_TRY(cudaEventCreateWithFlags(&e, (flags & CT_EVENT_TIMING) ? cudaEventDefault : cudaEventDisableTiming),
           "ct_event_create");
  *handle = (void *)e;
  return CT_OK;
}
static void ctcu_event_destroy(int index, void *handle) {
  (void)index;
  cudaEventDestroy((cudaEvent_t)handle);
}
static ct_status ctcu_event_record(void *handle, ct_stream s) {
  ct_status st;
  if ((st = ctcu_set_device(s.device.index)) != CT_OK) return st;
  CTCU_TRY(cudaEventRecord((cudaEvent_t)handle, ctcu_stream(s)), "ct_event_record");
  return CT_OK;
}
static ct_status ctcu_event_block(void *handle, ct_stream s) {
  ct_status st;
  if ((st = ctcu_set_device(s.device.index)) != CT_OK) return st;
  CTCU_TRY(cudaStreamWaitEvent(ctcu_stream(s), (cudaEvent_t)handle, 0), "ct_stream_wait_event");
  return CT_OK;
}
static ct_status ctcu_event_query(void *handle, bool *done) {
  cudaError_t e = cudaEventQuery((cudaEvent_t)handle);
  if (e == cudaErrorNotReady) {
    cudaGetLastError();
    *done = false;
    return CT_OK;
  }
  if (e != cudaSuccess) return ctcu_fail(e, "ct_event_query", "cudaEventQuery");
  *done = true;
  return CT_OK;
}
static ct_status ctcu_event_synchronize(void *handle) {
  CTCU_TRY(cudaEventSynchronize((cudaEvent_t)handle), "ct_event_synchronize");
  return CT_OK;
}
static ct_status ctcu_event_elapsed_ms(void *start, void *end, double *ms) {
  float f = 0;
  CTCU_TRY(cudaEventElapsedTime(&f, (cudaEvent_t)start, (cudaEvent_t)end), "ct_event_elapsed_ms");
  *ms = f;
  return CT_OK;
}

/* ---- copies ---- */
static ct_status ctcu_copy(void *dst, const void *src, size_t n, ct_copy_kind kind, ct_stream s, bool async) {
  ct_status st;
  cudaStream_t cs = ctcu_stream(s);
  (void)kind; /* unified addressing: the runtime knows each pointer's side (and a peer device's) */
  if (n == 0) return CT_OK;
  if ((st = ctcu_set_device(s.device.index)) != CT_OK) return st;
  CTCU_TRY(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, cs), "copy");
  if (!async) CTCU_TRY(cudaStreamSynchronize(cs), "copy");
  return CT_OK;
}

/* ---- the caching allocator ---- */
#define CTCU_ROUND 512
#define CTCU_SMALL_SIZE ((size_t)1 << 20)     /* requests up to this come from the small pool */
#define CTCU_SMALL_SEGMENT ((size_t)2 << 20)  /* the small pool's segments */
#define CTCU_LARGE_MIN ((size_t)10 << 20)     /* below this a large request gets a 20 MiB segment */
#define CTCU_LARGE_SEGMENT ((size_t)20 << 20)
#define CTCU_LARGE_ROUND ((size_t)2 << 20)
#define CTCU_MAX_USES 8 /* other streams recorded on one block; more share the last slot's event (waits for all) */

typedef struct ctcu_block {
  char *ptr;
  size_t size;                    /* bytes of the block */
  size_t requested;               /* what the caller asked for (allocated_bytes counts blocks) */
  int device, small;
  cudaStream_t stream;            /* the stream it was allocated on */
  int allocated;
  int nuses;                      /* streams recorded with record_stream */
  cudaStream_t uses[CTCU_MAX_USES];
  int nevents;                    /* events still pending after a free */
  cudaEvent_t events[CTCU_MAX_USES];
  struct ctcu_block *prev, *next; /* neighbours in the segment (split blocks) */
  struct ctcu_block *fprev, *fnext; /* the pool's free list or the pending list */
} ctcu_block;

typedef struct ctcu_pool {
  ctcu_block *free; /* sorted by (stream, size, ptr) */
} ctcu_pool;

typedef struct ctcu_allocator {
  pthread_mutex_t lock;
  ctcu_pool small, large;
  ctcu_block *pending;       /* freed, waiting for their events */
  cudaEvent_t *event_pool;   /* recycled events */
  int nevent_pool, event_pool_cap;
  ct_device_stats stats;
} ctcu_allocator;
static ctcu_allocator ctcu_alloc_state[CT_DEVICE_MAX_INDEX];
static pthread_once_t ctcu_alloc_once = PTHREAD_ONCE_INIT;
static void ctcu_alloc_init(void) {
  int i;
  for (i = 0; i < CT_DEVICE_MAX_INDEX; i++) pthread_mutex_init(&ctcu_alloc_state[i].lock, NULL);
}

static int ctcu_block_less(const ctcu_block *a, const ctcu_block *b) {
  if (a->stream != b->stream) return (uintptr_t)a->stream < (uintptr_t)b->stream;
  if (a->size != b->size) return a->size < b->size;
  return (uintptr_t)a->ptr < (uintptr_t)b->ptr;
}
static void ctcu_pool_insert(ctcu_pool *p, ctcu_block *b) {
  ctcu_block *it = p->free, *prev = NULL;
  while (it && ctcu_block_less(it, b)) prev = it, it = it->fnext;
  b->fprev = prev;
  b->fnext = it;
  if (it) it->fprev = b;
  if (prev) prev->fnext = b;
  else p->free = b;
}
static void ctcu_list_remove(ctcu_block **head, ctcu_block *b) {
  if (b->fprev) b->fprev->fnext = b->fnext;
  else *head = b->fnext;
  if (b->fnext) b->fnext->fprev = b->fprev;
  b->fprev = b->fnext = NULL;
}
static ctcu_pool *ctcu_pool_of(ctcu_allocator *a, const ctcu_block *b) { return b->small ? &a->small : &a->large; }

static size_t ctcu_round_size(size_t n) { return n < CTCU_ROUND ? CTCU_ROUND : (n + CTCU_ROUND - 1) / CTCU_ROUND * CTCU_ROUND; }
static size_t ctcu_segment_size(size_t size) {
  if (size <= CTCU_SMALL_SIZE) return CTCU_SMALL_SEGMENT;
  if (size < CTCU_LARGE_MIN) return CTCU_LARGE_SEGMENT;
  return (size + CTCU_LARGE_ROUND - 1) / CTCU_LARGE_ROUND * CTCU_LARGE_ROUND;
}
static void ctcu_peaks(ct_device_stats *s) {
  if (s->allocated_bytes > s->peak_allocated_bytes) s->peak_allocated_bytes = s->allocated_bytes;
  if (s->reserved_bytes > s->peak_reserved_bytes) s->peak_reserved_bytes = s->reserved_bytes;
}

/* (lock held) a free block goes back to its pool, merged with free neighbours */
static int ctcu_mergeable(const ctcu_block *n) { return n && !n->allocated && n->nevents == 0; }
static void ctcu_free_block(ctcu_allocator *a, ctcu_block *b) {
  ctcu_pool *p = ctcu_pool_of(a, b);
  ctcu_block *n;
  if (ctcu_mergeable(b->prev)) { /* absorb the previous block into... the previous one */
    n = b->prev;
    ctcu_list_remove(&p->free, n);
    a->stats.cached_blocks--;
    n->size += b->size;
    n->next = b->next;
    if (b->next) b->next->prev = n;
    free(b);
    b = n;
  }
  if (ctcu_mergeable(b->next)) {
    n = b->next;
    ctcu_list_remove(&p->free, n);
    a->stats.cached_blocks--;
    b->size += n->size;
    b->next = n->next;
    if (n->next) n->next->prev = b;
    free(n);
  }
  b->nuses = 0;
  ctcu_pool_insert(p, b);
  a->stats.cached_blocks++;
}

static ct_status ctcu_event_get(ctcu_allocator *a, cudaEvent_t *e) {
  if (a->nevent_pool > 0) {
    *e = a->event_pool[--a->nevent_pool];
    return CT_OK;
  }
  CTCU_TRY(cudaEventCreateWithFlags(e, cudaEventDisableTiming), "ct_record_stream");
  return CT_OK;
}
static void ctcu_event_put(ctcu_allocator *a, cudaEvent_t e) {
  if (a->nevent_pool == a->event_pool_cap) {
    int cap = a->event_pool_cap ? a->event_pool_cap * 2 : 16;
    cudaEvent_t *p = (cudaEvent_t *)realloc(a->event_pool, sizeof(cudaEvent_t) * (size_t)cap);
    if (!p) {
      cudaEventDestroy(e);
      return;
    }
    a->event_pool = p;
    a->event_pool_cap = cap;
  }
  a->event_pool[a->nevent_pool++] = e;
}

/* (lock held) pending blocks whose events have all completed become free;
 * wait: synchronize the events first (before releasing the cache) */
static void ctcu_process_pending(ctcu_allocator *a, int wait) {
  ctcu_block *b = a->pending, *next;
  for (; b; b = next) {
    int i, done = 1;
    next = b->fnext;
    for (i = 0; i < b->nevents; i++) {
      cudaError_t e = wait ? cudaEventSynchronize(b->events[i]) : cudaEventQuery(b->events[i]);
      if (e == cudaErrorNotReady) {
        cudaGetLastError();
        done = 0;
        break;
      }
      if (e != cudaSuccess) cudaGetLastError(); /* a failed stream: its work will never touch the block */
    }
    if (!done) continue;
    for (i = 0; i < b->nevents; i++) ctcu_event_put(a, b->events[i]);
    b->nevents = 0;
    ctcu_list_remove(&a->pending, b);
    a->stats.pending_blocks--;
    ctcu_free_block(a, b);
  }
}

/* (lock held) cudaFree every segment that is one whole free block */
static void ctcu_release_cached(ctcu_allocator *a, int device) {
  ctcu_pool *pools[2];
  int k;
  pools[0] = &a->small, pools[1] = &a->large;
  (void)device;
  for (k = 0; k < 2; k++) {
    ctcu_block *b = pools[k]->free, *next;
    for (; b; b = next) {
      next = b->fnext;
      if (b->prev || b->next) continue; /* part of a segment still in use */
      ctcu_list_remove(&pools[k]->free, b);
      cudaFree(b->ptr);
      a->stats.cached_blocks--;
      a->stats.reserved_bytes -= (int64_t)b->size;
      a->stats.system_frees++;
      free(b);
    }
  }
}

static ctcu_block *ctcu_best_fit(ctcu_pool *p, cudaStream_t s, size_t size) {
  ctcu_block *b;
  for (b = p->free; b; b = b->fnext) /* sorted: the first of this stream that fits is the best fit */
    if (b->stream == s && b->size >= size) return b;
  return NULL;
}

static void *ctcu_alloc(int index, ct_stream stream, size_t nbytes, void **ctx) {
  ctcu_allocator *a = &ctcu_alloc_state[index];
  cudaStream_t s = ctcu_stream(stream);
  size_t size = ctcu_round_size(nbytes);
  int small = size <= CTCU_SMALL_SIZE;
  ctcu_pool *p = small ? &a->small : &a->large;
  ctcu_block *b;
  pthread_once(&ctcu_alloc_once, ctcu_alloc_init);
  if (ctcu_set_device(index) != CT_OK) return NULL;
  pthread_mutex_lock(&a->lock);
  if (a->pending) ctcu_process_pending(a, 0);
  b = ctcu_best_fit(p, s, size);
  if (b) {
    ctcu_list_remove(&p->free, b);
    a->stats.cached_blocks--;
  } else {
    size_t seg = ctcu_segment_size(size);
    void *ptr = NULL;
    cudaError_t e = cudaMalloc(&ptr, seg);
    if (e != cudaSuccess) { /* free the cache (after the pending blocks' streams) and retry once */
      cudaGetLastError();
      ctcu_process_pending(a, 1);
      ctcu_release_cached(a, index);
      e = cudaMalloc(&ptr, seg);
    }
    if (e != cudaSuccess || !(b = (ctcu_block *)calloc(1, sizeof *b))) {
      size_t free_b = 0, total_b = 0;
      if (e == cudaSuccess) cudaFree(ptr);
      cudaGetLastError();
      cudaMemGetInfo(&free_b, &total_b);
      cudaGetLastError();
      ct_fail(CT_ERR_OOM, "cuda", "CUDA out of memory. Tried to allocate %.2f MiB (GPU %d; %.2f GiB total capacity; %.2f GiB "
              "already allocated; %.2f GiB free; %.2f GiB reserved by ctorch)", (double)size / 1048576.0, index,
              (double)total_b / 1073741824.0, (double)a->stats.allocated_bytes / 1073741824.0,
              (double)free_b / 1073741824.0, (double)a->stats.reserved_bytes / 1073741824.0);
      pthread_mutex_unlock(&a->lock);
      return NULL;
    }
    b->ptr = (char *)ptr;
    b->size = seg;
    b->device = index;
    b->small = small;
    b->stream = s;
    a->stats.system_allocs++;
    a->stats.reserved_bytes += (int64_t)seg;
  }
  /* split off the rest when it is worth keeping */
  if (b->size - size >= (small ? (size_t)CTCU_ROUND : CTCU_SMALL_SIZE + 1)) {
    ctcu_block *rest = (ctcu_block *)calloc(1, sizeof *rest);
    if (rest) {
      rest->ptr = b->ptr + size;
      rest->size = b->size - size;
      rest->device = index;
      rest->small = b->small;
      rest->stream = b->stream;
      rest->prev = b;
      rest->next = b->next;
      if (b->next) b->next->prev = rest;
      b->next = rest;
      b->size = size;
      ctcu_pool_insert(p, rest);
      a->stats.cached_blocks++;
    }
  }
  b->allocated = 1;
  b->requested = nbytes;
  b->nuses = 0;
  a->stats.allocated_bytes += (int64_t)b->size;
  a->stats.allocated_blocks++;
  a->stats.num_allocs++;
  ctcu_peaks(&a->stats);
  pthread_mutex_unlock(&a->lock);
  *ctx = b;
  return b->ptr;
}

static void ctcu_free(int index, void *ptr, size_t nbytes, void *ctx) {
  ctcu_allocator *a = &ctcu_alloc_state[index];
  ctcu_block *b = (ctcu_block *)ctx;
  int i;
  (void)ptr;
  (void)nbytes;
  pthread_mutex_lock(&a->lock);
  b->allocated = 0;
  a->stats.allocated_bytes -= (int64_t)b->size;
  a->stats.allocated_blocks--;
  a->stats.num_frees++;
  /* used on other streams: reusable once each has passed this point */
  for (i = 0; i < b->nuses; i++) {
    cudaEvent_t e;
    if (ctcu_event_get(a, &e) != CT_OK) { /* no event: wait for the stream instead */
      ct_clear_error();
      cudaStreamSynchronize(b->uses[i]);
      cudaGetLastError();
      continue;
    }
    if (cudaEventRecord(e, b->uses[i]) != cudaSuccess) {
      cudaGetLastError();
      ctcu_event_put(a, e);
      cudaStreamSynchronize(b->uses[i]);
      cudaGetLastError();
      continue;
    }
    b->events[b->nevents++] = e;
  }
  b->nuses = 0;
  if (b->nevents) {
    b->fprev = NULL;
    b->fnext = a->pending;
    if (a->pending) a->pending->fprev = b;
    a->pending = b;
    a->stats.pending_blocks++;
  } else {
    ctcu_free_block(a, b);
  }
  pthread_mutex_unlock(&a->lock);
}

static ct_status ctcu_record_stream(void *ptr, void *ctx, ct_stream s) {
  ctcu_block *b = (ctcu_block *)ctx;
  ctcu_allocator *a = &ctcu_alloc_state[b->device];
  cudaStream_t cs = ctcu_stream(s);
  int i;
  (void)ptr;
  if (s.device.index != b->device)
    return ct_fail(CT_ERR_DEVICE, "ct_record_stream", "stream of cuda:%d given for a block of cuda:%d", s.device.index, b->device);
  pthread_mutex_lock(&a->lock);
  if (cs != b->stream) {
    for (i = 0; i < b->nuses && b->uses[i] != cs; i++) {
    }
    if (i == b->nuses) {
      if (b->nuses < CTCU_MAX_USES) b->uses[b->nuses++] = cs;
      else { /* out of slots: the block waits for this stream now (rare: eight streams on one block) */
        pthread_mutex_unlock(&a->lock);
        CTCU_TRY(cudaStreamSynchronize(cs), "ct_record_stream");
        return CT_OK;
      }
    }
  }
  pthread_mutex_unlock(&a->lock);
  return CT_OK;
}

static ct_status ctcu_memory_stats(int index, ct_device_stats *out) {
  ctcu_allocator *a = &ctcu_alloc_state[index];
  pthread_once(&ctcu_alloc_once, ctcu_alloc_init);
  pthread_mutex_lock(&a->lock);
  if (a->pending) ctcu_process_pending(a, 0);
  *out = a->stats;
  pthread_mutex_unlock(&a->lock);
  return CT_OK;
}
static void ctcu_empty_cache(int index) {
  ctcu_allocator *a = &ctcu_alloc_state[index];
  pthread_once(&ctcu_alloc_once, ctcu_alloc_init);
  if (ctcu_set_device(index) != CT_OK) {
    ct_clear_error();
    return;
  }
  pthread_mutex_lock(&a->lock);
  ctcu_process_pending(a, 1);
  ctcu_release_cached(a, index);
  while (a->nevent_pool > 0) cudaEventDestroy(a->event_pool[--a->nevent_pool]);
  pthread_mutex_unlock(&a->lock);
}

/* ---- pinned host memory (the core caches the blocks) ---- */
static void *ctcu_host_alloc(size_t nbytes, void **ctx) {
  void *p = NULL;
  *ctx = NULL;
  if (ctcu_device_count() == 0) return NULL;
  if (cudaHostAlloc(&p, nbytes ? nbytes : 1, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return NULL;
  }
  return p;
}
static void ctcu_host_free(void *ptr, size_t nbytes, void *ctx) {
  (void)nbytes;
  (void)ctx;
  cudaFreeHost(ptr);
  cudaGetLastError();
}

/* the members that pick a device, guarded */
static ct_status ctcu_device_synchronize_g(int index) { CTCU_GUARDED(ct_status, ctcu_device_synchronize(index)); }
static ct_status ctcu_stream_create_g(int index, int priority, int64_t *id) { CTCU_GUARDED(ct_status, ctcu_stream_create(index, priority, id)); }
static ct_status ctcu_stream_destroy_g(ct_stream s) { CTCU_GUARDED(ct_status, ctcu_stream_destroy(s)); }
static ct_status ctcu_stream_query_g(ct_stream s, bool *done) { CTCU_GUARDED(ct_status, ctcu_stream_query(s, done)); }
static ct_status ctcu_stream_synchronize_g(ct_stream s) { CTCU_GUARDED(ct_status, ctcu_stream_synchronize(s)); }
static ct_status ctcu_event_create_g(int index, uint32_t flags, void **handle) { CTCU_GUARDED(ct_status, ctcu_event_create(index, flags, handle)); }
static ct_status ctcu_event_record_g(void *handle, ct_stream s) { CTCU_GUARDED(ct_status, ctcu_event_record(handle, s)); }
static ct_status ctcu_event_block_g(void *handle, ct_stream s) { CTCU_GUARDED(ct_status, ctcu_event_block(handle, s)); }
static ct_status ctcu_copy_g(void *dst, const void *src, size_t n, ct_copy_kind kind, ct_stream s, bool async) {
  CTCU_GUARDED(ct_status, ctcu_copy(dst, src, n, kind, s, async));
}
static void *ctcu_alloc_g(int index, ct_stream stream, size_t nbytes, void **ctx) { CTCU_GUARDED(void *, ctcu_alloc(index, stream, nbytes, ctx)); }
static void ctcu_free_g(int index, void *ptr, size_t nbytes, void *ctx) {
  int prev = ctcu_save_device();
  if (ctcu_set_device(index) != CT_OK) ct_clear_error(); /* (events for record_stream are created on the block's device) */
  ctcu_free(index, ptr, nbytes, ctx);
  ctcu_restore_device(prev);
}
static void ctcu_empty_cache_g(int index) {
  int prev = ctcu_save_device();
  ctcu_empty_cache(index);
  ctcu_restore_device(prev);
}

static const ct_device_interface ctcu_interface = {
    "cuda", ctcu_device_count, ctcu_get_device, ctcu_set_device, ctcu_device_synchronize_g,
    ctcu_stream_create_g, ctcu_stream_destroy_g, ctcu_stream_query_g, ctcu_stream_synchronize_g,
    ctcu_event_create_g, ctcu_event_destroy, ctcu_event_record_g, ctcu_event_block_g, ctcu_event_query,
    ctcu_event_synchronize, ctcu_event_elapsed_ms, ctcu_copy_g, ctcu_alloc_g, ctcu_free_g,
    ctcu_record_stream, ctcu_memory_stats, ctcu_empty_cache_g, ctcu_host_alloc, ctcu_host_free};

/* ---- counters ---- */
static int64_t ctcu_n_pw_native, ctcu_n_pw_staged, ctcu_n_rd_native, ctcu_n_rd_staged, ctcu_n_gemm_native, ctcu_n_gemm_fallback,
    ctcu_n_ix_native, ctcu_n_rn_native;
static void ctcu_count_add(int64_t *c) { __atomic_add_fetch(c, 1, __ATOMIC_RELAXED); } /* NOLINT(readability-non-const-parameter): written atomically */
CTDEF void ct_cuda_counters_get(ct_cuda_counters *out) {
  out->pointwise_native = __atomic_load_n(&ctcu_n_pw_native, __ATOMIC_RELAXED);
  out->pointwise_staged = __atomic_load_n(&ctcu_n_pw_staged, __ATOMIC_RELAXED);
  out->reduction_native = __atomic_load_n(&ctcu_n_rd_native, __ATOMIC_RELAXED);
  out->reduction_staged = __atomic_load_n(&ctcu_n_rd_staged, __ATOMIC_RELAXED);
  out->gemm_native = __atomic_load_n(&ctcu_n_gemm_native, __ATOMIC_RELAXED);
  out->gemm_fallback = __atomic_load_n(&ctcu_n_gemm_fallback, __ATOMIC_RELAXED);
  out->index_native = __atomic_load_n(&ctcu_n_ix_native, __ATOMIC_RELAXED);
  out->random_native = __atomic_load_n(&ctcu_n_rn_native, __ATOMIC_RELAXED);
}

/* ---- the pointwise loop ---- */
/* A pair without a CUDA kernel, or an output whose elements overlap (an
 * as_strided view written element by element, in order on the CPU): the
 * core's host staging (ct_pointwise_on_host) computes it as the CPU would. */
static ct_status ctcu_pointwise_staged(const ct_pointwise_call *call) {
  ctcu_count_add(&ctcu_n_pw_staged);
  return ct_pointwise_on_host(call);
}

/* one operand: device memory with strides over the shape, or a CPU value */
static void ctcu_operand_of(ctcu_operand *o, const ct_tensor *t, int ndim) {
  int d;
  memset(o, 0, sizeof *o);
  o->dtype = t->dtype;
  if (t->device.type == CT_DEVICE_CPU) { /* a 0-dim CPU tensor (numbers included) */
    const void *p = ct_data_ptr(t);
    o->is_scalar = 1;
    switch ((ct_dtype)t->dtype) {
    case CT_F32: o->dval = *(const float *)p; break;
    case CT_F64: o->dval = *(const double *)p; break;
    case CT_F16: o->dval = ct_f16_to_f32(*(const uint16_t *)p); break;
    case CT_BF16: o->dval = ct_bf16_to_f32(*(const uint16_t *)p); break;
    case CT_I64: o->ival = *(const int64_t *)p; break;
    case CT_I32: o->ival = *(const int32_t *)p; break;
    case CT_U8: o->ival = *(const uint8_t *)p; break;
    default: o->ival = *(const bool *)p; break;
    }
    if (!ct_dtype_is_floating((ct_dtype)t->dtype)) o->dval = (double)o->ival;
    return;
  }
  o->data = (char *)ct_data_ptr(t);
  for (d = 0; d < ndim; d++) { /* right-aligned; size-1 dims broadcast */
    int td = t->ndim - (ndim - d);
    o->strides[d] = td >= 0 && t->sizes[td] != 1 ? t->strides[td] : 0;
  }
}

static _Thread_local int *ctcu_tls_flag[CT_DEVICE_MAX_INDEX]; /* a device int per (thread, device) for division checks */
static _Thread_local int *ctcu_tls_flag_host;

static ct_status ctcu_pointwise_on(const ct_pointwise_call *call) {
  ctcu_pointwise_desc d;
  ct_device dev = call->out->device;
  cudaStream_t s;
  int i, r;
  ct_status st;
  if ((st = ctcu_set_device(dev.index)) != CT_OK) return st;
  memset(&d, 0, sizeof d);
  d.op = call->op;
  d.unary = call->op == CT_PW_UNARY ? ctcu_unary_code(call->name) : CTCU_UN_NONE;
  if (call->op == CT_PW_COPY) d.op = CT_PW_UNARY, d.unary = CTCU_UN_COPY; /* copy_ is the identity function, any dtypes */
  if (d.op == CT_PW_UNARY && d.unary == CTCU_UN_NONE) return ctcu_pointwise_staged(call);
  if (call->op == CT_PW_UNARY) {
    d.uparam[0] = call->param, d.uparam[1] = call->param2, d.uparam[2] = call->param3;
    d.uiparam[0] = call->iparam, d.uiparam[1] = call->iparam2;
  }
  if (call->op < 0 || call->op >= CT_PW_NUM_OPS || (call->flags & CT_POINTWISE_OUT_OVERLAPS)) return ctcu_pointwise_staged(call);
  d.dtype = call->dtype;
  d.nin = call->ninputs;
  d.ndim = call->ndim;
  for (i = 0; i < call->ndim; i++) d.shape[i] = call->shape[i];
  d.numel = call->out->numel;
  d.flat = (call->flags & CT_POINTWISE_FLAT) != 0;
  ctcu_operand_of(&d.out, call->out, call->ndim);
  for (i = 0; i < call->ninputs; i++) ctcu_operand_of(&d.in[i], call->in[i], call->ndim);
  d.param = call->param;
  d.iparam = call->iparam;
  s = ctcu_stream(ct_current_stream(dev));
  if (call->flags & CT_POINTWISE_CHECK_DIVISOR) { /* integer division: a device flag, read back after the kernel */
    if (!ctcu_tls_flag[dev.index]) {
      void *p = NULL;
      CTCU_TRY(cudaMalloc(&p, sizeof(int)), call->name); /* (one int per thread and device, kept) */
      ctcu_tls_flag[dev.index] = (int *)p;
    }
    if (!ctcu_tls_flag_host) {
      void *p = NULL;
      CTCU_TRY(cudaHostAlloc(&p, sizeof(int), cudaHostAllocPortable), call->name);
      ctcu_tls_flag_host = (int *)p;
    }
    CTCU_TRY(cudaMemsetAsync(ctcu_tls_flag[dev.index], 0, sizeof(int), s), call->name);
    d.zero_divisor = ctcu_tls_flag[dev.index];
  }
  r = ctcu_pointwise_launch(&d, (void *)s);
  if (r < 0) return ctcu_pointwise_staged(call);
  if (r > 0) return ctcu_fail((cudaError_t)r, call->name, "kernel launch");
  ctcu_count_add(&ctcu_n_pw_native);
  if (d.zero_divisor) {
    /* PyTorch's CUDA kernels raise this through a device-side assert; the
     * flag is read here, which synchronizes the stream (integer division only) */
    CTCU_TRY(cudaMemcpyAsync(ctcu_tls_flag_host, d.zero_divisor, sizeof(int), cudaMemcpyDeviceToHost, s), call->name);
    CTCU_TRY(cudaStreamSynchronize(s), call->name);
    if (*ctcu_tls_flag_host) return ct_fail(CT_ERR_INVALID, call->name, "ZeroDivisionError: integer division by zero");
  }
  return CT_OK;
}

static ct_status ctcu_pointwise(const ct_pointwise_call *call) { CTCU_GUARDED(ct_status, ctcu_pointwise_on(call)); }

/* ---- the reduction loop ----
 * Reductions and cumsum / cumprod run as CUDA kernels (cuda_kernels.cu);
 * sort, topk, kthvalue, median, cummax / cummin, logcumsumexp and the
 * derivative helpers (calls with a second input) are staged on the host. */
typedef char ctcu_rd_ids_check[(CT_RD_CUMPROD == 17 && CT_RD_SOFTMAX == 28 && CT_RD_LOG_SOFTMAX == 29) ? 1 : -1]; /* cuda_kernels.cu's RD_* */
static ct_status ctcu_reduction_staged(const ct_reduction_call *call) {
  ctcu_count_add(&ctcu_n_rd_staged);
  return ct_reduction_on_host(call);
}

/* call's dims as kept and reduced lists (size-1 dims dropped, neighbours
 * merged where every operand's strides allow) */
static void ctcu_reduction_desc_of(const ct_reduction_call *call, ctcu_reduction_desc *d) {
  const ct_tensor *in = call->in, *out = call->out, *ix = call->indices;
  int dim;
  memset(d, 0, sizeof *d);
  d->op = call->op;
  d->int_compute = call->int_compute;
  d->out_int = call->out_int;
  d->in_dtype = in->dtype;
  d->out_dtype = out ? out->dtype : -1;
  d->param = call->param;
  d->rows = 1;
  d->n = 1;
  for (dim = 0; dim < in->ndim; dim++) {
    int64_t size = in->sizes[dim], si = in->strides[dim], so = out ? out->strides[dim] : 0, sx = ix ? ix->strides[dim] : 0;
    if (call->reduce[dim]) {
      int k = d->nred;
      d->n *= size;
      if (size == 1) continue;
      if (k > 0 && d->red_in[k - 1] == si * size && d->red_out[k - 1] == so * size) {
        d->red_size[k - 1] *= size, d->red_in[k - 1] = si, d->red_out[k - 1] = so;
        continue;
      }
      d->red_size[k] = size, d->red_in[k] = si, d->red_out[k] = so;
      d->nred++;
    } else {
      int k = d->nkept;
      d->rows *= size;
      if (size == 1) continue;
      if (k > 0 && d->kept_in[k - 1] == si * size && d->kept_out[k - 1] == so * size && d->kept_idx[k - 1] == sx * size) {
        d->kept_size[k - 1] *= size, d->kept_in[k - 1] = si, d->kept_out[k - 1] = so, d->kept_idx[k - 1] = sx;
        continue;
      }
      d->kept_size[k] = size, d->kept_in[k] = si, d->kept_out[k] = so, d->kept_idx[k] = sx;
      d->nkept++;
    }
  }
  d->in = (const char *)ct_data_ptr(in);
  d->out = out ? (char *)ct_data_ptr(out) : NULL;
  d->indices = ix ? (int64_t *)ct_data_ptr(ix) : NULL;
}

static ct_status ctcu_reduction_on(const ct_reduction_call *call) {
  ctcu_reduction_desc d;
  const ct_tensor *dst = call->out ? call->out : call->indices;
  ct_device dev = dst->device;
  cudaStream_t s;
  size_t need = 0;
  int r;
  ct_status st;
  if ((call->op > CT_RD_CUMPROD && call->op != CT_RD_SOFTMAX && call->op != CT_RD_LOG_SOFTMAX) || call->in2 || call->need_tmp || call->in->device.type != CT_DEVICE_CUDA ||
      !ct_device_eq(call->in->device, dev) || (call->indices && call->indices->dtype != CT_I64) ||
      (call->out && call->out->device.type != CT_DEVICE_CUDA) || (call->indices && call->indices->device.type != CT_DEVICE_CUDA))
    return ctcu_reduction_staged(call);
  if ((st = ctcu_set_device(dev.index)) != CT_OK) return st;
  ctcu_reduction_desc_of(call, &d);
  s = ctcu_stream(ct_current_stream(dev));
  r = ctcu_reduction_launch(&d, (void *)s, NULL, &need);
  if (r == -2) { /* rows split into chunks: their partial results need device scratch, freed in stream order */
    void *ctx = NULL, *scratch = ctcu_alloc(dev.index, ct_current_stream(dev), need, &ctx);
    if (!scratch) {
      if (ctx) ctcu_free(dev.index, scratch, need, ctx); /* (a block without memory: cannot happen; no path leaks it) */
      return ct_last_error() != CT_OK ? ct_last_error() : ct_fail(CT_ERR_OOM, call->name, "no device scratch");
    }
    r = ctcu_reduction_launch(&d, (void *)s, scratch, &need);
    ctcu_free(dev.index, scratch, need, ctx);
  }
  if (r == -1) return ctcu_reduction_staged(call);
  if (r != 0) return ctcu_fail((cudaError_t)r, call->name, "kernel launch");
  ctcu_count_add(&ctcu_n_rd_native);
  return CT_OK;
}
static ct_status ctcu_reduction(const ct_reduction_call *call) { CTCU_GUARDED(ct_status, ctcu_reduction_on(call)); }

/* ---- the index loop ----
 * A kernel per call (cuda_kernels.cu); an index out of range is found on the
 * device and read back after the kernel (a synchronization, as for integer
 * division), then reported with the CPU's message for the first bad position. */
static _Thread_local unsigned long long *ctcu_tls_bad[CT_DEVICE_MAX_INDEX];
static _Thread_local unsigned long long *ctcu_tls_bad_host;
static void ctcu_nonempty(const ct_tensor *t, int64_t *strides) { /* a 0-dim operand as [1] */
  int k;
  if (t->ndim == 0) strides[0] = 0;
  for (k = 0; k < t->ndim; k++) strides[k] = t->strides[k];
}
static ct_status ctcu_index_on(const ct_index_call *call) {
  ctcu_index_desc d;
  ct_device dev = call->self->device;
  cudaStream_t s;
  int k, r;
  ct_status st;
  const ct_tensor *ix = call->index;
  if (!ct_device_eq(ix->device, dev) || (call->other && !ct_device_eq(call->other->device, dev)) ||
      (ix->dtype != CT_I64 && ix->dtype != CT_I32) || call->ndim != ix->ndim)
    return ct_index_on_host(call);
  if ((st = ctcu_set_device(dev.index)) != CT_OK) return st;
  memset(&d, 0, sizeof d);
  d.mode = call->mode, d.dtype = call->self->dtype, d.index_i32 = ix->dtype == CT_I32;
  d.ndim = ix->ndim ? ix->ndim : 1;
  d.numel = ix->numel;
  for (k = 0; k < ix->ndim; k++) d.shape[k] = ix->sizes[k];
  if (!ix->ndim) d.shape[0] = 1;
  ctcu_nonempty(call->self, d.self_st);
  ctcu_nonempty(ix, d.index_st);
  if (call->other) ctcu_nonempty(call->other, d.other_st);
  d.dim_stride = d.self_st[call->dim];
  d.self_st[call->dim] = 0;
  d.bound = call->bound;
  d.self = (char *)ct_data_ptr(call->self);
  d.index = (const char *)ct_data_ptr(ix);
  d.other = call->other ? (char *)ct_data_ptr(call->other) : NULL;
  memcpy(&d.value, call->value, 8);
  s = ctcu_stream(ct_current_stream(dev));
  if (!ctcu_tls_bad[dev.index]) {
    void *p = NULL;
    CTCU_TRY(cudaMalloc(&p, sizeof(unsigned long long)), call->name); /* (one per thread and device, kept) */
    ctcu_tls_bad[dev.index] = (unsigned long long *)p;
  }
  if (!ctcu_tls_bad_host) {
    void *p = NULL;
    CTCU_TRY(cudaHostAlloc(&p, sizeof(unsigned long long), cudaHostAllocPortable), call->name);
    ctcu_tls_bad_host = (unsigned long long *)p;
  }
  CTCU_TRY(cudaMemsetAsync(ctcu_tls_bad[dev.index], 0xff, sizeof(unsigned long long), s), call->name);
  d.bad_pos = ctcu_tls_bad[dev.index];
  r = ctcu_index_launch(&d, (void *)s);
  if (r < 0) return ct_index_on_host(call);
  if (r > 0) return ctcu_fail((cudaError_t)r, call->name, "kernel launch");
  ctcu_count_add(&ctcu_n_ix_native);
  CTCU_TRY(cudaMemcpyAsync(ctcu_tls_bad_host, d.bad_pos, sizeof(unsigned long long), cudaMemcpyDeviceToHost, s), call->name);
  CTCU_TRY(cudaStreamSynchronize(s), call->name);
  if (*ctcu_tls_bad_host != ~0ull) { /* the value at the first bad position, for the CPU's message */
    int64_t pos = (int64_t)*ctcu_tls_bad_host, off = 0, v = 0;
    for (k = d.ndim - 1; k >= 0; k--) off += (pos % d.shape[k]) * d.index_st[k], pos /= d.shape[k];
    if (d.index_i32) {
      int32_t v32 = 0;
      CTCU_TRY(cudaMemcpy(&v32, d.index + off * 4, 4, cudaMemcpyDeviceToHost), call->name);
      v = v32;
    } else {
      CTCU_TRY(cudaMemcpy(&v, d.index + off * 8, 8, cudaMemcpyDeviceToHost), call->name);
    }
    if (call->select_message)
      return ct_fail(CT_ERR_INDEX, call->name, "index out of range in self (index %lld, size %lld)", (long long)v, (long long)call->bound);
    return ct_fail(CT_ERR_INDEX, call->name, "index %lld is out of bounds for dimension %d with size %lld", (long long)v, call->dim,
                   (long long)call->bound);
  }
  return CT_OK;
}
static ct_status ctcu_index(const ct_index_call *call) { CTCU_GUARDED(ct_status, ctcu_index_on(call)); }

/* ---- the random loop: ctorch's Philox streams computed on the device ---- */
static ct_status ctcu_random_on(const ct_random_call *call) {
  ctcu_random_desc d;
  ct_device dev = call->out->device;
  int r;
  ct_status st;
  /* (the probability check runs on the host for now: a device-side flag read at the next sync is the plan) */
  if ((call->in && !ct_device_eq(call->in->device, dev)) || (call->mask && !ct_device_eq(call->mask->device, dev)) ||
      (call->flags & CT_RANDOM_CHECK_PROBS))
    return ct_random_on_host(call);
  if ((st = ctcu_set_device(dev.index)) != CT_OK) return st;
  memset(&d, 0, sizeof d);
  d.kind = call->kind, d.out_dtype = call->out->dtype, d.in_dtype = call->in ? call->in->dtype : -1;
  d.numel = call->numel;
  d.out = (char *)ct_data_ptr(call->out);
  d.in = call->in ? (const char *)ct_data_ptr(call->in) : NULL;
  d.mask = call->mask ? (uint8_t *)ct_data_ptr(call->mask) : NULL;
  d.key[0] = call->key[0], d.key[1] = call->key[1];
  d.base = call->base;
  d.a = call->a, d.b = call->b, d.ifrom = call->ifrom, d.irange = call->irange;
  r = ctcu_random_launch(&d, (void *)ctcu_stream(ct_current_stream(dev)));
  if (r < 0) return ct_random_on_host(call);
  if (r > 0) return ctcu_fail((cudaError_t)r, call->name, "kernel launch");
  ctcu_count_add(&ctcu_n_rn_native);
  return CT_OK;
}
static ct_status ctcu_random(const ct_random_call *call) { CTCU_GUARDED(ct_status, ctcu_random_on(call)); }

CTDEF ct_status ct_cuda_launch_empty(void) {
  int dev = ctcu_get_device();
  int r;
  if (ctcu_device_count() == 0) return ct_fail(CT_ERR_DEVICE, "ct_cuda_launch_empty", "no CUDA device");
  r = ctcu_launch_empty((void *)ctcu_stream(ct_current_stream(ct_device_make(CT_DEVICE_CUDA, dev))));
  if (r) return ctcu_fail((cudaError_t)r, "ct_cuda_launch_empty", "kernel launch");
  return CT_OK;
}

/* ---- cuBLAS GEMMs ---- */
static bool ctcu_tf32;
CTDEF void ct_cuda_set_allow_tf32(bool allow) { __atomic_store_n(&ctcu_tf32, allow, __ATOMIC_RELAXED); }
CTDEF bool ct_cuda_allow_tf32(void) { return __atomic_load_n(&ctcu_tf32, __ATOMIC_RELAXED); }

/* one handle per thread and device (cuBLAS handles are not thread-safe to share) */
static _Thread_local cublasHandle_t ctcu_tls_blas[CT_DEVICE_MAX_INDEX];
static const char *ctcu_blas_text(cublasStatus_t s) {
  switch (s) {
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  default: return "cuBLAS error";
  }
}
static ct_status ctcu_blas(int dev, cudaStream_t s, cublasHandle_t *out, const char *op) {
  cublasStatus_t bs;
  if (!ctcu_tls_blas[dev] && (bs = cublasCreate(&ctcu_tls_blas[dev])) != CUBLAS_STATUS_SUCCESS)
    return ct_fail(CT_ERR_DEVICE, op, "cublasCreate failed: %s", ctcu_blas_text(bs));
  if ((bs = cublasSetStream(ctcu_tls_blas[dev], s)) != CUBLAS_STATUS_SUCCESS)
    return ct_fail(CT_ERR_DEVICE, op, "cublasSetStream failed: %s", ctcu_blas_text(bs));
  cublasSetMathMode(ctcu_tls_blas[dev], ct_cuda_allow_tf32() ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH);
  *out = ctcu_tls_blas[dev];
  return CT_OK;
}

/* A matrix operand (the last two dims) as cuBLAS sees it: row-major with
 * leading dimension ld (trans 0), or column-major (trans 1). */
typedef struct ctcu_mat {
  const ct_tensor *t;
  int trans;
  int64_t ld, batch_stride;
} ctcu_mat;
static int ctcu_mat_of(ctcu_mat *m, const ct_tensor *t) {
  int r = t->ndim;
  int64_t rows = t->sizes[r - 2], cols = t->sizes[r - 1], rs = t->strides[r - 2], cs = t->strides[r - 1];
  m->t = t;
  m->batch_stride = r == 3 ? t->strides[0] : 0;
  if (r == 3 && t->sizes[0] > 1 && t->strides[0] == 0) return 0; /* an expanded batch: cuBLAS would write/read it once */
  if ((cs == 1 || cols == 1) && rs >= (cols > 1 ? cols : 1)) {
    m->trans = 0, m->ld = rs > 0 ? rs : 1;
    if (rows == 1 && m->ld < cols) m->ld = cols;
    return m->ld <= INT32_MAX;
  }
  if ((rs == 1 || rows == 1) && cs >= (rows > 1 ? rows : 1)) {
    m->trans = 1, m->ld = cs > 0 ? cs : 1;
    if (cols == 1 && m->ld < rows) m->ld = rows;
    return m->ld <= INT32_MAX;
  }
  return 0;
}
static int ctcu_gemm_dtype(ct_dtype d) { return d == CT_F32 || d == CT_F64 || d == CT_F16 || d == CT_BF16; }

/* C (rank-2 or -3, contiguous) = alpha * A @ B + beta * C on the current stream */
static ct_status ctcu_gemm_on(const char *op, const ct_tensor *a, const ct_tensor *b, ct_tensor *c, double alpha, double beta) {
  ctcu_mat ma, mb;
  int r = c->ndim, dev = c->device.index;
  int64_t m = c->sizes[r - 2], n = c->sizes[r - 1], k = a->sizes[r - 1], batch = r == 3 ? c->sizes[0] : 1;
  cublasHandle_t h = NULL;
  cublasStatus_t bs;
  cudaDataType_t dt;
  cublasComputeType_t ct;
  float fa = (float)alpha, fb = (float)beta;
  const void *pa, *pb;
  ct_status st;
  ctcu_mat_of(&ma, a);
  ctcu_mat_of(&mb, b);
  if ((st = ctcu_set_device(dev)) != CT_OK) return st;
  if ((st = ctcu_blas(dev, ctcu_stream(ct_current_stream(c->device)), &h, op)) != CT_OK) return st;
  switch ((ct_dtype)c->dtype) {
  case CT_F64: dt = CUDA_R_64F, ct = CUBLAS_COMPUTE_64F; break;
  case CT_F16: dt = CUDA_R_16F, ct = CUBLAS_COMPUTE_32F; break;
  case CT_BF16: dt = CUDA_R_16BF, ct = CUBLAS_COMPUTE_32F; break;
  default: dt = CUDA_R_32F, ct = ct_cuda_allow_tf32() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F; break;
  }
  pa = (const void *)(dt == CUDA_R_64F ? (const void *)&alpha : (const void *)&fa);
  pb = (const void *)(dt == CUDA_R_64F ? (const void *)&beta : (const void *)&fb);
  /* row-major C = A B is column-major C^T = B^T A^T: cuBLAS gets (B, A) */
  if (batch == 1)
    bs = cublasGemmEx(h, mb.trans ? CUBLAS_OP_T : CUBLAS_OP_N, ma.trans ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n, (int)m, (int)k, pa,
                      ct_data_ptr(b), dt, (int)mb.ld, ct_data_ptr(a), dt, (int)ma.ld, pb, ct_data_ptr(c), dt, (int)n, ct,
                      CUBLAS_GEMM_DEFAULT);
  else
    bs = cublasGemmStridedBatchedEx(h, mb.trans ? CUBLAS_OP_T : CUBLAS_OP_N, ma.trans ? CUBLAS_OP_T : CUBLAS_OP_N, (int)n,
                                    (int)m, (int)k, pa, ct_data_ptr(b), dt, (int)mb.ld, mb.batch_stride, ct_data_ptr(a), dt,
                                    (int)ma.ld, ma.batch_stride, pb, ct_data_ptr(c), dt, (int)n, m * n, (int)batch, ct,
                                    CUBLAS_GEMM_DEFAULT);
  if (bs != CUBLAS_STATUS_SUCCESS) return ct_fail(CT_ERR_DEVICE, op, "cuBLAS GEMM failed: %s", ctcu_blas_text(bs));
  ctcu_count_add(&ctcu_n_gemm_native);
  return CT_OK;
}

static ct_status ctcu_gemm(const char *op, const ct_tensor *a, const ct_tensor *b, ct_tensor *c, double alpha, double beta) {
  CTCU_GUARDED(ct_status, ctcu_gemm_on(op, a, b, c, alpha, beta));
}

/* The cases cuBLAS takes: CUDA float operands of one dtype, rank `rank`,
 * matching inner sizes, each matrix with a unit stride, sizes in int range. */
static int ctcu_mm_ok(const ct_tensor *a, const ct_tensor *b, int rank) {
  ctcu_mat m;
  int d;
  if (!a || !b || a->ndim != rank || b->ndim != rank || a->dtype != b->dtype || !ctcu_gemm_dtype((ct_dtype)a->dtype)) return 0;
  if (a->device.type != CT_DEVICE_CUDA || !ct_device_eq(a->device, b->device)) return 0;
  if (a->sizes[rank - 1] != b->sizes[rank - 2] || (rank == 3 && a->sizes[0] != b->sizes[0])) return 0;
  if (a->numel == 0 || b->numel == 0) return 0; /* (empty products: the reference kernel's zero fill) */
  for (d = 0; d < rank; d++)
    if (a->sizes[d] > INT32_MAX || b->sizes[d] > INT32_MAX) return 0;
  return ctcu_mat_of(&m, a) && ctcu_mat_of(&m, b);
}
/* an out= that cuBLAS can write: contiguous, of the product's shape and dtype (else the fallback resizes or refuses) */
static int ctcu_out_ok(const ct_tensor *out, const ct_tensor *a, const ct_tensor *b, int rank) {
  int d;
  int64_t want[3];
  if (!out || out->ndim != rank || out->dtype != a->dtype || !ct_device_eq(out->device, a->device) || !ct_is_contiguous(out)) return 0;
  if (out == a || out == b || out->storage == a->storage || out->storage == b->storage) return 0;
  want[0] = a->sizes[0];
  want[rank - 2] = a->sizes[rank - 2];
  want[rank - 1] = b->sizes[rank - 1];
  for (d = 0; d < rank; d++)
    if (out->sizes[d] != want[d]) return 0;
  return out->autograd == NULL || !ct_requires_grad(out);
}

/* Everything cuBLAS does not take goes to the CPU fallback, boxed. */
static ct_status ctcu_fallback(const char *opname, ct_keyset ks, int nargs, const ct_value *args, ct_tensor **result) {
  ct_value buf[8];
  ct_stack stk;
  const ct_op *op = ct_op_find(opname);
  ct_kernel self = ct_kernel_boxed(ct_cpu_fallback, NULL);
  ct_status st;
  int i;
  ctcu_count_add(&ctcu_n_gemm_fallback);
  if (!op) return ct_fail(CT_ERR_NO_KERNEL, opname, "no such op");
  ct_stack_init(&stk, buf, 8);
  for (i = 0; i < nargs; i++) ct_stack_push(&stk, args[i]);
  st = ct_cpu_fallback(&self, op, ks, &stk);
  if (st == CT_OK && result) {
    ct_value v = ct_stack_pop(&stk);
    *result = v.tag == CT_VALUE_TENSOR ? v.v.tensor : NULL;
    if (!*result) ct_value_release(&v);
  }
  ct_stack_free(&stk);
  return st;
}

static ct_tensor *ctcu_mm_new(int rank, const char *op, const ct_tensor *a, const ct_tensor *b) {
  int64_t shape[3];
  ct_tensor *r;
  shape[0] = a->sizes[0];
  shape[rank - 2] = a->sizes[rank - 2];
  shape[rank - 1] = b->sizes[rank - 1];
  if (!(r = ct_backend_empty(op, rank, shape, (ct_dtype)a->dtype, a->device))) return NULL;
  if (ctcu_gemm(op, a, b, r, 1.0, 0.0) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}
static ct_tensor *k_mm(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_value v[2];
  ct_tensor *r = NULL;
  if (ctcu_mm_ok(a, b, 2)) return ctcu_mm_new(2, "mm", a, b);
  v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b);
  return ctcu_fallback("mm", ks, 2, v, &r) == CT_OK ? r : NULL;
}
static ct_tensor *k_bmm(ct_keyset ks, ct_tensor *a, ct_tensor *b) {
  ct_value v[2];
  ct_tensor *r = NULL;
  if (ctcu_mm_ok(a, b, 3)) return ctcu_mm_new(3, "bmm", a, b);
  v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b);
  return ctcu_fallback("bmm", ks, 2, v, &r) == CT_OK ? r : NULL;
}
static ct_status ctcu_mm_out(int rank, const char *op, const char *fname, ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) {
  ct_value v[3];
  ct_status st;
  if (ctcu_mm_ok(a, b, rank) && ctcu_out_ok(out, a, b, rank)) {
    if ((st = ctcu_gemm(op, a, b, out, 1.0, 0.0)) == CT_OK) ct_backend_bump_version(out);
    return st;
  }
  v[0] = ct_value_tensor(a), v[1] = ct_value_tensor(b), v[2] = ct_value_tensor(out);
  return ctcu_fallback(fname, ks, 3, v, NULL);
}
static ct_status k_mm_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) { return ctcu_mm_out(2, "mm", "mm.out", ks, a, b, out); }
static ct_status k_bmm_out(ct_keyset ks, ct_tensor *a, ct_tensor *b, ct_tensor *out) { return ctcu_mm_out(3, "bmm", "bmm.out", ks, a, b, out); }

/* addmm / baddbmm: out = beta * self (broadcast) + alpha * (m1 @ m2) */
static double ctcu_scalar_d(ct_scalar s) { return ct_scalar_to_double(s); }
static int ctcu_addmm_ok(int rank, const ct_tensor *self, const ct_tensor *m1, const ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  int d;
  if (!ctcu_mm_ok(m1, m2, rank) || !self || self->dtype != m1->dtype || self->ndim > rank || !ct_device_eq(self->device, m1->device)) return 0;
  if (beta.kind == CT_SCALAR_NONE || alpha.kind == CT_SCALAR_NONE || beta.kind == CT_SCALAR_BOOL || alpha.kind == CT_SCALAR_BOOL) return 0;
  /* alpha 0: cuBLAS would not read the product; the reference computes 0 * (m1 @ m2) (NaN for an inf product): reference */
  if (ctcu_scalar_d(alpha) == 0) return 0;
  for (d = 0; d < self->ndim; d++) {
    int od = rank - self->ndim + d;
    int64_t want = od == rank - 1 ? m2->sizes[rank - 1] : od == rank - 2 ? m1->sizes[rank - 2] : m1->sizes[0];
    if (self->sizes[d] != 1 && self->sizes[d] != want) return 0;
  }
  return 1;
}
/* out = self broadcast (a select with a true condition copies bytes with broadcasting) */
static ct_status ctcu_broadcast_into(const ct_tensor *self, ct_tensor *out) {
  ctcu_pointwise_desc d;
  int i, r;
  bool yes = true;
  memset(&d, 0, sizeof d);
  d.op = CT_PW_WHERE;
  d.unary = CTCU_UN_NONE;
  d.dtype = out->dtype;
  d.nin = 3;
  d.ndim = out->ndim;
  for (i = 0; i < out->ndim; i++) d.shape[i] = out->sizes[i];
  d.numel = out->numel;
  ctcu_operand_of(&d.out, out, out->ndim);
  d.in[0].dtype = CT_BOOL, d.in[0].is_scalar = 1, d.in[0].ival = yes, d.in[0].dval = 1;
  ctcu_operand_of(&d.in[1], self, out->ndim);
  d.in[2] = d.in[1];
  r = ctcu_pointwise_launch(&d, (void *)ctcu_stream(ct_current_stream(out->device)));
  if (r != 0) return r < 0 ? ct_fail(CT_ERR_UNSUPPORTED, "addmm", "no broadcast kernel for this dtype") : ctcu_fail((cudaError_t)r, "addmm", "kernel launch");
  return CT_OK;
}
static ct_status ctcu_addmm_into_on(const char *op, const ct_tensor *self, const ct_tensor *m1, const ct_tensor *m2, double beta,
                                 double alpha, ct_tensor *out) {
  ct_status st;
  if (beta != 0 && ((st = ctcu_set_device(out->device.index)) != CT_OK || (st = ctcu_broadcast_into(self, out)) != CT_OK)) return st;
  return ctcu_gemm(op, m1, m2, out, alpha, beta);
}
static ct_status ctcu_addmm_into(const char *op, const ct_tensor *self, const ct_tensor *m1, const ct_tensor *m2, double beta,
                                 double alpha, ct_tensor *out) {
  CTCU_GUARDED(ct_status, ctcu_addmm_into_on(op, self, m1, m2, beta, alpha, out));
}
static ct_tensor *ctcu_addmm_new(int rank, const char *op, const ct_tensor *self, const ct_tensor *m1, const ct_tensor *m2, ct_scalar beta,
                                 ct_scalar alpha) {
  int64_t shape[3];
  ct_tensor *r;
  shape[0] = m1->sizes[0];
  shape[rank - 2] = m1->sizes[rank - 2];
  shape[rank - 1] = m2->sizes[rank - 1];
  if (!(r = ct_backend_empty(op, rank, shape, (ct_dtype)m1->dtype, m1->device))) return NULL;
  if (ctcu_addmm_into(op, self, m1, m2, ctcu_scalar_d(beta), ctcu_scalar_d(alpha), r) != CT_OK) {
    ct_release(r);
    return NULL;
  }
  return r;
}
static void ctcu_addmm_args(ct_value *v, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  v[0] = ct_value_tensor(self), v[1] = ct_value_tensor(m1), v[2] = ct_value_tensor(m2);
  v[3] = ct_value_scalar(beta), v[4] = ct_value_scalar(alpha);
}
static ct_tensor *k_addmm(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  ct_value v[5];
  ct_tensor *r = NULL;
  if (ctcu_addmm_ok(2, self, m1, m2, beta, alpha)) return ctcu_addmm_new(2, "addmm", self, m1, m2, beta, alpha);
  ctcu_addmm_args(v, self, m1, m2, beta, alpha);
  return ctcu_fallback("addmm", ks, 5, v, &r) == CT_OK ? r : NULL;
}
static ct_tensor *k_baddbmm(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha) {
  ct_value v[5];
  ct_tensor *r = NULL;
  if (ctcu_addmm_ok(3, self, m1, m2, beta, alpha)) return ctcu_addmm_new(3, "baddbmm", self, m1, m2, beta, alpha);
  ctcu_addmm_args(v, self, m1, m2, beta, alpha);
  return ctcu_fallback("baddbmm", ks, 5, v, &r) == CT_OK ? r : NULL;
}
static ct_status ctcu_addmm_out(int rank, const char *op, const char *fname, ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2,
                                ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  ct_value v[6];
  ct_status st;
  if (ctcu_addmm_ok(rank, self, m1, m2, beta, alpha) && ctcu_out_ok(out, m1, m2, rank) && out->storage != self->storage) {
    if ((st = ctcu_addmm_into(op, self, m1, m2, ctcu_scalar_d(beta), ctcu_scalar_d(alpha), out)) == CT_OK) ct_backend_bump_version(out);
    return st;
  }
  ctcu_addmm_args(v, self, m1, m2, beta, alpha);
  v[5] = ct_value_tensor(out);
  return ctcu_fallback(fname, ks, 6, v, NULL);
}
static ct_status k_addmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  return ctcu_addmm_out(2, "addmm", "addmm.out", ks, self, m1, m2, beta, alpha, out);
}
static ct_status k_baddbmm_out(ct_keyset ks, ct_tensor *self, ct_tensor *m1, ct_tensor *m2, ct_scalar beta, ct_scalar alpha, ct_tensor *out) {
  return ctcu_addmm_out(3, "baddbmm", "baddbmm.out", ks, self, m1, m2, beta, alpha, out);
}

enum { K_MM, K_MM_OUT, K_BMM, K_BMM_OUT, K_ADDMM, K_ADDMM_OUT, K_BADDBMM, K_BADDBMM_OUT, K_COUNT };
static ct_backend_kernel ctcu_kernels[K_COUNT] = { /* typed: each kernel must have its op's ct_kernel_<op> type */
    CT_BACKEND_KERNEL(mm, CT_KEY_CUDA, k_mm),
    CT_BACKEND_KERNEL(mm_out, CT_KEY_CUDA, k_mm_out),
    CT_BACKEND_KERNEL(bmm, CT_KEY_CUDA, k_bmm),
    CT_BACKEND_KERNEL(bmm_out, CT_KEY_CUDA, k_bmm_out),
    CT_BACKEND_KERNEL(addmm, CT_KEY_CUDA, k_addmm),
    CT_BACKEND_KERNEL(addmm_out, CT_KEY_CUDA, k_addmm_out),
    CT_BACKEND_KERNEL(baddbmm, CT_KEY_CUDA, k_baddbmm),
    CT_BACKEND_KERNEL(baddbmm_out, CT_KEY_CUDA, k_baddbmm_out),
};
static ct_backend ctcu_backend = {CT_BACKEND_ABI, (uint32_t)sizeof(ct_tensor), "cuda", CTCU_VERSION, 10, ctcu_kernels, K_COUNT,
                                  NULL, CT_OK, 0, NULL};

/* ---- registration ---- */
CTDEF int ct_cuda_runtime_version(void) {
  int v = 0;
  if (cudaRuntimeGetVersion(&v) != cudaSuccess) cudaGetLastError(), v = 0;
  return v;
}
CTDEF int ct_cuda_driver_version(void) {
  int v = 0;
  if (cudaDriverGetVersion(&v) != cudaSuccess) cudaGetLastError(), v = 0;
  return v;
}

static ct_status ctcu_register_status = CT_ERR_STATE;
static void ctcu_register_once(void) {
  ct_status st = ct_device_register(CT_DEVICE_CUDA, &ctcu_interface);
  if (st == CT_OK) st = ct_fallback(CT_KEY_CUDA, ct_kernel_boxed(ct_cpu_fallback, NULL));
  if (st == CT_OK) st = ct_set_pointwise_loop(CT_DEVICE_CUDA, ctcu_pointwise);
  if (st == CT_OK) st = ct_set_reduction_loop(CT_DEVICE_CUDA, ctcu_reduction);
  if (st == CT_OK) st = ct_set_index_loop(CT_DEVICE_CUDA, ctcu_index);
  if (st == CT_OK) st = ct_set_random_loop(CT_DEVICE_CUDA, ctcu_random);
  if (st == CT_OK) st = ct_register_backend(&ctcu_backend);
  ctcu_register_status = st;
}
static pthread_once_t ctcu_register_flag = PTHREAD_ONCE_INIT;
CTDEF int ct_cuda_register(void) {
  pthread_once(&ctcu_register_flag, ctcu_register_once);
  return (int)ctcu_register_status;
}
/* Referenced with -Wl,-u,ct_cuda_anchor to keep this object in a static link. */
int ct_cuda_anchor = 1;

#if defined(__GNUC__) || defined(__clang__)
__attribute__((constructor)) static void ctcu_startup(void) {
  const char *v = getenv("CT_VERBOSE");
  int st = ct_cuda_register();
  if (v && *v && *v != '0')
    fprintf(stderr, "ctorch: cuda backend %s: %d device(s), runtime %d, driver %d\n", st == CT_OK ? "registered" : "failed",
            ctcu_device_count(), ct_cuda_runtime_version(), ct_cuda_driver_version());
}
#else
#error "cuda backend: needs a compiler with __attribute__((constructor)) (GCC, Clang)"
#endif
