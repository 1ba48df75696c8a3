// tests/cpp_smoke.cpp - the header used from C++: every public macro, and
// custom ops defined with CT_DEFINE_OP in C++ (frontend, boxed calls,
// backward, no-grad, meta, ct_opcheck).
//
// Built by tests/run_all.sh with g++ and clang++ (-Wall -Wextra -Wpedantic
// -Werror): the implementation compiled as C++17 once, this file as C++11,
// C++14 and C++17 against it (-DCT__DECLARATIONS_ONLY). Alone it builds with
// its implementation: c++ -std=c++11 -I. tests/cpp_smoke.cpp -lpthread
// Each check prints "ok   name" or "FAIL name"; the last line is
// "N passed, N failed", as the suite's.
//
// Every public macro of the headers is used below: run_all.sh lists the
// macros they define (#define CT_... or ct_..., less the internal CT__ and
// ct__ names and the include guards) and fails when one is missing from this
// file's code (comments do not count).
#define CTORCH_IMPLEMENTATION
#include "ctorch.h"

#include <cmath>
#include <cstdio>
#include <cstring>

static int passed, failed;

static void check(bool ok, const char *what) {
  std::printf("%s %s\n", ok ? "ok  " : "FAIL", what);
  if (!ok && ct_last_error() != CT_OK) std::printf("    last error: %s\n", ct_last_error_message());
  if (ok) passed++;
  else failed++;
  ct_clear_error();
}

static bool near(double a, double b, double tol = 1e-6) { return std::fabs(a - b) <= tol * (1 + std::fabs(b)); }

// every element of t equals want[i]
static bool values_are(const ct_tensor *t, const double *want, int64_t n, double tol = 1e-6) {
  if (!t || t->numel != n) return false;
  for (int64_t i = 0; i < n; i++)
    if (!near(ct_get(t, i), want[i], tol)) return false;
  return true;
}

// ---- CT_EXTERN_C_BEGIN / END: a C-linkage function defined in C++ ----
CT_EXTERN_C_BEGIN
int cpp_smoke_c_linkage(int x);
CT_EXTERN_C_END
int cpp_smoke_c_linkage(int x) { return 2 * x; }

// ---- constants usable in constant expressions ----
static_assert(CT_VERSION_MAJOR >= 0 && CT_VERSION_MINOR >= 0 && CT_VERSION_PATCH >= 0, "version");
static_assert(CT_MAX_DIMS >= 4 && CT_MAX_ARGS >= 6 && CT_MAX_RETURNS >= 1 && CT_MAX_THREADS >= 1, "limits");
static_assert(CT_DEVICE_MAX_INDEX > 0 && CT_EVENT_TIMING != 0, "device");
static_assert((CT_TENSOR_WRAPPED_NUMBER & CT_TENSOR_REQUIRES_GRAD) == 0, "tensor flags");
static_assert(CT_ITER_MAX_OPERANDS >= 3 && CT_ITER_GRAIN > 0, "iter");
static_assert((CT_POINTWISE_CHECK_DIVISOR | CT_POINTWISE_ANY_INPUT | CT_POINTWISE_FLAT | CT_POINTWISE_OUT_OVERLAPS) == 15, "pointwise");
static_assert(CT_REDUCTION_CHECK_INDEX == 1 && CT_RANDOM_CHECK_PROBS == 1 && CT_DEFAULT_SEED == 67280421310721ull, "reduce, random");
static_assert((CT_BACKEND_KEYS & CT_AUTOGRAD_KEYS) == 0 && (CT_BACKEND_KEYS & CT_FUNCTIONALITY_KEYS) == 0, "key masks");
static_assert(CT_KEY_CPU + CT_AUTOGRAD_KEY_OFFSET == CT_KEY_AUTOGRAD_CPU, "autograd key offset");
static_assert(CT_INT_NONE == INT64_MIN && CT_CPU_CACHE_LIMIT >= 0u && CT_BACKEND_ABI != 0, "misc");
static_assert(CT_HAVE_CLEANUP == 0 || CT_HAVE_CLEANUP == 1, "cleanup");
static_assert(CT_SAFETENSORS_MAX_HEADER >= (1u << 20), "safetensors header limit");

// =====================================================================
// Custom ops defined from C++ with CT_DEFINE_OP
// =====================================================================

