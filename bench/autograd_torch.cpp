// bench/autograd_torch.cpp - the libtorch side of bench/autograd.c.
//
// float32, plain grad mode (not inference mode), one intra-op thread:
//   which 0: at::add(a, b) on 1-element leaves that require grad (the result,
//            and so the autograd node it records, is destroyed each call)
//   which 1: one training step of a tiny MLP at batch 1
//   which 2: the same step at batch 64
// The MLP is 32 -> 64 -> 64 -> 8 with ReLU between the layers; parameters
// W1 [32,64], b1 [64], W2 [64,64], b2 [64], W3 [64,8], b3 [8] are leaves that
// require grad, initialised once in setup from a fixed seed with
// uniform(-0.1, 0.1). x [B,32] and t [B,8] are fixed and do not require grad.
// One step:
//   h1 = relu(x.mm(W1) + b1); h2 = relu(h1.mm(W2) + b2); y = h2.mm(W3) + b3
//   loss = (y - t).pow(2).mean(); loss.backward()
//   under NoGradGuard, for each parameter p: p.sub_(p.grad(), 0.01) and the
//   grad reset to undefined, so every step starts with no grad.
// Both batch sizes train the same parameters.
// C linkage so bench/autograd.c can interleave its repeats with these.
// Build with -std=c++17 -D_GLIBCXX_USE_CXX11_ABI=1 (see bench/run.sh) and
// link -ltorch -ltorch_cpu -lc10 with --no-as-needed (the autograd kernels
// live in libtorch_cpu and register themselves at load time).
#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <ATen/core/grad_mode.h>
#include <torch/version.h>

#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>
#include <vector>

namespace {
constexpr double kLr = 0.01;
constexpr uint64_t kSeed = 20240601;

at::Tensor ta, tb;               // which 0
at::Tensor params[6];            // W1, b1, W2, b2, W3, b3
at::Tensor xs[2], ts[2];         // inputs/targets at batch 1 and batch 64
volatile bool sink;
std::string version;
std::string blas = "unknown";

double now_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

// One full training step on batch index bi (0: batch 1, 1: batch 64);
// returns the loss tensor (computed before the update).
at::Tensor step(int bi) {
  const at::Tensor &x = xs[bi], &t = ts[bi];
  at::Tensor h1 = at::relu(x.mm(params[0]) + params[1]);
  at::Tensor h2 = at::relu(h1.mm(params[2]) + params[3]);
  at::Tensor y = h2.mm(params[4]) + params[5];
  at::Tensor loss = (y - t).pow(2).mean();
  loss.backward();
  {
    at::NoGradGuard no_grad;
    for (at::Tensor &p : params) {
      p.sub_(p.grad(), kLr);
      p.mutable_grad().reset();
    }
  }
  return loss;
}

// "BLAS_INFO=..." from at::show_config(), or "" if absent.
std::string config_value(const std::string &cfg, const char *key) {
  size_t at = cfg.find(key);
  if (at == std::string::npos) return "";
  at += std::strlen(key);
  size_t end = cfg.find_first_of(",\n", at);
  return cfg.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

bool is_blas_lib(const std::string &base) {
  static const char *const prefixes[] = {"libblas", "libcblas", "libopenblas", "libblis",
                                         "libmkl_", "libsatlas", "libtatlas", "libflexiblas"};
  for (const char *p : prefixes)
    if (base.compare(0, std::strlen(p), p) == 0 && base.find(".so") != std::string::npos) return true;
  return false;
}

const char *blas_family(const std::string &path) {
  if (path.find("openblas") != std::string::npos) return "OpenBLAS";
  if (path.find("blis") != std::string::npos) return "BLIS";
  if (path.find("mkl") != std::string::npos) return "MKL";
  if (path.find("atlas") != std::string::npos) return "ATLAS";
  if (path.find("flexiblas") != std::string::npos) return "FlexiBLAS";
  if (path.find("/blas/") != std::string::npos) return "reference BLAS";
  return nullptr;
}

// Which BLAS is in use: the build's BLAS_INFO plus the BLAS libraries that are
// actually mapped into this process (after a matmul has run, so a lazily
// loaded one shows up too). The path in /proc/self/maps is the resolved one,
// so a Debian alternatives symlink shows where it really points.
std::string find_blas() {
  std::string info;
  try {
    info = config_value(at::show_config(), "BLAS_INFO=");
  } catch (const std::exception &) {
  }
  std::vector<std::string> loaded;
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    size_t slash = line.find('/');
    if (slash == std::string::npos) continue;
    std::string path = line.substr(slash);
    std::string base = path.substr(path.rfind('/') + 1);
    if (!is_blas_lib(base)) continue;
    bool seen = false;
    for (const std::string &l : loaded) seen |= (l == path);
    if (!seen) loaded.push_back(path);
  }
  std::string out;
  if (!info.empty()) out = "BLAS_INFO=" + info;
  for (const std::string &path : loaded) {
    std::string base = path.substr(path.rfind('/') + 1);
    if (!out.empty()) out += "; ";
    out += base + " -> " + path;
    if (const char *fam = blas_family(path)) out += std::string(" (") + fam + ")";
  }
  return out.empty() ? "unknown" : out;
}
}  // namespace

