/* tests/test_device_backend.h - "tdev", a host-backed test device registered
 * as PrivateUse1 (2 devices). It exercises every path of ctorch's device
 * layer (device.h) without a GPU:
 *   - memory: its own caching allocator per device with per-stream pools and
 *     record_stream; the bytes it holds are stored XOR-scrambled and, under
 *     AddressSanitizer, always poisoned, so a CPU kernel that reads device
 *     memory directly gets garbage or fails loudly; only tdev's copies
 *     (which unscramble) touch it;
 *   - streams: in-order queues of host closures that run only on
 *     synchronize (stream, event or device) or tdev_step; query never runs
 *     work, so pending work stays observable;
 *   - events: recorded as queue markers; block = a wait item that runs the
 *     recording stream up to the marker; elapsed time from host clocks.
 * Compiled in the unity test binary (it uses base.h's internals).
 */
#ifndef CT_TEST_DEVICE_BACKEND_H
#define CT_TEST_DEVICE_BACKEND_H
#include <stdlib.h>
#include <string.h>

#define TDEV_DEVICES 2
#define TDEV_STREAMS 8 /* per device; id = slot, 0 = default */
#define TDEV_KEY 0xA5u

typedef struct tdev_event {
  int refs;       /* the handle + queued markers and waits */
  int device;
  uint64_t gen;   /* bumped by each record */
  int recorded, done;
  int stream;     /* slot it was last recorded on */
  double ms;
} tdev_event;

enum { TDEV_FN = 1, TDEV_COPY, TDEV_MARK, TDEV_WAIT };
typedef struct tdev_item {
  int kind;
  struct tdev_item *next;
  void (*fn)(void *ctx);
  void *ctx;
  void *dst;
  const void *src;
  size_t n;
  ct_copy_kind copy_kind;
  tdev_event *ev;
  uint64_t gen;
} tdev_item;

typedef struct tdev_stream {
  int live;
  tdev_item *head, *tail;
  int64_t pending;
} tdev_stream;

typedef struct tdev_block {
  void *ptr;
  size_t size;
  int device, stream, in_use;
  int rec[TDEV_STREAMS]; /* streams recorded with record_stream */
  tdev_event *wait[TDEV_STREAMS];
  int nwait;
  struct tdev_block *next;
} tdev_block;

static struct {
  tdev_stream streams[TDEV_DEVICES][TDEV_STREAMS];
  tdev_block *blocks[TDEV_DEVICES];
  ct_device_stats stats[TDEV_DEVICES];
  int64_t items_run;
} tdev;
static CT__TLS int tdev_current;
#ifdef CT__HAVE_PTHREAD
static pthread_mutex_t tdev_mutex = PTHREAD_MUTEX_INITIALIZER;
static void tdev_lock(void) { pthread_mutex_lock(&tdev_mutex); }
static void tdev_unlock(void) { pthread_mutex_unlock(&tdev_mutex); }
#else
static void tdev_lock(void) {}
static void tdev_unlock(void) {}
#endif

static void tdev_event_unref(tdev_event *e) {
  if (--e->refs == 0) free(e);
}

/* device memory: scrambled and poisoned except inside these copies */
static void tdev_xfer(void *dst, const void *src, size_t n, ct_copy_kind kind) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  size_t i;
  if (kind != CT_COPY_H2D) CT__UNPOISON((void *)src, n);
  if (kind != CT_COPY_D2H) CT__UNPOISON(dst, n);
  if (kind == CT_COPY_D2D) memmove(d, s, n);
  else
    for (i = 0; i < n; i++) d[i] = (unsigned char)(s[i] ^ TDEV_KEY);
  if (kind != CT_COPY_H2D) CT__POISON((void *)src, n); /* (the source stays poisoned: cast away const only to re-poison) */
  if (kind != CT_COPY_D2H) CT__POISON(dst, n);
}

