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

#include "base.h"
#include "dtype.h"
#include "keys.h"
#include "device.h"

CT_EXTERN_C_BEGIN

/* Compatibility path: an allocator installed for a device type here takes
 * precedence over its device interface's allocator (device.h) for new
 * storages. The CPU and Meta have one from the start; other types allocate
 * through their registered interface (per device index and current stream). */
CTDEF ct_status ct_set_device_allocator(ct_device_type t, const ct_allocator *a);
CTDEF const ct_allocator *ct_device_allocator(ct_device_type t);

/* Refcounted memory shared by a tensor and its views. */
typedef struct ct_storage {
  int32_t refcount;               /* tensors referring to it */
  uint32_t version;               /* bumped by every in-place write, through any view */
  void *data;                     /* NULL for meta or zero-byte storage */
  size_t nbytes;                  /* usable size of data */
  ct_device device;               /* type and index */
  uint8_t inline_data;            /* data lives in this block (tiny CPU tensors): one allocation */
  uint8_t device_alloc;           /* data came from the device interface's alloc (freed through it) */
  uint8_t pinned_by;              /* CPU data in pinned memory of this device type's host cache; 0 (CPU): not pinned */
  const ct_allocator *allocator;  /* frees data; NULL when a deleter or the device interface owns it */
  void (*deleter)(void *data, void *ctx); /* user buffers (ct_from_blob) */
  void *deleter_ctx;
  void *alloc_ctx;                /* the device allocator's (or the host cache's) per-block context */
} ct_storage;

/* A view of a storage: metadata only, so views are cheap. Read the fields;
 * change them only through the functions here. */
typedef struct ct_tensor {
  int32_t refcount;          /* owners of this handle */
  int8_t dtype;              /* ct_dtype of every element */
  int8_t ndim;               /* rank, 0 (a scalar) .. CT_MAX_DIMS */
  uint8_t flags;             /* CT_TENSOR_* bits below */
  uint8_t view_kind;         /* CT_VIEW_*: how a view was made (PyTorch's CreationMeta) */
  ct_device device;          /* where the data lives (same as storage->device) */
  uint16_t scoped;           /* CT_DEBUG: references that CT_SCOPEs hold (else unused) */
  uint32_t base_version;     /* views: the storage version their autograd history was made at */
  ct_keyset keys;            /* dispatch keys: backend key (+ autograd key) */
  ct_storage *storage;       /* never NULL; shared by views */
  int64_t offset;            /* in elements, from storage->data to element [0,...,0] */
  int64_t numel;             /* product of sizes */
  int64_t sizes[CT_MAX_DIMS];   /* extent of each dimension */
  int64_t strides[CT_MAX_DIMS]; /* in elements; 0 for broadcast (expanded) dims */
  struct ct_autograd_meta *autograd; /* NULL unless autograd tracks this tensor */
  struct ct_tensor *base;    /* views made by view ops: the root of the view chain (owned), else NULL */
} ct_tensor;

/* How a view came to be; decides whether autograd may rebase it when it or
 * its base is modified in place (see autograd.h, Note [Views and in-place]). */
enum {
  CT_VIEW_DEFAULT = 0,      /* made in grad mode by a single-output view op */
  CT_VIEW_NO_GRAD = 1,      /* made while grad mode was off */
  CT_VIEW_INFERENCE = 2,    /* made in inference mode */
  CT_VIEW_MULTI_OUTPUT = 3  /* one output of unbind / split / chunk */
};

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

/* CT_DIMS(2, 3) expands to `2, (const int64_t[]){2, 3}`: a rank and sizes
 * (1 to 8 of them), for a call's (rank, sizes) parameters. In C the array
 * lives to the end of the enclosing block; in C++ (no compound literals) it
 * is a temporary that lives to the end of the full expression, the call it
 * is passed to, so do not keep the pointer. */