// ---- cpp::scaled_square(self, scale) = scale * self^2: a CPU kernel, a meta
// function and a derivative, given in another order than ct_op_def's ----
static ct_tensor *scaled_square_cpu(ct_keyset, ct_tensor *self, double scale) {
  ct_tensor *out = nullptr;
  if (self->dtype != CT_F32 && self->dtype != CT_F64) {
    ct_fail(CT_ERR_DTYPE, "cpp::scaled_square", "expected float32 or float64, got %s", ct_dtype_name((ct_dtype)self->dtype));
    return nullptr;
  }
  CT_SCOPE { // kernels run below the caller's scope: their own temporaries
    ct_tensor *x = ct_contiguous(self);
    ct_tensor *y = ct_empty_like(self);
    if (x && y && self->dtype == CT_F32) {
      const float *xp = static_cast<const float *>(ct_data_ptr(x));
      float *yp = static_cast<float *>(ct_data_ptr(y));
      for (int64_t i = 0; i < x->numel; i++) yp[i] = static_cast<float>(scale * xp[i] * xp[i]);
    } else if (x && y) {
      const double *xp = static_cast<const double *>(ct_data_ptr(x));
      double *yp = static_cast<double *>(ct_data_ptr(y));
      for (int64_t i = 0; i < x->numel; i++) yp[i] = scale * xp[i] * xp[i];
    }
    out = ct_keep(x ? y : nullptr);
  }
  return out;
}
static ct_tensor *scaled_square_meta(ct_keyset, ct_tensor *self, double) { return ct_empty_like(self); }
// d/dself = grad * 2 * scale * self, with ct ops (so double backward works)
static ct_status scaled_square_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
  ct_tensor *self = ct_unbox(ct_tensor *, &c->args[0]);
  double scale = ct_unbox(double, &c->args[1]);
  if (ct_backward_needs(c, 0)) grad_inputs[0] = ct_mul(c->grad, ct_mul_scalar(self, ct_float(2 * scale)));
  return ct_last_error();
}
CT_DEFINE_OP(cpp_scaled_square, "cpp::scaled_square(Tensor self, float scale) -> Tensor",
             CT_PARAMS(ct_tensor *, self, double, scale),
             .backward = scaled_square_backward, .meta = CT_FN(scaled_square_meta), .cpu = CT_FN(scaled_square_cpu))

// ---- cpp::axpby(x, y, a, b, k, neg) = sign * k * (a x + b y): six
// parameters of five types, one CompositeExplicitAutograd kernel written with
// ct ops (it serves the CPU and the meta device), a derivative for two inputs ----
static double axpby_coef(const ct_value *args, double ab) {
  int k = ct_unbox(int, &args[4]);
  bool neg = ct_unbox(bool, &args[5]);
  return (neg ? -1.0 : 1.0) * k * ab;
}
static ct_tensor *axpby_composite(ct_keyset, ct_tensor *x, ct_tensor *y, ct_scalar a, double b, int k, bool neg) {
  ct_tensor *out = nullptr;
  double s = (neg ? -1.0 : 1.0) * k;
  CT_SCOPE { out = ct_keep(ct_add(ct_mul_scalar(x, ct_float(s * ct_scalar_to_double(a))), ct_mul_scalar(y, ct_float(s * b)))); }
  return out;
}
static ct_status axpby_backward(const ct_backward_ctx *c, ct_tensor **grad_inputs) {
  double a = ct_scalar_to_double(ct_unbox(ct_scalar, &c->args[2])), b = ct_unbox(double, &c->args[3]);
  if (ct_backward_needs(c, 0)) grad_inputs[0] = ct_mul_scalar(c->grad, ct_float(axpby_coef(c->args, a)));
  if (ct_backward_needs(c, 1)) grad_inputs[1] = ct_mul_scalar(c->grad, ct_float(axpby_coef(c->args, b)));
  return ct_last_error();
}
CT_DEFINE_OP(cpp_axpby, "cpp::axpby(Tensor x, Tensor y, Scalar a, float b, int k, bool neg) -> Tensor",
             CT_PARAMS(ct_tensor *, x, ct_tensor *, y, ct_scalar, a, double, b, int, k, bool, neg),
             .composite = CT_FN(axpby_composite), .backward = axpby_backward)