static void tdev_run_one(int device, int slot);
static void tdev_exec(tdev_item *it) {
  switch (it->kind) {
  case TDEV_FN:
    it->fn(it->ctx);
    break;
  case TDEV_COPY:
    tdev_xfer(it->dst, it->src, it->n, it->copy_kind);
    break;
  case TDEV_MARK:
    if (it->gen == it->ev->gen) {
      it->ev->done = 1;
      it->ev->ms = ct__now_ms();
    }
    tdev_event_unref(it->ev);
    break;
  case TDEV_WAIT: /* run the recording stream until the marker has run */
    while (it->ev->gen == it->gen && !it->ev->done && tdev.streams[it->ev->device][it->ev->stream].head)
      tdev_run_one(it->ev->device, it->ev->stream);
    tdev_event_unref(it->ev);
    break;
  default:
    break;
  }
  tdev.items_run++;
}
static void tdev_run_one(int device, int slot) {
  tdev_stream *s = &tdev.streams[device][slot];
  tdev_item *it = s->head;
  if (!it) return;
  s->head = it->next;
  if (!s->head) s->tail = NULL;
  s->pending--;
  tdev_exec(it);
  free(it);
}
static void tdev_drain(int device, int slot) {
  while (tdev.streams[device][slot].head) tdev_run_one(device, slot);
}
static ct_status tdev_push(int device, int slot, const tdev_item *it) {
  tdev_stream *s = &tdev.streams[device][slot];
  tdev_item *copy = (tdev_item *)malloc(sizeof *copy);
  if (!copy) return ct_fail(CT_ERR_OOM, "tdev", "out of memory queueing work");
  *copy = *it;
  copy->next = NULL;
  if (s->tail) s->tail->next = copy;
  else s->head = copy;
  s->tail = copy;
  s->pending++;
  return CT_OK;
}
static int tdev_slot(const char *op, ct_stream s) {
  if (s.device.index < 0 || s.device.index >= TDEV_DEVICES || s.id < 0 || s.id >= TDEV_STREAMS ||
      !tdev.streams[s.device.index][s.id].live)
    return ct_fail(CT_ERR_INVALID, op, "tdev: stream %lld on device %d does not exist", (long long)s.id, s.device.index), -1;
  return (int)s.id;
}

