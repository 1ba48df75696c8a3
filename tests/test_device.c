/* tests/test_device.c - the device layer (ctorch/device.h): the CPU
 * interface, and the host-backed test device "tdev" (PrivateUse1, 2 devices)
 * of test_device_backend.h: allocator and statistics, record_stream, streams,
 * events, guards, copies between every pair of devices, element access and
 * printing, errors. */
#include "test_device_backend.h"

static ct_tensor *dev_arange(int64_t n, ct_dtype dt) { return ct_arange(0, (double)n, 1, dt); }

TEST(device_cpu_interface) {
  ct_stream s, cur;
  ct_event a, b;
  bool done = false;
  double ms = -1;
  char src[8] = "abcdefg", dst[8];
  ct_device_stats st;
  CHECK(ct_device_interface_get(CT_DEVICE_CPU) != NULL);
  CHECK(ct_device_count(CT_DEVICE_CPU) == 1);
  CHECK(ct_current_device(CT_DEVICE_CPU) == 0);
  CHECK_OK(ct_device_set(CT_CPU));
  CHECK_OK(ct_stream_create(CT_CPU, 0, &s));
  CHECK(s.id != 0);
  cur = ct_current_stream(CT_CPU);
  CHECK(cur.id == 0);
  CHECK_OK(ct_stream_query(s, &done));
  CHECK(done);
  CHECK_OK(ct_stream_synchronize(s));
  CHECK_OK(ct_event_create(CT_CPU, CT_EVENT_TIMING, &a));
  CHECK_OK(ct_event_create(CT_CPU, CT_EVENT_TIMING, &b));
  CHECK_OK(ct_event_record(&a, s));
  CHECK_OK(ct_event_record(&b, s));
  CHECK_OK(ct_stream_wait_event(ct_default_stream(CT_CPU), &b));
  CHECK_OK(ct_event_synchronize(&b));
  CHECK_OK(ct_event_elapsed_ms(&a, &b, &ms));
  CHECK(ms >= 0);
  ct_event_destroy(&a);
  ct_event_destroy(&b);
  CHECK(a.handle == NULL);
  CHECK_OK(ct_stream_destroy(s));
  CHECK_OK(ct_device_memcpy(dst, CT_CPU, src, CT_CPU, 8, false));
  CHECK(!strcmp(dst, "abcdefg"));
  CHECK_OK(ct_device_memory_stats(CT_CPU, &st));
  CHECK(st.reserved_bytes >= 0);
  CHECK_OK(ct_device_synchronize(CT_CPU));
  CHECK(ct_device_interface_get(CT_DEVICE_META) != NULL);
}

TEST(device_errors) {
  ct_stream s;
  ct_event e;
  void *ctx;
  ct_tensor *x = ct_ones(CT_DIMS(3), CT_F32);
  tdev_init();
  CHECK_ERR(ct_device_register(CT_DEVICE_PRIVATEUSE1, &tdev_interface), CT_ERR_REGISTRATION, "already has an interface");
  CHECK_ERR(ct_device_register(CT_DEVICE_CPU, &tdev_interface), CT_ERR_REGISTRATION, "registered once");
  CHECK_ERR(ct_device_register((ct_device_type)42, &tdev_interface), CT_ERR_DEVICE, "invalid device type 42");
  CHECK_ERR(ct_device_register(CT_DEVICE_PRIVATEUSE2, NULL), CT_ERR_NULL, "iface");
  {
    ct_device_interface bad = tdev_interface;
    bad.alloc = NULL;
    CHECK_ERR(ct_device_register(CT_DEVICE_PRIVATEUSE2, &bad), CT_ERR_INVALID, "lacks a required member");
  }
  /* a type without a backend (PrivateUse3: CUDA may be linked, make test-cuda) */
  CHECK(ct_device_count(CT_DEVICE_PRIVATEUSE3) == 0);
  CHECK_ERR(ct_device_set(ct_device_make(CT_DEVICE_PRIVATEUSE3, 0)), CT_ERR_DEVICE, "is its backend linked?");
  CHECK_ERR(ct_stream_create(ct_device_make(CT_DEVICE_PRIVATEUSE3, 0), 0, &s), CT_ERR_DEVICE, "no device interface registered for 'privateusethree'");
  CHECK_ERR(ct_device_set(TDEV(2)), CT_ERR_INDEX, "device index 2 out of range: 'privateuseone' has 2 devices");
  CHECK_ERR(ct_device_set(ct_device_make((ct_device_type)9, 0)), CT_ERR_DEVICE, "invalid device type 9");
  CHECK_ERR(ct_device_set(ct_device_make(CT_DEVICE_CPU, 1)), CT_ERR_INDEX, "out of range");
  CHECK_ERR(ct_empty_opts(CT_DIMS(2), ct_opts(CT_F32, TDEV(5))), CT_ERR_INDEX, "device index 5 out of range");
  CHECK_ERR(ct_empty_opts(CT_DIMS(2), ct_opts(CT_F32, ct_device_make(CT_DEVICE_CPU, 3))), CT_ERR_INDEX, "out of range");
  CHECK_ERR(ct_to_device(x, TDEV(-1)), CT_ERR_INDEX, "device index -1 out of range");
  CHECK_ERR(ct_to_device(x, ct_device_make(CT_DEVICE_PRIVATEUSE3, 0)), CT_ERR_DEVICE, "is its backend linked?");
  CHECK_ERR(ct_stream_destroy(ct_default_stream(TDEV(0))), CT_ERR_INVALID, "default stream cannot be destroyed");
  CHECK_ERR(ct_stream_synchronize(ct_stream_make(TDEV(0), 7)), CT_ERR_INVALID, "does not exist");
  CHECK_ERR(ct_stream_set(ct_stream_make(TDEV(3), 0)), CT_ERR_INDEX, "out of range");
  memset(&e, 0, sizeof e);
  e.device = TDEV(0);
  CHECK_ERR(ct_event_record(&e, ct_default_stream(TDEV(0))), CT_ERR_STATE, "was not created");
  CHECK_ERR(ct_event_query(NULL, NULL), CT_ERR_NULL, "event");
  CHECK_OK(ct_event_create(TDEV(0), 0, &e));
  CHECK_ERR(ct_event_record(&e, ct_default_stream(TDEV(1))), CT_ERR_DEVICE, "cannot be recorded on a stream of privateuseone:1");
  {
    ct_event f;
    double ms;
    CHECK_OK(ct_event_create(TDEV(0), 0, &f));
    CHECK_ERR(ct_event_elapsed_ms(&e, &f, &ms), CT_ERR_INVALID, "CT_EVENT_TIMING");
    ct_event_destroy(&f);
  }
  ct_event_destroy(&e);
  ct_event_destroy(&e); /* twice: nothing */
  CHECK_ERR(ct_host_alloc(CT_DEVICE_CPU, 16, &ctx), CT_ERR_UNSUPPORTED, "offers no pinned host memory");
  CHECK_ERR(ct_device_memcpy(NULL, CT_CPU, &ctx, TDEV(0), 4, false), CT_ERR_NULL, "dst");
  {
    ct_tensor *d = ct_zeros(CT_DIMS(2, 3), CT_F32), *y = ct_to_device(d, TDEV(0));
    ct_tensor *wrong = ct_ones(CT_DIMS(4), CT_F32);
    ct_tensor *m = ct_empty_opts(CT_DIMS(2, 3), ct_opts(CT_F32, CT_META));
    CHECK(y != NULL);
    CHECK_ERR(ct_copy_(y, wrong), CT_ERR_SHAPE, "cannot be broadcast");
    CHECK_ERR(ct_copy_(y, m), CT_ERR_DEVICE, "meta");
    CHECK_ERR(ct_record_stream(y, ct_default_stream(CT_CPU)), CT_ERR_DEVICE, "cannot be recorded");
    CHECK_ERR(ct_get(y, 6), CT_ERR_INDEX, "out of bounds");
    ct_release(d);
    ct_release(y);
    ct_release(wrong);
    ct_release(m);
  }
  ct_release(x);
}

TEST(device_tdev_allocator_and_stats) {
  ct_device_stats a, b, c;
  ct_tensor *t, *u;
  void *p1, *p2;
  tdev_init();
  CHECK_OK(ct_device_empty_cache(TDEV(1)));
  CHECK_OK(ct_device_memory_stats(TDEV(1), &a));
  t = ct_empty_opts(CT_DIMS(100), ct_opts(CT_F32, TDEV(1)));
  CHECK(t && t->device.index == 1 && t->storage->device.type == CT_DEVICE_PRIVATEUSE1 && t->storage->device_alloc);
  CHECK(t && ct_keyset_has(t->keys, CT_KEY_PRIVATEUSE1));
  CHECK_OK(ct_device_memory_stats(TDEV(1), &b));
  CHECK(b.allocated_bytes == a.allocated_bytes + 512 && b.num_allocs == a.num_allocs + 1);
  CHECK(b.system_allocs == a.system_allocs + 1 && b.peak_allocated_bytes >= b.allocated_bytes);
  p1 = t->storage->data;
  ct_release(t);
  CHECK_OK(ct_device_memory_stats(TDEV(1), &c));
  CHECK(c.allocated_bytes == a.allocated_bytes && c.cached_blocks == a.cached_blocks + 1);
  u = ct_empty_opts(CT_DIMS(100), ct_opts(CT_F32, TDEV(1))); /* the cached block comes back */
  p2 = u ? u->storage->data : NULL;
  CHECK(p1 == p2);
  CHECK_OK(ct_device_memory_stats(TDEV(1), &c));
  CHECK(c.system_allocs == b.system_allocs);
  ct_release(u);
  CHECK_OK(ct_device_empty_cache(TDEV(1)));
  CHECK_OK(ct_device_memory_stats(TDEV(1), &c));
  CHECK(c.reserved_bytes == a.reserved_bytes && c.system_frees >= 1);
  { /* pinned host memory from the device */
    void *ctx = NULL, *h = ct_host_alloc(CT_DEVICE_PRIVATEUSE1, 64, &ctx);
    CHECK(h != NULL);
    ct_host_free(CT_DEVICE_PRIVATEUSE1, h, 64, ctx);
  }
}

static void dev_noop(void *ctx) { ++*(int *)ctx; }

/* Pinned host memory belongs to one backend per process: the first with a
 * host allocator. In a binary with the CUDA backend that is CUDA, and tdev's
 * pinning tests have nothing to observe (the CUDA suite covers pinning). */