// ---- cpp::plus_to(self, n, device) = (self + n) on device: int64_t and
// Device parameters, CPU and meta kernels, no derivative ----
static ct_tensor *plus_to_kernel(ct_keyset, ct_tensor *self, int64_t n, ct_device device) {
  ct_tensor *out = nullptr;
  CT_SCOPE { out = ct_keep(ct_to_device(ct_add_scalar(self, ct_int(n)), device)); }
  return out;
}
CT_DEFINE_OP(cpp_plus_to, "cpp::plus_to(Tensor self, int n, Device device) -> Tensor",
             CT_PARAMS(ct_tensor *, self, int64_t, n, ct_device, device),
             .cpu = CT_FN(plus_to_kernel), .meta = CT_FN(plus_to_kernel))

// =====================================================================
// A structured family's impl step from C++ (registered, not run: no device of that type)
static ct_status cpp_tril_impl(ct_tensor *, int64_t, ct_tensor *) { return CT_OK; }

// A backend kernel from C++: CT_BACKEND_KERNEL, CT_BACKEND_REPLACED
// =====================================================================
static int backend_mm_calls;
static ct_kernel_mm backend_mm;
static ct_backend_kernel backend_kernels[] = {CT_BACKEND_KERNEL(mm, CT_KEY_CPU, backend_mm)};
static ct_tensor *backend_mm(ct_keyset ks, ct_tensor *self, ct_tensor *mat2) {
  backend_mm_calls++; // counts, then lets the kernel it displaced compute
  ct_kernel_mm *replaced = CT_BACKEND_REPLACED(mm, backend_kernels[0]);
  return replaced ? replaced(ks, self, mat2) : nullptr;
}

// =====================================================================
// A kernel registered by hand: ct_def, ct_impl, CT_FN
// =====================================================================
static ct_tensor *twice_cpu(ct_keyset, ct_tensor *self) { return ct_mul_scalar(self, ct_int(2)); }

// guards restore what they changed when the body returns early (where
// CT_HAVE_CLEANUP: GCC and Clang)
static bool returns_from_no_grad(void) {
  CT_NO_GRAD {
    if (!ct_is_grad_enabled()) return true;
  }
  return false;
}

static int handler_calls;
static void count_errors(ct_status, const char *, void *user) { ++*static_cast<int *>(user); }