extern "C" int torch_autograd_setup(void) {
  try {
    at::set_num_threads(1);
    at::GradMode::set_enabled(true);
    auto opts = at::TensorOptions().dtype(at::kFloat);
    ta = at::full({1}, 1.0, opts).requires_grad_(true);
    tb = at::full({1}, 1e-7, opts).requires_grad_(true);

    at::Generator gen = at::detail::createCPUGenerator(kSeed);
    static const int64_t shapes[6][2] = {{32, 64}, {64, 0}, {64, 64}, {64, 0}, {64, 8}, {8, 0}};
    for (int i = 0; i < 6; i++) {
      at::Tensor p = shapes[i][1] ? at::empty({shapes[i][0], shapes[i][1]}, opts) : at::empty({shapes[i][0]}, opts);
      p.uniform_(-0.1, 0.1, gen);
      params[i] = p.requires_grad_(true);
    }
    static const int64_t batch[2] = {1, 64};
    for (int bi = 0; bi < 2; bi++) {
      xs[bi] = at::empty({batch[bi], 32}, opts).uniform_(-1.0, 1.0, gen);
      ts[bi] = at::empty({batch[bi], 8}, opts).uniform_(-1.0, 1.0, gen);
    }

    version = std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
              std::to_string(TORCH_VERSION_PATCH);
    {
      // One matmul (no grad, parameters untouched) so the BLAS is loaded and used.
      at::NoGradGuard no_grad;
      sink = xs[1].mm(params[0]).defined();
    }
    blas = find_blas();
    return 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torch_autograd_setup: %s\n", e.what());
    return -1;
  }
}

extern "C" const char *torch_autograd_version(void) { return version.c_str(); }

extern "C" const char *torch_autograd_blas(void) { return blas.c_str(); }

// Elapsed ns for `iters` iterations of which (0 add, 1 step at batch 1,
// 2 step at batch 64); negative on error.
extern "C" double torch_autograd_run(int which, long iters) {
  try {
    bool ok = true;
    double t0 = now_ns();
    switch (which) {
      case 0:
        for (long i = 0; i < iters; i++) {
          at::Tensor r = at::add(ta, tb);
          ok &= r.defined();
        }
        break;
      case 1:
      case 2:
        for (long i = 0; i < iters; i++) {
          at::Tensor loss = step(which - 1);
          ok &= loss.defined();
        }
        break;
      default:
        return -1.0;
    }
    double t1 = now_ns();
    sink = ok;
    return ok ? t1 - t0 : -1.0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torch_autograd_run: %s\n", e.what());
    return -1.0;
  }
}

// Runs one training step of which (1 or 2) and returns its loss (computed
// before that step's update); negative on error.
extern "C" double torch_autograd_loss(int which) {
  try {
    if (which != 1 && which != 2) return -1.0;
    return step(which - 1).item<double>();
  } catch (const std::exception &e) {
    std::fprintf(stderr, "torch_autograd_loss: %s\n", e.what());
    return -1.0;
  }
}