static int tdev_skip_if_pinning_taken(void) {
  if (ct_host_pinning_type() == CT_DEVICE_PRIVATEUSE1) return 0;
  harness_skip("pinned memory is owned by another backend in this binary (the test device's pinning is unobservable)");
  return 1;
}

/* Pinned host memory: the core's caching host allocator over tdev's
 * host_alloc, pinned tensors, and non_blocking copies to and from them
 * (tdev's streams run queued work only on synchronize, so a copy still in
 * flight is observable). */
TEST(device_pinned_memory) {
  ct_device_stats a, b;
  ct_tensor *x, *p, *q, *e;
  tdev_init();
  if (tdev_skip_if_pinning_taken()) return;
  CHECK_ERR(ct_host_memory_stats(CT_DEVICE_CPU, &a), CT_ERR_UNSUPPORTED, "'cpu' offers no pinned host memory");
  CHECK_OK(ct_host_empty_cache(CT_DEVICE_PRIVATEUSE1));
  CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &a));
  x = dev_arange(10, CT_F32);
  CHECK(x && !ct_is_pinned(x));
  p = ct_pin_memory(x);
  CHECK(p && ct_is_pinned(p) && p->device.type == CT_DEVICE_CPU && p->storage != x->storage && p->storage->version == 0);
  CHECK(p && ct_get(p, 7) == 7);
  q = ct_pin_memory(p); /* already pinned: itself */
  CHECK(q == p);
  ct_release(q);
  CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &b));
  CHECK(b.allocated_blocks == a.allocated_blocks + 1 && b.allocated_bytes == a.allocated_bytes + 64); /* 40 B: 64 */
  CHECK(b.system_allocs == a.system_allocs + 1 && b.num_allocs == a.num_allocs + 1);
  { /* freed: cached, then handed out again without a system allocation */
    void *data = p->storage->data;
    ct_release(p);
    CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &b));
    CHECK(b.allocated_blocks == a.allocated_blocks && b.cached_blocks == a.cached_blocks + 1);
    p = ct_empty_ex(CT_DIMS(16), CT_F32, CT_CPU, true); /* 64 B: the same size class */
    CHECK(p && ct_is_pinned(p) && p->storage->data == data);
    CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &b));
    CHECK(b.system_allocs == a.system_allocs + 1);
    ct_release(p);
  }
  /* errors: not a CPU tensor, not a CPU device, no pinned memory on the type asked for */
  e = ct_to_device(x, TDEV(0));
  CHECK_ERR(ct_pin_memory(e), CT_ERR_DEVICE, "only dense CPU tensors can be pinned");
  CHECK_ERR(ct_empty_ex(CT_DIMS(4), CT_F32, TDEV(0), true), CT_ERR_DEVICE, "Only dense CPU tensors can be pinned");
  { /* meta: pin_memory ignored, as PyTorch 1.13's empty on meta */
    ct_tensor *m = ct_empty_ex(CT_DIMS(4), CT_F32, CT_META, true);
    CHECK(m && m->device.type == CT_DEVICE_META && !ct_is_pinned(m));
    ct_release(m);
  }
  CHECK_ERR(ct_pin_memory_ex(x, ct_device_make(CT_DEVICE_PRIVATEUSE3, 0)), CT_ERR_UNSUPPORTED, "'privateusethree' offers no pinned host memory");
  CHECK_ERR(ct_pin_memory_ex(x, CT_CPU), CT_ERR_UNSUPPORTED, "'cpu' offers no pinned host memory");
  CHECK_ERR(ct_pin_memory(NULL), CT_ERR_NULL, "self");
  { /* a pinned out= keeps pinned memory when it grows */
    ct_tensor *f = ct_empty_ex(CT_DIMS(3), CT_I64, CT_NO_DEVICE, true);
    ct_tensor *big = dev_arange(1000, CT_I64);
    CHECK(f && ct_is_pinned(f) && f->dtype == CT_I64);
    CHECK(f && ct_neg_out(f, big) == CT_OK && f->numel == 1000 && ct_is_pinned(f) && ct_get(f, 999) == -999);
    ct_release(f);
    ct_release(big);
  }
  { /* autograd: the gradient flows through the pinned copy */
    ct_tensor *w = ct_ones(CT_DIMS(3), CT_F32), *pw, *l;
    ct_set_requires_grad(w, true);
    pw = ct_pin_memory(w);
    ct_tensor *m = pw ? ct_mul_scalar(pw, ct_float(3)) : NULL;
    l = m ? ct_sum(m) : NULL;
    CHECK(l && ct_backward(l) == CT_OK);
    ct_release(m);
    CHECK(ct_grad(w) && ct_get(ct_grad(w), 0) == 3 && ct_get(ct_grad(w), 2) == 3);
    ct_release(l);
    ct_release(pw);
    ct_release(w);
  }
  ct_release(e);
  ct_release(x);
}

/* non_blocking copies: from pinned memory they are queued on the device's
 * stream and the host block waits for them; from pageable memory they are
 * synchronous. */
TEST(device_non_blocking_copies) {
  ct_stream s0 = ct_default_stream(TDEV(0));
  ct_device_stats st;
  ct_tensor *x, *p, *d, *back, *r;
  void *data;
  int i;
  tdev_init();
  if (tdev_skip_if_pinning_taken()) return;
  CHECK_OK(ct_device_synchronize(TDEV(0)));
  x = dev_arange(256, CT_F32);
  p = ct_pin_memory(x);
  d = ct_empty_opts(CT_DIMS(256), ct_opts(CT_F32, TDEV(0)));
  CHECK(p && d);
  CHECK_OK(ct_copy_ex_(d, p, true)); /* host to device, queued */
  CHECK(tdev_pending(s0) >= 2);      /* the copy and the host block's event */
  data = p->storage->data;
  ct_release(p); /* freeing the host side at once is safe: the block waits for the copy */
  CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &st));
  CHECK(st.pending_blocks == 1);
  r = ct_empty_ex(CT_DIMS(256), CT_F32, CT_CPU, true); /* same size class: not the pending block */
  CHECK(r && r->storage->data != data);
  if (r) memset(r->storage->data, 0xFF, r->storage->nbytes);
  CHECK_OK(ct_stream_synchronize(s0));
  back = ct_to_device(d, CT_CPU);
  for (i = 0; back && i < 256; i += 51) CHECK(ct_get(back, i) == i);
  CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &st));
  CHECK(st.pending_blocks == 0);
  ct_release(back);
  { /* device to host non_blocking: the result is pinned and filled once the stream is synchronized */
    ct_tensor *h = ct_to_device_ex(d, CT_CPU, CT_DTYPE_NONE, true, false);
    CHECK(h && ct_is_pinned(h) && tdev_pending(s0) >= 1);
    CHECK_OK(ct_device_synchronize(TDEV(0)));
    for (i = 0; h && i < 256; i += 51) CHECK(ct_get(h, i) == i);
    /* into a pinned out with copy_: queued too */
    CHECK_OK(ct_fill_(r, ct_int(0)));
    CHECK_OK(ct_copy_ex_(r, d, true));
    CHECK(tdev_pending(s0) >= 1);
    CHECK_OK(ct_stream_synchronize(s0));
    CHECK(ct_get(r, 255) == 255);
    ct_release(h);
  }
  { /* pageable memory: synchronous even when non_blocking is asked for */
    CHECK_OK(ct_copy_ex_(d, x, true));
    CHECK(tdev_pending(s0) == 0);
    back = ct_to_device_ex(d, CT_CPU, CT_DTYPE_NONE, false, false);
    CHECK(back && !ct_is_pinned(back) && tdev_pending(s0) == 0 && ct_get(back, 100) == 100);
    ct_release(back);
  }
  { /* record_stream on a pinned tensor: another stream of the type; a stream of another type is refused */
    ct_stream side;
    int ran = 0;
    void *q;
    CHECK_OK(ct_stream_create(TDEV(1), 0, &side));
    q = r->storage->data;
    CHECK_OK(tdev_enqueue(side, dev_noop, &ran));
    CHECK_OK(ct_record_stream(r, side));
    CHECK_ERR(ct_record_stream(r, ct_default_stream(CT_CPU)), CT_ERR_DEVICE, "pinned by 'privateuseone'");
    ct_release(r);
    r = ct_empty_ex(CT_DIMS(256), CT_F32, CT_CPU, true);
    CHECK(r && r->storage->data != q && ran == 0);
    CHECK_OK(ct_stream_synchronize(side));
    ct_release(r);
    r = ct_empty_ex(CT_DIMS(256), CT_F32, CT_CPU, true);
    CHECK(r && (r->storage->data == q || ran == 1)); /* free again once the side stream ran */
    CHECK_OK(ct_stream_destroy(side));
  }
  ct_release(r);
  ct_release(d);
  ct_release(x);
  CHECK_OK(ct_host_empty_cache(CT_DEVICE_PRIVATEUSE1));
  CHECK_OK(ct_host_memory_stats(CT_DEVICE_PRIVATEUSE1, &st));
  CHECK(st.cached_blocks == 0 && st.pending_blocks == 0 && st.reserved_bytes == st.allocated_bytes);
}

TEST(device_tdev_record_stream) {
  ct_stream side;
  ct_tensor *t, *u, *v;
  void *p;
  int ran = 0;
  ct_device_stats st;
  tdev_init();
  CHECK_OK(ct_stream_create(TDEV(0), 0, &side));
  t = ct_empty_opts(CT_DIMS(64), ct_opts(CT_F32, TDEV(0))); /* on the default stream */
  p = t ? t->storage->data : NULL;
  CHECK_OK(tdev_enqueue(side, dev_noop, &ran)); /* the side stream "uses" t */
  CHECK_OK(ct_record_stream(t, side));
  ct_release(t);
  CHECK_OK(ct_device_memory_stats(TDEV(0), &st));
  CHECK(st.pending_blocks == 1);
  u = ct_empty_opts(CT_DIMS(64), ct_opts(CT_F32, TDEV(0)));
  CHECK(u && u->storage->data != p); /* not reused while the side stream's work is pending */
  CHECK(ran == 0);
  CHECK_OK(ct_stream_synchronize(side));
  CHECK(ran == 1);
  v = ct_empty_opts(CT_DIMS(64), ct_opts(CT_F32, TDEV(0)));
  CHECK(v && v->storage->data == p); /* now it is */
  CHECK_OK(ct_device_memory_stats(TDEV(0), &st));
  CHECK(st.pending_blocks == 0);
  { /* without record_stream the block is reused at once on its own stream */
    void *q = v ? v->storage->data : NULL;
    ct_tensor *w;
    ct_release(v);
    w = ct_empty_opts(CT_DIMS(64), ct_opts(CT_F32, TDEV(0)));
    CHECK(w && w->storage->data == q);
    ct_release(w);
  }
  ct_release(u);
  CHECK_OK(ct_stream_destroy(side));
  CHECK_OK(ct_device_empty_cache(TDEV(0)));
}