int main() {
  const int64_t live0 = ct_memory_stats_get().live_tensors;
  ct_clear_error();

  // ---- the original smoke test: ops, a temporaries scope, ct_keep ----
  {
    const int64_t sizes[2] = {2, 3};
    ct_tensor *a = ct_ones(2, sizes, CT_F32), *b = nullptr;
    CT_SCOPE {
      ct_tensor *t = ct_mul_scalar(ct_add(a, a), ct_float(1.5));
      b = ct_keep(ct_sum(t));
    }
    double v = 0;
    check(b && ct_item(b, &v) == CT_OK && v == 18.0, "smoke: ct_add, ct_mul_scalar, ct_sum in CT_SCOPE, ct_keep (sum = 18)");
    ct_release(a);
    ct_release(b);
  }

  // ---- CT_DIMS ----
  CT_SCOPE {
    std::size_t rows = 2;
    int64_t cols = 3;
    ct_tensor *z = ct_zeros(CT_DIMS(rows, cols, 4), CT_F32);
    ct_tensor *s = z ? ct_sum_dim(ct_add_scalar(z, ct_int(1)), CT_DIMS(0, 2), false) : nullptr;
    const double want[3] = {8, 8, 8};
    check(z && z->ndim == 3 && z->sizes[0] == 2 && z->sizes[1] == 3 && z->sizes[2] == 4 && values_are(s, want, 3),
          "CT_DIMS: rank and sizes from literals, size_t and int64_t (ct_zeros, ct_sum_dim)");
  }

  // ---- version, allocator and branch-hint macros, CT_EXTERN_C_* ----
  {
    char expect[32];
    std::snprintf(expect, sizeof expect, "%d.%d.%d", CT_VERSION_MAJOR, CT_VERSION_MINOR, CT_VERSION_PATCH);
    void *p = CT_MALLOC(16);
    void *q = p ? CT_REALLOC(p, 64) : nullptr;
    bool ok = q != nullptr;
    CT_FREE(q ? q : p);
    ok = ok && CT_LIKELY(std::strcmp(ct_version(), CT_VERSION_STRING) == 0) && !CT_UNLIKELY(std::strcmp(expect, CT_VERSION_STRING) != 0);
    check(ok && cpp_smoke_c_linkage(21) == 42,
          "CT_VERSION_*, CT_MALLOC/CT_REALLOC/CT_FREE, CT_LIKELY/CT_UNLIKELY, CT_EXTERN_C_BEGIN/END");
  }

  // ---- CT_DEFAULT_SEED: a new generator's seed ----
  {
    ct_generator *g = ct_generator_new(CT_CPU);
    check(g && ct_generator_seed(g) == CT_DEFAULT_SEED, "CT_DEFAULT_SEED: a new generator starts from it");
    ct_generator_free(g);
  }

  // ---- errors: CT_ERROR_TABLE, codes and messages, the handler ----
  {
    struct row {
      ct_status code;
      const char *name, *text;
    };
#define ROW(name, value, text) {name, #name, text},
    static const row rows[] = {CT_ERROR_TABLE(ROW)};
#undef ROW
    bool ok = sizeof rows / sizeof rows[0] >= 16;
    for (const row &r : rows) ok = ok && !std::strcmp(ct_status_name(r.code), r.name) && !std::strcmp(ct_status_text(r.code), r.text);
    ct_set_error_handler(count_errors, &handler_calls);
    ct_tensor *a = ct_zeros(CT_DIMS(2, 3), CT_F32), *b = ct_zeros(CT_DIMS(4), CT_F32);
    ct_tensor *c = ct_add(a, b); // shapes do not broadcast
    ok = ok && !c && ct_last_error() == CT_ERR_SHAPE && std::strstr(ct_last_error_message(), "add") && handler_calls == 1;
    ct_set_error_handler(nullptr, nullptr);
    ct_clear_error();
    ok = ok && ct_last_error() == CT_OK && !*ct_last_error_message();
    ct_release(a);
    ct_release(b);
    check(ok, "CT_ERROR_TABLE, ct_status_name/text; a failing call: NULL, CT_ERR_SHAPE, message, handler");
  }

  // ---- CT_DTYPE_TABLE, CT_KEY_TABLE, key masks ----
  {
    bool ok = true;
#define DT(name, ctype, size, str, kind) ok = ok && ct_dtype_size(name) == size && sizeof(ctype) == size && !std::strcmp(ct_dtype_name(name), str);
    CT_DTYPE_TABLE(DT)
#undef DT
    int nkeys = 0;
#define KEY(name, bit, str) ok = ok && !std::strcmp(ct_key_name(name), str), nkeys++;
    CT_KEY_TABLE(KEY)
#undef KEY
    ok = ok && nkeys > 10 && ct_key_is_backend(CT_KEY_CPU) && (ct_keyset_of(CT_KEY_CPU) & CT_BACKEND_KEYS) &&
         (ct_keyset_of(CT_KEY_AUTOGRAD_CPU) & CT_AUTOGRAD_KEYS) && (ct_keyset_of(CT_KEY_TRACER) & CT_FUNCTIONALITY_KEYS) &&
         ct_autograd_key_for(CT_KEY_CPU) == CT_KEY_CPU + CT_AUTOGRAD_KEY_OFFSET;
    check(ok, "CT_DTYPE_TABLE, CT_KEY_TABLE as X-macros; CT_BACKEND_KEYS, CT_AUTOGRAD_KEYS, CT_FUNCTIONALITY_KEYS");
  }

  // ---- devices ----
  CT_SCOPE {
    ct_tensor *m = ct_empty_opts(CT_DIMS(4, 5), ct_opts(CT_F32, CT_META));
    ct_tensor *c = ct_empty_opts(CT_DIMS(2), ct_opts(CT_F64, CT_CPU));
    check(m && m->device.type == CT_DEVICE_META && m->sizes[1] == 5 && c && c->device.type == CT_DEVICE_CPU &&
              ct_device_is_none(CT_NO_DEVICE) && !ct_device_is_none(CT_CPU) && CT_CPU.index < CT_DEVICE_MAX_INDEX,
          "CT_CPU, CT_META, CT_NO_DEVICE, CT_DEVICE_MAX_INDEX");
  }

  // ---- grad-mode guards ----
  {
    bool ok = ct_is_grad_enabled();
    ct_tensor *x = ct_ones(CT_DIMS(3), CT_F32), *y = nullptr, *z = nullptr, *w = nullptr;
    ct_set_requires_grad(x, true);
    ok = ok && (x->flags & CT_TENSOR_REQUIRES_GRAD) != 0;
    CT_NO_GRAD {
      ok = ok && !ct_is_grad_enabled();
      y = ct_mul(x, x);
      CT_ENABLE_GRAD {
        ok = ok && ct_is_grad_enabled();
        z = ct_mul(x, x);
      }
      ok = ok && !ct_is_grad_enabled();
    }
    CT_INFERENCE_MODE {
      ok = ok && !ct_is_grad_enabled();
      w = ct_mul(x, x);
    }
    ok = ok && ct_is_grad_enabled() && y && !ct_requires_grad(y) && z && ct_requires_grad(z) && w && !ct_requires_grad(w);
#if CT_HAVE_CLEANUP
    ok = ok && returns_from_no_grad() && ct_is_grad_enabled();
#endif
    ct_release(x), ct_release(y), ct_release(z), ct_release(w);
    check(ok, "CT_NO_GRAD, CT_ENABLE_GRAD, CT_INFERENCE_MODE; return from inside a guard restores it");
  }

  // ---- key guards ----
  {
    const ct_keyset tracer = ct_keyset_of(CT_KEY_TRACER), cpu = ct_keyset_of(CT_KEY_CPU);
    bool ok = !(ct_dispatch_keys(0) & tracer);
    CT_INCLUDE_KEYS(tracer) {
      ok = ok && (ct_dispatch_keys(0) & tracer);
      CT_EXCLUDE_KEYS(tracer) { ok = ok && !(ct_dispatch_keys(cpu) & tracer) && (ct_dispatch_keys(cpu) & cpu); }
      ok = ok && (ct_dispatch_keys(0) & tracer);
    }
    check(ok && !(ct_dispatch_keys(0) & tracer), "CT_INCLUDE_KEYS, CT_EXCLUDE_KEYS nest and restore");
  }

  // ---- device and stream guards ----
  {
    ct_stream s0 = ct_current_stream(CT_CPU);
    bool ok = ct_current_device(CT_DEVICE_CPU) == 0;
    CT_DEVICE_GUARD(CT_CPU) {
      ok = ok && ct_current_device(CT_DEVICE_CPU) == 0;
      CT_STREAM_GUARD(s0) { ok = ok && ct_stream_eq(ct_current_stream(CT_CPU), s0); }
    }
    check(ok && ct_last_error() == CT_OK && ct_stream_eq(ct_current_stream(CT_CPU), s0), "CT_DEVICE_GUARD, CT_STREAM_GUARD");
  }

  // ---- temporaries ----
  {
    const int64_t before = ct_memory_stats_get().live_tensors;
    ct_tensor *kept = nullptr;
    int64_t inside = 0;
    CT_SCOPE {
      ct_tensor *t = ct_relu(ct_add(ct_ones(CT_DIMS(4), CT_F32), ct_full(CT_DIMS(4), ct_float(-2), CT_F32)));
      inside = ct_memory_stats_get().live_tensors - before;
      kept = ct_keep(t);
    }
    const int64_t after = ct_memory_stats_get().live_tensors - before;
    const double want[4] = {0, 0, 0, 0};
    check(inside >= 4 && after == 1 && values_are(kept, want, 4), "CT_SCOPE releases its temporaries, ct_keep lets one escape");
    ct_release(kept);
  }

  // ---- CT_INT_NONE: an `int?` argument left as None ----
  CT_SCOPE {
    const float xs[6] = {1, 5, 2, 7, 0, 3};
    ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F32, xs);
    ct_tensor *all = ct_argmax(x, CT_INT_NONE, false), *rows = ct_argmax(x, 1, false);
    const double want_all[1] = {3}, want_rows[2] = {1, 0};
    check(values_are(all, want_all, 1) && values_are(rows, want_rows, 2), "CT_INT_NONE: ct_argmax over every element");
  }

  // ---- CT_FN with ct_def / ct_impl ----
  CT_SCOPE {
    ct_op *op = ct_def("cpp::twice(Tensor self) -> Tensor");
    bool ok = op && ct_impl("cpp::twice", CT_KEY_CPU, ct_kernel_unboxed(CT_FN(twice_cpu))) == CT_OK;
    ct_tensor *x = ct_full(CT_DIMS(3), ct_float(1.25), CT_F32);
    ct_value arg = ct_value_tensor(x);
    ct_tensor *y = ok ? ct_call_op(op, 1, &arg) : nullptr;
    const double want[3] = {2.5, 2.5, 2.5};
    check(ok && values_are(y, want, 3), "CT_FN: a C++ kernel registered with ct_def/ct_impl, called boxed");
  }

  // ---- CT_STRUCTURED_IMPL: a device type's impl step of a structured family ----
  {
    const ct_op *op = ct_op_find("tril_");
    bool ok = op && ct_set_structured_impl("tril.out", CT_DEVICE_PRIVATEUSE3, CT_STRUCTURED_IMPL(tril_out, cpp_tril_impl)) == CT_OK &&
              ct_op_registered(op, CT_KEY_PRIVATEUSE3).source != nullptr &&
              ct_set_structured_impl("tril.out", CT_DEVICE_PRIVATEUSE3, nullptr) == CT_OK &&
              ct_op_registered(op, CT_KEY_PRIVATEUSE3).source == nullptr;
    check(ok, "CT_STRUCTURED_IMPL: a C++ impl step registered for a device type, then removed");
  }

  // ---- a backend from C++ ----
  {
    static ct_backend b;
    b.abi = CT_BACKEND_ABI;
    b.tensor_size = static_cast<uint32_t>(sizeof(ct_tensor));
    b.name = "cpp_smoke";
    b.version = "cpp_smoke 1";
    b.priority = 1000;
    b.kernels = backend_kernels;
    b.nkernels = 1;
    bool ok = ct_register_backend(&b) == CT_OK && backend_kernels[0].installed;
    ct_tensor *r = nullptr;
    CT_SCOPE {
      const float xs[4] = {1, 2, 3, 4};
      ct_tensor *x = ct_from_array(CT_DIMS(2, 2), CT_F32, xs);
      r = ct_keep(ct_mm(x, x));
    }
    const double want[4] = {7, 10, 15, 22};
    check(ok && backend_mm_calls == 1 && values_are(r, want, 4) && ct_backend_find("cpp_smoke") == &b,
          "CT_BACKEND_ABI, CT_BACKEND_KERNEL, CT_BACKEND_REPLACED: a C++ kernel wraps the one it displaced");
    ct_release(r);
  }

  // ---- ct_box / ct_unbox ----
  {
    ct_tensor *t = ct_zeros(CT_DIMS(1), CT_F32);
    ct_value vt = ct_box(t), vd = ct_box(2.5), vf = ct_box(1.5f), vi = ct_box(static_cast<int64_t>(1) << 40), vn = ct_box(-7),
             vb = ct_box(true), vs = ct_box(ct_int(9)), vv = ct_box(CT_META);
    bool ok = vt.tag == CT_VALUE_TENSOR && ct_unbox(ct_tensor *, &vt) == t && vd.tag == CT_VALUE_DOUBLE && ct_unbox(double, &vd) == 2.5 &&
              vf.tag == CT_VALUE_DOUBLE && ct_unbox(double, &vf) == 1.5 && vi.tag == CT_VALUE_INT &&
              ct_unbox(int64_t, &vi) == (static_cast<int64_t>(1) << 40) && vn.tag == CT_VALUE_INT && ct_unbox(int, &vn) == -7 &&
              vb.tag == CT_VALUE_BOOL && ct_unbox(bool, &vb) && vs.tag == CT_VALUE_SCALAR && ct_unbox(ct_scalar, &vs).v.i == 9 &&
              vv.tag == CT_VALUE_DEVICE && ct_unbox(ct_device, &vv).type == CT_DEVICE_META;
    ct_release(t);
    check(ok, "ct_box / ct_unbox: Tensor, float (double and float), int (int64_t and int), bool, Scalar, Device");
  }

  // ---- CT_DEFINE_OP from C++: cpp::scaled_square ----
  {
    const ct_op *op = ct_op_find("cpp::scaled_square");
    check(op && ct_op_registered(op, CT_KEY_CPU).unboxed && ct_op_registered(op, CT_KEY_META).unboxed &&
              ct_op_registered(op, CT_KEY_AUTOGRAD).boxed,
          "CT_DEFINE_OP (C++): registered before main, CPU, Meta and Autograd kernels");
    cpp_scaled_square_register(); // idempotent
    check(ct_op_find("cpp::scaled_square") == op && ct_last_error() == CT_OK, "CT_DEFINE_OP (C++): NAME_register() again is a no-op");
  }
  CT_SCOPE {
    const float xs[6] = {1, -2, 3, 0.5f, -0.25f, 2};
    ct_tensor *x = ct_from_array(CT_DIMS(2, 3), CT_F32, xs);
    ct_set_requires_grad(x, true);
    ct_tensor *y = cpp_scaled_square(x, 3.0); // the typed frontend
    double want[6], dwant[6];
    for (int i = 0; i < 6; i++) want[i] = 3.0 * xs[i] * xs[i], dwant[i] = 6.0 * xs[i];
    check(values_are(y, want, 6) && ct_requires_grad(y) && y->sizes[0] == 2 &&
              std::strcmp(ct_grad_fn_name(y), "cpp::scaled_squareBackward") == 0,
          "CT_DEFINE_OP (C++): the typed frontend computes and records cpp::scaled_squareBackward");

    ct_value args[2] = {ct_box(x), ct_box(3.0)};
    ct_tensor *yb = ct_call_op(ct_op_find("cpp::scaled_square"), 2, args);
    ct_value buf[4];
    ct_stack s;
    ct_stack_init(&s, buf, 4);
    ct_stack_push(&s, ct_box(x));
    ct_stack_push(&s, ct_box(3.0));
    bool boxed_ok = ct_call_boxed(ct_op_find("cpp::scaled_square"), &s) == CT_OK && s.size == 1;
    ct_value r = boxed_ok ? ct_stack_pop(&s) : ct_value_none();
    boxed_ok = boxed_ok && r.tag == CT_VALUE_TENSOR && values_are(r.v.tensor, want, 6);
    ct_value_release(&r);
    ct_stack_free(&s);
    check(values_are(yb, want, 6) && boxed_ok, "CT_DEFINE_OP (C++): boxed calls (ct_call_op, ct_call_boxed) give the frontend's result");

    bool bw = ct_backward(ct_sum(y)) == CT_OK;
    check(bw && values_are(ct_grad(x), dwant, 6, 1e-5), "CT_DEFINE_OP (C++): backward through the C++ derivative, d sum / dx = 6 x");

    ct_tensor *ng = nullptr;
    CT_NO_GRAD { ng = cpp_scaled_square(x, 3.0); }
    check(ng && !ct_requires_grad(ng) && values_are(ng, want, 6), "CT_DEFINE_OP (C++): under CT_NO_GRAD nothing is recorded");

    ct_tensor *m = ct_empty_opts(CT_DIMS(4, 5), ct_opts(CT_F64, CT_META));
    ct_tensor *rm = cpp_scaled_square(m, 1.0);
    check(rm && rm->device.type == CT_DEVICE_META && rm->sizes[0] == 4 && rm->sizes[1] == 5 && rm->dtype == CT_F64,
          "CT_DEFINE_OP (C++): the meta function gives the shape on the meta device");

    ct_tensor *bad = cpp_scaled_square(ct_zeros(CT_DIMS(2), CT_I64), 1.0);
    check(!bad && ct_last_error() == CT_ERR_DTYPE && std::strstr(ct_last_error_message(), "cpp::scaled_square"),
          "CT_DEFINE_OP (C++): a kernel's ct_fail reaches the caller (NULL, CT_ERR_DTYPE)");

    ct_opcheck_opts opts;
    std::memset(&opts, 0, sizeof opts);
    opts.gradgradcheck = true;
    ct_value oargs[2] = {ct_box(x), ct_box(0.5)};
    check(ct_opcheck("cpp::scaled_square", 2, oargs, &opts) == CT_OK,
          "CT_DEFINE_OP (C++): ct_opcheck (boxed = frontend, meta = kernel, gradcheck, gradgradcheck)");
  }

  // ---- cpp::axpby: six parameters, a composite kernel, two gradients ----
  CT_SCOPE {
    const double xs[4] = {1, 2, 3, 4}, ys[4] = {-1, 0.5, 2, -3};
    ct_tensor *x = ct_from_array(CT_DIMS(2, 2), CT_F64, xs), *y = ct_from_array(CT_DIMS(2, 2), CT_F64, ys);
    ct_set_requires_grad(x, true);
    ct_set_requires_grad(y, true);
    ct_tensor *r = cpp_axpby(x, y, ct_int(2), 0.5, 3, true); // -3 (2x + 0.5y)
    double want[4];
    for (int i = 0; i < 4; i++) want[i] = -3 * (2 * xs[i] + 0.5 * ys[i]);
    check(values_are(r, want, 4), "CT_DEFINE_OP (C++): Tensor, Tensor, Scalar, float, int, bool parameters; composite kernel");
    bool bw = ct_backward(ct_sum(r)) == CT_OK;
    const double gx[4] = {-6, -6, -6, -6}, gy[4] = {-1.5, -1.5, -1.5, -1.5};
    check(bw && values_are(ct_grad(x), gx, 4) && values_are(ct_grad(y), gy, 4), "CT_DEFINE_OP (C++): gradients of both tensor inputs");
    ct_value args[6] = {ct_box(x), ct_box(y), ct_box(ct_float(-1.5)), ct_box(2.0), ct_box(2), ct_box(false)};
    check(ct_opcheck("cpp::axpby", 6, args, nullptr) == CT_OK, "CT_DEFINE_OP (C++): ct_opcheck on the composite op (with gradcheck)");
  }

  // ---- cpp::plus_to: int64_t and Device parameters, no derivative ----
  CT_SCOPE {
    ct_tensor *x = ct_full(CT_DIMS(3), ct_float(0.5), CT_F32);
    ct_tensor *r = cpp_plus_to(x, static_cast<int64_t>(2), CT_CPU);
    const double want[3] = {2.5, 2.5, 2.5};
    check(values_are(r, want, 3) && r->device.type == CT_DEVICE_CPU, "CT_DEFINE_OP (C++): int64_t and Device parameters");
    ct_opcheck_opts opts;
    std::memset(&opts, 0, sizeof opts);
    opts.skip_gradcheck = true;
    ct_value args[3] = {ct_box(x), ct_box(static_cast<int64_t>(-1)), ct_box(CT_CPU)};
    check(ct_opcheck("cpp::plus_to", 3, args, &opts) == CT_OK, "CT_DEFINE_OP (C++): ct_opcheck without a derivative");
    ct_set_requires_grad(x, true);
    ct_tensor *g = cpp_plus_to(x, static_cast<int64_t>(1), CT_CPU);
    ct_status st = g ? ct_backward(ct_sum(g)) : CT_OK;
    check(g && st == CT_ERR_UNSUPPORTED && std::strstr(ct_last_error_message(), "not implemented"),
          "CT_DEFINE_OP (C++): without a derivative, backward reports it (CT_ERR_UNSUPPORTED)");
  }

  // ---- nn from C++: a module tree, a training step, the state dict ----
  {
    ct_module *mods[3] = {ct_nn_embedding(5, 4, CT_NN_NO_PADDING_IDX), ct_nn_flatten(1, -1), ct_nn_linear(8, 2, true)};
    ct_module *net = ct_nn_sequential(3, mods);
    ct_optim_opts o = ct_sgd_defaults(0.1);
    int n = 0;
    ct_tensor *const *params = net ? ct_module_parameters(net, &n) : nullptr;
    ct_optim *opt = params ? ct_optim_new(CT_OPTIM_SGD, n, params, &o) : nullptr;
    double before = 0, after = 0;
    for (int step = 0; opt && step < 5; step++) CT_SCOPE {
      ct_tensor *idx = ct_full(CT_DIMS(3, 2), ct_int(step % 5), CT_I64);
      ct_tensor *loss = ct_sum(ct_square(ct_module_forward(net, idx)));
      (step == 0 ? before : after) = loss ? ct_get(loss, 0) : -1;
      ct_optim_zero_grad(opt);
      if (ct_backward(loss) != CT_OK || ct_optim_step(opt) != CT_OK) break;
    }
    ct_state_dict *sd = net ? ct_module_state_dict(net) : nullptr;
    void *file = nullptr;
    size_t len = 0;
    ct_safetensors *st = sd && ct_safetensors_save_buffer(sd->n, sd->names, sd->tensors, 0, nullptr, nullptr, &file, &len) == CT_OK
                             ? ct_safetensors_from_buffer(file, len)
                             : nullptr;
    check(st && ct_safetensors_count(st) == 3 && ct_safetensors_load_into(st, sd->n, sd->names, sd->tensors, true, nullptr, nullptr) == CT_OK,
          "a state dict through safetensors from C++");
    ct_safetensors_close(st);
    ct_safetensors_free_buffer(file);
    check(n == 3 && sd && sd->n == 3 && !std::strcmp(sd->names[2], "2.bias") && after >= 0 && ct_last_error() == CT_OK,
          "nn modules, state dict and an optimizer from C++");
    ct_state_dict_free(sd);
    ct_optim_free(opt);
    ct_module_free(net);
  }

  const int64_t live = ct_memory_stats_get().live_tensors - live0;
  check(live == 0, "no tensor leaked");
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