/* ---- the interface ---- */
static int tdev_count(void) { return TDEV_DEVICES; }
static int tdev_get_device(void) { return tdev_current; }
static ct_status tdev_set_device(int index) {
  if (index < 0 || index >= TDEV_DEVICES) return ct_fail(CT_ERR_INDEX, "tdev", "device %d out of range", index);
  tdev_current = index;
  return CT_OK;
}
static ct_status tdev_device_sync(int index) {
  int i;
  tdev_lock();
  for (i = 0; i < TDEV_STREAMS; i++) tdev_drain(index, i);
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_stream_create(int index, int priority, int64_t *id) {
  int i;
  (void)priority;
  tdev_lock();
  for (i = 1; i < TDEV_STREAMS; i++)
    if (!tdev.streams[index][i].live) {
      tdev.streams[index][i].live = 1;
      *id = i;
      tdev_unlock();
      return CT_OK;
    }
  tdev_unlock();
  return ct_fail(CT_ERR_OOM, "tdev", "out of streams on device %d", index);
}
static ct_status tdev_stream_destroy(ct_stream s) {
  int slot;
  tdev_lock();
  if ((slot = tdev_slot("ct_stream_destroy", s)) < 0) return tdev_unlock(), ct_last_error();
  tdev_drain(s.device.index, slot); /* as cudaStreamDestroy: queued work still completes */
  tdev.streams[s.device.index][slot].live = 0;
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_stream_query(ct_stream s, bool *done) {
  int slot;
  tdev_lock();
  if ((slot = tdev_slot("ct_stream_query", s)) < 0) return tdev_unlock(), ct_last_error();
  *done = tdev.streams[s.device.index][slot].head == NULL;
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_stream_sync(ct_stream s) {
  int slot;
  tdev_lock();
  if ((slot = tdev_slot("ct_stream_synchronize", s)) < 0) return tdev_unlock(), ct_last_error();
  tdev_drain(s.device.index, slot);
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_event_create(int index, uint32_t flags, void **handle) {
  tdev_event *e = (tdev_event *)calloc(1, sizeof *e);
  (void)flags;
  if (!e) return ct_fail(CT_ERR_OOM, "tdev", "out of memory creating an event");
  e->refs = 1;
  e->device = index;
  e->done = 1;
  *handle = e;
  return CT_OK;
}
static void tdev_event_destroy(int index, void *handle) {
  (void)index;
  tdev_lock();
  tdev_event_unref((tdev_event *)handle);
  tdev_unlock();
}
static ct_status tdev_event_record_locked(tdev_event *e, int slot) {
  tdev_item it;
  memset(&it, 0, sizeof it);
  e->gen++;
  e->recorded = 1;
  e->done = 0;
  e->stream = slot;
  it.kind = TDEV_MARK;
  it.ev = e;
  it.gen = e->gen;
  e->refs++;
  if (tdev_push(e->device, slot, &it) != CT_OK) return e->refs--, ct_last_error();
  return CT_OK;
}
static ct_status tdev_event_record(void *handle, ct_stream s) {
  int slot;
  ct_status st;
  tdev_lock();
  if ((slot = tdev_slot("ct_event_record", s)) < 0) return tdev_unlock(), ct_last_error();
  st = tdev_event_record_locked((tdev_event *)handle, slot);
  tdev_unlock();
  return st;
}
static ct_status tdev_event_block(void *handle, ct_stream s) {
  tdev_event *e = (tdev_event *)handle;
  tdev_item it;
  int slot;
  ct_status st = CT_OK;
  tdev_lock();
  if ((slot = tdev_slot("ct_stream_wait_event", s)) < 0) return tdev_unlock(), ct_last_error();
  if (e->recorded && !e->done) {
    memset(&it, 0, sizeof it);
    it.kind = TDEV_WAIT;
    it.ev = e;
    it.gen = e->gen;
    e->refs++;
    if ((st = tdev_push(s.device.index, slot, &it)) != CT_OK) e->refs--;
  }
  tdev_unlock();
  return st;
}
static ct_status tdev_event_query(void *handle, bool *done) {
  tdev_lock();
  *done = ((tdev_event *)handle)->done != 0;
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_event_sync(void *handle) {
  tdev_event *e = (tdev_event *)handle;
  tdev_lock();
  while (!e->done && tdev.streams[e->device][e->stream].head) tdev_run_one(e->device, e->stream);
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_event_elapsed(void *start, void *end, double *ms) {
  const tdev_event *a = (const tdev_event *)start, *b = (const tdev_event *)end;
  if (!a->recorded || !b->recorded || !a->done || !b->done)
    return ct_fail(CT_ERR_STATE, "ct_event_elapsed_ms", "tdev: both events must be recorded and complete");
  *ms = b->ms - a->ms;
  return CT_OK;
}
static ct_status tdev_copy(void *dst, const void *src, size_t n, ct_copy_kind kind, ct_stream s, bool async) {
  tdev_item it;
  int slot;
  ct_status st;
  tdev_lock();
  if ((slot = tdev_slot("tdev copy", s)) < 0) return tdev_unlock(), ct_last_error();
  memset(&it, 0, sizeof it);
  it.kind = TDEV_COPY;
  it.dst = dst;
  it.src = src;
  it.n = n;
  it.copy_kind = kind;
  st = tdev_push(s.device.index, slot, &it);
  if (st == CT_OK && !async) tdev_drain(s.device.index, slot);
  tdev_unlock();
  return st;
}

/* blocks whose recorded streams have finished become reusable */
static void tdev_process_pending(int device) {
  tdev_block *b;
  if (!tdev.stats[device].pending_blocks) return; /* (the common case: nothing to walk the block list for) */
  for (b = tdev.blocks[device]; b; b = b->next) {
    int i, done = 1;
    if (b->in_use || !b->nwait) continue;
    for (i = 0; i < b->nwait; i++) done &= b->wait[i]->done;
    if (!done) continue;
    for (i = 0; i < b->nwait; i++) tdev_event_unref(b->wait[i]);
    b->nwait = 0;
    tdev.stats[device].pending_blocks--;
    tdev.stats[device].cached_blocks++;
  }
}
static void tdev_peak(ct_device_stats *st) {
  if (st->allocated_bytes > st->peak_allocated_bytes) st->peak_allocated_bytes = st->allocated_bytes;
  if (st->reserved_bytes > st->peak_reserved_bytes) st->peak_reserved_bytes = st->reserved_bytes;
}
static void *tdev_alloc(int index, ct_stream s, size_t nbytes, void **ctx) {
  size_t size = (nbytes + 255) & ~(size_t)255;
  ct_device_stats *st = &tdev.stats[index];
  tdev_block *b;
  tdev_lock();
  tdev_process_pending(index);
  {
    tdev_block **pp;
    for (pp = &tdev.blocks[index]; (b = *pp) != NULL; pp = &b->next)
      if (!b->in_use && !b->nwait && b->size == size && b->stream == (int)s.id) break;
    if (b && pp != &tdev.blocks[index]) { /* move to the front: the sizes in use are found first next time */
      *pp = b->next;
      b->next = tdev.blocks[index];
      tdev.blocks[index] = b;
    }
  }
  if (b) {
    st->cached_blocks--;
  } else {
    b = (tdev_block *)calloc(1, sizeof *b);
    if (b) b->ptr = malloc(size);
    if (!b || !b->ptr) {
      free(b);
      tdev_unlock();
      return NULL;
    }
    CT__POISON(b->ptr, size);
    b->size = size;
    b->device = index;
    b->stream = (int)s.id;
    b->next = tdev.blocks[index];
    tdev.blocks[index] = b;
    st->system_allocs++;
    st->reserved_bytes += (int64_t)size;
  }
  memset(b->rec, 0, sizeof b->rec);
  b->in_use = 1;
  st->allocated_bytes += (int64_t)size;
  st->allocated_blocks++;
  st->num_allocs++;
  tdev_peak(st);
  tdev_unlock();
  *ctx = b;
  return b->ptr;
}
static void tdev_free(int index, void *ptr, size_t nbytes, void *ctx) {
  tdev_block *b = (tdev_block *)ctx;
  ct_device_stats *st = &tdev.stats[index];
  int i;
  (void)nbytes;
  (void)ptr;
  tdev_lock();
  b->in_use = 0;
  st->allocated_bytes -= (int64_t)b->size;
  st->allocated_blocks--;
  st->num_frees++;
  for (i = 0; i < TDEV_STREAMS; i++) /* an event on every other stream that used it */
    if (b->rec[i] && tdev.streams[index][i].head) {
      tdev_event *e;
      void *h = NULL;
      if (tdev_event_create(index, 0, &h) != CT_OK) continue; /* (leaves the block reusable: test code only) */
      e = (tdev_event *)h;
      tdev_event_record_locked(e, i);
      b->wait[b->nwait++] = e;
    }
  if (b->nwait) st->pending_blocks++;
  else st->cached_blocks++;
  tdev_unlock();
}
static ct_status tdev_record_stream(void *ptr, void *ctx, ct_stream s) {
  tdev_block *b = (tdev_block *)ctx;
  int slot;
  (void)ptr;
  tdev_lock();
  if ((slot = tdev_slot("ct_record_stream", s)) < 0) return tdev_unlock(), ct_last_error();
  if (slot != b->stream) b->rec[slot] = 1;
  tdev_unlock();
  return CT_OK;
}
static ct_status tdev_memory_stats(int index, ct_device_stats *out) {
  tdev_lock();
  tdev_process_pending(index);
  *out = tdev.stats[index];
  tdev_unlock();
  return CT_OK;
}
static void tdev_empty_cache(int index) {
  tdev_block **p;
  tdev_lock();
  tdev_process_pending(index);
  for (p = &tdev.blocks[index]; *p;) {
    tdev_block *b = *p;
    if (b->in_use || b->nwait) {
      p = &b->next;
      continue;
    }
    *p = b->next;
    CT__UNPOISON(b->ptr, b->size);
    free(b->ptr);
    tdev.stats[index].reserved_bytes -= (int64_t)b->size;
    tdev.stats[index].cached_blocks--;
    tdev.stats[index].system_frees++;
    free(b);
  }
  tdev_unlock();
}
static void *tdev_host_alloc(size_t nbytes, void **ctx) {
  *ctx = NULL;
  return malloc(nbytes ? nbytes : 1);
}
static void tdev_host_free(void *ptr, size_t nbytes, void *ctx) {
  (void)nbytes;
  (void)ctx;
  free(ptr);
}

static const ct_device_interface tdev_interface = {
    "tdev", tdev_count, tdev_get_device, tdev_set_device, tdev_device_sync,
    tdev_stream_create, tdev_stream_destroy, tdev_stream_query, tdev_stream_sync,
    tdev_event_create, tdev_event_destroy, tdev_event_record, tdev_event_block, tdev_event_query,
    tdev_event_sync, tdev_event_elapsed, tdev_copy, tdev_alloc, tdev_free,
    tdev_record_stream, tdev_memory_stats, tdev_empty_cache, tdev_host_alloc, tdev_host_free};

/* Registers tdev as PrivateUse1 (once per process). */
/* tdev's pointwise loop (ops/pointwise.h): every elementwise op runs here,
 * through the core's host staging (its memory is scrambled: only its copies
 * read it), the path a GPU backend takes for what it has no kernel for. */
static int64_t tdev_pointwise_calls;
static int tdev_pointwise_last_flags;
static ct_status tdev_pointwise(const ct_pointwise_call *call) {
  tdev_pointwise_calls++;
  tdev_pointwise_last_flags = call->flags;
  return ct_pointwise_on_host(call);
}

static int64_t tdev_reduction_calls;
static int tdev_reduction_last_op = -1;
static ct_status tdev_reduction(const ct_reduction_call *call) {
  tdev_reduction_calls++;
  tdev_reduction_last_op = call->op;
  return ct_reduction_on_host(call);
}

static int64_t tdev_index_calls;
static ct_status tdev_index(const ct_index_call *call) {
  tdev_index_calls++;
  return ct_index_on_host(call);
}

static int64_t tdev_random_calls;
static ct_status tdev_random(const ct_random_call *call) {
  tdev_random_calls++;
  return ct_random_on_host(call);
}

static void tdev_init(void) {
  int d;
  if (ct_device_interface_get(CT_DEVICE_PRIVATEUSE1) == &tdev_interface) return;
  for (d = 0; d < TDEV_DEVICES; d++) tdev.streams[d][0].live = 1;
  ct_device_register(CT_DEVICE_PRIVATEUSE1, &tdev_interface);
  /* every op without a tdev kernel runs on the CPU (ctorch/fallback.h) */
  ct_fallback(CT_KEY_PRIVATEUSE1, ct_kernel_boxed(ct_cpu_fallback, NULL));
  /* the pointwise ops run natively, through tdev's one pointwise loop */
  ct_set_pointwise_loop(CT_DEVICE_PRIVATEUSE1, tdev_pointwise);
  /* ... and the reductions, scans and sorts through its reduction loop */
  ct_set_reduction_loop(CT_DEVICE_PRIVATEUSE1, tdev_reduction);
  /* ... and gather / scatter / index_select / index_add / embedding through its index loop */
  ct_set_index_loop(CT_DEVICE_PRIVATEUSE1, tdev_index);
  /* ... and the sampling ops through its random loop */
  ct_set_random_loop(CT_DEVICE_PRIVATEUSE1, tdev_random);
}
#define TDEV(i) ct_device_make(CT_DEVICE_PRIVATEUSE1, (i))

/* test hooks: queue a host closure on a stream; run n queued items */
static ct_status tdev_enqueue(ct_stream s, void (*fn)(void *), void *ctx) {
  tdev_item it;
  ct_status st;
  memset(&it, 0, sizeof it);
  it.kind = TDEV_FN;
  it.fn = fn;
  it.ctx = ctx;
  tdev_lock();
  st = tdev_push(s.device.index, (int)s.id, &it);
  tdev_unlock();
  return st;
}
static int64_t tdev_pending(ct_stream s) { return tdev.streams[s.device.index][s.id].pending; }

#endif /* CT_TEST_DEVICE_BACKEND_H */