static int dev_order[8], dev_norder;
static void dev_log(void *ctx) { dev_order[dev_norder++] = (int)(intptr_t)ctx; }
static void dev_sleep(void *ctx) {
  double t0 = ct__now_ms();
  (void)ctx;
  while (ct__now_ms() - t0 < 2.0) {
  }
}

TEST(device_tdev_streams_and_events) {
  ct_stream s1, s2;
  ct_event e, start, end;
  bool done = true;
  double ms = -1;
  tdev_init();
  dev_norder = 0;
  CHECK_OK(ct_stream_create(TDEV(1), 0, &s1));
  CHECK_OK(ct_stream_create(TDEV(1), 0, &s2));
  CHECK(s1.id != s2.id && s1.id != 0);
  CHECK_OK(tdev_enqueue(s1, dev_log, (void *)1));
  CHECK_OK(tdev_enqueue(s1, dev_log, (void *)2));
  CHECK_OK(ct_event_create(TDEV(1), 0, &e));
  CHECK_OK(ct_event_query(&e, &done));
  CHECK(done); /* never recorded: complete */
  CHECK_OK(ct_event_record(&e, s1));
  CHECK_OK(tdev_enqueue(s1, dev_log, (void *)3)); /* after the event */
  CHECK_OK(ct_stream_wait_event(s2, &e));
  CHECK_OK(tdev_enqueue(s2, dev_log, (void *)4));
  CHECK_OK(ct_stream_query(s1, &done));
  CHECK(!done);
  CHECK_OK(ct_event_query(&e, &done));
  CHECK(!done);
  CHECK(dev_norder == 0);
  CHECK_OK(ct_stream_synchronize(s2)); /* runs s1 up to the event, then s2 */
  CHECK(dev_norder == 3 && dev_order[0] == 1 && dev_order[1] == 2 && dev_order[2] == 4);
  CHECK_OK(ct_event_query(&e, &done));
  CHECK(done);
  CHECK(tdev_pending(s1) == 1);
  CHECK_OK(ct_event_create(TDEV(1), CT_EVENT_TIMING, &start));
  CHECK_OK(ct_event_create(TDEV(1), CT_EVENT_TIMING, &end));
  CHECK_OK(ct_event_record(&start, s1));
  CHECK_OK(tdev_enqueue(s1, dev_sleep, NULL));
  CHECK_OK(ct_event_record(&end, s1));
  CHECK_ERR(ct_event_elapsed_ms(&start, &end, &ms), CT_ERR_STATE, "complete");
  CHECK_OK(ct_event_synchronize(&end));
  CHECK(dev_norder == 4 && dev_order[3] == 3);
  CHECK_OK(ct_event_elapsed_ms(&start, &end, &ms));
  CHECK(ms >= 1.5);
  CHECK_OK(tdev_enqueue(s2, dev_log, (void *)5));
  CHECK_OK(ct_device_synchronize(TDEV(1)));
  CHECK(dev_norder == 5);
  ct_event_destroy(&e);
  ct_event_destroy(&start);
  ct_event_destroy(&end);
  CHECK_OK(ct_stream_destroy(s1));
  CHECK_OK(ct_stream_destroy(s2));
}

TEST(device_guards) {
  ct_stream s;
  tdev_init();
  CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 0);
  CT_DEVICE_GUARD(TDEV(1)) {
    CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 1);
    CT_DEVICE_GUARD(TDEV(0)) { CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 0); }
    CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 1);
  }
  CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 0);
  CT_DEVICE_GUARD(TDEV(7)) { CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 0); } /* bad: nothing changes */
  CHECK(ct_last_error() == CT_ERR_INDEX);
  ct_clear_error();
  CHECK_OK(ct_stream_create(TDEV(1), 0, &s));
  CT_STREAM_GUARD(s) {
    CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 1);
    CHECK(ct_stream_eq(ct_current_stream(TDEV(1)), s));
    CHECK(ct_current_stream(TDEV(0)).id == 0);
    CT_STREAM_GUARD(ct_default_stream(TDEV(1))) { CHECK(ct_current_stream(TDEV(1)).id == 0); }
    CHECK(ct_stream_eq(ct_current_stream(TDEV(1)), s));
    { /* a tensor made here is allocated on the current stream; a copy runs on it */
      ct_tensor *x = ct_ones(CT_DIMS(4), CT_F32), *y = ct_to_device(x, TDEV(1));
      CHECK(y && ct_get(y, 3) == 1.0);
      ct_release(x);
      ct_release(y);
    }
  }
  CHECK(ct_current_stream(TDEV(1)).id == 0);
  CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 0);
  CHECK_OK(ct_stream_destroy(s));
}

#ifdef CT__HAVE_PTHREAD
static void *dev_thread(void *arg) {
  int *ok = (int *)arg;
  *ok = ct_current_device(CT_DEVICE_PRIVATEUSE1) == 0 && ct_current_stream(TDEV(1)).id == 0;
  CT_DEVICE_GUARD(TDEV(1)) { *ok &= ct_current_device(CT_DEVICE_PRIVATEUSE1) == 1; }
  return NULL;
}
TEST(device_guards_per_thread) {
  pthread_t th;
  int ok = 0;
  ct_stream s;
  tdev_init();
  CHECK_OK(ct_stream_create(TDEV(1), 0, &s));
  CT_STREAM_GUARD(s) {
    CHECK(pthread_create(&th, NULL, dev_thread, &ok) == 0);
    pthread_join(th, NULL);
    CHECK(ok); /* the other thread saw its own defaults */
    CHECK(ct_current_device(CT_DEVICE_PRIVATEUSE1) == 1);
  }
  CHECK_OK(ct_stream_destroy(s));
}
#endif

TEST(device_copies) {
  ct_tensor *x, *d0, *d1, *back, *t, *h;
  int i;
  double v;
  tdev_init();
  x = dev_arange(12, CT_F64);
  { /* CPU -> tdev:0 -> tdev:1 -> CPU, contiguous */
    ct_tensor *xr = ct_reshape(x, CT_DIMS(3, 4));
    d0 = ct_to_device(xr, TDEV(0));
    d1 = ct_to_device(d0, TDEV(1));
    back = ct_to_device(d1, CT_CPU);
    CHECK(d0 && d1 && back && d1->device.index == 1 && back->device.type == CT_DEVICE_CPU);
    for (i = 0; i < 12; i++) CHECK(ct_get(back, i) == i);
    CHECK(ct_get(d1, 5) == 5 && ct_get_int(d0, 7) == 7);
    /* the device memory is scrambled: reading it directly does not give the values (under ASan it faults) */
#ifndef CT__ASAN
    CHECK(d0 && ((const unsigned char *)d0->storage->data)[0] == TDEV_KEY); /* element 0 is 0.0: all bytes 0 */
#endif
    ct_release(xr);
  }
  { /* non-contiguous source on the device, dtype conversion to the CPU */
    ct_tensor *tr = ct_transpose(d1, 0, 1); /* 4x3 view of device memory */
    ct_tensor *dst = ct_empty(CT_DIMS(4, 3), CT_I32);
    CHECK_OK(ct_copy_(dst, tr));
    for (i = 0; i < 12; i++) {
      int64_t want = (i % 3) * 4 + i / 3; /* element [i / 3][i % 3] of the transpose */
      CHECK(ct_get(dst, i) == (double)want);
    }
    /* CPU non-contiguous -> device non-contiguous with a dtype change */
    t = ct_empty_opts(CT_DIMS(4, 3), ct_opts(CT_F32, TDEV(1)));
    h = ct_transpose(t, 0, 1); /* 3x4 non-contiguous device view */
    {
      ct_tensor *dt = ct_transpose(dst, 0, 1);
      CHECK_OK(ct_copy_(h, dt));
      ct_release(dt);
    }
    for (i = 0; i < 12; i++) CHECK(ct_get(h, i) == i);
    /* device -> other device, strided both sides, f32 -> f64 */
    {
      ct_tensor *o = ct_zeros(CT_DIMS(4, 6), CT_F64), *od = ct_to_device(o, TDEV(0));
      ct_tensor *sl = ct_slice(od, 1, 0, 6, 2); /* 4x3, stride 2 */
      CHECK_OK(ct_copy_(sl, t));
      for (i = 0; i < 24; i++) CHECK(ct_get(od, i) == ((i % 2) ? 0.0 : ct_get(t, i / 2)));
      ct_release(o);
      ct_release(od);
      ct_release(sl);
    }
    /* broadcasting a CPU row into a device matrix */
    {
      ct_tensor *row = ct_arange(0, 3, 1, CT_F32);
      CHECK_OK(ct_copy_(t, row));
      for (i = 0; i < 12; i++) CHECK(ct_get(t, i) == i % 3);
      ct_release(row);
    }
    /* ct_set writes through */
    CHECK_OK(ct_set(t, 4, 42.0));
    CHECK(ct_get(t, 4) == 42.0);
    ct_release(tr);
    ct_release(dst);
    ct_release(h);
    ct_release(t);
  }
  { /* non-blocking device-to-device copy on a stream, then synchronize */
    ct_tensor *e = ct_empty_opts(CT_DIMS(3, 4), ct_opts(CT_F64, TDEV(1)));
    ct_stream s;
    bool done = true;
    CHECK_OK(ct_stream_create(TDEV(1), 0, &s));
    CT_STREAM_GUARD(s) {
      CHECK_OK(ct_copy_ex_(e, d1, true));
      CHECK_OK(ct_stream_query(s, &done));
      CHECK(!done);
      CHECK_OK(ct_stream_synchronize(s));
    }
    for (i = 0; i < 12; i++) CHECK(ct_get(e, i) == i);
    ct_release(e);
    CHECK_OK(ct_stream_destroy(s));
  }
  { /* element access, ct_item, ct_to_array, printing */
    char buf[256];
    double arr[12];
    ct_tensor *s0 = ct_select(d0, 0, 2), *one = ct_slice(s0, 0, 1, 2, 1);
    ct_tensor *sc = ct_reshape(one, 0, NULL);
    CHECK_OK(ct_item(sc, &v));
    CHECK(v == 9);
    ct_release(sc);
    CHECK_OK(ct_to_array(d1, CT_F64, arr));
    for (i = 0; i < 12; i++) CHECK(arr[i] == i);
    ct_format(s0, buf, sizeof buf);
    CHECK(!strcmp(buf, "tensor([ 8.,  9., 10., 11.], device='privateuseone:0', dtype=torch.float64)"));
    if (strcmp(buf, "tensor([ 8.,  9., 10., 11.], device='privateuseone:0', dtype=torch.float64)")) printf("    got %s\n", buf);
    ct_release(s0);
    ct_release(one);
  }
  ct_release(d0);
  ct_release(d1);
  ct_release(back);
  ct_release(x);
  CHECK_OK(ct_device_empty_cache(TDEV(0)));
  CHECK_OK(ct_device_empty_cache(TDEV(1)));
}

