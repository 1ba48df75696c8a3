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

#include "base.h"

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

/* ==== implementation ==== */
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
    /* the worker's index travels as the thread argument; no pointer is ever formed from it */
    rc = pthread_create(&th, &attr, ct__worker_main, (void *)(intptr_t)ct__pool.started); /* NOLINT(performance-no-int-to-ptr) */
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