#define CT__NARG(...) CT__NARG_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define CT__NARG_(a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#ifndef __cplusplus
#define CT_DIMS(...) CT__NARG(__VA_ARGS__), (const int64_t[]){__VA_ARGS__}
#else
extern "C++" {
struct ct__dims_array {
  int64_t v[8];
  const int64_t *data() const { return v; }
};
/* each size converted as C converts it to int64_t (no narrowing error) */
template <typename... T> inline ct__dims_array ct__dims(T... s) {
  ct__dims_array a = {{static_cast<int64_t>(s)...}};
  return a;
}
}
#define CT_DIMS(...) CT__NARG(__VA_ARGS__), ct__dims(__VA_ARGS__).data()
#endif

/* ---- lifetime ---- */
CTDEF ct_tensor *ct_retain(ct_tensor *t); /* returns t */
CTDEF void ct_release(ct_tensor *t);      /* NULL is fine */

/* ---- wrapping memory (the factories: ctorch/ops/factory.h) ---- */
/* Wraps a user buffer without copying; deleter(data, ctx) runs when the last
 * view dies (deleter may be NULL: the buffer must outlive the tensor).
 * strides NULL means contiguous. data must be aligned to the element size
 * (CT_ERR_INVALID otherwise; nothing is wrapped and deleter is not run). */
CTDEF ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dtype,
                              void (*deleter)(void *data, void *ctx), void *ctx);

/* Views (ct_view, ct_transpose, ct_slice, ...), clone, contiguous and
 * to_dtype are dispatched operators, so autograd sees them: see
 * ctorch/generated/functions.h (docs/ops.md). Their geometry is computed in ops.h. */
/* ct_to_device(t, device) and ct_to_device_ex(t, device, dtype, non_blocking,
 * copy) are the dispatched to.device (generated; differentiable through
 * _to_copy, the gradient goes back to t's device). non_blocking: a copy
 * between two devices of one type, or between the host and a device with
 * the host side pinned (ct_pin_memory), may return before it is done
 * (ordered on the current streams; to the CPU the result is pinned); from
 * pageable host memory it is synchronous. */
/* record_stream (c10's): t's memory is in use by work queued on s, so the
 * allocator does not hand it out again before that work is done, even after
 * t is freed. Nothing to do for the CPU or for memory not from a device
 * interface. */
CTDEF ct_status ct_record_stream(ct_tensor *t, ct_stream s);
/* t's data is in pinned host memory (ct_pin_memory, ct_empty_ex with
 * pin_memory, or a non_blocking copy to the CPU): host copies to and from it may be
 * asynchronous (device.h). A pinned tensor is also recorded on a stream
 * of its pinning type with ct_record_stream. */
CTDEF bool ct_is_pinned(const ct_tensor *t);

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

/* ==== implementation ==== */
#if defined(CT__IMPLEMENT) && !defined(CT__TENSOR_IMPL)
#define CT__TENSOR_IMPL
#include <math.h>
CT_EXTERN_C_BEGIN

/* ---- devices ---- */
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

CTDEF ct_status ct_set_device_allocator(ct_device_type t, const ct_allocator *a) {
  if ((unsigned)t >= CT_DEVICE_NUM) return ct_fail(CT_ERR_DEVICE, "ct_set_device_allocator", "invalid device type %d", (int)t);
  if (!a || !a->alloc || !a->free) return ct__fail_null("ct_set_device_allocator", "allocator");
  ct__atomic_store(&ct__device_allocators[t], a);
  return CT_OK;
}
CTDEF const ct_allocator *ct_device_allocator(ct_device_type t) {
  return (unsigned)t < CT_DEVICE_NUM ? ct__atomic_load(&ct__device_allocators[t]) : NULL;
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

/* ---- checked int64 arithmetic ----
 * Every size, stride and offset computation goes through these: true when
 * the exact result does not fit in int64 (*r is then unspecified), never
 * undefined behaviour. */
static inline bool ct__add_ovf(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_add_overflow(a, b, r);
#else
  if ((b > 0 && a > INT64_MAX - b) || (b < 0 && a < INT64_MIN - b)) return true;
  *r = a + b;
  return false;
#endif
}
static inline bool ct__sub_ovf(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_sub_overflow(a, b, r);
#else
  if ((b < 0 && a > INT64_MAX + b) || (b > 0 && a < INT64_MIN + b)) return true;
  *r = a - b;
  return false;
#endif
}
static inline bool ct__mul_ovf(int64_t a, int64_t b, int64_t *r) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_mul_overflow(a, b, r);
#else
  if (a > 0 ? (b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a) : (b > 0 ? a < INT64_MIN / b : (a != 0 && b < INT64_MAX / a)))
    return true;
  *r = a * b;
  return false;
#endif
}
/* a * b, saturating at INT64_MAX / INT64_MIN: for strides that never address
 * memory (those of size-1 dims and of empty tensors), which PyTorch lets wrap */