/* The CPU fallback (ctorch/fallback.h), registered by tdev_init for every op
 * without a tdev kernel: functional, tuple, Tensor[], in-place and out=
 * results, autograd through it, and its errors. The device memory is
 * scrambled, so a kernel reading it directly would give garbage. */
static ct_tensor *tdev_from(int ndim, const int64_t *sizes, const float *v, int index) {
  return ct_to_device(ct_from_array(ndim, sizes, CT_F32, v), TDEV(index));
}
TEST(device_cpu_fallback_runs_ops) {
  static const float av[6] = {1, -2, 3, 4, 5, -6}, bv[6] = {0.5f, 1, 2, -1, 0, 3};
  tdev_init();
  CT_SCOPE {
    ct_tensor *a = tdev_from(CT_DIMS(2, 3), av, 0), *b = tdev_from(CT_DIMS(2, 3), bv, 0), *r, *idx = NULL, *o, *parts[3];
    ct_tensor *a1 = tdev_from(CT_DIMS(2, 3), av, 1);
    int64_t n;
    r = ct_add(a, b);
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 0) == 1.5 && ct_get(r, 5) == -3);
    r = ct_mm(a, ct_t(b)); /* [[1*.5-2*1+3*2, ...]] */
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && r->sizes[0] == 2 && r->sizes[1] == 2 && ct_get(r, 0) == 4.5);
    r = ct_max_dim(a, 1, false, &idx);
    CHECK(r && idx && ct_device_eq(idx->device, TDEV(0)) && ct_get(r, 0) == 3 && ct_get(r, 1) == 5 && ct_get(idx, 1) == 1);
    n = ct_split(a, 1, 1, 3, parts);
    CHECK(n == 3 && ct_device_eq(parts[2]->device, TDEV(0)) && ct_get(parts[2], 1) == -6);
    CHECK_OK(ct_mul_(a, b)); /* in place: the device tensor itself is written */
    CHECK(ct_get(a, 0) == 0.5 && ct_get(a, 5) == -18 && ct_device_eq(a->device, TDEV(0)));
    o = ct_empty_opts(CT_DIMS(1), ct_opts(CT_F32, TDEV(0)));
    CHECK_OK(ct_sum_out(o, b, CT_DIMS(0), false)); /* out=, resized on the device */
    CHECK(o->ndim == 1 && o->sizes[0] == 3 && ct_device_eq(o->device, TDEV(0)) && ct_get(o, 2) == 5);
    CHECK(ct_device_eq(ct_transpose(a, 0, 1)->device, TDEV(0)));
    /* errors: two devices of one type, meta */
    CHECK_ERR(ct_add(a, a1), CT_ERR_DEVICE, "same device");
    CHECK(ct_get(a, 0) == 0.5); /* unchanged by the failed calls */
  }
  ct_clear_error();
}

TEST(device_cpu_fallback_autograd) {
  static const float xv[3] = {1, 2, 3};
  tdev_init();
  CT_SCOPE {
    ct_tensor *x = tdev_from(CT_DIMS(3), xv, 0), *y;
    ct_set_requires_grad(x, true);
    y = ct_sum(ct_mul(ct_exp(x), x));
    CHECK(y && ct_device_eq(y->device, TDEV(0)));
    CHECK_OK(ct_backward(y));
    CHECK(ct_grad(x) && ct_device_eq(ct_grad(x)->device, TDEV(0)));
    CHECK(ct_grad(x) && fabs(ct_get(ct_grad(x), 1) - 3 * exp(2.0)) < 1e-4);
  }
  ct_clear_error();
}

/* The whole op fixture suite (test_opcases.c) with every input on the test
 * device (index 1, so that a kernel assuming device 0 shows): each op runs
 * through the CPU fallback, results and gradients must come back on tdev:1
 * and agree with PyTorch. */
static void dev_opcases(const char *area, const char *const *const *cases) {
  tdev_init();
  opc_device = TDEV(1);
  opc_run_area(area, cases);
  opc_device = CT_CPU;
}
TEST(device_opcases_unary) { dev_opcases("unary", cases_unary); }
TEST(device_opcases_binary) { dev_opcases("binary", cases_binary); }
TEST(device_opcases_reduce) { dev_opcases("reduce", cases_reduce); }
TEST(device_opcases_linalg) { dev_opcases("linalg", cases_linalg); }
TEST(device_opcases_shape) { dev_opcases("shape", cases_shape); }
TEST(device_opcases_nn) { dev_opcases("nn", cases_nn); }
TEST(device_opcases_conv) {
#ifdef CT_TEST_VALGRIND /* (the same conv kernels run under valgrind in opcases_conv; through the device's copies they take half of the valgrind run) */
  harness_skip("the conv cases through the test device: opcases_conv runs their kernels under valgrind");
#else
  dev_opcases("conv", cases_conv);
#endif
}
TEST(device_opcases_random) { dev_opcases("random", cases_random); }
TEST(device_opcases_hardening) { dev_opcases("hardening", cases_hardening); }

/* The common-device rule (dispatch.h): one device per call, read-only 0-dim
 * CPU tensors go with any device; written arguments count; copy_ and the
 * index ops (CPU indices) opt out. Typed and boxed calls alike. */
TEST(device_common_device_rule) {
  static const float av[3] = {1, 2, 3};
  tdev_init();
  CT_SCOPE {
    ct_tensor *a = tdev_from(CT_DIMS(3), av, 0), *c = ct_from_array(CT_DIMS(3), CT_F32, av), *r;
    ct_tensor *s = ct_scalar_tensor(ct_float(2), CT_F32), *i = ct_zeros(CT_DIMS(2), CT_I64);
    ct_value buf[8];
    ct_stack st;
    CHECK_ERR(ct_add(a, c), CT_ERR_DEVICE, "found at least two devices, privateuseone:0 and cpu! (when checking argument 'other' against argument 'self')");
    CHECK_ERR(ct_add(a, tdev_from(CT_DIMS(3), av, 1)), CT_ERR_DEVICE, "privateuseone:0 and privateuseone:1");
    CHECK((r = ct_mul(a, s)) && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 2) == 6); /* a CPU scalar joins */
    CHECK_ERR(ct_mul_(s, a), CT_ERR_DEVICE, "same device"); /* but not as the written argument */
    CHECK_ERR(ct_add_out(s, a, a), CT_ERR_DEVICE, "same device");
    CHECK((r = ct_index(a, 1, &i)) && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 1) == 1); /* CPU indices */
    CHECK_OK(ct_copy_(c, a)); /* copy_ moves data between devices */
    ct_stack_init(&st, buf, 8);
    ct_stack_push(&st, ct_value_tensor(a));
    ct_stack_push(&st, ct_value_tensor(c));
    ct_stack_push(&st, ct_value_scalar(ct_int(1)));
    CHECK_ERR(ct_call_boxed(ct_op_find("add.Tensor"), &st), CT_ERR_DEVICE, "same device");
    ct_stack_free(&st);
  }
  ct_clear_error();
}

/* The kernels do not check devices themselves: the generated frontend's
 * one check refuses mixed devices for every op before a kernel runs (a CPU
 * kernel given device memory would read it: tdev's is poisoned under ASan,
 * meta's is NULL). One call per op whose kernel used to check. */
TEST(device_mixed_devices_refused_before_the_kernel) {
  static const float v[24] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24};
  const int64_t k2[2] = {2, 2}, one[2] = {1, 1}, zero[2] = {0, 0};
  int d;
  tdev_init();
  for (d = 0; d < 2; d++) CT_SCOPE {
    ct_device other = d == 0 ? TDEV(0) : CT_META;
    const char *name = d == 0 ? "cpu and privateuseone:0" : "cpu and meta", *rname = d == 0 ? "privateuseone:0 and cpu" : "meta and cpu";
    ct_tensor *m = ct_from_array(CT_DIMS(2, 2), CT_F32, v), *o = ct_to_device(m, other);
    ct_tensor *vc = ct_from_array(CT_DIMS(2), CT_F32, v), *vo = ct_to_device(vc, other);
    ct_tensor *b3 = ct_from_array(CT_DIMS(1, 2, 2), CT_F32, v), *b3o = ct_to_device(b3, other);
    ct_tensor *x4 = ct_from_array(CT_DIMS(1, 1, 4, 4), CT_F32, v), *w4o = ct_to_device(ct_from_array(CT_DIMS(1, 1, 2, 2), CT_F32, v), other);
    ct_tensor *g4o = ct_to_device(ct_from_array(CT_DIMS(1, 1, 2, 2), CT_F32, v), other), *idx = ct_zeros(CT_DIMS(1, 1, 2, 2), CT_I64);
    ct_tensor *tgt = ct_to_device(ct_zeros(CT_DIMS(2), CT_I64), other), *p = ct_to_device(ct_full(CT_DIMS(2), ct_float(0.5), CT_F32), other);
    ct_tensor *cats[2];
    cats[0] = m, cats[1] = o;
    CHECK_ERR(ct_mm(m, o), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_dot(vc, vo), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_mv(m, vo), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_addmm(m, m, o), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_bmm(b3, b3o), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_baddbmm(b3, b3, b3o), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_conv2d(x4, w4o, NULL, 2, one, 2, zero, 2, one, 1), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_max_pool2d_with_indices_backward(g4o, x4, 2, k2, 2, k2, 2, zero, 2, one, false, idx), CT_ERR_DEVICE, rname);
    CHECK_ERR(ct_avg_pool2d_backward(g4o, x4, 2, k2, 2, k2, 2, zero, false, true, CT_INT_NONE), CT_ERR_DEVICE, rname);
    CHECK_ERR(ct_nll_loss(m, tgt, NULL, 1, -100), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_binary_cross_entropy(vc, p, NULL, 1), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_binary_cross_entropy_with_logits(vc, ct_full(CT_DIMS(2), ct_float(0.5), CT_F32), NULL, p, 1), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_normal_tensor_tensor(vc, p), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_cat(2, cats, 0), CT_ERR_DEVICE, name);
    CHECK_ERR(ct_gather(m, 0, ct_to_device(ct_zeros(CT_DIMS(1, 2), CT_I64), other)), CT_ERR_DEVICE, name);
  }
  ct_clear_error();
}

