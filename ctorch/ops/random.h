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
 *                       that rounds up to `to` becomes `from`.
 *   normal_ / randn     elements 2p and 2p+1 use block p (words 4p..4p+3):
 *                       u1 = u53(w0, w1), u2 = u53(w2, w3),
 *                       r = sqrt(-2 log(1 - u1)), t = 2 pi u2,
 *                       element 2p = fma(std, r cos t, mean), 2p+1 with sin.
 *                       normal(Tensor mean / std) draws that stream in
 *                       float64 (mean 0, std 1) and applies fma(std_i, z_i,
 *                       mean_i): normal(full(m), s) equals normal_(m, s).
 *   rand_like, randn_like: as uniform_ / normal_ on a new contiguous tensor.
 *   random_ / randint   words 2i, 2i+1 as x = w0 << 32 | w1: from + x mod (to - from)
 *                       (to None: the dtype's top + 1; a range of 2^64 takes x itself).
 *   bernoulli, dropout  words 2i, 2i+1: u53 < p gives 1 (dropout keeps with p' = 1 - p).
 *   randperm(n)         Fisher-Yates: step i (0 <= i < n) swaps r[i] and
 *                       r[i + x mod (n - i)], x from words 2i, 2i+1.
 * So the same (seed, offset) gives the same numbers on every run, thread
 * count and platform: everything but normal is integer arithmetic and
 * correctly rounded IEEE operations (fma included); normal also uses log,
 * cos and sin, whose last bit in float64 may differ between C libraries
 * (tests/test_ops_random.c allows 1e-15 there); float32 and lower results
 * are rounded from the float64 values, so they practically always agree.
 * A device's backend can compute the same streams.
 *
 * Thread safety: a generator's state is read and advanced under ctorch's
 * lock, so threads sharing a generator get disjoint counter ranges (in an
 * unspecified order: for reproducible streams give each thread its own
 * generator, or order the calls). Values are computed outside the lock.
 * ct_generator_free must not race with uses of the generator.
 *
 * The factories (rand, randn, randint, randperm, eye, linspace) dispatch
 * through BackendSelect on their device (ops/factory.h): None is the
 * generator's device when a generator is given, else the thread's default
 * device. Each is a composite: empty on the device, then its out= form.
 */
#ifndef CT_OPS_RANDOM_H
#define CT_OPS_RANDOM_H

#include "../ops.h"

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

/* The factories ct_rand, ct_randn, ct_randint, ct_randperm, ct_eye, ct_eye_m
 * and ct_linspace are generated frontends (gen/ops/random.spec); their _ex
 * forms take a generator, dtype and device. */

/* ---- the random loop per device type (as ops/pointwise.h's) ----
 * uniform_, normal_, random_, bernoulli (p, tensor p, in place), rand_like,
 * randn_like and native_dropout are meta steps, a reservation of the
 * generator's stream, and one ct_random_call that fills numel elements of
 * flat arrays (element i at the tensor's data pointer + i) with the values
 * Note [Generators] defines, from word j = word j % 4 of Philox block
 * base + j / 4 under key. A device that sets its loop with
 * ct_set_random_loop (spec key Random) computes the CPU's numbers on the
 * device (normal's last float64 bit may differ with the libm). */
typedef enum ct_random_kind {
  CT_RANDOM_UNIFORM,   /* out[i] = from + (to - from) u (fma), a value rounding up to `to` becomes `from` (a = from, b = to) */
  CT_RANDOM_NORMAL,    /* Box-Muller pairs: fma(std, z, mean) (a = mean, b = std) */
  CT_RANDOM_INTEGER,   /* out[i] = ifrom + x mod irange (irange 0: x) */
  CT_RANDOM_BERNOULLI, /* out[i] = u53 < p: p = a, or in[i] (float64 probabilities) */
  CT_RANDOM_DROPOUT    /* mask[i] = u53 < a; out[i] = mask[i] ? in[i] * b : 0 (in: out's dtype) */
} ct_random_kind;
typedef struct ct_random_call {
  int kind;               /* ct_random_kind */
  const char *name;       /* the op, for messages */
  ct_tensor *out;         /* written: numel elements from its data pointer */
  ct_tensor *in;          /* BERNOULLI: probabilities (float64) or NULL; DROPOUT: the input */
  ct_tensor *mask;        /* DROPOUT: bool */
  int64_t numel;
  uint32_t key[2];        /* the generator's seed */
  uint64_t base;          /* the op's first Philox block */
  double a, b;
  int64_t ifrom;
  uint64_t irange;
  int flags;              /* data checks the loop makes (CT_RANDOM_CHECK_*) */
} ct_random_call;
/* A data check, made by the loop (a device may check asynchronously): every
 * probability in[i] of a BERNOULLI call is in [0, 1], or the call fails. */
#define CT_RANDOM_CHECK_PROBS 1
typedef ct_status (*ct_random_loop_fn)(const ct_random_call *call);
CTDEF ct_status ct_set_random_loop(ct_device_type type, ct_random_loop_fn loop);
CTDEF ct_random_loop_fn ct_random_loop(ct_device_type type);
/* The CPU's loop; and a device loop's way to run a call it declines (staged, synchronous). */
CTDEF ct_status ct_host_random_loop(const ct_random_call *call);
CTDEF ct_status ct_random_on_host(const ct_random_call *call);

CT_EXTERN_C_END
#endif /* CT_OPS_RANDOM_H */

/* ==== implementation ==== */
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
/* The generator an op on t draws from: gen, or t's device's default. A CPU
 * kernel serving another device's op through the CPU fallback (fallback.h)
 * draws from that device's generators, so the fallback gives the device's
 * streams (which are the CPU's streams for the same seed and offset). */
static ct_generator *ct__rn_pick(const char *op, ct_generator *gen, const ct_tensor *t) {
  ct_device d = t->device;
  if (d.type == CT_DEVICE_CPU && ct__tls.fallback_device[0] != CT_DEVICE_CPU)
    d = ct_device_make((ct_device_type)ct__tls.fallback_device[0], ct__tls.fallback_device[1]);
  if (!gen) return ct_default_generator(d);
  if (gen->device.type != d.type && d.type != CT_DEVICE_META)
    return ct_fail(CT_ERR_DEVICE, op, "Expected a '%s' device type for generator but found '%s'",
                   ct_device_type_name((ct_device_type)d.type), ct_device_type_name((ct_device_type)gen->device.type)),
           (ct_generator *)NULL;
  return gen;
}
/* Reserve ceil(words / 4) blocks of g for one op. */
static ct__rn_stream ct__rn_stream_zero(void) { /* (a zeroed stream: no path reads it uninitialised) */
  ct__rn_stream s;
  memset(&s, 0, sizeof s);
  return s;
}
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

/* ---- the random loop: the CPU's, and the entry per device type ---- */
CTDEF ct_status ct_host_random_loop(const ct_random_call *c) {
  ct__rn_stream s = ct__rn_stream_zero();
  ct__rn_sink k;
  int64_t i, n = c->numel;
  s.key[0] = c->key[0], s.key[1] = c->key[1], s.base = c->base;
  k.self = k.buf = c->out;
  k.dtype = (ct_dtype)c->out->dtype;
  k.es = ct_dtype_size(k.dtype);
  k.data = (char *)ct_data_ptr(c->out);
  switch (c->kind) {
  case CT_RANDOM_UNIFORM: {
    int wide = k.dtype == CT_F64;
    double from = c->a, to = c->b;
    for (i = 0; i < n; i++) {
      double u = wide ? ct__rn_u53(&s, 2 * (uint64_t)i) : ct__rn_u24(&s, (uint64_t)i);
      ct__rn_put(&k, i, fma(to - from, u, from));
      if (from < to && ct__load_double(k.data + (size_t)i * k.es, k.dtype) >= to) ct__rn_put(&k, i, from);
    }
    break;
  }
  case CT_RANDOM_NORMAL:
    for (i = 0; i < n; i += 2) {
      uint64_t w = 2 * (uint64_t)i; /* = 4 * pair */
      double u1 = ct__rn_u53(&s, w), u2 = ct__rn_u53(&s, w + 2);
      double r = sqrt(-2.0 * log(1.0 - u1)), t = 6.283185307179586 * u2;
      ct__rn_put(&k, i, fma(c->b, r * cos(t), c->a));
      if (i + 1 < n) ct__rn_put(&k, i + 1, fma(c->b, r * sin(t), c->a));
    }
    break;
  case CT_RANDOM_INTEGER:
    for (i = 0; i < n; i++) {
      uint64_t x = ct__rn_u64(&s, 2 * (uint64_t)i);
      ct__rn_put_int(&k, i, (int64_t)((uint64_t)c->ifrom + (c->irange ? x % c->irange : x)));
    }
    break;
  case CT_RANDOM_BERNOULLI: {
    const double *probs = c->in ? (const double *)ct_data_ptr(c->in) : NULL;
    for (i = 0; probs && (c->flags & CT_RANDOM_CHECK_PROBS) && i < n; i++)
      if (!(probs[i] >= 0 && probs[i] <= 1))
        return ct_fail(CT_ERR_INVALID, c->name, "Expected p_in >= 0 && p_in <= 1 to be true, but got false (element %lld is %g)",
                       (long long)i, probs[i]);
    for (i = 0; i < n; i++) ct__rn_put_int(&k, i, ct__rn_u53(&s, 2 * (uint64_t)i) < (probs ? probs[i] : c->a));
    break;
  }
  case CT_RANDOM_DROPOUT: {
    ct_dtype dt = (ct_dtype)c->in->dtype;
    const char *src = (const char *)ct_data_ptr(c->in);
    bool *mk = (bool *)ct_data_ptr(c->mask);
    for (i = 0; i < n; i++) {
      mk[i] = ct__rn_u53(&s, 2 * (uint64_t)i) < c->a;
      ct__store_double(k.data + (size_t)i * k.es, dt, mk[i] ? ct__load_double(src + (size_t)i * k.es, dt) * c->b : 0.0);
    }
    break;
  }
  default: return ct_fail(CT_ERR_INVALID, c->name, "unknown random kind %d", c->kind);
  }
  return CT_OK;
}
CTDEF ct_status ct_random_on_host(const ct_random_call *c) {
  ct_random_call h = *c;
  ct_tensor *ops[3], *hops[3] = {NULL, NULL, NULL};
  ct__staging stage;
  int n = 0, nout;
  ct_status st;
  if (c->numel == 0) return CT_OK;
  ops[n++] = c->out;
  if (c->mask) ops[n++] = c->mask;
  nout = n;
  if (c->in) ops[n++] = c->in;
  if ((st = ct__stage_in(c->name, &stage, n, ops, hops)) == CT_OK) {
    h.out = hops[0];
    if (c->mask) h.mask = hops[1];
    if (c->in) h.in = hops[nout];
    if ((st = ct_host_random_loop(&h)) == CT_OK) st = ct__stage_out(&stage, nout, ops);
  }
  ct__stage_free(&stage, n, hops);
  return st;
}
static void (*ct__rn_loops[CT_DEVICE_NUM])(void) = {(void (*)(void))ct_host_random_loop};
CTDEF ct_random_loop_fn ct_random_loop(ct_device_type type) {
  if ((unsigned)type >= CT_DEVICE_NUM) return NULL;
  return (ct_random_loop_fn)ct__atomic_load(&ct__rn_loops[type]);
}
/* A call of `kind` over out (flat), from stream s. */
static void ct__rn_call(ct_random_call *c, int kind, const char *op, ct_tensor *out, const ct__rn_stream *s) {
  memset(c, 0, sizeof *c);
  c->kind = kind;
  c->name = op;
  c->out = out;
  c->numel = out->numel;
  c->key[0] = s->key[0], c->key[1] = s->key[1];
  c->base = s->base;
}
/* CPU tensors: the host loop (a CPU kernel serving another device's op through the fallback too); else the device's loop */
static ct_status ct__rn_run(const ct_random_call *c) {
  ct_random_loop_fn loop;
  if (CT_LIKELY(c->out->device.type == CT_DEVICE_CPU)) return ct_host_random_loop(c);
  loop = ct_random_loop((ct_device_type)c->out->device.type);
  return loop ? loop(c) : ct_random_on_host(c);
}

static ct_status ct__rn_floating_only(const char *op, const char *what, const ct_tensor *self) {
  if (ct_dtype_is_floating((ct_dtype)self->dtype)) return CT_OK;
  return ct_fail(CT_ERR_DTYPE, op, "\"%s\" not implemented for '%s'", what, ct__dtype_torch_name((ct_dtype)self->dtype));
}

/* ---- uniform_ ---- */
static ct_status ct__k_uniform_(ct_keyset ks, ct_tensor *self, double from, double to, ct_generator *gen) {
  static const char *op = "uniform_";
  ct__rn_stream s = ct__rn_stream_zero();
  ct__rn_sink k;
  ct_generator *g;
  ct_random_call c;
  int wide = self->dtype == CT_F64;
  (void)ks;
  if (ct__rn_floating_only(op, "check_uniform_bounds", self) != CT_OK) return ct_last_error();
  if (!(from <= to)) return ct_fail(CT_ERR_INVALID, op, "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", from, to);
  if (!isfinite(to - from)) return ct_fail(CT_ERR_INVALID, op, "uniform_ expects to-from <= std::numeric_limits<double>::max(), but found to=%g and from=%g which result in to-from to exceed the limit", to, from);
  if (ct__rn_begin(op, self, gen, wide ? 2 : 1, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  ct__rn_call(&c, CT_RANDOM_UNIFORM, op, k.buf, &s);
  c.a = from, c.b = to;
  return ct__rn_sink_close(&k, ct__rn_run(&c));
}

/* ---- normal_ (Box-Muller, see the note) ---- */
static ct_status ct__k_normal_(ct_keyset ks, ct_tensor *self, double mean, double std, ct_generator *gen) {
  static const char *op = "normal_";
  ct__rn_stream s = ct__rn_stream_zero();
  ct__rn_sink k;
  ct_generator *g;
  ct_random_call c;
  (void)ks;
  if (ct__rn_floating_only(op, "normal_kernel_cpu", self) != CT_OK) return ct_last_error();
  if (!(std >= 0)) return ct_fail(CT_ERR_INVALID, op, "normal expects std >= 0.0, but found std %g", std);
  /* two elements per block: reserve 2 words per element, rounded up to whole blocks */
  if (ct__rn_begin(op, self, gen, 2, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  ct__rn_call(&c, CT_RANDOM_NORMAL, op, k.buf, &s);
  c.a = mean, c.b = std;
  return ct__rn_sink_close(&k, ct__rn_run(&c));
}

/* ---- normal with tensor mean and/or std: fma(std, z, mean), z the float64
 * stream of normal_ over the (broadcast) result, so normal(full(m), s) is
 * bit for bit normal_(m, s). Structured (ops/structured.h): the meta step
 * checks and gives the (broadcast) output; the impl checks std's values
 * (PyTorch's CHECK_NORMAL_TENSOR_STD, before the generator is used) and
 * draws. ---- */
static ct_tensor *ct__rn_full64(const char *op, ct_tensor *t, int ndim, const int64_t *shape) {
  ct_tensor *r = ct__empty(op, ndim, shape, CT_F64, t->device);
  if (r && ct__copy_impl(r, t) != CT_OK) ct_release(r), r = NULL; /* broadcasts and converts */
  return r;
}
static ct_status ct__rn_normal_meta(ct__structured *st, ct_tensor *mean, ct_tensor *std, double std_f, ct_generator *gen) {
  ct_tensor *like = mean ? mean : std;
  int64_t shape[CT_MAX_DIMS];
  int ndim;
  ct_status s;
  if (!like) return ct__fail_null(st->op, "mean"); /* one of the two is a tensor in every overload */
  ndim = like->ndim;
  if (ct__rn_floating_only(st->op, "normal_kernel_cpu", like) != CT_OK) return ct_last_error();
  if (!std && !(std_f >= 0)) return ct_fail(CT_ERR_INVALID, st->op, "normal expects std >= 0.0, but found std %g", std_f);
  memcpy(shape, like->sizes, sizeof(int64_t) * (size_t)ndim);
  if (mean && std && (ndim = ct_broadcast_shapes(st->op, mean->ndim, mean->sizes, std->ndim, std->sizes, shape)) < 0) return ct_last_error();
  if ((s = ct__set_output(st, 0, ndim, shape, (ct_dtype)like->dtype, like->device)) != CT_OK) return s;
  /* (the generator is checked by the impl's draw, after std's values; the Meta device checks it here) */
  if (st->meta_only && !ct__rn_pick(st->op, gen, st->out[0])) return ct_last_error();
  return CT_OK;
}
static ct_status ct__rn_normal_impl(const char *op, ct_tensor *mean, double mean_f, ct_tensor *std, double std_f, ct_generator *gen,
                                    ct_tensor *out) {
  ct_tensor *z = NULL, *m = NULL, *sd = NULL;
  int64_t i;
  const double *zp, *mp, *sp;
  ct_status st = CT_OK;
  if ((std && !(sd = ct__rn_full64(op, std, out->ndim, out->sizes))) || (mean && !(m = ct__rn_full64(op, mean, out->ndim, out->sizes))))
    st = ct_last_error();
  for (i = 0, sp = sd ? (const double *)ct_data_ptr(sd) : NULL; st == CT_OK && sd && i < out->numel; i++)
    if (!(sp[i] >= 0)) st = ct_fail(CT_ERR_INVALID, op, "normal expects all elements of std >= 0.0");
  if (st == CT_OK && (!(z = ct__empty(op, out->ndim, out->sizes, CT_F64, out->device)) || ct__k_normal_(0, z, 0, 1, gen) != CT_OK))
    st = ct_last_error();
  if (st == CT_OK) {
    zp = (const double *)ct_data_ptr(z), mp = m ? (const double *)ct_data_ptr(m) : NULL;
    for (i = 0; i < out->numel; i++)
      ct__store_double((char *)ct_data_ptr(out) + (size_t)i * ct_dtype_size((ct_dtype)out->dtype), (ct_dtype)out->dtype,
                       fma(sp ? sp[i] : std_f, zp[i], mp ? mp[i] : mean_f));
  }
  ct_release(z), ct_release(m), ct_release(sd);
  return st;
}
static ct_status ct__meta_normal_tensor_float(ct__structured *st, ct_tensor *mean, double std, ct_generator *gen) {
  return ct__rn_normal_meta(st, mean, NULL, std, gen);
}
static ct_status ct__impl_normal_tensor_float(ct_tensor *mean, double std, ct_generator *gen, ct_tensor *out) {
  return ct__rn_normal_impl("normal", mean, 0, NULL, std, gen, out);
}
static ct_status ct__meta_normal_float_tensor(ct__structured *st, double mean, ct_tensor *std, ct_generator *gen) {
  (void)mean;
  return ct__rn_normal_meta(st, NULL, std, 0, gen);
}
static ct_status ct__impl_normal_float_tensor(double mean, ct_tensor *std, ct_generator *gen, ct_tensor *out) {
  return ct__rn_normal_impl("normal", NULL, mean, std, 0, gen, out);
}
static ct_status ct__meta_normal_tensor_tensor(ct__structured *st, ct_tensor *mean, ct_tensor *std, ct_generator *gen) {
  return ct__rn_normal_meta(st, mean, std, 0, gen);
}
static ct_status ct__impl_normal_tensor_tensor(ct_tensor *mean, ct_tensor *std, ct_generator *gen, ct_tensor *out) {
  return ct__rn_normal_impl("normal", mean, 0, std, 0, gen, out);
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
/* random_'s checks of [from, to) against the dtype (to CT_INT_NONE: up to
 * the dtype's top); *range = to - from, 0 meaning 2^64. Separate so that
 * randint's out= can check before it resizes its out. */
static ct_status ct__rn_check_range(const char *op, ct_dtype dtype, int64_t from, int64_t to, uint64_t *range) {
  int64_t lo, hi;
  ct__rn_int_bounds(dtype, &lo, &hi);
  if (to == CT_INT_NONE) { /* [from, top]: top is the largest exact integer (floats) or the maximum */
    if (from < lo || from > hi)
      return ct_fail(CT_ERR_INVALID, op, "from %lld is out of the range of %s", (long long)from, ct__dtype_torch_name(dtype));
    *range = (uint64_t)hi - (uint64_t)from + 1;
  } else {
    if (from >= to)
      return ct_fail(CT_ERR_INVALID, op, "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld", (long long)from,
                     (long long)to);
    if (from < lo || from > hi || to - 1 > hi || to - 1 < lo)
      return ct_fail(CT_ERR_INVALID, op, "random_ expects 'from' and 'to' - 1 to be in [%lld, %lld] for %s, but got from=%lld, to=%lld",
                     (long long)lo, (long long)hi, ct__dtype_torch_name(dtype), (long long)from, (long long)to);
    *range = (uint64_t)to - (uint64_t)from;
  }
  return CT_OK;
}
static ct_status ct__k_random_from_(ct_keyset ks, ct_tensor *self, int64_t from, int64_t to, ct_generator *gen) {
  static const char *op = "random_";
  ct__rn_stream s = ct__rn_stream_zero();
  ct__rn_sink k;
  ct_generator *g;
  ct_random_call c;
  uint64_t range; /* to - from; 0 means 2^64 */
  (void)ks;
  if (ct__rn_check_range(op, (ct_dtype)self->dtype, from, to, &range) != CT_OK) return ct_last_error();
  if (ct__rn_begin(op, self, gen, 2, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  ct__rn_call(&c, CT_RANDOM_INTEGER, op, k.buf, &s);
  c.ifrom = from, c.irange = range;
  return ct__rn_sink_close(&k, ct__rn_run(&c));
}

static ct_status ct__k_random_to_(ct_keyset ks, ct_tensor *self, int64_t to, ct_generator *gen) {
  return ct__k_random_from_(ks, self, 0, to, gen);
}
static ct_status ct__k_random_(ct_keyset ks, ct_tensor *self, ct_generator *gen) {
  return ct__k_random_from_(ks, self, 0, CT_INT_NONE, gen);
}

/* ---- bernoulli ---- */
static ct_status ct__rn_check_p(const char *op, double p) {
  if (p >= 0 && p <= 1) return CT_OK;
  return ct_fail(CT_ERR_INVALID, op, "bernoulli expects p to be in [0, 1], but got p=%g", p);
}
/* self = 1 where u53 < p (p a number, or probs[i]: contiguous float64 on self's device, in logical order) */
static ct_status ct__rn_bernoulli_fill(const char *op, ct_tensor *self, double p, ct_tensor *probs, ct_generator *gen) {
  ct__rn_stream s = ct__rn_stream_zero();
  ct__rn_sink k;
  ct_generator *g;
  ct_random_call c;
  if (ct__rn_begin(op, self, gen, 2, &s, &g) != CT_OK) return ct_last_error();
  if (ct__rn_skip(self)) return ct__bump_version(self), CT_OK;
  if (ct__rn_sink_open(op, self, &k) != CT_OK) return ct_last_error();
  ct__rn_call(&c, CT_RANDOM_BERNOULLI, op, k.buf, &s);
  c.a = p, c.in = probs;
  c.flags = probs ? CT_RANDOM_CHECK_PROBS : 0;
  return ct__rn_sink_close(&k, ct__rn_run(&c));
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
  (void)ks;
  if (ct__rn_floating_only(op, "bernoulli_tensor_cpu_self_", self) != CT_OK) return NULL;
  r = ct__empty_like(op, self, (ct_dtype)self->dtype);
  if (!r) return NULL;
  if (ct__is_meta(r)) {
    if (!ct__rn_pick(op, gen, self)) ct_release(r), r = NULL;
    return r;
  }
  /* contiguous float64 probabilities on self's device; the loop checks them (CT_RANDOM_CHECK_PROBS) */
  if (!(p = ct__copy_as(op, self, CT_F64)) || ct__rn_bernoulli_fill(op, r, 0, p, gen) != CT_OK) ct_release(r), r = NULL;
  ct_release(p);
  return r;
}

/* ---- rand_like / randn_like: a new contiguous tensor of self's shape ---- */
static ct_tensor *ct__rn_like(const char *op, ct_tensor *self, ct_dtype dtype, ct_generator *gen, int normal) {
  ct_tensor *r;
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  r = ct__empty(op, self->ndim, self->sizes, dtype == CT_DTYPE_NONE ? (ct_dtype)self->dtype : dtype, self->device);
  if (r && (normal ? ct__k_normal_(0, r, 0, 1, gen) : ct__k_uniform_(0, r, 0, 1, gen)) != CT_OK) ct_release(r), r = NULL;
  return r;
}
static ct_tensor *ct__k_rand_like(ct_keyset ks, ct_tensor *self, ct_dtype dtype, ct_generator *gen) {
  (void)ks;
  return ct__rn_like("rand_like", self, dtype, gen, 0);
}
static ct_tensor *ct__k_randn_like(ct_keyset ks, ct_tensor *self, ct_dtype dtype, ct_generator *gen) {
  (void)ks;
  return ct__rn_like("randn_like", self, dtype, gen, 1);
}

/* ---- factories' out= forms ---- */
/* Every check of a factory's out= comes before its resize: a failed call
 * leaves the out as it was (PyTorch's structured kernels check in meta()). */
static ct_status ct__rn_resize(const char *op, ct_tensor *out, ct_int_list size, ct_generator *gen) {
  int i;
  if (gen && !ct__rn_pick(op, gen, out)) return ct_last_error();
  if (size.n < 0 || size.n > CT_MAX_DIMS) return ct_fail(CT_ERR_RANK, op, "size has %lld dims (at most %d)", (long long)size.n, CT_MAX_DIMS);
  for (i = 0; i < size.n; i++)
    if (size.data[i] < 0) return ct_fail(CT_ERR_SIZE, op, "Trying to create tensor with negative dimension %lld", (long long)size.data[i]);
  if (ct__check_writable(op, out) != CT_OK) return ct_last_error();
  return ct__resize_out(op, out, (int)size.n, size.data);
}
static ct_status ct__k_rand_out(ct_keyset ks, ct_int_list size, ct_generator *gen, ct_tensor *out) {
  if (ct__rn_floating_only("rand", "check_uniform_bounds", out) != CT_OK || ct__rn_resize("rand", out, size, gen) != CT_OK)
    return ct_last_error();
  return ct__k_uniform_(ks, out, 0, 1, gen);
}
static ct_status ct__k_randn_out(ct_keyset ks, ct_int_list size, ct_generator *gen, ct_tensor *out) {
  if (ct__rn_floating_only("randn", "normal_kernel_cpu", out) != CT_OK || ct__rn_resize("randn", out, size, gen) != CT_OK)
    return ct_last_error();
  return ct__k_normal_(ks, out, 0, 1, gen);
}
static ct_status ct__k_randint_out(ct_keyset ks, int64_t low, int64_t high, ct_int_list size, ct_generator *gen, ct_tensor *out) {
  uint64_t range;
  if (ct__rn_check_range("randint", (ct_dtype)out->dtype, low, high, &range) != CT_OK ||
      ct__rn_resize("randint", out, size, gen) != CT_OK)
    return ct_last_error();
  return ct__k_random_from_(ks, out, low, high, gen);
}
/* randperm, eye and linspace out= (structured, ops/structured.h): the meta
 * step checks the arguments, and the out's dtype where it matters, and
 * declares the out (its own dtype and device: these factories have no
 * functional form of their own); the impl writes the contiguous out. */
static ct_status ct__meta_randperm(ct__structured *st, int64_t n, ct_generator *gen) {
  ct_tensor *out = st->given[0];
  int64_t lo, hi;
  if (n < 0) return ct_fail(CT_ERR_INVALID, st->op, "n must be non-negative, got %lld", (long long)n);
  ct__rn_int_bounds((ct_dtype)out->dtype, &lo, &hi);
  if (out->dtype == CT_BOOL || n - 1 > hi)
    return ct_fail(CT_ERR_INVALID, st->op, "n is too large for result tensor type: '%s'", ct__dtype_torch_name((ct_dtype)out->dtype));
  if (gen && !ct__rn_pick(st->op, gen, out)) return ct_last_error();
  return ct__set_output(st, 0, 1, &n, (ct_dtype)out->dtype, out->device);
}
static ct_status ct__impl_randperm(int64_t n, ct_generator *gen, ct_tensor *out) {
  static const char *op = "randperm";
  ct__rn_stream s = ct__rn_stream_zero();
  ct_generator *g = ct__rn_pick(op, gen, out);
  int64_t i, *r;
  if (!g) return ct_last_error();
  if (n == 0) return CT_OK;
  ct__rn_reserve(g, 2 * (uint64_t)n, &s);
  r = out->dtype == CT_I64 ? (int64_t *)ct_data_ptr(out) : (int64_t *)ct__workspace(sizeof(int64_t) * (size_t)n);
  if (!r) return ct_fail(CT_ERR_OOM, op, "out of memory");
  for (i = 0; i < n; i++) r[i] = i;
  for (i = 0; i < n; i++) {
    int64_t j = i + (int64_t)(ct__rn_u64(&s, 2 * (uint64_t)i) % (uint64_t)(n - i)), t = r[i];
    r[i] = r[j], r[j] = t;
  }
  if (out->dtype != CT_I64) { /* (every value fits the dtype: checked by the meta step) */
    ct__rn_sink k;
    k.self = k.buf = out, k.data = (char *)ct_data_ptr(out), k.dtype = (ct_dtype)out->dtype, k.es = ct_dtype_size(k.dtype);
    for (i = 0; i < n; i++) ct__rn_put_int(&k, i, r[i]);
    ct__workspace_free(r);
  }
  return CT_OK;
}

static ct_status ct__meta_eye_m(ct__structured *st, int64_t n, int64_t m) {
  int64_t shape[2];
  if (n < 0) return ct_fail(CT_ERR_INVALID, st->op, "n must be greater or equal to 0, got %lld", (long long)n);
  if (m < 0) return ct_fail(CT_ERR_INVALID, st->op, "m must be greater or equal to 0, got %lld", (long long)m);
  shape[0] = n, shape[1] = m;
  return ct__set_output(st, 0, 2, shape, (ct_dtype)st->given[0]->dtype, st->given[0]->device);
}
static ct_status ct__impl_eye_m(int64_t n, int64_t m, ct_tensor *out) {
  char *base = (char *)ct_data_ptr(out);
  size_t es = ct_dtype_size((ct_dtype)out->dtype);
  int64_t i;
  if (ct__k_fill_(0, out, ct_int(0)) != CT_OK) return ct_last_error();
  for (i = 0; i < n && i < m; i++) ct__store_double(base + (size_t)(i * m + i) * es, (ct_dtype)out->dtype, 1.0);
  return CT_OK;
}
static ct_status ct__meta_eye(ct__structured *st, int64_t n) { return ct__meta_eye_m(st, n, n); }
static ct_status ct__impl_eye(int64_t n, ct_tensor *out) { return ct__impl_eye_m(n, n, out); }

static int64_t ct__rn_scalar_i64(ct_scalar s) { return ct_scalar_to_int(s); } /* NaN, out of range: as PyTorch's cast on x86 */
static ct_status ct__meta_linspace(ct__structured *st, ct_scalar start, ct_scalar end, int64_t steps) {
  if (steps < 0) return ct_fail(CT_ERR_INVALID, st->op, "number of steps must be non-negative");
  if (start.kind == CT_SCALAR_NONE || end.kind == CT_SCALAR_NONE) return ct_fail(CT_ERR_INVALID, st->op, "start and end must be numbers");
  return ct__set_output(st, 0, 1, &steps, (ct_dtype)st->given[0]->dtype, st->given[0]->device);
}
/* linspace as PyTorch's CPU kernel: the first half counts up from start, the
 * second half down from end, each value one fused multiply-add (PyTorch's
 * vectorised CPU kernel is compiled with FMA); float32 (and half types) step
 * in float, float64 in double, integers in double and truncate. */
static ct_status ct__impl_linspace(ct_scalar start, ct_scalar end, int64_t steps, ct_tensor *out) {
  ct__rn_sink k;
  ct_dtype d = (ct_dtype)out->dtype;
  int64_t i, half = steps / 2;
  k.self = k.buf = out, k.data = (char *)ct_data_ptr(out), k.dtype = d, k.es = ct_dtype_size(d);
  if (d == CT_F64 || !ct_dtype_is_floating(d)) {
    double a = ct_scalar_to_double(start), b = ct_scalar_to_double(end), step;
    if (!ct_dtype_is_floating(d)) a = (double)ct__rn_scalar_i64(start), b = (double)ct__rn_scalar_i64(end); /* Scalar.to<int64_t> */
    step = steps > 1 ? (b - a) / (double)(steps - 1) : 0;
    for (i = 0; i < steps; i++) {
      double v = steps == 1 ? a : i < half ? fma(step, (double)i, a) : fma(-step, (double)(steps - i - 1), b);
      if (d == CT_F64) ct__rn_put(&k, i, v);
      else ct__rn_put_int(&k, i, ct__f2i64(v));
    }
  } else {
    float a = (float)ct_scalar_to_double(start), b = (float)ct_scalar_to_double(end);
    float step = steps > 1 ? (b - a) / (float)(steps - 1) : 0.0f;
    for (i = 0; i < steps; i++) {
      float v = steps == 1 ? a : i < half ? fmaf(step, (float)i, a) : fmaf(-step, (float)(steps - i - 1), b);
      ct__rn_put(&k, i, (double)v);
    }
  }
  return CT_OK;
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
  ct__rn_stream s = ct__rn_stream_zero();
  ct_generator *g = NULL;
  ct_random_call c;
  double keep = 1.0 - p, scale = ct__rn_dropout_scale(p, train);
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
  ct__rn_call(&c, CT_RANDOM_DROPOUT, op, out, &s);
  c.in = x, c.mask = m, c.a = keep, c.b = scale;
  if (ct__rn_run(&c) != CT_OK) goto fail;
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

/* ---- the factories: empty on the device (dtype None: dflt), then the out= form ----
 * The dtype is checked first, the size by the out= form. */
static ct_tensor *ct__rn_factory_empty(const char *op, ct_keyset ks, ct_generator *gen, ct_dtype dtype, ct_dtype dflt,
                                       ct_device device) {
  if (dtype != CT_DTYPE_NONE && !ct_dtype_valid(dtype)) return ct_fail(CT_ERR_DTYPE, op, "invalid dtype %d", (int)dtype), (ct_tensor *)NULL;
  if (ct_device_is_none(device) && gen) device = gen->device; /* (a direct call: BackendSelect resolves it) */
  return ct__factory_empty_for_out(ks, dtype == CT_DTYPE_NONE ? dflt : dtype, device);
}
static ct_tensor *ct__k_rand(ct_keyset ks, ct_int_list size, ct_generator *generator, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__rn_factory_empty("rand", ks, generator, dtype, CT_F32, device);
  return t ? ct__factory_finish(t, ct_rand_out(t, (int)size.n, size.data, generator)) : NULL;
}
static ct_tensor *ct__k_randn(ct_keyset ks, ct_int_list size, ct_generator *generator, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__rn_factory_empty("randn", ks, generator, dtype, CT_F32, device);
  return t ? ct__factory_finish(t, ct_randn_out(t, (int)size.n, size.data, generator)) : NULL;
}
static ct_tensor *ct__k_randint(ct_keyset ks, int64_t low, int64_t high, ct_int_list size, ct_generator *generator, ct_dtype dtype,
                                ct_device device) {
  ct_tensor *t = ct__rn_factory_empty("randint", ks, generator, dtype, CT_I64, device);
  return t ? ct__factory_finish(t, ct_randint_out(t, low, high, (int)size.n, size.data, generator)) : NULL;
}
static ct_tensor *ct__k_randperm(ct_keyset ks, int64_t n, ct_generator *generator, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__rn_factory_empty("randperm", ks, generator, dtype, CT_I64, device);
  return t ? ct__factory_finish(t, ct_randperm_out(t, n, generator)) : NULL;
}
static ct_tensor *ct__k_eye_m(ct_keyset ks, int64_t n, int64_t m, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__rn_factory_empty("eye", ks, NULL, dtype, CT_F32, device);
  return t ? ct__factory_finish(t, ct_eye_m_out(t, n, m)) : NULL;
}
static ct_tensor *ct__k_eye(ct_keyset ks, int64_t n, ct_dtype dtype, ct_device device) { return ct__k_eye_m(ks, n, n, dtype, device); }
static ct_tensor *ct__k_linspace(ct_keyset ks, ct_scalar start, ct_scalar end, int64_t steps, ct_dtype dtype, ct_device device) {
  ct_tensor *t = ct__rn_factory_empty("linspace", ks, NULL, dtype, CT_F32, device);
  return t ? ct__factory_finish(t, ct_linspace_out(t, start, end, steps)) : NULL;
}

CT_EXTERN_C_END
#endif /* CT__OPS_RANDOM_IMPL */
