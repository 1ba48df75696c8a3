// bench/dispatch_torch.cpp - the libtorch side of bench/dispatch.c.
//
// The same calls on 1-element float32 tensors that do not require
// grad, in plain (not inference) mode, with one intra-op thread:
//   op 0: at::add(a, b)           (result destroyed each call)
//   op 1: at::add_out(out, a, b)
//   op 2: a.add_(b)
//   op 3: at::zeros({4})          (a factory: BackendSelect, empty, fill)
// C linkage so bench/dispatch.c can interleave its repeats with these.
// Build with -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 (see bench/run.sh).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/version.h>

#include <time.h>

#include <cstdio>
#include <exception>
#include <string>

namespace {
at::Tensor ta, tb, tout;
volatile bool sink;
std::string version;

double now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}
}  // namespace

extern "C" int torch_dispatch_setup(void) {
  try {
    at::set_num_threads(1);
    auto opts = at::TensorOptions().dtype(at::kFloat).requires_grad(false);
    ta = at::full({1}, 1.0, opts);
    tb = at::full({1}, 1e-7, opts);
    tout = at::empty({1}, opts);
    version = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
              std::to_string(TORCH_VERSION_PATCH);
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torch_dispatch_setup: %s\n", e.what());
    return -1;
  }
}

extern "C" const char *torch_dispatch_version(void) { return version.c_str(); }

// Elapsed ns for `calls` calls of op; negative on error.
extern "C" double torch_dispatch_run(int op, long calls) {
  try {
    bool ok = true;
    double t0 = now_ns();
    switch (op) {
      case 0:
        for (long i = 0; i < calls; i++) {
          at::Tensor r = at::add(ta, tb);
          ok &= r.defined();
        }
        break;
      case 1:
        for (long i = 0; i < calls; i++) {
          at::Tensor &r = at::add_out(tout, ta, tb);
          ok &= r.defined();
        }
        break;
      case 2:
        for (long i = 0; i < calls; i++) {
          at::Tensor &r = ta.add_(tb);
          ok &= r.defined();
        }
        break;
      default:
        for (long i = 0; i < calls; i++) {
          at::Tensor r = at::zeros({4});
          ok &= r.defined();
        }
        break;
    }
    double t1 = now_ns();
    sink = ok;
    return ok ? t1 - t0 : -1.0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torch_dispatch_run: %s\n", e.what());
    return -1.0;
  }
}