/* Gradients keep to their tensors' devices (PyTorch's validate_outputs): a
 * grad_output on another device is refused unless 0-dim (then moved). */
TEST(device_autograd_grad_devices) {
  static const float xv[3] = {1, 2, 3};
  tdev_init();
  CT_SCOPE {
    ct_tensor *x = tdev_from(CT_DIMS(3), xv, 0), *y, *s, *go = ct_ones(CT_DIMS(3), CT_F32), *g0 = ct_scalar_tensor(ct_float(2), CT_F32);
    ct_tensor *grads[1] = {NULL};
    ct_backward_desc d;
    ct_set_requires_grad(x, true);
    y = ct_mul(x, x);
    memset(&d, 0, sizeof d);
    d.num_outputs = 1, d.outputs = &y, d.grad_outputs = &go, d.retain_graph = true;
    CHECK_ERR(ct_autograd_grad(&d, 1, &x, grads), CT_ERR_DEVICE, "invalid gradient at index 0 - expected device privateuseone:0 but got cpu:0");
    s = ct_sum(y);
    d.outputs = &s, d.grad_outputs = &g0;
    CHECK_OK(ct_autograd_grad(&d, 1, &x, grads));
    CHECK(grads[0] && ct_device_eq(grads[0]->device, TDEV(0)) && ct_get(grads[0], 2) == 12); /* 2 * 2x */
    ct_release(grads[0]);
  }
  ct_clear_error();
}

/* The autograd tests (test_autograd.c, test_views_inplace.c) again with the
 * test device as the thread's default device: every tensor their factories
 * make is on tdev:0, every op runs through the CPU fallback, and each test's
 * checks must hold as on the CPU. */
static void dev_run_file_on(const char *file, ct_device dev) {
  int i, n = 0, bad = 0, used = 0;
  size_t fl = strlen(file);
  char name[32];
  snprintf(name, sizeof name, "%s:%d", ct_device_type_name((ct_device_type)dev.type), dev.index);
  for (i = 0; i < harness_count; i++) {
    const char *f = harness_tests[i].file;
    size_t l = strlen(f);
    int before = harness_failures_in_test;
    ct_device_stats s0, s1;
    if (l < fl || strcmp(f + l - fl, file)) continue;
    CHECK_OK(ct_device_memory_stats(dev, &s0));
    CHECK_OK(ct_set_default_device(dev));
    harness_tests[i].fn();
    ct_set_default_device(CT_CPU);
    ct_clear_error();
    CHECK_OK(ct_device_memory_stats(dev, &s1));
    if (s1.num_allocs == s0.num_allocs) printf("    (%s made no tensor on %s)\n", harness_tests[i].name, name);
    else used++;
    n++;
    if (harness_failures_in_test != before) {
      bad++;
      printf("    (in %s on %s)\n", harness_tests[i].name, name);
    }
  }
  printf("    %s on %s: %d tests (%d made tensors there), %d failed\n", file, name, n, used, bad);
  CHECK(used > 0 && used >= n - 2);
}
static void dev_run_file(const char *file) {
  tdev_init();
  dev_run_file_on(file, TDEV(0));
}
TEST(device_autograd_suite) { dev_run_file("test_autograd.c"); }
TEST(device_views_inplace_suite) { dev_run_file("test_views_inplace.c"); }
TEST(device_view_programs_suite) { dev_run_file("test_view_programs.c"); }

/* The fallback keeps aliasing: arguments sharing device memory share host
 * memory, so the CPU kernel sees (and refuses, or computes) what it would on
 * the CPU: x.add_(x.t()) is refused, an overlapping as_strided view is
 * written element by element. */
TEST(device_cpu_fallback_aliasing) {
  static const float v[4] = {1, 2, 3, 4};
  tdev_init();
  CT_SCOPE {
    ct_tensor *x = tdev_from(CT_DIMS(2, 2), v, 0), *c = ct_from_array(CT_DIMS(2, 2), CT_F32, v);
    ct_tensor *y = tdev_from(CT_DIMS(4), v, 0), *cy = ct_from_array(CT_DIMS(4), CT_F32, v), *o, *co;
    int64_t k, sz[2] = {2, 2}, st[2] = {1, 1};
    uint32_t ver = x->storage->version;
    /* partial overlap of input and output: refused on the device as on the CPU (it was computed on separate copies) */
    CHECK_ERR(ct_add_(x, ct_t(x)), CT_ERR_INVALID, "refer to a single memory location");
    CHECK_ERR(ct_add_(c, ct_t(c)), CT_ERR_INVALID, "refer to a single memory location");
    CHECK_OK(ct_mul_(x, x));
    CHECK_OK(ct_mul_(c, c));
    for (k = 0; k < 4; k++) CHECK(ct_get(x, k) == ct_get(c, k));
    CHECK(x->storage->version > ver); /* the device tensor's version moved: autograd sees the change */
    o = ct_as_strided(y, 2, sz, 2, st, 1), co = ct_as_strided(cy, 2, sz, 2, st, 1);
    CHECK_OK(ct_mul_scalar_(o, ct_int(3)));
    CHECK_OK(ct_mul_scalar_(co, ct_int(3)));
    for (k = 0; k < 4; k++) CHECK(ct_get(y, k) == ct_get(cy, k));
  }
  ct_clear_error();
}

/* to(device) is the dispatched to.device over _to_copy: differentiable, the
 * gradient going back to the source's device and dtype (PyTorch's
 * _to_copy_backward); copy_ from another device or dtype likewise. */
TEST(device_to_is_differentiable) {
  static const float xv[3] = {1, 2, 3};
  tdev_init();
  CT_SCOPE {
    ct_tensor *x = ct_from_array(CT_DIMS(3), CT_F32, xv), *y, *z, *w, *c, *grads[1] = {NULL};
    ct_value buf[8];
    ct_stack st;
    ct_backward_desc d;
    ct_set_requires_grad(x, true);
    y = ct_to_device(x, TDEV(1));
    CHECK(y && ct_device_eq(y->device, TDEV(1)) && y->dtype == CT_F32 && !ct_is_leaf(y) && ct_get(y, 2) == 3);
    CHECK(y && ct_grad_fn_name(y) && !strcmp(ct_grad_fn_name(y), "ToCopyBackward0"));
    CHECK_OK(ct_backward(ct_sum(ct_mul(y, y))));
    CHECK(ct_grad(x) && ct_device_eq(ct_grad(x)->device, CT_CPU) && ct_grad(x)->dtype == CT_F32 && ct_get(ct_grad(x), 2) == 6);
    /* device and dtype at once, and back again: two hops */
    z = ct_to_device_ex(x, TDEV(0), CT_F64, false, false);
    CHECK(z && ct_device_eq(z->device, TDEV(0)) && z->dtype == CT_F64);
    w = ct_to_device(ct_mul(z, z), CT_CPU);
    memset(&d, 0, sizeof d);
    d.num_outputs = 1, d.outputs = &w, d.grad_outputs = NULL;
    w = ct_sum(w);
    d.outputs = &w;
    CHECK_OK(ct_autograd_grad(&d, 1, &x, grads));
    CHECK(grads[0] && ct_device_eq(grads[0]->device, CT_CPU) && grads[0]->dtype == CT_F32 && ct_get(grads[0], 1) == 4);
    ct_release(grads[0]);
    /* nothing to do: self itself (as PyTorch's to()); copy=True: a new tensor */
    CHECK(ct_to_device(x, CT_CPU) == x);
    CHECK((c = ct_to_device_ex(x, CT_CPU, CT_DTYPE_NONE, false, true)) && c != x && c->storage != x->storage && !ct_is_leaf(c));
    /* to an integer dtype: no gradient flows (the result does not require grad) */
    CHECK((c = ct_to_device_ex(x, TDEV(0), CT_I64, false, false)) && !ct_requires_grad(c) && c->dtype == CT_I64);
    /* copy_ from another device: the source's gradient goes back there */
    c = ct_zeros(CT_DIMS(2, 3), CT_F64);
    z = ct_to_device(ct_detach(x), TDEV(1));
    ct_set_requires_grad(z, true);
    CHECK_OK(ct_copy_(c, z)); /* broadcast [3] -> [2, 3], f32 -> f64, tdev:1 -> cpu */
    CHECK(!ct_is_leaf(c));
    CHECK_OK(ct_backward(ct_sum(ct_mul(c, c))));
    CHECK(ct_grad(z) && ct_device_eq(ct_grad(z)->device, TDEV(1)) && ct_grad(z)->dtype == CT_F32 && ct_get(ct_grad(z), 2) == 12);
    /* boxed, and a bad device value */
    ct_stack_init(&st, buf, 8);
    ct_stack_push(&st, ct_value_tensor(x));
    ct_stack_push(&st, ct_value_device(TDEV(1)));
    ct_stack_push(&st, ct_value_dtype(CT_F64));
    ct_stack_push(&st, ct_value_bool(false));
    ct_stack_push(&st, ct_value_bool(false));
    CHECK_OK(ct_call_boxed(ct_op_find("to.device"), &st));
    CHECK(st.size == 1 && st.items[0].v.tensor && ct_device_eq(st.items[0].v.tensor->device, TDEV(1)) &&
          st.items[0].v.tensor->dtype == CT_F64);
    ct_stack_drop(&st, st.size);
    ct_stack_push(&st, ct_value_tensor(x));
    ct_stack_push(&st, ct_value_device(ct_device_make((ct_device_type)2, 99)));
    ct_stack_push(&st, ct_value_none());
    ct_stack_push(&st, ct_value_bool(false));
    ct_stack_push(&st, ct_value_bool(false));
    CHECK_ERR(ct_call_boxed(ct_op_find("to.device"), &st), CT_ERR_INVALID, "argument 1 ('device'): invalid device");
    ct_stack_drop(&st, st.size);
    ct_stack_push(&st, ct_value_tensor(x));
    ct_stack_push(&st, ct_value_none()); /* device is not optional */
    ct_stack_push(&st, ct_value_none());
    ct_stack_push(&st, ct_value_bool(false));
    ct_stack_push(&st, ct_value_bool(false));
    CHECK_ERR(ct_call_boxed(ct_op_find("to.device"), &st), CT_ERR_INVALID, "wrong type");
    ct_stack_free(&st);
  }
  ct_clear_error();
}