static inline int64_t ct__mul_sat(int64_t a, int64_t b) {
  int64_t r;
  if (!ct__mul_ovf(a, b, &r)) return r;
  return (a < 0) == (b < 0) ? INT64_MAX : INT64_MIN;
}
/* The product of n sizes (each >= 0) in *numel; false if it overflows int64
 * (a zero size wins over an overflowing product: the tensor is empty). */
static bool ct__sizes_product(int n, const int64_t *sizes, int64_t *numel) {
  int64_t p = 1;
  bool overflow = false;
  int i;
  for (i = 0; i < n; i++) {
    if (sizes[i] == 0) {
      *numel = 0;
      return true;
    }
    if (!overflow) overflow = ct__mul_ovf(p, sizes[i], &p);
  }
  *numel = p;
  return !overflow;
}
/* The product of n sizes (each >= 0): 0 when any is 0, whatever the others
 * (an empty tensor's other sizes may multiply past int64), else the product
 * saturated at INT64_MAX. For loops and element counts of existing tensors,
 * whose non-empty products always fit. */
static int64_t ct__sizes_product_sat(int n, const int64_t *sizes) {
  int64_t p = 1;
  int i;
  for (i = 0; i < n; i++)
    if (sizes[i] == 0) return 0;
  for (i = 0; i < n; i++) p = ct__mul_sat(p, sizes[i]);
  return p;
}
/* the most elements a storage may hold: its byte size (8 bytes an element at
 * most) must fit in size_t and int64_t */
#define CT__MAX_ELEMENTS ((int64_t)((SIZE_MAX > (uint64_t)INT64_MAX ? (uint64_t)INT64_MAX : (uint64_t)SIZE_MAX) >> 3))

/* numel of a shape, or -1 after recording an error for a bad rank, a
 * negative size or an element count whose byte size overflows. */
static int64_t ct__checked_numel_slow(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype);
static int64_t ct__checked_numel(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype) {
  if (CT_LIKELY(ndim >= 0 && ndim <= CT_MAX_DIMS && (sizes || ndim == 0) && ct_dtype_valid(dtype))) { /* one pass for valid shapes */
    int64_t numel = 1, any = 0;
    int i, ovf = 0;
    for (i = 0; i < ndim; i++) any |= sizes[i], ovf |= ct__mul_ovf(numel, sizes[i], &numel);
    if (any >= 0 && !ovf && numel <= CT__MAX_ELEMENTS) return numel;
  }
  return ct__checked_numel_slow(op, ndim, sizes, dtype); /* the errors, and 0 for a zero size beside overflowing ones */
}
static CT__COLD int64_t ct__checked_numel_slow(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype) {
  int64_t numel = 1;
  int i;
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
  for (i = 0; i < ndim; i++) {
    if (sizes[i] < 0) {
      ct_fail(CT_ERR_SIZE, op, "negative size %lld at dimension %d", (long long)sizes[i], i);
      return -1;
    }
  }
  if (!ct__sizes_product(ndim, sizes, &numel) || numel > CT__MAX_ELEMENTS) {
    char buf[160];
    ct_fail(CT_ERR_SIZE, op, "Storage size calculation overflowed with sizes=%s: numel * element size (%d) overflows",
            ct_shape_format(ndim, sizes, buf, sizeof buf), (int)ct_dtype_size(dtype));
    return -1;
  }
  return numel;
}

