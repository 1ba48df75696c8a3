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
 * Each entry's `replaced` receives the kernel it displaced (for an op whose
 * key had none, the CompositeExplicitAutograd kernel that served it): a backend calls
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

#include "dispatch.h"

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
  const char *version;          /* the backend's own version text, naming it ("cpu_blis 0.1") */
  int priority;                 /* > 0; reference kernels are 0; higher wins */
  ct_backend_kernel *kernels;
  int nkernels;
  void (*set_num_threads)(int n); /* follows ct_set_num_threads; may be NULL */
  /* filled in by ct_register_backend: */
  ct_status status;             /* CT_OK once installed */
  int ninstalled;               /* kernels that hold their slot */
  struct ct_backend *next;
} ct_backend;

/* One entry of a backend's kernel table, checked by the compiler: `handle`
 * is the op's name with '.' written '_' (mm_out for mm.out, add_Tensor for
 * add.Tensor) and fn must have the op's kernel type ct_kernel_<handle>
 * (generated/functions.h; declare the kernel with it: `static ct_kernel_mm
 * my_mm;`). A function of another type is a compile error. */
#define CT_BACKEND_KERNEL(handle, key, fn)                                                                             \
  {CT__OPNAME_##handle, CT__OPSIG_##handle, (key), CT_FN(1 ? (fn) : (ct_kernel_##handle *)0), {NULL, NULL, NULL, NULL}, 0}
/* The kernel an entry displaced, with the op's kernel type (NULL if none). */
#define CT_BACKEND_REPLACED(handle, entry) ((ct_kernel_##handle *)(void (*)(void))(entry).replaced.unboxed)

/* Install b (idempotent). Safe from a constructor, before or after the
 * library initialised itself. b must stay valid (static storage). */
CTDEF ct_status ct_register_backend(ct_backend *b);
CTDEF const ct_backend *ct_backend_find(const char *name); /* NULL if never registered */
CTDEF const ct_backend *ct_backend_first(void);            /* then ->next */
/* The library's version at run time ("0.1.0"): CT_VERSION_STRING is the
 * header's, so a program linked against an installed libctorch can tell
 * whether they match. */
CTDEF const char *ct_version(void);
/* One line: the version, the backends registered so far (name, version,
 * priority, kernels installed, or why refused) and the device types with
 * devices, e.g. "ctorch 0.1.0; backends: cpu_blis 0.1 (priority 10, 33/33
 * kernels); devices: cpu, cuda x1". Written into buf (cap bytes, truncated
 * to fit); returns buf. With CT_VERBOSE=1 in the environment the library
 * prints it to stderr when it initialises and when a backend registers. */
CTDEF const char *ct_backends_summary(char *buf, size_t cap);

/* Services for backend kernels (which cannot reach the header's internals):
 * a new CPU/meta tensor that is not tracked by a temporaries scope (kernels
 * return new references and the frontend tracks them), and the version bump
 * every in-place or out= write needs. */
CTDEF ct_tensor *ct_backend_empty(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device);
CTDEF void ct_backend_bump_version(ct_tensor *t);

CT_EXTERN_C_END
#endif /* CT_BACKEND_H */

/* ==== implementation ==== */
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
    if (!ct__has(ct__registered_at(op, e->key)) && ct__has(ct__registered_at(op, CT_KEY_COMPOSITE_IMPLICIT_AUTOGRAD))) continue;
    slot = ct__backend_slot_for(op, (int)e->key, 0);
    if (slot && slot->priority >= b->priority) continue; /* an equal or stronger backend holds it */
    if (!slot && !(slot = ct__backend_slot_for(op, (int)e->key, 1)))
      return ct_fail(CT_ERR_OOM, "ct_register_backend", "out of memory");
    e->replaced = *ct__registered_at(op, e->key);
    if (!ct__has(&e->replaced)) /* a CompositeExplicitAutograd kernel served this key: it is what the backend falls back to */
      e->replaced = *ct__registered_at(op, CT_KEY_COMPOSITE_EXPLICIT_AUTOGRAD);
    k = ct_kernel_unboxed(e->fn);
    k.source = b->name;
    if (ct__set_registered(op, e->key, k, "ct_register_backend") != CT_OK) return CT_ERR_OOM;
    slot->priority = b->priority;
    if (ct__recompute(op) != CT_OK) {
      ct__set_registered(op, e->key, e->replaced, "ct_register_backend"); /* as it was (an existing entry: no allocation) */
      return CT_ERR_OOM;
    }
    e->installed = 1;
    b->ninstalled++;
  }
  return CT_OK;
}

static void ct__print_summary_if_verbose(void);
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
  ct__ensure_all(); /* (kernels by op name: every built-in defined) */
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
  ct__print_summary_if_verbose();
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

CTDEF const char *ct_version(void) { return CT_VERSION_STRING; }

static void ct__print_summary_if_verbose(void) {
  const char *v = getenv("CT_VERBOSE");
  char line[512];
  if (v && *v && *v != '0') fprintf(stderr, "%s\n", ct_backends_summary(line, sizeof line));
}

CTDEF const char *ct_backends_summary(char *buf, size_t cap) {
  const ct_backend *b;
  size_t n = 0;
  int t, any = 0;
  if (!buf || cap == 0) return buf;
#define CT__SUMMARY_ADD(...) (n < cap ? (void)(n += (size_t)snprintf(buf + n, cap - n, __VA_ARGS__)) : (void)0)
  CT__SUMMARY_ADD("ctorch %s; backends:", CT_VERSION_STRING);
  ct__lock();
  for (b = ct__backends; b; b = b->next) {
    if (b->status == CT_OK)
      CT__SUMMARY_ADD("%s %s (priority %d, %d/%d kernels)", any ? "," : "", b->version ? b->version : b->name, b->priority,
                      b->ninstalled, b->nkernels); /* (a backend's version text names it: "cpu_blis 0.1") */
    else
      CT__SUMMARY_ADD("%s %s refused (%s)", any ? "," : "", b->name, ct_status_name(b->status));
    any = 1;
  }
  ct__unlock();
  if (!any) CT__SUMMARY_ADD(" none (reference kernels)");
  CT__SUMMARY_ADD("; devices: cpu");
  for (t = 0; t < CT_DEVICE_NUM; t++) {
    int count;
    if (t == CT_DEVICE_CPU || t == CT_DEVICE_META || !ct_device_interface_get((ct_device_type)t)) continue;
    count = ct_device_count((ct_device_type)t);
    CT__SUMMARY_ADD(", %s x%d", ct_device_type_name((ct_device_type)t), count);
  }
#undef CT__SUMMARY_ADD
  if (n >= cap) buf[cap - 1] = 0;
  return buf;
}

CTDEF ct_tensor *ct_backend_empty(const char *op, int ndim, const int64_t *sizes, ct_dtype dtype, ct_device device) {
  return ct__empty(op ? op : "ct_backend_empty", ndim, sizes, dtype, device);
}
CTDEF void ct_backend_bump_version(ct_tensor *t) {
  if (t) t->storage->version++;
}

CT_EXTERN_C_END
#endif /* CT__BACKEND_IMPL */