/* Factories dispatch through BackendSelect on their device argument (the
 * thread's default device when none is given): a backend's own empty
 * kernel serves ct_empty, ct_zeros, ct_ones, ct_full and ct_scalar_tensor. */
static int tdev_empty_calls;
static ct_tensor *tdev_counting_empty(ct_keyset ks, ct_int_list size, ct_dtype dtype, ct_device device) {
  int64_t strides[CT_MAX_DIMS], st = 1;
  int i;
  (void)ks;
  tdev_empty_calls++;
  for (i = (int)size.n - 1; i >= 0; i--) strides[i] = st, st *= size.data[i] > 1 ? size.data[i] : 1;
  return ct_empty_strided((int)size.n, size.data, strides, ct_opts(dtype == CT_DTYPE_NONE ? CT_F32 : dtype, device)); /* (owned: no scope at kernel depth) */
}
TEST(device_factories_backend_select) {
  const ct_op *empty = ct_op_find("empty.memory_format");
  ct_kernel builtin;
  tdev_init();
  CHECK(empty != NULL);
  if (!empty) return;
  builtin = ct_op_registered(empty, CT_KEY_PRIVATEUSE1);
  CT_SCOPE {
    ct_tensor *t;
    ct_value buf[4];
    ct_stack st;
    CHECK((t = ct_zeros_ex(CT_DIMS(2, 3), CT_F64, TDEV(1))) && ct_device_eq(t->device, TDEV(1)) && t->dtype == CT_F64 && ct_get(t, 5) == 0);
    CHECK((t = ct_full_ex(CT_DIMS(2), ct_int(7), CT_DTYPE_NONE, TDEV(0))) && t->dtype == CT_I64 && ct_get(t, 1) == 7); /* the value's dtype */
    CHECK((t = ct_full(CT_DIMS(2), ct_bool(true), CT_DTYPE_NONE)) && t->dtype == CT_BOOL && ct_device_eq(t->device, CT_CPU));
    CHECK((t = ct_empty_ex(CT_DIMS(4), CT_DTYPE_NONE, CT_META, false)) && t->dtype == CT_F32 && t->device.type == CT_DEVICE_META);
    CHECK_ERR(ct_empty_ex(CT_DIMS(4), CT_F32, ct_device_make(CT_DEVICE_PRIVATEUSE3, 0), false), CT_ERR_DEVICE, "no allocator for device 'privateusethree'");
    /* a backend's own empty kernel serves every factory on its device */
    CHECK_OK(ct_impl_remove("empty.memory_format", CT_KEY_PRIVATEUSE1)); /* (the registry refuses a second kernel) */
    CHECK_OK(ct_impl("empty.memory_format", CT_KEY_PRIVATEUSE1, ct_kernel_unboxed(CT_FN(tdev_counting_empty))));
    tdev_empty_calls = 0;
    CHECK((t = ct_ones_ex(CT_DIMS(3), CT_I32, TDEV(1))) && ct_device_eq(t->device, TDEV(1)) && ct_get(t, 2) == 1);
    CHECK((t = ct_scalar_tensor_ex(ct_float(2.5), CT_DTYPE_NONE, TDEV(0))) && t->ndim == 0 && ct_get(t, 0) == 2.5);
    /* arange, eye, linspace and the random factories: empty on the device, then their out= form */
    CHECK((t = ct_arange_start_step_ex(ct_int(0), ct_int(5), ct_int(2), CT_DTYPE_NONE, TDEV(1))) && ct_device_eq(t->device, TDEV(1)) &&
          t->dtype == CT_I64 && t->numel == 3 && ct_get(t, 2) == 4 && t->storage->version == 0);
    CHECK((t = ct_eye_ex(3, CT_F64, TDEV(0))) && ct_device_eq(t->device, TDEV(0)) && ct_get(t, 4) == 1 && ct_get(t, 5) == 0);
    CHECK((t = ct_linspace_ex(ct_float(0), ct_float(1), 5, CT_DTYPE_NONE, TDEV(1))) && ct_device_eq(t->device, TDEV(1)) && ct_get(t, 2) == 0.5);
    {
      ct_generator *gd = ct_generator_new(TDEV(1)), *gc = ct_generator_new(CT_CPU);
      ct_tensor *r = ct_rand_ex(CT_DIMS(4), gd, CT_DTYPE_NONE, CT_NO_DEVICE), *c = ct_rand_ex(CT_DIMS(4), gc, CT_DTYPE_NONE, CT_NO_DEVICE);
      CHECK(r && c && ct_device_eq(r->device, TDEV(1))); /* no device, a generator: the generator's device */
      CHECK(r && c && ct_get(r, 0) == ct_get(c, 0) && ct_get(r, 3) == ct_get(c, 3)); /* the same stream as the CPU's */
      ct_generator_free(gd), ct_generator_free(gc);
    }
    CHECK((t = ct_randint_ex(3, 4, CT_DIMS(6), NULL, CT_DTYPE_NONE, TDEV(0))) && ct_device_eq(t->device, TDEV(0)) && t->dtype == CT_I64 &&
          ct_get(t, 5) == 3);
    CHECK((t = ct_randperm_ex(5, NULL, CT_DTYPE_NONE, TDEV(1))) && ct_device_eq(t->device, TDEV(1)) && ct_get(t, 0) + ct_get(t, 1) + ct_get(t, 2) + ct_get(t, 3) + ct_get(t, 4) == 10);
    CHECK((t = ct_zeros_like(t)) && ct_device_eq(t->device, TDEV(1)) && t->dtype == CT_I64);
    CHECK(tdev_empty_calls == 9);
    CHECK_OK(ct_set_default_device(TDEV(1)));
    CHECK((t = ct_zeros(CT_DIMS(2), CT_F32)) && ct_device_eq(t->device, TDEV(1)));
    CHECK((t = ct_arange(0, 3, 1, CT_F32)) && ct_device_eq(t->device, TDEV(1)) && ct_get(t, 2) == 2);
    CHECK((t = ct_randn(CT_DIMS(2))) && ct_device_eq(t->device, TDEV(1)));
    CHECK((t = ct_from_array(CT_DIMS(2), CT_F32, (const float[]){1.5f, 2.5f})) && ct_device_eq(t->device, TDEV(1)) &&
          ct_get(t, 1) == 2.5 && t->storage->version == 0);
    ct_stack_init(&st, buf, 4); /* boxed, device None: the default device too */
    ct_stack_push(&st, ct_value_int_list((const int64_t[]){2, 2}, 2));
    ct_stack_push(&st, ct_value_none());
    ct_stack_push(&st, ct_value_none());
    ct_stack_push(&st, ct_value_none()); /* pin_memory */
    CHECK_OK(ct_call_boxed(empty, &st));
    CHECK(st.size == 1 && st.items[0].v.tensor && ct_device_eq(st.items[0].v.tensor->device, TDEV(1)));
    ct_stack_free(&st);
    ct_set_default_device(CT_CPU);
    CHECK(tdev_empty_calls == 13);
    CHECK((t = ct_zeros(CT_DIMS(2), CT_F32)) && ct_device_eq(t->device, CT_CPU) && tdev_empty_calls == 13); /* CPU: not the tdev kernel */
    CHECK_OK(ct_impl_remove("empty.memory_format", CT_KEY_PRIVATEUSE1));
    CHECK_OK(ct_impl("empty.memory_format", CT_KEY_PRIVATEUSE1, builtin));
  }
  ct_set_default_device(CT_CPU);
  ct_clear_error();
}

/* The pointwise engine's loop per device type (ops/pointwise.h): tdev sets
 * one, so every pointwise op has a tdev kernel and runs natively (on
 * scrambled memory: a result is right only if the loop, not a CPU kernel,
 * touched it); removing the loop gives the ops back to the CPU fallback. */