/* Row-major strides. They fit for every tensor with elements; an empty one
 * with huge sizes (0 x 2^62 x 2^62) gets saturated strides where PyTorch's
 * wrap (they never address memory). */
static void ct__contiguous_strides(int ndim, const int64_t *sizes, int64_t *strides) {
  int64_t s = 1;
  int i;
  for (i = ndim - 1; i >= 0; i--) {
    strides[i] = s;
    s = ct__mul_sat(s, sizes[i] > 1 ? sizes[i] : 1);
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
  const ct_device_interface *di = NULL;
  int inline_data = a == &ct__cpu_allocator_instance && nbytes <= CT__INLINE_BYTES;
  void *actx = NULL;
  ct_storage *s;
  if (!a) {
    di = ct_device_interface_get((ct_device_type)device.type);
    if (!di) {
      ct_fail(CT_ERR_DEVICE, op, "no allocator for device '%s' (no device interface registered: is its backend linked?)",
              ct_device_type_name((ct_device_type)device.type));
      return NULL;
    }
    if (ct_device_check(op, device) != CT_OK) return NULL;
  } else if (device.index != 0 && (device.type == CT_DEVICE_CPU || device.type == CT_DEVICE_META)) {
    ct_fail(CT_ERR_INDEX, op, "device index %d out of range: '%s' has 1 device", (int)device.index,
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
    if (di) s->data = nbytes ? di->alloc(device.index, ct_current_stream(device), nbytes, &actx) : NULL;
    else s->data = nbytes ? a->alloc(a->ctx, nbytes) : NULL;
    if (nbytes && !s->data && device.type != CT_DEVICE_META) {
      ct__pool_free(s, sizeof(ct_storage));
      ct_fail(CT_ERR_OOM, op, "out of memory allocating %zu bytes on %s:%d", nbytes,
              ct_device_type_name((ct_device_type)device.type), (int)device.index);
      return NULL;
    }
  }
  s->refcount = 1;
  s->version = 0;
  s->nbytes = nbytes;
  s->device = device;
  s->inline_data = (uint8_t)inline_data;
  s->device_alloc = (uint8_t)(di != NULL);
  s->pinned_by = 0;
  s->allocator = a;
  s->deleter = NULL;
  s->deleter_ctx = NULL;
  s->alloc_ctx = actx;
  ct__local_add(ct__stats()->live_storages, 1);
  return s;
}

/* A CPU storage in pinned memory of `type`'s host cache (ct_pin_memory). */
static ct_storage *ct__storage_new_pinned(size_t nbytes, ct_device_type type, const char *op) {
  void *actx = NULL, *data;
  ct_storage *s;
  if (!(data = ct_host_alloc(type, nbytes, &actx))) return NULL; /* (a type without pinned memory: its error) */
  s = (ct_storage *)ct__pool_alloc(sizeof(ct_storage));
  if (!s) {
    ct_host_free(type, data, nbytes, actx);
    return ct_fail(CT_ERR_OOM, op, "out of memory allocating a storage"), (ct_storage *)NULL;
  }
  memset(s, 0, sizeof *s);
  s->refcount = 1;
  s->data = data;
  s->nbytes = nbytes;
  s->device = CT_CPU;
  s->pinned_by = (uint8_t)type;
  s->alloc_ctx = actx;
  ct__local_add(ct__stats()->live_storages, 1);
  return s;
}

/* Drop one reference; true when it was the last. A sole owner (count 1)
 * needs no locked instruction: no other thread can hold a reference to
 * race with. */
static int ct__unref(int32_t *refcount) { /* NOLINT(readability-non-const-parameter): written by the atomic builtin */
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
    if (s->deleter) {
      s->deleter(s->data, s->deleter_ctx);
    } else if (s->device_alloc) {
      const ct_device_interface *di = ct_device_interface_get((ct_device_type)s->device.type);
      if (di && s->data) di->free(s->device.index, s->data, s->nbytes, s->alloc_ctx);
    } else if (s->pinned_by) {
      ct_host_free((ct_device_type)s->pinned_by, s->data, s->nbytes, s->alloc_ctx);
    } else if (s->allocator && s->data)
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
  t->view_kind = CT_VIEW_DEFAULT;
  t->scoped = 0;
  t->base_version = 0;
  t->base = NULL;
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
    ct_tensor **items = (ct_tensor **)ct__scratch_alloc(sizeof(ct_tensor *) * (size_t)cap); /* (the thread's cache: no system allocation in a loop) */
    if (!items) return t; /* cannot track: the caller still gets a valid reference */
    memcpy(items, s->items, sizeof(ct_tensor *) * (size_t)s->n);
    if (s->items != s->inline_items) ct__scratch_free(s->items, sizeof(ct_tensor *) * (size_t)s->cap);
    s->items = items;
    s->cap = cap;
  }
  s->items[s->n++] = t;
#ifdef CT_DEBUG
  t->scoped++;
#endif
  return t;
}

/* Fresh tensor, untracked (kernels use it for their outputs). strides:
 * NULL for contiguous, else a permutation of a dense layout (numel elements
 * of storage: kernels give their outputs their inputs' layout with it). */
static ct_tensor *ct__empty_strided(const char *op, int ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dtype,
                                    ct_device device) {
  int64_t contiguous[CT_MAX_DIMS];
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
  if (!strides) ct__contiguous_strides(ndim, sizes, contiguous), strides = contiguous;
  return ct__tensor_wrap(s, dtype, ndim, sizes, strides, 0, numel);
}
static ct_tensor *ct__empty(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device) {
  return ct__empty_strided(op, ndim, sizes, NULL, dtype, device);
}
/* A contiguous tensor of t's shape, dtype and device: t's shape is already
 * checked, so only the storage is new (the kernels' fast lanes). */
static ct_tensor *ct__empty_as(const ct_tensor *t) {
  int64_t strides[CT_MAX_DIMS];
  ct_storage *s = ct__storage_new((size_t)t->numel * ct_dtype_size((ct_dtype)t->dtype), t->device, "empty");
  if (!s) return NULL;
  ct__contiguous_strides(t->ndim, t->sizes, strides);
  return ct__tensor_wrap(s, (ct_dtype)t->dtype, t->ndim, t->sizes, strides, 0, t->numel);
}

/* A contiguous CPU tensor in pinned memory of pin_device's type (None: the
 * type ct_host_pinning_type names). */
static ct_tensor *ct__empty_pinned(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device pin_device) {
  int64_t strides[CT_MAX_DIMS];
  int64_t numel;
  ct_device_type type = ct_device_is_none(pin_device) ? ct_host_pinning_type() : (ct_device_type)pin_device.type;
  ct_storage *s;
  if (CT_UNLIKELY(!ct__initialized)) ct__init();
  numel = ct__checked_numel(op, ndim, sizes, dtype);
  if (numel < 0) return NULL;
  if (type == CT_DEVICE_CPU && ct_device_is_none(pin_device))
    return ct_fail(CT_ERR_UNSUPPORTED, op, "no device offers pinned host memory (pinning needs a backend with host memory, e.g. CUDA)"),
           (ct_tensor *)NULL;
  if (!(s = ct__storage_new_pinned((size_t)numel * ct_dtype_size(dtype), type, op))) return NULL;
  ct__contiguous_strides(ndim, sizes, strides);
  return ct__tensor_wrap(s, dtype, ndim, sizes, strides, 0, numel);
}

static ct_tensor *ct__empty_like(const char *op, const ct_tensor *t, ct_dtype dtype) {
  return ct__empty(op, t->ndim, t->sizes, dtype, t->device);
}

/* A view of t's storage with new metadata: the one place views are made. */
static ct_tensor *ct__make_view(const ct_tensor *t, int ndim, const int64_t *sizes, const int64_t *strides,
                                int64_t offset) {
  int64_t numel;
  ct_tensor *v;
  if (!ct__sizes_product(ndim, sizes, &numel)) { /* (callers pass checked sizes; a last line of defence) */
    char buf[160];
    ct_fail(CT_ERR_SIZE, "view", "the number of elements of sizes %s overflows int64", ct_shape_format(ndim, sizes, buf, sizeof buf));
    return NULL;
  }
  ct__atomic_add(&t->storage->refcount, 1);
  v = ct__tensor_wrap(t->storage, (ct_dtype)t->dtype, ndim, sizes, strides, offset, numel);
  if (v) v->keys = t->keys & ~CT_AUTOGRAD_KEYS; /* a view starts outside the graph; autograd kernels attach it */
  return v;
}

/* v (fresh from ct__make_view on src) becomes a view of src's root base, as
 * every view op's result does: autograd rebases the view's history when it or
 * its base is modified in place, so a view of a floating tensor always routes
 * through the autograd kernels (its base may come to require grad later).
 * Only differentiable dtypes are linked; internal aliases (saved outputs,
 * detach) are never linked, so a node never owns the tensor that owns it. */
static ct_tensor *ct__as_view(ct_tensor *src, ct_tensor *v) {
  int made, prev;
  if (!v || v->base || !ct_dtype_is_floating((ct_dtype)v->dtype)) return v;
  made = (ct__tls.keys.excluded & ct_keyset_of(CT_KEY_AD_INPLACE_OR_VIEW)) ? CT_VIEW_INFERENCE
         : ct__tls.grad_disabled                                         ? CT_VIEW_NO_GRAD
                                                                        : CT_VIEW_DEFAULT;
  prev = src->base ? (int)src->view_kind : (int)CT_VIEW_DEFAULT; /* a view of a view keeps the stricter kind */
  v->view_kind = (uint8_t)(made == CT_VIEW_DEFAULT || prev == CT_VIEW_INFERENCE ? prev : made);
  v->base = ct_retain(src->base ? src->base : src);
  v->base_version = v->storage->version;
  v->keys |= ct_keyset_of(ct_autograd_key_for(ct_device_backend_key((ct_device_type)v->device.type)));
  return v;
}

#ifdef CT_DEBUG
/* A released handle: refcount 0 in quarantine (poisoned under ASan: ask it). */
static int ct__debug_dead(const ct_tensor *t) {
#ifdef CT__ASAN
  if (__asan_address_is_poisoned(&t->refcount)) return 1;
#endif
  return t->refcount <= 0;
}
static int ct__debug_release_ok(ct_tensor *t) {
  if (ct__debug_dead(t)) {
    ct__debug_fault("ct_release", "the tensor was already released (a double release, or a released handle used again)");
    return 0;
  }
  if (t->scoped >= t->refcount) {
    ct__debug_fault("ct_release", "the tensor belongs to the enclosing CT_SCOPE, which releases it at its end; "
                                  "call ct_keep(t) first to take ownership");
    return 0;
  }
  return 1;
}
#endif

CTDEF ct_tensor *ct_retain(ct_tensor *t) {
#ifdef CT_DEBUG
  if (t && ct__debug_dead(t)) {
    ct__debug_fault("ct_retain", "the tensor was already released (a released handle used again)");
    return t;
  }
#endif
  if (t) ct__atomic_add(&t->refcount, 1);
  return t;
}

/* A tensor's autograd metadata is freed by the layer that made it: autograd.h
 * sets this hook when it attaches metadata to a tensor (so it is set whenever
 * t->autograd is), and the tensor layer calls nothing above itself. */
static void (*ct__autograd_release_hook)(ct_tensor *t);

CTDEF void ct_release(ct_tensor *t) {
  if (!t) return;
#ifdef CT_DEBUG
  if (!ct__debug_release_ok(t)) return;
#endif
  if (!ct__unref(&t->refcount)) return;
  if (t->autograd) ct__autograd_release_hook(t);
  if (t->base) ct_release(t->base); /* a root base has no base: no deeper recursion */
  ct__storage_release(t->storage);
#ifdef CT_DEBUG
  t->refcount = 0; /* a later release or retain of this handle is caught */
  ct__pool_bury(t, sizeof(ct_tensor));
#else
  ct__pool_free(t, sizeof(ct_tensor));
#endif
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
#ifdef CT_DEBUG
      t->scoped--;
#endif
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

/* Store one double into an element of any dtype (the slow, general path). */
static void ct__store_double(void *p, ct_dtype dtype, double v) {
  switch (dtype) {
  case CT_F32: *(float *)p = (float)v; break;
  case CT_F64: *(double *)p = v; break;
  case CT_F16: *(uint16_t *)p = ct_f32_to_f16((float)v); break;
  case CT_BF16: *(uint16_t *)p = ct_f32_to_bf16((float)v); break;
  case CT_I64: *(int64_t *)p = ct__f2i64(v); break; /* NaN, inf, out of range: as PyTorch on x86 (dtype.h) */
  case CT_I32: *(int32_t *)p = ct__f2i32(v); break;
  case CT_U8: *(uint8_t *)p = ct__f2u8(v); break;
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
  if ((uintptr_t)data % ct_dtype_size(dtype)) /* kernels read elements as their type: a misaligned one is undefined behaviour */
    return ct_fail(CT_ERR_INVALID, op, "data (%p) is not aligned to its %s elements' size (%d bytes)", data, ct_dtype_name(dtype),
                   (int)ct_dtype_size(dtype)),
           (ct_tensor *)NULL;
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
  s->device_alloc = 0;
  s->pinned_by = 0;
  s->allocator = NULL;
  s->deleter = deleter;
  s->deleter_ctx = ctx;
  s->alloc_ctx = NULL;
  ct__local_add(ct__stats()->live_storages, 1);
  return ct__tensor_wrap(s, dtype, ndim, sizes, st, 0, numel);
}
CTDEF ct_tensor *ct_from_blob(void *data, int ndim, const int64_t *sizes, const int64_t *strides, ct_dtype dtype,
                              void (*deleter)(void *data, void *ctx), void *ctx) {
  return ct__track(ct__from_blob(data, ndim, sizes, strides, dtype, deleter, ctx));
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
  size_t es;
  if (!t || !t->storage->data) return NULL;
  es = ct_dtype_size((ct_dtype)t->dtype);
  if (!es) return NULL; /* not a valid dtype: not a tensor ctorch made */
  /* an empty view may sit at any offset (as_strided, a slice at the end): past the
   * storage, its address is the storage's, not a pointer computed out of bounds */
  if ((uint64_t)t->offset > t->storage->nbytes / es) return t->storage->data;
  return (char *)t->storage->data + (size_t)t->offset * es;
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
  if (t->device.type == CT_DEVICE_META) {
    ct_fail(CT_ERR_DEVICE, op, "element access needs a tensor with data, got one on meta");
    return NULL;
  }
  for (i = t->ndim - 1; i >= 0; i--) {
    off += (index % t->sizes[i]) * t->strides[i];
    index /= t->sizes[i];
  }
  return (const char *)t->storage->data + (size_t)off * ct_dtype_size((ct_dtype)t->dtype);
}
/* The element's bytes on the host: its address for a CPU tensor, else a
 * copy into buf (16 bytes) through the device interface. */
static const char *ct__element_read(const char *op, const ct_tensor *t, int64_t index, char *buf) {
  const char *p = ct__element_ptr(op, t, index);
  if (!p || t->device.type == CT_DEVICE_CPU) return p;
  if (ct_device_memcpy(buf, CT_CPU, p, t->device, ct_dtype_size((ct_dtype)t->dtype), false) != CT_OK) return NULL;
  return buf;
}

CTDEF double ct_get(const ct_tensor *t, int64_t index) {
  char buf[16] = {0}; /* (filled by the device interface: zeroed for the static analyzer, which cannot see through it) */
  const char *p;
  if (!t) return ct__fail_null("ct_get", "t"), NAN;
  p = ct__element_read("ct_get", t, index, buf);
  return p ? ct__load_double(p, (ct_dtype)t->dtype) : NAN;
}
CTDEF int64_t ct_get_int(const ct_tensor *t, int64_t index) {
  char buf[16] = {0}; /* (filled by the device interface: zeroed for the static analyzer, which cannot see through it) */
  const char *p;
  if (!t) return ct__fail_null("ct_get_int", "t"), 0;
  p = ct__element_read("ct_get_int", t, index, buf);
  if (!p) return 0;
  if (t->dtype == CT_I64) return *(const int64_t *)p;
  return ct__f2i64(ct__load_double(p, (ct_dtype)t->dtype)); /* NaN, inf: INT64_MIN, as PyTorch's cast on x86 */
}
CTDEF ct_status ct_set(ct_tensor *t, int64_t index, double value) {
  const char *p;
  if (!t) return ct__fail_null("ct_set", "t");
  p = ct__element_ptr("ct_set", t, index);
  if (!p) return ct_last_error();
  if (t->device.type != CT_DEVICE_CPU) { /* write through the device interface */
    char buf[16];
    ct_status st;
    ct__store_double(buf, (ct_dtype)t->dtype, value);
    if ((st = ct_device_memcpy((void *)p, t->device, buf, CT_CPU, ct_dtype_size((ct_dtype)t->dtype), false)) != CT_OK)
      return st;
  } else {
    ct__store_double((void *)p, (ct_dtype)t->dtype, value);
  }
  t->storage->version++;
  return CT_OK;
}
CTDEF ct_status ct_item(const ct_tensor *t, double *value) {
  if (!t) return ct__fail_null("ct_item", "t");
  if (!value) return ct__fail_null("ct_item", "value");
  if (t->numel != 1)
    return ct_fail(CT_ERR_SHAPE, "ct_item", "a tensor with %lld elements cannot be converted to a scalar",
                   (long long)t->numel);
  {
    char buf[16];
    const char *p = ct__element_read("ct_item", t, 0, buf);
    if (!p) return ct_last_error();
    *value = ct__load_double(p, (ct_dtype)t->dtype);
  }
  return CT_OK;
}

CTDEF bool ct_is_pinned(const ct_tensor *t) { return t && t->storage->pinned_by != 0; }
CTDEF ct_status ct_record_stream(ct_tensor *t, ct_stream s) {
  const ct_device_interface *di;
  if (!t) return ct__fail_null("ct_record_stream", "t");
  if (t->storage->pinned_by && t->storage->data) {
    if (s.device.type != t->storage->pinned_by)
      return ct_fail(CT_ERR_DEVICE, "ct_record_stream", "a tensor pinned by '%s' cannot be recorded on a stream of %s:%d",
                     ct_device_type_name((ct_device_type)t->storage->pinned_by),
                     ct_device_type_name((ct_device_type)s.device.type), s.device.index);
    return ct_host_record_stream(t->storage->alloc_ctx, s);
  }
  if (t->device.type != s.device.type)
    return ct_fail(CT_ERR_DEVICE, "ct_record_stream", "a tensor on %s:%d cannot be recorded on a stream of %s:%d",
                   ct_device_type_name((ct_device_type)t->device.type), t->device.index,
                   ct_device_type_name((ct_device_type)s.device.type), s.device.index);
  if (ct_device_check("ct_record_stream", s.device) != CT_OK) return ct_last_error();
  if (!t->storage->device_alloc || !t->storage->data) return CT_OK;
  di = ct_device_interface_get((ct_device_type)t->device.type);
  return di && di->record_stream ? di->record_stream(t->storage->data, t->storage->alloc_ctx, s) : CT_OK;
}
CT_EXTERN_C_END
#endif /* CT__TENSOR_IMPL */