TEST(device_pointwise_loop) {
  static const float av[6] = {1, -2, 3, 4, 5, -6}, bv[6] = {0.5f, 1, 2, -1, 0, 3};
  static const int64_t iv[3] = {7, 8, 9}, zv[3] = {1, 0, 2};
  tdev_init();
  CT_SCOPE {
    ct_tensor *a = tdev_from(CT_DIMS(2, 3), av, 0), *b = tdev_from(CT_DIMS(2, 3), bv, 0), *r, *at;
    ct_tensor *ia = ct_to_device(ct_from_array(CT_DIMS(3), CT_I64, iv), TDEV(0));
    ct_tensor *iz = ct_to_device(ct_from_array(CT_DIMS(3), CT_I64, zv), TDEV(0));
    const ct_op *add = ct_op_find("add.Tensor");
    int64_t calls = tdev_pointwise_calls;
    CHECK(ct_pointwise_loop(CT_DEVICE_PRIVATEUSE1) == tdev_pointwise && ct_pointwise_loop(CT_DEVICE_CPU) == ct_host_pointwise_loop);
    CHECK(add && ct_op_registered(add, CT_KEY_PRIVATEUSE1).source && !strcmp(ct_op_registered(add, CT_KEY_PRIVATEUSE1).source, "pointwise engine"));
    r = ct_add(a, b);
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 0) == 1.5 && ct_get(r, 5) == -3 && tdev_pointwise_calls == calls + 1);
    r = ct_exp(a); /* a unary function */
    CHECK(r && fabs(ct_get(r, 1) - exp(-2.0)) < 1e-6 && tdev_pointwise_calls == calls + 2);
    at = ct_t(a); /* the output takes the input's layout */
    r = ct_mul_scalar(at, ct_int(2));
    CHECK(r && r->strides[0] == 1 && r->strides[1] == 3 && ct_get(r, 1) == 8);
    r = ct_add(a, ct_scalar_tensor(ct_float(1), CT_F32)); /* a CPU 0-dim tensor joins */
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 5) == -5);
    r = ct_gt(a, b); /* bool result, promotion */
    CHECK(r && r->dtype == CT_BOOL && ct_get(r, 0) == 1 && ct_get(r, 1) == 0);
    CHECK_OK(ct_add_(a, b)); /* in place, on the device */
    CHECK(ct_get(a, 0) == 1.5);
    /* the data check runs in the loop: integer division by zero */
    CHECK_ERR(ct_remainder(ia, iz), CT_ERR_INVALID, "ZeroDivisionError");
    r = ct_remainder(ia, ct_add_scalar(iz, ct_int(3)));
    CHECK(r && ct_get_int(r, 0) == 3 && ct_get_int(r, 1) == 2 && ct_get_int(r, 2) == 4);
    /* copy_ within the device runs in its loop: strides, broadcasting, dtype conversion */
    calls = tdev_pointwise_calls;
    r = ct_contiguous(ct_t(b));
    CHECK(r && ct_is_contiguous(r) && ct_get(r, 1) == -1 && ct_get(r, 4) == 2 && tdev_pointwise_calls == calls + 1);
    r = ct_to_dtype(b, CT_I64);
    CHECK(r && r->dtype == CT_I64 && ct_get_int(r, 0) == 0 && ct_get_int(r, 3) == -1 && tdev_pointwise_calls == calls + 2);
    r = ct_empty_ex(CT_DIMS(2, 3), CT_F64, TDEV(0), false);
    CHECK_OK(ct_copy_(r, ct_narrow(ia, 0, 0, 3)));
    CHECK(ct_get(r, 0) == 7 && ct_get(r, 5) == 9 && tdev_pointwise_calls == calls + 3);
    { /* an output whose elements share memory is flagged for the device (it must write them in order) */
      int64_t osz[2] = {2, 2}, ost[2] = {1, 1};
      CHECK_OK(ct_mul_scalar_(ct_t(a), ct_int(1)));
      CHECK(!(tdev_pointwise_last_flags & CT_POINTWISE_OUT_OVERLAPS));
      CHECK_OK(ct_mul_scalar_(ct_as_strided(a, 2, osz, 2, ost, 0), ct_int(1)));
      CHECK(tdev_pointwise_last_flags & CT_POINTWISE_OUT_OVERLAPS);
    }
    /* removing the loop removes the kernels it registered: back to the CPU fallback */
    calls = tdev_pointwise_calls;
    CHECK_OK(ct_set_pointwise_loop(CT_DEVICE_PRIVATEUSE1, NULL));
    CHECK(!ct_op_registered(add, CT_KEY_PRIVATEUSE1).source && !ct_pointwise_loop(CT_DEVICE_PRIVATEUSE1));
    r = ct_add(a, b);
    CHECK(r && ct_get(r, 0) == 2 && tdev_pointwise_calls == calls);
    CHECK_OK(ct_set_pointwise_loop(CT_DEVICE_PRIVATEUSE1, tdev_pointwise));
    r = ct_add(a, b);
    CHECK(r && ct_get(r, 0) == 2 && tdev_pointwise_calls == calls + 1);
    /* meta runs meta steps only; the CPU keeps a loop */
    CHECK(ct_set_pointwise_loop(CT_DEVICE_META, tdev_pointwise) == CT_ERR_INVALID);
    CHECK(ct_set_pointwise_loop(CT_DEVICE_CPU, NULL) == CT_ERR_INVALID);
  }
  ct_clear_error();
}

/* The reduction engine's loop per device type (ops/reduce.h): tdev sets one,
 * so reductions, scans and sorts run in it (on scrambled memory), with the
 * op named in the call; the index bounds are a data check of the impl step. */
TEST(device_reduction_loop) {
  static const float av[6] = {1, -2, 3, 4, 5, -6};
  static const int64_t good[2] = {2, 0}, bad[2] = {0, 3};
  tdev_init();
  CT_SCOPE {
    ct_tensor *a = tdev_from(CT_DIMS(2, 3), av, 0), *r, *idx = NULL;
    const ct_op *sum = ct_op_find("sum.dim_IntList");
    int64_t calls = tdev_reduction_calls, d1 = 1;
    CHECK(ct_reduction_loop(CT_DEVICE_PRIVATEUSE1) == tdev_reduction && ct_reduction_loop(CT_DEVICE_CPU) == ct_host_reduction_loop);
    CHECK(sum && ct_op_registered(sum, CT_KEY_PRIVATEUSE1).source &&
          !strcmp(ct_op_registered(sum, CT_KEY_PRIVATEUSE1).source, "reduction engine"));
    r = ct_sum_dim(a, 1, &d1, false);
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 0) == 2 && ct_get(r, 1) == 3);
    CHECK(tdev_reduction_calls == calls + 1 && tdev_reduction_last_op == CT_RD_SUM);
    r = ct_max_dim(a, 1, true, &idx);
    CHECK(r && idx && r->ndim == 2 && ct_get(r, 0) == 3 && ct_get(r, 1) == 5 && ct_get_int(idx, 0) == 2 && ct_get_int(idx, 1) == 1);
    CHECK(tdev_reduction_last_op == CT_RD_ARGMAX);
    r = ct_cumsum(ct_t(a), 0); /* strided input: a scan along dim 0 of the transpose */
    CHECK(r && ct_get(r, 0) == 1 && ct_get(r, 2) == -1 && ct_get(r, 3) == 9 && ct_get(r, 5) == 3 && tdev_reduction_last_op == CT_RD_CUMSUM);
    r = ct_sort(a, 1, true, &idx);
    CHECK(r && ct_get(r, 0) == 3 && ct_get(r, 2) == -2 && ct_get_int(idx, 0) == 2 && tdev_reduction_last_op == CT_RD_SORT);
    r = ct_rd_gather(a, 1, ct_to_device(ct_from_array(CT_DIMS(2), CT_I64, good), TDEV(0)), false);
    CHECK(r && ct_get(r, 0) == 3 && ct_get(r, 1) == 4 && tdev_reduction_last_op == CT_RD_GATHER);
    CHECK_ERR(ct_rd_gather(a, 1, ct_to_device(ct_from_array(CT_DIMS(2), CT_I64, bad), TDEV(0)), false), CT_ERR_INDEX,
              "index 3 is out of bounds for dimension 1 with size 3");
    /* removing the loop: back to the CPU fallback; meta and NULL-on-CPU refused */
    calls = tdev_reduction_calls;
    CHECK_OK(ct_set_reduction_loop(CT_DEVICE_PRIVATEUSE1, NULL));
    CHECK(!ct_op_registered(sum, CT_KEY_PRIVATEUSE1).source && !ct_reduction_loop(CT_DEVICE_PRIVATEUSE1));
    r = ct_sum_dim(a, 1, &d1, false);
    CHECK(r && ct_get(r, 1) == 3 && tdev_reduction_calls == calls);
    CHECK_OK(ct_set_reduction_loop(CT_DEVICE_PRIVATEUSE1, tdev_reduction));
    r = ct_sum_dim(a, 1, &d1, false);
    CHECK(r && ct_get(r, 1) == 3 && tdev_reduction_calls == calls + 1);
    CHECK(ct_set_reduction_loop(CT_DEVICE_META, tdev_reduction) == CT_ERR_INVALID);
    CHECK(ct_set_reduction_loop(CT_DEVICE_CPU, NULL) == CT_ERR_INVALID);
  }
  ct_clear_error();
}

/* A structured family's impl step per device type (ops/structured.h, the
 * DispatchStub): tdev sets one for tril.out, and tril, tril_ and tril.out
 * then run meta + its impl on the device (the impl stages through the CPU
 * here); without it they take the CPU fallback. */
static int64_t tdev_tril_calls;
static ct_status tdev_tril(ct_tensor *self, int64_t diagonal, ct_tensor *out) {
  ct_status st;
  ct_tensor *h = ct_to_device(self, CT_CPU), *r = h ? ct_tril(h, diagonal) : NULL;
  tdev_tril_calls++;
  st = r && ct_is_contiguous(out) && ct_device_eq(out->device, self->device) ? ct_copy_(out, r) : CT_ERR_STATE;
  ct_release(r), ct_release(h);
  return st;
}
TEST(device_structured_impl) {
  static const float av[6] = {1, 2, 3, 4, 5, 6};
  tdev_init();
  CT_SCOPE {
    ct_tensor *a = tdev_from(CT_DIMS(2, 3), av, 0), *r, *o = ct_empty_ex(CT_DIMS(3, 2), CT_F32, TDEV(0), false);
    const ct_op *tril = ct_op_find("tril"), *tril_ = ct_op_find("tril_");
    int64_t calls = tdev_tril_calls;
    CHECK(tril && tril_ && !ct_op_registered(tril, CT_KEY_PRIVATEUSE1).source);
    r = ct_tril(a, 0); /* the CPU fallback */
    CHECK(r && ct_get(r, 1) == 0 && ct_get(r, 4) == 5 && tdev_tril_calls == calls);
    CHECK_OK(ct_set_structured_impl("tril.out", CT_DEVICE_PRIVATEUSE1, CT_STRUCTURED_IMPL(tril_out, tdev_tril)));
    CHECK(ct_op_registered(tril_, CT_KEY_PRIVATEUSE1).source && !strcmp(ct_op_registered(tril_, CT_KEY_PRIVATEUSE1).source, "structured impl"));
    r = ct_tril(a, 0);
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && ct_get(r, 1) == 0 && ct_get(r, 3) == 4 && ct_get(r, 4) == 5 && tdev_tril_calls == calls + 1);
    CHECK_OK(ct_tril_out(ct_t(o), a, 1)); /* a transposed out=: the impl writes a contiguous proxy */
    CHECK(ct_get(o, 0) == 1 && ct_get(o, 1) == 4 && ct_get(o, 2) == 2 && ct_get(o, 4) == 0 && tdev_tril_calls == calls + 2);
    CHECK_OK(ct_tril_(a, -1));
    CHECK(ct_get(a, 0) == 0 && ct_get(a, 3) == 4 && ct_get(a, 4) == 0 && tdev_tril_calls == calls + 3);
    CHECK_ERR(ct_tril(ct_narrow(ct_flatten(a, 0, 1), 0, 0, 3), 0), CT_ERR_RANK, "input tensor must have at least 2 dimensions");
    CHECK(tdev_tril_calls == calls + 3); /* the meta step refused it: no impl ran */
    /* removing it: back to the fallback; meta, a NULL CPU impl and unknown families refused */
    CHECK_OK(ct_set_structured_impl("tril.out", CT_DEVICE_PRIVATEUSE1, NULL));
    CHECK(!ct_op_registered(tril, CT_KEY_PRIVATEUSE1).source);
    r = ct_tril(tdev_from(CT_DIMS(2, 3), av, 0), 0);
    CHECK(r && ct_get(r, 2) == 0 && ct_get(r, 4) == 5 && tdev_tril_calls == calls + 3);
    CHECK(ct_set_structured_impl("tril.out", CT_DEVICE_META, CT_STRUCTURED_IMPL(tril_out, tdev_tril)) == CT_ERR_INVALID);
    CHECK(ct_set_structured_impl("tril.out", CT_DEVICE_CPU, NULL) == CT_ERR_INVALID);
    CHECK_ERR(ct_set_structured_impl("add.out", CT_DEVICE_PRIVATEUSE1, CT_STRUCTURED_IMPL(tril_out, tdev_tril)), CT_ERR_INVALID,
                     "not a structured op family");
  }
  ct_clear_error();
}

/* The index loop per device type (ops/shape.h): tdev sets one, so gather,
 * scatter, index_select, index_add, index_copy and embedding run in it (on
 * scrambled memory, through the host staging), and an index out of range is
 * the CPU's error. */
static int tdev_same_values(ct_tensor *a, ct_tensor *b) { /* a on the device, b on the CPU */
  int64_t i;
  ct_tensor *h = a ? ct_contiguous(ct_to_device(a, CT_CPU)) : NULL, *c = b ? ct_contiguous(b) : NULL;
  if (!h || !c || h->numel != c->numel || h->ndim != c->ndim) return 0;
  for (i = 0; i < h->numel; i++)
    if (ct_get(h, i) != ct_get(c, i)) return 0;
  return 1;
}
TEST(device_index_loop) {
  static const float av[6] = {1, -2, 3, 4, 5, -6};
  static const int64_t good[2] = {2, 0}, bad[2] = {0, 3}, g2[4] = {1, 0, 2, 2};
  tdev_init();
  CT_SCOPE {
    ct_tensor *a = tdev_from(CT_DIMS(2, 3), av, 0), *r, *ca = ct_to_device(a, CT_CPU);
    ct_tensor *gi = ct_to_device(ct_from_array(CT_DIMS(2), CT_I64, good), TDEV(0)), *ci = ct_from_array(CT_DIMS(2), CT_I64, good);
    ct_tensor *g2i = ct_from_array(CT_DIMS(2, 2), CT_I64, g2);
    const ct_op *op = ct_op_find("index_select");
    int64_t calls = tdev_index_calls;
    CHECK(ct_index_loop(CT_DEVICE_PRIVATEUSE1) == tdev_index && ct_index_loop(CT_DEVICE_CPU) == ct_host_index_loop);
    CHECK(op && ct_op_registered(op, CT_KEY_PRIVATEUSE1).source && !strcmp(ct_op_registered(op, CT_KEY_PRIVATEUSE1).source, "index engine"));
    r = ct_index_select(a, 1, gi);
    CHECK(r && ct_device_eq(r->device, TDEV(0)) && tdev_same_values(r, ct_index_select(ca, 1, ci)));
    CHECK_ERR(ct_index_select(a, 1, ci), CT_ERR_DEVICE, "Expected all tensors to be on the same device"); /* as PyTorch */
    r = ct_gather(a, 1, ct_to_device(g2i, TDEV(0)));
    CHECK(r && tdev_same_values(r, ct_gather(ca, 1, g2i)));
    r = ct_scatter_add(a, 1, ct_to_device(g2i, TDEV(0)), ct_to_device(ct_ones(CT_DIMS(2, 3), CT_F32), TDEV(0)));
    CHECK(r && tdev_same_values(r, ct_scatter_add(ca, 1, g2i, ct_ones(CT_DIMS(2, 3), CT_F32))));
    r = ct_index_add(ct_t(a), 0, gi, ct_ones(CT_DIMS(2, 2), CT_F32));
    CHECK(!r); /* (a CPU source with a device self: refused by the frontend's device check) */
    ct_clear_error();
    r = ct_index_add(ct_t(a), 0, gi, ct_to_device(ct_ones(CT_DIMS(2, 2), CT_F32), TDEV(0)));
    CHECK(r && tdev_same_values(r, ct_index_add(ct_t(ca), 0, ci, ct_ones(CT_DIMS(2, 2), CT_F32))));
    r = ct_embedding(ct_t(a), ct_to_device(g2i, TDEV(0)));
    CHECK(r && r->ndim == 3 && tdev_same_values(r, ct_embedding(ct_t(ca), g2i)));
    CHECK(tdev_index_calls >= calls + 5);
    { /* embedding's weight gradient: duplicates summed, padding_idx's row zero, 1 / count with scale_grad_by_freq */
      ct_tensor *go = ct_reshape(ct_arange(0, 12, 1, CT_F32), CT_DIMS(2, 2, 3)), *gg = ct_to_device(go, TDEV(0));
      int by;
      for (by = 0; by < 2; by++)
        CHECK(tdev_same_values(ct_embedding_dense_backward(gg, ct_to_device(g2i, TDEV(0)), 4, 2, by != 0),
                               ct_embedding_dense_backward(go, g2i, 4, 2, by != 0)));
      CHECK_ERR(ct_embedding_dense_backward(gg, ct_to_device(ct_add_scalar(g2i, ct_int(3)), TDEV(0)), 4, -1, false), CT_ERR_INDEX,
                "index 4 is out of bounds for dimension 0 with size 4");
    }
    { /* nll_loss and its backward on the device (gather / scatter), every reduction, weights, ignore_index */
      static const int64_t tv[6] = {0, 2, -100, 1, 2, 2}, tbad[3] = {0, 7, 1};
      ct_tensor *x = ct_reshape(ct_sin(ct_arange(0, 18, 1, CT_F32)), CT_DIMS(6, 3)), *gx = ct_to_device(x, TDEV(0));
      ct_tensor *t = ct_from_array(CT_DIMS(6), CT_I64, tv), *gt = ct_to_device(t, TDEV(0));
      ct_tensor *w = ct_add_scalar(ct_arange(0, 3, 1, CT_F32), ct_float(0.5)), *gw = ct_to_device(w, TDEV(0));
      int red, k;
      for (red = 0; red < 3; red++)
        for (k = 0; k < 2; k++) {
          ct_tensor *xc = ct_detach(x), *xg = ct_detach(gx), *lc, *lg;
          ct_set_requires_grad(xc, true);
          ct_set_requires_grad(xg, true);
          lc = ct_nll_loss(xc, t, k ? w : NULL, red, -100);
          lg = ct_nll_loss(xg, gt, k ? gw : NULL, red, -100);
          CHECK(lg && ct_device_eq(lg->device, TDEV(0)) && tdev_same_values(lg, lc));
          CHECK_OK(ct_backward(ct_sum(ct_mul(lc, ct_add_scalar(ct_zeros_like(lc), ct_float(1.5))))));
          CHECK_OK(ct_backward(ct_sum(ct_mul(lg, ct_add_scalar(ct_zeros_like(lg), ct_float(1.5))))));
          CHECK(tdev_same_values(ct_grad(xg), ct_grad(xc)));
        }
      CHECK_ERR(ct_nll_loss(ct_narrow(gx, 0, 0, 3), ct_to_device(ct_from_array(CT_DIMS(3), CT_I64, tbad), TDEV(0)), NULL, 1, -100),
                CT_ERR_INDEX, "Target 7 is out of bounds.");
    }
    CHECK_ERR(ct_index_select(a, 1, ct_to_device(ct_from_array(CT_DIMS(2), CT_I64, bad), TDEV(0))), CT_ERR_INDEX,
              "index out of range in self (index 3, size 3)");
    CHECK_ERR(ct_gather(a, 1, ct_to_device(ct_from_array(CT_DIMS(2, 1), CT_I64, bad), TDEV(0))), CT_ERR_INDEX,
              "index 3 is out of bounds for dimension 1 with size 3");
    CHECK(ct_set_index_loop(CT_DEVICE_META, tdev_index) == CT_ERR_INVALID);
  }
  ct_clear_error();
}

/* The random loop per device type (ops/random.h): tdev sets one, so the
 * sampling ops run in it, with the CPU's numbers for the same seed. */
TEST(device_random_loop) {
  tdev_init();
  CT_SCOPE {
    int64_t calls = tdev_random_calls;
    ct_tensor *c, *g, *cm = NULL, *gm = NULL;
    const ct_op *op = ct_op_find("normal_");
    CHECK(ct_random_loop(CT_DEVICE_PRIVATEUSE1) == tdev_random && ct_random_loop(CT_DEVICE_CPU) == ct_host_random_loop);
    CHECK(op && ct_op_registered(op, CT_KEY_PRIVATEUSE1).source && !strcmp(ct_op_registered(op, CT_KEY_PRIVATEUSE1).source, "random engine"));
    ct_manual_seed_all(99);
    c = ct_randn(CT_DIMS(5, 7));
    ct_manual_seed_all(99);
    g = ct_randn_ex(CT_DIMS(5, 7), NULL, CT_F32, TDEV(0));
    CHECK(g && ct_device_eq(g->device, TDEV(0)) && tdev_same_values(g, c));
    ct_manual_seed_all(5);
    c = ct_native_dropout_ex(ct_ones(CT_DIMS(40), CT_F64), 0.5, true, NULL, &cm);
    ct_manual_seed_all(5);
    g = ct_native_dropout_ex(ct_to_device(ct_ones(CT_DIMS(40), CT_F64), TDEV(0)), 0.5, true, NULL, &gm);
    CHECK(tdev_same_values(g, c) && tdev_same_values(gm, cm));
    CHECK(tdev_random_calls >= calls + 2);
    CHECK(ct_set_random_loop(CT_DEVICE_META, tdev_random) == CT_ERR_INVALID);
  }
  ct_clear_error();
}

/* The run-time version and the one-line summary of backends and devices. */
TEST(device_version_and_backends_summary) {
  char line[256], small[10];
  tdev_init();
  CHECK(!strcmp(ct_version(), CT_VERSION_STRING));
  ct_backends_summary(line, sizeof line);
  CHECK(!strncmp(line, "ctorch " CT_VERSION_STRING "; backends:", strlen("ctorch " CT_VERSION_STRING "; backends:")));
  CHECK(strstr(line, "; devices: cpu") && strstr(line, "privateuseone x2"));
  CHECK(ct_backends_summary(small, sizeof small) == small && strlen(small) == sizeof small - 1); /* truncated, terminated */
  CHECK(ct_backends_summary(NULL, 0) == NULL);
}
